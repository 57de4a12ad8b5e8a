"""Load stage: turn the user's PATH arguments into inputs, and stream their lines.

Inputs are log files (plain or ``.gz``), directories (walked recursively, sorted, so a
report reads the same every time), ``-`` for stdin, Flight Recorder dumps (JSON or
pickle, recognised by content: torch names them ``comm_lib_trace_rank_<N>`` with no
extension) and ncclDoctor run directories (recognised by their ``report.json``).

Why a chunk scanner rather than ``for line in file``: a 1 GB log set is mostly training
chatter, and a per-line Python loop costs more than the whole analysis. ``scan_lines``
reads 1 MiB blocks and looks only for a few trigger words with ``bytes.find`` (each runs
at about 1 GB/s); only the lines around a hit are cut out, decoded and parsed. Memory
stays bounded by the block size plus ``MAX_LINE``: a 50 MB single line is cut at
``MAX_LINE`` and the rest skipped up to its newline.

Lines are counted by ``\\n``; a ``\\r`` (progress bars redraw with it) also starts a new
line for parsing, so text glued after a progress bar is still found.

Every read problem (missing permission, binary content, truncated gzip, an over-long
line) becomes a ``notes`` entry on the input, never an exception: the rest is analysed.
"""

from __future__ import annotations

import gzip
import io
import os
import re
import sys
import zlib
from dataclasses import dataclass, field
from typing import BinaryIO, Callable, Iterator

from ncclDoctor.errors import UsageError

BLOCK = 1 << 20
MAX_LINE = 64 * 1024
SNIFF = 8192

# Words at least one of which every line we parse contains (see signatures.py). Few on
# purpose: each costs one pass of bytes.find over the block (~1.5-2 GB/s on the test
# machine), and the passes are most of diagnose's time. What each one covers:
#   NCCL      NCCL INFO/WARN lines, ncclXxxError, ProcessGroupNCCL (glog prefix of every
#             watchdog, status and heartbeat line), WorkNCCL, TORCH_NCCL_/NCCL_ settings
#   atchdog   watchdog status lines printed without the glog prefix (a missed status line
#             would make a victim look silent: never dropped for speed)
#   rror      every Error/error: exceptions, CUDA errors, DistNetworkError, gloo's
#             RuntimeError lines, "Last error:", OutOfMemoryError, the ChildFailedError line
#   [c10d]    the store's socket lines ("[c10d] The client socket has timed out ...")
#   exitcode  torchrun's "failed (exitcode: N)" and its failure summary fields
#   signal    the agent's "Received N death signal" / "closing signal SIGTERM"
#   NET/IB    IB completion errors printed without the NCCL prefix
#   onnection Connection reset/closed/refused in any format (NCCL 2.0-2.3 lines lack "NCCL")
#   WARN      NCCL 2.0-2.3's "include/socket.h:194 WARN ..." (no word NCCL; its "-> 2" trail is
#             read as follow lines, parse.py)
#   ailure    nccl-tests' "Test CUDA failure common.cu:253 '...'" and other "failure" lines
#   endezvous torchrun's "Rendezvous complete for workers. Result:" (its master_addr, world
#             sizes are read as follow lines) and rendezvous errors in any wording
#   rdzv_     torchrun's printed launch config (rdzv_endpoint, rdzv_backend) and its flags
#   Killed    the shell's "Killed" (a SIGKILLed job: the OOM killer), the kernel's "Out of memory:
#             Killed process", Kubernetes' "OOMKilled"
#   " code "  DeepSpeed's launcher "exits with return code = -9", torch.multiprocessing.spawn's
#             "process 1 terminated with exit code 1"
#   Xid       the NVIDIA driver's "NVRM: Xid (PCI:...): 79" lines in a pasted dmesg
# torchrun's summary block is read from its ChildFailedError line on (parse.want_more).
TRIGGERS = (b"NCCL", b"atchdog", b"rror", b"[c10d]", b"exitcode", b"signal", b"NET/IB", b"onnection", b"WARN",
            b"ailure", b"endezvous", b"rdzv_", b"Killed", b" code ", b"Xid")

JSON_KEYS = (b'"entries"', b'"schema_version"', b'"message"')  # FR dump, ncclDoctor report, torchrun error file
_RANK_IN_NAME = re.compile(r"rank[_-]?(\d+)", re.IGNORECASE)
_TORCHRUN_DIR = re.compile(r"attempt_\d+[/\\](\d+)[/\\](?:stdout|stderr|error)")


@dataclass
class Input:
    """One thing to read: a file, a member of a directory, or stdin."""

    path: str  # as shown in evidence (file:line)
    kind: str = "log"  # log | fr | run_report | torchrun_error | skipped
    rank_hint: int | None = None  # from the file name, a fallback for unranked lines
    rank_hint_is_local: bool = False
    bytes_read: int = 0
    lines: int = 0
    notes: list[str] = field(default_factory=list)
    opener: Callable[[], BinaryIO] | None = None

    def to_dict(self) -> dict:
        return {"path": self.path, "kind": self.kind, "rank_hint": self.rank_hint,
                "bytes": self.bytes_read, "lines": self.lines, "notes": list(self.notes)}


def rank_from_path(path: str) -> tuple[int | None, bool]:
    """The rank a file name gives, and whether it is only a local rank (torchrun's
    ``--log-dir`` layout ``<run>/attempt_0/<local_rank>/stderr.log``)."""
    m = _TORCHRUN_DIR.search(path)
    if m:
        return int(m.group(1)), True
    m = _RANK_IN_NAME.search(os.path.basename(path))
    if m:
        return int(m.group(1)), False
    return None, False


_TRAILING_NUMBER = re.compile(r"(\d+)(?:\.(?:json|pkl|pickle|bin))?(?:\.gz)?$", re.IGNORECASE)


def dump_rank_from_name(path: str) -> int | None:
    """A Flight Recorder dump is named ``<TORCH_FR_DUMP_TEMP_FILE><rank>`` and the prefix is
    the user's (``/tmp/fr_dump_`` gives ``fr_dump_0``): for a file already known to be a
    dump, a trailing number is its rank even without the word "rank"."""
    m = _TRAILING_NUMBER.search(os.path.basename(path))
    return int(m.group(1)) if m else None


def expand(paths: list[str], stdin: BinaryIO | None = None) -> list[Input]:
    """Expand PATH arguments. A path that does not exist is a usage error (exit 2);
    everything else that goes wrong later is a note on that input."""
    out: list[Input] = []
    for p in paths:
        if p == "-":
            data = stdin if stdin is not None else sys.stdin.buffer
            out.append(Input("<stdin>", opener=lambda d=data: d))
            continue
        if not os.path.lexists(p):
            raise UsageError(f"no such file or directory: {p}")
        if os.path.isdir(p):
            out.extend(_walk(p))
        else:
            out.append(_file_input(p, named=True))
    return out


# In an ncclDoctor run directory (it has a report.json), the rendered views repeat the report's
# own text (its rules' "why" mentions "connection closed by peer"): read report.json, not them.
RENDERED = ("report.md", "report.html", "timeline.md")


def _walk(root: str) -> Iterator[Input]:
    errors: list[OSError] = []
    for dirpath, dirnames, filenames in os.walk(root, onerror=errors.append):
        dirnames.sort()
        run_dir = "report.json" in filenames
        for name in sorted(filenames):
            if run_dir and name in RENDERED:
                continue
            yield _file_input(os.path.join(dirpath, name))
    for exc in errors:
        yield Input(str(exc.filename or root), kind="skipped", notes=[f"cannot list directory: {exc.strerror or exc}"])


def _file_input(path: str, named: bool = False) -> Input:
    """An input for one path. Inside a walked directory only regular files are read (a
    FIFO there would block, a device never ends); a path named on the command line may
    be a pipe, e.g. ``<(zcat job.log.gz)``."""
    rank, local = rank_from_path(path)
    inp = Input(path, rank_hint=rank, rank_hint_is_local=local)
    if not os.path.exists(path) or not (named or os.path.isfile(path)):
        inp.kind = "skipped"
        inp.notes.append("a broken symbolic link" if os.path.islink(path) and not os.path.exists(path)
                         else "not a regular file")
        return inp
    if path.endswith(".gz"):
        inp.opener = lambda: gzip.open(path, "rb")
    else:
        inp.opener = lambda: open(path, "rb")
    return inp


def open_input(inp: Input) -> BinaryIO | None:
    """Open an input for reading, or note why it cannot be read."""
    if inp.opener is None:
        return None
    try:
        return inp.opener()  # type: ignore[misc]
    except OSError as exc:
        inp.kind = "skipped"
        inp.notes.append(f"cannot read: {exc.strerror or exc}")
        return None


def sniff(fh: BinaryIO, inp: Input) -> tuple[str, bytes]:
    """Read the first bytes and decide what the input is: fr_pickle, json, binary,
    empty or log. Returns the kind and the bytes read (the caller continues from them)."""
    try:
        head = fh.read(SNIFF)
    except (OSError, EOFError, zlib.error) as exc:
        inp.notes.append(f"cannot read: {_read_error(exc)}")
        return "skipped", b""
    if not head:
        return "empty", head
    if head[:1] == b"\x80" and b"entries" in head[:SNIFF]:
        return "fr_pickle", head
    if head.lstrip()[:1] == b"{" and (inp.path.endswith(".json") or any(k in head for k in JSON_KEYS)):
        return "json", head  # a log whose first line is a dict ({'loss': ...}) stays a log
    if b"\x00" in head:
        return "binary", head
    return "log", head


def read_all(fh: BinaryIO, head: bytes, inp: Input, limit: int) -> bytes | None:
    """Read a small structured file (FR dump, report.json) whole, up to ``limit`` bytes."""
    parts, size = [head], len(head)
    try:
        while True:
            b = fh.read(BLOCK)
            if not b:
                break
            size += len(b)
            if size > limit:
                inp.notes.append(f"larger than {limit >> 20} MiB; not read as a structured file")
                return None
            parts.append(b)
    except (OSError, EOFError, zlib.error) as exc:
        inp.notes.append(f"read stopped early: {_read_error(exc)}")
        return None
    inp.bytes_read = size
    return b"".join(parts)


def _read_error(exc: BaseException) -> str:
    if isinstance(exc, EOFError):
        return "truncated gzip stream (the file ends before its end-of-stream marker)"
    if isinstance(exc, gzip.BadGzipFile):
        return f"not a valid gzip file ({exc})"
    if isinstance(exc, zlib.error):
        return f"corrupt gzip data ({exc})"
    return getattr(exc, "strerror", None) or str(exc)


def _find_hits(block: bytes, end: int) -> list[int]:
    """Start offsets (after the last \\n or \\r) of the lines in block[:end] holding a trigger."""
    starts: set[int] = set()
    for t in TRIGGERS:
        p = block.find(t, 0, end)
        while p != -1:
            starts.add(max(block.rfind(b"\n", 0, p), block.rfind(b"\r", 0, p)) + 1)
            nl = block.find(b"\n", p, end)
            p = -1 if nl == -1 else block.find(t, nl, end)
    return sorted(starts)


def _read_block(fh: BinaryIO, inp: Input, lineno: int) -> bytes:
    try:
        chunk = fh.read(BLOCK)
    except (OSError, EOFError, zlib.error) as exc:
        inp.notes.append(f"read stopped at line {lineno}: {_read_error(exc)}; the lines before it were analysed")
        return b""
    inp.bytes_read += len(chunk)
    return chunk


def scan_lines(fh: BinaryIO, head: bytes, inp: Input, want_more: Callable[[str], int] | None = None
               ) -> Iterator[tuple[int, str]]:
    """Yield (line number, text) for lines holding a trigger word, plus as many following
    lines as ``want_more(text)`` asks for (multi-line blocks such as torchrun's failure
    summary). Bounded memory: one block plus one capped line."""
    inp.bytes_read += len(head)
    carry, lineno, follow, skipping, eof = head, 1, 0, False, False
    while not eof:
        chunk = _read_block(fh, inp, lineno)
        eof = not chunk
        block = carry + chunk
        end = len(block) if eof else block.rfind(b"\n") + 1
        pos = 0
        if skipping:  # drop the rest of an over-long line
            nl = block.find(b"\n")
            if nl == -1:
                carry = b""
                continue
            pos, lineno, skipping = nl + 1, lineno + 1, False
        if end > pos:
            follow, lineno = yield from _scan_block(block, pos, end, lineno, follow, want_more)
        carry = block[max(end, pos):]
        if len(carry) > MAX_LINE:
            inp.notes.append(f"line {lineno} is longer than {MAX_LINE >> 10} KiB; only its first {MAX_LINE >> 10} KiB "
                             "were read")
            head_part = carry[:MAX_LINE]
            follow, _ = yield from _scan_block(head_part, 0, len(head_part), lineno, follow, want_more)
            carry, skipping = b"", True
    inp.lines = lineno - 1 if block.endswith(b"\n") or not block else lineno


def _scan_block(block: bytes, pos: int, end: int, lineno: int, follow: int, want_more):
    """Yield the hit lines (and follow lines) of block[pos:end], which holds whole lines
    starting at line ``lineno``. Returns the follow count left and the next line number."""
    hits = iter(_find_hits(block, end))
    cursor, cur_no, next_start = pos, lineno, pos
    while next_start < end:
        if follow:
            p = next_start
        else:
            p = next((h for h in hits if h >= next_start), -1)
            if p == -1:
                break
        nl = block.find(b"\n", p, end)
        nl = end if nl == -1 else nl
        cur_no += block.count(b"\n", cursor, p)
        cursor = p
        text = block[p:min(nl, p + MAX_LINE)].decode("utf-8", "replace").rstrip("\r")
        yield cur_no, text
        more = want_more(text) if want_more else 0
        follow = max(follow - 1, more) if follow else more
        next_start = nl + 1
    return follow, cur_no + block.count(b"\n", cursor, end)


def text_lines(text: str) -> Iterator[tuple[int, str]]:
    """Lines of an in-memory text (torchrun error.json messages), numbered from 1."""
    for i, line in enumerate(io.StringIO(text), 1):
        yield i, line.rstrip("\n")
