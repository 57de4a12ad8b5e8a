"""How diagnose words the fix of a device set-up failure (round 107, session 44, fixer z4): DeepEP's buffer set-up
failing with CUDA's 'invalid resource handle' (the CUDA IPC handle a GB200 multi-node NVLink peer cannot open), a
Level Zero IPC-handle call failing under oneCCL / xccl on Intel GPUs, an uncorrectable NVLink error, and the fabric
manager's 'system not yet initialized' under torch's symmetric memory -- and lines after or beside a run that went
on, with nothing failing: DeepSpeed ZeRO-3's newer trace-cache wording, FSDP's profiling dump, CANN's TBE subprocess
after verl's last validation, NCCL's COLL trace of Send/Recv on two communicators, ranks' prints after a broadcast,
and Habana's PT bridge banner. Each test reads the shape from lines other than
the corpus case's own (other ranks, line numbers, paths, codes), and a near shape that keeps its old reading. Format
strings are DeepEP's (csrc/deep_ep.cpp's CUDA_CHECK: "Failed: CUDA error %s:%d '%s'"), oneCCL's (ze_call.cpp do_call)
and the CUDA runtime's error strings; hosts, pids and paths are made up."""

from __future__ import annotations

from tests.conftest import verdict_accused


# --- DeepEP's Buffer: cudaIpcOpenMemHandle refused --------------------------------------------------------------------
def test_deepeps_invalid_resource_handle_at_its_buffer_is_the_ipc_handle_across_hosts(tmp_path):
    """Lead rule AT (1): a CUDA call shown failing in DeepEP's buffer set-up, which every rank runs alike:
    cuda_error, nobody; the fix names fabric handles (use_fabric: a DeepEP / SGLang build that passes it) for multi-node
    NVLink, not only CUDA_LAUNCH_BLOCKING for the illegal memory access that follows it; no SGLANG_DEEPEP_USE_FABRIC,
    which SGLang never merged (review 107 finding 5 (d))."""
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
    assert "use_fabric=True" in v["fix"] and "SGLANG_DEEPEP_USE_FABRIC" not in v["fix"], v


def test_an_illegal_memory_access_without_deepep_keeps_its_kernel_fix(tmp_path):
    """The near shape: 'invalid resource handle' beside an illegal memory access in a job's own extension, no DeepEP:
    still the kernel fault's fix (CUDA_LAUNCH_BLOCKING / compute-sanitizer), no fabric handles."""
    text = ("RuntimeError: Failed: CUDA error /build/myext/csrc/kernels.cu:77 'invalid resource handle'\n"
            "RuntimeError: CUDA error: an illegal memory access was encountered\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "cuda_error" and not acc, v
    assert "CUDA_LAUNCH_BLOCKING=1" in v["fix"] and "use_fabric" not in v["fix"], v


# --- Level Zero's IPC-handle open under oneCCL / xccl -----------------------------------------------------------------
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


# --- uncorrectable NVLink error ---------------------------------------------------------------------------------------
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


# --- the fabric manager not ready, under torch's symmetric memory -----------------------------------------------------
def test_system_not_yet_initialized_in_symmetric_memory_names_the_fabric_state(tmp_path):
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


# --- DeepSpeed ZeRO-3's newer trace-cache wording ---------------------------------------------------------------------
def test_zero3_trace_cache_newer_wording_is_benign(tmp_path):
    """Lead rules K, N: 'Invalidate trace cache @ step N and module M: cache has only K modules' (newer DeepSpeed) is
    the same re-trace as the older wording: none, and the fix says it is benign."""
    text = "".join(f"Invalidate trace cache @ step 2 and module {m}: cache has only 3 modules\n" for m in (812, 1624))
    text += "{'loss': 0.12, 'grad_norm': 1.5, 'learning_rate': 1e-06, 'epoch': 0.01}\n"
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "none" and not acc, v
    assert "benign" in v["fix"] and "Invalidate trace cache" in v["fix"], v


def test_a_trace_cache_line_in_other_words_is_not_zero3s(tmp_path):
    """The near shape: a line naming a trace cache in other words (a profiler's own note) is not ZeRO-3's re-trace."""
    text = "Invalidate trace cache requested by user at shutdown\n"
    v, _ = verdict_accused(tmp_path, text)
    assert "ZeRO-3" not in v["fix"], v


# --- FSDP's SimpleProfiler dump ---------------------------------------------------------------------------------------
def test_fsdp_optim_state_profiling_warning_is_benign(tmp_path):
    """Lead rules K, N: FSDP's _debug_utils profiling line after an optimizer state-dict call is its timing: none,
    and the fix names it as benign debug profiling output and the sharded load."""
    text = ("[rank3]:[2024-05-02 10:11:12,345] torch.distributed.fsdp._debug_utils: [WARNING] FSDP "
            "_optim_state_dict() profiling:  defaultdict(<class 'float'>, {<Type.ALLGATHER: 'all_gather'>: 41.2})\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "none" and not acc, v
    assert "benign: FSDP debug profiling output" in v["fix"], v


def test_an_fsdp_warning_without_profiling_keeps_its_reading(tmp_path):
    """The near shape: another FSDP warning (no profiling dump) gets no profiling words."""
    text = ("[rank1]:[2024-05-02 10:11:12,345] torch.distributed.fsdp._state_dict_utils: [WARNING] FSDP is "
            "switching to use `NO_SHARD` instead of ShardingStrategy.FULL_SHARD since the world size is 1.\n")
    v, _ = verdict_accused(tmp_path, text)
    assert "profiling" not in v["fix"], v


# --- CANN's TBE subprocess after the run's end ------------------------------------------------------------------------
_TBE = "(WorkerDict pid={pid}) [ERROR] TBE Subprocess[task_distribute] raise error[], main process disappeared!\n"


def test_tbe_subprocess_after_final_validation_is_teardown_noise(tmp_path):
    """Lead rules K, N: verl's 'Final validation metrics' line, then TBE's compile subprocess seeing its worker gone:
    the run finished, the workers exited -- none, and the fix says so."""
    text = ("(TaskRunner pid=5120) Final validation metrics: {'val-core/math/reward/mean@1': 0.71}\n"
            + "".join(_TBE.format(pid=p) for p in (7001, 7001, 7002)))
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "none" and not acc, v
    assert "teardown noise after the worker exited" in v["fix"], v


def test_tbe_subprocess_without_a_run_end_keeps_its_old_reading(tmp_path):
    """The near shape: the same TBE lines with no end-of-run line: the main process went, why is not shown --
    not read as a finished run."""
    text = "".join(_TBE.format(pid=p) for p in (7001, 7002))
    v, _ = verdict_accused(tmp_path, text)
    assert v["cause"] != "none", v


# --- NCCL's COLL trace of Send/Recv -----------------------------------------------------------------------------------
def _coll(op: str, count: str, comm: str) -> str:
    return (f"node7:40211:40380 [0] NCCL INFO {op}: opCount {count} sendbuff 0x7f10a0000000 recvbuff (nil) count 1024 "
            f"datatype 7 op 0 root 1 comm {comm} [nranks=2] stream 0x55d0c0a1b2c0\n")


def test_coll_trace_of_send_recv_on_two_communicators_says_trace_lines_are_not_errors(tmp_path):
    """Lead rules K, T: NCCL's COLL trace with nothing failing: none; the fix says the trace lines are not errors
    and, with Send/Recv on two communicators of one process, names the concurrent-communicator hang."""
    text = "".join(_coll(op, n, c) for op, n, c in (("Send", "a", "0x7f11c0002e10"), ("Recv", "b", "0x7f11c0002e10"),
                                                     ("Send", "a", "0x7f1200002e10"), ("Recv", "c", "0x7f1200002e10")))
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "none" and not acc, v
    assert "NCCL_DEBUG=INFO trace lines are not errors" in v["fix"], v
    assert "two communicators concurrently" in v["fix"], v


def test_coll_trace_on_one_communicator_names_no_two_communicator_hang(tmp_path):
    """The near shape: Send/Recv on one communicator only: the trace words, not the two-communicator advice."""
    text = "".join(_coll(op, n, "0x7f11c0002e10") for op, n in (("Send", "a"), ("Recv", "b")))
    v, _ = verdict_accused(tmp_path, text)
    assert v["cause"] == "none", v
    assert "two communicators concurrently" not in v["fix"], v


# --- ranks' prints after a broadcast ----------------------------------------------------------------------------------
def test_different_values_after_a_broadcast_name_the_groups_members(tmp_path):
    """Lead rules K, T, CG (2): ranks printing different values after a broadcast, nothing failing: none; the fix
    says those ranks did not take part (the group's members, src)."""
    text = "".join(f"after broadcast, rank {r} has tensor([{r}.], device='cuda:{r}')\n" for r in (2, 0, 1))
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "none" and not acc, v
    assert "check the src argument and the group passed to dist.broadcast" in v["fix"], v
    assert "set_device" not in v["fix"], v  # each rank printed its own device


def test_equal_values_after_a_broadcast_add_no_broadcast_words(tmp_path):
    """The near shape: every rank prints the same value after the broadcast (it ran): no broadcast advice."""
    text = "".join(f"After broadcast rank {r} is tensor([7.], device='cuda:{r}')\n" for r in (0, 1, 2))
    v, _ = verdict_accused(tmp_path, text)
    assert v["cause"] == "none", v
    assert "dist.broadcast" not in v["fix"], v


# --- Habana's PT bridge banner ----------------------------------------------------------------------------------------
def test_habana_bridge_banner_is_start_up_output_with_hpu_fix_words(tmp_path):
    """Lead rules K, T: Lightning's HPU start-up and the Habana PT bridge's settings, nothing failing: none; the fix
    says what to give for a failing HPU job."""
    text = ("HPU available: True, using: 4 HPUs\n"
            + "".join(f"Initializing distributed: GLOBAL_RANK: {r}, MEMBER: {r + 1}/4\n" for r in (3, 1, 0, 2))
            + "distributed_backend=hccl\nAll distributed processes registered. Starting with 4 processes\n"
            "======================HABANA PT BRIDGE CONFIGURATION ======================\n"
            " PT_HPU_LAZY_MODE = 1\n PT_HPU_ENABLE_COMPILE_THREAD = 0\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "none" and not acc, v
    assert "PT_HPU_LAZY_MODE" in v["fix"] and "full traceback of the failing HPU process" in v["fix"], v


def test_lightning_start_up_without_the_bridge_banner_names_no_hpu(tmp_path):
    """The near shape: the same Lightning start-up on GPUs, no Habana banner: no HPU words."""
    text = ("".join(f"Initializing distributed: GLOBAL_RANK: {r}, MEMBER: {r + 1}/2\n" for r in (1, 0))
            + "distributed_backend=nccl\nAll distributed processes registered. Starting with 2 processes\n")
    v, _ = verdict_accused(tmp_path, text)
    assert v["cause"] == "none", v
    assert "HPU" not in v["fix"], v
