"""An untagged OOM traceback below a rank's own watchdog timeout line (second review 100 finding 1, the bracketed tag;
rules B, BX, AC (1), AN (2)).

A rank whose own tagged line shows it waiting inside a collective (torch's "[Rank R] Watchdog caught collective
operation timeout: WorkNCCL(SeqNum=N, ...)") is a victim by rule B. An untagged traceback pasted below it whose OOM
figures name another device ("(GPU K; T total capacity; ...", torch >= 2.1's "GPU K has a total capacity of ...",
torch_npu's "(NPU K; ...") is another process's failure (rule BX: torch's OOM figures name their GPU; rule AC (1): an
untagged line names no rank), as in an interleaved paste: it must not inherit the waiting rank, and reads as the same
two blocks in the other order do (gpu_oom, the waiting rank not named); so does an untagged OOM or CUDA error whose
text names no GPU at all. The near shapes keep their reading: an OOM
under a rank's own tag, an untagged OOM after a tagged rank's own non-collective line, and an OOM on the GPU whose
index is the waiting rank's own.
"""
from __future__ import annotations

import pytest

from tests.conftest import accused, diagnose_text, verdict_accused, watchdog_line

_TB = ("Traceback (most recent call last):\n"
       '  File "train.py", line 88, in <module>\n'
       "    loss.backward()\n")


def _old(dev: int, figures: str = "77.1 GiB already allocated") -> str:
    return ("torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB "
            f"(GPU {dev}; 79.3 GiB total capacity; {figures})\n")


def _new(dev: int, spelling: str = "capacity") -> str:
    return (f"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU {dev} has a total {spelling} "
            "of 79.15 GiB of which 1.02 GiB is free. Including non-PyTorch memory, this process has 78.11 GiB "
            "memory in use. Of the allocated memory 76.40 GiB is allocated by PyTorch, and 1.20 GiB is reserved by "
            "PyTorch but unallocated.\n")


def _npu(dev: int) -> str:
    return (f"RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU {dev}; 60.97 GiB total capacity; "
            "58.10 GiB already allocated; 58.10 GiB current active; 0 bytes free; 60.06 GiB reserved in total by "
            "PyTorch)\n")


_SHAPES = [
    (1, 0, 500, "ALLREDUCE", _old(0)),  # the reviewer's input (il2.log)
    (3, 1, 77, "BROADCAST", _old(1, "70.02 GiB already allocated; 1.20 GiB free; 77.50 GiB reserved in total by "
                                    "PyTorch")),
    (2, 0, 12001, "ALLGATHER", _old(0)),
    (0, 2, 500, "ALLREDUCE", _new(2)),
    (1, 3, 4242, "REDUCE_SCATTER", _new(3, "capacty")),  # torch 2.1's spelling
    (1, 0, 500, "ALLREDUCE", _npu(0)),
    (5, 2, 9, "ALLREDUCE", _npu(2)),
]


@pytest.mark.parametrize("style", ["1.x", "2.4"])
@pytest.mark.parametrize("rank,dev,seq,op,oom", _SHAPES)
def test_an_untagged_oom_on_another_gpu_does_not_inherit_a_waiting_ranks_tag(tmp_path, style, rank, dev, seq, op, oom):
    wd = watchdog_line(rank, seq, op, 600012, 600000, numel=1024, style=style, at=828)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    v, acc = verdict_accused(tmp_path / "a", wd + _TB + oom)
    assert v["cause"] == "gpu_oom", v
    assert rank not in v["culprits"] and rank not in acc, (v, acc)
    # the same two blocks in the other order read the same
    w, acc2 = verdict_accused(tmp_path / "b", _TB + oom + wd)
    assert (v["cause"], v["culprits"], v["confidence"], acc) == (w["cause"], w["culprits"], w["confidence"], acc2)


def test_the_reviewers_input_names_nobody_at_medium(tmp_path):
    wd = watchdog_line(1, 500, "ALLREDUCE", 600012, 600000, numel=1024, style="1.x", at=828)
    v, acc = verdict_accused(tmp_path, wd + _TB + _old(0))
    assert (v["cause"], v["culprits"], v["confidence"]) == ("gpu_oom", [], "medium") and not acc, v


@pytest.mark.parametrize("style", ["1.x", "2.4"])
@pytest.mark.parametrize("rank,err", [
    (1, "RuntimeError: CUDA error: an illegal memory access was encountered\n"),
    (3, "RuntimeError: CUDA error: an illegal memory access was encountered\n"),
    (1, "RuntimeError: CUDA error: out of memory\n"),
    (2, "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n"),
])
def test_an_untagged_device_failure_naming_no_gpu_does_not_inherit_a_waiting_ranks_tag(tmp_path, style, rank, err):
    # no figure ties the failure to the waiting rank: it reads as the same blocks in the other order
    wd = watchdog_line(rank, 500, "ALLREDUCE", 600012, 600000, numel=1024, style=style, at=828)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    v, acc = verdict_accused(tmp_path / "a", wd + _TB + err)
    assert rank not in v["culprits"] and rank not in acc, (v, acc)
    w, acc2 = verdict_accused(tmp_path / "b", _TB + err + wd)
    assert (v["cause"], v["culprits"], v["confidence"], acc) == (w["cause"], w["culprits"], w["confidence"], acc2)


# --- near shapes that keep their reading ---------------------------------------------------------------------------
@pytest.mark.parametrize("rank,oom", [(1, _old(1)), (3, _new(3)), (0, _npu(0)), (2, _old(2))])
def test_an_untagged_oom_on_the_waiting_ranks_own_gpu_still_inherits_it(tmp_path, rank, oom):
    wd = watchdog_line(rank, 500, "ALLREDUCE", 600012, 600000, numel=1024, style="1.x", at=828)
    v, acc = verdict_accused(tmp_path, wd + _TB + oom)
    assert v["cause"] == "gpu_oom" and v["culprits"] == [rank] and acc == {rank}, v


@pytest.mark.parametrize("rank,dev,oom", [(1, 0, _old(0)), (2, 0, _new(0)), (1, 3, _npu(3))])
def test_a_tagged_ranks_own_oom_names_that_rank(tmp_path, rank, dev, oom):
    other = 1 - rank if rank < 2 else 0
    wd = watchdog_line(other, 500, "ALLREDUCE", 600012, 600000, numel=1024, style="2.4", at=828)
    own = "".join(f"[rank{rank}]:{x}\n" for x in (_TB + oom).splitlines())
    v, acc = verdict_accused(tmp_path, wd + own)
    assert v["cause"] == "gpu_oom" and rank in v["culprits"] and acc == {rank}, v


@pytest.mark.parametrize("rank,oom", [(1, _old(0)), (2, _new(0)), (1, _npu(3)), (3, _old(3))])
def test_an_untagged_oom_after_a_tagged_ranks_non_collective_line_still_inherits_it(tmp_path, rank, oom):
    # the rank's own failure, not a wait inside a collective: the untagged traceback below stays that rank's
    line = (f"[rank{rank}]:[E102 10:00:00.000000000 ProcessGroupNCCL.cpp:1182] [Rank {rank}] NCCL watchdog thread "
            "terminated with exception: CUDA error: an illegal memory access was encountered\n")
    v, acc = verdict_accused(tmp_path, line + _TB + oom)
    assert v["cause"] == "gpu_oom" and v["culprits"] == [rank] and acc == {rank}, v


@pytest.mark.parametrize("rank", [1, 2])
def test_the_waiting_ranks_own_abort_below_its_watchdog_line_keeps_its_reading(tmp_path, rank):
    wd = watchdog_line(rank, 500, "ALLREDUCE", 600012, 600000, numel=1024, style="1.x", at=828)
    v, acc = verdict_accused(tmp_path, wd + _TB + f"RuntimeError: NCCL communicator was aborted on rank {rank}.\n")
    assert (v["cause"], v["culprits"], v["confidence"]) == ("rank_missing", [], "low") and not acc, v


# --- a per-rank file: the file's own name says whose lines these are (session 39's w1 note, untested until 40) --------
_IMA = "RuntimeError: CUDA error: an illegal memory access was encountered\n"


@pytest.mark.parametrize("name,rank", [("rank1.log", 1), ("node1_rank1.out", 1), ("rank3.log", 3)])
@pytest.mark.parametrize("err", [_old(0), _new(2), _IMA])
def test_in_a_per_rank_file_the_untagged_failure_is_the_files_own_rank(tmp_path, name, rank, err):
    # The tag's inheritance is refused (the figures name no GPU of the waiting rank, or another one), but every line of
    # rank1.log is rank 1's process's own: the failure falls back to the file's rank, as any untagged line there does.
    wd = watchdog_line(rank, 500, "ALLREDUCE", 600012, 600000, numel=1024, style="1.x", at=828)
    d = diagnose_text(tmp_path, wd + _TB + err, name)
    v = d["verdict"]
    assert v["cause"] in ("gpu_oom", "cuda_error") and v["culprits"] == [rank] and accused(d) == {rank}, v


@pytest.mark.parametrize("err", [_old(0), _IMA])
def test_the_same_lines_in_a_file_named_for_no_rank_name_nobody(tmp_path, err):
    # the control: the file-name hint is what names the rank above, not the lines
    wd = watchdog_line(1, 500, "ALLREDUCE", 600012, 600000, numel=1024, style="1.x", at=828)
    d = diagnose_text(tmp_path, wd + _TB + err, "worker.log")
    assert d["verdict"]["culprits"] == [] and not accused(d), d["verdict"]
