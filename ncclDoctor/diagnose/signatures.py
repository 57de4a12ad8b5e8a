"""Signatures: what one log line means.

``LineParser.parse(lineno, text)`` returns an ``Event`` or None. Every pattern is
unanchored, because real lines arrive wrapped in launcher prefixes (``[rank0]: ``,
``10: `` from ``srun -l``, ``[80746] ``) or glued after progress-bar output.

Line prefixes understood (torch version where each first appears, from real logs):

- ``[E ProcessGroupNCCL.cpp:737] [Rank 1] ...``                      torch 1.x - 2.1
- ``[rank0]:[E1206 18:44:12.715298746 ProcessGroupNCCL.cpp:607] [Rank 0] ...``  2.2+
- ``[PG 1 Rank 0]``, ``[PG 0 (default_pg) Rank 7]``, ``[PG ID 0 PG GUID 0(default_pg) Rank 1]``
- NCCL's own ``host:pid:tid [dev] NCCL WARN|INFO ...``

Families (``Event.kind``), each matched to the exact strings torch and NCCL print
(format strings from the torch 2.9.1 and 2.13 wheels, see
shared/knowledge/torch_env_and_flight_recorder.md):

===================  ====================================================================
watchdog_timeout     ``Watchdog caught collective operation timeout: WorkNCCL(SeqNum=...)``
                     and ``WorkNCCL(...) timed out in blocking wait``
watchdog_status      ``... detected by watchdog at work: N, last enqueued NCCL work: M,
                     last completed NCCL work: K`` and the 2.9 wording ``failure detected
                     by watchdog at work sequence id: N PG status: last enqueued work: M,
                     last completed work: K``; ``Timeout at NCCL work: N, ...``
nccl_error           ncclSystemError / ncclRemoteError / ncclInternalError /
                     ncclUnhandledCudaError / ncclInvalidUsage (and the older ``NCCL error
                     in: ..., unhandled system error``), with the ``Last error:`` line
ib_completion        ``NET/IB : Got completion from peer ... with error 12`` / ``status=12``
socket_error         connection reset / closed by peer, no route to host, refused
store_timeout        TCPStore connect / wait timeouts, rendezvous timeouts
gloo_error           gloo's transport errors (closed by peer, address family, no address)
heartbeat            the heartbeat monitor killing a stuck watchdog
dataloader           DataLoader worker killed by a signal / bus error (shared memory)
cuda_oom             CUDA out of memory
child_failed         torchrun's ChildFailedError summary (one event per failure entry)
worker_failed        torchrun's ``failed (exitcode: N) local_rank: R (pid: P)``
nccl_warn            any other ``NCCL WARN``
transport            NCCL INFO lines naming the network (IB or the Socket fallback), the
                     interface, ``X set by environment to Y``, and ``rank r nranks n``
===================  ====================================================================
"""

from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass, field
from typing import Any

from ncclDoctor.diagnose.prefilter import guard_all

TEXT_CAP = 400  # characters of a line kept as evidence


@dataclass
class Event:
    kind: str
    where: str  # file:line
    text: str
    rank: int | None = None
    ts: float | None = None  # seconds; comparable only between lines of one clock format
    pg: str | None = None
    seq: int | None = None
    op: str | None = None
    numel_in: int | None = None
    numel_out: int | None = None
    host: str | None = None
    pid: int | None = None
    data: dict[str, Any] = field(default_factory=dict)

    def brief(self) -> str:
        return f"{self.where}: {self.text.strip()[:TEXT_CAP]}"


# --- prefixes: rank, process group, time, host/pid ---------------------------------
R_RANK_TAG = re.compile(r"\[rank(\d+)\]:")
R_PG_RANK = re.compile(
    r"\[(?:PG (?:ID )?(?P<pg>\d+)(?: PG GUID (?P<guid>[^\s(\]]+))? ?(?:\((?P<desc>[^)]*)\) ?)?)?Rank (?P<rank>\d+)\]"
)
R_SRUN = re.compile(r"^\s*(\d+): ")
R_GLOG_TS = re.compile(r"\b[EIWF](\d\d)(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d+))?")
R_ISO_TS = re.compile(r"(\d{4})-(\d\d)-(\d\d)[ T_](\d\d):(\d\d):(\d\d)(?:[.,](\d+))?")
# Bounded quantifiers and a look-behind so a 64 KiB run of word characters costs one pass,
# not one pass per start position (a 50 MB single line once took minutes).
# NCCL 2.0-2.3 printed "host:pid:tid [dev] include/socket.h:194 WARN ..." without the word NCCL.
R_NCCL_PREFIX = re.compile(r"(?<![\w.\-])(?P<host>[\w.\-]{1,255}):(?P<pid>\d{1,10}):(?P<tid>\d{1,10}) "
                           r"\[(?P<dev>\d{1,4})\] "
                           r"(?:NCCL |[\w/.]{1,64}:\d{1,6} )?(?P<lvl>WARN|INFO)")

# --- families -----------------------------------------------------------------------
R_WORK = re.compile(r"Work(?:NCCL|Gloo)?\((?P<body>[^()]*(?:\([^()]*\)[^()]*)*)\)")
R_WORK_CUT = re.compile(r"Work(?:NCCL|Gloo)?\((?P<body>[^()]{1,400})$")  # a terminal wrapped the line
R_KV = re.compile(r"\b(\w{1,32})(?:\(ms\))?=([^,]{1,64})")
R_TIMEOUT = re.compile(r"Watchdog caught collective operation timeout|timed out in blocking wait")
R_GLOO_TIMEOUT = re.compile(r"Timed out waiting (\d+)ms for (?:recv|send) operation")
R_RAN_FOR = re.compile(r"ran for (\d+) milliseconds")
R_STATUS = re.compile(
    r"(?:detected by watchdog at work|watchdog at work sequence id|Timeout at NCCL work):? (?P<at>-?\d+)"
    r"[,.]? *(?:PG status: )?[Ll]ast enqueued (?:NCCL )?work: (?P<enq>-?\d+), [Ll]ast completed (?:NCCL )?work: "
    r"(?P<done>-?\d+)"
)
R_NCCL_CODE = re.compile(r"ncclSystemError|ncclRemoteError|ncclInternalError|ncclUnhandledCudaError|"
                         r"ncclInvalidUsage|ncclInvalidArgument")
R_NCCL_OLD = re.compile(r"(?:NCCL error(?: in: \S+)?[,:] |NCCL failure \S+:\d+ ')(unhandled system error|"
                        r"remote process exited or there was a network error|internal error|unhandled cuda error|"
                        r"invalid usage|invalid argument)")
OLD_CODE = {"unhandled system error": "ncclSystemError",
            "remote process exited or there was a network error": "ncclRemoteError",
            "internal error": "ncclInternalError", "unhandled cuda error": "ncclUnhandledCudaError",
            "invalid usage": "ncclInvalidUsage", "invalid argument": "ncclInvalidArgument"}
R_LAST_ERROR = re.compile(r"Last error:\s*(.*)")
R_IB = re.compile(r"NET/IBP? ?: ?Got completion (?:from peer (?P<peer>\S+) )?with (?:error |status=)\s*(?P<status>\d+)")
R_IB_ASYNC = re.compile(r"NET/IBP? ?: ?Got async event ?: ?([\w ]{1,60})")
R_SOCKET = re.compile(r"Connection reset by peer|Connection closed by (?:remote )?peer|No route to host|Connection "
                      r"refused|Broken pipe|"
                      r"Software caused connection abort|Call to connect returned Connection timed out|Cannot assign "
                      r"requested address|"
                      r"Call to connect failed|is neither AF_INET\(2\) nor AF_INET6|no socket interface found", re.I)
# A socket error while connecting (set-up) rather than a peer that went away mid-run.
R_CONNECT_FAIL = re.compile(r"socket(?:Start|Poll)Connect|Call to connect returned|Call to connect "
                            r"failed|ncclSocketInit|"
                            r"no socket interface found|[Cc]onnect to \S+ (?:failed|returned)|"
                            r"No route to host|Connection refused|connection abort|Cannot assign requested address")
R_PEER_GONE = re.compile(r"reset by peer|closed by (?:remote )?peer|Broken pipe", re.I)
R_VERBS = re.compile(r"Call to (ibv_\w+) failed(?: with error ([\w ]{1,60}))?")
# "Some NCCL operations have failed or timed out": the watchdog's own report (every wording counts)
R_WATCHDOG_REPORT = re.compile(r"Some NCCL operations have failed or timed out|NCCL communicator was aborted on rank "
                               r"(\d+)")
R_PEER = re.compile(r"\b(?:peer|to|from) \[?(\d+\.\d+\.\d+\.\d+|[\w.\-]{1,255})\]?[:<](\d+)")
R_STORE = re.compile(
    r"client socket has timed out after|Timeout waiting for key|Timed out after \d+ seconds waiting for clients|"
    r"RendezvousTimeoutError|RendezvousConnectionError|DistStoreError|Socket Timeout|Wait timeout|connect\(\) timed "
    r"out|client socket has failed to connect to|server socket has failed to (?:listen|bind)|"
    r"timed out (?:while )?(?:trying to connect|waiting for|in store)"
)
R_BIND_PORT = re.compile(r"(?:listen on|bind to) \[?[^\]\s]*\]?:(\d+) \(errno: 98")
R_CONNECT_TO = re.compile(r"connect to \(([^,]+), (\d+)\)|connect to \[?((?:::ffff:)?[\w.\-]+)\]?:(\d+)")
R_GLOO = re.compile(r"gloo|Gloo")
R_GLOO_KIND = re.compile(r"connectFullMesh failed|address family mismatch|[Aa]ddress family not supported|"
                         r"Unknown address family|invalid address family|Unable to find address for:? ?(\S*)|"
                         r"Connection closed by peer|Connection reset by peer")
R_HEARTBEAT = re.compile(r"watchdog got stuck for (\d+) seconds|Heartbeat monitor timed out|[Hh]eartbeat[Mm]onitor.* "
                         r"terminat")
R_DATALOADER = re.compile(r"DataLoader worker \(pids?\(?s?\)? ?([\d, ]+)\)? (?:is killed by signal: (.+?)\.?$|exited "
                          r"unexpectedly)|[Uu]nexpected bus error encountered in worker")
# torch's OOM, a CUDA call's, and NCCL's own ("Cuda failure 'out of memory'", "Failed to CUDA calloc N bytes")
R_OOM = re.compile(r"CUDA out of memory|OutOfMemoryError|CUDA error: out of memory|Cuda failure 'out of memory'|"
                   r"Failed to CUDA [cm]alloc")
R_OOM_TRIED = re.compile(r"Tried to allocate ([\d.]+ [KMGT]?i?B)")
R_WORKER_FAILED = re.compile(r"failed \(exitcode: (-?\d+)\) local_rank: (\d+) \(pid: (\d+)\)")
R_CHILD_FAILED = re.compile(r"ChildFailedError")
R_CF_FIELD = re.compile(r"^\s*(time|host|rank|exitcode|error_file|traceback)\s*: ?(.*)$")
R_CF_RANK = re.compile(r"(-?\d{1,12}) \(local_rank: (-?\d{1,12})\)")
R_CF_EXIT = re.compile(r"(-?\d{1,12}) \(pid: (\d{1,12})\)")
R_SIGNAL = re.compile(r"\b(SIG[A-Z]+)\b")
R_NCCL_WARN = re.compile(r"NCCL WARN (.*)")
R_NET_USING = re.compile(r"NET/(IB|Socket|\w+) ?: ?Using (.*)|Using network (\w+)")
R_NO_IB = re.compile(r"NET/IB ?: ?No device found|Failed to open libibverbs|No IB devices found")
R_SET_BY_ENV = re.compile(r"\b(\w{1,64}) set by environment to (\S+)")
R_NRANKS = re.compile(r"\brank (\d+) nranks (\d+)\b")
R_TORCH_TIMEOUT = re.compile(r"TIMEOUT\(ms\): (\d+)")
# The watchdog thread's own exception (a CUDA error it hit while polling events: the
# first failure of that rank, its peers only lose it), and CUDA errors elsewhere.
R_CUDA_ERROR = re.compile(r"CUDA error: ([^\n]{1,120}?)(?:\.?$|\. )|Triton Error \[CUDA\]: ([^\n]{1,120})|"
                          r"Cuda failure (?:(\d{1,4}) )?'([^']{1,80})'")
R_DUP_GPU = re.compile(r"Duplicate GPU detected ?: rank (\d+) and rank (\d+) both on CUDA device (\w+)")
R_SHM = re.compile(r"posix_fallocate failed|shared memory segment|failed to extend /dev/shm")
# NCCL's return-code trail at INFO level: "NCCL INFO bootstrap.cc:270 -> 2" (2 system,
# 3 internal, 5 invalid usage, 6 remote error); the first file names the failing layer.
R_RETCODE = re.compile(r"(?:NCCL )?INFO (?:[\w/]+/)?(\w+\.(?:cc|h|cu)):\d+ -> (\d)\b")
R_IFACES = re.compile(r"(?:Bootstrap|NET/Socket) ?: ?Using (\[\d+\][^\n]{1,400})")
R_IFACE = re.compile(r"\[\d+\]([\w.\-]+):([^<\s]+)<")
R_DEATH_SIGNAL = re.compile(r"Received (\d{1,2}) death signal")
R_CLOSING = re.compile(r"(?:Sending process|Closing process) \d+ (?:closing signal|via signal) (SIG\w+)")
R_PG_NOT_DESTROYED = re.compile(r"process group has NOT been destroyed")
# The store trying IPv6 first: harmless when it falls back to IPv4 (errno 97 = IPv6 disabled on the host).
# TORCH_DISTRIBUTED_DEBUG=DETAIL's collective fingerprints (ProcessGroupWrapper) and NCCL's own check.
R_MISMATCH = re.compile(r"Detected mismatch between collectives on ranks|NCCL WARN Mismatched collective detected")
R_FINGERPRINT = re.compile(r"Rank (\d+) is running (?:inconsistent )?collective: CollectiveFingerPrint\("
                           r"(?:SequenceNumber=(\d+),? ?)?(?:OpType=(\w+))?(?:, TensorShape=\[([^\]]{0,80})\])?")
R_MISMATCH_AROUND = re.compile(r"at and around rank (\d+)")
R_IPV6 = re.compile(r"The IPv6 network addresses of|\(errno: 97 - Address family not supported by protocol\)")
R_ENV_DEPRECATED = re.compile(r"Environment variable (\w{1,64}) is deprecated; use (\w{1,64})")
# A setting printed in a log: `export NCCL_X=1`, `-e NCCL_X='1'`, an env dump line `NCCL_X=1`.
R_ENV_ASSIGN = re.compile(r"(?:^|[\s`'\"])(?:export\s+|-e\s+)?"
                          r"((?:NCCL|TORCH_NCCL|TORCH_FR|TORCH_DISTRIBUTED|GLOO|CUDA_LAUNCH)_[A-Z0-9_]{1,48})="
                          r"['\"]?([^'\"\s\\]{0,120})")


def parse_timestamp(text: str) -> float | None:
    """Seconds from the line's own clock: ISO (``2024-12-06 18:44:12``) or glog
    (``E1206 18:44:12.715``, no year: read as year 2000, so only compare like with like)."""
    m = R_ISO_TS.search(text)
    if m:
        y, mo, d, h, mi, s, frac = m.groups()
        year = int(y)
    else:
        m = R_GLOG_TS.search(text)
        if not m:
            return None
        mo, d, h, mi, s, frac = m.groups()
        year = 2000
    try:
        base = _dt.datetime(year, int(mo), int(d), int(h), int(mi), int(s), tzinfo=_dt.timezone.utc).timestamp()
    except ValueError:
        return None
    return base + (float("0." + frac) if frac else 0.0)


def _int(v: str | None) -> int | None:
    try:
        return int(str(v).strip()) if v is not None else None
    except ValueError:
        return None


# Last: every R_* above gets a literal prefilter (prefilter.py; the same answers, most lines
# ruled out by a substring test instead of a regex search). Keep this at the end of the module.
guard_all(globals())
