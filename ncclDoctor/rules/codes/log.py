"""LOG rules: what ``ncclDoctor diagnose`` can conclude from logs and Flight Recorder dumps.

Each rule's text is what ``ncclDoctor explain LOGnnn`` prints. The builders that turn
the collected state and the cross-rank conclusions into findings are in
``ncclDoctor.diagnose.conclude``.
"""

from __future__ import annotations

from ncclDoctor.findings import rule

_TIMEOUT_MYTHS = """
NCCL has no NCCL_TIMEOUT variable: the collective timeout is PyTorch's
init_process_group(timeout=...) (10 min default for NCCL), enforced by its watchdog. A
longer timeout does not cure a hang at a fixed SeqNum: the collective is waiting for a
rank that will never arrive, and you only wait longer for the same crash.
"""

CULPRIT = rule(
    "LOG001", "error", "Rank(s) never joined the collective the others wait in",
    why="""
When one rank stops issuing collectives (stuck in data loading, an exception swallowed,
a different code path), every other rank blocks in the next collective and, after the
timeout, prints "Watchdog caught collective operation timeout". Those ranks are
victims; the culprit is the rank that enqueued fewer collectives or never reported.
""" + _TIMEOUT_MYTHS,
    fix="""
Look at what the named rank was doing at that time: its own log (last lines before the
timeouts), its Python stack (py-spy dump --pid PID on a live job), or its Flight
Recorder entry. Rerun with TORCH_FR_BUFFER_SIZE=2000 (TORCH_NCCL_TRACE_BUFFER_SIZE on
older torch) so every rank dumps its trace on timeout, and run
`ncclDoctor diagnose` on the logs plus the dumps.
""",
)

DESYNC = rule(
    "LOG002", "error", "Ranks issued different collectives at the same sequence number",
    why="""
Every rank of a process group must issue the same collectives in the same order with
the same sizes. At the named sequence number some ranks issued a different operation
type or size: a rank-dependent branch (if rank == 0: ...), uneven inputs to DDP, or a
skipped step. The job hangs or, worse, reduces unrelated tensors together.
""",
    fix="""
Find the code that issues the named collective on the minority ranks (Flight Recorder
frames show it). Rerun with TORCH_DISTRIBUTED_DEBUG=DETAIL, which checks collective
types and shapes across ranks before each call and names the mismatch.
""",
)

FIRST_FAILURE = rule(
    "LOG003", "error", "A rank failed before the others timed out",
    why="""
The first error in time is usually the cause; the timeouts and "connection closed by
peer" errors that follow on other ranks are consequences of that rank going away.
""",
    fix="Fix the named rank's error first (its full log is the evidence); ignore the victims' timeouts until it is "
        "gone.",
)

ALL_JOINED = rule(
    "LOG004", "warning", "Every rank timed out inside the same collective",
    why="""
All ranks entered the collective, so no rank is missing: the data path itself stalled —
a dead or flapping link, a NIC or switch problem, a GPU that stopped making progress,
or NCCL falling back to a slow transport.
""",
    fix="""
Run `ncclDoctor check --nodes N` on the same nodes to measure every link and localize a
slow or broken one; check the NCCL WARN lines and NET/IB errors listed in this report;
dmesg / nvidia-smi -q for Xid errors on the ranks' nodes.
""",
)

TIMEOUTS = rule(
    "LOG005", "error", "Collective watchdog timeouts",
    why="""
PyTorch's watchdog aborted collectives that did not finish within the process group's
timeout, then took the process down (TORCH_NCCL_ASYNC_ERROR_HANDLING). Most ranks that
print this line are victims of one culprit.
""" + _TIMEOUT_MYTHS,
    fix="""
Read the LOG001/LOG002/LOG003 findings of this report for the culprit. If there are
none, collect logs from every rank (a missing rank's log is often the answer) and
Flight Recorder dumps (TORCH_FR_BUFFER_SIZE=2000), then rerun `ncclDoctor diagnose`.
""",
)

NCCL_ERROR = rule(
    "LOG010", "error", "NCCL returned an error",
    why="""
ncclSystemError: a system call or the network failed (socket, IB verbs, shared memory).
ncclRemoteError: a peer failed or went away (often a network error or a crashed rank).
ncclInternalError: NCCL's own check failed (often a version or topology problem).
ncclUnhandledCudaError: a CUDA call failed (an Xid, an illegal memory access, OOM).
The "Last error:" line after it names the call that failed.
""",
    fix="""
Read the Last error text. Rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET to see
the transport chosen and the failing call; check dmesg for Xid errors; run
`ncclDoctor check` on the affected nodes.
""",
)

IB_COMPLETION = rule(
    "LOG011", "error", "InfiniBand completion errors",
    why="""
"NET/IB : Got completion ... with status=12" is IBV_WC_RETRY_EXC_ERR: the HCA gave up
after NCCL_IB_RETRY_CNT retries of NCCL_IB_TIMEOUT each (about 30 s with defaults). The
peer or the path to it stopped answering: a link flap, a failed port, a rebooted node.
""",
    fix="""
Check the named peer's port and cable (ibstat, ibv_devinfo, the switch's error
counters). Raising NCCL_IB_TIMEOUT only helps on very large fabrics; a dead link stays
dead. Run `ncclDoctor check --nodes N` to find the slow or broken link.
""",
)

SOCKET = rule(
    "LOG012", "error", "Socket errors between ranks",
    why="""
Connection reset / closed by peer usually means the peer process died (look for its own
error first). "No route to host" or "Connection refused" at start-up means the chosen
interface or port is not reachable between nodes (firewall, wrong interface).
""",
    fix="""
Find the peer's own error in this report (LOG003). At start-up, set NCCL_SOCKET_IFNAME /
GLOO_SOCKET_IFNAME to an interface every node shares and check the port range is open.
""",
)

STORE = rule(
    "LOG013", "error", "Store or rendezvous timeout",
    why="""
Ranks could not reach the TCPStore / rendezvous endpoint, or waited for ranks that never
arrived. Either MASTER_ADDR:MASTER_PORT is unreachable from some nodes, or some ranks
never started (a failed node, a scheduler that did not start every task).
""",
    fix="""
Check that every node can reach the endpoint named here (nc -zv HOST PORT) and that all
nodes were started with the same --nnodes and --rdzv-id. `ncclDoctor check --nodes N`
tests the rendezvous before anything else.
""",
)

GLOO = rule(
    "LOG014", "error", "Gloo transport error",
    why="""
Gloo could not find or use a network address ("Unable to find address for",
"address family mismatch": an interface without an address of the family the peers
use), or a peer closed its connection (it died or hit its own error first).
""",
    fix="""
Set GLOO_SOCKET_IFNAME to an interface that exists and has an IPv4 address on every
node (the same name everywhere); for a closed connection, find the peer's own error.
""",
)

HEARTBEAT = rule(
    "LOG015", "error", "The heartbeat monitor killed a process with a stuck watchdog",
    why="""
ProcessGroupNCCL's watchdog thread itself stopped making progress for
TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC (8 min by default): a CUDA or NCCL call hung inside
the watchdog (e.g. cudaEventDestroy, ncclCommAbort). This is a driver/GPU/NCCL-level
hang, not a slow collective.
""",
    fix="""
Check the node's GPU for Xid errors (dmesg, nvidia-smi -q) and the NCCL version. The
stack dump that follows in the log shows the hung call.
""",
)

DATALOADER = rule(
    "LOG016", "error", "A DataLoader worker was killed",
    why="""
A DataLoader worker process died. "Bus error" almost always means /dev/shm is too small
for the batches workers hand over (Docker's default is 64 MB); "Killed" (SIGKILL)
usually means the host ran out of memory. The rank then stops issuing collectives and
the other ranks time out.
""",
    fix="""
Enlarge /dev/shm (docker run --shm-size=16g or --ipc=host; Kubernetes: an emptyDir with
medium Memory), or lower num_workers / prefetch_factor. `ncclDoctor sweep-workers`
finds a num_workers that feeds the GPUs within the memory you have.
""",
)

OOM = rule(
    "LOG017", "error", "CUDA out of memory",
    why="A rank ran out of GPU memory and raised; the other ranks then wait for it in their next collective and time "
        "out.",
    fix="""
Lower the batch size or sequence length on that rank, enable activation checkpointing,
or set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True against fragmentation. Check
that no other process shares the GPU (nvidia-smi).
""",
)

CHILD_FAILED = rule(
    "LOG018", "error", "torchrun reported failed ranks",
    why="""
torchrun's ChildFailedError summary lists each failed rank with its exit code. The
"Root Cause (first observed failure)" is the first process torchrun saw exit, which is
not always the cause: a rank killed by its watchdog (SIGABRT) is a victim.
An "error_file: <N/A>" means the script's main() lacks torch's @record decorator.
""",
    fix="""
Read the named rank's traceback. Decorate your entry point with
torch.distributed.elastic.multiprocessing.errors.record so torchrun reports the real
exception instead of <N/A>.
""",
)

SOCKET_FALLBACK = rule(
    "LOG019", "warning", "NCCL used TCP sockets, not InfiniBand/RoCE",
    why="""
NCCL picked its socket transport (NET/Socket) for inter-node traffic. On a cluster with
InfiniBand or RoCE that is a silent fallback to a fraction of the bandwidth (and
timeouts on large jobs): the IB device was not found, libibverbs is missing in the
container, or NCCL_IB_DISABLE is set.
""",
    fix="""
If the nodes have IB/RoCE: check NCCL_IB_DISABLE is unset, the container has
libibverbs and /dev/infiniband, and NCCL_IB_HCA names an existing device. Confirm with
`ncclDoctor check --nodes N` (it reports the transport and measured busbw).
""",
)

SETTINGS = rule(
    "LOG020", "info", "Settings NCCL took from the environment",
    why="NCCL logs 'X set by environment to Y' for every variable it applied: the effective settings of the failed "
        "run.",
    fix="Compare with what you meant to set; `ncclDoctor explain ENV` lists the settings ncclDoctor lints.",
)

NCCL_WARN = rule(
    "LOG021", "warning", "NCCL warnings",
    why="NCCL printed WARN lines; they often name the failing call or peer before the error surfaces in PyTorch.",
    fix="Read the lines listed as evidence; rerun with NCCL_DEBUG=INFO for context around them.",
)

UNREADABLE = rule(
    "LOG030", "warning", "Some inputs could not be read completely",
    why="A file was binary, empty, truncated, unreadable or had over-long lines; the rest of the input was analysed "
        "without it.",
    fix="Check the named files (a truncated .gz: copy it again once the job has finished writing it).",
)

REASONING_STOPPED = rule(
    "LOG033", "error", "diagnose's reasoning stopped with an internal error",
    why="""
A bug in ncclDoctor stopped the step that draws the verdict from what was read. Every other
finding, the per-rank timeline and the settings read from the logs are still reported; only
the verdict (cause, culprits, fix) is missing. The run exits 70, ncclDoctor's own error.
""",
    fix="""
Read the other findings and the timeline; please report the bug with the input (or the
lines around the failure) and the traceback NCCLDOCTOR_DEBUG=1 prints.
""",
)

NOTHING_FOUND = rule(
    "LOG031", "info", "No known failure signature in the input",
    why="""
None of the lines matched a known NCCL, PyTorch, torchrun or gloo failure. Either the
job did not fail in the distributed layer, or the relevant ranks' logs were not given.
""",
    fix="""
Give the logs of every rank (a directory is walked recursively), with NCCL_DEBUG=WARN or
INFO set in the job, and Flight Recorder dumps if there are any.
""",
)

MISSING_LOGS = rule(
    "LOG032", "warning", "No logs from some ranks",
    why="The job had more ranks than the input holds logs for; the culprit is often the rank whose log is missing.",
    fix="Collect the missing ranks' logs (per-rank files, e.g. torchrun --log-dir, or srun -l) and rerun diagnose.",
)

PRIOR = rule(
    "LOG040", "info", "Findings of an earlier ncclDoctor run",
    why="The input includes an ncclDoctor run directory; its own report's findings are repeated here.",
    fix="Run `ncclDoctor report DIR` for that run's full report.",
)

# Added for diagnose's verdict (ncclDoctor.diagnose.verdict) and its expert reading of logs.

WATCHDOG_BLOCKED = rule(
    "LOG006",
    "error",
    "The watchdog thread itself was blocked",
    why="""
The watchdog checks its collectives every few seconds, so 'ran for' is normally the
timeout plus a few seconds. A 'ran for' far beyond Timeout(ms) means the watchdog
thread could not run for that long: another thread held the GIL inside a CUDA call, or
a CUDA/NCCL call hung in the driver. The process was stuck, not only one collective.
""",
    fix="""
On the live job: py-spy dump --native --pid PID for every rank (the stuck frame is the
answer); nvidia-smi and dmesg for Xid errors on that node. Afterwards: rerun with
TORCH_NCCL_ENABLE_MONITORING=1 (the default) so the heartbeat monitor kills a stuck
watchdog after TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC.
""",
)

CONNECTION_SETUP = rule(
    "LOG007",
    "error",
    "Timeout in the first collectives: connection set-up",
    why="""
NCCL connects a communicator's peers lazily, during its first collectives. A timeout at
one of the first SeqNums with a tiny message (a barrier, a one-element all_reduce), with
every rank of the world shown inside it, is almost never the training code: the ranks
could not connect (wrong or unreachable network interface, firewall, P2P between GPUs,
IB). When a rank of the world is not shown there, that rank was more often still busy
before its first collective (dataset preprocessing on the main process): rank_missing.
""",
    fix="""
Rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET and read which interface NCCL
chose ("NET/Socket : Using", "Bootstrap : Using"); set NCCL_SOCKET_IFNAME (and
GLOO_SOCKET_IFNAME) to the interface the nodes share (ip -br addr; the one holding
the address of MASTER_ADDR's network); open the port range in the firewall. On one
node, NCCL_P2P_DISABLE=1 as a test tells a broken GPU peer-to-peer path.
""",
)

GROUPS_UNCLEAR = rule(
    "LOG008",
    "info",
    "Watchdog lines without a process-group tag could not be compared",
    why="""
SeqNums count per process group. Lines without a PG tag (torch < 2.2 prints only
'[Rank N]') cannot be compared across ranks as one group: two ranks thousands of SeqNums
apart that 'ran for' the same time were enqueued at the same moment, in different groups.
""",
    fix="Give logs from torch >= 2.2 (PG-tagged status lines) or Flight Recorder dumps (TORCH_FR_BUFFER_SIZE=2000).",
)

CUDA_ERROR = rule(
    "LOG022",
    "error",
    "A CUDA error on a rank",
    why="""
A CUDA error (an illegal memory access, 'unknown error', an invalid argument inside
NCCL) is that rank's own failure: kernels report asynchronously, so the watchdog thread
is often the first to see it. The other ranks only lose their peer and time out.
""",
    fix="""
Illegal memory access: rerun that rank's step with CUDA_LAUNCH_BLOCKING=1 (the traceback
then points at the kernel), or under compute-sanitizer. 'Cuda failure 999 unknown
error': the driver/GPU is in a bad state: nvidia-smi, dmesg for Xid errors, a driver
and CUDA runtime that match the container.
""",
)

DUPLICATE_GPU = rule(
    "LOG023",
    "error",
    "Two ranks on one GPU (ncclInvalidUsage)",
    why="""
NCCL refuses a communicator where two ranks use the same GPU ('Duplicate GPU detected').
Every process was left on the default device 0: the script never called
torch.cuda.set_device(LOCAL_RANK), or CUDA_VISIBLE_DEVICES hides all but one GPU.
""",
    fix="""
Call torch.cuda.set_device(int(os.environ["LOCAL_RANK"])) before init_process_group (or
pass device_id=); check that CUDA_VISIBLE_DEVICES lists one GPU per local rank.
""",
)

SHM = rule(
    "LOG024",
    "error",
    "NCCL could not create its shared memory segments",
    why="""
NCCL's intra-node transport allocates segments in /dev/shm. 'posix_fallocate failed: No
space left on device' or 'Error while creating shared memory segment' means /dev/shm is
too small (docker's default is 64 MB) or not shared between the processes.
""",
    fix="""
Give the container a larger /dev/shm (docker run --shm-size=16g or --ipc=host;
Kubernetes: an emptyDir with medium: Memory at /dev/shm). NCCL_SHM_DISABLE=1 works
around it at some intra-node bandwidth.
""",
)

KILLED = rule(
    "LOG025",
    "error",
    "A rank was killed with SIGKILL (exit code -9)",
    why="""
Exit code -9 (Signal 9 (SIGKILL)) without a Python traceback means the process was
killed from outside; on a training node that is almost always the kernel's OOM killer
(host RAM), or the scheduler enforcing a memory limit.
""",
    fix="""
dmesg -T | grep -i 'killed process' on that node shows the OOM killer; lower host memory
use (fewer DataLoader workers, load checkpoints shard by shard / with mmap, fewer ranks
per node loading the model at once) or raise the job's memory limit.
""",
)

AGENT_SIGNAL = rule(
    "LOG026",
    "warning",
    "torchrun's agent received a signal",
    why="""
'Received N death signal, shutting down workers' is torchrun forwarding a signal it got
from outside: 15 SIGTERM (the scheduler cancelled or preempted the job, or its time
limit), 2 SIGINT (Ctrl-C), 1 SIGHUP (the terminal closed: nohup does not cover the
agent). It ends the job; whether something hung before is another question.
""",
    fix="""
SIGTERM: read the scheduler's record (sacct / kubectl describe) for who stopped the job.
SIGHUP: run under tmux/screen or the scheduler, not a terminal. SIGINT after a hang:
next time take stacks first (py-spy dump --pid PID).
""",
)

LEFT_EARLY = rule(
    "LOG027",
    "warning",
    "A rank left the job while others still needed it",
    why="""
The process-group destructor warning ('process group has NOT been destroyed') is
printed at every exit without destroy_process_group(): harmless when every rank exits
normally. When it comes from one rank while the others are still running (torchrun then
terminates them, or they lose their peer), that rank exited early.
""",
    fix="""
Find why the named rank returned early (an exception caught and swallowed, a
rank-conditional return). Call dist.destroy_process_group() at the end of main on every
rank so normal exits are clean.
""",
)

INTERFACE = rule(
    "LOG028",
    "warning",
    "NCCL picked a doubtful network interface",
    why="""
NCCL's bootstrap and socket transport use the first interface it likes. A loopback
(lo, 127.x), a link-local IPv6 (fe80::) or a virtual interface (docker0, veth*, virbr*,
ip6tnl*) cannot carry traffic between nodes: connections then time out or are refused.
""",
    fix="""
Set NCCL_SOCKET_IFNAME (and GLOO_SOCKET_IFNAME) to the interface the nodes reach each
other on, e.g. NCCL_SOCKET_IFNAME==eth0 or ^docker,lo,veth; list them with ip -br addr.
""",
)

NUMBERS = rule(
    "LOG009",
    "info",
    "What the numbers in the watchdog lines say",
    why="""
Every number of a watchdog line carries information: SeqNum is the position in the
process group's sequence; NumelIn/NumelOut of a reduce-scatter or all-gather give the
group's size; Timeout(ms) is the process group's timeout; 'ran for' minus it is how late
the watchdog looked; the status line's 'last enqueued' beyond the stuck SeqNum means the
rank's CPU went on issuing work (it waits on the GPU, not in Python), and 'last
completed' one below it means everything before completed.
""",
    fix="Read this with the verdict: it explains where in the job the hang is and what the ranks were doing.",
)

VERDICT = rule(
    "LOG029", "error", "What the lines say failed, read from evidence no other rule reports alone",
    why="""
Some conclusions rest on evidence that is not a failure line of its own: NCCL's return-code
trail through its bootstrap, a desync stated by torch's collective fingerprint check, a
watchdog status line without its timeout line. The verdict is reported here so that the
findings never say "nothing failed" beside it.
""",
    fix="The finding's message carries the verdict's specific fix (report.json: results.diagnose.verdict).",
)
