"""``attach --inject``: run a few lines of Python inside a worker that ncclDoctor did not start,
through gdb -- opt-in, because it stops the process for seconds and can deadlock it.

The injected code (``_SCRIPT``) writes the worker's Flight Recorder (both recorders) and every
thread's Python stack to a file in the run directory; nothing else in the job changes.
Verified on torch 2.13 (shared/knowledge/live_hang_mechanisms.md, 3.4): ~5 s per process, the
job stayed hung and otherwise unchanged. Risks, and what we do about them:

- ``PyGILState_Ensure`` waits forever if a thread never releases the GIL: we skip a worker
  whose py-spy dump shows a thread holding it, and give gdb a deadline;
- a signal that arrives during a call from gdb (a pending SIGSTOP of a stopped process, our own
  interrupt at the deadline) used to leave the call half done, and the next call then ran
  without the GIL: the worker died of SIGSEGV (seen here on a SIGSTOPped process). Now gdb runs
  ``set unwindonsignal on`` (such a call is unwound, the process left as it was) from a command
  file, where the first failing command ends the file: no ``PyRun_SimpleString`` without the GIL.
  Stopped processes (state T) are skipped altogether (``attach``);
- at the deadline gdb gets SIGINT (it interrupts the call, unwinds it and detaches), and only
  if it is still there ``_GRACE_S`` later, SIGKILL -- which can leave the worker inside a
  half-done call (seen once on a loaded 2-core host, where two gdbs took over 5 s to unwind and
  detach; 2.4 s each at rest): the reason the grace is generous (15 s);
- ptrace rights are needed (root, CAP_SYS_PTRACE or ptrace_scope 0).
"""

from __future__ import annotations

import json
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
    ``idle``: py-spy cannot see it; the gdb deadline is the guard then.)"""
    return any(line.startswith("Thread ") and "+gil" in line for line in (pyspy_text or "").splitlines())


_GRACE_S = 15.0


def commands(code: str) -> str:
    """The gdb command file: each call only if the one before it succeeded."""
    return "\n".join([
        "set unwindonsignal on",
        "set $ncd_gil = (int)PyGILState_Ensure()",
        f"set $ncd_rc = (int)PyRun_SimpleString({json.dumps(code)})",
        "call (void)PyGILState_Release($ncd_gil)",
        "detach",
        "",
    ])


def inject(pid: int, out_file: Path, timeout_s: float = 60.0) -> dict[str, Any] | None:
    """Run ``_SCRIPT`` in ``pid`` via gdb within ``timeout_s`` (+ ``_GRACE_S`` for gdb to unwind
    and detach); the dict it wrote, or None."""
    out_file.parent.mkdir(parents=True, exist_ok=True)
    script_file = out_file.with_suffix(".inject.py")
    script_file.write_text(f"PATH = {str(out_file)!r}\n" + _SCRIPT)
    gdb_file = out_file.with_suffix(".gdb")
    gdb_file.write_text(commands(f"exec(open({str(script_file)!r}).read())"))
    cmd = ["gdb", "-p", str(pid), "-batch", "-nx", "-x", str(gdb_file)]
    try:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except OSError:
        return None
    try:
        proc.wait(timeout=max(0.1, timeout_s))
    except subprocess.TimeoutExpired:
        stop(proc)
        return None
    try:
        return json.loads(out_file.read_text())
    except (OSError, ValueError):
        return None


def stop(proc: subprocess.Popen) -> None:
    """SIGINT first (gdb interrupts the call, unwinds it, detaches), SIGKILL after ``_GRACE_S``."""
    for sig, wait_s in ((signal.SIGINT, _GRACE_S), (signal.SIGKILL, _GRACE_S)):
        try:
            proc.send_signal(sig)
            proc.wait(timeout=wait_s)
            return
        except subprocess.TimeoutExpired:
            continue
        except OSError:
            return
