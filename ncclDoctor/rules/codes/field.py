"""Rule texts: what the field's own tools reported (FLD), read by ``ncclDoctor diagnose``
from nccl-tests output, NCCL RAS output and DCGM diagnostics (``diagnose.fieldformats``).
Leaf module: imports only ``findings.rule``."""

from ncclDoctor.findings import rule

NCCL_TESTS_WRONG = rule(
    "FLD001",
    "error",
    "nccl-tests found wrong results",
    why="""
nccl-tests checks every result bit for bit (#wrong: elements that differ; "Out of bounds
values: N FAILED" counts the sizes with any). A wrong result is data corruption: in the
past GPUDirect RDMA / peer-memory problems (nccl-tests#8) and PCIe ACS/IOMMU settings on
PHB topologies (nccl-tests#131). Training on this node gives silently wrong gradients.
""",
    fix="""
Take the node out of service. Check ACS (`lspci -vvv | grep ACSCtl`), IOMMU and the
GPUDirect RDMA module, then rerun the same nccl-tests command with -c 1, and
`ncclDoctor check` on the node.
""",
)

NCCL_TESTS_ONE_RANK = rule(
    "FLD002",
    "warning",
    "nccl-tests ran as independent one-rank jobs",
    why="""
With one rank the bus factor is 0 and busbw prints 0 ("Avg bus bandwidth : 0"). The usual
cause is a binary built without MPI=1 launched under mpirun: every process is its own
1-rank job and prints "Rank 0" (nccl-tests#71, #107, #249, #294). Nothing was measured
between GPUs.
""",
    fix="""
Rebuild nccl-tests with `make MPI=1 MPI_HOME=...` and launch one process per GPU, or run
`ncclDoctor check` (torchrun launches the ranks; no MPI needed).
""",
)

NCCL_TESTS_MIN_BW = rule(
    "FLD003",
    "error",
    "nccl-tests busbw below its required minimum",
    why="""
NCCL_TESTS_MIN_BW was set and the average busbw fell below 0.9 x that value, so nccl-tests
printed FAILED and exited non-zero.
""",
    fix="""
Compare with a known-good node of the same type; look at NVLink/PCIe state and NIC ports
(`ncclDoctor env`), and at forced NCCL_* settings in the job's environment.
""",
)

RAS_DEAD = rule(
    "FLD010",
    "error",
    "NCCL RAS: job processes are dead or unreachable",
    why="""
NCCL's RAS network could not reach these processes (DEAD: "considered dead (unreachable
via the RAS network)"; JSON: missing_ranks[].status.considered_dead). A dead process never
finishes its collectives, so every other rank waits until its watchdog fires: their
timeouts are symptoms of this.
""",
    fix="""
On the named node: was the process killed (dmesg for the OOM killer, Xid errors for the
GPU), did the node reboot or lose its network? Restart the job without that node.
""",
)

RAS_MISSING = rule(
    "FLD011",
    "warning",
    "NCCL RAS: no data from some ranks or processes",
    why="""
RAS gathered no communicator data from these ranks (INCOMPLETE; JSON: missing_ranks, e.g.
unresponsive). An unresponsive process is often stuck in a system call or a GPU hang; it may
also be slow to answer.
""",
    fix="""
Ask RAS again (`ncclras`) after a few seconds; if the same ranks stay missing, dump their
stacks (`py-spy dump --pid PID`) and check the node's GPUs (`nvidia-smi`, dmesg for Xid).
""",
)

RAS_LAGGING = rule(
    "FLD012",
    "error",
    "NCCL RAS: ranks are behind the others in a communicator",
    why="""
RAS counts the collectives each rank has launched. When the counts differ ("Communicator
ranks have different <Op> operation counts"), the ranks with the lowest count stopped
launching: they are the culprits of a hang (or the slow ranks), the others wait for them
inside the next collective. Counts are host-side launches: a lagging rank is stuck in its
own code (data loading, a Python deadlock, a different code path), not inside NCCL.
""",
    fix="""
Look at what the lagging ranks are doing: `py-spy dump --pid PID` on the named node, their
logs around the last step. A rank that skipped or added a collective (a conditional
all_reduce) shows the same pattern.
""",
)

RAS_ERRORS = rule(
    "FLD013",
    "error",
    "NCCL RAS: ranks reported NCCL errors",
    why="""
These ranks reported an initialization or asynchronous NCCL error (RAS "ERROR" section,
"Rank r reported <error>"; JSON: status.async_error != 0). An asynchronous error (network
or remote process failure) aborts the communicator.
""",
    fix="""
Read the named ranks' NCCL log (NCCL_DEBUG=WARN) for the first WARN line; check the node's
NICs (`ncclDoctor env`) and whether a peer died first (FLD010).
""",
)

DCGM_FAILED = rule(
    "FLD020",
    "error",
    "DCGM diagnostics failed on a GPU",
    why="""
`dcgmi diag` ran NVIDIA's GPU validation tests (memory, PCIe, NVLink, stress) and one
failed on this GPU; DCGM's message names the reason. A failing GPU is the most common
cause of interrupted training (64% of Llama 3's unexpected interruptions were GPU issues).
""",
    fix="""
Drain the node, follow DCGM's message (reseat, field diagnostics, RMA), and rerun
`dcgmi diag -r 3` before returning it to service.
""",
)

DCGM_WARN = rule(
    "FLD021",
    "warning",
    "DCGM diagnostics warned about a GPU",
    why="""
A DCGM diagnostic test ended with a warning on this GPU (e.g. a marginal bandwidth or
clock); the GPU works but is not healthy.
""",
    fix="""
Read DCGM's message; rerun `dcgmi diag -r 3` and watch whether the warning persists.
""",
)
