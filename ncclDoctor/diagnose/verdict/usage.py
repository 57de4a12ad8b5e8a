"""The API used wrong (invalid_usage): tensor sizes that differ between ranks, a CPU tensor on the nccl
backend, two ranks given one rank number, an invalid argument at init, more processes at a store barrier
than the world size."""

from __future__ import annotations

import re

from ncclDoctor.diagnose import numerics
from ncclDoctor.diagnose.reason import Conclusion
from ncclDoctor.diagnose.signatures import (
    R_CONNECT_FAIL,
    R_DUP_GPU,
    R_NCCL_AT_INIT,
    R_SITE_PACKAGE,
    R_SUBGROUP_SIZE,
    Event,
    strip_prefixes,
)
from ncclDoctor.diagnose.state import Collected
from ncclDoctor.diagnose.verdict import launch as L
from ncclDoctor.diagnose.verdict.base import Verdict, _samples, dup_gpu_beside
from ncclDoctor.diagnose.verdict.noise import harmless_warn

# --- job-wide set-up and transport -----------------------------------------------------
# net_ib's size check: "collective mismatch error, local size N remote size M" (<= 2.2x), 2.27+ "posted
# incorrect receive info: size N" (the peer's posted receive does not fit this send).
_SIZE_MISMATCH = re.compile(r"collective mismatch error|local size \d+ remote size \d+|posted incorrect receive info")


def _size_mismatch(c: Collected) -> Verdict | None:
    """NCCL's net transport (net_ib.cc) found the peer's message size differs from the one this
    rank posted, and returned 5 (ncclInvalidUsage) up its return-code trail."""
    evs = [e for e in c.samples.get("nccl_warn", []) if _SIZE_MISMATCH.search(e.text)]
    if not evs:
        return None
    return Verdict(
        "invalid_usage",
        "NCCL's network transport received a message of another size than this rank posted ('collective "
        "mismatch error', returned as 5 = ncclInvalidUsage): the two sides disagree on the operation, through "
        "different collective sizes or NCCL settings that differ between nodes (protocol, buffer size, version)",
        "Make the NCCL version and every NCCL_* variable the same environment on every node (NCCL_PROTO, "
        "NCCL_ALGO, NCCL_BUFFSIZE: compare `env | grep NCCL_` per node, or ncclDoctor env); then check the "
        "collective sizes with TORCH_DISTRIBUTED_DEBUG=DETAIL.",
        "medium", [], [e.brief() for e in evs[:3]])


# ProcessGroupNCCL's own check of a collective's tensors (check_gpu_single_tensor / checkGPUTensor): "Tensors must
# be CUDA and dense": a tensor on the CPU handed to an NCCL collective -- the caller's code, the same on every rank.
# Newer torch refuses it one layer earlier, in c10d's dispatch by device: "No backend type associated with device type
# cpu" (the default group holds only an NCCL backend, none for CPU tensors) -- the same call and the same mistake.
# A paste that lost the newline after the message glues the next line's dotted name on ("Tensors must be CUDA and
# densetorch.distributed.elastic.multiprocessing.errors.ChildFailedError:", round 72's newsreclib-32): the message
# still ends at "dense" where a module path follows it, not in a longer word ("densely")
# Two processes printing the same message at once interleave it ("RuntimeErrorRuntimeError: : No backend type
# associated with device type cpuNo backend type associated with device type cpu", round 110's fastmoe-202): the
# device's name ends where the other copy's "No backend type" begins
_CPU_TENSOR = re.compile(r"\bTensors? must be CUDA and dense(?:\b|(?=[a-z_]\w{0,30}\.[a-z_]\w{0,30}\.))|"
                         r"\bNo backend type associated with device type cpu(?:\b|(?=No backend type\b))")
# The same dispatch for a device of another kind ("No backend type associated with device type xpu" / "mps" / "hpu"):
# the group was created with no backend for that device (rule AV), whatever rank printed it
_NO_BACKEND = re.compile(r"\bNo backend type associated with device type (\w{1,16}?)(?:\b|(?=No backend type\b))")
# gloo's own check of a call's tensors (ProcessGroupGloo's assertTypeMatch / assertSizesMatch / assertLayoutMatch and
# allgather_coalesced's output check, raised through invalidArgument with the op's name): "ProcessGroupGloo::allgather:
# invalid tensor type at index 0 (expected TensorOptions(dtype=long long, device=cpu, ...), got TensorOptions(dtype=long
# long, device=mps:0, ...))" -- older torch names a type ("expected CPUFloatType, got CUDAFloatType")
_GLOO_ARG = re.compile(r"ProcessGroupGloo::\w{1,40}: invalid (?:tensor (?:type|size|layout)|size of output tensor) at "
                       r"index \d{1,6}(?: \(expected (.{1,300}?), got (.{1,300}))?")
_DEVICE_OF = re.compile(r"\bdevice=([a-z]\w{0,15})|\b(CPU|CUDA|XPU|MPS|HPU)\w{0,20}Type\b")
# The single-tensor collectives' own size and dtype checks (ProcessGroupNCCL's _allgather_base / _reduce_scatter_base,
# gloo's, and the oneCCL / HCCL / other vendors' bindings that copied them): all_gather_into_tensor's "output tensor
# size must be equal to world_size times input tensor size", reduce_scatter_tensor's "input tensor must be the same
# size as output size times world size", and their dtype checks -- the caller's tensors refused before any data moves
_COLL_SIZE = re.compile(r"\boutput tensor size must be equal to world_size times input tensor size\b|"
                        r"\binput tensor must be the same size as output size times world size\b|"
                        r"\boutput tensor must have the same type as input tensor\b|"
                        r"\binput tensor must be the same type as the output tensor\b")
# c10d's own check that a collective's tensors are dense and contiguous (ProcessGroupNCCL/ProcessGroupGloo's
# check_tensor / assertDense: "Tensors must be contiguous"): a transposed, sliced or expanded tensor handed to
# all_gather / broadcast -- the caller's tensor, refused before any data moves (lead rules AV, BA (3); round 74's
# llamafactory-850). c10d's exact words only: the plural, capital "Tensors must be contiguous", not a kernel's own
# "x must be contiguous" of a library's extension.
_NOT_CONTIGUOUS = re.compile(r"(?<![\w.])Tensors must be contiguous\b")
# ProcessGroupNCCL's / gloo's check of a list collective's tensors (check_gpu_tensors_same_device's sibling in
# ProcessGroupNCCL.cpp, "All tensor operands to scatter/gather must have the same number of elements", raised by
# all_gather / gather / scatter when the input tensor and the preallocated output list differ in numel): the caller
# sized the output buffers for one tensor size and handed another (a batch whose size comes from the data, a last
# batch that is short) -- refused before any data moves (lead rules AV, BB (4), BK (1); round 81's insightface-1890)
# torch 1.6's ProcessGroupNCCL says the same check in older words ("All tensor operands to scatter/gather must have the
# same size"; round 88's efficientdet-pytorch-69, apex's SyncBatchNorm gathering per-rank means into a list it built
# for another torch)
_OPERANDS_NUMEL = re.compile(r"\bAll tensor operands to scatter/gather must have the same "
                             r"(?:number of elements|size)\b")


def _refused_texts(c: Collected) -> list[tuple]:
    """The exceptions' messages and the lines announcing a failure that no family read (a framework's logger may
    print the exception behind its own header, "ERROR 09-09 02:24:28 [multiproc_executor.py:522] ValueError: ...")."""
    return [(e, e.data.get("message") or "") for e in c.exceptions] + [(u, u.text) for u in c.unread]


def _cpu_tensor(c: Collected) -> Verdict | None:
    """A collective that ProcessGroupNCCL refused because a tensor was on the CPU: every rank runs the same code, so
    no rank is named (the first to print it is no more at fault than the others): the tensor's device is the fix."""
    # an exception's message, or the line alone where the paste dropped its "RuntimeError: " (an unread failure line:
    # generic.R_FAILURE_WORD; round 72's dgl-7333)
    evs = [e for e, t in _refused_texts(c) if _CPU_TENSOR.search(t)]
    if not evs:
        return _tensor_refused(c)
    return Verdict(
        "invalid_usage",
        "the NCCL process group refused a collective whose tensor is not on the GPU ('Tensors must be CUDA and "
        "dense', or in newer torch 'No backend type associated with device type cpu': a CPU tensor / parameters not "
        "on GPU handed to a group whose only backend is NCCL); the same code runs on every rank, so no rank "
        "is at fault -- a usage error of the caller",
        "Read the traceback: the frame that calls the collective names the tensor (check which parameters/buffers "
        "stay on the CPU before broadcast/all_reduce). Move it to the rank's GPU "
        "(.cuda() / .to(device) after torch.cuda.set_device(local_rank)): move the tensor to the GPU "
        "(tensor.cuda() / to(device)) before the collective, a tensor the code builds itself (a meter's "
        "torch.tensor([sum, count])) created with device=, a metric's states moved with the module (metric.to(device), "
        "the metric registered in the LightningModule's __init__) before its sync; or use a gloo group for CPU "
        "tensors -- use the gloo backend for CPU tensors beside NCCL "
        "(a cpu:gloo,cuda:nccl backend: init_process_group(backend=\"cpu:gloo,cuda:nccl\"), which sends CPU "
        "tensors over gloo and CUDA ones over NCCL); a library's own broadcast or metric sync of CPU tensors can "
        "need the torch / library version it was written for. "
        "Under DeepSpeed ZeRO-3 (zero.Init / partition_parameters broadcasting parameters still on the CPU: a model "
        "built or loaded outside zero.Init, or parameter offload with an engine that does not support it), try "
        "ZeRO-2 (zero2) or another DeepSpeed version, and check that the model is on the GPU before the engine is "
        "created.",
        "medium", [], [e.brief() for e in evs[:3]], job_wide=True)


# what gives a process group a backend for tensors of a device other than the CPU (rule AV's fix, by device)
_DEVICE_FIX = {
    "xpu": "Give the group a backend for XPU tensors: torch >= 2.8 has Intel's XCCL built in "
           "(init_process_group(backend=\"xccl\"), or the device-specific backend 'xpu:xccl' beside gloo: "
           "backend=\"cpu:gloo,xpu:xccl\"), which needs a torch build with XPU distributed support "
           "(torch.distributed.is_xccl_available()); older torch takes the oneCCL bindings (import "
           "oneccl_bindings_for_pytorch, then backend=\"ccl\", the ccl backend). A framework that creates the group "
           "itself (torchtune, accelerate, Lightning) must be told that backend or be a version that knows XPU.",
    "mps": "No torch.distributed backend takes MPS tensors (gloo does not support MPS tensors: CPU ones, and CUDA for "
           "some collectives), so DDP on MPS cannot run: train on a single device (one process on MPS, no DDP), or "
           "run the processes on the CPU (device=cpu / accelerator='cpu': move the model to CPU before wrapping it "
           "in DDP, with device_ids=None).",
    "hpu": "Give the group Habana's backend for HPU tensors: import habana_frameworks.torch.distributed.hccl and "
           "init_process_group(backend=\"hccl\") (a framework that creates the group must be the Habana / "
           "optimum-habana version that does).",
    "npu": "Give the group Ascend's backend for NPU tensors: import torch_npu and init_process_group(backend=\"hccl\") "
           "(a framework that creates the group must be a version that knows NPU).",
    "cuda": "Give the group a backend for CUDA tensors (init_process_group(backend=\"nccl\"), or "
            "backend=\"cpu:gloo,cuda:nccl\" for both), or move the tensor to the device the group's backend serves.",
}


def _tensor_refused(c: Collected) -> Verdict | None:
    """Lead rules Q, AV: c10d (or the backend's own argument check) refusing a collective's tensors before any data
    moves -- a device the group has no backend for ("No backend type associated with device type xpu", gloo's
    "invalid tensor type ... got ... device=mps:0"), or all_gather_into_tensor / reduce_scatter_tensor sizes that
    do not fit the world size. The call is the same code on every rank: invalid_usage, no rank named, whichever
    process printed it; the fix is the device's backend or the tensors' sizes."""
    device = mixed = sized = said = None
    contig = numel = False
    evs = []
    for e, t in _refused_texts(c):
        nb, ga = _NO_BACKEND.search(t), _GLOO_ARG.search(t)
        if nb and nb.group(1) != "cpu":
            device, said = device or nb.group(1), said or nb.group(0)
        elif ga and ga.group(1):
            devs = [(m.group(1) or m.group(2)).lower() for x in ga.group(1, 2)
                    if (m := _DEVICE_OF.search(x))]
            if len(devs) == 2 and devs[0] != devs[1]:
                other = next((d for d in reversed(devs) if d not in ("cpu", "cuda")), None)
                device, said = device or other, said or (ga.group(0)[:200] if other else None)
                mixed = mixed or (None if other else f"{devs[0]} and {devs[1]}")
            else:
                sized = sized or ga.group(0)[:200]
        elif ga or (cs := _COLL_SIZE.search(t)):
            sized = sized or (ga or cs).group(0)[:200]
        elif _NOT_CONTIGUOUS.search(t):
            contig = True
        elif "tensor operands" in t and (om := _OPERANDS_NUMEL.search(t)):
            numel = numel or om.group(0)
        else:
            continue
        evs.append(e)
    if not evs:
        return None
    if device:
        return Verdict(
            "invalid_usage",
            f"the process group refused a collective whose tensor is on '{device}', a device none of the group's "
            f"backends serves ('{said}'): the group was created without a backend for that device -- the same "
            "set-up and code on every rank, so no rank is at fault, a usage error of the caller",
            _DEVICE_FIX.get(device, f"Give the group a backend for {device} tensors (init_process_group(backend="
                            f"\"cpu:gloo,{device}:<its backend>\")), or move the tensors to a device the group's "
                            "backend serves.")
            + " Read the traceback: the frame that calls the collective names the tensor.",
            "medium", [], [e.brief() for e in evs[:3]], job_wide=True)
    if mixed:
        return Verdict(
            "invalid_usage",
            f"gloo refused a collective whose tensors are on two devices ({mixed}: 'invalid tensor type'): one call "
            "mixes tensors of two devices -- the same code on every rank, so no rank is at fault",
            "Read the traceback: the frame that calls the collective names the tensors. Put every tensor of the call "
            "on one device the group's backend serves (.to(device) on the inputs and outputs alike), or give the "
            "group a backend for each device (init_process_group(backend=\"cpu:gloo,cuda:nccl\")).",
            "medium", [], [e.brief() for e in evs[:3]], job_wide=True)
    if numel and not sized and not contig:
        return Verdict(
            "invalid_usage",
            f"the collective refused its tensors before any data moved ('{numel}', c10d's own argument check): the "
            "input tensor and the preallocated output tensors of an all_gather / gather / scatter differ in size -- "
            "buffers sized for one shape and a "
            "tensor of another (a per-rank batch whose size comes from the data, a short last batch); the caller's "
            "tensors, the same code on every rank, so no rank is at fault",
            "Read the traceback: the frame that calls the collective names the tensors. all_gather tensors must have "
            "the same number of elements on every rank and in every output slot: size the output list from the "
            "input itself (torch.empty_like(local) per rank) rather than from a fixed batch size, and keep every "
            "rank's batch the same size -- drop_last=True in the sampler/loader (or the data reader's own "
            "last-batch policy: pad or drop the last partial batch), or pad the tensor to a fixed size before the "
            "call; for tensors whose size legitimately differs per rank, all_gather the sizes first (or use "
            "all_gather_object) and pad to the largest. all_gather output tensors must match the input's size; where "
            "an installed library builds the list (a SyncBatchNorm, a metric or trainer gathering per-rank values), "
            "use the library version written for the installed torch (or the torch it supports; torch's own "
            "torch.nn.SyncBatchNorm instead of a library's) -- the check refused: "
            f"'{numel}'.",
            "medium", [], [e.brief() for e in evs[:3]], job_wide=True)
    if contig and not sized:
        return Verdict(
            "invalid_usage",
            "the collective refused a non-contiguous tensor before any data moved ('Tensors must be contiguous', "
            "c10d's own argument check): a transposed, sliced or expanded tensor handed to all_gather / broadcast "
            "-- the caller's tensor, the same code on every rank, so no rank is at fault",
            "Read the traceback: the frame that calls the collective (all_gather, broadcast, reduce) names the "
            "tensor. Make it contiguous before the call (tensor.contiguous(), for the input and for every output "
            "tensor of the list); where a library gathers it (a trainer's prediction / evaluation loop gathering "
            "logits or labels), update the code -- upgrade the library (transformers, accelerate, deepspeed) to a "
            "version that gathers contiguous tensors, or patch that call; with padded predictions, "
            "per_device_eval_batch_size or a single-process predict avoids the gather.",
            "medium", [], [e.brief() for e in evs[:3]], job_wide=True)
    return Verdict(
        "invalid_usage",
        f"the collective refused the tensors it was handed before any data moved ('{sized}'): their sizes or "
        "dtypes do not fit the call (all_gather_into_tensor's output must hold world_size times the input's "
        "elements, reduce_scatter_tensor's input world_size times the output's, both of one dtype; gloo checks "
        "every tensor of a call against the first) -- the caller's tensors, the same code on every rank, so no "
        "rank is at fault",
        "Read the traceback: the frame that calls the collective names the tensors. Size the output tensor from "
        "the group's own world size (dist.get_world_size(group) x the input's shape; the output tensor shape, not "
        "a size computed for another group), keep input and output one dtype, and where the sizes come from the "
        "data or a split of the model (sequence parallel sp_size, tensor_parallel_size, a batch or max-num-seqs "
        "that the group does not divide), pad the input so it is divisible by the group's size or choose sizes "
        "that are; a plug-in that calls the collective inside a framework needs the plug-in version made for that "
        "framework's version.",
        "medium", [], [e.brief() for e in evs[:3]], job_wide=True)


# The process group's own refusal of a rank given twice, as the set-up call raises it: torch's THD init_process_group
# ("more than one node have assigned same rank at .../THD/process_group/General.cpp:17"), and a "duplicate rank" in
# other words -- the counterpart of NCCL's bootstrap seeing a rank check in twice (warn_families' duplicate_rank)
_DUP_RANK = re.compile(r"more than one (?:node|process|worker|task)s? ha(?:ve|s) (?:been )?assigned (?:the )?same "
                       r"(?:global )?rank|\b[Dd]uplicate (?:global )?ranks?\b")


def _dup_rank(c: Collected) -> Verdict | None:
    """Lead rules Q, W: the process group's creation refusing the launch because two processes registered the same
    rank (an exception or error line saying so, usually under init_process_group's frame): every process was started
    by the same launcher with its rank arguments, so no rank is named, whichever process printed it."""
    evs = [e for e in c.exceptions if _DUP_RANK.search(e.data.get("message") or "")]
    if not evs:
        return None
    return Verdict(
        "invalid_usage",
        f"the process group's creation refused the launch: '{evs[0].data['message'][:160]}' -- two processes were "
        "given the same rank (the rank argument every process is started with, or a launcher and the script both "
        "assigning it), so the group can never form; a launch error every process shares, no rank is at fault",
        "Give every process its own rank and one world size: start the workers with one launcher (torchrun / "
        "torch.distributed.launch set RANK and WORLD_SIZE and pass --local_rank / LOCAL_RANK; a launcher that passes "
        "--rank must pass each process its own) and take init_process_group's rank from it, never a constant or the "
        "local rank on several nodes (global rank = node_rank x processes per node + local_rank); one rank per "
        "process, world_size = the number of processes started; kill leftover processes of an earlier run.",
        "high", [], [e.brief() for e in evs[:2]], job_wide=True)


# NCCL's tuning (enqueue.cc, topoGetAlgoInfo/getAlgoInfo) finding no algorithm and protocol for a call: with
# NCCL_ALGO or NCCL_PROTO set it appends " NCCL_ALGO was set to X." / " NCCL_PROTO was set to Y." and returns
# ncclInvalidUsage (ncclInternalError when neither is set): the forced setting leaves that function no implementation
# (NVLS and CollNet have no Broadcast, Tree no AllGather)
_NO_ALGO = re.compile(r"no algorithm/protocol available for function (\w{1,32}) with datatype (\w{1,32})\.?"
                      r"((?:\s{0,4}NCCL_(?:ALGO|PROTO) was set to [^\s]{1,200}?\.?(?=\s|$))+)")


def _forced_algorithm(c: Collected) -> Verdict | None:
    """Lead rules Q (its last sentence), V, W: NCCL refusing a call because the NCCL_ALGO / NCCL_PROTO the job set
    has no implementation for that function and datatype -- NCCL's own words name the setting. A setting every rank
    shares, not a launch refusal and not a rank: config, no rank."""
    texts = [(e, e.data.get("last_error") or "") for e in c.samples.get("nccl_error", [])]
    texts += [(e, e.data.get("warn") or e.text) for e in c.samples.get("nccl_warn", [])]
    hit = next(((e, m) for e, t in texts if "no algorithm/protocol" in t and (m := _NO_ALGO.search(t))), None)
    if hit is None:
        return None
    e, m = hit
    func, dtype, forced = m.group(1), m.group(2), " ".join(m.group(3).split()).rstrip(".")
    names = sorted(set(re.findall(r"NCCL_(?:ALGO|PROTO)", forced)))
    return Verdict(
        "config",
        f"NCCL found no algorithm/protocol for {func} on {dtype} because {forced}: the forced setting has no "
        f"implementation of {func} (NVLS and CollNet have no Broadcast, Tree no AllGather), so NCCL refuses the call "
        "as invalid usage -- a setting every rank shares, not a rank's fault",
        f"Unset {' and '.join(names)} (let NCCL choose), or scope it to the collective it is meant for with NCCL's "
        "per-function syntax (NCCL_ALGO=\"allreduce:nvls\", \"allreduce:tree\"); find where it was set (the job's "
        "environment, a launcher or container default, a test or library that sets it and does not restore the "
        "environment after it) -- NCCL_DEBUG=INFO prints 'NCCL_ALGO set by environment to ...'.",
        "high", [], [e.brief()], job_wide=True)


# c10d's init_process_group refusing a second default group in one process (distributed_c10d.py: "trying to initialize
# the default process group twice!", a ValueError in torch 1.x-2.x, a RuntimeError before): the process already holds
# one -- a notebook cell run again, or a library's set-up and the script both calling init_process_group
_PG_TWICE = re.compile(r"\btrying to initiali[sz]e the default process group twice\b")


def _pg_twice(c: Collected) -> Verdict | None:
    """Lead rules AV, BA (3): c10d refusing a second init of the default process group in the same process -- a call
    every rank makes alike (the same code, the same notebook), refused before any communicator exists: invalid_usage,
    no rank, whatever a wrapper's retry loop or its own error ("Failed to initialize NCCL") says after it."""
    hit = next(((e, t) for e, t in _refused_texts(c) if "default process group twice" in t and _PG_TWICE.search(t)),
               None)
    if hit is None:
        return None
    e, _ = hit
    return Verdict(
        "invalid_usage",
        f"c10d refused to initialize the default process group twice ('{strip_prefixes(e.text).strip()[:160]}', "
        f"{e.where}): init_process_group was called in a process that already holds a default process group -- the "
        "set-up run a second time in the same Python process (a notebook cell run again, a retry loop, or a library "
        "and the script both initializing it), the same call on every rank, so no rank is at fault",
        "Initialize the process group once per process: guard the call with if not dist.is_initialized(): "
        "dist.init_process_group(...), or call dist.destroy_process_group() before initializing it again; in a "
        "notebook (Jupyter, Colab) restart the runtime / kernel and run the set-up cell once; where a library sets "
        "the group up for you (its own setup / launcher helper), do not call init_process_group yourself too. A "
        "wrapper that retries the init (catching the error and trying again) only repeats the same refusal: the "
        "default process group is already initialized."
        + (_LIGHTNING_PG_TWICE if _lightning_init(e) else ""),
        "high", [], [e.brief()], job_wide=True)


# The refused init called from PyTorch Lightning's own frames (its ddp connection set-up): round 104's
# pytorch-lightning-2133, trainer.test after trainer.fit in one ddp process set the group up a second time in the
# Lightning releases of its time (fixed upstream later, Lightning's "ddp fix for trainer.test()")
_R_LIGHTNING_PKG = re.compile(r"(?:pytorch_lightning|lightning[/\\.]pytorch|lightning_fabric|lightning[/\\.]fabric)"
                              r"[/\\]")
_LIGHTNING_PG_TWICE = (
    " The second init is PyTorch Lightning's own (its ddp set-up, init_ddp_connection / setup_distributed, called "
    "again): older Lightning releases set the group up again when trainer.test ran after trainer.fit in the same "
    "ddp process -- upgrade pytorch-lightning (later releases fixed trainer.test under ddp), or until then run "
    "trainer.test in a separate process / script on the saved checkpoint (or use the ddp_spawn strategy for it); "
    "do not call init_process_group yourself beside Lightning.")


def _frames_said(e) -> str:
    """An exception's caller file and the traceback frames above it (file, function, code line) as one text, for a
    package's or a framework's mark in them (_lightning_init, _under_ray)."""
    return f"{e.data.get('caller_file') or ''} {e.data.get('tail_frames') or ''}"


def _lightning_init(e) -> bool:
    """The refused init_process_group's caller is in Lightning's package (the traceback's frames)."""
    return bool(_R_LIGHTNING_PKG.search(_frames_said(e)))


# torch's symmetric memory rendezvous (CUDASymmetricMemoryAllocator::rendezvous, the buffers of an NVLink all-reduce
# that vLLM / torch's symm_mem exchange at set-up) finding two ranks of one group with their buffers on the same GPU:
# "detected allocations from overlapping devices from different ranks" -- two processes of the group mapped to one
# device (the launch's or an orchestrator's device assignment), refused before any collective: the counterpart of
# NCCL's "Duplicate GPU detected" (lead rule Q), whatever "rendezvous" in its name says of the store
_SYMM_MEM_OVERLAP = re.compile(r"\b\w{0,20}SymmetricMemory\w{0,40}::rendezvous\b[^\n]{0,80}?\boverlapping devices\b|"
                               r"\bdetected allocations from overlapping devices from different ranks\b")


def _symm_mem_overlap(c: Collected) -> Verdict | None:
    """Lead rule Q: torch's symmetric-memory rendezvous refusing two ranks of one group on the same GPU
    (_SYMM_MEM_OVERLAP): the device each process was given, the same launch for every process -- invalid_usage, no
    rank named (an orchestrator's pid or actor prefix is no rank, rule AD (2)), whichever process printed it."""
    hit = next(((e, t) for e, t in _refused_texts(c) if "overlapping devices" in t and _SYMM_MEM_OVERLAP.search(t)),
               None)
    if hit is None:
        return None
    e, t = hit
    return Verdict(
        "invalid_usage",
        f"torch's symmetric memory rendezvous refused the group ('{_SYMM_MEM_OVERLAP.search(t).group(0)[:160]}', "
        f"{e.where}): two ranks of one group hold their buffers on the same GPU (overlapping devices) -- the device "
        "each process was given at launch, the same set-up for every process of the group, so no rank is at fault",
        "Give every rank of the group its own GPU, one GPU per rank: check the device each process sees and sets "
        "(CUDA_VISIBLE_DEVICES, torch.cuda.set_device(local rank); under Ray, the GPUs each actor is given -- "
        "num_gpus per worker and the engines' device mapping, so that the tensor-parallel ranks of one engine are "
        "on different devices, not the same device); until then switch the symmetric memory all-reduce off (vLLM: "
        "VLLM_ALLREDUCE_USE_SYMM_MEM=0, or disable_custom_all_reduce=True), which falls back to NCCL's all-reduce.",
        "medium", [], [e.brief()], job_wide=True)


# A process group's backend refusing a collective it does not implement: c10d's ProcessGroupNCCL before torch 1.11
# ("ProcessGroupNCCL does not support gather" / "... scatter"), ProcessGroupGloo's ("ProcessGroupGloo does not support
# reduce_scatter"), and the Backend base class's default for any op a backend leaves out (Backend.hpp: "Backend nccl
# does not support allgather_into_tensor_coalesced"). group 1: the backend, group 2: the op
# SageMaker's data-parallel backend (smdistributed.dataparallel, "smddp") refuses a reduction operator or collective
# it does not implement in its own words: "SMDDP does not support: ReduceOp" (round 92's pytorch-lightning-20409)
_BACKEND_LACKS = re.compile(r"^(?:\w{1,40}Error: )?(ProcessGroup\w{1,20}|Backend \w{1,20}|SMDDP) does not support:? "
                            r"(\w{1,60})")


# Round 110's backend refusals in c10d's own words, each a call every rank makes alike (lead rules AV, CH (2)):
# ProcessGroupGloo / ProcessGroupMPI before torch 2.x lacking the flat all-gather FSDP and ZeRO call ("no support for
# _allgather_base in Gloo process group", pytorch-74041; "... in MPI process group", pytorch-85628; group 1: the op,
# group 2: the backend)
_PG_NO_SUPPORT = re.compile(r"\bno support for (_?\w{1,40}) in (\w{1,20}) process group\b")
# ProcessGroupNCCL's dtype check (getNcclDataType): a tensor of a dtype the NCCL build cannot carry, BFloat16 before
# NCCL 2.10.3 (gpt-neox-1020, pytorch-lightning-14347); group 1: the dtype
_NCCL_DTYPE = re.compile(r"\bInput tensor data type is not supported for NCCL process group: ?(\w{1,30})")
# torch 2.6's check of a group bound to one device (init_process_group(device_id=...)): a collective on a tensor of
# another device (pytorch-146767)
_NOT_BOUND_DEVICE = re.compile(r"\bAttempt to perform collective on tensor not on device passed to "
                               r"init_process_group\b")


def _backend_refused(c: Collected) -> Verdict | None:
    """Lead rules AV, CH (2) (round 110): a process group refusing a call by what its backend implements -- an op it
    has no support for (_PG_NO_SUPPORT), a dtype its NCCL build cannot carry (_NCCL_DTYPE), a tensor off the device
    the group was bound to (_NOT_BOUND_DEVICE). The call and the build are the same on every rank: invalid_usage, no
    rank named, whichever process printed it. An exception's message or an unread failure line only."""
    for e, t in _refused_texts(c):
        if "no support for" in t and (m := _PG_NO_SUPPORT.search(t)):
            op, backend = m.group(1), m.group(2)
            flat = "allgather_base" in op.lower() or "reduce_scatter_base" in op.lower()
            return Verdict(
                "invalid_usage",
                f"the process group refused the call: '{m.group(0)}' ({e.where}) -- the {backend} process group of "
                f"this torch build does not implement {op}"
                + (" (the flat all-gather / reduce-scatter that FSDP and ZeRO call)" if flat else "")
                + ", so it fails before any data moves; every rank makes the same call on the same build, so no rank "
                "is at fault, a usage error of the caller",
                f"The {backend} backend has no {op} in this torch: "
                + ("use the NCCL backend for FSDP on GPUs (init_process_group('nccl'), or backend='cpu:gloo,"
                   "cuda:nccl' for both), or call dist.all_gather (a list of tensors) instead of _allgather_base / "
                   "all_gather_into_tensor on that backend, or disable the framework option (FSDP / ZeRO) that needs "
                   "the flat all-gather there; " if flat else
                   f"use a backend that implements {op} (nccl for CUDA tensors, gloo for CPU ones) or a collective "
                   f"this backend has; ")
                + f"or upgrade torch to a release whose {backend} process group implements it.",
                "medium", [], [e.brief()], job_wide=True)
        if "NCCL process group" in t and (m := _NCCL_DTYPE.search(t)):
            dtype = m.group(1)
            bf16 = dtype.lower() in ("bfloat16", "bf16")
            return Verdict(
                "invalid_usage",
                f"ProcessGroupNCCL refused a tensor of dtype {dtype} ('{m.group(0)}', {e.where}): the NCCL this "
                "torch was built with cannot carry that dtype"
                + (" (bfloat16 needs NCCL 2.10.3 or later)" if bf16 else "")
                + "; every rank makes the same call with the same build, so no rank is at fault, a usage error",
                ("NCCL carries bfloat16 only from NCCL 2.10.3: check torch.cuda.nccl.version() on every node and "
                 "upgrade to a torch built with NCCL >= 2.10 (BFloat16 support) -- a newer torch wheel or container "
                 "image; or train in fp16 (or fp32) instead of bf16, or cast the tensor to float32/float16 before the "
                 "collective." if bf16 else
                 f"Cast the tensor to a dtype NCCL carries (float32/float16, an integer type) before the collective, "
                 f"or upgrade to a torch built with an NCCL that supports {dtype} (check torch.cuda.nccl.version()), "
                 "or run that collective on a gloo group (CPU tensors)."),
                "medium", [], [e.brief()], job_wide=True)
        if "init_process_group" in t and _NOT_BOUND_DEVICE.search(t):
            return Verdict(
                "invalid_usage",
                f"the process group refused a collective on a tensor that is not on the device the group was bound "
                f"to ('{_NOT_BOUND_DEVICE.search(t).group(0)}', {e.where}: init_process_group's device_id, or the "
                "device torch bound the group to): the same code on every rank, so no rank is at fault, a usage "
                "error of the caller",
                "Move the tensor to the device passed to init_process_group (device_id) before the collective: call "
                "torch.cuda.set_device(local_rank) before creating tensors and modules (a module parallelized or "
                "wrapped before it reaches its device, a DeviceMesh of another device), and pass the correct "
                "device_id to init_process_group (or leave it unset); check that every rank's tensors are on its own "
                "GPU (not cuda:0). Code that ran on an older torch and fails on 2.6 meets its new device check: "
                "upgrade torch (a fixed release) or pin the older one until the code binds its devices.",
                "medium", [], [e.brief()], job_wide=True)
    return None


def _backend_device(backend: str) -> str:
    """Review 107 finding 3: the device a backend's collectives run on, for a barrier's stand-in tensor: CUDA for
    nccl, NPU for hccl (Ascend's torch_npu), CPU for gloo and mpi (and any other)."""
    b = backend.lower()
    return "CUDA" if "nccl" in b else "NPU" if "hccl" in b else "CPU"


def _backend_lacks(c: Collected) -> Verdict | None:
    """Lead rules AV, BA (3), BB (4) (round 69's aadl-pr13): c10d's backend refusing a collective it does not implement
    ('ProcessGroupNCCL does not support gather'): the call and the torch build are the same on every rank, so each
    refuses it alike -- invalid_usage, no rank named, whichever process printed it. Only an exception's own message
    (a warning or a framework's note that mentions a backend is no refusal)."""
    hit = next(((e, m) for e in c.exceptions if "does not support" in (t := e.data.get("message") or "")
                and (m := _BACKEND_LACKS.match(t))), None)
    if hit is None:
        return None
    e, m = hit
    backend, op = m.group(1), m.group(2)
    gather = "gather" in op.lower() or "scatter" in op.lower()
    # point-to-point (send, recv, isend, irecv, recv_anysource): ProcessGroupNCCL has them only since torch 1.7
    # (NCCL 2.7's p2p); before that a pipeline's stages exchange tensors over gloo (round 87's pipedream-14)
    p2p = "nccl" in backend.lower() and op.lower() in ("send", "recv", "isend", "irecv", "recvanysource",
                                                        "recv_anysource")
    if backend == "SMDDP":
        return Verdict(
            "invalid_usage",
            f"SageMaker's data-parallel backend refused the call: '{m.group(0)[:160]}' ({e.where}) -- SMDDP "
            "(smdistributed.dataparallel) implements only some collectives and reduction operators (all_reduce / "
            "allgather with ReduceOp.SUM), and the training code asked it for another; every process makes the same "
            "call on the same backend, so no rank is at fault, a usage error of the caller",
            "SMDDP supports only SUM all_reduce / allgather (and broadcast, barrier): use the backend nccl instead of "
            "smddp (Lightning's DDPStrategy(process_group_backend='nccl'); in the SageMaker estimator distribution="
            "{'torch_distributed': {'enabled': True}} instead of smdistributed's dataparallel), or keep smddp and use "
            "a reduce op supported by SMDDP: ReduceOp.SUM in the all_reduce op (a metric's sync_dist / reduce_op, "
            "sync_dist reduce_fx='mean'/'sum', not max/min).",
            "medium", [], [e.brief()], job_wide=True)
    if p2p:
        return Verdict(
            "invalid_usage",
            f"the process group's backend refused the point-to-point call: '{m.group(0)[:160]}' ({e.where}) -- "
            f"{backend} in this torch build has no {op} (point-to-point), so the call fails before any data moves; "
            "every process makes the same call on the same build, so no rank is at fault, a usage error of the caller",
            f"{backend} does not support {op} in this torch: use the gloo backend for send/recv (the job's backend "
            "setting, e.g. --backend gloo / --distributed_backend gloo, or a dist.new_group(backend=\"gloo\") for the "
            "point-to-point traffic, CPU tensors), or upgrade torch >= 1.7 (ProcessGroupNCCL's send/recv need NCCL "
            "2.7's point-to-point; check the torch version on every node: python -c 'import torch; "
            "print(torch.__version__)').",
            "medium", [], [e.brief()], job_wide=True)
    return Verdict(
        "invalid_usage",
        f"the process group's backend refused the collective: '{m.group(0)[:160]}' ({e.where}) -- {backend} in this "
        f"torch build does not implement {op}, so the call fails before any data moves; the same call on the same "
        "build on every rank, so no rank is at fault, a usage error of the caller",
        f"{backend} does not support {op} in this torch: use a collective the backend implements -- "
        + ("dist.all_gather instead of dist.gather (every rank receives the list; keep the destination's entry), or "
           "all_gather_object / gather_object for Python objects, or scatter via broadcast -- " if gather else "")
        + ("ProcessGroupHCCL is Ascend's backend from the torch_npu plug-in: check the torch_npu version (a release "
           "that implements it, matched to torch) and guard the call where a library makes it on NPU (a trainer's "
           "checkpoint saving); " if "hccl" in backend.lower() else "")
        + ("a barrier the backend lacks: replace dist.barrier() with an all_reduce of a small "
           f"{_backend_device(backend)} tensor (a tensor on the backend's device: CUDA for nccl, NPU for hccl, CPU "
           "for gloo/mpi), "
           if op.lower() == "barrier" else "")
        + f"or run that call on a gloo group (dist.new_group(backend=\"gloo\") with CPU tensors), or use a backend "
        f"that supports {op}, or upgrade torch (install a newer pytorch build, and the backend's plug-in to a release "
        "that implements the call) -- "
        # review 107 finding 3: the torch 1.11 note is gather's and scatter's, no other op's
        + ("upgrade PyTorch: ProcessGroupNCCL implements gather and scatter since torch 1.11 " if gather else
           f"upgrade PyTorch to a release whose {backend} implements {op} ")
        + "(check the torch version on every node; python -c 'import torch; print(torch.__version__)').",
        "medium", [], [e.brief()], job_wide=True)


# c10d's Reducer refusing to be built around a module with no parameter (torch 1.x reducer.cpp's
# "replicas_[0].size() >= 1 ASSERT FAILED ... Expected at least one parameter."): DistributedDataParallel was asked to
# wrap a module that has none (a parameter-free or frozen feature extractor) -- DDP's construction-time check
_REDUCER_NO_PARAM = re.compile(r"\breplicas_\[0\]\.size\(\) >= 1 ASSERT FAILED\b|"
                               r"\bExpected at least one parameter\.? \(Reducer at \S{0,200}reducer\.cpp:\d")


def _reducer_no_param(c: Collected) -> Verdict | None:
    """Lead rules AV, BA (3), BB (4) (round 73's adjudication of ranksrgan-14): c10d's Reducer refusing to be
    constructed around a module with no parameter (_REDUCER_NO_PARAM) is torch refusing an API call by its argument,
    one every rank makes alike: invalid_usage, no rank named. Only an exception's own message; DDP's newer refusal of
    a module with no parameter requiring a gradient is read elsewhere (config where the freezing setting is the
    cause, rule V (1)), and the Reducer's mid-run gradient-reduction errors are rule AW's."""
    hit = next((e for e in c.exceptions if _REDUCER_NO_PARAM.search(e.data.get("message") or "")), None)
    if hit is None:
        return None
    return Verdict(
        "invalid_usage",
        f"DistributedDataParallel's Reducer refused to be built: the module it wraps has no parameters ('Expected at "
        f"least one parameter', {hit.where}) -- DDP was asked to wrap a module with nothing to synchronize (a "
        "parameter-free or frozen feature extractor, a loss module), the same call on every rank, so no rank is at "
        "fault, a usage error of the caller",
        "Do not wrap a module with no parameters (or none that train) in DistributedDataParallel: run the feature "
        "extractor / perceptual-loss network (a VGG feature extractor used for a loss) without DDP -- move it to the "
        "rank's device and call it directly, with requires_grad=False on its weights -- and wrap only the model that "
        "trains. Print sum(p.numel() for p in module.parameters()) before DDP(...) to find the module with none; "
        "upgrade PyTorch for the clearer error ('DistributedDataParallel is not needed when a module doesn't have "
        "any parameter that requires a gradient').",
        "medium", [], [hit.brief()], job_wide=True)


# DistributedDataParallel's constructor refusing its device arguments against where the module's parameters are
# (torch/nn/parallel/distributed.py: "DistributedDataParallel device_ids and output_device arguments only work with
# single-device/multiple-device GPU modules or CPU modules, but got device_ids [0], output_device 0, and module
# parameters {device(type='cpu')}", older torch "... only work with single-device GPU modules ..."; "DistributedData
# Parallel's input module must be on the same type of devices"; "device_ids can only be None or contain a single
# element"): the module is not on the device the arguments name -- refused at construction, before any collective
_DDP_DEVICE_ARGS = re.compile(r"\bDistributedDataParallel device_ids and output_device arguments only work with\b|"
                              r"\bDistributedDataParallel's input module must be on the same type of devices\b|"
                              r"\bdevice_ids can only be None or contain a single element\b")
_MODULE_DEVICES = re.compile(r"module parameters \{([^{}]{1,300})\}")
# one CUDA device in that set: "device(type='cuda', index=1)" (group 1: the index)
_CUDA_INDEX = re.compile(r"type=['\"]cuda['\"], index=(\d{1,3})")


def _ddp_device_args(c: Collected) -> Verdict | None:
    """Lead rules AV, BG (5), BK (1) (round 81's ragatouille-81): DistributedDataParallel's constructor refusing its
    device_ids / output_device for a module whose parameters sit elsewhere (on the CPU, on MPS, on devices of two
    kinds: _DDP_DEVICE_ARGS) is torch refusing an API call by its arguments, code every rank runs alike: invalid_usage,
    no rank named, whichever process printed it. Only an exception's own message or an unread failure line with it;
    DDP's refusal of a module with no parameter requiring a gradient is read elsewhere."""
    hit = next(((e, t) for e, t in _refused_texts(c) if ("device_ids" in t
                or "DistributedDataParallel" in t) and _DDP_DEVICE_ARGS.search(t)), None)
    if hit is None:
        return None
    e, t = hit
    m = _MODULE_DEVICES.search(t)
    where = m.group(1) if m else ""
    on_cpu = "'cpu'" in where or '"cpu"' in where
    # round 110's bitsandbytes-366: the module's parameters on two or more GPUs ("{device(type='cuda', index=0),
    # device(type='cuda', index=1)}") is a model split across GPUs (naive model parallel: device_map='auto' of
    # transformers / accelerate, a pipeline of .to('cuda:1') stages) handed to DDP with one device id
    split = len(set(_CUDA_INDEX.findall(where))) > 1
    return Verdict(
        "invalid_usage",
        "DistributedDataParallel refused its construction arguments ('" + strip_prefixes(t).strip()[:260] + "', "
        f"{e.where}): the device_ids / output_device it was given do not fit where the module's parameters are"
        + (" -- the model is on the CPU (no CUDA device in use: a machine without a CUDA GPU, a CPU-only torch, or "
           "the model never moved) while a GPU index was passed" if on_cpu else "")
        + "; the same construction in the code every rank runs, so no rank is at fault, a usage error of the caller",
        "Match DDP's arguments to the module's device: for a CPU module pass device_ids=None (and output_device=None) "
        "with the gloo backend -- device_ids=None for CPU modules; for GPU training move the model to the rank's GPU "
        "before DDP (model.to(device) / .cuda() after torch.cuda.set_device(local_rank)) and check "
        "torch.cuda.is_available() is True (a CUDA build of torch, CUDA_VISIBLE_DEVICES not empty); a trainer that "
        "assumes CUDA (it passes device_ids=[local_rank] itself) must run on a CUDA GPU, or with one process and no "
        "DDP where there is none (MPS/CPU are not supported by such DDP training)."
        + (" The module's parameters span several GPUs (a model split across GPUs: device_map='auto', naive model "
           "parallel): do not wrap a multi-device (model-parallel) module in DDP with device_ids; pass "
           "device_ids=None -- or load the whole model on one GPU per process (device_map={'': local_rank}) "
           "instead of device_map='auto' (do not use device_map='auto' under torch.distributed.launch / DDP), run "
           "naive model parallel as a single process without DDP, or use FSDP/DeepSpeed to shard a model that does "
           "not fit one GPU." if split else ""),
        "medium", [], [e.brief()], job_wide=True)


# DistributedDataParallel's constructor refusing a keyword argument the job's own frame passes it ("TypeError:
# __init__() got an unexpected keyword argument 'sdevice_ids'", Python 3.10+ "DistributedDataParallel.__init__() got
# ..."): the frame that raised it is the call itself -- the caller's code line building DDP (Python checks the keywords
# at the call) -- so the refused keyword is the caller's, in the code every process runs alike
_DDP_KWARG = re.compile(r"^(?:(?:[\w.]{0,80}\.)?DistributedDataParallel\.)?__init__\(\) got an unexpected keyword "
                        r"argument '(?P<kw>\w{1,80})'")
_DDP_CALL = re.compile(r"\b(?:DistributedDataParallel|DDP)\(")


def _ddp_kwarg(c: Collected) -> Verdict | None:
    """Lead rules BK (1), BL (4)'s last sentence, BG (5) (round 87's ssl-fl-11): DistributedDataParallel's constructor
    refusing a keyword argument (_DDP_KWARG), raised on the job's own code line that builds DDP (the exception's
    innermost frame, outside the installed packages, calls DistributedDataParallel( / DDP( itself) -- or named by the
    message as DDP's own __init__ -- is torch refusing the arguments of a call the job's code makes, the same code in
    every process: invalid_usage, no rank named, even beside a launcher's record of its one worker (rules Q, BA (3),
    BB (4)). A constructor refusal raised by another line (a library's own class, a frame inside site-packages
    building something else) is not read here: rule AF (2)'s version mismatch reads those."""
    hit = next(((e, m) for e in c.exceptions if str(e.data.get("type") or "").endswith("TypeError")
                and "unexpected keyword" in (t := e.data.get("message") or "") and (m := _DDP_KWARG.match(t))
                and ("DistributedDataParallel." in t or _DDP_CALL.search(e.data.get("frame_code") or ""))
                and not R_SITE_PACKAGE.search(e.data.get("frame_file") or "")), None)
    if hit is None:
        return None
    e, m = hit
    kw = m.group("kw")
    return Verdict(
        "invalid_usage",
        f"DistributedDataParallel's constructor refused the keyword argument '{kw}' the job's own code passes it "
        f"({e.data['type']}: {(e.data.get('message') or '')[:200]}, {e.where}): DDP takes no argument of that name -- "
        "a usage error of the caller, made alike by the same code in every process, so no rank is at fault",
        f"Correct the DistributedDataParallel constructor arguments in the line that builds it: '{kw}' is not one of "
        "DDP's parameters (module, device_ids, output_device, dim, broadcast_buffers, process_group, bucket_cap_mb, "
        "find_unused_parameters, gradient_as_bucket_view, static_graph -- the installed torch version's DDP signature "
        "lists them); a misspelt keyword is fixed by its right name, e.g. DistributedDataParallel(model, "
        "device_ids=[local_rank]) for device_ids. Where the keyword is one a newer torch added, upgrade torch or drop "
        "it; then relaunch.",
        "medium", [], [e.brief()], job_wide=True)


# torch.distributed refusing a collective's src / dst that is not a member of the group the call runs on
# (distributed_c10d.py's _get_group_rank: "The global rank 0 is not part of the group <...ProcessGroupNCCL object at
# ...>"; newer torch's get_group_rank: "Global rank 0 is not part of group ..."): broadcast / reduce / send take src and
# dst as global ranks, and the caller passed one outside the sub-group
_SRC_NOT_IN_GROUP = re.compile(r"\b(?:The )?[Gg]lobal rank \d{1,7} is not part of (?:the )?group\b")


def _src_not_in_group(c: Collected) -> Verdict | None:
    """Lead rules AV, BA (3), BB (4) (round 87's fastmoe-119): torch.distributed's own check that a collective's src /
    dst (a global rank) belongs to the group it is called on (_SRC_NOT_IN_GROUP) is torch refusing the arguments of a
    call the job's (or its library's) code makes -- on every process of a sub-group that does not hold that rank,
    alike: invalid_usage, no rank named from an untagged traceback (rule AC (1)). Only an exception's own message; a
    process that is not a member calling a collective on the group (torch returns quietly or warns) is not this."""
    hit = next((e for e in c.exceptions if "part of" in (t := e.data.get("message") or "")
                and _SRC_NOT_IN_GROUP.search(t)), None)
    if hit is None:
        return None
    said = (hit.data.get("message") or "").strip()[:200]
    return Verdict(
        "invalid_usage",
        f"torch.distributed refused a collective's source / destination rank ({hit.data['type']}: {said}, "
        f"{hit.where}): src / dst are global ranks, and the one passed is not a member of the process group the call "
        "runs on (a sub-group made with new_group) -- the caller's arguments, the same code on every process of that "
        "group, so no rank is at fault, a usage error of the caller",
        "Pass a global rank in the group as src (or dst): the group's own first member, "
        "torch.distributed.get_global_rank(group, 0) (or the first entry of the ranks list the group was made with, "
        "dist.get_process_group_ranks(group)), not 0, which is the group-local index; newer torch takes group_src= / "
        "group_dst= for a group-local rank. Where a library makes the call (its DDP wrapper's parameter sync over a "
        "sub-group), use the library version written for the installed torch (or the torch version it supports), or "
        "fix group construction so every group the call runs on holds its src.",
        "medium", [], [hit.brief()], job_wide=True)


# torch.distributed's own check that a point-to-point call's peer is not the calling process (distributed_c10d.py's
# _check_not_self_rank, under send / recv / isend / irecv / P2POp: "Invalid destination rank: destination rank should
# not be the same as the rank of the current process.", "Invalid source rank: source rank ..."), wherever the lines show
# it: the exception's own message, or a framework's own error log quoting it (xDiT's "[Rank 0] ... - ERROR - Error
# processing request ...: Invalid destination rank: ...")
_SELF_PEER = re.compile(r"\bInvalid (destination|source) rank: \1 rank should not be the same as the rank of the "
                        r"current process\b")


def _self_peer(c: Collected) -> Verdict | None:
    """Lead rules AV, BA (3), BB (4) (round 96's xdit-373): torch.distributed refusing a send / recv whose peer is
    the calling rank itself (_SELF_PEER) is torch refusing the arguments of a call the job's code makes alike on
    every run -- a send to rank 0 from rank 0 where the last group of a pipeline / data-parallel layout is the sender
    itself (one GPU, a world of one): invalid_usage, no rank named (a framework's '[Rank 0]' tag is no failure record,
    rule AG). Only torch's own text, in an exception or a logged error line that quotes it."""
    texts = [(e, e.data.get("message") or e.text) for e in c.exceptions] + [(u, u.text) for u in c.unread]
    hit = next(((e, m) for e, t in texts if "should not be the same" in t and (m := _SELF_PEER.search(t))), None)
    if hit is None:
        return None
    e, m = hit
    peer, call = m.group(1), ("send" if m.group(1) == "destination" else "recv")
    to = "to" if call == "send" else "from"
    said = (e.data.get("message") or e.text).strip()[:240]
    return Verdict(
        "invalid_usage",
        f"torch.distributed refused a point-to-point {call} whose {peer} rank is the calling process itself ('{said}', "
        f"{e.where}): torch checks that dst (src) differs from the sender's own rank -- the job's code called "
        f"dist.{call} {to} itself, the same code on every run (a layout whose last group is the sending rank: a world "
        "of one GPU, one pipeline / data-parallel degree), so no rank is at fault, a usage error of the caller",
        f"Do not {call} {to} your own rank (do not send to self): guard the point-to-point {call} so it runs only "
        f"when the peer differs from dist.get_rank() (dst != rank, src != rank) -- on the rank that would {call} {to} "
        "itself use the tensor directly "
        "(return the output directly on rank 0 instead of dist.send(dst=0)), and skip the exchange when "
        "world_size == 1 (guard the send/recv of the output with world_size > 1). Check the framework's parallel "
        "degrees (pipeline, data-parallel, ring / pipefusion) against the world size the job was launched with: a "
        "layout that needs more than one GPU run on one makes the destination rank the sender.",
        "medium", [], [e.brief()], job_wide=True)


# torch.distributed's new_group refusing a ranks list that names a rank outside the world the job was started with
# (distributed_c10d.py's new_group: "The new group's rank should be within the the world_size set by
# init_process_group", torch's own doubled "the"): a group -- or a DeviceMesh / parallel layout building one -- laid out
# for more processes than were launched
_NEW_GROUP_OUTSIDE = re.compile(r"\bnew group's rank should be within the (?:the )?world_size\b")


def _new_group_outside(c: Collected) -> Verdict | None:
    """Lead rules AV, BA (3), BB (4), BL (4) (round 88's colossalai-2910): torch's own check in new_group that every
    rank of the new group is within the world (_NEW_GROUP_OUTSIDE) is torch refusing the arguments of a call the
    job's code (or its framework's mesh) makes alike on every process: invalid_usage, no rank named, nobody shown
    stuck. Only an exception's own message."""
    hit = next((e for e in c.exceptions if "world_size" in (t := e.data.get("message") or "")
                and _NEW_GROUP_OUTSIDE.search(t)), None)
    if hit is None:
        return None
    said = (hit.data.get("message") or "").strip()[:200]
    return Verdict(
        "invalid_usage",
        f"torch.distributed's new_group refused its ranks ({hit.data['type']}: {said}, {hit.where}): the ranks list "
        "names a rank at or above the world size the job was started with -- a group (or a device mesh / parallel "
        "layout that builds its groups: a physical_mesh_id, mesh_shape, tensor / pipeline parallel sizes) laid out "
        "for more processes than were launched; the same code on every process, so no rank is at fault, a usage "
        "error of the caller",
        "Keep new_group ranks within world size: launch as many processes as the groups / mesh name (torchrun "
        "--nproc_per_node = the number of GPUs the layout needs, world_size = nnodes x nproc_per_node), or shrink "
        "the layout to the world launched (a DeviceMesh's physical_mesh_id / mesh_shape, the parallel sizes, built "
        "from dist.get_world_size() rather than hard-coded ranks).",
        "medium", [], [hit.brief()], job_wide=True)


# torch's Python argument parser refusing a torch.distributed collective's arguments by their types (torch 0.x-1.x's
# "TypeError: all_reduce received an invalid combination of arguments - got (tuple, object, object), but expected
# (tensor in_out, reduce_op op, group gr)", the C binding _dist_all_reduce under it): the call passed something that is
# not a tensor (a tuple such as torch.max(dim)'s (values, indices), a list, a number). group fn: the collective, got:
# the argument types passed
_COLL_ARG_TYPES = re.compile(r"^(?:torch\._C\.)?(?P<fn>_?(?:dist_)?(?:all_reduce|all_gather|broadcast|reduce|gather|"
                             r"scatter|reduce_scatter|all_to_all|send|recv|isend|irecv|barrier)\w{0,24}) received an "
                             r"invalid combination of arguments - got \((?P<got>[^()\n]{0,200})\)")


def _collective_arg_types(c: Collected) -> Verdict | None:
    """Lead rules BK (1), BL (4), BB (4) (round 88's heat-64): torch refusing a collective's arguments by their types
    (_COLL_ARG_TYPES, torch's own parser raising TypeError before any data moves) is torch refusing a call the job's
    code makes -- the same code on every process: invalid_usage, no rank named. Only a collective's name; another
    torch function's "received an invalid combination of arguments" (a tensor op's) is not read here."""
    hit = next(((e, m) for e in c.exceptions if "invalid combination" in (t := e.data.get("message") or "")
                and (m := _COLL_ARG_TYPES.match(t.strip()))), None)
    if hit is None:
        return None
    e, m = hit
    fn, got = m.group("fn"), m.group("got").strip()
    tup = got.split(",", 1)[0].strip() in ("tuple", "list")
    return Verdict(
        "invalid_usage",
        f"torch refused the arguments of the collective {fn} by their types ({e.data['type']}: "
        f"{(e.data.get('message') or '')[:200]}, {e.where}): it was handed ({got}) where its signature takes a "
        "tensor first -- the caller's arguments, the same code on every process, so no rank is at fault, a usage "
        "error of the caller",
        f"Match the torch.distributed API signature (tensor, op, group): pass {fn} a tensor, not "
        + ("a tuple -- a function returning (values, indices), such as torch.max / torch.min / torch.topk along a "
           "dim, gives a tuple: take the values (result[0] or result.values) before the call" if tup else
           "a Python object -- wrap a number in a tensor on the group's device, and use the *_object collectives "
           "(all_gather_object, broadcast_object_list) for Python objects")
        + "; check the argument types and order against the installed torch's documentation of that call (older "
        "torch takes op and group positionally), then relaunch.",
        "medium", [], [e.brief()], job_wide=True)


# torch's DeviceMesh refusing the arguments of init_device_mesh / DeviceMesh(...) by their own consistency
# (torch/distributed/device_mesh.py: "mesh_shape and mesh_dim_names should have same length!", printed with "Found
# len(mesh_dim_names): 4 and len(mesh_shape):1."; "Each mesh_dim_name must be unique."): the call is refused before any
# process group is made, the same call from the same code on every rank. A mesh that does not fit the processes
# launched (its size against the world size) is the launch's, not this.
_MESH_ARGS = re.compile(r"\bmesh_shape and mesh_dim_names should have (?:the )?same length\b|"
                        r"\bEach mesh_dim_name must be unique\b")


def _device_mesh_args(c: Collected) -> Verdict | None:
    """Lead rules AV, BA (3), BB (4) (round 76's rl2-pr9): torch's own argument check of init_device_mesh refusing
    the call (mesh_shape and mesh_dim_names of different lengths, repeated names: _MESH_ARGS) is torch refusing an API
    call by its arguments, one every rank makes alike from the same code: invalid_usage, no rank named, whichever
    process printed it. Only an exception's own message."""
    hit = next((e for e in c.exceptions if "mesh_dim_name" in (t := e.data.get("message") or "")
                and _MESH_ARGS.search(t)), None)
    if hit is None:
        return None
    said = hit.data["message"].strip()[:200]
    return Verdict(
        "invalid_usage",
        f"torch's init_device_mesh refused its arguments ({hit.data['type']}: {said}, {hit.where}): the mesh_shape "
        "and the mesh_dim_names given do not describe one mesh (one name per mesh dimension, each name once) -- the "
        "device mesh construction in the code every rank runs alike, refused before any process group exists, so no "
        "rank is at fault, a usage error of the caller",
        "Fix the device mesh construction in the trainer code: give init_device_mesh(device_type, mesh_shape, "
        "mesh_dim_names=...) one mesh dimension per name -- mesh_shape and mesh_dim_names of the same length (a 1-D "
        "mesh_shape=(world_size,) takes one name; for dp x sp x tp give all three sizes, their product the world "
        "size) and unique names; print both before the call to see what the config's parallel sizes built, and check "
        "the code was written for this torch version's init_device_mesh.",
        "high", [], [hit.brief()], job_wide=True)


# torch.distributed's own checks refusing how the job's code uses a DeviceMesh, a DTensor or a process group's backend
# string, by their messages (torch's own words, whichever rank printed them): what each refuses and the remedy an
# expert names for it. Each is a call the same code makes alike on every rank (lead rules BA (3), BB (4), BQ (3)):
# - DeviceMesh slicing (device_mesh.py's _get_slice_mesh_dims / __getitem__): "Cannot create a submesh from a
#   submesh." -- a mesh dimension sliced out of a mesh that is itself a slice; "Cannot slice a DeviceMesh without
#   mesh_dim_names" -- a mesh made without names sliced by name (round 90's cache-dit-784); "Invalid mesh_dim_names
#   ('dp', 'cp') specified. Valid mesh_dim_names are [...]" and __getitem__'s "Mesh dimension 'ep' does not exist."
#   -- a name (or a tuple of names) the mesh was not built with (round 105's automodel-367, torchtitan-1396). A bare
#   KeyError of a name (a dict's lookup) is not this.
# - DeviceMesh.get_group() with no mesh_dim on a mesh of several dimensions ("Found the DeviceMesh have 2 dimensions",
#   "Optional kwarg `mesh_dim` needs to be specified when device_mesh.ndim > 1"): a 2-D (HSDP) mesh asked for one
#   group (round 107's skyrl-pr554)
# - DTensor's dispatch (tensor/_dispatch.py: "found no DeviceMesh from dtensor args for c10d.broadcast_.default!") --
#   a plain c10d collective handed DTensor parameters, a tensor-parallel model broadcast by DDP's or DeepSpeed's
#   wrapper (round 105's pytorch-150401); the same text for an aten op is not read here
# - DTensor's dispatch (tensor/_dispatch.py): "aten.mm.default: got mixed torch.Tensor and DTensor, need to convert
#   all torch.Tensor to DTensor before calling distributed operators!" -- an op given a sharded DTensor beside a plain
#   local tensor (round 90's torchtune-2856)
# - c10d's lookup of a backend plugin by its name (distributed_c10d.py's split_group / new_group: "Unknown c10d backend
#   type CUDA:NCCL"): a device:backend mapping string ("cuda:nccl", "cpu:gloo,cuda:nccl"), which init_process_group
#   takes, handed on where only a plain backend name is looked up (round 90's pytorch-159200). A plain unknown name
#   ("Unknown c10d backend type HCCL": a plugin not imported or not installed) is not read here.
_MESH_REFUSALS = (
    (re.compile(r"\bCannot create a submesh from a submesh\b|\bCannot slice a DeviceMesh without mesh_dim_names\b"),
     "torch's DeviceMesh refused a slice",
     "the code slices a mesh dimension out of a DeviceMesh that cannot give it (a mesh that is itself a slice of "
     "another -- a context parallel mesh taken from a submesh when tensor parallel and context parallel are combined "
     "-- or a mesh made without mesh_dim_names)",
     "Slice from the root mesh: take every submesh (mesh['ring'], mesh['tp'], mesh['dp']) from the root DeviceMesh "
     "that init_device_mesh with named dims returned, not from a submesh, and join dimensions with the root mesh's "
     "_flatten; where a library slices the mesh it was handed (a context parallel / ParallelConfig setup that "
     "combines tensor parallel with context parallel), pass it the root mesh or use matching torch and library "
     "versions (upgrade torch where the library needs a newer DeviceMesh that allows it)."),
    (re.compile(r"\bInvalid mesh_dim_names \([^()\n]{0,200}\) specified\b|\bMesh dimension '[^'\n]{1,80}' does not "
                r"exist\b"),
     "torch's DeviceMesh refused a slice by a dimension name it does not have",
     "the code slices the mesh by a mesh dimension name (or a tuple of names) that the DeviceMesh was not built "
     "with -- the names the mesh has are the ones its message lists",
     "Slice only mesh dims that exist: use the mesh_dim_names the DeviceMesh was built with (init_device_mesh with "
     "named dims), or _flatten the dims first (mesh[('dp_replicate', 'dp_shard')]._flatten('dp')) and slice the "
     "flattened name; the parallel sizes in the config (data_parallel_shard_degree, tensor_parallel_degree, "
     "context_parallel_degree, expert_parallel_degree) decide which dims a framework builds, so set them as the "
     "model code expects (or disable the parallelism whose dim is missing), and use matching torch and framework "
     "versions (the framework's mesh code written for the installed torch)."),
    (re.compile(r"\bFound the DeviceMesh have \d+ dimensions\b|\bOptional kwarg `mesh_dim` needs to be specified "
                r"when device_mesh\.ndim > 1"),
     "torch's DeviceMesh refused get_group() without a mesh dimension",
     "the code asks a DeviceMesh of more than one dimension (a 2-D HSDP mesh: replicate x shard) for its one process "
     "group, get_group() with no mesh_dim, which only a 1-D mesh can give",
     "Pass mesh_dim to device_mesh.get_group() on a mesh of more than one dimension: get_group(mesh_dim=...) by "
     "index or name, or select the sub-mesh first (mesh['dp'].get_group()); to have every group use get_all_groups(); "
     "for a collective over all ranks (a state-dict broadcast) use the default process group instead of the mesh's "
     "group, or use a 1-D DeviceMesh where a single group is expected (FSDP without HSDP)."),
    (re.compile(r"\bfound no DeviceMesh from dtensor args for c10d\."),
     "torch's DTensor dispatch refused a c10d collective",
     "a plain c10d collective (a wrapper's start-up broadcast of the model's parameters under DDP or DeepSpeed, an "
     "all_reduce in the job's code) was handed DTensors -- parameters sharded by tensor parallel (a model loaded "
     "with tp_plan) -- and DTensor's dispatch found no DeviceMesh for it",
     "Do not broadcast / DDP-wrap a DTensor (tp_plan) model with plain c10d calls: load the model without "
     "device_map/tp_plan before accelerator.prepare when DeepSpeed or DDP wraps it (do not combine tensor parallel "
     "with DDP), or convert DTensor to a local/full tensor (to_local(), full_tensor()) before the collective; use "
     "matching torch / transformers / accelerate versions (a transformers release that enables tensor parallel by "
     "itself under torchrun)."),
    (re.compile(r"\bgot mixed torch\.Tensor and DTensor\b"),
     "torch's DTensor dispatch refused an op",
     "an operator was given a DTensor (a parameter sharded by fully_shard / tensor parallel) beside a plain "
     "torch.Tensor, which DTensor's dispatch does not mix",
     "Convert torch.Tensor to DTensor before the op: DTensor.from_local(t, mesh, placements) or distribute_tensor for "
     "the plain tensor, or full_tensor() on the DTensor (e.g. full_tensor() on a sharded output / lm head weight "
     "before the loss) so both sides are plain tensors; check the tensor-parallel plan for the output/loss layer and "
     "that the library's recipe matches the installed torch (matching library and torch versions)."),
    (re.compile(r"\bUnknown c10d backend type (?:[A-Za-z]{1,12}:[A-Za-z]{1,12}(?:,[A-Za-z]{1,12}:[A-Za-z]{1,12})"
                r"{0,3})"),
     "torch.distributed refused a backend string",
     "the process group's backend was given as a device:backend mapping, which init_process_group accepts but the "
     "group split from it (split_group / new_group, as init_device_mesh makes for each mesh dimension) looks up as "
     "one backend plugin name and does not find",
     'Pass a plain backend string: init_process_group(backend="nccl") instead of "cuda:nccl" (and device_id= for the '
     "rank's GPU) before init_device_mesh / split_group; or upgrade torch to a version whose split_group accepts "
     "the device-to-backend mapping, or build the sub-groups with new_group instead of split_group."),
)


# a rank's own lines that show it running on (its steps, a collective it printed or traced): _mesh_refused
_ALIVE_KINDS = ("step_took", "driver_step", "coll_trace", "coll_print")


def _mesh_refused(c: Collected) -> Verdict | None:
    """Lead rules BA (3), BB (4), BQ (3) (round 90's cache-dit-784, torchtune-2856, pytorch-159200; round 105's
    automodel-367, torchtitan-1396, pytorch-150401): an exception's
    own message that is one of torch.distributed's checks on how a DeviceMesh, a DTensor or a backend string is used
    (_MESH_REFUSALS) is torch refusing a call that the same code makes alike on every rank: invalid_usage, no rank
    named, whichever rank printed it, and a rank whose traceback is cut in the same code is no second failure (rule
    AN (1)). Only an exception's own message; a plain backend name unknown (a plugin's install) is not read here.
    Not read so where another rank is shown alive or waiting past that point -- a watchdog timeout or status line,
    a collective it is inside, its steps going on -- (review 105 (3) finding 2): those ranks got past the same call,
    so the code was not alike everywhere and the raising rank is rule A's first failure (the start's reading
    stands); one rank's traceback alone keeps this reading."""
    raisers = {e.rank for e in c.exceptions if any(rx.search(e.data.get("message") or "") for rx, *_ in
                                                   _MESH_REFUSALS)}
    if raisers and any(st.timeouts or st.status or any(st.counts.get(k) for k in _ALIVE_KINDS)
                       for r, st in c.ranks.items() if r not in raisers):
        return None
    for e in c.exceptions:
        t = e.data.get("message") or ""
        for rx, who, what, fix in _MESH_REFUSALS:
            if rx.search(t) is not None:
                return Verdict(
                    "invalid_usage",
                    f"{who} ({e.data['type']}: {t.strip()[:200]}, {e.where}): {what} -- the same code on every "
                    "rank, so no rank is at fault, a usage error of the caller",
                    fix, "medium", [], [e.brief()], job_wide=True)
    return None


# torch's own checks refusing a call the job's code makes alike on every rank, by torch's own message (lead rules AV,
# BA (3), BB (4), BQ (3); round 107's adjudication, rule CH):
# - c10d's new_subgroups ("The arg 'group_size' (8) must not exceed the world size (2)"; "The world size (6) must be
#   divisible by 'group_size=4'"): the subgroup size asked for does not fit the world -- FSDP's HYBRID_SHARD builds
#   its intra-node groups with new_subgroups(the node's GPU count) when no device_mesh is given (round 107's
#   instructlab-training-678). torch's words, not a framework's settings check (rule W's config).
# - torch refusing an in-place write into an inference tensor, raised inside torch.distributed's own collective
#   (the last frame is distributed_c10d.py: a broadcast / broadcast_object_list writing into a tensor made under
#   torch.inference_mode): how the collective is called (round 107's vllm-1968). The same error in the model's own
#   code (no c10d frame last) is not read here.
# - torch RPC's TensorPipe agent refusing a CUDA tensor with no device map for its destination ("TensorPipe RPC
#   backend only supports CPU tensors by default ... call `set_device_map` on `TensorPipeRpcBackendOptions`"): a call
#   refused by its tensor's device (rule CH (3), round 107's pytorch-54560)
_CALL_REFUSALS = (
    (R_SUBGROUP_SIZE, None,
     "torch's new_subgroups refused its group_size",
     "dist.new_subgroups was asked for subgroups of a size the world cannot hold (FSDP's HYBRID_SHARD without a "
     "device_mesh asks for one group per node of the node's GPU count, larger than the processes launched)",
     "The group_size must not exceed world size (and divide it): pass an explicit device_mesh to FSDP for HYBRID_SHARD "
     "(init_device_mesh with mesh_shape (replicas, nproc_per_node)), or launch one process per visible GPU "
     "(--nproc_per_node equal to the GPUs on the node) with CUDA_VISIBLE_DEVICES limited to the GPUs used, or use "
     "FULL_SHARD instead of HYBRID_SHARD on a partial node; where the job calls new_subgroups itself, give it a "
     "group_size that divides the world size."),
    (re.compile(r"\bInplace update to inference tensor outside InferenceMode\b"), re.compile(r"distributed_c10d\.py$"),
     "torch refused a collective's in-place write into an inference tensor",
     "torch.distributed's collective writes into the tensor it is handed (a broadcast, broadcast_object_list's size "
     "tensor), and that tensor was made under torch.inference_mode while the call runs outside it",
     "Inplace update to inference tensor outside InferenceMode is refused: run the collective (broadcast_object_list "
     "/ broadcast) inside the same torch.inference_mode on every worker, or use torch.no_grad instead of "
     "inference_mode around the code that makes the tensors, or clone the inference tensor before the in-place "
     "broadcast; inference mode is thread-local (a call from another thread runs outside it); upgrade the serving "
     "library (and the torch version it pins) where its workers do this."),
    (re.compile(r"\bTensorPipe RPC backend only supports CPU tensors\b|\b(?:Request|Response) device mapping is not "
                r"available for destination\b"), None,
     "torch RPC's TensorPipe backend refused a CUDA tensor",
     "an RPC (a remote call, an RRef's value, its response) carries a CUDA tensor to a worker for which no device map "
     "is set, and TensorPipe sends only CPU tensors without one",
     "Call set_device_map on TensorPipeRpcBackendOptions for the destination worker (keyed by the peer's name: "
     "options.set_device_map(\"worker1\", {0: 1}); configure device maps both ways, request and response, between "
     "the workers), or move tensors to CPU before sending them over RPC (.cpu()) and return CPU tensors from the "
     "remote function."),
)


def _innermost_file(e: Event) -> str:
    """The innermost frame's file of a traceback whose frame lines were wrapped (a terminal's hard wrap leaves no
    frame_file, but the frames read above the exception's line keep it)."""
    tf = e.data.get("tail_frames")
    return tf[0][0] if tf and isinstance(tf[0], tuple) else ""


def _call_refused(c: Collected) -> Verdict | None:
    """Lead rules AV, BA (3), BB (4), BQ (3), CH (round 107's instructlab-training-678, vllm-1968, pytorch-54560):
    an exception's own message that is one of torch's refusals of a call (_CALL_REFUSALS) -- where the table asks,
    raised from torch.distributed's own frame -- is torch refusing a call the same code makes alike on every rank:
    invalid_usage, no rank named. Not read so where another rank is shown alive or waiting past that point (as
    _mesh_refused)."""
    # an exception relayed from a remote RPC worker ("On WorkerInfo(id=1, name=worker1):" then its repr) is one too
    hits = [(e, row) for e in [*c.exceptions, *c.samples.get("rpc_remote_exc", [])] for row in _CALL_REFUSALS
            if row[0].search(e.data.get("message") or "")
            and (row[1] is None or row[1].search(e.data.get("frame_file") or _innermost_file(e)))]
    if not hits:
        return None
    raisers = {e.rank for e, _ in hits}
    if any(st.timeouts or st.status or any(st.counts.get(k) for k in _ALIVE_KINDS)
           for r, st in c.ranks.items() if r not in raisers):
        return None
    e, (_, _, who, what, fix) = hits[0]
    t = e.data.get("message") or ""
    return Verdict(
        "invalid_usage",
        f"{who} ({e.data['type']}: {t.strip()[:200]}, {e.where}): {what} -- the same code on every rank, so no rank "
        "is at fault, a usage error of the caller",
        fix, "medium", [], [e.brief()], job_wide=True)


# A reshape inside the device mesh's own construction of its process groups (device_mesh.py's _init_process_groups:
# "pg_ranks_by_dim = self.mesh.swapdims(-1, dim).reshape(-1, self.mesh.size(dim))") failing on a mesh of 0 elements
# ("cannot reshape tensor of 0 elements into shape [-1, 0]", view's "shape '[-1, 0]' is invalid for input of size
# 0"): the mesh asked for has a dimension of size 0 -- a parallel size larger than the world, the data-parallel size
# dividing to 0
_R_EMPTY_MESH = re.compile(r"\bcannot reshape tensor of 0 elements\b|\bis invalid for input of size 0\b")
_R_MESH_BUILD_FILE = re.compile(r"\btorch[/\\]distributed[/\\](?:device_mesh|distributed_c10d)\.py$")


def _mesh_zero_dim(c: Collected) -> Verdict | None:
    """Lead rule BU (1), with AE, W and Q's last sentence (round 90's verl-internvl-12): an exception whose last frame
    is torch's own tensor arithmetic (a reshape / view, not the raise of a check) in the device mesh's or c10d's
    Python code, its message showing an empty mesh (_R_EMPTY_MESH), is a parallel layout every rank shares that no
    world can fill: config, no rank. Not read so: the raise of a check there (torch refusing the call, rule BQ (3)),
    the same reshape error in any other code (the model's own tensors), or with no frame shown."""
    for e in c.exceptions:
        code = (e.data.get("frame_code") or "").lstrip()
        if (not _R_EMPTY_MESH.search(e.data.get("message") or "") or code.startswith(("raise", "assert"))
                or not _R_MESH_BUILD_FILE.search(e.data.get("frame_file") or "")):
            continue
        func = e.data.get("frame_func") or "the mesh's construction"
        return Verdict(
            "config",
            f"torch's device mesh construction failed in {func} ({e.data['type']}: "
            f"{(e.data.get('message') or '').strip()[:200]}, {e.where}): the mesh it builds its process groups from "
            "holds 0 elements, one mesh dimension of size 0 -- a parallel layout no world can fill (a parallel size "
            "larger than the world, the data-parallel size world_size // (sequence x tensor parallel size) dividing "
            "to 0), the same settings on every rank, so no rank is at fault",
            "Make the parallel sizes fit the world size: the mesh_shape passed to init_device_mesh must multiply to "
            "the world size with no device mesh dimension of size 0 -- the sequence / tensor parallel sizes "
            "(ulysses_sequence_parallel_size, tensor_model_parallel_size, fsdp_size) must divide the world size "
            "(dp size = world_size // sp_size >= 1); launch as many processes as the layout needs (nproc_per_node / "
            "n_gpus_per_node x nnodes) or lower the parallel sizes, and print the mesh_shape before the call.",
            "medium", [], [e.brief()], job_wide=True)
    return None


_MPI_ARG = {"ROOT": "root (dst/src) rank", "RANK": "rank", "COUNT": "element count", "TYPE": "datatype",
            "TAG": "tag", "COMM": "communicator", "OP": "reduction op", "BUFFER": "buffer", "GROUP": "group",
            "ARG": "argument", "DIMS": "dimensions", "TOPOLOGY": "topology", "REQUEST": "request"}


def _mpi_refused(c: Collected) -> Verdict | None:
    """Lead rules Q, W, BB (4) (round 82's pytorch-20200): Open MPI's error handler reporting one of MPI's own argument
    checks on a call of the application ("An error occurred in MPI_Reduce ... MPI_ERR_ROOT: invalid root", then
    MPI_ERRORS_ARE_FATAL): the collective library refusing the arguments of a call that every rank issues alike (the
    torch MPI backend passes them from dist.reduce / dist.send ...) -- invalid_usage, no rank named: the '[jobid,N]'
    of 'reported by process' is MPI's reporter, no failure record (rule AG). Other error classes (MPI_ERR_OTHER,
    MPI_ERR_INTERN, MPI_ERR_TRUNCATE) are no argument check and are not read here."""
    evs = c.samples.get("mpi_refused", [])
    if not evs:
        return None
    e = evs[0]
    call, cls, what = e.data["call"], e.data["cls"], e.data["what"].strip()
    arg = _MPI_ARG.get(cls[len("MPI_ERR_"):], "argument")
    return Verdict(
        "invalid_usage",
        f"MPI refused the application's {call}: '{cls}: {what}' (Open MPI's argument check, then "
        "MPI_ERRORS_ARE_FATAL aborting the job) -- the collective library rejected the call's own "
        f"{arg}, which the code passes alike on every rank (torch's MPI backend hands dist's arguments straight to "
        "MPI), so no rank is at fault: a usage error of the caller",
        f"MPI_ERR_{cls[len('MPI_ERR_'):]}: pass a valid {arg} to the call -- for MPI_ERR_ROOT / MPI_ERR_RANK a valid "
        "root/dst rank (0 <= dst < world_size) of the group, the same root on every rank; check the rank/world size "
        "mapping across nodes (mpirun's -np and hostfile against the world size the code assumes: "
        "dist.get_world_size(), dist.get_rank() on every process) and the tensor's count and dtype on every rank. "
        "torch's MPI backend is the least used one: where the job does not need MPI, use the NCCL or gloo backend "
        "(init_process_group(backend=\"nccl\") for GPU tensors, \"gloo\" for CPU ones).",
        "medium", [], [x.brief() for x in evs[:2]], job_wide=True)


def _scaler_order(c: Collected) -> Verdict | None:
    """Lead rules BQ (3), BK (1), BT (2), BW (2) (round 92's swin-transformer-311): torch.amp.GradScaler's own check of
    its unscale_/step/update order ('unscale_() has already been called on this optimizer since the last update()',
    numerics.R_SCALER_STATE) refusing a call the training loop makes alike in every process is torch refusing the
    job's call into its API by the calls' order: invalid_usage, no rank named -- where several processes fail on it
    alike (no lone first failure, rule J), or where no process carries a rank tag (rule AC (1)). One rank's own tagged
    traceback ending there stays rule A's and BJ (2)'s reading of that rank (round 88's lvsm-pr19): not read here."""
    hits = [e for e in c.exceptions if numerics.R_SCALER_STATE.search(e.data.get("message") or "")]
    if not hits:
        return None
    # another process's copy of the same message cut by the paste ("unscale_() has alre") is the same check failing
    said = hits[0].data["message"]
    hits += [e for e in c.exceptions if e not in hits and len(m := e.data.get("message") or "") >= 10
             and said.startswith(m)]
    # processes' own tracebacks, not every exception line: torchrun's record of a failure reprints the failed rank's
    # exception in its traceback field (an @record error file) -- that copy, inside the record's own lines, is no
    # process of its own and is dropped; lines of one pid count once (review 92 s2, finding 2). Two whole tracebacks
    # under one rank tag stay two (a paste prefixed with one rank throughout reads as before: rankprefix)
    procs = {_scaler_proc(e) for e in hits if not _in_record(c, e)}
    if len(procs) < 2 and any(e.rank is not None for e in c.exceptions):
        return None  # one rank's own tagged failure: rule A's reading of that rank
    n = max(len(procs), 1)
    after = "after step" in said  # the check's other alternative: unscale_ placed after scaler.step(optimizer)
    how = ("the loop calls scaler.unscale_(optimizer) after scaler.step(optimizer) in the same iteration (gradient "
           "clipping or a grad-norm log placed after the step)" if after else
           "the loop calls scaler.unscale_(optimizer) again before scaler.update() (typically gradient accumulation "
           "unscaling on every micro-step)")
    fix = ("Order each iteration as scaler.scale(loss).backward(), scaler.unscale_(optimizer), then gradient "
           "clipping, then scaler.step(optimizer), then scaler.update(): move the clipping (and its unscale_) "
           "between backward and step, never after step. " if after else
           "Call scaler.unscale_ once per optimizer step: with gradient accumulation, unscale/clip only at the "
           "accumulation boundary, right before "
           "scaler.step(optimizer) (see torch's AMP examples, gradient accumulation with GradScaler). ")
    return Verdict(
        "invalid_usage",
        f"torch's GradScaler refused the training loop's call by its order ('{said[:120]}', "
        f"{hits[0].where})" + (f", in {n} processes alike" if n > 1 else "")
        + f": {how} -- the same code on every rank, so no rank is at fault, a usage error of the caller",
        fix + numerics.SCALER_FIX.strip(),
        "medium", [], [e.brief() for e in hits[:2]], job_wide=True)


# autograd's own refusal of a second backward through a graph whose saved tensors the first one freed ("Trying to
# backward through the graph a second time (or directly access saved tensors after they have already been freed)")
_BACKWARD_TWICE = re.compile(r"^Trying to backward through the graph a second time\b")


def _backward_twice(c: Collected) -> Verdict | None:
    """Lead rules J, BW (2) (round 109's mu-diff, read as round 92's swin-transformer-311 reads GradScaler's order
    check): autograd refusing the training loop's backward through a graph it already freed, in several tracebacks
    alike (at least two ending there; two whole tracebacks under one rank tag stay two, as _scaler_order counts a
    paste prefixed with one rank throughout), from two processes at least (_backward_procs: distinct rank tags or
    pids, multiprocessing headers, launcher records), with nothing else failing: torch refusing a call the job's code
    makes in the wrong order on every rank -- invalid_usage, no rank named. One traceback alone, or one process
    printing it twice (one rank tag, one launcher record), stays rule A's and BJ (2)'s reading of that process: not
    read here (review a of round 109, finding 2)."""
    if L._run_failed(c):
        return None
    hits = [e for e in c.exceptions if not e.data.get("line")
            and _BACKWARD_TWICE.match(e.data.get("message") or "")]
    if len(hits) < 2 or any(not _BACKWARD_TWICE.match(e.data.get("message") or "") for e in c.exceptions
                            if not e.data.get("line")):
        return None
    if len(procs := _backward_procs(c, hits)) < 2:
        return None  # one process printing it twice: rule A's reading of that process (review a of round 109, 2)
    where = next((f"{file}: {code}" for e in hits for file, _, code in (e.data.get("tail_frames") or ())[::-1]
                  if code and "backward(" in code and "site-packages" not in file), "")
    return Verdict(
        "invalid_usage",
        f"autograd refused the training loop's backward in {len(hits)} tracebacks of {len(procs)} processes alike "
        f"('Trying to backward through "
        f"the graph a second time', {hits[0].where}" + (f"; the job's call: {where}" if where else "") + "): the "
        "loop runs backward through a graph an earlier backward already freed (a loss term reused across two "
        "backward calls, typically a generator output shared by the generator and discriminator losses) -- the "
        "same code on every rank, so no rank is at fault, a usage error of the caller",
        "Call backward once per forward graph: recompute the forward pass (the loss) before the second backward, or "
        "detach() the tensors reused across the two losses (fake.detach() when computing the discriminator loss); "
        "use retain_graph=True on the first backward only where a second backward through it is really intended. "
        "Read the traceback's frame of the job's own backward call for which loss it is; the job's code, every rank "
        "alike.",
        "medium", [], [e.brief() for e in hits[:2]], job_wide=True)


# multiprocessing's child names: "Process-1", and spawn / fork / forkserver contexts' "SpawnProcess-1" (nested ":3")
_R_PROC_NAME = re.compile(r"\b(?:Spawn|Fork|ForkServer)?Process-\d{1,6}(?::\d{1,6}){0,4}\b")


def _backward_procs(c: Collected, hits: list[Event]) -> set:
    """The processes the lines show raising autograd's refusal: the tracebacks' own rank tags and pids, the
    multiprocessing headers above them ("Process Process-1:"), the launcher's records of failed workers (torchrun's
    local_rank / pid). The largest of these counts: a paste prefixed with one rank throughout keeps its headers, so
    it reads as it does without (rankprefix); tracebacks that name no process count as none."""
    tags = {("rank", e.rank) if e.rank is not None else ("pid", e.host, e.pid) for e in hits
            if e.rank is not None or e.pid is not None}
    heads = {m.group(0) for e in c.samples.get("worker_raised", []) if not e.data.get("executor")
             and (m := _R_PROC_NAME.search(e.text))}
    records = {(e.host, e.data.get("local_rank"), e.data.get("pid")) for e in c.worker_failures}
    return max((tags, heads, records), key=len)


def _scaler_proc(e: Event) -> tuple:
    """The process an exception line comes from where the line names it (its host and pid), else the line itself."""
    return ("pid", e.host, e.pid) if e.pid is not None else ("line", e.where)


def _in_record(c: Collected, e: Event) -> bool:
    """``e`` lies in torchrun's record of a failure (its traceback field, a few lines under the entry's first
    line): a reprint of the failed rank's own exception, not another process."""
    path, n = e.site()
    return any(f.data.get("traceback") and (s := f.site())[0] == path and 0 < n - s[1] <= 16
               for f in c.child_failures)


# Ray's own marks in a line: a Ray actor's or the raylet's prefix ("(RayTrainWorker pid=4123, ip=10.0.0.5) ",
# "(raylet) ", "(pid=4123) "), a frame in Ray's package (ray/train/, ray/_private/, ray/util/), Ray Train's trainer
# class or a Ray task's name ("ray::RayTrainWorker") -- none of them in a plain torchrun or accelerate line
_R_RAY_MARK = re.compile(r"\((?:\w{1,60} )?pid=\d+(?:, ip=[\w.:-]+)?\)|\(raylet\)|\bray/(?:train|_private|util|air)/|"
                         r"\bTorchTrainer\b|\bray::\w")


def _under_ray(c: Collected, evs: list) -> bool:
    """Review 104 (1) finding 3: the lines show Ray -- the refusal's own lines or a traceback (its text or its
    frames) carry a Ray mark -- so the Duplicate GPU fix may speak of Ray's per-worker GPU share (round 104's
    ray-48012); a plain torchrun or accelerate launch gets no Ray advice."""
    return any(_R_RAY_MARK.search(t) for t in [e.text for e in evs] + [
        f"{e.text} {_frames_said(e)}" for e in c.exceptions])


def _invalid_usage(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    if forced := _forced_algorithm(c):
        return forced
    # NCCL's "Duplicate GPU detected" under its "Last error:" is its refusal of two ranks on one GPU (init.cc), also
    # where torch printed another code above it ("internal error ... ncclInternalError: Internal check failed.")
    evs = [e for e in c.samples.get("nccl_error", []) if e.data.get("code") == "ncclInvalidUsage"
           or "duplicate_gpu" in e.data]
    if not evs:
        return (_size_mismatch(c) or _invalid_argument_at_init(c) or _cpu_tensor(c) or _dup_rank(c)
                or _pg_twice(c) or _symm_mem_overlap(c) or _backend_lacks(c) or _backend_refused(c)
                or _reducer_no_param(c)
                or _device_mesh_args(c) or _mesh_refused(c) or _call_refused(c) or _mesh_zero_dim(c)
                or _ddp_device_args(c)
                or _ddp_kwarg(c) or _src_not_in_group(c) or _self_peer(c)
                or _new_group_outside(c) or _collective_arg_types(c)
                or _mpi_refused(c) or _scaler_order(c) or _backward_twice(c))
    text = " ".join((e.data.get("last_error") or "") + " " + e.text for e in evs)
    if any(R_CONNECT_FAIL.search(e.data.get("last_error") or "") for e in evs):
        return None  # NCCL 2.2x reports a bootstrap without a usable interface as invalid usage: _network reads it
    if R_DUP_GPU.search(text) or any(e.data.get("duplicate_gpu") for e in evs):
        if dup_gpu_beside(c):
            return None  # a rank outside the shared pair failed on its own (review 107 finding 1): its reading
        return Verdict(
            "invalid_usage",
            "two ranks share one GPU ('Duplicate GPU detected'): every process stayed on the "
            "default device; a launch/set-up error, no rank is at fault",
            "Call torch.cuda.set_device(int(os.environ['LOCAL_RANK'])) before init_process_group (or pass "
            "device_id=), and check CUDA_VISIBLE_DEVICES gives each local rank its own GPU (one GPU per process); "
            "start no more processes per node than it has GPUs (torchrun --nproc_per_node equal to the number of "
            "visible GPUs, accelerate's num_processes: with one GPU, one process), one GPU per rank: give every "
            "rank its own GPU (pass device_id to init_process_group to bind each rank to it). Run with "
            "NCCL_DEBUG=INFO: each rank's init lines show its host hash and busId; two ranks of different nodes "
            "on one busId means NCCL took the nodes for one host (containers with the same hostname and host "
            "hash) -- give each container a unique hostname or set a distinct NCCL_HOSTID per node, and check the "
            "launch (nnodes, nproc_per_node, node_rank) is consistent on every node."
            + (" Under Ray (Ray Train's TorchTrainer, a Ray actor per rank) Ray sets each worker's "
               "CUDA_VISIBLE_DEVICES itself: a fractional GPU per worker (resources_per_worker={'GPU': 0.5}, two "
               "trainers sharing GPUs) packs two ranks onto one device -- give each worker a whole GPU (ScalingConfig "
               "resources_per_worker={'GPU': 1}, Ray num_gpus per worker 1); give each rank its own GPU: check "
               "Ray's num_gpus per worker and the resource pool a framework places its workers in (verl's "
               "n_gpus_per_node x nnodes must match the GPUs Ray really has)." if _under_ray(c, evs) else ""),
            "high",
            [],
            [e.brief() for e in evs[:3]],
        )
    # NCCL's own reason is in its WARN line; torch's "Last error:" is empty when NCCL set none (the next text is
    # torch's own "Exception raised from <function> at ..." trace header, which the parser may have taken for it)
    said = [le for e in evs if (le := (e.data.get("last_error") or "").strip()) and not _TORCH_TRACE.match(le)]
    at_init = bool(_AT_CREATE.search(text))
    warned = next((e.data["warn"] for e in c.samples.get("nccl_warn", [])
                   if e.data.get("warn") and not harmless_warn(c, e)), None)
    return Verdict(
        "invalid_usage",
        "NCCL rejected a call as invalid usage (ncclInvalidUsage): mismatched arguments "
        "between ranks or a communicator used after abort"
        + ("; it was raised while the process group created its NCCL communicator (the first collective of the "
           "group creates it), and NCCL's 'Last error' is empty: its reason is only in NCCL's own WARN line"
           if at_init and not said and not warned else ""),
        ("ncclInvalidUsage is NCCL refusing how it was called, the same code on every rank, not a faulty rank. "
         + ("Rerun with NCCL_DEBUG=INFO (NCCL_DEBUG=WARN at least): the 'Last error' line names the argument. "
            if said else
            f"NCCL's WARN in these lines ('{warned[:120]}') says what it refused; NCCL_DEBUG=INFO shows the set-up "
            "around it. " if warned else
            "NCCL's own reason is not in these lines (no 'Last error' text): rerun with NCCL_DEBUG=INFO "
            "(NCCL_DEBUG=WARN at least) to see the WARN that names the argument or call it refused. ")
         + "TORCH_DISTRIBUTED_DEBUG=DETAIL checks collective shapes across ranks. At communicator "
         "creation the usual cause is two ranks on one GPU ('Duplicate GPU detected'): call "
         "torch.cuda.set_device(int(os.environ['LOCAL_RANK'])) before init_process_group and check "
         "CUDA_VISIBLE_DEVICES gives each local rank its own GPU; in a multi-node job, launch every node alike "
         "(the same world size, tensor-parallel size and GPUs per node) with the same NCCL version on all nodes"
         + ("; a barrier's device_ids (or init_process_group's device_id) must name the rank's own GPU; and a "
            "process group whose communicator was aborted (ncclCommAbort: abort, a watchdog timeout, a test that "
            "aborts it) cannot be used or re-initialised in place: call dist.destroy_process_group() and "
            "init_process_group() again before the next collective." if at_init else ".")),
        "medium",
        [],
        [e.brief() for e in evs[:3]],
    )


# torch's own C++ trace header after an NCCL error ("Exception raised from getNCCLComm at ...cpp:N (most recent call
# first):"): not NCCL's Last error text
_TORCH_TRACE = re.compile(r"Exception raised from \w+")
# where torch creates a communicator: ProcessGroupNCCL's getNCCLComm, NCCLComm::create (NCCLUtils), ncclCommInitRank
_AT_CREATE = re.compile(r"\bgetNCCLComm\b|NCCLUtils\.(?:hpp|cpp):\d|ncclCommInitRank|NCCLComm::create")




def _invalid_argument_at_init(c: Collected) -> Verdict | None:
    """Lead rule Q: NCCL rejecting an argument of communicator creation (ncclInvalidArgument raised where torch
    creates the communicator) with no 'Last error' or WARN that says more (a config field of a mismatched NCCL
    build is nccl_internal: _warn_family reads that text) is a launch or rank-assignment error: a rank or device
    number out of range, a world size that does not match the processes started. Every rank was started the
    same wrong way, so no rank is named, whichever process's error is shown first."""
    evs = [e for e in c.samples.get("nccl_error", []) if e.data.get("code") == "ncclInvalidArgument"
           and R_NCCL_AT_INIT.search(e.text)]
    if not evs or any(e.data.get("last_error") for e in c.samples.get("nccl_error", [])) or \
            c.samples.get("nccl_warn"):
        return None
    return Verdict(
        "invalid_usage",
        "NCCL rejected an argument of communicator creation (ncclInvalidArgument where torch creates the "
        "communicator): the ranks were launched with a rank, world size or device that does not fit the "
        "processes and GPUs there are -- a launch configuration error that every rank shares, not a faulty rank",
        "Check how the processes were started: one process per GPU, as many as the world size, each with its own "
        "rank and device (torch.cuda.set_device(local_rank)). A script that spawns its own workers "
        "(torch.multiprocessing.spawn(nprocs=torch.cuda.device_count())) must not also run under a launcher that "
        "starts one process per GPU (torchrun, torch.distributed.launch, deepspeed): either let the launcher start "
        "them or the script (its option to not spawn under a launcher). Rerun with NCCL_DEBUG=WARN: the "
        "'Last error' line names the argument.",
        "medium", [], [e.brief() for e in evs[:3]])


def _store_overcount(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule R: a store-based barrier that counted MORE processes than its world size (C > W): more processes share
    the store than the job was told -- a launch error (invalid_usage), whatever else the lines show around it (a
    scheduler's preemption and requeue, whose leftovers are one way to get there; the launcher's own socket errors)."""
    evs = c.samples.get("store_timeout", [])
    joined = next((e.data["joined"] for e in evs if e.data.get("joined")), None)
    evidence = _samples(c, "store_timeout")
    if (not joined or joined[0] <= joined[1]) and (over := c.barrier_overcount()):
        # torch's own barrier lines: more ranks added the key than the count the barrier completed with
        joined, evidence = over[:2], [e.brief() for e in over[2][:3]]
    if not joined or joined[0] <= joined[1]:
        return None
    return Verdict(
        "invalid_usage",
        f"{joined[0]} processes checked in to the store-based barrier of a world of {joined[1]}: more processes "
        "share this store (MASTER_ADDR:MASTER_PORT and key) than the job was told it has, so the count never "
        "equals the world size -- a launch that does not match its world size (a second job or a leftover "
        "process on the same MASTER_PORT, a wrong --nproc_per_node / --nnodes / WORLD_SIZE); no rank is at fault",
        "Give every job its own MASTER_PORT (a unique MASTER_PORT per job: torchrun --master_port N; another job on "
        "the same port joins this store), kill stale processes -- leftover processes of earlier runs -- on every "
        "node (ps -ef | grep python; nvidia-smi), and "
        "make --nproc_per_node x --nnodes (WORLD_SIZE) equal the number of processes actually started.",
        "medium", [], evidence, job_wide=True)
