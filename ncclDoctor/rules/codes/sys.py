"""Rule texts: the host's resources (SYS0xx added after the codes module split; SYS001-SYS006
stay in ``ncclDoctor.rules.system`` / ``rules.shm``). Leaf module: imports only ``findings.rule``."""

from ncclDoctor.findings import rule

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
