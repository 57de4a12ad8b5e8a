"""Round 94 (session 37, fixer f7): torch 1.x watchdog lines pasted hard-wrapped, one of them ending at the column.

- c10's pre-glog header "[E ProcessGroupNCCL.cpp:828]" (a level letter, a blank, the source file and line) starts a
  record of its own: a wrapped line above it whose last piece ends exactly at the wrap column by chance is whole, so
  ingest.unwrap no longer joins the next rank's watchdog line onto it (ingest._c10_record). Joined, the second record
  was lost and its rank read as never having entered the collective. With every rank's line read, rule D reads the
  one rank whose op differs at the same SeqNum from the op the others agree on as the culprit (desync); the others
  are innocent (rule I for the teardown after). Round 94's transformers4rec-726 showed it: a progress bar before rank
  1's line made that line exactly three 80-column (two 120-column) pieces, and rank 2's ALLGATHER line was swallowed
  under wrap80, wrap120 and wrapquote (rank_missing [2] instead of desync [2]).
- Not read so: a header after a piece that ends in a launcher's or collector's tag ("...it/s][rank1]:", a clock and a
  blank) is still joined to it, the tag being the record's own prefix cut from it (round 60's trl-1902); a rest that
  only starts with "[E" ("[Errno 111] refused", no file and line) is still joined to the piece above it; a rank that
  logged no watchdog line at all stays rank_missing, wrapped or not (rule Y).
"""
from __future__ import annotations

from ncclDoctor.diagnose import ingest
from tests.conftest import verdict_accused, watchdog_line


def _wrap(text: str, width: int) -> str:
    """A terminal's hard wrap at WIDTH columns (the benchmark's wrap80/wrap120)."""
    return "\n".join("\n".join(line[k:k + width] for k in range(0, len(line), width)) if len(line) > width else line
                     for line in text.split("\n"))


def _bar_then(first: str, width: int) -> str:
    """A tqdm bar with the first record written right after it, padded so that the line is a whole number of
    WIDTH-column pieces (its last piece ends at the column)."""
    bar = "98%|#########8| 599/611 [01:50<00:01,  8.76it/s]"
    pad = -(len(bar) + len(first.rstrip("\n"))) % width
    return bar[:-9] + " " * pad + bar[-9:] + first


def _ops(ops: dict[int, str], width: int) -> str:
    lines = [watchdog_line(r, 1803, op, 1807737 + r, 1800000, style="1.x") for r, op in ops.items()]
    return _bar_then(lines[0], width) + "".join(lines[1:])


def test_one_ranks_other_op_is_read_when_the_line_above_it_ends_at_the_column(tmp_path):
    for width in (80, 120):
        text = _ops({1: "ALLREDUCE", 2: "ALLGATHER", 0: "ALLREDUCE", 3: "ALLREDUCE"}, width)
        wrapped = _wrap(text, width)
        assert ingest.wrap(wrapped.encode()) == (width, True)
        v, acc = verdict_accused(tmp_path, wrapped)
        assert v["cause"] == "desync" and v["culprits"] == [2] and acc == {2}, (width, v)


def test_the_legacy_header_starts_a_line_of_its_own():
    x = "=ALLREDUCE, Timeout(ms)=1800000) ran for 1807737 milliseconds before timing out."
    assert ingest._starts_anew(x, "[E ProcessGroupNCCL.cpp:828] [Rank 2] Watchdog caught collective operation timeo")
    assert ingest._starts_anew(x, "[W socket.cpp:601] [c10d] The client socket has failed to connect to [host]:2950")


def test_a_launcher_tag_cut_from_its_record_is_still_joined():
    bar = "Map:  17%|####      | 281398/1652614 [09:56<53:07, 430.16 examples/s][rank1]:"
    assert not ingest._starts_anew(bar, "[W socket.cpp:432] [c10d] While waitForInput, poolFD failed with (errno: 0")
    assert not ingest._starts_anew("2024-05-01 12:00:00.123 ", "[E ProcessGroupNCCL.cpp:828] [Rank 2] Watchdog caught")


def test_a_rest_that_only_starts_with_a_bracketed_e_is_still_joined():
    line = "RuntimeError: connect() to the store at 10.0.0.1:29500 failed after 30s, ret=-1 [Errno 111] refused"
    first, rest = line[:80], line[80:]
    assert rest.startswith("[Errno") and not ingest._starts_anew(first, rest)
    assert ingest.unwrap(first + "\n" + rest + "\n", 80).split("\n")[1] == line


def test_a_rank_with_no_watchdog_line_stays_missing_when_wrapped(tmp_path):
    abort = "host-a:462258:462571 [0] NCCL INFO comm 0x6e95d6c0 rank 2 nranks 4 cudaDev 2 busId 1d0 - Abort COMPLETE\n"
    text = _ops({1: "ALLREDUCE", 0: "ALLREDUCE", 3: "ALLREDUCE"}, 80) + abort
    v, acc = verdict_accused(tmp_path, _wrap(text, 80))
    assert v["cause"] == "rank_missing" and v["culprits"] == [2] and acc == {2}, v
