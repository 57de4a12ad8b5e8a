"""Ranks, nodes and worlds that do not fit together (config): each node's rank arguments, a process that is
rank 0 of its own world, rank 0 on another host than the master address, a world size the launch cannot
form, the settings the logs show wrong."""

from __future__ import annotations

import re

from ncclDoctor.diagnose.reason import Conclusion, _fmt_ranks
from ncclDoctor.diagnose.signatures import is_loopback
from ncclDoctor.diagnose.state import Collected
from ncclDoctor.diagnose.verdict.base import _OWN_RUN_FAILED, Verdict, quiet
from ncclDoctor.diagnose.verdict.noise import finished, harmless_warn
from ncclDoctor.findings import Finding, Severity


def _crlf_script(c: Collected, crlf: list) -> Verdict:
    """Lead rules AF (1), BE (2): bash's "$'\\r': command not found" for the launch script's lines -- the script was
    saved with Windows (CRLF) line endings, so each line's carriage return is part of its command and a line ending
    in a backslash no longer continues the command: the launch command reaches its launcher cut or mangled (its
    printed worker command garbled), a launch script that cannot run the job, shared by every worker -- config, no
    rank, nobody innocent, even where the paste ends before anything fails (round 87's visualglm-6b-48)."""
    e = crlf[0]
    script = next((x.data["crlf"] for x in crlf if x.data["crlf"]), "")
    return Verdict(
        "config",
        f"bash reports a carriage return as a command ('{e.text.strip()[:120]}', {e.where}"
        + (f"; {len(crlf)} such lines" if len(crlf) > 1 else "") + f"): the launch script {script or ''}".rstrip()
        + " was saved with Windows (CRLF) line endings, so every line ends in a '\\r' that bash takes as part of the "
        "command -- a line continuation ('\\' then '\\r') no longer joins the next line, and the launch command "
        "reaches its launcher with its arguments cut or garbled; a launch script that cannot run the job, the same "
        "for every worker, not a rank's fault",
        f"Convert CRLF line endings to LF in the launch script (dos2unix {script or 'script.sh'}, or sed -i "
        f"'s/\\r$//' {script or 'script.sh'}; in an editor save it with Unix (LF) line endings, and set git's "
        "core.autocrlf=input so a checkout on Windows does not bring them back), then relaunch: bash should print no "
        "\"$'\\r': command not found\" and the launcher's printed command (DeepSpeed's cmd = ..., torchrun's "
        "arguments) should list every argument of the script's continued lines.",
        "medium", [], [x.brief() for x in crlf[:2]], job_wide=True)


def _rank0_elsewhere(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """The host that took rank 0 (fairseq's "initialized host H as rank 0") is not the master address its processes
    were given (tcp://A:P): NCCL's Bootstrap interface list on H shows H's own addresses and A is not among them. Rank 0
    hosts the store at A, so H was launched with another node's rank range (the nodes each take ranks 0..N-1: its
    --distributed-rank / --node_rank offset missing), with nothing failing: lead rule AA (1), config, no rank."""
    evs = [e for e in c.samples.get("launch_args", []) if e.data.get("rank0_host") and e.data["addrs"]]
    if not evs or c.exceptions or c.child_failures or c.worker_failures or c.samples.get("nccl_error"):
        return None
    if any(not harmless_warn(c, e) for e in c.samples.get("nccl_warn", [])):
        return None
    e = evs[0]
    a, host, addrs = e.data["master"], e.data["host"], list(dict.fromkeys(e.data["addrs"]))
    if a in ("localhost", "127.0.0.1", "::1", "0.0.0.0") or a in addrs or a.split(".")[0] == host.split(".")[0]:
        return None
    if not _R_IPV4.match(a) and all(_R_IPV4.match(x) or ":" in x for x in addrs):
        return None  # a host name against addresses: the same host may answer to both, the text cannot tell
    return Verdict(
        "config",
        f"host {host} took rank 0 ('{e.text[:120]}') while its processes were given the master address {a}, and NCCL's "
        f"Bootstrap interfaces on that host are {', '.join(addrs[:4])}: rank 0 hosts the store at the master address, "
        "so this node was launched with the rank range of the master node (every node taking ranks 0..N-1) and the "
        "nodes do not form one world -- a launch setting, not a rank's fault",
        "Give each node its own rank range: --distributed-rank (or --node_rank / NODE_RANK) = node index x GPUs per "
        "node, --distributed-world-size = the total GPUs over all nodes, and the same --distributed-init-method "
        "tcp://MASTER_IP:PORT on every node, so that they form one world across both nodes; pin NCCL's interface "
        "(NCCL_SOCKET_IFNAME=eth0) where it also lists docker0.",
        "medium", [], [e.brief()], job_wide=True)


def _short(host: str) -> str:
    return host.split(".")[0].lower()


def _version_elsewhere(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """NCCL's bare version line, which ncclCommInitRank prints in rank 0 only, printed by a process on host H
    (parse._version_printer: the one process whose NCCL lines come before it) while the launch command shown gave
    the master address M, another host whose own NCCL processes are in the lines: global rank 0 is not on the master
    node, so the nodes were launched inconsistently (a node_rank 0 on a node other than MASTER_ADDR's, the same
    --node_rank on every node). With nothing failing: lead rule AA (1), config, no rank. Host names are compared
    only with host names, and only where the master's own host shows up in the lines (a name it answers to)."""
    evs = [e for e in c.samples.get("rank0_proc", []) if e.data.get("master")]
    if not evs or c.exceptions or c.child_failures or c.worker_failures or c.samples.get("nccl_error"):
        return None
    if any(not harmless_warn(c, e) for e in c.samples.get("nccl_warn", [])):
        return None
    e = evs[0]
    host, master = e.data["host"], e.data["master"]
    seen = {_short(h) for h in c.setup_hosts} | {_short(h) for h, _, _ in c.procs if h}
    if (is_loopback(master) or _R_IPV4.match(master) or ":" in master or _short(master) == _short(host)
            or _short(master) not in seen):
        return None
    return Verdict(
        "config",
        f"the process that printed NCCL's version line ('{e.text[:60]}', which NCCL prints in a communicator's rank 0 "
        f"only) is on {host}, right after its own set-up lines, while the launch command gives the master address "
        f"{master}, another host whose processes are also in these lines: global rank 0 does not sit on the master "
        "node, so the nodes were launched inconsistently (node_rank 0 given to a node other than MASTER_ADDR's, or the "
        "same --node_rank on every node) -- a launch setting, not a rank's fault",
        "Launch once per node with a distinct --node_rank per node (node_rank 0 on the MASTER_ADDR host, 1, 2, ... on "
        "the others; under SLURM --node_rank=$SLURM_NODEID via srun), the same --master_addr / --master_port and "
        "--nnodes on every node, nnodes x nproc_per_node equal to the world size; or use torchrun with "
        "--rdzv_backend=c10d --rdzv_endpoint=MASTER_ADDR:PORT, which assigns the node ranks itself. Rerun with "
        "NCCL_DEBUG=INFO on both nodes if it still hangs.",
        "medium", [], [e.brief()], job_wide=True)


def _version_twice(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """NCCL's bare version line printed by a process on each of two hosts (two files' ``rank0_proc``: the one process
    whose NCCL lines come before it), with nothing failing. NCCL prints it only in a communicator's rank 0 (init.cc:
    ``if (myrank == 0) showVersion()``, once per process), so each of those processes was rank 0 of the communicator
    it created first. A subgroup (a TP/PP group, a per-node group) has a rank 0 of its own on every node, so the two
    are read as two rank 0s of one world only where the lines show nothing but that world: no communicator with a
    rank other than 0, no two communicator sizes, no split, and no two global ranks for the two processes (the same
    global rank named on both nodes is the same launch fault). Then each node started its own
    rank 0 (the same node_rank / RANK on every node): lead rule AA (1), config, no rank (round 70, nccl-810)."""
    evs = [e for e in c.samples.get("rank0_proc", []) if not e.data.get("master")]
    if len(evs) < 2 or c.exceptions or c.child_failures or c.worker_failures or c.samples.get("nccl_error"):
        return None
    if any(not harmless_warn(c, e) for e in c.samples.get("nccl_warn", [])) or finished(c):
        return None
    two = next(((a, b) for i, a in enumerate(evs) for b in evs[i + 1:]
                if _file(a) != _file(b) and _short(a.data["host"]) != _short(b.data["host"])), None)
    if two is None:
        return None
    a, b = two
    ra, rb = c.files_ranks.get(_file(a), set()), c.files_ranks.get(_file(b), set())
    if (ra and rb and ra != rb) or set(c.ranks) - ra - rb:
        return None  # the two processes name other global ranks, or another rank is shown: members of one world
    comms = [e for e in c.samples.get("transport", []) if e.data.get("nranks") is not None]
    if (len({n for n, _ in c.world}) > 1 or any(e.data.get("comm_rank") for e in comms)
            or any("ncclCommSplit" in e.text or " parent 0x" in e.text for e in comms)):
        return None  # another rank of a communicator, or communicators of two sizes: subgroups, whose rank 0s these are
    return Verdict(
        "config",
        f"NCCL's version line, which NCCL prints only in a communicator's rank 0, is printed by a process on "
        f"{a.data['host']} ({_file(a).rsplit('/', 1)[-1]}) and by one on {b.data['host']} "
        f"({_file(b).rsplit('/', 1)[-1]}), each for the first communicator it created, and the lines show no other "
        "communicator or rank: each node started its own rank 0 of the world (the same node_rank / RANK on every "
        "node), so the nodes do not form one job and the set-up waits for ranks that never join -- a launch setting "
        "of every node, not a rank's fault",
        "Give each node its own node rank: torchrun --nnodes=2 --node_rank=0 on the MASTER_ADDR host and "
        "--node_rank=1 (2, ...) on the others, the same --master_addr / --master_port (MASTER_ADDR, MASTER_PORT) on "
        "every node, and a world_size of nnodes x nproc_per_node, so that global RANK = node_rank x GPUs per node + "
        "local rank (print RANK and WORLD_SIZE in each process to check); if it still hangs at init, rerun with "
        "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET on both nodes, check NCCL_SOCKET_IFNAME names the interface the "
        "nodes reach each other on and that the firewall lets MASTER_PORT and NCCL's ports through, and take a "
        "py-spy dump of a stuck process.",
        "medium", [], [a.brief(), b.brief()], job_wide=True)


def _own_worlds(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """nccl-tests' preamble printed by two processes at once (parse: ``own_worlds``), with nothing failing: only a
    world's rank 0 prints it, so each process is rank 0 of its own world -- the binary was launched by mpirun without
    being built with (or linked to) that MPI, and every process runs alone (lead rule AA (1)): config, no rank."""
    evs = [e for e in c.samples.get("launch_args", []) if e.data.get("own_worlds")]
    if not evs or c.exceptions or c.child_failures or c.worker_failures:
        return None
    if any(not harmless_warn(c, e) for e in c.samples.get("nccl_warn", [])) or c.samples.get("nccl_error"):
        return None
    if table := next((e for e in evs if e.data.get("procs")), None):
        return _mpi_env_flag(c, _tests_rank_again(table))
    return _mpi_env_flag(c, Verdict(
        "config",
        "nccl-tests printed its preamble ('# nThread ... nGpus ...') more than once at the same time: only rank 0 of a "
        "world prints it, so every process launched is rank 0 of its own world (each numbers its GPUs from Rank 0) "
        "and the nodes run separate jobs instead of one -- the benchmark is not built with (or not linked to) the "
        "MPI that launched it, a launch set-up every process shares, not a rank's fault",
        "Rebuild nccl-tests with MPI support against the MPI whose mpirun launches it (make MPI=1 MPI_HOME=<that "
        "MPI's prefix>; `ldd all_reduce_perf | grep libmpi` must show it, the same MPI on every node), then rerun "
        "with NCCL_DEBUG=INFO: expect one header for all ranks (one header with Rank 0..N-1 across the nodes) and "
        "each node's transport in the INFO lines.",
        "medium", [], [e.brief() for e in evs[:2]], job_wide=True))


# mpirun handing the benchmark MPI=1 as an environment variable ("mpirun -x MPI=1 ... ./build/all_reduce_perf"):
# MPI=1 is nccl-tests' make variable, read when it is built; at run time nothing reads it
_R_MPI_ENV = re.compile(r"\bmpirun\b[^\n]*?\s-x\s+MPI=1\b")


def _mpi_env_flag(c: Collected, v: Verdict) -> Verdict:
    """_own_worlds where the launch line passes MPI=1 to mpirun with -x: the fix says first that it is a build flag."""
    if any(_R_MPI_ENV.search(e.text) for e in c.samples.get("setting", [])):
        v.fix = ("MPI=1 is a build flag, not an mpirun -x environment variable: drop it from the command line and "
                 "build nccl-tests with it instead. " + v.fix)
    return v


def _tests_rank_again(e) -> Verdict:
    """_own_worlds from nccl-tests' device table (readers.nccl._tests_dev): one run lists each rank once, and here
    several processes (distinct pids, or hosts) are each listed as the same rank -- every process launched numbered
    itself from rank 0, a world of its own, as two hosts each printing rank 0 are (lead rules AA (1), BD (3)), with
    nothing failing (V (1)): config, no rank. Processes that also all report the same device each see one GPU only."""
    n, r, hosts = e.data["procs"], e.data["tests_rank"], e.data["hosts"]
    on = f" on {len(hosts)} hosts ({', '.join(hosts)})" if len(hosts) > 1 else f" on {hosts[0]}" if hosts else ""
    return Verdict(
        "config",
        f"nccl-tests' device table lists {n} processes{on} each as Rank {r} ('{e.text.strip()[:100]}'): one run "
        "lists every rank once, so each process launched numbered itself from rank 0 -- every process is a world of "
        "its own and the nodes run separate one-rank benchmarks instead of one job (nccl-tests not built with MPI, or "
        "the launcher's MPI / PMI not wiring the processes together), a launch set-up every process shares, not a "
        "rank's fault",
        "Build nccl-tests with MPI support (make MPI=1 MPI_HOME=<the MPI's prefix>; `ldd all_reduce_perf | grep "
        "libmpi` must show it) and launch it as one MPI job across the nodes: under Slurm srun --mpi=pmix (or pmi2, "
        "what `srun --mpi=list` offers and the MPI was built with), with pyxis/enroot the same --mpi option, or "
        "mpirun of that MPI; one rank per GPU (-g 1 per process, --ntasks-per-node = GPUs per node), or one process "
        "per node with -g 8. Check the GPU binding too: processes that all report device 0 each see one GPU "
        "(--gpus-per-task / CUDA_VISIBLE_DEVICES per local rank; a container's ENROOT_RESTRICT_DEV); a correct run "
        "prints one device table with Rank 0..N-1 on distinct devices.",
        "medium", [], [e.brief()], job_wide=True)


def _ranks_taken_twice(c: Collected) -> Verdict | None:
    """Lead rule AA (1) across files: two files (two nodes' outputs) whose Lightning announcements of one world
    ("GLOBAL_RANK: r, MEMBER: r+1/W") both hold the same global rank, neither file's ranks a part of the other's (a
    console log beside one rank's own file repeats that rank), are two processes given one global rank: every node
    was launched as the first node (the same node rank), so the ranks past the first node's never exist -- config,
    no rank."""
    anns = [e for e in c.samples.get("rank_announce", []) if e.data.get("members")]
    for i, a in enumerate(anns):
        for b in anns[i + 1:]:
            if _file(a) == _file(b) or a.data["member_world"] != b.data["member_world"]:
                continue
            sa, sb = set(a.data["members"]), set(b.data["members"])
            both = sorted(sa & sb)
            if not both or sa <= sb or sb <= sa:
                continue
            world = a.data["member_world"]
            fa, fb = _file(a).rsplit("/", 1)[-1], _file(b).rsplit("/", 1)[-1]
            return Verdict(
                "config",
                f"two nodes' outputs announce the same global rank(s) {_fmt_ranks(both)} of a world of {world} ({fa}: "
                f"{_fmt_ranks(sorted(sa))}; {fb}: {_fmt_ranks(sorted(sb))}; '{a.text.strip()[:80]}'): each node's "
                "processes took global ranks from 0 again instead of their own node's, so two processes hold each "
                f"of those ranks and the ranks past the first node's of the {world} never exist -- the job waits for "
                "them at init; a launch set-up of every node (its node rank), not a rank's fault",
                "Give each node its own node rank, so that global rank = node rank x GPUs per node + local rank: "
                "NODE_RANK / --node_rank (GROUP_RANK under torchrun) 0 on the master's node, 1, 2, ... on the others, "
                "with the same MASTER_ADDR and MASTER_PORT on every node and the trainer's num_nodes and devices "
                "matching the launch; under a cluster launcher, check that the framework's cluster environment "
                "(Lightning's KubeflowEnvironment / SLURMEnvironment) reads the RANK / node index the operator or "
                "scheduler sets for each node.",
                "medium", [], [a.brief(), b.brief()], job_wide=True)
    return None


# what a rank's own run failing leaves: two processes started as one rank are not what stopped such a job


def _env_rank_twice(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules AA (1) and V (1), as round 75's crypten-296 reads them: the launch environments of two processes
    pasted as dicts (readers.settings._env_dict_key) give one world -- the same WORLD_SIZE of 2 or more, the same
    MASTER_ADDR -- and the same RANK, with no exception, launcher record or rank's own run failing shown (the set-up
    hangs, or a traceback is cut inside init_process_group): two processes claiming one rank of a world are a launch
    setting shown wrong, config, no rank. Two dicts of different masters (two worlds), a rank's own failure, or an
    exception shown are not read here."""
    ev = next(iter(c.samples.get("env_rank_twice", [])), None)
    if ev is None or len(ev.data["addrs"]) > 1 or c.exceptions or c.child_failures or c.worker_failures:
        return None
    if any(c.kinds.get(k) for k in _OWN_RUN_FAILED) or finished(c):
        return None
    r, w = ev.data["rank"], ev.data["world"]
    if ev.data.get("announced"):  # two processes' own announcements at init (readers.settings._init_rank_of)
        via = f" through {ev.data['init']}" if ev.data.get("init") else ""
        return Verdict(
            "config",
            f"two processes each announce rank {r}/{w} at init, at once (lines {ev.data['lines'][0]} and "
            f"{ev.data['lines'][1]} of {_file(ev).rsplit('/', 1)[-1]}: '{ev.text.strip()[:100]}'): every process was "
            f"started as rank {r} of the same world of {w} -- the same rank twice, "
            + ("no process is rank 1" if (r, w) == (0, 2) else "some rank of the world never taken")
            + f" -- so the rendezvous{via} cannot form the world and init waits or fails; the launcher started the "
            "processes without giving each its own rank (mpirun -np N sets OMPI_COMM_WORLD_RANK / PMI_RANK, which "
            "the script does not read, and its default rank is 0) -- a launch setting, not a rank's fault",
            "Give every process its own rank: read it from the launcher's environment (under mpirun rank = "
            "int(os.environ['OMPI_COMM_WORLD_RANK']) (PMI_RANK under MPICH / Intel MPI), world_size = "
            "OMPI_COMM_WORLD_SIZE) and pass it to init_process_group / the script's dist_init, or launch with torchrun "
            "--nproc_per_node N, which sets RANK, LOCAL_RANK and WORLD_SIZE; print rank and world_size in each process "
            "to check, remove a stale file:// rendezvous file before relaunching, and relaunch all of them.",
            "medium", [], [ev.brief()], job_wide=True)
    return _rank_twice_settings(ev)


def rank_twice_bootstrap(c: Collected, boot: list) -> Verdict | None:
    """Lead rules AA (1), V (1), AJ (1) (round 93's deepep-121): two launch environments shown giving one RANK of one
    world (_env_rank_twice's settings: two nodes' scripts both exporting RANK=0 with WORLD_SIZE=2), then a
    bootstrap receiving messages of the wrong size ('Message truncated', NCCL's or NVSHMEM's unique-id bootstrap):
    two processes connecting to the bootstrap as one rank is what garbles its exchange, so the setting shown is the
    cause -- config, no rank -- not an NCCL version mismatch (rule AJ (1) needs one shown). Not read so: two
    dicts of different masters, an announcement at init (not settings), or any exception or rank's own run failing
    beside it (an NCCL error, a CUDA error, a timeout: its family reads it)."""
    ev = next(iter(c.samples.get("env_rank_twice", [])), None)
    if ev is None or ev.data.get("announced") or len(ev.data["addrs"]) > 1 or c.exceptions or c.child_failures or (
            c.worker_failures) or any(c.kinds.get(k) for k in _OWN_RUN_FAILED):
        return None
    return _rank_twice_settings(ev, boot)


def _rank_twice_settings(ev, boot: list | None = None) -> Verdict:
    r, w = ev.data["rank"], ev.data["world"]
    master = f" at MASTER_ADDR {ev.data['addrs'][0]}" if ev.data["addrs"] else ""
    after = (" -- the bootstrap's 'Message truncated' (messages of the wrong size from two processes connecting as "
             "one rank) is that collision, not a version mismatch") if boot else ""
    return Verdict(
        "config",
        f"two processes' launch settings are shown giving the same RANK={r} in one world of WORLD_SIZE={w}{master} "
        f"(the settings pasted at lines {ev.data['lines'][0]} and {ev.data['lines'][1]} of "
        f"{_file(ev).rsplit('/', 1)[-1]}): two processes claim rank {r} -- the same rank twice -- and "
        + ("no process is rank 1" if (r, w) == (0, 2) else "some rank of the world is never taken")
        + f", so init_process_group cannot form the world (it waits or fails at the rendezvous){after}; a launch "
        "setting, not a rank's fault",
        "Give every process a unique rank: RANK=0 on one process and RANK=1 (2, ..., WORLD_SIZE-1) on the others, "
        "with the same WORLD_SIZE, MASTER_ADDR and MASTER_PORT everywhere (print RANK and WORLD_SIZE in each process "
        "before init to check); where each party's settings come from one config file or launch script, give each "
        "its own rank there (or launch with torchrun, which assigns the ranks). Then relaunch all of them."
        + (" Where each node's launch script exports them (a launcher that reads RANK as the node's rank and "
           "WORLD_SIZE as the number of nodes), launch each node with its own RANK -- RANK=0 on the MASTER_ADDR "
           "node, RANK=1 on the second node (a distinct node rank per node, as torchrun's node_rank) -- and set "
           "MASTER_ADDR to node 0's address on every node." if ev.data.get("exported") else ""),
        "medium", [], [ev.brief()] + [e.brief() for e in (boot or [])[:2]], job_wide=True)


def _procs_past_visible(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules V (1) and AE, as round 81's qwen-1175 reads them: a launch script whose settings contradict each
    other -- --nproc_per_node (a number, or a variable the script sets) larger than the GPUs its own
    CUDA_VISIBLE_DEVICES leaves (set on the command line, or exported by the script) -- with nothing failing shown:
    the local ranks past the last visible GPU cannot get a device of their own ('invalid device ordinal', or two
    ranks on one GPU), whatever error follows (rule T); every worker is launched the same way: config, no rank. Not
    read so: a GPU count the lines do not give (no CUDA_VISIBLE_DEVICES list), a launch of as many processes as GPUs
    or fewer, or any failure shown (the families of its own lines read it; beside 'invalid device ordinal'
    verdict.cuda reads the same settings)."""
    if c.exceptions or c.child_failures or c.worker_failures or finished(c):
        return None
    past = [e for e in c.samples.get("launch_procs", []) if e.data.get("procs") is not None
            and e.data.get("gpus") is not None and e.data["procs"] > e.data["gpus"]]
    if not past:
        return None
    e = past[0]
    procs, gpus = e.data["procs"], e.data["gpus"]
    where = ("the CUDA_VISIBLE_DEVICES the script exports" if e.data.get("exported")
             else "CUDA_VISIBLE_DEVICES on that command line")
    return Verdict(
        "config",
        f"the launch starts {procs} processes per node (--nproc_per_node {procs}, '{e.text.strip()[:120]}') but "
        f"{where} leaves {gpus} GPU{'s' if gpus != 1 else ''}: the settings contradict each other, so the local "
        f"ranks from {gpus} on cannot get a GPU of their own (torch.cuda.set_device: 'invalid device ordinal', or "
        "two ranks sharing one GPU) -- a launch setting every worker is started with, not a rank's fault, whatever "
        "error the run then shows",
        f"Match number of GPUs and processes: one process per GPU, --nproc_per_node {gpus} (the number of GPUs "
        "CUDA_VISIBLE_DEVICES leaves visible; the launch script's GPUS_PER_NODE / NPROC_PER_NODE variable set to "
        f"{gpus}), or list {procs} GPUs in CUDA_VISIBLE_DEVICES where the node has them (nvidia-smi -L); then "
        "relaunch.",
        "medium", [], [e.brief()], job_wide=True)


def _env_rank0_elsewhere(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule AA (1), as round 96's pytorch-137402 reads it: a process's launch environment printed as one dict
    (parse._env_line) gives global RANK 0 on a host whose name is not MASTER_ADDR's, with nothing failing shown.
    Rank 0 is expected where the master address points (the store, the rendezvous endpoint), so the nodes' ranks are
    not placed as the launch assumes -- torchrun's c10d rendezvous assigns node ranks in arrival order and ignores
    --master_addr / --node_rank, or a node was launched with the master's rank range: a launch setting shown wrong,
    config, no rank. Not read so: another rank on another host, rank 0 on the master's host, an address against a
    host name, or any failure shown (its family reads it)."""
    evs = c.samples.get("env_rank0_host", [])
    if not evs or not quiet(c):
        return None
    e = evs[0]
    host, master = e.data["host"], e.data["master"]
    return Verdict(
        "config",
        f"a process's launch environment shows global RANK 0 on host {host} while MASTER_ADDR is {master} "
        f"('{e.text.strip()[:160]}', {e.where}): rank 0 is not on the master address's host, so the ranks are not "
        "placed as the launch assumes -- with torchrun's c10d rendezvous (--rdzv_backend c10d) the rendezvous "
        "assigns the node ranks in arrival order and --master_addr / --master_port are not used to place rank 0; "
        "otherwise a node was launched with the master node's rank range -- a launch setting, not a rank's fault",
        "MASTER_ADDR is the c10d store host, not rank 0's host: with --rdzv_backend c10d ranks are assigned by the "
        "rendezvous, so do not rely on rank 0 being on the rdzv endpoint / MASTER_ADDR host (drop --master_addr/"
        "--master_port when using --rdzv_endpoint; they are only used for the static rendezvous). To pin rank 0 to "
        "the master node use --rdzv_backend=static with --node_rank per node (e.g. --node_rank=$SLURM_NODEID under "
        "srun) and the same --master_addr / --master_port on every node; keep MASTER_ADDR / the rdzv endpoint "
        "consistent across nodes, and print RANK with the host name in each process to check.",
        "medium", [], [e.brief()], job_wide=True)


def _slurm_tasks_gpus(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules V (1) and BP (1), as round 96's pytorch-lightning-102 reads them: Lightning's start-up warning that
    the job asks for N GPUs while Slurm launched M tasks ("You requested 2 GPUs but launched 1 slurm tasks.",
    parse's slurm_gpus_tasks), with nothing failing shown: the tasks per node do not match the GPUs per node, a launch
    setting every task shares -- config, no rank, low (a warning: the framework starts the other processes itself).
    Not read so: the same numbers, or any failure shown (its family reads it)."""
    evs = c.samples.get("slurm_gpus_tasks", [])
    if not evs or not quiet(c):
        return None
    e = evs[0]
    gpus, tasks = e.data["gpus"], e.data["tasks"]
    return Verdict(
        "config",
        f"the framework warns that the job requested {gpus} GPU{'s' if gpus != 1 else ''} but Slurm launched "
        f"{tasks} task{'s' if tasks != 1 else ''} ('{e.text.strip()[:120]}', {e.where}): the Slurm tasks per node do "
        "not match the GPUs per node, so the framework starts the other processes itself outside Slurm's control -- "
        "a launch setting every task shares, not a rank's fault (nothing fails in these lines)",
        f"Match the Slurm task count to the number of GPUs requested: one Slurm task per GPU, --ntasks-per-node="
        f"{gpus} in the sbatch script (with --gres=gpu:{gpus} / --gpus-per-node={gpus}), and launch with srun so "
        "that Slurm manages the processes; check SLURM_NTASKS_PER_NODE in the job. Older Lightning compared the GPUs "
        "with SLURM_NTASKS (the whole job) rather than SLURM_NTASKS_PER_NODE: upgrade Lightning where the settings "
        "already match; or request 1 GPU per task, or turn off the framework's SLURM environment detection.",
        "low", [], [x.brief() for x in evs[:2]], job_wide=True)


def _local_rank_twice(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules CE (1) and AA (1), as round 102's lightning-7027 reads them: a framework's per-process start-up
    banner (Lightning's "LOCAL_RANK: 0 - CUDA_VISIBLE_DEVICES: [0,1]", parse's local_banner) printing one local rank
    for more processes than the job has nodes, while the launch shown puts several processes on each node (Slurm's
    --ntasks-per-node, torchrun's --nproc_per_node > 1), with nothing failing: on some node two processes claim the
    same local rank (and with it the same GPU) -- a launch set-up shown wrong, config, no rank. The job's nodes are
    its batch script's --nodes, else the world announced (GLOBAL_RANK .., MEMBER r/W) over the processes per node.
    Not read so: banners whose local ranks agree with the launch (each at most once a node), one local rank's
    banners showing different GPU lists (a GPU a task: 'CUDA_VISIBLE_DEVICES: [0]' and '[1]' are two GPUs; only one
    local rank with one list counts), no launch of several processes per node shown, nodes not shown, no world
    announced (MEMBER r/W: Lightning reprints a process's banner at each Trainer stage, fit, validate, test, so
    banners alone do not count processes), more banners than announced members (a restart or a later stage prints
    them again), or any failure shown (its family reads it)."""
    evs = c.samples.get("local_banner", [])
    if not evs or not quiet(c):
        return None
    same: dict[str, int] = {}  # one local rank with one GPU list: the processes that would use one GPU
    for e in evs:
        for key, n in e.data.get("local_gpus", {}).items():
            same[key] = same.get(key, 0) + n
    tasks = c.samples.get("launch_tasks", [])
    per_node = max([e.data.get("tasks") or 0 for e in tasks]
                   + [e.data.get("procs") or 0 for e in c.samples.get("launch_procs", [])], default=0)
    if per_node < 2:
        return None
    members = {r for e in c.samples.get("rank_announce", []) for r in e.data.get("members", [])}
    worlds = {e.data["member_world"] for e in c.samples.get("rank_announce", []) if e.data.get("member_world")}
    nodes = next((e.data["job_nodes"] for e in tasks if e.data.get("job_nodes")), None)
    if nodes is None and len(worlds) == 1 and (w := next(iter(worlds))) % per_node == 0:
        nodes = w // per_node
    procs = sum(same.values())  # every banner counted once, whatever its local rank
    if nodes is None or not members or procs > len(members):
        return None  # no world announced: one process's banner reprinted by each Trainer stage counts as several
    twice = sorted((int(k.split("|")[0]), -n, k) for k, n in same.items() if n > nodes)
    if not twice:
        return None  # each local rank's processes see different GPUs (one GPU a task): no GPU claimed twice
    r, n = twice[0][0], -twice[0][1]
    e = next((x for x in evs if twice[0][2] in x.data.get("local_gpus", {})), evs[0])
    return Verdict(
        "config",
        f"{n} processes print the start-up banner of local rank {r} ('{e.text.strip()[:80]}') while the "
        f"launch shown puts {per_node} processes on each of {nodes} node{'s' if nodes != 1 else ''}: on each node only "
        f"one process may be local rank {r}, so two processes of one node claim the same local rank (and with it the "
        f"same GPU) -- the local rank is derived wrongly for the processes of a node (the launcher's per-task local "
        "rank not read), a launch set-up every process shares, not a rank's fault, whatever error follows",
        "Give each process of a node its own local rank: under Slurm launch the script with srun python train.py in "
        "the sbatch script so each task gets its own local rank (SLURM_LOCALID, what Lightning's SLURMEnvironment "
        "reads), with --ntasks-per-node equal to GPUs per node and the trainer's num_nodes and gpus/devices matching "
        "the sbatch allocation (--nodes, --gres=gpu:N); under torchrun read LOCAL_RANK from the environment. A "
        "correct launch prints LOCAL_RANK 0 and 1 on each node of two GPUs; check each process's "
        "torch.cuda.current_device() / nvidia-smi. Where the settings already match, upgrade PyTorch Lightning "
        "(1.2.8 fixed the Slurm local-rank detection, #6941).",
        "medium", [], [x.brief() for x in evs[:2]] + [x.brief() for x in tasks[:2]], job_wide=True)


def _net_plugin_split(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules CE (2) and AA (1), as round 102's nccl-1634 reads them: NCCL's INFO lines from two hosts of one job
    showing them load different network plugins -- one an external libnccl-net.so ('Plugin Path : ...', 'Loaded net
    plugin'), another none ('Could not find: libnccl-net.so. Using internal network plugin', 'No plugin found') --
    with nothing failing: the nodes were launched with different environments and their ranks pick different net
    transports, config, no rank. Not read so (rule Z's none, noise._no_plugin): one host alone, every host shown
    agreeing (all loading the plugin, or none), a host shown both ways, the hosts not shown as one job (a host's
    communicator spanning one node, 'nNodes 1', and none spanning more: separate single-node runs pasted together),
    or any failure shown (its family reads it)."""
    evs = [e for e in c.samples.get("benign", []) if e.data.get("net_plugin") and e.data.get("host")]
    if not evs or not quiet(c):
        return None
    ways: dict[str, set[str]] = {}
    for e in evs:
        ways.setdefault(_short(e.data["host"]), set()).add(e.data["net_plugin"])
    ext = sorted(h for h, w in ways.items() if w == {"external"})
    own = sorted(h for h, w in ways.items() if w == {"internal"})
    if not ext or not own:
        return None
    spans: dict[str, set[int]] = {}  # host -> the nodes its communicators span (NCCL 2.19+'s 'nNodes N')
    for e in evs:
        for h, ns in (e.data.get("comm_nodes") or {}).items():
            spans.setdefault(_short(h), set()).update(ns)
    if not any(n > 1 for ns in spans.values() for n in ns) and any(1 in spans.get(h, ()) for h in ext + own):
        return None  # a host in a world of its own and none spanning nodes: separate runs, not one job's hosts
    a = next(e for e in evs if _short(e.data["host"]) == ext[0] and e.data["net_plugin"] == "external")
    b = next(e for e in evs if _short(e.data["host"]) == own[0] and e.data["net_plugin"] == "internal")
    return Verdict(
        "config",
        f"the hosts of one job load different NCCL network plugins: {', '.join(ext[:4])} loads an external net plugin "
        f"('{a.text.strip()[:140]}') while {', '.join(own[:4])} finds none and uses NCCL's internal one "
        f"('{b.text.strip()[:140]}'): the nodes were launched with different environments (LD_LIBRARY_PATH, "
        "NCCL_NET_PLUGIN, the container or HPC-X install), so their ranks pick different network transports and "
        "cannot connect or hang -- a launch set-up, not a rank's fault",
        "Load the same net plugin on every node: put the plugin's directory (HPC-X's nccl_rdma_sharp_plugin/lib, "
        "aws-ofi-nccl's lib) in LD_LIBRARY_PATH on every node (-x LD_LIBRARY_PATH consistent across hosts under "
        "mpirun), or set NCCL_NET_PLUGIN to the same value everywhere (NCCL_NET_PLUGIN=none for NCCL's internal "
        "transports on all of them); use the same container / NCCL and HPC-X versions on every node. Rerun with "
        "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET from every node (each should print the same 'Plugin Path' or "
        "'Using internal network plugin' line) and reproduce with all_reduce_perf across the nodes.",
        "medium", [], [a.brief(), b.brief()], job_wide=True)


def _cvd_harmless(e) -> bool:
    """DeepSpeed's "Detected CUDA_VISIBLE_DEVICES=<ids> but ignoring it" that changed nothing (review 104 (1) finding
    2; lead rule BP (3)'s spirit: a setting shown without effect only where it had one): training steps shown after it
    (parse._cvd_went_on); or the GPUs the launcher used shown (--world_info / WORLD INFO DICT) and every host's list
    the ids given; or, with no list shown, the ids 0..N-1 (the runner's own --num_gpus N choice, nothing reordered).
    Ids that are not plain GPU numbers (UUIDs, a variable) are not read as harmless."""
    if e.data.get("cvd_went_on"):
        return True
    try:
        ids = [int(x) for x in e.data["cvd_ignored"].split(",")]
    except ValueError:
        return False
    used = e.data.get("cvd_used")
    if used:
        return all(list(v) == ids for v in used.values())
    return ids == list(range(len(ids)))


def _rank_args(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Workers' command lines that give a rank at or past the world size they are told (lead rules V (1), U (2)),
    with nothing failing shown: the launch arguments are wrong for every worker, config, no rank."""
    evs = c.samples.get("launch_args", [])
    if c.exceptions or c.child_failures or c.worker_failures or finished(c):
        return None
    if (twice := _ranks_taken_twice(c)) is not None:
        return twice
    evs = [e for e in evs if not e.data.get("own_worlds") and not e.data.get("rank0_host")]  # read elsewhere
    if not evs:
        return None
    unfit = world_unfit(c)
    if unfit is not None:
        return unfit
    env = next((e for e in evs if e.data.get("env_world") is not None), None)
    if env is not None:  # lead rules V (1), AA (1): the launch environment contradicting the trainer's own world
        w, n = env.data["env_world"], env.data["computed_world"]
        return Verdict(
            "config",
            f"Lightning warns that the WORLD_SIZE environment variable ({w}) is not equal to the world size it "
            f"computes from its own settings ({n}) and ignores it ('{env.text.strip()[:140]}'): the process was "
            "started with a launch environment that does not belong to this run -- WORLD_SIZE (and with it RANK, "
            "MASTER_ADDR / MASTER_PORT) left over from an earlier launch in the same process or shell (an earlier "
            "trial of a hyper-parameter search, a notebook), or a launcher's world that the trainer's devices x "
            "num_nodes do not match -- a setting every process shares, not a rank's fault",
            f"Make the launch and the trainer agree: unset the WORLD_SIZE environment variable (and RANK, LOCAL_RANK, "
            "MASTER_PORT) left by an earlier launch before creating the next Trainer, or run each trial in a new "
            "process per trial (a study running DDP trials in one process keeps the first trial's environment and "
            "port: use strategy='ddp_spawn' or a fresh subprocess, with its own MASTER_PORT); otherwise set the "
            f"trainer's devices (gpus / number of GPUs) and num_nodes so that devices x num_nodes = {w}, the world "
            "the launcher started (with CUDA_VISIBLE_DEVICES leaving that many GPUs visible).",
            "medium", [], [env.brief()], job_wide=True)
    dup = [e for e in evs if e.data.get("member_world") and len(e.data["members"]) < e.data["member_world"]]
    if dup:  # lead rule AA (1): two processes at once were given one global rank, and some ranks none
        e = dup[0]
        ranks, world = e.data["members"], e.data["member_world"]
        twice = ", ".join(map(str, e.data["dup_members"][:8]))
        return Verdict(
            "config",
            f"global rank(s) {twice} of a world of {world} are each announced twice at the same time "
            f"('{e.text[:80]}'), and only rank(s) {', '.join(map(str, ranks[:16]))} appear: two nodes' processes "
            "took the same global ranks (each node started as node rank 0, or the tasks per node do not match), so "
            f"the other ranks of the {world} never exist and the job waits for them at init -- a launch set-up of "
            "every node, not a rank's fault",
            "Give each node its own node rank (NODE_RANK / --node_rank: 0 on the master's node, 1, 2, ... on the "
            "others) and the same MASTER_ADDR and MASTER_PORT on every node; under SLURM launch with srun and "
            "#SBATCH --ntasks-per-node equal to the GPUs per node (SLURM_NTASKS = nodes x GPUs), matching the "
            "trainer's num_nodes and devices, so global rank = node rank x GPUs per node + local rank.",
            "medium", [], [x.brief() for x in dup[:2]], job_wide=True)
    evs = [e for e in evs if not e.data.get("member_world")]
    lists = [e for e in evs if e.data.get("ips")]
    a, b = next(((x, y) for i, x in enumerate(lists) for y in lists[i + 1:]
                 if _file(x) != _file(y) and x.data["ips"] != y.data["ips"]), (None, None))
    if a is not None and b is not None:  # lead rule AA (1): two nodes given the node list differently
        la, lb = ",".join(a.data["ips"]), ",".join(b.data["ips"])
        order = sorted(a.data["ips"]) == sorted(b.data["ips"])
        return Verdict(
            "config",
            f"two nodes were launched with different node lists: --ips={la[:120]} "
            f"({_file(a).rsplit('/', 1)[-1]}) and --ips={lb[:120]} ({_file(b).rsplit('/', 1)[-1]})"
            + (", the same nodes in another order" if order else "")
            + ": each node takes its node rank (and the endpoints of every rank) from where its own address stands in "
            "that list, so the nodes disagree on which ranks live where and wait for endpoints that never come up -- "
            "a launch setting of every node, not a rank's fault",
            "Pass the same --ips list, in the same order, on every node (the same launch command on every node: "
            "paddle.distributed.launch / fleetrun --ips=A,B --gpus=...), so the node order, each node's node rank and "
            "PADDLE_TRAINER_ENDPOINTS agree; then relaunch every node.",
            "medium", [], [a.brief(), b.brief()], job_wide=True)
    evs = [e for e in evs if not e.data.get("ips")]
    if not evs:
        return None
    split = _nodes_disagree([e for e in evs if e.data.get("node_rank") is not None])
    if split is not None:  # lead rule AA (1): the nodes were given different master addresses, ports or world sizes
        what, a, b = split
        same = a.data["node_rank"] == b.data["node_rank"]
        return Verdict(
            "config",
            (f"two nodes both print NODE_RANK={a.data['node_rank']} ({_file(a).rsplit('/', 1)[-1]}, "
             f"{_file(b).rsplit('/', 1)[-1]}), with {what}="
             f"{a.data[_NODE_FIELD[what]]} on one and {what}={b.data[_NODE_FIELD[what]]} on the other: each node "
             "was launched as its own world's first node, with its own master" if same else
             f"the nodes print different launch settings: node {a.data['node_rank']} has "
             f"{what}={a.data[_NODE_FIELD[what]]}, node {b.data['node_rank']} {what}={b.data[_NODE_FIELD[what]]}")
            + (": each machine computes the world size as num_gpus x num_machines and its global ranks from its own "
               "--num-gpus, so the nodes disagree on the world and the rendezvous never completes, "
               if what == "--num-gpus" else
               ": nodes launched with different rendezvous settings cannot meet at one store (each waits at its own), ")
            + "a launch setting, not a rank's fault",
            ("Launch each node with matching arguments: the same --num-gpus on every machine (equal GPUs per node; "
             "world size = num_gpus x num_machines, consistent across nodes), only --machine-rank differing, and the "
             "same --dist-url; use as many GPUs on each machine (CUDA_VISIBLE_DEVICES), then relaunch every node. "
             if what == "--num-gpus" else "")
            + "Give every node the same MASTER_ADDR (the address of node 0, the same master address on every node), "
            "MASTER_PORT and WORLD_SIZE, with only NODE_RANK differing"
            + (" (each node its own node rank: 0 on the master's node, 1, 2, ... on the others; under mpirun, take "
               "it from OMPI_COMM_WORLD_RANK / the launcher's variables, not a default of 0)" if same else "")
            + "; check the value each node's script or "
            "scheduler exports (a typo in one node's address) and that node 0's address is reachable from the others "
            "(nc -zv MASTER_ADDR MASTER_PORT).",
            "medium", [], [a.brief(), b.brief()], job_wide=True)
    evs = [e for e in evs if e.data.get("node_rank") is None]
    if not evs:
        return None
    alone = [e for e in evs if e.data.get("standalone")]
    if alone:  # lead rule AA (1): torchrun --standalone with a multi-node --nnodes
        return Verdict(
            "config",
            f"the launch command gives torchrun --standalone together with --nnodes={alone[0].data['nnodes']} (a "
            "multi-node job): --standalone starts a local rendezvous on localhost on every node and ignores the "
            "master address, so each node waits for the others at its own endpoint and the nodes never meet -- a "
            "launch setting of every node, not one rank's fault",
            "Drop --standalone for a multi-node job: give every node the same rendezvous, --rdzv_backend=c10d "
            "--rdzv_endpoint=$MASTER_ADDR:$MASTER_PORT (or --master_addr/--master_port with --node_rank), with "
            "--nnodes = the number of nodes (not WORLD_SIZE, the number of processes) and the same command on every "
            "node; keep --standalone only for single-node runs (--nnodes=1).",
            "medium", [], [e.brief() for e in alone[:2]], job_wide=True)
    lost = [e for e in evs if e.data.get("no_endpoint")]
    if lost:  # lead rules V (1), AA (1): a non-static rendezvous for several nodes given only a master address
        e = lost[0]
        return Verdict(
            "config",
            f"the launch command asks torchrun for {e.data['nnodes']} nodes with "
            f"--rdzv_backend={e.data['no_endpoint']} and --master_addr but no --rdzv_endpoint: only the static "
            "rendezvous reads the master address, so each node looks for the rendezvous on its own localhost and "
            "the nodes never meet -- a launch setting, not one rank's fault",
            "Give every node the same rendezvous endpoint: --rdzv_backend=c10d --rdzv_endpoint=MASTER_ADDR:PORT "
            "(the master node's address, reachable from the others: nc -zv MASTER_ADDR PORT), or keep "
            "--master_addr/--master_port with --rdzv_backend=static and --node_rank on each node.",
            "medium", [], [x.brief() for x in lost[:2]], job_wide=True)
    by_hand = [e for e in evs if e.data.get("local_by_hand") is not None]
    if by_hand:  # lead rules AA (1), AE, V (1): torch.distributed.launch's script given --local_rank by hand
        e, vals = by_hand[0], sorted({x.data["local_by_hand"] for x in by_hand})
        nodes = len(vals) > 1  # the same command with another hand-set value: one command per node
        return Verdict(
            "config",
            f"the torch.distributed.launch command{'s' if len(by_hand) > 1 else ''} start"
            f"{'' if len(by_hand) > 1 else 's'} {e.data['local_procs']} processes per node and hand"
            f"{'' if len(by_hand) > 1 else 's'} the script --local_rank "
            f"{' / '.join(map(str, vals[:4]))} by hand ('{e.text.strip()[:100]}'): the launcher passes each worker "
            "its own --local_rank=i before the script's arguments and argparse keeps the last value, so every worker "
            "of a node takes the hand-set local rank (one GPU for all of them)"
            + ("; the commands give it a different value each, meant as each node's rank, which the launcher is "
               "never told (no --nnodes / --node_rank / --master_addr: each node forms a world of its own)"
               if nodes else "")
            + " -- a launch setting of every worker, not a rank's fault",
            "Let the launcher set the local rank -- do not pass --local_rank by hand -- and tell it the nodes: on each "
            "node the same command with --nnodes=<nodes> --node_rank=<this node's index: 0 on the master, 1, ...> "
            "--master_addr=<node 0's address> --master_port=<port> (or torchrun --nnodes N --node_rank K "
            "--master_addr ADDR --master_port PORT), so world size = nnodes x nproc_per_node; let the script read its "
            "rank and world size from the environment (env:// with MASTER_ADDR / MASTER_PORT) rather than a "
            "hand-written --world_size / --dist_url.",
            "medium", [], [x.brief() for x in by_hand[:2]], job_wide=True)
    refused = [e for e in evs if e.data.get("env_refused")]
    if refused:  # lead rules L, V (1): OpenMP's runtime refusing the value of a variable every worker inherits
        e, var = refused[0], refused[0].data["env_refused"]
        omp = var == "OMP_NUM_THREADS"
        return Verdict(
            "config",
            f"GNU OpenMP (libgomp, loaded by torch's CPU ops) rejects the value of the environment variable {var} "
            f"('{e.text.strip()[:120]}', {e.where}"
            + (f"; {len(refused)} processes print it" if len(refused) > 1 else "") + "): the launch environment every "
            "worker inherits sets it to a value the runtime cannot use"
            + (" (not a positive integer: empty, 0, a word or a list)" if omp else "")
            + " -- a setting shown wrong, shared by every process, not a rank's fault",
            ("Fix the launch environment: set OMP_NUM_THREADS to a positive integer (export OMP_NUM_THREADS=1, or "
             "the cores per process) or unset OMP_NUM_THREADS -- check what it is given (env | grep OMP; the job "
             "script, ~/.bashrc, the scheduler); torchrun sets OMP_NUM_THREADS=1 by default only where it is unset. "
             if omp else
             f"Fix the launch environment: set {var} to a value the OpenMP runtime accepts (the OpenMP spec's form) "
             f"or unset {var}; check what it is given (env | grep OMP). ")
            + "Then relaunch; an error after these lines, if the job still fails, is read on its own.",
            "medium", [], [x.brief() for x in refused[:2]], job_wide=True)
    unused = [e for e in evs if e.data.get("master_unused")]
    if unused:  # lead rule BP (1): torchrun's own warning that the --master_addr given takes no effect
        e = unused[0]
        return Verdict(
            "config",
            f"torchrun warns that the master address it was given is not used ('{e.text.strip().lstrip('> ')[:140]}'"
            f", {e.where}): a rendezvous backend other than static (c10d) was chosen without --rdzv_endpoint, so "
            "--master_addr / --master_port take no effect and each node looks for the rendezvous at its own default "
            "endpoint (localhost) -- the nodes never meet; a launch setting shown without effect, not a rank's fault"
            + ("; the traceback after it is cut before its exception text, so it shows no failure of its own"
               if c.samples.get("tb_cut") else ""),
            "Give every node the same rendezvous: with --rdzv_backend=c10d set --rdzv_endpoint=<host>:<port> for the "
            "c10d rendezvous (the same endpoint, and the same --rdzv_id and --nnodes on every node); master_addr is "
            "only used for static rdzv_backend, which reads master_addr and master_port (with --node_rank). Check "
            "the rendezvous host and port are reachable (firewall) from every node (nc -zv HOST PORT); if it still "
            "fails, show the full traceback / exception text after torchrun's frames.",
            "medium", [], [x.brief() for x in unused[:2]], job_wide=True)
    cvd = [e for e in evs if e.data.get("cvd_ignored") is not None and not _cvd_harmless(e)]
    if cvd:  # lead rules BP (1), V (1): DeepSpeed's runner ignoring the CUDA_VISIBLE_DEVICES it was started with
        e, ids = cvd[0], cvd[0].data["cvd_ignored"]
        return Verdict(
            "config",
            f"DeepSpeed's launcher warns that it ignores CUDA_VISIBLE_DEVICES={ids} ('{e.text.strip()[:160]}', "
            f"{e.where}): one of --include / --exclude / --num_gpus / --num_nodes was passed to it (accelerate launch "
            "with DeepSpeed passes --num_gpus), so the runner picks the GPUs itself and the workers land on GPUs the "
            "user did not choose -- CUDA_VISIBLE_DEVICES ignored by the deepspeed launcher, a launch setting shown "
            "without effect, not a rank's fault",
            f"Select the GPUs through the launcher's own setting, not CUDA_VISIBLE_DEVICES: use --include "
            f"localhost:{ids or '<gpu ids>'} (deepspeed --include to select GPUs) and do not pass --num_gpus with "
            "CUDA_VISIBLE_DEVICES; or, to keep CUDA_VISIBLE_DEVICES, drop --include/--exclude/--num_gpus/--num_nodes "
            "from the deepspeed command. Under accelerate launch, upgrade accelerate to 0.13.0 or later (it hands "
            "CUDA_VISIBLE_DEVICES to the DeepSpeed launcher as --include). Then relaunch; an error after these lines, "
            "if the job still fails, is read on its own.",
            "medium", [], [x.brief() for x in cvd[:2]], job_wide=True)
    ep = next((e for e in evs if e.data.get("entrypoint")), None)
    if ep is not None:  # lead rule AF (1): a flag's value where torchrun's launch config names the script
        v = ep.data["entrypoint"]
        return Verdict(
            "config",
            (f"torchelastic's worker events name '{v}' as every worker's entry_point ('{ep.text.strip()[:80]}')"
             if ep.data.get("events") else
             f"torchrun's launch config names '{v}' as the entrypoint ('{ep.text.strip()[:80]}')") + ": the script (or "
            f"program) every worker is to run is the bare value '{v}', an option's value taken as the training "
            "script -- an option given without its value, or a value the launcher does not take, shifted the "
            "command line -- so no worker runs the job; a launch setting of every worker, not a rank's fault",
            f"Fix the launch command so that the training script is the first argument that is not an option: give "
            f"each option its value (a boolean flag is given alone, without '{v}', where the launcher takes it as a "
            "switch), check the accelerate launch arguments / accelerate config (e.g. --same_network, "
            "--machine_rank) the launcher turns into torchrun's, then relaunch; the launch configs block should show "
            "'entrypoint : train.py'.",
            "medium", [], [ep.brief()], job_wide=True)
    ds = next((e for e in evs if e.data.get("ds_script")), None)
    if ds is not None:  # lead rules AF (1), U (2): DeepSpeed's runner given a path that is no script as the script
        script, nxt = ds.data["ds_script"], ds.data["ds_next"]
        host = "hostfile" in script.rsplit("/", 1)[-1].lower()
        return Verdict(
            "config",
            f"DeepSpeed's runner starts every worker with '{script}' as the user script (entrypoint) and '{nxt}' "
            f"as that script's first argument ('{ds.text.strip()[:80]}'): '{script}' is no Python script, so the "
            f"path meant as an option's value stands where the training script goes and {nxt} never runs as the "
            "job's script"
            + (" -- the hostfile's path given without --hostfile (the runner, finding no hostfile of its own, runs "
               "on local resources only: one node)" if host else "")
            + "; a launch setting of every worker, not a rank's fault",
            f"Give every launcher option with its flag, before the script: deepspeed --hostfile=/path/to/hostfile "
            f"{nxt} <its arguments> (launcher options go between `deepspeed` and the script; everything after the "
            "script is its own arguments); the runner's cmd line should then end in the script and its arguments, "
            "and its WORLD INFO DICT list every host of the hostfile (one line 'hostname slots=N' per host), then "
            "relaunch.",
            "medium", [], [ds.brief()], job_wide=True)
    crlf = [e for e in evs if e.data.get("crlf") is not None]
    if crlf:  # lead rules AF (1), BE (2): bash reading the launch script with Windows line endings
        return _crlf_script(c, crlf)
    short = [e for e in evs if e.data.get("spawn_short") is not None]
    if short:  # lead rule AF (1): every worker's printed command stops before the arguments its script requires
        e = short[0]
        return Verdict(
            "config",
            f"DeepSpeed's launcher spawns {'every worker' if len(short) > 1 else 'the worker'} with an argument list "
            f"that ends at '{e.data['spawn_short']}' ('{e.text.strip()[:100]}...'): the training script "
            f"{e.data['spawn_script'] or ''} is given its --deepspeed config and model but no --output_dir, the "
            "argument its Trainer (TrainingArguments) requires, so the arguments after that point never reached it "
            "-- a broken line continuation (a backslash missing or followed by a space) or a commented-out line in "
            "the launch command; the same for every worker, not a rank's fault",
            "Fix the launch command in the training script: every line but the last ends in a backslash with nothing "
            "after it (no trailing space, no commented-out line between the arguments), so that all the arguments, "
            "--output_dir among them, reach train.py; the launcher's 'spawned with command' line should then list "
            "them. If it still stops, rerun with NCCL_DEBUG=INFO and keep the full log (the workers' return code; "
            "py-spy dump --pid PID for a worker that hangs; dmesg for one killed).",
            "medium", [], [x.brief() for x in short[:2]], job_wide=True)
    mis = next((e for e in evs if e.data.get("misspelled")), None)
    if mis is not None:  # lead rules L, V (1): a variable that does not exist, set where one that does was meant
        name, meant = mis.data["misspelled"], mis.data["meant"]
        return Verdict(
            "config",
            f"the launch sets {name}={mis.data['value']} ('{mis.text.strip()[:100]}'), a variable that does not "
            f"exist -- {'the lower-case spelling of' if name.islower() else 'one typo from'} {meant} -- so nothing "
            "reads it and the setting meant is not applied: the "
            f"processes run as if {meant} were not set (every GPU visible: two jobs on one machine land on the same "
            "GPUs); a launch setting, not a rank's fault",
            f"Spell the variable {meant}"
            + (" (upper case: environment variable names are case-sensitive, and the launch of every node should "
               "give the same GPU count -- nproc_per_node consistent on every node)" if name.islower() else "")
            + f" (e.g. {meant}={mis.data['value']} before the launch command), or pass the "
            "launcher's own option for it (accelerate launch --gpu_ids 2,3, torchrun with the variable exported), "
            "then relaunch; check with `ncclDoctor env` or print os.environ in each process.",
            "medium", [], [mis.brief()], job_wide=True)
    evs = [e for e in evs if "arg_rank" in e.data]
    if not evs:
        return None
    ann = next((e for e in evs if e.data.get("announced")), None)
    if ann is not None:  # lead rules V (1), AA (1): a process announces a rank the launched world does not have
        r, w = ann.data["arg_rank"], ann.data["arg_world"]
        return Verdict(
            "config",
            f"a process announces global rank {r} ('{ann.text.strip()[:80]}') while the launch gives a world of {w} "
            "(--nproc_per_node x --nnodes, or the world-size argument): ranks run from 0 to world size - 1, so more "
            "processes were started than the world launched -- most often a script that spawns its own worker per "
            "visible GPU under a launcher that already starts one per GPU; a launch setting of every worker, not a "
            "rank's fault",
            "Start one process per GPU once: under torch.distributed.launch / torchrun tell the script not to spawn "
            "its own workers (fairseq: --distributed-no-spawn), or launch the script alone and let it spawn; keep "
            "--distributed-world-size (--world_size) = --nproc_per_node x --nnodes, and restrict "
            "CUDA_VISIBLE_DEVICES to the GPUs meant to be used (a host with more GPUs than --nproc_per_node otherwise "
            "shows the script all of them).",
            "medium", [], [ann.brief()], job_wide=True)
    bad = sorted({(e.data["arg_rank"], e.data["arg_world"]) for e in evs})
    said = ", ".join(f"--rank={r} in a world of {w}" for r, w in bad[:4])
    return Verdict(
        "config",
        f"the workers' command lines give ranks outside the world they are launched into ({said}): ranks run from 0 "
        "to world size - 1, so those processes can never join that world -- a launch argument every worker is built "
        "with (the launcher's rank offset, a world size / GPU count that does not match the processes started), not "
        "one rank's fault",
        "Make the launch arguments agree: the world size (--n_gpus / --world_size / WORLD_SIZE) equal to the number of "
        "processes started across all nodes, and each worker's --rank = node's first rank + its index below that "
        "(multiproc-style launchers: start ranks from 0 on one node); with CUDA_VISIBLE_DEVICES limiting the GPUs, "
        "count only those.",
        "medium", [], [e.brief() for e in evs[:3]], job_wide=True)


def _accel_unfit(setting, failed, summary: str, fix: str, sure: bool = True) -> Verdict:
    """An accelerate setting every machine shares that cannot form the world (world_unfit): config, no rank; high where
    the store connection is shown failing as it must (SURE: the setting alone decides it; a rank past one machine's
    settings leaves rank 0's absence the alternative, medium)."""
    return Verdict("config", summary, fix, "high" if failed and sure else "medium", [],
                   [setting.brief()] + [e.brief() for e in (failed or [])[:2]], job_wide=True)


def _accel_past(evs: list, failed: list | None) -> tuple | None:
    """accelerate's settings shown (num_processes, the total over all machines: ranks 0 .. num_processes - 1) and the
    failing processes' own ranks at or past that world (lead rules AE, AA (1)): a process those settings never start,
    so the launch the ranks ran in is not the one shown -- (that settings event, those ranks), or None."""
    acc = next((e for e in evs if e.data.get("accel_world")), None)
    if acc is None or not failed:
        return None
    ranks = sorted({e.rank for e in failed if e.rank is not None and e.rank >= acc.data["accel_world"]})
    return (acc, ranks) if ranks else None


def world_unfit(c: Collected, failed: list | None = None) -> Verdict | None:
    """Launch settings shown that cannot form the world (lead rules AA (1), AE): a call to init_process_group with a
    literal rank at or past its literal world size, or a node other than node 0 given a loopback master address
    (torchrun's --node-rank / --master-addr, NODE_RANK / MASTER_ADDR printed) where no node 0 on a loopback address is
    shown (one host running both nodes' launchers), or accelerate's num_processes below a failing process's own rank
    (_accel_past). Config, no rank, with nothing failing after them or with the store
    connection failing as it must (FAILED: those store lines, verdict.store._store); rule R's store_rendezvous holds
    only where no such setting is shown."""
    evs = c.samples.get("launch_args", [])
    nodes = [e for e in evs if e.data.get("node_rank") is not None and e.data.get("master_addr")]
    own = any(e.data["node_rank"] == 0 and is_loopback(e.data["master_addr"]) for e in nodes)
    loop = [] if own else [e for e in nodes if e.data["node_rank"] > 0 and is_loopback(e.data["master_addr"])]
    calls = [e for e in evs if e.data.get("init_call")]
    after = " -- the store connection then fails as it must" if failed else ""
    proof = [e.brief() for e in (calls or loop)[:2]] + [e.brief() for e in (failed or [])[:2]]
    acc = next((e for e in evs if e.data.get("accel_procs") is not None), None)
    if acc is not None and not calls:
        p, m = acc.data["accel_procs"], acc.data["accel_machines"]
        return _accel_unfit(
            acc, failed,
            f"accelerate's settings ask for num_processes: {p} over num_machines: {m} ('{acc.text.strip()[:120]}'): "
            "num_processes is the total over all machines, so fewer processes than machines leaves a machine with "
            f"none (accelerate gives each node num_processes / num_machines = {p // m if m else 0} workers) and the "
            f"world of {m} machines cannot form{after} -- a launch setting every node shares, not a rank's fault",
            "Set num_processes = total processes over all machines (num_machines x GPUs per machine, e.g. "
            f"--num_processes {m * 8} for {m} machines of 8 GPUs: --num_processes (total over all machines), not per "
            "machine) in `accelerate config` or on the accelerate launch command line, with the same num_machines, "
            "main_process_ip and main_process_port on every machine and machine_rank 0, 1, ... per machine; for one "
            "machine set num_machines: 1. (torchrun's nproc_per_node is per node; accelerate's num_processes is not.)")
    past = _accel_past(evs, failed)
    if past is not None and not calls:
        acc, ranks = past
        w = acc.data["accel_world"]
        return _accel_unfit(
            acc, failed,
            f"rank(s) {_fmt_ranks(ranks)} failed waiting at set-up while the accelerate settings shown ask for "
            f"num_processes: {w} over num_machines: {acc.data['accel_machines']} ('{acc.text.strip()[:120]}'), a "
            f"world of ranks 0 to {w - 1}: a rank {ranks[-1]} cannot exist in that launch, so the machines were not "
            "all launched with these settings (another config, num_processes or GPUs per machine on some machine) "
            "and the world they started in is not one launch can fill -- a launch setting, not a rank's fault",
            f"Make num_processes equal num_machines x GPUs per machine, the total over all machines ({w} here, "
            f"against a rank {ranks[-1]} seen), with the same accelerate config (num_processes, num_machines, "
            "main_process_ip, main_process_port) on every machine and its own machine_rank 0, 1, ... per machine "
            "(torchrun: the same --nnodes and --nproc_per_node on every node); if every machine did run these "
            "settings, rank 0 never reached its first collective (still preprocessing before init): look at rank 0's "
            "own log, with NCCL_DEBUG=INFO.", sure=False)
    lo = next((e for e in evs if e.data.get("accel_loopback")), None)
    if lo is not None and not calls:
        a, m = lo.data["accel_loopback"], lo.data["accel_machines"]
        return _accel_unfit(
            lo, failed,
            f"accelerate's settings ask for num_machines: {m} with main_process_ip: {a} ('{lo.text.strip()[:120]}'): "
            "a loopback address names each machine itself, so every machine other than machine 0 looks for the "
            f"coordinator (rank 0's store) on itself, where it is not, and the world of {m} machines cannot "
            f"form{after} -- a launch setting every machine shares, not a rank's fault",
            "Set main_process_ip to machine 0's IP address that the other machines can reach (not 127.0.0.1 / "
            "localhost; MASTER_ADDR is set from it) and the same main_process_port, open between the machines, in the "
            "accelerate config (accelerate config, or --main_process_ip on the accelerate launch command line) of "
            "every machine, with the same num_machines and num_processes (the total over all machines) and "
            "machine_rank 0 on machine 0 and 1, 2, ... on the others (not machine_rank 0 everywhere); check from "
            "another machine: nc -zv MAIN_PROCESS_IP MAIN_PROCESS_PORT.")
    ep = next((e for e in evs if e.data.get("env_rank_past")), None)
    if ep is not None and not calls:  # lead rules AE, V (1): RANK at or past WORLD_SIZE, assigned by hand
        r, w = ep.data["env_rank_past"]
        return Verdict(
            "config",
            f"the launch variables shown set RANK={r} with WORLD_SIZE={w} (at {ep.where}): ranks run from 0 to "
            f"WORLD_SIZE - 1, so this process can never join that world -- the TCPStore is hosted by rank 0, which "
            f"no process of these settings starts, and the process waits for it as a store client{after}; launch "
            "settings, not a rank's fault",
            "Give each process a RANK below WORLD_SIZE (RANK must be < WORLD_SIZE): RANK=0 for a single process "
            "(with WORLD_SIZE=1), the process with RANK=0 hosting the store at MASTER_ADDR/MASTER_PORT; or launch "
            "with torchrun / python -m torch.distributed.run, which sets RANK, LOCAL_RANK, WORLD_SIZE, MASTER_ADDR "
            "and MASTER_PORT for every process, instead of exporting them by hand; a single-GPU run can skip "
            "distributed entirely (the script's --launcher none).",
            "high" if failed else "medium", [], [ep.brief()] + [x.brief() for x in (failed or [])[:2]],
            job_wide=True)
    past_machine = next((e for e in evs if e.data.get("machine_rank") is not None), None)
    if past_machine is not None and not calls:
        e = past_machine
        r, m = e.data["machine_rank"], e.data["num_machines"]
        return Verdict(
            "config",
            f"the launch arguments shown give machine_rank={r} with num_machines={m} (at {e.where}): machines are "
            f"numbered 0 to num_machines - 1, so this machine's workers take global ranks machine_rank x GPUs + "
            "local rank, all past the world, and no process is rank 0 to host the store (--dist-url): init waits for "
            f"a rank 0 that never starts{after} -- a launch setting, not a rank's fault",
            "Give each machine an index below --num-machines: --machine-rank 0 on a single machine (machine_rank must "
            "be < num_machines; 0 on the machine whose address --dist-url names, 1, 2, ... on the others), "
            "--num-machines the number of machines, the same --dist-url tcp://MASTER_IP:PORT on every machine "
            "(global rank = machine_rank * num_gpus + local_rank, world size = num_machines x num_gpus); to pick "
            "GPUs on one machine use CUDA_VISIBLE_DEVICES, not the machine rank.",
            "high" if failed else "medium", [], [e.brief()] + [x.brief() for x in (failed or [])[:2]],
            job_wide=True)
    np_ = next((e for e in evs if e.data.get("node_past") is not None), None)
    if np_ is not None and not calls:  # lead rules AE, V (1): torchrun's --node_rank at or past its --nnodes
        r, m = np_.data["node_past"]
        return Verdict(
            "config",
            f"the torchrun command shown gives --node_rank={r} with --nnodes={m} (at {np_.where}): nodes are "
            f"numbered 0 to nnodes - 1, so this node's workers would take global ranks node_rank x nproc_per_node + "
            "local rank, all past the world, and no process is rank 0 to host the rendezvous store: the launch waits "
            f"for a node 0 that never starts{after} -- a launch setting, not a rank's fault",
            "Give each node a --node_rank below --nnodes (node_rank must be less than nnodes: 0 .. nnodes-1): "
            "use --node_rank=0 on a single node (--node_rank=0 with --nnodes=1, or torchrun --standalone "
            "--nproc_per_node=N train.py, dropping --node_rank / --master_addr on a single server); for several "
            "machines set --nnodes to the number of machines, node 0 on the machine whose address --master_addr names "
            "(an address the other nodes reach, not a placeholder), 1, 2, ... on the others, with consistent torchrun "
            "arguments on every node (the same --nnodes, --master_addr, --master_port).",
            "high" if failed else "medium", [], [np_.brief()] + [x.brief() for x in (failed or [])[:2]],
            job_wide=True)
    sw = next((e for e in evs if e.data.get("swallowed")), None)
    if sw is not None and not calls:  # lead rules V (1), AA (1): an option swallowed by the positional overrides
        lst, opt, val, own = sw.data["swallowed"]
        field = opt.lstrip("-").replace("-", "_")
        return Verdict(
            "config",
            f"the arguments the trainer printed hold '{opt}'" + (f" '{val}'" if val else "") + f" inside {lst}=[...], "
            f"its list of leftover positional words (e.g. config overrides), while its own {field} stays {own}: the "
            f"option was written after the positional arguments, so argparse gave it to {lst} and the value meant "
            f"never reached {field} -- every worker runs with the default{after}"
            + (" (a default port that another job on the host may already hold: Address already in use)"
               if "port" in field or "url" in field or "addr" in field else "")
            + "; a launch setting, not a rank's fault",
            f"Put {opt} (and every other option) before the positional overrides in the command line -- argument "
            f"order: train_net.py --config-file CFG --num-gpus N {opt} {val or 'VALUE'} KEY VALUE ... -- so that "
            f"{field} is set; for a rendezvous URL pick a different port that no other job holds (Address already in "
            "use: ss -ltnp | grep PORT), or the launcher's 'auto' / a free MASTER_PORT.",
            "high" if failed else "medium", [], [sw.brief()] + [x.brief() for x in (failed or [])[:2]],
            job_wide=True)
    par = next((e for e in evs if e.data.get("parallel_unfit")), None)
    if par is not None and not calls and not failed:  # lead rules V (1), AF (1), AE: a mesh the world cannot hold
        name, size, world = par.data["parallel_unfit"]
        hosts = par.data.get("ds_hosts")
        if hosts is not None:  # DeepSpeed's runner: its --world_info lists the GPUs it launched, one worker each
            shown = ", ".join(f"{h}: {g}" for h, g in hosts.items())[:160]
            return Verdict(
                "config",
                f"the deepspeed command gives the trainer {name}={size}, and DeepSpeed's runner then launched "
                f"--world_info {{{shown}}} ('{par.text.strip()[:120]}'): a world of {world} GPU worker(s), which "
                f"a model-parallel group of {size} cannot be built from"
                + (" -- fewer GPUs than one group needs" if world < size else " (the world is not divisible by it)")
                + "; the launch settings every worker shares (the hostfile / CUDA_VISIBLE_DEVICES / --num_gpus the "
                "runner took its resources from), not a rank's fault",
                "The model-parallel size must fit the world size: make the world size divisible by the model "
                f"parallel size -- launch at least {size} GPUs (a multiple of {size}) with deepspeed --num_gpus / "
                "--include localhost:0,1,... or a hostfile whose slots match the GPUs (a hostfile the runner cannot "
                "find makes it use the local resources only: give its absolute path), with CUDA_VISIBLE_DEVICES "
                f"exposing them and LOCAL_WORLD_SIZE matching the GPUs launched -- or set {name} to a size that "
                f"divides {world} (1 for a single GPU, no model parallelism); the hostfile / world_info the runner "
                "prints shows the GPUs it found.",
                "medium", [], [par.brief()], job_wide=True)
        return Verdict(
            "config",
            f"the launch command starts a world of {world} process(es) (--nproc_per_node x --nnodes) and gives the "
            f"trainer {name}={size} ('{par.text.strip()[:160]}'): the trainer builds its device mesh "
            f"(init_device_mesh) with a dimension of {size}, and a world of {world} is not divisible by it"
            + (" -- fewer processes than that one dimension needs" if world < size else "")
            + ", so the mesh cannot be built; a launch setting every worker shares, not a rank's fault",
            "Make the world size divisible by the parallel size: launch --nproc_per_node (x --nnodes) a multiple "
            f"of {size} (the number of GPUs the sequence / tensor parallel size needs, or a multiple of it), or set "
            f"{name} to a size that divides {world} (1 for one process, no model parallelism); rerun with "
            "NCCL_DEBUG=INFO and keep the full output, the trainer's own error past the launch line "
            "(init_device_mesh's).",
            "medium", [], [par.brief()], job_wide=True)
    if calls:
        e = calls[0]
        r, w = e.data["arg_rank"], e.data["arg_world"]
        return Verdict(
            "config",
            f"init_process_group is called with rank={r} in a world of world_size={w} ('{e.text.strip()[:120]}'): "
            "ranks run from 0 to world_size - 1, so this process can never join that world; it waits as a store "
            f"client for a rank 0 that no process of that world starts{after} -- a rank and world size written into "
            "the script (or its launch arguments), not a rank's fault",
            "Give init_process_group a rank below its world size: world_size = the processes of the whole job (nodes "
            "x GPUs per node) and rank = node_rank x GPUs per node + the process's GPU index (one process alone: "
            "world_size=1, rank=0), not a hard-coded rank; or let torchrun set them (init_method='env://', RANK / "
            "WORLD_SIZE), with the same dist_url / init_method (tcp://MASTER_IP:PORT) on every process.",
            "high" if failed else "medium", [], proof, job_wide=True)
    if loop:
        e = loop[0]
        n, a = e.data["node_rank"], e.data["master_addr"]
        return Verdict(
            "config",
            f"node rank {n} was launched with the master address {a} ('{e.text.strip()[:160]}'): a loopback address "
            "is the node's own host, so a node other than node 0 looks for the rendezvous and store of node 0 on "
            f"itself, where they are not, and the nodes never meet{after} -- a launch setting, not a rank's fault",
            "Give every node the same --master-addr / MASTER_ADDR: node 0's IP address, reachable from the other "
            "nodes (not 127.0.0.1 / localhost, which names each node itself), and the same --master-port; launch "
            "with --nnodes = the number of nodes, --node-rank 0 on the master's node and 1, 2, ... on the others (the "
            "node-rank-0 command on node 0 too); check the address from another node: nc -zv MASTER_ADDR "
            "MASTER_PORT.",
            "high" if failed else "medium", [], proof, job_wide=True)
    return None


_NODE_FIELD = {"MASTER_ADDR": "master_addr", "MASTER_PORT": "master_port", "WORLD_SIZE": "world",
               "--num-gpus": "gpus_per_machine"}
_R_IPV4 = re.compile(r"^\d{1,3}(?:\.\d{1,3}){3}$")


def _comparable(a: str, b: str) -> bool:
    """Two master addresses that can be told apart by their text: both IPv4 literals, or both host names (a host name
    and an address may be the same host); a loopback address is node 0's own view of itself, never a disagreement."""
    loop = ("localhost", "127.0.0.1", "::1", "0.0.0.0")
    if a in loop or b in loop:
        return False
    ipa, ipb = bool(_R_IPV4.match(a)), bool(_R_IPV4.match(b))
    if ipa != ipb:
        return False
    return a != b if ipa else a.split(".")[0].lower() != b.split(".")[0].lower()


def _file(e) -> str:
    return e.where.rpartition(":")[0]


def _nodes_disagree(evs: list) -> tuple[str, object, object] | None:
    """Two nodes (different node ranks) whose printed launch settings disagree: (the setting, one node's line,
    the other's), or None."""
    for i, a in enumerate(evs):
        for b in evs[i + 1:]:
            # one node rank in one file is one node; the same node rank printed in two files (each node's log) is
            # two nodes both given it, each its own master: their settings are compared alike
            if a.data["node_rank"] == b.data["node_rank"] and _file(a) == _file(b):
                continue
            if _comparable(a.data["master_addr"], b.data["master_addr"]):
                return "MASTER_ADDR", a, b
            for what in ("MASTER_PORT", "WORLD_SIZE", "--num-gpus"):
                x, y = a.data.get(_NODE_FIELD[what]), b.data.get(_NODE_FIELD[what])
                if x and y and x.isdigit() and y.isdigit() and x != y:
                    return what, a, b
    return None


def _config(c: Collected, ks: list[Conclusion], env: list[Finding]) -> Verdict | None:
    bad = [f for f in env if f.severity != Severity.INFO]
    done = finished(c)
    if done:
        # a run that completed: its settings are its parameters, not its failure -- except a variable NCCL removed
        # (ENV003), set in the launch all the same: the one thing wrong the lines show (lead rules L, V (1); round
        # 109's nccl-tests-321, an nccl-tests run completing with NCCL_IB_CUDA_SUPPORT exported)
        bad = [f for f in bad if f.code == "ENV003"]
    if not bad:
        return None
    said = "; ".join(f.message.removeprefix("in the logs: ") for f in bad[:3])
    gone = _removed_words(c, bad)
    return Verdict(
        "config",
        ("the run completed, but a setting in the logs is one NCCL no longer reads: " if done else
         "settings in the logs are wrong: ") + said,
        f"Change the settings: {said.rstrip('.')}. "
        # a removed variable's advice once: its own sentence (_removed_words), not ENV003's general "Remove it"
        + "".join(x + " " for x in dict.fromkeys(f.fix for f in bad[:3] if f.fix and not (f.code == "ENV003" and gone)))
        + "".join(gone.values()) +
        f"({' '.join(f.code for f in bad[:3])}: `ncclDoctor explain` has the details; `ncclDoctor env` checks a "
        "node's environment the same way.)",
        "low" if done else "high",
        [],
        [e for f in bad[:3] for e in f.evidence[:1]],
    )


def _removed_words(c: Collected, bad: list[Finding]) -> dict[str, str]:
    """The fix's words for each variable NCCL removed that the logs set and whose ENV003 finding was kept (``bad``:
    conclude.settings_findings drops it where the NCCL version shown still reads the variable): what replaced it,
    since which release -- one sentence a variable (review a of round 109, finding 7)."""
    from ncclDoctor.knowledge.env_vars import BY_NAME

    kept = {n for f in bad if f.code == "ENV003" for n in c.settings if f"{n} was removed" in f.message}
    out = {}
    for name in sorted(kept):
        info = BY_NAME.get(name)
        if info is None or info.status != "removed":
            continue
        ver = re.sub(r"^NCCL\s*", "", info.removed_in or "")
        ver = re.sub(r"^(\d+\.\d+)\.0$", r"\1", ver)
        out[name] = (f"Remove the removed {name} variable" + (f" (replaced by {info.replacement}" if info.replacement
                                                               else " (no replacement") + (f" since NCCL {ver})" if ver
                                                                                            else ")") + ". ")
    return out


def _rank_sentinel(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule BZ (3) (round 96's pytorch-97507, adjudicated): the job's processes print, from torch's own
    get_rank / get_world_size after init, rank -1 and world size -1 -- torch's not-a-member sentinel, a value no member
    of the group has -- and no process prints another value, with nothing raised and no setting shown wrong: the
    group's construction misbehaved alike in every process (a torch release's MPI process-group start-up, a backend
    build), read like rule S's wrong values with nothing failing: cause unknown, nobody named (every process alike:
    rules J, BG (1), BJ (2)), nobody innocent. config needs a setting shown wrong (rule Q's shared setting refused or
    missing: 'doesn't have MPI built in'), not only a wrong value. Not where another process prints a real rank (a
    process outside a sub-group gets -1 too), nor beside an exception or a failure, whose readings come first; nor on
    one print alone, or in a run that finished (review 96 finding 4: a script run without a launcher prints its own
    -1 for "not distributed" once, and goes on to train)."""
    evs = c.job_prints.get("rank_sentinel", [])
    n = sum(e.data["sentinel"] for e in evs)
    # two prints at least (every process of a group: one print is a script run alone, whose own code prints -1 for
    # "no torch.distributed"), and a job that did not finish (review 96 finding 4)
    if not evs or any(e.data["other"] for e in evs) or n < 2 or not quiet(c):
        return None
    mpi = any(re.search(r"(?i)\bmpi\b", e.text) for e in evs)
    return Verdict(
        "unknown",
        f"the job's own prints show torch reporting rank -1 and world size -1 after init ({n} print"
        f"{'s' if n > 1 else ''}, '{evs[0].text.strip()[:120]}'): -1 is torch's not-a-member sentinel, a value no "
        "member of the group has, and every process shown prints it alike with nothing raised -- the process group's "
        "construction misbehaved the same way in every process"
        + (" (the mpi backend's start-up)" if mpi else "") + "; no setting is shown wrong and no rank is at fault",
        ("With the mpi backend, torch's MPI process group takes the rank and size from MPI itself: upgrade torch "
         "(upgrade torch to 2.0.1 or a later torch release with the MPI rank/world size fix of the 2.0 regression), "
         "or use a PyTorch built from source with the same MPI as mpirun (USE_MPI=1; the MPI backend build must "
         "match the launcher's MPI). Check what the launcher gives each process (OMPI_COMM_WORLD_RANK / "
         "OMPI_COMM_WORLD_SIZE for Open MPI, PMI_RANK / PMI_SIZE for MPICH) and read rank from OMPI_COMM_WORLD_RANK "
         "where torch reports -1; or use torchrun with the nccl or gloo backend instead of mpi (use gloo or nccl "
         "backend). " if mpi else
         "Print dist.is_initialized(), dist.get_backend() and the launcher's variables (RANK, WORLD_SIZE, "
         "LOCAL_RANK; OMPI_COMM_WORLD_RANK / OMPI_COMM_WORLD_SIZE under mpirun) in each process: get_rank() and "
         "get_world_size() return -1 for a process that is not a member of the group asked (a sub-group it is not "
         "in) -- ask the default group, or pass the group the process belongs to. Where every process gets -1 "
         "from the default group right after init_process_group, the torch release's backend start-up is at "
         "fault: upgrade torch, or use torchrun with the nccl or gloo backend. ")
        + "Rerun with TORCH_DISTRIBUTED_DEBUG=DETAIL to see the group's set-up.",
        "low", [], [e.brief() for e in evs[:2]], job_wide=True)
