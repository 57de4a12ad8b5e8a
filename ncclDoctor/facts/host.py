"""Host facts: CPU, memory, /dev/shm, ulimits, network interfaces, torch build, GPUs."""

from __future__ import annotations

import os
import platform
import resource
import shutil
import socket
from typing import Any

import psutil

from ncclDoctor.facts.gpu import collect_gpu_facts


def _limit(which: int) -> dict[str, Any]:
    soft, hard = resource.getrlimit(which)
    fmt = lambda v: "unlimited" if v == resource.RLIM_INFINITY else int(v)  # noqa: E731
    return {"soft": fmt(soft), "hard": fmt(hard)}


def _shm() -> dict[str, Any]:
    try:
        du = shutil.disk_usage("/dev/shm")
    except OSError as exc:
        return {"skipped": f"/dev/shm not available ({exc.strerror})"}
    return {"total_bytes": du.total, "free_bytes": du.free}


def collect_interfaces() -> list[dict[str, Any]]:
    stats = psutil.net_if_stats()
    addrs = psutil.net_if_addrs()
    out = []
    for name in sorted(set(stats) | set(addrs)):
        st = stats.get(name)
        v4 = [a.address for a in addrs.get(name, []) if a.family == socket.AF_INET]
        v6 = [a.address.split("%")[0] for a in addrs.get(name, []) if a.family == socket.AF_INET6]
        out.append(
            {
                "name": name,
                "up": bool(st.isup) if st else None,
                "mtu": st.mtu if st else None,
                # psutil reports 0 when the speed is unknown (veth, lo, most VMs).
                "speed_mbps": (st.speed or None) if st else None,
                "ipv4": v4,
                "ipv6": v6,
            }
        )
    return out


def collect_torch_facts() -> dict[str, Any]:
    try:
        import torch
        import torch.distributed as dist
    except Exception as exc:  # torch broken or absent: say so, do not crash the preflight
        return {"skipped": f"torch not importable: {exc}"}
    nccl = None
    if torch.cuda.is_available():
        try:
            v = torch.cuda.nccl.version()
            nccl = ".".join(map(str, v)) if isinstance(v, tuple) else str(v)
        except Exception:
            nccl = None
    return {
        "version": torch.__version__,
        "cuda": torch.version.cuda,
        "cuda_available": torch.cuda.is_available(),
        "cuda_device_count": torch.cuda.device_count() if torch.cuda.is_available() else 0,
        "nccl": nccl,
        "nccl_available": bool(dist.is_nccl_available()),
        "gloo_available": bool(dist.is_gloo_available()),
    }


def collect_host_facts(include_torch: bool = True) -> dict[str, Any]:
    try:
        affinity = sorted(os.sched_getaffinity(0))
    except AttributeError:
        affinity = None
    vm = psutil.virtual_memory()
    facts: dict[str, Any] = {
        "hostname": socket.gethostname(),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "cpu_count": os.cpu_count(),
        "cpu_affinity": affinity,
        "memory_total_bytes": vm.total,
        "memory_available_bytes": vm.available,
        "dev_shm": _shm(),
        "ulimit_memlock": _limit(resource.RLIMIT_MEMLOCK),
        "ulimit_nofile": _limit(resource.RLIMIT_NOFILE),
        "interfaces": collect_interfaces(),
        "gpus": collect_gpu_facts(),
    }
    if include_torch:
        facts["torch"] = collect_torch_facts()
    return facts
