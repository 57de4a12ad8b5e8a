"""Bandwidth tables in nccl-tests' terms.

For each message size: ``time_us`` is the average over ranks of each rank's mean time
per op (nccl-tests' default ``-a 1``); ``algbw = S / t`` and ``busbw = algbw x factor``
in GB/s (1 GB = 1e9 bytes), with S and the factor from the collective's module in
``probes.collectives``. ``#wrong`` is summed over ranks. Per-rank times are kept, and
``time_us_max`` / ``slowest_rank`` show the slowest rank at each size.
"""

from __future__ import annotations

import statistics
from typing import Any, Mapping

from probes.collectives import REGISTRY


def algbw_gbps(nbytes: float, seconds: float) -> float:
    return nbytes / 1e9 / seconds if seconds > 0 else 0.0


def bus_factor(collective: str, nranks: int) -> float:
    return REGISTRY[collective].bus_factor(nranks)


def build_table(collective: str, per_rank: Mapping[int, Mapping[str, Any]], nranks: int) -> list[dict[str, Any]]:
    """``per_rank``: rank -> the rank's published sweep result (``{"rows": [...]}``);
    a row's ``count`` is the collective's param count, ``size`` nccl-tests' size column."""
    mod = REGISTRY[collective]
    by_size: dict[int, dict[int, dict[str, Any]]] = {}
    for rank, res in per_rank.items():
        for row in res.get("rows", []):
            by_size.setdefault(int(row["size"]), {})[int(rank)] = row
    table = []
    for size in sorted(by_size):
        rows = by_size[size]
        times = {r: float(v["time_us"]) for r, v in rows.items()}
        outside = {r: float(v.get("outside_us", 0.0)) for r, v in rows.items()}
        count = int(next(iter(rows.values()))["count"])
        t_avg = statistics.fmean(times.values())
        alg = algbw_gbps(mod.algbw_bytes(count, 4, nranks), t_avg * 1e-6)
        slowest = max(times, key=times.get)
        table.append(
            {
                "size": size,
                "count": count,
                "type": "float",
                "redop": mod.REDOP,
                "root": mod.ROOT,
                "time_us": t_avg,
                "algbw_gbps": alg,
                "busbw_gbps": alg * mod.bus_factor(nranks),
                "wrong": sum(int(v.get("wrong", 0)) for v in rows.values()),
                "time_us_min": min(times.values()),
                "time_us_max": times[slowest],
                "slowest_rank": slowest,
                "ranks_reported": len(rows),
                "per_rank_time_us": {str(r): t for r, t in sorted(times.items())},
                "per_rank_outside_us": {str(r): t for r, t in sorted(outside.items())},
            }
        )
    return table


def peak_busbw(table: list[dict[str, Any]]) -> float:
    return max((row["busbw_gbps"] for row in table), default=0.0)


def avg_busbw(table: list[dict[str, Any]]) -> float:
    """nccl-tests' footer: the mean over all sizes (small sizes drag it down)."""
    return statistics.fmean(row["busbw_gbps"] for row in table) if table else 0.0


def late_ranks(table: list[dict[str, Any]], min_us: float = 1000.0) -> dict[int, list[dict[str, float]]]:
    """Ranks that arrive late at the collective.

    A collective ends for everyone when its last rank arrives, so per-rank *times* are
    nearly equal and cannot show a straggler. What differs is where the time goes: the
    late rank spends it outside the collective (its own work), the others inside
    (waiting for it). A rank is late at a size when its outside time per op is at
    least ``min_us``, a quarter of the op time, and 4x the other ranks' median.
    Returns rank -> the sizes where it was late, with its and the others' outside time.
    """
    late: dict[int, list[dict[str, float]]] = {}
    for row in table:
        outs = {int(r): v for r, v in row.get("per_rank_outside_us", {}).items()}
        if len(outs) < 2:
            continue
        for r, mine in outs.items():
            others = statistics.median(v for q, v in outs.items() if q != r)
            if mine >= min_us and mine >= 0.25 * row["time_us"] and mine >= 4 * others:
                late.setdefault(r, []).append({"size": row["size"], "outside_us": mine, "others_us": others})
    return late
