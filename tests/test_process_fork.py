"""torchrun forked from a process that has imported torch (ncclDoctor.launch.process):
what it prints reaches the log, its exit status is torchrun's, it is stopped and reaped
like any child, and NCCLDOCTOR_TORCHRUN_FORK=0 gives a plain subprocess."""

from __future__ import annotations

import subprocess
import sys
import time

import torch.distributed  # noqa: F401  (the condition for the fork: torch already imported here)

from ncclDoctor.launch import process


def _torchrun(*args: str) -> list[str]:
    return [sys.executable, "-m", "torch.distributed.run", *args]


def test_forked_torchrun_logs_and_exits_with_torchruns_status(tmp_path):
    log = tmp_path / "torchrun.log"
    p = process.start_logged(_torchrun("--help"), process.child_env({}), log)
    assert isinstance(p, process.ForkedTorchrun)
    assert p.wait(timeout=120) == 0 and "usage:" in log.read_text()
    bad = process.start_logged(_torchrun("--no-such-option"), process.child_env({}), tmp_path / "bad.log")
    assert bad.wait(timeout=120) == 2 and "error:" in (tmp_path / "bad.log").read_text()


def test_forked_torchrun_and_its_ranks_are_stopped_and_reaped(tmp_path):
    script = tmp_path / "sleeper.py"
    script.write_text("import time\ntime.sleep(600)\n")
    p = process.start_logged(_torchrun("--standalone", "--nproc-per-node=2", str(script)), process.child_env({}),
                             tmp_path / "t.log")
    deadline = time.monotonic() + 120
    while len(process.descendants(p.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    kids = process.descendants(p.pid)
    assert len(kids) >= 2, (tmp_path / "t.log").read_text()
    process.stop_tree(p)
    assert p.poll() is not None and not any(k.is_running() and k.status() != "zombie" for k in kids)


def test_fork_off_gives_a_plain_popen(tmp_path):
    p = process.start_logged(_torchrun("--help"), process.child_env({"NCCLDOCTOR_TORCHRUN_FORK": "0"}),
                             tmp_path / "x.log")
    assert isinstance(p, subprocess.Popen) and p.wait(timeout=120) == 0
