"""An installed library's own build or release failing the job the same on every rank (lead rule AF (2)'s shared
install, with rules BB (1), BV (4) and BW (2)): config, no rank, nobody innocent -- untagged, under one rank tag or
under several alike.

``_kernel_unregistered``: a compiled library's own C++ check (its source file and line, "Check failed: ...") finding
no kernel configuration registered for what the job asks of it -- "No registered hparams found for
meta:GemmMeta(dtype=...FP16..., arch=Sm80, ...)" (round 95's flux-121): the library's build has nothing for this GPU
architecture / dtype combination, which every rank shares (rules AF (2), BV (4)'s build for the GPU; rule J for the
ranks failing alike). Not read so: the same check text without the "nothing registered for" words (a C++ check on
the job's own values: read by its own rules), a CUDA or NCCL failure shown beside it.

``_framework_internal``: the one error shown is a plain Python indexing error (IndexError / KeyError, no raise or
assert of the library's own) on the code line of an installed training framework's own runtime, the innermost two
frames shown both inside it -- DeepSpeed's engine / ZeRO optimizer indexing its own bookkeeping
("bucket.buffer[bucket.index]" in stage_1_and_2.py's reduce_ipg_grads: round 95's musetalk-361): the installed
release's code every rank runs alike in the same step, config (rules AF (2), BB (1), BW (2)), its fix the
framework's release and its settings. Not read so: the framework's own raised check (ZeRO-3's "still have inflight
params": rule BJ (2)'s unknown, round 93's ross3d-8), torch's own code indexing what the job's call hands it (round
87's deepspeed-7672: unknown), the job's own frame innermost (round 91's mplug-docowl-82: unknown), a lone rank's
exception with no frames shown (rules BG (4), BJ (2): trl-pr2600), a launcher's record naming a worker (rule A).

``_gpu_arch_unsupported``: the one error shown is a kernel library's own check that the GPU model is too old for it
("FlashAttention only supports Ampere GPUs or newer", "... only supported on GPUs with compute capability of at least
8.0"; round 97's vllm-8189): a property of the GPU model every worker shares, running the same kernel -- config, no
rank, nobody innocent (rules AY (1), BB (1), BW (2)); the worker an engine tore down after it is its consequence. Not
read so: the same words beside an NCCL / CUDA / timeout failure, or several different errors."""

from __future__ import annotations

import re

from ncclDoctor.diagnose.reason import Conclusion
from ncclDoctor.diagnose.state import Collected
from ncclDoctor.diagnose.verdict.base import Verdict
from ncclDoctor.diagnose.verdict.launch import _one_error_alone, _run_failed

# a compiled library's own check ("/mnt/flux/include/flux/op_registry.h:204 Check failed: visit_iter != ...",
# glog / CHECK-macro style): its source file and line, then "Check failed:"
_CPP_CHECK = re.compile(r"^(?P<src>[^\s:]{1,300}\.(?:h|hh|hpp|cc|cpp|cu|cuh|cxx)):\d{1,7}:? Check failed:")
# what that check found: nothing registered for what was asked ("No registered hparams found for meta:GemmMeta(...)",
# "no kernel registered for ...", "No implementation found for ...")
_NOTHING_REGISTERED = re.compile(
    r"\bNo registered [\w ]{1,40} found for\b|\bno (?:kernels?|implementations?|configs?|hparams) (?:registered|found)"
    r" for\b", re.IGNORECASE)
# the GPU architecture and the dtype the asked meta names ("arch=Sm80", "sm_80"; "a=FP16")
_ARCH = re.compile(r"\barch=(\w{1,20})|\b([Ss]m_?\d{2,3}a?)\b")
_DTYPE = re.compile(r"\b(?:a|dtype)=(FP16|BF16|FP32|FP8\w{0,6}|E4M3|E5M2|half|bfloat16|float16)\b", re.IGNORECASE)
# the library a source path belongs to: the folder under include/ or src/ ("/mnt/flux/include/flux/op_registry.h":
# flux), else an installed package's own folder
_SRC_LIB = re.compile(r"(?:^|[/\\])(?:include|src|csrc)[/\\](?P<lib>[A-Za-z][\w-]{0,40})[/\\]")
_PKG_LIB = re.compile(r"[/\\](?:site|dist)-packages[/\\](?P<lib>[A-Za-z][\w-]{0,40})[/\\]")


def _lib_of(src: str) -> str:
    m = _PKG_LIB.search(src) or _SRC_LIB.search(src)
    return m.group("lib") if m else "the library"


def _kernel_unregistered(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Every exception shown is one compiled library's check at one source line (a copy cut short counts: its text a
    start of the whole one), and the whole text says nothing is registered for what the job asked (_NOTHING_REGISTERED),
    with no NCCL, CUDA, timeout or connection failure shown: the library's build lacks this arch / dtype: config."""
    if _run_failed(c):
        return None
    excs = [e for e in c.exceptions if not e.data.get("line")]
    if not excs or any(e.data.get(k) for e in excs for k in ("rank_from", "in_handler", "settings")):
        return None
    said = [str(e.data.get("message") or "") for e in excs]
    heads = [_CPP_CHECK.match(m) for m in said]
    if any(h is None for h in heads) or len({h.group("src") for h in heads if h}) != 1:
        return None
    whole = max(said, key=len)
    if any(not whole.startswith(m) for m in said) or not _NOTHING_REGISTERED.search(whole):
        return None
    lib = _lib_of(heads[0].group("src"))
    a = _ARCH.search(whole)
    arch = (a.group(1) or a.group(2)) if a else ""
    d = _DTYPE.search(whole)
    dtype = d.group(1) if d else ""
    what = ", ".join(x for x in (f"arch={arch}" if arch else "", f"dtype {dtype}" if dtype else "") if x)
    ranks = sorted({e.rank for e in excs if e.rank is not None})
    who = (f"ranks {', '.join(map(str, ranks))} fail alike on it" if len(ranks) >= 2
           else "the process shown raising it is no culprit")
    gemm = "gemm " if "gemm" in whole.lower() else ""  # the op's kind only where the message names it
    return Verdict(
        "config",
        f"{lib}'s own check found nothing registered for what the job asks of it ({excs[0].data['type']}: "
        f"{whole[:160]}, {excs[0].where}): the installed {lib} build has no kernel configuration (its registered "
        f"{gemm}kernels / tuning list) for this {what or 'GPU architecture / dtype'} -- the build and the GPU every "
        f"rank shares, not one rank's fault; {who}",
        f"Use a {lib} build for the GPU architecture the job runs on"
        + (f" ({arch})" if arch else "")
        + f": the {lib} build / version's supported dtype / arch combination has no entry for this config. Rebuild "
        f"{lib} with the arch in its build and tuning list (its arch flags), or register or tune the {gemm}kernel "
        "configuration for this config (the meta the message prints), or run that op on a GPU architecture the "
        f"library supports (its documented targets), or a {gemm}implementation / dtype that it registers for "
        f"this GPU; check the {lib} version's release notes for this architecture's support. Then relaunch.",
        "medium", [], [e.brief() for e in excs[:2]], job_wide=True)


# an installed training framework's own runtime: DeepSpeed's engine, ZeRO optimizers, pipeline engine
_FRAMEWORK_RUNTIME = re.compile(r"[/\\](?:site|dist)-packages[/\\](?P<lib>deepspeed)[/\\]runtime[/\\]")
# a code line indexing state ("bucket.buffer[bucket.index].narrow(...)", "self.averaged_gradients[i]"): an attribute
# subscripted, not a raise or an assert of the framework's own
_STATE_INDEX = re.compile(r"\w\.\w{1,80}\[")
_OWN_CHECK = re.compile(r"^(?:raise|assert)\b")
# a checkpoint being loaded into the engine (load_checkpoint, _load_zero_checkpoint, load_state_dict,
# _restore_base_optimizer_state): a saved state that does not fit the current optimizer / param groups / world size
_CKPT_LOAD = re.compile(r"^_?(?:load|restore)_\w{1,60}$")
# ZeRO's gradient buckets (stage 1/2's independent partition reduce: reduce_ipg_grads, its bucket helpers)
_ZERO_BUCKET = re.compile(r"(?:ipg|bucket)")


def _frames(e) -> list[tuple[str, str, str]]:
    """The innermost frames of the exception's traceback, innermost first: those above the paste's last line
    (parse.input_tail's tail_frames), else the stream's innermost frame and its caller."""
    tf = e.data.get("tail_frames")
    if tf:
        return [tuple(x) for x in tf]
    f = e.data.get("frame_file")
    if not f:
        return []
    out = [(str(f), str(e.data.get("frame_func") or ""), str(e.data.get("frame_code") or ""))]
    if e.data.get("caller_file"):
        out.append((str(e.data["caller_file"]), "", ""))
    return out


def _framework_internal(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """The one error shown (every traceback end says it, nothing else failed) is an IndexError / KeyError raised on a
    code line that indexes state, its innermost two frames inside an installed framework's runtime
    (_FRAMEWORK_RUNTIME), with no launcher record naming a worker: the framework's release, config, no rank."""
    one = _one_error_alone(c)
    if one is None or c.child_failures:
        return None
    excs, kind, message = one
    if kind.rpartition(".")[2] not in ("IndexError", "KeyError"):
        return None
    if any(e.data.get(k) for e in excs for k in ("rank_from", "in_handler", "settings")):
        return None
    fr = next((f for e in excs if len(f := _frames(e)) >= 2), None)
    if fr is None:
        return None
    inner = [_FRAMEWORK_RUNTIME.search(f[0].replace("\\", "/")) for f in fr[:2]]
    code = fr[0][2]
    if any(m is None for m in inner) or not code or _OWN_CHECK.match(code) or not _STATE_INDEX.search(code):
        return None
    lib = inner[0].group("lib")
    where = fr[0][0].replace("\\", "/").rpartition(f"/{lib}/")[2]
    func = fr[0][1]
    # (the framework's own load frames: a user's function named load_* calling the engine is no checkpoint load)
    if any(_CKPT_LOAD.match(f[1] or "") and _FRAMEWORK_RUNTIME.search(f[0].replace("\\", "/")) for f in fr):
        return _checkpoint_mismatch(excs, kind, message, lib, where, func, code)
    bucket = "zero/" in where and any(_ZERO_BUCKET.search(f[1] or "") for f in fr[:2])
    return Verdict(
        "config",
        f"{lib}'s own runtime code raised {kind}: {(message or '')[:160]} ({where}, in {func}: '{code[:120]}', "
        f"{excs[-1].where}): the installed {lib} release indexing its own bookkeeping"
        + (" (ZeRO's gradient buckets / partitions)" if bucket else "")
        + ", code every rank runs alike in the same step, no check of the job's values -- the shared install and its "
        "settings, not one rank's fault; the rank shown raising it is "
        "no culprit",
        f"Check the {lib} version: upgrade or downgrade to a release without this bug in {func} (its issues / "
        "release notes name it), with matching accelerate / DeepSpeed / torch versions"
        + ("; change the ZeRO stage 2 overlap_comm / reduce bucket settings (overlap_comm false, "
           "contiguous_gradients false, another reduce_bucket_size) or the zero stage (1 / 2 / 3) to step around it"
           if bucket else "; change the setting of that part of the engine in the DeepSpeed config to step around it")
        + "; and make sure the loss has a gradient path to the trainable parameters (frozen parameters / "
        "requires_grad consistency on every rank, no parameter left out of the backward; skip bad samples "
        "consistently on every rank). Then relaunch.",
        "medium", [], [e.brief() for e in excs[:2]], job_wide=True)


def _checkpoint_mismatch(excs, kind: str, message: str, lib: str, where: str, func: str, code: str) -> Verdict:
    """The framework's runtime indexing a checkpoint's saved state while loading it (a checkpoint-load frame among the
    innermost): the saved optimizer / param groups / world size do not match the current job's (rule AL (2) / W) --
    a job / config mismatch, fixed at the checkpoint, not the framework's release."""
    return Verdict(
        "config",
        f"{lib} raised {kind}: {(message or '')[:160]} while loading a checkpoint ({where}, in {func}: "
        f"'{code[:120]}', {excs[-1].where}): the saved state (optimizer state, param groups, partitions) does not "
        "match what the current job builds -- another optimizer, ZeRO stage, parameter set or world size than when it "
        "was saved; every rank loads the same checkpoint, not one rank's fault; the rank shown raising it is "
        "no culprit",
        "The checkpoint does not fit the current job: resume with the same optimizer, param groups, ZeRO stage and "
        "world size (number of GPUs) as when it was saved, or load the model weights without the optimizer state "
        "(load_checkpoint(..., load_optimizer_states=False, load_lr_scheduler_states=False), or "
        "load_module_only=True), "
        "or convert the checkpoint (zero_to_fp32.py, universal checkpoint) for a changed world size / stage. "
        "Then relaunch.",
        "medium", [], [e.brief() for e in excs[:2]], job_wide=True)


# A kernel library's own check of the GPU model it runs on ("FlashAttention only supports Ampere GPUs or newer.",
# "Bfloat16 is only supported on GPUs with compute capability of at least 8.0", "... requires a GPU with compute
# capability >= 8.0"): a property of the GPU model, the same for every worker of the job running that kernel
_GPU_GEN_CHECK = re.compile(
    r"\b(?P<lib>[A-Z][\w-]{1,40})?\s?only supports? (?P<gen>Volta|Turing|Ampere|Ada|Hopper|Blackwell) "
    r"(?:\w+ )?GPUs? (?:or newer|or later|and (?:newer|above|later))\b|"
    r"\b(?:only supported on|requires?) (?:an? )?(?:NVIDIA )?GPUs? with (?:a )?compute capability "
    r"(?:of at least |>= ?|>)(?P<cc>\d{1,2}\.\d)\b")


def _gpu_arch_unsupported(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules AY (1), BB (1), BW (2) (round 97's vllm-8189): the one error shown, with nothing else failing, is a
    kernel library's own check that the GPU model is too old for it (_GPU_GEN_CHECK): every worker runs the same
    kernel on the same GPU model, so the shared install / backend choice does not fit the hardware -- config, no
    rank, nobody innocent (a worker the engine tore down after it is its consequence). Not read so: the same words
    beside an NCCL / CUDA / timeout failure (_run_failed), or several different errors."""
    one = _one_error_alone(c)
    if one is None:
        return None
    excs, kind, message = one
    m = _GPU_GEN_CHECK.search(message or "")
    if m is None:
        return None
    lib = m.group("lib") if m.group("lib") and m.group("lib") not in ("It", "This") else ""
    flash = "flash" in (message or "").lower()
    need = (f"an {m.group('gen')} or newer GPU" if m.group("gen") else
            f"a GPU of compute capability {m.group('cc')} or higher")
    return Verdict(
        "config",
        f"{(lib + ' ') if lib else 'a kernel library '}refused the GPU it runs on ({kind}: {(message or '')[:200]}, "
        f"{excs[0].where}): it needs {need}, a property of the GPU model every worker of the job shares -- the "
        "installed kernels / attention backend do not fit this hardware, not one rank's fault",
        f"Run on {need} (Ampere is compute capability 8.0, sm80: A100, A10, RTX 30xx; Turing / Volta -- T4, V100, "
        "RTX 20xx -- are older; nvidia-smi --query-gpu=name,compute_cap --format=csv), or use a code path that "
        "supports this GPU: "
        + ("disable flash attention (attn_implementation='sdpa' / 'eager', use_flash_attention=False), or for "
           "vLLM a non-FlashAttention attention backend (VLLM_ATTENTION_BACKEND=XFORMERS) and dtype float16 on "
           "pre-Ampere GPUs (no bfloat16 there), or a vLLM release that falls back from FlashAttention on older "
           "GPUs. " if flash else
           "the library's non-fused / reference implementation, float16 instead of bfloat16 on pre-Ampere GPUs, or "
           "a release of the library whose kernels support this GPU. ")
        + "Then relaunch.",
        "medium", [], [e.brief() for e in excs[:2]], job_wide=True)
