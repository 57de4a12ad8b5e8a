"""GPU rule texts: GPUs through NVML.

Texts only (what `ncclDoctor explain CODE` prints); the checks that fire them live in
``ncclDoctor.rules.gpu``.
"""

from __future__ import annotations

from ncclDoctor.findings import rule

SKIPPED = rule(
    "GPU000",
    "info",
    "GPU health checks skipped",
    why="NVML (the NVIDIA driver's management library) is not available here, so GPU health could not be read. On a "
        "CPU-only host that is expected.",
    fix="On a GPU node, check that `nvidia-smi` works in the same container or environment.",
)


TOO_FEW = rule(
    "GPU001",
    "error",
    "Fewer GPUs than ranks per node",
    why="With nccl each rank needs its own GPU; NVML sees fewer GPUs than --nproc-per-node asks for (a GPU fell off "
        "the bus, or the node has fewer GPUs than the job assumes).",
    fix="Lower --nproc-per-node, or find the missing GPU (`nvidia-smi -L`, `dmesg | grep -i xid`).",
)


ECC_VOLATILE = rule(
    "GPU002",
    "error",
    "Uncorrectable ECC errors since the driver loaded",
    why="An uncorrectable (double-bit) memory error since the last driver load means data on this GPU was lost; CUDA "
        "kernels on it fail with ECC errors (Xid 48) and NCCL ranks on it crash or hang.",
    fix="Drain the node and reset the GPU (nvidia-smi -r, or reboot); if errors return, have the GPU replaced.",
)


ECC_AGGREGATE = rule(
    "GPU003",
    "warning",
    "Uncorrectable ECC errors in the GPU's lifetime",
    why="The GPU has had uncorrectable memory errors before. Memory is repaired by page retirement or row remapping, "
        "but a history of them predicts more.",
    fix="Watch this GPU (nvidia-smi -q -d ECC,PAGE_RETIREMENT,ROW_REMAPPER); replace it if the count grows.",
)


REMAP_PENDING = rule(
    "GPU004",
    "error",
    "Memory repair pending or failed",
    why="A retired page or remapped row takes effect only after a GPU reset; until then the bad memory is still in "
        "use. A failed remap means the GPU ran out of spare rows.",
    fix="Drain the node and reset the GPU (or reboot). A remapping failure means the GPU must be replaced.",
)


THROTTLED = rule(
    "GPU005",
    "warning",
    "GPU clocks slowed by hardware, heat or power",
    why="Thermal, hardware-slowdown or power-brake throttling lowers the clocks of this GPU only; every collective "
        "then waits for it, so one hot GPU slows the whole job.",
    fix="Check cooling and power (nvidia-smi -q -d PERFORMANCE,TEMPERATURE,POWER); compare with the node's other GPUs.",
)


PCIE_DEGRADED = rule(
    "GPU006",
    "warning",
    "PCIe link below its maximum",
    why="""
A GPU whose PCIe link trained at fewer lanes than it supports (x8 instead of x16) has
half the bandwidth to the CPU and to NICs without NVLink: a riser, slot or cable fault.
A lower *generation* alone is normal at idle (GPUs drop the link speed to save power)
and is reported as information; measure under load before acting on it.
""",
    fix="Compare `nvidia-smi -q -d PCIE` under load; reseat the GPU or riser if the width stays below maximum.",
)


NVLINK_DOWN = rule(
    "GPU007",
    "error",
    "NVLink link inactive",
    why="Some NVLink links of this GPU are down while others are up: traffic to its peers falls back to fewer links or "
        "PCIe, and NCCL's rings through it slow down.",
    fix="Check `nvidia-smi nvlink -s` and `nvidia-smi -q -d NVLINK` (or the fabric manager on NVSwitch systems); reset "
        "the GPU or service the node.",
)


NO_PERSISTENCE = rule(
    "GPU008",
    "info",
    "Persistence mode off",
    why="Without persistence mode the driver tears GPU state down when no process uses it, so each job start pays a "
        "slow initialization and clock settings are lost.",
    fix="Run `nvidia-smi -pm 1` (or the nvidia-persistenced service) on the node.",
)


COMPUTE_MODE = rule(
    "GPU009",
    "warning",
    "Compute mode restricts processes",
    why="In Prohibited mode no process can use the GPU; in Exclusive Process mode only one can, so two ranks (or a "
        "rank plus a monitoring tool that creates a context) cannot share it.",
    fix="Set the default compute mode: `nvidia-smi -c DEFAULT`, unless the scheduler set it on purpose.",
)


MIG_ON = rule(
    "GPU010",
    "warning",
    "MIG mode enabled",
    why="With MIG a GPU is split into instances that have no NVLink or peer-to-peer path between them; a rank sees one "
        "instance only, and NCCL between instances goes through host memory or the network.",
    fix="Disable MIG for multi-GPU training (`nvidia-smi -mig 0`, then reset), or give each job whole GPUs.",
)
