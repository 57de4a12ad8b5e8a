"""CI preflight with real check runs: every exit code, baseline regressions, JUnit XML,
--json on stdout, select/ignore and --min-busbw.

Real runs are small (2 ranks, <= 256 KiB). Regressions are made real, not written into
JSON: the probe's own fault injection slows every collective by 30 ms, an order of
magnitude above this machine's per-op time, so the drop is far beyond any noise here.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from ncclDoctor import ci
from ncclDoctor.analysis import baseline as bl
from ncclDoctor.findings import Severity
from ncclDoctor.report.junit import render_junit
from ncclDoctor.report.model import Report
from tests._reportrun import LINT_ENV, SMALL, crash_check, real_check, schema_errors
from tests.conftest import cli_env, run_cli, run_cli_here


@pytest.fixture(scope="session")
def run(tmp_path_factory):
    return real_check(tmp_path_factory.getbasetemp() / "reportrun")


def _junit(path: Path) -> ET.Element:
    root = ET.parse(path).getroot()  # parses, or the test fails
    assert root.tag == "testsuites"
    suite = root.find("testsuite")
    cases = suite.findall("testcase")
    assert int(suite.get("tests")) == len(cases)
    assert int(suite.get("failures")) == sum(1 for c in cases if c.find("failure") is not None)
    assert int(suite.get("errors")) == sum(1 for c in cases if c.find("error") is not None)
    return suite


# ------------------------------------------------------------------ exit codes


def test_exit_0_healthy_and_junit_lists_every_finding(run):
    assert run.returncode == 0, run.stderr
    suite = _junit(run.junit)
    names = [c.get("name") for c in suite.findall("testcase")]
    assert names[0] == "run" and len(names) == 1 + len(run.report["findings"])
    assert suite.get("failures") == "0" and suite.get("errors") == "0"  # warnings < --fail-on error
    assert all(c.find("system-out") is not None for c in suite.findall("testcase")[1:])


def test_exit_1_baseline_regression_named_per_size(run, tmp_path):
    junit = tmp_path / "ci.xml"
    p = run_cli("check", "--no-config", "--out", str(tmp_path / "run"), *SMALL, "--baseline", str(run.baseline),
                "--max-regression", "50", "--inject", "slow:1:30ms", "--junit", str(junit), "--json", timeout=240)
    assert p.returncode == 1, p.stderr
    rep = json.loads(p.stdout)  # --json: stdout is exactly the report
    assert schema_errors(rep) == []
    reg = [f for f in rep["findings"] if f["code"] == "BW102"]
    assert len(reg) == 1 and reg[0]["severity"] == "error"
    rows = rep["results"]["baseline"]["rows"]
    sizes = sorted(run.report["results"]["all_reduce"]["rows"], key=lambda r: r["size"])
    assert [r["size"] for r in rows] == [r["size"] for r in sizes]
    assert all(r["regressed"] and r["change_pct"] < -50 for r in rows), rows
    worst = min(r["change_pct"] for r in rows)
    assert f"worst {worst:+.1f}%" in reg[0]["message"]
    suite = _junit(junit)
    failed = [c for c in suite.findall("testcase") if c.find("failure") is not None]
    assert [c.get("name").split()[0] for c in failed] == ["BW102"]
    assert "vs" in failed[0].find("failure").get("message")


def test_exit_1_from_config_file_fail_on_and_ignore(tmp_path):
    """Settings from ncclDoctor.toml in the working directory, relative paths from it."""
    (tmp_path / "ncclDoctor.toml").write_text('fail-on = "warning"\nignore = ["ENV004"]\njunit = '
                                              '"out/ci.xml"\nmax-bytes = "16K"\niters = 2\n')
    p = run_cli("check", "--out", str(tmp_path / "run"), env=cli_env(**LINT_ENV), cwd=str(tmp_path), timeout=240)
    assert p.returncode == 1, p.stderr
    rep = json.loads((tmp_path / "run" / "report.json").read_text())
    codes = {f["code"] for f in rep["findings"]}
    assert "ENV004" not in codes and rep["config"]["gates"]["suppressed"] == {"ENV004": 1}
    assert any(f["severity"] == "warning" for f in rep["findings"])
    assert (rep["config"]["sizes"][-1] == 16384
            and rep["config"]["gates"]["config_file"] == str(tmp_path / "ncclDoctor.toml"))
    suite = _junit(tmp_path / "out" / "ci.xml")
    assert int(suite.get("failures")) >= 1


@pytest.mark.parametrize("args, needle", [
    (["--fail-on", "fatal"], "unknown --fail-on 'fatal'"),
    (["--min-busbw", "-1"], "--min-busbw must be >= 0"),
    (["--max-regression", "150", "--baseline", "."], "--max-regression must be a percentage"),
    (["--baseline", "/nonexistent/base.json"], "no such file"),
    (["--select", "EN-V"], "bad code or prefix 'EN-V'"),
    (["--no-such-option"], "No such option"),
])
def test_exit_2_usage_errors_are_one_line_and_launch_nothing(tmp_path, args, needle):
    _assert_usage_error(run_cli_here("check", "--no-config", "--out", str(tmp_path / "run"), *args, timeout=60),
                        needle, tmp_path)


def test_exit_2_in_a_real_process(tmp_path):
    """As CI runs it: the exit status of a real process, one line on its stderr."""
    _assert_usage_error(run_cli("check", "--no-config", "--out", str(tmp_path / "run"), "--min-busbw", "-1",
                                timeout=60), "--min-busbw must be >= 0", tmp_path)


def _assert_usage_error(p, needle: str, tmp_path) -> None:
    assert p.returncode == 2, (p.stdout, p.stderr)
    assert needle in p.stderr and "Traceback" not in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1, p.stderr
    assert not (tmp_path / "run" / "launch.json").exists()


def test_exit_2_bad_config_names_file_and_key(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.ncclDoctor]\nfail-on = "warning"\nmin_busbw = "fast"\n')
    p = run_cli_here("check", "--out", str(tmp_path / "run"), cwd=str(tmp_path), timeout=60)
    assert p.returncode == 2 and "pyproject.toml: min-busbw must be a number, got 'fast'" in p.stderr
    (tmp_path / "ncclDoctor.toml").write_text("fail_on = 'error'\nfial-on = 'warning'\n")
    p = run_cli_here("check", "--out", str(tmp_path / "run"), cwd=str(tmp_path), timeout=60)
    assert p.returncode == 2 and "ncclDoctor.toml: unknown key 'fial-on'" in p.stderr


def test_exit_3_could_not_run_is_a_junit_error(tmp_path):
    junit = tmp_path / "ci.xml"
    p = run_cli("check", "--no-config", "--out", str(tmp_path / "run"), "-e", "4K", "--inject", "exit:1:init",
                "--junit", str(junit), timeout=240)
    assert p.returncode == 3, p.stderr
    assert schema_errors(json.loads((tmp_path / "run" / "report.json").read_text())) == []
    run_case = _junit(junit).find("testcase")
    assert run_case.get("name") == "run" and run_case.find("error").get("type") == "could not run"


def test_exit_4_fault_localized_with_min_busbw_skipped(tmp_path_factory):
    # the job test_faults' crash test reads too (tests/_reportrun.crash_check): started once per session
    p, _, junit, _ = crash_check(tmp_path_factory.getbasetemp() / "crashrun")
    assert p.returncode == 4, p.stderr
    rep = json.loads(p.stdout)
    assert schema_errors(rep) == []
    codes = [f["code"] for f in rep["findings"]]
    assert "RUN004" in codes and "BW104" in codes  # the gate says it could not be applied
    assert _junit(junit).find("testcase").find("error").get("type") == "fault localized"


# exit 130 (Ctrl-C): tests/test_faults.py::test_ctrl_c_writes_partial_report_and_stops_everything,
# which also checks the JUnit file's "interrupted" error and the schema.


# ------------------------------------------------------------------ gates (pure, on the real report)


def test_min_busbw_floor(run):
    rep = Report.load(run.dir)
    peak = rep.results["all_reduce"]["peak_busbw_gbps"]
    ci.judge(rep, ci.Gates(min_busbw_gbps=peak * 0.5))
    assert not [f for f in rep.findings if f.code == "BW101"]
    rep = Report.load(run.dir)
    ci.judge(rep, ci.Gates(min_busbw_gbps=peak * 4))
    (f,) = [f for f in rep.findings if f.code == "BW101"]
    assert f.severity.value == "error" and "25% of the required" in f.message


def test_select_and_ignore_by_prefix_and_code(run):
    """What --select keeps is asserted, not only what it drops: a select that dropped
    everything would leave [] here."""
    codes = sorted(f["code"] for f in run.report["findings"])
    assert {"ENV004", "ENV005"} <= set(codes), codes  # LINT_ENV's warning and info
    others = {c: codes.count(c) for c in codes if not c.startswith("ENV")}
    rep = Report.load(run.dir)
    ci.judge(rep, ci.Gates(select=["ENV"], ignore=["ENV005"]))
    assert [f.code for f in rep.findings] == ["ENV004"]
    assert rep.config["gates"]["suppressed"] == {"ENV005": 1, **others}
    rep.conclude()
    assert rep.verdict == "pass" and rep.exit_code == 0  # only the info finding is left
    rep = Report.load(run.dir)
    ci.judge(rep, ci.Gates(select=["env005"]))  # an exact code, any case
    assert [f.code for f in rep.findings] == ["ENV005"]
    rep.conclude(Severity.WARNING)
    assert rep.exit_code == 1
    from ncclDoctor.report.markdown import render_markdown

    assert "Not shown (--select/--ignore): ENV004 x1" in render_markdown(rep)


def test_baseline_compare_per_size_and_node():
    base = {("all_reduce", "all"): {1024: 1.0, 4096: 2.0}, ("intra", "n1 (10.0.0.1)"): {4096: 10.0},
            ("intra", "n2 (10.0.0.2)"): {4096: 10.0}}
    now = {("all_reduce", "all"): {1024: 0.95, 4096: 2.1, 16384: 3.0}, ("intra", "n1 (10.0.0.1)"): {4096: 10.2},
           ("intra", "n2 (10.0.0.2)"): {4096: 6.0}}
    rows = {(r["table"], r["node"], r["size"]): r for r in bl.compare(base, now, 10.0)}
    assert (rows[("intra", "n2 (10.0.0.2)", 4096)]["regressed"]
            and rows[("intra", "n2 (10.0.0.2)", 4096)]["change_pct"] == -40.0)
    assert not rows[("all_reduce", "all", 1024)]["regressed"]  # -5% is within 10%
    assert (rows[("all_reduce", "all", 16384)]["change_pct"] is None
            and not rows[("all_reduce", "all", 16384)]["regressed"])
    assert [k for k, r in rows.items() if r["regressed"]] == [("intra", "n2 (10.0.0.2)", 4096)]


def test_baseline_against_itself_passes_and_per_node_regression_names_node(run):
    rep = Report.load(run.dir)
    ci.judge(rep, ci.Gates(baseline=str(run.baseline)).prepare())
    assert not [f for f in rep.findings if f.code.startswith("BW1")]
    assert all(r["change_pct"] == 0 for r in rep.results["baseline"]["rows"])
    # A run directory is a baseline too; a node that got slower is named.
    rep = Report.load(run.dir)
    rows = rep.results["all_reduce"]["rows"]
    rep.results["all_reduce"]["per_node"] = {"nodeB (10.0.0.2)": {"rows": [dict(r,
            busbw_gbps=r["busbw_gbps"] / 2) for r in rows]}}
    doc = bl.baseline_from_report(Report.load(run.dir))
    doc["series"].append({"table": "all_reduce", "node": "nodeB (10.0.0.2)",
                          "busbw_gbps": doc["series"][0]["busbw_gbps"]})
    gates = ci.Gates(baseline="inline")
    gates._baseline_doc = doc
    ci.judge(rep, gates)
    (f,) = [f for f in rep.findings if f.code == "BW102"]
    assert f.nodes == ["nodeB (10.0.0.2)"] and "-50.0%" in f.message


def test_baseline_with_another_backend_is_not_compared(run):
    doc = bl.load_baseline(run.dir)  # a run directory works as a baseline
    doc["backend"] = "nccl"
    rep = Report.load(run.dir)
    gates = ci.Gates(baseline=str(run.dir))
    gates._baseline_doc = doc
    ci.judge(rep, gates)
    assert [f.code for f in rep.findings if f.code.startswith("BW1")] == ["BW103"]


def test_junit_escapes_and_strips_what_xml_cannot_hold(run):
    rep = Report.load(run.dir)
    rep.findings[0].message = 'rank 1 said <&> "\x1b[31mboom\x00" at log:12'
    root = ET.fromstring(render_junit(rep, "info").split("\n", 1)[1])
    failure = root.find("testsuite").findall("testcase")[1].find("failure")
    assert failure.get("message") == 'rank 1 said <&> "?[31mboom?" at log:12'


def test_a_compared_report_is_still_one_busbw_series(run):
    """The comparison table in results["baseline"] is never mistaken for a measurement."""
    rep = Report.load(run.dir)
    ci.judge(rep, ci.Gates(baseline=str(run.baseline)).prepare())
    assert "baseline" in rep.results
    assert list(bl.busbw_series(rep.results)) == [("all_reduce", "all")]
    assert [s["table"] for s in bl.baseline_from_report(rep)["series"]] == ["all_reduce"]


def test_unreadable_baseline_after_a_run_is_a_finding_not_a_lost_report(run, tmp_path):
    (tmp_path / "bad.json").write_text("{not json")
    rep = Report.load(run.dir)
    ci.judge(rep, ci.Gates(baseline=str(tmp_path / "bad.json")))  # not prepared, as a library caller might
    (f,) = [f for f in rep.findings if f.code == "BW103"]
    assert "not readable JSON" in f.message
