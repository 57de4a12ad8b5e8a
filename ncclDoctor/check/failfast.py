"""Fail fast on what the preflight proved (exit 3), on a rank's error and on a node lost (every node, seconds).

Before launching anything, ``blocking(plan, findings, host)`` picks the faults that make
the job impossible on this node:

=========  ==================================================================
NET001     (error) the socket interface the backend uses -- GLOO_SOCKET_IFNAME for
           gloo, NCCL_SOCKET_IFNAME for nccl -- matches nothing on this host
RUN103     the rendezvous endpoint's host does not resolve here
SYS007     nccl with several ranks per node: /dev/shm has less free space than
           NCCL's shared-memory transport needs (``NCCL_SHM_PAIR_BYTES`` per
           connected pair of local ranks; NCCL_SHM_DISABLE=1 lifts it)
=========  ==================================================================

A partial interface match (NET001 as a warning) or a small-but-sufficient /dev/shm
(SYS001) does not stop the check: the job can run.

When one is found, ``stop_before_launch`` ends the check with exit 3 (COULD_NOT_RUN)
without starting torchrun. With several nodes it first tells the others: it joins the
control store (as it would to run), publishes its node record (its findings) and the
``abort`` key, and -- on the reporting node -- keeps the store open until the other
nodes have read it (``LINGER_S`` at most). Every other node watches for that key
(``watching``, every ``POLL_S``, as the supervisor's stall policy); on seeing it, it
stops its own torchrun (still in the rendezvous), names the node with RUN104, and exits
3 too; a torchrun that died of the lost rendezvous before that poll is read the same way
(``lost_to_abort``). The reporting node's report carries the stopping node's own findings (its node
record). A node that cannot resolve the endpoint cannot reach the store either: it stops
alone, and the others stop at their launch deadline (the limit of this design).

What preflight cannot prove fails in a phase: a rank's ``error`` event reaches every node's
supervisor through the control store, but only its own node's torchrun exits of it; the others'
ranks would wait (in init_process_group, or inside a collective: NCCL tells no peer that a rank
died) until the phase's deadline, and the check would call that a hang (RUN002 "no rank got
through init", RUN003 "no rank is behind"). ``watching`` therefore also stops this node's torchrun
once a rank's error has stood for ``RANK_ERROR_GRACE_S`` (2 s: its own node's torchrun exits
first), and ``launch.Job.wait`` reads that as a failed run, not a hang:

- at ``init`` (Stall ``INIT_FAILED_PHASE``): status ``failed``, phase ``init``; the verdict names
  the failed ranks' own error (RUN002) and the check exits 3 (could not run);
- later (Stall ``RANK_FAILED_PHASE``): status ``failed`` in the failed rank's phase, evidence
  ``stopped_after_rank_error_s`` and ``phase_deadline_s``; the verdict is a crash (RUN004, exit 4,
  as a single-node check gives when torchrun reports a rank's exit) naming the first failure with
  its own error, the others as victims.

Decisions where the issue was silent:

- The first failure (``verdict.first_failures``) is the earliest error that is the rank's own:
  one saying it lost a peer (gloo's "Connection closed by peer"/"Connection reset by peer",
  ``verdict.CONSEQUENCES``) is a victim's, whenever it came. Times are the ranks' own wall
  clocks; since lost-peer errors are set aside first, clock skew between nodes matters only
  between two independent own errors. Own errors within ``verdict.SAME_FAILURE_S`` (1 s) of the
  first are the same failure (every rank of a node failing together); a later own error (a
  timeout waiting for the first) is a victim's. When every error is a lost peer (the rank that
  failed posted none: it crashed between phases), the rank that got least far is named -- its
  own node's torchrun can take longer than the grace to exit of a lost peer on a loaded host --
  and when all got as far, the earliest lost-peer error (its text names the peer's address).
- No stacks or Flight Recorder dump before this stop: the error is the evidence, the others
  only wait for it, and the dump's wait would delay every node's stop.
- A rank of this node whose torchrun has not exited within the grace (its process still up,
  holding its connections) is stopped by the same rule, with the same verdict.
- A rank killed without a word (SIGKILL, the OOM killer; ``--inject exit``, ``exit-held``) or
  failing outside a phase posts no error event of its own; its own node's supervisor posts one on
  its behalf once its process is gone (``launch.liveness``: "rank 1's process died without an error
  of its own (killed by SIGKILL ...)", ``posted_by: supervisor``), and this policy reads it as that
  rank's own failure, the first, never a victim's lost peer. Before that, with nccl (and any
  transport where the dead peer's connections are not seen closed), the other nodes waited for the
  phase's deadline (RUN003).
- A whole node lost at once (its supervisor killed with its ranks, the host down, the network to it
  cut) posts nothing, so every node's supervisor also beats through the control store and reads the
  others' beats (``check.heartbeat``, with ``watching``, every ``POLL_S``). A node whose beat has not
  changed for ``heartbeat.LOST_S`` (12 s, on the reader's own monotonic clock) while the run is in a
  phase, and that never said it was done, is lost: ``watching`` stops this node's torchrun (Stall
  ``NODE_LOST_PHASE``), ``launch.Job.wait`` makes it a failed run in the phase the lost ranks were
  in (evidence ``node_lost``, ``stopped_after_node_lost_s``), and the verdict is RUN105 naming that
  node, its ranks and when it last beat, every other rank a victim, exit 4 as a crash -- never RUN003.
  A lost-peer error (gloo frees a lost node's peers at once) waits for that verdict while some node
  has not beaten since the error (``_awaiting_heartbeat``; after this node's torchrun exited of it,
  ``await_heartbeat``: ``LOST_S`` plus two polls at most), so the rank that noticed first is not named.
- The control store unanswering this node for ``LOST_S`` (Stall ``STORE_LOST_PHASE``): RUN105 names
  the store's host (the reporting node, by the name it beat with) and says what the error tells --
  refused or reset: its ncclDoctor is gone; no answer: its host is down or this node is cut off, which
  one node cannot tell apart. Every later store call then fails at once (``RemoteControl.give_up``),
  and every call waits ``store.OP_TIMEOUT_S`` at most: the report is written, nothing hangs.
- A node's last beat says ``done`` (before its evidence is gathered on a stall, else when its watch
  ends) and ``done`` is final: a node that finished, failed on its own or was interrupted is never
  called lost. So is a reporting node that said done and then closed its store.
- Limit: a node lost before any rank entered a phase (in the rendezvous) is still the launch
  deadline's (RUN002/RUN102); a node lost after it said done (while the others still run) is told
  only by its ranks' own errors, as before; and a node whose supervisor is alive but whose ranks'
  network alone is cut still beats: its ranks are named by the phase's deadline (RUN003).
- One node: unchanged (torchrun exits when a rank fails; ``watching`` runs at N > 1 only).
"""

from __future__ import annotations

import socket
import time
from typing import Any, Callable, Mapping

from ncclDoctor.analysis.verdict import first_failures, is_consequence
from ncclDoctor.check import coordinate
from ncclDoctor.check.heartbeat import Heartbeat, described
from ncclDoctor.check.options import Plan
from ncclDoctor.errors import CouldNotRun, ExitCode
from ncclDoctor.findings import Finding, Severity
from ncclDoctor.launch.store import ControlStore, publish_json, read_json
from ncclDoctor.launch.supervisor import Outcome, RankState, Stall, Supervisor
from ncclDoctor.report.model import Report
from ncclDoctor.rules.codes.run import PEER_STOPPED, RDZV_UNRESOLVED
from ncclDoctor.rules.codes.sys import SHM_TOO_SMALL_FOR_RANKS

PHASE = "peer_preflight"  # the Stall's phase when another node stopped the check
INIT_FAILED_PHASE = "peer_init_failed"  # the Stall's phase when a rank failed at init (on another node)
RANK_FAILED_PHASE = "peer_rank_failed"  # the Stall's phase when a rank failed after init (on another node)
NODE_LOST_PHASE = "peer_node_lost"  # the Stall's phase when another node stopped beating (check.heartbeat)
STORE_LOST_PHASE = "control_store_lost"  # the Stall's phase when the control store stopped answering this node
RANK_ERROR_GRACE_S = 2.0  # a rank's error stands this long before this node's torchrun is stopped
INIT_ERROR_GRACE_S = RANK_ERROR_GRACE_S
ABORT_KEY = "abort"
POLL_S = 1.0
NCCL_SHM_PAIR_BYTES = 9637888  # one NCCL SHM segment with default buffers (NCCL's own error text)
IFACE_VAR = {"gloo": "GLOO_SOCKET_IFNAME", "nccl": "NCCL_SOCKET_IFNAME"}


def blocking(plan: Plan, findings: list[Finding], host: Mapping[str, Any], env: Mapping[str, str]) -> list[Finding]:
    """The faults (found or new) that make this node's part of the job impossible."""
    var = IFACE_VAR.get(plan.backend, "")
    out = [f for f in findings if f.code == "NET001" and f.severity == Severity.ERROR
           and any(str(e).startswith(var + "=") for e in f.evidence)]
    rd = plan.topology.rdzv
    if rd is not None and (err := _unresolved(rd.host)):
        out.append(RDZV_UNRESOLVED.finding(
            f"--rdzv-endpoint {rd.endpoint}: {rd.host!r} does not resolve on {plan.where} ({err}).",
            nodes=[plan.where], evidence=[{"endpoint": rd.endpoint, "error": err}]))
    out += _shm(plan, host, env)
    return out


def _unresolved(name: str) -> str | None:
    try:
        socket.getaddrinfo(name, None)
        return None
    except (OSError, UnicodeError) as exc:
        return str(exc)


def _shm(plan: Plan, host: Mapping[str, Any], env: Mapping[str, str]) -> list[Finding]:
    n = plan.nproc_per_node
    free = host.get("dev_shm", {}).get("free_bytes")
    if plan.backend != "nccl" or n < 2 or free is None or env.get("NCCL_SHM_DISABLE") == "1":
        return []
    need = n * (n - 1) * NCCL_SHM_PAIR_BYTES
    if free >= need:
        return []
    return [SHM_TOO_SMALL_FOR_RANKS.finding(
        f"/dev/shm on {plan.where} has {free / (1 << 20):.0f} MiB free; {n} nccl ranks need about "
        f"{need / (1 << 20):.0f} MiB ({n} x {n - 1} pairs x {NCCL_SHM_PAIR_BYTES / (1 << 20):.1f} MiB).",
        nodes=[plan.where], evidence=[{"free_bytes": free, "need_bytes": need, "ranks": n}])]


def stop_before_launch(report: Report, plan: Plan, env: dict[str, str], fatal: list[Finding]) -> ExitCode:
    """Record why, tell the other nodes (N > 1), return COULD_NOT_RUN."""
    have = {id(f) for f in report.findings}
    report.add(*(f for f in fatal if id(f) not in have))
    run = report.results["run"] = {"status": "not_started", "phase": "preflight",
                                   "stopped_by": [f.code for f in fatal]}
    if plan.nnodes > 1 and not any(f.code == RDZV_UNRESOLVED.code for f in fatal):
        run["told_other_nodes"] = _tell_others(report, plan, env, fatal)
    return ExitCode.COULD_NOT_RUN


def _tell_others(report: Report, plan: Plan, env: dict[str, str], fatal: list[Finding]) -> Any:
    try:
        ctl, reporting, _ = coordinate.open_store(plan)
    except CouldNotRun as exc:
        return f"no: {exc}"
    note = coordinate.announce(plan, ctl, reporting, env, list(report.findings))
    err = publish_json(ctl, ABORT_KEY, {"node": plan.where, "findings": [f.to_dict() for f in fatal]})
    # the reporting node merges the other nodes' records and keeps the store open until they
    # have read the key (coordinate.SETTLE_S at most); a member says where the full report is
    coordinate.finish(report, plan, Outcome("not_started", None, 0.0, {}, {}), ctl, reporting, note)
    return err or "yes"


def watching(ctl: ControlStore, base: Callable[[Supervisor, float], Stall | None] = Supervisor.missed_deadline,
             heart: Heartbeat | None = None) -> Callable[[Supervisor, float], Stall | None]:
    """A stall policy: another node's abort first (read every POLL_S), then, with ``heart``, this
    node's beat and a node lost or the store lost (``check.heartbeat``, every POLL_S), then a rank's
    error (``RANK_ERROR_GRACE_S`` after the supervisor first saw one; while every error is a lost
    peer and some node is late, until the heartbeat's verdict), then ``base``."""
    last = [0.0]
    seen: list[float | None] = [None]  # when the supervisor first saw a rank's error event

    def stall(sup: Supervisor, now: float) -> Stall | None:
        if now - last[0] >= POLL_S:
            last[0] = now
            if read_json(ctl, ABORT_KEY):
                return Stall(PHASE, 0.0, now, culprits=(), victims=())
            if heart is not None and (gone := _gone(heart, sup, now)):
                return gone
        if any(st.state == "error" for st in sup.ranks.values()):
            seen[0] = now if seen[0] is None else seen[0]
            if now - seen[0] >= RANK_ERROR_GRACE_S and not _awaiting_heartbeat(heart, sup.ranks, seen[0]):
                return _failed(sup.ranks, seen[0])
        return base(sup, now)

    return stall


def own_ranks(sup: Supervisor) -> list[int]:
    """This node's ranks, as its liveness watch last found them (no process scan of its own)."""
    return sorted(sup.liveness.procs) if sup.liveness is not None else sorted(sup.worker_pids())


def _in_phase(ranks: Mapping[int, RankState]) -> bool:
    return any(st.phase is not None for st in ranks.values())


def _gone(heart: Heartbeat, sup: Supervisor, now: float) -> Stall | None:
    """Beat, read the others; the Stall for a lost node or a lost store while the run is in a phase."""
    heart.poll(own_ranks(sup), now)
    return judge_heartbeat(heart, sup, now) if _in_phase(sup.ranks) else None


def judge_heartbeat(heart: Heartbeat, sup: Supervisor, now: float) -> Stall | None:
    """The store lost (this node's ranks are the victims of whatever it cannot see), else the
    nodes lost (their ranks the culprits, every other rank a victim); ``heart.found`` says which."""
    if heart.store_lost(now):
        mine = set(own_ranks(sup))
        heart.found = [{"store": True, "node": heart.store_host(), "error": heart.store_error,
                        "silent_s": round(now - (heart.answered or now), 3), "lost_after_s": heart.lost_s}]
        return Stall(STORE_LOST_PHASE, heart.lost_s, heart.answered or now,
                     culprits=tuple(sorted(r for r in sup.ranks if r not in mine)), victims=tuple(sorted(mine)))
    lost = heart.lost(now)
    if not lost:
        return None
    heart.found = [described(s, heart.lost_s, now) for s in lost]
    gone = {r for s in lost for r in s.record.get("ranks") or ()}
    return Stall(NODE_LOST_PHASE, heart.lost_s, min(s.changed for s in lost), culprits=tuple(sorted(gone)),
                 victims=tuple(sorted(r for r in sup.ranks if r not in gone)))


def _awaiting_heartbeat(heart: Heartbeat | None, ranks: Mapping[int, RankState], since: float) -> bool:
    """Every error is a lost peer (none is a rank's own, nor posted for a rank by its supervisor) and
    some node has not beaten since the first error was seen: that node may be lost whole -- wait for
    the heartbeat's verdict (``LOST_S`` at most) instead of naming whichever rank noticed first."""
    return heart is not None and only_lost_peers(ranks) and bool(heart.quiet_since(since))


def only_lost_peers(ranks: Mapping[int, RankState]) -> bool:
    """Every rank error (if any) says it lost its peer: none is a rank's own."""
    return all(is_consequence(st.error) for st in ranks.values() if st.state == "error")


def await_heartbeat(heart: Heartbeat, sup: Supervisor, out: Outcome) -> Stall | None:
    """This node's torchrun exited failed with nothing but lost-peer errors (gloo frees a lost
    node's peers at once): before the verdict, see every other node beat once more, or call it
    lost (or the store lost) -- ``LOST_S`` plus two polls at most, never longer."""
    if out.status != "failed" or not only_lost_peers(out.ranks) or not _in_phase(out.ranks):
        return None
    t0 = heart.clock()
    while heart.clock() - t0 <= heart.lost_s + 2 * POLL_S:
        now = heart.clock()
        heart.poll(own_ranks(sup), now)
        if (stall := judge_heartbeat(heart, sup, now)) is not None:
            return stall
        if not heart.quiet_since(t0):
            return None
        time.sleep(POLL_S)
    return None


def node_lost(heart: Heartbeat, out: Outcome, sup: Supervisor) -> None:
    """A run stopped for a lost node or a lost store: failed (a crash, exit 4), in the phase the ranks
    were in, the lost node's ranks the culprits; ``evidence`` says who stopped answering, and when."""
    phase = _current_phase(out.ranks, out.culprits)
    key = "store_lost" if heart.found and heart.found[0].get("store") else "node_lost"
    out.evidence[key] = heart.found
    out.evidence["stopped_after_node_lost_s"] = round(out.detected_after_s or 0.0, 3)
    out.evidence["phase_deadline_s"] = sup.deadlines.get(phase or "", sup.default_deadline_s)
    out.status, out.phase, out.deadline_s = "failed", phase, None


def _current_phase(ranks: Mapping[int, RankState], lost: list[int]) -> str | None:
    """The phase the lost ranks were last seen in (inside, or the one after they left), else the others'."""
    for group in ([ranks[r] for r in lost if r in ranks], list(ranks.values())):
        inside = [st.phase for st in group if st.phase and st.state != "leave"]
        if inside:
            return inside[0]
    return next((st.phase for st in ranks.values() if st.phase), None)


def _failed(ranks: Mapping[int, RankState], since: float) -> Stall:
    """The Stall for ranks that failed with their own error: at init (as before, exit 3), or the
    first failure in a later phase (``verdict.first_failures``; Job.wait makes it a failed run)."""
    failed = sorted(r for r, st in ranks.items() if st.state == "error" and st.phase == "init")
    if failed:
        waiting = sorted(r for r, st in ranks.items() if r not in failed and "init" not in st.left)
        return Stall(INIT_FAILED_PHASE, INIT_ERROR_GRACE_S, since, culprits=tuple(failed), victims=tuple(waiting))
    culprits, victims = first_failures(dict(ranks))
    return Stall(RANK_FAILED_PHASE, RANK_ERROR_GRACE_S, since, culprits=tuple(culprits), victims=tuple(victims))


def died_of_peer(nnodes: int, out: Outcome, sup: Supervisor) -> bool:
    """Whether this node's run failed of another node's rank failing first, before ``watching`` stopped it: a
    rank elsewhere posted its own error (not a lost peer), and this node's ranks only lost their peers (or said
    nothing) -- the other node's policy stopped its torchrun first, and this node's ranks died of the lost
    connections before this node's grace ran out. The same failure as a stop by the policy: read so (Job.wait)."""
    if nnodes <= 1 or out.status != "failed" or out.phase is not None:
        return False
    errs = {r: st for r, st in out.ranks.items() if st.state == "error"}
    if all(is_consequence(st.error) for st in errs.values()):
        return False  # no rank's own error anywhere (none at all, or only lost peers: await_heartbeat's case)
    mine = own_ranks(sup)
    theirs = [r for r, st in errs.items() if r not in mine and not is_consequence(st.error)]
    return bool(theirs) and all(is_consequence(st.error) for r, st in errs.items() if r in mine)


def failed_phase(out: Outcome) -> str | None:
    """The phase the first failure happened in, for a run ``watching`` stopped (RANK_FAILED_PHASE):
    the culprit's error's, else (a culprit that died without a word) the earliest error's."""
    errs = [st for st in out.ranks.values() if st.state == "error"]
    mine = [out.ranks[r] for r in out.culprits if r in out.ranks and out.ranks[r].state == "error"]
    first = min(mine or errs, key=lambda st: st.t or 0.0, default=None)
    return first.phase if first else None


def lost_to_abort(nnodes: int, ctl: ControlStore, out: Outcome) -> bool:
    """Whether a run that failed before any rank entered a phase was another node's abort: the
    stopping node's torchrun hosted the rendezvous, so this node's torchrun can die of the lost
    rendezvous store (RendezvousConnectionError) before ``watching`` reads the key (every POLL_S).
    The reporting node keeps the control store open until the members have read the key."""
    if nnodes <= 1 or out.status != "failed" or any(st.entered for st in out.ranks.values()):
        return False
    return bool(read_json(ctl, ABORT_KEY))


def peer_stopped(report: Report, ctl: ControlStore, out: Outcome) -> ExitCode:
    """This node's torchrun was stopped because another node's preflight failed."""
    rec = read_json(ctl, ABORT_KEY) or {}
    node = rec.get("node", "another node")
    said = "; ".join(f"{f.get('code')}: {f.get('message')}" for f in rec.get("findings", []))
    report.add(PEER_STOPPED.finding(
        f"{node} stopped before launching its ranks -- {said or 'no reason recorded'} -- so this node stopped "
        f"its own after {out.elapsed_s:.1f} s instead of waiting for the rendezvous or init deadline.",
        evidence=[rec]))
    report.results["run"] = {"status": "stopped", "phase": "preflight", "stopped_by": node,
                             "elapsed_s": round(out.elapsed_s, 3)}
    return ExitCode.COULD_NOT_RUN

