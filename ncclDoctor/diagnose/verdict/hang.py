"""Detectors of hangs: desyncs, missing ranks (lead rule B included), tiny timeouts, a blocked
watchdog, early exits, every member inside one collective, the timeouts that name nobody, and a
py-spy stack stuck in destroy_process_group (an early exit's teardown, the last word).
"""

from __future__ import annotations

import re

from ncclDoctor.diagnose.lone import lone_failure
from ncclDoctor.diagnose.reason import (
    _RANK_IN_LINE,
    NONFATAL,
    Conclusion,
    _fmt_ranks,
    _own_rank,
    is_consequence,
    own_errors,
    timed_out_at,
    world_size,
)
from ncclDoctor.diagnose.signatures import R_EVAL_LINE, R_PEER_GONE, R_RAY_PID, R_VLLM_WORKER_LINE, Event
from ncclDoctor.diagnose.state import Collected
from ncclDoctor.diagnose.verdict.base import Verdict, _first, _named, _ranks, _samples, hosts


def _desync(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    k = _first(ks, "desync")
    if k is None:
        return None
    return Verdict(
        "desync",
        k.message,
        "Find the code that issues the minority's collective (Flight Recorder frames name "
        "it) and make every rank issue the same collectives in the same order; rerun with "
        "TORCH_DISTRIBUTED_DEBUG=DETAIL to have torch "
        "check collective types and shapes across ranks. At epoch end the usual cause is uneven data: a rank with "
        "one more batch runs one more step (use drop_last=True / a DistributedSampler that gives every rank the "
        "same number of batches, or Join for uneven inputs). Around a checkpoint save, every rank must call "
        "state_dict() and the save (FSDP/ZeRO gather shards in collectives there, even with rank0_only=True): only "
        "the file write is rank 0's.",
        k.confidence,
        k.ranks,
        k.evidence,
    )


_COLL_OPS = {"allreduce", "allgather", "reducescatter", "broadcast", "reduce"}  # not Send/Recv: peers differ there


def _coll_dev(proc: str) -> str:
    _, pid, dev = proc.rsplit(":", 2)
    return f"device {dev} pid {pid}"


def _coll_split(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule D read through NCCL_DEBUG_SUBSYS=COLL's trace: every member of a communicator issues the same
    collective at each opCount; two processes, each showing one communicator of the same size, that issued different
    collectives at the same opCount took different code paths (a desync, the job hangs there). The trace names devices,
    not ranks, so nobody is named, and none is proven innocent."""
    procs: dict[str, dict] = {}
    for e in c.samples.get("coll_trace", []):
        for proc, comms in e.data.get("procs", {}).items():
            procs.setdefault(proc, {}).update(comms)
    by_size: dict[int, list[tuple[str, dict]]] = {}
    for proc, comms in procs.items():
        sizes = [v["nranks"] for v in comms.values()]
        for v in comms.values():
            if v["nranks"] > 1 and sizes.count(v["nranks"]) == 1:  # one communicator of that size: comparable
                by_size.setdefault(v["nranks"], []).append((proc, v["ops"]))
    for n, group in sorted(by_size.items()):
        if len(group) < 2:
            continue
        for count in sorted(set().union(*(ops.keys() for _, ops in group))):
            here = {proc: ops[count] for proc, ops in group if count in ops and ops[count][0].lower() in _COLL_OPS}
            kinds: dict[str, list[str]] = {}
            for proc, (op, _) in here.items():
                kinds.setdefault(op, []).append(proc)
            if len(kinds) < 2:
                continue
            said = "; ".join(f"{op} on {', '.join(_coll_dev(p) for p in ps)}" for op, ps in
                             sorted(kinds.items(), key=lambda kv: -len(kv[1])))
            ops = " or ".join(sorted(kinds))
            return Verdict(
                "desync",
                f"NCCL's collective trace: a {n}-rank communicator's processes issued different collectives at "
                f"opCount {count:x} ({said}): different code paths (a rank-conditional collective), the job hangs "
                "there; the trace names devices, not ranks: nobody is named",
                f"Make every rank issue the same collectives in the same order: find the code path where some ranks "
                f"call {ops} and others do not (rank-conditional code, a metric or loss reduced on some ranks only, "
                "uneven batches at epoch end). NCCL_DEBUG_SUBSYS=COLL's opCounts show each process's sequence; "
                "TORCH_DISTRIBUTED_DEBUG=DETAIL has torch check collective types and shapes across ranks.",
                "medium", [], [w for _, w in list(here.values())[:4]])
    return None


def _sites_split(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule D without SeqNums: a process's collective timed out (gloo's recv/send, no SeqNum) right under one
    collective call's frame (a barrier) while another process's traceback in the same lines stands at another
    collective site (autograd's backward, where DDP all-reduces the gradients; another collective call), with no
    error of a process's own: the processes issued different collectives at the same point -- a rank-conditional code
    path. Which rank took it the lines cannot say: desync, nobody named, nobody proven innocent."""
    evs = [e for e in c.samples.get("watchdog_timeout", []) if e.data.get("other_sites")]
    if not evs or c.exceptions or any(t.seq is not None for t in c.samples.get("watchdog_timeout", [])):
        return None
    e = evs[0]
    here = e.data["in_collective"]
    there = ", ".join("autograd's backward (DDP's gradient all-reduce)" if n == "backward" else n
                      for n in e.data["other_sites"])
    return Verdict(
        "desync",
        f"a process's {here} timed out (no SeqNum) while another process's traceback in these lines stands at "
        f"another collective ({there}): the processes issued different collectives at the same point -- a "
        "rank-conditional code path (a save, an evaluation or an early-stop decision taken by some ranks only); the "
        "lines name no rank, so nobody is named and nobody proven innocent",
        f"Find the code path that only some ranks take around the {here} (a save / checkpoint, validation or an "
        "early-stop check under `if rank == 0` or a per-rank condition) and make every rank run the same collectives "
        "in the same order: call the barrier / save_model on every rank, and take the same early-stop decision on "
        "every rank (compute it on one rank and broadcast it). Rerun with TORCH_DISTRIBUTED_DEBUG=DETAIL to have torch "
        "check collective types across ranks; while it hangs, a py-spy dump of every rank shows which one is "
        "elsewhere.",
        "low", [], [x.brief() for x in evs[:2]])


def _missing(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    k = _first(ks, "culprit")
    if k is None:
        return None
    return Verdict(
        "rank_missing",
        k.message,
        f"Look at what rank {_fmt_ranks(k.ranks)} was doing: py-spy dump --pid PID "
        "on the live job, the last lines of its own log before the timeouts, its Flight Recorder entry. The "
        "other ranks are victims; a longer timeout only delays the same crash.",
        k.confidence,
        k.ranks,
        k.evidence,
    )


# the peer's address in a peer-gone message (gloo's "Connection closed by peer [10.244.48.107]:12717")
_PEER_IP = re.compile(r"\bpeer \[?(\d{1,3}(?:\.\d{1,3}){3})\]?[:<]\d{1,5}")


# torch's collective timeouts default to 10 min (NCCL) / 30 min; under a second no collective of a step is sure to fit
_TINY_TIMEOUT_MS = 1_000


def _tiny_timeout(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """A watchdog timeout whose Timeout(ms) is a few seconds or less: the setting, not a hang, made
    it fire (a timeout passed in ms where seconds were meant, or set tiny to test the knob)."""
    evs = [e for e in c.samples.get("watchdog_timeout", [])
           if e.data.get("timeout_ms") is not None and e.data["timeout_ms"] < _TINY_TIMEOUT_MS]
    if not evs:
        return None
    ms = min(e.data["timeout_ms"] for e in evs)
    return Verdict(
        "config",
        f"the collective timeout is {ms} ms (Timeout(ms)={ms}): far shorter than any real collective waits for its "
        "peers, so the watchdog fired on a normal collective; nothing shows a rank at fault",
        "Set a sane timeout (minutes): init_process_group(timeout=timedelta(minutes=10)) or the launcher's/"
        "framework's timeout knob (check it is not read as milliseconds where seconds were meant); rerun.",
        "high", [], [e.brief() for e in evs[:3]], job_wide=True)


# c10's log prefix "[E626 05:14:36.393067540 ProcessGroupNCCL.cpp:1743]": the month is not zero-padded
_TORCH_TS = re.compile(r"\[[EIWF](\d{1,2}?)(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d+))?")


def _timed_out_before(c: Collected, hb: list[Event], own: bool = False) -> bool:
    """A collective timed out normally (its ``ran for`` within a quarter of its timeout: the watchdog
    ran on time) no later than the heartbeat monitor's "watchdog got stuck": aborting the timed-out
    communicator is what blocked the watchdog, so the hang's cause is the collective, not the thread.
    ``own``: only a timeout line whose own "[Rank N]" tag is the heartbeat's rank, or that has no tag (a paste
    that cut it off), counts -- another rank's timeout does not put this rank inside a collective."""
    normal = [e for e in c.samples.get("watchdog_timeout", [])
              if e.data.get("timeout_ms") and e.data.get("ran_for_ms") is not None
              and e.data["ran_for_ms"] <= 1.25 * e.data["timeout_ms"]]
    if own:
        ranks = {h.rank for h in hb}
        normal = [e for e in normal if (m := _RANK_IN_LINE.search(e.text)) is None or int(m.group(1)) in ranks]
    def own(e: Event) -> float | None:  # torch's own clock when both lines have it (a collector's may differ)
        g = _TORCH_TS.search(e.text)
        if not g:
            return None
        mo, d, h, mi, sec, frac = g.groups()
        return (((int(mo) * 31 + int(d)) * 24 + int(h)) * 60 + int(mi)) * 60 + int(sec) + float("0." + (frac or "0"))

    pairs = [(own(t), own(h)) for t in normal for h in hb]
    if pairs and all(a is not None and b is not None for a, b in pairs):
        return any(a <= b for a, b in pairs)
    first_hb = min((e.ts for e in hb if e.ts is not None), default=None)
    return any(e.ts is None or first_hb is None or e.ts <= first_hb for e in normal)


def _died_before(c: Collected, hb: list[Event]) -> bool:
    """A process of the job died (a launcher's "exit code", torchrun's record) on an earlier line of the file the
    heartbeat monitor's timeout is in: the survivors' watchdogs then wait on a communicator that lost a member, so
    the heartbeat is the aftermath of that death, not a watchdog blocked on its own."""
    def at(e: Event) -> tuple[str, int]:
        path, _, line = e.where.rpartition(":")
        return path, int(line) if line.isdigit() else 0
    dead = [at(e) for e in c.child_failures + c.worker_failures if e.data.get("exitcode") not in (None, 0)]
    return any(p == hp and n < hn for p, n in dead for hp, hn in map(at, hb))


def _blocked(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    k = _first(ks, "watchdog_blocked")
    hb = c.samples.get("heartbeat", [])
    if k is None and not hb:
        return None
    if k is None and (_timed_out_before(c, hb) or _died_before(c, hb)):
        return None  # the heartbeat's "stuck" is the aftermath: the abort after a timeout hung the watchdog
    msg = (
        k.message
        if k
        else (
            "the heartbeat monitor found the watchdog thread of "
            + _named(_ranks(c, "heartbeat"))
            + " stuck: a CUDA/NCCL call (or a thread holding the GIL inside one) blocked it"
        )
    )
    return Verdict(
        "watchdog_blocked",
        msg,
        "Take stacks of the stuck processes while they hang: py-spy dump --native --pid "
        "PID (the blocked CUDA/NCCL call or the thread holding the GIL shows there); check dmesg for Xid errors "
        "and nvidia-smi on that node. If this happens at exit, call destroy_process_group() before the end.",
        "high",
        [],
        (k.evidence if k else []) + [e.brief() for e in hb[:2]],
    )


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


def _early_exit(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    pg = c.samples.get("pg_not_destroyed", [])
    sent = [e for e in c.samples.get("signal", []) if e.data.get("sent")]
    peer_gone = [
        e
        for k in ("socket_error", "gloo_error")
        for e in c.samples.get(k, [])
        if R_PEER_GONE.search(str(e.data.get("what", "")))
    ]
    lone = lone_failure(c)
    crashed = lone is not None and lone.exitcode not in (None, 0) and set(lone.culprits) >= set(
        _ranks(c, "pg_not_destroyed"))
    # the destructor warning of a process torchrun shows failing on its own (exit code 1, a signal) is how
    # that failure ended, not an early return: its exit is the story (crash._exited)
    if pg and (sent or c.kinds.get("watchdog_timeout")) and not crashed:
        ranks = _ranks(c, "pg_not_destroyed")
        return Verdict(
            "early_exit",
            f"{_named(ranks)} destructed its process group and exited while the others were "
            "still running (torchrun then terminated them)",
            f"Find why rank {_fmt_ranks(ranks) or '?'} returned "
            "early (a swallowed exception, a rank-conditional return); call dist.destroy_process_group() at the "
            "end of main on every rank.",
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
    if peer_gone:
        ip = next((m.group(1) for e in peer_gone if (m := _PEER_IP.search(e.text))), None)
        # a loopback peer (127.x, ::1) is another process of this same host (a single-node job, a test's spawned
        # processes): no pod, node or network between nodes to look at, only the processes' own outputs
        local = ip is not None and (ip.startswith("127.") or ip in ("::1", "localhost"))
        return Verdict(
            "early_exit",
            "a peer closed the connection" + (f" (the process at {ip})" if ip else "") + ": that process exited or "
            "crashed first; the rank printing this is its victim",
            (f"The peer is another process on this same host (loopback {ip}): find the process that exited first "
             "-- the first traceback of every process of the job (or of the test's spawned processes) -- and read "
             "the peer process's own error; a test that fails so only sometimes is a flaky test racing its "
             "processes' exits. " if local else
             f"The peer is the process at {ip}: find its pod or host (on Kubernetes, kubectl get pods -o wide; "
             "kubectl describe pod shows OOMKilled, an eviction or a restart; kubectl logs --previous its own "
             "error). " if ip else "") +
            ("TensorFlow aborted its collectives (MultiWorkerMirroredStrategy) when one worker's connection closed: "
             "find the worker that exited first in each worker's own log and the chief's (its executor or container "
             "killed: Spark/YARN memory, the OOM killer), and let the job resume from a checkpoint "
             "(BackupAndRestore). " if any(e.data.get("tf") for e in peer_gone) else "") +
            "Find the peer's own error (its log, its exit code); if the peer "
            "finished normally, it left before this rank's recv completed (an isend without wait() before exit, "
            "or ranks ending at different points): make every rank leave the same way, a dist.barrier() before "
            "exit then dist.destroy_process_group() (rpc.shutdown() for RPC). If the peer left no error of its own, "
            "it was killed from outside: check dmesg (OOM killer) on its node; if it is still alive, py-spy dump --pid "
            "shows where it is; with both ends alive, the network between the nodes cut the connection."
            + (" ncclRemoteError means a remote process exited or the network dropped the connection: if no peer's "
               "log shows an error of its own, check the fabric between the nodes (ibstat / ibv_devinfo for the "
               "InfiniBand ports' state and error counters, dmesg for NIC errors) and rerun with NCCL_DEBUG=INFO to "
               "see which connection failed." if any(e.data.get("code") == "ncclRemoteError"
                                                       for e in c.samples.get("nccl_error", [])) else ""),
            "medium",
            [],
            [e.brief() for e in peer_gone[:3]],
        )
    return None


def _all_joined(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    k = _first(ks, "all_joined")
    if k is None:
        return None
    return Verdict(
        "transport_stall",
        k.message + ": the data path stalled (a link, a NIC, a GPU that stopped)",
        "Run `ncclDoctor check --nodes N` (or nccl-tests' all_reduce_perf) on the same nodes to find the slow or "
        "broken link; a rerun with NCCL_P2P_DISABLE=1 tells a broken GPU peer-to-peer (P2P) path from the network, "
        "NCCL_DEBUG=INFO shows the transport each channel uses; dmesg / nvidia-smi for Xid errors. While it hangs, "
        "py-spy dump --pid PID on every rank confirms they all wait inside the collective.",
        "medium",
        [],
        k.evidence,
    )


def _serving_watchdog(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule P: a serving framework's own watchdog (SGLang's scheduler "Watchdog timeout
    (self.watchdog_timeout=N)", vLLM's "RPC call to execute_model timed out") with no NCCL timeout that names a
    SeqNum. The engine measured its own forward pass: one rank stuck anywhere (a hung kernel, a deadlock, a
    collective another rank never joined) stalls every rank's forward alike, so the lines cannot show who was behind
    or why (rule B does not apply): cause unknown, nobody named, nobody proven innocent. The framework's SIGQUIT and
    "Killed" after it are its own self-kill (parse reads them so), not the OOM killer."""
    evs = c.samples.get("serving_watchdog", [])
    if not evs or any(t.seq is not None for t in c.samples.get("watchdog_timeout", [])):
        return None
    n = c.kinds.get("serving_watchdog", 0)
    return Verdict(
        "unknown",
        f"the serving framework's own watchdog fired ({n} line(s), e.g. {evs[0].text.strip()[:120]}): its forward "
        "pass stalled past its timeout, but no NCCL collective, SeqNum or error is shown -- one rank stuck anywhere "
        "(a hung kernel, a deadlock, a collective another rank never joined) stalls every tensor-parallel rank alike, "
        "so these lines cannot say which rank held the others or why; its SIGQUIT / 'Killed' afterwards is the "
        "framework killing its own process tree, not the OOM killer",
        "While it hangs, take py-spy dump --pid PID (py-spy dump --native) of every rank's scheduler/worker process: "
        "the one elsewhere than the others (or every one in the same NCCL kernel) is the answer; SGLang dumps them "
        "itself before its SIGQUIT (raise --watchdog-timeout, or use its soft watchdog, to keep the processes alive "
        "for a manual dump; vLLM: VLLM_EXECUTE_MODEL_TIMEOUT_SECONDS, on Ray RAY_CGRAPH_get_timeout; vLLM's "
        "repeated 'No available shared memory broadcast block' notice means a worker has not taken the last step: "
        "hung, or still compiling / quantizing (VLLM_RINGBUFFER_WARNING_INTERVAL only sets how often it is printed)). "
        "Note the batch "
        "that was running. Rerun with NCCL_DEBUG=INFO and the flight recorder (TORCH_FR_BUFFER_SIZE=2000) to see "
        "whether a collective was stuck.",
        "low", [], [e.brief() for e in evs[:4]])


def _first_missing(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule H: a timeout in one of a group's first collectives with a rank of the world not shown inside
    it. The shown ranks reached the group's first collectives and wait (victims); the one they wait for is not
    shown -- usually still busy before its first collective (the main process preprocessing or loading the
    dataset, or a model, while the others already wait; or it crashed before it). Connection set-up is the
    alternative only if that rank was inside too, which these lines do not show."""
    k = next((k for k in ks if k.kind == "first_missing"), None)
    if k is None:
        return None
    failed = _failed_outside(c)
    if failed:
        # lead rule I: a launcher's record (torchrun's, composer's "Rank N crashed with exit code", ...) shows a rank
        # that is not inside the collective failing first, on its own: it is the rank the others waited for
        return Verdict(
            "rank_missing",
            f"{k.message}. The launcher's record shows {_named(failed)} failing first, on its own, while the shown "
            f"ranks waited inside the collective: {_named(failed)} never reached it -- it is the culprit, the ranks "
            "inside are victims (its exit, a signal with no watchdog timeout of its own shown, is its own failure)",
            f"Read rank {_fmt_ranks(failed)}'s own output up to its exit: the step it was in before its first "
            "collective (building the model or the dataset / train loader, a download) and the error or signal that "
            "ended it (dmesg -T for the OOM killer; a SIGABRT's C++ message). " + BUSY_FIX,
            "medium", failed, k.evidence + [e.brief() for e in c.child_failures[:2]])
    return Verdict(
        "rank_missing",
        f"{k.message}. The shown ranks are inside it (victims); a rank that never reached its first collective "
        "was usually still busy before it -- the main process preprocessing, tokenising or loading the dataset "
        "(or a model) while the others already waited, or a rank that crashed before it; connection set-up "
        "(interface, firewall, GPU peer-to-peer) is the alternative if it was inside too",
        "Read the log of the rank(s) not shown up to their first collective: a long dataset preprocessing or "
        "loading step on the main process, a download, a traceback (out of GPU or host memory while loading the "
        "model is a common one; dmesg -T for the OOM killer); py-spy dump --pid PID on them while the job "
        "hangs shows where they are. Preprocess and cache the dataset once before the distributed run (with HF: "
        "training_args.main_process_first(), the datasets cache) or raise the timeout to cover it "
        "(init_process_group(timeout=...), the Trainer's ddp_timeout, accelerate's InitProcessGroupKwargs). If "
        "every rank was inside, it is connection set-up: rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET to "
        "see the interface each rank connects over (NCCL_SOCKET_IFNAME to pin the routable one), and on one node "
        "test the GPUs' peer-to-peer path with NCCL_P2P_DISABLE=1.",
        "medium", [], k.evidence)


def _failed_outside(c: Collected) -> list[int]:
    """Ranks whose failure a launcher recorded (a nonzero exit or a signal) that show no timeout or status of their
    own, when the first failure recorded (in file order) is one of them: they failed on their own before the
    collective the shown ranks wait in (lead rule I). Empty otherwise."""
    inside = {r for r, st in c.ranks.items() if st.timeouts or st.status or st.counts.get("watchdog_report")}
    recs = [e for e in c.child_failures + c.worker_failures if e.rank is not None
            and e.data.get("exitcode") not in (None, 0)]
    if not recs or not inside:
        return []

    def at(e: Event) -> tuple[str, int]:
        path, _, line = e.where.rpartition(":")
        return path, int(line) if line.isdigit() else 0
    first = min(recs, key=at)
    out = sorted({e.rank for e in recs} - inside)
    return out if first.rank in out and len(out) == 1 else []


def _timeouts(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Timeouts with no proven culprit. Lead rule B: every rank shown inside one collective in an input
    that does not hold every rank -> rank_missing (the missing rank is one not shown); so is a rank behind
    the stuck collective that is only a lead (most ranks behind). Otherwise unknown."""
    if not any(c.kinds.get(k) for k in ("watchdog_timeout", "watchdog_status", "watchdog_report")):
        return _timeout_frames(c)
    unclear = next((k for k in ks if k.kind == "groups_unclear"), None)
    low = [k for k in ks if k.kind == "culprit" and k.confidence == "low"]
    lead = f" Leads (low confidence): {low[0].message}." if low else ""
    inside = (one_collective(c) or larger_world(c)) if not unclear else larger_world(c)
    behind = None if unclear or inside else next((k for k in low if k.behind), None)
    gloo = inside and any(e.data.get("backend") == "gloo" for e in c.samples.get("watchdog_timeout", []))
    quiet = None if unclear or inside or behind or low else silent_ranks(c)
    if quiet:
        return _silent_lead(c, *quiet)
    if gloo:
        msg = ("a gloo send/recv timed out (gloo has no watchdog and no SeqNum: the op itself raised): the peer never "
               "reached the matching collective or barrier; the lines do not name it.")
    elif inside:
        torn = sorted(r for r, st in c.ranks.items() if only_aborted(st))
        shown = (f" ({_fmt_ranks(sorted(set(c.ranks) - set(torn)))})" if c.ranks else "") + (
            f", {_named(torn)} shown only aborting its communicator," if torn else "")
        msg = (f"every rank the input shows{shown} was inside {inside} (victims), and the input does not hold every "
               "rank of the job: the rank that never issued it is one these lines do not show (a rank still "
               "elsewhere in the code: saving, evaluating, loading data), or the transfer itself stalled.")
    elif behind:
        msg = ("ranks are missing from the collective the others wait in, but more ranks are behind than inside, so "
               "the ones ahead may instead have issued an extra collective: nobody is named.")
    elif gil := sorted(r for r in _ranks(c, "gil_held") if not (c.ranks[r].timeouts or c.ranks[r].status)):
        msg = (f"{_named(gil)}'s dump could not take its GIL: its Python thread was busy or stuck in Python (a lead "
               "for py-spy, not proof that it missed the collective); the ranks shown timing out were inside it "
               "(victims), "
               "and the rank that never arrived is not proven by these lines"
               + (f"; {unclear.message}" if unclear else "") + ".")
    else:
        msg = (("no rank these lines show is proven to have missed the collective" if low else
                "every rank the input shows was inside the timed-out collective (victims)")
               + "; the rank that never arrived is not proven by these lines"
               + (f"; {unclear.message}" if unclear else "") + ".")
    return Verdict(
        "rank_missing" if inside or behind else "unknown",
        msg + lead,
        "Collect the log of every rank (one file per rank, e.g. torchrun --log-dir, or srun -l) "
        "and Flight Recorder dumps (TORCH_FR_BUFFER_SIZE=2000; TORCH_NCCL_TRACE_BUFFER_SIZE on torch < 2.8), then "
        "rerun `ncclDoctor diagnose` on all of them: the rank whose log shows no timeout, or the lowest "
        "'last enqueued', is the culprit. While the job still hangs, py-spy dump --pid PID on every rank's process "
        "shows the one that is elsewhere in the code." + (GLOO_LATE if gloo else "")
        + (NOT_SHOWN if inside else "")
        + (" A missing rank that died without a word in these logs was often killed by the host: check dmesg -T on "
           "every node for the OOM killer (host memory growing over the run) and for Xid errors." if inside else "")
        + (SHARD_GATHER if inside and _shard_gather(c) else "") + (_driver_oom_lead(c) if inside else ""),
        "low",
        [],
        (_samples(c, "watchdog_timeout") + _samples(c, "watchdog_status") + _samples(c, "watchdog_report"))[:4]
        + (_samples(c, "driver_oom")[:1] if inside and _driver_oom_lead(c) else []),
    )


def _timeout_frames(c: Collected) -> Verdict | None:
    """Lead rule B on the watchdog's stack alone: frames of WorkNCCL::checkTimeout (the c10::Error it builds when a
    collective ran past its timeout) with no timeout line, no rank, op or SeqNum and no failure of a process's own:
    a process timed out inside a collective, and the rank that never issued it is one these lines do not show."""
    evs = c.samples.get("timeout_frames", [])
    if not evs or c.ranks or c.child_failures or c.worker_failures:
        return None
    return Verdict(
        "rank_missing",
        "the watchdog's timeout stack (WorkNCCL::checkTimeout under the NCCL watchdog) shows a process whose "
        "collective ran past its timeout, its message line (rank, op, SeqNum) not in these lines: it was inside the "
        "collective (a victim), and the rank that never issued it is one these lines do not show",
        "Collect every rank's log (the full watchdog line: 'Watchdog caught collective operation timeout' names the "
        "rank, op and SeqNum) and Flight Recorder dumps (TORCH_FR_BUFFER_SIZE=2000; TORCH_NCCL_TRACE_BUFFER_SIZE on "
        "torch < 2.8); while it hangs, py-spy dump --pid PID on every rank's process shows the one elsewhere in the "
        "code; rerun with NCCL_DEBUG=INFO. Raise the timeout only if a rank is legitimately slow (saving, "
        "evaluating)." + NOT_SHOWN,
        "low", [], [e.brief() for e in evs[:2]])


def _driver_oom_lead(c: Collected) -> str:
    """A process of these lines that no timeout line is from failed to get GPU memory through the CUDA driver
    (CUresult 2 from cuMemCreate & co.): the likely rank that never reached the collective. Only a lead: the line
    names no rank, so nobody is accused."""
    timeouts = c.samples.get("watchdog_timeout", [])
    waiting = {e.pid for e in timeouts} | {int(p[-1]) for e in timeouts if (p := R_RAY_PID.findall(e.text))}
    waiting.discard(None)
    other = [e for e in c.samples.get("driver_oom", [])
             if (e.data.get("proc") not in waiting if e.data.get("proc") is not None else e.rank is None)]
    if not other:
        return ""
    e = other[0]
    who = f"process {e.data['proc']}" if e.data.get("proc") else "another process"
    func = e.data.get("func") or "a CUDA driver allocation"
    return (f" Lead: {who}, which printed no timeout, failed to get GPU memory ({func} out of memory, CUresult 2): "
            "it is most likely the rank that never reached the collective. Give it memory: a colocated inference "
            "engine's share (vLLM gpu_memory_utilization, SGLang mem_fraction_static: the rollout memory), smaller "
            "batches; read that worker's own log for its error.")


# lead rules B/E: the shown ranks are victims, the rank to look at is among those not shown
NOT_SHOWN = (" The ranks these lines do not show are where to look: get the logs of every rank, and while it hangs a "
             "py-spy dump of the other ranks (those not shown here); on the next run NCCL_DEBUG=INFO and "
             "TORCH_DISTRIBUTED_DEBUG=DETAIL (torch then checks each collective's type and sizes across ranks and "
             "names a rank that issued another).")


SHARD_GATHER = (" The stuck collective gathers parameter shards (FSDP / ZeRO-3 all-gather every layer's weights before "
                "its forward): a rank that runs a different number of forward passes leaves the others there -- "
                "model.generate producing different lengths per rank (pass synced_gpus=True, or generate with an "
                "unsharded copy; DeepSpeed ZeRO-3 needs it too), or a forward/eval step only some ranks run.")


def _shard_gather(c: Collected) -> bool:
    """A timed-out all-gather of a parameter shard: NumelOut a multiple of NumelIn, NumelIn large (a layer's
    shard, not a scalar or a metric)."""
    return any(t.op and "allgather" in t.op.lower().replace("_", "") and t.numel_in and t.numel_out
               and t.numel_out > t.numel_in and t.numel_out % t.numel_in == 0 and t.numel_in >= 1 << 16
               for t in c.samples.get("watchdog_timeout", []))


def silent_ranks(c: Collected) -> tuple[list[int], list[int]] | None:
    """Ranks that timed out and ranks torchrun's record shows only torn down (SIGTERM'd by the agent after
    the failure) that never reported a timeout of their own: (waiting, silent), or None. A rank absent from
    the collective the others wait in reports nothing until the agent stops it, so the silent ones are the
    lead -- only a lead: a rank inside the collective whose timeout had not fired yet looks the same. Named
    only when they are no more than the ranks that timed out (one silent rank of two, not seven of eight)."""
    waiting = sorted(r for r, st in c.ranks.items() if st.timeouts or st.status or st.counts.get("watchdog_report"))
    torn = {e.rank for e in c.child_failures + c.worker_failures
            if e.rank is not None and (e.data.get("exitcode") == -15 or e.data.get("signal") == "SIGTERM")}
    silent = sorted(r for r in torn if r not in waiting and r in c.ranks
                    and all(e.kind == "child_failed" for e in c.ranks[r].errors))
    if not waiting or not silent or len(silent) > len(waiting):
        return None
    return waiting, silent


def _silent_lead(c: Collected, waiting: list[int], silent: list[int]) -> Verdict:
    size = world_size(c)[0]
    world = f"world of {size}: " if size else ""
    return Verdict(
        "rank_missing",
        f"{world}{_named(waiting)} timed out waiting for its peers' data (victim); {_named(silent)} never reported a "
        f"timeout of its own -- torchrun's record shows it only terminated (SIGTERM) by the agent after the timeout "
        f"-- so {_named(silent)} is the lead: it most likely never reached that collective (low confidence: it may "
        "have been inside it and been stopped before its own timeout fired)",
        f"Look at what rank {_fmt_ranks(silent)} was doing at that point: its own output before the SIGTERM, a "
        "rank-conditional path (saving, evaluating, a sleep, a data wait), and py-spy dump --pid PID on it while the "
        "job hangs; dist.monitored_barrier(wait_all_ranks=True) before the collective names every rank that does "
        f"not arrive. Do not debug rank {_fmt_ranks(waiting)}: it only waited.",
        "low",
        silent,
        (_samples(c, "watchdog_timeout") + [e.brief() for e in c.child_failures[:2]])[:4],
    )


GLOO_LATE = (" A gloo op waits for one peer: ranks out of step are the usual reason -- uneven data (one rank ran out "
             "of batches: DistributedSampler(drop_last=True), or torch.distributed.algorithms.Join for uneven inputs), "
             "one rank still evaluating or saving; dist.monitored_barrier(wait_all_ranks=True) names every rank that "
             "does not arrive.")


_NEAR = 8  # SeqNums this close, enqueued at the same moment: one rank a few collectives past the others


def _own_failure(c: Collected, e: Event) -> bool:
    """A rank's error line that is more than its being inside the stuck collective: not a warning, a launcher's
    record, a peer gone (``is_consequence``), nor the heartbeat monitor firing after a collective had already timed
    out on time (``_timed_out_before``: the abort of the timed-out communicator is what held the watchdog)."""
    if e.kind in NONFATAL + ("child_failed",) or is_consequence(e):
        return False
    return not (e.kind == "heartbeat" and _timed_out_before(c, [e]))


def only_aborted(st) -> bool:
    """A rank the lines show only in NCCL's set-up/teardown chatter, its communicator aborted ("... - Abort
    COMPLETE"): torn down with the others (torch's watchdog aborts after a timeout or error), nowhere else in the
    code -- neither behind nor ahead of the stuck collective."""
    return bool(st.counts.get("comm_aborted")) and set(st.counts) <= {"transport", "comm_aborted"} and not (
        st.timeouts or st.status or st.errors)


def larger_world(c: Collected) -> str | None:
    """Lead rule E: the shown ranks all timed out inside (or past) the stuck collective -- at SeqNums that cannot
    be told apart as one group or several -- and the numbers say the world is larger than the ranks shown
    (NumelOut/NumelIn of a gather or scatter, a stated world size; the highest rank seen is only a lower bound):
    the rank that never arrived is one not shown. None when a rank shows more than its timeout or nothing says
    a rank is missing."""
    outs = [t for st in c.ranks.values() for t in st.timeouts.values()]

    def pending(st) -> list:  # a rank with no timeout line whose watchdog's status says its work is still queued
        return [s for s in st.status.values() if s.seq is not None and s.data.get("dump_from") is None
                and s.data.get("enqueued", -1) >= s.seq > s.data.get("completed", s.seq)]
    if not c.ranks or not all(st.timeouts or pending(st) or only_aborted(st) for st in c.ranks.values()) or all(
            only_aborted(st) for st in c.ranks.values()):
        return None
    lines = c.samples.get("watchdog_timeout", [])
    seqs = [t.seq for t in lines] if len(lines) == c.kinds.get("watchdog_timeout", 0) else []
    shown = {_own_rank(t) for t in lines}  # each line's own "[Rank N]" (a launcher prefix may tag them all alike)
    queued = [s for r, st in c.ranks.items() if not st.timeouts and r not in shown for s in pending(st)[:1]]
    if None in seqs or None in shown or len(shown) != len(seqs) or len(shown) < 2 \
            or max(seqs, default=0) - min(seqs, default=0) > _NEAR:
        return None  # one timeout a rank, a few collectives apart: inside or just past one stuck collective
    if any(abs(s.seq - t) > _NEAR for s in queued for t in seqs):
        return None
    shown |= {s.rank for s in queued}
    if any(_own_failure(c, e) for st in c.ranks.values() for e in st.errors):
        return None
    sizes = [max(t.numel_in, t.numel_out) // min(t.numel_in, t.numel_out) for t in outs
             if t.numel_in and t.numel_out and t.numel_in != t.numel_out and t.op
             and ("GATHER" in t.op.upper() or "SCATTER" in t.op.upper())]
    size, _, sure = world_size(c)  # a stated world size, not the highest rank seen (a lower bound only)
    # a gap below the highest rank shown (ranks of one group are 0..N-1, global or the group's own) is a member not
    # shown, as surely as a gather's NumelOut/NumelIn -- when the lines can be one group: two sizes at one SeqNum may
    # be two groups (or a desync, rule D), whose rank numbers say nothing of each other
    bysize: dict[int, set] = {}
    for t in outs:
        bysize.setdefault(t.seq, set()).add(t.numel_in)
    one = all(len(v) == 1 for v in bysize.values())
    world = max(sizes + [size if size and sure == "high" else 0, max(shown) + 1 if one else 0])
    if world <= len(shown):
        return None
    return f"its stuck collective (a world of at least {world} ranks, {len(shown)} shown)"


def one_collective(c: Collected) -> str | None:
    """Lead rule B: every rank the input shows timed out inside one collective (one SeqNum, one op,
    none behind) -> that collective, described; else None. The input holding every rank of the world
    is ``_all_joined``'s (transport_stall), which comes first."""
    outs = [t for st in c.ranks.values() for t in st.timeouts.values()]
    outs += c.samples.get("watchdog_timeout", [])  # every line read, also those that name no rank
    stuck = {t.seq for t in outs if t.seq is not None}
    status = [s for st in c.ranks.values() for s in st.status.values()]
    if not outs:  # no "Watchdog caught" line: torch's own "Timeout at NCCL work: N" status lines say it timed out
        stuck = {s.seq for s in status if s.seq is not None and s.data.get("dump_from") is None
                 and timed_out_at(s)}
    # or a dump signal -- from another rank (whose watchdog fired: it is inside), or from this rank's own watchdog
    # ("from this local rank") -- found this rank with work still pending: it waits in NCCL too
    pending = not outs and not stuck and any(s.data.get("dump_from") is not None and s.seq is None
                                             and s.data["enqueued"] > s.data.get("completed", s.data["enqueued"])
                                             for s in status)

    def queued(s) -> bool:  # a status line: at work N (the stuck one), or a dump signal's queue, past it
        n = s.seq if s.seq is not None else max(stuck, default=None)
        if n is None:  # a dump signal's queue where no line says which work is stuck: work still pending
            return pending and s.data["enqueued"] > s.data.get("completed", s.data["enqueued"])
        return n in stuck and s.data["enqueued"] >= n > s.data.get("completed", n - 1)

    def inside(st) -> bool:  # its timeout, its status line, or its watchdog's own report (also said for it
        # by another rank's "dump signal due to a collective timeout from rank R"), or its heartbeat monitor firing
        # after its own collective (or one whose line lost its rank tag: a wrapped "[Rank " cut from its number)
        # had timed out on time: its watchdog hung aborting that timeout
        return (bool(st.timeouts) or any(queued(s) for s in st.status.values())
                or bool(st.counts.get("watchdog_report"))
                or any(e.kind == "heartbeat" and _timed_out_before(c, [e], own=True) for e in st.errors))

    # a rank shown only aborting its communicator was torn down with the others (neither behind nor elsewhere) when
    # a stated world size still leaves ranks unshown (lead rule E); where the ranks shown could be the whole world,
    # such a line (its rank is the communicator's own: maybe the timed-out process itself) says nothing either way
    size, _, sure = world_size(c)
    torn = sure == "high" and (size or 0) > len(c.ranks)
    if not (outs or stuck or pending) or not all(inside(st) or (torn and only_aborted(st)) for st in c.ranks.values()) \
            or (c.ranks and all(only_aborted(st) for st in c.ranks.values())):
        return None
    if any(_own_failure(c, e) for st in c.ranks.values() for e in st.errors):
        return None  # a rank shows more than its timeout (its own error, a stuck watchdog): not only inside
    if pending:
        return "collectives still pending when a rank's timeout signalled the dump (no line says which)"
    seqs = {t.seq for t in outs if t.seq is not None} or stuck
    ops = {t.op for t in outs if t.op}
    sizes = {t.numel_in for t in outs if t.numel_in is not None}
    if len(seqs) > 1 or len(ops) > 1 or len(sizes) > 1:  # different sizes: maybe another group, or a desync
        return None
    return " ".join(x for x in ("the same", ops.pop() if ops else "collective", f"#{seqs.pop()}" if seqs else "") if x)


def _ddp_params(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """DDP's constructor found that the ranks' models differ. A rank with 0 parameters built no model
    at all, and a rank that every report names as the inconsistent one is the odd one out: those
    are culprits (medium); one report between two ranks with parameters on both sides names nobody."""
    evs = c.samples.get("ddp_params", [])
    if not evs:
        return None
    shaped = [e for e in evs if e.data.get("shape")]
    if len(shaped) == len(evs):  # only the shape check: a process differs from process 0, neither side is named
        e = shaped[0]
        who = f"rank {e.data['reporter']}" if e.data.get("reporter") is not None else "a process"
        return Verdict(
            "desync",
            f"the ranks built different models before DDP wrapped them: DDP's check (_verify_model_across_ranks) found "
            f"a parameter of {who} with {e.data['shape']} that does not match the same parameter in process "
            f"{e.data['odd']}; the ranks' collectives no longer match, so the others wait (their timeouts follow) -- "
            "which side built the wrong model the lines do not say",
            "Make every rank build the same model on every rank before DDP(...): the same config, the same "
            "checkpoint and model loading path (no rank-conditional layers, a checkpoint every rank reads alike), "
            "the same freezing of parameters; compare the param sizes per rank ([(n, p.shape) for n, p in "
            "model.named_parameters()]) and rerun with TORCH_DISTRIBUTED_DEBUG=DETAIL.",
            "medium", [], [x.brief() for x in shaped[:3]])
    evs = [e for e in evs if not e.data.get("shape")]
    odd = {e.data["odd"] for e in evs}
    empty = {e.data["odd"] for e in evs if e.data["odd_params"] == 0} | {
        e.data["reporter"] for e in evs if e.data["reporter_params"] == 0}
    reporters = {e.data["reporter"] for e in evs}
    culprits = sorted(empty) if empty else (sorted(odd) if len(odd) == 1 and len(reporters) > 1 else [])
    e = evs[0]
    return Verdict(
        "desync",
        f"the ranks built different models before DDP wrapped them: rank {e.data['reporter']} has "
        f"{e.data['reporter_params']} parameters, rank {e.data['odd']} {e.data['odd_params']}"
        + (f"; {_named(culprits)} is the odd one out" if culprits else ""),
        "Make every rank construct the same model before DDP(...): the same config and model loading path on every "
        "rank (no rank-conditional layers, a checkpoint every rank can read, the same freezing of parameters); "
        "print sum(p.numel() for p in model.parameters()) per rank to compare.",
        "medium" if culprits else "high", culprits, [x.brief() for x in evs[:3]])


def _desync_report(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """torch's fingerprint check (or NCCL's) says outright that ranks issued different
    collectives: a desync of the code paths. Both ranks it names are where to look; neither
    is a victim or a culprit on its own."""
    evs = c.samples.get("desync_report", [])
    if not evs:
        return None
    e = evs[0]
    prints = e.data.get("prints") or []
    sides = [f"rank {p['rank']} runs {p.get('op') or '?'}" + (f" #{p['seq']}" if p.get("seq") is not None else "")
             + (f" shape [{p['shape']}]" if p.get("shape") else "") for p in prints]
    what = "; ".join(sides) or (f"around rank {e.data['around']}" if e.data.get("around") is not None else "")
    differ = f" (they differ in: {e.data['differ']})" if e.data.get("differ") else ""
    if not what and differ:
        what, differ = e.data["differ"], ""
    return Verdict(
        "desync",
        f"the ranks issued different collectives at the same point: {what}{differ}. Two code paths diverged (a "
        "rank-dependent branch, data-dependent shapes or bucket sizes, an extra call on some ranks)",
        "Make every rank issue the same collectives in the same order with the same shape: pad or split evenly so "
        "shapes match, keep logging/metric calls identical on all ranks, avoid rank-conditional collectives. "
        "TORCH_DISTRIBUTED_DEBUG=DETAIL checks each collective's fingerprint across ranks; for NCCL's own check, "
        "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=COLL logs each call." + (
            " FSDP checked its forward order: every rank must run the same modules in the same forward order (no "
            "rank-conditional code or data-dependent branches around FSDP-wrapped modules, the same model code and "
            "library versions on every rank, the same wrapping policy and use_orig_params setting)."
            if any(x.data.get("fsdp") for x in evs) else "") + (
            " An object gather (all_gather_list, all_gather_object) pickles each worker's data into one buffer: "
            "every worker must call it together, the same number of times. The workers out of sync: one ran out of "
            "memory and skipped a batch, or finished its epoch early (give every worker the same number of batches "
            "per worker, drop_last), or rank-conditional code (layer drop / LayerDrop, a branch on the rank) made "
            "them call it differently (DDP with find_unused_parameters=True for layers skipped at random); a message "
            "larger than the gather's buffer fails the same way (fairseq: --all-gather-list-size)."
            if any(x.data.get("objects") for x in evs) else ""),
        "medium" if all(x.data.get("objects") for x in evs) else "high", [], [x.brief() for x in evs[:2]])


def _lagging_report(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """torch's desync report (TORCH_NCCL_DESYNC_DEBUG=1) names the ranks out of step: those that "finished
    collective #N, but didn't join collective #N+1" never issued the one the others wait in, "never joined any
    collectives" likewise; those that "joined but didn't finish" are inside it. When it lists both kinds, the
    smaller list is the odd one out. torch says "to our best knowledge" (its store-based trace), so: medium."""
    evs = c.samples.get("lagging_report", [])
    if not evs:
        return None
    by = {how: sorted({r for e in evs if e.data["how"] == how for r in e.data["ranks"]}) for how in
          ("start", "end", "never")}
    lists = [r for r in (by["never"], by["end"], by["start"]) if r]
    ranks = min(lists, key=len)
    seq = next((e.seq for e in evs if e.seq is not None), None)
    where = f" collective #{seq}" if seq is not None else " the collective the others wait in"
    if ranks is by["start"] and not by["end"] and not by["never"] and _whole_world(c, ranks):
        # torch lists every rank as "joined but didn't finish": nobody lagged, every rank is inside (rule B)
        return Verdict(
            "transport_stall",
            f"torch's desync report lists every rank of the job ({_fmt_ranks(ranks)}) as having joined{where} and "
            "none finishing it: no rank lagged or stayed away -- all are inside the same collective (victims), so the "
            "data path itself stalled (a link, a NIC, a GPU that stopped, or a peer-to-peer path that never connects)",
            "Run `ncclDoctor check --nodes N` (or nccl-tests' all_reduce_perf) on the same nodes to find the slow or "
            "broken link; rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET to see the transport and interface "
            "chosen (NCCL_SOCKET_IFNAME / NCCL_IB_HCA); dmesg and nvidia-smi for Xid errors.",
            "medium", [], [e.brief() for e in evs[:3]], job_wide=True)
    what = ("joined but never finished" if ranks is by["start"] and not by["end"] and not by["never"]
            else "never joined")
    return Verdict(
        "rank_missing",
        f"torch's desync report names {_named(ranks)} as the lagging rank: it {what}{where}, while the other ranks "
        "went on and are blocked behind it (victims)",
        f"Look at what rank {_fmt_ranks(ranks)} was doing: py-spy dump --pid PID on it while the job hangs (py-spy "
        "dump --native for a stuck CUDA call), its own log, and Flight Recorder dumps (TORCH_FR_BUFFER_SIZE=2000) "
        "for its last collectives; TORCH_NCCL_DESYNC_DEBUG=1 keeps this report on.",
        "medium", ranks, [e.brief() for e in evs[:3]])


def _whole_world(c: Collected, ranks: list[int]) -> bool:
    """The ranks are the whole job: 0..N-1 without a gap (N > 1), no rank outside them shown anywhere, and no
    world size printed that is larger."""
    n = len(ranks)
    return (n > 1 and ranks == list(range(n)) and set(c.ranks) <= set(ranks)
            and all(size <= n for size, _ in c.world))


def _barrier_timed_out(c: Collected, evs: list[Event]) -> bool:
    """The monitored barrier's error is followed, within its "Original exception:" block (a few lines), by gloo's
    own timeout waiting for the send/recv: the peer never answered."""
    spots = []
    for e in evs:
        if e.data.get("errors"):
            path, _, line = e.where.rpartition(":")
            spots.append((path, int(line) if line.isdigit() else -1))
    for t in c.samples.get("watchdog_timeout", []):
        path, _, line = t.where.rpartition(":")
        if t.data.get("backend") == "gloo" and line.isdigit() and any(
                path == p and 0 < int(line) - n <= 8 for p, n in spots):
            return True
    return False


def _monitored(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """torch's monitored_barrier names the ranks that did not reach it (rank 0 waited for each
    in turn); the ranks that passed it are victims of whatever those ranks were doing."""
    evs = c.samples.get("monitored_barrier", [])
    if not evs:
        return None
    ranks = sorted({r for e in evs for r in e.data["ranks"]})
    secs = next((e.data["timeout_ms"] / 1000 for e in evs if e.data.get("timeout_ms")), None)
    gone = (any(e.data.get("errors") or "by peer" in e.text.lower() for e in evs)
            or any(R_PEER_GONE.search(str(e.data.get("what", ""))) for e in c.samples.get("gloo_error", [])))
    how = (" and its connection was closed: that process exited or crashed before the barrier" if gone
           else ": it was still busy elsewhere (a longer step, a hang, a rank-conditional path)")
    closed = (any("by peer" in e.text.lower() for e in evs)
              or any(R_PEER_GONE.search(str(e.data.get("what", ""))) for e in c.samples.get("gloo_error", [])))
    if not closed and _barrier_timed_out(c, evs):
        # "reached monitoredBarrier, but received errors ...", its original exception gloo's own "Timed out waiting
        # Nms for send/recv operation": the peer's socket stayed open and silent -- alive, but it never arrived
        return Verdict(
            "rank_missing",
            f"torch's monitored_barrier: the waiting rank's send/recv with rank {_fmt_ranks(ranks)} timed out (its "
            f"connection stayed open): rank {_fmt_ranks(ranks)} was alive but never reached the barrier -- still busy "
            "elsewhere (rank-0-only work such as validation, checkpointing or logging, a hang) -- and the ranks that "
            "reached it are its victims",
            f"Look at rank {_fmt_ranks(ranks)}: py-spy dump --pid PID of its process while the others wait shows "
            "where it is; its own log shows what it was doing before the barrier (rank-0-only work on the main "
            "process). A longer init_process_group(timeout=...) only helps when that work is legitimately long. "
            "TORCH_DISTRIBUTED_DEBUG=DETAIL keeps the check on.",
            "high", ranks, [e.brief() for e in evs[:3]])
    if any(e.data.get("errors") for e in evs):
        # "reached monitoredBarrier, but received errors while waiting for send/recv from rank N": N's process
        # failed (its socket errored or closed), which is more than missing it; its own error is not here
        return Verdict(
            "unknown",
            f"torch's monitored_barrier: the waiting rank's send/recv with rank {_fmt_ranks(ranks)} failed (not a "
            f"timeout): rank {_fmt_ranks(ranks)} is the faulty rank -- its process errored, exited or crashed -- and "
            "the ranks that reached the barrier are its victims; why it failed is not in these lines",
            f"Read rank {_fmt_ranks(ranks)} logs: its own traceback and exit code (torchrun's failure summary, "
            "dmesg for the OOM killer on its node, the pod's events); monitoredBarrier names the faulty rank but not "
            "its error. TORCH_DISTRIBUTED_DEBUG=DETAIL keeps the check on.",
            "high", ranks, [e.brief() for e in evs[:3]])
    return Verdict(
        "rank_missing",
        f"torch's monitored_barrier reports that rank {_fmt_ranks(ranks)} did not reach the barrier"
        + (f" in {secs:g} s" if secs else " (its send/recv failed)") + how,
        f"Look at rank {_fmt_ranks(ranks)}: its own log and traceback (did it exit or crash?), or py-spy dump --pid "
        "PID while it is stuck; the ranks that passed the barrier are victims.",
        "high", ranks, [e.brief() for e in evs[:3]])


def _hvd_split(recs: list[tuple[str, list[int]]], evs: list[Event], world: int) -> Verdict | None:
    """Lead rule D read through Horovod's stall inspector: when the ready lists split the ranks into disjoint groups,
    each waiting in tensors no other group submitted, no rank is merely behind -- the groups submitted different
    tensors (a desync). One lone rank against a group of at least two that agree took the rank-conditional path: it is
    the culprit, the agreeing ranks innocent. With no such majority (two pairs, several groups) nobody is named."""
    if any(how != "ready" for how, _ in recs):
        return None
    groups: list[frozenset[int]] = []
    for _, rs in recs:
        g = frozenset(rs)
        if g not in groups:
            groups.append(g)
    if len(groups) < 2 or any(a & b for i, a in enumerate(groups) for b in groups[i + 1:]):
        return None
    shown = set().union(*groups)
    fix = ("Every rank must submit the same tensors in the same order: look for rank-conditional code or a "
           "data-dependent branch (inconsistent shapes, a loss allreduce or metric computed on some ranks only) around "
           "the collectives of {who}. HOROVOD_TIMELINE shows which tensors each rank submitted; py-spy dump --pid PID "
           "on each rank shows where it waits. HOROVOD_STALL_CHECK_TIME_SECONDS sets when the warning is printed.")
    names = "; ".join(f"{_named(sorted(g))} ready in {sum(frozenset(rs) == g for _, rs in recs)} tensor(s)"
                      for g in groups)
    lone = [g for g in groups if len(g) == 1]
    if len(groups) == 2 and len(lone) == 1 and max(len(g) for g in groups) >= 2:
        odd = sorted(lone[0])
        whole = shown == set(range(world))
        return Verdict(
            "desync",
            f"Horovod's stall inspector shows the ranks waiting in different tensors ({names}): {_named(odd)} "
            "submitted a collective the other ranks, which agree among themselves, never did -- it took another code "
            "path (a rank-conditional branch, inconsistent shapes); the agreeing ranks are victims",
            fix.format(who=_named(odd)), "high" if whole else "medium", odd, [e.brief() for e in evs[:3]])
    return Verdict(
        "desync",
        f"Horovod's stall inspector shows the ranks waiting in different tensors ({names}): the groups submitted "
        "different collectives, and no single rank stands against a majority, so the lines cannot say which took the "
        "other path",
        fix.format(who="each group"), "low", [], [e.brief() for e in evs[:3]])


def _hvd_stall(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Horovod's stall inspector lists each tensor some ranks submitted while others did not, with either the ranks
    missing from it or the ranks ready in it. The ranks that never submitted are the ones the others wait for
    (rank_missing); the ready ranks (and the coordinator that prints the list) wait inside and are victims. A ready
    list names the missing only below its highest rank (a rank above it may be missing too, unseen) or up to a world
    size the lines state. A rank is named only when every stalled tensor lacks it and no record has it ready."""
    evs = c.samples.get("hvd_stall", [])
    if not evs:
        return None
    # every record of every line: a line may list several stalled tensors, each with its own ranks
    recs = [rec for e in evs for rec in (e.data.get("records") or [(e.data["how"], e.data["ranks"])])]
    size, _, sure = world_size(c)
    ready = {r for how, rs in recs if how == "ready" for r in rs}
    top = max([r for _, rs in recs for r in rs] + [-1]) + 1
    world = size if sure == "high" and size and size >= top else top
    split = _hvd_split(recs, evs, world)
    if split:
        return split

    def lacking(how: str, rs: list[int]) -> set[int]:
        if how == "missing":
            return set(rs)
        return set(range(world)) - set(rs)
    sets = [lacking(how, rs) for how, rs in recs]
    ranks = sorted(set.intersection(*sets) - ready
                   - {e.data.get("reporter") for e in evs
                      if any(how == "ready" for how, _ in (e.data.get("records") or [(e.data["how"], [])]))})
    waiting = sorted(ready | ({e.data["reporter"] for e in evs if e.data.get("reporter") is not None} - set(ranks)))
    n = max(len(evs), c.kinds.get("hvd_stall", 0), *(len(e.data.get("tensors", ())) for e in evs))
    tensors = f"{n} tensor{'s' if n > 1 else ''}"
    fix = (
        "Horovod's stall warning lists the missing ranks: every rank must submit the same tensors in the same order "
        "(hvd.broadcast_global_variables / BroadcastGlobalVariablesHook and every allreduce run on all ranks -- no "
        "rank-conditional code around them, e.g. on rank 0 only). Look at what {who} was doing: its own log and "
        "traceback (did it exit or crash?), py-spy dump --pid PID on it while the job waits; HOROVOD_TIMELINE shows "
        "which tensors each rank submitted. HOROVOD_STALL_CHECK_TIME_SECONDS sets when the warning is printed "
        "(HOROVOD_STALL_SHUTDOWN_TIME_SECONDS ends the job instead of waiting forever); the waiting ranks are victims.")
    if not ranks:
        return Verdict(
            "rank_missing",
            f"Horovod's stall inspector reports {tensors} submitted by only some ranks"
            + (f" ({_named(waiting)} ready)" if waiting else "") + ": a rank the lines do not name never submitted "
            "them, and the others wait for it",
            fix.format(who="the rank that did not submit them"), "low", [], [e.brief() for e in evs[:3]])
    return Verdict(
        "rank_missing",
        f"Horovod's stall inspector reports {tensors} that {_named(ranks)} never submitted"
        + (f" while {_named(waiting)} did and wait" if waiting else " while the other ranks did and wait")
        + f": {_named(ranks)} {'is' if len(ranks) == 1 else 'are'} what the others wait for (another code path, still "
        "busy, or dead), and the waiting ranks are victims",
        fix.format(who=_named(ranks)), "high", ranks, [e.brief() for e in evs[:3]])


def _load_barrier(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """A serving engine's barrier after loading the weights (SGLang's "TP rank N could finish the model loading, but
    there are other ranks that didn't finish loading"): the ranks that print it arrived and are victims; the rank(s)
    that never arrived are not named (lead rules B and E: rank_missing, culprits unknown)."""
    evs = c.samples.get("load_barrier", [])
    if not evs:
        return None
    came = sorted({e.rank for e in evs if e.rank is not None})
    return Verdict(
        "rank_missing",
        f"tensor-parallel rank {_fmt_ranks(came)} finished loading the model and waited in the engine's barrier for "
        "the others, which never arrived: a rank still loading (a slow node, slow storage) or one that died while "
        "loading (the OOM killer, a crash) -- not one these lines show; the ranks that reported are its victims",
        "Find the rank that did not finish loading: every rank's own log (its last 'Loading ... checkpoint shards' "
        "line, a traceback), dmesg -T on each node for the OOM killer (host memory while loading the weights), and "
        "the load time per node (slow disk or network filesystem); raise the engine's load/barrier timeout only for a "
        "slow but healthy node.",
        "medium", [], [e.brief() for e in evs[:3]])


def _xla_rendezvous(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """XLA's rendezvous warning that a collective's participants did not all arrive ("... may be stuck. Expected N
    threads to join the rendezvous"): the waiting participant is shown, the missing ones are not -- with a clique
    larger than the threads this process runs, the other process's devices never reached it (lead rules B, E, H:
    rank_missing, nobody named, the waiting rank a victim)."""
    evs = c.samples.get("xla_rendezvous", [])
    if not evs:
        return None
    e = evs[0]
    what, clique, expected = e.data["what"], e.data.get("clique"), e.data["expected"]
    waiting = sorted({x.data["waiting"] for x in evs if x.data.get("waiting") is not None})
    other = bool(clique and clique > expected)
    return Verdict(
        "rank_missing",
        f"XLA's rendezvous for `{what}` waited {e.data['waited_s']} s"
        + (f" (rank {_fmt_ranks(waiting)} arrived)" if waiting else "")
        + (f": the clique spans {clique} devices while this process runs {expected} of them, and the devices of the "
           "other process(es) never joined" if other else f": not all of the {expected} participants arrived")
        + (" (the NCCL communicator of their first collective)" if "clique" in what else "")
        + "; the one that never came (busy before it, on another path, or dead) is not shown, the waiting ones are "
        "its victims",
        "Check that every process reaches the collective: every process must run the same collective (the same "
        "pmap / jit-compiled program, in the same order; every host/process reaches the collective, jax.distributed."
        "initialize on each); take py-spy dump --pid PID of each process while it waits to see where the missing one "
        "is. If every process is there, it is the connection set-up: rerun with NCCL_DEBUG=INFO and set "
        "NCCL_SOCKET_IFNAME to the interface the hosts share (XLA_FLAGS for XLA's own collective settings).",
        "medium", [], [x.brief() for x in evs[:3]])


def _direct_hang(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """A desync or a rank behind, proven directly (enqueued counts, Flight Recorder, torch's
    analyzer): the job ran past set-up and one rank diverged, whatever else the logs say
    (a transient connect retry at start-up does not explain it)."""
    high = [k for k in ks if k.kind in ("desync", "culprit") and k.confidence == "high"]
    if not high:
        return None
    return _desync(c, high) if high[0].kind == "desync" else _missing(c, high)


BUSY_FIX = ("Let the main process prepare the data once before the others need it, and give it the time: "
            "preprocess and cache the dataset (tokenisation, grouping, packing) in a separate step before the "
            "distributed run, or run "
            "it under training_args.main_process_first() / accelerate's main_process_first() so the other ranks load "
            "the cache; raise the collective timeout to cover what remains (init_process_group(timeout=...), the HF "
            "Trainer's ddp_timeout, accelerate's InitProcessGroupKwargs(timeout=...)); fewer num_proc workers or a "
            "faster disk for the datasets cache if the step crawls. A longer timeout alone only hides a step that "
            "never ends.")


def _data_bars(c: Collected) -> list[Event]:
    """The data preparation bars (parse._bar) that stopped short of their end."""
    return [e for e in c.samples.get("busy", []) if not e.data["done"]]


def _busy(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule I: ranks time out in a collective while another rank's own lines (its launcher prefix on a data
    preparation bar short of its end: tokenising, grouping, mapping the dataset) show it still working before that
    collective: it is the rank the others wait for (rank_missing), the ranks inside are victims. Not when a rank shows
    an error of its own, nor when the prefix is only a local rank of a job spanning several hosts."""
    bars = [e for e in _data_bars(c) if e.data["rank"] is not None]
    if not bars or not any(c.kinds.get(k) for k in ("watchdog_timeout", "watchdog_status", "watchdog_report")):
        return None
    waiting = sorted(r for r, st in c.ranks.items() if st.timeouts or st.status or st.counts.get("watchdog_report"))
    busy = sorted({e.data["rank"] for e in bars} - set(waiting))
    if not busy or not waiting or any(own_errors(st) for st in c.ranks.values()):
        return None
    if len(hosts(c)) > 1 and any(e.text.startswith("[default") for e in bars):
        return None  # torchrun's "[defaultN]:" is a local rank: on several hosts it does not name the process
    e = next(e for e in bars if e.data["rank"] in busy)
    return Verdict(
        "rank_missing",
        f"{_named(waiting)} timed out inside a collective while {_named(busy)}'s own lines show it still preparing "
        f"data ({e.data['what']}: {e.data['pct']}%): {_named(busy)} had not reached that collective -- it is the rank "
        "the others wait for, and they are its victims",
        f"Rank {_fmt_ranks(busy)} was still busy before the collective, not hung in NCCL. " + BUSY_FIX,
        "medium", busy, [e.brief()] + _samples(c, "watchdog_timeout")[:2])


def _p2p_check(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule I in vLLM's multiprocessing executor: the driver (the unprefixed lines: tensor-parallel rank 0) logs
    that it is generating the GPU P2P access cache and prints nothing after it, while a worker ("(VllmWorkerProcess
    pid=N)", a rank >= 1) times out later in a collective while initialising its device: the driver was still in its
    P2P check, which the workers wait for -- it is the rank they wait for (rank_missing, rank 0), the worker its
    victim. Not when any process shows an error of its own or a launcher records a failure. (Only lines with a trigger
    word are read: a later driver line without one is not seen, hence the worker's init_device as well.)"""
    steps = [e for e in c.samples.get("driver_step", []) if not e.data.get("later")]
    if not steps or c.child_failures or c.worker_failures or any(own_errors(st) for st in c.ranks.values()):
        return None
    step = steps[0]
    path, _, line = step.where.rpartition(":")
    outs = [t for t in c.samples.get("watchdog_timeout", []) if R_VLLM_WORKER_LINE.search(t.text)
            and "init_device" in t.text  # the check runs while the workers initialise their devices
            and t.where.rpartition(":")[0] == path and int(t.where.rpartition(":")[2]) >= int(line)]
    if not outs or 0 in {t.rank for t in outs}:
        return None
    return Verdict(
        "rank_missing",
        "vLLM's driver (tensor-parallel rank 0) was generating the GPU P2P access cache and printed nothing after it, "
        "while its worker timed out in a collective waiting for it: the driver was still in the custom all-reduce's "
        "P2P check -- it is the rank the worker waits for, and the worker is its victim",
        "The P2P check launches processes that test CUDA IPC between every GPU pair; it hangs where GPU peer-to-peer "
        "is broken (PCIe ACS / IOMMU on, a VM or container without P2P). Start vLLM with --disable-custom-all-reduce "
        "(skips the check), or fix P2P (ACS off, IOMMU passthrough; NCCL_P2P_DISABLE=1 as a test) and let the "
        "gpu_p2p_access_cache JSON be written once; py-spy dump --pid of the driver process shows where it is.",
        "medium", [0], [step.brief()] + [t.brief() for t in outs[:2]])


_EVAL_NEAR = 3  # lines: the evaluation's output is the last thing printed before the others' timeouts


def _evaluating(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule I, the main process evaluating alone: ranks other than 0 time out in a BROADCAST (a broadcast waits
    for its source: the metrics rank 0 computes, DDP's buffers at the next step) while the main process's own output
    (no launcher prefix, or rank 0's) shows an evaluation still running right before those timeouts -- a validation bar
    short of its end, an evaluator's progress line (COCO evaluation, mAP validation), which frameworks run and print
    on rank 0 alone. Rank 0 had not reached the broadcast: it is the culprit (rank_missing), the ranks inside are
    victims. An all-gather or all-reduce is read so only when the lines leave rank 0 the one rank of the world not
    inside it -- ranks 1..N-1 all shown in one collective (one SeqNum), no stated world larger -- and the main
    process's output is an evaluator's own line ("Evaluating ..."), not a bar (every rank may evaluate and draw one):
    the ranks shown are past their evaluation, the one still in it is the rank not shown. Not when rank 0 shows a
    timeout of its own or a rank an error of its own."""
    outs = c.samples.get("watchdog_timeout", [])
    if not outs or any(not t.op for t in outs):
        return None
    bcast = all(t.op.upper() == "BROADCAST" for t in outs)
    if any(t.data.get("ran_for_ms") and t.data.get("timeout_ms") and t.data["ran_for_ms"] > 1.25 * t.data["timeout_ms"]
           for t in outs):
        return None  # a watchdog that could not run on time (_blocked's reading), not only a wait
    if any(e.data.get("exitcode") not in (None, 0, -15, -6) for e in c.child_failures + c.worker_failures):
        return None  # a process recorded failing on its own: its failure is the story (rule A)
    waiting = sorted(r for r, st in c.ranks.items() if st.timeouts or st.status or st.counts.get("watchdog_report"))
    own = {_own_rank(t) for t in outs}
    if not waiting or None in own or 0 in own or 0 in waiting or any(own_errors(st) for st in c.ranks.values()):
        return None
    if not bcast:  # rank 0 must be the only rank of the world the lines leave outside the one collective
        size, _, sure = world_size(c)
        if (len({(t.op.upper(), t.seq) for t in outs}) != 1 or waiting != list(range(1, waiting[-1] + 1))
                or (sure == "high" and size != waiting[-1] + 1)):
            return None

    def at(e: Event) -> tuple[str, int]:
        path, _, line = e.where.rpartition(":")
        return path, int(line) if line.isdigit() else 0
    first = {}
    for t in outs:
        p, n = at(t)
        first[p] = min(first.get(p, n), n)
    evs = [e for e in c.samples.get("evaluating", []) if not e.data["done"] and e.data["rank"] in (None, 0)
           and at(e)[0] in first and 0 <= first[at(e)[0]] - at(e)[1] <= _EVAL_NEAR
           and (bcast or R_EVAL_LINE.search(e.text))]
    if not evs:
        return None
    e = evs[0]
    return Verdict(
        "rank_missing",
        f"{_named(waiting)} timed out inside a{'' if bcast else 'n'} {outs[0].op.upper()} while the main process's "
        f"own output right before it shows an evaluation still running ({e.text[:100]}): frameworks evaluate on rank 0 "
        "alone while the other ranks go on to the next collective and wait for rank 0 there"
        + (" (its broadcast)" if bcast else ", and rank 0 is the one rank of the world not inside it") +
        " -- rank 0 had not reached it, so it is the rank the others wait for, and they are its victims",
        "Rank 0 evaluation (the validation / metric computation only the main process runs) took longer than the "
        "collective timeout. Raise the process-group timeout to cover it (init_process_group(timeout="
        "timedelta(hours=2)), the framework's own timeout setting), or make the evaluation faster: evaluate on a "
        "subset or less often, a faster/parallel evaluator, or evaluate on every rank and reduce the metrics; the "
        "other ranks only waited.",
        "medium", [0], [e.brief()] + [t.brief() for t in outs[:2]])


def _store_wait(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """A rank's read from the store (a get/wait: c10d's waitForInput on a socket it had connected) that times out: the
    store answered the connection, and the rank waits for a key another rank has not written yet -- that rank is
    elsewhere (still preparing data, loading, or dead), so this is rank_missing with the culprit unnamed (lead rules G
    and L; the key's rank, when a line names it, is _uniqueid's). A connect that fails or times out stays _store's
    (store_rendezvous), and so does a wait of torchrun's agent itself (no "[rankN]:" of a training process: torch glues
    it to its lines once the default group exists; or torchrun's own frames in the traceback), which is the rendezvous
    waiting for other nodes."""
    evs = [e for e in c.samples.get("store_timeout", []) if e.data.get("waited_input")
           and (e.rank is not None or e.data.get("in_collective"))]
    if not evs or c.kinds.get("agent_frame") or any(e.data.get("joined") or e.data.get("rendezvous")
                                                     for e in c.samples.get("store_timeout", [])):
        return None
    waiting = sorted({e.rank for e in evs if e.rank is not None})
    coll = next((e.data["in_collective"] for e in evs if e.data.get("in_collective")), None)
    who = (_named(waiting) if waiting else "a process (its rank not shown)") + (
        f", in its {coll} call (with NCCL's lazy set-up a group's first collective reads the NCCL unique id from the "
        "store),") * bool(coll)
    ep = next((e.data["endpoint"] for e in evs if e.data.get("endpoint")), None) or "MASTER_ADDR:MASTER_PORT"
    bars = _data_bars(c)
    seen = (f"; the lines show data still being prepared ({bars[0].data['what']}: {bars[0].data['pct']}%)"
            if bars else "")
    return Verdict(
        "rank_missing",
        f"{who} had connected to the store at {ep} and waited the whole timeout for a key another rank had "
        f"not written yet{seen}: the rank that should have written it was elsewhere -- usually the main process still "
        "preprocessing or tokenising the dataset while the others wait (or loading, or gone); the waiting ranks are "
        "victims and the lines do not name the one they wait for",
        "Find the rank the others wait for (rank 0 for most keys): its own log up to the timeout, py-spy dump --pid "
        "PID on it while the job waits. " + BUSY_FIX + " If it died, its traceback and exit code are the cause. If "
        f"it is a rank on the other node(s) that never joined, check they were started and reach {ep} (nc -zv HOST "
        "PORT; MASTER_ADDR / --dist-init-addr naming an address every node can route to, over the same family: IPv4 "
        "vs IPv6 from the host name's lookup).",
        "low", [], [e.brief() for e in (bars[:1] + evs[:2])],
        demote="its store read only waited for a key another rank had not written: a victim")
