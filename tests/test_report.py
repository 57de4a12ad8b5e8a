"""Report views from a real check run: findings first and worst first, units labelled,
schema-valid report.json, and a run directory that re-renders to the same files."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import subprocess
import sys

import pytest

from ncclDoctor.analysis import bandwidth
from ncclDoctor.report.model import SCHEMA_VERSION, Report
from ncclDoctor.report.write import render
from tests._reportrun import SCHEMA, real_check, schema_errors
from tests.conftest import ROOT, cli_env, run_cli, run_cli_here

ANSI = re.compile(r"\x1b\[")


@pytest.fixture(scope="session")
def run(tmp_path_factory):
    return real_check(tmp_path_factory.getbasetemp() / "reportrun")


def test_real_report_matches_the_schema(run):
    assert run.returncode == 0, run.stderr
    assert schema_errors(run.report) == []
    assert json.loads(SCHEMA.read_text())["x-ncclDoctor-schema-version"] == SCHEMA_VERSION
    assert run.report["schema_version"] == SCHEMA_VERSION


def test_schema_rejects_what_dashboards_could_not_read(run):
    bad = run.report
    bad["verdict"] = "maybe"
    bad["findings"] = [{"code": "env1", "severity": "fatal"}]
    errors = " ".join(schema_errors(bad))
    assert "verdict" in errors and "findings[0]" in errors


def test_schema_command_prints_the_shipped_schema():
    p = run_cli("schema")
    assert p.returncode == 0 and json.loads(p.stdout) == json.loads(SCHEMA.read_text())


def test_rebuilt_report_equals_the_original(run):
    original = run.report
    p = run_cli("report", str(run.dir), "--format", "json")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout) == original
    rep = Report.load(run.dir)
    assert rep.to_dict() == original
    for fmt, name in (("markdown", "report.md"), ("html", "report.html")):
        assert render(rep, fmt) == (run.dir / name).read_text(), f"{name} differs when re-rendered"


def test_bandwidth_table_rebuilds_from_the_raw_rank_records(run):
    """The raw per-rank records in ranks/ back every number of the busbw table."""
    ar = run.report["results"]["all_reduce"]
    per_rank = {int(p.stem[4:]): json.loads(p.read_text())["all_reduce"]
                for p in (run.dir / "ranks").glob("rank*.json")}
    assert sorted(per_rank) == list(range(ar["world_size"]))
    rebuilt = bandwidth.build_table("all_reduce", per_rank, ar["world_size"])
    assert json.loads(json.dumps(rebuilt)) == ar["rows"]


def _positions(text: str, needles: list[str]) -> list[int]:
    return [text.index(n) for n in needles]


def test_markdown_findings_first_worst_first_units_labelled(run):
    md = (run.dir / "report.md").read_text()
    sev = [f["severity"] for f in run.report["findings"]]
    assert "warning" in sev and "info" in sev, run.report["findings"]
    heads = re.findall(r"^### (ERROR|WARNING|INFO) ", md, re.M)
    assert heads == [s.upper() for s in sorted(sev, key=lambda s: {"error": 0, "warning": 1, "info": 2}[s])]
    findings, table = _positions(md, ["## Findings", "## all_reduce"])
    assert findings < table
    for unit in ("size (B)", "time (us)", "busbw (GB/s)", "algbw (GB/s)"):
        assert unit in md


def test_terminal_view_is_plain_when_piped_findings_before_table(run):
    p = run_cli("report", str(run.dir))
    assert p.returncode == 0
    assert not ANSI.search(p.stdout + p.stderr)
    out = p.stdout
    first_finding = min(out.index(s) for s in ("WARNING", "INFO"))
    assert first_finding < out.index("# all_reduce") < out.index(f"{run.report['verdict'].upper()} ·")
    assert out.index("WARNING") < out.index("INFO ")


def test_terminal_view_has_colour_on_a_tty(run):
    """The same command on a pseudo-terminal is coloured: colour follows the TTY."""
    master, slave = pty.openpty()
    env = cli_env(TERM="xterm-256color")
    env.pop("NO_COLOR", None)
    proc = subprocess.Popen([sys.executable, "-m", "ncclDoctor", "report", str(run.dir)], stdout=slave, stderr=slave,
                            env=env, cwd=ROOT)
    os.close(slave)
    chunks = []
    try:
        while True:
            ready, _, _ = select.select([master], [], [], 60)
            if not ready:
                break
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not data:
                break
            chunks.append(data)
    finally:
        proc.wait(timeout=60)
        os.close(master)
    assert proc.returncode == 0
    assert ANSI.search(b"".join(chunks).decode(errors="replace"))


def test_json_to_stdout_is_the_report(run, tmp_path):
    p = run_cli("report", str(run.dir), "--format", "json", "-o", str(tmp_path / "copy.json"))
    assert p.returncode == 0 and p.stdout == ""
    assert json.loads((tmp_path / "copy.json").read_text()) == run.report


@pytest.mark.parametrize("real, args, needle", [
    (True, ["--format", "pdf"], "unknown --format 'pdf'"),  # a real subprocess, as a user runs it
    (False, ["--format", "json"], "no report.json"),  # the same main in-process (~0.6 CPU-s less)
])
def test_report_usage_errors_exit_2(tmp_path, real, args, needle):
    p = (run_cli if real else run_cli_here)("report", str(tmp_path), *args)
    assert p.returncode == 2
    assert needle in p.stderr and "Traceback" not in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1


def test_report_from_a_future_major_schema_is_refused(run, tmp_path):
    data = run.report
    data["schema_version"] = "2.0"
    (tmp_path / "report.json").write_text(json.dumps(data))
    p = run_cli("report", str(tmp_path))
    assert p.returncode == 2 and "schema_version '2.0'" in p.stderr and "Traceback" not in p.stderr


@pytest.mark.parametrize("fmt", ["terminal", "markdown", "html"])
def test_report_with_a_malformed_table_is_bad_input_not_a_crash(run, tmp_path, fmt):
    data = json.loads(json.dumps(run.report))
    del data["results"]["all_reduce"]["rows"][0]["busbw_gbps"]  # hand-edited, or another tool's file
    (tmp_path / "report.json").write_text(json.dumps(data))
    out = tmp_path / "out.txt"
    p = run_cli("report", str(tmp_path), "--format", fmt, "-o", str(out))
    assert p.returncode == 2, p.stderr
    assert ("does not follow the report schema" in p.stderr and "'busbw_gbps'" in p.stderr
            and "Traceback" not in p.stderr)
    assert len(p.stderr.strip().splitlines()) == 1 and not out.exists()
