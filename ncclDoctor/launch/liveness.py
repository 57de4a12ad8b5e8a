"""A rank killed without a word, told to the other nodes by its own node's supervisor.

A rank that fails with its own error posts an ``error`` event (``probes.control``); one killed
without a word -- SIGKILL from the OOM killer or a scheduler, ``--inject exit-held`` -- posts
nothing, and where the transport does not show its connections closed (NCCL) the other nodes'
ranks wait inside the collective until the phase's deadline. Its own node knows: the supervisor
knows its workers' pids (``Supervisor.worker_pids``) and torchrun logs the child's exit. So
``Liveness.check`` (run by the supervisor on every poll when the client asks for it, and once
more when torchrun exits) posts an ``error`` event ON THAT RANK'S BEHALF to the same
``events/<rank>`` key the rank would have used, marked ``"posted_by": "supervisor"`` so nobody
takes it for the rank's own text. Every node's supervisor reads it as that rank's own failure
(``check.failfast.watching`` stops the other nodes' torchruns within its grace).

When (``to_post``, pure): the rank's process is gone (exited, or a zombie torchrun has not
reaped yet), it had posted neither its last phase's ``leave`` nor an ``error``, torchrun did
not stop it (torchrun logs "Sending process PID closing signal" before it stops the other local
ranks after a first failure: those are victims), and nothing was posted for it yet (once).

What it says (``describe``): the exit code or signal where torchrun's log (its "failed
(exitcode: ...)" line, its failure summary) or the OS (a zombie's ``/proc/PID/stat``) gives it,
torch's ``@record`` error file where the rank wrote one, "process gone" where nothing does.
Promptly: a gone rank waits ``CODE_WAIT_S`` at most (one watching poll) for its exit code, then
is posted without one; at torchrun's exit everything is posted at once (its log is complete).

The phase of the event: the phase the rank was inside; after it left one, the next (where the
others wait for it); before any, the first.
"""

from __future__ import annotations

import os
import re
import socket
import time
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

import psutil

from ncclDoctor.launch.evidence import SIGNALS, error_file_message, stopped_pids, torchrun_failures

CODE_WAIT_S = 1.0  # how long a gone rank's post waits for torchrun to log its exit code
SCAN_S = 1.0  # how often this node's worker pids are looked up (ranks start after torchrun)
POSTED_BY = "supervisor"

_FAILED = re.compile(r"failed \(exitcode: (-?\d+)\) local_rank: \d+ \(pid: (\d+)\)")


def to_post(ranks: Mapping[int, Any], last_phase: str | None, gone: Iterable[int], stopped: Iterable[int],
            posted: Iterable[int]) -> list[int]:
    """The ranks to post for: gone, not stopped by torchrun, not posted for yet, and with neither
    an ``error`` of their own nor their last phase left (``ranks``: rank -> RankState)."""
    skip = set(stopped) | set(posted)
    return sorted(r for r in set(gone) - skip if r in ranks and ranks[r].state != "error"
                  and (last_phase is None or last_phase not in ranks[r].left))


def describe(rank: int, pid: int | None, exitcode: int | None, where: str, said: str | None = None) -> str:
    """The error text posted on a gone rank's behalf: what is known, plainly."""
    who = f"rank {rank}'s process" + (f" (pid {pid})" if pid else "")
    if exitcode is None:
        how = "is gone without an error of its own (process gone: neither torchrun nor the OS gave an exit code)"
    elif exitcode < 0:
        sig = SIGNALS.get(-exitcode, f"signal {-exitcode}")
        hint = ": the OOM killer or a scheduler sends it; check dmesg / the job scheduler" if sig == "SIGKILL" else ""
        how = f"died without an error of its own (killed by {sig}{hint})"
    else:
        how = f"exited with code {exitcode} without an error event of its own" + (f" ({said})" if said else "")
    return f"{who} {how}, {where}; posted by its node's supervisor"


def where(st: Any, phases: tuple[str, ...]) -> tuple[str, str | None]:
    """(text, phase of the event) for a rank last seen in ``st``."""
    if st.phase is None:
        return "before its first phase", phases[0] if phases else None
    if st.state == "leave":
        i = phases.index(st.phase) if st.phase in phases else len(phases)
        nxt = phases[i + 1] if i + 1 < len(phases) else st.phase
        return f"after it left {st.phase!r}", nxt
    return f"inside {st.phase!r}", st.phase


def zombie_exitcode(pid: int) -> int | None:
    """A zombie's exit status from ``/proc/PID/stat`` (field 52, Linux >= 3.5), as Popen's returncode."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        if fields[0] != "Z":
            return None
        return os.waitstatus_to_exitcode(int(fields[49]))
    except (OSError, IndexError, ValueError):
        return None


def torchrun_says(log_text: str) -> tuple[set[int], dict[int, int], dict[int, int]]:
    """(pids torchrun stopped, pid -> exit code, rank -> pid of its failure records) from its log."""
    stopped = stopped_pids(log_text)
    codes = {int(m[2]): int(m[1]) for m in _FAILED.finditer(log_text)}
    fails = torchrun_failures(log_text)
    pids: dict[int, int] = {}
    for rec in [fails["root_cause"], *fails["others"]]:
        if rec:
            codes.setdefault(rec["pid"], rec["exitcode"])
            pids.setdefault(rec["rank"], rec["pid"])
    return stopped, codes, pids


class Liveness:
    """One node's watch over its ranks' processes; ``check(sup, now)`` on each supervisor poll."""

    def __init__(self, pids: Callable[[], Mapping[int, int]], log_path: str | os.PathLike | None):
        self.pids, self.log_path = pids, log_path
        self.procs: dict[int, psutil.Process] = {}
        self.error_files: dict[int, str] = {}
        self.gone: dict[int, tuple[float, float]] = {}  # rank -> (wall, monotonic) when first seen gone
        self.posted: dict[int, str] = {}  # rank -> what was posted for it
        self.posted_when: dict[int, dict[str, Any]] = {}  # rank -> wall time, and whether torchrun still ran
        self.post_errors: dict[int, str] = {}
        self.scanned = float("-inf")

    def check(self, sup: Any, now: float, final: bool = False) -> list[int]:
        """Post for this node's ranks that are gone without a word; returns the ranks posted for."""
        if not final and now - self.scanned >= SCAN_S:
            self.scanned = now
            self._scan()
        for r, p in self.procs.items():
            if r not in self.gone and not _alive(p):
                self.gone[r] = (time.time(), now)
        if not final and not set(self.gone) - set(self.posted):
            return []
        sup.poll_events_safely()  # a rank posts its own error before it exits: read it first
        stopped_pids, codes, failed = torchrun_says(self._log()) if self.log_path else (set(), {}, {})
        pid = {r: p.pid for r, p in self.procs.items()}
        if final:  # a rank that died before the first scan: torchrun's record names it
            for r, p in failed.items():
                if r not in pid and r in sup.ranks:
                    pid[r] = p
                    self.gone.setdefault(r, (time.time(), now))
        stopped = [r for r, p in pid.items() if p in stopped_pids]
        done = []
        for r in to_post(sup.ranks, sup.phases[-1] if sup.phases else None, self.gone, stopped, self.posted):
            code = codes.get(pid[r])
            code = zombie_exitcode(pid[r]) if code is None else code
            if code is None and not final and now - self.gone[r][1] < CODE_WAIT_S:
                continue  # torchrun logs it within its monitor interval, usually
            self._post(sup, r, pid[r], code, final)
            done.append(r)
        return done

    def _post(self, sup: Any, rank: int, pid: int | None, code: int | None, final: bool) -> None:
        st = sup.ranks[rank]
        text, phase = where(st, tuple(sup.phases))
        said = error_file_message(self.error_files.get(rank)) if code and code > 0 else None
        msg = describe(rank, pid, code, text, said)
        rec = {"rank": rank, "phase": phase, "event": "error", "t": self.gone[rank][0], "seq": st.seq,
               "error": msg, "posted_by": POSTED_BY, "pid": pid, "exitcode": code, "host": socket.gethostname()}
        self.posted[rank] = msg
        self.posted_when[rank] = {"t": round(time.time(), 3), "torchrun_running": not final}
        try:
            sup.control.append_event(rank, rec)
        except Exception as exc:  # the reporting node's store is gone: its own verdict stands
            self.post_errors[rank] = f"{type(exc).__name__}: {exc}"

    def _scan(self) -> None:
        try:
            found = self.pids()
        except Exception:
            return
        for r, p in found.items():
            if r in self.procs:  # never its own forked child, found under it later with the same RANK
                continue
            try:
                proc = psutil.Process(p)
                self.error_files[r] = proc.environ().get("TORCHELASTIC_ERROR_FILE", "")
                self.procs[r] = proc
            except psutil.Error:
                continue

    def _log(self) -> str:
        try:
            return Path(self.log_path).read_text(errors="replace")  # type: ignore[arg-type]
        except OSError:
            return ""

    def evidence(self) -> dict[str, Any]:
        out: dict[str, Any] = {str(r): m for r, m in sorted(self.posted.items())}
        when = {str(r): w for r, w in sorted(self.posted_when.items())}
        errors = {str(r): e for r, e in sorted(self.post_errors.items())}
        return {"posted": out, "when": when, **({"errors": errors} if errors else {})}


def _alive(p: psutil.Process) -> bool:
    try:
        return p.is_running() and p.status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False
