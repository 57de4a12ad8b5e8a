"""Review 107's findings 1, 2, 3, 4, 5 and 8 on round 107's diagnose changes, fixed in s45-y2 (session 44): each
reviewer's input (varied) reads right, and the shape the original fix was for still reads as that fix meant.

- finding 1: an Ascend block of an aicpu / sdma / hccl task exception or a "task timeout" is what a rank waiting in a
  collective reports, not its kernel's fault; a new tagged EZ9999 warning or another [PID: N] starts a new block; a
  rank taken only from the block's head caps at medium. The order of the blocks does not decide.
- finding 2: only cudaGetDeviceCount()'s 802 is the host's fabric manager; another code keeps the old reading and the
  raising line's rank.
- finding 3: a HAMi-core ERROR line beside a crash is the interposer's only for its own process's SIGSEGV / SIGBUS /
  SIGILL / SIGFPE, and never beside a watchdog timeout or a DistBackendError abort.
- finding 4: NCCL's "Retrieve cuX version N failed ..." forms are the entry-point lookup too; the fix names the
  libcuda / driver check first and HAMi only for a pod that preloads its hook.
- finding 5: UCX's handler words need libucs frames, --enforce-eager needs vLLM named, the interposer clause of a
  collective crash needs HAMi lines, and DeepEP's fix names use_fabric, not SGLang's unmerged variable.
"""
from __future__ import annotations

import pytest

from tests.conftest import verdict_accused


# --- finding 1: Ascend NPU blocks -----------------------------------------------------------------------------------
def _head(rank: int | None) -> str:
    tag = f"[rank{rank}]:" if rank is not None else ""
    return f"{tag}[W1103 14:02:31.551201442 compiler_depend.ts:57] Warning: EZ9999: Inner Error!\n"


def _waiter(rank: int, pid: int, kind: str = "aicpu", timeout: bool = True) -> str:
    what = "HcclAllGather task timeout" if timeout else "task exception"
    return (_head(rank)
            + f"EZ9999: [PID: {pid}] The error from device(chipId:{rank}, dieId:0), there is an {kind} error, {what}\n"
            + f"Kernel task happen error, retCode=0x2a, [{kind} exception].[FUNC:PreCheckTaskErr]"
            "[FILE:davinci_kernel_task.cc]\n")


def _fault(rank: int | None, pid: int, core: str = "aivec", what: str = "vector core") -> str:
    return (_head(rank)
            + f"EZ9999: [PID: {pid}] The error from device(chipId:{rank or 0}, dieId:0), serial number is 8, there is "
            f"an exception of {core} error, core id is 40\n"
            + f"Kernel task happen error, retCode=0x31, [{what} exception].[FUNC:PreCheckTaskErr]"
            "[FILE:davinci_kernel_task.cc]\n")


@pytest.mark.parametrize("waiter_first", [True, False])
@pytest.mark.parametrize("gap", [0, 14])
@pytest.mark.parametrize("kind", ["aicpu", "sdma"])
def test_a_waiters_aicpu_block_beside_a_kernel_fault_names_only_the_faulting_rank(tmp_path, waiter_first, gap, kind):
    """Review 107 finding 1: rank 2 waits (an aicpu / sdma task exception, "task timeout") while rank 5's vector core
    faulted: whichever block comes first and however far apart, rank 5 only, at medium (its rank from its head)."""
    w, f = _waiter(2, 7101, kind), _fault(5, 7104)
    pad = "".join(f"[rank2]: still waiting {i}\n" for i in range(gap))
    v, acc = verdict_accused(tmp_path, (w + pad + f) if waiter_first else (f + pad + w))
    assert (v["cause"], v["culprits"]) == ("cuda_error", [5]) and acc == {5}, v
    assert v["confidence"] == "medium", v


@pytest.mark.parametrize("kind,timeout", [("aicpu", True), ("aicpu", False), ("hccl", False), ("sdma", False)])
def test_a_lone_non_kernel_task_exception_accuses_nobody(tmp_path, kind, timeout):
    """Review 107 finding 1 (a): only the kernel-fault kinds (vector core / aicore) are a device's kernel fault; an
    aicpu / hccl / sdma task's exception alone, or a task timeout, names no rank."""
    v, acc = verdict_accused(tmp_path, _waiter(3, 811, kind, timeout))
    assert not acc and not (v["cause"] == "cuda_error" and v["culprits"]), v


def test_two_ranks_kernel_faults_within_twelve_lines_are_two_blocks(tmp_path):
    """Review 107 finding 1 (b): a new tagged EZ9999 warning starts a new block: two ranks' vector-core faults a few
    lines apart are both read, not folded into the first (rank 1 alone, at high, before the fix)."""
    v, acc = verdict_accused(tmp_path, _fault(1, 301) + _fault(6, 306))
    assert v["cause"] == "cuda_error" and "rank 1, 6" in v["summary"] and acc != {1}, v


def test_another_pids_untagged_lines_start_a_new_block(tmp_path):
    """Review 107 finding 1 (b): another process's [PID: N] starts a new block even without a new warning: its rank
    is not the first block's."""
    text = _fault(4, 901) + ("EZ9999: [PID: 902] The error from device(chipId:7, dieId:0), there is an exception of "
                             "aivec error, core id is 3\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "cuda_error" and 4 in acc and v["confidence"] == "medium", v


def test_an_untagged_block_under_another_ranks_warning_is_medium(tmp_path):
    """Review 107 finding 1 (c): a [rank3] warning heads an untagged aivec block, then rank 0's inner-error
    RuntimeError: the block's owner is the head's guess -- rank 3 at medium, not high."""
    text = (_fault(3, 1838) + "[rank0]:RuntimeError: The Inner error is reported as above. The process exits for "
            "this inner error, and the current working operator name is aclnnMul. ERR00100 PTA call acl api failed\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "cuda_error" and v["confidence"] == "medium", v


def test_a_kernel_fault_on_its_own_tagged_lines_keeps_its_rank(tmp_path):
    """The shape the original fix was for (vllm-ascend-2763): a tagged warning and its aicore block -- that rank's
    device error, cuda_error, Ascend's tools in the fix."""
    v, acc = verdict_accused(tmp_path, _fault(7, 4410, "aicore", "aicore trap")
                             + "AIC Kernel happen error, retCode=0x28.[FUNC:GetError][FILE:stream.cc]\n")
    assert (v["cause"], v["culprits"]) == ("cuda_error", [7]) and acc == {7}, v
    assert "ASCEND_LAUNCH_BLOCKING=1" in v["fix"] and "npu-smi" in v["fix"], v


# --- finding 2: cudaGetDeviceCount()'s other codes ------------------------------------------------------------------
def _devcount(rank: int, code: int, err: str) -> str:
    return (f"[rank0]: step 10 loss 1.2\n"
            f"[rank{rank}]:Traceback (most recent call last):\n"
            f'[rank{rank}]:  File "/app/train.py", line 40, in <module>\n'
            f"[rank{rank}]:    torch.cuda.set_device(local_rank)\n"
            f"[rank{rank}]:RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions "
            f"before calling NumCudaDevices() that might have already set an error? Error {code}: {err}\n"
            "E0101 00:00:01.000 torch/distributed/elastic/multiprocessing/api.py:881] failed (exitcode: 1) "
            f"local_rank: {rank} (pid: 1234) of binary: /usr/bin/python\n")


@pytest.mark.parametrize("rank,code,err", [(3, 2, "out of memory"), (1, 100, "no CUDA-capable device is detected"),
                                           (2, 101, "invalid device ordinal")])
def test_device_count_error_of_another_code_keeps_the_raising_rank(tmp_path, rank, code, err):
    """Review 107 finding 2: not 802 -- the old reading, the raising rank named as before; no fork / fabric fix.
    (803 / 804, the host's driver install, read like 802 since round 108: tests/test_diagnose_family_gpu108108.py.)"""
    v, acc = verdict_accused(tmp_path, _devcount(rank, code, err))
    assert rank in acc and "ddp_fork" not in v["fix"] and "fabricmanager" not in v["fix"], v


def test_device_count_error_802_stays_the_hosts_fabric_manager_under_a_tag(tmp_path):
    """The shape the original fix was for: 802 (system not yet initialized) is the host's, nobody, even tagged."""
    v, acc = verdict_accused(tmp_path, _devcount(3, 802, "system not yet initialized"))
    assert (v["cause"], v["culprits"]) == ("cuda_error", []) and not acc, v
    assert "nvidia-fabricmanager" in v["fix"], v


# --- finding 3: a HAMi ERROR line beside a crash ------------------------------------------------------------------
_HAMI = ("[HAMI-core Msg({pid}:139:libvgpu.c:836)]: Initializing.....\n"
         "[HAMI-core ERROR (pid:{pid} thread=139 libvgpu.c:120)]: cuInit failed: 3\n")


@pytest.mark.parametrize("own", [True, False])
def test_hami_error_beside_a_watchdog_abort_keeps_the_timeout_reading(tmp_path, own):
    """Review 107 finding 3: HAMi's error line, then rank 0's watchdog timeout, its DistBackendError terminate and
    SIGABRT (and, varied, rank 1's own ValueError): the watchdog's abort, not the interposer -- not config."""
    text = (_HAMI.format(pid=23)
            + ("[rank1]:Traceback (most recent call last):\n[rank1]:  File \"/app/train.py\", line 88, in <module>\n"
               "[rank1]:ValueError: too many values to unpack (expected 2)\n" if own else "")
            + "[rank0]:[E ProcessGroupNCCL.cpp:616] [Rank 0] Watchdog caught collective operation timeout: "
            "WorkNCCL(SeqNum=31, OpType=ALLGATHER, NumelIn=8, NumelOut=16, Timeout(ms)=600000) ran for 600071 "
            "milliseconds before timing out.\n"
            "[rank0]:terminate called after throwing an instance of 'c10::DistBackendError'\n"
            "[rank0]:*** SIGABRT received at time=1700000000 on cpu 3 ***\n"
            "[rank0]:PC: @     0x7f0000000000  (unknown)  raise\n"
            "E0101 00:00:01.000 torch/distributed/elastic/multiprocessing/api.py:881] failed (exitcode: -6) "
            "local_rank: 0 (pid: 1234) of binary: /usr/bin/python\n")
    v, _ = verdict_accused(tmp_path, text)
    assert v["cause"] != "config" and "HAMi" not in v["summary"], v


def _c10_segv(hami_pid: int, pid: int) -> str:
    return (_HAMI.format(pid=hami_pid)
            + "[rank0]:[E1103 10:11:12.000000000 Functions.cpp:19] *** Received signal ***\n"
            f"SIGSEGV(11), PID: {pid}, Thread {pid}:\n"
            " frame #0: c10::FatalSignalHandler::stacktraceSignalHandler(bool) + 0x94 (0x7f1 in "
            "/opt/venv/lib/python3.11/site-packages/torch/lib/libc10.so)\n")


def test_hami_error_of_another_process_beside_a_segfault_is_not_the_interposer(tmp_path):
    """Review 107 finding 3: the HAMi line's pid is not the crashing process's: nothing ties them -- not config."""
    v, _ = verdict_accused(tmp_path, _c10_segv(4410, 3321))
    assert v["cause"] != "config", v


def test_hami_error_of_the_crashing_process_is_the_interposer(tmp_path):
    """The shape the original fix was for: the HAMi ERROR line of the process that then dies of SIGSEGV: config,
    nobody, HAMi-core's fix."""
    v, acc = verdict_accused(tmp_path, _c10_segv(3321, 3321))
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc and "HAMi-core" in v["fix"], v


# --- finding 4: cudawrap's other wordings, and the driver check first ------------------------------------------------
@pytest.mark.parametrize("tail", ["cuDeviceGet version 2000 failed with 0 status 1",
                                  "cuMemCreate version 10020 failed with 0",
                                  "cuGetErrorString version 6000 failed"])
def test_retrieve_version_forms_are_the_entry_point_lookup_with_the_driver_check_first(tmp_path, tail):
    """Review 107 finding 4: "Retrieve cuX version N failed [with R [status S]]" is the same lookup (config, nobody);
    with no HAMi line in the input the fix starts with libcuda / the driver, HAMi only if the pod preloads it."""
    v, acc = verdict_accused(tmp_path, "node1:100:100 [0] NCCL INFO cudaDriverVersion 12020\n"
                                       f"node1:100:100 [0] misc/cudawrap.cc:120 NCCL WARN Retrieve {tail}\n"
                                       "node1:100:100 [0] NCCL INFO init.cc:1700 -> 2\n")
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert v["fix"].index("libcuda") < v["fix"].index("HAMi"), v["fix"]
    assert "If the pod preloads a vGPU hook (HAMi-core's libvgpu.so)" in v["fix"], v["fix"]


def test_retrieve_failed_with_status_keeps_its_config_reading(tmp_path):
    """The shape the original fix was for: 'Retrieve cuDeviceGet failed with 0 status 1' and the PFN line: config,
    nobody, the bypass named."""
    v, acc = verdict_accused(tmp_path, "gpu-3:811:811 [1] misc/cudawrap.cc:171 NCCL WARN Retrieve cuDeviceGet failed "
                                       "with 0 status 1\n"
                                       "gpu-3:811:811 [1] misc/cudawrap.cc:230 NCCL WARN CUDA some PFN functions not "
                                       "found in the library\n")
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "CUDA_DISABLE_CONTROL=true" in v["fix"] and "ldconfig -p | grep libcuda" in v["fix"], v


# --- finding 5: fix words where they apply ------------------------------------------------------------------------
def _ucx_segv(libs: list[str]) -> str:
    return ("[gpu-node-4:5521 :0:5521] Caught signal 11 (Segmentation fault: address not mapped to object at address "
            "(nil))\n==== backtrace (tid:   5521) ====\n"
            + "".join(f" {i}  {lib}(+0x{0x42520 + i:x}) [0x7f0a1c0a{2654 + i}]\n" for i, lib in enumerate(libs)))


def test_a_backtrace_of_only_libc_frames_gets_no_ucx_handler_words(tmp_path):
    """Review 107 finding 5 (a): only libc / libpthread frames: no UCX words."""
    v, _ = verdict_accused(tmp_path, _ucx_segv(["/lib/x86_64-linux-gnu/libc.so.6",
                                                "/lib/x86_64-linux-gnu/libpthread.so.0"]))
    assert v["cause"] == "unknown" and "UCX_HANDLE_ERRORS" not in v["fix"] and "libucs" not in v["fix"], v


def test_a_backtrace_of_only_ucxs_handler_frames_keeps_the_ucx_words(tmp_path):
    """The shape the original fix was for (hami-1219): only libucs's frames -- UCX_HANDLE_ERRORS=none."""
    v, _ = verdict_accused(tmp_path, _ucx_segv(["/opt/hpcx/ucx/lib/libucs.so.0", "/opt/hpcx/ucx/lib/libucs.so.0",
                                                "/lib/x86_64-linux-gnu/libc.so.6"]))
    assert v["cause"] == "unknown" and "UCX_HANDLE_ERRORS=none" in v["fix"], v


def test_an_npu_kernel_fault_in_plain_torch_npu_training_gets_no_vllm_flag(tmp_path):
    """Review 107 finding 5 (b): a torch_npu training job (no vLLM in the lines): no --enforce-eager, no
    vllm-ascend; with vLLM's lines beside it the flag comes back."""
    text = _fault(2, 6610, "aicore", "aicore")
    v, _ = verdict_accused(tmp_path, "[rank2]: epoch 1 step 40 loss 2.31\n" + text)
    assert v["cause"] == "cuda_error" and "--enforce-eager" not in v["fix"] and "vllm" not in v["fix"], v
    v, _ = verdict_accused(tmp_path, "".join(f"(VllmWorker rank=2 pid=6610) {x}\n" for x in text.splitlines()))
    assert v["cause"] == "cuda_error" and "--enforce-eager" in v["fix"], v


def _fatal_in_all_reduce(hami: bool) -> str:
    return (("[HAMI-core ERROR (pid:8811 thread=1 libvgpu.c:120)]: cuInit failed: 3\n" if hami else "")
            + "PyTorch: 2.7.1+cu126\nFatal Python error: Segmentation fault\n\n"
            "Thread 0x00007f3a9c1e2740 (most recent call first):\n"
            '  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 2501 in '
            "all_reduce\n"
            '  File "/home/u/bench/allreduce_test.py", line 31 in main\n')


def test_a_collective_crash_without_hami_lines_gets_no_interposer_clause(tmp_path):
    """Review 107 finding 5 (c): no HAMi / libvgpu line in the input: NCCL's transport switches, no interposer."""
    v, _ = verdict_accused(tmp_path, _fatal_in_all_reduce(False))
    assert v["cause"] == "unknown" and "NCCL_P2P_DISABLE=1" in v["fix"] and "interposer" not in v["fix"], v


def test_a_collective_crash_beside_hami_lines_keeps_the_interposer_clause(tmp_path):
    """The shape the original fix was for: HAMi's lines in the input -- the interposer clause with the switches."""
    v, _ = verdict_accused(tmp_path, _fatal_in_all_reduce(True))
    assert v["cause"] == "unknown" and "vGPU interposer" in v["fix"] and "NCCL_P2P_DISABLE=1" in v["fix"], v


def test_deepep_fix_names_use_fabric_not_sglangs_unmerged_variable(tmp_path):
    """Review 107 finding 5 (d): SGLANG_DEEPEP_USE_FABRIC was never merged (sglang PR 27832 closed; PR 27107 passes
    use_fabric=True itself where MNNVL fabric is supported): the fix says upgrade or pass use_fabric=True."""
    text = ('  File "/opt/venv/lib/python3.12/site-packages/deep_ep/buffer.py", line 97, in __init__\n'
            "RuntimeError: Failed: CUDA error /sgl-workspace/DeepEP/csrc/deep_ep.cpp:105 'invalid resource handle'\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "cuda_error" and not acc, v
    assert "SGLANG_DEEPEP_USE_FABRIC" not in v["fix"] and "use_fabric=True" in v["fix"], v
    assert "upgrade DeepEP/SGLang to a build with use_fabric support" in v["fix"], v
