"""Record the real NVML into the replay format of ``ncclDoctor.facts.nvml_replay``.

    python benchmarks/gpu_jobs/nvml_record.py SNAPSHOT.json

Calls every pynvml function the replay answers, with the arguments
``ncclDoctor.facts.gpu`` uses; a call that raises is recorded as ``"NotSupported"`` or
``"Error:<code>"``, as the replay format says. Then it collects the GPU facts twice,
through the real pynvml and through ``NvmlReplay(snapshot)``, and prints one JSON line:
whether the two agree (the replay is faithful to this driver) and where they differ.
"""

from __future__ import annotations

import json
import sys

from ncclDoctor.facts import gpu as facts_gpu
from ncclDoctor.facts.nvml_replay import NvmlReplay


def _call(fn, *args):
    try:
        v = fn(*args)
    except Exception as exc:
        code = getattr(exc, "value", None)
        return "NotSupported" if code == facts_gpu.NOT_SUPPORTED else f"Error:{code}"
    return v.decode() if isinstance(v, bytes) else v


def _device(nvml, i: int) -> dict:
    h = nvml.nvmlDeviceGetHandleByIndex(i)
    mem = _call(lambda: int(nvml.nvmlDeviceGetMemoryInfo(h).total))
    pci = _call(lambda: nvml.nvmlDeviceGetPciInfo(h).busId)
    def unc(kind: int):
        return _call(nvml.nvmlDeviceGetTotalEccErrors, h, facts_gpu.MEMORY_ERROR_TYPE_UNCORRECTED, kind)

    links = []
    for link in range(facts_gpu.NVLINK_MAX_LINKS):
        state = _call(nvml.nvmlDeviceGetNvLinkState, h, link)
        if isinstance(state, str):
            break
        links.append(int(state))
    throttle = getattr(nvml, "nvmlDeviceGetCurrentClocksEventReasons", None) \
        or nvml.nvmlDeviceGetCurrentClocksThrottleReasons  # renamed in NVML 12
    return {
        "name": _call(nvml.nvmlDeviceGetName, h), "uuid": _call(nvml.nvmlDeviceGetUUID, h),
        "memory_total": mem, "pci_bus_id": pci.decode() if isinstance(pci, bytes) else pci,
        "ecc_mode": _list(_call(nvml.nvmlDeviceGetEccMode, h)),
        "ecc_uncorrected": {"volatile": unc(facts_gpu.VOLATILE_ECC), "aggregate": unc(facts_gpu.AGGREGATE_ECC)},
        "retired_pages_pending": _call(nvml.nvmlDeviceGetRetiredPagesPendingStatus, h),
        "retired_pages_dbe": _list(_call(nvml.nvmlDeviceGetRetiredPages, h,
                                         facts_gpu.PAGE_RETIREMENT_CAUSE_DOUBLE_BIT)),
        "remapped_rows": _list(_call(nvml.nvmlDeviceGetRemappedRows, h)),
        "throttle_reasons": _call(throttle, h),
        "pcie": {"gen": _call(nvml.nvmlDeviceGetCurrPcieLinkGeneration, h),
                 "gen_max": _call(nvml.nvmlDeviceGetMaxPcieLinkGeneration, h),
                 "width": _call(nvml.nvmlDeviceGetCurrPcieLinkWidth, h),
                 "width_max": _call(nvml.nvmlDeviceGetMaxPcieLinkWidth, h)},
        "nvlink": links if links else "NotSupported",
        "persistence_mode": _call(nvml.nvmlDeviceGetPersistenceMode, h),
        "compute_mode": _call(nvml.nvmlDeviceGetComputeMode, h),
        "mig_mode": _list(_call(nvml.nvmlDeviceGetMigMode, h)),
    }


def _list(v):
    return v if isinstance(v, str) else [int(x) for x in v]


def record(nvml) -> dict:
    nvml.nvmlInit()
    try:
        driver = nvml.nvmlSystemGetDriverVersion()
        driver = driver.decode() if isinstance(driver, bytes) else driver
        return {"driver": driver, "init_error": None,
                "devices": [_device(nvml, i) for i in range(nvml.nvmlDeviceGetCount())]}
    finally:
        nvml.nvmlShutdown()


def main() -> None:
    path = sys.argv[1]
    try:
        import pynvml
    except ImportError as exc:
        print(json.dumps({"recorded": False, "reason": f"pynvml not importable: {exc}"}))
        return
    try:
        snap = record(pynvml)
    except Exception as exc:
        print(json.dumps({"recorded": False, "reason": f"NVML: {exc}"}))
        return
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(snap, fh, indent=1)
    live, replay = facts_gpu.collect_gpu_facts(), facts_gpu.collect_gpu_facts(nvml=NvmlReplay(path))
    diff = [k for k in sorted(set(live) | set(replay)) if k != "devices" and live.get(k) != replay.get(k)]
    for i, (a, b) in enumerate(zip(live.get("devices", []), replay.get("devices", []))):
        diff += [f"devices[{i}].{k}" for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
    print(json.dumps({"recorded": True, "snapshot": path, "devices": len(snap["devices"]),
                      "replay_equal": not diff, "differences": diff, "live_facts": live}))


if __name__ == "__main__":
    main()
