"""Which rank left or lagged, and NCCL set-up lines of older versions: shapes round 91 showed read by their shape.

- A rank's own tagged "process group has NOT been destroyed before we destruct ProcessGroupNCCL" warning printed
  before the launcher began stopping the workers (its first SIGTERM) and its record of ANOTHER worker's SIGABRT (-6):
  that rank left first while the others waited -- early_exit, culprit the warning's rank (rules BV (2), AU (1),
  BS (4); diffusers-10160); the -6 rank is not proven innocent (rules I, AF (3)). A record of an exit of its own (1)
  keeps rule A's reading (skyreels-a2-19), and so does a warning printed after the SIGTERMs (the teardown's exit).
- The job's own prints of a tensor it gathers, labelled by a gather with the shape alone ("gathered_logits shape:
  torch.Size([4, 906, 32020])"), one per process of the world (NumelOut/NumelIn), with different shapes, beside a
  rank's ALLGATHER timeout whose NumelIn one of them gives: the ranks entered one gather with different Numel --
  desync, nobody named where no single size stands against two or more that agree (rules BV (1), D, AH (1), AC (1);
  ms-swift-2117). Prints of one shape keep rule B's rank_missing.
- Untagged watchdog timeouts at two adjacent SeqNums of one op, one rank a step past the others, all having run the
  same time: one group's stuck collective with a rank one step past it -- rank_missing with no world size printed
  (rules B, E, AI (4); guidedcontrast-2). SeqNums far apart keep the different-groups reading (unknown).
- NCCL's P2P transport WARN cut inside its message ("transport/p2p.cc:238 NCCL WARN failed to ope") read by its source
  location as the CUDA IPC-handle WARN: cuda_error, the rank only a low lead (rules BG (3), AJ (1), V (2);
  ray-17909). A cut WARN of another file is not read so.
- NCCL 2.2's set-up chatter printing its own NCCL_SINGLE_RING_THRESHOLD (removed in 2.3): that NCCL still reads it, so
  no ENV003 config -- none (rule K; pytorch-7019). The same setting beside a newer NCCL keeps ENV003.
- Set-up chatter with no host named whose channels run over P2P/IPC: one node's ranks, so rule K's fix names the P2P
  checks (NCCL_P2P_DISABLE=1; nccl-417). Chatter with a NET channel keeps the network fix.
"""
from __future__ import annotations

from tests.conftest import verdict_accused as _verdict

_API = "torch/distributed/elastic/multiprocessing/api.py"


def _left_then_abort(warn_at: str, code: int) -> str:
    return (f"[rank0]:[W1209 {warn_at}.005698502 ProcessGroupNCCL.cpp:1250] Warning: WARNING: process group has NOT "
            "been destroyed before we destruct ProcessGroupNCCL. On normal program exit, the application should call "
            "destroy_process_group to ensure that any pending NCCL operations have finished in this process.\n"
            f"W1209 15:58:49.098000 2511 {_API}:897] Sending process 2642 closing signal SIGTERM\n"
            f"W1209 15:58:49.098000 2511 {_API}:897] Sending process 2643 closing signal SIGTERM\n"
            f"E1209 15:58:49.276000 2511 {_API}:869] failed (exitcode: {code}) local_rank: 3 (pid: 2644) of binary: "
            "/usr/bin/python3\n")


# --- a rank leaving first, another aborted a timeout later ----------------------------------------------------------
def test_pg_destructed_warning_minutes_before_anothers_abort_is_that_rank_leaving_first(tmp_path):
    v, acc = _verdict(tmp_path, _left_then_abort("15:48:50", -6))
    assert (v["cause"], v["culprits"]) == ("early_exit", [0]) and 3 not in acc, v
    assert "destroy_process_group" in v["fix"] and "NCCL timeout" in v["fix"], v


def test_pg_destructed_warning_beside_anothers_own_exit_keeps_the_record(tmp_path):
    v, _ = _verdict(tmp_path, _left_then_abort("15:58:49", 1))
    assert v["cause"] != "early_exit" or v["culprits"] != [0], v


def test_pg_destructed_warning_printed_in_the_launchers_teardown_names_nobody_leaving(tmp_path):
    lines = _left_then_abort("15:58:50", -6).splitlines(keepends=True)
    v, _ = _verdict(tmp_path, "".join(lines[1:] + lines[:1]))  # the warning after the SIGTERMs: torn down
    assert v["cause"] != "early_exit" or v["culprits"] != [0], v


# --- gathered shapes that differ beside a gather's timeout ----------------------------------------------------------
def _gather(lengths: list[int]) -> str:
    out = "".join(f"gathered_logits shape: torch.Size([4, {n}, 32020])\ngathered_pos shape: torch.Size([4])\n"
                  for n in lengths)
    return out + ("[E ProcessGroupNCCL.cpp:475] [Rank 2] Watchdog caught collective operation timeout: WorkNCCL("
                  f"SeqNum=4, OpType=ALLGATHER, NumelIn={lengths[1] * 32020}, NumelOut={4 * lengths[1] * 32020}, "
                  "Timeout(ms)=1800000) ran for 1800304 milliseconds before timing out.\n")


def test_gathered_shapes_that_differ_beside_the_gathers_timeout_are_a_desync(tmp_path):
    v, acc = _verdict(tmp_path, _gather([906, 966, 902, 902]))
    assert (v["cause"], v["culprits"]) == ("desync", []) and not acc, v
    assert "TORCH_DISTRIBUTED_DEBUG=DETAIL" in v["fix"] and "all_gather_object" in v["fix"], v


def test_gathered_shapes_all_alike_keep_the_missing_rank(tmp_path):
    v, _ = _verdict(tmp_path, _gather([902, 902, 902, 902]))
    assert v["cause"] == "rank_missing", v


# --- one rank a step past the others' stuck collective ----------------------------------------------------------------
def _ahead(seq2: int) -> str:
    lines = ""
    for r, seq, ran in ((0, 47362, 1805481), (2, seq2, 1805489), (3, 47362, 1805538), (1, 47362, 1805635)):
        lines += (f"[E ProcessGroupNCCL.cpp:719] [Rank {r}] Watchdog caught collective operation timeout: WorkNCCL("
                  f"SeqNum={seq}, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for {ran} milliseconds before timing "
                  "out.\n")
    return lines


def test_one_rank_a_step_past_the_others_untagged_is_a_rank_missing(tmp_path):
    v, acc = _verdict(tmp_path, _ahead(47363))
    assert (v["cause"], v["culprits"]) == ("rank_missing", []) and not acc, v


def test_untagged_seqnums_far_apart_keep_the_groups_unclear(tmp_path):
    v, acc = _verdict(tmp_path, _ahead(12))
    assert v["cause"] == "unknown" and not acc, v


# --- the P2P transport's IPC WARN cut inside its message -------------------------------------------------------------
_P2P = ("host1:2918546:2918546 [0] NCCL INFO Bootstrap : Using [0]enp70s0:18.18.63.63<0>\n"
        "host1:2918546:2958981 [0] NCCL INFO Channel 00 : 1[21000] -> 0[1000] via P2P/IPC\n")


def test_p2p_transport_warn_cut_is_the_cuda_ipc_failure(tmp_path):
    v, acc = _verdict(tmp_path, _P2P + "host1:2918546:2958981 [0] transport/p2p.cc:238 NCCL WARN failed to ope\n")
    assert (v["cause"], v["confidence"]) == ("cuda_error", "low") and not acc, v
    assert "NCCL_P2P_DISABLE=1" in v["fix"], v


def test_a_cut_warn_of_another_file_is_not_read_as_the_ipc_failure(tmp_path):
    v, _ = _verdict(tmp_path, _P2P + "host1:2918546:2958981 [0] misc/socket.cc:238 NCCL WARN failed to ope\n")
    assert v["cause"] != "cuda_error", v


# --- a setting an old NCCL still reads -------------------------------------------------------------------------------
def _old_chatter(version: str) -> str:
    return ("neuromancer:13802:13802 [1] INFO Using internal Network Socket\n"
            f"NCCL version {version}+cuda9.2\n"
            "neuromancer:13802:13802 [0] INFO comm 0xb25bf840 rank 0 nranks 2\n"
            "neuromancer:13802:13802 [1] INFO NCCL_SINGLE_RING_THRESHOLD=131072\n"
            "neuromancer:13802:13802 [0] INFO Ring 00 : 0[0] -> 1[1] via P2P/direct pointer\n"
            "neuromancer:13802:13802 [1] INFO Ring 00 : 1[1] -> 0[0] via P2P/direct pointer\n")


def test_a_setting_removed_after_the_shown_nccl_version_is_no_config(tmp_path):
    v, acc = _verdict(tmp_path, _old_chatter("2.2.13"))
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert "removed in NCCL" not in v["fix"], v


def test_a_setting_removed_before_the_shown_nccl_version_keeps_env003(tmp_path):
    v, _ = _verdict(tmp_path, _old_chatter("2.4.8"))
    assert v["cause"] == "config" and "removed in NCCL 2.3" in v["summary"], v


# --- set-up chatter over P2P with no host named -----------------------------------------------------------------------
def _chatter(via: str) -> str:
    return ("[0] NCCL INFO Bootstrap : Using [0]enp68s0f0:172.17.6.148<0>\n"
            "[0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]\n"
            "[0] NCCL INFO NET/Socket : Using [0]enp68s0f0:172.17.6.148<0>\n"
            "NCCL version 2.7.8+cuda10.2\n"
            "[0] NCCL INFO Channel 00/02 :    0   1\n"
            "[1] NCCL INFO Trees [0] -1/-1/-1->1->0|0->1->-1/-1/-1\n"
            f"[1] NCCL INFO Channel 00 : 1[21000] -> 0[1000] via {via}\n")


def test_p2p_chatter_with_no_host_named_gets_the_one_node_p2p_fix(tmp_path):
    v, acc = _verdict(tmp_path, _chatter("P2P/IPC"))
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert "NCCL_P2P_DISABLE=1" in v["fix"], v


def test_net_chatter_with_no_host_named_keeps_the_network_fix(tmp_path):
    v, _ = _verdict(tmp_path, _chatter("NET/Socket/0"))
    assert v["cause"] == "none" and "NCCL_P2P_DISABLE=1" not in v["fix"], v
