"""Launch arguments every worker shares, as round 106 showed them (session 43; rules U (2), W, Q, AE, V (1), BP (1)).

- argparse refusing one argument's value ("train.py: error: argument --rank: invalid int value: ''", an invalid
  choice, an option given no value), under its usage print and Azure ML's "User program failed with SystemExit: 2":
  the value is on the command line every worker is launched with (an empty '' is a variable the launch command
  substitutes that is unset on that compute) -- config, no rank, the fix saying the rank argument is empty
  (aml-kubernetes-15). argparse's other usage errors keep their reading and fix.
- torchrun's command line giving a --node_rank at or past its --nnodes ("--nnodes=1 --node_rank=3"): nodes are
  numbered 0 .. nnodes - 1, so no process is rank 0 and the rendezvous waits for ever -- config, no rank, even with
  nothing failing shown (var-108). A node rank inside the count, or an elastic range of nodes, keeps its old reading.
- torchrun's warning that master_addr is only used for the static rdzv_backend (BP (1)): its fix names the
  --rdzv_endpoint the c10d rendezvous reads and that master_addr is only read by static (accelerate-2816).
"""
from __future__ import annotations

import pytest

from tests.conftest import verdict_accused


# --- argparse refusing one argument's value ---------------------------------------------------------------------------
def _argparse(script: str, err: str, aml: bool = True) -> str:
    head = "UserError: User program failed with SystemExit: 2\n\n Script type = None\n" if aml else ""
    return (head + f"usage: {script} [-h] [--batch-size N] [--epochs N] [--lr LR]\n"
            "[--world-size WORLD_SIZE] [--dist-url DIST_URL]\n"
            "[--dist-backend DIST_BACKEND] [--rank RANK]\n\n"
            f"{script}: error: {err}\n")


@pytest.mark.parametrize("script,flag,aml", [
    ("pytorch_mnist.py", "--rank", True),
    ("train_dist.py", "--rank", False),
    ("main.py", "--world-size", True),
    ("imagenet.py", "--node_rank", False),
])
def test_an_empty_rank_argument_refused_by_argparse_is_config_and_no_rank(tmp_path, script, flag, aml):
    v, acc = verdict_accused(tmp_path, _argparse(script, f"argument {flag}: invalid int value: ''", aml))
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    name = flag.lstrip("-")
    assert f"fix the job spec so the {name} argument is not empty" in v["fix"].lower(), v
    assert "from the launcher's environment" in v["fix"], v


@pytest.mark.parametrize("err,said", [
    ("argument --batch-size: invalid int value: '64x'", "Pass a valid integer --batch-size"),
    ("argument --lr: invalid float value: 'abc'", "Pass a valid number --lr"),
    ("argument --dist-backend: invalid choice: 'ncl' (choose from 'nccl', 'gloo')", "Give --dist-backend a value"),
    ("argument --epochs: expected one argument", "Give --epochs a value"),
])
def test_another_value_refused_by_argparse_is_config_with_its_own_fix(tmp_path, err, said):
    v, acc = verdict_accused(tmp_path, _argparse("train.py", err, aml=False))
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert said in v["fix"] and "not empty" not in v["fix"], v


def test_argparse_unrecognized_arguments_keeps_its_old_fix(tmp_path):
    v, acc = verdict_accused(tmp_path, _argparse("train.py", "unrecognized arguments: --gpus 0,1", aml=False))
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "Check the launch arguments against the script's own options" in v["fix"], v
    assert "not empty" not in v["fix"], v


# --- torchrun's --node_rank at or past its --nnodes -------------------------------------------------------------------
@pytest.mark.parametrize("cmd", [
    "torchrun --nproc_per_node=4 --nnodes=1 --node_rank=3 --master_addr=192.168.1.1 --master_port=12345 train.py "
    "--depth=16 --bs=768",
    "torchrun --nproc_per_node 8 --nnodes 2 --node_rank 2 --master_addr 10.0.0.5 --master_port 29500 main.py",
    "python -m torch.distributed.run --nnodes=1 --node-rank=1 --nproc_per_node=2 --master_addr=10.1.2.3 run.py",
    "$ torchrun --nnodes=3 --node_rank=5 --nproc_per_node=8 pretrain.py --config cfg.yaml",
])
def test_a_node_rank_past_nnodes_is_config_and_no_rank(tmp_path, cmd):
    v, acc = verdict_accused(tmp_path, cmd + "\n")
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "node_rank must be less than nnodes" in v["fix"] and "use --node_rank=0 on a single node" in v["fix"], v


@pytest.mark.parametrize("cmd", [
    "torchrun --nproc_per_node=4 --nnodes=2 --node_rank=1 --master_addr=192.168.1.1 --master_port=12345 train.py",
    "torchrun --nproc_per_node=4 --nnodes=1:4 --node_rank=3 --master_addr=192.168.1.1 --master_port=12345 train.py",
    "torchrun --nproc_per_node=4 --nnodes=1 --node_rank=0 --master_addr=192.168.1.1 --master_port=12345 train.py",
])
def test_a_node_rank_inside_nnodes_or_an_elastic_range_keeps_its_old_reading(tmp_path, cmd):
    v, acc = verdict_accused(tmp_path, cmd + "\n")
    assert v["cause"] == "none" and not acc, v


# --- torchrun's master_addr-unused warning: the fix words -------------------------------------------------------------
@pytest.mark.parametrize("prefix", [
    "W0635 14:04:15.501000 139665687570304 torch/distributed/run.py:749] ",
    "W1102 03:11:52.118000 2231 site-packages/torch/distributed/run.py:793] ",
    "[2024-06-15 10:00:01,123] torch.distributed.run: [WARNING] ",
])
def test_the_master_addr_unused_warning_fix_names_rdzv_endpoint_and_static(tmp_path, prefix):
    v, acc = verdict_accused(tmp_path, prefix + "master_addr is only used for static rdzv_backend and when "
                             "rdzv_endpoint is not specified.\n")
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "set --rdzv_endpoint=<host>:<port> for the c10d rendezvous" in v["fix"], v
    assert "master_addr is only used for static rdzv_backend" in v["fix"], v


def test_torchruns_omp_threads_notice_alone_keeps_reading_none(tmp_path):
    v, acc = verdict_accused(tmp_path, "W1102 03:11:52.118000 2231 torch/distributed/run.py:793] Setting "
                             "OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your "
                             "system being overloaded, please further tune the variable for optimal performance in "
                             "your application as needed.\n")
    assert v["cause"] == "none" and not acc, v
