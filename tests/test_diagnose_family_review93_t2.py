"""Review t2 of session 36's diagnose code (round 93): readings and fix texts that held for wider shapes than an
expert reads so, each narrowed to its shape.

- F2: FSDP's assert_state frame (a print_stack block) set a flag nothing cleared, so every later cut traceback in the
  file -- a dataset's sf.read cut after 60 progress lines -- got FSDP's checkpointing fix. Now the frame counts only
  for its own stack: the traceback printed right under the print_stack block (fairseq-3353); an exception line or a
  later "Traceback (most recent call last)" header ends it (parse._stack_end).
- F11: a Builder().load() line counted for any stack cut within 40 lines below it, across another process's
  exception line. Now an exception line or a new traceback header ends it, as _build_op_open's scan does.
- F8: ds_op_builder rebuilt a builder class from the op's name, making up classes (TransformerInferenceBuilder,
  GdsBuilder, FpQuantizerBuilder, CclCommBuilder). Now DeepSpeed's own builder classes map back exactly.
- F4: R_OP_CALL took any XBuilder().load( (a project's ConfigBuilder().load(path)) and apex's FusedAdam(. Now only
  DeepSpeed's builder classes, and FusedAdam( / FusedLamb( / FusedLion( only in a stack that names deepspeed.
- F14: the op build's fix (DS_BUILD_<NAME> rebuild, one-line load, offload_optimizer off) was written twice
  (verdict.launch._op_build, verdict.unread._jit_build_fix), and the op-call regex twice (R_OP_CALL, _R_OP_LOAD).
  Now signatures.ds_op_rebuild / ds_op_load_cmd / DS_OFFLOAD_OFF write it once, and _R_OP_LOAD keeps only what
  R_OP_CALL does not read (cpp_extension's load / load_inline, DeepSpeedTransformerLayer).
"""
from __future__ import annotations

from ncclDoctor.diagnose import signatures as S
from ncclDoctor.diagnose.parse import LineParser, _build_op_open
from tests.conftest import corpus_case_verdict
from tests.conftest import verdict_accused as _verdict

_SP = "/opt/conda/lib/python3.8/site-packages"
_FSDP_BLOCK = (
    f'  File "{_SP}/fairscale/nn/data_parallel/fully_sharded_data_parallel.py", line 1174, in _wait_for_post_backward\n'
    "    m.assert_state(TrainingState.BACKWARD_POST)\n"
    f'  File "{_SP}/fairscale/nn/data_parallel/fully_sharded_data_parallel.py", line 2149, in assert_state\n'
    "    traceback.print_stack()\n")
_DATASET_CUT = (
    "Traceback (most recent call last):\n"
    f'  File "{_SP}/torch/utils/data/_utils/fetch.py", line 49, in fetch\n'
    "    data = [self.dataset[idx] for idx in possibly_batched_index]\n"
    f'  File "{_SP}/fairseq/data/audio/raw_audio_dataset.py", line 120, in __getitem__\n'
    '    wav, curr_sample_rate = sf.read(path, dtype="float32")\n')


# --- F2. FSDP's assert_state frame counts for its own stack only ----------------------------------------------------
def test_a_dataset_read_cut_after_fsdp_print_stack_and_progress_gets_no_fsdp_fix(tmp_path):
    progress = "".join(f"epoch 001: {i} / 5000 loss=7.1\n" for i in range(1, 61))
    v, acc = _verdict(tmp_path, _FSDP_BLOCK + "(I switched to --ddp-backend legacy_ddp and now get:)\n" + progress
                      + _DATASET_CUT)
    assert v["cause"] == "unknown" and not acc, v
    assert "FullyShardedDataParallel" not in v["fix"] and "non-reentrant" not in v["fix"], v


def test_a_cut_stack_after_an_exception_line_below_the_fsdp_block_gets_no_fsdp_fix(tmp_path):
    v, _ = _verdict(tmp_path, _FSDP_BLOCK + "Traceback (most recent call last):\n"
                    '  File "train.py", line 3, in <module>\n    main()\nAssertionError: BACKWARD_POST\n'
                    + _DATASET_CUT)
    assert "non-reentrant" not in v["fix"], v


def test_fairseq_3353_fsdp_state_still_reads_as_before(tmp_path):
    v, _ = corpus_case_verdict(tmp_path, "fairseq-3353-fsdp-checkpoint-activations-backward-post-state")
    assert "non-reentrant" in v["fix"], v


# --- F11. an op's load line counts only inside its own stack ---------------------------------------------------------
_JIT_FRAMES = (
    f'  File "{_SP}/deepspeed/ops/op_builder/builder.py", line 485, in load\n    return self.jit_load(verbose)\n'
    f'  File "{_SP}/deepspeed/ops/op_builder/builder.py", line 520, in jit_load\n    op_module = load(\n'
    f'  File "{_SP}/torch/utils/cpp_extension.py", line 1284, in load\n    return _jit_compile(\n')


def _cut_events(tmp_path, monkeypatch, text: str) -> list:
    """The tb_cut events diagnose makes of TEXT (their data: build_op, fsdp_state)."""
    seen = []
    orig = LineParser._context

    def keep(self, lineno, line, kind):
        ev = orig(self, lineno, line, kind)
        if kind == "tb_cut":
            seen.append(ev)
        return ev
    monkeypatch.setattr(LineParser, "_context", keep)
    _verdict(tmp_path, text)
    return seen


def test_an_op_load_line_of_an_ended_stack_does_not_name_a_later_cut_stacks_op(tmp_path, monkeypatch):
    # rank 0's CPUAdamBuilder().load() stack ends in its exception; rank 1's stack is cut inside a JIT build
    # whose op line the paste does not show: rank 0's cpu_adam is not its op
    other = ("Traceback (most recent call last):\n"
             f'  File "{_SP}/deepspeed/ops/adam/cpu_adam.py", line 96, in __init__\n'
             "    self.ds_opt_adam = CPUAdamBuilder().load()\n"
             "RuntimeError: Error building extension 'cpu_adam'\n")
    evs = _cut_events(tmp_path, monkeypatch, other + "Traceback (most recent call last):\n" + _JIT_FRAMES)
    assert evs and all(e.data.get("build_op") is None for e in evs), [e.data.get("build_op") for e in evs]


def test_an_op_load_line_of_the_cut_stack_itself_still_names_its_op(tmp_path, monkeypatch):
    own = ("Traceback (most recent call last):\n"
           f'  File "{_SP}/deepspeed/ops/adam/cpu_adam.py", line 96, in __init__\n'
           "    self.ds_opt_adam = CPUAdamBuilder().load()\n")
    evs = _cut_events(tmp_path, monkeypatch, own + _JIT_FRAMES)
    assert evs and evs[-1].data.get("build_op") == "cpu_adam", [e.data for e in evs]


def test_the_fsdp_mark_is_kept_for_its_own_traceback_only(tmp_path, monkeypatch):
    evs = _cut_events(tmp_path, monkeypatch, _FSDP_BLOCK + "Traceback (most recent call last):\n"
                      '  File "train.py", line 3, in <module>\n    main()\n')
    assert evs and evs[-1].data.get("fsdp_state"), [e.data for e in evs]
    evs = _cut_events(tmp_path, monkeypatch, _FSDP_BLOCK + "Traceback (most recent call last):\n"
                      '  File "train.py", line 3, in <module>\n    main()\nRuntimeError: x\n' + _DATASET_CUT)
    assert evs and not evs[-1].data.get("fsdp_state"), [e.data for e in evs]


def test_lmflow_470_cut_cpu_adam_load_still_reads_as_before(tmp_path):
    v, _ = corpus_case_verdict(tmp_path, "lmflow-470-six-a100-cpu-adam-jit-load-cut")
    assert v["cause"] == "config" and "DS_BUILD_CPU_ADAM=1" in v["fix"], v
    assert "CPUAdamBuilder().load()" in v["fix"], v


# --- F8. the builder class of an op: DeepSpeed's own names ------------------------------------------------------------
def test_builder_classes_round_trip_to_real_classes():
    for cls, op in (("InferenceBuilder", "transformer_inference"), ("FPQuantizerBuilder", "fp_quantizer"),
                    ("GDSBuilder", "gds"), ("CCLCommBuilder", "deepspeed_ccl_comm"), ("CPUAdamBuilder", "cpu_adam"),
                    ("FusedAdamBuilder", "fused_adam"), ("AsyncIOBuilder", "async_io"),
                    ("RaggedOpsBuilder", "ragged_device_ops"), ("RaggedUtilsBuilder", "ragged_ops"),
                    ("InferenceCoreBuilder", "inference_core_ops"), ("InferenceCutlassBuilder", "cutlass_ops"),
                    ("ShareMemCommBuilder", "deepspeed_shm_comm"), ("DeepCompileBuilder", "dc")):
        assert S.ds_op_name(cls) == op and S.ds_op_builder(op) == cls, (cls, op)


def test_rebuild_names_the_builders_own_install_switch():
    # DeepSpeed's op_builder/*.py: BUILD_VAR is not always DS_BUILD_<NAME> (AsyncIOBuilder: NAME "async_io",
    # BUILD_VAR "DS_BUILD_AIO"; ShareMemCommBuilder: "deepspeed_shm_comm", "DS_BUILD_SHM_COMM")
    for op, var in (("async_io", "DS_BUILD_AIO=1"), ("deepspeed_shm_comm", "DS_BUILD_SHM_COMM=1"),
                    ("deepspeed_ccl_comm", "DS_BUILD_CCL_COMM=1"), ("dc", "DS_BUILD_DEEP_COMPILE=1"),
                    ("ragged_device_ops", "DS_BUILD_RAGGED_DEVICE_OPS=1"), ("cpu_adam", "DS_BUILD_CPU_ADAM=1")):
        assert var in S.ds_op_rebuild(op), (op, S.ds_op_rebuild(op))
    assert "DS_BUILD_ASYNC_IO" not in S.ds_op_rebuild("async_io")


# --- F4. only DeepSpeed's builders and DeepSpeed's FusedAdam name an op -----------------------------------------------
def test_a_projects_own_builder_load_is_no_op_call():
    assert S.R_OP_CALL.search("cfg = ConfigBuilder().load(path)") is None
    assert S.R_OP_CALL.search("model = ModelBuilder().load(ckpt)") is None
    assert _build_op_open(["Traceback (most recent call last):", '  File "train.py", line 9, in <module>',
                           "    cfg = ConfigBuilder().load(path)"] + _JIT_FRAMES.splitlines()) is None


def test_apex_fused_adam_names_no_deepspeed_op():
    tail = ["Traceback (most recent call last):", '  File "train.py", line 9, in <module>',
            "    opt = FusedAdam(model.parameters(), lr=1e-4)",
            f'  File "{_SP}/torch/utils/cpp_extension.py", line 1284, in load', "    return _jit_compile("]
    assert _build_op_open(tail) is None


def test_deepspeeds_own_op_loads_still_name_their_op():
    assert _build_op_open(["Traceback (most recent call last):",
                           f'  File "{_SP}/deepspeed/ops/adam/fused_adam.py", line 72, in __init__',
                           "    fused_adam_cuda = FusedAdamBuilder().load()"]
                          + _JIT_FRAMES.splitlines()) == "fused_adam"
    assert _build_op_open(["Traceback (most recent call last):",
                           f'  File "{_SP}/deepspeed/runtime/engine.py", line 1354, in _configure_basic_optimizer',
                           "    optimizer = FusedAdam(model_parameters,"] + _JIT_FRAMES.splitlines()) == "fused_adam"
    assert S.ds_op_name(S.R_OP_CALL.search("self.ds_opt_adam = CPUAdamBuilder().load()").group(1)) == "cpu_adam"


# --- F14. one text for the op build's fix, one regex for DeepSpeed's op calls ---------------------------------------
def test_both_op_build_readers_write_the_same_rebuild_and_load_text(tmp_path):
    import glob
    import os
    cut, _ = corpus_case_verdict(tmp_path, "lmflow-470-six-a100-cpu-adam-jit-load-cut")
    unset_case = os.path.basename(glob.glob(os.path.join(os.path.dirname(__file__), "fixtures", "corpus",
                                                         "lmflow-471*"))[0])
    unset, _ = corpus_case_verdict(tmp_path, unset_case)
    for v in (cut, unset):
        assert S.ds_op_rebuild("cpu_adam") in v["fix"] and S.DS_OFFLOAD_OFF in v["fix"], v
    assert S.ds_op_load_cmd("cpu_adam") in cut["fix"], cut
