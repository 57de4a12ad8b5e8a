"""Round 94 (session 37, fixer f4): two shapes whose lines name no failing rank, read by rules every such log gets.

- A net plugin's close warning at teardown (lead rules K, N, BJ (4), AD (3)): aws-ofi-nccl's "NET/OFI Attempt to call
  recv_close with outstanding requests!" with the proxy's "proxy.cc:N -> 3" trail and the communicators' "Abort
  COMPLETE" -- the communicator aborted at exit, its posted receives never drained -- and nothing else failing: none,
  culprits [], as the proxy service's own teardown WARNs (verdict.noise.proxy_teardown). Round 94's
  aws-k8s-tester-524 showed it (read network_setup before). Not read so: the same WARN with no communicator's abort
  shown (its old reading, a socket/bootstrap failure), or beside any error, exception or failure record.
- DDP's reducer error for unused parameters kept only by its last sentence ("... which particular parameters did not
  receive gradient on this rank as part of this error"), above torchrun's record of local_rank 0 exiting with code 1
  (lead rules AW, Q, BK (1)): the module every rank runs, so the record's rank is not the culprit -- unknown, culprits
  [], fix find_unused_parameters=True / TORCH_DISTRIBUTED_DEBUG=DETAIL (verdict.exits._reducer_recorded, which read
  only the reducer's exception line before). Round 94's styleavatar-16 showed it. Not read so: the agent's lines
  stopping the other workers (rule A reads the record's rank), or a record with no reducer text above it.
"""
from __future__ import annotations

from tests.conftest import verdict_accused as _verdict

_H = "[1,16]<stdout>:node-2:21:585 [0] "
_OFI_TEARDOWN = (
    "[1,17]<stdout>:node-2:22:587 [1] NCCL INFO [Service thread] Connection closed by localRank 1\n"
    f"{_H}recv_close:3201 NCCL WARN NET/OFI Attempt to call recv_close with outstanding requests!\n"
    f"{_H}NCCL INFO transport/net.cc:1015 -> 3\n"
    f"{_H}NCCL INFO proxy.cc:984 -> 3\n")
_ABORTS = (
    "[1,16]<stdout>:node-2:21:666 [0] NCCL INFO comm 0x5585418196c0 rank 16 nranks 32 cudaDev 0 busId 53000 - Abort "
    "COMPLETE\n"
    "[1,17]<stdout>:node-2:22:663 [0] NCCL INFO comm 0x5598352d45c0 rank 17 nranks 32 cudaDev 1 busId 64000 - Abort "
    "COMPLETE\n")


def test_ofi_recv_close_warning_beside_abort_complete_is_teardown_chatter(tmp_path):
    v, acc = _verdict(tmp_path, _OFI_TEARDOWN + _ABORTS)
    assert v["cause"] == "none" and v["culprits"] == [] and not acc, v
    assert "destroy_process_group before exit" in v["fix"] and "aws-ofi-nccl" in v["fix"], v


def test_ofi_recv_close_warning_without_an_abort_keeps_its_old_reading(tmp_path):
    v, _ = _verdict(tmp_path, _OFI_TEARDOWN)
    assert v["cause"] == "network_setup", v


def test_ofi_recv_close_beside_a_completion_error_is_no_teardown(tmp_path):
    err = f"{_H}NCCL WARN NET/OFI Request 0x7f00 completed with error. RC: 5. Error: 5 (Input/output error).\n"
    v, _ = _verdict(tmp_path, err + _OFI_TEARDOWN + _ABORTS)
    assert v["cause"] != "none", v


_PY = "/opt/conda/envs/py38/lib/python3.8"
_HINT = (" In addition, you can set the environment variable TORCH_DISTRIBUTED_DEBUG to either INFO or DETAIL to print "
         "out information about which particular parameters did not receive gradient on this rank as part of this "
         "error\n")
_RECORD = (f"ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 14910) of "
           f"binary: /opt/conda/envs/py38/bin/python\n"
           "Traceback (most recent call last):\n"
           f'  File "{_PY}/site-packages/torch/distributed/run.py", line 785, in run\n'
           "    elastic_launch(\n"
           f'  File "{_PY}/site-packages/torch/distributed/launcher/api.py", line 134, in __call__\n'
           "    return launch_agent(self._config, self._entrypo")


def test_reducer_hint_tail_above_the_record_names_no_culprit(tmp_path):
    v, acc = _verdict(tmp_path, _HINT + _RECORD)
    assert v["cause"] == "unknown" and v["culprits"] == [] and not acc, v
    assert "find_unused_parameters=True" in v["fix"] and "TORCH_DISTRIBUTED_DEBUG=DETAIL" in v["fix"], v


def test_the_record_alone_still_names_its_rank(tmp_path):
    v, acc = _verdict(tmp_path, _RECORD)
    assert v["culprits"] == [0], v


def test_reducer_hint_with_the_agent_stopping_the_others_keeps_the_records_rank(tmp_path):
    stop = ("WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 14911 closing signal SIGTERM\n")
    v, _ = _verdict(tmp_path, _HINT + stop + _RECORD)
    assert v["culprits"] == [0], v
