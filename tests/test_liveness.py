"""launch.liveness: the supervisor posts an ``error`` for a rank of its node whose process is gone
without a word -- never for one that finished or failed with its own error, never for one still
alive or one torchrun stopped, and once. Real processes (``sleep``), a dict for the store."""

from __future__ import annotations

import json
import os
import signal
import subprocess
from types import SimpleNamespace

import pytest

from ncclDoctor.launch import liveness
from ncclDoctor.launch.liveness import Liveness, describe, to_post
from ncclDoctor.launch.store import ControlStore
from ncclDoctor.launch.supervisor import RankState

PHASES = ("init", "all_reduce", "done")


class Store:
    def __init__(self):
        self.data: dict[str, str] = {}

    def append(self, key, value):
        self.data[key] = self.data.get(key, "") + value

    def events(self, rank):
        return [json.loads(line) for line in self.data.get(f"events/{rank}", "").splitlines()]


def _state(rank, phase=None, state=None, left=()):
    st = RankState(rank)
    st.phase, st.state, st.left = phase, state, set(left)
    return st


def _control():
    """The supervisor's real ControlStore (its append_event), over an in-memory store instead of a TCPStore."""
    ctl = ControlStore.__new__(ControlStore)
    ctl.store, ctl._offsets = Store(), {}
    return ctl


def _sup(ranks):
    return SimpleNamespace(ranks=ranks, phases=PHASES, control=_control(), poll_events_safely=lambda: None)


@pytest.fixture
def procs():
    started = []

    def start(n):
        started.extend(subprocess.Popen(["sleep", "60"]) for _ in range(n))
        return started[-n:]

    yield start
    for p in started:
        p.kill()
        p.wait()


def test_the_decision_names_only_a_gone_rank_that_said_nothing_and_was_not_stopped():
    ranks = {0: _state(0, "all_reduce", "enter", {"init"}), 1: _state(1, "all_reduce", "enter", {"init"}),
             2: _state(2, "all_reduce", "error", {"init"}), 3: _state(3, "done", "leave", PHASES),
             4: _state(4, "all_reduce", "enter", {"init"})}
    # 0 alive (not gone); 1 gone without a word; 2 posted its own error; 3 finished; 4 stopped by torchrun
    assert to_post(ranks, "done", gone=[1, 2, 3, 4], stopped=[4], posted=[]) == [1]
    assert to_post(ranks, "done", gone=[1, 2, 3, 4], stopped=[4], posted=[1]) == []  # once
    assert to_post(ranks, "done", gone=[7], stopped=[], posted=[]) == []  # not a rank of the job


def test_a_killed_rank_is_posted_for_once_with_its_signal_and_a_live_or_finished_one_never(procs):
    alive, killed, failed, finished = procs(4)
    ranks = {0: _state(0, "all_reduce", "enter", {"init"}), 1: _state(1, "all_reduce", "enter", {"init"}),
             2: _state(2, "all_reduce", "error", {"init"}), 3: _state(3, "done", "leave", PHASES)}
    sup = _sup(ranks)
    watch = Liveness(lambda: {0: alive.pid, 1: killed.pid, 2: failed.pid, 3: finished.pid}, None)
    assert watch.check(sup, 10.0) == []  # all alive
    for p in (killed, failed, finished):
        p.send_signal(signal.SIGKILL)
    for p in (failed, finished):
        p.wait()
    # wait until rank 1 has died without reaping it (WNOWAIT): a SIGKILL is delivered asynchronously, and on a loaded
    # host the check once ran before the kernel had ended it. Now it is a zombie (nobody reaped it yet): the OS still
    # has its exit status
    os.waitid(os.P_PID, killed.pid, os.WEXITED | os.WNOWAIT)
    assert watch.check(sup, 10.3) == [1]
    [ev] = sup.control.store.events(1)
    assert ev["event"] == "error" and ev["phase"] == "all_reduce" and ev["posted_by"] == "supervisor"
    assert ev["exitcode"] == -9 and ev["pid"] == killed.pid
    assert ev["error"].startswith(f"rank 1's process (pid {killed.pid}) died without an error of its own "
                                  "(killed by SIGKILL: the OOM killer or a scheduler sends it; check dmesg")
    assert watch.check(sup, 11.5) == [] and watch.check(sup, 12.0, final=True) == []  # once
    assert [k for k in sup.control.store.data] == ["events/1"]  # nobody else: alive, own error, finished
    got = watch.evidence()
    assert got["posted"] == {"1": ev["error"]} and got["when"]["1"]["torchrun_running"] is True


def test_a_rank_torchrun_stopped_is_a_victim_and_torchruns_exit_code_is_used(procs, tmp_path):
    first, sibling = procs(2)
    log = tmp_path / "torchrun.log"
    ranks = {0: _state(0, "init", "leave", {"init"}), 1: _state(1, "all_reduce", "enter", {"init"})}
    sup = _sup(ranks)
    watch = Liveness(lambda: {0: first.pid, 1: sibling.pid}, log)
    watch.check(sup, 1.0)
    for p in (first, sibling):
        p.kill()
        p.wait()
    log.write_text(f"W1202 Sending process {sibling.pid} closing signal SIGTERM\n"
                   f"E1202 failed (exitcode: -9) local_rank: 0 (pid: {first.pid}) of binary: python\n")
    assert watch.check(sup, 1.2) == [0]
    [ev] = sup.control.store.events(0)
    # it had left init: the others wait for it in the next phase
    assert ev["phase"] == "all_reduce" and "after it left 'init'" in ev["error"] and "SIGKILL" in ev["error"]
    assert "events/1" not in sup.control.store.data


def test_without_an_exit_code_it_waits_one_poll_then_says_process_gone(procs):
    [p] = procs(1)
    sup = _sup({0: _state(0, "all_reduce", "enter", {"init"})})
    watch = Liveness(lambda: {0: p.pid}, None)
    watch.check(sup, 5.0)
    p.kill()
    p.wait()  # reaped: neither torchrun (no log) nor the OS has its status
    assert watch.check(sup, 5.1) == []
    assert watch.check(sup, 5.1 + liveness.CODE_WAIT_S) == [0]
    [ev] = sup.control.store.events(0)
    assert ev["exitcode"] is None and "process gone" in ev["error"]


def test_at_torchruns_exit_it_posts_at_once(procs):
    [p] = procs(1)
    sup = _sup({0: _state(0, "all_reduce", "enter", {"init"})})
    watch = Liveness(lambda: {0: p.pid}, None)
    watch.check(sup, 5.0)
    p.kill()
    p.wait()
    assert watch.check(sup, 5.1, final=True) == [0]


def test_the_text_says_what_is_known():
    assert describe(1, 42, -15, "inside 'all_reduce'") == (
        "rank 1's process (pid 42) died without an error of its own (killed by SIGTERM), inside 'all_reduce'; "
        "posted by its node's supervisor")
    assert "exited with code 1 without an error event of its own (RuntimeError: boom)" in describe(
        1, 42, 1, "x", "RuntimeError: boom")
    assert liveness.where(RankState(0), PHASES) == ("before its first phase", "init")
