"""Stall and hang verdicts from per-rank progress snapshots: pure functions, no I/O.

Input, once per poll: a ``RankView`` per rank (the worker's latest Flight Recorder counters per
process group, how old its heartbeat is on our clock, whether its pid is alive). ``Tracker``
keeps a *stall clock* per process group:

- it restarts whenever any member's ``last_completed`` advances (progress), and whenever no
  member is inside a collective (every rank idle outside: a checkpoint save, an eval, data
  loading) -- so such pauses never count, however long;
- it runs only while some member has enqueued a collective it has not completed and nothing
  completes anywhere in the group.

The *threshold* is ``--stall-after`` when given, else learned from the job:
``max(floor, factor x p99 of the stalls that resolved by themselves, 1.5 x the longest one)``.
A resolved stall is how long a rank waited inside a collective before the group moved on, so
a job whose ranks routinely wait 3 s for a slow peer gets a longer threshold than one whose
ranks wait milliseconds. Past ``warn_after_s`` the state is ``waiting`` ("waiting on rank r
for N s"); past the threshold it is ``hang`` and ``classify`` names the kind.

A *busy* culprit holds the verdict back: when the threshold is the learned one (no
``--stall-after``) and every rank the others wait for is working -- its heartbeat is fresh and
its main thread used at least ``busy_share`` of a core since the stall began (``cpu_s`` in its
heartbeat) -- the state stays ``waiting`` (``Status.busy``) until ``busy_cap`` x the threshold
(60 s by default). That is a rank-0-only checkpoint, eval or data pass while the others wait in
the next collective. A culprit asleep or blocked (a lock, a read, a sleep: the usual hang)
uses no CPU and is called at the threshold; one spinning in Python for ever is called at the cap.

==========  ==========================================================================
missing     (a) rank(s) never issued the collective the others wait in: culprits = the
            ranks with the lowest ``last_enqueued``; victims = the ranks inside
desync      (b) every rank issued collective #k but not the same one (op or sizes differ)
inside      (c) every rank is inside the same collective: transport, network or GPU side
frozen      (d) a rank's heartbeat stopped while its pid lives (GIL held, interpreter frozen)
died        (d) a rank's process is gone
==========  ==========================================================================
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class RankView:
    rank: int
    pid: int | None = None
    host: str = ""
    local_rank: int | None = None
    pgs: dict[str, tuple[int, int]] = field(default_factory=dict)  # pg -> (last_enqueued, last_completed)
    frames: list[str] = field(default_factory=list)
    age_s: float = 0.0  # since the heartbeat last advanced, on our clock
    alive: bool | None = None  # None: not on this node, unknown
    cpu_s: float | None = None  # the worker's main thread's CPU time, from its heartbeat

    def inside(self, pg: str) -> bool:
        enq, done = self.pgs.get(pg, (-1, -1))
        return enq > done


@dataclass
class Settings:
    stall_after_s: float | None = None
    floor_s: float = 15.0
    factor: float = 10.0
    warn_after_s: float = 5.0
    stale_s: float = 5.0
    busy_share: float = 0.1  # of one core, averaged over the stall (asleep or blocked: ~0)
    busy_cap: float = 4.0  # x the threshold: a busy culprit is called a hang here at the latest


@dataclass
class Status:
    state: str  # ok | waiting | hang
    pg: str | None = None
    stalled_s: float = 0.0
    threshold_s: float = 0.0
    waiting_on: list[int] = field(default_factory=list)
    seq: int | None = None
    busy: dict[int, float] = field(default_factory=dict)  # culprit -> its main thread's CPU share in the stall


@dataclass
class Verdict:
    kind: str  # missing | desync | inside | frozen | died
    pg: str
    seq: int | None
    stalled_s: float
    threshold_s: float
    culprits: list[int] = field(default_factory=list)
    victims: list[int] = field(default_factory=list)
    ops: dict[int, str] = field(default_factory=dict)
    enqueued: dict[int, int] = field(default_factory=dict)
    completed: dict[int, int] = field(default_factory=dict)
    stale: list[int] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["ops"] = {str(k): v for k, v in self.ops.items()}
        d["enqueued"] = {str(k): v for k, v in self.enqueued.items()}
        d["completed"] = {str(k): v for k, v in self.completed.items()}
        return d


@dataclass
class _Clock:
    done: dict[int, int] = field(default_factory=dict)
    since: float | None = None  # stall clock start; None until first seen
    busy: bool = False
    cpu0: dict[int, float] = field(default_factory=dict)  # each member's main-thread CPU when the clock started
    resolved: deque = field(default_factory=lambda: deque(maxlen=512))


def p99(values) -> float:
    xs = sorted(values)
    if not xs:
        return 0.0
    return xs[min(len(xs) - 1, math.ceil(0.99 * len(xs)) - 1)]


class Tracker:
    """Feed ``observe`` every poll; it returns the worst process group's ``Status``."""

    def __init__(self, settings: Settings | None = None):
        self.settings = settings or Settings()
        self.clocks: dict[str, _Clock] = {}
        self.straggle = StragglerTally()

    def threshold(self, pg: str) -> float:
        s = self.settings
        if s.stall_after_s is not None:
            return s.stall_after_s
        res = self.clocks[pg].resolved if pg in self.clocks else ()
        return max(s.floor_s, s.factor * p99(res), 1.5 * max(res, default=0.0))

    def observe(self, now: float, views: dict[int, RankView]) -> Status:
        worst = Status("ok")
        for pg in sorted({pg for v in views.values() for pg in v.pgs}):
            st = self._observe_pg(now, pg, views)
            if (_RANK[st.state], st.stalled_s) > (_RANK[worst.state], worst.stalled_s):
                worst = st
        return worst

    def _observe_pg(self, now: float, pg: str, views: dict[int, RankView]) -> Status:
        members = {r: v for r, v in views.items() if pg in v.pgs}
        clock = self.clocks.setdefault(pg, _Clock())
        progressed = any(v.pgs[pg][1] > clock.done.get(r, v.pgs[pg][1]) for r, v in members.items())
        clock.done = {r: v.pgs[pg][1] for r, v in members.items()}
        inside = [r for r, v in members.items() if v.inside(pg)]
        if progressed and clock.busy and clock.since is not None:
            clock.resolved.append(now - clock.since)  # a wait inside a collective that ended by itself
        if clock.since is None or progressed or not inside:
            clock.since = now
            clock.cpu0 = {r: v.cpu_s for r, v in members.items() if v.cpu_s is not None}
        clock.busy = bool(inside)
        self.straggle.observe(pg, members, inside, bool(progressed))
        stalled = now - clock.since if inside else 0.0
        limit = self.threshold(pg)
        # every member silent: a machine too loaded to schedule the watchers, or ranks exiting;
        # keep watching but never call a hang on data that old
        heard = any(v.age_s <= self.settings.stale_s for v in members.values())
        lo = min((v.pgs[pg][0] for v in members.values()), default=0)
        waiting_on = sorted(r for r, v in members.items() if v.pgs[pg][0] == lo and not v.inside(pg))
        busy = self._busy(clock, members, waiting_on, stalled)
        state = "ok"
        if inside and heard and stalled >= limit and not (busy and stalled < self.settings.busy_cap * limit):
            state = "hang"
        elif inside and stalled >= self.settings.warn_after_s:
            state = "waiting"
        return Status(state, pg, stalled, limit, waiting_on, lo + 1 if waiting_on else lo, busy)

    def _busy(self, clock: _Clock, members: dict[int, RankView], culprits: list[int],
              stalled: float) -> dict[int, float]:
        """culprit -> CPU share when every culprit is working (fresh heartbeat, main thread at
        ``busy_share`` of a core or more since the stall began); {} otherwise, or under --stall-after."""
        s = self.settings
        if s.stall_after_s is not None or not culprits or stalled < s.warn_after_s:
            return {}
        shares = {}
        for r in culprits:
            v = members[r]
            if v.cpu_s is None or r not in clock.cpu0 or v.age_s > s.stale_s:
                return {}
            shares[r] = (v.cpu_s - clock.cpu0[r]) / stalled
            if shares[r] < s.busy_share:
                return {}
        return shares


_RANK = {"ok": 0, "waiting": 1, "hang": 2}


def op_at(entries: list[dict[str, Any]] | None, pg: str, seq: int) -> str | None:
    """'gloo:all_reduce [[4]]' for the Flight Recorder entry of collective #seq in ``pg``."""
    for e in entries or ():
        group = e.get("process_group") or ["", ""]
        if str(e.get("collective_seq_id")) == str(seq) and str(group[0]) == str(pg):
            return f"{e.get('profiling_name', '?')} {e.get('input_sizes', '')}".strip()
    return None


def classify(status: Status, views: dict[int, RankView], entries: dict[int, list] | None = None,
             stale_s: float = 5.0) -> Verdict:
    """Name the kind of hang, the culprits and the victims of a ``hang`` status."""
    pg = status.pg or "0"
    members = {r: v for r, v in views.items() if pg in v.pgs} or views
    enq = {r: v.pgs.get(pg, (-1, -1))[0] for r, v in members.items()}
    done = {r: v.pgs.get(pg, (-1, -1))[1] for r, v in members.items()}
    stale = sorted(r for r, v in views.items() if v.age_s > stale_s and v.alive is not False)
    v = Verdict("inside", pg, None, status.stalled_s, status.threshold_s, enqueued=enq, completed=done, stale=stale)
    dead = sorted(r for r, x in members.items() if x.alive is False)
    lo, hi = min(enq.values(), default=0), max(enq.values(), default=0)
    if dead:
        v.kind, v.culprits = "died", dead
        v.victims = sorted(r for r in members if r not in dead)
        v.seq = lo + 1 if lo < hi else hi
        return v
    if lo < hi:
        v.seq = lo + 1
        v.culprits = sorted(r for r in members if enq[r] == lo)
        v.victims = sorted(r for r in members if enq[r] > lo)
        v.kind = "frozen" if all(r in stale for r in v.culprits) else "missing"
        for r in v.victims:
            v.ops[r] = op_at((entries or {}).get(r), pg, v.seq) or ""
        return v
    v.seq = hi
    ops = {r: op_at((entries or {}).get(r), pg, hi) for r in members}
    v.ops = {r: o or "" for r, o in ops.items()}
    known = {o for o in ops.values() if o}
    if len(known) > 1:
        v.kind = "desync"
        v.culprits = _odd_ones_out(ops)
        v.victims = sorted(r for r in members if r not in v.culprits)
    elif stale:
        v.kind, v.culprits = "frozen", stale
        v.victims = sorted(r for r in members if r not in stale)
    else:
        v.victims = sorted(members)
    return v


def _odd_ones_out(ops: dict[int, str | None]) -> list[int]:
    """The ranks whose op differs from the most common one (ties: the higher op string loses)."""
    counts: dict[str, int] = {}
    for o in ops.values():
        if o:
            counts[o] = counts.get(o, 0) + 1
    common = max(sorted(counts), key=lambda o: counts[o])
    return sorted(r for r, o in ops.items() if o and o != common)


@dataclass
class StragglerTally:
    """How often each rank is the one the others wait for, sampled each poll while progress goes on.

    A sample counts when the group is uneven (some members inside a collective, exactly one
    member not yet in it). A rank that is that one member in most samples, while the group
    keeps completing collectives, is a straggler: everyone else's time inside collectives is
    spent waiting for it.
    """

    samples: dict[str, int] = field(default_factory=dict)
    last: dict[str, dict[int, int]] = field(default_factory=dict)

    def observe(self, pg: str, members: dict[int, RankView], inside: list[int], progressed: bool) -> None:
        if len(members) < 2 or not progressed:  # a stall is not straggling; count only while the group moves
            return
        self.samples[pg] = self.samples.get(pg, 0) + 1
        lo = min(v.pgs[pg][0] for v in members.values())
        behind = [r for r, v in members.items() if v.pgs[pg][0] == lo and r not in inside]
        if len(behind) == 1 and len(inside) == len(members) - 1:
            per = self.last.setdefault(pg, {})
            per[behind[0]] = per.get(behind[0], 0) + 1

    def stragglers(self, min_samples: int = 20, share: float = 0.3) -> list[dict[str, Any]]:
        """Ranks the others waited for in at least ``share`` of the samples, and at least 4x as often
        as for all other ranks together (a balanced job's laggard changes from sample to sample)."""
        out = []
        for pg, per in self.last.items():
            n = self.samples.get(pg, 0)
            if n < min_samples or not per:
                continue
            rank, hits = max(per.items(), key=lambda kv: kv[1])
            others = sum(per.values()) - hits
            if hits / n >= share and hits >= 4 * others:
                out.append({"pg": pg, "rank": rank, "share": hits / n, "samples": n})
        return out
