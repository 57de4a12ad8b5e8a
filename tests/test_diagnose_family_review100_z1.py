"""Review 100 (second review, /work/notes/s40/findings2.md), findings 1 and 5: the watchdog's tag with its brackets
lost (round 100's accelerate-2062, parse._context's R_PG_RANK_BARE branch).

- Finding 1: the bare tag named its line's rank and then seeded the single-rank fallback, so an interleaved paste's
  untagged traceback below it (another process's OOM, "GPU 0") was read as that rank's: gpu_oom (high) with the rank
  that timed out -- a victim -- named culprit. A bare tag names its own line's rank only: the OOM below it names nobody
  (gpu_oom medium), as the same blocks in the other order read. The shape the fix was for (a lone bare tag in one of
  the first collectives: rule H's rank_missing, the shown rank innocent) reads as before.
- Finding 5: torch 2.3+'s tag "[PG ID 3 PG GUID 3(TENSOR_MODEL_PARALLEL_GROUP) Rank 1]" with its brackets lost kept
  only "Rank 1" (pg None: "pg ?", "process group untagged"); it keeps its group (and the group's description) as the
  bracketed tag does, and the older "PG 0 Rank 2" form and the groupless "Rank 1" read as before.
"""
from __future__ import annotations

import pytest

from ncclDoctor.diagnose.parse import LineParser
from tests.conftest import diagnose_text, verdict_accused


def _watchdog(rank: int, seq: int = 500, op: str = "ALLREDUCE", group: str = "", brackets: bool = False,
              at: int = 828) -> str:
    """torch 2.x's watchdog timeout line; GROUP the tag's words before "Rank N"; BRACKETS: as torch printed it."""
    tag = f"[{group}Rank {rank}] " if brackets else f"{group}Rank {rank} "
    head = f"[E ProcessGroupNCCL.cpp:{at}] " if brackets else f"E ProcessGroupNCCL.cpp:{at} "
    return (f"{head}{tag}Watchdog caught collective operation timeout: WorkNCCL(SeqNum={seq}, OpType={op}, "
            f"NumelIn=1024, NumelOut=1024, Timeout(ms)=600000) ran for 600012 milliseconds before timing out.\n")


def _oom(gpu: int = 0, script: str = "train.py") -> str:
    return ("Traceback (most recent call last):\n"
            f"  File \"{script}\", line 88, in <module>\n"
            "    loss.backward()\n"
            f"torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU {gpu}; 79.3 GiB total "
            "capacity; 77.1 GiB already allocated)\n")


def _oom_line_rank(watchdog: str, gpu: int = 0) -> int | None:
    """The rank the parser gives the untagged OOM line read right after WATCHDOG's line (None: nobody's)."""
    p = LineParser("job.log")
    p.parse(1, watchdog.rstrip("\n"))
    ev = p.parse(5, "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB "
                    f"(GPU {gpu}; 79.3 GiB total capacity; 77.1 GiB already allocated)")
    assert ev is not None, "the OOM line was not read"
    return ev.rank


# --- finding 1 -----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("rank,seq,op,gpu,at", [
    (1, 500, "ALLREDUCE", 0, 828),     # the reviewer's il1.log
    (3, 1200, "ALLGATHER", 0, 455),
    (2, 77, "REDUCE_SCATTER", 5, 1590),
    (5, 9001, "BROADCAST", 1, 607),
])
def test_an_untagged_oom_below_a_bare_watchdog_tag_does_not_inherit_its_rank(tmp_path, rank, seq, op, gpu, at):
    v, acc = verdict_accused(tmp_path, _watchdog(rank, seq, op, at=at) + _oom(gpu))
    assert v["cause"] == "gpu_oom", v
    assert v["culprits"] == [] and v["confidence"] == "medium", v
    assert rank not in acc and _oom_line_rank(_watchdog(rank, seq, op, at=at), gpu) is None, (acc, v)  # a victim's
    # read as the same two blocks in the other order
    w, _ = verdict_accused(tmp_path, _oom(gpu) + _watchdog(rank, seq, op, at=at))
    assert (w["cause"], w["culprits"], w["confidence"]) == (v["cause"], v["culprits"], v["confidence"]), (v, w)


@pytest.mark.parametrize("group", ["PG 0 ", "PG ID 3 PG GUID 3(TENSOR_MODEL_PARALLEL_GROUP) "])
def test_an_untagged_oom_below_a_bare_tag_with_its_group_does_not_inherit_its_rank(tmp_path, group):
    v, acc = verdict_accused(tmp_path, _watchdog(1, group=group) + _oom())
    assert (v["cause"], v["culprits"]) == ("gpu_oom", []), v
    assert _oom_line_rank(_watchdog(1, group=group)) is None  # the OOM is not the timed-out rank 1's


def test_the_bare_tag_still_names_its_own_lines_rank(tmp_path):
    # the shape the bare tag was read for: a lone rank inside one of the first collectives, rank 0 not shown
    v, acc = verdict_accused(tmp_path, _watchdog(1, seq=1, op="ALLGATHER"))
    assert (v["cause"], v["culprits"]) == ("rank_missing", []), v
    assert "rank 1" in v["summary"] and 1 not in acc, (acc, v)
    ev = LineParser("job.log").parse(1, _watchdog(1, seq=1).rstrip("\n"))
    assert ev is not None and ev.rank == 1, ev


def test_a_bare_tags_rank_is_not_handed_to_the_next_untagged_line():
    p = LineParser("job.log")
    first = p.parse(1, _watchdog(3).rstrip("\n"))
    assert first is not None and first.rank == 3, first
    later = p.parse(5, "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 79.3 GiB "
                       "total capacity; 77.1 GiB already allocated)")
    assert later is not None and later.rank is None, later
    # a bracketed tag still hands it on to an OOM whose figures name the rank's own GPU; one naming no GPU (or
    # another) is no longer the waiting rank's (second review 100 finding 1, the bracketed tag)
    q = LineParser("job.log")
    q.parse(1, _watchdog(3, brackets=True).rstrip("\n"))
    ev = q.parse(5, "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 3; 79.3 GiB "
                    "total capacity; 77.1 GiB already allocated)")
    assert ev is not None and ev.rank == 3, ev
    ev = q.parse(6, "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB")
    assert ev is not None and ev.rank is None, ev


@pytest.mark.parametrize("bare_first", [True, False])
def test_a_bare_tag_beside_another_ranks_bracketed_tag_hands_neither_on(bare_first):
    # two ranks shown, one of them by a bare tag: an untagged line is neither's (as with two bracketed tags)
    p = LineParser("job.log")
    lines = [_watchdog(2).rstrip("\n"), _watchdog(0, brackets=True).rstrip("\n")]
    for i, line in enumerate(lines if bare_first else lines[::-1]):
        p.parse(i + 1, line)
    ev = p.parse(5, "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB")
    assert ev is not None and ev.rank is None, ev


def test_three_bare_ranks_still_read_as_before(tmp_path):
    text = "".join(_watchdog(r, seq=5) for r in (1, 2, 3))
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "rank_missing" and v["confidence"] == "low", v
    assert not ({1, 2, 3} & acc), (acc, v)


# --- finding 5 -----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("group,pg,desc", [
    ("PG ID 3 PG GUID 3(TENSOR_MODEL_PARALLEL_GROUP) ", "3", "TENSOR_MODEL_PARALLEL_GROUP"),
    ("PG ID 0 PG GUID 0(default_pg) ", "0", "default_pg"),
    ("PG ID 12 PG GUID 12 ", "12", None),
    ("PG ID 5 PG GUID 5(undefined) ", "5", "undefined"),
    ("PG 0 ", "0", None),       # the older form, read before
    ("", None, None),           # no group, read before
])
def test_a_bare_tag_keeps_its_process_group(group, pg, desc):
    line = _watchdog(1, seq=77, group=group).rstrip("\n")
    ev = LineParser("job.log").parse(1, line)
    assert ev is not None and (ev.rank, ev.pg) == (1, pg), ev
    assert ev.data.get("pg_desc") == desc, ev.data
    # as the bracketed tag reads
    br = LineParser("job.log").parse(1, _watchdog(1, seq=77, group=group, brackets=True).rstrip("\n"))
    assert br is not None and (br.rank, br.pg) == (ev.rank, ev.pg), (ev, br)


def _pg_words(d: dict) -> str:
    return " ".join(f["detail"] for f in d.get("findings", []) if isinstance(f, dict) and "detail" in f) or str(d)


@pytest.mark.parametrize("ranks,seq", [((1, 2, 3), 77), ((1,), 1), ((2, 3), 40)])
def test_torch23_bare_tags_read_their_group_as_the_bracketed_tags_do(tmp_path, ranks, seq):
    group = "PG ID 3 PG GUID 3(TENSOR_MODEL_PARALLEL_GROUP) "
    bare = diagnose_text(tmp_path, "".join(_watchdog(r, seq=seq, group=group, at=607) for r in ranks))
    brk = diagnose_text(tmp_path, "".join(_watchdog(r, seq=seq, group=group, at=607, brackets=True) for r in ranks))
    vb, vk = bare["verdict"], brk["verdict"]
    assert (vb["cause"], vb["culprits"], vb["confidence"]) == (vk["cause"], vk["culprits"], vk["confidence"]), (vb, vk)
    assert "pg ?" not in str(bare) and "untagged" not in str(bare), _pg_words(bare)
    assert "pg 3" in str(bare), _pg_words(bare)
