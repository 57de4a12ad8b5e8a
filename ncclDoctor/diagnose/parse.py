"""Parse stage: one ``LineParser`` per input turns its hit lines into ``Event``s.

The parser keeps a little per-file state, all of it bounded:

- which rank a line belongs to when the line itself does not say: NCCL's
  ``host:pid:tid`` prefix mapped to a rank by its ``rank r nranks n`` init line (never an
  ncclCommSplit line's: that rank is the sub-communicator's), else by the same thread's ring
  lines ("Ring 02 : 4 -> 19 [send]": rank 4; a thread printing two ranks' rings names none),
  else the only rank the file has named so far, else the rank in the file name;
- the PCI bus id each process of a host printed for a communicator of a given size (and id):
  a second rank on the same one is two ranks on one GPU (``_same_device``);
- torchrun's multi-line failure summary, read field by field (``want_more`` asks the
  scanner for the lines that follow ``Failures:`` / ``Root Cause``);
- the last NCCL error, so the ``Last error:`` line after it lands on it (blank lines between skipped).

How far a job got is read too, as events that name no rank (``_progress``): NCCL's set-up
chatter (``setup``), nccl-tests' device list and header (``run_start``) and its result rows
(``run_done``); and a py-spy frame inside the process group's teardown (``teardown_stuck``).
"""

from __future__ import annotations

import ast
import base64
import json
import re

from ncclDoctor.diagnose import signatures as S
from ncclDoctor.diagnose.generic import is_failure_line
from ncclDoctor.diagnose.signatures import Event, _int

MAX_PIDS = 4096


def _fmt(ranks: list[int]) -> str:
    return " and ".join(map(str, ranks)) if len(ranks) > 1 else f"{ranks[0]} and another rank"


def _numel(v: str | None) -> int | None:
    """NumelIn/NumelOut; 18446744073709551615 (2^64-1, a coalesced op) means 'not applicable'."""
    n = _int(v)
    return None if n is None or n >= 1 << 63 else n


_UNIT = {"B": 1, "KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40}


def _bytes(size: str) -> float:
    """ "21.98 GiB" -> bytes."""
    n, _, unit = size.partition(" ")
    return float(n) * _UNIT.get(unit, 1) if n.replace(".", "", 1).isdigit() else 0.0


def _pid_gap(closed: list[int]) -> tuple[int | None, int | None]:
    """The pid and local rank of the worker torchrun's agent did not stop, when its clean-up lines say them: the agent
    starts local ranks 0..n-1 one after the other (their pids ascend), and after one fails it stops the others
    ("Sending process P closing signal SIGTERM"). When the stopped pids are consecutive but for exactly one missing
    pid inside their run, that pid is the failed worker and its place in the run its local rank. None when the
    stopped pids leave no gap (the failed one may be before or after them), or more than one."""
    pids = sorted(set(closed))
    if len(pids) < 2 or pids[-1] - pids[0] != len(pids):
        return None, None
    gap = next(p for p in range(pids[0], pids[-1]) if p not in pids)
    return gap, gap - pids[0]


def _innermost(rx, text: str):
    """The last of two nested launcher tags ("[rank3]: [rank7]:[E816 ...") is the process's own: the outer one was
    added by whatever collected the lines."""
    first = rx.search(text)
    if first is None or "rank" not in text[first.end():]:
        return first
    return ([first] + list(rx.finditer(text, first.end())))[-1]


# torch >= 2.2's C++ warning lines ("[W506 00:43:56.240378877 TCPStore.cpp:125] ..."), and the prefix torch
# glues to them once the default process group exists ("[rank6]:[W729 ..."; a launcher's "[rank6]: " has a blank)
# the rest of a WorkNCCL(...) text a terminal cut: key=value pieces up to its closing parenthesis, not a new line
_WORK_REST = re.compile(r"^((?:[\w=, ]|\(ms\))*?)\)")
_EARLY_GLOG = re.compile(r"\[W\d{3,4} \d\d:\d\d:\d\d\.\d{9} TCPStore\.cpp:\d+\] \[c10d\] recvValue failed on")
_TORCH_RANK_PREFIX = re.compile(r"\[rank\d{1,7}\]:\[[WEIF]\d")


# ncclGetErrorString's line as torch prints it on its own: "ncclUnhandledCudaError: Call to CUDA function failed."
_R_ERROR_STRING = re.compile(r"^\s*nccl[A-Z]\w*Error: [^:]{5,120}\.\s*$")

_ERR_NEAR = 8  # lines from a runtime's own error line to the fatal signal its process caught after it
_PREAMBLE_NEAR = 4  # lines between two nccl-tests preambles printed by two processes at once (no device line between)
_UNREAD_KEEP = 16  # lines no family reads that announce a failure, kept per file
_MPI_PEER_NEAR = 24  # lines from Open MPI's "peer process has unexpectedly disconnected" to its "Peer host:"

# A glog header of ProcessGroupNCCL whose message a paste wrapped onto the next line right after its rank tag
# ("[rank0]:[E327 17:04:16.98 ProcessGroupNCCL.cpp:565] [Rank 0]" / "Watchdog caught collective operation timeout: ...")
_TAG_CUT = re.compile(r"\.cpp:\d{1,6}\] \[(?:PG [^\]]{0,80})?Rank (\d{1,7})\]\s*$")


def _hosts_gpus(world: object) -> dict[str, list] | None:
    """DeepSpeed's resources as its runner and launcher pass them ({host: [GPU ids]}), or None if it is not that."""
    if isinstance(world, dict) and 0 < len(world) <= 4096 and all(
            isinstance(h, str) and isinstance(v, list) and all(isinstance(g, int) for g in v)
            for h, v in world.items()):
        return world
    return None


def _several_nodes(nnodes: str, multinode_args: bool) -> bool:
    """Whether torchrun's --nnodes value asks for more than one node: a number (or a MIN:MAX range) above 1, or a
    variable ($NNODES) beside the arguments only a multi-node launch needs (--node_rank, --master_addr)."""
    top = nnodes.rpartition(":")[2]
    if top.isdigit():
        return int(top) > 1
    return nnodes.startswith("$") and multinode_args


class LineParser:
    def __init__(self, path: str, rank_hint: int | None = None, hint_is_local: bool = False):
        self.path = path
        self.rank_hint = rank_hint
        self.hint_is_local = hint_is_local
        self.pid_rank: dict[tuple[str, int], int] = {}
        self.busid_rank: dict[tuple[str, str, str], tuple[int, str]] = {}  # (host, busId, nranks) -> (rank, pid)
        self.ring_rank: dict[tuple[str, int, str], int] = {}  # (host, pid, tid) -> rank its ring lines name, -1: two
        self.ranks_named: set[int] = set()
        self.cf_section: str | None = None
        self._cf_listed = False  # inside torchrun's "Failures:" list: the failures besides its root cause
        self.cf: dict[str, str] = {}
        self._cf_ev: Event | None = None  # the summary entry emitted at its error_file line
        self._cf_line = 0  # the line of the summary entry's last field read
        self._pending: Event | None = None  # an entry cut short by a line outside the summary
        # torch.multiprocessing.spawn called with nprocs = the world size (one host: a child's index is its rank)
        self._spawn_world = False
        self._glog_stop: tuple[int, Event] | None = None  # glog's line of a stop signal sent by another process
        self.queued: list[Event] = []  # the further ranks of a record that names several on one line
        # a summary's exitcode line read without its entry (line, event, value), held while its rank line may follow
        self._stray_exit: tuple[int, Event, str] | None = None
        self._wd_cut: tuple[Event, str] | None = None  # a watchdog event whose WorkNCCL(...) text was cut
        self._cf_last, self._cf_more = "", 0  # the last summary field read; traceback lines still allowed
        self._iface_list = False  # inside a NET/Socket interface list printed one interface a line
        self._hvd_missing: Event | None = None  # Horovod 0.28's "Missing ranks:" block: its event once a rank is read
        self._hvd_head = 0  # the line of that block's "Missing ranks:" header, then of its last rank (0: none open)
        self._init_ranks: set[int | None] = set()  # launcher-prefix ranks shown in a set-up frame (R_INIT_FRAME)
        self._gloo_gone: dict[int | None, Event] = {}  # each rank's gloo "closed/reset by peer" error
        self._hvd_open = False  # that rank's list not closed yet on its line ("]" to come: a paste wrapped it)
        self._crash: Event | None = None  # a native crash report whose backtrace frames follow
        self.last_error: Event | None = None
        self.last_error_line = 0
        self._cupy_init = self._cupy_err = 0  # the lines of CuPy's communicator-creation and NcclError frames
        self._paddle_init = 0  # the line of a traceback frame in Paddle's init_parallel_env (its set-up call)
        self.want_last_error = False
        self._detail_next = False  # the last NCCL error was ncclGetErrorString's line alone: its detail may follow
        self._follow = 0
        # a dump of the environment, one "KEY = value" a line, that MASTER_ADDR's line began: (its line, the
        # launch settings read so far, the node's launch_args event once NODE_RANK was read) (parse._env_dump_line)
        self._env_dump: tuple[int, dict[str, str], Event | None] | None = None
        self._cut: tuple[int, str] | None = None  # a hit line a terminal wrapped, waiting for its continuation
        # Lightning's "GLOBAL_RANK: r, MEMBER: r+1/W" announcements of this file: the ranks announced (and how often),
        # the world they name, a rank announced twice so far, the event once announcements interleave (_member)
        self._members: dict[int, int] = {}
        self._member_world: int | None = None
        self._member_dup = False
        self._member_ev: Event | None = None
        self._body = ""  # the current line without its launcher/collector prefixes (signatures.strip_prefixes)
        self.agent_frame: Event | None = None  # a frame of torchrun's own agent (R_AGENT_FRAME)
        # events kept aside and handed on at the end of the file, their lines read on as if unseen: processes per node
        # a launch starts, GPUs a node shows (_launch_gpus); a traceback cut inside init_process_group (finish)
        self.aside: list[Event] = []
        self._connect_warn: tuple[int, str, str] | None = None  # the store client's retried connect warning
        self._init_call = -99  # a traceback's line calling into init_process_group (a frame or its code line)
        self._last_line = -99  # the last non-blank line read
        self.driver_step: Event | None = None  # vLLM's driver generating its P2P access cache (R_VLLM_P2P_CACHE)
        self.tcp_init: Event | None = None  # init_method="tcp://": the store lives in rank 0's process (R_TCP_INIT)
        self.ds_kill: Event | None = None  # DeepSpeed's launcher's first "Killing subprocess" line
        self.store_host: Event | None = None  # a launcher that leaves the store to rank 0's process (R_DS_LAUNCHER)
        self.bars: dict[int | None, Event] = {}  # the last data-preparation bar of each prefix's rank (_bar)
        self.closed_pids: list[int] = []  # the workers torchrun's agent stopped ("Sending process P closing ...")
        self.evals: dict[int | None, Event] = {}  # the last evaluation output of each prefix's rank (_eval)
        self.unread: list[Event] = []  # lines no family reads that announce a failure (generic.is_failure_line)
        self._gather_frame = (-99, "")  # the last traceback frame of an object gather (all_gather_list, ...)
        self._store_frame = -99  # the last line naming the store/rendezvous (a traceback's frames above its exception)
        self._store_reset: tuple[int, Event] | None = None  # an unprefixed store reset warning, its C++ frames follow
        self._barrier_line = -99  # the last line of torchrun's agent waiting on its exit barrier
        self._coll_frame: tuple[int, str] = (-99, "")  # a traceback's frame of a collective call (R_COLL_FRAME)
        # the collective sites tracebacks show (lines of R_COLL_FRAME / R_BACKWARD_FRAME, first 64), the lines of their
        # "Traceback (most recent call last):" headers, and the unsequenced timeouts raised under a collective frame:
        # a timeout's traceback ends at its exception line, so a site after it (or before its header) is another
        # process's (_sites_apart)
        self._sites: list[tuple[int, str]] = []
        self._tb_heads: list[int] = []
        # the last traceback header's line and the rank its launcher prefix names ("[rank3]: Traceback ..."), and an
        # unranked CUDA OOM naming its GPU still waiting for a ranked traceback pasted right below it (_oom_tb_rank)
        self._tb_rank: tuple[int, int | None] = (-999, None)
        self._oom_open: tuple[int, Event] | None = None
        self._site_timeouts: list[Event] = []
        self._mpi_block = -99  # the line of mpirun's "exited with non-zero status" block header
        self._mpi_rank: int | None = None  # the rank its "Process name: [[J,V],N]" line named
        self._self_kill = False  # a serving framework's watchdog or its SIGQUIT seen: a later bare "Killed" is its own
        self._handler_line = -99  # the frame of DeepSpeed's runner's signal handler (R_DS_RUNNER_SIG)
        self._assert_src = (-99, "")  # a traceback's `assert ...` source line (a bare AssertionError's condition)
        self._err_line: tuple[int, str] = (-99, "")  # the last line with an upper-case ERROR (_signal's GASNet case)
        self._done_line = -99  # the job's own "Job completed successfully" (_signal: a SIGTERM after it is teardown)
        self._mpi_peer: tuple[int, Event] | None = None  # Open MPI's peer-disconnected text, its "Peer host:" to come
        self._init_url: tuple[int, str] | None = None  # fairseq's "distributed init (rank N): tcp://A:P": (line, A)
        self._rank0: Event | None = None  # the host that took rank 0 (R_HOST_AS_RANK) and its Bootstrap addresses
        self._preamble: int | None = None  # the line of nccl-tests' last preamble with no device line after it yet
        self._last_exc: tuple[int, Event] | None = None  # the last exception line read (its message may go on)
        self._tag_cut: tuple[int, int] | None = None  # a line a paste wrapped right after its "[Rank N]" tag: (line, N)
        # DeepSpeed's runner: its --world_info decoded ({host: [GPU ids]}), a caller's report of a command's exit
        # status (line, text, status, the events read from its lines), and whether a launcher's own record of a failed
        # worker was read in this file (_ds_status)
        self._ds_world: dict[str, list] | None = None
        self._cmd_status: tuple[int, str, int, list[Event]] | None = None
        self._worker_record = False
        # the coordination service's barrier that timed out (_coord_barrier): its line, its event, and whether the lines
        # now name the tasks that never arrived ("Timed out task names:" read)
        self._coord: tuple[int, Event, bool] | None = None
        # lead rule AF(3): a watchdog rethrow's tail read before any watchdog or CUDA error of this file (its header not
        # shown): (its line, the rank its launcher prefix or the file name gives, or None); False once an error is read
        self._wd_tail: tuple[int, int | None] | None | bool = None
        self._comm_init = ""  # file:line of a traceback's call into NCCL's communicator creation (R_COMM_INIT_FRAME)

    def _rest_of_work(self, body: str) -> None:
        """The line after a watchdog line cut inside WorkNCCL(...): when it is that text's rest ("164000,
        Timeout(ms)=1800000) ran for ..."), the cut event's fields are read again from the whole."""
        ev, head = self._wd_cut
        self._wd_cut = None
        rest = _WORK_REST.match(body.strip())
        if rest is None:
            return
        a, b = head.rstrip(), rest.group(1)
        whole = a + ("" if a[-1:].isdigit() and b[:1].isdigit() else " " if a[-1:] == "," else "") + b
        kv = dict(S.R_KV.findall(whole))
        ev.seq, ev.op = _int(kv.get("SeqNum")), (kv.get("OpType") or "").strip() or None
        ev.numel_in, ev.numel_out = _numel(kv.get("NumelIn")), _numel(kv.get("NumelOut"))
        ev.data["timeout_ms"] = _int(kv.get("Timeout"))
        r = S.R_RAN_FOR.search(body)
        if r and ev.data.get("ran_for_ms") is None:
            ev.data["ran_for_ms"] = int(r.group(1))

    def _site(self, lineno: int, name: str) -> None:
        """A traceback's collective site: a later one than an unsequenced timeout's own exception line is another
        process's (its traceback ended there); a site of another name is recorded on that timeout."""
        if len(self._sites) < 64:
            self._sites.append((lineno, name))
        for ev in self._site_timeouts:
            if name != ev.data["in_collective"] and name not in ev.data["other_sites"]:
                ev.data["other_sites"].append(name)

    def _sites_apart(self, lineno: int, ev: Event) -> None:
        """An unsequenced timeout (gloo's, an old watchdog's) raised right under a collective call's frame: note
        that collective, and the sites of other names that tracebacks before its own header show (lead rule D)."""
        at, name = self._coll_frame
        if lineno - at > 6 or len(self._site_timeouts) >= 8:
            return
        head = max((h for h in self._tb_heads if h < at), default=-1)
        ev.data.update(in_collective=name, other_sites=sorted({n for ln, n in self._sites if ln < head and n != name}))
        self._site_timeouts.append(ev)

    def finish(self) -> Event | None:
        """At the end of the input: a failure-record entry cut short by the paste's end after its ``rank``
        line (a "Root Cause" block whose exit code was not copied) is still that process's entry."""
        if self._cmd_status is not None and self._ds_world is not None:
            self._ds_status()
        if self._stray_exit is not None:  # the paste ended on a stray exit code
            if self._pending is None:
                self._pending = self._stray_exit[1]
            elif self.cf_section is None:
                return self._stray_exit[1]
            self._stray_exit = None
        if self._connect_warn is not None and self._init_call == self._last_line > self._connect_warn[0]:
            # the input ends inside init_process_group: a traceback's header, its frames down to the call and no
            # exception line (the paste was cut), after the store client's retried connect warning -- the process
            # raised where the store is connected, and that warning is the only failure shown (lead rule L)
            lineno, text, host = self._connect_warn
            ev = self._context(lineno, text, "store_timeout")
            ev.rank = None  # the warning names the store's host, not a rank
            ev.data.update(endpoint=host, rendezvous=False, in_use=None, closed=False, init_cut=True)
            self.aside.append(ev)
        ev, self._pending = self._pending, None
        return ev or (self._cut_entry() if self.cf_section is not None else None)

    def _cut_entry(self) -> Event | None:
        """The summary entry being read, ended before its error_file/traceback lines: an event when its
        ``rank`` line was read (the rest of the entry was not pasted), else nothing."""
        if not S.R_CF_RANK.match(self.cf.get("rank", "")):
            return None
        return self._cf_event(self._cf_line, keep=False)

    def want_more(self, _text: str) -> int:
        n, self._follow = self._follow, 0
        return n

    # -- context --------------------------------------------------------------------
    def _context(self, lineno: int, text: str, kind: str) -> Event:
        ev = Event(kind=kind, where=f"{self.path}:{lineno}", text=text.strip()[: S.TEXT_CAP])
        # "[rank9]:[PG ID 5 ... Rank 1]": the launcher's prefix is the global rank, the tag's "Rank 1"
        # the rank inside group 5 (they agree only in the default group). The global one names the
        # process; the tag's rank is used only when nothing else names it.
        m = S.R_PG_RANK.search(text)
        m2 = _innermost(S.R_RANK_TAG, text) or S.R_MPI_TAG.search(text) or S.R_SRUN.search(text) or \
            S.R_SRUN.search(self._body)
        if m and m.group("pg") is not None:
            ev.pg = m.group("pg")
            if m.group("desc"):
                ev.data["pg_desc"] = m.group("desc")
        if m2:
            ev.rank = int(m2.group(1) or m2.group(m2.lastindex or 1))
            if m and ev.pg not in (None, "0") and int(m.group("rank")) != ev.rank:
                ev.data["group_rank"] = int(m.group("rank"))
        elif m:
            ev.rank = int(m.group("rank"))
        m3 = S.R_NCCL_PREFIX.search(text)
        if m3:
            ev.host, ev.pid = m3.group("host"), int(m3.group("pid"))
            ev.data["dev"] = int(m3.group("dev"))  # the process's CUDA device (not a rank)
            if ev.rank is None:
                ev.rank = self.pid_rank.get((ev.host, ev.pid))
            if ev.rank is None and self.ring_rank:  # the thread's own ring lines named its rank
                r = self.ring_rank.get((ev.host, ev.pid, m3.group("tid")), -1)
                ev.rank = r if r >= 0 else None
        if ev.rank is not None:
            if len(self.ranks_named) < 2:
                self.ranks_named.add(ev.rank)
        elif len(self.ranks_named) == 1:
            ev.rank = next(iter(self.ranks_named))
        elif self.rank_hint is not None:
            ev.rank = self.rank_hint
            ev.data["rank_from"] = "local rank directory" if self.hint_is_local else "file name"
        ev.ts = S.parse_timestamp(text)
        return ev

    # -- the families ---------------------------------------------------------------
    def parse(self, lineno: int, text: str) -> Event | None:
        if text.strip():
            self._last_line = lineno
        if "%|" in text:
            self._bar(lineno, text)
        if "Evaluat" in text:
            bare = S.R_ANSI.sub("", text) if "\x1b" in text else text
            m = S.R_EVAL_LINE.search(bare)
            if m:
                self._eval(lineno, bare, m.start(), True)
        if self.agent_frame is None and "distributed/" in text and S.R_AGENT_FRAME.search(text):
            self.agent_frame = Event("agent_frame", f"{self.path}:{lineno}", text.strip()[: S.TEXT_CAP])
        if "process" in text and len(self.closed_pids) < 1024 and (cl := S.R_CLOSING_PID.search(text)):
            self.closed_pids.append(int(cl.group(1)))
        if self.driver_step is not None and not S.R_VLLM_MP_WORKER.search(text) and S.R_VLLM_LOG_HEAD.search(text) \
                and not S.R_RAY_PID.search(text) and lineno > int(self.driver_step.where.rpartition(":")[2]):
            self.driver_step.data["later"] = True  # the driver logged on after it
        if "P2P access cache" in text and not S.R_VLLM_MP_WORKER.search(text) and S.R_VLLM_P2P_CACHE.search(text):
            self.driver_step = Event("driver_step", f"{self.path}:{lineno}", text.strip()[: S.TEXT_CAP])
            self.driver_step.data.update(step="p2p_cache", later=False)
        if self._rank0 is not None and "Using" in text and self._rank0.data["host"] in text:
            ifs = S.R_IFACES.search(text)  # the Bootstrap interface list of the host that took rank 0
            if ifs and len(self._rank0.data["addrs"]) < 16:
                self._rank0.data["addrs"] += [a for _, a in S.R_IFACE.findall(ifs.group(1))]
        if "distributed init" in text and (iu := S.R_INIT_RANK_URL.search(text)):
            self._init_url = (lineno, iu.group(2))
            self._follow = max(self._follow, 2)  # its "initialized host H as rank N" line carries no trigger word
        if "tcp://" in text and self.tcp_init is None and S.R_TCP_INIT.search(text):
            self.tcp_init = Event("tcp_init", f"{self.path}:{lineno}", text.strip()[: S.TEXT_CAP])
        if "launch.py:" in text and self.store_host is None and S.R_DS_LAUNCHER.search(text):
            self.store_host = Event("store_host", f"{self.path}:{lineno}", text.strip()[: S.TEXT_CAP])
            self.store_host.data["launcher"] = "DeepSpeed's launch.py"
        if "Killing subprocess" in text and self.ds_kill is None and S.R_DS_LAUNCHER.search(text):
            # lead rule M: DeepSpeed's launcher kills every worker once one of them exited (or it was stopped):
            # a worker failed, which one and how these lines do not say
            self.ds_kill = Event("worker_failed", f"{self.path}:{lineno}", text.strip()[: S.TEXT_CAP])
            self.ds_kill.data.update(exitcode=None, local_rank=None, pid=None, died=True, launcher_kill=True)
        if (self._init_url is not None and self._rank0 is None and 0 < lineno - self._init_url[0] <= 2
                and "initialized host" in text and (ha := S.R_HOST_AS_RANK.search(S.R_ANSI.sub("", text)))
                and ha.group(2) == "0"):
            self._rank0 = Event("launch_args", f"{self.path}:{lineno}", text.strip()[: S.TEXT_CAP])
            self._rank0.data.update(rank0_host=True, host=ha.group(1).strip(), master=self._init_url[1], addrs=[])
            return self._rank0
        ev = self._parse(lineno, text)
        if "world_info" in text or "non-zero" in text or "WORLD INFO" in text or (
                ev is not None and ev.kind in ("worker_failed", "child_failed")):
            self._ds_runner(lineno, text, ev)
        if self._wd_tail is not False:
            self._headless_tail(lineno, text, ev)
        if "ommInitRank" in text and "NCCL INFO" not in text and S.R_COMM_INIT_FRAME.search(self._body):
            self._comm_init = f"{self.path}:{lineno}"
        if self._comm_init and ev is not None and ev.kind in ("worker_failed", "child_failed"):
            ev.data["comm_init"] = self._comm_init  # the failed process's traceback above it went into that call
        if (ev is not None and ev.rank is None and ev.kind.startswith("watchdog") and self._tag_cut is not None
                and self._tag_cut[0] == lineno - 1):
            ev.rank = self._tag_cut[1]  # its C++ log header, "[Rank N]" last, is the line before: the same message
        tag = _TAG_CUT.search(S.R_ANSI.sub("", text) if "\x1b" in text else text) if "Rank " in text else None
        self._tag_cut = (lineno, int(tag.group(1))) if tag else None
        if self._stray_exit is not None and self._stray_exit[0] < lineno - 1:
            held = self._stray_exit[1]  # no rank line came for it: the exit code alone, as read
            if ev is None:
                ev, self._stray_exit = held, None
            elif self._pending is None:
                self._pending, self._stray_exit = held, None
        if ev is None and self._pending is not None:
            ev, self._pending = self._pending, None
        if ev is None and self.queued:
            ev = self.queued.pop(0)
        return ev

    def _headless_tail(self, lineno: int, text: str, ev: Event | None) -> None:
        """Lead rule AF(3): the tail of a watchdog's rethrow ("Exception raised from ncclCommWatchdog at ...", the
        last lines of a process's watchdog crash) read before any watchdog, NCCL or CUDA error of this file is a
        process whose own error was not pasted; a rank's watchdog CUDA error after it (of another rank than a prefix
        on the tail names) is not shown failing alone. A block shown before the tail (its header, its checkTimeout
        frames: a victim's timeout) ends the search."""
        if ev is not None and ev.kind.startswith(("watchdog", "timeout", "cuda", "nccl_error")):
            tail = self._wd_tail
            if ev.kind == "cuda_error" and ev.data.get("watchdog") and tail and (tail[1] is None or tail[1] != ev.rank):
                ev.data["other_crash"] = f"{self.path}:{tail[0]}"
            self._wd_tail = False
        elif self._wd_tail is None and "ncclCommWatchdog" in text and S.R_WATCHDOG_TAIL.search(self._body):
            own = _prefix_rank(text)
            self._wd_tail = (lineno, self.rank_hint if own is None else own)

    def _bar(self, lineno: int, text: str) -> None:
        """A data preparation step's progress bar (signatures.R_BAR), glued before another line or on its own: the
        last one of each launcher prefix's rank (None: no prefix) is kept in ``bars``, an event of kind ``busy``
        that names no rank (the prefix's is in its data): a bar is how far a step got, not a failure."""
        for m in S.R_BAR.finditer(text):
            h = S.R_BAR_HEAD.search(text[max(0, m.start() - 170): m.start()])
            what = h.group("what").strip(" :") if h else ""
            if not S.R_DATA_BAR.search(what):
                if S.R_EVAL_BAR.search(what):
                    self._eval(lineno, text, m.start(), int(m.group("pct")) < 100 and int(m.group("n")) <
                               int(m.group("total")), (h.group(0) + m.group(0)).strip())
                continue
            rank = int(h.group("rank")) if h.group("rank") is not None else None
            pct, n, total = int(m.group("pct")), int(m.group("n")), int(m.group("total"))
            ev = Event("busy", f"{self.path}:{lineno}", (h.group(0) + m.group(0)).strip()[: S.TEXT_CAP])
            ev.data.update(rank=rank, what=what[:80], pct=pct, done=pct >= 100 or n >= total > 0)
            self.bars[rank] = ev

    def _eval(self, lineno: int, text: str, at: int, running: bool, what: str = "") -> None:
        """An evaluation step's own output (signatures.R_EVAL_BAR/R_EVAL_LINE): a validation bar short of its end, an
        evaluator's progress line. The last one of each launcher prefix's rank before it (None: no prefix, the main
        process's own output) is kept in ``evals``, an event of kind ``evaluating`` that names no rank (the prefix's
        is in its data): how far the evaluation got, not a failure."""
        tags = list(S.R_LAUNCH_TAG.finditer(text, 0, at))
        ev = Event("evaluating", f"{self.path}:{lineno}", (what or text[at:]).strip()[: S.TEXT_CAP])
        ev.data.update(rank=int(tags[-1].group(1)) if tags else None, done=not running, line=lineno)
        self.evals[ev.data["rank"]] = ev

    def _parse(self, lineno: int, text: str) -> Event | None:
        if "\x1b" in text:
            text = S.R_ANSI.sub("", text)  # colours would split the words the patterns look for
        self._body = body = S.strip_prefixes(text)
        if body[:2] in ("**", "__") and body[2:3].isalpha() and body.rstrip().endswith(body[:2]):
            # Markdown emphasis around a pasted line ("**RuntimeError: Connection reset by peer**"): the line itself
            self._body = body = body.rstrip()[2:-2]
        if self._coord is not None and self._coord_line(lineno, body):
            return None
        if ("initialize(" in body or "init_process_group(" in body) and len(self.aside) < 8:
            self._world_call(lineno, text, body)
        if "assert" in body and S.R_ASSERT_SRC.match(body):
            self._assert_src = (lineno, body.strip())
            return None
        if S.R_DNS_STORE.search(body):
            self._store_frame = lineno
        if self._glog_stop is not None and lineno - self._glog_stop[0] <= 8 and "spawn(" in body:
            self._glog_stop[1].data["spawned"] = True  # the process is a spawn launcher's child (its entry frame)
        if "nprocs=" in body and S.R_SPAWN_WORLD.search(body):
            self._spawn_world = True
        if S.R_EXIT_BARRIER.search(body):
            self._barrier_line = lineno
        if 'c10d.py", line' in body and (f := S.R_COLL_FRAME.search(body)):
            self._coll_frame = (lineno, f.group(1))
            self._site(lineno, f.group(1))
        elif ("_object" in body or "all_gather_list" in body) and S.R_OBJECT_GATHER_FRAME.search(body):
            self._gather_frame = (lineno, S.R_OBJECT_GATHER_FRAME.search(body).group(1))
        elif "in backward" in body and S.R_BACKWARD_FRAME.search(body):
            self._site(lineno, "backward")
        elif "Traceback (most recent call last)" in body and len(self._tb_heads) < 64:
            self._tb_heads.append(lineno)
            self._oom_tb_rank(lineno, text)
        if self._store_reset is not None and lineno - self._store_reset[0] <= 24 and "TCPStore::check(" in body:
            # the reset warning's own frames: the client was polling a key (check(), the NCCL heartbeat monitor's
            # poll of the dump flag), not connecting: the store's host had already exited (teardown)
            self._store_reset[1].data["poll"] = True
            self._store_reset = None
        if self._wd_cut is not None:
            self._rest_of_work(body)
        if "ERROR" in body:  # a runtime's own error line (Legion's "[error 67] LEGION ERROR: ..."): a signal may follow
            self._err_line = (lineno, body.strip()[: S.TEXT_CAP])
        if self._mpi_peer is not None and lineno - self._mpi_peer[0] <= _MPI_PEER_NEAR:
            h = S.R_MPI_PEER_HOST.match(body)
            if h:  # the help text's host of the peer that left
                self._mpi_peer[1].data["peer_host"], self._mpi_peer = h.group(1), None
                return None
        if "shut down" in body and S.R_HVD_SHUT_DOWN.search(body):
            ev = self._context(lineno, text, "hvd_shut_down")
            ev.data["reporter"], ev.rank = ev.rank, None  # the rank printing it lost a peer: a victim
            return ev
        if "unexpectedly disconnected" in body and S.R_MPI_PEER_GONE.search(body):
            ev = self._context(lineno, text, "mpi_peer_gone")
            ev.data.update(reporter=ev.rank, peer_host=None)
            ev.rank = None  # the process that prints it is the victim; the one that left is its peer
            self._mpi_peer = (lineno, ev)
            return ev
        if lineno - self._mpi_block <= 8:
            ev = self._mpi_first(lineno, text, body)
            if ev is not False:
                return ev
        elif S.R_MPI_BLOCK.search(body):
            self._mpi_block, self._mpi_rank, self._follow = lineno, None, 8
            return None
        if self.cf_section is not None:
            handled, ev = self._child_failed(lineno, body)
            if handled:
                return ev
        if self._crash is not None:
            f = S.R_FRAME.match(body)
            if not body.strip():  # the blank lines unwrap() leaves for a frame it joined
                self._follow = 2
                return None
            if f or "backtrace" in body:  # the crash handler's frames: which library crashed
                if f and len(self._crash.data["libs"]) < 16:
                    self._crash.data["libs"].append(f.group(1))
                    # the frame's whole file name (R_FRAME reads from its "lib": "mpi_lib_v2.so" gives "lib_v2.so")
                    self._crash.data.setdefault("files", []).append(re.split(r"[/\s]", body[:f.end(1)])[-1])
                self._follow = 2
                return None
            o = S.R_OMPI_HANDLER.match(body) if self._crash.data.get("handler") == "Open MPI" else None
            if o:  # the rest of Open MPI's report: signal code, address, one frame a line
                if o.group(1) and len(self._crash.data["libs"]) < 16:
                    self._crash.data["libs"].append(o.group(1))
                    self._crash.data.setdefault("files", []).append(o.group(1))
                self._follow = 2
                return None
            self._crash = None
        if ("basics.py" in body or "init_process_group" in body) and S.R_INIT_FRAME.search(body):
            self._init_frame(text)
        if "init_parallel_env" in body and S.R_PADDLE_INIT_FRAME.search(body):
            self._paddle_init = lineno  # a traceback's frame inside Paddle's set-up call (_nccl_error reads it)
        if "--nproc" in body or "CUDA Capable" in body or "tasks-per-node" in body or "SLURM_PROCID" in body:
            self._launch_gpus(lineno, text)
        if "init_process_group" in body and (S.R_INIT_CALL.search(body) or S.R_INIT_FRAME.search(body)) and any(
                0 < lineno - h <= 200 for h in self._tb_heads):
            self._init_call = lineno  # a traceback goes into init_process_group (finish: the paste may end there)
        if "failed to connect" in body and (w := S.R_WIN_CONNECT_WARN.search(body)) and self._connect_warn is None:
            self._connect_warn = (lineno, text, w.group("host"))
        if self._hvd_head:
            mr = S.R_HVD_MISSING_RANK.match(body)
            if not mr and lineno - self._hvd_head <= 64 and (self._hvd_open or not body.strip()):
                self._follow = 1  # the rest of a rank's list that a paste wrapped, or the blank unwrap() leaves
                self._hvd_open = "]" not in body and self._hvd_open
                return None
            if mr:  # one rank of Horovod 0.28's "Missing ranks:" block, the tensors it has not submitted
                self._follow, self._hvd_head, self._hvd_open = 1, lineno, "]" not in body[mr.end():]
                names = [n.strip(" .]") for n in body[mr.end():].split(", ")][:64]
                if self._hvd_missing is None:
                    ev = self._context(lineno, text, "hvd_stall")
                    ev.data["reporter"], ev.rank = ev.rank, None  # the coordinator (rank 0) reports the others
                    ev.data.update(how="missing", ranks=[int(mr.group(1))])
                    ev.data["records"] = [("missing", ev.data["ranks"])]  # one record: every rank the block names
                    ev.data["tensors"] = [n for n in dict.fromkeys(names) if n]
                    self._hvd_missing = ev
                    return ev
                held = self._hvd_missing.data
                if len(held["ranks"]) < 1024:
                    held["ranks"].append(int(mr.group(1)))
                    held["tensors"] += [n for n in dict.fromkeys(names) if n and n not in held["tensors"]][:64]
                return None
            self._hvd_head, self._hvd_missing = 0, None
        if ("issing ranks:" in body or "talled ranks:" in body) and S.R_HVD_MISSING_HEAD.search(body):
            self._hvd_head, self._hvd_missing, self._hvd_open, self._follow = lineno, None, False, 1  # ranks follow
            return None
        if self._iface_list:
            m = S.R_IFACE_LINE.match(body)
            if m:  # one line of a NET/Socket interface list
                self._follow = 2
                ev = self._context(lineno, text, "transport")
                ev.data["interfaces"] = [(m.group(1), m.group(2))]
                return ev
            self._iface_list = False
        if self._env_dump is not None and (ev := self._env_dump_line(lineno, text, body)) is not None:
            return ev
        if "GLOBAL_RANK: " in text and (pm := S.R_PL_MEMBER.search(body)):
            return self._member(lineno, text, int(pm.group(1)), int(pm.group(3)))
        if "NET/Socket" in text and S.R_IFACE_LIST.search(text):  # the interfaces follow, one a line
            self._iface_list, self._follow = True, 2
            return None
        if self._cut is not None and not body.strip() and lineno - self._cut[0] <= 8:
            self._follow = 1  # the blank lines unwrap() leaves for the pieces it joined: the rest follows them
            return None
        if "ChildFailedError" in text and "raise" not in text:  # the summary block follows this line
            self._follow = 6
        elif len(body) >= 100 and body.rstrip()[-1:].isalnum() or body.rstrip().endswith("'"):
            # measured without the launcher's and collector's prefixes (a kubectl timestamp, a logging header): the
            # same line must read the same however it was prefixed
            self._follow = max(self._follow, 1)  # a terminal wrapped the line: its rest may hold the signature
            if self._cut is None:
                self._cut = (lineno, text)
        elif self._cut is not None:
            start, head = self._cut
            self._cut = None
            # cut at a blank or inside a word ("collectiv" / "e operation timeout"): both joins are tried
            a, b = head.rstrip(), body.strip()
            # a cut between two digits is inside a number ("NumelOut=5" / "164000"): joined whole first
            glue = ("", " ") if a[-1:].isdigit() and b[:1].isdigit() else (" ", "")
            ev = self._families(start, a + glue[0] + b) or self._families(start, a + glue[1] + b)
            if ev is not None:
                return ev
        if "Failures:" in text or "Root Cause (first observed failure)" in text:
            self.cf_section = "root" if "Root Cause" in text else "other"
            self._cf_listed = self.cf_section == "other"
            self._follow = 8
            return None
        stray = S.R_CF_FIELD.match(body)
        if stray and stray.group(1) == "rank" and S.R_CF_RANK.match(stray.group(2).strip()):
            # an entry pasted without its header: read its fields as the summary's
            self.cf_section, self.cf, self._follow = "other", {"rank": stray.group(2).strip()}, 7
            self._cf_listed = False
            if self._stray_exit is not None and lineno - self._stray_exit[0] <= 2:
                # the entry pasted bottom-up (exitcode, then rank, host, time, "[0]:"): its exit code is this rank's
                self.cf["exitcode"], self._stray_exit = self._stray_exit[2], None
            return None
        if stray and stray.group(1) == "exitcode":  # a summary pasted without its header: keep the exit code
            x = S.R_CF_EXIT.match(stray.group(2).strip())
            ev = Event("child_failed", f"{self.path}:{lineno}", text.strip()[: S.TEXT_CAP])
            ev.data.update(root=False, local_rank=None, exitcode=int(x.group(1)) if x else None,
                           pid=int(x.group(2)) if x else None, signal=None, time=None, traceback="")
            self._stray_exit = (lineno, ev, stray.group(2).strip())  # held a line: a reversed entry's rank may follow
            self._follow = max(self._follow, 2)
            return None
        if self._detail_next and self.last_error is not None and 0 < lineno - self.last_error_line <= 3:
            # NCCL >= 2.29's error text as torch prints it: "ncclUnhandledCudaError: Call to CUDA function failed."
            # and, on the next line, the detail with no "Last error:" label -- when that line is no other family's
            # (a blank line that unwrap() leaves for a piece it joined is passed over)
            detail = self._body.strip()
            if not detail:
                return None
            self._detail_next = False
            if (re.search(r"[A-Za-z]{3}", detail) and not S.R_LAST_ERROR.search(text)  # not a fence or a rule
                    and self._families(lineno, text) is None):
                self.last_error.data["last_error"] = detail[: S.TEXT_CAP]
                self.last_error.text += " | Last error: " + detail[:200]
                return None
        self._detail_next = False
        if self.last_error is not None and lineno - self.last_error_line <= 4 and self._same_rank(text):
            m = S.R_LAST_ERROR.search(text)
            if m or self.want_last_error:
                # the next line's own text, without its paste prefixes (a collector's timestamp) and rank tag
                detail = (m.group(1) if m else S.R_RANK_TAG.sub("", self._body or text)).strip()
                if not m and not (detail and self._body.strip()):  # a blank line between "Last error:" and its text
                    self._follow = 1
                    return None
                self.want_last_error = m is not None and not detail  # NCCL prints it on the next line
                self._follow = 1 if self.want_last_error else 0
                if detail:
                    self.last_error.data["last_error"] = detail[: S.TEXT_CAP]
                    self.last_error.text += " | Last error: " + detail[:200]
                return None
        if "WARN" in text and "NCCL WARN" not in text and S.R_OLD_WARN.search(text):
            self._follow = max(self._follow, 6)  # NCCL 2.0-2.3: its return-code trail follows, without a trigger word
        ev = self._families(lineno, text)
        if ev is None and len(self.unread) < _UNREAD_KEEP and is_failure_line(body):
            # no family's, yet it says something failed: kept aside, read only when nothing else explains the lines
            self.unread.append(Event("unread", f"{self.path}:{lineno}", body.strip()[: S.TEXT_CAP]))
        if ev is not None and self._cut is not None and self._cut[0] == lineno and ev.kind != "traceback_tail":
            self._cut = None  # the line was whole enough to be read: nothing to join (an exception's line read only
            # as "a failure shown" may still be cut before its signature: "... Original reason for failure was: [Rank
            # 0] Watchdog caught collective" / "operation timeout: WorkNCCL(...)")
        return ev

    def _same_rank(self, text: str) -> bool:
        """A line tagged with another rank than the last NCCL error's (tracebacks of several
        ranks interleaved in one file) does not hold that error's "Last error:" text."""
        # the innermost tag, as the error's own rank was read (_context): a paste's "[rank3]: " before it is no rank
        tag = _innermost(S.R_RANK_TAG, text) or S.R_MPI_TAG.search(text)
        return tag is None or self.last_error is None or self.last_error.rank in (
            None, int(tag.group(1) or tag.group(tag.lastindex or 1)))

    def _families(self, lineno: int, text: str) -> Event | None:
        for fn in (self._self_warning, self._watchdog, self._mismatch, self._cuda_error, self._dup_gpu, self._shm,
                   self._nccl_error,
                   self._ib, self._gloo, self._recv_src, self._store, self._socket, self._heartbeat, self._gil_held,
                   self._dataloader, self._oom, self._driver_oom, self._serving,
                   self._shared_build, self._launch_setup, self._worker_failed, self._fatal_python,
                   self._signal, self._exit_noise, self._env, self._torchrun_config,
                   self._beside, self._nccl_info, self._progress, self._no_nccl, self._launch_mode, self._uncaught,
                   self._traceback_tail):
            ev = fn(lineno, text)
            if ev is not None:
                return ev
        return None

    def _self_warning(self, lineno: int, text: str) -> Event | None:
        """A message that calls itself a warning and says how to silence it, whatever error words it quotes ("...
        failed with CUDART error: ... To silence this warning, specify --x"): the program went on without an optional
        feature (lead rule K), read before any family of failures."""
        sw = S.R_SELF_WARNING.search(text) if "this warning" in text else None
        if not sw:
            return None
        ev = self._context(lineno, text, "benign")
        ev.data.update(what="self-declared warning", advice=sw.group(1).rstrip(". ") or None)
        return ev

    def _watchdog(self, lineno: int, text: str) -> Event | None:
        if S.R_TIMEOUT.search(text):
            ev = self._context(lineno, text, "watchdog_timeout")
            whole = S.R_WORK.search(text)
            m = whole or S.R_WORK_CUT.search(text)
            kv = dict(S.R_KV.findall(m.group("body"))) if m else {}
            if m and not whole:  # a terminal cut the WorkNCCL(...) text: its rest may come on the next line
                self._wd_cut, self._follow = (ev, m.group("body")), max(self._follow, 1)
            ev.seq, ev.op = _int(kv.get("SeqNum")), (kv.get("OpType") or "").strip() or None
            ev.numel_in, ev.numel_out = _numel(kv.get("NumelIn")), _numel(kv.get("NumelOut"))
            ev.data["timeout_ms"] = _int(kv.get("Timeout"))
            r = S.R_RAN_FOR.search(text)
            ev.data["ran_for_ms"] = int(r.group(1)) if r else None
            ev.data["blocking_wait"] = "blocking wait" in text
            return ev
        if "checkTimeout" in text and S.R_CHECK_TIMEOUT_FRAME.search(text):
            ev = self._context(lineno, text, "timeout_frames")
            ev.rank = None  # a frame names no rank of its own
            return ev
        g = S.R_GLOO_TIMEOUT.search(text)
        if g:  # gloo has no watchdog: the waiting collective itself raises, without a SeqNum
            ev = self._context(lineno, text, "watchdog_timeout")
            ev.data.update(timeout_ms=int(g.group(1)) if g.group(1) else None, backend="gloo")
            self._sites_apart(lineno, ev)
            return ev
        d = S.R_DUMP_SIGNAL.search(text) if "dump signal" in text else None
        if d:  # the heartbeat monitor's view of this rank's group when a timeout somewhere asked for dumps
            ev = self._context(lineno, text, "watchdog_status")
            ev.data.update(enqueued=int(d.group("enq")), completed=int(d.group("done")),
                           dump_from=ev.rank if d.group("self") else int(d.group("from")))
            return ev
        w = S.R_WATCHDOG_REPORT.search(text)
        # the report glued on one line with the NCCL error it reports: the error is the news
        if w and "Watchdog caught" not in text and not (S.R_NCCL_CODE.search(text) or S.R_NCCL_OLD.search(text)):
            ev = self._context(lineno, text, "watchdog_report")
            return ev
        m = S.R_STATUS.search(text)
        if m:
            ev = self._context(lineno, text, "watchdog_status")
            ev.seq = int(m.group("at"))
            ev.data.update(enqueued=int(m.group("enq")), completed=int(m.group("done")))
            return ev
        return None

    def _serving(self, lineno: int, text: str) -> Event | None:
        """A serving framework's own watchdog (lead rule P, signatures.R_SERVING_WATCHDOG) and its self-kill
        (R_SELF_KILL): after either, the shell's bare "Killed" is the framework killing its process tree."""
        w = S.R_SERVING_WATCHDOG.search(text) if ("timeout" in text or "timed out" in text
                                                  or "RayChannelTimeoutError" in text
                                                  or "waiting for object available" in text
                                                  or "broadcast block" in text) else None
        if w:
            self._self_kill = True
            ev = self._context(lineno, text, "serving_watchdog")
            ev.data.update(timeout_s=_int(w.group(1) or w.group(3)), rpc=w.group(2))
            return ev
        if "SIGQUIT" in text.upper() and S.R_SELF_KILL.search(text):
            self._self_kill = True
            return self._context(lineno, text, "self_kill")
        return None

    def _heartbeat(self, lineno: int, text: str) -> Event | None:
        m = S.R_HEARTBEAT.search(text)
        if not m:
            return None
        ev = self._context(lineno, text, "heartbeat")
        ev.data["stuck_s"] = _int(m.group(1))
        return ev

    def _gil_held(self, lineno: int, text: str) -> Event | None:
        """torch's dump could not take this process's GIL (signatures.R_GIL_HELD): the rank is shown, its Python thread
        busy or stuck -- not a failure of its own, and not a line that puts it inside a collective."""
        return self._context(lineno, text, "gil_held") if "GIL" in text and S.R_GIL_HELD.search(text) else None

    def _nccl_error(self, lineno: int, text: str) -> Event | None:
        m = S.R_NCCL_CODE.search(text)
        code = m.group(0) if m else None
        if code is None:
            m2 = S.R_NCCL_OLD.search(text)
            code = S.OLD_CODE[m2.group(1).lower()] if m2 else None
        in_init = False
        if code is None and "Nccl" in text:  # CuPy's binding (signatures.R_CUPY_COMM_INIT): frames, or a bare class
            if S.R_CUPY_COMM_INIT.search(text):
                self._cupy_init = lineno
            if S.R_CUPY_ERR_INIT.search(text):
                self._cupy_err = lineno
                return None
            if S.R_NCCL_ERROR_CLASS.search(text):
                code = "unknown"
        elif code is None and self._cupy_err and 0 < lineno - self._cupy_err <= 2 and "KeyError" in text:
            k = S.R_KEYERROR_CODE.match(self._body)
            code = S.NCCL_RESULT.get(int(k.group(1))) if k else None
            in_init = code is not None and bool(self._cupy_init) and lineno - self._cupy_init <= 8
        call = S.R_NCCL_CALL_CODE.search(text) if code is None and "NCCL call" in text else None
        if call:  # a harness naming the failed call and its result code by number
            code = S.NCCL_RESULT.get(int(call.group(2)))
        if code is None:
            if "Last error:" not in text:
                return None
            code = "unknown"
        if code == "ncclRemoteError" and self._paddle_init and 0 < lineno - self._paddle_init <= 12 and not any(
                self._paddle_init < h < lineno for h in self._tb_heads):
            in_init = True  # raised under Paddle's init_parallel_env frame, in the same traceback: its set-up
        ev = self._context(lineno, text, "nccl_error")
        ev.data["code"] = code
        if in_init:  # raised while the communicator was being created (its set-up, lead rule L)
            ev.data["in_init"] = True
        if S.R_ASYNC_ABORT.search(text):
            ev.data["mid_run"] = True
        le = S.R_LAST_ERROR.search(text)
        if le:
            ev.data["last_error"] = le.group(1).strip()[: S.TEXT_CAP]
        self.last_error, self.last_error_line, self._follow = ev, lineno, 3
        self._detail_next = bool(code != "unknown" and not le and _R_ERROR_STRING.match(self._body))
        return ev

    def _ib(self, lineno: int, text: str) -> Event | None:
        m = S.R_IB.search(text)
        if m:
            ev = self._context(lineno, text, "ib_completion")
            hca = S.R_IB_HCA.search(text)
            ev.data.update(status=int(m.group("status")), peer=m.group("peer"), hca=hca.group(1) if hca else None)
            return ev
        k = S.R_KERNEL_QP_ERR.search(text) if ": QP " in text else None
        st = S.WC_STATUS_MSG.get(k.group(2).strip().lower()) if k else None
        if st:  # the kernel's RDMA driver (a pasted dmesg) reporting a queue pair's error completion
            ev = self._context(lineno, text, "ib_completion")
            ev.data.update(status=st, peer=None, hca=k.group(1))
            return ev
        w = S.R_WC_RETRY.search(text) if "retry count" in text else None
        if w:  # an RDMA engine's own report of a work completion's status (ibv_wc_status_str's words)
            ev = self._context(lineno, text, "ib_completion")
            hca, peer = S.R_LOCAL_NIC.search(text) or S.R_IB_HCA.search(text), S.R_PEER_NIC.search(text)
            ev.data.update(status=12 if w.group(1) else 13, peer=peer.group(1) if peer else None,
                           hca=hca.group(1) if hca else None)
            return ev
        o = S.R_OFI.search(text)
        if o:
            ev = self._context(lineno, text, "ib_completion")
            ev.data.update(status=None, peer=None, ofi_rc=int(o.group(1)), ofi_err=int(o.group(2)),
                           ofi_name=(o.group(3) or "").strip())
            return ev
        f = S.R_LIBFABRIC_CQ.search(text) if "libfabric:" in text else None
        if f:  # libfabric's provider logging a completion error itself (EFA's efa_rdm_txe_handle_error)
            ev = self._context(lineno, text, "ib_completion")
            h = S.R_LIBFABRIC_PEER.search(text)
            ev.data.update(status=None, peer=h.group(1) if h else None, ofi_rc=int(f.group(2)), ofi_err=None,
                           ofi_name=(f.group(3) or "").strip(), ofi_prov=f.group(1))
            return ev
        a = S.R_IB_ASYNC.search(text)
        v = None if a else S.R_VERBS.search(text)
        if v and v.group(1) == "ibv_open_device":
            return None  # NCCL's device enumeration skips an HCA it cannot open (a harmless WARN, verdict.quiet)
        if v:
            ev = self._context(lineno, text, "ib_completion")
            ev.data.update(status=None, verbs=v.group(1), verbs_error=(v.group(2) or "").strip(), peer=None)
            return ev
        q = (S.R_CREATE_QP.search(text) if not a and ("NET/IB" not in text or "mlx5dv_create_qp" in text) and
             ("create QP" in text or "queue pair" in text) else None)
        if q:  # an RDMA engine's own words for ibv_create_qp refused (verdict.fabric._verbs_resource), and NCCL's
            # "NET/IB: mlx5dv_create_qp failed to create QP: <strerror>" (net_ib's mlx5 direct-verbs path, the same
            # local allocation on the HCA: lead rule J)
            ev = self._context(lineno, text, "ib_completion")
            ev.data.update(status=None, verbs="ibv_create_qp", verbs_error=(q.group(1) or "").strip(), peer=None)
            return ev
        if not a or S.R_IB_ASYNC_INFO.match(a.group(1).strip()):
            return None  # lead rule U(1): the subnet manager's informational events fail nothing
        ev = self._context(lineno, text, "ib_completion")
        ev.data.update(status=None, async_event=a.group(1).strip(), peer=None)
        return ev

    def _mismatch(self, lineno: int, text: str) -> Event | None:
        """A desync stated outright: TORCH_DISTRIBUTED_DEBUG=DETAIL's fingerprint check names
        two ranks and what each runs; NCCL's own check names a rank 'at and around'; gloo's
        size check; and torch's monitored_barrier names the ranks that never arrived."""
        mb = S.R_MONITORED.search(text)
        if mb:
            ev = self._context(lineno, text, "monitored_barrier")
            ev.rank = None  # rank 0 reports the others
            ranks = mb.group(1) or mb.group(3)
            ev.data.update(ranks=[int(r) for r in ranks.split(",")][:64],
                           timeout_ms=int(mb.group(2)) if mb.group(2) else None, errors=bool(mb.group(3)))
            return ev
        hv = S.R_HVD_STALL.search(text) if " ranks: " in text else None
        if hv:  # Horovod's stall inspector: the coordinator lists who did (ready) or did not (missing) submit a tensor
            ev = self._context(lineno, text, "hvd_stall")
            ev.data["reporter"], ev.rank = ev.rank, None  # the coordinator (rank 0) reports the others
            ev.data.update(how=hv.group(1), ranks=[int(r) for r in hv.group(2).split(",")][:1024])
            # one line may hold several stalled tensors, each with its own list ("A [ready ranks: 3], B [ready
            # ranks: 2, 0, 1], ..."): every record is kept, in order
            ev.data["records"] = [(m.group(1), [int(r) for r in m.group(2).split(",")][:1024])
                                  for m in S.R_HVD_STALL.finditer(text)][:256]
            return ev
        xr = S.R_XLA_RENDEZVOUS.search(text) if "may be stuck" in text else None
        if xr:  # XLA's rendezvous of a collective's participants: this one waits, others never came (unnamed)
            ev = self._context(lineno, text, "xla_rendezvous")
            cq = S.R_XLA_CLIQUE.search(xr.group(1))
            devices = [d for d in re.split(r"[,\s]+", cq.group(2)) if d] if cq else []
            ev.rank = None  # the rank in the clique that waits: a victim, kept in the data
            ev.data.update(what=xr.group(1).split(";")[0].strip()[:120], waited_s=int(xr.group(2)),
                           expected=int(xr.group(3)), waiting=int(cq.group(1)) if cq else None,
                           clique=len(devices) or None)
            return ev
        lb = S.R_LOAD_BARRIER.search(text) if "finish the model loading" in text else None
        if lb:  # a serving engine's post-load barrier: this rank arrived, others did not (their ranks unnamed)
            ev = self._context(lineno, text, "load_barrier")
            ev.rank = int(lb.group(1))
            return ev
        lag = S.R_LAGGING.search(text) if ("collective #" in text or "lagging ranks" in text) else None
        if lag:  # torch's desync report: the ranks it found out of step (the reporter's tag is not theirs)
            ev = self._context(lineno, text, "lagging_report")
            ev.rank = None
            how = "start" if lag.group("start") else "end" if lag.group("end") else "never"
            ev.seq = _int(lag.group("sseq") or lag.group("eseq"))
            ev.data.update(how=how, ranks=[int(r) for r in lag.group(how).split(",")][:256])
            return ev
        up = S.R_GATHER_UNPICKLE.search(text) if "npickl" in text else None
        gf = self._gather_frame
        if up or ("npickl" in text and lineno - gf[0] <= 8
                  and S.R_UNPICKLE_EXC.search(self._body.strip().split(":")[0])):
            ev = self._context(lineno, text, "desync_report")
            ev.rank = None  # the reporter received the others' bytes; who fell out of step is not said
            ev.data.update(prints=[], around=None, objects=True,
                           differ=f"{gf[1] if not up else 'all_gather_list'} could not unpickle the data the other "
                           "workers sent: they did not enter the gather together (or sent more than its buffer holds)")
            return ev
        gp = S.R_GLOO_PREAMBLE.search(text)
        if gp:
            ev = self._context(lineno, text, "desync_report")
            ev.data.update(prints=[], around=None, differ=f"gloo received a message of {gp.group(1)} bytes where this "
                           f"rank posted {gp.group(2)} (op.preamble.length <= op.nbytes)")
            return ev
        fo = S.R_FSDP_ORDER.search(text) if "Forward order differs" in text else None
        if fo:
            ev = self._context(lineno, text, "desync_report")
            ev.rank = None  # the ranks are in the message, not the reporter's tag
            ev.data.update(prints=[], around=None, fsdp=True, differ=f"FSDP's forward order: rank {fo.group(1)} is "
                           f"all-gathering {fo.group(2)} while rank {fo.group(3)} is all-gathering {fo.group(4)}"[:200])
            return ev
        if not S.R_MISMATCH.search(text):
            return None
        ev = self._context(lineno, text, "desync_report")
        ev.rank = None  # the ranks are in the message, not the reporter's tag
        prints = [{"rank": int(r), "seq": _int(q), "op": op or None, "shape": shape or None}
                  for r, q, op, shape in S.R_FINGERPRINT.findall(text)]
        around = S.R_MISMATCH_AROUND.search(text)
        ev.data.update(prints=prints[:2], around=int(around.group(1)) if around else None)
        diff = text.split("differ in the following aspects:", 1)
        ev.data["differ"] = " ".join(diff[1].split())[:200] if len(diff) > 1 else None
        return ev

    def _cuda_error(self, lineno: int, text: str) -> Event | None:
        """A CUDA error a rank hit itself: the watchdog thread's exception, a kernel's
        error, or the 'Cuda failure N' NCCL names. Not a peer's consequence. Also the
        driver's own Xid lines from dmesg (the GPU or driver failed)."""
        x = S.R_XID.search(text) if "Xid" in text else None
        if x:
            ev = self._context(lineno, text, "cuda_error")
            ev.rank = None  # a kernel log line: the GPU's PCI address, not a rank
            cause = S.R_XID_CAUSE.search(text)
            ev.data.update(what=f"Xid {x.group(2)} on GPU {x.group(1)}", cuda_code=None, watchdog=False,
                           xid=int(x.group(2)), pci=x.group(1), cause_xid=int(cause.group(1)) if cause else None)
            return ev
        h = S.R_HSA_HW.search(text) if "HW Exception" in text else None
        if h:  # the HSA runtime's hardware exception of one GPU (ROCm's Xid): which rank holds it is not said
            ev = self._context(lineno, text, "cuda_error")
            ev.rank = None
            ev.data.update(what=f"HSA hardware exception on GPU node-{h.group(1)}: {h.group(2).strip()}",
                           cuda_code=None, watchdog=False, hsa_node=int(h.group(1)))
            return ev
        if "finishedGPUExecutionInternal" in text and S.R_CUDA_CHECK_FRAME.search(self._body):
            ev = self._context(lineno, text, "cuda_check")
            ev.data.update(what="a CUDA error found by the watchdog's check of a finished work", watchdog=True)
            return ev
        m = S.R_CUDA_ERROR.search(text)
        if not m or "ncclUnhandledCudaError" in text or "out of memory" in text:
            return None  # "CUDA error: out of memory" is an OOM (see _oom)
        if self.last_error is not None and m.group(4) and lineno - self.last_error_line <= 4:
            return None  # the Last error line after ncclUnhandledCudaError lands on that event
        what = m.group(1) or m.group(2) or m.group(4) or m.group(5) or m.group(7) or m.group(9) or m.group(10) or ""
        if "driver shutting down" in what:  # cudaErrorCudartUnloading: CUDA torn down as the process exits
            ev = self._context(lineno, text, "benign")
            ev.data["what"] = "CUDA 'driver shutting down' at process exit (a thread outlived CUDA's teardown)"
            return ev
        ev = self._context(lineno, text, "cuda_error")
        ev.data.update(what=what.strip(), cuda_code=_int(m.group(3) or m.group(6)), watchdog="watchdog thread" in text)
        return ev

    def _same_device(self, lineno: int, text: str) -> Event | None:
        """Two ranks on one GPU, read from lines that do not say so (signatures.R_COMM_BUSID, R_IPC_DEV)."""
        p = S.R_NCCL_PREFIX.search(text)
        b = S.R_COMM_BUSID.search(text) if p and "busId" in text else None
        if b:
            cid = S.R_COMM_ID.search(text)  # two runs in one file are two communicators: 2.1x+ print their ids
            key = (p.group("host"), b.group(3), b.group(2) + (":" + cid.group(1) if cid else ""))
            rank, pid = int(b.group(1)), p.group("pid")
            seen = self.busid_rank.setdefault(key, (rank, pid)) if len(self.busid_rank) < MAX_PIDS else (rank, pid)
            if seen[0] == rank or seen[1] == pid:
                return None
            pair, where = sorted((seen[0], rank)), f"PCI bus id {b.group(3)} on {p.group('host')}"
        else:
            i = S.R_IPC_DEV.search(text) if p and "IPC handle" in text else None
            if not i or i.group(2) != p.group("dev"):
                return None
            pair, where = [int(i.group(1))], f"CUDA device {i.group(2)}, its peer's device too"
        ev = self._context(lineno, text, "nccl_error")
        ev.rank = None  # the launch put them there: no rank's own failure
        ev.data.update(code="ncclInvalidUsage", duplicate_gpu=pair,
                       last_error=f"two ranks of one communicator on one GPU: rank {_fmt(pair)} on {where}")
        return ev

    def _dup_gpu(self, lineno: int, text: str) -> Event | None:
        m = S.R_DUP_GPU.search(text)
        if not m or "Last error" in text:
            return self._same_device(lineno, text) if "busId" in text or "IPC handle" in text else None
        if self.last_error is not None and lineno - self.last_error_line <= 4:
            return None  # the Last error text of the ncclInvalidUsage just parsed
        ev = self._context(lineno, text, "nccl_error")
        ev.data.update(code="ncclInvalidUsage", last_error=m.group(0),
                       duplicate_gpu=[int(m.group(1)), int(m.group(2))] if m.group(1) else [])
        return ev

    def _shm(self, lineno: int, text: str) -> Event | None:
        o = S.R_MPI_SHM.search(text) if "errno = " in text or "shm" in text or "shared memory" in text else None
        if o:  # Open MPI's shared-memory transport refused by the host: the process's host:pid, no rank (rule J)
            ev = self._context(lineno, text, "mpi_shm")
            ev.rank = None
            ev.data.update(cma=o.group(1) is not None, errno=int(o.group(1)) if o.group(1) else None)
            return ev
        # NCCL's own segments are named /dev/shm/nccl-XXXXXX: its message without the WARN prefix is the same failure
        if not ("NCCL WARN" in text or "/dev/shm/nccl-" in text) or not S.R_SHM.search(text):
            return None
        ev = self._context(lineno, text, "shm_error")
        w = S.R_NCCL_WARN.search(text)
        ev.data["what"] = (w.group(1) if w else self._body).strip()[:200]
        return ev

    def _fatal_python(self, lineno: int, text: str) -> Event | None:
        a = S.R_LAUNCH_ARG.search(text) if "error: " in text else None
        if a:
            ev = self._context(lineno, text, "launch_arg")
            ev.data.update(arg=a.group(2), missing=a.group(1).startswith("the following"))
            return ev
        a = S.R_USAGE_ERROR.search(text) if "error: " in text else None
        if a:  # lead rules U (2), W: argparse refused the arguments every worker is started with
            ev = self._context(lineno, text, "launch_arg")
            ev.rank = None  # argparse's usage line: every worker is given the same arguments
            ev.data.update(arg=a.group(2).strip()[:200], missing=a.group(1).startswith("the following"), usage=True)
            return ev
        a = S.R_NO_SCRIPT.search(text) if "can't open file" in text else None
        if a:  # lead rule U (2): the script path the launcher starts every worker with is wrong
            ev = self._context(lineno, text, "launch_arg")
            ev.rank = None  # the interpreter's line: every worker is started with the same path
            ev.data.update(arg=a.group(1), missing=False, script=True)
            return ev
        r = S.R_PROC_RAISED.match(self._body) if "Process-" in text else None
        x = None if r else S.R_EXECUTOR_FATAL.search(text) if "fatal signal" in text else None
        if r or x:  # a worker process raised out of its target (its exception follows in its traceback)
            ev = self._context(lineno, text, "worker_raised")
            if x:
                ev.rank = None  # the executor's line: which worker, it does not say
            ev.data["executor"] = bool(x)
            return ev
        m = S.R_FATAL_PY.search(text) if "Fatal Python" in text else None
        if not m:
            return None
        ev = self._context(lineno, text, "fatal_python")
        ev.data["what"] = m.group(1).strip()[:200]
        return ev

    def _no_nccl(self, lineno: int, text: str) -> Event | None:
        m = S.R_NO_NCCL.search(text)
        if not m:
            return None
        ev = self._context(lineno, text, "no_nccl")
        ev.data["what"] = "library" if m.group("lib") else m.group(0)
        return ev

    def _shared_build(self, lineno: int, text: str) -> Event | None:
        """The JIT build of an op the job compiles at start-up failing (signatures.R_SHARED_BUILD, lead rule AF (2)):
        ninja's CalledProcessError is the build tool's exit, not a worker's; read as a check of the set-up every rank
        shares (a traceback tail with ``settings``), which verdict.crash._settings_check reads as config, no rank."""
        b = S.R_SHARED_BUILD.search(self._body) if ("exit status" in text or "building extension" in text
                                                   or "torch_extensions" in text) else None
        if b is None:
            return None
        m = S.R_EXC_TAIL.match(self._body)
        said = ((m.group(2) or "").strip() if m else "") or self._body.strip()[:200]
        ev = self._context(lineno, text, "traceback_tail")
        ev.data.update(type=m.group(1) if m else "Error", message=said, line=m is None, settings=said,
                       build=b.group("ext") or b.group("so") or "op")
        self._last_exc = (lineno, ev)
        return ev

    def _launch_mode(self, lineno: int, text: str) -> Event | None:
        """A library's warning that its installed version starts a feature only through one bootstrap ("Transformer
        Engine v1.5.0 supports only MPI bootstrap backend."): the launch every rank shares (verdict.quiet._launch_mode,
        lead rules V (1), W)."""
        m = S.R_BOOTSTRAP_ONLY.search(self._body) if "supports only" in text else None
        if m is None:
            return None
        ev = self._context(lineno, text, "launch_mode")
        ev.rank = None  # printed by every process alike: the installed library's, not a rank's
        ev.data.update(who=(m.group("who") or "the library").strip(), version=m.group("ver"), mode=m.group("mode"),
                       said=m.group(0))
        return ev

    def _launch_setup(self, lineno: int, text: str) -> Event | None:
        """A launcher's check of its launch set-up failing before any worker ran (signatures.R_LAUNCH_SETUP, lead
        rule X (2)): the ssh probe of a hostfile's node, MPI's start-up."""
        ro = S.R_SHELL_READONLY.search(text) if "readonly variable" in text else None
        if ro:
            ev = self._context(lineno, text, "launch_setup")
            ev.rank = None  # the remote shell's line
            ev.data.update(ssh=None, mpi=None, readonly=ro.group(1))
            return ev
        ssh = S.R_SSH_CLIENT.search(text) if "ssh: " in text else None
        if ssh:  # the ssh client could not reach a host (no such name, refused, no route): the launcher's reach
            ev = self._context(lineno, text, "launch_setup")
            ev.rank = None  # ssh's own line, not a rank's
            ev.data.update(ssh=None, mpi=None, ssh_host=ssh.group("dns") or ssh.group("conn"), ssh_dns=bool(
                ssh.group("dns")), ssh_why=(ssh.group("why") or "").lstrip(": ").strip())
            return ev
        m = S.R_LAUNCH_SETUP.search(text) if (
            "exit status 255" in text or "MPI_Init" in text or "exit code 255" in text) else None
        if m is None:
            return None
        ev = self._context(lineno, text, "launch_setup")
        ev.rank = None  # the launcher's (or MPI's) own line, not a rank's
        ev.data.update(ssh=m.group("ssh"), mpi=m.group("mpi"), pdsh=m.group("pdsh"))
        return ev

    def _uncaught(self, lineno: int, text: str) -> Event | None:
        """A process's excepthook logging the exception that ends it ("Uncaught OLMoThreadError: ..."): that
        process exited on its own exception (status 1), a failure record as a launcher's is (lead rule A), read
        after every family (an exception whose text a family explains keeps that family's kind). A victim's
        exception class (a distributed timeout, the store or a peer gone) stays a failure shown, nobody named."""
        m = S.R_UNCAUGHT.search(self._body) if "Uncaught " in text else None
        if m is None:
            return None
        if S.R_VICTIM_EXC.match(m.group(1)):
            ev = self._context(lineno, text, "traceback_tail")
            ev.data.update(type=m.group(1), message=m.group(2).strip(), line=True)
            return ev
        ev = self._context(lineno, text, "worker_failed")
        lr = S.R_LOG_RANK.search(text)
        if lr:  # the logger's field is the local rank: rule A names a rank from it only in a single-node job
            ev.rank = None
        ev.data.update(exitcode=1, local_rank=int(lr.group(1)) if lr else None, pid=None, uncaught=m.group(1),
                       message=m.group(2).strip())
        return ev

    def _traceback_tail(self, lineno: int, text: str) -> Event | None:
        """A rank's own exception, the last line of its traceback. Read after every other family
        (a line they explain keeps their kind); torchrun's own ChildFailedError is not a rank's."""
        if "Termination signal` is detected" in text:
            return None  # Paddle's report of a stop signal it received (its SignalInfo line says which, from whom)
        r = S.R_SETTINGS_REFUSED.search(self._body) if ("same" in text or "distributed mode" in text) else None
        if r:  # a framework's own check of the launch's device mapping (lead rules W, AA (1))
            said = self._body.strip()[:200]
            prev = self._last_exc
            if prev is not None and 0 < lineno - prev[0] <= 3 and not prev[1].data.get("settings"):
                prev[1].data["settings"] = said  # the rest of the exception's message, on the lines after it
                return None
            ev = self._context(lineno, text, "traceback_tail")
            ev.data.update(type="Error", message=said, line=True, settings=said)
            return ev
        m = S.R_EXC_TAIL.match(self._body)
        if not m:
            e = S.R_ERROR_LINE.match(self._body) if "rror" in text or "ERROR" in text or "FATAL" in text else None
            if e is None:
                return None
            ev = self._context(lineno, text, "traceback_tail")  # a failure shown, its cause not given
            ev.data.update(type="Error", message=e.group(1), line=True)
            return ev
        if m.group(1).endswith("ChildFailedError"):
            return None
        ev = self._context(lineno, text, "traceback_tail")
        ev.data.update(type=m.group(1), message=(m.group(2) or "").strip())
        self._last_exc = (lineno, ev)
        if lineno - self._handler_line <= 4:  # raised inside the launcher's signal handler: the signal's, not a rank's
            ev.data["in_handler"] = True
        said = ev.data["message"] or (self._assert_src[1] if lineno - self._assert_src[0] <= 3 else "")
        if (S.R_SETTINGS_EXC.search(m.group(1)) and S.R_SETTINGS_CHECK.search(said)) or (
                m.group(1).endswith("RuntimeError") and S.R_NO_HANDLER.search(said)):
            ev.data["settings"] = said[:200]  # a framework's own check of the job's settings (lead rule W)
        return ev

    def _signal(self, lineno: int, text: str) -> Event | None:
        d = S.R_DDP_PARAMS.search(text) if "DDP expects" in text else None
        if d:
            ev = self._context(lineno, text, "ddp_params")
            ev.data.update(reporter=int(d.group(1)), reporter_params=int(d.group(2)), odd=int(d.group(3)),
                           odd_params=int(d.group(4)))
            return ev
        g = S.R_GASNET_SIGNAL.search(text) if "fatal signal (proc" in text else None
        if g:  # GASNet's handler: process N caught a fatal signal (its own death), after its own error line if shown
            ev = self._context(lineno, text, "runtime_signal")
            before = self._err_line[1] if lineno - self._err_line[0] <= _ERR_NEAR else None
            ev.rank = None  # read by verdict.crash._runtime_signal, not as a rank's line
            ev.data.update(proc=int(g.group(1)), signame=g.group(2), signum=int(g.group(3)), before=before)
            return ev
        ds = S.R_DDP_SHAPE.search(text) if "appears not to match" in text else None
        if ds:  # DDP's shape check: this process's parameter differs from process 0's
            ev = self._context(lineno, text, "ddp_params")
            ev.data.update(reporter=ev.rank, reporter_params=None, odd=int(ds.group(3)), odd_params=None,
                           shape=f"{ds.group(1)} [{ds.group(2)}]")
            ev.rank = None  # which side is wrong is not said: the check compares against process 0
            return ev
        k = S.R_CAUGHT_SIGNAL.search(text)
        if k:
            ev = self._context(lineno, text, "crash")
            p = S.R_CAUGHT_PID.search(text)
            ev.data.update(signal=int(k.group(1)), what=k.group(2).strip(), libs=[],
                           proc=int(p.group(1)) if p else ev.pid)
            self._crash, self._follow = ev, 2
            return ev
        o = S.R_OMPI_SIGNAL.search(text) if "] Signal: " in text else None
        if o and int(o.group(4)) in S.SIGNALS_BY_NUMBER:  # Open MPI's handler: the process (host, pid) got it
            ev = self._context(lineno, text, "crash")
            ev.host = ev.host or o.group(1)
            ev.data.update(signal=int(o.group(4)), what=o.group(3).strip(), libs=[], proc=int(o.group(2)),
                           handler="Open MPI")
            self._crash, self._follow = ev, 2
            return ev
        a = S.R_ABSL_SIGNAL.search(text) if "received at time=" in text else None
        if a and a.group(1) in S.SIGNAL_BY_NAME:  # Abseil's handler: the process that prints it got that signal
            ev = self._context(lineno, text, "crash")
            ev.data.update(signal=S.SIGNAL_BY_NAME[a.group(1)], what=a.group(1), libs=[], proc=ev.pid)
            return ev
        if "forcefully" in text and S.R_FORCED_KILL.search(text):
            ev = self._context(lineno, text, "signal")
            ev.rank = None
            ev.data.update(received=None, sent="SIGKILL", forced=True)
            return ev
        st = (S.R_SCHED_STOP.search(text) if ("CANCELLED" in text or "preempted" in text or "timed-out" in text
                                              or "Force Terminated" in text) else None)
        if st:
            ev = self._context(lineno, text, "signal")
            ev.rank = None  # the scheduler's line, not a rank's
            why = ("cancelled" if st.group("plain") or st.group("forced") else
                   "time limit" if st.group("pre") == "timed-out" else (st.group("why") or "PREEMPTION").lower())
            ev.data.update(received=None, sent=None, sched="preemption" if why in ("preemption", "job requeue")
                           else why, sched_text=why, usr=st.group("sig"))
            ev.data["ray"] = bool(st.group("ray"))
            return ev
        # torchrun asked for several nodes through a non-static rendezvous given only --master_addr: no endpoint to
        # meet at (signatures.R_ARG_RDZV_BACKEND; read before the node's settings, verdict.quiet._rank_args)
        b = S.R_ARG_RDZV_BACKEND.search(text) if "rdzv" in text and not is_failure_line(self._body) else None
        n = S.R_ARG_NNODES.search(text) if b and b.group(1) != "static" else None
        if (n and S.R_ARG_MASTER_ADDR.search(text) and not S.R_ARG_RDZV_ENDPOINT.search(text)
                and _several_nodes(n.group(1), True)):
            ev = self._context(lineno, text, "launch_args")
            ev.rank = None  # a command line, not a process's own line
            ev.data.update(no_endpoint=b.group(1), nnodes=n.group(1))
            return ev
        # a line announcing a failure ("Error: failed to run torchrun --node_rank=1 ...") is read as that failure
        node = (self._node_launch(lineno, text) if ("MASTER_ADDR" in text or "master_addr" in text)
                and not is_failure_line(self._body) else None)
        if node is not None:
            return node
        ips = S.R_ARG_IPS.search(text) if "--ips" in text and not is_failure_line(self._body) else None
        if ips:  # a launcher's node list (Paddle's --ips): compared across the nodes' files (quiet._rank_args)
            ev = self._context(lineno, text, "launch_args")
            ev.rank = None  # a command line, not a process's own line
            ev.data["ips"] = tuple(ips.group(1).split(","))
            return ev
        ne = S.R_NOT_READY_ENDPOINTS.search(text) if "ready endpoints" in text else None
        if ne:  # Paddle's launcher waiting for its peers' endpoints (verdict.fabric._unroutable_peers)
            ev = self._context(lineno, text, "peer_wait")
            ev.rank = None  # the launcher's wait names the endpoints it waits for, not the ranks
            ev.data["endpoints"] = [f"{h}:{p}" for h, p in S.R_ENDPOINT.findall(ne.group(1))][:256]
            ev.data["said"] = ne.group(0)[:240]
            return ev
        n = S.R_ARG_NNODES.search(text) if "--standalone" in text and S.R_ARG_STANDALONE.search(text) else None
        if n and _several_nodes(n.group(1), S.R_ARG_MULTINODE.search(text) is not None):
            ev = self._context(lineno, text, "launch_args")
            ev.rank = None  # a command line, not a process's own line
            ev.data.update(standalone=True, nnodes=n.group(1))
            return ev
        if "--rank" in text:
            r, w = S.R_ARG_RANK.search(text), S.R_ARG_WORLD.search(text)
            if r and w and int(r.group(1)) >= int(w.group(1)) > 0:  # a rank outside the world it is launched into
                ev = self._context(lineno, text, "launch_args")
                ev.rank = None  # the command line names a rank it was given, not the process that printed it
                ev.data.update(arg_rank=int(r.group(1)), arg_world=int(w.group(1)))
                return ev
        ev = self._world_unfit(lineno, text)
        if ev is not None:
            return ev
        if "sigkill_handler" in text and S.R_DS_RUNNER_SIG.search(text):  # the runner got SIGINT/SIGTERM
            ev = self._context(lineno, text, "signal")
            ev.rank = None
            ev.data.update(received=None, sent=None, runner_sig=True)
            self._handler_line = lineno
            return ev
        if "Terminated" in text and S.R_SHELL_TERM.match(self._body):  # the shell: the job got SIGTERM from outside
            ev = self._context(lineno, text, "signal")
            ev.rank = None
            ev.data.update(received=None, sent=None, shell_term=True)
            return ev
        if "KeyboardInterrupt" in text and S.R_KBD_INTERRUPT.match(self._body):  # SIGINT ended a traceback (Ctrl-C)
            ev = self._context(lineno, text, "signal")
            ev.rank = None  # interrupted from outside, whichever process prints it: it names no rank at fault
            ev.data.update(received=None, sent=None, ctrl_c=True)
            return ev
        gl = S.R_GLOG_SIGNAL.search(text) if "received by PID" in text else None
        if gl and gl.group(1) in ("SIGTERM", "SIGINT", "SIGHUP") and gl.group(3) != "0":
            # glog's handler: this process got a stop signal that another process (PID M) sent it
            ev = self._context(lineno, text, "signal")
            ev.rank = None  # a victim of the stop: it names no rank at fault
            ev.data.update(received=None, sent=None, worker_got=gl.group(1), sender=int(gl.group(3)), spawned=False)
            self._glog_stop, self._follow = (lineno, ev), max(self._follow, 8)  # the Python traceback follows
            return ev
        if "completed successfully" in text and S.R_JOB_DONE.search(self._body):
            self._done_line = lineno
            ev = self._context(lineno, text, "benign")
            ev.data["what"] = "job completed"
            return ev
        w = S.R_WORKER_SIGTERM.search(text) if "SIGTERM" in text else None
        if w and lineno - self._done_line <= _ERR_NEAR:
            # the handler logged a SIGTERM right after the job recorded its own success: the scheduler ending a
            # step whose work was done (Slurm signals the step's processes at its end), nothing stopped
            ev = self._context(lineno, text, "benign")
            ev.data["what"] = "SIGTERM after the job completed"
            return ev
        w = S.R_WORKER_SIGTERM.search(text) if "SIGTERM" in text else None
        if w:  # a job process's own handler logged the SIGTERM it got (not torchrun's agent: not "received" here)
            ev = self._context(lineno, text, "signal")
            ev.rank = None  # a victim of the stop, whichever rank prints it: it names no rank at fault
            ev.data.update(received=None, sent=None, worker_got="SIGTERM")
            return ev
        m = S.R_DEATH_SIGNAL.search(text)
        c = None if m else S.R_CLOSING.search(text)
        if not m and not c:
            return None
        ev = self._context(lineno, text, "signal")
        ev.rank = None  # the agent's line, not a rank's
        got = (m.group(1) or m.group(2)) if m else None
        if got and not got.isdigit():
            got = S.SIGNAL_NUMBERS.get(got.removeprefix("Signals."), 0)
        ev.data.update(received=int(got) if got else None, sent=c.group(1) if c else None)
        bar = S.R_LOADING_SHARDS.search(text[:c.start()]) if c else None
        if bar and not S.R_LOADING_DONE.search(text[bar.end():c.start()]):  # a bar ended by '\r', glued to this line
            ev.data["loading"] = True
        return ev

    def _world_unfit(self, lineno: int, text: str) -> Event | None:
        """Launch settings that cannot form the world (lead rules AA (1), AE; verdict.quiet.world_unfit): a call to
        init_process_group with a literal rank at or past its literal world size (its code line in a traceback), or
        torchrun's command line giving a node a loopback master address (any node rank: node 0's beside it says one
        host runs both)."""
        if "init_process_group(" in text and (w := S.R_CALL_WORLD.search(text)) and (r := S.R_CALL_RANK.search(text)):
            if int(r.group(1)) >= int(w.group(1)) > 0:
                ev = self._context(lineno, text, "launch_args")
                ev.rank = None  # the call names the rank it was given, not the process that printed it
                ev.data.update(arg_rank=int(r.group(1)), arg_world=int(w.group(1)), init_call=True)
                return ev
            return None
        nr = S.R_ARG_NODE_RANK.search(text) if "node" in text and not is_failure_line(self._body) else None
        ma = S.R_ARG_MASTER_ADDR_VAL.search(text) if nr else None  # node 0 too: both on one host is no fault
        if ma is None or not S.is_loopback(ma.group(1)):
            return None
        ev = self._context(lineno, text, "launch_args")
        ev.rank = None  # a command line, not a process's own line
        ev.data.update(node_rank=int(nr.group(1)), master_addr=ma.group(1), master_port=None, world=None)
        return ev

    def _node_launch(self, lineno: int, text: str) -> Event | None:
        """A node's launch settings printed on one line, its node rank and the master address it was given
        (signatures.R_NODE_KV): read by verdict.quiet._rank_args across the nodes (lead rule AA (1))."""
        kv: dict[str, str] = {}
        for k, v in S.R_NODE_KV.findall(text):
            kv.setdefault(k.upper(), v)
        if "NODE_RANK" not in kv and "MASTER_ADDR" in text and (e := S.R_ENV_LINE.match(self._body)) and (
                e.group(1) == "MASTER_ADDR"):
            # an environment dump, one "KEY = value" a line (sorted: NODE_RANK comes after MASTER_ADDR): read on
            self._env_dump, self._follow = (lineno, {"MASTER_ADDR": kv["MASTER_ADDR"]}, None), 2
            return None
        if "NODE_RANK" not in kv or "MASTER_ADDR" not in kv or not kv["NODE_RANK"].isdigit():
            return None
        ev = self._context(lineno, text, "launch_args")
        ev.rank = None  # a node's settings, not a process's own line
        ev.data.update(node_rank=int(kv["NODE_RANK"]), master_addr=kv["MASTER_ADDR"],
                       master_port=kv.get("MASTER_PORT"), world=kv.get("WORLD_SIZE"))
        return ev

    def _member(self, lineno: int, text: str, rank: int, world: int) -> Event | None:
        """One of Lightning's announcements of a process's place in the world. A global rank announced twice in one
        file, then another rank announced for the first time after it, is two processes given one rank at the same
        time (two nodes launched with the same node rank), not a restart (which announces every rank again after the
        first round): one launch_args event per file, its data kept up to date (quiet._rank_args, lead rule AA (1))."""
        if self._member_world not in (None, world):  # another world announced: another run, start over
            self._members, self._member_dup, self._member_ev = {}, False, None
        self._member_world = world
        first = rank not in self._members
        self._members[rank] = self._members.get(rank, 0) + 1
        if self._member_ev is not None:
            self._member_ev.data["dup_members"] = sorted(r for r, n in self._members.items() if n > 1)
            self._member_ev.data["members"] = sorted(self._members)
            return None
        if not first:
            self._member_dup = True
            return None
        if not self._member_dup:
            return None
        ev = self._context(lineno, text, "launch_args")
        ev.rank = None  # an announcement of a place in the world, not a failure: nothing to accuse
        ev.data.update(member_world=world, members=sorted(self._members),
                       dup_members=sorted(r for r, n in self._members.items() if n > 1))
        self._member_ev = ev
        return ev

    def _env_dump_line(self, lineno: int, text: str, body: str) -> Event | None:
        """One line of an environment dump that a "MASTER_ADDR = X" line began ("NODE_RANK = 0", "MASTER_PORT =
        38581", "WORLD_SIZE = 2", other keys passed over): the node's launch settings, as _node_launch reads them
        from one line, become its launch_args event once NODE_RANK is read; a line of another shape ends the dump.
        Other readers still see every line (None: not taken)."""
        start, kv, ev = self._env_dump
        m = S.R_ENV_LINE.match(body)
        if not m or lineno - start > 64:
            self._env_dump = None
            return None
        self._follow = max(self._follow, 2)
        key, val = m.group(1), m.group(2)
        if key not in ("NODE_RANK", "MASTER_ADDR", "MASTER_PORT", "WORLD_SIZE") or key in kv or not val:
            return None
        kv[key] = val
        field = {"MASTER_PORT": "master_port", "WORLD_SIZE": "world"}.get(key)
        if ev is not None and field:
            ev.data[field] = val
            return None
        if key != "NODE_RANK" or not val.isdigit():
            return None
        ev = self._context(lineno, text, "launch_args")
        ev.rank = None  # a node's settings, not a process's own line
        ev.data.update(node_rank=int(val), master_addr=kv["MASTER_ADDR"], master_port=kv.get("MASTER_PORT"),
                       world=kv.get("WORLD_SIZE"), env_dump=True)
        self._env_dump = (start, kv, ev)
        return ev

    def _exit_noise(self, lineno: int, text: str) -> Event | None:
        """Lines that look alarming and are not failures by themselves: the process-group
        destructor warning (torch >= 2.4, at every exit without destroy_process_group), the
        store's IPv6 lookup warning and the barrier's "devices ... currently unknown" warning."""
        if S.R_PG_NOT_DESTROYED.search(text):
            return self._context(lineno, text, "pg_not_destroyed")
        if S.R_GDB_PEER.search(text):
            ev = self._context(lineno, text, "benign")
            ev.data["what"] = "cuda-gdb peer-access notice"
            return ev
        bad = S.R_IPV6_PATH_HOST.search(text)
        if bad:  # a file path where the store's host belongs: MASTER_ADDR is wrong, no lookup can ever succeed
            ev = self._context(lineno, text, "store_timeout")
            ev.data.update(endpoint=f"{bad.group(1)}:{bad.group(2)}", rendezvous=False, in_use=None, closed=False,
                           dns=True, not_a_host=True)
            return ev
        if S.R_IPV6.search(text):
            ev = self._context(lineno, text, "benign")
            ev.data["what"] = "IPv6 lookup warning"
            return ev
        if S.R_BARRIER_GUESS.search(text):
            ev = self._context(lineno, text, "benign")
            ev.data["what"] = "barrier device warning"
            return ev
        if S.R_LAUNCH_DEPRECATED.search(text):
            ev = self._context(lineno, text, "benign")
            ev.data["what"] = "launch deprecated"
            return ev
        if "in DeepSpeed not yet" in text and S.R_DS_NCCL_BACKEND.search(text):
            ev = self._context(lineno, text, "benign")
            ev.data["what"] = "deepspeed backend fallback"
            return ev
        pd = S.R_PG_DESTROYED.search(text) if "destroyed on rank" in text else None
        if pd:  # the destructor's note: its rank in data only (verdict.crash.destroyed_rank reads it beside an error)
            ev = self._context(lineno, text, "pg_destroyed")
            ev.rank, ev.data["rank"] = None, int(pd.group(1))
            return ev
        if S.R_C10D_DEBUG.search(text):
            ev = self._context(lineno, text, "benign")
            ev.data["what"] = "c10d debug line"
            return ev
        return None

    def _env(self, lineno: int, text: str) -> Event | None:
        m = S.R_ENV_DEPRECATED.search(text)
        # after the launcher's prefix ("[default0]:NCCL_X=1"), which the assignment pattern cannot start at
        pairs = [(m.group(1) or m.group(3), "1")] if m else S.R_ENV_ASSIGN.findall(text) or S.R_ENV_ASSIGN.findall(
            self._body)
        if not pairs or "set by environment" in text or "NCCL WARN" in text:  # a WARN's "Set NCCL_X=1 to ..." advice
            return None
        ev = self._context(lineno, text, "setting")
        ev.data["settings"] = pairs[:16]
        return ev

    def _launch_gpus(self, lineno: int, text: str) -> None:
        """How many processes a node's launch starts (torchrun's --nproc_per_node, with a CUDA_VISIBLE_DEVICES list on
        the same command line: the GPUs it leaves) and how many GPUs a node shows (deviceQuery's "Detected N CUDA
        Capable device(s)"): verdict.crash._cuda compares them beside an "invalid device ordinal" (lead rules Q, W).
        A Slurm job's tasks per node and a node rank taken from SLURM_PROCID: verdict.fabric._store reads them beside
        the store's "address already in use" (lead rule AA (1)).
        Kept aside (``launch_gpus``, handed on at the end of the file): the line is read on as if unseen, so a
        command line's role in the reading of the lines after it (a wrapped line's rest) is unchanged."""
        if len(self.aside) >= 8:
            return
        if "CUDA Capable" in text and (q := S.R_DEVICE_QUERY.search(text)):
            ev = self._context(lineno, text, "gpus_shown")
            ev.rank = None  # the node's device list, not a rank's line
            ev.data["gpus"] = int(q.group(1))
            self.aside.append(ev)
            return
        t = S.R_SLURM_TASKS.search(text) if "tasks-per-node" in text and not is_failure_line(self._body) else None
        procid = "SLURM_PROCID" in text and S.R_NODE_RANK_PROCID.search(text) is not None
        if t or procid:
            ev = self._context(lineno, text, "launch_tasks")
            ev.rank = None  # a batch script's or command line's setting, not a process's own line
            ev.data["tasks"] = int(t.group(1)) if t else None
            ev.data["procid_node_rank"] = procid
            self.aside.append(ev)
        p = S.R_ARG_NPROC.search(text) if "--nproc" in text and not is_failure_line(self._body) else None
        if not p:
            return
        ev = self._context(lineno, text, "launch_procs")
        ev.rank = None  # a command line, not a process's own line
        ev.data["procs"] = int(p.group(1))
        v = S.R_ARG_VISIBLE.search(text[:p.start()])  # the variable set for this command, before its arguments
        if v:
            ev.data["gpus"] = len(v.group(1).split(","))
        self.aside.append(ev)

    def _torchrun_config(self, lineno: int, text: str) -> Event | None:
        """torchrun's printed launch config and rendezvous result, as the variables they are
        (``signatures.TR_NAMES``); ``global_world_sizes`` also gives the world size."""
        if "Rendezvous complete for workers" in text or "launch configs:" in text:
            self._follow = 18  # the block's lines carry no trigger word
            return None
        ep = S.R_TR_ENTRYPOINT.match(self._body) if "entrypoint" in text else None
        if ep:  # the script every worker runs: a flag's bare value there is an option taken as the script (rule AF)
            if not S.R_FLAG_VALUE.match(ep.group(1)):
                return None
            ev = self._context(lineno, text, "launch_args")
            ev.rank = None  # the agent's line, not a rank's
            ev.data["entrypoint"] = ep.group(1)
            return ev
        m = S.R_TR_LAUNCH.match(self._body) or S.R_TR_RESULT.match(self._body)
        if not m or m.group(1) == "min_nodes":
            return None
        value = m.group(2).strip()
        if m.group(1) == "global_world_sizes":
            value = value.strip("[]").split(",")[0].strip()
        if not value or value == "None":
            return None
        ev = self._context(lineno, text, "setting")
        ev.rank = None  # the agent's line, not a rank's
        ev.data["settings"] = [(S.TR_NAMES[m.group(1)], value)]
        ev.data["torchrun"] = True
        if m.group(1) == "global_world_sizes" and value.isdigit():
            ev.data["world"] = int(value)
        return ev

    def _gloo(self, lineno: int, text: str) -> Event | None:
        if not S.R_GLOO.search(text):
            return None
        m = S.R_GLOO_KIND.search(text)
        if not m:
            return None
        ev = self._context(lineno, text, "gloo_error")
        ev.data["what"] = m.group(0)
        p = S.R_PEER.search(text)
        ev.data["peer"] = f"{p.group(1)}:{p.group(2)}" if p else None
        if S.R_PEER_GONE.search(m.group(0)):
            who = _prefix_rank(text)
            self._gloo_gone.setdefault(who, ev)
            if who in self._init_ranks:
                ev.data["setup"] = True
        return ev

    def _init_frame(self, text: str) -> None:
        """A set-up call's frame (hvd.init(), init_process_group) in the stack of the process (launcher prefix) whose
        gloo connection a peer closed, before or after that error (faulthandler prints the stack after it): the
        connection failed while the job was still being set up (lead rule L: network_setup, not a peer that died)."""
        who = _prefix_rank(text)
        if len(self._init_ranks) < 1024:
            self._init_ranks.add(who)
        if who in self._gloo_gone:
            self._gloo_gone[who].data["setup"] = True

    def _recv_src(self, lineno: int, text: str) -> Event | None:
        m = S.R_RECV_SRC.search(self._body) if "recv(" in text or "send(" in text else None
        if not m:
            return None
        ev = self._context(lineno, text, "recv_src")
        ev.data.update(src=int(m.group(2)), op=m.group("op"))
        return ev

    def _coord_barrier(self, lineno: int, text: str) -> Event | None:
        """The coordination service's barrier of the job's set-up timing out (XLA's / TF's coordination service, the
        store behind jax.distributed.initialize; signatures.R_COORD_BARRIER): the job's rendezvous counting its
        processes (lead rule R). The tasks that never arrived follow one a line (_coord_line) or on the same line."""
        b = S.R_COORD_BARRIER.search(text)
        if not b or not S.R_COORD_SETUP.search(b.group(1)):
            return None
        ev = self._context(lineno, text, "store_timeout")
        ev.data.update(endpoint=None, rendezvous=False, in_use=None, closed=False, coord_barrier=b.group(1),
                       missing=[], reached=None)
        named = "task names:" in text
        self._coord, self._follow = (lineno, ev, named), max(self._follow, 4)
        self._coord_line(lineno, text[b.end():])
        return ev

    def _coord_line(self, lineno: int, body: str) -> bool:
        """A line of the timed-out coordination barrier's message after its first (_coord_barrier): the tasks that
        never arrived ("/job:jax_worker/replica:0/task:3", after "Timed out task names:"), how many reached it ("# of
        tasks that reached the barrier: 1/8"), the first task there. Any other line ends the message."""
        start, ev, named = self._coord
        line = body.strip()
        if lineno - start > 1100 or not (lineno == start or not line or S.R_COORD_TASK.search(line) or any(
                w in line for w in ("task names:", "the barrier", "task logs"))):
            self._coord = None
            return False
        r = S.R_COORD_REACHED.search(line)
        if r:
            ev.data["reached"] = (int(r.group(1)), int(r.group(2)))
        if "task names:" in line:
            named, line = True, line[line.index("task names:"):]
        if named and len(ev.data["missing"]) < 1024:
            ev.data["missing"] += [int(t) for t in S.R_COORD_TASK.findall(line)
                                   if int(t) not in ev.data["missing"]][:1024]
        self._coord, self._follow = (start, ev, named), max(self._follow, 2)
        return True

    def _world_call(self, lineno: int, text: str, body: str) -> None:
        """A code line calling the job's world set-up with literal settings (signatures.R_WORLD_CALL: a traceback's
        "jax.distributed.initialize(coordinator_address='localhost', num_processes=8, process_id=0)", a pasted
        init_process_group(..., rank=0, world_size=2)): the id every process started with that line claims, the
        world it asks for, the coordinator it names (lead rule AE). Kept aside (``world_call``): read on as unseen."""
        m = S.R_WORLD_CALL.search(body)
        if not m:
            return
        args = m.group(2)
        kw = {k: v.strip("'\"") for k, v in S.R_WORLD_KWARG.findall(args)}
        if "initialize" in m.group(1):  # jax.distributed.initialize(coordinator_address, num_processes, process_id)
            pos = [a.strip() for a in args.split(")")[0].split(",")]
            for name, a in zip(("coordinator_address", "num_processes", "process_id"), pos):
                if a and "=" not in a:
                    kw.setdefault(name, a.strip("'\""))
                elif "=" in a:
                    break
        pid, world = kw.get("process_id", kw.get("rank")), kw.get("num_processes", kw.get("world_size"))
        if pid is None and world is None and "coordinator_address" not in kw:
            return
        ev = self._context(lineno, text, "world_call")
        ev.rank = None  # a code line, not a process's own output
        ev.data.update(call=m.group(1), id=int(pid) if pid and pid.isdigit() else None,
                       world=int(world) if world and world.isdigit() else None,
                       coordinator=kw.get("coordinator_address"))
        self.aside.append(ev)

    def _store(self, lineno: int, text: str) -> Event | None:
        if "libuv" in text and S.R_NO_LIBUV.search(text):  # a build without the store's backend: config, not a store
            ev = self._context(lineno, text, "no_nccl")
            ev.data["what"] = "libuv"
            return ev
        if "arrier timed out" in text and (ev := self._coord_barrier(lineno, text)) is not None:
            return ev
        g = S.R_GRPC_CONNECT.search(text) if "to connect to" in text else None
        if g:  # a gRPC channel of the job's coordination service could not connect (lead rule L): its store
            ev = self._context(lineno, text, "store_timeout")
            p = S.R_GRPC_PEER.search(text)
            ev.data.update(endpoint=f"{p.group(1)}:{p.group(2)}" if p else None, rendezvous=False, in_use=None,
                           closed=False, store_conn=g.group(0)[:80], grpc=True)
            return ev
        u = S.R_UNIQUEID.search(text) if "ncclUniqueId" in text else None
        if u:
            ev = self._context(lineno, text, "uniqueid_wait")
            if u.group(1):
                ev.rank = int(u.group(1))
            err = u.group(3).strip()
            ev.data.update(root=int(u.group(2)), error=err[:120],
                           gone=bool(S.R_PEER_GONE.search(err) or "got 0 bytes" in err))
            return ev
        if "barrier" in text and S.R_STORE_BARRIER_DONE.search(text):  # every rank came: an earlier wait passed
            ev = self._context(lineno, text, "benign")
            ev.data["what"] = "store barrier completed"
            n = S.R_STORE_BARRIER_NODES.search(text)
            if n:  # the count it completed with (lead rule R: ranks checking in past it are the over-count)
                ev.data["barrier"] = (n.group(1), None, int(n.group(2)))
            return ev
        a = S.R_STORE_BARRIER_ADDED.search(text) if "Added key" in text else None
        if a:  # torch's "Added key: K to store for rank: R": that rank checked in to the barrier of K (lead rule R)
            ev = self._context(lineno, text, "benign")
            ev.data.update(what="store barrier key added", barrier=(a.group(1), int(a.group(2)), None))
            return ev
        pmix = S.R_PMIX_FENCE.search(text) if "pmix" in text else None
        if pmix:  # Slurm PMIx's fence between the nodes' slurmstepd did not complete (lead rules L, R)
            ev = self._context(lineno, text, "store_timeout")
            ev.rank = None  # slurmstepd's line; its "[0]" is the node's index in the fence
            ev.data.update(endpoint=None, rendezvous=False, in_use=None, closed=False, pmix=True)
            return ev
        url = S.R_PG_URL.search(text) if "Process group URL" in text else None
        if url:  # the launcher's record that init_process_group raised, with the init_method it was given
            ev = self._context(lineno, text, "store_timeout")
            given = url.group(1).strip("'\".,")
            ev.data.update(endpoint=None, rendezvous=False, in_use=None, closed=False,
                           init_url=None if given in ("None", "", "null") else given)
            return ev
        miss = S.R_ENV_MISSING.search(text)
        if miss:  # init_process_group(env://) run without torchrun: a launch error
            ev = self._context(lineno, text, "store_timeout")
            ev.data.update(endpoint=None, rendezvous=False, in_use=None, closed=False, env_missing=miss.group(1))
            return ev
        r = S.R_RESOLVE.search(text) if "resolve" in text else None
        if r and "master" in (r.group(1) or r.group(2)).lower():  # the rendezvous host by its role's name
            ev = self._context(lineno, text, "store_timeout")
            ev.data.update(endpoint=r.group(1) or r.group(2), rendezvous=False, in_use=None, closed=False, dns=True)
            return ev
        # the resolver's error on the store's own line, or as the exception of a traceback whose frames just above
        # are the store's/rendezvous' (torch 1.x: "ValueError: host not found: Name or service not known")
        near = lineno - self._store_frame <= 8 and S.R_EXC_TAIL.match(self._body)
        if S.R_DNS.search(text) and (S.R_DNS_STORE.search(text) or near) and "IPv6" not in text:
            ev = self._context(lineno, text, "store_timeout")
            c = S.R_CONNECT_TO.search(text)
            a = None if c else S.R_ADDRS_OF.search(text)
            ep = f"{c.group(1) or c.group(3)}:{c.group(2) or c.group(4)}" if c else (
                f"{a.group(1)}:{a.group(2)}" if a else None)
            ev.data.update(endpoint=ep,
                           rendezvous="endezvous" in text, in_use=None, closed=False, dns=True)
            return ev
        proto = S.R_STORE_PROTO.search(text) if "vailab" in text or "Stop_waiting" in text else None
        tail = S.R_EXC_TAIL.match(self._body) if near and not proto else None
        conn = tail.group(2).strip() if tail and tail.group(2) and S.R_CONN_EXC.match(tail.group(2).strip()) else None
        if conn and "reset" in conn and self.tcp_init is not None:
            conn = None  # init_method tcp://: rank 0's own process hosts the store, a reset is that host gone (rule G)
        if proto or conn:
            # the store client's own connection failing, before any collective (lead rules L, Y): store_rendezvous
            ev = self._context(lineno, text, "store_timeout")
            ev.data.update(endpoint=None, rendezvous=False, in_use=None, closed=False,
                           store_conn=(proto.group(0) if proto else conn)[:80])
            return ev
        gone = S.R_STORE_GONE.search(text)
        poll = "dump flag" in text and S.R_DUMP_FLAG_POLL.search(text)  # the heartbeat monitor's poll (an [E] line)
        lost = not gone and (S.R_STORE_SOCKET.search(text) or poll) and S.R_PEER_GONE.search(text)
        if lost and _EARLY_GLOG.search(text) and not _TORCH_RANK_PREFIX.search(text):
            # torch >= 2.2 glues "[rankN]:" to its C++ lines once init_process_group has made the default group
            # (_update_default_pg -> _set_global_rank): a reset logged without it was the store client's
            # connect/validate, which TCPStore retries ("failed to connect/validate ... retrying")
            ev = self._context(lineno, text, "benign")
            ev.data["what"] = "store reset before the group"
            self._store_reset, self._follow = (lineno, ev), max(self._follow, 24)
            return ev
        if gone or lost:  # a consequence: the process hosting the store exited first
            ev = self._context(lineno, text, "socket_error")
            r = S.R_REMOTE.search(text)
            ev.data.update(what="TCPStore server closed the connection", connect=False, store_gone=True,
                           store_said=bool(gone), peer=f"{r.group(1)}:{r.group(2)}" if r else None)
            if ev.rank is not None and (S.R_C10D_WARNING.search(text) or poll) and not S.R_STORE_WAITED.search(text):
                # a rank's c10d [W] warning of its store poll or read cut (lead rule N: news only if a failure follows)
                ev.data["tags"] = ("store_warning",)
            return ev
        win = S.R_WIN_CONNECT_WARN.search(text)
        if win:  # lead rules L/N: whatever host it names, news only if a store failure follows
            ev = self._context(lineno, text, "benign")
            ev.data["what"] = "Windows store connect warning"
            return ev
        k = S.R_CCL_KVS.search(text) if "kvs" in text else None
        if k:
            ev = self._context(lineno, text, "store_timeout")
            ev.data.update(endpoint=None, rendezvous=False, in_use=None, closed=False,
                           kvs=f"{k.group(1)}: {k.group(2).strip()}")
            return ev
        atl = S.R_CCL_ATL.search(text) if "atl_" in text else None
        if atl:  # oneCCL's transport (ATL) failing to initialise: its set-up's system error, no store (lead rule L)
            ev = self._context(lineno, text, "ccl_transport")
            ev.data["said"] = f"{atl.group(1)}: {atl.group(2).strip()}"
            return ev
        cw = S.R_CCL_WORKER.search(text) if "orker" in text or "pthread_" in text else None
        if cw:  # oneCCL could not start its worker threads: a system call of its set-up failed (lead rule J)
            ev = self._context(lineno, text, "ccl_worker")
            ev.data["said"] = f"{cw.group(1)}: {cw.group(2).strip()}"
            return ev
        client = S.R_STORE_CLIENT.search(text)
        spent = S.R_STORE_RETRY_SPENT.search(text) if client and "timed out after" in text else None
        if spent and int(spent.group(2)) < int(spent.group(1)):
            spent = None  # its socket's own timeout is shorter than the connect budget: one attempt, retried
        if client and "- retrying (" in text and not S.R_PEER_GONE.search(text) and not spent:
            # TCPStore's warning of a connect attempt it retries until its timeout (lead rule L): news only when a
            # store timeout or error follows, which is then a line of its own. A reset is not the store still
            # starting (nothing listening refuses): something at that address answered and cut the connection
            ev = self._context(lineno, text, "benign")
            ev.data.update(what="store connect retry", endpoint=f"{client.group(1)}:{client.group(2)}")
            return ev
        taken = S.R_ADDR_IN_USE.search(text)
        # torch 1.x's bare "RuntimeError: Address already in use" names no store: its traceback's frames above do
        # a whole message of only those words is the store's own bind (signatures.R_BARE_IN_USE), frames or not
        bare = bool(taken) and "lready in use" in text and S.R_BARE_IN_USE.search(self._body)
        if not client and not S.R_STORE.search(text) and not (taken and (near or bare)):
            return None
        # a store timeout inside the agent's exit barrier is teardown: the other nodes' agents never came
        ev = self._context(lineno, text, "exit_barrier" if lineno - self._barrier_line <= 16 else "store_timeout")
        c = S.R_CONNECT_TO.search(text)
        ev.data["endpoint"] = (f"{c.group(1) or c.group(3)}:{c.group(2) or c.group(4)}" if c else
                               f"{client.group(1)}:{client.group(2)}" if client else None)
        if "waitForInput" in text:  # c10d's store socket (socket.cpp): connected, no reply within the timeout
            r = S.R_REMOTE.search(text)
            ev.data["endpoint"] = ev.data["endpoint"] or (f"{r.group(1)}:{r.group(2)}" if r else None)
            ev.data["waited_input"] = True
        elif lineno - self._coll_frame[0] <= 3 and (t := S.R_EXC_TAIL.match(self._body)) \
                and (t.group(2) or "").strip() in ("Socket Timeout", "Wait timeout"):
            # the exception of a collective's call (its frame just above): its store read of the unique id timed out
            # on a connected store (lead rule Y), and no torchrun agent makes that call
            ev.data.update(waited_input=True, in_collective=self._coll_frame[1])
        ev.data["rendezvous"] = "endezvous" in text or "etcd.Etcd" in text
        if "etcd.Etcd" in text:
            ev.data["etcd"] = text[text.index("etcd.Etcd"):].strip()[:160]
        ev.data["closed"] = "RendezvousClosedError" in text
        if ev.kind == "store_timeout" and S.R_RDZV_KEEPALIVE.search(text):
            ev.data["tags"] = ("keepalive_warning",)  # the agent's keep-alive warning (lead rule N)
        n = S.R_STORE_COUNT.search(text)
        if n:
            ev.data["joined"] = (int(n.group("wc") or n.group("j")), int(n.group("ws") or n.group("n")))
        if "Waiting in store based barrier" in text:
            if not n or ev.data["joined"][0] == ev.data["joined"][1]:  # its last poll, everyone in: nothing failed
                ev.kind, ev.data = "benign", {"what": "store barrier completed"}
                return ev
            ev.data["barrier_wait"] = True  # still short of (or past) the world size at this poll
        b = S.R_BIND_PORT.search(text)
        f = None if b or not taken else S.R_PORT_FIELD.search(text)
        ev.data["in_use"] = int(b.group(1)) if b else int(f.group(1)) if f else 0 if taken else None
        d = S.R_BIND_DENIED.search(text)
        if d:
            ev.data["bind_denied"] = int(d.group(1))
        return ev

    def _socket(self, lineno: int, text: str) -> Event | None:
        m = S.R_SOCKET.search(text)
        if m and "ssh: " in text and S.R_SSH_CLIENT.search(text):
            return None  # ssh's own connect to a host, a launcher's (read by _launch_setup)
        t = S.R_TF_COLL_ABORT.search(text) if "aborted by" in text else None
        if t and (gone := S.R_PEER_GONE.search(t.group(1))):
            # TF's collectives aborted because a peer's connection closed in the middle of them (lead rule O): a
            # peer gone, not a connection that could not be made
            ev = self._context(lineno, text, "socket_error")
            ev.data.update(what=gone.group(0), peer=None, connect=False, tf=True)
            return ev
        if not m:
            return None
        ev = self._context(lineno, text, "socket_error")
        p = S.R_PEER.search(text)
        # set-up when it happened while connecting; a peer that went away otherwise (a consequence)
        connect = bool(S.R_CONNECT_FAIL.search(text)) or not S.R_PEER_GONE.search(m.group(0))
        ev.data.update(what=m.group(0), peer=f"{p.group(1)}:{p.group(2)}" if p else None, connect=connect)
        return ev

    def _dataloader(self, lineno: int, text: str) -> Event | None:
        m = S.R_DATALOADER.search(text)
        t = None if m or "unable to" not in text else S.R_TORCH_SHM.search(text)
        if t:  # torch could not create the shared-memory file of a tensor passed between processes
            ev = self._context(lineno, text, "dataloader")
            ev.data.update(signal=None, bus_error=False, shm_file=t.group(1), shm_errno=(t.group(2) or "").strip())
            return ev
        if not m:
            return None
        ev = self._context(lineno, text, "dataloader")
        sig = m.group(2) or ("Bus error" if "bus error" in text.lower() else None)
        ev.data.update(signal=sig, bus_error=bool(sig and "bus" in sig.lower()))
        return ev

    def _driver_oom(self, lineno: int, text: str) -> Event | None:
        m = S.R_DRIVER_OOM.search(text)
        if not m:
            return None
        ev = self._context(lineno, text, "driver_oom")
        p = S.R_RAY_PID.findall(text[: m.start()])  # the innermost actor prefix is the process that printed it
        ev.data.update(func=m.group(1), proc=int(p[-1]) if p else ev.pid)
        return ev

    def _oom(self, lineno: int, text: str) -> Event | None:
        m = S.R_OOM.search(text)
        if not m and S.R_HOST_MEM.search(self._body):  # the process's own allocation of host RAM failed
            return self._context(lineno, text, "host_mem")
        if not m or S.R_RAY_OOM.search(text):
            return None
        ev = self._context(lineno, text, "cuda_oom")
        t = S.R_OOM_TRIED.search(text)
        ev.data["tried"] = t.group(1) if t else None
        if m.group(0).startswith("cuda"):  # a C++ runtime's own cudaMalloc* (an inference engine's buffers)
            ev.data["runtime_alloc"] = True
        g, this, alloc = S.R_OOM_GPU.search(text), S.R_OOM_THIS.search(text), S.R_OOM_ALLOC.search(text)
        if g:  # which GPU, and what each process holds on it (see crash._gpu_owner)
            ev.data.update(gpu=int(g.group(1)), this=_bytes(this.group(1)) if this else None,
                           alloc=_bytes(alloc.group(1)) if alloc else None,
                           procs=[(int(p.group(1)), _bytes(p.group(2))) for p in S.R_OOM_PROC.finditer(text)])
            if ev.rank is None:  # its traceback: the ranked one it ends (no other header since), or one right below
                head, rank = self._tb_rank
                if rank is not None and 0 < lineno - head <= 400 and self._tb_heads and self._tb_heads[-1] == head:
                    ev.data["tb_rank"] = rank
                else:
                    self._oom_open = (lineno, ev)
        return ev

    def _oom_tb_rank(self, lineno: int, text: str) -> None:
        """A traceback header's rank prefix, and the unranked CUDA OOM line pasted right above it (the exception's
        message first, its traceback after): that traceback's rank is the rank its process printed it under, kept
        as the OOM's "tb_rank" for crash._tb_agrees (lead rules U (3), A)."""
        t = S.R_RANK_TAG.search(text)
        rank = int(next(g for g in t.groups() if g is not None)) if t else None
        self._tb_rank = (lineno, rank)
        if self._oom_open is not None and rank is not None and 0 < lineno - self._oom_open[0] <= 2:
            self._oom_open[1].data["tb_rank"] = rank
        self._oom_open = None

    def _worker_failed(self, lineno: int, text: str) -> Event | None:
        m = S.R_WORKER_FAILED.search(text)
        a = S.R_LAUNCH_ARG.search(text, 0, m.start()) if m and "error: " in text[:m.start()] else None
        if a:  # the worker's argparse refusal glued before the agent's record of its exit 2 (a paste that lost the
            return None  # line break): the refusal is the news, every worker is launched the same way (lead rule U2)
        pf = None if m else S.R_PROCESS_FAILURE.search(text)
        if pf:
            ev = self._context(lineno, text, "worker_failed")
            ev.rank = None  # the agent's record names a local rank, not a global one
            ev.data.update(exitcode=int(pf.group(3)), local_rank=int(pf.group(1)), pid=int(pf.group(2)))
            return ev
        wrap = None if m or pf else S.R_WORKER_FAILED_WRAP.search(text)
        if wrap:  # the pid went to the next line (a wrapped console): the local rank and exit code are whole
            ev = self._context(lineno, text, "worker_failed")
            ev.rank = None
            ev.data.update(exitcode=int(wrap.group(1)), local_rank=int(wrap.group(2)), pid=None)
            return ev
        cut = None if m else S.R_WORKER_FAILED_CUT.search(text)
        if cut:  # the paste lost "local_rank: N (pid: P)": the pid is the one the agent's clean-up did not stop
            ev = self._context(lineno, text, "worker_failed")
            ev.rank = None
            pid, local = _pid_gap(self.closed_pids)
            ev.data.update(exitcode=int(cut.group(1)), local_rank=local, pid=pid)
            if local is not None:
                ev.data["local_from"] = f"pid {pid}, the one gap in the pids torchrun's agent stopped"
            return ev
        if not m:
            ev = self._launcher_exit(lineno, text)
            if ev is not None:
                return ev
            k = S.R_HOST_KILL.search(self._body) if ("Killed" in text or "oom" in text.lower() or
                                                     "resource: memory" in text or "MemoryPressure" in text) else None
            if k and self._self_kill and re.fullmatch(r"(?:\S+: line \d+: +\d+ )?Killed", k.group(0).strip()):
                return self._context(lineno, text, "self_kill")  # the serving framework's own kill (lead rule P)
            sh = None if k else S.R_SHELL_SIGNAL.search(self._body)
            if sh:  # the shell's "Bus error" / "Segmentation fault": that process died of SIGBUS / SIGSEGV
                ev = self._context(lineno, text, "worker_failed")
                ev.rank = None
                ev.data.update(exitcode=-7 if sh.group(1) == "Bus error" else -11, local_rank=None, pid=None)
                return ev
            if not k:
                return None
            ev = self._context(lineno, text, "worker_failed")  # SIGKILL from outside: read as exit code -9
            ev.rank = None
            ev.data.update(exitcode=-9, local_rank=None, pid=None, killed=k.group(0).strip())
            return ev
        ev = self._context(lineno, text, "worker_failed")
        ev.rank = None  # torchrun names a local rank here, not a global one
        ev.data.update(exitcode=int(m.group(1)), local_rank=int(m.group(2)), pid=int(m.group(3)))
        return ev

    def _mpi_first(self, lineno: int, text: str, body: str) -> Event | None | bool:
        """The lines of mpirun's "The first process to do so was:" block: its rank, then its exit code (an event
        of that global rank, as torchrun's table gives one). False: not a line of the block."""
        p = S.R_MPI_PROC.match(body)
        if p:
            self._mpi_rank, self._follow = int(p.group(1)), 3
            return None
        x = S.R_MPI_CODE.match(body)
        if x and self._mpi_rank is not None:
            ev = self._global_exit(lineno, text, self._mpi_rank, int(x.group(1)))
            ev.data["launcher"] = "mpirun"
            self._mpi_block, self._mpi_rank = -99, None
            return ev
        if not body.strip() or body.lstrip().startswith(("The first process", "the job to be terminated", "-")):
            self._follow = max(self._follow, 4)
            return None
        return False

    def _global_exit(self, lineno: int, text: str, rank: int, code: int | None, host: str | None = None) -> Event:
        ev = Event("child_failed", f"{self.path}:{lineno}", text.strip()[: S.TEXT_CAP])
        ev.rank, ev.host = rank, host
        ev.data.update(root=False, local_rank=None, exitcode=code, pid=None,
                       signal=S.SIGNALS_BY_NUMBER.get(-code) if code is not None and code < 0 else None, time=None,
                       traceback="")
        return ev

    def _launcher_exit(self, lineno: int, text: str) -> Event | None:
        """A worker's exit as DeepSpeed's launcher, torch.multiprocessing.spawn or subprocess
        report it, read like torchrun's 'failed (exitcode: N)' (-9: killed from outside)."""
        died = S.R_RAY_DIED.search(text) if ("unexpected system error" in text
                                             or "unexpectedly exits" in text) else None
        if died:
            ev = self._context(lineno, text, "ray_died")
            ev.rank = None  # the raylet's line: a Ray worker process, not a rank
            ev.data.update(ip=died.group("ip"), pid=_int(died.group("pid")))
            return ev
        node = S.R_RAY_NODE_DEAD.search(text) if "marked dead" in text else None
        if node:  # Ray's GCS lost a whole node: its workers are gone, why the line does not say
            ev = self._context(lineno, text, "ray_died")
            ev.rank = None
            ev.data.update(ip=node.group("ip"), pid=None, node=True)
            return ev
        pa = S.R_PADDLE_ABORT.search(text) if "trainers, the trainer" in text else None
        if pa:  # Paddle's launch_utils: the trainers (global ranks) whose process exited nonzero, codes not printed
            evs = []
            for r in dict.fromkeys(int(x) for x in pa.group(2).split(",")):
                ev = self._global_exit(lineno, text, r, None)
                ev.data.update(died=True, whole=True, world=int(pa.group(1)), launcher="Paddle's launch_utils")
                evs.append(ev)
            self.queued += evs[1:64]
            return evs[0]
        pc = S.R_PADDLE_CONTAINER.search(text) if "Container rank" in text else None
        if pc:  # paddle.distributed.launch: the failed worker's index on its node and its exit code
            ev = self._context(lineno, text, "worker_failed")
            ev.rank = None
            ev.data.update(exitcode=int(pc.group(2)), local_rank=int(pc.group(1)), pid=None,
                           launcher="paddle.distributed.launch")
            return ev
        g = S.R_GLOBAL_EXIT.search(text)
        if g:  # a launcher's record that names the global rank
            if g.group("kr"):
                return self._global_exit(lineno, text, int(g.group("kr")), -15 if g.group("ks") == "SIGTERM" else -9)
            if g.group("mr"):
                ev = self._global_exit(lineno, text, int(g.group("mr")), -int(g.group("ms")), g.group("mh"))
                ev.data["launcher"] = "mpirun"
                return ev
            if g.group("hr"):  # horovodrun: a status above 128 is the shell's word for a signal (137: SIGKILL)
                status = int(g.group("hc"))
                ev = self._global_exit(lineno, text, int(g.group("hr")),
                                       128 - status if 128 < status < 160 else status)
                ev.data.update(launcher="horovodrun", status=status)
                return ev
            if g.group("vr") or g.group("rr"):  # the first worker the executor saw die (its exit code not printed)
                if S.R_VLLM_DP.search(text):
                    return None  # a data-parallel engine's own worker index, not a rank of the job
                ev = self._global_exit(lineno, text, int(g.group("vr") or g.group("rr")), None)
                ev.data["died"] = True
                return ev
            return self._global_exit(lineno, text, int(g.group("cr") or g.group("gr")), int(g.group("cc") or
                                                                                             g.group("gc")))
        m = S.R_LAUNCHER_EXIT.search(text)
        ray = None if m else S.R_RAY_OOM.search(text)
        if not m and not ray:
            return None
        ev = self._context(lineno, text, "worker_failed")
        ev.rank = None  # a launcher's line: at most a local rank or a process index
        if ray:
            ev.data.update(exitcode=-9, local_rank=None, pid=None, killed="Ray's memory monitor (host memory)")
            return ev
        sig = m.group("mpsig")
        ws = int(m.group("ws")) if m.group("ws") else None  # a raw wait status: a signal, or an exit code << 8
        if m.group("mpexc") and not self._spawn_world:
            return None  # a spawn child's index, which is a rank only where nprocs is shown to be the world size
        code = m.group("ds") or m.group("mp") or ("1" if m.group("mpexc") else None) or m.group("sp") or (
            m.group("vw")) or (
            (f"-{ws & 0x7f}" if ws & 0x7f else str(ws >> 8)) if ws is not None else None) or (
            f"-{m.group('spsig')}" if m.group("spsig") else
            f"-{S.SIGNAL_BY_NAME[sig]}" if sig in S.SIGNAL_BY_NAME else None)
        lr = S.R_DS_LOCAL_RANK.search(text)
        local = int(lr.group(1)) if lr else (int(m.group("idx")) if m.group("idx") else None)
        ev.data.update(exitcode=int(code) if code else None, local_rank=local, pid=None)
        if (m.group("ds") or m.group("sp") or m.group("spsig")) and local:
            # lead rule M: DeepSpeed's launch.py prints `cmd` left over from its spawn loop, the LAST worker it
            # launched (--local_rank=N of N+1), beside the return code of whichever worker failed: it names the
            # failed one only when the node ran a single worker (--local_rank=0). torch 1.x's
            # torch.distributed.launch does the same in its CalledProcessError ("Command '[..., '--local_rank=7',
            # ...]' died with <Signals.SIGSEGV: 11>" / "returned non-zero exit status 1"): lead rule U (5)
            ev.data.update(local_rank=None, last_launched=local)
        return ev

    def _ds_runner(self, lineno: int, text: str, ev: Event | None) -> None:
        """DeepSpeed's resources per host ({host: [GPU ids]}, one worker a GPU): its runner's command line
        (R_DS_WORLD_INFO, --world_info decoded) or its launcher's "WORLD INFO DICT" (R_DS_WORLD_DICT); a caller's
        report of a command's exit status (R_CMD_STATUS); a launcher's own record of a failed worker. Read by _ds_status
        at the end of the file; the lines are read on as they were."""
        if self._ds_world is None and "world_info" in text and (w := S.R_DS_WORLD_INFO.search(text)):
            b64 = w.group(1)
            try:
                self._ds_world = _hosts_gpus(json.loads(base64.urlsafe_b64decode(
                    b64.replace("+", "-").replace("/", "_") + "=" * (-len(b64) % 4))))
            except (ValueError, TypeError):
                pass
        elif self._ds_world is None and "WORLD INFO DICT" in text and (w := S.R_DS_WORLD_DICT.search(text)):
            try:
                self._ds_world = _hosts_gpus(ast.literal_eval(w.group(1)))
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                pass
        st = S.R_CMD_STATUS.search(text) if "non-zero" in text else None
        if st and (self._cmd_status is None or self._cmd_status[2] == int(st.group(1))):
            own = [ev] if ev is not None and ev.kind == "worker_failed" else []  # subprocess's form, read already
            if self._cmd_status is None:
                self._cmd_status = (lineno, text, int(st.group(1)), own)
            elif len(self._cmd_status[3]) < 8:
                self._cmd_status[3].extend(own)  # the same status told again (a traceback printed twice)
        elif not st and ev is not None and ev.kind in ("worker_failed", "child_failed"):
            self._worker_record = True

    def _ds_status(self) -> None:
        """Lead rules M and F (with A): a caller reports that the command it ran exited with status 256 - N (N a crash
        signal: 249 = 256 - 7, SIGBUS) where DeepSpeed's runner's own command line is shown. The runner exits with
        its launcher's status, and the launcher with sys.exit(the failed worker's returncode): -N, a worker killed by
        signal N. Which worker the status does not say: --world_info does when the job ran ONE worker (one host, one
        GPU): local rank 0 of a single-node job. With several workers nobody is named. Not read where a launcher's own
        record of the failed worker is in the file (that record says more), nor for any other status."""
        lineno, text, status, own = self._cmd_status
        sig = 256 - status
        if sig not in S.DS_STATUS_SIGNALS or self._worker_record:
            return
        workers = sum(len(v) for v in self._ds_world.values())
        one = workers == 1 and len(self._ds_world) == 1
        evs = own or [self._context(lineno, text, "worker_failed")]
        host = next(iter(self._ds_world))
        for ev in evs:
            ev.rank = None  # the caller's line, not a rank's
            ev.data.update(exitcode=-sig, local_rank=0 if one else None, pid=None, ds_status=status,
                           launcher="DeepSpeed's runner")
            ev.data.pop("last_launched", None)
            if one:
                ev.data["local_from"] = (f"launch: DeepSpeed ran one worker ({host}: GPU {self._ds_world[host][0]}), "
                                         f"whose signal {sig} the status {status} (256 - {sig}) passes on")
        if not own:
            self.aside += evs
        self.ds_kill = None  # its "Killing subprocess" lines are the same failure, its return code now read

    def _beside(self, lineno: int, text: str) -> Event | None:
        """The stacks beside NCCL that move data themselves: DeepEP's kernel timeouts, UCX's endpoint timeouts
        (beside_timeout), and NVSHMEM's bootstrap (NCCL's socket code) receiving a message of the wrong size."""
        if "DeepEP" in text and S.R_DEEPEP_TIMEOUT.search(text):
            ev = self._context(lineno, text, "beside_timeout")
            ev.rank = None  # the rank DeepEP prints is one that waited, not one that failed
            ev.data.update(stack="DeepEP", rdma="RDMA" in text)
            return ev
        if "UCX" in text and S.R_UCX_TIMEOUT.search(text):
            ev = self._context(lineno, text, "beside_timeout")
            ev.data.update(stack="UCX", rdma=False)
            return ev
        if "expandable_segments not supported" in text:  # torch: this platform has no CUDA virtual memory (cuMem)
            ev = self._context(lineno, text, "benign")
            ev.rank = None
            ev.data["what"] = "no cuda vmm"
            return ev
        if "truncated" in text and (m := S.R_NVSHMEM_TRUNC.search(text)):
            ev = self._context(lineno, text, "nccl_warn")
            ev.data["warn"] = "NVSHMEM bootstrap: " + m.group(1)
            return ev
        return None

    def _nccl_info(self, lineno: int, text: str) -> Event | None:
        if "WARN" not in text and S.R_EFA_MEANT.search(text):  # lead rule Z: the job was meant to run on EFA
            ev = self._context(lineno, text, "benign")
            ev.data["what"] = "efa fabric meant"
            return ev
        if "NIC info" in text and S.R_OFI_NO_NIC.search(text):  # the plugin could not read its device (rules J/Z)
            ev = self._context(lineno, text, "benign")
            ev.data["what"] = "ofi device not found"
            return ev
        if "infiniband " in text and S.R_RDMA_REFUSED.search(text):  # the RDMA driver refusing a resource (rule J)
            return self._context(lineno, text, "rdma_refused")
        m = S.R_NCCL_PREFIX.search(text)
        if not m and "WARN" not in text:
            return self._retcode(lineno, text)
        if not m or m.group("lvl") == "WARN":  # a WARN pasted without its host:pid:tid prefix counts too
            w = S.R_NCCL_WARN.search(text) or S.R_OLD_WARN.search(text) or S.R_OFI_OLD_WARN.search(text)
            if not m and w is None:
                return self._retcode(lineno, text)
            ev = self._context(lineno, text, "nccl_warn")
            ev.data["warn"] = w.group(1).strip()[:200] if w else ""
            st = S.R_SOCKET_TIMEOUT.search(text)
            if st:  # a socket's recv/send timed out (counted apart: lead rule O)
                ev.data.update(tags=("socket_timeout",), peer=st.group(1))
            elif S.R_SOCKET_PROGRESS.search(text):  # a running transfer of NCCL's socket transport failed
                ev.data["tags"] = ("socket_progress",)
            return ev
        if S.R_NO_PLUGIN.search(text):  # INFO: an optional net/CollNet plugin is absent, NCCL goes on without it
            ev = self._context(lineno, text, "benign")
            ev.data["what"] = "net plugin absent"
            return ev
        nr = S.R_NRANKS.search(text)
        split = nr is not None and ("ncclCommSplit" in text or " parent 0x" in text)
        if nr and not split and len(self.pid_rank) < MAX_PIDS:
            self.pid_rank[(m.group("host"), int(m.group("pid")))] = int(nr.group(1))
        found = {}
        ifs = S.R_IFACES.search(text)
        if ifs:
            found["interfaces"] = S.R_IFACE.findall(ifs.group(1))[:8]
            if ifs.group(0).startswith("Bootstrap"):  # its bootstrap uses the first it lists, the others not at all
                found["bootstrap_ifaces"] = True
        u = S.R_NET_USING.search(text)
        if u:
            found["network"] = u.group(1) or u.group(3)
            if u.group(2):
                found["using"] = u.group(2).strip()[:200]
        if S.R_NO_IB.search(text):
            found["no_ib"] = True
        e = S.R_SET_BY_ENV.search(text)
        if e:
            found["setting"] = (e.group(1), e.group(2).rstrip(".,"))
        if nr:
            found["nranks"] = int(nr.group(2))
            found["comm_rank"] = int(nr.group(1))
        if S.R_SETUP_DONE.search(text):
            found["setup_done"] = True
        if nr and S.R_COMM_ABORTED.search(text):
            found["aborted"] = True
        if not found:
            return self._retcode(lineno, text)
        ev = self._context(lineno, text, "transport")
        if nr and ev.rank is None:
            ev.rank = int(nr.group(1))
        if split:  # ncclCommSplit's "rank N" is the rank inside the new sub-communicator, not a global rank, and
            ev.rank = None  # the line says nothing of the process at the failure: it shows no rank of the job
        ev.data.update(found)
        return ev

    def _progress(self, lineno: int, text: str) -> Event | None:
        """How far a job got: NCCL's set-up chatter (rings, trees, channels: ``setup``) and an
        nccl-tests run's device list and table header (``run_start``) and its result rows or
        closing average (``run_done``). A ring line also names the rank of the thread printing it."""
        if S.R_SETUP.search(text):
            ev = self._plain(lineno, text, "setup")
            me = S.R_RING_SELF.search(text)
            if me and ev.host is not None and self.pid_rank.get((ev.host, ev.pid)) is None:
                key = (ev.host, ev.pid, S.R_NCCL_PREFIX.search(text).group("tid"))
                # one thread that prints rings of two ranks (one process driving several GPUs) names nobody
                self.ring_rank[key] = int(me.group(1)) if self.ring_rank.get(key, int(me.group(1))) == int(
                    me.group(1)) else -1
            ev.data["net"] = bool(S.R_SETUP_NET.search(text))
            return ev
        if "nThread" in text and S.R_TESTS_PREAMBLE.search(text):
            last, self._preamble = self._preamble, lineno
            if last is not None and 0 < lineno - last <= _PREAMBLE_NEAR:  # a second process's own preamble (rule AA)
                ev = self._plain(lineno, text, "launch_args")
                ev.data["own_worlds"] = True
                return ev
            return None
        d = S.R_TESTS_DEVICE.search(text)
        if d:
            self._preamble = None  # the first run's device list: a preamble after it is another run's
        if d or S.R_TESTS_HEADER.search(text):
            ev = self._plain(lineno, text, "run_start")
            ev.data["host"] = d.group("host") if d else None
            if d:  # rank 0 prints every process's device line: the highest rank listed + 1 is the world
                ev.data["tests_rank"] = int(d.group("rank"))
            return ev
        t = S.R_PYSPY_TEARDOWN.search(self._body) if "distributed_c10d" in text else None
        if t:  # a py-spy dump: a thread inside the process group's teardown
            ev = self._context(lineno, text, "teardown_stuck")
            ev.data["what"] = t.group(1)
            return ev
        if S.R_TESTS_DONE.search(self._body):
            return self._plain(lineno, text, "run_done")
        # printed by rank 0 of a communicator only (showVersion)
        if "NCCL version" in self._body and S.R_NCCL_VERSION_LINE.match(self._body.strip()):
            return self._plain(lineno, text, "nccl_version")
        bar = S.R_LOADING_SHARDS.search(text)
        if bar:  # the processes were loading the model's weights (host RAM), unless the bar is at its end
            ev = self._plain(lineno, text, "loading")
            ev.data["done"] = bool(S.R_LOADING_DONE.search(text, bar.end()))
            return ev
        return None

    def _plain(self, lineno: int, text: str, kind: str) -> Event:
        """An event of how far the job got: its host and process, never a rank (it is no rank's
        failure, and naming one here would change which rank later unranked lines are given)."""
        ev = Event(kind=kind, where=f"{self.path}:{lineno}", text=text.strip()[: S.TEXT_CAP])
        m = S.R_NCCL_PREFIX.search(text)
        if m:
            ev.host, ev.pid = m.group("host"), int(m.group("pid"))
            ev.data["dev"] = int(m.group("dev"))
        return ev

    def _retcode(self, lineno: int, text: str) -> Event | None:
        """NCCL's return-code trail ("NCCL INFO bootstrap.cc:270 -> 2"), whatever the prefix."""
        rc = S.R_RETCODE.search(text) if " -> " in text else None
        if not rc:
            return None
        ev = self._context(lineno, text, "transport")
        ev.data["retcode"] = (rc.group(1), int(rc.group(2)))
        return ev

    # -- torchrun's failure summary -------------------------------------------------
    def _child_failed(self, lineno: int, text: str) -> tuple[bool, Event | None]:
        """(handled, event) for a line inside the summary; a line that does not belong
        to it ends the summary and is parsed as usual."""
        m = S.R_CF_FIELD.match(text)
        if not m:
            t = text.strip()
            if "Root Cause" in t:
                self.cf_section, self._follow = "root", 8
                return True, None
            if t.startswith("---"):  # between "Failures:" and "Root Cause": keep reading
                self._follow = 2
                return True, None
            if t.startswith("==="):
                cut = self._cut_entry()
                self.cf_section, self._follow = None, 0
                return True, cut
            if t.endswith("]:") or t == "<NO_OTHER_FAILURES>":  # "[1]:" starts the next entry
                cut = self._cut_entry()
                self._follow, self.cf, self._cf_ev = 7, {}, None
                return True, cut
            if not t and self._cf_more > 0:  # a blank line unwrap() left for a piece it joined: read on
                self._cf_more -= 1
                self._follow = max(self._follow, 2)
                return True, None
            if self._cf_last == "traceback" and self._cf_more > 0:
                # the traceback's own lines (the exception of an error_file, or the rest of a wrapped line):
                # read as usual, and the summary goes on after them
                self._cf_more -= 1
                self._follow = max(self._follow, 2)
                return False, None
            self._pending = self._cut_entry()  # returned with the next line that yields nothing else
            self.cf_section, self.cf = None, {}
            return False, None
        field, value = m.group(1), m.group(2).strip()
        self._follow, self._cf_line, self._cf_last, self._cf_more = 1, lineno, field, 40
        if field == "traceback" and self._cf_ev is not None and not self.cf:
            # the entry was emitted at its error_file line (a paste may end there): add its traceback
            ev, self._cf_ev = self._cf_ev, None
            sig = S.R_SIGNAL.search(value)
            ev.data.update(traceback=value[:200], signal=ev.data.get("signal") or (sig.group(1) if sig else None))
            ev.text = (ev.text + f"; traceback={value}")[: S.TEXT_CAP]
            ev.where = f"{self.path}:{lineno}"  # the entry ends at its traceback line
            return True, None
        self.cf[field] = value
        if field not in ("traceback", "error_file"):
            return True, None
        return True, self._cf_event(lineno, keep=field == "error_file")

    def _cf_event(self, lineno: int, keep: bool) -> Event:
        """The summary entry read so far as one event; ``keep``: its traceback may still follow."""
        ev = Event("child_failed", f"{self.path}:{lineno}",
                   "; ".join(f"{k}={v}" for k, v in self.cf.items())[: S.TEXT_CAP])
        r = S.R_CF_RANK.match(self.cf.get("rank", ""))
        x = S.R_CF_EXIT.match(self.cf.get("exitcode", ""))
        sig = S.R_SIGNAL.search(self.cf.get("exitcode", "") + " " + self.cf.get("traceback", ""))
        ev.rank = int(r.group(1)) if r else None
        ev.host = self.cf.get("host")
        # torchrun lists under "Failures:" every failure BESIDES its root cause (ChildFailedError.format_msg): an
        # entry there says another process failed on its own too, shown or not
        ev.data.update(root=self.cf_section == "root", listed=self.cf_section == "other" and self._cf_listed,
                       local_rank=int(r.group(2)) if r else None,
                       exitcode=int(x.group(1)) if x else None, pid=int(x.group(2)) if x else None,
                       signal=sig.group(1) if sig else None, time=self.cf.get("time"),
                       traceback=self.cf.get("traceback", "")[:200])
        t = self.cf.get("time", "")
        ev.ts = S.parse_timestamp(t) if t else None
        self.cf, self._cf_ev = {}, ev if keep else None
        return ev


def _prefix_rank(text: str) -> int | None:
    """The rank a line's launcher prefix names (torchrun's "[rank3]:"/"[default3]:", mpirun's "[1,3]<stderr>:" and
    horovodrun's "[3]<stderr>:"), or None: which process's stack a frame line belongs to."""
    m = _innermost(S.R_RANK_TAG, text) or S.R_MPI_TAG.search(text)
    return int(m.group(1) or m.group(m.lastindex or 1)) if m else None
