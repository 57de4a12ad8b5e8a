"""LOG rules added for the expert reading of logs (diagnose's verdict, ncclDoctor.diagnose.verdict).

Leaf module: only rule texts. The older LOG codes live in ncclDoctor.diagnose.rules.
"""

from ncclDoctor.findings import rule

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
one of the first SeqNums with a tiny message (a barrier, a one-element all_reduce) is
almost never the training code: the ranks could not connect (wrong or unreachable
network interface, firewall, P2P between GPUs, IB).
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
