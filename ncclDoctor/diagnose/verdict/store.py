"""The store and rendezvous failing (store_rendezvous): TCPStore connects and reads, torchrun's rendezvous, a
coordination barrier; the launch settings behind them (config: launchers per node, the world's address)."""

from __future__ import annotations

import ipaddress
import re

from ncclDoctor.diagnose.reason import Conclusion, _fmt_ranks
from ncclDoctor.diagnose.signatures import R_STORE_KEY0, Event, is_loopback
from ncclDoctor.diagnose.state import ERROR_KINDS, QUIET_KINDS, Collected
from ncclDoctor.diagnose.verdict.base import Verdict, _named, _samples, hosts
from ncclDoctor.diagnose.verdict.network import loopback_master
from ncclDoctor.diagnose.verdict.usage import _store_overcount


def _accelerate_shown(c: Collected, evs: list) -> bool:
    """Review a of round 110, finding 7: accelerate appears in the lines -- its launcher's or test's frames, the
    store's own lines, or an exception's text or frames name it -- so the env:// fix may speak of accelerate launch
    with one process (plain python); a srun or plain launch gets the env:// words without it."""
    if c.accel_launch or c.accel_test or c.accel_seen:
        return True
    texts = [e.text for e in evs] + [
        f"{e.text} {e.data.get('caller_file') or ''} {e.data.get('tail_frames') or ''}" for e in c.exceptions]
    return any("accelerate" in t for t in texts)


def _cgnat(endpoint: str) -> bool:
    try:
        return ipaddress.ip_address(endpoint.rsplit(":", 1)[0].strip("[]")) in ipaddress.ip_network("100.64.0.0/10")
    except ValueError:
        return False


def _launchers_per_node(c: Collected, in_use: int) -> Verdict | None:
    """Lead rule AA (1): the store's port already in use where the Slurm job runs several tasks per node
    (--ntasks-per-node N > 1) and takes each launcher's node rank from SLURM_PROCID (the task's rank in the whole job):
    every node starts N launchers with node ranks past the node count, and each extra one on the master's host binds
    MASTER_PORT again -- the launch, not another job and not a rank (config, no rank)."""
    evs = c.samples.get("launch_tasks", [])
    tasks = max((e.data["tasks"] for e in evs if e.data.get("tasks")), default=0)
    procid = [e for e in evs if e.data.get("procid_node_rank")]
    if tasks < 2 or not procid:
        return None
    port = f"port {in_use}" if in_use else "the store's port"
    return Verdict(
        "config",
        f"{port} already in use (EADDRINUSE) where the Slurm job runs {tasks} tasks per node "
        f"(--ntasks-per-node={tasks}) and takes the node rank from SLURM_PROCID: several launchers start on each node "
        "and every extra one on the master's host binds MASTER_PORT again -- the launch set-up, not another job (a "
        "new port does not help), no rank at fault",
        "Start one torchrun per node: #SBATCH --ntasks-per-node=1 and NODE_RANK=$SLURM_NODEID (torchrun --nnodes "
        "$SLURM_NNODES --node_rank $SLURM_NODEID, started once per node by srun), each torchrun then starting "
        "--nproc_per_node processes; or let srun start one process per GPU (--ntasks-per-node = GPUs per node) "
        "without torchrun, the ranks from SLURM_PROCID / SLURM_LOCALID and one MASTER_ADDR / MASTER_PORT.",
        "high", [], [procid[0].brief()] + _samples(c, "store_timeout")[:2], job_wide=True)


def _connect_then_cut(c: Collected, evs: list) -> Verdict:
    """Lead rules L, BM (2), BG (6): the store client's connect warning (10049 / EINVAL / EADDRNOTAVAIL at an address
    of the store's host), then a traceback down into init_process_group (or accelerate's set-up that calls it:
    prepare_accelerator, Accelerator(...)) that the paste cut before its exception. One such warning is one attempt at
    one address -- the client tries the next and retries until its timeout -- so it proves no failed connection, and
    what the process raised is not shown (a torch without the backend asked for, a store timeout, anything else at
    set-up): cause unknown, low, no rank (every process reaches the same code). The warning is the first thing to
    check, so the fix leads with it and asks for the exception text."""
    host = evs[0].data.get("endpoint") or "the store's host"
    return Verdict(
        "unknown",
        f"the store client's connect to {host} was refused an address once (system error 10049 / EINVAL / "
        "EADDRNOTAVAIL: one attempt at one address, which the client retries), and then the process raised inside "
        "init_process_group (its traceback ends in that call, or in accelerate's set-up that makes it) -- but the "
        "exception line is not in the input, so what failed there is not shown: no rank at fault (every process "
        "runs the same set-up)",
        "Give the full exception text below the traceback: it names what failed. Meanwhile check the one lead the "
        f"lines show: what {host} resolves to on this machine (the hosts file, a VPN or another program mapping the "
        "machine name elsewhere) -- set MASTER_ADDR to an address that is this host's (MASTER_ADDR=127.0.0.1 / "
        "localhost on one machine) with a free MASTER_PORT; on Windows use the gloo backend (torch's Windows wheels "
        "have no NCCL: Distributed package doesn't have NCCL built in).",
        "low", [], [e.brief() for e in evs[:2]], job_wide=True)


def _rendezvous_cut(c: Collected, evs: list) -> Verdict:
    """Lead rules L, Q, AN (2): the input stops inside init_process_group's rendezvous step -- its code line getting the
    store from the rendezvous ('next(rendezvous_iterator)') or the env:// / tcp:// handler creating the TCPStore --
    before the exception line (parse.input_tail): the process raised while the store at MASTER_ADDR:MASTER_PORT was
    being created or connected, before any NCCL communicator existed. That store is one endpoint every process shares
    (a port taken by another program or a stale run, an address not reachable, another service answering on it):
    store_rendezvous, no rank (a spawned child 0 dying there hosts the store, it did not fail on its own work), low:
    the error itself is not shown."""
    code = evs[0].data.get("rdzv_cut") or ""
    return Verdict(
        "store_rendezvous",
        f"the input stops inside init_process_group's rendezvous step ('{code[:100]}', {evs[0].text[:160]}), before "
        "its exception line: the process raised while the job's c10d TCPStore at MASTER_ADDR:MASTER_PORT was being "
        "created or connected, before any NCCL communicator existed -- the store's endpoint, shared by every "
        "process, not a rank's own failure (the error itself was not pasted)",
        "Give the full error text of the rendezvous (the exception below the traceback) and every rank's own "
        "traceback to confirm which failure it was -- a rank that died before reaching the rendezvous (any early "
        "error: its own traceback) leaves the others' store waiting for it. Most often the store's port "
        "is taken ('Address already in use': a stale process of an earlier run still holds it -- kill the leftover "
        "(ps, nvidia-smi) -- or another program listens there, and an unexpected reply from the store is that other "
        "service answering): pick a free port (MASTER_PORT, or the port of "
        "init_method='tcp://HOST:PORT'; ss -ltnp | grep PORT). Otherwise MASTER_ADDR is not this host's or not "
        "reachable (nc -zv MASTER_ADDR MASTER_PORT from every node); with env:// set MASTER_ADDR, MASTER_PORT, "
        "RANK and WORLD_SIZE for every process. A store that waits for more processes than were started times out "
        "the same way: world_size must equal the number of processes started on every machine together (tcp:// "
        "and env:// alike), each with its own rank.",
        "low", [], [e.brief() for e in evs[:2]], job_wide=True)


def _agent_store_cut(c: Collected, evs: list) -> Verdict:
    """Lead rule BC (1): the input stops in a frame of torchrun's elastic store utilities (elastic/utils/store.py:
    get_all, synchronize, barrier), its exception cut (parse.input_tail): the agent was gathering the keys every
    participant writes to the rendezvous store, and one never came in time -- a store frame of the launcher in the
    lines is store_rendezvous; which node's agent never wrote its key the lines cannot say: no rank, nobody innocent
    (itrex-84 the same frame with its 'Socket Timeout'; round 87's belle-344)."""
    where = evs[0].data.get("agent_store") or "elastic/utils/store.py"
    return Verdict(
        "store_rendezvous",
        f"the input stops inside torchrun's elastic store utilities ({where}, {evs[0].where}), before the "
        "exception line: the launcher's agent was reading the keys every participant (each node's agent, each "
        "worker) writes to the rendezvous store -- a gather or barrier that a participant never reached, or reached "
        "too late; which node's agent is missing these lines do not say (the error itself was not pasted)",
        "Give the full traceback (the exception text) below that frame -- most often a store 'Socket Timeout'. Then "
        "check every node/worker reaches the rendezvous: every node launched with the same --nnodes, --nproc_per_node, "
        "--master_addr and --master_port (or --rdzv_endpoint / --rdzv_id), each with its own --node_rank; "
        "MASTER_ADDR/MASTER_PORT reachable from every node (nc -zv MASTER_ADDR MASTER_PORT: firewall / port in use); "
        "read the other nodes' own logs (LOGLEVEL=INFO / TORCH_DISTRIBUTED_DEBUG=DETAIL) for a node that failed or "
        "started late, and if they are only slow to arrive, raise the rendezvous/store timeout (--rdzv_conf "
        "timeout=..., join_timeout=...).",
        "low", [], [e.brief() for e in evs[:2]], job_wide=True)


def _world_settings(c: Collected, evs: list) -> Verdict | None:
    """Lead rule AE: a barrier of the set-up short of its processes (the coordination service's tasks that never
    arrived, torch's store-based barrier with fewer joined than its world) beside the code line that sets the world up
    with literal settings that cannot form it (parse._world_call): one literal process id / rank in every call shown
    for a world of two or more (every process started with that line claims that id), or a loopback coordinator
    while the lines show several hosts. A setting shown wrong: config, no rank (rules V (1), AA (1))."""
    calls = c.samples.get("world_call", [])
    short = [e for e in evs if e.data.get("missing") or (e.data.get("joined") and e.data["joined"][0] <
                                                          e.data["joined"][1])]
    if not calls or not short:
        return None
    e = short[0]
    count = (len(e.data["missing"]) + 1 if e.data.get("missing") else e.data["joined"][1]) if not (
        e.data.get("reached")) else e.data["reached"][1]
    world = max([x.data["world"] for x in calls if x.data.get("world")] + [count])
    ids = {x.data["id"] for x in calls}
    hard = None not in ids and world >= 2 and len(ids) < world
    loop = next((x.data["coordinator"] for x in calls if is_loopback(x.data.get("coordinator") or "")),
                None) if len(hosts(c)) > 1 else None
    if not hard and not loop:
        return None
    call = calls[0].data["call"]
    waits = (f"the coordination service's barrier {e.data['coord_barrier']} timed out with task(s) "
             f"{_fmt_ranks(sorted(e.data['missing']))} never arriving" if e.data.get("missing") else
             f"the store-based barrier counted {e.data['joined'][0]} of {e.data['joined'][1]} processes")
    why = (f"{call} is called with a hard-coded process id ({_fmt_ranks(sorted(ids))}) for a world of {world}: every "
           "process started with that line claims the same id, so the others can never check in" if hard else
           f"{call} names a loopback coordinator ({loop}) while the lines show {len(hosts(c))} hosts: the other "
           "hosts' processes can never reach it")
    return Verdict(
        "config",
        f"{waits}, and the lines show why: {why} -- the settings that define the world cannot form it, a setting "
        "shown wrong, no rank is at fault",
        "Give each process its own id and the real world size: jax.distributed.initialize(coordinator_address="
        "'HOST:PORT' of process 0 reachable from every host, num_processes = the number of processes actually "
        "started (one process per host, or one per GPU), process_id = that process's index, from the launcher "
        "(SLURM_PROCID, the job index) or an argument) -- or call jax.distributed.initialize() with no arguments "
        "under Slurm / TPU / Kubernetes, where it reads them itself; for torch, init_process_group's rank and "
        "world_size from the launcher (RANK, WORLD_SIZE set by torchrun), never a constant.",
        "high" if hard else "medium", [], [x.brief() for x in calls[:2]] + [e.brief()], job_wide=True)


def _v0_data_parallel(c: Collected, evs: list) -> Verdict | None:
    """Lead rule AE: the store's count short of a world of the data-parallel size (times the tensor-parallel size)
    beside a vLLM launch with the V0 engine and --data-parallel-size N that starts no DP rank of its own
    (parse._vllm_launch): the V0 engine does not start the other DP ranks, so that launch cannot fill the world the
    store waits for -- a setting shown, config, no rank."""
    launch = next(iter(c.samples.get("engine_launch", [])), None)
    short = next((e for e in evs if e.data.get("joined") and e.data["joined"][0] < e.data["joined"][1]), None)
    if launch is None or short is None:
        return None
    dp, tp = launch.data["dp"], launch.data["tp"]
    joined, world = short.data["joined"]
    if world not in (dp, dp * tp):
        return None
    return Verdict(
        "config",
        f"the store counted {joined} of {world} clients, and the launch shown is one {launch.data['engine']} server "
        f"with --data-parallel-size {dp} (VLLM_USE_V1=0): the V0 engine starts no other data-parallel ranks, so "
        f"this one launch can never fill the world of {world} the store waits for -- a launch setting, no rank is at "
        "fault",
        f"Use the V1 engine (VLLM_USE_V1=1, the default since vLLM 0.8), which starts all {dp} data-parallel ranks "
        "from one launch (--data-parallel-size); with the V0 engine, launch each DP rank separately (its own "
        "--data-parallel-rank / VLLM_DP_RANK, with the same data-parallel size and master address), so the world "
        "size the store waits for is reached -- or drop --data-parallel-size and run one server per GPU set.",
        "high", [], [launch.brief(), short.brief()], job_wide=True)


def _coord_runtime_barrier(c: Collected, evs: list, missing: list[int]) -> Verdict:
    """Lead rules Y and I: a barrier the running program calls itself through the coordination service (its id names
    no connect / init / start: "multihost_broadcast_sync0") timed out naming the tasks that never reached it. The
    world was formed (jax.distributed.initialize returned), so the process that waited is connected and its peers
    named there never arrived: rank_missing, the named tasks the culprits (a task shown not to arrive)."""
    e = evs[0]
    tasks = _fmt_ranks(missing)
    return Verdict(
        "rank_missing",
        f"the coordination service's barrier {e.data['coord_barrier']}, called by the running program after "
        f"jax.distributed.initialize had formed the world, timed out and names task(s) {tasks} as never arriving: "
        "the waiting process is connected, and those tasks did not reach the same barrier -- crashed, hung, or on "
        "another code path",
        f"Check logs of task(s) {tasks} (task:N is process_id N) on every host for an error or a crash before the "
        "barrier; dump a hung task's stack with py-spy dump --pid PID; make sure all workers run the same code "
        "path on every host to the barrier (no host-conditional branch skips it), and raise the barrier timeout "
        "only if they are merely slow.",
        "medium", list(missing), [x.brief() for x in evs[:3]])


def _coord_barrier(c: Collected, evs: list) -> Verdict:
    """Lead rule R for the coordination service (XLA's / TF's; the store behind jax.distributed.initialize): its
    set-up barrier timed out with tasks that never arrived -- the job's rendezvous short of its processes:
    store_rendezvous, the missing tasks not shown (nobody named), the waiting process a victim."""
    e = evs[0]
    missing = sorted({t for x in evs for t in x.data.get("missing", [])})
    if missing and all(x.data.get("coord_runtime") for x in evs):
        return _coord_runtime_barrier(c, evs, missing)
    reached = e.data.get("reached")
    what = (f"{reached[0]} of {reached[1]} tasks reached it" if reached else
            f"task(s) {_fmt_ranks(missing)} never arrived" if missing else "not every task arrived")
    return Verdict(
        "store_rendezvous",
        f"the coordination service's set-up barrier ({e.data['coord_barrier']}) timed out: {what} -- the job's "
        "rendezvous (the coordinator's key-value store) worked for the process that waited, and the others never "
        "checked in: not started, started with other settings, or unable to reach the coordinator; the waiting "
        "process is their victim and the lines do not show why they are missing",
        "Check that every process of the world was started, with the same coordinator_address (process 0's "
        "HOST:PORT, reachable from every host: nc -zv HOST PORT), num_processes equal to the processes started and "
        "a distinct process_id each (jax.distributed.initialize; or no arguments under Slurm / TPU / Kubernetes); "
        "read the missing tasks' own logs for an error before they reached jax.distributed.initialize, and raise "
        "initialization_timeout if they are only slow to start.",
        "medium", [], [x.brief() for x in evs[:3]], job_wide=True)


def _quorum_short(c: Collected, joined: tuple[int, int]) -> Verdict:
    """Lead rule R for a fault-tolerance coordinator's own quorum (torchft's lighthouse: "No quorum, only have 1
    participants, need 2"): the job's own rendezvous of a known count (its min_replicas) with fewer members than it
    needs is store_rendezvous; the members missing are not named, and no rank is shown waiting inside a collective
    (nobody innocent). The coordinator's count may also hold a member that is gone (a killed worker not yet expired),
    which the fix names. Round 87's torchft-63."""
    have, need = joined
    return Verdict(
        "store_rendezvous",
        f"the fault-tolerance coordinator (torchft's lighthouse) has no quorum: only {have} of the {need} "
        "participants it needs (min_replicas) joined, so no replica group can start a step -- the job's own "
        f"rendezvous short of {need - have} member(s), which these lines do not name",
        f"Start every replica group: {need - have} more must join the lighthouse (each with its own unique "
        "replica_id / REPLICA_GROUP_ID, NUM_REPLICA_GROUPS as launched), and check replicas can reach the lighthouse: "
        "check the lighthouse address (TORCHFT_LIGHTHOUSE, http://HOST:29510) from every replica group's host. "
        "--min_replicas sets how many it waits for (--min_replicas 1 lets one group train alone; join_timeout_ms how "
        "long it waits for late joiners). If a participant it counts is a process already killed, the lighthouse "
        "still holds its stale participant entry: restart the lighthouse (or upgrade torchft, whose heartbeat-based "
        "expiry drops it); its dashboard shows the quorum status and who joined.",
        "medium", [], _samples(c, "store_timeout"))


def _server_waited(evs: list, joined: tuple[int, int]) -> str:
    """The fix's words where the short count is the TCPStore server's own ("Timed out after N seconds waiting for
    clients. J/N clients joined"): the process that speaks hosts the store (rank 0 under env://) and was up all along,
    so the missing ones are the other processes, which never connected to it (lead rules R, L, Y; round 80's
    deepdewedge-20). '' for a client's count (the store-based barrier's worker_count), read by the fix above alone."""
    if not any("waiting for clients" in e.text for e in evs):
        return ""
    j, n = joined
    return (f" The line is the store server's own count: the process hosting the TCPStore (rank 0 under env://) "
            f"waited the whole timeout and only {j} of {n} processes connected to it -- check the other ranks started "
            f"(their own logs: an error, or host memory running out while loading data, before init_process_group), "
            f"launch all {n} processes (under SLURM: srun --ntasks-per-node matching the devices each node is given, "
            "a framework's num_nodes / devices matching the allocation), and that MASTER_ADDR/MASTER_PORT, its "
            "firewall / port, are reachable from the other processes' nodes.")


# torchrun's agent waiting exactly 300 s on its own store (no rank tag): LocalElasticAgent's exit barrier
# (exit_barrier_timeout=300), where the agent whose workers finished waits for every other node's agent; a node still
# running (rank 0 saving a checkpoint, a long evaluation) past it leaves the others' barrier timing out (lead rule Y's
# first sentence; round 82's ms-swift-9188)
_EXIT_BARRIER = (" A wait of exactly 300000 ms in torchrun's own agent (no rank tag) is its exit barrier "
                 "(torchrun exit barrier timeout (300 s)): the agent whose workers finished waits for the other nodes' "
                 "agents, so a node whose workers were still running past it (rank 0 still saving a checkpoint, a "
                 "long evaluation) is the one to look at -- check the pod/rank that did not join, a py-spy dump of "
                 "every rank on it, and let every rank finish together (a barrier / destroy_process_group before "
                 "exit).")


def _store(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    evs = c.samples.get("store_timeout", [])
    if evs and c.kinds.get("watchdog_timeout"):
        # collectives ran (a watchdog timed one out): the rendezvous had finished, so an etcd client's error is not
        # why the job failed -- another etcd client on the host printed it (second review of session 37, finding 6)
        evs = [e for e in evs if not e.data.get("etcd")]
    if any(e.data.get("spawn_signal") for e in c.samples.get("worker_failed", [])):
        # a launcher's record of the init_method init_process_group raised on ("Process group URL: tcp://..."), beside
        # mp.spawn's join reporting a child killed by a signal ("process 2 terminated with signal SIGFPE"): no Python
        # exception reached spawn (it would have re-raised init_process_group's with its traceback), so the child died
        # natively first and the URL is the others' set-up failing after it -- the signal is read (lead rules A, AL
        # (2); round 105's detectron2-3). A spawn exit code or a re-raised exception keeps the URL's reading.
        evs = [e for e in evs if "init_url" not in e.data]
    if not evs:
        return None
    coord = [e for e in evs if e.data.get("coord_barrier")]
    world = _world_settings(c, coord or evs) or _v0_data_parallel(c, evs)
    if world is not None:
        return world
    if coord:
        return _coord_barrier(c, coord)
    if all(e.data.get("init_cut") for e in evs):
        return _connect_then_cut(c, evs)
    if all(e.data.get("rdzv_cut") for e in evs):
        return _rendezvous_cut(c, evs)
    if all(e.data.get("agent_store") for e in evs):
        # rule BC (1) reads the cut store frame alone, beside set-up chatter only; anything else shown (a worker's
        # record, an exception, an NCCL error) is read first, by its own class (rule BC (2))
        if any(v and k != "store_timeout" and k not in QUIET_KINDS for k, v in c.kinds.items()):
            return None
        return _agent_store_cut(c, evs)
    from ncclDoctor.diagnose.verdict.world import world_unfit

    unfit = world_unfit(c, evs)  # lead rule AE: settings shown that cannot form the world the store waits for
    if unfit is not None:
        return unfit
    ep = next((e.data["endpoint"] for e in evs if e.data.get("endpoint")), None)
    rdzv = any(e.data.get("rendezvous") for e in evs)
    # the port where any line names it (a bind line's port before the listen failure that names none)
    in_use = next((e.data["in_use"] for e in evs if e.data.get("in_use")), None) or next(
        (e.data["in_use"] for e in evs if e.data.get("in_use") is not None), None)
    missing = sorted({e.data["env_missing"] for e in evs if e.data.get("env_missing")})
    urls = [e for e in evs if "init_url" in e.data]
    if urls:  # the launcher logged the init_method init_process_group raised on
        url = next((e.data["init_url"] for e in urls if e.data["init_url"]), None)
        if url is None:
            what = ("init_process_group raised, and the launcher's record of the URL it was given says None: no "
                    "dist_url / init_method reached the workers, so torch fell back to env:// and found no "
                    "MASTER_ADDR/MASTER_PORT -- the rendezvous endpoint was never given to them; a launch-script "
                    "setting, not a rank")
        else:
            what = (f"init_process_group raised on the rendezvous URL {url} (the launcher's record): the workers could "
                    "not set up the store at that endpoint -- unreachable, its port taken, or a rank never arrived; "
                    "no rank is at fault")
        return Verdict(
            "store_rendezvous", what,
            "Pass the rendezvous URL to every worker: the launch call's dist_url (detectron2's launch(main, ..., "
            "dist_url=args.dist_url), --dist-url tcp://HOST:PORT or 'auto') or init_process_group(init_method="
            "'tcp://HOST:PORT'), or set MASTER_ADDR and MASTER_PORT for env://; with a URL given, check the port is "
            "free (ss -ltnp | grep PORT) and reachable from every node (nc -zv HOST PORT).",
            "medium", [], [e.brief() for e in urls[:3]])
    if missing:
        return Verdict(
            "config",
            f"init_process_group's env:// rendezvous found {', '.join(missing)} unset: the script was started "
            "without a launcher (plain `python train.py`), so no rank knows the others",
            "Launch with torchrun / accelerate launch (torchrun --nproc-per-node=N train.py; multi-node: --nnodes, "
            "--rdzv-endpoint), deepspeed, or on an older torch launch with torch.distributed.launch / torchrun's "
            "predecessor (python -m torch.distributed.launch --nproc_per_node=N), which set MASTER_ADDR, MASTER_PORT, "
            "RANK, WORLD_SIZE and LOCAL_RANK for the env:// rendezvous; or set RANK / WORLD_SIZE / MASTER_ADDR / "
            "MASTER_PORT yourself for every process. Under Slurm, start the launcher in each node's task (srun "
            "torchrun --nproc-per-node=N --nnodes=$SLURM_NNODES --rdzv-endpoint=HOST:PORT train.py), or with one "
            "Slurm task per GPU map SLURM_PROCID/SLURM_NTASKS/SLURM_LOCALID to RANK/WORLD_SIZE/LOCAL_RANK in each "
            "task. A single-process run inside another "
            "program (a GUI or notebook node) can instead pass rank= and world_size= explicitly to init_process_group: "
            "init_process_group(world_size=1, "
            "rank=0) with an init_method file:// or tcp://127.0.0.1:PORT, or run without distributed (a framework's "
            "launcher none, distributed off). "
            + f"With one GPU, launch with torchrun / torch.distributed.launch so {' and '.join(missing)} "
            f"{'is' if len(missing) == 1 else 'are'} set too (torchrun --nproc_per_node=1)"
            + (": accelerate launch with one process and no --multi_gpu runs the script as plain python, without the "
               "launcher's variables." if _accelerate_shown(c, evs) else "."),
            "high", [], _samples(c, "store_timeout"))
    if any(e.data.get("not_a_host") for e in evs):  # the IPv6 lookup warning naming a file path as the host
        ep = next(e.data["endpoint"] for e in evs if e.data.get("not_a_host"))
        return Verdict(
            "store_rendezvous",
            f"the store's endpoint is {ep}: a file path where the master's host name belongs, so its name resolution "
            "can never succeed and no rank reaches the rendezvous endpoint -- the launch put another argument or "
            "environment line in MASTER_ADDR (a shifted argument, a sourced file's path); the IPv6 warning is where "
            "it shows, not a harmless lookup",
            "Fix the rendezvous endpoint the launch passes: MASTER_ADDR / main_process_ip (accelerate config, "
            "--main_process_ip), torchrun --master-addr / --rdzv-endpoint, or the launcher config / hostfile, to rank "
            "0's IP address or a host name every node resolves; print MASTER_ADDR in each node's launch script.",
            "medium", [], _samples(c, "store_timeout"))
    if any(e.data.get("dns") for e in evs):
        ep = next((e.data["endpoint"] for e in evs if e.data.get("endpoint")), "MASTER_ADDR")
        return Verdict(
            "store_rendezvous",
            f"the store's host name ({ep}) does not resolve on this node (DNS / /etc/hosts): the rank cannot even look "
            "up where rank 0's store is",
            "Set MASTER_ADDR (or --rdzv-endpoint) to rank 0's IP address, or make its host name resolve on every node "
            "(host name resolution (DNS): getent hosts NAME; /etc/hosts, the cluster's DNS, a Kubernetes headless "
            "service); between containers, put both containers on one user-defined docker network (docker network "
            "create / --network), where the master container's name resolves.",
            "high", [], _samples(c, "store_timeout"))
    if any(e.data.get("closed") for e in evs):
        return Verdict(
            "store_rendezvous",
            "the rendezvous is closed (RendezvousClosedError): an agent already shut this rendezvous down — the job "
            "finished or failed on another node, or a previous run with the same --rdzv-id closed it",
            "Start the job again with a new --rdzv-id (rdzv_id) or restart every node together, so they join one "
            "fresh rendezvous; if another node failed first, its log holds that first failure and the cause. If this "
            "node only came late (still provisioning when the others had closed the round), start every node's agent "
            "before the rendezvous closes, or let the round wait longer for late nodes: --rdzv-conf "
            "timeout=...,last_call_timeout=... (the join and last-call timeouts), or --nnodes MIN equal to the full "
            "node count so the rendezvous waits for every node.",
            "high", [], _samples(c, "store_timeout"))
    etcd = next((e.data["etcd"] for e in evs if e.data.get("etcd")), None)
    if etcd and any(e.data.get("etcd_down") for e in evs):  # its client never reached the etcd server (lead rule L)
        return Verdict(
            "store_rendezvous",
            f"the etcd rendezvous backend's client cannot reach its etcd server ({etcd}): no etcd server is listening "
            "at that endpoint (or it is unreachable from this node), so the agent never starts its rendezvous and no "
            "worker starts; no rank is at fault",
            "Start an etcd server (v2 API) reachable by every node and point every agent at it with "
            "--rdzv-endpoint=<etcd_host>:2379 (etcd-v2 defaults to localhost:2379 when no endpoint is given); enable "
            "etcd's v2 API (ETCD_ENABLE_V2=true / etcd --enable-v2: the client reads /v2/machines) and check the "
            "rendezvous endpoint host/port is reachable (curl http://<etcd_host>:2379/v2/machines from each node); or "
            "use --rdzv-backend=c10d with an --rdzv-endpoint instead of etcd, which needs no etcd server.",
            "medium", [], _samples(c, "store_timeout"))
    if etcd:  # torchelastic's etcd rendezvous backend: its key-value store failed, not a rank (lead rule L)
        return Verdict(
            "store_rendezvous",
            f"the etcd rendezvous backend raised {etcd}: the agents' rendezvous state in etcd is missing or the etcd "
            "server cannot be reached, so no node completes the rendezvous; no rank is at fault",
            "Check the etcd server every agent uses (etcdctl --endpoints HOST:2379 endpoint health; etcdctl get "
            "--prefix /torchelastic), give each run its own --rdzv-id, and restart every node together; or use "
            "torchrun's c10d rendezvous backend (--rdzv-backend=c10d --rdzv-endpoint HOST:PORT), which needs no etcd.",
            "medium", [], _samples(c, "store_timeout"))
    pmix = [e for e in evs if e.data.get("pmix")]
    if pmix:  # Slurm PMIx's fence: the launcher's own key-value exchange between the nodes (lead rules L, R)
        return Verdict(
            "store_rendezvous",
            "Slurm's PMIx plugin (srun --mpi=pmix) timed out in its collective (the fence, its key-value exchange "
            "between the job's nodes): the slurmstepd of one node never heard from its neighbour, before the job's "
            "processes reached NCCL; the launcher's rendezvous between the nodes failed, no rank is at fault",
            "Check the connection between the nodes' slurmstepd daemons that PMIx uses: a firewall between the nodes "
            "(PMIx's direct connections use ports outside slurmd's), the interface and host names each node resolves "
            "for the other, the same Slurm/PMIx version on every node; try srun --mpi=pmi2 (or without PMIx) to tell "
            "PMIx from the network; slurmd's log (SlurmdDebug=debug) on both nodes shows the failed connection.",
            "medium", [], [e.brief() for e in pmix[:3]], job_wide=True)
    kvs = [e for e in evs if e.data.get("kvs")]
    if kvs:  # oneCCL's own rendezvous (lead rule L)
        said = [e.data["kvs"] for e in kvs]
        iface = any("interface" in w for w in said)
        return Verdict(
            "store_rendezvous",
            f"oneCCL's key-value store (kvs, its rendezvous) failed: {said[0][:160]} -- "
            + ("it found no network interface to take its address from (it skips lo unless CCL_KVS_IFACE names "
               "one)" if iface else "the ranks could not reach the kvs main server (rank 0's address and port) in "
               "time, or could not set it up")
            + "; no rank is at fault",
            "Point oneCCL's kvs at an address every rank reaches: CCL_KVS_IFACE=<interface the nodes share> (ip -br "
            "addr), or CCL_KVS_IP_EXCHANGE=env with CCL_KVS_IP_PORT=<rank 0's IP>_<port> (torch-ccl takes "
            "MASTER_ADDR/MASTER_PORT); check that port is open between the nodes (nc -zv HOST PORT) and that rank 0 "
            "started; CCL_LOG_LEVEL=debug shows the address each rank uses.",
            "high", [], [e.brief() for e in kvs[:3]])
    conn = [e for e in evs if e.data.get("store_conn")]
    if conn and len(conn) == len(evs) and all(e.data.get("mesh") for e in conn):
        return _xrt_mesh(conn)
    if conn and len(conn) == len(evs) and all(e.data.get("grpc") for e in conn):
        # a gRPC channel to the job's coordination service (JAX's coordinator): its store, not NCCL's (lead rule L)
        ep = next((e.data["endpoint"] for e in conn if e.data.get("endpoint")), None)
        return Verdict(
            "store_rendezvous",
            "the job's coordination service (its key-value store and rendezvous, spoken over gRPC"
            + (f", at {ep}" if ep else "") + f") could not be reached: '{conn[0].data['store_conn']}' -- the "
            "coordinator's process was not (or no longer) listening there, or the address, port or network between "
            "the hosts is wrong; no rank is at fault from these lines",
            "Check the coordinator address and coordinator port every process is given (jax.distributed.initialize"
            "(coordinator_address='HOST:PORT', num_processes, process_id), or the cluster spec of TF's coordination "
            "service): HOST must be process 0's address as the other hosts reach it, the port open in the firewall "
            "(nc -zv HOST PORT from each host); read the logs of the coordinator process (process 0) for why it was "
            "not listening (it had not started yet, or it exited), and give a slow start more time "
            "(initialization_timeout).", "medium", [], [e.brief() for e in conn[:3]], job_wide=True)
    if conn and len(conn) == len(evs):  # the store client's own connection failing (lead rules L, Y)
        said = conn[0].data["store_conn"]
        proto = "Stop_waiting" in said
        ctor = any(e.data.get("ctor") for e in conn)  # parse._store_ctor_reset: reset in TCPStore's constructor
        return Verdict(
            "store_rendezvous",
            f"the store client failed before any collective ran ('{said}'): "
            + ("the process at MASTER_ADDR:MASTER_PORT answered with something other than the TCPStore protocol's "
               "reply -- another service, a stale job or a store of another kind holds that port (or the address "
               "and port given were empty)" if proto else
               "the connection to the rendezvous store (rank 0's TCPStore at MASTER_ADDR:MASTER_PORT) could not be "
               "made or was cut while connecting")
            + "; a setting or the network every rank shares, no rank is at fault",
            ("Give the launch an explicit, free master port and address (--master_port / --master_addr, "
             "MASTER_PORT / MASTER_ADDR): `ss -ltnp | grep PORT` shows another process on the port; kill stale jobs "
             "or pick another port. " if proto else "")
            + "Check that MASTER_ADDR resolves to an address every node reaches (127.0.0.1 / localhost on one "
            "machine; not a hostname that resolves elsewhere), that MASTER_PORT is open in the firewall (nc -zv HOST "
            "PORT from each node) and that the store host (rank 0) is up; in Kubernetes the master pod's service and "
            "network policy."
            + (" The TCPStore connection was reset at connect, on the constructor's first request after connecting "
               "(waitForWorkers' incrementValueBy), which the client does not retry: retry the store connection "
               "(newer torch validates it with a ping and retries a reset; upgrade torch), check the store server is "
               "not overloaded (many clients at once: the listen backlog, net.core.somaxconn; the libuv backend, "
               "use_libuv) and that no load balancer / firewall resets connections between the workers and the "
               "store; TORCH_CPP_LOG_LEVEL=INFO with TORCH_DISTRIBUTED_DEBUG=DETAIL shows the store's side."
               if ctor else ""), "medium", [], [e.brief() for e in conn[:3]], job_wide=True)
    denied = next((e.data["bind_denied"] for e in evs if e.data.get("bind_denied") is not None), None)
    if denied is not None:
        return Verdict(
            "store_rendezvous",
            f"the store could not listen on port {denied}: permission denied (errno 13)"
            + (" — a port below 1024 needs root" if denied < 1024 else " — the port is reserved or blocked here")
            + "; no rank is at fault",
            "Choose a free port above 1024 for the store: torchrun --master_port N (MASTER_PORT=N, master_port in "
            "the launcher's config); `ss -ltnp | grep PORT` shows whether it is also taken.",
            "high", [], _samples(c, "store_timeout"))
    if in_use is not None and (over := _launchers_per_node(c, in_use)) is not None:
        return over
    if in_use is not None:
        port = f"port {in_use}" if in_use else "the store's port"
        # accelerate checks the port itself before it starts anything, and says so in its own words
        acc = any(e.data.get("accelerate") for e in evs)
        return Verdict(
            "store_rendezvous",
            (f"accelerate launch found the rendezvous {port} (its main_process_port, the store's MASTER_PORT) already "
             "bound by another process on this host and started no worker" if acc else
             f"the store could not listen: {port} is already in use on this host (errno 98)")
            + " — another job (or a leftover process of an earlier one) holds it, or two processes both try to host "
            "the store",
            ("Port already in use: pass accelerate launch --main_process_port N, or set main_process_port in the "
             "accelerate config file (0 picks a free port on one node). " if acc else "")
            # the port named where it is known; else the error's words once (review 102 (1) finding 7: not "Address
            # already in use (the store's port already in use on this host)")
            + (f"Address already in use ({port} already in use on this host)" if in_use else
               "Address already in use on this host")
            + ", EADDRINUSE"
            + ": pick a free port for each run -- use a "
            "free MASTER_PORT / --master_port, a different port per job on a shared node (give each concurrent job its "
            "own MASTER_PORT): torchrun --master_port N "
            "(MASTER_PORT=N) or "
            "--rdzv_endpoint=HOST:PORT (--rdzv-endpoint=localhost:0 on one node lets torchrun pick a free one); a "
            "port hard-coded in the launch script or code overrides MASTER_PORT, so change it there; find the holder "
            "with lsof / netstat (`ss -ltnp | grep PORT`, lsof -i :PORT) and kill a stale process of an earlier run "
            "(two jobs on the same port collide; do not start two server instances with the same port on one host, "
            "and in a test suite call destroy_process_group at the end of each test so the store's port is "
            "released); do not call init_process_group with a hand-made store when torchrun already hosts one. "
            # the same remedy in a shared node's words (round 110's cdial-gpt-103: torch.distributed.launch's default
            # 29500 taken by another job)
            "Don't run two jobs on one node with the same master port (torchrun and torch.distributed.launch both "
            "default to 29500): give each its own."
            + (_FT_IN_USE_FIX if any(e.data.get("ft_coord") for e in evs) else "")
            + (_EPHEMERAL_IN_USE_FIX.format(port=in_use) if _EPHEMERAL[0] <= in_use <= _EPHEMERAL[1] else "")
            + (_VLLM_IN_USE_FIX if _vllm_executor(c, evs) else ""),
            "high", [], _samples(c, "store_timeout"))
    if all(e.data.get("key0") for e in evs):
        return _key0_wait(c, evs)
    printed = next(iter(c.settings.get("PET_RDZV_ENDPOINT") or {}), None)  # torchrun's printed launch config
    if ep is None and rdzv and printed:
        ep = printed if ":" in printed else f"{printed}:29400"  # the c10d rendezvous's default port
    what = (
        f"the TCPStore/rendezvous endpoint {ep} was not reachable"
        + (" (rdzv_endpoint without a port: the default 29400)" if printed and ":" not in printed else "")
        if ep
        else "the rendezvous did not complete"
        if rdzv
        else "the store client could not connect to the store (its address not in these lines)"
        if any("has failed to connect" in e.text for e in evs)
        else "the store timed out"
    )
    over = _store_overcount(c, ks)
    if over is not None:
        return over
    joined = next((e.data["joined"] for e in evs if e.data.get("joined")), None)
    if joined and joined[0] < joined[1] and all(e.data.get("quorum") for e in evs):
        return _quorum_short(c, joined)
    if joined and joined[0] < joined[1]:  # the store was up and reachable: ranks are missing
        return Verdict(
            "store_rendezvous",
            f"only {joined[0]} of {joined[1]} ranks reached the store "
            + ("while the waiting rank polled its store-based barrier" if any(e.data.get("barrier_wait") for e in evs)
               else "before the timeout")
            + f": the store worked, the other "
            f"{joined[1] - joined[0]} never started (a node not launched, a wrong --nnodes / --nproc-per-node / "
            "WORLD_SIZE) or died before init_process_group",
            f"{joined[1] - joined[0]} of {joined[1]} clients never joined the store (worker_count {joined[0]}): they "
            "either never started or could not reach it. Check that every node and process was started, with the "
            "same --nnodes, --nproc-per-node and --rdzv-id (or MASTER_ADDR/WORLD_SIZE), that MASTER_ADDR:MASTER_PORT "
            "is reachable from every node (nc -zv), and read the missing ranks' own logs for an error before "
            "init_process_group (a py-spy dump of a process that has not joined shows where it is). If every rank is "
            "only slow to start (imports, model build, data preprocessing before init_process_group), the timeout is "
            "too short for the store based barrier: raise init_process_group(timeout=...) (ddp_timeout in HF "
            "Trainer), or preprocess before the launch." + _server_waited(evs, joined),
            "high", [], _samples(c, "store_timeout"))
    # a count of 0 joined does not stop this reading (commit 8dbe1c8a, stated by review 98 finding 11): a count of 0
    # of N > 0 ("worker_count=0", "0/N clients", torchft's "No quorum, only have 0 participants") returned above as
    # "only 0 of N ranks reached the store", so only a count with no world in it ("world_size=0, worker_count=0")
    # reaches here, and it says nothing against what waitForInput shows: this rank connected and waited (a victim)
    if any(e.data.get("waited_input") for e in evs) and not any((e.data.get("joined") or (0,))[0] > 0 for e in evs):
        waiting = sorted({e.rank for e in evs if e.rank is not None})
        return Verdict(
            "store_rendezvous",
            f"{_named(waiting) if waiting else 'a rank'} connected to the store at {ep or 'MASTER_ADDR:MASTER_PORT'} "
            "and waited the whole timeout for a reply that never came: the store was reachable from here, so these "
            "ranks are victims; what they wait for is the registration of ranks that never joined (another node "
            "that could not reach the store, or never started)",
            "Find the ranks that never joined: check that the other node(s) were started and can reach "
            f"{ep or 'MASTER_ADDR:MASTER_PORT'} (nc -zv HOST PORT from each node; the address must resolve to a "
            "reachable address there, over the same family: IPv4 vs IPv6 from the host name's lookup), with "
            "MASTER_ADDR / --dist-init-addr / --rdzv-endpoint naming an address every node can route to; then read "
            "the missing ranks' own logs." + (_EXIT_BARRIER if not waiting and any(
                "timed out after 300000ms" in e.text for e in evs if e.data.get("waited_input")) else ""),
            "high", [], _samples(c, "store_timeout"))
    if all(e.data.get("gloo_store") for e in evs):
        return _gloo_store_read(evs)
    if ep and ep.startswith(("127.", "localhost")) and len(hosts(c)) > 1:
        what += (f" — a loopback address while the job spans {len(hosts(c))} hosts: "
                 "MASTER_ADDR must be rank 0's routable address")
    elif loopback_master(c):
        what += " — " + loopback_master(c)
    elif ep and _cgnat(ep):
        what += (f" — {ep.rsplit(':', 1)[0]} is in 100.64.0.0/10, the carrier-grade NAT range VPN overlays use "
                 "(Tailscale, ZeroTier): the store must listen on that VPN address and the port be open through it")
    # a loopback endpoint on one host (rules L, Y): no route or firewall between nodes is involved -- the store that
    # should listen on this machine never did on that port (its host process not started or gone, a stale process
    # of an earlier run on the port, the processes given different ports): round 79's monouni-18
    local = ep and ":" in ep and is_loopback(ep) and len(hosts(c)) <= 1 and not loopback_master(c)
    port = ep.rsplit(":", 1)[1] if local else ""
    return Verdict(
        "store_rendezvous",
        what + ": either the node that hosts the store (MASTER_ADDR, rank 0's node) never "
        "started it or died, or the address/port is not reachable from the other nodes",
        f"From every node: nc -zv {ep.replace(':', ' ') if ep else 'MASTER_ADDR MASTER_PORT'} must connect; "
        "MASTER_ADDR must be an address the other nodes can route to (not 127.0.0.1 or a container-internal "
        "name) and the --rdzv-endpoint (rdzv_endpoint) port must be open in the firewall between the nodes; all "
        "nodes must be started with the same --nnodes and --rdzv-id; check that the store's node is up. "
        "`ncclDoctor check --nodes N` tests the rendezvous first."
        + (_vllm_store_fix(ep) if _vllm_worker(c, evs) else "")
        + (f" {ep} is this host's own loopback address: the store is on this machine, so nothing listened on port "
           f"{port} here -- check that the process hosting the store (rank 0, or the launcher's agent) started and "
           f"is still up (ss -ltnp | grep {port}), that no stale process of an earlier run holds the port (pick a "
           "free port: --master_port / MASTER_PORT), and that every process was given the same MASTER_ADDR / "
           "MASTER_PORT (init_method)." if local else "")
        + (_NO_ROUTE_FIX + _resolved_elsewhere(evs) if not local and any("No route to host" in e.text for e in evs)
           else "")
        + (f" 'Connection refused' (errno 111): {ep or 'the store address'} was reached but nothing listened on "
           "that port -- start the store's host (rank 0 / node 0) first and check it is still up and listening there "
           "(ss -ltnp), with the same MASTER_PORT on every node." if not local and ep
           and any("Connection refused" in e.text for e in evs) else "")
        + (_IPV6_ONLY_FIX if not local and _ipv6_lookups_failed(c) and not _connect_tried(c, evs) else ""),
        "high",
        [],
        _samples(c, "store_timeout"),
    )


# torchft's lighthouse (or a replica's manager server) could not bind (lead rule AN (2); round 108's torchft-30):
# its own --bind, not torchrun's MASTER_PORT, picks that port
_FT_IN_USE_FIX = (" torchft: another lighthouse (or a stale one) already listens on the port: find it with ss -ltnp / "
                  "lsof -i and kill it, or start the lighthouse with a free --bind address/port (torchft_lighthouse "
                  "--bind 0.0.0.0:PORT; its default is 29510) and point the replicas' TORCHFT_LIGHTHOUSE at the new "
                  "address -- or at the lighthouse that is already running instead of starting a second; a replica's "
                  "own manager server (ManagerServer) that cannot bind needs a free port of its own.")
# Linux's default ephemeral range (net.ipv4.ip_local_port_range 32768 60999): a store port inside it can be taken by
# any outgoing connection's local port, not only by another listener (round 108's enroot-243, pytorch-68716)
_EPHEMERAL = (32768, 60999)
_EPHEMERAL_IN_USE_FIX = (" Port {port} lies in the ephemeral port range (net.ipv4.ip_local_port_range, 32768-60999 "
                         "by default), where any outgoing connection may already own it: choose a MASTER_PORT "
                         "outside the ephemeral port range (net.ipv4.ip_local_port_range), or bind the store to "
                         "port 0 and read back the port it got; check with ss -ltnp / lsof which process holds the "
                         "port.")


# errno 113 (EHOSTUNREACH) on the store client's connect: the address was found but no route reaches it (lead rule L;
# round 100's pytorch-85300, a name in /etc/hosts for an address of no route) -- the name, the route or a firewall
_NO_ROUTE_FIX = (" 'No route to host' (errno 113, EHOSTUNREACH) means the name resolved but nothing routes to that "
                 "address from this node: fix the /etc/hosts entry so the master's name resolves to its "
                 "routable IP, check the route and firewall to it (ip route get ADDR, ping ADDR; a firewall rejecting "
                 "with icmp-host-prohibited gives the same errno), start the rendezvous host (node 0) first and check "
                 "the port is open (firewall), give --master_addr and --rdzv_endpoint the same address, and use "
                 "--standalone (or localhost) for a single node; check name resolution on every node (getent hosts / "
                 "/etc/hosts) and use the IP address of the master's data interface for MASTER_ADDR.")


def _resolved_elsewhere(evs: list) -> str:
    """The store client's error naming the host it was given and the name it connected to ("failed to connect to any
    network address of (bun003, 9901). ... failed to connect to bun003.admin:9901 (errno: 113 - No route to host)"):
    the short name resolved to another network's name (round 108's uq-rcc-hpc-docs-2, lead rule L)."""
    for e in evs:
        m = _R_ANY_ADDR_OF.search(e.text)
        to = _R_CONNECT_HOST.findall(e.text) if m else []
        other = next((h for h in to if h != m.group(1) and h.split(".")[0] == m.group(1).split(".")[0]), None)
        if other:
            # worded as a check: the added label may be the DNS search domain of the same network (review b of
            # round 108, finding 4: gpu01 -> gpu01.cluster.local)
            return (f" {m.group(1)} resolves to {other} here: check that {other} is an address on the network the "
                    f"nodes share (getent hosts {m.group(1)} on every node); if it is another network's name (an "
                    "admin / management network), set MASTER_ADDR to the master's name or IP on the shared network.")
    return ""


_R_ANY_ADDR_OF = re.compile(r"any network address of \(\[?([\w.-]{1,255})\]?, \d{1,5}\)")
_R_CONNECT_HOST = re.compile(r"failed to connect to \[?([\w.-]{1,255})\]?:\d{1,5}")


def _ipv6_lookups_failed(c: Collected) -> bool:
    """c10d's IPv6 lookup warning ("The IPv6 network addresses of (HOST, PORT) cannot be retrieved (gai error: -2 -
    Name or service not known)") beside a store client that never connected: harmless where the client goes on to
    IPv4 (verdict.noise), but here nothing connected (round 108's pytorch-131691)."""
    return any(e.data.get("what") == "IPv6 lookup warning" and "gai error" in e.text
               for e in c.samples.get("benign", []))


def _connect_tried(c: Collected, evs: list) -> bool:
    """A connect attempt the lines show failing with its errno ("failed to connect to [node0]:29500 (errno: 111 -
    Connection refused)"): the client got an address and tried it, so the IPv6-only words do not apply (review b of
    round 108, finding 5; torch 2.x prints the IPv6 warning on every host without an AAAA record)."""
    return any("failed to connect to" in e.text and "(errno:" in e.text
               for e in list(evs) + list(c.samples.get("store_timeout", [])))


_IPV6_ONLY_FIX = (" The client's IPv6 lookups of the store's host failed (gai error) and no connect succeeded: set "
                  "MASTER_ADDR to an IP address instead of a hostname (MASTER_ADDR as an IPv4 address literal), make "
                  "the master hostname resolvable on every node (/etc/hosts, DNS), or upgrade torch to a release "
                  "whose client falls back from IPv6 to IPv4; TORCH_CPP_LOG_LEVEL=INFO / "
                  "TORCH_DISTRIBUTED_DEBUG=DETAIL to see each connect attempt.")


# A vLLM worker's own frames: its package path, the call that sets up its process group, Ray's wrapper of its workers
_VLLM_MARKS = ("/vllm/", "\\vllm\\", "init_worker_distributed_environment", "RayWorkerWrapper")


def _vllm_worker(c: Collected, evs: list[Event]) -> bool:
    """The store client that could not connect is a vLLM worker: its traceback's frames (read or cut) or its own line
    carry vLLM's package path, vLLM's process-group set-up or Ray's wrapper of vLLM's workers. Its store is none of
    torchrun's: vLLM hands every worker the driver's distributed_init_method (tcp://IP:PORT, IP the address vLLM picked
    for the driver's node, VLLM_HOST_IP where set), so that address is what an expert checks (lead rules L, Y)."""
    if any(e.data.get("vllm") for e in evs):  # parse.store_vllm: in the traceback of vLLM's set-up call
        return True
    seen = [*evs, *c.samples.get("tb_cut", []), *c.exceptions[:32]]
    return any(m in e.text or m in str(e.data.get("code") or "") for e in seen for m in _VLLM_MARKS)


# vLLM's own multiprocess executor (vllm/v1/executor/multiproc_executor.py) logging its worker's error: the port is
# one vLLM picked itself for its workers' process group (round 104's verl-6677: rollout servers started at once)
_VLLM_EXECUTOR_MARKS = ("multiproc_executor.py", "(VllmWorker", "(vLLMHttpServer")
_VLLM_IN_USE_FIX = (
    " The process is a vLLM worker: vLLM's executor picks a free port itself for its workers' process group, and "
    "two engines started at once on one node (several vLLM servers, an RL framework's rollout engines) can pick the "
    "same one -- give each engine its own port (VLLM_PORT, a distinct port per instance), start the engines one "
    "after another, and stop a vLLM engine left from an earlier run (ss -ltnp / lsof show the holder).")


def _vllm_executor(c: Collected, evs: list[Event]) -> bool:
    return _vllm_worker(c, evs) or any(m in e.text for e in evs for m in _VLLM_EXECUTOR_MARKS)


def _vllm_store_fix(ep: str | None) -> str:
    return (f" The client is a vLLM worker: {ep or 'the address'} is the vLLM driver's distributed_init_method address "
            "(the IP vLLM picked for the driver's node and a free port), which every worker connects to -- set "
            "VLLM_HOST_IP on each node to that node's address the others reach (the ray node IP: ray start "
            "--node-ip-address), GLOO_SOCKET_IFNAME / NCCL_SOCKET_IFNAME to its interface, open the port range "
            "between the nodes in the firewall, and stop a vLLM engine left from an earlier task (it holds the GPUs "
            "and ports).")


def _key0_wait(c: Collected, evs: list[Event]) -> Verdict:
    """Lead rules G and Y: a connected process's store read that timed out naming the one key it waited for, key '0'
    ("Wait timeout for key(s): 0": gloo's store wait, Horovod's HTTP rendezvous store) -- the key rank 0 publishes
    (its address for the gloo rendezvous, the unique id), no refusal or reset shown: the store answered, rank 0 never
    got there. rank_missing, culprit rank 0, the waiting ranks innocent (an abort after it is the exception's
    terminate, not a first failure)."""
    waiting = sorted({e.rank for e in evs if e.rank is not None} - {0})
    # Horovod's words: its name on the line, or its HTTP store's own wording ("Wait timeout after 30 seconds for
    # key(s)": horovod/common/gloo/http_store.cc; gloo's and torch's say "Wait timeout for key(s)"), which a wrap
    # before "HOROVOD_GLOO_TIMEOUT_SECONDS" leaves alone on its line (ruling 8 of review 109 b)
    hvd = any("horovod" in e.text.lower() or " seconds for key(s)" in e.text for e in evs)
    # the wait the line names ("Wait timeout after 30 seconds"): the timeout to raise beyond
    secs = next((k.group(1) for e in evs if (k := R_STORE_KEY0.search(e.text)) and k.group(1)), None)
    return Verdict(
        "rank_missing",
        f"{_named(waiting) if waiting else 'a process (its rank not shown)'} was connected to the rendezvous store "
        "and timed out waiting for key '0', the key rank 0 publishes (its address / id): the store answered, rank 0 "
        "never reached the rendezvous in time (slow to start, stuck or gone); the waiting ranks are its victims, "
        "and the abort after it is that exception's terminate",
        "Find why rank 0 never reached the rendezvous: its own log (an error or a slow start before it), its host "
        "started and reachable on the interface the job uses"
        + (" (HOROVOD_GLOO_IFACE / --network-interface), horovodrun hosts / slots; at many nodes rank 0 can be "
           "slow to start: raise the gloo timeout (horovodrun --gloo-timeout-seconds, "
           + (f"increase HOROVOD_GLOO_TIMEOUT_SECONDS beyond {secs} s" if secs else "HOROVOD_GLOO_TIMEOUT_SECONDS")
           + " / --start-timeout), or use the MPI controller instead of gloo; check the rendezvous server address "
           "reachability from every worker (horovodrun's HTTP store on the driver)" if hvd else
           " (GLOO_SOCKET_IFNAME / NCCL_SOCKET_IFNAME); py-spy dump rank 0's process while the others wait; raise "
           "the store / process-group timeout (init_process_group(timeout=...)) if rank 0 is only slow to start")
        + ".",
        "medium", [0], [e.brief() for e in evs[:3]])


def _gloo_store_read(evs: list[Event]) -> Verdict:
    """Lead rule AI (1): the C++ backtrace of an exception thrown inside gloo's own store read at a gloo group's
    set-up (gloo::rendezvous::PrefixStore::wait, under ProcessGroupGloo's constructor connecting the full mesh): the
    wait for the peers' addresses failed -- store_rendezvous; which process never published its address the lines do
    not say, and a Ray actor's prefix is no rank (rule AD (2)): nobody named."""
    frame = evs[0].data["gloo_store"]
    return Verdict(
        "store_rendezvous",
        (f"the exception was thrown inside gloo's store read at a gloo group's set-up ({frame}, the frame "
         "ProcessGroupGloo's construction reaches through connectFullMesh / createAndConnectAllPairs, which read "
         "every peer's address from the store before connecting to it)" if "PrefixStore" in frame else
         f"a bare timeout ('{evs[0].data.get('said', '')}') was raised right under {frame}, with no gloo connect "
         "text and no peer address: the constructor reads every peer's address from the store before connecting "
         "to it, and that exchange timed out")
        + ": the wait for the other processes' addresses "
        "failed -- a process of the group never published its address (never started, never reached the same "
        "group creation, or crashed or hung before it) or the store could not be reached; which one the lines do not "
        "say, so nobody is named",
        "Check that every worker of the group started and reached the same init_process_group / new_group call "
        "(every worker started / all ranks reach init_process_group; under Ray, that every actor of the group was "
        "scheduled -- Ray worker placement, `ray status`, each actor's own log for an earlier error); py-spy dump "
        "--pid the processes that did not arrive to see where they are (a py-spy dump of the stuck worker); check "
        "MASTER_ADDR reachable from every node (nc -zv MASTER_ADDR MASTER_PORT, the firewall on the store port "
        "between the nodes); raise the group's store timeout (init_process_group / new_group timeout=) if some are "
        "only slow to start; once all arrive, gloo connects over GLOO_SOCKET_IFNAME (an interface every node can "
        "route to).",
        "medium", [], [e.brief() for e in evs[:3]])


def _exit_barrier(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """torchrun's agent failing its exit barrier (the store barrier every node's agent enters after its own workers
    ended) with nothing else failing in the lines: no worker of this node failed, so the barrier is the failure shown
    -- the other nodes' agents never checked in to the rendezvous store within its timeout (still running, gone, or
    the store's host gone). The launcher's own store barrier is store_rendezvous (lead rules R, Y); which node did not
    arrive is not in these lines: nobody named. With a worker shown failing, that failure decides (other detectors)."""
    heads = [e for e in c.samples.get("exit_barrier", []) if e.data.get("head")]
    if not heads or c.child_failures or c.worker_failures or any(c.kinds.get(k) for k in ERROR_KINDS):
        return None
    el = next((e.data["elapsed"] for e in heads if e.data.get("elapsed")), None)
    return Verdict(
        "store_rendezvous",
        "torchrun's agent timed out in its exit barrier"
        + (f" after {el:.0f} s" if el else "")
        + ": after this node's workers finished, its agent waited in the rendezvous store for every other node's "
        "agent and they never checked in (still running or hung, gone, or the store's host gone); no worker of this "
        "node is shown failing, and which node did not arrive is not in these lines",
        "Read the other nodes' logs (their agents and workers) around this time: a node still training (unequal work "
        "per node, a hang) or one that died leaves the others waiting here; raise the barrier's timeout if the nodes "
        "legitimately finish far apart (TORCHELASTIC's exit barrier: the agent's exit_barrier_timeout, 300 s by "
        "default); check that the rendezvous endpoint's host (--rdzv-endpoint / MASTER_ADDR) stayed up.",
        "low", [], [e.brief() for e in heads[:3]])


# an xm.rendezvous tag of the job's set-up (xmp.spawn examples' 'init', a 'download_only_once' of the data before
# training): a service failing there is rule AS (1)'s start-up failure. Whole words of the tag only, at its start
# ('init', 'download_only_once', 'load_data') or its end ('model_init'): 'reload_after_epoch', 'epoch_start',
# 'upload_ckpt' and 'reinit_opt' are steps of the run (review r3 of session 35)
_SETUP_TAG = re.compile(r"(?i)^(?:init(?:iali[sz]e)?|setup|set_up|start|download|prepare|load)(?![a-z])|"
                        r"(?<![a-z])(?:init|setup|set_up|download|prepare)$")
# the mesh service's connection closed under a process (gRPC's "Socket closed (14)", a reset, an EOF): the service's
# host went away -- not "Deadline Exceeded", a peer that did not arrive (lead rules AS (1), AK (1))
_MESH_CLOSED = re.compile(r"(?i)\bSocket closed\b|\bConnection reset\b|\breset by peer\b|\bEOF\b")


def _xrt_mesh_gone(conn: list, tags: list[str]) -> Verdict:
    """Lead rules G, O, AK (1): every process shown failing fails a rendezvous the XRT mesh service holds for a
    step of the run past its set-up (xm.save's 'torch_xla.core.xla_model.save', a tag of the training loop) on the
    service's closed connection ('Socket closed', a reset, an EOF -- not 'Deadline Exceeded', a peer that did not
    arrive, which stays the rendezvous wait): they were connected and waiting in it when the service's host
    (the master ordinal's process) went away -- a process of the job exited mid-run: early_exit; the lines show
    neither which process died nor that it hosted the service, so nobody is named, and the processes failing only
    on the closed socket are its victims (round 90's xla-1870). A set-up tag ('init') stays rule AS (1)'s
    store_rendezvous (_xrt_mesh)."""
    why = (conn[0].data.get("rwhy") or "").strip()[:60]
    return Verdict(
        "early_exit",
        f"the processes shown failed torch_xla's rendezvous {', '.join(repr(t) for t in tags)}, a step of the run "
        f"past its set-up, on the XRT mesh service's closed connection ('{why}'): they were waiting in it "
        "when the service's host went away -- a process of the job (the master ordinal's serves the service) exited "
        "mid-run; which one, and why, the lines do not show",
        "Find the first failing process: read each process's own log (the master ordinal's first) for the one that "
        "ended before the rendezvous -- a process killed while saving (SIGKILL: the host memory ran out, dmesg OOM "
        "killer), its own exception, or an ordinal that skipped the call: every ordinal must call xm.save (it is a "
        "rendezvous; it writes from the master only, master_only=True), so call it on every process, save a smaller "
        "checkpoint or from one process, and keep the mesh service's host (XRT_TPU_CONFIG's master) up until all "
        "have passed it.", "low", [], [e.brief() for e in conn[:3]], job_wide=True)


def _xrt_mesh(conn: list) -> Verdict:
    """torch_xla's XRT mesh service failing a process that asks it for the mesh at start-up, connects to its master
    or meets a rendezvous it holds (lead rules L, Y, AS (1)): the
    job's rendezvous / configuration service, not a peer seen failing -- a reset there says the service was not
    (or no longer) serving that process (its host process gone, a stale server on the port, a forked client's
    inherited state, a runtime mismatch), which the lines do not tell apart: no rank is at fault from them."""
    said = conn[0].data["store_conn"]
    tags = {e.data.get("tag") for e in conn}
    if None not in tags and not any(_SETUP_TAG.search(t) for t in tags) and all(
            _MESH_CLOSED.search(e.data.get("rwhy") or "") for e in conn):
        return _xrt_mesh_gone(conn, sorted(tags))
    when = "in a rendezvous it holds (xm.rendezvous)" if "meet rendezvous" in said else \
        "at start-up, before any collective"
    return Verdict(
        "store_rendezvous",
        "torch_xla's XRT mesh service (the job's rendezvous and configuration service, served by the master "
        f"ordinal's process) failed a process {when}: '{said}'; "
        + ("the wait's deadline passed: a process of the job did not arrive at the rendezvous (an ordinal that "
           "skipped the call, or was still busy) or the mesh master was not serving it"
           if "deadline exceeded" in said.lower() else "the mesh master was not (or no longer) serving it")
        + ", and no rank is at fault from these lines",
        "Check that the mesh master (XRT mesh service, XRT_MESH_SERVICE_ADDRESS) is reachable and still running: "
        "read the master ordinal's process's own output for why it went away (host memory, its own error); kill "
        "stale processes holding the mesh port from an earlier run or restart the TPU runtime / notebook kernel; "
        "launch with xmp.spawn's start_method='fork' vs 'spawn' as the environment needs, and keep the torch_xla "
        "version matching the TPU runtime.", "medium", [], [e.brief() for e in conn[:3]], job_wide=True)


# c10d's FileStore failing to open its own file ("RuntimeError: open(/shared/store_file): No such file or
# directory", the store's syscall check: path in parentheses, then strerror) under torch.distributed's or DDP's frames
# (init_process_group, a collective, DDP's constructor broadcast reading NCCL's unique id through the store): the
# store file was not there when this process opened it -- the processes racing to create it, a run that deleted it,
# a path not every process sees. The store itself cannot be read (lead rules L, Y: store_rendezvous); any process can
# lose that race, and a line without a rank tag names none (rules J, AC (1)): nobody, low. The same message from other
# frames (a dataset library's C++ open) is no store and keeps its reading (round 110's pytorch-13750)
_R_FILESTORE_OPEN = re.compile(r"\bRuntimeError: open\(([^()\n]{1,600})\): No such file or directory\b")
_R_DIST_FRAME = re.compile(r"torch[/\\](?:distributed[/\\]|nn[/\\]parallel[/\\]distributed\.py)")
_FILESTORE_FIX = (
    "The FileStore's file (init_method='file://...') was not there when this process opened it: the processes race "
    "to create it, another run (or a rank) deleted it while the job ran, or it is on a filesystem not every process "
    "sees. Use a fresh, unique file:// path per run that does not exist before launch and is not deleted while the "
    "job runs (delete the stale store file before launching, never from the ranks themselves); put the file on a "
    "filesystem every rank sees, with working locking (not a flaky NFS); or switch to tcp:// or env:// "
    "initialisation (TCPStore); an old torch's FileStore opened its file racily: upgrade torch. ")


def _filestore_open(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    for e in c.exceptions:
        m = _R_FILESTORE_OPEN.search(e.text)
        frames = " ".join(str(e.data.get(k) or "") for k in ("frame_file", "caller_file", "tail_frames"))
        if m and _R_DIST_FRAME.search(frames):
            return Verdict(
                "store_rendezvous",
                f"c10d's FileStore could not open its file {m.group(1)[:160]} ({e.text.strip()[:200]}) under "
                "torch.distributed's frames: the store file was missing when this process opened it -- the "
                "processes racing to create it, or it was removed or is not visible here (lead rules L, Y); any "
                "process can lose that race, and the line names no rank (rules J, AC (1))",
                _FILESTORE_FIX, "low", [], [e.brief()], job_wide=True)
    return None
