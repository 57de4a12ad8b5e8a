"""``ncclDoctor run`` / ``attach`` on bad input: one line on stderr, exit 2, no traceback, and
the job is never started (quick tier: no torchrun runs here). One case of each command runs in a
real subprocess (what a user runs); the others are the same ``main`` in-process (`run_cli_here`)."""

from __future__ import annotations

import os
import sys

from tests.conftest import ROOT, run_cli, run_cli_here

JOB = str(ROOT / "tests" / "fixtures" / "userjobs" / "ddp_loop.py")


def test_bad_input_is_one_line_and_exit_2(tmp_path):
    # (how, args): each command once as a real subprocess, the rest in-process (each real one costs ~0.8 CPU-s)
    cases = [
        (run_cli, ("run", "--out", str(tmp_path / "a"), JOB)),  # no `--`
        (run_cli_here, ("run", "--out", str(tmp_path / "b"), "--", sys.executable, JOB)),  # not torchrun
        (run_cli_here, ("run", "--out", str(tmp_path / "c"), "--")),  # nothing after `--`
        (run_cli_here, ("run", "--on-hang", "explode", "--", "torchrun", JOB)),  # (the quick tier forbids torchrun)
        (run_cli_here, ("run", "--report-to", "nohostport", "--", "torchrun", JOB)),
        (run_cli, ("attach", str(os.getpid()))),  # pytest, the subprocess' parent: not a torchrun job
        (run_cli_here, ("attach", "999999999")),
    ]
    for how, args in cases:
        p = how(*args, timeout=60)
        assert p.returncode == 2, (args, p.stderr)
        assert "Traceback" not in p.stderr and p.stderr.strip().count("\n") == 0, p.stderr
        assert p.stderr.startswith("ncclDoctor: error:")
    assert not (tmp_path / "b").exists()  # the job was never started


def test_job_env_makes_the_flight_recorder_folder_before_launch(tmp_path):
    # On nccl the heartbeat thread mkfifo()s TORCH_NCCL_DEBUG_INFO_PIPE_FILE<rank>.pipe at init and a
    # missing folder aborts every rank (the H200 run of 2026-11-30); gloo never makes the pipe, so
    # only this check catches it here.
    from pathlib import Path

    from ncclDoctor.live.launch import job_env

    run_dir = tmp_path / "run"
    env = job_env({}, run_dir, str(tmp_path / "s"), "127.0.0.1:1", 0.5)
    for key in ("TORCH_NCCL_DEBUG_INFO_PIPE_FILE", "TORCH_FR_DUMP_TEMP_FILE"):
        assert Path(env[key]).parent.is_dir(), key
    mine = tmp_path / "mine"
    env = job_env({"TORCH_NCCL_DEBUG_INFO_PIPE_FILE": str(mine / "p")}, tmp_path / "r2", "s", "a:1", 0.5)
    assert env["TORCH_NCCL_DEBUG_INFO_PIPE_FILE"] == str(mine / "p") and not mine.exists()  # the user's, untouched
