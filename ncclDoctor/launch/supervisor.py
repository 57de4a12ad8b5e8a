"""Supervising a probe run: the control store, phase deadlines, and clean teardown.

The CLI process owns a TCPStore (the *control channel*) that workers write phase
markers and results into (``probes.control``). It is independent of the collectives
under test, so the supervisor still knows where every rank is when the data path hangs.

Deadlines: the launch (until every rank has entered ``init``) and each phase have one.
A phase's clock starts when the first rank enters it. When a deadline passes with ranks
still short of leaving the phase, the supervisor -- not the stuck workers -- decides:

- ranks that never entered the phase are **culprits** (hung or slow earlier);
- ranks waiting inside it are **victims**;
- when every rank is inside the phase, the ranks that issued the fewest collectives
  (lowest sequence number) are the culprits; if all are level, no single rank is to
  blame and the fault is the transport between them.

Then it stops the job: SIGTERM to torchrun and every descendant, SIGKILL after a
grace period, and every child is reaped before ``run`` returns.
"""

from __future__ import annotations

import datetime
import json
import signal
import subprocess
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import psutil

PHASES = ("init", "inventory", "smoke", "all_reduce", "done")
DEFAULT_DEADLINES_S = {"launch": 90.0, "init": 60.0, "inventory": 20.0, "smoke": 30.0, "all_reduce": 180.0, "structure": 120.0, "done": 20.0}
GRACE_S = 5.0
LINGER_S = 15.0  # torchrun may run this long after every rank has finished


@dataclass
class RankState:
    rank: int
    phase: str | None = None
    state: str | None = None  # enter | leave | error
    t: float | None = None
    seq: int = 0
    error: str | None = None
    left: set[str] = field(default_factory=set)
    entered: dict[str, float] = field(default_factory=dict)
    marks: list[dict[str, Any]] = field(default_factory=list)  # sweep fingerprints

    def to_dict(self) -> dict[str, Any]:
        return {"rank": self.rank, "phase": self.phase, "state": self.state, "seq": self.seq, "error": self.error, "left": sorted(self.left)}


@dataclass
class Outcome:
    """How a probe run ended.

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

    @property
    def initialized(self) -> bool:
        return bool(self.ranks) and all("init" in r.left for r in self.ranks.values())


class ControlStore:
    """The master end of the control channel, owned by the CLI process."""

    def __init__(self, host: str = "0.0.0.0", port: int = 0, timeout_s: float = 30.0):
        from torch.distributed import TCPStore

        self.store = TCPStore(host, port, is_master=True, wait_for_workers=False, timeout=datetime.timedelta(seconds=timeout_s))
        self.port = self.store.port
        self._offsets: dict[int, int] = {}

    def new_events(self, rank: int) -> list[dict[str, Any]]:
        key = f"events/{rank}"
        if not self.store.check([key]):
            return []
        raw = self.store.get(key)
        start = self._offsets.get(rank, 0)
        self._offsets[rank] = len(raw)
        out = []
        for line in raw[start:].decode("utf-8", "replace").splitlines():
            try:
                out.append(json.loads(line))
            except ValueError:
                continue
        return out

    def result(self, rank: int, phase: str) -> Any:
        key = f"result/{rank}/{phase}"
        if not self.store.check([key]):
            return None
        return json.loads(self.store.get(key))


def descendants(pid: int) -> list[psutil.Process]:
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.Error:
        return []


def stop_tree(proc: subprocess.Popen, grace_s: float = GRACE_S) -> None:
    """SIGTERM torchrun and all its descendants (workers run in their own sessions),
    SIGKILL whatever is left after ``grace_s``, and reap."""
    kids = descendants(proc.pid)
    for p in [*kids]:
        try:
            p.send_signal(signal.SIGTERM)
        except psutil.Error:
            pass
    if proc.poll() is None:
        try:
            proc.send_signal(signal.SIGTERM)
        except ProcessLookupError:
            pass
    _, alive = psutil.wait_procs(kids, timeout=grace_s)
    for p in alive + descendants(proc.pid):
        try:
            p.kill()
        except psutil.Error:
            pass
    try:
        proc.wait(timeout=grace_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=grace_s)
    psutil.wait_procs(alive, timeout=grace_s)


class Supervisor:
    def __init__(
        self,
        argv: list[str],
        env: dict[str, str],
        world_size: int,
        control: ControlStore,
        log_path: str,
        deadlines_s: dict[str, float] | None = None,
        phases: tuple[str, ...] = PHASES,
        on_event: Callable[[dict[str, Any]], None] | None = None,
        before_stop: Callable[[Supervisor, Outcome], None] | None = None,
        poll_s: float = 0.25,
    ):
        self.argv = argv
        self.env = env
        self.world_size = world_size
        self.control = control
        self.log_path = log_path
        self.deadlines = {**DEFAULT_DEADLINES_S, **(deadlines_s or {})}
        self.phases = phases
        self.on_event = on_event
        self.before_stop = before_stop
        self.poll_s = poll_s
        self.ranks = {r: RankState(r) for r in range(world_size)}
        self.phase_started: dict[str, float] = {}
        self.proc: subprocess.Popen | None = None
        self.all_left_at: float | None = None
        self.started = 0.0

    # -- events ----------------------------------------------------------------------
    def poll_events(self) -> None:
        for r, st in self.ranks.items():
            for ev in self.control.new_events(r):
                if ev["event"] in ("issue", "barrier", "progress"):
                    st.marks.append(ev)
                    continue
                st.phase, st.state, st.t = ev["phase"], ev["event"], ev["t"]
                st.seq = max(st.seq, int(ev.get("seq", 0)))
                if ev["event"] == "enter":
                    st.entered[ev["phase"]] = ev["t"]
                    self.phase_started.setdefault(ev["phase"], time.monotonic())
                elif ev["event"] == "leave":
                    st.left.add(ev["phase"])
                elif ev["event"] == "error":
                    st.error = ev.get("error")
                if self.on_event:
                    self.on_event(ev)

    def results(self) -> dict[int, dict[str, Any]]:
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

    # -- deadlines -------------------------------------------------------------------
    def _index(self, st: RankState) -> int:
        """How far a rank got: 2*i for 'inside phase i', 2*i+1 for 'left phase i'."""
        if st.phase is None or st.phase not in self.phases:
            return -1
        i = self.phases.index(st.phase)
        return 2 * i + (1 if st.state == "leave" else 0)

    def missed_deadline(self, now: float) -> tuple[str, float] | None:
        if now - self.started > self.deadlines["launch"] and any(s.phase is None for s in self.ranks.values()):
            return "launch", self.deadlines["launch"]
        for ph in self.phases:
            t0 = self.phase_started.get(ph)
            if t0 is None:
                continue
            if all(ph in s.left for s in self.ranks.values()):
                continue
            limit = self.deadlines.get(ph, 60.0)
            if now - t0 > limit:
                return ph, limit
        return None

    def blame(self, phase: str) -> tuple[list[int], list[int]]:
        states = list(self.ranks.values())
        if phase == "launch":
            return sorted(s.rank for s in states if s.phase is None), sorted(s.rank for s in states if s.phase is not None)
        target = 2 * self.phases.index(phase)
        behind = [s.rank for s in states if self._index(s) < target]
        inside = [s.rank for s in states if self._index(s) == target]
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

    # -- the run ---------------------------------------------------------------------
    def run(self) -> Outcome:
        self.started = time.monotonic()
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(
                self.argv, env=self.env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True
            )
        try:
            return self._watch()
        except KeyboardInterrupt:
            self.poll_events_safely()
            out = self._outcome("interrupted", None)
            self._stop(out)
            raise InterruptedRun(out) from None
        finally:
            if self.proc.poll() is None or descendants(self.proc.pid):
                stop_tree(self.proc)

    def poll_events_safely(self) -> None:
        try:
            self.poll_events()
        except Exception:
            pass

    def _watch(self) -> Outcome:
        assert self.proc is not None
        while True:
            self.poll_events()
            rc = self.proc.poll()
            if rc is not None:
                self.poll_events_safely()
                return self._outcome("ok" if rc == 0 else "failed", rc)
            now = time.monotonic()
            missed = self.missed_deadline(now)
            if missed:
                phase, limit = missed
                culprits, victims = self.blame(phase)
                out = self._outcome("hang", None)
                out.phase, out.culprits, out.victims, out.deadline_s = phase, culprits, victims, limit
                t0 = self.started if phase == "launch" else self.phase_started[phase]
                out.detected_after_s = now - t0
                self._stop(out)
                out.returncode = self.proc.returncode
                out.verdict_after_s = time.monotonic() - t0
                return out
            if self._lingering(now):
                out = self._outcome("ok", None)
                out.evidence["torchrun_lingered_s"] = round(now - self.all_left_at, 1)
                stop_tree(self.proc)
                out.returncode = self.proc.returncode
                return out
            time.sleep(self.poll_s)

    def _lingering(self, now: float) -> bool:
        """Every rank has left the last phase but torchrun is still up: in a multi-node job
        its agent waits in torchrun's exit barrier (300 s, not configurable) for another
        node's agent that failed. The ranks' work is done, so stop waiting."""
        if not all(self.phases[-1] in s.left for s in self.ranks.values()):
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
        except Exception:
            results = {}
        return Outcome(status, rc, time.monotonic() - self.started, dict(self.ranks), results)

    def worker_pids(self) -> dict[int, int]:
        """rank -> pid, from the inventory (falls back to torchrun's children)."""
        pids = {}
        for r in self.ranks:
            try:
                inv = self.control.result(r, "inventory")
            except Exception:
                inv = None
            if inv and inv.get("pid"):
                pids[r] = int(inv["pid"])
        return pids


class InterruptedRun(Exception):
    def __init__(self, outcome: Outcome):
        super().__init__("interrupted")
        self.outcome = outcome
