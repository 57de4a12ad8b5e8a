"""The structure phase: intra-node, inter-node and node-to-node bandwidth.

Run by every rank of a multi-node check, before the all_reduce sweep (issue 15: the
quick localization first; a slow node or link named here makes every rank skip the
whole-job sweep, ``sweep_decision``)::

    torchrun --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint HOST:29500 \\
        -m probes.worker --config CONFIG.json   # with "structure": {...} in CONFIG

1. **intra-node all_reduce**: every node at once, each over its own group of local ranks
   (``new_group``; skipped with one rank per node), over every message size of the
   check's sweep (``cfg["sizes"]``) plus the structure size: one busbw curve per node,
   so a node whose GPUs, NVLink/PCIe or CPUs are slow stands out at the sizes where it
   does. The row at the structure size is also kept alone (``intra_node``) for BW204;
2. **inter-node all_reduce**: one rank per node (local rank 0, the node's *leader*);
3. **point-to-point** between leaders in rounds of disjoint pairs, chosen by
   ``probes.localize.localize``: the ring, then only the suspects re-paired
   with known-good nodes. After each round the leaders share their timings with
   ``all_gather_object`` over the leaders' group, so every leader plans the same next
   round from the same numbers.

torchrun numbers ranks node by node (node g holds ranks g*P .. g*P+P-1 for P ranks per
node), which is what the groups below rely on. Times are the best of ``iters`` timed
operations after one warm-up (fewer when the warm-up shows a slow path: ``_best_time``):
a throttled link is slow every time, scheduling noise on a busy host is not.
"""

from __future__ import annotations

import os
import time
from typing import Any

from probes import harness, localize
from probes.collectives import ELSIZE, REGISTRY


def _issue(worker, module, send, recv, **kw) -> None:
    """One structure collective. Not counted in the rank's sequence number: leaders issue
    more of them than other ranks by design, and a stuck exchange must read as a stuck
    link ("every rank inside the same phase"), not as the other ranks falling behind."""
    worker.faults.before_collective(worker, send)
    module.run(send, recv, **kw)
    worker.tick()  # progress, for the supervisor's hang call


OP_BUDGET_S = 1.5  # the timed ops of one measurement, when the warm-up shows a slow path
MIN_ITERS = 2


def _best_time(worker, op, iters: int, agree=None, budget_s: float = OP_BUDGET_S) -> float:
    """One warm-up (connection setup is not bandwidth), then the harness's best-of ``iters``
    -- fewer (at least ``MIN_ITERS``) when the warm-up says they would take more than
    ``budget_s``: a slow link is slow every time, and its rounds must not cost what a sweep
    would (issue 15: localization before the expensive part). ``agree(seconds) -> the
    largest over the op's ranks`` makes every rank of the op run the same count."""
    t0 = time.perf_counter()
    op()
    worker.sync()
    warm = time.perf_counter() - t0
    if agree is not None:  # every rank of the op agrees, even those that saw it fast
        warm = agree(warm)
        if warm * iters > budget_s:
            iters = max(MIN_ITERS, min(iters, int(budget_s / warm)))
    return harness.time_op(op, worker.sync, iters, mode="best")[0]


def _max_over(group, device, peer: int | None = None):
    """agree() for _best_time: the largest value over ``group`` (an all_reduce), or over
    this rank and ``peer`` (one tiny exchange)."""
    import torch
    import torch.distributed as dist

    def agree(value: float) -> float:
        t = torch.tensor([value], dtype=torch.float64, device=device)
        if peer is None:
            dist.all_reduce(t, op=dist.ReduceOp.MAX, group=group)
            return float(t.item())
        other = torch.empty_like(t)
        REGISTRY["sendrecv"].run(t, other, peer=peer)
        return max(value, float(other.item()))

    return agree


def _all_reduce(worker, group, nranks: int, size: int, iters: int) -> dict[str, Any]:
    mod = REGISTRY["all_reduce"]
    count = mod.counts(size, ELSIZE, nranks)[2]
    send, recv = mod.buffers(count, nranks, worker.rank, worker.device)
    secs = _best_time(worker, lambda: _issue(worker, mod, send, recv, group=group), iters,
                      _max_over(group, worker.device))
    algbw = mod.algbw_bytes(count, ELSIZE, nranks) / secs / 1e9
    return {"size": count * ELSIZE, "nranks": nranks, "time_us": secs * 1e6, "algbw_gbps": algbw,
            "busbw_gbps": algbw * mod.bus_factor(nranks)}


def _p2p(worker, leaders: list[int], group, size: int, iters: int,
         slow_ratio: float = localize.SLOW_RATIO) -> dict[str, Any]:
    import torch.distributed as dist

    mod = REGISTRY["sendrecv"]
    me = leaders.index(worker.rank)
    count = mod.counts(size, ELSIZE, 2)[2]
    send, recv = mod.buffers(count, len(leaders), worker.rank, worker.device)
    rounds: list[list[list[int]]] = []
    wrong = 0

    def measure(rnd: list[localize.Pair]) -> dict[localize.Pair, float]:
        nonlocal wrong
        rounds.append([list(p) for p in rnd])
        mine = next((p for p in rnd if me in p), None)
        secs = None
        if mine is not None:
            peer = leaders[mine[1] if mine[0] == me else mine[0]]
            secs = _best_time(worker, lambda: _issue(worker, mod, send, recv, peer=peer), iters,
                              _max_over(None, worker.device, peer))
            want = mod.expected(count, len(leaders), worker.rank, worker.device, peer=peer)
            wrong += harness.wrong_elements(recv, want)
        times: list[Any] = [None] * len(leaders)
        dist.all_gather_object(times, secs, group=group)
        return {p: send.numel() * 4 / max(times[p[0]], times[p[1]]) / 1e9 for p in rnd}

    t0 = time.perf_counter()
    v = localize.localize(len(leaders), measure, slow_ratio)
    elapsed = time.perf_counter() - t0
    ring = set(localize.ring_pairs(len(leaders)))
    round_of = {tuple(p): i for i, rnd in enumerate(rounds) for p in rnd}  # a confirmed pair: its last round
    pairs = [{"pair": [a, b], "gbps": g, "round": round_of[(a, b)], "ring": (a, b) in ring}
             for (a, b), g in sorted(v.measured.items())]
    return {"size": send.numel() * 4, "iters": iters, "rounds": rounds, "wrong": wrong, "pairs": pairs,
            "slow_ratio": slow_ratio,
            "elapsed_s": elapsed, "slow_nodes": list(v.slow_nodes), "slow_links": [list(p) for p in v.slow_links]}


def sweep_decision(p2p: dict[str, Any] | None) -> str | None:
    """Why the whole-job sweep is skipped (a slow node or link was named), or None."""
    if not p2p or not (p2p.get("slow_nodes") or p2p.get("slow_links")):
        return None
    named = [f"node {n}" for n in p2p["slow_nodes"]] + [f"link {a}-{b}" for a, b in p2p["slow_links"]]
    return (f"skipped: the point-to-point round named {', '.join(named)} far below its peers (BW2xx); "
            "a whole-job sweep would run at that pace")


def run(worker, cfg: dict[str, Any]) -> dict[str, Any]:
    import torch.distributed as dist

    nproc = int(os.environ.get("LOCAL_WORLD_SIZE", 1))
    nnodes = worker.world // nproc
    node = worker.rank // nproc
    size, iters = int(cfg["size"]), int(cfg["iters"])
    nodes = [list(range(i * nproc, (i + 1) * nproc)) for i in range(nnodes)]
    leaders = [r[0] for r in nodes]
    # Every rank creates every group, in the same order (torch requires it).
    intra = [dist.new_group(r) for r in nodes] if nproc > 1 else []
    inter = dist.new_group(leaders) if nnodes > 1 else None
    out: dict[str, Any] = {"node_rank": node, "nnodes": nnodes, "nproc_per_node": nproc, "iters": iters,
                           "leader": worker.rank in leaders}
    if intra:
        sizes = sorted({int(x) for x in cfg.get("sizes") or []} | {size})
        rows = [_all_reduce(worker, intra[node], nproc, s, iters) for s in sizes]
        out["intra_node_sweep"] = rows
        out["intra_node"] = next(r for r in rows if r["size"] == max(1, size // 4) * 4)
    if inter is not None and worker.rank in leaders:
        out["inter_node"] = _all_reduce(worker, inter, nnodes, size, iters)
        out["p2p"] = _p2p(worker, leaders, inter, size, iters, float(cfg.get("slow_ratio", localize.SLOW_RATIO)))
    dist.barrier()  # results are in before any rank leaves: the report waits for no one
    decision = [sweep_decision(out.get("p2p")) if worker.rank == 0 else None]  # rank 0 leads node 0
    dist.broadcast_object_list(decision, src=0)
    worker.skip_sweep = decision[0]
    return out
