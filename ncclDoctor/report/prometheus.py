"""``--prometheus FILE``: the report as a node_exporter textfile-collector file.

    ncclDoctor check --op all --prometheus /var/lib/node_exporter/textfile/ncclDoctor_check.prom

node_exporter's ``--collector.textfile.directory`` reads every ``*.prom`` file there at each
scrape. The file is written whole (a temporary name without the ``.prom`` suffix, then a
rename), so a scrape never sees half a file. Names follow Prometheus' conventions: the
``ncclDoctor_`` prefix, snake_case, base units in the name (``_bytes_per_second``,
``_seconds``, ``_bytes``), ``# HELP`` and ``# TYPE`` for each family, every sample labelled
with the ``command`` that wrote it. All are gauges: each file is one run's snapshot.

==================================================  ======================================
metric                                              labels
==================================================  ======================================
``ncclDoctor_busbw_bytes_per_second``               command, collective, node, size_bytes
``ncclDoctor_algbw_bytes_per_second``               command, collective, size_bytes
``ncclDoctor_collective_time_seconds``              command, collective, size_bytes
``ncclDoctor_collective_wrong_elements``            command, collective, size_bytes
``ncclDoctor_busbw_peak_bytes_per_second``          command, collective
``ncclDoctor_busbw_expected_bytes_per_second``      command, collective, platform
``ncclDoctor_verdict``                              command, verdict (1 for the run's, else 0)
``ncclDoctor_exit_code``                            command
``ncclDoctor_findings``                             command, code, severity
``ncclDoctor_run_duration_seconds``                 command
``ncclDoctor_run_timestamp_seconds``                command (when the run started, Unix time)
==================================================  ======================================

busbw follows nccl-tests (``analysis.bandwidth``); GB/s in the report is 1e9 bytes/s here.
``node`` is ``all`` for the whole job, else the node of a per-node table.
"""

from __future__ import annotations

import datetime as _dt
import os
from typing import Any, Iterable

from ncclDoctor.analysis import baseline as bl
from ncclDoctor.fsutil import write_text_atomic
from ncclDoctor.report.collectives import tables

VERDICTS = ("pass", "warn", "fail", "error")
_HELP = {
    "busbw_bytes_per_second": "Bus bandwidth (nccl-tests busbw) per collective, node and message size.",
    "algbw_bytes_per_second": "Algorithm bandwidth (nccl-tests algbw: size / time) per collective and message size.",
    "collective_time_seconds": "Mean time per collective operation, averaged over ranks.",
    "collective_wrong_elements": "Elements that differed from the exact expected result, summed over ranks.",
    "busbw_peak_bytes_per_second": "Best busbw over all message sizes of the collective.",
    "busbw_expected_bytes_per_second": "Published busbw reference for the detected platform "
                                       "(ncclDoctor.knowledge.platforms).",
    "verdict": "1 for the run's verdict (pass, warn, fail, error), 0 for the others.",
    "exit_code": "The command's exit code (see ncclDoctor's exit-code table).",
    "findings": "Findings in the report, by code and severity.",
    "run_duration_seconds": "Wall time of the run.",
    "run_timestamp_seconds": "When the run started, in Unix time.",
}


def _esc(v: Any) -> str:
    return str(v).replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


def _num(v: float) -> str:
    return repr(float(v)) if v == v else "NaN"  # repr keeps full precision; NaN never reaches here from tables


def _family(name: str, samples: Iterable[tuple[dict[str, Any], float]]) -> list[str]:
    samples = list(samples)
    if not samples:
        return []
    full = f"ncclDoctor_{name}"
    out = [f"# HELP {full} {_HELP[name]}", f"# TYPE {full} gauge"]
    for labels, value in samples:
        lab = ",".join(f'{k}="{_esc(v)}"' for k, v in labels.items())
        out.append(f"{full}{{{lab}}} {_num(value)}")
    return out


def _collective_samples(report: Any, cmd: str) -> list[str]:
    series = bl.busbw_series(report.results)
    busbw = [
        ({"command": cmd, "collective": t, "node": n, "size_bytes": s}, v * 1e9)
        for (t, n), sizes in sorted(series.items())
        for s, v in sorted(sizes.items())
    ]
    per = tables(report.results)
    rows = [(name, r) for name, t in per.items() for r in t["rows"]]
    key = lambda name, r: {"command": cmd, "collective": name, "size_bytes": r["size"]}  # noqa: E731
    exp = (report.results.get("expected") or {}).get("platform")
    return [
        *_family("busbw_bytes_per_second", busbw),
        *_family("algbw_bytes_per_second", [(key(n, r), r["algbw_gbps"] * 1e9) for n, r in rows if "algbw_gbps" in r]),
        *_family("collective_time_seconds", [(key(n, r), r["time_us"] * 1e-6) for n, r in rows if "time_us" in r]),
        *_family("collective_wrong_elements", [(key(n, r), r.get("wrong", 0)) for n, r in rows]),
        *_family(
            "busbw_peak_bytes_per_second",
            [
                ({"command": cmd, "collective": n}, t["peak_busbw_gbps"] * 1e9)
                for n, t in per.items()
                if "peak_busbw_gbps" in t
            ],
        ),
        *_family(
            "busbw_expected_bytes_per_second",
            [({"command": cmd, "collective": exp["collective"], "platform": exp["id"]}, exp["busbw_gbps"] * 1e9)]
            if exp
            else [],
        ),
    ]


def _timestamp(started_at: str | None) -> float | None:
    try:
        return _dt.datetime.fromisoformat(str(started_at)).timestamp()
    except ValueError:
        return None


def render(report: Any) -> str:
    cmd = report.command
    counts: dict[tuple[str, str], int] = {}
    for f in report.findings:
        k = (f.code, f.severity.value)
        counts[k] = counts.get(k, 0) + 1
    ts = _timestamp(report.started_at)
    lines = [
        *_collective_samples(report, cmd),
        *_family("verdict", [({"command": cmd, "verdict": v}, float(report.verdict == v)) for v in VERDICTS]),
        *_family("exit_code", [({"command": cmd}, float(report.exit_code or 0))]),
        *_family("findings", [({"command": cmd, "code": c, "severity": s}, n) for (c, s), n in sorted(counts.items())]),
        *_family(
            "run_duration_seconds", [({"command": cmd}, report.duration_s)] if report.duration_s is not None else []
        ),
        *_family("run_timestamp_seconds", [({"command": cmd}, ts)] if ts is not None else []),
    ]
    return "\n".join(lines) + "\n"


def write(report: Any, path: str | os.PathLike) -> str:
    """Write the textfile whole (temp file + rename); return its path."""
    return str(write_text_atomic(path, render(report)))
