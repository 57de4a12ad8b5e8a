"""What this machine is, as torch sees it: one JSON line.

    python benchmarks/gpu_jobs/probe_env.py

Never fails on a machine without CUDA: absent things are reported as absent.
"""

from __future__ import annotations

import json
import platform
import sys


def main() -> None:
    import torch
    import torch.distributed as dist

    try:
        import ncclDoctor

        version = ncclDoctor.__version__
    except Exception as exc:  # reported, never fatal: the torch facts matter more
        version = f"error: {exc}"

    out = {
        "python": platform.python_version(), "executable": sys.executable, "torch": torch.__version__,
        "cuda_build": torch.version.cuda, "cuda_available": torch.cuda.is_available(),
        "device_count": torch.cuda.device_count() if torch.cuda.is_available() else 0,
        "nccl_available": dist.is_nccl_available(), "gloo_available": dist.is_gloo_available(),
        "nccl_version": None, "devices": [], "ncclDoctor": version,
    }
    if out["cuda_available"]:
        try:
            out["nccl_version"] = ".".join(map(str, torch.cuda.nccl.version()))
        except Exception as exc:  # a CUDA build without NCCL
            out["nccl_version"] = f"error: {exc}"
        for i in range(out["device_count"]):
            p = torch.cuda.get_device_properties(i)
            out["devices"].append({"index": i, "name": p.name, "capability": f"{p.major}.{p.minor}",
                                   "memory_bytes": p.total_memory, "multiprocessors": p.multi_processor_count})
    print(json.dumps(out))


if __name__ == "__main__":
    main()
