"""Sweep rules (DL004-DL009): resource checks over host facts, and the sweep's own
outcome. Pure functions: facts and measurements in, findings out."""

from __future__ import annotations

from typing import Any

from ncclDoctor.findings import Finding, rule

PIN_NO_GPU = rule(
    "DL004", "info", "pin_memory without a GPU is a no-op",
    why="""
pin_memory=True page-locks batches so the host-to-GPU copy can be asynchronous. With no
accelerator there is no copy to speed up: torch warns and ignores the flag.
""",
    fix="Leave pin_memory=False on CPU-only jobs; measure it on the GPU nodes you train on.",
)
OVERSUBSCRIBED = rule(
    "DL005", "warning", "More loader workers and ranks than CPU cores",
    why="""
Every DataLoader worker is a process. Workers x local ranks beyond the cores this job may
use make CPU-bound decoding compete with the training processes themselves, so the
throughput a sweep measures alone falls apart under full load.
""",
    fix="""
Cap num_workers at (usable cores / local ranks) - 1 for CPU-bound loaders; raise it
past that only for loaders that mostly wait on storage, and confirm with a sweep.
""",
)
SHM_SMALL = rule(
    "DL006", "warning", "/dev/shm is small for the batches in flight",
    why="""
Workers hand batches to the training process through shared memory (/dev/shm). When it
fills up, workers die with 'Bus error' or the loader deadlocks; Docker's default is 64 MiB.
""",
    fix="Enlarge /dev/shm (docker run --shm-size=8g, or an emptyDir with medium: Memory on Kubernetes), or lower num_workers x prefetch_factor.",
)
RECOMMENDATION = rule(
    "DL007", "info", "Recommended DataLoader settings",
    why="""
The smallest num_workers within the margin of the best measured throughput, or whose
data wait is already under the margin of its step (more workers cannot gain more than
that): past the knee more workers cost memory and CPU and buy nothing.
""",
    fix="Set the recommended values in your DataLoader; rerun the sweep when the model, batch size or hardware change.",
)
CUT_SHORT = rule(
    "DL008", "warning", "The sweep was cut short by its time budget",
    why="Configurations that were not measured cannot be recommended; the pick is the best of those that were.",
    fix="Rerun with a larger --max-minutes, fewer --workers choices, or fewer measurement windows.",
)
RUN_FAILED = rule(
    "DL009", "error", "A sweep configuration failed to run",
    why="A configuration that crashes or hangs (too many workers for the memory or /dev/shm, a broken loader) is not usable, whatever its speed.",
    fix="Read the configuration's logs in the run directory (configs/<label>/logs/); fix the cause or leave that setting out.",
)


def usable_cores(host: dict[str, Any]) -> int:
    return len(host.get("cpu_affinity") or []) or int(host.get("cpu_count") or 1)


def check_cpu(host: dict[str, Any], num_workers: int, nproc: int, where: str) -> list[Finding]:
    cores = usable_cores(host)
    procs = nproc * (num_workers + 1)
    if num_workers == 0 or procs <= cores:
        return []
    return [OVERSUBSCRIBED.finding(
        f"{nproc} ranks x ({num_workers} workers + 1 main process) = {procs} processes on {cores} usable cores of {where}.",
        nodes=[where], evidence=[{"cores": cores, "ranks": nproc, "num_workers": num_workers}],
    )]


def check_shm(host: dict[str, Any], num_workers: int, prefetch_factor: int | None, nproc: int, batch_bytes: int, where: str) -> list[Finding]:
    shm = host.get("dev_shm", {})
    free = shm.get("free_bytes")
    if not free or num_workers == 0 or not batch_bytes:
        return []
    in_flight = nproc * num_workers * (prefetch_factor or 2) * batch_bytes
    if in_flight <= free // 2:
        return []
    return [SHM_SMALL.finding(
        f"{nproc} ranks x {num_workers} workers x prefetch {prefetch_factor or 2} x {batch_bytes / 2**20:.1f} MiB per batch = "
        f"{in_flight / 2**20:.0f} MiB in flight; /dev/shm on {where} has {free / 2**20:.0f} MiB free.",
        nodes=[where], evidence=[{"in_flight_bytes": in_flight, "shm_free_bytes": free, "batch_bytes": batch_bytes}],
    )]


def check_pin(cuda: bool, asked: str, where: str) -> list[Finding]:
    if cuda:
        return []
    extra = " You asked for it; it was not measured, because it cannot change anything here." if asked in ("true", "both") else ""
    return [PIN_NO_GPU.finding(f"No GPU on {where}: pin_memory stays False in this sweep.{extra}", nodes=[where])]
