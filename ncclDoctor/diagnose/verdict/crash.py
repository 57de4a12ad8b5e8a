"""Detectors of a rank's own hard failure: CUDA errors and Xids, OOMs, native crashes, kills, a
DataLoader's bus error, ranks that exited on their own, signals from outside. They come first in
``DETECTORS``: such a failure explains the timeouts that follow it.
"""

from __future__ import annotations

import re

from ncclDoctor.diagnose import signatures as S
from ncclDoctor.diagnose.lone import (
    failed_on_own,
    lone_failure,
    node_count,
    root_not_shown,
    several_failures,
    torn_down,
)
from ncclDoctor.diagnose.reason import Conclusion, _fmt_ranks, own_errors, waiting, world_size
from ncclDoctor.diagnose.signatures import R_VLLM_MP_WORKER, Event, strip_prefixes
from ncclDoctor.diagnose.state import QUIET_KINDS, Collected
from ncclDoctor.diagnose.verdict.base import Verdict, _named, _ranks, _samples, _what

# NVIDIA's Xid catalogue (docs.nvidia.com/deploy/xid-errors): the ones that mean the hardware or driver,
# and the ones an application causes (13, 31, 43, 45: the application's kernel, or a consequence).
XID = {
    13: "Graphics Engine Exception: usually the application's kernel (an illegal access), rarely hardware",
    31: "GPU memory page fault (MMU fault): usually the application (illegal address), rarely the driver",
    43: "the GPU stopped processing: a consequence of an application error",
    45: "preemptive cleanup: the driver killed a process's work (a consequence, after a kill or another Xid)",
    48: "double-bit ECC error: GPU memory hardware fault",
    63: "ECC page retirement / row remapping event (memory hardware)",
    64: "ECC page retirement / row remapping failure (memory hardware)",
    74: "NVLink error: the link between GPUs failed",
    79: "the GPU has fallen off the bus: hardware, power or PCIe failure",
    92: "high single-bit ECC error rate (memory hardware)",
    94: "contained ECC error (memory hardware; the affected process is killed)",
    95: "uncontained ECC error (memory hardware; the GPU needs a reset)",
    119: "GSP firmware timed out (driver/firmware)",
    144: "NVLink SAW error (the NVLink hardware)",
    145: "NVLink RLW error (the NVLink hardware)",
    146: "NVLink TLW error (the NVLink hardware)",
    147: "NVLink TREX error (the NVLink hardware)",
    148: "NVLink NVLPW_CTRL error (the NVLink hardware)",
    149: "NVLink NETIR error (the NVLink hardware or the NVLink fabric)",
    150: "NVLink MSE error (the NVLink hardware)",
    120: "GSP firmware error (driver/firmware)",
}


APP_XIDS = {13, 31, 43, 45}
# a NaN/Inf check that raised in one rank: autograd's anomaly mode ("Function 'MulBackward0' returned nan values"),
# clip_grad_norm_'s error_if_nonfinite ("... is non-finite, so it cannot be clipped"), a loss check ("Loss is NaN")
_NONFINITE = re.compile(r"returned nan values|non-finite|\bnan or inf\b|\b(?:loss|norm)\b[^\n]{0,30}\b(?:nan|inf)\b",
                        re.IGNORECASE)
_NONFINITE_FIX = ("A NaN/Inf check stopped that rank: its loss or gradients diverged -- lower the learning rate or "
                  "warm it up, use bf16 (or fp16 with dynamic loss scaling) instead of overflowing fp16, clip "
                  "gradients, and find the batch (log its sample ids: a bad sample, a log/division of zero in the "
                  "loss); torch.autograd.set_detect_anomaly(True) names the operation. ")
NVLINK_XIDS = {74, 144, 145, 146, 147, 148, 149, 150}


def xid_meaning(xids: list[int], pcis: list[str]) -> tuple[str, str]:
    """What the driver's Xid numbers say, and whether to look at the code or the hardware."""
    said = "; ".join(f"Xid {x} = {XID.get(x, 'see NVIDIA Xid catalogue')}" for x in xids)
    where = f" on GPU {', '.join(pcis)}" if pcis else ""
    if set(xids) <= APP_XIDS:
        return (f"the NVIDIA driver reported {said}{where}",
                "These Xids are usually the application's own kernel fault: rerun that rank with "
                "CUDA_LAUNCH_BLOCKING=1 or under compute-sanitizer; if they repeat on one GPU only, test that GPU "
                "(dcgmi diag -r 3).")
    nvlink = ("NVLink errors: read each GPU's link state and error counters (nvidia-smi nvlink --status, nvidia-smi "
              "nvlink -e) and the fabric manager's log on NVSwitch systems. " if set(xids) & NVLINK_XIDS else "")
    return (f"the NVIDIA driver reported {said}{where}: the GPU/driver failed, not the training code",
            nvlink + "Drain that node and check the GPU: nvidia-smi -q (ECC, retired pages / remapped rows), dcgmi "
            "diag -r 3, "
            "the full dmesg around the Xid; a GPU that fell off the bus or has uncorrectable ECC needs a reset or "
            "replacement. Map the PCI address to the rank's GPU with nvidia-smi --query-gpu=pci.bus_id,index "
            "--format=csv.")


# NCCL's transport/proxy set-up files, where a 'Cuda failure' is the node's CUDA set-up, not a kernel
# (include/shm.h, transport/shm.cc/.cu: the shared-memory transport's cudaHostRegister of the /dev/shm segment)
_SETUP_CUDA = re.compile(r"NCCL WARN.*(?:transport\.cc|transport/p2p\.cc|proxy\.cc|p2p\.cc)|"
                         r"(?:transport\.cc|transport/p2p\.cc|proxy\.cc|p2p\.cc|nvls\.cc|shm\.(?:h|cc|cu)):\d+ "
                         r"NCCL WARN Cuda failure")


# torch's communicator creation (NCCLComm::create in NCCLUtils.hpp/.cpp, ncclCommInitRank): an error raised there
_AT_INIT = re.compile(r"NCCLUtils\.(?:hpp|cpp):\d|ncclCommInitRank")
_NVLS_CUDA = re.compile(r"nvls\.cc:\d+ NCCL WARN Cuda failure")


# --- a rank's own hard failure ---------------------------------------------------------
_NCCL_ALLOC = re.compile(r"\balloc\.h:\d+ NCCL WARN Cuda failure")
_NCCL_LAUNCH = re.compile(r"\benqueue\.cc:\d+ NCCL WARN|\bNCCL WARN .*ncclLaunch")
_NCCL_CUDA_WARN = re.compile(r"\bNCCL WARN Cuda failure")


def _where(e: Event) -> tuple[str, int]:
    path, _, line = e.where.rpartition(":")
    return path, int(line) if line.isdigit() else 0


_DESTROYED_NEAR = 3  # lines between the destructor's error and its "Process Group destroyed on rank N" note


def destroyed_rank(c: Collected, evs: list[Event]) -> tuple[list[int], str]:
    """The rank of a CUDA failure no line names, from torch 1.x's "Process Group destroyed on rank N": the process
    tearing its ProcessGroupNCCL down prints it right beside the error the destructor's ncclCommAbort raised, so that
    error is rank N's own. Only when every such note near the errors names one rank; ([], "") otherwise."""
    notes = c.samples.get("pg_destroyed", [])
    near = {n.data["rank"] for n in notes for e in evs
            if _where(n)[0] == _where(e)[0] and abs(_where(n)[1] - _where(e)[1]) <= _DESTROYED_NEAR}
    if len(near) != 1:
        return [], ""
    r = near.pop()
    return [r], f"rank {r} (its ProcessGroupNCCL's teardown raised it: 'Process Group destroyed on rank {r}')"


def version_rank(c: Collected, evs: list[Event]) -> tuple[list[int], str]:
    """The rank of a CUDA failure no line names, from NCCL's version line: ncclCommInitRank prints "NCCL version
    X" in rank 0 of a communicator only. When the input is one process on one GPU (every host:pid-prefixed line
    from the same process and device, no rank tag, no launcher record) and it holds that line, the process is
    rank 0, and the failure is its own. Only with NCCL_DEBUG=INFO (that process's INFO lines are there: every
    process prints them, so no other process is in the input) and on device 0 (where a job's rank 0 sits): under
    NCCL_DEBUG=WARN a console holds rank 0's unprefixed version line beside another rank's WARN alone.
    ([], "") otherwise: a device index alone is not a rank."""
    if not c.kinds.get("nccl_version") or c.ranks or c.child_failures or c.worker_failures or len(c.procs) != 1:
        return [], ""
    host, pid, dev = next(iter(c.procs))
    info = any((e.host, e.pid) == (host, pid) and "INFO" in e.text
               for k in ("transport", "setup", "benign") for e in c.samples.get(k, []))
    if dev != 0 or not info or not evs or any((e.host, e.pid) != (host, pid) for e in evs):
        return [], ""
    return [0], ("rank 0 (the only process in these lines, and the one that printed NCCL's version line, which "
                 "NCCL prints in a communicator's rank 0 only)")


def _after_ib(c: Collected, evs: list[Event]) -> bool:
    """Every CUDA error comes after an IB work-completion error in the same file: NCCL's proxy lost
    the transfers first, and the CUDA errors of its abort/teardown are the consequence."""
    ib = [_where(e) for e in c.samples.get("ib_completion", [])]
    return bool(ib) and all(any(p == q and n > m for q, m in ib) for p, n in map(_where, evs))


def _runtime_signal(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """GASNet's handler (Legion, FlexFlow, Chapel, UPC++) printing "*** Caught a fatal signal (proc N): SIGABRT(6)":
    process N died of a signal it caught itself -- its own failure (lead rule A, one process named by its own
    record), the cause the error it printed just before (a runtime's "LEGION ERROR", an assertion). An NCCL error
    printed after it is the abort's collateral. Several processes named, or a SIGBUS (rule F's shared memory), are
    left to the other readers."""
    evs = c.samples.get("runtime_signal", [])
    procs = sorted({e.data["proc"] for e in evs})
    if len(procs) != 1 or any(e.data["signum"] == 7 for e in evs):
        return None
    e = evs[0]
    before = next((x.data["before"] for x in evs if x.data.get("before")), None)
    return Verdict(
        "unknown",
        f"process {procs[0]} (GASNet's proc {procs[0]}) died of {e.data['signame']}, which it caught itself"
        + (f", right after its own error: '{before[:200]}'" if before else "")
        + ": it failed on its own, and an NCCL or communication error printed after it is that abort's collateral",
        "Read the error the process printed just before the signal: that is the cause"
        + (f" ('{before[:120]}': a LEGION ERROR's code has its page at legion.stanford.edu/messages/"
           "error_code.html; a mapper error means the application's mapper -- e.g. FlexFlow's -- made a choice the "
           "runtime refuses)" if before and "LEGION ERROR" in before else "")
        + ". Rerun with GASNET_BACKTRACE=1 for the stack at the signal; NCCL_DEBUG=INFO only matters if an NCCL "
        "error comes before it.",
        "medium", procs, [x.brief() for x in evs[:3]])


def _procs_past_gpus(c: Collected, evs: list[Event]) -> Verdict | None:
    """Lead rules Q and W: a process asking for a GPU index that does not exist ("invalid device ordinal", torch's
    "device < num_gpus" assert) where the launch line starts more processes per node (--nproc_per_node N) than the
    GPUs the lines show there (deviceQuery's device count, a CUDA_VISIBLE_DEVICES list on that command line): every
    local rank past the last GPU fails the same way -- the launch's setting, config, no rank."""
    said = " ".join((e.data.get("what") or "") + " " + e.text for e in evs).lower()
    if "invalid device ordinal" not in said and "device < num_gpus" not in said:
        return None
    launches = c.samples.get("launch_procs", [])
    shown = [e.data["gpus"] for e in c.samples.get("gpus_shown", [])]
    past = [(e.data["procs"], e.data["gpus"], e, "CUDA_VISIBLE_DEVICES on that command line leaves")
            for e in launches if e.data.get("gpus") is not None and e.data["procs"] > e.data["gpus"]]
    if not past and shown and launches:
        top = max(launches, key=lambda e: e.data["procs"])
        if top.data["procs"] > max(shown):
            past = [(top.data["procs"], max(shown), top, "the node's device list (deviceQuery) shows")]
    if not past:
        return None
    procs, gpus, e, where = past[0]
    return Verdict(
        "config",
        f"the launch starts {procs} processes per node (--nproc_per_node {procs}) but {where} {gpus} "
        f"GPU{'s' if gpus != 1 else ''}: every local rank from {gpus} on asks torch.cuda.set_device for a GPU that "
        "does not exist ('invalid device ordinal') -- a launch setting every process shares, not a CUDA fault and "
        "not one rank's",
        f"Start no more processes per node than it has GPUs: --nproc_per_node {gpus} (the number of GPUs nvidia-smi "
        "shows, or CUDA_VISIBLE_DEVICES leaves); a model whose model-parallel size is larger needs that many GPUs "
        "(or a smaller model / checkpoint whose model-parallel size equals the number of GPUs).",
        "high", [], [e.brief()] + [x.brief() for x in evs[:2]], job_wide=True)


def _cuda(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    evs = c.samples.get("cuda_error", []) + [
        e for e in c.samples.get("nccl_error", []) if e.data.get("code") == "ncclUnhandledCudaError"
    ]
    cut = not evs and not any("driver shutting down" in (e.data.get("what") or "") for e in c.samples.get("benign", []))
    if cut:  # the watchdog's CUDA check raised (its backtrace's frame), the error's own line not shown
        evs = c.samples.get("cuda_check", [])
    if not evs or (c.kinds.get("shm_error") and all("NCCL WARN" in e.text for e in evs)):
        return None  # 'Cuda failure' while NCCL registers its shared memory: the shm detector says it
    if _after_ib(c, evs):
        return None  # the fabric failed first (IB work completions in error): the CUDA errors of the teardown follow
    over = _procs_past_gpus(c, evs)
    if over is not None:
        return over
    ranks = sorted(set(_ranks(c, "cuda_error")) | {e.rank for e in evs if e.rank is not None})
    # lead rule AF(3): another process's watchdog crash (its rethrow's tail, its header not pasted) is shown before a
    # rank's own watchdog CUDA error: that rank is not shown failing alone, and the other process has no name
    other = next((e for e in evs if e.data.get("other_crash")), None)
    shown, ranks = ranks, [] if other is not None else ranks
    alone, only = ([], "") if ranks or other else destroyed_rank(c, evs)
    if not ranks and not alone and not other:
        alone, only = version_rank(c, evs)
    text = " ".join(
        (e.data.get("what") or "") + " " + (e.data.get("last_error") or "") + " " + e.text for e in evs
    ).lower()
    # NCCL's WARN about the CUDA call it failed ("failed to open CUDA IPC handle : 217 peer access is not supported
    # between these two devices") often comes without "Cuda failure" and before the error it causes
    text += " " + " ".join(w for e in c.samples.get("nccl_warn", []) if "cuda" in (w := e.data.get("warn", "").lower()))
    # a consequence Xid's "caused by previous Xid N" names the one that failed first, shown or not
    xids = sorted({e.data[k] for e in evs for k in ("xid", "cause_xid") if e.data.get(k) is not None})
    hsa = sorted({e.data["hsa_node"] for e in evs if e.data.get("hsa_node") is not None})
    if xids:
        what, fix = xid_meaning(xids, sorted({e.data["pci"] for e in evs if e.data.get("pci")}))
    elif hsa:  # ROCm's HSA runtime: a hardware exception of the GPU itself (its Xid), the rank holding it not said
        gpus = ", ".join(f"node-{n}" for n in hsa[:4])
        said = next(e.data["what"] for e in evs if e.data.get("hsa_node") is not None)
        what = (f"a hardware exception of the GPU ({said}; GPU {gpus} in the KFD topology): the GPU or its driver "
                "failed, not the training code")
        fix = (f"Look at that GPU ({gpus}: /sys/class/kfd/kfd/topology/nodes/N maps it to a PCI address): dmesg / the "
               "amdgpu kernel log for its reset or fault, rocm-smi (and rocm-smi --showras) for its errors; check the "
               "ROCm / amdgpu driver version pair and take the GPU out of the job until it passes a stress test "
               "(rocm-validation-suite, rvs). A 'GPU Hang' can also be a kernel that never finishes: rerun with "
               "AMD_LOG_LEVEL=3 or HIP_LAUNCH_BLOCKING=1 to find it.")
    elif cut:
        what, fix = (
            "a CUDA error that the watchdog found checking a finished collective's CUDA event (c10's backtrace through "
            "WorkNCCL::finishedGPUExecutionInternal and c10_cuda_check_implementation: a kernel on that GPU failed "
            "earlier, most often an illegal memory access or a device-side assert); the error's own message is not "
            "in these lines",
            "Find the 'CUDA error: ...' line above 'Exception raised from c10_cuda_check_implementation' in that "
            "process's full stderr; rerun with CUDA_LAUNCH_BLOCKING=1 so the failing kernel raises where it runs "
            "(compute-sanitizer for an illegal memory access, TORCH_USE_CUDA_DSA for a device-side assert), and check "
            "dmesg -T | grep -i xid on that node for the GPU's own errors.",
        )
    elif "during capture" in text or "stream capture" in text or "stream is capturing" in text:
        what, fix = (  # cudaErrorStreamCapture*: "operation failed due to a previous error during capture", ...
            "a CUDA stream-capture error ('... during capture'): a collective was issued while a CUDA graph was being "
            "captured and the capture had already failed (or the operation is not allowed in a capture), which "
            "poisons the communicator",
            "Run without CUDA graphs to confirm (eager mode: the framework's disable_cuda_graphs / --enforce-eager / "
            "torch.compile mode without cudagraphs); then capture only after NCCL's warm-up collectives, keep "
            "TORCH_NCCL_ASYNC_ERROR_HANDLING on, and use a NCCL/torch that supports collectives in graph capture.",
        )
    elif "ecc error" in text:
        what, fix = (
            "an uncorrectable ECC error in the GPU's memory (cudaErrorECCUncorrectable): a hardware fault of that "
            "GPU, not the training code",
            "Drain that node and check the GPU: nvidia-smi -q -d ECC,PAGE_RETIREMENT,ROW_REMAPPER (volatile / "
            "aggregate uncorrectable counts, pending remaps), dmesg -T | grep -i xid (Xid 48, 94, 95), dcgmi diag -r "
            "3; a pending row remap needs a GPU reset (nvidia-smi -r), repeated errors a replacement.",
        )
    elif "999" in text or "unknown error" in text:
        what, fix = (
            "'Cuda failure 999 unknown error': the CUDA driver/GPU is in a bad state",
            "Check the GPU and driver on that node: nvidia-smi (is the GPU visible, any 'ERR!'), "
            "dmesg -T | grep -i xid "
            "for Xid errors, and that the driver supports the container's CUDA runtime; reset or drain the GPU.",
        )
    elif "named symbol not found" in text or "no kernel image" in text:
        what, fix = (
            "a CUDA error saying the binary has no kernel for this GPU ('named symbol not found' / 'no kernel image')",
            "The NCCL (or nccl-tests/PyTorch) binary was built without code for this GPU's compute capability: "
            "rebuild it with NVCC_GENCODE including that architecture (e.g. -gencode=arch=compute_90,code=sm_90 "
            "for H100), or install a build whose CUDA version and architectures match the GPU and driver.",
        )
    elif "system not yet initialized" in text or "system not ready" in text:
        what, fix = (
            "'system not yet initialized' (cudaErrorSystemNotReady): on an NVSwitch system (HGX/DGX A100, H100) the "
            "GPUs are not usable until the fabric manager has set up the NVSwitches",
            "Start the fabric manager on that node (systemctl start nvidia-fabricmanager; its version must equal the "
            "driver's) and check `nvidia-smi -q | grep -i fabric` says 'Completed'.",
        )
    elif "driver version is insufficient" in text or "forward compatibility" in text:
        what, fix = (
            "'CUDA driver version is insufficient for CUDA runtime version': the container's CUDA is newer than the "
            "node's driver",
            "Use a build (container, torch wheel) whose CUDA version the node's driver supports (nvidia-smi shows the "
            "driver's highest CUDA), or upgrade the driver on that node.",
        )
    elif "failed lazily at initialization" in text or "device < num_gpus" in text:
        what, fix = (  # torch's DeferredCudaCallError: the process's CUDA initialisation saw no usable GPU for it
            "a failed CUDA initialisation (torch's DeferredCudaCallError at its first CUDA call, e.g. "
            "torch.cuda.set_device): the process sees no GPU for the device index it asks for",
            "Check the GPUs each process sees: nvidia-smi on the node, CUDA_VISIBLE_DEVICES as the scheduler sets it "
            "(GPUs per task, MIG instances), and that torch.cuda.set_device(local_rank) asks for a device that exists "
            "(LOCAL_RANK below the number of visible GPUs: --nproc_per_node / GPUs per task no larger than it).",
        )
    elif "invalid device ordinal" in text:
        what, fix = (
            "'invalid device ordinal': a process asked for a GPU index that does not exist on its node",
            "Each process must use torch.cuda.set_device(int(os.environ['LOCAL_RANK'])) (not the global rank), and "
            "--nproc-per-node must not exceed the GPUs CUDA_VISIBLE_DEVICES leaves visible.",
        )
    elif ext := re.search(r"\berror [a-z][^\n]{2,100}? at line \d{1,6} in file (\S{1,200}\.(?:c|cc|cpp|cu|cuh))\b",
                          text):
        # a C/CUDA extension's own CUDA check (bitsandbytes' CUDA_CHECK_RETURN: "Error operation not supported at line
        # 351 in file .../bitsandbytes/csrc/pythonInterface.c"): the extension's CUDA call, not NCCL's
        pkg = re.search(r"([\w.\-]{1,64})/csrc/", ext.group(1))  # the package's source tree names it
        lib = pkg.group(1) if pkg else "the extension"
        what = (f"a CUDA error in {lib}'s own C/CUDA code (its check printed 'Error ... at line N in file ...'), "
                "not in NCCL or torch")
        fix = (f"The failing call is {lib}'s: upgrade {lib} to a build for this CUDA version and driver, or avoid the "
               "feature that needs it.")
        if "operation not supported" in text:
            fix += (" 'operation not supported' there is managed/paged memory (cudaMemPrefetchAsync) the GPU, driver, "
                    "WSL or vGPU does not support: for bitsandbytes use a plain optimizer instead of its paged one "
                    "(optim paged_adamw_* -> adamw_torch).")
    elif "operation not supported" in text or "operation not permitted" in text:
        what, fix = (
            f"'{'operation not supported' if 'supported' in text else 'operation not permitted'}' from a CUDA call "
            "NCCL makes to share GPU memory between processes (cuMem / CUDA IPC), which the container or driver "
            "does not allow",
            "Set NCCL_CUMEM_ENABLE=0 (NCCL then uses legacy CUDA IPC), or run the ranks of a node in one container "
            "with --ipc=host and the same PID namespace (--pid=host); as a test NCCL_P2P_DISABLE=1.",
        )
        if re.search(r"\binit\.cc:\d+ nccl warn cuda failure[^\n]{0,20}'operation not supported", text):
            # init.cc's own CUDA call at communicator creation, no transport involved: NCCL >= 2.26 creates a CUDA
            # memory pool there (cudaMemPoolCreate), which a vGPU VM without unified memory refuses
            what = ("'operation not supported' from the CUDA call NCCL makes while creating the communicator "
                    "(init.cc: NCCL >= 2.26 creates a CUDA memory pool there), which this GPU's driver or "
                    "virtualization does not offer")
            fix = ("On a vGPU VM (VMware, other hypervisors) enable unified memory for the vGPU "
                   "(pciPassthru<N>.cfg.enable_uvm = 1) or use a passthrough GPU; otherwise update the driver, or pin "
                   "an NCCL older than 2.26 (the nvidia-nccl-cu* wheel torch loads). NCCL_CUMEM_ENABLE=0 does not "
                   "avoid this call.")
    elif "peer access" in text or "peer mapping" in text:
        what, fix = (
            "a CUDA error setting up GPU peer-to-peer access ('peer access is not supported' / 'peer mapping "
            "resources exhausted')",
            "The GPUs cannot map each other's memory on this node (PCIe topology, IOMMU/ACS, a VM or container "
            "without P2P): test with NCCL_P2P_DISABLE=1 (NCCL then goes through host memory), check nvidia-smi topo "
            "-m and that IOMMU/ACS is off; with more than 8 GPUs in one process, P2P mappings run out.",
        )
        if "shm.cc" in text:  # NCCL >= 2.27 shares its SHM transport's host buffers through cuMem handles
            what += (" in NCCL's shared-memory transport (transport/shm.cc), which shares its host buffers through "
                     "cuMem handles (NCCL_CUMEM_HOST_ENABLE, NCCL >= 2.27) that need peer access between the GPUs")
            fix = ("Set NCCL_CUMEM_HOST_ENABLE=0 (the SHM transport then uses /dev/shm as before; give the container "
                   "enough --shm-size) or upgrade NCCL/the driver past the fix. " + fix)
        if "custom_all_reduce" in text or "custom all-reduce" in text:  # vLLM/sglang's own P2P all-reduce kernel
            what += " in the serving engine's custom all-reduce kernel, which needs P2P between the GPUs"
            fix = ("Disable the custom all-reduce on GPUs without P2P (vLLM --disable-custom-all-reduce, sglang "
                   "--disable-custom-all-reduce / disable_custom_all_reduce=True): it then uses NCCL. " + fix)
    elif "stub library" in text:
        what, fix = (
            "'CUDA driver is a stub library': the process loaded the libcuda.so stub of the CUDA toolkit (for "
            "linking only) instead of the node's driver library",
            "Remove the toolkit's stubs directory (…/cuda/lib64/stubs) from LD_LIBRARY_PATH (and any libcuda.so "
            "symlink to it) in the image or environment, so the real libcuda.so.1 that the NVIDIA container runtime "
            "mounts from the host is loaded; check with ldconfig -p | grep libcuda.",
        )
    elif "invalid argument" in text and re.search(r"\bshm\.(?:h|cc|cu)\b|shmutils|/dev/shm", text):
        what, fix = (
            "'Cuda failure invalid argument' in NCCL's shared-memory (shm) transport set-up (it registers its "
            "/dev/shm segment with CUDA, cudaHostRegister)",
            "Check /dev/shm on that host (df -h /dev/shm; in docker --shm-size=16g or --ipc=host) and its limits; "
            "bypass the transport with NCCL_SHM_DISABLE=1 as a test (NCCL then uses P2P or the network), and "
            "upgrade NCCL (a newer NCCL version, torch's bundled one): old 2.4-era NCCL failed this way.",
        )
    elif "invalid argument" in text and any(w in text for w in ("topo.h", "topo.cc", "init.cu", "init.cc")):
        what, fix = (
            "'Cuda failure invalid argument' in NCCL's own set-up (its topology or init code querying the GPUs)",
            "Upgrade NCCL (a newer NCCL version, or a torch that bundles one): old versions failed on some boards "
            "(dual-GPU K80, virtualised GPUs) in these queries; as a test set NCCL_P2P_DISABLE=1, and check the "
            "driver matches the CUDA runtime (nvidia-smi).",
        )
    elif "device-side assert" in text:
        what, fix = (  # cudaErrorAssert (59, 710): a kernel's own assertion (torch's index checks)
            "a device-side assert: a kernel's own check failed, most often an index out of range (a class label >= "
            "the number of classes, a token id >= the vocabulary, a gather/scatter/embedding index)",
            "Rerun with CUDA_LAUNCH_BLOCKING=1 (or the failing step on CPU) so the error names the operation and its "
            "bad index, TORCH_USE_CUDA_DSA for the assertion's text; check the data that rank got (labels vs "
            "num_classes, token ids vs the embedding size after adding tokens).",
        )
    elif "busy or unavailable" in text:
        what, fix = (  # cudaErrorDevicesUnavailable (46): the GPU refused a new CUDA context
            "'CUDA-capable device(s) is/are busy or unavailable' (cudaErrorDevicesUnavailable): the GPU refused a "
            "new CUDA context -- it is in an exclusive compute mode and another process (a second rank on the same "
            "GPU, a leftover or another job's process) already holds it",
            "Check the GPU's compute mode and who holds it: nvidia-smi -q -d COMPUTE (Exclusive_Process admits one "
            "process; nvidia-smi -c DEFAULT if the node allows sharing) and nvidia-smi's process list; each rank "
            "must select its own GPU (torch.cuda.set_device(LOCAL_RANK) before any CUDA call); kill stray processes "
            "or ask the scheduler for the GPUs (CUDA_VISIBLE_DEVICES as it sets it).",
        )
    elif "no cuda-capable device" in text:
        what, fix = (  # cudaErrorNoDevice (38, 100)
            "'no CUDA-capable device is detected' (cudaErrorNoDevice): the process sees no GPU at all",
            "Check what the process is given: CUDA_VISIBLE_DEVICES (empty, or indices that do not exist on the "
            "node), the container's GPU access (docker --gpus all / the NVIDIA container runtime, the scheduler's GPU "
            "request), and that the driver is loaded (nvidia-smi on that node).",
        )
    elif "launch timed out" in text:
        what, fix = (  # cudaErrorLaunchTimeout (6, 702): the display watchdog ended a kernel that ran too long
            "'the launch timed out and was terminated' (cudaErrorLaunchTimeout): the driver killed a kernel that ran "
            "longer than the display watchdog allows -- a GPU that also drives a display (X server, Windows' TDR) -- "
            "or a kernel that hung",
            "Run on GPUs that drive no display (nvidia-smi's Disp.A column Off), stop the X server / desktop on that "
            "GPU or raise Windows' TdrDelay; if no display is attached, the kernel hung: dmesg -T | grep -i xid (Xid "
            "8: a GPU timeout) and CUDA_LAUNCH_BLOCKING=1 for which kernel; smaller batches shorten each kernel.",
        )
    elif "misaligned address" in text:
        what, fix = (  # cudaErrorMisalignedAddress
            "a misaligned memory access in a kernel ('misaligned address': a load or store at an address not "
            "aligned to its size; reported asynchronously, at a later CUDA call)",
            "Rerun with CUDA_LAUNCH_BLOCKING=1 so the traceback names the kernel, or under compute-sanitizer: a kernel "
            "bug (a custom or fused kernel, an extension built for another torch/CUDA, a tensor view at an odd "
            "offset): rebuild or upgrade that extension, or pass contiguous tensors; the NCCL timeouts of the other "
            "ranks are consequences.",
        )
    elif "illegal memory access" in text or "illegal address" in text:
        what, fix = (
            "an illegal memory access in a kernel (reported asynchronously, often first by the watchdog thread)",
            "Rerun that rank's failing step with CUDA_LAUNCH_BLOCKING=1 so the traceback names the kernel, or run it "
            "under compute-sanitizer; the NCCL timeouts of the other ranks are consequences.",
        )
        if any(_NCCL_ALLOC.search(e.text) for e in evs):  # not NCCL's kernel: an earlier one, found at its cudaMalloc
            what += ", surfacing in NCCL's memory allocation (an earlier kernel's error, seen at the next CUDA call)"
            fix = ("A kernel launched before NCCL's allocation faulted, often on the wrong GPU: call "
                   "torch.cuda.set_device(local_rank) before creating the process group (torch 2.4's "
                   "TORCH_NCCL_NAN_CHECK=1 ran its check kernel on the default device without it: unset it or "
                   "upgrade torch). " + fix)
        if not any(_NCCL_ALLOC.search(e.text) or _NCCL_LAUNCH.search(e.text) for e in evs) and any(
                _NCCL_CUDA_WARN.search(e.text) for e in evs):
            # NCCL's own CUDA call elsewhere (init.cc, a proxy's) found the fault: an earlier kernel's, or NCCL's and
            # the GPU's own where no kernel of the user's runs (nccl-tests)
            fix += (" NCCL's own CUDA call reported the illegal memory access (its 'Cuda failure' WARN): where no "
                    "kernel of your own ran before it (nccl-tests runs only NCCL's), look at the GPU, the driver and "
                    "the GPUDirect RDMA path on that host: dmesg -T | grep -i xid (Xid errors), nvidia-smi -q, the "
                    "same NCCL and driver versions on every node (NCCL_DEBUG=INFO prints both), and "
                    "NCCL_NET_GDR_LEVEL=LOC to run once without GPUDirect RDMA.")
        if any(_NCCL_LAUNCH.search(e.text) for e in evs):  # NCCL's own WARN at its kernel launch/enqueue
            what += ", reported by NCCL at its own kernel launch (enqueue.cc)"
            fix = ("NCCL's own kernel faulted: a known NCCL bug on new GPUs/drivers (e.g. 2.26 on Blackwell); upgrade "
                   "NCCL first (pip install -U nvidia-nccl-cu12, or a torch built with a newer NCCL version) and check "
                   "the driver supports the GPU. " + fix)
        if "custom_all_reduce" in text or "custom all-reduce" in text:  # vLLM/sglang's own P2P all-reduce kernel
            what += ", in the serving engine's custom all-reduce kernel (its own P2P all-reduce, not NCCL's)"
            fix = ("The fault is in the custom all-reduce kernel, which every worker runs alike: rerun with it "
                   "disabled (vLLM/sglang --disable-custom-all-reduce; the engine then uses NCCL) to confirm; as it is "
                   "often hit while capturing CUDA graphs, --enforce-eager (no CUDA graph capture) is the other test; "
                   "then upgrade the engine. " + fix)
    else:
        what, fix = (
            "a CUDA call failed inside NCCL or a kernel",
            "Rerun with NCCL_DEBUG=INFO to see the failing CUDA call and with CUDA_LAUNCH_BLOCKING=1 for the kernel; "
            "check the driver matches the CUDA runtime (nvidia-smi) and dmesg for Xid errors. If it fails as soon as "
            "two GPUs are used, test the NCCL install alone with nccl-tests (all_reduce_perf -g <GPUs>) and check "
            "the NCCL version torch was built with (torch.cuda.nccl.version()); rebuild or reinstall a matching one.",
        )
    conf, shared = "high" if len(ranks) == 1 else "medium", False
    if alone:  # read from NCCL's version line or the destructor's note, not from a line naming the rank
        ranks = alone
    elif (not ranks and not xids and not hsa and not other
          and len({strip_prefixes(e.text).strip() for e in evs}) == len(evs)):
        # lead rule A: the one process the launcher shows failing is where it happened (not when the same error
        # line is printed by several processes: every rank failing alike, rule J; the same line once a collector's
        # timestamp or a launcher's prefix is taken off)
        lone = lone_failure(c)
        # a SIGABRT is the watchdog's abort of a victim (rule I), except after a CUDA error the watchdog found on
        # its own GPU: its exception ends that process with abort() (std::terminate), a first failure (rule A)
        own = (None, 0, -15) if all(e.data.get("watchdog") for e in evs) else (None, 0, -6, -15)
        ranks = lone.culprits if lone is not None and lone.exitcode not in own else []
        only = lone.who if ranks else ""
        conf = "medium" if ranks else conf
    warns = [e for e in evs if e.kind == "cuda_error"]  # NCCL's own lines; ncclUnhandledCudaError is their echo
    if warns and all(_SETUP_CUDA.search(e.text) for e in warns):
        # NCCL's own CUDA call while connecting peers (p2p/IPC/cuMem set-up): the node's driver or the
        # container's CUDA, which every rank there shares, not one rank's kernel; name the rank as a lead only
        conf, shared = "low", True
        what += " while NCCL set up its transports (CUDA IPC/cuMem between the GPUs)"
        fix += (" A failure at transport set-up is usually the environment every rank shares: the container's "
                "CUDA vs the node's driver, or CUDA IPC/cuMem not allowed in the container (try NCCL_CUMEM_ENABLE=0 "
                "and NCCL_P2P_DISABLE=1 as tests).")
        if any(_NVLS_CUDA.search(e.text) for e in warns):  # NVLink SHARP's multicast set-up (transport/nvls.cc)
            what += "; in NVLS (NVLink SHARP) set-up, whose multicast calls need a recent driver"
            fix += (" NVLS set-up failing: the driver is older than the CUDA runtime's multicast API needs; upgrade "
                    "the driver, or disable NVLS with NCCL_NVLS_ENABLE=0.")
    no_vmm = any(e.data.get("what") == "no cuda vmm" for e in c.samples.get("benign", []))
    at_init = [e for e in evs if e.kind == "nccl_error" and _AT_INIT.search(e.text)]
    elsewhere = [e for e in evs if "NCCL error in:" in e.text and not _AT_INIT.search(e.text)]
    if no_vmm and at_init and not elsewhere and not shared:
        # torch says this platform has no CUDA virtual memory management (expandable_segments not supported: a VM,
        # WSL, a virtual GPU) and the CUDA call failed while NCCL created its communicator, where NCCL >= 2.19
        # allocates its buffers with that same cuMem API: the platform every rank shares (lead rule V (2)), a lead
        conf, shared = "low", True
        what += (" while NCCL created its communicator, on a platform without CUDA virtual memory management (torch: "
                 "'expandable_segments not supported on this platform'), where NCCL's cuMem allocations fail")
        fix += (" The platform has no CUDA virtual memory (cuMem): run with NCCL_CUMEM_ENABLE=0 (NCCL then allocates "
                "as older versions did), and as further tests NCCL_P2P_DISABLE=1 / NCCL_SHM_DISABLE=1; update the "
                "driver or the virtualisation layer (vGPU, WSL) to one that supports it.")
    nvls = " ".join(e.text + " " + str(e.data.get("last_error") or "") for e in evs + c.samples.get("nccl_warn", []))
    if ("NCCL_NVLS_ENABLE" not in fix
            and re.search(r"\bNVLS\b|NVLink SHARP|nvls\.cc:\d+|cuMulticast", nvls)):
        # NVLink SHARP's multicast objects (NVSwitch systems): set up by the fabric manager, a finite resource
        what += "; in NVLS (NVLink SHARP) multicast set-up"
        fix += (" NVLS (NVLink SHARP) multicast failing: check the fabric manager (nvidia-smi -q | grep -i -A2 fabric "
                "says 'Completed'; its version equals the driver's), reset the GPUs or reboot a node whose fabric "
                "manager was restarted, upgrade the driver; or disable NVLS with NCCL_NVLS_ENABLE=0.")
    if (len(ranks) >= 2 and not alone and set(ranks) == set(c.ranks) and not torn_down(c)
            and len({(e.data.get("what") or "").lower() for e in evs}) == 1
            and not any(waiting(st) for st in c.ranks.values())):
        # lead rule J: every rank the lines show fails with the same CUDA error, none shown torn down or waiting:
        # one cause they share (the node's GPUs, driver or set-up), not several culprits
        return Verdict("cuda_error", f"every rank shown ({_named(ranks)}) hit {what} alike: a cause they share "
                       "(the node's GPUs, driver or the way the processes were set up), not one rank's fault",
                       fix, "medium", [], [e.brief() for e in evs[:3]], job_wide=True)
    if other is not None and not xids and not hsa and not shared:
        return Verdict(
            "cuda_error",
            f"{_named(shown)} hit {what}, but the lines show another process's watchdog crash before it (the tail of "
            f"its rethrown exception, 'Exception raised from ncclCommWatchdog', at {other.data['other_crash']}, its "
            "own error not shown): two processes failed together, and which GPU's kernel (or which transport between "
            "the GPUs) faulted first these lines cannot say",
            fix + " Collect every rank's full stderr (each process's own 'CUDA error' line above its 'Exception raised "
            "from ncclCommWatchdog' block) to see which faulted first; if two GPUs fault together, test the transport "
            "between them with NCCL_P2P_DISABLE=1 and NCCL_SHM_DISABLE=1.",
            "medium", [], [e.brief() for e in evs[:3]])
    if xids or hsa:
        return Verdict("cuda_error", what + ("; the ranks on that GPU failed first, the others only lose them"
                                             if what.endswith("training code") else ""),
                       fix, "medium", ranks, [e.brief() for e in evs[:3]], job_wide=not ranks)
    return Verdict(
        "cuda_error",
        f"{only or _named(ranks)} hit {what}; "
        + ("the other ranks share that environment, so it is a lead, not a culprit" if shared
           else "it failed first, the others only lose it"),
        fix,
        conf,
        ranks,
        [e.brief() for e in evs[:3]],
        job_wide=shared,
    )


def died_alike(c: Collected) -> bool:
    """Lead rule J: two or more processes in the launcher's record, all failing on their own with the same exit
    code within one second (the record's times, when shown), none only torn down afterwards: one resource of the
    host or the job ran out for all of them, not one rank. An entry whose exit code the paste cut (torchrun's
    root cause, its lines ending at "rank :") is one of them when the record's times put it in the same second:
    the line that would say it died otherwise is not there."""
    fails = failed_on_own(c)
    codes = {e.data.get("exitcode") for e in fails}
    if len(fails) < 2 or torn_down(c) or len(codes - {None}) != 1:
        return False
    times = [e.ts for e in fails if e.ts is not None]
    if None in codes and len(times) != len(fails):
        return False  # a cut entry counts only where its time puts it with the others
    return len(times) in (0, len(fails)) and (not times or max(times) - min(times) < 1.0)


def _gpu_oom(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    if not c.kinds.get("cuda_oom"):
        return None
    if any(e.data.get("duplicate_gpu") for e in c.samples.get("nccl_error", [])):
        return None  # two ranks on one GPU: the OOM is theirs sharing it (fabric._invalid_usage says it)
    ranks = _ranks(c, "cuda_oom") or _proxy_rank(c, c.samples.get("cuda_oom", []))
    if not ranks:  # lead rule A: the one process the launcher shows failing on its own is where the OOM happened
        lone = lone_failure(c)
        ranks = lone.culprits if lone is not None and lone.exitcode not in (None, 0, -6, -15) else []
    owner = "" if ranks else (_gpu_owner(c) or _tb_agrees(c))
    if owner:
        ranks = [c.samples["cuda_oom"][0].data["gpu"]]
    engine = ""
    if any(e.data.get("runtime_alloc") for e in c.samples.get("cuda_oom", [])):
        engine = ("A C++ runtime's own cudaMalloc failing (an inference engine's buffers, sized by the engine's "
                  "max_batch_size and sequence lengths, or its kv cache) needs a smaller batch_size / max_batch_size "
                  "or more free GPU memory: lower the kv cache's fraction of free GPU memory, check nvidia-smi. ")
    return Verdict(
        "gpu_oom",
        f"{_named(ranks)} ran out of GPU memory{owner}; the other ranks then waited for it",
        engine + "Lower that rank's batch size or sequence length, enable activation checkpointing, or set "
        "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True against fragmentation; check nvidia-smi for another "
        "process on that GPU. An OOM at the first barrier or collective, before the model is allocated, means "
        "every process sits on GPU 0: call torch.cuda.set_device(int(os.environ['LOCAL_RANK'])) first. An OOM while "
        "the model loads (from_pretrained / load_model in the traceback, before any step) means the model itself does "
        "not fit in the GPUs' memory: shard it (DeepSpeed ZeRO-3, FSDP), offload to CPU, or use more GPUs.",
        "high" if len(ranks) == 1 and not owner else "medium",
        ranks,
        _samples(c, "cuda_oom"),
    )


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
    if not evs or len({e.data["gpu"] for e in evs}) != 1 or node_count(c) > 1:
        return ""
    d, gpu = evs[0].data, evs[0].data["gpu"]
    if gpu > 0 and all(R_VLLM_MP_WORKER.search(e.text) for e in evs) and not (
            any(size <= gpu for size, _ in c.world) or (gpu in c.ranks and waiting(c.ranks[gpu]))):
        # lead rule U (3): the failing process itself is vLLM's worker on that GPU (its executor's prefix)
        return (f" on GPU {gpu}: the line is vLLM's multiprocessing worker's own (its 'VllmWorkerProcess' prefix), and "
                f"that executor's workers run on one node, tensor-parallel rank N on cuda:N: rank {gpu}")
    procs = d.get("procs") or []
    if d.get("this"):
        raiser, others = d["this"], [b for _, b in procs]
    else:
        big = [p for p in procs if d.get("alloc") and p[1] >= d["alloc"]]
        if len(big) != 1:
            return ""
        raiser, others = big[0][1], [b for p, b in procs if p != big[0][0]]
    if len(others) < 2 or len(set(others)) != 1 or others[0] * 4 > raiser:
        return ""
    if any(size <= gpu for size, _ in c.world) or (gpu in c.ranks and waiting(c.ranks[gpu])):
        return ""  # no such rank, or that rank's own lines show it waiting (a victim)
    return (f" on GPU {gpu}, which its own process computes on ({len(others)} other processes hold only "
            f"{others[0] / 2**20:.0f} MiB contexts there): the process whose device is GPU {gpu}, local rank {gpu} of "
            "a job nothing says spans nodes")


def _tb_agrees(c: Collected) -> str:
    """Lead rules U (3), A: an unranked CUDA OOM whose text says the failing process itself holds GPU N's memory
    ("GPU N ... this process has X memory in use"), pasted with the traceback it belongs to, that traceback under the
    launcher's prefix of rank N: the GPU index and the rank agree, and nothing says the job spans nodes -- rank N.
    "" when they disagree (another rank's traceback, a per-process CUDA_VISIBLE_DEVICES), or rank N is shown waiting."""
    evs = c.samples.get("cuda_oom", [])
    gpus = {e.data.get("gpu") for e in evs}
    if not evs or len(gpus) != 1 or None in gpus or node_count(c) > 1:
        return ""
    gpu = evs[0].data["gpu"]
    if not all(e.data.get("this") and e.data.get("tb_rank") == gpu for e in evs):
        return ""
    if any(size <= gpu for size, _ in c.world) or (gpu in c.ranks and waiting(c.ranks[gpu])):
        return ""
    return (f" on GPU {gpu}, which the failing process itself holds ('this process has ... in use'), and the "
            f"traceback pasted with it is [rank{gpu}]'s: the GPU index and the rank agree on a job nothing says spans "
            "nodes")


_PROXY = re.compile(r"\[Proxy Service (\d{1,7})\]")


def _proxy_rank(c: Collected, evs: list[Event]) -> list[int]:
    """The rank of an unranked NCCL line from its process: NCCL's "[Proxy Service N]" thread runs in rank N's
    process (its proxyState's own rank), so a WARN of that thread on the same host:pid names the process of
    the OOM (the rank inside that communicator; the global one in the default group)."""
    pids = {(e.host, e.pid) for e in evs if e.pid is not None}
    found = {int(m.group(1)) for k in ("nccl_warn", "nccl_error", "socket_error") for e in c.samples.get(k, [])
             if (e.host, e.pid) in pids and (m := _PROXY.search(e.text))}
    return sorted(found) if len(found) == 1 else []


# frames of the crash handler itself (UCX's, libc's signal trampoline), before the library that crashed
_HANDLER_LIBS = ("libucs.so", "libc.so", "libpthread.so", "libSegFault.so", "libunwind.so", "libbacktrace.so")


def _nccl_crash(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """A native crash (SIGSEGV, SIGBUS) whose first frame past the crash handler is in libnccl.so:
    NCCL's own threads crashed (its proxy, RAS or net threads), not a rank's code or the network."""
    evs = [e for e in c.samples.get("crash", []) if _in_nccl(e.data.get("libs", []))]
    if not evs:
        return None
    e = evs[0]
    driver = _in_nccl(e.data.get("libs", [])) != "libnccl.so"
    return Verdict(
        "nccl_internal",
        f"a process crashed with signal {e.data['signal']} ({e.data['what']}) inside "
        + ("a CUDA driver call made by NCCL's own thread (the first frames past the crash handler are libcuda's, "
           "called from libnccl.so)" if driver else "libnccl.so (the first frames past the crash handler are NCCL's)")
        + ": a bug in NCCL (or in the driver call it made), not in a rank's code or the network; the lines do not "
        "say which rank",
        "Upgrade NCCL (check its release notes and NVIDIA/nccl issues for the version); symbolise the frames "
        "(addr2line -e libnccl.so OFFSET, or a debug build) to see the subsystem: in NCCL's RAS thread (ras*, 2.24+) "
        "NCCL_RAS_ENABLE=0 bypasses it, in the proxy/net threads compare NCCL_NET / the net plugin version"
        + ("; the crash is in the CUDA driver NCCL called: check that the libcuda loaded matches the host's driver "
           "(a container's CUDA compat libcuda on a newer driver), and in NCCL's proxy (its cuMem file-descriptor "
           "exchange) NCCL_CUMEM_ENABLE=0 avoids the cuMem path." if driver else "."),
        "medium", [], [x.brief() for x in evs[:3]])


_DRIVER_LIBS = ("libcuda.so", "libcudart.so")


def _in_nccl(libs: list[str]) -> str | None:
    """The library a native crash is NCCL's in: the first frame past the crash handler in libnccl.so, or a CUDA
    driver frame that NCCL itself called (the frame right after the driver's is libnccl's: NCCL's thread)."""
    frames = [x for x in libs if x not in _HANDLER_LIBS]
    if frames and frames[0] == "libnccl.so":
        return "libnccl.so"
    i = 0
    while i < len(frames) and frames[i] in _DRIVER_LIBS:
        i += 1
    return frames[0] if 0 < i < len(frames) and frames[i] == "libnccl.so" else None


def _host_mem(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """A process's own exception saying host RAM ran out (torch's DefaultCPUAllocator, Python's MemoryError):
    host_oom, on the rank its line names, else the one the launcher shows failing (rule A)."""
    evs = c.samples.get("host_mem", [])
    if not evs:
        return None
    ranks = _ranks(c, "host_mem")
    if not ranks:
        lone = lone_failure(c)
        ranks = lone.culprits if lone is not None and lone.exitcode not in (None, 0, -6, -15) else []
    return Verdict(
        "host_oom",
        f"{_named(ranks)} could not allocate host memory (its own exception: {_what(evs[0])[:120]}): the node's RAM "
        "(or the job's memory limit) ran out in that process; the other ranks then waited for it or were stopped",
        "Lower the host memory that process needs: load checkpoints memory-mapped or sharded (safetensors, "
        "low_cpu_mem_usage=True), fewer DataLoader workers / smaller prefetch, no full copies of the dataset per "
        "rank; check the node's free RAM and the job's limit (free -g, the scheduler's --mem, the container's "
        "memory limit) and dmesg for the OOM killer.",
        "high" if len(ranks) == 1 else "medium", ranks, _samples(c, "host_mem"))


def _killed(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    down = {id(e) for e in torn_down(c)}  # a -9 after another process's own failure: the agent's clean-up
    cf = [e for e in c.child_failures if (e.data.get("exitcode") == -9 or e.data.get("signal") == "SIGKILL")
          and id(e) not in down]
    wf = [e for e in c.worker_failures if e.data.get("exitcode") == -9 and id(e) not in down]
    if not cf and not wf:
        return None
    ranks = sorted({e.rank for e in cf if e.rank is not None})
    local = sorted({e.data.get("local_rank") for e in wf if e.data.get("local_rank") is not None})
    who = _named(ranks) if ranks else (f"local rank {_fmt_ranks(local)}" if local else "a rank")
    lone = lone_failure(c)
    if not ranks and lone is not None and lone.exitcode == -9:
        who, ranks = lone.who, lone.culprits  # the one process killed, the others only torn down after it
    unshown = root_not_shown(c, failed_on_own(c))
    if died_alike(c) or unshown:
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
            "DataLoader workers, mmap / sharded checkpoint loading, staggered model loading) or raise the job's "
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
        "Confirm with dmesg -T | grep -i 'killed process' (the OOM killer) on that node; lower host memory use "
        "(fewer DataLoader workers, mmap / sharded checkpoint loading, fewer processes loading the model at once) "
        "or raise the job's memory limit (Slurm: --mem / --mem-per-gpu; sacct -j JOB -o MaxRSS,ReqMem shows what "
        "the step used)."
        + (" Ray's memory monitor killed it before the kernel would: `ray logs raylet.out -ip NODE` names the "
           "worker; RAY_memory_usage_threshold (default 0.95 of the node's RAM) sets when it kills. Its message lists "
           "the node's top memory users (PID, MEM(GB), COMMAND): the largest is what filled the RAM, and it need not "
           "be the worker it killed (another process on the node, a server beside the job)" if ray else "")
        + (" Kubernetes: kubectl describe pod and kubectl get events show the eviction or OOMKilled; set the pod's "
           "memory requests and limits to what the job uses (under node memory pressure the kubelet evicts first "
           "the pods using more than their request)"
           if any(w in str(e.data.get("killed", "")) for e in wf for w in ("OOMKilled", "resource: memory",
                                                                             "MemoryPressure")) else ""),
        "high" if ranks and cf else "medium",
        ranks,
        [e.brief() for e in (cf + wf)[:3]],
    )


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


def _ray_died(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """The raylet saw a worker process die of an "unexpected system error" (its connection hit EOF): the
    first failure, before the timeouts and transport errors of the ranks that lost it. Ray lists the OOM
    killer, `ray stop --force` and a crash as possible causes; the line gives none of them and no rank."""
    evs = c.samples.get("ray_died", [])
    if not evs:
        return None
    e = evs[0]
    if all(x.data.get("node") for x in evs):  # the GCS lost a whole node (its heartbeats), not one worker
        ips = sorted({x.data["ip"] for x in evs if x.data.get("ip") and x.data["ip"][0].isdigit()})
        return Verdict(
            "unknown",
            f"Ray's GCS marked {len(evs)} node(s){' (' + ', '.join(ips[:4]) + ')' if ips else ''} dead after missing "
            "their heartbeats: every worker there is gone and the job's errors that follow are its victims; the lines "
            "do not say why (Ray's own list: the raylet crashed -- the OOM killer, a preempted or rebooted node -- or "
            "its heartbeats lagged on a slow network or a busy node) nor which ranks ran there",
            "On that node read the raylet's log (/tmp/ray/session_latest/logs/raylet.out, gcs_server.out on the head) "
            "and dmesg -T for the OOM killer; check whether the node was preempted or rebooted (the scheduler's or "
            "cloud's events); for a busy but healthy node raise the GCS health-check timeout "
            "(RAY_health_check_timeout_ms, RAY_health_check_failure_threshold).",
            "low", [], [x.brief() for x in evs[:2]],
            demote="Ray lost the node before it: that rank's error is a consequence")
    at = (f" (pid {e.data['pid']}" if e.data.get("pid") else " (") + (
        f" on {e.data['ip']})" if e.data.get("ip") else ")")
    at = "" if at == " ()" else at
    return Verdict(
        "unknown",
        f"a Ray worker process{at} died or was killed by an unexpected system error: it is the first failure, and "
        "the errors and timeouts of the ranks that followed are its victims; the lines say neither which rank it was "
        "nor why it died (Ray's own list: the OOM killer, ray stop --force, a crash)",
        "Read the dead worker's logs (ray logs worker-<WORKER_ID>.err on that node, or /tmp/ray/session_latest/logs/"
        "worker-*.err) and the raylet's (raylet.out) for why it died; on that node dmesg -T | grep -i 'killed "
        "process' shows whether the OOM killer took it (host memory).",
        "low", [], [x.brief() for x in evs[:2]],
        demote="a Ray worker process died before it: that rank's error is a consequence")


def _world_of_one(c: Collected, ranks: list[int]) -> bool:
    """Lead rule AG: the lines show a world of one process -- rank 0 alone (a launcher's output tag such as mpirun's
    "[1,0]<stderr>:"), no other rank anywhere, no world size above one -- and no launcher's failure record. A
    shared resource (/dev/shm) failing there is the whole job's, not a rank's (rule J): nobody is named."""
    size = world_size(c)[0]
    return (ranks == [0] and set(c.ranks) <= {0} and (size is None or size <= 1)
            and not c.child_failures and not c.worker_failures)


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
    bus = any(e.data.get("bus_error") for e in evs)
    sigs = [(e.data.get("signal") or "").strip().lower() for e in evs]
    killed = not bus and any(s.startswith("kill") for s in sigs)
    if not bus and not killed and any(s.startswith("terminated") for s in sigs):
        # SIGTERM ("killed by signal: Terminated") is a polite stop sent from outside the worker (a scheduler, a
        # container runtime, a user's kill, the main process's own shutdown): not the OOM killer (SIGKILL) nor a
        # full /dev/shm (SIGBUS); the rank whose worker got it did not cause it
        return Verdict(
            "signal",
            "a DataLoader worker was stopped by SIGTERM ('killed by signal: Terminated'), a signal sent from outside "
            "the process -- not the OOM killer (SIGKILL) nor a bus error (/dev/shm); no rank's own failure shows",
            "Find who sent the SIGTERM: the scheduler / container limits (a time limit, a preemption, a cancel, an "
            "orchestrator stopping the container), a user's or script's kill; check dmesg and the scheduler's log. "
            "If it recurs with no outside stop, try fewer num_workers or num_workers=0 to see the real error.",
            "medium", [], _samples(c, "dataloader"))
    crashed = [s for s in sigs if s and not s.startswith(("kill", "terminated", "bus"))]
    if not bus and not killed and crashed:
        # a worker killed by its own fault (SIGSEGV "Segmentation fault", SIGABRT "Aborted", SIGFPE): a native crash
        # inside the worker process -- the dataset code's C extensions (image/video decoders, OpenCV's threads) or a
        # library built for another numpy/torch -- not memory taken back by the host: rule A's native crash, whose
        # cause the lines do not show (the rank whose loader it was stays the culprit)
        sig = crashed[0].rstrip(". ").capitalize()
        return Verdict(
            "unknown",
            f"a DataLoader worker of {_named(ranks)} crashed ('killed by signal: {sig}'): a "
            "native crash inside the worker process (the dataset's own code and the C libraries it calls), not the "
            "OOM killer (that is 'Killed') nor a full /dev/shm (a bus error)",
            "Rerun with num_workers=0 so the crash happens in the main process with its traceback (python -X "
            "faulthandler / PYTHONFAULTHANDLER=1 prints the Python stack at the fault); then look at the native "
            "libraries the dataset calls: image/video decoders (PIL, OpenCV: cv2.setNumThreads(0) in workers), "
            "numpy/torch extensions built for other versions (reinstall matching wheels).",
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
    # a worker that "exited unexpectedly" with no signal named died without a Python exception: in the usual case
    # it was killed while writing its batch into a too-small /dev/shm (a container's 64 MB default) -- the
    # shared-memory class, as a bus error names it outright
    shm_guess = not named
    if not killed and any("use_shared_memory" in e.text for e in evs):  # Paddle's loader names its own switch
        fix += (" Paddle's DataLoader can also pass its batches without /dev/shm: paddle.io.DataLoader(..., "
                "use_shared_memory=False).")
    return Verdict(
        "dataloader_shm" if bus or shm_guess else "host_oom",
        f"a DataLoader worker of {_named(ranks)} was killed" + (" by a bus error: /dev/shm exhausted" if bus else
                                                                  " by the host (host memory)" if killed else
                                                                  " (exited unexpectedly, no signal named: most "
                                                                  "often a full /dev/shm)" if shm_guess else ""),
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


def _launch_arg(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """argparse ending a worker (exit code 2) on the local-rank argument the launcher passes or leaves out: a
    launcher/script mismatch of the job's set-up (config) that every worker hits; the rank the launcher's record
    shows failing is named by lead rule A."""
    evs = c.samples.get("launch_arg", [])
    if not evs:
        return None
    e = evs[0]
    lone = lone_failure(c)
    ranks: list[int] = []  # lead rules Q and U (2): every worker is launched the same way, the record's rank too
    if e.data.get("script"):
        return Verdict(
            "config", f"the interpreter could not open the script it was launched with ('{e.data['arg'][:200]}': "
            "No such file or directory) and exited with code 2: every worker is started with that same path, a "
            "launch setting of the job, not a fault of any rank", "Give the launcher the right script path (relative "
            "paths are resolved from the directory the launcher is run in: cd to the repository or pass the full "
            "path), then relaunch; check the file exists on every node.", "high", [], [x.brief() for x in evs[:2]],
            job_wide=True)
    if e.data.get("usage"):
        return _usage_error(e, evs)
    said = ("the script requires " + e.data["arg"] + " but the launcher (torchrun) passes no such argument"
            if e.data["missing"] else
            "the launcher passed " + e.data["arg"] + "=N and the script's argparse does not accept that spelling")
    return Verdict(
        "config",
        f"{lone.who + ' exited' if lone is not None else 'the worker exited'} with argparse's usage error: {said} "
        "-- a mismatch between the launcher and the script that every worker hits, not a fault of the run",
        "torch.distributed.launch of torch >= 2.0 passes --local-rank=N (older ones and DeepSpeed's launcher "
        "--local_rank=N), torchrun passes none and sets the LOCAL_RANK env variable: read "
        "int(os.environ['LOCAL_RANK']) in the script, or accept both spellings "
        "(parser.add_argument('--local-rank', '--local_rank', type=int, dest='local_rank', "
        "default=int(os.environ.get('LOCAL_RANK', 0)))); or launch with torchrun (torch.distributed.launch --use-env).",
        "high", ranks, [x.brief() for x in evs[:2]], job_wide=True)


def _usage_error(e, evs: list) -> Verdict:
    """argparse refusing the arguments a worker was started with (not the local-rank one): every worker is launched
    with the same command line (lead rules U (2), W), so it is config and no rank, whatever a launcher's record then
    lists as failed. A launcher's own option among the refused ones was written after the script's path, where the
    launcher hands everything to the script."""
    arg = e.data["arg"]
    opt = S.R_LAUNCHER_OPT.match(arg)
    flag = (arg.split() or [arg])[0].split("=", 1)[0]
    return Verdict(
        "config",
        f"the script's argparse refused the arguments it was started with ('{strip_prefixes(e.text).strip()[:160]}') "
        "and exited with its usage error (exit code 2): every worker is launched with that same command line, so "
        "the launch arguments are wrong for all of them -- not a fault of any rank, whatever the launcher then "
        "lists as failed"
        + (f"; {flag} is the launcher's own option, given after the training script, so the launcher passed it on to "
           "the script" if opt else ""),
        ((f"Put {flag} before the training script: launcher options go between the launcher and the script's path, "
          f"and everything after the path is the script's own arguments (argument order): <launcher> {flag} ... "
          "train.py <train.py arguments> (python -m paddle.distributed.launch, torchrun, deepspeed alike). "
          if opt else "")
         + ("Give the script the arguments it requires" if e.data["missing"] else
            "Check the launch arguments against the script's own options (python train.py --help)")
         + ": fix the command line (or the config/launch script that builds it) once for every worker, then "
         "relaunch."),
        "high", [], [x.brief() for x in evs[:2]], job_wide=True)


# What a rank's own failure or a hang leaves: a settings check among these is not what stopped the job.
_NOT_SETTINGS = ("watchdog_timeout", "nccl_error", "cuda_error", "cuda_oom", "ib_completion", "heartbeat", "crash",
                 "gloo_error", "socket_error", "store_timeout", "dataloader")


def _settings_check(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """A framework's own check of the job's settings failing (lead rule W, parse._traceback_tail's ``settings``):
    DeepSpeed's batch-size assert, an `assert x % world_size == 0`, a launcher's dist_url check, a model that needs a
    feature the setup lacks, torch's missing rendezvous handler. Every rank is started with the same settings, so the
    rank a launcher's record shows exiting on it is no culprit (rule Q): config, culprits []. Only when no exception
    of another kind and no NCCL, CUDA, timeout or connection failure is shown: those are a rank's own run failing."""
    evs = [e for e in c.exceptions if e.data.get("settings")]
    if not evs or any(c.kinds.get(k) for k in _NOT_SETTINGS):
        return None
    if any(not e.data.get("settings") and not e.data.get("line") for e in c.exceptions):
        return None  # another exception class shown (a rank's own runtime error): rule A reads it
    e = evs[0]
    said = e.data["settings"]
    text = e.data["type"] + (": " + e.data["message"] if e.data["message"] else f" (from `{said}`)")
    if e.data["message"] and said not in e.data["message"]:
        text += f" -- {said}"
    adv = S.R_SETTINGS_ADVICE.search(e.data["message"] or said)  # the check's own advice (an env setting)
    build = next((x.data["build"] for x in evs if x.data.get("build") not in (None, "op")),
                 "op" if any(x.data.get("build") for x in evs) else None)
    if build:  # the JIT build of an op every rank loads failing at start-up (lead rule AF (2))
        what = f"extension '{build}'" if build != "op" else "an op (a C++/CUDA extension)"
        return Verdict(
            "config",
            f"the job stopped at start-up building {what} it compiles on first use (torch's cpp_extension JIT build, "
            f"{text[:200]}, {e.where}): the build toolchain (CUDA toolkit, compiler, ninja) every rank shares failed, "
            "and one rank builds while the others wait on the same build, so the rank that printed it is no culprit",
            "Read the compiler's own error above 'ninja: build stopped: subcommand failed' (the first 'error:' line). "
            "Then check the build environment every node shares: CUDA_HOME / nvcc matching torch's CUDA (nvcc "
            "--version against python -c 'import torch; print(torch.version.cuda)'), a gcc/g++ version that CUDA "
            "toolkit supports, ninja installed; for DeepSpeed run ds_report (which ops are compatible) and pre-build "
            "the op at install (DS_BUILD_OPS=1 or DS_BUILD_<OP>=1 pip install deepspeed) instead of on first use; "
            "clear a stale or half-written build dir (~/.cache/torch_extensions, or TORCH_EXTENSIONS_DIR) and "
            "relaunch every rank.",
            "high", [], [x.brief() for x in evs[:2]], job_wide=True)
    if S.R_SETTINGS_REFUSED.search(said):  # the launch's device mapping (lead rules W, AA (1))
        device = S.R_SAME_DEVICE.search(said) is not None
        return Verdict(
            "config",
            f"the job stopped on a framework's own check of how the launch maps processes to GPUs, {text[:300]} "
            f"({e.where}): "
            + ("several processes of one communication group use the same CUDA device" if device else
               "a model loaded across the GPUs (device_map) cannot be trained by several processes")
            + " -- every process is started the same way, so no rank is at fault",
            ("Give every worker its own GPU (one GPU per worker): set CUDA_VISIBLE_DEVICES per worker or pick the "
             "device ordinal from the local rank (torch.cuda.set_device(LOCAL_RANK), the framework's gpu_id / device "
             "option; a Dask/Ray cluster with one worker per GPU), and check the launcher starts no more workers than "
             "GPUs." if device else
             "Either train with one process (python script.py, --num_processes=1, NPROC_PER_NODE=1) when the model is "
             "loaded with device_map='auto', or drop device_map (device_map={'': LOCAL_RANK}) so each process holds "
             "its own copy under DDP / DeepSpeed; check the launch variables (NPROC_PER_NODE, NNODES, NODE_RANK, "
             "WORLD_SIZE, CUDA_VISIBLE_DEVICES) really reach the launcher (exported, or on its command line).")
            + " Then relaunch every rank.",
            "high", [], [x.brief() for x in evs[:2]], job_wide=True)
    return Verdict(
        "config",
        f"the job stopped on a framework's own check of its settings, {text[:300]} ({e.where}): the settings every "
        "process is started with (batch sizes, the world size, the launch URL, a feature the GPUs or the build lack) "
        "do not fit together, so the rank that printed it is no culprit -- every rank would fail the same check",
        "Make the settings that check names agree with the launch: train_batch_size = micro_batch_per_gpu x "
        "gradient_accumulation_steps x world_size (DeepSpeed), gradient_accumulation_steps a multiple of world_size "
        "(divisible by it), --nproc_per_node / --num_gpus / the number of machines as the config expects, an "
        "explicit --dist-url tcp://MASTER_IP:PORT for several machines, an init_method this platform's torch "
        "supports (env:// or file://; no tcp:// handler on Windows), or a GPU/build with the feature the model "
        "requires (flash attention needs compute capability >= 8.0; else num_shard 1). Then relaunch every rank."
        + (f" The check itself names a setting to try: '{adv.group(1).strip()}'." if adv else ""),
        "high", [], [x.brief() for x in evs[:2]], job_wide=True)


def _launch_setup(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """The launcher's own check of its set-up failing before any worker ran (lead rule X (2)): config, no rank."""
    evs = c.samples.get("launch_setup", [])
    if not evs or c.kinds.get("watchdog_timeout") or c.kinds.get("nccl_error"):
        return None
    ssh = next((e.data["ssh"] for e in evs if e.data.get("ssh")), None)
    mpi = next((e.data["mpi"] for e in evs if e.data.get("mpi")), None)
    ro = sorted({e.data["readonly"] for e in evs if e.data.get("readonly")})
    pdsh = sorted({e.data["pdsh"] for e in evs if e.data.get("pdsh")})
    # the ssh client's own failure to reach a host (parse: ssh_host) is read like pdsh's: only where nothing else ran
    reach = list(dict.fromkeys(e.data["ssh_host"] for e in evs if e.data.get("ssh_host")))
    # the shell's refusal (or pdsh's ssh failing, which a connection lost mid-run also gives) is the launch's
    # set-up only where nothing else ran: no worker's failure, exception or other family beside it (the
    # launcher's own "failed to run ..." line is a failure shown, line=True)
    if (ro or pdsh or reach) and not ssh and not mpi and (
            c.child_failures or c.worker_failures or any(not x.data.get("line") for x in c.exceptions) or any(
                v and k not in QUIET_KINDS + ("launch_setup", "traceback_tail") for k, v in c.kinds.items())):
        return None
    if reach and not pdsh and not ro and not ssh and not mpi:
        dns = [e for e in evs if e.data.get("ssh_dns")]
        why = next((e.data["ssh_why"] for e in evs if e.data.get("ssh_why")), "")
        return Verdict(
            "config",
            f"ssh could not reach {', '.join(reach[:4])} before any worker started"
            + (f" ('{why}'" + (": the host names do not resolve, DNS)" if dns else ")") if why else "")
            + ": a multi-node launcher (horovodrun's ssh check, mpirun, pdsh) reaches its hosts over ssh to start the "
            "workers, and that launch set-up (the hostfile's names, name resolution, passwordless ssh) is wrong -- no "
            "rank ran",
            "Check that every host name in the hostfile resolves from the launching node (getent hosts HOST; DNS or "
            "/etc/hosts, a Kubernetes headless service for pods) and that passwordless ssh works (ssh -o "
            "PasswordAuthentication=no HOST hostname must print the host name), the ssh port open; where the hosts "
            "are reached another way (Kubernetes' MPI operator sets mpirun's rsh agent, OMPI_MCA_plm_rsh_agent, to "
            "kubectl exec), launch with that launcher's own command (mpirun) instead of an ssh check; then relaunch.",
            "high", [], [e.brief() for e in evs[:2]], job_wide=True)
    if pdsh and not ro and not ssh and not mpi:
        return Verdict(
            "config",
            f"pdsh could not ssh into {', '.join(pdsh[:4])} ('ssh exited with exit code 255', ssh's own connect or "
            "authentication failure) before any worker started: the launch set-up (passwordless ssh, the hostfile's "
            "host names) is wrong, no rank ran",
            "Set up passwordless ssh from the launching node to every host pdsh reaches, localhost included on one "
            "node (ssh-keygen; ssh-copy-id HOST, the key in ~/.ssh/authorized_keys; then `ssh -o "
            "PasswordAuthentication=no HOST hostname` must print the host name), check the hostfile's names; or do "
            "without pdsh: on one node launch locally without a hostfile (deepspeed --no_ssh / --launcher=local "
            "style single-node launch), or start each node yourself.",
            "high", [], [e.brief() for e in evs[:2]], job_wide=True)
    if ro and not ssh and not mpi:
        return Verdict(
            "config",
            f"the remote shell refused the environment the launcher exports before its command ('{', '.join(ro[:4])}: "
            "readonly variable'): a multi-host launcher (colossalai run / fabric, over ssh from its hostfile) sends "
            "'export ... && torchrun ...', the export fails on that host and torchrun never starts -- the launch "
            "set-up, before any worker ran, so no rank is at fault",
            "Do not pass those variables through the launcher (they are the ssh session's own: SSH_CONNECTION, "
            "SSH_CLIENT, SSH_REMOTE_USER are set readonly by the host's shell profile): unset them from the "
            "environment the launcher copies, or remove the readonly declaration on the hosts; or run torchrun on each "
            "node yourself with the same arguments instead of the ssh launcher, after checking the hostfile's host "
            "names and passwordless ssh to each.",
            "high", [], [e.brief() for e in evs[:2]] + [x.brief() for x in c.exceptions[:1]], job_wide=True)
    if ssh:
        return Verdict(
            "config",
            f"the launcher's check that it can reach a node by passwordless ssh failed ('{ssh[:160]}' exited with "
            "255, ssh's own connect or authentication failure) before any worker started: the launch set-up (ssh "
            "keys, the hostfile's host names) is wrong, no rank ran",
            "Set up passwordless ssh from the launching node to every node of the hostfile (ssh-keygen; ssh-copy-id "
            "HOST; then `ssh -o PasswordAuthentication=no HOST hostname` must print the host name), check the "
            "hostfile's names and addresses (and the ssh port / known_hosts); on one node drop the hostfile, or pass "
            "--no_ssh_check when the nodes are reached another way (a launcher that starts each node itself).",
            "high", [], [e.brief() for e in evs[:2]], job_wide=True)
    return Verdict(
        "config",
        f"MPI failed to start in the process ('An error occurred in {mpi} on a NULL communicator', "
        "MPI_ERRORS_ARE_FATAL): the process called MPI's initialisation without an MPI launcher that provides it "
        "(or PMI/PMIx could not be reached) -- a launch/bootstrap setting every rank shares, not one rank's fault",
        "Launch the job under an MPI launcher (mpirun / srun --mpi=pmix) when the code initialises MPI, or keep MPI "
        "out of it: bootstrap what needs it over NCCL/gloo instead (Transformer Engine / Megatron's "
        "tp_comm_overlap: --tp-comm-bootstrap-backend nccl); check that the MPI library matches the launcher's.",
        "high", [], [e.brief() for e in evs[:2]], job_wide=True)


def _no_nccl(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """The nccl backend asked for where NCCL cannot run: torch built without it (the CPU wheel)
    or no GPU visible to the process. A setting of the job, not a fault of a rank."""
    evs = c.samples.get("no_nccl", [])
    if not evs:
        return None
    uv = next((e for e in evs if e.data.get("what") == "libuv"), None)
    if uv is not None:
        return Verdict(
            "config",
            "creating the TCPStore failed because it was asked to use the libuv backend and this PyTorch build has no "
            "libuv support (the Windows wheels): a setting every process shares, not a connection or a rank failing",
            "Set USE_LIBUV=0 in the environment of every process (or pass use_libuv=False to the TCPStore / "
            "init_method 'env://?use_libuv=0'); on Windows run multi-GPU training under WSL (Linux builds have libuv "
            "and NCCL), or train on a single GPU without torchrun.",
            "high", [], [uv.brief()], job_wide=True)
    lib = next((e for e in evs if e.data.get("what") == "library"), None)
    if lib is not None:
        # XLA's (JAX, TensorFlow) collectives dlopen libnccl at the first one: none loadable on the library path
        return Verdict(
            "config",
            "the framework could not load the NCCL library (libnccl.so) for its first collective, so no multi-GPU "
            "collective can run: the install every process shares lacks a loadable NCCL, not a rank or the network",
            "Install the NCCL that matches the framework's CUDA build: for JAX the CUDA wheels (pip install "
            "'jax[cuda12]', which brings nvidia-nccl-cu12), for others the nvidia-nccl-cu12 wheel or the system "
            "libnccl2 package; make libnccl.so.2 findable (LD_LIBRARY_PATH, ldconfig -p | grep nccl) and keep the "
            "CUDA/cuDNN/NCCL versions the framework was built for.",
            "high", [], [lib.brief()], job_wide=True)
    nogpu = any("no GPUs found" in e.text for e in evs)
    return Verdict(
        "config",
        "the job asked for the nccl backend where NCCL cannot run: "
        + ("no GPU is visible to the process" if nogpu else "this torch is built without NCCL (a CPU-only build)"),
        "On CPU use the gloo backend (init_process_group('gloo'), or 'cpu:gloo,cuda:nccl' to pick per device); "
        "for GPUs install torch's CUDA build (a PyTorch build with CUDA/NCCL) and check that the GPUs are visible "
        "(nvidia-smi, CUDA_VISIBLE_DEVICES, the container's --gpus; python -c 'import torch; "
        "print(torch.cuda.is_available(), torch.distributed.is_nccl_available())' must print True True); on another "
        "accelerator use the backend "
        "its own build provides (hccl with torch_npu on Ascend NPUs, xccl on Intel GPUs; DeepSpeed picks it "
        "from its accelerator, DS_ACCELERATOR, and dist_backend).",
        "high", [], [e.brief() for e in evs[:3]])


def exception_of(c: Collected, rank: int | None) -> Event | None:
    """The last traceback line of that rank's own log (a line tagged with it or a file named after
    it); else the untagged ones of torchrun's shared output, only when they all say the same (with
    several ranks' tracebacks interleaved there, which one is that rank's cannot be told)."""
    if rank is None:
        return None
    excs = [e for e in c.exceptions if not e.data.get("line")]  # a traceback's own last line, not an "Error:" line
    own = [e for e in excs if e.rank == rank]
    if not own:
        own = [e for e in excs if e.rank is None]
        if len({(e.data["type"], e.data["message"]) for e in own}) != 1:
            return None
    return own[-1] if own else None


SIGNALS = {4: "SIGILL", 6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE", 9: "SIGKILL", 11: "SIGSEGV", 15: "SIGTERM"}


def _exited(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Ranks that exited on their own (torchrun's summary or its 'failed (exitcode: N)'):
    exit code 1 is a Python exception in that rank; -N is signal N (-7 SIGBUS: shared memory)."""
    down = {id(e) for e in torn_down(c)}
    fails = [e for e in c.child_failures + c.worker_failures if id(e) not in down and e.data.get("exitcode") != -9
             and (e.data.get("exitcode") not in (None, 0, -15) or e.data.get("root") or e.data.get("died"))]
    if not fails:
        return None
    if all(e.data.get("launcher_kill") for e in fails) and _runner_signal(c):
        return None  # the runner got SIGINT/SIGTERM and killed its workers for it: _signal reads it
    if all(e.data.get("launcher_kill") for e in fails):  # lead rule M: only DeepSpeed's launcher killing its workers
        return Verdict("unknown", "DeepSpeed's launcher killed its workers ('Killing subprocess' for each): it does so "
                       "when one of them exited (or the launcher itself was stopped), and these lines show neither "
                       "which worker failed nor its return code, signal or exception -- the kill lines list every "
                       "worker, the failed one too, so they name nobody",
                       "Read each rank's log for the first error (deepspeed --enable_each_rank_log DIR writes one "
                       "per-rank log with the worker traceback); the launcher's '[ERROR] ... exits with return code = "
                       "N' line gives the exit code (-9: killed from outside, check dmesg -T for the OOM killer and "
                       "host memory with free -h).", "low", [], [e.brief() for e in fails[:3]])
    lone = lone_failure(c)
    several = several_failures(c) if lone is None else []
    unshown = root_not_shown(c, failed_on_own(c))
    if any(e.data.get("exitcode") == -7 for e in fails) and (died_alike(c) or unshown):  # lead rule J with rule F
        return Verdict("dataloader_shm", (f"{_listed(fails)} died of SIGBUS (exit code -7){_ROOT_UNSHOWN}" if unshown
                                          else "every process the launcher's record shows died of SIGBUS (exit code "
                                          "-7) within the same second and none was only torn down")
                       + ": /dev/shm (shared memory) ran out for all "
                       "of them at once -- a resource of the host or the container, not one rank's fault",
                       "Enlarge /dev/shm (docker --shm-size=16g or --ipc=host; Kubernetes emptyDir medium: Memory) "
                       "or lower num_workers / prefetch_factor; `df -h /dev/shm` while the job runs shows it filling.",
                       "medium", [], [e.brief() for e in fails[:3]], job_wide=True)
    if any(e.data.get("exitcode") == -7 for e in fails):
        return Verdict("dataloader_shm", f"a process died of SIGBUS (exit code -7{_shell_status(fails)}): it touched "
                       "shared memory that could not be backed, /dev/shm is full or too small (DataLoader workers, "
                       "NCCL's segments)",
                       "Enlarge /dev/shm (docker --shm-size=16g or --ipc=host; Kubernetes emptyDir medium: Memory) "
                       "or lower num_workers.", "high", lone.culprits if lone else [], [e.brief() for e in fails[:3]])
    ranks = sorted({e.rank for e in fails if e.rank is not None})
    local = sorted({e.data["local_rank"] for e in fails if e.data.get("local_rank") is not None})
    codes = sorted({e.data["exitcode"] for e in fails if e.data.get("exitcode") is not None})
    who = f"rank {_fmt_ranks(ranks)}" if ranks else f"local rank {_fmt_ranks(local)}" if local else "a rank"
    launcher = _launcher(fails)
    if lone is not None:
        who, ranks = lone.who, lone.culprits
    if several:
        return _several(c, several, codes, fails)
    if lone is not None and lone.exitcode is None and lone.event.data.get("died") and lone.culprits:
        return Verdict(  # lead rules A and I: the executor's record of the first worker that died
            "unknown", f"{lone.who} died first: the executor that runs the workers saw its process end "
            f"('{lone.event.text[:160]}') and shut the others down after it (their 'terminating worker' lines are "
            "that teardown). How it died -- its exit code, signal or exception -- is not in these lines",
            f"Read rank {lone.rank}'s own log (the worker's lines before it died: its traceback, a CUDA error, an "
            "OOM); if it has none, it was killed from outside: dmesg -T for the OOM killer and Xid errors on that "
            "node. Rerun with NCCL_DEBUG=INFO and CUDA_LAUNCH_BLOCKING=1 to get its last NCCL and CUDA call, and "
            "py-spy dump --pid of the workers if it hangs before dying."
            + (" " + LAUNCHER_LOGS[launcher] if launcher in LAUNCHER_LOGS else "")
            + _paddle_files(launcher, lone.culprits),
            "medium", lone.culprits, [lone.event.brief()])
    if lone is not None and lone.event.data.get("uncaught") and lone.culprits:
        exc = exception_of(c, lone.rank)
        tb = (f" Its traceback ends in {exc.data['type']}: {exc.data['message'][:200]} ({exc.where})."
              if exc is not None else " Its traceback, which the hook logs after that line, is not in these lines.")
        return Verdict(  # lead rule A: the process's own record of the exception that ended it
            "unknown", f"{lone.who} ended on an uncaught exception its own logger recorded ('Uncaught "
            f"{lone.event.data['uncaught']}: {lone.event.data['message'][:160]}'): the process exited on it (Python "
            "exits with status 1 after its excepthook), and no other rank shows a failure of its own. The exception's "
            "class names no known cause." + tb,
            f"Read the full log of rank {lone.rank} from that line on: the traceback the hook logs with it names the "
            "frame that raised (an exception raised in a background thread -- a data loader or data thread -- and "
            "re-raised in the main one carries that thread's original error as its cause: fix that one, e.g. the "
            "dataset files it read or its num_threads / num_workers). Keep one log file per rank (torchrun "
            "--log-dir DIR --redirects 3 --tee 3).",
            "medium", lone.culprits, [lone.event.brief()] + ([exc.brief()] if exc is not None else []))
    if lone is None and len(codes) == 1 and codes[0] < 0 and died_alike(c):  # lead rule J: every process alike
        sig = SIGNALS.get(-codes[0], f"signal {-codes[0]}")
        return Verdict("unknown", f"every process the launcher's record shows ({who}) died of {sig} (exit code "
                       f"{codes[0]}) within the same second and none was only torn down: one cause shared by all of "
                       "them (the host, the container, a library every rank loads), not one rank's fault",
                       (NATIVE_FIX if codes[0] in NATIVE_CRASH else ABORT_FIX if codes[0] == -6 else "")
                       + "Read one rank's stderr for the first native error line; check what the processes share "
                       "on that host (dmesg -T for the kernel's view of the crash, the driver, the container's "
                       "limits).", "low", [], [e.brief() for e in fails[:3]], job_wide=True)
    sig = ", ".join(SIGNALS.get(-x, f"signal {-x}") for x in codes if x < 0)
    alike = lone is None and len(codes) == 1 and died_alike(c)  # lead rule J: every process shown alike
    world = next((e.data["world"] for e in fails if e.data.get("whole") and e.data.get("world")), None)
    every = bool(ranks) and lone is None and world is not None and ranks == list(range(world))
    what = ((f"{who} exited with code {', '.join(map(str, codes))}" if codes else
             f"{who} failed on {'their' if len(ranks) > 1 else 'its'} own (the launcher's record lists "
             f"{'them' if len(ranks) > 1 else 'it'} as exited, with no exit code)") + (f" ({sig})" if sig else "")
            + (": a Python exception in that process" if 1 in codes else "")
            + ("; every process the launcher's record shows exited alike: a cause they share (the same error on every "
               "rank, the environment or the launch they share), not one rank's fault" if alike
               else f"; that is every trainer of the job (all {world}): a cause they share (the same error on every "
               "rank, the environment, the build or the launch), not one rank's fault" if every
               else "; the launcher then stopped the others"))
    single = lone is not None and len(ranks) == 1
    exc = exception_of(c, ranks[0]) if len(ranks) == 1 and codes == [1] else None
    if exc is not None:
        text = exc.data["type"] + (": " + exc.data["message"] if exc.data["message"] else "")
        nonfinite = _NONFINITE.search(text)
        return Verdict("unknown", f"{who} exited with code 1 on its own exception, the last line of its traceback: "
                       f"{text[:300]} ({exc.where}); the launcher then stopped the others. Its cause is that "
                       "exception" + ("; it is a NaN/Inf check stopping that rank: its numbers diverged" if nonfinite
                                      else ""),
                       (_NONFINITE_FIX if nonfinite else "")
                       + "Fix the exception that traceback ends in (read the frames above that line); "
                       + ("the other ranks only stopped because torchrun ended the job." if launcher is None else
                          "the other ranks show no failure of their own.")
                       + (" " + LAUNCHER_LOGS[launcher] if launcher else ""),
                       "medium", ranks, [exc.brief()] + [e.brief() for e in fails[:2]])
    if codes == [-6] and not single:  # abort(): how ProcessGroupNCCL's watchdog ends a process after a timeout
        what += ("; SIGABRT is how torch's NCCL watchdog ends a process after a collective timeout or an NCCL error, "
                 "so this rank may be a victim: its own log says whether it timed out or hit its own error")
    native = [x for x in codes if x in NATIVE_CRASH]
    fatal = next((e.data["what"] for e in c.samples.get("fatal_python", [])), None)
    if fatal and any(x < 0 for x in codes):
        what += (f"; the process printed 'Fatal Python error: {fatal[:120]}': the interpreter itself aborted (a C "
                 "extension's reference-count bug or a crash inside native code), not a Python exception")
    abort_fix = ("SIGABRT from the watchdog means the hang or error began elsewhere: collect every rank's log and "
                 "Flight Recorder dumps (TORCH_FR_BUFFER_SIZE=2000) and, while it hangs, py-spy dump --pid on every "
                 "rank's process. " if codes == [-6] and not single else ABORT_FIX if -6 in codes else "")
    whose = f"local_rank {lone.local_rank}: " if single and lone and lone.local_rank is not None else ""
    if single and c.kinds.get("pg_not_destroyed") and any(x in (-6, -11) for x in codes):
        # the destructor warning is printed at interpreter exit: the abort came after it, in the teardown
        what += ("; it aborted while exiting, after warning that destroy_process_group() was not called: a teardown "
                 "abort (C++ objects destroyed while a thread or callback still used them, printed as 'pure virtual "
                 "method called' / 'terminate called without an active exception'), not a failure of the run")
        abort_fix = ("Call dist.destroy_process_group() at the end of main on every rank, before exit (and stop "
                     "background threads/callbacks first): the teardown then no longer races the interpreter's exit. ")
    if native:
        what += (f"; {SIGNALS[-native[0]]} is a native crash inside that process (a C/C++/CUDA extension, a library "
                 "built for another torch/CUDA, a driver or plugin), not a Python exception nor a kill from outside")
    alone = (f"; if it does not show, run rank {ranks[0]} alone (one process, its inputs) to see its error. "
             if single and ranks else ". ")
    tb = f"the rank {ranks[0]} traceback" if single and ranks else "the failed rank's traceback"
    if lone is not None and lone.event.data.get("last_launched") is not None:  # lead rule M
        abort_fix = ("DeepSpeed's launcher record does not say which worker failed (its command line is the last "
                     "one launched): read the full log of every worker (deepspeed --enable_each_rank_log DIR writes "
                     "one file per rank) for the first error. " + abort_fix)
    logs = ("torchrun --log-dir / --redirects 3 --tee 3 to keep one file per rank); decorate the entry point with "
            "torch.distributed.elastic.multiprocessing.errors.@record so torchrun's summary carries the exception "
            "(@record / error_file: the file instead of <N/A>)" + alone.rstrip()
            if launcher is None else "the per-rank output below)" + alone + LAUNCHER_LOGS[launcher]
            + _paddle_files(launcher, ranks)
            + (MPI_CRASH_FIX if launcher == "mpirun" and native else ""))
    cause = ". The cause is in their own output" if alike or every else ". The cause is that process's own traceback"
    init = next((e.data["comm_init"] for e in fails if e.data.get("comm_init")), "")
    if init:  # a traceback above the record stops in the call that creates NCCL's communicator, its error cut
        cause += (f" (a traceback above it goes into NCCL's communicator creation, ncclCommInitRank, at {init}, and "
                  "stops before its error)")
        abort_fix = ("It failed creating its NCCL communicator (ncclCommInitRank): rerun with NCCL_DEBUG=INFO, which "
                     "prints NCCL's own reason (a CUDA error, a GPU another process holds, a device "
                     "CUDA_VISIBLE_DEVICES hides: check nvidia-smi) and the NCCL version each library loads (a "
                     "framework bundling its own NCCL beside torch's). " + abort_fix)
    return Verdict("unknown", what + cause + ", which these lines do not hold",
                   abort_fix + (ILL_FIX if -4 in codes else "") + (NATIVE_FIX if native else "")
                   + f"Read {tb} ({whose}its stderr, or " + logs,
                   "medium" if single else "low", ranks if single else [], [e.brief() for e in fails[:3]])


def _fatal_python(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """The interpreter's own "Fatal Python error: ..." with no launcher record, exception or NCCL error to read:
    a process died in native code or in the interpreter. Nobody is named: faulthandler prints it for any fatal
    signal, the watchdog's abort of a waiting rank too ("Fatal Python error: Aborted")."""
    evs = c.samples.get("fatal_python", [])
    if not evs:
        return None
    what = evs[0].data["what"]
    if what.lower().startswith("bus error"):  # lead rule F
        return Verdict("dataloader_shm", f"a process died of a bus error ('Fatal Python error: {what[:80]}'): it "
                       "touched shared memory that could not be backed, /dev/shm is full or too small",
                       "Enlarge /dev/shm (docker --shm-size=16g or --ipc=host; Kubernetes emptyDir medium: Memory) "
                       "or lower num_workers.", "medium", [], [e.brief() for e in evs[:2]])
    native = what.lower().startswith(("segmentation fault", "floating point exception", "illegal instruction"))
    how = ("abort() was called in native code: torch's NCCL watchdog after a collective timeout or NCCL error, an "
           "uncaught C++ exception or a C extension" if what.lower().startswith("aborted") else
           "the interpreter or a C extension died in native code")
    return Verdict("unknown", f"a process crashed: 'Fatal Python error: {what[:120]}' -- {how}, not a Python "
                   "exception; these lines do not say which rank nor why",
                   (NATIVE_FIX if native else ABORT_FIX) + "Read that process's whole stderr (its 'Current thread' "
                   "stack names the Python frame it died in).", "low", [], [e.brief() for e in evs[:2]])


def _native_crash(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """A process's own fatal-signal handler (Open MPI's "[host:pid] Signal: Segmentation fault (11)", UCX's "Caught
    signal 11 (...)", Abseil's "*** SIGSEGV received at ...") reporting SIGSEGV, SIGILL, SIGFPE or SIGABRT, with no
    backtrace into libnccl.so (_nccl_crash), no bus error (_bus_error) and nothing else that explains the lines: that
    process died in native code, a first failure whose cause the lines do not give (lead rule A: -11/-6 with no other
    cause is unknown). Its rank is named only where one process crashed and its line carries the rank (a launcher's
    tag); several processes crashing alike share a cause (rule J), and a SIGABRT names nobody (the watchdog's own
    abort looks the same, rule I)."""
    evs = [e for e in c.samples.get("crash", []) if e.data.get("signal") in (4, 6, 8, 11)]
    if not evs:
        return None
    e = evs[0]
    procs = {(x.host, x.data.get("proc") or x.where) for x in evs}
    ranks = sorted({x.rank for x in evs if x.rank is not None})
    several = len(procs) > 1
    named = ranks if not several and len(ranks) == 1 and e.data["signal"] != 6 else []
    sig = S.SIGNALS_BY_NUMBER.get(e.data["signal"], f"signal {e.data['signal']}")
    lib = next((x for x in e.data.get("files", []) if x not in _HANDLER_LIBS), None)
    mpi = any(x.data.get("handler") == "Open MPI" for x in evs)
    # the crash handler's frames name MPI's own functions (ompi_..., PMPI_...): it died inside the MPI library
    in_mpi = next((f for x in evs for f in x.data.get("funcs", []) if S.R_MPI_FUNC.match(f)), None)
    who = (f"{len(procs)} processes" if several else _named(named) if named else
           f"a process (pid {e.data['proc']}{' on ' + e.host if e.host else ''})" if e.data.get("proc") else
           "a process")
    fix = (ILL_FIX if e.data["signal"] == 4 else ABORT_FIX if e.data["signal"] == 6 else NATIVE_FIX)
    if lib:
        fix += (f"The crash is in {lib} (the first frame past the crash handler): a compiled library or extension "
                "that does not match what it runs with -- rebuild or reinstall the package that ships it against the "
                "installed framework, CUDA and NCCL versions. ")
    if in_mpi:
        fix += MPI_FRAMES_FIX
    if mpi or in_mpi:
        fix += ("" if named or in_mpi else LAUNCHER_LOGS["mpirun"]) + MPI_CRASH_FIX
    return Verdict(
        "unknown",
        f"{who} died of {sig} ({e.data.get('what') or sig}){' alike' if several else ''}, as "
        f"{'their' if several else 'its'} own crash handler reports ('{strip_prefixes(e.text)[:120]}')"
        + (f", inside {lib}" if lib else "")
        + (f", inside the MPI library ({in_mpi}() in its backtrace)" if in_mpi and not lib else "")
        + ": a crash in native code, not a Python exception; no other failure is shown, so the lines say where it "
        "died, not why" + ("; several processes crashing the same way is a cause they share, not one rank"
                           if several else "" if named else "; the lines do not say which rank it was"),
        fix.strip(), "medium" if named else "low", named, [x.brief() for x in evs[:3]], job_wide=several)


def _workers_raised(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Worker processes whose target raised (multiprocessing's "Process SpawnProcess-1:3:" header before a traceback,
    a multiprocess executor's "got fatal signal from worker processes"), read when nothing else explains the lines:
    something failed in the workers, and the exception is not in these lines. When every rank 0..N shown raised alike,
    it is no one rank's fault (lead rule J: a shared cause, the build, the GPU, the driver); otherwise the lines still
    do not say why, and nobody is named."""
    evs = c.samples.get("worker_raised", [])
    if not evs:
        return None
    raised = sorted(c.kind_ranks.get("worker_raised", set()))
    shown = sorted(c.ranks)
    alike = len(raised) >= 2 and raised == shown == list(range(len(raised)))
    said = next((x for x in c.exceptions if not x.data.get("line")), None)
    what = (f"; the exception shown is {said.data['type']}: {said.data.get('message', '')[:160]}" if said else
            "; their exceptions are not in these lines")
    who = (f"every worker shown ({_named(raised)}) raised in its process at once" if alike else
           f"{_named(raised)} raised in its process" if raised else "a worker process raised")
    return Verdict(
        "unknown",
        who + (" -- every rank failing the same way together is a shared cause (the torch/CUDA/NCCL build for this "
               "GPU, the driver, the environment), not one rank's fault" if alike else "")
        + what,
        (f"Fix the {said.data['type']} the traceback ends in (read its frames above that line: the call that "
         "raised it, e.g. the file or key it names). " if said else "")
        + "Read the workers' full tracebacks (the lines after each 'Traceback (most recent call last):' up to the "
        "exception): they name the failing call. When every worker fails alike at start-up, check that the installed "
        "torch / vLLM / CUDA / NCCL builds support this GPU and driver (a new GPU architecture needs a build for it: "
        "upgrade torch), and rerun with NCCL_DEBUG=INFO if it fails while the communicator (pynccl) is set up.",
        "low", [], [e.brief() for e in evs[:3]])


def _several(c: Collected, ranks: list[int], codes: list[int], fails: list[Event]) -> Verdict:
    """Several processes failed on their own (lead rule A extended): each is a culprit, the ranks torchrun
    only stopped afterwards (SIGTERM, or SIGKILL after its grace period) are innocent."""
    down = sorted({e.rank for e in torn_down(c) if e.rank is not None} - set(ranks))
    sig = ", ".join(SIGNALS.get(-x, f"signal {-x}") for x in codes if x < 0)
    what = (f"{_named(ranks)} failed on their own" + (f" (exit code {', '.join(map(str, codes))}"
                                                        + (f": {sig}" if sig else "") + ")" if codes else "")
            + (f"; {_named(down)} were only stopped by the launcher afterwards (SIGTERM, then SIGKILL after its grace "
               "period): victims of the teardown, not failures" if down else "")
            + ". The cause is those processes' own tracebacks, which these lines do not hold")
    native = [x for x in codes if x in NATIVE_CRASH]
    launcher = _launcher(fails)
    if launcher in LAUNCHER_LOGS:
        return Verdict("unknown", what, (NATIVE_FIX if native else "") + LAUNCHER_LOGS[launcher], "medium", ranks,
                       [e.brief() for e in fails[:4]])
    return Verdict("unknown", what,
                   (NATIVE_FIX if native else "") + f"Read the tracebacks of {_named(ranks)} (their stderr, or "
                   "torchrun --log-dir / --redirects 3 --tee 3 to keep one file per rank): the first error there is "
                   "the cause; decorate the entry point with torch.distributed.elastic.multiprocessing.errors.@record "
                   "so "
                   "torchrun's summary carries each exception (error_file instead of <N/A>).",
                   "medium", ranks, [e.brief() for e in fails[:4]])


NATIVE_CRASH = (-11, -4, -8)  # SIGSEGV, SIGILL, SIGFPE: the process crashed in native code

# Where a launcher other than torchrun keeps each rank's own output (its record names the rank, its lines the cause).
LAUNCHER_LOGS = {
    "srun": ("srun's record names the task (SLURM_PROCID, the rank), not why it exited: read that task's own output "
             "for its traceback (srun --output=job-%j-%t.out / --label keep one file or one prefix per task; sacct -j "
             "JOB shows the step's exit codes); the tasks srun killed after it were only torn down."),
    "mpirun": ("mpirun's record names the rank, not why it died: read that rank's own log (mpirun --tag-output "
               "prefixes each line with [job,rank], --output-filename DIR keeps one file per rank) for its last "
               "lines."),
    "horovodrun": ("horovodrun tags each worker's output with its rank ([N]<stdout>: / [N]<stderr>:): read the failed "
                   "rank's own lines for its traceback; horovodrun --output-filename DIR keeps each rank's output in "
                   "its own file, and --verbose shows how the processes were placed on the hosts (-H host1:2,host2:2 "
                   "or --hostfile: check the ranks ran where they were meant to)."),
    "Paddle's launch_utils": ("Paddle's launcher shows only trainer 0's output on the console and writes each "
                              "trainer's to its own file, log/workerlog.N (under --log_dir): read the failed "
                              "trainers' workerlog for their first error; the other trainers were only terminated "
                              "by the launcher."),
    "paddle.distributed.launch": ("paddle.distributed.launch names the failed worker's own log file beside its exit "
                                  "code (log/workerlog.N, under --log_dir): read its first error there."),
    "DeepSpeed's runner": ("The caller got only the status DeepSpeed's runner passed on: read the run's own output "
                           "(the log the deepspeed command wrote, e.g. the step's training.log) for the worker's last "
                           "lines, and its launcher's '[ERROR] ... exits with return code = N' line; deepspeed "
                           "--enable_each_rank_log DIR keeps one log per rank."),
}
# A native crash of a process mpirun started, with no error of its own shown: MPI's transport (UCX) runs inside it.
MPI_CRASH_FIX = (" A native crash of an MPI-launched process with no error of its own can be MPI's transport: with "
                 "Open MPI over UCX rerun with -x UCX_TLS=tcp (or UCX_NET_DEVICES=<the interface>) or --mca pml ob1 to "
                 "rule it out, run an MPI hello-world across the same hosts or containers first, and compare the NCCL "
                 "and driver versions on the failed rank's node with the others'.")


# a native crash whose backtrace is in MPI's own functions (ompi_dpm_..., PMPI_Comm_...): the MPI library, how the
# ranks were started for it, or the build torch links against -- the same for every rank
MPI_FRAMES_FIX = ("The backtrace is inside the MPI library (Open MPI / HPC-X): with torch's MPI backend launch every "
                  "rank with mpirun (mpirun -np N python train.py, not torchrun or python alone, so that MPI_Init "
                  "sees its job), check that LD_LIBRARY_PATH loads the MPI build torch was compiled against (ldd on "
                  "torch's libtorch_cpu.so | grep mpi), rule out the HPC-X MPI by running with another Open MPI "
                  "build, and get a full backtrace with gdb (a core dump) for the MPI developers.")


def _paddle_files(launcher: str | None, ranks: list[int]) -> str:
    """The workerlog files of the trainers Paddle's launch_utils lists as failed: it writes trainer i of a node to
    log/workerlog.i, i its index on the node (its global rank where one node runs the job)."""
    if launcher != "Paddle's launch_utils" or not ranks:
        return ""
    files = ", ".join(f"log/workerlog.{r}" for r in ranks[:8]) + (" ..." if len(ranks) > 8 else "")
    return (f" The failed trainers' own files: {files} (the number is the trainer's index on its node, its rank "
            "where one node runs the job); a crash in native code prints its signal line above its stack there (a core "
            "dump and gdb bt show the frame).")


def _launcher(fails: list[Event]) -> str | None:
    """The launcher whose record the failures come from, when it is not torchrun's (mpirun, horovodrun)."""
    names = {e.data.get("launcher") for e in fails}
    return names.pop() if len(names) == 1 and None not in names else None


# What an expert asks for after a SIGABRT that is not the watchdog's: abort() came from native code or the
# interpreter itself, and the evidence is that rank's stderr, its C++/Python stacks at the abort and a core dump.
ABORT_FIX = ("A SIGABRT with no Python traceback is abort() in native code or in the interpreter: read that rank's "
             "whole stderr for the line just before it (a 'Fatal Python error: ...' is the interpreter or a C "
             "extension crashing, 'terminate called after throwing' an uncaught C++ exception, a failed assertion); "
             "rerun with PYTHONFAULTHANDLER=1 (python -X faulthandler) for the Python stack at the abort, "
             "TORCH_SHOW_CPP_STACKTRACES=1 for the C++ one and core dumps enabled (ulimit -c unlimited; gdb python "
             "core -> bt); upgrade or downgrade the C extension (or the driver/ROCm/CUDA library) in those frames. ")


# SIGILL: the CPU (or GPU) met an instruction it does not have: a binary built for another machine
ILL_FIX = ("SIGILL (Illegal instruction) means the process ran code built for another CPU (an AVX/AVX-512 instruction "
           "set this node's CPU lacks) or GPU architecture: rebuild or reinstall the package for this CPU (or from "
           "source on that node), and run the same image / build on every node; `grep -o 'avx[^ ]*' /proc/cpuinfo` "
           "on the failing node against the others shows the difference. ")
NATIVE_FIX = ("A segmentation fault (SIGSEGV) or another native crash leaves no Python traceback: rerun with "
              "PYTHONFAULTHANDLER=1 (python -X faulthandler) for the Python stack at the crash and with core dumps "
              "enabled (ulimit -c unlimited; gdb python core -> bt) for the native one; check that compiled "
              "extensions match the installed torch/CUDA. ")


# The agent passes on the signal it received (torch/distributed/elastic/agent/server/api.py: _shutdown(e.sigval)),
# so its "Sending process N closing signal SIGHUP" says it got SIGHUP even when the "Received" line is not pasted.
# Not SIGTERM: the agent also sends SIGTERM to the other workers after one of them failed.
PASSED_ON = {"SIGHUP": 1, "SIGINT": 2, "SIGQUIT": 3}


def _preempted(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """The scheduler preempted or requeued the job (slurmstepd's "CANCELLED ... DUE TO PREEMPTION / JOB
    REQUEUE", a wrapper's "Caught signal SIGUSR2 ...: this job is preempted"): every task's exit, connection
    refused and SIGTERM after it is the teardown of a job stopped from outside, not a rank's failure."""
    evs = [e for e in c.samples.get("signal", []) if e.data.get("sched") == "preemption"]
    if not evs:
        return None
    usr = next((e.data["usr"] for e in evs if e.data.get("usr")), None)
    if all(e.data.get("ray") for e in evs):
        return Verdict(
            "signal",
            "Ray reported the actor's node preempted (drained for preemption by the cloud or the cluster's scheduler): "
            "the worker on it died with its node, a stop from outside, and the controller's errors after it are that "
            "loss, not a rank failing on its own; no rank is at fault",
            "Nothing to fix in the ranks: make the training survive preemption -- checkpoint often and resume from "
            "the last checkpoint (Ray Train: FailureConfig(max_failures=N) with checkpoint / resume restarts the "
            "workers on another node); keep spot / preemptible nodes out of jobs that cannot restart.",
            "high", [], [e.brief() for e in evs[:3]])
    return Verdict(
        "signal",
        "the scheduler preempted the job (Slurm preemption / requeue"
        + (f", announced by {usr}" if usr else "") + "): the exits, refused connections and SIGTERMs that follow are "
        "its teardown, not a rank failing on its own; no rank is at fault",
        "Nothing to fix in the ranks: make the job survive preemption -- have Slurm send a warning signal early "
        "(#SBATCH --signal=USR2@120 or --signal=B:TERM@120), checkpoint on it, and resume from the last checkpoint "
        "when the job is requeued (#SBATCH --requeue); submitit's checkpoint() does both. To avoid preemption, "
        "submit to a partition/QOS that is not preemptible.",
        "high", [], [e.brief() for e in evs[:3]])


def _line(e: Event) -> tuple[str, int]:
    path, _, n = e.where.rpartition(":")
    return path, int(n) if n.isdigit() else 0


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
    first = min(map(_line, sent))
    if not any(e.data.get("loading") for e in sent) and not any(
            _line(e)[0] == first[0] and _line(e)[1] < first[1] and not e.data.get("done")
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


def _runner_signal(c: Collected) -> list[Event]:
    """DeepSpeed's runner's signal handler in a traceback (R_DS_RUNNER_SIG), with nothing else failing: no hang, no
    rank's own error, no exception but one raised inside that handler, no worker record but the launcher's kills."""
    runner = [e for e in c.samples.get("signal", []) if e.data.get("runner_sig")]
    if not runner or c.kinds.get("watchdog_timeout") or c.kinds.get("worker_raised") or any(
            not e.data.get("in_handler") for e in c.exceptions) or any(
            not e.data.get("launcher_kill") for e in c.child_failures + c.worker_failures) or any(
            own_errors(st) for st in c.ranks.values()):
        return []
    return runner



def _nothing_failed_first(c: Collected) -> bool:
    """No timeout, exception, worker failure or rank error in the lines: a stop signal seen alone came from outside
    (after a failure it is the launcher's teardown, read by that failure)."""
    return not c.kinds.get("watchdog_timeout") and not (
        c.child_failures or c.worker_failures or c.exceptions or c.kinds.get("worker_raised")
        or any(own_errors(st) for st in c.ranks.values()))

def _record_before(c: Collected, stops: list[Event]) -> bool:
    """A launcher's record of a rank that exited non-zero above the scheduler's cancel in the same file (srun's "task
    5: Exited with exit code 1" before its "Terminating StepId" and slurmstepd's "CANCELLED AT"): that rank failed on
    its own first, and the cancel is the step's teardown after it (lead rules I, A)."""
    first = min(map(_line, stops))
    return any(e.data.get("exitcode") and _line(e)[0] == first[0] and _line(e)[1] < first[1]
               for e in c.child_failures)


def _signal(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    sigs = c.samples.get("signal", [])
    got = [e for e in sigs if e.data.get("received")] or [e for e in sigs if e.data.get("sent") in PASSED_ON]
    forced = [e for e in sigs if e.data.get("forced")]
    cancel = [e for e in sigs if e.data.get("sched") == "cancelled"]
    limit = [e for e in sigs if e.data.get("sched") == "time limit"]
    if limit and not c.kinds.get("watchdog_timeout") and not any(own_errors(st) for st in c.ranks.values()):
        # the scheduler's wall-clock limit: the SIGTERM every task then receives (a framework's "Received SIGTERM",
        # a wrapper bypassing it) is that stop, whichever rank prints it; a job that hung until its limit would show
        # its timeout, which then decides
        return Verdict(
            "signal",
            "the scheduler stopped the job at its time limit (Slurm's 'CANCELLED ... DUE TO TIME LIMIT', a wrapper's "
            "'this job is timed-out'): the SIGTERM the tasks receive after it is that stop from outside, and no rank "
            "shows a failure of its own before it; no rank is at fault",
            "Nothing to fix in the ranks: ask for more wall-clock time (#SBATCH --time / srun --time) or make the job "
            "resumable -- have Slurm send a warning signal before the limit (#SBATCH --signal=SIGUSR1@90, Lightning's "
            "SLURMEnvironment(auto_requeue=True) or submitit's checkpoint() handle it), save a checkpoint on it and "
            "requeue (#SBATCH --requeue), then resume from that checkpoint.",
            "high", [], [e.brief() for e in limit[:3]])
    if not got and not forced and cancel and not c.kinds.get("watchdog_timeout") and not any(
            own_errors(st) for st in c.ranks.values()) and not _record_before(c, cancel):
        return Verdict(
            "signal",
            "Slurm cancelled the job (slurmstepd: 'CANCELLED AT ...' with no 'DUE TO' reason, so not preemption nor "
            "the time limit: an scancel by the user, a script or an administrator); the tasks' SIGTERMs are that "
            "cancel, and no rank shows a failure of its own before it",
            "Find who cancelled it: sacct -j JOB -o JobID,State,ExitCode,End and the Slurm controller's log (an "
            "scancel in a script, a dependency, an administrator); a task that must save state on SIGTERM has to "
            "handle it (a wrapper such as submitit bypasses SIGTERM by default) and finish before Slurm's KillWait.",
            "medium", [], [e.brief() for e in cancel[:3]])
    worker = [e for e in sigs if e.data.get("worker_got")]
    spawned = [e for e in worker if e.data.get("spawned")]
    if spawned and not got and not forced and not cancel:
        # a child of a spawn launcher (paddle.distributed.spawn, torch.multiprocessing.spawn) got SIGTERM from another
        # process: the spawn parent terminates its remaining children when one of them fails -- a teardown, whose
        # first failure is the other process's, not in these lines
        e = spawned[0]
        return Verdict(
            "unknown",
            f"a process started by a spawn launcher (its traceback runs through the spawn call) received "
            f"{e.data['worker_got']} from another process (PID {e.data['sender']}): the spawn parent terminates the "
            "remaining children when one of them fails, so this process was torn down, not killed from outside; the "
            "failure that started it is the other process's, whose output is not in these lines",
            f"Check who PID {e.data['sender']} is (the spawn parent?); read the other workers' output for the first "
            "failed worker's error (Paddle keeps one file per worker, workerlog.N under --log_dir; torch's "
            "mp.spawn re-raises the failed child's traceback in the parent). If the parent itself was stopped, "
            "look at the scheduler (sacct, kubectl describe pod) and dmesg.",
            "low", [], [x.brief() for x in spawned[:3]])
    if worker and not got and not forced and not cancel and _nothing_failed_first(c):
        # a job process's own handler logged the SIGTERM it received, and nothing failed before it: the stop came
        # from outside (after a worker's failure it would be the launcher's teardown, read by that failure)
        return Verdict(
            "signal",
            "a job process logged the SIGTERM it received (its framework's signal handler: Lightning's 'Received "
            "SIGTERM', submitit's 'Bypassing signal SIGTERM') and no rank shows a failure of its own: the job was "
            "stopped from outside -- the scheduler (time limit, preemption, scancel) or a kill; no rank is at fault",
            "Find who sent SIGTERM: sacct -j JOB -o JobID,State,ExitCode,Elapsed,Timelimit (TIMEOUT, PREEMPTED, "
            "CANCELLED), kubectl describe pod; if it was the time limit or preemption, ask for more time (--time) or "
            "have Slurm signal the job early (#SBATCH --signal=SIGUSR1@90), checkpoint on it and requeue.",
            "medium", [], [e.brief() for e in worker[:3]])
    runner = _runner_signal(c)
    if runner and not got and not forced and not cancel:
        return Verdict(
            "signal",
            "DeepSpeed's runner was interrupted: its traceback runs through the runner's sigkill_handler, which it "
            "installs only for SIGINT and SIGTERM, while it waited on its workers -- the job was stopped from outside "
            "(Ctrl-C, the scheduler, a kill) and the runner killed its workers for it; no worker shows a failure of "
            "its own, and an exception raised inside that handler (a NameError of its PDSH path) is the launcher's "
            "bug, not the cause; no rank is at fault",
            "Find who sent the signal (a Ctrl-C, scancel / the scheduler's time limit: sacct -j JOB, kubectl describe "
            "pod); if the job looked stuck first, take py-spy stacks of every rank before stopping it. If the "
            "handler itself raised, upgrade DeepSpeed (a bug of the runner's signal path, not of the job).",
            "medium", [], [e.brief() for e in runner[:3]])
    term = [e for e in sigs if e.data.get("shell_term")]
    if term and not got and not forced and not cancel and _nothing_failed_first(c):
        # the shell's "Terminated": the foreground job got SIGTERM, and nothing failed before it (lead rule T: why it
        # was sent is not in the lines)
        return Verdict(
            "signal",
            "the shell reports the job 'Terminated': it received SIGTERM from outside (a user's kill, a time limit, "
            "the scheduler) and no rank shows an error, timeout or failure of its own before it; no rank is at fault",
            "Find who sent SIGTERM (the scheduler's record: sacct -j JOB, kubectl describe pod; a timeout wrapper; "
            "another user's kill). If the job looked stuck before it was killed, take stacks first next time "
            "(py-spy dump --pid on every rank before killing) and rerun with NCCL_DEBUG=INFO to see where it stood.",
            "medium", [], [e.brief() for e in term[:3]])
    ctrl_c = [e for e in sigs if e.data.get("ctrl_c")]
    if ctrl_c and not got and not forced and not cancel and _nothing_failed_first(c):
        # Python's "KeyboardInterrupt" ends a traceback: SIGINT interrupted a process of the job (a spawn parent in
        # its join, a rank), and nothing failed before it: the user's Ctrl-C (or a kill -INT) stopped the job; the
        # ranks' teardown lines after it (ProcessGroupNCCL's destructor, abort) are that stop, no rank is at fault
        return Verdict(
            "signal",
            "a process of the job was interrupted by SIGINT (its traceback ends in KeyboardInterrupt: Ctrl-C or a "
            "kill -INT) and no rank shows an error, timeout or failure of its own before it: the job was stopped from "
            "outside, and what the ranks print after it (their process group's destructor and abort) is the "
            "teardown; no rank is at fault",
            "Nothing failed in the ranks: if the job was interrupted because it looked stuck, next time take stacks "
            "first (py-spy dump --pid PID on every rank) and rerun with NCCL_DEBUG=INFO to see where it stood; call "
            "dist.destroy_process_group() at the end of the script, and kill leftover worker processes a Ctrl-C "
            "may leave behind (nvidia-smi, ps) before relaunching.",
            "medium", [], [e.brief() for e in ctrl_c[:3]])
    if not got and forced:  # nothing else failed: the job was being stopped from outside
        return Verdict(
            "signal",
            "torchrun was stopping its workers (SIGTERM) and one was still running after the 30 s grace, so it was "
            "killed with SIGKILL; no worker failure is in the lines: the stop came from outside (scheduler "
            "preemption or time limit, a kill -TERM)",
            "Find who sent SIGTERM (sacct -j JOB, kubectl describe pod); a worker that handles SIGTERM (e.g. to save a "
            "checkpoint) must finish within torchrun's 30 s grace: checkpoint more often or save asynchronously, or "
            "have the scheduler signal the batch script earlier (sbatch --signal=B:TERM@600).",
            "medium", [], [e.brief() for e in forced[:3]])
    fails = c.child_failures + c.worker_failures
    if (not got and not sigs and fails and all(e.data.get("signal") == "SIGTERM" or e.data.get("exitcode") == -15
                                                for e in fails)
            and not c.kinds.get("watchdog_timeout") and not c.kinds.get("worker_raised")
            and not any(own_errors(st) for st in c.ranks.values())):
        # lead rules T, U (5): the launcher's record says its worker(s) died of SIGTERM, and the launcher had sent
        # nothing before (its own "Sending process N closing signal SIGTERM" would be a signal line, and another
        # worker's failure a record of its own): the SIGTERM came from outside; its command line (the last worker
        # launched) does not say which worker, so nobody is named
        return Verdict(
            "signal",
            "the launcher's record says its worker died of SIGTERM (-15) while the launcher itself had stopped "
            "nothing and no worker shows a failure of its own: the SIGTERM came from outside the job (the scheduler "
            "or platform: time limit, preemption, a cancel, an out-of-memory guard; or a kill); which worker it hit "
            "first these lines do not say",
            "Find who sent SIGTERM: the scheduler's or platform's record (sacct -j JOB, kubectl describe pod, the "
            "cloud job's events for preemption), dmesg on the node, each worker's own log (per-rank logs: torchrun "
            "--log-dir DIR --redirects 3 --tee 3); if the host ran short of memory (large data caches in host RAM), "
            "a memory guard may be the sender.",
            "medium", [], [e.brief() for e in fails[:3]])
    if not got:
        return None
    n = got[0].data.get("received") or PASSED_ON[got[0].data["sent"]]
    name, why, fix = {
        15: (
            "SIGTERM",
            "sent from outside: the scheduler cancelled, preempted or timed out the job, or someone killed it",
            "Read the scheduler's record (sacct -j JOB, kubectl describe pod) for who sent SIGTERM; with preemption, "
            "checkpoint more often.",
        ),
        2: (
            "SIGINT",
            "Ctrl-C: the user interrupted the job (often because it looked stuck)",
            "If it was stuck before the Ctrl-C, next time take stacks first: py-spy dump --pid PID for every rank, and "
            "give `ncclDoctor diagnose` the logs of every rank.",
        ),
        1: (
            "SIGHUP",
            "the terminal that started torchrun closed; nohup does not protect the agent's workers",
            "Run under tmux/screen or the scheduler instead of nohup in a terminal.",
        ),
    }.get(n, (f"signal {n}", "a signal from outside", "Find who sent it (scheduler logs)."))
    return Verdict(
        "signal",
        f"torchrun's agent received {name} ({n}): {why}; it shut the workers down",
        fix,
        "high",
        [],
        [e.brief() for e in got[:3]],
    )
