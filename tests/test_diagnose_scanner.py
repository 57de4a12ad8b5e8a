"""The fast paths of `ncclDoctor diagnose`'s reading give the answers of the plain ones (pure, fast).

The scanner finds trigger lines with one Aho-Corasick pass (ahocorasick_rs), else one
memmem pass per word, else bytes.find; it counts lines with numpy on long spans; the
parser skips a regex on a line that holds none of its required literals
(diagnose/prefilter.py). Each shortcut is checked here against the path it replaces on
the same input, so a speed-up can never change what diagnose reads.
"""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest

from ncclDoctor.diagnose import load, prefilter
from ncclDoctor.diagnose import signatures as S
from ncclDoctor.diagnose.load import Input, scan_lines
from ncclDoctor.diagnose.parse import LineParser

CORPUS = Path(__file__).parent / "fixtures" / "corpus"
WATCHDOG = ("[rank3]:[E1129 13:10:03.1 ProcessGroupNCCL.cpp:632] [Rank 3] Watchdog caught collective operation "
            "timeout: WorkNCCL(SeqNum=7, OpType=ALLREDUCE, NumelIn=4, NumelOut=4, Timeout(ms)=600000) ran for "
            "600100 milliseconds before timing out.")


def _log(seed: int) -> bytes:
    """A log that exercises every branch of the scanner: trigger words in every position,
    several on one line, progress bars glued with \\r, CRLF, lines longer than MAX_LINE,
    torchrun's multi-line summary (follow lines), NCCL's Last error on the next line."""
    rng = random.Random(seed)
    parts = []
    for _ in range(600):
        k = rng.random()
        if k < 0.3:
            parts.append(f"step {rng.randrange(9999)} loss {rng.random():.4f}\n")
        elif k < 0.4:
            parts.append("\r 20%|##   | 1/5 [00:01<00:04]\r 40%|####  | 2/5" + WATCHDOG + "\n")
        elif k < 0.5:
            parts.append(f"h:{rng.randrange(99)}:1 [0] NCCL INFO rank {rng.randrange(8)} nranks 8 - Init COMPLETE\r\n")
        elif k < 0.55:
            parts.append("RuntimeError: NCCL error in: x.cpp:1, unhandled system error\nLast error:\nsocket closed\n")
        elif k < 0.6:
            parts.append("x" * rng.choice([100, 700, 1400]) + " NCCL WARN tail of a long line\n")  # MAX_LINE: 512
        elif k < 0.65:
            parts.append("torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n=====\nFailures:\n"
                         "  <NO_OTHER_FAILURES>\n-----\nRoot Cause (first observed failure):\n[0]:\n  time      : "
                         "2024-01-01_00:00:00\n  host      : n1\n  rank      : 3 (local_rank: 3)\n  exitcode  : -9 "
                         "(pid: 12)\n  error_file: <N/A>\n  traceback : Signal 9 (SIGKILL) received by PID 12\n=====\n")
        elif k < 0.7:
            parts.append("exitcode signal NET/IB onnection [c10d] atchdog rror NCCL all on one line\n")
        elif k < 0.75:
            parts.append("rror, the only word, at the start of the line\n")
        else:
            parts.append(f"{{'loss': {rng.random():.3f}, 'epoch': {rng.random():.2f}}}\n")
    data = "".join(parts).encode()
    return data if seed % 2 else data + b"trailing line without a newline NCCL WARN x"


def _read(data: bytes, block: int | None, monkeypatch) -> tuple[list, int, list]:
    if block:
        monkeypatch.setattr(load, "BLOCK", block)
        monkeypatch.setattr(load, "MAX_LINE", 512)
    inp, fh = Input("rank3.log"), io.BytesIO(data)
    parser = LineParser(inp.path, 3)
    lines = list(scan_lines(fh, fh.read(8192), inp, parser.want_more))
    return lines, inp.lines, inp.notes


PATHS = {
    "automaton": {},
    "memmem": {"_ahocorasick": None},
    "bytes.find": {"_ahocorasick": None, "_MEMMEM": None},
}


@pytest.mark.parametrize("path", ["automaton", "memmem"])
@pytest.mark.parametrize("block", [None, 4096, 61])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_scanner_path_reads_the_same_lines(path, block, seed, monkeypatch):
    if path == "automaton" and load._ahocorasick is None:
        pytest.skip("ahocorasick_rs is not installed here (a dependency on Python >= 3.10): the automaton path "
                    "cannot run")
    if path == "memmem" and load._MEMMEM is None:
        pytest.skip("this C library has no memmem: only the bytes.find path exists here")
    data = _log(seed)
    with monkeypatch.context() as m:
        for name, value in PATHS["bytes.find"].items():
            m.setattr(load, name, value)
        m.setattr(load, "_NUMPY", [None])  # bytes.count too: the plainest path is the reference
        want = _read(data, block, m)
    for name, value in PATHS[path].items():
        monkeypatch.setattr(load, name, value)
    got = _read(data, block, monkeypatch)
    assert got == want
    assert len(want[0]) > 100  # the input did exercise hits
    assert bool(want[2]) == bool(block)  # and, with small blocks, a line longer than MAX_LINE across blocks


def test_a_line_with_several_words_is_read_once_from_its_first():
    data = b"noise\nfoo\rbar NCCL x rror y\n" + b"z" * 100 + b"\n" + b"a signal\rb exitcode\n"
    lines, n, _ = _read(data, None, None)
    assert lines == [(2, "bar NCCL x rror y"), (4, "a signal\rb exitcode")]
    assert n == 4


def test_counting_lines_through_numpy_equals_bytes_count():
    rng = random.Random(5)
    block = bytearray(rng.choices(b"ab\n\r", k=200_000))
    for start, end in [(0, len(block)), (3, 150_001), (10, 20), (0, 1 << 14), (7, 7 + (1 << 14))]:
        assert load._count_nl(block, start, end) == block.count(b"\n", start, end)
        assert load._count_nl(bytes(block), start, end) == block.count(b"\n", start, end)


# -- the regex prefilter ------------------------------------------------------------

@pytest.mark.parametrize("pattern, literals", [
    (r"Watchdog caught|timed out in blocking wait", ("timed out in blocking wait", "Watchdog caught")),
    (r"\b(\w{1,64}) set by environment to (\S+)", (" set by environment to ",)),
    (r"(?:NCCL )?INFO x", ("INFO x",)),
    (r"(?:ab){2,}cd", ("ab",)),  # ties on length: fewest alternatives, first seen
    (r"a|b|", None),  # an empty alternative matches anywhere
    (r"(?:foo)?bar?", ("ba",)),
    (r"(?i)Connection (?:reset|refused)", ("connection re",)),  # the parser inlines the group's common prefix
    (r"(?i:Foo)bar", ("bar",)),  # a scoped flag: only the part outside it
    (r"[Ll]ast error", ("ast error",)),
    (r"\d+ms", ("ms",)),
    (r"(?=abc)\w+", None),  # look-arounds are not relied on
])
def test_required_literals(pattern, literals):
    assert prefilter.required(re.compile(pattern)) == literals


def _corpus_lines() -> list[str]:
    lines = []
    for f in sorted(CORPUS.glob("*/*")) + sorted((CORPUS.parent / "logs").glob("*/*")):
        if f.name != "case.json" and f.suffix not in (".gz", ".pkl", ".pickle"):
            lines += [line[:2000] for line in f.read_text(errors="replace").splitlines()]
    return lines


def test_every_prefiltered_signature_answers_as_its_regex():
    """On every line of the labelled corpus, and on each line cut and re-glued at random,
    a guarded pattern's search/match/findall equal the bare regex's."""
    guarded = {n: getattr(S, n) for n in dir(S) if isinstance(getattr(S, n), prefilter.Guarded)}
    assert len(guarded) >= 15  # the slow ones (R_SOCKET, R_STORE, R_ENV_ASSIGN ...) are guarded
    lines = _corpus_lines()
    rng = random.Random(7)
    lines += [a[: rng.randrange(len(a) + 1)] + b[rng.randrange(len(b) + 1):] for a, b in
              ((rng.choice(lines), rng.choice(lines)) for _ in range(800))]
    lines = list(dict.fromkeys(lines))  # a line pasted into several cases answers the same each time
    assert len(lines) > 1500
    for name, g in guarded.items():
        for line in lines:
            a, b = g.search(line), g.regex.search(line)
            assert (a and (a.span(), a.groups())) == (b and (b.span(), b.groups())), (name, line)
            if b is None:  # the bare regex matches nowhere, so its match and findall find nothing either
                assert g.match(line) is None and g.findall(line) == [], (name, line)
                continue
            a, b = g.match(line), g.regex.match(line)
            assert (a and a.span()) == (b and b.span()), (name, line)
            assert g.findall(line) == g.regex.findall(line), (name, line)


def test_case_insensitive_prefilter_leaves_non_ascii_text_to_the_regex():
    """The regex engine folds the Kelvin sign onto k and the long s onto s; str.lower does not."""
    g = prefilter.Guarded(re.compile(r"broken pipe|kill", re.I), ("broken pipe", "kill"))
    for text in ("\u212aill", "BRO\u212aEN PIPE", "Broken Pipe", "bro\u017fen", "\u017fkill"):
        assert bool(g.search(text)) == bool(g.regex.search(text)), text
    assert g.search("\u212aill")  # matched by the regex, so by the guard
    assert g.search("nothing here") is None and g.findall("nothing") == [] and list(g.finditer("x")) == []


def test_a_guard_only_where_it_pays():
    """A regex starting with a literal is already fast (the engine scans for the prefix in C)."""
    assert isinstance(prefilter.guard(re.compile(r"\s(?:foo|bar) baz qux")), prefilter.Guarded)
    assert isinstance(prefilter.guard(re.compile(r"Watchdog caught \w+")), re.Pattern)
    assert isinstance(prefilter.guard(re.compile(r"^\s*(\d+): ")), re.Pattern)  # anchored
    assert isinstance(prefilter.guard(re.compile(r"\d+-\d+")), re.Pattern)  # a 1-character literal rules out little


def test_every_trigger_word_is_found_whichever_automaton_holds_it():
    """TRIGGERS are searched in chunks (one Aho-Corasick automaton per load._CHUNK words: past 64 words the SIMD
    searcher gives way and the scan costs 4x): a line holding any one word, from any chunk, is a hit, and the hits are
    those of the one-pass-per-word scan."""
    block = b"".join(b"x " + t + b" y\n" for t in load.TRIGGERS) + b"nothing to see\n"
    starts = load._find_hits(block, len(block))
    assert len(starts) == len(load.TRIGGERS)
    assert starts == load._find_hits_each(block, len(block))
    acs = load._automata()
    if acs is not None:  # ahocorasick_rs is installed where Python >= 3.10 (pyproject)
        assert len(acs) == -(-len(load.TRIGGERS) // load._CHUNK) >= 2
