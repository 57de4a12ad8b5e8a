"""SYS rule texts: host facts: memory, /dev/shm, ulimits, CPU cores.

Texts only (what `ncclDoctor explain CODE` prints); the checks that fire them live in
``ncclDoctor.rules.shm``, ``ncclDoctor.rules.system``.
"""

from __future__ import annotations

from ncclDoctor.findings import rule

SMALL_SHM = rule(
    "SYS001",
    "warning",
    "/dev/shm is small",
    why="""
DataLoader workers pass batches through shared memory and NCCL's SHM transport uses it
too. Docker's default is 64 MiB; when it fills, workers die with "Bus error" or
"DataLoader worker ... is killed by signal".
""",
    fix="Give the container more shared memory (docker run --shm-size=16g, or an emptyDir medium: Memory volume on "
        "Kubernetes).",
)


MEMLOCK = rule(
    "SYS002",
    "warning",
    "Locked-memory limit (ulimit -l) is not unlimited",
    why="RDMA (InfiniBand/RoCE) registers pinned memory; a low memlock limit makes NCCL fail or fall back to sockets.",
    fix="Set `ulimit -l unlimited` (limits.conf, or `--ulimit memlock=-1` for containers).",
)


OVERSUBSCRIBED = rule(
    "SYS003",
    "info",
    "More ranks than CPU cores",
    why="Ranks compete for cores, so timings (especially small messages) measure scheduling, not the network.",
    fix="Use fewer ranks per node, or read small-message latencies with that in mind.",
)


NO_CUDA = rule(
    "SYS004",
    "error",
    "nccl requested but no usable GPU",
    why="The nccl backend needs CUDA devices; torch reports none here (CPU-only build, no driver, or "
        "CUDA_VISIBLE_DEVICES empty).",
    fix="Use --backend gloo on CPU-only machines, or install a CUDA build of torch and check `nvidia-smi`.",
)


TOO_FEW_GPUS = rule(
    "SYS005",
    "error",
    "More ranks per node than visible GPUs",
    why="With nccl each rank needs its own GPU; two ranks on one GPU fail or deadlock in NCCL.",
    fix="Lower --nproc-per-node to the GPU count, or fix CUDA_VISIBLE_DEVICES.",
)


SHM_TOO_SMALL = rule(
    "SYS006",
    "error",
    "/dev/shm smaller than the DataLoader workers need",
    why="""
DataLoader workers pass every batch through /dev/shm: ranks per node x num_workers x
prefetch_factor batches can be there at once. When it fills up, workers die with "Bus
error", "No space left on device" or "DataLoader worker (pid N) is killed by signal",
usually minutes into training, on the node with the smallest /dev/shm.
""",
    fix="""
Give the container more shared memory (docker run --shm-size=..., or a Kubernetes
emptyDir with medium: Memory and a sizeLimit above the need shown), or lower num_workers
or prefetch_factor.
""",
)

SHM_TOO_SMALL_FOR_RANKS = rule(
    "SYS007",
    "error",
    "/dev/shm too small for NCCL's shared-memory transport between the ranks of a node",
    why="""
NCCL connects the ranks of one node through segments in /dev/shm (about 9.2 MiB per
connected pair with default buffers: "Error while creating shared memory segment
/dev/shm/nccl-... (size 9637888)"). When /dev/shm has less free space than the ranks
need, NCCL fails at the first collective -- typically a container started with Docker's
64 MiB default. ncclDoctor check stops before launching instead.
""",
    fix="""
Give the container more shared memory (docker run --shm-size=1g or more, or a Kubernetes
emptyDir with medium: Memory), or set NCCL_SHM_DISABLE=1 to use another path (slower).
""",
)
