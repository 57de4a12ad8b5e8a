"""LIVE: verdicts on a user's own job watched by ``ncclDoctor run`` or ``ncclDoctor attach``."""

from ncclDoctor.findings import rule

LIVE_MISSING = rule(
    "LIVE001",
    "error",
    "A rank never issued the collective the others wait in",
    why="""
Collectives complete only when every rank of the group issues them. The named rank stopped
before collective #k (its Flight Recorder shows it enqueued one fewer), so every other rank
blocks inside #k and, after the watchdog timeout (30 min on gloo, 10 min on nccl), reports an
error: the ranks that report are victims, the culprit usually prints nothing.
""",
    fix="""
Read the culprit's stack in stacks/ of the run directory: it shows where that rank really is
(data loading, a rank-conditional branch, a checkpoint write, an infinite loop). Make every
rank take the same path to each collective.
""",
)

LIVE_DESYNC = rule(
    "LIVE002",
    "error",
    "Ranks issued different collectives at the same sequence number",
    why="""
Every rank of a group must issue the same collectives in the same order with matching sizes.
Here collective #k is a different operation (or size) on some ranks: they wait for partners
that are in another collective, which hangs or corrupts data.
""",
    fix="""
Find the rank-dependent code path that issues the odd collective (the stacks in stacks/ and
the ops in the report show both). TORCH_DISTRIBUTED_DEBUG=DETAIL checks every collective's
signature across ranks at call time, at some cost.
""",
)

LIVE_INSIDE = rule(
    "LIVE003",
    "error",
    "Every rank is inside the same collective and none completes",
    why="""
All ranks issued collective #k and none finished it: no rank is late, so the fault is
between them -- the transport (a dead or throttled link, a firewall, a wrong interface),
the network fabric, or on nccl a GPU or driver that stopped making progress.
""",
    fix="""
Run `ncclDoctor check --nodes N` on the same nodes to localize the link. On nccl >= 2.24 ask
NCCL's RAS for per-rank operation counts (`ncclras`, or port 28028). Check dmesg for Xid
errors and the NIC counters.
""",
)

LIVE_FROZEN = rule(
    "LIVE004",
    "error",
    "A rank stopped answering while its process lives",
    why="""
The rank's heartbeat thread could not run for several polls while its pid is alive: its
interpreter is frozen, typically a C call that holds the GIL (a native library, a deadlocked
lock) or a process stopped by a debugger or SIGSTOP. The other ranks wait for it.
""",
    fix="""
Look at the rank's native stack (`py-spy dump --native --pid PID` or `gdb -p PID -batch -ex 'thread
apply all bt'`) and the /proc thread states in stacks/; a GIL-holding C extension call is the
usual cause.
""",
)

LIVE_DIED = rule(
    "LIVE005",
    "error",
    "A rank's process died",
    why="""
A rank exited (an exception, a signal, the OOM killer) and the others lost their peer: their
"connection closed by peer" or timeout errors are a consequence, not the cause.
""",
    fix="""
Read the named rank's last output lines and torchrun's failure record in the report; fix that
first (dmesg shows OOM kills).
""",
)

LIVE_STRAGGLER = rule(
    "LIVE006",
    "warning",
    "A rank is consistently the last into collectives",
    why="""
While the job ran, the other ranks were usually already inside the collective waiting for
this one. Every step then runs at the pace of the slowest rank: its extra time is lost on all
the others.
""",
    fix="""
Compare the rank's step time with the others': a slower GPU or CPU (thermal throttling, a
noisy neighbour, a different clock), an uneven data shard, or a data loader that starves on
that node. `ncclDoctor stalls` measures data waits per rank.
""",
)

LIVE_NO_PG = rule(
    "LIVE007",
    "warning",
    "The job never initialised a process group that ncclDoctor could watch",
    why="""
No worker reported Flight Recorder progress: the script never called init_process_group, it
ran without torchrun's worker environment, or the workers could not reach ncclDoctor's
collector. Nothing was watched, so no hang could have been detected.
""",
    fix="""
Check that the launch line is torchrun (or python -m torch.distributed.run) and that the script
initialises torch.distributed; rerun with NCD_LIVE_DEBUG=1 to see the workers' own errors in
live/debug.rank<R>.txt.
""",
)

LIVE_RECOVERED = rule(
    "LIVE008",
    "warning",
    "A stall passed the hang threshold, then the job went on",
    why="""
No collective completed for longer than the hang threshold, then progress resumed: a very slow
step, a long checkpoint written by one rank while the others waited, or a transient network
problem. It was reported as a hang at the time.
""",
    fix="""
If the pause is expected (one rank saving a checkpoint), give `ncclDoctor run --stall-after`
more than its length; the threshold also learns such pauses within a run.
""",
)
