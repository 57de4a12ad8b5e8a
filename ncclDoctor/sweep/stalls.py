"""``ncclDoctor stalls RUN_DIR``: analyse the records a ``Monitor`` wrote during training.

    ncclDoctor stalls runs/my-job [--stall-share 0.1] [--fail-on warning] [--select DL001]

``read_records`` reads ``<run_dir>/monitor/rank-<R>.jsonl`` (skipping a torn last line);
``run_stalls`` turns them into findings (``analysis.stalls``: DL001 dataloader stall,
DL002 straggler, DL003 unequal batch counts) and finishes like every other command
(``ncclDoctor.finish``): the report is written into the monitored run directory, or
``--out``. Raises ``UsageError`` (exit 2) when the directory holds no monitor records.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from ncclDoctor.errors import UsageError
from ncclDoctor.options import CommonOptions
from ncclDoctor.report.model import Report


def read_records(run_dir: str | os.PathLike) -> dict[int, list[dict[str, Any]]]:
    """rank -> its records, from ``<run_dir>/monitor/rank-*.jsonl`` (torn lines skipped)."""
    folder = Path(run_dir) / "monitor"
    out: dict[int, list[dict[str, Any]]] = {}
    for path in sorted(folder.glob("rank-*.jsonl")):
        try:
            rank = int(path.stem.split("-", 1)[1])
        except ValueError:
            continue
        recs = []
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                try:
                    recs.append(json.loads(line))
                except ValueError:
                    continue  # a torn last line of a crashed rank
        out[rank] = recs
    return out


def run_stalls(
    run_dir: str | os.PathLike,
    stall_share: float = 0.10,
    common: CommonOptions | None = None,
    argv: list[str] | None = None,
) -> Report:
    """Analyse a monitored run directory and write its report (report.json, report.md, report.html)."""
    from ncclDoctor.analysis import stalls
    from ncclDoctor.finish import finishing

    common = common or CommonOptions()
    if not 0 < stall_share < 1:
        raise UsageError(f"--stall-share must be between 0 and 1, got {stall_share}")
    records = read_records(run_dir) if Path(run_dir, "monitor").is_dir() else {}
    if not records:
        raise UsageError(f"no monitor records in {run_dir} (expected {Path(run_dir) / 'monitor' / 'rank-<R>.jsonl'})")
    report = Report(command="stalls", argv=list(argv or []), config={"stall_share": stall_share, **common.summary()})
    results, findings = stalls.analyse(records, stall_share=stall_share)
    report.results["stalls"] = results
    report.ranks = results["ranks"]
    report.add(*findings)
    finishing(report, common, common.out or run_dir)
    return report
