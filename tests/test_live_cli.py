"""``ncclDoctor run`` / ``attach`` on bad input: one line on stderr, exit 2, no traceback, and
the job is never started (quick tier: no torchrun runs here)."""

from __future__ import annotations

import os
import sys

from tests.conftest import ROOT, run_cli

JOB = str(ROOT / "tests" / "fixtures" / "userjobs" / "ddp_loop.py")


def test_bad_input_is_one_line_and_exit_2(tmp_path):
    cases = [
        ("run", "--out", str(tmp_path / "a"), JOB),  # no `--`
        ("run", "--out", str(tmp_path / "b"), "--", sys.executable, JOB),  # not torchrun
        ("run", "--out", str(tmp_path / "c"), "--"),  # nothing after `--`
        ("run", "--on-hang", "explode", "--", "torchrun", JOB),  # (the quick tier forbids a real torchrun line)
        ("run", "--report-to", "nohostport", "--", "torchrun", JOB),
        ("attach", str(os.getpid())),  # pytest itself: not a torchrun job
        ("attach", "999999999"),
    ]
    for args in cases:
        p = run_cli(*args, timeout=60)
        assert p.returncode == 2, (args, p.stderr)
        assert "Traceback" not in p.stderr and p.stderr.strip().count("\n") == 0, p.stderr
        assert p.stderr.startswith("ncclDoctor: error:")
    assert not (tmp_path / "b").exists()  # the job was never started
