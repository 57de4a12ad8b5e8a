"""Sweep rules (DL004-DL009): resource checks over host facts, and the sweep's own
outcome. Pure functions: facts and measurements in, findings out."""

from __future__ import annotations

from typing import Any

from ncclDoctor.findings import Finding
from ncclDoctor.rules.codes.dl import OVERSUBSCRIBED, PIN_NO_GPU, SHM_SMALL


def usable_cores(host: dict[str, Any]) -> int:
    return len(host.get("cpu_affinity") or []) or int(host.get("cpu_count") or 1)


def check_cpu(host: dict[str, Any], num_workers: int, nproc: int, where: str) -> list[Finding]:
    cores = usable_cores(host)
    procs = nproc * (num_workers + 1)
    if num_workers == 0 or procs <= cores:
        return []
    return [OVERSUBSCRIBED.finding(
        f"{nproc} ranks x ({num_workers} workers + 1 main process) = {procs} processes on {cores} usable cores of "
        f"{where}.",
        nodes=[where], evidence=[{"cores": cores, "ranks": nproc, "num_workers": num_workers}],
    )]


def check_shm(host: dict[str, Any], num_workers: int, prefetch_factor: int | None, nproc: int, batch_bytes: int,
              where: str) -> list[Finding]:
    shm = host.get("dev_shm", {})
    free = shm.get("free_bytes")
    if not free or num_workers == 0 or not batch_bytes:
        return []
    in_flight = nproc * num_workers * (prefetch_factor or 2) * batch_bytes
    if in_flight <= free // 2:
        return []
    return [SHM_SMALL.finding(
        f"{nproc} ranks x {num_workers} workers x prefetch {prefetch_factor or 2} x {batch_bytes / 2**20:.1f} MiB per "
        f"batch = {in_flight / 2**20:.0f} MiB in flight; /dev/shm on {where} has {free / 2**20:.0f} MiB free.",
        nodes=[where], evidence=[{"in_flight_bytes": in_flight, "shm_free_bytes": free, "batch_bytes": batch_bytes}],
    )]


def check_pin(cuda: bool, asked: str, where: str) -> list[Finding]:
    if cuda:
        return []
    extra = (" You asked for it; it was not measured, because it cannot change anything here."
             if asked in ("true", "both") else "")
    return [PIN_NO_GPU.finding(f"No GPU on {where}: pin_memory stays False in this sweep.{extra}", nodes=[where])]
