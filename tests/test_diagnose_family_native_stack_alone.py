"""One process's native stack dump alone (round 99's nccl-750 and pytorch-149153; session 39): a debugger's backtrace
(gdb's "#N 0x... in f", lldb's "frame #N: 0x... module`f") of one untagged process standing inside NCCL -- its kernel
launch under ncclGroupEnd, or the process group's abort waiting for ncclCommAbort -- with no timeout, SeqNum, error
text or rank shown. Lead rules AB (2), BD (2), AC (1): a stack shown, not a failure and not nothing -- unknown,
nobody named, nobody innocent, the fix saying what that stack points at. gdb's frames of NCCL's own lowercase
functions held no trigger word and were skipped (verdict "none"); lldb's frame format was not read at all.

Each fix has its shape, varied (other frame numbers, addresses, libraries, symbol aliases, a launcher's prefix), and
a near shape that keeps its old reading: a Python traceback through a wrapper's ``in ncclCommInitRank`` frame (the
new trigger words hold it too), a debugger's stack beside a watchdog timeout, lldb's frames of a thread it stopped on
a crash signal. Addresses and numbers are made up."""

from __future__ import annotations

from tests.conftest import verdict_accused, watchdog_line


def _gdb_launch(first: int = 0, prefix: str = "", lib: str = "libcuda.so.1", alias: str = "ncclGroupEnd",
                owner: str = "torch::cuda::nccl::AutoNcclGroup::~AutoNcclGroup() ()", strong: bool = True) -> str:
    """gdb's backtrace of a process in NCCL's kernel launch: driver frames, cudaLaunchKernel, NCCL's launch and group
    end, then its caller (FIRST: the first frame's number)."""
    n = first
    lines = []
    for i in range(3):
        lines.append(f"#{n:<2} 0x00007f3a1b{i:02d}0c50 in ?? () from /usr/lib/x86_64-linux-gnu/{lib}")
        n += 1
    lines.append(f"#{n:<2} 0x00007f3a1ae67f06 in cudaLaunchKernel () from /usr/local/cuda/lib64/libcudart.so.12")
    n += 1
    if strong:
        lines.append(f"#{n:<2} 0x00007f3adf7d6cf9 in ncclStrongStreamLaunchKernel(ncclCudaGraph, ncclStrongStream*, "
                     "void*, dim3, dim3, void**, unsigned long) ()")
        n += 1
    lines.append(f"#{n:<2} 0x00007f3adf7a56c8 in ncclLaunchKernel(ncclComm*, ncclKernelPlan*) () from "
                 "/opt/nccl/lib/libnccl.so.2")
    lines.append(f"#{n + 1:<2} 0x00007f3adf7c494d in ncclGroupEndInternal() ()")
    lines.append(f"#{n + 2:<2} 0x00007f3adf7c5301 in {alias} () from /opt/nccl/lib/libnccl.so.2")
    lines.append(f"#{n + 3:<2} 0x00007f3adf794f4c in {owner}")
    return "".join(f"{prefix}{ln}\n" for ln in lines)


def _lldb_abort(thread: int = 16, name: str = "python", reason: str = "signal SIGSTOP", prefix: str = "",
                own: bool = False) -> str:
    """lldb's "bt" of one thread: a futex wait under ProcessGroupNCCL::waitForFutureOrTimeout inside
    ProcessGroupNCCL::abort (OWN: NCCL's own ncclCommAbort frames from libnccl instead)."""
    lines = [f"* thread #{thread}, name = '{name}', stop reason = {reason}",
             "  * frame #0: 0x00007fa1c7f0792d libc.so.6`syscall + 29",
             "    frame #1: 0x00007fa19faef142 libstdc++.so.6`std::__atomic_futex_unsigned_base::"
             "_M_futex_wait_until_steady(this=<unavailable>, __addr=0x00007f9d98000b00, __val=2147483648, "
             "__has_timeout=true, __s=<unavailable>, __ns=(__r = 4000)) at futex.cc:217:18"]
    if own:
        lines += ["    frame #2: 0x00007fa1a0d10b85 libnccl.so.2`commReclaim + 412",
                  "    frame #3: 0x00007fa1a0d11068 libnccl.so.2`ncclCommAbort + 88",
                  "    frame #4: 0x00007fa1a0db1068 libtorch_cuda.so`c10d::NCCLComm::abort(std::optional<std::string>) "
                  "+ 120"]
    else:
        lines += ["    frame #2: 0x00007fa1a0db0b85 libtorch_cuda.so`c10d::ProcessGroupNCCL::waitForFutureOrTimeout("
                  "std::future<bool>&, std::chrono::duration<long, std::ratio<1l, 1000l>> const&, std::string const&, "
                  "c10d::C10dLoggingData&, bool) + 725",
                  "    frame #3: 0x00007fa1a0db1068 libtorch_cuda.so`c10d::ProcessGroupNCCL::abort() + 664"]
    return "".join(f"{prefix}{ln}\n" for ln in lines)


def _stack_unknown(v: dict, acc: set[int]) -> None:
    assert v["cause"] == "unknown" and v["confidence"] == "low", v
    assert not v["culprits"] and not acc, (v["culprits"], acc)


# --- fix 1: gdb's frames of NCCL's own functions, a kernel launch that does not return -------------------------------
def test_a_gdb_stack_in_nccls_kernel_launch_is_a_stack_shown(tmp_path):
    """nccl-750's shape, varied: gdb's backtrace whose only NCCL frames are NCCL's own lowercase functions
    (ncclStrongStreamLaunchKernel, ncclLaunchKernel, ncclGroupEndInternal, ncclGroupEnd or its pncclGroupEnd alias)
    under torch's AutoNcclGroup or c10d's group end, stuck in cudaLaunchKernel: one process's stack, no rank, nothing
    failing -- unknown, nobody named, the fix naming CUDA_LAUNCH_BLOCKING and the NCCL upgrade."""
    for first, prefix, lib, alias, owner, strong in (
            (0, "", "libcuda.so.1", "ncclGroupEnd", "torch::cuda::nccl::AutoNcclGroup::~AutoNcclGroup() ()", True),
            (3, "", "libcuda.so.535.104.05", "pncclGroupEnd",
             "c10d::ProcessGroupNCCL::groupEnd() () from /opt/torch/lib/libtorch_cuda.so", True),
            (1, "    ", "libcuda.so", "ncclGroupEnd", "broadcast_coalesced () from libtorch_cuda.so", False),
            (0, "[default3]:", "libcuda.so.1", "pncclGroupEnd",
             "torch::cuda::nccl::AutoNcclGroup::~AutoNcclGroup() ()", True)):
        v, acc = verdict_accused(tmp_path, _gdb_launch(first, prefix, lib, alias, owner, strong))
        _stack_unknown(v, acc)
        why = v["summary"]
        assert "debugger's view (gdb" in why and "kernel launch" in why, (prefix, why)
        assert "coalesced group" not in why, why  # the launch, not a group's peers, is what does not return
        assert "CUDA_LAUNCH_BLOCKING" in v["fix"] and "upgrade NCCL" in v["fix"], v["fix"]
        assert "NCCL_DEBUG=INFO" in v["fix"], v["fix"]


def test_a_gdb_stack_at_ncclgroupend_in_lowercase_frames_alone_is_a_stack_shown(tmp_path):
    """The same frames without the launch: a process asleep in groupLaunch under ncclGroupEndInternal / pncclGroupEnd
    (round 96's shape, here with none of c10d's frames to carry a trigger word) reads as the coalesced group end."""
    for alias in ("ncclGroupEnd", "pncclGroupEnd"):
        text = ("#0  0x00007f55aad159e5 in clock_nanosleep@GLIBC_2.2.5 () from /lib64/libc.so.6\n"
                "#1  0x00007f55aad45799 in usleep () from /lib64/libc.so.6\n"
                "#2  0x00007f5591788155 in groupLaunch(ncclAsyncJob*) () from /opt/nccl/lib/libnccl.so.2\n"
                "#3  0x00007f55917879e3 in ncclGroupEndInternal() () from /opt/nccl/lib/libnccl.so.2\n"
                f"#4  0x00007f559178763e in {alias} () from /opt/nccl/lib/libnccl.so.2\n")
        v, acc = verdict_accused(tmp_path, text)
        _stack_unknown(v, acc)
        assert "group end" in v["summary"] and "kernel launch" not in v["summary"], v["summary"]


def test_a_traceback_through_a_wrappers_ncclcomminitrank_keeps_its_reading(tmp_path):
    """Near shape: a Python traceback frame ", in ncclCommInitRank" (vLLM's / SGLang's pynccl_wrapper) holds the new
    trigger words too; the traceback's own NCCL error still decides, never a stack shown."""
    for rank, err in ((0, "unhandled system error"), (3, "invalid usage")):
        text = (f"[rank{rank}]: Traceback (most recent call last):\n"
                f'[rank{rank}]:   File "/opt/venv/lib/python3.12/site-packages/vllm/distributed/device_communicators/'
                f'pynccl.py", line 99, in __init__\n'
                f"[rank{rank}]:     self.comm: ncclComm_t = self.nccl.ncclCommInitRank(\n"
                f'[rank{rank}]:   File "/opt/venv/lib/python3.12/site-packages/vllm/distributed/device_communicators/'
                f'pynccl_wrapper.py", line 277, in ncclCommInitRank\n'
                f"[rank{rank}]:     self.NCCL_CHECK(self._funcs[\"ncclCommInitRank\"](ctypes.byref(comm),\n"
                f'[rank{rank}]:   File "/opt/venv/lib/python3.12/site-packages/vllm/distributed/device_communicators/'
                f'pynccl_wrapper.py", line 256, in NCCL_CHECK\n'
                f"[rank{rank}]:     raise RuntimeError(f\"NCCL error: {{error_str}}\")\n"
                f"[rank{rank}]: RuntimeError: NCCL error: {err}\n")
        v, _ = verdict_accused(tmp_path, text)
        assert v["cause"] != "none" and "debugger" not in v["summary"] and "stack" not in v["summary"][:80], v


def test_a_gdb_stack_in_nccl_beside_a_watchdog_timeout_keeps_the_timeouts_reading(tmp_path):
    """Near shape: the same gdb frames next to ranks' watchdog timeouts in one collective: the timeouts decide (a rank
    not shown: rank_missing), the stack is not the verdict."""
    text = "".join(watchdog_line(r, 88, "ALLREDUCE", 600021, 600000, numel=4096) for r in (1, 2, 3)) + _gdb_launch()
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "rank_missing" and "debugger's view" not in v["summary"], v
    assert not acc & {1, 2, 3}, acc


# --- fix 2: lldb's frames, a process group's abort that does not return -----------------------------------------------
def test_an_lldb_stack_in_the_process_groups_abort_is_a_stack_shown(tmp_path):
    """pytorch-149153's shape, varied: lldb's backtrace of one thread stopped by the debugger (SIGSTOP on attach,
    SIGINT on an interrupt) waiting under ProcessGroupNCCL::abort, or inside NCCL's own ncclCommAbort: one process's
    stack, no rank, nothing failing -- unknown, nobody named, the fix naming the abort hang and the NCCL upgrade."""
    for thread, name, reason, prefix, own in ((16, "python", "signal SIGSTOP", "", False),
                                              (3, "pt_nccl_watchdg", "signal SIGINT", "", True),
                                              (41, "python3", "signal SIGSTOP", "[default1]:", False),
                                              (7, "python", "signal SIGSTOP", "", True)):
        v, acc = verdict_accused(tmp_path, _lldb_abort(thread, name, reason, prefix, own))
        _stack_unknown(v, acc)
        why = v["summary"]
        assert "debugger's view (lldb)" in why and "teardown of its NCCL communicators" in why, (thread, why)
        assert "ncclCommAbort" in v["fix"] and "upgrade torch / NCCL" in v["fix"], v["fix"]


def test_an_lldb_stack_without_its_header_is_read_the_same(tmp_path):
    """The frames pasted without lldb's thread header (the paste starts at frame #2): still one process's stack."""
    text = "".join(ln + "\n" for ln in _lldb_abort(thread=9).splitlines()[3:])
    v, acc = verdict_accused(tmp_path, text)
    _stack_unknown(v, acc)
    assert "debugger's view (lldb)" in v["summary"], v["summary"]


def test_an_lldb_crash_stop_is_not_a_stack_shown(tmp_path):
    """Near shape: lldb's thread stopped on a crash signal (SIGSEGV, SIGABRT) shows a crash's frames, not a live
    process standing somewhere: never read as a stack shown while the job sat still (its old reading kept)."""
    for sig in ("SIGSEGV: invalid address (fault address: 0x18)", "SIGABRT"):
        v, _ = verdict_accused(tmp_path, _lldb_abort(reason=f"signal {sig}"))
        assert "debugger's view" not in v["summary"] and "sat still" not in v["summary"], (sig, v)


def test_an_lldb_stack_beside_a_watchdog_timeout_keeps_the_timeouts_reading(tmp_path):
    """Near shape: lldb's frames beside ranks' watchdog timeouts in one collective: the timeouts decide."""
    text = "".join(watchdog_line(r, 12, "BROADCAST", 1800042, 1800000, numel=1) for r in (0, 2)) + _lldb_abort()
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "rank_missing" and "debugger's view" not in v["summary"], v
    assert not acc & {0, 2}, acc
