"""Flight Recorder dumps from real gloo jobs under torchrun (no fakes): a rank that never
issues a collective, and a rank that issues a different one. The job is
tests/fixtures/fr/make_dumps.py; its per-rank logs come from torchrun --log-dir."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ncclDoctor.diagnose import diagnose
from tests.conftest import ROOT, cli_env

SCRIPT = ROOT / "tests" / "fixtures" / "fr" / "make_dumps.py"


def _run_job(tmp: Path, scenario: str) -> Path:
    out = tmp / scenario
    argv = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node", "3",
            "--max-restarts", "0", "--log-dir", str(out / "logs"), "--redirects", "3",
            str(SCRIPT), "--scenario", scenario, "--out", str(out), "--timeout", "5"]
    p = subprocess.run(argv, capture_output=True, text=True, timeout=240, env=cli_env(), cwd=str(tmp))
    (out / "logs").mkdir(parents=True, exist_ok=True)
    (out / "logs" / "torchrun.log").write_text(p.stdout + p.stderr)
    dumps = sorted((out / "pickle").glob("comm_lib_trace_rank_*"))
    assert len(dumps) == 3, f"torchrun rc={p.returncode}; dumps {dumps}\n{p.stderr[-3000:]}"
    return out


@pytest.mark.slow
def test_live_gloo_hang_culprit_from_dumps_and_logs(tmp_path):
    out = _run_job(tmp_path, "hang")
    report = diagnose([str(out)])
    by = {f.code: f for f in report.findings}
    assert by["LOG001"].ranks == [2] and "confidence: high" in by["LOG001"].evidence
    assert "never enqueued collective #4" in by["LOG001"].message
    assert "LOG003" not in by  # torchrun's first observed failure is a victim that timed out
    assert set(by["LOG005"].ranks) <= {0, 1} and by["LOG005"].ranks  # the victims' gloo timeouts
    rows = {r["rank"]: r["role"] for r in report.results["diagnose"]["ranks"]}
    assert rows[2] == "culprit (high)"


@pytest.mark.slow
def test_live_gloo_mismatch_names_the_minority(tmp_path):
    out = _run_job(tmp_path, "mismatch")
    report = diagnose([str(out / "json")])
    by = {f.code: f for f in report.findings}
    assert by["LOG002"].ranks == [1] and "broadcast" in by["LOG002"].message
    assert "LOG001" not in by
