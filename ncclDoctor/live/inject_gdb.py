"""``attach --inject``: run a few lines of Python inside a worker that ncclDoctor did not start,
through gdb -- opt-in, because it stops the process for seconds and can deadlock it.

The injected code (``_SCRIPT``) writes the worker's Flight Recorder (both recorders) and every
thread's Python stack to a file in the run directory; nothing else in the job changes.
Verified on torch 2.13 (shared/knowledge/live_hang_mechanisms.md, 3.4): ~5 s per process, the
job stayed hung and otherwise unchanged. Risks, and what we do about them:

- ``PyGILState_Ensure`` waits forever if a thread never releases the GIL: we skip a worker
  whose py-spy dump shows a thread holding it, and give gdb a deadline;
- killing gdb in the middle of a call can crash the process: the deadline is generous (60 s)
  and only then is gdb killed;
- ptrace rights are needed (root, CAP_SYS_PTRACE or ptrace_scope 0).
"""

from __future__ import annotations

import json
import shutil
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


def inject(pid: int, out_file: Path, timeout_s: float = 60.0) -> dict[str, Any] | None:
    """Run ``_SCRIPT`` in ``pid`` via gdb; the dict it wrote, or None."""
    out_file.parent.mkdir(parents=True, exist_ok=True)
    script_file = out_file.with_suffix(".inject.py")
    script_file.write_text(f"PATH = {str(out_file)!r}\n" + _SCRIPT)
    code = f'exec(open({str(script_file)!r}).read())'
    cmd = ["gdb", "-p", str(pid), "-batch", "-nx",
           "-ex", "call (int)PyGILState_Ensure()",
           "-ex", f"call (int)PyRun_SimpleString({json.dumps(code)})",
           "-ex", "call (void)PyGILState_Release($1)"]
    try:
        subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s)
    except (OSError, subprocess.TimeoutExpired):
        return None
    try:
        return json.loads(out_file.read_text())
    except (OSError, ValueError):
        return None
