"""The one timing harness: every collective, every size, the way nccl-tests' ``TimeTest`` does it.

For each message size of the sweep (``measure_size``):

1. allocate and fill the collective's buffers (``probes.collectives``: ``counts``, ``buffers``);
2. warm-up: ``warmup`` ops, then wait for the device;
3. a barrier, so every rank starts the timed loop together (nccl-tests: ``Barrier``);
4. ``iters`` timed ops: ``mode="mean"`` times the loop as a whole and divides (nccl-tests'
   ``BenchTime``); ``mode="best"`` times each op alone and keeps the fastest, with a short
   sleep between ops (the structure phase: a throttled link is slow every time, scheduling
   noise on a busy host is not);
5. the exact check: refill, run once more, count the elements of ``recv`` that differ
   from ``expected`` (nccl-tests' ``#wrong``).

The caller (``probes.worker.Worker``, or anything with the same four members) provides:

``device``                        where buffers live
``sync()``                        wait for the device
``collective(mod, send, recv, sweep=bool, **kw) -> float``
                                  issue one op (fault hooks, sequence numbers); seconds inside it;
                                  a sweep op counts itself in ``issued`` (the barrier mark's count)
                                  and, while ``fingerprint_due`` (set here per size), sends the
                                  "issue" fingerprint the verdict compares with the plan
``event(phase, kind, **fields)``  a control-store event keyed by the collective's NAME
                                  (``barrier`` and ``progress`` here; ``issue`` in the caller)

Rows are what the analysis reads: ``size`` (nccl-tests' column: the larger buffer, bytes),
``count`` (the param count), ``time_us``, ``wrong`` and ``outside_us`` (time not spent inside
the collective: a late rank spends its time there, the ranks waiting for it inside).
Only torch and the standard library are imported.
"""

from __future__ import annotations

import time
from typing import Any, Callable

from probes.collectives import ELSIZE

SPREAD_S = 0.01  # best-of: samples spread over time dodge a moment of CPU starvation


def time_op(op: Callable[[], Any], sync: Callable[[], None], iters: int, mode: str = "mean") -> tuple[float, float]:
    """Seconds per op, and the seconds spent inside ``op`` (``op`` returns them, or None)."""
    if mode not in ("mean", "best"):
        raise ValueError(f"unknown timing mode {mode!r}: expected mean or best")
    if mode == "best":
        best = float("inf")
        for _ in range(iters):
            t0 = time.perf_counter()
            op()
            sync()
            best = min(best, time.perf_counter() - t0)
            time.sleep(SPREAD_S)  # both ends sleep alike; the timed part excludes it
        return best, best
    inside = 0.0
    start = time.perf_counter()
    for _ in range(iters):
        inside += op() or 0.0
    sync()
    elapsed = time.perf_counter() - start
    return elapsed / iters, inside / iters


def wrong_elements(recv, want) -> int:
    if recv.shape != want.shape:
        return max(recv.numel(), want.numel())
    return int((recv != want).sum().item())


def check(ctx, mod, count: int, nranks: int, rank: int, group=None, **kw) -> int:
    """Fresh buffers, one op, the number of wrong elements on this rank."""
    send, recv = mod.buffers(count, nranks, rank, ctx.device)
    ctx.collective(mod, send, recv, group=group, **kw)
    ctx.sync()
    if getattr(ctx, "faults", None) is not None:  # --inject corrupt:R:N, a testing aid
        ctx.faults.after_checked_collective(recv)
    want = mod.expected(count, nranks, rank, ctx.device, **({"peer": kw["peer"]} if "peer" in kw else {}))
    return wrong_elements(recv, want)


def measure_size(
    ctx, mod, nbytes: int, warmup: int, iters: int, nranks: int, rank: int, mode: str = "mean", group=None,
    issued_before: int = 0, **kw
) -> dict[str, Any]:
    import torch.distributed as dist

    send_n, recv_n, count = mod.counts(nbytes, ELSIZE, nranks)
    size = max(send_n, recv_n) * ELSIZE
    send, recv = mod.buffers(count, nranks, rank, ctx.device)
    op = lambda: ctx.collective(mod, send, recv, sweep=True, group=group, **kw)  # noqa: E731
    if mode == "best":
        op()  # warm-up: connection setup is not bandwidth
    else:
        ctx.issued = issued_before  # the budget's first op of this size was a warm-up op too
        ctx.fingerprint_due = True  # the size's first sweep op tells the supervisor its count
        for _ in range(warmup):
            op()
    ctx.sync()
    ctx.event(mod.NAME, "barrier", size=size, issued=getattr(ctx, "issued", None))
    dist.barrier(group=group)
    secs, inside = time_op(op, ctx.sync, iters, mode)
    wrong = check(ctx, mod, count, nranks, rank, group=group, **kw)
    ctx.event(mod.NAME, "progress", size=size)
    return {
        "size": size,
        "count": count,
        "time_us": secs * 1e6,
        "wrong": wrong,
        "outside_us": max(0.0, secs - inside) * 1e6,
    }


def sweep(
    ctx, mod, sizes: list[int], warmup: int, iters: int, nranks: int, rank: int, mode: str = "mean", group=None,
    budget: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Every size of the sweep for one collective: the result a rank publishes under ``mod.NAME``.
    With a ``budget`` (``probes.budget``; world group only) the first op of each size predicts
    the size's time and every rank stops at the first size over budget (``stopped``)."""
    rows: list[dict[str, Any]] = []
    stopped, prev = None, None
    for s in sizes:
        t0 = time.perf_counter()
        if budget:
            stopped = _over_budget(ctx, mod, s, warmup, iters, nranks, rank, prev, budget)
            if stopped:
                break
        done = min(1, warmup) if budget else 0  # _over_budget issued the size's first op
        rows.append(measure_size(ctx, mod, s, warmup - done, iters, nranks, rank, mode, group, issued_before=done))
        prev = (s, time.perf_counter() - t0)
    out = {"collective": mod.NAME, "rows": rows, "iters": iters, "warmup": warmup, "mode": mode}
    return {**out, "stopped": stopped} if stopped else out


def _over_budget(ctx, mod, nbytes: int, warmup: int, iters: int, nranks: int, rank: int,
                 prev: tuple[int, float] | None, cfg: dict[str, Any]) -> dict[str, Any] | None:
    """The size's first op, timed (not a "sweep" op: --inject skip/mismatch act on the
    measured ones); None when every rank predicts the size fits its budget."""
    from probes.budget import agree, size_budget

    budget = size_budget(cfg, prev, nbytes, time.time())
    send_n, recv_n, count = mod.counts(nbytes, ELSIZE, nranks)
    send, recv = mod.buffers(count, nranks, rank, ctx.device)
    took = ctx.collective(mod, send, recv)
    ctx.sync()
    ops = max(0, warmup - 1) + iters + 1
    predicted = took * (ops + 1)
    worst = agree(predicted / budget if budget > 0 else float("inf"), ctx.device)
    if worst <= 1.0:
        return None
    return {"size": max(send_n, recv_n) * ELSIZE, "took_s": round(took, 3), "ops_done": 1, "ops_total": ops + 1,
            "predicted_s": round(predicted, 3), "budget_s": round(budget, 3), "worst_ratio": round(worst, 2)}
