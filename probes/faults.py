"""Fault injection: a testing and demo aid, never on by default.

``ncclDoctor check --inject KIND:RANK[:ARG]`` (repeatable) makes one rank misbehave so
you can see what a verdict looks like, and so our tests can drive the hang and crash
localization with real processes:

=================  ==============================================================
``hang:R[:PHASE]``   rank R stops before entering PHASE (default: the first sweep, all_reduce
                     unless ``--op`` starts with another collective)
``crash:R[:PHASE]``  rank R raises before entering PHASE (same default)
``exit:R[:PHASE]``   rank R is killed by SIGKILL before PHASE (as the OOM killer does)
``fail:R[:PHASE]``   rank R raises inside PHASE (after entering it, so its ``error`` event
                     carries its own text and the phase); its process exits, and gloo
                     peers see "Connection closed by peer"
``fail-held:R[:PHASE]``  as ``fail``, but the process keeps its connections open until it
                     is stopped, as a dead NCCL peer leaves the others waiting inside the
                     collective: no disconnect frees them (``check.failfast`` must)
``exit-held:R[:PHASE]``  rank R is killed by SIGKILL inside PHASE (after entering it: no
                     ``error`` event, as the OOM killer leaves it), while a forked child
                     keeps its sockets open, as a dead NCCL peer's connections are never
                     seen closed; the child leaves once any of them is closed by the other
                     end (a peer stopped, the control store gone), ``HOLD_S`` at most.
                     Only its node's supervisor can tell the others (``launch.liveness``)
``slow:R:50ms``      rank R sleeps that long before every collective
``mismatch:R``       rank R issues its first sweep collective with a different size
``skip:R``           rank R skips its first sweep collective
``corrupt:R[:N]``    rank R's result of every checked all_reduce (the smoke and
                     each sweep size) has N elements (default 1) changed after the
                     collective and before the exact check, as silent data
                     corruption on that rank's path would: the check counts them
                     (``#wrong``, "Out of bounds values"), RUN005 names the rank
=================  ==============================================================
"""

from __future__ import annotations

import os
import select
import signal
import socket
import stat
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any

KINDS = ("hang", "crash", "exit", "fail", "fail-held", "exit-held", "slow", "mismatch", "skip", "corrupt")
DEFAULT_PHASE = "all_reduce"
HOLD_S = 3600.0  # fail-held, exit-held: the supervisor stops the process (the peers) long before


@dataclass(frozen=True)
class Fault:
    kind: str
    rank: int
    arg: str | None = None

    def spec(self) -> str:
        return f"{self.kind}:{self.rank}" + (f":{self.arg}" if self.arg else "")


def parse_duration_s(text: str) -> float:
    t = text.strip().lower()
    for unit, mult in (("ms", 1e-3), ("us", 1e-6), ("s", 1.0)):
        if t.endswith(unit):
            return float(t[: -len(unit)]) * mult
    return float(t) * 1e-3  # bare numbers are milliseconds


def parse(spec: str) -> Fault:
    """Parse ``KIND:RANK[:ARG]``; raises ValueError naming the bad part."""
    parts = spec.split(":")
    if len(parts) < 2 or parts[0] not in KINDS:
        raise ValueError(f"bad --inject {spec!r}: expected KIND:RANK[:ARG] with KIND one of {', '.join(KINDS)}")
    try:
        rank = int(parts[1])
    except ValueError:
        raise ValueError(f"bad --inject {spec!r}: rank {parts[1]!r} is not an integer") from None
    if rank < 0:
        raise ValueError(f"bad --inject {spec!r}: rank must be >= 0")
    arg = ":".join(parts[2:]) or None
    if parts[0] == "slow":
        if arg is None:
            raise ValueError(f"bad --inject {spec!r}: slow needs a duration, e.g. slow:1:50ms")
        try:
            parse_duration_s(arg)
        except ValueError:
            raise ValueError(f"bad --inject {spec!r}: {arg!r} is not a duration like 50ms") from None
    if parts[0] == "corrupt" and arg is not None and not (arg.isdigit() and int(arg) >= 1):
        raise ValueError(f"bad --inject {spec!r}: corrupt takes a count of elements >= 1, e.g. corrupt:1:3")
    return Fault(parts[0], rank, arg)


class RankFaults:
    """The faults that apply to one rank, called from the worker's hooks."""

    def __init__(self, faults: list[Fault]):
        self.faults = faults
        self.sweep_collectives = 0
        self.default_phase = DEFAULT_PHASE  # the worker sets its first sweep phase (--op)
        self.delay_s = sum(parse_duration_s(f.arg) for f in faults if f.kind == "slow" and f.arg)
        self.corrupt = sum(int(f.arg or 1) for f in faults if f.kind == "corrupt")

    def before_phase(self, phase: str, worker: Any) -> None:
        for f in self.faults:
            if f.kind in ("hang", "crash", "exit") and (f.arg or self.default_phase) == phase:
                if f.kind == "hang":
                    while True:  # the supervisor's deadline ends this, not us
                        time.sleep(3600)
                if f.kind == "exit":
                    os.kill(os.getpid(), signal.SIGKILL)
                raise RuntimeError(f"ncclDoctor injected crash on rank {f.rank} before phase {phase!r}")

    def inside_phase(self, phase: str) -> None:
        """Called after the rank entered ``phase``: ``fail`` and ``fail-held`` raise here,
        ``exit-held`` is killed here."""
        for f in self.faults:
            if f.kind == "exit-held" and (f.arg or self.default_phase) == phase:
                print(f"ncclDoctor injected: rank {f.rank} (pid {os.getpid()}) killed by SIGKILL inside {phase!r} "
                      f"at {time.time():.3f}, a child holding its connections", file=sys.stderr, flush=True)
                if os.fork() == 0:  # the child: never returns
                    _hold_connections()
                os.kill(os.getpid(), signal.SIGKILL)
            if f.kind in ("fail", "fail-held") and (f.arg or self.default_phase) == phase:
                if f.kind == "fail-held":
                    # not a daemon: the interpreter waits for it after the traceback, so the
                    # process group's sockets stay open and no peer sees a disconnect
                    threading.Thread(target=time.sleep, args=(HOLD_S,), name="ncclDoctor-fail-held").start()
                raise RuntimeError(f"ncclDoctor injected failure on rank {f.rank} in phase {phase!r}")

    def before_collective(self, worker: Any, tensor: Any) -> bool:
        """Return False to skip this collective."""
        if self.delay_s:
            time.sleep(self.delay_s)
        return True

    def sweep_tensor(self, tensor: Any) -> Any | None:
        """For the first sweep collective: a replacement tensor, or None to skip it."""
        self.sweep_collectives += 1
        if self.sweep_collectives != 1:
            return tensor
        kinds = {f.kind for f in self.faults}
        if "skip" in kinds:
            return None
        if "mismatch" in kinds:
            import torch

            return torch.empty(tensor.numel() * 2, dtype=tensor.dtype, device=tensor.device).fill_(1)
        return tensor


    def after_checked_collective(self, tensor: Any) -> None:
        """Change ``corrupt`` elements of a result about to be checked exactly: spread
        over the buffer (first, then evenly), each off by +1 (integers in float32
        stay exact, so every changed element is counted once)."""
        n = min(self.corrupt, tensor.numel())
        if n:
            step = max(1, tensor.numel() // n)
            tensor[: n * step : step] += 1


def _tcp_sockets() -> list[int]:
    """This process's connected TCP sockets (listeners left out): the process group's and the stores'."""
    out = []
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        try:
            if not stat.S_ISSOCK(os.fstat(fd).st_mode):
                continue
            with socket.socket(fileno=os.dup(fd)) as s:
                if s.family in (socket.AF_INET, socket.AF_INET6) and s.type == socket.SOCK_STREAM \
                        and not s.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN):
                    out.append(fd)
        except OSError:
            continue
    return out


def _hold_connections() -> None:
    """exit-held's child: the killed rank's sockets stay open (no peer sees a disconnect) until
    one of them is closed from the other end -- a peer stopped, the control store gone -- and
    then this process leaves at once, so nothing outlives the job. Whatever arrives is read and
    dropped, as a dead peer's buffers would be."""
    code = 0
    try:
        fds = _tcp_sockets()
        poll = select.poll()
        for fd in fds:
            poll.register(fd, select.POLLIN | select.POLLRDHUP)
        end = time.monotonic() + HOLD_S
        while fds and time.monotonic() < end:
            for fd, ev in poll.poll(1000):
                if ev & (select.POLLHUP | select.POLLERR | select.POLLRDHUP | select.POLLNVAL):
                    return
                try:
                    if not os.read(fd, 1 << 16):
                        return
                except BlockingIOError:
                    continue
                except OSError:
                    return
    except BaseException:
        code = 1
    finally:
        os._exit(code)


def for_rank(specs: list[str], rank: int) -> RankFaults:
    return RankFaults([f for f in map(parse, specs) if f.rank == rank])
