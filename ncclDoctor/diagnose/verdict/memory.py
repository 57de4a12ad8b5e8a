"""A process out of memory: the GPU's (gpu_oom), the host's (host_oom: the OOM killer, a worker killed while
loading shards) and a DataLoader worker's shared memory (dataloader_shm: /dev/shm, a bus error)."""

from __future__ import annotations

import re

from ncclDoctor.diagnose.lone import failed_on_own, lone_failure, node_count, root_not_shown, torn_down
from ncclDoctor.diagnose.reason import Conclusion, _fmt_ranks, own_errors, waiting, world_size
from ncclDoctor.diagnose.signatures import R_DP_REPLICA, R_VLLM_MP_WORKER, Event
from ncclDoctor.diagnose.state import Collected
from ncclDoctor.diagnose.verdict.base import Verdict, _named, _ranks, _samples, _what, dup_gpu_beside, place


def died_alike(c: Collected) -> bool:
    """Lead rule J: two or more processes in the launcher's record, all failing on their own with the same exit
    code within one second (the record's times, when shown), none only torn down afterwards: one resource of the
    host or the job ran out for all of them, not one rank. An entry whose exit code the paste cut (torchrun's
    root cause, its lines ending at "rank :") is one of them when the record's times put it in the same second:
    the line that would say it died otherwise is not there. An entry the paste begins inside (below its time line)
goes with the times the others show."""
    fails = failed_on_own(c)
    codes = {e.data.get("exitcode") for e in fails}
    if len(fails) < 2 or torn_down(c) or len(codes - {None}) != 1:
        return False
    times = [e.ts for e in fails if e.ts is not None]
    if None in codes and len(times) != len(fails):
        return False  # a cut entry counts only where its time puts it with the others
    # an entry the paste begins inside (its time line above the cut) is one of the record's, listed with the others:
    # the times shown are what places them all
    untimed = [e for e in fails if e.ts is None and not e.data.get("head_cut")]
    return (not times or not untimed) and (not times or max(times) - min(times) < 1.0)


def _gpu_oom(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    if not c.kinds.get("cuda_oom"):
        return None
    if any(e.data.get("duplicate_gpu") for e in c.samples.get("nccl_error", [])) and not dup_gpu_beside(c):
        return None  # two ranks on one GPU: the OOM is theirs sharing it (fabric._invalid_usage says it)
    ranks = _ranks(c, "cuda_oom") or _proxy_rank(c, c.samples.get("cuda_oom", []))
    beside = ""
    if not ranks:  # lead rule A: the one process the launcher shows failing on its own is where the OOM happened
        lone = lone_failure(c)
        ranks = lone.culprits if lone is not None and lone.exitcode not in (None, 0, -6, -15) else []
        if ranks and (beside := _oom_beside(c, ranks[0])):
            ranks = []  # lead rules J, AM (2): the OOM is another shown process's, the record's rank failed too
    oom, ranks = ranks, _also_recorded(c, ranks)
    every = _every_rank(c, ranks)
    if every:
        ranks = []  # lead rule J: every rank of the job ran out alike, no rank is the culprit
    also = [r for r in ranks if r not in oom]
    owner = "" if ranks or _data_parallel(c) else (_gpu_owner(c) or _tb_agrees(c) or _pid_owner(c)
                              or ("" if _field_rank(c) is not None else _old_owner(c)))  # the span field first
    if owner:
        d0 = c.samples["cuda_oom"][0].data
        ranks = [d0["gpu"] if d0.get("gpu") is not None else d0["old_figs"]["gpu"]]
    elif not ranks and (field := _field_rank(c)) is not None:
        ranks, owner = [field], (f" (the launcher's span field 'rank={field}' closes the OOM's own output: its process "
                                 f"is rank {field})")
    elif not ranks and not _data_parallel(c) and (sole := _sole_traceback_rank(c)) is not None:
        ranks, owner = [sole], (f" (the one traceback pasted with it, cut in its frames, is under rank {sole}'s own "
                                f"tag -- the only rank these lines show, not shown waiting: the error is its own)")
    engine = ""
    if any(e.data.get("runtime_alloc") for e in c.samples.get("cuda_oom", [])):
        engine = ("A C++ runtime's own cudaMalloc failing (an inference engine's buffers, sized by the engine's "
                  "max_batch_size and sequence lengths, or its kv cache) needs a smaller batch_size / max_batch_size "
                  "or more free GPU memory: lower the kv cache's fraction of free GPU memory, check nvidia-smi. ")
    if any(e.data.get("hsa") for e in c.samples.get("cuda_oom", [])):
        # HIP's runtime aborting the process's GPU queue on HSA_STATUS_ERROR_OUT_OF_RESOURCES with the free device
        # memory it printed (readers.crash._oom): ROCm's tools and allocator setting, not CUDA's
        engine += ("HIP's runtime aborted the process's GPU queue because the device ran out of memory "
                   "(HSA_STATUS_ERROR_OUT_OF_RESOURCES with the 'Available Free mem' it printed): leave device memory "
                   "headroom for RCCL and the runtime -- a smaller batch, torch.cuda.empty_cache() before the "
                   "collectives, PYTORCH_HIP_ALLOC_CONF=expandable_segments:True against fragmentation; check "
                   "rocm-smi --showmeminfo vram and rocm-smi --showmemuse for other processes on that GPU. ")
    engine += (_npu_oom(c) + _lib_alloc(c) + _tests_buffers(c) + _held_elsewhere(c) + _runtime_oom(c)
               + _old_figures_fix(c))
    counted, retried = _counted(c, bool(ranks))
    apart = "each on its own GPU, " if every and _own_gpus(c) else ""
    return Verdict(
        "gpu_oom",
        (f"every rank of the job (ranks {_fmt_ranks(oom)}; {every}) ran out of GPU memory, {apart}in its own "
         "traceback: the job's per-GPU memory (the batch, the sequence length, the model each rank holds) does not "
         "fit, a limit every rank meets alike, not one rank's fault -- the launcher's single 'first failure' is only "
         "the one it saw exit first" if every else
         f"the launcher's record names rank {beside}: two processes are shown failing on their own in the "
         "same run, none torn down or still waiting -- every shown rank failing alike (the per-rank memory of the "
         "configuration they share ran out), not one rank's fault" if beside else
         f"{_named(oom)} ran out of GPU memory, and local rank {_fmt_ranks(also)} (one node: the same rank) exited on "
         "its own as well (torchrun's record: a nonzero exit code, and the agent sent its closing signal only to the "
         "other workers, those still running); the others were stopped after them" if also else
         f"{_named(ranks)} ran out of GPU memory{owner}{counted}; the other ranks then waited for it"),
        retried + engine + ("Every rank needs less memory: lower the batch size (per GPU) or the sequence / context "
                            "length on all of them, or spread the work over more GPUs. " if every or beside else "")
        + "Lower that rank's batch size or sequence length (reduce batch size per GPU and keep the global batch with "
        "gradient accumulation), enable gradient checkpointing (activation "
        "checkpointing: model.gradient_checkpointing_enable()), or set "
        "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True (or max_split_size_mb) against fragmentation (torch >= "
        "2.1); check nvidia-smi for "
        "another "
        "process on that GPU. An OOM at the first barrier or collective, before the model is allocated, means "
        "every process sits on GPU 0: call torch.cuda.set_device(int(os.environ['LOCAL_RANK'])) first. An OOM while "
        "the model loads (from_pretrained / load_model in the traceback, before any step) means the model itself does "
        "not fit in the GPUs' memory: shard it (DeepSpeed ZeRO-3, FSDP), offload to CPU, or use more GPUs. Where "
        "the model's states fill the GPU during training (DDP, DeepSpeed ZeRO stage 1/2 keep every parameter on "
        "each GPU), use ZeRO-3 or CPU offload to free GPU memory (DeepSpeed offload_optimizer / offload_param, FSDP "
        "with CPU offload), or use a GPU with more memory.",
        "high" if len(ranks) == 1 and not owner else "medium",
        ranks,
        _samples(c, "cuda_oom"),
        job_wide=bool(every or beside),
    )


def _oom_beside(c: Collected, lone: int) -> str:
    """Lead rules J and AM (2), AN (1) (round 81's primus-349): an unranked GPU OOM that the parser reads as the end
    of the traceback pasted under another rank's tag (its "tb_rank", no other traceback header between them) is that
    rank's own failure, not the record's: the launcher's record naming rank LONE beside it shows two processes
    failing on their own, and with none shown torn down or waiting (a victim), that is every shown rank failing
    alike -- no culprit. What the lines show (the record's rank and the OOM's), else '' (the OOM pasted with no
    ranked traceback, or with the record's own rank's, is the lone process's as rule A reads it)."""
    tbs = {e.data.get("tb_rank") for e in c.samples.get("cuda_oom", [])}
    if len(tbs) != 1 or None in tbs or lone in tbs or torn_down(c):
        return ""
    if any(waiting(st) for st in c.ranks.values()) or c.kinds.get("watchdog_timeout"):
        return ""
    other = tbs.pop()
    gpu = c.samples["cuda_oom"][0].data.get("gpu")
    return (f"{lone} (its exit code, no error text of its own shown), while the GPU out-of-memory error"
            + (f" (on GPU {gpu})" if gpu is not None else "") + f" ends the traceback pasted under rank {other}'s tag")


def _kv_cache(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """vLLM's engine finding no GPU memory left for its KV cache after loading the weights ("# GPU blocks: 0", the
    minimum over every worker of the tensor-parallel group; or its check's own "No available memory for the cache
    blocks"), with a failure shown after it (a worker's exception in initialize_cache, its traceback cut or whole,
    a launcher's record): the model as configured does not leave room for the cache on the group -- a setting every
    worker shares, each holding the same shard (lead rules J, AG): gpu_oom, no rank. The block count alone, nothing
    failing after it, stays with the other readers."""
    evs = c.samples.get("kv_cache_none", [])
    said = [e for e in evs if "cache blocks" in e.text]  # the check's own error line names the failure itself
    failed = said or c.unread or c.exceptions or c.samples.get("tb_cut") or c.kinds.get("worker_failed")
    if not evs or not failed:
        return None
    return Verdict(
        "gpu_oom",
        "vLLM's engine found no GPU memory left for its KV cache after loading the model's weights ('"
        + evs[0].text[:160] + "'): the number of cache blocks is the minimum over every worker of the tensor-parallel "
        "group, each holding the same share of the model, so the engine as configured does not fit -- a setting every "
        "worker shares, not one rank's fault; the worker's failure in initializing the cache follows from it",
        "No GPU memory is left for the KV cache (cache blocks: 0) once the weights are loaded: raise "
        "gpu_memory_utilization (the fraction of GPU memory vLLM may use, 0.9 by default) if the GPUs hold nothing "
        "else, lower max_model_len (the context length the cache must hold at least one sequence of: the model's "
        "full context length by default) and max_num_seqs, spread the model over more GPUs (a larger "
        "tensor_parallel_size / pipeline_parallel_size: each worker then holds less of the weights), or load it "
        "quantized (AWQ / GPTQ / fp8) to leave room; enforce_eager saves the CUDA graphs' memory. Check nvidia-smi "
        "for other processes on those GPUs.",
        "medium", [], [e.brief() for e in evs[:2]] + _samples(c, "tb_cut", 1), job_wide=True)


def _counted(c: Collected, named: bool) -> tuple[str, str]:
    """Where every OOM line read is torch.cuda.memory_summary()'s count ("CUDA OOMs: N", readers.crash._oom_count):
    the words that say what shows the OOM, and the fix's words its "cudaMalloc retries" count adds: the caching
    allocator retries a failed cudaMalloc only after freeing every cached block, so a retry before the OOM says the
    cache was already given back (empty_cache has nothing left to free). ("", "") for an OOM's own text."""
    evs = c.samples.get("cuda_oom", [])
    if not evs or not all(e.data.get("count") for e in evs):
        return "", ""
    n = max(e.data["count"] for e in evs)
    what = (f" (torch.cuda.memory_summary()'s table counts {n} CUDA OOM{'s' if n > 1 else ''}, 'CUDA OOMs: {n}'"
            + ("" if named else "; the table itself names no rank and no GPU") + ")")
    if not any(e.data.get("retries") for e in evs):
        return what, ""
    return what, ("The allocator had already freed its cached blocks and retried the allocation ('cudaMalloc "
                  "retries') before it gave up, so torch.cuda.empty_cache() will not help: the peak itself does not "
                  "fit. ")


_ELSEWHERE = 0.5  # this process's reserved memory and the free memory together under half the GPU: others hold it
# what both readings of a shared GPU advise (review 98 finding 9: one text, so the two cannot drift apart)
_SET_DEVICE = ("call torch.cuda.set_device(local_rank) in each process before any CUDA call and before the model moves "
               "to the GPU (device cuda:LOCAL_RANK, DistributedDataParallel's device_ids=[local_rank]), or give each "
               "process its own GPU with CUDA_VISIBLE_DEVICES; else stop the other job there. ")


def _held_elsewhere(c: Collected) -> str:
    """The fix's words for an OOM whose own numbers say the failing process holds little of the GPU: torch < 2.1's
    "total capacity; ... free; ... reserved in total by PyTorch" (torch_npu's the same) with this process's reserved
    memory and the free memory together under half the GPU, or torch >= 2.1's "Process P has X memory in use" lines
    with the memory in use outside the failing process larger than both its own and the shortfall (_shared, lead rule
    BX (1)). The memory is held by other processes on that GPU -- most often the job's other ranks landing on GPU 0
    because the device is not set per local rank -- not by the model or batch of this one (which does not name the
    rank: lead rule U (3)). Both readings end in the same advice (_SET_DEVICE). '' when neither shows."""
    for e in c.samples.get("cuda_oom", []):
        d = e.data.get("old_figs")
        if d and d["total"] and d["reserved"] + d["free"] < _ELSEWHERE * d["total"]:
            gib = 2 ** 30
            return (f"The failing process reserves only {d['reserved'] / gib:.2f} GiB of the GPU's "
                    f"{d['total'] / gib:.2f} GiB and almost nothing is free: other processes hold the rest "
                    "(nvidia-smi: other processes on that GPU). Usually the job's other ranks sit on that same GPU: "
                    + _SET_DEVICE)
        if e.data.get("this") and _shared(e.data, e.data["this"]):  # torch >= 2.1's text lists the others (BX (1))
            procs, gib = e.data["procs"], 2 ** 30
            return (f"{len(procs)} other processes hold {sum(b for _, b in procs) / gib:.2f} GiB of GPU "
                    f"{e.data['gpu']} beside the failing process's {e.data['this'] / gib:.2f} GiB: the GPU is shared "
                    "(nvidia-smi: the processes on that GPU). When they are the job's own workers, every one sits on "
                    "that GPU: " + _SET_DEVICE)
    return ""


_R_RUNTIME_OOM = re.compile(r"\bCUDA [Ee]rror: out of memory")


def _runtime_oom(c: Collected) -> str:
    """The fix's words for a bare "CUDA error: out of memory" (the CUDA runtime's own error code, no "Tried to
    allocate" and no figures: not PyTorch's caching allocator running out, which spells its "CUDA out of memory." with
    the request): an allocation outside the allocator (the process's CUDA context, a cuBLAS / cuDNN workspace, NCCL's
    buffers) found the device already full. Where its traceback runs through a training step (a backward pass, an
    optimizer's step: readers.crash "in_step") the job was past start-up: this process's own cache filling the GPU
    leaves the library no room. Else (before any step shown) other processes hold the GPU, or every process of the
    job was put on the same GPU (round 94's monai-5831, a distributed test's first tensor on its device): set_device
    per local rank. '' for an OOM with the allocator's text, or a library's or an engine's own (their own fix
    words)."""
    evs = [e for e in c.samples.get("cuda_oom", []) if _R_RUNTIME_OOM.search(e.text) and "Tried to allocate" not in
           e.text and not e.data.get("lib_alloc") and not e.data.get("runtime_alloc")]
    if not evs:
        return ""
    said = ("A bare 'CUDA error: out of memory' is the CUDA runtime's own error, not the caching allocator's 'Tried "
            "to allocate': an allocation outside the allocator (the CUDA context, a cuBLAS / cuDNN workspace, NCCL's "
            "buffers) found the GPU already full")
    if all(e.data.get("in_step") for e in evs):
        return (said + " in the middle of a training step: usually this process's own cached memory fills the GPU "
                "and leaves the library's workspace or NCCL's buffers no room -- leave headroom: lower the batch size "
                "or sequence length, cap the cache (torch.cuda.set_per_process_memory_fraction(0.9)), smaller NCCL "
                "buffers (NCCL_BUFFSIZE); check nvidia-smi for another process on that GPU. ")
    return (said + ": before any step that is other processes holding its memory (nvidia-smi: free the GPU, or run "
            "on one with free memory; run distributed tests alone, not beside other GPU tests), or every process "
            "sitting on the same GPU: call torch.cuda.set_device(local_rank) in each process (local_rank = "
            "int(os.environ['LOCAL_RANK']) under torchrun, the process index under mp.spawn) before its first CUDA "
            "call, or give each its own GPU with CUDA_VISIBLE_DEVICES. ")


# an Ascend NPU's memory running out: torch_npu's allocator ("NPU out of memory. Tried to allocate ..."), CANN's
# EL0004 "Failed to allocate memory" or the driver's "reason=[driver error:out of memory]" (signatures.R_OOM)
_R_NPU_OOM = re.compile(r"\bNPU out of memory|\bEL0004\b|driver error: ?out of memory")


def _npu_oom(c: Collected) -> str:
    """The fix's words for an Ascend NPU's memory running out (lead rule AN (2): an accelerator's allocation failing
    is gpu_oom, its own tools and allocator settings the fix): torch_npu's allocator is configured by
    PYTORCH_NPU_ALLOC_CONF, npu-smi shows the NPU's other processes, HCCL_BUFFSIZE sizes HCCL's buffers on every NPU.
    '' for any other accelerator's OOM."""
    if not any(_R_NPU_OOM.search(e.text) for e in c.samples.get("cuda_oom", [])):
        return ""
    return ("The Ascend NPU's memory ran out (torch_npu / CANN): lower the batch size or sequence length per NPU, "
            "use gradient checkpointing, shard the model further (DeepSpeed ZeRO-3 with offload_param / "
            "offload_optimizer to CPU, more tensor / pipeline / expert parallelism, more NPUs), set "
            "PYTORCH_NPU_ALLOC_CONF=expandable_segments:True / max_split_size_mb against fragmentation, lower "
            "HCCL_BUFFSIZE (HCCL's buffers on every NPU), and check npu-smi info for other processes on that NPU; a "
            "serving engine loading a model that does not fit: lower gpu_memory_utilization / max_model_len, or load "
            "it quantized. ")


def _lib_alloc(c: Collected) -> str:
    """The fix's words for an OOM a CUDA library reports with its own status (S.R_OOM's group "lib": cuBLAS / cuDNN /
    cuSOLVER / cuSPARSE's *_STATUS_ALLOC_FAILED, cuFFT's, nvJPEG's NVJPEG_STATUS_ALLOCATOR_FAILURE; lead rule AN (2)):
    the library's own workspace or buffers found no GPU memory. nvJPEG decodes images on the GPU inside a data
    pipeline (DALI's mixed decoder, a GPU decode_jpeg), whose rank is often not on its own GPU in a multi-GPU run:
    every pipeline built on GPU 0 (round 86's dali-2866). '' for any other OOM."""
    lib = next((e.data["lib_alloc"] for e in c.samples.get("cuda_oom", []) if e.data.get("lib_alloc")), None)
    if lib is None:
        return ""
    if lib == "NVJPEG":
        return ("nvJPEG, which decodes the images on the GPU inside the data pipeline (DALI's mixed / GPU "
                "ImageDecoder, a GPU decode_jpeg), could not allocate GPU memory for its buffers: in a multi-GPU "
                "run give each rank's pipeline its own GPU -- device_id=local_rank for every DALI pipeline (not all "
                "on GPU 0; nvidia-smi per GPU shows where the pipelines sit) --, then lower the pipeline's memory: a "
                "smaller batch size, DALI's device_memory_padding / host_memory_padding (the decoder's preallocated "
                "buffers), fewer pipeline threads / prefetch_queue_depth, hw_decoder_load=0; or decode on the CPU "
                "(device='cpu'); upgrade DALI if it persists with GPU memory to spare. ")
    return (f"{lib}'s own allocation of GPU memory (its workspace) failed: the GPU's memory is held elsewhere "
            "(the model and batch of this process, or other processes on that GPU: nvidia-smi per GPU) -- free GPU "
            "memory or lower the batch size, and give each rank its own GPU (torch.cuda.set_device(local_rank)). ")


# an nccl-tests binary's command line ("all_reduce_perf -b 16G -e 16G -g 1"): -e / --maxbytes is the largest message,
# whose send and receive buffers the test allocates on every GPU up front
_R_TESTS_CMD = re.compile(r"\b[a-z_]{3,20}_perf\b[^\n]{0,200}?(?:\s-e\s*|--maxbytes[= ])(\d{1,12}[KMGkmg]?)\b")


def _tests_buffers(c: Collected) -> str:
    """The fix's words for an OOM of NCCL's own device-memory allocation (its 'Cuda failure 'out of memory'' WARN,
    allocator.cc / alloc.h) under nccl-tests, whose message-size range sizes the buffers: nothing of a model's."""
    ooms = c.samples.get("cuda_oom", [])
    own = any("NCCL WARN" in e.text for e in ooms)
    cmd = next((m for k in ("setting", "launch_args", "run_start") for e in c.samples.get(k, [])
                if (m := _R_TESTS_CMD.search(e.text))), None)
    if cmd is None and not (own and c.samples.get("run_start")):  # nccl-tests' device list or table shown
        return ""
    said = (f"the test's largest message (-e {cmd.group(1)}) needs send and receive buffers of that size on each "
            "GPU, besides NCCL's own" if cmd else "NCCL's own device-memory allocation failed (out of memory)")
    return (f"Under nccl-tests/rccl-tests {said}: the message size is too large for the device memory -- run with a "
            "smaller -e (maxBytes, e.g. 8G, or half the GPU's memory at most) and -b, check free device memory "
            "(nvidia-smi / rocm-smi) for other processes, and NCCL_DEBUG=INFO for NCCL's own buffer sizes. ")


def _every_rank(c: Collected, oom: list[int]) -> str:
    """Lead rule J: two or more ranks each raising their own CUDA OOM (its line under the rank's own tag), and those
    ranks are every rank of the job -- a world size the lines state, or on one node the workers torchrun's agent
    accounts for: the ones its record shows exited plus the ones it sent its closing signal to (the agent signals
    only the workers still running). Every rank hit the same memory limit on its own: a limit of the job's size, not
    a culprit; a worker SIGTERM'd after raising its own OOM is no torn-down victim, and the record's one name is only
    the worker it saw exit first. What proves the job's size, else ''."""
    if len(oom) < 2 or oom != list(range(len(oom))) or c.kinds.get("watchdog_timeout"):
        return ""
    size, _, sure = world_size(c)
    if sure == "high":
        return f"the lines give the world size, {size}" if size == len(oom) else ""
    closed = max((e.data.get("closed_n") or 0 for e in c.worker_failures), default=0)
    fails = failed_on_own(c)
    if not closed or node_count(c) != 1 or not fails or any(
            (e.rank if e.rank is not None else e.data.get("local_rank")) not in oom for e in fails):
        return ""
    if closed + len(fails) != len(oom):
        return ""
    return (f"one node, whose {len(oom)} workers torchrun's agent accounts for: {len(fails)} its record shows "
            f"exiting, {closed} it then stopped with its closing signal")


def _own_gpus(c: Collected) -> bool:
    """Whether every ranked OOM line names its GPU and no two ranks name the same one."""
    gpus = {}
    for e in c.samples.get("cuda_oom", []):
        if e.rank is not None:
            gpus.setdefault(e.rank, set()).add(e.data.get("gpu"))
    got = [g for v in gpus.values() for g in v]
    return bool(got) and None not in got and len(got) == len(set(got))


def _also_recorded(c: Collected, ranks: list[int]) -> list[int]:
    """Lead rules J and A extended to several: the OOM's rank(s), plus the local rank torchrun's agent records failing
    with an exit code of its own ("failed (exitcode: 1) local_rank: L") on one node, when the agent's closing signals
    account for every other worker -- the world less the workers it stopped is exactly those failed ones, so each had
    exited before the teardown, on its own -- and no rank shows a victim's wait (a timeout, a rank waiting in a
    collective) that a peer's death would explain. Else the OOM's ranks unchanged."""
    recs = [e for e in failed_on_own(c) if e.kind == "worker_failed" and e.rank is None]
    if not ranks or len(recs) != 1 or node_count(c) != 1 or c.kinds.get("watchdog_timeout"):
        return ranks
    e = recs[0]
    local, code, closed = e.data.get("local_rank"), e.data.get("exitcode"), e.data.get("closed_n")
    if local is None or local in ranks or not code or code < 0 or not closed:
        return ranks
    size = world_size(c)[0]
    failed = set(ranks) | {local}
    if not size or max(failed) >= size or size - closed != len(failed):
        return ranks
    if any(waiting(st) or (r not in failed and own_errors(st)) for r, st in c.ranks.items()):
        return ranks
    return sorted(failed)


def _gpu_owner(c: Collected) -> str:
    """The rank whose device an unranked OOM names, when torch's text proves it (lead rule A's single-node reading
    of a local index): the OOM names GPU N and lists the processes on it; the raiser is the one process holding at
    least what its own allocator holds ("this process has X", or the one listed process with at least "Of the
    allocated memory X"), and two or more others hold the same small amount each -- the other ranks' CUDA contexts
    on that GPU, so the job's processes share the node's GPU numbering (no per-process CUDA_VISIBLE_DEVICES, as
    under Ray, where every actor's GPU is "GPU 0") and the one computing on GPU N is the process whose device it is:
    local rank N, rank N when nothing says the job spans nodes. "" when the text does not prove it (a lone process
    on its GPU, other processes of other sizes: another job or an engine; several OOMs on other GPUs); else why."""
    evs = [e for e in c.samples.get("cuda_oom", []) if e.data.get("gpu") is not None]
    if not evs or len({e.data["gpu"] for e in evs}) != 1 or node_count(c) > 1 or _host_labelled(evs):
        return ""
    d, gpu = evs[0].data, evs[0].data["gpu"]
    if gpu > 0 and all(R_VLLM_MP_WORKER.search(e.text) for e in evs) and not (
            any(size <= gpu for size, _ in c.world) or (gpu in c.ranks and waiting(c.ranks[gpu]))):
        # lead rule U (3): the failing process itself is vLLM's worker on that GPU (its executor's prefix)
        return (f" on GPU {gpu}: the line is vLLM's multiprocessing worker's own (its 'VllmWorkerProcess' prefix), and "
                f"that executor's workers run on one node, tensor-parallel rank N on cuda:N: rank {gpu}")
    if gpu > 0 and all(e.data.get("this") and e.data.get("tb_rank") in (None, gpu)
                       and not _shared(e.data, e.data["this"]) for e in evs) and not (
            any(size <= gpu for size, _ in c.world) or (gpu in c.ranks and waiting(c.ranks[gpu]))):
        # lead rule U (3): the failing process itself holds GPU N's memory ("this process has X in use"), and N > 0:
        # its visible devices are the node's (a per-process CUDA_VISIBLE_DEVICES, Ray's actors, show every process
        # its own GPU as 0), so GPU N is local rank N's device -- rank N on a job nothing says spans nodes, unless
        # the traceback pasted with it is another rank's
        return (f" on GPU {gpu}, which the failing process itself holds ('this process has ... in use'): a process "
                f"whose GPU index is {gpu} sees the node's GPU numbering, so it is local rank {gpu} of a job nothing "
                "says spans nodes")
    if gpu == 0 and _alone_on_gpu0(evs) and not (gpu in c.ranks and waiting(c.ranks[gpu])) and not _driven(c):
        return (" on GPU 0, which the failing process alone holds ('this process has ... in use', no other process "
                "listed on it): the process computing on GPU 0 of a job nothing says spans nodes is local rank 0")
    procs = d.get("procs") or []
    if d.get("this"):
        raiser, others = d["this"], [b for _, b in procs]
    else:
        big = [p for p in procs if d.get("alloc") and p[1] >= d["alloc"]]
        if len(big) != 1:
            return ""
        raiser, others = big[0][1], [b for p, b in procs if p != big[0][0]]
    if len(others) < 2 or len(set(others)) != 1 or others[0] * 4 > raiser or _shared(d, raiser):
        return ""
    if any(size <= gpu for size, _ in c.world) or (gpu in c.ranks and waiting(c.ranks[gpu])):
        return ""  # no such rank, or that rank's own lines show it waiting (a victim)
    return (f" on GPU {gpu}, which its own process computes on ({len(others)} other processes hold only "
            f"{others[0] / 2**20:.0f} MiB contexts there): the process whose device is GPU {gpu}, local rank {gpu} of "
            "a job nothing says spans nodes")


# A multi-host runner's host label right before the OOM's exception ("gpu-q-13: torch.cuda.OutOfMemoryError: ...":
# pdsh's, which DeepSpeed's and accelerate's runners use only when the job spans hosts), wherever a prefix of its own
# puts it (torchrun's "[default0]:node7: ..."): a name with a letter and a digit (not srun -l's bare task number, not
# a "rank3: " tag) reads as a host on its own; a name without a digit ("beta: ", "worker-a: ") only where the job is
# shown launched over several hosts (parse: pdsh's -w list, a hostfile's lines, two distinct labels -- the event's
# "multi_host"; lead ruling 1 of review 109 b)
_R_HOST_BEFORE_OOM = re.compile(r"(?<![\w.\-])(?!rank\d)[A-Za-z][\w.\-]{0,62}\d[\w.\-]{0,62}: (?:[\w.]{0,40}"
                                r"OutOfMemoryError|RuntimeError: CUDA out of memory)\b")
_R_LABEL_BEFORE_OOM = re.compile(r"(?<![\w.\-])(?!rank\d)[A-Za-z][\w.\-]{0,62}: (?:[\w.]{0,40}"
                                 r"OutOfMemoryError|RuntimeError: CUDA out of memory)\b")


def _host_labelled(evs: list) -> bool:
    """Lead rules A, U (3), BX (1) (round 109's deepspeed-2899): an OOM line behind a multi-host runner's host label
    (pdsh's "host: ") comes from a job spread over hosts, so its GPU index is a local one that names no global rank."""
    return any(_R_HOST_BEFORE_OOM.search(e.text)
               or (e.data.get("multi_host") and _R_LABEL_BEFORE_OOM.search(e.text)) for e in evs)


def _shared(d: dict, own: float) -> bool:
    """Lead rule BX (1) on torch >= 2.1's text, whose "Process P has X memory in use" lines show the GPU shared: the
    memory in use outside the failing process's own (capacity less free less OWN, what "this process has") larger than
    both OWN and the shortfall (the request less what is free) -- other processes' memory, however small each one's
    (sixteen workers' contexts and buffers all on GPU 0, no set_device), held the GPU and caused the failure, so the
    GPU's index names no process of its own. False where the text gives no capacity or request."""
    cap = d.get("cap")
    if not cap or not d.get("procs"):
        return False
    total, free, tried = cap
    outside = total - free - own
    return outside > own and outside > tried - free


# A driver's own word that the failure was its remote worker's (RLinf's "Exiting main process due to a failure upon
# worker execution.", Ray's RayTaskError / ActorDiedError): the process that failed is a worker the driver placed
# itself, each with its own CUDA_VISIBLE_DEVICES, so every such worker sees its GPU as "GPU 0"
_R_DRIVEN = re.compile(r"\bfailure upon worker execution\b|\bRayTaskError\b|\bActorDiedError\b")


def _driven(c: Collected) -> bool:
    """Lead rule U (3): the lines no family read, the exceptions or the OOM lines themselves (Ray's
    "RayTaskError(OutOfMemoryError)") show a driver reporting its worker's failure:
    GPU 0 is that worker's own visible device, no local rank (rlinf-272's reading without its other processes)."""
    return any(_R_DRIVEN.search(x.text) for x in list(c.unread) + list(c.exceptions) + c.samples.get("cuda_oom", []))


def _alone_on_gpu0(evs: list[Event]) -> bool:
    """Lead rule U (3) on GPU 0: one process's OOM (one reading of 'this process has X in use', the traceback pasted
    with it unranked or rank 0's) that lists no other process on the GPU: the failing process alone holds GPU 0's
    memory. Where processes share one visible 'GPU 0' (Ray's actors, each its own CUDA_VISIBLE_DEVICES, colocated with
    an engine) torch lists the other processes holding memory there, and several ranks' OOMs read differently."""
    if not all(e.data.get("this") and e.data.get("tb_rank") in (None, 0) for e in evs):
        return False
    return len({e.data["this"] for e in evs}) == 1 and not any(e.data.get("procs") for e in evs)


def _field_rank(c: Collected) -> int | None:
    """Lead rule A: an unranked CUDA OOM whose output the launcher closes with the process's span field on the next line
    (TGI relays a shard's error output, then " rank=N", then "Shard N failed to start") is that process's own: rank N.
    None when the OOMs name no such field, several, or that rank is shown waiting (a victim)."""
    fields = {e.data.get("field_rank") for e in c.samples.get("cuda_oom", [])}
    if len(fields) != 1 or None in fields:
        return None
    rank = fields.pop()
    if any(size <= rank for size, _ in c.world) or (rank in c.ranks and waiting(c.ranks[rank])):
        return None
    return rank


def _oom_gpu_of_its_traceback(c: Collected, holds: str) -> int | None:
    """GPU N of an unranked CUDA OOM whose every line says (data[HOLDS]) the failing process holds that GPU, pasted
    with the traceback it belongs to under the launcher's prefix of rank N, on a job nothing says spans nodes, rank N
    in the world and not shown waiting -- None otherwise (the shared checks of _tb_agrees and _pid_owner)."""
    evs = c.samples.get("cuda_oom", [])
    gpus = {e.data.get("gpu") for e in evs}
    if not evs or len(gpus) != 1 or None in gpus or node_count(c) > 1:
        return None
    gpu = evs[0].data["gpu"]
    if not all(e.data.get(holds) and e.data.get("tb_rank") == gpu for e in evs):
        return None
    if any(size <= gpu for size, _ in c.world) or (gpu in c.ranks and waiting(c.ranks[gpu])):
        return None
    return gpu


def _sole_traceback_rank(c: Collected) -> int | None:
    """Lead rules A, AN (1) (round 97's lightning-thunder-1296): an unranked GPU OOM line naming no GPU (a reporter's
    summary of the error, a library's CUBLAS_STATUS_ALLOC_FAILED) pasted with one traceback, cut in its frames before
    its own exception line, under a launcher's tag of rank N ("[rank0]:"), and no other rank shown anywhere (no other
    tag, traceback or failure; rank N not waiting, inside the world): the error is rank N's own -- N. None otherwise
    (two ranks' tracebacks, an untagged traceback beside it, another exception shown: rule J / AC (1); an OOM naming
    its GPU, whose index the readings of rules U (3) and BA (2) weigh against the traceback's rank)."""
    evs = c.samples.get("cuda_oom", [])
    if not evs or any(e.rank is not None for e in evs) or c.child_failures:
        return None
    if any(e.data.get("gpu") is not None or e.data.get("old_figs") for e in evs):
        return None  # an OOM naming its GPU: whose it is, the index's own readings say (rules U (3), BA (2))
    tbs = c.samples.get("tb_open", []) + c.samples.get("tb_cut", [])
    tagged = {e.data.get("rank") for e in tbs}
    if len(tagged) != 1 or None in tagged:
        return None
    r = next(iter(tagged))
    if not isinstance(r, int) or set(c.ranks) - {r} or any(e.rank not in (None, r) for e in c.exceptions):
        return None
    if (r in c.ranks and waiting(c.ranks[r])) or any(size <= r for size, _ in c.world):
        return None
    if any(_R_COLL_CALL.search(f"{e.data.get('func') or ''} {e.data.get('code') or ''}") for e in tbs):
        return None  # its traceback is cut inside a collective or its wait: the rank shown waiting, a victim's shape
    return r


# a traceback's last frame or code line inside torch.distributed's collectives or their waits ("in barrier" /
# "work.wait()", "dist.all_reduce(t)"): the process was waiting on its peers (review 96 second review, finding 3)
_R_COLL_CALL = re.compile(r"\b(?:barrier|monitored_barrier|all_reduce|all_gather\w*|reduce_scatter\w*|broadcast\w*|"
                          r"all_to_all\w*|gather\w*|scatter\w*|reduce|send|recv|isend|irecv|batch_isend_irecv|wait)\b|"
                          r"\bdist\.\w+\(|\bwork\.wait\(")


def _tb_agrees(c: Collected) -> str:
    """Lead rules U (3), A: an unranked CUDA OOM whose text says the failing process itself holds GPU N's memory
    ("GPU N ... this process has X memory in use"), pasted with the traceback it belongs to, that traceback under the
    launcher's prefix of rank N: the GPU index and the rank agree, and nothing says the job spans nodes -- rank N.
    "" when they disagree (another rank's traceback, a per-process CUDA_VISIBLE_DEVICES), or rank N is shown waiting."""
    gpu = _oom_gpu_of_its_traceback(c, "this")
    if gpu is None:
        return ""
    return (f" on GPU {gpu}, which the failing process itself holds ('this process has ... in use'), and the "
            f"traceback pasted with it is [rank{gpu}]'s: the GPU index and the rank agree on a job nothing says spans "
            "nodes")


def _pid_owner(c: Collected) -> str:
    """Lead rule BA (2), extending U (3): an unranked CUDA OOM that lists one process on GPU N by its pid, with no
    "this process has", whose failing allocator's own figures fit only inside that process (readers.crash._pid_holder:
    it is the raiser, holding the GPU's memory), pasted with the traceback it belongs to under the launcher's prefix of
    rank N, the only traceback there: the GPU index and the rank agree on a job nothing says spans nodes -- rank N.
    "" otherwise (no traceback of that rank: the index alone is not a rank; rank N shown waiting)."""
    gpu = _oom_gpu_of_its_traceback(c, "pid_own")
    if gpu is None or any(r != gpu and own_errors(st) for r, st in c.ranks.items()):
        return ""  # no such rank, rank N a victim, or another rank's own failure shown beside it
    held = c.samples["cuda_oom"][0].data["pid_own"] / 2**30
    return (f" on GPU {gpu}, which the failing process itself holds (the one process listed there, {held:.2f} GiB in "
            "use, is the only one its allocator's own figures fit in), and the traceback pasted with it is "
            f"[rank{gpu}]'s: the GPU index and the rank agree on a job nothing says spans nodes")


# a launcher's or framework's unread line naming a numbered process that failed ("Shard 1 failed to start", "worker 3
# died"): another process shown failing, which the GPU index of an OOM beside it does not name (lead rule BX (1))
_R_OTHER_FAILED = re.compile(r"\b(?:[Ss]hard|[Rr]ank|[Ww]orker) ?(\d{1,5}) (?:failed|died|exited|crashed)\b|"
                             r"\bProcess (\d{1,5}) terminated with\b")


def _old_owner(c: Collected) -> str:
    """Lead rule BX (1), extending U (3) and BA (2) to torch 1.x's text: an unranked CUDA OOM "Tried to allocate S (GPU
    N; T total capacity; A already allocated; F free; R reserved in total by PyTorch)" (raised, or logged by a trainer
    that caught it; cut after R or not) gives the failing process's own allocator figures on GPU N. A and R above zero
    are that process holding memory there; where the memory in use outside R (T - F - R) is no larger than R, or no
    larger than the shortfall (S - F), no other process's memory caused the failure, so the process computing on GPU N
    of a job nothing says spans nodes is local rank N: rank N, with no other process shown failing and rank N not
    shown waiting. "" where the figures show the GPU shared (A or R zero, the memory outside R larger than both), the
    OOMs name several GPUs or none (a bare "CUDA error: out of memory"), or the lines show several nodes."""
    evs = c.samples.get("cuda_oom", [])
    figs = [e.data.get("old_figs") for e in evs]
    if not evs or None in figs or len({f["gpu"] for f in figs}) != 1 or node_count(c) > 1 or _host_labelled(evs):
        return ""
    if any(e.data.get("repeated") for e in evs):
        return ""  # Ray's "[repeated Nx across cluster]": several workers raised it alike (lead rule J), no one index's
    gpu = figs[0]["gpu"]
    for e, f in zip(evs, figs):
        outside, short = f["total"] - f["free"] - f["reserved"], (f["tried"] or 0) - f["free"]
        if e.data.get("tb_rank") not in (None, gpu) or not (f["alloc"] > 0 and f["reserved"] > 0) or (
                outside > f["reserved"] and outside > short):
            return ""
    if any(size <= gpu for size, _ in c.world) or (gpu in c.ranks and waiting(c.ranks[gpu])):
        return ""  # no such rank, or that rank's own lines show it waiting (a victim)
    if any(r != gpu and own_errors(st) for r, st in c.ranks.items()) or any(
            (e.rank if e.rank is not None else e.data.get("local_rank")) != gpu for e in failed_on_own(c)) or any(
            (m := _R_OTHER_FAILED.search(e.text)) and int(m.group(1) or m.group(2)) != gpu for e in c.unread):
        return ""  # another process shown failing beside it (a launcher's "Shard 1 failed to start", spawn's
        # "Process 2 terminated with the following error" header included)

    f = figs[0]
    dev = f.get("dev") or "GPU"  # torch_npu's "NPU N": the same reading of an accelerator's index (lead rule AN (2))
    return (f" on {dev} {gpu}, whose memory the failing process's own allocator holds ({f['alloc'] / 2**30:.2f} GiB "
            f"allocated, {f['reserved'] / 2**30:.2f} GiB reserved of the {f['total'] / 2**30:.2f} GiB; no other "
            f"process's memory there explains the failure): the process computing on {dev} "
            f"{gpu} of a job nothing says spans nodes is local rank {gpu}")


def _data_parallel(c: Collected) -> bool:
    """Lead rules AG, BX (1), U (3): the OOM raised inside torch.nn.DataParallel -- its traceback through DataParallel's
    own frames (readers.crash: "dp"), or torch's re-raise "Caught X in replica N on device N" -- is one process
    driving every GPU, each replica a thread of it: the GPU index names a replica's device, not a process (no local
    rank N), so no owner reading of the index applies (a world of one, no launcher record: nobody named)."""
    evs = c.samples.get("cuda_oom", [])
    return any(e.data.get("dp") for e in evs) or any(
        "in replica" in x.text and R_DP_REPLICA.search(x.text) for x in list(c.exceptions) + list(c.unread) + evs)


def _old_figures_fix(c: Collected) -> str:
    """The fix's words torch 1.x's OOM figures add (lead rule BX (1)): one request larger than the whole GPU (S > T)
    is the batch's (or one op's) peak itself, no allocator setting helps; the allocator's reserved-but-unallocated
    memory (R - A) at least the request (S) is fragmentation, which the allocator's split setting addresses -- named as
    a setting only where the message itself offers it ("... try setting max_split_size_mb": torch >= 1.10, data
    "split_hint"); an older torch (its "reserved in total" without the hint, or "cached", torch <= 1.3) ignores
    PYTORCH_CUDA_ALLOC_CONF, so it is an upgrade there; expandable_segments only from torch 2.1."""
    for e in c.samples.get("cuda_oom", []):
        f = e.data.get("old_figs")
        if not f or not f["tried"]:
            continue
        gib = 2 ** 30
        if f["tried"] > f["total"]:
            return (f"One allocation of {f['tried'] / gib:.2f} GiB is larger than the whole GPU "
                    f"({f['total'] / gib:.2f} GiB): the batch's peak (batch size, tokens per GPU, sequence length) or "
                    "the one op allocating it must shrink -- reduce the batch size / max tokens, chunk or shard that "
                    "op (model/tensor parallelism or FSDP); no allocator setting helps. ")
        if f["reserved"] - f["alloc"] >= f["tried"] > 0:
            said = (f"The allocator holds {(f['reserved'] - f['alloc']) / gib:.2f} GiB reserved but unallocated, "
                    f"more than the {f['tried'] / gib:.2f} GiB asked: fragmentation -- ")
            if f.get("split_hint"):  # the message's own hint: this torch (>= 1.10) reads max_split_size_mb
                conf = "PYTORCH_NPU_ALLOC_CONF" if f.get("dev") == "NPU" else "PYTORCH_CUDA_ALLOC_CONF"
                return (said + f"set {conf}=max_split_size_mb:128 (expandable_segments:True "
                        "instead on torch >= 2.1), and lower the peak batch (batch size, gradient checkpointing). ")
            return (said + "upgrade torch (>= 1.10) for PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb (this torch's "
                    "message offers no such setting; older releases ignore the variable), or lower the peak batch "
                    "(batch size, gradient checkpointing). ")
    return ""


_PROXY = re.compile(r"\[Proxy Service (\d{1,7})\]")


def _proxy_rank(c: Collected, evs: list[Event]) -> list[int]:
    """The rank of an unranked NCCL line from its process: NCCL's "[Proxy Service N]" thread runs in rank N's
    process (its proxyState's own rank), so a WARN of that thread on the same host:pid names the process of
    the OOM (the rank inside that communicator; the global one in the default group)."""
    pids = {(e.host, e.pid) for e in evs if e.pid is not None}
    found = {int(m.group(1)) for k in ("nccl_warn", "nccl_error", "socket_error") for e in c.samples.get(k, [])
             if (e.host, e.pid) in pids and (m := _PROXY.search(e.text))}
    return sorted(found) if len(found) == 1 else []


_CRASH_EXITS = (-11, -7, -4, -8)  # SIGSEGV, SIGBUS, SIGILL, SIGFPE: a native crash, not an abort


def _host_mem(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """A process's own exception saying host RAM ran out (torch's DefaultCPUAllocator, Python's MemoryError):
    host_oom, on the rank its line names, else the one the launcher shows failing (rule A)."""
    evs = c.samples.get("host_mem", [])
    if not evs:
        return None
    ranks = _ranks(c, "host_mem")
    lone = lone_failure(c)
    if lone is not None and lone.exitcode in _CRASH_EXITS and all(e.data.get("abort") for e in evs):
        # std::terminate on an uncaught std::bad_alloc ends its process with SIGABRT (-6): a process the launcher
        # records ending on a crash signal (SIGSEGV -11, SIGBUS -7) died of that crash, which the terminate line does
        # not explain (it may be a bad size, not RAM): cause unknown on the process the record names (rule A's table,
        # BJ (1): host_oom needs the OOM killer, -9 or 'Killed'); the bad_alloc only adds fix words (round 90's
        # point-uv-diffusion-3). A -6 beside it is the terminate's own abort, read as host_oom below.
        sig = {-11: "SIGSEGV", -7: "SIGBUS", -4: "SIGILL", -8: "SIGFPE"}[lone.exitcode]
        return Verdict(
            "unknown",
            f"{_named(ranks) if ranks else lone.who} ended on a native crash ({sig}, exit code {lone.exitcode}) "
            "after an uncaught std::bad_alloc "
            f"({_what(evs[0])[:120]}): std::terminate's own end is SIGABRT (-6), so the crash is what ended it, and "
            "the lines show neither the OOM killer nor what crashed",
            "Check host memory first (std::bad_alloc): free -h and dmesg on that node (the OOM killer, a cgroup "
            "limit), swap, smaller batch size / fewer DataLoader num_workers / less data held in memory per process "
            "or fewer processes per node; also check for a corrupted or huge tensor size passed to an allocation. "
            "If memory is not short, take the native stack of the crash: PYTHONFAULTHANDLER=1 (python -X "
            "faulthandler) and a core dump / gdb backtrace (ulimit -c unlimited; gdb python core -> bt).",
            "medium", ranks or lone.culprits, _samples(c, "host_mem"))
    if not ranks:
        # a SIGABRT is the abort of an uncaught std::bad_alloc when that is what the lines show (std::terminate)
        abort = any(e.data.get("abort") for e in evs)
        ranks = lone.culprits if lone is not None and (lone.exitcode not in (None, 0, -6, -15) or
                                                       abort and lone.exitcode == -6) else []
    return Verdict(
        "host_oom",
        f"{_named(ranks)} could not allocate host memory (its own exception: {_what(evs[0])[:120]}): the node's RAM "
        "(or the job's memory limit) ran out in that process; the other ranks then waited for it or were stopped",
        "Lower the host memory that process needs: load checkpoints memory-mapped or sharded (safetensors, "
        "low_cpu_mem_usage=True), fewer DataLoader workers / smaller prefetch, no full copies of the dataset per "
        "rank, fewer processes per node (--nproc_per_node) where every process holds its own copy; check the "
        "node's free RAM and the job's limit (free -g, free -h / dmesg for the OOM killer, the scheduler's --mem, the "
        "container's memory limit, ulimit -v) and add RAM or swap where the job needs it.",
        "high" if len(ranks) == 1 else "medium", ranks, _samples(c, "host_mem"))


_RSS_GROWTH = 4  # the highest reading at least this many times the first
_RSS_GROWN_KIB = 16 * 1024 ** 2  # and at least this much more (16 GiB): a runaway, not a warm-up's cache filling


def _rss_runaway(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """A training loop's own per-step readout of its process's resident host memory (RSS) that grows many-fold within
    its lines (to at least 4 times its first reading and by 16 GiB or more), with nothing else failing shown: that
    process's host memory is running away (a leak, a cache or a DataLoader queue growing without bound) and the OOM
    killer ends it: host_oom, the rank the readout names (medium; unnamed, or several ranks growing alike: nobody)."""
    grown = [e for e in c.samples.get("host_rss", []) if e.data["n"] >= 3 and e.data["first"] > 0 and
             e.data["top"] >= _RSS_GROWTH * e.data["first"] and e.data["top"] - e.data["first"] >= _RSS_GROWN_KIB]
    if not grown:
        return None
    # one readout growing names its rank; several growing alike are a cause they share (lead rule J): nobody
    named = [grown[0].data["rank"]] if len(grown) == 1 and grown[0].data["rank"] is not None else []
    e = max(grown, key=lambda x: x.data["top"] / x.data["first"])
    gib = 1024 ** 2
    return Verdict(
        "host_oom",
        f"{_named(named) if named else 'a process'}'s own per-step readout of its resident host memory (RSS) grows "
        f"from {e.data['first'] / gib:.2f} GiB to {e.data['top'] / gib:.2f} GiB over {e.data['n']} readings: a "
        "runaway host-memory allocation in that process (a leak, a cache or a queue growing without bound), which "
        "the kernel's OOM killer ends once the node's RAM (or the job's limit) is spent",
        "Find what grows in that process's host memory (RSS): tracemalloc or a memory profiler (memray, "
        "py-spy dump) around the training step; the usual suspects are the DataLoader (num_workers / prefetch_factor, "
        "a dataset caching what it reads, copy-on-read of Python lists in workers), tensors or losses kept with "
        "their graph (append loss.item(), not loss), and batch size / max sequence length outliers. Confirm the end "
        "with dmesg -T | grep -i 'killed process' (the OOM killer) on that node.",
        "medium" if named else "low", named, [x.brief() for x in grown[:3]])


def srun_oom_ranks(c: Collected, wf: list[Event]) -> list[int]:
    """Lead rules A and AI (2): the tasks srun says the step's OOM killer took ("task 0: Out Of Memory") as global
    ranks, where the batch script shows more tasks than nodes (#SBATCH -n 4 beside -N 1, or beside the one host srun's
    lines name): srun then starts one task a rank, and SLURM_PROCID, the task's number, is the rank. [] otherwise (one
    task a node is a per-node launcher holding several ranks)."""
    oom = [e for e in wf if e.data.get("srun_tasks")]
    sizes = c.samples.get("launch_tasks", [])
    tasks = max((e.data["job_tasks"] for e in sizes if e.data.get("job_tasks")), default=0)
    nodes = max([e.data["job_nodes"] for e in sizes if e.data.get("job_nodes")] + [len({e.host for e in oom})])
    if not oom or tasks < 2 or tasks <= nodes:
        return []
    return sorted({r for e in oom for r in e.data["srun_tasks"] if r < tasks})


# a process's end on a native crash signal (SIGSEGV, SIGBUS, SIGILL, SIGFPE): its own failure, never a kill from outside
_CRASH_CODES = (-11, -7, -4, -8)


def _killed(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    down = {id(e) for e in torn_down(c)}  # a -9 after another process's own failure: the agent's clean-up
    # a process killed right after its own exception (parse: its "Killed" under the rank tag of the exception just
    # above it) had failed on its own: the kill stopped it on its way out, no OOM killer (lead rules A, J)
    cf = [e for e in c.child_failures if (e.data.get("exitcode") == -9 or e.data.get("signal") == "SIGKILL")
          and id(e) not in down]
    wf = [e for e in c.worker_failures if e.data.get("exitcode") == -9 and id(e) not in down]
    marked = [e for e in wf if e.data.get("raised_rank") is not None]
    wf = [e for e in wf if e.data.get("raised_rank") is None]
    if marked and not wf and len(cf) <= len(marked):
        # every kill the lines show came right after its process's own error, and the launcher records no more
        # SIGKILLs than that: its records are those same kills (whatever rank a paste's prefix gives the lines)
        cf = []
    raised = {k.data["raised_rank"] for k in marked}
    cf = [e for e in cf if e.rank not in raised]
    if not cf and not wf:
        return None
    crashed = {e.rank for e in c.child_failures if e.rank is not None and id(e) not in down
               and e.data.get("exitcode") in _CRASH_CODES}
    if cf and not wf and crashed - {e.rank for e in cf}:
        # another rank's record ends on a native crash (PALS' "rank 0 died from signal 11 and dumped core" beside
        # "rank 4 died from signal 9"): two processes failing on their own, of different ends, neither torn down by
        # the other (a launcher's teardown is SIGTERM, rule A) -- each is a culprit and the SIGKILL alone names no
        # cause for the job: read by the lone/alike failure verdicts, not as host_oom (lead rules A, J; round 105's
        # ezpz-210)
        return None
    ranks = sorted({e.rank for e in cf if e.rank is not None})
    local = sorted({e.data.get("local_rank") for e in wf if e.data.get("local_rank") is not None})
    who = _named(ranks) if ranks else (f"local rank {_fmt_ranks(local)}" if local else "a rank")
    lone = lone_failure(c)
    if not ranks and lone is not None and lone.exitcode == -9:
        who, ranks = lone.who, lone.culprits  # the one process killed, the others only torn down after it
    elif not ranks and lone is not None and lone.culprits and lone.event.data.get("alone") and not cf and \
            local == [lone.local_rank] and lone.event.kind == "child_failed":
        # the agent's -9 line is the worker torchrun's table names as its one failure (<NO_OTHER_FAILURES>, the
        # same local rank: lone.failed_on_own), told by a record of another run with another code: the SIGKILL is
        # the record that gives a cause, the table the rank (lead rule A; round 79's real-esrgan-302)
        who, ranks = lone.who, lone.culprits
    srun = [] if ranks or local else srun_oom_ranks(c, wf)
    if srun:  # slurmstepd's "oom-kill event(s)" lines are the step's count of that same kill, no other process
        who = (f"{_named(srun)} (srun's task {_fmt_ranks(srun)}: the batch script runs more tasks than nodes, one "
               "task a rank)")
        ranks = srun
    unshown = root_not_shown(c, failed_on_own(c))
    if (died_alike(c) and not srun) or unshown:
        return Verdict(
            "host_oom",
            (f"{_listed(cf + wf)} was killed with SIGKILL (exit code -9){_ROOT_UNSHOWN}" if unshown else
             f"every process the launcher's record shows ({_named(ranks) if ranks else who}) was killed with SIGKILL "
             "(exit code -9) within the same second and none was only torn down")
            + ": the host (or the job's cgroup) ran "
            "out of memory for all of them at once -- the OOM killer, or the scheduler's memory limit -- not one "
            "rank's fault",
            "Confirm with dmesg -T | grep -i 'killed process' (or the scheduler's record: sacct MaxRSS, kubectl "
            "describe pod 'OOMKilled') on that node; lower the host memory every process uses at once (fewer "
            "DataLoader workers: reduce num_workers, mmap / sharded checkpoint loading, staggered model loading) or "
            "raise the job's "
            "memory limit (Slurm: --mem / --mem-per-gpu).",
            "medium", [], [e.brief() for e in (cf + wf)[:3]], job_wide=True)
    ray = any("Ray" in str(e.data.get("killed", "")) for e in wf)
    return Verdict(
        "host_oom",
        ("a Ray worker (no rank named) was killed by Ray's memory monitor: the node's host memory (RAM) crossed its "
         "kill threshold, and it killed a worker before the kernel's OOM killer would; errors of the actors or ranks "
         "that used that worker are consequences"
         if ray and not ranks and not cf else
         f"{who} was killed with SIGKILL (exit code -9{_shell_status(cf)}): killed from outside, almost always the "
         "kernel's OOM killer (host RAM); the launcher (torchrun, DeepSpeed, mp.spawn) then stopped the others"),
        "Confirm it (check dmesg for the OOM killer, which sends that SIGKILL: dmesg -T | grep -i 'killed process' "
        "on that node); "
        "lower the host memory (RAM) per worker, which the node holds once for every worker it runs (fewer "
        "DataLoader workers: reduce num_workers, load data lazily (each sample read from disk when it is used) "
        "instead of a full copy of the dataset or its annotations in every worker, mmap / sharded checkpoint "
        "loading, fewer processes loading the model at once: "
        "fewer processes per node, or the full weights loaded on rank 0 only and broadcast, FSDP's "
        "sync_module_states) or raise the job's memory limit (Slurm: --mem / --mem-per-gpu; sacct -j JOB -o "
        "MaxRSS,ReqMem shows what the step used), or give the node more host RAM or swap."
        + (" Ray's memory monitor killed it before the kernel would: `ray logs raylet.out -ip NODE` names the "
           "worker; RAY_memory_usage_threshold (default 0.95 of the node's RAM) sets when it kills. Its message lists "
           "the node's top memory users (PID, MEM(GB), COMMAND): the largest is what filled the RAM, and it need not "
           "be the worker it killed (another process on the node, a server beside the job)" if ray else "")
        + (" Kubernetes: kubectl describe pod and kubectl get events show the eviction or OOMKilled; set the pod's "
           "memory requests and limits to what the job uses (under node memory pressure the kubelet evicts first "
           "the pods using more than their request)"
           if any(w in str(e.data.get("killed", "")) for e in wf for w in ("OOMKilled", "resource: memory",
                                                                             "MemoryPressure")) else "")
        + (_MEMBIND if any(e.data.get("membind") for e in wf) else ""),
        "high" if ranks and cf else "medium",
        ranks,
        [e.brief() for e in (cf + wf)[:3]],
    )


# the killed command ran under "numactl --membind=N": the process may use one NUMA node's memory only, so the OOM
# killer takes it when that node is full however much the host has free (parse: the shell's kill record)
_MEMBIND = (" The killed command runs under a numactl --membind NUMA node memory binding (--membind=N): it may use "
            "that one node's memory only, so the kernel kills it when that node is full even with the host's other "
            "nodes free (numactl -H shows each node's free memory); lower that node's use, or let it spill with "
            "--preferred / --interleave instead of --membind.")


# lead rule J read from torchrun's "Failures:" list when its "Root Cause" entry is not pasted (lone.root_not_shown)
_ROOT_UNSHOWN = (", and torchrun lists it under 'Failures:', the failures besides its root cause: at least one more "
                 "process (the root cause, whose entry is not in these lines) failed on its own at the same time")


def _listed(evs: list[Event]) -> str:
    ranks = sorted({e.rank for e in evs if e.rank is not None})
    return _named(ranks) if ranks else "a process"


def _shell_status(evs: list[Event]) -> str:
    """How the launcher printed a signal's exit: a shell's status 128 + N (horovodrun's 'status code 137'), or the
    status 256 - N a caller got from DeepSpeed's runner (its launcher's sys.exit(-N): parse._ds_status)."""
    ds = next((e.data["ds_status"] for e in evs if e.data.get("ds_status")), None)
    if ds:
        return (f"; status {ds} = 256 - {256 - ds}: DeepSpeed's launcher exits with its failed worker's -{256 - ds} "
                "and its runner passes that on")
    st = next((e.data["status"] for e in evs if (e.data.get("status") or 0) > 128), None)
    return f"; status {st} = 128 + {st - 128}, as a shell reports a signal" if st else ""


def _world_of_one(c: Collected, ranks: list[int]) -> bool:
    """Lead rule AG: the lines show a world of one process -- rank 0 alone (a launcher's output tag such as mpirun's
    "[1,0]<stderr>:"), no other rank anywhere, no world size above one -- and no launcher's failure record. A
    shared resource (/dev/shm) failing there is the whole job's, not a rank's (rule J): nobody is named."""
    size = world_size(c)[0]
    return (ranks == [0] and set(c.ranks) <= {0} and (size is None or size <= 1)
            and not c.child_failures and not c.worker_failures)


def _mp_tmp(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules F and AL (1): Python's multiprocessing could not create its temp directory (pymp-*) -- where the
    socket of resource_sharer lives, which hands a DataLoader batch's shared storage (torch's reduce_storage ->
    DupFd) from a worker's queue feeder to the main process. The batch is never delivered, the training loop waits
    on it, and what follows -- the heartbeat monitor firing, the launcher killing the processes, a bare 'Killed' --
    is that hang's aftermath: the earlier failure decides. Read before the kill (_killed) unless the launcher's
    record names a rank killed with SIGKILL (a kill of its own, which comes first)."""
    evs = [e for e in c.samples.get("dataloader", []) if e.data.get("mp_tmp")]
    if not evs or any(e.rank is not None and (e.data.get("exitcode") == -9 or e.data.get("signal") == "SIGKILL")
                      for e in c.child_failures):
        return None
    e = evs[0]
    ranks = sorted({x.rank for x in evs if x.rank is not None})
    where = e.data["mp_tmp"]
    full = e.data.get("mp_errno") in (28, 122)  # ENOSPC, EDQUOT
    return Verdict(
        "dataloader_shm",
        f"a process of {_named(ranks)} could not create multiprocessing's temp directory ('{_what(e)[:140]}'): "
        f"{where} is {'full' if full else 'unusable'} ({e.data.get('mp_said')}), and that is where the socket "
        "passing a DataLoader batch's shared tensor between processes lives (resource_sharer, the file_descriptor "
        "sharing strategy): the batch was never delivered"
        + ("; the heartbeat monitor firing and the kill afterwards are that hang's aftermath, not its cause"
           if c.kinds.get("heartbeat") or c.worker_failures or c.child_failures else ""),
        f"Free space in {where} (df -h {where}; old checkpoints, caches and pymp-*/torch_* leftovers) or point "
        "TMPDIR at a disk with room before the job starts; torch.multiprocessing.set_sharing_strategy('file_system') "
        "passes tensors without the fd-passing socket; fewer num_workers lowers the load.",
        "medium", ranks, [x.brief() for x in evs[:2]], job_wide=not ranks)


_IN_WORKER = re.compile(r"[Uu]nexpected [a-zA-Z -]{3,40} encountered in (?:DataLoader )?worker")


def _own_sigterm(c: Collected, evs: list[Event]) -> list[int]:
    """Lead rules A, I, J on a DataLoader worker's SIGTERM ("[rank0]: RuntimeError: DataLoader worker (pid P) is killed
    by signal: Terminated"): the one rank whose own tag raises it, named as the rank whose loader failed (round 99's
    ultralytics-16400) -- only when nothing shows the SIGTERM to be the job's stop reaching that rank. [] where several
    ranks raise it alike (rule J: the stop was the job's), where a launcher's failure record names another rank (its
    root cause failed first and the agent tore the rest down: this rank is its victim), where torchrun's agent is shown
    sending its closing signals ("Sending process P closing signal SIGTERM") with no record showing this rank exit on
    its own (an exit code other than the agent's -15 / -9), where another rank shows a failure of its own (review
    98 finding 1), or where a line shows the whole job stopped from outside (_JOB_STOPPED)."""
    own = sorted({e.rank for e in evs if e.rank is not None and (e.data.get("signal") or "").strip().lower()
                  .startswith("terminated")})
    if len(own) != 1:
        return []
    recs = {e.rank for e in c.child_failures + c.worker_failures if e.rank is not None}
    if recs - set(own):
        return []  # the record's rank failed first; the SIGTERM was the agent's teardown of the rest
    if any(e.data.get("sent") == "SIGTERM" for e in c.samples.get("signal", [])) and not any(
            e.rank == own[0] and e.data.get("exitcode") not in (None, -9, -15)
            for e in c.child_failures + c.worker_failures):
        return []  # torchrun's agent stopping its workers after one exited, no record showing this rank exit first
    if any(own_errors(st) for r, st in c.ranks.items() if r != own[0]):
        return []
    if any(e.data.get(k) for e in c.samples.get("signal", []) for k in _JOB_STOPPED):
        return []  # the whole job stopped from outside: its SIGTERM reached this rank's workers (rule J)
    return own


# a signal line showing the whole job stopped from outside (second review of session 38, finding 3): the scheduler's
# cancel or time limit, torchrun's agent receiving a death signal, the shell or CI runner ending it, Ctrl-C, a job
# process logging the SIGTERM it got
_JOB_STOPPED = ("sched", "received", "worker_got", "shell_term", "runner_sig", "ctrl_c")


def _dataloader(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    evs = c.samples.get("dataloader", [])
    if not evs:
        return None
    ranks = _ranks(c, "dataloader")
    one = _world_of_one(c, ranks) and all(e.data.get("bus_error") or e.data.get("shm_file") for e in evs)
    if one:
        ranks = []  # lead rule AG: a one-process job's /dev/shm, with no record naming the process
    if not ranks:  # lead rule A: the worker's error ends its main process, the one the launcher shows failing
        lone = lone_failure(c)
        # (Paddle's record prints no exit code, but lists only processes that exited nonzero: "whole")
        ranks = lone.culprits if lone is not None and (lone.exitcode not in (None, 0, -6, -15) or (
            lone.exitcode is None and lone.event.data.get("whole"))) else []
    shm = [e for e in evs if e.data.get("shm_file")]
    if shm:
        return _shm_file(c, shm, ranks)
    exists = [e for e in evs if e.data.get("shm_exists")]
    if exists:
        return _shm_exists(exists, ranks)
    reset = [e for e in evs if e.data.get("fetch_reset")]
    if reset and len(reset) == len(evs):
        return _fetch_reset(reset, ranks)
    bus = any(e.data.get("bus_error") for e in evs)
    sigs = [(e.data.get("signal") or "").strip().lower() for e in evs]
    killed = not bus and any(s.startswith("kill") for s in sigs)
    if not bus and not killed and any(s.startswith("terminated") for s in sigs):
        # SIGTERM ("killed by signal: Terminated") is a polite stop sent from outside the worker (a scheduler, a
        # container runtime, a user's kill, the main process's own shutdown): not the OOM killer (SIGKILL) nor a
        # full /dev/shm (SIGBUS). Its rank is named as rule BO (4) names a worker's death -- the error line's own
        # rank tag ("[rank0]: RuntimeError: DataLoader worker ... Terminated"), rules A, I: the rank whose loader
        # failed (round 99's ultralytics-16400); an untagged line names nobody (mmsegmentation-2085)
        own = _own_sigterm(c, evs)
        return Verdict(
            "signal",
            f"a DataLoader worker{' of ' + _named(own) if own else ''} was stopped by SIGTERM ('killed by signal: "
            "Terminated'), a signal sent from outside the process -- not the OOM killer (SIGKILL) nor a bus error "
            "(/dev/shm)" + ("; the error is raised under that rank's own tag" if own else "; no rank's own failure "
                            "shows"),
            "Find who sent the SIGTERM: the scheduler / container limits (a time limit, a preemption, a cancel, an "
            "orchestrator stopping the container), a user's or script's kill; check dmesg and the scheduler's log"
            + (" and the other ranks' logs (ranks stopped at the same moment point to the job's stop, not this "
               "rank's loader)" if own else "") + ". "
            "If it recurs with no outside stop, try fewer num_workers or num_workers=0 to see the real error.",
            "medium", own, _samples(c, "dataloader"))
    crashed = [s for s in sigs if s and not s.startswith(("kill", "terminated", "bus"))]
    if not bus and not killed and crashed:
        # a worker killed by its own fault (SIGSEGV "Segmentation fault", SIGABRT "Aborted", SIGFPE): a native crash
        # inside the worker process -- the dataset code's C extensions (image/video decoders, OpenCV's threads) or a
        # library built for another numpy/torch -- not memory taken back by the host: rule A's native crash, whose
        # cause the lines do not show (the rank whose loader it was stays the culprit)
        sig = crashed[0].rstrip(". ").capitalize()
        # torch's worker handler says it in its own words ("Unexpected segmentation fault encountered in worker")
        said = next((f"'{m.group(0)}'" for e in evs if (m := _IN_WORKER.search(e.text))),
                    f"'killed by signal: {sig}'")
        return Verdict(
            "unknown",
            f"a DataLoader worker of {_named(ranks)} crashed ({said}): a "
            "native crash inside the worker process (the dataset's own code and the C libraries it calls), not the "
            "OOM killer (that is 'Killed') nor a full /dev/shm (a bus error)",
            "Rerun with num_workers=0 so the crash happens in the main process with its traceback (python -X "
            "faulthandler / PYTHONFAULTHANDLER=1 prints the Python stack at the fault); then look at the native "
            "libraries the dataset calls: image/video decoders (PIL, OpenCV: cv2.setNumThreads(0) in workers) and "
            "the corrupt or truncated images they read, numpy/torch extensions built for other versions (reinstall "
            "matching wheels); fewer DataLoader workers makes a crash that depends on their number rarer.",
            "medium" if ranks else "low", ranks, _samples(c, "dataloader"))
    named = bus or any(sigs)
    # a worker killed by SIGKILL ("killed by signal: Killed") is the kernel's OOM killer taking host RAM back: each
    # worker holds its own copy of what the dataset object holds, so num_workers multiplies it
    fix = ("Enlarge /dev/shm (docker --shm-size=16g or --ipc=host; Kubernetes emptyDir medium: Memory) or lower "
           "num_workers / prefetch_factor; `ncclDoctor sweep-workers` finds a num_workers that fits." if not killed
           else "A worker killed by the host is the OOM killer reclaiming host memory (RAM): confirm it on that node "
           "with dmesg -T | grep -i 'killed process'; use fewer DataLoader workers (num_workers, prefetch_factor), "
           "keep the dataset out of each worker's memory (memory-mapped or lazily loaded files, not Python lists "
           "copied into every worker), or give the job more host RAM / swap.")
    if not named:
        # a worker that "exited unexpectedly" with no signal named died without a Python exception, its cause not in
        # the lines: killed from outside (the OOM killer prints "killed by signal: Killed" only when the main process
        # saw the signal), /dev/shm too small for its batch (torch prints the bus-error hint then), its file
        # descriptors run out -- lead rule BO (4), as BL (2) reads the pin-memory thread: cause unknown, the rank
        # the failure record or the traceback's own tag names stays named (round 81's videosys-97; detectron2-384
        # and open-sora-815 relabelled to it)
        return Verdict(
            "unknown",
            f"a DataLoader worker of {_named(ranks)} exited unexpectedly with no signal, bus error or /dev/shm text "
            "shown: the loader's worker died and the lines do not say why (killed for host memory, /dev/shm shared "
            "memory running out, the file-descriptor limit are all possible)",
            "Find why the worker died: dmesg -T | grep -i 'killed process' on that node (the OOM killer: host RAM), "
            "df -h /dev/shm while the job runs (docker --shm-size / --ipc=host; Kubernetes emptyDir medium: Memory), "
            "ulimit -n (or torch.multiprocessing.set_sharing_strategy('file_system')); rerun with num_workers=0 to "
            "see the worker's own error inline, and lower num_workers / prefetch_factor or set pin_memory=False.",
            "medium" if ranks else "low", ranks, _samples(c, "dataloader"), job_wide=one)
    if not killed and any("use_shared_memory" in e.text for e in evs):  # Paddle's loader names its own switch
        fix += (" Paddle's DataLoader can also pass its batches without /dev/shm: paddle.io.DataLoader(..., "
                "use_shared_memory=False).")
    return Verdict(
        "dataloader_shm" if bus else "host_oom",
        f"a DataLoader worker of {_named(ranks)} was killed" + (" by a bus error: /dev/shm exhausted" if bus else
                                                                  " by the host (host memory)" if killed else ""),
        fix,
        "high" if len(ranks) == 1 else "medium",
        ranks,
        _samples(c, "dataloader"),
        job_wide=one,
    )


_SHM_FIX = ("Enlarge /dev/shm (docker --shm-size=16g or --ipc=host; Kubernetes emptyDir medium: Memory) or lower "
            "num_workers / prefetch_factor; `df -h /dev/shm` while the job runs shows it filling.")


def _shm_file(c: Collected, evs: list, ranks: list[int]) -> Verdict:
    """torch could not create the shared-memory file (/dev/shm/torch_*) of a tensor one process hands another --
    a DataLoader worker's batch, a multiprocessing queue: /dev/shm is full (lead rule F's class), or with errno 24
    the process ran out of file descriptors (the file_descriptor sharing strategy keeps one per shared tensor)."""
    e = evs[0]
    fds = "Too many open files" in (e.data.get("shm_errno") or "")
    said = f"'{_what(e)[:160]}'"
    if fds:
        return Verdict(
            "dataloader_shm",
            f"torch could not open the shared-memory file of a tensor passed between processes ({said}): the "
            "process ran out of file descriptors -- the DataLoader workers' default sharing strategy keeps one open "
            "per shared tensor",
            "Raise the open-files limit (ulimit -n 65536; docker --ulimit nofile=65536) or call "
            "torch.multiprocessing.set_sharing_strategy('file_system') at start-up; fewer num_workers also helps.",
            "medium", ranks, [x.brief() for x in evs[:3]], job_wide=not ranks)
    return Verdict(
        "dataloader_shm",
        f"torch could not write the shared-memory file of a tensor passed between processes ({said}): the file lives "
        "in /dev/shm, which is full or too small (a container's default is 64 MB) -- the DataLoader workers hand "
        "every batch to the main process through shared memory; a host or container setting, not a rank's fault",
        _SHM_FIX, "medium" if not ranks else "high", ranks, [x.brief() for x in evs[:3]], job_wide=not ranks)


def _fetch_reset(evs: list, ranks: list[int]) -> Verdict:
    """A connection error raised where the process fetches its next DataLoader batch (readers.crash._fetch_reset:
    right under the training loop's `for ... batch in ...:` line or multiprocessing's resource_sharer frames): the
    channel through which a worker hands the main process a batch's shared tensor (the file_descriptor sharing
    strategy's socket, one descriptor per shared tensor) was reset -- the worker died, or the descriptors or /dev/shm
    behind the batch ran out. That process's own data loading, not a peer rank's socket: the shared-memory class
    (dataloader_shm, lead rule F's), the rank whose traceback it is named (lead rules A, AN (1))."""
    e = evs[0]
    if any(x.data.get("fd_limit") for x in evs):
        # "OSError: [Errno 24] Too many open files" under resource_sharer / DupFd / reduce_storage: the
        # file_descriptor sharing strategy keeps one descriptor per shared tensor, and the process's open-file limit
        # ran out -- the DataLoader's shared-memory transport hitting a host limit (lead rules F, AL (1); round 81's
        # face-recognition-framework-5, as maskrcnn-benchmark-158 reads it); or the DataLoader's own check saying
        # so ("Too many open files. Communication with the workers is no longer possible": round 110's
        # neuralrecon-91)
        where = ("the DataLoader's own check receiving a batch from its workers" if any(
            x.data.get("dl_check") for x in evs) else "under multiprocessing's resource_sharer / DupFd frames")
        return Verdict(
            "dataloader_shm",
            f"{_named(ranks) if ranks else 'a process'} ran out of file descriptors passing a DataLoader batch's "
            f"shared tensors between processes ('{_what(e)[:100]}', {where}): the file_descriptor sharing strategy "
            "keeps one descriptor open per shared tensor, and "
            "the open-file limit is too low for the batches in flight; a host limit, not a peer rank",
            "Too many open files is the file descriptor limit: raise it (ulimit -n 65536 before the launch; docker "
            "--ulimit nofile=65536) or call torch.multiprocessing.set_sharing_strategy('file_system') at the top "
            "of the training script (tensors pass through /dev/shm files instead of descriptors); fewer "
            "num_workers / prefetch_factor only delays it.",
            "medium" if ranks else "low", ranks, [x.brief() for x in evs[:3]], job_wide=not ranks)
    return Verdict(
        "dataloader_shm",
        f"{_named(ranks) if ranks else 'a process'}'s DataLoader lost its workers' channel while fetching a batch "
        f"('{_what(e)[:100]}' raised by the batch iteration): the socket a worker passes a batch's shared tensor "
        "through (the file_descriptor sharing strategy) was reset -- a worker died, or file descriptors or shared "
        "memory ran out; not a connection to another rank",
        "Pass the batches without the fd-passing socket: torch.multiprocessing.set_sharing_strategy('file_system') "
        "at the top of the training script; or raise the open-file "
        "limit (ulimit -n 65535) and the shared memory (/dev/shm: docker --shm-size=16g or --ipc=host), or use fewer "
        "DataLoader workers (num_workers, num_workers=0 to see a worker's own error).",
        "medium" if ranks else "low", ranks, [x.brief() for x in evs[:3]], job_wide=not ranks)


def _shm_exists(evs: list, ranks: list[int]) -> Verdict:
    """shm_open refusing to create a POSIX shared-memory block because one of that name exists ("FileExistsError:
    [Errno 17] File exists: '/000010_locals'" right below the shm_open call): the block is a file in /dev/shm that
    outlived the process that made it -- a previous run killed before it could unlink it (Python's resource_tracker
    then warns of "leaked shared_memory objects"), or another job on the host using the same name. The shared-memory
    class (dataloader_shm, lead rule F's); the rank whose process raised it failed first (lead rule A)."""
    e = evs[0]
    name = e.data["shm_exists"]
    path = "/dev/shm/" + name.lstrip("/")
    return Verdict(
        "dataloader_shm",
        f"{_named(ranks) if ranks else 'a process'} could not create the shared-memory block {name} "
        f"('{_what(e)[:160]}' right below its shm_open call): a block of that name already exists in /dev/shm -- "
        "stale shared memory left by a previous run that was killed before it could remove it, or another job on "
        "the host using the same name; not a full /dev/shm",
        f"Remove the stale block (ls -l /dev/shm; rm {path}) and kill leftover processes of the earlier run before "
        "restarting (a killed run leaks its shared memory: Python's resource_tracker warns of 'leaked "
        "shared_memory objects'); a data loader that keeps its index in shared memory (MosaicML streaming's "
        "StreamingDataset) clears its own with streaming.base.util.clean_stale_shared_memory() at start-up. Give "
        "concurrent jobs on one host their own names (a unique local cache directory per dataset and job), and "
        "initialise the process group before creating the dataset so that one local leader per node creates the "
        "block.",
        "medium", ranks, [x.brief() for x in evs[:3]], job_wide=not ranks)


def _bus_error(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule F: a process's crash handler reporting SIGBUS ("Caught signal 7 (Bus error ...)") with no other
    cause shown (no backtrace into libnccl.so: _nccl_crash reads that first) is shared memory (/dev/shm) that could
    not be backed -- DataLoader workers' batches or NCCL's own segments in a container with a small /dev/shm. Several
    processes dying of it alike is the host's or container's resource, not one rank (rule J): no culprit; one process
    with its rank named is that rank (rule A)."""
    evs = [e for e in c.samples.get("crash", []) if e.data.get("signal") == 7]
    if not evs:
        return None
    procs = {e.data.get("proc") or e.where for e in evs}
    ranks = sorted({e.rank for e in evs if e.rank is not None})
    several = len(procs) > 1
    one = not several and _world_of_one(c, ranks)  # lead rule AG: a one-process job, no record naming it
    who = "" if several or len(ranks) != 1 else f" on rank {ranks[0]}"
    said = "'Caught signal 7 (Bus error ...)'" if "Caught signal" in evs[0].text else f"'{evs[0].text[:120]}'"
    # Ray's raylet keeps its object store in /dev/shm (plasma): the raylet itself taking the bus error is that store
    ray = any(_RAYLET.search(e.text) for e in evs)
    return Verdict(
        "dataloader_shm",
        (f"{len(procs)} processes died of SIGBUS alike ({said})" if several
         else f"{'Ray' + chr(39) + 's raylet' if ray else 'a process'}{who} died of SIGBUS ({said})")
        + ": a bus error with no other cause is shared memory (/dev/shm) that could not be backed -- NCCL's "
        "shared-memory segments or the DataLoader workers' batches in a container whose /dev/shm is too small"
        + ("; the raylet keeps Ray's object store there, so it is the object store's memory that could not be "
           "backed" if ray else "")
        + ("; several processes failing the same way is the host's or container's resource, not one rank" if several
           else ""),
        _SHM_FIX + (" Ray's object store lives in /dev/shm: give the container more (docker --shm-size or "
                    "--ipc=host) or cap the store below it (ray start --object-store-memory=BYTES, "
                    "ray.init(object_store_memory=...))." if ray else "")
        + " For NCCL's segments (a crash during communicator set-up), NCCL_SHM_DISABLE=1 works around it "
        "(slower intra-node traffic).",
        "medium", [] if several or one else ranks, [e.brief() for e in evs[:3]], job_wide=several or one)


_RAYLET = re.compile(r"^\s*\(raylet(?:, ip=[\d.]{7,15})?\)")


def _died_loading(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """torchrun's agent sending SIGTERM to its workers (its clean-up after one of them died) while they were
    loading the model's checkpoint shards, with nothing else in the lines: no signal the agent received, no
    failure record, no rank's own error. A worker that dies there without a traceback is, almost always, one
    the host's OOM killer took (each process holds a CPU copy of the weights while it loads): host_oom, and
    which worker it was is in the record these lines cut (its exit -9), so nobody is named."""
    sigs = c.samples.get("signal", [])
    sent = [e for e in sigs if e.data.get("sent") == "SIGTERM"]
    if (not sent or any(e.data.get("received") or e.data.get("forced") or e.data.get("sched") for e in sigs)
            or c.child_failures or c.worker_failures or any(own_errors(st) for st in c.ranks.values())):
        return None
    first = min(map(place, sent))
    if not any(e.data.get("loading") for e in sent) and not any(
            place(e)[0] == first[0] and place(e)[1] < first[1] and not e.data.get("done")
            for e in c.samples.get("loading", [])):
        return None
    return Verdict(
        "host_oom",
        "torchrun's agent sent SIGTERM to its workers while they were loading the model's checkpoint shards, and no "
        "worker's own error is in the lines: the agent stops the survivors after one worker died, and a worker that "
        "dies while loading weights without a traceback was almost always killed by the host's OOM killer (every "
        "process holds a CPU copy of the weights in host RAM while it loads); the record naming it (exit code -9) is "
        "not in these lines, so no rank can be named",
        "Confirm on that node with dmesg -T | grep -i 'killed process' (the OOM killer); then lower the host RAM "
        "the load needs: load with low_cpu_mem_usage=True / device_map (transformers), safetensors (memory-mapped), "
        "load on one rank and broadcast or shard (FSDP's sync_module_states, DeepSpeed ZeRO-3's zero.Init), fewer "
        "processes per node, or a node / container with more RAM (its memory limit).",
        "low", [], [e.brief() for e in sent[:3]])
