"""Ingest stage: read one input by what it is (log, Flight Recorder dump, ncclDoctor
report, torchrun error file) and fold what it says into the collected state.

Nothing here raises for bad content: each problem becomes a note on the input.

Two ways a line could be read twice or not at all are handled here: an ``ncclDoctor run``
directory's ``output.log`` repeats every worker line of ``ranks/rank<R>.log`` (each is read
once, from the per-rank file, which carries the rank: ``worker_lines``), and a paste
hard-wrapped at a terminal's width cuts signatures in two (the pieces are joined before
matching: ``wrap_width``, ``unwrap``).
"""

from __future__ import annotations

import io
import json
import multiprocessing
import os
import re
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from typing import BinaryIO

from ncclDoctor.diagnose.flight_recorder import looks_like_dump, parse_dump, summarise
from ncclDoctor.diagnose.load import (
    SNIFF,
    Input,
    _file_input,
    dump_rank_from_name,
    load_numpy,
    open_input,
    read_all,
    scan_lines,
    sniff,
    text_lines,
)
from ncclDoctor.diagnose.parse import LineParser
from ncclDoctor.diagnose.signatures import (
    ISO_CLOCK,
    R_ANSI,
    R_JOB_NCCL_TIMEOUT,
    R_NVLS_INFO,
    R_PY_FRAME_END,
    Event,
    prefix_match,
    strip_prefixes,
)
from ncclDoctor.diagnose.state import Collected
from ncclDoctor.fieldformats import nccl_tests

MAX_STRUCTURED = 256 << 20  # a Flight Recorder dump of 2000 entries is a few MB
PARALLEL_MIN_BYTES = 64 << 20  # below this, starting worker processes costs more than it saves
_RANK_LOG = re.compile(r"rank\d+\.log$")  # ncclDoctor run's per-rank tee files (live/launch.py)


def ingest_all(inputs: list[Input], jobs: int | None = None) -> Collected:
    """Read every input into one Collected. Large sets of files are split over ``jobs``
    worker processes (default: one per CPU once the files pass 64 MiB); each worker folds
    its share of files into its own bounded state, and the shares are merged in input
    order, so the result is the same as reading them one after another (stdin and
    unreadable inputs are taken first)."""
    c = Collected()
    tee = worker_lines(inputs)
    files = [i for i in inputs if i.opener is not None and os.path.isfile(i.path)  # pipes and stdin stay here
             and i.path not in tee]  # a run's output.log is read here, after its ranks' lines were counted
    if jobs is None:
        big = sum(_size(i.path) for i in files) >= PARALLEL_MIN_BYTES
        jobs = (os.cpu_count() or 1) if big else 1
    if jobs <= 1 or len(files) < 2:
        for inp in inputs:
            ingest(inp, c, tee.get(inp.path))
        return c
    parallel = {id(i) for i in files}
    for inp in inputs:
        if id(inp) not in parallel:
            ingest(inp, c, tee.get(inp.path))
    n = min(len(files), 4 * jobs)  # contiguous shares, merged in order; 4 per worker to balance sizes
    shares = [files[k * len(files) // n:(k + 1) * len(files) // n] for k in range(n)]
    ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    if ctx.get_start_method() == "fork":
        load_numpy()  # once here, inherited by every forked worker, instead of once in each
    with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
        done = list(pool.map(_ingest_share, [[i.path for i in share] for share in shares]))
    by_path = {}
    for part, read in done:
        c.merge(part)
        by_path.update({i.path: i for i in read})
    for n, inp in enumerate(inputs):
        if inp.path in by_path:
            inputs[n] = by_path[inp.path]
    return c


def _ingest_share(paths: list[str]) -> tuple[Collected, list[Input]]:
    c, read = Collected(), []
    for p in paths:
        inp = _file_input(p)
        ingest(inp, c)
        inp.opener = None  # not picklable, and no longer needed
        read.append(inp)
    return c, read


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


# The head of one NCCL message ("host:pid:tid [0] NCCL INFO ", or "[0] NCCL INFO " with the process cut off); after a
# space, where a paste flattened several of NCCL's lines onto one, each such head starts a line of its own; the host
# name is tried only where a name starts (no word character, "." or "-" before it), so a long run of word characters
# is not rescanned 255 characters from each of its positions (review 96 finding 11)
_NCCL_HEAD = re.compile(r"(?:(?<![\w.\-])[\w.\-]{1,255}:\d{1,10}:\d{1,10} )?\[\d{1,4}\] NCCL (?:INFO|WARN) ")


def nccl_pieces(text: str) -> list[str] | None:
    """A line holding several NCCL messages, flattened onto it by a paste ("[0] NCCL INFO NCCL_IB_HCA set to ...
    [0] NCCL INFO NET/IB : No device found. [0] NCCL INFO Using network Socket"), cut into one line a message, each
    read as NCCL printed it (lead rule K: each set-up line read by its own class); a short prefix before the first
    message (a launcher's "[rank3]: ", a clock) goes before each. None where the line holds one message."""
    if text.count("] NCCL ") < 2:
        return None
    heads = list(_NCCL_HEAD.finditer(text))
    if len(heads) < 2:
        return None
    starts = [h.start() for h in heads[1:] if text[h.start() - 1:h.start()].isspace()]
    if not starts:
        return None
    lead = text[:heads[0].start()]
    lead = lead if len(lead) <= 64 else ""
    cuts = [0, *starts, len(text)]
    return [(lead if i else "") + text[a:b].rstrip() for i, (a, b) in enumerate(zip(cuts, cuts[1:]))]


# A launcher's rank prefix ("[rank0]: ") after a space inside a line: torchrun's lines of one process, flattened onto
# one line by a paste ("[rank0]: Traceback (most recent call last): [rank0]: File \".../_backward.py\", line 66, in
# stage_backward [rank0]: extract_tensors_with_grads(...) ..."); each such prefix starts a line of its own
_RANK_HEAD = re.compile(r"(?<=\s)\[rank\d{1,6}\]: ")


# a rank prefix followed only by a host's name and its colon ("[rank3]: 172.27.221.56: "), up to where another starts
_HOST_AFTER_TAG = re.compile(r"\]: [\w.\-]{1,255}: ?$")


def rank_pieces(text: str) -> list[str] | None:
    """A line holding several of a launcher's "[rankN]: " lines, flattened onto it by a paste, cut back into one line
    each (round 105's pytorch-129732: a traceback whose frames, bare exception and chained tracebacks were joined two
    or three to a line). Only where the line itself starts with such a prefix (a short lead, a clock, before it) and
    another follows after a space; a prefix with nothing after it (a doubled "[rank0]: [rank0]: ") cuts nothing. None
    otherwise."""
    first = text.find("[rank")
    if not 0 <= first <= 64 or not text.startswith("]: ", text.find("]", first)) or text.count("[rank") < 2:
        return None
    starts = [m.start() for m in _RANK_HEAD.finditer(text, first + 1) if text[m.end():].strip()
              and not _RANK_HEAD.match(text, m.end())]
    # "[rank0]: [rank0]: x" is one line, and so is "[rank3]: 10.0.0.7: [rank5]: x": a collector's host prefix (pdsh's)
    # between a launcher's prefix and the rank's own -- nothing of a line of its own before the second prefix
    starts = [a for a in starts if not text[:a].rstrip().endswith("]:") and not _HOST_AFTER_TAG.search(text, 0, a)]
    if not starts:
        return None
    cuts = [0, *starts, len(text)]
    return [text[a:b].rstrip() for a, b in zip(cuts, cuts[1:]) if text[a:b].strip()]


# A log viewer's line number before a traceback's line, where a paste flattened the viewer's numbered lines onto one
# ("7650  File \"...\", line 369, in __iter__7651    synchronize_rng_states(...)7652  File ..."): the number, then
# what starts a traceback's line -- a frame, the indentation of a code line, the "Traceback (" header, a chained
# exception's sentence or an exception's head ("7656RuntimeError: ..."). A digit anywhere else (a version's
# "2.18.1 ncclUnhandled...", "Cuda failure 2 'out", a value's "tokens 4096") is no line number (review 98 finding 2)
_NUMBERED_LINE = re.compile(
    r'(?<!\d)(\d{1,9})(?=\s{1,8}File "|\s{2,}\S|Traceback \(|During handling of|The above exception'
    r'|[A-Za-z_][\w.]{0,120}(?:Error|Exception|Interrupt|Exit)\b)')
# the first number: before a frame or before the traceback's header
_NUMBERED_FIRST = re.compile(
    r'(?<!\d)(\d{1,9})(?=\s{1,8}File "[^"\n]{1,1000}", line \d|Traceback \(most recent call)')


# torchrun's failure record flattened onto one line by a page that shows a log without its newlines (a Space's
# runtime-error box: "Exit code: 1. Reason: ...api.py:869] failed (exitcode: 1) local_rank: 1 (pid: 77) of binary:
# /usr/bin/python Traceback (most recent call last): File ... ChildFailedError: ====... script.py FAILED ----...
# Failures: [1]: time : ... host : ... rank : 3 (local_rank: 3) exitcode : 1 (pid: 79) error_file: <N/A>"): where
# each of its lines starts after a space -- the agent's traceback header and frames, the ChildFailedError line, the
# rules, the section heads, each entry and its fields
_RECORD_CUT = re.compile(r"(?<=\s)(?:Traceback \(most recent call last\):|File \"[^\"\n]{1,1000}\", line \d{1,7}, in |"
                         r"(?:torch\.distributed\.elastic\.multiprocessing\.errors\.)?ChildFailedError:|={20,}|-{20,}|"
                         r"(?:Failures|Root Cause \(first observed failure\)):|\[\d{1,7}\]:(?= {1,4}time\b)|"
                         r"(?:time|host|rank|exitcode|error_file|traceback)\s{0,12}: )")
_RECORD_HEAD = re.compile(r"ChildFailedError:\s{1,4}={20,}")
_RECORD_EXIT = re.compile(r"(?<=\s)exitcode\s{0,12}: -?\d{1,3} \(pid: \d{1,10}\)")


def record_pieces(text: str) -> list[str] | None:
    """A torchrun failure record (its agent's traceback, the ChildFailedError line and the failure table) flattened
    onto one line, cut back into its lines (round 108's hf-space-daresearch: two workers' exits read as nothing).
    Only a line holding the ChildFailedError, a "Failures:" or "Root Cause" head and an entry's "exitcode :" field;
    a rule and the script's "FAILED" after it stay one line, as torchrun prints them. None otherwise."""
    if "ChildFailedError:" not in text or "exitcode" not in text or not ("Failures:" in text or "Root Cause" in text):
        return None
    if not _RECORD_HEAD.search(text) or not _RECORD_EXIT.search(text):
        return None  # torchrun's own record: its error line then a rule, and an entry's exit code
    starts = [m.start() for m in _RECORD_CUT.finditer(text)]
    if len(starts) < 4:
        return None
    cuts = [0, *starts, len(text)]
    return [text[a:b].rstrip() for a, b in zip(cuts, cuts[1:]) if text[a:b].strip()]


_RANK_HEAD_B = re.compile(rb"[ \t]\[rank\d{1,6}\]: ")


def unflatten_ranks(text: str) -> str | None:
    """The text with each line that rank_pieces cuts put back as its lines; None where no line is cut. The empty
    lines right after a cut line (where unwrap joined a hard-wrapped line, the places of its pieces) take its further
    pieces, so the lines after stay as near one another as they were printed."""
    lines, out, cut, i = text.split("\n"), [], False, 0
    while i < len(lines):
        line = lines[i]
        i += 1
        pieces = rank_pieces(line) if line.count("[rank") > 1 else None
        if pieces is None:
            out.append(line)
            continue
        cut = True
        out.extend(pieces)
        for _ in pieces[1:]:
            if i < len(lines) and not lines[i].strip():
                i += 1
    return "\n".join(out) if cut else None


def numbered_pieces(text: str) -> list[str] | None:
    """A traceback flattened onto one line with a log viewer's line numbers glued between its lines ('7650  File
    ".../data_loader.py", line 369, in __iter__7651    synchronize_rng_states(...)7652  File ...7656RuntimeError:
    Invalid mt19937 state'; round 99's deepspeed-3483), cut back into its lines without the numbers. The first number
    stands before a frame or the "Traceback (" header; each next one is the number before it plus one, found before
    the next frame's "File" (the line it numbers lies between the two), and starts a traceback's line (_NUMBERED_LINE:
    never a frame's "line 369," or a digit inside a code line or a message). The second and third numbered lines are
    frames, code lines or the header, not an exception's head alone. A launcher's or a clock's prefix at the start of
    the line ("[rank3]: ", R_LINE_PREFIX) goes before each piece; the text between it and the first number is a piece
    of its own. None where fewer than three such lines follow one another (review 98 finding 2)."""
    first = _NUMBERED_FIRST.search(text)
    if first is None:
        return None
    n, cuts, at = int(first.group(1)), [(first.start(), first.end())], first.end()
    found = [m for m in _NUMBERED_LINE.finditer(text, at)]
    i = 0
    while len(cuts) < 4096:
        own = at + len(text[at:at + 8]) - len(text[at:at + 8].lstrip())
        stop = text.find('File "', own + 1 if text.startswith('File "', own) else own)
        stop = len(text) if stop < 0 else stop
        want, hit = n + len(cuts), None
        while i < len(found) and found[i].start() < stop:
            m = found[i]
            i += 1
            if m.start() >= at and int(m.group(1)) == want:
                hit = m
                break
        if hit is None:
            break
        cuts.append((hit.start(), hit.end()))
        at = hit.end()
    if len(cuts) < 3 or any(not (text[b:b + 1].isspace() or text.startswith("Traceback (", b)) for _, b in cuts[1:3]):
        return None
    pre = prefix_match(text)
    lead = text[:pre.end()] if pre is not None and pre.end() <= first.start() else ""
    head = text[len(lead):first.start()].strip()
    ends = [a for a, _ in cuts[1:]] + [len(text)]
    return ([lead + head] if head else []) + [lead + text[b:e].rstrip() for (_, b), e in zip(cuts, ends)]


def _info_notes(c: Collected, piece: str) -> None:
    """The NCCL INFO set-up notes no family reads that the fix of set-up chatter names (lead rules K, Z; round 109's
    nccl-tests-245): the aws-ofi-nccl net plugin's lines ('NET/OFI ...'), its note that it turned GPUDirect RDMA off
    ('Could not disable CUDA API usage for HMEM, disabling GDR'), NCCL's DMA-BUF probe ('DMA-BUF is available on GPU
    device N')."""
    if "NET/OFI " in piece:
        c.info_notes.add("ofi")
        if "disabling GDR" in piece:
            c.info_notes.add("ofi_gdr_off")
    if "DMA-BUF is available" in piece:
        c.info_notes.add("dmabuf_probe")


def _line_key(text: str) -> str:
    return strip_prefixes(R_ANSI.sub("", text)).strip()


def worker_lines(inputs: list[Input]) -> dict[str, Counter]:
    """For each ``ncclDoctor run`` directory among the inputs (``output.log`` beside a
    ``ranks/`` folder of ``rank<R>.log``): the lines its workers wrote, counted from their
    per-rank files. ``output.log`` holds torchrun's own lines AND every worker's (the tee
    passes them on), so those are read once, from the per-rank file that carries the rank;
    only the lines the scanner would hand to the parser are counted (trigger lines)."""
    by_path = {i.path: i for i in inputs if i.opener is not None}
    out: dict[str, Counter] = {}
    for path in by_path:
        if os.path.basename(path) != "output.log":
            continue
        ranks_dir = os.path.join(os.path.dirname(os.path.abspath(path)), "ranks")
        ranks = [p for p in by_path
                 if os.path.dirname(os.path.abspath(p)) == ranks_dir and _RANK_LOG.match(os.path.basename(p))]
        if not ranks:
            continue
        seen: Counter = Counter()
        for p in ranks:
            probe = _file_input(p)
            fh = open_input(probe)
            if fh is None:
                continue
            with fh:
                kind, head = sniff(fh, probe)
                if kind == "log":
                    seen.update(_line_key(text) for _, text in scan_lines(fh, head, probe))
        out[path] = seen
    return out


def ingest(inp: Input, c: Collected, skip: Counter | None = None) -> None:
    """Read one input into ``c``; ``skip``: lines already read from elsewhere (``worker_lines``)."""
    fh = open_input(inp)
    if fh is None:
        return
    try:
        _dispatch(inp, fh, c, skip)
    except OSError as exc:  # e.g. EISDIR on a special file, EIO mid-read
        inp.notes.append(f"cannot read: {exc.strerror or exc}")
    finally:
        if fh is not getattr(sys.stdin, "buffer", None):
            fh.close()


def _dispatch(inp: Input, fh: BinaryIO, c: Collected, skip: Counter | None = None) -> None:
    kind, head = sniff(fh, inp)
    if kind == "skipped":
        inp.kind = "skipped"
    elif kind == "empty":  # still evidence: that rank wrote nothing
        inp.kind = "skipped"
        inp.notes.append("empty file")
        if inp.rank_hint is not None:
            c.see_file(inp.rank_hint, inp.path)
    elif kind == "binary":
        inp.kind = "skipped"
        inp.notes.append("binary content (NUL bytes): not a log, a Flight Recorder dump or a report; skipped")
    elif kind == "fr_pickle":
        data = read_all(fh, head, inp, MAX_STRUCTURED)
        if data is not None:
            _dump(inp, data, True, c)
    elif kind == "json":
        data = read_all(fh, head, inp, MAX_STRUCTURED)
        if data is not None:
            _json(inp, data, c)
    elif any(k in head for k in FR_ANALYSIS_KEYS):
        data = read_all(fh, head, inp, MAX_STRUCTURED)
        if data is not None:
            _fr_analysis(inp, data.decode("utf-8", "replace"), c)
    else:
        _log(inp, fh, head, c, skip)


# torch's Flight Recorder analyzer (python -m torch.distributed.flight_recorder.fr_trace,
# `torchfrtrace`) prints plain "%(message)s" lines; format strings from torch 2.13
# flight_recorder/components/utils.py (match_one_event callers) and types.py (EntryState.log).
# Older analyzers (torch 2.5-2.6 tools/flight_recorder) print "Not all ranks joining collective 5 at entry 4"; the
# first (2.4 fr_trace.py) "Not all ranks joining collective for group 0:default_pg collective nccl:all_reduce
# Missing ranks are {1}" on one line.
FR_ANALYSIS_KEYS = (b"Not all ranks joining collective", b"has errors\n", b"has errors\r\n", b"internal record id: ")
_FR_START = re.compile(r"(Not all ranks joining collective(?:, sequence number:| for group)?|Collective sequence "
                       r"number:) ?(\S+)")
_FR_OLD_LINE = re.compile(r"for group (\S+) collective (\S+)\s+Missing ranks are (\{[\d, ]*\})")
_FR_FIELD = re.compile(
    r"^(group info|collective|missing ranks|world size|expected ranks|collective state|error msg): (.*)$"
)


def _fr_analysis(inp: Input, text: str, c: Collected) -> None:
    """Blocks of the analyzer's verdicts: ranks missing from a collective (it compared
    every rank's dump, so this is direct evidence) and mismatches with a culprit rank."""
    inp.kind = "fr_analysis"
    block: Event | None = None
    stack = False
    for lineno, line in text_lines(text):
        line = strip_prefixes(R_ANSI.sub("", line).rstrip("\r"))
        if stack and block is not None and line.strip() and "/torch/" not in line:
            block.data.setdefault("stack", line.strip()[:200])  # the first frame outside torch: the caller
            stack = False
        stack = stack or line.strip().startswith("collective stack trace:")
        m = _FR_START.search(line)
        if m:
            seq = m.group(2).strip(",")
            block = Event("fr_analysis", f"{inp.path}:{lineno}", line.strip()[:400],
                          seq=int(seq) if seq.isdigit() else None)
            block.data["missing_join"] = m.group(1).startswith("Not all")
            old = _FR_OLD_LINE.search(line)
            if old:
                block.data.update(group_info=old.group(1), collective=old.group(2), missing_ranks=old.group(3))
            c.add_fr_analysis(block)
            continue
        f = _FR_FIELD.match(line.strip())
        if block is not None and f:
            block.data[f.group(1).replace(" ", "_")] = f.group(2).strip()[:400]
            if f.group(1) in ("missing ranks", "error msg"):
                block.text += " | " + line.strip()[:300]


MAX_UNWRAP = 8 << 20  # hard-wrapped text is a paste: read whole (larger files are a job's own logs)
WRAP_MIN = 60


TERMINAL_WIDTHS = (80, 100, 120, 132, 160, 200)  # where one wrapped line is enough to tell


# How a line that is NOT the rest of a wrapped one starts, at column 0: a log prefix ("[rank3]", glog's
# "[E1130", "[PG ", "[2024-", "E1130 "), an ISO date or one with the month's name (the Neuron runtime's
# "2023-Aug-01 16:14:43.0210"), a traceback's lines, "SomethingError:", an upper-case
# tag ("WARNING:"), NCCL's "host:pid:tid [", the C++ runtime's "terminate called ..." (its own line before an
# abort). A hard wrap puts the rest of a line at column 0, anywhere.
_NEW_LINE = re.compile(r"\[(?:rank\d|[EWIF]\d{4}|PG |Rank |\d{4}-)|\d{4}-(?:\d\d|[A-Z][a-z]{2})-\d\d|[EWIF]\d{4} |"
                       r"Traceback |  File \"|"
                       r"terminate called |"
                       # multiprocessing's header of a child's traceback ("Process Process-2:", "Process
                       # SpawnProcess-1:"): several children printing the same long error line make that line the
                       # longest, and the next child's header after it is a line of its own, never its rest
                       r"Process [A-Za-z]{0,20}Process-\d{1,5}:|"
                       # Open MPI's crash handler, each line its own ("[host:pid] *** Process received signal ***",
                       # "[host:pid] [ 3] /lib/libc.so.6(abort+0xd3)"): never the rest of the line above it
                       r"\[[\w.\-]{1,64}:\d{1,7}\] (?:\*\*\* |\[ ?\d{1,3}\] )|"
                       # Abseil's failure-signal handler ("*** SIGTERM received at time=N on cpu 3 ***", then its
                       # "PC: @ 0x7f... (unknown) recv" frame): each line its own, never the rest of the line above it
                       r"\*\*\* SIG[A-Z]{2,6} received at time=|PC: @ |"
                       r"[\w.]*(?:Error|Exception|Warning):|[A-Z][A-Z_]{2,}:|[\w.\-]+:\d+:\d+ \[|"
                       # a native backtrace's frame " 3  /usr/lib/x.so"
                       r"\s*#?\d{1,3}\s+(?:0x[0-9a-f]+ in )?/\S+\.so\b|"
                       # NCCL's debug header with its host:pid:tid cut down or renamed by the reporter ("node [1] NCCL
                       # INFO ...", "gpu3 [3] NCCL WARN ..."): a record of its own, never the rest of the line above it
                       r"[\w.\-:]{1,64} \[\d{1,3}\] NCCL (?:INFO|WARN|ERROR|TRACE)\b|"
                       # a syslog or CI console clock with the month's name ("Jul 25 04:11:56 ", Jenkins', journald's):
                       # a record of its own, so a line above that ends at the column by chance is whole (session 43:
                       # pytorch-42073's "CUDA error: CUDA driver version is insufficient for CUDA runtime version",
                       # 120 wide, took the next line's "Jul 25 04:11:56 Exception raised from ..." under wrap120)
                       r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d\d:\d\d:\d\d ")


# c10's pre-glog header "[E ProcessGroupNCCL.cpp:828]" (a level letter, a blank, the source file and line): each
# record its own line, so a line above it that ends at the column by chance is whole (round 94's transformers4rec-726:
# four watchdog lines, one reaching the column exactly, swallowed the next rank's and lost it). Unless the piece above
# ends in a launcher's or collector's tag ("...examples/s][rank1]:", "trainer-1  | ", a clock and a blank): that is
# the record's own prefix, cut from it at the column (round 60's trl-1902), and the two are one line.
_C10_HEAD = re.compile(r"\[[EWIF] \w[\w.\-]{0,80}\.(?:cpp|cc|cu|hpp|h):\d{1,6}\]")


def _c10_record(x: str, y: str) -> bool:
    """Whether y is a c10 record of its own after the piece x (``_C10_HEAD``), not the rest of x's prefix."""
    return bool(_C10_HEAD.match(y)) and not x[-1:].isspace() and not x.endswith(":")


_QUOTE = re.compile(r">(?: ?>)* ?")  # Markdown quoting, added to every piece when a wrapped paste is quoted


def _unquote(line: str) -> tuple[str, str]:
    m = _QUOTE.match(line)
    return (m.group(0), line[m.end():]) if m else ("", line)


def _rest(q: str, piece: str) -> str:
    """A wrapped piece without the quote of its line's first piece ``q``: all of it, or the part of it a quoted
    paste wrapped and quoted again has ("> > text" cut, then "> rest"), or none (a quoted paste wrapped afterwards:
    its pieces lack the quote)."""
    if piece.startswith(q):
        return piece[len(q):]
    qp = _unquote(piece)[0]
    return piece[len(qp):] if qp and q.startswith(qp) else piece


def _closes(x: str, y: str) -> bool:
    """Whether y starts with the ">" that closes a "<" x left open (NCCL's "peer 10.1.2.3<41138>" cut at the
    column right before its ">"): the rest of x, however much a Markdown quote it looks like."""
    return y.startswith(">") and x.count("<") > x.count(">")


def _rule(line: str) -> bool:
    return len(line.strip()) >= 8 and len(set(line.strip())) <= 2


# An exception's class cut at the column: x ends in the name's capitalised start ("... Run"), y goes on with its
# lower-case rest ("timeError: NCCL error: ..."), which only looks like a new "...Error:" line.
_CLASS_HEAD = re.compile(r"\b[A-Z]\w{0,60}$")
_CLASS_REST = re.compile(r"[a-z]\w{0,60}(?:Error|Exception|Warning):")


# the same cut right before the class's last word ("... FileNotFound" then "Error: No such file ..."; round 110's
# milabench-281 under a wrap at 80): x ends in a name of two capitalised humps at least, y starts with that last word
_CLASS_HUMPS = re.compile(r"\b[A-Z][a-z0-9]{1,30}(?:[A-Z][a-z0-9]{0,30}){1,6}$")
_CLASS_WORD = re.compile(r"(?:Error|Exception|Warning):")


def _cut_class(x: str, y: str) -> bool:
    return bool(_CLASS_HEAD.search(x) and _CLASS_REST.match(y)) or bool(
        _CLASS_WORD.match(y) and _CLASS_HUMPS.search(x))


def _frame_then_code(x: str, y: str) -> bool:
    """Whether x is a whole Python traceback frame line ('File "x.py", line N, in f') and y the indented code line
    Python prints under it: a frame that ends at the column by chance, not a frame cut there (a frame's function
    name cut at the column goes on with its rest, never with blanks then code). Round 72's dit-79: a DDP forward
    frame of exactly 132 columns, then its code line, was joined into one line and the cut traceback went unread."""
    return y[:1] in (" ", "\t") and bool(y.strip()) and bool(R_PY_FRAME_END.search(strip_prefixes(x)))


def _continues(x: str, y: str) -> bool:
    """Whether y can be the rest of x cut at a column: not a separator line cut, not a line that
    starts like a new one (``_NEW_LINE``, or a launcher prefix), not one that starts like x.
    A wrapped paste quoted afterwards has the same ``> `` on every piece: compared without it; a
    quoted paste wrapped afterwards has it on the first piece only."""
    qx, x = _unquote(x)
    if not qx and _closes(x, y):
        return True  # an unquoted line cut inside "<port>": y's ">" closes x's bracket, it is no quote
    if not qx and _unquote(y)[0]:
        return False
    y = _rest(qx, y)  # only x's own quote: the rest may itself start with ">" (the end of "<38081>")
    if not y.strip() or _rule(x) or _rule(y):  # the end of the text; "=====" / "-----" rules (torchrun's summary)
        return False
    if _closes(x, y) or _cut_class(x, y):
        return True  # the cut fell inside "<port>" (y closes x's bracket, not a quote) or an exception's class
    if _NEW_LINE.match(y) or _c10_record(x, y) or strip_prefixes(y) != y or _frame_then_code(x, y):
        return False
    return re.sub(r"\d+", "", x)[:16] != re.sub(r"\d+", "", y)[:16]


def wrap(head: bytes) -> tuple[int, bool] | None:
    """(column, visible) for a hard-wrapped text, or None. A terminal wraps what it shows, where colour codes take no
    column; a tool that wrapped a raw log (codes and all) counted them. So a text with colour codes is measured both
    ways, and the way that finds more cut lines wins (the visible one on a tie): ``visible`` says which, and
    ``unwrap`` cuts alike."""
    width, cuts = _wrap_found(head, visible=True)
    if b"\x1b" in head:
        raw, raw_cuts = _wrap_found(head, visible=False)
        if raw is not None and (width is None or raw_cuts > cuts):
            return raw, False
    return (width, True) if width is not None else None


def wrap_width(head: bytes, visible: bool = True) -> int | None:
    """The column a terminal or an issue box hard-wrapped this text at, or None. It is the
    longest line's width when no line is longer (by definition of a hard wrap), it is at
    least WRAP_MIN, and lines that reach it are followed by their rest (``_continues``: four
    "Sending process N closing signal SIGHUP" lines of one length are not one wrapped line).
    Two such lines are needed, or one at a usual terminal width. ``visible``: widths without
    colour codes (a screen's columns), else the raw characters'."""
    return _wrap_found(head, visible)[0]


def _wrap_found(head: bytes, visible: bool) -> tuple[int | None, int]:
    """(column or None, how many lines reach it and go on in the next): ``wrap_width``'s reading. Whether a
    line goes on is judged on the visible text either way (a colour code opening the next line is no text)."""
    text = head.decode("utf-8", "replace")
    shown = [x.rstrip("\r") for x in (R_ANSI.sub("", text) if "\x1b" in text else text).split("\n")]
    sized = shown if visible or "\x1b" not in text else [x.rstrip("\r") for x in text.split("\n")]
    if len(head) >= SNIFF:  # the last one may be cut by the head's end
        shown, sized = shown[:-1], sized[:-1]
    w = max(map(len, sized), default=0)
    if w < WRAP_MIN:
        return None, 0
    cuts = [(x, y) for n, x, y in zip(sized, shown, shown[1:]) if len(n) == w and _continues(x, y)]
    # one cut at a usual width: counted with its quote where the rest lacks it (a quoted paste wrapped afterwards:
    # "> " inside the 80, the rest unquoted) or without the quote added after the wrap (every piece's: "> " + 80;
    # "> " + "> text" cut at 80, then "> rest"). A quote on both pieces is never inside the width: a whole line of 98
    # columns quoted is 100 wide, and the next quoted line is no rest of it
    if len(cuts) == 1 and {w - len(_unquote(cuts[0][0])[0]), w - len(_unquote(cuts[0][1])[0])} & set(
            TERMINAL_WIDTHS):
        return w, 1
    # one cut, and a line padded with blanks up to that same column: a screen copy whose padding shows the
    # terminal's width (a progress bar's line wrapped, its last row filled out to the edge)
    if len(cuts) == 1 and any(len(n) == w and _padded(x) for n, x in zip(sized, shown)):
        return w, 1
    return (w, len(cuts)) if len(cuts) >= 2 else (None, 0)


# A logger's record header and nothing after it but blanks ("ERROR 07-23 19:34:51 [multiproc_executor.py:487]     "):
# a traceback logged line by line, cut at the column inside its source line's indentation. The blanks are the
# message's own, not a screen's padding: a record's header is never padded out to the edge with no message.
_HEAD_THEN_INDENT = re.compile(r"\b(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) [\d\-:. ]{8,30}"
                               r"\[?[\w.\-]{1,80}:\d{1,6}\] {2,}$")


def _padded(piece: str) -> bool:
    """Blanks up to the edge: a screen copy's padding after the line's end, not a cut (not a record's message cut
    inside its indentation, ``_HEAD_THEN_INDENT``)."""
    piece = R_ANSI.sub("", piece) if "\x1b" in piece else piece
    return piece.endswith("  ") and not _HEAD_THEN_INDENT.search(piece)


def _starts_anew(x: str, y: str) -> bool:
    """Whether y, after a line x that reaches the wrap column, is a line of its own: it starts like a new one
    (``_NEW_LINE``, a launcher prefix, a quote x lacks) or like x (the same srun label and host). Separator
    rules are still joined (a long "=====" wraps into pieces that all look alike)."""
    qx, x = _unquote(x)
    if not qx and _closes(x, y):
        return False  # the rest of "<port>" cut at the column ("peer 10.1.2.3<41138" then "> message ...")
    if not qx and _unquote(y)[0]:
        return True
    y = _rest(qx, y)
    if not y.strip() or _rule(x) or _rule(y) or _closes(x, y) or _cut_class(x, y):
        return False  # the end of the text, a separator, the rest of a cut "<port>" or exception class
    if _NEW_LINE.match(y) or _c10_record(x, y) or strip_prefixes(y) != y or _frame_then_code(x, y):
        return True
    if _whole_row(x, y) or nccl_tests.result_row(strip_prefixes(y)):
        return True  # a whole nccl-tests row ends at the column by chance, or follows a line that does
    return re.sub(r"\d+", "", x)[:16] == re.sub(r"\d+", "", y)[:16]


def _table_cut(parts: list[str], following: list[str], width: int) -> bool:
    """Whether the pieces so far and the next ones make an nccl-tests row or column header (``table_line``):
    a row cut in the blanks between two figures ends in blanks like a padded screen line, and the rest
    of a row ("   0    28.67    0.00 ...") may start like its first piece once digits are set aside."""
    q = _unquote(parts[0])[0]
    joined = _unquote("".join(parts))[1]
    if nccl_tests.table_line(strip_prefixes(joined)):  # whole already: it ends at the column by chance
        return False
    for nxt in following[:3]:  # a row behind a collector's timestamp is at most three pieces at 80
        nxt = nxt.rstrip("\r")
        joined += _rest(q, nxt)
        if nccl_tests.table_line(strip_prefixes(joined)):
            return True
        if len(nxt) != width:
            return False
    return False


def _whole_row(x: str, y: str) -> bool:
    """Whether x is a whole nccl-tests result row, so that y is a line of its own (the next row, the table's footer,
    whose start after digits differs from a row's), not x's last figure cut at the column ("1" then "0")."""
    return nccl_tests.result_row(strip_prefixes(x)) and not (x[-1:].isdigit() and y[:1].isdigit())


def unwrap(text: str, width: int, visible: bool = True) -> str:
    """Join each hard-wrapped line's pieces (every piece but the last is exactly ``width``
    wide) into one line, so that a signature cut at the column is read whole. The joined
    line keeps the number of its last piece: one empty line per joined piece goes before it,
    so every other line keeps its number in the file. ``visible``: the width counts the visible text (``wrap``)."""
    out, parts, prev, table = [], [], "", False
    lines = (R_ANSI.sub("", text) if "\x1b" in text else text).split("\n")  # the visible text is joined
    sized = lines if visible or "\x1b" not in text else text.split("\n")  # and measured as wrap measured it
    for i, line in enumerate(lines):
        if parts and not table and _starts_anew(prev, line.rstrip("\r")):
            # a line that ended at the column by chance: the next one starts like a new line (its own
            # launcher prefix, the same start as this one), so it is not this one's rest
            out.extend([""] * (len(parts) - 1))
            out.append("".join(parts))
            parts = []
        prev = line.rstrip("\r")
        bare = prev
        q = _unquote(parts[0])[0] if parts else ""
        if q:  # a quoted piece: its rest, without the first piece's "> " (the rest
            bare = _rest(q, bare)  # may itself start with ">", as the end of "<38081>" cut at the column)
        if _blank_trimmed(sized[i].rstrip("\r"), lines[i + 1:i + 2], width):
            parts.append(bare + " ")  # the cut fell on the blank between two words, which the paste trimmed
            continue
        parts.append(bare)
        if len(sized[i].rstrip("\r")) == width:
            table = _table_cut(parts, lines[i + 1:i + 4], width)
            if table or not _padded(bare):
                continue
        table = False
        out.extend([""] * (len(parts) - 1))
        out.append("".join(parts))
        parts = []
    if parts:
        out.extend([""] * (len(parts) - 1))
        out.append("".join(parts))
    return "\n".join(out)


def _blank_trimmed(piece: str, following: list[str], width: int) -> bool:
    """Whether ``piece``, one column short of the wrap, is a piece whose last column was the blank between two words:
    a copy (an issue box, an editor) trims trailing blanks, so "... to dump the " is left at width - 1 and its rest
    ("debug info. Last enqueued ...") starts the next line with the next word. Only a word cut so (a letter at the
    piece's end, a lower-case letter starting the rest, which does not start like a line of its own) is joined; a
    quoted paste's rest is judged without the quote its pieces share."""
    if len(piece) != width - 1 or not piece[-1:].isalpha() or not following:
        return False
    nxt = following[0].rstrip("\r")
    q = _unquote(piece)[0]
    rest = _rest(q, nxt) if q else nxt
    return rest[:1].islower() and len(rest) >= 2 and not _starts_anew(piece, nxt)


def _absorbed(text: str, out: list[str]) -> list[bool]:
    """Which lines of ``text`` ``unwrap`` took into a later line (their place is left empty in ``out``)."""
    lines = (R_ANSI.sub("", text) if "\x1b" in text else text).split("\n")
    return [not o and bool(x.strip()) for x, o in zip(lines, out)]


def _unwrap_again(text: str, out: list[str], width: int) -> list[str]:
    """``out`` (``text`` unwrapped at ``width``) with a wider wrap under it joined too: a reporter's terminal cut
    the log at 200 columns, then the issue box cut that at 80, so a line is 80+80+40, then its 200-column rest
    ("Timeout(ms)=6" / "00000) ran for ..."). The joined lines, read without the places left empty, are read for a
    wrap again (two cuts at least, at a wider column); the lines keep their numbers as ``unwrap`` keeps them."""
    gone = _absorbed(text, out)
    keep = [i for i, g in enumerate(gone) if not g]
    compact = "\n".join(out[i] for i in keep)
    wider, cuts = _wrap_found(compact.encode()[:MAX_UNWRAP], visible=True)
    if wider is None or wider <= width or cuts < 2:
        return out
    again = unwrap(compact, wider).split("\n")
    result = list(out)
    for k, i in enumerate(keep):
        result[i] = again[k]
    return result


# A log collector's clock before every line ("2024-05-01T12:00:00.123456789Z ", kubectl --timestamps, Loki): added
# after a terminal wrapped the text, it starts each piece too, so a piece's rest looks like a new line.
_STAMP = re.compile(ISO_CLOCK + " ")


def _one_prefix(lines: list[str]) -> str | None:
    """The launcher's or collector's prefix (``R_LINE_PREFIX``: "[rank3]: ", "[default0]:", "trainer-1  | ", a Ray
    actor's "(Name pid=N, ip=A) ") that every line but empty ones starts with, the same on each: one process's output,
    already wrapped (a wrapped paste, a file saved from a narrow screen) and prefixed afterwards, which starts each
    piece alike. The longest such prefix of the first line; None where there is none (several ranks' labels differ:
    a piece's label would not say it is the line above's rest)."""
    first = next((x for x in lines if x.strip()), "")
    heads, rest = [], first
    for _ in range(4):
        m = prefix_match(rest)
        if not m or not m.end():
            break
        rest = rest[m.end():]
        heads.append(first[:len(first) - len(rest)])
    for head in reversed(heads):
        if all(x.startswith(head) or not x.strip() for x in lines[:-1]):  # the last may be cut by the head
            return head
    return None


def _stamped(text: str) -> tuple[list, str, int] | None:
    """(each line's clock or prefix match, the text behind them, its wrap column) where every line that is not empty
    starts with a collector's clock (or one prefix, the same on every line: ``_one_prefix``) and the text behind them
    is hard-wrapped, cut at two lines at least; else None."""
    lines = text.split("\n")
    if text[:1].isdigit():
        stamps = [_STAMP.match(x) for x in lines]
        if any(m is None and x.strip() for x, m in zip(lines[:-1], stamps)):  # the last may be cut by the head
            return None
    else:
        head = _one_prefix(lines)
        if not head:
            return None
        lead = re.compile(re.escape(head))
        stamps = [lead.match(x) for x in lines]
    body = "\n".join(x[m.end():] if m else x for x, m in zip(lines, stamps))
    width, cuts = _wrap_found(body.encode()[:MAX_UNWRAP], visible=True)
    if width is not None and not text[:1].isdigit() and width > max(TERMINAL_WIDTHS):
        return None  # behind a launcher's prefix, lines of one template at one length (a progress bar, then the same
    # message) are no screen's cut: a prefix added after a wrap is added to a screen's or an issue box's lines
    return (stamps, body, width) if width is not None and cuts >= 2 else None


def unwrap_stamped(text: str) -> str | None:
    """``text`` with its wrapped lines joined where every line starts with a collector's clock (``_STAMP``) or one
    launcher prefix (``_one_prefix``) and the lines behind them are hard-wrapped (two cuts at least: one line of a
    usual width is no proof here, the clock says each line was written as one). A joined line keeps its first piece's
    clock or prefix; None where no line was joined. Lines keep their numbers (``unwrap``)."""
    found = _stamped(text)
    if found is None:
        return None
    stamps, body, width = found
    out = _unwrap_again(body, unwrap(body, width).split("\n"), width)
    start = None  # the first piece of the line being joined: its clock is the line's
    for i, gone in enumerate(_absorbed(body, out)):
        if gone:
            start = i if start is None else start
            continue
        m = stamps[i if start is None else start]
        out[i] = (m.group(0) if m else "") + out[i]
        start = None
    return "\n".join(out)


def _log(inp: Input, fh: BinaryIO, head: bytes, c: Collected, skip: Counter | None = None) -> None:
    inp.kind = "log"
    if inp.rank_hint is not None:
        c.see_file(inp.rank_hint, inp.path)
    p = LineParser(inp.path, inp.rank_hint, inp.rank_hint_is_local)
    found = wrap(head)
    stamped = found is None and _stamped(head.decode("utf-8", "replace")) is not None
    if found is not None or stamped:
        data = head + fh.read(max(MAX_UNWRAP - len(head), 0) + 1)
        if len(data) > MAX_UNWRAP:  # too large for a paste: read as it is, from what was read on
            head = data
        else:
            text = data.decode("utf-8", "replace")
            if found is not None:
                width, visible = found
                inp.notes.append(f"hard-wrapped at {width} columns: the pieces of each wrapped line were joined")
                joined = "\n".join(_unwrap_again(text, unwrap(text, width, visible).split("\n"), width)).encode()
            else:
                behind = "a log collector's clocks" if text[:1].isdigit() else "one launcher prefix on every line"
                inp.notes.append(f"hard-wrapped behind {behind}: the pieces of each wrapped line were joined")
                joined = (unwrap_stamped(text) or text).encode()
            if b"]: " in joined and _RANK_HEAD_B.search(joined) is not None:  # flattened as well as wrapped
                split = unflatten_ranks(joined.decode())  # joined was encoded from text: valid UTF-8
                joined = joined if split is None else split.encode()
            inp.bytes_read += len(data) - len(joined)  # scan_lines counts the joined text's bytes as read
            fh, head = io.BytesIO(joined), b""
    elif b"]: " in head and _RANK_HEAD_B.search(head) is not None:
        data = head + fh.read(max(MAX_UNWRAP - len(head), 0) + 1)
        split = None if len(data) > MAX_UNWRAP else unflatten_ranks(data.decode("utf-8", "replace"))
        if split is None:
            head = data
        else:  # a paste's rank-prefixed lines flattened: read one line each, numbered as they were printed
            inp.notes.append("several [rankN]: lines flattened onto one: each was read as a line of its own")
            joined = split.encode()
            inp.bytes_read += len(data) - len(joined)
            fh, head = io.BytesIO(joined), b""
    last_read = 0  # the last line any reader made an event of (a traceback's exception line among them)
    last_ev = None
    for lineno, text in scan_lines(fh, head, inp, p.want_more):
        if skip:
            key = _line_key(text)
            if skip[key] > 0:  # a worker's line, read from its rank's own file
                skip[key] -= 1
                continue
        pieces = nccl_pieces(text) if "] NCCL " in text else None
        if pieces is None and len(text) > 200 and text.count('File "') > 1:
            pieces = numbered_pieces(text)  # a traceback flattened with a log viewer's line numbers
        if pieces is None and len(text) > 200 and "ChildFailedError:" in text:
            pieces = record_pieces(text)  # torchrun's failure record flattened onto one line
        for piece in pieces or (text,):
            ev = p.parse(lineno, piece)
            if ev is not None:
                last_read, last_ev = lineno, ev
                c.add(ev)
            elif not c.nccl_info and " NCCL INFO " in piece:  # NCCL's INFO no family reads (verdict.noise, rule K)
                c.nccl_info = True
            elif "NCCL_TIMEOUT" in piece and R_JOB_NCCL_TIMEOUT.search(piece):
                c.job_nccl_timeout = True  # the job's own line printing its parameter (lead rule CJ (2))
            if "NCCL version" in piece and " NCCL INFO " in piece and len(c.info_versions) < 8:
                c.info_versions.append(piece)  # the version NCCL's INFO shows (conclude._removed_later)
            if not c.nvls_info and "NVLS" in piece and R_NVLS_INFO.search(piece):  # NVLS set-up (verdict.noise)
                c.nvls_info = True
            if "NCCL INFO " in piece and ("NET/OFI " in piece or "DMA-BUF is available" in piece):
                _info_notes(c, piece)  # aws-ofi-nccl's set-up notes, NCCL's DMA-BUF probe (verdict.noise._ofi_words)
    if last_read and last_read == p._last_line and last_ev.kind == "nccl_warn":
        last_ev.data["at_end"] = True  # the input's last line: a WARN the paste may have cut (verdict.noise._cut_copy)
    p.input_tail(inp.tail, inp.lines)
    ev = p.finish()
    if ev is not None:
        c.add(ev)
    for ev in p.queued:  # a record's further ranks not yet handed on
        c.add(ev)
    for ev in p.bars.values():  # how far each rank's data preparation got, at the end of its lines
        c.add(ev)
    for ev in p.loads.values():  # how far each rank's loading of the weights got, at the end of its lines
        c.add(ev)
    if (steps := p.step_block()) is not None:  # which ranks printed the last phase, and the phase before it
        c.add(steps)
    for ev in p.evals.values():  # how far each rank's evaluation got, at the end of its lines
        c.add(ev)
    for ev in p.unread:  # failures no family reads (generic.py): kept aside by Collected.add
        c.add(ev)
    if p.driver_step is not None:
        c.add(p.driver_step)
    if p.engine_rpc is not None:
        c.add(p.engine_rpc)
    if p.tcp_init is not None:
        c.add(p.tcp_init)
    if p.store_host is not None:
        c.add(p.store_host)
    if p.rank0_proc is not None:
        c.add(p.rank0_proc)
    if p.ds_kill is not None and not c.kinds["worker_failed"] and not c.kinds["child_failed"]:
        c.add(p.ds_kill)  # the launcher's kill lines are the only sign of a worker's failure
    if (builds := p.builds_seen()) is not None:  # two NCCL builds shown (lead rule AJ (1))
        c.add(builds)
    if p.coll_trace is not None:  # which traced processes the file's own NCCL lines tie to a rank ("rank N nranks M")
        p.coll_trace.data["pid_rank"] = {f"{h}:{pid}": r for (h, pid), r in list(p.pid_rank.items())[:64]}
    if any(e.data.get("goes_on") for e in c.exceptions):  # an MPI help message's "Error:" field the job went on
        c.exceptions = [e for e in c.exceptions if not e.data.get("goes_on")]  # after (lead rule AZ (4)): no failure
    last_read = max([last_read] + [int(n) for e in p.unread  # words no family reads
                                  if (n := e.where.rpartition(":")[2]).isdigit()])
    for ev in p.aside:  # a launch's processes per node, a node's GPUs, a traceback cut in init_process_group
        if ev.kind == "tb_open" and ev.data["head"] < last_read:
            continue  # a line after the traceback's header was read (its exception, a launcher's record of it)
        c.add(ev)
    if p.agent_frame is not None:  # only counted: torchrun's own frame is no line to cite
        c.kinds["agent_frame"] += 1
    c.accel_launch = c.accel_launch or p.accel_frame
    c.accel_seen = c.accel_seen or p.accel_seen
    c.accel_test = c.accel_test or p.accel_test
    c.kernel_old = c.kernel_old or p.kernel_seen


def _dump(inp: Input, data: bytes, is_pickle: bool, c: Collected) -> None:
    inp.kind = "fr"
    if inp.rank_hint is None:
        inp.rank_hint = dump_rank_from_name(inp.path)
    if inp.rank_hint is None:
        inp.notes.append("a Flight Recorder dump whose file name does not end in its rank (<prefix><rank>); not used")
        return
    try:
        dump = parse_dump(data, is_pickle)
    except ValueError as exc:
        inp.kind = "skipped"
        inp.notes.append(str(exc))
        return
    c.add_dump(inp.rank_hint, dump, inp.path)


def _json(inp: Input, data: bytes, c: Collected) -> None:
    try:
        obj = json.loads(data)
    except (ValueError, RecursionError):
        _log(inp, io.BytesIO(data[8192:]), data[:8192], c)  # JSON-looking text: read it as a log
        return
    if looks_like_dump(obj):
        if inp.rank_hint is None:
            inp.rank_hint = dump_rank_from_name(inp.path)
        if inp.rank_hint is None:
            inp.notes.append("a Flight Recorder dump whose file name does not end in its rank (<prefix><rank>); not "
                             "used")
            return
        inp.kind = "fr"
        c.add_dump(inp.rank_hint, summarise(obj), inp.path)
    elif isinstance(obj, dict) and "schema_version" in obj and isinstance(obj.get("findings"), list):
        _prior_report(inp, obj, c)
    elif isinstance(obj, dict) and "message" in obj:
        _torchrun_error(inp, obj, c)
    else:
        _log(inp, io.BytesIO(data[8192:]), data[:8192], c)


def _prior_report(inp: Input, obj: dict, c: Collected) -> None:
    inp.kind = "run_report"
    for f in obj["findings"]:
        if isinstance(f, dict) and f.get("severity") in ("warning", "error") and len(c.prior_findings) < 50:
            c.prior_findings.append({"code": str(f.get("code")), "severity": f.get("severity"),
                                     "message": str(f.get("message", "")),
                                     "ranks": [r for r in f.get("ranks", []) if isinstance(r, int)],
                                     "nodes": [str(n) for n in f.get("nodes", [])], "where": inp.path})


def _torchrun_error(inp: Input, obj: dict, c: Collected) -> None:
    """torchrun's error file (written by @record): the rank's own exception, with a real
    epoch timestamp, which orders it against the other ranks' failures."""
    inp.kind = "torchrun_error"
    msg = obj["message"]
    extra = msg.get("extraInfo", {}) if isinstance(msg, dict) else {}
    text = str(msg.get("message", "")) if isinstance(msg, dict) else str(msg)
    try:
        ts = float(extra.get("timestamp")) if isinstance(extra, dict) and extra.get("timestamp") else None
    except (TypeError, ValueError):
        ts = None
    p = LineParser(inp.path, inp.rank_hint, inp.rank_hint_is_local)
    found = False
    for lineno, line in text_lines(text):
        ev = p.parse(lineno, line)
        if ev is not None:
            ev.ts = ev.ts if ev.ts is not None else ts
            c.add(ev)
            found = found or ev.kind != "traceback_tail"
    if not found and text.strip():
        first = text.strip().splitlines()[-1][:300]
        c.add(Event("exception", f"{inp.path}:1", first, rank=inp.rank_hint, ts=ts))
