"""How diagnose reads round 107's GPU-sharing interposer crashes, CUDA's 802 at the device count and an Ascend NPU
kernel's exception (session 44): a crash inside HAMi-core's libvgpu.so vGPU hook (its own 'Illegal device id' error,
frames in its sources, the kernel's 'segfault ... in libvgpu.so') and NCCL's cudawrap failing to retrieve the driver's
entry points are the shared install every process preloads -- config, culprits [] (rules AF (2), AT (1), CH (1));
'Unexpected error from cudaGetDeviceCount() ... Error 802: system not yet initialized' is the host's fabric manager
(cuda_error, culprits [], rule V (2)); an Ascend 'aivec' / vector-core exception under a rank's tagged EZ9999 warning
is that rank's device error (cuda_error, rules AN (2), AM (3)); a lone SIGSEGV whose crash handler shows only its own
frames, or a faulthandler report whose only Python thread stands in all_reduce, stays unknown by its signal (rule A)
but its fix says how to see more. Each test reads the shape from lines other than the corpus case's own (other ranks,
pids, numbers), and a near shape that keeps its old reading. Hosts, pids and paths are made up."""

from __future__ import annotations

from tests.conftest import verdict_accused


# --- CUDA's 802 at the device count --------------------------------------------------------------------------------
def _devcount(code: int, err: str, pid: int = 51234) -> str:
    return (f"(VllmWorkerProcess pid={pid}) INFO 11-02 09:12:40 multiproc_worker_utils.py:229] Worker ready; awaiting "
            "tasks\n"
            "ERROR 11-02 09:13:05 engine.py:402] Unexpected error from cudaGetDeviceCount(). Did you run some cuda "
            f"functions before calling NumCudaDevices() that might have already set an error? Error {code}: {err}\n"
            "ERROR 11-02 09:13:05 engine.py:402] Traceback (most recent call last):\n"
            'ERROR 11-02 09:13:05 engine.py:402]   File "/opt/venv/lib/python3.12/site-packages/vllm/engine/'
            'multiprocessing/engine.py", line 391, in run_mp_engine\n')


def test_device_count_error_802_is_the_hosts_fabric_manager(tmp_path):
    """Rule V (2): the raised form of torch's device-count failure with CUDA's 802 (cudaErrorSystemNotReady) before
    any rank's work: the NVSwitch host's fabric manager is not up -- cuda_error, culprits [], the fix names it."""
    v, acc = verdict_accused(tmp_path, _devcount(802, "system not yet initialized", pid=7781))
    assert (v["cause"], v["culprits"]) == ("cuda_error", []) and not acc, v
    assert "nvidia-fabricmanager" in v["fix"] and "nvidia-smi -q" in v["fix"], v["fix"]


def test_device_count_error_other_code_is_not_the_fabric_manager(tmp_path):
    """The near shape: the same raised failure with another CUDA code (100) is not the fabric manager's, and not the
    warning's host-wide fork / driver reading either: it keeps the old reading (review 107 finding 2: only 802 takes
    the host reading -- and since round 108 803 / 804, the host's driver install, with their own fix,
    tests/test_diagnose_family_gpu108108.py; a rank tag on such a line keeps its rank,
    tests/test_diagnose_family_review107_y2.py); and the warning form keeps its own (fork / driver) fix."""
    v, acc = verdict_accused(tmp_path, _devcount(100, "no CUDA-capable device is detected"))
    assert "fabricmanager" not in v["fix"] and "ddp_fork" not in v["fix"], v
    assert not (v["cause"] == "cuda_error" and v["confidence"] == "high" and v["culprits"] == []), v
    v, _ = verdict_accused(tmp_path, "/opt/venv/lib/python3.11/site-packages/torch/cuda/__init__.py:128: UserWarning: "
                           "CUDA initialization: CUDA driver initialization failed, you might not have a CUDA gpu. "
                           "(Triggered internally at ../c10/cuda/CUDAFunctions.cpp:108.)\n")
    assert v["cause"] == "cuda_error" and "fabricmanager" not in v["fix"] and "ddp_fork" in v["fix"], v


# --- NCCL's cudawrap failing to retrieve the driver's entry points ------------------------------------------------
def test_cudawrap_entry_point_retrieval_failing_is_the_shared_install(tmp_path):
    """Rules AT (1), CH (1): NCCL's cudawrap could not retrieve driver entry points ('Retrieve cuX failed', 'some PFN
    functions not found') -- no CUDA call's own failure: the driver library or the vGPU hook in front of it, config,
    culprits [], whichever ranks print it."""
    text = ("gpu-7:40211:40211 [3] misc/cudawrap.cc:171 NCCL WARN Retrieve cuMemGetAddressRange failed with 0 "
            "status 1\n"
            "gpu-7:40212:40212 [2] misc/cudawrap.cc:230 NCCL WARN CUDA some PFN functions not found in the library\n"
            "[2203311.004512] python[40213]: segfault at 0 ip 00007f11aa0c48a2 sp 00007ffd7a1c0450 error 4 in "
            "libvgpu.so[7f11aa095000+38000]\n")
    v, acc = verdict_accused(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "CUDA_DISABLE_CONTROL=true" in v["fix"] and "libvgpu.so" in v["fix"], v["fix"]


def test_cudawrap_cuda_failure_keeps_its_cuda_reading(tmp_path):
    """The near shape: a CUDA call NCCL made failing with its own text ('Cuda failure') keeps its old reading (rule
    AT (1)'s condition), not the entry-point lookup: 999 is cuda_error with the driver / GPU health fix, 2 ('out of
    memory') an OOM (review 107 finding 8: asserted, not only 'not config')."""
    v, _ = verdict_accused(tmp_path, "gpu-7:40211:40290 [3] misc/cudawrap.cc:88 NCCL WARN Cuda failure 999 'unknown "
                                     "error'\n"
                                     "gpu-7:40211:40290 [3] NCCL INFO init.cc:1582 -> 1\n")
    assert v["cause"] == "cuda_error" and "dmesg -T | grep -i xid" in v["fix"], v
    assert "HAMi" not in v["fix"] and "cuGetProcAddress" not in v["fix"], v
    v, _ = verdict_accused(tmp_path, "gpu-7:40211:40290 [3] misc/cudawrap.cc:88 NCCL WARN Cuda failure 2 'out of "
                                     "memory'\n"
                                     "gpu-7:40211:40290 [3] NCCL INFO init.cc:1582 -> 1\n")
    assert v["cause"] == "gpu_oom", v


# --- a crash inside the vGPU interposer ----------------------------------------------------------------------------
def _hami_crash(pids: list[int], frames: list[tuple[str, int, str]]) -> str:
    out = "".join(f"(Worker pid={p}) INFO 03-02 10:11:12 [parallel_state.py:1402] world_size={len(pids)} rank={i} "
                  f"local_rank={i} distributed_init_method=tcp://127.0.0.1:40021 backend=nccl\n"
                  for i, p in enumerate(pids))
    out += "".join(f"[HAMI-core ERROR (pid:{p} thread=1398877{i}1040 multiprocess_memory_limit.c:1255)]: Illegal "
                   f"device id: {4096 + 17 * p}\n" for i, p in enumerate(pids))
    out += "!!!!!!! Segfault encountered !!!!!!!\n"
    out += "".join(f'  File "{f}", line {n}, in {fn}\n' for f, n, fn in frames)
    return out


def test_crash_in_the_vgpu_hook_is_the_shared_interposer(tmp_path):
    """Rule CH (1): both workers print HAMi-core's own 'Illegal device id' and crash in libvgpu's sources: the hook
    every process preloads -- config, culprits [], nobody innocent; the fix names HAMi-core and bypassing it."""
    v, acc = verdict_accused(tmp_path, _hami_crash([811, 812, 813], [
        ("/libvgpu/src/multiprocess/multiprocess_memory_limit.c", 469, "add_gpu_device_memory_usage"),
        ("/libvgpu/src/allocator/allocator.c", 121, "add_chunk")]))
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "HAMi-core" in v["fix"] and "CUDA_DISABLE_CONTROL=true" in v["fix"] and "device mapping" in v["fix"], v


def test_crash_in_the_vgpu_hook_under_ncclcuMem_names_the_cumem_switch(tmp_path):
    """Rule CH (1): one untagged process's crash in libvgpu's cuMemCreate hook called from NCCL's communicator
    creation: config, culprits []; the fix also keeps NCCL off the cuMem path."""
    v, acc = verdict_accused(tmp_path, _hami_crash([2207], [
        ("/libvgpu/src/multiprocess/multiprocess_memory_limit.c", 833, "get_current_device_memory_limit"),
        ("/libvgpu/src/cuda/memory.c", 582, "cuMemCreate"),
        ("misc/cudawrap.cc", 92, "ncclCuMemHostEnable()"),
        ("/build/nccl/src/init.cc", 1852, "ncclCommInitRank")]).split("\n", 1)[1])
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "NCCL_CUMEM_ENABLE=0" in v["fix"], v["fix"]


def test_kernel_segfaults_in_the_vgpu_library_alone_are_the_interposer(tmp_path):
    """Rule CH (1): only the kernel's lines, several python processes segfaulting in libvgpu.so: config, no rank."""
    text = "".join(f"[90{i}3.51{i}22] python[{5100 + i}]: segfault at 0 ip 00007f2{i}9c1e48a2 sp 00007ffe2c0{i}1f20 "
                   f"error 4 in libvgpu.so[7f2{i}9c1b5000+38000]\n" for i in range(3))
    v, acc = verdict_accused(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v


def test_segfault_beside_only_the_hooks_startup_lines_stays_unknown(tmp_path):
    """The near shape (rule A, rule CH (1)'s limit): HAMi-core's start-up Warn / Msg lines, then a worker's SIGSEGV
    caught by UCX's handler whose backtrace holds only libucs's own frames: a lone crash of unknown cause, no rank
    named; its fix says how to get the real backtrace and NCCL's trail."""
    text = ("(RayWorkerWrapper pid=3321) [HAMi-core Warn(3321:140001:utils.c:228)]: get default cuda 0 from 1\n"
            "(RayWorkerWrapper pid=3321) [HAMi-core Msg(3321:140001:libvgpu.c:906)]: Initialized\n"
            "(RayWorkerWrapper pid=3321) [gpu-node-4:3321 :0:3321] Caught signal 11 (Segmentation fault: address not "
            "mapped to object at address (nil))\n"
            "(RayWorkerWrapper pid=3321) ==== backtrace (tid:   3321) ====\n"
            "(RayWorkerWrapper pid=3321)  0  /opt/hpcx/ucx/lib/libucs.so.0(ucs_handle_error+0x2e4) [0x7f0a1c0a2654]\n"
            "(RayWorkerWrapper pid=3321)  1  /opt/hpcx/ucx/lib/libucs.so.0(+0x3684c) [0x7f0a1c0a284c]\n")
    v, acc = verdict_accused(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "UCX_HANDLE_ERRORS=none" in v["fix"] and "NCCL_DEBUG=INFO" in v["fix"], v["fix"]
    # a banner crash whose frames are another library's, with no interposer text: rule A's unknown as before
    v, _ = verdict_accused(tmp_path, "!!!!!!! Segfault encountered !!!!!!!\n"
                                     '  File "/src/ext/ops/fused_rope.cu", line 88, in rope_forward\n')
    assert v["cause"] == "unknown", v


# --- an Ascend NPU kernel's exception ------------------------------------------------------------------------------
def _aivec(rank: int | None, pid: int = 4410, chip: int = 2) -> str:
    tag = f"[rank{rank}]:" if rank is not None else ""
    return (f"{tag}[W1103 14:02:31.551201442 compiler_depend.ts:57] Warning: EZ9999: Inner Error!\n"
            f"EZ9999: [PID: {pid}] 2025-11-03-14:02:31.500.120 The error from device(chipId:{chip}, dieId:0), serial "
            "number is 3, there is an exception of aicore error, core id is 12, error code = 0, dump info: pc start: "
            "0x1241a0001000\n"
            "TraceBack (most recent call last):\n"
            "Kernel task happen error, retCode=0x28, [aicore exception].[FUNC:PreCheckTaskErr]"
            "[FILE:davinci_kernel_task.cc][LINE:1539]\n"
            "AIC Kernel happen error, retCode=0x28.[FUNC:GetError][FILE:stream.cc][LINE:1183]\n")


def test_npu_kernel_exception_is_the_tagged_ranks_device_error(tmp_path):
    """Rules AN (2), AM (3): an AI Core / vector-core kernel's exception under rank 3's tagged EZ9999 warning: that
    rank's device error, read like a CUDA illegal access -- cuda_error, culprit 3; the fix names Ascend's tools."""
    v, acc = verdict_accused(tmp_path, _aivec(3, pid=9021, chip=5))
    assert (v["cause"], v["culprits"]) == ("cuda_error", [3]) and acc == {3}, v
    assert "ASCEND_LAUNCH_BLOCKING=1" in v["fix"] and "npu-smi" in v["fix"], v["fix"]


def test_npu_kernel_exception_without_a_rank_tag_names_no_rank(tmp_path):
    """The near shape: the same block with no rank tag on its warning: the device's error still (cuda_error), but
    the lines do not say whose -- no rank accused."""
    v, acc = verdict_accused(tmp_path, _aivec(None))
    assert v["cause"] == "cuda_error" and v["culprits"] == [] and not acc, v


# --- faulthandler's report with only a thread standing in all_reduce ----------------------------------------------
def _fatal(current_in_loader: bool) -> str:
    out = ("PyTorch: 2.7.1+cu126\nCUDA runtime: 12.6\n"
           "Fatal Python error: Segmentation fault\n\n")
    if current_in_loader:
        out += ("Current thread 0x00007f3a2b7fe700 (most recent call first):\n"
                '  File "/opt/venv/lib/python3.11/site-packages/PIL/Image.py", line 812, in tobytes\n\n')
    out += ("Thread 0x00007f3a9c1e2740 (most recent call first):\n"
            '  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 2501 in '
            "all_reduce\n"
            '  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/c10d_logger.py", line 83 in wrapper\n'
            '  File "/home/u/bench/allreduce_test.py", line 31 in main\n')
    return out


def test_fatal_segfault_with_a_thread_in_all_reduce_points_at_nccls_transports(tmp_path):
    """Rule A (AK (2)): a faulthandler report with no 'Current thread' (the signal came in a thread without Python
    frames) whose Python thread stands in all_reduce: unknown, no rank -- but the fix is the collective's (NCCL_DEBUG
    and the transport switches)."""
    v, acc = verdict_accused(tmp_path, _fatal(False))
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "NCCL_DEBUG=INFO" in v["fix"] and "NCCL_P2P_DISABLE=1" in v["fix"], v["fix"]


def test_fatal_segfault_whose_current_thread_is_elsewhere_is_not_the_collectives(tmp_path):
    """The near shape: the crashing thread ('Current thread') is shown in another frame; a second thread standing in
    all_reduce does not make it the collective's crash."""
    v, _ = verdict_accused(tmp_path, _fatal(True))
    assert v["cause"] == "unknown" and "NCCL_P2P_DISABLE=1" not in v["fix"], v["fix"]
