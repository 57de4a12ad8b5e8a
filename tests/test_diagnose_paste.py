"""diagnose reads a log the way people paste it (issue #14, item 2): hard-wrapped at a
terminal's width, Markdown-quoted, in a ``` fence, with CRLF, colours, timestamps or a
rank prefix. Every dev-split corpus case must keep its verdict under each perturbation
(bench_diagnose_accuracy.PERTURB; the held-out split is scored only at the end, by the
benchmark), and the unwrapping must not join lines that were never one. The whole sweep is
integration tier (tests/conftest.py); the quick tier checks every perturbation on
tests/_corpus.sample (3 dev cases of each cause class)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ncclDoctor.diagnose import diagnose
from ncclDoctor.diagnose.ingest import _unwrap_again, unwrap, unwrap_stamped, wrap, wrap_width
from tests import _corpus
from tests._corpus import bench

ROOT = Path(__file__).resolve().parent.parent

IB = ("node-7:12345:12400 [3] NCCL WARN NET/IB : Got completion from peer 10.1.2.3<49152> with status=12 opcode=0 "
      "len=0 vendor err 129 (Send) localGid ::ffff:10.1.2.4 remoteGid ::ffff:10.1.2.3")


def _check(name: str, cases: list[dict]) -> None:
    changed, base = _corpus.changed(name, cases, strict=True), _corpus.base(cases)
    assert not changed, [(cid, base[cid]["got"], r["got"]) for cid, r in changed]


@pytest.mark.parametrize("name", sorted(bench.PERTURB))
def test_every_corpus_case_keeps_its_verdict_when_pasted(name):
    """Integration tier: every dev case (the sweep grows with the corpus)."""
    _check(name, bench.load_cases("dev"))


@pytest.mark.parametrize("name", sorted(bench.PERTURB))
def test_a_sample_of_every_cause_keeps_its_verdict_when_pasted(name):
    """Quick tier: 3 dev cases of each cause class (tests/_corpus.sample), a fixed size however the corpus grows."""
    cases = _corpus.sample(bench.load_cases("dev"))
    assert {c["expected"]["cause"] for c in cases} == {c["expected"]["cause"] for c in bench.load_cases("dev")}
    _check(name, cases)


def _wrapped(text: str, width: int) -> str:
    return "\n".join(bench._wrap(width)(line, 0) for line in text.split("\n"))


@pytest.mark.parametrize("width", [72, 80, 100, 120])
def test_a_wrapped_signature_is_read_whole(tmp_path, width):
    text = "node-7:12345:12345 [3] NCCL INFO Bootstrap : Using eth0:10.1.2.4<0>\n" + IB + "\n" + IB + "\n"
    log = tmp_path / "job.log"
    log.write_text(_wrapped(text, width))
    v = diagnose([str(log)]).results["diagnose"]["verdict"]
    assert v["cause"] == "ib_fabric", v
    assert "status 12" in v["summary"], v


def test_unwrap_keeps_every_other_lines_number():
    text = _wrapped("first\n" + "x" * 150 + "\nthird line\nfourth", 60)
    lines = unwrap(text, 60).split("\n")
    assert lines[0] == "first" and lines[3] == "x" * 150  # the joined line keeps its last piece's number
    assert lines[1] == lines[2] == ""
    assert lines[4:] == ["third line", "fourth"]
    assert len(lines) == len(text.split("\n"))


def test_lines_of_one_length_that_are_not_wrapped_are_left_alone():
    """Four 'Sending process N closing signal SIGHUP' lines are the longest and equally long: not a wrap."""
    lines = [f"WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 29190{i} closing signal SIGHUP"
             for i in range(4)]
    assert wrap_width(("short line\n" + "\n".join(lines) + "\n").encode()) is None
    summary = "=" * 60 + "\ntrain.py FAILED\n" + "-" * 60 + "\nFailures:\n  <NO_OTHER_FAILURES>\n" + "=" * 60 + "\n"
    assert wrap_width(summary.encode()) is None  # torchrun's separator rules are not wrapped text


def test_wrap_width_is_found_from_the_pieces():
    text = _wrapped("head\n" + IB + "\nsome other line\n" + IB.replace("status=12", "status=5") + "\n", 90)
    assert wrap_width(text.encode()) == 90


def test_a_quoted_paste_wrapped_afterwards_with_one_cut_is_found_at_the_terminal_width():
    """Round 46 (pytorch-163063 under wrap80): a "> "-quoted paste hard-wrapped at 80 columns where one line only
    reaches the column: its 80 include the quote, and the piece after it (no quote of its own) is its rest; quoted
    again after the wrap, every piece's added "> " is outside the 80. A quoted line of 80 whose next line starts like
    a new one is no wrap."""
    for width, last in ((80, "Error : no algorithm/protocol available for function AllGather with datatype "
                                 "ncclBfloat16. NCCL_ALGO was set to Tree."),
                        (120, "NET/IB : Got completion from peer 10.4.7.21<41210> with error 12, opcode 0, len 0, "
                              "vendor err 129 (Recv) localGid ::ffff:10.4.7.9")):
        text = _wrapped("> ncclInvalidUsage: This usually reflects invalid usage of NCCL library.\n> Last error:\n> "
                        + last + "\n", width)
        assert wrap_width(text.encode()) == width, text
        assert ("> " + last) in unwrap(text, width).split("\n"), unwrap(text, width)
        again = "\n".join("> " + x for x in text.split("\n"))  # then quoted again: every piece "> ", the first "> > "
        assert wrap_width(again.encode()) == width + 2, again
        assert ("> > " + last) in unwrap(again, width + 2).split("\n")
    first = "> [rank0]: RuntimeError: NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled system error, v2.19"
    own = first[:80] + "\n> [rank1]: RuntimeError: NCCL error in: ProcessGroupNCCL.cpp:1970\n"
    assert len(first[:80]) == 80 and wrap_width(own.encode()) is None


def test_markdown_quote_and_fence(tmp_path):
    log = tmp_path / "issue.md"
    log.write_text("```\n" + "\n".join("> " + line for line in (IB, IB)) + "\n```\n")
    v = diagnose([str(log)]).results["diagnose"]["verdict"]
    assert v["cause"] == "ib_fabric", v


def test_a_long_last_line_is_not_a_wrap():
    """tests/fixtures/logs/blocking_wait: its two longest lines are both 200 wide (a usual terminal width), one
    followed by a line starting with its own '[rank0]:' tag, the other by the end of the text."""
    text = (ROOT / "tests" / "fixtures" / "logs" / "blocking_wait" / "job.log").read_bytes()
    assert max(len(x) for x in text.decode().split("\n")) == 200
    assert wrap_width(text) is None


def test_a_wrapped_file_too_large_for_a_paste_is_read_as_it_is(tmp_path, monkeypatch):
    """Past MAX_UNWRAP the file is a job's own log, not a paste: read unjoined, every line still
    read once (what was read ahead to decide goes to the scanner as its head)."""
    from ncclDoctor.diagnose import ingest

    monkeypatch.setattr(ingest, "MAX_UNWRAP", 2048)
    whole = "node-7:1:1 [0] NCCL WARN Cuda failure 'an illegal memory access was encountered'"
    text = _wrapped("start\n" + IB + "\n" + IB + "\n" + "chatter line\n" * 1000 + whole + "\n", 80)
    log = tmp_path / "big.log"
    log.write_text(text)
    d = diagnose([str(log)]).results["diagnose"]
    assert not [n for i in d["inputs"] for n in i["notes"] if "hard-wrapped" in n]
    assert d["inputs"][0]["bytes"] == len(text.encode())
    assert d["verdict"]["cause"] == "cuda_error", d["verdict"]  # the last line, past what was read ahead
    monkeypatch.setattr(ingest, "MAX_UNWRAP", 8 << 20)
    d = diagnose([str(log)]).results["diagnose"]
    assert [n for i in d["inputs"] for n in i["notes"] if "hard-wrapped at 80" in n]
    assert d["inputs"][0]["bytes"] == len(text.encode())


def test_a_line_that_ends_at_the_wrap_column_by_chance_is_not_joined_with_a_new_line(tmp_path):
    """A hard-wrapped paste where one original line is exactly as wide as the column: the next line starts like a new
    one (its own srun label and host prefix), so it is not that line's rest and the two stay apart."""
    host = "gpu-node-" + "7" * (120 - 104)  # the host name's length makes the line 120 columns wide
    first = f"0: {host}:1200:1300 [1] bootstrap.cc:91 NCCL WARN Message truncated : received 128 bytes instead of 8"
    nxt = f"0: {host}:1200:1300 [1] NCCL INFO bootstrap.cc:560 -> 3"
    long_ = "\n".join(f"1: {host}:1200:1300 [1] NCCL INFO Channel 0{c}/1 : 1[1] -> 0[1] [send] via "
                      "NET/IB/0/GDRDMA/Shared comm 0x5581ab2c rank 1 nRanks 2" for c in (0, 1))
    text = "\n".join([first, nxt, _wrapped(long_, 120)]) + "\n"
    assert len(first) == 120 and wrap_width(text.encode()) == 120
    assert unwrap(text, 120).split("\n")[:2] == [first, nxt]


def test_a_cuda_error_glued_to_torchs_advice_after_it_is_still_read(tmp_path):
    """A paste that lost the line break after the CUDA error's message (or a line that ended at a wrap column and
    was joined with the next): the message ends where torch's own advice ("CUDA kernel errors might ...") starts."""
    text = ("[Rank 5] NCCL watchdog thread terminated with exception: CUDA error: unspecified launch failure"
            "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below "
            "might be incorrect.\n")
    (tmp_path / "job.log").write_text(text)
    d = diagnose([str(tmp_path / "job.log")]).results["diagnose"]
    assert d["verdict"]["cause"] == "cuda_error", d["verdict"]


def test_a_unique_id_wait_wrapped_inside_its_store_arrow_still_names_rank_0(tmp_path):
    """Lead rule G through a hard wrap: a terminal cut the waiting rank's line inside "store->get" (a word cut at a
    hyphen, not at a letter), so the piece after it reads "->get('0') got error: ..." or ">get(...)": the two pieces
    are one line, the ncclUniqueId wait of rank 0's key, not a bare store timeout."""
    line = ("RuntimeError: [5] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via c10d key-value "
            "store by key '0', but store->get('0') got error: Socket Timeout")
    for cut in ("store-", "store->"):
        k = line.index(cut) + len(cut)
        assert k >= 100
        text = (line[:k] + "\n" + line[k:] + "\nException raised from recvBytes at /src/torch/csrc/distributed/c10d/"
                "Utils.hpp:672 (most recent call first):\n")
        (tmp_path / "job.log").write_text(text)
        d = diagnose([str(tmp_path / "job.log")]).results["diagnose"]
        assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("rank_missing", [0]), (cut, d["verdict"])


def _nccl_table(program: str, redop: str | None, root: int | None) -> str:
    """A synthetic nccl-tests table in its own formats (src/common.cu): since v2.13 ``%12li  %12li  %8s  %6s  %6i``
    then per side ``  %7s  %6.2f  %6.2f  %5s`` (116 columns); before it no root column and a ``%5.0le`` error,
    and all_gather's table has no redop column either (96 columns)."""
    lines = [f"# Collective test starting: {program}",
             "# nThread 1 nGpus 1 minBytes 8 maxBytes 134217728 step: 2(factor) warmup iters: 5 iters: 20 "
             "agg iters: 1 validation: 1 graph: 0",
             "#  Rank  0 Group  0 Pid  41230 on     node-1 device  0 [0000:18:00] NVIDIA H100 80GB HBM3",
             "#       size         count      type" + ("   redop" if redop else "") + ("    root" if root is not None
                                                                                     else "")
             + ("     time   algbw   busbw #wrong" if root is not None else "     time   algbw   busbw  error") * 2]
    for k in range(3, 28, 3):
        size, busbw = 1 << k, 0.011 * (1 << k) ** 0.5
        row = f"{size:12d}  {size // 4:12d}  {'float':>8s}" + (f"  {redop:>6s}" if redop else "")
        row += f"  {root:6d}" if root is not None else ""
        wrong = f"  {0:5d}" if root is not None else f"  {0.0:5.0e}"
        row += (f"  {30.0 + k:7.2f}  {busbw / 1.75:6.2f}  {busbw:6.2f}" + wrong) * 2
        lines.append(row)
    lines += ["# Out of bounds values : 0 OK", f"# Avg bus bandwidth    : {0.4:.4f} ",
              f"# Collective test concluded: {program}"]
    return "\n".join(lines) + "\n"


TABLES = {"all_reduce": _nccl_table("all_reduce_perf", "sum", -1),
          "broadcast": _nccl_table("broadcast_perf", "none", 0),
          "all_gather_v2.12": _nccl_table("all_gather_perf", None, None),
          "reduce_scatter_v2.12": _nccl_table("reduce_scatter_perf", "sum", None)}
PASTES = {"wrap80": lambda t: _wrapped(t, 80),
          "wrap80-quoted": lambda t: "\n".join("> " + x for x in _wrapped(t, 80).split("\n")),
          "wrap100": lambda t: _wrapped(t, 100),
          # kubectl's timestamps make a 116-column row 147 wide: a 120-column terminal cuts it
          "timestamps-wrap120": lambda t: _wrapped("\n".join(
              bench.VARIANTS["kubectl-timestamps"](x, i) for i, x in enumerate(t.split("\n"))), 120)}


def _field(tmp_path, text: str) -> list:
    (tmp_path / "job.log").write_text(text)
    return diagnose([str(tmp_path / "job.log")]).results["field"]


@pytest.mark.parametrize("paste", sorted(PASTES))
@pytest.mark.parametrize("table", sorted(TABLES))
def test_an_nccl_tests_table_hard_wrapped_at_a_terminal_width_reads_as_the_whole_table(tmp_path, table, paste):
    """nccl-tests' columns are blank-separated, so a row cut at the column often ends in blanks, like a screen
    copy's padded line: its pieces are still one row (the table's rows, busbw and verdict are the unwrapped ones)."""
    text = TABLES[table]
    wrapped = PASTES[paste](text)
    assert max(map(len, text.split("\n"))) > 80 and wrapped != text
    whole = _field(tmp_path, text)
    assert [t["sizes"] for t in whole[0]["tests"]] == [9], whole
    assert _field(tmp_path, wrapped) == whole


def test_an_nccl_tests_table_that_was_not_wrapped_keeps_its_rows_where_they_end_at_the_width():
    """A paste whose other lines were wrapped at 116 columns, the width of a v2.13 table's rows: each row ends at
    the column by chance and the next row starts anew; no row is joined with the next, none with its footer."""
    text = TABLES["all_reduce"].split("\n", 3)[3]  # an excerpt from the column header on (the preamble is wider)
    rows = [x for x in text.split("\n") if x.startswith("  ") and len(x) == 116]
    assert len(rows) == 9
    paste = _wrapped(IB + "\n" + IB + "\n", 116) + text
    assert wrap_width(paste.encode()) == 116
    lines = unwrap(paste, 116).split("\n")
    assert all(r in lines for r in rows)
    assert lines[-len(text.split("\n")):] == text.split("\n")


def _coloured(text: str, code: str = "1;31") -> str:
    return "\n".join(f"\x1b[{code}m{x}\x1b[0m" if x.strip() else x for x in text.split("\n"))


def test_colour_codes_take_no_column_when_finding_a_wrap(tmp_path):
    """Round 49 (Wan2.2-176 under the ansi perturbation): colour codes around every line made the longest lines,
    followed by another rank's own line, look hard-wrapped at the coloured width, and the joined lines hid the
    framework's own start-up check. A terminal's colours take no column: the width is the visible text's."""
    for ranks, size, world, code in (((0, 3, 2), 8, 4, "1;31"), ((5, 1), 16, 2, "33"), ((7, 0, 4, 2), 4, 8, "0;36")):
        text = "".join(
            f"===args.ulysses_size===: {size} ===world_size===: {world}\n"
            f"[rank{r}]: Traceback (most recent call last):\n"
            f'[rank{r}]:   File "/opt/Wan2.2/generate.py", line 343, in generate\n'
            f'[rank{r}]:     assert args.ulysses_size == world_size, f"The number of ulysses_size should be equal '
            f'to the world size."\n'
            f"[rank{r}]: AssertionError: The number of ulysses_size should be equal to the world size.\n"
            for r in ranks)
        coloured = _coloured(text, code)
        assert wrap_width(coloured.encode()) is None, code
        log = tmp_path / "job.log"
        log.write_text(coloured)
        v = diagnose([str(log)]).results["diagnose"]["verdict"]
        assert (v["cause"], v["culprits"]) == ("config", []), v


@pytest.mark.parametrize("width", [80, 120])
def test_a_coloured_paste_that_is_wrapped_is_still_found_and_joined(tmp_path, width):
    """The near shape: a coloured log hard-wrapped at a terminal's width (each piece coloured) is still a wrap, found
    at the visible width, its pieces joined so that the signature is read whole."""
    text = "node-7:12345:12345 [3] NCCL INFO Bootstrap : Using eth0:10.1.2.4<0>\n" + IB + "\n" + IB + "\n"
    coloured = _coloured(_wrapped(text, width))
    assert wrap_width(coloured.encode()) == width
    assert IB in unwrap(coloured, width).split("\n")
    log = tmp_path / "job.log"
    log.write_text(coloured)
    v = diagnose([str(log)]).results["diagnose"]["verdict"]
    assert v["cause"] == "ib_fabric", v


@pytest.mark.parametrize("width,code", [(80, "1;31"), (120, "0;32")])
def test_a_coloured_log_wrapped_in_its_raw_characters_is_found_and_joined(tmp_path, width, code):
    """A tool that hard-wrapped a raw log (colour codes and all, as round 48's verl-agent2 docstring was when re-pasted)
    cut it at the raw column, where the visible pieces are shorter: measured both ways, the raw reading finds more
    cut lines and wins, and the pieces are joined so that the signature is read whole (before: the visible reading
    alone found one coincidental 80-column line and joined nothing, losing the verdict)."""
    plain = "node-7:12345:12345 [3] NCCL INFO Bootstrap : Using eth0:10.1.2.4<0>\n" + IB + "\n" + IB + "\n"
    raw = _wrapped(_coloured(plain, code), width)
    found = wrap(raw.encode())
    if width == 80:  # the visible reading finds one middle piece at 80 and its rest; the raw one every cut
        assert found == (80, False)
    assert found is not None and IB in unwrap(raw, *found).split("\n")
    log = tmp_path / "job.log"
    log.write_text(raw)
    v = diagnose([str(log)]).results["diagnose"]["verdict"]
    assert v["cause"] == "ib_fabric", v
    # the near shape stays as it was: the same log wrapped at its visible width is read the visible way
    assert wrap(_coloured(_wrapped(plain, width), code).encode()) == (width, True)


@pytest.mark.parametrize("prefix, host, peer, got, want, width", [
    ("", "nid001097", "10.249.23.66<41138", 8, 4, 120),  # torchtitan-1681's shape
    ("3: ", "gpu-a17", "192.168.0.5<52344", 1048576, 524288, 100),
    ("[rank6]: ", "worker-12", "172.16.4.9<6001", 64, 16, 120),
])
def test_a_socket_truncation_wrapped_right_before_its_port_bracket_closes_is_read_whole(
        tmp_path, prefix, host, peer, got, want, width):
    """NCCL's NET/Socket "peer IP<port> message truncated" cut by a terminal right before the port's ">": the next
    piece starts "> message truncated", which looks like a Markdown quote but closes the "<" the cut left open,
    so the two pieces are one line (the ranks disagree on a transfer's size: desync), not a socket failure."""
    tail = ":5838:6020 [0] transport/net_socket.cc:561 NCCL WARN NET/Socket : peer "
    host += "-r" + "7" * (width - len(prefix + host + tail + peer) - 2)  # the cut falls right before the ">"
    head = prefix + host + tail
    line = (f"{head}{peer}> message truncated : receiving {got} bytes instead of {want}. If you believe your socket "
            "network is in a healthy state, there may be a mismatch in collective sizes or environment settings "
            "(e.g. NCCL_PROTO, NCCL_ALGO) between ranks")
    assert line.index(">") == width
    text = _wrapped(line + f"\n{prefix}{host}:5838:6020 [0] NCCL INFO transport/net.cc:1393 -> 5\n", width)
    assert text.split("\n")[1].startswith("> message truncated")
    assert wrap(text.encode()) == (width, True)
    assert unwrap(text, width).split("\n")[len(text.split("\n")) - 3] == line
    (tmp_path / "job.log").write_text(text)
    v = diagnose([str(tmp_path / "job.log")]).results["diagnose"]["verdict"]
    assert v["cause"] == "desync" and "message truncated" in v["summary"], v


def test_a_quote_after_a_line_whose_brackets_are_closed_stays_a_line_of_its_own():
    """The near shape: a line that ends at the column with every "<" closed ("eth0:10.1.2.4<0>"), then a quoted
    line: the quote is the reader's own, not the rest of a cut "<port>", so the two stay apart."""
    first = "node-7:12345:12345 [3] NCCL INFO Bootstrap : Using eth0:10.1.2.4<0>"
    first += " " * (120 - len(first) - 4) + "done"
    quoted = "> the job was restarted after this"
    long_ = ("node-7:12345:12345 [3] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB eth0:10.1.2.4<0> "
             "and then a long sentence that goes on past the column with words")
    text = "\n".join([first, quoted, _wrapped(long_, 120)]) + "\n"
    assert len(first) == 120 and wrap_width(text.encode()) == 120
    assert unwrap(text, 120).split("\n")[:2] == [first, quoted]


def _watchdog_lines(rank: int, seq: int, op: str) -> list[str]:
    """A rank's watchdog timeout as torch 2.5 prints it: three lines longer than any usual terminal."""
    tag = f"[rank{rank}]:[E417 20:43:19.1777{rank:05d} ProcessGroupNCCL.cpp"
    return [f"{tag}:616] [Rank {rank}] Watchdog caught collective operation timeout: WorkNCCL(SeqNum={seq}, "
            f"OpType={op}, NumelIn=131076096, NumelOut=131076096, Timeout(ms)=600000) ran for 600016 milliseconds "
            "before timing out.",
            f"{tag}:1785] [PG ID 1 PG GUID 1 Rank {rank}] Exception (either an error or timeout) detected by watchdog "
            f"at work: {seq}, last enqueued NCCL work: {seq + 290}, last completed NCCL work: {seq - 2}.",
            f"{tag}:630] [Rank {rank}] Some NCCL operations have failed or timed out. Due to the asynchronous nature "
            "of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data."]


def _reading(path) -> tuple:
    report = diagnose([str(path)])
    v = report.results["diagnose"]["verdict"]
    timeouts = [f.message for f in report.findings if f.code == "LOG005"]
    return v["cause"], v.get("confidence"), sorted(v.get("culprits") or []), timeouts


@pytest.mark.parametrize("rank,seq,op,term,paste", [(4, 1, "BROADCAST", 200, 80), (13, 57, "ALLREDUCE", 205, 100),
                                                    (0, 9, "ALLGATHER", 150, 72)])
def test_a_terminal_wrapped_log_wrapped_again_in_the_paste_reads_as_the_terminals_copy(tmp_path, rank, seq, op,
                                                                                         term, paste):
    """Round 51 (DeepSpeedExamples-964 under wrap80/wrap120/wrapquote): the reporter's terminal cut each watchdog line
    at its width ("Timeout(ms)=6" / "00000) ran for ..."), then the issue box cut those pieces again at a narrower
    one. The narrow wrap is joined first (80+80+40), the terminal's under it after: the log reads as the terminal's
    copy read alone (the SeqNum, the op and the timeout of the stuck collective are found again)."""
    text = "Time to load fused_adam op: 0.17 seconds\n" + "\n".join(_watchdog_lines(rank, seq, op)) + "\n"
    terminal = _wrapped(text, term)
    assert sum(len(x) == term for x in terminal.split("\n")) >= 2
    (tmp_path / "term.log").write_text(terminal)
    want = _reading(tmp_path / "term.log")
    assert f"SeqNum={seq} {op}" in want[3][0], want
    for name, pasted in (("wrapped", _wrapped(terminal, paste)),
                         ("wrapquote", "\n".join("> " + x for x in _wrapped(terminal, paste).split("\n")))):
        (tmp_path / f"{name}.log").write_text(pasted)
        assert _reading(tmp_path / f"{name}.log") == want, name


@pytest.mark.parametrize("stamp", ["2024-05-01 12:{m:02d}:{s:02d}.123 ", "2025-11-30T07:{m:02d}:{s:02d}.123456789Z "])
@pytest.mark.parametrize("rank,seq,term", [(4, 1, 200), (21, 388, 160)])
def test_a_terminal_wrapped_log_with_a_collectors_clock_on_every_piece_is_joined(tmp_path, stamp, rank, seq, term):
    """Round 51 (DeepSpeedExamples-964 under timestamps): a clock put before every line after a terminal wrapped
    them starts each piece too, so the piece after a cut looks like a line of its own. Behind the clocks the text is
    wrapped (two cuts at one column): those pieces are joined, and the joined line keeps its first piece's clock."""
    text = "Time to load fused_adam op: 0.17 seconds\n" + "\n".join(_watchdog_lines(rank, seq, "BROADCAST")) + "\n"
    terminal = _wrapped(text, term)
    stamped = "\n".join(stamp.format(m=i // 60, s=i % 60) + x for i, x in enumerate(terminal.split("\n")))
    (tmp_path / "term.log").write_text(terminal)
    (tmp_path / "stamped.log").write_text(stamped)
    want = _reading(tmp_path / "term.log")
    assert f"SeqNum={seq} BROADCAST" in want[3][0], want
    assert _reading(tmp_path / "stamped.log") == want
    joined = unwrap_stamped(stamped).split("\n")
    assert len(joined) == len(stamped.split("\n"))  # every other line keeps its number
    assert stamp.format(m=0, s=1) + _watchdog_lines(rank, seq, "BROADCAST")[0] in joined


def test_separate_lines_stay_separate_under_a_second_wrap_and_behind_clocks():
    """Lines of one length that each start like a new line ("[rankN]:") are not one wrapped line, whether the paste
    cut them again at 80 or a collector put its clock before each; a clocked log that is not wrapped is left alone,
    and one clocked line at a usual width is no proof of a wrap (the clock says it was written as one line)."""
    lines = [f"[rank{r}]:[W417 20:43:19.000 ProcessGroupNCCL.cpp:1000] [PG ID 0 PG GUID 0 Rank {r}] "
             + "x" * (150 - 2 * len(str(r))) for r in (3, 11, 7)]
    assert len({len(x) for x in lines}) == 1
    text = "\n".join(lines) + "\nend\n"
    pasted = _wrapped(text, 80)
    out = _unwrap_again(pasted, unwrap(pasted, 80).split("\n"), 80)
    assert [x for x in out if x] == lines + ["end"]
    stamped = "\n".join(f"2024-05-01 12:00:{i:02d}.123 {x}" for i, x in enumerate(text.split("\n")))
    assert unwrap_stamped(stamped) is None
    one = "2024-05-01 12:00:00.123 " + "y" * 120 + "\n2024-05-01 12:00:01.123 and more words after it\n"
    assert unwrap_stamped(one) is None


def test_a_quoted_line_that_reaches_a_terminal_width_only_with_its_quote_is_no_wrap(tmp_path):
    """Round 53's LlamaFactory-5719 under the quote paste: a line of 98 columns quoted is 100 wide, a usual terminal
    width, and the next quoted line ("> failed to create process.") was joined to it as its rest. A quote on both
    pieces is never inside the width; the rest of a quoted paste wrapped afterwards has no quote of its own."""
    for head, last in (("10/16/2024 14:54:11 - INFO - llamafactory.cli - Initializing distributed tasks at: "
                        "127.0.0.1:27877", "failed to create process."),
                       ("[2025-03-02 08:11:40,233] torch.distributed.run: [WARNING] Setting OMP_NUM_THREADS to 1 "
                        "by default", "failed to create process.")):
        line = (head + " (pid 4242)" * 3)[:98]  # 98 columns: 100 with its quote
        text = f"> {line}\n> {last}\n"
        assert wrap_width(text.encode()) is None, text
        (tmp_path / "q.log").write_text(text)
        v = diagnose([str(tmp_path / "q.log")]).results["diagnose"]["verdict"]
        assert v["cause"] == "config", v
    # the rest of a quoted paste wrapped afterwards (no quote of its own) still makes the quoted 80 a cut
    body = "[rank0]: RuntimeError: NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled system error (run with"
    text = "> " + body[:78] + "\n" + body[78:] + "\n"
    assert wrap_width(text.encode()) == 80, text


def test_a_collectors_clock_before_a_glog_info_header_keeps_the_header(tmp_path):
    """A collector's clock before glog's header without its year ("I0228 14:05:56.114109"): the level-and-date
    word is glog's, not a role tag like sglang's " TP3" after the clock, so it stays on the line and the INFO line
    it heads (ProcessGroupNCCL's own shutdown found as an async exception) is still INFO, not a failure."""
    from ncclDoctor.diagnose.signatures import strip_prefixes
    line = "I0228 14:05:56.114109 1619334 ProcessGroupNCCL.cpp:484] [Rank 3] found async exception"
    assert strip_prefixes("2024-05-01 12:00:07.123 " + line) == line
    assert strip_prefixes("2024-05-01T12:00:07.123456789Z " + line) == line
    # near shape: a role tag after the clock is still the collector's, not the line's
    assert strip_prefixes("[2025-01-01 12:00:00 DP0 TP3] Load weight end.") == "Load weight end."
    log = tmp_path / "rank3.log"
    log.write_text("2024-05-01 12:00:07.123 " + line + " when checking for NCCL errors: NCCL communicator "
                   "encountered error set by ProcessGroupNCCL: Process Group shutdown on rank 3\n")
    v = diagnose([str(log)]).results["diagnose"]["verdict"]
    assert v["cause"] == "none", v


@pytest.mark.parametrize("label", ["[rank3]: ", "[default0]:", "trainer-1  | ", "[2024-05-01 12:00:00,123] [INFO] ",
                                   "(RayWorkerWrapper pid=5304, ip=10.0.0.1) ", "[2025-02-26 11:16:37 TP0] "])
def test_a_wrapped_paste_under_one_launcher_prefix_on_every_piece_is_joined(tmp_path, label):
    """Round 71's cvpr2023-occupancy-5 under the rank prefix: a paste already cut at 80 columns, then labelled
    "[rank3]: " line by line, starts every piece alike, so a piece's rest looked like a line of its own and torchrun's
    "failed (exitcode: -9) local_rank: 1" record, cut in three, was read as an unknown failure (and so under every
    launcher's or collector's fixed prefix). Behind one prefix the text is wrapped (two cuts at least): the pieces are
    joined, each joined line keeping its prefix. Two ranks' labels are not joined (a piece's label would not say it
    is the rest of the other rank's line)."""
    lines = ["2023-03-06 23:16:30,723 - mmdet - INFO - Saving checkpoint at 1 epochs",
             "[>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>           ] 4712/6019, 6.7 task/s, elapsed: 706s, ETA:   196s"
             "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -9) local_rank: 1 (pid: 3636) of "
             "binary: /home/u/anaconda3/envs/open-mmlab/bin/python",
             "Traceback (most recent call last):",
             '  File "/home/u/anaconda3/envs/open-mmlab/lib/python3.8/runpy.py", line 194, in _run_module_as_main']
    terminal = _wrapped("\n".join(lines) + "\n", 80)
    assert len(terminal.split("\n")) > len(lines) + 3
    (tmp_path / "term.log").write_text(terminal)
    labelled = "\n".join(label + x if x else x for x in terminal.split("\n"))
    (tmp_path / "labelled.log").write_text(labelled)
    joined = unwrap_stamped(labelled).split("\n")
    assert len(joined) == len(labelled.split("\n"))  # every other line keeps its number
    assert label + lines[1] in joined
    want = _reading(tmp_path / "term.log")
    assert want[0] == "host_oom", want
    assert _reading(tmp_path / "labelled.log")[:3] == want[:3]
    two = "\n".join(f"[rank{3 + i % 2}]: " + x if x else x for i, x in enumerate(terminal.split("\n")))
    assert unwrap_stamped(two) is None
    # llamafactory-2424 under "[default0]:": two lines of one template at one length far beyond any screen (a progress
    # bar, then a watchdog line) are no screen's cut
    bar = "Running tokenizer on dataset:   9%|" + "#" * 80 + "| 280000/2969526 [29:55<4:48:08, 155.57 examples/s]"
    wd = ("[E ProcessGroupNCCL.cpp:475] [Rank {r}] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=2, "
          "OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for 180032{r} milliseconds before "
          "timing out.")
    same = [bar + wd.format(r=2), wd.format(r=1), bar + wd.format(r=3), "[E ProcessGroupNCCL.cpp:495] down."]
    assert len(same[0]) == len(same[2]) > 300
    assert unwrap_stamped("\n".join(label + x for x in same)) is None


def test_an_address_cut_to_the_start_of_a_piece_is_the_rest_of_its_line_not_a_launcher_prefix(tmp_path):
    """Round 72's torchgeo-1198 under wrap80: c10d's Windows warning "... failed to connect to [t2]:58152 (system error:
    10049 ...)" cut just before the address put " [t2]:58152 (" at a piece's start, which read like a launcher's
    "[name2]:" prefix, so the piece stood as a line of its own and the warning's head, without its W header's context,
    was read as a store failure. A bracketed name then a port and " (" or the end is an address; "[default0]:" before
    a clock, a progress bar, text or a cut number's rest is still a launcher's prefix."""
    from ncclDoctor.diagnose.signatures import strip_prefixes

    assert strip_prefixes(" [t2]:58152 (system error: 10049)") == " [t2]:58152 (system error: 10049)"
    assert strip_prefixes("[node001]:29500") == "[node001]:29500"
    assert strip_prefixes("[default3]:8000, Timeout(ms)=600000)") == "8000, Timeout(ms)=600000)"  # a cut number's rest
    assert strip_prefixes("[default0]:2024-05-01 12:00:00,123 INFO x") == "INFO x"  # the prefix, then the clock
    assert strip_prefixes("[rank0]:100%|####| 10/10") == "100%|####| 10/10"
    assert strip_prefixes("[rank3]: RuntimeError: x") == "RuntimeError: x"
    warn = (r"[W C:\actions-runner\_work\pytorch\pytorch\builder\windows\pytorch\torch\csrc\distributed\c10d\socket.cpp"
            ":601] [c10d] The client socket has failed to connect to [t2]:58152 (system error: 10049 - The requested "
            "address is not valid in its context.).")
    text = "\n".join(["Initializing distributed: GLOBAL_RANK: 0, MEMBER: 1/2", warn,
                      "Initializing distributed: GLOBAL_RANK: 1, MEMBER: 2/2", warn]) + "\n"
    assert any(x.startswith(" [t2]:58152") for x in _wrapped(text, 80).split("\n"))
    (tmp_path / "whole.log").write_text(text)
    (tmp_path / "wrapped.log").write_text(_wrapped(text, 80))
    want = _reading(tmp_path / "whole.log")
    assert want[0] == "none", want
    assert _reading(tmp_path / "wrapped.log") == want
