"""The receiving end of the workers' heartbeats: a UDP socket owned by the ncclDoctor process.

Each prepared worker sends one JSON datagram per poll (see ``inject/_ncd_live_watcher.py``).
``Collector`` keeps, per rank, the latest record and the monotonic time its heartbeat counter
``n`` last changed on *our* clock, so freshness never depends on the workers' clocks (nodes
of a multi-node job disagree by more than a poll).
"""

from __future__ import annotations

import json
import socket
import threading
import time
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Beat:
    record: dict[str, Any]
    seen_at: float  # monotonic, when ``n`` last changed
    count: int = 1


@dataclass
class Collector:
    host: str = "0.0.0.0"
    port: int = 0
    beats: dict[int, Beat] = field(default_factory=dict)
    progress_seen: bool = False  # some worker reported Flight Recorder counters at least once

    def __post_init__(self) -> None:
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 22)
        self._sock.bind((self.host, self.port))
        self._sock.settimeout(0.2)
        self.port = self._sock.getsockname()[1]
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, name="ncd_live_collector", daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                data, sender = self._sock.recvfrom(65536)
            except (socket.timeout, OSError):
                continue
            try:
                rec = json.loads(data)
                rank = int(rec["rank"])
            except (ValueError, KeyError, TypeError):
                continue
            rec["addr"] = sender[0]  # the node's address as the network sees it (hostnames repeat in containers)
            self.accept(rank, rec, time.monotonic())

    def accept(self, rank: int, rec: dict[str, Any], now: float) -> None:
        with self._lock:
            # a beat's counters, or a goodbye saying its Flight Recorder held some (a job shorter than a poll)
            self.progress_seen = self.progress_seen or bool(rec.get("pgs")) or bool(rec.get("fr_seen"))
            old = self.beats.get(rank)
            if old is not None and old.record.get("exiting") and old.record.get("pid") == rec.get("pid"):
                return  # it said goodbye; a late datagram from its dying thread changes nothing
            if old is None or old.record.get("pid") != rec.get("pid"):
                self.beats[rank] = Beat(rec, now)
            elif rec.get("exiting") or rec.get("n", 0) > old.record.get("n", 0):
                # the goodbye counts whatever its n: the exit handler numbers it from the counter while the
                # publisher thread, still alive at exit, may take that number for one last beat first (CI stop 37)
                self.beats[rank] = Beat(rec, now, old.count + 1)

    def snapshot(self) -> dict[int, Beat]:
        with self._lock:
            return dict(self.beats)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        self._sock.close()
