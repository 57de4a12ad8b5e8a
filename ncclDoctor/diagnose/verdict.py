"""Verdict stage: the one conclusion an expert would give, with its cause, culprits,
confidence, proving lines and the fix (``report.results["diagnose"]["verdict"]``).

Every detector below looks at the collected families and the cross-rank conclusions and
returns a ``Verdict`` or None; the first in ``DETECTORS`` order wins. The order is the
order of causation an expert uses: a rank's own hard failure (CUDA error, OOM, a kill)
explains the timeouts that follow it; a broken transport or set-up explains a hang; a
missing rank explains a hang; benign noise never wins over anything.

Cause classes (tests/fixtures/corpus/README.md): rank_missing, desync, ib_fabric,
network_setup, store_rendezvous, watchdog_blocked, cuda_error, gpu_oom, host_oom,
dataloader_shm, invalid_usage, nccl_system, nccl_internal, transport_stall, early_exit,
signal, config, unknown, none.

Culprits are only named with the confidence the evidence allows; for causes that are no
single rank's fault (a shared setting, the fabric, the launch) the verdict names none.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass, field
from typing import Any, Callable

from ncclDoctor.diagnose.lone import lone_failure
from ncclDoctor.diagnose.reason import NONFATAL, Conclusion, _fmt_ranks, is_consequence
from ncclDoctor.diagnose.signatures import R_DUP_GPU, R_PEER_GONE, Event
from ncclDoctor.diagnose.state import Collected
from ncclDoctor.findings import Finding, Severity

JOB_WIDE = ("invalid_usage", "nccl_system", "network_setup", "store_rendezvous", "config", "signal", "none")

# ibv_wc_status (rdma-core verbs.h) values NCCL prints as "status=N" / "error N".
IB_STATUS = {
    4: (
        "IBV_WC_LOC_PROT_ERR",
        "a local protection error on a registered buffer: GPUDirect RDMA memory registration "
        "(nv_peer_mem / nvidia-peermem, ACS or IOMMU in the PCIe path), not a dead link",
        "check GPUDirect RDMA: the nvidia-peermem (nv_peer_mem) module is loaded, ACS is off on the PCIe switches; "
        "as a test NCCL_NET_GDR_LEVEL=LOC (no GPUDirect) tells whether GDR is the cause",
    ),
    5: (
        "IBV_WC_WR_FLUSH_ERR",
        "work flushed after the queue pair went to error: a consequence of an earlier error",
        "look for the first completion error before it",
    ),
    10: (
        "IBV_WC_REM_ACCESS_ERR",
        "the remote side refused the access (memory registration on the peer)",
        "check the peer's GPUDirect set-up (nvidia-peermem) and NCCL versions on both sides",
    ),
    12: (
        "IBV_WC_RETRY_EXC_ERR",
        "transport retry counter exceeded: the HCA resent NCCL_IB_RETRY_CNT (default 7) "
        "times, each after the local ACK timeout 4.096 us x 2^NCCL_IB_TIMEOUT (default 20: about 4.3 s), i.e. about "
        "30-35 s without an answer from the peer: the link or path to that peer is down or dropping packets",
        "check the port and cable of both ends (ibstat, ibv_devinfo, the switch's error counters; for RoCE the "
        "routing/PFC config). Raising NCCL_IB_TIMEOUT (e.g. 22: ~17 s x 7 = 2 min) only rides out short flaps on "
        "very large fabrics and must stay well below the collective timeout (10 min default); a dead link stays dead. "
        "If it comes at the very first collective on RoCE, the NICs never talked at all: the GID in use is not "
        "routable (NCCL_IB_GID_INDEX to the RoCEv2 GID of the routed address, see show_gids; NVIDIA/nccl#426)",
    ),
    1: ("IBV_WC_LOC_LEN_ERR", "a local length error: a message larger than the receive buffer posted",
        "check that every rank runs the same NCCL version and NCCL_* settings (a protocol or size mismatch)"),
    2: ("IBV_WC_LOC_QP_OP_ERR", "a local queue-pair operation error (an invalid work request or QP state)",
        "check the HCA firmware/driver (ibv_devinfo, mlxfwmanager) and the NCCL version; rerun with NCCL_DEBUG=INFO"),
    8: ("IBV_WC_LOC_ACCESS_ERR", "a local access error on a registered memory region (GPUDirect RDMA registration)",
        "check nvidia-peermem (nv_peer_mem) and ACS/IOMMU; NCCL_NET_GDR_LEVEL=LOC as a test"),
    9: ("IBV_WC_REM_INV_REQ_ERR", "the remote side rejected the request as invalid (the peer's QP is gone or in error)",
        "find the peer's own failure first (its log)"),
    11: ("IBV_WC_REM_OP_ERR", "the remote side could not complete the operation",
         "find the peer's own failure first; then its HCA (ibstat) and GPUDirect set-up"),
    19: ("IBV_WC_FATAL_ERR", "a fatal HCA error", "check that HCA (ibstat, mlxlink, dmesg for mlx5 errors) and drain "
         "the node"),
    20: ("IBV_WC_RESP_TIMEOUT_ERR", "the response to a request timed out: the link or path to the peer dropped it",
         "check the link between the two nodes (ibstat, switch error counters)"),
    13: (
        "IBV_WC_RNR_RETRY_EXC_ERR",
        "receiver not ready, retries exceeded: the peer process stopped posting receives",
        "find the peer's own failure first",
    ),
}


@dataclass
class Verdict:
    cause: str
    summary: str
    fix: str
    confidence: str = "medium"
    culprits: list[int] = field(default_factory=list)
    proof: list[str] = field(default_factory=list)
    job_wide: bool = False  # no single rank caused it, although the cause class may name one elsewhere

    def to_dict(self) -> dict[str, Any]:
        return {
            "cause": self.cause,
            "confidence": self.confidence,
            "culprits": self.culprits,
            "summary": self.summary,
            "fix": self.fix,
            "proof": self.proof[:8],
        }


def _samples(c: Collected, kind: str, n: int = 3) -> list[str]:
    return [e.brief() for e in c.samples.get(kind, [])[:n]]


def _ranks(c: Collected, kind: str) -> list[int]:
    return sorted(c.kind_ranks.get(kind, set()))


def _named(ranks: list[int]) -> str:
    return f"rank {_fmt_ranks(ranks)}" if ranks else "a rank the lines do not name"


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
    120: "GSP firmware error (driver/firmware)",
}
APP_XIDS = {13, 31, 43, 45}


def xid_meaning(xids: list[int], pcis: list[str]) -> tuple[str, str]:
    """What the driver's Xid numbers say, and whether to look at the code or the hardware."""
    said = "; ".join(f"Xid {x} = {XID.get(x, 'see NVIDIA Xid catalogue')}" for x in xids)
    where = f" on GPU {', '.join(pcis)}" if pcis else ""
    if set(xids) <= APP_XIDS:
        return (f"the NVIDIA driver reported {said}{where}",
                "These Xids are usually the application's own kernel fault: rerun that rank with "
                "CUDA_LAUNCH_BLOCKING=1 or under compute-sanitizer; if they repeat on one GPU only, test that GPU "
                "(dcgmi diag -r 3).")
    return (f"the NVIDIA driver reported {said}{where}: the GPU/driver failed, not the training code",
            "Drain that node and check the GPU: nvidia-smi -q (ECC, retired pages / remapped rows), dcgmi diag -r 3, "
            "the full dmesg around the Xid; a GPU that fell off the bus or has uncorrectable ECC needs a reset or "
            "replacement. Map the PCI address to the rank's GPU with nvidia-smi --query-gpu=pci.bus_id,index "
            "--format=csv.")


# NCCL's transport/proxy set-up files, where a 'Cuda failure' is the node's CUDA set-up, not a kernel
_SETUP_CUDA = re.compile(r"NCCL WARN.*(?:transport\.cc|transport/p2p\.cc|proxy\.cc|p2p\.cc)|"
                         r"(?:transport\.cc|transport/p2p\.cc|proxy\.cc|p2p\.cc|nvls\.cc):\d+ NCCL WARN Cuda failure")
_NVLS_CUDA = re.compile(r"nvls\.cc:\d+ NCCL WARN Cuda failure")


# --- a rank's own hard failure ---------------------------------------------------------
_NCCL_LAUNCH = re.compile(r"\benqueue\.cc:\d+ NCCL WARN|\bNCCL WARN .*ncclLaunch")


def _cuda(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    evs = c.samples.get("cuda_error", []) + [
        e for e in c.samples.get("nccl_error", []) if e.data.get("code") == "ncclUnhandledCudaError"
    ]
    if not evs or (c.kinds.get("shm_error") and all("NCCL WARN" in e.text for e in evs)):
        return None  # 'Cuda failure' while NCCL registers its shared memory: the shm detector says it
    ranks = sorted(set(_ranks(c, "cuda_error")) | {e.rank for e in evs if e.rank is not None})
    text = " ".join(
        (e.data.get("what") or "") + " " + (e.data.get("last_error") or "") + " " + e.text for e in evs
    ).lower()
    # NCCL's WARN about the CUDA call it failed ("failed to open CUDA IPC handle : 217 peer access is not supported
    # between these two devices") often comes without "Cuda failure" and before the error it causes
    text += " " + " ".join(w for e in c.samples.get("nccl_warn", []) if "cuda" in (w := e.data.get("warn", "").lower()))
    xids = sorted({e.data["xid"] for e in evs if e.data.get("xid") is not None})
    if xids:
        what, fix = xid_meaning(xids, sorted({e.data["pci"] for e in evs if e.data.get("pci")}))
    elif "during capture" in text or "stream capture" in text or "stream is capturing" in text:
        what, fix = (  # cudaErrorStreamCapture*: "operation failed due to a previous error during capture", ...
            "a CUDA stream-capture error ('... during capture'): a collective was issued while a CUDA graph was being "
            "captured and the capture had already failed (or the operation is not allowed in a capture), which "
            "poisons the communicator",
            "Run without CUDA graphs to confirm (eager mode: the framework's disable_cuda_graphs / --enforce-eager / "
            "torch.compile mode without cudagraphs); then capture only after NCCL's warm-up collectives, keep "
            "TORCH_NCCL_ASYNC_ERROR_HANDLING on, and use a NCCL/torch that supports collectives in graph capture.",
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
    elif "invalid device ordinal" in text:
        what, fix = (
            "'invalid device ordinal': a process asked for a GPU index that does not exist on its node",
            "Each process must use torch.cuda.set_device(int(os.environ['LOCAL_RANK'])) (not the global rank), and "
            "--nproc-per-node must not exceed the GPUs CUDA_VISIBLE_DEVICES leaves visible.",
        )
    elif "operation not supported" in text or "operation not permitted" in text:
        what, fix = (
            f"'{'operation not supported' if 'supported' in text else 'operation not permitted'}' from a CUDA call "
            "NCCL makes to share GPU memory between processes (cuMem / CUDA IPC), which the container or driver "
            "does not allow",
            "Set NCCL_CUMEM_ENABLE=0 (NCCL then uses legacy CUDA IPC), or run the ranks of a node in one container "
            "with --ipc=host and the same PID namespace (--pid=host); as a test NCCL_P2P_DISABLE=1.",
        )
    elif "peer access" in text or "peer mapping" in text:
        what, fix = (
            "a CUDA error setting up GPU peer-to-peer access ('peer access is not supported' / 'peer mapping "
            "resources exhausted')",
            "The GPUs cannot map each other's memory on this node (PCIe topology, IOMMU/ACS, a VM or container "
            "without P2P): test with NCCL_P2P_DISABLE=1 (NCCL then goes through host memory), check nvidia-smi topo "
            "-m and that IOMMU/ACS is off; with more than 8 GPUs in one process, P2P mappings run out.",
        )
    elif "illegal memory access" in text or "illegal address" in text:
        what, fix = (
            "an illegal memory access in a kernel (reported asynchronously, often first by the watchdog thread)",
            "Rerun that rank's failing step with CUDA_LAUNCH_BLOCKING=1 so the traceback names the kernel, or run it "
            "under compute-sanitizer; the NCCL timeouts of the other ranks are consequences.",
        )
        if any(_NCCL_LAUNCH.search(e.text) for e in evs):  # NCCL's own WARN at its kernel launch/enqueue
            what += ", reported by NCCL at its own kernel launch (enqueue.cc)"
            fix = ("NCCL's own kernel faulted: a known NCCL bug on new GPUs/drivers (e.g. 2.26 on Blackwell); upgrade "
                   "NCCL first (pip install -U nvidia-nccl-cu12, or a torch built with a newer NCCL version) and check "
                   "the driver supports the GPU. " + fix)
    else:
        what, fix = (
            "a CUDA call failed inside NCCL or a kernel",
            "Rerun with NCCL_DEBUG=INFO to see the failing CUDA call and with CUDA_LAUNCH_BLOCKING=1 for the kernel; "
            "check the driver matches the CUDA runtime (nvidia-smi) and dmesg for Xid errors.",
        )
    conf, shared = "high" if len(ranks) == 1 else "medium", False
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
    if xids:
        return Verdict("cuda_error", what + ("; the ranks on that GPU failed first, the others only lose them"
                                             if what.endswith("training code") else ""),
                       fix, "medium", ranks, [e.brief() for e in evs[:3]], job_wide=not ranks)
    return Verdict(
        "cuda_error",
        f"{_named(ranks)} hit {what}; "
        + ("the other ranks share that environment, so it is a lead, not a culprit" if shared
           else "it failed first, the others only lose it"),
        fix,
        conf,
        ranks,
        [e.brief() for e in evs[:3]],
        job_wide=shared,
    )


def _gpu_oom(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    if not c.kinds.get("cuda_oom"):
        return None
    ranks = _ranks(c, "cuda_oom")
    return Verdict(
        "gpu_oom",
        f"{_named(ranks)} ran out of GPU memory; the other ranks then waited for it",
        "Lower that rank's batch size or sequence length, enable activation checkpointing, or set "
        "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True against fragmentation; check nvidia-smi for another "
        "process on that GPU. An OOM at the first barrier or collective, before the model is allocated, means "
        "every process sits on GPU 0: call torch.cuda.set_device(int(os.environ['LOCAL_RANK'])) first.",
        "high" if len(ranks) == 1 else "medium",
        ranks,
        _samples(c, "cuda_oom"),
    )


# frames of the crash handler itself (UCX's, libc's signal trampoline), before the library that crashed
_HANDLER_LIBS = ("libucs.so", "libc.so", "libpthread.so", "libSegFault.so", "libunwind.so", "libbacktrace.so")


def _nccl_crash(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """A native crash (SIGSEGV, SIGBUS) whose first frame past the crash handler is in libnccl.so:
    NCCL's own threads crashed (its proxy, RAS or net threads), not a rank's code or the network."""
    evs = [e for e in c.samples.get("crash", [])
           if next((x for x in e.data.get("libs", []) if x not in _HANDLER_LIBS), None) == "libnccl.so"]
    if not evs:
        return None
    e = evs[0]
    return Verdict(
        "nccl_internal",
        f"a process crashed with signal {e.data['signal']} ({e.data['what']}) inside libnccl.so (the first frames "
        "past the crash handler are NCCL's): a bug in NCCL, not in a rank's code or the network; the lines do not "
        "say which rank",
        "Upgrade NCCL (check its release notes and NVIDIA/nccl issues for the version); symbolise the frames "
        "(addr2line -e libnccl.so OFFSET, or a debug build) to see the subsystem: in NCCL's RAS thread (ras*, 2.24+) "
        "NCCL_RAS_ENABLE=0 bypasses it, in the proxy/net threads compare NCCL_NET / the net plugin version.",
        "medium", [], [x.brief() for x in evs[:3]])


def _killed(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    cf = [e for e in c.child_failures if e.data.get("exitcode") == -9 or e.data.get("signal") == "SIGKILL"]
    wf = [e for e in c.worker_failures if e.data.get("exitcode") == -9]
    if not cf and not wf:
        return None
    ranks = sorted({e.rank for e in cf if e.rank is not None})
    local = sorted({e.data.get("local_rank") for e in wf if e.data.get("local_rank") is not None})
    who = _named(ranks) if ranks else (f"local rank {_fmt_ranks(local)}" if local else "a rank")
    lone = lone_failure(c)
    if not ranks and lone is not None and lone.exitcode == -9:
        who, ranks = lone.who, lone.culprits  # the one process killed, the others only torn down after it
    return Verdict(
        "host_oom",
        f"{who} was killed with SIGKILL (exit code -9): killed from outside, almost always the "
        "kernel's OOM killer (host RAM); the launcher (torchrun, DeepSpeed, mp.spawn) then stopped the others",
        "Confirm with dmesg -T | grep -i 'killed process' (the OOM killer) on that node; lower host memory use "
        "(fewer DataLoader workers, mmap / sharded checkpoint loading, fewer processes loading the model at once) "
        "or raise the job's memory limit.",
        "high" if ranks and cf else "medium",
        ranks,
        [e.brief() for e in (cf + wf)[:3]],
    )


def _dataloader(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    evs = c.samples.get("dataloader", [])
    if not evs:
        return None
    ranks = _ranks(c, "dataloader")
    bus = any(e.data.get("bus_error") for e in evs)
    return Verdict(
        "dataloader_shm" if bus else "host_oom",
        f"a DataLoader worker of {_named(ranks)} was killed" + (" by a bus error: /dev/shm exhausted" if bus else ""),
        "Enlarge /dev/shm (docker --shm-size=16g or --ipc=host; Kubernetes emptyDir medium: Memory) or lower "
        "num_workers / prefetch_factor; `ncclDoctor sweep-workers` finds a num_workers that fits.",
        "high" if len(ranks) == 1 else "medium",
        ranks,
        _samples(c, "dataloader"),
    )


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


def _invalid_usage(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    evs = [e for e in c.samples.get("nccl_error", []) if e.data.get("code") == "ncclInvalidUsage"]
    if not evs:
        return _size_mismatch(c)
    text = " ".join((e.data.get("last_error") or "") + " " + e.text for e in evs)
    if R_DUP_GPU.search(text):
        return Verdict(
            "invalid_usage",
            "two ranks share one GPU ('Duplicate GPU detected'): every process stayed on the "
            "default device; a launch/set-up error, no rank is at fault",
            "Call torch.cuda.set_device(int(os.environ['LOCAL_RANK'])) before init_process_group (or pass "
            "device_id=), and check CUDA_VISIBLE_DEVICES gives each local rank its own GPU.",
            "high",
            [],
            [e.brief() for e in evs[:3]],
        )
    return Verdict(
        "invalid_usage",
        "NCCL rejected a call as invalid usage (ncclInvalidUsage): mismatched arguments "
        "between ranks or a communicator used after abort",
        "Rerun with NCCL_DEBUG=WARN: the 'Last error' line names "
        "the argument; TORCH_DISTRIBUTED_DEBUG=DETAIL checks collective shapes across ranks. At communicator "
        "creation the usual cause is two ranks on one GPU ('Duplicate GPU detected'): call "
        "torch.cuda.set_device(int(os.environ['LOCAL_RANK'])) before init_process_group and check "
        "CUDA_VISIBLE_DEVICES gives each local rank its own GPU.",
        "medium",
        [],
        [e.brief() for e in evs[:3]],
    )


def _shm(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    evs = c.samples.get("shm_error", []) + [
        e for e in c.samples.get("nccl_error", []) if "shared memory" in (e.data.get("last_error") or "").lower()
    ]
    if not evs:
        return None
    text = " ".join(e.text for e in evs)
    attach = "attaching" in text and "No such file" in text
    return Verdict(
        "nccl_system",
        "NCCL could not "
        + (
            "attach to a peer's /dev/shm segment: the processes do not share "
            "/dev/shm (separate containers or IPC namespaces)"
            if attach
            else "create its shared memory segments in /dev/shm (No space left / creation failed): /dev/shm too small"
        ),
        "Give the container a larger /dev/shm (docker --shm-size=16g, or --ipc=host so all ranks share it; "
        "Kubernetes: an emptyDir with medium: Memory at /dev/shm); NCCL_SHM_DISABLE=1 works around it.",
        "high",
        [],
        [e.brief() for e in evs[:3]],
    )


def _ib(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    evs = c.samples.get("ib_completion", [])
    if not evs:
        return None
    statuses = sorted({e.data["status"] for e in evs if e.data.get("status") is not None})
    asyncs = sorted({e.data["async_event"] for e in evs if e.data.get("async_event")})
    peers = sorted({e.data["peer"] for e in evs if e.data.get("peer")})[:3]
    memlock = [
        e for e in evs
        if str(e.data.get("verbs", "")).startswith("ibv_reg_mr") and "allocate memory" in str(e.data.get("verbs_error"))
    ]
    if memlock and not statuses and not asyncs:  # NVIDIA/nccl-tests#206: ENOMEM from the memory registration
        return Verdict(
            "config",
            f"registering memory with the HCA ({memlock[0].data['verbs']}) failed with 'Cannot allocate memory': "
            "the process's locked-memory limit (ulimit -l) is too low for NCCL's buffers",
            "Raise the locked-memory limit where the ranks run: ulimit -l unlimited (memlock unlimited in "
            "/etc/security/limits.conf, then log in again), docker run --ulimit memlock=-1, and check `ulimit -l` "
            "inside mpirun/srun/the container, which may not inherit it.",
            "high",
            [],
            [e.brief() for e in memlock[:3]],
        )
    parts, fixes = [], []
    for s in statuses:
        name, meaning, fix = IB_STATUS.get(
            s, (f"status {s}", "an IB completion error", "check ibstat and the NCCL WARN lines")
        )
        parts.append(f"status {s} = {name}: {meaning}")
        fixes.append(fix)
    for a in asyncs:
        parts.append(f"async event '{a}': the HCA itself reported a failure (hardware/firmware)")
        fixes.append("check that HCA (ibstat, ibv_devinfo, mlxlink, firmware version) and drain the node")
    for e in [e for e in evs if e.data.get("verbs")][:1]:
        parts.append(
            f"the verbs call {e.data['verbs']} failed ({e.data.get('verbs_error') or 'error'}): the HCA could not set "
            "up the connection to the peer (for RoCE: the GID/address chosen is not routable to it)"
        )
        fixes.append(
            "check ibstat/ibv_devinfo on both ends; on RoCE set NCCL_IB_GID_INDEX to the RoCEv2 GID whose address "
            "the peers route to (show_gids), and check the switch's routing/PFC"
            + ("; if only some peers fail on a rail-optimized fabric (NICs reach only the same rail), "
               "NCCL_CROSS_NIC=0 keeps each ring on one rail" if e.data.get("verbs") == "ibv_modify_qp" else "")
        )
    if 12 in statuses:
        parts.append(ib_window(c))
    if statuses == [5] and not asyncs:  # only flushes: the error that put the queue pair in error is not here
        fixes = [FLUSH_ONLY_FIX]
    where = f" (peer {', '.join(peers)})" if peers else ""
    # The ranks whose HCA reported it: their link/path (or their node's HCA) is the one to check, but a
    # link has two ends and the rank only reported it, so no rank is the culprit (JOB_WIDE).
    ranks = _ranks(c, "ib_completion")
    nodes = sorted({e.host for e in evs if e.host})[:3]
    hcas = sorted({e.data["hca"] for e in evs if e.data.get("hca")})[:3]
    on = (" on " + _named(ranks) if ranks else "") + (f" (host {', '.join(nodes)})" if nodes else "") + (
        f" (HCA {', '.join(hcas)})" if hcas else "")
    return Verdict(
        "ib_fabric",
        f"InfiniBand/RoCE completion errors{on}{where}: " + "; ".join(parts)
        + ("; check the HCA and links of that node first, the ranks are not at fault" if ranks else ""),
        "; ".join(dict.fromkeys(fixes)) + ". Run `ncclDoctor check --nodes N` to localize the bad link.",
        "high",
        [],
        [e.brief() for e in evs[:3]],
        job_wide=len(ranks) != 1,  # several ranks' HCAs (or a node's) reported it: none of them failed first
    )


FLUSH_ONLY_FIX = (
    "only flush errors (status 5): the queue pair was already in error and the error that put it there is not in "
    "these lines; look for it in every rank's log (NCCL_DEBUG=WARN). With none, suspect the RDMA data path itself: "
    "the ports (ibstat, ibv_devinfo, the switch's counters) and GPUDirect RDMA (nvidia-peermem or dma-buf loaded, "
    "ACS off on the PCIe switches); NCCL_NET_GDR_LEVEL=LOC (no GPUDirect) as a test tells whether GDR is the cause")


def ib_window(c: Collected) -> str:
    """How long the HCA retries before status 12, from the settings in the logs (NCCL's
    defaults otherwise: NCCL_IB_TIMEOUT=20 since 2.23, NCCL_IB_RETRY_CNT=7), against the
    collective timeout: local ACK timeout 4.096 us x 2^NCCL_IB_TIMEOUT, times the retries."""

    def setting(name: str, default: int) -> tuple[int, str]:
        vals = c.settings.get(name) or {}
        for v in vals:
            if v.strip().isdigit():
                return int(v), "from the logs"
        return default, "default"

    t, t_src = setting("NCCL_IB_TIMEOUT", 20)
    r, r_src = setting("NCCL_IB_RETRY_CNT", 7)
    each = 4.096e-6 * 2 ** min(t, 31)
    window = each * max(r, 1)
    text = (f"the HCA gives up after about {each:.1f} s x {r} retries = {window:.0f} s "
            f"(NCCL_IB_TIMEOUT={t}, {t_src}; NCCL_IB_RETRY_CNT={r}, {r_src})")
    if c.torch_timeout_ms:
        text += (f", {c.torch_timeout_ms / 1000 / window:.0f}x shorter than the collective timeout of "
                 f"{c.torch_timeout_ms / 60000:g} min: the link was down for longer than IB retries, not a slow rank")
    return text


_BAD_IFACE = re.compile(r"^(lo|docker\d*|veth\w*|virbr\d*|ip6tnl\d*|tunl\d*|br-\w+|cni\d*|flannel\S*)$")


def bad_interfaces(c: Collected) -> list[str]:
    """Interfaces NCCL chose that cannot carry inter-node traffic: loopback, link-local, virtual."""
    return [
        f"{n}:{a}"
        for n, a in c.interfaces.items()
        if _BAD_IFACE.match(n) or a.startswith("127.") or a.lower().startswith("fe80")
    ]


def shared_addresses(c: Collected) -> list[tuple[str, set[str]]]:
    """Addresses NCCL bootstraps on that two hosts both print: containers on bridge networks (Docker's
    172.17.0.2 on every node) advertise an address no other node can reach. Loopback is bad_interfaces'."""
    return sorted((a, hs) for a, hs in c.iface_hosts.items() if len(hs) > 1 and not a.startswith("127."))


def hosts(c: Collected) -> set[str]:
    return {h for st in c.ranks.values() for h in st.hosts}


def _network(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    connect = [e for e in c.samples.get("socket_error", []) if e.data.get("connect")]
    gloo = [e for e in c.samples.get("gloo_error", []) if not R_PEER_GONE.search(str(e.data.get("what", "")))]
    # NCCL's return-code trail: any error through bootstrap (connection set-up at init), or a
    # system/internal error (2, 3) through the socket layer; 6 (remote) there is a peer gone.
    boot = sorted(
        f"{f} -> {n}"
        for (f, n) in c.retcodes
        if f.startswith("bootstrap.") or (f in ("socket.cc", "net_socket.cc", "socket.h") and n in (2, 3))
    )
    setup = [k for k in ks if k.kind == "connection_setup"]
    bad = bad_interfaces(c)
    shared = shared_addresses(c)
    if not (connect or gloo or boot or setup or bad or shared):
        return None
    seen = []
    if connect:
        seen.append(
            "connections between ranks failed at set-up (" + ", ".join(sorted({e.data["what"] for e in connect})) + ")"
        )
    if gloo:
        seen.append("gloo could not connect its peers (" + ", ".join(sorted({str(e.data["what"]) for e in gloo})) + ")")
    if boot:
        seen.append(
            "NCCL's bootstrap/socket layer returned an error (" + ", ".join(boot[:3]) + ": 2 = system error, "
            "3 = internal, 6 = remote)"
        )
    if setup:
        seen.append(setup[0].message)
    if bad:
        seen.append(
            "NCCL chose interface(s) " + ", ".join(bad[:4]) + (f" and {len(bad) - 4} more" if len(bad) > 4 else "")
            + " (loopback, link-local or virtual: not reachable from "
            "other nodes)"
        )
    if shared:
        a, hs = shared[0]
        seen.append(f"hosts {', '.join(sorted(hs)[:3])} all use the address {a}"
                    + (" (Docker's default bridge, 172.17.0.0/16)" if a.startswith("172.17.") else "")
                    + ": each container sits behind its own NAT with the same private address, so no other node can "
                    "reach the address it advertises; run the containers with host networking (--network=host) and "
                    "set NCCL_SOCKET_IFNAME to the routable host interface")
    bridge = sorted({str(e.data.get("peer")) for e in connect + gloo
                     if str(e.data.get("peer", "")).startswith("172.17.")})
    if bridge:
        seen.append(f"the peer address {bridge[0]} is in 172.17.0.0/16, Docker's default bridge (docker0): NCCL/gloo "
                    "chose the container bridge, which other nodes cannot reach (NCCL_SOCKET_IFNAME=^docker0,lo)")
    if any(re.search(r"\bfe80:|\b169\.254\.", e.text) for e in connect + gloo):
        seen.append("a peer's address is link-local (IPv6 fe80::, IPv4 169.254.x.x: valid on one link only): that "
                    "node chose an interface other nodes cannot route to; pin the same routable interface on every "
                    "node")
    loop = sorted({str(e.data.get("peer")) for e in connect if str(e.data.get("peer", "")).startswith("127.")})
    if loop and len(hosts(c)) > 1:
        seen.append(
            f"ranks on {len(hosts(c))} hosts connect to the loopback address {', '.join(loop)}: a host name that "
            "resolves to 127.0.1.1 (Debian/Ubuntu /etc/hosts) or MASTER_ADDR=localhost in a multi-node job"
        )
    if loopback_master(c):
        seen.append(loopback_master(c))
    proof = [e.brief() for e in (connect + gloo)[:3]] + (setup[0].evidence[:2] if setup else [])
    return Verdict(
        "network_setup",
        "; ".join(seen) + ": the network interface or path chosen between the ranks does not work",
        "Set NCCL_SOCKET_IFNAME (and GLOO_SOCKET_IFNAME) to the interface the nodes reach each other on "
        "(ip -br addr; e.g. NCCL_SOCKET_IFNAME==eth0, or ^docker,lo,veth); check the firewall lets the ports "
        "through (nc -zv PEER PORT); rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET to see the choice. "
        "On one node, NCCL_P2P_DISABLE=1 as a test tells a broken GPU peer-to-peer path.",
        "high" if connect or gloo or boot else "medium",
        [],
        proof or _samples(c, "transport"),
    )


_LOOPBACK = ("127.", "localhost", "::1", "0.0.0.0")


def loopback_master(c: Collected) -> str | None:
    """torchrun's printed MASTER_ADDR / rdzv_endpoint is a loopback address while the job
    spans several nodes (its GROUP_WORLD_SIZE or nnodes > 1, or ranks on several hosts):
    the other nodes' agents can never reach that store."""
    addrs = [v for n in ("MASTER_ADDR", "PET_RDZV_ENDPOINT") for v in (c.settings.get(n) or {})]
    bad = [a for a in addrs if a.startswith(_LOOPBACK)]
    nodes = max([int(v) for n in ("GROUP_WORLD_SIZE", "PET_NNODES") for v in (c.settings.get(n) or {})
                 if v.isdigit()] + [len(hosts(c))])
    if not bad or nodes < 2:
        return None
    return (f"torchrun's rendezvous address is {bad[0]}, a loopback address, in a job of {nodes} nodes: only the "
            "node that hosts the store can reach it; set --rdzv-endpoint / MASTER_ADDR to rank 0's routable address")


def _cgnat(endpoint: str) -> bool:
    try:
        return ipaddress.ip_address(endpoint.rsplit(":", 1)[0].strip("[]")) in ipaddress.ip_network("100.64.0.0/10")
    except ValueError:
        return False


def _store(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    evs = c.samples.get("store_timeout", [])
    if not evs:
        return None
    ep = next((e.data["endpoint"] for e in evs if e.data.get("endpoint")), None)
    rdzv = any(e.data.get("rendezvous") for e in evs)
    in_use = next((e.data["in_use"] for e in evs if e.data.get("in_use") is not None), None)
    missing = sorted({e.data["env_missing"] for e in evs if e.data.get("env_missing")})
    if missing:
        return Verdict(
            "config",
            f"init_process_group's env:// rendezvous found {', '.join(missing)} unset: the script was started "
            "without a launcher (plain `python train.py`), so no rank knows the others",
            "Start it with torchrun (torchrun --nproc-per-node=N train.py; multi-node: --nnodes, --rdzv-endpoint) or "
            "accelerate/deepspeed, which set MASTER_ADDR, MASTER_PORT, RANK, WORLD_SIZE and LOCAL_RANK; or set them "
            "yourself for every process.", "high", [], _samples(c, "store_timeout"))
    if any(e.data.get("dns") for e in evs):
        ep = next((e.data["endpoint"] for e in evs if e.data.get("endpoint")), "MASTER_ADDR")
        return Verdict(
            "store_rendezvous",
            f"the store's host name ({ep}) does not resolve on this node (DNS / /etc/hosts): the rank cannot even look "
            "up where rank 0's store is",
            "Set MASTER_ADDR (or --rdzv-endpoint) to rank 0's IP address, or make its host name resolve on every node "
            "(getent hosts NAME; /etc/hosts, the cluster's DNS, a Kubernetes headless service).",
            "high", [], _samples(c, "store_timeout"))
    if any(e.data.get("closed") for e in evs):
        return Verdict(
            "store_rendezvous",
            "the rendezvous is closed (RendezvousClosedError): an agent already shut this rendezvous down — the job "
            "finished or failed on another node, or a previous run with the same --rdzv-id closed it",
            "Start the job again with a new --rdzv-id (or restart every node together); if another node failed "
            "first, its log holds the cause.", "high", [], _samples(c, "store_timeout"))
    denied = next((e.data["bind_denied"] for e in evs if e.data.get("bind_denied") is not None), None)
    if denied is not None:
        return Verdict(
            "store_rendezvous",
            f"the store could not listen on port {denied}: permission denied (errno 13)"
            + (" — a port below 1024 needs root" if denied < 1024 else " — the port is reserved or blocked here")
            + "; no rank is at fault",
            "Choose a free port above 1024 for the store: torchrun --master_port N (MASTER_PORT=N, master_port in "
            "the launcher's config); `ss -ltnp | grep PORT` shows whether it is also taken.",
            "high", [], _samples(c, "store_timeout"))
    if in_use is not None:
        port = f"port {in_use}" if in_use else "the store's port"
        return Verdict(
            "store_rendezvous",
            f"the store could not listen: {port} is already in use on this host (errno 98) — another job (or a "
            "leftover process of an earlier one) holds it, or two processes both try to host the store",
            "Give each run its own port: torchrun --master_port N (MASTER_PORT=N), or --rdzv-endpoint=localhost:0 on "
            "one node to let torchrun pick a free one; find the holder with `ss -ltnp | grep PORT`; do not call "
            "init_process_group with a hand-made store when torchrun already hosts one.",
            "high", [], _samples(c, "store_timeout"))
    printed = next(iter(c.settings.get("PET_RDZV_ENDPOINT") or {}), None)  # torchrun's printed launch config
    if ep is None and rdzv and printed:
        ep = printed if ":" in printed else f"{printed}:29400"  # the c10d rendezvous's default port
    what = (
        f"the TCPStore/rendezvous endpoint {ep} was not reachable"
        + (" (rdzv_endpoint without a port: the default 29400)" if printed and ":" not in printed else "")
        if ep
        else "the rendezvous did not complete"
        if rdzv
        else "the store timed out"
    )
    joined = next((e.data["joined"] for e in evs if e.data.get("joined")), None)
    if joined and joined[0] < joined[1]:  # the store was up and reachable: ranks are missing
        return Verdict(
            "store_rendezvous",
            f"only {joined[0]} of {joined[1]} ranks reached the store before the timeout: the store worked, the other "
            f"{joined[1] - joined[0]} never started (a node not launched, a wrong --nnodes / --nproc-per-node / "
            "WORLD_SIZE) or died before init_process_group",
            "Check that every node was started, with the same --nnodes, --nproc-per-node and --rdzv-id (or "
            "MASTER_ADDR/WORLD_SIZE), and read the missing ranks' own logs for an error before init_process_group.",
            "high", [], _samples(c, "store_timeout"))
    if ep and ep.startswith(("127.", "localhost")) and len(hosts(c)) > 1:
        what += (f" — a loopback address while the job spans {len(hosts(c))} hosts: "
                 "MASTER_ADDR must be rank 0's routable address")
    elif loopback_master(c):
        what += " — " + loopback_master(c)
    elif ep and _cgnat(ep):
        what += (f" — {ep.rsplit(':', 1)[0]} is in 100.64.0.0/10, the carrier-grade NAT range VPN overlays use "
                 "(Tailscale, ZeroTier): the store must listen on that VPN address and the port be open through it")
    return Verdict(
        "store_rendezvous",
        what + ": either the node that hosts the store (MASTER_ADDR, rank 0's node) never "
        "started it or died, or the address/port is not reachable from the other nodes",
        f"From every node: nc -zv {ep.replace(':', ' ') if ep else 'MASTER_ADDR MASTER_PORT'} must connect; "
        "MASTER_ADDR must be an address the other nodes can route to (not 127.0.0.1 or a container-internal "
        "name) and the --rdzv-endpoint (rdzv_endpoint) port must be open in the firewall between the nodes; all "
        "nodes must be started with the same --nnodes and --rdzv-id; check that the store's node is up. "
        "`ncclDoctor check --nodes N` tests the rendezvous first.",
        "high",
        [],
        _samples(c, "store_timeout"),
    )


# --- hangs -------------------------------------------------------------------------------
def _first(ks: list[Conclusion], kind: str, confs=("high", "medium")) -> Conclusion | None:
    return next((k for k in ks if k.kind == kind and k.confidence in confs), None)


def _desync(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    k = _first(ks, "desync")
    if k is None:
        return None
    return Verdict(
        "desync",
        k.message,
        "Find the code that issues the minority's collective (Flight Recorder frames name "
        "it) and make every rank take the same path; rerun with TORCH_DISTRIBUTED_DEBUG=DETAIL to have torch "
        "check collective types and shapes across ranks.",
        k.confidence,
        k.ranks,
        k.evidence,
    )


def _missing(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    k = _first(ks, "culprit")
    if k is None:
        return None
    return Verdict(
        "rank_missing",
        k.message,
        f"Look at what rank {_fmt_ranks(k.ranks)} was doing: py-spy dump --pid PID "
        "on the live job, the last lines of its own log before the timeouts, its Flight Recorder entry. The "
        "other ranks are victims; a longer timeout only delays the same crash.",
        k.confidence,
        k.ranks,
        k.evidence,
    )


# torch's collective timeouts default to 10 min (NCCL) / 30 min; under a second no collective of a step is sure to fit
_TINY_TIMEOUT_MS = 1_000


def _tiny_timeout(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """A watchdog timeout whose Timeout(ms) is a few seconds or less: the setting, not a hang, made
    it fire (a timeout passed in ms where seconds were meant, or set tiny to test the knob)."""
    evs = [e for e in c.samples.get("watchdog_timeout", [])
           if e.data.get("timeout_ms") is not None and e.data["timeout_ms"] < _TINY_TIMEOUT_MS]
    if not evs:
        return None
    ms = min(e.data["timeout_ms"] for e in evs)
    return Verdict(
        "config",
        f"the collective timeout is {ms} ms (Timeout(ms)={ms}): far shorter than any real collective waits for its "
        "peers, so the watchdog fired on a normal collective; nothing shows a rank at fault",
        "Set a sane timeout (minutes): init_process_group(timeout=timedelta(minutes=10)) or the launcher's/"
        "framework's timeout knob (check it is not read as milliseconds where seconds were meant); rerun.",
        "high", [], [e.brief() for e in evs[:3]], job_wide=True)


# c10's log prefix "[E626 05:14:36.393067540 ProcessGroupNCCL.cpp:1743]": the month is not zero-padded
_TORCH_TS = re.compile(r"\[[EIWF](\d{1,2}?)(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d+))?")


def _timed_out_before(c: Collected, hb: list[Event]) -> bool:
    """A collective timed out normally (its ``ran for`` within a quarter of its timeout: the watchdog
    ran on time) no later than the heartbeat monitor's "watchdog got stuck": aborting the timed-out
    communicator is what blocked the watchdog, so the hang's cause is the collective, not the thread."""
    normal = [e for e in c.samples.get("watchdog_timeout", [])
              if e.data.get("timeout_ms") and e.data.get("ran_for_ms") is not None
              and e.data["ran_for_ms"] <= 1.25 * e.data["timeout_ms"]]
    def own(e: Event) -> float | None:  # torch's own clock when both lines have it (a collector's may differ)
        g = _TORCH_TS.search(e.text)
        if not g:
            return None
        mo, d, h, mi, sec, frac = g.groups()
        return (((int(mo) * 31 + int(d)) * 24 + int(h)) * 60 + int(mi)) * 60 + int(sec) + float("0." + (frac or "0"))

    pairs = [(own(t), own(h)) for t in normal for h in hb]
    if pairs and all(a is not None and b is not None for a, b in pairs):
        return any(a <= b for a, b in pairs)
    first_hb = min((e.ts for e in hb if e.ts is not None), default=None)
    return any(e.ts is None or first_hb is None or e.ts <= first_hb for e in normal)


def _blocked(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    k = _first(ks, "watchdog_blocked")
    hb = c.samples.get("heartbeat", [])
    if k is None and not hb:
        return None
    if k is None and _timed_out_before(c, hb):
        return None  # the heartbeat's "stuck" is the aftermath: the abort after a timeout hung the watchdog
    msg = (
        k.message
        if k
        else (
            "the heartbeat monitor found the watchdog thread of "
            + _named(_ranks(c, "heartbeat"))
            + " stuck: a CUDA/NCCL call (or a thread holding the GIL inside one) blocked it"
        )
    )
    return Verdict(
        "watchdog_blocked",
        msg,
        "Take stacks of the stuck processes while they hang: py-spy dump --native --pid "
        "PID (the blocked CUDA/NCCL call or the thread holding the GIL shows there); check dmesg for Xid errors "
        "and nvidia-smi on that node. If this happens at exit, call destroy_process_group() before the end.",
        "high",
        [],
        (k.evidence if k else []) + [e.brief() for e in hb[:2]],
    )


def _early_exit(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    pg = c.samples.get("pg_not_destroyed", [])
    sent = [e for e in c.samples.get("signal", []) if e.data.get("sent")]
    peer_gone = [
        e
        for k in ("socket_error", "gloo_error")
        for e in c.samples.get(k, [])
        if R_PEER_GONE.search(str(e.data.get("what", "")))
    ]
    if pg and (sent or c.kinds.get("watchdog_timeout")):
        ranks = _ranks(c, "pg_not_destroyed")
        return Verdict(
            "early_exit",
            f"{_named(ranks)} destructed its process group and exited while the others were "
            "still running (torchrun then terminated them)",
            f"Find why rank {_fmt_ranks(ranks) or '?'} returned "
            "early (a swallowed exception, a rank-conditional return); call dist.destroy_process_group() at the "
            "end of main on every rank.",
            "medium",
            ranks,
            [e.brief() for e in (pg + sent)[:3]],
        )
    store = [e for e in c.samples.get("socket_error", []) if e.data.get("store_gone")]
    peer_gone = [e for e in peer_gone if not e.data.get("store_gone")]
    if store and not peer_gone and not c.kinds.get("watchdog_timeout"):
        host = next((e.data["peer"] for e in store if e.data.get("peer")), "MASTER_ADDR:MASTER_PORT")
        if not any(e.data.get("store_said") for e in store):  # only a reset: it died, torch did not see it leave
            return Verdict(
                "unknown",
                f"the TCPStore server ({host}: rank 0's process or the torchrun agent of the first node) reset this "
                "rank's store connection: that process died (a crash, an exception, the OOM killer) while the others "
                "still used the store; these ranks are its victims, and why it died is not in these lines",
                "Read rank 0's own output (the process that hosts the store) and its exit code in torchrun's summary; "
                "on that node dmesg -T | grep -i 'killed process' shows whether the OOM killer took it (host memory, "
                "e.g. while loading data).",
                "low", [], [e.brief() for e in store[:3]])
        return Verdict(
            "early_exit",
            f"the TCPStore server ({host}: rank 0's process or the torchrun agent of the first node) closed the "
            "connection: that process exited or crashed while this rank still used the store",
            "Read the log of the process that hosts the store (rank 0 / the master node's torchrun): its exit or "
            "traceback is the cause. If it finished normally, it left first: call dist.barrier() then "
            "dist.destroy_process_group() on every rank before exiting.",
            "medium", [], [e.brief() for e in store[:3]])
    if peer_gone:
        return Verdict(
            "early_exit",
            "a peer closed the connection: that process exited or crashed first; the rank printing this is its victim",
            "Find the peer's own error (its log, its exit code); if the peer "
            "finished normally, it left before this rank's recv completed (an isend without wait() before exit).",
            "medium",
            [],
            [e.brief() for e in peer_gone[:3]],
        )
    return None


def _all_joined(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    k = _first(ks, "all_joined")
    if k is None:
        return None
    return Verdict(
        "transport_stall",
        k.message + ": the data path stalled (a link, a NIC, a GPU that stopped)",
        "Run `ncclDoctor check --nodes N` on the same nodes to find the slow or broken link; dmesg / nvidia-smi "
        "for Xid errors.",
        "medium",
        [],
        k.evidence,
    )


def _nccl_other(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    evs = c.samples.get("nccl_error", [])
    if not evs:
        return None
    codes = {e.data.get("code") for e in evs}
    if "ncclInternalError" in codes:
        return Verdict(
            "nccl_internal",
            "NCCL reported an internal error",
            "Rerun with NCCL_DEBUG=INFO; check that every "
            "rank uses the same NCCL version (torch's bundled one vs a system one) and run `ncclDoctor check`.",
            "medium",
            [],
            [e.brief() for e in evs[:3]],
        )
    if codes == {"ncclRemoteError"}:  # ncclGetErrorString: "remote process exited or there was a network error"
        return Verdict(
            "early_exit",
            "NCCL's ncclRemoteError: a peer process exited (or the network to it failed) while this rank still "
            "communicated with it; the rank printing it is a victim, the peer's own failure came first",
            "Find the rank that exited first: its own log and traceback (an exception, a CUDA error, an OOM, a "
            "SIGKILL from the host); if every process was alive, check the network between the nodes "
            "(NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=NET).",
            "medium",
            [],
            [e.brief() for e in evs[:3]],
        )
    if "ncclSystemError" in codes:
        return Verdict(
            "nccl_system",
            "NCCL reported a system error (a socket, shared memory or IB verbs call failed)",
            "Read the Last error line; rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET; check /dev/shm and "
            "NCCL_SOCKET_IFNAME.",
            "medium",
            [],
            [e.brief() for e in evs[:3]],
        )
    return None


def _warn_family(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """An NCCL WARN (or an NCCL error's "Last error" text) of a family no specific detector
    read: its family's cause and fix (warn_families.py)."""
    from ncclDoctor.diagnose.warn_families import classify

    hits = []
    for e in c.samples.get("nccl_warn", []) + c.samples.get("nccl_error", []):
        if e.kind == "nccl_warn" and _WARN_NOISE.search(e.text):
            continue
        fam = classify(e.text if e.kind == "nccl_warn" else (e.data.get("last_error") or ""))
        if fam is not None:
            hits.append((fam, e))
    if not hits:
        return None
    fam, first = hits[0]
    same = [e for f, e in hits if f is fam]
    ranks = sorted({e.rank for e in same if e.rank is not None})
    return Verdict(fam.cause, f"{fam.meaning} (NCCL: '{_what(first)}'" + (f", on {_named(ranks)})" if ranks else ")"),
                   fam.fix, "medium", [], [e.brief() for e in same[:3]])


# WARN texts NCCL prints at a normal teardown, as advice, or about its topology search in containers (init.cc/
# linux.cc "Could not find real path of <sysfs device>": a virtual NIC), never a failure by themselves; also
# what NCCL or a net plugin says about an optional library or plugin it did not find (it then uses its own
# sockets: libibverbs absent on a node without IB, no libnccl-net.so) and a plugin's CPU-affinity/retry chatter.
# (pattern, what an expert says of it in a "none" verdict; "" when it needs no word)
_NOISE = (
    (r"driver shutting down|Accept failed Resource temporarily unavailable|NCCL_\w+ (?:is )?deprecated|"
     r"\bignor(?:ed|ing)\b|[Ww]arning:", ""),
    (r"Could not find real path", "NCCL's 'Could not find real path' is harmless: a virtual device in its "
     "topology search (a container or VM NIC)"),
    (r"Failed to open libibverbs", "NCCL's 'Failed to open libibverbs' is harmless: no InfiniBand verbs library "
     "on this node, so NCCL uses its sockets (install rdma-core only if the nodes have InfiniBand/RoCE)"),
    (r"(?:Failed to open|could not find|No plugin found \(|Plugin load returned) ?\S*libnccl-net|"
     r"NET/Plugin ?: (?:No plugin found|Plugin load|Failed to find)", "NCCL's 'no net plugin' line is harmless: "
     "it uses its built-in transports"),
    # the FastSocket plugin's rx-queue affinity loop: it goes on ("Connected after N retries")
    (r"Cannot get incoming CPU|Maximum retry reached for (?:accept|connect)", "a net plugin's (FastSocket's) CPU-"
     "affinity and retry warnings are harmless when it goes on to connect ('Connected after N retries')"),
)
_WARN_NOISE = re.compile("|".join(p for p, _ in _NOISE))


def _noise_words(c: Collected) -> list[str]:
    """What the harmless NCCL WARNs of the input are, for a "none" verdict."""
    texts = [e.text for e in c.samples.get("nccl_warn", [])]
    return [w for p, w in _NOISE if w and any(re.search(p, t) for t in texts)]


def _warn_subsystem(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """The last word before "nothing found": an NCCL WARN is NCCL reporting a failure, so a WARN
    of no known family still gets its subsystem's cause class (low confidence) and its text."""
    from ncclDoctor.diagnose.warn_families import subsystem

    evs = [e for e in c.samples.get("nccl_warn", []) if not _WARN_NOISE.search(e.text)]
    if not evs:
        return None
    fam = subsystem(_what(evs[0]))
    return Verdict(fam.cause, f"{fam.meaning}: '{_what(evs[0])}'; no known family of NCCL's messages explains it "
                   "further", fam.fix, "low", [], [e.brief() for e in evs[:3]])


def _what(e: Event) -> str:
    w = e.text.split("NCCL WARN", 1)
    return (w[1] if len(w) > 1 else e.data.get("last_error") or e.text).strip()[:160]


def _no_nccl(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """The nccl backend asked for where NCCL cannot run: torch built without it (the CPU wheel)
    or no GPU visible to the process. A setting of the job, not a fault of a rank."""
    evs = c.samples.get("no_nccl", [])
    if not evs:
        return None
    nogpu = any("no GPUs found" in e.text for e in evs)
    return Verdict(
        "config",
        "the job asked for the nccl backend where NCCL cannot run: "
        + ("no GPU is visible to the process" if nogpu else "this torch is built without NCCL (a CPU-only build)"),
        "On CPU use the gloo backend (init_process_group('gloo'), or 'cpu:gloo,cuda:nccl' to pick per device); "
        "for GPUs install torch's CUDA build and check that the GPUs are visible (nvidia-smi, CUDA_VISIBLE_DEVICES, "
        "the container's --gpus).",
        "high", [], [e.brief() for e in evs[:3]])


def exception_of(c: Collected, rank: int | None) -> Event | None:
    """The last traceback line of that rank's own log (a line tagged with it or a file named after
    it); else the untagged ones of torchrun's shared output, only when they all say the same (with
    several ranks' tracebacks interleaved there, which one is that rank's cannot be told)."""
    if rank is None:
        return None
    own = [e for e in c.exceptions if e.rank == rank]
    if not own:
        own = [e for e in c.exceptions if e.rank is None]
        if len({(e.data["type"], e.data["message"]) for e in own}) != 1:
            return None
    return own[-1] if own else None


SIGNALS = {4: "SIGILL", 6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE", 9: "SIGKILL", 11: "SIGSEGV", 15: "SIGTERM"}


def _exited(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Ranks that exited on their own (torchrun's summary or its 'failed (exitcode: N)'):
    exit code 1 is a Python exception in that rank; -N is signal N (-7 SIGBUS: shared memory)."""
    fails = [e for e in c.child_failures + c.worker_failures if e.data.get("exitcode") not in (None, 0, -9, -15)]
    if not fails:
        return None
    lone = lone_failure(c)
    if any(e.data.get("exitcode") == -7 for e in fails):
        return Verdict("dataloader_shm", "a process died of SIGBUS (exit code -7): it touched shared memory that could "
                       "not be backed, /dev/shm is full or too small (DataLoader workers, NCCL's segments)",
                       "Enlarge /dev/shm (docker --shm-size=16g or --ipc=host; Kubernetes emptyDir medium: Memory) "
                       "or lower num_workers.", "high", lone.culprits if lone else [], [e.brief() for e in fails[:3]])
    ranks = sorted({e.rank for e in fails if e.rank is not None})
    local = sorted({e.data["local_rank"] for e in fails if e.data.get("local_rank") is not None})
    codes = sorted({e.data["exitcode"] for e in fails})
    who = f"rank {_fmt_ranks(ranks)}" if ranks else f"local rank {_fmt_ranks(local)}" if local else "a rank"
    if lone is not None:
        who, ranks = lone.who, lone.culprits
    sig = ", ".join(SIGNALS.get(-x, f"signal {-x}") for x in codes if x < 0)
    what = (f"{who} exited with code {', '.join(map(str, codes))}" + (f" ({sig})" if sig else "")
            + (": a Python exception in that process" if 1 in codes else "") + "; the launcher then stopped the others")
    single = lone is not None and len(ranks) == 1
    exc = exception_of(c, ranks[0]) if len(ranks) == 1 and codes == [1] else None
    if exc is not None:
        text = exc.data["type"] + (": " + exc.data["message"] if exc.data["message"] else "")
        return Verdict("unknown", f"{who} exited with code 1 on its own exception, the last line of its traceback: "
                       f"{text[:300]} ({exc.where}); the launcher then stopped the others. Its cause is that "
                       "exception", "Fix the exception that traceback ends in (read the frames above that line); "
                       "the other ranks only stopped because torchrun ended the job.",
                       "medium", ranks, [exc.brief()] + [e.brief() for e in fails[:2]])
    if codes == [-6] and not single:  # abort(): how ProcessGroupNCCL's watchdog ends a process after a timeout
        what += ("; SIGABRT is how torch's NCCL watchdog ends a process after a collective timeout or an NCCL error, "
                 "so this rank may be a victim: its own log says whether it timed out or hit its own error")
    native = [x for x in codes if x in NATIVE_CRASH]
    whose = f"local_rank {lone.local_rank}: " if single and lone and lone.local_rank is not None else ""
    if native:
        what += (f"; {SIGNALS[-native[0]]} is a native crash inside that process (a C/C++/CUDA extension, a library "
                 "built for another torch/CUDA, a driver or plugin), not a Python exception nor a kill from outside")
    return Verdict("unknown", what + ". The cause is that process's own traceback, which these lines do not hold",
                   (NATIVE_FIX if native else "") + f"Read the failed rank's traceback ({whose}its stderr, or "
                   "torchrun --log-dir / --redirects 3 --tee 3 "
                   "to keep one file per rank); decorate the entry point with "
                   "torch.distributed.elastic.multiprocessing.errors.@record so torchrun's summary carries the "
                   "exception (error_file instead of <N/A>).",
                   "medium" if single else "low", ranks if single else [], [e.brief() for e in fails[:3]])


NATIVE_CRASH = (-11, -4, -8)  # SIGSEGV, SIGILL, SIGFPE: the process crashed in native code
NATIVE_FIX = ("A segmentation fault (SIGSEGV) or another native crash leaves no Python traceback: rerun with "
              "PYTHONFAULTHANDLER=1 (python -X faulthandler) for the Python stack at the crash and with core dumps "
              "enabled (ulimit -c unlimited; gdb python core -> bt) for the native one; check that compiled "
              "extensions match the installed torch/CUDA. ")


# The agent passes on the signal it received (torch/distributed/elastic/agent/server/api.py: _shutdown(e.sigval)),
# so its "Sending process N closing signal SIGHUP" says it got SIGHUP even when the "Received" line is not pasted.
# Not SIGTERM: the agent also sends SIGTERM to the other workers after one of them failed.
PASSED_ON = {"SIGHUP": 1, "SIGINT": 2, "SIGQUIT": 3}


def _signal(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    sigs = c.samples.get("signal", [])
    got = [e for e in sigs if e.data.get("received")] or [e for e in sigs if e.data.get("sent") in PASSED_ON]
    forced = [e for e in sigs if e.data.get("forced")]
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


def _timeouts(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Timeouts with no proven culprit. Lead rule B: every rank shown inside one collective in an input
    that does not hold every rank -> rank_missing (the missing rank is one not shown); so is a rank behind
    the stuck collective that is only a lead (most ranks behind). Otherwise unknown."""
    if not any(c.kinds.get(k) for k in ("watchdog_timeout", "watchdog_status", "watchdog_report")):
        return None
    unclear = next((k for k in ks if k.kind == "groups_unclear"), None)
    low = [k for k in ks if k.kind == "culprit" and k.confidence == "low"]
    lead = f" Leads (low confidence): {low[0].message}." if low else ""
    inside = None if unclear else one_collective(c)
    behind = None if unclear or inside else next((k for k in low if k.behind), None)
    gloo = inside and any(e.data.get("backend") == "gloo" for e in c.samples.get("watchdog_timeout", []))
    if gloo:
        msg = ("a gloo send/recv timed out (gloo has no watchdog and no SeqNum: the op itself raised): the peer never "
               "reached the matching collective or barrier; the lines do not name it.")
    elif inside:
        shown = f" ({_fmt_ranks(sorted(c.ranks))})" if c.ranks else ""
        msg = (f"every rank the input shows{shown} was inside {inside} (victims), and the input does not hold every "
               "rank of the job: the rank that never issued it is one these lines do not show (a rank still "
               "elsewhere in the code: saving, evaluating, loading data), or the transfer itself stalled.")
    elif behind:
        msg = ("ranks are missing from the collective the others wait in, but more ranks are behind than inside, so "
               "the ones ahead may instead have issued an extra collective: nobody is named.")
    else:
        msg = (("no rank these lines show is proven to have missed the collective" if low else
                "every rank the input shows was inside the timed-out collective (victims)")
               + "; the rank that never arrived is not proven by these lines"
               + (f"; {unclear.message}" if unclear else "") + ".")
    return Verdict(
        "rank_missing" if inside or behind else "unknown",
        msg + lead,
        "Collect the log of every rank (one file per rank, e.g. torchrun --log-dir, or srun -l) "
        "and Flight Recorder dumps (TORCH_FR_BUFFER_SIZE=2000; TORCH_NCCL_TRACE_BUFFER_SIZE on torch < 2.8), then "
        "rerun `ncclDoctor diagnose` on all of them: the rank whose log shows no timeout, or the lowest "
        "'last enqueued', is the culprit." + (GLOO_LATE if gloo else ""),
        "low",
        [],
        (_samples(c, "watchdog_timeout") + _samples(c, "watchdog_status") + _samples(c, "watchdog_report"))[:4],
    )


GLOO_LATE = (" A gloo op waits for one peer: ranks out of step are the usual reason -- uneven data (one rank ran out "
             "of batches: DistributedSampler(drop_last=True), or torch.distributed.algorithms.Join for uneven inputs), "
             "one rank still evaluating or saving; dist.monitored_barrier(wait_all_ranks=True) names every rank that "
             "does not arrive.")


def one_collective(c: Collected) -> str | None:
    """Lead rule B: every rank the input shows timed out inside one collective (one SeqNum, one op,
    none behind) -> that collective, described; else None. The input holding every rank of the world
    is ``_all_joined``'s (transport_stall), which comes first."""
    outs = [t for st in c.ranks.values() for t in st.timeouts.values()]
    outs += c.samples.get("watchdog_timeout", [])  # every line read, also those that name no rank
    stuck = {t.seq for t in outs if t.seq is not None}

    def inside(st) -> bool:  # its timeout, or its status line: at work N (the stuck one), enqueued >= N
        return bool(st.timeouts) or any(s.seq in stuck and s.data["enqueued"] >= s.seq for s in st.status.values())

    if not outs or not all(inside(st) for st in c.ranks.values()):
        return None
    if any(e.kind not in NONFATAL + ("child_failed",) and not is_consequence(e)
           for st in c.ranks.values() for e in st.errors):
        return None  # a rank shows more than its timeout (its own error, a stuck watchdog): not only inside
    seqs = {t.seq for t in outs if t.seq is not None}
    ops = {t.op for t in outs if t.op}
    sizes = {t.numel_in for t in outs if t.numel_in is not None}
    if len(seqs) > 1 or len(ops) > 1 or len(sizes) > 1:  # different sizes: maybe another group, or a desync
        return None
    return " ".join(x for x in ("the same", ops.pop() if ops else "collective", f"#{seqs.pop()}" if seqs else "") if x)


def _config(c: Collected, ks: list[Conclusion], env: list[Finding]) -> Verdict | None:
    bad = [f for f in env if f.severity != Severity.INFO]
    if not bad:
        return None
    said = "; ".join(f.message.removeprefix("in the logs: ") for f in bad[:3])
    return Verdict(
        "config",
        "settings in the logs are wrong: " + said,
        f"Change the settings: {said}. ({' '.join(f.code for f in bad[:3])}: `ncclDoctor explain` has the "
        "details; `ncclDoctor env` checks a node's environment the same way.)",
        "high",
        [],
        [e for f in bad[:3] for e in f.evidence[:1]],
    )


def _none(c: Collected, ks: list[Conclusion]) -> Verdict:
    benign = []
    if c.kinds.get("pg_not_destroyed"):
        benign.append(
            "the process-group destructor warning at exit is harmless: call dist.destroy_process_group() at the "
            "end of main to silence it"
        )
    whats = {e.data.get("what") for e in c.samples.get("benign", [])}
    if "IPv6 lookup warning" in whats:
        benign.append("the IPv6 lookup warning of the store is harmless (it falls back to IPv4)")
    if any(w and "driver shutting down" in w for w in whats):
        benign.append("CUDA's 'driver shutting down' at exit is harmless: a thread (the NCCL watchdog) outlived "
                      "CUDA's teardown; call dist.destroy_process_group() before the process exits")
    if "net plugin absent" in whats:
        benign.append("NCCL's 'Failed to find ncclCollNetPlugin' / 'No plugin found' INFO lines are harmless: an "
                      "optional net or CollNet (SHARP) plugin is not installed, so CollNet is off and NCCL uses its "
                      "built-in transports")
    conf = "high" if benign else "low"  # NCCL's harmless WARNs say nothing of the failure the user may have seen
    benign += _noise_words(c)
    return Verdict(
        "none",
        "nothing in these lines is a failure" + (": " + "; ".join(benign) if benign else ""),
        ("; ".join(benign) + ". " if benign else "") + "If the job did fail, the failing lines are not in the "
        "input: give the logs of every rank (NCCL_DEBUG=WARN).",
        conf,
        [],
        _samples(c, "pg_not_destroyed") + _samples(c, "benign"),
    )


def _ras_lagging(f: Finding) -> Verdict:
    """NCCL RAS's operation-count MISMATCH (fieldformats/ras.py, finding FLD012): the ranks at the
    lowest count never launched the collective the others wait in. RAS lists only the outlier
    ranks: when the ones behind are the many, only their number is known, and nobody is named."""
    lag = f.evidence[0] if f.evidence and isinstance(f.evidence[0], dict) else {}
    listed = [r["rank"] for r in lag.get("ranks", []) if isinstance(r, dict) and r.get("rank") is not None]
    n = lag.get("group_size") or len(listed)
    named = bool(listed) and len(listed) == n
    op = lag.get("op", "collective")
    who = f"rank(s) {_fmt_ranks(sorted(listed))}" if named else f"{n} ranks (RAS does not list them)"
    return Verdict(
        "rank_missing",
        f"NCCL RAS reports an operation-count MISMATCH on {op}: {who} launched up to operation {lag.get('launched')} "
        f"while the other ranks reached {lag.get('others')} and wait inside it: the ranks behind never issued it",
        f"Look at what the {n} rank(s) behind are doing instead: py-spy dump --pid on their nodes, or Flight Recorder "
        "dumps; query ncclras a few times (a one-operation spread on a running job can be sampling, a stable one "
        "is a hang). The ranks ahead are waiting, not at fault.",
        "medium" if named else "low", sorted(listed) if named else [], [f.message[:300]])


def settle(v: Verdict, findings: list[Finding]) -> Verdict:
    """The verdict once every finding is known: 'nothing failed' never stands beside an error
    from another reader (a field output such as a failed nccl-tests run); it points at it."""
    bad = [f for f in findings if f.severity == Severity.ERROR]
    if v.cause != "none":
        return v
    slow = [f for f in findings if f.severity == Severity.WARNING and f.code.startswith(("BW", "FLD"))]
    if not bad and slow:  # a tool's output (nccl-tests) that ran without error but below what it should reach
        return Verdict("none", "no failure in these lines, but a tool's output in the input shows a problem: "
                       + "; ".join(f"{f.code} {f.title}" for f in slow[:3]),
                       "Follow those findings' fixes (ncclDoctor explain CODE).", v.confidence, [],
                       [f.message[:200] for f in slow[:2]])
    if not bad:
        return v
    lag = next((f for f in bad if f.code == "FLD012"), None)
    if lag is not None and all(f.code == "FLD012" for f in bad):  # a dead process or a RAS error may be the cause
        return _ras_lagging(lag)
    return Verdict(
        "unknown",
        "the log lines hold no known failure signature, but other findings do: "
        + "; ".join(f"{f.code} {f.title}" for f in bad[:3]),
        "Follow those findings' fixes (ncclDoctor explain CODE).",
        "low",
        [],
        [str(e) for f in bad[:2] for e in f.evidence[:2]],
    )


def _ddp_params(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """DDP's constructor found that the ranks' models differ. A rank with 0 parameters built no model
    at all, and a rank that every report names as the inconsistent one is the odd one out: those
    are culprits (medium); one report between two ranks with parameters on both sides names nobody."""
    evs = c.samples.get("ddp_params", [])
    if not evs:
        return None
    odd = {e.data["odd"] for e in evs}
    empty = {e.data["odd"] for e in evs if e.data["odd_params"] == 0} | {
        e.data["reporter"] for e in evs if e.data["reporter_params"] == 0}
    reporters = {e.data["reporter"] for e in evs}
    culprits = sorted(empty) if empty else (sorted(odd) if len(odd) == 1 and len(reporters) > 1 else [])
    e = evs[0]
    return Verdict(
        "desync",
        f"the ranks built different models before DDP wrapped them: rank {e.data['reporter']} has "
        f"{e.data['reporter_params']} parameters, rank {e.data['odd']} {e.data['odd_params']}"
        + (f"; {_named(culprits)} is the odd one out" if culprits else ""),
        "Make every rank construct the same model before DDP(...): the same config and model loading path on every "
        "rank (no rank-conditional layers, a checkpoint every rank can read, the same freezing of parameters); "
        "print sum(p.numel() for p in model.parameters()) per rank to compare.",
        "medium" if culprits else "high", culprits, [x.brief() for x in evs[:3]])


def _desync_report(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """torch's fingerprint check (or NCCL's) says outright that ranks issued different
    collectives: a desync of the code paths. Both ranks it names are where to look; neither
    is a victim or a culprit on its own."""
    evs = c.samples.get("desync_report", [])
    if not evs:
        return None
    e = evs[0]
    prints = e.data.get("prints") or []
    sides = [f"rank {p['rank']} runs {p.get('op') or '?'}" + (f" #{p['seq']}" if p.get("seq") is not None else "")
             + (f" shape [{p['shape']}]" if p.get("shape") else "") for p in prints]
    what = "; ".join(sides) or (f"around rank {e.data['around']}" if e.data.get("around") is not None else "")
    differ = f" (they differ in: {e.data['differ']})" if e.data.get("differ") else ""
    if not what and differ:
        what, differ = e.data["differ"], ""
    return Verdict(
        "desync",
        f"the ranks issued different collectives at the same point: {what}{differ}. Two code paths diverged (a "
        "rank-dependent branch, data-dependent shapes or bucket sizes, an extra call on some ranks)",
        "Make every rank issue the same collectives in the same order with the same shape: pad or split evenly so "
        "shapes match, keep logging/metric calls identical on all ranks, avoid rank-conditional collectives. "
        "TORCH_DISTRIBUTED_DEBUG=DETAIL checks each collective's fingerprint across ranks; for NCCL's own check, "
        "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=COLL logs each call.",
        "high", [], [x.brief() for x in evs[:2]])


def _monitored(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """torch's monitored_barrier names the ranks that did not reach it (rank 0 waited for each
    in turn); the ranks that passed it are victims of whatever those ranks were doing."""
    evs = c.samples.get("monitored_barrier", [])
    if not evs:
        return None
    ranks = sorted({r for e in evs for r in e.data["ranks"]})
    secs = next((e.data["timeout_ms"] / 1000 for e in evs if e.data.get("timeout_ms")), None)
    gone = (any(e.data.get("errors") or "by peer" in e.text.lower() for e in evs)
            or any(R_PEER_GONE.search(str(e.data.get("what", ""))) for e in c.samples.get("gloo_error", [])))
    how = (" and its connection was closed: that process exited or crashed before the barrier" if gone
           else ": it was still busy elsewhere (a longer step, a hang, a rank-conditional path)")
    return Verdict(
        "rank_missing",
        f"torch's monitored_barrier reports that rank {_fmt_ranks(ranks)} did not reach the barrier"
        + (f" in {secs:g} s" if secs else " (its send/recv failed)") + how,
        f"Look at rank {_fmt_ranks(ranks)}: its own log and traceback (did it exit or crash?), or py-spy dump --pid "
        "PID while it is stuck; the ranks that passed the barrier are victims.",
        "high", ranks, [e.brief() for e in evs[:3]])


def _uniqueid(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """A rank waited in the store for the ncclUniqueId of a new communicator, which the
    group's rank 0 publishes at its first collective of that group. A timeout: rank 0 never
    got there (busy elsewhere: dataset preprocessing under main_process_first, a prompt, a
    rank-conditional path); the connection lost: the store's host process died."""
    evs = c.samples.get("uniqueid_wait", [])
    if not evs:
        return None
    waiting = sorted({e.rank for e in evs if e.rank is not None})
    roots = sorted({e.data["root"] for e in evs})
    proof = [e.brief() for e in evs[:3]]
    if all(e.data["gone"] for e in evs):
        return Verdict(
            "early_exit",
            f"rank(s) {_fmt_ranks(waiting)} lost the store while waiting for rank {_fmt_ranks(roots)}'s "
            f"ncclUniqueId ({evs[0].data['error']}): the process hosting the store (rank 0 / the first node's "
            "torchrun) exited or crashed first",
            "Read rank 0's own log for its exception or exit; the ranks that printed this are victims.",
            "medium", [], proof)
    return Verdict(
        "rank_missing",
        f"rank(s) {_fmt_ranks(waiting)} waited for the group's rank {_fmt_ranks(roots)} to publish the ncclUniqueId "
        f"of a new communicator ({evs[0].data['error']}): that rank never reached its first collective of this group "
        "(global rank 0 for the default group; the group's first rank for a sub-group)",
        f"Find what rank {_fmt_ranks(roots)} was doing instead: a long step only it runs (dataset preprocessing under "
        "main_process_first, a download, a wandb login prompt), a rank-conditional path, or a crash; raise the "
        "timeout for legitimately long rank-0-only work, or barrier after it.",
        "medium", roots, proof)


def _direct_hang(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """A desync or a rank behind, proven directly (enqueued counts, Flight Recorder, torch's
    analyzer): the job ran past set-up and one rank diverged, whatever else the logs say
    (a transient connect retry at start-up does not explain it)."""
    high = [k for k in ks if k.kind in ("desync", "culprit") and k.confidence == "high"]
    if not high:
        return None
    return _desync(c, high) if high[0].kind == "desync" else _missing(c, high)


def _truncated(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """'message truncated: receiving N bytes instead of M' on a transport (NVIDIA/nccl#626,
    PR #605): the receiver posted a smaller buffer than the sender sent."""
    evs = [
        e for e in c.samples.get("nccl_warn", []) + c.samples.get("nccl_error", [])
        if "truncated" in e.text.lower() and "bootstrap" not in e.text
    ]
    if not evs:
        return None
    return Verdict(
        "desync",
        "NCCL received more bytes than the receiving rank expected ('message truncated'): the ranks disagree on the "
        "operation at this point (different sizes or different calls), or on the protocol because their NCCL "
        "settings differ",
        "Compare every rank's calls: NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=COLL logs each collective's count, datatype "
        "and root per rank, TORCH_DISTRIBUTED_DEBUG=DETAIL checks shapes across ranks; make the NCCL_* settings "
        "identical on every node. A run with NCCL_PROTO=SIMPLE tells a protocol mismatch (then it works) from a call "
        "mismatch.",
        "medium",
        [],
        [e.brief() for e in evs[:3]],
    )


DETECTORS: list[Callable[[Collected, list[Conclusion]], Verdict | None]] = [
    # an OOM first: the CUDA errors that follow one ('invalid resource handle') are its consequences
    _gpu_oom, _cuda, _nccl_crash, _killed, _dataloader, _no_nccl, _tiny_timeout, _ddp_params, _desync_report,
    _monitored, _uniqueid, _direct_hang,
    _invalid_usage, _truncated, _shm, _ib, _network, _store, _desync, _missing, _blocked, _early_exit, _all_joined,
    _warn_family, _nccl_other,
    _signal, _timeouts, _exited,
]


def _last_errors(c: Collected) -> None:
    """An NCCL error's "Last error:" text is itself a log line (an IB completion, a socket
    error, a CUDA failure): read it as one, so its own family decides the cause."""
    from ncclDoctor.diagnose.parse import LineParser

    for e in list(c.samples.get("nccl_error", [])):
        text = e.data.get("last_error")
        if not text or e.data.get("last_error_read"):
            continue
        e.data["last_error_read"] = True
        path, _, line = e.where.rpartition(":")
        d = LineParser(path, e.rank).parse(int(line) if line.isdigit() else 0, text)
        if d is not None and d.kind != "nccl_error":
            d.rank = e.rank if d.rank is None else d.rank
            c.kinds[d.kind] += 1
            c.samples.setdefault(d.kind, []).append(d)
            if d.rank is not None:
                c.kind_ranks.setdefault(d.kind, set()).add(d.rank)


def verdict(c: Collected, ks: list[Conclusion], env_findings: list[Finding]) -> Verdict:
    _last_errors(c)
    for detect in DETECTORS:
        v = detect(c, ks)
        if v is not None:
            return v
    return _config(c, ks, env_findings) or _warn_subsystem(c, ks) or _none(c, ks)


def reconcile(v: Verdict, ks: list[Conclusion]) -> None:
    """Keep the conclusions consistent with the verdict: when the cause is job-wide (a
    setting, the fabric, the launch), a rank that merely reported it first is not a culprit."""
    if v.cause in JOB_WIDE or v.job_wide:
        for k in ks:
            if k.kind in ("first_failure", "culprit") and k.confidence != "low":
                k.confidence = "low"
                k.message += f" (the cause is {v.cause.replace('_', ' ')}, which no single rank caused)"
