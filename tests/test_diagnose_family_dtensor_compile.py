"""How diagnose reads round 96's DTensor, torch.compile and sharding refusals (session 38, fixer f2): DTensor's
dispatcher with no sharding strategy for an op (rule BW (2): config), DTensor's view ops refusing to flatten a sharded
dimension (rule BQ (3): invalid_usage), torch.compile's own DDPOptimizer calling its own private function with a
signature it lacks (rules BR (1), BT (2): config), Dynamo's Unsupported over an FSDP module (rules AF (2), BB (1):
config, its fix the compile's), torch's matmul reduction-dim check with nothing else shown (rules BG (1), BJ (2):
unknown, its fix the shapes), and Dynamo's recompile-limit warning alone (rules K, N, T: none, its fix the
recompiles). Each test reads the shape from lines other than the corpus case's own (other ranks, ops, numbers,
paths), and a near shape that keeps its old reading. Paths and numbers are made up."""

from __future__ import annotations

from tests.conftest import verdict_accused


# --- DTensor: no sharding strategy registered for an op -----------------------------------------------------------
def _no_strategy(op: str, prefix: str = "") -> str:
    site = "/opt/conda/lib/python3.10/site-packages/torch"
    return "".join(f"{prefix}{x}\n" for x in (
        "Traceback (most recent call last):",
        '  File "tp_train.py", line 91, in <module>',
        "    loss.backward()",
        f'  File "{site}/distributed/_tensor/dispatch.py", line 114, in dispatch',
        "    self.sharding_propagator.propagate(op_info)",
        f'  File "{site}/distributed/_tensor/sharding_prop.py", line 402, in propagate_op_sharding_non_cached',
        "    raise NotImplementedError(",
        f"NotImplementedError: Operator {op} does not have a sharding strategy registered."))


def test_an_op_with_no_dtensor_sharding_strategy_is_the_installed_torch(tmp_path):
    """Rule BW (2): DTensor's dispatcher finds no sharding strategy for the op a layer of the model reaches (in
    backward or forward): the installed torch's DTensor op coverage, alike on every rank -- config, no rank, whatever
    rank tag the lines carry; the fix names the op and the way round it."""
    for op, prefix in (("aten.native_group_norm_backward.default", ""),
                       ("aten._fused_rms_norm.default", "[rank3]: ")):
        v, acc = verdict_accused(tmp_path, _no_strategy(op, prefix))
        assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
        assert op.rsplit(".", 1)[0] in v["fix"] and "register_sharding" in v["fix"], v


def test_another_not_implemented_error_is_not_the_sharding_strategy(tmp_path):
    """The near shape: another NotImplementedError at the same place (an operator with no kernel for a backend) is
    not DTensor's op coverage: its old reading stays (not config)."""
    text = _no_strategy("x").replace(
        "NotImplementedError: Operator x does not have a sharding strategy registered.",
        "NotImplementedError: Could not run 'aten::_foo' with arguments from the 'Meta' backend.")
    v, _ = verdict_accused(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("unknown", []), v  # its old reading (review 96 finding 10)


# --- DTensor: a view flattening a sharded dimension ---------------------------------------------------------------
def _view(rank: int, dim: int, what: str = "flatten multiple dimensions") -> str:
    site = "/usr/lib/python3/dist-packages/torch/distributed/tensor/_ops/_view_ops.py"
    return "".join(f"[rank{rank}]: {x}\n" for x in (
        f'  File "{site}", line 622, in propagate_shape_and_sharding',
        "    in_dim = get_in_dim_to_shard(cmd)",
        f'  File "{site}", line 551, in get_in_dim_to_shard',
        "    raise RuntimeError(",
        f"RuntimeError: ('Attempted to {what}, with dimension {dim} being sharded. ', 'It cannot be performed "
        "without redistribution, which is disallowed by the current operator.')"))


def test_a_view_over_a_sharded_dimension_is_the_programs_placement(tmp_path):
    """Rule BQ (3): DTensor's view ops refuse to flatten (or split) a dimension that is sharded without
    redistribution: torch refusing the op's input placement, which every rank issues alike -- invalid_usage, no
    rank, whichever rank's tag it carries; the fix redistributes before the view."""
    for rank, dim, what in ((1, 1, "flatten multiple dimensions"), (5, 2, "split a dimension")):
        v, acc = verdict_accused(tmp_path, _view(rank, dim, what))
        assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not acc, v
        assert "Redistribute" in v["fix"] and "full_tensor()" in v["fix"], v


def test_another_rank_tagged_runtime_error_keeps_its_rank(tmp_path):
    """The near shape: one rank's own RuntimeError of its code at the same frames, with no DTensor refusal in its
    words, stays that rank's first failure (rule A)."""
    text = _view(3, 1).replace(
        "RuntimeError: ('Attempted to flatten multiple dimensions, with dimension 1 being sharded. ', 'It cannot be "
        "performed without redistribution, which is disallowed by the current operator.')",
        "RuntimeError: shard file /data/shards/part-00017.bin is truncated")
    v, acc = verdict_accused(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("unknown", [3]) and 3 in acc, v  # its old reading (review 96 finding 10)


# --- torch.compile calling its own private function with a signature it lacks -------------------------------------
def _ddp_optimizer(func: str, arg: str, backend_file: str = "torch/_dynamo/backends/distributed.py") -> str:
    site = "/home/u/venv/lib/python3.10/site-packages"
    msg = f"{func}() missing 1 required positional argument: '{arg}'"
    return (
        f'  File "{site}/torch/_dynamo/output_graph.py", line 702, in call_user_compiler\n'
        "    raise BackendCompilerFailed(self.compiler_fn, e) from e\n"
        f"torch._dynamo.exc.BackendCompilerFailed: compile_fn raised TypeError: {msg}\n\n"
        "You can suppress this exception and fall back to eager by setting:\n"
        "    torch._dynamo.config.suppress_errors = True\n\n"
        "Traceback (most recent call last):\n"
        f'  File "{site}/torch/_dynamo/output_graph.py", line 697, in call_user_compiler\n'
        "    compiled_fn = compiler_fn(gm, self.fake_example_inputs())\n"
        f'  File "{site}/{backend_file}", line 210, in compile_fn\n'
        "    return self.backend_compile_fn(gm, example_inputs)\n"
        f"TypeError: {msg}\n")


def test_dynamo_calling_its_own_private_function_wrongly_is_the_installed_torch(tmp_path):
    """Rules BR (1), BT (2): Dynamo's DDPOptimizer (backends/distributed.py compile_fn) calls the backend it wraps
    and Python refuses the call's signature (a private torch function): torch's own code failing on a call it makes
    itself, the same on every rank -- config, no rank; the fix names optimize_ddp=False and a torch upgrade."""
    for func, arg in (("_convert_frame_assert", "hooks"), ("_compile_inner", "frame_state")):
        v, acc = verdict_accused(tmp_path, _ddp_optimizer(func, arg))
        assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
        assert "optimize_ddp=False" in v["fix"] and "Upgrade torch" in v["fix"], v


def test_a_signature_error_in_the_jobs_own_backend_is_not_torchs(tmp_path):
    """The near shapes: the same TypeError raised in the job's own backend file (not torch/_dynamo), or naming a
    public function the job wrote, is not torch's own call: not read as the installed torch (not config)."""
    own = _ddp_optimizer("_my_backend", "opts", "myproj/compile_backends.py").replace(
        '/home/u/venv/lib/python3.10/site-packages/myproj', '/work/myproj')
    assert verdict_accused(tmp_path, own)[0]["cause"] == "unknown"  # its old reading (review 96 finding 10)
    public = _ddp_optimizer("my_backend", "opts")
    assert verdict_accused(tmp_path, public)[0]["cause"] == "unknown" and (  # review 96 finding 10
        "its own function" not in verdict_accused(tmp_path, public)[0]["summary"])


# --- Dynamo's Unsupported over an FSDP module ---------------------------------------------------------------------
def test_dynamo_unsupported_on_a_wrapped_module_names_the_compile_fix(tmp_path):
    """Rules AF (2), BB (1), BW (2): Dynamo cannot trace an operation of the wrapped model ("Unsupported -
    setattr(FSDPManagedNNModuleVariable(...), ...)", fullgraph forbidding the break): the shared stack refusing the
    compile mode every rank uses -- config, no rank, and the fix is the compile's (graph breaks, FSDP2, upgrade)."""
    for line in ("An error occurred: Unsupported – setattr(FSDPManagedNNModuleVariable(FullyShardedDataParallel), "
                 "_is_root, ...)",
                 "An error occurred: Unsupported: call_method UserDefinedObjectVariable(ShardedState) reshard [] "
                 "{}"):
        text = (line + "\n\n"
                'File "/srv/bench/train.py", line 311, in step\n'
                "    out = self.model(batch)\n...\n"
                'File "/usr/lib/python3.11/site-packages/torch/_dynamo/variables/nn_module.py", line 840, in '
                "call_function\n")
        v, acc = verdict_accused(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
        assert "fullgraph=True" in v["fix"] and "disable torch.compile" in v["fix"], v


def test_a_plain_unsupported_keeps_the_settings_fix(tmp_path):
    """The near shape: a plain 'unsupported' refusal with no Dynamo tracker named keeps its old reading (a check of
    the job's settings, its settings fix), not the compile's."""
    v, _ = verdict_accused(tmp_path, "An error occurred: Unsupported – precision 'fp8' on this device\n")
    assert v["cause"] == "config" and "fullgraph" not in v["fix"], v


# --- torch's matmul reduction-dim check, nothing else shown -------------------------------------------------------
def test_matmul_reduction_dim_mismatch_stays_unknown_with_the_shapes_fix(tmp_path):
    """Rules BG (1), BJ (2), BS (1): untagged 'a and b must have same reduction dim' lines (several processes, other
    shapes), no frame, rank or setting: unknown, nobody -- and the fix says what to collect (the shapes per rank,
    an uneven shard, every rank's traceback)."""
    for shapes in (("[4, 30] X [32, 8]", "[4, 10] X [32, 8]"), ("[2, 7] X [8, 3]",)):
        text = "".join(f"RuntimeError: a and b must have same reduction dim, but got {s}.\n" for s in shapes)
        v, acc = verdict_accused(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
        assert "print the input/weight shapes per rank before the matmul" in v["fix"], v


def test_another_shape_error_gets_no_matmul_fix(tmp_path):
    """The near shape: another shape error (a view's) stays unknown without the matmul fix."""
    v, _ = verdict_accused(tmp_path, "RuntimeError: shape '[4, -1, 64]' is invalid for input of size 1000\n")
    assert v["cause"] == "unknown" and "before the matmul" not in v["fix"], v


# --- Dynamo's recompile-limit warning alone -----------------------------------------------------------------------
def _recompile(rank: int, limit: str, n: int) -> str:
    head = f"[rank{rank}]:W0312 11:02:07.118000 2211 site-packages/torch/_dynamo/convert_frame.py:910] [0/{n}]"
    return (f"{head} torch._dynamo hit config.{limit} ({n})\n"
            f"{head}    function: 'forward' (/srv/app/model/head.py:57)\n"
            f"{head}    last reason: 0/0: tensor 'L['x']' size mismatch at index 1. expected 640, actual 512\n"
            f'{head} To log all recompilation reasons, use TORCH_LOGS="recompiles".\n')


def test_the_recompile_limit_warning_alone_is_nothing_failing_with_the_recompile_fix(tmp_path):
    """Rules K, N, T: Dynamo's [W] warning that a compiled function hit its recompile limit (cache_size_limit in
    older torch, recompile_limit in newer), on any rank, with nothing failing after it: none, nobody, low confidence
    -- and the fix is the recompiles' (dynamic shapes, the limit, TORCH_LOGS=recompiles)."""
    for rank, limit, n in ((2, "cache_size_limit", 8), (7, "recompile_limit", 16)):
        v, acc = verdict_accused(tmp_path, _recompile(rank, limit, n) + _recompile(rank - 1, limit, n))
        assert (v["cause"], v["culprits"], v["confidence"]) == ("none", [], "low") and not acc, v
        assert "mark_dynamic" in v["fix"] and f"torch._dynamo.config.{limit}" in v["fix"], v


def test_the_recompile_limit_warning_before_a_failure_keeps_the_failure(tmp_path):
    """The near shape: the same warning followed by a rank's own out-of-memory error is read by that error, not as
    nothing failing."""
    text = _recompile(2, "cache_size_limit", 8) + (
        "[rank2]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 2 has a total capacity "
        "of 79.11 GiB of which 1.02 GiB is free.\n")
    v, _ = verdict_accused(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("gpu_oom", [2]), v  # the failure (review 96 finding 10)
