"""DTensor's sharding propagation and torch.compile's own code refusing what every rank runs alike (lead rules BW (2),
BQ (3), BR (1), BT (2), with BA (3), BB (1), BB (4), J): round 96's pytorch-128699, pytorch-164558 and
distil-whisper-71.

- DTensor's dispatcher finding no sharding strategy registered for an op ("NotImplementedError: Operator
  aten.native_layer_norm_backward.default does not have a sharding strategy registered."): the installed torch's
  DTensor op coverage failing on a layer of the model every rank builds alike -- config, no rank (rule BW (2)).
- DTensor's view / reshape sharding propagation refusing to flatten or split a sharded dimension ("Attempted to
  flatten multiple dimensions, with dimension 1 being sharded. It cannot be performed without redistribution, which
  is disallowed by the current operator."): torch refusing the op's input placement, which every rank of the SPMD
  program issues alike -- invalid_usage, no rank (rule BQ (3)), whichever rank's tag it carries.
- torch.compile's own code calling its own private function with a signature it lacks (Python's TypeError
  "_convert_frame_assert() missing 1 required positional argument: 'hooks'", raised in torch/_dynamo or
  torch/_inductor frames, surfaced as BackendCompilerFailed): the installed torch's DDPOptimizer / backend path
  failing alike on every rank -- config, no rank (rules BR (1), BT (2)).

Not read so: an error beside an NCCL, CUDA, timeout or connection failure (_run_failed), several different errors,
a TypeError raised in the job's own code or naming a public function (the job's own call: its old reading), another
NotImplementedError or RuntimeError of DTensor (their old readings)."""

from __future__ import annotations

import re

from ncclDoctor.diagnose.reason import Conclusion
from ncclDoctor.diagnose.state import Collected
from ncclDoctor.diagnose.verdict.base import Verdict
from ncclDoctor.diagnose.verdict.launch import _one_error_alone, _run_failed

# DTensor's sharding propagation with no strategy for the op (torch/distributed/tensor/_sharding_prop.py)
_NO_STRATEGY = re.compile(r"^Operator (?P<op>aten\.\w{1,120})(?:\.\w{1,40})? does not have a sharding strategy "
                          r"registered")
# DTensor's view ops (torch/distributed/tensor/_ops/_view_ops.py) refusing a reshape over a sharded dimension; the
# message may be a tuple's repr ("('Attempted to flatten ...', 'It cannot be ...')")
_VIEW_REFUSED = re.compile(r"\bAttempted to (?:flatten|split|unflatten)\b[^\n]{0,120}?\bsharded\b|"
                           r"\bcannot be performed without redistribution\b")
# Python's own signature check of a call ("f() missing 1 required positional argument: 'x'", "f() takes 2 positional
# arguments but 3 were given", "f() got an unexpected keyword argument 'x'") naming a private function
_SIGNATURE = re.compile(r"(?:^|raised TypeError: )(?P<func>_\w{1,80})\(\) (?:missing \d{1,3} required (?:positional|"
                        r"keyword-only) arguments?|takes (?:from )?\d{1,3}(?: to \d{1,3})? positional arguments? but|"
                        r"got an unexpected keyword argument)")
_COMPILE_FILE = re.compile(r"[/\\]torch[/\\]_(?:dynamo|inductor)[/\\]")


def _dtensor_refusal(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """DTensor's own refusal, every exception shown one error: no sharding strategy for an op (config) or a view over
    a sharded dimension without redistribution (invalid_usage); no rank either way."""
    one = _one_error_alone(c)
    if one is None or c.child_failures or c.worker_failures:
        return None
    excs, kind, message = one
    if any(e.data.get(k) for e in excs for k in ("rank_from", "in_handler", "settings")):
        return None
    cls = kind.rpartition(".")[2]
    said = f"{kind}: {(message or '')[:200]}"
    proof = [e.brief() for e in excs[:2]]
    if cls == "NotImplementedError" and (m := _NO_STRATEGY.match(message or "")):
        op = m.group("op")
        return Verdict(
            "config",
            f"DTensor's sharding propagation has no strategy for {op} ({said}, {excs[-1].where}): the installed "
            "torch's DTensor op coverage lacks that operator, met by a layer of the model every rank builds and "
            "runs alike under the same placements, so the rank shown raising it is no culprit",
            f"The installed torch's DTensor has no sharding strategy for {op}: upgrade torch to a release that "
            f"registers a DTensor sharding strategy for {op} (newer PyTorch's tensor parallel covers more ops); or "
            "keep the layer using it out of the sharded plan (do not shard it: keep it replicated / outside "
            "parallelize_module, or use the parallel style built for it -- SequenceParallel for norm layers); or "
            "register a sharding strategy for the op (register_sharding), or redistribute to Replicate / convert to "
            "local tensors around that layer (to_local / from_local). Then relaunch.",
            "medium", [], proof, job_wide=True)
    if cls == "RuntimeError" and _VIEW_REFUSED.search(message or ""):
        return Verdict(
            "invalid_usage",
            f"DTensor's sharding propagation refused a view / reshape of a sharded tensor ({said}, "
            f"{excs[-1].where}): the op flattens or splits a dimension that is sharded, which the operator cannot do "
            "without redistributing -- torch refusing the op's input placement, which every rank of the program "
            "issues alike, so the rank shown raising it is no culprit",
            "Redistribute the DTensor (Replicate or shard another dim) before the view/flatten, or full_tensor() "
            "before reshaping; or shard on a dimension the flatten keeps (e.g. Shard(0), the batch dimension, as the "
            "layer's input placement), and avoid flattening a sharded dimension in the parallel plan; or upgrade "
            "torch (view op sharding propagation covers more cases in newer releases). Then relaunch.",
            "medium", [], proof, job_wide=True)
    return None


def _compile_signature(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """torch.compile's own code (a torch/_dynamo or torch/_inductor frame innermost) calling a private function of
    its own with a signature it lacks (Python's TypeError), alone or as BackendCompilerFailed's message: the installed
    torch's compile path failing alike on every rank -- config, no rank."""
    if _run_failed(c) or c.child_failures or c.worker_failures or not c.exceptions:
        return None
    hit = None
    for e in c.exceptions:
        if e.data.get("line"):
            continue
        kind = e.data.get("type") or ""
        message = e.data.get("message") or ""
        cls = kind.rpartition(".")[2]
        if cls == "BackendCompilerFailed" and (m := _SIGNATURE.search(message)):
            hit = hit or (e, m.group("func"))
            continue
        if cls == "TypeError" and (m := _SIGNATURE.match(message)):
            frames = e.data.get("tail_frames") or []
            inner = frames[0][0] if frames else e.data.get("frame_file") or ""
            if _COMPILE_FILE.search(str(inner)):
                hit = (e, m.group("func"))
                continue
        return None  # another error: its own reading
    if hit is None:
        return None
    e, func = hit
    ddp = any("backends/distributed.py" in str(f[0]).replace("\\", "/") or "compile_fn" in str(f[1])
              for x in c.exceptions for f in (x.data.get("tail_frames") or []))
    said = f"{e.data['type']}: {(e.data.get('message') or '')[:200]}"
    return Verdict(
        "config",
        f"torch.compile's own code called its own function {func}() with arguments it does not take ({said}, "
        f"{e.where})"
        + (", in Dynamo's DDPOptimizer backend (backends/distributed.py compile_fn) calling the backend it wraps"
           if ddp else "")
        + ": the installed torch's compile path failing on a call it makes itself, the same on every rank, so no rank "
        "is at fault",
        ("Dynamo's DDPOptimizer splits the graph at DDP's buckets and calls the wrapped backend; in this torch that "
         "call does not match the backend's signature. " if ddp else "")
        + "Upgrade torch to a release where this call is fixed (a matching torch version across torch and the "
        "libraries that compile the model, with one torch.compile, not both the script and the Trainer / accelerate); "
        + ("or set torch._dynamo.config.optimize_ddp=False (no DDPOptimizer); " if ddp else "")
        + "or disable torch.compile for the run; torch._dynamo.config.suppress_errors = True falls back to eager. "
        "Then relaunch.",
        "medium", [], [x.brief() for x in c.exceptions[:2]], job_wide=True)
