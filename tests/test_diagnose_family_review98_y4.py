"""Review 98 (the review of rounds 98-99's diagnose fixes), findings 8, 9 and 10: one state, one fix text.

- Finding 8: a stack stuck in NCCL's communicator abort (ProcessGroupNCCL::abort -> ncclCommAbort, down to commReclaim /
  commFree) read unknown with nobody named whichever tool showed it, but py-spy's reading (round 82's nccl-992) and
  gdb / lldb's (round 99's pytorch-149153) gave different advice and different fixed-in versions. Now one text: the
  original error before the abort, abort on every rank (destroy_process_group before exit), one aborting thread, 2.19+
  and 2.25.1 -> 2.26.2; py-spy adds only the gdb backtrace. A debugger's stack elsewhere gets none of it.
- Finding 9 (_held_elsewhere): torch < 2.1's figures and torch >= 2.1's "Process P has" lines that show a shared GPU
  end in the same set_device / CUDA_VISIBLE_DEVICES sentence; an OOM of the process's own memory gets neither.
- Finding 10: the comments and docstrings the review named that this worktree owns say what the code does.
"""
from __future__ import annotations

import inspect
from pathlib import Path

from ncclDoctor.diagnose import load
from ncclDoctor.diagnose.verdict import memory
from tests.conftest import verdict_accused as _verdict

_ONE = "call ncclCommAbort from one thread only"
_EVERY = "call destroy_process_group before exit on every rank"
_VERSIONS = ("2.19+", "NCCL 2.25.1's abort hang in 2.26.2")


def _abort_words(fix: str) -> bool:
    return (_ONE in fix and _EVERY in fix and all(w in fix for w in _VERSIONS)
            and "the original error before abort (the first WARN of any rank)" in fix)


# --- finding 8: a stuck abort, whichever tool shows it -------------------------------------------------------------
def _lldb(thread: int, lib: str = "libtorch_cuda.so") -> str:
    return (f"  thread #{thread}, name = 'python', stop reason = signal SIGSTOP\n"
            "    frame #0: 0x00007f11b7f0792d libc.so.6`syscall + 29\n"
            "    frame #1: 0x00007f118faef142 libstdc++.so.6`std::__atomic_futex_unsigned_base::"
            "_M_futex_wait_until_steady(this=<unavailable>, __addr=0x00007fac98000b00, __val=2147483648) at "
            "futex.cc:217:18\n"
            f"    frame #2: 0x00007f1190db0b85 {lib}`c10d::ProcessGroupNCCL::waitForFutureOrTimeout("
            "std::future<bool>&, std::chrono::duration<long, std::ratio<1l, 1000l>> const&, "
            "std::__cxx11::basic_string<char> const&, c10d::C10dLoggingData&, bool) + 725\n"
            f"    frame #3: 0x00007f1190db1068 {lib}`c10d::ProcessGroupNCCL::abort() + 664\n")


_GDB_BT = (
    "(gdb) bt\n"
    "#0  0x00007f3a1c2e5e2d in syscall () from /lib/x86_64-linux-gnu/libc.so.6\n"
    "#1  0x00007f39f0a1b2c4 in std::__atomic_futex_unsigned_base::_M_futex_wait_until_steady(unsigned int*, unsigned "
    "int, bool) () from /usr/lib/x86_64-linux-gnu/libstdc++.so.6\n"
    "#2  0x00007f39f1db0b85 in c10d::ProcessGroupNCCL::waitForFutureOrTimeout(std::future<bool>&, std::chrono::"
    "duration<long, std::ratio<1l, 1000l> > const&, std::string const&, c10d::C10dLoggingData&, bool) () from "
    "/usr/local/lib/python3.11/site-packages/torch/lib/libtorch_cuda.so\n"
    "#3  0x00007f39f1db1068 in c10d::ProcessGroupNCCL::abort() () from "
    "/usr/local/lib/python3.11/site-packages/torch/lib/libtorch_cuda.so\n")

_GDB_COMMFREE = (
    "(gdb) thread apply all bt\n"
    'Thread 7 (Thread 0x7f2b3dfff640 (LWP 41210) "python"):\n'
    "#0  0x00007f2b9a09117a in ?? () from /lib/x86_64-linux-gnu/libc.so.6\n"
    "#1  0x00007f2b9a09b6a4 in pthread_join () from /lib/x86_64-linux-gnu/libc.so.6\n"
    "#2  0x00007f2b51c3e4d0 in commFree (comm=0x55d1c0a3e000) at init.cc:180\n"
    "#3  0x00007f2b51c4a9b2 in commReclaim (comm=0x55d1c0a3e000) at init.cc:1862\n"
    "#4  0x00007f2b51c4b1f0 in ncclCommAbort (comm=0x55d1c0a3e000) at init.cc:1931\n")


def _pyspy(tid: int, name: str = "Thread-7") -> str:
    return (f'Thread {tid} (idle): "{name}"\n'
            "    0x7f0a2c8a1197 (libc.so.6)\n"
            "    0x7f0a2c8a66a4 (libc.so.6)\n"
            "    commFree (init.cc:181)\n"
            "    commCleanup (init.cc:1740)\n"
            "    commReclaim (init.cc:1870)\n"
            "    ncclCommAbort (init.cc:1940)\n"
            "    c10d::NCCLComm::ncclCommAbort (libtorch_cuda.so)\n"
            "    c10d::ProcessGroupNCCL::abort (libtorch_cuda.so)\n")


def test_an_lldb_stack_in_the_abort_gets_the_one_thread_advice_too(tmp_path):
    for text in (_lldb(16), _lldb(3, "libtorch_cuda.so.2")):
        v, acc = _verdict(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
        assert _abort_words(v["fix"]), v


def test_a_gdb_stack_in_the_abort_or_its_commfree_gets_the_same_words(tmp_path):
    for text in (_GDB_BT, _GDB_COMMFREE):
        v, acc = _verdict(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
        assert _abort_words(v["fix"]) and "stacks of every rank" in v["fix"], v


def test_a_py_spy_stack_in_the_abort_gets_every_rank_and_the_2_26_2_words_too(tmp_path):
    for text in (_pyspy(51200), _pyspy(3438296, "Thread-41")):
        v, acc = _verdict(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
        assert _abort_words(v["fix"]), v
        assert "gdb -p PID -batch -ex 'thread apply all bt') shows what the abort waits on" in v["fix"], v


def test_py_spy_and_a_debugger_give_the_same_abort_sentence(tmp_path):
    from ncclDoctor.diagnose.verdict import signals
    assert not hasattr(signals, "_DBG_ABORT_STUCK")
    fixes = [_verdict(tmp_path, t)[0]["fix"] for t in (_pyspy(900), _lldb(5), _GDB_BT)]
    assert all(signals._ABORT_STUCK in f for f in fixes), fixes


def test_a_debugger_stack_outside_the_abort_gets_no_abort_words(tmp_path):
    v, acc = _verdict(tmp_path, "(gdb) bt\n"
                                "#0  0x00007f3a1c2e5e2d in ioctl () from /lib/x86_64-linux-gnu/libc.so.6\n"
                                "#1  0x00007f39e12ab410 in ?? () from /usr/lib/x86_64-linux-gnu/libcuda.so.1\n"
                                "#2  0x00007f39e0f2c9a1 in cudaLaunchKernel () from libcudart.so.12\n"
                                "#3  0x00007f39d1a0c5e2 in ncclLaunchKernel () from libnccl.so.2\n")
    assert v["cause"] != "none" and not acc, v
    assert _ONE not in v["fix"] and "2.26.2" not in v["fix"], v


# --- finding 9: _held_elsewhere's two readings, one sentence ------------------------------------------------------
def _old_oom(gpu: int, reserved: str, free: str) -> str:
    return (f"RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU {gpu}; 23.69 GiB total capacity; "
            f"{reserved} already allocated; {free} free; {reserved} reserved in total by PyTorch)\n")


def _new_oom(gpu: int, others: list[tuple[int, str]], this: str) -> str:
    procs = " ".join(f"Process {p} has {b} memory in use." for p, b in others)
    return (f"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 96.00 MiB. GPU {gpu} has a total capacity "
            f"of 23.65 GiB of which 60.25 MiB is free. {procs} Including non-PyTorch memory, this process has {this} "
            "memory in use. Of the allocated memory 7.10 GiB is allocated by PyTorch, and 420.00 MiB is reserved by "
            "PyTorch but unallocated.\n")


def test_torch_old_figures_of_a_shared_gpu_get_the_whole_set_device_sentence(tmp_path):
    for gpu, reserved, free in ((0, "3.10 GiB", "12.00 MiB"), (2, "1.50 GiB", "210.00 MiB")):
        v, acc = _verdict(tmp_path, _old_oom(gpu, reserved, free))
        assert v["cause"] == "gpu_oom" and "other processes hold the rest" in v["fix"], v
        assert memory._SET_DEVICE in v["fix"] and "device_ids=[local_rank]" in v["fix"], v


def test_torch_new_process_lines_of_a_shared_gpu_get_the_same_sentence(tmp_path):
    for gpu, n in ((0, 7), (1, 4)):
        v, acc = _verdict(tmp_path, _new_oom(gpu, [(20400 + i, "2.05 GiB") for i in range(n)], "8.40 GiB"))
        assert v["cause"] == "gpu_oom" and not v["culprits"] and not acc, v
        assert f"{n} other processes hold" in v["fix"], v
        assert memory._SET_DEVICE in v["fix"] and "before the model moves to the GPU" in v["fix"], v


def test_an_oom_of_the_process_s_own_memory_gets_no_shared_gpu_sentence(tmp_path):
    v, acc = _verdict(tmp_path, _old_oom(3, "22.90 GiB", "40.00 MiB"))
    assert v["cause"] == "gpu_oom" and v["culprits"] == [3], v
    assert memory._SET_DEVICE not in v["fix"], v
    v, acc = _verdict(tmp_path, _new_oom(0, [(5501, "420.00 MiB")], "22.80 GiB"))
    assert v["cause"] == "gpu_oom" and memory._SET_DEVICE not in v["fix"], v


# --- finding 10: comments and docstrings -------------------------------------------------------------------------
def test_held_elsewhere_s_docstring_names_both_readings():
    doc = memory._held_elsewhere.__doc__
    assert "torch < 2.1" in doc and "torch >= 2.1" in doc and "Process P has" in doc, doc


def test_the_absl_frame_comment_names_the_module_that_defines_the_pattern():
    src = (Path(memory.__file__).parent.parent / "readers" / "crash.py").read_text()
    assert "parse.R_ABSL_FRAME" not in src and "signatures.R_ABSL_FRAME" in src


def test_the_automata_docstring_claims_no_unmeasured_cost():
    doc = " ".join(inspect.getdoc(load._automata).split())
    assert "costs about the same whatever its words" not in doc, doc
    # the last count it states is TRIGGERS' own, with the seventh automaton's size (measured: docs/benchmarks.md)
    n = len(load.TRIGGERS)
    assert f"{n} (" in doc and f"a seventh of {n - 6 * 64}" in doc, (n, doc)
