"""A real gloo job under torchrun (no fakes) where rank 1 never reaches a collective: rank 0 times out,
the agent SIGTERMs rank 1. diagnose must not call rank 0 (the one that timed out) the culprit and must
name rank 1, which never reported a timeout, as the low-confidence lead. The job is
tests/fixtures/userjobs/ddp_loop.py with rank 1 hanging at step 10 and a 5 s process-group timeout;
its combined output is what a user pastes."""

from __future__ import annotations

import subprocess
import sys

import pytest

from ncclDoctor.diagnose import diagnose
from tests.conftest import ROOT, cli_env

JOB = ROOT / "tests" / "fixtures" / "userjobs" / "ddp_loop.py"


@pytest.mark.slow
def test_a_rank_that_never_reached_the_collective_is_the_lead_and_the_one_that_timed_out_a_victim(tmp_path):
    argv = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node", "2",
            "--max-restarts", "0", str(JOB), "--fault", "hang", "--fault-rank", "1", "--pg-timeout-s", "5"]
    p = subprocess.run(argv, capture_output=True, text=True, timeout=180, env=cli_env(), cwd=str(tmp_path))
    log = tmp_path / "run.log"
    log.write_text(p.stdout + p.stderr)
    assert p.returncode != 0 and "Timed out waiting" in log.read_text(), log.read_text()[-3000:]
    report = diagnose([str(log)])
    d = report.results["diagnose"]
    v = d["verdict"]
    assert (v["cause"], v["culprits"], v["confidence"]) == ("rank_missing", [1], "low"), v
    assert "world of 2" in v["summary"] and "rank 0 timed out" in v["summary"], v["summary"]
    assert "every rank the input shows" not in v["summary"]  # rank 1 is shown, and it did not time out
    accused = {r for k in d["conclusions"] if k["kind"] in ("culprit", "desync", "first_failure")
               and k["confidence"] in ("medium", "high") for r in k["ranks"]}
    assert 0 not in accused and not (v["confidence"] != "low" and 0 in v["culprits"])
