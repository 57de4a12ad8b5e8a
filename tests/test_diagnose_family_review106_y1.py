"""Review 106 (session 43), findings 1, 2 and the load.py half of 7, and round 106's pytorch-42073 under wrap120.

- Finding 1: the "rank tensor print" reading (readers.exits) took a rank's own exception that quotes a tensor
  ("Rank 1 Pid 222 ValueError: rank 1 got tensor([nan, 1.])") for the program's output, and two such lines made the
  job "none" (verdict.noise._rank_prints). The reading now steps aside on a failure line (generic.is_failure_line)
  and on a line whose exception word comes before "tensor(": those keep the reading they had before round 106
  (unknown). Plain prints of different values stay none with the dist.reduce words.
- Finding 2 (and 7's load.py half): the trigger word ".cuh:" routed every nvcc/gcc warning of a JIT or extension
  build ("cub/block/block_load.cuh:123:12: warning: ...") to every reader, a 40,000-line build log 5x slower. The
  word is now "Failed: /", which only the relayed CUDA check prints ("VLLM: Failed: /workspace/csrc/
  custom_all_reduce.cuh:368 'invalid argument'"); dynamo-787 still reads fully right.
- pytorch-42073 under --perturb wrap120: its "CUDA error: CUDA driver version is insufficient for CUDA runtime
  version" line is exactly 120 wide, so the unwrap took the next line ("Jul 25 04:11:56 Exception raised from ...")
  for its rest and the reading fell to low. A line that starts with a syslog/CI clock with the month's name is now a
  line of its own (ingest._NEW_LINE).
"""
from __future__ import annotations

import inspect
import sys
from pathlib import Path

import pytest

from ncclDoctor.diagnose import ingest, load
from tests.conftest import corpus_case_verdict
from tests.conftest import verdict_accused as _verdict

_CORPUS = Path(__file__).parent / "fixtures" / "corpus"


def _hits(text: str) -> list[int]:
    block = text.encode()
    return load._find_hits(block, len(block))


# --- finding 1: a rank's exception quoting a tensor is no tensor print -----------------------------------------------
@pytest.mark.parametrize("text", [
    # the reviewer's c2.log
    "Rank 1 Pid 222 ValueError: rank 1 got tensor([nan, 1.])\n"
    "Rank 0 Pid 221 RuntimeError: rank 0 got tensor([1., 1.]) after all_reduce timed out\n",
    # the reviewer's c3.log
    "[rank1]: rank 1 result tensor([3., 3.]) Error\n"
    "[rank0]: rank 0 result tensor([1., 1.]) Error\n",
    # varied: an exception name only, before the tensor, on both lines
    "Rank 1 Pid 4410 AssertionError: rank 1 loss is tensor([nan], device='cuda:1')\n"
    "Rank 0 Pid 4409 AssertionError: rank 0 loss is tensor([0.5312], device='cuda:0')\n",
    # varied: a custom exception class, then the values
    "Rank 3 Pid 918 NaNLossException rank 3 grad tensor([inf, 0.])\n"
    "Rank 2 Pid 917 NaNLossException rank 2 grad tensor([1., 0.])\n",
])
def test_a_ranks_exception_quoting_a_tensor_is_no_tensor_print(tmp_path, text):
    # the lines keep the reading they had before round 106 (the reviewer's START): not the tensor prints' "none"
    # with its dist.reduce words
    v, acc = _verdict(tmp_path, text)
    assert "print different tensor values" not in v["summary"] + v["fix"], v
    assert "dist.reduce" not in v["fix"] and not acc, v


def test_the_reviewers_c2_keeps_its_old_unknown(tmp_path):
    v, acc = _verdict(tmp_path, "Rank 1 Pid 222 ValueError: rank 1 got tensor([nan, 1.])\n"
                                "Rank 0 Pid 221 RuntimeError: rank 0 got tensor([1., 1.]) after all_reduce timed out\n")
    assert v["cause"] == "unknown" and not acc, v


def test_plain_tensor_prints_of_different_values_stay_none_with_reduce_words(tmp_path):
    # the shape the round's fix was for (pytorch-42073's neighbour in round 106: ranks printing their results)
    v, acc = _verdict(tmp_path, "Rank 1 Pid 222 rank 1 got tensor([2., 1.])\n"
                                "Rank 0 Pid 221 rank 0 got tensor([1., 1.])\n")
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert "dist.reduce" in v["fix"], v


def test_a_tensor_print_whose_value_names_an_error_variable_stays_a_print(tmp_path):
    # "error" as a value's name after the tensor's rank, lower case, is no exception word
    v, acc = _verdict(tmp_path, "Rank 1 Pid 222 rank 1 abs_err tensor([0.0010, 0.0020])\n"
                                "Rank 0 Pid 221 rank 0 abs_err tensor([0.0030, 0.0010])\n")
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v


# --- finding 2: a build log's .cuh warnings are no hit lines -------------------------------------------------------
@pytest.mark.parametrize("line", [
    "/usr/local/cuda/include/cub/block/block_load.cuh:123:12: warning: unused variable 'xI' [-Wunused-variable]",
    "/opt/conda/include/cutlass/gemm/kernel/gemm_universal.cuh:88:5: note: in instantiation of template",
    "csrc/flash_attn/src/flash_fwd_kernel.cuh:412:9: warning: variable 'tidx' set but not used",
    "include/thrust/system/cuda/detail/core/util.cuh:99: remark #1234",
])
def test_a_build_logs_cuh_line_holds_no_trigger_word(line):
    assert _hits(line + "\n") == [], line


@pytest.mark.parametrize("line", [
    "2025-04-23T03:35:43.390Z  INFO dynamo_engine_vllm::worker: VLLM: Failed: /workspace/csrc/custom_all_reduce.cuh:368"
    " 'invalid argument'",
    "(VllmWorker rank=2 pid=333) ERROR VLLM: Failed: /workspace/csrc/custom_all_reduce.cuh:368 'invalid argument'",
    "engine::worker: VLLM: Failed: /src/vllm/csrc/custom_all_reduce.cuh:341 'invalid resource handle'",
])
def test_the_relayed_cuda_check_still_holds_a_trigger_word(line):
    assert _hits(line + "\n") == [0], line


def test_the_trigger_comment_names_the_word_and_no_longer_cuh():
    src = inspect.getsource(load)
    assert b".cuh:" not in load.TRIGGERS and b"Failed: /" in load.TRIGGERS
    head = src[:src.index("TRIGGERS = (")]
    assert "#   Failed: /" in head and "#   .cuh:" not in head, "the comment above TRIGGERS"
    doc = " ".join(inspect.getdoc(load._automata).split())
    assert '"Failed: /" for a relayed CUDA check' in doc and '".cuh:" for' not in doc, doc


def test_a_build_log_then_a_ranks_cuda_error_reads_the_error(tmp_path):
    text = "".join(f"/usr/local/cuda/include/cub/block/block_load.cuh:{i}:12: warning: unused variable 'xI' "
                   "[-Wunused-variable]\n" for i in range(1, 400))
    text += "[rank1]: RuntimeError: CUDA error: an illegal memory access was encountered\n"
    v, acc = _verdict(tmp_path, text)
    assert v["cause"] == "cuda_error" and v["culprits"] == [1], v


def test_dynamo_787_still_reads_fully_right(tmp_path):
    v, acc = corpus_case_verdict(tmp_path, "dynamo-787-vllm-tp8-custom-allreduce-invalid-argument-all-workers")
    assert v["cause"] == "cuda_error" and v["culprits"] == [] and not acc, v
    assert "--disable-custom-all-reduce" in v["fix"] and "--enforce-eager" in v["fix"], v


# --- pytorch-42073 under wrap120: a line exactly at the column, then a clocked line -----------------------------------
_CASE = "pytorch-42073-ncclerrorstest-cuda-driver-insufficient"


def _wrapped(width: int) -> str:
    sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))
    import bench_diagnose_accuracy as bench
    lines = (_CORPUS / _CASE / "input.log").read_text().split("\n")
    return "\n".join(bench.PERTURB[f"wrap{width}"](x, i) for i, x in enumerate(lines))


def test_pytorch_42073_wrapped_at_120_reads_as_unwrapped(tmp_path):
    plain, _ = corpus_case_verdict(tmp_path, _CASE)
    v, acc = _verdict(tmp_path, _wrapped(120))
    assert (v["cause"], v["confidence"], v["culprits"]) == (plain["cause"], plain["confidence"], plain["culprits"]), v
    assert v["confidence"] == "medium" and "driver" in v["fix"], v


@pytest.mark.parametrize("stamp", ["Jul 25 04:11:56 ", "Dec  6 06:11:00 ", "Mar 01 23:59:59 "])
def test_a_clocked_line_after_one_at_the_column_is_its_own(stamp):
    first = stamp + "C++ exception with description \"CUDA error: CUDA driver version is insufficient for CUDA runtime"
    first = first + "x" * (120 - len(first))
    nxt = (stamp + "Exception raised from cudaNumDevices at /var/lib/jenkins/workspace/torch/lib/c10d/test/"
           "CUDATest.cu:24 (most recent call first):")
    assert len(first) == 120 and len(nxt) > 120
    text = "\n".join([first, nxt[:120], nxt[120:]])
    out = ingest.unwrap(text, 120).split("\n")
    assert out == [first, "", nxt], out


def test_a_wrapped_piece_that_starts_with_a_month_word_is_still_joined():
    # the rest of a line cut at the column that merely holds a month's name, no clock: still the line's rest
    first = "[rank0]: RuntimeError: CUDA error: CUDA driver version is insufficient for CUDA runtime version; built on "
    first = first + "x" * (120 - len(first))
    text = first + "\nJul 25 release\n"
    out = ingest.unwrap(text, 120).split("\n")
    assert out[1] == first + "Jul 25 release", out


def test_the_relayed_check_from_one_worker_names_that_worker_not_the_waiting_one(tmp_path):
    # the reviewer's a3.log: one worker's relayed check, rank 0 waiting on it -- rank 2's CUDA error
    v, acc = _verdict(tmp_path, "(VllmWorker rank=2 pid=333) ERROR VLLM: Failed: /workspace/csrc/custom_all_reduce.cuh:"
                                "368 'invalid argument'\n"
                                "(VllmWorker rank=0 pid=331) [E ProcessGroupNCCL.cpp:1316] [Rank 0] Watchdog caught "
                                "collective operation timeout: WorkNCCL(SeqNum=5, OpType=ALLREDUCE, NumelIn=1, "
                                "NumelOut=1, Timeout(ms)=600000) ran for 600012 milliseconds before timing out.\n")
    assert v["cause"] == "cuda_error" and v["culprits"] == [2] and 0 not in acc, v
