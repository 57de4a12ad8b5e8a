"""The lone first failure in a launcher's failure record (lead rule A, tests/fixtures/corpus/README.md).

When torchrun's record (the elastic "Failures:"/"Root Cause" table, or its
``failed (exitcode: N) local_rank: M (pid: P) of binary``), DeepSpeed's or mp.spawn's exit line
names exactly ONE process that failed on its own (a signal: -9, -11, -6, -7, or a nonzero exit
code), and no other rank is shown failing on its own (the others absent, or only SIGTERM'd by the
agent afterwards: its clean-up), that process is the first failure and its rank the culprit:

- the global ``rank:`` of the table when it is printed;
- else the local rank, when the job is single-node (or nothing in the input says it is multi-node:
  several hosts, ``GROUP_WORLD_SIZE``/``nnodes`` > 1, a world larger than ``nproc_per_node``);
- else nobody: a local rank of a multi-node job is not a global rank.

A process's own excepthook line ("Uncaught OLMoThreadError: ...", logged as it ends on the exception) is read
as its record (exit code 1) where no launcher's record is in the input.

A -6 (SIGABRT) of a rank that was itself waiting in a collective is how torch's watchdog ends a
victim, so it is not a lone failure (nor is the uncaught exception of a rank that was waiting). The
cause stays the detectors' (``verdict``): -9 host memory, an exception shown its class, -11/-6 unknown.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ncclDoctor.diagnose.readers.common import _several_nodes
from ncclDoctor.diagnose.reason import own_errors, waiting, world_size
from ncclDoctor.diagnose.signatures import R_VICTIM_EXC, Event
from ncclDoctor.diagnose.state import Collected

TORN_DOWN = (-15, 0, None)


@dataclass
class Lone:
    event: Event
    exitcode: int
    rank: int | None  # the rank to name; None when only a local rank of a multi-node job is known
    local_rank: int | None
    multi_node: bool

    @property
    def culprits(self) -> list[int]:
        return [] if self.rank is None else [self.rank]

    @property
    def who(self) -> str:
        if self.rank is not None and self.event.kind == "child_failed":
            return f"rank {self.rank}"
        if self.rank is not None and self.local_rank is not None and self.rank != self.local_rank:
            return (f"rank {self.rank} (the record's local_rank {self.local_rank}: the one worker shown failing, its "
                    "own lines under its global rank tag)")
        if self.rank is not None:
            read = self.event.data.get("local_from") if self.local_rank is not None else None
            return (f"local rank {self.rank} (rank {self.rank} of this single-node job"
                    + (f"; its local rank read from its {read})" if read else ")"))
        if self.local_rank is not None and self.event.data.get("elastic"):
            return (f"local rank {self.local_rank} of host {self.event.host} (horovodrun's elastic launcher names a "
                    "worker by host and local index; its global rank, reassigned at each reset, is not printed)")
        if self.event.data.get("replica"):
            return (f"replica {self.event.data['replica']} ({self.event.data.get('launcher')}'s record: a machine of "
                    "the job's worker pools, which runs one or more ranks; the record names no rank)")
        if self.local_rank is not None:
            return f"local rank {self.local_rank} of one node (the global rank is not printed in this multi-node job)"
        last = self.event.data.get("last_launched")
        if last is not None:
            who = ("torch.distributed.launch's CalledProcessError prints" if self.event.data.get("last_by") == "cpe"
                   else "DeepSpeed's launcher prints")
            return (f"one of the node's {last + 1} workers, which the lines do not name ({who} "
                    f"the command of the last worker it launched, --local_rank={last}, beside the return code of "
                    "the one that failed)")
        return "a rank the lines do not name"


def _own(e: Event) -> bool:
    """An entry that, read alone, failed on its own: a nonzero exit code or a signal other than SIGTERM,
    torchrun's root cause whose exit code was cut from the paste (its first observed failure), the worker
    vLLM's executor saw die (it prints no exit code), or a check_call's CalledProcessError for one worker's command
    cut before its status (it raises only for a non-zero one: readers.exits._launcher_exit) -- named by its index,
    or by its local rank where torch.distributed.launch's command of its last worker shows it started one."""
    code = e.data.get("exitcode")
    if e.data.get("signal") == "SIGTERM" or code == -15:
        return False
    return code not in TORN_DOWN or (code is None and bool(e.data.get("root") or e.data.get("died")
                                                           or e.data.get("nonzero"))
                                     and (e.rank is not None or bool(e.data.get("rank_cut"))
                                          or (bool(e.data.get("nonzero")) and e.data.get("local_rank") is not None))
                                     ) or bool(
        e.data.get("launcher_kill"))


def _cut(e: Event) -> bool:
    """A "Failures:" entry the paste cut before its exitcode line: nothing shows how that process ended, so it is
    neither torn down (an innocent) nor a failure of its own (the root-cause entry, a failure by its title, is not
    one of these)."""
    return bool(e.data.get("exit_cut")) and not e.data.get("root")


def torn_down(c: Collected) -> list[Event]:
    """The record's entries of processes the agent stopped after another had failed: SIGTERM'd ones, and
    SIGKILL'd (-9) ones whose time is later than the earliest failure of another process that exited on
    its own (a nonzero code, another signal, the root cause): torchrun SIGTERMs the survivors of a failure
    and SIGKILLs those still running after its grace period, so such a -9 is the clean-up, not the OOM
    killer. A -9 with no earlier failure of another process, or with no time to order it, stays a kill."""
    fails = c.child_failures + c.worker_failures
    first = [(e.ts, e.data.get("local_rank")) for e in fails if e.ts is not None and _own(e) and (
        e.data.get("exitcode") != -9 or e.data.get("root"))]
    one_node = node_count(c) == 1

    def another(local: object, e: Event) -> bool:
        # on one node a failure of the same local rank is that same worker (told by another record, or by a paste
        # joining two runs whose clocks say nothing of each other: round 79's real-esrgan-302 under a timestamp
        # prefix), never the failure the agent tore it down after
        return not (one_node and local is not None and local == e.data.get("local_rank"))

    def later_kill(e: Event) -> bool:
        killed = e.data.get("exitcode") == -9 or e.data.get("signal") == "SIGKILL"
        return killed and not e.data.get("root") and e.ts is not None and any(
            t < e.ts and another(lr, e) for t, lr in first)

    return [e for e in fails if not _cut(e) and (not _own(e) or later_kill(e))]


def failed_on_own(c: Collected) -> list[Event]:
    """The failure record's entries of processes that failed on their own, one per process."""
    seen: dict[tuple, Event] = {}
    down = {id(e) for e in torn_down(c)}
    for e in c.child_failures + c.worker_failures:
        if id(e) in down or _cut(e):
            continue
        pid, local = e.data.get("pid"), e.data.get("local_rank")
        key = ("pid", pid) if pid else ("rank", e.rank) if e.rank is not None else ("local", local)
        if key[1] is None and e.kind == "child_failed" and e.ts is None and e.data.get("exitcode") is not None:
            # a record's entry with no rank, pid nor time (an abbreviated paste: "exitcode: -9" / "traceback : Signal
            # 9 (SIGKILL) received by PID xxx"): nothing tells two such entries of one code apart, so they are one
            # failure told again, not several processes dying alike (round 79's cosmos-predict2.5-72)
            key = ("anonymous", e.data["exitcode"])
        elif key[1] is None:
            key = ("line", e.where)
        if key not in seen or (seen[key].kind != "child_failed" and e.kind == "child_failed"):
            seen[key] = e  # the table's entry, which carries the global rank, wins over the one-line form
    got = list(seen.values())
    if any(not e.data.get("rank_cut") for e in got):
        # a "Root Cause" entry the paste cut before its rank is the first observed failure, which the agent's own
        # "failed (exitcode: N) local_rank: M" line (or another record) also tells: it adds no process of its own
        got = [e for e in got if not e.data.get("rank_cut")]
    if len(got) > 1 and node_count(c) == 1:
        # the same worker told twice: torchrun's "failed (exitcode: -9) local_rank: 0 (pid: P)" and the
        # "process 0 terminated with signal SIGKILL" of the spawn join it quotes (no pid): one local rank, one code
        told = {(e.data.get("local_rank"), e.data.get("exitcode")) for e in got if e.rank is None and e.data.get("pid")}
        got = [e for e in got if e.rank is not None or e.data.get("pid") or e.data.get("local_rank") is None
               or (e.data.get("local_rank"), e.data.get("exitcode")) not in told]
        # torchrun's table says its root cause failed ALONE (<NO_OTHER_FAILURES>) and names its local rank: the
        # agent's "failed (exitcode: N) local_rank: M" line for that same local rank is that worker told again (a
        # paste joining two runs' records shows other pids and codes), no second process (lead rule A; round 79's
        # real-esrgan-302: local_rank 0's -9 line beside the table's rank 0, local_rank 0, -6, NO_OTHER_FAILURES)
        alone = {e.data.get("local_rank") for e in got if e.data.get("root") and e.data.get("alone")
                 and e.rank is not None and e.data.get("local_rank") is not None}
        if len(alone) == 1:
            got = [e for e in got if not (e.kind == "worker_failed" and e.rank is None
                                          and e.data.get("local_rank") in alone)]
    dead = [e for e in got if e.data.get("launcher") == "SGLang's launcher"]
    kids = [e for e in got if e.data.get("sgl_child")]
    if dead and kids:
        # SGLang's SIGCHLD handler logs every child process that died, the dead scheduler among them: its "Rank N
        # scheduler is dead" is one of those deaths told again, with its rank. One child: that child is rank N;
        # several: which one is rank N the lines do not say, and the scheduler's line adds no process of its own
        drop = kids if len(kids) == 1 == len(dead) else dead
        got = [e for e in got if not any(e is d for d in drop)]
    if any(not e.data.get("outer_launcher") for e in got):
        # an outer launcher's CalledProcessError for the torchrun (deepspeed) command it ran tells that launcher's exit,
        # whose own record beside it names the worker: no process of its own (lead rule M; round 79's
        # fast-stable-diffusion-122, accelerate running torchrun)
        got = [e for e in got if not e.data.get("outer_launcher")]
    launcher = [e for e in got if not e.data.get("uncaught")]
    # a process's own "Uncaught X" line stands for the launcher's record only where the input holds none: beside
    # one, it is the same process's failure told twice (the record names it, pid and rank)
    return launcher or got


def _setting_ints(c: Collected, *names: str) -> list[int]:
    """The whole-number values the input gives these settings (an "elastic" range's upper end: "1:2" -> 2)."""
    return [int(v.split(":")[-1]) for n in names for v in (c.settings.get(n) or {}) if v.split(":")[-1].isdigit()]


def node_count(c: Collected) -> int:
    """How many nodes the input says the job spans (1 when nothing says)."""
    counts = _setting_ints(c, "GROUP_WORLD_SIZE", "PET_NNODES")
    if any(n > 0 for n in _setting_ints(c, "GROUP_RANK", "NODE_RANK")):
        counts.append(2)  # a node numbered past 0 (torchrun's group_rank=1, NODE_RANK=1): another node exists
    counts.append(len({h for st in c.ranks.values() for h in st.hosts}))
    counts.append(len({e.host for e in c.child_failures if e.host}))
    # a launcher record's worker command naming the machines it spans (readers.exits._cmd_nodes: --nnodes=2 among
    # the worker's own arguments, ncluster's --num_tasks=2)
    counts += [e.data["cmd_nodes"] for e in c.worker_failures + c.child_failures if e.data.get("cmd_nodes")]
    per = [int(v) for v in (c.settings.get("PET_NPROC_PER_NODE") or {}) if v.isdigit()]
    if per and c.world and max(c.world)[0] > max(per):
        counts.append(2)
    if c.kinds.get("exit_barrier"):  # the agents' exit barrier (one agent a node) waited for another node's agent
        counts.append(2)
    if any(_several_nodes(e.data.get("nnodes") or "", False) for e in c.samples.get("launch_procs", [])):
        # the launch command asks for more than one node (--nnodes=2, an elastic range 1:2): each node's agent
        # numbers its workers from local_rank 0, so a local rank names no global one (lead rule A's multi-node limit)
        counts.append(2)
    return max(counts + [1])


def several_failures(c: Collected) -> list[int]:
    """Lead rule A extended to several: the global ranks of two or more processes the record shows failing
    on their own while it shows others only torn down afterwards, or while ranks its own numbers prove exist (a
    rank below the highest failing one, a stated world size) are not among them (every rank failing alike is a shared
    cause, not several culprits), when no other rank shows its own error and
    none of them is a SIGABRT of a rank that was waiting (the watchdog's way to end a victim); [] otherwise.
    Only global ranks are named (a local rank of a multi-node job is not one)."""
    fails = failed_on_own(c)
    if len(fails) < 2:
        return []
    ranks = {e.rank for e in fails}
    if None in ranks:
        locals_ = {e.data.get("local_rank") for e in fails}
        if node_count(c) > 1 or None in locals_ or any(e.rank is not None for e in fails):
            return []
        ranks = locals_
    down = {e.rank if e.rank is not None else e.data.get("local_rank") for e in torn_down(c)} - ranks - {None}
    if len(ranks) < 2:
        return []
    size, _, sure = world_size(c)
    below = set(range(max(ranks) + 1)) - ranks  # ranks the record's own numbers prove exist, not failing
    if not any(e.data.get("root") or e.data.get("whole") for e in fails):
        below = set()  # torchrun's root-cause entry not read (the paste cut it): it may be one of them
    # ("whole": a record that lists every process that exited nonzero, Paddle's launcher's "rank=[...] was aborted")
    if any(e.data.get("head_cut") and not e.data.get("root") for e in fails) and died_together(fails):
        # the paste begins inside torchrun's "Failures:" list: entries above the cut may be failures too, of ranks
        # not shown, and every one shown ended alike in the same second -- the ranks not shown are no proof that some
        # rank outlived the others (lead rules J, AM (2))
        below = set()
    codes = {e.data.get("exitcode") for e in fails}
    # the record's processes ending on different signals, one of them a native crash (PALS' "rank 0 died from signal
    # 11 and dumped core" beside "rank 4 died from signal 9"): a crash is that process's own, so they did not fail
    # alike -- no shared cause (lead rules A, J; round 105's ezpz-210). The crashed ranks are the culprits; the
    # others ended after them (crash_ends)
    unlike = None not in codes and len(codes) > 1 and all(k < 0 for k in codes) and bool(codes & {-11, -4, -8})
    if not down and not below and not unlike and not (sure == "high" and size and size > max(ranks) + 1):
        return []  # every rank of the record (the job, as far as it shows) failing alike: a shared cause (rule J)
    if any(r not in ranks and own_errors(st) for r, st in c.ranks.items()):
        return []
    if raised_by_more(c, len(ranks)):
        return []
    if any(e.data.get("exitcode") == -6 and (e.rank if e.rank is not None else e.data.get("local_rank")) in c.ranks
           and waiting(c.ranks[e.rank if e.rank is not None else e.data["local_rank"]]) for e in fails):
        return []
    if unlike:
        return sorted(crash_ends(c, fails)[0])
    return sorted(ranks)


NATIVE_CRASHES = {-11, -7, -4, -8}  # SIGSEGV, SIGBUS, SIGILL, SIGFPE: a process's own crash in native code


def crash_ends(c: Collected, fails: list[Event]) -> tuple[set[int], set[int]]:
    """Processes of a record ending on different signals, a native crash among them (several_failures' `unlike`):
    (the ranks to name, the ranks that only ended after the crash). The crashed ranks are culprits. A SIGABRT
    beside a peer's crash is that rank's abort after its communicator went down (NCCL's watchdog, 'terminate
    called'); several ranks SIGKILLed alike, or a SIGKILL beside a SIGTERM teardown, are the launcher's teardown:
    neither is named. A lone SIGKILL beside the crash, no teardown shown, is a kill of its own (the host's OOM
    killer): named too (round 105's ezpz-210: rank 0 signal 11, rank 4 signal 9 -> 0, 4; review 105 (1) finding 3,
    review 105 (2) finding 1)."""
    key = {id(e): e.rank if e.rank is not None else e.data.get("local_rank") for e in fails}
    crash = {key[id(e)] for e in fails if e.data.get("exitcode") in NATIVE_CRASHES} - {None}
    rest = {key[id(e)] for e in fails} - crash - {None}
    killed = {key[id(e)] for e in fails if e.data.get("exitcode") == -9} - crash
    term = bool(torn_down(c)) or any(e.data.get("exitcode") == -15 for e in c.child_failures + c.worker_failures)
    if len(rest) == 1 and rest == killed and not term:
        return crash | killed, set()
    return crash, rest


def raised_by_more(c: Collected, listed: int) -> int:
    """Lead rules J and AM (2): how many tracebacks of the launcher's shared output (no rank tag) end in the same
    exception of the job's own code (no lost peer's, no stop's) when that is more than the LISTED processes the
    record shows failing; else 0. Each traceback is one process's: the ones the agent stopped afterwards (SIGTERM)
    had raised it too, only later than the record's poll saw -- every process failed alike, no rank is a culprit."""
    said = Counter((e.data["type"], e.data.get("message") or "") for e in c.exceptions
                   if e.rank is None and not e.data.get("line") and not R_VICTIM_EXC.match(e.data["type"]))
    most = max(said.values(), default=0)
    return most if most > listed else 0


def root_not_shown(c: Collected, fails: list[Event]) -> bool:
    """Every failure read is an entry of torchrun's "Failures:" list and its "Root Cause" entry is not in the lines:
    that list holds the failures BESIDES the root cause, so one more process (the first observed failure, cut from the
    paste) failed on its own as well -- none of those read is a lone failure (lead rule J: several at once)."""
    return bool(fails) and all(e.data.get("listed") for e in fails) and not any(
        e.data.get("root") for e in c.child_failures)


def _first_alone(fails: list[Event]) -> Event | None:
    """Lead rules A and J over several torchrun failure records (one per agent): the one record whose root cause
    failed alone (its "Failures:" list says <NO_OTHER_FAILURES>) at a time before every other failure shown is the
    first failure; the other records' processes failed after it, as peers of a lost rank do. A record's root cause
    is its first observed failure, so an entry of its list whose time the paste lost is no earlier than that root's."""
    alone = [e for e in fails if e.data.get("alone") and e.ts is not None]
    if len(alone) != 1:
        return None
    e = alone[0]
    rest = [o for o in fails if o is not e]
    roots = [o for o in rest if o.data.get("root")]
    later = all((o.ts is not None or not o.data.get("root")) and (o.ts is None or o.ts > e.ts) for o in rest)
    return e if roots and later else None


def lone_launched_worker(c: Collected, fails: list[Event]) -> bool:
    """Lead rules M, U (5), AG and AV: the launcher (DeepSpeed's, or torch 1.x's torch.distributed.launch) killed
    exactly one worker (one launcher, one 'Killing subprocess' line: its kill lines list every worker it started), so
    the node ran a single process, and nothing says the job spans nodes or shows another rank: the launcher's record
    names that one process, local rank 0 -- rank 0."""
    if len(fails) != 1 or fails[0].data.get("workers") != 1 or node_count(c) > 1:
        return False
    size = world_size(c)[0]
    return (size in (None, 1)) and not any(r != 0 for r in c.ranks)


def lone_failure(c: Collected) -> Lone | None:
    fails = failed_on_own(c)
    first = _first_alone(fails) if len(fails) > 1 else None
    fails = [first] if first is not None else fails
    if len(fails) != 1 or root_not_shown(c, fails):
        return None
    e = fails[0]
    if e.data.get("others_cut") and (e.data.get("error_file") or "<N/A>") == "<N/A>":
        # lead rule BW (1): the record's Failures section shows another entry's tail above this Root Cause (its rank
        # and exit cut), and no error file: a second worker failed, "first observed" is only the agent's poll
        return None
    rank = e.rank
    others = [r for r, st in c.ranks.items() if r != rank and own_errors(st)]
    if others and rank is not None:
        return None  # another rank shows its own failure: not a lone one
    code = e.data["exitcode"]
    multi = node_count(c) > 1
    local = e.data.get("local_rank")
    if rank is None and not multi and not others and not e.data.get("elastic"):
        rank = local  # (horovodrun's elastic "host[local]": ranks are reassigned at each reset, none to map to)
    elif rank is None and local is not None and len(others) == 1 and isinstance(code, int) and code > 0 \
            and others[0] >= local and not e.data.get("elastic") and _raised(c, others[0]):
        # lead rule BB (3): the record names only a local_rank, and the one worker shown failing is a process that
        # raised under its own global rank tag (exit code 1: an uncaught exception) -- that worker is the one the
        # record names, so rule A's "only a local_rank" limit does not apply. Only where that rank can be the local
        # one: an agent's workers hold consecutive global ranks from node_rank * nproc_per_node, never below their
        # local index -- [rank0] raising beside a record of local_rank 1 is two processes failing (rule J)
        rank = others[0]
    if (code in (-6, None) or e.data.get("uncaught")) and rank is not None and rank in c.ranks and \
            waiting(c.ranks[rank]):
        return None  # the watchdog's abort of a rank that was waiting (or an end the record does not say): a victim
    return Lone(e, code, rank, local, multi)


def _raised(c: Collected, rank: int) -> bool:
    """Whether rank's own lines end in an error it raised itself (an exception or NCCL error under its rank tag), not
    a wait: a victim's timeout is no failure of its own."""
    st = c.ranks.get(rank)
    return st is not None and own_errors(st) and not waiting(st)


def died_together(fails: list[Event]) -> bool:
    """The record's entries all ending with the same exit code within one second (the times shown; an entry the paste
    begins inside, below its time line, goes with the others: beside one timed entry it needs no time of its own --
    round 89's nnscaler-10, the Failures entry of rank 7 cut above its time, the Root Cause's rank 0 timed)."""
    codes = {e.data.get("exitcode") for e in fails}
    times = [e.ts for e in fails if e.ts is not None]
    placed = all(e.ts is not None or e.data.get("head_cut") for e in fails)
    return (len(codes) == 1 and None not in codes and len(times) >= (1 if placed else 2)
            and max(times) - min(times) < 1.0)
