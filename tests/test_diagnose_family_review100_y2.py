"""Review 100 findings 4 and 6 (rounds 100-101's fixes, reviewed in session 40).

- Finding 4: a launcher record's worker command with '--num_nodes' makes the job multi-node only where the value is a
  plausible machine count (at most 512) or a node-rank / master-address argument sits beside it: '--num_nodes' is as
  often a model's own argument, a graph's node count in PyG / DGL / GCN scripts ('--num_nodes', '2708' for Cora), and
  then the record's local rank 0 stays named as on a command without it. --nnodes / --num_machines above 1 and
  ncluster's --num_tasks beside /ncluster/ still name nobody (round 101's pytorch-20728) -- but the first node's own
  command (--node_rank 0) keeps local rank 0 named: there it is global rank 0 (the second review's finding 4).
- Finding 6: a driver too old for the build under one rank's tag still names nobody (rule AT (1), AG: the driver is
  the host's and the build every rank runs), also where other ranks only print progress ("step 100 loss"), but the
  summary names that rank's host as the lead for a cluster whose nodes' drivers differ.
"""
from __future__ import annotations

import pytest

from tests.conftest import verdict_accused


# --- finding 4: a graph's --num_nodes is no machine count -------------------------------------------------------------
def _cpe(args: str, local: int = 0, script: str = "train_gcn.py") -> str:
    return ("subprocess.CalledProcessError: Command '['/usr/bin/python', '-u', "
            f"'{script}', '--local_rank={local}', {args}]' returned non-zero exit status 1.\n")


@pytest.mark.parametrize("args", [
    "'--dataset', 'cora', '--num_nodes', '2708', '--hidden', '16'",  # the reviewer's gcn.log
    "'--dataset', 'citeseer', '--num_nodes', '3327'",
    "'--num_nodes=19717', '--dataset', 'pubmed'",
    "'--num-nodes', '1000', '--num_edges', '5000'",
    "'--num_nodes', '99999'",
])
def test_a_graphs_node_count_keeps_local_rank_0(tmp_path, args):
    v, acc = verdict_accused(tmp_path, _cpe(args))
    assert (v["cause"], v["culprits"]) == ("unknown", [0]) and acc == {0}, v


@pytest.mark.parametrize("args", [
    "'--num_nodes', '2'",
    "'--num_nodes=4', '--gpus', '8'",  # Lightning's Trainer argument
    "'--num-nodes', '64'",
    "'--num_nodes', '1024', '--node_rank', '3'",  # beside a node rank: machines, however many
    "'--num_nodes=2048', '--master_addr=10.0.0.1'",
    "'--nnodes=4', '--epochs', '3'",
    "'--nnodes', '2708'",  # torchrun's own word: no bound
    "'--num_machines', '1000'",
    "'--num_tasks=2', '--logdir', '/ncluster/runs/unnamedrun-0-ogf2l.06'",
])
def test_a_machine_count_still_names_nobody(tmp_path, args):
    v, acc = verdict_accused(tmp_path, _cpe(args, script="bench.py"))
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "--node_rank / --nnodes" in v["fix"], v


# --- the second review's finding 4: the first node's own command (--node_rank 0) keeps its local rank named -----------
# torch 1.x's launcher prints the last worker it started (lead rule U (5)): local rank 0 is the only one, and on node 0
# it is global rank 0; another node's (--node_rank 1, 10) or none named keep the multi-node limit
@pytest.mark.parametrize("args", [
    "'--num_nodes', '2', '--node_rank', '0'",  # the reviewer's cmd5.log
    "'--nnodes=4', '--node_rank=0'",
    "'--node-rank', '0', '--master_addr', '10.0.0.1', '--num_nodes', '2'",
    "'--num_tasks=2', '--node_rank=0', '--logdir', '/ncluster/runs/run-0'",
])
def test_the_first_nodes_command_keeps_its_local_rank_named(tmp_path, args):
    v, acc = verdict_accused(tmp_path, _cpe(args, script="bench.py"))
    assert (v["cause"], v["culprits"]) == ("unknown", [0]) and acc == {0}, v


@pytest.mark.parametrize("args", [
    "'--num_nodes', '2', '--node_rank', '1'",
    "'--nnodes=16', '--node_rank=10'",
    "'--nnodes=2'",  # no node named: the multi-node limit (the reviewer's cmd6.log, fine as it is)
])
def test_another_nodes_command_still_names_nobody(tmp_path, args):
    v, acc = verdict_accused(tmp_path, _cpe(args, script="bench.py"))
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v


# --- finding 6: a driver too old for the build under one rank's tag -----------------------------------------------
def _steps(ranks: list[int]) -> str:
    return "".join(f"[rank{r}]:[I1205 10:00:01] step 100 loss 2.3{r}\n" for r in ranks)


def _torch_tb(rank: int, msg: str) -> str:
    return "".join(f"[rank{rank}]: {x}\n" for x in (
        "Traceback (most recent call last):", '  File "train.py", line 40, in <module>',
        "    torch.cuda.set_device(local_rank)", f"RuntimeError: CUDA error: {msg}"))


_INSUFFICIENT = "CUDA driver version is insufficient for CUDA runtime version"


@pytest.mark.parametrize("text,rank", [
    (_steps([0, 1]) + _torch_tb(3, _INSUFFICIENT), 3),  # the reviewer's drv.log
    (_steps([0]) + _torch_tb(1, _INSUFFICIENT), 1),
    (_torch_tb(2, _INSUFFICIENT), 2),
    ("[1,3]<stderr>:node7:1234:1290 [3] enqueue.cc:802 NCCL WARN Cuda failure 'API call is not supported in the "
     "installed CUDA driver'\n[1,3]<stderr>:node7:1234:1290 [3] NCCL INFO enqueue.cc:820 -> 1\n", 3),
])
def test_a_tagged_old_driver_names_nobody_and_leads_to_the_ranks_host(tmp_path, text, rank):
    v, acc = verdict_accused(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("cuda_error", []) and not acc, v
    assert f"the host of rank {rank} is the lead" in v["summary"], v
    assert "upgrade the NVIDIA driver" in v["fix"], v


def test_an_untagged_old_driver_names_no_host(tmp_path):
    v, acc = verdict_accused(tmp_path, "RuntimeError: CUDA error: " + _INSUFFICIENT + "\n")
    assert (v["cause"], v["culprits"]) == ("cuda_error", []) and not acc, v
    assert "the host of" not in v["summary"], v
