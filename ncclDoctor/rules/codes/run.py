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
