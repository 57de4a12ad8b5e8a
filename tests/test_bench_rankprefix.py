"""The paste check's "[rankN]: " prefix (bench_diagnose_accuracy.PERTURB["rankprefix"]) must be a paste a launcher
could print: one process's lines under one rank. C++'s std::terminate writes "terminate called after throwing ..."
and "  what():  ..." in one write, so both carry the rank the what() names (round 78's adl-10 changed its verdict
when they carried two)."""

from __future__ import annotations

from benchmarks import bench_diagnose_accuracy as bench
from tests.conftest import diagnose_verdict as _verdict

_WATCHDOG = ("  what():  [Rank {r}] Watchdog caught collective operation timeout: WorkNCCL(SeqNum={s}, "
             "OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 180{r}012 milliseconds before timing out.")
_TEARDOWN = ["[E ProcessGroupNCCL.cpp:456] Some NCCL operations have failed or timed out. Due to the asynchronous "
             "nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.",
             "[E ProcessGroupNCCL.cpp:461] To avoid data inconsistency, we are taking the entire process down.",
             "terminate called after throwing an instance of 'std::runtime_error'"]


def _adl_like() -> str:
    """Ranks 2 and 3 at one SeqNum, rank 1 one past it, rank 0 silent -- each what() after its own teardown."""
    lines = ["work = group.allreduce([tensor], opts)"]
    for r, s in ((2, 109468), (3, 109468), (1, 109469)):
        lines += _TEARDOWN + [_WATCHDOG.format(r=r, s=s)]
    return "\n".join(lines) + "\n"


def test_terminate_and_its_teardown_take_the_rank_their_what_names():
    out = bench.WHOLE["rankprefix"](_adl_like()).split("\n")
    assert out[0].startswith("[rank3]: work = ")  # before any tag: the fallback rank
    for k, r in enumerate((2, 3, 1)):
        block = out[1 + 4 * k: 5 + 4 * k]
        assert all(x.startswith(f"[rank{r}]: ") for x in block), block


def test_a_tagged_line_keeps_its_rank_and_lines_after_it_follow():
    out = bench.WHOLE["rankprefix"]("a\n[Rank 5] x\nb\n\nc").split("\n")
    assert out == ["[rank3]: a", "[rank5]: [Rank 5] x", "[rank5]: b", "", "[rank5]: c"]


def test_the_prefixed_paste_reads_as_the_plain_one(tmp_path):
    plain = _verdict(tmp_path, _adl_like())
    prefixed = _verdict(tmp_path, bench.WHOLE["rankprefix"](_adl_like()), "pasted.log")
    assert plain["cause"] == prefixed["cause"] == "rank_missing"
    assert not set(prefixed["culprits"]) & {1, 2, 3}
