"""Terminal lines for a multi-node run's bandwidth structure (reads the report only).

    # structure · 3 nodes · 256 KiB messages
    #   intra-node all_reduce   10.77.0.1 (vm) 0.412 GB/s busbw ...
    #   inter-node all_reduce   0.051 GB/s busbw over 3 nodes (one rank each)
    #   point-to-point          3 of 3 pairs in 3 rounds; median 0.094 GB/s
    #     10.77.0.1 (vm) <-> 10.77.0.2 (vm)   0.101 GB/s
"""

from __future__ import annotations

from typing import Any


def _gbps(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f} GB/s"


def structure_lines(results: dict[str, Any]) -> list[str]:
    st = results.get("structure")
    if not st:
        return []
    p2p = st.get("p2p") or {}
    size = (st.get("inter_node") or {}).get("size") or (p2p.get("pairs") or [{}])[0].get("size")
    lines = [f"# structure · {st['nnodes']} nodes" + (f" · {size // 1024} KiB messages" if size else "")]
    for row in st.get("intra_node", []):
        lines.append(f"#   intra-node all_reduce   {row['node']:<28} {_gbps(row['busbw_gbps'])} busbw")
    if st.get("inter_node"):
        inter = st["inter_node"]
        lines.append(f"#   inter-node all_reduce   {_gbps(inter['busbw_gbps'])} busbw over {inter['nranks']} nodes (one rank each)")
    if p2p:
        lines.append(f"#   point-to-point          {p2p['pairs_measured']} of {p2p['all_pairs']} pairs in {p2p['rounds']} rounds; "
                     f"median {_gbps(p2p.get('median_gbps'))}, reference {_gbps(p2p.get('reference_gbps'))}")
        for pr in p2p.get("pairs", []):
            a, b = pr["nodes"]
            lines.append(f"#     {a} <-> {b}   {_gbps(pr['gbps'])}" + ("" if pr.get("ring") else "   (re-paired)"))
        for n in p2p.get("slow_nodes", []):
            lines.append(f"#   slow node: {n}")
        for a, b in p2p.get("slow_links", []):
            lines.append(f"#   slow link: {a} <-> {b}")
    return lines
