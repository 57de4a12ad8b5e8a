"""Starting the user's launch line unchanged, with ncclDoctor's environment, and passing its
output and signals through.

- The launch line must be torchrun's: ``torchrun …``, ``python -m torch.distributed.run …``
  (or the older ``torch.distributed.launch``); anything else is a usage error, the job is not
  started.
- The environment is the caller's plus ncclDoctor's additions; a variable the user already set
  is never overridden (``setdefault``), except ``PYTHONPATH`` which gets the shim directory
  prepended.
- Output: torchrun's stdout and stderr are pumped byte for byte to ours and appended to
  ``output.log`` in the run directory. (The job's stdout is then a pipe, not a terminal: Python
  block-buffers print() unless the job runs with ``-u`` or ``PYTHONUNBUFFERED=1``, which torchrun
  workers do not set by default. ``--no-capture`` keeps the terminal and writes no output.log.)
  Per rank: each worker's own stdout and stderr are also appended to ``ranks/rank<R>.log`` by a
  tee process the shim starts in it (``inject/_ncd_tee.py``); the bytes torchrun passes on are
  the same, only their path is one pipe longer.
- Signals: torchrun runs in its own process group. Ctrl-C (SIGINT) is forwarded to that whole
  group, as the terminal would have delivered it; SIGTERM and SIGHUP go to torchrun, which
  forwards them to its workers as usual.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import BinaryIO

from ncclDoctor.errors import UsageError

INJECT_DIR = Path(__file__).resolve().parent / "inject"
_MODULES = ("torch.distributed.run", "torch.distributed.launch")


def validate_launch(argv: list[str]) -> list[str]:
    """The launch line, checked: torchrun or ``python -m torch.distributed.run``."""
    if not argv:
        raise UsageError("no launch line: put the torchrun command after `--`, "
                         "e.g. `ncclDoctor run -- torchrun --nproc-per-node 8 train.py`")
    exe = os.path.basename(argv[0])
    if exe == "torchrun":
        if not shutil.which(argv[0]):
            raise UsageError(f"{argv[0]!r} not found on PATH")
        return argv
    if exe.startswith("python") and len(argv) >= 3 and argv[1] == "-m" and argv[2] in _MODULES:
        if not shutil.which(argv[0]):
            raise UsageError(f"{argv[0]!r} not found on PATH")
        return argv
    raise UsageError(
        "the launch line must be torchrun's (`torchrun …` or `python -m torch.distributed.run …`), "
        f"not {' '.join(argv[:3])!r}"
    )


def job_env(base: dict[str, str], run_dir: Path, sock_dir: str, collector_addr: str, poll_s: float,
            tee: bool = True) -> dict[str, str]:
    """``tee``: each worker's output also goes to ``<run>/ranks/rank<R>.log`` (only when we capture:
    with ``--no-capture`` the workers' fds stay the terminal, and a pipe there would change how
    Python buffers and whether tools see a tty)."""
    env = dict(base)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(INJECT_DIR), base.get("PYTHONPATH", "")) if p)
    env["NCD_LIVE_DIR"] = str(run_dir)
    env["NCD_LIVE_SOCK_DIR"] = sock_dir
    env["NCD_LIVE_ADDR"] = collector_addr
    env["NCD_LIVE_POLL_S"] = str(poll_s)
    env.pop("NCD_LIVE_ACTIVE_PID", None)
    env["NCD_LIVE_TEE"] = "1" if tee else "0"
    env.setdefault("PYTHONFAULTHANDLER", "1")  # stacks on SIGABRT/SIGSEGV, e.g. the NCCL watchdog's abort
    env.setdefault("TORCH_FR_BUFFER_SIZE", "2000")  # the default since 2.x; explicit for older torch
    env.setdefault("TORCH_FR_DUMP_TEMP_FILE", str(run_dir / "fr" / "torch_trace_rank_"))  # nccl timeout dumps
    env.setdefault("TORCH_NCCL_DUMP_ON_TIMEOUT", "1")  # also keeps the nccl dump pipe polled every 1 s
    env.setdefault("TORCH_NCCL_DEBUG_INFO_PIPE_FILE", str(run_dir / "fr" / "pipe_rank_"))
    # The folder must exist before the job starts: ProcessGroupNCCL's heartbeat thread creates the
    # dump pipe there and, when mkfifo fails, throws out of the thread, so every nccl rank dies of
    # SIGABRT at init (seen on the H200 run of benchmarks/gpu_verify.py; gloo never makes the pipe).
    for key in ("TORCH_FR_DUMP_TEMP_FILE", "TORCH_NCCL_DEBUG_INFO_PIPE_FILE"):
        folder = Path(env[key]).parent
        if folder == run_dir / "fr":
            folder.mkdir(parents=True, exist_ok=True)
    return env


class Job:
    """The user's torchrun, started in its own process group, output pumped through."""

    def __init__(self, argv: list[str], env: dict[str, str], output_log: Path | None):
        self.argv = argv
        pipe = subprocess.PIPE if output_log else None
        self.proc = subprocess.Popen(argv, env=env, stdout=pipe, stderr=pipe, process_group=0)
        self.pumps: list[threading.Thread] = []
        self._log: BinaryIO | None = None
        if output_log:
            output_log.parent.mkdir(parents=True, exist_ok=True)
            self._log = open(output_log, "ab")
            self._lock = threading.Lock()
            for src, dst in ((self.proc.stdout, sys.stdout), (self.proc.stderr, sys.stderr)):
                t = threading.Thread(target=self._pump, args=(src, dst), daemon=True)
                t.start()
                self.pumps.append(t)

    def _pump(self, src: BinaryIO, dst) -> None:
        fd = src.fileno()
        out = getattr(dst, "buffer", dst)
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            try:
                out.write(chunk)
                out.flush()
            except (OSError, ValueError):
                pass
            with self._lock:
                try:
                    self._log.write(chunk)
                    self._log.flush()
                except (OSError, ValueError):  # a full disk, or closed after finish() gave up waiting
                    pass

    def forward(self, signum: int) -> None:
        try:
            if signum == signal.SIGINT:
                os.killpg(self.proc.pid, signum)
            else:
                self.proc.send_signal(signum)
        except OSError:
            pass

    def finish(self, timeout_s: float = 10.0) -> None:
        """Wait for the pumps to drain (a worker that outlives torchrun may hold the pipe open:
        then give up after ``timeout_s``) and close output.log."""
        for t in self.pumps:
            t.join(timeout=timeout_s)
        if self._log:
            with self._lock:
                self._log.close()

    @property
    def returncode(self) -> int | None:
        return self.proc.returncode


def shell_code(rc: int | None) -> int:
    """An exit status as a shell reports it: 128+N for a death by signal N."""
    if rc is None:
        return 1
    return 128 - rc if rc < 0 else rc
