"""nccl-tests output, text and JSON, as plain data.

Source: NVIDIA/nccl-tests v2.19.6 (``a0b82b2``), ``src/util.cu``:

- preamble ``# nccl-tests version V nccl-headers=N nccl-library=N``, ``# Collective test
  starting: NAME``, ``# nThread T nGpus G minBytes B maxBytes B step: S(factor|bytes) warmup
  iters: W iters: N agg iters: A validation: V graph: G``, device lines ``#  Rank %2d Group %2d
  Pid %6d on %10s device %2d [%04x:%02x:%02x] NAME`` (older: ``[0x%02x]``, no Group);
- rows ``size count type redop root`` then out-of-place and in-place ``time algbw busbw
  #wrong`` (before v2.13, commit 51af557, no ``root`` column and an ``error`` column with a
  float instead of ``#wrong``; ``N/A`` with ``-c 0``);
- footer ``# Out of bounds values : N OK|FAILED``, ``# Avg bus bandwidth : X [OK|FAILED]``
  (OK/FAILED only with NCCL_TESTS_MIN_BW), ``# Collective test concluded: NAME``;
- ``-J FILE``: ``{"version", "config": {..., "devices": [{rank, hostname, ...}]}, "results":
  [{size, count, type, redop, root, out_of_place: {time, alg_bw, bus_bw, nwrong}, in_place:
  {...}}], "out_of_bounds": {count, okay}, "average_bus_bandwidth": {bandwidth, okay}}``.

Pasted into an issue, the ``#`` of every comment line is often lost (Markdown reads it as a
heading), and an excerpt often starts at the column header: both are read (``COLUMNS``).

One file may hold several tests (a script running all_reduce_perf then all_gather_perf):
``tests`` has one entry per test. A test's ``collective`` is the program name without
``_perf`` (all_reduce, all_gather, ...), or None when the output does not say.
"""

from __future__ import annotations

import re
from typing import Any

# one figure: digits, then a fraction only after a dot -- "\d+\.?\d*" matched "123" as "1"+"23", "12"+"3", ..., so a
# long run of small integers that is no row (DDP's list of parameter indices, 0 1 2 ... 99, then "...") backtracked
# exponentially in _ROW (round 77's gliner-165 wrapped at 120 columns hung the paste test)
_NUM = r"[-+]?(?:\d+(?:\.\d*)?(?:[eE][-+]?\d+)?|N/A)"
_HEADER = re.compile(
    r"#?\s*nThread\s+(\d+)\s+nGpus\s+(\d+)\s+minBytes\s+(\d+)\s+maxBytes\s+(\d+)"
    r".*?warmup iters:\s*(\d+)\s+iters:\s*(\d+)"
)
_DEVICE = re.compile(
    r"(?:#\s+|^\s*)Rank\s+(\d+)\s+(?:Group\s+(\d+)\s+)?Pid\s+(\d+)\s+on\s+(\S+)\s+device\s+(\d+)\s+\[([^\]]*)\]\s*(.*)"
)
# (the redop column is absent in older versions' all_gather / broadcast tables: "size count type time algbw ...";
# the eight figures of the two sides are required so that such a row's first time is not read as a root)
_ROW = re.compile(rf"^\s*(\d+)\s+(\d+)\s+([a-z0-9_]+)\s+(?:([a-z]+)\s+)?(?:(-?\d+)\s+)?((?:{_NUM}\s+){{7,}}{_NUM})\s*$")
_OOB = re.compile(r"#?\s*Out of bounds values\s*:\s*(\d+)\s*(OK|FAILED)?")
_AVG = re.compile(r"#?\s*Avg bus bandwidth\s*:\s*(" + _NUM + r")\s*(OK|FAILED)?")
_NAME = re.compile(r"#?\s*Collective test (?:starting|concluded):\s*(\S+)")
# The table's column header, the one line every version prints (a pasted excerpt often starts here); before v2.13
# all_gather's and broadcast's tables have no redop column ("size count type time algbw busbw error").
COLUMNS = re.compile(r"^#?\s*size\s+count\s+type\s+(?:redop\s+)?(?:root\s+)?time\s+algbw\s+busbw\s+"
                     r"(?:#?wrong|error)", re.M)


def result_row(line: str) -> bool:
    """One whole result row: its size, count and type, then the eight figures of both sides and nothing after."""
    return bool(_ROW.match(line))


def table_line(line: str) -> bool:
    """The column header or a whole result row (the eight figures of both sides): what a row hard-wrapped at a
    terminal's width reads as once its pieces are joined. The table's columns are blank-separated, so a cut
    often falls in the blanks between two figures and its first piece ends in blanks, as a screen copy's
    padded line does; this tells the two apart."""
    return bool(COLUMNS.match(line)) or result_row(line)


def headless(text: str) -> bool:
    """An excerpt pasted from the result rows on (no preamble, no column header): two rows or more and the
    table's closing 'Out of bounds values' line -- or, where the paste stops before that line (a run that hangs or
    is cut mid-table), three rows or more in the full shape of v2.13 on (a reduction's redop and its root column
    '-1' before the eight figures), a shape no other log line takes."""
    rows = [m for line in text.splitlines()[:200] if (m := _ROW.match(line)) and len(m.group(6).split()) >= 8]
    if len(rows) >= 2 and _OOB.search(text):
        return True
    return sum(1 for m in rows if m.group(4) and m.group(5) is not None) >= 3


def collective_of(program: str | None) -> str | None:
    if not program:
        return None
    name = program.rsplit("/", 1)[-1]
    return name[:-5] if name.endswith("_perf") else name


def _f(v: str) -> float | None:
    return None if v == "N/A" else float(v)


def _side(vals: list[str]) -> dict[str, Any]:
    wrong = vals[3]
    return {
        "time_us": _f(vals[0]),
        "algbw_gbps": _f(vals[1]),
        "busbw_gbps": _f(vals[2]),
        "wrong": None if wrong == "N/A" else (int(float(wrong)) if "." not in wrong and "e" not in wrong else None),
        "error": float(wrong) if wrong != "N/A" and ("." in wrong or "e" in wrong) else None,
    }


def _row(m: re.Match) -> dict[str, Any] | None:
    vals = m.group(6).split()
    if len(vals) < 8:
        return None
    return {
        "size": int(m.group(1)),
        "count": int(m.group(2)),
        "type": m.group(3),
        "redop": m.group(4),
        "root": int(m.group(5)) if m.group(5) is not None else None,
        "out_of_place": _side(vals[:4]),
        "in_place": _side(vals[4:8]),
    }


def _new_test(name: str | None = None) -> dict[str, Any]:
    return {
        "collective": collective_of(name),
        "program": name,
        "config": {},
        "devices": [],
        "rows": [],
        "out_of_bounds": None,
        "out_of_bounds_failed": None,
        "avg_busbw_gbps": None,
        "min_bw_failed": None,
    }


def parse_text(text: str) -> dict[str, Any]:
    tests: list[dict[str, Any]] = []
    cur: dict[str, Any] | None = None
    for line in text.splitlines():
        if (m := _NAME.search(line)) and "starting" in line:
            cur = _new_test(m.group(1))
            tests.append(cur)
            continue
        if m := _HEADER.search(line):
            if cur is None or cur["config"]:  # older versions print no "starting" line
                cur = _new_test()
                tests.append(cur)
            cur["config"] = {
                "nthreads": int(m.group(1)),
                "ngpus": int(m.group(2)),
                "min_bytes": int(m.group(3)),
                "max_bytes": int(m.group(4)),
                "warmup": int(m.group(5)),
                "iters": int(m.group(6)),
            }
        elif cur is None:
            if COLUMNS.search(line):  # an excerpt that starts at the table: a test whose name is unknown
                cur = _new_test()
                tests.append(cur)
            elif (m := _ROW.match(line)) and (row := _row(m)):  # one that starts at the rows (headless())
                cur = _new_test()
                cur["rows"].append(row)
                tests.append(cur)
            continue
        elif m := _DEVICE.search(line):
            cur["devices"].append(
                {
                    "rank": int(m.group(1)),
                    "pid": int(m.group(3)),
                    "host": m.group(4),
                    "device": int(m.group(5)),
                    "bus_id": m.group(6),
                    "name": m.group(7).strip(),
                }
            )
        elif cur["rows"] and COLUMNS.search(line):  # a second table pasted without its preamble
            cur = _new_test()
            tests.append(cur)
        elif (m := _ROW.match(line)) and (row := _row(m)):
            cur["rows"].append(row)
        elif m := _OOB.search(line):
            cur["out_of_bounds"], cur["out_of_bounds_failed"] = int(m.group(1)), m.group(2) == "FAILED"
        elif m := _AVG.search(line):
            cur["avg_busbw_gbps"] = _f(m.group(1))
            cur["min_bw_failed"] = {"FAILED": True, "OK": False}.get(m.group(2) or "")
        elif (m := _NAME.search(line)) and not cur["program"]:
            cur["program"], cur["collective"] = m.group(1), collective_of(m.group(1))
    tests = [t for t in tests if t["rows"] or t["devices"] or t["avg_busbw_gbps"] is not None]
    if not tests:
        raise ValueError("nccl-tests: no result table found")
    return {"format": "nccl-tests", "tests": tests}


def _json_side(d: Any) -> dict[str, Any] | None:
    if not isinstance(d, dict):
        return None
    wrong = d.get("nwrong")
    return {
        "time_us": d.get("time", d.get("cpu_time")),
        "algbw_gbps": d.get("alg_bw"),
        "busbw_gbps": d.get("bus_bw"),
        "wrong": None if wrong is None else int(wrong),
        "error": None,
    }


def parse_json(obj: dict[str, Any]) -> dict[str, Any]:
    rows = []
    for r in obj.get("results") or []:
        if not isinstance(r, dict) or "size" not in r:
            continue
        root = r.get("root")
        rows.append(
            {
                "size": int(r["size"]),
                "count": int(r.get("count") or 0),
                "type": r.get("type"),
                "redop": r.get("redop"),
                "root": int(root) if str(root).lstrip("-").isdigit() else None,
                "out_of_place": _json_side(r.get("out_of_place")),
                "in_place": _json_side(r.get("in_place")),
                "experiment": r.get("experiment_name"),
            }
        )
    if not rows:
        raise ValueError("nccl-tests JSON: no results")
    cfg = obj.get("config") if isinstance(obj.get("config"), dict) else {}
    oob, avg = obj.get("out_of_bounds") or {}, obj.get("average_bus_bandwidth") or {}
    program = next((a for a in obj.get("args") or [] if str(a).endswith("_perf")), None)
    test = {
        **_new_test(program),
        "rows": rows,
        "config": {
            "ngpus": cfg.get("ngpus"),
            "min_bytes": cfg.get("minimum_bytes"),
            "max_bytes": cfg.get("maximum_bytes"),
            "warmup": cfg.get("warmup_iters"),
            "iters": cfg.get("iterations"),
        },
        "devices": [
            {
                "rank": d.get("rank"),
                "pid": d.get("pid"),
                "host": d.get("hostname"),
                "device": d.get("device"),
                "bus_id": d.get("device_hex"),
                "name": d.get("device_info"),
            }
            for d in cfg.get("devices") or obj.get("devices") or []
            if isinstance(d, dict)
        ],
        "out_of_bounds": oob.get("count"),
        "out_of_bounds_failed": oob.get("okay") is False,
        "avg_busbw_gbps": avg.get("bandwidth"),
        "min_bw_failed": None if avg.get("okay") in (None, "unchecked") else avg.get("okay") is False,
    }
    return {"format": "nccl-tests-json", "tests": [test]}


def infer_collective(test: dict[str, Any]) -> tuple[str | None, str]:
    """The collective of a table whose program name is not in the input, from what its rows print
    (nccl-tests' bus factors, ``src/*.cu`` ``*GetBw``): ``busbw / algbw`` is 2(n-1)/n (>= 1) for
    all_reduce, (n-1)/n (< 1) for reduce_scatter, all_gather and alltoall, and 1 for broadcast,
    reduce and sendrecv; ``redop`` is ``none`` for the gathers and ``root`` >= 0 only for the rooted
    ones. Returns (name or None, the reasoning in words)."""
    ratios = [r[s]["busbw_gbps"] / r[s]["algbw_gbps"] for r in test["rows"] for s in ("out_of_place", "in_place")
              if r.get(s) and r[s]["algbw_gbps"] and r[s]["busbw_gbps"] is not None and r[s]["algbw_gbps"] >= 0.1]
    if not ratios or not test["rows"]:
        return None, "no row with a measurable algbw"
    ratio = sorted(ratios)[len(ratios) // 2]
    redop, root, n = test["rows"][0]["redop"], test["rows"][0]["root"], len(test["devices"])
    why = f"redop {redop}, {'no root column' if root is None else f'root {root}'}, busbw/algbw {ratio:.3f}"
    why += f" with {n} ranks" if n else ""
    if root is not None and root >= 0:
        return None, why + ": a rooted collective (broadcast or reduce)"
    if redop == "none":
        return None, why + ": all_gather or alltoall"
    if n > 2 and abs(ratio - 2 * (n - 1) / n) < 0.02 * ratio:
        return "all_reduce", why + " = 2(n-1)/n: all_reduce"
    if n > 2 and abs(ratio - (n - 1) / n) < 0.02:
        return "reduce_scatter", why + " = (n-1)/n: reduce_scatter"
    if not n and ratio > 1.05:
        return "all_reduce", why + ": only all_reduce's factor exceeds 1"
    return None, why + ": not one collective's factor"


def busbw_by_size(test: dict[str, Any], in_place: bool = True) -> dict[int, float]:
    """size -> busbw of one side (in place by default: torch's all_reduce and broadcast are)."""
    side = "in_place" if in_place else "out_of_place"
    return {r["size"]: r[side]["busbw_gbps"] for r in test["rows"] if r.get(side) and r[side]["busbw_gbps"] is not None}


# The older ``error`` column is the largest relative deviation of a result from the expected value, not a count:
# a reduction summed in another order rounds differently, so nccl-tests itself (before v2.13, ``DeltaMaxValue`` in
# ``src/common.cu``) counted a value wrong only above its data type's tolerance -- 1e-2 for half and bfloat16, 1e-5
# for float, 1e-12 for double, 0 for integers. A float table full of ``1e-06`` is rounding, not corruption.
_TOLERANCE = {"half": 1e-2, "float16": 1e-2, "bfloat16": 1e-2, "float": 1e-5, "float32": 1e-5, "double": 1e-12,
              "float64": 1e-12}


def _side_wrong(row: dict[str, Any], side: str) -> bool:
    s = row.get(side)
    if not s:
        return False
    if (s["wrong"] or 0) > 0:
        return True
    return (s["error"] or 0) > _TOLERANCE.get(str(row.get("type", "")).lower(), 0.0)


def wrong_rows(test: dict[str, Any]) -> list[dict[str, Any]]:
    return [r for r in test["rows"] for s in ("out_of_place", "in_place") if _side_wrong(r, s)]
