"""Node liveness through the control store: a node that stops answering is named, in seconds.

A whole node lost at once -- its ncclDoctor killed with its ranks, the host down, the network
to it cut -- posts nothing: no rank of it can say it failed, and its supervisor is gone with
it. So every node's supervisor beats (``check.failfast.watching``, every ``POLL_S``, N > 1
only): it publishes ``heartbeat/<i>`` = ``{"node", "ranks", "beat", "reporting", "done"}``,
``beat`` a counter that changes on every poll, ``i`` its number from ``heartbeat/count``;
and it reads the others'.

Decisions:

- Each reader times a node's silence on ITS OWN monotonic clock, from the moment it last saw
  that node's counter change: no wall-clock comparison across hosts, so clock skew between
  nodes cannot make a node lost or alive. The wall time of that last change (this reader's
  clock) is only what the report prints ("stopped answering at 12:03:41").
- A node is **lost** when its counter has not changed for ``LOST_S`` while this node's run is
  in a phase (some rank has entered one). Only a node seen beating at least once can be
  lost: one that never beat is the launch deadline's and RUN102's business.
- A node's last record says ``done`` (its watch ended: its torchrun exited, a stall or Ctrl-C
  stopped it) before it stops beating; ``done`` is final: such a node is never lost, whatever
  happens to it later.
- The control store unanswering for ``LOST_S`` from this node (every beat and read failed
  since the last that worked) is the **store lost** finding, not a node lost: the store's
  host (the reporting node) is down or was killed, or this node is cut off from it -- a node
  alone cannot tell those apart, and says so. Not while the reporting node's last record said
  ``done``: it closes the store when it has finished, and this node's ranks are its own.
- ``quiet_since(t)``: the nodes with no beat known to be published after ``t`` -- a beat first read
  after ``t`` counts only when this reader's previous read was at or after ``t`` too (a killed node's
  last beat, read a poll late, is no sign of life after the kill). A rank's "lost my peer" error while
  some node has not beaten since it was seen waits for the heartbeat's verdict (``LOST_S`` at
  most) instead of naming the rank that noticed the lost peer first (``check.failfast``).
- A member's store client gives up at its first failed call (``launch.store.RemoteControl``):
  the store-lost clock still runs from the last answer, and the finding quotes that failure.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from ncclDoctor.launch.store import ControlStore, publish_json

# Long enough for a loaded host's supervisor to miss a few beats (a GC pause, a slow psutil scan,
# a store read behind a large event) without being called lost; short enough to be well under the
# shortest phase deadline (30 s in the fast checks, 60 s by default) so a lost node is never
# mistaken for a hang (RUN003) -- and an expert hears of it in seconds, not minutes.
LOST_S = 12.0
COUNT_KEY = "heartbeat/count"


@dataclass
class Seen:
    """What this reader saw of one other node."""

    record: dict[str, Any]
    changed: float  # this reader's monotonic time when the counter last changed
    changed_wall: float  # the same moment on this reader's wall clock (for the report only)
    after: float = float("-inf")  # this reader's read before that one: the beat was published after it

    @property
    def done(self) -> bool:
        return bool(self.record.get("done"))


@dataclass
class Heartbeat:
    """This node's beat and its view of the others' (``poll`` every ``failfast.POLL_S``)."""

    ctl: ControlStore
    node: str
    reporting: bool
    lost_s: float = LOST_S
    clock: Callable[[], float] = time.monotonic
    wall: Callable[[], float] = time.time
    beat: int = 0
    key: str | None = None
    others: dict[str, Seen] = field(default_factory=dict)
    answered: float | None = None  # the last time the store answered this node (monotonic)
    store_error: str | None = None
    finished: bool = False
    found: list[dict[str, Any]] = field(default_factory=list)  # the verdict that stopped this node (``described``)
    last_read: float | None = None  # when this reader last read the others' beats (monotonic)

    def poll(self, ranks: list[int], now: float | None = None) -> None:
        """Publish this node's beat and read the others'; a store that fails is timed, never raised."""
        now = self.clock() if now is None else now
        self.answered = now if self.answered is None else self.answered  # the first failure starts the clock
        self.beat += 1
        try:
            self._publish({"node": self.node, "ranks": ranks, "beat": self.beat, "reporting": self.reporting,
                           "done": False})
            self._read(now)
        except Exception as exc:
            # the first failure says most (a member's client may have seen it first, reading events)
            self.store_error = self.store_error or getattr(self.ctl, "lost", None) or f"{type(exc).__name__}: {exc}"
            if hasattr(self.ctl, "give_up"):  # a member's client: no later call waits for it (launch.store)
                self.ctl.give_up(self.store_error)
            return
        self.answered, self.store_error = now, None

    def finish(self, status: str, ranks: list[int] | None = None) -> str | None:
        """The last record: this node's watch is over (``done`` is final). The error as text."""
        if self.finished or self.key is None:
            return None
        self.finished = True
        return publish_json(self.ctl, self.key, {"node": self.node, "ranks": ranks or [], "beat": self.beat + 1,
                                                 "reporting": self.reporting, "done": True, "status": status})

    def lost(self, now: float | None = None) -> list[Seen]:
        """The other nodes whose beat has not changed for ``lost_s`` and that never said done."""
        now = self.clock() if now is None else now
        return [s for _, s in sorted(self.others.items()) if not s.done and now - s.changed >= self.lost_s]

    def quiet_since(self, t: float) -> list[Seen]:
        """The other nodes, not done, with no beat known to be published after ``t``: a change first read
        after ``t`` may have been published before it (just before the node died), when the read before it
        came before ``t`` -- only a change read after a read at or after ``t`` proves the node alive since."""
        return [s for _, s in sorted(self.others.items()) if not s.done and s.after < t]

    def store_lost(self, now: float | None = None) -> bool:
        """The store has not answered for ``lost_s`` -- and its host had not said it was done."""
        now = self.clock() if now is None else now
        host_done = any(s.done and s.record.get("reporting") for s in self.others.values())
        return (self.store_error is not None and self.answered is not None and now - self.answered >= self.lost_s
                and not host_done)

    def store_host(self) -> str | None:
        """The reporting node's name, as last read (None when never read)."""
        return next((s.record.get("node") for s in self.others.values() if s.record.get("reporting")), None)

    def _publish(self, record: dict[str, Any]) -> None:
        if self.key is None:
            self.key = f"heartbeat/{self.ctl.store.add(COUNT_KEY, 1)}"
        self.ctl.store.set(self.key, _json(record))

    def _read(self, now: float) -> None:
        n = self.ctl.store.add(COUNT_KEY, 0)
        for i in range(1, n + 1):
            key = f"heartbeat/{i}"
            if key == self.key or not self.ctl.store.check([key]):
                continue
            rec = _loads(self.ctl.store.get(key))
            if not isinstance(rec, dict):
                continue
            seen = self.others.get(key)
            if seen is None or rec.get("beat") != seen.record.get("beat") or rec.get("done") != seen.done:
                after = self.last_read if self.last_read is not None else float("-inf")
                self.others[key] = Seen(rec, now, self.wall(), after)
            else:
                seen.record = rec
        self.last_read = now


def described(seen: Seen, lost_s: float, now: float) -> dict[str, Any]:
    """A lost node as evidence: its name, ranks, when it last beat (this node's clock), how long silent."""
    rec = seen.record
    return {"node": rec.get("node"), "ranks": list(rec.get("ranks") or []), "reporting": bool(rec.get("reporting")),
            "last_beat": rec.get("beat"), "last_beat_wall": round(seen.changed_wall, 3),
            "silent_s": round(now - seen.changed, 3), "lost_after_s": lost_s}


def _json(value: Any) -> str:
    return json.dumps(value, default=str)


def _loads(raw: bytes) -> Any:
    try:
        return json.loads(raw)
    except ValueError:
        return None
