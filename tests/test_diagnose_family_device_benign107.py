"""How diagnose words the fix of a device set-up failure (round 107, session 44, fixer z4): DeepEP's buffer set-up
failing with CUDA's 'invalid resource handle' (the CUDA IPC handle a GB200 multi-node NVLink peer cannot open), a
Level Zero IPC-handle call failing under oneCCL / xccl on Intel GPUs, an uncorrectable NVLink error, and the fabric
manager's 'system not yet initialized' under torch's symmetric memory. Each test reads the shape from lines other than
the corpus case's own (other ranks, line numbers, paths, codes), and a near shape that keeps its old reading. Format
strings are DeepEP's (csrc/deep_ep.cpp's CUDA_CHECK: "Failed: CUDA error %s:%d '%s'"), oneCCL's (ze_call.cpp do_call)
and the CUDA runtime's error strings; hosts, pids and paths are made up."""

from __future__ import annotations

from tests.conftest import verdict_accused


# --- DeepEP's Buffer: cudaIpcOpenMemHandle refused -------------------------------------------------------------------
def test_deepeps_invalid_resource_handle_at_its_buffer_is_the_ipc_handle_across_hosts(tmp_path):
    """Lead rule AT (1): a CUDA call shown failing in DeepEP's buffer set-up, which every rank runs alike:
    cuda_error, nobody; the fix names fabric handles (use_fabric / SGLANG_DEEPEP_USE_FABRIC) for multi-node NVLink,
    not only CUDA_LAUNCH_BLOCKING for the illegal memory access that follows it."""
    text = ('  File "/opt/sglang/python/sglang/srt/layers/moe/token_dispatcher/deepep.py", line 251, in '
            "get_deepep_buffer\n"
            '  File "/opt/venv/lib/python3.11/site-packages/deep_ep/buffer.py", line 140, in __init__\n'
            "RuntimeError: Failed: CUDA error /workspace/DeepEP/csrc/deep_ep.cpp:118 'invalid resource handle'\n"
            "terminate called after throwing an instance of 'EPException'\n"
            "  what():  Failed: CUDA error /workspace/DeepEP/csrc/deep_ep.cpp:290 'an illegal memory access was "
            "encountered'\n"
            "Fatal Python error: Aborted\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "cuda_error" and not acc, v
    assert "SGLANG_DEEPEP_USE_FABRIC=1" in v["fix"] and "use_fabric" in v["fix"], v


def test_an_illegal_memory_access_without_deepep_keeps_its_kernel_fix(tmp_path):
    """The near shape: 'invalid resource handle' beside an illegal memory access in a job's own extension, no DeepEP:
    still the kernel fault's fix (CUDA_LAUNCH_BLOCKING / compute-sanitizer), no fabric handles."""
    text = ("RuntimeError: Failed: CUDA error /build/myext/csrc/kernels.cu:77 'invalid resource handle'\n"
            "RuntimeError: CUDA error: an illegal memory access was encountered\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "cuda_error" and not acc, v
    assert "CUDA_LAUNCH_BLOCKING=1" in v["fix"] and "use_fabric" not in v["fix"], v


# --- Level Zero's IPC-handle open under oneCCL / xccl ----------------------------------------------------------------
def test_level_zero_ipc_handle_open_failing_is_onecclS_peer_set_up(tmp_path):
    """Lead rules AN (2), V (2), BB (3): every rank's Level Zero IPC-handle open failing in the collective library's
    peer set-up: cuda_error, nobody; the fix names oneCCL's IPC exchange and peer-access switches."""
    text = "".join(f"[rank{r}]: RuntimeError: oneCCL: ze_call.cpp:31 do_call: EXCEPTION: ze error at "
                   "zeMemOpenIpcHandle, code: ZE_RESULT_ERROR_INVALID_ARGUMENT\n" for r in (2, 3))
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "cuda_error" and not acc, v
    assert "CCL_ZE_IPC_EXCHANGE=sockets" in v["fix"] and "CCL_TOPO_P2P_ACCESS=0" in v["fix"], v


def test_level_zero_ipc_handle_cut_before_onecclS_wrapper_reads_the_same(tmp_path):
    """The same call with the paste cut before oneCCL's wrapper, under vLLM's engine start-up: the same fix."""
    text = ("zeMemOpenIpcHandle, code: ZE_RESULT_ERROR_UNKNOWN\n"
            "RuntimeError: Engine core initialization failed. Failed core proc(s): {'EngineCore_DP0': 1}\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "cuda_error" and not acc, v
    assert "CCL_TOPO_P2P_ACCESS=0" in v["fix"], v


def test_a_level_zero_error_of_another_call_keeps_the_device_fix(tmp_path):
    """The near shape: a Unified Runtime error with no IPC call named (the device ran out of resources): the device's
    own fix (xpu-smi, OUT_OF_RESOURCES), not oneCCL's IPC switches."""
    text = ("[rank1]: RuntimeError: level_zero backend failed with error: 40 (UR_RESULT_ERROR_OUT_OF_RESOURCES)\n")
    v, _ = verdict_accused(tmp_path, text)
    assert v["cause"] == "cuda_error", v
    assert "xpu-smi" in v["fix"] and "CCL_ZE_IPC_EXCHANGE" not in v["fix"], v


# --- uncorrectable NVLink error -------------------------------------------------------------------------------------
def test_uncorrectable_nvlink_error_names_p2p_disable_as_the_test(tmp_path):
    """An uncorrectable NVLink error: cuda_error; the fix names the links' checks and NCCL_P2P_DISABLE=1 to take NVLink
    out while diagnosing."""
    text = ("RuntimeError: NCCL error in: /opt/pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:911, "
            "unhandled cuda error, NCCL version 2.9.8\n"
            "ncclUnhandledCudaError: Call to CUDA function failed.\n"
            "Last error:\nCuda failure 'uncorrectable NVLink error was detected during the execution'\n")
    v, _ = verdict_accused(tmp_path, text)
    assert v["cause"] == "cuda_error", v
    assert "NCCL_P2P_DISABLE=1 to avoid NVLink while diagnosing" in v["fix"], v


# --- the fabric manager not ready, under torch's symmetric memory ---------------------------------------------------
def test_system_not_yet_initialized_in_symmetric_memory_names_its_switch(tmp_path):
    """cudaErrorSystemNotReady in torch's symmetric-memory rendezvous: the fabric manager (cuda_error); the fix names
    nvidia-smi -q's fabric state and the GPU reset after it."""
    text = ("ERROR 03-04 11:02:10 [multiproc_executor.py:611]     handle = torch_symm_mem.rendezvous(self.buffer, "
            "self.group.group_name)\n"
            "ERROR 03-04 11:02:10 [multiproc_executor.py:611] torch.AcceleratorError: CUDA error: system not yet "
            "initialized\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "cuda_error" and not acc, v
    assert "nvidia-smi -q (fabric state" in v["fix"] and "reboot / reset the GPUs" in v["fix"], v


def test_system_not_ready_of_another_runtime_keeps_its_own_reading(tmp_path):
    """The near shape: a CUDA 'initialization error' (not the fabric's 'system not yet initialized'): no fabric
    manager's state in the fix."""
    text = "RuntimeError: CUDA error: initialization error\n"
    v, _ = verdict_accused(tmp_path, text)
    assert v["cause"] == "cuda_error", v
    assert "nvidia-smi -q (fabric state" not in v["fix"], v
