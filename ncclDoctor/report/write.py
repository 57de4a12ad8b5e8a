"""Render and write a report: the only module that knows every output format.

``render(report, fmt)`` gives json, markdown or html text; ``write_run_dir`` writes
report.json, report.md and report.html into the run directory, each file whole (written
then renamed), so a crash never leaves half a report. The terminal view is
``report.console``; JUnit XML is ``report.junit``.
"""

from __future__ import annotations

import os
from pathlib import Path

from ncclDoctor.fsutil import write_json_atomic, write_text_atomic
from ncclDoctor.report.html import render_html
from ncclDoctor.report.markdown import render_markdown
from ncclDoctor.report.model import Report

RENDERERS = ("json", "markdown", "html")


def render(report: Report, fmt: str) -> str:
    """The report as text in one of ``RENDERERS``."""
    if fmt == "json":
        return report.to_json()
    if fmt == "markdown":
        return render_markdown(report)
    if fmt == "html":
        return render_html(report)
    raise ValueError(f"unknown report format {fmt!r}: expected one of {', '.join(RENDERERS)}")


def write_run_dir(report: Report, run_dir: str | os.PathLike) -> Path:
    """Write report.json, report.md and report.html into the run directory (each file whole)."""
    run_dir = Path(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    report.run_dir = str(run_dir)
    write_json_atomic(run_dir / "report.json", report.to_dict())
    write_text_atomic(run_dir / "report.md", render(report, "markdown"))
    write_text_atomic(run_dir / "report.html", render(report, "html"))
    return run_dir / "report.json"
