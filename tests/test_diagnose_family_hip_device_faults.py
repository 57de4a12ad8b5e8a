"""How diagnose reads round 96's ROCm/HIP memory and device faults and a GPU that needs a reset (lead rule AN (2)):
HIP's runtime aborting a process's GPU queue on HSA_STATUS_ERROR_OUT_OF_RESOURCES with the free device memory it
printed (gpu_oom, no rank: the runtime's "[pid:N" and a Slurm task label are no rank), the same line wrapped by a
paste onto three lines; nccl-tests' "Test CUDA failure F:N" with its quoted message wrapped onto the next line; and
ROCm's own fix words for HIP's 'invalid device function', the watchdog's c10_hip_check and HSA memory access faults.
Each test reads the shape from lines other than the corpus case's own (other pids, queues, sizes, GPUs), and a near
shape that must keep its old reading. Hosts, pids and paths are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report


def _verdict(tmp_path, text: str) -> tuple[dict, dict]:
    d = _report(tmp_path, text)
    return d, d["verdict"]


def _queue_abort(status: str, msg: str, free: int | None, prefix: str = "", pid: int = 4417,
                 aborting: str = "Aborting") -> str:
    tail = f" Code: 0x1008 Available Free mem : {free} MB" if free is not None else " Code: 0x1016"
    return (f"{prefix}:0:rocdevice.cpp            :2982: 2211034566177 us: [pid:{pid}  tid:0x7f11c2dff640] Callback: "
            f"Queue 0x7f0a41e00000 {aborting} with error : {status}: {msg}{tail}\n")


_OOR = ("HSA_STATUS_ERROR_OUT_OF_RESOURCES", "The runtime failed to allocate the necessary resources. This error may "
        "also occur when the core runtime library needs to spawn threads or create internal OS-specific events.")


# --- HIP's queue abort on OUT_OF_RESOURCES with the free device memory ------------------------------------------------
def test_hip_queue_abort_out_of_resources_with_free_memory_is_gpu_oom_nobody_named(tmp_path):
    """A task-labelled process (srun's '3: ') aborted by the HIP runtime on HSA's OUT_OF_RESOURCES with 'Available
    Free mem : 118 MB': the device ran out of memory (rule AN (2)); the runtime's pid and the task label name no rank
    (rules AI (2), AC (1)): gpu_oom, nobody accused, ROCm's memory tools in the fix."""
    text = ("2: warning: the module hierarchy tracking seems to be messed up\n"
            + _queue_abort(*_OOR, 118, prefix="3: ", pid=9120))
    d, v = _verdict(tmp_path, text)
    assert v["cause"] == "gpu_oom" and not _accused(d), v
    assert "PYTORCH_HIP_ALLOC_CONF=expandable_segments:True" in v["fix"] and "rocm-smi --showmeminfo vram" in v["fix"]


def test_hip_queue_abort_lowercase_out_of_resources_is_gpu_oom(tmp_path):
    """The older runtime's 'aborting' (lower case), no prefix: the same reading."""
    d, v = _verdict(tmp_path, _queue_abort(*_OOR, 12, aborting="aborting"))
    assert v["cause"] == "gpu_oom" and not _accused(d), v


def test_hip_queue_abort_hardware_exception_stays_a_device_error(tmp_path):
    """The near shape: the same callback on HSA_STATUS_ERROR_EXCEPTION (a kernel's hardware exception) is a HIP device
    error, not memory -- with the capital 'Aborting' it is now read at all, as cuda_error."""
    d, v = _verdict(tmp_path, _queue_abort("HSA_STATUS_ERROR_EXCEPTION", "An HSAIL operation resulted in a hardware "
                                           "exception.", None))
    assert v["cause"] == "cuda_error" and not _accused(d), v


def test_hip_queue_abort_out_of_resources_without_free_memory_stays_a_device_error(tmp_path):
    """The near shape: OUT_OF_RESOURCES without the free device memory printed names no device memory: the HIP runtime
    error it was read as before (cuda_error)."""
    text = (":0:rocdevice.cpp            :2982: 2211034566177 us: [pid:771  tid:0x7f11c2dff640] Callback: Queue "
            "0x7f0a41e00000 aborting with error : HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate "
            "the necessary resources. Code: 0x1008\n")
    d, v = _verdict(tmp_path, text)
    assert v["cause"] == "cuda_error" and not _accused(d), v


def test_hip_queue_abort_wrapped_onto_three_lines_is_read_joined(tmp_path):
    """The reporter's abbreviated paste: the callback's head ('Queue 0x... Aborting with error :'), the status on the
    next line, 'Code: ... Available Free mem : 9 MB' on the third: read as the one line it was -- gpu_oom."""
    text = ("Epoch 0: 41%|####      | 83/200\n:0:rocdevice.cpp :3102: Callback: Queue 0x... Aborting with error :\n"
            "  HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary resources...\n"
            "  Code: 0x1008  Available Free mem : 9 MB\n")
    d, v = _verdict(tmp_path, text)
    assert v["cause"] == "gpu_oom" and not _accused(d), v


def test_hip_queue_abort_head_with_another_status_on_the_next_line_is_a_device_error(tmp_path):
    """The near shape: the cut head with a memory-access status under it is the HIP device error (cuda_error); the
    head alone, nothing under it, stays unread (unknown)."""
    text = (":0:rocdevice.cpp :3102: Callback: Queue 0x7f00aa000000 Aborting with error :\n"
            "  HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION: The agent attempted to access memory beyond the largest "
            "legal address. Code: 0x29\n")
    d, v = _verdict(tmp_path, text)
    assert v["cause"] == "cuda_error" and not _accused(d), v
    d, v = _verdict(tmp_path, ":0:rocdevice.cpp :3102: Callback: Queue 0x7f00aa000000 Aborting with error :\n")
    assert v["cause"] == "unknown", v


# --- nccl-tests' CUDA check with its message wrapped onto the next line -------------------------------------------
def test_nccl_tests_cuda_failure_with_its_message_on_the_next_line_is_a_device_error(tmp_path):
    """'Test CUDA failure common.cu:N' ends its line, the quoted CUDA error string under it, then the driver's NVRM
    lines: the CUDA call failed (cuda_error), no rank's own lines, nobody named."""
    text = ("Test CUDA failure common.cu:1012\n'CUDA-capable device(s) is/are busy or unavailable'\n\n"
            " [Mon Feb  2 14:10:44 2026] NVRM: nvAssertOkFailedNoLog: Assertion failed: Reset required "
            "[NV_ERR_RESET_REQUIRED] (0x00000062) returned from status @ kernel_channel.c:2874\n")
    d, v = _verdict(tmp_path, text)
    assert v["cause"] == "cuda_error" and not _accused(d), v
    assert "nvidia-smi -q" in v["fix"], v["fix"]


def test_nccl_tests_cuda_failure_line_followed_by_other_output_stays_unread(tmp_path):
    """The near shape: the same head with an unquoted line of other output under it (nccl-tests' device list) is no
    message of it: read as before, no CUDA error."""
    text = "Test CUDA failure common.cu:1012\n#  Rank  0 Group  0 Pid  77 on node7 device  1 [0x1b] NVIDIA H100\n"
    d, v = _verdict(tmp_path, text)
    assert v["cause"] == "none", v  # its old reading (review 96 finding 10)


# --- ROCm's fix words ----------------------------------------------------------------------------------------------
_HIP_IDF = (
    '(WorkerDict pid=4410)   File "/opt/venv/lib/python3.12/site-packages/torch/distributed/utils.py", line 322, in '
    "_sync_params_and_buffers\n(WorkerDict pid=4410)     dist._broadcast_coalesced(\n"
    "(WorkerDict pid=4410) RuntimeError: {api} error: invalid device function\n"
    "(WorkerDict pid=4410) {api} kernel errors might be asynchronously reported at some other API call, so the "
    "stacktrace below might be incorrect.\n")

def test_hip_invalid_device_function_gets_rocm_build_fix(tmp_path):
    """'HIP error: invalid device function' relayed by a Ray actor: the build has no code for the GPU's gfx target
    (rule BD (4)): cuda_error, nobody, and ROCm's fix (gfx target, HSA_OVERRIDE_GFX_VERSION), not NVCC's."""
    d, v = _verdict(tmp_path, _HIP_IDF.format(api="HIP"))
    assert v["cause"] == "cuda_error" and not _accused(d), v
    assert "HSA_OVERRIDE_GFX_VERSION" in v["fix"] and "NVCC_GENCODE" not in v["fix"], v["fix"]


def test_cuda_invalid_device_function_keeps_the_cuda_build_fix(tmp_path):
    """The near shape: CUDA's own 'invalid device function' keeps the CUDA arch fix."""
    d, v = _verdict(tmp_path, _HIP_IDF.format(api="CUDA"))
    assert v["cause"] == "cuda_error", v
    assert "NVCC_GENCODE" in v["fix"] and "HSA_OVERRIDE_GFX_VERSION" not in v["fix"], v["fix"]


def _wd_frames(lib: str, base: str) -> str:
    return "".join(f"app-1  | frame #{i}: {fn} + 0x5e (0x{base}{i}ece in /opt/torch/lib/{lib}.so)\n" for i, fn in (
        (3, "c10d::ProcessGroupNCCL::WorkNCCL::finishedGPUExecutionInternal() const"),
        (4, "c10d::ProcessGroupNCCL::WorkNCCL::isCompleted()"),
        (5, "c10d::ProcessGroupNCCL::Watchdog::runLoop()")))


def test_watchdog_hip_check_frames_get_rocm_fix(tmp_path):
    """Two processes' watchdog backtraces through libtorch_hip's finishedGPUExecutionInternal (c10_hip_check): a HIP
    error on the GPU, its message cut (rules BL (3), AN (2)): cuda_error, nobody, ROCm's tools in the fix."""
    d, v = _verdict(tmp_path, _wd_frames("libtorch_hip", "7f31a2") + "\n" + _wd_frames("libtorch_hip", "7fc0d1"))
    assert v["cause"] == "cuda_error" and not _accused(d), v
    assert "AMD_SERIALIZE_KERNEL=3 / HIP_LAUNCH_BLOCKING=1" in v["fix"], v["fix"]


def test_watchdog_cuda_check_frames_keep_the_cuda_fix(tmp_path):
    """The near shape: the same frames in libtorch_cuda keep CUDA's fix."""
    d, v = _verdict(tmp_path, _wd_frames("libtorch_cuda", "7f31a2"))
    assert v["cause"] == "cuda_error", v
    assert "CUDA_LAUNCH_BLOCKING=1" in v["fix"] and "AMD_SERIALIZE_KERNEL" not in v["fix"], v["fix"]


def test_hsa_memory_access_faults_name_the_amdgpu_page_fault(tmp_path):
    """Several GPUs' 'Memory access fault by GPU node-N ... Reason: Unknown' alike: cuda_error, nobody (rules J,
    AX (4)), and the fix asks for the amdgpu page fault in dmesg."""
    text = "".join(f"Memory access fault by GPU node-{n} (Agent handle: 0x55d0{n}f0) on address 0x7e1{n}00000. "
                   "Reason: Unknown.\n" for n in (3, 5, 6))
    d, v = _verdict(tmp_path, text)
    assert v["cause"] == "cuda_error" and not _accused(d), v
    assert "dmesg for the amdgpu page fault" in v["fix"], v["fix"]


# --- the NVIDIA driver's NV_ERR_RESET_REQUIRED beside a refused CUDA call ------------------------------------------
def _nvrm(status: str) -> str:
    return (f" [Tue Mar  3 02:17:09 2026] NVRM: nvAssertOkFailedNoLog: Assertion failed: {status} returned from "
            "status @ kernel_channel.c:2901\n")


def test_driver_reset_required_beside_a_busy_gpu_asks_for_a_reset(tmp_path):
    """nccl-tests refused a context ('busy or unavailable') and the driver's kernel log says 'Reset required
    [NV_ERR_RESET_REQUIRED]': the GPU needs a reset (rule AN (2)): cuda_error, nobody named, reset / drain in the
    fix rather than the compute mode."""
    text = ("node4: Test CUDA failure common.cu:988 'CUDA-capable device(s) is/are busy or unavailable'\n"
            + _nvrm("Reset required [NV_ERR_RESET_REQUIRED] (0x00000062)"))
    d, v = _verdict(tmp_path, text)
    assert v["cause"] == "cuda_error" and not _accused(d), v
    assert "nvidia-smi -r" in v["fix"] and "dcgmi diag" in v["fix"], v["fix"]


def test_driver_other_assertion_keeps_the_busy_gpu_reading(tmp_path):
    """The near shape: another NVRM status (NV_ERR_INVALID_STATE) says no reset: the busy GPU keeps its compute-mode
    fix."""
    text = ("node4: Test CUDA failure common.cu:988 'CUDA-capable device(s) is/are busy or unavailable'\n"
            + _nvrm("Invalid state [NV_ERR_INVALID_STATE] (0x00000040)"))
    d, v = _verdict(tmp_path, text)
    assert v["cause"] == "cuda_error", v
    assert "nvidia-smi -q -d COMPUTE" in v["fix"] and "nvidia-smi -r" not in v["fix"], v["fix"]
