"""How diagnose reads a framework's own check of a setting every process shares (round 109, session 46, fixer f1):
the fix words of a parallel size against what it splits (attention heads, KV heads, the vocabulary, the layers, a
batch), Megatron's 'should be divisible' check, accelerate's DummyScheduler / DummyOptim without a DeepSpeed config
section, transformers' / DeepSpeed's ZeRO-Offload optimizer check, FSDP's uniform requires_grad, DeepSpeed's no_sync
under ZeRO 2/3, torchrun refusing an option flag as the GPU count, and an exception's class split from its message by
another process's frame. Each test reads the shape from lines other than the corpus case's own (other ranks, numbers,
paths, names), and a near shape that keeps its old reading. Hosts, pids, paths and model names are made up."""

from __future__ import annotations

from ncclDoctor.diagnose import generic
from tests.conftest import verdict_accused


def _config(tmp_path, text):
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "config" and not acc and v["culprits"] == [], (v, acc)
    return v


# --- a parallel size against what it splits -------------------------------------------------------------------------
def test_a_bare_divisibility_assert_names_padding_and_other_parallelism(tmp_path):
    """Lead rules W, BW (2): the parallel frameworks' ensure_divisibility, its message two bare numbers (a vocabulary
    over the tensor-parallel ranks): config, nobody; the fix says what to do where the size cannot change."""
    v = _config(tmp_path, "AssertionError: 131077 is not divisible by 4\n")
    assert "pad the vocabulary / embedding to a multiple of the TP size" in v["fix"], v
    assert "use pipeline or data parallelism for the remaining GPUs" in v["fix"], v
    # near shape: a number in a sentence is no parallel layout (R_PARALLEL_UNFIT's anchors)
    assert not generic.R_PARALLEL_UNFIT.search("the batch 10 is not divisible by 4 so one sample is dropped")


def test_kv_heads_over_model_parallel_ranks_names_replicating_them(tmp_path):
    """A rank-tagged traceback through a model's mpu divide() of num_key_value_heads: the tag is no failure record
    (rule AZ (3)); the fix names replicating the KV heads."""
    text = "".join(f"[rank6]: {line}\n" for line in (
        '  File "/srv/proj/models/qwen/modeling.py", line 207, in __init__',
        "    self.num_kv = divide(self.num_kv, self.world_size)",
        '  File "/srv/proj/mpu/utils.py", line 11, in ensure_divisibility',
        "    assert numerator % denominator == 0, '{} is not divisible by {}'.format(",
        "AssertionError: 4 is not divisible by 8"))
    v = _config(tmp_path, text)
    assert "replicate the KV heads across model-parallel ranks" in v["fix"], v
    assert "Check the model's head counts against the TP size before launch" in v["fix"], v


def test_vllm_heads_against_tensor_parallel_size_names_the_head_counts(tmp_path):
    """vLLM's own configuration check ('Total number of attention heads (N) must be divisible by tensor parallel
    size (M)'), read by the settings check: its fix also names the head counts and fewer GPUs per replica."""
    text = ("    raise ValueError(\n"
            "ValueError: Total number of attention heads (20) must be divisible by tensor parallel size (6).\n")
    v = _config(tmp_path, text)
    assert "Check the model's head counts against the TP size before launch" in v["fix"], v
    assert "run fewer GPUs per model replica" in v["fix"], v


def test_megatron_layers_should_be_divisible_by_the_pipeline_size(tmp_path):
    """Megatron-LM's validate_args in words ('Number of layers should be divisible by the pipeline-model-parallel
    size'), behind a rank tag: config, nobody (rule W); the fix names the uneven first/last stage layers."""
    text = "".join(f"[rank9]: {line}\n" for line in (
        '  File "/opt/mlm/megatron/training/arguments.py", line 580, in validate_args',
        "    assert num_layers % args.transformer_pipeline_model_parallel_size == 0, \\",
        "AssertionError: Number of layers should be divisible by the pipeline-model-parallel size"))
    v = _config(tmp_path, text)
    assert "choose --num-layers divisible by --pipeline-model-parallel-size" in v["fix"], v
    assert "--decoder-first-pipeline-num-layers" in v["fix"], v
    # near shape: "should be divisible" with no parallel size beside it is not the parallel layout
    assert generic.R_PARALLEL_UNFIT.search("num_layers should be divisible by the pipeline model parallel size")
    assert not generic.R_PARALLEL_UNFIT.search("the sequence length should be divisible by 64")


# --- an exception's class split from its message by another process's frame ----------------------------------------
def test_class_then_another_frame_then_its_message_is_one_exception(tmp_path):
    """Two processes' stderr interleaved: 'AssertionError  File ...' (the other's frame run after the class), a blank,
    then ': The dimension 1 to split, ... cannot split tensor evenly' -- ColossalAI's own split check of a batch
    over a parallel group: config, nobody (rules W, BW (2), CF (3)); the fix names the batch against the group."""
    text = ('AssertionError  File "/env/lib/python3.9/site-packages/torch/nn/modules/module.py", line 1501, in '
            "_call_impl\n"
            "\n"
            ": The dimension 1 to split, size (3) is not a multiple of world size (4), cannot split tensor evenly\n"
            '  File "/env/lib/python3.9/site-packages/colossalai/nn/layer/parallel_3d/layers.py", line 940, in '
            "forward\n"
            "    input_ = split_tensor_3d(input_, 1, self.input_parallel_mode)\n"
            '  File "/env/lib/python3.9/site-packages/torch/nn/modules/module.py", line 1501, in _call_impl\n')
    v = _config(tmp_path, text)
    assert "micro batch size against data x tensor parallel sizes" in v["fix"], v
    # near shape: the same interleaving around an out-of-memory message keeps its reading (a rank's OOM)
    oom = ('RuntimeError  File "/env/lib/python3.9/site-packages/sat/mpu/mappings.py", line 120, in forward\n'
           ": CUDA out of memory. Tried to allocate 8.00 GiB (GPU 2; 79.17 GiB total capacity; 70.10 GiB already "
           "allocated)\n")
    w, _ = verdict_accused(tmp_path / "oom" if (tmp_path / "oom").mkdir() is None else tmp_path, oom)
    assert w["cause"] == "gpu_oom", w


# --- DeepSpeed / accelerate / FSDP checks of the settings every rank shares -----------------------------------------
def test_accelerate_dummy_optim_without_an_optimizer_section(tmp_path):
    """accelerate's _prepare_deepspeed refusing a DummyOptim (backticks, as newer releases print it) when the
    DeepSpeed config has no optimizer: config, nobody (rules W, BF (3)); the fix says keep both in one place."""
    text = ("Traceback (most recent call last):\n"
            '  File "/srv/run/finetune.py", line 301, in main\n'
            "    model, opt, dl = accelerator.prepare(model, opt, dl)\n"
            '  File "/env/site-packages/accelerate/accelerator.py", line 1620, in _prepare_deepspeed\n'
            "    raise ValueError(\n"
            "ValueError: You cannot create a `DummyOptim` without specifying an optimizer in the config file.\n")
    v = _config(tmp_path, text)
    assert "keep optimizer/scheduler either both in the DeepSpeed config or both in code" in v["fix"], v
    assert generic.R_DS_DUMMY.search(
        "ValueError: You cannot create a DummyScheduler without specifying a scheduler in the config file.")


def test_zero_offload_with_a_client_optimizer(tmp_path):
    """transformers' deepspeed_init ('ZeRO Offload can only work with DeepSpeed optimizers') from two processes:
    config, nobody (rules W, J); the fix names the optimizer section and zero_force_ds_cpu_optimizer."""
    one = ("Traceback (most recent call last):\n"
           '  File "/work/seq2seq/train.py", line 88, in <module>\n'
           '  File "/work/pkgs/transformers/integrations/deepspeed.py", line 301, in deepspeed_init\n'
           '    raise ValueError("ZeRO Offload can only work with DeepSpeed optimizers")\n'
           "ValueError: ZeRO Offload can only work with DeepSpeed optimizers\n")
    v = _config(tmp_path, one + one)
    assert "add an \"optimizer\" section to the DeepSpeed config" in v["fix"], v
    assert "zero_force_ds_cpu_optimizer" in v["fix"], v
    # near shape: DeepSpeed's start-up line naming ZeRO-Offload is no check
    assert not generic.R_ZERO_OFFLOAD_OPT.search("[INFO] ZeRO-Offload enabled with DeepSpeedCPUAdam (lr=1e-4)")


def test_fsdp_flatten_with_mixed_requires_grad(tmp_path):
    """torch FSDP refusing parameters that mix frozen and trainable ones (newer torch's words: 'Must flatten tensors
    with uniform `requires_grad` when `use_orig_params=False`'): config, nobody (rules W, BW (2)); the fix names
    use_orig_params."""
    text = ("Traceback (most recent call last):\n"
            '  File "/env/site-packages/torch/distributed/fsdp/_flat_param.py", line 770, in _validate_tensors\n'
            "    raise ValueError(\n"
            "ValueError: Must flatten tensors with uniform `requires_grad` when `use_orig_params=False`\n")
    v = _config(tmp_path, text)
    assert "fsdp_use_orig_params: true" in v["fix"], v
    assert generic.R_FLAT_PARAM_GRAD.search("ValueError: `FlatParameter` requires uniform `requires_grad`")


def test_no_sync_under_zero_stage_2_names_gradient_accumulation(tmp_path):
    """DeepSpeed's engine refusing no_sync under ZeRO stage 2 (a trainer's accumulation entering it): config, nobody;
    the fix names gradient accumulation in the DeepSpeed config and stage 1."""
    text = ("[rank3]:   File \"/env/site-packages/deepspeed/runtime/engine.py\", line 2010, in no_sync\n"
            "[rank3]:     assert not self.zero_optimization_partition_gradients(), \\\n"
            "[rank3]: AssertionError: no_sync context manager is incompatible with gradient partitioning logic of "
            "ZeRO stage 2\n")
    v = _config(tmp_path, text)
    assert "set gradient accumulation in the DeepSpeed config and let the engine handle it" in v["fix"], v


# --- torchrun refusing an option flag as the GPU count --------------------------------------------------------------
def _run_py(value: str) -> str:
    return ("Traceback (most recent call last):\n"
            '  File "/env/lib/python3.10/site-packages/torch/distributed/run.py", line 700, in '
            "determine_local_world_size\n"
            "    return int(nproc_per_node)\n"
            f"ValueError: invalid literal for int() with base 10: '{value}'\n")


def test_torchrun_given_an_option_flag_as_the_gpu_count(tmp_path):
    """Lead rules X (2), U (2): a dist_train.sh-style script called without its GPU count shifts an option into it
    ('--cfg-options'): config, nobody; the fix says the argument order. An empty value keeps the old fix, without
    that sentence."""
    v = _config(tmp_path, _run_py("--cfg-options"))
    assert "pass the GPU count as the second positional argument instead of --gpus" in v["fix"], v
    w = _config(tmp_path / "empty" if (tmp_path / "empty").mkdir() is None else tmp_path, _run_py(""))
    assert "--nproc_per_node must be a number of GPUs" in w["fix"], w
    assert "second positional argument" not in w["fix"], w
