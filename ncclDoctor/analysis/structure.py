"""Bandwidth structure of a multi-node run: tables and findings (pure).

Input: the ``structure`` result of every rank (``probes.structure``) and a function
that names node ``i`` ("address (host)"). Output: ``results["structure"]`` for the
report -- intra-node all_reduce per node, inter-node all_reduce over one rank per node,
every point-to-point pair measured with its round -- and the findings. ``per_node_sweep``
builds ``results["intra_node_all_reduce"]``, each node's busbw against message size in
the shape the baseline and the HTML chart read (``{"per_node": {node: {"rows": [...]}}}``),
so ``--baseline`` judges every node at every size and the chart draws a curve per node.

Findings:

- BW201 a slow node (slow against every known-good partner; ``probes.localize``);
- BW202 a slow link between two healthy nodes;
- BW203 slowness that cannot be pinned on a node (2 nodes, or most of them slow);
- BW204 a node whose intra-node all_reduce is far below the other nodes'.
"""

from __future__ import annotations

from typing import Any, Callable

from ncclDoctor.findings import Finding
from ncclDoctor.rules.codes.bw import SLOW_INSIDE_NODE, SLOW_LINK, SLOW_NODE, UNLOCALIZED
from probes import localize


def _p2p(structure: dict[int, dict[str, Any]]) -> dict[str, Any]:
    return next((res["p2p"] for res in structure.values() if res.get("p2p")), {"pairs": [], "rounds": []})


def _intra(structure: dict[int, dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """node -> the slowest rank's intra-node result (the node's pace)."""
    out: dict[int, dict[str, Any]] = {}
    for res in structure.values():
        row = res.get("intra_node")
        if row and (res["node_rank"] not in out or row["time_us"] > out[res["node_rank"]]["time_us"]):
            out[res["node_rank"]] = row
    return out


def per_node_sweep(structure: dict[int, dict[str, Any]], name: Callable[[int], str]) -> dict[str, Any] | None:
    """Each node's intra-node all_reduce at every size; a node's pace at a size is its
    slowest rank's time (the collective ends when that rank does)."""
    worst: dict[int, dict[int, dict[str, Any]]] = {}
    nproc = iters = None
    for res in structure.values():
        nproc, iters = res.get("nproc_per_node", nproc), res.get("iters", iters)
        for row in res.get("intra_node_sweep") or []:
            cur = worst.setdefault(res["node_rank"], {}).get(row["size"])
            if cur is None or row["time_us"] > cur["time_us"]:
                worst[res["node_rank"]][row["size"]] = row
    if not worst:
        return None
    return {
        "ranks_per_node": nproc,
        "iters": iters,
        "timing": f"best of {iters} timed operations per size after one warm-up; a node's time is its slowest rank's",
        "per_node": {name(i): {"rows": [rows[s] for s in sorted(rows)]} for i, rows in sorted(worst.items())},
    }


def analyse(structure: dict[int, dict[str, Any]], name: Callable[[int], str]) -> tuple[dict[str, Any], list[Finding]]:
    if not structure:
        return {}, []
    nnodes = next(iter(structure.values()))["nnodes"]
    p2p = _p2p(structure)
    pairs, rounds, wrong = list(p2p["pairs"]), len(p2p["rounds"]), int(p2p.get("wrong", 0))
    ring = {tuple(p["pair"]): p["gbps"] for p in pairs if p["ring"]}
    repair = {tuple(p["pair"]): p["gbps"] for p in pairs if not p["ring"]}
    ratio = float(p2p.get("slow_ratio", localize.SLOW_RATIO))  # what the ranks judged by (probes.structure)
    v = localize.verdict(ring, repair, nnodes, rounds, ratio)  # type: ignore[arg-type]
    intra = _intra(structure)
    inter = next((r["inter_node"] for r in structure.values() if r.get("inter_node")), None)
    results = {
        "nnodes": nnodes,
        "intra_node": [{"node": name(i), **row} for i, row in sorted(intra.items())],
        "inter_node": inter,
        "p2p": {
            "rounds": rounds,
            "size": p2p.get("size"),
            "pairs_measured": len(pairs),
            "all_pairs": nnodes * (nnodes - 1) // 2,
            "reference_gbps": v.reference_gbps,
            "slow_ratio": ratio,
            "median_gbps": v.median_gbps,
            "wrong": wrong,
            "elapsed_s": p2p.get("elapsed_s"),
            "pairs": [{**p, "nodes": [name(p["pair"][0]), name(p["pair"][1])]} for p in pairs],
            "slow_nodes": [name(i) for i in v.slow_nodes],
            "slow_links": [[name(a), name(b)] for a, b in v.slow_links],
        },
    }
    return results, _findings(v, intra, name)


def _gbps(x: float) -> str:
    return f"{x * 1e3:.1f} MB/s" if x < 1 else f"{x:.2f} GB/s"


def _findings(v: localize.Verdict, intra: dict[int, dict[str, Any]], name: Callable[[int], str]) -> list[Finding]:
    out = []
    ref = f"the reference (75th percentile of pairs) {_gbps(v.reference_gbps or 0)}, median {_gbps(v.median_gbps or 0)}"
    for s in v.slow_nodes:
        rows = v.evidence[s]
        seen = ", ".join(f"{_gbps(r['gbps'])} with {name(r['pair'][1] if r['pair'][0] == s else r['pair'][0])}"
                         for r in rows)
        out.append(SLOW_NODE.finding(
            f"{name(s)} is slow: its point-to-point exchanges ran at {seen}, against {ref}.",
            nodes=[name(s)], evidence=rows,
        ))
    for a, b in v.slow_links:
        [row] = v.evidence[(a, b)]
        out.append(SLOW_LINK.finding(
            f"The link {name(a)} <-> {name(b)} ran at {_gbps(row['gbps'])} against {ref}; both nodes are fast with "
            "other partners.",
            nodes=[name(a), name(b)], evidence=[row],
        ))
    if v.unresolved:
        out.append(UNLOCALIZED.finding(
            f"Nodes {', '.join(name(s) for s in v.unresolved)} were slow with every partner and no known-good node was "
            "left to test them against.",
            nodes=[name(s) for s in v.unresolved], evidence=[v.evidence[s] for s in v.unresolved],
        ))
    out += _intra_findings(intra, name)
    return out


def _intra_findings(intra: dict[int, dict[str, Any]], name: Callable[[int], str]) -> list[Finding]:
    if len(intra) < 3:  # with two nodes neither is the odd one out
        return []
    med = localize.median([r["busbw_gbps"] for r in intra.values()])
    return [
        SLOW_INSIDE_NODE.finding(
            f"{name(i)} reached {_gbps(r['busbw_gbps'])} busbw in its intra-node all_reduce; the median node reached "
            f"{_gbps(med)}.",
            nodes=[name(i)], evidence=[{"busbw_gbps": r["busbw_gbps"], "median_gbps": med}],
        )
        for i, r in sorted(intra.items())
        if r["busbw_gbps"] < localize.SLOW_RATIO * med
    ]
