"""A transport failing under the data (ib_fabric, nccl_system, transport_stall): InfiniBand and OFI
completions, verbs resources and memory registration, /dev/shm and Open MPI's shared memory, sockets and
RDMA transfers that stall, every rank joined and none moving, a message truncated on a transport."""

from __future__ import annotations

import errno
import os
import re

from ncclDoctor.diagnose.reason import Conclusion
from ncclDoctor.diagnose.signatures import R_GLOO_IBVERBS, TP_IBV_VERBS
from ncclDoctor.diagnose.state import Collected
from ncclDoctor.diagnose.verdict.base import Verdict, _first, _named, _ranks, quiet

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
    cut = all(e.data.get("cut") for e in evs)  # only WARNs of misc/shmutils.cc whose message was cut off
    return Verdict(
        "nccl_system",
        ("NCCL printed a WARN from its /dev/shm code (misc/shmutils.cc) whose message is cut off; every WARN there is "
         "a shared-memory segment it could not create, extend, map or attach, most often because " if cut else "")
        + "NCCL could not "
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
        "Kubernetes: an emptyDir with medium: Memory at /dev/shm); NCCL_SHM_DISABLE=1 works around it."
        + (" Rerun with NCCL_DEBUG=INFO to see the WARN's whole text." if cut else ""),
        "low" if cut else "high",
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
    if any(e.data.get("psm") for e in cma):
        return _psm_cma(c, [e for e in cma if e.data.get("psm")])
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


def _psm_cma(c: Collected, evs: list) -> Verdict:
    """Lead rules J, AQ (1): PSM2/PSM3 (libfabric's psm3 provider, under Intel MPI or oneCCL) reading a peer process's
    memory through cross memory attach (CMA, process_vm_readv) and refused ("Reading from remote process' memory
    failed. Disabling CMA support"): the kernel's ptrace restriction (Yama's ptrace_scope) or a container without
    SYS_PTRACE, the host every process on the node shares. What fails after it on that shared-memory path (PSM3's
    ptl_am length assertion, the launcher's bad termination) follows from it: nccl_system, no rank."""
    said = evs[0].text.strip()
    said = said[max(0, said.find("Reading from")):][:120]
    path, _, at = evs[0].where.rpartition(":")

    def _after(x) -> bool:  # a failure line of the same file below the refusal
        p, _, n = x.where.rpartition(":")
        return p == path and n.isdigit() and at.isdigit() and int(n) > int(at)

    later = [x for x in list(c.unread) + list(c.exceptions) if _after(x)][:1]
    return Verdict(
        "nccl_system",
        "PSM3/PSM2 (the fabric provider under the MPI or oneCCL transport here) could not read a peer process's memory "
        "through cross memory attach (CMA, process_vm_readv) and disabled it ('" + said + "')"
        + (f"; what fails after it on its shared-memory path ('{later[0].text.strip()[:120]}') follows from it"
           if later else "")
        + ": the host refuses one process reading another's memory -- the kernel's ptrace restriction or the "
        "container's missing SYS_PTRACE -- for every process on the node alike, not a rank's fault",
        "Allow cross memory attach between the ranks' processes: sysctl kernel.yama.ptrace_scope=0 (cat "
        "/proc/sys/kernel/yama/ptrace_scope; 1 or more refuses it), and in a container --cap-add=SYS_PTRACE (or "
        "--privileged); or keep PSM3 off the intra-node path: run libfabric over another provider (FI_PROVIDER=tcp, "
        "or shm) or oneCCL with CCL_ATL_TRANSPORT=mpi / ofi chosen accordingly; keep the oneCCL version, libfabric and "
        "its PSM3 current (upgrade). FI_LOG_LEVEL=debug and CCL_LOG_LEVEL=debug show the provider chosen.",
        "medium", [], [e.brief() for e in evs[:2]] + [x.brief() for x in later], job_wide=True)


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
            f"the host refused to pin {_whose(memlock)} buffers -- the process's locked-memory limit (ulimit -l) is "
            "too low for them (or the registrable memory is used up, e.g. by a large NCCL_BUFFSIZE) -- a system error "
            "of that node, not the fabric and not a rank's code",
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
        return _ofi_connect(c, ofi) or _ofi(c, ofi)
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
                         "NCCL_DMABUF_ENABLE=0, and check nvidia-peermem and the HCA firmware; between two hosts an "
                         "MTU mismatch gives this fault too: check ibv_devinfo active_mtu on both nodes and align it "
                         "(the same MTU on every port and interface), then test the link with ib_write_bw between "
                         "the hosts")
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
            ("NVSHMEM's IB transport: " if e.data.get("stack") == "NVSHMEM" else "")
            + f"the verbs call {e.data['verbs']} failed ({e.data.get('verbs_error') or 'error'}): the HCA could not "
            "set up the connection to the peer (for RoCE: the GID/address chosen is not routable to it)"
        )
        fixes.append(_NVSHMEM_CONNECT_FIX if e.data.get("stack") == "NVSHMEM" else _UCX_CONNECT_FIX if e.data.get(
            "stack") == "UCX" else (
            "check ibstat/ibv_devinfo on both ends; on RoCE set NCCL_IB_GID_INDEX to the RoCEv2 GID whose address "
            "the peers route to (show_gids), and check the switch's routing/PFC"
            + ("; if only some peers fail on a rail-optimized fabric (NICs reach only the same rail), "
               "NCCL_CROSS_NIC=0 keeps each ring on one rail" if e.data.get("verbs") == "ibv_modify_qp" else ""))
        )
    if 12 in statuses:
        parts.append(ib_window(c))
    if statuses == [5] and not asyncs:  # only flushes: the error that put the queue pair in error is not here
        fixes = [FLUSH_ONLY_FIX]
    if any(R_GLOO_IBVERBS.search(e.text) for e in evs):  # gloo's own ibverbs transport, not NCCL's
        fixes.insert(0, _GLOO_IBVERBS_FIX + (" (transport retry counter exceeded: the HCA got no ACK from the peer "
                                              "over its retries)" if 12 in statuses else ""))
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


# lead rule K: the completion error is read in gloo's ibverbs transport (its enforce failure names gloo/transport/
# ibverbs, a torch built with gloo's IBVERBS transport): NCCL's IB settings do not apply, and the job can leave that
# transport (round 98's pytorch-10936: gloo over ibverbs failing where the nccl backend worked)
_GLOO_IBVERBS_FIX = (
    "the completion error is in gloo's own ibverbs transport (gloo/transport/ibverbs), not NCCL's: NCCL_IB_* "
    "settings do not reach it. Check the IB port / HCA with ibstat / ibv_devinfo (PORT_ACTIVE, link up) and test it "
    "with ib_write_bw / ib_send_bw (a loopback test of the HCA on one node); for GPU tensors use the nccl backend "
    "instead of gloo over ibverbs, or use gloo's TCP transport instead of ibverbs (a torch build with gloo's default "
    "tcp transport, GLOO_SOCKET_IFNAME to pick its interface)")


# UCX (inside Open MPI, UCC, NIXL) takes its own settings, not NCCL's: what to check when its verbs connection set-up
# to a peer fails (an address handle or queue pair that cannot reach the peer's GID)
_UCX_CONNECT_FIX = (
    "check ibstat/ibv_devinfo on both ends (port state, link layer); UCX takes its own settings, not NCCL's: on RoCE "
    "set UCX_IB_GID_INDEX to the RoCEv2 GID whose address the peers route to (show_gids; the ARP / route to the "
    "peer's RoCE address must resolve), pin UCX_NET_DEVICES=<device>:<port> to the NIC that reaches the peer, prove "
    "the path with ib_write_bw or ucx_perftest between those NICs, and UCX_TLS=tcp (or ^ud) as a test tells whether "
    "the verbs path is the cause")


def _whose(evs: list) -> str:
    """Whose buffers a refused registration was for: NVSHMEM's (DeepEP's transport) or NCCL's."""
    return "NVSHMEM's" if any(e.data.get("stack") == "NVSHMEM" for e in evs) else "NCCL's"


# NVSHMEM (DeepEP's transport) takes its own settings, not NCCL's: what to check when its queue pairs cannot connect
_NVSHMEM_CONNECT_FIX = (
    "check ibstat/ibv_devinfo on both ends (port state, MTU); NVSHMEM takes its own settings, not NCCL's: on RoCE set "
    "NVSHMEM_IB_GID_INDEX to the RoCEv2 GID whose address the peers route to (show_gids), pick the NICs that reach "
    "the peers with NVSHMEM_HCA_LIST (or NVSHMEM_HCA_PE_MAPPING), prove the path with ib_write_bw between those NICs, "
    "and rerun with NVSHMEM_DEBUG=INFO to see which HCA and GID each PE uses")


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


# NCCL's files that connect a communicator's channels (ncclTransportP2pSetup, the ring/tree connects of
# transport/generic.cc): a trail through them is a connection being made, at init or at a channel's first use
_CONNECT_FILES = ("transport.cc", "generic.cc")


def _ofi_connect(c: Collected, evs: list) -> Verdict | None:
    """Lead rules L, O and X (1): a NET/OFI completion error while NCCL was still connecting its channels (its return
    trail through transport.cc / transport/generic.cc), or EFA's own word that the peer's endpoint never completed
    the connection handshake: the two hosts never connected. That is the network's set-up between them (a security
    group, a subnet, the peer's fabric or process), not a link failing under a running transfer; the rank printing it
    is a victim of a peer it cannot reach, so nobody is named. None where neither shows (a transfer's error: _ofi)."""
    shake = [e for e in evs if e.data.get("ofi_handshake")]
    trail = sorted({f"{f} -> {n}" for f, n in c.retcodes if f in _CONNECT_FILES})
    if not shake and not trail:
        return None
    e = (shake or evs)[0]
    rc = e.data["ofi_rc"]
    ranks = _ranks(c, "ib_completion")
    on = f" on {_named(ranks)}" if ranks else ""
    efa = any("efa" in x.text.lower() for x in evs)
    return Verdict(
        "network_setup",
        f"a libfabric (NET/OFI) connection to a peer failed{on} (RC {rc} = {errno.errorcode.get(rc, rc)})"
        + (" while NCCL was still connecting its channels (its trail " + ", ".join(trail[:3]) + ")" if trail else "")
        + ("; the provider says the peer was reached but the connection handshake with it failed" if shake else "")
        + ": the two hosts never established the connection -- the network set-up between them (security group, "
        "subnet, the peer's fabric device, or the peer's process gone before it answered), not a link failing under a "
        "running transfer; the rank printing it is waiting on a peer it cannot reach, not at fault",
        "Check that the peer hosts can open a fabric connection to each other: "
        + ("for EFA, the security group must allow all inbound and outbound traffic from and to itself (EFA's "
           "handshake is dropped otherwise), the instances in one subnet / placement group, and fi_info -p efa listing "
           "the EFA devices on every node (inside the container too); " if efa else
           "fi_info -p <provider> on every node, a firewall or security group letting the nodes reach each other; ")
        + "the same libfabric / aws-ofi-nccl (one EFA installer) on every node, and the peer's own log (a peer "
        "process that died before it answered looks the same). Rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET "
        "FI_LOG_LEVEL=warn (and FI_PROVIDER set to the fabric's provider) to see which peer failed, and test the "
        "network between the same hosts with nccl-tests (all_reduce_perf -b 8 -e 128M) before the training job.",
        "high" if shake else "medium", [], [x.brief() for x in (shake or evs)[:3]], job_wide=True)


# verbs calls that only allocate on the local HCA (no peer, no packet on the wire): their failure is the node's
# resources or limits, a system error, not the fabric
_LOCAL_VERBS = ("ibv_create_qp", "ibv_create_cq", "ibv_alloc_pd", "ibv_create_srq", "ibv_create_comp_channel",
                TP_IBV_VERBS,
                # mlx5's direct verbs (DEVX) allocating on the local HCA: a user access region (its doorbell page), an
                # object such as a queue pair (UCX's and NVSHMEM IBGDA's mlx5 paths)
                "mlx5dv_devx_alloc_uar", "mlx5dv_devx_obj_create", "mlx5dv_create_")


# The locked-memory advice both set-up verdicts give (the verbs call refused, the registration refused)
_MEMLOCK = ("ulimit -l unlimited (memlock unlimited in /etc/security/limits.conf), docker run --ulimit memlock=-1 "
            "(Kubernetes: the container memlock limit of its runtime), and check `ulimit -l` inside mpirun/srun/the "
            "container")


def _verbs_resource(evs: list) -> Verdict:
    e = evs[0]
    err = e.data.get("verbs_error")
    return Verdict(
        "nccl_system",
        f"the verbs call {e.data['verbs']} failed ({err or 'no error text'}) while "
        + ("NVSHMEM's" if e.data.get("stack") == "NVSHMEM" else "the") + " IB connections were set up: "
        "creating a queue pair/completion queue only allocates on the local HCA (no peer, nothing on the wire), so "
        "it is that node's resources or limits that refused it -- almost always the locked-memory limit (ulimit -l) "
        "of the process or container -- not the fabric and not a rank's code",
        f"Raise the locked-memory limit where the ranks run: {_MEMLOCK}; if it is already unlimited, the HCA ran "
        "out of its IB resources (queue pairs, CQ count: another library or job on the same HCA, e.g. NVSHMEM, "
        "may hold them; lower NCCL_IB_QPS_PER_CONNECTION / NCCL_MAX_NCHANNELS, check ibv_devinfo -v max_qp / "
        "max_cq, dmesg for mlx5 errors) or the device is not usable in the container (/dev/infiniband mounted, "
        "rdma devices allowed)." + (_NVSHMEM_RESOURCE_FIX if e.data.get("stack") == "NVSHMEM" else "")
        + (_TP_IBV_FIX if e.data.get("stack") == "TensorPipe" else "")
        + (_UCX_DEVX_FIX if e.data.get("stack") == "UCX" and str(e.data["verbs"]).startswith("mlx5dv_") else ""),
        "medium", [], [x.brief() for x in evs[:3]], job_wide=True)


# UCX's mlx5 transports use DEVX (mlx5 direct verbs' device objects) where rdma-core says the HCA supports it: a DEVX
# allocation refused with "Operation not supported" is the host's verbs stack (rdma-core / MLNX_OFED, the firmware)
# not giving that HCA DEVX, or a UCX built against another rdma-core than the one loaded
_UCX_DEVX_FIX = (
    " For UCX's mlx5 DEVX calls (mlx5dv_devx_alloc_uar, mlx5dv_devx_obj_create) refused with 'Operation not "
    "supported': the host's verbs stack does not give the HCA DEVX -- check that rdma-core / MLNX_OFED, the HCA "
    "firmware and the UCX version match on every host (ucx_info -v, ofed_info -s, ibv_devinfo), that UCX was built "
    "against the rdma-core it loads; UCX_IB_MLX5_DEVX=no makes UCX use plain verbs instead of DEVX, and UCX_TLS "
    "(e.g. UCX_TLS=rc_verbs,ud_verbs,self,sm) or Open MPI's --mca pml ob1 tells whether UCX's mlx5 path is the "
    "cause.")

# TensorPipe (torch RPC, init_rpc) picks its ibv transport whenever libibverbs finds a device: the same host limits,
# plus its own switch to leave InfiniBand out
_TP_IBV_FIX = (
    " For TensorPipe (torch.distributed.rpc's init_rpc): its ibv transport (InfiniBand verbs) is tried whenever an "
    "RDMA device is visible; run without it by listing the transports and channels it may use, "
    "TensorPipeRpcBackendOptions(_transports=['uv'], _channels=[...]) (uv: TCP, pick the NIC with TP_SOCKET_IFNAME), "
    "or make verbs usable in the container (--cap-add=IPC_LOCK or --privileged, the RDMA device in the container, "
    "ulimit -l unlimited); ibv_devinfo shows whether the device answers, TP_VERBOSE_LOGGING=1 which call failed.")

# NVSHMEM's IBRC transport creates its send completion queue at the HCA's max_cqe (ibrc.cpp), so the locked memory it
# needs is large; IBGDA, the transport DeepEP's guide sets up, does not create them
_NVSHMEM_RESOURCE_FIX = (
    " For NVSHMEM (DeepEP): its IB transport sizes a completion queue at the HCA's maximum (ibv_devinfo -v max_cqe), "
    "so a container without memlock unlimited refuses it; DeepEP's install guide sets NVSHMEM up for IBGDA "
    "(NVSHMEM_IB_ENABLE_IBGDA=1 with the nvidia driver's PeerMappingOverride=1 and nvidia_peermem loaded), which does "
    "not use IBRC's queues; NVSHMEM_DEBUG=INFO shows the transport and HCA each PE uses.")


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


def _gloo_stall(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules O, AQ (2) for gloo: a read or write on a gloo pair connected long before timed out ("Read error
    [peer]: Connection timed out", parse: ``stalled``) outside the set-up call, with no peer shown closing or resetting
    its end and no process shown failing: both ends were there and the path between them stopped delivering -- a
    transport stall; the ranks that print it wait inside the collective (victims), and no rank is at fault. Inside
    the set-up call the same words are a connection that never worked (network_setup, _network); with a peer shown
    gone, rule U (4)'s early exit reads the lines (_early_exit)."""
    errs = c.samples.get("gloo_error", [])
    evs = [e for e in errs if e.data.get("stalled")]
    if not evs or len(evs) < len(errs) or any(e.data.get("setup") for e in evs):
        return None
    if c.kinds.get("socket_error") or c.child_failures or c.worker_failures:
        return None
    peers = sorted({str(e.data["peer"]) for e in evs if e.data.get("peer")})
    host = next((f" ({e.data['peer_host']})" for e in evs if e.data.get("peer_host")), "")
    who = _ranks(c, "gloo_error")
    return Verdict(
        "transport_stall",
        f"gloo's read/write on an established connection{' to ' + ', '.join(peers[:3]) if peers else ''} timed out "
        "(ETIMEDOUT: the kernel's retransmits or keepalives went unanswered) inside a running collective"
        + (f" on {_named(who)}" if who else "") + ": the peer neither closed nor reset the connection and no "
        "process is shown failing -- the network between the hosts stopped delivering, a transport stall; the ranks "
        "printing it waited on their peer, and no rank is at fault",
        "Check the network between the nodes on that path: packet loss and retransmits (ping, iperf3, netstat -s), an "
        "MTU mismatch, a firewall, NAT or conntrack / TCP keepalive timeout dropping long-lived connections; check "
        f"that the peer host{host} stayed up and reachable (its own log, dmesg for an OOM kill or a NIC reset); pin "
        "GLOO_SOCKET_IFNAME to the interface the nodes reach each other on; while it hangs, py-spy dump every rank "
        "to see who waits on whom.",
        "medium", [], [e.brief() for e in evs[:4]], job_wide=True)


def _receiver_only(evs: list, n: int) -> Verdict:
    """Lead rule BP (2) (with P, BN (1), AB (2)): only DeepEP's kernel receive timeouts ("dispatch NVL receiver
    timeout ... src NVL: 2, head: 44, tail: 44": nothing new arrived), no sender's or forwarder's own timeout with data
    still remaining, no SeqNum, no process shown exiting. The receiver names its sender by a local NVL/RDMA index, and
    it cannot tell a sender that never entered the kernel (slow, stuck elsewhere, gone) from a stalled data path
    (NVLink, RDMA, IBGDA): cause unknown, nobody named, nobody innocent. A sender or forwarder timing out with data
    still remaining beside it is the transport stall below (round 81's deepep-137)."""
    src = sorted({m.group(1) for e in evs if (m := _R_SRC_NVL.search(e.text))})
    return Verdict(
        "unknown",
        f"only DeepEP's own receive timeouts are shown ({n} line(s), e.g. "
        f"{evs[0].text[max(evs[0].text.find('DeepEP'), 0):].strip()[:140]}): the "
        "receiver saw nothing new from its sender (head == tail)"
        + (f", which it names only by a local index (src NVL {', '.join(src[:4])})" if src else "")
        + "; no sender or forwarder is shown timing out with data still remaining, no SeqNum, no process shown "
        "exiting -- the lines cannot tell a peer that never entered the kernel (slow, stuck elsewhere, gone) from a "
        "stalled NVLink/RDMA/IBGDA data path, so no rank is named",
        "Take py-spy / cuda-gdb stacks of every rank while it hangs (py-spy dump --native --pid PID): a rank outside "
        "the dispatch/combine is the peer that stopped sending; rerun with NVSHMEM_DEBUG=INFO and check the NVSHMEM "
        "IBGDA set-up (NVSHMEM_IB_ENABLE_IBGDA, nvidia_peermem / GDRCopy, the driver's PeerMappingOverride=1) and the "
        "RDMA NICs and the NIC-GPU mapping; run the intranode test first (test_intranode.py), then "
        "test_low_latency.py / nvshmem perftests, to tell the NVLink side from the RDMA side; raise the DeepEP "
        "timeout for debugging only.",
        "low", [], [e.brief() for e in evs[:4]])


_R_SRC_NVL = re.compile(r"\bsrc NVL: ?(\d{1,4})")


def _beside_stall(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule O read for the stacks beside NCCL that move the data themselves: DeepEP's kernels timing out on
    their RDMA/NVLink sends and receives (an RDMA sender with data still remaining), NCCL EP's kernels timing out a
    receive from a rank that is itself inside the exchange (their trap's 719 follows), or UCX (NIXL, UCC) timing out a
    send on an endpoint already CONNECTED, with no process shown failing or exiting: every process was alive inside
    the same operation and the data path stopped completing -- a transport stall, no rank at fault."""
    evs = c.samples.get("beside_timeout", [])
    if not evs or c.child_failures or c.worker_failures or c.kinds.get("socket_error"):
        return None
    stacks = sorted({e.data.get("stack") or "?" for e in evs})
    rdma = any(e.data.get("rdma") for e in evs)
    if stacks == ["DeepEP"] and all(e.data.get("receiver") for e in evs) and not any(
            t.seq is not None for t in c.samples.get("watchdog_timeout", [])):
        return _receiver_only(evs, c.kinds.get("beside_timeout", len(evs)))
    if "DeepEP" in stacks:
        fix = ("Test the RDMA path between the nodes outside DeepEP: ib_write_bw / ib_read_bw between every pair of "
               "nodes (the NICs DeepEP's NVSHMEM uses), ibstat and the switch counters for errors; rerun with "
               "NVSHMEM_DEBUG=INFO to see the transport and NICs NVSHMEM chose, check the IBGDA settings "
               "(NVSHMEM_IB_ENABLE_IBGDA=1, the nvidia_peermem / PeerMappingOverride driver options DeepEP asks for) "
               "and that every node runs the same NVSHMEM and DeepEP build; a per-node test (intranode) tells "
               "the NVLink side from the RDMA side, and a longer timeout only hides a stalled link.")
    elif "NCCL EP" in stacks:
        fix = ("NCCL EP's kernels timed out waiting for tokens from ranks that were themselves inside the same "
               "dispatch/combine (each receiver names its src_rank), and their trap is the 'unspecified launch "
               "failure' that follows: reproduce with NCCL EP's own ep_bench (nccl-extensions) on the same GPUs and "
               "mode (LOW_LATENCY vs HIGH_THROUGHPUT); keep one LL handle per group and every rank calling dispatch "
               "and combine with the same handle, sizes and order; check the NVLink/MNNVL fabric (nvidia-smi -q, the "
               "IMEX/fabric manager state) and the GIN/IB path with NCCL_DEBUG=INFO; upgrade NCCL and NCCL EP to the "
               "latest release (device-side hangs of a 0.x extension are often its bugs), and a longer timeout "
               "only hides a stall.")
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
        "transport stall, no rank at fault"
        + ("; the CUDA 'unspecified launch failure' (719) after it is the timed-out kernel's trap, its consequence"
           if c.kinds.get("cuda_error") else ""),
        fix, "medium" if rdma or "UCX" in stacks or "NCCL EP" in stacks else "low", [], [e.brief() for e in evs[:4]],
        job_wide=True)


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
    if boot and not evs and c.samples.get("env_rank_twice"):
        # two launch environments shown giving one RANK of one world: the bootstrap's wrong-sized messages are two
        # processes connecting as one rank (lead rules AA (1), V (1); verdict.world.rank_twice_bootstrap)
        from ncclDoctor.diagnose.verdict.world import rank_twice_bootstrap
        v = rank_twice_bootstrap(c, boot)
        if v is not None:
            return v
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


def _all_joined(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    k = _first(ks, "all_joined")
    if k is None:
        return None
    return Verdict(
        "transport_stall",
        k.message + ": the data path stalled (a link, a NIC, a GPU that stopped)",
        "Run `ncclDoctor check --nodes N` (or nccl-tests' all_reduce_perf) on the same nodes to find the slow or "
        "broken link; a rerun with NCCL_P2P_DISABLE=1 tells a broken GPU peer-to-peer (P2P) path from the network, "
        "NCCL_DEBUG=INFO shows the transport each channel uses; dmesg / nvidia-smi for Xid errors. While it hangs, "
        "py-spy dump --pid PID on every rank confirms they all wait inside the collective." + _plugin_words(c),
        "medium",
        [],
        k.evidence,
    )


def _plugin_words(c: Collected) -> str:
    """An external net plugin NCCL's set-up lines show it running over ("NET/OFI Using aws-ofi-nccl 1.6.0"): the
    data path that stalled is the plugin's (libfabric's provider under it), so a run without it tells the two apart."""
    from ncclDoctor.diagnose.verdict.noise import _OWN_NETS

    plugins = sorted(n for n in c.networks if n not in _OWN_NETS and not n.endswith("_using"))
    if not plugins:
        return ""
    said = ", ".join(n + (f" ({c.networks[n + '_using'][:60]})" if c.networks.get(n + "_using") else "")
                     for n in plugins[:3])
    return (f" NCCL ran over an external net plugin ({said}), not its internal IB/Socket transports: rerun once "
            "without the plugin (NCCL_NET=Socket, or NCCL_NET_PLUGIN=none) to tell the plugin and its "
            "fabric provider (libfabric's FI_* settings, FI_LOG_LEVEL=warn) from the GPUs and the job.")


def _group_runs(c: Collected) -> list[dict]:
    """The runs of the job's subgroup prints (parse._group_print): each file's runs; where every file holds one run
    (each process's own log), those are one run of the job, read together."""
    evs = c.job_prints.get("group_prints", [])
    if len(evs) > 1 and all(len(e.data["runs"]) == 1 for e in evs):
        enter, past, went_on = {}, [], set()
        for e in evs:
            enter.update(e.data["runs"][0]["enter"])
            past += e.data["runs"][0]["past"]
            if e.data["runs"][0].get("went_on"):
                went_on |= set(e.data["runs"][0]["enter"])  # that file's processes printed more after the barrier
        return [{"enter": enter, "past": past, "went_on": went_on}]
    return [{**r, "went_on": set(r["enter"]) if r.get("went_on") else set()} for e in evs for r in e.data["runs"]]


def _subgroup_stall(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules BZ (4), B (round 96's pytorch-130102, adjudicated): the job's own prints list, as each process
    enters its subgroup's barrier, the members of that subgroup ("0 before barrier: [0, 3]", "1 before barrier: [1,
    2]"); where every listed member of each subgroup is shown entering it with the same list, those lists are that
    collective's world -- no member of the group is missing (rule AI (4) needs one not shown). When, in one run, a
    member of every subgroup prints that it got past it ("0 done", "2 done") -- so each group's connections were
    made (rule H's network_setup needs every member stuck with none past) -- while other members never print past
    it, with no timeout, error or failure record, every member was inside and the collective did not finish: rule B's
    transport_stall, nobody named (the numbers are the job's prints, no rank tags: rules AC (1), BV (1)), low. How the
    groups were created (each process calling new_group with its own list, rule D's desync) is not shown, so it goes
    into the fix (rule T). Not where a subgroup's listed member never prints entering it, a process lists a group it
    is not in, no member is shown past, or every member is -- nor where the job printed other lines after the run's
    start, at the input's end (parse._groups_went_on: the job went on, or a "done" was read from those last lines;
    review 96 finding 1)."""
    if not c.job_prints.get("group_prints") or not quiet(c):
        return None
    for run in _group_runs(c):
        enter, past = run["enter"], set(run["past"])
        groups = sorted({tuple(m) for m in enter.values()})
        if len(enter) < 2 or any(who not in m for who, m in enter.items()) or any(
                enter.get(x) != list(g) for g in groups for x in g):
            continue
        stuck = sorted(set(enter) - past)
        if not stuck or any(not set(g) & past for g in groups) or set(stuck) & run["went_on"]:
            continue  # (went_on: the job printed more after the run's start, past its members' prints: it went on)
        lists = "[" + ", ".join("[" + ", ".join(map(str, g)) + "]" for g in groups) + "]"
        done = sorted(past & set(enter))
        return Verdict(
            "transport_stall",
            f"the job's own prints show every member of each subgroup {lists} entering that subgroup's barrier "
            f"(their lists give the collective's world: no member is missing), and {_plural(done)} "
            f"{', '.join(map(str, done))} -- at least one of every subgroup -- printing past it while "
            f"{', '.join(map(str, stuck))} never {'does' if len(stuck) == 1 else 'do'}, with no timeout, error or "
            "failure record: every member was inside and the collective did not finish for some of them (the "
            "groups' connections were made, since a member of each got through); the numbers are the job's own "
            "prints, not rank tags, so no rank is named",
            "Every rank must call new_group for every subgroup in the same order, including the groups it is not a "
            f"member of (a process that calls new_group only for its own list pairs its communicators with the "
            f"wrong peers) -- or let torch do it: dist.new_subgroups_by_enumeration({lists}). Give each subgroup's "
            "barrier its device: torch.cuda.set_device(local_rank) before creating groups / calling barrier, "
            "init_process_group(device_id=torch.device('cuda', local_rank)), and pass device_ids=[local_rank] to "
            "dist.barrier on the subgroup. If it still hangs, rerun with NCCL_DEBUG=INFO and py-spy stacks of the "
            "ranks that never print done (py-spy dump --pid PID), with TORCH_DISTRIBUTED_DEBUG=DETAIL (torch checks "
            "every rank calls the same collective) and a collective timeout, so the hang ends in an error that names "
            "the collective and its members.",
            "low", [], [e.brief() for e in c.job_prints["group_prints"][:2]], job_wide=True)
    return None


def _plural(ids: list[int]) -> str:
    return "process" if len(ids) == 1 else "processes"


# UCX refusing to register a buffer with the NIC: its registration cache's "rcache.c:985 UCX ERROR failed to insert
# region 0x... [0x0..0x0]: Invalid parameter", or the verbs call itself ("UCX ERROR ibv_reg_mr(address=..., ...)
# failed"): the memory registration a net plugin (UCX under NCCL/RCCL's rccl-rdma-sharp-plugins, NCCL_PLUGIN_P2P=UCX)
# asks for while it connects its channels
_R_UCX_REG = re.compile(r"\bUCX\s{1,4}ERROR\s{1,4}(?:failed to insert region\b|"
                        r"ibv_reg_(?:dmabuf_)?mr\([^\n]{0,300}?\) failed\b)")


def _net_plugin_register(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules J, X (3), AQ (1): UCX's own memory registration failing (_R_UCX_REG) while NCCL's UCX net plugin
    connects its channels -- the plugin's "Failed: UCX error ... -5", the proxy's "Failed to execute operation Connect",
    then an internal error -- is the host/stack refusing to register the (GPU) buffer: a system call of that node
    failing, read by its own error (nccl_system), not the network; the peers' "Connection closed by remote peer"
    after it is each process tearing its set-up down. Every process shown failing alike names no rank (round 109's
    rccl-1261). None where UCX registered everything it was asked to, and none where the lines do not show the
    registration breaking the connection set-up (no failed Connect of the proxy, no failing net plugin): beside a
    completed run the UCX line is chatter (rule K), beside a hang in a later collective the hang's reading stays
    (rule O; review a of round 109, finding 1)."""
    reg = [u for u in c.unread if _R_UCX_REG.search(u.text)]
    if not reg:
        return None
    broke = [e for e in c.samples.get("nccl_warn", []) if _R_PLUGIN_CONNECT.search(e.data.get("warn") or e.text)]
    if not broke:
        return None
    closed = any(e.data.get("what") == "Connection closed by remote peer" for e in c.samples.get("socket_error", []))
    hosts = sorted({h for u in reg if (h := u.host or (m.group(1) if (m := _R_UCX_HOST.search(u.text)) else None))})
    gdr = sorted({v for n in ("NCCL_NET_GDR_LEVEL",) for v in c.settings.get(n, ())})
    return Verdict(
        "nccl_system",
        "UCX could not register a buffer with the NIC while the net plugin connected NCCL's channels ('"
        + _R_UCX_REG.search(reg[0].text).group(0) + "'"
        + (f", on {', '.join(hosts[:4])}" if hosts else "") + "): the host's RDMA stack refused the memory "
        "registration (GPU memory for GPUDirect RDMA) and the connection set-up failed on it ('"
        + (broke[0].data.get("warn") or broke[0].text).strip()[:120] + "'): a system call of the node failing before "
        "any data moved" + ("; the 'Connection closed by remote peer' after it is the set-up torn down, not the network"
                            if closed else "")
        + ("; every process shown fails alike, so no rank is at fault" if len(hosts) > 1 else ""),
        "Check GPU peer memory for the NIC: amdgpu peer-direct / ib_peer_mem or nvidia-peermem, or enable dmabuf "
        "(NCCL_ENABLE_DMABUF_SUPPORT=1), iommu=pt on the kernel command line; raise the locked-memory limit (ulimit -l "
        "unlimited); disable GPUDirect RDMA for the plugin as a test (NCCL_NET_GDR_LEVEL=LOC"
        + (f", not {gdr[0]}" if gdr else "") + "), or drop the UCX net plugin and use the built-in IB/RoCE transport "
        "(NCCL_NET_PLUGIN=none / unset NCCL_PLUGIN_P2P=UCX); rebuild UCX and the plugin against the installed "
        "NCCL/RCCL and ROCm/CUDA (--with-rocm / --with-cuda); UCX_LOG_LEVEL=debug to see why rcache rejects the "
        "region.",
        "medium", [], [u.brief() for u in reg[:2]] + [broke[0].brief()], job_wide=True)


# the connection set-up failing on it: the net plugin's own failure ("ucx_plugin.c:498 NCCL WARN Failed: UCX error"),
# the proxy's "[Proxy Service 1] Failed to execute operation Connect from rank 1, retcode 3" or its "Error encountered
# progressing operation=Connect"
_R_PLUGIN_CONNECT = re.compile(r"^Failed: UCX error\b|Failed to execute operation (?:Connect|Setup)\b|"
                               r"Error encountered progressing operation=(?:Connect|Setup)\b")


# UCX's own log prefix "[1721186746.658016] [node02:10366:1]": the host that printed the line
_R_UCX_HOST = re.compile(r"^\[\d{9,11}\.\d{1,9}\]\s{1,4}\[([A-Za-z0-9][\w.-]{0,62}):\d{1,9}\s{0,4}:\d{1,4}\]")
