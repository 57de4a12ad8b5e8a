"""Review 92 of round 92's diagnose code, fixer s2: readings that held for wider shapes than an expert reads so, and
fix texts that advised the wrong thing.

- Finding 2: verdict.usage._scaler_order counted GradScaler's order errors by exception line, so torchrun's record
  reprinting rank 3's own exception in its traceback field (an @record error file) made "2 processes alike" and
  dropped rule A's rank. Now a copy inside a torchrun record's own lines is no process of its own (dropped), and lines
  of one pid count once: one tagged rank's traceback plus its record reads as that rank's own failure (round 88's
  lvsm-pr19); round 92's swin-transformer-311 (two whole tracebacks) keeps invalid_usage, also prefixed with one rank
  throughout (the bench's rankprefix).
- Finding 10: its cause and fix spoke only of "unscale_ twice before update()" for the check's other wording too
  ("unscale_() is being called after step()"). Now they are worded by which check fired (clipping after step: move it
  between unscale_ and step), and numerics.SCALER_FIX (update() also on skipped steps) is reused (finding 15).
- Finding 4: the NumPy-ABI warning overrode every cut-traceback reading, even after the run trained on for epochs.
  Now parse drops the warning at unread lines (a loop's progress prints) before the next traceback, and
  verdict.unread reads it only where no reading of the cut's own place applies (the DataLoader re-raise first).
- Finding 5: the warning (and accelerate's kernel advisory) stuck to the rest of the input. Now a shell prompt's new
  launch ("$ torchrun ...") drops them: a cut after a relaunch reads as rule BG (6)'s collective cut.
- Finding 6: "Unconvertible NCCL type X" read as the torch build's NCCL for any X. Now only BFloat16 / Float8 (types
  whose NCCL support depends on the build); Short, Bool, complex exist in no NCCL: invalid_usage, cast the tensor.
- Finding 11: the NumPy fix said "built against 1.x, pin numpy<2" and named DLRM's torchrec / fbgemm_gpu for torch
  1.x's "numpy.core.multiarray failed to import" too (a NumPy older than torch's build: upgrade it). Now worded by
  which warning, naming the libraries generically.
- Finding 12: DDP's expect_autograd_hooks_ assert took the mark-ready asserts' cause and their static_graph=True
  advice, the opposite of casanovo-512's fix. Now its own cause and fix (static_graph off with no_sync, forward
  through the DDP wrapper, the torch release with the fix).
- Finding 15: one wording each for DeepSpeed's batch identity (verdict.launch._DS_BATCH_EQ), the watchdog-abort
  sentence (verdict.exits.WATCHDOG_ABORT; the interpreter's own none_dealloc reading no longer carries it), and the
  DataLoader re-raise patterns (signatures' names only).
"""
from __future__ import annotations

import inspect
from pathlib import Path

from ncclDoctor.diagnose import numerics
from ncclDoctor.diagnose.verdict import exits, launch, unread
from tests.conftest import corpus_case_verdict as _case
from tests.conftest import verdict_accused as _verdict

# the reviewer's counter-examples (review 92, s2)
_E_SCALER_REC = (
    "[rank3]: Traceback (most recent call last):\n"
    "[rank3]:   File \"/home/user/proj/train.py\", line 301, in <module>\n"
    "[rank3]:     train_one_epoch(model, loader, optimizer, scaler)\n"
    "[rank3]:   File \"/home/user/proj/train.py\", line 120, in train_one_epoch\n"
    "[rank3]:     scaler.unscale_(optimizer)\n"
    "[rank3]:   File \"/opt/conda/lib/python3.10/site-packages/torch/amp/grad_scaler.py\", line 327, i"
    "n unscale_\n"
    "[rank3]:     raise RuntimeError(\n"
    "[rank3]: RuntimeError: unscale_() has already been called on this optimizer since the last upda"
    "te().\n"
    "E1205 10:01:02.123000 140 torch/distributed/elastic/multiprocessing/api.py:833] failed (exitcod"
    "e: 1) local_rank: 3 (pid: 2301) of binary: /opt/conda/bin/python\n"
    "Traceback (most recent call last):\n"
    "  File \"/opt/conda/bin/torchrun\", line 8, in <module>\n"
    "    sys.exit(main())\n"
    "  File \"/opt/conda/lib/python3.10/site-packages/torch/distributed/run.py\", line 919, in main\n"
    "    run(args)\n"
    "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
    "============================================================\n"
    "train.py FAILED\n"
    "------------------------------------------------------------\n"
    "Failures:\n"
    "  <NO_OTHER_FAILURES>\n"
    "------------------------------------------------------------\n"
    "Root Cause (first observed failure):\n"
    "[0]:\n"
    "  time      : 2026-12-05_10:01:02\n"
    "  host      : node1\n"
    "  rank      : 3 (local_rank: 3)\n"
    "  exitcode  : 1 (pid: 2301)\n"
    "  error_file: /tmp/torchelastic_x/attempt_0/3/error.json\n"
    "  traceback : Traceback (most recent call last):\n"
    "    File \"/opt/conda/lib/python3.10/site-packages/torch/distributed/elastic/multiprocessing/err"
    "ors/__init__.py\", line 355, in wrapper\n"
    "      return f(*args, **kwargs)\n"
    "    File \"/home/user/proj/train.py\", line 120, in train_one_epoch\n"
    "      scaler.unscale_(optimizer)\n"
    "  RuntimeError: unscale_() has already been called on this optimizer since the last update().\n"
    "============================================================\n"
)

_E_SCALER_AFTER = (
    "Traceback (most recent call last):\n"
    "  File \"/home/user/proj/train.py\", line 301, in <module>\n"
    "    train_one_epoch(model, loader, optimizer, scaler)\n"
    "  File \"/home/user/proj/train.py\", line 120, in train_one_epoch\n"
    "    scaler.unscale_(optimizer)\n"
    "  File \"/opt/conda/lib/python3.10/site-packages/torch/amp/grad_scaler.py\", line 330, in unscale"
    "_\n"
    "    raise RuntimeError(\"unscale_() is being called after step().\")\n"
    "RuntimeError: unscale_() is being called after step().\n"
)

_F_NONUMPY = (
    "epoch 0 step 100 loss 2.314\n"
    "epoch 0 step 200 loss 2.101\n"
    "epoch 3 step 9800 loss 0.912\n"
    "[rank5]: Traceback (most recent call last):\n"
    "[rank5]:   File \"/home/user/proj/train.py\", line 212, in <module>\n"
    "[rank5]:     main()\n"
    "[rank5]:   File \"/home/user/proj/train.py\", line 160, in main\n"
    "[rank5]:     for batch in loader:\n"
    "[rank5]:   File \"/opt/conda/lib/python3.10/site-packages/torch/utils/data/dataloader.py\", line "
    "631, in __next__\n"
    "[rank5]:     data = self._next_data()\n"
    "[rank5]:   File \"/opt/conda/lib/python3.10/site-packages/torch/utils/data/dataloader.py\", line "
    "1346, in _next_data\n"
    "[rank5]:     return self._process_data(data)\n"
)

# the same paste with NumPy 2's warning under a NumPy-1 torch above it
_F_NUMPY = (
    "/opt/conda/lib/python3.10/site-packages/torch/_subclasses/functional_tensor.py:258: UserWarning"
    ": Failed to initialize NumPy: _ARRAY_API not found (Triggered internally at ../torch/csrc/utils"
    "/tensor_numpy.cpp:84.)\n"
    "  cpu = _conversion_method_template(device=torch.device(\"cpu\"))\n"
) + _F_NONUMPY

_K_NUMPY_STICKY = (
    "/opt/conda/lib/python3.10/site-packages/torch/_subclasses/functional_tensor.py:258: UserWarning"
    ": Failed to initialize NumPy: _ARRAY_API not found (Triggered internally at ../torch/csrc/utils"
    "/tensor_numpy.cpp:84.)\n"
    "  cpu = _conversion_method_template(device=torch.device(\"cpu\"))\n"
    "$ pip install 'numpy<2'\n"
    "Successfully installed numpy-1.26.4\n"
    "$ torchrun --nproc_per_node 8 train.py\n"
    "[rank0]: Traceback (most recent call last):\n"
    "[rank0]:   File \"/home/user/proj/train.py\", line 212, in <module>\n"
    "[rank0]:     main()\n"
    "[rank0]:   File \"/home/user/proj/train.py\", line 98, in main\n"
    "[rank0]:     dist.barrier()\n"
    "[rank0]:   File \"/opt/conda/lib/python3.10/site-packages/torch/distributed/c10d_logger.py\", lin"
    "e 83, in wrapper\n"
    "[rank0]:     return func(*args, **kwargs)\n"
    "[rank0]:   File \"/opt/conda/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py\""
    ", line 4164, in barrier\n"
    "[rank0]:     work = default_pg.barrier(opts=opts)\n"
)

_K_NONUMPY = (
    "$ torchrun --nproc_per_node 8 train.py\n"
    "[rank0]: Traceback (most recent call last):\n"
    "[rank0]:   File \"/home/user/proj/train.py\", line 212, in <module>\n"
    "[rank0]:     main()\n"
    "[rank0]:   File \"/home/user/proj/train.py\", line 98, in main\n"
    "[rank0]:     dist.barrier()\n"
    "[rank0]:   File \"/opt/conda/lib/python3.10/site-packages/torch/distributed/c10d_logger.py\", lin"
    "e 83, in wrapper\n"
    "[rank0]:     return func(*args, **kwargs)\n"
    "[rank0]:   File \"/opt/conda/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py\""
    ", line 4164, in barrier\n"
    "[rank0]:     work = default_pg.barrier(opts=opts)\n"
)

_F_NUMPY_OLD2 = (
    "/opt/conda/lib/python3.8/site-packages/torch/random.py:40: UserWarning: Failed to initialize Nu"
    "mPy: numpy.core.multiarray failed to import (Triggered internally at  ../torch/csrc/utils/tenso"
    "r_numpy.cpp:68.)\n"
    "  _C._set_default_generator(...)\n"
    "Traceback (most recent call last):\n"
    "  File \"/workspace/train.py\", line 939, in <module>\n"
    "    main(sys.argv[1:])\n"
    "  File \"/workspace/train.py\", line 813, in main\n"
    "    plan = build_plan(\n"
)

_B_NCCL_SHORT = (
    "Traceback (most recent call last):\n"
    "  File \"/home/user/proj/train.py\", line 88, in <module>\n"
    "    dist.all_reduce(mask, op=dist.ReduceOp.SUM)\n"
    "  File \"/opt/conda/lib/python3.8/site-packages/torch/distributed/distributed_c10d.py\", line 128"
    "7, in all_reduce\n"
    "    work = default_pg.allreduce([tensor], opts)\n"
    "RuntimeError: Unconvertible NCCL type Short\n"
)

_B_NCCL_COMPLEX = (
    "[rank0]: Traceback (most recent call last):\n"
    "[rank0]:   File \"/home/user/proj/fft_train.py\", line 88, in <module>\n"
    "[rank0]:     dist.all_reduce(spec)\n"
    "[rank0]:   File \"/opt/conda/lib/python3.8/site-packages/torch/distributed/distributed_c10d.py\","
    " line 1287, in all_reduce\n"
    "[rank0]:     work = default_pg.allreduce([tensor], opts)\n"
    "[rank0]: RuntimeError: Unconvertible NCCL type ComplexFloat\n"
)


# --- 2. GradScaler's order check: processes, not exception lines ----------------------------------------------------
def test_record_copy_of_one_ranks_scaler_error_keeps_rule_a(tmp_path):
    v, acc = _verdict(tmp_path, _E_SCALER_REC)
    assert (v["cause"], v["culprits"]) == ("unknown", [3]) and acc == {3}, v
    assert "2 processes alike" not in v["summary"], v


def test_two_whole_tracebacks_under_one_rank_prefix_stay_job_wide(tmp_path):
    text = (Path(__file__).parent / "fixtures" / "corpus" / "swin-transformer-311-amp-accumulation-unscale-twice"
            / "input.log").read_text()
    v, acc = _verdict(tmp_path, "\n".join(f"[rank3]: {x}" if x.strip() else x for x in text.split("\n")))
    assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not acc, v


def test_scaler_order_cases_keep_their_readings(tmp_path):
    v, acc = _case(tmp_path, "swin-transformer-311-amp-accumulation-unscale-twice")
    assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not acc, v
    assert "in 2 processes alike" in v["summary"] and "again before scaler.update()" in v["summary"], v
    v, acc = _case(tmp_path, "lvsm-pr19-skipped-optimizer-step-gradscaler-unscale-twice-rank0")
    assert (v["cause"], v["culprits"]) == ("unknown", [0]) and acc == {0}, v


# --- 10. its cause and fix by which check fired; SCALER_FIX reused ----------------------------------------------------
def test_unscale_after_step_is_worded_as_clipping_after_step(tmp_path):
    v, acc = _verdict(tmp_path, _E_SCALER_AFTER)
    assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not acc, v
    assert "after scaler.step(optimizer)" in v["summary"] and "again before scaler.update()" not in v["summary"], v
    assert "between backward and step" in v["fix"] and "accumulation boundary" not in v["fix"], v
    assert numerics.SCALER_FIX.strip() in v["fix"], v


def test_unscale_twice_keeps_its_accumulation_fix_and_scaler_fix(tmp_path):
    v, _ = _case(tmp_path, "swin-transformer-311-amp-accumulation-unscale-twice")
    assert "accumulation boundary" in v["fix"] and "also when skipping the optimizer step" in v["fix"], v
    assert "between backward and step" not in v["fix"], v


# --- 4. the NumPy warning does not stop a run that trained on ---------------------------------------------------------
def test_numpy_warning_before_training_progress_leaves_the_loader_cut(tmp_path):
    v, acc = _verdict(tmp_path, _F_NUMPY)
    w, wacc = _verdict(tmp_path, _F_NONUMPY)
    assert (v["cause"], v["culprits"]) == ("unknown", [5]) and acc == {5}, v
    assert (v["cause"], v["culprits"], v["summary"][:120]) == (w["cause"], w["culprits"], w["summary"][:120]), (v, w)
    assert "NumPy" not in v["summary"] and "numpy<2" not in v["fix"], v


def test_numpy_warning_right_above_a_loader_cut_is_the_loaders(tmp_path):
    # nothing unread between: still the DataLoader re-raise's own reading first (rules A / AU (4) / BB (3))
    lines = _F_NUMPY.splitlines(keepends=True)
    v, acc = _verdict(tmp_path, "".join(lines[:2] + lines[5:]))
    assert (v["cause"], v["culprits"]) == ("unknown", [5]) and acc == {5}, v


def test_numpy_warning_at_start_up_keeps_training_760(tmp_path):
    v, acc = _case(tmp_path, "training-760-torchrec-dlrm-numpy-array-api-collective-plan")
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "numpy<2" in v["fix"] and "NumPy 1.x / 2.x mismatch" in v["fix"], v


# --- 5. a relaunch drops the warnings of the run before it ------------------------------------------------------------
def test_numpy_warning_before_a_relaunch_is_not_the_new_runs(tmp_path):
    v, acc = _verdict(tmp_path, _K_NUMPY_STICKY)
    w, _ = _verdict(tmp_path, _K_NONUMPY)
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "inside barrier" in v["summary"] and "NumPy" not in v["summary"] and "numpy<2" not in v["fix"], v
    assert (v["cause"], v["culprits"], v["confidence"]) == (w["cause"], w["culprits"], w["confidence"]), (v, w)


def test_shell_launch_line_alone_drops_the_warning(tmp_path):
    # no unread line between (the launch command is read): the prompt's new launch itself ends the old run's warning
    lines = _K_NUMPY_STICKY.splitlines(keepends=True)
    v, _ = _verdict(tmp_path, "".join(lines[:2] + lines[4:]))
    assert v["cause"] == "unknown" and "numpy<2" not in v["fix"], v
    # and without the relaunch the warning still reads the cut (rules BP (1), BQ (2))
    v, _ = _verdict(tmp_path, "".join(lines[:2] + lines[5:]))
    assert v["cause"] == "config" and "numpy<2" in v["fix"], v


# --- 6. only BFloat16 / Float8 are the build's NCCL -------------------------------------------------------------------
def test_unconvertible_short_or_complex_is_the_callers_dtype(tmp_path):
    for log, cast in ((_B_NCCL_SHORT, "torch.int32"), (_B_NCCL_COMPLEX, "torch.view_as_real")):
        v, acc = _verdict(tmp_path, log)
        assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not acc, v
        assert cast in v["fix"] and "2.10" not in v["fix"] and "upgrade PyTorch" not in v["fix"], v


def test_unconvertible_bfloat16_keeps_the_build_reading(tmp_path):
    v, acc = _case(tmp_path, "nccl-677-megatron-bf16-irecv-unconvertible-nccl-type")
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "NCCL >= 2.10" in v["fix"], v
    v, _ = _verdict(tmp_path, _B_NCCL_SHORT.replace("Short", "Float8_e4m3fn"))
    assert v["cause"] == "config" and "torch.cuda.nccl.version()" in v["fix"], v


# --- 11. the NumPy fix by which warning -------------------------------------------------------------------------------
def test_numpy_multiarray_warning_says_upgrade_numpy(tmp_path):
    v, acc = _verdict(tmp_path, _F_NUMPY_OLD2)
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "pip install -U numpy" in v["fix"] and "pin numpy<2" not in v["fix"], v
    assert "NumPy 2.x" not in v["summary"] and "torchrec" not in v["fix"] and "fbgemm" not in v["fix"], v


def test_numpy_array_api_fix_names_no_dlrm_library(tmp_path):
    v, _ = _case(tmp_path, "training-760-torchrec-dlrm-numpy-array-api-collective-plan")
    assert "pin numpy<2" in v["fix"] and "NumPy 2.x" in v["summary"], v
    assert "torchrec" not in v["fix"] and "fbgemm" not in v["fix"], v


# --- 12. expect_autograd_hooks_'s own cause and fix -------------------------------------------------------------------
def test_expect_autograd_hooks_advises_static_graph_off(tmp_path):
    for name in ("casanovo-512-ddp-static-graph-accumulate-grad-batches-reducer-assert",
                 "oevortex-unsloth-16-ddp-reducer-expect-autograd-hooks-assert"):
        v, acc = _case(tmp_path, name)
        assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, (name, v)
        assert "static_graph=False" in v["fix"] and "set static_graph=True" not in v["fix"], (name, v)
        assert "marked ready twice" not in v["summary"] and "bypassed the DDP wrapper" in v["summary"], (name, v)


def test_mark_ready_twice_keeps_its_own_fix():
    fix = unread._ddp_reducer_fix(["RuntimeError: Expected to mark a variable ready only once. This error is caused"])
    # the reducer's fix, then the marked-twice wording's causes (round 109's deepke-317), not expect_autograd_hooks_'
    assert fix == unread._DDP_REDUCER_FIX + unread._DDP_READY_TWICE_FIX and "use_reentrant=False" in fix


# --- 15. one wording each ---------------------------------------------------------------------------------------------
def test_one_wording_each():
    src = inspect.getsource(launch)
    assert src.count("micro_batch_per_gpu x gradient_accumulation_steps x world") == 1, "DeepSpeed's batch identity"
    assert exits.WATCHDOG_ABORT in exits.ABORT_FIX and exits.WATCHDOG_ABORT not in exits.NATIVE_ABORT_FIX
    assert inspect.getsource(exits).count("NCCL watchdog ends a process after a collective timeout") == 1
    assert not hasattr(unread, "_R_LOADER_DATA_FILE") and not hasattr(unread, "_R_PROCESS_DATA_CALL")


def test_interpreters_own_abort_names_no_watchdog(tmp_path):
    v, acc = _case(tmp_path, "torchtitan-1066-compiled-training-rank0-fatal-none-dealloc")
    assert (v["cause"], v["culprits"]) == ("unknown", [0]) and acc == {0}, v
    assert "none_dealloc" in v["fix"] and "NCCL watchdog" not in v["fix"], v
