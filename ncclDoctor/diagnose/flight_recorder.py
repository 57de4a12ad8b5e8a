"""Flight Recorder stage: read torch's FR dumps safely and summarise them per process group.

A dump (``torch._C._distributed_c10d._dump_fr_trace`` / ``_dump_fr_trace_json``, or the
file ProcessGroupNCCL writes on a watchdog timeout) is a dict with ``version``,
``pg_config``, ``pg_status`` and ``entries``; each entry carries ``collective_seq_id``,
``profiling_name`` (``nccl:all_reduce``, ``gloo:broadcast``), ``input_sizes``, ``state``
and ``process_group`` = (name, desc). The dump does not say which rank wrote it:
torch names the file ``<prefix><rank>`` and we read the rank from the name, as
torch's own analyzer (``torchfrtrace``) does.

Pickle dumps are untrusted input: ``PlainUnpickler`` refuses every global, so only
plain data (dict, list, tuple, str, bytes, int, float, bool, None) can be built. A
dump that asks for anything else is reported and skipped, never executed.

What the summary trusts: ``state`` is meaningful on NCCL (CUDA events). On gloo in
torch 2.13 every entry stays ``scheduled`` and ``pg_status`` says every collective
completed, so for gloo dumps only "last enqueued" (what each rank issued) is used.
"""

from __future__ import annotations

import ast
import io
import json
import pickle
from dataclasses import dataclass, field
from typing import Any

KEEP_SEQS = 64  # per process group: the most recent collectives kept for cross-rank matching


class UnsafeDump(ValueError):
    pass


class PlainUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str):  # noqa: D401 - pickle hook
        raise UnsafeDump(f"the pickle asks for {module}.{name}; Flight Recorder dumps hold only plain data, so it was "
                         "not loaded")

    def persistent_load(self, pid: Any):
        raise UnsafeDump("the pickle uses persistent ids; not a Flight Recorder dump")


def load_pickle(data: bytes) -> Any:
    return PlainUnpickler(io.BytesIO(data)).load()


def looks_like_dump(obj: Any) -> bool:
    return isinstance(obj, dict) and isinstance(obj.get("entries"), list) and ("version" in obj or "pg_config" in obj)


@dataclass
class CollectiveRecord:
    seq: int
    op: str
    in_sizes: Any
    out_sizes: Any
    dtypes: Any
    state: str
    record_id: int | None
    frame: str | None = None

    def shape_key(self) -> str:
        return json.dumps([self.in_sizes, self.out_sizes])


@dataclass
class PGTrace:
    pg: str
    desc: str
    backend: str
    last_enqueued: int = -1
    last_started: int = -1
    last_completed: int = -1
    records: dict[int, CollectiveRecord] = field(default_factory=dict)


@dataclass
class DumpSummary:
    version: str
    pgs: dict[str, PGTrace]
    pg_ranks: dict[str, list[int]]
    timeout_ms: int | None


def _op_name(profiling_name: str) -> tuple[str, str]:
    backend, _, op = str(profiling_name).partition(":")
    return (backend, op) if op else ("", backend)


def _ranks(value: Any) -> list[int]:
    """pg_config ranks are a string of a Python list (``"[0, 1]"``): literal_eval, never eval."""
    if isinstance(value, list):
        return [int(x) for x in value if isinstance(x, int)]
    try:
        parsed = ast.literal_eval(str(value))
    except (ValueError, SyntaxError):
        return []
    return [int(x) for x in parsed if isinstance(x, int)] if isinstance(parsed, (list, tuple)) else []


def summarise(dump: dict) -> DumpSummary:
    pgs: dict[str, PGTrace] = {}
    timeout = None
    for e in dump.get("entries", []):
        if not isinstance(e, dict) or e.get("is_p2p"):
            continue
        pgname, desc = (list(e.get("process_group") or ["?", ""]) + ["", ""])[:2]
        backend, op = _op_name(e.get("profiling_name", "?"))
        t = pgs.setdefault(str(pgname), PGTrace(str(pgname), str(desc), backend))
        seq = e.get("collective_seq_id")
        if not isinstance(seq, int):
            continue
        state = str(e.get("state", ""))
        t.last_enqueued = max(t.last_enqueued, seq)
        if state in ("started", "completed"):
            t.last_started = max(t.last_started, seq)
        if state == "completed":
            t.last_completed = max(t.last_completed, seq)
        frames = e.get("frames") or []
        top = frames[0] if frames and isinstance(frames[0], dict) else None
        t.records[seq] = CollectiveRecord(
            seq, op, e.get("input_sizes"), e.get("output_sizes"), e.get("input_dtypes"), state, e.get("record_id"),
            f"{top.get('name')} at {top.get('filename')}:{top.get('line')}" if top else None,
        )
        if len(t.records) > KEEP_SEQS:
            del t.records[min(t.records)]
        timeout = e.get("timeout_ms") or timeout
    pg_ranks = {}
    for key, cfg in (dump.get("pg_config") or {}).items():
        if isinstance(cfg, dict):
            pg_ranks[str(cfg.get("name") or key)] = _ranks(cfg.get("ranks"))
    return DumpSummary(str(dump.get("version", "?")), pgs, pg_ranks, timeout)


def parse_dump(data: bytes, is_pickle: bool) -> DumpSummary:
    """Parse one dump's bytes. Raises ValueError (UnsafeDump included) with a one-line reason."""
    try:
        obj = load_pickle(data) if is_pickle else json.loads(data)
    except UnsafeDump:
        raise
    except (pickle.UnpicklingError, EOFError, ValueError, TypeError, IndexError, KeyError, AttributeError,
            RecursionError) as exc:
        raise ValueError(f"not a readable Flight Recorder dump ({type(exc).__name__}: {str(exc)[:120]})") from None
    if not looks_like_dump(obj):
        raise ValueError("not a Flight Recorder dump (no 'entries' list)")
    return summarise(obj)
