"""Detectors of the transport and the set-up: invalid usage, /dev/shm, InfiniBand completions, the
network interfaces and sockets, the TCPStore/rendezvous, the ncclUniqueId exchange, a truncated
message.
"""

from __future__ import annotations

import errno
import ipaddress
import os
import re

from ncclDoctor.diagnose.reason import Conclusion, _fmt_ranks
from ncclDoctor.diagnose.signatures import R_CONNECT_FAIL, R_DUP_GPU, R_ENDPOINT, R_PEER_GONE
from ncclDoctor.diagnose.state import ERROR_KINDS, Collected
from ncclDoctor.diagnose.verdict.base import Verdict, _named, _ranks, _samples, hosts

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
        "check that every rank runs the same NCCL version and NCCL_* settings (a protocol or size mismatch: the "
        "sender's message against the receive buffer its peer posted), then the NICs of both ends: MTU and firmware "
        "(ibv_devinfo), and dmesg for the driver's QP errors"),
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
# be CUDA and dense": a tensor on the CPU handed to an NCCL collective -- the caller's code, the same on every rank
_CPU_TENSOR = re.compile(r"\bTensors? must be CUDA and dense\b")


def _cpu_tensor(c: Collected) -> Verdict | None:
    """A collective that ProcessGroupNCCL refused because a tensor was on the CPU: every rank runs the same code, so
    no rank is named (the first to print it is no more at fault than the others): the tensor's device is the fix."""
    evs = [e for e in c.exceptions if _CPU_TENSOR.search(e.data.get("message") or "")]
    if not evs:
        return None
    return Verdict(
        "invalid_usage",
        "the NCCL process group refused a collective whose tensor is not on the GPU ('Tensors must be CUDA and "
        "dense': a CPU tensor / parameters not on GPU handed to NCCL); the same code runs on every rank, so no rank "
        "is at fault -- a usage error of the caller",
        "Read the traceback: the frame that calls the collective names the tensor. Move it to the rank's GPU "
        "(.cuda() / .to(device) after torch.cuda.set_device(local_rank)), or use a gloo group for CPU tensors. "
        "Under DeepSpeed ZeRO-3 (zero.Init / partition_parameters broadcasting parameters still on the CPU: a model "
        "built or loaded outside zero.Init, or parameter offload with an engine that does not support it), try "
        "ZeRO-2 (zero2) or another DeepSpeed version, and check that the model is on the GPU before the engine is "
        "created.",
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


def _invalid_usage(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    evs = [e for e in c.samples.get("nccl_error", []) if e.data.get("code") == "ncclInvalidUsage"]
    if not evs:
        return _size_mismatch(c) or _invalid_argument_at_init(c) or _cpu_tensor(c) or _dup_rank(c)
    text = " ".join((e.data.get("last_error") or "") + " " + e.text for e in evs)
    if any(R_CONNECT_FAIL.search(e.data.get("last_error") or "") for e in evs):
        return None  # NCCL 2.2x reports a bootstrap without a usable interface as invalid usage: _network reads it
    if R_DUP_GPU.search(text) or any(e.data.get("duplicate_gpu") for e in evs):
        return Verdict(
            "invalid_usage",
            "two ranks share one GPU ('Duplicate GPU detected'): every process stayed on the "
            "default device; a launch/set-up error, no rank is at fault",
            "Call torch.cuda.set_device(int(os.environ['LOCAL_RANK'])) before init_process_group (or pass "
            "device_id=), and check CUDA_VISIBLE_DEVICES gives each local rank its own GPU; start no more processes "
            "per node than it has GPUs (torchrun --nproc_per_node, accelerate's num_processes: with one GPU, one "
            "process).",
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


# torch's communicator creation (NCCLComm::create in NCCLUtils.hpp/.cpp: ncclCommInitRank[Config]): an NCCL error
# raised there ("NCCL error in: .../NCCLUtils.hpp:78, invalid argument") is one of the set-up, not of a collective
_AT_INIT = re.compile(r"NCCLUtils\.(?:hpp|cpp):\d|ncclCommInitRank")


def _invalid_argument_at_init(c: Collected) -> Verdict | None:
    """Lead rule Q: NCCL rejecting an argument of communicator creation (ncclInvalidArgument raised where torch
    creates the communicator) with no 'Last error' or WARN that says more (a config field of a mismatched NCCL
    build is nccl_internal: _warn_family reads that text) is a launch or rank-assignment error: a rank or device
    number out of range, a world size that does not match the processes started. Every rank was started the
    same wrong way, so no rank is named, whichever process's error is shown first."""
    evs = [e for e in c.samples.get("nccl_error", []) if e.data.get("code") == "ncclInvalidArgument"
           and _AT_INIT.search(e.text)]
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


def _shm(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    evs = c.samples.get("shm_error", []) + [
        e for e in c.samples.get("nccl_error", []) if "shared memory" in (e.data.get("last_error") or "").lower()
    ]
    if not evs:
        return None
    text = " ".join(e.text for e in evs)
    attach = "attaching" in text and "No such file" in text
    # a segment of size 0 (its name empty or garbled): the peer sent a cuMem host-memory handle (NCCL >= 2.23 shares
    # SHM buffers through cuMem where its probe succeeds) and this rank, whose probe failed, read it as a /dev/shm path
    cumem = attach and bool(re.search(r"attaching to shared memory segment \S* \(size 0\)", text))
    return Verdict(
        "nccl_system",
        "NCCL could not "
        + (
            "attach to a peer's shared-memory buffer announced with size 0: the peer shared it as a cuMem host "
            "allocation and this rank expected a /dev/shm file -- the ranks of the node chose different host-memory "
            "paths (cuMem host memory works for some GPUs' NUMA nodes and not others)"
            if cumem else
            "attach to a peer's /dev/shm segment: the processes do not share "
            "/dev/shm (separate containers or IPC namespaces)"
            if attach
            else "create its shared memory segments in /dev/shm (No space left / creation failed): /dev/shm too small"
        ),
        ("Set NCCL_CUMEM_HOST_ENABLE=0 on every rank (all use /dev/shm then) or upgrade NCCL; check the NUMA view the "
         "processes get (numactl -H: memory-only NUMA nodes, cpusets) and the driver. " if cumem else "")
        + "Give the container a larger /dev/shm (docker --shm-size=16g, or --ipc=host so all ranks share it; "
        "Kubernetes: an emptyDir with medium: Memory at /dev/shm); NCCL_SHM_DISABLE=1 works around it.",
        "high",
        [],
        [e.brief() for e in evs[:3]],
    )


def _mpi_shm(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Open MPI's own shared-memory transport refused by the host (lead rule J): the vader BTL's single-copy read
    (CMA, process_vm_readv) failing with "Read -1, expected N, errno = 1" (EPERM: a container without ptrace
    permission), or opal's shmem mmap component's "A system call failed during shared memory initialization". Every
    process on the node meets the same refusal, whatever collective then aborts or hangs: the host's set-up, no rank."""
    evs = c.samples.get("mpi_shm", [])
    if not evs:
        return None
    cma = [e for e in evs if e.data.get("cma")]
    errnos = sorted({e.data["errno"] for e in cma if e.data.get("errno") is not None})
    what = (
        "Open MPI's shared-memory transport (the vader BTL) could not copy between the processes: its single-copy "
        f"read (CMA, process_vm_readv) returned -1 with errno {', '.join(map(str, errnos))}"
        + (" (EPERM: the kernel or the container refuses one process reading another's memory)" if 1 in errnos else "")
        if cma else
        "Open MPI's shared-memory set-up (opal's shmem mmap component) failed on a system call: its backing file in "
        "the MPI session directory could not be created, opened or mapped"
    )
    return Verdict(
        "nccl_system",
        what + "; every process on the node meets the same refusal of the host, so the collective that then aborts "
        "or hangs is its consequence, not a rank's fault",
        "Fix the host's shared-memory set-up for Open MPI: for vader's CMA single copy refused (errno = 1) run the "
        "container with --cap-add=SYS_PTRACE (or --privileged), or disable it with "
        "OMPI_MCA_btl_vader_single_copy_mechanism=none (mpirun --mca btl_vader_single_copy_mechanism none); for the "
        "shmem mmap 'sys call fail' point the Open MPI session directory at a local, writable file system with room "
        "(TMPDIR or --mca orte_tmpdir_base /tmp) and give the container a large enough /dev/shm (--shm-size or "
        "--ipc=host); --mca orte_base_help_aggregate 0 prints every process's own message.",
        "medium", [], [e.brief() for e in evs[:3]], job_wide=True)


def _ib(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    evs = c.samples.get("ib_completion", [])
    if not evs:
        return None
    statuses = sorted({e.data["status"] for e in evs if e.data.get("status") is not None})
    asyncs = sorted({e.data["async_event"] for e in evs if e.data.get("async_event")})
    peers = sorted({e.data["peer"] for e in evs if e.data.get("peer")})[:3]
    memlock = [
        e for e in evs
        if str(e.data.get("verbs", "")).startswith("ibv_reg_") and "allocate memory" in str(e.data.get("verbs_error"))
    ]
    if memlock and not statuses and not asyncs:  # NVIDIA/nccl-tests#206: ENOMEM from the memory registration
        # lead rule J: the host refused to pin/register the buffer (no peer involved): a system error of that node
        return Verdict(
            "nccl_system",
            f"registering memory with the HCA ({memlock[0].data['verbs']}) failed with 'Cannot allocate memory': "
            "the host refused to pin NCCL's buffers -- the process's locked-memory limit (ulimit -l) is too low for "
            "them (or the registrable memory is used up, e.g. by a large NCCL_BUFFSIZE) -- a system error of that "
            "node, not the fabric and not a rank's code",
            "Raise the locked-memory limit where the ranks run: ulimit -l unlimited (memlock unlimited in "
            "/etc/security/limits.conf, then log in again), docker run --ulimit memlock=-1, and check `ulimit -l` "
            "inside mpirun/srun/the container, which may not inherit it; lower NCCL_BUFFSIZE if it was raised; for "
            "GPU buffers (ibv_reg_dmabuf_mr) check nvidia-peermem / dma-buf support and try NCCL_DMABUF_ENABLE=0; "
            "NCCL_IB_DISABLE=1 (sockets) confirms the IB registration is the cause.",
            "high",
            [],
            [e.brief() for e in memlock[:3]],
            job_wide=True,
        )
    ofi = [e for e in evs if e.data.get("ofi_rc") is not None]
    if ofi and not statuses and not asyncs:
        return _ofi(c, ofi)
    local = [e for e in evs if str(e.data.get("verbs", "")).startswith(_LOCAL_VERBS) and e not in memlock]
    if local and not statuses and not asyncs and len(local) == len([e for e in evs if e.data.get("verbs")]):
        return _verbs_resource(local)
    reg = [e for e in evs if str(e.data.get("verbs", "")).startswith("ibv_reg_") and e not in memlock]
    verbs = [e for e in evs if e.data.get("verbs")]
    # lead rule J (session 12): registering memory is resource creation the host refuses, at set-up or at a
    # collective's first use of a buffer alike (the registration has no peer; a completion error would)
    if reg and not statuses and not asyncs and len(reg) + len(local) == len(verbs):
        return _reg_at_setup(reg, any(f in ("init.cc", "transport.cc") for f, _ in c.retcodes))
    parts, fixes = [], []
    for s in statuses:
        name, meaning, fix = IB_STATUS.get(
            s, (f"status {s}", "an IB completion error", "check ibstat and the NCCL WARN lines")
        )
        parts.append(f"status {s} = {name}: {meaning}")
        fixes.append(fix)
    for a in asyncs:
        if re.search(r"access violation|protection", a, re.I):  # IBV_EVENT_QP_ACCESS_ERR: a memory-key fault
            parts.append(f"async event '{a}': the HCA refused an access to a registered buffer (a memory "
                         "protection fault on the queue pair), which then tore the connection down -- the transport's "
                         "memory registration (GPUDirect RDMA through peermem/dma-buf), not the link")
            fixes.append("compare the IB transports: NCCL's internal one vs an external net plugin (NCCL_NET_PLUGIN, "
                         "e.g. the NGC/HPC-X one), test without GPUDirect RDMA (NCCL_NET_GDR_LEVEL=LOC) and with "
                         "NCCL_DMABUF_ENABLE=0, and check nvidia-peermem and the HCA firmware")
            continue
        parts.append(f"async event '{a}': the HCA itself reported a failure (hardware/firmware)")
        fixes.append("check that HCA (ibstat, ibv_devinfo, mlxlink, firmware version) and drain the node")
    for e in reg[:1]:  # the HCA refused to register a (GPU) buffer: the node's RDMA set-up, no peer involved
        parts.append(
            f"the memory registration {e.data['verbs']} failed ({e.data.get('verbs_error') or 'error'}): the HCA "
            "could not register NCCL's GPU buffer, i.e. GPUDirect RDMA (peer memory or dma-buf) does not work on "
            "that node -- its set-up, not the rank's code"
        )
        fixes.append(
            "on that node load the nvidia-peermem kernel module (modprobe nvidia-peermem; lsmod | grep peermem) or "
            "use a driver/kernel with dma-buf support, and check the HCA firmware and driver versions; to run "
            "without GPUDirect RDMA meanwhile set NCCL_NET_GDR_LEVEL=LOC (or NCCL_DMABUF_ENABLE=0 if dma-buf is "
            "the path that fails)"
        )
    for e in [e for e in evs if e.data.get("verbs") and e not in reg][:1]:
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
        f"InfiniBand/RoCE completion errors{on}{where}: " + "; ".join(parts) + (_ib_end(statuses, peers) if ranks
                                                                               else ""),
        "; ".join(dict.fromkeys(fixes)) + (_ib_where(hcas, peers) if 12 in statuses else "")
        + ". Run `ncclDoctor check --nodes N` to localize the bad link.",
        "high",
        [],
        [e.brief() for e in evs[:3]],
        # a completion names a queue pair, which has two ends: the rank that printed it only noticed (for a flush,
        # after the pair had already failed; for a retry or remote error, the peer or the path did not answer)
        job_wide=True,
    )


def _ib_where(hcas: list[str], peers: list[str]) -> str:
    """Where a retry-exceeded error points: the HCA that reported it and the peer it gave up on, tested directly."""
    if not hcas and not peers:
        return ""
    return ("; start with " + (f"HCA {', '.join(hcas)}" if hcas else "the HCA") + " and its path to "
            + (f"peer {', '.join(peers)}" if peers else "the peer") + ": ibstat / link state on both ends, then "
            "ibv_rc_pingpong / ib_write_bw between the two hosts over those NICs")


_IB_LOCAL = {1, 2, 4, 8}  # IBV_WC_LOC_*: this end's own work request or memory registration


def _ib_end(statuses: list[int], peers: list[str]) -> str:
    """Which end of the queue pair a completion status points at; never the reporting rank's code."""
    peer = f"the peer {', '.join(peers)}" if peers else "the peer"
    if statuses == [5]:
        return (f"; a flush only says the queue pair had already failed: check {peer} for an earlier failure (its "
                "log, its HCA), the rank that printed it is not at fault")
    if statuses and set(statuses) <= _IB_LOCAL:
        return ("; a local status points at the reporting node's own HCA and GPUDirect RDMA set-up, not at its rank's "
                "code: no rank is at fault")
    return (f"; check the link to {peer} and that node's HCA (the peer did not answer or refused): the rank that "
            "printed it is not at fault")


def _ofi(c: Collected, evs: list) -> Verdict:
    """aws-ofi-nccl's completion error (NET/OFI, over EFA, Slingshot cxi, ...): RC is the libfabric errno of
    the failed transfer -- the fabric's view of the peer (unreachable, timed out, reset), as an IB completion
    status is for verbs. Not a rank's code; a link has two ends, so no rank is named."""
    e = evs[0]
    rc, err, name = e.data["ofi_rc"], e.data["ofi_err"], e.data.get("ofi_name") or ""
    sym = errno.errorcode.get(rc, f"errno {rc}")
    what = os.strerror(rc) if rc in errno.errorcode else "a libfabric error"
    ranks = _ranks(c, "ib_completion")
    on = f" on {_named(ranks)}" if ranks else ""
    prov = e.data.get("ofi_prov")  # libfabric's provider logging the completion error itself (no NET/OFI line)
    peers = sorted({x.data["peer"] for x in evs if x.data.get("peer")})
    said = f"provider error {err}" + (f" ({name})" if name else "") if err is not None else (
        f"'{name}'" if name else "no provider error text")
    return Verdict(
        "ib_fabric",
        (f"libfabric's {prov} provider reported a failed completion{on}" if prov else
         f"a libfabric (NET/OFI) transfer failed{on}") + f": RC {rc} = {sym} ({what}), {said}"
        + (f" towards peer host {', '.join(peers[:3])}" if peers else "")
        + (", nothing delivered (completed length 0)" if "length: 0" in e.text else "")
        + ": the fabric could not deliver to the peer -- the link or route between the nodes, the OFI equivalent "
        "of an InfiniBand completion error; the rank printing it is not at fault",
        "Check the fabric link and route between that node and its peers: the provider's own tools (fi_info -p "
        f"{prov or '<provider>'}, for Slingshot cxi_stat and the switch's link state, for EFA the instance's EFA "
        "health and a security group that allows all traffic between the nodes), with "
        f"FI_LOG_LEVEL=warn FI_LOG_PROV={prov or '<provider>'} for libfabric's view and NCCL_DEBUG=INFO "
        "NCCL_DEBUG_SUBSYS=NET to see which peer"
        + (f" (the peer host the line names: {peers[0]})" if peers else "") + "; drain the node whose network link "
        "is down and keep libfabric / aws-ofi-nccl of one version on every node. Run `ncclDoctor check --nodes N` to "
        "localize the bad link.",
        "high", [], [x.brief() for x in evs[:3]], job_wide=True)  # the rank that noticed is not the failed end


# verbs calls that only allocate on the local HCA (no peer, no packet on the wire): their failure is the node's
# resources or limits, a system error, not the fabric
_LOCAL_VERBS = ("ibv_create_qp", "ibv_create_cq", "ibv_alloc_pd", "ibv_create_srq", "ibv_create_comp_channel")


# The locked-memory advice both set-up verdicts give (the verbs call refused, the registration refused)
_MEMLOCK = ("ulimit -l unlimited (memlock unlimited in /etc/security/limits.conf), docker run --ulimit memlock=-1 "
            "(Kubernetes: the container memlock limit of its runtime), and check `ulimit -l` inside mpirun/srun/the "
            "container")


def _verbs_resource(evs: list) -> Verdict:
    e = evs[0]
    err = e.data.get("verbs_error")
    return Verdict(
        "nccl_system",
        f"the verbs call {e.data['verbs']} failed ({err or 'no error text'}) while the IB connections were set up: "
        "creating a queue pair/completion queue only allocates on the local HCA (no peer, nothing on the wire), so "
        "it is that node's resources or limits that refused it -- almost always the locked-memory limit (ulimit -l) "
        "of the process or container -- not the fabric and not a rank's code",
        f"Raise the locked-memory limit where the ranks run: {_MEMLOCK}; if it is already unlimited, the HCA ran "
        "out of its IB resources (queue pairs, CQ count: another library or job on the same HCA, e.g. NVSHMEM, "
        "may hold them; lower NCCL_IB_QPS_PER_CONNECTION / NCCL_MAX_NCHANNELS, check ibv_devinfo -v max_qp / "
        "max_cq, dmesg for mlx5 errors) or the device is not usable in the container (/dev/infiniband mounted, "
        "rdma devices allowed).",
        "medium", [], [x.brief() for x in evs[:3]], job_wide=True)


def _reg_at_setup(evs: list, setup: bool = True) -> Verdict:
    """Lead rule J: a memory registration (ibv_reg_mr*) refused -- while the communicator is created (NCCL's
    return-code trail runs through transport.cc/init.cc, the connections of ncclCommInitRank) or when a collective
    first registers a buffer, with no completion error -- is an IB resource the host refuses (the locked-memory
    limit, or no peer-memory/dma-buf support to pin GPU memory), a system error of that node, not the fabric: a
    registration has no peer."""
    e = evs[0]
    err = e.data.get("verbs_error")
    return Verdict(
        "nccl_system",
        f"registering memory with the HCA ({e.data['verbs']}, {err or 'no error text'}) failed "
        + ("while NCCL set up its IB connections (its return-code trail runs through transport.cc/init.cc)" if setup
           else "when NCCL registered a buffer for the IB transport (no completion error, no peer named)")
        + ": the host refused to pin the "
        "buffer -- the process's locked-memory limit, or GPU memory the HCA cannot register (no nvidia-peermem / "
        "dma-buf for GPUDirect RDMA) -- a system error of that node, not the fabric and not a rank's code",
        f"On that node check the locked-memory limit where the ranks run ({_MEMLOCK}) and GPUDirect RDMA: load "
        "nvidia-peermem (modprobe nvidia-peermem; lsmod | grep peermem) or use a "
        "driver/kernel with dma-buf; NCCL_NET_GDR_LEVEL=LOC runs without GPUDirect RDMA and tells whether it is the "
        "cause (NCCL_IB_DISABLE=1 falls back to sockets); rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET.",
        "medium", [], [x.brief() for x in evs[:3]], job_wide=True)


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
    """Interfaces NCCL chose that cannot carry inter-node traffic: loopback, link-local, virtual. Loopback carries
    NCCL's bootstrap between the processes of ONE node (issue #14 item 3: it is a problem in a multi-node job): with
    every line on one host (or none named) and nothing failing, NCCL choosing lo is set-up chatter (lead rule K)."""
    bad = [f"{n}:{a}" for n, a in c.interfaces.items() if _bad_iface(n, a)]
    if bad and _loopback_only(bad) and not spans_nodes(c) and not _something_failed(c):
        return []
    # lead rule K: with nothing failing, virtual interfaces NCCL's bootstrap only lists after the first, routable one
    # ("Bootstrap : Using [0]enp7s0:10.x [1]virbr0:... [2]veth...": it uses the first alone), and no NET/Socket line
    # uses, are the host's other interfaces in its set-up chatter, not an interface chosen wrong
    if bad and not any(b.split(":", 1)[0] in c.used_ifaces for b in bad) and not _something_failed(c):
        return []
    return bad


def _bad_iface(name: str, addr: str) -> bool:
    return bool(_BAD_IFACE.match(name)) or addr.startswith("127.") or addr.lower().startswith("fe80")


def _loopback_only(bad: list[str]) -> bool:
    return all(b.startswith("lo:") or b.split(":", 1)[1].startswith("127.") or b.endswith(":::1") for b in bad)


def spans_nodes(c: Collected) -> bool:
    """The lines show more than one node: ranks or NCCL processes on several hosts, or torchrun's printed
    node count (GROUP_WORLD_SIZE / nnodes) above 1."""
    nodes = [int(v) for n in ("GROUP_WORLD_SIZE", "PET_NNODES") for v in (c.settings.get(n) or {}) if v.isdigit()]
    named = hosts(c) | set(c.setup_hosts) | {h for h, _, _ in c.procs if h}
    return max(nodes + [len(named)]) > 1


def _something_failed(c: Collected) -> bool:
    """Any failure at all in the lines: an error family, an NCCL return-code trail, a launcher's record of a failed
    process, a traceback's exception."""
    from ncclDoctor.diagnose.verdict.quiet import harmless_warn

    # a harmless NCCL WARN (libibverbs absent, a net plugin finding no device and dropped) is no failure
    warns = c.samples.get("nccl_warn", [])
    real_warn = len(warns) < c.kinds.get("nccl_warn", 0) or any(not harmless_warn(c, e) for e in warns)
    return bool(any(c.kinds.get(k) for k in ERROR_KINDS if k != "nccl_warn") or real_warn or c.retcodes
                or c.child_failures or c.worker_failures or c.exceptions or c.kinds.get("watchdog_timeout"))


def shared_addresses(c: Collected) -> list[tuple[str, set[str]]]:
    """Addresses NCCL bootstraps on that two hosts both print: containers on bridge networks (Docker's
    172.17.0.2 on every node) advertise an address no other node can reach. Loopback is bad_interfaces'."""
    shared = sorted((a, hs) for a, hs in c.iface_hosts.items() if len(hs) > 1 and not a.startswith("127."))
    # lead rule K, as in bad_interfaces: an address only the bootstrap's list shows after its first (used) interface
    unused = {a for n, a in c.interfaces.items() if n not in c.used_ifaces}
    if shared and any(a in unused for a, _ in shared) and not _something_failed(c):
        shared = [(a, hs) for a, hs in shared if a not in unused]
    return shared


def _socket_stall(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule O: a recv/send of NCCL's socket transport that TIMED OUT ("Call to recv from PEER failed :
    Connection timed out") on the data path of a running collective (net_socket.cc's "socket progress error": a
    transfer's test failed), with no set-up trail (bootstrap, init.cc, transport.cc), no peer shown gone (reset,
    closed, refused) and no process shown failing: both ends were alive and connected, and the network between them
    stopped delivering -- a transport stall, no rank at fault. (A reset or close there is a peer gone: early exit;
    during set-up the same texts are network_setup.)"""
    evs = c.samples.get("socket_timeout", [])
    if not evs or not c.kinds.get("socket_progress"):
        return None
    if any(f.startswith("bootstrap.") or f in ("init.cc", "transport.cc") for f, _ in c.retcodes):
        return None
    if c.kinds.get("socket_error") or c.kinds.get("gloo_error") or c.child_failures or c.worker_failures:
        return None
    peers = sorted({str(e.data.get("peer")) for e in evs if e.data.get("peer")})
    where = f" from/to {', '.join(peers[:3])}" if peers else ""
    return Verdict(
        "transport_stall",
        f"NCCL's socket transport timed out on a connected socket{where} in the middle of a transfer (socket progress "
        "error): the connection was up and no process is shown exiting -- the network between the nodes stopped "
        "delivering (packet loss, an overlay/conntrack or keepalive timeout), a transport stall; no rank is at fault",
        "Check the network between nodes on that path: packet loss and retransmits between the hosts/pods (ping -f, "
        "iperf3, netstat -s), an MTU mismatch on the overlay, conntrack / TCP keepalive timeouts of the pod network "
        "(CNI); pin NCCL_SOCKET_IFNAME to the fastest routable interface and prefer NCCL_IB / RoCE over a TCP "
        "overlay where the nodes have it; rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=NET to see the connection "
        "in use" + (f" (peer {peers[0]})" if peers else "") + ".",
        "medium", [], [e.brief() for e in (evs + c.samples.get("socket_progress", []))[:4]])


def _beside_stall(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule O read for the stacks beside NCCL that move the data themselves: DeepEP's kernels timing out on
    their RDMA/NVLink sends and receives (an RDMA sender with data still remaining), or UCX (NIXL, UCC) timing out a
    send on an endpoint already CONNECTED, with no process shown failing or exiting: every process was alive inside
    the same operation and the data path stopped completing -- a transport stall, no rank at fault."""
    evs = c.samples.get("beside_timeout", [])
    if not evs or c.child_failures or c.worker_failures or c.kinds.get("socket_error"):
        return None
    stacks = sorted({e.data.get("stack") or "?" for e in evs})
    rdma = any(e.data.get("rdma") for e in evs)
    if "DeepEP" in stacks:
        fix = ("Test the RDMA path between the nodes outside DeepEP: ib_write_bw / ib_read_bw between every pair of "
               "nodes (the NICs DeepEP's NVSHMEM uses), ibstat and the switch counters for errors; rerun with "
               "NVSHMEM_DEBUG=INFO to see the transport and NICs NVSHMEM chose, check the IBGDA settings "
               "(NVSHMEM_IB_ENABLE_IBGDA=1, the nvidia_peermem / PeerMappingOverride driver options DeepEP asks for) "
               "and that every node runs the same NVSHMEM and DeepEP build; a per-node test (intranode) tells "
               "the NVLink side from the RDMA side, and a longer timeout only hides a stalled link.")
    else:
        fix = ("Check the network path UCX uses between the instances: UCX_TLS (prefer rc/rdma transports over the tcp "
               "transport where the nodes have RDMA), UCX_NET_DEVICES pinned to the NIC the hosts reach each other "
               "on, and ucx_perftest between the two hosts to measure it; look for packet loss or an overlay/"
               "conntrack timeout (netstat -s, iperf3) and run with UCX_LOG_LEVEL=info (NIXL's agents) to see the "
               "endpoints.")
    return Verdict(
        "transport_stall",
        f"{' and '.join(stacks)} timed out moving data" + (" over RDMA (sends with data still remaining)" if rdma
                                                            else "") + " with no process shown failing or exiting: the "
        "processes were alive inside the same operation and the data path between them stopped completing -- a "
        "transport stall, no rank at fault",
        fix, "medium" if rdma or "UCX" in stacks else "low", [], [e.brief() for e in evs[:4]], job_wide=True)


R_BIND_BUSY = re.compile(r"\bbind failed ?:? ?Address already in use")
# socket.cc's socketFinalizeAccept: the peer that connected announced another socket type than the listener's
# (enum ncclSocketType: 1 bootstrap, 2 proxy, 3 the socket net transport, 4 the IB net transport, 5 RAS)
_MIXED_FIX = ("Make every node use the same network transport: check InfiniBand on each node (ibstat, ibv_devinfo, "
              "the same NCCL_IB_HCA, /dev/infiniband in the container) so that IB works on both ends, or set "
              "NCCL_IB_DISABLE=1 (and the same NCCL_NET) on every node -- under mpirun pass it with -x so the remote "
              "ranks get it; compare the 'Using network' line of each node's NCCL_DEBUG=INFO log. ")
R_WRONG_TYPE = re.compile(r"socketFinalizeAccept: wrong type (\d) != (\d)")


def survivor_retries(c: Collected) -> set[int]:
    """The ranks a launcher's complete record shows alive while others exited on their own: Paddle's launch_utils
    lists every trainer whose process exited nonzero ("rank=[1, 2, 3] was aborted", data "whole") and prints trainer
    0's own log on the console, so a console line without a rank of its own is trainer 0's. In Paddle's
    gen_comm_id_helper only trainer 0 connects out, retrying, to send the NCCL id: its refused connects to a
    trainer that died before it listened are that death's symptom, not the network's fault."""
    whole = [e for e in c.child_failures if e.data.get("whole") and e.rank is not None]
    if not whole:
        return set()
    return {0} - {e.rank for e in whole}


# Paddle's NCCL id exchange, whose connects only trainer 0 makes (gen_comm_id_helper.cc's "connect addr=H:P failed N
# times with reason: Connection refused retry after S seconds", the older nccl_context.cc's "Socket connect worker
# H:P failed, try again after S seconds"): such a line is trainer 0's, whatever prefix a paste gave it
R_PADDLE_ID_SEND = re.compile(r"\bgen_comm_id_helper\.cc:\d{1,6}\] connect addr=|"
                              r"\bnccl_context\.cc:\d{1,6}\] Socket connect worker ")


def _connect_rank(e) -> int | None:
    """The rank whose connect failed: trainer 0 for Paddle's NCCL id exchange, else the line's own rank."""
    return 0 if R_PADDLE_ID_SEND.search(e.text) else e.rank


def _zero_net(endpoint: str) -> str | None:
    """The host of HOST:PORT when it is an IPv4 address in 0.0.0.0/8 other than 0.0.0.0 itself (RFC 1122's "this
    network": never a host's address, never a destination on the wire), else None."""
    host = endpoint.rsplit(":", 1)[0]
    try:
        ip = ipaddress.IPv4Address(host)
    except ValueError:
        return None
    return host if ip in _THIS_NETWORK and ip != ipaddress.IPv4Address(0) else None


_THIS_NETWORK = ipaddress.ip_network("0.0.0.0/8")


def _peer_of(e) -> str:
    """The HOST:PORT a failed connect went to: the socket error's peer, or Paddle's NCCL id exchange's address."""
    if e.data.get("peer"):
        return str(e.data["peer"])
    m = R_PADDLE_ID_SEND.search(e.text)
    p = R_ENDPOINT.search(e.text, m.end()) if m else None
    return f"{p.group(1)}:{p.group(2)}" if p else ""


def _unroutable_peers(c: Collected) -> Verdict | None:
    """Lead rule L: the endpoints a launcher waits for (Paddle's "not ready endpoints:[...]") or a connect goes to are
    at an address in 0.0.0.0/8, which no host has: the node's own address was read wrong where the endpoints were
    built (its host name resolving to a garbage address, a wrong --ips / POD_IP), so the connections between the
    processes can never be made at set-up -- network_setup, no rank (the one that waits only reports it)."""
    evs = [e for e in c.samples.get("peer_wait", []) if any(_zero_net(x) for x in e.data["endpoints"])]
    evs += [e for e in c.samples.get("socket_error", []) if e.data.get("connect") and _zero_net(_peer_of(e))]
    if not evs:
        return None
    bad = sorted({h for e in evs for x in (e.data.get("endpoints") or [_peer_of(e)]) if (h := _zero_net(x))})
    said = evs[0].data.get("said") or evs[0].text.strip()
    return Verdict(
        "network_setup",
        f"the processes wait for (or connect to) peers at {', '.join(bad[:3])} ('{said[:120]}'): an "
        "address in 0.0.0.0/8, which no host has and no packet can reach -- the address the endpoints were built from "
        "is wrong (a host name resolving to a garbage address, or a wrong node address given to the launcher), so the "
        "connections between the processes can never be made at set-up; not a rank's fault",
        "Find the node's real host IP and make the launcher use it: check what the host name resolves to (hostname "
        "-i; getent hosts $(hostname)) and fix /etc/hosts so that it maps the host name to the host IP of the "
        "interface the nodes reach each other on, or pass the address explicitly -- Paddle's launcher --ips=<host IP> "
        "(--ips=127.0.0.1 for one machine), POD_IP, or PADDLE_TRAINER_ENDPOINTS / MASTER_ADDR with real host IPs; "
        "then check the firewall / ports between the nodes.",
        "high" if any(e.kind == "socket_error" for e in evs) else "medium", [], [e.brief() for e in evs[:2]],
        job_wide=True)


def _peer_wait(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule AD (1): Paddle's trainers waiting on each other's endpoints ("server not ready, wait 3 sec to
    retry..." / "not ready endpoints:[...]", the NCCL-id hand-over between trainers, not a store) that stay not ready
    wait after wait, with nothing else failing: the connections between the trainers cannot be made at set-up --
    network_setup (lead rule L). Several endpoints never answering (a whole node, or every other trainer) is the
    launch or the network, no rank; one endpoint missing is most likely its trainer never started, a rank the lines
    do not name (nobody is named either way). Read after the nodes' launch lines (quiet._rank_args: nodes given
    different --ips are config) and after the address no host has (_unroutable_peers)."""
    if not c.peer_waits or c.exceptions or c.child_failures or c.worker_failures:
        return None
    stuck = [(now, ev) for now, runs, ev in c.peer_waits.values() if now and runs >= 2]
    if not stuck:
        return None
    eps = list(dict.fromkeys(x for now, _ in stuck for x in now))
    by_host: dict[str, list[str]] = {}
    for x in eps:
        by_host.setdefault(x.rsplit(":", 1)[0], []).append(x.rsplit(":", 1)[1])
    where = "; ".join(f"{h} (port{'s' if len(ps) > 1 else ''} {', '.join(ps[:8])})" for h, ps in
                      list(by_host.items())[:4])
    one = len(eps) == 1
    loop = all(h.startswith("127.") or h in ("localhost", "::1") for h in by_host)
    said = stuck[0][1].data.get("said") or stuck[0][1].text.strip()
    workerlog = ("the workerlog (log/workerlog.N, under --log_dir) of the trainer that should listen at "
                 f"{eps[0]}" if one else "the workerlogs (log/workerlog.N, under --log_dir) on the node(s) "
                 f"{', '.join(list(by_host)[:4])}")
    return Verdict(
        "network_setup",
        f"the launcher's trainer keeps waiting for its peers' endpoints ('{said[:120]}'), retry after retry: "
        f"{'the endpoint' if one else 'the endpoints'} at {where} never "
        + ("answers" if one else "answer")
        + " -- the trainers' NCCL id exchange connects trainer to trainer at set-up (not a store), and that "
        "connection cannot be made; "
        + ("one trainer's endpoint is missing: most likely its process never started or died before listening (its "
           "rank is not in these lines), or its port is taken or blocked" if one else
           "several trainers' endpoints never answer (a whole node or every other trainer): that node was not "
           "launched (or not with the same --ips), or the network/firewall between the nodes blocks those ports -- "
           "a launch or network fault, not one rank's"),
        f"Read {workerlog}: a trainer that failed at start-up writes its error there, and one that is missing never "
        "started. Launch on every node with the same command and the same --ips list (paddle.distributed.launch "
        "--ips=A,B --gpus=...), check that PADDLE_TRAINER_ENDPOINTS holds the addresses the nodes reach each other on "
        "(hostname -i), and that the ports are free and open between the nodes (no firewall; `nc -zv HOST PORT` from "
        "the waiting node" + (", 127.0.0.1 on one machine: another job or a stale process may hold the port, "
                              "--started_port picks others" if loop else "")
        + "); rerun with GLOG_v=3 / NCCL_DEBUG=INFO to see the NCCL id exchange (gen_nccl_id).",
        "low" if one else "medium", [], [ev.brief() for _, ev in stuck[:2]], job_wide=True)


# the files of NCCL's return-code trail under a socket read or write of the net transport's data path
_PEER_READ_FILES = frozenset(("socket.cc", "net_socket.cc", "socket.h", "net.h"))


def _network(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    unroutable = _unroutable_peers(c)
    if unroutable is not None:
        return unroutable
    alive = survivor_retries(c)
    connect = [e for e in c.samples.get("socket_error", []) if e.data.get("connect")
               and (0 if _connect_rank(e) is None else _connect_rank(e)) not in alive]
    # a peer that closed the socket while the communicator was still being set up (the return-code trail runs
    # through transport.cc/init.cc: the connections of ncclCommInitRank or of a lazy connect) never got connected:
    # the other end gave up on a connection that did not work (interface, firewall), not a peer that crashed mid-run
    if not connect and any(f in ("init.cc", "transport.cc") for f, _ in c.retcodes):
        connect = [e for e in c.samples.get("socket_error", []) if not e.data.get("store_gone")
                   and R_PEER_GONE.search(str(e.data.get("what", "")))]
    # a gloo peer gone inside the set-up call (hvd.init(), init_process_group: parse._init_frame) is set-up too
    gloo = [e for e in c.samples.get("gloo_error", [])
            if e.data.get("setup") or not R_PEER_GONE.search(str(e.data.get("what", "")))]
    # NCCL's return-code trail: any error through bootstrap (connection set-up at init), or a
    # system/internal error (2, 3) through the socket layer; 6 (remote) there is a peer gone.
    boot = sorted(
        f"{f} -> {n}"
        for (f, n) in c.retcodes
        if f.startswith("bootstrap.") or (f in ("socket.cc", "net_socket.cc", "socket.h") and n in (2, 3))
    )
    # a socket-layer trail (net_socket.cc, net.h) whose only failure is a peer closing NCCL's data socket, with no
    # connect failing and nothing of set-up in the trail (bootstrap, init.cc, transport.cc, proxy.cc): the peer's
    # process went away mid-run (lead rule O), the system error of the read is its consequence, not the network's
    socks = c.samples.get("socket_error", [])
    if (boot and not connect and socks and not any(e.data.get("connect") for e in socks)
            and all(R_PEER_GONE.search(str(e.data.get("what", ""))) for e in socks)
            and all(f in _PEER_READ_FILES for f, _ in c.retcodes)):
        boot = []
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
    # NCCL's own socket could not bind (socket.h/socket.cc "Call to bind failed : Address already in use"): the port
    # it wants is taken -- a fixed NCCL_COMM_ID port still held, or the ephemeral ports used up by communicators
    # created again and again (a new group per step) -- not the interface
    busy = [e for e in c.samples.get("nccl_warn", []) if R_BIND_BUSY.search(e.text)]
    # 3 vs 4: a rank of one node reached this one over IB's connection set-up while this node listens with the socket
    # transport (or the reverse): the nodes picked different network transports -- IB up (or enabled) on one only
    mixed = next((m for e in c.samples.get("nccl_warn", []) if (m := R_WRONG_TYPE.search(e.text))
                  and {m.group(1), m.group(2)} == {"3", "4"}), None)
    if mixed:
        got, want = ("IB", "socket") if mixed.group(1) == "4" else ("socket", "IB")
        seen.insert(0, f"a peer connected with NCCL's {got} transport to a node listening with its {want} transport "
                    f"('{mixed.group(0)}'): the nodes do not use the same network transport (InfiniBand works or is "
                    "enabled on one node and not the other)")
    # gloo's tcp device (no GLOO_SOCKET_IFNAME) binds to the address the host name resolves to, and no interface has it
    lost = next((m for e in gloo if (m := _R_GLOO_NO_IFACE.search(str(e.data.get("what", ""))))), None)
    if lost:
        seen.insert(0, f"gloo found no local network interface holding {lost.group(1) or 'the address'}, the address "
                    "this host's name resolves to ('Unable to find interface for'): the host name resolves to an "
                    "address that is not this host's" + (" (0.0.0.0/8: what a numeric host name reads as, an IPv4 "
                                                         "address)" if (lost.group(1) or "").startswith("0.") else ""))
    if busy:
        seen.insert(0, "NCCL could not bind its socket ('bind failed : Address already in use'): the port it needs is "
                    "taken on that host")
        proof = [busy[0].brief()] + proof
    return Verdict(
        "network_setup",
        "; ".join(seen) + (": a port on that host, not the path between the ranks" if busy and len(seen) <= 2 else
                           ": the network interface or path chosen between the ranks does not work"),
        ("NCCL's bind failed with 'Address already in use': if NCCL_COMM_ID fixes the bootstrap port, pick a free "
         "one (or unset it); if the job ran for a while first, it creates communicators again and again (a "
         "dist.new_group or init per step): create the group once (outside the loop) and reuse it, and check the "
         "ephemeral port range (sysctl net.ipv4.ip_local_port_range) and sockets in TIME_WAIT (ss -tan); an old "
         "NCCL version leaked bootstrap sockets (upgrade NCCL). " if busy else "")
        + (_MIXED_FIX if mixed else "")
        + (_GLOO_IFACE_FIX if lost else "")
        + "Set NCCL_SOCKET_IFNAME (and GLOO_SOCKET_IFNAME) to the interface the nodes reach each other on "
        "(ip -br addr; e.g. NCCL_SOCKET_IFNAME==eth0, or ^docker,lo,veth); check the firewall lets the ports "
        "through (nc -zv PEER PORT); rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET to see the choice. "
        "On one node, NCCL_P2P_DISABLE=1 as a test tells a broken GPU peer-to-peer path.",
        "high" if connect or gloo or boot else "medium",
        [],
        proof or _samples(c, "transport"),
    )


_R_GLOO_NO_IFACE = re.compile(r"Unable to find interface for:? ?\[?([\w.:%\-]{0,80}?)\]?$")
_GLOO_IFACE_FIX = ("gloo binds to the address the host name resolves to unless GLOO_SOCKET_IFNAME names an interface: "
                   "set GLOO_SOCKET_IFNAME to the interface that holds this host's address (ip addr; e.g. eth0), or "
                   "fix the host name's resolution (hostname -i; /etc/hosts, DNS) so that it gives one of this host's "
                   "addresses -- a numeric host name ('189') reads as an IPv4 address (0.0.0.189); in vLLM also set "
                   "VLLM_HOST_IP to this host's address. ")


_LOOPBACK = ("127.", "localhost", "::1", "[::1]", "0.0.0.0")  # an address or endpoint naming the host it is used on


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
        "Give every job its own MASTER_PORT (torchrun --master_port N; another job on the same port joins this "
        "store), kill leftover processes of earlier runs on every node (ps -ef | grep python; nvidia-smi), and "
        "make --nproc_per_node x --nnodes (WORLD_SIZE) equal the number of processes actually started.",
        "medium", [], evidence, job_wide=True)


def _launchers_per_node(c: Collected, in_use: int) -> Verdict | None:
    """Lead rule AA (1): the store's port already in use where the Slurm job runs several tasks per node
    (--ntasks-per-node N > 1) and takes each launcher's node rank from SLURM_PROCID (the task's rank in the whole job):
    every node starts N launchers with node ranks past the node count, and each extra one on the master's host binds
    MASTER_PORT again -- the launch, not another job and not a rank (config, no rank)."""
    evs = c.samples.get("launch_tasks", [])
    tasks = max((e.data["tasks"] for e in evs if e.data.get("tasks")), default=0)
    procid = [e for e in evs if e.data.get("procid_node_rank")]
    if tasks < 2 or not procid:
        return None
    port = f"port {in_use}" if in_use else "the store's port"
    return Verdict(
        "config",
        f"{port} already in use (EADDRINUSE) where the Slurm job runs {tasks} tasks per node "
        f"(--ntasks-per-node={tasks}) and takes the node rank from SLURM_PROCID: several launchers start on each node "
        "and every extra one on the master's host binds MASTER_PORT again -- the launch set-up, not another job (a "
        "new port does not help), no rank at fault",
        "Start one torchrun per node: #SBATCH --ntasks-per-node=1 and NODE_RANK=$SLURM_NODEID (torchrun --nnodes "
        "$SLURM_NNODES --node_rank $SLURM_NODEID, started once per node by srun), each torchrun then starting "
        "--nproc_per_node processes; or let srun start one process per GPU (--ntasks-per-node = GPUs per node) "
        "without torchrun, the ranks from SLURM_PROCID / SLURM_LOCALID and one MASTER_ADDR / MASTER_PORT.",
        "high", [], [procid[0].brief()] + _samples(c, "store_timeout")[:2], job_wide=True)


def _connect_then_cut(c: Collected, evs: list) -> Verdict:
    """Lead rule L: the store client's connect warning (10049 / EINVAL / EADDRNOTAVAIL at an address of the store's
    host), then a traceback down into init_process_group that the paste cut before its exception: the process raised
    where the store is connected, with that connection the only failure shown -- not the harmless retry rule N reads
    when nothing fails after it. store_rendezvous, no rank (every process reaches the same endpoint), medium: the
    exception itself is not shown."""
    host = evs[0].data.get("endpoint") or "the store's host"
    return Verdict(
        "store_rendezvous",
        f"the store client could not connect to {host} (an address not valid here: system error 10049 / EINVAL / "
        "EADDRNOTAVAIL), and the process then raised inside init_process_group (its traceback ends in that call; the "
        "exception line is not in the input): the store connection at set-up failed, a setting every process shares, "
        "no rank at fault",
        f"Check what {host} resolves to on this machine (the hosts file, a VPN or another program mapping the machine "
        "name elsewhere) and set MASTER_ADDR to an address that is this host's (MASTER_ADDR=127.0.0.1 / localhost on "
        "one machine) with a free MASTER_PORT; on Windows use the gloo backend (no NCCL there). Give the full "
        "exception text below the traceback to confirm.",
        "medium", [], [e.brief() for e in evs[:2]], job_wide=True)


def _world_settings(c: Collected, evs: list) -> Verdict | None:
    """Lead rule AE: a barrier of the set-up short of its processes (the coordination service's tasks that never
    arrived, torch's store-based barrier with fewer joined than its world) beside the code line that sets the world up
    with literal settings that cannot form it (parse._world_call): one literal process id / rank in every call shown
    for a world of two or more (every process started with that line claims that id), or a loopback coordinator
    while the lines show several hosts. A setting shown wrong: config, no rank (rules V (1), AA (1))."""
    calls = c.samples.get("world_call", [])
    short = [e for e in evs if e.data.get("missing") or (e.data.get("joined") and e.data["joined"][0] <
                                                          e.data["joined"][1])]
    if not calls or not short:
        return None
    e = short[0]
    count = (len(e.data["missing"]) + 1 if e.data.get("missing") else e.data["joined"][1]) if not (
        e.data.get("reached")) else e.data["reached"][1]
    world = max([x.data["world"] for x in calls if x.data.get("world")] + [count])
    ids = {x.data["id"] for x in calls}
    hard = None not in ids and world >= 2 and len(ids) < world
    loop = next((x.data["coordinator"] for x in calls if (x.data.get("coordinator") or "").startswith(_LOOPBACK)),
                None) if len(hosts(c)) > 1 else None
    if not hard and not loop:
        return None
    call = calls[0].data["call"]
    waits = (f"the coordination service's barrier {e.data['coord_barrier']} timed out with task(s) "
             f"{_fmt_ranks(sorted(e.data['missing']))} never arriving" if e.data.get("missing") else
             f"the store-based barrier counted {e.data['joined'][0]} of {e.data['joined'][1]} processes")
    why = (f"{call} is called with a hard-coded process id ({_fmt_ranks(sorted(ids))}) for a world of {world}: every "
           "process started with that line claims the same id, so the others can never check in" if hard else
           f"{call} names a loopback coordinator ({loop}) while the lines show {len(hosts(c))} hosts: the other "
           "hosts' processes can never reach it")
    return Verdict(
        "config",
        f"{waits}, and the lines show why: {why} -- the settings that define the world cannot form it, a setting "
        "shown wrong, no rank is at fault",
        "Give each process its own id and the real world size: jax.distributed.initialize(coordinator_address="
        "'HOST:PORT' of process 0 reachable from every host, num_processes = the number of processes actually "
        "started (one process per host, or one per GPU), process_id = that process's index, from the launcher "
        "(SLURM_PROCID, the job index) or an argument) -- or call jax.distributed.initialize() with no arguments "
        "under Slurm / TPU / Kubernetes, where it reads them itself; for torch, init_process_group's rank and "
        "world_size from the launcher (RANK, WORLD_SIZE set by torchrun), never a constant.",
        "high" if hard else "medium", [], [x.brief() for x in calls[:2]] + [e.brief()], job_wide=True)


def _coord_barrier(c: Collected, evs: list) -> Verdict:
    """Lead rule R for the coordination service (XLA's / TF's; the store behind jax.distributed.initialize): its
    set-up barrier timed out with tasks that never arrived -- the job's rendezvous short of its processes:
    store_rendezvous, the missing tasks not shown (nobody named), the waiting process a victim."""
    e = evs[0]
    missing = sorted({t for x in evs for t in x.data.get("missing", [])})
    reached = e.data.get("reached")
    what = (f"{reached[0]} of {reached[1]} tasks reached it" if reached else
            f"task(s) {_fmt_ranks(missing)} never arrived" if missing else "not every task arrived")
    return Verdict(
        "store_rendezvous",
        f"the coordination service's set-up barrier ({e.data['coord_barrier']}) timed out: {what} -- the job's "
        "rendezvous (the coordinator's key-value store) worked for the process that waited, and the others never "
        "checked in: not started, started with other settings, or unable to reach the coordinator; the waiting "
        "process is their victim and the lines do not show why they are missing",
        "Check that every process of the world was started, with the same coordinator_address (process 0's "
        "HOST:PORT, reachable from every host: nc -zv HOST PORT), num_processes equal to the processes started and "
        "a distinct process_id each (jax.distributed.initialize; or no arguments under Slurm / TPU / Kubernetes); "
        "read the missing tasks' own logs for an error before they reached jax.distributed.initialize, and raise "
        "initialization_timeout if they are only slow to start.",
        "medium", [], [x.brief() for x in evs[:3]], job_wide=True)


def _store(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    evs = c.samples.get("store_timeout", [])
    if not evs:
        return None
    coord = [e for e in evs if e.data.get("coord_barrier")]
    world = _world_settings(c, coord or evs)
    if world is not None:
        return world
    if coord:
        return _coord_barrier(c, coord)
    if all(e.data.get("init_cut") for e in evs):
        return _connect_then_cut(c, evs)
    from ncclDoctor.diagnose.verdict.quiet import world_unfit

    unfit = world_unfit(c, evs)  # lead rule AE: settings shown that cannot form the world the store waits for
    if unfit is not None:
        return unfit
    ep = next((e.data["endpoint"] for e in evs if e.data.get("endpoint")), None)
    rdzv = any(e.data.get("rendezvous") for e in evs)
    in_use = next((e.data["in_use"] for e in evs if e.data.get("in_use") is not None), None)
    missing = sorted({e.data["env_missing"] for e in evs if e.data.get("env_missing")})
    urls = [e for e in evs if "init_url" in e.data]
    if urls:  # the launcher logged the init_method init_process_group raised on
        url = next((e.data["init_url"] for e in urls if e.data["init_url"]), None)
        if url is None:
            what = ("init_process_group raised, and the launcher's record of the URL it was given says None: no "
                    "dist_url / init_method reached the workers, so torch fell back to env:// and found no "
                    "MASTER_ADDR/MASTER_PORT -- the rendezvous endpoint was never given to them; a launch-script "
                    "setting, not a rank")
        else:
            what = (f"init_process_group raised on the rendezvous URL {url} (the launcher's record): the workers could "
                    "not set up the store at that endpoint -- unreachable, its port taken, or a rank never arrived; "
                    "no rank is at fault")
        return Verdict(
            "store_rendezvous", what,
            "Pass the rendezvous URL to every worker: the launch call's dist_url (detectron2's launch(main, ..., "
            "dist_url=args.dist_url), --dist-url tcp://HOST:PORT or 'auto') or init_process_group(init_method="
            "'tcp://HOST:PORT'), or set MASTER_ADDR and MASTER_PORT for env://; with a URL given, check the port is "
            "free (ss -ltnp | grep PORT) and reachable from every node (nc -zv HOST PORT).",
            "medium", [], [e.brief() for e in urls[:3]])
    if missing:
        return Verdict(
            "config",
            f"init_process_group's env:// rendezvous found {', '.join(missing)} unset: the script was started "
            "without a launcher (plain `python train.py`), so no rank knows the others",
            "Start it with torchrun (torchrun --nproc-per-node=N train.py; multi-node: --nnodes, --rdzv-endpoint) or "
            "accelerate/deepspeed, which set MASTER_ADDR, MASTER_PORT, RANK, WORLD_SIZE and LOCAL_RANK; or set them "
            "yourself for every process.", "high", [], _samples(c, "store_timeout"))
    if any(e.data.get("not_a_host") for e in evs):  # the IPv6 lookup warning naming a file path as the host
        ep = next(e.data["endpoint"] for e in evs if e.data.get("not_a_host"))
        return Verdict(
            "store_rendezvous",
            f"the store's endpoint is {ep}: a file path where the master's host name belongs, so its name resolution "
            "can never succeed and no rank reaches the rendezvous endpoint -- the launch put another argument or "
            "environment line in MASTER_ADDR (a shifted argument, a sourced file's path); the IPv6 warning is where "
            "it shows, not a harmless lookup",
            "Fix the rendezvous endpoint the launch passes: MASTER_ADDR / main_process_ip (accelerate config, "
            "--main_process_ip), torchrun --master-addr / --rdzv-endpoint, or the launcher config / hostfile, to rank "
            "0's IP address or a host name every node resolves; print MASTER_ADDR in each node's launch script.",
            "medium", [], _samples(c, "store_timeout"))
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
            "Start the job again with a new --rdzv-id (rdzv_id) or restart every node together, so they join one "
            "fresh rendezvous; if another node failed first, its log holds that first failure and the cause.",
            "high", [], _samples(c, "store_timeout"))
    etcd = next((e.data["etcd"] for e in evs if e.data.get("etcd")), None)
    if etcd:  # torchelastic's etcd rendezvous backend: its key-value store failed, not a rank (lead rule L)
        return Verdict(
            "store_rendezvous",
            f"the etcd rendezvous backend raised {etcd}: the agents' rendezvous state in etcd is missing or the etcd "
            "server cannot be reached, so no node completes the rendezvous; no rank is at fault",
            "Check the etcd server every agent uses (etcdctl --endpoints HOST:2379 endpoint health; etcdctl get "
            "--prefix /torchelastic), give each run its own --rdzv-id, and restart every node together; or use "
            "torchrun's c10d rendezvous backend (--rdzv-backend=c10d --rdzv-endpoint HOST:PORT), which needs no etcd.",
            "medium", [], _samples(c, "store_timeout"))
    pmix = [e for e in evs if e.data.get("pmix")]
    if pmix:  # Slurm PMIx's fence: the launcher's own key-value exchange between the nodes (lead rules L, R)
        return Verdict(
            "store_rendezvous",
            "Slurm's PMIx plugin (srun --mpi=pmix) timed out in its collective (the fence, its key-value exchange "
            "between the job's nodes): the slurmstepd of one node never heard from its neighbour, before the job's "
            "processes reached NCCL; the launcher's rendezvous between the nodes failed, no rank is at fault",
            "Check the connection between the nodes' slurmstepd daemons that PMIx uses: a firewall between the nodes "
            "(PMIx's direct connections use ports outside slurmd's), the interface and host names each node resolves "
            "for the other, the same Slurm/PMIx version on every node; try srun --mpi=pmi2 (or without PMIx) to tell "
            "PMIx from the network; slurmd's log (SlurmdDebug=debug) on both nodes shows the failed connection.",
            "medium", [], [e.brief() for e in pmix[:3]], job_wide=True)
    kvs = [e for e in evs if e.data.get("kvs")]
    if kvs:  # oneCCL's own rendezvous (lead rule L)
        said = [e.data["kvs"] for e in kvs]
        iface = any("interface" in w for w in said)
        return Verdict(
            "store_rendezvous",
            f"oneCCL's key-value store (kvs, its rendezvous) failed: {said[0][:160]} -- "
            + ("it found no network interface to take its address from (it skips lo unless CCL_KVS_IFACE names "
               "one)" if iface else "the ranks could not reach the kvs main server (rank 0's address and port) in "
               "time, or could not set it up")
            + "; no rank is at fault",
            "Point oneCCL's kvs at an address every rank reaches: CCL_KVS_IFACE=<interface the nodes share> (ip -br "
            "addr), or CCL_KVS_IP_EXCHANGE=env with CCL_KVS_IP_PORT=<rank 0's IP>_<port> (torch-ccl takes "
            "MASTER_ADDR/MASTER_PORT); check that port is open between the nodes (nc -zv HOST PORT) and that rank 0 "
            "started; CCL_LOG_LEVEL=debug shows the address each rank uses.",
            "high", [], [e.brief() for e in kvs[:3]])
    conn = [e for e in evs if e.data.get("store_conn")]
    if conn and len(conn) == len(evs) and all(e.data.get("grpc") for e in conn):
        # a gRPC channel to the job's coordination service (JAX's coordinator): its store, not NCCL's (lead rule L)
        ep = next((e.data["endpoint"] for e in conn if e.data.get("endpoint")), None)
        return Verdict(
            "store_rendezvous",
            "the job's coordination service (its key-value store and rendezvous, spoken over gRPC"
            + (f", at {ep}" if ep else "") + f") could not be reached: '{conn[0].data['store_conn']}' -- the "
            "coordinator's process was not (or no longer) listening there, or the address, port or network between "
            "the hosts is wrong; no rank is at fault from these lines",
            "Check the coordinator address and coordinator port every process is given (jax.distributed.initialize"
            "(coordinator_address='HOST:PORT', num_processes, process_id), or the cluster spec of TF's coordination "
            "service): HOST must be process 0's address as the other hosts reach it, the port open in the firewall "
            "(nc -zv HOST PORT from each host); read the logs of the coordinator process (process 0) for why it was "
            "not listening (it had not started yet, or it exited), and give a slow start more time "
            "(initialization_timeout).", "medium", [], [e.brief() for e in conn[:3]], job_wide=True)
    if conn and len(conn) == len(evs):  # the store client's own connection failing (lead rules L, Y)
        said = conn[0].data["store_conn"]
        proto = "Stop_waiting" in said
        return Verdict(
            "store_rendezvous",
            f"the store client failed before any collective ran ('{said}'): "
            + ("the process at MASTER_ADDR:MASTER_PORT answered with something other than the TCPStore protocol's "
               "reply -- another service, a stale job or a store of another kind holds that port (or the address "
               "and port given were empty)" if proto else
               "the connection to the rendezvous store (rank 0's TCPStore at MASTER_ADDR:MASTER_PORT) could not be "
               "made or was cut while connecting")
            + "; a setting or the network every rank shares, no rank is at fault",
            ("Give the launch an explicit, free master port and address (--master_port / --master_addr, "
             "MASTER_PORT / MASTER_ADDR): `ss -ltnp | grep PORT` shows another process on the port; kill stale jobs "
             "or pick another port. " if proto else "")
            + "Check that MASTER_ADDR resolves to an address every node reaches (127.0.0.1 / localhost on one "
            "machine; not a hostname that resolves elsewhere), that MASTER_PORT is open in the firewall (nc -zv HOST "
            "PORT from each node) and that the store host (rank 0) is up; in Kubernetes the master pod's service and "
            "network policy.", "medium", [], [e.brief() for e in conn[:3]], job_wide=True)
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
    if in_use is not None and (over := _launchers_per_node(c, in_use)) is not None:
        return over
    if in_use is not None:
        port = f"port {in_use}" if in_use else "the store's port"
        return Verdict(
            "store_rendezvous",
            f"the store could not listen: {port} is already in use on this host (errno 98) — another job (or a "
            "leftover process of an earlier one) holds it, or two processes both try to host the store",
            "Address already in use: give each run its own free port: torchrun --master_port N (MASTER_PORT=N) or "
            "--rdzv_endpoint=HOST:PORT (--rdzv-endpoint=localhost:0 on one node lets torchrun pick a free one); find "
            "the holder with `ss -ltnp | grep PORT` and end a stale process of an earlier run; do not call "
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
    over = _store_overcount(c, ks)
    if over is not None:
        return over
    joined = next((e.data["joined"] for e in evs if e.data.get("joined")), None)
    if joined and joined[0] < joined[1]:  # the store was up and reachable: ranks are missing
        return Verdict(
            "store_rendezvous",
            f"only {joined[0]} of {joined[1]} ranks reached the store "
            + ("while the waiting rank polled its store-based barrier" if any(e.data.get("barrier_wait") for e in evs)
               else "before the timeout")
            + f": the store worked, the other "
            f"{joined[1] - joined[0]} never started (a node not launched, a wrong --nnodes / --nproc-per-node / "
            "WORLD_SIZE) or died before init_process_group",
            f"{joined[1] - joined[0]} of {joined[1]} clients never joined the store (worker_count {joined[0]}): they "
            "either never started or could not reach it. Check that every node and process was started, with the "
            "same --nnodes, --nproc-per-node and --rdzv-id (or MASTER_ADDR/WORLD_SIZE), that MASTER_ADDR:MASTER_PORT "
            "is reachable from every node (nc -zv), and read the missing ranks' own logs for an error before "
            "init_process_group. If every rank is only slow to start (imports, model build), the timeout is too "
            "short: raise init_process_group(timeout=...) (ddp_timeout in HF Trainer).",
            "high", [], _samples(c, "store_timeout"))
    if any(e.data.get("waited_input") for e in evs) and not any(e.data.get("joined") for e in evs):
        waiting = sorted({e.rank for e in evs if e.rank is not None})
        return Verdict(
            "store_rendezvous",
            f"{_named(waiting) if waiting else 'a rank'} connected to the store at {ep or 'MASTER_ADDR:MASTER_PORT'} "
            "and waited the whole timeout for a reply that never came: the store was reachable from here, so these "
            "ranks are victims; what they wait for is the registration of ranks that never joined (another node "
            "that could not reach the store, or never started)",
            "Find the ranks that never joined: check that the other node(s) were started and can reach "
            f"{ep or 'MASTER_ADDR:MASTER_PORT'} (nc -zv HOST PORT from each node; the address must resolve to a "
            "reachable address there, over the same family: IPv4 vs IPv6 from the host name's lookup), with "
            "MASTER_ADDR / --dist-init-addr / --rdzv-endpoint naming an address every node can route to; then read "
            "the missing ranks' own logs.",
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
    who = f"rank(s) {_fmt_ranks(waiting)}" if waiting else "a rank (its number not in the line)"
    # where the store lived: rank 0's own process when the lines show init_method="tcp://" or a launcher that hosts
    # no store (DeepSpeed's launch.py); torchrun's agent hosts it otherwise, and a bare traceback does not say
    host0 = (c.samples.get("store_host", []) + c.samples.get("tcp_init", [])
             if not c.kinds.get("agent_frame") else [])
    if all(e.data["gone"] for e in evs) and host0 and roots == [0] and waiting and 0 not in waiting:
        return Verdict(
            "early_exit",
            f"{who} lost the store while waiting for rank 0's ncclUniqueId ({evs[0].data['error']}), and "
            f"{host0[0].data.get('launcher') or 'init_method=tcp://'} shows the store lived in rank 0's own process "
            "(no launcher agent hosts it): rank 0 exited or crashed first; the ranks that printed this are its victims",
            "The store host (rank 0) exited: read rank 0's own log for its exception or exit (its traceback, an "
            "out-of-memory kill in dmesg: host memory while it loads or preprocesses -- dataset preprocessing under "
            "main_process_first runs on rank 0 alone); the ranks that printed this are victims. If rank 0 was still "
            "running, the reset is the network between the nodes: check MASTER_ADDR / MASTER_PORT is reachable from "
            "every node (nc -zv MASTER_ADDR MASTER_PORT).",
            "medium", [0], proof + [host0[0].brief()])
    if all(e.data["gone"] for e in evs):
        return Verdict(
            "early_exit",
            f"{who} lost the store while waiting for rank {_fmt_ranks(roots)}'s "
            f"ncclUniqueId ({evs[0].data['error']}): the process hosting the store (rank 0 / the first node's "
            "torchrun) exited or crashed first",
            "Read rank 0's own log for its exception or exit; the ranks that printed this are victims.",
            "medium", [], proof)
    return Verdict(
        "rank_missing",
        f"{who} waited for the group's rank {_fmt_ranks(roots)} to publish the ncclUniqueId "
        f"of a new communicator ({evs[0].data['error']}): that rank never reached its first collective of this group "
        "(global rank 0 for the default group; the group's first rank for a sub-group)",
        f"Find what rank {_fmt_ranks(roots)} was doing instead: a long step only it runs (dataset preprocessing under "
        "main_process_first, a download, a wandb login prompt), a rank-conditional path, or a crash; raise the "
        "timeout for legitimately long rank-0-only work, or barrier after it.",
        "medium", roots, proof)


def _truncated(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """'message truncated: receiving N bytes instead of M' on a transport (NVIDIA/nccl#626,
    PR #605): the receiver posted a smaller buffer than the sender sent."""
    trunc = [e for e in c.samples.get("nccl_warn", []) + c.samples.get("nccl_error", [])
             if "truncated" in e.text.lower()]
    evs = [e for e in trunc if "bootstrap" not in e.text]
    boot = [e for e in trunc if "bootstrap" in e.text]
    nvshmem = " For NVSHMEM's bootstrap (DeepEP): the same NVSHMEM version/build on every node (and the same " \
        "DeepEP/NVSHMEM version pair), NVSHMEM_DEBUG=INFO to see each end's step, and " \
        "NVSHMEM_BOOTSTRAP_UID_SOCK_IFNAME set to the interface the nodes reach each other on." \
        if any("NVSHMEM" in str(e.data.get("warn")) for e in boot) else ""
    if boot and not evs:
        # bootstrap.cc's bootstrapNetRecv: the size word a peer sent is larger than the message this rank expects at
        # this step, and NCCL returns ncclInternalError -- NCCL's own set-up messages, not the job's data: the two
        # ends of the bootstrap are at different steps of its protocol (different NCCL builds, an NCCL bug on this
        # path, or a stray connection from another run on the same port), not an unreachable network
        return Verdict(
            "nccl_internal",
            "NCCL's bootstrap received a larger message than the one it expected at this step ('Message truncated' "
            "in bootstrap.cc, ncclInternalError): the two ends of NCCL's own set-up exchange disagree on its "
            "protocol -- different NCCL versions or an NCCL bug on this path, not the network and not a rank's code",
            "Run the same NCCL build on every rank (python -c 'import torch; print(torch.cuda.nccl.version())' and "
            "the 'NCCL version' line of NCCL_DEBUG=INFO on each node); if they match, try another NCCL version "
            "(upgrade NCCL, or go back to the last one that worked) and check for a matching send/recv on every rank "
            "of the point-to-point calls; make sure no process of an earlier run still uses the port." + nvshmem,
            "medium", [], [e.brief() for e in boot[:3]], job_wide=True)
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
