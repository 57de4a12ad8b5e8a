"""How diagnose reads a parallel layout the job's world cannot hold, in the two shapes round 95 showed it missing.

- A framework's own check of its parallel sizes, raised under srun -l's task label padded to the width of the job's
  last task number (" 0: ValueError: ..." beside "10: ..."; round 95's bionemo-recipes-814, 16 tasks, Megatron-core's
  TransformerConfig: "num_attention_heads (15) must be a multiple of tensor_model_parallel_size (2)."), the paste
  starting inside rank 0's frames and ending inside another task's traceback. The padded label is srun's label, read
  as the unpadded one is (generic.exception_line), and Megatron's "tensor_model_parallel_size" /
  "pipeline_model_parallel_size" are parallel sizes (generic.R_PARALLEL_UNFIT): config, nobody named (lead rules W,
  AE, BU (1); srun's task labels are not failure records, rule AZ (3)). The fix names tensor_model_parallel_size.
- DeepSpeed's runner started on a script with a model-parallel size ("deepspeed --hostfile hostfile finetune.py
  --model-parallel-size 4") whose own command line then shows the world it launched, --world_info base64 of
  {host: [GPU ids]} (round 95's cogvlm-89: {"localhost": [0]}, the hostfile not found), the paste ending before any
  error: a model-parallel group larger than (or not dividing) that world cannot be set up -- config, nobody named
  (lead rules V (1), AA (1), AE, BP (1)). The runner's line carries the script's arguments too, read the same.
Near shapes NOT read so: a size check naming no parallel size under the same padded label is the settings check it
is, not the layout (its fix names no parallel size); a model-parallel size the launched world divides (2 on 4 GPUs)
is no fault, and the lines stay nobody's failure.
Hosts, paths and numbers are made up.
"""
from __future__ import annotations

import base64
import json

from tests.conftest import verdict_accused as _verdict

_FRAMES = (
    '{t}:   File "/usr/lib/python3/dist-packages/nemo/lightning/_strategy_lib.py", line 171, in set_attributes\n'
    "{t}:     config.__post_init__()\n"
    '{t}:   File "/usr/lib/python3/dist-packages/megatron/core/transformer/transformer_config.py", line 464, in '
    "__post_init__\n"
    "{t}:     raise ValueError(\n")


def test_a_megatron_parallel_size_check_under_a_padded_srun_label_is_config(tmp_path):
    text = (_FRAMES.format(t=" 3") + " 3: ValueError: num_attention_heads (14) must be a multiple of "
            "tensor_model_parallel_size (4).\n"
            "12: Traceback (most recent call last):\n"
            '12:   File "/usr/local/bin/train_gpt", line 8, in <module>\n')
    v, acc = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "tensor_model_parallel_size" in v["fix"], v


def test_a_size_check_with_no_parallel_size_under_a_padded_label_is_not_the_layout(tmp_path):
    """The near shape: the same padded label on a check of a batch size (no parallel size named) is read as the
    settings check it is, not as the parallel layout: its fix does not name the parallel sizes."""
    text = (_FRAMES.format(t=" 3") + " 3: ValueError: global batch size (10) must be a multiple of micro batch size "
            "(4).\n")
    v, acc = _verdict(tmp_path, text)
    assert not acc and "parallel layout" not in v["summary"] and "tensor_model_parallel_size" not in v["fix"], v


def _runner(hosts: dict, args: str = "") -> str:
    b64 = base64.urlsafe_b64encode(json.dumps(hosts).encode()).decode()
    return ("[2024-03-02 10:11:12,345] [WARNING] [runner.py:203:fetch_hostfile] Unable to find hostfile, will "
            "proceed with training with local resources only.\n"
            "[2024-03-02 10:11:12,351] [INFO] [runner.py:570:main] cmd = /usr/bin/python3 -u -m "
            f"deepspeed.launcher.launch --world_info={b64} --master_addr=127.0.0.1 --master_port=29500{args}\n")


def test_a_deepspeed_model_parallel_size_larger_than_the_world_info_is_config(tmp_path):
    text = ("deepspeed --master_port 29500 --hostfile hostfile train_sat.py --model-parallel-size 2 "
            "--train-iters 100\n" + _runner({"node7": [0]}))
    v, acc = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "world size divisible by" in v["fix"] and "model-parallel-size" in v["fix"], v
    # the runner's own line carrying the script's arguments: the same reading
    v, acc = _verdict(tmp_path, _runner({"localhost": [0, 1, 2, 3, 4, 5]},
                                        " train.py --tensor-model-parallel-size 4 --bf16"))
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v


def test_a_deepspeed_model_parallel_size_the_world_divides_is_no_fault(tmp_path):
    text = ("deepspeed --master_port 29500 --hostfile hostfile train_sat.py --model-parallel-size 2 "
            "--train-iters 100\n" + _runner({"localhost": [0, 1, 2, 3]}))
    v, _ = _verdict(tmp_path, text)
    assert v["cause"] != "config", v
