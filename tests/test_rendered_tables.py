"""What the user reads equals what report.json says: the all_reduce table of every view
(terminal from `check` itself and from `report`, Markdown, HTML) parsed back and compared
cell by cell, the summary lines checked, and findings in the same worst-first order.

Uses the session's shared real check (tests/_reportrun.py, 2 ranks); the 3-rank
cross-check, where busbw != algbw, is in test_faults' corrupt-data run.
"""

from __future__ import annotations

import re

import pytest

from tests._reportrun import LINT_ORDER, real_check
from tests._tables import compare_rows, html_rows, markdown_rows, parse_avg_line, terminal_rows
from tests.conftest import run_cli

SEV_RANK = {"error": 0, "warning": 1, "info": 2}


@pytest.fixture(scope="session")
def run(tmp_path_factory):
    return real_check(tmp_path_factory.getbasetemp() / "reportrun")


@pytest.fixture(scope="module")
def rows(run):
    ar = run.report["results"]["all_reduce"]
    assert [r["size"] for r in ar["rows"]] == [1024, 4096, 16384, 65536, 262144]  # 1 KiB .. 256 KiB, factor 4
    return ar["rows"]


def _terminal_checks(text: str, run, rows, view: str) -> None:
    cells, summary = terminal_rows(text)
    compare_rows(cells, rows, view)
    ar = run.report["results"]["all_reduce"]
    avg, peak = parse_avg_line(summary["avg"])
    assert avg == pytest.approx(ar["avg_busbw_gbps"], abs=5e-5) and peak == pytest.approx(
        ar["peak_busbw_gbps"], abs=5e-5
    )
    assert summary["out_of_bounds"] == "# Out of bounds values : 0 OK"


def test_the_check_commands_own_terminal_table_equals_the_report(run, rows):
    assert run.returncode == 0, run.stderr
    _terminal_checks(run.stdout, run, rows, "check stdout")


def test_report_command_terminal_table_equals_the_report(run, rows):
    p = run_cli("report", str(run.dir))
    assert p.returncode == 0, p.stderr
    _terminal_checks(p.stdout, run, rows, "report (terminal)")


def test_markdown_table_equals_the_report(run, rows):
    md = (run.dir / "report.md").read_text()
    compare_rows(markdown_rows(md), rows, "report.md")
    ar = run.report["results"]["all_reduce"]
    assert f"Peak busbw {ar['peak_busbw_gbps']:.3f} GB/s; average over all sizes {ar['avg_busbw_gbps']:.3f} GB/s" in md


def test_html_table_equals_the_report(run, rows):
    compare_rows(html_rows((run.dir / "report.html").read_text()), rows, "report.html")


def test_every_view_orders_findings_worst_first_not_by_code(run):
    """LINT_ENV makes an info code (ENV004) sort before a warning's (ENV005) by code."""
    want = [
        (f["severity"].upper(), f["code"])
        for f in sorted(run.report["findings"], key=lambda f: (SEV_RANK[f["severity"]], f["code"]))
    ]
    assert [w for w in want if w[1].startswith("ENV")] == LINT_ORDER
    md = (run.dir / "report.md").read_text()
    assert re.findall(r"^### (ERROR|WARNING|INFO) (\w+):", md, re.M) == want
    page = (run.dir / "report.html").read_text()
    html = re.findall(r'data-code="(\w+)" data-severity="(\w+)"', page)
    assert [(s.upper(), c) for c, s in html] == want
    term = run_cli("report", str(run.dir)).stdout
    assert re.findall(r"^(ERROR|WARNING|INFO)\s+(\w+) ", term, re.M) == want
    assert run.report["findings"] == sorted(
        run.report["findings"], key=lambda f: (SEV_RANK[f["severity"]], f["code"], f["message"])
    )
