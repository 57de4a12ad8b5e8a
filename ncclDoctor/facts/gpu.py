"""GPU facts through NVML (the ``pynvml`` module from nvidia-ml-py).

Where NVML is missing (no driver, no GPU, CPU-only machines like our CI) this returns
``{"skipped": "no NVML: ..."}``: absence is a fact, not a failure.
"""

from __future__ import annotations

from typing import Any


def collect_gpu_facts(nvml: Any = None) -> dict[str, Any]:
    """``nvml`` is the pynvml module, or a recorded double with the same functions."""
    if nvml is None:
        try:
            import pynvml as nvml  # type: ignore[no-redef]
        except ImportError:
            return {"skipped": "no NVML: the pynvml module is not installed"}
    try:
        nvml.nvmlInit()
    except Exception as exc:
        return {"skipped": f"no NVML: {exc}"}
    try:
        driver = _str(nvml.nvmlSystemGetDriverVersion())
        count = nvml.nvmlDeviceGetCount()
        devices = []
        for i in range(count):
            h = nvml.nvmlDeviceGetHandleByIndex(i)
            mem = nvml.nvmlDeviceGetMemoryInfo(h)
            devices.append(
                {
                    "index": i,
                    "name": _str(nvml.nvmlDeviceGetName(h)),
                    "uuid": _str(nvml.nvmlDeviceGetUUID(h)),
                    "memory_total_bytes": int(mem.total),
                }
            )
        return {"driver": driver, "count": count, "devices": devices}
    except Exception as exc:
        return {"skipped": f"NVML query failed: {exc}"}
    finally:
        try:
            nvml.nvmlShutdown()
        except Exception:
            pass


def _str(v: Any) -> str:
    return v.decode() if isinstance(v, bytes) else str(v)
