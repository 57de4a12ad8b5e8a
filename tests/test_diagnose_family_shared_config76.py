"""How diagnose reads code or settings every rank shares, shown through one process's error or a launch line (round
76, and round 77's rife-280, session 27): torch.distributed lacking its core API under a launcher's record of its one
worker. Each is config (or torch's own argument check: invalid_usage), no rank. Each test reads the shape from lines
other than the rounds' cases' own (other paths, programs, sizes), and a near shape that must NOT be read that way.
Paths, pids and programs are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict

# --- torch.distributed.launch's CalledProcessError after a build without distributed support ------------------------
_TB_DIST = ('Traceback (most recent call last):\n  File "fit.py", line 77, in <module>\n'
            '    torch.distributed.{attr}(backend="nccl")\n'
            "AttributeError: module 'torch.distributed' has no attribute '{attr}'\n")
_CALLED = ('Traceback (most recent call last):\n  File "D:\\\\py\\\\envs\\\\vfi\\\\lib\\\\runpy.py", line 194, in '
           '_run_module_as_main\n    return _run_code(code, main_globals, None,\n'
           '  File "D:\\\\py\\\\envs\\\\vfi\\\\lib\\\\site-packages\\\\torch\\\\distributed\\\\launch.py", line 256, '
           'in main\n    raise subprocess.CalledProcessError(returncode=process.returncode,\n'
           "subprocess.CalledProcessError: Command '['D:\\\\\\\\py\\\\\\\\envs\\\\\\\\vfi\\\\\\\\python.exe', '-u', "
           "'fit.py', '--local_rank=0', '--bs=4']' returned non-zero exit status 1.\n")


def test_a_build_without_distributed_under_the_launchers_record_names_nobody(tmp_path):
    """Lead rules Q's last sentence, AF (2) (round 77, rife-280): torch.distributed.launch's CalledProcessError names
    its one worker, whose traceback ends in torch.distributed lacking init_process_group -- the torch build every
    worker loads has no distributed support: config, no rank, though the launcher's record names local rank 0."""
    d = _report(tmp_path, "PS C:\\w> python -m torch.distributed.launch --nproc_per_node=1 fit.py --bs=4\n\n"
                + _TB_DIST.format(attr="init_process_group") + _CALLED)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "is_available" in v["fix"] and "gloo" in v["fix"], v


def test_a_newer_name_missing_under_the_launchers_record_stays_the_workers(tmp_path):
    """The near shape: the same launcher's record after a module lacking a name only some versions have (not
    torch.distributed's core API) stays rule A's reading of the worker the record names, no build claim."""
    v = _verdict(tmp_path, "PS C:\\w> python -m torch.distributed.launch --nproc_per_node=1 fit.py --bs=4\n\n"
                 + _TB_DIST.format(attr="get_node_local_rank") + _CALLED)
    assert "is_available" not in v["fix"], v


# --- a sharding framework's check that a parameter does not split evenly over the world -----------------------------
def _tagged(rank: int, lines: list[str]) -> str:
    return "".join(f"[rank{rank}]: {x}\n" for x in lines)


def test_a_parameter_not_divisible_by_the_world_size_is_the_shared_model_and_launch(tmp_path):
    """Lead rules W, BF (4) (round 76, lightning-thunder-248): one rank's traceback ends in the sharding framework's
    own check that a parameter's first dimension is not divisible by the world size -- the model and the process
    count every rank shares: config, no rank accused, the fix says pad it or change the number of processes."""
    text = ("torchrun --nproc-per-node=6 train_lm.py --strategy fsdp\n"
            + _tagged(3, ["Traceback (most recent call last):", '  File "/src/lib/shard.py", line 88, in check',
                          "    raise exception_type(s())",
                          "RuntimeError: Current sharding requires the first dimension of the parameter "
                          "'embed.tok.weight' (50257) to be divisible by the world size (6)"]))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "embed.tok.weight" in v["summary"] and "world size" in v["fix"] and "pad" in v["fix"], v


def test_a_size_not_divisible_by_a_block_is_the_ranks_own_call(tmp_path):
    """The near shape: a tensor's size not divisible by a kernel's block size names no world size -- one call's
    argument on that rank, not the launch: not the world-size reading (the generic settings words may still read it)."""
    text = _tagged(3, ["Traceback (most recent call last):", '  File "/src/lib/kern.py", line 12, in run',
                       "RuntimeError: the last dimension of the input (50257) must be divisible by the block size "
                       "(64)"])
    v = _verdict(tmp_path, text)
    assert "divisible by the world size" not in v["fix"] and "sharding framework" not in v["summary"], v


# --- torch's own argument check of init_device_mesh ---------------------------------------------------------------
_MESH_TB = ('Traceback (most recent call last):\n  File "/home/u/rlx/workers/base.py", line 41, in setup\n'
            "    mesh = init_device_mesh(\"cuda\", shape, mesh_dim_names=names)\n"
            '  File "/opt/conda/lib/python3.11/site-packages/torch/distributed/device_mesh.py", line 1002, in '
            "init_device_mesh\n    raise RuntimeError(\n")


def test_init_device_mesh_refusing_its_arguments_is_invalid_usage_of_nobody(tmp_path):
    """Lead rules AV, BA (3), BB (4) (round 76, rl2-pr9): torch's init_device_mesh refusing mesh_shape and
    mesh_dim_names of different lengths is torch's own argument check on a call every rank makes alike:
    invalid_usage, no rank, the fix names mesh_dim_names / mesh_shape."""
    text = _MESH_TB + ("RuntimeError: ('mesh_shape and mesh_dim_names should have same length!', "
                       "'Found len(mesh_dim_names): 3 and len(mesh_shape):2.')\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not _accused(d), v
    assert "mesh_dim_names" in v["fix"] and "mesh_shape" in v["fix"], v


def test_a_device_mesh_bigger_than_the_world_is_not_its_argument_check(tmp_path):
    """The near shape: DeviceMesh refusing a mesh larger than the processes launched is the launch's size, not the
    call's arguments disagreeing with each other: not read as init_device_mesh's argument check."""
    text = _MESH_TB + "RuntimeError: Mesh should not be bigger than default world size 1, but found 4 ranks!\n"
    v = _verdict(tmp_path, text)
    assert "init_device_mesh refused its arguments" not in v["summary"], v


# --- a framework's check of the type of the model handed to its wrapper -------------------------------------------
def test_a_wrapper_refusing_the_models_type_is_the_shared_wrapping_order(tmp_path):
    """Lead rules W, BF (4), AF (2) (round 76, lightning-thunder-pr2629): rank 1's traceback ends in a framework's
    own check that the model handed to its wrapper is not the type it expects -- the wrapping order in the script
    every rank runs: config, no rank accused, the fix names the expected type and the wrapping order."""
    text = _tagged(1, ["Traceback (most recent call last):", '  File "/w/demo/ddp_demo.py", line 30, in <module>',
                       "    net = acme.shard(net)", '  File "/w/acme/dist.py", line 210, in shard',
                       "    raise TypeError(",
                       "TypeError: Expected `model` to be of type `acme.nn.CompiledModule`, but got ResNet"])
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "acme.nn.CompiledModule" in v["fix"] and "order" in v["fix"] and "thunder" not in v["fix"], v


def test_an_input_of_the_wrong_type_is_not_the_wrapping_order(tmp_path):
    """The near shape: a check of an input's type (a tensor, a batch) is one call's data on that rank, not the model
    handed to a wrapper: not the wrapping-order reading."""
    text = _tagged(1, ["Traceback (most recent call last):", '  File "/w/demo/ddp_demo.py", line 44, in step',
                       "TypeError: Expected `input` to be of type `torch.Tensor`, but got list"])
    v = _verdict(tmp_path, text)
    assert "wrapper refused the model" not in v["summary"], v


# --- a launch line's model-parallel size that the world launched does not divide ----------------------------------
_SFT = ("+ torchrun --standalone --nnodes=1 --nproc_per_node={n} -m trainer.sft_main data.batch=64 \\\n"
        "    model.path=/models/small-lm {setting} trainer.logger=console\n")


def test_a_launch_whose_world_cannot_hold_its_sequence_parallel_size_is_config(tmp_path):
    """Lead rules V (1), AF (1), AE (round 76, table-r1-1): a bash trace's launch line starts 2 processes and gives
    the trainer a sequence parallel size of 4 (on the command's continuation line), the paste cut before any error:
    the device mesh it builds cannot be, config, no rank; the fix names --nproc_per_node and the setting."""
    d = _report(tmp_path, _SFT.format(n=2, setting="context_parallel_size=4"))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "--nproc_per_node" in v["fix"] and "context_parallel_size" in v["fix"], v


def test_a_launch_whose_world_divides_its_parallel_size_is_not_read_so(tmp_path):
    """The near shape: 8 processes with a sequence parallel size of 4 build their mesh: no launch setting to blame,
    nothing failing shown -- not this config reading."""
    v = _verdict(tmp_path, _SFT.format(n=8, setting="ulysses_sequence_parallel_size=4"))
    assert "device mesh" not in v["summary"] and v["cause"] != "config", v


# --- torch.compile failing on a DTensor graph on the one rank shown -----------------------------------------------
def _dynamo_tail(rank: int, args: str) -> str:
    return _tagged(rank, ['  File "/py/site-packages/torch/_dynamo/utils.py", line 2300, in run_node',
                          "    raise RuntimeError(make_error_message(e)).with_traceback(",
                          "torch._dynamo.exc.TorchRuntimeError: Dynamo failed to run FX node with fake tensors: "
                          f"call_function <built-in function matmul>(*({args}, ...)): got TypeError()", "",
                          "from user code:", '   File "/w/models/mlp.py", line 61, in forward'])


def test_compile_failing_on_a_dtensor_graph_on_one_rank_is_the_shared_stack(tmp_path):
    """Lead rules AW, BB (1), AF (2) (round 76, cache-dit-460): a tensor-parallel run under torch.compile shows one
    rank's traceback, Dynamo failing on an op whose arguments are DTensors: every rank compiles that same graph with
    the same torch -- config, no rank accused, the fix says disable compile / upgrade torch."""
    text = ("torchrun --nproc_per_node=2 serve_tp.py --tp 2 --compile\n\n"
            + _dynamo_tail(1, "DTensor(local_tensor=FakeTensor(..., device='cuda:1', size=(4, 512)), "
                              "device_mesh=DeviceMesh('cuda', [0, 1]), placements=(Shard(dim=1),))"))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "torch.compile" in v["fix"] and "upgrade torch" in v["fix"], v


def test_compile_failing_on_plain_tensors_stays_the_ranks_own(tmp_path):
    """The near shape: the same Dynamo failure on plain (fake) tensors, no DTensor: not the DTensor-stack reading --
    the one rank shown stays rule A's."""
    text = ("torchrun --nproc_per_node=2 serve_tp.py --compile\n\n"
            + _dynamo_tail(1, "FakeTensor(..., device='cuda:1', size=(4, 512))"))
    v = _verdict(tmp_path, text)
    assert "over DTensor" not in v["summary"], v
