"""Two processes' watchdog crashes, one shown only by its CUDA-check frames (round 78, rule BL (3)).

pytorch-126544: the tail of one process's watchdog rethrow ("Exception raised from ncclCommWatchdog ...", its frames),
torchrun's record of local rank 0 exiting with -6, then the watchdog's CUDA-check frames (c10_cuda_check_implementation
-> finishedGPUExecutionInternal -> watchdogHandler) with their header cut. One process prints its check frames BEFORE
its own ncclCommWatchdog rethrow, so a check shown after a whole rethrow tail is a second process's: every shown
process failed on the watchdog's CUDA check -- rule AX (4): cuda_error, no rank (rule A had named local rank 0).
Near shape: one process's crash in its own order (check frames, then its rethrow tail) beside the record keeps the
record's rank.
"""
from __future__ import annotations

from tests.conftest import diagnose_text as _report

_TAIL = ("Exception raised from ncclCommWatchdog at ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1418 (most "
         "recent call first):\n"
         "frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x57 (0x7fefa74cf897 in /v/torch/lib/"
         "libc10.so)\n"
         "frame #1: <unknown function> + 0xe32e33 (0x7fef5aed7e33 in /v/torch/lib/libtorch_cuda.so)\n\n")
_RECORD = ("E0517 08:24:03.805000 140617718325696 torch/distributed/elastic/multiprocessing/api.py:826] failed "
           "(exitcode: -6) local_rank: 0 (pid: 970611) of binary: /v/bin/python3\n")
_CHECK = ("frame #2: c10::cuda::c10_cuda_check_implementation(int, char const*, char const*, int, bool) + 0x118 "
          "(0x7fc966f2a718 in /v/torch/lib/libc10_cuda.so)\n"
          "frame #3: c10d::ProcessGroupNCCL::WorkNCCL::finishedGPUExecutionInternal() const + 0x56 (0x7fc91a84ae36 "
          "in /v/torch/lib/libtorch_cuda.so)\n"
          "frame #5: c10d::ProcessGroupNCCL::watchdogHandler() + 0x77c (0x7fc91a8545ac in /v/torch/lib/"
          "libtorch_cuda.so)\n")


def test_a_check_after_another_processs_rethrow_tail_names_no_rank(tmp_path):
    v = _report(tmp_path, _TAIL + _RECORD + _CHECK)["verdict"]
    assert (v["cause"], v["culprits"]) == ("cuda_error", []), v


def test_one_processs_crash_in_its_own_order_keeps_the_records_rank(tmp_path):
    v = _report(tmp_path, _CHECK + _TAIL + _RECORD)["verdict"]
    assert (v["cause"], v["culprits"]) == ("cuda_error", [0]), v
