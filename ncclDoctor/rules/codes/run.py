"""RUN rule texts: the probe run itself: launch, rendezvous, hangs, crashes, wrong results.

Texts only (what `ncclDoctor explain CODE` prints); the checks that fire them live in
``ncclDoctor.analysis.verdict``, ``ncclDoctor.check`` (RUN005-RUN007; RUN101 and RUN102
across nodes), ``ncclDoctor.sweep.core``.
"""

from __future__ import annotations

from ncclDoctor.findings import rule

LAUNCH_FAILED = rule(
    "RUN001",
    "error",
    "The probe could not start",
    why="""
torchrun exited before every rank had started. The same will happen to a training job
launched the same way: the launcher, the rendezvous endpoint or the Python environment
is broken on this node.
""",
    fix="""
Read torchrun.log in the run directory (and logs/ for each rank). Check that
`python -m torch.distributed.run --help` works, that the rendezvous endpoint is
reachable from every node, and that every node runs the same command.
""",
)


INIT_FAILED = rule(
    "RUN002",
    "error",
    "Process-group initialisation failed",
    why="""
Ranks started but init_process_group did not complete. Usually a rank cannot reach the
store (MASTER_ADDR/MASTER_PORT, firewall), the backend cannot bind the chosen network
interface (GLOO_SOCKET_IFNAME / NCCL_SOCKET_IFNAME), or NCCL could not set up its
communicator.
""",
    fix="""
Look at the named ranks' errors. Check GLOO_SOCKET_IFNAME / NCCL_SOCKET_IFNAME name an
interface that exists and is up on every node, and rerun with NCCL_DEBUG=INFO on GPUs.
""",
)


HANG = rule(
    "RUN003",
    "error",
    "A rank did not reach a phase in time",
    why="""
When one rank stops issuing collectives, every other rank blocks inside the next one
and, minutes later, reports a watchdog timeout: the ranks that report are victims. The
culprit is the rank that never entered the collective (or issued fewer of them).
""",
    fix="""
Look at the culprit's stack (stacks/ in the run directory): it shows where that rank
really is. A longer timeout does not cure a hang at a fixed point. If every rank was
inside the same collective, suspect the transport between nodes: run
`ncclDoctor check --nodes N` to localize the link.
""",
)


CRASH = rule(
    "RUN004",
    "error",
    "A rank died",
    why="""
A rank exited (an exception, a signal, the OOM killer) and the others lost their peer:
their "connection closed by peer" or timeout errors are a consequence, not the cause.
""",
    fix="Read the named rank's traceback (logs/ in the run directory) and fix that first.",
)


WRONG_RESULTS = rule(
    "RUN005",
    "error",
    "Collective returned wrong data",
    why="""
The all_reduce of known integer inputs did not produce the exact expected sum. That is
data corruption (historically GPUDirect RDMA, PCIe ACS/IOMMU settings, or forced
protocols such as NCCL_PROTO=LL128 where unsupported), and training on it is silently
wrong.
""",
    fix="""
Stop using this node until explained. Unset forced NCCL_PROTO/NCCL_ALGO, check ACS and
IOMMU settings, and rerun `ncclDoctor check`; run nccl-tests' all_reduce_perf -c 1 to
confirm.
""",
)


SINGLE_RANK = rule(
    "RUN006",
    "warning",
    "Only one rank: bus bandwidth is meaningless",
    why="""
With one rank, all_reduce moves no data: nccl-tests' bus factor 2(n-1)/n is 0 and busbw
reads 0 GB/s. Many "Avg bus bandwidth = 0" reports are single-rank runs by accident.
""",
    fix="Run with --nproc-per-node 2 or more (or --nodes N).",
)


INTERRUPTED = rule(
    "RUN007",
    "warning",
    "Run interrupted",
    why="The run was stopped before it finished; the report holds what was gathered until then.",
    fix="Rerun the same command to completion.",
)

RANK_ERRORS = rule(
    "RUN101",
    "error",
    "Ranks on a node failed with an error",
    why="""
These ranks stopped with an exception of their own; the ranks on other nodes that then
waited or failed are victims. At init the error usually names the cause: an interface
that does not exist (GLOO_SOCKET_IFNAME / NCCL_SOCKET_IFNAME), an address that cannot be
reached, or a timeout connecting to the store.
""",
    fix="""
Fix the named node first (its error is quoted), then rerun on all nodes. Its full log is
in that node's run directory (logs/, torchrun.log).
""",
)

NODE_MISSING = rule(
    "RUN102",
    "error",
    "A node did not report to the control store",
    why="""
Every node's ncclDoctor publishes its settings and findings to the reporting node when it
starts. A node that never did was not started, started with other options, or cannot
reach the rendezvous host.
""",
    fix="""
Start `ncclDoctor check` with the same --nodes and --rdzv-endpoint on every node (or
through srun), and check that the rendezvous port and the port after it are reachable.
""",
)

# -- issue 15: a check that stays fast and right on a sick cluster ------------------------

SIZE_OVER_BUDGET = rule(
    "RUN008",
    "error",
    "The sweep stopped at a size that blew its time budget (slow, not hung)",
    why="""
Every message size gets a time budget from the run's own measurements (the previous
size's time scaled by the size ratio, times a margin) and from what is left of
--max-seconds. Bytes were still moving -- every rank kept finishing collectives -- but
this size would have taken far longer than the sizes before it predict, or longer than
the check may run. That is a slow path (a link throttled or congested, NCCL fallen back
from InfiniBand to sockets, an oversubscribed host), not a hang: a hang is RUN003.
""",
    fix="""
Look at the sizes that did run: a busbw far below the platform's is the slow path. On
several nodes the structure findings (BW2xx) name the slow node or link. Rerun with a
larger --max-seconds, or a smaller --max-bytes, to measure the large sizes anyway.
""",
)

RDZV_UNRESOLVED = rule(
    "RUN103",
    "error",
    "The rendezvous endpoint does not resolve on this node",
    why="""
--rdzv-endpoint (or the SLURM allocation's first node) names a host this node cannot
resolve to an address. torchrun would retry the rendezvous until its timeout and fail;
the check stops at once instead.
""",
    fix="""
Use the rendezvous host's address, or a name that resolves on every node (check with
`getent hosts NAME` on this node).
""",
)

PEER_STOPPED = rule(
    "RUN104",
    "error",
    "Another node's preflight found the check cannot run",
    why="""
A node found, before launching its ranks, a fault that makes the job impossible: an
interface named in GLOO_SOCKET_IFNAME / NCCL_SOCKET_IFNAME that does not exist there,
a rendezvous endpoint it cannot resolve, a /dev/shm too small for its ranks. It told
the other nodes through the control store, and every node stopped within seconds
instead of waiting for the rendezvous or init deadline.
""",
    fix="Fix the named node (its finding is quoted and in its own report), then rerun on all nodes.",
)

NODE_LOST = rule(
    "RUN105",
    "error",
    "A whole node stopped answering mid-run",
    why="""
Every node's ncclDoctor beats through the control store while its ranks run. This node's
beat stopped changing for longer than the liveness deadline while the run was in a phase,
and it never said it had finished: its ncclDoctor was killed with its ranks, its host went
down, or the network between the nodes was cut. None of its ranks could say why, so the
other nodes' ranks are victims: their lost-peer errors or waits are consequences, and no
rank was "hung". When the node named is the reporting node (or "the control store"), this
node could no longer reach the store at all: that host is down or was killed, or this node
is cut off from it -- one node alone cannot tell those apart.
""",
    fix="""
Look at the named node first: is the host up (ping, ssh), did the scheduler or the OOM
killer end its processes (dmesg, the job scheduler's log), is its network link up? Then
rerun on all nodes. Its own run directory holds what it wrote before it was lost.
""",
)
