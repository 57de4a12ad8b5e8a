"""The in-process CLI runner the quick tier uses (tests/conftest.py ``run_cli_here``): it gives
what a subprocess gives (exit code, stdout, stderr, the environment and working directory it
was handed) and leaves the test process as it found it."""

from __future__ import annotations

import json
import os
import signal
import sys

import pytest

from tests.conftest import CliTimeout, cli_env, run_cli_here


def test_output_exit_code_environment_and_cwd_are_the_runs_and_are_restored(tmp_path):
    before = (dict(os.environ), list(sys.argv), os.getcwd(), signal.getsignal(signal.SIGTERM))
    p = run_cli_here("env", "--json", "--no-config", env=cli_env(NCCL_TIMEOUT="5", HOME="/nonexistent-home"),
                     cwd=str(tmp_path))
    rep = json.loads(p.stdout)
    assert p.returncode == rep["exit_code"] and rep["argv"] == ["env", "--json", "--no-config"]
    assert any(f["code"] == "ENV001" and "NCCL_TIMEOUT" in f["message"] for f in rep["findings"])
    assert "NCCL_TIMEOUT" not in os.environ
    assert (dict(os.environ), list(sys.argv), os.getcwd(), signal.getsignal(signal.SIGTERM)) == before
    bad = run_cli_here("env", "--fail-on", "loud")
    assert bad.returncode == 2 and bad.stdout == "" and bad.stderr.startswith("ncclDoctor: error: unknown --fail-on")


def test_a_run_past_its_timeout_is_stopped(monkeypatch):
    import ncclDoctor.findings

    monkeypatch.setattr(ncclDoctor.findings, "explain", lambda code: signal.pause())  # a command that hangs
    with pytest.raises(CliTimeout, match="still running after 0.5 s"):
        run_cli_here("explain", "ENV001", timeout=0.5)
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
