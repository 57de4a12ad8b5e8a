"""NCCL's and the collective runtimes' own lines round 87 showed read by what they mean, not by the words around them
(rules AK (2), BO (1), BO (3), AH (2), BR (2), K, T, AU (3)).

- NCCL's tuner finding "no algorithm/protocol available" for a call returns ncclInvalidUsage, naming the setting,
  where NCCL_ALGO / NCCL_PROTO is set, and ncclInternalError where neither is. Shown returning ncclInternalError
  (torch's error with that Last error, or the WARN's enqueue.cc "-> 3" trail) with no NCCL_ALGO / NCCL_PROTO setting
  shown, the table every rank of the communicator shares has no entry for the call: nccl_internal, nobody named
  (rules AK (2), BO (3); nccl-1709's int8 AllGather, tensorrt-llm-953's bare WARN). The bare WARN with no code shown
  (round 13's nccl-653), or a setting shown beside it, keeps the setting's config; "NCCL_ALGO was set to X" stays the
  forced setting's config.
- The SHARP library's own log lines in their time-stamped form ("[host:0:174 - tree_ops.c:314][2024-05-31
  02:30:21] ERROR Failed to lock SAT tree") beside the plugin's "SHARP group create: Streaming Tree lock failed" WARN,
  with nothing failing after, are CollNet given up: none (rules AH (2), BR (2); coreweave-nccl-tests-39). With an
  NCCL error after them they are not read away.
- Set-up chatter whose bootstrap interface is an alias label ("Bootstrap : Using eno1:avahi:<addr>") is still none
  (rules K, T), and its fix names NCCL_SOCKET_IFNAME=<the NIC> (nccl-tests-162); a plain interface gets no such words.
- Ascend's "EE9999: rtStreamSynchronizeWithTimeout execution failed, reason=task timeout" is the runtime's wait that
  ran out (rule BO (1)): unknown, nobody named, the fix naming HCCL_EXEC_TIMEOUT and ASCEND_LAUNCH_BLOCKING=1
  (vllm-ascend-15500); an operator's error alone gets no such reading.
"""
from __future__ import annotations

from tests.conftest import nccl_info
from tests.conftest import verdict_accused as _verdict

# --- no algorithm/protocol available ----------------------------------------------------------------------------------
_TORCH_INTERNAL = ("[rank12]: torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/"
                   "ProcessGroupNCCL.cpp:3353, internal error - please report this issue to the NCCL developers, NCCL "
                   "version 2.26.2\n"
                   "[rank12]: ncclInternalError: Internal check failed.\n"
                   "[rank12]: Last error:\n"
                   "[rank12]: Error : no algorithm/protocol available for function ReduceScatter with datatype "
                   "ncclFloat8e4m3.\n")


def _warn_trail(code: int) -> str:
    return ("node7:9120:9120 [2] enqueue.cc:1182 NCCL WARN Error : no algorithm/protocol available\n"
            + nccl_info("node7", 9120, 2, f"enqueue.cc:1283 -> {code}")
            + nccl_info("node7", 9120, 2, f"group.cc:130 -> {code}")
            + nccl_info("node7", 9120, 2, f"enqueue.cc:1594 -> {code}"))


def test_no_algorithm_returned_as_an_internal_error_with_no_setting_is_nccl_internal(tmp_path):
    v, acc = _verdict(tmp_path, _TORCH_INTERNAL)
    assert (v["cause"], v["culprits"]) == ("nccl_internal", []) and not acc, v
    assert "NCCL_DEBUG_SUBSYS=TUNING" in v["fix"] and "upgrade NCCL" in v["fix"], v
    v, acc = _verdict(tmp_path, _warn_trail(3))
    assert (v["cause"], v["culprits"]) == ("nccl_internal", []) and not acc, v
    assert "NCCL_NVLS_ENABLE=0" in v["fix"], v


def test_no_algorithm_with_no_code_or_a_setting_shown_keeps_the_settings_reading(tmp_path):
    bare = "node7:9120:9120 [2] enqueue.cc:422 NCCL WARN Error : no algorithm/protocol available\n"
    v, _ = _verdict(tmp_path, bare)
    assert v["cause"] == "config", v
    algo = nccl_info("node7", 9120, 2, "NCCL_ALGO set by environment to CollNet")
    v, _ = _verdict(tmp_path, algo + _warn_trail(3))
    assert v["cause"] == "config", v
    v, _ = _verdict(tmp_path, _TORCH_INTERNAL.replace("ncclFloat8e4m3.", "ncclFloat8e4m3. NCCL_ALGO was set to NVLS.")
                    .replace("ncclInternalError: Internal check failed.", "ncclInvalidUsage: This usually reflects "
                             "invalid usage of NCCL library."))
    assert (v["cause"], v["culprits"]) == ("config", []), v


# --- the SHARP library's time-stamped lines ---------------------------------------------------------------------------
_SHARP = (nccl_info("gpu-a", 311, 6, "CollNet 06/0 : 6 [receive] via COLLNET/SHARP/6/GDRDMA")
          + nccl_info("gpu-a", 308, 3, "SHARP rank 0/8 initialized on mlx5_2:1")
          + "[gpu-a:0:308 - tree_ops.c:314][2025-01-09 11:04:52] ERROR Failed to lock SAT tree(ID:0x11. ret:0x4)\n"
          + "[gpu-a:0:308 - comm.c:379][2025-01-09 11:04:52] ERROR Failed to lock SAT tree(ID:0x11 ret:0xffffffee)\n"
          + "gpu-a:308:330 [3] sharp_plugin.c:354 NCCL WARN SHARP group create: Streaming Tree lock failed (-18)\n"
          + nccl_info("gpu-a", 308, 3, "transport.cc:327 -> 2", tid=330))


def test_the_sharp_librarys_time_stamped_lines_at_set_up_with_nothing_after_are_collnet_given_up(tmp_path):
    v, acc = _verdict(tmp_path, _SHARP)
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert "SHARP_COLL_ENABLE_SAT=0" in v["fix"], v


def test_the_same_lines_with_an_nccl_error_after_them_are_not_read_away(tmp_path):
    err = ("[rank3]: torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/"
           "ProcessGroupNCCL.cpp:3356, remote process exited or there was a network error, NCCL version 2.21.5\n"
           "[rank3]: ncclRemoteError: A call failed possibly due to a network error or a remote process exiting.\n")
    v, _ = _verdict(tmp_path, _SHARP + err)
    assert v["cause"] != "none", v


# --- an alias interface in NCCL's set-up chatter ----------------------------------------------------------------------
def _setup(iface: str) -> str:
    return (nccl_info("srv1", 4412, 0, f"Bootstrap : Using {iface}<0>")
            + nccl_info("srv1", 4412, 0, "NET/Plugin : Plugin load (libnccl-net.so) returned 2 : libnccl-net.so: "
                        "cannot open shared object file: No such file or directory"))


def test_set_up_chatter_on_an_alias_interface_is_none_and_its_fix_pins_the_nic(tmp_path):
    v, acc = _verdict(tmp_path, _setup("enp3s0:avahi:169.254.7.12"))
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert "NCCL_SOCKET_IFNAME=enp3s0" in v["fix"] and "alias" in v["fix"], v


def test_set_up_chatter_on_a_plain_interface_says_no_alias(tmp_path):
    v, _ = _verdict(tmp_path, _setup("enp3s0:10.4.0.21"))
    assert v["cause"] == "none" and "alias interface" not in v["fix"], v


# --- Ascend's timed synchronize giving up -----------------------------------------------------------------------------
_OP = "RuntimeError: ... current working operator name is aclnnMoeDistributeDispatch.\n"


def test_ascends_timed_synchronize_giving_up_is_the_wait_that_ran_out(tmp_path):
    v, acc = _verdict(tmp_path, _OP + "EE9999: rtStreamSynchronizeWithTimeout execution failed, reason=task timeout\n")
    assert v["cause"] == "unknown" and not acc, v
    assert "HCCL_EXEC_TIMEOUT" in v["fix"] and "ASCEND_LAUNCH_BLOCKING=1" in v["fix"], v


def test_an_operators_error_alone_gets_no_wait_reading(tmp_path):
    v, acc = _verdict(tmp_path, _OP)
    assert v["cause"] == "unknown" and not acc and "HCCL_EXEC_TIMEOUT" not in v["fix"], v
