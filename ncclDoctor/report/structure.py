"""Terminal lines for a multi-node run's bandwidth structure (reads the report only).

    # structure · 3 nodes · 256 KiB messages
    #   intra-node all_reduce   10.77.0.1 (vm) 0.412 GB/s busbw ...
    #   intra-node busbw (GB/s) by message size, per node:
    #     10.77.0.1 (vm)               4 KiB 0.010 · 16 KiB 0.065 · 256 KiB 0.525
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
    per = (results.get("intra_node_all_reduce") or {}).get("per_node") or {}
    if per:
        from ncclDoctor.units import fmt_size

        lines.append("#   intra-node busbw (GB/s) by message size, per node:")
        for node, sub in per.items():
            lines.append(f"#     {node:<28} "
                         + " · ".join(f"{fmt_size(r['size'])} {r['busbw_gbps']:.3f}" for r in sub.get("rows", [])))
    if st.get("inter_node"):
        inter = st["inter_node"]
        lines.append(f"#   inter-node all_reduce   {_gbps(inter['busbw_gbps'])} busbw over {inter['nranks']} nodes "
                     "(one rank each)")
    if p2p:
        lines.append(f"#   point-to-point          {p2p['pairs_measured']} of {p2p['all_pairs']} pairs in "
                     f"{p2p['rounds']} round{'' if p2p['rounds'] == 1 else 's'}; "
                     f"median {_gbps(p2p.get('median_gbps'))}, reference {_gbps(p2p.get('reference_gbps'))}")
        for pr in p2p.get("pairs", []):
            a, b = pr["nodes"]
            lines.append(f"#     {a} <-> {b}   {_gbps(pr['gbps'])}" + ("" if pr.get("ring") else "   (re-paired)"))
        for n in p2p.get("slow_nodes", []):
            lines.append(f"#   slow node: {n}")
        for a, b in p2p.get("slow_links", []):
            lines.append(f"#   slow link: {a} <-> {b}")
    return lines


def structure_tables(results: dict[str, Any]) -> list[Any]:
    """The same evidence as tables for Markdown and HTML (``report.markdown.Table``):
    each node's intra-node all_reduce against message size, then the inter-node
    all_reduce and every point-to-point pair measured."""
    from ncclDoctor.report.views import Table
    from probes.localize import SLOW_RATIO, median

    out = []
    per = (results.get("intra_node_all_reduce") or {}).get("per_node") or {}
    if per:
        sw = results["intra_node_all_reduce"]
        rows, bad = [], set()
        for node, sub in per.items():
            for r in sub.get("rows", []):
                rows.append([node, r["size"], f"{r['time_us']:.1f}", f"{r['algbw_gbps']:.3f}",
                             f"{r['busbw_gbps']:.3f}"])
        # a node far below the median node at a size is highlighted, by BW204's rule
        by_size: dict[int, list[float]] = {}
        for sub in per.values():
            for r in sub.get("rows", []):
                by_size.setdefault(r["size"], []).append(r["busbw_gbps"])
        for i, row in enumerate(rows):
            vals = by_size[row[1]]
            if len(vals) >= 3 and float(row[4]) < SLOW_RATIO * median(vals):
                bad.add(i)
        out.append(Table(
            "intra_node_all_reduce",
            f"Intra-node all_reduce per node ({sw.get('ranks_per_node')} ranks each, all nodes at once)",
            ["node", "size (B)", "time (us)", "algbw (GB/s)", "busbw (GB/s)"], rows, left=1, bad=bad,
            note=str(sw.get("timing", "")).capitalize() + ".",
        ))
    st = results.get("structure") or {}
    p2p = st.get("p2p") or {}
    rows = []
    if st.get("inter_node"):
        inter = st["inter_node"]
        rows.append([f"inter-node all_reduce ({inter['nranks']} nodes, one rank each)", "", inter["size"],
                     f"{inter['busbw_gbps']:.3f}"])
    for pr in p2p.get("pairs", []):
        a, b = pr["nodes"]
        rows.append([f"{a} <-> {b}", "ring" if pr.get("ring") else "re-paired", p2p.get("size", ""),
                     f"{pr['gbps']:.3f}"])
    if rows:
        slow = set(p2p.get("slow_nodes", [])) | {n for link in p2p.get("slow_links", []) for n in link}
        bad = {i for i, r in enumerate(rows) if any(n in r[0] for n in slow)}
        rounds = p2p.get("rounds", 0)
        note = (f"{p2p.get('pairs_measured', 0)} of {p2p.get('all_pairs', 0)} node pairs measured in {rounds} "
                f"round{'' if rounds == 1 else 's'}; "
                f"point-to-point is bytes sent per second (GB/s), all_reduce is busbw.")
        out.append(Table("structure", f"Between nodes ({st.get('nnodes')} nodes)",
                         ["between", "round", "size (B)", "bandwidth (GB/s)"],
                         rows, left=2, bad=bad, note=note))
    return out
