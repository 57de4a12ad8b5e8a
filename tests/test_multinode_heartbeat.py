"""A whole node lost mid-run (check.heartbeat): the liveness logic on a real control store
(an in-process TCPStore; a killed one in a subprocess) with an injected clock, the stall policy,
Job.wait and the verdict. The real two-node kill is in tests/test_multinode_netns.py."""

from __future__ import annotations

import subprocess
import sys
import time
from types import SimpleNamespace

import pytest

from ncclDoctor.check import failfast
from ncclDoctor.check.heartbeat import LOST_S, Heartbeat
from ncclDoctor.launch.store import ControlStore, RemoteControl
from ncclDoctor.launch.supervisor import Outcome, Stall
from tests.test_failfast import LOST, OWN, _ranks


class Clock:
    def __init__(self, t: float = 1000.0):
        self.t = t

    def __call__(self) -> float:
        return self.t


def _pair(ctl):
    """Two nodes' hearts on one store, each with its own clock (no clock is shared across nodes)."""
    a, b = Clock(), Clock(5.0)  # wildly different clocks: only each reader's own is ever compared
    return (Heartbeat(ctl, "10.0.0.1 (a)", True, clock=a), a), (Heartbeat(ctl, "10.0.0.2 (b)", False, clock=b), b)


def test_a_node_that_stops_beating_is_lost_after_the_deadline_and_not_before():
    ctl = ControlStore(host="127.0.0.1")
    (ha, ca), (hb, cb) = _pair(ctl)
    for _ in range(3):  # both beat every poll
        ha.poll([0, 1])
        hb.poll([2, 3])
        ca.t += 1
        cb.t += 1
    ha.poll([0, 1])
    assert ha.lost() == [] and ha.quiet_since(ca.t - 1) == []
    last = ca.t  # b beats no more (killed with its ranks)
    for dt in (1.0, 5.0, LOST_S - 1, LOST_S - 0.01):
        ca.t = last + dt
        ha.poll([0, 1])
        assert ha.lost() == [], f"lost after {dt} s, before the {LOST_S} s deadline"
    assert ha.quiet_since(last), "not seen to beat since: maybe lost"
    ca.t = last + LOST_S
    ha.poll([0, 1])
    [gone] = ha.lost()
    assert gone.record["node"] == "10.0.0.2 (b)" and gone.record["ranks"] == [2, 3] and not gone.done
    assert ha.store_error is None and not ha.store_lost(), "the store answered: a node lost, not the store"


def test_a_node_that_said_done_is_never_lost_and_one_that_beats_again_is_not():
    ctl = ControlStore(host="127.0.0.1")
    (ha, ca), (hb, cb) = _pair(ctl)
    ha.poll([0, 1])
    hb.poll([2, 3])
    ha.poll([0, 1])
    assert hb.finish("ok", [2, 3]) is None  # its ranks done, its ncclDoctor exiting
    ha.poll([0, 1])
    ca.t += 10 * LOST_S
    ha.poll([0, 1])
    assert ha.lost() == [] and ha.quiet_since(ca.t) == []
    assert hb.finish("ok") is None and hb.finished, "once"

    c2 = ControlStore(host="127.0.0.1")
    (h1, c1), (h2, _) = _pair(c2)
    h1.poll([0])
    h2.poll([1])
    h1.poll([0])
    c1.t += LOST_S - 1  # late, but it beats again before the deadline: the clock restarts
    h2.poll([1])
    h1.poll([0])
    c1.t += LOST_S - 1
    h1.poll([0])
    assert h1.lost() == []
    assert h1.quiet_since(c1.t - 1), "not seen to change since then"


def test_a_store_that_stops_answering_is_the_store_lost_after_the_deadline_naming_its_host():
    port_file = subprocess.run([sys.executable, "-c", "import socket; s=socket.socket(); s.bind(('', 0)); "
                                "print(s.getsockname()[1])"], capture_output=True, text=True).stdout.strip()
    port = int(port_file)
    master = subprocess.Popen([sys.executable, "-c", "import sys, time; from torch.distributed import TCPStore; "
                               f"s = TCPStore('127.0.0.1', {port}, is_master=True, wait_for_workers=False); "
                               "print('up', flush=True); time.sleep(120)"], stdout=subprocess.PIPE, text=True)
    try:
        assert master.stdout.readline().strip() == "up"
        host = Heartbeat(RemoteControl("127.0.0.1", port, 30.0), "10.0.0.1 (a)", True)  # the reporting node
        clock = Clock()
        member = Heartbeat(RemoteControl("127.0.0.1", port, 30.0), "10.0.0.2 (b)", False, clock=clock)
        host.poll([0])
        member.poll([1])
        assert member.store_host() == "10.0.0.1 (a)"
        master.kill()  # the reporting node's ncclDoctor, and its store, gone
        master.wait(timeout=10)
        clock.t += 1
        t0 = time.monotonic()
        member.poll([1])
        assert time.monotonic() - t0 < 10, "a failing store call is bounded (RemoteControl's op timeout)"
        assert member.store_error and not member.store_lost(), "one failure is not the deadline"
        clock.t += LOST_S - 1.5
        member.poll([1])
        assert not member.store_lost()
        clock.t += 1.5
        member.poll([1])
        assert member.store_lost()  # judged before any node (check.failfast.judge_heartbeat): the store lost
        assert member.store_host() == "10.0.0.1 (a)"
    finally:
        master.kill()
        master.wait(timeout=10)


def test_the_store_gone_after_its_host_said_done_is_no_fault():
    ctl = ControlStore(host="127.0.0.1")
    (ha, _), (hb, cb) = _pair(ctl)
    ha.poll([0])
    hb.poll([1])
    ha.finish("ok", [0])
    hb.poll([1])
    hb.ctl = SimpleNamespace(store=SimpleNamespace(add=_refused, set=_refused, check=_refused, get=_refused))
    hb.poll([1])
    cb.t += 2 * LOST_S
    hb.poll([1])
    assert hb.store_error and not hb.store_lost(), "the reporting node finished and closed its store"


def _refused(*_, **__):
    raise ConnectionResetError("Connection reset by peer")


def _sup(ranks, own):
    return SimpleNamespace(ranks=ranks, liveness=SimpleNamespace(procs={r: None for r in own}),
                           deadlines={"all_reduce": 60.0}, default_deadline_s=60.0)


def test_the_policy_stops_this_node_for_a_lost_node_and_waits_for_it_over_a_lost_peer():
    """Node b (ranks 2-3) is lost inside all_reduce; rank 0 (this node) lost it as a peer (gloo). The
    lost-peer error is not named after RANK_ERROR_GRACE_S while b is quiet; at LOST_S the policy stops
    this node with NODE_LOST_PHASE: ranks 2-3 the culprits, 0-1 the victims."""
    ctl = ControlStore(host="127.0.0.1")
    (ha, ca), (hb, _) = _pair(ctl)
    ranks = _ranks(r0=("all_reduce", "enter", 99.0, None), r1=("all_reduce", "enter", 99.0, None),
                   r2=("all_reduce", "enter", 99.0, None), r3=("all_reduce", "enter", 99.0, None))
    sup = _sup(ranks, [0, 1])
    policy = failfast.watching(ctl, base=lambda sup, now: None, heart=ha)
    hb.poll([2, 3])
    assert policy(sup, ca.t) is None
    last = ca.t
    ranks[0].state, ranks[0].error = "error", LOST
    for dt in range(1, int(LOST_S)):
        ca.t = last + dt
        assert policy(sup, ca.t) is None, f"named at {dt} s: before the heartbeat's verdict"
    ca.t = last + LOST_S
    stall = policy(sup, ca.t)
    assert stall == Stall(failfast.NODE_LOST_PHASE, LOST_S, last, culprits=(2, 3), victims=(0, 1))
    [found] = ha.found
    assert found["node"] == "10.0.0.2 (b)" and found["ranks"] == [2, 3] and found["silent_s"] >= LOST_S

    # Job.wait: a failed run in all_reduce (exit 4), RUN105 naming b and ranks 2-3; never RUN003
    from ncclDoctor.analysis import verdict
    from ncclDoctor.check import coordinate
    from ncclDoctor.check.launch import Job
    from ncclDoctor.errors import ExitCode

    out = Outcome("hang", -15, 30.0, dict(ranks), {}, phase=stall.phase, deadline_s=stall.limit_s,
                  culprits=[2, 3], victims=[0, 1], detected_after_s=LOST_S + 0.2)
    sup.wait, sup.phase_started = (lambda: out), {}
    job = Job(plan=SimpleNamespace(nnodes=2, max_seconds=None), control=ctl, reporting=True, supervisor=sup,
              heart=ha)
    orig = coordinate.settle
    coordinate.settle = lambda plan, reporting, sup, out: out
    try:
        got = job.wait()
    finally:
        coordinate.settle = orig
    assert (got.status, got.phase, got.deadline_s) == ("failed", "all_reduce", None)
    assert got.evidence["node_lost"] == [found] and got.evidence["phase_deadline_s"] == 60.0
    assert ha.finished, "this node said it is done"
    v = verdict.judge(got, lambda r: f"10.0.0.{r // 2 + 1} (n{r // 2})", {}, {}, [1024], 1, {})
    assert v.code == ExitCode.FAULT and (v.culprits, v.victims) == ([2, 3], [0, 1])
    [f] = v.findings
    assert f.code == "RUN105" and f.ranks == [2, 3] and f.nodes == ["10.0.0.2 (b)"]
    assert "10.0.0.2 (b) stopped answering at" in f.message and "(its ranks 2-3)" in f.message
    assert "Ranks [0, 1] were waiting for it" in f.message and "no rank hung" in f.message
    assert "instead of waiting out the 60 s all_reduce deadline" in f.message


def test_an_own_error_is_named_after_the_grace_even_while_a_node_is_quiet():
    ctl = ControlStore(host="127.0.0.1")
    (ha, ca), (hb, _) = _pair(ctl)
    ranks = _ranks(r0=("all_reduce", "enter", 99.0, None), r2=("all_reduce", "error", 100.0, OWN))
    sup = _sup(ranks, [0])
    policy = failfast.watching(ctl, base=lambda sup, now: None, heart=ha)
    hb.poll([2])
    assert policy(sup, ca.t) is None
    ca.t += failfast.RANK_ERROR_GRACE_S
    stall = policy(sup, ca.t)
    assert stall is not None and stall.phase == failfast.RANK_FAILED_PHASE and stall.culprits == (2,)


def test_the_store_lost_verdict_names_the_store_host_and_says_what_the_error_tells():
    from ncclDoctor.analysis import verdict
    from ncclDoctor.errors import ExitCode

    ranks = _ranks(r0=("all_reduce", "enter", 99.0, None), r1=("all_reduce", "enter", 99.0, None))
    out = Outcome("failed", -15, 20.0, ranks, {}, phase="all_reduce", culprits=[0], victims=[1])
    out.evidence = {"store_lost": [{"store": True, "node": "10.0.0.1 (a)", "error": "DistNetworkError: Connection "
                                    "reset by peer", "silent_s": 12.3, "lost_after_s": LOST_S}],
                    "stopped_after_node_lost_s": 12.3, "phase_deadline_s": 60.0}
    v = verdict.judge(out, lambda r: f"n{r}", {}, {}, [1024], 1, {})
    [f] = v.findings
    assert v.code == ExitCode.FAULT and f.code == "RUN105" and f.nodes == ["10.0.0.1 (a)"]
    assert "the control store on 10.0.0.1 (a) (the reporting node) has not answered this node" in f.message
    assert "ncclDoctor there is gone" in f.message and "not the host nor the network" in f.message


@pytest.mark.parametrize("error,said", [("timed out after 5000ms", "cannot tell a lost host from a cut link"),
                                        (None, "or this node is cut off from it -- one node alone cannot tell")])
def test_the_store_lost_says_no_answer_as_down_or_cut(error, said):
    from ncclDoctor.analysis.verdict import _store_said

    assert said in _store_said(error)


class Ticking(Clock):
    """A clock that moves on at every reading, as a real one does between two calls."""

    def __call__(self) -> float:
        self.t += 0.001
        return self.t


def test_a_last_beat_read_only_after_the_lost_peer_is_no_sign_of_life(monkeypatch):
    """Node b beat once more just before it was killed whole, and this node read that beat only after
    its own ranks had lost their peers (its poll came a second later; under load, the CI run's
    failure). That beat was published before the loss: b is still lost at LOST_S, by the policy and by
    await_heartbeat -- never 'alive', so the rank that noticed the lost peer first is not named. A node
    that beats again after that read is alive, and nothing is waited for."""
    ctl = ControlStore(host="127.0.0.1")
    ca = Ticking()
    ha = Heartbeat(ctl, "10.0.0.1 (a)", True, clock=ca)
    hb = Heartbeat(ctl, "10.0.0.2 (b)", False, clock=Clock(5.0))
    monkeypatch.setattr(failfast.time, "sleep", lambda s: setattr(ca, "t", ca.t + s))
    ha.poll([0, 1])
    hb.poll([2, 3])
    ha.poll([0, 1])
    ca.t += 0.5
    hb.poll([2, 3])  # b's last beat; a reads it only after its ranks lost their peers
    ca.t += 0.1
    lost_at = ca()
    ranks = _ranks(r0=("all_reduce", "error", 99.0, LOST), r1=("all_reduce", "error", 99.0, LOST),
                   r2=("all_reduce", "enter", 98.0, None), r3=("all_reduce", "enter", 98.0, None))
    sup = _sup(ranks, [0, 1])
    ha.poll([0, 1])  # the first read after the loss sees b's last beat as a change
    assert [s.record["node"] for s in ha.quiet_since(lost_at)] == ["10.0.0.2 (b)"], "a beat from before the loss"
    out = Outcome("failed", 1, 30.0, dict(ranks), {})
    stall = failfast.await_heartbeat(ha, sup, out)
    assert stall is not None and stall.phase == failfast.NODE_LOST_PHASE, stall
    assert (stall.culprits, stall.victims) == ((2, 3), (0, 1))

    # the policy: the lost peers are not named after the grace while b's last beat is the one read late
    ctl2 = ControlStore(host="127.0.0.1")
    c2 = Ticking()
    h1, h2 = Heartbeat(ctl2, "10.0.0.1 (a)", True, clock=c2), Heartbeat(ctl2, "10.0.0.2 (b)", False, clock=Clock())
    policy = failfast.watching(ctl2, base=lambda sup, now: None, heart=h1)
    ranks2 = _ranks(r0=("all_reduce", "enter", 99.0, None), r1=("all_reduce", "enter", 99.0, None),
                    r2=("all_reduce", "enter", 99.0, None), r3=("all_reduce", "enter", 99.0, None))
    sup2 = _sup(ranks2, [0, 1])
    h2.poll([2, 3])
    assert policy(sup2, c2()) is None
    c2.t += 0.5
    h2.poll([2, 3])  # b's last beat, before a's next poll
    c2.t += 0.1
    ranks2[0].state, ranks2[0].error = "error", LOST
    assert policy(sup2, c2()) is None  # the error seen; no poll due yet
    stall, waited = None, 0
    while stall is None and waited < LOST_S + 3:  # b's silence is timed from the read that saw its last beat
        c2.t += 1.0
        waited += 1
        stall = policy(sup2, c2())
    assert stall is not None and stall.phase == failfast.NODE_LOST_PHASE, f"after {waited} s: {stall}"
    assert stall.culprits == (2, 3) and waited >= LOST_S - 1, (stall, waited)

    # a node that beats again after this reader's first read past the loss is alive: nothing waited for
    ctl3 = ControlStore(host="127.0.0.1")
    c3 = Ticking()
    h3, h4 = Heartbeat(ctl3, "10.0.0.1 (a)", True, clock=c3), Heartbeat(ctl3, "10.0.0.2 (b)", False, clock=Clock())
    h3.poll([0, 1])
    h4.poll([2, 3])
    ranks3 = _ranks(r0=("all_reduce", "error", 99.0, LOST), r2=("all_reduce", "enter", 98.0, None))
    beats = iter(range(100))

    def sleep(s):
        c3.t += s
        next(beats)
        h4.poll([2, 3])  # b alive: it beats every poll

    monkeypatch.setattr(failfast.time, "sleep", sleep)
    t0 = c3.t
    assert failfast.await_heartbeat(h3, _sup(ranks3, [0, 1]), Outcome("failed", 1, 30.0, dict(ranks3), {})) is None
    assert c3.t - t0 < 3 * failfast.POLL_S, "b was seen alive within two polls"
