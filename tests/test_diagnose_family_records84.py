"""Launcher records and NCCL trails round 84 showed read wrong (rules A, B, E, I, J, AM (2), O, AQ (1), BC (1), BG (2)).

- NCCL's bare INFO return-code trail "misc/socket.cc:N -> 3" (internal), with no WARN, no socket text (reset, closed,
  refused), no system error (-> 2) and no set-up file (bootstrap, init.cc, transport.cc) in it, beside a
  communicator's "Abort COMPLETE" and a watchdog's collective timeout, is the abort flag unwinding the proxy and
  bootstrap threads' sockets (printed by the host's other processes before this one's report), not a first failure:
  rules O and AQ (1) do not apply and rules B and E decide -- the shown rank inside the timed-out collective of a
  larger world is rank_missing, culprits unknown (uniworld-46; it was read as network_setup). A "-> 2" system error
  in the same trail is still the network's (near shape below).
- torchrun's record where the Root Cause rank (exit 1) and another rank (a SIGABRT, -6) failed in the same second,
  none shown torn down (SIGTERM) or still working: two ranks failing on their own, torchrun's "first" only the order
  it polled them in (rules J, AM (2); rule I: a SIGABRT is the watchdog's only where that rank's own lines show its
  timeout): nobody is accused (solo-222; the Root Cause rank was accused). Another rank only SIGTERM'd by the agent
  keeps rule A's lone first failure (near shape below).
- The fix of a record cut before its Root Cause entry (rules BC (1), BG (2)) names the failed worker's own traceback
  above the launcher's record (e2-tts-pytorch-33).
"""
from __future__ import annotations

from tests.conftest import accused, diagnose_text, failure_record, nccl_info

_WATCHDOG = (
    "[rank6]:[E624 04:14:29.224103812 ProcessGroupNCCL.cpp:684] [Rank 6] Some NCCL operations have failed or timed "
    "out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete "
    "data.\n"
    "[rank6]:[E624 04:14:29.225547137 ProcessGroupNCCL.cpp:1896] [PG ID 1 PG GUID 1 Rank 6] Process group watchdog "
    "thread terminated with exception: [Rank 6] Watchdog caught collective operation timeout\n")


def _abort_trail(code: int) -> str:
    return ("Steps:   0%|          | 1/5000 [12:44<104.11s/it, loss=0.36]\n"
            + nccl_info("gpu-b", 312247, 0, f"misc/socket.cc:829 -> {code}", tid=326969)
            + nccl_info("gpu-b", 312248, 1, "misc/socket.cc:881 -> 3", tid=319407)
            + nccl_info("gpu-b", 312250, 3, "misc/socket.cc:881 -> 3", tid=319409)
            + nccl_info("gpu-b", 312249, 2, "comm 0x12464df00 rank 6 nranks 8 cudaDev 2 busId b000 - Abort COMPLETE",
                        tid=326968)
            + _WATCHDOG)


def test_socket_internal_trail_beside_an_abort_is_the_abort_unwinding(tmp_path):
    d = diagnose_text(tmp_path, _abort_trail(3))
    v = d["verdict"]
    assert v["cause"] == "rank_missing", v
    assert v["culprits"] == [] and not accused(d)
    assert "other node logs" in v["fix"]


def test_socket_system_error_in_the_trail_stays_the_network(tmp_path):
    v = diagnose_text(tmp_path, _abort_trail(2))["verdict"]
    assert v["cause"] == "network_setup", v


def _record(other_exit: int) -> str:
    return ("Failures:\n" + failure_record(1, 1, 1, other_exit, 33728, time="2022-04-06_11:25:56")
            + "------------------------------------------------------------\n"
            "Root Cause (first observed failure):\n" + failure_record(0, 0, 0, 1, 33727, time="2022-04-06_11:25:56")
            + "============================================================\n")


def test_two_ranks_failing_alike_in_one_second_name_nobody(tmp_path):
    d = diagnose_text(tmp_path, _record(-6))
    assert d["verdict"]["cause"] == "unknown", d["verdict"]
    assert d["verdict"]["culprits"] == [] and not accused(d)


def test_a_root_cause_with_the_others_only_torn_down_is_still_named(tmp_path):
    d = diagnose_text(tmp_path, _record(-15))
    assert accused(d) == {0}, (d["verdict"], d["conclusions"])


def test_a_record_cut_before_its_root_cause_asks_for_the_worker_traceback(tmp_path):
    text = ('  File "/usr/lib/python3.8/site-packages/torch/distributed/launcher/api.py", line 264, in launch_agent\n'
            "    raise ChildFailedError(\n"
            "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
            "======================================================\n")
    v = diagnose_text(tmp_path, text)["verdict"]
    assert v["cause"] == "unknown" and v["culprits"] == []
    assert "the failed worker's own traceback" in v["fix"]
