"""GPU facts through NVML (the ``pynvml`` module from nvidia-ml-py).

Where NVML is missing (no driver, no GPU, CPU-only machines like our CI) this returns
``{"skipped": "no NVML: ..."}``: absence is a fact, not a failure. A query a GPU does
not support (remapped rows before Ampere, NVLink on PCIe cards) is recorded as
``None``; any other NVML error is recorded under ``errors`` for that GPU, so one
failing query never hides the rest.

Per GPU, besides identity: ECC mode and uncorrectable error counts (volatile = since the
driver loaded, aggregate = lifetime), retired pages (pre-Ampere) and remapped rows
(Ampere+), clock throttle reasons (bitmask), PCIe link generation and width (current
and maximum), NVLink link states, persistence mode, compute mode and MIG mode. Rules
over these live in ``ncclDoctor.rules.gpu``.

``nvml`` may be a recorded double with the same function names (tests/nvml_double.py
replays JSON fixtures through this exact code).
"""

from __future__ import annotations

from typing import Any, Callable

# NVML constants, spelled out so a double need not define them (values from nvml.h).
MEMORY_ERROR_TYPE_UNCORRECTED = 1
VOLATILE_ECC = 0
AGGREGATE_ECC = 1
PAGE_RETIREMENT_CAUSE_MULTIPLE_SINGLE_BIT = 0
PAGE_RETIREMENT_CAUSE_DOUBLE_BIT = 1
NVLINK_MAX_LINKS = 36  # NVML 12.x; 18 on older headers
INVALID_ARGUMENT = 2  # NVML_ERROR_INVALID_ARGUMENT
NOT_SUPPORTED = 3  # NVML_ERROR_NOT_SUPPORTED


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
        devices = [_device(nvml, i) for i in range(count)]
        return {"driver": driver, "count": count, "devices": devices}
    except Exception as exc:
        return {"skipped": f"NVML query failed: {exc}"}
    finally:
        try:
            nvml.nvmlShutdown()
        except Exception:
            pass


def _device(nvml: Any, i: int) -> dict[str, Any]:
    h = nvml.nvmlDeviceGetHandleByIndex(i)
    errors: dict[str, str] = {}

    def q(key: str, fn: Callable[[], Any]) -> Any:
        try:
            return fn()
        except Exception as exc:
            if getattr(exc, "value", None) != NOT_SUPPORTED:
                errors[key] = str(exc)
            return None

    mem = nvml.nvmlDeviceGetMemoryInfo(h)
    d: dict[str, Any] = {
        "index": i,
        "name": _str(nvml.nvmlDeviceGetName(h)),
        "uuid": _str(nvml.nvmlDeviceGetUUID(h)),
        "memory_total_bytes": int(mem.total),
        "pci_bus_id": q("pci", lambda: _str(nvml.nvmlDeviceGetPciInfo(h).busId)),
    }
    ecc = q("ecc_mode", lambda: nvml.nvmlDeviceGetEccMode(h))
    d["ecc_enabled"] = None if ecc is None else bool(ecc[0])
    unc = lambda kind: nvml.nvmlDeviceGetTotalEccErrors(h, MEMORY_ERROR_TYPE_UNCORRECTED, kind)  # noqa: E731
    d["ecc_uncorrected_volatile"] = q("ecc_volatile", lambda: int(unc(VOLATILE_ECC))) if d["ecc_enabled"] else None
    d["ecc_uncorrected_aggregate"] = q("ecc_aggregate", lambda: int(unc(AGGREGATE_ECC))) if d["ecc_enabled"] else None
    d["retired_pages_pending"] = q("retired_pending", lambda: bool(nvml.nvmlDeviceGetRetiredPagesPendingStatus(h)))
    d["retired_pages_dbe"] = q("retired_dbe",
                               lambda: len(nvml.nvmlDeviceGetRetiredPages(h, PAGE_RETIREMENT_CAUSE_DOUBLE_BIT)))
    rows = q("remapped_rows", lambda: nvml.nvmlDeviceGetRemappedRows(h))
    d["remapped_rows"] = None if rows is None else {
        "correctable": int(rows[0]), "uncorrectable": int(rows[1]), "pending": bool(rows[2]), "failure": bool(rows[3]),
    }
    d["throttle_reasons"] = q("throttle", lambda: int(_throttle_fn(nvml)(h)))
    d["pcie"] = {
        "gen": q("pcie_gen", lambda: int(nvml.nvmlDeviceGetCurrPcieLinkGeneration(h))),
        "gen_max": q("pcie_gen_max", lambda: int(nvml.nvmlDeviceGetMaxPcieLinkGeneration(h))),
        "width": q("pcie_width", lambda: int(nvml.nvmlDeviceGetCurrPcieLinkWidth(h))),
        "width_max": q("pcie_width_max", lambda: int(nvml.nvmlDeviceGetMaxPcieLinkWidth(h))),
    }
    d["nvlink"] = _nvlinks(nvml, h, errors)
    d["persistence_mode"] = q("persistence", lambda: bool(nvml.nvmlDeviceGetPersistenceMode(h)))
    d["compute_mode"] = q("compute_mode", lambda: int(nvml.nvmlDeviceGetComputeMode(h)))
    mig = q("mig", lambda: nvml.nvmlDeviceGetMigMode(h))
    d["mig_enabled"] = None if mig is None else bool(mig[0])
    d["errors"] = errors
    return d


def _throttle_fn(nvml: Any) -> Callable:
    # nvmlDeviceGetCurrentClocksThrottleReasons was renamed ...ClocksEventReasons in
    # NVML 12.x; old drivers' modules only have the first name.
    return (getattr(nvml, "nvmlDeviceGetCurrentClocksEventReasons", None)
            or nvml.nvmlDeviceGetCurrentClocksThrottleReasons)


def _nvlinks(nvml: Any, h: Any, errors: dict[str, str]) -> list[bool] | None:
    """State of each NVLink link (True = active), None when the GPU has no NVLink."""
    states: list[bool] = []
    for link in range(NVLINK_MAX_LINKS):
        try:
            states.append(bool(nvml.nvmlDeviceGetNvLinkState(h, link)))
        except Exception as exc:
            # Links are numbered from 0; the first unsupported (or, on some drivers,
            # invalid) index ends the list.
            if getattr(exc, "value", None) not in (NOT_SUPPORTED, INVALID_ARGUMENT):
                errors[f"nvlink{link}"] = str(exc)
            break
    return states or None


def _str(v: Any) -> str:
    return v.decode() if isinstance(v, bytes) else str(v)
