"""How diagnose reads failures shown by round 74, each before any rank talks to another:
c10d's own argument check refusing a non-contiguous tensor handed to a collective ("Tensors must be contiguous",
llamafactory-850: invalid_usage, no rank), and a torch build without the c10d backend the job asked for
("Distributed package doesn't have MPI built in", open-ce-376: config, no rank), and torchrun's own option written
after the script on the command line shown, the script printing argparse's usage with its "error:" line cut off
(time-moe-80: config, no rank); and a model's attribute read off its DDP wrapper (vector-quantize-pytorch-112:
unknown, the fix names .module). Each has a near shape that must not be read that way. Lines are torch's and
argparse's format strings; paths and numbers are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict

_GATHER = ('  File "/opt/env/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 2911, in '
           "all_gather\n"
           "    work = default_pg.allgather([tensor_list], [tensor])\n")


def test_a_collective_refusing_a_non_contiguous_tensor_is_invalid_usage_naming_no_rank(tmp_path):
    """c10d's "Tensors must be contiguous" under all_gather (a trainer's prediction loop gathering a transposed
    tensor): the caller's tensor, the same code on every rank -- invalid_usage, nobody accused, fix .contiguous()."""
    text = ("Traceback (most recent call last):\n"
            '  File "/srv/job/predict.py", line 41, in gather_logits\n'
            "    dist.all_gather(out, logits.t())\n" + _GATHER + "RuntimeError: Tensors must be contiguous\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not _accused(d), v
    assert ".contiguous()" in v["fix"], v["fix"]


def test_an_extensions_own_contiguity_check_is_not_read_as_a_refused_collective(tmp_path):
    """A kernel's own check in a library's extension ("RuntimeError: x must be contiguous", no collective): not
    c10d's words, so not the refused-collective verdict."""
    text = ("Traceback (most recent call last):\n"
            '  File "/srv/job/model.py", line 77, in forward\n'
            "    y = fused_ops.layer_norm(x, w)\n"
            "RuntimeError: x must be contiguous\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] != "invalid_usage" and "contiguous" not in v["fix"], v


_MPI = ("Traceback (most recent call last):\n"
        '  File "/srv/job/run.py", line 9, in <module>\n'
        "    dist.init_process_group(backend='mpi')\n"
        '  File "/opt/env/lib/python3.8/site-packages/torch/distributed/distributed_c10d.py", line 512, in '
        "_new_process_group_helper\n"
        "    \"Distributed package doesn't have MPI built in.\"\n"
        "RuntimeError: Distributed package doesn't have MPI built in. MPI is only included if you build PyTorch "
        "from source on a host that has MPI installed.\n")


def test_a_torch_build_without_the_mpi_backend_is_config_naming_no_rank(tmp_path):
    """init_process_group(backend='mpi') in a torch built without MPI: the install every process shares (lead rule
    Q's last sentence) -- config, nobody accused; the fix names the built-in backends and an MPI source build."""
    d = _report(tmp_path, _MPI)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "USE_MPI" in v["fix"] and "gloo" in v["fix"], v["fix"]


def test_the_nccl_built_in_check_keeps_its_own_fix(tmp_path):
    """The same check for NCCL (a CPU-only build) is not read as a missing MPI: its own fix, the CUDA build."""
    v = _verdict(tmp_path, _MPI.replace("MPI", "NCCL").replace("'mpi'", "'nccl'"))
    assert v["cause"] == "config" and "USE_MPI" not in v["fix"] and "CUDA" in v["fix"], v


_USAGE = ("usage: train_ts.py [-h] [--data_path DATA_PATH] [--model_path MODEL_PATH] [--output_path OUTPUT_PATH] "
          "[--seed SEED]\n"
          "                   [--num_train_epochs NUM_TRAIN_EPOCHS] [--warmup_ratio WARMUP_RATIO]\n")
_BANNER = ("W0311 08:01:12.120000 40411 site-packages/torch/distributed/run.py:793] "
           "*****************************************\n")


def test_a_torchrun_option_after_the_script_with_a_cut_usage_print_is_config(tmp_path):
    """torchrun ... train_ts.py ... --master_port 29611: torchrun hands everything after the script to it, and the
    script prints argparse's usage (its "error: unrecognized arguments" line cut from the paste): the command line
    every worker is given (lead rules U (2), W) -- config, nobody accused, the fix puts the option before the script."""
    cmd = ("$ torchrun --nnodes=1 --nproc_per_node=4 --master_port=29611 train_ts.py -d data.jsonl "
           "--num_train_epochs 3 --master_port 29611\n")
    d = _report(tmp_path, cmd + _BANNER + _USAGE)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "--master_port before the training script" in v["fix"], v["fix"]


def test_a_usage_print_is_not_read_as_a_misplaced_torchrun_option_where_none_is_after_the_script(tmp_path):
    """The same usage print where torchrun's options all stand before the script, or where the script's own usage
    lists the option it was given (it takes --master_port itself): no launcher option was handed to it wrongly."""
    cmd = "$ torchrun --nnodes=1 --nproc_per_node=4 --master_port=29611 train_ts.py -d data.jsonl --seed 3\n"
    v = _verdict(tmp_path, cmd + _BANNER + _USAGE, "before.log")
    assert "before the training script" not in v["fix"], v
    cmd = "$ torchrun --nproc_per_node=4 train_ts.py --seed 3 --master_port 29611\n"
    usage = _USAGE.replace("[--seed SEED]", "[--seed SEED] [--master_port MASTER_PORT]")
    v = _verdict(tmp_path, cmd + _BANNER + usage, "listed.log")
    assert "before the training script" not in v["fix"], v


def test_a_wrapped_models_missing_attribute_names_the_unwrapped_module(tmp_path):
    """Round 74 (vector-quantize-pytorch-112): "'DistributedDataParallel' object has no attribute 'x'" -- the code
    reads the model's own attribute off the DDP wrapper: still unknown and nobody named, the fix reads it through
    .module / unwrap_model. Another class's missing attribute (a user's own class) gets no such fix."""
    tb = ("Traceback (most recent call last):\n"
          '  File "/srv/job/fit.py", line 51, in <module>\n'
          "    trainer = Trainer(model)\n"
          '  File "/srv/job/trainer.py", line 88, in __init__\n'
          "    self.depth = self.model.depth\n")
    v = _verdict(tmp_path, tb + "AttributeError: 'DistributedDataParallel' object has no attribute 'depth'\n")
    assert (v["cause"], v["culprits"]) == ("unknown", []), v
    assert "model.module.depth" in v["fix"] and "unwrap_model" in v["fix"], v["fix"]
    v = _verdict(tmp_path, tb + "AttributeError: 'ResNetBackbone' object has no attribute 'depth'\n", "own.log")
    assert "unwrap_model" not in v["fix"], v
