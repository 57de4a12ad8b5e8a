"""Framework checks on the parallel layout and on a config file's field that round 83 showed read wrong (rules W, AE,
V (1), AU (2), BF (3)).

- A framework's own check that the parallel sizes a job is launched with cannot fit its world -- the sizes (tensor /
  pipeline / model / sequence / context parallel size or degree, parallel_world_size, cp_size, num_shard) against the
  GPUs it got or against a dimension they split -- is config, culprits [] (every process runs it on the same sizes and
  GPUs): "parallel_world_size 4 must be equal to dit_parallel_size 2" (xdit-492), "Visual sequence length (14310) must
  be divisible by cp_size (4)" (mochi-xdit-5), GPT-NeoX's calculate_derived "(global_num_gpus / pp_size) / mp_size
  [(4 / 4) / 2" cut before its "is not a whole number" (gpt-neox-757), a sharded launcher's NotEnoughCUDADevices
  (lorax-150), TGI's get_sharded "not compatible with sharding" (text-generation-inference-3005, whose settings-clash
  reading keeps its words and gains the layout fix). The fix says the sizes multiply to the GPU count (what
  CUDA_VISIBLE_DEVICES / NVIDIA_VISIBLE_DEVICES expose) and divide what they split.
- A framework's own check of its config file refusing a field ("You must have a training stage starting at 1 in the
  config's data_stages", nanotron-121) is config, culprits []; the fix names the config file and the framework's
  example config.
- Not read so: a relation with no parallel size beside it ("batch size must be divisible by 8") keeps the general
  settings reading; a config word alone adds nothing.
"""
from __future__ import annotations

from tests.conftest import diagnose_verdict as _verdict


def test_parallel_degrees_against_the_world_are_config_with_the_layout_fix(tmp_path):
    v = _verdict(tmp_path, "[rank1]: AssertionError: parallel_world_size 4 must be equal to dit_parallel_size 2\n"
                 "+ export CUDA_VISIBLE_DEVICES=0,1\n"
                 "+ PARALLEL_ARGS='--ulysses_degree 2'\n")
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "CUDA_VISIBLE_DEVICES" in v["fix"] and "sequence parallel degree" in v["fix"], v


def test_gpu_count_divided_by_parallel_sizes_in_an_error_is_config(tmp_path):
    v = _verdict(tmp_path, "INFO:root:NeoXArgs.calculate_derived() Total number of GPUs determined to be: 4\n"
                 "ERROR:root:NeoXArgs.calculate_derived() (global_num_gpus / pp_size) / mp_size [(4 / 4) / 2\n")
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "data parallel size" in v["fix"], v


def test_sharded_launch_with_too_few_devices_is_config(tmp_path):
    v = _verdict(tmp_path, "2023-12-24T07:02:10.759386Z  INFO lorax_launcher: Parsing num_shard from "
                 "CUDA_VISIBLE_DEVICES/NVIDIA_VISIBLE_DEVICES\n"
                 'Error: NotEnoughCUDADevices("`sharded` is true but only found 1 CUDA devices")\n')
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "num_shard" in v["fix"], v


def test_a_config_files_field_check_is_config_with_the_config_file_fix(tmp_path):
    v = _verdict(tmp_path, "Traceback (most recent call last):\n"
                 '  File "/root/nanotron/src/nanotron/config/config.py", line 336, in __post_init__\n'
                 "    assert all(\n"
                 "AssertionError: You must have a training stage starting at 1 in the config's data_stages\n")
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "config file" in v["fix"] and "example config" in v["fix"], v


def test_a_divisibility_check_with_no_parallel_size_keeps_the_general_reading(tmp_path):
    v = _verdict(tmp_path, "Traceback (most recent call last):\n"
                 '  File "/app/train.py", line 12, in <module>\n'
                 "    assert bs % 8 == 0\n"
                 "AssertionError: batch size must be divisible by 8\n")
    assert v["cause"] == "config", v
    assert "parallel layout" not in v["fix"] and "example config" not in v["fix"], v


def test_a_weight_dimension_the_shard_count_does_not_divide_gets_the_layout_fix(tmp_path):
    v = _verdict(tmp_path, "[rank1]: Traceback (most recent call last):\n"
                 '[rank1]:   File "/usr/src/server/text_generation_server/utils/weights.py", line 275, in '
                 "get_sharded\n"
                 "[rank1]:     size % world_size == 0\n"
                 "[rank1]: AssertionError: The choosen size 2560 is not compatible with sharding on 2 shards\n")
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "tensor parallel size must divide the weight shape" in v["fix"], v
