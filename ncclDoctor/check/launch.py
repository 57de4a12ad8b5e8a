"""Start the probes under torchrun, supervised through the control store: one path for any N.

``start(plan, env, findings)`` opens the control store (``coordinate.open_store``: a
private one at N = 1, bound or joined at N > 1), publishes this node's record, writes
``probe-config.json`` and ``launch.json`` into the run directory, and starts
``python -m torch.distributed.run ... -m probes.worker --config probe-config.json``
under the generic ``launch.Supervisor`` with the probe's phases and deadlines
(``check.phases``) and the stacks + Flight Recorder hook (``launch.evidence``).
The returned ``Job`` is the runtime state; ``Job.wait()`` returns the ``Outcome``
(``interrupted`` included: Ctrl-C never skips the report).

Probe config keys (read by ``probes.worker``): ``backend``, ``sizes``, ``warmup``,
``iters``, ``pg_timeout_s``, ``run_dir``, ``node`` {host, addr}, ``inject``,
``structure`` (None at N = 1), ``phases`` (the phases to run, in order: one per
collective of ``--op``, named by it; ``probes.worker`` sweeps the collective of that name).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ncclDoctor.analysis.verdict import first_failures
from ncclDoctor.check import budget, coordinate, failfast, phases
from ncclDoctor.check.heartbeat import Heartbeat
from ncclDoctor.check.options import Plan
from ncclDoctor.findings import Finding
from ncclDoctor.fsutil import write_json_atomic
from ncclDoctor.launch import evidence
from ncclDoctor.launch.process import child_env
from ncclDoctor.launch.store import ControlStore, RemoteControl
from ncclDoctor.launch.supervisor import InterruptedRun, Outcome, Supervisor
from ncclDoctor.launch.torchrun import LaunchSpec, torchrun_argv

ENV_CONTROL = "NCCLDOCTOR_CONTROL"  # probes.control reads it


@dataclass
class Job:
    """A started check on this node: what ``Plan`` does not know until run time."""

    plan: Plan
    control: ControlStore
    reporting: bool  # this node reports (always at N = 1)
    supervisor: Supervisor
    note: dict[str, Any] = field(default_factory=dict)  # coordinate.announce's record
    heart: Heartbeat | None = None  # N > 1: this node's beat and its view of the others' (check.heartbeat)

    def wait(self) -> Outcome:
        try:
            out = self.supervisor.wait()
        except InterruptedRun as exc:
            self._done("interrupted")
            return exc.outcome
        self._lost_node(out)
        self._done(out.status)
        if out.phase != failfast.PHASE and failfast.lost_to_abort(self.plan.nnodes, self.control, out):
            out.phase = failfast.PHASE  # its torchrun died with the rendezvous before the abort poll came round
        if out.phase == failfast.PHASE:  # another node's preflight stopped the check: nothing to settle
            return out
        if failfast.died_of_peer(self.plan.nnodes, out, self.supervisor):
            # its ranks died of another node's failed rank before the grace ran out: as if watching had stopped it
            out.phase = failfast.RANK_FAILED_PHASE
            out.culprits, out.victims = (sorted(x) for x in first_failures(out.ranks))
            out.detected_after_s = out.detected_after_s or 0.0
        if out.phase == failfast.INIT_FAILED_PHASE:  # a rank failed at init (another node's): failed, not a hang
            out.evidence["stopped_after_init_error_s"] = round(out.detected_after_s or 0.0, 3)
            out.status, out.phase, out.deadline_s = "failed", "init", None
        if out.phase == failfast.RANK_FAILED_PHASE:  # a rank failed later (another node's): failed in ITS phase
            phase = failfast.failed_phase(out)
            out.evidence["stopped_after_rank_error_s"] = round(out.detected_after_s or 0.0, 3)
            out.evidence["phase_deadline_s"] = self.supervisor.deadlines.get(phase, self.supervisor.default_deadline_s)
            out.status, out.phase, out.deadline_s = "failed", phase, None
        if out.phase in (failfast.NODE_LOST_PHASE, failfast.STORE_LOST_PHASE) and self.heart is not None:
            failfast.node_lost(self.heart, out, self.supervisor)  # a crash of a whole node: failed, in its phase
        if (quiet := budget.stall_reason(self.supervisor)) and out.status == "hang":
            out.evidence["no_progress"] = quiet
        return coordinate.settle(self.plan, self.reporting, self.supervisor, out)

    def _lost_node(self, out: Outcome) -> None:
        """torchrun exited of lost peers before the heartbeat's verdict came (gloo): wait for it (bounded),
        and when a node (or the store) is lost, make the outcome say so; a lost store is never waited on again."""
        if self.heart is None:
            return
        if out.phase is None and (stall := failfast.await_heartbeat(self.heart, self.supervisor, out)):
            out.phase, out.culprits = stall.phase, sorted(stall.culprits or ())
            out.victims = sorted(stall.victims or ())
            out.detected_after_s = self.heart.clock() - stall.since
        if out.phase == failfast.STORE_LOST_PHASE and isinstance(self.control, RemoteControl):
            self.control.give_up(self.heart.store_error or "no answer")  # already, unless a read never failed

    def _done(self, status: str) -> None:
        """This node's last beat says it is done (final: never called lost); published once."""
        if self.heart is not None:
            self.heart.finish(status, failfast.own_ranks(self.supervisor))

    def identities(self) -> dict[int, dict[str, Any]]:
        return coordinate.identities(self.control, self.plan.world_size)

    def torchrun_record(self) -> dict[str, Any]:
        return evidence.torchrun_record(self.plan.run_dir)


def probe_config(plan: Plan) -> dict[str, Any]:
    return {
        "backend": plan.backend, "sizes": list(plan.sizes), "warmup": plan.warmup, "iters": plan.iters,
        "pg_timeout_s": phases.pg_timeout_s(dict(plan.deadlines)), "run_dir": str(plan.run_dir),
        "node": dict(plan.node), "inject": list(plan.inject),
        "structure": dict(plan.structure) if plan.structure else None,
        "phases": list(phases.for_plan(plan.nnodes, plan.ops)),
        "budget": budget.probe_budget(plan.max_seconds, plan.started_wall) if plan.max_seconds else None,
    }


def worker_env(env: dict[str, str], control_addr: str) -> dict[str, str]:
    import probes

    root = str(Path(probes.__file__).resolve().parent.parent)  # `-m probes.worker` from a checkout too
    out = child_env(env, [root])
    out[ENV_CONTROL] = control_addr
    # Flight Recorder: on by default only since torch ~2.10 (0 entries before); the probe
    # always records so a stuck run can be explained.
    if not (env.get("TORCH_FR_BUFFER_SIZE") or env.get("TORCH_NCCL_TRACE_BUFFER_SIZE")):
        out["TORCH_FR_BUFFER_SIZE"] = "2000"
    return out


def launch_spec(plan: Plan, reporting: bool) -> LaunchSpec:
    rd = plan.topology.rdzv
    logs = str(plan.run_dir / "logs")
    join = phases.rendezvous_join_s(plan.launch_timeout_s)
    if rd is None:  # torchrun --standalone: its own rendezvous on a free port
        return LaunchSpec(nproc_per_node=plan.nproc_per_node, log_dir=logs, join_timeout_s=join)
    return LaunchSpec(nproc_per_node=plan.nproc_per_node, nnodes=rd.nnodes, rdzv_endpoint=rd.endpoint,
                      rdzv_id=rd.rdzv_id, is_host=reporting, local_addr=rd.local_addr, log_dir=logs,
                      join_timeout_s=join)


def start(plan: Plan, env: dict[str, str], findings: list[Finding],
          on_event: Callable[[dict[str, Any]], None] | None = None) -> Job:
    """Open the control store, announce this node, start torchrun under supervision."""
    ctl, reporting, addr = coordinate.open_store(plan)
    note = coordinate.announce(plan, ctl, reporting, env, findings)
    heart = Heartbeat(ctl, plan.where, reporting) if plan.nnodes > 1 else None
    cfg_path = write_json_atomic(plan.run_dir / "probe-config.json", probe_config(plan))
    argv = torchrun_argv(launch_spec(plan, reporting), ["--config", str(cfg_path)])
    write_json_atomic(plan.run_dir / "launch.json", {"argv": argv, "is_host": reporting, "control": addr})
    sup = Supervisor(
        argv, worker_env(env, addr), plan.world_size, ctl, log_path=str(plan.run_dir / "torchrun.log"),
        phases=phases.for_plan(plan.nnodes, plan.ops),
        deadlines_s=phases.deadlines({**phases.sweep_deadlines(plan.ops), **dict(plan.deadlines)}),
        on_event=on_event, before_stop=_evidence_unless_peer_stopped(plan.run_dir, heart),
        stall=stall_policy(plan, ctl, heart),
        liveness=plan.nnodes > 1,  # a rank of ours killed without a word: tell the other nodes (check.failfast)
    )
    sup.start()
    return Job(plan, ctl, reporting, sup, note, heart)


QUIET_STOPS = (failfast.PHASE, failfast.INIT_FAILED_PHASE, failfast.RANK_FAILED_PHASE, failfast.NODE_LOST_PHASE,
               failfast.STORE_LOST_PHASE)


def _evidence_unless_peer_stopped(run_dir: Path, heart: Heartbeat | None = None) -> Callable:
    """Stacks and Flight Recorder before a stop -- not when another node's preflight
    stopped the check (the ranks are still in the rendezvous: nothing to explain), nor when a
    rank failed with its own error, at init or later (the error is the evidence; the others only
    wait for it, and dumping them would delay the stop by the dump's wait), nor when a node or the
    store was lost (the dump would wait for ranks that are gone). First, with several nodes, this
    node's last beat says it is done: gathering evidence takes longer than the others may wait
    for a beat (check.heartbeat)."""
    collect = evidence.collector(run_dir)

    def before_stop(sup: Supervisor, out) -> None:
        if heart is not None:
            heart.finish(f"stopping: {out.status} in {out.phase}", failfast.own_ranks(sup))
        if out.phase not in QUIET_STOPS:
            collect(sup, out)

    return before_stop


def stall_policy(plan: Plan, ctl: ControlStore, heart: Heartbeat | None = None) -> Callable:
    """Another node's abort and the node liveness (N > 1), the phase deadlines, then the evidence of
    no progress."""
    base = failfast.watching(ctl, heart=heart) if plan.nnodes > 1 else Supervisor.missed_deadline
    return budget.no_progress(base) if plan.max_seconds else base
