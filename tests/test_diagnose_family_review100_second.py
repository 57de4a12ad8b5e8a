"""The second review of session 39's fixes (readings that name a rank), finding 4: a torch 1.x launcher record whose
worker command names several machines names no global rank (lead rule A's multi-node limit) -- but where the same
command says it is the first node's (--node_rank 0), its local rank is the global one, and rank 0 stays named, as on a
command with no machine count. Another node's (--node_rank 1, 10) still names nobody.
"""
from __future__ import annotations

import pytest

from tests.conftest import verdict_accused


def _cpe(args: str, local: int) -> str:
    return ("subprocess.CalledProcessError: Command '['/usr/bin/python', '-u', "
            f"'bench.py', '--local_rank={local}', {args}]' returned non-zero exit status 1.\n")


@pytest.mark.parametrize("args", [
    "'--num_nodes', '2', '--node_rank', '0'",  # the reviewer's cmd5.log
    "'--nnodes=4', '--node_rank=0'",
    "'--node-rank', '0', '--master_addr', '10.0.0.1', '--num_nodes', '2'",
    "'--num_tasks=2', '--node_rank=0', '--logdir', '/ncluster/runs/run-0'",
])
def test_the_first_nodes_command_keeps_its_local_rank_named(tmp_path, args):
    # torch 1.x's launcher prints the last worker it started (lead rule U (5)): local rank 0 is the only one, and on
    # node 0 it is global rank 0
    v, acc = verdict_accused(tmp_path, _cpe(args, 0))
    assert (v["cause"], v["culprits"]) == ("unknown", [0]) and acc == {0}, v


@pytest.mark.parametrize("args", [
    "'--num_nodes', '2', '--node_rank', '1'",
    "'--nnodes=16', '--node_rank=10'",
    "'--nnodes=2'",  # no node named: the multi-node limit (the reviewer's cmd6.log, fine as it is)
])
def test_another_nodes_command_still_names_nobody(tmp_path, args):
    v, acc = verdict_accused(tmp_path, _cpe(args, 0))
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
