"""Accelerator runtimes' own words round 81 showed unread or misread (rules BO (1), BO (2), H, AN (2), AL (2), A, Q,
W, BA (5)).

- An Ascend runtime wait that ran out -- torch_npu's "NPU function error: AclrtSynchronizeDeviceWithTimeout, error
  code is 507048", EE1002 "Stream synchronize timeout" (507046), CANN's STREAM_SYNC / EVENT_SYNC / FFTS_PLUS timeouts
  -- names no fault of the NPU, only work that did not finish (rule BO (1)): with HCCL's EI0002 notify wait of a
  collective shown it is that wait, rank_missing with culprits unknown (vllm-ascend-1443); alone it is unknown,
  nobody named, the plog / every rank's logs / HCCL_EXEC_TIMEOUT in the fix (ascend-pytorch-48). The AI Core's own
  timeout or exception (507014-507018) stays the device's cuda_error.
- HCCL's EI0006 "Get_Socket_Timeout ... The remote does not initiate a connect request" at an operator's first
  connection is rule H's first-collective wait (rule BO (2); vllm-ascend-5461): rank_missing, culprits unknown, the
  fix naming a late rank, HCCL_CONNECT_TIMEOUT and the link checks (hccn_tool, HCCL_IF_IP). EI0006 inside a
  collective ("Remote Rank did not send the data in time", vllm-ascend-486) keeps its reading, without those words.
- Habana HCL's check "Invalid server type (4[OCP1]) requested to generate controller" at device set-up is the host's
  platform unsupported by the installed Gaudi software (rules Q, W, BA (5); hccl-demo-44): config, no rank. A
  synapse error without that check is not read so.
- torch_xla's XRT "Aborted: Session ... is not found." is the TPU runtime's error of that process (rule AN (2)), and
  xmp.spawn's "Exception in device=TPU:0:" names process 0 (rule AL (2); xla-3122). The same device line with a mesh
  rendezvous error is not read so.
- spawn's "process N terminated with signal SIGSEGV" asks for process N's core dump / faulthandler, not torchrun's
  logs (rules A, AL (2); slowfast-118, lightning-2124). Spawn's "terminated with exit code 1" keeps its own fix.
"""
from __future__ import annotations

from tests.conftest import diagnose_verdict as _verdict

_EI0002 = ("[ERROR] 2025-06-25-10:45:23 (PID:13075, Device:0, RankID:8) ERR00100 PTA call acl api failed\n"
           "EI0002: [PID: 13075] 2025-06-25-10:45:23.586.187 The wait execution of the Notify register times out. "
           "Reason: The Notify register has not received the Notify record from remote rank: [unknown]. base "
           "information: [streamID:[1], taskID[831], tag[AllReduce_group_name_7], AlgType(level 0-1-2)]\n")
_SYNC_507048 = ("RuntimeError: npuSynchronizeDevice:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:479 NPU function "
                "error: AclrtSynchronizeDeviceWithTimeout, error code is 507048\n")


def test_an_npu_synchronize_timeout_beside_a_collectives_notify_wait_is_that_wait(tmp_path):
    v = _verdict(tmp_path, "    torch.npu.synchronize()\n" + _SYNC_507048 + _EI0002)
    assert (v["cause"], v["culprits"]) == ("rank_missing", []), v
    assert "HCCL_EXEC_TIMEOUT" in v["fix"], v


def test_a_stream_sync_timeout_alone_is_unknown_with_the_plog_in_the_fix(tmp_path):
    v = _verdict(tmp_path, "W NPUStream.cpp:409] Warning: NPU warning, error code is 507046[Error]: \n"
                 "[Error]: In the specified timeout waiting event, all tasks in the specified stream are not "
                 "completed.\nEE1002: 2024-09-03-16:50:00.041.231 Stream synchronize timeout. rtDeviceSynchronize "
                 "execute failed, reason=[stream sync timeout]\n"
                 "        wait for compute device to finish failed, runtime result = 507046.[FUNC:ReportCallError]"
                 "[FILE:log_inner.cpp][LINE:161]\n")
    assert (v["cause"], v["culprits"]) == ("unknown", []), v
    for word in ("ASCEND_GLOBAL_LOG_LEVEL=1", "ASCEND_GLOBAL_EVENT_ENABLE=1", "HCCL_EXEC_TIMEOUT",
                 "logs of every rank"):
        assert word in v["fix"], (word, v)


def test_an_aicore_timeout_stays_the_devices_error(tmp_path):
    v = _verdict(tmp_path, "[ERROR] 2025-12-12-12:10:10 (PID:285, Device:4, RankID:-1) ERR00100 PTA call acl api "
                 "failed\nRuntimeError: query:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:59 NPU function error: "
                 "acl::AclQueryEventRecordedStatus(event_, &currStatus), error code is 507014\n"
                 "[Error]: The aicore execution times out.\n")
    assert v["cause"] == "cuda_error", v


_EI0006_CONNECT = (
    "[PID: 749] 2025-12-29-03:16:15.787.356 Get_Socket_Timeout(EI0006): Getting socket times out. Reason: 1. The "
    "remote does not initiate a connect request. some NPUs in the cluster are abnormal.    2. The remote does not "
    "initiate a connect request because the collective communication operator is started too late.\n"
    "        TraceBack (most recent call last):\n"
    "        Nnopbase fails to invoke the HcclAllocComResourceByTiling function of the hccl module. ret = 4, comm = "
    "0xfffcc6ed27a0.\n")


def test_an_hccl_socket_timeout_at_the_first_connection_is_a_rank_not_arriving(tmp_path):
    v = _verdict(tmp_path, _EI0006_CONNECT)
    assert (v["cause"], v["culprits"]) == ("rank_missing", []), v
    for word in ("HCCL_CONNECT_TIMEOUT", "hccn_tool -i $devid -tls -g", "HCCL_IF_IP / HCCL_SOCKET_IFNAME"):
        assert word in v["fix"], (word, v)


def test_an_hccl_socket_timeout_inside_a_collective_keeps_its_reading(tmp_path):
    v = _verdict(tmp_path, "[rank1]: RuntimeError: InnerRunOpApi:torch_npu/csrc/framework/OpParamMaker.cpp:281 OPS "
                 "function error: HcclAllreduce, error code is 6\n[rank1]: EI0006: [PID: 1292363] "
                 "2025-04-08-18:07:20.444.436 Getting socket times out. Reason: Remote Rank did not send the data in "
                 "time. Please check the reason for the rank being stuck\n")
    assert (v["cause"], v["culprits"]) == ("rank_missing", []), v
    assert "connection's set-up" not in v["fix"], v


_HCL = ("/src/HCL/hcl/src/platform/gaudi_common/hcl_device_control_factory.cpp::71(initDevice): The condition "
        "[ false ] failed. Invalid server type (4[OCP1]) requested to generate controller.\n"
        "HCCL demo error: In function initDevice(): synDeviceAcquire(&resources.deviceHandle, nullptr) failed with "
        "synapse error: 20\n")


def test_hcl_refusing_the_server_type_is_config(tmp_path):
    v = _verdict(tmp_path, _HCL + "\n" + _HCL)
    assert (v["cause"], v["culprits"]) == ("config", []), v
    for word in ("use the Habana container for the platform", "hl-smi", "HABANA_VISIBLE_DEVICES"):
        assert word in v["fix"], (word, v)


def test_a_synapse_error_without_the_server_type_check_is_not_read_so(tmp_path):
    v = _verdict(tmp_path, "HCCL demo error: In function initDevice(): synDeviceAcquire(&resources.deviceHandle, "
                 "nullptr) failed with synapse error: 20\n")
    assert "server type" not in v["summary"], v


def test_an_xrt_session_lost_names_the_spawned_device_process(tmp_path):
    v = _verdict(tmp_path, "Process 0 is using TPU:0\nProcess 1 is using TPU:1\n"
                 "Exception in device=TPU:0: Aborted: Session 1a625b17752b2794 is not found.\n"
                 "Traceback (most recent call last):\n"
                 "  File \"/usr/local/lib/python3.7/dist-packages/torch_xla/distributed/xla_multiprocessing.py\", "
                 "line 323, in _start_fn\n    fn(gindex, *args)\n"
                 "RuntimeError: Aborted: Session 1a625b17752b2794 is not found.\n")
    assert (v["cause"], v["culprits"]) == ("cuda_error", [0]), v
    for word in ("restart the Colab runtime", "TPU host memory", "XRT session"):
        assert word in v["fix"], (word, v)


def test_a_mesh_rendezvous_error_on_the_device_line_is_not_read_so(tmp_path):
    v = _verdict(tmp_path, "Exception in device=TPU:6: tensorflow/compiler/xla/xla_client/mesh_service.cc:331 : "
                 "Failed to retrieve mesh configuration: Connection reset by peer (14)\n")
    assert v["cause"] != "cuda_error" and v["culprits"] == [], v


_SPAWN_JOIN = ("  File \"/env/lib/python3.6/site-packages/torch/multiprocessing/spawn.py\", line 171, in spawn\n"
               "    while not spawn_context.join():\n"
               "  File \"/env/lib/python3.6/site-packages/torch/multiprocessing/spawn.py\", line 107, in join\n"
               "    (error_index, name)\n")


def test_a_spawned_child_dead_of_sigsegv_asks_for_its_core_dump(tmp_path):
    v = _verdict(tmp_path, _SPAWN_JOIN + "Exception: process 3 terminated with signal SIGSEGV\n")
    assert (v["cause"], v["culprits"]) == ("unknown", [3]), v
    assert "core dump / faulthandler of process 3" in v["fix"] and "nprocs=1" in v["fix"], v


def test_a_spawned_childs_exit_code_keeps_its_own_fix(tmp_path):
    v = _verdict(tmp_path, _SPAWN_JOIN + "Exception: process 1 terminated with exit code 1\n")
    assert v["culprits"] == [1], v
    assert "core dump / faulthandler" not in v["fix"], v
