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
    """``per_rank``: rank -> the rank's published sweep result (``{"rows": [...]}``)."""
    mod = REGISTRY[collective]
    by_size: dict[int, dict[int, dict[str, Any]]] = {}
    for rank, res in per_rank.items():
        for row in res.get("rows", []):
            by_size.setdefault(int(row["size"]), {})[int(rank)] = row
    table = []
    for size in sorted(by_size):
        rows = by_size[size]
        times = {r: float(v["time_us"]) for r, v in rows.items()}
        count = int(next(iter(rows.values()))["count"])
        t_avg = statistics.fmean(times.values())
        alg = algbw_gbps(mod.algbw_bytes(count, 4, nranks), t_avg * 1e-6)
        slowest = max(times, key=times.get)
        table.append(
            {
                "size": size,
                "count": count,
                "type": "float",
                "redop": "sum",
                "time_us": t_avg,
                "algbw_gbps": alg,
                "busbw_gbps": alg * mod.bus_factor(nranks),
                "wrong": sum(int(v.get("wrong", 0)) for v in rows.values()),
                "time_us_min": min(times.values()),
                "time_us_max": times[slowest],
                "slowest_rank": slowest,
                "ranks_reported": len(rows),
                "per_rank_time_us": {str(r): t for r, t in sorted(times.items())},
            }
        )
    return table


def peak_busbw(table: list[dict[str, Any]]) -> float:
    return max((row["busbw_gbps"] for row in table), default=0.0)


def avg_busbw(table: list[dict[str, Any]]) -> float:
    """nccl-tests' footer: the mean over all sizes (small sizes drag it down)."""
    return statistics.fmean(row["busbw_gbps"] for row in table) if table else 0.0
