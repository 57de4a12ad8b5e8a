"""Numerics: a training run's numbers diverging (NaN/Inf gradients, an fp16 loss scale driven to its minimum) and
the mixed-precision loss scaler's own state checks, read from the lines that say so.

No cause class covers a numerical divergence (lead rules W, BJ (2), BG (4)): the verdict's cause stays what the
reading of the failure says (unknown, or none where nothing failed: rule K), and these lines only give its fix the
remedy an expert names for them:

- a NaN/Inf guard that stopped the run (fairseq's cross-worker ``_check_grad_norms`` over NaN grad norms,
  Megatron's "Rank N: found NaN in local grad norm", DeepSpeed's "Current loss scale already at minimum"): lower
  the learning rate, clip gradients, bf16 instead of fp16 or the loss-scale settings, the data batch;
- torch.amp.GradScaler's state check ("unscale_() has already been called on this optimizer since the last
  update()"): the loop's unscale_/step/update order, typically a skipped step that left out ``scaler.update()``;
  its step's "No inf checks were recorded for this optimizer" is no order: none of that optimizer's parameters got
  a gradient from the scaled loss (a frozen model, parameters not in the loss, a loss never scaler.scale()d);
- DeepSpeed's / apex's fp16 dynamic loss scaler skipping a step and halving the scale ("OVERFLOW! Rank 0 Skipping
  step", "Gradient overflow.  Skipping step"): how dynamic loss scaling finds its scale, benign while nothing fails
  after it (rule K); "Rank 0" there is only the logging rank (the overflow flag is reduced over the group).

Which rank: Megatron's guard names the rank whose own gradients held the NaN ("Rank 3: found NaN in local grad
norm"), computed before the data-parallel collective; that rank raised alone (rules AN (1), BJ (2)). A check over
reduced values (fairseq's table of every worker's grad norm, DeepSpeed's overflow flag) is the same on every rank
and names nobody (rules AH (1), S). Round 88 showed these shapes (fairseq-1372, llamafactory-251, lvsm-pr19,
pai-megatron-patch-60, cogvideo-233).
"""

from __future__ import annotations

import re

# DeepSpeed's loss_scaler.update_scale ("[deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 4294967296,
# reducing to 2147483648") and apex's amp ("Gradient overflow.  Skipping step, loss scaler 0 reducing loss scale to
# 32768.0"): a skipped step of dynamic loss scaling, not a failure. DeepSpeed's older fused optimizer logs it through
# log_dist ("[Rank 0] Overflow detected. Skipping step. Attempted loss scale: 8.0, reducing to 4.0", after each
# process's "Grad overflow on iteration N"), its ZeRO optimizers as "fp16 dynamic loss scale overflow! Skipping step.
# Attempted loss scale: ..." (round 97's deepspeed-697). The literal is in load.TRIGGERS.
R_SCALE_SKIP = re.compile(r"OVERFLOW! Rank \d{1,6} Skipping step|Gradient overflow\. {1,4}Skipping step|"
                          r"(?:\bOverflow detected\.|\bloss scale overflow!) {1,4}Skipping step\. {1,4}"
                          r"Attempted loss scale")

# the guards that stop a run on a NaN/Inf: a grad norm or gradients gone NaN, the loss scale at its floor. The norm
# as a logged key (HF Trainer's "'grad_norm': nan", fairseq's "grad_norm=nan" / "| grad_norm nan") is read by its
# own value only: the key, its separator, then nan -- not a nan of another key ("'loss': nan, 'grad_norm': 1.2")
R_DIVERGED = re.compile(r"loss scale already at minimum|found NaN in (?:local )?grad norm|"
                        r"\bgrad(?:ient)?s? norm\b[^\n]{0,30}\bnan\b|"
                        r"\bnan\b[^\n]{0,30}\bgrad(?:ient)? norm\b|"
                        r"\bgrad(?:ient)?s?_norm\b['\"]?[\s:=|]{0,6}['\"]?nan\b", re.IGNORECASE)
# Megatron's guard names the rank it ran on: "Rank 3: found NaN in local grad norm in backwards pass. Device: 3"
R_RANK_NAN = re.compile(r"\bRank (\d{1,6}): found NaN in (?:local )?grad norm")
# torch.amp.GradScaler's (torch.cuda.amp's) checks of its own unscale_/step/update order
R_SCALER_STATE = re.compile(r"unscale_\(\) has already been called on this optimizer since the last update\(\)|"
                            r"unscale_\(\) is being called after step\(\)")
# GradScaler.step's assertion that unscaling found any gradient ("AssertionError: No inf checks were recorded for this
# optimizer."): none of that optimizer's parameters got a gradient from the scaled loss -- not a call order. Its
# words up to "recorded" suffice: a paste that cut the message ("... were recorded for th", the assert's own source
# line in the traceback: parse keeps it as ``scaler_no_grad``) says the same check (round 92's torchdistill-386)
R_SCALER_NO_GRAD = re.compile(r"No inf checks were recorded\b")

NO_GRAD_FIX = ("GradScaler's 'No inf checks were recorded for this optimizer': scaler.step(optimizer) found no "
               "gradient on any parameter that optimizer holds -- none of them took part in the scaled loss's "
               "backward: the model (or the part the optimizer was given) frozen (requires_grad=False on all of them: "
               "build the optimizer over the trainable parameters only, filter(lambda p: p.requires_grad, "
               "model.parameters())), parameters not in the loss (the optimizer built over another model or a copy "
               "than the forward pass uses, a wrapped model's parameters taken before wrapping, an unused branch), or "
               "a loss never passed through scaler.scale(loss).backward() (backward on the unscaled loss, no backward "
               "before step). Check after backward that some p.grad is not None for the optimizer's parameters. ")
# what a diverged run wants, whichever check saw it (here, fairseq's table, a rank's own NaN/Inf check in exits)
DIVERGED_ADVICE = ("lower learning rate (or a longer warmup), gradient clipping (max_grad_norm / --clip-norm), bf16 "
                   "instead of fp16 (or the fp16 loss scaling settings: initial_scale_power / min_loss_scale / "
                   "loss_scale_window), and check the data for bad samples (the batch that produced NaN: log its "
                   "sample ids; a log or a division of zero in the loss). ")
DIVERGED_FIX = "NaN gradients / fp16 overflow stopped the run (a NaN in grad norm, the loss scale at minimum): " + (
    DIVERGED_ADVICE)
# the table's header in the message of fairseq's _check_grad_norms ("grad_norm across the workers:"), the same error
# where the paste holds the table alone (generic.R_FAILURE_WORD reads the line as a failure)
R_GRAD_TABLE = re.compile(r"^\s*grad_norm across the workers:\s*$")
# fairseq's _check_grad_norms raises it for finite norms that differ as well as for NaN ones; its table of every
# worker's grad_norm (below the message, no trigger word) says which: the fix names both readings
INCONSISTENT_FIX = ("fairseq's cross-worker check of the grad norms: where its table shows grad_norm = nan on every "
                    "rank the NaN came through the all-reduce (NaN never equals NaN) -- NaN gradients, not the DDP "
                    "backend: "
                    + DIVERGED_ADVICE
                    + "Where finite norms differ, it is the --ddp-backend=no_c10d / legacy_ddp advice or mixed GPU "
                    "generations in one job. ")
SCALER_FIX = ("GradScaler usage: torch.amp.GradScaler checks its own unscale_/step/update order -- call "
              "scaler.update() every iteration, also when skipping the optimizer step (a step skipped on a large "
              "grad norm must still call scaler.update(), or clip gradients instead of skipping), and call unscale_ "
              "at most once "
              "before update(). ")
SKIP_WORDS = ("the fp16 dynamic loss scaling messages ('OVERFLOW! Rank 0 Skipping step', 'Gradient overflow. "
              "Skipping step') are normal during the first steps: the scaler halves the loss scale until the "
              "gradients fit and every rank skips the same step (the overflow flag is reduced over the group, 'Rank "
              "0' is only the logging rank); watch for \"Current loss scale already at minimum\" (then lower the "
              "learning rate, clip gradients, or use bf16 instead of fp16), and start lower with initial_scale_power "
              "/ loss_scale_window to skip fewer steps")


def fix_for(texts: list[str]) -> str:
    """The remedy the lines' numerical shape names (GradScaler's order, else a divergence), or ''."""
    if any(R_SCALER_STATE.search(t) for t in texts):
        return SCALER_FIX
    if any(R_SCALER_NO_GRAD.search(t) for t in texts):
        return NO_GRAD_FIX
    if any("inconsistent between workers" in t or R_GRAD_TABLE.search(t) for t in texts):
        return INCONSISTENT_FIX
    if any(R_DIVERGED.search(t) for t in texts):
        return DIVERGED_FIX
    return ""


def nan_rank(text: str) -> int | None:
    """The rank a NaN guard names as its own (Megatron's "Rank N: found NaN in local grad norm"), or None."""
    m = R_RANK_NAN.search(text)
    return int(m.group(1)) if m else None
