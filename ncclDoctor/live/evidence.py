"""Evidence from stuck ranks, safest first, each step with a deadline.

1. torch's ``_WorkerServer`` on the rank's unix socket (started by our ``sitecustomize``):
   ``fr_trace_json`` (and ``dump_nccl_trace_json`` on CUDA builds) is answered by C++ without
   the GIL, so it works on a rank stuck in a GIL-holding call; ``dump_traceback`` needs the
   GIL and gets a 2 s deadline.
2. ``/proc/PID/task/*``: every thread's name, state, wchan and CPU time (no ptrace, no signal).
3. ``py-spy dump`` when installed (ptrace; works with the GIL held).
4. Only for workers ncclDoctor prepared, and only when 1 and 3 gave no Python stack: the
   faulthandler signal our ``sitecustomize`` registered. Sent once and recorded, because a
   handled signal can interrupt a sleeping syscall and so change what the rank does next.
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any


class _UnixHTTP(http.client.HTTPConnection):
    def __init__(self, path: str, timeout: float):
        super().__init__("localhost", timeout=timeout)
        self._path = path

    def connect(self) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(self.timeout)
        self.sock.connect(self._path)


def handler(sock_path: str, name: str, timeout_s: float = 2.0) -> bytes | None:
    """POST /handler/<name> on a worker server; None when it does not answer in time."""
    if not sock_path or not os.path.exists(sock_path):
        return None
    conn = _UnixHTTP(sock_path, timeout_s)
    try:
        conn.request("POST" if name else "GET", f"/handler/{name}")
        resp = conn.getresponse()
        body = resp.read()
        return body if resp.status == 200 else None
    except (OSError, http.client.HTTPException):
        return None
    finally:
        conn.close()


def flight_recorder(sock_path: str, timeout_s: float = 5.0) -> dict[str, Any] | None:
    """Both Flight Recorders of a rank, merged: the CPU one (gloo) and, on CUDA builds, NCCL's.
    Each request gets ``timeout_s`` (the handler list 1 s at most)."""
    names = handler(sock_path, "", min(1.0, timeout_s))
    available = json.loads(names) if names else ["fr_trace_json"]
    merged: dict[str, Any] | None = None
    for name in ("fr_trace_json", "dump_nccl_trace_json"):
        if name not in available:
            continue
        raw = handler(sock_path, name, timeout_s)
        try:
            data = json.loads(raw) if raw else None
        except ValueError:
            data = None
        if not data:
            continue
        if merged is None:
            merged = data
        else:
            merged.setdefault("entries", []).extend(data.get("entries", []))
            merged.setdefault("pg_status", {}).update(data.get("pg_status", {}))
    return merged


def proc_threads(pid: int) -> str:
    """One line per thread: tid, name, state, wchan, utime+stime ticks."""
    lines = []
    try:
        tids = sorted(os.listdir(f"/proc/{pid}/task"), key=int)
    except OSError as exc:
        return f"pid {pid}: {exc.strerror}\n"
    for tid in tids:
        base = f"/proc/{pid}/task/{tid}"
        try:
            comm = Path(base, "comm").read_text().strip()
            stat = Path(base, "stat").read_text()
            fields = stat[stat.rindex(")") + 2:].split()
            wchan = Path(base, "wchan").read_text().strip() or "-"
        except OSError:
            continue
        lines.append(f"{tid:>8} {comm:<16} {fields[0]} wchan={wchan:<24} cpu_ticks={int(fields[11]) + int(fields[12])}")
    return "\n".join(lines) + "\n"


def main_thread_state(pid: int) -> tuple[str, str] | None:
    """(state letter, wchan) of a process's main thread."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        wchan = Path(f"/proc/{pid}/wchan").read_text().strip()
    except OSError:
        return None
    return stat[stat.rindex(")") + 2], wchan or "-"


def pyspy_exe() -> str | None:
    """py-spy on PATH, else next to this interpreter (a venv's bin/ is often not on PATH)."""
    beside = Path(sys.executable).parent / "py-spy"
    return shutil.which("py-spy") or (str(beside) if beside.is_file() else None)


def pyspy(pid: int, timeout_s: float = 10.0) -> str | None:
    exe = pyspy_exe()
    if not exe:
        return None
    try:
        p = subprocess.run([exe, "dump", "--pid", str(pid)], capture_output=True, text=True, timeout=timeout_s)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return p.stdout if p.returncode == 0 and p.stdout.strip() else None


def pid_alive(pid: int | None) -> bool | None:
    if not pid:
        return None
    try:
        state = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return state[state.rindex(")") + 2] not in "ZX"


def signal_dump(pid: int, signum: int, path: Path, wait_s: float = 1.0) -> str | None:
    """The faulthandler dump of a worker our sitecustomize prepared (never call it on others)."""
    before = path.stat().st_size if path.exists() else 0
    try:
        os.kill(pid, signum)
    except OSError:
        return None
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        if path.exists() and path.stat().st_size > before:
            time.sleep(0.1)
            with open(path, errors="replace") as fh:
                fh.seek(before)
                return fh.read()
        time.sleep(0.05)
    return None


def nccl_ras(addr: str = "localhost:28028", timeout_s: float = 5.0) -> str | None:
    """NCCL's RAS status report (NCCL >= 2.24) over its plain-text client protocol, or None when
    nothing listens. Protocol 2 (NCCL 2.24-2.30, src/ras/client.cc): send ``CLIENT PROTOCOL 2``,
    read ``SERVER PROTOCOL N``, send ``TIMEOUT <s>`` and ``VERBOSE STATUS``, read to EOF.
    Source-read; not run against a real NCCL here (no GPU)."""
    host, _, port = addr.rpartition(":")
    try:
        conn = socket.create_connection((host or "localhost", int(port)), timeout=timeout_s)
    except (OSError, ValueError):
        return None
    chunks: list[bytes] = []
    deadline = time.monotonic() + 3 * timeout_s
    try:
        with conn:
            conn.sendall(b"CLIENT PROTOCOL 2\n")
            greeting = conn.recv(4096)
            if not greeting.startswith(b"SERVER PROTOCOL"):
                return None
            conn.sendall(f"TIMEOUT {int(timeout_s)}\nVERBOSE STATUS\n".encode())
            while time.monotonic() < deadline:
                data = conn.recv(65536)
                if not data:
                    break
                chunks.append(data)
    except OSError:
        pass
    return b"".join(chunks).decode("utf-8", "replace") or None
