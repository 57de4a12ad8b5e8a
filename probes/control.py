"""The worker side of the control channel.

The supervising CLI owns a TCPStore (``NCCLDOCTOR_CONTROL=host:port``) that does not
depend on the collectives under test. Each rank appends one JSON line per event to
``events/<rank>`` (phase enter/leave, progress, errors) and sets
``result/<rank>/<phase>`` when a phase has a result. The supervisor reads both while
the job runs, so it knows who is where even when the data path hangs.
"""

from __future__ import annotations

import contextlib
import datetime
import json
import os
import time
from typing import Any, Iterator

ENV_CONTROL = "NCCLDOCTOR_CONTROL"


class Control:
    def __init__(self, address: str, rank: int, timeout_s: float = 30.0):
        from torch.distributed import TCPStore

        host, _, port = address.rpartition(":")
        self.rank = rank
        self.store = TCPStore(
            host.strip("[]"),
            int(port),
            is_master=False,
            timeout=datetime.timedelta(seconds=timeout_s),
        )
        self.seq = 0  # collectives this rank has issued (all phases)

    @classmethod
    def from_env(cls, rank: int) -> Control | None:
        addr = os.environ.get(ENV_CONTROL)
        return cls(addr, rank) if addr else None

    def event(self, phase: str, event: str, **extra: Any) -> None:
        rec = {"rank": self.rank, "phase": phase, "event": event, "t": time.time(), "seq": self.seq, **extra}
        self.store.append(f"events/{self.rank}", json.dumps(rec) + "\n")

    def publish(self, phase: str, result: Any) -> None:
        self.store.set(f"result/{self.rank}/{phase}", json.dumps(result, default=str))

    @contextlib.contextmanager
    def phase(self, name: str) -> Iterator[None]:
        self.event(name, "enter")
        try:
            yield
        except BaseException as exc:
            with contextlib.suppress(Exception):
                self.event(name, "error", error=f"{type(exc).__name__}: {exc}"[:2000])
            raise
        self.event(name, "leave")
