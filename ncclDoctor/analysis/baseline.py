"""Busbw baselines: save a run's bandwidth, compare a later run against it.

Usage (CI)::

    ncclDoctor check --save-baseline ci/busbw-baseline.json      # once, on a known-good node
    ncclDoctor check --baseline ci/busbw-baseline.json --max-regression 10

``--baseline`` also accepts a run directory or its ``report.json`` (any saved run is a
baseline) and nccl-tests output, text or ``-J`` JSON (``baseline_from_nccl_tests``): run
nccl-tests with the check's sweep (GPU default ``-b 8 -e 128M -f 2``) so the sizes meet.

Series
------
A report's bandwidth is read as *series*: ``(table, node) -> {size in bytes: busbw GB/s}``.
Every entry of ``report.results`` that holds ``rows`` with ``size`` and ``busbw_gbps``
is a table, and so is every entry of ``results["collectives"]``, named by its collective
(``all_reduce``, ``all_gather``, ...; multi-node tables such as an intra-node all_reduce
use the same shape; ``results["baseline"]``, the comparison itself, is not one). Its
node is:

- ``"all"`` for the whole job (the table's own rows, when they carry no ``node``),
- the row's ``node`` field when rows carry one (one table, a row per node and size),
- the key of ``per_node`` (``{"<host> (<addr>)": {"rows": [...]}}``) when the table has one.

Comparison
----------
For every (table, node, size) present in both runs, ``change_pct = (now - base) / base
x 100``. A size regresses when ``change_pct < -max_regression_pct``. Sizes or nodes
present in only one run are listed but never judged: a changed sweep is not a
regression.

The baseline file (``kind: ncclDoctor-busbw-baseline``, ``version: 1``) keeps the
series plus what makes them comparable: backend, world size, node labels, the tool
version and when it was measured.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Iterable

from ncclDoctor.errors import UsageError
from ncclDoctor.fsutil import write_json_atomic

BASELINE_KIND = "ncclDoctor-busbw-baseline"
BASELINE_VERSION = 1
WHOLE_JOB = "all"

Series = dict[tuple[str, str], dict[int, float]]


def _rows_ok(rows: Any) -> bool:
    return isinstance(rows, list) and any(isinstance(r, dict) and "size" in r and "busbw_gbps" in r for r in rows)


def _add_rows(out: Series, table: str, rows: Iterable[dict[str, Any]], node: str) -> None:
    for r in rows:
        if isinstance(r, dict) and "size" in r and "busbw_gbps" in r:
            out.setdefault((table, str(r.get("node", node))), {})[int(r["size"])] = float(r["busbw_gbps"])


def busbw_series(results: dict[str, Any]) -> Series:
    """Every busbw series in ``report.results`` (see the module docstring for shapes)."""
    out: Series = {}
    colls = results.get("collectives") if isinstance(results.get("collectives"), dict) else {}
    items = {**colls, **{k: v for k, v in results.items() if k != "collectives"}}  # all_reduce: the same table twice
    for table, value in sorted(items.items()):
        if not isinstance(value, dict) or table in ("baseline", "expected"):  # not measurements
            continue
        if _rows_ok(value.get("rows")):
            _add_rows(out, table, value["rows"], WHOLE_JOB)
        per_node = value.get("per_node")
        if isinstance(per_node, dict):
            for node, sub in sorted(per_node.items()):
                rows = sub.get("rows") if isinstance(sub, dict) else sub
                if _rows_ok(rows):
                    _add_rows(out, table, rows, node)
    return out


def baseline_from_report(report: Any) -> dict[str, Any]:
    """The baseline document for a finished report."""
    ar = report.results.get("all_reduce") or {}
    series = busbw_series(report.results)
    return {
        "kind": BASELINE_KIND,
        "version": BASELINE_VERSION,
        "tool_version": report.tool_version,
        "measured_at": report.started_at,
        "command": report.command,
        "backend": ar.get("backend"),
        "world_size": ar.get("world_size"),
        "nodes": [n.get("host", "") + (f" ({n['addr']})" if n.get("addr") else "") for n in report.nodes],
        "series": [
            {"table": table, "node": node, "busbw_gbps": {str(s): v for s, v in sorted(sizes.items())}}
            for (table, node), sizes in sorted(series.items())
        ],
    }


def save_baseline(report: Any, path: str | os.PathLike) -> Path:
    return write_json_atomic(path, baseline_from_report(report))


def baseline_from_nccl_tests(doc: dict[str, Any], path: str) -> dict[str, Any]:
    """A baseline from nccl-tests output (``fieldformats.nccl_tests``): one series per test,
    named by its collective; busbw in place for all_reduce and broadcast (torch runs them in
    place, as the check does), out of place for the others."""
    from ncclDoctor.fieldformats import nccl_tests

    series, ranks = [], 0
    for t in doc["tests"]:
        name = t["collective"] or "all_reduce"  # logs before "Collective test starting:" lines
        pts = nccl_tests.busbw_by_size(t, in_place=name in ("all_reduce", "broadcast"))
        if pts:
            series.append({"table": name, "node": WHOLE_JOB, "busbw_gbps": {str(s): v for s, v in sorted(pts.items())}})
            ranks = max(ranks, len(t["devices"]))
    if not series:
        raise UsageError(f"--baseline {path}: nccl-tests output without busbw rows")
    return {"kind": BASELINE_KIND, "version": BASELINE_VERSION, "tool_version": "nccl-tests", "measured_at": None,
            "command": f"nccl-tests ({path})", "backend": "nccl", "world_size": ranks or None, "nodes": [],
            "series": series}


def _field_baseline(p: Path, path: str | os.PathLike) -> dict[str, Any] | None:
    """nccl-tests text or -J JSON as a baseline, or None when the file is something else."""
    from ncclDoctor import fieldformats

    try:
        data = p.read_bytes()
    except OSError:
        return None
    fmt = fieldformats.sniff(data[:fieldformats.SNIFF_BYTES], str(p))
    if fmt not in ("nccl-tests", "nccl-tests-json"):
        return None
    try:
        return baseline_from_nccl_tests(fieldformats.parse(fmt, data), str(path))
    except ValueError as exc:
        raise UsageError(f"--baseline {path}: {exc}") from None


def load_baseline(path: str | os.PathLike) -> dict[str, Any]:
    """Read a baseline file, a report.json, a run directory, or nccl-tests output (text or
    ``-J`` JSON); UsageError names what is wrong."""
    p = Path(path)
    if p.is_dir():
        p = p / "report.json"
    if (field := _field_baseline(p, path)) is not None:
        return field
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UsageError(f"--baseline {path}: no such file") from None
    except (OSError, ValueError) as exc:
        raise UsageError(f"--baseline {path}: not readable JSON ({exc})") from None
    if not isinstance(data, dict):
        raise UsageError(f"--baseline {path}: expected a JSON object")
    if data.get("kind") == BASELINE_KIND:
        if data.get("version") != BASELINE_VERSION:
            raise UsageError(f"--baseline {path}: baseline version {data.get('version')!r} is not {BASELINE_VERSION}")
        return data
    if "schema_version" in data and "results" in data:
        from ncclDoctor.report.model import Report

        try:
            return baseline_from_report(Report.from_dict(data))
        except (ValueError, KeyError, TypeError) as exc:
            raise UsageError(f"--baseline {path}: {exc}") from None
    raise UsageError(f"--baseline {path}: neither a baseline file (kind {BASELINE_KIND}) nor a report.json")


def baseline_series(doc: dict[str, Any]) -> Series:
    try:
        return {
            (s["table"], s["node"]): {int(size): float(v) for size, v in s["busbw_gbps"].items()}
            for s in doc.get("series", [])
        }
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise UsageError(f"baseline file is malformed: {exc!r}") from None


def compare(base: Series, now: Series, max_regression_pct: float) -> list[dict[str, Any]]:
    """One row per (table, node, size) in either run; ``regressed`` only where both have it."""
    rows = []
    for key in sorted(set(base) | set(now)):
        b, n = base.get(key, {}), now.get(key, {})
        for size in sorted(set(b) | set(n)):
            bv, nv = b.get(size), n.get(size)
            change = (nv - bv) / bv * 100.0 if bv and nv is not None else None
            rows.append({
                "table": key[0],
                "node": key[1],
                "size": size,
                "baseline_busbw_gbps": bv,
                "busbw_gbps": nv,
                "change_pct": None if change is None else round(change, 2),
                "regressed": change is not None and change < -max_regression_pct,
            })
    return rows
