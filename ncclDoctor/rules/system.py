"""Rules over host facts (``ncclDoctor.facts.host``): pure functions, facts in."""

from __future__ import annotations

from typing import Any

from ncclDoctor.findings import Finding, rule

GIB = 1 << 30

SMALL_SHM = rule(
    "SYS001",
    "warning",
    "/dev/shm is small",
    why="""
DataLoader workers pass batches through shared memory and NCCL's SHM transport uses it
too. Docker's default is 64 MiB; when it fills, workers die with "Bus error" or
"DataLoader worker ... is killed by signal".
""",
    fix="Give the container more shared memory (docker run --shm-size=16g, or an emptyDir medium: Memory volume on Kubernetes).",
)

MEMLOCK = rule(
    "SYS002",
    "warning",
    "Locked-memory limit (ulimit -l) is not unlimited",
    why="RDMA (InfiniBand/RoCE) registers pinned memory; a low memlock limit makes NCCL fail or fall back to sockets.",
    fix="Set `ulimit -l unlimited` (limits.conf, or `--ulimit memlock=-1` for containers).",
)

OVERSUBSCRIBED = rule(
    "SYS003",
    "info",
    "More ranks than CPU cores",
    why="Ranks compete for cores, so timings (especially small messages) measure scheduling, not the network.",
    fix="Use fewer ranks per node, or read small-message latencies with that in mind.",
)

NO_CUDA = rule(
    "SYS004",
    "error",
    "nccl requested but no usable GPU",
    why="The nccl backend needs CUDA devices; torch reports none here (CPU-only build, no driver, or CUDA_VISIBLE_DEVICES empty).",
    fix="Use --backend gloo on CPU-only machines, or install a CUDA build of torch and check `nvidia-smi`.",
)

TOO_FEW_GPUS = rule(
    "SYS005",
    "error",
    "More ranks per node than visible GPUs",
    why="With nccl each rank needs its own GPU; two ranks on one GPU fail or deadlock in NCCL.",
    fix="Lower --nproc-per-node to the GPU count, or fix CUDA_VISIBLE_DEVICES.",
)


def check_host(facts: dict[str, Any], backend: str, nproc_per_node: int, where: str) -> list[Finding]:
    out: list[Finding] = []
    nodes = [where]
    shm = facts.get("dev_shm", {})
    if "total_bytes" in shm and shm["total_bytes"] < GIB:
        out.append(SMALL_SHM.finding(f"/dev/shm on {where} is {shm['total_bytes'] / (1 << 20):.0f} MiB.", nodes=nodes, evidence=[shm]))
    torch_facts = facts.get("torch", {})
    if backend == "nccl":
        memlock = facts.get("ulimit_memlock", {}).get("soft")
        if memlock != "unlimited":
            out.append(MEMLOCK.finding(f"ulimit -l on {where} is {memlock} bytes.", nodes=nodes, evidence=[facts.get("ulimit_memlock")]))
        gpus = int(torch_facts.get("cuda_device_count") or 0)
        if not torch_facts.get("cuda_available"):
            out.append(NO_CUDA.finding(f"torch {torch_facts.get('version')} on {where} sees no CUDA device.", nodes=nodes))
        elif nproc_per_node > gpus:
            out.append(TOO_FEW_GPUS.finding(f"{nproc_per_node} ranks per node but {gpus} visible GPU(s) on {where}.", nodes=nodes))
    cpus = len(facts.get("cpu_affinity") or []) or facts.get("cpu_count") or 0
    if backend == "gloo" and cpus and nproc_per_node > cpus:
        out.append(OVERSUBSCRIBED.finding(f"{nproc_per_node} ranks on {cpus} usable CPU core(s) on {where}.", nodes=nodes))
    return out
