"""Child processes: their environment, their start, and their teardown.

Every job we start (torchrun for the probes, for the reference trainer, for a user's
job) goes through ``start_logged`` and ends in ``stop_tree``: a new session, stdout and
stderr into one log file, and on teardown SIGTERM to the whole tree, SIGKILL after a
grace period, every child reaped. Nothing here waits without a deadline.

torchrun without a second import of torch: ``python -m torch.distributed.run`` spends
about as long importing torch as the whole sweep of a small check takes on a CPU host,
and ncclDoctor has already imported torch by then (host facts, the control store). So
on POSIX, when ``torch.distributed`` is loaded, ``start_logged`` forks this process
and runs torchrun's ``main`` in the child (``_exec_torchrun``: new session, the log on
stdout/stderr, the job's environment and argv, default signal handlers) instead of
exec'ing a fresh interpreter. The ranks are still fresh processes that torchrun
starts. ``NCCLDOCTOR_TORCHRUN_FORK=0`` turns it off (a plain ``subprocess.Popen``).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from typing import Iterable

import psutil

GRACE_S = 5.0
TORCHRUN = ("-m", "torch.distributed.run")


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
    """Start ``argv`` in its own session with stdout and stderr appended to ``log_path``
    (torchrun, when torch is already imported here: forked, see the module docstring)."""
    if _can_fork_torchrun(argv, env):
        return ForkedTorchrun(argv, env, log_path)  # type: ignore[return-value]
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


def _can_fork_torchrun(argv: list[str], env: dict[str, str]) -> bool:
    return (os.name == "posix" and tuple(argv[1:3]) == TORCHRUN and argv[0] == sys.executable
            and "torch.distributed" in sys.modules
            and os.environ.get("NCCLDOCTOR_TORCHRUN_FORK", env.get("NCCLDOCTOR_TORCHRUN_FORK", "1")) != "0"
            and _no_import_in_flight())


def _no_import_in_flight(wait_s: float = 30.0) -> bool:
    """Our own background imports (``report.html.preload``: threads named
    ``ncclDoctor-preload-*``) finished: a fork while one holds a module's import lock
    would leave the child waiting on that lock for ever. Waits up to ``wait_s``; False
    (start torchrun the ordinary way) if one is still running."""
    import threading

    busy = [t for t in threading.enumerate() if t.name.startswith("ncclDoctor-preload")]
    end = time.monotonic() + wait_s
    for t in busy:
        t.join(timeout=max(0.0, end - time.monotonic()))
    return not any(t.is_alive() for t in busy)


class ForkedTorchrun:
    """torchrun in a forked child of this process; the part of ``subprocess.Popen`` that
    the supervisors and ``stop_tree`` use (``pid``, ``poll``, ``wait``, ``returncode``,
    ``send_signal``, ``terminate``, ``kill``)."""

    def __init__(self, argv: list[str], env: dict[str, str], log_path: str | os.PathLike):
        self.args = argv
        self.returncode: int | None = None
        sys.audit("subprocess.Popen", argv[0], argv, None, env)  # as Popen does: audit hooks see torchrun start
        log = os.open(log_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        for stream in (sys.stdout, sys.stderr):  # nothing buffered here is written twice
            try:
                stream.flush()
            except (OSError, ValueError, AttributeError):
                pass
        pid = os.fork()
        if pid == 0:  # the child: never returns
            _exec_torchrun(argv, env, log)
        os.close(log)
        self.pid = pid

    def poll(self) -> int | None:
        if self.returncode is None:
            try:
                pid, status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:  # reaped elsewhere
                self.returncode = -1
                return self.returncode
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        end = None if timeout is None else time.monotonic() + timeout
        delay = 0.001
        while self.poll() is None:
            if end is not None and time.monotonic() >= end:
                raise subprocess.TimeoutExpired(self.args, timeout)
            time.sleep(delay)
            delay = min(2 * delay, 0.02)
        return self.returncode  # type: ignore[return-value]

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:
            os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


def _exec_torchrun(argv: list[str], env: dict[str, str], log: int) -> None:
    """In the forked child: become ``python -m torch.distributed.run ARGS`` and exit."""
    code = 1
    try:
        os.setsid()
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGPIPE):
            signal.signal(sig, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(log, 1)
        os.dup2(log, 2)
        sys.stdout = open(1, "w", buffering=1, closefd=False)  # not whatever the parent had (a capture)
        sys.stderr = open(2, "w", buffering=1, closefd=False)
        os.environ.clear()
        os.environ.update(env)
        sys.argv = ["torch.distributed.run", *argv[3:]]
        import runpy

        runpy.run_module("torch.distributed.run", run_name="__main__", alter_sys=True)
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:
        import traceback

        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
        os._exit(code)
