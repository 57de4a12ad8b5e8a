"""Calls refused for their arguments, bindings of another version and parallel layouts that do not fit, as round 88
showed them (rules AV, BA (3), BB (4), BK (1), BL (4), W, AE, BQ (3), AF (2) with round 41's sentence, BR (1), Q): one
process's traceback ends in a check every process makes alike, so no rank is named; what the check refused says the
cause and the fix.

- torch.distributed's new_group refusing a ranks list outside the world ("The new group's rank should be within the
  the world_size set by init_process_group") is torch refusing the caller's arguments: invalid_usage, no rank
  (colossalai-2910, a DeviceMesh hard-coding four ranks in a smaller world). Another error raised in new_group keeps
  its old reading.
- torch 1.6's wording of c10d's list-collective check ("All tensor operands to scatter/gather must have the same
  size") is the same check as the newer "... same number of elements": invalid_usage, no rank, the fix quoting it
  (efficientdet-pytorch-69, apex's SyncBatchNorm). Another op's size message is not read so.
- torch's argument parser refusing a collective's arguments by their types ("all_reduce received an invalid
  combination of arguments - got (tuple, ...)") is the caller's usage: invalid_usage, no rank, the fix naming a tensor
  for the tuple (heat-64). The same words for a tensor op ("zeros() received ...") are not read so.
- pytest's report of a failed test prints every captured line under "E" and its indentation: the prefix is taken off,
  so a backend refusing a collective ("ProcessGroupHCCL does not support gather") is read inside it as outside:
  invalid_usage, no rank, the fix naming the torch_npu version for Ascend's backend (transformers-pr27120). A pytest
  report cut inside its frames keeps its cut-traceback reading.
- pybind11 refusing a compiled function whose one listed signature takes nothing ("UbufP2PCommOverlap(): incompatible
  function arguments" then "1. () -> None") is the installed library's stub called by an application of another
  version: config, no rank, even beside one process's device (transformerengine-1365). A listing with parameters is
  not read so.
- A traceback ending in a library's own `assert` on the world or a parallel size ("assert model_parallel_size ==
  len(") with its message cut ("AssertionError: L") is that check of the layout (rule BQ (3)): config, no rank, the
  fix naming one process per checkpoint shard (codellama-95). An assert on anything else stays unread.
"""
from __future__ import annotations

from tests.conftest import verdict_accused as _verdict

_SP = "/opt/conda/lib/python3.9/site-packages"


# --- new_group's ranks outside the world ------------------------------------------------------------------------------
def _new_group(message: str) -> str:
    return ("Traceback (most recent call last):\n"
            '  File "train.py", line 28, in main\n'
            "    mesh = DeviceMesh(physical_mesh_id=torch.tensor([0, 1, 2, 3]), mesh_shape=[2, 2])\n"
            f'  File "{_SP}/colossalai/device/device_mesh.py", line 132, in create_process_groups\n'
            "    group = dist.new_group(ranks)\n"
            f'  File "{_SP}/torch/distributed/distributed_c10d.py", line 3321, in new_group\n'
            "    raise RuntimeError(\n"
            f"RuntimeError: {message}\n")


def test_new_group_ranks_outside_the_world_is_invalid_usage(tmp_path):
    v, acc = _verdict(tmp_path, _new_group(
        "The new group's rank should be within the the world_size set by init_process_group"))
    assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not acc, v
    assert "new_group ranks within world size" in v["fix"] and "nproc_per_node" in v["fix"], v


def test_another_error_raised_in_new_group_keeps_its_reading(tmp_path):
    v, acc = _verdict(tmp_path, _new_group("Something else went wrong while creating the group"))
    assert v["cause"] == "unknown" and not acc, v


# --- torch 1.6's "must have the same size" ----------------------------------------------------------------------------
def _gather(message: str) -> str:
    return (f'  File "{_SP}/apex/parallel/optimized_sync_batchnorm_kernel.py", line 36, in forward\n'
            "    torch.distributed.all_gather(mean_l, mean, process_group)\n"
            f'  File "{_SP}/torch/distributed/distributed_c10d.py", line 1185, in all_gather\n'
            "    work = _default_pg.allgather([tensor_list], [tensor])\n"
            f"RuntimeError: {message}\n")


def test_torch16s_operands_same_size_is_invalid_usage(tmp_path):
    v, acc = _verdict(tmp_path, _gather("All tensor operands to scatter/gather must have the same size"))
    assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not acc, v
    assert "All tensor operands to scatter/gather must have the same size" in v["fix"], v
    assert "SyncBatchNorm" in v["fix"], v


def test_another_ops_size_message_is_not_read_so(tmp_path):
    v, _acc = _verdict(tmp_path, _gather("Sizes of tensors must match except in dimension 1"))
    assert v["cause"] != "invalid_usage", v


# --- a collective's arguments refused by their types ------------------------------------------------------------------
def _arg_types(fn: str) -> str:
    return ("Traceback (most recent call last):\n"
            '  File "heat/core/operations.py", line 382, in __reduce_op\n'
            "    mpi.all_reduce(partial, op, x.comm.group)\n"
            f'  File "{_SP}/torch/distributed/__init__.py", line 324, in all_reduce\n'
            "    return torch._C._dist_all_reduce(tensor, op, group)\n"
            f"TypeError: {fn} received an invalid combination of arguments - got (tuple, object, object), but "
            "expected (tensor in_out, reduce_op op, group gr)\n")


def test_a_collectives_arguments_refused_by_type_is_invalid_usage(tmp_path):
    v, acc = _verdict(tmp_path, _arg_types("all_reduce"))
    assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not acc, v
    assert "not a tuple" in v["fix"] and "argument types" in v["fix"], v


def test_a_tensor_ops_arguments_refused_by_type_is_not_read_so(tmp_path):
    v, _acc = _verdict(tmp_path, _arg_types("zeros"))
    assert v["cause"] != "invalid_usage", v


# --- pytest's "E" prefix --------------------------------------------------------------------------------------------
def _pytest(tail: str) -> str:
    return ("E             File \"/data/transformers/src/transformers/trainer.py\", line 2291, in _save_checkpoint\n"
            "E               self.save_model(output_dir, _internal_call=True)\n"
            f"E             File \"{_SP}/torch/distributed/distributed_c10d.py\", line 3078, in gather\n"
            "E               work = default_pg.gather(output_tensors, input_tensors, opts)\n" + tail)


def test_a_backend_refusal_under_pytests_prefix_is_invalid_usage(tmp_path):
    v, acc = _verdict(tmp_path, _pytest("E           RuntimeError: ProcessGroupHCCL does not support gather\n"))
    assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not acc, v
    assert "torch_npu version" in v["fix"] and "all_gather" in v["fix"], v


def test_a_pytest_report_cut_inside_its_frames_keeps_its_reading(tmp_path):
    v, acc = _verdict(tmp_path, _pytest(
        "E             File \"/data/transformers/src/transformers/trainer.py\", line 2756, in save_model\n"))
    assert v["cause"] == "unknown" and not acc, v


# --- a binding that takes nothing -------------------------------------------------------------------------------------
def _stub(listing: str) -> str:
    return ("TypeError: UbufP2PCommOverlap(): incompatible function arguments. The following argument types are "
            "supported:\n"
            f"    1. {listing}\n"
            "\n"
            "Invoked with: tensor([[0., 0., 0.]], device='cuda:7', dtype=torch.bfloat16), 7, 2, 16, 2, 0, 0, 3\n")


def test_a_binding_that_takes_nothing_is_a_version_mismatch(tmp_path):
    v, acc = _verdict(tmp_path, _stub("() -> None"))
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "UbufP2PCommOverlap is deprecated" in v["fix"], v


def test_a_listing_with_parameters_is_not_read_so(tmp_path):
    v, _acc = _verdict(tmp_path, _stub("(sample: at::Tensor, rank: int, tp_size: int) -> None"))
    assert v["cause"] != "config", v


# --- an assert on the parallel size, its message cut ------------------------------------------------------------------
def _assert(code: str) -> str:
    return ("torchrun --nproc_per_node 1 example_completion.py --ckpt_dir CodeLlama-34b-Instruct/\n"
            "> initializing model parallel with size 1\n"
            "Traceback (most recent call last):\n"
            '  File "example_completion.py", line 20, in main\n'
            "    generator = Llama.build(\n"
            '  File "/home/u/codellama/llama/generation.py", line 86, in build\n'
            f"    {code}\n"
            "AssertionError: L\n")


def test_an_assert_on_the_model_parallel_size_cut_is_the_layout(tmp_path):
    v, acc = _verdict(tmp_path, _assert("assert model_parallel_size == len("))
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "one process / GPU per checkpoint shard" in v["fix"], v


def test_an_assert_on_something_else_stays_unread(tmp_path):
    v, acc = _verdict(tmp_path, _assert("assert tokens.dim() == 2"))
    assert v["cause"] == "unknown" and not acc, v
