"""A recorded NVML: the pynvml functions ``ncclDoctor.facts.gpu`` calls, answering from
a JSON snapshot instead of a driver.

Used by the tests (tests/fixtures/nvml/*.json) and, through the environment variable
``NCCLDOCTOR_NVML_REPLAY=snapshot.json``, by the CLI, so that a GPU report can be
reproduced on a machine without GPUs. The code path is the production one:
``collect_gpu_facts(nvml=NvmlReplay(path))`` instead of ``collect_gpu_facts()``.

Recording a snapshot from a real driver (the same calls, the same format), e.g. on the
GPU day, to commit next to the hand-written fixtures::

    python -m ncclDoctor.facts.nvml_replay --record tests/fixtures/nvml/recorded_<gpu>.json

Snapshot format (one object per GPU under ``devices``; any value may be the string
``"NotSupported"``, or ``"Error:<NVML error code>"``, to make that call raise the same
``pynvml.NVMLError`` a driver would)::

    {"driver": "550.54.15", "init_error": null,
     "devices": [{"name": "NVIDIA H100 80GB HBM3", "uuid": "GPU-...", "memory_total": 85520809984,
                  "pci_bus_id": "00000000:18:00.0", "ecc_mode": [1, 1],
                  "ecc_uncorrected": {"volatile": 0, "aggregate": 0},
                  "retired_pages_pending": 0, "retired_pages_dbe": [],
                  "remapped_rows": [0, 0, 0, 0], "throttle_reasons": 1,
                  "pcie": {"gen": 5, "gen_max": 5, "width": 16, "width_max": 16},
                  "nvlink": [1, 1, ...], "persistence_mode": 1, "compute_mode": 0, "mig_mode": [0, 0]}]}
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any


def _error(code: int) -> Exception:
    try:
        import pynvml

        return pynvml.NVMLError(code)
    except ImportError:  # pynvml absent: an exception with the same ``value`` attribute
        exc = RuntimeError(f"NVML error {code}")
        exc.value = code  # type: ignore[attr-defined]
        return exc


class NvmlReplay:
    def __init__(self, snapshot: str | Path | dict[str, Any]):
        if isinstance(snapshot, dict):
            self.data = snapshot
        else:
            with open(snapshot, encoding="utf-8") as fh:
                self.data = json.load(fh)
        self.calls: list[str] = []

    def _v(self, value: Any) -> Any:
        if value == "NotSupported":
            raise _error(3)
        if isinstance(value, str) and value.startswith("Error:"):
            raise _error(int(value.split(":", 1)[1]))
        return value

    def _dev(self, h: int, key: str) -> Any:
        self.calls.append(key)
        return self._v(self.data["devices"][h].get(key, "NotSupported"))

    def nvmlInit(self) -> None:
        if self.data.get("init_error"):
            raise _error(int(self.data["init_error"]))

    def nvmlShutdown(self) -> None:
        pass

    def nvmlSystemGetDriverVersion(self) -> str:
        return self.data["driver"]

    def nvmlDeviceGetCount(self) -> int:
        return len(self.data["devices"])

    def nvmlDeviceGetHandleByIndex(self, i: int) -> int:
        return i

    def nvmlDeviceGetName(self, h: int) -> str:
        return self._dev(h, "name")

    def nvmlDeviceGetUUID(self, h: int) -> str:
        return self._dev(h, "uuid")

    def nvmlDeviceGetMemoryInfo(self, h: int) -> Any:
        return SimpleNamespace(total=self._dev(h, "memory_total"))

    def nvmlDeviceGetPciInfo(self, h: int) -> Any:
        return SimpleNamespace(busId=self._dev(h, "pci_bus_id"))

    def nvmlDeviceGetEccMode(self, h: int) -> list[int]:
        return self._dev(h, "ecc_mode")

    def nvmlDeviceGetTotalEccErrors(self, h: int, error_type: int, counter: int) -> int:
        counts = self._dev(h, "ecc_uncorrected")
        return self._v(counts["volatile" if counter == 0 else "aggregate"])

    def nvmlDeviceGetRetiredPagesPendingStatus(self, h: int) -> int:
        return self._dev(h, "retired_pages_pending")

    def nvmlDeviceGetRetiredPages(self, h: int, cause: int) -> list[int]:
        return self._dev(h, "retired_pages_dbe")

    def nvmlDeviceGetRemappedRows(self, h: int) -> list[int]:
        return self._dev(h, "remapped_rows")

    def nvmlDeviceGetCurrentClocksEventReasons(self, h: int) -> int:
        return self._dev(h, "throttle_reasons")

    def _pcie(self, h: int, key: str) -> int:
        return self._v(self._dev(h, "pcie")[key])

    def nvmlDeviceGetCurrPcieLinkGeneration(self, h: int) -> int:
        return self._pcie(h, "gen")

    def nvmlDeviceGetMaxPcieLinkGeneration(self, h: int) -> int:
        return self._pcie(h, "gen_max")

    def nvmlDeviceGetCurrPcieLinkWidth(self, h: int) -> int:
        return self._pcie(h, "width")

    def nvmlDeviceGetMaxPcieLinkWidth(self, h: int) -> int:
        return self._pcie(h, "width_max")

    def nvmlDeviceGetNvLinkState(self, h: int, link: int) -> int:
        links = self._dev(h, "nvlink")
        if link >= len(links):
            raise _error(3)
        return links[link]

    def nvmlDeviceGetPersistenceMode(self, h: int) -> int:
        return self._dev(h, "persistence_mode")

    def nvmlDeviceGetComputeMode(self, h: int) -> int:
        return self._dev(h, "compute_mode")

    def nvmlDeviceGetMigMode(self, h: int) -> list[int]:
        return self._dev(h, "mig_mode")


# -- recording ----------------------------------------------------------------------
# (snapshot key, how to read it from a handle); errors become "NotSupported" or "Error:N",
# exactly what the replay turns back into the same pynvml.NVMLError.
_ECC_UNCORRECTED = 1  # NVML_MEMORY_ERROR_TYPE_UNCORRECTED
_PAGE_DBE = 1  # NVML_PAGE_RETIREMENT_CAUSE_DOUBLE_BIT_ECC_ERROR
_NVLINKS = 18  # NVML_NVLINK_MAX_LINKS
_DEVICE_CALLS: list[tuple[str, Any]] = [
    ("name", lambda n, h: _text(n.nvmlDeviceGetName(h))),
    ("uuid", lambda n, h: _text(n.nvmlDeviceGetUUID(h))),
    ("memory_total", lambda n, h: int(n.nvmlDeviceGetMemoryInfo(h).total)),
    ("pci_bus_id", lambda n, h: _text(n.nvmlDeviceGetPciInfo(h).busId)),
    ("ecc_mode", lambda n, h: [int(x) for x in n.nvmlDeviceGetEccMode(h)]),
    ("retired_pages_pending", lambda n, h: int(n.nvmlDeviceGetRetiredPagesPendingStatus(h))),
    ("retired_pages_dbe", lambda n, h: [int(x) for x in n.nvmlDeviceGetRetiredPages(h, _PAGE_DBE)]),
    ("remapped_rows", lambda n, h: [int(x) for x in n.nvmlDeviceGetRemappedRows(h)]),
    ("throttle_reasons", lambda n, h: int(n.nvmlDeviceGetCurrentClocksEventReasons(h))),
    ("persistence_mode", lambda n, h: int(n.nvmlDeviceGetPersistenceMode(h))),
    ("compute_mode", lambda n, h: int(n.nvmlDeviceGetComputeMode(h))),
    ("mig_mode", lambda n, h: [int(x) for x in n.nvmlDeviceGetMigMode(h)]),
]
_PCIE = {"gen": "nvmlDeviceGetCurrPcieLinkGeneration", "gen_max": "nvmlDeviceGetMaxPcieLinkGeneration",
         "width": "nvmlDeviceGetCurrPcieLinkWidth", "width_max": "nvmlDeviceGetMaxPcieLinkWidth"}


def _text(v: Any) -> str:
    return v.decode() if isinstance(v, bytes) else str(v)


def _recorded(fn: Any) -> Any:
    try:
        return fn()
    except Exception as exc:  # pynvml.NVMLError (or the replay's stand-in) carries .value
        code = getattr(exc, "value", None)
        if code is None:
            raise
        return "NotSupported" if code == 3 else f"Error:{code}"


def _record_device(nvml: Any, h: Any) -> dict[str, Any]:
    dev = {key: _recorded(lambda fn=fn: fn(nvml, h)) for key, fn in _DEVICE_CALLS}
    dev["ecc_uncorrected"] = {
        name: _recorded(lambda c=counter: int(nvml.nvmlDeviceGetTotalEccErrors(h, _ECC_UNCORRECTED, c)))
        for name, counter in (("volatile", 0), ("aggregate", 1))
    }
    dev["pcie"] = {key: _recorded(lambda f=f: int(getattr(nvml, f)(h))) for key, f in _PCIE.items()}
    links = []
    for link in range(_NVLINKS):  # a link index past the GPU's last raises NotSupported / InvalidArgument
        state = _recorded(lambda k=link: int(nvml.nvmlDeviceGetNvLinkState(h, k)))
        if isinstance(state, str):
            break
        links.append(state)
    dev["nvlink"] = links
    return dev


def record(nvml: Any = None) -> dict[str, Any]:
    """A snapshot of every value ``collect_gpu_facts`` reads, from ``nvml`` (pynvml by default)."""
    if nvml is None:
        import pynvml as nvml  # type: ignore[no-redef]
    try:
        nvml.nvmlInit()
    except Exception as exc:
        return {"driver": None, "init_error": getattr(exc, "value", 999), "devices": []}
    try:
        handles = [nvml.nvmlDeviceGetHandleByIndex(i) for i in range(nvml.nvmlDeviceGetCount())]
        return {
            "driver": _text(nvml.nvmlSystemGetDriverVersion()),
            "init_error": None,
            "devices": [_record_device(nvml, h) for h in handles],
        }
    finally:
        nvml.nvmlShutdown()


def main(argv: list[str] | None = None) -> int:
    import argparse

    from ncclDoctor.fsutil import write_json_atomic

    ap = argparse.ArgumentParser(prog="python -m ncclDoctor.facts.nvml_replay", description="Record an NVML snapshot.")
    ap.add_argument("--record", required=True, metavar="SNAPSHOT.json", help="where to write the snapshot")
    args = ap.parse_args(argv)
    snap = record()
    write_json_atomic(args.record, snap)
    print(f"{len(snap['devices'])} GPU(s), driver {snap['driver']}: {args.record}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
