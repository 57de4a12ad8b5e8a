"""Supervising any torchrun job through the control store: phases, deadlines, teardown.

Usage (the probes of ``ncclDoctor check`` are one client; a user's own job is another)::

    control = ControlStore()                       # or RemoteControl on a member node
    sup = Supervisor(argv, child_env(env, roots) | {"NCCLDOCTOR_CONTROL": f"host:{control.port}"},
                     world_size, control, log_path="run/torchrun.log",
                     phases=("init", "train", "done"),               # the client's phases, in order
                     deadlines_s={"launch": 90, "init": 60, "train": 600},
                     before_stop=evidence.collector(run_dir))        # stacks + Flight Recorder
    sup.start()
    outcome = sup.wait()        # -> Outcome; raises InterruptedRun on Ctrl-C / SIGTERM
    # sup.run() is start() + wait(); sup.stop() tears the job down at any time.

Definitions
-----------
phase
    A named step that every rank enters and leaves, in the order the client gives
    (``enter``/``leave``/``error`` events under ``events/<rank>``, ``launch.store``).
    The supervisor knows no phase names of its own: the client passes them.
mark
    Any other event (progress, the first collective of a size): kept on the rank's
    state in order (``RankState.marks``) for the client's analysis, never judged here.
deadline
    ``launch`` (until every rank has sent its first event) and one per phase, whose
    clock starts when the first rank enters it (``default_deadline_s`` when a phase has
    none). A client with no phases, or with a policy of its own (no progress for N s),
    passes ``stall=callable(sup, now) -> Stall | None`` instead.
culprit and victim
    When a deadline passes with ranks still short of leaving the phase, the supervisor
    -- not the stuck workers -- decides: ranks that never entered the phase are
    **culprits** (hung or slow earlier); ranks waiting inside it are **victims**; when
    every rank is inside, the ranks that issued the fewest collectives (lowest ``seq``)
    are the culprits; if all are level, no single rank is to blame and the fault is
    the transport between them.

Evidence: ``before_stop(sup, outcome)`` runs before anything is killed (a hang,
Ctrl-C); ``launch.evidence.collector`` gathers every rank's stacks and Flight Recorder.
Its errors are recorded in ``outcome.evidence``, never raised: stopping is not optional.

Liveness (``liveness=True``, ``launch.liveness``): a rank of this node whose process is gone
without an ``error`` event or its last phase's ``leave`` (SIGKILL, the OOM killer) gets one
posted on its behalf (``"posted_by": "supervisor"``), within about a poll -- at the latest the
moment this node's torchrun exits, while this process and the control store are still up -- so
that other nodes' supervisors learn of it.

Teardown: SIGTERM to torchrun and every descendant, SIGKILL after a grace period, every
child reaped before ``wait`` returns (``launch.process.stop_tree``). A torchrun that
lingers after every rank has left the last phase (its exit barrier waits 300 s for a
failed peer node) is stopped after ``LINGER_S``.
"""

from __future__ import annotations

import subprocess
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from ncclDoctor.launch.liveness import Liveness
from ncclDoctor.launch.process import descendants, ranks_of, start_logged, stop_tree
from ncclDoctor.launch.store import ControlStore

LAUNCH_DEADLINE_S = 90.0
DEFAULT_DEADLINE_S = 60.0
LINGER_S = 15.0  # torchrun may run this long after every rank has finished
TRANSITIONS = ("enter", "leave", "error")


@dataclass
class RankState:
    rank: int
    phase: str | None = None
    state: str | None = None  # enter | leave | error
    t: float | None = None
    seq: int = 0
    error: str | None = None
    error_by: str | None = None  # who posted the error when not the rank itself ("supervisor": launch.liveness)
    left: set[str] = field(default_factory=set)
    entered: dict[str, float] = field(default_factory=dict)
    marks: list[dict[str, Any]] = field(default_factory=list)  # events that are not phase transitions

    def to_dict(self) -> dict[str, Any]:
        return {"rank": self.rank, "phase": self.phase, "state": self.state, "seq": self.seq, "error": self.error,
                "left": sorted(self.left)}


@dataclass
class Outcome:
    """How a supervised job ended.

    ``status``: ``ok`` (torchrun exited 0), ``failed`` (a rank or torchrun exited non-zero),
    ``hang`` (a deadline passed), ``interrupted`` (Ctrl-C / SIGTERM).
    """

    status: str
    returncode: int | None
    elapsed_s: float
    ranks: dict[int, RankState]
    results: dict[int, dict[str, Any]]
    phase: str | None = None  # the phase whose deadline passed
    culprits: list[int] = field(default_factory=list)
    victims: list[int] = field(default_factory=list)
    deadline_s: float | None = None
    detected_after_s: float | None = None
    verdict_after_s: float | None = None  # phase start -> evidence gathered, job stopped
    finished_wall: float = field(default_factory=time.time)
    evidence: dict[str, Any] = field(default_factory=dict)

    def passed(self, phase: str) -> bool:
        """Every rank has left ``phase``."""
        return bool(self.ranks) and all(phase in r.left for r in self.ranks.values())


@dataclass(frozen=True)
class Stall:
    """A stall policy's verdict: ``phase`` missed ``limit_s``, counted from ``since``
    (a monotonic time). A policy that knows who is stuck passes ``culprits`` and
    ``victims``; otherwise ``Supervisor.blame(phase)`` decides."""

    phase: str
    limit_s: float
    since: float
    culprits: tuple[int, ...] | None = None
    victims: tuple[int, ...] | None = None


class InterruptedRun(Exception):
    def __init__(self, outcome: Outcome):
        super().__init__("interrupted")
        self.outcome = outcome


class Supervisor:
    """One torchrun job under supervision; see the module docstring."""

    def __init__(
        self,
        argv: list[str],
        env: dict[str, str],
        world_size: int,
        control: ControlStore,
        log_path: str,
        phases: tuple[str, ...],
        deadlines_s: dict[str, float] | None = None,
        on_event: Callable[[dict[str, Any]], None] | None = None,
        before_stop: Callable[[Supervisor, Outcome], None] | None = None,
        stall: Callable[[Supervisor, float], Stall | None] | None = None,
        default_deadline_s: float = DEFAULT_DEADLINE_S,
        poll_s: float = 0.25,
        liveness: bool = False,
    ):
        self.argv, self.env, self.world_size = argv, env, world_size
        self.control, self.log_path = control, log_path
        self.phases = tuple(phases)
        self.deadlines = {"launch": LAUNCH_DEADLINE_S, **(deadlines_s or {})}
        self.default_deadline_s = default_deadline_s
        self.on_event, self.before_stop, self.poll_s = on_event, before_stop, poll_s
        self.stall = stall or Supervisor.missed_deadline
        self.ranks = {r: RankState(r) for r in range(world_size)}
        self.phase_started: dict[str, float] = {}
        self.proc: subprocess.Popen | None = None
        self.all_left_at: float | None = None
        self.started = 0.0
        self.store_error: str | None = None  # the last control-store read that failed (kept as evidence)
        self.liveness = Liveness(self.worker_pids, log_path) if liveness else None

    # -- the API ---------------------------------------------------------------------
    def start(self) -> None:
        self.started = time.monotonic()
        self.proc = start_logged(self.argv, self.env, self.log_path)

    def wait(self) -> Outcome:
        """Watch until the job exits, stalls or is interrupted; always reaps."""
        assert self.proc is not None, "start() first"
        try:
            return self._watch()
        except KeyboardInterrupt:
            self.store_error = self.poll_events_safely() or self.store_error
            out = self._outcome("interrupted", None)
            self._stop(out)
            raise InterruptedRun(out) from None
        finally:
            self.stop()

    def run(self) -> Outcome:
        self.start()
        return self.wait()

    def stop(self) -> None:
        """Tear the job down now (idempotent)."""
        if self.proc is not None and (self.proc.poll() is None or descendants(self.proc.pid)):
            stop_tree(self.proc)

    def worker_pids(self) -> dict[int, int]:
        """rank -> pid of this node's workers (read from their environment)."""
        return ranks_of(self.proc.pid) if self.proc is not None else {}

    def results(self) -> dict[int, dict[str, Any]]:
        """rank -> {phase: result} for every phase with a published result."""
        out: dict[int, dict[str, Any]] = {}
        for r in self.ranks:
            out[r] = {}
            for ph in self.phases:
                try:
                    res = self.control.result(r, ph)
                except Exception:
                    res = None
                if res is not None:
                    out[r][ph] = res
        return out

    # -- events ----------------------------------------------------------------------
    def poll_events(self) -> None:
        for st in self.ranks.values():
            for ev in self.control.new_events(st.rank):
                if ev.get("event") not in TRANSITIONS:
                    st.marks.append(ev)
                    continue
                self._transition(st, ev)

    def _transition(self, st: RankState, ev: dict[str, Any]) -> None:
        st.phase, st.state, st.t = ev["phase"], ev["event"], ev["t"]
        st.seq = max(st.seq, int(ev.get("seq", 0)))
        if ev["event"] == "enter":
            st.entered[ev["phase"]] = ev["t"]
            self.phase_started.setdefault(ev["phase"], time.monotonic())
        elif ev["event"] == "leave":
            st.left.add(ev["phase"])
        else:
            st.error, st.error_by = ev.get("error"), ev.get("posted_by")
        if self.on_event:
            self.on_event(ev)

    def poll_events_safely(self) -> str | None:
        """poll_events, for the moments after a job ended: the error as text, never raised."""
        try:
            self.poll_events()
            return None
        except Exception as exc:
            return f"{type(exc).__name__}: {exc}"

    # -- deadlines -------------------------------------------------------------------
    def _index(self, st: RankState) -> int:
        """How far a rank got: 2*i for 'inside phase i', 2*i+1 for 'left phase i'."""
        if st.phase is None or st.phase not in self.phases:
            return -1
        i = self.phases.index(st.phase)
        return 2 * i + (1 if st.state == "leave" else 0)

    def missed_deadline(self, now: float) -> Stall | None:
        """The default stall policy: the launch deadline, then each phase's."""
        if now - self.started > self.deadlines["launch"] and any(s.phase is None for s in self.ranks.values()):
            return Stall("launch", self.deadlines["launch"], self.started)
        for ph in self.phases:
            t0 = self.phase_started.get(ph)
            if t0 is None or all(ph in s.left for s in self.ranks.values()):
                continue
            limit = self.deadlines.get(ph, self.default_deadline_s)
            if now - t0 > limit:
                return Stall(ph, limit, t0)
        return None

    def blame(self, phase: str) -> tuple[list[int], list[int]]:
        """(culprits, victims) for a stall in ``phase`` (see the module docstring)."""
        states = list(self.ranks.values())
        if phase == "launch":
            never = sorted(s.rank for s in states if s.phase is None)
            return never, sorted(s.rank for s in states if s.phase is not None)
        if phase in self.phases:
            target = 2 * self.phases.index(phase)
            behind = [s.rank for s in states if self._index(s) < target]
            inside = [s.rank for s in states if self._index(s) == target]
        else:  # a stall policy's own name: every rank is "inside" it
            behind, inside = [], [s.rank for s in states]
        if behind:
            return sorted(behind), sorted(inside)
        if inside:
            low = min(self.ranks[r].seq for r in inside)
            high = max(self.ranks[r].seq for r in inside)
            if low < high:
                culprits = [r for r in inside if self.ranks[r].seq == low]
                return sorted(culprits), sorted(r for r in inside if r not in culprits)
            return [], sorted(inside)
        return [], []

    # -- the watch -------------------------------------------------------------------
    def _watch(self) -> Outcome:
        assert self.proc is not None
        while True:
            self.poll_events()
            rc = self.proc.poll()
            if rc is not None:
                self._liveness(time.monotonic(), final=True)
                self.store_error = self.poll_events_safely() or self.store_error
                return self._outcome("ok" if rc == 0 else "failed", rc)
            now = time.monotonic()
            self._liveness(now)
            stall = self.stall(self, now)
            if stall:
                return self._stalled(stall, now)
            if self._lingering(now):
                out = self._outcome("ok", None)
                out.evidence["torchrun_lingered_s"] = round(now - self.all_left_at, 1)
                stop_tree(self.proc)
                out.returncode = self.proc.returncode
                return out
            try:  # not a plain sleep: torchrun's exit is seen at once, not up to poll_s later
                self.proc.wait(timeout=self.poll_s)
            except subprocess.TimeoutExpired:
                pass

    def _liveness(self, now: float, final: bool = False) -> None:
        if self.liveness is not None:
            try:
                self.liveness.check(self, now, final)
            except Exception as exc:  # never stops the watch: the deadlines still hold
                self.store_error = f"liveness: {type(exc).__name__}: {exc}"

    def _stalled(self, stall: Stall, now: float) -> Outcome:
        out = self._outcome("hang", None)
        out.phase, out.deadline_s = stall.phase, stall.limit_s
        if stall.culprits is not None:
            out.culprits, out.victims = sorted(stall.culprits), sorted(stall.victims or ())
        else:
            out.culprits, out.victims = self.blame(stall.phase)
        out.detected_after_s = now - stall.since
        self._stop(out)
        out.returncode = self.proc.returncode
        out.verdict_after_s = time.monotonic() - stall.since
        return out

    def _lingering(self, now: float) -> bool:
        """Every rank has left the last phase but torchrun is still up: in a multi-node job
        its agent waits in torchrun's exit barrier (300 s, not configurable) for another
        node's agent that failed. The ranks' work is done, so stop waiting."""
        if not self.phases or not all(self.phases[-1] in s.left for s in self.ranks.values()):
            return False
        if self.all_left_at is None:
            self.all_left_at = now
        return now - self.all_left_at > LINGER_S

    def _stop(self, out: Outcome) -> None:
        if self.before_stop is not None:
            try:
                self.before_stop(self, out)
            except Exception as exc:  # evidence is best effort; stopping is not
                out.evidence["before_stop_error"] = f"{type(exc).__name__}: {exc}"
        stop_tree(self.proc)

    def _outcome(self, status: str, rc: int | None) -> Outcome:
        try:
            results = self.results()
        except Exception as exc:
            results = {}
            self.store_error = f"results: {type(exc).__name__}: {exc}"
        out = Outcome(status, rc, time.monotonic() - self.started, dict(self.ranks), results)
        if self.store_error:
            out.evidence["control_store_error"] = self.store_error
        if self.liveness is not None and self.liveness.posted:
            out.evidence["posted_for_gone_ranks"] = self.liveness.evidence()
        return out
