"""Review 106's findings 3, 4, 5, 6 and the settings half of 7 (session 43): the reviewer's inputs, varied, and the
shapes the original fixes were for, still read as those fixes meant.

- 3: torchrun under a c10d rendezvous (either spelling), an --rdzv_endpoint or --standalone takes its ranks from the
  rendezvous and ignores --node_rank: a --node_rank past --nnodes there is no config reading (d2.log). A static
  command (--master_addr) keeps it (round 106's var-108).
- 4: argparse refusing one value under one rank's prefix, no other rank refusing it, is that rank's command line (a
  per-rank or per-node variable): config, no rank, medium, the words naming that rank instead of "every worker"
  (a1.log). Untagged, or every rank refusing alike, stays every worker's, high.
- 5: the EFA / aws-ofi-nccl / security-group words beside nccl-tests' generic failure only where the lines name
  aws-ofi-nccl, NET/OFI, EFA or libfabric; the generic nccl-tests words for all (nccl-1597 stays fully right).
- 6: torchrun's master_addr-unused fix is one sentence that names --rdzv_endpoint once for c10d.
- 7: readers.settings._node_past and _machine_past share one helper.
"""
from __future__ import annotations

import pytest

from ncclDoctor.diagnose.readers import settings
from tests.conftest import corpus_case_verdict, verdict_accused

_WATCHDOG0 = ("[rank0]: [E ProcessGroupNCCL.cpp:1316] [Rank 0] Watchdog caught collective operation timeout: "
              "WorkNCCL(SeqNum=5, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600010 "
              "milliseconds before timing out.\n")


# --- finding 3 --------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("cmd", [
    "torchrun --nnodes=1 --node_rank=1 --nproc_per_node=2 --rdzv_backend=c10d --rdzv_endpoint=10.0.0.1:29500 train.py",
    "torchrun --nnodes 2 --node_rank 3 --nproc_per_node 8 --rdzv-backend c10d --rdzv-id job1 main.py",
    "torchrun --nnodes=1 --node_rank=2 --nproc_per_node=4 --rdzv_endpoint=head:29400 train.py",
    "python -m torch.distributed.run --standalone --nnodes=1 --node-rank=1 --nproc_per_node=2 run.py",
])
def test_a_node_rank_past_nnodes_under_a_rendezvous_that_assigns_ranks_is_no_config(tmp_path, cmd):
    v, acc = verdict_accused(tmp_path, cmd + "\n")
    assert v["cause"] == "none" and not acc, v
    assert settings._node_past(cmd) is None


@pytest.mark.parametrize("cmd", [
    "torchrun --nproc_per_node=4 --nnodes=1 --node_rank=3 --master_addr=192.168.1.1 --master_port=12345 train.py",
    "torchrun --nnodes=2 --node_rank=2 --nproc_per_node=8 --rdzv_backend=static --master_addr=10.0.0.5 main.py",
])
def test_a_static_node_rank_past_nnodes_stays_config(tmp_path, cmd):
    v, acc = verdict_accused(tmp_path, cmd + "\n")
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "node_rank must be less than nnodes" in v["fix"], v


# --- finding 4 --------------------------------------------------------------------------------------------------------
def _refused(tag: str, err: str) -> str:
    return (f"{tag}usage: train.py [-h] [--lr LR] [--rank RANK]\n"
            f"{tag}train.py: error: {err}\n")


_RECORD = ("E0101 00:00:00.000 torch/distributed/elastic/multiprocessing/api.py:833] failed (exitcode: 2) "
           "local_rank: {r} (pid: 123) of binary: /usr/bin/python\n")


@pytest.mark.parametrize("rank,err,timeout", [
    (1, "argument --lr: invalid float value: 'abc'", True),
    (3, "argument --rank: invalid int value: ''", True),
    (2, "argument --lr: invalid float value: '1e-x'", False),
])
def test_one_ranks_refused_value_is_that_ranks_command_line_at_medium(tmp_path, rank, err, timeout):
    text = _refused(f"[rank{rank}]: ", err) + (_WATCHDOG0 if timeout else "") + _RECORD.format(r=rank)
    v, acc = verdict_accused(tmp_path, text)
    assert (v["cause"], v["culprits"], v["confidence"]) == ("config", [], "medium") and not acc, v
    assert f"rank {rank}'s command line" in v["summary"] and "every worker" not in v["summary"], v
    assert f"rank {rank}'s command line" in v["fix"] and "once for every worker" not in v["fix"], v


@pytest.mark.parametrize("text", [
    _refused("", "argument --lr: invalid float value: 'abc'"),
    _refused("[rank0]: ", "argument --lr: invalid float value: 'abc'")
    + _refused("[rank1]: ", "argument --lr: invalid float value: 'abc'"),
    _refused("", "argument --rank: invalid int value: ''"),
])
def test_an_untagged_or_every_ranks_refused_value_stays_every_workers(tmp_path, text):
    v, acc = verdict_accused(tmp_path, text)
    assert (v["cause"], v["culprits"], v["confidence"]) == ("config", [], "high") and not acc, v
    assert "every worker" in v["summary"], v


# --- finding 5 --------------------------------------------------------------------------------------------------------
def _mpirun_record(proc: int, code: int) -> str:
    return ("--------------------------------------------------------------------------\n"
            "mpirun detected that one or more processes exited with non-zero status, thus causing\n"
            "the job to be terminated. The first process to do so was:\n\n"
            f"  Process name: [[41877,1],{proc}]\n"
            f"  Exit code:    {code}\n"
            "--------------------------------------------------------------------------\n")


@pytest.mark.parametrize("teardown", [
    "",
    "ib-node-03:21409:21433 [2] NCCL INFO proxy.cc:1005 -> 3\n",
    "ib-node-03:21409:21433 [2] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:10.1.0.3<0>\n",
])
def test_nccl_tests_failure_without_the_efa_path_gets_no_efa_words(tmp_path, teardown):
    text = " .. ib-node-03 pid 21409: Test failure common.cu:893\n\n" + teardown + _mpirun_record(2, 3)
    v, acc = verdict_accused(tmp_path, text)
    assert (v["cause"], acc) == ("unknown", {2}), v
    assert "read the first 'Test NCCL failure' / NCCL WARN line before the teardown" in v["fix"], v
    assert "rebuild nccl-tests against the NCCL in use" in v["fix"], v
    for word in ("security group", "aws-ofi-nccl", "fi_info", "FI_PROVIDER"):
        assert word not in v["fix"], (word, v["fix"])


@pytest.mark.parametrize("net", [
    "p5-node-07:21409:21433 [2] nccl_net_ofi_closeSend:816 NCCL WARN NET/OFI Invalid communicator object provided\n",
    "p5-node-07:21409:21433 [2] nccl_net_ofi_closeRecv:902 NCCL WARN NET/OFI Invalid communicator object provided\n"
    "p5-node-07:21409:21433 [2] NCCL INFO proxy.cc:1021 -> 3\n",
    "p5-node-07:21409:21409 [2] NCCL INFO NET/Plugin: Loaded net plugin AWS Libfabric\n",
])
def test_nccl_tests_failure_on_the_efa_path_keeps_the_efa_words(tmp_path, net):
    text = " .. p5-node-07 pid 21409: Test failure common.cu:893\n\n" + net + _mpirun_record(2, 3)
    v, acc = verdict_accused(tmp_path, text)
    assert (v["cause"], acc) == ("unknown", {2}), v
    assert "match NCCL and aws-ofi-nccl (net plugin) versions" in v["fix"], v
    assert "EFA security group must allow all traffic between the instances" in v["fix"], v


def test_nccl_1597_stays_fully_right(tmp_path):
    v, acc = corpus_case_verdict(tmp_path, "nccl-1597-efa-h200-nccl-tests-rank0-exit3-ofi-closesend")
    assert (v["cause"], acc) == ("unknown", {0}), v
    for word in ("rerun with NCCL_DEBUG=INFO and read the first 'Test NCCL failure' / NCCL WARN line before the "
                 "teardown", "match NCCL and aws-ofi-nccl (net plugin) versions",
                 "FI_PROVIDER=efa / fi_info -p efa to check the EFA provider",
                 "rebuild nccl-tests against the NCCL in use",
                 "EFA security group must allow all traffic between the instances"):
        assert word.lower() in v["fix"].lower(), (word, v["fix"])


# --- finding 6 --------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("prefix", [
    "W0635 14:04:15.501000 139665687570304 torch/distributed/run.py:749] ",
    "[2024-06-15 10:00:01,123] torch.distributed.run: [WARNING] ",
])
def test_the_master_addr_unused_fix_is_one_sentence_naming_rdzv_endpoint_once(tmp_path, prefix):
    v, acc = verdict_accused(tmp_path, prefix + "master_addr is only used for static rdzv_backend and when "
                             "rdzv_endpoint is not specified.\n")
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    head = v["fix"].split(". Check the rendezvous host")[0]
    assert "set --rdzv_endpoint=<host>:<port> for the c10d rendezvous" in head, v
    assert "master_addr is only used for static rdzv_backend" in head, v
    assert head.count("rdzv_endpoint") == 1 and "." not in head.replace("<host>:<port>", ""), head


# --- finding 7 --------------------------------------------------------------------------------------------------------
def test_node_and_machine_past_share_one_helper():
    assert settings._index_past("--machine-rank 2 --num-machines 2", settings.S.R_MACHINE_RANK,
                                settings.S.R_NUM_MACHINES) == (2, 2)
    assert settings._machine_past("--machine-rank 2 --num-machines 2") == (2, 2)
    assert settings._machine_past("--machine-rank 1 --num-machines 2") is None
    assert settings._node_past("torchrun --nnodes=1 --node_rank=3 train.py") == [3, 1]
    assert settings._node_past("torchrun --nnodes=2 --node_rank=1 train.py") is None
