"""Child processes: their environment, their start, and their teardown.

Every job we start (torchrun for the probes, for the reference trainer, for a user's
job) goes through ``start_logged`` and ends in ``stop_tree``: a new session, stdout and
stderr into one log file, and on teardown SIGTERM to the whole tree, SIGKILL after a
grace period, every child reaped. Nothing here waits without a deadline.
"""

from __future__ import annotations

import os
import signal
import subprocess
from typing import Iterable

import psutil

GRACE_S = 5.0


def child_env(env: dict[str, str], import_roots: Iterable[str] = ()) -> dict[str, str]:
    """``env`` plus what a torchrun child needs from us: one OpenMP thread per rank
    unless set (what torchrun would set, without its banner), unbuffered output so logs
    are current when a rank hangs, and ``import_roots`` first on PYTHONPATH (so that
    ``-m module`` works from a source checkout as well as an install)."""
    out = dict(env)
    out.setdefault("OMP_NUM_THREADS", "1")
    out["PYTHONUNBUFFERED"] = "1"
    parts = [*import_roots, *[x for x in env.get("PYTHONPATH", "").split(os.pathsep) if x]]
    out["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(parts))
    return out


def start_logged(argv: list[str], env: dict[str, str], log_path: str | os.PathLike) -> subprocess.Popen:
    """Start ``argv`` in its own session with stdout and stderr appended to ``log_path``."""
    with open(log_path, "ab") as log:
        return subprocess.Popen(argv, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                start_new_session=True)


def descendants(pid: int) -> list[psutil.Process]:
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.Error:
        return []


def ranks_of(pid: int) -> dict[int, int]:
    """rank -> pid of the torchrun workers under ``pid`` on this machine (their ``RANK``
    environment variable); ranks on other nodes are not here, by construction."""
    found: dict[int, int] = {}
    for p in descendants(pid):
        try:
            rank = p.environ().get("RANK")
        except psutil.Error:
            continue
        if rank is not None and rank.isdigit() and "LOCAL_RANK" in p.environ():
            found.setdefault(int(rank), p.pid)
    return found


def stop_tree(proc: subprocess.Popen, grace_s: float = GRACE_S) -> None:
    """SIGTERM the process and all its descendants (workers run in their own sessions),
    SIGKILL whatever is left after ``grace_s``, and reap."""
    kids = descendants(proc.pid)
    for p in kids:
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
