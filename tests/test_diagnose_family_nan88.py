"""Numerical divergence round 88 showed read by its shape (rules A, AH (1), AN (1), BG (4), BJ (2), J, K, M, S, T):
a run whose numbers went NaN or overflowed fp16 has no cause class, and what an expert reads is who (a rank's own
guard names it, a check over reduced values names nobody) and the remedy for the numbers (numerics.py).

- Megatron's own guard "AssertionError: Rank 3: found NaN in local grad norm in backwards pass" on the rank's local
  norm, before the data-parallel collective, with the other traceback cut before any error text: rank 3, cause
  unknown, the fix the NaN's (pai-megatron-patch-60; it was read as an unread failure naming nobody). An assert of a
  setting, or a NaN check over reduced values, is not read so.
- fairseq's "FloatingPointError: Fatal error: gradients are inconsistent between workers" over a table of nan on
  every rank: a symmetric check (rules AH (1), S), nobody named, the fix says NaN gradients first and the DDP backend
  only where finite norms differ (fairseq-1372).
- DeepSpeed's "Current loss scale already at minimum" on every untagged process, the launcher killing them all
  (rules J, M): nobody named, the fix bf16 / the loss-scale settings (llamafactory-251).
- torch.amp.GradScaler's "unscale_() has already been called on this optimizer since the last update()" on one tagged
  rank: that rank (rule A), cause unknown, the fix the GradScaler order (call scaler.update() on a skipped step too;
  lvsm-pr19).
- DeepSpeed's INFO "[deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: ..." lines with nothing failing
  after them: none (rule K), nobody named ("Rank 0" is the logging rank), the fix says dynamic loss scaling is
  normal and what to watch (cogvideo-233; the line was not read at all before: "Skipping step" is a new trigger).
- torchrun's no-error-file record ("CHILD PROCESS FAILED WITH NO ERROR_FILE ... local_rank 0 ... exitcode 1"): the fix
  asks for the full worker traceback with @record (cmt-83); only the fix's words changed.
"""
from __future__ import annotations

import re
import time

from tests.conftest import verdict_accused as _verdict

# --- a rank's own NaN guard -------------------------------------------------------------------------------------------
_MEGATRON_NAN = ("Traceback (most recent call last):\n"
                 '  File "/work/pretrain_gpt.py", line 101, in <module>\n'
                 "    pretrain(train_valid_test_datasets_provider,\n"
                 '  File "/work/megatron/training.py", line 385, in train_step\n'
                 "    update_successful, grad_norm, num_zeros_in_grad = optimizer.step(args, timers)\n"
                 "    assert not total_norm.isnan(), (\n"
                 "AssertionError: Rank 5: found NaN in local grad norm in backwards pass. Device: 1, node: gpu-07\n"
                 "Traceback (most recent call last):\n"
                 '  File "/work/pretrain_gpt.py", line 101, in <module>\n')


def test_a_ranks_own_nan_guard_names_that_rank_with_the_nan_fix(tmp_path):
    v, acc = _verdict(tmp_path, _MEGATRON_NAN)
    assert (v["cause"], v["culprits"], v["confidence"]) == ("unknown", [5], "medium"), v
    assert "NaN in grad norm" in v["fix"] and "bf16 instead of fp16" in v["fix"], v


def test_an_assert_naming_no_rank_is_not_read_as_a_nan_guard(tmp_path):
    v, acc = _verdict(tmp_path, _MEGATRON_NAN.replace("Rank 5: found NaN in local grad norm in backwards pass.",
                                                      "micro batch size must divide the global batch size."))
    assert v["culprits"] == [] and not acc and "NaN gradients" not in v["fix"], v


# --- a symmetric check over reduced values ----------------------------------------------------------------------------
_FAIRSEQ = ("-- Process 1 terminated with the following error:\n"
            "Traceback (most recent call last):\n"
            '  File "/src/fairseq/trainer.py", line 643, in train_step\n'
            "    self._check_grad_norms(grad_norm)\n"
            "FloatingPointError: Fatal error: gradients are inconsistent between workers. Try --ddp-backend=no_c10d.\n"
            "grad_norm across the workers:\n"
            "rank   0 = nan\n"
            "rank   1 = nan\n")


def test_inconsistent_grad_norms_name_nobody_and_say_nan_gradients(tmp_path):
    v, acc = _verdict(tmp_path, _FAIRSEQ)
    assert v["cause"] == "unknown" and v["culprits"] == [] and not acc, v
    assert "NaN gradients" in v["fix"] and "--ddp-backend=no_c10d" in v["fix"], v


_LOSS_SCALE_MIN = (
    '  File "/usr/lib/python3/dist-packages/deepspeed/runtime/fp16/loss_scaler.py", line 175, in update_scale\n'
    "    raise Exception(\n"
    "Exception: Current loss scale already at minimum - cannot decrease scale anymore. Exiting run.\n"
    '  File "/usr/lib/python3/dist-packages/deepspeed/runtime/fp16/loss_scaler.py", line 175, in update_scale\n'
    "    raise Exception(\n"
    "Exception: Current loss scale already at minimum - cannot decrease scale anymore. Exiting run.\n"
    "[2024-01-02 10:00:00,001] [INFO] [launch.py:315:sigkill_handler] Killing subprocess 4101\n"
    "[2024-01-02 10:00:00,002] [INFO] [launch.py:315:sigkill_handler] Killing subprocess 4102\n")


def test_loss_scale_at_minimum_on_every_process_names_nobody_with_the_fp16_fix(tmp_path):
    v, acc = _verdict(tmp_path, _LOSS_SCALE_MIN)
    assert v["cause"] == "unknown" and v["culprits"] == [] and not acc, v
    assert "bf16 instead of fp16" in v["fix"] and "min_loss_scale" in v["fix"], v


# --- GradScaler's own order check -------------------------------------------------------------------------------------
_SCALER = ("WARNING: step 9 grad norm too large 7.1 > 5.0, skipping optimizer step\n"
           "[rank1]: Traceback (most recent call last):\n"
           '[rank1]:   File "/src/train.py", line 190, in main\n'
           "[rank1]:     scaler.unscale_(optimizer)\n"
           "[rank1]: RuntimeError: unscale_() has already been called on this optimizer since the last update().\n")


def test_gradscaler_order_check_names_its_rank_with_the_update_fix(tmp_path):
    v, acc = _verdict(tmp_path, _SCALER)
    assert (v["cause"], v["culprits"]) == ("unknown", [1]), v
    assert "GradScaler usage" in v["fix"] and "scaler.update()" in v["fix"], v


def test_another_runtime_error_of_one_rank_keeps_its_old_fix(tmp_path):
    v, acc = _verdict(tmp_path, _SCALER.replace("unscale_() has already been called on this optimizer since the last "
                                                "update().", "expected a batch of 8 images, got 7."))
    assert (v["cause"], v["culprits"]) == ("unknown", [1]) and "GradScaler" not in v["fix"], v


# --- dynamic loss scaling at work -------------------------------------------------------------------------------------
_SKIPS = "".join(f"[2024-09-11 17:52:{10 + i},320] [INFO] [loss_scaler.py:183:update_scale] [deepspeed] OVERFLOW! "
                 f"Rank 0 Skipping step. Attempted loss scale: {2 ** (32 - i)}, reducing to {2 ** (31 - i)}\n"
                 for i in range(4))


def test_loss_scaler_skipping_steps_is_none_with_what_to_watch(tmp_path):
    v, acc = _verdict(tmp_path, _SKIPS)
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert "dynamic loss scaling" in v["fix"] and "initial_scale_power" in v["fix"], v


def test_skipping_steps_then_a_loss_scale_at_minimum_is_a_failure(tmp_path):
    v, acc = _verdict(tmp_path, _SKIPS + "Exception: Current loss scale already at minimum - cannot decrease scale "
                                         "anymore. Exiting run.\n")
    assert v["cause"] == "unknown" and v["culprits"] == [] and "bf16 instead of fp16" in v["fix"], v


# --- torchrun's record with no error file -----------------------------------------------------------------------------
_NO_ERROR_FILE = ("CHILD PROCESS FAILED WITH NO ERROR_FILE\n"
                  "Child process 71952 (local_rank 0) FAILED (exitcode 1)\n"
                  "Error msg: Process failed with exitcode 1\n"
                  "Without writing an error file to <N/A>.\n")


def test_no_error_file_record_asks_for_the_full_worker_traceback(tmp_path):
    v, acc = _verdict(tmp_path, _NO_ERROR_FILE)
    assert (v["cause"], v["culprits"]) == ("unknown", [0]), v
    assert "full worker traceback" in v["fix"] and "@record" in v["fix"], v


def test_no_numerics_regex_backtracks_on_a_capped_line():
    from ncclDoctor.diagnose import numerics

    for text in ("nan " * 16000, "grad norm " * 6000, "Rank 1: found NaN in " * 3000, "unscale_() " * 6000):
        for name in dir(numerics):
            rx = getattr(numerics, name)
            if isinstance(rx, re.Pattern):
                t0 = time.process_time()
                rx.search(text)
                assert time.process_time() - t0 < 1.0, name
