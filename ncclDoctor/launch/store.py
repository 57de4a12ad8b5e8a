"""The control store: a TCPStore that the supervising process owns and every rank writes to.

It is independent of the collectives under test, so the supervisor still knows where
every rank is when the data path hangs. Keys (the protocol; ``probes.control`` is the
rank side, and any other client job speaks the same):

``events/<rank>``           one JSON line per event, appended: ``{"rank", "phase",
                            "event", "t", "seq", ...}`` where ``event`` is ``enter``,
                            ``leave`` or ``error`` (phase transitions) or anything else
                            (a *mark*: progress, fingerprints; kept in order, not judged)
``result/<rank>/<phase>``   a phase's result, JSON
``ctl/dump``                set by the supervisor: ranks dump stacks and Flight Recorder
                            (``launch.evidence``); ``ack/dump/<rank>``,
                            ``evidence/stack/<rank>``, ``evidence/fr/<rank>`` are their answers
``cli/count``, ``cli/<i>``  one record per supervising node (``launch.multinode``)

``ControlStore`` binds (the reporting node; port 0 = a free port), ``RemoteControl``
connects (the other nodes of a multi-node job).
"""

from __future__ import annotations

import datetime
import json
import socket
import time
from typing import Any


class ControlStore:
    """The master end of the control channel, owned by the supervising process."""

    def __init__(self, host: str = "0.0.0.0", port: int = 0, timeout_s: float = 30.0):
        from torch.distributed import TCPStore

        self.store = TCPStore(host, port, is_master=True, wait_for_workers=False,
                              timeout=datetime.timedelta(seconds=timeout_s))
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

    def append_event(self, rank: int, rec: dict[str, Any]) -> None:
        """Append one event to ``events/<rank>`` as the rank itself would (probes.control): for a rank that cannot,
        its node's supervisor (launch.liveness). Raises when the store is gone."""
        self.store.append(f"events/{rank}", json.dumps(rec) + "\n")

    def result(self, rank: int, phase: str) -> Any:
        key = f"result/{rank}/{phase}"
        if not self.store.check([key]):
            return None
        return json.loads(self.store.get(key))


OP_TIMEOUT_S = 5.0  # a member's store call waits this long for an answer once connected (see RemoteControl)


class RemoteControl(ControlStore):
    """The client end of the control store, for the non-reporting nodes. Reads never
    raise: once the reporting node has gone, this node still supervises its own ranks.

    Once connected, every call waits ``OP_TIMEOUT_S`` at most for its answer (``timeout_s`` is
    the connect's): a store host that is down or cut off sends no reset, and torch's client
    would otherwise wait the whole ``timeout_s`` (60 s or more) in each call. Every key the
    supervisor reads is checked before it is read, so no call waits for a key to appear.
    ``give_up`` makes every later call fail at once: after a failed read (the store closed, or an
    answer that did not come in time, which leaves torch's client mid-reply: no later call on it
    can be trusted), so that no poll waits ``OP_TIMEOUT_S`` once per rank and key again."""

    def __init__(self, host: str, port: int, timeout_s: float):
        from torch.distributed import TCPStore

        self.store = TCPStore(host, port, is_master=False, timeout=datetime.timedelta(seconds=timeout_s))
        self.store.set_timeout(datetime.timedelta(seconds=min(timeout_s, OP_TIMEOUT_S)))
        self.port = port
        self._offsets: dict[int, int] = {}
        self.lost: str | None = None

    def give_up(self, why: str) -> None:
        """The store is unreachable: no later call waits for it (results, identities, the report)."""
        self.lost = self.lost or why
        if not isinstance(self.store, _Gone):  # once: its reason is the first failure's
            self.store = _Gone(why)

    def new_events(self, rank: int) -> list[dict[str, Any]]:
        try:
            return super().new_events(rank)
        except Exception as exc:  # the reporting node closed its store, or it did not answer in time
            self.give_up(f"{type(exc).__name__}: {exc}")
            return []


class _Gone:
    """Stands for a store judged unreachable: every call raises at once."""

    def __init__(self, why: str):
        self.why = why

    def __getattr__(self, name: str) -> Any:
        def gone(*_: Any, **__: Any) -> Any:
            raise ConnectionError(f"control store unreachable ({self.why})")

        return gone


def wait_listening(host: str, port: int, timeout_s: float) -> None:
    """Poll with plain TCP connects until the store listens: the reporting node may start
    later than this one, and torch's own client retries for minutes and logs each try."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            with socket.create_connection((host, port), timeout=2.0):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


def publish_json(ctl: ControlStore, key: str, value: Any) -> str | None:
    """Set ``key`` to ``value`` as JSON; the error as text when the store is gone."""
    try:
        ctl.store.set(key, json.dumps(value, default=str))
        return None
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"


def read_json(ctl: ControlStore, key: str) -> Any:
    """The JSON value at ``key``; None when absent, unreadable or the store is gone."""
    try:
        return json.loads(ctl.store.get(key)) if ctl.store.check([key]) else None
    except Exception:
        return None
