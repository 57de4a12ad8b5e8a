"""Evidence a rank can give while it is stuck: its Python stack and its Flight Recorder.

Installed by the worker before ``init``:

- ``faulthandler`` on SIGUSR1 writes every thread's Python stack to
  ``<run_dir>/stacks/rank<R>.txt``. It is a C-level handler, so it works even when the
  main thread is blocked inside a collective (the supervisor's fallback).
- A daemon thread watches the control store for ``ctl/dump``. When the supervisor sets
  it (a deadline passed), the thread writes the stack file, dumps torch's Flight
  Recorders (the CPU one for gloo and, on CUDA builds, NCCL's, merged: ``_fr_json``)
  to ``<run_dir>/fr/rank<R>.json``, publishes both to the store (so the reporting
  node gets them even across nodes) and acknowledges with ``ack/dump/<R>``. Blocked
  collectives release the GIL, so the thread runs while the main thread waits.
"""

from __future__ import annotations

import contextlib
import datetime
import faulthandler
import io
import json
import os
import signal
import sys
import threading
import traceback
from typing import Any

MAX_PUBLISH = 256 * 1024  # bytes per blob through the store; the full file stays on disk


def _fr_json() -> str | None:
    """Both Flight Recorders, merged. torch 2.13 keeps gloo collectives in the CPU recorder
    (``_dump_fr_trace_json``) and NCCL ones in the CUDA recorder (``_dump_nccl_trace_json``, CUDA
    builds only): the CPU call succeeds on a CUDA build too, so taking the first that answers
    would never read NCCL's (shared/knowledge/live_hang_mechanisms.md, 2.3; not run on a GPU)."""
    import torch

    c10d = torch._C._distributed_c10d
    merged: dict | None = None
    for name in ("_dump_fr_trace_json", "_dump_nccl_trace_json"):
        fn = getattr(c10d, name, None)
        if fn is None:
            continue
        try:
            out = fn()
            data = json.loads(out.decode("utf-8", "replace") if isinstance(out, bytes) else out)
        except Exception:
            continue
        if merged is None:
            merged = data
        else:
            merged.setdefault("entries", []).extend(data.get("entries") or [])
            for key in ("pg_status", "pg_config"):
                merged.setdefault(key, {}).update(data.get(key) or {})
    return json.dumps(merged) if merged is not None else None


def python_stacks() -> str:
    """Every thread's stack, main thread first, in traceback's format."""
    frames = sys._current_frames()
    names = {t.ident: t.name for t in threading.enumerate()}
    main = threading.main_thread().ident
    out = io.StringIO()
    for ident in sorted(frames, key=lambda i: i != main):
        if ident == threading.get_ident():
            continue
        out.write(f"Thread {names.get(ident, ident)}:\n")
        out.write("".join(traceback.format_stack(frames[ident])))
        out.write("\n")
    return out.getvalue()


class Evidence:
    def __init__(self, run_dir: str | None, rank: int, control_address: str | None):
        self.run_dir = run_dir
        self.rank = rank
        self.address = control_address
        self._stack_fh = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def install(self) -> None:
        if self.run_dir:
            os.makedirs(os.path.join(self.run_dir, "stacks"), exist_ok=True)
            path = os.path.join(self.run_dir, "stacks", f"rank{self.rank}.signal.txt")
            self._stack_fh = open(path, "w")  # kept open: faulthandler writes to its fd
            faulthandler.register(signal.SIGUSR1, file=self._stack_fh, all_threads=True)
        if self.address:
            self._thread = threading.Thread(target=self._watch, name="ncclDoctor-evidence", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Join the watcher before the interpreter exits: a daemon thread frozen inside a
        TCPStore call during finalization aborted ranks ("terminate called without an
        active exception", SIGABRT after ``done``) in multi-node runs."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)

    def _store(self):
        from torch.distributed import TCPStore

        host, _, port = self.address.rpartition(":")
        return TCPStore(host.strip("[]"), int(port), is_master=False, timeout=datetime.timedelta(seconds=30))

    def _watch(self) -> None:
        try:
            store = self._store()
            while not store.check(["ctl/dump"]):
                if self._stop.wait(0.5):
                    return
            self.dump(store)
        except Exception:
            return  # the supervisor falls back to SIGUSR1; never disturb the rank

    def dump(self, store: Any) -> None:
        stacks = python_stacks()
        fr = _fr_json()
        if self.run_dir:
            write_text_atomic(os.path.join(self.run_dir, "stacks", f"rank{self.rank}.txt"), stacks)
            if fr is not None:
                write_text_atomic(os.path.join(self.run_dir, "fr", f"rank{self.rank}.json"), fr)
        store.set(f"evidence/stack/{self.rank}", stacks[-MAX_PUBLISH:])
        if fr is not None:
            store.set(f"evidence/fr/{self.rank}", _trim_fr(fr))
        store.set(f"ack/dump/{self.rank}", "1")


def _trim_fr(fr: str) -> str:
    """Keep the newest entries when a dump is too big to send through the store."""
    if len(fr) <= MAX_PUBLISH:
        return fr
    data = json.loads(fr)
    entries = data.get("entries", [])
    while entries and len(json.dumps(data)) > MAX_PUBLISH:
        entries = entries[len(entries) // 2:]
        data["entries"] = entries
    return json.dumps(data)


def write_text_atomic(path: str, text: str) -> None:
    """Write whole or not at all (temporary sibling, then rename): a rank killed while
    writing never leaves half a file. (ncclDoctor.fsutil's twin: probes import only
    torch and the standard library.)"""
    import tempfile

    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", dir=os.path.dirname(path) or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
