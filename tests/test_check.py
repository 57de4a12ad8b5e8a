"""`ncclDoctor check` end to end: real torchrun, real gloo ranks, real report."""

from __future__ import annotations

import json

import pytest

from ncclDoctor.report.model import Report
from tests._tables import compare_rows, markdown_rows, parse_avg_line, terminal_rows
from tests.conftest import cli_env, run_cli, run_cli_here


@pytest.fixture(scope="module")
def two_rank_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("check") / "run"
    proc = run_cli("check", "--out", str(out), "-e", "1M", "--json", timeout=240)
    return proc, out


def test_subprocess_check_passes_with_two_gloo_ranks(two_rank_run):
    proc, out = two_rank_run
    assert proc.returncode == 0, proc.stderr
    rep = json.loads(proc.stdout)
    assert rep["exit_code"] == 0
    # A healthy run passes; on a loaded shared machine a rank may really arrive late
    # (BW001), which is a true finding, not a failure of the check.
    assert rep["verdict"] == "pass" or {f["code"] for f in rep["findings"]} <= {"BW001"}, rep["findings"]
    assert rep["schema_version"] == "1.2" and rep["command"] == "check"
    assert [r["rank"] for r in rep["ranks"]] == [0, 1]
    assert len({r["pid"] for r in rep["ranks"]}) == 2
    assert all(r["phase"] == "done" and r["state"] == "leave" for r in rep["ranks"])
    assert len(rep["nodes"]) == 1 and rep["nodes"][0]["addr"]
    assert rep["results"]["smoke"]["wrong"] == 0


def test_bandwidth_numbers_are_consistent_with_size_and_time(two_rank_run):
    _, out = two_rank_run
    rep = Report.load(out)
    ar = rep.results["all_reduce"]
    sizes = [r["size"] for r in ar["rows"]]
    assert sizes == [1024, 4096, 16384, 65536, 262144, 1048576]
    for r in ar["rows"]:
        assert r["wrong"] == 0
        assert r["count"] * 4 == r["size"]
        assert r["algbw_gbps"] == pytest.approx(r["size"] / 1e9 / (r["time_us"] * 1e-6), rel=1e-9)
        n = ar["world_size"]  # 2 here (factor 1); n = 3 is checked in test_faults' corrupt run
        assert n == 2 and r["busbw_gbps"] == pytest.approx(r["algbw_gbps"] * 2 * (n - 1) / n)
        assert r["time_us_min"] <= r["time_us"] <= r["time_us_max"]
        assert set(r["per_rank_time_us"]) == {"0", "1"}
        assert r["time_us"] > 0


def test_run_directory_holds_raw_records_and_renderings(two_rank_run):
    _, out = two_rank_run
    for name in ("report.json", "report.md", "torchrun.log", "probe-config.json", "ranks/rank0.json",
                 "ranks/rank1.json"):
        assert (out / name).is_file(), name
    raw = json.loads((out / "ranks" / "rank1.json").read_text())
    assert raw["inventory"]["rank"] == 1 and len(raw["all_reduce"]["rows"]) == 6
    md = (out / "report.md").read_text()
    assert "# ncclDoctor check: PASS" in md
    compare_rows(markdown_rows(md), Report.load(out).results["all_reduce"]["rows"], "report.md")
    for rank in (0, 1):  # torchrun's per-rank logs: logs/<run id>/attempt_0/<local rank>/
        for stream in ("stdout.log", "stderr.log"):
            found = list(out.glob(f"logs/*/attempt_0/{rank}/{stream}"))
            assert len(found) == 1, (rank, stream, list(out.rglob("*.log")))


def test_in_process_cli_flags_nonexistent_settings_and_fails_on_warning(tmp_path):
    # run_cli_here, not main(): check installs a SIGTERM handler, which must not outlive the run
    p = run_cli_here("check", "--out", str(tmp_path / "r"), "-b", "4K", "-e", "4K", "--iters", "2", "--fail-on",
                     "warning", env=cli_env(NCCL_TIMEOUT="1800", NCCL_ASYNC_ERROR_HANDLING="1"), timeout=240)
    code, out = p.returncode, p.stdout
    assert code == 1, p.stderr
    assert "ENV001" in out and "NCCL_TIMEOUT" in out and "ENV002" in out
    rep = Report.load(tmp_path / "r")
    cells, summary = terminal_rows(out)  # the table the user read is the report's
    compare_rows(cells, rep.results["all_reduce"]["rows"], "in-process check stdout")
    avg, peak = parse_avg_line(summary["avg"])
    ar = rep.results["all_reduce"]
    assert (avg, peak) == pytest.approx((ar["avg_busbw_gbps"], ar["peak_busbw_gbps"]), abs=5e-5)
    assert rep.verdict == "warn" and rep.exit_code == 1
    assert {"NCCL_TIMEOUT", "NCCL_ASYNC_ERROR_HANDLING"} <= {s["name"] for s in rep.settings}
    inv_env = json.loads((tmp_path / "r" / "ranks" / "rank0.json").read_text())["inventory"]["env"]
    assert inv_env["NCCL_TIMEOUT"] == "1800"  # what the rank itself saw


def test_nccl_on_a_cpu_machine_cannot_run(tmp_path):
    # No visible GPU, on any host (a GPU runner too): the claim is about a machine without one.
    proc = run_cli("check", "--backend", "nccl", "--nproc-per-node", "2", "--out", str(tmp_path / "r"),
                   "--timeout", "60", env=cli_env(CUDA_VISIBLE_DEVICES=""), timeout=180)
    assert proc.returncode == 3, proc.stdout + proc.stderr
    rep = Report.load(tmp_path / "r")
    assert rep.verdict == "error"
    codes = {f.code for f in rep.findings}
    assert {"SYS004", "RUN002"} <= codes
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize(
    "args,needle",
    [
        (["check", "--backend", "mpi"], "unknown --backend"),
        (["check", "--min-bytes", "lots"], "bad size"),
        (["check", "--nproc-per-node", "0"], "--nproc-per-node"),
        (["check", "-b", "1M", "-e", "1K"], "smaller than"),
        (["check", "--inject", "explode:0"], "bad --inject"),
        (["check", "--inject", "hang:7"], "does not exist"),
        (["report", "/nonexistent/run"], "no report.json"),
        (["frobnicate"], "No such command"),
    ],
)
def test_usage_errors_exit_2_with_one_line(args, needle, tmp_path):
    _assert_one_line_usage_error(run_cli_here(*args, timeout=60, cwd=str(tmp_path)), needle)


def test_a_usage_error_found_after_the_preflight_is_one_line_in_a_real_process(tmp_path):
    """As a user runs it: torch is imported by then, and nothing it prints may join the line."""
    _assert_one_line_usage_error(run_cli("check", "--backend", "mpi", timeout=60, cwd=str(tmp_path)),
                                 "unknown --backend")


def _assert_one_line_usage_error(proc, needle: str) -> None:
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert needle in proc.stderr
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def test_check_reports_rdma_port_health_from_sysfs(tmp_path):
    """Host health runs inside check too (recorded sysfs tree; no InfiniBand here)."""
    from pathlib import Path

    fix = Path(__file__).parent / "fixtures" / "sysfs" / "port_down"
    proc = run_cli("check", "--out", str(tmp_path / "r"), "-b", "4K", "-e", "4K", "-n", "2",
                   env=cli_env(NCCLDOCTOR_SYSFS_ROOT=str(fix)), timeout=180)
    rep = Report.load(tmp_path / "r")
    assert "NET003" in {f.code for f in rep.findings}, [(f.code, f.message) for f in rep.findings]
    assert "hcas" in rep.host["ib"]
    net3 = [f for f in rep.findings if f.code == "NET003"]
    assert net3[0].severity.value == "error" and "mlx5_1 port 1" in net3[0].message, net3[0].message
    assert proc.returncode == 1, proc.stdout + proc.stderr  # an error under the default --fail-on error
