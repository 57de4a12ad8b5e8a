"""The environment-variable table: data, not code.

One row per variable that NCCL, torch's process groups, gloo or the launcher reads (and
a few that people set although nothing reads them). Rules in ``ncclDoctor.rules.env``
walk this table; nothing else should hard-code variable facts.

Sources: NCCL's user guide "Environment Variables" and its source (NCCL_PARAM
definitions, src/misc/param.cc for the conf files), torch's ProcessGroupNCCL.hpp /
FlightRecorder.hpp (2.9.1 and 2.13 wheels) and docs/source/torch_nccl_environment_variables.rst.
Collected in shared/knowledge/nccl_env_vars.md and torch_env_and_flight_recorder.md.

Columns:

``status``    ``current`` read today; ``deprecated`` still read, but an alias of (or
              superseded by) ``replacement``; ``removed`` ignored since ``removed_in``;
              ``never-existed`` no version ever read it (people copy it from blogs);
              ``image-metadata`` nothing reads it, but container images set it to
              record what they installed (NCCL_VERSION): surfaced, never a finding
``kind``      how the value is parsed: ``int`` (``valid`` = (lo, hi)), ``bool`` (0/1),
              ``enum`` (``valid`` = choices, case-insensitive), ``list`` (comma list of
              ``valid`` tokens, ``^`` excludes), ``level`` (a topology distance name or a
              legacy integer), ``ifnames`` (NCCL's prefix/=exact/^exclude interface
              syntax), ``gloo-ifnames`` (exact names only), ``hcas`` (NCCL_IB_HCA
              syntax), ``path``, ``bytes`` (positive integer), ``str``
``debug_only`` NCCL's guide lists it under "Debugging": not for production scripts.
              ``debug_values`` narrows that to some values (NCCL_DEBUG=TRACE);
              ``debug_severity`` raises it from info to warning where the knob is risky.
``default``   in words, by version where it changed; ``value_default`` the number
              today's release uses, for arithmetic (NCCL_IB_TIMEOUT x NCCL_IB_RETRY_CNT).
"""

from __future__ import annotations

from dataclasses import dataclass

# Prefixes whose values ncclDoctor surfaces in every report.
SURFACED_PREFIXES = (
    "NCCL_",
    "TORCH_NCCL_",
    "TORCH_FR_",
    "TORCH_DISTRIBUTED_",
    "GLOO_",
    "MASTER_",
)
SURFACED_NAMES = ("CUDA_VISIBLE_DEVICES", "OMP_NUM_THREADS", "WORLD_SIZE", "TORCHELASTIC_RUN_ID")
# Prefixes whose every variable should be in the table: an unknown name there is a typo
# or a myth. MASTER_* and the rest belong to launchers that read whatever they like.
LINTED_PREFIXES = ("NCCL_", "TORCH_NCCL_", "TORCH_FR_", "TORCH_DISTRIBUTED_", "GLOO_")

LEVELS = ("LOC", "NVL", "PIX", "PXB", "PHB", "SYS")
NCCL_ALGOS = ("RING", "TREE", "COLLNET", "COLLNETCHAIN", "COLLNETDIRECT", "NVLS", "NVLSTREE", "PAT")
NCCL_PROTOS = ("LL", "LL128", "SIMPLE")
NCCL_SUBSYS = (
    "INIT", "COLL", "P2P", "SHM", "NET", "GRAPH", "TUNING", "ENV", "ALLOC", "ALLOC_HOST", "CALL",
    "PROXY", "NVLS", "BOOTSTRAP", "REG", "PROFILE", "RAS", "DESTROY", "ALL",
)


@dataclass(frozen=True)
class EnvVar:
    name: str
    owner: str  # nccl | torch | gloo | launcher | cuda | openmp
    meaning: str
    default: str | None = None
    status: str = "current"
    replacement: str | None = None
    removed_in: str | None = None
    debug_only: bool = False
    kind: str = "str"
    valid: tuple = ()
    since: str | None = None
    debug_values: tuple[str, ...] = ()
    debug_severity: str | None = None
    value_default: int | None = None
    risk: str | None = None


_V = EnvVar
_B = ("0", "1")

TABLE: tuple[EnvVar, ...] = (
    # --- NCCL: the guide's "System configuration" section (v2.29 env page) ---------------
    _V("NCCL_DEBUG", "nccl", "NCCL log level: VERSION, WARN, INFO or TRACE.", "unset (no logs)", kind="enum",
       valid=("VERSION", "WARN", "INFO", "TRACE", "ABORT"), debug_only=True, debug_values=("TRACE",),
       debug_severity="warning",
       risk="TRACE asks for replayable trace information on every call: slow, with huge logs. Use INFO (or WARN) in "
            "production."),
    _V("NCCL_DEBUG_SUBSYS", "nccl", "Subsystems logged at INFO (INIT, NET, ENV, COLL, ...; ^X excludes).",
       "INIT,BOOTSTRAP,ENV", kind="list", valid=NCCL_SUBSYS),
    _V("NCCL_DEBUG_FILE", "nccl", "Write NCCL logs to this file; %h = host, %p = pid; ~ is not expanded.", "stdout",
       kind="path"),
    _V("NCCL_DEBUG_TIMESTAMP_FORMAT", "nccl", "strftime format of log timestamps.", "[%F %T] ", since="2.26"),
    _V("NCCL_DEBUG_TIMESTAMP_LEVELS", "nccl", "Log levels that get a timestamp.", "WARN", since="2.26"),
    _V("NCCL_SOCKET_IFNAME", "nccl",
       "Interfaces NCCL uses for bootstrap and the socket transport (prefixes; =exact; ^exclude).",
       "auto (ib* first, lo/docker* last)", kind="ifnames"),
    _V("NCCL_SOCKET_FAMILY", "nccl", "Force IPv4 (AF_INET) or IPv6 (AF_INET6) for sockets.", "auto", kind="enum",
       valid=("AF_INET", "AF_INET6")),
    _V("NCCL_SOCKET_NTHREADS", "nccl", "CPU threads per socket connection (socket transport); threads x sockets <= 64.",
       "1", kind="int", valid=(1, 16)),
    _V("NCCL_NSOCKS_PERTHREAD", "nccl", "Sockets per thread (socket transport).", "1", kind="int", valid=(1, 64)),
    _V("NCCL_SOCKET_RETRY_CNT", "nccl", "Connect retries on ETIMEDOUT/ECONNREFUSED/EHOSTUNREACH.", "34", kind="int",
       valid=(0, 1 << 20), since="2.24"),
    _V("NCCL_SOCKET_RETRY_SLEEP_MSEC", "nccl",
       "Base sleep between socket retries, growing linearly (~60 s in total by default).", "100", kind="int",
       valid=(0, 1 << 20), since="2.24"),
    _V("NCCL_IB_HCA", "nccl",
       "Which RDMA NICs/ports NCCL uses (prefix match unless =; mlx5_1 also matches mlx5_10..19).", "all", kind="hcas"),
    _V("NCCL_IB_TIMEOUT", "nccl", "InfiniBand verbs ack timeout exponent: 4.096 us x 2^value (0 or >= 32: no timeout).",
       "20 since NCCL 2.23; 18 in 2.14-2.22; 14 before", kind="int", valid=(1, 31), value_default=20),
    _V("NCCL_IB_RETRY_CNT", "nccl", "InfiniBand retry count (a 3-bit queue-pair field).", "7", kind="int", valid=(0, 7),
       value_default=7),
    _V("NCCL_IB_GID_INDEX", "nccl", "RoCE GID index; -1 = automatic (NCCL's own hint blames forced wrong indexes).",
       "-1", kind="int", valid=(-1, 255)),
    _V("NCCL_IB_ADDR_FAMILY", "nccl", "GID auto-selection address family.", "AF_INET", kind="enum",
       valid=("AF_INET", "AF_INET6"), since="2.21"),
    _V("NCCL_IB_ADDR_RANGE", "nccl", "GID auto-selection address range (CIDR).", None, since="2.21"),
    _V("NCCL_IB_ROCE_VERSION_NUM", "nccl", "RoCE version for GID auto-selection.", "2", kind="int", valid=(1, 2),
       since="2.21"),
    _V("NCCL_IB_TC", "nccl", "InfiniBand traffic class.", "0", kind="int", valid=(0, 255)),
    _V("NCCL_IB_FIFO_TC", "nccl", "Traffic class of the control messages.", "NCCL_IB_TC", kind="int", valid=(0, 255)),
    _V("NCCL_IB_SL", "nccl", "InfiniBand service level.", "0", kind="int", valid=(0, 15)),
    _V("NCCL_IB_RETURN_ASYNC_EVENTS", "nccl", "Stop IB communication on fatal asynchronous events.", "1", kind="bool",
       valid=_B, since="2.23"),
    _V("NCCL_NET", "nccl", "Force the network module (IB, Socket, or a plugin name).", "auto", since="2.10"),
    _V("NCCL_NET_PLUGIN", "nccl", "Network plugin library suffix or name; none disables plugins.", "auto"),
    _V("NCCL_TUNER_PLUGIN", "nccl", "Tuner plugin library.", None),
    _V("NCCL_PROFILER_PLUGIN", "nccl", "Profiler plugin library.", None),
    _V("NCCL_ENV_PLUGIN", "nccl", "Environment plugin library.", None),
    _V("NCCL_CROSS_NIC", "nccl",
       "Whether rings/trees may use different NICs on different nodes (0 same rail, 1 allow, 2 prefer same).", "2",
       kind="int", valid=(0, 2)),
    _V("NCCL_COLLNET_ENABLE", "nccl", "SHARP CollNet plugin.", "0", kind="bool", valid=_B),
    _V("NCCL_TOPO_FILE", "nccl", "XML topology file to load.",
       "/var/run/nvidia-topologyd/virtualTopology.xml if present", kind="path"),
    _V("NCCL_TOPO_DUMP_FILE", "nccl", "Dump the detected topology to this XML file.", None, kind="path"),
    # graph/search.cc reads it (ncclTopoGetGraphFromXml, with NCCL_GRAPH_DUMP_FILE its counterpart): it replaces
    # NCCL's own ring/tree search; vendor images set it for one VM type in /etc/nccl.conf
    _V("NCCL_GRAPH_FILE", "nccl", "Load the ring/tree graphs from this XML file instead of searching them "
       "(undocumented).", None, kind="path", debug_only=True, debug_severity="warning",
       risk="A graph file written for another machine (a VM image's graph.xml for another VM type) makes init "
       "fail or every collective slow: unset it (also in /etc/nccl.conf) unless it was made for these nodes."),
    _V("NCCL_GRAPH_DUMP_FILE", "nccl", "Dump the searched ring/tree graphs to this XML file (undocumented).", None,
       kind="path"),
    _V("NCCL_CONF_FILE", "nccl",
       "NCCL configuration file, read instead of ~/.nccl.conf (/etc/nccl.conf is read as well).", None, kind="path"),
    _V("NCCL_SET_THREAD_NAME", "nccl", "Name NCCL's threads.", "0", kind="bool", valid=_B),
    _V("NCCL_IGNORE_CPU_AFFINITY", "nccl", "Ignore the job's CPU affinity and use only the GPU's.", "0", kind="bool",
       valid=_B),
    _V("NCCL_CHECK_MODE", "nccl", "Argument checking: DEFAULT, DEBUG_LOCAL, DEBUG_GLOBAL.", "DEFAULT", kind="enum",
       valid=("DEFAULT", "DEBUG_LOCAL", "DEBUG_GLOBAL"), since="2.29.7"),
    _V("NCCL_SOCKET_POLL_TIMEOUT_MSEC", "nccl", "Poll timeout between bootstrap socket retries (reduces CPU use).", "0",
       kind="int", valid=(0, 1 << 31), since="2.28"),
    _V("NCCL_OOB_NET_ENABLE", "nccl", "Use the NCCL network (not sockets) for the init-time allgather.", None,
       kind="bool", valid=_B, since="2.23"),
    _V("NCCL_OOB_NET_IFNAME", "nccl", "Devices for out-of-band traffic when NCCL_OOB_NET_ENABLE=1 (NCCL list syntax).",
       None, kind="hcas", since="2.23"),
    _V("NCCL_UID_STAGGER_THRESHOLD", "nccl", "Ranks per unique id above which contacting the root is staggered.", "256",
       kind="int", valid=(1, 1 << 31), since="2.23"),
    _V("NCCL_UID_STAGGER_RATE", "nccl", "Messages per second targeted when staggering.", "7000", kind="int",
       valid=(1, 1 << 31), since="2.23"),
    _V("NCCL_COLLNET_NODE_THRESHOLD", "nccl", "Node count below which CollNet is not used.", "2", kind="int",
       valid=(0, 1 << 31), since="2.9.9"),
    _V("NCCL_CTA_POLICY", "nccl", "Communicator CTA policy: DEFAULT, EFFICIENCY, ZERO (| combines; 0/1/2 legacy).",
       "DEFAULT", since="2.27"),
    _V("NCCL_NETDEVS_POLICY", "nccl", "How NICs are assigned to GPUs: AUTO, MAX:N or ALL.", "AUTO", since="2.28"),
    # --- NCCL: the guide's "Debugging" section (v2.29): "should not be used in production
    # nor retained in scripts, or only as workaround". Kept apart from the section above.
    _V("NCCL_IB_QPS_PER_CONNECTION", "nccl", "Queue pairs per connection (routing entropy).", "1", kind="int",
       valid=(1, 128), since="2.10", debug_only=True),
    _V("NCCL_IB_SPLIT_DATA_ON_QPS", "nccl", "Split each message across the queue pairs.",
       "0 since 2.20; 1 in 2.18-2.19", kind="bool", valid=_B, debug_only=True),
    _V("NCCL_IB_PCI_RELAXED_ORDERING", "nccl",
       "PCIe Relaxed Ordering for IB verbs: 0 off, 1 force (init fails where unavailable), 2 auto.", "2", kind="int",
       valid=(0, 2), since="2.12", debug_only=True),
    _V("NCCL_IB_ADAPTIVE_ROUTING", "nccl", "Adaptive routing on IB.", "1 on IB, 0 on RoCE", kind="bool", valid=_B,
       since="2.16", debug_only=True),
    _V("NCCL_IB_ECE_ENABLE", "nccl", "Enhanced Connection Establishment.", "1", kind="bool", valid=_B, debug_only=True),
    _V("NCCL_IB_MERGE_NICS", "nccl", "Merge the ports of dual-port NICs.", "1", kind="bool", valid=_B, since="2.20",
       debug_only=True),
    _V("NCCL_NET_GDR_READ", "nccl", "GPUDirect RDMA on the send side.", "1 on NVLink platforms, else 0", kind="bool",
       valid=_B, debug_only=True),
    _V("NCCL_NET_GDR_C2C", "nccl", "GPUDirect RDMA over C2C.", "1 since 2.27", kind="bool", valid=_B, debug_only=True),
    _V("NCCL_NVLS_ENABLE", "nccl", "NVLink SHARP (0 off, 1 on and fail without it, 2 auto).", "2", kind="int",
       valid=(0, 2), since="2.17", debug_only=True),
    _V("NCCL_CUMEM_ENABLE", "nccl", "Use cuMem* allocations for NCCL buffers.", "auto since 2.19; 0 in 2.18",
       kind="bool", valid=_B, debug_only=True),
    _V("NCCL_CUMEM_HOST_ENABLE", "nccl", "cuMem host allocations.", "1 since 2.24 (driver >= 12.6)", kind="bool",
       valid=_B, debug_only=True),
    _V("NCCL_MNNVL_ENABLE", "nccl", "Multi-node NVLink (needs cuMem and IMEX).", "auto", kind="int", valid=(0, 2),
       since="2.21", debug_only=True),
    _V("NCCL_RUNTIME_CONNECT", "nccl",
       "Connect peers lazily at the first collective (errors then surface there, not at init).", "1", kind="bool",
       valid=_B, since="2.22", debug_only=True),
    _V("NCCL_COMM_BLOCKING", "nccl", "Blocking (1) or non-blocking (0) communicators.", "blocking", kind="bool",
       valid=_B, since="2.14", debug_only=True),
    _V("NCCL_RAS_ENABLE", "nccl", "RAS subsystem (query job health with ncclras).", "1", kind="bool", valid=_B,
       since="2.24", debug_only=True),
    _V("NCCL_RAS_ADDR", "nccl", "host:port of the RAS listener.", "localhost:28028", since="2.24", debug_only=True),
    _V("NCCL_LAUNCH_ORDER_IMPLICIT", "nccl", "Order kernels of different communicators by host program order.", "0",
       kind="bool", valid=_B, since="2.26", debug_only=True),
    _V("NCCL_IPC_USE_ABSTRACT_SOCKET", "nccl", "Abstract Unix sockets for CUDA IPC (can break multi-container jobs).",
       "1", kind="bool", valid=_B, since="2.29", debug_only=True),
    _V("NCCL_P2P_NET_CHUNKSIZE", "nccl", "Chunk size of point-to-point transfers over the network.", "131072",
       kind="bytes", debug_only=True),
    _V("NCCL_P2P_NVL_CHUNKSIZE", "nccl",
       "Chunk size of point-to-point transfers over NVLink (undocumented NCCL_PARAM).", "524288", kind="bytes",
       debug_only=True),
    _V("NCCL_P2P_PCI_CHUNKSIZE", "nccl", "Chunk size of point-to-point transfers over PCIe (undocumented NCCL_PARAM).",
       "131072", kind="bytes", debug_only=True),
    _V("NCCL_P2P_DIRECT_DISABLE", "nccl", "Forbid direct access to user buffers across GPUs of one process.", "0",
       kind="bool", valid=_B, debug_only=True),
    _V("NCCL_NVB_DISABLE", "nccl", "Disable NVLink through an intermediate GPU.", "0", kind="bool", valid=_B,
       since="2.11", debug_only=True),
    _V("NCCL_P2P_PXN_LEVEL", "nccl", "When PXN is used for send/recv (0, 1, 2).", "2", kind="int", valid=(0, 2),
       since="2.12", debug_only=True),
    _V("NCCL_IB_AR_THRESHOLD", "nccl", "Size above which IB data goes in a separate, adaptively routed message.",
       "8192", kind="bytes", debug_only=True, since="2.6"),
    _V("NCCL_MEM_SYNC_DOMAIN", "nccl", "CUDA memory sync domain of NCCL kernels (0 or 1).", "1", kind="int",
       valid=(0, 1), debug_only=True, since="2.16"),
    _V("NCCL_NET_SHARED_BUFFERS", "nccl", "One shared buffer pool for inter-node point-to-point.", "1", kind="bool",
       valid=_B, debug_only=True, since="2.8"),
    _V("NCCL_NET_SHARED_COMMS", "nccl", "Reuse connections for PXN.", "1", kind="bool", valid=_B, debug_only=True,
       since="2.12"),
    _V("NCCL_PXN_C2C", "nccl", "Allow PXN through C2C + PCIe.", "1 since 2.28; 0 in 2.27", kind="bool", valid=_B,
       debug_only=True, since="2.27"),
    _V("NCCL_GRAPH_REGISTER", "nccl", "User-buffer registration under CUDA Graphs.", "1", kind="bool", valid=_B,
       debug_only=True, since="2.11"),
    _V("NCCL_LOCAL_REGISTER", "nccl", "User-buffer registration on ncclCommRegister.", "1", kind="bool", valid=_B,
       debug_only=True, since="2.19"),
    _V("NCCL_LEGACY_CUDA_REGISTER", "nccl", "Register cudaMalloc buffers (can synchronize implicitly and hang).", "0",
       kind="bool", valid=_B, debug_only=True, since="2.24"),
    _V("NCCL_WIN_ENABLE", "nccl", "Window memory registration.", "1", kind="bool", valid=_B, debug_only=True,
       since="2.27"),
    _V("NCCL_SET_STACK_SIZE", "nccl", "Set the CUDA stack size to NCCL's maximum at load.", "0", kind="bool", valid=_B,
       debug_only=True, since="2.9"),
    _V("NCCL_GRAPH_MIXING_SUPPORT", "nccl", "Outstanding NCCL calls from parallel CUDA graphs.", "1", kind="bool",
       valid=_B, debug_only=True, since="2.13"),
    _V("NCCL_DMABUF_ENABLE", "nccl", "GPUDirect RDMA registration through Linux dma-buf.", "1", kind="bool", valid=_B,
       debug_only=True, since="2.13"),
    _V("NCCL_P2P_LL_THRESHOLD", "nccl", "Largest point-to-point message sent with the LL protocol.", "16384",
       kind="bytes", debug_only=True, since="2.14"),
    _V("NCCL_ALLOC_P2P_NET_LL_BUFFERS", "nccl", "Dedicated LL buffers for every point-to-point network connection.",
       "0", kind="bool", valid=_B, debug_only=True, since="2.14"),
    _V("NCCL_CGA_CLUSTER_SIZE", "nccl", "CUDA thread-block cluster size of NCCL kernels (sm90+).", None, kind="int",
       valid=(0, 8), debug_only=True, since="2.16"),
    _V("NCCL_MNNVL_UUID", "nccl", "Override the multi-node NVLink UUID (normally set by the Fabric Manager).", None,
       debug_only=True, since="2.25"),
    _V("NCCL_MNNVL_CLIQUE_ID", "nccl", "Override the multi-node NVLink clique id (soft partitioning).", None,
       debug_only=True, since="2.25"),
    _V("NCCL_RAS_TIMEOUT_FACTOR", "nccl", "Multiplier for the RAS subsystem's timeouts.", "1", kind="int",
       valid=(1, 1 << 20), debug_only=True, since="2.24"),
    _V("NCCL_LAUNCH_RACE_FATAL", "nccl", "Fail when host threads race to launch on one device.", "1", kind="bool",
       valid=_B, debug_only=True, since="2.26"),
    _V("NCCL_IB_DISABLE", "nccl", "Disable InfiniBand/RoCE; NCCL falls back to TCP sockets.", "0", debug_only=True,
       kind="bool", valid=_B),
    _V("NCCL_P2P_DISABLE", "nccl", "Disable GPU peer-to-peer (NVLink/PCIe) transport.", "0", debug_only=True,
       kind="bool", valid=_B),
    _V("NCCL_P2P_LEVEL", "nccl", "Maximum GPU-to-GPU distance for P2P (LOC, NVL, PIX, PXB, PHB, SYS).", "auto",
       debug_only=True, kind="level", valid=LEVELS),
    # undocumented (transport/p2p.cc NCCL_PARAM(P2pUseCudaMemcpy, "P2P_USE_CUDA_MEMCPY", 0)); NVIDIA/nccl#1480
    _V("NCCL_P2P_USE_CUDA_MEMCPY", "nccl",
       "Undocumented: intra-node P2P copies by the copy engine (cudaMemcpy from NCCL's proxy thread), not kernels.",
       "0", debug_only=True, kind="bool", valid=_B, debug_severity="warning",
       risk="Not a tuning knob: NCCL's maintainers say it does not do what users expect and should not be set "
            "(NVIDIA/nccl#1480, a hang under nsys); unset it."),
    _V("NCCL_SHM_DISABLE", "nccl", "Disable the shared-memory transport.", "0", debug_only=True, kind="bool", valid=_B),
    _V("NCCL_NET_GDR_LEVEL", "nccl", "Maximum GPU-to-NIC distance for GPUDirect RDMA (LOC, PIX, PXB, PHB, SYS).",
       "auto", debug_only=True, kind="level", valid=LEVELS),
    _V("NCCL_PXN_DISABLE", "nccl", "Disable PXN (inter-node traffic through a non-local NIC via NVLink).", "0",
       debug_only=True, kind="bool", valid=_B, since="2.12"),
    _V("NCCL_ALGO", "nccl",
       "Restrict collective algorithms (Ring, Tree, NVLS, PAT, ...); unknown tokens fail since 2.24.", "auto",
       debug_only=True, kind="list", valid=NCCL_ALGOS, debug_severity="warning",
       risk="Forcing an algorithm overrides NCCL's tuning for every size and topology; NCCL >= 2.24 fails when it is "
            "unavailable."),
    _V("NCCL_PROTO", "nccl", "Restrict protocols (LL, LL128, Simple); LL128 where unsupported can corrupt data.",
       "auto", debug_only=True, kind="list", valid=NCCL_PROTOS, debug_severity="warning",
       risk="NCCL's guide: users are discouraged from setting it; LL128 where unsupported can corrupt data."),
    _V("NCCL_BUFFSIZE", "nccl", "Per-peer buffer size in bytes.", "4194304", debug_only=True, kind="bytes"),
    _V("NCCL_NTHREADS", "nccl", "CUDA threads per block (64, 128, 256, 512).", "512", debug_only=True, kind="enum",
       valid=("64", "128", "256", "512")),
    _V("NCCL_MAX_CTAS", "nccl", "Maximum CTAs (channels) per collective (<= 64; 32 before 2.25).", None,
       debug_only=True, kind="int", valid=(1, 64), since="2.17"),
    _V("NCCL_MIN_CTAS", "nccl", "Minimum CTAs (channels) per collective (<= 64; 32 before 2.25).", None,
       debug_only=True, kind="int", valid=(1, 64), since="2.17"),
    _V("NCCL_LAUNCH_MODE", "nccl", "PARALLEL or GROUP kernel launches (GROUP deprecated in 2.9).", "PARALLEL",
       debug_only=True, kind="enum", valid=("PARALLEL", "GROUP")),
    # --- NCCL: read by the source (NCCL_PARAM / getenv) but not in the guide ----------
    _V("NCCL_COMM_ID", "nccl", "host:port of the bootstrap root when no unique id is passed around (undocumented).",
       None),
    _V("NCCL_HOSTID", "nccl", "Override the host identity NCCL uses to group ranks into nodes (undocumented).", None),
    _V("NCCL_MIN_P2P_NCHANNELS", "nccl", "Minimum channels for point-to-point (undocumented NCCL_PARAM).", "1",
       kind="int", valid=(1, 64), debug_only=True),
    _V("NCCL_MAX_P2P_NCHANNELS", "nccl", "Maximum channels for point-to-point (undocumented NCCL_PARAM).",
       "MAXCHANNELS", kind="int", valid=(1, 64), debug_only=True),
    _V("NCCL_NVLS_NCHANNELS", "nccl", "Channels used by NVLink SHARP (undocumented NCCL_PARAM).", "16", kind="int",
       valid=(1, 64), debug_only=True),
    _V("NCCL_NCHANNELS_PER_NET_PEER", "nccl",
       "Channels per remote peer for point-to-point over the network (undocumented NCCL_PARAM).", None, kind="int",
       valid=(1, 64), debug_only=True),
    # --- NCCL: deprecated, removed, never existed ----------------------------------
    _V("NCCL_MAX_NCHANNELS", "nccl", "Maximum channels.", status="deprecated", replacement="NCCL_MAX_CTAS", kind="int",
       valid=(1, 64)),
    _V("NCCL_MIN_NCHANNELS", "nccl", "Minimum channels.", status="deprecated", replacement="NCCL_MIN_CTAS", kind="int",
       valid=(1, 64)),
    _V("NCCL_MAX_NRINGS", "nccl", "Maximum rings (old name; ignored when NCCL_MAX_NCHANNELS is set).",
       status="deprecated", replacement="NCCL_MAX_CTAS", kind="int", valid=(1, 64)),
    _V("NCCL_MIN_NRINGS", "nccl", "Minimum rings (old name; ignored when NCCL_MIN_NCHANNELS is set).",
       status="deprecated", replacement="NCCL_MIN_CTAS", kind="int", valid=(1, 64)),
    _V("NCCL_IB_GDR_LEVEL", "nccl", "GPUDirect RDMA level (old name, renamed in 2.4.0).", status="deprecated",
       replacement="NCCL_NET_GDR_LEVEL", kind="level", valid=LEVELS),
    _V("NCCL_CHECK_POINTERS", "nccl", "Check CUDA pointers on every call (1 turns the checks on and costs latency).",
       "0", status="deprecated", replacement="NCCL_CHECK_MODE", kind="bool", valid=_B),
    _V("NCCL_IB_CUDA_SUPPORT", "nccl", "Old GPUDirect switch.", status="removed", replacement="NCCL_NET_GDR_LEVEL",
       removed_in="NCCL 2.4.0"),
    _V("NCCL_LL_THRESHOLD", "nccl", "Old LL protocol threshold.", status="removed", removed_in="NCCL 2.5"),
    _V("NCCL_TREE_THRESHOLD", "nccl", "Old tree algorithm threshold.", status="removed", removed_in="NCCL 2.5"),
    _V("NCCL_SINGLE_RING_THRESHOLD", "nccl", "Old single-ring threshold.", status="removed", removed_in="NCCL 2.3"),
    _V("NCCL_CHECKS_DISABLE", "nccl", "Old argument-check switch (deprecated in 2.2.12, no longer read).",
       status="removed", removed_in="NCCL 2.2.12", replacement="NCCL_CHECK_MODE"),
    _V(
        "NCCL_TIMEOUT",
        "nccl",
        "NCCL has no such variable. The collective timeout is torch's "
        "init_process_group(timeout=...); the IB transport timeout is NCCL_IB_TIMEOUT x NCCL_IB_RETRY_CNT.",
        status="never-existed",
    ),
    _V(
        "NCCL_VERSION",
        "nccl",
        "Nothing reads it: NVIDIA's CUDA and NGC container images set it to record the libnccl2 package they "
        "installed (e.g. 2.28.3-1). PyTorch's pip wheels load their own NCCL (nvidia-nccl-*), which may be another "
        "version; the one a job uses is torch.cuda.nccl.version() or NCCL_DEBUG=VERSION. Setting it changes nothing.",
        status="image-metadata",
    ),
    # --- torch's ProcessGroupNCCL, and its legacy NCCL_-prefixed aliases -------------
    _V("TORCH_NCCL_ASYNC_ERROR_HANDLING", "torch",
       "What the watchdog does on a timeout or NCCL error (0 nothing, 1 abort+teardown, 2 abort only, 3 teardown "
       "without abort).",
       "3; torchrun exports 1 to its workers when unset", kind="int", valid=(0, 3)),
    _V("TORCH_NCCL_BLOCKING_WAIT", "torch",
       "wait() blocks until completion or timeout and raises; no watchdog thread runs.", "0", kind="bool", valid=_B),
    _V("TORCH_NCCL_DESYNC_DEBUG", "torch", "On a timeout, report which ranks did not join the collective.", "0",
       kind="bool", valid=_B),
    _V("TORCH_NCCL_ENABLE_TIMING", "torch", "Record start events to time each collective.", "0", kind="bool", valid=_B),
    _V("TORCH_NCCL_DUMP_ON_TIMEOUT", "torch", "Dump the Flight Recorder buffer on a watchdog timeout or exception.",
       "1 (torch >= 2.6); 0 in 2.5", kind="bool", valid=_B),
    _V("TORCH_NCCL_TRACE_BUFFER_SIZE", "torch", "Flight Recorder ring-buffer entries (0 disables).",
       status="deprecated", replacement="TORCH_FR_BUFFER_SIZE", kind="int", valid=(0, 1 << 24)),
    _V("TORCH_NCCL_DEBUG_INFO_TEMP_FILE", "torch", "Flight Recorder dump file prefix.", status="deprecated",
       replacement="TORCH_FR_DUMP_TEMP_FILE", kind="path"),
    _V("TORCH_NCCL_TRACE_CPP_STACK", "torch", "Capture C++ stacks in Flight Recorder entries.", status="deprecated",
       replacement="TORCH_FR_CPP_STACK", kind="bool", valid=_B),
    _V("TORCH_NCCL_DEBUG_INFO_PIPE_FILE", "torch",
       "Named-pipe prefix; writing to <prefix><rank>.pipe triggers a Flight Recorder dump.", "", kind="path"),
    _V("TORCH_NCCL_ENABLE_MONITORING", "torch",
       "Heartbeat monitor that kills a process whose watchdog thread is stuck.", "1", kind="bool", valid=_B,
       debug_only=True, debug_values=("0",), debug_severity="warning",
       risk="With 0 a watchdog stuck in a CUDA/NCCL call is never killed: the job hangs silently instead of failing."),
    _V("TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC", "torch",
       "Seconds the watchdog may be stuck before the heartbeat monitor kills the process.", "480 (torch >= 2.5)",
       kind="int", valid=(1, 1 << 31)),
    _V("TORCH_NCCL_WAIT_TIMEOUT_DUMP_MILSEC", "torch",
       "Extra milliseconds to wait for a Flight Recorder dump before exiting.", "15000", kind="int",
       valid=(0, 1 << 31)),
    _V("TORCH_NCCL_COORD_CHECK_MILSEC", "torch", "Poll interval for another rank's dump signal.", "1000", kind="int",
       valid=(1, 1 << 31)),
    _V("TORCH_NCCL_LOG_CPP_STACK_ON_UNCLEAN_SHUTDOWN", "torch",
       "Log C++ stacks when the watchdog tears the process down.", "1", kind="bool", valid=_B),
    _V("TORCH_NCCL_RETHROW_CUDA_ERRORS", "torch", "Rethrow CUDA errors in the watchdog.", "1", kind="bool", valid=_B),
    _V("TORCH_NCCL_PROPAGATE_ERROR", "torch", "Propagate one rank's NCCL error to all ranks through the store.", "0",
       kind="bool", valid=_B),
    _V("TORCH_NCCL_NAN_CHECK", "torch", "Check collective inputs for NaN.", "0", kind="bool", valid=_B),
    _V("TORCH_NCCL_HIGH_PRIORITY", "torch", "High-priority NCCL streams.", "0", kind="bool", valid=_B),
    _V("TORCH_NCCL_CUDA_EVENT_CACHE", "torch", "Reuse CUDA events (avoids CudaEventDestroy hangs).", None, kind="bool",
       valid=_B),
    _V("TORCH_NCCL_USE_TENSOR_REGISTER_ALLOCATOR_HOOK", "torch",
       "NCCL user-buffer registration via allocator hooks (not with expandable_segments).", "0", kind="bool", valid=_B),
    _V("TORCH_NCCL_EXTRA_DUMP_ON_EXEC", "torch", "Extra Flight Recorder dump on exception.", None, kind="bool",
       valid=_B),
    _V("TORCH_NCCL_BCAST_UNIQUEID", "torch", "Init-time: broadcast the NCCL unique id.", None),
    _V("TORCH_NCCL_RANKS_PER_ROOT", "torch", "Init-time: ranks per unique-id root.", None, kind="int",
       valid=(1, 1 << 31)),
    _V("TORCH_NCCL_SHOW_EAGER_INIT_P2P_SERIALIZATION_WARNING", "torch", "Warn about serialized eager P2P init.", None,
       kind="bool", valid=_B),
    _V("TORCH_NCCL_AVOID_RECORD_STREAMS", "torch", "Now the default behaviour.", status="deprecated"),
    _V("TORCH_FR_BUFFER_SIZE", "torch", "Flight Recorder ring-buffer entries (0 disables recording and dumps).",
       "2000 in torch 2.13; 0 in torch <= 2.9", kind="int", valid=(0, 1 << 24)),
    _V("TORCH_FR_DUMP_TEMP_FILE", "torch", "Flight Recorder dump file prefix; the file is <prefix><rank>.",
       "~/.cache/torch/comm_lib_trace_rank_", kind="path"),
    _V("TORCH_FR_CPP_STACK", "torch", "Capture C++ stacks in Flight Recorder entries.", "0", kind="bool", valid=_B),
    _V("TORCH_FR_DUMP_DYNAMIC_FILE_NAME", "torch", "Re-read the dump prefix on every dump.", "0", kind="bool",
       valid=_B),
    _V("TORCH_DISTRIBUTED_DEBUG", "torch",
       "OFF, INFO or DETAIL; DETAIL checks collective shapes across ranks through an extra gloo group (slow).", "OFF",
       kind="enum", valid=("OFF", "INFO", "DETAIL"), debug_only=True, debug_values=("DETAIL",),
       debug_severity="warning",
       risk="DETAIL checks every collective through an extra gloo group: much slower."),
    _V("NCCL_BLOCKING_WAIT", "torch", "Legacy torch alias; NCCL itself never reads it.", status="deprecated",
       replacement="TORCH_NCCL_BLOCKING_WAIT", kind="bool", valid=_B),
    _V("NCCL_ASYNC_ERROR_HANDLING", "torch", "Legacy torch alias; NCCL itself never reads it.", status="deprecated",
       replacement="TORCH_NCCL_ASYNC_ERROR_HANDLING", kind="int", valid=(0, 3)),
    _V("NCCL_DESYNC_DEBUG", "torch", "Legacy torch alias; NCCL itself never reads it.", status="deprecated",
       replacement="TORCH_NCCL_DESYNC_DEBUG", kind="bool", valid=_B),
    _V("NCCL_ENABLE_TIMING", "torch", "Legacy torch alias; NCCL itself never reads it.", status="deprecated",
       replacement="TORCH_NCCL_ENABLE_TIMING", kind="bool", valid=_B),
    _V("NCCL_USE_TENSOR_REGISTER_ALLOCATOR_HOOK", "torch", "Legacy torch alias; NCCL itself never reads it.",
       status="deprecated", replacement="TORCH_NCCL_USE_TENSOR_REGISTER_ALLOCATOR_HOOK", kind="bool", valid=_B),
    # --- gloo and the launcher ------------------------------------------------------
    _V("GLOO_SOCKET_IFNAME", "gloo",
       "Interface(s) gloo binds to: exact names, comma-separated; every rank must list the same count.",
       "the interface of the host name's address", kind="gloo-ifnames"),
    _V("GLOO_LOG_LEVEL", "gloo", "Log level of the gloo library (read by gloo inside libtorch_cpu).", None),
    _V("GLOO_DISABLE_CONNECTION_RETRIES", "gloo",
       "Do not retry gloo's TCP connections (read by gloo inside libtorch_cpu).", None, kind="bool", valid=_B),
    _V("GLOO_ENABLE_RANK_AS_SEQUENCE_NUMBER", "gloo",
       "gloo connection setup detail (read by gloo inside libtorch_cpu).", None, kind="bool", valid=_B),
    _V("GLOO_ENABLE_STORE_V2_API", "gloo", "gloo store API selection (read by gloo inside libtorch_cpu).", None,
       kind="bool", valid=_B),
    _V("GLOO_ASYNC_TIMEOUT_DEBUG", "torch",
       "Record traces of gloo collectives to report on timeouts (torch's TraceUtils).", None, kind="bool", valid=_B),
    _V("TORCH_GLOO_LAZY_INIT", "torch", "Connect gloo peers lazily, at first use.", "0", kind="bool", valid=_B),
    _V("TORCH_DISTRIBUTED_USE_TORCHCOMMS", "torch",
       "Route torch.distributed through torchcomms (torch 2.13 distributed/config.py).", "0", kind="bool", valid=_B),
    _V("TORCH_DISTRIBUTED_COMPILE_ON_ONE_RANK", "torch",
       "torch.compile on one rank only (torch 2.13 distributed/config.py).", "0", kind="bool", valid=_B),
    _V("GLOO_DEVICE_TRANSPORT", "gloo", "Gloo transport: TCP (Linux default), UV, or TCP_TLS when built with TLS.",
       "TCP", kind="enum", valid=("TCP", "UV", "TCP_TLS")),
    _V("MASTER_ADDR", "launcher", "Address of the rank-0 store (set by torchrun for workers).", None),
    _V("MASTER_PORT", "launcher", "Port of the rank-0 store (set by torchrun for workers).", None, kind="int",
       valid=(1, 65535)),
    _V("WORLD_SIZE", "launcher", "Number of ranks (set by torchrun for workers).", None, kind="int",
       valid=(1, 1 << 31)),
    _V("TORCHELASTIC_RUN_ID", "launcher", "torchrun's rendezvous id.", None),
    _V("CUDA_VISIBLE_DEVICES", "cuda", "GPUs this process may see, in order.", "all"),
    _V("OMP_NUM_THREADS", "openmp", "CPU threads per process for intra-op parallelism (torchrun sets 1 when unset).",
       "1 under torchrun", kind="int", valid=(1, 1 << 16)),
)

BY_NAME: dict[str, EnvVar] = {v.name: v for v in TABLE}
# The current name for each deprecated alias, and the aliases of each current name.
ALIASES: dict[str, list[str]] = {}
for _v in TABLE:
    if _v.status == "deprecated" and _v.replacement:
        ALIASES.setdefault(_v.replacement, []).append(_v.name)


def is_surfaced(name: str) -> bool:
    return name.startswith(SURFACED_PREFIXES) or name in SURFACED_NAMES


def is_linted(name: str) -> bool:
    """Names under a prefix the table claims to cover completely."""
    return name.startswith(LINTED_PREFIXES)
