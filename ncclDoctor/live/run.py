"""``ncclDoctor run [options] -- <torchrun line>``: the user's job, watched, with a verdict in seconds.

Multi-node: run one ``ncclDoctor run`` per node around that node's torchrun. The reporting
node binds its collector to a known port (``--collector-port P``); every other node adds
``--report-to HOST:P``, so its workers send their heartbeats to both collectors. The reporting
node then judges with every rank in view and names the culprit's rank, node (its address as
the network sees it) and pid; the other nodes pass their job through and judge nothing (they
see only their own ranks). Evidence (FR dumps, stacks) is gathered on the reporting node
only, for its own ranks; remote culprits are named with the top frames of their last heartbeat.

The job runs as it would without ncclDoctor (``launch``): same argv, the caller's environment
plus ours, output passed through byte for byte, exit code returned unchanged. Workers report
their Flight Recorder progress to our collector once per poll (``inject/``), the tracker
(``detect``) turns that into ok / waiting / hang, and a hang gets one verdict with evidence
(``watch``). Then, per ``--on-hang``:

``report`` (default)  write the report and leave the job alone: it ends by its own timeout, its
                      own success if the stall was a slow step after all, or Ctrl-C. A verdict
                      is a judgement from outside; the job's fate stays the user's decision,
                      and a stall that resolves itself costs nothing.
``kill``              write the report, then stop the job (SIGTERM to torchrun and every worker,
                      SIGKILL after a grace period); ncclDoctor exits 4 (FAULT).

Exit code: the job's own (128+N when torchrun died by signal N), except 4 after ``--on-hang
kill``. The report (``report.json``/``.md``/``.html`` in the run directory) records both.

Not a client of ``launch.supervisor.Supervisor`` (docs/run.md says why, point by point): a
Supervisor stops the job at the first stall and on Ctrl-C, logs output to a file with stdin
closed in a new session, and reads phase events from the control store for a known world size;
``run`` must leave the job running after a verdict, forward Ctrl-C and wait, pass output and
stdin through in the terminal's session, and read UDP heartbeats from an elastic world. It
shares the teardown (``launch.process.stop_tree``) and torchrun's failure record.
"""

from __future__ import annotations

import os
import signal
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from ncclDoctor.errors import ExitCode, UsageError
from ncclDoctor.live import detect, launch
from ncclDoctor.live.collector import Collector
from ncclDoctor.live.watch import Watch

ON_HANG = ("report", "kill")


@dataclass
class RunOptions:
    launch: list[str]
    out: str | None = None
    stall_after_s: float | None = None
    on_hang: str = "report"
    poll_s: float = 0.5
    capture: bool = True
    signal_dump: bool = True
    quiet: bool = False
    collector_port: int = 0  # multi-node: the reporting node's fixed port
    report_to: str | None = None  # multi-node: HOST:PORT of the reporting node's collector
    common: Any = None  # ncclDoctor.options.CommonOptions: --fail-on, --select/--ignore, --junit


def check_options(opts: RunOptions) -> None:
    if opts.on_hang not in ON_HANG:
        raise UsageError(f"unknown --on-hang {opts.on_hang!r}: expected report or kill")
    if opts.stall_after_s is not None and opts.stall_after_s <= 0:
        raise UsageError(f"--stall-after must be a positive number of seconds, got {opts.stall_after_s}")
    if not 0.05 <= opts.poll_s <= 10:
        raise UsageError(f"--poll must be between 0.05 and 10 seconds, got {opts.poll_s}")
    if opts.report_to:
        host, _, port = opts.report_to.rpartition(":")
        if not host or not port.isdigit():
            raise UsageError(f"--report-to must be HOST:PORT, got {opts.report_to!r}")
    launch.validate_launch(opts.launch)


def run_job(opts: RunOptions, argv: list[str], say: Callable[[str], None]) -> tuple[Any, int]:
    """Run and watch the job; returns (report, exit code for ncclDoctor)."""
    check_options(opts)
    from ncclDoctor.finish import default_run_dir

    run_dir = Path(opts.out) if opts.out else default_run_dir("run")
    run_dir.mkdir(parents=True, exist_ok=True)
    sock_dir = tempfile.mkdtemp(prefix="ncd-")  # unix socket paths must stay under 108 bytes
    collector = Collector(port=opts.collector_port)
    # a watcher that missed 4 polls is not running: frozen (a worker busy in Python still yields the GIL every 5 ms)
    settings = detect.Settings(stall_after_s=opts.stall_after_s, stale_s=max(2.0, 4 * opts.poll_s))
    # a node that reports to another judges nothing itself: it sees only its own ranks
    watch = Watch(collector, run_dir, settings, say, signal_dump=opts.signal_dump, judge=not opts.report_to)
    addrs = ",".join([f"127.0.0.1:{collector.port}", *([opts.report_to] if opts.report_to else [])])
    env = launch.job_env(dict(os.environ), run_dir, sock_dir, addrs, opts.poll_s, tee=opts.capture)
    started = time.monotonic()
    from ncclDoctor.live.report import build_report

    watch.on_verdict = lambda: build_report(opts, argv, run_dir, watch, None, time.monotonic() - started,
                                            int(ExitCode.FAULT), running=True)
    job = launch.Job(opts.launch, env, run_dir / "output.log" if opts.capture else None)
    killed = interrupted = False
    received: list[int] = []
    previous = _forward_signals(job, received)
    try:
        while job.proc.poll() is None:
            time.sleep(opts.poll_s)
            status = watch.poll()
            if status.state == "hang" and opts.on_hang == "kill" and watch.verdicts:
                say("stopping the job (--on-hang kill)")
                from ncclDoctor.launch.process import stop_tree

                stop_tree(job.proc)
                killed = True
    except KeyboardInterrupt:
        interrupted = True
        job.forward(signal.SIGINT)
        _wait(job)
    finally:
        _restore(previous)
        interrupted = interrupted or bool(received)
        if job.proc.poll() is None:
            from ncclDoctor.launch.process import stop_tree

            stop_tree(job.proc)
        job.finish()
        watch.finish()
        collector.close()
        _cleanup(sock_dir)

    elapsed = time.monotonic() - started
    code = int(ExitCode.FAULT) if killed else launch.shell_code(job.returncode)
    report = build_report(opts, argv, run_dir, watch, job.returncode, elapsed, code, interrupted=interrupted)
    return report, code


def _forward_signals(job: launch.Job, received: list[int]) -> dict[int, Any]:
    def forward(signum, frame):
        received.append(signum)
        job.forward(signum)

    previous = {}
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        try:
            previous[sig] = signal.signal(sig, forward)
        except (ValueError, OSError):  # not the main thread
            continue
    return previous


def _restore(previous: dict[int, Any]) -> None:
    for sig, handler in previous.items():
        try:
            signal.signal(sig, handler)
        except (ValueError, OSError):
            pass


def _wait(job: launch.Job, timeout_s: float = 30.0) -> None:
    try:
        job.proc.wait(timeout=timeout_s)
    except Exception:
        pass


def _cleanup(sock_dir: str) -> None:
    try:
        for name in os.listdir(sock_dir):
            os.unlink(os.path.join(sock_dir, name))
        os.rmdir(sock_dir)
    except OSError:
        pass


def say_stderr(quiet: bool) -> Callable[[str], None]:
    def say(msg: str) -> None:
        if not quiet:
            sys.stderr.write(f"ncclDoctor: {msg}\n")
            sys.stderr.flush()

    return say
