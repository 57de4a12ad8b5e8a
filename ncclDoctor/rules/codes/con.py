"""CON rule texts: consistency across nodes.

Texts only (what `ncclDoctor explain CODE` prints); the checks that fire them live in
``ncclDoctor.analysis.consistency``.
"""

from __future__ import annotations

from ncclDoctor.findings import rule

ENV_DIFFERS = rule(
    "CON001",
    "warning",
    "A distributed setting differs between nodes",
    why="""
Nodes of one job should run with the same NCCL / torch / gloo settings. A variable set
on one node only (an HCA list, a socket interface, a protocol or algorithm override)
makes that node negotiate or behave differently: at best it is slower, at worst the
ranks disagree and the job hangs or fails at init.
""",
    fix="""
Set the variable the same way on every node (the job script, not a node's shell
profile or container image), or unset it everywhere. Rerun `ncclDoctor check` to confirm.
""",
)


VERSION_DIFFERS = rule(
    "CON002",
    "warning",
    "Software versions differ between nodes",
    why="""
torch, CUDA, NCCL and the GPU driver should match on every node. Different NCCL or
torch versions may use different protocols or wire formats; mixed versions are a common
cause of hangs at the first collective and of bugs that only one node shows.
""",
    fix="Install the same container image or environment on every node (pin torch and NCCL).",
)


GPU_DIFFERS = rule(
    "CON003",
    "warning",
    "GPU models differ between nodes",
    why="""
A collective runs at the pace of its slowest GPU and link. A node with a different GPU
model (or an allocation that mixed partitions) makes the whole job as slow as that node.
""",
    fix="Request nodes of one type (e.g. SLURM --constraint / --partition) or expect that node's speed.",
)


IFACE_DIFFERS = rule(
    "CON004",
    "warning",
    "Ranks would use different network interfaces",
    why="""
The interface a rank uses for bootstrap and socket traffic comes from GLOO_SOCKET_IFNAME /
NCCL_SOCKET_IFNAME or, without them, from routing. Nodes that pick different kinds of
interface (a management NIC on one, the fast fabric on the others) give slow or
unreachable peers.
""",
    fix="Set NCCL_SOCKET_IFNAME / GLOO_SOCKET_IFNAME to the fabric interface on every node (a prefix such as `ib` or "
        "`eth` matches differing names).",
)


LIMITS_DIFFER = rule(
    "CON005",
    "warning",
    "System limits differ between nodes",
    why="""
/dev/shm holds NCCL's intra-node shared-memory buffers and DataLoader batches; `ulimit -l`
(locked memory) must be high for InfiniBand memory registration. A node with a smaller
limit fails or falls back to a slower path where the others do not.
""",
    fix="Give every node the same container shm size (--shm-size / emptyDir medium Memory) and memlock limit (ulimit "
        "-l unlimited).",
)
