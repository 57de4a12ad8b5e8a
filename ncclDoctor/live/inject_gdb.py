"""``attach --inject``: run a few lines of Python inside a worker that ncclDoctor did not start,
through gdb -- opt-in, because it stops the process for seconds.

The injected code (``_SCRIPT``) writes the worker's Flight Recorder (both recorders) and every
thread's Python stack to a file in the run directory; nothing else in the job changes.
Verified on torch 2.13 (shared/knowledge/live_hang_mechanisms.md, 3.4). The rule that keeps the
job safe: **a call into the worker, once begun, is never interrupted.** gdb's ``unwindonsignal``
restores the registers of an interrupted call, not the memory it changed: a
``PyRun_SimpleString`` cut short at the deadline left its thread holding the GIL (taken by
``PyGILState_Ensure``, never released) with the interpreter's frame pointers into a stack that
was gone; the job then hung, or died of SIGSEGV (the 2026-12-01 CI flake: rank 0, blocked in
gloo, died after ``--inject-timeout 5`` hit gdb mid-call; reproduced 3 times in 14 runs). So:

- gdb loads the symbols of libpython and libc only (not libtorch's: 2-25 s), then passes a
  *gate*: it detaches without calling anything when the deadline's cancel file exists;
- before the first call it asks, without blocking, who holds the GIL
  (``_PyThreadState_UncheckedGet``: the holder on CPython 3.11; on 3.12+ only whether this
  thread holds it): when another thread holds it, ``PyGILState_Ensure`` would wait for ever,
  so gdb detaches instead (a thread py-spy sees holding it is skipped before gdb starts);
- at the deadline we create the cancel file and wait ``_GRACE_S`` for gdb to reach the gate or
  finish its calls (ours take milliseconds). Only a gdb still there after that is signalled
  (``stop``): SIGINT when it waits in ``PyGILState_Ensure`` (a holder we could not see), else
  SIGKILL -- the paths left that can harm the worker, both past a 15 s grace;
- a stopped process (state T) is skipped altogether (``attach``): its pending stop would cut
  the first call short;
- ptrace rights are needed (root, CAP_SYS_PTRACE or ptrace_scope 0).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import subprocess
from pathlib import Path
from typing import Any

_SCRIPT = r"""
import json, sys, traceback
out = {"stacks": "", "fr": None}
try:
    out["stacks"] = "\n".join("Thread %s:\n%s" % (t, "".join(traceback.format_stack(f)))
                              for t, f in sys._current_frames().items())
    import torch
    c10d = torch._C._distributed_c10d
    merged = None
    for name in ("_dump_fr_trace_json", "_dump_nccl_trace_json"):
        fn = getattr(c10d, name, None)
        if fn is None:
            continue
        d = json.loads(fn(True, False))
        if merged is None:
            merged = d
        else:
            merged.setdefault("entries", []).extend(d.get("entries") or [])
            merged.setdefault("pg_status", {}).update(d.get("pg_status") or {})
    out["fr"] = merged
except Exception as exc:
    out["error"] = repr(exc)
with open(PATH, "w") as fh:
    json.dump(out, fh)
"""


def available() -> bool:
    return shutil.which("gdb") is not None


def holds_gil(pyspy_text: str | None) -> bool:
    """A thread py-spy saw running Python with the GIL. (A C call that holds the GIL shows as
    ``idle``: py-spy cannot see it; gdb's own check before the first call is the guard then.)"""
    return any(line.startswith("Thread ") and "+gil" in line for line in (pyspy_text or "").splitlines())


_GRACE_S = 15.0
_KILL_WAIT_S = 5.0  # a SIGKILLed gdb is gone at once; the wait only reaps it
GATE, CALLING, ENSURED, HELD_ELSEWHERE = "NCD-GATE", "NCD-CALLING", "NCD-ENSURED", "NCD-GIL-HELD-ELSEWHERE"


def python_minor(pid: int) -> int | None:
    """The target's CPython 3.x minor version, from its libpython or executable name."""
    try:
        names = [os.readlink(f"/proc/{pid}/exe")] + [line.rsplit(" ", 1)[-1] for line in
                                                      Path(f"/proc/{pid}/maps").read_text().splitlines()]
    except OSError:
        return None
    for name in names:
        m = re.search(r"(?:libpython|python)3\.(\d+)", os.path.basename(name))
        if m:
            return int(m.group(1))
    return None


def commands(code: str, cancel: Path, minor: int | None = None) -> str:
    """The gdb command file: libpython's and libc's symbols, the gate (the cancel file), the GIL
    check, then the calls, each only if the one before it succeeded (the first failing command
    ends the file). ``set unwindonsignal on`` still covers a signal from inside the worker."""
    # 3.13 renamed it; on 3.12+ either gives this thread's state when it holds the GIL, else 0
    holder = "PyThreadState_GetUnchecked" if (minor or 0) >= 13 else "_PyThreadState_UncheckedGet"
    return "\n".join([
        "set unwindonsignal on",
        "sharedlibrary libpython",
        "sharedlibrary libc[.-]",
        f"echo {GATE}\\n",
        f"shell test -e {shlex.quote(str(cancel))}",
        "if $_shell_exitcode == 0",
        "  detach",
        "  quit",
        "end",
        "set $ncd_mine = (long)PyGILState_GetThisThreadState()",
        f"set $ncd_holder = (long){holder}()",
        "if $ncd_holder != 0 && $ncd_holder != $ncd_mine",
        f"  echo {HELD_ELSEWHERE}\\n",
        "  detach",
        "  quit",
        "end",
        f"echo {CALLING}\\n",
        "set $ncd_gil = (int)PyGILState_Ensure()",
        f"echo {ENSURED}\\n",
        f"set $ncd_rc = (int)PyRun_SimpleString({json.dumps(code)})",
        "call (void)PyGILState_Release($ncd_gil)",
        "detach",
        "",
    ])


def inject(pid: int, out_file: Path, timeout_s: float = 60.0, script: str = _SCRIPT) -> dict[str, Any] | None:
    """Run ``script`` (``_SCRIPT``) in ``pid`` via gdb; past ``timeout_s`` no new call starts and
    gdb gets ``_GRACE_S`` to finish the one under way and detach. The dict it wrote, or None
    (with the reason in ``out_file``'s ``.why`` sibling when gdb said one)."""
    out_file.parent.mkdir(parents=True, exist_ok=True)
    script_file = out_file.with_suffix(".inject.py")
    script_file.write_text(f"PATH = {str(out_file)!r}\n" + script)
    cancel = out_file.with_suffix(".cancel")
    cancel.unlink(missing_ok=True)
    gdb_file = out_file.with_suffix(".gdb")
    gdb_file.write_text(commands(f"exec(open({str(script_file)!r}).read())", cancel, python_minor(pid)))
    log = out_file.with_suffix(".gdb.log")
    # -iex: before the attach, so that gdb does not read libtorch's symbols (seconds per process)
    cmd = ["gdb", "-nx", "-iex", "set auto-solib-add off", "-p", str(pid), "-batch", "-x", str(gdb_file)]
    try:
        with open(log, "wb") as fh:
            proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=fh, stderr=subprocess.STDOUT)
    except OSError:
        return None
    try:
        proc.wait(timeout=max(0.1, timeout_s))
    except subprocess.TimeoutExpired:
        stop(proc, cancel, log)
    said = log.read_text(errors="replace") if log.is_file() else ""
    if HELD_ELSEWHERE in said:
        out_file.with_suffix(".why").write_text("another thread holds the GIL (in C code): a call would wait for ever")
    try:
        return json.loads(out_file.read_text())
    except (OSError, ValueError):
        return None


def stop(proc: subprocess.Popen, cancel: Path, log: Path) -> None:
    """The deadline: no new call (the cancel file), ``_GRACE_S`` for gdb to reach the gate or end
    the call under way. Still there: when it waits in ``PyGILState_Ensure`` (a GIL holder we could
    not see), SIGINT unwinds that wait, which has taken nothing yet -- the lesser harm than SIGKILL,
    after which the call returns into gdb's breakpoint with no debugger there (a SIGTRAP, which can
    kill the worker). SIGKILL is the last resort."""
    cancel.touch()
    if _waited(proc):
        return
    said = log.read_text(errors="replace") if log.is_file() else ""
    if CALLING in said and ENSURED not in said and _signalled(proc, signal.SIGINT) and _waited(proc):
        return
    if _signalled(proc, signal.SIGKILL):
        _waited(proc, _KILL_WAIT_S)


def _waited(proc: subprocess.Popen, wait_s: float = _GRACE_S) -> bool:
    try:
        proc.wait(timeout=wait_s)
        return True
    except subprocess.TimeoutExpired:
        return False


def _signalled(proc: subprocess.Popen, sig: int) -> bool:
    try:
        proc.send_signal(sig)
        return True
    except OSError:
        return False
