"""The generic supervisor (ncclDoctor.launch) with a client that is not the probes.

Real torchrun, a job with phases of its own (tests/fixtures/jobs/phased.py), the same
control-store protocol: phases and deadlines come from the client, culprits from the
sequence numbers, stacks from this node's workers found through their environment.
"""

from __future__ import annotations

import json
import sys
import time

from ncclDoctor.launch import evidence
from ncclDoctor.launch import supervisor as sv
from ncclDoctor.launch.process import child_env
from ncclDoctor.launch.torchrun import LaunchSpec, torchrun_argv
from tests.conftest import ROOT

JOB = str(ROOT / "tests" / "fixtures" / "jobs" / "phased.py")
PHASES = ("load", "train", "done")


def _supervisor(tmp_path, args, **kw) -> sv.Supervisor:
    ctl = sv.ControlStore(host="127.0.0.1")
    argv = torchrun_argv(LaunchSpec(nproc_per_node=2, script=JOB), [str(tmp_path), *args])
    env = {**child_env({"PATH": "/usr/bin:/bin"}, [str(ROOT)]), "NCCLDOCTOR_CONTROL": f"127.0.0.1:{ctl.port}"}
    return sv.Supervisor(argv, env, 2, ctl, log_path=str(tmp_path / "torchrun.log"), phases=PHASES, **kw)


def test_a_job_with_its_own_phases_runs_to_the_end(tmp_path):
    sup = _supervisor(tmp_path, [])
    out = sup.run()
    assert out.status == "ok" and out.returncode == 0, (tmp_path / "torchrun.log").read_text()[-2000:]
    assert all(out.passed(ph) for ph in PHASES)
    assert {r: res["load"]["pid"] > 0 for r, res in out.results.items()} == {0: True, 1: True}
    assert [m["step"] for m in out.ranks[0].marks] == [0, 1, 2]  # progress events are kept as marks


def test_a_stalled_phase_blames_the_rank_behind_and_gathers_its_stack(tmp_path):
    t0 = time.monotonic()
    sup = _supervisor(tmp_path, ["hang"], deadlines_s={"launch": 90.0, "train": 3.0},
                      before_stop=evidence.collector(tmp_path))
    out = sup.run()
    assert out.status == "hang" and out.phase == "train"
    assert (out.culprits, out.victims) == ([1], [0])  # rank 1 never entered train
    assert out.evidence["gathered"]["signalled"] == [0, 1]  # no evidence thread: SIGUSR1 to this node's workers
    assert "time.sleep" in out.evidence["stacks"]["1"] or "phased.py" in out.evidence["stacks"]["1"]
    assert sup.proc.poll() is not None and time.monotonic() - t0 < 120


def test_a_client_stall_policy_replaces_the_phase_deadlines(tmp_path):
    def no_progress(sup: sv.Supervisor, now: float):
        steps = {r: len(st.marks) for r, st in sup.ranks.items()}
        since = sup.phase_started.get("load")
        if since is None or now - since < 2.0 or min(steps.values()) == max(steps.values()):
            return None
        low = min(steps.values())
        return sv.Stall("no progress", 2.0, since, culprits=tuple(r for r, n in steps.items() if n == low),
                        victims=tuple(r for r, n in steps.items() if n > low))

    out = _supervisor(tmp_path, ["hang"], stall=no_progress).run()
    assert out.status == "hang" and out.phase == "no progress"
    assert (out.culprits, out.victims) == ([1], [0])
    assert out.evidence == {}  # no before_stop hook: nothing gathered


def test_supervisor_stops_a_torchrun_that_lingers_after_every_rank_finished(tmp_path, monkeypatch):
    """torchrun's exit barrier waits 300 s for a failed peer node's agent; we do not."""
    monkeypatch.setattr(sv, "LINGER_S", 1.0)
    ctl = sv.ControlStore(host="127.0.0.1")
    for r in range(2):
        for ph in PHASES:
            for ev in ("enter", "leave"):
                event = {"rank": r, "phase": ph, "event": ev, "t": time.time(), "seq": 1}
                ctl.store.append(f"events/{r}", json.dumps(event) + "\n")
    sup = sv.Supervisor([sys.executable, "-c", "import time; time.sleep(120)"], {}, 2, ctl,
                        log_path=str(tmp_path / "log"), phases=PHASES)
    t0 = time.monotonic()
    out = sup.run()
    assert out.status == "ok" and out.evidence["torchrun_lingered_s"] >= 1.0
    assert time.monotonic() - t0 < 30 and sup.proc.poll() is not None
