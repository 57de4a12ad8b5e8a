"""How diagnose reads round 97's non-NVIDIA accelerators: their memory running out, their collective libraries' own
internal errors, a collective library's settings check, ROCm's device selection shown wrong, and a launcher's banner.

- Ascend: torch_npu's "NPU out of memory. Tried to allocate ..." and CANN's EL0004 "Failed to allocate memory" with
  the driver's "reason=[driver error:out of memory]" under the error header "(PID:N, Device:D, RankID:R)": gpu_oom, the
  header's rank (lead rules AN (2), U (3)); Ray's "[repeated Nx across cluster]" OOM of workers loading alike: no rank.
- Ascend's operator layer reporting HCCL's own HCCL_E_INTERNAL ("fails to invoke the HcclX function of the hccl
  module. ret = 4") under an aclnn operator's error 561000, and Habana's hcclInternalError / HCL's own failed check:
  nccl_internal, culprits [] (lead rule BO (3)); a socket wait (EI0006) keeps rule BO (2)'s reading.
- oneCCL's failed condition whose message, on the next line, names the setting it needs: config.
- HIP's "no ROCm-capable device is detected" with ROCR_VISIBLE_DEVICES / HIP_VISIBLE_DEVICES selecting no device (or
  a malformed HSA_OVERRIDE_GFX_VERSION): config, culprits [] (lead rules V (1), AU (2)).
- torchrun's OMP_NUM_THREADS banner with nothing failing: none, its fix says how to silence it.

Each test reads the shape from lines other than the corpus case's own (other pids, ranks, devices, sizes), and a near
shape that must keep its old reading. Hosts, pids and paths are made up."""

from __future__ import annotations

from tests.conftest import verdict_accused


# --- Ascend: an NPU's memory running out ------------------------------------------------------------------------
def _el0004(pid: int, dev: int, rank: int, driver: bool = True) -> str:
    tail = ("        rtKernelLaunchWithHandle execute failed, reason=[driver error:out of memory][FUNC:FuncErrorReason]"
            "[FILE:error_message_manage.cc][LINE:53]\n") if driver else ""
    return (f"[ERROR] 2025-03-11-09:41:{dev:02d} (PID:{pid}, Device:{dev}, RankID:{rank}) ERR00100 PTA call acl api "
            "failed\n"
            f"EL0004: 2025-03-11-09:41:{dev:02d}.211.090 Failed to allocate memory.\n"
            "        Possible Cause: Available memory is insufficient.\n"
            "        Solution: Close applications not in use.\n"
            "        TraceBack (most recent call last):\n" + tail)


def test_ascend_el0004_under_its_error_header_is_that_ranks_npu_oom(tmp_path):
    """CANN's EL0004 and the driver's out-of-memory reason under the header naming RankID 5: gpu_oom on rank 5, with
    the NPU's own allocator setting and npu-smi in the fix."""
    v, acc = verdict_accused(tmp_path, _el0004(40211, 5, 5))
    assert (v["cause"], v["culprits"]) == ("gpu_oom", [5]) and acc == {5}, v
    assert "PYTORCH_NPU_ALLOC_CONF" in v["fix"] and "npu-smi" in v["fix"], v["fix"]


def test_ascend_header_without_a_rank_names_nobody(tmp_path):
    """The near shape: the same error under a header whose RankID is -1 (no rank yet): gpu_oom, nobody named."""
    v, acc = verdict_accused(tmp_path, _el0004(40211, 3, -1))
    assert v["cause"] == "gpu_oom" and v["culprits"] == [] and not acc, v


def test_ascend_header_with_another_error_is_no_oom(tmp_path):
    """The near shape: the header over an error that is not an allocation (ERR02200 DIST with EI9999) stays out of
    gpu_oom."""
    text = ("[ERROR] 2025-03-11-09:41:07 (PID:40211, Device:6, RankID:6) ERR02200 DIST call hccl api failed.\n"
            "EI9999: Inner Error!\n")
    v, _ = verdict_accused(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("unknown", []), v  # its old reading (review 96 finding 10)


def _npu_oom(pid: int, npu: int, repeated: int | None) -> str:
    rep = f" [repeated {repeated}x across cluster]" if repeated else ""
    head = f"(NPURayWorkerWrapper pid={pid}) ERROR 07-21 14:02:19 worker_base.py:600] "
    return (f"{head}  File \"/usr/lib/python3.11/site-packages/torch/utils/_device.py\", line 104, in "
            f"__torch_function__{rep}\n"
            f"{head}RuntimeError: NPU out of memory. Tried to allocate 112.00 MiB (NPU {npu}; 29.50 GiB total "
            "capacity; 29.10 GiB already allocated; 29.10 GiB current active; 40.00 MiB free; 29.31 GiB reserved in "
            f"total by PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid "
            f"fragmentation.{rep}\n")


def test_ray_workers_npu_oom_repeated_is_gpu_oom_of_nobody(tmp_path):
    """torch_npu's OOM of Ray workers folded by Ray's dedup ('repeated 3x across cluster'): gpu_oom, no rank (a Ray
    pid is no rank), the serving engine's memory settings in the fix."""
    v, acc = verdict_accused(tmp_path, _npu_oom(51877, 6, 3))
    assert (v["cause"], v["culprits"]) == ("gpu_oom", []) and not acc, v
    assert "gpu_memory_utilization" in v["fix"] and "PYTORCH_NPU_ALLOC_CONF" in v["fix"], v["fix"]


def test_npu_out_of_memory_words_in_a_config_message_are_no_oom(tmp_path):
    """The near shape: the words in a setting's help text, nothing raised: not gpu_oom."""
    text = "INFO 07-21 14:02:19 config.py:88] tip: lower --gpu-memory-utilization to avoid NPU OOM during warm-up\n"
    v, _ = verdict_accused(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("none", []), v  # its old reading (review 96 finding 10)


# --- accelerators' collective libraries failing their own checks --------------------------------------------------
def _mc2(rank: int, pid: int, ret: int, code: int = 561000) -> str:
    return (f"[rank{rank}]:[E513 11:20:41.100420310 compiler_depend.ts:444] operator():build/CMakeFiles/torch_npu.dir/"
            "compiler_depend.ts:162 NPU function error: call aclnnMoeDistributeCombineV2 failed, error code is "
            f"{code}\n"
            f"[ERROR] 2026-05-13-11:20:41 (PID:{pid}, Device:{rank}, RankID:-1) ERR00100 PTA call acl api failed.\n"
            "EZ9999: Inner Error!\n"
            f"EZ9999[PID: {pid}] 2026-05-13-11:20:41.433.180 AclNN_Inner_Error(EZ9999):  Nnopbase fails to invoke the "
            f"HcclAllocComResourceByTiling function of the hccl module. ret = {ret}, comm = 0xfffe802eb000.\n"
            "        TraceBack (most recent call last):\n")


def test_aclnn_operator_carrying_hccl_internal_error_is_nccl_internal(tmp_path):
    """Rank 3's MC2 operator fails with 561000 and nnopbase says HCCL's own function returned ret = 4
    (HCCL_E_INTERNAL): the collective library's internal error, nccl_internal, no rank accused (rule BO (3))."""
    v, acc = verdict_accused(tmp_path, _mc2(3, 8812, 4))
    assert (v["cause"], v["culprits"]) == ("nccl_internal", []) and not acc, v
    assert "HCCL_BUFFSIZE" in v["fix"] and "plog" in v["fix"], v["fix"]


def test_aclnn_operator_error_without_hccl_internal_stays_the_devices(tmp_path):
    """The near shape: the same operator error where HCCL returned another code (ret = 9, a timeout): the device
    runtime's reading (cuda_error) stays."""
    v, _ = verdict_accused(tmp_path, _mc2(3, 8812, 9))
    assert v["cause"] == "cuda_error", v


def test_hccl_socket_wait_with_ret4_keeps_the_first_collective_wait(tmp_path):
    """The near shape (rule BO (2), vllm-ascend-5461): EI0006's socket wait above the same ret = 4 is the waiting side
    of a connection set-up: rank_missing, never nccl_internal."""
    text = ("[PID: 7311] 2025-12-29-03:16:15.787.356 Get_Socket_Timeout(EI0006): Getting socket times out. Reason: 1. "
            "The remote does not initiate a connect request. some NPUs in the cluster are abnormal.\n"
            "        TraceBack (most recent call last):\n"
            "        Nnopbase fails to invoke the HcclAllocComResourceByTiling function of the hccl module. ret = 4, "
            "comm = 0xfffcc6ed27a0.\n")
    v, _ = verdict_accused(tmp_path, text)
    assert v["cause"] == "rank_missing", v


def _hcl(n: int) -> str:
    one = ("/opt/build/repos/hcl/src/platform/gen2_arch_common/credit_manager.cpp:31(allocNextCredit): The condition "
           "[ prevTargetValue != targetValue ] failed. No available intermediate buffer\n"
           "HCCL demo error: In function hcclReduceScatterWrapper(): hcclReduceScatter(sendbuff, recvbuff, recvcount, "
           "dtype, op, comm, stream) failed: A device is busy or an internal check failed\n")
    return one * n + "terminate called without an active exception\n"


def test_habana_hcl_internal_check_of_every_process_is_nccl_internal(tmp_path):
    """Three processes' HCL check and hcclInternalError in a reduce-scatter: nccl_internal, nobody named, Habana's
    software and hl-smi in the fix."""
    v, acc = verdict_accused(tmp_path, _hcl(3))
    assert (v["cause"], v["culprits"]) == ("nccl_internal", []) and not acc, v
    assert "No available intermediate buffer" in v["summary"] and "hl-smi" in v["fix"], v


def test_habana_hcl_server_type_check_stays_config(tmp_path):
    """The near shape (hccl-demo-44): HCL's check naming the host's server type as invalid is a setting: config."""
    text = ("/src/hcl/src/platform/gaudi_common/hcl_device_control_factory.cpp::71(initDevice): The condition "
            "[ false ] failed. Invalid server type (5[OCP2]) requested to generate controller.\n") * 2
    v, _ = verdict_accused(tmp_path, text)
    assert v["cause"] == "config", v


# --- oneCCL: a failed condition whose message names the setting ---------------------------------------------------
def _ccl(pid: int, msg: str) -> str:
    return (f"2025:02:20-11:02:07:({pid}) |CCL_WARN| did not find MPI-launcher specific variables, switch to ATL/OFI, "
            "to force enable ATL/MPI set CCL_ATL_TRANSPORT=mpi\n"
            f"2025:02:20-11:02:07:({pid}) |CCL_ERROR| global.cpp:162 getenv_local_coord: condition "
            "global_data::env().ze_ipc_exchange == ccl::ze::ipc_exchange_mode::sockets failed\n" + msg
            + "Traceback (most recent call last):\n  File \"/work/train.py\", line 88, in <module>\n    main()\n")


def test_oneccl_condition_naming_its_setting_on_the_next_line_is_config(tmp_path):
    """oneCCL's failed condition, its message on the next line naming CCL_ZE_IPC_EXCHANGE=sockets: config, nobody
    named, the setting in the fix."""
    v, acc = verdict_accused(tmp_path, _ccl(77123, "to get local_idx/count from ATL, set CCL_ZE_IPC_EXCHANGE=sockets "
                                                   "explicitly\n"))
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "CCL_ZE_IPC_EXCHANGE=sockets" in v["fix"], v["fix"]


def test_oneccl_condition_without_a_setting_is_no_config(tmp_path):
    """The near shape: the same failed condition whose next line is the traceback (no message naming a setting)."""
    v, _ = verdict_accused(tmp_path, _ccl(77123, ""))
    assert (v["cause"], v["culprits"]) == ("unknown", []), v  # its old reading (review 96 finding 10)


# --- ROCm's device selection shown wrong --------------------------------------------------------------------------
_HIP_NO_DEVICE = ("terminate called after throwing an instance of 'c10::Error'\n"
                  "  what():  HIP error: no ROCm-capable device is detected\n"
                  "HIP kernel errors might be asynchronously reported at some other API call, so the stacktrace below "
                  "might be incorrect.\n"
                  "Exception raised from c10_hip_check_implementation at /pytorch/c10/hip/HIPException.cpp:45 (most "
                  "recent call first):\n")


def test_hip_no_device_under_rocr_and_hip_selecting_none_is_config(tmp_path):
    """ROCR_VISIBLE_DEVICES=2,3 leaves two devices (0 and 1), HIP_VISIBLE_DEVICES=2 selects none of them: the launch's
    setting, config, nobody named, the renumbering in the fix."""
    text = ("export ROCR_VISIBLE_DEVICES=2,3\nexport HIP_VISIBLE_DEVICES=2\n"
            "torchrun --nproc_per_node 1 serve.py\n\n" + _HIP_NO_DEVICE)
    v, acc = verdict_accused(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "HIP_VISIBLE_DEVICES=0,1" in v["fix"] and "rocminfo" in v["fix"], v["fix"]


def test_hip_no_device_under_a_malformed_gfx_override_is_config(tmp_path):
    """HSA_OVERRIDE_GFX_VERSION set to a target name (gfx1030), not a version: config."""
    text = "export HSA_OVERRIDE_GFX_VERSION=gfx1030\npython -m torch.distributed.run --nproc_per_node 2 a.py\n" + (
        _HIP_NO_DEVICE)
    v, _ = verdict_accused(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "9.0.6" in v["fix"], v["fix"]


def test_hip_no_device_under_consistent_settings_stays_a_device_error(tmp_path):
    """The near shape: HIP_VISIBLE_DEVICES=0 inside ROCR's one device and a well-formed override: nothing shown wrong,
    the device error's own reading stays."""
    text = ("export ROCR_VISIBLE_DEVICES=1\nexport HIP_VISIBLE_DEVICES=0\nexport HSA_OVERRIDE_GFX_VERSION=9.0.6\n"
            + _HIP_NO_DEVICE)
    v, _ = verdict_accused(tmp_path, text)
    assert v["cause"] == "cuda_error", v


# --- torchrun's OMP_NUM_THREADS banner ----------------------------------------------------------------------------
_BANNER = ("WARNING:torch.distributed.run:\n*****************************************\n"
           "Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system "
           "being overloaded, please further tune the variable for optimal performance in your application as "
           "needed. \n*****************************************\n")


def test_omp_banner_and_rank_start_warnings_are_none_with_the_banner_fix(tmp_path):
    """The banner and the trainer's per-rank start-up WARNINGs for ranks 3 and 5, nothing failing: none, nobody named,
    the fix says how to silence the banner."""
    text = _BANNER + "".join(f"05/02/2024 09:12:0{r} - WARNING - __main__ - Process rank: {r}, device: npu:{r}, "
                             "n_gpu: 1, distributed training: True, 16-bits training: True\n" for r in (3, 5))
    v, acc = verdict_accused(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert "set OMP_NUM_THREADS explicitly to silence torchrun's banner" in v["fix"], v["fix"]


def test_omp_banner_before_a_failure_keeps_the_failures_reading(tmp_path):
    """The near shape: the banner before a rank's CUDA OOM: the OOM's reading, the banner no part of it."""
    text = _BANNER + ("[rank1]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 1 has a "
                      "total capacity of 79.10 GiB of which 1.20 GiB is free.\n")
    v, _ = verdict_accused(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("gpu_oom", [1]), v
    assert "silence torchrun's banner" not in v["fix"], v["fix"]
