"""DCGM diagnostics (``dcgmi diag -r N -j``) as plain data.

Source: NVIDIA/DCGM at 72fa3fe (2026-07): ``nvvs/include/NvvsJsonStrings.h`` (key names),
``testing/python3/dcgm_diag_schema.json`` (the schema its tests validate the output
against) and ``dcgmi/Diag.cpp`` (status strings ``Pass``, ``Fail``, ``Warn``, ``Skip``).
Shape: ``{"DCGM Diagnostic": {"test_categories": [{"category", "tests": [{"name",
"results": [{"entity_group", "entity_id", "status", "warnings": [{"warning", "error_id",
...}], "info"}], "test_summary": {"status"}}]}], "runtime_error"}, "entity_groups": [...],
"metadata": {...}}``. DCGM before 3.x (key ``"DCGM GPU Diagnostic"``) named the GPU with
``gpu_id``/``gpu_ids`` instead of ``entity_id``; both are read.

Result: ``{"tests": [{"category", "name", "status", "entity", "messages"}], "runtime_error",
"gpus": {entity_id: {"serial", "device_id"}}}`` with one entry per test and GPU.
"""

from __future__ import annotations

from typing import Any


def _messages(res: dict[str, Any]) -> list[str]:
    out = []
    for w in res.get("warnings") or []:
        if isinstance(w, dict) and w.get("warning"):
            out.append(str(w["warning"]).strip())
        elif isinstance(w, str):
            out.append(w.strip())
    return out


def _entity(res: dict[str, Any]) -> str:
    if "entity_id" in res:
        return f"{res.get('entity_group', 'GPU')} {res['entity_id']}"
    gid = res.get("gpu_id", res.get("gpu_ids"))
    return f"GPU {gid}" if gid is not None else "all GPUs"


def parse_json(obj: dict[str, Any]) -> dict[str, Any]:
    diag = obj.get("DCGM Diagnostic") or obj.get("DCGM GPU Diagnostic")
    if not isinstance(diag, dict):
        raise ValueError('DCGM: no "DCGM Diagnostic" object')
    tests = []
    for cat in diag.get("test_categories") or []:
        for t in (cat or {}).get("tests") or []:
            for res in t.get("results") or []:
                if isinstance(res, dict):
                    tests.append(
                        {
                            "category": cat.get("category"),
                            "name": t.get("name"),
                            "status": res.get("status"),
                            "entity": _entity(res),
                            "messages": _messages(res),
                        }
                    )
    gpus = {}
    for grp in obj.get("entity_groups") or []:
        for e in (grp or {}).get("entities") or []:
            gpus[f"{grp.get('entity_group', 'GPU')} {e.get('entity_id')}"] = {
                "serial": e.get("serial_num"),
                "device_id": e.get("device_id"),
            }
    return {
        "format": "dcgm",
        "tests": tests,
        "runtime_error": diag.get("runtime_error"),
        "gpus": gpus,
        "driver": (obj.get("metadata") or {}).get("Driver Version Detected"),
    }
