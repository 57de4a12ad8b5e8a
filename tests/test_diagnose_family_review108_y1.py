"""Review 108 (reviewer a)'s findings on round 108's fixes, fixed in s46-y1 (session 45; rules I, K, N, AC (1), BO (2)).

- Finding 1: Horovod's stall warning followed by training steps or the run's end is no failure (rules K, N): none.
  The warning as the last line keeps reading as a missing rank nobody named.
"""
from __future__ import annotations

from tests.conftest import verdict_accused as _verdict


def _hvd_warn(secs: int, head: str) -> str:
    return (f"{head}One or more tensors were submitted to be reduced, gathered or broadcasted by subset of ranks and "
            f"are waiting for remainder of ranks for more than {secs} seconds. This may indicate that different ranks "
            "are trying to submit different tensors or that only subset of ranks is submitting tensors, which will "
            "cause deadlock.\n")


# --- finding 1: the warning, then training goes on --------------------------------------------------------------------
def test_horovod_stall_warning_then_training_goes_on_is_none(tmp_path):
    for head, after in (
            ("[0]<stderr>:[2023-03-01 10:00:00.000000: W /tmp/pip-install/horovod/common/stall_inspector.cc:105] ",
             "[0]<stdout>:Epoch 2/10 loss=0.31\n[0]<stdout>:Epoch 10/10 loss=0.12\n"
             "[0]<stdout>:Training finished. Saved model to /out/model.pt\n"),
            ("[2024-08-11 21:40:07.5521: W horovod/common/stall_inspector.cc:107] ",
             "[1]<stdout>:step=1200 loss: 2.041\n[1]<stdout>:step=1300 loss: 1.987\n"),
            ("[3]<stderr>:[2022-01-02 03:04:05.6: W horovod/common/stall_inspector.cc:105] ",
             "[3]<stdout>:Training completed in 4211 s\n")):
        v, acc = _verdict(tmp_path, _hvd_warn(75, head) + after)
        assert v["cause"] == "none" and not v["culprits"] and not acc, v
    # the same warning with nothing after it, or only lines that are no progress: still a missing rank nobody named
    for after in ("", "[0]<stdout>:waiting...\n"):
        v, acc = _verdict(tmp_path, "[0]<stdout>:Epoch 1/10 loss=0.40\n" + _hvd_warn(
            240, "[0]<stderr>:[2023-03-01 10:00:00.000000: W horovod/common/stall_inspector.cc:105] ") + after)
        assert (v["cause"], v["culprits"], v["confidence"]) == ("rank_missing", [], "low") and not acc, v


# --- finding 2: a bar's own "Rank N, ..." below torchrun's local rank ------------------------------------------------
def _wd(rank: int, seq: int) -> str:
    return (f"[default{rank}]:[rank{rank}]:[E ProcessGroupNCCL.cpp:563] [Rank {rank}] Watchdog caught collective "
            f"operation timeout: WorkNCCL(SeqNum={seq}, OpType=BROADCAST, NumelIn=1, NumelOut=1, Timeout(ms)=600000) "
            "ran for 600042 milliseconds before timing out.\n")


def _tok_bar(local: int, own: int, pct: int) -> str:
    return (f"[default{local}]:Rank {own}, running tokenizer on train_dataset (num_proc=8):  {pct}%|###       | "
            f"{pct * 1000}/100000 [03:10<07:22, 512.03 examples/s]\n")


def test_a_bar_naming_a_rank_below_its_local_rank_keeps_the_local_rank(tmp_path):
    for local, own, waiters in ((1, 0, (0,)), (3, 1, (0, 1, 2)), (2, 0, (0, 1))):
        text = _tok_bar(local, own, 45) + "".join(_wd(r, 3) for r in waiters)
        v, acc = _verdict(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("rank_missing", [local]) and acc == {local}, v
        assert f"rank {local}'s own lines show it still preparing data" in v["summary"], v
    # a bar's own rank at or above its local rank is still read as that rank (round 108's mindspeed shape)
    v, acc = _verdict(tmp_path, _tok_bar(1, 3, 30) + _wd(0, 1))
    assert (v["cause"], v["culprits"]) == ("rank_missing", [3]) and acc == {3}, v


# --- finding 3: a fabric manager ERROR about a multicast team that refused nothing -----------------------------------
def test_fabric_manager_multicast_error_is_a_refusal_only_with_its_failure_words(tmp_path):
    for line in ("[Oct 31 2023 21:11:21] [ERROR] [tid 527118] multicast team 3 released with status 0.",
                 "[Mar 11 2024 09:10:11] [ERROR] [tid 4410] multicast group 12 released with status 0"):
        v, acc = _verdict(tmp_path, "[Oct 31 2023 21:11:20] [INFO] [tid 527118] Received an inband message: "
                                    "multicast team setup request\n" + line + "\n")
        assert v["cause"] == "unknown" and not acc and "released with status 0" in v["summary"], v
        assert "restart nvidia-fabricmanager" not in v["fix"] and "NCCL_NVLS_ENABLE=0" not in v["fix"], v
    # the refusal itself -- a failure word, or a non-zero status -- is still the fabric's multicast refusal
    for line in ("[Jan 05 2024 10:00:00] [ERROR] [tid 9001] failed to find the GPU handle 2 in the multicast team "
                 "request setup 7.",
                 "[Jan 05 2024 10:00:00] [ERROR] [tid 9001] multicast group 4 setup completed with status 26."):
        v, acc = _verdict(tmp_path, line + "\n")
        assert (v["cause"], v["culprits"]) == ("cuda_error", []) and not acc, v
        assert "restart nvidia-fabricmanager" in v["fix"] and "NCCL_NVLS_ENABLE=0" in v["fix"], v


# --- finding 4: HCCL's P2P wait inside a node gets no inter-node network words ---------------------------------------
def test_hccl_p2p_timeout_fix_names_the_device_not_the_network_between_nodes(tmp_path):
    for rank, local, remote, secs in ((3, 3, 7, 600), (5, 1, 2, 1200)):
        text = (f"[rank{rank}]: RuntimeError: EI9999: Inner Error! connected p2p timeout, timeout:{secs} s.local "
                f"logicDevid:{local},remote physic id:{remote} The possible causes are as follows:1.the connection "
                "between this device and the target device is abnormal 2.an exception occurred at the target devices "
                "3.The time difference between the execution of hcom on this device and the target device exceeds "
                "the timeout threshold. make sure this time difference is within the timeout threshold"
                "[FUNC:WaitP2PConnected][FILE:p2p_mgmt.cc][LINE:225]\n")
        v, acc = _verdict(tmp_path, text)
        assert (v["cause"], v["culprits"], v["confidence"]) == ("rank_missing", [], "low") and not acc, v
        assert f"P2P connection to physical device {remote} of this node" in v["fix"], v
        assert "between the nodes" not in v["fix"] and "hccn_tool ping" not in v["fix"], v


# --- finding 5: the two names of a "must be divisible by" check are values, not launch settings ----------------------
def _raise(rank: int, line: str) -> str:
    return (f"[rank{rank}]: Traceback (most recent call last):\n[rank{rank}]:   File \"run.py\", line 42, in <module>\n"
            f"[rank{rank}]:     setup(args)\n[rank{rank}]: {line}\n")


def test_a_divisibility_checks_names_are_not_said_to_be_launch_settings(tmp_path):
    for rank, line, a, b in ((2, "ValueError: local_tokens must be divisible by world_size", "local_tokens",
                              "world_size"),
                             (5, "ValueError: num_valid_tokens must be divisible by dp_world_size", "num_valid_tokens",
                              "dp_world_size")):
        v, acc = _verdict(tmp_path, _raise(rank, line))
        assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
        assert f"make {a} divisible by {b}" in v["fix"] and "The check names the two values" in v["fix"], v
        assert "as every process is launched with them" not in v["fix"], v
    # the model's check of a value against a size the launch sets: config, no rank, and no 'its config's' size
    v, acc = _verdict(tmp_path, _raise(1, "AssertionError: global_batch_size should be divisible by "
                                          "micro_batch_size_times_data_parallel_size"))
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "multiple of micro_batch_size_times_data_parallel_size" in v["summary"], v
    assert "its config's" not in v["summary"], v


# --- finding 6: Xid 119/120's reset words ----------------------------------------------------------------------------
def test_xid_119_fix_puts_nvidia_smi_r_with_the_gpu_reset(tmp_path):
    for xid, gpu in ((119, 2), (120, 6)):
        text = (f"[Tue Apr  1 08:00:00 2025] NVRM: Xid (PCI:0000:4{gpu}:00): {xid}, pid=9120, name=python3, Timeout "
                f"after 6s of waiting for RPC response from GPU{gpu} GSP! Expected function 76 (GSP_RM_CONTROL)\n")
        v, acc = _verdict(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("cuda_error", []) and not acc, v
        assert "reset the GPU (nvidia-smi -r, with no process on it) or reboot the node" in v["fix"], v
        assert "reboot the node (nvidia-smi -r)" not in v["fix"], v
