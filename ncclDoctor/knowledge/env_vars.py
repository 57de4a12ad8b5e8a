"""The environment-variable table: data, not code.

One row per variable that NCCL, torch's process groups, gloo or the launcher reads (and
a few that people set although nothing reads them). Rules in ``ncclDoctor.rules.env``
walk this table; nothing else should hard-code variable facts.

Sources: NCCL's user guide "Environment Variables" and its source (NCCL_PARAM
definitions), torch's ProcessGroupNCCL.hpp / FlightRecorder.hpp (2.9.1 and 2.13 wheels)
and docs/source/torch_nccl_environment_variables.rst. Collected in
shared/knowledge/nccl_env_vars.md and torch_env_and_flight_recorder.md.

Status values:

``current``         read today
``deprecated``      still read, but an alias of ``replacement`` or superseded by it
``removed``         once read, ignored since ``removed_in``
``never-existed``   no version ever read it (people copy it from blogs)
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


_V = EnvVar

TABLE: tuple[EnvVar, ...] = (
    # --- NCCL: system configuration -------------------------------------------------
    _V("NCCL_DEBUG", "nccl", "NCCL log level: VERSION, WARN, INFO or TRACE.", "unset (no logs)"),
    _V("NCCL_DEBUG_SUBSYS", "nccl", "Subsystems logged at INFO (INIT, NET, ENV, COLL, ...; ^X excludes).", "INIT,BOOTSTRAP,ENV"),
    _V("NCCL_DEBUG_FILE", "nccl", "Write NCCL logs to this file; %h = host, %p = pid.", "stdout"),
    _V("NCCL_SOCKET_IFNAME", "nccl", "Interfaces NCCL uses for bootstrap and the socket transport (prefixes; =exact; ^exclude).", "auto (ib* first, lo/docker* last)"),
    _V("NCCL_SOCKET_FAMILY", "nccl", "Force IPv4 (AF_INET) or IPv6 (AF_INET6) for sockets.", "auto"),
    _V("NCCL_SOCKET_NTHREADS", "nccl", "CPU threads per socket connection (socket transport).", "1"),
    _V("NCCL_NSOCKS_PERTHREAD", "nccl", "Sockets per thread (socket transport).", "1"),
    _V("NCCL_IB_HCA", "nccl", "Which RDMA NICs/ports NCCL uses (prefix match unless =; mlx5_1 also matches mlx5_10..19).", "all"),
    _V("NCCL_IB_TIMEOUT", "nccl", "InfiniBand verbs ack timeout exponent: 4.096 us x 2^value (0-31).", "20 (since NCCL 2.23)"),
    _V("NCCL_IB_RETRY_CNT", "nccl", "InfiniBand retry count (0-7).", "7"),
    _V("NCCL_IB_GID_INDEX", "nccl", "RoCE GID index; -1 = automatic.", "-1"),
    _V("NCCL_IB_TC", "nccl", "InfiniBand traffic class.", "0"),
    _V("NCCL_IB_SL", "nccl", "InfiniBand service level.", "0"),
    _V("NCCL_NET", "nccl", "Force the network module (IB, Socket, or a plugin name).", "auto"),
    _V("NCCL_NET_PLUGIN", "nccl", "Network plugin library suffix or name.", "auto"),
    _V("NCCL_CROSS_NIC", "nccl", "Whether rings/trees may use different NICs on different nodes (0, 1, 2).", "2"),
    _V("NCCL_NVLS_ENABLE", "nccl", "NVLink SHARP (0 off, 1 on, 2 auto).", "2"),
    _V("NCCL_CUMEM_ENABLE", "nccl", "Use cuMem* allocations for NCCL buffers.", "auto since 2.19"),
    _V("NCCL_TOPO_FILE", "nccl", "XML topology file to load.", None),
    _V("NCCL_CONF_FILE", "nccl", "NCCL configuration file (NCCL >= 2.23; otherwise ~/.nccl.conf and /etc/nccl.conf).", None),
    _V("NCCL_RUNTIME_CONNECT", "nccl", "Connect peers lazily at the first collective (errors then surface there, not at init).", "1"),
    # --- NCCL: debugging knobs (NCCL's guide: do not keep them in production) --------
    _V("NCCL_IB_DISABLE", "nccl", "Disable InfiniBand/RoCE; NCCL falls back to TCP sockets.", "0", debug_only=True),
    _V("NCCL_P2P_DISABLE", "nccl", "Disable GPU peer-to-peer (NVLink/PCIe) transport.", "0", debug_only=True),
    _V("NCCL_P2P_LEVEL", "nccl", "Maximum GPU-to-GPU distance for P2P (LOC, NVL, PIX, PXB, PHB, SYS).", "auto", debug_only=True),
    _V("NCCL_SHM_DISABLE", "nccl", "Disable the shared-memory transport.", "0", debug_only=True),
    _V("NCCL_NET_GDR_LEVEL", "nccl", "Maximum GPU-to-NIC distance for GPUDirect RDMA.", "auto", debug_only=True),
    _V("NCCL_ALGO", "nccl", "Restrict collective algorithms (Ring, Tree, NVLS, ...).", "auto", debug_only=True),
    _V("NCCL_PROTO", "nccl", "Restrict protocols (LL, LL128, Simple); LL128 where unsupported can corrupt data.", "auto", debug_only=True),
    _V("NCCL_BUFFSIZE", "nccl", "Per-peer buffer size in bytes.", "4194304", debug_only=True),
    _V("NCCL_NTHREADS", "nccl", "CUDA threads per block (64, 128, 256, 512).", "512", debug_only=True),
    _V("NCCL_MAX_CTAS", "nccl", "Maximum CTAs (channels) per collective.", None),
    _V("NCCL_MIN_CTAS", "nccl", "Minimum CTAs (channels) per collective.", None),
    # --- NCCL: deprecated, removed, never existed ----------------------------------
    _V("NCCL_MAX_NCHANNELS", "nccl", "Maximum channels.", status="deprecated", replacement="NCCL_MAX_CTAS"),
    _V("NCCL_MIN_NCHANNELS", "nccl", "Minimum channels.", status="deprecated", replacement="NCCL_MIN_CTAS"),
    _V("NCCL_MAX_NRINGS", "nccl", "Maximum rings (old name).", status="deprecated", replacement="NCCL_MAX_CTAS"),
    _V("NCCL_MIN_NRINGS", "nccl", "Minimum rings (old name).", status="deprecated", replacement="NCCL_MIN_CTAS"),
    _V("NCCL_IB_GDR_LEVEL", "nccl", "GPUDirect RDMA level (old name).", status="deprecated", replacement="NCCL_NET_GDR_LEVEL"),
    _V("NCCL_IB_CUDA_SUPPORT", "nccl", "Old GPUDirect switch.", status="removed", replacement="NCCL_NET_GDR_LEVEL", removed_in="NCCL 2.4.0"),
    _V("NCCL_LL_THRESHOLD", "nccl", "Old LL protocol threshold.", status="removed", removed_in="NCCL 2.5"),
    _V("NCCL_TREE_THRESHOLD", "nccl", "Old tree algorithm threshold.", status="removed", removed_in="NCCL 2.5"),
    _V("NCCL_SINGLE_RING_THRESHOLD", "nccl", "Old single-ring threshold.", status="removed", removed_in="NCCL 2.3"),
    _V(
        "NCCL_TIMEOUT",
        "nccl",
        "NCCL has no such variable. The collective timeout is torch's "
        "init_process_group(timeout=...); the IB transport timeout is NCCL_IB_TIMEOUT x NCCL_IB_RETRY_CNT.",
        status="never-existed",
    ),
    # --- torch's ProcessGroupNCCL, and its legacy NCCL_-prefixed aliases -------------
    _V("TORCH_NCCL_ASYNC_ERROR_HANDLING", "torch", "What the watchdog does on a timeout or NCCL error (0 nothing, 1 abort+teardown, 2 abort only, 3 teardown without abort).", "3"),
    _V("TORCH_NCCL_BLOCKING_WAIT", "torch", "wait() blocks until completion or timeout and raises; no watchdog thread runs.", "0"),
    _V("TORCH_NCCL_DESYNC_DEBUG", "torch", "On a timeout, report which ranks did not join the collective.", "0"),
    _V("TORCH_NCCL_ENABLE_TIMING", "torch", "Record start events to time each collective.", "0"),
    _V("TORCH_NCCL_DUMP_ON_TIMEOUT", "torch", "Dump the Flight Recorder buffer on a watchdog timeout or exception.", "1 (torch >= 2.6)"),
    _V("TORCH_NCCL_TRACE_BUFFER_SIZE", "torch", "Flight Recorder ring-buffer entries (0 disables).", status="deprecated", replacement="TORCH_FR_BUFFER_SIZE"),
    _V("TORCH_NCCL_DEBUG_INFO_TEMP_FILE", "torch", "Flight Recorder dump file prefix.", status="deprecated", replacement="TORCH_FR_DUMP_TEMP_FILE"),
    _V("TORCH_NCCL_TRACE_CPP_STACK", "torch", "Capture C++ stacks in Flight Recorder entries.", status="deprecated", replacement="TORCH_FR_CPP_STACK"),
    _V("TORCH_NCCL_DEBUG_INFO_PIPE_FILE", "torch", "Named-pipe prefix; writing to <prefix><rank>.pipe triggers a Flight Recorder dump.", ""),
    _V("TORCH_NCCL_ENABLE_MONITORING", "torch", "Heartbeat monitor that kills a process whose watchdog thread is stuck.", "1"),
    _V("TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC", "torch", "Seconds the watchdog may be stuck before the heartbeat monitor kills the process.", "480"),
    _V("TORCH_NCCL_WAIT_TIMEOUT_DUMP_MILSEC", "torch", "Extra milliseconds to wait for a Flight Recorder dump before exiting.", "15000"),
    _V("TORCH_NCCL_PROPAGATE_ERROR", "torch", "Propagate one rank's NCCL error to all ranks through the store.", "0"),
    _V("TORCH_NCCL_NAN_CHECK", "torch", "Check collective inputs for NaN.", "0"),
    _V("TORCH_NCCL_AVOID_RECORD_STREAMS", "torch", "Now the default behaviour.", status="deprecated"),
    _V("TORCH_FR_BUFFER_SIZE", "torch", "Flight Recorder ring-buffer entries (0 disables recording and dumps).", "2000 in torch 2.13; 0 in torch <= 2.9"),
    _V("TORCH_FR_DUMP_TEMP_FILE", "torch", "Flight Recorder dump file prefix; the file is <prefix><rank>.", "~/.cache/torch/comm_lib_trace_rank_"),
    _V("TORCH_FR_CPP_STACK", "torch", "Capture C++ stacks in Flight Recorder entries.", "0"),
    _V("TORCH_DISTRIBUTED_DEBUG", "torch", "OFF, INFO or DETAIL; DETAIL checks collective shapes across ranks (slow).", "OFF"),
    _V("NCCL_BLOCKING_WAIT", "torch", "Legacy torch alias; NCCL itself never reads it.", status="deprecated", replacement="TORCH_NCCL_BLOCKING_WAIT"),
    _V("NCCL_ASYNC_ERROR_HANDLING", "torch", "Legacy torch alias; NCCL itself never reads it.", status="deprecated", replacement="TORCH_NCCL_ASYNC_ERROR_HANDLING"),
    _V("NCCL_DESYNC_DEBUG", "torch", "Legacy torch alias; NCCL itself never reads it.", status="deprecated", replacement="TORCH_NCCL_DESYNC_DEBUG"),
    _V("NCCL_ENABLE_TIMING", "torch", "Legacy torch alias; NCCL itself never reads it.", status="deprecated", replacement="TORCH_NCCL_ENABLE_TIMING"),
    # --- gloo and the launcher ------------------------------------------------------
    _V("GLOO_SOCKET_IFNAME", "gloo", "Interface(s) gloo binds to: exact names, comma-separated; every rank must list the same count.", "the interface of the host name's address"),
    _V("GLOO_DEVICE_TRANSPORT", "gloo", "Gloo transport: TCP (Linux default) or UV.", "TCP"),
    _V("MASTER_ADDR", "launcher", "Address of the rank-0 store (set by torchrun for workers).", None),
    _V("MASTER_PORT", "launcher", "Port of the rank-0 store (set by torchrun for workers).", None),
    _V("WORLD_SIZE", "launcher", "Number of ranks (set by torchrun for workers).", None),
    _V("TORCHELASTIC_RUN_ID", "launcher", "torchrun's rendezvous id.", None),
    _V("CUDA_VISIBLE_DEVICES", "cuda", "GPUs this process may see, in order.", "all"),
    _V("OMP_NUM_THREADS", "openmp", "CPU threads per process for intra-op parallelism (torchrun sets 1 when unset).", "1 under torchrun"),
)

BY_NAME: dict[str, EnvVar] = {v.name: v for v in TABLE}


def is_surfaced(name: str) -> bool:
    return name.startswith(SURFACED_PREFIXES) or name in SURFACED_NAMES
