"""A rank gone while its peers still wait (early_exit): the peers' errors of a lost connection, MPI's and
Horovod's shut-down, a process stuck tearing its group down."""

from __future__ import annotations

import re

from ncclDoctor.diagnose.lone import lone_failure
from ncclDoctor.diagnose.reason import Conclusion, _fmt_ranks
from ncclDoctor.diagnose.signatures import R_PEER_GONE, Event, strip_prefixes
from ncclDoctor.diagnose.state import Collected
from ncclDoctor.diagnose.verdict.base import Verdict, _named, _ranks, exception_text, place

# the peer's address in a peer-gone message (gloo's "Connection closed by peer [10.244.48.107]:12717")
_PEER_IP = re.compile(r"\bpeer \[?(\d{1,3}(?:\.\d{1,3}){3})\]?[:<]\d{1,5}")


# pytest's summary line of a failed test ("FAILED distributed/test_shm_broadcast.py::test_shm_broadcast -
# AssertionError: assert 1 == 0"): the test harness, which starts the test's processes itself
_PYTEST_FAILED = re.compile(r"^FAILED [\w./\-]{1,200}\.py::\w{1,120}")


def _test_store_lost(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules N, O, AK (1), AT (2), AZ (1) (round 78's vllm-18492): one rank's c10d [W] store read cut by the
    store's side (a reset, "got 0 bytes") -- news only when a failure follows, rule N -- beside pytest's FAILED line of
    the test that ran those processes, with no torchrun agent shown: the test starts its processes itself, so the
    store (an env:// or StatelessProcessGroup TCPStore) lives in rank 0's process, which left before the reader: rank
    0 exited first (early_exit), the reading rank its victim. Nothing else failing is read."""
    warns = [e for e in c.samples.get("store_warning", []) if e.data.get("store_gone") and e.rank not in (None, 0)]
    failed = [u for u in c.unread if _PYTEST_FAILED.match(u.text.strip())]
    if not warns or not failed or c.kinds.get("agent_frame") or c.exceptions or c.child_failures or (
            c.worker_failures or any(c.kinds.get(k) for k in ("watchdog_timeout", "nccl_error", "cuda_error"))):
        return None
    readers = sorted({e.rank for e in warns})
    return Verdict(
        "early_exit",
        f"rank(s) {_fmt_ranks(readers)}'s store read was cut by the store's side ({warns[0].data.get('what')}: "
        f"'{warns[0].text.strip()[:160]}') and the test that ran these processes failed "
        f"('{failed[0].text.strip()[:160]}'): the test starts its processes itself (no torchrun agent hosts a "
        "store), so the TCPStore lived in rank 0's process, which exited while the others still read from it -- "
        "rank 0 left first; the readers are its victims",
        "Keep the store's host alive until every rank is done: a barrier before exit on every rank (or "
        "destroy_process_group / closing the StatelessProcessGroup in order, rank 0 last), and find why rank 0 "
        "ended first (its own exit code and traceback in the test's output). In a test, check the teardown "
        "ordering of the processes the harness starts; a flaky test that passes on rerun is this teardown race.",
        "medium", [0], [e.brief() for e in warns[:2]] + [failed[0].brief()])


def _teardown_stuck(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """A py-spy dump of a process stuck in destroy_process_group (the last word, nothing else read):
    it left its loop to tear the group down (an exception path's cleanup, a `finally:`) while the
    other ranks were still inside collectives; tearing a group down waits for them, so both hang."""
    evs = c.samples.get("teardown_stuck", [])
    if not evs:
        return None
    ranks = _ranks(c, "teardown_stuck")
    return Verdict(
        "early_exit",
        f"{_named(ranks)} is stuck in {evs[0].data['what']} (a py-spy stack): it left the training loop early, "
        "usually on an exception, and tore its process group down while the other ranks were still in "
        "collectives with it; the teardown waits for them and they wait for it",
        "Find the exception that rank hit first (its log above the stack, or run with TORCH_SHOW_CPP_STACKTRACES=1); "
        "call dist.destroy_process_group() only when the run ends normally, not in a `finally:` or exception "
        "handler (there let the process exit with the error, so the launcher stops the others, or call "
        "the group's abort), and py-spy dump the other ranks to see the collective they wait in.",
        "low", [], [e.brief() for e in evs[:3]])


def _gone_ranks(peer_gone: list[Event]) -> list[int]:
    return sorted({e.rank for e in peer_gone if e.rank is not None})


def _raised_alone(c: Collected, peer_gone: list[Event]) -> tuple[int, Event] | None:
    """Lead rules A and J: one rank raised an exception of its own (its traceback's last line, under its rank tag)
    while every other rank shown failing lost its connection to a peer ('closed by peer', 'reset by peer'): the
    rank that raised left first and the others failed only because it went. (rank, its exception), or None where
    an exception carries no rank tag (a shared console: whose it is the lines do not say), where more than one rank
    raised on its own, or where the rank that raised also lost its own connection (then its error may be that)."""
    gone = set(_gone_ranks(peer_gone))
    excs = [e for e in c.exceptions if not e.data.get("line")]
    if not gone or not excs or any(e.rank is None for e in excs) or any(e.rank is None for e in peer_gone):
        return None
    own = [e for e in excs if e.rank not in gone and not R_PEER_GONE.search(exception_text(e))]
    ranks = {e.rank for e in own}
    if len(ranks) != 1 or any(e.rank not in gone | ranks for e in excs):
        return None
    return own[0].rank, own[0]


def _killed_after(c: Collected, rank: int) -> bool:
    return any(e.data.get("raised_rank") == rank for e in c.worker_failures)


def _mpi_peer_gone(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Open MPI's "An MPI communication peer process has unexpectedly disconnected" (its help text: a crash of the
    peer, or its exit without MPI_FINALIZE): a process of the job left first and the one printing this is its victim
    (early_exit). The text names the peer's host, not its rank: nobody is named."""
    evs = c.samples.get("mpi_peer_gone", [])
    lone = lone_failure(c) if evs else None
    if not evs or lone is not None and lone.culprits:
        return None  # a launcher's record of the rank that failed first says more (rule A)
    host = next((e.data["peer_host"] for e in evs if e.data.get("peer_host")), None)
    on = f" on {host}" if host else ""
    return Verdict(
        "early_exit",
        f"Open MPI reports that a peer process{on} disconnected unexpectedly: it crashed or exited without "
        "MPI_FINALIZE while this process still talked to it; the process printing this is its victim, and the "
        "lines name the peer's host, not its rank",
        f"Investigate the peer process{on}: that host's logs / core file (ulimit -c unlimited keeps one) for its own "
        "error, dmesg -T there (OOM killer, segfaults) for a kill from outside; run mpirun with --tag-output (or "
        "--output-filename DIR) so every line carries its rank and the first one to fail shows. The other processes "
        "only lost their peer: a crash before MPI_FINALIZE is the cause, not the network, unless that host's "
        "process is still alive.",
        "medium", [], [e.brief() for e in evs[:3]])


def _hccl_peer_lost(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Ascend HCCL's heartbeat detection in a collective's timeout: "Cluster Exception Location[IP/ID]:[host/dev],
    Discoverer:[host/dev], ExceptionType:[Heartbeat Lost Occurred], Possible Reason:1. Process has exited, 2. Network
    Disconnected". The device whose heartbeat stopped left the job (its process exited, or its link dropped) while
    the discoverer still waited in the collective: early_exit, the waiting rank its victim (lead rules O, AN (2)).
    The lines name the lost peer by host and device id, not by rank: nobody is accused by number."""
    evs = c.samples.get("hccl_peer_lost", [])
    lone = lone_failure(c) if evs else None
    if not evs or lone is not None and lone.culprits:
        return None  # a launcher's record of the rank that failed first says more (rule A)
    peers = list(dict.fromkeys(e.data["peer"] for e in evs))
    hosts = {p.rpartition("/")[0] for p in peers} | {e.data["discoverer"].rpartition("/")[0] for e in evs}
    where = ", ".join(peers[:4])
    dev = "; ".join(f"device {p.rpartition('/')[2]} on {p.rpartition('/')[0]}" for p in peers[:4])
    link = ("on the same host as the device that saw it, so its process going away is the likelier reason"
            if len(hosts) == 1 else "on another host, so its process exiting or the network link between them")
    return Verdict(
        "early_exit",
        f"HCCL's heartbeat detection lost the heartbeat of the device at {where} (Heartbeat Lost, {dev}) while "
        f"this rank waited in the collective: that peer left the job, {link}; the rank that timed out is its "
        "victim, and the lines name the peer by host and device, not by rank",
        f"Read the log of {dev} (that device's own process: its first error, or where it exited) and the ascend "
        "log / plog of that host (ASCEND_GLOBAL_LOG_LEVEL=1, ASCEND_PROCESS_LOG_PATH), and the other ranks' logs "
        "for the first error; dmesg -T there for a kill from outside (OOM killer). If that process is still alive, "
        "check the network link between the hosts. A longer HCCL_EXEC_TIMEOUT only delays the same failure; while "
        "it hangs, py-spy dump the process on that device.",
        "medium" if len(hosts) == 1 else "low", [], [e.brief() for e in evs[:3]])


def _hvd_shut_down(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Horovod's "Horovod has been shut down. This was caused by an exception on one of the ranks or an attempt to
    allreduce ... after one of the ranks finished execution": the rank printing it had a collective in flight when
    another rank left the job (raised or returned): early_exit, the printing rank a victim (lead rule O's shape).
    Which rank left these lines do not say, unless a launcher's record or another rank's own error does."""
    evs = c.samples.get("hvd_shut_down", [])
    if not evs:
        return None
    lone = lone_failure(c)
    if lone is not None and lone.culprits:
        return None  # a launcher's record of the rank that failed first says more (rule A)
    said = {e.data.get("reporter") for e in evs}
    if any(e.rank is not None and e.rank not in said for k in ("traceback_tail", "worker_raised", "crash")
           for e in c.samples.get(k, [])):
        return None  # another rank's own error is shown: its family decides
    who = sorted(r for r in said if r is not None)
    first = {e.data.get("startup_bcast") for e in evs}
    if None not in first:
        return _hvd_shut_down_at_start(evs, who, sorted(first))
    return Verdict(
        "early_exit",
        f"Horovod shut down the collective{(' of ' + _named(who)) if who else ''}: another rank raised an exception "
        "or finished execution while this one still had an allreduce/allgather/broadcast in flight; the rank "
        "printing it is a victim, and which rank left first these lines do not show",
        "Find the first exception in the other ranks' output (Horovod says it comes before the first shutdown message: "
        "mpirun --tag-output / horovodrun's per-rank prefix shows who printed it); if no rank raised, one finished "
        "its loop early -- every rank must run the same number of steps and collectives (uneven data shards: "
        "drop_last, or hvd.join()).",
        "medium", [], [e.brief() for e in evs[:3]])


def _hvd_shut_down_at_start(evs: list, who: list[int], funcs: list[str]) -> Verdict:
    """Lead rule BY (2) (round 95's pai-2730): Horovod's "has been shut down" raised under its start-up broadcast
    (hvd.broadcast_parameters / broadcast_optimizer_state / broadcast_variables: the job's first collective), with no
    launcher's record of a process's exit and no other rank's own error among the lines. No rank can have finished its
    loop before the first collective, so the shutdown is the consequence of a first exception that is not shown -- any
    rank's, the reporting process's own background thread included (its first NCCL/MPI/gloo operation): cause unknown,
    culprits "unknown", nobody innocent (rules AB (2), AU (1), BG (6), AC (1)). Not read so: the shutdown raised in a
    collective mid-run (a gradient allreduce, synchronize: rule O's early_exit, a rank that finished or raised)."""
    return Verdict(
        "unknown",
        f"Horovod shut down in its start-up broadcast ({', '.join(funcs)}{' on ' + _named(who) if who else ''}, the "
        "job's first collective): Horovod says an exception on one of the ranks stopped it -- no rank can have "
        "finished its loop yet, so the cause is a first exception these lines do not show (another rank's, or this "
        "process's own background thread failing at its first NCCL/MPI operation); the process printing it is its "
        "consequence",
        "Look for the first exception before the shutdown message: Horovod prints it before the first 'has been shut "
        "down', in one rank's output -- check every worker's log (horovodrun --output-filename DIR, or mpirun "
        "--tag-output so each line carries its rank). Rerun with HOROVOD_LOG_LEVEL=debug and NCCL_DEBUG=INFO: a "
        "failure of Horovod's own background thread at its first operation shows there (NCCL/MPI set-up, the network "
        "interface: HOROVOD_GLOO_IFACE / NCCL_SOCKET_IFNAME; in a container, too little shared memory: --shm-size, "
        "--ipc=host).",
        "low", [], [e.brief() for e in evs[:3]])


def _after_own_gloo_timeout(c: Collected, gone: Event) -> bool:
    """A gloo peer-gone line printed after the same process's own gloo timeout ("Timed out waiting Nms for recv
    operation", "Application timeout caused pair closure"), earlier in its file: gloo closed the pair when this
    process's wait ran out, so a later "Connection closed by peer" on it is the aftermath of that wait, not a peer
    that left first (lead rule B; rule U(4) reads a peer-gone line only when it comes first)."""
    if gone.kind != "gloo_error":
        return False
    path, n = place(gone)
    return any(t.data.get("backend") == "gloo" and t.rank == gone.rank and place(t)[0] == path and place(t)[1] < n
               for t in c.samples.get("watchdog_timeout", []))


def _only_peer(c: Collected, peer_gone: list[Event]) -> tuple[int, int, Event] | None:
    """Lead rules U (4), AO: a world of exactly two, shown by the launch line above the reset (its --rank and
    --world_size 2, every launch line shown saying 2): the rank whose connection to its peer was reset or closed has
    one peer only, so that peer is the one that went away -- (peer, the reporting rank, the launch line), or None
    (a bigger or unknown world, two reports from both ends, the peer shown finishing normally)."""
    launches = c.samples.get("launched_rank", [])
    if not launches or any(e.data["arg_world"] != 2 for e in launches):
        return None
    mes = set()
    launch = None
    for e in peer_gone:
        path, n = place(e)
        above = [x for x in launches if place(x)[0] == path and place(x)[1] < n]
        me = e.rank if e.rank is not None else (above[-1].data["arg_rank"] if above else None)
        if me not in (0, 1):
            return None
        mes.add(me)
        launch = launch or (above[-1] if above else launches[0])
    if len(mes) != 1:
        return None
    peer = 1 - mes.pop()
    if any(e.rank == peer for e in c.samples.get("run_done", [])):
        return None
    return peer, 1 - peer, launch


def _spawn_pair(c: Collected, peer_gone: list[Event]) -> tuple[int, int] | None:
    """Lead rule AT (2): torch.multiprocessing.spawn(nprocs=2) started from the job's own script (no torchrun agent
    shown) reports one child whose own error is its connection reset or closed ("Broken pipe" in barrier()): on one
    machine spawn's process N is rank N (rule AL (2)), so its only peer, the other child, is the one that went away --
    (peer, the reporting rank), or None (another world, no agent-less spawn, both children reporting, the peer shown
    finishing normally)."""
    if c.kinds.get("agent_frame") or c.samples.get("launched_rank"):
        return None
    idx = {e.data.get("spawn_index") for e in peer_gone}
    if len(idx) != 1 or any(e.data.get("spawn_nprocs") != 2 or e.rank is not None for e in peer_gone):
        return None
    me = idx.pop()
    if me not in (0, 1) or any(e.rank == 1 - me for e in c.samples.get("run_done", [])):
        return None
    return 1 - me, me


def _launch_store_host(c: Collected, peer_gone: list[Event]) -> tuple[int, int | None] | None:
    """Lead rule AW: torch.distributed.launch of a torch <= 1.8 (a "_default_pg.<op>" frame of its own
    distributed_c10d.py) runs no elastic agent -- each worker's env:// rendezvous makes rank 0's own process the
    TCPStore's host, as init_method="tcp://" and spawn do (rule AT (2)) -- so a bare broken pipe or reset raised from
    a collective on the other processes is rank 0's process going away (rule AK (1)). Returns (the processes one node
    starts, how many failing processes are shown), or None (torchrun or an agent shown, several nodes, rank 0 among
    the reporters, the world not shown)."""
    launches = c.samples.get("launch_procs", [])
    if (not c.kinds.get("old_c10d") or not launches or c.kinds.get("agent_frame") or c.samples.get("launched_rank")
            or c.kinds.get("watchdog_timeout")):
        return None
    procs = {e.data.get("procs") for e in launches}
    one_node = all(e.data.get("dist_launch") and e.data.get("nnodes") in (None, "1") for e in launches)
    if not one_node or len(procs) != 1 or not isinstance(n := procs.pop(), int) or n < 2:
        return None
    if any(e.kind != "socket_error" or e.rank == 0 for e in peer_gone) or any(
            e.rank == 0 for e in c.samples.get("run_done", [])):
        return None
    return n, c.kinds.get("socket_error", 0)


def _harness_store_host(c: Collected, peer_gone: list[Event]) -> list[int] | None:
    """Lead rules AT (2), AW, AK (1): torch's distributed test harness (test_distributed.py, common_distributed's
    MultiProcessTestCase) starts each rank as a multiprocessing.Process named "process N" from the test's own process
    -- no launcher agent -- and the ranks' env:// (or tcp://) rendezvous makes rank 0's own process the TCPStore's
    host, as mp.spawn and torch.distributed.launch before torchrun do. So c10d's bare "Broken pipe" / reset raised in
    children other than process 0 (their "Process process N:" header: parse._harness_error), from a group's
    construction (ProcessGroupGloo(store, ...), whose address exchange goes through the store) or a store or
    collective call, is rank 0's process gone first (round 104's pytorch-11364). Returns the reporting children's
    ranks (its victims), or None: an agent shown, rank 0 among the reporters or shown finishing, a reporter with no
    harness header, gloo's own pair text (its peer any member of the collective: pytorch-16941 stays unknown), an
    exception of a process's own or a timeout shown."""
    if (c.kinds.get("agent_frame") or c.samples.get("launched_rank") or c.kinds.get("watchdog_timeout")
            or any(not e.data.get("line") for e in c.exceptions) or c.worker_failures or c.child_failures):
        return None
    if any(e.kind != "socket_error" or e.data.get("harness_index") in (None, 0) for e in peer_gone):
        return None
    if any(e.rank == 0 for e in c.samples.get("run_done", [])):
        return None
    return sorted({e.data["harness_index"] for e in peer_gone})


def _before(a: Event, b: Event) -> bool:
    """Event a was printed before event b: by their times where both have different ones, else by line in one file
    (a prefix stamping every line with one time says nothing of their order)."""
    if a.ts is not None and b.ts is not None and a.ts != b.ts:
        return a.ts < b.ts
    (fa, la), (fb, lb) = place(a), place(b)
    return fa == fb and 0 < la < lb


def _left_before_abort(pg: list[Event], sent: list[Event], lone) -> bool:
    """Lead rule BV (2): every rank-tagged 'process group has NOT been destroyed' warning printed before the launcher
    began stopping the workers (its first SIGTERM), and the launcher's one failure record another worker's SIGABRT
    (-6): the warning's rank left on its own, not in the launcher's teardown."""
    terms = [e for e in sent if e.data.get("sent") == "SIGTERM"]
    if lone.exitcode != -6 or not pg or not terms or any(e.rank is None for e in pg):
        return False
    return not {e.rank for e in pg} & set(lone.culprits) and all(
        _before(w, t) for w in pg for t in terms + [lone.event])


def _left_while_waited(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """ProcessGroupNCCL's destructor stopping a rank's watchdog ("[Rank 1] NCCL watchdog thread terminated
    normally": its group torn down, the process leaving) while another rank is shown waiting in a collective until
    its timeout, at or after that (its blocking wait's abort, a watchdog timeout): the leaving rank exited early, the
    waiting one its victim (early_exit's own definition; lead rule O reads a peer gone mid-run the same way). Round
    85's pytorch-pr46010. A rank that terminated its watchdog AND timed out, or a timeout before the teardown, or a
    teardown with nothing waiting (every rank's clean end), is not read so; nor where any error or exit is shown."""
    done = c.samples.get("pg_watchdog_done", [])
    waits = [e for e in c.samples.get("watchdog_timeout", []) if e.rank is not None]
    if not done or not waits or c.exceptions or any(c.kinds.get(k) for k in (
            "nccl_error", "cuda_error", "socket_error", "gloo_error", "signal", "worker_failed", "child_failed",
            "pg_not_destroyed")):
        return None
    waiting = {e.rank for e in waits}
    left = [e for e in done if e.rank is not None and e.rank not in waiting and all(
        e.ts is None or w.ts is None or w.ts >= e.ts for w in waits)]
    if not left:
        return None
    ranks = sorted({e.rank for e in left})
    victims = sorted(waiting)
    who = _fmt_ranks(ranks)
    return Verdict(
        "early_exit",
        f"rank {who}'s process group was destroyed (ProcessGroupNCCL's destructor stopped its watchdog: 'watchdog "
        f"thread terminated normally') while rank {_fmt_ranks(victims)} still waited in a collective and then timed "
        "out (aborting its communicator): rank " + who + " left early, before issuing the collective its peers "
        "waited in; the waiting rank(s) are its victims",
        f"Find why rank {who} finished / exited early (its process group destroyed, del process_group or "
        "destroy_process_group, a rank-conditional return or collective): every rank must issue the same "
        "collectives before exiting -- make every rank reach the collective, put a barrier before exit and call "
        "destroy_process_group only after all ranks finish. TORCH_DISTRIBUTED_DEBUG=DETAIL and py-spy stacks of "
        "every rank show where each one is; with NCCL_BLOCKING_WAIT (or TORCH_NCCL_ASYNC_ERROR_HANDLING) a short "
        "timeout only makes the waiting rank give up sooner -- raise it if the ranks legitimately drift apart.",
        "medium", ranks, [e.brief() for e in (left[:2] + waits[:2])])


def _early_exit(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    pg = c.samples.get("pg_not_destroyed", [])
    sent = [e for e in c.samples.get("signal", []) if e.data.get("sent")]
    peer_gone = [
        e
        for k in ("socket_error", "gloo_error")
        for e in c.samples.get(k, [])
        if R_PEER_GONE.search(str(e.data.get("what", "")))
    ]
    peer_gone = [e for e in peer_gone if not _after_own_gloo_timeout(c, e)]
    lone = lone_failure(c)
    warned = set(_ranks(c, "pg_not_destroyed"))
    crashed = lone is not None and lone.exitcode not in (None, 0) and (
        set(lone.culprits) >= warned or bool(lone.culprits and not warned & set(lone.culprits)))
    # the destructor warning of a process torchrun shows failing on its own (exit code 1, a signal) is how
    # that failure ended, not an early return: its exit is the story (crash._exited). Where the record names
    # ANOTHER worker as its one failure, the warning rank was one the agent tore down after it (torchrun SIGTERMs
    # only the workers still running): the destructor warning is that teardown's exit, and the record's worker is
    # the lone first failure (rule A; round 79's skyreels-a2-19: [rank3]'s warning, local_rank 1 exit 1)
    # lead rule BV (2): the warning printed a collective timeout's length (a minute or more) before the record of
    # ANOTHER worker's SIGABRT -- the watchdog's abort of a rank left waiting -- with the others SIGTERM'd after it:
    # the warning's rank left first while the others waited (round 91's diffusers-10160); an exit of the record's own
    # (1, another signal) or a record close after the warning keeps rule A's reading (skyreels-a2-19)
    first = crashed and _left_before_abort(pg, sent, lone)
    if pg and (sent or c.kinds.get("watchdog_timeout")) and (not crashed or first):
        ranks = _ranks(c, "pg_not_destroyed")
        return Verdict(
            "early_exit",
            f"{_named(ranks)} destructed its process group and exited while the others were "
            "still running (torchrun then terminated them)"
            + (f"; {lone.who} aborted (SIGABRT) after it, most likely the NCCL watchdog's abort of a rank left "
               "waiting for it -- its own lines do not show the timeout, so it is not proven innocent" if first
               else ""),
            f"Find why rank {_fmt_ranks(ranks) or '?'} returned "
            "early (a swallowed exception, a rank-conditional return); call dist.destroy_process_group() at the "
            "end of main on every rank."
            + (f" Read rank {_fmt_ranks(ranks) or '?'}'s own output for its error (its full traceback); the others "
               "waited for it until the NCCL timeout (the watchdog's abort after the process group's timeout): keep "
               "every rank issuing the same collectives (TORCH_DISTRIBUTED_DEBUG=DETAIL shows which one differs)."
               if first else ""),
            "medium",
            ranks,
            [e.brief() for e in (pg + sent)[:3]],
        )
    store = [e for e in c.samples.get("socket_error", []) if e.data.get("store_gone")]
    peer_gone = [e for e in peer_gone if not e.data.get("store_gone")]
    if store and not peer_gone and not c.kinds.get("watchdog_timeout"):
        host = next((e.data["peer"] for e in store if e.data.get("peer")), "MASTER_ADDR:MASTER_PORT")
        if not any(e.data.get("store_said") for e in store):  # only a reset: it died, torch did not see it leave
            return Verdict(
                "unknown",
                f"the TCPStore server ({host}: rank 0's process or the torchrun agent of the first node) reset this "
                "rank's store connection: that process died (a crash, an exception, the OOM killer) while the others "
                "still used the store; these ranks are its victims, and why it died is not in these lines",
                "Read rank 0's own output (the process that hosts the store) and its exit code in torchrun's summary; "
                "on that node dmesg -T | grep -i 'killed process' shows whether the OOM killer took it (host memory, "
                "e.g. while loading data).",
                "low", [], [e.brief() for e in store[:3]])
        waited = [e for e in store if re.search(r"\brecv\w*(?:WithTimeout)? failed on|Failed to recv", e.text)]
        if waited and not any("should dump" in e.text or "eartbeat" in e.text for e in store):
            # a client blocked in a store get/wait (a rendezvous, a barrier, a key) was cut off: not the
            # heartbeat monitor's background poll at shutdown
            return Verdict(
                "store_rendezvous",
                f"a TCPStore client waiting for a key was cut off: the store server ({host}: rank 0's process or the "
                "torchrun agent that hosts it) closed the connection -- it exited or crashed while this rank still "
                "waited on the store; the waiting rank is its victim",
                "Find why the process hosting the TCPStore (MASTER_ADDR:MASTER_PORT; rank 0 or the launcher) exited "
                "first: its own log, traceback and exit code; if it finished normally, it left before the others were "
                "done with the store: end every rank with dist.barrier() and dist.destroy_process_group().",
                "medium", [], [e.brief() for e in store[:3]])
        return Verdict(
            "early_exit",
            f"the TCPStore server ({host}: rank 0's process or the torchrun agent of the first node) closed the "
            "connection: that process exited or crashed while this rank still used the store",
            "Read the log of the process that hosts the store (rank 0 / the master node's torchrun): its exit or "
            "traceback is the cause. If it finished normally, it left first: call dist.barrier() then "
            "dist.destroy_process_group() on every rank before exiting.",
            "medium", [], [e.brief() for e in store[:3]])
    srcs = {e.data["src"] for e in c.samples.get("recv_src", [])}
    if peer_gone and len(srcs) == 1 and not any(e.kind == "socket_error" for e in peer_gone):
        # the traceback's dist.recv(tensor, SRC) / dist.send(tensor, DST): the peer that closed is the one it
        # received from or sent to
        src = srcs.pop()
        send = all(e.data.get("op") == "send" for e in c.samples["recv_src"])
        return Verdict(
            "early_exit",
            (f"a gloo send to rank {src} failed with the connection closed by the peer: rank {src} exited (or "
             "crashed) before it received; the rank printing this is its victim" if send else
             f"a gloo receive from rank {src} failed with the connection closed by the peer: rank {src} exited (or "
             "crashed) before its send completed; the rank printing this is its victim"),
            (f"Look at rank {src}'s end: if it exited with an error, its traceback is the cause; if it finished, it "
             "left before receiving what this rank sends it -- wait() on every isend/irecv, then dist.barrier() and "
             "dist.destroy_process_group() on every rank before exit." if send else
             f"Look at rank {src}'s end: an isend whose request was never wait()ed before the process exited is the "
             "usual cause -- call req.wait() on every isend/irecv, then dist.barrier() and "
             f"dist.destroy_process_group() before exit; if rank {src} exited with an error, its traceback is the "
             "cause."),
            "medium", [src], [e.brief() for e in peer_gone[:2]] + [e.brief() for e in c.samples["recv_src"][:1]])
    if peer_gone and c.world and all(n == 1 for n, _ in c.world):
        # NCCL's own "nranks 1": a communicator of one process has no peer that could have exited; the connection
        # that was closed is one of its own (bootstrap / proxy sockets to itself over the interface it chose)
        return Verdict(
            "network_setup",
            "a connection was closed by its 'peer' in a communicator of ONE rank (NCCL: nranks 1): no other process "
            "exists to have exited, so the socket NCCL opened to itself (bootstrap/proxy over the interface it chose, "
            "e.g. loopback) was cut by something on the host -- a firewall or security agent, a proxy setting -- at "
            "connection set-up; no rank is at fault",
            "Check what intercepts local TCP connections: the firewall (iptables/nft, ufw) and security agents, and "
            "unset http(s)_proxy/all_proxy for the job; try another interface with NCCL_SOCKET_IFNAME (the host's "
            "real one instead of the loopback lo, or lo instead of a filtered one); rerun with NCCL_DEBUG=INFO "
            "NCCL_DEBUG_SUBSYS=INIT,NET to see the address it connects to.",
            "medium", [], [e.brief() for e in peer_gone[:3]], job_wide=True)
    tcp = c.samples.get("tcp_init", [])
    if peer_gone and tcp and not c.kinds.get("watchdog_timeout") and all(
            e.kind == "socket_error" and e.rank != 0 for e in peer_gone):
        # init_method="tcp://": rank 0's own process hosts the TCPStore (no launcher agent does), so the store
        # connection reset under this rank was rank 0's process going away (NCCL's init is lazy: rank 0 can finish
        # and exit while a slower peer still uses the store)
        return Verdict(
            "early_exit",
            "the connection was reset by its peer while the store was in use, and init_process_group(init_method="
            "'tcp://...') shows the TCPStore lived in rank 0's own process: rank 0 exited or crashed first (it can "
            "finish a lazily initialised NCCL group and leave before a slower peer is done with the store); the rank "
            "printing this is its victim",
            "Read rank 0's own output and exit: if it crashed, its traceback is the cause; if it finished, keep rank 0 "
            "alive until every peer is done with the store: dist.barrier() then dist.destroy_process_group() on every "
            "rank before exit (the store host must outlive its clients).",
            "medium", [0], [e.brief() for e in (peer_gone[:2] + tcp[:1])])
    if peer_gone and (only := _only_peer(c, peer_gone)) is not None:
        peer, me, launch = only
        return Verdict(
            "early_exit",
            f"rank {me}'s connection to its only peer was reset/closed in a world of two ranks (launched with "
            f"world size 2): the peer that went away is rank {peer} -- it exited or crashed first; rank {me} is its "
            "victim",
            f"Read rank {peer}'s own log: its traceback or exit code is the cause (the worker's own exception, e.g. in "
            "its forward or training step). If it finished normally, it left before rank "
            f"{me} was done with it: end both the same way (rpc.shutdown() for RPC, dist.barrier() then "
            f"dist.destroy_process_group() otherwise). If rank {peer} left no error of its own, it was killed from "
            "outside (dmesg: the OOM killer on its node) or the network between the two hosts cut the connection.",
            "medium", [peer], [e.brief() for e in peer_gone[:2]] + [launch.brief()])
    if peer_gone and (pair := _spawn_pair(c, peer_gone)) is not None:
        peer, me = pair
        host = (" Rank 0's own process hosts the TCPStore here (spawn from the script, no launcher agent): the store "
                "host (rank 0) must stay alive until all ranks finish.") if peer == 0 else ""
        return Verdict(
            "early_exit",
            f"torch.multiprocessing.spawn started two processes (nprocs=2, no launcher agent: one machine, spawn's "
            f"process N is rank N) and rank {me}'s own error is its connection to its only peer reset/closed: the "
            f"peer that went away is rank {peer} -- it exited or crashed first (or returned before the collective); "
            f"rank {me} is its victim",
            f"Check rank {peer}'s own output and exit code: if it raised, its traceback is the cause.{host} If it "
            "finished or returned early (a rank-conditional code path, a return before the barrier), make every "
            "rank reach the barrier the same way (no rank-conditional barrier), then dist.barrier() and "
            "destroy_process_group before exit on every rank.",
            "medium", [peer], [e.brief() for e in peer_gone[:2]])
    if peer_gone and (hosted := _launch_store_host(c, peer_gone)) is not None:
        procs, shown = hosted
        # one node's processes are ranks 0..N-1: N-1 of them failing, none of them rank 0, are the other ranks
        others = (f"; the {shown} processes shown failing are ranks 1-{procs - 1}, its victims" if shown == procs - 1
                  else "; the processes shown failing are its victims")
        return Verdict(
            "early_exit",
            f"a broken pipe / reset from a collective of the default group while torch.distributed.launch ran "
            f"{procs} processes on one node, with a torch (<= 1.8: its '_default_pg' frame) whose launch runs no "
            "agent: rank 0's own process hosted the TCPStore, so the connection that closed under the others was "
            f"rank 0 going away -- it exited or crashed first{others}",
            "Read rank 0's own output (rank 0 log) and exit code: its traceback is the cause (the torch.distributed."
            "launch of this torch starts the workers only, and rank 0's process hosts the store); if it left no error, "
            "check dmesg on the node for the OOM killer (host RAM) and rank 0's GPU memory. If rank 0 finished "
            "normally, it left before the others were done: end every rank with dist.barrier() then "
            "dist.destroy_process_group(). Rerun with NCCL_DEBUG=INFO to see which connection closed.",
            "medium", [0], [e.brief() for e in peer_gone[:3]] + [e.brief() for e in c.samples["launch_procs"][:1]])
    if peer_gone and (victims := _harness_store_host(c, peer_gone)) is not None:
        ctor = any(e.data.get("pg_ctor") for e in peer_gone)
        return Verdict(
            "early_exit",
            f"torch's distributed test harness started the ranks itself (multiprocessing's 'Process process N' "
            f"children, no launcher agent), so rank 0's own process hosted the TCPStore; process {_fmt_ranks(victims)} "
            f"lost its connection ('{strip_prefixes(peer_gone[0].text).strip()[:80]}')"
            + (" while constructing a gloo group (ProcessGroupGloo(store, ...), whose set-up goes through the store)"
               if ctor else "")
            + ": the store host, rank 0, had gone -- it exited or crashed first (or its test ended while the others "
            f"were still at work); rank {_fmt_ranks(victims)} its victim",
            "Read rank 0's own output (the harness's process 0) and its exit code: if it raised, its traceback is the "
            "cause. If it finished the test first, it left while the others still used the store: keep the store host "
            "alive until all ranks finish -- a barrier before the process hosting the TCPStore exits "
            "(dist.barrier() on every rank, then destroy_process_group before exit)"
            + ("; every rank must call new_group the same way, non-members included (new_group is collective over "
               "the whole world), and the group's set-up finishes only when every rank has reached it" if ctor else "")
            + ". In a test, fix the test's group creation / teardown order; a flaky test that passes on rerun is this "
            "teardown race.",
            "medium", [0], [e.brief() for e in peer_gone[:3]])
    if peer_gone and (alone := _raised_alone(c, peer_gone)) is not None:
        rank, exc = alone
        return Verdict(
            "early_exit",
            f"rank {rank} raised its own error ({exception_text(exc)[:160]}) and exited first"
            + (" (then killed on its way out: its 'Killed' is right after its error, no OOM killer)"
               if _killed_after(c, rank) else "")
            + f"; the connection every other rank shown failing lost was to it ({_named(_gone_ranks(peer_gone))}: "
            "'closed by peer' / 'reset by peer'), so they are its victims",
            f"Fix rank {rank}'s own error first: its traceback is the cause (rank {rank}'s own error, the line "
            "above its exit); the other ranks' lost connections go away with it. If the job is meant to survive a "
            "worker leaving (Horovod elastic, torchrun --max-restarts), catch the failure where the framework can see "
            "it (Horovod elastic: let the gloo IoException surface as HorovodInternalError so the state is restored) "
            "and keep every rank alive until all of them leave the same way (dist.barrier() then "
            "dist.destroy_process_group()).",
            "medium", [rank], [exc.brief()] + [e.brief() for e in peer_gone[:2]])
    if peer_gone:
        ip = next((m.group(1) for e in peer_gone if (m := _PEER_IP.search(e.text))), None)
        # a loopback peer (127.x, ::1) is another process of this same host (a single-node job, a test's spawned
        # processes): no pod, node or network between nodes to look at, only the processes' own outputs
        local = ip is not None and (ip.startswith("127.") or ip in ("::1", "localhost"))
        # torch's distributed test harness (common_distributed's MultiProcessTestCase: "Caught exception: ... exiting
        # process N with exit code: 10", TEST_ERROR_EXIT_CODE) spawns every rank of a test on this one host, whatever
        # address the pair names (a container's bridge): the peer is another of the test's own processes
        # (its exit line is below the traceback it logged, on a line of its own: parse's test_harness event)
        harness = bool(c.kinds.get("test_harness"))
        # a gloo message cut after its source site, read by that site (readers.store._gloo, round 73)
        site = next((str(e.data["site"]) for e in peer_gone if e.data.get("site")), None)
        return Verdict(
            "early_exit",
            "a peer closed the connection" + (f" (the process at {ip})" if ip else "")
            + (f" (gloo's {site}, its message cut off: that line of gloo's tcp pair is its read path's 'Connection "
               "closed by peer')" if site else "") + ": that process exited or "
            "crashed first; the rank printing this is its victim",
            (("The peer is another process of the test on this same host (torch's distributed test harness spawns "
              "every rank and exits one that raised with code 10)" if harness else
              f"The peer is another process on this same host (loopback {ip})")
             + ": find the process that exited first -- the first traceback of every "
             + ("test process" if harness else "process of the job (or of the test's spawned processes)")
             + " -- and read the peer process's own error; a test that fails so only sometimes is a flaky test racing "
             "its processes' exits" + (": fix the test's shutdown ordering (a barrier before exit, a graceful "
                                      "rpc.shutdown() on every process). " if harness else ". ")
             if harness or local else
             f"The peer at {ip} is the process to look at: find its pod or host (on Kubernetes, kubectl get pods "
             "-o wide; "
             "kubectl describe pod shows OOMKilled, an eviction or a restart; kubectl logs --previous its own "
             "error). " if ip else "") +
            ("DDP's constructor broadcasts rank 0's parameters to every process (its first collective), and the "
             "connection closed there: another process left before or while constructing DDP -- every process must "
             "construct DDP (the same model, the same code path to it), so find the first one that failed before it "
             "(data loading, a rank-conditional path, the OOM killer) in its own output; rerun with NCCL_DEBUG=INFO "
             "to see which connection closed. " if any(e.data.get("ddp_sync") for e in peer_gone) else "") +
            ("TensorFlow aborted its collectives (MultiWorkerMirroredStrategy) when one worker's connection closed: "
             "find the worker that exited first in each worker's own log and the chief's (its executor or container "
             "killed: Spark/YARN memory, the OOM killer), and let the job resume from a checkpoint "
             "(BackupAndRestore). " if any(e.data.get("tf") for e in peer_gone) else "") +
            "Find the peer's own error (the peer process's own error: its log, its exit code); if the peer "
            "finished normally, it left before this rank's recv completed (an isend without wait() before exit, "
            "or ranks ending at different points): make every rank leave the same way, a dist.barrier() before "
            "exit then dist.destroy_process_group() (rpc.shutdown() for RPC). If the peer left no error of its own, "
            "it was killed from outside: check dmesg (OOM killer) on its node; if it is still alive, py-spy dump --pid "
            "shows where it is; with both ends alive, the network between the nodes cut the connection."
            + (" ncclRemoteError means a remote process exited or the network dropped the connection: if no peer's "
               "log shows an error of its own, check the fabric between the nodes (ibstat / ibv_devinfo for the "
               "InfiniBand ports' state and error counters, dmesg for NIC errors) and rerun with NCCL_DEBUG=INFO to "
               "see which connection failed." if any(e.data.get("code") == "ncclRemoteError"
                                                       for e in c.samples.get("nccl_error", [])) else "")
            # gloo's own transport (gloo/transport/tcp/pair.cc) carried the collective: gloo is torch's backend for
            # CPU tensors, a GPU training's gradients belong on NCCL (lead rule U (4); round 81's applio-824)
            + (" The connection was gloo's (its tcp pair): on one host the peer is the other training process -- its "
               "own error is printed earlier in the same output (host OOM, a DataLoader worker, a GPU out of "
               "memory); with both ends alive, check the interface gloo binds (GLOO_SOCKET_IFNAME / network between "
               "the processes). For GPU training, use NCCL backend on GPU (init_process_group(backend='nccl'); gloo "
               "is meant for CPU tensors), or train on one GPU to take the second process out."
               if any("gloo" in e.text for e in peer_gone) else ""),
            "medium",
            [],
            [e.brief() for e in peer_gone[:3]],
        )
    return None
