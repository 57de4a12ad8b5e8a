"""/dev/shm against what the DataLoader workers of one node will hold in it.

A torch DataLoader with ``num_workers > 0`` keeps up to ``num_workers x prefetch_factor``
batches in flight per rank, and workers hand each batch to the main process through
shared memory (tensor storages are moved to /dev/shm when they enter the result
queue). So one node needs about::

    ranks per node x workers x prefetch_factor (default 2) x batch size

of /dev/shm at once, before NCCL's own shared-memory transport buffers. ``check_shm``
compares that with the facts from ``ncclDoctor.facts.host`` (``dev_shm``); SYS001 still
flags a tiny /dev/shm when the workload is not described.
"""

from __future__ import annotations

from typing import Any

from ncclDoctor.findings import Finding, Severity
from ncclDoctor.rules.codes.sys import SHM_TOO_SMALL

MIB = 1 << 20


def shm_need_bytes(ranks_per_node: int, workers: int, batch_bytes: float, prefetch_factor: int = 2) -> int:
    return int(ranks_per_node * workers * prefetch_factor * batch_bytes)


def check_shm(
    facts: dict[str, Any], where: str, *, ranks_per_node: int, workers: int, batch_bytes: float,
    prefetch_factor: int = 2
) -> list[Finding]:
    shm = facts.get("dev_shm") or {}
    if "total_bytes" not in shm or workers <= 0:
        return []
    need = shm_need_bytes(ranks_per_node, workers, batch_bytes, prefetch_factor)
    sum_ = (f"{ranks_per_node} rank(s) x {workers} worker(s) x prefetch {prefetch_factor} x {batch_bytes / MIB:g} MiB "
            f"= {need / MIB:,.0f} MiB")
    ev = [{"need_bytes": need, **shm}]
    if need > shm["total_bytes"]:
        return [SHM_TOO_SMALL.finding(f"/dev/shm on {where} is {shm['total_bytes'] / MIB:,.0f} MiB; the DataLoader "
                                      f"workers need {sum_}.", nodes=[where], evidence=ev)]
    if need > shm.get("free_bytes", shm["total_bytes"]):
        return [SHM_TOO_SMALL.finding(
            f"/dev/shm on {where} has {shm['free_bytes'] / MIB:,.0f} MiB free of {shm['total_bytes'] / MIB:,.0f} MiB; "
            f"the DataLoader workers need {sum_}: something else holds the rest.",
            severity=Severity.WARNING, nodes=[where], evidence=ev,
        )]
    return []
