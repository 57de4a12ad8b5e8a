"""Rule texts: bandwidth (BW). Leaf module: imports only ``findings.rule``."""

from ncclDoctor.findings import rule

STRAGGLER = rule(
    "BW001",
    "warning",
    "One rank is slower than the rest",
    why="""
A collective finishes when its slowest rank does: one slow rank (a throttled GPU, a
busy CPU, a slow link) sets the pace for the whole job.
""",
    fix="""
Look at the named rank's node: other processes (top), GPU clocks and throttling
(nvidia-smi -q -d PERFORMANCE), its network link. Rerun to see whether it persists.
""",
)

BELOW_REFERENCE = rule(
    "BW301",
    "warning",
    "busbw is far below the platform's published reference",
    why="""
ncclDoctor recognised this platform (GPU model and count from NVML, RDMA ports from
sysfs) in its table of published busbw floors (Azure and Google fleet health checks,
each row with its source; `ncclDoctor check` prints the row it used). A node below the
floor is one those operators would drain: a degraded NVLink/NVSwitch, a PCIe link
trained down, a missing GPUDirect RDMA path or a slow NIC. The reference was measured
at a large message size; the check only judges when its sweep reached that size.
""",
    fix="""
Rerun with the reference's size (e.g. `ncclDoctor check -e 16G`) to confirm; then look at
`ncclDoctor env` (NVLink state, PCIe width, IB ports) and the NCCL_* settings in the
report (a forced NCCL_ALGO/NCCL_PROTO or NCCL_P2P_DISABLE=1 costs bandwidth). Compare with
nccl-tests on the same node. `--expected-below PCT` sets how far below counts (default 90,
nccl-tests' NCCL_TESTS_MIN_BW margin).
""",
)
