"""Rule texts: the run itself across nodes (RUN1xx). Leaf module: imports only ``findings.rule``."""

from ncclDoctor.findings import rule

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
