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
own_wait             a process's own "still in queue" / "still waiting" line printed a third time unchanged (a wait
                     shown not ending, in the framework's own words: R_STILL_WAITING)
serving_watchdog     a serving framework's own watchdog (SGLang's scheduler ``Watchdog timeout
                     (self.watchdog_timeout=N)``, vLLM's ``RPC call to X timed out``); ``self_kill``: its
                     SIGQUIT line and the bare ``Killed`` after either (its own kill, not the OOM killer)
dataloader           DataLoader worker killed by a signal / bus error (shared memory), and torch failing to create
                     the shared-memory file of a tensor passed between processes (``unable to write to file
                     </torch_...>``: /dev/shm full)
cuda_check           a c10 backtrace frame of the watchdog's CUDA check of a finished work (R_CUDA_CHECK_FRAME): a CUDA
                     error on that GPU, its message not shown (read only where no cuda_error line is)
cuda_oom             CUDA out of memory; torch.cuda.memory_summary()'s ``CUDA OOMs: N`` row with N >= 1 (``count``)
driver_oom           a CUDA driver call's ``CUresult error result=2`` (out of memory), e.g. torch_memory_saver's
                     cu_mem_create: a lead for the process that never reached a collective, not a verdict
traceback_tail       a traceback's last line ``SomethingError: text`` (kept apart, state.Collected.exceptions),
                     and a line that announces an error no other family reads (``Error: failed to run ...``,
                     ``ERROR: ...``): a failure shown, whose cause the lines do not give
no_nccl              the NCCL backend asked for on a CPU-only torch or a machine without GPUs (or no loadable libnccl)
child_failed         torchrun's ChildFailedError summary (one event per failure entry)
worker_failed        torchrun's ``failed (exitcode: N) local_rank: R (pid: P)``
group_failed         torchrun's agent's ``Worker group FAILED. N/M attempts left`` (a worker failed; its record: which)
nccl_warn            any other ``NCCL WARN``
ddp_params           DDP's "expects same model across all ranks" (the ranks built different models)
crash                a native crash handler's ``Caught signal 11 (Segmentation fault ...)`` and the
                     libraries of its backtrace frames (``libnccl.so`` first: NCCL crashed)
fatal_python         the interpreter's ``Fatal Python error: ...`` (an abort in the interpreter or a C extension)
cpp_terminate        C++'s ``terminate called without an active exception`` (std::terminate with no exception: a
                     joinable std::thread destroyed; the process aborts)
launch_arg           argparse's usage error on the launcher's ``--local-rank``/``--local_rank`` argument
transport            NCCL INFO lines naming the network (IB or the Socket fallback), the
                     interface, ``X set by environment to Y``, and ``rank r nranks n``
rpc_setup            a framework's own RPC transport failing at start-up: DistDGL's server socket that cannot bind
                     (``Failed bind on IP:PORT , error: ...``), torch RPC's start-up barrier whose followers did not
                     answer (``Followers [...] timed out in _all_gather after N seconds``)
                     and a collective library's bootstrap root that no rank reached (HCCL's EI0015 ``No rank in the
                     communicator can connect to the root node``: ``root``)
===================  ====================================================================
"""

from __future__ import annotations

import ast
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

    def site(self) -> tuple[str, int]:
        """The file and line number of ``where`` (path:line); -1 where no number ends it."""
        path, _, n = self.where.rpartition(":")
        return path, int(n) if n.isdigit() else -1



def before_top_comma(text: str) -> str:
    """``text`` up to its first comma outside brackets (an assert's condition before its message), else all of it."""
    depth = 0
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth <= 0:
            return text[:i]
    return text

# --- prefixes: rank, process group, time, host/pid ---------------------------------
# torch >= 2.2's "[rank3]:", Lightning's rank_prefixed_message "[rank: 3] " and vLLM's multiproc worker prefix
# "(VllmWorker rank=3 pid=15164)" (its rank in the engine's world: "rank 3 in world size 8 is assigned as ... TP
# rank 3"). A prefix naming only the process ("(RayWorkerWrapper pid=5304)"), or a TP index, names no rank (but see
# R_SGLANG_CRASH).
# A paste that lost the first character of its first line keeps "rank0]:[W508 ..." (no "["): still the same prefix.
# A logger's per-process prefix "rank:  3 | " (ParlAI's distributed_context: 'rank:{:3d} |' before each record, the
# record's time and level after it) names the rank that logged the record too: only with the record's clock right
# after it ("rank:  3 | 2022-04-03 18:44:26,615 CRITICAL | ...", "rank:  3 | 18:44:26 CRIT | ..."), never a column
# of a table ("| rank: 3 | loss 3.41 |")
R_RECORD_RANK = re.compile(r"(?:^|(?<=[\s\]>:]))rank: {0,3}(\d{1,7}) \| (?=(?:\d{4}-\d\d-\d\d )?\d\d:\d\d:\d\d\b)")
# A launcher's per-process record prefix after its logger's clock ("2023-02-17 22:40:24,365 (worker_7) : ..."): the
# process's index, its global rank (round 90's bigcode-megatron-27); stripped after the clock too (R_LINE_PREFIX)
R_WORKER_RECORD = re.compile(r"(?<=\d\d:\d\d:\d\d[,.]\d{3}) \(worker_(\d{1,7})\) : ")
R_RANK_TAG = re.compile(r"(?:\[|(?<![\w\[]))rank(\d+)\]:|\[rank: (\d+)\] |"
                        r"\([A-Za-z_]\w{0,63} rank=(\d{1,7}) pid=\d{1,10}\)|" + R_RECORD_RANK.pattern + "|"
                        + R_WORKER_RECORD.pattern)
# SGLang's own record of a process's crash, "[2025-01-01 12:00:00 TP3] Scheduler hit an exception: Traceback ...":
# its frames and error follow untagged. On that record, the TP index alone (no DP or PP index: one data- and
# pipeline-parallel group) is the crashed process's torch.distributed rank (SGLang inits the world with rank =
# tp_rank); with "DP0 TP3" or "PP1 TP3" it is a rank inside a group only. (A TP tag on other lines stays no rank:
# it is only the logger's prefix.)
# Older SGLang's record of the same crash, its traceback on the lines after it ("[23:17:08 TP4] Exception in
# run_tp_server:", logger.exception): the TP index (no DP/PP index) is the process's rank, as above
R_SGLANG_EXC_RECORD = re.compile(r"(?<=\d\d:\d\d:\d\d)(?P<grp>(?: [DP]P\d{1,5})*) TP(?P<tp>\d{1,5})\] Exception in "
                                 r"(?P<where>\w{1,60}):?\s*$")
R_SGLANG_CRASH = re.compile(r"(?<=\d\d:\d\d:\d\d) TP(\d{1,5})\] [A-Za-z]\w{0,40} hit an exception: Traceback")
R_PG_RANK = re.compile(
    r"\[(?:PG (?:ID )?(?P<pg>\d+)(?: PG GUID (?P<guid>[^\s(\]]+))? ?(?:\((?P<desc>[^)]*)\) ?)?)?Rank (?P<rank>\d+)\]"
)
# The watchdog's tag with its brackets lost ("E ProcessGroupNCCL.cpp:828 Rank 1 Watchdog caught collective operation
# timeout: ...": a paste through Markdown that took "[E ProcessGroupNCCL.cpp:828] [Rank 1]" for link text and kept only
# the words; round 100's accelerate-2062): torch prints "Rank N" right before its watchdog's words only as that tag, so
# it names the rank the bracketed tag names (parse._context). Only there -- a bare "Rank 1" anywhere else is prose's
# words. The group part is R_PG_RANK's, brackets dropped: "PG 3 Rank 1" and torch 2.3+'s "PG ID 3 PG GUID 3(TP) Rank 1"
# keep their group (and its description), whose "Rank 1" is the rank inside it (review 100 finding 5)
R_PG_RANK_BARE = re.compile(r"(?<![\w\[])(?:PG (?:ID )?(?P<pg>\d{1,7})(?: PG GUID [^\s(]{1,80})? ?"
                            r"(?:\((?P<desc>[^)]{0,120})\) ?)?)?Rank (?P<rank>\d{1,7}) "
                            r"(?=(?:Watchdog c|C)aught collective operation timeout)")
# the same tag ending its line: c10's message follows on the next line (a paste that wrapped it, parse._context)
R_PG_RANK_END = re.compile(R_PG_RANK.pattern + r"\s*$")
R_SRUN = re.compile(r"^\s*(\d+): ")
# mpirun --tag-output ("[1,3]<stderr>:" = job 1, rank 3) and --output-filename's "[1,3]<stdout>:"; horovodrun's
# gloo launcher tags each worker's output with its rank alone ("[2]<stderr>:", safe_shell_exec's index: the rank).
# torchx's per-process prefix "role/replica [local_rank]:" ("trainer/0 [1]:Traceback ..."): replica 0 is the first
# node, whose local ranks are the global ranks 0..nproc-1, so "/0 [N]:" names rank N; another replica's local index
# names no global rank without the per-node count (lead rule A's reading of a local rank)
R_MPI_TAG = re.compile(r"\[(?:\d{1,6},)?(\d{1,7})\]<std(?:out|err)>:|"
                       r"(?<![\w.\-/])[A-Za-z_][\w.\-]{0,63}/0 \[(\d{1,7})\]:")
# A bare "[N] " before each line (MPICH / Intel MPI's mpirun -l / -prepend-rank: the MPI rank, horovodrun's world
# rank) is, alone, no rank: the same shape is NCCL's CUDA device, a pid, a list's index. It names rank N only where
# the input ties the two: a line under "[N] " whose own logger names its process's rank as N in its header ("[1]
# DEEPMD rank:1  INFO ...", "[0] trainer rank=0 ..."); one line tying N to another rank unties the whole file
# (parse._bare_rank). R_BARE_TAG is the prefix, R_BARE_TIE the prefix with the logger's rank field near the start.
R_BARE_TAG = re.compile(r"^\[(\d{1,6})\] (?=\S)")
R_BARE_TIE = re.compile(r"^\[(\d{1,6})\] [^\n]{0,60}?\brank ?[:=] ?(\d{1,6})\b")
# Terminal colours (rich, loguru, colorlog, Lightning) and cursor codes: removed before matching.
R_ANSI = re.compile(r"\x1b\[[0-9;?]{0,32}[A-Za-z]")
# What launchers and collectors put before a line, stripped (one after another) for the
# patterns that anchor at the start (torchrun's summary fields, srun's "N: "): kubectl/Loki
# ISO timestamps, "[2024-05-01 12:00:00,123]" and "[INFO]" of Python logging, torchrun's
# "[default3]:" role prefix (a local rank), mpirun's "[1,3]<stderr>:", docker compose's
# "trainer-1  | ", sglang's "[2025-01-01 12:00:00 DP0 TP3]" and Ray's
# "(RayWorkerWrapper pid=5304, ip=10.0.0.1)", Determined's trial logs' "<info>    [2021-12-07 10:43:01] 087c0ee7 || "
# (level, clock, container id). (pdsh's "host: " is not stripped: it cannot be
# told from "error_file: ".)
# a log collector's ISO clock ("2024-05-01T12:00:00.123456789Z", "2024-05-01 12:00:00,123+02:00"): kubectl
# --timestamps, Loki, Python logging (also ingest._STAMP, where it starts every piece of a wrapped paste)
ISO_CLOCK = r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d{1,9})?(?:Z|[+-]\d\d:?\d\d)?"
R_LINE_PREFIX = re.compile(
    # (a role tag after the clock, sglang's " TP0", ends where its digits end: never the head of a longer number,
    # such as glog's header with its year, "F20220801 07:29:34.701110", whose level letter says FATAL; nor glog's
    # header without its year, "I0228 14:05:56.114109", whose level letter says INFO: a tag is not followed by a clock)
    r"^\s*(?:\[?" + ISO_CLOCK + r"(?: [A-Z]{1,4}\d{1,5}(?!\d)(?! \d\d:\d\d:\d\d)){0,3}\]?(?: \(worker_\d{1,7}\) :)?"
    r"|\([A-Za-z_]\w{0,63}(?: rank=\d{1,7})? pid=\d{1,10}(?:, ip=[\d.]{7,15})?\)"
    r"|\[(?:DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL)\]"
    # vLLM v1's logger head on the lines of a traceback it logs ("ERROR 07-17 07:31:11 [core.py:586]     self._init_"
    # "executor()", "... [core.py:586] AssertionError: ..."; round 91's rllm-147): the frames and exception line as the
    # process raised them. Its other records keep their head (R_VLLM_LOG_HEAD's level is what says they failed)
    # vLLM v0's head has no opening bracket ("ERROR 01-11 13:09:40 engine.py:366] RuntimeError: ...", round 97's
    # vllm-8189)
    r"|(?:ERROR|CRITICAL) \d\d-\d\d \d\d:\d\d:\d\d \[?[\w.]{1,80}:\d{1,6}\] "
    r"(?=Traceback \(|\s|[\w.]{1,120}(?:Error|Exception)\b)"
    # a platform's process role after the level ("2022-08-11 16:58:36.000 [INFO] [Driver] RuntimeError: ...": a
    # Spark / Ray style driver's log, round 78's yolox-1474), and loguru's "| INFO     | module:function:line - "
    # after its clock
    r"|\[(?:Driver|Executor|Worker|Master|Chief)\](?= )"
    r"|\| (?:TRACE|DEBUG|INFO|SUCCESS|WARNING|ERROR|CRITICAL) {0,8}\| [\w.]{1,64}:[\w<>]{1,64}:\d{1,6} -(?= )"
    # a launcher's "[default0]:" / "[rank3]:", not an address's "[host7]:58152 (" (a socket error's "[t2]:58152 (system
    # error ..." that a wrap put at the start of a piece): a port, then " (" or the end, is no prefix ("[default3]:8000,
    # Timeout(ms)=..." is a prefix before the rest of a number a wrap cut)
    r"|\[[A-Za-z_][\w\-]{0,31}?\d{1,5}\]:(?!\d{2,5}(?: \(|$))"
    # a multi-node runner's "[host:index]:" before each line ("[node2:7]:ValueError: ...": round 110's evaluate-481):
    # the host and the process's index there, which names no global rank; the index is a plain number, not a port
    # (an address "[host:29500]:" keeps its reading, as "[t2]:58152 (" above). Beside the other "[" heads: it fails at
    # the first character of a line that does not open with "[" (review 110 b #8)
    r"|\[[A-Za-z_][\w.\-]{0,63}:\d{1,3}\]:(?!\d{2,5}(?: \(|$))"
    r"|\[(?:\d{1,6},)?\d{1,7}\]<std(?:out|err)>:"
    r"|[A-Za-z_][\w.\-]{0,63}/\d{1,6} \[\d{1,7}\]:"  # torchx's "role/replica [local_rank]:"
    r"|std(?:out|err):(?= )"  # accelerate's test runner (test_utils execute_subprocess_async: "stderr: " + line)
    # a job runner's stream tag glued to each line of the worker's output ("[stderr]ModuleNotFoundError: ...",
    # "[stderr]  File ...": round 109's pytorch-77737, an Azure ML style runner). Only without a colon after it: the
    # "[stderr]: " of other collectors is left as it was read
    r"|\[std(?:out|err)\](?!:)"
    # pytest's report of a failed test's captured output, every line under "E" and its indentation ("E" then eleven
    # spaces, "RuntimeError: ProcessGroupHCCL does not support gather"; round 88's transformers-pr27120): the "E" and
    # the spaces up to pytest's own indentation (the traceback's own stays after it)
    r"|E {3,12}(?=\S| {2,4}\S)"
    r"|[\w.\-]{1,64} {1,16}\| "
    r"|<[a-z]{0,10}> {1,16}\[" + ISO_CLOCK + r"\] [\w.\-]{1,64} \|\|"  # Determined's "<info>  [clock] cid || "
    + r"|>(?: ?>){0,7})\s?"  # Markdown quoting of a pasted log ("> ", "> > "); the indentation after it stays
)
# milabench's per-run head before each line of a worker's output ("<bench>.<host>.<...> [stderr] [rank14]: ...":
# round 110's milabench-281): the run's name and the stream; the launcher's "[rankN]:" after it stays to be read. Kept
# out of R_LINE_PREFIX, whose other alternatives it would make try every line that opens with a word (backtracking up
# to 120 characters): prefix_match and strip_prefixes try it only where R_LINE_PREFIX matched nothing and the line
# holds " [std" (review 110 b #8)
_R_MILABENCH_HEAD = re.compile(r"^\s*[\w.\-]{1,120} \[std(?:out|err)\] (?=\S)")


def prefix_match(text: str) -> re.Match | None:
    """R_LINE_PREFIX's match of the line's head, or, where it matched nothing, milabench's run head behind its
    substring gate (None where neither matched)."""
    m = _PREFIX(text)
    if (m is None or not m.end()) and " [std" in text:
        return _R_MILABENCH_HEAD.match(text) or m
    return m


_PREFIX = R_LINE_PREFIX.match


# An experiment tracker's interactive login menu's last line, waiting for terminal input ("wandb: Enter your choice:",
# the next process's output often glued after it): readers.exits._exit_noise, verdict.tracker_setup._login_prompt
R_TRACKER_PROMPT = re.compile(r"\bwandb: Enter your choice:")
# a Python exception's own line glued after that prompt ("wandb: Enter your choice: ValueError: Tokenizer class ..."):
# the exception is what the line says, not a process waiting (readers.exits._exit_noise leaves it to its readers)
R_PROMPT_EXCEPTION = re.compile(r"\bEnter your choice: ?[A-Z][A-Za-z]*(?:Error|Exception): ")
# Lightning's DDP deadlock guard (reconciliate_processes / _sync_ddp's handler) re-raising the exception its process
# caught: "DeadlockDetectedException: DeadLock detected from rank: 0 \n Traceback ...", the rank its own global rank
R_PL_DEADLOCK = re.compile(r"\bDeadLock detected from rank: (\d{1,7})\b")
R_GLOG_TS = re.compile(r"\b[EIWF](\d\d)(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d+))?")
R_ISO_TS = re.compile(r"(\d{4})-(\d\d)-(\d\d)[ T_](\d\d):(\d\d):(\d\d)(?:[.,](\d+))?")
# Bounded quantifiers and a look-behind so a 64 KiB run of word characters costs one pass,
# not one pass per start position (a 50 MB single line once took minutes).
# NCCL 2.0-2.3 printed "host:pid:tid [dev] include/socket.h:194 WARN ..." without the word NCCL.
# The host may be blank (a container without a host name, or a paste that blanked it: "::16674:17023 [0] NCCL INFO",
# " :41367:41367 [1]") where the line starts there or a space or colon comes before it; not after other characters
# (a placeholder such as "<2nd node server>:5359:5359" is no blank host: its lines are left unread as before).
R_NCCL_PREFIX = re.compile(r"(?<![\w.\-])(?P<host>[\w.\-]{1,255}|(?<![^\s:])):(?P<pid>\d{1,10}):(?P<tid>\d{1,10}) "
                           r"\[(?P<dev>\d{1,4})\] "
                           r"(?:[\w/.]{1,64}:\d{1,6} )?(?:NCCL )?(?P<lvl>WARN|INFO)")
# A vendor NCCL build's bracketed prefix ("[node-0][101714:102099][1][proxy.cc:1354] NCCL INFO ..."): the same host,
# pid:tid, device and source location as NCCL's "node-0:101714:102099 [1] proxy.cc:1354 NCCL INFO", rewritten to it
R_NCCL_BRACKETED = re.compile(r"(?<![\w.\-\[])\[(?P<host>[\w.\-]{1,255})\]\[(?P<pid>\d{1,10}):(?P<tid>\d{1,10})\]"
                              r"\[(?P<dev>\d{1,4})\](?:\[(?P<src>[\w/.]{1,64}:\d{1,6})\])? ?(?=NCCL (?:WARN|INFO)\b)")
# NCCL_DEBUG_SUBSYS=COLL's line for every collective a process enqueues (enqueue.cc; RCCL prints the same):
# "AllReduce: opCount 28c sendbuff 0x.. recvbuff 0x.. count 9984512 datatype 7 op 0 root 0 comm 0x.. [nranks=4]
# stream 0x..". opCount (hex) counts the communicator's collectives: every member issues the same one at each count.
R_COLL_TRACE = re.compile(r"\bINFO (\w{2,32}): opCount ([0-9a-fA-F]{1,16}) [^\n]{0,300}?"
                          r"\bcomm (0x[0-9a-fA-F]{1,16}) \[nranks=(\d{1,7})\]")
# The same per-call line, and the tuner's TRACE of its choice for it (enqueue.cc/tuning.cc, NCCL_DEBUG=TRACE: "24 Bytes
# -> Algo 1 proto 0 time 2771.4"), read where no host:pid:tid prefix keeps them for the desync check: tracing of the
# algorithm and protocol NCCL chose, no failure (verdict.noise._none)
R_CALL_TRACE = re.compile(r"\bINFO \w{2,32}: opCount [0-9a-fA-F]{1,16} |"
                          r"\bTRACE \d{1,15} Bytes -> Algo (?P<algo>\d{1,2}) proto (?P<proto>\d)\b")

# --- families -----------------------------------------------------------------------
# torch_npu's ProcessGroupHCCL prints the same watchdog lines with WorkHCCL(SeqNum=..., OpType=...): read like NCCL's
# (lead rule AN (2): a non-CUDA accelerator's collective library is read like NCCL)
R_WORK = re.compile(r"Work(?:NCCL|Gloo|HCCL)?\((?P<body>[^()]*(?:\([^()]*\)[^()]*)*)\)")
R_WORK_CUT = re.compile(r"Work(?:NCCL|Gloo|HCCL)?\((?P<body>[^()]{1,400})$")  # a terminal wrapped the line
R_KV = re.compile(r"\b(\w{1,32})(?:\(ms\))?=([^,]{1,64})")
# torch 1.9-1.10 printed "[Rank 1] Caught collective operation timeout: WorkNCCL(OpType=..., Timeout(ms)=...)".
# The message's tail, "WorkNCCL(...) ran for N milliseconds before timing out", says the same where another
# process's output, interleaved into the line, cut its head ("Watchdog caught collective operat<...>ion timeout").
# The tail pasted on a line of its own, indented ("WorkNCCL(..., Timeout(ms)=600000)" / "  ran for 721595 milliseconds
# before timing out": round 104's deepspeed-course-17), reads the same once joined, its indent kept (ingest.unwrap,
# parse's cut join).
# A rank's watchdog line cut right after "Watchdog caught" (the paste or the terminal ended there: motr-63, round 74)
# is the same message -- ProcessGroupNCCL's watchdog prints nothing else after its "[Rank N] " / "[PG 0 Rank N] " tag
# and "Watchdog caught"; its collective is not shown (no SeqNum). Only with that tag, at the line's end. The same tagged
# message cut inside its last word ("[Rank 0] Caught collective operation timeou": funasr-332, round 78, a paste that
# ended there) is that message too: nothing else torch prints starts so. The tagged watchdog message cut anywhere
# after "Watchdog ca" ("[Rank 0] Watchdog caug", the abort's "Original reason for failure was: " quoting it, cut:
# rt-detr-599, round 79) is it too: torch's watchdog prints no other "Watchdog ca..." after its tag.
# "Watchdogcaught": the message a paste word-wrapped after "Watchdog", joined again without its blank where the
# pieces' width looked like a hard wrap (ingest.unwrap; round 105's pytorch-123023).
R_TIMEOUT = re.compile(r"(?:Watchdog ?c|\bC)aught collective operation timeout|timed out in blocking wait|"
                       r"\bWork[NH]CCL\([^()]{0,400}\(ms\)=\d{1,12}\) {1,8}"
                       r"ran for \d{1,12} milliseconds before timing out|"
                       r"\bRank \d{1,7}\] Watchdog ca[ught]{0,4}"
                       r"(?: c[olectiv]{0,9}(?: o[peration]{0,8}(?: t[imeou]{0,6})?)?)?\s*$|"
                       r"\bRank \d{1,7}\] Caught collective operation t[imeou]{0,5}\s*$")
# gloo's waits: unbound_buffer.cc "Timed out waiting Nms for recv operation"; pair.cc/buffer.cc "Read timeout [peer]"
# torch 1.x's ProcessGroupNCCL under NCCL_BLOCKING_WAIT: the waiting collective's own wait() throws "Operation timed
# out!" (WorkNCCL's blocking wait, no rank, op or SeqNum): read only right under a collective call's frame
R_BLOCKING_TIMEOUT = re.compile(r"\b(?:RuntimeError|DistBackendError): Operation timed out!")
# pair.cc's "Application timeout caused pair closure": the pair's own operation ran past the gloo timeout waiting for
# its peer and gloo closed the pair -- this process waited; a peer that later looks gone ("Connection closed by peer")
# only follows the close (lead rule B, rule Y by analogy)
R_GLOO_TIMEOUT = re.compile(r"Timed out waiting (\d+)ms for (?:recv|send) operation|(?:Read|Write) timeout \[|"
                            r"Application timeout caused pair closure")
# gloo's GLOO_ERROR_MSG header cut inside or right after its source site in tcp/unbound_buffer.cc ("RuntimeError:
# [../third_party/gloo/gloo/transport/tcp/un", "...tcp/unbound_buffer.cc:133]" and nothing after): that file's own
# error messages are only the send/recv waits timing out ("Timed out waiting Nms for recv operation to complete"; a
# pair's error it rethrows keeps the pair's site, its checks say "enforce fail at"), so the site fixes the message as
# rules BG (3), AM (1) read a cut site (readers.watchdog; round 88's returnn-1454). The name cut at any point from "un"
# on (a prefix of "unbound_buffer.cc" is checked in the reader: no other file of tcp/ starts with "u")
R_GLOO_WAIT_CUT = re.compile(r"\[[^\]\n]{0,200}gloo/transport/tcp/(un[\w.]{0,16})(?::\d{1,6})?\W{0,8}$")
GLOO_WAIT_FILE = "unbound_buffer.cc"
# Ascend HCCL's EI0006 inside a collective (torch_npu's HcclAllreduce ... "error code is 6"): "Getting socket times
# out. Reason: Remote Rank did not send the data in time" -- this rank was inside the collective, connected, waiting
# for a peer's data that never came: a waiting rank's line like gloo's recv timeout (lead rules B, E, Y), never its
# own failure, whatever the RuntimeError above it says
# The device's own word for the same wait (EI9999 "hccl fftsplus task timeout occurred during task execution, ...
# stuck notify num:1, timeout:30min"): the HCCL task of a collective sat on a notify -- a peer's signal that never
# came -- until HCCL_EXEC_TIMEOUT; the stream synchronize that reports it (ACL stream synchronize failed) is this
# rank waiting in the collective, not a fault of its device (lead rule AN (2))
# HCCL's EI0002 "The wait execution of the Notify register times out. Reason: The Notify register has not received
# the Notify record from remote rank: [24]" (taskType Notify Wait, the collective's tag): the same wait, by HCCL's
# host side -- this rank sat in the collective until HCCL_EXEC_TIMEOUT for a peer's record that never came; the remote
# rank it names is a group-local neighbour that may itself only be waiting, so it is not proven the missing one
# HCCL's EI0006 at an operator's first connection ("Get_Socket_Timeout(EI0006): Getting socket times out. Reason: 1.
# The remote does not initiate a connect request", under HcclAllocComResourceByTiling): the waiting side of a
# connection set-up whose remote never came -- rule H's first-collective wait, the same wait (lead rule BO (2)); a
# connect refused, unreachable or reset, or a failed address exchange, is another reading (network_setup)
# HCCL's P2P connection set-up between two devices of a node timing out on the waiting side (EI9999 "connected p2p
# timeout, timeout:600 s.local logicDevid:0,remote physic id:7 ... [FUNC:WaitP2PConnected]", loading a graph's
# collective task in MindSpore or torch_npu): the same first-connection wait, the peer named by a physical device id,
# not a rank (lead rules H, BO (2); round 108's mindspore-p2p-timeout)
R_HCCL_WAIT = re.compile(r"\bRemote Rank did not send the data in time|"
                         r"\bconnected p2p timeout, ?timeout: ?\d{1,7} ?s\b(?:.{0,40}?\bremote physic id: ?"
                         r"(?P<p2p_dev>\d{1,5}))?|"
                         r"\bGetting socket times out\. Reason: (?:1\. )?The remote does not initiate a connect\b|"
                         r"\bhccl fftsplus task timeout occurred\b.{0,200}?\bstuck notify\b|"
                         r"\bNotify register has not received the Notify record from remote rank\b")
R_RAN_FOR = re.compile(r"ran for (\d+) milliseconds")
R_STATUS = re.compile(
    r"(?:detected by watchdog at work|watchdog at work sequence id|Timeout at NCCL work):? (?P<at>-?\d+)"
    r"[,.]? *(?:PG status: )?[Ll]ast enqueued (?:NCCL )?work: (?P<enq>-?\d+), [Ll]ast completed (?:NCCL )?work: "
    r"(?P<done>-?\d+)"
)
# torch 2.6+: "[PG ID 0 ... Rank 4] Received a dump signal due to a collective timeout from  rank 7 and we will
# try our best to dump the debug info. Last enqueued NCCL work: 56118, last completed NCCL work: 56118."
# The queue numbers are optional: a hard-wrapped line whose pieces each carry a launcher's prefix is not rejoined,
# and its first piece alone still says whose watchdog timed out ("from this local rank": this rank's own).
R_DUMP_SIGNAL = re.compile(r"Received a dump signal due to a collective timeout from\s+(?:rank (?P<from>\d+)|"
                           r"(?P<self>this local rank))(?:[^.]{0,80}\.\s*Last enqueued \w{1,8} work: (?P<enq>-?\d+), "
                           r"last completed \w{1,8} work: (?P<done>-?\d+))?")
R_NCCL_CODE = re.compile(r"ncclSystemError|ncclRemoteError|ncclInternalError|ncclUnhandledCudaError|"
                         r"ncclInvalidUsage|ncclInvalidArgument")
# (Horovod's and TensorFlow's own wording names the NCCL call: "ncclAllReduce failed: unhandled cuda error",
# "ncclCommInitRank failed: unhandled cuda error"; XLA's nccl_utils.cc names it with its arguments: "NCCL operation
# ncclCommInitRank(&comm, nranks, id, rank) failed: internal error" -- a short list only: a long one is hard-wrapped)
# (PaddlePaddle's enforce: "OSError: (External) NCCL error(2), unhandled system error.", the code in brackets)
# (DeepBench's NCCL check: "NCCL failure: unhandled cuda error in nccl_mpi_all_reduce.cu at line: 86 rank: 0")
# (TensorRT-LLM's NCCLCHECK: "Failed, NCCL error /src/.../opUtils.cpp:125 'unhandled system error (run with ...)'")
# (HugeCTR's CK_NCCL_THROW_: "RuntimeError: Runtime error: unhandled system error", the NCCL call on the next line:
# only NCCL's own distinctive wordings after a bare "Runtime error: ", never its generic "internal error")
# (a paste cut inside "unhandled system error" at the line's end, "NCCL error: unhandled syst": no other NCCL string
# starts "unhandled sys", so it is ncclSystemError -- readers.nccl; round 90's awesome-akash-543, vLLM's NCCL_CHECK)
# (NCCL's words retyped into a report with the "d" of "unhandled" dropped, "NCCL error in: .../ProcessGroupNCCL.cpp:272,
# unhanled system error": the same string of NCCL's after the same check's head, read as it -- round 96's pytorch-23363)
# (the same head with the site's path elided by the reporter, "NCCL error in: ... /torch/lib/c10d/ProcessGroupNCCL.cpp:
# 290, unhandled system error": an ellipsis and a space before the rest of the path -- round 99's azureml-bert-34)
R_NCCL_OLD = re.compile(r"(?:NCCL error(?:\(\d{1,2}\))?(?: in: (?:(?:\.{3}|\u2026) )?\S+?:\d+)?[,:]? |"
                        r"\bRuntime error: (?=unhandled (?:system|cuda) error\b|remote process exited or)|"
                        r"\bOP_REQUIRES failed at \w{0,40}nccl\w{0,40}\.cc:\d{1,6} : \w{1,20}: |"
                        r"\bNCCL communication aborted: |"
                        r"NCCL (?:failure|error) \S+:\d+ '|NCCL Error \d: |\bNCCL failure: |"
                        r"\bnccl[A-Z]\w{2,40}(?:\([\w&, ]{0,40}\))? failed: )("
                        r"unhand?led system error|unhandled sys(?:t(?:em?)?)?(?=\s*$)|"
                        r"remote process exited or there was a network error|internal error|"
                        r"unhand?led (?:cuda|CUDA) error|invalid usage|invalid argument)")
# nccl-tests' NCCLCHECK (src/common.h): "HOST: Test NCCL failure common.cu:345 'unhandled system error'", HOST the
# hostname of the process that printed it (one process per host and GPU set under mpirun)
R_NCCL_TESTS_HOST = re.compile(r"^\s*([\w.-]{1,64}): Test NCCL failure \S+:\d+ '")  # on the line's body
OLD_CODE = {"unhandled system error": "ncclSystemError",
            "remote process exited or there was a network error": "ncclRemoteError",
            "internal error": "ncclInternalError", "unhandled cuda error": "ncclUnhandledCudaError",
            "invalid usage": "ncclInvalidUsage", "invalid argument": "ncclInvalidArgument"}
R_LAST_ERROR = re.compile(r"Last error:\s*(.*)")
# CuPy's (and Ray/alpa's through it) NCCL binding: a communicator being created ("NcclCommunicator(world_size, uid,
# rank)", the frame "in cupy_backends.cuda.libs.nccl.NcclCommunicator.__init__"), and its NcclError, whose constructor
# looks the result code up by number: a CuPy that has no name for a newer code raises "KeyError: 6" from
# "NcclError.__init__" instead -- the number is NCCL's ncclResult_t (nccl.h)
R_CUPY_COMM_INIT = re.compile(r"\bNcclCommunicator(?:\.__init__\b|\()")
R_CUPY_ERR_INIT = re.compile(r"\bNcclError\.__init__\b")
R_KEYERROR_CODE = re.compile(r"^\s*KeyError: (\d)\s*$")
NCCL_RESULT = {1: "ncclUnhandledCudaError", 2: "ncclSystemError", 3: "ncclInternalError", 4: "ncclInvalidArgument",
               5: "ncclInvalidUsage", 6: "ncclRemoteError", 7: "ncclInProgress"}
# A library's own NCCL check printing the ncclResult_t as a bare number (fastmoe's NCCL_SAFE_CALL: "NCCL Error at
# .../global_exchange.cpp:127 value 5"; "NCCL error ... returned 2", "NCCL failure ... code 3"): the number is the
# code (NCCL_RESULT; 0 is ncclSuccess, no failure). Only after NCCL's error/failure words, within the same line.
R_NCCL_RESULT_NUM = re.compile(r"\bNCCL (?:[Ee]rror|ERROR|[Ff]ailure|FAILURE|call failed)\b[^\n'\"]{0,200}?"
                               r"\b(?:value|code|result|returned|return code|status)[ :=(]{1,3}(\d{1,2})\b")
# A library's own NCCL check printing ncclGetErrorString's answer for a result code it has no name for ("Failed, NCCL
# error .../allreducePlugin.cpp:183 'unknown result code'", "NCCL error in: file:line, unknown result code"): an NCCL
# call failed, and which error it was is not said (nccl.h's table of the libnccl loaded does not hold the code)
R_NCCL_UNNAMED = re.compile(r"\bNCCL (?:[Ee]rror|ERROR|[Ff]ailure|FAILURE)\b[^\n]{0,300}?\bunknown result code\b")
# A test harness or wrapper naming the NCCL call that failed and its ncclResult_t by number (RCCL's unit tests:
# "[ ERROR    ] Child process 0 fails NCCL call ncclGroupEnd with code 1"): the number is the code (NCCL_RESULT)
R_NCCL_CALL_CODE = re.compile(r"\bNCCL call (nccl\w{2,40}) (?:(?:fails|failed|returned) )?with (?:error |result )?"
                              r"code (\d{1,2})\b")
# An NcclError raised with its text lost: Ray's "RayTaskError(NcclError)" names only the exception's class
R_NCCL_ERROR_CLASS = re.compile(r"\w{0,40}Error\((?:\w{1,40}\.)?NcclError\)")
# XLA's checker of its live communicators ("nccl_utils.cc:191] Aborting communicator: 0x.. due to async NCCL error:
# remote process exited ..."): the error arose in a communicator already running collectives, not in its set-up
R_ASYNC_ABORT = re.compile(r"[Aa]borting communicator\b.{0,80}? due to async NCCL error")
# A worker's serving loop logging the exception it caught while it ran its tasks ("worker ERROR: Worker encountered
# error NCCL error in: ..."): the error came in a running job's collective, not in a launcher's set-up
R_WORKER_LOOP_ERROR = re.compile(r"\b[Ww]orker encountered (?:an )?error\b.{0,40}?NCCL error")
# NCCL 2.29 (transport/net_ib/p2p.cc): "NET/IB: Got completion from peer %s with status=%s(%d) ... hca %s";
# gin.cc: "NET/IB/GIN: Got completion ..."; before: "with error 12" / "with status=12".
R_IB = re.compile(r"NET/IB(?:P|/GIN)? ?: ?Got completion (?:from peer (?P<peer>\S+) )?with (?:error |status=)\s*"
                  r"(?:\w{1,40}\()?(?P<status>\d+)")
R_IB_HCA = re.compile(r"\bhca (\w{1,32})")
# The verbs completion status in ibv_wc_status_str's words, printed by an RDMA engine of its own (Mooncake's transfer
# engine: "worker_pool.cpp:294] Worker: Process failed for slice (opcode: 1, ..., local_nic: mlx5_9, peer_nic:
# 10.1.2.7:15867@mlx5_9, ...): transport retry counter exceeded"; UCX's "Transport retry count exceeded"):
# IBV_WC_RETRY_EXC_ERR (12) and IBV_WC_RNR_RETRY_EXC_ERR (13)
R_WC_RETRY = re.compile(r"\b(?:([Tt]ransport)|RNR) retry count(?:er)? exceeded")
# gloo's ibverbs transport naming its own source in its enforce failure ("[enforce fail at .../gloo/transport/ibverbs/
# pair.cc:462] wc->status == IBV_WC_SUCCESS. 12 vs 0. Memory region send for slot 0: transport retry counter
# exceeded"): the completion error is gloo's transport over the HCA, not NCCL's (verdict.transport)
R_GLOO_IBVERBS = re.compile(r"gloo[/\\]transport[/\\]ibverbs[/\\]\w{1,40}\.(?:cc|h)\b")
# The kernel's RDMA driver reporting a queue pair's error completion in a pasted dmesg (mlx5_ib: "mlx5_bond_0/1: QP
# 51291 error: local length error (0x8e 0x0 0x0)" -- device/port, the QP number, ib_wc_status_msg's words, then the
# CQE's syndrome): the same completion statuses as NCCL's "Got completion ... with error N", seen from the host
R_KERNEL_QP_ERR = re.compile(r"\b([A-Za-z]\w{0,40})/\d{1,3}: QP \d{1,10} error: ([A-Za-z][A-Za-z ]{2,60}?) \(0x")
# drivers/infiniband/core/verbs.c's wc_statuses[] (ib_wc_status_msg): the words by the ibv_wc_status number
WC_STATUS_MSG = {"local length error": 1, "local qp operation error": 2, "local ee context operation error": 3,
                 "local protection error": 4, "wr flushed": 5, "memory bind operation error": 6,
                 "bad response error": 7, "local access error": 8, "remote invalid request error": 9,
                 "remote access error": 10, "remote operation error": 11, "transport retry counter exceeded": 12,
                 "rnr retry counter exceeded": 13, "local rdd violation error": 14, "remote invalid rd request": 15,
                 "operation aborted": 16, "invalid ee context number": 17, "invalid ee context state": 18,
                 "fatal error": 19, "response timeout error": 20, "general error": 21}
# libibverbs' own words for the statuses (ibv_wc_status_str) where they differ from the kernel's above
IBV_WC_STATUS_STR = {**WC_STATUS_MSG, "work request flushed error": 5, "memory management operation error": 6}
# An RDMA engine's own report of one work completion's status in ibv_wc_status_str's words, after the engine's
# anchor that says a completion failed: Mooncake's transfer engine "Process failed for slice (opcode: 1, ...,
# local_nic: mlx5_7, ...): local protection error", UCX's "srd_iface.c:221 UCX ERROR send completion[0] with error on
# rdmap132s0/0x55cf..: Work Request Flushed Error, vendor_err 0x1 wr_id 0x..". The words are looked up in
# IBV_WC_STATUS_STR; other words after the anchor are no status (readers.nccl._ib)
R_WC_STATUS_SAID = re.compile(r"(?:\bProcess failed for slice \([^\n]{0,400}?\)|\bcompletion(?:\[\d{1,4}\])? with "
                              r"error on (?P<dev>[\w.\-]{1,32})[^:\s]{0,40}): ?(?P<status>[A-Za-z][A-Za-z ]{2,60}?)"
                              r"(?=\s*(?:[,.;)]|$))")
R_LOCAL_NIC = re.compile(r"\blocal_nic: ?([\w.\-]{1,32})")
R_PEER_NIC = re.compile(r"\bpeer_nic: ?([^,\s)]{1,80})")
# The HCA's asynchronous events: "NET/IB : Got async event : port error" (NCCL <= 2.2x) and 2.23+'s
# "NET/IB : mlx5_2:1 async fatal event: local catastrophic error" / "... Got non-fatal async event: port error(10)"
# (net_ib/common.cc; "async fatal event on QP (0x..) qpn=.. ...: <event>").
# ("NET/IB : mlx5_0:1 Got async event : local access violation work queue error": 2.1x with the HCA:port)
R_IB_ASYNC = re.compile(r"NET/IBP? ?: ?(?:(?:[\w.\-]{1,64}:\d{1,3} )?Got async event ?: ?|"
                        r"[\w.\-]{1,64}:\d{1,3} (?:async fatal event(?: on "
                        r"[^:]{1,300})?|Got non-fatal async event) ?: ?)([\w ]{1,60})")
# ibv_event_type_str's informational events (lead rule U(1)): the subnet manager re-registering ports, a new SM, a
# LID/GID/P_Key change, a port coming up. NCCL prints each as a WARN; none of them fails anything.
R_IB_ASYNC_INFO = re.compile(r"(?:client reregist|SM change|LID change|GID (?:table )?change|P_Key change|pkey change|"
                             r"port active)", re.I)
R_SOCKET = re.compile(r"Connection reset by peer|Connection closed by (?:remote )?peer|No route to host|Connection "
                      r"refused|Broken pipe|"
                      r"Software caused connection abort|Call to connect returned Connection timed out|Cannot assign "
                      r"requested address|"
                      r"Call to connect failed|is neither AF_INET\(2\) nor AF_INET6|no socket interface found|"
                      # NCCL 2.3-2.x socket.h ("Net : Socket creation failed : %s") and 2.2x's os/linux.cc
                      # ("ncclOsSocketPollConnect to %s failed with error %s": Connection timed out)
                      r"Socket creation failed|Connect to \S+ failed(?: with error| ?:) ?Connection timed out|"
                      r"No usable listening interface found|no interface found|"
                      # ENETUNREACH: no route to that network at all (gloo's tcp/socket.cc "connect: Network is
                      # unreachable", NCCL's "Connect to ADDR failed : Network is unreachable")
                      r"Network is unreachable", re.I)
# NCCL's socket data path (lead rule O): a recv/send on a connected socket that timed out ("Net : Call to recv from
# 100.96.188.199<41468> failed : Connection timed out", misc/socket.cc's socketProgressOpt), and net_socket.cc's
# "NET/Socket : socket progress error" (ncclNetSocketTest: a transfer of a running collective failed).
# An HTTP client's connection error, not the job's (the store, NCCL or gloo): requests' ConnectionError wrapping
# urllib3's ProtocolError ("ConnectionError: ('Connection aborted.', ConnectionResetError(104, 'Connection reset by
# peer'))"), urllib3's pool ("HTTPSConnectionPool(host='huggingface.co', port=443): Max retries exceeded with url:
# ..."): a download (the model hub, wandb, a dataset URL) whose server reset it -- no peer rank is gone. urllib3's own
# warning of a request it retries ("WARNING:urllib3.connectionpool:Retrying (Retry(total=1, ...)) after connection
# broken by 'NewConnectionError(... [Errno 111] Connection refused)': /v2/machines") is the same client's connection
R_HTTP_CLIENT = re.compile(r"\(['\"]Connection aborted\.['\"], |\bHTTPS?ConnectionPool\(host=|"
                           r"\bRetrying \(Retry\(total=[^\n]{0,200}?\) after connection broken by |"
                           r"Max retries exceeded with url|\burllib3\.exceptions\.|\brequests\.exceptions\.")
# An HTTP server answering a client's request with an error status, as Python's HTTP clients raise it: urllib's
# "urllib.error.HTTPError: HTTP Error 403: Forbidden", requests' raise_for_status() ("requests.exceptions.HTTPError:
# 404 Client Error: Not Found for url: https://..."; huggingface_hub's HfHubHTTPError wraps the same text): a download
# (a dataset, weights, a model) that its server refused -- no connection of the job's. Matched on an exception's text.
R_HTTP_STATUS = re.compile(r"\bHTTP Error (?P<code>[45]\d\d)(?:: (?P<why>[A-Z][A-Za-z \-]{1,40}))?|"
                           r"\b(?P<code2>[45]\d\d) (?:Client|Server) Error"
                           r"(?:: (?P<why2>[A-Z][A-Za-z \-]{1,40}?) for url)?")
R_SOCKET_TIMEOUT = re.compile(r"Call to (?:recv|send) (?:from|to) (\S+?) failed ?: ?Connection timed out")
R_SOCKET_PROGRESS = re.compile(r"NET/Socket ?: ?socket progress error")
# A socket error while connecting (set-up) rather than a peer that went away mid-run.
R_CONNECT_FAIL = re.compile(r"[Ss]ocket(?:Start|Poll)Connect|exceeded (?:error )?retr(?:ies|y count)|"
                            r"Call to connect returned|Socket creation failed|"
                            r"[Nn]o (?:usable listening )?interface found|Call to connect "
                            r"failed|ncclSocketInit|"
                            r"no socket interface found|[Cc]onnect to \S+ (?:failed|returned)|"
                            r"No route to host|Network is unreachable|Connection refused|connection abort|"
                            r"Cannot assign requested address")
# NCCL's listening socket refusing a connection that did not speak its handshake (socket.cc's socketFinalizeAccept
# "wrong magic N != M", then proxy.cc's "[Service thread] Accept failed Success": errno 0, accept(2) itself worked):
# something outside the job (a port scanner, a health check) connected to NCCL's port; lead rule AD (3). The proxy's
# service thread reading a request it does not know from a connection that never said which local rank it is
# (proxy.cc: "[Service thread] Unknown command 66326 from localRank -1": -1 until a peer's init request sets it) is
# the same: bytes from outside the job; from a job's own local rank (>= 0) the command is NCCL's own trouble
R_FOREIGN_ACCEPT = re.compile(r"socketFinalizeAccept: wrong magic|\bAccept failed:? ?Success\b|"
                              r"\bUnknown command -?\d{1,12} from localRank -1\b")
# NCCL's bootstrap remote-allocator service thread (bootstrap.cc, NCCL 2.7-2.8's ncclRemoteMemAllocationService)
# failing one request: it reads a size from whoever connected to its listening socket and cudaMallocs it, so a
# connection that is not a peer of this NCCL (another NCCL version on another node, a port scanner) hands it a garbage
# size: "Cuda failure 'out of memory'" on that size, the peer's "Connection closed", then "[Rem Allocator] Allocation
# failed"; the thread goes on serving and the job's communicators are untouched (lead rules K, AD (3))
R_REM_ALLOC = re.compile(r"\[Rem Allocator\] Allocation failed")
# Python's own report of a file object's flush that failed as the interpreter shut down ("Exception ignored in:
# <_io.BufferedWriter name=83>", then "BrokenPipeError: [Errno 32] Broken pipe"): a process writing to a pipe (its
# stdout, a DataLoader or logging pipe) whose reader had already gone. A file object, not a socket between ranks:
# teardown noise that names no rank and no peer (lead rule AC (1))
R_IO_FLUSH_IGNORED = re.compile(r"Exception ignored in: <_io\.(?:BufferedWriter|BufferedRandom|TextIOWrapper|"
                                r"FileIO)\b")
# multiprocessing's queue feeder thread (multiprocessing/queues.py's Queue._feed, a background thread of the process
# that put into the queue) writing a pickled item into the queue's pipe after its reader closed it: the thread prints
# its own traceback ('File ".../multiprocessing/queues.py", line 240, in _feed' ... connection.py's _send, then
# "BrokenPipeError: [Errno 32] Broken pipe") and ends, the process goes on. A DataLoader's workers do it when the
# main process shuts the iterator down early (an epoch cut short, --prof N). A local pipe between one host's
# processes, no socket between ranks and no peer rank gone (lead rules N, AH (3): news only if a failure follows)
R_MP_FEED_FRAME = re.compile(r"\bmultiprocessing[/\\]queues\.py\"?, line \d{1,6}, in _feed\b")
R_MP_PIPE_EXC = re.compile(r"^(?:builtins\.)?BrokenPipeError\b")
# A peer that went away; gloo's pair.cc says "Socket closed [peer]" when the peer's end closed.
# NCCL's topology detection failing to resolve a GPU's (or NVSwitch's) PCI path: getPciPath's realpath() of
# "/sys/class/pci_bus/<domain:bus>/../../<busId>" (graph/xml.cc; include/topo.h in NCCL <= 2.4); a NIC's path comes
# from its net device (/sys/class/net/X/device) and is the harmless one
R_TOPO_REALPATH = re.compile(r"Could not find real path of /sys/class/pci_bus/\S{1,300}")
R_PEER_GONE = re.compile(r"reset by peer|closed by (?:remote )?peer|Broken pipe|Socket closed", re.I)
# TensorFlow's collective executor aborting every pending collective with the error that hit one of them
# ("Collective ops is aborted by: Socket closed", in gRPC's error text): a peer-gone cause there is lead rule O's shape
R_TF_COLL_ABORT = re.compile(r"Collective ops is aborted by: ([^\\\n\"]{1,120})")
# aws-ofi-nccl (the NET/OFI plugin: EFA, Slingshot cxi, ...): "NET/OFI Request %p completed with error. RC: %d.
# Error: %d (%s). Completed length: %ld" -- RC is the libfabric errno (113 EHOSTUNREACH), Error the provider's
R_OFI = re.compile(r"NET/OFI Request \S{1,40} completed with error\. RC: (\d{1,6})\. Error: (\d{1,6})"
                   r"(?: \(([^)]{1,60})\))?")
# libfabric's own log of a provider's completion-queue error handler (src/log.c's "libfabric:PID:[TIME:]PREFIX:PROV:
# SUBSYS:FUNC():LINE<LEVEL> "): EFA's "libfabric:451:1708:..:efa:cq:efa_rdm_txe_handle_error():737<warn> err: 5,
# message: Invalid address ... Peer host id: i-0ab..", older rxr_cq_write_tx_error's "err: 21, prov_err: ..": a
# transfer the fabric could not complete, the libfabric counterpart of NET/OFI's "completed with error" (R_OFI)
R_LIBFABRIC_CQ = re.compile(r"libfabric:\d+:(?:\d+:)?(?:[^:\s]*:)?(\w+):cq:\w*err\w*\(\):\d+<warn\w*>"
                            r".{0,80}?\berr: ?(\d{1,6})(?:, (?:message|prov_err): ?([^(\n]{1,80}?))?"
                            r"(?= My | Peer |\s*\(|\s*$)")
R_LIBFABRIC_PEER = re.compile(r"Peer host id: ?([\w.\-]{1,80})")
# EFA's words for a peer whose endpoint never completed the connection handshake (libfabric prov/efa efa_errno.h:
# "Unresponsive receiver (reachable by EFA device but handshake failed)", beside "(connection previously established)"
# for one lost later): the two endpoints never connected -- a connection failing at set-up (lead rules L, O, X (1)),
# not a completion error of a running transfer
R_OFI_HANDSHAKE = re.compile(r"\bhandshake (?:failed|fail(?:ure)?|timed out|not (?:completed|received))", re.I)
R_VERBS = re.compile(r"Call to (ibv_\w+) failed(?: with error ([\w ]{1,60}))?")
# UCX's own words for a verbs call it made failing, the call with its arguments, then the errno's strerror
# ("ib_device.c:1250 UCX ERROR ibv_create_ah(dlid=49152 sl=0 port=1 ... dgid=::ffff:192.160.0.55 sgid_index=3 ...)
# for UD verbs connect on bnxt_re0 failed: Connection timed out"): the same event as NCCL's "Call to ibv_X failed";
# its mlx5 direct-verbs calls too ("ib_mlx5.c:395 UCX ERROR mlx5dv_devx_alloc_uar() failed: Operation not supported")
R_UCX_VERBS = re.compile(r"\bUCX\s+ERROR\s+((?:ibv|mlx5dv)_\w{3,30})\([^\n]{0,400}?\)(?: for [\w ]{1,40}? on "
                         r"(?P<dev>[\w.\-]{1,32}))? failed: ?(?P<why>[A-Za-z][\w ]{1,60})")
# TensorPipe's (torch RPC's) ibv transport throwing from tensorpipe/common/ibv.h, whose only throws are its verbs
# checks (TP_CHECK_IBV_PTR / _INT: "In operator() at tensorpipe/common/ibv.h:172 \"\": Operation not supported", the
# errno's strerror): opening the device or creating its protection domain, queues and memory regions -- resources the
# local host allocates, no peer involved (lead rule J: nccl_system). Its queue-pair transitions (ibv_modify_qp) are in
# ibv.cc, not read here
# the call the event names (verdict.transport._LOCAL_VERBS)
TP_IBV_VERBS = "of TensorPipe's ibv transport (creating its verbs resources, tensorpipe/common/ibv.h)"
R_TP_IBV = re.compile(r"\bat tensorpipe/common/ibv\.h:\d{1,6} \"[^\"\n]{0,200}\": ?(?P<why>[^\n]{1,120}?)\s*$")
# torch RPC's TensorPipe agent logging a failed pipe ("[W tensorpipe_agent.cpp:916] RPC agent for 3 encountered error
# when sending outgoing request #0 to 0: async error on socket: Connection reset by peer (...)", "... when reading
# incoming response from 0: ..."): the agent's worker name, what it did, its request number, the peer's name. The
# agent numbers its outgoing requests from 0 over its whole life, so request #0 is its first RPC: init_rpc's start-up
# exchange with worker 0 (lead rule AQ (3)), not a mid-run call
R_TP_AGENT_ERR = re.compile(r"RPC agent for (?P<agent>[^\s:]{1,120}) encountered error when (?:sending outgoing "
                            r"request #(?P<req>\d{1,12}) to|reading incoming (?P<resp>response) from) "
                            r"(?P<peer>[^\s:]{1,120}):")
# An RDMA engine of its own refused a queue pair by the host, in its words (Mooncake's rdma_endpoint.cpp: "Failed to
# create QP: Cannot allocate memory [12]", strerror(errno)): NCCL's "Call to ibv_create_qp failed" said otherwise
R_CREATE_QP = re.compile(r"\b(?:[Ff]ailed|[Uu]nable) to create (?:a |the )?(?:QP|queue pair)s?\b[:,]? ?"
                         r"([A-Za-z][\w ]{1,60})?")
# The same engines' words for ibv_modify_qp refused as the queue pair moves to its connected states (UCCL's
# "Failed to modify QP to RTR: Connection timed out", the errno's strerror after it): the queue pair cannot reach
# the peer with the address, GID, port or MTU it was given -- NCCL's "Call to ibv_modify_qp failed" (lead rule J)
R_MODIFY_QP = re.compile(r"\b(?:[Ff]ailed|[Uu]nable) to modify (?:the )?(?:QP|queue pair)s?(?: (?:state )?to "
                         r"(?P<state>RTR|RTS|INIT)\b)?[:,]? ?(?P<why>[A-Za-z][\w ]{1,60})?")
# "Some NCCL operations have failed or timed out": the watchdog's own report (every wording counts)
# ProcessGroupNCCL's "Failed to retrieve NCCL_DESYNC_DEBUG report" is printed only after this rank's watchdog timed
# out (the desync debugger itself failed): the timeout is the news, the report is lost.
R_WATCHDOG_REPORT = re.compile(r"Some NCCL operations have failed or timed out|NCCL communicator was aborted on rank "
                               r"(\d+)|Failed to retrieve (?:TORCH_)?NCCL_DESYNC_DEBUG report")
R_PEER = re.compile(r"\b(?:peer|to|from) \[?(\d+\.\d+\.\d+\.\d+|[\w.\-]{1,255})\]?[:<](\d+)")
R_STORE = re.compile(
    r"client socket has timed out after|Timeout waiting for key|Timed out after \d+ seconds waiting for clients|"
    r"RendezvousTimeoutError|RendezvousConnectionError|DistStoreError|Socket Timeout|Wait timeout|connect\(\) timed "
    r"out|client socket has failed to connect to|server socket has failed to (?:listen|bind)|"
    # the same client's error raised with its address cut off by the paste ("RuntimeError: The client socket has
    # failed to connect"): an exception, not the Windows [W] warning it retries from (R_WIN_CONNECT_WARN)
    r"(?:Error|Exception): The client socket has failed to connect\b|"
    r"timed out (?:while )?(?:trying to connect|waiting for|in store)|RendezvousClosedError|"
    r"Timed out initializing process group in store based barrier|"
    # its periodic INFO while it waits (torch 1.x "... (world_size=8, worker_count=1, timeout=0:30:00)", 2.x
    # "num_workers_joined="): a count short of (or past) the world size is news by itself (lead rule R)
    r"Waiting in store based barrier to initialize|"
    r"waitForInput: socket SocketImpl\([^\n]{0,300}?\) timed out after|"
    # torch >= 2.4's warning of the same read, printed just before it ("waitForInput: poll for socket SocketImpl(...)
    # returned 0, likely a timeout"): a paste may keep only this line of the pair (lead rule Y: a connected read)
    r"waitForInput: poll for socket SocketImpl\([^\n]{0,300}?\) returned 0, likely a timeout|"
    # the same read's poll() failing on the connected socket with SO_ERROR still 0 ("While waitForInput, poolFD failed
    # with (errno: 0 - Success)"): not a refused or reset connection, a wait on a key that never came (lead rule Y)
    r"While waitForInput, poolFD failed with|"
    # torchelastic's etcd rendezvous backends raise python-etcd's exceptions as they are ("etcd.EtcdKeyNotFound: Key
    # not found : /torchelastic/p2p/run_<id>/rdzv/...", "etcd.EtcdConnectionFailed: Connection to etcd failed"):
    # the rendezvous key-value store failing, like the TCPStore's own errors (lead rule L)
    r"\betcd\.Etcd\w{2,40}: |"
    # python-etcd's client logging that it cannot reach the etcd server it was given ("ERROR:etcd.client:Failed to get
    # list of machines from http://localhost:2379/v2: MaxRetryError(... Connection refused ...)"): the same backends'
    # key-value store unreachable -- a refused connection to the store, not to a peer rank (lead rule L)
    r"\bFailed to get list of machines from https?://"
)
# A fault-tolerance coordinator's own quorum short of its members (torchft's lighthouse, every ~100 ms while it waits:
# "No quorum, only have 1 participants, need 2"): the job's own rendezvous of a known count (min_replicas) with fewer
# joined than it needs -- lead rule R's reading (store_rendezvous, the missing members not named; round 87's
# torchft-63). Its count, as R_STORE_COUNT's
R_QUORUM_SHORT = re.compile(r"\bNo quorum, only have (\d{1,7}) participants?, need (\d{1,7})\b")
# How many ranks reached the store: torch 1.x's store-based barrier "(world_size=8, worker_count=4, ...)" and
# 2.x's DistStoreError "Timed out after 1801 seconds waiting for clients. 7/8 clients joined." -- its count read
# also where a paste cuts the line's last word ("... 1/4 clients": round 80's deepdewedge-20)
R_STORE_COUNT = re.compile(r"world_size=(?P<ws>\d{1,7}), (?:worker_count|num_workers_joined)=(?P<wc>\d{1,7})|"
                           r"(?<!\d)(?P<j>\d{1,7})/(?P<n>\d{1,7}) clients\b")
# torch's "Rank 0: Completed store-based barrier for key:store_based_barrier_key:1 with 8 nodes.": every rank came
R_STORE_BARRIER_DONE = re.compile(r"Completed store-based barrier for key")
R_STORE_BARRIER_NODES = re.compile(r"Completed store-based barrier for key ?: ?(\S{1,120}?) with (\d{1,7}) nodes")
# its "Added key: store_based_barrier_key:1 to store for rank: 2": that rank checked in to the barrier of that key. More
# ranks checking in (or a rank number past) the count the barrier completed with is lead rule R's over-count
R_STORE_BARRIER_ADDED = re.compile(r"Added key ?: ?(\S{1,120}) to store for rank ?: ?(\d{1,7})")
# Slurm's PMIx plugin (srun --mpi=pmix): its fence, the launcher's own key-value exchange between the job's nodes, that
# did not complete ("slurmstepd: error:  mpi/pmix_v3: pmixp_coll_ring_reset_if_to: node-1 [0]: pmixp_coll_ring.c:742:
# 0x...: collective timeout seq=0"): a launcher's barrier of a known count (lead rule R), before the job's processes
R_PMIX_FENCE = re.compile(r"mpi/pmix\w{0,8}: pmixp_coll\w{0,40}: [^\n]{0,200}?collective timeout")
# torch.load's deserializer in a traceback frame's file: a CUDA error under it is raised restoring a storage to the
# device it was saved on (map_location), round 88's ms-swift-5118
R_TORCH_LOAD_FILE = re.compile(r"torch[/\\]serialization\.py$")
# A save function renaming its temporary / staging directory (or file) into place -- the last frame's call (os.rename,
# os.renames, os.replace, shutil.move, a Path's rename) or os.py's own rename/renames frame -- and the OS refusing it
# because the source is gone or the target already there: another process ran the same rename first (round 90's
# minicpm-v-144, mm-eureka-v0-8, ms-swift-3031: the HF Trainer's _save_checkpoint on every rank; crash reader's
# save_rename, verdict.unread._save_rename_fix)
# A Path's rename ("tmp.rename(final)") counts, a pandas frame's ("df.rename(columns=...)", a mapping) does not
R_RENAME_CALL = re.compile(r"\b(?:os\.(?:rename|renames|replace)|shutil\.move)\(|(?<![\w.])renames?\("
                           r"|\.rename\((?!\s{0,4}(?:columns|index|mapper|axis)\s{0,4}=|\s{0,4}\{)")
# a save function's name: its first word "save" (save_checkpoint, _save_checkpoint, save), not a name that holds it
# (autosave, unsaved_*, saved_tensors): parse._save_frame
R_SAVE_FUNC = re.compile(r"_?save(?:_|$)")
# the HF Trainer's own checkpoint save (its _save_checkpoint frame in transformers/trainer.py) or its staging
# directory's name in the error ("tmp-checkpoint-s0yubqtr"): crash reader's save_race
R_TRAINER_SAVE_FILE = re.compile(r"transformers[/\\]trainer\.py$")
RENAME_FUNCS = ("rename", "renames", "replace", "move")
R_RENAME_REFUSED = re.compile(r"\[Errno (?:2|17|39|66)\]|\[WinError 183\]|\bDirectory not empty\b|\bFile exists\b")
# The kernel's NVIDIA driver log (dmesg): "NVRM: Xid (PCI:0000:3b:00): 79, pid=..., GPU has fallen off the bus."
# A pasted excerpt may redact the address ("Xid (PCI:...): 145, RLW_RXPIPE ...", round 88's nccl-2241): still the
# driver's Xid, only the GPU it names is not said (readers.crash keeps no address then)
R_XID = re.compile(r"NVRM: Xid \(PCI:([0-9a-fA-F:.]{3,20})\): (\d{1,3})\b[^\n]{0,200}")
# NVIDIA Fabric Manager's own log (nv-fabricmanager.log: "[Oct 31 2023 21:11:20] [ERROR] [tid 527118] failed to find
# the GPU handle N in the multicast team request setup M."): an ERROR of its multicast (NVLS) team set-up, the NVSwitch
# fabric refusing the multicast team that NCCL's / NVSHMEM's NVLS asked for (its inband response carries a non-zero
# status): the platform, no rank (lead rule V (2); round 108's nccl-1043). Its INFO lines and ERRORs of other topics
# are not this
R_FM_MULTICAST = re.compile(r"\[ERROR\] \[tid \d{1,10}\] "
                            r"(?P<msg>[^\n]{0,160}?\bmulticast (?:team|group)\b[^\n]{0,160}?)\.?\s*$")
# ... and only where its message says the request was refused: a failure word or a non-zero status ("failed to find
# the GPU handle 5 in the multicast team request setup 3"); "multicast team 3 released with status 0" refused nothing
# (review 108 a finding 3)
R_FM_REFUSED = re.compile(r"\b(?:[Ff]ail\w*|[Uu]nable|[Cc]annot|[Ii]nvalid|[Dd]enied|[Rr]efused|[Rr]eject\w*|"
                          r"[Tt]imed? ?out|not (?:found|supported|available|allowed))\b|"
                          r"\bstatus:? ?(?:-\d|0x0*[1-9a-fA-F]|[1-9])")
# NCCL's NVLS WARN's second line (transport/nvls.cc, NCCL >= 2.18), below "Failed to bind/allocate NVLink SHARP (NVLS)
# Multicast memory ...: CUDA error N '...'": the CUDA error above it is NVLS's multicast set-up (verdict.cuda)
R_NVLS_FM = re.compile(r"error in the Fabric Manager or NVSwitches")
# NCCL's INFO lines of its NVLS (NVLink SHARP, NVSwitch multicast) set-up ("NVLS multicast support is available on dev
# 0", "NVLS comm 0x... headRank 0", "NVLS Bind mem 0x... UC handle ... MC handle ... size N", "Connected NVLS"): the job
# set NVLS up (not the line saying multicast is not available there); verdict.noise's fix names NVLS if it hung there
R_NVLS_INFO = re.compile(r"\bNCCL INFO (?:Connected )?NVLS\b(?! multicast support is not)")
# nvidia-smi that cannot reach a GPU the driver enumerated ("Unable to determine the device handle for GPU0000:03:00.0:
# Unknown Error", "... for GPU 0000:3B:00.0: GPU is lost.  Reboot the system to recover this GPU"): the GPU dropped off
# its PCIe link (the driver's Xid 79), a node's hardware fault; the line names a PCI address, not a rank
R_NVSMI_LOST = re.compile(r"Unable to determine the device handle for (?:GPU ?)?([0-9a-fA-F]{4,8}:[0-9a-fA-F]{2}:"
                          r"[0-9a-fA-F]{2}\.[0-9a-fA-F]) ?: ?([^\n]{1,80})", re.IGNORECASE)
# the driver's note on a consequence Xid (45 preemptive cleanup, 43) naming the one that caused it: "Ch 00000001
# caused by previous Xid 149"
R_XID_CAUSE = re.compile(r"caused by previous Xid (\d{1,3})\b")
# A host name that does not resolve (MASTER_ADDR, a rendezvous endpoint); the IPv6 lookup warning is R_IPV6.
R_DNS = re.compile(r"Name or service not known|Temporary failure in name resolution|nodename nor servname provided|"
                   r"No address associated with hostname|Name does not resolve")
# a start-up script's resolver (busybox/musl nslookup, curl) failing on the master's host name (MASTER_ADDR of a
# PyTorchJob/DLC "<job>-master-0"): "nslookup: can't resolve 'job-master-0': Name does not resolve"
R_RESOLVE = re.compile(r"can't resolve '([^'\s]{1,255})'|[Cc]ould not resolve host:? '?([^'\s]{1,255})")
# ... only on the store's own lines (a model download's DNS failure is not the job's rendezvous): torch's
# "[c10d] The IPv4 network addresses of (node-0, 29500) cannot be retrieved (gai error: -2 - Name or service not known)"
# A traceback's frame of a collective call in torch.distributed ('File ".../distributed_c10d.py", line 1285, in
# all_reduce'): with NCCL's lazy init a collective's first call reads the ncclUniqueId from the (connected) store, so
# a bare "Socket Timeout" raised right below it is a store read, not a connect (lead rules G, Y)
R_COLL_FRAME = re.compile(r'distributed_c10d\.py", line \d{1,6}, in (all_reduce|broadcast|all_gather\w{0,16}|'
                          r'_all_gather_base|reduce_scatter\w{0,16}|_reduce_scatter_base|all_to_all\w{0,8}|barrier|'
                          r'reduce|gather|scatter|broadcast_object_list|send|recv)\s*$')
# DDP's constructor broadcasting rank 0's parameters and buffers, its first collective (torch 1.x nn/parallel/
# distributed.py's _distributed_broadcast_coalesced; 1.12+ distributed/utils.py's _sync_params_and_buffers under
# _sync_module_states): a broadcast call's frame as R_COLL_FRAME's, where a store read for the NCCL unique id times out
# (torch 1.0/1.1 name it _dist_broadcast_coalesced, as its C++ binding dist._dist_broadcast_coalesced)
# torch RPC's header of an exception raised on a remote worker and relayed to the caller (rpc/internal.py's
# _handle_exception: "On WorkerInfo(id=1, name=Worker1):", then the exception's repr on the next line, then the
# remote traceback): another process's own failure (lead rule BR (5); worker ids are RPC names, not rank tags, AD (2))
# (the caller's own re-raise may print it after its exception type: "RuntimeError: On WorkerInfo(id=1, ...):")
R_RPC_REMOTE_HEAD = re.compile(r"^(?:[\w.]{1,80}(?:Error|Exception): )?On WorkerInfo\(id=(?P<id>\d{1,9}), "
                               r"name=(?P<name>[^)\s]{1,64})\):\s*$")
# ... and that exception's repr ("RuntimeError('got 1 tensors and 0 gradients')")
R_EXC_REPR = re.compile(r"""^(?P<type>[\w.]{0,80}(?:Error|Exception))\((?P<q>['"])(?P<msg>[^\n]{0,300}?)(?P=q)\)\s*$""")
# ... or its repr's head where the message runs on (a long message wrapped, or the paste cut inside it): the first
# 300 characters of the message
R_EXC_REPR_OPEN = re.compile(r"""^(?P<type>[\w.]{0,80}(?:Error|Exception))\((?P<q>['"])(?P<msg>[^\n'"]{40,300})""")
R_DDP_SYNC_FRAME = re.compile(r'", line \d{1,6}, in (?:_distributed_broadcast_coalesced|_dist_broadcast_coalesced|'
                              r'_sync_params_and_buffers|_sync_module_states)\s*$')
# torch 1.x's store client (tcputil's recv/send under SYSCHECK, its socket given SO_RCVTIMEO = the store's timeout)
# raises a timed read that expired as EAGAIN's strerror, nothing else: "RuntimeError: Resource temporarily
# unavailable". As the whole message of an exception right under init_process_group's / TCPStore's frames it is the
# process group's construction reading its peers' addresses (lead rule AI (1)); right under a collective's or DDP's
# first broadcast, the read of NCCL's unique id on a connected store (lead rule Y) -- torch 1.x's "Socket Timeout"
R_EAGAIN_BARE = re.compile(r"Resource temporarily unavailable\.?$")
# autograd's backward in a traceback ('File ".../torch/_tensor.py", line 396, in backward', torch/autograd/__init__.py):
# DDP all-reduces the gradients there -- a collective site of its own beside an explicit collective call's frame
R_BACKWARD_FRAME = re.compile(r'torch[/\\](?:_tensor|autograd[/\\]__init__)\.py", line \d{1,6}, in backward\s*$')
R_DNS_STORE = re.compile(r"\[c10d\]|TCPStore|endezvous|MASTER_ADDR|DistNetworkError|init_process_group|"
                         r"network addresses of")
# a fault-tolerance coordinator's own server in a traceback's frames (torchft: its lighthouse's console script
# ".../bin/torchft_lighthouse", its entry "lighthouse_main()", the servers LighthouseServer(...) / ManagerServer(...)):
# a bare bind error raised right under it ("RuntimeError: Address already in use (os error 98)", Rust's io::Error)
# is that rendezvous server's own port taken (lead rule AN (2); round 108's torchft-30)
R_FT_COORD_FRAME = re.compile(r"[/\\]torchft_lighthouse\b|\blighthouse_main\(|\b(?:Lighthouse|Manager)Server\(")
# c10d's own words for its store client's failed lookup (torch 1.x tcputil::connect: "host not found: " and the
# resolver's gai_strerror), whatever carries it on (a ValueError under TCPStore(...), torchelastic's coordinator's
# "Rank -1 received an Exception. Detailed message: host not found: ..."): the store's host name does not resolve
R_DNS_C10D = re.compile(r"\bhost not found: (?:" + R_DNS.pattern + ")")
# The store client's own failures (lead rules L, Y): torch's TCPStore client getting a reply that is not the store
# protocol's ("Stop_waiting response is expected": another service or job answers on MASTER_PORT), cupyx's store
# ("TCPStore is not available": the client reached no store); and a bare connection failure that is the exception of
# a traceback whose frames just above create the store (TCPStore(...), init_process_group's rendezvous): the store
# connection could not be made (refused, reset, timed out, no route) -- store_rendezvous, no rank at fault.
# torch 1.0's THD (torch.distributed.deprecated) raises the same socket words with its source site glued on
# ("RuntimeError: Connection reset by peer at .../torch/lib/THD/process_group/General.cpp:20", as R_BARE_IN_USE's
# "Address already in use at ..."): the site is no other message (round 68's THD init on two nodes)
R_STORE_PROTO = re.compile(r"Stop_waiting response is expected|TCPStore is not available")
R_CONN_EXC = re.compile(r"(?:\[Errno \d{1,4}\] )?(?P<what>Connection (?:timed out|reset by peer|refused)|No route to "
                        r"host|Network is unreachable)(?: at \S{1,300}\.(?:cpp|cc|h):\d{1,6})?\.?$")
R_ADDRS_OF = re.compile(r"network addresses of \(([^,()]{1,255}), (\d{1,5})\)")
# env:// rendezvous without a launcher: "environment variable MASTER_ADDR expected, but not set"
R_ENV_MISSING = re.compile(r"environment variable (\w{1,32}) expected, but not set")
# The same, its message cut from a paste: the traceback's innermost frames are torch's rendezvous.py asking for a
# variable ('rank = int(_get_env_or_raise("RANK"))') and raising its error for it ("raise _env_error(env_var)"; torch
# 1.x: 'raise _env_error("RANK")'). That raise line is shown only when it ran, so the variable was not set.
R_ENV_ASKED = re.compile(r"\b_get_env_or_raise\(\s*['\"](\w{1,32})['\"]\s*\)")
R_ENV_RAISE = re.compile(r"^\s*raise _env_error\((?:['\"](\w{1,32})['\"]|\w{1,32})\)\s*$")
# ProcessGroupNCCL's first collective of a group: every rank but the group's rank 0 waits in the store for
# the ncclUniqueId rank 0 publishes ("[3] is setting up NCCL communicator and retrieving ncclUniqueId from [0]
# via c10d key-value store by key '0', but store->get('0') got error: Socket Timeout"; older releases spell it
# "retreiving"). A paste may cut the waiting rank's "[3] is" off: the wait is read all the same, by nobody's rank.
# torch_npu's ProcessGroupHCCL says the same of HCCL's unique id ("[1] is setting up HCCL communicator and retrieving
# hcclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: ..."): the same wait.
# A paste cut right after "got error" (its reason lost, round 73) is the same failed read, its reason unknown.
# A paste cut right after "retrieving ncclUniqueId" (the line's end, round 76's fastclip-1: "DistBackendError: [3] is
# setting up NCCL communicator and retrieving ncclUniqueId") is the same raised error, its root and reason cut off:
# torch raises it only when the store read failed, and the id is the default group's rank 0's (group 2 stays None).
R_UNIQUEID = re.compile(r"(?:\[(\d{1,7})\] is )?setting up [NH]CCL communicator and retr(?:ie|ei)ving [nh]cclUniqueId"
                        r"(?: from \[(\d{1,7})\][^:]{0,200}got error(?:: ?([^\n]{0,120})|[\s.]*$)|[\s.]*$)")
# The same error's last words ("... got error: ... This may indicate a possible application crash on rank 0 or a
# network set up issue."): torch ends broadcastUniqueNCCLID's message with them, so a paste that lost the head (its
# C++ frames printed between) still shows a rank's store read of the unique id the named rank publishes failing.
R_UNIQUEID_TAIL = re.compile(r"This may indicate a possible application crash on rank (\d{1,7}) or a network set ?up "
                             r"issue")
# The TCPStore's server (rank 0 or the agent that hosts it) went away while this rank used it.
R_STORE_GONE = re.compile(r"Connection was likely closed\. Did the remote server shutdown or crash|"
                          r"TCPStore server has shut down too early")
# A rank's own socket to the TCPStore failing (torch 2.x TCPStore.cpp: "[c10d] recvValue failed on SocketImpl(fd=76,
# addr=[localhost]:60950, remote=[localhost]:29500): Connection reset by peer", "sendBytes failed on ...: Broken pipe"):
# with a peer-gone errno, the store's server went away.
# ProcessGroupNCCL's heartbeat monitor thread as a C++ backtrace's frame (torch 2.6+'s HeartbeatMonitor::runLoop,
# 2.2-2.5's ProcessGroupNCCL::heartbeatMonitor): right under TCPStore::check(), its poll of the "should dump" flag
R_HB_MONITOR_FRAME = re.compile(r"\bProcessGroupNCCL::(?:HeartbeatMonitor::runLoop|heartbeatMonitor)\(")
R_STORE_SOCKET = re.compile(r"\b(?:sendBytes|recvBytes|recvValue|recvVector|sendValue) failed on SocketImpl")
# torch 2.3/2.4's heartbeat monitor polling the global store for the dump flag, at ERROR level with the socket's error
# glued on ("[PG 0 Rank 1] Failed to get exception dump flag from the global store.Connection reset by peer"): the
# "should dump" check of later versions (a [W] there), the same store poll cut when the store's host exited (rule N)
R_DUMP_FLAG_POLL = re.compile(r"Failed to get (?:the )?exception dump flag from the global store")
# c10d's own warning level on a line: glog's "[W318 10:00:41.929037914 TCPStore.cpp:125]" (torch 2.x) or "[W
# socket.cpp:601]" (1.x): a warning the store client logs and goes on from (lead rule N)
R_C10D_WARNING = re.compile(r"\[W\d{3,4} \d\d:\d\d:\d\d[.\d]* [\w.]+\.(?:cpp|hpp|h):\d+\]|"
                            r"\[W [\w.]+\.(?:cpp|hpp|h):\d+\]")
# torchrun's agent's background keep-alive of the c10d rendezvous ("The node 'X' has failed to send a keep-alive
# heartbeat to the rendezvous 'Y' due to an error of type RendezvousConnectionError."): a WARNING it logs and goes on
# from; news only when the agent is shown failing on the rendezvous after it (lead rule N)
R_RDZV_KEEPALIVE = re.compile(r"has failed to send a keep-alive heartbeat to the rendezvous")
# A store client blocked in a get/wait for a key (recvValueWithTimeout, "Failed to recv, got 0 bytes"): cut off, it
# raises to its caller -- not the heartbeat monitor's background poll
R_STORE_WAITED = re.compile(r"\brecv\w*WithTimeout failed on|Failed to recv")
# The store client's retry loop (TCPStore.cpp): "TCP client failed to connect/validate to host 100.64.0.1:59782 -
# retrying (try=6, timeout=1800000ms, delay=5241ms): Connection reset by peer" -- whatever the errno, the client
# never got a valid store at that address.
# (a reporter's placeholder for the host, "<redacted>", is a host too)
R_STORE_CLIENT = re.compile(r"TCP client failed to connect/validate to host \[?(<[\w .\-]{1,40}>|[\w.\-:]{1,255}?)\]?:"
                            r"(\d{1,5})\b")
# c10d's socket (socket.cpp, torch 1.11+) as the store client connects before the server is up: "The server socket on
# [jean-zay-iam01-ib0]:55035 is not yet listening (errno: 111 - Connection refused), will retry." -- the same retry
R_STORE_NOT_LISTENING = re.compile(r"server socket on \[?([\w.\-:]{1,255}?)\]?:(\d{1,5}) is not yet listening\b"
                                   r"[^\n]{0,120}\bwill retry")
# The same warning whose own error is the connect timeout running out ("- retrying (try=0, timeout=600000ms, ...):
# The client socket has timed out after 600000ms while trying to connect to (H, P)"): the whole connect budget was
# spent without reaching the store, a store timeout however it is worded (lead rules L, Y), not a transient retry
R_STORE_RETRY_SPENT = re.compile(r"- retrying \(try=\d+, timeout=(\d+)ms\b[^\n]{0,200}?client socket has timed out "
                                 r"after (\d+)ms while trying to connect")
# NCCL's INFO that an optional plugin is not there (it then uses its own transports, CollNet is off):
# "NET/Plugin: Failed to find ncclCollNetPlugin_v8 symbol.", "NET/Plugin : No plugin found (libnccl-net.so)".
R_NO_PLUGIN = re.compile(r"INFO NET/Plugin ?: ?(?:No plugin found|Plugin load returned|Failed to find \w*Plugin|"
                         r"Could not find:? \S*libnccl-net)")
# NCCL's INFO that it loaded an external net plugin: "Plugin Path : /opt/hpcx/nccl_rdma_sharp_plugin/lib/libnccl-net.so"
# (NCCL >= 2.19), "NET/Plugin: Loaded net plugin NCCL RDMA Plugin (v7)"; against another host's "Could not find:
# libnccl-net.so. Using internal network plugin." (R_NO_PLUGIN) the hosts of one job load different net transports
# (lead rule CE (2)).
R_NET_PLUGIN_LOADED = re.compile(r"INFO (?:Plugin Path ?: ?\S{0,300}libnccl-net[\w.\-]{0,40}\.so\b|"
                                 r"NET/Plugin ?: ?Loaded net plugin\b)")
# ... and the same of its optional tuner plugin (NCCL >= 2.19, plugin.cc / tuner.cc): "TUNER/Plugin: Could not find:
# libnccl-tuner.so. Using internal tuner plugin.", "TUNER/Plugin: Failed to find ncclTunerPlugin_v4 symbol.", "...
# ncclTunerPlugin_v2 symbol, using internal tuner instead." -- NCCL picks algorithms with its own tuner
# (NCCL_TUNER_PLUGIN unset): set-up chatter, no failure (lead rule K; round 95's verl-3518)
R_NO_TUNER = re.compile(r"INFO TUNER/Plugin ?: ?(?:No plugin found|Plugin load returned|Failed to find \w{0,40}Plugin|"
                        r"Could not find:? \S{0,200}libnccl-tuner|Using internal tuner)")
# NCCL's set-up chatter at INFO (init.cc, graph/*.cc, transport.cc): the rings/trees/channels it builds and the
# connections it opens; "Init COMPLETE" ends it. A log whose NCCL lines stop inside it hung in (or right after) set-up.
R_SETUP = re.compile(r"NCCL INFO (?:Ring \d+ ?:|Channel \d+|Trees?\b|Setting affinity|CUDA Dev \d|Connected all |"
                     r"\d+ coll channels|threadThresholds|P2P Chunksize)")
R_SETUP_DONE = re.compile(r"\bInit COMPLETE\b|\bncclCommInitRank\b.*\bCOMPLETE\b")
# a ring/channel connection NCCL makes through a network transport (between nodes): "... via NET/Socket/0"
R_SETUP_NET = re.compile(r"NCCL INFO (?:Ring|Channel) \d+(?:/\d+)? ?:.* via NET/")
# a ring/channel connection through the shared-memory transport between two GPUs of one host ("... via
# SHM/direct/direct", 2.7-2.8's "... via direct shared memory"): what NCCL picks where it could not enable P2P between
# them (its INFO "Could not enable P2P between dev 0(=1b0) and dev 1(=1c0)"): a normal fallback, slower, no failure
R_SETUP_SHM = re.compile(r"NCCL INFO (?:Ring|Channel) \d+(?:/\d+)? ?:.{0,120}? via (?:SHM\b|direct shared memory)")
# the rank of the thread printing a ring line: "Ring 02 : 4 -> 19 [send] via NET/Socket/0" (NCCL 2.4-2.6),
# "Ring 00 : 4[4] -> 5[5] via P2P/IPC", 2.7+ "Channel 00/0 : 0[6000] -> 8[6000] [send] via NET/IB/1" (the first
# number is this rank, in brackets its device or bus id); a "[receive]" line's first number is the peer
R_RING_SELF = re.compile(r"NCCL INFO (?:Ring|Channel) \d+(?:/\d+)? ?: ?(\d{1,7})(?:\[\w+\])? -> \d{1,7}(?:\[\w+\])?"
                         r"(?: \[send\])? via ")
# nccl-tests: the device list ("#  Rank  0 Group  0 Pid  4479 on host device  0 [0x81] NVIDIA ..."), the results
# table's header, a result row ("  8  2  float  sum  -1  30.1 ...", broadcast's "  8  2  float  0  45.82 ...": a
# time in us) and the closing "# Avg bus bandwidth" (not quoted: a harness listing it among the lines it missed)
R_TESTS_DEVICE = re.compile(r"#\s+Rank\s+(?P<rank>\d{1,7})\s+(?:Group\s+\d+\s+)?Pid\s+(?P<pid>\d{1,10})\s+on\s+"
                            r"(?P<host>[\w.\-]{1,255})\s+device")
# The progress bar of loading a model's weights: transformers' "Loading checkpoint shards:", vLLM's "Loading
# safetensors checkpoint shards:" / "Loading pt checkpoint shards:", and Megatron/DeepSpeed-style
# "Loading checkpoint shards" without a colon. Every process holds its copy in host RAM while it runs.
# NCCL's own version line, which ncclCommInitRank prints in rank 0 of a communicator only ("if (myrank == 0)
# showVersion()", NCCL 2.0-2.28): a plain printf with no host:pid prefix, "NCCL version 2.21.5+cuda12.4".
R_NCCL_VERSION_LINE = re.compile(r"NCCL version \d{1,3}\.\d{1,3}\.\d{1,3}[+\w.\-]{0,40}$")
# A progress bar (tqdm: "Grouping texts in chunks of 2049:   8%|▊   | 726000/9672101 [02:32<30:38") of a data
# preparation step -- tokenising, mapping, grouping, filtering, packing, downloading a dataset -- with the launcher's
# prefix of the process printing it right before it ("[default0]:" torchrun --tee, "[rank0]:"). A rank whose own
# bar is short of its end was still preparing data (lead rule I): not a training loop's bar, which every hang shows,
# nor a metric's column ("mAP@.5" of a validation bar: "Map" is datasets' map, in its own case).
# a tqdm bar's time field, "[elapsed<remaining, rate" ("[31:13<7:10:59, 908.45 examples/s]"), also when a paste cut
# the bar's head and count off: what is left of a bar still running (parse: _bar_left; lead rules AC (1), BS (3))
R_TQDM_LEFT = re.compile(r"\[\d{1,4}:\d\d(?::\d\d)?<(?P<left>\d{1,4}:\d\d(?::\d\d)?), "
                         r"(?:\s?[\d.]{1,12}\s?(?P<unit>examples|ex|ba|it|s)/)?")
# tqdm's own rate units (it/s, s/it): a training loop's bar where no data step is named (datasets' map / filter
# bars count examples/s; ba/s, ex/s in older releases)
LOOP_BAR_UNITS = frozenset({"it", "s"})
# A paste or a log viewer may drop the bar's glyphs and pad the pipe ("30% | 48000/157712 [07:55<02:22, 772.28
# examples/s]", round 108's mindspeed-rank0-tokenizing): the same bar, its count after one pipe.
R_BAR = re.compile(r"(?P<pct>\d{1,3})% ?\|(?:[^|]{0,200}\|)?\s?(?P<n>\d{1,12})/(?P<total>\d{1,12})\b")
# what comes before a bar's percentage (a slice of at most 170 characters): the prefix and the step's name
# A bar whose own description names its process's rank ("Rank 0, running tokenizer on train_dataset (num_proc=16):",
# a datasets map desc=f"Rank {rank}, ..."): the rank is in the bar's own text, not an untagged bar (lead rules I,
# AC (1); round 108's mindspeed-rank0-tokenizing). Only at the head of the step's name, followed by a comma or colon.
R_BAR_OWN_RANK = re.compile(r"^\s*(?:[Gg]lobal )?[Rr]ank[ _]?(\d{1,6})\s?[,:]\s")
R_BAR_HEAD = re.compile(r"(?:\[(?:default|rank)(?P<rank>\d{1,6})\]:)?(?P<what>[^|\[\]]{0,160})\Z")
R_DATA_BAR = re.compile(r"tokeni[sz]|preprocess|group(?:ing)? texts|(?-i:\b[Mm]ap\b)|filter|pack(?:ing)?\b|chunk|"
                        r"generating \w+ split|(?:loading|download\w*|extract\w*|prepar\w*) (?:the )?data|"
                        r"running tokenizer|format(?:ting)? (?:the )?(?:data|prompts|samples)|"
                        r"(?:convert|process|encod|concatenat)\w* (?:the )?(?:data|texts|samples|examples|prompts)",
                        re.IGNORECASE)
# An evaluation step's own output: a validation/evaluation bar (its head names it: "val", "eval", YOLO's "mAP@.5"
# column) or an evaluator's progress lines (mmengine's "Evaluating bbox...", pycocotools' "Evaluate annotation type
# *bbox*"). Frameworks that compute the metrics on the main process alone print them there only; the others go on to
# the next collective (the broadcast of the metrics, DDP's broadcast of buffers) and wait for it (lead rule I).
R_EVAL_BAR = re.compile(r"\b(?:val(?:id(?:ation|ating|ate)?)?|eval(?:uat(?:e|ing|ion))?)\b|(?-i:\bmAP\b)",
                        re.IGNORECASE)
R_EVAL_LINE = re.compile(r"\bEvaluating [\w ,*/-]{1,60}\.\.\.|\bEvaluate annotation type\b")
R_LAUNCH_TAG = re.compile(r"\[(?:default|rank)(\d{1,6})\]:")
# torchrun's "[defaultN]:" role prefix (N: the LOCAL rank) before a global rank's own tag on the same line
# ("[default0]:[rank7]:", "[default0]:[E524 ...] [Rank 7]", torch 1.x's "[E ProcessGroupNCCL.cpp:475] [Rank 7]"):
# the prefix N names global rank K on its node only;
# where one prefix is shown before several global ranks, or before another one, it is not the global rank.
R_ROLE_RANK = re.compile(r"\[default(\d{1,5})\]:\s?(?:\[rank(\d{1,7})\]:|[^\[]{0,4}\[[EWIF]\d{0,4} [^\]]{0,120}\] "
                         r"\[Rank (\d{1,7})\])")
# init_process_group(init_method="tcp://HOST:PORT"): the TCPStore is created by rank 0's own process (is_master for
# rank 0), not by a launcher's agent -- so a reset store connection there is rank 0's process gone.
# A traceback frame of torchrun's own process (its main, the elastic agent, the rendezvous handlers), not of a worker:
# a store wait there is the rendezvous waiting for the other nodes' agents.
R_AGENT_FRAME = re.compile(r"torch/distributed/(?:run\.py|elastic/(?:agent|rendezvous)/)")
# fairseq's own start-up lines ("| distributed init (rank 4): tcp://10.0.0.1:9000", then "| initialized host node-b as
# rank 4"): the master address each process was given, and the host that took a rank. Rank 0 hosts the TCPStore at
# that address, so a host taking rank 0 whose own addresses (NCCL's Bootstrap interface list on it) do not include the
# master address was launched with another node's rank range (lead rule AA (1): config, no rank).
R_INIT_RANK_URL = re.compile(r"distributed init \(rank (\d{1,7})\): tcp://\[?([^\s\]/]+?)\]?:(\d{1,5})\b")
R_HOST_AS_RANK = re.compile(r"initialized host (\S.{0,254}?) as rank (\d{1,7})\s*$")
R_TCP_INIT = re.compile(r"init_method\s*=\s*[\"']tcp://")
# DeepSpeed's launcher killing its workers ("[launch.py:319:sigkill_handler] Killing subprocess 410126"), one line
# a worker in the order it started them (its sigkill_handler walks the list its spawn loop filled, local rank 0 first);
# the kernel's OOM killer's victim ("Out of memory: Killed process 410126 (python)"): lead rule AJ (2)
R_DS_KILL_PID = re.compile(r"\] Killing subprocess (\d{1,10})\b")
# torch 1.x's torch.distributed.launch has the same sigkill_handler, but print()s its kill lines bare ("Killing
# subprocess 2908", one a worker, at the end of its line -- a tqdm bar left open may sit before it) once a worker
# returned non-zero: the same record as DeepSpeed's (lead rules M, U (5))
R_LAUNCH_KILL_PID = re.compile(r"(?:^|[\s?|])Killing subprocess (\d{1,10})\s*$")
R_OOM_KILLED_PID = re.compile(r"\bKilled process (\d{1,10})\b")
# DeepSpeed's per-node launcher (deepspeed/launcher/launch.py: "[INFO] [launch.py:315:sigkill_handler] Killing
# subprocess 21439", "[launch.py:163:main] dist_world_size=8"): it starts the workers with MASTER_ADDR/MASTER_PORT and
# hosts no store itself, so init_process_group's env:// TCPStore lives in rank 0's own process, as with tcp://
R_DS_LAUNCHER = re.compile(r"\[launch\.py:\d{1,5}:(?:sigkill_handler|main)\]")
# DeepSpeed's runner (deepspeed/launcher/runner.py) logs the per-node launcher command it runs ("[runner.py:541:main]
# cmd = python -u -m deepspeed.launcher.launch --world_info=eyJsb2NhbGhvc3QiOiBbM119 --master_addr=..."; under pdsh
# the same command inside pdsh's): --world_info is base64 (urlsafe) of the JSON {host: [GPU ids]} of the resources it
# runs on, one worker a GPU -- how many nodes and workers the job has (lead rule M needs it to name a lone worker).
R_DS_WORLD_INFO = re.compile(r"deepspeed\.launcher\.launch\b[^\n]{0,4000}?--world_info=([A-Za-z0-9_+/-]{4,8192}"
                             r"={0,2})")
# A caller's report of the exit status of a command it ran (DeepSpeed-Chat's step runner: "RuntimeError: Step 1 exited
# with non-zero status 249"; subprocess's CalledProcessError: "Command '...' returned non-zero exit status 249"). Under
# DeepSpeed, launch.py ends with sys.exit(the failed worker's returncode) and the runner passes that status on: a worker
# killed by signal N gives status 256 - N (249: SIGBUS, 247: SIGKILL, 245: SIGSEGV, 250: SIGABRT) -- read so only
# where the DeepSpeed runner's own command line is shown (a shell reports a signal as 128 + N, Horovod's its own way).
# its per-node launcher logs the same resources decoded ("[launch.py:146:main] WORLD INFO DICT: {'localhost': [0, 1]}")
R_DS_WORLD_DICT = re.compile(r"\[launch\.py:\d{1,5}:main\] WORLD INFO DICT: (\{[^\n{}]{2,8000}\})")
R_CMD_STATUS = re.compile(r"\b(?:exited with non-zero (?:exit )?status|returned non-zero exit status) (\d{1,3})\b")
DS_STATUS_SIGNALS = (4, 6, 7, 8, 9, 11)  # the crash signals a 256 - N status is read as (not 1: ssh's own 255)
R_LOADING_SHARDS = re.compile(r"Loading (?:safetensors |pt |bin )?checkpoint shards\b")
# a progress bar's head naming the loading of a model's shards (parse._load_bar): a paste may cut its first letters
# ("oading checkpoint shards:"), so the bar head's own words decide, not the "Loading" before them
R_SHARDS_BAR = re.compile(r"checkpoint shards\b", re.IGNORECASE)
R_LOADING_DONE = re.compile(r"\b100%|\b(\d{1,5})/\1\b")  # the bar at its end: the weights were loaded
R_TESTS_HEADER = re.compile(r"#\s+size\s+count\s+type\s+(?:redop|root)")
# nccl-tests' preamble ("# nThread 1 nGpus 8 minBytes ... maxBytes ..."), which only the world's rank 0 prints: two of
# them a few lines apart with no device line or result between are two processes each printing its own, each its own
# world (a binary without MPI support launched by mpirun: lead rule AA (1), "each node its own world").
R_TESTS_PREAMBLE = re.compile(r"nThread\s+\d{1,4}\s+nGpus\s+(\d{1,4})\s+minBytes\s+\d")
R_TESTS_DONE = re.compile(r"(?<!['\"])# Avg bus bandwidth(?!['\"])|"
                          r"^\s*\d+\s+\d+\s+(?:float|half|double|bfloat16|u?int(?:8|32|64)|"
                          r"fp8\w*)\s+\S+\s+(?:-?\d+\s+)?\d+\.\d+\s")
# Windows' store client warning "[W socket.cpp:697] [c10d] The client socket has failed to connect to [DESKTOP-1]:29500
# (system error: 10049 - The requested address is not valid in its context.)": torch tries every address the
# host name resolves to and goes on with the next (loopback) one, so the warning alone is harmless, whatever host it
# names (a Docker Desktop alias too: lead rules L/N, session 7); a store timeout or error after it is the news.
# Linux's "(errno: 22 - Invalid argument)" is the same attempt at an address of the host that cannot be used there
# (lead rule L: a retried store-client warning with nothing failing after it is none). Linux's "(errno: 99 - Cannot
# assign requested address)" is 10049's own errno (EADDRNOTAVAIL: localhost's IPv6 address where the host has none,
# Colab), read the same way.
_CONNECT_TO = r"client socket has failed to connect to \[?(?P<host>[\w.\-:]{1,255}?)\]?:(?P<port>\d{1,5})"
_WIN_CONNECT_HEADS = ("(system error: 10049", "(errno: 22 - Invalid argument", "(errno: 99 - Cannot assign")
R_WIN_CONNECT_WARN = re.compile(_CONNECT_TO + r" \((?:" + "|".join(re.escape(h[1:]) for h in _WIN_CONNECT_HEADS)
                                + r")\b")
# The same c10d [W] warning cut by the paste before (or inside) its system error: "... failed to connect to
# [DESKTOP-X]:29995 (syste" at the end of the paste, or "... (system error: " where a wrap under a per-line prefix
# (timestamps, a rank tag) kept the error's own line from joining it. Read like it where the line is a c10d [W] one
# (readers.store: one connect attempt the client retries, lead rule BM (2)); group rest: what is left of its error
# text, a head of one of R_WIN_CONNECT_WARN's
R_CONNECT_WARN_CUT = re.compile(_CONNECT_TO + r"(?P<rest> \([\w :\-]{0,40})?\s*$")
# a c10d [W] log line's head, its source path whatever the build machine's (a Windows runner's "C:\\actions-runner\\
# ...\\socket.cpp:558", which R_C10D_WARNING's word-only path does not take)
R_C10D_W_ANY = re.compile(r"\[W(?:\d{3,4} \d\d:\d\d:\d\d[.\d]{0,10})? [^\]\s]{1,400}\.(?:cpp|hpp|h):\d{1,6}\]")


def connect_warn_cut(text: str) -> tuple[str, str] | None:
    """(host, port) of a client-socket connect warning cut before its error text could say which it is
    (R_CONNECT_WARN_CUT: nothing after the endpoint, or only the head of R_WIN_CONNECT_WARN's error texts), else
    None."""
    m = R_CONNECT_WARN_CUT.search(text)
    if m is None:
        return None
    rest = (m.group("rest") or "").strip()
    if rest and not any(h.startswith(rest) for h in _WIN_CONNECT_HEADS):
        return None
    return m.group("host"), m.group("port")


# torch's DataLoader warning that it starts more worker processes than the CPUs it may use ("UserWarning: This
# DataLoader will create 4 worker processes in total. Our suggested max number of worker in current system is 2, ...",
# dataloader.py's check_worker_number_rationality): a warning the process goes on after (lead rules K, BJ (4)), its
# numbers for the fix -- every rank's loader starts that many on a small machine
R_LOADER_WORKERS = re.compile(r"This DataLoader will create (\d{1,6}) worker processes in total\. Our suggested max "
                              r"number of worker in current system is (\d{1,6})")
# cuda-gdb's notice of an API call's error code: NCCL's peer-access probes fail by design where P2P is unavailable
R_GDB_PEER = re.compile(r"Cuda API error detected: (?:cudaDeviceEnablePeerAccess|cudaDeviceCanAccessPeer|"
                        r"cudaGetLastError|cudaPeekAtLastError) returned")
# Open MPI's shared-memory BTL (smcuda / vader) warning that it could not set up its segment in the session directory
# ("shmem: mmap: an error occurred while determining whether or not /tmp/ompi.HOST.../shared_mem_cuda_pool.HOST could
# be created.", then "create_and_attach: unable to create shared memory BTL coordinating structure :: size N"): the BTL
# is left out and the process goes on; a start-up warning, not a failure by itself (lead rules K, N, AH (3)). Opal's
# "A system call failed during shared memory initialization" help message is the shmem component failing outright
# (R_MPI_SHM below, verdict.transport), another line
R_OMPI_SHMEM_BTL_WARN = re.compile(r"\bshmem: mmap: an error occurred while determining whether or not \S{1,400} "
                                   r"could be created|\bcreate_and_attach: unable to create shared memory BTL "
                                   r"coordinating structure")
# Slurm's / Open MPI's PMIx "PMIX ERROR: ERROR in file .../src/mca/gds/ds12/gds_ds12_lock_pthread.c at line 169" (also
# gds_ds21_lock.c): the shared-memory datastore's lock at PMIx start-up, known harmless where the client and server
# PMIx versions differ (silenced with PMIX_MCA_gds=hash); the process goes on after it -- a start-up warning, not a
# failure by itself (lead rules K, N, AZ (4)). PMIx errors in any other file are not this line
R_PMIX_DS_LOCK = re.compile(r"\bPMIX ERROR: \w{1,40} in file \S{0,200}?\bgds_ds\d{1,3}_lock\w{0,20}\.c at line \d{1,6}")
R_REMOTE = re.compile(r"remote=\[?([\w.\-:]{1,255}?)\]?:(\d{1,5})\)")
# TCPStore's bind failure: errno 98 the port is taken, 13 (EACCES) a port below 1024 without root (or a
# reserved one)
# c10d's own log line of its server socket that cannot bind or listen ("[W socket.cpp:426] [c10d] The server socket has
# failed to bind to [::]:29400 (errno: 98 - Address already in use)", "[E socket.cpp:462] [c10d] The server socket has
# failed to listen on any local network address."): logged, no exception raised -- torchrun's c10d rendezvous backend
# then retries as a client of the store already on that port (readers.store, lead rule BY (1))
R_C10D_BIND_LOG = re.compile(r"\[[WE](?:\d{3,4} \d\d:\d\d:\d\d[.\d]{0,10})? [^\]\s]{1,400}\.(?:cpp|hpp|h):\d{1,6}\]"
                             r"\s{0,4}\[c10d\] The server socket has failed to (?:bind to|listen on)")
# (torch 1.10's wording "(generic error: 98 - Address already in use)", round 108's pytorch-68716)
R_BIND_PORT = re.compile(r"(?:listen on|bind to) \[?[^\]\s]*\]?:(\d+) \((?:errno|generic error): 98")
# the port is taken in any wording: torch 1.x's bare "RuntimeError: Address already in use" under the TCPStore frame,
# 2.x's DistNetworkError "... port: 29500, useIpv6: 0, code: -98, name: EADDRINUSE, message: address already in use"
R_ADDR_IN_USE = re.compile(r"[Aa]ddress already in use|EADDRINUSE|errno:? 98\b|\bcode: -98\b")
# accelerate launch's own check of the rendezvous port before it starts a process (commands/launch.py: "Tried to launch
# distributed communication on port `29500`, but another process is utilizing it"): its main_process_port is the port
# torchrun's store binds (MASTER_PORT), already bound on this host -- the store's port taken (lead rule AN (2))
R_LAUNCH_PORT_BUSY = re.compile(r"launch distributed communication on port `?(\d{1,5})`?,? but another process is "
                                r"utilizing it")
# A framework's own RPC transport failing at start-up, its servers and workers' own sockets rather than the c10d store
# or NCCL's and gloo's (lead rules L, AQ (3)): DistDGL's rpc/network/tcp_socket.cc "Failed bind on 10.0.0.1:30050 ,
# error: Address already in use" / "Failed listen on socket fd: 12 , error: ..." (strerror(errno): "Success" when the
# errno was not set, which says neither in-use nor an address not this host's)
R_RPC_BIND = re.compile(r"\bFailed (bind|listen) on (?:socket fd: ?\d{1,9}|\[?([^\s\]]{1,255}?)\]?:(\d{1,5}))\s{0,4},?"
                        r"\s{0,4}error: ?([^\n]{0,80})")
# The same bind refused in the framework's own words before its server starts: a Python check that tries to bind the
# port and prints that it could not ("Error: port 30050 is not available." -- DGL-KE's KV-store server, whose
# check_port_available binds ('', port) and fails on EADDRINUSE, then exits): the port is taken on that host. The
# whole line is the error (a program that goes on to another port says so on it, and is no failure)
R_PORT_UNAVAILABLE = re.compile(r"^\s{0,8}Error: [Pp]ort (\d{1,5}) is not available\.?\s{0,4}$")
# A framework's own socket layer (DGL's graph/network and rpc/network tcp_socket.cc: "tcp_socket.cc:180: recv error:
# Resource temporarily unavailable", LOG(ERROR) << "recv error: " << strerror(errno)) failing a read or write with its
# timeout's errno -- EAGAIN on a socket with a receive timeout, ETIMEDOUT: the peer it reads from (its KV-store
# server, its RPC server) never answered in time. The framework's own RPC / data-service connection, not NCCL's, gloo's
# or the c10d store's (lead rule AQ (3)): network_setup. A reset or a closed connection is a peer gone instead, and is
# not read here
R_FW_SOCKET_NO_ANSWER = re.compile(r"\btcp_socket\.cc:\d{1,6}\]?:? (recv|send) error: ?(Resource temporarily "
                                   r"unavailable|Connection timed out|(?:Operation|Connection) timed out)\b")
# A trainer's own wait for a framework's serving process at start-up giving up, as the exception's message says it
# (AReaL's remote engine _wait_for_server: RuntimeError("server launch failed"); "server did not become ready",
# "failed to start the rollout server"): the framework's own service never answered, the trainer only waited
# (lead rules AQ (3), AX (3)). Matched on an exception's message only.
R_SERVICE_WAIT = re.compile(r"^(?:the )?(?:[\w\-]{1,32} )?server (?:launch|start(?:-?up)?) failed\b|"
                            r"^(?:the )?(?:[\w\-]{1,32} )?server (?:did not|didn't|never) (?:start|come up|become "
                            r"(?:ready|healthy))\b|^failed to (?:launch|start) (?:the )?(?:[\w\-]{1,32} )?server\b",
                            re.I)
# torch RPC's gather of every worker (rpc/api.py's _all_gather: the leader asks each follower by RPC and waits), which
# init_rpc's start-up and a framework's barrier over RPC run: "Failed to respond to 'global_barrier' in time, got error
# Followers ['worker-1'] timed out in _all_gather after 15.00 seconds. The first exception is RPCErr:1:RPC ran for
# more than set timeout (15000 ms) ...". Its 'Shutdown Proceed' is the exit's own barrier (rpc.shutdown)
R_RPC_GATHER = re.compile(r"(?:Failed to respond to '([^'\n]{1,80})' in time,? got error )?"
                          r"Followers \[([^\]\n]{0,600})\] timed out in _all_gather after "
                          r"(\d{1,7}(?:\.\d{1,3})?) seconds")
# A collective library's own bootstrap at communicator set-up that never reached its root (Ascend HCCL's EI0015
# Communication_Error_Ranktable_Detect, under hcclCommInitRootInfo: "No rank in the communicator can connect to the
# root node within the timeout period. List of unconnected ranks: "[16,17,...,31,]""): the backend's own set-up
# connection between its processes (NCCL's bootstrap root, not a TCPStore) never made -- lead rule L, network_setup
R_ROOT_UNREACHED = re.compile(r"\bcan connect to the root node within the timeout\b"
                              r"(?:[^\n]{0,80}?\bunconnected ranks: ?\W{0,3}\[(?P<ranks>[\d,\s]{1,4000})\])?")
# A collective library's unique-id / root-info call -- the first step of a communicator's set-up, where the root
# makes the bootstrap address the other ranks will connect to (HCCL's HcclGetRootInfo, NCCL's ncclGetUniqueId) --
# failing with nothing but a status number: xLLM's glog check "Check failed: status == HCCL_SUCCESS (1 vs. 0) HCCL get
# root info failed.", torch_npu's "HCCL function error: HcclGetRootInfo(&hcclID), error code is 1". The address
# exchange of the set-up failed (lead rules L, AZ (2)): network_setup; the communicator's init from that root info
# failing alike (torch_npu's "HCCL function error: hcclCommInitRootInfoConfig(numRanks, &rootInfo, rank, config,
# &(comm->hcclComm_)), error code is 1", a p2p recv creating its communicator lazily: round 82's vllm-ascend-2712) is
# the same set-up's exchange with the root; a bare number is not the library naming a
# parameter error (rule W), which a reason in words after it would be (the reader checks nothing follows)
R_ROOTINFO_FAILED = re.compile(r"\b(?:[HN]CCL get (?:root info|unique ?id) failed\b|"
                               r"\b[HhNn]ccl(?:[Gg]et(?:RootInfo|UniqueId)|CommInitRootInfo(?:Config)?)"
                               r"\([^\n]{0,160}?\),? error code is \d{1,7}\b)")
# the words after it that are only punctuation, a status number or a glog/torch_npu tail: no reason given
R_ROOTINFO_BARE_TAIL = re.compile(r"[\s.,;:!()\[\]\d]{0,40}$")
# ... and a reason the library or its caller names on the same line (HCCL_E_PARA, "parameter error", "invalid
# argument", a library it cannot load, memory): that reason decides, not the set-up's address exchange
R_ROOTINFO_REASON = re.compile(r"\b(?:[HN]CCL_E_\w{2,20}|[Pp]arameter|[Ii]nvalid|[Nn]ot support|[Uu]nable to load|"
                               r"[Mm]emory|[Pp]ermission)")
# A collective library's own link from one rank to a peer that could not be made at communicator set-up (Ascend
# HCCL's EI0009 "Transport init error. Reason: [Create][DestLink]Create Dest error! createLink para:rank[1]-...,
# dst_rank[0]-remoteUserrank[0]-remote_ip_addr[10.0.0.1]"): the rank-to-rank connection itself, like NCCL's transport
# connect at init -- lead rules L and X (1), network_setup; the reporting rank only found its peer not answering
R_LINK_UNMADE = re.compile(r"\bTransport init error\b(?:[^\n]{0,300}?\bdst_rank\[(?P<dst>\d{1,7})\]"
                           r"(?:[^\n]{0,80}?\bremote_ip_addr\[(?P<ip>[^\]\n]{1,64})\])?)?")
# gRPC's own words for a channel it could not connect ("UNAVAILABLE: failed to connect to all addresses; last error:
# ...", "ipv4:10.0.0.5:1234: Failed to connect to remote host: Connection refused"): NCCL and gloo never speak gRPC,
# the training job's gRPC channel is its coordination service (JAX's jax.distributed.initialize coordinator, XLA's
# distributed runtime, TF's coordination service), the job's key-value store and rendezvous (lead rule L)
R_GRPC_CONNECT = re.compile(r"failed to connect to all addresses|Failed to connect to remote host: ?(?:Connection "
                            r"refused|No route to host|Connection timed out|Network is unreachable|Connection reset)")
# torch_xla's XRT mesh service (xla_client/mesh_service.cc), the job's rendezvous and configuration service that the
# master ordinal's process serves, answering a process that asks for the mesh at start-up (xm.xla_device() in
# _setup_replication): "mesh_service.cc:331 : Failed to retrieve mesh configuration: Connection reset by peer (14)"
# The same service's other two failures (mesh_service.cc): the client's connect to the mesh master, which it waits
# for up to XRT_MESH_CONNECT_WAIT seconds ("Failed to connect to client mesh master: d7c1c93dfe8c:56419"; its INFO
# "Waiting to connect to client mesh master (300 seconds) ..." is no failure), and a rendezvous the service holds
# for the processes (xm.rendezvous(tag): "Failed to meet rendezvous 'init': Socket closed (14)"; its VLOG "Waiting for
# rendezvous: ..." / "Rendezvous wait complete" are none): the job's rendezvous service failing, whatever the gRPC text
R_XRT_MESH = re.compile(r"Failed to (?:retrieve|get|fetch) mesh configuration:? ?(?P<why>[^\n]{0,120})|"
                        r"Failed to connect to client mesh master:? ?(?P<master>[^\s]{0,120})|"
                        r"Failed to meet rendezvous '(?P<tag>[^'\n]{0,80})':? ?(?P<rwhy>[^\n]{0,120})")
R_GRPC_PEER = re.compile(r"\bipv[46]:\[?([\w.:%\-]{1,255}?)\]?:(\d{1,5})\b")
# The coordination service's barrier (XLA's / TF's coordination_service.cc, the store behind JAX's
# jax.distributed.initialize) timing out: "DEADLINE_EXCEEDED: Barrier timed out. Barrier_id: PjRT_Client_Connect. Timed
# out task names:" and the tasks one a line ("/job:jax_worker/replica:0/task:3"); newer: "Barrier timed out. Id:
# PjRT_Client_Connect::0. ...", "# of tasks that reached the barrier: 1/8.", "The first task at the barrier: /job:...
# Some timed out task names:". A barrier of the set-up (its id names the client's connect or initialisation) is the
# job's rendezvous counting its processes (lead rule R): the tasks named never arrived (parse._coord_barrier)
R_COORD_BARRIER = re.compile(r"Barrier timed out\.?\s*(?:Barrier_id|Id|ID|id)\s*[:=]\s*([\w:.\-/]{1,120}?)"
                             r"\.?(?=\s|$|,)")
R_COORD_SETUP = re.compile(r"[Cc]onnect|[Ii]nit|[Ss]tart")
R_COORD_TASK = re.compile(r"/job:[\w\-]{1,64}/replica:\d{1,4}/task:(\d{1,6})")
R_COORD_REACHED = re.compile(r"# of tasks that reached the barrier:\s*(\d{1,6})\s*/\s*(\d{1,6})")
# A traceback's code line (or a pasted script's) calling the job's world set-up with literal settings (lead rule AE):
# "jax.distributed.initialize(coordinator_address="localhost", num_processes=8, process_id=0)" (positional: address,
# count, id), "dist.init_process_group('nccl', rank=0, world_size=2)": a literal id is the same id in every process
# started with that line (parse._world_call)
R_WORLD_CALL = re.compile(r"(?:^|[\s=(])((?:[\w]{1,40}\.){0,3}(?:distributed\.initialize|init_process_group))"
                          r"\(([^\n]{0,400})")
R_WORLD_KWARG = re.compile(r"\b(process_id|rank|num_processes|world_size|coordinator_address)\s*=\s*"
                           r"(\"[^\"]{0,200}\"|'[^']{0,200}'|[\w.\-:\[\]]{1,200})")
# vLLM's engine choice and data-parallel size on its launch line (lead rule AE): "VLLM_USE_V1=0 ... python3 -m
# vllm.entrypoints.openai.api_server ... --data-parallel-size 8" (or "vllm serve ... -dp 8"). The V0 engine starts no
# data-parallel ranks of its own: each must be launched by itself (its --data-parallel-rank / VLLM_DP_RANK), so one
# launch without them cannot fill the DP world its store waits for; V1 (the default since 0.8) starts them all.
R_VLLM_V0 = re.compile(r"\bVLLM_USE_V1=[\"']?0\b")
R_VLLM_DP_SIZE = re.compile(r"(?:--data[-_]parallel[-_]size|(?<!\S)-dp)(?:=|\s+)(\d{1,4})(?!\d)")
R_VLLM_DP_OWN = re.compile(r"--data[-_]parallel[-_](?:rank|start[-_]rank)\b|--headless\b|\bVLLM_DP_RANK\b")
R_VLLM_TP = re.compile(r"(?:--tensor[-_]parallel[-_]size|(?<!\S)-tp)(?:=|\s+)(\d{1,4})(?!\d)")
# An NCCL WARN line's source site and message (lead rule AJ (1)): "tpgds-aihub0006:4044156:4044156 [6]
# misc/socket.cc:578 NCCL WARN socketPollConnect: connect to ..." -- the same message printed from another file or
# line on another host (2.29's "os/linux.cc:200 ... ncclOsSocketPollConnect: connect to ...") is another NCCL build.
# The message's key drops the function's name (renamed between versions) and every number and address.
_WARN_SITE = r"\s([\w/.\-]{1,80}\.(?:cc|cu|cpp|h)):(\d{1,6}) NCCL WARN"
R_NCCL_WARN_SITE = re.compile(_WARN_SITE + r" (?:\w{1,60} ?: )?(\S[^\n]{4,300})")
# the same location with whatever text follows it, the function's name included and possibly none (a paste cut in
# the middle of a WARN leaves its location and the start of its message: verdict.noise._cut_copy)
R_NCCL_WARN_AT = re.compile(_WARN_SITE + r" ?([^\n]{0,300})")
R_WARN_KEY_MASK = re.compile(r"[\d.:]*\d[\w.:]*|<\d+>|0x[0-9a-fA-F]+")
# the bootstrap root's check of what each rank sent it (bootstrap.cc, NCCL >= 2.2x): "Bootstrap Root : mismatch in info
# from procs, nranks 16 vs 16, nroots 1 vs 1, iroot 0 vs 0, offset 0 vs -981270526" -- every count agreeing and one
# field garbled (negative, or far past any count) is a message of another layout read as this one's: two NCCL
# versions (lead rule AJ (1)); differing counts are two launches' worlds, not this
# Open MPI's TCP BTL warning box (btl_tcp_endpoint.c): "WARNING: Open MPI failed to TCP connect to a peer MPI
# process.  This should not happen. ... Your Open MPI job may now fail." with the fields "Message:    connect() to
# 172.30.15.1:1031 failed" and "Error:      Operation now in progress (115)": a connection between the job's
# processes that its set-up could not make (lead rules K, L; round 108's horovod-489)
R_OMPI_TCP_CONNECT = re.compile(r"Open MPI failed to TCP connect to a peer(?: MPI)? process")
R_OMPI_TCP_PEER = re.compile(r"^\s*Message:\s+connect\(\) to \[?([\w.:%\-]{1,255}?)\]?:(\d{1,5}) failed")
# TensorPipe's own check of a libuv call of its listener failing ("In initFromLoop at .../tensorpipe/transport/uv/
# listener.cc:126 \"rv < 0: invalid argument\"", the what() of torch RPC's init_rpc aborting): the RPC agent's own
# socket could not listen on the address it chose (lead rule AQ (3); round 108's tensorpipe-224)
R_TP_LISTENER = re.compile(r"tensorpipe/transport/(?:uv|tcp)/listener(?:_impl)?\.cc:\d{1,6} \\?\"(?:rv < 0: )?"
                           r"([a-z][^\"\\\n]{1,120})")
R_BOOT_ROOT_MISMATCH = re.compile(r"Bootstrap Root ?: mismatch in info from procs,?"
                                  r"((?: ?\w{1,20} -?\d{1,12} vs -?\d{1,12},?){1,8})")
R_BOOT_FIELD = re.compile(r"(\w{1,20}) (-?\d{1,12}) vs (-?\d{1,12})")
# the exception's whole message is the socket's own words, nothing else: torch's c10d/THD raise the bind's strerror
# verbatim when the store (THD's init, 1.x's TCPStore) cannot listen on the master port ("RuntimeError: Address already
# in use", THD's "... at .../THD/process_group/General.cpp:20", torchelastic's error file "message": "RuntimeError:
# Address already in use"). NCCL ("Call to bind failed : ..."), gloo ("[.../pair.cc:N] bind: ...") and Python's
# sockets ("OSError: [Errno 98] ...") word it otherwise: those are their own connections, not the store's. The
# exception may follow the reporter's own words and a colon, ASCII or full-width ("执行中报错：RuntimeError:
# Address already in use", round 110's cdial-gpt-103): still the whole message of the exception
R_BARE_IN_USE = re.compile(r"(?:^|[\s\"':\uff1a])"
                           r"(?:RuntimeError|(?:torch\.distributed\.)?Dist(?:Network|Store)?Error): "
                           r"Address already in use(?: at \S{1,300}\.cpp:\d{1,6})?[\s\"',.]*$")
# oneCCL's key-value store (its rendezvous, lead rule L): "|CCL_ERROR| internal_kvs.cpp:539 kvs_init: connection time
# (60) >= limit (60)" (the main server never answered), "... kvs_init: init main server address error",
# "... fill_local_host_ip: can't find interface  to get host IP" (only lo, or CCL_KVS_IFACE names none)
R_CCL_KVS = re.compile(r"\|CCL_ERROR\|\s*\w*kvs\w*\.cpp:\d+ (\w+): ([^\n]{1,200})")
# oneCCL's transport layer (ATL) failing to start, before any collective (its set-up, as NCCL's own system error):
# "|CCL_ERROR| atl_ofi_helper.cpp:867 atl_ofi_get_prov_list: fi_getinfo error: ret -61, providers 0", "... can't
# create providers for name shm", "atl_ofi.cpp:243 init: can't find suitable provider", "atl_ofi_comm.cpp:278
# init_transport: condition transport->init(...) == ATL_STATUS_SUCCESS failed" (libfabric / MPI found no usable
# provider in this environment)
R_CCL_ATL = re.compile(r"\|CCL_ERROR\|\s*atl_\w+\.cpp:\d+ (\w+): ([^\n]{1,200})")
# oneCCL failing to start its worker threads (its set-up, a system call on the host): "|CCL_ERROR| base_thread.cpp:36
# start: error while creating worker thread #0 pthread_create returns 22", "exec.cpp:134 start_workers: condition
# workers.back()->start(cpu_affinity, mem_affinity) == ccl::status::success failed", raised as "oneCCL: exec.cpp:134
# start_workers: EXCEPTION: failed to start worker # 0" (the worker affinity / count against the CPUs allowed)
R_CCL_WORKER = re.compile(r"(?:\|CCL_ERROR\||oneCCL:)\s*\w+\.cpp:\d+ (\w+): ([^\n]{0,200}?"
                          r"(?:worker thread|start worker|pthread_\w+ returns -?\d+)[^\n]{0,120})")
# oneCCL's own exception, as its CCL_ERROR line or its thrown text names it: "|CCL_ERROR| worker.cpp:338
# ccl_worker_func: worker 0 caught internal exception: oneCCL: ze_handle_manager.cpp:226 get_ptr: EXCEPTION: unknown
# memory type" -- the last "file.cpp:N function:" of the line is the one that threw (the worker only caught it).
# Lead rule BO (3): with no device runtime call shown failing it is the library's own check (ncclInternalError's
# counterpart); its kvs, ATL, worker-start and errno texts are read by their own families (readers.store)
R_CCL_EXC = re.compile(r"(?:\|CCL_ERROR\||oneCCL:)\s{0,4}(?P<file>\w{1,60})\.cpp:\d{1,6} (?P<fn>\w{1,80}): "
                       r"(?P<said>[^\n]{0,200})")
# oneCCL's wrapper of a Level Zero call (ze_call.cpp, do_call) throwing: the device runtime's call failed inside the
# collective library ("oneCCL: ze_call.cpp:28 do_call: EXCEPTION: ze error at zeMemOpenIpcHandle, code:
# ZE_RESULT_ERROR_..."), read like a CUDA call failing in NCCL's transport set-up (lead rules AN (2), V (2), BO (3)),
# even where the paste cuts its text after the wrapper's name
R_CCL_ZE_CALL = re.compile(r"(?:\|CCL_ERROR\||oneCCL:)\s{0,4}ze_call\.cpp:\d{1,6} (?P<fn>\w{1,80})(?::? ?"
                           r"(?P<said>[^\n'\"]{0,200}))?")
# a Level Zero IPC-handle call named before its ZE_RESULT_ERROR_ code ("ze error at zeMemOpenIpcHandle, code:
# ZE_RESULT_ERROR_INVALID_ARGUMENT", the line cut before or without oneCCL's ze_call.cpp wrapper): only the collective
# library's (oneCCL's) peer set-up between the GPUs opens another device's memory so -- read as R_CCL_ZE_CALL's
R_ZE_IPC_CALL = re.compile(r"\bze(?:Mem|Event|Physical)\w{0,30}Ipc\w{0,30}\b")
R_PORT_FIELD = re.compile(r"\bport: (\d{1,5})\b")
R_BIND_DENIED = re.compile(r"(?:listen on|bind to) \[?[^\]\s]*\]?:(\d+) \(errno: 13")
R_CONNECT_TO = re.compile(r"connect to \(([^,]+), (\d+)\)|connect to \[?((?:::ffff:)?[\w.\-]+)\]?:(\d+)")
R_GLOO = re.compile(r"gloo|Gloo")
# A traceback / faulthandler frame of the job's set-up call: Horovod's hvd.init() (horovod/common/basics.py, "line 60 in
# init") or torch's init_process_group. A gloo peer closing or resetting the connection in it is set-up (rule L).
# The code line of a traceback's frame that calls it ("    torch.distributed.init_process_group(backend=...)",
# "dist.init_process_group("): a traceback cut right after it ended inside the call (parse.finish).
R_INIT_CALL = re.compile(r"^\s*(?:[\w.]{1,80}\.)?init_process_group\(")
R_INIT_FRAME = re.compile(r"horovod/common/basics\.py\"?, line \d{1,6},? in init\b|\bin init_process_group\b")
# accelerate's set-up of the process (train scripts' prepare_accelerator, Accelerator(...), AcceleratorState /
# PartialState(...)): launched distributed, creating it calls init_process_group, so a traceback cut in one of these
# frames ended in the process group's set-up as much as one cut at init_process_group itself (parse.finish).
R_ACCEL_INIT = re.compile(r"\bin prepare_accelerator\b|^\s*(?:\w{1,80}\s{0,4}=\s{0,4})?(?:[\w.]{1,80}\.)?"
                          r"(?:Accelerator|AcceleratorState|PartialState)\(")
# init_process_group's own code past the store (distributed_c10d.py: 'store = PrefixStore("default_pg", store)', then
# the default group's backend is made by 'default_pg = _new_process_group_helper(' -- torch 2.x's
# 'default_pg, _ = _new_process_group_helper(' -- or a frame "in _new_process_group_helper"), as a plain or a rich
# traceback shows it: a traceback cut there got the store, so what was failing is the backend's creation, not the store
# connection (lead rules L, BQ (2); round 86's kohya-ss-521, cut at the helper's call)
R_INIT_PAST_STORE = re.compile(r"\bstore\s{0,4}=\s{0,4}PrefixStore\(\s{0,4}['\"]default_pg['\"]"
                               r"|\bdefault_pg(?:,\s{0,4}_)?\s{0,4}=\s{0,4}_new_process_group_helper\("
                               r"|\bin _new_process_group_helper\b")
# a Windows install's path in a traceback (F:\kohya_ss\..., C:\Users\...\venv\...): torch's Windows wheels have no NCCL
R_WIN_PATH = re.compile(r"(?<![\w/])[A-Za-z]:\\[^\\\n]{1,120}\\")
# PaddlePaddle's set-up call (paddle.distributed.init_parallel_env: its store, the NCCL communicator and a first
# barrier over it): an ncclRemoteError raised under its frame is the connection set-up failing (lead rules L, O)
R_PADDLE_INIT_FRAME = re.compile(r"\bin init_parallel_env\b")
# A C++ frame of gloo's own store read at a gloo group's set-up (c10's backtrace of the exception, "frame #10:
# gloo::rendezvous::PrefixStore::wait(std::vector<...> const&, std::chrono::duration<...> const&) + 0x109 (0x.. in
# .../libtorch_cpu.so)"): ProcessGroupGloo's constructor connects the full mesh (rendezvous::Context::connectFullMesh,
# tcp::Context::createAndConnectAllPairs) after reading every peer's address from the store, and a backtrace is taken
# where the exception was thrown -- inside that read: the store wait for the peers' addresses failed (lead rule AI (1):
# store_rendezvous, culprits "unknown"), not gloo's own connection (its "connectFullMesh failed" text, rule L)
R_GLOO_STORE_FRAME = re.compile(r"\bframe #\d{1,3}: gloo::rendezvous::PrefixStore::(wait|get)\(")
# The same wait as Python shows it: a traceback's code line constructing the gloo group ("pg = ProcessGroupGloo(
# prefix_store, rank, world_size, timeout=timeout)", "backend_class = ProcessGroupGloo(") with, right under it, an
# exception that only says a wait or connection timed out ("DistStoreError: wait timeout after 1800000ms, keys: ...",
# a bare "RuntimeError: Connection timed[ out]", torch 1.x's "Wait timeout" / "Socket Timeout") and no gloo connect
# text (pair.cc, connectFullMesh) and no peer address: the constructor's exchange of the peers' addresses through the
# store timed out (lead rule AI (1): store_rendezvous, culprits "unknown"); gloo's own connect failure naming a peer
# is its transport's (rule L, readers.store._gloo). Round 82's colossalai-2500 (new_group's gloo CPU group) and
# vllm-ascend-2248 (a vLLM worker's gloo group).
R_GLOO_PG_CALL = re.compile(r"\bProcessGroupGloo\(")
R_GLOO_PG_TIMEOUT = re.compile(r"(?:\[Errno \d{1,4}\] )?(?:Connection timed(?: out)?\.?|[Ww]ait timeout\b[^:,]{0,40}"
                               r"(?:, keys: [^\s,]{0,300}(?:, [^\s,]{1,300}){0,64})?|Socket Timeout|[Tt]imed out)$")
# A store read naming the one key it waited for, key "0" ("Wait timeout for key(s): 0", gloo's store wait as Horovod's
# HTTP store and torch's gloo store print it; "keys: 0"): the key rank 0 publishes (its address for the gloo
# rendezvous, the NCCL unique id): a connected rank waited for rank 0, which never got there (lead rules G, Y)
# Horovod's newer HTTP store says how long it waited and ends on its own advice ("Wait timeout after 30 seconds for
# key(s): 0. You may want to increase the timeout via HOROVOD_GLOO_TIMEOUT_SECONDS"; round 109's ray-25866): the key
# list still ends at "0", the sentence after it is no other key
R_STORE_KEY0 = re.compile(r"[Ww]ait timeout (?:after (\d{1,9}) seconds )?for key\(s\): ?\[?'?0'?\]?(?:\.\s.*)?\s*$"
                          r"|[Ww]ait timeout after \d{1,12} ?ms, keys?: \[?'?0'?\]?\s*$")
# a serving framework's logger record head before a worker's traceback line ("ERROR 08-06 22:23:09
# [multiproc_executor.py:487] torch.distributed.DistStoreError: ..."; older vLLM without the brackets)
R_LOG_RECORD_HEAD = re.compile(r"(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) \d\d-\d\d \d\d:\d\d:\d\d "
                               r"\[?[\w.]{1,80}:\d{1,6}\] ")
R_GLOO_KIND = re.compile(r"connectFullMesh failed|address family mismatch|[Aa]ddress family not supported|"
                         # tcp/device.cc's enforce that both ends of a pair have one address family ("ss1.ss_family ==
                         # ss2.ss_family. 2 vs 10": AF_INET against AF_INET6): one rank bound IPv4, its peer IPv6
                         r"ss1\.ss_family == ss2\.ss_family\.? ?\d{0,3}(?: vs \d{1,3})?|"
                         r"Unknown address family|invalid address family|Unable to find address for:? ?(\S*)|"
                         # tcp/device.cc's lookup of the address the host name resolves to: "ifa != nullptr. Unable to
                         # find interface for: [0.0.0.189]" -- no local interface holds it (lead rule L)
                         r"Unable to find interface for:? ?\[?[\w.:%\-]{0,80}\]?|"
                         # GlooDeviceFactory's "makeUVDevice(): interface or hostname can't be empty" (Windows' libuv
                         # transport): no interface named and the host name resolved to nothing (lead rule L)
                         r"interface or hostname can't be empty|"
                         # gloo's libuv transport (torch's default on macOS/Windows) enforcing a libuv call of its
                         # listener or connections: "[.../gloo/transport/uv/libuv.h:596] uv_accept: invalid argument"
                         # -- gloo's own connection set-up between the ranks failed, then it aborts (lead rule L)
                         r"(?<=/transport/uv/)\w{1,40}\.(?:h|cc):\d{1,6}\] uv_\w{1,30}: [a-z][^\n]{0,80}|"
                         r"Connection closed by peer|Connection reset by peer|Socket closed|Connect timeout|"
                         r"connect: (?:No route to host|Connection refused|Network is unreachable|"
                         r"Connection timed out)")
# gloo's tcp pair reading or writing on a connection made long before ("[.../gloo/transport/tcp/pair.cc:538] Read error
# [10.0.0.2]:31234: Connection timed out"): the kernel gave up on an established connection (ETIMEDOUT: retransmits or
# keepalives unanswered); the peer neither closed nor reset it -- the path between the hosts stopped delivering in the
# middle of a collective (lead rules O, AQ (2)), unlike "connect: Connection timed out" (a connection never made) or
# "closed/reset by peer" (a peer gone)
R_GLOO_IO_TIMEOUT = re.compile(r"\b(Read|Write) error \[([^\]\s]{1,200})\](?::([^\s:]{1,16}))?: Connection timed out")
# gloo's GLOO_ERROR_MSG header with its message cut off the paste ("RuntimeError: [/pytorch/third_party/gloo/gloo/
# transport/tcp/pair.cc:543]" and nothing after): the source location fixes the message where, in gloo's history of
# tcp/pair.cc, that line prints only the read path's EOF check, "Connection closed by peer" (lead rules AM (1), AJ (1)
# read a source site so) -- or, at 542/543 in some versions, the listener's "accept:", a set-up message that a pair
# inside a running collective cannot print. Lines that another run-time message (Read error, Read timeout) shares
# in some version are not read (round 73's torch 1.0 optimizer, its gloo of Nov-Dec 2018 at line 543)
# The paste may also stop inside the message's first words ("pair.cc:598] Connection clos": round 109's
# pytorch-61201): group "rest", which the reader takes only where it begins "Connection closed by peer"
R_GLOO_PAIR_CUT = re.compile(r"\[[^\]\n]{0,200}gloo/transport/tcp/pair\.cc:(\d{1,5})\]\W*(?P<rest>[A-Za-z ]{0,24})$")
GLOO_PAIR_CLOSED_LINES = frozenset({500, 501, 541, 542, 543, 544, 545, 575, 597, 598})
# gloo's enforce header with nothing after its "]" ("RuntimeError: [enforce fail at .../gloo/transport/tcp/
# device.cc:84]"): its condition and message ("ifa != nullptr. Unable to find address for: ^lo") were put on the
# next line
R_GLOO_ENFORCE_HEAD = re.compile(r"\[enforce fail at [^\]\n]{0,200}gloo/[^\]\n]{0,200}\]\W*$")
# "ProcessGroupNCCL's watchdog got stuck for 600 seconds without making progress": a paste hard-wrapped with a
# prefix on every piece (a timestamp, a quote) keeps the words cut at the line's end ("600 second", "600 se").
R_HEARTBEAT = re.compile(r"watchdog got stuck for (\d+)(?: seconds?\b| s(?:e(?:c(?:o(?:nd?)?)?)?)?\s*$|\s*$)|"
                         r"Heartbeat monitor timed out|[Hh]eartbeat[Mm]onitor.* terminat")
# torch's dump found this process's Python thread holding the GIL ("Could not acquire GIL within 300 ms on exit,
# possible GIL induced hang"): the rank is shown, busy or stuck in Python, not proven inside a collective
R_GIL_HELD = re.compile(r"Could not acquire GIL within \d{1,9} ?ms")
# torch's MapAllocator failing on the shared-memory file of a tensor one process hands another (a DataLoader
# worker's batch, a torch.multiprocessing queue): "unable to write to file </torch_995_2167858072>", "unable to open
# shared memory object </torch_..> in read-write mode: Too many open files (24)", "unable to mmap N bytes from file
# </torch_...>: Cannot allocate memory (12)", torch 2.x's "unable to allocate shared memory(shm) for file </torch_...>:
# No space left on device (28)". The file lives in /dev/shm: it is full (or, errno 24, the descriptors ran out).
R_TORCH_SHM = re.compile(r"unable to (?:write to file|open shared memory object|mmap \d+ bytes from file|resize file|"
                         r"allocate shared memory\(shm\) for file) <(/torch_[\w\-]{1,60})>(?:[^:\n]{0,40}:\s*"
                         r"([A-Za-z][^\n(]{0,80}))?")
# Python's multiprocessing failing to create its temporary directory (util.get_temp_dir's "pymp-XXXX" under TMPDIR,
# /tmp by default), where the Listener of resource_sharer -- which hands a shared tensor's file descriptor from a
# DataLoader worker's queue feeder to the main process (torch's reduce_storage -> DupFd) -- puts its socket:
# "OSError: [Errno 28] No space left on device: '/tmp/pymp-m_olac7h'". The batch cannot be passed.
R_MP_TMP = re.compile(r"\[Errno (\d{1,3})\] ([A-Za-z][^:\n]{0,60}): '([^'\n]{0,200}?)/pymp-\w{1,40}'")
# A traceback's source line creating a POSIX shared-memory block (multiprocessing.shared_memory's
# "self._fd = _posixshmem.shm_open(", a library's own shm_open call): the exception right below it is that block's
R_SHM_OPEN_CALL = re.compile(r"\bshm_open\(")
# A traceback frame of torch's DataLoader fetching the next batch from its worker processes: where the main process
# learns that a worker died or stopped answering ("DataLoader worker (pid(s) N) exited unexpectedly", "Too many open
# files. Communication with the workers is no longer possible", a timeout) -- raised from these frames.
# accelerate's start-up advisory that the host's Linux kernel is older than it recommends ("Detected kernel version
# 3.10.0, which is below the recommended minimum of 5.5.0; this can cause the process to hang"): no failure (lead rule
# K), a fix word for a failure it may explain (parse's kernel_old; round 92's medusa-134)
R_KERNEL_BELOW_MIN = re.compile(r"Detected kernel version (\d{1,3}(?:\.\d{1,4}){1,3}), which is below the "
                                r"recommended minimum of (\d{1,3}(?:\.\d{1,4}){1,3})")
# accelerate launch's own launcher frame ('File ".../accelerate/commands/launch.py", line 666, in multi_gpu_launcher'):
# parse.input_tail's ``accel_launch``
# a line naming accelerate: its package's files (".../accelerate/state.py") or its launcher's command (`accelerate
# launch ...`, `accelerate-launch`): parse's ``accel_seen`` (verdict.store's env:// fix; review a of round 110, #7)
R_ACCEL_MENTION = re.compile(r"\baccelerate(?:[/\\]|[ -]launch\b)")
R_ACCEL_LAUNCH_FRAME = re.compile(r'\baccelerate[/\\]commands[/\\]launch\.py", line \d{1,7}, in ')
# torchrun's failure record titled with accelerate test's own script ("/x/site-packages/accelerate/test_utils/scripts/
# test_script.py FAILED"): the job is `accelerate test`, run with the saved accelerate config (parse's ``accel_test``,
# verdict.exits' shared-failure fix; round 109's accelerate-2390)
R_ACCEL_TEST_TITLE = re.compile(r"\baccelerate[/\\]test_utils[/\\]scripts[/\\]test_script\.py FAILED\s*$")
# the DataLoader's frame re-raising a worker's exception: _process_data itself (its "data.reraise()"), or _next_data
# on its call of it ("return self._process_data(data)"): verdict.unread's cut reading, parse's ``loader_reraise``
R_LOADER_DATA_FILE = re.compile(r'\btorch[/\\]utils[/\\]data[/\\]dataloader\.py", line \d{1,7}, in '
                                r'(_process_data|_next_data)\s*$')
R_PROCESS_DATA_CALL = re.compile(r"(?:^|[\s=(])self\._process_data\(|\.reraise\(\)")
R_LOADER_FETCH_FRAME = re.compile(r'\btorch[/\\]utils[/\\]data[/\\]dataloader\.py", line \d{1,7}, in '
                                  r'(?:__next__|_next_data|_get_data|_try_get_data)\s*$')
# joblib's probe of the host's POSIX semaphores at import (it creates a multiprocessing.Semaphore, which lives in
# /dev/shm as a sem.* file) failing: "UserWarning: [Errno 28] No space left on device.  joblib will operate in serial
# mode" -- the semaphore facility itself refused (errno 28: /dev/shm full; 38 / 13: no usable /dev/shm). group 1: the
# errno, group 2: its words
R_SEM_PROBE = re.compile(r"\[Errno (\d{1,3})\] ([A-Za-z][^.\n]{0,60})\.\s{1,4}joblib will operate in serial mode")
# A traceback's source line creating a multiprocessing lock or semaphore (a POSIX semaphore in /dev/shm): queues.py's
# "self._rlock = ctx.Lock()", synchronize.py's "sl = self._semlock = _multiprocessing.SemLock(", "mp.Semaphore(".
R_MP_SEM_CALL = re.compile(r"\b(?:ctx|mp|multiprocessing|context)\.(?:R?Lock|(?:Bounded)?Semaphore|Condition|Barrier)"
                           r"\(|\bSemLock\(")
# ... and the exception shm_open raises when a block of that name already exists: the name is a shared-memory object's
# (one component after the leading '/', the file it names lives in /dev/shm): "FileExistsError: [Errno 17] File
# exists: '/000010_locals'"
R_SHM_EXISTS = re.compile(r"\bFileExistsError: \[Errno 17\] File exists: '(/?[^'/\n]{1,255})'")
# Where a process fetches its next batch from a DataLoader, as a traceback shows it: the training loop's own source
# line iterating batches ("for step, batch in pbar:", "for i, batch in enumerate(train_loader):"; an exception right
# below it was raised by the iteration itself, the loader's __next__), or a frame of multiprocessing's resource_sharer,
# the socket through which a worker hands the main process a batch's shared tensor (torch's reduce_storage -> DupFd,
# rebuild_storage_fd's df.detach()). A connection error raised there (R_FETCH_CONN_EXC) is that loader's channel to
# its worker processes, not a peer rank's socket (crash._fetch_reset).
R_BATCH_FETCH = re.compile(r"^\s*for\s+[\w\s,()]{0,80}?\bbatch\w{0,20}\b[\w\s,()]{0,40}?\s+in\s+\S[^\n]{0,200}:\s*$|"
                           r"\bmultiprocessing[/\\]resource_sharer\.py\"")
# A traceback frame of the machinery that passes a tensor between processes by file descriptor (torch's
# multiprocessing/reductions.py: rebuild_storage_fd; multiprocessing's resource_sharer.py: DupFd.detach ->
# get_connection): a DataLoader's batch handed over from a worker (its pin-memory thread or main process receiving it)
# A traceback frame of torch_xla's spawn in the PARENT process (xmp.spawn -> pjrt.spawn -> run_multiprocess): PJRT runs
# one process per device in a process pool and re-raises the first child's exception there -- or BrokenProcessPool
# for a child that died abruptly (killed, crashed) -- so a paste cut there shows neither which child nor why
# (verdict.unread._cut_where; round 90's xla-6015). The child's own frames (_run_thread_per_device, _run_singleprocess)
# are not these.
R_XLA_SPAWN_FRAME = re.compile(r'\btorch_xla[/\\](?:_internal[/\\]pjrt|distributed[/\\]xla_multiprocessing)\.py", '
                               r'line \d{1,7}, in (?:spawn|run_multiprocess)\s*$')
# torch's storage unpickling from bytes: the frame 'File ".../torch/storage.py", line 161, in _load_from_bytes'
# (what the prefilter passes) and right under it its code line "return torch.load(io.BytesIO(b))": pickle.loads of a
# tensor pickled on a GPU -- an object collective (all_gather_object, broadcast_object_list, a hand-written all_gather
# of pickled buffers), a pickle file, an object store -- restoring each storage onto the device it was pickled from,
# no map_location (parse's ``unpickle``, verdict.unread's cut-traceback fix; round 94's fairscale-937, hotr-9). The
# code line alone is not this: a user's own loader calls torch.load(io.BytesIO(data)) on a checkpoint's bytes (review
# 94 r2 #4). A call that passes a map_location is not this either
R_STORAGE_UNPICKLE_FRAME = re.compile(r'\btorch[/\\]storage\.py", line \d{1,7}, in _load_from_bytes\s*$')
# the same frame's end where a paste hard-wrapped it (a terminal at 80 columns: '...torch/storage.py", line 161, in _'
# then 'load_from_bytes'): the piece on a line of its own, from column 0
R_STORAGE_UNPICKLE_PIECE = re.compile(r'^(?:[\w",][\w", ]{0,40})?load_from_bytes\s*$')
R_BYTES_UNPICKLE_CODE = re.compile(r"\breturn torch\.load\(io\.BytesIO\(\w{1,40}\)(?:, ?weights_only=\w{1,8})?\)")
# an evaluation metric's compute in the HF evaluate / datasets Metric API: a code line calling
# "metric.compute(predictions=..., references=...)", or a frame of that library's own metric module as installed
# (site-packages/ or dist-packages/ evaluate/module.py, datasets/metric.py: a project's own "datasets/metric.py" is
# not the library's; review 94 r2 #5) -- in a run of several processes each writes its predictions to a cache file
# and the first process collects the others' under file locks (parse's ``metric``, verdict.unread's cut fix; round
# 94's evaluate-607)
R_METRIC_COMPUTE_CALL = re.compile(r"\.compute\(\s{0,4}predictions\s{0,4}=")
R_METRIC_LIB_FRAME = re.compile(r'[/\\](?:site|dist)-packages[/\\](?:evaluate[/\\]module|datasets[/\\]metric)\.py", '
                                r'line \d{1,7}, in \w')
R_FD_SHARE_FRAME = re.compile(r'\bmultiprocessing[/\\](?:resource_sharer|reductions)\.py", line \d{1,7}')
R_FETCH_CONN_EXC = re.compile(r"^(?:builtins\.)?Connection(?:Reset|Refused|Aborted)Error\b")
# ... or the process running out of file descriptors there ("OSError: [Errno 24] Too many open files" under
# resource_sharer / DupFd / reduce_storage frames): the file_descriptor sharing strategy keeps one descriptor per
# shared tensor of a batch in flight, and the open-file limit ran out (round 81's face-recognition-framework-5)
R_FETCH_FD_EXC = re.compile(r"^(?:builtins\.)?(?:OSError|IOError): \[Errno 24\] Too many open files")
# ... or the DataLoader's own check saying so, wherever it stands: torch/utils/data/dataloader.py's _try_get_data
# raises "RuntimeError: Too many open files. Communication with the workers is no longer possible. Please increase
# the limit using `ulimit -n` ..." when receiving a batch from its workers hits EMFILE -- the loader's shared-tensor
# channel, in the loader's own words, frames or not (round 110's neuralrecon-91)
R_DL_FD_EXC = re.compile(r"\bToo many open files\. Communication with the workers is no longer possible")
# A line that announces an error in its first word (a launcher's "Error: failed to run torchrun ... on HOST",
# logging's "ERROR: ..." / "ERROR [date module]: ..."), read only when no family explains it.
R_ERROR_LINE = re.compile(r"^\s*(?:Error|ERROR|FATAL|Fatal error)(?: ?\[[^\]\n]{0,80}\])?\s*:\s*(\S.{0,300}?)\s*$")
# ... but not a checkpoint loader's note that one parameter is absent from the file (VITS-family utils.load_checkpoint
# logs "ERROR:models:emb_g.weight is not in the checkpoint" through logger.error, keeps the model's own initial value
# for it and goes on loading): a model-loading note; load_state_dict's strict "Missing key(s) in state_dict" raises
R_CKPT_KEY_NOTE = re.compile(r"^(?:[\w.]{1,80}:)?[\w.]{1,200} is not in the checkpoint\s*$")
# detectron2's launch (and the many trainers built on it) logs the init_method it gave init_process_group when
# that call raised: "Process group URL: tcp://127.0.0.1:50152", "Process group URL: None" (no dist_url reached the
# workers: env:// without MASTER_ADDR).
R_PG_URL = re.compile(r"Process group URL: (\S{1,200})")
# The pid may be left out where a framework or a reporter retells torch's line ("RuntimeError: DataLoader worker is
# killed by signal: Bus error" amid other words): the signal's name ends at the first character no name holds.
# (PaddlePaddle's: "DataLoader process (pid 1104) exited is killed by signal: Killed."; its SIGBUS handler's
# "Unexpected BUS error encountered in DataLoader worker", torch's "Unexpected bus error encountered in worker").
# torch's worker signal handlers (csrc/DataLoader.cpp) print the same for the worker's own faults: "ERROR: Unexpected
# segmentation fault encountered in worker.", "... floating-point exception ..." (group 3: SIGSEGV, SIGFPE)
R_DATALOADER = re.compile(r"DataLoader (?:worker|process) (?:\(pids?\(?s?\)? ?([\d, ]+)\)? )?"
                          r"(?:(?:exited )?is killed by signal: "
                          r"([A-Za-z][A-Za-z0-9 ]*?)\s*(?:\.|$|(?=[^A-Za-z0-9 ]))|exited "
                          r"unexpectedly)|[Uu]nexpected (?:(?:bus|BUS|Bus) error|([Ss]egmentation fault|"
                          r"[Ff]loating-point exception)) encountered in (?:DataLoader )?worker")
# torch's OOM, a CUDA call's, and NCCL's own ("Cuda failure 'out of memory'", "Failed to CUDA calloc N bytes")
# A CUDA driver-API call failing with CUresult 2 (CUDA_ERROR_OUT_OF_MEMORY), as a library that allocates through the
# driver prints it (torch_memory_saver: "CUresult error  result=2 file=csrc/torch_memory_saver.cpp func=cu_mem_create
# line=103"): that process could not get GPU memory
R_DRIVER_OOM = re.compile(r"CUresult error\s+result=(?:2|CUDA_ERROR_OUT_OF_MEMORY)\b(?:.*?\bfunc=(\w+))?")
R_RAY_PID = re.compile(r"\(\w+ pid=(\d+)(?:, ip=[\d.]+)?\)")
# Ray's log deduplication (RAY_DEDUP_LOGS, on by default since Ray 2.3): lines of other workers that differ only in
# their numbers -- another rank's same watchdog line -- are folded into the first one, which ends "[repeated 3x
# across cluster]"
R_RAY_REPEATED = re.compile(r"\[repeated (\d+)x across cluster\]")
R_OOM = re.compile(r"CUDA out of memory|OutOfMemoryError|CUDA [Ee]rror: out of memory|"
                   # (RCCL's "[FATAL ERROR]: HIP failure: 'out of memory'" the same, R_CUDA_ERROR)
                   r"(?:Cuda failure|HIP failure:?) (?:\d{1,4} )?'out of memory'|Failed to CUDA [cm]alloc|"
                   r"cuda runtime error \(2\) : out of memory|"  # torch <= 1.x (THC)
                   r"cudaErrorMemoryAllocation|CUDA_ERROR_OUT_OF_MEMORY|"  # the enum's name
                   # a C++ runtime's check of a CUDA allocation call, the call spelled out (TensorRT-LLM's "CUDA runtime
                   # error in ::cudaMallocAsync(ptr, n, stream): out of memory"): the allocation on a GPU failed
                   r"\bcuda(?:Malloc|MemAlloc)\w{0,20}\([^\n]{0,160}?\)\s?: out of memory|"
                   # the same on another accelerator (lead rule AN (2)): torch's XPU / ROCm allocators ("XPU out of
                   # memory. Tried to allocate ...", "HIP out of memory"), torch_npu's ("NPU out of memory. Tried to
                   # allocate 30.00 MiB (NPU 3; 60.96 GiB total capacity; ...)"), Unified Runtime's and Level Zero's
                   # device memory codes (UR 39 UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY,
                   # ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY)
                   r"\b(?:XPU|HIP|NPU) out of memory|\b(?:UR|ZE)_RESULT_ERROR_OUT_OF_DEVICE_MEMORY\b|"
                   # Ascend's runtime refusing a device allocation: CANN's EL0004 "Failed to allocate memory." and the
                   # driver's reason under it ("rtFftsPlusTaskLaunch execute failed, reason=[driver error:out of
                   # memory]"): the NPU's memory ran out (lead rule AN (2)); the rank is the error header's above
                   r"\bEL0004: [^\n]{0,60}?Failed to allocate memory\b|\breason=\[driver error: ?out of memory\]|"
                   # HIP's runtime aborting a process's GPU queue (rocdevice.cpp's callback) because the HSA runtime
                   # could not allocate what the queue needed, with the device memory left ("Callback: Queue 0x7ee2..
                   # Aborting with error : HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the
                   # necessary resources. ... Code: 0x1008 Available Free mem : 234 MB"): a failed allocation and the
                   # free device memory named, gpu_oom (lead rule AN (2)); its other statuses (a hardware exception,
                   # a memory fault) are R_HSA_QUEUE_ABORT's CUDA-like errors, and OUT_OF_RESOURCES without the free
                   # memory stays with them
                   r"\bQueue [\w.]{1,20} [Aa]borting with error ?: ?HSA_STATUS_ERROR_OUT_OF_RESOURCES\b[^\n]{0,400}?"
                   r"\bAvailable Free mem ?: ?\d{1,9} ?[KMG]B\b|"
                   # a CUDA library's own status for an allocation of GPU memory it could not get (lead rule AN (2):
                   # a runtime error naming a failed allocation; round 86's dali-2866, nvJPEG's decoder inside DALI's
                   # pipeline): cuBLAS / cuSOLVER / cuSPARSE / cuDNN's *_STATUS_ALLOC_FAILED, cuFFT's
                   # CUFFT_ALLOC_FAILED, nvJPEG's NVJPEG_STATUS_ALLOCATOR_FAILURE (group "lib": which library). Their
                   # other statuses are not memory (NOT_INITIALIZED, EXECUTION_FAILED: cuda_error's)
                   r"\b(?P<lib>CUBLAS|CUSOLVER|CUSPARSE|CUDNN|NVJPEG|CUFFT)_(?:STATUS_)?ALLOC(?:ATOR)?_FAIL(?:ED|URE)\b")
# DeepSpeed's transformer kernel's cuBLAS GEMM wrapper (csrc/transformer/cublas_wrappers.cu) printing the status a
# cublasGemmEx / cublasGemmStridedBatchedEx returned: "!!!! kernel execution error. (m: 768, n: 4608, k: 3072,
# error: 13)" (batched: "(batch: 12, m: ..."), one line per failed GEMM, then its caller goes on or raises (round 97's
# deepspeed-454). The number is the cublasStatus_t (CUBLAS_STATUS_NAMES)
R_DS_CUBLAS_GEMM = re.compile(r"!!!! kernel execution error\. \((?:batch: \d{1,9}, )?m: \d{1,9}, n: \d{1,9}, "
                              r"k: \d{1,9}, error: (?P<code>\d{1,3})\)")
CUBLAS_STATUS_NAMES = {1: "CUBLAS_STATUS_NOT_INITIALIZED", 3: "CUBLAS_STATUS_ALLOC_FAILED",
                       7: "CUBLAS_STATUS_INVALID_VALUE", 8: "CUBLAS_STATUS_ARCH_MISMATCH",
                       11: "CUBLAS_STATUS_MAPPING_ERROR", 13: "CUBLAS_STATUS_EXECUTION_FAILED",
                       14: "CUBLAS_STATUS_INTERNAL_ERROR", 15: "CUBLAS_STATUS_NOT_SUPPORTED"}
# vLLM's engine sizing its KV cache after loading the weights: the executor's "# GPU blocks: 0, # CPU blocks: 1638"
# (the minimum over every worker of the tensor-parallel group: no GPU memory left for a single cache block, then
# "Maximum concurrency ... 0.00x") and the worker's check that raises on it in initialize_cache ("ValueError: No
# available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine."): the
# model as configured leaves no GPU memory for the KV cache on the group -- a shared setting every worker meets alike
# (lead rules J, AG), gpu_oom, no rank
R_KV_CACHE_NONE = re.compile(r"# GPU blocks: 0\b|\bNo available memory for the cache blocks\b")
# torch.cuda.memory_summary()'s table row "|  CUDA OOMs: 1  |  cudaMalloc retries: 1  |" (the caching allocator's
# num_ooms and num_alloc_retries, since the process started): a count of 1 or more says this process's allocations
# ran out of GPU memory -- frameworks print the table from their OOM handler (fairseq's) -- while 0 is what every
# healthy summary shows. The table names no rank and no GPU.
R_OOM_COUNT = re.compile(r"\bCUDA OOMs: {0,8}([1-9]\d{0,8}) {0,40}\|(?: {0,40}cudaMalloc retries: {0,8}(\d{1,9}))?")
# torchrun's (torch.distributed.run's) banner where OMP_NUM_THREADS is unset and it launches more than one worker
# ("Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system being
# overloaded, ..."): the launcher's notice of its own default, no failure (lead rules K, L)
R_OMP_BANNER = re.compile(r"\bSetting OMP_NUM_THREADS environment variable for each process to be \d{1,4} in default\b")
R_OOM_TRIED = re.compile(r"Tried to allocate ([\d.]+ [KMGT]?i?B)")
# the caching allocator's own warning of one allocation it could not serve ("[W826 11:09:24.887 CUDACachingAllocator.cpp
# :3933] memory allocation failed with OOM on device 1 while trying to allocate 419430400 bytes"): logged before it
# returns the failure to its caller, which may catch it (readers.crash._oom: benign unless an OOM error follows)
R_ALLOC_OOM_WARN = re.compile(r"\[W\d{3,4} [\d:.]{8,20} CUDACachingAllocator\.cpp:\d{1,6}\] memory allocation failed "
                              r"with OOM on device \d{1,3}")
# torch >= 2.1's OOM text (CUDACachingAllocator.cpp): "GPU 0 has a total capacity of 23.65 GiB of which 93.81 MiB is
# free. Process 62201 has 398.00 MiB memory in use. [...] Including non-PyTorch memory, this process has X memory in
# use. Of the allocated memory 21.51 GiB is allocated by PyTorch, ..." (2.1 spelled it "capacty"; "Including ..."
# only when the driver tells which listed process is the raiser)
R_OOM_GPU = re.compile(r"\bGPU (\d{1,3}) has a total capac")
# the device index an OOM text names, in either wording (torch < 2.1 and torch_npu: "(GPU N; T total capacity; ...",
# its figures cut or not; torch >= 2.1: "GPU N has a total capacity of ..."): the failing process's own GPU (rule BX)
R_OOM_DEV_INDEX = re.compile(r"\((?:GPU|NPU) (\d{1,3}); [\d.]{1,12} [KMGT]?i?B total capacity\b|"
                             r"\b(?:GPU|NPU) (\d{1,3}) has a total capac")
# vLLM's multiprocessing executor's worker prefix ("(VllmWorkerProcess pid=2421) ERROR ..."): its workers run on the
# driver's node, tensor-parallel rank N (N >= 1; the driver is rank 0) on cuda:N of the node's visible GPUs
R_VLLM_MP_WORKER = re.compile(r"\(VllmWorkerProcess pid=\d{1,10}\) ")
# vLLM's custom all-reduce P2P check on the driver (custom_all_reduce_utils.gpu_p2p_access_check: "generating GPU P2P
# access cache in /root/.config/vllm/gpu_p2p_access_cache_for_0,1.json"): it launches processes that test CUDA IPC
# between every GPU pair, while the workers wait for its answer in their first collective
R_VLLM_P2P_CACHE = re.compile(r"\bgenerating GPU P2P access cache in \S")
# A serving engine's call that a client outside the engine made on its workers: vLLM's engine core running a client's
# utility request ("Invocation of collective_rpc method failed", core.py's _handle_client_request), and the weight-sync
# methods an RL trainer calls on a rollout server (TRL's vllm-serve: init_communicator / update_named_param; SGLang:
# init_weights_update_group / update_weights_from_distributed). A store or group the workers join inside such a call
# is one shared with that client: the trainer is its other member
R_ENGINE_CLIENT_RPC = re.compile(r"\bInvocation of collective_rpc method failed\b|\b(?:init_communicator|"
                                 r"update_named_param|init_weights_update_group|update_weights_from_distributed)\b")
# vLLM's logger header ("INFO 07-10 03:56:16 custom_all_reduce_utils.py:202] ..."): a line of vLLM's own log
R_VLLM_LOG_HEAD = re.compile(r"\b(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) \d\d-\d\d \d\d:\d\d:\d\d [\w.]{1,80}:\d{1,6}\] ")
# a line of a vLLM multiprocessing worker: its prefix, or its executor's own record of the worker's exception
# (multiproc_worker_utils: "Exception in worker VllmWorkerProcess while processing method init_device: ...")
R_VLLM_WORKER_LINE = re.compile(r"\(VllmWorkerProcess pid=\d{1,10}\) |Exception in worker VllmWorkerProcess while "
                                r"processing method")
# torch < 2.1's OOM text, its every figure with the GPU's index: "(GPU N; T total capacity; A already allocated; F
# free; [L allowed; ]R reserved in total by PyTorch)" -- read where the line was cut after its reserved figure (before
# " by PyTorch)") too, and in its oldest spelling "R cached" (torch <= 1.3): what the failing process's own caching
# allocator holds on GPU N and what is still free; the rest of the GPU is held by other processes (or by this one's CUDA
# context and non-PyTorch allocations) (lead rule BX (1): verdict.memory._old_owner, _held_elsewhere, _old_figures_fix)
# a frame file of DataParallel's own machinery (torch.nn.DataParallel: one process driving every GPU, a replica a thread
# on each; DDP's nn/parallel/distributed.py is not one): the GPU index of an OOM in it is a replica's, not a process's
R_DP_FRAME = re.compile(r"torch[/\\]nn[/\\]parallel[/\\](?:data_parallel|parallel_apply|replicate|scatter_gather)\.py")
# torch's ExceptionWrapper text for an exception DataParallel's replica thread raised, re-raised in the one process
R_DP_REPLICA = re.compile(r"\bCaught \w{1,80} in replica \d{1,3} on device \d{1,3}\b")
# a traceback frame of a training step: its function a backward pass's (torch's backward / run_backward) or a step's
# (an optimizer's step, a trainer's training_step / train_step / optimizer_step), or its code line calling one
# ("loss.backward()", "optimizer.step()"): the job had started training when that traceback's error came
R_STEP_FRAME = re.compile(r"^(?:_engine_run_backward|run_backward|backward|step|training_step|train_step|"
                          r"optimizer_step|_?train_one_step|train_batch)$")
# a bare "step" frame is a training step only in an optimizer's or a trainer's file (torch/optim/, an optimizer or
# trainer module, a training framework's engine): a diffusion scheduler's, a gym env's or an LR scheduler's step is no
# training step (the backward frames and "optimizer.step(" code lines mark the others)
R_STEP_FILE = re.compile(r"(?i)[/\\]optim[/\\]|optimi[sz]er|trainer|[/\\](?:deepspeed|lightning|pytorch_lightning|"
                         r"accelerate|apex|colossalai|megatron)[/\\]|grad_scaler|[/\\]amp[/\\]")
R_STEP_CODE = re.compile(r"\.backward\(|\b(?:optimizer|optim|opt|scaler)\.step\(")
# torch_npu keeps the same text for an Ascend NPU (lead rule AN (2): an accelerator's OOM read like CUDA's), its device
# named "NPU N" and one more figure, what is "current active", between the allocated and the free: "(NPU 2; 60.97 GiB
# total capacity; 59.57 GiB already allocated; 59.57 GiB current active; 16.54 MiB free; 60.06 GiB reserved in total
# by PyTorch)" -- the same process's own allocator figures on device N of its node
R_OOM_OLD_FIGS = re.compile(r"\((GPU|NPU) (\d{1,3}); ([\d.]{1,12} [KMGT]?i?B) total capacity; "
                            r"([\d.]{1,12} (?:[KMGT]?i?B|bytes)) already allocated; "
                            r"(?:[\d.]{1,12} (?:[KMGT]?i?B|bytes) current active; )?"
                            r"([\d.]{1,12} (?:[KMGT]?i?B|bytes)) free; (?:[\d.]{1,12} [KMGT]?i?B allowed; )?"
                            r"([\d.]{1,12} (?:[KMGT]?i?B|bytes)) (?:reserved in total|cached)\b")
# TGI's launcher relays a shard's error output, then closes the record with the shard's tracing span field on a line
# of its own (" rank=0", then "Shard 0 failed to start"): the lines above it are that shard's process, rank N
R_FIELD_RANK = re.compile(r"\s{0,8}rank=(\d{1,7})\s{0,8}$")
R_OOM_PROC = re.compile(r"\bProcess (\d{1,10}) has ([\d.]{1,12} [KMGT]?i?B) memory in use")
R_OOM_THIS = re.compile(r"this process has ([\d.]{1,12} [KMGT]?i?B) memory in use")
R_OOM_ALLOC = re.compile(r"Of the allocated memory ([\d.]{1,12} [KMGT]?i?B) is allocated by PyTorch")
# ... the rest of what the failing process's own allocator holds ("and 3.02 GiB is reserved by PyTorch but
# unallocated"), and the GPU's capacity and what is free of it ("GPU 0 has a total capacity of 44.64 GiB of which
# 1.99 GiB is free"; 2.1's "capacty"): where the driver does not say which listed process is the raiser (no "this
# process has", a container's pid namespace), these figures can still tell it (crash._pid_holder)
R_OOM_UNALLOC = re.compile(r"\band ([\d.]{1,12} [KMGT]?i?B) is reserved by PyTorch but unallocated")
R_OOM_CAP = re.compile(r"\bhas a total capaci?ty of ([\d.]{1,12} [KMGT]?i?B) of which ([\d.]{1,12} [KMGT]?i?B) is "
                       r"free\b")
# (its brackets and the underscore may be lost in a paste read back by OCR: "failed exitcode: 1) local rank: 1 pid:
# 22094)"; the words and numbers in their order still say it). A rewording names the binary first and spells the pid
# out: "failed (exitcode: -9) for binary located at /env/bin/python3.10 with local_rank: 0 (process ID: 71)"
R_WORKER_FAILED = re.compile(r"failed \(?exitcode: ?(-?\d+)\)? (?:for binary located at \S{1,500} with )?"
                             r"local[_ ]rank: ?(\d+) \(?(?:pid|process ID): ?(\d+)\)?")
# torch 1.9-1.10's ErrorHandler warning when a worker left no error file (no @record): "CHILD PROCESS FAILED WITH NO
# ERROR_FILE" then "Child process 2814 (local_rank 0) FAILED (exitcode 1)" -- the agent's record of that worker's exit
R_CHILD_NO_ERROR_FILE = re.compile(r"Child process (\d{1,10}) \(local_rank (\d{1,5})\) FAILED \(exitcode (-?\d{1,5})\)")
# torchelastic's ErrorHandler copying the root cause's error file before the agent raises ChildFailedError ("no error
# file defined for parent, to copy child error file (/tmp/torchelastic_x/none_y/attempt_0/4/error.json)", "child error
# file (...) does not have field `message`" / "has a new message format"): the agent's record of its first failure,
# the worker that wrote it -- the folder under attempt_K is that worker's local rank (lead rule BT (1))
R_CHILD_ERROR_FILE = re.compile(r"child error file \([^()\n]{0,500}?/attempt_\d{1,5}/(\d{1,5})/error\.json\)")
# torchelastic's agent naming each worker it starts ("INFO:torch.distributed.elastic.multiprocessing:Setting worker0
# reply file to: /tmp/torchelastic_x/none_y/attempt_1/0/error.json"): the workers of this launch, one line each
R_REPLY_FILE = re.compile(r"\bSetting worker(\d{1,5}) reply file to\b")
# the same line with its "local_rank: N (pid: P) of binary" lost in the paste ("... local_rankroot/.../python")
R_WORKER_FAILED_CUT = re.compile(r"failed \(exitcode: (-?\d+)\) local_rank(?!:? ?\d)")
# ... cut right after its label, the rest on the next line ("local_rank: " / "0 (pid: 6252) of binary: ...")
R_WORKER_FAILED_CUT_AT_LABEL = re.compile(r"failed \(exitcode: -?\d{1,5}\) local_rank\s{0,2}:\s{0,8}$")
# the same line wrapped by a terminal or rich's console (accelerate): "local_rank: N (pid:" ends the line, the pid
# and "of binary" go to the next one; the local rank and the exit code are whole
R_WORKER_FAILED_WRAP = re.compile(r"failed \(exitcode: (-?\d+)\) local_rank: (\d+) \(pid:(?! *\d)")
# the agent stopping a worker after another failed, its pid (the paste may have cut "signal SIGTERM")
R_CLOSING_PID = re.compile(r"Sending process (\d{1,10}) (?:the )?closing\b")  # "the closing signal": a rewording
# the elastic agent's own record of a failed worker, as an exception or a log prints it (torch's ProcessFailure repr,
# "The worker fails with {0: ProcessFailure(local_rank=0, pid=54, exitcode=-7, ...)}"): the same fields, reordered
R_PROCESS_FAILURE = re.compile(r"ProcessFailure\(local_rank=(\d+), pid=(\d+), exitcode=(-?\d+)")
# torchrun's agent waiting in the exit barrier for the other nodes' agents after its own workers ended: a store
# timeout in it is the job's teardown (the other agents never came), not the cause of the failure
R_EXIT_BARRIER = re.compile(r"(?:Error|[Tt]imed out|[Ff]ailed) (?:while )?waiting on (?:the )?exit barrier|"
                            r"_exit_barrier")
# a launch command's master address that is a file path ("--master_addr=/root/cuda11.8.bashrc", MASTER_ADDR=/etc/...):
# what a runner read from a node over ssh was a shell rc file's output, not an address (lead rules V (1), AA (1))
R_MASTER_PATH = re.compile(r"(?:--master[_-]addr[= ]|\bMASTER_ADDR=)['\"]?"
                           r"((?:~|\.{0,2})/[\w.\-]{1,80}(?:/[\w.\-]{1,80}){0,8})")
# DeepSpeed's multi-node runner choosing the master address itself (no --master_addr given): "[runner.py:463:main]
# Using IP address of 172.17.0.1 for node 192.168.1.1", the first address `hostname -I` printed on the first node. On a
# host running Docker that can be the docker0 bridge (172.17.0.0/16 by default), which every host has as its own and no
# other node reaches; a loopback address the same (lead rules V (1), AA (1))
R_DS_MASTER_IP = re.compile(r"Using IP address of ([\d.]{7,15}) for node (\S{1,255})")
R_ELAPSED = re.compile(r"Elapsed: (\d{1,9}(?:\.\d{1,20})?) ?s")
R_CHILD_FAILED = re.compile(r"ChildFailedError")
# torchrun's ChildFailedError raised with its message (the failure record) not shown: the exception line alone, last
R_CHILD_FAILED_BARE = re.compile(r"^\s*(?:torch\.distributed\.elastic\.multiprocessing\.errors\.)?ChildFailedError:$")
# Other launchers' "a worker exited": DeepSpeed's launch.py ("[ERROR] [launch.py:321:sigkill_handler] ['python',
# '-u', 'train.py', '--local_rank=0'] exits with return code = -9"), torch.multiprocessing.spawn
# ("process 1 terminated with signal SIGKILL" / "with exit code 1"; its ProcessRaisedException "-- Process 3
# terminated with the following error:", the child's exception: exit code 1), subprocess under accelerate/Lightning
# ("returned non-zero exit status -9", "died with <Signals.SIGKILL: 9>"). On Windows an exit code can be a whole
# NTSTATUS ("process 0 terminated with exit code 3221225620", 0xC0000094): the codes are read whole.
# the spawn call of a traceback passing the world size as its process count ("nprocs=args.distributed_world_size,"):
# the job is that one host's children, so a child's index is its global rank (lead rule I)
# torch.multiprocessing.spawn's own teardown (spawn.py, torch >= 2.2): once one child has exited with an error, the
# parent SIGTERMs the children still running, "Terminating process 252 via signal SIGTERM", then raises the failed
# child's error -- the spawn ran several children on this one host, and the child its error names failed first
R_SPAWN_TEARDOWN = re.compile(r"\bTerminating process \d{1,10} via signal SIG(?:TERM|KILL)\b")
# words of an exception that is the distributed job's own machinery, not the program's code: a spawn child's error
# in them is one every child can meet alike (set-up, the backend, the store), naming no child (lead rule Q)
R_DIST_WORDS = re.compile(r"NCCL|nccl|[Gg]loo|c10d|ProcessGroup|[Dd]istributed|\bDist\w{0,20}Error|TCPStore|"
                          r"[Rr]endezvous|init_process_group|MASTER_|CUDA|cuda|[Dd]evice")
R_SPAWN_WORLD = re.compile(r"\bnprocs=[\w.]{0,60}world_size\b")
# torch.multiprocessing.spawn called with a literal number of children ("mp.spawn(fn, nprocs=2, ...)"): started from
# the job's own script with no torchrun agent, those children are the world on its one machine (lead rule AT (2))
R_SPAWN_NPROCS = re.compile(r"\bspawn\(.{0,200}?\bnprocs=(\d{1,4})\b")
# accelerate's simple_launcher (accelerate/commands/launch.py), the path `accelerate launch` takes when it runs no
# distributed launcher (no --multi_gpu, DeepSpeed, FSDP, TPU): ONE subprocess.Popen of the script, whose failure it
# raises as subprocess.CalledProcessError ("... died with <Signals.SIGKILL: 9>"). Its frame (or the call of it in
# launch_command) in the traceback above that error says the command was the job's only process: rank 0 of a world of
# one, where no other rank and no second node is shown (lead rules A, I, AG)
R_ONE_PROCESS_FRAME = re.compile(r"\bin simple_launcher$|^\s*simple_launcher\(args\)\s*$")
# a launcher's own raise of its child's exit, the source line a traceback prints above the error: accelerate's
# simple_launcher and torch 1.x's torch.distributed.launch wait on the script's process and then raise
# "subprocess.CalledProcessError(returncode=process.returncode, cmd=cmd)" (not subprocess.run(check=True)'s own raise)
R_LAUNCHER_RAISE = re.compile(r"^\s*raise subprocess\.CalledProcessError\(returncode=process\.returncode, cmd=cmd\)")
# that error's command when it is the Python interpreter running a script itself -- no launcher module (-m
# torch.distributed.run, deepspeed.launcher), no --local_rank a per-GPU launcher adds, no "-u" torch.distributed.launch
# always adds (its --use_env form has no --local_rank): accelerate's simple_launcher's one process, rank 0 (rule AG)
R_ONE_PROCESS_CMD = re.compile(r"\bCommand '\[?'?(?:[^'\s,]*/)?python[\d.]*'?,? "
                               r"'?(?P<script>[^'\s,-][^'\s,]*\.py)'?[ ,\]']")
# ... and that script's file name when it is a training entry (train.py, train_network.py, finetune.py, pretrain_gpt.py,
# run_sft.py): where no launcher's raise or frame stands above the error, only such a command is the job's one process
# (round 94's gpt4all-256). A package build (pip running setup.py) or a helper step of a pipeline (preprocess.py,
# convert.py) is no rank of a training job (lead rules A, AG, T)
# The keyword is a whole word of the name (split at _ . -): "pretrained", "untrained", "constrain" are no entry.
R_TRAIN_ENTRY_SCRIPT = re.compile(r"(?:^|[/\\])(?:[\w.-]{0,60}[_.-])?(?:train(?:ing|er)?|finetun\w{0,12}|"
                                  r"fine_tun\w{0,12}|pretrain(?:ing)?|sft)(?:[_.-][\w.-]{0,60})?\.py$", re.I)
# SGLang's launcher (entrypoints/engine.py _launch_subprocesses) waits on each scheduler's pipe in turn; one that
# closes before the scheduler reported ready: "Rank 0 scheduler is dead. Please check if there are relevant logs.",
# then, once it joined that process, "Exit code: -9" (its multiprocessing exitcode, -N: killed by signal N). N is the
# scheduler's index among this node's (its TP rank on one node): a launcher's record of that process
R_SGL_SCHEDULER_DEAD = re.compile(r"\bRank (\d{1,6}) scheduler is dead\b")
R_SGL_EXIT_CODE = re.compile(r"\bExit code: (-?\d{1,4})\s*$")  # behind SGLang's own "[12-16 14:27:10] " stamp
# A launcher's record of the worker command it ran, a list in its repr, and its non-zero status (subprocess's
# CalledProcessError, torch.distributed.launch's, with or without its "CalledProcessError: " head): the arguments it
# passed every worker (opts_malformed reads them)
R_CMD_LIST_STATUS = re.compile(r"Command '\[(?P<args>'[^\]\n]{1,4000}')\]' returned non-zero exit status -?\d{1,10}\b")
# a yacs / detectron-style config key given on the command line: a top-level key (OUTPUT_DIR, SEED, VIS_PERIOD, as
# maskrcnn-benchmark's and detectron2's own README commands pass it) or a dotted one
# (MODEL.RPN.FPN_POST_NMS_TOP_N_TRAIN, SOLVER.BASE_LR); R_OPTS_FIRST, the dotted form only, is the first override
# after the script's flags (review 100 finding 1)
R_OPTS_KEY = re.compile(r"^[A-Z][A-Z0-9_]{0,60}(?:\.[A-Z0-9_]{1,60}){0,8}$")
R_OPTS_FIRST = re.compile(r"^[A-Z][A-Z0-9_]{0,60}(?:\.[A-Z0-9_]{1,60}){1,8}$")


def _cmd_words(args: str) -> list[str] | None:
    """The arguments of a command list as its repr shows them ("'a', 'b', \"('x', 'y')\"": a value holding a quote
    is repr'd in double quotes, one argument -- review 100 finding 2), or None where they are no list of strings (a
    paste that cut or altered it)."""
    try:
        words = ast.literal_eval("[" + args + "]")
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    return words if all(isinstance(w, str) for w in words) else None


def opts_malformed(args: str) -> list[str] | None:
    """The trailing config overrides of a script's command (yacs' cfg.merge_from_list(args.opts), which
    maskrcnn-benchmark's, detectron2's and their kin's train_net.py pass everything after their flags to) where they
    are not KEY VALUE pairs: from the first argument after the script (its first *.py) that is a dotted config key
    (R_OPTS_FIRST), an odd count, or a word in a key's place that is no key, top-level or dotted (R_OPTS_KEY:
    'images_per_gpu x 1000' pasted as a value) -- every worker is launched with that list and its merge raises the
    same way (lead rules U (2), Q). Those trailing arguments, or None where they form KEY VALUE pairs, no such list
    is shown or the list is no list of strings."""
    words = _cmd_words(args)
    if words is None:
        return None
    script = next((i for i, w in enumerate(words) if w.endswith(".py")), None)
    if script is None:
        return None
    start = next((i for i in range(script + 1, len(words)) if R_OPTS_FIRST.match(words[i])
                  and not (words[i - 1].startswith("-") and "=" not in words[i - 1])), None)  # no flag's value
    if start is None:
        return None
    opts = words[start:]
    if len(opts) % 2 == 0 and all(R_OPTS_KEY.match(k) for k in opts[::2]):
        return None
    return opts


# A launcher's CalledProcessError for the worker command it ran with the worker's own index in the job as an argument
# (TensorFlow's tensorflow.python.distribute.launch runs "python -u run.py --worker_index=0" under check_call, which
# raises only for a non-zero status): that record names the worker, its index the task's in the cluster, read even
# where the paste cut the line before its status (lead rules A, I, AC (4); readers.exits._launcher_exit)
R_CPE_WORKER = re.compile(r"CalledProcessError: Command '\[[^\]\n]{0,2000}?'--(?:worker|task)_index[= ](\d{1,6})'")
# torch 1.x torch.distributed.launch's CalledProcessError for the command of the LAST worker it started ([python, '-u',
# script, '--local_rank=N', ...]; lead rules M, U (5)) with the paste cut inside the command, before its status: a
# '--local_rank=0' there means the node ran one worker, the one that failed (CalledProcessError is raised only for a
# non-zero status): readers.exits._launcher_exit reads it as local rank 0's record, its exit code cut (round 77's
# simcse-151, as mspn-31 reads the whole line)
R_CPE_LAUNCH_CUT = re.compile(r"CalledProcessError: Command '\['[^'\n]{0,500}python[\d.]*', '-u', '[^'\n]{1,500}', "
                              r"'--local_rank=0'(?:, '[^'\n]{0,500}')*,?\s*$")
# torch.multiprocessing.spawn's ProcessExitedException cut right after "process N terminated with" (round 78's
# icefall-1390): that exception is raised only for a child that exited with a code or a signal -- a Python exception
# in the child is ProcessRaisedException ("-- Process N terminated with the following error:") -- so the record
# names child N dying on its own, its code or signal cut (lead rules A, AL (2); readers.exits._launcher_exit)
# NCCL's transport set-up files and calls a "Cuda failure" may name (p2p.cc, IPC handles, NVLS, CUMEM): a CUDA call
# failing there is the platform's peer-to-peer path (lead rule V (2)), not one device's own failure (rule AM (3))
R_NCCL_TRANSPORT_FILE = re.compile(r"\b(?:p2p|nvls|shm|net|coll_net)\.cc\b|\bcuIpc|\bcudaIpc|\bcuMem\w{0,20}\b|P2P/IPC")
R_SPAWN_EXIT_CUT = re.compile(r"ProcessExitedException: process (\d{1,6}) terminated with\s*$")
# A CalledProcessError whose Command is itself a launcher -- torchrun, deepspeed, accelerate launch, python -m
# torch.distributed.run / launch -- raised by an outer launcher (accelerate's multi_gpu_launcher running torchrun): the
# inner launcher exited non-zero, which its own record says with the worker; the outer one names no worker (lead rule
# M; round 79's fast-stable-diffusion-122). Searched in the line, or matched at the start of the exception's
# message; accelerate with its launch after it, or alone where the Command was joined with newlines and the line ends
# there (round 81's omini-kontext-22).
R_CPE_LAUNCHER = re.compile(r"(?:^|CalledProcessError: )Command '\[?'?(?:[^'\s,]{0,200}/)?(?:torchrun|deepspeed|"
                            r"accelerate(?=[\s',]{1,3}launch\b|\s*$))\b|"
                            r"(?:^|CalledProcessError: )Command '[^\n]{0,200}?-m'?,? '?torch\.distributed\."
                            r"(?:run|launch)\b")
R_LAUNCHER_EXIT = re.compile(r"exits with return code = (?P<ds>-?\d{1,4})|"
                             r"[Pp]rocess (?P<idx>\d{1,6}) terminated with (?:exit code (?P<mp>-?\d{1,10})|"
                             r"signal (?P<mpsig>SIG[A-Z]{2,6})|(?P<mpexc>the following error))|"
                             r"returned non-zero exit status (?P<sp>-?\d{1,10})|died with <Signals\.SIG[A-Z]{2,6}: "
                             r"(?P<spsig>\d{1,2})>|"
                             # vLLM's multiproc_worker_utils: "Worker VllmWorkerProcess pid 198 died, exit code: -6"
                             r"Worker \w{1,64} pid \d{1,10} died, exit code: (?P<vw>-?\d{1,4})|"
                             # SGLang's SIGCHLD handler: "Child process unexpectedly failed with an exit code 11.
                             # pid=293198" (later "with exitcode=11"), the raw os.waitpid status: its low 7 bits the
                             # signal that killed it (11: SIGSEGV), else its exit code in the high byte
                             r"Child process unexpectedly failed with (?:an exit code |exitcode=)(?P<ws>\d{1,5})\b|"
                             # PyTorch's MultiProcessTestCase checking each spawned test process's exit ("Expected zero
                             # exit code but got -11 for pid: 2718941"): its multiprocessing exitcode, by pid, no rank
                             r"Expected zero exit code but got (?P<th>-?\d{1,4}) for pid\b|"
                             # Lightning's _ChildProcessObserver (launchers/subprocess_script.py), in the main process:
                             # "[rank: 1] Child process with PID 224779 terminated with code 1. Forcefully terminating
                             # all other processes to avoid zombies" -- rank=(i + 1) of the i-th child it started, the
                             # main process being local rank 0: the child's local rank, its returncode (round 78's
                             # torchmd-net-324, as streaming-781 reads the line)
                             r"\[rank: (?P<pl>\d{1,6})\] Child process with PID \d{1,10} terminated with code "
                             r"(?P<pc>-?\d{1,4})\b")
# Launchers whose record names a GLOBAL rank (lead rule I): composer's launcher ("Rank 3 crashed with exit code
# -9.", "Global rank 3 (PID 4103) exited with code -9", and its clean-up "Killing global rank 0 (PID 4100) with
# SIGTERM"), Open MPI's mpirun ("mpirun noticed that process rank 5 with PID 0 on node gpu-12 exited on signal 9
# (Killed).", its PID and node as printed or masked by the reporter: "PID xxxxxx on node xxxxxxxx"; its
# non-zero-status block "Process name: [[27721,1],3]" then "Exit code:    1").
R_GLOBAL_EXIT = re.compile(r"\bRank (?P<cr>\d{1,7}) crashed with exit code (?P<cc>-?\d{1,4})|"
                           r"\bGlobal rank (?P<gr>\d{1,7}) \(PID \d{1,10}\) exited with code (?P<gc>-?\d{1,4})|"
                           r"\bKilling global rank (?P<kr>\d{1,7}) \(PID \d{1,10}\) with (?P<ks>SIGTERM|SIGKILL)|"
                           r"mpirun noticed that process rank (?P<mr>\d{1,7}) with PID \S{1,16} on node "
                           r"(?P<mh>\S{1,255}) exited on signal (?P<ms>\d{1,2})|"
                           # vLLM's executors: the first worker whose process they saw end (multiproc_executor's
                           # "Worker proc VllmWorker-1 died unexpectedly, shutting down executor.", the Ray one's
                           # "RayWorkerProc rank=[3] died unexpectedly"), its exit code not printed
                           r"\bWorker proc VllmWorker-(?P<vr>\d{1,7}) died unexpectedly|"
                           r"\bRayWorkerProc rank=\[(?P<rr>\d{1,7})\] died unexpectedly|"
                           # horovodrun's gloo launcher (runner/gloo_run.py: "Process {slot_info.rank} exit with status
                           # code {exit_code}."): the global rank, its status as the worker's shell returns it (137 =
                           # 128 + 9: killed by SIGKILL)
                           r"\bProcess (?P<hr>\d{1,7}) exit with status code (?P<hc>-?\d{1,4})\b|"
                           # Hugging Face TGI's text_generation_launcher and LoRAX's lorax_launcher (its fork): the
                           # shard manager's "Shard process was signaled to shutdown with signal 7 rank=1", its span's
                           # rank=N the shard's index of --num-shard: that process's torch.distributed rank (one node)
                           r"\bShard process was signaled to shutdown with signal (?P<ts>\d{1,2})\b[^\n]{0,80}?"
                           r"\brank=(?P<tr>\d{1,7})\b")
# HPE Cray PALS's mpiexec (Polaris, Aurora): "x3200c0s25b0n0.hsn...: rank 1 died from signal 6 and dumped core",
# "...: rank 3 exited with code 1" -- the host, the MPI (global) rank, its signal or exit code
R_PALS_EXIT = re.compile(r"(?<![\w.\-])([\w.\-]{1,255}): rank (\d{1,7}) (?:died from signal (\d{1,2})\b|"
                         r"exited with code (\d{1,3})\b)")
# ... its same record pasted without the host ("rank 0 died from signal 11 and dumped core", "rank 4 died from signal
# 9"): the whole line is PALS' words, its rank the global rank; a rank "dying" in a sentence of prose is not read
R_PALS_EXIT_BARE = re.compile(r"^\s*rank (\d{1,7}) (?:died from signal (\d{1,2})(?: and dumped core)?|"
                              r"exited with code (\d{1,3}))\s*$")
# Google Cloud's managed training (Vertex AI custom jobs; AI Platform Training before it) recording how one replica of
# the job's worker pools ended: "The replica workerpool1-1 exited with a non-zero status of 1. Termination reason:
# Error.", AI Platform's "The replica master 0 exited with a non-zero status of 1.", "The replica master 0 ran
# out-of-memory and exited with a non-zero status of 9(SIGKILL)". A replica is a machine of a pool (workerpool0 the
# chief, workerpool1 the workers, workerpool2 the reduction servers), not a rank: the service's record of one
# process tree failing (lead rules A, I), which names no global rank (rule AI (2)'s per-node task)
R_CLOUD_REPLICA = re.compile(r"\b[Rr]eplica (?P<name>[A-Za-z][\w\-]{0,63}(?: \d{1,6})?) "
                             r"(?P<oom>ran out-of-memory and )?exited with a non-zero status of (?P<code>\d{1,4})"
                             r"(?:\((?P<sig>SIG[A-Z]{2,6})\))?")
# a traceback's frames (inside a record's message with its newlines escaped, as Vertex AI's carries the replica's) in
# huggingface_hub's download of a file from the Hub (file_download.py's hf_hub_download / http_get, snapshot_download):
# the process was downloading a model or dataset file when it failed
R_HUB_DOWNLOAD_FRAME = re.compile(r"huggingface_hub[/\\]+(?:file_download|_snapshot_download)\.py\\?\"?, "
                                  r"line \d{1,6}, in (hf_hub_download|http_get|snapshot_download|"
                                  r"_download_to_tmp_and_move|get_hf_file_metadata)\b")
# srun's own record of its tasks' ends ("srun: error: node-3: task 5: Exited with exit code 1", "srun: error: node-3:
# tasks 9-10,12-15: Killed"): the node, the task ids (SLURM_PROCID), and how they ended; and the step's teardown that
# srun or slurmstepd starts ("srun: launch/slurm: _step_signal: Terminating StepId=43.0", "*** STEP 43.0 ON node-3
# CANCELLED AT ...", "srun: Force Terminated StepId=43.0", "srun: Job step aborted")
R_SRUN_TASKS = re.compile(r"\bsrun: error: (?P<host>[\w.\-]{1,255}): tasks? (?P<tasks>\d{1,7}(?:-\d{1,7})?"
                          r"(?:,\d{1,7}(?:-\d{1,7})?){0,255}): (?:Exited with exit code (?P<code>\d{1,3})|"
                          r"(?P<sig>Killed|Terminated|Aborted|Segmentation fault|Bus error))")
R_SRUN_TEARDOWN = re.compile(r"Terminating (?:StepId=|job step )|\*\*\* (?:STEP|JOB) \S{1,40} ON \S{1,255} "
                             r"CANCELLED AT|srun: Force Terminated|srun: Job step aborted")
# PaddlePaddle's launchers. launch_utils' watch of its trainers ("ABORT!!! Out of all 4 trainers, the trainer process
# with rank=[1, 2, 3] was aborted. Please check its log."): the trainers whose process exited nonzero, by their
# trainer (global) rank, out of the job's N, before it terminates the rest -- those listed failed on their own, the
# others were only torn down. paddle.distributed.launch's record of a failed container ("Container rank 0 status
# failed cmd [...] code 1 log log/workerlog.0"): the worker's index on its node (a local rank), its exit code and the
# file its own output went to (group 3).
R_PADDLE_ABORT = re.compile(r"Out of all (\d{1,7}) trainers, the trainer process with "
                            r"rank=\[(\d{1,7}(?:, ?\d{1,7}){0,255})\] was aborted")
R_PADDLE_CONTAINER = re.compile(r"\bContainer rank (\d{1,5}) status failed\b.{0,2000}? code (-?\d{1,4}) log "
                                r"([\w./\-]{1,300})?")
# vLLM's data-parallel engines each run their own workers (VllmWorker-0 of each): the index is not the job's rank
R_VLLM_DP = re.compile(r"EngineCore_DP[1-9]|\bDP[1-9]\d{0,3}\b")
# Open MPI's help text (help-mpi-btl-tcp.txt / pml ob1) when a peer's connection drops: "An MPI communication peer
# process has unexpectedly disconnected.  This usually indicates a failure in the peer process (e.g., a crash or
# otherwise exiting without calling MPI_FINALIZE first)." and, a few lines on, "  Local host: h1", "  Peer host:  h2"
R_MPI_PEER_GONE = re.compile(r"MPI communication peer process has unexpectedly disconnected")
# Ascend HCCL's heartbeat detection, in the task information of a collective's timeout (EI0002 / EI0006): "there are
# (is) 1 abnormal device(s): Cluster Exception Location[IP/ID]:[90.90.92.240/1], Arrival Time:[...], Discoverer:
# [90.90.92.240/0], ExceptionType:[Heartbeat Lost Occurred], Possible Reason:1. Process has exited, 2. Network
# Disconnected" -- the peer device whose heartbeat stopped is the one that left the job while the discoverer waited in
# the collective (lead rule O's shape); it is named by host and device, not rank. Only the heartbeat's loss says a peer
# is gone: HCCL's other exception types (a stuck task, an error CQE) are a peer's state, not its departure
R_HCCL_HB_LOST = re.compile(r"Cluster Exception Location\[IP/ID\]:\[(?P<loc>[^\]\s]{1,80})\].{0,200}?"
                            r"Discoverer:\[(?P<disc>[^\]\s]{1,80})\].{0,80}?ExceptionType:\[Heartbeat Lost Occurred\]")
# Horovod's own abort of a collective on the ranks still running (horovod/common/operations.cc, SHUT_DOWN_ERROR):
# "Horovod has been shut down. This was caused by an exception on one of the ranks or an attempt to allreduce,
# allgather or broadcast a tensor after one of the ranks finished execution." -- a peer left first (lead rule O's shape)
R_HVD_SHUT_DOWN = re.compile(r"\bHorovod has been shut down\b")
# A traceback frame of Horovod's start-up broadcast, the job's first collective (horovod/torch/__init__.py "in
# broadcast_parameters", broadcast_optimizer_state; horovod/tensorflow's broadcast_variables /
# broadcast_global_variables): a shutdown raised under it came before any rank could finish its loop, so it is a
# first failure not shown, not a rank finishing early (lead rule BY (2); round 95's pai-2730). A user's own
# hvd.broadcast / broadcast_async_ / broadcast_object (any time in a run) is not it.
R_HVD_BCAST_FRAME = re.compile(r'horovod[/\\](?:torch|tensorflow|keras|_keras|mxnet)[/\\][\w/\\]{0,80}\.py", '
                               r"line \d{1,7}, in (broadcast_(?:parameters|optimizer_state|variables|"
                               r"global_variables))\s*$")
R_MPI_PEER_HOST = re.compile(r"^\s*Peer host:\s+(\S{1,255})\s*$")
# The hydra launcher's (MPICH's / Intel MPI's mpiexec) "BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES" block:
# "=   RANK 1 PID 1676751 RUNNING AT test-server", then "=   KILLED BY SIGNAL: 6 (Aborted)" or "=   EXIT CODE: 139"
# (a wait status: above 128 the shell's word for a signal). RANK is the MPI rank, the job's global rank (lead rule I);
# MPICH's form without it ("PID 123 RUNNING AT host") names no rank and is left to its EXIT STRING line.
R_HYDRA_PROC = re.compile(r"(?:^|[=\s])RANK (\d{1,7}) PID \d{1,10} RUNNING AT (\S{1,255})")
R_HYDRA_END = re.compile(r"(?:^|[=\s])(?:KILLED BY SIGNAL: (\d{1,2})\b|EXIT CODE: (\d{1,4})\b)")
# horovodrun's gloo launchers raise the same block (runner/gloo_run.py: "Horovod detected that one or more processes
# exited with non-zero status, thus causing the job to be terminated. The first process to do so was:\nProcess name:
# {name}\nExit code: {code}"): the static launcher's name is the slot's index, its rank ("Process name: 1"); the
# elastic one's is "{hostname}[{local_rank}]", a host and its local index, no global rank (R_HVD_PROC)
# Open MPI's record of a process calling MPI_Abort ("MPI_ABORT was invoked on rank 2 in communicator MPI COMMUNICATOR 5
# DUP FROM 0\nwith errorcode 1."): that world rank ended the job on its own with that code, and Open MPI then kills
# every other process (lead rule A's launcher record); its code often on the next line
R_MPI_ABORT = re.compile(r"\bMPI_ABORT was invoked on rank (\d{1,7}) in communicator [^\n]{0,80}?(?:with errorcode "
                         r"(-?\d{1,6}))?\s*$")
R_MPI_ABORT_CODE = re.compile(r"^\s*with errorcode (-?\d{1,6})\b")
R_MPI_BLOCK = re.compile(r"(?:mpirun|Horovod) detected that one or more processes exited with non-zero status")
R_MPI_PROC = re.compile(r"^\s*Process name:\s*\[\[\d{1,10},\d{1,10}\],(\d{1,7})\]")
R_HVD_PROC = re.compile(r"^\s*Process name:\s*(?:(\d{1,7})|([\w.\-]{1,255})\[(\d{1,5})\])\s*$")
R_MPI_CODE = re.compile(r"^\s*Exit code:\s*(-?\d{1,4})\s*$")
R_DS_LOCAL_RANK = re.compile(r"--local_rank=(\d{1,5})")
# Ray's memory monitor kills a worker when the NODE runs low on (host) memory: not a CUDA OOM.
# The raylet's periodic report (node_manager.cc): "1 Workers (tasks / actors) killed due to memory pressure (OOM)".
# (Ray's SYSTEM_ERROR exit lists the OOM killer only among "potential root causes": R_RAY_DIED, not an OOM.)
# Both end on the same advice, which Ray prints only with such a kill ("Refer to the documentation on how to address the
# out of memory issue: https://docs.ray.io/en/latest/ray-core/scheduling/ray-oom-prevention.html. Consider provisioning
# more memory on this node ... set the environment variable `RAY_memory_usage_threshold` when starting Ray."): pasted
# alone (the kill's head cut off), it still says the memory monitor killed a worker.
R_RAY_OOM = re.compile(r"ray\.exceptions\.OutOfMemoryError|node running low on memory|killed due to memory pressure|"
                       r"Worker exit type: NODE_OUT_OF_MEMORY|"
                       r"address the out of memory issue: \S{0,80}ray-oom-prevention")
# The raylet's report of a worker process that died of something it could not see (core_worker: "A worker died or
# was killed while executing a task by an unexpected system error. ... Worker IP address: 10.0.0.5 ... Worker PID:
# 4156 Worker exit type: SYSTEM_ERROR ... potential root causes. (1) ... OOM killer ... (2) ray stop --force ...
# (3) ... SIGSEGV"): a first failure whose cause and rank the line does not give.
# An actor's death as ActorDiedError words it: "The actor is dead because its worker process has died. Worker exit
# type: SYSTEM_ERROR Worker exit detail: Worker unexpectedly exits with a connection error code 2. End of file." is
# the same report (the raylet lost the worker's socket), with the same list of potential root causes.
# Later Ray releases word the same death "Worker exit detail: Worker exits unexpectedly. Worker exits with an exit code
# None. The worker may have exceeded K8s pod memory limits." (round 76's agent-r1-33): no exit code and a hedged hint,
# not an OOM record (the memory monitor's kill is R_RAY_OOM): the same first failure, its cause not given.
R_RAY_DIED = re.compile(r"(?:A worker died or was killed while executing (?:a )?task by an unexpected system error|"
                        r"Worker unexpectedly exits with a connection error code|"
                        r"Worker exits unexpectedly\. Worker exits with an exit code \w{1,12})"
                        r"(?:[^\n]{0,600}?Worker IP address: (?P<ip>[\d.]{7,15}))?(?:[^\n]{0,200}?Worker PID: "
                        r"(?P<pid>\d{1,10}))?")
# Ray Train's backend executor checking its training workers (check_for_failure): an actor that died (RayActorError)
# is logged by its index in the worker group, which is the worker's world rank -- "(TorchTrainer pid=89392) Worker 0
# has failed." under the trainer actor's prefix (a bare "Worker N has failed." is any program's word, not read)
# (round 89's ray-47461).
R_RAY_TRAIN_FAILED = re.compile(r"\(\w{0,64}Trainer pid=\d{1,10}(?:, ip=[\d.]{7,15})?\) {1,4}Worker (\d{1,6}) "
                                r"has failed\.")
# Ray's GCS losing a whole node ("The node with node id: <id> and address: 10.0.0.7 and node name: ... has been marked
# dead because the detector has missed too many heartbeats from it. This can happen when a (1) raylet crashes
# unexpectedly (OOM, preempted node, etc.) (2) raylet has lagging heartbeats due to slow network or busy workload.",
# older "... with client ID <id> has been marked dead because the monitor has missed too many heartbeats"): every
# worker on that node is gone, for a reason the line lists but does not give, like R_RAY_DIED's.
R_RAY_NODE_DEAD = re.compile(r"The node with (?:node|client) (?:id|ID):? \S{1,80}(?: and (?:ip|address): "
                             r"(?P<ip>[^\s,]{1,80}))?[^\n]{0,200}? has been marked dead because the "
                             r"(?:detector|monitor) has missed too many heartbeats")
# An actor's death as ActorDiedError words it when its OWNER (the driver or worker that created it) is gone with its
# node: "The actor is dead because its owner has died. Owner Id: <id> Owner Ip address: 172.21.160.9 Owner worker exit
# type: SYSTEM_ERROR Worker exit detail: Owner's node has crashed." -- the GCS lost the owner's node, like
# R_RAY_NODE_DEAD: every Ray process there is gone, for a reason the line does not give (round 79's easyr1-324).
# An owner that exited on its own (another exit detail) is not this.
R_RAY_OWNER_NODE = re.compile(r"\bits owner has died\.(?:[^\n]{0,300}?Owner Ip address: (?P<ip>[\d.]{7,15}))?"
                              r"[^\n]{0,300}?Owner's node has crashed")
# The same loss as an actor's death words it for the actor itself: RayActorError / ActorDiedError's "The actor is dead
# because its node has died. Node Id: <id>" (older "The actor died because its node has died."): the GCS lost the node
# the actor ran on, every Ray process there with it, for a reason the line does not give (round 90's ray-43751). The
# drain for preemption adds "the actor's node was preempted: <reason>" (R_SCHED_STOP's ray: a stop from outside).
R_RAY_ACTOR_NODE = re.compile(r"\bThe actor (?:is dead|died) because its node has died\b")
R_CF_FIELD = re.compile(r"^\s*(time|host|rank|exitcode|error_file|traceback)\s*: ?(.*)$")
# The same record pasted as rendered Markdown (unfenced): the underscores went as emphasis ("local rank",
# "error file", "<NO OTHER FAILURES>") and the table's layout with them -- the field names on lines of their own
# ("time" / "host", then their values), and the rank, exit code and error file glued on one line: "rank2 (local
# rank: 2)exitcode: -9 (pid: 36071)error file: <N/A>"
R_CF_GLUED = re.compile(r"^\s*rank\s*:?\s*(-?\d{1,12}) \(local[_ ]rank: (-?\d{1,12})\)\s*exitcode\s*:?\s*"
                        r"(-?\d{1,12}) \(pid: (\d{1,12})\)\s*(?:error[_ ]file\s*:\s*(\S[^\n]{0,300}))?$")
R_CF_DATE = re.compile(r"\d{4}-\d\d-\d\d[ _T]\d\d:\d\d:\d\d")
R_CF_NAME = re.compile(r"^\s*(time|host|rank|exitcode|error[_ ]file|traceback)\s*:?\s*$")
R_CF_RANK = re.compile(r"(-?\d{1,12}) \(local_rank: (-?\d{1,12})\)")
R_CF_EXIT = re.compile(r"(-?\d{1,12}) \(pid: (\d{1,12})\)")
# the same field without a whole pid: the paste ends inside it ("exitcode  : 1 (pid: 445": round 79's
# open-animateanyone-108, its "Failures:" entry of a second worker cut there), or an abbreviated record gives the code
# alone or with its signal's name ("exitcode: -9", "exitcode  : -9 (SIGKILL)": round 79's cosmos-predict2.5-72)
R_CF_EXIT_CUT = re.compile(r"(-?\d{1,12})(?: \((?:pid: ?\d{0,12}|SIG[A-Z]{2,10}\)))?$")
R_SIGNAL = re.compile(r"\b(SIG[A-Z]+)\b")
R_NCCL_WARN = re.compile(r"NCCL WARN (.*)")
# AWS Neuron's collective library (CCOM) is derived from NCCL: its lines are NCCL's, from the same source files and in
# the same words, under its own name ("332066:332508 [31] bootstrap.cc:89 CCOM WARN Timeout waiting for incoming
# connection"); the parser reads them as NCCL's (parse.LineParser._parse)
R_CCOM_LEVEL = re.compile(r"(?<=\s)CCOM (?=WARN |INFO )")
# NCCL 2.0-2.3 printed "[host:pid:tid [dev] ]include/socket.h:194 WARN ..." (no word NCCL), then its
# return-code trail "host:pid:tid [dev] INFO bootstrap.cu:169 -> 2" on the next lines.
R_OLD_WARN = re.compile(r"(?<![\w/.\-])[\w/.\-]{1,64}\.(?:h|cu|cc):\d{1,6} WARN (.*)")
# aws-ofi-nccl before 1.0 logged without NCCL's prefix: "WARN: Function: find_ofi_provider Line: 543: NET/OFI ...".
R_OFI_OLD_WARN = re.compile(r"\bWARN: Function: \w{1,64} Line: \d{1,6}: (NET/OFI .*)")
# Lead rule Z: what shows that the EFA fabric was meant to carry the job: the plugin naming an EFA instance type as its
# platform ("NET/OFI Running on P4d platform", "Running on p5.48xlarge platform"), or FI_PROVIDER=efa set.
R_EFA_MEANT = re.compile(r"NET/OFI Running on (?:p3dn|p4de?|p5\w{0,2}|trn\w{1,2})\b[\w.-]{0,16} platform|"
                         r"\bFI_PROVIDER=[\"']?efa\b", re.I)
# aws-ofi-nccl not finding its device's NIC properties ("NET/OFI No NIC info for dev 0", then NCCL's "include/net.h:24
# -> 2"): the EFA device itself not usable by the plugin on that node (verdict.nccl._warn_family, lead rules J/Z)
R_OFI_NO_NIC = re.compile(r"NET/OFI No NIC info for dev(?:ice)? \d{1,3}")
# the same in a host name that carries its instance type ("ray-worker-p5", "p4d-node-3")
R_EFA_HOST = re.compile(r"(?<![A-Za-z0-9])(?:p3dn|p4de?|p5e?n?|trn1n?|trn2)(?![A-Za-z0-9])", re.I)
# the kernel's RDMA driver refusing to create a resource for lack of memory (lead rule J's second paragraph):
# "infiniband efa_0: Failed to allocate pd[-12]", "infiniband efa_0: Failed to process command ALLOC_PD (opcode 14)
# comp_status 1 err -12"
R_RDMA_REFUSED = re.compile(r"\binfiniband \w{1,32}: Failed to (?:allocate|create|register|process command)\b"
                            r".{0,80}?(?:\[|\berr )-(?:12|28)\b")
# Ascend HCCL's own words for the same at communicator set-up: "Allocation_Failure(EI0007): Failed to allocate
# resource[qp] with info [aicpu rank:15,...,send_cq_depth:32768]. Reason: Memory resources are exhausted." -- the
# queue pairs (or notifies, memory) of its links that the host cannot give; the "Create Dest error" of each link
# follows from it (readers.nccl._nccl_info, verdict.nccl._warn_family, lead rule J: nccl_system). Its EI0007 code or
# its reason in words is needed: "Failed to allocate resource" alone is any program's
R_HCCL_RES_EXHAUSTED = re.compile(r"Failed to allocate resource\[(?P<res>[\w ]{1,32})\]")
R_HCCL_RES_REASON = re.compile(r"\bEI0007\b|[Mm]emory resources are exhausted|resource insufficiency")
# Stacks beside NCCL that move the data themselves (lead rule O read for them: a send that times out on a connected
# path with every process alive is a transport stall). DeepEP's kernels: "DeepEP timeout check failed: rank = 7, thread
# = 0)", "DeepEP RDMA sender coordinator timeout, channel: 4, IB: 0, nvl 4, dst IB: 2, tail: 240, remaining: 70",
# "DeepEP dispatch NVL receiver timeout, ..."; UCX (NIXL, UCC): "tcp_ep.c:1260 UCX  ERROR tcp_ep 0x.. (state=CONNECTED):
# send(110) failed: Input/output error" (110 = ETIMEDOUT), "Unexpected UCX error: Endpoint timeout".
R_DEEPEP_TIMEOUT = re.compile(r"\bDeepEP\b[\w ,()=:]{0,60}?\btimeout\b")
# DeepEP's host side giving up (deep_ep.cpp): "DeepEP error: timeout (dispatch CPU)" (older "DeepEP error: CPU recv
# timeout") -- the CPU spun on the receive counters the notify kernel fills only once every peer has sent its token
# counts, past NUM_CPU_TIMEOUT_SECS: this rank was inside the dispatch waiting for its peers, a waiting rank's line
# like a watchdog's timeout (lead rules B, E), not a stalled data path seen from every kernel (the device-side
# timeouts above, lead rule O)
R_DEEPEP_CPU_WAIT = re.compile(r"\bDeepEP error: (?:timeout \((?:dispatch|combine) CPU\)|CPU recv timeout)")
# DeepEP's barrier_block (csrc/kernels utils.cuh, since July 2025) timing out: each of the waiting rank's threads
# prints its rank, the peer its thread watches and that peer's barrier slot, "DeepEP timeout check failed: rank = 6,
# thread = 5, value = 1024)": a rank adds FINISHED_SUM_TAG (1024) to its own slot for each peer and each peer
# subtracts it when it enters, so a slot still positive is a peer that never entered (state.Collected.barrier_slots,
# verdict.missing._barrier_owed). The older wording without "value" (lane 0 only) names no peer.
R_DEEPEP_SLOT = re.compile(r"\bDeepEP timeout check failed: rank = (\d{1,6}), thread = (\d{1,6}), value = (-?\d{1,12})")
# NCCL EP (NCCL's expert-parallel dispatch/combine kernels, nccl-extensions): a kernel's device-side receive timeout,
# "NCCL EP timeout for dispatch receive, rank 2, local_expert_idx 37, src_rank 0": rank 2 waited on rank 0's tokens;
# the kernel then traps, which the host sees as CUDA's 'unspecified launch failure' (719)
R_NCCL_EP_TIMEOUT = re.compile(r"\bNCCL EP timeout for (\w{1,20}) (?:receive|send|recv)\b.{0,20}?\brank (\d{1,6})\b"
                               r"(?:.{0,80}?\bsrc_rank (\d{1,6})\b)?")
R_UCX_TIMEOUT = re.compile(r"\bUCX\s+ERROR\b.{0,80}\bstate=CONNECTED\b.{0,20}\b(?:send|recv)v?\(110\) failed|"
                           r"\bUCX error: Endpoint timeout\b")
# UCX's CUDA transports (cuda_ipc: a peer's GPU buffer mapped through CUDA IPC; cuda_copy) failing a CUDA driver call
# inside MPI's (or UCC's) progress: UCX 1.6-1.10's "cuda_ipc_md.c:62 UCX ERROR cuCtxGetDevice(&cu_device) is failed.
# ret:invalid device context", later releases' "cuda_ipc_cache.c:.. UCX ERROR cuIpcOpenMemHandle(..) failed: invalid
# argument": the transport's CUDA call, not the rank's code (the thread has no CUDA context, or the peer's GPU is not
# visible to this process); the driver call and CUDA's error string
R_UCX_CUDA = re.compile(r"\bcuda_(?:ipc|copy)_\w{1,16}\.c:\d+\s+UCX\s+ERROR\s+(cu[A-Z]\w{2,40})\(.{0,80}?\)\s*"
                        r"(?:is )?failed[.:]?\s*(?:ret:\s*)?(.{1,80})")
# NVSHMEM's UID bootstrap (NCCL's socket code inside NVSHMEM, DeepEP's set-up):
# "bootstrap_uid.cpp:bootstrap_net_recv:99: Message truncated : received 58 bytes instead of 8":
# the two ends of the bootstrap disagree on its protocol
R_NVSHMEM_TRUNC = re.compile(r"\bbootstrap\w*\.cpp:\w+:\d+: (Message truncated ?: ?received \d+ bytes instead of \d+)")
# NVSHMEM's own IB transports (ibrc, ibdevx, ibgda, DeepEP's internode path) failing a verbs call, printed by its
# error macros (nvshmemx_error.h: "%s:%d: non-zero status: %d " or "%s:%d: NULL value ", then the message) with no
# NCCL prefix: ".../transport/ibrc/ibrc.cpp:418: non-zero status: 110 ibv_modify_qp failed" (the call's return, an
# errno: 110 ETIMEDOUT), ".../ibrc.cpp:304: NULL value cq creation failed" (ibv_create_cq returned NULL),
# ".../transport_ib_common.cpp:129: NULL value mem registration failed. Reason: Cannot allocate memory" (ibv_reg_mr),
# ".../ibrc.cpp:1072: non-zero status: 12 ibv_poll_cq failed, status: 12" (a work completion's status). The same
# calls as NCCL's "Call to ibv_X failed" (R_VERBS), read the same way (lead rule J); its return trail ("non-zero
# status: 7 ep_create failed") carries no call
# IBGDA's "ibgda.cpp:2234: NULL value Unable to create ah." is ibv_create_ah returning NULL: the address handle to the
# peer's GID (its route on the fabric), read as UCX's ibv_create_ah failing (group ah)
R_NVSHMEM_VERBS = re.compile(r"\.c(?:pp|c)?:\d{1,6}: (?:non-zero status: (-?\d{1,6})|NULL value) ?"
                             r"(?:(ibv_\w{2,32}|(?:cq|qp|srq) creation|mem registration) failed\b"
                             r"(?:, status: (\d{1,3})|\. Reason: ([A-Za-z][\w ]{1,60}))?"
                             r"|Unable to create (?P<ah>ah)\b)")
# a verbs call's failure printed alone on its line ("ibv_modify_qp failed"): NVSHMEM's error macros write their
# "<file>:<line>: non-zero status: N " prefix and their message with two writes, so several processes' stderr split
# them apart; the call named failing is the same event whoever printed it (lead rule J)
R_BARE_VERBS = re.compile(r"^\s{0,16}(ibv_\w{2,32}) failed[.!]?\s*$")
# IBGDA's "Unable to create ah." (ibv_create_ah returned NULL: no address handle to the peer's GID) alone on its line:
# split from its macro's "ibgda.cpp:1348: NULL value " prefix by the other processes' writes, as R_BARE_VERBS' are
R_BARE_AH = re.compile(r"^\s{0,16}Unable to create ah\b\.?\s*$")
# NVSHMEM's IBGDA (and its GIC successor) moving its queue pairs through their states with its own devx calls, and
# naming the transition that failed: "ibgda_rc_init2rtr failed on RC #216." (after its macro's "ibgda.cpp:3025:
# non-zero status: 7 " prefix, or split onto its own line). rst2init / init2rtr / rtr2rts are ibv_modify_qp's INIT /
# RTR / RTS transitions: the queue pair cannot reach its connected state with the GID, port or MTU it was given, read
# as R_NVSHMEM_DEVX's modify (lead rule J)
R_NVSHMEM_QP_STEP = re.compile(r"\b((?:ibgda|gic)_(?:rc|dci|dct|qp|ud)_(rst2init|init2rtr|rtr2rts)) failed on "
                               r"(?:RC|DCI|DCT|QP|UD) #\d{1,9}")
# the status NVSHMEM's macro prefix gives before such a message ("ibgda.cpp:3025: non-zero status: 7 ")
R_NVSHMEM_STATUS = re.compile(r"\.c(?:pp|c)?:\d{1,6}: non-zero status: (-?\d{1,6})")
# NVSHMEM's topology check (host/topo/topo.cpp) finding no transport from a PE's GPU to a peer PE's GPU ("[GPU 3] Peer
# GPU 8 is not accessible, exiting ..."), and its init's return for it ("init.cu:1035: non-zero status: 3 building
# transport map failed"): P2P reaches only GPUs of the same node, a remote transport (IBRC, IBGDA, UCX, libfabric)
# the others; with neither, NVSHMEM cannot start -- the set-up of the paths between the PEs (verdict.network)
R_NVSHMEM_PEER_GPU = re.compile(r"\[GPU (\d{1,5})\] Peer GPU (\d{1,5}) is not accessible\b")
R_NVSHMEM_TMAP = re.compile(r"\.c(?:pp|c|u)?:\d{1,6}: non-zero status: -?\d{1,6} ?building transport map failed")
# MSCCL++'s own check that a GPU's IB transport (Transport::IB0..IB7, one IB device per GPU index) names an IB device
# the host has (getIBDeviceName: "IB transport out of range: 2 >= 1", std::out_of_range or mscclpp::Error
# InvalidUsage; older builds without the numbers): the host has fewer IB devices than the GPUs using IB
R_IB_TRANSPORT_RANGE = re.compile(r"\bIB transport out of range(?:: ?(\d{1,3}) ?>= ?(\d{1,3}))?")
# NVSHMEM's error macros' prefix with its message split off (or none): the file shows NVSHMEM's own transport failing
R_NVSHMEM_MACRO = re.compile(r"(?:\bnvshmem\w{0,20}/|/transport/(?:ibrc|ibgda|ibdevx|common)/)\S{0,200}\.c(?:pp|c|u)?:"
                             r"\d{1,6}: (?:non-zero status: -?\d|NULL value)")
# NVSHMEM's IBGDA transport moves its queue pairs through their states with mlx5's devx object calls, not ibv_modify_qp:
# ".../ibgda/ibgda.cpp:1345: non-zero status: 121 Error in mlx5dv_devx_obj_modify for INIT2RTR_QP with syndrome 29e0df"
# is the devx form of ibv_modify_qp failing (the return an errno, the firmware's syndrome after it): the queue pair
# cannot reach its connected state with the GID/port/MTU it was given -- read as R_NVSHMEM_VERBS' modify_qp (rule J)
R_NVSHMEM_DEVX = re.compile(r"\.c(?:pp|c)?:\d{1,6}: non-zero status: (-?\d{1,6}) ?Error in (mlx5dv_devx_obj_\w{2,16}) "
                            r"for (\w{2,24}) with syndrome (\w{1,16})")
# (NCCL 2.3 and older say which transport it loaded as "Using internal Network Socket" / "... IB")
R_NET_USING = re.compile(r"NET/(IB|Socket|\w+) ?: ?Using (.*)|Using (?:internal )?[Nn]etwork (\w+)")
R_NO_IB = re.compile(r"NET/IB ?: ?No device found|Failed to open libibverbs|No IB devices found")
# net_ib's capability line for one HCA, "NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0'": the IB transport
# cannot read or write GPU memory through that HCA (no peer-memory module, no DMA-BUF) and stages through host memory.
# Not NCCL's topology choice ("... for GPU 0[0] / HCA 0 (distance 2 >= 2)": NCCL_NET_GDR_LEVEL), nor NET/Socket's line.
R_GDR_OFF = re.compile(r"NET/IB\w* ?: ?GPU Direct RDMA Disabled for HCA \d+")
R_SET_BY_ENV = re.compile(r"\b(\w{1,64}) set by environment to (\S+)")
# NCCL's own report of a setting it reads as a device or interface filter ("NCCL_IB_HCA set to mlx5_0:1,mlx5_1:1",
# net_ib.cc; "NCCL_SOCKET_IFNAME set to ib0"): the job's setting, as "set by environment to" says it
R_NCCL_SET_TO = re.compile(r"\b(NCCL_[A-Z0-9_]{1,48}) set to (\S+)")
# An NCCL line pasted without its host:pid:tid, its device tag first ("[0] NCCL INFO NET/IB : No device found.")
R_NCCL_BARE_HEAD = re.compile(r"(?:^|\s)\[\d{1,4}\] NCCL INFO ")
R_NRANKS = re.compile(r"\brank (\d+) nranks (\d+)\b")
# NCCL 2.19+'s communicator line ("comm 0x55d0 rank 0 nRanks 2 nNodes 1 localRanks 2 ..."): the nodes it spans
R_COMM_NNODES = re.compile(r"\bnRanks \d+ nNodes (\d{1,5})\b")
R_TORCH_TIMEOUT = re.compile(r"TIMEOUT\(ms\): (\d+)")
# The watchdog thread's own exception (a CUDA error it hit while polling events: the
# first failure of that rank, its peers only lose it), and CUDA errors elsewhere.
# nccl-tests prints "Test CUDA failure common.cu:253 'no kernel image is available ...'"; vLLM's/sglang's custom
# all-reduce "Failed: Cuda error /path/custom_all_reduce.cuh:307 'peer access is not supported ...'".
# The message ends at the line's end (a screen copy's padding blanks after it), or where torch's own advice after it
# starts (a paste that lost the line break).
# ROCm's HSA runtime reporting a hardware exception of a GPU (the AMD counterpart of an Xid): "HW Exception by GPU
# node-9 (Agent handle: 0x6313..) reason :GPU Hang" -- node-N is the KFD topology node of the GPU, not a rank
R_HSA_HW = re.compile(r"HW Exception by GPU node-(\d{1,4}) \(Agent handle: \w{1,32}\) reason ?: ?([^\n]{1,80})")
# ROCm's HIP runtime (rocdevice.cpp) aborting a process's GPU queue on the HSA status it got: "Callback: Queue
# 0x7fb7f5800000 aborting with error : HSA_STATUS_ERROR_EXCEPTION: An HSAIL operation resulted in a hardware
# exception. code: 0x1016" -- a kernel of that process faulted on the device (or its build does not fit the GPU):
# HIP's counterpart of a CUDA error (lead rule AN (2)); the pid is the process's, not a rank
# (ROCm 6 capitalises it, "Aborting with error", and a paste may abbreviate the queue's address to "0x...")
R_HSA_QUEUE_ABORT = re.compile(r"Queue [\w.]{1,20} [Aa]borting with error ?: ?(?P<st>HSA_STATUS_ERROR_\w{1,60}):? ?"
                               r"(?P<msg>[^\n]{0,160})")
# A device runtime's error line cut at its end before the message (a paste or a terminal wrapped it onto the next
# line): nccl-tests' "Test CUDA failure common.cu:1007" with "'CUDA-capable device(s) is/are busy or unavailable'"
# under it, HIP's "Callback: Queue 0x... Aborting with error :" with its "HSA_STATUS_ERROR_..." status under it
# (crash._cuda_head joins them and reads the line whole)
R_CUDA_CUT_HEAD = re.compile(r"(?:(?P<fail>\b(?:Cuda|CUDA) failure [\w/.\-]{1,128}:\d{1,6})|"
                             r"(?P<hsa>\bQueue [\w.]{1,20} [Aa]borting with error)) ?:?\s*$")
R_CUDA_CUT_MSG = re.compile(r"'[^'\n]{1,80}'?\s*$")  # the quoted message alone on its line
R_HSA_CUT_STATUS = re.compile(r"HSA_STATUS_ERROR_\w{1,60}\b")  # the HSA status opening its line
R_HSA_CUT_CODE = re.compile(r"Code: ?0x[0-9a-fA-F]{1,8}\b")  # the status's code opening its line
# ROCm's HSA runtime reporting a GPU kernel's memory access fault (ROCR's "Memory access fault by GPU node-%u (Agent
# handle: %p) on address %p%s. Reason: %s."): a kernel of the process that prints it read or wrote an address it may
# not -- HIP's illegal memory access (lead rule AN (2)); "GPU core dump failed" often beside it. node-N is the GPU's
# KFD topology node, not a rank
R_HSA_MEM_FAULT = re.compile(r"Memory access fault by GPU node-(?P<node>\d{1,4}) \(Agent handle: \w{1,32}\) on "
                             r"address (?P<addr>\w{1,32})[^\n]{0,60}?\. ?Reason: ?(?P<why>[^\n]{1,80})")
# A CUDA kernel's own device-side assertion, printed by the GPU for each failing thread ("/pytorch/aten/src/ATen/
# native/cuda/Loss.cu:102: operator(): block: [445,0,0], thread: [20,0,0] Assertion `input_val >= zero && input_val <=
# one` failed."): the kernel's check on its input failed on this GPU -- cudaErrorAssert (710), a CUDA error of that
# process; the host's "CUDA error: device-side assert triggered" follows it when pasted
R_KERNEL_ASSERT = re.compile(r"(?P<file>[\w.\-]{1,80}\.cuh?):\d{1,6}: [^\n]{0,200}?\bblock: \[[\d,]{1,40}\],? thread: "
                             r"\[[\d,]{1,40}\],? Assertion [`'](?P<cond>[^\n]{1,300}?)['`] failed")
# A frame of c10's backtrace ("frame #3: c10d::ProcessGroupNCCL::WorkNCCL::finishedGPUExecutionInternal() const + 0x5e")
# of an exception raised where the watchdog checks a work's CUDA end event: the only throw there is C10_CUDA_CHECK of
# cudaEventQuery (its caller c10_cuda_check_implementation), so a CUDA error on that process's GPU stream (an earlier
# kernel's: an illegal memory access, a device-side assert, an ECC error), shown even where the paste cut its message
R_CUDA_CHECK_FRAME = re.compile(r"\bframe #\d{1,3}: (?:c10d::)?ProcessGroupNCCL::WorkNCCL::"
                                r"finishedGPUExecutionInternal\b")
# The tail c10 prints at the end of a watchdog's rethrown exception ("Exception raised from ncclCommWatchdog at
# .../ProcessGroupNCCL.cpp:1902 (most recent call first):", its frames after it): the last lines of a process's
# watchdog crash, after its what() text. Shown before any watchdog error of its file, its header was not pasted: a
# process's crash whose own error is not shown (lead rule AF(3))
R_WATCHDOG_TAIL = re.compile(r"^\s*Exception raised from ncclCommWatchdog\w{0,16} at \S")
# A Python traceback's frame line ('  File "x.py", line 12, in main'), read only on the input's last lines
# (parse.input_tail): faulthandler's stack dump ('File "x.py", line 12 in main', no comma) is a live stack, no failure
# A traceback frame in torch's elastic launcher code (torchrun's agent, its rendezvous handlers): parse._elastic_frame
R_ELASTIC_FRAME = re.compile(r'\bFile "[^"\n]{0,1000}\btorch[/\\]distributed[/\\]elastic[/\\][^"\n]{1,200}\.py", '
                             r'line \d')
# A traceback's root frame in runpy's module runner ('File ".../runpy.py", line 196, in _run_module_as_main'): the
# process was started as `python -m package.module` (a library's own entry module, as a launcher starts its server or
# worker), not as a script file: parse._module_main, crash._traceback_tail's ``module_main``
R_RUNPY_MAIN = re.compile(r'\bFile "[^"\n]{0,1000}\brunpy\.py", line \d{1,7}, in _run_module_as_main\b')
# A traceback frame of FSDP's own wrapping of a model at construction (torch/distributed/fsdp/_wrap_utils.py's
# _auto_wrap, wrap.py's _recursive_wrap, _init_utils.py's meta-device materialisation): an AttributeError raised under
# it with no frame of other code between is FSDP asking the model's modules for what it needs of them
# ('ChameleonRMSNorm' object has no attribute 'reset_parameters') -- the installed torch and model library not
# fitting each other, alike on every rank (parse._fsdp_wrap, crash._traceback_tail's ``fsdp_wrap``,
# verdict.launch._fsdp_wrap_attr); any other frame (\bFile ") that is not torch's ends it (R_TORCH_FRAME)
R_FSDP_WRAP_FRAME = re.compile(r'\bFile "[^"\n]{0,1000}\btorch[/\\]distributed[/\\]fsdp[/\\]'
                               r'(?:_wrap_utils|wrap|_init_utils)\.py", line \d{1,7}, in \w{1,80}')
R_TORCH_FRAME = re.compile(r'\bFile "[^"\n]{0,1000}[/\\]torch[/\\][^"\n]{1,300}", line \d')
# A traceback frame in the __getattr__ of torch's own module wrappers (FSDP's fully_sharded_data_parallel.py, whose
# __getattr__ forwards a name it lacks to the wrapped module; DDP's): an AttributeError right under it asked the
# wrapper for a name it does not have (parse._wrapper_getattr, crash._traceback_tail's ``wrapper_getattr``,
# verdict.launch._wrapper_internal)
R_WRAPPER_GETATTR = re.compile(r'\bFile "[^"\n]{0,1000}\btorch[/\\](?:distributed[/\\](?:fsdp|_composable)[/\\]'
                               r'[^"\n]{1,200}|nn[/\\]parallel[/\\](?:distributed|data_parallel))\.py", line '
                               r'\d{1,7}, in __getattr__\b')
# One key of a launch environment pasted as a dict, one key a line (a JSON dump or a dict's repr of what each process
# was started with: '"RANK": "0",', "'WORLD_SIZE': 2,"): readers.settings._env_dict_key, verdict.world._env_rank_twice
R_ENV_DICT_KEY = re.compile(r"""^\s*["'](?P<key>RANK|WORLD_SIZE|MASTER_ADDR|MASTER_PORT)["']\s*:\s*["']?"""
                            r"""(?P<val>[\w.:-]{1,100})["']?\s*,?\s*$""")
# A process's launch environment printed as one dict or JSON object on one line ("{'HOSTNAME': 'gpu-a', 'MASTER_ADDR':
# 'gpu-b', 'RANK': '0', 'WORLD_SIZE': '4'}"): each key and its value (parse's env line, verdict.world's
# _env_rank0_elsewhere: global rank 0 on a host other than the master address, lead rule AA (1))
R_ENV_LINE_KEY = re.compile(r"""["'](?P<key>HOSTNAME|HOST|MASTER_ADDR|RANK|WORLD_SIZE)["']\s*:\s*["']?"""
                            r"""(?P<val>[\w.:-]{1,100})["']?\s*[,}]""")
R_IPV4_ADDR = re.compile(r"^\d{1,3}(?:\.\d{1,3}){3}$")
# Lightning's start-up warning that the GPUs a Slurm job asks for and the tasks Slurm started differ ("You requested 2
# GPUs but launched 1 slurm tasks." then "We will launch 2 processes for you." / "We recommend you let slurm manage
# the processes by setting: --ntasks-per-node=2"): the tasks per node against the GPUs per node, a launch setting
# every task shares (lead rules V (1), BP (1); verdict.world._slurm_tasks_gpus; round 96's pytorch-lightning-102)
R_SLURM_GPUS_TASKS = re.compile(r"(?i:\brequested (\d{1,5}) (?:GPUs?|devices?) but launched (\d{1,5}) slurm tasks?\b)")
# ... or exported by a launch script, one variable a line ("export RANK=0"; a redacted "export MASTER_ADDR=" left
# empty): two nodes' scripts shown giving one RANK of one world (round 93's deepep-121; readers.settings._env_dict_key)
R_ENV_EXPORT_KEY = re.compile(r"""^\s*export\s{1,4}(?P<key>RANK|WORLD_SIZE|MASTER_ADDR|MASTER_PORT)=["']?"""
                              r"""(?P<val>[\w.:-]{0,100})["']?;?\s*$""")
# A process's own announcement of its place in the world at init, "rank R/W" or "rank R of W" after "init:" (a
# training script's "Distributed init: rank 0/2 - ./output.tmp/dist_init", the init method after " - "): two processes
# announcing one rank of one world at once (readers.settings._init_rank_of, verdict.world._env_rank_twice)
R_INIT_RANK_OF = re.compile(r"\b[Ii]nit: rank (\d{1,7}) ?(?:/|of) ?(\d{1,7})\b(?:\s{0,3}-\s{0,3}(\S{1,200}))?")
# a traceback frame's file ('File "/x/train.py", line 9, in main'): parse._top_path, parse._entry_call
# A program's own deliberate exit status at its normal end, as its source passes it (lead rule CF (2)): the script
# file (a traceback's top-level frame) that names the program, and the code. RVC (Retrieval-based-Voice-Conversion)
# and its forks' trainer ends rank 0 with os._exit(2333333) once the last epoch is saved ("Training is done. The
# program is closed."), which mp.spawn's join reports as "process 0 terminated with exit code 2333333"
PROGRAM_END_CODES = (
    (re.compile(r"(?:^|[/\\])(?:train_nsf_sim_cache_sid\w{0,40}\.py|(?:infer[/\\]modules|rvc)[/\\]train[/\\]"
                r"train\.py)$"), 2333333, "RVC's trainer (os._exit(2333333) once training is done)"),
)
R_PY_FRAME_FILE = re.compile(r'\bFile "([^"\n]{1,1000})", line \d')
# A traceback frame of HF datasets resolving a dataset's data files into its splits: the builder's _split_generators
# (a packaged module's: webdataset, json, parquet, imagefolder...) or the data_files module's pattern resolution
# (parse.input_tail's data_files mark, on the input's last lines joined)
R_DATA_FILES_FRAME = re.compile(r"[/\\]datasets[/\\](?:packaged_modules[/\\][\w/\\]{1,80}\.py|builder\.py|"
                                r"data_files\.py)\", line \d{1,7}, in (?:_split_generators|resolve_pattern|"
                                r"get_data_patterns)")
# the installed package a traceback frame's file lies in ('/x/lib/python3.10/site-packages/unsloth/trainer.py':
# unsloth; a module file of its own, 'six.py': six), read on R_PY_FRAME_FILE's file (parse: the exception's tb_pkgs)
R_SITE_PKG = re.compile(r"[/\\](?:site|dist)-packages[/\\](?P<pkg>[A-Za-z_][\w.-]{0,80}?)(?:[/\\]|\.py$)")
# the names a traceback's code line calls ("pipe = pipeline(", "out = lib.build(cfg, k=1)": pipeline, build)
R_CALLED_NAME = re.compile(r"([A-Za-z_]\w{0,80})\s*\(")
# (", in" as Python prints it, or ",in" where a paste lost the space: "line 777,in config_from_args")
R_PY_FRAME_END = re.compile(r'\bFile "[^"\n]{1,1000}", line \d{1,7}, ?in [\w<>.\-]{1,200}\s*$')
# A traceback's frame in Python's own os.py mapping lookup (os.environ[...] -> _Environ.__getitem__, which raises only
# the KeyError of a variable not set), and the code line above it reading a variable a launcher sets for each process
# (torchrun's RANK / LOCAL_RANK / WORLD_SIZE / MASTER_ADDR, srun's SLURM_*, mpirun's OMPI_COMM_WORLD_* / PMI_*):
# group 2 the variable. A traceback cut right there is that variable's KeyError (parse.input_tail's ``env_key``,
# verdict.unread._cut_where; lead rules Q, U (2), BL (1)/(4); round 79's colossalai-1023)
R_OS_ENVIRON_FRAME = re.compile(r'\bFile "[^"\n]{0,1000}[/\\]os\.py", line \d{1,7}, in __getitem__\s*$')
R_LAUNCH_ENV_KEY = re.compile(r"\bos\.environ\[\s?(['\"])(LOCAL_RANK|RANK|WORLD_SIZE|LOCAL_WORLD_SIZE|MASTER_ADDR|"
                              r"MASTER_PORT|GROUP_RANK|NODE_RANK|SLURM_\w{1,40}|OMPI_COMM_WORLD_\w{1,40}|PMI_\w{1,40})"
                              r"\1\s?\]")
# The code line of a traceback's frame calling a collective of torch.distributed's Python API ("dist.all_gather(sizes,
# t, group", "torch.distributed.barrier()"; read on that one line only): group 1 the collective. A cut traceback's
# last frame making that call stopped inside the collective (parse.input_tail, verdict.exits._cut_call, rule BH (1))
R_COLLECTIVE_CALL = re.compile(
    r"(?:^|[\s=(,])(?:torch\.)?(?:distributed|dist)\.(all_reduce|all_gather(?:_into_tensor|_object)?|"
    r"reduce_scatter(?:_tensor)?|all_to_all(?:_single)?|broadcast(?:_object_list)?|reduce|gather(?:_object)?|"
    r"scatter(?:_object_list)?|barrier|monitored_barrier|send|recv|isend|irecv)\s*\(")
# A frame of torch.distributed's own collective code (distributed_c10d.py's all_gather, barrier, ...; the frame line
# only): group 1 the collective. init_process_group, new_group and the other set-up functions are not collectives
R_C10D_COLLECTIVE_FRAME = re.compile(
    r'torch/distributed/distributed_c10d\.py", line \d{1,7}, in (all_reduce|all_gather(?:_into_tensor|_object)?|'
    r"reduce_scatter(?:_tensor)?|all_to_all(?:_single)?|broadcast(?:_object_list)?|reduce|gather(?:_object)?|"
    r"scatter(?:_object_list)?|barrier|monitored_barrier|send|recv)\s*$")
# A frame of DistributedDataParallel's own construction (torch/nn/parallel/distributed.py's __init__ or the helpers it
# calls to check the parameters across processes and broadcast the module's state from rank 0; the frame line only):
# a traceback cut there stopped inside DDP's state broadcast, a collective (parse.input_tail, rule BH (2)). Its
# forward, its reducer's backward hooks are not the construction. torch 0.4's DistributedDataParallelCPU
# (distributed_cpu.py: __init__ -> sync_parameters, its broadcast of every parameter from rank 0) is the same step
# (round 81's kubeflow-trainer-1585)
R_DDP_INIT_FRAME = re.compile(
    r'torch[/\\]nn[/\\]parallel[/\\]distributed(?:_cpu)?\.py", line \d{1,7}, in (?:__init__|_ddp_init_helper|'
    r"sync_parameters|_sync_params_and_buffers|_sync_module_states|_distributed_broadcast_coalesced|"
    r"_verify_param_shape_across_processes|_verify_params_across_processes)\s*$")
# The same construction seen from the caller: the cut frame's code line calls DistributedDataParallel( or is the
# continuation line of that call holding its arguments ("module=model, device_ids=[cur_device], outp", the line a
# multi-line call is reported at): a traceback cut there stopped in DDP's constructor too (rule BH (2); round 89's
# slowfast-274)
# a name of DDP's class on a line (the call line above a continuation line: parse._ddp_named)
R_DDP_NAME = re.compile(r"\bDistributedDataParallel|\bDDP\s{0,4}\(")
R_DDP_INIT_CALL = re.compile(r"(?P<ddp>\bDistributedDataParallel(?:CPU)?\s{0,4}\()|"
                             r"^\s{0,80}module\s{0,2}=\s{0,2}[\w.]{1,80},\s{0,4}device_ids\s{0,2}=")
# the name rule BH (2)'s cut records in place of a collective's (readers.exits._spawn_in_collective)
DDP_INIT = "DistributedDataParallel's constructor"
# Lead rule BQ (1): a traceback cut inside the construction of a DataLoader's iterator (iter(dl) -> _get_iterator ->
# _MultiProcessingDataLoaderIter.__init__ / _BaseDataLoaderIter.__init__) in an iterable DataPipe job: torch >= 1.13
# creates a gloo group there and broadcasts the DataPipe shared seed from rank 0 -- a cross-rank exchange; the name
# it records in place of a collective's (parse.input_tail, readers.exits._spawn_in_collective)
DATAPIPE_SEED = "the DataLoader iterator's construction (the DataPipe shared seed broadcast from rank 0)"
R_LOADER_ITER_INIT_FRAME = re.compile(r'\btorch[/\\]utils[/\\]data[/\\]dataloader\.py", line \d{1,7}, in __init__\s*$')
# the iterator's construction named by the cut frame's code line or its caller's ("super(_MultiProcessingDataLoaderIter,
# self).__init__(loader)", "return _MultiProcessingDataLoaderIter(self)")
R_LOADER_ITER_CLASS = re.compile(r"\b_(?:MultiProcessing|SingleProcess|Base)DataLoaderIter\b")
# an iterable DataPipe job shown in the lines: torchdata, a datapipe module, path or environment
R_DATAPIPE = re.compile(r"(?i)torchdata|datapipe")
# Lead rule BM (1): a traceback cut at a step that runs DDP's collectives implicitly -- the call of a
# DistributedDataParallel-wrapped model (its forward broadcasts buffers and syncs the reducer) or a loss's .backward()
# (DDP's bucketed gradient all-reduce): the names it records in place of a collective's (parse._ddp_step_cut)
DDP_FORWARD = "the DistributedDataParallel-wrapped model's forward"
DDP_BACKWARD = "backward() (DistributedDataParallel's gradient all-reduce)"
# ... or a framework's evaluation pass under DDP (Lightning's run_evaluation / evaluation_forward under its ddp_train):
# every process runs it through the DDP-wrapped model's forward (round 90's test-tube-67)
DDP_EVAL = "the evaluation pass (the DistributedDataParallel-wrapped model's forward on every process)"
# a frame of a framework's evaluation / validation loop function ('..., line 130, in run_evaluation'), and a frame
# naming the framework's DDP mode ('..., in ddp_train', '..., in _ddp_spawn'): parse._ddp_step_cut. The loop's
# frame is an installed package's (R_SITE_PACKAGE) and its code line calls an evaluation step (R_EVAL_STEP_CALL;
# the model's own call is R_MODEL_CALL's) or is a call's continuation line ("test)"): a loop cut in its metrics, its
# predictions' gathering or a file write runs no collective (lead rule AL (2))
R_EVAL_LOOP_FRAME = re.compile(r", in _?(?:run_)?(?:evaluation|validation)(?:_loop|_forward|_epoch)?\s*$")
R_EVAL_STEP_CALL = re.compile(r"\b_?(?:evaluation|validation|eval|test|prediction|predict)_step\s{0,4}\(")
R_DDP_MODE_FRAME = re.compile(r", in _?ddp_\w{1,40}\s*$")
# ... or a framework's training epoch loop cut on its call of the training step (Lightning's training_epoch_loop.py --
# loops/ or loops/epoch/ -- "in run" / "in advance" calling "self.advance" or its optimization loop's run; PL 1.0's
# trainer/training_loop.py "in run_training_epoch" calling run_training_batch): every process runs the step through the
# DDP-wrapped model's forward and backward's gradient all-reduce (lead rule BM (1); round 95's scvi-tools-2236, cut at
# "self.advance"). The loop's frame is an installed package's (R_SITE_PACKAGE); a cut in its batch fetching
# ("batch = next(data_fetcher)"), logging or checkpointing runs no collective and stays the job's (rule AL (2))
DDP_TRAIN = "the training step (the DistributedDataParallel-wrapped model's forward and backward on every process)"
# a cut at the loop's "self.advance" itself: advance begins with its batch fetch ("batch = next(data_fetcher)"), so
# the paste does not show whether the step (and its collectives) had started
DDP_TRAIN_ADVANCE = ("the training loop's advance (its batch fetch or the training step: under DDP the step runs the "
                     "wrapped model's forward and backward on every process)")
R_TRAIN_LOOP_FRAME = re.compile(
    r'[/\\]loops[/\\](?:epoch[/\\])?training_epoch_loop\.py", line \d{1,7}, in (?:run|advance)\s*$|'
    r'[/\\]trainer[/\\]training_loop\.py", line \d{1,7}, in run_training_epoch\s*$')
R_TRAIN_STEP_CALL = re.compile(r"^(?:[\w.]{1,80}\s{0,4}=\s{0,4})?self\.(?:advance\b|"
                               r"(?:automatic|manual)_optimization\.run\(|_?run_training_batch\(|_optimizer_step\()")
# the frames of torch's own code (R_TORCH_FRAME) a model's call or a backward passes through on its way to DDP's
# hooks: nn.Module's __call__ (module.py), DDP itself (nn/parallel/distributed.py), autograd's entry
# (torch/_tensor.py / tensor.py backward, torch/autograd/)
R_DDP_STEP_PASS = re.compile(r'[/\\]torch[/\\](?:nn[/\\]modules[/\\]module\.py|nn[/\\]parallel[/\\]distributed\.py|'
                             r'_?tensor\.py|autograd[/\\]\w{1,40}\.py)"')
R_DDP_FILE = re.compile(r'[/\\]torch[/\\]nn[/\\]parallel[/\\]distributed\.py"')
# a code line calling backward ("loss.backward()", "scaler.scale(d_loss).backward()", "accelerator.backward(loss)")
R_BACKWARD_CALL = re.compile(r"\.backward\s{0,4}\(")
# a code line calling the job's model ("loss_dict = self.model(data)", "out = self._model(batch)", "ddp_model(x)")
R_MODEL_CALL = re.compile(r"(?:^|[\s=(,.])_?(?:ddp_)?model\s{0,4}\(")
# IPython's (Jupyter's) traceback, as a notebook cell prints it: a header naming the exception before its own
# "Traceback (most recent call last)" ("ProcessExitedException      Traceback (most recent call last)"; plain Python
# prints the exception last, after "Traceback (most recent call last):"), frames as "<ipython-input-1-ab12> in main()",
# "~/lib/python3.8/site-packages/torch/multiprocessing/spawn.py in start_processes(fn, args, ...)" (IPython 8: "File
# ~/.../spawn.py:188, in start_processes(fn, ...)", "Cell In[1], line 36"), each followed by numbered source lines, the
# one that ran marked with an arrow ("---> 188     while not context.join():"): parse.input_tail
R_IPY_TB_HEAD = re.compile(r"^\s*(?P<exc>[A-Za-z_][\w.]{0,120}?)\s{2,}Traceback \(most recent call last\)\s*$")
# (a hard-wrapped paste may have its first source line joined onto the frame line)
R_IPY_FRAME = re.compile(r"^\s*(?:File )?(?P<file><ipython-input-[\w-]{1,120}>|\S{1,1000}?\.py(?::\d{1,7})?,?|"
                         r"Cell In ?\[\d{1,6}\], line \d{1,7}) in (?P<func>[\w<>.]{1,200})(?:\(.{0,1000}?\))?"
                         r"(?:\s{2,}\d{1,7}(?:\s.{0,1000})?)?\s*$")
# (IPython 8 elides a long frame's middle source lines: "   (...)    421     **kwargs: dict," -- the marker before the
# next numbered line shown)
R_IPY_CODE = re.compile(r"^\s*(?:(?P<arrow>-{1,8}>)\s{0,8}|\(\.\.\.\)\s{1,12})?\d{1,7}(?:\s(?P<code>.{0,1000}))?$")
# The rendezvous step of init_process_group as a traceback's last frame shows it (parse.input_tail): its own code line
# getting the store from the rendezvous ("store, rank, world_size = next(rendezvous_iterator)", frame "in
# init_process_group") or the env:// / tcp:// handler's creation of the TCPStore ("store = TCPStore(", "store =
# _create_c10d_store(", frame "in _env_rendezvous_handler" / "in _tcp_rendezvous_handler"): a paste cut there raised
# while the job's shared store was being set up (lead rules L, Q, AN (2))
R_RDZV_STEP = re.compile(r"^\s*store, rank, world_size = next\(rendezvous_iterator\)\s*$|"
                         r"^\s*store = (?:TCPStore|_create_c10d_store)\(")
RDZV_STEP_FUNCS = ("init_process_group", "_env_rendezvous_handler", "_tcp_rendezvous_handler")
# A frame inside init_process_group's rendezvous module itself (torch/distributed/rendezvous.py: its env:// / tcp:// /
# file:// handlers and _create_c10d_store, which create or connect the job's store) -- a paste cut inside that frame's
# own line ("in _tcp_ren") too, its code line not shown: the process was below the rendezvous step (lead rules L, Y,
# BC (1)). Not torch/distributed/elastic/rendezvous/ (torchrun's agent: rule BC (1)'s agent frames are read apart)
R_RDZV_MODULE_FRAME = re.compile(r"torch[/\\]distributed[/\\]rendezvous\.py\"?, line \d{1,7}, in \w")
# A frame of torchrun's elastic store utilities (torch/distributed/elastic/utils/store.py: get_all, synchronize,
# barrier -- the agent's gather of every participant's key through the rendezvous store, its exit barrier), whole or
# cut anywhere after its line number ('line 34, in'): a traceback cut there was waiting on keys the other nodes'
# agents write -- rule BC (1)'s store frame of the launcher in the lines (round 87's belle-344; itrex-84 the same frame
# with its 'Socket Timeout'). Not the agent's own frames (elastic/agent/, elastic/rendezvous/: R_AGENT_FRAME)
R_ELASTIC_STORE_FRAME = re.compile(r"torch[/\\]distributed[/\\]elastic[/\\]utils[/\\]store\.py\"?, line \d{1,7}")
# that module's functions that create or connect the store (a cut frame's function, whole or cut, must begin one of
# them): not its helpers that read an environment variable or a URL parameter (_get_env_or_raise, _error,
# _query_to_dict), whose failure is that setting missing
RDZV_STORE_FUNCS = ("_tcp_rendezvous_handler", "_env_rendezvous_handler", "_file_rendezvous_handler",
                    "_create_c10d_store", "_rendezvous_helper", "rendezvous")
# a traceback's last line, or a name alone: an exception's class then ':' or nothing ("RuntimeError: x",
# "KeyboardInterrupt"), not a frame's code line ("main()", "x = f(y)", "return g()")
R_EXC_OR_NAME = re.compile(r"^\s*[A-Za-z_][\w.]{0,200}(?::|\s*$)")
# A traceback's frame or code line calling NCCL's communicator creation from Python (BMTrain's
# "C.ncclCommInitRank(unique_id, world_size, rank)", "nccl.commInitRank(...)", a frame "in commInitRank"): the process
# failed creating its communicator where the traceback is cut before the error's text. NCCL's own INFO line
# "ncclCommInitRank comm 0x... rank 0 ..." is no call (no "(" after the name, no attribute dot before it)
R_COMM_INIT_FRAME = re.compile(r"[\w\]]\.(?:nccl)?[Cc]ommInitRank\w{0,8}\(|\bin (?:nccl)?[Cc]ommInitRank\w{0,8}\s*$")
# nccl-tests' own CUDA check failing on a device index ("host: Test CUDA failure common.cu:732 'invalid device
# ordinal'"): nccl-tests sets each device itself, cudaDev = localRank*nThreads*nGpus + thread*nGpus + i, with localRank
# counted among the processes of the same hostname -- an index past the host's GPUs is the launch placing more
# processes x -t x -g on a host than it has GPUs (or hosts sharing one hostname), never one rank's (lead rules Q, W)
R_NCCL_TESTS_ORDINAL = re.compile(r"\bTest CUDA failure [\w/.\-]{1,128}:\d{1,6} 'invalid device ordinal'")
# nccl-tests 1.x's own CUDA check (its common.h CUDACHECK: printf("Cuda failure %s:%d '%s'"), no host and no "Test"),
# failing on a device index: "Cuda failure common.cu:891 'invalid device ordinal'" (the cudaSetDevice of each GPU it
# picks). The same printf is a common CUDA idiom of other programs (NCCL 1.x's own, samples, a user's MPI code), so it
# is read as nccl-tests' only where the same file shows nccl-tests' preamble ("nThread 1 nGpus 2 minBytes ...",
# before or after it: readers.crash, readers.nccl mark the event tests_check) -- then it is R_NCCL_TESTS_ORDINAL's
# placement error (lead rules AU (2), Q, W); without the preamble it keeps its reading as any CUDA error
R_TESTS_V1_ORDINAL = re.compile(r"\bCuda failure [\w/.\-]{1,128}:\d{1,6} 'invalid device ordinal'")
# torch's distributed test harness's exit of a process that raised (testing/_internal/common_distributed.py:
# logger.error("Caught exception: \n%s exiting process %s with exit code: %s", traceback, rank, TEST_ERROR_EXIT_CODE
# 10): its exit line comes after the traceback, on a line of its own (parse: the test_harness event, verdict.early_exit)
R_TEST_HARNESS_EXIT = re.compile(r"\bexiting process(?: \d{1,7})? with exit code: 10\b")
# torch's MultiProcessTestCase asserting its processes' common exit code ("AssertionError: False is not true :
# Expected zero exit code but got -11", with or without "for pid: N"): parse keeps the code for the harness's fix
# (verdict.harness; round 109's pytorch-pr48500)
R_HARNESS_CODE = re.compile(r"\bExpected zero exit code but got (-?\d{1,4})\b")
# multiprocessing's header of a child whose target raised ("Process process 1:"), for a child torch's distributed test
# harness named itself: test_distributed.py and common_distributed's MultiProcessTestCase start each rank as
# multiprocessing.Process(name="process " + str(rank)) from the test's own process -- no launcher agent -- so N is that
# child's rank (its traceback follows; a unittest progress line may hold it at its end: "test_x (...) ... Process
# process 1:"). parse tags the connection error of its traceback with it (verdict.early_exit._harness_store_host)
R_HARNESS_PROC = re.compile(r"(?:^|\s)Process process (\d{1,5}):\s*$")
# Python's own OSError text ("BrokenPipeError: [Errno 32] Broken pipe", "ConnectionResetError: [Errno 104] Connection
# reset by peer"): a harness child's pipe to the test runner (multiprocessing.connection) or its DataLoader's worker
# queue, not c10d's bare "RuntimeError: Broken pipe" of the store's socket -- parse._harness_error does not tag it
# (review 104 (2) finding 1)
R_PY_OSERROR = re.compile(r"\[Errno \d|\b(?:OS|IO|BrokenPipe|Connection(?:Reset|Aborted|Refused)?)Error\b")
# A framework's own error line that names the rank its CUDA error was raised on, right before the error's text
# (TensorRT-LLM's executor: "Failed to initialize executor on rank 6: CUDA error: uncorrectable NVLink error ..."):
# "... on rank N: <the error>" says whose error it is, whatever tag a launcher or a paste put before the line (lead
# rules A, AN (1)). Only where nothing but an exception's class stands between the ":" and the error -- a rank
# named elsewhere in the line ("... crash on rank 0 or a network ...", "waiting for rank 3") is not the error's own.
R_ERR_ON_RANK = re.compile(r"\b(?:on|in) rank (\d{1,7}) ?: ?(?:[A-Z][\w.]{0,80}(?:Error|Exception): ?)?$")
# torch's driver-API check (c10/cuda/driver_api.h, C10_CUDA_DRIVER_CHECK: "CUDA driver error: invalid argument") is
# the same CUDA error raised through the driver API, read like the runtime's "CUDA error: ..."
# a worker's own log line naming its rank ("DTensorPolicyWorkerV2[rank=5]: offload_after_refit/model_to_cpu/
# move_to_device_done after 4106.03s ...") that reports a step it finished and how long it took: that rank was in
# that step, outside any collective, for that long (verdict.missing._slow_step, lead rule I; round 78's RL-2462)
R_RANK_STEP_TOOK = re.compile(r"\[rank=(?P<rank>\d{1,7})\]:? [^\n]{0,200}?(?<![A-Za-z])"
                              r"(?:done|finished|completed|took)\b"
                              r"[^\n]{0,40}?\b(?:after|in) (?P<secs>\d{1,7}(?:\.\d{1,3})?) ?s\b")
# a launch script's printed address of a node's role ("Head IP:         169.254.194.225 (auto-detected)", "Worker IB
# IP:    169.254.153.248 (NCCL)", "MASTER_ADDR=169.254.3.1") that is IPv4 link-local: valid on one link only, and every
# host without DHCP has one alike (lead rule AU (3); round 78's vllm-dgx-spark-7)
R_LINK_LOCAL_ROLE = re.compile(r"\b(?P<role>(?:Head|Worker|Master|Main|Server|Node)(?: node)?(?: IB)? IP(?: address)?|"
                               r"MASTER_ADDR|master_addr)\s{0,3}[:=]\s{0,20}(?P<addr>169\.254\.\d{1,3}\.\d{1,3})\b")
# the values torch prints under that assert, on its own line ("device=1, num_gpus=1"; empty where no GPU is visible),
# or the index alone with the count left empty ("device=7, num_gpus="; round 83's simple-grpo-24)
R_DEVICE_PAST = re.compile(r"^\s*device=(\d{1,4}), num_gpus=(\d{0,4})\s*$")
# ... or at the end of the assert's own line ("... please report a bug to PyTorch. device=7, num_gpus=1"), the count
# possibly empty or on the next line
R_DEVICE_SAID = re.compile(r"\bdevice=(\d{1,4}),(?: ?num_gpus=(\d{0,4}))?\s*$")
# ("CUDA Error: X" with a capital: Transformer Engine's NVTE_CHECK_CUDA, round 88's transformerengine-991)
R_CUDA_ERROR = re.compile(r"(?:CUDA|HIP) (?:driver )?[Ee]rror: ([^\n]{1,120}?)(?:\.?\s*$|\. |"
                          r"(?=(?:CUDA|HIP) kernel errors might|For debugging consid))|"
                          r"Triton Error \[CUDA\]: ([^\n]{1,120})|"
                          # (the message's closing quote may be cut off with the paste: round 88's nccl-tests-369)
                          # RCCL's own print of the same check (rcclCudaErrorHandler, its ERROR level: "[FATAL ERROR]:
                          # HIP failure: 'invalid device pointer'", then ncclUnhandledCudaError): HIP's (rule AN (2))
                          # vLLM's custom all-reduce CUDACHECK as a wrapper relays it without "Cuda error" (dynamo's
                          # worker log: "VLLM: Failed: /workspace/csrc/custom_all_reduce.cuh:368 'invalid argument'"):
                          # the same print, read only where the file it names is CUDA source (.cu/.cuh) -- DeepEP's
                          # "Failed: Assertion error csrc/deep_ep.cpp:32 '...'" is an assertion, not this
                          r"(?:(?:Cuda|CUDA) (?:failure|error)|HIP failure:?|"
                          r"\bFailed:(?= [\w/.\-]{1,128}\.cuh?:\d{1,6} ')) (?:(\d{1,4}) |[\w/.\-]{1,128}:\d{1,6} )?"
                          r"'([^'\n]{1,80})(?:'|\s*$)|"
                          # torch's DeferredCudaCallError: CUDA's initialisation in that process failed; torch's
                          # own assert of the device index against the GPUs the process sees (CUDAContext.cpp:
                          # "device >= 0 && device < num_gpus INTERNAL ASSERT FAILED", round 78's mace-1197), the
                          # same failure raised without the wrapper
                          r"(?:CUDA call failed lazily at initialization with error: |"
                          r"(?=device >= 0 && device < num_gpus INTERNAL ASSERT FAILED))([^\n]{1,120})|"
                          # torch <= 1.x (THC): "cuda runtime error (39) : uncorrectable ECC error encountered at
                          # /pytorch/aten/src/THC/X.cpp:265", "THCudaCheck FAIL file=F line=195 error=77 : an illegal
                          # memory access was encountered": the same CUDA runtime errors, numbered
                          r"(?:cuda runtime error \(|THCudaCheck FAIL file=\S{1,200} line=\d{1,6} error=)"
                          r"(\d{1,4})\)? : "
                          r"([^\n]{1,120}?)(?: at \S{1,200}:\d{1,6})?$|"
                          # a CUDA error named by its enum, runtime or driver API: thrust's "transform: failed to
                          # synchronize: cudaErrorAssert: device-side assert triggered", TensorFlow's
                          # "CUDA_ERROR_LAUNCH_TIMEOUT: the launch timed out and was terminated"
                          r"\b(cudaError(?!Success\b)[A-Z]\w{2,40}|CUDA_ERROR_[A-Z_]{3,40}): ([^\n]{1,120}?)\.?\s*$|"
                          # a C/CUDA extension's own check printing cudaGetErrorString with where it failed
                          # (bitsandbytes' CUDA_CHECK_RETURN: "Error operation not supported at line 351 in file
                          # .../csrc/pythonInterface.c"): a CUDA error only when the file is C/C++/CUDA source
                          r"\bError ([a-z][^\n]{2,100}?) at line \d{1,6} in file \S{1,200}\.(?:c|cc|cpp|cu|cuh)\s*$|"
                          # the CUDA_CHECK_ERRORS macro PointNet++-style extensions copy after a kernel launch
                          # ("CUDA kernel failed : invalid device function", the wrapper's signature and "at L:109 in
                          # F.cu" on the next line): cudaGetLastError's string for that process's launch
                          r"\bCUDA kernel failed ?: ?([a-z][^\n]{2,100}?)\s*$|"
                          # spconv's cumm / tensorview TV_CUDA_CHECK ("zero_ .../tensorview/tensor.h 221\ncuda failed
                          # with error 1 invalid argument. use CUDA_LAUNCH_BLOCKING=1 to get correct traceback."): the
                          # runtime's code and string for that op (round 78's cvpr2023-unidistill-9)
                          r"\bcuda failed with error (\d{1,4}) ([a-z][^\n.]{2,80})|"
                          # a C++ runtime's own check naming the CUDA call and cudaGetErrorString (TensorRT-LLM's
                          # check_cuda_error: "[TensorRT-LLM][ERROR] CUDA runtime error in cudaIpcOpenMemHandle(
                          # ...): peer access is not supported between these two devices (/path/ipcUtils.cpp:90)"),
                          # the call's own failure (lead rule V (2) for its IPC calls; round 82's tensorrt-llm-1498)
                          r"\bCUDA runtime error in \w{1,80}\([^\n]{0,400}?\): ([a-z][^\n]{2,120}?)"
                          r"(?: \(\S{1,300}:\d{1,6}\))?\s*$")
# torch's own text for cudaErrorInsufficientDriver (35) at its CUDA initialisation (c10/cuda/CUDAFunctions.cpp: "The
# NVIDIA driver on your system is too old (found version 11070). Please update your GPU driver ..."), raised by the
# first CUDA call (RuntimeError) or warned by torch.cuda.is_available() / device_count() ("UserWarning: CUDA
# initialization: ...", after which the process has no GPU at all): the host's driver is older than the CUDA runtime
# the torch wheel was built with. Group ver: the CUDA version the driver supports, as the driver API encodes it
# (1000 x major + 10 x minor: 11070 is CUDA 11.7).
R_TORCH_DRIVER_OLD = re.compile(r"\bNVIDIA driver on your system is too old \(found version (?P<ver>\d{4,6})\)")
# The same initialisation's warning for cudaGetDeviceCount failing otherwise ("[W CUDAFunctions.cpp:109] Warning: CUDA
# initialization: CUDA driver initialization failed, you might not have a CUDA gpu."): cudaErrorInitializationError
# (3), cudaErrorUnknown (999, "CUDA unknown error - this may be due to an incorrectly set up environment, e.g.
# changing env variable CUDA_VISIBLE_DEVICES after program start") or "Unexpected error from cudaGetDeviceCount()".
# A CUDA call shown failing (lead rule AT (1)), after which that process has no GPU. Only the warning's own head:
# "Found no NVIDIA driver on your system" (a host with no driver) and the raised forms keep their readings.
R_TORCH_CUDA_INIT = re.compile(r"\bCUDA initialization: (?P<what>CUDA driver initialization failed|CUDA unknown error|"
                               r"Unexpected error from cudaGetDeviceCount\(\))")
# The raised form of the same failure (torch's c10/cuda/CUDAFunctions.cpp device_count_impl, a RuntimeError that vLLM's
# engine and others log: "Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling
# NumCudaDevices() that might have already set an error? Error 802: system not yet initialized"): the CUDA runtime's
# code and string for the call that failed -- the host's GPU system (802 cudaErrorSystemNotReady: the fabric manager
# of an NVSwitch machine), read with the warning's reading (verdict.cuda._torch_cuda_init, lead rule V (2))
R_TORCH_DEVCOUNT_ERR = re.compile(r"\bUnexpected error from cudaGetDeviceCount\(\)[^\n]{0,240}? "
                                  r"Error (?P<code>\d{1,4}): (?P<err>[a-zA-Z][^\n]{2,120}?)\s*$")
# NCCL's own WARN naming the CUDA runtime call it made and the error string the runtime returned, without "Cuda
# failure" (transport/p2p.cc's WARN("cudaIpcGetMemHandle failed : %s", cudaGetErrorString(res)) before it returns
# ncclUnhandledCudaError); RCCL's hipified build prints the same WARN with the HIP call's name ("hipIpcGetMemHandle
# failed : invalid argument"), read like CUDA's (lead rule AN (2))
# NCCL 2.0-2.3's p2p transport words the same WARN by what it did ("transport/p2p.cu:548 NCCL WARN failed to open CUDA
# IPC handle : 64 peer access is not supported between these two devices": cudaIpcOpenMemHandle's code and string),
# read alike (lead rule V (2); round 82's horovod-785); "... IPC handle to device D" is R_IPC_DEV's, not this
R_NCCL_RT_FAILED = re.compile(r"NCCL WARN (?:(?P<api>(?:cuda|hip)[A-Z]\w{2,60}) failed|"
                              r"failed to (?P<op>open|get) (?P<rt>CUDA|HIP) IPC handle) ?: ?(?:\d{1,4} )?"
                              r"(?P<what>[^\n]{1,120}?)\s*$")
# The same WARN of the P2P transport's set-up cut off inside its message by the paste ("transport/p2p.cc:238 NCCL WARN
# failed to ope"): read by its source location (lead rules BG (3), AJ (1)) -- the P2P transport's file and the text so
# far a strict prefix of its IPC-handle WARN (P2P_IPC_WARNS, at least _P2P_CUT_MIN characters and two words) -- as that
# WARN, the CUDA IPC call failing (lead rule V (2); round 91's ray-17909). A cut text of another file, or one no IPC
# WARN begins with, stays unread.
R_P2P_WARN_CUT = re.compile(r"\bp2p\.c[cu]:\d{1,6} NCCL WARN (?P<cut>[a-zA-Z][\w ]{0,40})$")
P2P_IPC_WARNS = {"failed to open CUDA IPC handle": "open", "failed to get CUDA IPC handle": "get"}
P2P_CUT_MIN = 8


def p2p_warn_cut(text: str) -> str | None:
    """The IPC operation ("open"/"get") of a P2P transport WARN cut inside its message, or None."""
    m = R_P2P_WARN_CUT.search(text)
    cut = m.group("cut").rstrip() if m else ""
    if len(cut) < P2P_CUT_MIN or " " not in cut:
        return None
    return next((op for whole, op in P2P_IPC_WARNS.items() if len(cut) < len(whole) and whole.startswith(cut)), None)


# A CUDA failure printed by another library's own logger rather than torch's or NCCL's check (lead rule AC (1) for
# its rank): a CUDA driver-API call named failing (Isaac Gym's PhysX GPU pipeline: "PxgCudaUtils.h (54) : internal
# error : SynchronizeStreams cuEventRecord failed"), a CUDA error code printed bare ("CUDA error 700", the quoted
# message form is R_CUDA_ERROR's), an error enum named alone ("cudaErrorIllegalAddress", "CUDA_ERROR_LAUNCH_FAILED"),
# or the runtime's text for 700 alone. The out-of-memory names are R_OOM's, not this. The driver's virtual-memory and
# multicast calls too (NVSHMEM's NVLS team set-up: "team_internal_nvls.cpp:254: non-zero status: 401 cuMemMap failed
# to map N bytes ... on device 7"): a driver call refused, read as CUDA's own (lead rule V (2)). An enum compared in a
# glog CHECK's condition is not the error: dmlc's CUDA_CALL (decord, MXNet) checks "e == cudaSuccess || e ==
# cudaErrorCudartUnloading" and prints the error itself after "CUDA: " (cudaGetErrorString), whose initialization
# error (cudaErrorInitializationError) is read by its text (round 86's decord-327)
R_CUDA_LIB_ERROR = re.compile(
    r"\b(?P<api>cu(?:Event|Stream|Memcpy|Memset|MemAlloc|MemFree|MemHost|Ctx|Launch|Module|Graph|Func|Device|"
    r"Mem(?:Map|Unmap|Create|Release|SetAccess|AddressReserve|ImportFromShareableHandle|ExportToShareableHandle)|"
    r"Multicast)"
    r"\w{0,40}) failed\b|"
    r"\bCUDA error (?P<code>\d{1,4})\b(?! ?')|"
    r"(?<![=!]= )\b(?P<enum>cudaError(?!Success\b|MemoryAllocation\b)[A-Z]\w{2,40}|"
    r"CUDA_ERROR_(?!OUT_OF_MEMORY\b)[A-Z_]{3,40})\b|"
    r"\b(?P<text>an illegal memory access was encountered|no kernel image is available for execution on the device|"
    r"(?<=CUDA: )initialization error)")
# A CUDA error code alone on the line under a library's failed CUDA call (PhysX: "memcpy failed fail!" then "  700")
R_CUDA_CODE_LINE = re.compile(r"^\s*(\d{1,4})\s*$")
# CUDA's error codes an expert reads by number (driver_types.h / cuda.h)
CUDA_CODE_NAMES = {700: "illegal address", 719: "launch failure", 999: "unknown error", 710: "device-side assert",
                   701: "too many resources requested for launch", 702: "launch timeout", 716: "misaligned address",
                   214: "uncorrectable ECC error", 46: "all CUDA-capable devices are busy or unavailable"}
# A non-CUDA accelerator's runtime error, read like CUDA's (lead rule AN (2)): Intel's Unified Runtime under torch's
# XPU / SYCL ("RuntimeError: level_zero backend failed with error: 40 (UR_RESULT_ERROR_OUT_OF_RESOURCES)", a UR or
# Level Zero result code named alone: "UR_RESULT_ERROR_DEVICE_LOST", "ZE_RESULT_ERROR_UNKNOWN"). Its device-memory code
# (39, OUT_OF_DEVICE_MEMORY) is an OOM (R_OOM), not this; 40 OUT_OF_RESOURCES is not memory.
# Habana's SynapseAI under torch's HPU bridge names its status code ("Graph compile failed. synStatus=synStatus 26
# [Generic failure]"); AWS Neuron's runtime under torch-neuronx / XRT names its call on the NeuronCores ("Nrt::Load
# failed on NeuronCores 0-0(2): nrt_load status=1, error message=\"Non specific failure\""). The status may follow a
# glued tail ("for detailsGraph compile failed").
R_ACCEL_ERROR = re.compile(r"\b(?P<backend>\w{2,16}) backend failed with error: (?P<code>\d{1,4}) "
                           r"\((?P<name>UR_RESULT_ERROR_[A-Z_]{2,60})\)|"
                           r"\b(?P<bare>(?:UR|ZE)_RESULT_ERROR_[A-Z_]{2,60})\b|"
                           r"(?:(?P<synop>[A-Z][a-z]{1,20}(?: [a-z]{2,20}){0,3}) failed\.? )?"
                           r"\bsynStatus[=: ]{1,3}(?:synStatus )?(?P<syn>\d{1,4})\b"
                           r"(?: \[(?P<synname>[^\]\n]{1,60})\])?|"
                           r"\bNrt::(?P<nrtop>\w{2,30}) failed on (?P<cores>NeuronCores? [\w()-]{1,40}): "
                           r"(?P<nrtcall>nrt_\w{2,30}) status=(?P<nrtst>\d{1,4})"
                           r"(?:, error message=\"(?P<nrtmsg>[^\"\n]{1,120})\")?|"
                           r"\bFailure: (?P<nrtcode>NRT_[A-Z_]{2,40}) in (?P<nrtfn>nrt_\w{2,30})\(\)|"
                           r"\bERROR\s{1,60}ENC:(?P<encop>\w{2,60})")
# the Neuron runtime's own error dump names the failing call and its status code ("ERROR NRT:nrt_infodump  Failure:
# NRT_INVALID in nrt_load()"; its other lines -- kernel, driver version -- say nothing failed), and its collective
# engine (ENC, Neuron's NCCL-derived library) logs an error of a communicator's set-up at ERROR level ("ERROR
# ENC:init_metaring_algorithm  [nec_dev 8 ch 2] failed to reuse global comm devmem reservation"): the device's
# runtime failing that process's call, read like CUDA's (lead rule AN (2)). The message after the device's tag:
R_ENC_MSG = re.compile(r"\[nec_dev \d{1,4}(?: ch \d{1,4})?\] (?P<msg>[a-zA-Z][^\[\n]{3,100}?)"
                       r"(?= \d{2,8}:\d{2,8} |\[|\s*$)")
# Intel's GPU compute runtime (NEO, under Level Zero / OpenCL) aborting the process on its own internal check
# (UNRECOVERABLE_IF: "Abort was called at 345 line in file:" then its source file on the next line,
# "./shared/source/memory_manager/memory_manager.cpp"): the device runtime failed, read like a CUDA error of that
# process (lead rule AN (2)); its SIGABRT is what a launcher then records
R_NEO_ABORT = re.compile(r"\bAbort was called at (?P<line>\d{1,6}) line in file:(?:\s{0,4}(?P<file>\S{3,200}))?")
# A GPU kernel driver's own fault of a device in the kernel log (dmesg), the Intel / AMD counterpart of an Xid: the xe
# or i915 driver's GPU job timeout ("xe 0000:2b:00.0: [drm] Tile0: GT0: Timedout job: seqno=..., guc_id=0", i915's
# "[drm] GPU HANG: ecode ..."), after which it resets the GT; amdgpu's GPU page fault ("amdgpu 0000:c6:00.0: amdgpu:
# VM_L2_PROTECTION_FAULT_STATUS:0x00341051", "[gfxhub0] retry page fault (src_id:0 ...)": a kernel's access to memory
# it may not, HIP's illegal address; the client it decodes only for a fault, "Faulty UTCL2 client ID: TCP (0x8)", says
# the same where the status line is cut). The PCI address is the GPU's, not a rank (lead rules AN (2), AD (2)); a
# fault status of all zeroes is no fault
R_GPU_KMD_FAULT = re.compile(r"\b(?P<drv>xe|i915|amdgpu) (?P<pci>[0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\."
                             r"[0-9a-fA-F]): (?:\[drm\] |amdgpu: )[^\n]{0,80}?(?P<what>Timedout job|GPU HANG|"
                             r"VM_L2_PROTECTION_FAULT_STATUS: ?0x(?!0{8}\b)[0-9a-fA-F]{8}|"
                             r"\[\w{2,10}hub\d?\] (?:retry |no-retry )?page fault|Faulty UTCL2 client ID)")
# Ascend's runtime failing a process's own NPU at the communicator's set-up, read like a CUDA error of that rank (lead
# rules AN (2), AM (3)): EJ0001 "Failed to initialize the HCCP process. Reason: Maybe the last training process is
# running." -- HCCP, the device-side process of HCCL's communication, cannot start on that NPU (most often an earlier
# run's process still holds it; the driver errors under it follow)
R_ASCEND_DEVICE = re.compile(r"\bFailed to initialize the (?P<what>HCCP) process\b"
                             r"(?:[^\n]{0,40}?\bReason: (?P<why>[^\n]{1,120}))?")
# torch._dynamo's advice at the end of every error it raises compiling a model ("You can suppress this exception and
# fall back to eager by setting:\n    import torch._dynamo\n    torch._dynamo.config.suppress_errors = True"): the
# process's exception, whatever its class, came from torch.compile (verdict.exits: the fix starts from compile)
# newer torch ends it with "Set TORCHDYNAMO_VERBOSE=1 for the internal stack trace" instead, the same sign
R_DYNAMO_ADVICE = re.compile(r"\btorch\._dynamo\.config\.suppress_errors ?= ?True\b|"
                             r"\bSet TORCHDYNAMO_VERBOSE=1 for the internal stack trace\b")
# TorchDynamo's [W] warning that a compiled function hit its recompile limit ("torch._dynamo hit
# config.cache_size_limit (64)"; torch 2.6+ "hit config.recompile_limit (8)"), each recompile caused by a guard failing
# (an input whose size changes: its "last reason: ... size mismatch at index 2"): Dynamo then runs that frame
# uncompiled and the process goes on -- a warning, no failure (lead rules K, N, T; round 96's pytorch-139474)
R_DYNAMO_RECOMPILE_LIMIT = re.compile(r"\btorch\._dynamo hit config\.(?P<what>cache_size_limit|recompile_limit|"
                                      r"accumulated_\w{1,40}limit) \((?P<n>\d{1,9})\)")
# torch's warning that the GPU's compute capability is not in the installed build's arch list ("NVIDIA GeForce RTX 3090
# with CUDA capability sm_86 is not compatible with the current PyTorch installation. The current PyTorch install
# supports CUDA capabilities sm_37 sm_50 ..."), or the source line the warnings module echoes under it
# ("warnings.warn(incompatible_device_warn.format(device_name, capability, ...))"): a build the GPU cannot run, shared
# by every process on that host (verdict.cuda._arch_unsupported, lead rule AF (2))
R_ARCH_UNSUPPORTED = re.compile(r"\bwith CUDA capability (?P<sm>sm_\d{2,3}) is not compatible with the current PyTorch "
                                r"installation|\bincompatible_device_warn\.format\(")
# Ascend's runtime failing a device call of a process's own NPU while it runs (torch_npu's NPU_CHECK_ERROR: "NPU
# function error: acl::AclQueryEventRecordedStatus(event_, &currStatus), error code is 507014", then "[Error]: The
# aicore execution times out."): a kernel of that NPU failed or hung, read like a CUDA error (lead rule AN (2)); the
# code is the runtime's (ACL_ERROR_RT_*), its meaning in verdict.cuda._accel_error
# torch_xla's XRT runtime losing the session it runs the process's graphs in ("Aborted: Session 1a625b17752b2794 is not
# found.", from loss.item() or any device call): the TPU server's runtime restarted under the process (its host out of
# memory, a crash, a version it cannot serve) -- the accelerator runtime failing that process's call, read like a CUDA
# error (lead rule AN (2)). xmp.spawn's child prints it first as "Exception in device=TPU:0: ..." (_mp_start_fn): the
# process on that device ordinal, its spawn index on one host (lead rule AL (2))
# torch_xla's XRT client failing its own session call to the TPU server ("RuntimeError: tensorflow/compiler/xla/
# xla_client/xrt_computation_client.cc:1198 : Check failed: session.Run({tensorflow::Output(result, 0)}, &outputs) ==
# ::tensorflow::Status::OK() (... vs. OK)", from xm.xla_device() -> _xla_get_devices at a child's start-up): the
# accelerator runtime's own call failing in that process, read like a CUDA error (lead rules AN (2), BG (7); rule CK
# (2): not the XRT mesh service's rendezvous texts, R_XRT_MESH; round 110's xla-1911). Only the session call's check:
# another CHECK of the client is its own bookkeeping
R_XRT_CLIENT_RUN = re.compile(r"\bxrt_computation_client\.cc:\d{1,5} ?: ?Check failed: session(?:\.|->)"
                              r"[\w.>()-]{0,40}?Run\(")
R_XRT_SESSION_LOST = re.compile(r"\bSession [0-9a-f]{8,32} is not found\b")
R_XLA_DEVICE_EXC = re.compile(r"\bException in device=(?:TPU|XLA|GPU):(?P<ord>\d{1,4}): ")
# Ascend's runtime codes for a wait that ran out (CANN's ACL_ERROR_RT_STREAM_SYNC_TIMEOUT 507046, _EVENT_SYNC_TIMEOUT
# 507047, _FFTS_PLUS_TIMEOUT 507048: "all tasks in the specified stream are not completed", "The execution of the
# internal task times out"): work that did not finish, no fault of the device -- read as a hang where a collective is
# shown, otherwise unread (lead rule BO (1)); 507014-507018 (the AI Core's / AI CPU's own timeout or exception) stay
# the device's error
NPU_WAIT_TIMEOUT_CODES = frozenset({507046, 507047, 507048})
R_NPU_RT_ERROR = re.compile(r"\bNPU function error: (?P<call>[^\n]{1,160}?),? error code is (?P<code>\d{1,7})\b")
# Ascend's runtime refusing the device id it was asked to map ("rtGetDeviceIndexByPhyId execute failed, reason=[device
# id error]", under HCCL's communicator creation; "EE9999 ... get error: phyid:0 realDeviceId:0 is err:0x7010003"
# above it): its "invalid device ordinal" -- a device index the process's NPUs do not have, which the launch (the
# visible devices, the local rank, a rank table) gave it (lead rules AN (2), AU (2), BA (5))
R_NPU_DEVICE_ID = re.compile(r"\b(?P<call>(?:rt|acl|Hal|hal)\w{2,60}) execute failed, reason=\[(?:invalid )?device id "
                             r"error\]")
# An accelerator's collective library failing one of its own internal checks, with no device runtime call shown
# failing -- read like ncclInternalError (lead rule BO (3)): Ascend's operator layer (nnopbase, under an aclnn
# operator such as the MC2 MoE dispatch) reporting that HCCL's own function returned HCCL_E_INTERNAL ("Nnopbase fails
# to invoke the HcclAllocComResourceByTiling function of the hccl module. ret = 4, comm = 0x..."; the aclnn error
# code above it, 561000, only carries it); Habana's HCCL returning hcclInternalError, its hcclGetErrorString "A device
# is busy or an internal check failed"; HCL's own failed check in its source ("hcl/src/.../credit_manager.cpp:31
# (allocNextCredit): The condition [ prevTargetValue != targetValue ] failed. No available intermediate buffer").
# HCCL's other return codes (a timeout, a socket, memory) are not this reading, nor an HCL check that names a setting
# of the host it refuses ("Invalid server type (4[OCP1]) requested": config, generic's reading; R_HCL_SETTING)
R_HCCL_MODULE_INTERNAL = re.compile(r"\bfails to invoke the (?P<fn>Hccl\w{1,80}) function of the hccl module\. ?"
                                    r"ret ?= ?4\b")
R_HCCL_INTERNAL_STR = re.compile(r"\bA device is busy or an internal check failed\b")
R_HCL_SETTING = re.compile(r"(?i)\bserver type\b|\bnot supported\b|\bunsupported\b|\binvalid\b")
R_HCL_CHECK = re.compile(r"[/\\]hcl[/\\][\w/\\.\-]{0,200}?(?P<file>\w{1,60})\.cpp::?\d{1,6} ?\((?P<fn>\w{1,80})\): The "
                         r"condition \[[^\]\n]{1,200}\] failed\.?(?P<said>[^\n]{0,160})")
# Ascend's error header before its codes ("[ERROR] 2024-05-21-11:57:54 (PID:927000, Device:3, RankID:3) ERR02200 DIST
# call hccl api failed."): the process's NPU and its rank (-1: none yet), for the error lines right below it
R_ASCEND_HEAD = re.compile(r"\(PID: ?\d{1,10}, Device: ?(?P<dev>\d{1,4}), RankID: ?(?P<rank>-?\d{1,7})\)")
# CANN's EC0010 (its graph engine / TBE compiler starting inside a process group's first HCCL call): "EC0010: Failed
# to import Python module [ModuleNotFoundError: No module named 'tbe.common.repository_manager...'.]" -- CANN's own
# Python packages (te, tbe, op_compile_tool) are not importable from the Python the job runs: the toolkit's
# environment (set_env.sh, its PYTHONPATH) not set, or an install that does not match -- the same on every worker
# (verdict.launch._cann_python_env)
R_CANN_PY_IMPORT = re.compile(r"\bE[A-Z]0010: Failed to import Python module \[(?P<exc>\w{1,40}Error): "
                              r"(?P<msg>[^\]\n]{1,300})")
# An Ascend device's own error beside it (review 105 (3) finding 3): the runtime's EE9999 / EZ9999 inner error, "The
# error from device(chipId:3, dieId:0)", "there is an aicore error" / "AI Core error": that NPU failed, not the
# toolkit's Python environment (readers.crash._cann_python_env: device_error)
R_ASCEND_DEVICE_ERROR = re.compile(r"\bE[EZ]9999\b|\berror from device\(|(?i:\bai ?core error\b)")
# An Ascend NPU kernel's own exception, as the runtime reports it under its EZ9999 inner error: "there is an exception
# of aivec error" / "there is an aicore error", "Kernel task happen error, retCode=0x31, [vector core exception]",
# "AIV Kernel happen error, retCode=0x31": a kernel on that device faulted (an out-of-bounds access of an AI Core /
# vector-core kernel), read like a CUDA illegal access (lead rules AN (2), BO (1)'s limit: an exception, not a wait
# timeout); the rank is the tag of the warning the block belongs to (readers.crash._npu_kernel_exc). Only a kernel's
# own fault kinds (vector core / aicore, their trap forms): an aicpu / sdma / hccl task's exception is what a rank
# waiting in a collective reports (review 107 finding 1)
R_NPU_KERNEL_EXC = re.compile(r"\bthere is an (?:exception of )?(?P<core>aivec|aiv|aicore|aic|vector core) error\b|"
                              r"\bKernel task happen error, retCode=(?P<ret>0x[0-9a-fA-F]{1,8}), "
                              r"\[(?P<what>(?:vector core|aicore)(?: trap)? exception)\]|"
                              r"\bAI[CV] Kernel happen error, retCode=(?P<ret2>0x[0-9a-fA-F]{1,8})")
# Ascend's inner-error warning that heads such a block, under a launcher's rank tag ("[rank0]:[W904 ...] Warning:
# EZ9999: Inner Error!", its code enough where a wrap cut the words): the rank of the device lines that follow it
R_ASCEND_INNER_WARN = re.compile(r"\bWarning: E[EZ]9999\b")
# A GPU-sharing interposer library in front of the CUDA driver (HAMi-core's libvgpu.so, preloaded in every process of
# a vGPU pod) failing in its own code: its own error line ("[HAMI-core ERROR (pid:2244 thread=... 
# multiprocess_memory_limit.c:1255)]: Illegal device id: 31069"), the kernel's "segfault at 0 ip ... error 4 in
# libvgpu.so[7efe...]", or a crash frame in its sources ("/libvgpu/src/...c") or library -- lead rule CH (1)
# (verdict.exits._interposer_crash); its Warn / Msg lines are only its start-up
R_INTERPOSER_ERROR = re.compile(r"\[HAMI-core ERROR \([^)\n]{0,160}\)\]: (?P<what>[^\n]{3,160})", re.IGNORECASE)
R_INTERPOSER_SEGV = re.compile(r"\bsegfault at \w{1,20} ip \w{1,20} sp \w{1,20} error \d{1,3} in "
                               r"(?P<lib>libvgpu\.so)\b")
R_INTERPOSER_FRAME = re.compile(r"/libvgpu/src/|\blibvgpu\.so\b")
# NCCL <= 2.2x names the two ranks; 2.27+ (init.cc) "Multiple Ranks are using the same GPU/Partition" does not.
# torch's communicator creation (NCCLComm::create in NCCLUtils.hpp/.cpp, ncclCommInitRank): an NCCL error raised
# there ("NCCL error in: .../NCCLUtils.hpp:78, invalid argument") is one of the set-up, not of a collective
R_NCCL_AT_INIT = re.compile(r"NCCLUtils\.(?:hpp|cpp):\d|ncclCommInitRank")
# torch's own check in front of it (ProcessGroupNCCL, PR 68666): "Duplicated GPU device is not allowed by NCCL. Rank
# [0] and rank [8] both attached to GPU device 0 on the same host HOST. Most likely your world_size is larger than
# the total number of GPUs" -- the same refusal, raised by c10d before NCCL sees it (round 107's pytorch-pr68666)
R_DUP_GPU = re.compile(r"(?:Duplicate GPU detected ?: rank |Duplicated GPU device is not allowed by NCCL\. Rank \[)"
                       r"(\d+)\]? and rank \[?(\d+)\]? both (?:on CUDA|attached to GPU) device (\w+)|"
                       r"Multiple Ranks are using the same GPU")
# A py-spy dump's frame of a thread stuck tearing its process group down: "    destroy_process_group
# (torch/distributed/distributed_c10d.py:2184)" (py-spy dump prints "function (file:line)", innermost first)
R_PYSPY_TEARDOWN = re.compile(r"^\s*(destroy_process_group|abort_process_group|_shutdown_backend|shutdown) "
                              r"\((?:\S*/)?distributed_c10d\.py:\d+\)")
# A py-spy dump's frame of a thread waiting in a collective of the process group ("    barrier
# (torch/distributed/distributed_c10d.py:2784)", "all_reduce (...distributed_c10d.py:1534)"): that process reached it
R_PYSPY_COLLECTIVE = re.compile(
    r"^\s*(monitored_barrier|barrier|all_reduce|all_gather(?:_into_tensor|_object)?|_all_gather_base|broadcast"
    r"(?:_object_list)?|reduce_scatter(?:_tensor)?|_reduce_scatter_base|all_to_all(?:_single)?|reduce|gather"
    r"(?:_object)?|scatter(?:_object_list)?) \((?:\S*/)?distributed_c10d\.py:\d+\)")
# py-spy's error when ptrace cannot stop a process to read its stack (py-spy's python_spy.rs: "Failed to suspend
# process"): beside dumps of the job's other processes, that process sits in the kernel (uninterruptible sleep)
R_PYSPY_UNSUSPENDED = re.compile(r"\bFailed to suspend process\b")
# A traceback frame where a rank's tensors are sized from counts its peers sent: a sharded model's distributed modules
# (torchrec's DistributedModelParallel forward, its KJT all-to-all and train pipeline: "torchrec/distributed/
# model_parallel.py", line 276, in forward) or c10d's all_to_all / all_gather call (split sizes, lengths exchanged)
R_EXCHANGE_FRAME = re.compile(r'[/\\]torchrec[/\\]distributed[/\\][\w/\\]{1,80}\.py", line \d{1,6}, in \w|'
                              r'distributed_c10d\.py", line \d{1,6}, in (?:all_to_all|all_gather)')
# A traceback frame of an RNG-state synchronisation: accelerate's synchronize_rng_state(s) (its DataLoader's
# __iter__ at each epoch) broadcasts rank 0's generator state and every other rank sets what it received
# ('File ".../accelerate/utils/random.py", line 127, in synchronize_rng_state'); a framework's sync_/broadcast_ alike
R_RNG_SYNC_FRAME = re.compile(r'", line \d{1,6}, in (?:synchroni[sz]e|sync|broadcast)_rng_states?\b')
# torch's generator refusing the contents of a state it is given (CPUGeneratorImpl::set_state's "Invalid mt19937
# state" and its size check "... but found the input RNG state size to be N"; CUDA's "RNG state is wrong size"): a
# state no generator produced
R_BAD_RNG_STATE = re.compile(r"\bInvalid mt19937 state\b|\bRNG state is wrong size\b|"
                             r"found the input RNG state size to be -?\d{1,20}")
# torch's cross-rank check of sharded-tensor metadata (torch.distributed._shard's build_global_metadata, which every
# rank runs on the metadata all-gathered from every rank): "ShardedTensor global_size property does not match from
# different ranks! Found global_size=torch.Size([3070]) on rank:0, and global_size=torch.Size([3068]) on rank:1." (its
# dtype / requires_grad / pin_memory alike). Not its local check of one rank's own shards ("Local shards' tensor size
# property need to be the same on rank:0!"), which compares no other rank.
R_XRANK_META = re.compile(r"\b(\w{1,40}) property does not match from different ranks! Found \w{1,40}=(.{1,80}?) on "
                          r"rank:? ?(\d{1,7}), and \w{1,40}=(.{1,80}?) on rank:? ?(\d{1,7})")
# DeepSpeed's cross-rank check before a collective (deepspeed/runtime/utils.py's assert_ints_same_as_other_ranks, which
# ZeRO-3's parameter fetch runs on the ids of the parameters it is about to all-gather): it broadcasts rank 0's list and
# raises on a rank whose own differs ("RuntimeError: disagreement between rank0 and rank6: rank0: [...], rank6: [...]")
R_DS_RANK0_DISAGREE = re.compile(r"\bdisagreement between rank0 and rank(\d{1,7}): rank0: \[")
# The printed result of a functional collective (torch.distributed._functional_collectives): AsyncCollectiveTensor's
# repr waits for its collective ("AsyncCollectiveTensor(" + the waited tensor's repr), so a process printing
# "AsyncCollectiveTensor(tensor([[1., 2.], ...], device='cuda:1'))" got through that collective
R_FUNCOL_RESULT = re.compile(r"\bAsyncCollectiveTensor\(tensor\(")
# A job's own print of a tensor it hands to a collective, its label naming the collective and followed by the tensor's
# repr (one line: its device) and its shape, as a debugging print writes them ("query_labels before all gather:
# tensor(3, device='cuda:1') torch.Size([21551]) torch.int64"); two processes' prints may be glued on one line, each
# found here. label: the print's own words before the repr (no colon), dev: the tensor's device, size: its shape
R_COLL_PRINT = re.compile(r"(?P<label>[A-Za-z_][\w .\-/]{0,80}?)\s{0,4}:\s{0,4}tensor\((?P<val>[^()]{0,400}?)"
                          r"device='(?P<dev>[a-z]{2,8}:\d{1,3})'(?:,\s{0,4}[\w=.<>]{1,60}){0,3}\)\s{0,4},?\s{0,4}"
                          r"torch\.Size\(\[(?P<size>[\d, ]{0,80})\]\)")
# A job's own print of a tensor's shape alone, labelled by the tensor's name ("gathered_logits shape: torch.Size([4,
# 906, 32020])", "x.shape = torch.Size([8, 512])"): read beside a gather's timeout by verdict.desync._gathered_shapes
# (lead rule BV (1)); label: the name before "shape"/"size", size: the shape
R_SHAPE_PRINT = re.compile(r"(?P<label>[A-Za-z_][\w.]{0,60}?)[ _.](?:shape|size\(\))\s{0,2}[:=]?\s{0,4}"
                           r"torch\.Size\(\[(?P<size>[\d, ]{1,80})\]\)")
# A job's own print of a tensor's shape that names the rank printing it and the collective it is about to hand the
# tensor to ("Rank 7 tensor before allreduce: torch.Size([32768000]) 1.0", "[rank3]: x before all_gather:
# torch.Size([4, 512])"): read per rank by verdict.desync._rank_shapes (lead rules D, AH (1), BV (1); round 98's
# nccl-1417). rank: the rank the print names, label: its words between that rank and the shape (not another rank's
# name: a launcher's "[rank0]: " before the job's own "Rank 7 ..." leaves the job's rank), size: the shape
# (a qualified rank -- "local rank 0", "tp rank 1", "dp_rank 2", "node rank 1" -- is no global rank: two nodes' local
# rank 0 would merge under one number; the second review of session 38's fixes, finding 2)
R_RANK_SHAPE_PRINT = re.compile(r"(?i)(?<!local )(?<!local_)(?<!local-)(?<!tp )(?<!dp )(?<!pp )(?<!ep )(?<!cp )"
                                r"(?<!sp )(?<!node )(?<!group )(?<!tp_)(?<!dp_)(?<!pp_)"
                                r"\brank\s{0,2}[:=#]?\s{0,2}(?P<rank>\d{1,5})\b\]?[:,]?\s{1,4}"
                                r"(?P<label>(?!rank\s{0,2}[:=#]?\s{0,2}\d)[a-z_][\w .\-/]{0,80}?)\s{0,2}[:=]?\s{0,4}"
                                r"torch\.Size\(\[(?P<size>[\d, ]{1,80})\]\)")
# a step / iteration / epoch counter before a printed shape's label ("step 3 gathered_logits shape: ..."): the
# prints are one process's history over steps, not one print per process (verdict.desync._gathered_shapes)
R_SHAPE_PRINT_STEP = re.compile(r"\b(?:step|iter|iteration|epoch|batch|it)\s{0,3}[:=#]?\s{0,3}\d")
# A job's own print, as a process enters a subgroup's barrier, of the number it prints itself by and the members of
# the subgroup it is in ("0 before barrier: [0, 3]", "rank 2 entering barrier: [1, 2]", under srun's "3: " label too):
# id: the printed number (the job's print, not a rank tag), label: the words before "barrier", members: the list
R_GROUP_ENTER = re.compile(r"^\s*(?:\d{1,5}:\s{1,4})?(?:\[?(?:rank|Rank|RANK)\s{0,2})?(?P<id>\d{1,5})\]?[:,]?\s{1,4}"
                           r"(?P<label>(?:[A-Za-z][\w-]{0,30}\s{1,3}){0,3})barrier\s{0,2}:\s{0,2}"
                           r"\[(?P<members>\d{1,5}(?:\s{0,2},\s{0,2}\d{1,5}){0,63})\]\s*$")
# the same process's print that it got past that barrier ("0 done", "rank 3 finished", "2 after barrier", "1 passed
# barrier: [1, 2]"), read as a follow line of the enter prints (parse._group_print)
R_GROUP_PAST = re.compile(r"^\s*(?:\d{1,5}:\s{1,4})?(?:\[?(?:rank|Rank|RANK)\s{0,2})?(?P<id>\d{1,5})\]?[:,]?\s{1,4}"
                          r"(?:done|finished|passed(?: the)? barrier|after(?: the)? barrier|past(?: the)? barrier)"
                          r"(?:\s{0,2}:\s{0,2}\[[\d, ]{1,400}\])?[\s.!]*$")
# A job's own print of a tensor it received in a point-to-point exchange, its label naming the receive ("1:recv_tensor=
# tensor([2.8026e-45, 0.0000e+00], device='cuda:0')", "rank 0 received: tensor([...])"): vals, the printed values
R_RECV_PRINT = re.compile(r"(?i)(?P<label>\b\w{0,40}?(?:i?recv|receiv|rcv)\w{0,40})[^\n]{0,60}?\btensor\(\["
                          r"(?P<vals>[^()]{1,2000}?)\]")
# a printed float (torch's repr: "0.", "2.8026e-45", "-1.5000e+00")
R_PRINTED_FLOAT = re.compile(r"[-+]?(?:\d{1,40}\.?\d{0,40}|\.\d{1,40})(?:[eE][-+]?\d{1,3})?")
# A job's own print of torch's rank and world size (get_rank / get_world_size: "hello from rank -1, world size -1",
# "rank: -1 world_size: -1", "world size -1, rank -1"): rank and size as printed
R_RANK_SIZE_PRINT = re.compile(r"(?i)\brank\s{0,2}[:=]?\s{0,2}(?P<rank>-?\d{1,7})\b[^\n]{0,80}?\bworld[ _]?size"
                               r"\s{0,2}[:=]?\s{0,2}(?P<size>-?\d{1,7})\b|\bworld[ _]?size\s{0,2}[:=]?\s{0,2}"
                               r"(?P<size2>-?\d{1,7})\b[^\n]{0,80}?\brank\s{0,2}[:=]?\s{0,2}(?P<rank2>-?\d{1,7})\b")
# A py-spy dump's thread header ('Thread 4939 (idle): "MainThread"', 'Thread 0x7F1C (active+gil): "MainThread"'):
# py-spy dump reads a live process's stacks -- taken while a job hangs or stalls, it shows that process alive
R_PYSPY_THREAD = re.compile(r'^\s*Thread (?:0x[0-9A-Fa-f]{1,16}|\d{1,10}) \((?:idle|active|active\+gil|gil)\): '
                            r'"[^"]{0,80}"\s*$')
# A frame of a thread-stack dump that a signal handler prints from a live process (the widely copied "dumpstacks"
# recipe: for each thread of sys._current_frames(), traceback.extract_stack's frames written 'File: "%s", line %d, in
# %s' under a "# ThreadID: N" or "### ProcessID=N, ThreadID=N ###" header): Python's own traceback writes 'File "'
# with no colon. Like py-spy's dump it shows a process alive where it stands (readers.nccl, verdict.signals)
R_STACK_DUMP_FRAME = re.compile(r'^\s*File: "[^"\n]{1,1000}", line \d{1,7}, in [\w<>.\-]{1,200}\s*$')
# faulthandler's header of one thread's stack ("Thread 0x00007f57caf71740 (most recent call first):", "Current thread
# 0x... (most recent call first):"), its frames 'File "x.py", line 95 in synchronize' (no comma) below: the process
# printed where each thread stood -- on a signal (faulthandler.register), a timer (dump_traceback_later) or a fatal
# error, whose "Fatal Python error:" header readers.crash reads first. Not c10's "Exception raised from f at x.cpp:12
# (most recent call first):", which is an exception's own backtrace (readers.nccl, verdict.signals._pyspy_bare)
R_FAULTHANDLER_THREAD = re.compile(r"^\s*(?:Current thread|Thread) 0x[0-9A-Fa-f]{1,16} \(most recent call first\):\s*$")
# a faulthandler frame of torch.distributed's own collective ('File ".../distributed_c10d.py", line 3230 in
# scatter'): the thread stands inside that call
R_FH_C10D_FRAME = re.compile(r'distributed_c10d\.py", line \d{1,7} in (?P<op>\w{1,60})\s*$')
# a faulthandler frame of a collective call, torch.distributed's own or a serving engine's NCCL wrapper (vLLM's and
# SGLang's pynccl.py / pynccl_wrapper.py: 'File ".../pynccl.py", line 126 in all_reduce', '... in ncclAllReduce'): the
# crashing thread stood inside that collective (readers.crash._fatal_stack, verdict.exits._fatal_python). Not a set-up
# call of the same files (init_process_group, new_group, the communicator's __init__)
R_FH_COLL_FRAME = re.compile(r'(?:distributed_c10d|pynccl(?:_wrapper)?)\.py", line \d{1,7} in (?P<op>_?(?:all_reduce|'
                             r'all_gather|reduce_scatter|all_to_all|alltoall|broadcast|reduce|barrier|send|recv|isend|'
                             r'irecv|gather|scatter)\w{0,40}|nccl(?:AllReduce|AllGather|ReduceScatter|Broadcast|Reduce|'
                             r'Send|Recv|AllToAll|GroupEnd)\w{0,20})\s*$')
# ... a serving engine's NCCL wrapper creating a communicator (sglang's / vLLM's pynccl_wrapper.py "in
# ncclCommInitRank"): the crashing thread in NCCL's communicator set-up, not a collective (round 110's sglang-3451)
R_FH_COMM_INIT_FRAME = re.compile(r'pynccl(?:_wrapper)?\.py", line \d{1,7} in (?P<op>ncclCommInitRank\w{0,20})\s*$')
# a debugger's prompt asking for a process's stacks ("(gdb) bt", "(cuda-gdb) info cuda kernels", "(gdb) thread apply
# all bt"): gdb / cuda-gdb attached to, or running, the process whose frames ("#6  0x00007f67 in f () from lib.so")
# follow -- a stack shown, not a failure (readers.nccl, verdict.signals._pyspy_bare)
R_GDB_STACK_PROMPT = re.compile(r"^\s*\((?:cuda-)?gdb\) (?:bt|backtrace|where|thread apply|info (?:threads|stack|cuda)"
                                r"|py-bt)\b")
# a debugger's frame ("#8  0x00007f67aa03146d in c10d::ProcessGroupNCCL::initNCCLComm(...)") inside NCCL's
# communicator creation: the process waits in ncclCommInitRank for the communicator's other members
# The head of a debugger's backtrace frame, up to its function: gdb's "#8  0x00007f67aa03146d in " (the pc left out
# for a frame with source lines: "#8  f (...) at x.cc:12"), lldb's "    frame #3: 0x00007fb090db1068 libtorch_cuda.so`"
# (its module, then a backquote; "  * frame #0: " for the selected frame)
_DBG_FRAME_HEAD = (r"^\s*(?:#\d{1,3}\s{1,4}(?:0x[0-9A-Fa-f]{1,16} in )?|(?:\*\s{1,4})?frame #\d{1,3}: "
                   r"0x[0-9A-Fa-f]{1,16} [\w.+-]{1,120}`)")
R_GDB_COMM_INIT = re.compile(_DBG_FRAME_HEAD + r"(?:c10d::)?(?:ProcessGroupNCCL::"
                             r"initNCCLComm|NCCLComm::create|p?ncclCommInitRank\w{0,12})\b")
# A debugger's backtrace frame pasted without the prompt that asked for it ("#6  0x00007f4d8f657622 in
# c10d::ProcessGroupNCCL::groupEnd() () from .../libtorch_cuda.so"): gdb's own frame format -- its number, the pc, "in"
# and the function -- of a frame inside NCCL or c10d's NCCL process group, the only such frames the trigger words let
# through (readers.nccl._stack_dump: a stack shown, read like R_GDB_STACK_PROMPT's; lead rules BD (2), AB (2))
# A function with no argument list printed (no debug information: "in ncclGroupEnd () from ...") ends at " (".
R_GDB_FRAME_NCCL = re.compile(r"^\s*#\d{1,3}\s{1,4}0x[0-9A-Fa-f]{4,16} in [\w:~<>]{0,200}?(?:NCCL|nccl)\w{0,60}"
                              r"(?:[(:]| \()")
# lldb's backtrace frame of the same ("    frame #3: 0x00007fb090db1068 libtorch_cuda.so`c10d::ProcessGroupNCCL::
# abort() + 664", "  * frame #0: 0x... libnccl.so.2`ncclCommAbort + 40"): its number, the pc, the module and, after a
# backquote, a function inside NCCL or c10d's NCCL process group -- lldb's "bt" / "thread backtrace" of a live process
# it stopped, read as gdb's frame is (readers.nccl._stack_dump; round 99's pytorch-149153)
R_LLDB_FRAME_NCCL = re.compile(r"^\s*(?:\*\s{1,4})?frame #\d{1,3}: 0x[0-9A-Fa-f]{4,16} [\w.+-]{1,120}`"
                               r"[\w:~<>]{0,200}?(?:NCCL|nccl)\w{0,60}(?:[(:]| \+ \d|\s*$)")
# lldb's header of a thread it stopped on a crash signal ("* thread #7, name = 'python', stop reason = signal SIGSEGV:
# invalid address"): the frames below it are a crash's, not a live process's stack (its SIGSTOP / SIGINT when the
# debugger attached or was interrupted is), so they are not read as a stack shown (readers.nccl._stack_dump)
R_LLDB_CRASH_STOP = re.compile(r"^\s*(?:\*\s{1,4})?thread #\d{1,6}\b[^\n]{0,300}?, stop reason = signal "
                               r"SIG(?:SEGV|BUS|FPE|ILL|ABRT|SYS)\b")
# gdb's own line of a process stopped or ended by a crash signal ("Program terminated with signal SIGSEGV,
# Segmentation fault." over a core dump, "Thread 12 \"python\" received signal SIGSEGV, Segmentation fault." /
# "Program received signal SIGBUS, Bus error." in a live session; old gdb's "signal 11, Segmentation fault."): the
# frames after it are that crash's, as under R_LLDB_CRASH_STOP -- read as the crash itself (readers.crash,
# verdict.exits._nccl_crash / _native_crash), never as a stack shown while the job sat still (review 98 finding 3)
R_GDB_CRASH_STOP = re.compile(r"^\s*(?:Program terminated with|Program received|Thread \d{1,6}(?: \"[^\"\n]{0,64}\")? "
                              r"received) signal (SIG(?:SEGV|BUS|FPE|ILL|ABRT|SYS)|4|6|7|8|11), ([A-Z][\w ]{1,40})")
# ... a gdb frame of that crash ("#0  0x00007f3a1c2b5e10 in ncclProxyProgress () from /usr/lib/.../libnccl.so.2", the
# stop's own "0x00007fff2c3d1e10 in ncclProxyProgress () from ...", "#3  ncclProxyProgress (s=0x..) at proxy.cc:12",
# C++'s "#0  0x... in c10d::ProcessGroupNCCL::workCleanupLoop() () from .../libtorch_cuda.so", "#1  0x... in ?? ()"):
# its function ("??" where gdb has none) and, where gdb names it, its library's file
R_GDB_CRASH_FRAME = re.compile(r"^\s*(?:#\d{1,3}\s{1,4}(?:0x[0-9A-Fa-f]{1,16} in )?|0x[0-9A-Fa-f]{4,16} in )"
                               r"(\?\?|[A-Za-z_][\w:~<>.]{0,200}?) ?\((?:[^\n]{0,600}? from \S{0,300}?/?"
                               r"(lib[\w\-+]{1,80}?\.so)[.\d]{0,16}\s*$)?")
# ... the source location such a frame names where the library has its symbols and line tables ("#0  0x00007f1f in
# pathDistance (links=<optimized out>) at graph/topo.cc:618"): the file, as the build recorded it
R_DBG_FRAME_SRC = re.compile(r"\)\s{1,4}at\s{1,4}(/?(?:[\w.+\-]{1,80}/){0,12}[\w.+\-]{1,80}\."
                             r"(?:cc|cpp|cxx|c|cu|cuh|h|hpp)):\d{1,6}\s*$")
# NCCL's topology code: its graph/ sources (topo.cc, paths.cc, search.cc, xml.cc ...: the detection of the host's
# PCI / NVLink / NIC tree and the search of rings and trees over it at communicator init) and its ncclTopo functions
R_NCCL_TOPO_SRC = re.compile(r"(?:^|/)graph/(?:topo|paths|search|connect|rings|trees|tuning|xml)\.(?:cc|h)$")
R_NCCL_TOPO_FUNC = re.compile(r"^p?ncclTopo[A-Z]\w*$")
# A debugger's frame of NCCL's kernel launch (gdb's "#12 0x... in ncclLaunchKernel(ncclComm*, ncclKernelPlan*) ()",
# "#11 ... in ncclStrongStreamLaunchKernel(...)"; lldb's "frame #2: ... libnccl.so.2`ncclLaunchKernel + 88"): above it
# only the CUDA runtime and driver (cudaLaunchKernel) -- the process waits for the launch itself to return
R_DBG_NCCL_LAUNCH = re.compile(_DBG_FRAME_HEAD + r"p?nccl(?:StrongStream)?LaunchKernel\b")
# A debugger's frame of the teardown of NCCL communicators: c10d's ProcessGroupNCCL::abort / shutdown (torch 2.6+
# waits in waitForFutureOrTimeout for the abort it runs on another thread), NCCLComm::abort, NCCL's own
# ncclCommAbort / ncclCommDestroy / ncclCommFinalize -- the process is stuck tearing NCCL down (R_PYSPY_NCCL_ABORT's
# reading, from gdb or lldb)
R_DBG_NCCL_ABORT = re.compile(_DBG_FRAME_HEAD + r"(?:c10d::)?(?:ProcessGroupNCCL::(?:abort\w{0,20}|shutdown)|"
                              r"NCCLComm::(?:abort|destroy|ncclCommAbort)|p?nccl(?:CommAbort|CommDestroy|CommFinalize))\b")
# A frame of a coalesced group's end: ProcessGroupNCCL::endCoalescing / groupEnd, NCCL's own ncclGroupEnd (gdb's
# "#7  0x... in c10d::ProcessGroupNCCL::endCoalescing(c10d::OpType) ()"): the process waits in ncclGroupEnd for the
# peers of the point-to-point ops (batch_isend_irecv, _coalescing_manager) it grouped
R_GDB_GROUP_END = re.compile(_DBG_FRAME_HEAD + r"(?:c10d::)?(?:ProcessGroupNCCL::"
                             r"(?:endCoalescing|groupEnd)|p?ncclGroupEnd\w{0,12})\b")
# py-spy top's row of one function ("100.00% 100.00%   241.8s    241.8s   _coalescing_manager
# (torch/distributed/distributed_c10d.py:1978)": %Own, %Total, OwnTime, TotalTime, the function and its file): top
# samples a live process, so a torch.distributed function holding (nearly) all of its samples is where it sat
R_PYSPY_TOP_C10D = re.compile(r"^\s*\d{1,3}(?:\.\d{1,2})?%\s{1,8}(?P<total>\d{1,3}(?:\.\d{1,2})?)%\s{1,8}[\d.]{1,12}s"
                              r"\s{1,8}[\d.]{1,12}s\s{1,8}(?P<func>\w{1,80}) "
                              r"\((?:\S{0,200}/)?distributed_c10d\.py:\d{1,7}\)")
# A py-spy dump's frame line ("    commFree (init.cc:180)", "    c10d::ProcessGroupNCCL::abort (libtorch_cuda.so)",
# "    0x155555277197 (libc.so.6)", "    run (threading.py:870)"): a function and where it is, below a thread header; a
# stack frame, not a line announcing a failure, whatever its function is called (abort, fail, error)
R_PYSPY_FRAME = re.compile(r"^\s{2,12}[\w:.<>~$@-]{1,200} \([\w.+-]{1,80}(?::\d{1,7})?\)\s*$|"
                           r"^\s{2,12}[\w:.<>~$@-]{1,200} \([^()\s]{1,300}:\d{1,7}\)\s*$")
# A py-spy dump's frame of a thread inside NCCL's communicator abort or destroy ("    ncclCommAbort (init.cc:1931)",
# "    c10d::NCCLComm::ncclCommAbort (libtorch_cuda.so)"), the thread stuck tearing its communicator down
R_PYSPY_NCCL_ABORT = re.compile(r"^\s{2,12}(?:\w{1,60}::){0,4}(ncclCommAbort|ncclCommDestroy|ncclCommFinalize) \(")
# Two ranks on one GPU without NCCL's "Duplicate GPU" words: two processes of one host print the same
# communicator size and PCI bus id ("comm 0x.. rank 1 nranks 2 cudaDev 0 busId 86000 - Abort COMPLETE"), or a
# rank whose own device is [D] fails to get the CUDA IPC handle of its peer's device D (NCCL 2.0-2.3, p2p.cu:
# "rank 1 failed to get CUDA IPC handle to device 0 : 11 invalid argument": IPC to one's own device fails)
R_COMM_BUSID = re.compile(r"\brank (\d+) nranks (\d+) cudaDev \d+ (?:nvmlDev \d+ )?busId (\w+)")
# NCCL's line for a communicator it tore down (init.cc: "comm 0x.. rank 14 nranks 16 cudaDev 6 busId c1000 - Abort
# COMPLETE"): that rank's process aborted its communicator -- torch's watchdog does so after a timeout or error
# The watchdog's timeout stack printed without its message line (c10::Error's "frame #1: c10d::ProcessGroupNCCL::
# WorkNCCL::checkTimeout(std::optional<...>) + 0x1d2 (0x.. in .../libtorch_cuda.so)"): the error is built only when a
# collective of this process ran past its timeout
R_CHECK_TIMEOUT_FRAME = re.compile(r"frame #\d{1,3}: c10d::ProcessGroupNCCL::WorkNCCL::checkTimeout\b")
R_COMM_ABORTED = re.compile(r"\bnranks \d+\b.{0,80}- Abort COMPLETE")
# a communicator destroyed after its run (ncclCommDestroy's "comm 0x... rank 3 nranks 4 cudaDev 3 busId 9000 - Destroy
# COMPLETE"): state.Collected.destroyed, the ranks whose communicator ended cleanly (verdict.unread._side_bind)
R_COMM_DESTROYED = re.compile(r"\bnranks \d+\b.{0,80}- Destroy COMPLETE")
# a job's own log line printing a value under the name NCCL_TIMEOUT with its unit ("MAIN : NCCL_TIMEOUT = 1800000
# ms"): the job's parameter, not NCCL's or torch's setting (lead rule CJ (2); an export or NCCL's "set by environment"
# has no unit after the value)
R_JOB_NCCL_TIMEOUT = re.compile(r"(?<![\w-])NCCL_TIMEOUT\s{0,3}[=:]\s{0,3}\d{1,12}\s{0,2}(?:ms|s|sec|secs|seconds|"
                                r"milliseconds|min|minutes)\b")
R_COMM_ID = re.compile(r"\bcommId (0x[0-9a-fA-F]{1,20})")
R_IPC_DEV = re.compile(r"rank (\d+) failed to (?:get|open) CUDA IPC handle to device (\d+)")
# NCCL's /dev/shm failures, 2.12-2.30 wordings (misc/shmutils.cc, os/linux.cc): "Error while creating shared
# memory segment", "failed to create shared memory file", "failed to extend /dev/shm/nccl-X", "Could not map".
# Open MPI's own shared-memory transport failing on a system call of the host (lead rule J): the vader BTL's
# single-copy (CMA, process_vm_readv) refused ("[host:pid] Read -1, expected 321120, errno = 1": EPERM, a container
# without ptrace permission), or opal's shmem mmap component ("A system call failed during shared memory
# initialization that should not have", aggregated as "help-opal-shmem-mmap.txt / sys call fail"); and the same
# single copy refused under PSM2/PSM3 (libfabric's psm3 provider, Intel MPI and oneCCL's transport), in its own words:
# "host:rank1.prog: Reading from remote process' memory failed. Disabling CMA support" (its ptl_am shared-memory
# path, which then fails on: "Assertion failure at psm3/ptl_am/ptl.c:196: nbytes == req->req_data.recv_msglen")
R_MPI_SHM = re.compile(r"\bRead -1, expected \d{1,15}, errno = (\d{1,4})\b|"
                       r"(A system call failed during shared memory initialization|"
                       r"help-opal-shmem-mmap\.txt / sys call fail)|"
                       r"(Reading from remote process'? ?s? memory failed\.? ?Disabling CMA support)")
R_SHM = re.compile(r"posix_fallocate failed|shared memory (?:segment|file)|failed to extend \S*/dev/shm|"
                   r"Could not map \S*/dev/shm")
# NCCL's WARN prefix names its source location ("host:pid:tid [dev] misc/shmutils.cc:72 NCCL WARN <text>"; INFO lines
# carry none), and every WARN of misc/shmutils.cc is a /dev/shm segment failing (creating, extending, mapping,
# attaching): that location with the message cut off after it (a paste ending at "NCCL") is still one of them
R_SHM_WARN_CUT = re.compile(r"\[\d{1,3}\] (?:[\w.\-]{0,80}/)?shmutils\.cc:\d{1,6}(?: NCCL(?: WARN)?)?\s*$")
# NCCL's return-code trail at INFO level: "NCCL INFO bootstrap.cc:270 -> 2" (2 system,
# 3 internal, 5 invalid usage, 6 remote error); the first file names the failing layer. A vendor fork's build may
# print its source path ("INFO /ACCL-P/src/group.cc:74 -> 5") and the trail's lines at WARN level (R_WARN_RETCODE).
R_RETCODE = re.compile(r"(?:NCCL )?(?:INFO|WARN) (?:[\w/.\-]{0,200}/)?(\w+\.(?:cc|h|cu)):\d+ -> (\d)\b")
# an NCCL WARN whose whole text is a return code ("NCCL WARN init.cc:1815 -> 5"): a trail line, not a message
R_WARN_RETCODE = re.compile(r"^(?:[\w/.\-]{0,200}/)?\w{1,80}\.(?:cc|h|cu):\d{1,6} -> \d(?: \[[\w ]{1,40}\])?$")
# "Bootstrap : Using [0]eth0:10.1.2.3<0>" (the index is gone in 2.2x: "Using ib0:fe80::1%ib0<0>"); NCCL_DEBUG's
# NET/Socket list may be printed one interface a line after a bare "NET/Socket : Using" (R_IFACE_LINE)
# (NCCL 2.3 prints one interface a line, "NET : Using interface lo:127.0.0.1<0>")
R_IFACES = re.compile(r"(?:Bootstrap|NET/Socket|NET) ?: ?Using (?:interface )?((?:\[\d+\])?[\w.\-]+:[^\n]{1,400})")
R_IFACE = re.compile(r"(?:\[\d+\]|^|\s)([\w.\-]+):([^<\s]+)<")
R_IFACE_LIST = re.compile(r"NET/Socket ?: ?Using\s*$")
R_IFACE_LINE = re.compile(r"^\s*\[\d+\]([\w.\-]+):([^<\s]+)<\d+>\s*$")
# The agent's "Received 15 death signal" (Python 3.11+ prints the number; 3.8-3.10 "Signals.SIGTERM") and
# torch.distributed.elastic.multiprocessing.api's "SignalException: Process 27541 got signal: 15".
R_DEATH_SIGNAL = re.compile(r"Received (\d{1,2}|Signals\.SIG[A-Z]{2,6}) death signal|"
                            r"SignalException: Process \d+ got signal: (\d{1,2}|Signals\.SIG[A-Z]{2,6})")
# The same exception's message alone on its line ("    Process 107 got signal: 15"), as a framework that wraps the
# launch prints str(exc) under its own header (flytekit's "Message:" block): the agent's process got that signal.
R_DEATH_SIGNAL_BARE = re.compile(r"^\s*Process \d{1,10} got signal: (\d{1,2}|Signals\.SIG[A-Z]{2,6})\s*$")
# A native crash handler's report (UCX's "[host:pid:0:tid] Caught signal 11 (Segmentation fault: ...)", then
# "==== backtrace (tid: N) ====" and one " 3  /path/libnccl.so(+0x120057) [0x...]" frame a line)
# A child process whose target raised: multiprocessing's BaseProcess._bootstrap prints "Process SpawnProcess-1:3:" on
# a line of its own, then the traceback (a launcher's prefix may name its rank: "(VllmWorker rank=2 pid=825)"); and
# vLLM's multiprocess executor noticing it ("MulitprocExecutor got fatal signal from worker processes, shutting down.
# See stack trace above for root cause issue." -- its spelling): a worker failed, its exception in its own traceback.
R_PROC_RAISED = re.compile(r"^Process (?:Spawn|Fork|ForkServer)?Process-\d{1,6}(?::\d{1,6}){0,4}:\s*$")
R_EXECUTOR_FATAL = re.compile(r"\w{0,40}Executor got fatal signal from worker processes")
# GASNet's (Legion, FlexFlow, Chapel, UPC++) own handler of a fatal signal, naming the process that caught it: "***
# Caught a fatal signal (proc 0): SIGABRT(6)" -- that process's own death (lead rule A), its cause the error it printed
# just before
R_GASNET_SIGNAL = re.compile(r"\*\*\* Caught a fatal signal \(proc (\d{1,7})\): (SIG[A-Z]{2,8})\((\d{1,2})\)")
R_CAUGHT_SIGNAL = re.compile(r"Caught signal (\d{1,2}) \(([A-Za-z ]+)")
# A fatal-signal handler's banner that vLLM, SGLang, TensorRT-LLM and Megatron / Transformer Engine processes print on
# SIGSEGV ("!!!!!!! Segfault encountered !!!!!!!"), then the native stack in Python's frame format, one a line:
# '  File "<unknown>", line 0, in mz_zip_writer_add_mem_ex_v2' -- the process that prints it died of SIGSEGV
R_SEGFAULT_BANNER = re.compile(r"!{3,10} ?Segfault encountered ?!{3,10}")
R_BANNER_FRAME = re.compile(r'\bFile "[^"\n]{1,1000}", line \d{1,7}, in ([^\s(]{1,300})')
# ... a frame of torch's checkpoint zip writer (torch.save: PyTorchStreamWriter::writeRecord -> miniz's
# mz_zip_writer_add_mem_ex_v2 -> crc32) in a crash's backtrace: it died writing a checkpoint (verdict.exits)
R_ZIP_WRITER_FRAME = re.compile(r"\bmz_zip_writer_\w{1,40}|\bPyTorchStreamWriter::")
# Megatron's or NeMo's own name in a line ("megatron/core/dist_checkpointing", "[NeMo I ... nemo_logging:393]"):
# the zip writer's fix names their dist checkpointing only then (verdict.exits._zip_writer_fix; review r2)
R_MEGATRON_NEMO = re.compile(r"[Mm]egatron|MEGATRON|(?<![A-Za-z])(?:NeMo|nemo|NEMO)(?![A-Za-z])")
# c10's own handler of a fatal signal (torch's FatalSignalHandler, TORCH_SHOW_CPP_STACKTRACES / the test harness):
# "SIGABRT(6), PID: 4119976, Thread 4119976:", then its c10 frames, one a line: "frame #2: ccl_request::is_completed()
# const + 0xb (0x7f01ff84e70b in /opt/intel/oneapi/lib/libccl.so.1)" -- that process (pid) died of that signal
R_C10_SIGNAL = re.compile(r"\b(SIG[A-Z]{2,6})\((\d{1,2})\), PID: (\d{1,10}), Thread \d{1,10}:")
R_C10_FRAME = re.compile(r"\bframe #\d{1,3}: (?P<fn>[^\n]{1,300}?) \+ 0x[0-9a-f]{1,16} \(0x[0-9a-f]{1,16} in "
                         r"(?P<path>[^\s()]{1,300})\)")
# Abseil's FailureSignalHandler (Ray's raylet and core workers, TensorFlow, JAX): "*** SIGBUS received at
# time=1717171717 on cpu 12 ***", then "PC: @ ..." and "    @     0x... ray::ObjectManager::..." frames.
R_ABSL_SIGNAL = re.compile(r"\*\*\* (SIG[A-Z]{2,6}) received at time=\d{1,12}")
# Open MPI's own handler of a fatal signal (opal's stacktrace, in every process mpirun starts): "[host:00121] ***
# Process received signal ***", then "[host:00121] Signal: Bus error (7)", "Signal code: ...", "Failing at address:
# 0x...", one "[host:00121] [ 1] /path/mpi_lib.so(+0x78ce0)[0x7f...]" frame a line and "*** End of error message ***":
# that process (host, pid) died of that signal; mpirun's --tag-output prefix ("[1,3]<stderr>:") names its rank
R_OMPI_SIGNAL = re.compile(r"\[([\w.\-]{1,255}):(\d{1,10})\] Signal: ([A-Za-z][A-Za-z ]{1,40}?) \((\d{1,2})\)")
# ... its first line, "[host:pid] *** Process received signal ***", the signal's name on the next line
R_OMPI_RECEIVED = re.compile(r"\[([\w.\-]{1,255}):(\d{1,10})\] \*\*\* Process received signal \*\*\*")
R_OMPI_HANDLER = re.compile(r"^\s*\[[\w.\-]{1,255}:\d{1,10}\] (?:Signal code: |Failing at address: |"
                            r"\*\*\* End of error message|"
                            r"\[ {0,3}\d{1,3}\] (?:(?:\S*/)?([\w\-+.]{1,80}?\.so)[.\d]*[(\[\s]|))")
# ... an Open MPI frame's exported symbol after its library's file ("libpython2.7.so.1.0(PyOS_AfterFork+0x45)[0x..]":
# PyOS_AfterFork), and the installed package a frame's file is part of (".../site-packages/horovod/torch/mpi_lib_v2.so":
# horovod; a .egg directory's own name up to its version)
R_OMPI_FRAME_SYM = re.compile(r"[.\d]{0,16}\(([A-Za-z_]\w{0,200})\+0x")
R_SITE_PACKAGE = re.compile(r"[/\\](?:site|dist)-packages[/\\]([A-Za-z_][\w.]{0,80}?)(?:-\d[\w.+-]{0,40}\.egg)?[/\\]")
R_CAUGHT_PID = re.compile(r"\[[\w.\-]{1,100}:(\d{1,10}):\d{1,4}:\d{1,10}\]\s*Caught signal")
# ... a frame of the same numbered backtrace in a shared object not named lib*.so (" 3  linux-vdso.so.1(__kernel_rt_
# sigreturn+0) [0x...]", the kernel's signal return): the backtrace goes on past it
R_OTHER_SO_FRAME = re.compile(r"^\s*\d{1,3}\s+[\w./\-+]{1,300}\.so[.\d]{0,16}\(")
# Abseil's failure signal handler's frames under its "*** SIGSEGV received at time=... ***" ("PC: @ 0x7f0c73d2944a
# (unknown) addProxyOpIfNeeded()", "    @ 0x7f62fb1b8520 (unknown) (unknown)"; Ray's copy behind "[... E 5993 5993]
# logging.cc:440: "): the program counter's function, where the symbols are there (verdict.exits._native_crash)
R_ABSL_FRAME = re.compile(r"(?:^|\s)(?:PC: )?@\s+0x[0-9a-fA-F]{1,16}\s+(?:\(unknown\)|\d{1,12})\s+"
                          r"(?:([A-Za-z_][\w:]{0,200})\(\)|\S)")
R_FRAME = re.compile(r"^\s*#?\d{1,3}\s+(?:0x[0-9a-f]+ in )?\S*?/?(lib[\w\-+.]*?\.so)[.\d]*[(\s]")
# UCX's crash handler's frame without a library, one a line: " 1 0x0000000000044400 ompi_dpm_group_is_dyn()  /src/ompi/
# dpm/dpm.c:1267" -- the function that crashed (an MPI library's names it: ompi_, opal_, mca_, PMPI_)
R_FUNC_FRAME = re.compile(r"^\s*\d{1,3}\s+0x[0-9a-f]{4,16}\s+([A-Za-z_]\w{0,200})\(\)")
# ... a frame of the same backtrace whose function is unnamed ("???()") or a C++ one ("std::vector<void*,
# std::allocator<void*> >::resize()", "ze_cmd_memory_copy::ze_call()"): the backtrace goes on; a method's
# "Class::method" read from it (oneCCL's own classes: verdict.exits._ccl_frames_fix)
R_ANY_FUNC_FRAME = re.compile(r"^\s*\d{1,3}\s+0x[0-9a-f]{4,16}\s+\S")
R_METHOD_FRAME = re.compile(r"^\s*\d{1,3}\s+0x[0-9a-f]{4,16}\s+(\w{1,100}::\w{1,100})\(\)")
R_MPI_FUNC = re.compile(r"^(?:ompi|opal|orte|mca|pmix|PMPI|MPI|MPIR|MPID|MPIDI)_")
# NCCL's exported functions in a stripped backtrace ("ncclAllReduce()", "pncclRedOpDestroy()": nccl.h's API and its
# p-prefixed profiling aliases, the names a stripped libnccl still exports)
R_NCCL_FUNC = re.compile(r"^p?nccl[A-Z]\w*$")
# NCCL's own internal functions a backtrace of a libnccl with its symbols names (enqueue.cc's planning and launch,
# proxy.cc's progress, the transports' proxy steps: "PC: @ 0x7f0c73d2944a (unknown) addProxyOpIfNeeded()"): the crash
# is inside NCCL as surely as with its API's names (verdict.exits._native_crash)
R_NCCL_INNER_FUNC = re.compile(r"^(?:addProxyOpIfNeeded|addCollToPlan|addP2pToPlan|addWorkBatchToPlan|"
                               r"schedule(?:Coll|P2p)TasksToPlan|finishPlan|uploadWork|uploadProxyOps|"
                               r"hostStreamPlan(?:Task|Callback)|reclaimPlan|progressOps|proxyProgressAsync|"
                               r"proxyServiceInitOp|(?:send|recv)Proxy(?:Progress|Setup|Connect|Free)|"
                               r"(?:coll|p2p)TaskAppend|taskAppend|groupLaunch|doLaunches)$")
# DDP's constructor (torch/csrc/distributed/c10d/reducer.cpp verify_params_across_processes): "DDP expects same
# model across all ranks, but Rank 1 has 212 params, while rank 0 has inconsistent 0 params."
R_DDP_PARAMS = re.compile(r"DDP expects same model across all ranks, but Rank (\d+) has (\d+) params, while rank "
                          r"(\d+) has inconsistent (\d+) params")
# ... and its shape check, torch 1.8-1.10's verify_replica0_across_processes and later verify_params_across_processes:
# "replicas[0][0] in this process with sizes [200, 128] appears not to match sizes of the same param in process 0."
# ("params[3] in this process with strides ..."): this process's model differs from rank 0's, its rank not said
# A line wrapped at 80/120 columns keeps its head: the check's words up to "appears not to match sizes|strides" read
# alike, the process then process 0 (the only one it compares against; lead ruling 6 of review 109 b)
R_DDP_SHAPE = re.compile(r"(?:replicas\[\d{1,6}\]\[\d{1,9}\]|params\[\d{1,9}\]) in this process with "
                         r"(sizes|strides) \[([^\]]{0,120})\] appears not to match (?:sizes|strides)\b"
                         r"(?:(?: of the same)?(?: param)? in process (\d+))?")
# The scheduler stopping the job from outside: slurmstepd's "*** JOB 608 ON node CANCELLED AT 2022-08-12T02:06:12
# DUE TO JOB REQUEUE ***" (also PREEMPTION, TIME LIMIT, NODE FAILURE) and a Slurm wrapper's notice of the warning
# signal that #SBATCH --signal=USR2@120 sends before preemption (submitit: "Caught signal SIGUSR2 on host: this job
# is preempted."). The time limit is kept apart: a job that hangs until its time limit is not preempted.
R_SCHED_STOP = re.compile(r"CANCELLED AT \S+ DUE TO (?P<why>PREEMPTION|JOB REQUEUE|TIME LIMIT|NODE FAILURE)|"
                          r"CANCELLED AT \S+ (?P<plain>\*\*\*)|"  # no reason: scancel (a user, an admin)
                          # srun's own word that the controller ended its job or step ("srun: Force Terminated job
                          # 1460318", "srun: Force Terminated StepId=6053.0"): cancelled, preempted or out of time
                          r"(?P<forced>srun: Force Terminated (?:job \d{1,12}|StepId=\S{1,40}))|"
                          # submitit's handler, whichever signal the job was set up with (--signal, SIGUSR2, SIGHUP):
                          # "Caught signal SIGHUP on host: this job is preempted." / "...: this job is timed-out."
                          r"Caught signal (?P<sig>SIG[A-Z0-9]{2,8})\b[^\n]{0,120}?(?P<pre>preempted|timed-out)|"
                          # Ray's ActorDiedError when the node was drained for preemption ("The actor died because its
                          # node has died. ... the actor's node was preempted: <reason>"): the cloud/scheduler took it
                          r"(?P<ray>the actor's node was preempted)")
# A cluster autoscaler announcing that the job's nodes are being taken away from outside: Ray's (Anyscale's / KubeRay's)
# "(autoscaler +44m27s) Instance k-1a5e56fa0001 (node IP: 10.1.140.199) will be terminated soon (reason:
# kubernetes-pod-termination)." -- Kubernetes terminating the pod (preemption, a node drain, an eviction), which
# sends its processes SIGTERM. Group "why" is the reason; only reasons from outside are a stop (signal): the
# autoscaler's own scale-down of idle or outdated nodes is not (verdict.signals._preempted)
R_NODE_TERMINATING = re.compile(r"\b[Ii]nstance (?P<inst>\S{1,80}) (?:\(node IP: (?P<ip>[0-9a-fA-F.:]{3,45})\) )?"
                                r"will be terminated soon \(reason: (?P<why>[^()\n]{1,80})\)")
R_FROM_OUTSIDE = re.compile(r"pod[- _]termination|preempt|spot|evict|drain|interrupt|maintenance|reclaim",
                            re.IGNORECASE)
# DeepSpeed's runner (deepspeed/launcher/runner.py) installs its sigkill_handler only as the handler of SIGINT and
# SIGTERM (launch.py's own sigkill_handler is also called when a worker exits: not this frame): a traceback through the
# runner's handler is the runner receiving a signal from outside (Ctrl-C, the scheduler), whatever the handler raised.
R_DS_RUNNER_SIG = re.compile(r"deepspeed[/\\]launcher[/\\]runner\.py\"?, line \d{1,6}, in sigkill_handler")
# A parent process's own stack, innermost in Python's subprocess wait on its child (subprocess.py's wait / _try_wait /
# _wait, os.waitpid under them): in a distributed job that is the launcher (torch.distributed.launch's main()
# waiting on its workers). A launcher still waiting shows a worker alive, nothing more: with no exception line after
# it, no error, no rank and no cause is shown (verdict.signals._launcher_waiting, lead rules T, A).
R_PARENT_WAIT = re.compile(r"[/\\]subprocess\.py\"?, line \d{1,6}, in (?:_try_wait|_wait|wait)\b")
# A launcher's own check of its launch set-up failing before any worker runs (lead rule X (2)): DeepSpeed's runner's
# passwordless-ssh probe ("subprocess.CalledProcessError: Command 'ssh -o PasswordAuthentication=no HOST hostname'
# returned non-zero exit status 255": 255 is ssh's own failure to connect or authenticate) and Open MPI's start-up
# failing ("*** An error occurred in MPI_Init_thread / *** on a NULL communicator": the process was not started by an
# MPI launcher that provides it, or PMI(x) could not be reached). config, no rank.
# The remote shell refusing the environment a multi-host launcher exports before its command ("/bin/bash:
# SSH_CONNECTION: readonly variable": ColossalAI's `colossalai run` / fabric send "export ... && torchrun ..." over
# ssh, and the export fails on hosts whose profile makes those variables readonly): the command never starts there
# (lead rule X (2)): config, no rank.
R_SHELL_READONLY = re.compile(r"(?:^|[\s/])(?:ba|z|k|da)?sh: (?:line \d{1,6}: )?(\w{1,64}): readonly variable")
# pdsh (DeepSpeed's and accelerate's multi-node runner) reports ssh's own failure to connect or log in to a host as
# "pdsh@LAUNCHER: HOST: ssh exited with exit code 255" (a remote command's own failure is its status, 1 and the like):
# the same launch set-up, read as such only where nothing else ran (verdict.launch._launch_setup). subprocess quotes
# a command given as a list in its repr ("Command '['ssh 10.0.0.7 hostname -I']' returned non-zero exit status 255":
# DeepSpeed's runner finding the first host's address with shell=True), read alike.
R_LAUNCH_SETUP = re.compile(r"Command '(?:\[['\"])?(?P<ssh>(?:ssh|pdsh) [^'\"]{1,300})(?:['\"]\])?' returned "
                            r"non-zero exit status 255|"
                            r"An error occurred in (?P<mpi>MPI_Init(?:_thread)?)\b|"
                            # MPICH's and Intel MPI's own start-up failing in the process ("Abort(1090831) on node 0
                            # (rank 0 in comm 0): Fatal error in PMPI_Init_thread: Unknown error class, error stack:"),
                            # its error stack on the lines after it (R_MPICH_STACK)
                            r"\bFatal error in (?P<mpich>P?MPI_Init(?:_thread)?):|"
                            r"pdsh@[\w.\-]{1,255}: (?P<pdsh>[\w.\-]{1,255}): ssh exited with exit code 255\b")
# Open MPI's (and PRRTE's) own start-up failing in a process, its help message "It looks like opal_init failed for some
# reason; your parallel process is likely to abort." (orte_init, MPI_INIT, ompi_rte_init, prte_init alike): the MPI
# install or the host's environment it starts in (its shared-memory, session-directory, ess/pmix components), before
# any worker ran a collective (lead rule X (2)): config, no rank. The help message names the step that failed on a line
# of its own a few lines on ("  opal_shmem_base_select failed", "  orte_ess_init failed"): R_OMPI_INIT_STEP
# A Slurm container plugin failing to start a task's container before the task runs (pyxis over enroot: "slurmstepd:
# error: pyxis: container start failed with error code: 1", "pyxis: couldn't start container", "spank: required plugin
# spank_pyxis.so: task_init() failed with rc=-1"): no worker process ever started, on every task alike -- the launch
# set-up (the container runtime and its hooks on the node), lead rules X (2), Q: config, no rank. enroot's own log,
# which pyxis prints after it, names what failed: a command its hook needs that is not installed ("[ERROR] Command not
# found: nvidia-container-cli"), the hook script that exited ("[ERROR] /etc/enroot/hooks.d/98-nvidia.sh exited with
# return code 1"), a variable its script needs unset ("/usr/bin/enroot: line 44: HOME: unbound variable")
R_CONTAINER_START = re.compile(r"\bpyxis: (?:container start failed with error code: -?\d{1,6}|couldn't start "
                               r"container)|\bspank: required plugin (?P<plugin>spank_\w{1,40}\.so): task_init\(\) "
                               r"failed")
R_ENROOT_LOG = re.compile(r"\[ERROR\] (?:Command not found: (?P<cmd>[\w.+\-]{1,80})|(?P<hook>\S{0,200}/hooks\.d/"
                          r"[\w.\-]{1,80}) exited with return code \d{1,4})|\benroot: line \d{1,6}: (?P<var>\w{1,64}): "
                          r"unbound variable")
# MPICH's error stack under its "Fatal error in PMPI_Init_thread" line, one function a line, the innermost one with
# the error's own words ("MPIR_pmi_init(142)...: PMI_Get_appnum returned -1": its PMI client found no process manager
# to talk to, the process started by another launcher than mpiexec / hydra; "MPIDI_OFI_mpi_init_hook(1578): OFI
# addrinfo() failed"): group fn, the function; why, the words
R_MPICH_STACK = re.compile(r"^\s{0,8}(?P<fn>[A-Za-z_]\w{0,60})\(\d{1,6}\)\.{0,60}: ?(?P<why>\S[^\n]{0,200}?)\s*$")
# Open MPI's runtime logging an error of its own code (ORTE up to Open MPI 4, PRRTE in 5: "[host:15806] PRTE ERROR: Bad
# parameter in file base/odls_base_default_fns.c at line 962", "ORTE_ERROR_LOG: Not found in file plm_rsh_module.c at
# line 412"): the MPI runtime that starts the processes failed (its file's framework says in what: odls its local
# launch, plm its daemons' start, rmaps the mapping), read as the launch set-up only where nothing else ran (rule X (2);
# verdict.launch._mpi_runtime). Round 71's tensorrt-llm-2476 showed it (MPI_Comm_spawn under Open MPI 5).
R_MPI_RTE_ERROR = re.compile(r"\b(?P<rte>PRTE|ORTE)(?: ERROR:|_ERROR_LOG:) (?P<what>[A-Za-z][^\n]{0,80}?) in file "
                             r"(?P<file>\S{1,200}) at line \d{1,6}")
# Open MPI 5's help message that the application passed an MPI_Info key of an older release ("A deprecated MPI_Info key
# was used." then "  Deprecated key:   env" / "  Corrected key:    PMIX_ENVAR"): the application (or mpi4py under it)
# was written for Open MPI 4's keys, the MPI runtime it runs on is 5's (verdict.launch._mpi_runtime, lead rule AF (2))
R_MPI_INFO_DEPRECATED = re.compile(r"\bA deprecated MPI_Info key was used\b")
R_MPI_INFO_KEY = re.compile(r"^\s{0,8}Deprecated key:\s{1,20}(?P<key>[\w.:-]{1,60})\s*$")
# Open MPI's default error handler (MPI_ERRORS_ARE_FATAL) on a call of the application's ("*** An error occurred in
# MPI_Reduce", "*** on communicator MPI_COMM_WORLD", "*** MPI_ERR_ROOT: invalid root"): the call, then the error class
# and its string a few lines on, which hold no trigger word (readers.settings._mpi_call_error). The classes of MPI's
# own argument checks (the root, rank, count, datatype, tag, communicator, op, buffer, group of the call) are the
# library refusing the call's arguments, which every rank passes alike (verdict.usage._mpi_refused, lead rules Q, W,
# BB (4); round 82's pytorch-20200); MPI_Init's is R_LAUNCH_SETUP's, other classes (MPI_ERR_OTHER, _INTERN,
# _TRUNCATE, _PROC_FAILED) are not read so
R_MPI_CALL_ERROR = re.compile(r"\*\*\* An error occurred in (?P<call>MPI_(?!Init\b|Init_thread\b)[A-Z][a-z_]\w{0,40})")
R_MPI_ARG_CLASS = re.compile(r"\*\*\* (?P<cls>MPI_ERR_(?:ROOT|RANK|COUNT|TYPE|TAG|COMM|OP|BUFFER|GROUP|ARG|DIMS|"
                             r"TOPOLOGY|REQUEST)): ?(?P<what>[^\n]{1,120}?)\s*$")
R_OMPI_INIT_FAILED = re.compile(r"\bIt looks like (?P<stage>(?:opal|orte|prte|pmix|ompi_rte|ompi_mpi)_init|MPI_INIT|"
                                r"MPI_Init(?:_thread)?) failed for some reason")
R_OMPI_INIT_STEP = re.compile(r"^\s{1,8}(?P<step>[a-z]{1,12}_\w{1,60}(?:: \w{1,60})?) failed\s*$")
# A shell that cannot find the program an MPI launcher starts its daemons with on the other hosts: the daemon itself
# ("bash: orted: command not found", "sh: 1: prted: not found": Open MPI not on the remote host's non-interactive
# PATH) or the remote-start agent's command (the Kubernetes MPI operator's rsh agent /etc/mpi/kubexec.sh running
# "/etc/mpi/kubexec.sh: 11: /opt/kube/kubectl: not found"): the launch set-up, before any worker ran (lead rule X (2)):
# config, no rank. Group "shell" is the shell or the script that ran it, "cmd" the command as it was called.
# The ssh server a launcher's workers must run for mpirun to reach them ("/bin/bash: line 1: /usr/sbin/sshd: No such
# file or directory": an MPIJob's worker pods started with an image that has no sshd) is read alike: no daemon can be
# started there (round 79's cloudai-720).
# The shell's words for a command it cannot run, whichever program: dash's "sh: 1: NAME: not found", bash's "bash: line
# 1: NAME: command not found", a path given that is not there ("NAME: No such file or directory"); groups shell (the
# shell or script that ran it), cmd (the command as called: bounded path segments, no backtracking) and name
_SHELL_HEAD = r"(?:^|\s)(?P<shell>[\w./-]{1,200}): "
_SHELL_CMD = r"(?P<cmd>(?:[\w.+-]{0,80}/){0,16}(?P<name>%s))"


def _shell_not_found(names: str) -> re.Pattern:
    return re.compile(_SHELL_HEAD + r"(?:line )?(?:\d{1,6}: )?" + _SHELL_CMD % names
                      + r": (?:(?:command )?not found|No such file or directory)\b")


R_AGENT_NOT_FOUND = _shell_not_found("kubectl|orted|prted|sshd")
# Python's AttributeError on None ("'NoneType' object has no attribute 'X'"): an object not built or attached before
# its use (verdict.unread's fix words; verdict.launch's guarded optional import left None, read with .match)
# An AttributeError naming a class's missing attribute ("'Accelerator' object has no attribute 'get'",
# "'InferenceEngineV2' object has no attribute 'n_kv_cache_groups'"): an object of a named class, CapWords -- not a
# builtin's value ('NoneType', 'str', 'list' are the data the code was given). verdict.launch and verdict.unread
R_CLASS_ATTR = re.compile(r"^'(?P<cls>[A-Z]\w{0,80})' object has no attribute '(?P<attr>\w{1,80})'")
R_NONE_ATTR = re.compile(r"'NoneType' object has no attribute '(?P<attr>\w{1,80})'")
# DeepSpeed's runner's own probe of the first host of its hostfile ("Using hostfile at /etc/hostfile but host=node-0
# was not reachable via ssh. If you are running with a single node please remove /etc/hostfile or setup passwordless
# ssh.", raised after `ssh HOST hostname` failed): the launch set-up before any worker ran, as R_LAUNCH_SETUP's ssh
# group (lead rule X (2); verdict.launch._launch_setup). Round 89's volcano-2952 showed it (a pod's host name that
# does not resolve). Group host: the host it probed
R_DS_SSH_CHECK = re.compile(r"\bhost=(?P<host>[\w.\-:\[\]]{1,255}) was not reachable via ssh\b")

# A shell that cannot find the launcher itself ("/bin/sh: 1: torchrun: not found", "bash: deepspeed: command not
# found", a framework's CLI running it through the shell: LLaMA-Factory's FORCE_TORCHRUN=1 under sudo, whose secure
# PATH leaves out the environment's bin): no worker was ever started, every node alike -- the launch set-up (the
# environment the command runs in), lead rules X (2), AF (2): config, no rank (round 89's llamafactory-5217).
# Group "shell" is the shell or script that ran it, "cmd" the command as called, "name" the launcher. Another program
# not found (a monitoring tool, a helper of the job's script) is not the launcher and is not read so. The launchers:
# torchrun, deepspeed, accelerate (accelerate launch). The shell's words: dash's "not found", bash's "command not
# found", a path it was given that is not there ("bash: /env/bin/torchrun: No such file or directory": a removed or
# moved environment, a stale hashed path).
R_LAUNCHER_NOT_FOUND = _shell_not_found("torchrun|deepspeed|accelerate")
# zsh's own order, the command last: "zsh: command not found: torchrun" (groups as R_LAUNCHER_NOT_FOUND)
R_LAUNCHER_NOT_FOUND_ZSH = re.compile(_SHELL_HEAD + "command not found: " + _SHELL_CMD % "torchrun|deepspeed|accelerate"
                                      + r"(?![\w.-])")
# The ssh client's own failure to reach a host ("ssh: Could not resolve hostname worker-1: Name or service not known",
# "ssh: connect to host node-7 port 22: Connection refused"): a multi-node launcher (horovodrun's ssh check, mpirun's
# rsh agent, pdsh) reaching its hosts, not a connection of the job's own -- the launch set-up where nothing else ran
# (lead rule X (2); verdict.launch._launch_setup)
R_SSH_CLIENT = re.compile(r"(?:^|[\s:])ssh: (?:Could not resolve hostname (?P<dns>[\w.\-]{1,255})|connect to host "
                          r"(?P<conn>[\w.\-:\[\]]{1,255}) port \d{1,5})(?P<why>: [^\n]{0,120})?")
# A worker's command line as a launcher builds it, with its rank and the world it is told ("--n_gpus=4 ... --rank=5",
# "--world_size 2 --rank 2", also a Python list's repr of it): a rank at or past the world size is a launch argument
# every worker is started with wrongly (lead rules V (1), U (2)) -- config, when nothing failing is shown.
# torchrun's --standalone (a local rendezvous on localhost, one node) on a command line that also asks for several
# nodes: --nnodes above 1 (or a variable, beside --node_rank / --master_addr / --rdzv_endpoint): each node forms its own
# one-node job and the nodes never meet (lead rule AA (1)): config, no rank, even with nothing failing.
# Paddle's launcher given the job's node list ("python -m paddle.distributed.launch --ips=\"10.0.0.1,10.0.0.2\""):
# each node takes its node rank from where its own address stands in that list, so every node must be given the same
# list in the same order; two nodes' launch lines with different lists (another order, another member) are nodes
# launched inconsistently, which never agree on who holds which rank (lead rule AA (1)): config, no rank.
R_ARG_IPS = re.compile(r"--ips[= ]\\?['\"]?([\w.\-:]{1,255}(?:,[\w.\-:]{1,255}){1,255})")
# Paddle's launcher waiting for its peers' endpoints (fleet's wait_server_ready: "server not ready, wait 3 sec to
# retry..." then "not ready endpoints:['10.0.0.2:6070', ...]", a Python list's repr, once a retry): the trainer
# endpoints it connects to and finds closed (verdict.network._unroutable_peers reads their addresses)
R_NOT_READY_ENDPOINTS = re.compile(r"not ready endpoints ?: ?\[([^\]]{0,8000})\]?")
R_ENDPOINT = re.compile(r"([\w.\-]{1,255}):(\d{1,5})\b")
R_ARG_STANDALONE = re.compile(r"(?:^|\s)--standalone\b")
R_ARG_NNODES = re.compile(r"--nnodes[= ]['\"]?([^\s'\"]{1,64})")
R_ARG_MULTINODE = re.compile(r"--(?:node[_-]rank|master[_-]addr|rdzv[_-]endpoint)[= ]")
# A worker's command as a launcher's record prints it (a Python list's repr: torch.distributed.launch's
# CalledProcessError "Command '['python', '-u', 'train.py', '--local_rank=0', '--nnodes=2', ...]'"), its own arguments
# naming how many machines the job spans: --nnodes and --num_machines (torchrun's, accelerate's and detectron2's words),
# --num_nodes (Lightning's) only where the value is a plausible machine count (at most CMD_NODES_MAX) or a node-rank /
# master-address argument sits beside it -- --num_nodes is as often a model's own argument, a graph's node count in
# PyG / DGL / GCN scripts ('--num_nodes', '2708' for Cora: review 100 finding 4) -- and ncluster's --num_tasks where
# its run directory (/ncluster/runs/...) shows ncluster started the job (an ncluster task is a machine). Above 1, a
# local rank of the record is no global rank (lead rule A's multi-node limit; readers.exits._cmd_nodes,
# lone.node_count)
R_CMD_NODES = re.compile(r"'--(?P<n>nnodes|num[_-]nodes|num[_-]machines|num[_-]tasks)(?:=|',\s?')(?P<v>\d{1,5})'")
CMD_NODES_MAX = 512
R_CMD_NODE_RANK = re.compile(r"'--(?:node[_-]rank|master[_-]addr|rdzv[_-]endpoint)(?:=|',\s?')")
# the first node's own --node_rank 0 in that command: there local rank N is global rank N (lead rule A), whatever the
# machine count (second review 100 finding 4)
R_CMD_NODE_RANK_0 = re.compile(r"'--node[_-]rank(?:=|',\s?')0'")
# torchrun's --rdzv_backend=c10d (any backend but static) for several nodes with --master_addr and no --rdzv_endpoint:
# only the static backend reads the master address (torchrun warns "master_addr is only used for static rdzv_backend
# and when rdzv_endpoint is not specified"), so every node meets at its own default endpoint on localhost and the
# nodes never meet (lead rules V (1), AA (1)): config, no rank
# GNU OpenMP (libgomp, which torch's CPU ops load) refusing an environment variable's value at load ("libgomp: Invalid
# value for environment variable OMP_NUM_THREADS"): a launch environment every worker inherits, shown wrong (lead rules
# L, V (1); round 82's fastchat-342; verdict.world._rank_args)
R_GOMP_ENV_REFUSED = re.compile(r"\blibgomp: Invalid value for environment variable (\w{1,64})")
# bash running a script saved with Windows (CRLF) line endings: every line's trailing carriage return becomes part of
# the command ("train.sh: line 5: $'\\r': command not found", "syntax error near unexpected token `$'\\r''"), so a
# line ending in a backslash continues onto "\\r" and the multi-line launch command reaches its launcher mangled
# (lead rules AF (1), BE (2): a launch script that cannot run the job, config, no rank; round 87's visualglm-6b-48)
R_CRLF_SCRIPT = re.compile(r"(?:(?P<script>[^\s:]{1,300}): line \d{1,7}: )?\$'\\r': command not found|"
                           r"syntax error near unexpected token [`']\$'\\r''")
# torchrun's own warning of that setting ("master_addr is only used for static rdzv_backend and when rdzv_endpoint is
# not specified."): the --master_addr given takes no effect in the mode chosen (lead rule BP (1): a launch setting
# shown without effect, config, no rank, where nothing fails after it but a traceback cut before its error text)
R_MASTER_ADDR_UNUSED = re.compile(r"\bmaster_addr is only used for static rdzv_backend")
# DeepSpeed's runner's own warning that the CUDA_VISIBLE_DEVICES it was started with is not used ("Detected
# CUDA_VISIBLE_DEVICES=2,4,5,7 but ignoring it because one or several of --include/--exclude/--num_gpus/--num_nodes cl
# args were used"; accelerate launch passes --num_gpus): the workers are placed on GPUs the user did not choose -- a
# launch setting shown without effect (lead rules BP (1), V (1); round 104's accelerate-663). Group ids: the GPU ids
# given. Its other line, "Detected CUDA_VISIBLE_DEVICES=1: setting --include=localhost:1", is the variable used
R_DS_CVD_IGNORED = re.compile(r"\bDetected CUDA_VISIBLE_DEVICES=(?P<ids>[^\s:]{0,120}) but ignoring it because\b"
                              r"[^\n]{0,60}?--(?:include|exclude|num_gpus|num_nodes)\b")
# a training step's own progress line in the input's last lines, after that warning (parse._cvd_went_on): DeepSpeed's
# "[Rank 0] step=20, skipped=0, lr=[1e-05]", "global_step: 120", "loss: 1.234", "iter 30 ... loss 2.1" -- the
# workers trained, so the GPUs they were placed on did not fail the job (review 104 (1) finding 2)
R_TRAIN_STEP_SHOWN = re.compile(r"\b(?:global_)?step ?[=:] ?\d{1,9}\b|\bloss\W{0,3}[=:] ?[\d.]{1,20}|"
                                r"\b(?:[Ii]ter(?:ation)?|[Ee]poch) ?[=:\[]? ?\d{1,9}\b[^\n]{0,200}?\bloss\b")
# a run's own line that training ended (parse._hvd_went_on: a warning before it was no failure)
R_RUN_END_SHOWN = re.compile(r"\b[Tt]raining (?:finished|completed?|done)\b")
# the launcher's name at the head of a torchrun / torch.distributed.launch command line, with the options before its
# script (R_TORCHRUN_CMD, R_TORCHRUN_LAUNCH_LINE)
_TORCHRUN_HEAD = r"(?:\btorchrun|\btorch\.distributed\.(?:launch|run))\s(?:[^\n]{0,1000}?\s)?"
# Lead rule BR (3): that warning is printed for torchrun's argparse default too -- where the launch command is shown
# (torchrun's options and its script on one line) with no master address given there or anywhere in the lines
# (--master_addr / --master-addr, MASTER_ADDR= / PET_MASTER_ADDR set, a config's master_addr: value), it is set-up
# chatter, not a setting the user gave (round 87's grendel-gs-61). A command cut before its script, or continued
# over lines, is not read as shown
R_TORCHRUN_LAUNCH_LINE = re.compile(_TORCHRUN_HEAD + r"(?:-m\s|[\w./\\~-]{1,200}\.py(?:\s|$))")
R_MASTER_ADDR_GIVEN = re.compile(r"--master[_-]addr\b|\bPET_MASTER_ADDR\b|\bMASTER_ADDR\s{0,4}[:=]|"
                                 r"\bmaster_addr\s{0,4}[:=]\s{0,4}\S")
R_ARG_RDZV_BACKEND = re.compile(r"--rdzv[_-]backend[= ]['\"]?(\w{1,32})")
R_ARG_RDZV_ENDPOINT = re.compile(r"--rdzv[_-](?:endpoint|conf)[= ]")
R_ARG_MASTER_ADDR = re.compile(r"--master[_-]addr[= ]")
# A node's launch settings on one line, as a launcher or the script prints them ("WORLD_SIZE:8 NODE_RANK:1
# MASTER_ADDR:10.0.0.1 MASTER_PORT:9001", "--node_rank=1 --master_addr=10.0.0.1"): two nodes that print different
# master addresses, ports or world sizes were launched inconsistently and cannot meet at one store (lead rule AA (1)).
R_NODE_KV = re.compile(r"\b(NODE_RANK|MASTER_ADDR|MASTER_PORT|WORLD_SIZE|node_rank|master_addr|master_port)"
                       r"\s{0,2}[:=]\s{0,2}['\"]?([\w.\-:\[\]]{1,255}?)['\"]?(?=[\s,;)]|$)")
# A launch command's environment prefix asking for several nodes ("FORCE_TORCHRUN=1 NNODES=3 RANK=1 MASTER_ADDR=...
# llamafactory-cli train ...": LLaMA-Factory's CLI, as its "Multi-node training enabled: num nodes: 3, node rank: 1"
# says, reads that RANK as the node's rank): with NNODES of 2 or more, a RANK below it on the same command is the
# node's rank, so two such commands are two nodes' launch settings (parse._node_launch; lead rule AA (1), round 89's
# llamafactory-7326). A RANK at or past NNODES, or one without NNODES, is a process's and is not read so; nor is one
# on a line that is not a command (readers.settings._env_command: NAME=value words then a command word or the line's
# continuation) or that names LOCAL_RANK / WORLD_SIZE (torchrun's env://: RANK the global process rank; review r3).
R_ENV_NNODES = re.compile(r"(?:^|\s)(?:NNODES|NUM_NODES)=['\"]?(\d{1,5})\b")
R_ENV_RANK = re.compile(r"(?:^|\s)RANK=['\"]?(\d{1,5})\b")
# One line of an environment dump ("MASTER_PORT = 38581", "NODE_RANK=1", "MASTER_ADDRESS = " empty): the whole line
# one variable and its value (parse._env_dump_line reads a node's launch settings from such a block)
R_ENV_LINE = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]{0,63})\s{0,2}[:=]\s{0,2}['\"]?([\w.\-:\[\]/]{0,255}?)['\"]?\s*$")
# PyTorch Lightning's announcement of each process's place in the world ("initializing ddp: GLOBAL_RANK: 1, MEMBER:
# 2/8", "Initializing distributed: GLOBAL_RANK: 0, MEMBER: 1/2"): two processes announcing one global rank at once
# were both given it (two nodes with the same node rank: lead rule AA (1)).
R_PL_MEMBER = re.compile(r"\bGLOBAL_RANK: (\d{1,7}), MEMBER: (\d{1,7})/(\d{1,7})\b")
# Lightning's start-up banner of each process's local rank and the GPUs it sees ("LOCAL_RANK: 0 - CUDA_VISIBLE_DEVICES:
# [0,1]"), printed once a process and Trainer stage (fit, validate, test): one local rank printed, with one GPU list, by
# more processes than the job has nodes, under a launch of several processes per node, is a local rank taken twice on
# one node (lead rule CE (1)). The list (group 2) tells processes that each see another GPU apart.
R_PL_LOCAL_BANNER = re.compile(r"\bLOCAL_RANK: (\d{1,4}) ?- ?CUDA_VISIBLE_DEVICES: \[([\d, ]{0,200})\]")
# Lightning's warning that the launch environment's WORLD_SIZE contradicts the world its own settings compute (devices
# x num_nodes): "WORLD_SIZE environment variable (2) is not equal to the computed world size (1). Ignored." -- a
# setting shown inconsistent, left by another launch (lead rules V (1), AA (1))
R_PL_WORLD_ENV = re.compile(r"\bWORLD_SIZE environment variable \((\d{1,7})\) is not equal to the computed world size "
                            r"\((\d{1,7})\)")
R_ARG_RANK = re.compile(r"--rank[= ]'?(\d{1,7})\b")
R_ARG_WORLD = re.compile(r"--(?:n_gpus|num_gpus|world_size|world-size)[= ]'?(\d{1,7})\b")
# torchrun's node rank and master address on its command line, in any spelling ("--node-rank 1 --master-addr
# 127.0.0.1", "--node_rank=1"): a node other than node 0 given a loopback master address looks for the store (and
# rendezvous) on its own host, where node 0's store is not (lead rules AA (1), AE): config, no rank.
R_ARG_NODE_RANK = re.compile(r"--node[_-]rank[= ]['\"]?(\d{1,4})\b")
# A launch command's node index in the spellings of the launchers that take one per machine (torchrun's --node_rank,
# detectron2's and accelerate's --machine_rank, SlowFast's and pycls' --shard_id), and the rendezvous it gives that
# machine as a URL (--init_method / --dist-url tcp://HOST:PORT, the trainers' own flag for init_process_group): two
# machines' commands naming different endpoints never meet at one store (lead rule AA (1); readers.settings).
# torchrun's node count on its command line, a plain number ("--nnodes=1", "--nnodes 2"; an elastic range "1:4" is not
# read): beside R_ARG_NODE_RANK on one line, a node rank at or past it gives that node's workers global ranks past the
# world (node_rank x nproc_per_node + local rank) and no process is rank 0 (lead rules AE, V (1); round 106's var-108;
# readers.settings._node_past)
R_ARG_NNODES_NUM = re.compile(r"--nnodes[= ]['\"]?(\d{1,4})(?![\d:.])")
R_ARG_NODE_INDEX = re.compile(r"--(?:node[_-]rank|machine[_-]rank|shard[_-]id)[= ]['\"]?(\d{1,4})\b")
# A per-machine launcher's machine index beside its machine count on one line (detectron2-style launch(): its
# "--machine-rank 1 --num-machines 1", or the argparse Namespace the trainer prints, "machine_rank=1, ...,
# num_machines=1"): machines are numbered 0 .. num_machines - 1, so an index at or past the count gives the workers
# global ranks (machine_rank x GPUs + local rank) past the world, and no process is rank 0 to host the store
# (lead rules AA (1), V (1); readers.settings._machine_past).
R_MACHINE_RANK = re.compile(r"(?<![\w.])(?:--)?machine[_-]rank['\"]?(?:\s{0,2}[:=]\s{0,2}|\s{1,4})['\"]?(\d{1,4})\b")
R_NUM_MACHINES = re.compile(r"(?<![\w.])(?:--)?num[_-]machines['\"]?(?:\s{0,2}[:=]\s{0,2}|\s{1,4})['\"]?(\d{1,4})\b")
# a per-machine launcher's GPU count on the command line beside its machine count (detectron2's launch: --num-gpus N
# --num-machines M, world size = num_gpus x num_machines): two machines given different counts disagree on the world
# and on every global rank (lead rules AA (1), V (1), AE; round 82's detectron2-2128; verdict.world._nodes_disagree)
R_ARG_GPUS_PER_MACHINE = re.compile(r"--num[_-]gpus[= ]['\"]?(\d{1,4})\b")
R_ARG_INIT_URL = re.compile(r"--(?:init[_-]method|dist[_-]url)[= ]['\"]?tcp://(\[[0-9A-Fa-f:.]{2,64}\]|[\w.\-]{1,255}):"
                            r"(\d{1,5})\b")
R_ARG_MASTER_ADDR_VAL = re.compile(r"--master[_-]addr[= ]['\"]?([\w.\-:\[\]]{1,255}?)['\"]?(?=[\s,;)`]|$)")
# The names of the host an address is used on: /etc/hosts' loopback names (RHEL's localhost.localdomain, Debian's
# ip6-localhost / ip6-loopback) and the wildcard 0.0.0.0, which a connect() reaches on the local host too.
LOOPBACK_HOSTS = ("localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback", "::1", "0.0.0.0")
_R_HOST_PORT = re.compile(r"\[([^\]]{1,64})\](?::\d{1,5})?|([^:]{1,255}):\d{1,5}")


def is_loopback(addr: str) -> bool:
    """Whether an address or endpoint names the host it is used on (127.0.0.0/8, localhost and its aliases, ::1,
    0.0.0.0), with or without a port ("127.0.0.1:29500", "[::1]:29500", "localhost:1234")."""
    m = _R_HOST_PORT.fullmatch(addr.strip())
    host = (m.group(1) or m.group(2)) if m else addr.strip()
    return host.lower() in LOOPBACK_HOSTS or bool(re.fullmatch(r"127\.\d{1,3}\.\d{1,3}\.\d{1,3}", host))


# How many processes a launch starts on each node against how many GPUs the lines show there (lead rules Q, W):
# torchrun's / torch.distributed.launch's "--nproc_per_node 8" (any spelling), a CUDA_VISIBLE_DEVICES list on the same
# command line, and CUDA's deviceQuery sample's "Detected 1 CUDA Capable device(s)". More processes than GPUs make every
# local rank past the last GPU fail torch.cuda.set_device with "invalid device ordinal": the launch, not a CUDA fault.
R_ARG_NPROC = re.compile(r"--nproc[_-]per[_-]node[= ]['\"]?(\d{1,4}|gpu|auto|cpu|xpu)\b")
R_ARG_VISIBLE = re.compile(r"\bCUDA_VISIBLE_DEVICES=['\"]?(\d{1,3}(?:,\d{1,3}){0,63})(?=['\"]?\s)")
R_DEVICE_QUERY = re.compile(r"\bDetected (\d{1,4}) CUDA Capable device\(s\)")
# A launch script's own settings, on lines of their own (round 81's qwen-1175: finetune_ds.sh): a shell variable given
# a count ("GPUS_PER_NODE=8", "export NUM_GPUS=2"), --nproc_per_node given through one ("--nproc_per_node
# $GPUS_PER_NODE", "${NPROC_PER_NODE}"), and CUDA_VISIBLE_DEVICES exported alone ("export CUDA_VISIBLE_DEVICES=0,1"):
# the processes a node starts against the GPUs the script leaves visible (readers.settings._launch_gpus)
R_SHELL_COUNT = re.compile(r"^\s{0,8}(?:export\s{1,4})?([A-Z][A-Z0-9_]{0,40})=['\"]?(\d{1,4})['\"]?\s*(?:[;#]|$)")
R_ARG_NPROC_VAR = re.compile(r"--nproc[_-]per[_-]node[= ]['\"]?\$\{?([A-Za-z_]\w{0,40})\}?")
# ROCm's device-selection settings, each on a line of its own ("export ROCR_VISIBLE_DEVICES=1", "export
# HIP_VISIBLE_DEVICES=1", "export HSA_OVERRIDE_GFX_VERSION=gx906"): ROCR_VISIBLE_DEVICES filters the devices the HSA
# runtime exposes, and HIP_VISIBLE_DEVICES then indexes the filtered list (renumbered from 0), so a HIP index at or
# past the number ROCR leaves selects no device; HSA_OVERRIDE_GFX_VERSION takes a version "9.0.6", never a target name
# (readers.settings._launch_gpus, verdict.cuda._rocm_unseen; lead rules V (1), AU (2)); a value holding a shell or
# batch variable or a command substitution ("${GFX_VER}", "$V", "`cmd`", "%V%") is no literal the text can call wrong
# (review 96 finding 5): the override is read only where its value is written out
R_ROCM_VISIBLE = re.compile(r"^\s{0,8}(?:export\s{1,4})?(?P<var>ROCR|HIP)_VISIBLE_DEVICES=['\"]?"
                            r"(?P<ids>\d{1,3}(?:,\d{1,3}){0,63})['\"]?\s*(?:[;#]|$)")
R_GFX_OVERRIDE = re.compile(r"^\s{0,8}(?:export\s{1,4})?HSA_OVERRIDE_GFX_VERSION=['\"]?"
                            r"(?P<val>[^\s'\";#$`{}%]{1,40})['\"]?\s*(?:[;#]|$)")
R_GFX_VERSION_OK = re.compile(r"^\d{1,2}\.\d{1,2}\.\d{1,2}$")
R_VISIBLE_EXPORT = re.compile(r"^\s{0,8}(?:export\s{1,4})?CUDA_VISIBLE_DEVICES=['\"]?(\d{1,3}(?:,\d{1,3}){0,63})['\"]?"
                              r"\s*(?:[;#]|$)")


@dataclass(frozen=True)
class NprocArg:
    """A launch command's processes per node: ``count`` as written, or None where the value is one of torchrun's
    words ("gpu", "auto", "cpu", "xpu": as many as the node has devices or cores, which the line does not show);
    ``start`` is where the flag begins on the line."""
    count: int | None
    value: str
    start: int


def nproc_per_node(text: str) -> NprocArg | None:
    """The first --nproc_per_node a command line gives, in every spelling torchrun and torch.distributed.launch take
    (torch/distributed/run.py: "--nproc-per-node" and its alias "--nproc_per_node", the value after "=" or a space,
    quoted or not, a number or "gpu" / "auto" / "cpu" / "xpu"). The one reader of the flag: the launch's world
    (readers.settings._launch_world) and its processes against the node's GPUs (_launch_gpus) read it alike."""
    if "--nproc" not in text:
        return None
    m = R_ARG_NPROC.search(text)
    if m is None:
        return None
    value = m.group(1)
    return NprocArg(int(value) if value.isdigit() else None, value, m.start())


# A Slurm job's tasks per node ("#SBATCH --ntasks-per-node=8", srun's "--ntasks-per-node 8", the "--tasks-per-node"
# alias) and a node rank taken from SLURM_PROCID ("export NODE_RANK=${SLURM_PROCID}", "--node_rank=$SLURM_PROCID"):
# SLURM_PROCID is the task's rank in the whole job, so with several tasks per node every node starts several launchers
# (torchrun) with node ranks past --nnodes, and each extra one on the master's host binds MASTER_PORT again -- the
# store's "address already in use" is that launch (lead rule AA (1)): config, no rank.
R_SLURM_TASKS = re.compile(r"--n?tasks-per-node[= ]['\"]?(\d{1,4})\b")
# A batch script's job size: "#SBATCH -n 4" / "#SBATCH --ntasks=4" (tasks in the whole job) and "#SBATCH -N 1" /
# "#SBATCH --nodes=1": more tasks than nodes means srun starts one task a process, so srun's "task N" is global rank N
# (lead rule AI (2)).
R_SBATCH_SIZE = re.compile(r"^\s*#SBATCH\s+(?:(?P<n>-n|--ntasks)|(?P<N>-N|--nodes))(?:\s*=\s*|\s+)(?P<v>\d{1,6})"
                           r"\s*(?:#|$)")
# srun's record of the tasks its step's cgroup OOM killer took ("srun: error: gpu20-15: task 0: Out Of Memory")
R_SRUN_OOM = re.compile(r"\bsrun: error: (?P<host>\S{1,255}): tasks? (?P<tasks>\d{1,7}(?:-\d{1,7})?(?:,\d{1,7}"
                        r"(?:-\d{1,7})?){0,63}): Out Of Memory")
R_NODE_RANK_PROCID = re.compile(r"\b(?:NODE_RANK|node_rank|node-rank)['\"]?\s{0,2}[=\s]\s{0,2}['\"]?"
                                r"\$\{?SLURM_PROCID\b")
# The shell's word for a foreground job that SIGTERM ended: bash's bare "Terminated" (as "Killed" is SIGKILL's), its
# job-control "[1]+  Terminated  python train.py" and a script's "run.sh: line 4: 4242 Terminated  python ...": the job
# was stopped from outside (a user's kill, a time limit, the scheduler). A pod launcher relays each worker's shell
# under that worker's host and index (torch_xla's xla_dist: "172.16.80.8 [14] Terminated"): the same word.
R_SHELL_TERM = re.compile(r"^\s*(?:\S{1,200}: line \d{1,6}: +\d{1,10} +|\[\d{1,4}\][+-]? +|"
                          r"[\w.:-]{1,255} \[\d{1,5}\] +)?Terminated"
                          r"(?: +\S.{0,200})?\s*$")
# Python's own last line of a traceback a SIGINT ended, "KeyboardInterrupt" (bare or "KeyboardInterrupt: text"): the
# process (a launcher's parent waiting on its children, a rank) was interrupted from outside -- the user's Ctrl-C or a
# kill -INT; alone, with nothing failing before it, the job was stopped by someone, not by a rank (lead rule T).
R_KBD_INTERRUPT = re.compile(r"^\s*KeyboardInterrupt(?:: ?.{0,200})?\s*$")
# The terminal's echo of the user's Ctrl-C ("^C") glued to the start of a traceback: the terminal echoes "^C" and the
# process prints its traceback right after it, on the same line -- SIGINT interrupted the process there, even when the
# paste stops before the traceback's last line ("KeyboardInterrupt") (mmpose-2586, round 74). Only at the line's
# start: a "^C" inside text is not the echo.
R_CTRL_C_TB = re.compile(r"^\s*(?:\^C)+\s*Traceback \(most recent call last\):?\s*$")
# A job process's own SIGTERM handler logging the signal it got: Lightning's signal connector ("[rank: 0] Received
# SIGTERM: 15", then "Bypassing SIGTERM: 15") and submitit's ("Bypassing signal SIGTERM"). Alone, it is a stop from
# outside (scheduler, kill); after a worker's failure it is the launcher's teardown, which that failure explains.
# glog's failure-signal handler (PaddlePaddle prints it as "[SignalInfo: *** SIGTERM (@0x147) received by PID 108
# (TID 0x7ff0553a4740) from PID 327 ***]"): the signal, the process that got it and the one that sent it (0: the kernel)
# absl's FailureSignalHandler (torch_xla's TPU processes) prints the same without the address, its thread id in decimal
# and the CPU ("*** SIGTERM received by PID 1163 (TID 1163) on cpu 81 from PID 850; stack trace: ***"; round 110's
# xla-5616)
R_GLOG_SIGNAL = re.compile(r"\*\*\* (SIG[A-Z]{2,6}) (?:\(@0x[0-9a-f]{1,16}\) )?received by PID (\d{1,10}) "
                           r"\(TID (?:0x[0-9a-f]{1,16}|\d{1,10})\)(?: on cpu \d{1,4})? from PID (\d{1,10})")
# A job's own record that its work finished ("[submitit][INFO] - Job completed successfully", "Training Completed
# Successfully!", "Training job finished successfully"): a SIGTERM its handler logs right after it is the scheduler's
# teardown of a finished step, not a stop; NCCL's INFO return-code trail after it is the communicators' teardown
R_JOB_DONE = re.compile(r"\b(?i:job|training|run|task)(?: (?i:job|run))? (?:has )?(?i:completed|finished) "
                        r"(?i:successfully)\b")
R_WORKER_SIGTERM = re.compile(r"\bReceived SIGTERM: (\d{1,2})\b|\bBypassing SIGTERM: (\d{1,2})\b|"
                              r"\bBypassing signal (SIGTERM)\b")
# torch.distributed.elastic.multiprocessing.api's _close: a worker still alive 30 s after SIGTERM
R_FORCED_KILL = re.compile(r"Unable to shutdown process \d+ via (?:Signals\.)?SIGTERM, forcefully exiting via "
                           r"(?:Signals\.)?SIGKILL")
SIGNAL_NUMBERS = {"SIGHUP": 1, "SIGINT": 2, "SIGQUIT": 3, "SIGABRT": 6, "SIGKILL": 9, "SIGUSR1": 10, "SIGSEGV": 11,
                  "SIGUSR2": 12, "SIGTERM": 15, "SIGXCPU": 24}
SIGNALS_BY_NUMBER = {n: name for name, n in SIGNAL_NUMBERS.items()} | {7: "SIGBUS", 4: "SIGILL", 8: "SIGFPE"}
# every signal a launcher may name a dead worker's by ("process 0 terminated with signal SIGBUS"), to its number
SIGNAL_BY_NAME = {name: n for n, name in SIGNALS_BY_NUMBER.items()}
# A serving framework's own watchdog (lead rule P): SGLang's scheduler or tokenizer-manager watchdog ("[2025-03-09
# 00:57:15 TP4] Watchdog timeout (self.watchdog_timeout=300)", "Scheduler watchdog timeout (self.watchdog_timeout=300,
# self.soft=False)") and vLLM's RPC to its workers ("TimeoutError: RPC call to execute_model timed out."): the engine
# saw its own forward pass stall for that long; no NCCL collective, SeqNum or rank behind is named. vLLM's Ray
# executor reads each step's output through a Ray compiled graph: "ray.exceptions.RayChannelTimeoutError: System
# error: Timed out waiting for object available to read" (RAY_CGRAPH_get_timeout) is the same stall seen from there
# (its message alone still says so where a hard-wrapped paste cut the class name).
# vLLM's engine core waiting on its workers through its shared-memory message queue ("[shm_broadcast.py:681] No
# available shared memory broadcast block found in 60 seconds. This typically happens when some processes are hanging
# or doing some time-consuming work"), repeated every 60 s: a worker has not read the last step -- the same stall.
R_SERVING_WATCHDOG = re.compile(r"[Ww]atchdog timeout \(self\.watchdog_timeout=(\d+)|RPC call to (\w+) timed out|"
                                r"\bRayChannelTimeoutError\b|Timed out waiting for object available to read|"
                                r"No available shared memory broadcast block found in (\d+) seconds")
# The same wait ending in a traceback: a frame in vLLM's shared-memory message queue (distributed/device_communicators/
# shm_broadcast.py, the engine core reading its workers' reply) and, a few lines below, the TimeoutError it raises
# (not the frame's own "raise TimeoutError" source line)
R_SHM_BCAST_FRAME = re.compile(r'shm_broadcast\.py", line \d{1,6}, in \w+')
R_TIMEOUT_ERROR_TAIL = re.compile(r"(?<!raise )\b(?:builtins\.)?TimeoutError\b(?!\()")
# A process's own log saying it is still waiting for something it asked of the job's own service or peers ("[Trainer-1]
# still in queue: 24" from PyTorch-BigGraph's trainer asking its lock server for a bucket, "still waiting for ...")
# printed again and again unchanged: a wait shown not ending, in the framework's own words, with no collective,
# SeqNum or store read named (lead rules P, BN (1); readers.watchdog._own_wait, verdict.timeouts._own_wait)
R_STILL_WAITING = re.compile(r"\b[Ss]till (?:in queue|waiting)\b")
# Its self-kill: SGLang's watchdog SIGQUITs its launcher, which kills the whole process tree ("Received sigquit from a
# child proces(s). It usually means the child failed.", "SIGQUIT received. signum=..., frame=.... It usually means one
# child failed."); a bare "Killed" after it is that kill, not the OOM killer.
R_SELF_KILL = re.compile(r"Received sigquit from a child proces|SIGQUIT received\. signum=[^\n]{0,300}?It usually "
                         r"means one child failed")
# a command run under numactl bound to one NUMA node's memory ("numactl --cpunodebind=1 --membind=1 python ...",
# numactl's short form "-m 1"): the kernel's OOM killer takes it when that node's memory is full
R_NUMA_MEMBIND = re.compile(r"\bnumactl\b[^'\"|;&]{0,200}?(?:--membind\b|\s-m\s{0,2}[\d$])")
# The shell's report of a SIGKILLed foreground job ("Killed", "./run.sh: line 3: 123 Killed  python ..."),
# the kernel's OOM killer and Kubernetes' OOMKilled. The shell's "Killed" printed over a carriage-return progress
# line keeps the rest of that line glued on (a few letters of its last word, then the line: "Killedng epoch 3").
# The kubelet evicting a pod for the node's memory ("Reason: Evicted / Message: The node was low on resource: memory.",
# the event "The node had condition: [MemoryPressure].") is the same host memory running out, seen from Kubernetes.
# Slurm says it of a step's cgroup in two wordings (slurmstepd's "Detected 1 oom_kill event in StepId=N.0", older
# "oom-kill event(s)") and srun of the task it held ("srun: error: nid006024: task 0: Out Of Memory"): a task is a
# process only where srun starts one a rank, so the task number is not read as a rank here (lead rule AI (2)).
# An exception that is itself about memory or a signal (MemoryError, "DataLoader worker ... is killed by signal:
# Killed", std::bad_alloc, "CUDA out of memory"): a "Killed" right after it is still the OOM killer's, not a process
# killed on its way out after its own error (readers.exits._raised_before_kill)
R_KILL_SAID = re.compile(r"(?i)memory|\bOOM|bad_alloc|alloc|kill|signal|SIG[A-Z]{2,6}\b|terminat")
R_HOST_KILL = re.compile(r"^\s*(?:\S+: line \d+: +\d+ )?Killed(?:\b|[a-z]{1,3} )|Out of memory: Killed process|"
                         r"oom[-_]kill|Memory cgroup out of memory|\bOOMKilled\b|The node was low on resource: memory|"
                         r"The node had condition: \[MemoryPressure\]|\bsrun: error: \S{1,255}: tasks? \d[\d,-]{0,60}: "
                         r"Out Of Memory")
# argparse refusing the local-rank argument a launcher passes, or missing the one it does not pass (exit code 2):
# torch.distributed.launch of torch >= 2.0 passes "--local-rank=N", older ones and DeepSpeed's launcher
# "--local_rank=N", torchrun none (only the LOCAL_RANK variable): "error: unrecognized arguments: --local-rank=0",
# "error: the following arguments are required: --local_rank"
R_LAUNCH_ARG = re.compile(r"error: (unrecognized arguments|the following arguments are required):[^\n]{0,300}?"
                          r"(--local[-_]rank)\b")
# argparse's usage error on any other argument ("train.py: error: unrecognized arguments: --gpus 0,1", "error: the
# following arguments are required: --config"): the script (or the launcher) refused the arguments it was started
# with, which every worker is given alike -- a launch argument, config (lead rules U (2), W)
R_USAGE_ERROR = re.compile(r"(?:^|[\s:])error: (unrecognized arguments|the following arguments are required): ?"
                           r"(-{0,2}\w[^\n]{0,300})")
# argparse refusing one argument's value ("train.py: error: argument --rank: invalid int value: ''", "error: argument
# --backend: invalid choice: 'ncl' (choose from 'nccl', 'gloo')", "error: argument --world-size: expected one
# argument"): the value is on the command line the worker was started with (an empty '' where the variable the launch
# command substitutes is unset on that machine) -- a launch argument, config, no rank (lead rules U (2), W, Q; round
# 106's aml-kubernetes-15): every worker's where untagged, one rank's (medium) where only that rank's prefixed line
# shows it (review 106 finding 4; verdict.launch._one_rank_refused). Groups: the option, argparse's complaint, the
# type and the value refused
R_ARG_VALUE_ERROR = re.compile(r"(?:^|[\s:])error: argument "
                               r"(?P<flag>-{1,2}\w[\w.-]{0,80}(?:/-{1,2}\w[\w.-]{0,80}){0,3}): "
                               r"(?P<said>invalid (?P<type>\w{1,40}) value: (?P<val>'[^'\n]{0,200}'|\S{0,200})|"
                               r"invalid choice: [^\n]{0,300}|expected (?:one|\d{1,3}) arguments?)")
# Launchers' own options (torchrun / torch.distributed.launch, Paddle's launch, DeepSpeed's, accelerate's): one of
# them refused by the script's argparse was given after the script's path, where the launcher passes it on
R_LAUNCHER_OPT = re.compile(r"^--(?:gpus|ips|nproc[_-]per[_-]node|nnodes|node[_-]rank|master[_-](?:addr|port)|"
                            r"log[_-]dir|devices|num[_-]gpus|num[_-]nodes|num[_-]processes|hostfile|include|"
                            r"rdzv[_-]\w+|standalone|started[_-]port|selected[_-]gpus|use[_-]env)\b")
# torchrun's (torch.distributed.launch's) command line, the script it starts and what follows it: every word after the
# script's path is the script's own argument, so torchrun's own option there (R_TORCHRUN_OPT) is handed to the script
R_TORCHRUN_CMD = re.compile(_TORCHRUN_HEAD + r"(?P<script>[\w./\\~-]{1,200}\.py)\s(?P<args>[^\n]{1,2000})")
R_TORCHRUN_OPT = re.compile(r"--(?:nproc[_-]per[_-]node|nnodes|node[_-]rank|master[_-](?:addr|port)|rdzv[_-]\w+|"
                            r"standalone|max[_-]restarts)(?=$|=)")
# argparse's usage print, its first line ("usage: main.py [-h] [--data_path DATA_PATH] ..."): printed where the
# script refuses its arguments (its "error:" line follows, which a paste may cut)
R_ARGPARSE_USAGE = re.compile(r"^usage: (?P<prog>[\w./\\~-]{1,200}) \[-h\]")
# The lines argparse wraps its usage onto under that first one ("                 [--rdzv-backend RDZV_BACKEND]
# [--rdzv-endpoint RDZV_ENDPOINT]", "                 training_script ..."): options, metavars, choices, positionals
# and '...' only, indented under the program's name (or opening on an option, a paste's indent lost), with an option
# ('-x', '--name') or '...' among them -- a log line of prose has none of these shapes
R_USAGE_CONT = re.compile(r"^(?=[^\n]*?(?:(?:^|[\s\[(|])-{1,2}\w|\.\.\.))(?:\s+(?=\S)|(?=[\[{(-]))"
                          r"(?:[\[{(]*(?:-{1,2}\w[\w.-]*|[A-Za-z_][\w.-]*|\d+|\.\.\.|\|)(?:,[\w.-]+)*[\]})]*(?:\s+|$))+$")
# The launchers whose own usage this is (torch.distributed.launch / run, torchrun): their usage printed is the
# launcher refusing its own command line, before any worker starts (lead rule X (2))
LAUNCHER_PROGS = ("launch.py", "run.py", "torchrun", "torch.distributed.launch", "torch.distributed.run")
# The interpreter started by the launcher not finding the script it was given (exit code 2): "python3: can't open
# file '/work/train.py': [Errno 2] No such file or directory" -- the script path every worker is launched with
R_NO_SCRIPT = re.compile(r"\bpython[\w.]{0,8}(?:\.exe)?: can't open file ['\"]([^'\"\n]{1,300})['\"]: "
                         r"\[Errno \d{1,3}\]")
# An interpreter's own name (python, python3, python3.8, python.exe): as the script path the interpreter could not
# open, the launch command named the interpreter where the script belongs (verdict.launch._interpreter_as_script)
R_INTERPRETER_NAME = re.compile(r"^python(?:\d{1,2}(?:\.\d{1,2})?)?(?:\.exe)?$", re.I)
# The interpreter given a folder (or zip) for its script finding no __main__.py in it ("python.exe: can't find
# '__main__' module in 'C:\\'", the path as Python's repr writes it, exit code 1): the script path every worker is
# launched with names no script -- often a lone '\' (bash's line continuation typed in Windows cmd, which passes it on
# as an argument) or a directory where the training script's path belongs (lead rule U (2))
R_NO_MAIN_MODULE = re.compile(r"\bpython[\w.]{0,8}(?:\.exe)?: can't find '__main__' module in ['\"]([^'\"\n]{0,300})"
                              r"['\"]")
# The interpreter started with -m not finding the module it was given ("python.exe: Error while finding module
# specification for '__main__' (ValueError: __main__.__spec__ is None)", runpy's message, exit code 1): the command
# the worker is started with names a module that cannot be run -- a launcher that restarts the main script for each
# extra worker with "python -m <the main module's __spec__ name>" (Lightning's subprocess launcher, hydra's) when the
# job was started from a console-script entry point (an .exe / bin wrapper, whose __main__ has no spec): the same
# wrong command for every worker it starts, a launch setting (lead rules Q, U (2), W)
# A paste may stop right after the module's name (its parenthesised reason cut off): the same message.
R_NO_MODULE_SPEC = re.compile(r"\bpython[\w.]{0,8}(?:\.exe)?: Error while finding module specification for "
                              r"['\"]([\w.]{1,200})['\"](?: \((\w{1,60}): ([^\n]{0,200})\))?")
# The same message with the script path ending in a carriage return (a launch script saved with Windows CRLF line
# endings): the terminal returns to the line's start at the '\r' and prints the message's tail over its head, so it
# reads "': [Errno 2] No such file or directorython3: can't open file '" -- the same wrong path for every worker
R_NO_SCRIPT_CR = re.compile(r"^['\"]: \[Errno \d{1,3}\] No such file or director[\w.]{0,12}: can't open file ['\"]")
# The interpreter's own abort report (Python's fatal_error: "Fatal Python error: none_dealloc: deallocating None",
# "Fatal Python error: Segmentation fault" / "Bus error" from faulthandler; two processes' copies may interleave on
# one line): the process died in the interpreter or a C extension, never in a Python exception
# C++'s std::terminate with no exception in flight (libstdc++'s verbose terminate handler): a std::thread destroyed
# while still joinable (not joined nor detached), or std::terminate called directly -- then abort(), SIGABRT
R_TERMINATE_BARE = re.compile(r"\bterminate called without an active exception\b")
R_FATAL_PY = re.compile(r"Fatal Python error: (?:Fatal Python error: )?(\S[^\n]{0,200})")
# The shell's report of a foreground job that died of SIGBUS / SIGSEGV ("Bus error (core dumped)", "./run.sh: line 3:
# 123 Segmentation fault      (core dumped) python ..."): read as exit code -7 / -11 (rules F and A). MPICH's
# hydra (mpiexec) says the same of one of its processes ("BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES" then
# "YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Bus error (signal 7)"), naming no rank: read alike.
R_SHELL_SIGNAL = re.compile(r"(?:^\s*(?:\S+: line \d+: +\d+ )?|APPLICATION TERMINATED WITH THE EXIT STRING: )"
                            r"(Bus error|Segmentation fault)\b")
# Host memory exhausted, as a process's own exception says it: torch's CPU allocator ("DefaultCPUAllocator: can't
# allocate memory: you tried to allocate N bytes"), Python's MemoryError (numpy's "Unable to allocate 32.0 GiB"),
# Rust's allocator abort in a native extension (tokenizers, safetensors: "memory allocation of 2097152 bytes failed"),
# C++'s operator new failing uncaught ("terminate called after throwing an instance of 'std::bad_alloc'": the process
# aborts, SIGABRT, on a host allocation that failed; group "abort").
# A paste that lost its line breaks glues the bare class to what was next to it: "MemoryErrorTraceback (most recent
# call last):" (the next process's traceback header), "self = reduction.pickle.load(from_parent)MemoryError" (the
# frame's code line before it; round 97's mmdetection-1767)
R_HOST_MEM = re.compile(r"DefaultCPUAllocator: (?:can't|not enough memory)|^\s*MemoryError\b|"
                        r"^\s*(?P<glued>MemoryError)(?=Traceback \(most recent call last\))|"
                        r"\)(?P<glued2>MemoryError)\s*$|"
                        r"\bmemory allocation of \d+ bytes failed|"
                        r"(?P<abort>terminate called after throwing an instance of 'std::bad_alloc')")
# A training loop's own readout of its process's resident host memory, one a step: wenet's "rank 0 RSS MEM USE:
# 5.11G", "RSS: 12.3GB", "RSS_mem=3.2GiB" (not sacct's MaxRSS column); the rank it names, if any (R_RSS_RANK)
R_RSS = re.compile(r"\bRSS(?:[ _-]?(?:MEM(?:ORY)?|[Mm]em(?:ory)?))?(?:[ _-]?(?:USED?|[Uu]sed?))?\s*[:=]\s*"
                   r"(\d{1,6}(?:\.\d{1,4})?)\s*([KMGT])(?:i?B)?\b")
R_RSS_RANK = re.compile(r"\b[Rr]ank[ :=]?\s?(\d{1,5})\b")
R_CLOSING = re.compile(r"(?:Sending process|Closing process) \d+ (?:(?:the )?closing signal|via signal) (SIG\w+)")
# torch 2.4-2.6 "process group has NOT been destroyed before we destruct ProcessGroupNCCL", 2.7+ "WARNING:
# destroy_process_group() was not called before program exit, which can leak resources"
R_PG_NOT_DESTROYED = re.compile(r"process group has NOT been destroyed|destroy_process_group\(\) was not called before")
# ProcessGroupNCCL's destructor stopping its watchdog (torch 1.7-1.x INFO: "[Rank 1] NCCL watchdog thread terminated
# normally"; later "[PG 0 Rank 1] Process group watchdog thread terminated normally"): that rank's group was torn down,
# the process leaving (destroy_process_group, or the group freed at exit). Every rank prints it at a clean end: news
# only where another rank is shown still waiting in a collective after it (verdict.early_exit._left_while_waited)
R_PG_WATCHDOG_DONE = re.compile(r"\bRank \d{1,7}\] (?:NCCL|Process group|ProcessGroupNCCL) watchdog thread terminated "
                                r"normally")
# torch 1.7-1.x's WorkNCCL wait under NCCL_BLOCKING_WAIT timing out: it aborts its communicators and logs, before its
# "Caught collective operation timeout", "[Rank 0] Wrote aborted communicator id to store: NCCLABORTEDCOMM:..." --
# only that path prints it so (the watchdog's own, after an NCCL error, is "Watchdog wrote aborted ..."): this rank
# waited in a collective until its timeout (lead rule B)
R_BLOCKING_ABORT = re.compile(r"\bRank \d{1,7}\] Wrote aborted communicator id to store\b")
# ProcessGroupXCCL's (torch-xpu-ops, Intel's XCCL) blocking wait giving up on its work: "[E302 ...
# ProcessGroupXCCL.cpp:231] Work ran time out after 3009 milliseconds." -- its WorkXCCL's synchronize, this process
# waiting in a collective past its timeout, no SeqNum, op or rank shown (lead rule B's timeout, as NCCL's blocking wait)
R_XCCL_WORK_TIMEOUT = re.compile(r"\bWork ran time out after (\d{1,12}) milliseconds")
# The store trying IPv6 first: harmless when it falls back to IPv4 (errno 97 = IPv6 disabled on the host).
# TORCH_DISTRIBUTED_DEBUG=DETAIL's collective fingerprints (ProcessGroupWrapper) and NCCL's own check.
# torch's monitored_barrier (ProcessGroupGloo): "[Rank 0]: Rank 1 failed to pass monitoredBarrier in 2000 ms"
# and, with wait_all_ranks=True, "Ranks 1, 2 failed to pass monitoredBarrier in 120000 ms".
R_MONITORED = re.compile(r"Ranks? (\d{1,7}(?:, ?\d{1,7}){0,64}) failed to pass monitoredBarrier in (\d+) ms|"
                         r"reached monitoredBarrier, but received errors while waiting for send/recv from rank "
                         r"(\d{1,7})")
# The rank that says it "successfully reached monitoredBarrier" waited there for the rank it names: a victim.
R_MONITORED_WAITER = re.compile(r"Rank (\d{1,7}) successfully reached monitoredBarrier")
# A rank's own progress line, one a rank and phase, under srun -l's label and/or the script's own "RANK N:" tag
# ("18: RANK 18: running step 1/10", "RANK 3: COMPLETE!", "[rank5]: Starting step 12"): the whole line is the rank and
# the phase (after whatever prefix a collector or paste adds), so a block of them names the ranks that reached that
# phase (parse._step_line, verdict.missing._behind)
R_RANK_STEP = re.compile(r"(?<![\w:.,])(?:(\d{1,6}): )?(?:\[?(?:RANK|[Rr]ank) ?(\d{1,6})\]?:? )?"
                         r"((?:[Rr]unning|[Ss]tarting) step \d{1,9}(?:/\d{1,9})?|COMPLETE!?)\s*$")
# Horovod's stall inspector (the coordinator, rank 0, after HOROVOD_STALL_CHECK_TIME_SECONDS): every tensor some
# ranks submitted and the others did not, one per line, "HorovodBroadcast_global_step_0 [missing ranks: 0]" (the ranks
# that did not submit it) or, in other releases, "allreduce.conv1.weight [ready ranks: 0, 7, 3, 2, 4, 6]" (the ranks
# that did, and wait).
R_HVD_STALL = re.compile(r"\[(missing|ready) ranks: ?(\d{1,7}(?:, ?\d{1,7}){0,1023})\]")
# Horovod 0.28's stall_inspector.cc prints, after its warning, a block "Missing ranks:" then one line a rank that has
# not submitted tensors others have and wait in, "0: [broadcast.fc.weight, broadcast.fc.bias ...]".
# Older releases (0.19) head the same block "Stalled ranks:": the same ranks, those that have not submitted.
# The stall inspector's warning itself ("One or more tensors were submitted to be reduced, gathered or broadcasted by
# subset of ranks and are waiting for remainder of ranks for more than 60 seconds."), printed before the lists above:
# read alone (no list after it, or the list not in the lines), some rank is behind the collective the others wait in,
# and none is named (lead rules B, E: rank_missing, culprits unknown; round 108's horovod-2843)
R_HVD_STALL_WARN = re.compile(r"\bsubset of ranks and are waiting for remainder of ranks for more than (\d{1,9}) "
                              r"seconds")
R_HVD_MISSING_HEAD = re.compile(r"(?:^|\s)(?:Missing|Stalled) ranks:\s*$")
R_HVD_MISSING_RANK = re.compile(r"^\s*(?:\[\d{1,7}\]:? ?)?(\d{1,7}): \[")  # after horovodrun's own "[0] " tag
# A serving engine's own barrier after loading the weights (SGLang's model_runner.load_model: a monitored_barrier of
# the tensor-parallel group with a timeout): "ValueError: TP rank 1 could finish the model loading, but there are
# other ranks that didn't finish loading. It is likely due to unexpected failures (e.g., OOM) or a slow node." The
# rank that prints it arrived; the ones it waited for are not named.
# XLA's rendezvous (xla/service/rendezvous.cc) warning that the threads of a collective's participants did not all
# arrive: "This thread has been waiting for `initialize clique for rank 6; clique=devices=[0,...,15]; stream=0;
# run_id=N` for 10 seconds and may be stuck. Expected 8 threads to join the rendezvous, but not all of them arrived on
# time." The waiting participant is shown; the ones that never came are not (lead rules B, E, H)
R_XLA_RENDEZVOUS = re.compile(r"has been waiting for `([^`]{1,2000})` for (\d{1,9}) seconds and may be stuck\. "
                              r"Expected (\d{1,7}) threads to join the rendezvous")
R_XLA_CLIQUE = re.compile(r"\bfor rank (\d{1,7});.{0,40}?\bdevices=\[([\d,\s]{0,20000})\]")
# A report may cut the message after "but there are other ranks" (the line wrapped or pasted short): the clause
# that names the other ranks is the same barrier, so the tail is not required.
R_LOAD_BARRIER = re.compile(r"\b(?:TP )?rank (\d{1,7}) could finish the model loading, but there are other "
                            r"ranks\b", re.I)
# torch's desync report (TORCH_NCCL_DESYNC_DEBUG=1; c10d TraceUtils.h retrieveDesyncReport), after "To our best
# knowledge, the lagging/dead/mismatched ranks that caused the desync are:": "- [3] joined but didn't finish
# collective #41 (count from 1)", "[0, 1] finished collective #40, but didn't join collective #41 (count from 1)";
# and "ranks [5] are the lagging ranks that caused this timeout. They never joined any collectives".
R_LAGGING = re.compile(r"\[(?P<start>\d{1,7}(?:, ?\d{1,7}){0,255})\] joined but didn't finish collective "
                       r"#(?P<sseq>\d+)|"
                       r"\[(?P<end>\d{1,7}(?:, ?\d{1,7}){0,255})\] finished collective #\d+, but didn't join "
                       r"collective #(?P<eseq>\d+)|ranks \[(?P<never>\d{1,7}(?:, ?\d{1,7}){0,255})\] are the lagging "
                       r"ranks that caused this timeout")
# A traceback's source line of a point-to-point receive or send with a literal peer rank ("    dist.recv(input, 0)",
# "torch.distributed.irecv(buf, src=3)", "dist.send(tensor=buf, dst=0)"): when that call fails because the peer
# closed the connection, the peer that left is that source or destination rank.
R_RECV_SRC = re.compile(r"^\s*(?:\w+\s*=\s*)?(?:dist|torch\.distributed)\.i?(?P<op>recv|send)\(\s*"
                        r"(?:tensor\s*=\s*)?[\w.\[\]]{1,64}\s*,\s*(?:(?:src|dst)\s*=\s*)?(\d{1,5})\s*[,)]")
# An object gather that cannot read what the other ranks sent: fairseq's all_gather_list's own words ("Unable to
# unpickle data from other workers. all_gather_list requires all workers to enter the function together"), or a
# pickle error raised just below a frame of a function that gathers pickled objects (all_gather_list, torch's
# all_gather_object / broadcast_object_list / gather_object / recv_object_list / _tensor_to_object): the ranks'
# buffers do not line up, the workers entered the gather out of step (lead rule D: a desync naming no rank)
R_GATHER_UNPICKLE = re.compile(r"Unable to unpickle data from other workers")
R_UNPICKLE_EXC = re.compile(r"(?:^|\.)UnpicklingError\b")
R_OBJECT_GATHER_FRAME = re.compile(r"\bFile \"[^\"]{1,400}\", line \d{1,7}, in (all_gather_list|"
                                   r"all_gather_object|broadcast_object_list|gather_object|scatter_object_list|"
                                   r"recv_object_list|_tensor_to_object)\b")
# gloo's size checks on a received message: tcp's "op.preamble.length <= op.nbytes. A vs B" (the peer sent more than
# this rank posted) and uv's "op.nread == op.preamble.nbytes" (uv/pair.cc: the bytes read differ from the size the
# peer announced in its preamble, no numbers printed): either way the two sides' sends and receives do not match --
# different collectives or sizes at the same point, a desync (lead rules D, AM (1))
R_GLOO_PREAMBLE = re.compile(r"op\.preamble\.length <= op\.nbytes\. (\d+) vs (\d+)|op\.nread == op\.preamble\.nbytes\b")
# A Windows console-script launcher (the .exe shim pip/setuptools/distlib write for torchrun, deepspeed, accelerate)
# that cannot start the Python interpreter whose path it embeds: "failed to create process." (the older shim's whole
# line), "Fatal error in launcher: Unable to create process using '"C:\...\python.exe" ...'" (distlib's). It
# prints before any worker exists: the install / environment the launcher was written for moved or broke
# (lead rules X (2), AF (2)): config, no rank. The older shim's line may come glued after the launcher's last line
# of its own log (a paste that lost the line break: "... Initializing distributed tasks at: 127.0.0.1:29437 failed to
# create process."; round 105's llamafactory-3953): only glued to torchrun's own "Initializing distributed tasks at:
# HOST:PORT" text, the shim's words running to the end of the line -- any other subject before them is another
# program's sentence ("worker 3 failed to create process.", "subprocess.Popen(cmd) failed to create process.",
# "worker on 10.0.0.5:29500 failed to create process.", "error: failed to create process"; review 105 (1) finding 2)
R_LAUNCHER_SHIM = re.compile(r"(?:^\s*|Initializing distributed tasks at: \S{1,200}:\d{2,5} ?)"
                             r"failed to create process\.?\s*$|Fatal error in launcher: ?Unable to create process "
                             r"using (.{0,300})")
# FSDP's execution-order check (torch/distributed/fsdp/_exec_order_utils.py, first iteration): "Forward order differs
# across ranks: rank 0 is all-gathering 1 parameters while rank 1 is all-gathering 0 parameters" (or "... parameters for
# [names] ..."): the ranks ran different forward paths, a desync that names two ranks and no majority (lead rule D)
R_FSDP_ORDER = re.compile(r"Forward order differs across ranks: rank (\d{1,7}) is all-gathering (.{1,200}?) while "
                          r"rank (\d{1,7}) is all-gathering (.{1,200}?)\s*$")
R_MISMATCH = re.compile(r"Detected mismatch between collectives on ranks|NCCL WARN Mismatched collective detected")
R_FINGERPRINT = re.compile(r"Rank (\d+) is running (?:inconsistent )?collective: CollectiveFingerPrint\("
                           r"(?:SequenceNumber=(\d+),? ?)?(?:OpType=(\w+))?(?:, TensorShape=\[([^\]]{0,80})\])?")
R_MISMATCH_AROUND = re.compile(r"at and around rank (\d+)")
# The last line of a Python traceback, "SomethingError: text" (dotted module path allowed), at the
# start of a line once launcher prefixes are stripped: a rank's own exception. Python's base class itself too
# ("Exception: ...", what `raise Exception(...)` in a script prints).
# A framework's own exception record printed as JSON (fastNLP's "Exception info:" block: "exc_type": "RuntimeError",
# then "exc_value": "<the exception's message, its newlines escaped>", "exc_global_rank": N): the same exception a
# traceback's last line states (readers.crash._exc_record; round 72's fastnlp-458)
R_EXC_RECORD_TYPE = re.compile(r'^\s*"exc_type"\s*:\s*"((?:[A-Za-z_]\w{0,60}\.){0,8}[A-Za-z_]\w{0,60})"\s*,?\s*$')
R_EXC_RECORD_VALUE = re.compile(r'^\s*"exc_value"\s*:\s*"(.{1,100000}?)"?\s*,?\s*$')
# a traceback frame in the JIT build of a C++/CUDA op (torch's cpp_extension load -> _jit_compile, DeepSpeed's op
# builder's load -> jit_load): a stack that holds one raised inside that build (parse.input_tail's build_frame,
# verdict.unread._cut_where; lead rule AF (2), round 91's deepspeed-3794)
R_JIT_BUILD_FRAME = re.compile(r'\bFile "[^"]{0,1000}(?:torch[/\\]utils[/\\]cpp_extension\.py|'
                               r'deepspeed[/\\]ops[/\\]op_builder[/\\][\w/\\]{1,120}\.py)"')
# int()'s refusal of a version string's field that is a pre-release, dev or local part ("invalid literal for int()
# with base 10: '0a0'" from torch's "2.1.0a0+32f93b1", "'0+cu118'", "'dev20240101'"): a job's or framework's own
# parse of an installed library's version string, in code every worker runs (lead rules AF (2), BT (2), BV (3); round
# 91's chinese-clip-124). A pre-release tag follows a digit of the release ('0a0', '1rc2'), a split-off dev / post
# field has its own number ('dev3'), a local part follows '+': a bare 'a' / 'b' / 'dev' is the job's own argument
# (rule BJ (2)), not a version's field. Group 1 the field
R_VERSION_INT_PARSE = re.compile(r"^invalid literal for int\(\) with base 10: '(\d{1,6}(?:a|b|rc|dev|post|alpha|beta)"
                                 r"\d{0,12}(?:\+[\w.]{1,60})?|\d{0,6}\+[\w.]{1,60}|(?:dev|post)\d{1,12}"
                                 r"(?:\+[\w.]{1,60})?)'$")
# a launch command's config-file argument naming a shell or Python script ("run_train.py --config-file
# examples/train_tiny_llama.sh"): every worker is started with a script where the loader expects a config file
# (lead rules AF (1), U (2), BF (3); round 91's nanotron-166). Group 1 the path. A .py is a valid config for many
# frameworks (detectron2's LazyConfig, mmengine / mmdet, a repo's configs/x.py): parse reads it so only beside a
# YAML parser's frame (R_CONFIG_YAML_FRAME), never beside a json load alone (review 91 finding 3)
R_CONFIG_ARG_SCRIPT = re.compile(r"(?:^|\s)--?config(?:[-_](?:file|path|name))?(?:=|\s{1,4})[\"']?([^\s\"']{1,300}"
                                 r"\.(?:sh|bash|py))(?:[\"'\s]|$)")
# a line that starts a launch command (after a shell prompt): the command a later --config-file reading belongs to
# -- a usage / help text quoting one ("usage: ...", "e.g. torchrun ...") does not start so (review 91 finding 8)
R_LAUNCH_CMD_HEAD = re.compile(r"^\s{0,8}(?:[$#>]\s{0,4})?(?:[\w.-]{1,40}=\S{0,200}\s{1,4}){0,8}(?:[\w./~-]{0,200}/)?"
                               r"(?:torchrun|python[\d.]{0,5}|deepspeed|accelerate|srun|mpirun|horovodrun|bash|sh)"
                               r"(?:\s|$)")
# a traceback line in a YAML / TOML config parser (PyYAML / ruamel / OmegaConf / tomllib, a framework's
# get_config_from_file / load_config): the stack the paste cut was reading a config file
R_CONFIG_YAML_FRAME = re.compile(r"[/\\](?:yaml|ruamel|tomllib|toml|omegaconf)[/\\][\w/\\]{1,80}\.py\"|"
                                 r"\b(?:yaml|toml|tomllib|OmegaConf)\.(?:safe_)?load\(|"
                                 r"\bin (?:get_config_from_file|load_config|from_yaml|load_yaml)\s*$")
# a traceback line in the json module: a config read only where the stack also shows the code reading a config
# (R_CONFIG_READ_FRAME) -- json.load reads COCO annotations, tokenizer files, data manifests alike
R_JSON_LOAD_FRAME = re.compile(r"[/\\]json[/\\]\w{1,40}\.py\"|\bjson\.loads?\(")
R_CONFIG_READ_FRAME = re.compile(r"[/\\]configs?(?:[/\\][\w/\\]{1,80}|_?\w{0,40})\.py\"|"
                                 r"\bin \w{0,40}(?:config|args)\w{0,40}\s*$")
# a dataset loader's frame (a function of a module directly in a data / datasets folder -- not a script's own
# <module> frame, nor any file under a /data/ mount -- or a load_*_json / annotation reader): a json or yaml load
# under it reads the data, not the config (review 91 finding 3's cfgpy.log: detectron2's load_coco_json)
R_DATA_LOAD_FRAME = re.compile(r"[/\\](?:data|datasets?|dataloaders?)[/\\]\w{1,60}\.py\", line \d{1,7}, "
                               r"in (?!<module>)|"
                               r"\bin \w{0,40}(?:dataset|annotation|_json|coco|manifest|tokenizer)\w{0,40}\s*$")
# c10d's own size / type check of a single-tensor collective's tensors ("output tensor size must be equal to
# world_size times input tensor size"): the caller's tensors refused (verdict.usage's _COLL_SIZE reads it), never a
# framework's check of the settings though it names world_size (readers.crash; round 91's vLLM v1 log head, which
# lets arcticinference-175's line be read as an exception)
R_COLL_TENSOR_CHECK = re.compile(r"\b(?:output|input) tensor (?:size )?must (?:be|have) (?:equal|the same)\b")
# a bare AssertionError's `assert` line requiring a minimum count of a data list's entries ("assert
# len(audiopaths_sid_text_new) > 1"; a dataset class's own check at construction): the prepared data every worker
# loads holds too few usable entries (lead rules BF (3), Q; round 91's gpt-sovits-669). Group 1 the list's name, which
# must name data (data_list_name): a count of ranks, devices or a batch's tensors is not this
R_ASSERT_DATA_MIN = re.compile(r"^assert\s{1,4}len\(\s{0,4}([A-Za-z_][\w.]{0,80})\s{0,4}\)\s{0,4}>=?\s{0,4}\d{1,6}\b")
# a distributed sampler's own check that every replica is given at least one sample: its per-replica count
# (DistributedSampler's num_samples, the dataset split over the world) against 1 -- "assert self.num_samples >= 1 or
# self.total_size == 0" (Lightning's UnrepeatedDistributedSampler, round 93's darts-1945): a dataset smaller than the
# processes launched, the layout every rank shares (lead rules W, BU (1); readers.crash's replica_min)
R_ASSERT_REPLICA_MIN = re.compile(r"^assert\s{1,4}(?:self\.)?num_samples\s{0,4}(?:>=\s{0,4}1|>\s{0,4}0)(?![\w.])")
# the frame of a distributed sampler's own module, where that num_samples check stands: torch's
# torch/utils/data/distributed.py, or Lightning's overrides/distributed.py (pytorch_lightning, lightning.pytorch) or
# lightning_fabric's utilities/distributed.py (its DistributedSamplerWrapper) under site-packages; with
# R_SAMPLER_FUNC its function. Not a project folder or file that merely holds "distributed" or "sampler"
# (/workspace/distributed-rl/replay_buffer.py, a diffusion ddim_sampler.py: review 93 t1, F1)
R_SAMPLER_FRAME = re.compile(r"(?:[\\/]torch[\\/]utils[\\/]data[\\/]distributed\.py|[\\/](?:site|dist)-packages[\\/]"
                             r"(?:pytorch_lightning|lightning[\\/]pytorch|lightning_fabric|lightning[\\/]fabric)[\\/]"
                             r"(?:overrides|utilities)[\\/]distributed\.py)$")
R_SAMPLER_FUNC = re.compile(r"(?:__init__|__iter__|__len__|set_epoch)$")
# torch's distributed test harness (torch.testing._internal.common_distributed) exiting on its own guard that the
# host has the devices a test needs: "sys.exit(TEST_SKIPS[f"multi-gpu-{x}"].exit_code)" (skip_if_lt_x_gpu's wrapper,
# exit code 77 for two GPUs), "...TEST_SKIPS["no_cuda"]...": the job placed on a runner with fewer GPUs than it asks
# for, a setting every process shares (lead rules Q, W, AU (2); round 93's ci-infra-132; readers.crash's test_skip).
# Other keys (a backend or world-size skip) are not read so.
R_TEST_SKIP_EXIT = re.compile(r"\bsys\.exit\(\s{0,4}TEST_SKIPS\[\s{0,4}f?[\"'](?P<key>multi-gpu(?:-[\w{}]{1,12})?|"
                              r"no_cuda|no_accelerator)[\"']\s{0,4}\]\.exit_code\s{0,4}\)")
# a name's parts (split at '_', '.' and a camelCase step, lower-cased) naming data: a part that is, or ends in, a data
# word ('text', 'audiopaths', 'filelist', 'wav_scp' -> 'wav') ...
R_DATA_LIST_PART = re.compile(r"[a-z]{0,12}(?:path|file|list|data|dataset|sample|text|entry|entrie|example|record|"
                              r"audio|image|img|wav|utt|utterance|clip|video|caption|manifest|line)s?")
# ... and no part naming the launch's own units: a list of devices / GPUs / ranks / nodes / processes / groups /
# workers is the launch's shape (lead rules W, Q), whatever else its name says ('device_list', 'data_parallel_ranks')
R_LAUNCH_UNIT_PART = re.compile(r"[a-z]{0,8}(?:device|gpu|rank|node|proc|process|world|group|worker|host)(?:s|es)?")
_R_NAME_PART = re.compile(r"[_.]+|(?<=[a-z0-9])(?=[A-Z])")


def data_list_name(name: str) -> bool:
    """Whether a list's name (an `assert len(NAME) > N` line's) names the data a job loads: one of its parts a data
    word (R_DATA_LIST_PART), none a launch unit (R_LAUNCH_UNIT_PART). Parts are whole: 'device_list' has the part
    'device', 'data_parallel_ranks' the part 'ranks', so neither is data; 'processed_files' has no part 'proc'."""
    parts = [p.lower() for p in _R_NAME_PART.split(name) if p]
    return not any(R_LAUNCH_UNIT_PART.fullmatch(p) for p in parts) and any(R_DATA_LIST_PART.fullmatch(p)
                                                                             for p in parts)


def device_list_name(name: str) -> bool:
    """Whether a list's name (an `assert len(NAME) > N` line's) names the devices a process sees ('device_list',
    'gpu_ids', 'self.devices', 'cudaDevices'): a part that is, or ends in, device(s) / gpu(s) -- a minimum count of
    them is the launch's shape (lead rules W, Q: GPUs visible, CUDA_VISIBLE_DEVICES, --nproc_per_node)."""
    return any(_R_DEVICE_PART.fullmatch(p.lower()) for p in _R_NAME_PART.split(name) if p)


_R_DEVICE_PART = re.compile(r"[a-z]{0,8}(?:device|gpu)s?")


R_EXC_TAIL = re.compile(r"^((?:[A-Za-z_]\w{0,60}\.){0,8}(?:[A-Z]\w{0,60}(?:Error|Exception)|Exception))"
                        r"(?:: ?(.{0,300}?))?\s*$")
# torch.utils.checkpoint's check that the tensors a recomputed forward saves match the first forward's: its
# CheckpointError lists each differing tensor as "saved metadata: {...}" then "recomputed metadata: {'shape':
# torch.Size([0]), ...}". Those lines are the exception's own text (its header line may be cut from a paste): the
# printing process raised it in its own backward, as surely as its traceback's last line says so.
R_CKPT_RECOMPUTE = re.compile(r"^recomputed metadata: \{'shape': torch\.Size\(\[[\d, ]{0,80}\]\)")
# torch.distributed.checkpoint (DCP) gathering each rank's failure of a save / load step (its plan, its writes or
# reads: utils._DistWrapper's reduce_scatter / all_gather / all_reduce) into one CheckpointException that every rank
# raises: str() is "CheckpointException ranks:dict_keys([0, 1, ...])" (the ranks whose own step raised), then per rank
# "Traceback (most recent call last): (RANK N)" with that rank's frames and error. Searched anywhere in a line (a
# paste that lost its newlines glues the records): a traceback header never holds "(RANK N)" otherwise.
R_DCP_RANKS = re.compile(r"\bCheckpointException ranks: ?dict_keys\(\[(?P<ranks>[\d, ]{0,4000})\]\)")
R_DCP_RANK_TB = re.compile(r"\bTraceback \(most recent call last\): \(RANK (?P<rank>\d{1,7})\)")
# A process's own logger recording the exception that ends it, from a sys.excepthook that logs ("Uncaught %s: %s"
# with exc_info, as OLMo's olmo.util.excepthook does; Python exits with status 1 after the hook returns): that
# process's own failure, as surely as a launcher's exit record. The class must read as an exception class.
R_UNCAUGHT = re.compile(r"\bUncaught ((?:[A-Za-z_]\w{0,60}\.){0,8}[A-Z]\w{0,60}(?:Error|Exception|Exit|Interrupt))"
                        r": ?(.{0,300}?)\s*$")
# A logger's location field that names the process's rank, "[olmo.util:158, rank=0]" (OLMo's rich handler prints
# the LOCAL rank there): read as a local rank, which lead rule A maps to a rank only in a single-node job
R_LOG_RANK = re.compile(r"\[[\w.]{1,128}:\d{1,6}, rank=(\d{1,7})\]")
# The uncaught exception of a rank that was only a victim (its collective timed out, its store or peer went away):
# not a first failure of its own
R_VICTIM_EXC = re.compile(r"^(?:torch\.distributed\.)?(?:Dist\w{0,40}Error|TimeoutError|ChildFailedError|"
                          r"ProcessExitedException|KeyboardInterrupt|SystemExit)$")
# A framework's own check of the job's settings (lead rule W): an AssertionError / ValueError / NotImplementedError
# whose message -- or, for a bare AssertionError, the `assert` source line its traceback prints just above -- is about
# the launch's sizes or a feature the setup lacks: DeepSpeed's "train_batch_size is not equal to micro_batch_per_gpu *
# gradient_acc_step * world_size", "gradient_accumulation_steps % world_size == 0", "dist_url=auto cannot work with
# distributed training", "Sharded X requires Flash Attention enabled models". Every rank is started with the same
# settings: config, no rank at fault. A RuntimeError is a rank's own runtime failure and is never read as one, save
# torch's "No rendezvous handler for tcp://" (an init_method scheme this torch build has no handler for).
R_SETTINGS_EXC = re.compile(r"(?:^|\.)(?:AssertionError|ValueError|NotImplementedError)$")
# Strict: the check must name the launch itself (the world size, the GPU/process/machine count, the launch URL, the
# parallel sizes) or a feature the setup lacks; a batch size or a shape alone is a rank's own run ("Expected input
# batch_size (32) to match target batch_size (16)" is a model's bug, rule A).
# torch's own new_subgroups refusing its group_size ("The arg 'group_size' (8) must not exceed the world size (2)",
# "The world size (6) must be divisible by 'group_size=4'"): torch refusing a call's argument, not a framework's check
# of the job's settings (lead rules BQ (3), BB (4); verdict.usage._call_refused)
R_SUBGROUP_SIZE = re.compile(r"\bThe arg 'group_size' \(\d+\) must not exceed the world size \(\d+\)|\bThe world "
                             r"size \(\d+\) must be divisible by 'group_size=\d+'")
R_SETTINGS_CHECK = re.compile(
    r"\b(?:world_size|world size|n_gpus|num_gpus|nproc_per_node|dist_url|dist-url|num_machines|num_nodes|"
    r"(?:tensor|pipeline|data)[_ -]parallel[_ ]size|(?:[a-z]{1,20}_)?(?:tp|pp|dp)_size|num_shard\w{0,4}|distributed "
    r"(?:training|mode))\b"
    r"|\brequires [\w ./-]{1,60}? (?:enabled|installed|support(?:ed)?)\b"
    # the framework refusing to shard the model class the settings chose (LoRAX / TGI's get_model: "sharded is not
    # supported for AutoModel", the generic fallback when flash attention is unavailable; "Sharding is not supported
    # with X"): the shard count every shard is launched with does not fit that model path (lead rules W, Q)
    r"|\b[Ss]hard(?:ed|ing) (?:is|are) not (?:supported|implemented|available) (?:for|with|on)\b"
    # a framework's own assert that a package the settings ask for is not installed (R_NEEDS_PACKAGE)
    r"|\b(?:requires?|needs?) (?:the )?[\w.-]{1,40} (?:package|module|library)\b"
    # the platform every rank shares lacking a feature the settings ask for (Transformer Engine's "CUDA device,
    # driver and/or toolkit version does not support comm+GEMM overlap with CUDA Multicast")
    r"|\b(?:device|driver|toolkit|GPU|platform|hardware|series)s?(?: version)? (?:does not|doesn't|do not) support\b"
    # the check telling the user which environment setting to launch with (accelerate's "Please set
    # `NCCL_P2P_DISABLE="1"` and `NCCL_IB_DISABLE="1"` or use `accelerate launch`" for GPUs without P2P/IB): it
    # refuses the settings every process starts with, not a rank's own run
    r"|\b(?:[Pp]lease )?(?:set|export)\W{1,3}[A-Z][A-Z0-9]{1,20}_[A-Z0-9_]{1,40}\W{0,2}="
    # the script refusing the parallel mode it was started in (moco's "NotImplementedError: Only
    # DistributedDataParallel is supported." without --multiprocessing-distributed): its launch arguments, not a run
    r"|\b[Oo]nly (?:[\w-]+ ){0,3}?(?:DistributedDataParallel|DDP|FSDP|distributed|multi-?process\w*)\b"
    r"[\w ,/()-]{0,40}?\b(?:is|are) (?:supported|implemented|allowed)\b"
    # torch's parse of the launcher's rendezvous endpoint (--rdzv-endpoint, or --master_addr:--master_port) refusing
    # its value ("The hostname of the rendezvous endpoint 'h:p' must be a dot-separated list of labels, an IPv4
    # address, or an IPv6 address", "The port number of the rendezvous endpoint ... must be an integer"): a launch
    # setting every node is given, refused before any worker runs (lead rules X (2), V (1))
    r"|\b(?:hostname|host name|port number|port) of the rendezvous endpoint\b"
    # a framework's own check naming a training setting switched on and what the model must then be ("When knowledge
    # distillation is enabled, the model is expected to return a Tuple[Tensor, Tensor] ..."): the setting every
    # worker is launched with does not fit the model it chose (lead rules W, BF (3), U (2); round 92's deit-103). Its
    # subject must be the model and what it returns: "When packing is enabled, each sample is expected to fit in
    # max_seq_len" is a check of one rank's own data (rule A / BJ (2)), no setting the model does not fit
    r"|^When (?P<enabled>[a-z][\w -]{0,60}?) (?:is|are) (?:enabled|turned on|switched on|used|set),? the model "
    r"(?:is|are) expected to (?:return|output)\b")
# A training framework's own check of the DeepSpeed config against the job's other settings (lead rules W, Q): the
# transformers integration's trainer_config_finalize ("Please correct the following DeepSpeed config values that
# mismatch TrainingArguments values:", then one "- ds X=a vs hf Y=b" line each -- raised as a ValueError, or the message
# pasted without its class), DeepSpeed's own _batch_assertion on the batch sizes it derives from train_batch_size,
# gradient_accumulation_steps and the world ("Micro batch size per gpu: 0 has to be greater than 0", "Train batch
# size: ...", "Gradient accumulation steps: ..."), and accelerate refusing its own config's DeepSpeed keys beside a
# deepspeed_config_file ("When using `deepspeed_config_file`, the following accelerate config variables will be
# ignored: [...]"). The config and the arguments every worker is launched with do not agree: config, no rank (round
# 92's apps-9, belle-154, instructerc-16, pickscore-2). The batch assert's value must be a number: the `assert` source
# line a traceback prints above it ("{micro_batch} has to be gr...") is no failure. Group "kind": which check.
R_DS_CONFIG_CHECK = re.compile(
    r"\bDeepSpeed config values? that (?P<hf>mismatch) TrainingArguments\b"
    r"|\b(?:Train batch size|Micro batch size per gpu|Gradient accumulation steps): ?-?\d{1,12} (?P<batch>has) to be "
    r"greater than 0\b"
    r"|\bWhen using `?deepspeed_config_file`?, the following (?P<acc>accelerate) config variables will be ignored\b")
# A framework's own check that a package the chosen settings need is not installed ("AssertionError: Ulysses Attention
# and Ring Attention requires xfuser package.", "X needs the apex module"): the Python environment every worker
# imports lacks it -- a shared install missing at start-up (lead rules AF (2), W), config, no rank. Group 1: the
# package.
R_NEEDS_PACKAGE = re.compile(r"\b(?:requires?|needs?) (?:the )?([\w.-]{1,40}) (?:package|module|library)\b")
# The same check worded as a feature refused without a package ("Exception: No Support for SyncBN without Apex", "X is
# not supported without the apex library"): the settings ask for a feature whose package the environment every worker
# imports lacks (lead rules W, AF (2); round 81's nvidia-semantic-segmentation-59). Group 1: the package.
R_WITHOUT_PACKAGE = re.compile(r"\b(?:[Nn]o [Ss]upport|[Nn]ot [Ss]upported|[Uu]nsupported|[Cc]annot (?:use|be used))\b"
                               r"[^\n]{0,60}? without (?:the )?([A-Za-z][\w.-]{0,39})\b")
# a settings check naming the model-parallel size a checkpoint was saved with against the world launched (Llama-style
# loaders: "AssertionError: Loading a checkpoint for MP=4 but world size is 1"): the checkpoint holds one shard per
# model-parallel rank, so the world must be that size (one process, one GPU, per shard) or the checkpoint resharded
R_CKPT_MP = re.compile(r"\bcheckpoint\b[^\n]{0,60}?\b(?:MP|model[ _-]?parallel(?:[ _-]?size)?)\s{0,2}=\s{0,2}"
                       r"(?P<mp>\d{1,4})\b")
# a loader's own check that a checkpoint's data-parallel world size is the one launched (DeepSpeed's
# _load_zero_checkpoint: "ZeRORuntimeException: The checkpoint being loaded used a DP world size of 8 but the current
# world size is 16. Automatic adjustment of ZeRO's optimizer state partitioning with a new world size is not currently
# supported."): the optimizer states are partitioned per data-parallel rank when saved, and every rank loads the same
# checkpoint under the same launch, so every rank fails the same check (lead rules W, Q, J): config, no rank. Group
# saved: the size the checkpoint was written by; now: the size launched.
R_CKPT_WORLD = re.compile(r"\bcheckpoint\b[^\n]{0,80}?\b(?:(?:DP|data[ _-]parallel) )?world[ _]size "
                          r"(?:of |was |is |= ?)?(?P<saved>\d{1,6})\b[^\n]{0,60}?\b(?:current|new|present) "
                          r"(?:(?:DP|data[ _-]parallel) )?"
                          r"world[ _]size (?:is |of |= ?)?(?P<now>\d{1,6})\b")
# a loader's own check that a parallel / model setting the checkpoint was saved with is the value the job was launched
# with (Megatron-LM's checkpointing._compare, run by check_checkpoint_args on load: "AssertionError:
# tensor_model_parallel_size value from checkpoint (1) is not equal to the input argument value (2)."): every rank
# loads the same checkpoint with the same arguments and fails the same check (lead rules W, Q, J): config, no rank.
# Group name: the argument; saved: the checkpoint's value; now: the launch's.
R_CKPT_ARG = re.compile(r"\b(?P<name>[A-Za-z_][\w.]{0,60}) value from (?:the )?checkpoint \((?P<saved>[^()\n]{1,60})\) "
                        r"is not equal to the (?:input )?argument value \((?P<now>[^()\n]{1,60})\)")
# a settings check's own advice: a sentence naming an environment setting to launch with ("Launch app with
# UB_SKIPMC=1 to try CUDA IPC instead."), quoted in the fix
R_SETTINGS_ADVICE = re.compile(r"(?:^|[.;] )([A-Z][^.;]{0,100}?\b[A-Z][A-Z0-9_]{2,40}=[\"'`]?\w{1,40}[^.;]{0,80})")
# A script's own check of its settings printing the combinations it accepts as a list's header ("Valid configurations
# (base model / tokenizer):", one "- name: a / b" line each after it) and exiting: the values every process is given
# (a model with a tokenizer, a vocabulary size) do not form one of them, so every rank would stop the same way (lead
# rules W, Q: config, no rank). Only the header shape, a line of its own ending in ':' -- CUDA's "invalid configuration
# argument" (a kernel launch's error) is no list of choices.
R_VALID_CHOICES = re.compile(r"^\W{0,4}(Valid config(?:uration)?s?\b[^\n:]{0,120}):\s*$")
# A script's own check that it found nothing to train on at the path its arguments give, telling the user to check
# those arguments ("No data found. Please verify arguments (train_data_dir must be the parent of folders with
# images)", "ValueError: no training samples found, please check your args"), then stopping: the launch arguments every
# worker is started with (a data path) give it no data, so every rank stops alike (lead rules W, U (2): config, no
# rank). Both halves are needed: "no ... found" alone is often a note the run goes on after ("no regularization
# images"), and a plea to check the arguments alone says nothing of what was refused.
R_NO_DATA_ARGS = re.compile(
    r"\b[Nn]o (?:[\w-]{1,20} ){0,3}?(?:data|images?|files?|samples?|examples?|videos?|audios?|records?|datasets?)"
    r"(?: [\w-]{1,20}){0,2}? (?:found|available|loaded|exists?)\b[^\n]{0,60}?\b(?:[Pp]lease )?(?:verify|check|confirm) "
    r"(?:the |your )?arg(?:ument)?s?\b")
# A framework's own check refusing how the launch maps processes to devices, as a statement with or without an
# exception class before it (lead rules W, AA (1)): XGBoost's "Multiple processes within communication group running
# on same CUDA device is not supported" (its CHECK's text, often on the lines after the XGBoostError), accelerate's
# "You can't train a model that has been loaded with `device_map='auto'` in any distributed mode". Every process is
# started the same way: config, no rank. NCCL's own "Duplicate GPU detected" stays invalid_usage (rule Q).
R_SETTINGS_REFUSED = re.compile(
    r"\bsame (?:CUDA|GPU) device (?:is )?not (?:supported|allowed)|"
    r"\b(?:processes|ranks|workers)\b[^\n]{0,80}?\b(?:running|placed) on (?:the )?same (?:CUDA|GPU) device|"
    r"\b(?:can't|cannot|can not) (?:train|be used|run)[^\n]{0,120}?\bin any distributed mode")
# the kind of check it is, for its fix: the device each process uses, or a model loaded across devices
R_SAME_DEVICE = re.compile(r"same (?:CUDA|GPU) device")
# A framework's own check refusing to run multi-GPU or distributed at all ("ValueError: Multi-gpu and distributed
# training is currently not supported.", FastDP's trainer; "X does not support multi-GPU training"): the code path
# has no distributed mode, and every process started with several GPUs visible (or under a launcher) meets the same
# check (lead rules W, U (2), BQ (3); round 95's fast-differential-privacy-32) -- config, no rank, its remedy one GPU.
# Only the training / run as a whole refused, not one distributed feature ("distributed sampler is not supported")
# nor distributed refused under one condition ("... is not supported on Windows", "with CPU offload").
# The refusal's subject is the run itself: at the message's start, or a trainer / script / model class ("FooTrainer
# does not support multi-GPU") -- not one feature ("The streaming loader does not support distributed training",
# "X with distributed training is not supported": rule W, the feature's own option); nor a message offering its own
# option ("; pass --no-streaming", "use ... instead"), see R_NO_MULTI_GPU_OWN_OPTION.
R_NO_MULTI_GPU = re.compile(
    r"(?i)(?:^|[:.!] )(?:multi-?gpu|multi-?node|multiple GPUs|distributed)(?: (?:and|or) (?:multi-?gpu|"
    r"multi-?node|distributed))? (?:training|mode|inference|runs?|execution) (?:is|are) (?:currently |still |yet )?"
    r"(?:not (?:yet )?supported|unsupported)\b(?! (?:on|with|for|when|in|by|under|using|without)\b)|"
    r"(?:^|[:.!] )(?:The |This )?\w{0,40}(?:Trainer|Engine|Runner|Model|script|trainer|engine|runner|model|this) "
    r"(?:does|do) not (?:yet |currently )?support (?:multi-?gpu|multi-?node|multiple GPUs|distributed "
    r"(?:training|mode|runs?))\b")
R_NO_MULTI_GPU_OWN_OPTION = re.compile(r"(?i)[;,(] ?(?:please )?((?:pass|set|use|add|disable|enable|try) "
                                      r"(?:--|\w)[^;\n]{0,120})|"
                                      r"\b(use \S{1,60} instead)\b")
# one feature refused under distributed running, any subject ("The streaming loader does not support distributed
# training", "X with distributed training is not supported"): with its own option, a rule W settings conflict
R_DIST_FEATURE_REFUSED = re.compile(r"(?i)\b(?:does|do) not (?:yet |currently )?support (?:multi-?gpu|multi-?node|"
                                    r"multiple GPUs|distributed)|\b(?:multi-?gpu|distributed) (?:training|mode|runs?) "
                                    r"(?:is|are) (?:currently )?(?:not supported|unsupported)")
# A framework's own check that two of the job's settings cannot be combined, as a statement with or without an
# exception class before it (lead rule W): DeepSpeed's pipeline engine asserting "ZeRO-2 and ZeRO-3 are incompatible
# with pipeline parallelism", "--fp16 and --bf16 are mutually incompatible", "sequence parallelism cannot be used
# together with ...". Every rank is started with the same settings: config, no rank. Read only where the statement
# names a parallelism or training setting (R_SETTINGS_TERM) and not a version or an install (a library built for
# another CUDA or GPU is another reading), and never as a warning that the framework goes on after (R_CLASH_GOES_ON).
R_SETTINGS_CLASH = re.compile(
    r"(?i:\b(?:is|are)\s+(?:mutually\s+)?(?:incompatible|not\s+compatible)\b"
    r"|\b(?:cannot|can\s?not|can't)\s+be\s+(?:used|combined|enabled)\s+(?:together\s+)?with\b)")
R_SETTINGS_TERM = re.compile(
    r"(?i:\bZeRO\b|\bzero[_ -]?stage|\bZeRO-?\d|\bpipeline|\b(?:tensor|sequence|context|expert|model|data)[_ -]"
    r"(?:model[_ -])?parallel|\bparallelism\b|\bFSDP\b|\bDDP\b|\bDeepSpeed\b|\boffload|\bshard|checkpointing\b|"
    r"gradient[_ ]accumulation|micro[_ ]?batch|\bfp16\b|\bbf16\b|mixed[_ ]precision|world[_ ]size)"
    r"|(?:^|\s)--[a-z][\w-]{1,60}")
R_CLASH_GOES_ON = re.compile(r"(?i:warn|\bINFO\b|ignor|disabl|fall(?:ing)?\s+back|automatically|defaulting|"
                             r"\bversions?\b|\bdriver\b|compiled|installation|installed|capability|\bsm_\d|toolkit)")
# NVML's own warning (printed by the GDK's libnvidia-ml.so stub when a process loads it): "libnvidia-ml.so in GDK
# package is a stub library that is attached only for build purposes" -- the process loaded the build-time stub of
# the NVIDIA management library instead of the one the display driver installs (parse, verdict.unread._nvml_stub_cut)
R_NVML_STUB = re.compile(r"libnvidia-ml\.so[\w.]{0,12} in GDK package is a stub library")
# torch's own warning that it cannot use the NumPy installed beside it (tensor_numpy.cpp: "Failed to initialize NumPy:
# _ARRAY_API not found" -- torch built against NumPy 1.x loading NumPy 2.x; "... numpy.core.multiarray failed to
# import"): one installed library unable to load another, the install every process shares (parse,
# verdict.unread._numpy_abi_cut)
R_NUMPY_ABI = re.compile(r"Failed to initialize NumPy: (_ARRAY_API not found|numpy\.core\.multiarray failed to "
                         r"import)")


def settings_clash(text: str) -> re.Match | None:
    """A framework's own check saying two of the job's settings cannot be combined (R_SETTINGS_CLASH, lead rule W):
    its match where the statement names a parallelism or training setting and is neither a warning the framework goes
    on after nor about a version or an install; None otherwise."""
    m = R_SETTINGS_CLASH.search(text)
    if m is None or not R_SETTINGS_TERM.search(text) or R_CLASH_GOES_ON.search(text):
        return None
    return m
# The job's shared software failing to build at start-up (lead rule AF (2)): torch's cpp_extension JIT build of an op
# (DeepSpeed's op builder, a custom kernel) running ninja or a compiler that exits non-zero ("CalledProcessError:
# Command '['ninja', '-v']' returned non-zero exit status 1.", then "RuntimeError: Error building extension 'X'"). One
# rank builds while the others wait on its lock (then fail to load its .so from ~/.cache/torch_extensions), so whichever
# rank prints it is no culprit: config, no rank.
R_SHARED_BUILD = re.compile(r"Command '\[?'?(?:[^' ]{0,200}/)?(?:ninja|make|cmake|nvcc|hipcc|gcc|g\+\+|c\+\+|clang\+\+)"
                            r"(?![\w.+-])[^\n]{0,300}?returned non-zero exit status|"
                            # the same CalledProcessError with its line cut inside the command's list (a paste that
                            # keeps the first arguments only, torch.compile's Inductor building its generated C++ in
                            # cpp_builder: "Command '['g++', '/tmp/torchinductor_u/ab/x.cpp', '-D', ...,"): the
                            # compiler's command failed all the same; its status was cut, not a signal ("died with")
                            r"CalledProcessError: Command '\['(?:[^' \n]{0,200}/)?(?:ninja|make|cmake|nvcc|hipcc|gcc|"
                            r"g\+\+|c\+\+|clang\+\+)'(?:, '[^'\n]{0,400}'){0,80}(?:, '[^'\n]{0,400})?,?[ \t]*$|"
                            r"\bError building extension '(?P<ext>[\w.-]{1,80})'|"
                            # the ranks that waited on that build, loading the module it never wrote
                            r"torch_extensions/[^\n:]{0,200}?/(?P<so>\w{1,80})\.so: cannot open shared object file|"
                            # no CUDA toolkit to build with: DeepSpeed's op builder (MissingCUDAException "CUDA_HOME
                            # does not exist, unable to compile CUDA op(s)", raised even while `import deepspeed`
                            # checks which ops are compatible) and torch's cpp_extension ("CUDA_HOME environment
                            # variable is not set. Please set it to your CUDA install root.")
                            r"(?P<toolkit>\bCUDA_HOME (?:does not exist, unable to compile CUDA op|"
                            r"environment variable is not set\b))")
# DeepSpeed's CPU optimizers (DeepSpeedCPUAdam, DeepSpeedCPUAdagrad, DeepSpeedCPULion) hold their compiled op in
# self.ds_opt_<name>, set in __init__ by CPUAdamBuilder().load() (a JIT build of the cpu_adam op at first use): the
# destructor's "AttributeError: 'DeepSpeedCPUAdam' object has no attribute 'ds_opt_adam'" (printed under "Exception
# ignored in: <function DeepSpeedCPUAdam.__del__ ...>") says that load raised -- the op never built or loaded, the
# job's shared software every worker loads alike (lead rule AF (2); round 93's lmflow-471, simple-grpo-7, x-r1-68).
# Another class's destructor missing another attribute says only that its __init__ raised: not this.
R_DS_OP_UNSET = re.compile(r"'(?P<cls>DeepSpeedCPU[A-Z]\w{0,30})' object has no attribute "
                           r"'ds_opt_(?P<op>[a-z]\w{0,30})'")
# A code line building or loading a DeepSpeed op: a builder's load ("CPUAdamBuilder().load()", ".jit_load(") or the
# construction of an optimizer whose __init__ does ("DeepSpeedCPUAdam(", "FusedAdam("); group 1 the class
# -- DeepSpeed's own builder classes only (review 93 F4: a project's ConfigBuilder().load(path) is no op build); a
# FusedAdam( counts only in a stack that names deepspeed (parse._build_op_open: apex's FusedAdam is not DeepSpeed's)
_DS_BUILDERS = ("CPUAdam", "CPUAdagrad", "CPULion", "FusedAdam", "FusedLamb", "FusedLion", "AsyncIO", "GDS",
                "Inference", "Transformer", "StochasticTransformer", "Quantizer", "FPQuantizer", "SparseAttn", "Utils",
                "RandomLTD", "SpatialInference", "EvoformerAttn", "RaggedOps", "RaggedUtils", "InferenceCore",
                "InferenceCutlass", "CCLComm", "ShareMemComm", "DeepCompile", "NotImplemented")
R_OP_CALL = re.compile(r"\b((?:" + "|".join(sorted(_DS_BUILDERS, key=len, reverse=True)) + r")Builder)\(\)\."
                       r"(?:jit_)?load\(|\b(DeepSpeedCPU(?:Adam|Adagrad|Lion)|Fused(?:Adam|Lamb|Lion))\(")
# An op builder's class (DeepSpeed's CPUAdamBuilder, FusedAdamBuilder, AsyncIOBuilder) -> the op's name, its NAME
# as the torch_extensions directory spells it; the few whose NAME is not their class's words (op_builder/*.py:
# RaggedOpsBuilder.NAME = "ragged_device_ops", RaggedUtilsBuilder.NAME = "ragged_ops", ...)
_OP_NAME_OF = {"inference": "transformer_inference", "ragged_ops": "ragged_device_ops", "ragged_utils": "ragged_ops",
               "inference_core": "inference_core_ops", "inference_cutlass": "cutlass_ops",
               "ccl_comm": "deepspeed_ccl_comm", "share_mem_comm": "deepspeed_shm_comm", "deep_compile": "dc"}
# the op's NAME -> its install switch DS_BUILD_<VAR> where VAR is not NAME.upper() (the builders' BUILD_VAR:
# AsyncIOBuilder's is DS_BUILD_AIO, not DS_BUILD_ASYNC_IO)
_BUILD_VAR_OF = {"async_io": "AIO", "deepspeed_ccl_comm": "CCL_COMM", "deepspeed_shm_comm": "SHM_COMM",
                 "dc": "DEEP_COMPILE"}
_R_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def ds_op_name(builder: str) -> str:
    """The op a DeepSpeed builder class (or optimizer class) builds: "CPUAdamBuilder" and "DeepSpeedCPUAdam" ->
    "cpu_adam", "FusedAdamBuilder" -> "fused_adam", "AsyncIOBuilder" -> "async_io" (the name DS_BUILD_<NAME> and
    ~/.cache/torch_extensions/<py_cu>/<name> use)."""
    base = builder[len("DeepSpeed"):] if builder.startswith("DeepSpeed") else builder
    base = base[: -len("Builder")] if base.endswith("Builder") else base
    name = _R_CAMEL.sub("_", base).lower()
    return _OP_NAME_OF.get(name, name)


# the op's name -> its builder class, for every class of _DS_BUILDERS (review 93 F8: a name rebuilt from the op,
# "TransformerInferenceBuilder", "GdsBuilder", is no class and its one-line load raises ImportError)
_OP_BUILDER_OF: dict[str, str] = {}


def ds_op_builder(op: str) -> str:
    """The builder class of a DeepSpeed op's name ("cpu_adam" -> "CPUAdamBuilder", "transformer_inference" ->
    "InferenceBuilder", "gds" -> "GDSBuilder"), for the fix's one-line load."""
    if not _OP_BUILDER_OF:
        _OP_BUILDER_OF.update((ds_op_name(b + "Builder"), b + "Builder") for b in _DS_BUILDERS)
    return _OP_BUILDER_OF.get(op) or (
        "".join(w.upper() if w in ("cpu", "io") else w.capitalize() for w in op.split("_")) + "Builder")


def ds_op_load_cmd(op: str) -> str:
    """The one-line load of a DeepSpeed op, run alone to see its JIT build's own error (verdict.launch._op_build,
    verdict.unread._jit_build_fix: one text for both, review 93 F14)."""
    b = ds_op_builder(op)
    return f"python -c 'import deepspeed; from deepspeed.ops.op_builder import {b}; {b}().load()'"


def ds_op_rebuild(op: str) -> str:
    """Pre-building a DeepSpeed op at install instead of its JIT build on first use (its builder's BUILD_VAR)."""
    var = _BUILD_VAR_OF.get(op, op.upper())
    return (f"rebuild {op}: DS_BUILD_{var}=1 pip install deepspeed --no-build-isolation --no-cache-dir (or "
            "DS_BUILD_OPS=1 for all)")


# Turning the Flight Recorder on for the next run, on every torch that has it: TORCH_FR_BUFFER_SIZE is its name from
# torch 2.8 (TORCH_NCCL_TRACE_BUFFER_SIZE before, still read as an alias); dumps on a timeout were off by default
# until torch 2.6-2.7 (TORCH_NCCL_DUMP_ON_TIMEOUT, knowledge/torch_env_and_flight_recorder.md)
FR_ON = ("TORCH_FR_BUFFER_SIZE=2000; on torch < 2.8 TORCH_NCCL_TRACE_BUFFER_SIZE=2000 with "
         "TORCH_NCCL_DUMP_ON_TIMEOUT=1")

# training without DeepSpeed's CPU optimizer ops meanwhile (the cpu_* ops' fix)
DS_OFFLOAD_OFF = "offload_optimizer off (no DeepSpeedCPUAdam)"


# A source build failing in its compiler (lead rule AF (2)): nvcc's summary after its errors ("1 error detected in the
# compilation of "/tmp/tmpxft_00001ee3_00000000-11_core.compute_52.cpp1.ii".") -- a build of the job's software (a
# framework's bundled NCCL built by make, an extension) stopped before anything ran. R_COMPILER_DIAG: the compiler's
# own error line before it, nvcc's "src/core.cu(717): error: identifier "so" is undefined" or gcc's "x.cc:12:3: error:".
R_NVCC_FAILED = re.compile(r"\b\d{1,5} errors? detected in the compilation of \"(?P<file>[^\"\n]{1,400})\"")
# A path of NCCL's own source tree or its build target in a source build's lines ("third_party/nccl/src/core.cu",
# "/home/x/nccl/build/obj/core.o", make's "nccl_external-prefix/...", "nccl-2.18.3/src/..."): the failing file is NCCL's
# (readers.crash._shared_build, parse.input_tail; verdict.launch._source_build's NCCL words)
R_NCCL_BUILD_PATH = re.compile(r"(?:^|[/\s`'\[\"(])nccl(?:[-_.][\w.]{1,40})?(?=/)|\bnccl_external\b|"
                               r"(?:^|[/\s`'\[\"(])nccl(?:[-_.]\d[\w.]{0,40})?'", re.IGNORECASE)
R_COMPILER_DIAG = re.compile(r"^(?P<file>[^\s()]{1,300}?)(?:\(\d{1,7}\)|:\d{1,7}:\d{1,5}): (?:fatal )?error: \S")
# A library's loader failing to resolve a function in a shared library it opened (dlsym): "Invalid handle. Cannot load
# symbol cublasLtGetVersion" (a CUDA library's lazy-loading stub), "Could not load symbol X", "Failed to resolve symbol
# X": the library installed is missing or of another version than the code calling it was built for -- the job's shared
# install, the same on every process that loads it (lead rule AF (2)). NCCL's own plugin probes ("Failed to find
# ncclCollNetPlugin symbol") say "find" and go on: not this.
# The NVIDIA driver's NVML library lacking a function the caller was built against: torch's own lookup failing
# (c10/cuda/driver_api.cpp's assert "Can't find nvmlDeviceGetNvLinkRemoteDeviceType: /lib64/libnvidia-ml.so.1:
# undefined symbol: nvmlDeviceGetNvLinkRemoteDeviceType"): the installed driver is older than the torch build needs,
# the host's install every process loads alike (lead rules AF (2), AX (2))
R_NVML_SYMBOL = re.compile(r"(?P<lib>[\w./\-]{0,200}libnvidia-ml\.so[\w.]{0,12}): undefined symbol: "
                           r"(?P<sym>nvml\w{1,80})")
# The dynamic linker (ld.so) stopping a program when it binds a function at run time: "/opt/nccl-tests/build/
# all_reduce_perf: symbol lookup error: /opt/nccl-tests/build/all_reduce_perf: undefined symbol: ncclCommRegister" --
# the program (or the library named) was built against another version of the library that should define the symbol
# than the one loaded now (nccl-tests built with one NCCL's headers, run with another libnccl.so.2): the job's shared
# install, the same on every process (lead rule AF (2)). SYMBOL_LOOKUP is found first (str.find), then
# R_LOOKUP_UNDEFINED is matched right after it: the object that references the symbol and could not bind it (the
# program itself, or one of its libraries: "python: symbol lookup error: .../libtorch_cuda.so: undefined symbol:
# ncclCommRegister" is torch's library built against a newer NCCL than the one loaded), the symbol.
SYMBOL_LOOKUP = ": symbol lookup error: "
R_LOOKUP_UNDEFINED = re.compile(r"(?P<obj>[^\s:]{1,400}): undefined symbol: (?P<sym>[\w.@$]{1,300})")
R_LIB_UNLOADABLE = re.compile(r"\b(?:[Cc]annot|[Cc]ould not|[Ff]ailed to|[Uu]nable to) (?:load|resolve) (?:the )?"
                              r"symbol:? ['\"`]?(?P<sym>[A-Za-z_]\w{1,80})")
# One installed library refusing another at start-up because their versions do not match (lead rule AF (2), round 41's
# sentence): pybind11's "TypeError: <Class>: No constructor defined!" -- a Python class built on a C++ binding (a
# launcher's subclass of c10d's Store, torchelastic's EtcdStore) that the installed build does not let Python construct.
# The same install on every process: config, no rank, whoever printed it.
R_BINDING_MISSING = re.compile(r"(?:^|[\s:'\"(])(?P<cls>[A-Za-z_][\w.]{0,80}): No constructor defined!")
# pybind11's other refusal of the same kind: "TypeError: __init__(): incompatible constructor arguments. The following
# argument types are supported:" then "1. torch._C._distributed_c10d.TCPStore(host_name: str, ...)" and "Invoked with:
# ...; kwargs: multi_tenant=True" -- the compiled class accepts fewer or other arguments than the Python code calling it
# passes. Where that class is an installed library's (a module path, torch._C's) the caller is most often that
# library's own Python code of another version (torch.distributed.run calling an older torch._C): two installs mixed,
# the same on every process (lead rule AF (2)), config, no rank. The listing may follow on the next line (a traceback)
# or on the same one (a torchelastic error file's JSON, its newlines escaped). R_BINDING_LISTED: the first signature
# listed, its class; R_BINDING_KWARGS: the keyword arguments the call passed.
R_BINDING_ARGS = re.compile(r"\b__init__\(\): incompatible constructor arguments\b")
# (a paste cut inside the listed class's name, "1. torch._C._distributed_c" at the line's end: its complete components
# still name the library, kept with the cut flagged -- round 87's megatron-lm-766)
R_BINDING_LISTED = re.compile(r"(?:^|\s|\\n)1\. (?P<cls>[A-Za-z_]\w{0,60}(?:\.[A-Za-z_]\w{0,60}){1,8})(?P<end>\(|\s*$)")
# a settings check's message naming two settings, one to be divisible by the other ("num_layers should be divisible
# by pipeline_model_parallel_size", Megatron core's get_num_layers_to_build; round 108's bionemo-recipes-784): both
# names are settings every process is launched with, so the fix names them (verdict.launch._divisible_named); where the
# second is a size the launch sets (R_LAUNCH_SIZE_NAME), readers.crash reads it as the model's check of its config
# (cfg_multiple) even without the condition's code line
R_DIVISIBLE_NAMED = re.compile(r"\b(?P<a>[A-Za-z_][\w.]{1,60}) (?:should|must|has to|needs to) be (?:evenly )?"
                               r"divisible by (?:the )?(?P<b>[A-Za-z_][\w.]{1,60})")
# the arguments pybind11 shows a refused constructor was invoked with, where the first is a quoted host and the second
# a number ("Invoked with: 'localhost', 80000, 1, True, ...": TCPStore(host_name, port, ...)): the port the call
# passed, which TCPStore's binding takes as a 16-bit unsigned integer (verdict.launch._binding_args; round 108's
# vits-52)
R_BINDING_INVOKED_PORT = re.compile(r"\bInvoked with: ['\"][^'\"\n]{1,255}['\"], (?P<port>\d{1,12})\b")
# transformers' / huggingface_hub's own check that the model a script was given is neither a local folder nor a
# repository it can reach ("OSError: foo/bar is not a local folder and is not a valid model identifier listed on
# 'https://huggingface.co/models'", then "If this is a private repository, make sure to pass a token ..."): the model
# path or name every worker is launched with cannot be read -- a launch setting, config, no rank (lead rules BF (3),
# U (2), Q; round 108's hf-space-temp-org-kosmos-g). Its head (the exception's class, the model id) may be cut.
R_HF_MODEL_ID = re.compile(r"\bnot a valid model identifier listed on '?https?://huggingface\.co/models\b")
R_BINDING_KWARGS = re.compile(r"\bkwargs: (?P<kw>\w{1,60}=[^\n\"]{1,120}?)\s*(?:\"|$)")
# pybind11 refusing a compiled function's arguments where the one signature it lists takes none ("TypeError:
# UbufP2PCommOverlap(): incompatible function arguments. The following argument types are supported:" then "1. () ->
# None"): the installed build has only a stub under that name (an API its version deprecated or removed, or a feature
# it was built without), and the Python code calling it passes arguments -- an application written for another
# version of that library, the same install on every process (lead rules AF (2) with round 41's sentence, BR (1);
# round 88's transformerengine-1365). A listing with parameters (DDP's _queue_reduction refusing its bucket) is not
# this: R_BINDING_FN opens the reading, R_BINDING_NONE (the listing's one line) makes it.
R_BINDING_FN = re.compile(r"(?:^|[\s:'\"(])(?P<fn>[A-Za-z_]\w{0,80})\(\): incompatible function arguments\b")
R_BINDING_NONE = re.compile(r"^\s{0,12}1\. \(\) -> None\s*$")
# A shared library the job needs failing to load at start-up, said as an error (lead rule AF (2), like rule AT (1)'s
# libcuda case): a framework's own dynamic loader ("Error: Failed to find dynamic library: libnccl.so ( <dlerror> )",
# Paddle's dynload, followed by its LD_LIBRARY_PATH hints) or Python's import of it ("ImportError: libcudart.so.11.0:
# cannot open shared object file: No such file or directory", "OSError: ..."). Group lib: the library. The many probes
# that go on without their library (NCCL's net plugin "NET/Plugin : dlerror=libnccl-net.so: cannot open shared object
# file", libibverbs' "couldn't load driver", XLA's "Unable to initialize backend 'tpu'") are INFO or warnings, not
# this: the reader takes only an error line (readers.crash._lib_not_loaded). A framework's own wrapper that loads a
# library by name says it in its own words, naming the library and the file it tried: vLLM's pynccl ("ERROR ...
# pynccl.py:44] Failed to load NCCL library from libnccl.so.2 .") -- group flib, the file's name without its directory.
R_LIB_NOT_LOADED = re.compile(r"\bFailed to (?:find|load|open) dynamic library:? "
                              r"(?P<lib>[\w.+-]{1,80}\.(?:so|dylib|dll)[\w.]{0,20})|"
                              r"^(?:[\w.]{0,60}\.)?(?:ImportError|OSError): (?P<pylib>[\w.+-]{1,80}\.so[\w.]{0,20}): "
                              r"cannot open shared object file|"
                              r"\b(?:Failed|Unable) to load (?:the )?[\w.+-]{1,40} library from '?"
                              r"(?:[\w.+-]{0,80}/){0,16}(?P<flib>[\w+-]{1,80}(?:\.[\w+-]{1,20}){0,3}\.(?:so|dylib|dll)(?:\.\d{1,6}){0,4})\b")
# A logger's record at error level whose header strip_prefixes leaves on the line: vLLM's ("ERROR 04-22 15:53:32
# pynccl.py:44] ...", R_VLLM_LOG_HEAD at its error levels). The record's level is what says it failed, not its words.
R_ERROR_RECORD = re.compile(r"^\s{0,8}(?:ERROR|CRITICAL) \d\d-\d\d \d\d:\d\d:\d\d \[?[\w.]{1,80}:\d{1,6}\] ")
# The environment variable a library's own message tells the user to point at the library's file or directory
# ("please set the environment variable VLLM_NCCL_SO_PATH to point to the correct nccl library path"): the fix
# names it
R_LIB_PATH_VAR = re.compile(r"\b(?:[Ss]et|[Ee]xport)\b[^\n]{0,60}?\b"
                            r"(?P<var>[A-Z][A-Z0-9]{0,30}(?:_[A-Z0-9]{1,30}){0,6}_(?:PATH|DIR|HOME|LIB|LIBRARY))\b(?:[^\n]{0,40}?\b(?:to|at)\b[^\n]{0,40}?\blibrary\b)")
# the dynamic linker's reason when the library was found but needs a newer C (or C++) runtime than the host has:
# "/lib64/libc.so.6: version `GLIBC_2.14' not found (required by .../libnccl.so)" -- a build for a newer OS
R_GLIBC_TOO_OLD = re.compile(r"(?P<have>[\w./+-]{0,200}?lib(?:c|stdc\+\+)\.so[\w.]{0,8}): version "
                             r"[`'](?P<ver>GLIBC(?:XX)?_[\d.]{1,12})' not found"
                             r"(?: \(required by (?P<by>[^\s)]{1,300})\))?")
# A library's warning that the version installed can start a feature only through one bootstrap (Megatron's
# initialize.py: "Transformer Engine v1.5.0+6a9edc3 supports only MPI bootstrap backend." -- its userbuffers for
# --tp-comm-overlap need the job launched under MPI): a launch setting every rank shares (lead rules V (1), W)
R_BOOTSTRAP_ONLY = re.compile(r"(?:(?P<who>\b[A-Z][\w-]{0,30}(?: [A-Z][\w-]{0,30}){0,3})"
                              r"(?: v?(?P<ver>\d[\w.+-]{0,40}))? )?"
                              r"supports only (?:the )?(?P<mode>[\w.-]{1,24}) bootstrap(?: backend)?\b")
# torch's lazy CUDA init refusing a process started by fork after its parent had initialised CUDA
# (torch/cuda/__init__.py: "Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must
# use the 'spawn' start method"): the start method every worker of a pool (vLLM's workers, a DataLoader's) is started
# with (rule AF (2)). A launcher's own words for the same refusal, caught from its forked workers: accelerate's
# notebook_launcher ("CUDA has been initialized before the `notebook_launcher` could create a forked subprocess", and
# its pre-launch check "An issue was found when verifying a stable environment for the notebook launcher. ... identify
# which one is problematic and causing CUDA to be initialized."), and its check of the parent before it forks ("you
# need to avoid running any instruction using `torch.cuda` in any cell"; its second half alone where the message is
# split over lines, as IPython's listing of the raise prints its string literals, one per numbered line: round 81's
# fastai-3923). Lightning's launcher refusing to fork its workers (ddp_notebook / ddp_fork: "Lightning can't create
# new processes if CUDA is already initialized."), the same refusal by the same check of the parent (round 110's
# lightning-21561)
# An RDMA library's own fork-safety check aborting the process (libfabric's EFA provider: "A process has executed an
# operation involving a call to the fork() system call ... For the libfabric EFA provider to work safely when fork()
# is called, you will need to set the following environment variable: RDMAV_FORK_SAFE ... Your job will now abort."):
# a process forked (a DataLoader worker, a subprocess) after the library registered memory, and the library ends it,
# naming the setting it lacks (verdict.launch._cuda_fork, lead rules W, BA (5)); the library's name (group "lib").
# Open MPI's own warning of the same fork ("Open MPI is currently operating in a condition that could result in
# memory corruption") lets the job run on and is not read here.
R_RDMA_FORK = re.compile(r"For the (?P<lib>[\w.-]{1,40}(?: [\w.-]{1,40}){0,4}?) to work safely when fork\(\)")
# torch_xla's PJRT spawn refusing to start its workers because the calling process already initialised the XLA runtime
# ("RuntimeError: Runtime is already initialized. Do not use the XLA device before calling xmp.spawn."), or a
# notebook's own handler printing it ("xmp.spawn FAILED: Runtime ALREADY initialized."): the same refusal of the parent
# as CUDA before a fork, a state every worker inherits (lead rules Q, W; rule CK; round 110's xla-9303). Read only on
# a line that names xmp.spawn too: "Runtime already initialized" alone is any runtime's.
# A rich (Typer / rich.traceback) traceback frame of accelerate's notebook_launcher ("│ /opt/conda/lib/python3.7/
# site-packages/accelerate/launchers.py:102 in notebook_launcher │"), and a rich frame's numbered context line holding
# its check of the parent ("│   100 │   │   │   if torch.cuda.is_initialized():   │"): the frame's line within three
# after that check is the check's own raise -- the launcher refusing to fork the workers (its ValueError's text cut
# below the box), the CUDA-before-fork config (lead rules Q, W; round 110's hf-notebooks-265)
R_NB_LAUNCHER_FRAME = re.compile(r"\blaunchers\.py:(?P<line>\d{1,5}) in notebook_launcher\b")
R_RICH_CUDA_CHECK = re.compile(r"(?:^|│)\s{0,8}(?P<n>\d{1,5}) │[│\s]{0,60}if torch\.cuda\.is_initiali[sz]ed\(\):")
R_XLA_RUNTIME_INIT = re.compile(r"\bRuntime (?:is |was )?already initiali[sz]ed\b", re.I)
R_CUDA_FORK = re.compile(r"Cannot re-initialize CUDA in forked subprocess(?:\. To use CUDA with multiprocessing, "
                         r"you must use the '?spawn'? start method)?|"
                         r"\bCUDA (?:has|had) (?:already )?been initiali[sz]ed before [^\n]{0,80}?\bfork(?:ed|ing)?\b|"
                         r"\bcausing CUDA to be initiali[sz]ed\b|"
                         r"\b(?:avoid running any instruction )?using `?torch\.cuda`? in any cell|"
                         r"\bcan'?t create new processes if CUDA is already initiali[sz]ed\b")
# An assertion's condition (its `assert` line, or the condition's own line of a multi-line assert, as Python 3.11+
# prints it) that a value is a multiple of a setting of the model's own config object ("hidden_states.size(1) %
# self.config.mini_batch_size == 0"): the check names a setting every rank is built with (lead rules W, BF (3); round
# 79's ttt-video-dit-22), not one rank's data. A multiple of a literal or of a local value names no setting.
R_CFG_MULTIPLE = re.compile(r"\S ?% ?(?:self\.)?(?:model_)?config\.(?P<name>\w{1,80})\)? ?(?:==|!=) ?0\b")
R_ASSERT_SRC = re.compile(r"^\s*assert\s+\S")
# An assertion's `assert` line whose condition names the world or a parallel size the launch sets ("assert
# model_parallel_size == len(checkpoints)", "assert world_size % tp_size == 0"): a cheap first test only -- the
# condition is then read operand by operand (readers.crash.world_cond): every other operand must be a fixed quantity
# (a checkpoint / device count, a config field, another parallel size, a literal), not a gathered or data-dependent
# value ("len(all_preds) == world_size", "batch.size(0) % world_size", "0 <= rank < world_size"). Rule BQ (3)'s
# check shown by its last frame, read even where the message under it is cut (lead rules W, AE; round 88's
# codellama-95). Group size: the size the condition names.
R_ASSERT_WORLD = re.compile(r"^\s*assert\s{1,8}[^\n#]{0,120}?\b(?P<size>(?:model|tensor|pipeline|data|expert|sequence|"
                            r"context)_(?:model_)?parallel_size|(?:mp|tp|pp|dp|ep)_size|(?:distributed_)?world_size|"
                            r"(?:get|xrt)_world_size\(\)|"
                            r"n_?procs?|num_processes)(?:\s{0,2}(?:==|!=|<=|>=|%)|\s{0,2}\)?\s*$)|"
                            r"^\s*assert\s{1,8}[^\n#]{0,120}?(?:==|!=|<=|>=)\s{0,2}(?:\w{1,30}\.){0,3}"
                            r"(?P<size2>(?:model|tensor|pipeline)_(?:model_)?parallel_size|(?:distributed_)?world_size|"
                            r"(?:get|xrt)_world_size\(\))")
# ... an operand of that condition: a dotted name with its call's arguments ("len(checkpoints)", "batch.size(0)",
# "torch.cuda.device_count()"), a call cut at the line's end ("len(": Python 3.9 prints a condition spread over lines
# by its first line), or a number; string literals are blanked first (R_STR_LIT)
R_COND_OPERAND = re.compile(r"[A-Za-z_][\w.]{0,120}(?:\([^()\n]{0,160}\)|\((?=\s*$))?|\d{1,12}\b")
R_STR_LIT = re.compile(r"[rbfuRBFU]{0,2}(?:\"[^\"\n]{0,300}\"|'[^'\n]{0,300}')")
# a size the launch sets (the world, a parallel size), by an operand's last name
R_LAUNCH_SIZE_NAME = re.compile(r"(?:(?:model|tensor|pipeline|data|expert|sequence|context|ulysses)_(?:model_)?"
                                r"parallel_size|(?:mp|tp|pp|dp|ep|cp|sp|ulysses)_size|(?:local_)?world_size|"
                                r"(?:get|xrt)_world_size\(\)|n_?procs?|num_procs|num_processes)$")
# a fixed quantity an operand's last name names: a device / node count, a count the model's config fixes
R_FIXED_NAME = re.compile(r"(?:device_count\(\)|num_gpus|n_?gpus?|gpus_per_node|nproc_per_node|nnodes|num_nodes|"
                          r"num_(?:attention_|key_value_)?heads|n_(?:kv_)?heads|num_(?:hidden_)?layers|n_layers|"
                          r"num_experts|hidden_size|vocab_size|num_shards|n_shards)$")
# the root of a config field ("args.tp", "self.config.num_heads", "cfg.model.mp")
R_CONFIG_ROOT = re.compile(r"(?:self\.)?(?:args|config|cfg|conf|opt|opts|hparams|params|model_args|training_args|"
                           r"model_config|parallel_config)\.")
# what a len() of a fixed quantity counts: the checkpoint's shard files, the devices / nodes / hosts
R_FIXED_COUNT = re.compile(r"ckpt|checkpoint|shard|\bfiles?\b|\bpaths?\b|gpu|device|\bnodes?\b|\bhosts?\b",
                           re.IGNORECASE)
R_CKPT_WORD = re.compile(r"ckpt|checkpoint|shard", re.IGNORECASE)
# a frame where a launch's layout is checked at start-up (a loader's build, a constructor, an init / set-up step)
R_SETUP_FUNC = re.compile(r"(?:__init__|build\w{0,40}|_?load\w{0,40}|from_pretrained|_?init\w{0,40}|setup\w{0,40}|"
                          r"_?initiali[sz]e\w{0,40}|create\w{0,40}|configure\w{0,40}|main|<module>)$")
# A traceback's code line reading an attribute off a parameter's gradient ("allreduce(param.grad.data)",
# "p.grad.div_(world_size)"): group "attr" the attribute read. An AttributeError right under it that 'NoneType' has no
# such attribute is that gradient None -- a parameter that got no gradient (parse._grad_src, crash reader's
# ``grad_none``)
R_GRAD_ATTR = re.compile(r"[\w\])]\.grad\.(?P<attr>[A-Za-z_]\w{0,60})")
# A traceback's frame in a program's own cross-rank consistency check (StyleGAN2-ADA's and its forks'
# misc.check_ddp_consistency, which broadcasts each parameter and buffer from rank 0 and asserts it equals the rank's
# own; a check_consistency / assert_consistent of another framework): group 1 its function. An AssertionError right
# under it says the values differ across ranks (parse._check_frame, verdict.unread._consistency_fix)
R_CONSISTENCY_FRAME = re.compile(
    r'\bFile "[^"\n]{1,1000}", line \d{1,7}, in ((?:check|assert|verify)_\w{0,60}consisten(?:cy|t)\w{0,60})\s*$')
# A traceback's frame in a framework's own distributed set-up function (mmengine's init_dist, DI-engine's dist_init,
# DeiT's init_distributed_mode, init_dist_pytorch): group 1 its function. An exception raised right in it (no deeper
# frame between) whose words name the launch (R_LAUNCH_WORDS) is that framework's check of how the job was launched
# (parse._dist_init_frame, verdict.launch._dist_init_check; lead rules W, U (2))
# A fully-sharded data-parallel wrapper's own assertion of its training state (fairscale's
# FullyShardedDataParallel.assert_state, which prints the stack then raises: "expected to be in states
# [<TrainingState.BACKWARD_POST: 4>] but current state is TrainingState.IDLE"), seen by its frame line: the wrapper's
# hooks fired in another order than it expects -- reentrant activation checkpointing re-running FSDP's forward inside
# backward (round 93's fairseq-3353). The frame line is what the prefilter passes (", in assert_")
R_FSDP_STATE_FRAME = re.compile(r'\bFile "[^"\n]{0,1000}fully_sharded_data_parallel\.py", line \d{1,7}, in '
                                r'assert_state\s*$')
R_DIST_INIT_FRAME = re.compile(r'\bFile "[^"\n]{1,1000}", line \d{1,7}, in (_?(?:init_dist|dist_init)\w{0,40})\s*$')
# The launch words of such a check's message: the launcher (its type), the rank or world size not given, the
# rendezvous variables or URL ("please indicate rank explicitly in dist_init method", "Invalid launcher type: none")
R_LAUNCH_WORDS = re.compile(r"(?i)\b(?:launcher|rank|world[_ ]size|local[_ ]rank|MASTER_(?:ADDR|PORT)|init[_ ]method|"
                            r"dist[_ ]url|SLURM_\w{1,20})\b")
# A C++/CUDA library's own host-side assertion printed with its file, line and condition: DeepEP's EP_HOST_ASSERT
# ("RuntimeError: Failed: Assertion error csrc/deep_ep.cpp:32 'num_ranks > NUM_MAX_NVL_PEERS or low_latency_mode'"),
# a paste turning FILE:LINE into a Markdown link ("[internode.cu:1713](http://internode.cu:1713/)"). (glibc's
# "Assertion `x' failed." carries no trigger word of load.py's and is not read here.)
R_HOST_ASSERT = re.compile(r"\bAssertion (?:error|failed):? (?P<where>\S{1,300}?:\d{1,6})\S{0,80}? "
                           r"'(?P<cond>[^'\n]{3,300})'")
# glibc's assert() in a C/C++ program's own host code ("train_gpt2cu: llmc/dataloader.h:186: void dataloader_init(...):
# Assertion `shard_ntok >= (int64_t) (num_processes * B * T + 1)' failed.", then SIGABRT): the same file, line and
# condition, read by the same rules (a device-side assertion carries "block: [...], thread: [...]" and is
# R_KERNEL_ASSERT's, never this)
R_GLIBC_ASSERT = re.compile(r"(?P<where>[\w./+-]{1,300}:\d{1,6}): [^\n]{0,300}?\bAssertion `(?P<cond>[^'`\n]{3,300})' "
                            r"failed")
# ... raised in a JIT compiler's own source tree while it compiles the job's kernels (Triton's, MLIR's or LLVM's C++:
# "python: /project/lib/Analysis/Allocation.cpp:40: ... mlir::triton::getCvtOrder(...): Assertion `...' failed"):
# the build of the shared software failing, the same kernel, compiler and GPU on every rank (lead rules AF (2), BV (4);
# round 91's vmamba-265). Read on the assertion's own span (R_GLIBC_ASSERT's match): a C++ namespace of those
# compilers, or a file under their trees
R_COMPILER_ASSERT = re.compile(r"\b(?:mlir|llvm|triton)::|[/\\](?:triton|llvm|mlir)[/\\]|"
                               r"[/\\]lib[/\\](?:Analysis|Conversion|Dialect|Target|Transforms)[/\\]")
# ... whose condition relates the job's launch shape or the library's buffer settings, the same on every rank (lead
# rules W, Q): a count of ranks, peers, nodes, GPUs, experts or SMs, a chunk or buffer size, a mode flag, a
# compile-time limit (NUM_MAX_NVL_PEERS). A condition on a tensor or pointer (x.size(0) == num_tokens, a data_ptr,
# nullptr) is a check of one call's arguments, not of the settings.
R_ASSERT_SETTING = re.compile(r"\b(?:num_\w{0,40}?(?:ranks?|peers?|nodes?|gpus?|experts?|sms|channels|"
                              r"process(?:es)?|procs?)|"
                              r"num_max_\w{1,60}|\w{0,40}chunk(?:ed)?_\w{1,60}|\w{0,40}_(?:bytes|buffer_size)|"
                              r"world_size|\w{1,40}_mode|NUM_[A-Z0-9_]{2,60}|[a-z_]{0,20}(?:rdma|nvl)_ranks?)\b")
# ... or an unreachable branch's assertion whose only content is its message, C's idiom for "no case for this value"
# ('false and "Unsupported RDMA ranks"', 'false && "..."', '0 && "..."': DeepEP's SWITCH_RANKS / SWITCH_RDMA_RANKS in
# launch.cuh, the switch on num_ranks or num_ranks / NUM_MAX_NVL_PEERS with a case per count it is compiled for; round
# 99's deepep-255) whose message says the count of ranks, RDMA ranks, nodes, peers or GPUs is not one of them: the
# launch shape every rank shares. Its "Unsupported type" / "Unsupported hidden" (a tensor's dtype, a model size) are
# no launch count and are not read so. group "count": what the message says is unsupported
R_ASSERT_NO_CASE = re.compile(r'^\s*(?:false|0)\s*(?:and|&&)\s*"(?i:unsupported) (?:number of )?'
                              r'(?P<count>(?i:(?:rdma |nvl |local )?(?:ranks?|nodes?|peers?|gpus?)))"\s*$')
R_ASSERT_DATA = re.compile(r"\.(?:size|dim|numel|nbytes|element_size|stride|is_contiguous|data_ptr|scalar_type|"
                           r"has_value)\(|"
                           r"\bnullptr\b|\bNULL\b|\bdtype\b")
# torch's rendezvous() finding no handler for the init_method's scheme: "No rendezvous handler for ://" (an empty
# init_method / --dist_url: no scheme at all), or for a scheme this torch build lacks (env:// and tcp:// on the
# Windows builds before TCPStore came to Windows): a launch setting or build every process shares (lead rules Q, W)
# The launch variables that place a process in the world, assigned by hand in a shell or a launch script ("export
# RANK=1", "WORLD_SIZE=1 python demo.py"): group 1 the name, group 2 the value. LOCAL_RANK / NODE_RANK are not
# these (the "_" before them is no boundary here). A RANK at or past WORLD_SIZE cannot join that world: the store
# its rank 0 hosts never starts (readers.settings._env_world_assign, verdict.world.world_unfit; lead rules AE, V (1))
R_ENV_WORLD_ASSIGN = re.compile(r"(?:^|[\s;`])(?:export\s{1,4})?(RANK|WORLD_SIZE)=['\"]?(\d{1,6})\b")
R_NO_HANDLER = re.compile(r"No rendezvous handler for (\w{0,16})://")
# A sharding planner's own check that the user's constraints leave a table no way to be sharded, raised while the plan
# is made (torchrec's EmbeddingEnumerator: "No available sharding type and compute kernel combination after applying
# user provided constraints for <table>", "No available compute kernels after applying ..."; round 72's torchrec-1614):
# the ParameterConstraints every rank is given, a RuntimeError that is no rank's own run failing (lead rules W, Q),
# config, no rank. Read on an exception's message only.
R_PLAN_CONSTRAINTS = re.compile(r"\bNo available [\w ]{1,60}? after applying (?:the )?user[ -]provided constraints\b")
# A pipeline framework's own check that the processes launched and the stages the model was split into do not match,
# raised while each process builds its stage (PiPPy's PipelineStage: "RuntimeError: Number of ranks is larger than
# number of stages, some ranks are unused"; round 75's accelerate-2497, prepare_pippy with split_points='auto'): the
# split and the process count are what every rank is given (lead rule W): config, no rank. Read on an exception's
# message only, and only where it names both counts.
R_STAGES_WORLD = re.compile(
    r"(?i:\b(?:number of |num[_ ])?(?:ranks|processes|workers|devices|GPUs|world[_ ]size)\b[^\n]{0,20}?\b(?:is |are )?"
    r"(?:larger|greater|more|bigger|smaller|less|fewer) than (?:the )?(?:number of |num[_ ])?(?:pipeline )?stages\b|"
    r"\b(?:number of |num[_ ])?(?:pipeline )?stages\b[^\n]{0,20}?\b(?:is |are )?(?:larger|greater|more|bigger|smaller|"
    r"less|fewer) than (?:the )?(?:number of |num[_ ])?(?:ranks|processes|workers|devices|GPUs|world[_ ]size)\b)")
# A sharding framework's own check that a parameter's dimension does not split evenly over the processes (thunder's
# FSDP: "RuntimeError: Current sharding requires the first dimension of the parameter 'lm_head.weight' (32001) to be
# divisible by the world size (8)"; round 76's lightning-thunder-248): the model every rank builds and the process
# count every rank is launched with (lead rules W, BF (4)): config, no rank. Read on an exception's message only, and
# only where the divisor is the world / the number of processes (a tensor's size divisible by a block size is one
# call's argument). Group what: the parameter, where named.
R_WORLD_DIVISIBLE = re.compile(
    r"(?i:\b(?:dimension|size|shape|length|vocab\w{0,12}|numel)\b[^\n]{0,80}?(?:'(?P<what>[\w.]{1,120})'"
    r"[^\n]{0,40}?)?\b(?:to be |is not |isn't |must be |should be |be )?(?:evenly )?divisible by (?:the )?"
    r"(?:world[ _]size|number of (?:ranks|processes|GPUs|devices|workers)|num[_ ](?:ranks|processes|gpus|devices))\b)")
# A framework's own check of the type of the model handed to its wrapper (thunder.distributed.fsdp: "TypeError:
# Expected `model` to be of type `thunder.core.module.ThunderModule`, but got Sequential" -- thunder.jit must wrap the
# model first; round 76's lightning-thunder-pr2629): the wrapping order in the script every rank runs alike (lead
# rules W, BF (4), AF (2)): config, no rank. Read on an exception's message only, and only where the argument is the
# model / module (a tensor's or an input's type is one call's data). Group want: the type expected.
R_MODEL_TYPE_CHECK = re.compile(r"\b[Ee]xpected [`'\"]?(?:model|module|the model|the module)[`'\"]? to be (?:of type |"
                                r"an instance of |an? )[`'\"]?(?P<want>[\w.]{1,160})[`'\"]?,? but (?:got|received|"
                                r"found|is)\b")
# torch.compile failing while it traces a graph over DTensor (a tensor-parallel / FSDP2 model's sharded tensors):
# "torch._dynamo.exc.TorchRuntimeError: Dynamo failed to run FX node with fake tensors: call_function <built-in
# function linear>(*(DTensor(local_tensor=FakeTensor(...), device_mesh=DeviceMesh(...), placements=(Shard(dim=...)...";
# round 76's cache-dit-460, "unhashable type: non-nested SymInt"). The graph, the placements and the torch build are
# the same on every rank of the mesh, so every rank compiles it alike and fails alike -- the shared software stack
# (lead rules AW, BB (1), AF (2)), even where one rank's traceback is the only one shown: config, no rank. Read on an
# exception of torch._dynamo's own classes whose message shows a DTensor argument.
R_DYNAMO_EXC = re.compile(r"(?:^|\.)(?:TorchRuntimeError|Unsupported|BackendCompilerFailed|"
                          r"InternalTorchDynamoError|UserError)$")
R_DTENSOR_ARG = re.compile(r"\bDTensor\((?:local_tensor=|\w{1,20}=)")
# A framework's own check that the config file a launch argument names does not exist, after it tried the value as a
# path, a dict and an inline (base64) config (transformers' / accelerate's HfDeepSpeedConfig: "ValueError: Expected a
# string path to an existing deepspeed config, or a dictionary, or a base64 encoded string. Received: ds.json"; round
# 75's baichuan-13b-148): the --deepspeed path every worker is launched with is not found from the working directory
# (lead rules BF (3), U (2)): config, no rank. Read on an exception's message only. Group ``got``: the value given.
R_CONFIG_PATH_REFUSED = re.compile(r"\b[Ee]xpected an? (?:string )?path to an existing (?P<what>[\w .-]{0,40}?)"
                                   r"\bconfig(?:uration)?(?: file)?\b[^\n]{0,160}?"
                                   r"(?:\bReceived:? ?(?P<got>\S{1,200}))?$")
# the decoding try that same check makes of the value before it gives up (binascii's "Invalid base64-encoded string",
# "Incorrect padding"), printed as the ValueError's own context: part of that refusal, no failure of its own
R_DECODE_TRY = re.compile(r"^(?:Invalid base64-encoded string|Incorrect padding)\b")
# A script's own check that a data, model or checkpoint file its settings name cannot be read, the path in its words
# (VideoChat-Flash's dataset: "AssertionError: Data in http://.../x.mp4 can't be read!"; round 72's videochat-flash-33,
# rule U (2) as its adjudication reads it: a path every worker is launched with, shown refused), on an AssertionError
# / ValueError / NotImplementedError's message only: config, no rank. Needs the path (a URL, or a path with a
# separator or a file extension) right before the words, so "Data can't be read" alone is not read so.
R_PATH_UNREADABLE = re.compile(
    r"(?:[a-z][a-z0-9+.-]{1,10}://|[/\\~.]|[A-Za-z]:\\)[^\s'\"]{0,300}?(?:/|\.[A-Za-z0-9]{2,5})[\"'`]?!?"
    r" (?:can't|can not|cannot|could not|couldn't) be (?:read|opened|loaded|decoded)\b|"
    r"\b(?:[Cc]an't|[Cc]annot|[Cc]ould not|[Cc]ouldn't|[Uu]nable to|[Ff]ailed to) (?:read|open|load) (?:the )?"
    r"(?:data|dataset|annotation|video|image|audio|file)s?(?: file)? (?:at |from |in )?[\"'`]?"
    r"(?:[a-z][a-z0-9+.-]{1,10}://|[/\\~]|[A-Za-z]:\\)")
# A library's own check refusing a value of its settings because another instance already holds it, and asking for
# another ("ValueError: Reused local directory: ['/data/c4'] vs ['/data/c4']. Provide a different one.",
# mosaicml-streaming's get_shm_prefix: a StreamingDataset's local directory another StreamingDataset on the host -- a
# second job, a second dataset of this one -- registered first): a setting the job is built with, the same on every
# worker (lead rules W, BF (3), U (2); round 86's streaming-306): config, no rank. Group "what": the setting it names.
# The words that ask for a different value are needed: a bare "duplicate" or "already exists" (a file, a key) is not
# read so.
R_REUSED_SETTING = re.compile(
    r"\b(?:[Rr]eused|[Dd]uplicated?|[Cc]onflicting) (?P<what>[A-Za-z][\w -]{0,40}?) ?: [^\n]{0,400}?"
    r"\b(?:[Pp]rovide|[Uu]se|[Cc]hoose|[Pp]ick|[Ss]pecify|[Gg]ive|[Ss]et) (?:a )?different (?:one|value|\w{1,30})\b")
# A framework's own check that the devices a process sees are as many as its launch expects, raised before anything
# ran: torch_xla's replication set-up in each child of xmp.spawn ("RuntimeError: Cannot replicate if number of devices
# (1) is different from 8": the child sees one device where the launch asks for eight, as when the parent process
# acquired the XLA device before forking), "number of GPUs (2) does not match ...". The devices visible and the process
# count are the launch's settings, the same for every child (lead rules W, Q): config, no rank.
R_DEVICE_COUNT_CHECK = re.compile(r"(?i:\bnumber of (?:devices|GPUs|TPU (?:cores|devices)|accelerators|replicas)\b"
                                  r"(?: ?\(\d{1,6}\))?[^\n]{0,60}?\b(?:is different from|differs? from|does not match|"
                                  r"doesn't match|(?:is )?not equal to)\b)")
# The rest of a framework's check of the devices a job asks for, printed on the lines under its exception's empty
# message (Lightning's MisconfigurationException: "You requested GPUs: [0, 1]" then "But your machine only has: [0]"):
# the GPUs the process sees are fewer than its settings ask for -- the allocation (Slurm's --gres) or
# CUDA_VISIBLE_DEVICES against the trainer's devices, the same for every task (lead rules W, AU (2)): config, no rank
R_DEVICES_ONLY = re.compile(r"(?i:\b(?:machine|node|host|system) only has:? ?(?:\[[\d, ]{0,80}\]|\d{1,4} "
                            r"(?:CUDA )?(?:GPUs?|devices?)\b))")
# ... and the same check's exception on one line, its message's line break kept as the two characters "\\n" (the
# exception's repr, "MisconfigurationException('You requested gpu: [0, 1, 2, 3]\\n But your machine only has: [0]"),
# or joined with a space: the class, then its message holding the devices seen (R_DEVICES_ONLY, searched after it):
# readers.crash, verdict.launch._device_count (round 96's pytorch-lightning-16828)
R_DEVICES_ONLY_EXC = re.compile(r"^\s*(?P<type>(?:[A-Za-z_][\w]{0,60}\.){0,8}[A-Z]\w{0,60}(?:Exception|Error))"
                                r"(?::\s?|\(['\"])(?P<msg>[^\n]{1,400})")
# A cluster launcher's check that the shared folder it puts the job's directory and file:// rendezvous in exists
# (submitit launch scripts' get_shared_folder(): "RuntimeError: No shared folder available"), failing before any
# worker runs: the launch set-up every node shares (lead rule X (2)), config, no rank
# torch refusing to combine two tensors of different floating dtypes ("expected mat1 and mat2 to have the same dtype,
# but got: float != double", "expected scalar type Float but found Double", "found dtype Double but expected Float"):
# the model's weights or buffers in one precision and its inputs in another -- a precision setting (default dtype, a
# checkpoint's dtype) every rank is built with, deterministic in the code every rank runs (lead rules Q, AF (2))
R_DTYPE_CLASH = re.compile(r"\bexpected [\w ,]{1,60}? to have the same dtype\b|"
                           r"\bexpected scalar type \w{1,20} but found \w{1,20}|"
                           r"\bfound dtype \w{1,20} but expected \w{1,20}")
# FSDP's own check of the parameters it flattens into one FlatParameter when it wraps a module
# (torch/distributed/fsdp/_flat_param.py, _validate_tensors_to_flatten): "Must flatten tensors with uniform dtype but
# got torch.bfloat16 and torch.float32" (an adapter kept in fp32 beside a bf16 base model), "Must flatten tensors with
# uniform `requires_grad` when `use_orig_params=False`" (frozen and trainable parameters in one unit), "Must flatten
# tensors on the same device but got both cpu and cuda:0". Every rank wraps the same model with the same settings, so
# every rank fails the same check at wrap time (lead rules Q, W, AF (2)). Group what: the property that differs.
# The same function's "Cannot flatten integer dtype tensors" (round 72's axolotl-2250, llama-cookbook-675): a unit
# holding quantized weights (bitsandbytes int8, or 4-bit stored as uint8) that FSDP cannot flatten -- the wrapper
# refusing the model's parameters is config, not a c10d call's invalid usage (group integer). FSDP's own assertion of
# the same property before it flattens ("AssertionError: FSDP expects uniform original parameter dtype but got
# {torch.bfloat16, torch.float32}": a model cast to bf16 in part, round 110's mini-trainer-115) is the dtype check
# (group orig)
R_FSDP_FLATTEN = re.compile(r"\bMust flatten tensors (?:with uniform `?(?P<what>dtype|requires_grad)`?|"
                            r"(?P<device>on the same device))\b|"
                            r"\bCannot flatten (?P<integer>integer) dtype tensors\b|"
                            r"\bFSDP expects uniform original parameter (?P<orig>dtype)\b")
# accelerate's own check in its DataLoaderDispatcher (data_loader.py): "You can't use batches of different size with
# `dispatch_batches=True` or when using an `IterableDataset`. Either pass `dispatch_batches=False` ... or pass
# `split_batches=True`" -- the main process fetched per-process batches of different sizes and cannot concatenate
# them under the dataloader settings every process shares (lead rule W: a framework's check of its settings, config,
# no rank; round 104's llamafactory-2763). Both the refusal and the setting it names are needed
R_DISPATCH_UNEVEN = re.compile(r"\bbatches of different sizes? with `?dispatch_batches=True`?")
# The job's JIT compiler's own cache of built kernels failing to load one of its modules (an ImportError of a
# ".so" under Triton's cache, ~/.triton/cache or a TRITON_CACHE_DIR named triton_cache, or Inductor's
# /tmp/torchinductor_<user>): the shared software every rank builds and loads the same way (lead rules AF (2), BV (4),
# J: config, no rank; round 104's pytorch-173679). Group path: the module's file; why: the loader's reason
R_JIT_CACHE_LOAD = re.compile(r"(?:^|\bImportError: )(?P<path>[^\s:'\"]{0,300}?/(?:\.triton/cache|[\w.-]{0,40}triton"
                              r"_?cache[\w.-]{0,40}|torchinductor_[\w.-]{1,60})/[^\s:'\"]{1,300}?\.so)\b:? ?"
                              r"(?P<why>[^\n]{0,160})")
# a node-local directory at a path's start (/tmp, /var/tmp, /dev/shm): a JIT cache there is one node's own copy, not
# a cache the job shares (review 104 (2) finding 3; readers.crash, verdict.base.jit_cache_shared)
R_NODE_LOCAL_DIR = re.compile(r"/(?:tmp|var/tmp|dev/shm)/")
R_NO_SHARED_DIR = re.compile(r"\b[Nn]o shared (?:folder|directory|dir|file ?system|filesystem)\b|"
                             r"\b[Ss]hared (?:folder|directory|dir|file ?system|filesystem) (?:is )?not "
                             r"(?:available|found|mounted|accessible)\b")
# A multi-host launcher's own check of the hosts and GPU slots it is asked for, raised before any worker starts
# (DeepSpeed's runner: "No slot '1' specified on host 'localhost'", "Hostname 'h2' not found in hostfile", a hostfile
# line it cannot read): --include/--exclude or the hostfile name slots the resource pool does not have, a launch
# set-up every worker shares (lead rules X (2), W), config, no rank
R_LAUNCHER_SLOTS = re.compile(r"\bNo slot '?[^'\s]{1,16}'? specified on host\b|"
                              r"\bHostname '?[^'\s]{1,255}'? not found in (?:the )?hostfile\b|"
                              r"\b[Hh]ostfile (?:contains (?:a bad entry|multiple entries)|is "
                              r"(?:empty or )?not formatted correctly)\b")
# A NameError for the function an entry-point script builds its command-line parser with ("NameError: name
# 'get_args_parser' is not defined", get_parser, parse_args, build_argparser): the script cannot even read the arguments
# it was launched with. Such a function comes from the package the script belongs to (a star import of its main
# module, a helper module), so it is undefined where the script and the installed package are of different versions
# (renamed, moved, removed); every worker is started with that same script (lead rules U (2), Q), not one rank's bug
R_ARGS_FACTORY_NAME = re.compile(r"^name '(?P<name>(?:get|make|build|create|setup|init)_(?:[a-z]{1,20}_){0,2}"
                                 r"(?:args?_?parser|argparser|parser|args|arguments|opts|options)|"
                                 r"parse_(?:args|arguments|opts|options))' is not defined\b")
# An exception that says the storage under a file failed (EIO, ENOSPC, ESTALE, EDQUOT, EROFS): a file read or
# written by the run (a dataset index, a checkpoint), not the network or NCCL
R_STORAGE_ERR = re.compile(r"Input/output error|No space left on device|Stale file handle|Disk quota exceeded|"
                           r"Read-only file system")
# torch asked for the NCCL backend where it cannot exist: a CPU-only torch build (distributed_c10d.py
# "Distributed package doesn't have NCCL built in", and its UserWarning "NCCL support is not compiled")
# or a machine without GPUs (ProcessGroupNCCL.cpp "ProcessGroupNCCL is only supported with GPUs, no GPUs found!").
# The store asked for its libuv backend (torch >= 2.4's default, TCPStore.cpp: "use_libuv was requested but PyTorch
# was built without libuv support, run with USE_LIBUV=0 to disable it"): a feature this torch build lacks (Windows
# wheels), a setting every rank shares (lead rule Q's last sentence): config, read before the store's failure words.
# torch 2.4's TCPStore.cpp printed it "PyTorch was build without libuv support" (the typo fixed later): both spellings.
R_NO_LIBUV = re.compile(r"use_libuv was requested but PyTorch was buil[dt] without libuv support")
# ProcessGroupGloo's device made by torch's GlooDeviceFactory (torch/csrc/distributed/c10d/GlooDeviceFactory.cpp):
# "makeDeviceForHostname(): unsupported gloo device" / "makeDeviceForInterface(): ..." is thrown only when its
# registry has no creator for the transport (TCP on Linux/macOS, UV on Windows and in libuv builds, or the one
# GLOO_DEVICE_TRANSPORT names) -- before any address is resolved. The torch build (or its environment) every process
# shares cannot serve the gloo backend (lead rules Q's last sentence, AP): config, no rank. gloo's own address errors
# ("Unable to find interface", "interface or hostname can't be empty") are other words, read as network setup.
R_NO_GLOO_DEVICE = re.compile(r"makeDeviceFor(?:Hostname|Interface)\(\): unsupported gloo device")
# The same shape in other builds: torch 0.4's THD ("RuntimeError: the distributed NCCL backend is not available; try
# to recompile the THD package with CUDA and NCCL 2+ support") and XLA (JAX, TensorFlow) finding no loadable libnccl
# ("NCCL operation ncclGetUniqueId(&id) failed: Unable to load NCCL library. Multi-GPU collectives will not work."):
# the install every process shares has no NCCL (lead rule Q's last sentence), config, no rank.
R_NO_NCCL = re.compile(r"Distributed package doesn't have NCCL built in|NCCL support is not compiled|"
                       # torch.cuda.nccl's own warning in a build without NCCL (torch/cuda/nccl.py: "UserWarning:
                       # PyTorch is not compiled with NCCL support", printed by torch.cuda.nccl.is_available() and
                       # NVIDIA's Jetson wheels at import): the same install every process shares (lead rules Q's
                       # last sentence, AF (2); round 90's nccl-1561)
                       r"\bPyTorch is not compiled with NCCL support\b|"
                       # the same check for the other c10d backends (distributed_c10d.py's _new_process_group_helper:
                       # "Distributed package doesn't have MPI built in. MPI is only included if you build PyTorch
                       # from source on a host that has MPI installed", and UCC's): the backend the job asked for is
                       # not in the torch build every process shares (lead rule Q's last sentence; round 74's
                       # open-ce-376), config, no rank
                       r"(?P<built>\bDistributed package doesn't have (?P<pkg>MPI|UCC|Gloo|GLOO) built in)|"
                       r"ProcessGroupNCCL is only supported with GPUs, no GPUs found|"
                       r"\bdistributed NCCL backend is not available|"
                       # torch's own CUDA entry points called in a torch built without CUDA (torch/cuda/__init__.py
                       # _lazy_init: "AssertionError: Torch not compiled with CUDA enabled"): a CPU or another
                       # accelerator's build (Intel XPU, ROCm's "HIP") running CUDA-only code -- the same build and code
                       # on every rank (lead rules Q, AF (2)), config, no rank
                       # torch's own CUDA bindings absent from torch._C (a CPU-only or macOS build has none: "module
                       # 'torch._C' has no attribute '_cuda_setDevice'" from torch.cuda.set_device): the same build
                       # asked for a CUDA device -- only the bindings every CUDA build has had, so that a newer one
                       # missing from an older torch (a version mismatch) is not read as no CUDA at all
                       r"(?P<nocuda>\bTorch not compiled with (?P<api>CUDA|HIP|XPU|MPS) enabled|"
                       r"\bmodule 'torch\._C' has no attribute '_cuda_(?:setDevice|getDevice|getDeviceCount|init|"
                       r"synchronize|getCurrentStream|emptyCache|isDriverSufficient|getArchFlags)')|"
                       r"(?P<lib>\bUnable to load (?:the )?NCCL library)|"
                       # Horovod's own ops given GPU tensors by a Horovod built without CUDA (horovod/torch's
                       # ready_event.cc: "Requested ReadyEvent with GPU device but not compiled with CUDA."): the
                       # collective library every rank installed alike has no GPU operations -- the shared install
                       # (lead rules AF (2), Q; round 95's once-for-all-29), config, no rank, however one rank's
                       # mpirun tag shows it
                       r"(?P<hvd>\bRequested \w{1,24} with GPU device but not compiled with CUDA\b|"
                       r"\bHorovod (?:was |is |has )?not (?:been )?(?:compiled|built) with (?:CUDA|GPU|NCCL) "
                       r"support\b)|"
                       # the mpi backend given GPU tensors with an MPI build that cannot carry them (ProcessGroupMPI.cpp
                       # "CUDA tensor detected and the MPI used doesn't have CUDA-aware MPI support"): the backend and
                       # the MPI install every rank shares, config, no rank
                       r"(?P<mpi>\bMPI used (?:doesn't|does not) have CUDA-aware MPI support|"
                       r"\bMPI (?:library |build |implementation )?(?:is not|isn't) CUDA-aware\b)|"
                       # init_process_group's backend name refused by torch's Backend(): a backend removed from this
                       # torch (1.0's "TCP backend has been deprecated. Please use Gloo or MPI backends ...", THD's)
                       # or no backend at all ("Invalid backend: 'ncll'"): a setting every process shares, config
                       r"(?P<backend>\b(?P<gone>\w{1,16}) backend has been (?:deprecated|removed)\b|"
                       r"\bInvalid backend: '(?P<bad>[^'\n]{0,40})')|"
                       # a collective's argument the backend every rank shares cannot take (distributed_c10d.py's
                       # barrier: "Function argument device_ids not supported for the selected backend gloo", gloo
                       # being the backend on Windows): the code and the backend every rank runs, config, no rank --
                       # even when the launcher's record names the one local rank it saw fail (lead rule Q)
                       r"(?P<arg>\bFunction argument (?P<argname>\w{1,40}) not supported for the selected backend "
                       r"(?P<argbackend>\w{1,20}))|"
                       # init_process_group without a backend on a device torch has no default backend for
                       # (distributed_c10d.py's BackendConfig: "We detected accelerator mps on your machine. But we
                       # don't know which communication backend to use for this accelerator. Please specify the
                       # `backend` argument ..."): the call every process makes, on the platform every process runs
                       # (lead rule Q's last sentence), config, no rank
                       r"(?P<noback>(?:\bWe detected accelerator (?P<accel>\w{1,16}) on your machine\. But we )?"
                       r"\bdon't know which communication backend to use\b)|"
                       # an inference engine's own communication layer refusing the backend it was asked for by name
                       # (LMDeploy TurboMind's comm/device_comm.cc: "Check failed: 0 Unknown communication backend:
                       # nccl" -- the factory's fall-through when the build has no such backend compiled in, e.g.
                       # built without BUILD_MULTI_GPU / NCCL): the install every worker shares, config, no rank
                       r"(?P<unbuilt>\bUnknown communication backend:? ?['\"]?(?P<ubk>[\w.-]{1,24}))")
# torch's warning that a barrier (or the first collective) does not know which GPU this process uses: 1.x-2.x's
# ProcessGroupNCCL "Rank N using best-guess GPU N to perform barrier as devices used by this process are currently
# unknown" (later "using GPU N to perform barrier ..."), 2.8's UserWarning "No device id is provided via
# `init_process_group` or `barrier`": a warning, harmless while every process uses its own GPU. Its first words
# alone suffice ("[best-guess] GPU N to perform barrier" says no other thing): a paste or a terminal wraps the long
# warning, so "... as devices used by" / "this process are currently unknown" may fall on two lines. torch 2.4+'s
# ProcessGroupNCCL says the same at its first collective or barrier without a bound device: "[PG ID 0 PG GUID 0 Rank
# 0]  using GPU 0 as device used by this process is currently unknown. This can potentially cause a hang if this rank
# to GPU mapping is incorrect. You can specify device_id in init_process_group() to force use of a particular device."
# (round 95's open-instruct-1055, wrapped over four lines): any of its three sentences' own words
R_BARRIER_GUESS = re.compile(r"GPU \d{1,4} to perform barrier\b|"
                             r"\bGPU \d{1,4} as device used by this process is\b|"
                             r"\bif this rank to GPU mapping is incorrect\b|"
                             r"device_id.{0,3} in .{0,3}init_process_group\(?\)?.{0,3} to force use of a particular "
                             r"device\b|"
                             r"No device id is provided via .{0,3}init_process_group.{0,3} or .{0,3}barrier|"
                             # torch 2.4+'s UserWarning (distributed_c10d.py / c10d_logger.py): "barrier(): using the
                             # device under current context. You can specify `device_id` in `init_process_group` to
                             # mute this warning." -- either half, since a paste or warnings.warn may split it in two
                             r"barrier\(\): using the device under (?:the )?current context|"
                             r"specify .{0,3}device_id.{0,3} in .{0,3}init_process_group.{0,3} to mute this warning")
# torch.distributed.launch's FutureWarning at every launch (torch 1.9-2.x): a deprecation notice, not a failure (lead
# rule L)
# torch's CudaIPCTypes.cpp warning as a process that shared CUDA tensors exits before their consumers released them
# (lead rule AH (3)): harmless with nothing failing after it
R_CUDA_IPC_EXIT = re.compile(r"Producer process has been terminated before all shared CUDA tensors released")
R_LAUNCH_DEPRECATED = re.compile(r"(?:module |\b)torch\.distributed\.launch is deprecated")
# torch's FutureWarning that FSDP1's state-dict-type context is deprecated ("FSDP.state_dict_type() and
# FSDP.set_state_dict_type() are being deprecated. Please use APIs, get_state_dict() and set_state_dict(), ..."),
# printed while a job saves or loads its state dict, even from get_state_dict's own use of it: a deprecation notice,
# nothing failing (lead rule L)
# Megatron dist_checkpointing's async save finalization as a frame of ProcessGroupNCCL's "Stack trace of the failed
# collective" ("#2 sync_all_async_calls from .../async_utils.py:149"): sync_all_async_calls /
# maybe_finalize_async_calls all_reduce whether every rank's async checkpoint write is done, so a rank still writing
# (or stuck in) its save is the one the others wait for there. Only that "#N func from" form: a Python traceback's
# frame line stays the traceback's
R_ASYNC_CKPT_FRAME = re.compile(r"(?<![\w#])#\d{1,3} (?:sync_all|maybe_finalize|finalize_all)_async_calls from\b")
R_FSDP_SDT_DEPRECATED = re.compile(r"\bset_state_dict_type\(\) (?:are|is) (?:being )?deprecated")
# DDP's reducer (reducer.cpp, torch >= 1.8) at the end of its first backward: "find_unused_parameters=True was specified
# in DDP constructor, but did not find any unused parameters [in the forward pass]. This flag results in an extra
# traversal of the autograd graph every iteration, which can adversely affect performance.": a performance notice
R_DDP_NONE_UNUSED = re.compile(r"find_unused_parameters=True was specified in DDP constructor, but did not find any "
                               r"unused parameters"
                               # a terminal copy with another window's column spliced into the sentence (round
                               # 100's damo-yolo-153: an nvtop table between "b" and "ut did not find"): the
                               # warning's own head and its "did not find any unused parameters" within a few
                               # hundred characters of it are still the reducer's notice
                               r"|find_unused_parameters=True was specified in DDP constructor, b\W.{0,300}?"
                               r"\bdid not find any unused parameters")
# Lightning's data connector at trainer.test() / validate() / predict() after a multi-device fit (a
# PossibleUserWarning): "Using `DistributedSampler` with the dataloaders. During `trainer.test()`, it is recommended to
# use `Trainer(devices=1)` to ensure each sample/batch gets evaluated exactly once. Otherwise, multi-device settings use
# `DistributedSampler` that replicates some samples ...": advice on exact metrics, nothing failed (lead rules K, N)
R_PL_TEST_SAMPLER = re.compile(r"Using `DistributedSampler` with the dataloaders\. During `trainer\.(?P<step>test|"
                               r"validate|predict)\(\)`")
# a serving engine's line as it sets up its NCCL communicator ("[2026-06-15 19:57:34 TP0] sglang is using
# nccl==2.28.9", vLLM's "vLLM is using nccl==2.21.5"): its pynccl wrapper loaded that libnccl and is about to call
# ncclCommInitRank -- a native crash right after it came in NCCL's set-up (round 104's sglang-28299)
R_ENGINE_NCCL = re.compile(r"\b(?:sglang|SGLang|vLLM|vllm) is using nccl==(\d{1,2}\.\d{1,3}\.\d{1,3})\b")
# gloo's TCP context's set-up report, once a process and process group ("[Gloo] Rank 5 is connected to 7 peer ranks.
# Expected number of connected peer ranks is : 7"): the rank reached every peer of its group -- chatter, no failure
# where the two numbers agree (round 104's gloo-462); one short of the expected is read as before (not read)
# A process's own print of a tensor beside its rank ("Pid is  117024 , Rank  0 , output is:  tensor([[ 5,  7],",
# "rank 3 result tensor([1., 2.])"): the program's debug output, no failure; several ranks' prints whose values differ
# are none with nothing failing (lead rules K, T, CG (2); round 106's pytorch-76527) -- the fix says when they may
# (read only where the line holds a trigger word, " Pid ", "received" and the like: "tensor([" is none, per-step
# prints hold it)
# a job's own print of a value "after broadcast" ("After broadcast data on rank 1 is tensor([1.], ...)"): the value
# a rank holds once the broadcast returned, which every member of the group shares (verdict.noise._rank_prints)
R_AFTER_BROADCAST = re.compile(r"\b[Aa]fter (?:the )?(?:dist\.)?broadcast\b")
R_RANK_TENSOR_PRINT = re.compile(r"\b[Rr]ank\s{0,4}[:=#]?\s{0,4}(?P<rank>\d{1,6})\b[^\n]{0,120}?\btensor\("
                                 r"(?P<value>\[[^\n]{0,200}?)(?:, ?(?:device|dtype|requires_grad|grad_fn)=|\)|$)")
# A benchmark script's own timing table header, its first column the message size and a bandwidth column in GB/s
# ("size(MB)   tavg(usec)    tmin(usec)    tmax(usec)  avgbw(GB/sec)  maxbw(GB/sec)  minbw(GB/sec)"): benchmark
# output, no failure (lead rules K, T; round 106's pytorch-communication-benchmarks-1) -- not nccl-tests' own header
# ("#  size  count  type ... algbw  busbw #wrong", its units a line below), which its own reader takes
R_BW_TABLE_HEAD = re.compile(r"(?<![\w.(])(?:msg_?)?size\s{0,2}\((?:B|KB|MB|GB|bytes|KiB|MiB|GiB)\)[^\n]{0,200}?"
                             r"\b\w{0,8}bw\(GB(?:/s(?:ec)?|ps)\)", re.I)
R_GLOO_PEERS = re.compile(r"\bRank (\d{1,7}) is connected to (\d{1,7}) peer ranks\. Expected number of connected "
                          r"peer ranks is ?: ?(\d{1,7})\b")
# an NCCL 2.3/2.4-era ring line pasted without the word NCCL ("learngpu060:3728593:3730444 [6] INFO Ring 00 : 6[6] ->
# 10[2] via P2P/IPC"): the printing host, then each end's rank and, in brackets, its CUDA device on that host. P2P/IPC
# joins GPUs of one host only, so two ranks on the same device index over P2P/IPC in one host's lines are two hosts
# NCCL took for one (round 104's nccl-187: hostnames equal up to the first dot)
R_OLD_P2P_RING = re.compile(r"(?<![\w.\-])(?P<host>[\w.\-]{1,255}):\d{1,10}:\d{1,10} \[\d{1,4}\] INFO Ring \d{1,3} ?: ?"
                            r"(?P<a>\d{1,7})\[(?P<da>\d{1,4})\] -> (?P<b>\d{1,7})\[(?P<db>\d{1,4})\] via P2P/IPC\b")

# transformers' tokenizer (tokenization_utils_base) when it tokenizes an example longer than the model's maximum:
# "Token indices sequence length is longer than the specified maximum sequence length for this model (21169 > 4096).
# Running this sequence through the model will result in indexing errors" -- printed once a process while a dataset is
# tokenized, the trainer truncating the examples later (cutoff_len, max_length): a warning (lead rules K, N)
R_TOKENIZER_TOO_LONG = re.compile(r"Token indices sequence length is longer than the specified maximum sequence "
                                  r"length for this model(?: \((?P<n>\d+) > (?P<max>\d+)\))?")
# ... and the last sentence of its error for parameters that got no gradient ("Expected to have finished reduction in
# the prior iteration ... In addition, you can set the environment variable TORCH_DISTRIBUTED_DEBUG to either INFO or
# DETAIL to print out information about which particular parameters did not receive gradient on this rank as part of
# this error", reducer.cpp torch >= 1.9): a paste that keeps only that tail still shows the reducer's unused-parameter
# error (its "INFO" keeps it from the failure lines' test, generic.R_NOT_A_FAILURE; parse keeps it unread)
R_DDP_UNUSED_HINT = re.compile(r"\bwhich particular parameters did not receive gradient on this rank\b")
# ... and the list that error ends in ("Parameter indices which did not receive grad for rank 7: 1360 1361 ...",
# torch >= 1.9; "Parameters which did not receive grad for rank 1: a.b.weight, ..." under TORCH_DISTRIBUTED_DEBUG=INFO
# or DETAIL): a paste that keeps only that list still shows the reducer's unused-parameter error, the rank in it only
# the printing one (lead rule AW; round 109's pytorch-70099, seervideoldm-5). Parse keeps it unread.
R_DDP_UNUSED_LIST = re.compile(r"\b(?:Parameter indices|Parameters) which did not receive grad for rank \d{1,6}:")
# DeepSpeed's comm.py (init_deepspeed_backend), once a process at start: "NCCL backend in DeepSpeed not yet
# implemented" -- its own optional NCCL backend is absent and it goes on with torch.distributed's NCCL: benign
R_DS_NCCL_BACKEND = re.compile(r"\b(?:NCCL|CCL|MPI) backend in DeepSpeed not yet implemented")
# Ray's raylet's disk monitor (src/ray/common/file_system_monitor.cc): "(raylet) file_system_monitor.cc:111:
# /tmp/ray/session_... is over 95% full, available space: N; capacity: M. Object creation will fail if spilling is
# required." -- a warning about Ray's temp dir (its object spilling), not a failure by itself
R_RAY_FS_FULL = re.compile(r"file_system_monitor\.cc:\d+\]?:?\s+(?P<path>\S+) is over (?P<pct>\d{1,3})% full\b")
# Ray's hint below its /dev/shm warnings, the raylet's "store_runner.cc:83: System memory request exceeds memory
# available in /dev/shm. The request is for N bytes, and the amount available is M bytes." and the driver's "The
# object store is using /tmp instead of /dev/shm because /dev/shm has only N bytes available. This will harm
# performance!": "You may be able to free up space by deleting files in /dev/shm. If you are inside a Docker
# container, ... '--shm-size' ...". A start-up warning with nothing failing after it is none (lead rules K, N, CI (1));
# the hint, not the warning's own line, is read: a wrap splits the warning anywhere, the hint holds its words on one
# line (round 108's gpustack-5014, open-instruct-1067)
# The raylet's own line is read too where a paste keeps it whole, and the hint cut at 80 columns
# before "/dev/shm" (review b of round 108, finding 7)
R_RAY_SHM_HINT = re.compile(r"free up space by deleting files in(?: /dev/shm|\s*$)|"
                            r"System memory request exceeds memory available in /dev/shm")
# vLLM's start-up line as a worker has loaded its weights ("model_runner.py:1099] Loading model weights took 16.9583
# GB", a Ray worker's under its "(RayWorkerWrapper pid=N, ip=...)" prefix): progress, no failure (lead rules K, T;
# round 108's hf-deepseek-v3-25)
# vLLM V1 (>= 0.6) words it "Model loading took 15.2241 GiB and 13.02 seconds" / "Loading weights took 12.31 seconds"
# (review b of round 108, finding 6)
R_VLLM_WEIGHTS_LOADED = re.compile(r"\b(?:Loading model weights took [\d.]+ ?[GM]i?B\b|"
                                   r"Model loading took [\d.]+ ?[GM]i?B and [\d.]+ ?s|Loading weights took [\d.]+ ?s)")
# A test script's own print of a collective's result, a line per rank under srun -l's "N: " tag ("11: allreduce
# result: tensor(-1657.0815, device='cuda:3')", NERSC's pytorch-nccl-test): the program's output, no failure; values
# that agree on every rank after a collective are the test working (lead rules K, CG (2); round 108's nersc-416584)
# Under torchrun's "[rankN]: " prefix too; a vector's value is its whole "[a, b, ...]" text, so elements past the
# first are compared (review b of round 108, findings 2 and 8)
R_COLL_RESULT_PRINT = re.compile(r"^\s{0,4}(?:\[rank(?P<trank>\d{1,6})\]|(?P<rank>\d{1,6})): "
                                 r"(?P<op>broadcast|all_?reduce|all_?gather|reduce) result: "
                                 r"tensor\((?P<value>\[[^\]\n]{0,400}\]?|[^,)\n]{1,200})")
# torch's notice that a setting does not apply to some operations: ProcessGroupNCCL.cpp's TORCH_WARN_ONCE (torch
# 2.1-2.2): "Warning: 0TORCH_NCCL_AVOID_RECORD_STREAMS=1 has no effect for point-to-point collectives. (function
# operator())", whose leading digit is the flag's value that TORCH_WARN_ONCE(flag, msg) printed into the text
# (0: not set, the warning fired anyway). A notice, no failure (lead rules K, L): a setting neither removed nor
# nonexistent.
R_SETTING_NO_EFFECT = re.compile(r"(?<![A-Za-z_])(?P<flag>[01])?(?P<var>(?:TORCH|NCCL)_[A-Z0-9_]{1,60})="
                                 r"(?P<val>[^\s=]{1,32}) has no effect (?P<prep>for|on|in|with|when) "
                                 r"(?P<what>[^.(\n]{1,80})")
# DDP's reducer (reducer.cpp, TORCH_WARN_ONCE) when a gradient's layout differs from its bucket's: "Grad strides do not
# match bucket view strides. This may indicate grad was not created according to the gradient layout contract, or that
# the param's strides changed since DDP was constructed.  This is not an error, but may impair performance." then
# "grad.sizes() = [...], strides() = [...]" / "bucket_view.sizes() = ...": a performance warning (lead rule K)
R_DDP_GRAD_STRIDES = re.compile(r"Grad strides do not match bucket view strides")
# FSDP's execution-order check (torch 1.12-2.x, fully_sharded_data_parallel.py / _exec_order_utils.py): "UserWarning:
# All-gather order differs from that of the first iteration on rank N -- collectives are unchecked and may give
# incorrect results or hang" (older wording "Forward order differs ..."). Each rank compares only with its own first
# iteration (eval after train, a module called twice in forward): a warning that says it *may* hang, nothing failed
# (lead rules K, N, T); a hang or timeout after it is read by its own lines
# (the kind before "order" left out of the pattern: a paste wraps the long line inside "All-gathe|r")
# A training framework's resume finding no data-loader state for its data-parallel rank in the checkpoint it loads
# (torchtitan's checkpoint.py: "WARNING - DataLoader state is empty for dp rank 16, expected key dp_rank_16."): the
# checkpoint was saved without the StatefulDataLoader's state (or under another dp degree), so that rank's data loader
# starts its data from the beginning -- a warning, nothing fails or stops after it (lead rules K, N)
R_DATALOADER_STATE_EMPTY = re.compile(r"\b[Dd]ata[Ll]oader state is empty for dp rank (\d{1,7})\b")
# Megatron-LM's own progress stamps (training.py's print_datetime: "[after dataloaders are built] datetime: 2023-09-11
# 07:02:50", "[before the start of training step] datetime: ...", "[after training is done] datetime: ..."): the
# stamp's step and its clock, read to the second (readers.exits._megatron_stamp)
R_MEGATRON_STAMP = re.compile(r"\[(after [a-z ,]{1,80}|before the start of training step)\] datetime: "
                              r"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)\s*$")
# FSDP's SimpleProfiler (torch/distributed/fsdp/_debug_utils.py) dumping its timings once a state-dict call ends:
# "torch.distributed.fsdp._debug_utils: [WARNING] FSDP _flatten_optim_state_dict() profiling:  defaultdict(<class
# 'float'>, {<Type.RESHARDING: 'resharding'>: 193.7})" (its logger.warning, not a failure: the call finished; lead
# rules K, N; round 107's pytorch-117476)
# verl's RayPPOTrainer.fit() printing its last validation once the last step ran, just before it returns: "Final
# validation metrics: {'val-core/...': 0.366}" (pprint may wrap the dict onto the next lines) -- the run finished
R_FINAL_VAL_METRICS = re.compile(r"\bFinal validation metrics: ?\{")
# CANN's TBE parallel compiler: its compile subprocess polls the process that started it and, once that process is
# gone, logs "[ERROR] TBE Subprocess[task_distribute] raise error[], main process disappeared!" and exits. After the
# run's own end line (R_FINAL_VAL_METRICS) it is that worker's normal exit, teardown noise (lead rules K, N; round
# 107's verl-2012); without one it says only that the main process went, read as before
R_TBE_ORPHAN = re.compile(r"\bTBE Subprocess\[\w{1,40}\] raise error\[[^\]\n]{0,200}\], main process disappeared")
R_FSDP_PROFILING = re.compile(r"\bFSDP _\w{1,60}\(\) profiling:")
R_FSDP_FIRST_ITER_ORDER = re.compile(r"order differs from that of the first iteration(?: on rank (\d+))?")
# c10d's socket.cpp formatting a peer's address for its log: "[c10d] The hostname of the client socket cannot be
# retrieved. err=-3" -- getnameinfo() failed (-3 EAI_AGAIN: a temporary name-resolution failure; -2 EAI_NONAME): a
# warning, the connection is made by address and goes on (lead rules K, L: a store warning with nothing failing)
R_C10D_NO_HOSTNAME = re.compile(r"\[c10d\] The hostname of the client socket cannot be retrieved\.?"
                                r"(?: err=(-?\d{1,4}))?")
# FFmpeg / libav's own log line, "[<context> @ 0x<address>] <message>" (av_log's prefix: the codec, demuxer or scaler
# instance that printed it): "[h264 @ 0x559ba07e2640] mmco: unref short failure", "[hevc @ 0x...] Could not find ref
# with POC 12", "[mov,mp4,m4a,3gp,3g2,mj2 @ 0x...] stream 1, offset 0x...: partial file". A video decoder in the data
# pipeline (torchvision / decord / PyAV, often a DataLoader worker) warning about the stream it decodes, then concealing
# or skipping the frame and going on: no failure of the job by itself (lead rules K, N); a reader that cannot open or
# decode a file raises its own exception, read by its own lines. The context is libav's short lower-case name list.
R_FFMPEG_LOG = re.compile(r"\[(?:[a-z][a-z0-9_]{0,23}(?:,[a-z0-9_]{1,23}){0,8}|NULL|AVIOContext|SWR|SwrContext) @ "
                          r"0x[0-9a-f]{6,16}\] \S")
# DeepSpeed ZeRO-3's partitioned-parameter coordinator (partitioned_param_coordinator.py) when a step fetches its
# modules in another order than the trace it recorded for prefetching: "Invalidate trace cache @ step 391: expected
# module 25, but got module 5" (older: "... expected module 6, but got module 0"). It drops the trace and records it
# again, training going on: informational, no failure (lead rules K, N; round 93's mplug-owl-208). Newer DeepSpeed
# words the same re-trace by the module the step reached past the end of its recorded trace: "Invalidate trace cache
# @ step 0 and module 1458: cache has only 0 modules" (round 107's visual-rft-51)
R_ZERO3_TRACE_CACHE = re.compile(r"\bInvalidate trace cache @ step (\d{1,9})(?:: expected module (\d{1,7}), but got "
                                 r"module (\d{1,7})| and module (\d{1,7}): cache has only (\d{1,7}) modules?\b)")
# DeepSpeed ZeRO-3's stage3.py step() warning: "13 pytorch allocator cache flushes since last step. this happens when
# there is high memory pressure and is detrimental to performance. ...": torch's caching allocator freed its cache to
# satisfy an allocation (cudaMalloc retries) -- memory pressure costing speed, the step going on: a performance
# warning, no failure (lead rules K, N; round 93's peft-194); an out-of-memory error after it is read by its own lines
# Python's warning that a process with running threads forked (multiprocessing's popen_fork.py under a DataLoader's
# workers): JAX's own "RuntimeWarning: os.fork() was called. os.fork() is incompatible with multithreaded code, and
# JAX is multithreaded, so this will likely lead to a deadlock." -- a start-up warning the process goes on after (lead
# rules K, N, AZ (4); round 110's alcf-nccl-tests-resnet50-20241108-2131). Read where its line reaches the readers
# (the trigger "ncompatible")
R_FORK_THREADS_WARN = re.compile(r"\bos\.fork\(\) was called\. os\.fork\(\) is incompatible with multithreaded code\b")
R_ZERO3_CACHE_FLUSHES = re.compile(r"\b(\d{1,9}) pytorch allocator cache flushes since last step\b")
# torchx's local scheduler (local_scheduler.py) warning at a job's start that role replicas asking for GPUs run without
# CUDA_VISIBLE_DEVICES set per replica: "Running multiple role replicas that require GPUs without / setting
# `CUDA_VISIBLE_DEVICES` may result in multiple / processes using the same GPU device ...", a box of lines of which
# the one naming the variable is read. A cautionary default warning, nothing failing after it (lead rules K, N, BR (3);
# round 93's torchrec-1611)
R_TORCHX_CVD_WARN = re.compile(r"setting `?CUDA_VISIBLE_DEVICES`? may result in multiple\b")
# A message that calls itself a warning and says how to silence it (SGLang's "Setup Custom allreduce failed with CUDART
# error: peer access is not supported between these two devices. To silence this warning, specify
# --disable-custom-all-reduce explicitly."): the program went on without an optional feature (its fallback), no
# failure (lead rule K); group 1 is its advice
R_SELF_WARNING = re.compile(r"\b(?:[Tt]o )?(?:silence|suppress|disable) this warning\b[,:]?\s*(.{0,120}?)\s*$")
# the IPv6 lookup warning's endpoint "(HOST, PORT)": a HOST with a path separator is no host name at all (RFC 1123)
R_IPV6_PATH_HOST = re.compile(r"The IPv6 network addresses of \(([^,()]*[/\\][^,()]*), (\d+)\)")
# c10d's own debug/trace level (TORCH_CPP_LOG_LEVEL=INFO with TORCH_DISTRIBUTED_DEBUG=DETAIL): "[I1107 01:20:27.77
# TCPStoreLibUvBackend.cpp:119] [c10d - debug] Read callback failed. code:-4095 name:EOF desc:end of file" -- the
# store's server noting a client's connection closed, which every client does when its process exits
R_C10D_DEBUG = re.compile(r"\[c10d - (?:debug|trace)\] ")
# torch 1.x's ProcessGroupNCCL destructor's note, printed by the process tearing its group down: "Process Group
# destroyed on rank 0" -- beside an error its ncclCommAbort raised, it says whose error that is
R_PG_DESTROYED = re.compile(r"\bProcess Group destroyed on rank (\d{1,7})\b")
# c10's warning that a CUDA call failed where it cannot raise (CUDAGuardImpl.h, a destructor: "Warning: CUDA warning:
# unspecified launch failure (function destroyEvent)"): the process printing it holds that CUDA error in its own
# context (a sticky kernel fault); under a rank tag it names the process whose untagged CUDA error follows
R_C10_CUDA_WARNING = re.compile(r"\bWarning: CUDA warning: [^()\n]{1,200}?\(function \w{1,64}\)")
# torch <= 1.8's distributed_c10d.py calling the default group directly ("work = _default_pg.broadcast([tensor],
# opts)"): a torch whose torch.distributed.launch only starts the workers, no elastic agent (torchrun came in 1.9)
R_OLD_DEFAULT_PG = re.compile(r"^\s{0,16}work = _default_pg\.(\w{1,40})\(")
# torch.distributed.launch started as a module or by its path (not torchrun / torch.distributed.run)
R_DIST_LAUNCH = re.compile(r"-m\s{1,4}torch\.distributed\.launch\b|\btorch/distributed/launch\.py\b")
R_IPV6 = re.compile(r"The IPv6 network addresses of|\(errno: 97 - Address family not supported by protocol\)")
# torchrun's own printout of its configuration (torch/distributed/launcher/api.py "Starting
# elastic_operator with launch configs:" and elastic/agent/server/api.py "[default] Rendezvous
# complete for workers. Result:"), read as the variables torchrun sets or reads.
# Its "entrypoint" line names the script (or program) every worker runs; a bare flag value there ("false", "true", a
# number) is the value of an option taken as the script: every worker is started on it (lead rule AF (1)).
R_TR_ENTRYPOINT = re.compile(r"^\s*entrypoint\s*: (\S*)\s*$")
# torchelastic's event JSON (its events logger: "torchelastic.worker.status.SUCCEEDED", "rdzv_backend", ...) keeps
# the launch's entrypoint in its nested metadata string: '\"entry_point\": \"train.py\"' (escaped) or unescaped
# torchelastic's event of one worker the agent records FAILED (source WORKER; torch/distributed/elastic/agent/server/
# api.py _record_worker_events: FAILED for a worker among the run's failures, TERMINATED for one the agent stopped):
# that worker failed on its own; its local rank is in the nested metadata string ('\"local_rank\": [1]')
# torchrun's agent after a worker of its group failed (api.py _invoke_run): "[default] Worker group FAILED. 3/3 attempts
# left; will restart worker group" (or, its restarts spent, the failure record follows); the worker is in that record
R_GROUP_FAILED = re.compile(r"Worker group FAILED\. ?(\d{1,4})/(\d{1,4}) attempts left")
R_TE_WORKER_FAILED = re.compile(r'"torchelastic\.worker\.status\.FAILED", "source": "WORKER"')
# torchelastic's event of one worker that ended SUCCEEDED (the same _record_worker_events, its agent's "Local worker
# group finished (SUCCEEDED)"): that worker ran to its end; nothing failed on it (verdict.noise reads it, rules K, T)
R_TE_WORKER_SUCCEEDED = re.compile(r'"torchelastic\.worker\.status\.SUCCEEDED", "source": "WORKER"')
R_TE_LOCAL_RANK = re.compile(r'\\?"local_rank\\?": ?\[(\d{1,5})\]')
R_TE_WORKER_ID = re.compile(r'"worker_id": "(\d{1,10})"')
R_TE_GLOBAL_RANK = re.compile(r'"global_rank": (\d{1,6})\b')
R_TE_ENTRY_POINT = re.compile(r'\\?"entry_point\\?": ?\\?"([^"\\\s]{1,200})\\?"')
R_FLAG_VALUE = re.compile(r"^(?:true|false|yes|no|on|off|\d{1,6}(?:\.\d{1,6})?)$", re.IGNORECASE)
R_TR_LAUNCH = re.compile(r"^\s*(rdzv_endpoint|rdzv_backend|min_nodes|max_nodes|nproc_per_node)\s*: (\S*)\s*$")
# the first field of torchrun's "Rendezvous complete for workers. Result:" block (after a collector's prefix: torchx's
# "ray/0 (CommandActor pid=N)"): how many times the agent restarted its worker group before this round (0: the first
# round, no earlier failure; verdict.noise reads it, rules K, T)
R_TR_RESTART_COUNT = re.compile(r"(?:^|\s)restart_count=(\d{1,6})\s*$")
R_TR_RESULT = re.compile(r"^\s*(master_addr|master_port|group_rank|group_world_size|global_world_sizes)=(.{1,200})$")
TR_NAMES = {"rdzv_endpoint": "PET_RDZV_ENDPOINT", "rdzv_backend": "PET_RDZV_BACKEND", "max_nodes": "PET_NNODES",
            "nproc_per_node": "PET_NPROC_PER_NODE", "master_addr": "MASTER_ADDR", "master_port": "MASTER_PORT",
            "group_rank": "GROUP_RANK", "group_world_size": "GROUP_WORLD_SIZE", "global_world_sizes": "WORLD_SIZE"}
R_ENV_DEPRECATED = re.compile(r"Environment variable (\w{1,64}) is deprecated; use (\w{1,64})|"
                              # ProcessGroupNCCL.cpp (torch 2.6+): "Warning: TORCH_NCCL_AVOID_RECORD_STREAMS is
                              # the default now, this environment variable is thus deprecated."
                              r"\b([A-Z][A-Z0-9_]{2,63}) is the default now, this environment variable is "
                              r"(?:thus )?deprecated")
# A setting printed in a log: `export NCCL_X=1`, `-e NCCL_X='1'`, an env dump line `NCCL_X=1`. A shell's command
# separator ends the value: "export NCCL_SHM_DISABLE=1; export ..." (pdsh's and DeepSpeed's command lines) sets 1
# A CUDA variable set for a command ("CUDA_VISIBLE_DEVICES=2,3 python train.py", "export CUDA_VISABLE_DEVICES=0"):
# its name is judged by the env knowledge base (a name that does not exist, one typo from one that does, is ignored)
# A launch that hides every GPU from its processes: CUDA_VISIBLE_DEVICES set empty ("", '', nothing before the next
# word) or -1 on a command line, an export or an env dump (readers.settings._hidden_gpus, verdict.launch._no_nccl)
R_NO_VISIBLE_GPU = re.compile(r"(?:^|[\s`;&(])(?:export\s+|-e\s+)?CUDA_VISIBLE_DEVICES=(?:\"\"|''|-1\b|(?=\s|$))")
# The nccl backend asked for by name: init_process_group("nccl", ...) / backend="nccl" in a code line
R_NCCL_BACKEND = re.compile(r"init_process_group\(\s*(?:backend\s*=\s*)?['\"]nccl['\"]|\bbackend\s*=\s*['\"]nccl['\"]")
# DeepSpeed's runner's command line of its per-node launcher ("cmd = python -u -m deepspeed.launcher.launch
# --world_info=... --master_addr=... --master_port=... [--flags] USER_SCRIPT USER_ARGS"): what follows the module
# DeepSpeed's per-node launcher's record of one worker's whole command, its Python list closed by ']' ("[launch.py:253:
# main] process 4575 spawned with command: ['/usr/bin/python3', '-u', 'train.py', '--local_rank=1', ...]"): read only
# on lines holding "spawned with command" (readers.settings._spawn_short)
R_DS_SPAWN_CMD = re.compile(r"spawned with command: \[('[^\]]{0,8000}')\]\s*$")
R_DS_LAUNCH_CMD = re.compile(r"-m deepspeed\.launcher\.launch\s+(--world_info=\S{1,8192}.{0,4000})")
# A traceback frame selecting the process's GPU (torch.cuda.set_device(i), torch's _cuda_setDevice, CuPy's
# cupy.cuda.Device(i).use() and its runtime.setDevice, cudaSetDevice): an error right under it is that selection's.
# transformers' TrainingArguments._setup_devices is one too (its device / n_gpu property's "return
# self._setup_devices", its own frame): it sets the process's GPU from its local rank, the launch's index, and a paste
# often ends the traceback there, before torch's frames below it
# the lines show model parallelism (review 105 (1) finding 5; verdict.cuda._ordinal_launch's checkpoint clause):
# fairscale's / Megatron's start-up print "> initializing [tensor ]model parallel with size N", a model-parallel size
# setting (model_parallel_size=N, --tensor-model-parallel-size N, "model parallel size N"), or a traceback frame in
# Llama's / fairscale's loader (Llama.build(, initialize_model_parallel(); SIZE where one is given
R_MODEL_PARALLEL_SHOWN = re.compile(
    r"\binitializing (?:tensor )?model parallel with size (?P<size>\d+)|"
    r"\b(?:tensor[_-])?model[_ -]parallel[_ -]size\b[\s:=]{0,4}(?P<set>\d+)?|"
    r"\bLlama\.build\(|\binitialize_model_parallel\(", re.I)
# a barrier choosing its GPU: the job's call given device_ids ("dist.barrier(group=group, device_ids=[local_rank])")
# or c10d's own barrier frame ('File ".../distributed_c10d.py", line 4770, in barrier'), which uses the device_ids
# given, else a device guessed from the rank (parse: _barrier_device)
R_BARRIER_DEVICE_FRAME = re.compile(r"\bbarrier\([^()\n]{0,160}\bdevice_ids\s*=|"
                                    r"\bdistributed_c10d\.py\"?, line \d{1,6}, in barrier\s*$")
R_SET_DEVICE_FRAME = re.compile(r"\b(?:torch\.cuda\.set_device\(|_cuda_setDevice\(|"
                                r"cuda\.Device\([^)\n]{0,80}\)\.use\(|cudaSetDevice\(|"
                                r"in (?:[\w.]{0,80}\.)?(?:set_device|setDevice|cudaSetDevice|_setup_devices)\s*$|"
                                r"self\._setup_devices\s*$)")
# accelerate's world settings as its env dump ("- num_processes: 1"), config file ("num_machines: 2", JSON's
# "num_processes": 8) or launch command ("--num_processes=8", "--num_machines 2") print them; num_processes is the
# total over all machines (readers.settings._accel_world)
R_ACCEL_COUNT = re.compile(r"(?<![\w.])(?:--)?(num_processes|num_machines)['\"]?(?:\s*[:=]\s*|\s+)['\"]?(\d{1,6})\b")
# accelerate's coordinator address the same ways ("main_process_ip: 127.0.0.1", "--main_process_ip localhost",
# "main_process_ip=..."): a loopback one beside num_machines > 1 names each machine itself
# (readers.settings._accel_world)
R_ACCEL_MAIN_IP = re.compile(r"(?<![\w.])(?:--)?main_process_ip['\"]?(?:\s*[:=]\s*|\s+)['\"]?([\w.:\[\]-]{1,255})")
# accelerate launch's notice that it used defaults for values not passed ("More than one GPU was found, enabling
# multi-GPU training. If this was unintended please pass in `--num_processes=1`."), and its list of those values, one
# a line under "The following values were not passed to `accelerate launch` and had defaults used instead:"
# ("`--num_processes` was set to a value of `1`"): a launcher's warning
R_ACCEL_DEFAULTS = re.compile(r"[Ii]f this was unintended,? please pass in `?--num_processes=1|"
                              r"`--num_(?:processes|machines)` was set to a value of `")
# A process announcing its global rank at set-up (fairseq's and the DeiT/MAE family's "| distributed init (rank 7):
# env://", LAVIS's "(rank 0, world 1)") and a launch command's world-size argument (fairseq's
# --distributed-world-size, --world_size, --world-size): readers.settings._launch_world
R_ANNOUNCED_RANK = re.compile(r"distributed init \(rank (\d{1,7})(?:, world (\d{1,7}))?\)")
R_ARG_WORLD_SIZE = re.compile(r"--(?:distributed[-_])?world[-_]size[= ]['\"]?(\d{1,7})\b")
# A model-parallel size a launch command's overrides give its trainer (verl's / Hydra's
# "ulysses_sequence_parallel_size=4", "actor.ulysses_sequence_parallel_size=2", "--tensor-parallel-size 8",
# "context_parallel_size=2"): the trainer builds a device mesh over the world with that dimension, so a world it does
# not divide (fewer processes than the size, or not a multiple of it) cannot be built (readers.settings._launch_world,
# verdict.world.world_unfit, lead rules V (1), AF (1), AE). Group name, size.
# Megatron's / SwissArmyTransformer's "--model-parallel-size 4" too: the tensor-parallel group every process joins.
R_ARG_PARALLEL_SIZE = re.compile(r"(?:^|[\s.'\"-])(?P<name>(?:(?:ulysses_)?(?:sequence|context|tensor|pipeline)[_-]"
                                 r"(?:model[_-])?|model[_-])parallel[_-]size)(?:=|\s+)['\"]?(?P<size>\d{1,5})\b")
# DeepSpeed's runner invoked on a user script ("deepspeed --master_port 16666 --hostfile hostfile finetune.py ...
# --model-parallel-size 4"): the command whose resources its runner's --world_info then lists (_ds_parallel)
R_DS_USER_CMD = re.compile(r"(?:^|[\s;&|`'\"/])deepspeed\s[^\n]{0,2000}?\.py\b")
# (also the name in lower case, "cuda_visible_devices=2,4 bash train.sh": environment names are case-sensitive, so it
# sets a variable nothing reads -- round 79's libai-415)
R_CUDA_ENV_ASSIGN = re.compile(r"(?:^|[\s`'\";])(?:export\s+|-e\s+)?(CUDA_V[A-Z_]{1,48}|cuda_v[a-z_]{1,48})="
                               r"['\"]?([^'\"\s\\;&|]{0,120})")
# (a value ends at a comma that starts the next NAME=, and that next assignment is read too: srun's / sbatch's
# --export="NCCL_DEBUG=INFO,NCCL_IB_DISABLE=1" is a list of assignments, while a list value such as
# NCCL_SOCKET_IFNAME=eth0,eth1 keeps its commas)
R_ENV_ASSIGN = re.compile(r"(?:^|[\s`'\",])(?:export\s+|-e\s+)?"
                          r"((?:NCCL|TORCH_NCCL|TORCH_FR|TORCH_DISTRIBUTED|GLOO|CUDA_LAUNCH)_[A-Z0-9_]{1,48}|"
                          r"RAY_CGRAPH_\w{1,48})="
                          r"['\"]?((?:[^'\"\s\\;&|,]|,(?![A-Za-z_]\w{0,60}=)){0,120})")
# a timeout's own error naming the setting that bounds it and the value it ran with (Ray's RayChannelTimeoutError:
# "increase RAY_CGRAPH_get_timeout which is currently 10 seconds"): verdict.timeouts._limit_ignored, readers.watchdog
R_LIMIT_NAMED = re.compile(r"\bincrease (RAY_CGRAPH_\w{1,60}) which is currently (\d{1,9}) seconds?\b")
# A framework's notice of a setting it found already made ("NCCL_CUMEM_ENABLE is set to 0, skipping override", vLLM's
# env_override; "TORCH_NCCL_ASYNC_ERROR_HANDLING is already set to 1"; vLLM's Ray executor's "RAY_CGRAPH_get_timeout is
# set to 300", which Ray's compiled-graph timeout then reports against: verdict.timeouts._serving_watchdog): the
# variable and the value it keeps
R_ENV_IS_SET = re.compile(r"\b((?:NCCL|TORCH_NCCL|GLOO)_[A-Z0-9_]{1,48}|RAY_CGRAPH_\w{1,48}) (?:is|was) "
                          r"(?:already )?set to ['\"`]?([^'\"`\s,;]{1,120})")


def strip_prefixes(text: str) -> str:
    """The line without what launchers and collectors put before it (``R_LINE_PREFIX``, at
    most six, e.g. a kubectl timestamp then torchrun's ``[default0]:``; a collector's clock and level before a
    platform's own clock, level and role tag: round 78's yolox-1474 under Python logging's head)."""
    for _ in range(6):
        m = _PREFIX(text)
        if (m is None or not m.end()) and (" [std" not in text or not (m := _R_MILABENCH_HEAD.match(text))):
            break
        text = text[m.end():]
    return text


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
