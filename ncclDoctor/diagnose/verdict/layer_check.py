"""A library's own check or kernel refusing a layer of the model every rank builds alike (lead rule BW (2), with
rules BF (4), AF (2), BB (1), BV (3)): torch's or a library's norm layer refusing its input's dimensions inside the
model's forward (SyncBatchNorm's "expected at least 3D input (got 2D input)", apex's welford_mean_var "Dimension out
of range"), or autograd refusing a double backward through an operation with no derivative ("derivative for
batch_norm_backward_elemt is not implemented"), or torch.utils.checkpoint's own check that the recomputation in
backward replayed the forward (its CheckpointError: "Recomputed values for the following tensors have different
metadata than during the forward pass", a different number of tensors saved; round 93's modalities-361 and
trl-4314). The model, its layers and the installed library are the same on every rank, so the rank whose traceback
shows it is no culprit: config, no rank, nobody innocent -- untagged or with one traceback only. Not read so: torch
refusing a call the job's own frame makes into its API by the call's arguments or order (rules BQ (3), BK (1), BT
(2)'s invalid_usage), an exception raised in the job's own code with no library check named (rule BJ (2)'s unknown),
a launcher's record naming one worker of several (rule A), and for the recompute check the agent's lines tearing the
other workers down after that rank (rule A names it: round 58's stableavatar-57)."""

from __future__ import annotations

import re

from ncclDoctor.diagnose.lone import torn_down
from ncclDoctor.diagnose.reason import Conclusion
from ncclDoctor.diagnose.state import Collected
from ncclDoctor.diagnose.verdict.base import Verdict
from ncclDoctor.diagnose.verdict.launch import _one_error_alone

# torch's norm layers' own input check (_check_input_dim of BatchNorm*d / SyncBatchNorm / InstanceNorm*d): "expected
# at least 3D input (got 2D input)", "expected 4D input (got 3D input)", "expected 2D or 3D input (got 4D input)"
_NORM_INPUT = re.compile(r"^expected (?:at least )?\dD (?:or \dD )?input \(got \dD input\)")
# autograd refusing a backward through an operation it has no derivative for: a double backward (create_graph=True)
# where the op is itself a backward kernel (_DOUBLE_OP), else a plain first-order backward through an op with no
# autograd formula in the installed torch (FP8 _scaled_mm, int4 / int8 packed matmuls)
_NO_DERIVATIVE = re.compile(r"^derivative for (?:aten::)?(?P<op>\w{1,80}) is not implemented")
_DOUBLE_OP = re.compile(r"backward|_elemt$")
# apex's welford kernel refusing a 2-D (N, C) input: "Dimension out of range (expected to be in range of [-2, 1], ...)"
_DIM_RANGE = re.compile(r"^Dimension out of range\b")
# a norm layer refusing an input on the wrong device (torch's SyncBatchNorm: "SyncBatchNorm expected input tensor to
# be on GPU or privateuseone")
_NORM_DEVICE = re.compile(r"\b(?:on GPU|on CUDA|cuda device|CUDA tensor|GPU tensor)", re.IGNORECASE)
# a norm layer's installed module (torch/nn/modules/batchnorm.py, apex's optimized_sync_batchnorm_kernel.py, a
# library's sync_bn.py): the frame the error was raised in
_NORM_FILE = re.compile(r"(?:batch_?norm|sync_?bn)\w{0,40}\.py$", re.IGNORECASE)
_LIB_PATH = re.compile(r"-packages[/\\]|[/\\](?:torch|apex)[/\\]")
_NORM_FIX = (
    "Check the input dimensions of the BN layer the frames name, the same in the model every rank builds: a "
    "SyncBatchNorm given a 2-D (N, C) input (a BatchNorm1d of a projection / classifier head converted to SyncBN) is "
    "refused by apex's SyncBatchNorm and by torch's before 1.4 -- do not convert BatchNorm1d layers to SyncBN "
    "(convert_sync_batchnorm only where input is >=3D, e.g. on the backbone), or unsqueeze the (N, C) features to "
    "(N, C, 1) before SyncBN, or upgrade torch (SyncBatchNorm accepts 2-D input from torch 1.4) and use "
    "torch.nn.SyncBatchNorm / convert_sync_batchnorm instead of apex (or a newer apex); for a plain BatchNorm*d, "
    "use the BatchNorm class that matches the input's dimensions (or plain BN instead of SyncBN, disable syncbn in "
    "the config). Then relaunch.")


_NORM_DEVICE_FIX = (
    "The norm layer was handed an input on a device it does not run on: torch's SyncBatchNorm runs only on GPUs, and "
    "its input (or the model) is still on the CPU. Move the model and each batch to the rank's GPU before the forward "
    "(model.to(device) after torch.cuda.set_device(local_rank); inputs .to(device) / .cuda(local_rank)), and use "
    "SyncBatchNorm only for the multi-GPU CUDA run -- convert_sync_batchnorm only under DDP on CUDA, plain "
    "BatchNorm for a CPU, single-process or eval run (or convert back before CPU inference). Then relaunch.")
_NORM_OTHER_FIX = (
    "Read the norm layer's own check the message quotes: the BN / SyncBatchNorm layer the frames name refused what "
    "it was given in the model every rank builds (its input, its device or dtype, or the settings it was built with: "
    "num_features, process group, momentum). Fix what the message names at that layer -- the input fed to it, the "
    "layer's construction, or plain BatchNorm instead of SyncBatchNorm where the check is SyncBN's own -- then "
    "relaunch.")


def _no_derivative_fix(op: str, double: bool) -> str:
    sync = "batch_norm" in op or "elemt" in op
    if not double:
        return (
            f"autograd has no derivative for {op}: the installed torch has no backward formula for that operation, so "
            "a plain backward (loss.backward()) through the layer using it fails -- an op built for inference or "
            "frozen weights (FP8 _scaled_mm, int4 / int8 packed matmuls, a custom kernel with no autograd formula). "
            "Keep that op out of the trained path: run the layers using it frozen / under torch.no_grad, or use the "
            "library's trainable layer for it (the FP8 / quantisation library's own Linear or autograd.Function, "
            "which defines the backward), or upgrade torch / that library to a release that implements the op's "
            "backward. Then relaunch.")
    return (
        f"autograd has no derivative for {op}: a double backward (a loss built from gradients with create_graph=True:"
        " a gradient penalty, GradNorm, MAML) runs back through a layer whose backward is not differentiable. "
        + ("That op is SyncBatchNorm's backward kernel: replace SyncBatchNorm with BatchNorm (do not "
           "convert_sync_batchnorm the model, or keep the layers the gradient-of-gradients passes through as plain "
           "BN), or avoid create_graph double backward through SyncBatchNorm (take the gradient norm on layers after "
           "the BN, or freeze BN / eval mode for that pass). " if sync else
           "Keep the layer using it out of the double backward (take the gradient on layers that do not pass "
           "through it, or compute that loss without create_graph), or use an equivalent layer whose backward is "
           "differentiable. ")
        + "Then relaunch.")


# torch.utils.checkpoint's own check that the recomputation in backward saved the tensors the forward saved (its
# CheckpointError, from check_recomputed_tensors_match / the non-reentrant pack hooks): "Recomputed values for the
# following tensors have different metadata than during the forward pass", "A different number of tensors was saved
# during the original forward and recomputation", "trying to save more tensors during recomputation than during the
# original forward pass". Not its "Unpack is being triggered for a tensor that was already unpacked once" (a backward
# run twice through one graph: the job's own call order)
_RECOMPUTE_MISMATCH = re.compile(r"^(?:torch\.utils\.checkpoint: )?(?:Recomputed values for the following tensors have "
                                 r"different metadata|A different number of tensors was saved during the original "
                                 r"forward and recomputation|trying to save more tensors during recomputation)")
# the one wording of a recompute that saw an empty shape: a sharded parameter not gathered again (read by recompute_fix
# below and by verdict.unread's _CKPT_RECOMPUTE_FIX, so that the advice is written once)
SHARDED_RECOMPUTE_FIX = ("a recomputed shape torch.Size([0]) is a parameter DeepSpeed ZeRO-3 / FSDP partitioned and "
                         "did not gather again for the recompute: use the gradient checkpointing the sharding "
                         "supports (the model's gradient_checkpointing_enable() under ZeRO-3, DeepSpeed's own "
                         "activation checkpointing, FSDP's checkpoint wrapper), switch use_reentrant (True / False), "
                         "or train with ZeRO stage 2")


# ... its count wordings ("A different number of tensors was saved during the original forward and recomputation",
# "trying to save more tensors during recomputation"): the recomputed blocks saved a different NUMBER of tensors,
# which a fused op's autograd Function does when it saves otherwise on a recompute (xformers' SwiGLU, flash-attn /
# apex fused kernels; round 110's tinyllama-152, the maintainer's fix the plain torch op)
_RECOMPUTE_COUNT = re.compile(r"\bA different number of tensors was saved\b|\btrying to save more tensors during "
                              r"recomputation\b")
RECOMPUTE_COUNT_FIX = (
    "A different number of tensors saved in the recompute is most often a fused kernel in the checkpointed blocks "
    "(xformers' fused SwiGLU, flash-attn's / apex's fused ops) whose autograd Function saves otherwise when "
    "recomputed: replace it with the plain torch op (nn.Linear + F.silu for SwiGLU) in checkpointed blocks, upgrade "
    "xformers / torch to versions whose fused op supports checkpoint recomputation (match torch with the flash-attn / "
    "xformers / Lightning versions the repo pins), switch checkpointing mode (use_reentrant=True / False) for the "
    "wrapped blocks, or disable activation checkpointing to confirm (FSDP's activation_checkpointing_policy). ")


def recompute_fix(message: str = "") -> str:
    """What an expert does about torch.utils.checkpoint's recompute check (_RECOMPUTE_MISMATCH): the checkpointed
    region's forward ran otherwise in backward's recomputation than in the forward; what its listing of saved and
    recomputed metadata says of the cause (one dimension a factor off: the input sharded otherwise; an empty
    recomputed shape: a sharded parameter not gathered)."""
    return (
        (RECOMPUTE_COUNT_FIX if _RECOMPUTE_COUNT.search(message) else "") +
        "torch.utils.checkpoint's recompute check: the checkpointed blocks' forward, recomputed in backward, saved "
        "tensors of other shapes / dtypes than the forward did, so the recomputation did not replay it -- the "
        "same model and settings on every rank. Make it a deterministic forward on recompute: the same inputs, "
        "sharding and code path in the recomputation (no data-dependent or random branches, the same attention "
        "path and dtype / autocast); keep torch.compile out of (or consistently around) the checkpointed blocks "
        "(compile the checkpoint-wrapped module whole, or the blocks inside it, not a mix); debug the recompute "
        "with torch.utils.checkpoint debug=True (torch.utils.checkpoint.set_checkpoint_debug_enabled(True)) to see "
        "which op differs; or disable torch.compile or activation checkpointing for those blocks; and check the "
        "torch / transformers versions (compatible torch / framework versions for FSDP2, compile and activation "
        "checkpointing together). "
        "Read the listing of saved vs recomputed metadata: a recomputed dimension an integer factor off the saved one "
        "(a sequence length halved) is the input sharded otherwise in the recompute -- context / sequence "
        "parallel's sharding: run the checkpointed recomputation under the same context-parallel sharding, or "
        "disable activation checkpointing with context/sequence parallel; "
        + SHARDED_RECOMPUTE_FIX + ". Then relaunch.")


# torch.distributed.pipelining's own code (a pipeline schedule's step, a stage's forward / backward driver; the older
# torch.distributed.pipeline and PiPPy's pippy package alike): the library driving the model's split stages
_PIPELINE_FILE = re.compile(r"[/\\](?:torch[/\\]distributed[/\\]pipelin(?:ing|e)|pippy)[/\\]\w{1,60}\.py$")
_PIPELINE_FIX = (
    "Make each pipeline stage's outputs match what the schedule drives through it: the stage's forward outputs and "
    "the gradients received for them must pair up (same number of tensors) -- return only tensors that require grad "
    "from each pipeline stage (no extra outputs, no None, no integer tensors), and make the stage's forward outputs "
    "match what the next stage takes and returns gradients for; check the stage's output structure and the loss_fn "
    "passed to the schedule (ScheduleGPipe / Schedule1F1B, PipelineStage's input / output args), which the "
    "torch.distributed.pipelining stage_backward / extract_tensors_with_grads path pairs up; rerun with "
    "TORCH_DISTRIBUTED_DEBUG=DETAIL to see the stage's shapes, and upgrade torch (torch.distributed.pipelining fixes) "
    "where the split is right.")


def _pipeline_assert(excs: list, cls: str, message: str | None, said: str, where: str) -> Verdict | None:
    """Lead rules BW (2), CF (3) (round 105's pytorch-129732): a bare assertion (no message) raised in
    torch.distributed.pipelining's own code (_PIPELINE_FILE: its stage_backward driver pairing a stage's outputs with
    their gradients) is the library's check on the structure of the model's stages every rank splits alike: config,
    no rank, nobody innocent, even with one rank's traceback only. Not read so: an assertion with a message (a check
    naming an argument), one raised in the job's own code or in another library's frames. The frame named (and
    gated) is the innermost one the lines show: the input's tail frames where read (innermost first), since the
    frame the assert sits in may be a line no trigger reads (review 105 (3) finding 5: stage_backward in
    _backward.py, not the schedule's _step_microbatches that called it)."""
    tail = excs[-1].data.get("tail_frames") or []
    frame, func = ((str(tail[0][0]), tail[0][1]) if tail else
                   (str(excs[-1].data.get("frame_file") or ""), excs[-1].data.get("frame_func")))
    if cls != "AssertionError" or (message or "").strip() or not _PIPELINE_FILE.search(frame):
        return None
    func = func or "its driver"
    return Verdict(
        "config",
        f"torch.distributed.pipelining's own assertion failed ({said.rstrip(': ')}, {where}; raised under {func} in "
        f"{frame.replace(chr(92), '/').rsplit('/', 1)[-1]}): the pipeline schedule's driver found a stage's outputs "
        "not matching what it pairs them with (its gradients, the next stage's inputs) -- the model's split into "
        "stages and the installed torch, the same on every rank, so the rank shown raising it is no culprit",
        _PIPELINE_FIX, "medium", [], [e.brief() for e in excs[:2]], job_wide=True)


def _layer_check(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule BW (2): every exception shown is one error -- a norm layer's own input check (_NORM_INPUT, or any
    error raised in an installed norm layer's module: _NORM_FILE, apex's welford kernel refusing a 2-D input), or
    autograd's missing derivative (_NO_DERIVATIVE) -- with no NCCL, CUDA, timeout or connection failure and no
    launcher record naming a rank: a property of the model every rank builds alike, config, no rank. The text says
    what was read: input dimensions only for _NORM_INPUT or apex's "Dimension out of range"; a CPU input for a
    device check (_NORM_DEVICE); else the message quoted with a neutral norm-layer fix. A double backward only where
    the op is a backward kernel (_DOUBLE_OP); else the op has no backward at all."""
    one = _one_error_alone(c)
    if one is None or c.child_failures:
        return None
    excs, kind, message = one
    if any(e.data.get(k) for e in excs for k in ("rank_from", "in_handler", "settings")):
        return None
    cls = kind.rpartition(".")[2]
    where = excs[-1].where
    said = f"{kind}: {(message or '')[:200]}"
    if cls == "CheckpointError" and _RECOMPUTE_MISMATCH.match(message or ""):
        if torn_down(c) or any(e.data.get("sent") == "SIGTERM" for e in c.samples.get("signal", [])):
            return None  # the agent tore the others down after this rank: rule A's record of it (stableavatar-57)
        return Verdict(
            "config",
            f"torch.utils.checkpoint's own check failed in backward ({said}, {where}): the activation-checkpointed "
            "blocks' recomputation saved tensors other than their forward did -- the model, its checkpointing and "
            "compile / sharding settings that every rank builds and runs alike, so the rank shown raising it is no "
            "culprit",
            recompute_fix(message or ""), "medium", [], [e.brief() for e in excs[:2]], job_wide=True)
    if (piped := _pipeline_assert(excs, cls, message, said, where)) is not None:
        return piped
    d = _NO_DERIVATIVE.match(message or "")
    frame = str(excs[-1].data.get("frame_file") or "")
    if cls == "RuntimeError" and d is not None:
        op = d.group("op")
        # a double backward only where the op is itself a backward kernel (its derivative is what the second pass
        # needs); a forward op with no derivative fails the first-order pass already -- loss.backward() or
        # autograd.grad, create_graph or not: the op has no backward at all in the installed torch
        double = _DOUBLE_OP.search(op) is not None
        return Verdict(
            "config",
            f"autograd refused to differentiate {op} ({said}, {where}): "
            + ("a backward through the model's layers with create_graph (a gradient of gradients) reaches an "
               "operation torch has no derivative for" if double else
               "a backward through the model's layers reaches an operation the installed torch has no backward "
               "formula for")
            + (" -- SyncBatchNorm's backward kernel" if "batch_norm" in op else "")
            + ": a layer of the model every rank builds and runs alike, the installed torch's own limit, so the rank "
            "shown raising it is no culprit",
            _no_derivative_fix(op, double), "medium", [], [e.brief() for e in excs[:2]], job_wide=True)
    in_norm = bool(frame) and _NORM_FILE.search(frame) is not None and _LIB_PATH.search(frame) is not None
    dims = (cls == "ValueError" and _NORM_INPUT.match(message or "") is not None) or (
        in_norm and cls == "RuntimeError" and _DIM_RANGE.match(message or "") is not None)
    if not (dims or (in_norm and cls in ("RuntimeError", "ValueError", "IndexError"))):
        return None
    device = not dims and _NORM_DEVICE.search(message or "") is not None
    return Verdict(
        "config",
        f"the norm layer's own check refused its input ({said}, {where}"
        + (f"; raised in {frame.replace(chr(92), '/').rsplit('/', 1)[-1]}" if frame else "")
        + "): "
        + ("a batch-norm / SyncBatchNorm layer of the model was handed an input of dimensions it does not accept "
           "(a 2-D (N, C) tensor where SyncBN needs at least 3 dims)" if dims else
           "a SyncBatchNorm layer of the model was handed an input that is not on a GPU (the model or its input "
           "left on the CPU)" if device else
           "a batch-norm / SyncBatchNorm layer of the model refused what it was given, as the message says")
        + " -- a layer of the model every rank builds alike on the same installed library, so the rank shown "
        "raising it is no culprit",
        _NORM_FIX if dims else _NORM_DEVICE_FIX if device else _NORM_OTHER_FIX,
        "medium", [], [e.brief() for e in excs[:2]], job_wide=True)
