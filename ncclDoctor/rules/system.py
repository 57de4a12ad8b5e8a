"""Rules over host facts (``ncclDoctor.facts.host``): pure functions, facts in."""

from __future__ import annotations

from typing import Any

from ncclDoctor.findings import Finding
from ncclDoctor.rules.codes.sys import MEMLOCK, NO_CUDA, OVERSUBSCRIBED, SMALL_SHM, TOO_FEW_GPUS

GIB = 1 << 30


def check_host(facts: dict[str, Any], backend: str, nproc_per_node: int, where: str) -> list[Finding]:
    out: list[Finding] = []
    nodes = [where]
    shm = facts.get("dev_shm", {})
    if "total_bytes" in shm and shm["total_bytes"] < GIB:
        out.append(SMALL_SHM.finding(f"/dev/shm on {where} is {shm['total_bytes'] / (1 << 20):.0f} MiB.", nodes=nodes,
                                     evidence=[shm]))
    torch_facts = facts.get("torch", {})
    if backend == "nccl":
        memlock = facts.get("ulimit_memlock", {}).get("soft")
        if memlock != "unlimited":
            out.append(MEMLOCK.finding(f"ulimit -l on {where} is {memlock} bytes.", nodes=nodes,
                                       evidence=[facts.get("ulimit_memlock")]))
        gpus = int(torch_facts.get("cuda_device_count") or 0)
        if not torch_facts.get("cuda_available"):
            out.append(NO_CUDA.finding(f"torch {torch_facts.get('version')} on {where} sees no CUDA device.",
                                       nodes=nodes))
        elif nproc_per_node > gpus:
            out.append(TOO_FEW_GPUS.finding(f"{nproc_per_node} ranks per node but {gpus} visible GPU(s) on {where}.",
                                            nodes=nodes))
    cpus = len(facts.get("cpu_affinity") or []) or facts.get("cpu_count") or 0
    if backend == "gloo" and cpus and nproc_per_node > cpus:
        out.append(OVERSUBSCRIBED.finding(f"{nproc_per_node} ranks on {cpus} usable CPU core(s) on {where}.",
                                          nodes=nodes))
    return out
