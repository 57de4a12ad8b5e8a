"""A framework's own check of the parallel layout, and settings every rank shares, read as config (session 44, round
107): vLLM's parallel-state check ("world_size (8) is not equal to tensor_model_parallel_size (4) x
pipeline_model_parallel_size (1)"), a framework's world-size check spelled with a capital ("World size 2 must be
divisible by the product of all parallel degrees"), torchtitan's refusal of a mesh dimension left at 1 ("Mesh 'tp' is
not available"), Megatron's dist_checkpointing validation ("Invalid access pattern for ShardedTensor"),
torch.distributed's own function refusing a keyword ("barrier() got an unexpected keyword argument 'timeout'"), NCCL's
tuner refusing a call under a forced NCCL_ALGO with its line bare, and the fix words of Megatron's world-size check and
of a default process group missing under initialize_model_parallel. Each is config with nobody named; each near shape
that means something else keeps its old reading. Ranks, sizes, names and paths are made up."""

from __future__ import annotations

from tests.conftest import verdict_accused

_CLOSING = ("W0401 15:55:28.193000 115609 site-packages/torch/distributed/elastic/multiprocessing/api.py:897] "
            "Sending process {pid} closing signal SIGTERM\n")


def _config_nobody(tmp_path, text: str) -> dict:
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "config" and not acc and v["culprits"] in ([], "unknown"), (text[:200], v)
    return v


def test_vllm_world_size_not_equal_to_tp_x_pp_is_config_with_nobody(tmp_path):
    """vLLM's own parallel-state check under torchrun, rank-tagged (a colocated rollout engine) or bare (each worker
    building its own LLM): the launch width against the parallel sizes every process shares -- config, nobody, and
    the fix says the world must equal tensor x pipeline parallel size (or one process / the external launcher)."""
    for rank, world, tp, pp, tagged in ((1, 8, 4, 1, True), (5, 16, 2, 2, True), (None, 8, 1, 1, False),
                                        (None, 4, 8, 1, False)):
        msg = (f"RuntimeError: world_size ({world}) is not equal to tensor_model_parallel_size ({tp}) x "
               f"pipeline_model_parallel_size ({pp})")
        text = (f"[rank{rank}]:     raise RuntimeError(\n[rank{rank}]: {msg}\n" + _CLOSING.format(pid=4242)
                if tagged else f"torchrun --nproc-per-node={world} run.py --data X\n\n{msg}.\n")
        v = _config_nobody(tmp_path, text)
        assert "world_size must equal tensor_parallel_size x pipeline_parallel_size" in v["fix"], v["fix"]
        assert "--nproc-per-node=1" in v["fix"] and "external_launcher" in v["fix"]


def test_a_world_size_unequal_to_a_count_that_is_no_parallel_size_keeps_its_reading(tmp_path):
    """The near shape: a world size said unequal to something that is no parallel size (the number of nodes) is not
    the parallel-state check -- it keeps the unread reading, and a rank's own such traceback still names the rank."""
    v, acc = verdict_accused(tmp_path, "RuntimeError: world_size (4) is not equal to the number of nodes (2)\n")
    assert v["cause"] == "unknown" and not acc, v
    v, acc = verdict_accused(tmp_path, "[rank3]: RuntimeError: world_size (16) is not equal to the hosts (3)\n")
    assert v["cause"] == "unknown" and "tensor_parallel_size" not in v["fix"], v


def test_a_capitalised_world_size_check_reads_as_the_parallel_layout(tmp_path):
    """finetrainers' own check, under its logger's header, with other world sizes: the parallel layout against the
    world -- config, nobody, with the parallel-layout fix (nproc_per_node matching the layout)."""
    for world in (2, 6, 12):
        text = ("2025-05-22 03:33:36 - [DEBUG] - Metadata for transformer registered\n"
                f"2025-05-22 03:33:36 - [ERROR] - An error occurred during training: World size {world} must be "
                "divisible by the product of all parallel degrees and data parallel shards.\n")
        v = _config_nobody(tmp_path, text)
        assert "nproc_per_node matching the parallel layout" in v["fix"], v["fix"]


def test_a_batch_size_not_divisible_keeps_the_settings_reading(tmp_path):
    """The near shape: a batch size (no parallel size, no world size) that a number does not divide stays the plain
    settings check, without the parallel-layout fix."""
    for text in ("ValueError: Batch size 10 must be divisible by 4\n",
                 "AssertionError: Global batch size 30 must be divisible by micro batch size 4\n"):
        v = _config_nobody(tmp_path, text)
        assert "parallel layout" not in v["fix"], v["fix"]


def test_megatron_world_size_not_divisible_names_the_world_size_fix(tmp_path):
    """Megatron's initialize_model_parallel check on other ranks and sizes: config, nobody, and the fix says the
    world size must be divisible by tensor x pipeline x context parallel size."""
    for rank, world, total in ((0, 1, 2), (3, 6, 4), (0, 2, 8)):
        text = (f"[rank{rank}]:   File \"/opt/megatron-lm/megatron/core/parallel_state.py\", line 532, in "
                "initialize_model_parallel\n"
                f"[rank{rank}]:     raise RuntimeError(f\"world_size ({{world_size}}) is not divisible by "
                "{total_model_size}\")\n"
                f"[rank{rank}]: RuntimeError: world_size ({world}) is not divisible by {total}\n")
        v = _config_nobody(tmp_path, text)
        assert "world size divisible by tensor x pipeline x context parallel size" in v["fix"], v["fix"]


def test_torchtitan_mesh_not_available_is_config_with_nobody(tmp_path):
    """torchtitan's ParallelDims.get_mesh refusing a mesh dimension of degree 1, for other dimensions, with its frames
    or the message alone: the degrees every rank is launched with -- config, nobody, the degree named in the fix."""
    frames = ("    File \"/home/u/torchtitan/torchtitan/models/llama4/infra/parallelize.py\", line 138, in "
              "parallelize_llama\n      tp_mesh = parallel_dims.get_mesh(\"{dim}\")\n"
              "    File \"/home/u/torchtitan/torchtitan/distributed/parallel_dims.py\", line 273, in get_mesh\n"
              "      raise ValueError(\n")
    for dim, with_frames in (("tp", True), ("cp", False), ("ep", True)):
        msg = (f"  ValueError: Mesh '{dim}' is not available. Ensure the corresponding parallelism dimension is "
               "enabled (size > 1).\n")
        v = _config_nobody(tmp_path, (frames.format(dim=dim) if with_frames else "") + msg)
        assert "tensor_parallel_degree" in v["fix"] and "parallel_dims.get_mesh" in v["fix"], v["fix"]


def test_a_mesh_key_error_keeps_its_reading(tmp_path):
    """The near shape: a mesh looked up by a name it never had (a KeyError) is no refusal of a disabled dimension."""
    v, acc = verdict_accused(tmp_path, "KeyError: 'tp'\n")
    assert v["cause"] == "unknown" and not acc and "tensor_parallel_degree" not in v["fix"], v


def test_megatron_invalid_access_pattern_is_config_with_nobody(tmp_path):
    """Megatron's dist_checkpointing validation refusing the shards declared for a tensor, for other keys and
    shapes: metadata every rank builds from the same model code -- config, nobody, the sharding named in the fix."""
    for key, shape, head in (("decoder.layers.channel_mixing.mixer.dt_bias", "(2, 128)",
                              "[ERROR    | megatron.core.dist_checkpointing.validation]: "),
                             ("decoder.layers.3.mlp.linear_fc1.weight", "(4, 1024, 512)",
                              "ERROR:megatron.core.dist_checkpointing.validation:")):
        text = ("  from torch.distributed._sharded_tensor import ShardedTensor as TorchShardedTensor\n"
                f"{head}Invalid access pattern for "
                f"ShardedTensor(key='{key}', dtype=torch.bfloat16, local_shape=(128,), global_shape={shape}, "
                "global_offset=(0, 0), axis_fragmentations=(2, 1), replica_id=(0, 0, 0)): tensor([[1],\n")
        v = _config_nobody(tmp_path, text)
        assert "check replica_id and global_offset of each ShardedTensor across ranks" in v["fix"], v["fix"]


def test_an_invalid_access_pattern_of_no_sharded_tensor_keeps_its_reading(tmp_path):
    """The near shape: an 'invalid access pattern' of something else (a memory region) is no checkpoint's sharding."""
    v, acc = verdict_accused(tmp_path, "[ERROR] Invalid access pattern in memory region 0x7f00\n")
    assert v["cause"] == "unknown" and not acc and "ShardedTensor" not in v["fix"], v


def test_torch_distributed_refusing_a_keyword_is_config_with_nobody(tmp_path):
    """torch.distributed's own function refusing a keyword the code passes, bare or rank-tagged, other functions
    and keywords: the code written for another torch, the same install on every rank -- config, nobody."""
    for line in ("TypeError: barrier() got an unexpected keyword argument 'timeout'",
                 "[rank2]: TypeError: all_reduce() got an unexpected keyword argument 'timeout'",
                 "TypeError: all_gather_into_tensor() got an unexpected keyword argument 'group_desc'"):
        v = _config_nobody(tmp_path, line + "\n")
        assert "match the library version the code was written for" in v["fix"], v["fix"]


def test_another_librarys_function_refusing_a_keyword_keeps_its_reading(tmp_path):
    """The near shape: another library's function refusing a keyword, the message alone, is not torch.distributed's
    signature -- it keeps the unread reading."""
    v, acc = verdict_accused(tmp_path, "TypeError: make_batch_reader() got an unexpected keyword argument 'seed'\n")
    assert v["cause"] == "unknown" and not acc, v


def test_a_bare_no_algorithm_line_under_a_forced_nccl_algo_is_config(tmp_path):
    """NCCL's tuner refusing a call under the NCCL_ALGO / NCCL_PROTO the job set, the line bare (no NCCL WARN header),
    other functions, datatypes and settings: config, nobody, the setting named in the fix."""
    for func, dtype, var, val in (("ReduceScatter", "ncclFloat32", "ALGO", "nvls"),
                                  ("AllGather", "ncclBfloat16", "ALGO", "collnet"),
                                  ("Broadcast", "ncclInt8", "PROTO", "LL128")):
        text = (f"Error : no algorithm/protocol available for function {func} with datatype {dtype}. NCCL_{var} "
                f"was set to {val}\n")
        v = _config_nobody(tmp_path, text)
        assert "unset nccl_algo" in v["fix"].lower() and "per collective" in v["fix"], v["fix"]


def test_a_bare_no_algorithm_line_with_no_setting_keeps_its_reading(tmp_path):
    """The near shape: the same line with no 'NCCL_ALGO was set to' names no setting -- not read as config."""
    v, acc = verdict_accused(tmp_path, "Error : no algorithm/protocol available for function AllGather with "
                                       "datatype ncclInt8.\n")
    assert v["cause"] != "config" and not acc, v


def test_default_group_missing_names_init_before_model_parallel(tmp_path):
    """A default process group missing (torch_xla workers, Megatron mpu under fairseq; other messages of the same
    check): config, nobody, and the fix says to initialize the process group before initialize_model_parallel."""
    for line in ("AssertionError: Default process group is not initialized",
                 "RuntimeError: Default process group has not been initialized, please make sure to call "
                 "init_process_group."):
        text = ("  File \"/usr/lib/fairseq/model_parallel/megatron/mpu/initialize.py\", line 66, in "
                "initialize_model_parallel\n    rank = torch.distributed.get_rank()\n" + line + "\n")
        v = _config_nobody(tmp_path, text)
        assert "init_process_group before initialize_model_parallel" in v["fix"], v["fix"]


def test_rpc_not_initialized_keeps_its_own_fix(tmp_path):
    """The near shape: RPC's own check (init_rpc missing) keeps its reading and fix, without the default group's."""
    v = _config_nobody(tmp_path, "RuntimeError: RPC has not been initialized. Call torch.distributed.rpc.init_rpc "
                                 "first.\n")
    assert "init_rpc" in v["fix"] and "initialize_model_parallel" not in v["fix"], v["fix"]
