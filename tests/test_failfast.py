"""Issue 15 item 3: what preflight already proved stops the check in seconds with exit 3,
before torchrun starts (single node here; every node in tests/test_multinode_netns.py)."""

from __future__ import annotations

import json
import time

from ncclDoctor.check import failfast
from ncclDoctor.check.options import CheckOptions, plan
from ncclDoctor.findings import Severity
from ncclDoctor.rules.network import lint_env_devices
from tests.conftest import cli_env, run_cli_here

HOST = {"torch": {}, "dev_shm": {"total_bytes": 64 << 20, "free_bytes": 60 << 20}}


def test_missing_interface_exits_3_before_launching_anything(tmp_path):
    t0 = time.monotonic()
    proc = run_cli_here("check", "--out", str(tmp_path / "run"), timeout=120,
                        env=cli_env(GLOO_SOCKET_IFNAME="nosuch0"))
    elapsed = time.monotonic() - t0
    assert proc.returncode == 3, proc.stderr[-2000:]
    rep = json.loads((tmp_path / "run" / "report.json").read_text())
    assert [f["code"] for f in rep["findings"] if f["severity"] == "error"] == ["NET001"]
    assert rep["results"]["run"] == {"status": "not_started", "phase": "preflight", "stopped_by": ["NET001"]}
    assert not (tmp_path / "run" / "torchrun.log").exists(), "torchrun was never started"
    assert "Traceback" not in proc.stderr
    # in-process: the preflight and the report only (seconds under load); no deadline is waited out
    assert elapsed < 45, elapsed


def _plan(backend="gloo", nproc=2, **kw):
    host = {"torch": {"cuda_available": backend == "nccl", "nccl_available": True, "cuda_device_count": 8}}
    return plan(CheckOptions(nproc_per_node=nproc, backend=backend, **kw), host, {})


def test_only_the_interface_the_backend_uses_and_matches_nothing_is_fatal():
    gloo, nccl = _plan("gloo"), _plan("nccl")
    missing = lint_env_devices({"GLOO_SOCKET_IFNAME": "nosuch0"}, ["n"], interfaces=["eth0", "lo"], hcas=None)
    assert [f.code for f in failfast.blocking(gloo, missing, HOST, {})] == ["NET001"]
    assert failfast.blocking(nccl, missing, HOST, {}) == [], "nccl does not read GLOO_SOCKET_IFNAME"
    partial = lint_env_devices({"NCCL_SOCKET_IFNAME": "eth0,nosuch"}, ["n"], interfaces=["eth0"], hcas=None)
    assert partial[0].severity == Severity.WARNING and failfast.blocking(nccl, partial, HOST, {}) == []
    none = lint_env_devices({"NCCL_SOCKET_IFNAME": "ib"}, ["n"], interfaces=["eth0"], hcas=None)
    assert [f.code for f in failfast.blocking(nccl, none, HOST, {"NCCL_SHM_DISABLE": "1"})] == ["NET001"]


def test_shm_too_small_for_nccl_ranks_is_fatal_and_not_for_gloo():
    big = {"dev_shm": {"free_bytes": 1 << 30}}
    assert failfast.blocking(_plan("nccl", 8), [], big, {}) == [], "8 ranks x 7 x 9.2 MiB = 515 MiB fits in 1 GiB"
    [f] = failfast.blocking(_plan("nccl", 8), [], HOST, {})  # Docker's 64 MiB default
    assert f.code == "SYS007" and "515 MiB" in f.message
    assert [g.code for g in failfast.blocking(_plan("nccl", 4), [], HOST, {})] == ["SYS007"]  # 110 MiB
    assert failfast.blocking(_plan("nccl", 1), [], HOST, {}) == []
    assert failfast.blocking(_plan("nccl", 8), [], HOST, {"NCCL_SHM_DISABLE": "1"}) == []
    assert failfast.blocking(_plan("gloo", 8), [], HOST, {}) == []


def test_an_endpoint_that_does_not_resolve_is_fatal():
    p = _plan("gloo", 1, nnodes=2, rdzv_endpoint="no-such-host.invalid:29400", local_addr="10.0.0.1")
    [f] = failfast.blocking(p, [], HOST, {})
    assert f.code == "RUN103" and "no-such-host.invalid" in f.message
    ok = _plan("gloo", 1, nnodes=2, rdzv_endpoint="127.0.0.1:29400", local_addr="127.0.0.1")
    assert failfast.blocking(ok, [], HOST, {}) == []


def test_a_member_whose_torchrun_lost_the_rendezvous_before_the_abort_poll_is_still_peer_stopped(monkeypatch):
    """Race seen in CI: the stopping node's torchrun hosted the c10d rendezvous, so a member's torchrun can exit
    (RendezvousConnectionError) before the member's stall policy polls the abort key (every POLL_S). The failed
    run is then the peer's stop (RUN104, exit 3), not a failure of this node; without the key it stays a failure."""
    from types import SimpleNamespace

    from ncclDoctor.check import coordinate
    from ncclDoctor.check.launch import Job
    from ncclDoctor.launch.supervisor import Outcome, RankState

    class Store:
        def __init__(self, data):
            self.data = data

        def check(self, keys):
            return all(k in self.data for k in keys)

        def get(self, key):
            return self.data[key]

    monkeypatch.setattr(coordinate, "settle", lambda plan, reporting, sup, out: out)
    abort = {failfast.ABORT_KEY: json.dumps({"node": "10.0.0.3 (n2)", "findings": []}).encode()}

    def job(nnodes, data, ranks=None):
        out = Outcome("failed", 1, 1.4, ranks or {}, {})
        sup = SimpleNamespace(wait=lambda: out, phase_started={}, ranks=ranks or {})
        return Job(plan=SimpleNamespace(nnodes=nnodes, max_seconds=None), control=SimpleNamespace(store=Store(data)),
                   reporting=False, supervisor=sup)

    assert job(3, abort).wait().phase == failfast.PHASE
    assert job(3, {}).wait().phase is None  # no abort published: this node's own failure
    assert job(1, abort).wait().phase is None  # one node: no other node to stop it
    entered = RankState(0)
    entered.entered["init"] = 1.0
    assert job(3, abort, {0: entered}).wait().phase is None  # its ranks ran: not a failure before launch


def test_a_rank_that_failed_at_init_stops_this_node_as_a_failed_run_not_a_hang(monkeypatch):
    """A rank on another node failed at init (its ``error`` event reached this node's supervisor):
    after INIT_ERROR_GRACE_S the stall policy stops this node's torchrun, whose ranks would wait
    in init until the init deadline, and Job.wait reads it as a failed run in init (exit 3 from the
    verdict: RUN002 naming the failed rank's own error), not as every rank hung."""
    from types import SimpleNamespace

    from ncclDoctor.check import coordinate
    from ncclDoctor.check.launch import Job
    from ncclDoctor.launch.supervisor import Outcome, RankState, Stall

    waiting, failed = RankState(0), RankState(1)
    waiting.phase, waiting.state = "init", "enter"
    failed.phase, failed.state, failed.error = "init", "error", "RuntimeError: Unable to find address for: noaddr0"
    sup = SimpleNamespace(ranks={0: waiting, 1: failed})
    ctl = SimpleNamespace(store=SimpleNamespace(check=lambda keys: False))
    policy = failfast.watching(ctl, base=lambda sup, now: None)
    assert policy(sup, 100.0) is None  # just seen: its own node's torchrun exits first
    stall = policy(sup, 100.0 + failfast.INIT_ERROR_GRACE_S)
    assert stall == Stall(failfast.INIT_FAILED_PHASE, failfast.INIT_ERROR_GRACE_S, 100.0, culprits=(1,), victims=(0,))

    monkeypatch.setattr(coordinate, "settle", lambda plan, reporting, sup, out: out)
    out = Outcome("hang", -15, 5.4, dict(sup.ranks), {}, phase=stall.phase, deadline_s=stall.limit_s,
                  detected_after_s=2.0)
    job = Job(plan=SimpleNamespace(nnodes=2, max_seconds=None), control=ctl, reporting=True,
              supervisor=SimpleNamespace(wait=lambda: out, phase_started={}, ranks=sup.ranks))
    got = job.wait()
    assert (got.status, got.phase, got.deadline_s) == ("failed", "init", None)
    assert got.evidence["stopped_after_init_error_s"] == 2.0


def _ranks(**states):
    """rank -> RankState from rank=(phase, state, t, error)."""
    from ncclDoctor.launch.supervisor import RankState

    out = {}
    for name, (phase, state, t, error) in states.items():
        st = out[int(name[1:])] = RankState(int(name[1:]))
        st.phase, st.state, st.t, st.error = phase, state, t, error
        st.left = {"init", "inventory", "smoke", "structure"} if phase == "all_reduce" else set()
    return out


LOST = "RuntimeError: [gloo/transport/tcp/pair.cc:553] Connection closed by peer [10.77.0.2]:17030"
OWN = "RuntimeError: CUDA error: an illegal memory access was encountered"


def test_the_first_own_error_is_the_culprit_and_a_lost_peer_or_a_later_timeout_is_a_victim():
    from ncclDoctor.analysis.verdict import first_failures

    # rank 0's lost peer came before rank 2's own error on this clock: still a victim
    ranks = _ranks(r0=("all_reduce", "error", 99.5, LOST), r1=("all_reduce", "enter", 90.0, None),
                   r2=("all_reduce", "error", 100.0, OWN),
                   r3=("all_reduce", "error", 130.0, "RuntimeError: Timed out waiting 30000ms for recv"))
    assert first_failures(ranks) == ([2], [0, 1, 3])
    ranks[3].t = 100.4  # within SAME_FAILURE_S: one failure of two ranks
    assert first_failures(ranks) == ([2, 3], [0, 1])
    only_lost = _ranks(r0=("all_reduce", "error", 102.0, LOST), r1=("all_reduce", "error", 100.0, LOST))
    assert first_failures(only_lost) == ([1], [0])  # nothing better to name: the earliest, its text names the peer
    assert first_failures(_ranks(r0=("all_reduce", "enter", 1.0, None))) == ([], [])  # nothing failed
    # crash:1 before the sweep, no error event of its own: rank 0 lost it; the one that got least far is named
    silent = _ranks(r0=("all_reduce", "error", 100.0, LOST), r1=("structure", "leave", 99.0, None))
    silent[1].left = {"init", "inventory", "smoke", "structure"}
    silent[0].seq, silent[1].seq = 2, 1
    assert first_failures(silent) == ([1], [0])


def test_a_rank_that_failed_after_init_stops_this_node_as_a_failed_run_in_its_phase(monkeypatch):
    """Rank 2 (another node) failed in the sweep with its own error; rank 0 then lost it as a peer,
    rank 1 waits inside all_reduce (as NCCL ranks do). After RANK_ERROR_GRACE_S the policy stops
    this node's torchrun; Job.wait reads a failed run in all_reduce, and the verdict is RUN004
    naming rank 2 with its own error and the stop time, exit 4 -- not a hang of every rank."""
    from types import SimpleNamespace

    from ncclDoctor.analysis import verdict
    from ncclDoctor.check import coordinate
    from ncclDoctor.check.launch import Job
    from ncclDoctor.errors import ExitCode
    from ncclDoctor.launch.supervisor import Outcome, Stall

    ranks = _ranks(r0=("all_reduce", "enter", 99.0, None), r1=("all_reduce", "enter", 99.0, None),
                   r2=("all_reduce", "error", 100.0, OWN))
    sup = SimpleNamespace(ranks=ranks)
    ctl = SimpleNamespace(store=SimpleNamespace(check=lambda keys: False))
    policy = failfast.watching(ctl, base=lambda sup, now: None)
    assert policy(sup, 500.0) is None  # just seen: its own node's torchrun exits first
    ranks[0].state, ranks[0].error, ranks[0].t = "error", LOST, 100.3  # its node's torchrun will exit of it
    assert policy(sup, 501.0) is None
    stall = policy(sup, 500.0 + failfast.RANK_ERROR_GRACE_S)
    assert stall == Stall(failfast.RANK_FAILED_PHASE, failfast.RANK_ERROR_GRACE_S, 500.0, culprits=(2,),
                          victims=(0, 1))

    monkeypatch.setattr(coordinate, "settle", lambda plan, reporting, sup, out: out)
    out = Outcome("hang", -15, 9.1, dict(ranks), {}, phase=stall.phase, deadline_s=stall.limit_s,
                  culprits=[2], victims=[0, 1], detected_after_s=2.0)
    job = Job(plan=SimpleNamespace(nnodes=2, max_seconds=None), control=ctl, reporting=True,
              supervisor=SimpleNamespace(wait=lambda: out, phase_started={}, ranks=ranks,
                                         deadlines={"all_reduce": 60.0}, default_deadline_s=60.0))
    got = job.wait()
    assert (got.status, got.phase, got.deadline_s) == ("failed", "all_reduce", None)
    assert got.evidence == {"stopped_after_rank_error_s": 2.0, "phase_deadline_s": 60.0}

    # torchrun's record on this node is of the stop (rank 1: SIGTERM), never the cause
    failures = {"root_cause": {"rank": 1, "exitcode": -15, "signal": "SIGTERM", "message": None}, "others": []}
    v = verdict.judge(got, lambda r: f"10.0.0.{r // 2 + 1} (n{r // 2})", {}, failures, [1024], 1, {})
    assert v.code == ExitCode.FAULT and (v.culprits, v.victims) == ([2], [0, 1])
    [f] = v.findings
    assert f.code == "RUN004" and f.ranks == [2] and f.nodes == ["10.0.0.2 (n1)"]
    assert f"failed in 'all_reduce': {OWN}" in f.message and "Ranks [0, 1] were waiting for it" in f.message
    assert "stopped its ranks 2.0 s after it saw the first error, instead of waiting out the 60 s all_reduce" \
        in f.message



def test_a_node_whose_ranks_died_of_another_nodes_failed_rank_before_the_grace_reads_as_stopped(monkeypatch):
    """Rank 1 (node 1) failed in the sweep with its own error; node 1's policy stopped its torchrun first, and rank 0
    (this node) died of the lost connection before this node's grace ran out: torchrun exited 1 here, with no phase.
    Job.wait reads it as the policy's stop would be -- failed in all_reduce, rank 1 the culprit, rank 0 its victim --
    not a failure of no phase (the fresh-clone run of session 31 under load; test_multinode_netns's fail-held). Near
    shape: this node's own rank failing on its own keeps the run as it was."""
    from types import SimpleNamespace

    from ncclDoctor.check import coordinate
    from ncclDoctor.check.launch import Job
    from ncclDoctor.launch.supervisor import Outcome

    monkeypatch.setattr(coordinate, "settle", lambda plan, reporting, sup, out: out)
    ctl = SimpleNamespace(store=SimpleNamespace(check=lambda keys: False))

    def wait(ranks):
        out = Outcome("failed", 1, 4.5, dict(ranks), {})
        job = Job(plan=SimpleNamespace(nnodes=2, max_seconds=None), control=ctl, reporting=True,
                  supervisor=SimpleNamespace(wait=lambda: out, phase_started={}, ranks=ranks, liveness=None,
                                             worker_pids=lambda: {0: 11},
                                             deadlines={"all_reduce": 60.0}, default_deadline_s=60.0))
        return job.wait()

    got = wait(_ranks(r0=("all_reduce", "error", 100.3, LOST), r1=("all_reduce", "error", 100.0, OWN)))
    assert (got.status, got.phase, got.culprits, got.victims) == ("failed", "all_reduce", [1], [0])
    mine = wait(_ranks(r0=("all_reduce", "error", 100.0, OWN), r1=("all_reduce", "enter", 99.0, None)))
    assert (mine.status, mine.phase) == ("failed", None)

def test_a_lost_peer_is_not_a_rank_error_of_its_own_when_another_rank_failed():
    """RUN101 quotes the ranks' own errors; a rank that only lost its peer is a victim, left out --
    unless nothing else failed (then its error is all there is to show)."""
    from ncclDoctor.check.analyse import rank_errors
    from ncclDoctor.launch.supervisor import Outcome

    label = lambda r: f"node{r}"  # noqa: E731
    both = _ranks(r0=("all_reduce", "error", 100.5, LOST), r1=("all_reduce", "error", 100.0, OWN))
    [f] = rank_errors(Outcome("failed", 1, 5.0, both, {}), label)
    assert f.ranks == [1] and f.nodes == ["node1"] and OWN in f.message
    lost = _ranks(r0=("all_reduce", "error", 100.5, LOST))
    assert [f.ranks for f in rank_errors(Outcome("failed", 1, 5.0, lost, {}), label)] == [[0]]


def test_a_rank_that_died_without_a_word_is_named_when_this_nodes_torchrun_is_slow_to_exit(monkeypatch):
    """Seen with --inject crash:1 on two netns nodes under load: rank 1 raised before entering the sweep
    (no error event), rank 0 lost it as a peer, and node 0's own torchrun took over 2 s to exit, so the
    policy stopped it. The run is still rank 1's failure (it got least far), in all_reduce, exit 4 --
    not rank 0's lost peer (the first version of this rule named rank 0)."""
    from types import SimpleNamespace

    from ncclDoctor.analysis import verdict
    from ncclDoctor.check import coordinate
    from ncclDoctor.check.launch import Job
    from ncclDoctor.launch.supervisor import Outcome

    ranks = _ranks(r0=("all_reduce", "error", 100.0, LOST), r1=("structure", "leave", 99.0, None))
    ranks[1].left = {"init", "inventory", "smoke", "structure"}
    ranks[0].seq, ranks[1].seq = 2, 1
    ctl = SimpleNamespace(store=SimpleNamespace(check=lambda keys: False))
    policy = failfast.watching(ctl, base=lambda sup, now: None)
    sup = SimpleNamespace(ranks=ranks)
    assert policy(sup, 10.0) is None
    stall = policy(sup, 12.5)
    assert (stall.phase, stall.culprits, stall.victims) == (failfast.RANK_FAILED_PHASE, (1,), (0,))

    monkeypatch.setattr(coordinate, "settle", lambda plan, reporting, sup, out: out)
    out = Outcome("hang", -15, 11.4, dict(ranks), {}, phase=stall.phase, culprits=[1], victims=[0],
                  detected_after_s=2.1)
    job = Job(plan=SimpleNamespace(nnodes=2, max_seconds=None), control=ctl, reporting=True,
              supervisor=SimpleNamespace(wait=lambda: out, phase_started={}, ranks=ranks, deadlines={},
                                         default_deadline_s=60.0))
    got = job.wait()
    assert (got.status, got.phase) == ("failed", "all_reduce")
    v = verdict.judge(got, lambda r: f"node{r}", {}, {"root_cause": None, "others": []}, [1024], 1, {})
    [f] = v.findings
    assert (f.code, f.ranks, v.code, v.victims) == ("RUN004", [1], 4, [0])
    assert "rank 1 (local rank ?, pid ?) on node1 stopped without an error event" in f.message
