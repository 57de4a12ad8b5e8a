"""A rank missing from a wait the others are in (rank_missing): a barrier, the ncclUniqueId, a store key, a
group's first collectives, a rank still busy preparing data or evaluating, Horovod's and XLA's stalls."""

from __future__ import annotations

import re

from ncclDoctor.diagnose.reason import (
    Conclusion,
    _fmt_ranks,
    _own_rank,
    barrier_roles,
    own_errors,
    raised_outside,
    world_size,
)
from ncclDoctor.diagnose.signatures import FR_ON, R_EVAL_LINE, R_PEER_GONE, R_RAY_PID, R_VLLM_WORKER_LINE, Event
from ncclDoctor.diagnose.state import Collected
from ncclDoctor.diagnose.verdict.base import Verdict, _first, _named, _samples, hosts, place
from ncclDoctor.diagnose.verdict.desync import _desync, _hvd_split


def _uniqueid(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """A rank waited in the store for the ncclUniqueId of a new communicator, which the
    group's rank 0 publishes at its first collective of that group. A timeout: rank 0 never
    got there (busy elsewhere: dataset preprocessing under main_process_first, a prompt, a
    rank-conditional path); the connection lost: the store's host process died."""
    evs = c.samples.get("uniqueid_wait", [])
    if not evs:
        return None
    waiting = sorted({e.rank for e in evs if e.rank is not None})
    roots = sorted({e.data["root"] for e in evs})
    proof = [e.brief() for e in evs[:3]]
    uid = evs[0].data.get("uid", "ncclUniqueId")  # HCCL's (torch_npu) or NCCL's
    who = f"rank(s) {_fmt_ranks(waiting)}" if waiting else "a rank (its number not in the line)"
    # where the store lived: rank 0's own process when the lines show init_method="tcp://" or a launcher that hosts
    # no store (DeepSpeed's launch.py); torchrun's agent hosts it otherwise, and a bare traceback does not say
    host0 = (c.samples.get("store_host", []) + c.samples.get("tcp_init", [])
             if not c.kinds.get("agent_frame") else [])
    # vLLM's multiprocessing executor: its workers ("(VllmWorkerProcess pid=N)") are spawned by the job's own main
    # process, tensor-parallel rank 0 (the driver worker), which hosts the tcp:// store -- no launcher agent does, as
    # with mp.spawn (lead rules AT (2), AZ (1))
    spawned = [e for e in evs if R_VLLM_WORKER_LINE.search(e.text)] if not c.kinds.get("agent_frame") else []
    # the wait's line cut before its error (its head lost) with the same store's read failing right after it on the
    # store's side closing ("Failed to recv, got 0 bytes. Connection was likely closed": a store-gone socket error):
    # the connection was lost, not timed out (round 78's continual-vla-rl-2)
    closed = [e for e in c.samples.get("socket_error", []) if e.data.get("store_gone") and e.data.get("store_said")]
    gone = all(e.data["gone"] for e in evs) or bool(
        closed and all("head cut off" in e.data["error"] for e in evs))
    # Ray actors ("(EmbodiedFSDPActor pid=194723) ..." on every line shown, no torchrun agent): an env:// group
    # started in actors has no agent store, so rank 0's own process hosts the TCPStore (lead rules AT (2), AZ (1))
    actors = [e for e in evs + closed if R_RAY_PID.search(e.text)] if not c.kinds.get("agent_frame") else []
    host = (host0[0].data.get("launcher") or "init_method=tcp://") if host0 else (
        "vLLM's multiprocessing executor (its workers spawned by the main process, the driver worker)"
        if spawned else "the Ray actors (no torchrun agent: an env:// store lives in rank 0's actor)"
        if closed and actors else None)
    waiting = waiting or sorted({e.rank for e in closed if e.rank is not None and e.rank != 0})
    who = f"rank(s) {_fmt_ranks(waiting)}" if waiting else who
    if gone and host and roots == [0] and waiting and 0 not in waiting:
        return Verdict(
            "early_exit",
            f"{who} lost the store while waiting for rank 0's {uid} ({evs[0].data['error']}), and "
            f"{host} shows the store lived in rank 0's own process "
            "(no launcher agent hosts it): rank 0 exited or crashed first; the ranks that printed this are its victims",
            "The store host (rank 0) exited: read rank 0's own log for its exception or exit (its traceback, an "
            "out-of-memory kill in dmesg: host memory while it loads or preprocesses -- dataset preprocessing under "
            "main_process_first runs on rank 0 alone); the ranks that printed this are victims. If rank 0 was still "
            "running, the reset is the network between the nodes: check MASTER_ADDR / MASTER_PORT is reachable from "
            "every node (nc -zv MASTER_ADDR MASTER_PORT).",
            "medium", [0], proof + ([host0[0].brief()] if host0 else []))
    if gone:
        return Verdict(
            "early_exit",
            f"{who} lost the store while waiting for rank {_fmt_ranks(roots)}'s "
            f"{uid} ({evs[0].data['error']}): the process hosting the store (rank 0 / the first node's "
            "torchrun) exited or crashed first",
            # the store's host is not shown (rank 0's process or torchrun's agent): the fix reads the logs of every
            # rank for the first one to exit, and a host still running leaves the network (lead rules AK (1), G)
            f"Read the logs of every rank, rank {_fmt_ranks(roots)}'s first, for its exception or exit: the store "
            f"host (rank 0's own process or the first node's torchrun) went away before rank {_fmt_ranks(roots)}'s "
            "ncclUniqueId was read; the ranks that printed this are victims. If every process was still running, the "
            "reset is the network: check that MASTER_ADDR / MASTER_PORT is reachable from every node.",
            "medium", [], proof)
    from ncclDoctor.diagnose.verdict.world import world_unfit

    unfit = world_unfit(c, [e for e in evs if e.data.get("root") == 0])  # lead rule AE over G: a world no launch fills
    if unfit is not None:
        return unfit
    crossed = _root_inside(c, evs, roots, waiting)
    if crossed is not None:
        return crossed
    return Verdict(
        "rank_missing",
        f"{who} waited for the group's rank {_fmt_ranks(roots)} to publish the {uid} "
        f"of a new communicator ({evs[0].data['error']}): that rank never reached its first collective of this group "
        "(global rank 0 for the default group; the group's first rank for a sub-group)",
        f"Rank {_fmt_ranks(roots)} never reached its first NCCL collective of this group: find what it was doing "
        f"instead (py-spy dump rank {_fmt_ranks(roots)}'s process while the others wait; its own log's last lines): "
        f"a long step only it runs (rank {_fmt_ranks(roots)} still building/loading the dataset under "
        "main_process_first, a download, a wandb login prompt), a rank-conditional path, or a crash. Preprocess the "
        "dataset before launch (or barrier after the rank-0-only work), or increase the process-group timeout "
        "(init_process_group(timeout=...)) for legitimately long work; NCCL_DEBUG=INFO shows when each rank creates "
        "its communicator.",
        "medium", roots, proof)


def _root_inside(c: Collected, evs: list[Event], roots: list[int], waiting: list[int]) -> Verdict | None:
    """Lead rules G and D (round 72's diffae-71): rule G's culprit is the rank that never reached its first collective
    of the new communicator, but when that same rank is shown timing out inside a collective of its own (its watchdog's
    SeqNum/OpType line), it did reach collectives -- it waits in one the waiting ranks never issued, while they wait
    for it in the set-up of a communicator it never started: the two sides issued different collectives, each waiting
    for the other (a rank-conditional collective, or a tensor on another device creating a new communicator on some
    ranks only). With no majority, nobody is named and nobody proven innocent (rule D). Only for a wait that timed out
    (a reset or closed store is the store host gone, read above), and not where the root is also one of the waiters."""
    if any(e.data.get("gone") for e in evs):
        return None
    inside = [t for r in roots if r not in waiting for t in c.ranks[r].timeouts.values() if t.seq is not None] \
        if all(r in c.ranks for r in roots) else []
    if not inside:
        return None
    t = inside[0]
    key = _R_UID_KEY.search(evs[0].text)
    which = f"store key '{key.group(1)}'" if key else "the store"
    uid = evs[0].data.get("uid", "ncclUniqueId")
    waits = f"rank(s) {_fmt_ranks(waiting)}" if waiting else "a rank (its number not in the line)"
    return Verdict(
        "desync",
        f"{waits} waited in {which} for rank {t.rank}'s {uid} of a new communicator ({evs[0].data['error']}), while "
        f"rank {t.rank} itself timed out inside collective #{t.seq} ({t.op or 'its op not shown'}) of its own: rank "
        f"{t.rank} did reach collectives, so it is not a rank that never arrived -- the ranks issued different "
        "collectives at this point (one side setting up a communicator the other never started, the other in a "
        "collective the first never issued), each waiting for the other; two sides with no majority: the lines do "
        "not say which side took the wrong path",
        "Make every rank issue the same collectives in the same order: find the rank-conditional collective (a "
        "metric, a barrier, a save or an evaluation run on some ranks only) or the collective issued with a tensor "
        "on another device or in another group (a new communicator, a new_group / P2P send-recv created on some "
        "ranks only) -- the same device on every rank (torch.cuda.set_device(local_rank) before any collective). "
        "Rerun with TORCH_DISTRIBUTED_DEBUG=DETAIL to have torch check collective types and shapes across ranks and "
        f"with the Flight Recorder on ({FR_ON}) to see each rank's last collectives; a py-spy dump "
        "of every rank while it hangs shows where each one stands.",
        "low", [], [e.brief() for e in evs[:2]] + [t.brief()])


# the store key a rank's unique-id read names ("by key '1', but store->get('1') got error")
_R_UID_KEY = re.compile(r"by key '([^']{1,40})'")


def _missing(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    k = _first(ks, "culprit")
    if k is None:
        return None
    if not (c.child_failures or c.worker_failures) and k.ranks and set(k.ranks) <= set(raised_outside(c)):
        return None  # lead rule A: the rank not inside raised its own exception -- its traceback decides (review 107)
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
    if failed and _exited_on_error(c, failed):
        return None  # lead rule A: a rank that exited with an error code of its own is read by its exit (_exited)
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
        "hangs shows where they are (a py-spy dump of every rank: the one whose stack is not in the collective is "
        "the one missing; where each rank runs a loop of its own before it -- sampling, evaluation -- every rank "
        "must run the same number of iterations; check the other ranks' logs for an earlier exception or exit). "
        "Preprocess and cache the dataset once before the distributed "
        "run (with HF: "
        "training_args.main_process_first(), the datasets cache) or raise the timeout to cover it "
        "(init_process_group(timeout=...), the Trainer's ddp_timeout, accelerate's InitProcessGroupKwargs). If "
        "every rank was inside, it is connection set-up: rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET to "
        "see the interface each rank connects over (NCCL_SOCKET_IFNAME to pin the routable one), and on one node "
        "test the GPUs' peer-to-peer path with NCCL_P2P_DISABLE=1.",
        "medium", [], k.evidence)


def _unsuspended(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules B and I read off py-spy: its dumps show processes of the job waiting inside a collective (a barrier,
    an all-reduce: distributed_c10d frames) while py-spy could not stop one more process to read its stack ("Failed
    to suspend process"). Where ptrace stops the others, what it cannot stop is a process in uninterruptible sleep
    (ps STAT D), stuck in the kernel -- a filesystem or driver call -- so it never reached the collective the others
    wait in (rank_missing). py-spy names processes by pid, not rank: nobody is named. Not when a rank shows an error of
    its own or a launcher records a failure (rule A reads those first)."""
    waits, stuck = c.samples.get("pyspy_waiting", []), c.samples.get("pyspy_unsuspended", [])
    if not waits or not stuck or c.child_failures or any(own_errors(st) for st in c.ranks.values()):
        return None
    what = sorted({e.data["what"] for e in waits})
    return Verdict(
        "rank_missing",
        f"py-spy shows the job's processes waiting inside a collective ({', '.join(what[:3])} in distributed_c10d) "
        "while it could not stop another process to read its stack (Failed to suspend process): a process ptrace "
        "cannot stop is in uninterruptible sleep (D state), stuck in the kernel -- a filesystem or device call -- "
        "so it never reached the collective the others wait for; the lines name it by pid, not by rank",
        "On that process's node: ps -o pid,stat,wchan:32,cmd -p PID (STAT D: uninterruptible sleep) and cat "
        "/proc/PID/stack show the kernel call it is stuck in; dmesg -T for hung-task warnings, filesystem (Lustre, "
        "GPFS, NFS) or I/O errors and Xid lines; nvidia-smi for its GPU (0% while the others run). A process in D "
        "state cannot be killed or traced (py-spy dump, strace fail): cancel the job, drain or exclude the node and "
        "reboot it if it does not recover; move checkpoints and datasets off a filesystem that stalls.",
        "medium", [], [stuck[0].brief()] + [e.brief() for e in waits[:2]])


def _exited_on_error(c: Collected, failed: list[int]) -> bool:
    """Whether the launcher's record of each rank in ``failed`` is a positive exit code (1: a Python exception in that
    process): it ended on an error of its own, which rule A reads by its exit (cause unknown where its traceback is
    not shown, its class where it is), not a rank that never reached the collective (a signal, a kill, is read here)."""
    codes = {e.data.get("exitcode") for e in c.child_failures + c.worker_failures if e.rank in failed}
    return bool(codes) and all(isinstance(x, int) and x > 0 for x in codes)


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
    size, _, sure = world_size(c)
    if first.data.get("exitcode") == -6 and any(c.ranks[r].timeouts for r in inside) and sure == "high" and size \
            and len(set(range(size)) - inside - {first.rank}) > 0:
        # a SIGABRT (exit code 134 from a wrapper's shell) is how the shown ranks' watchdogs end their own processes
        # after the timeout: a rank recorded with it may have aborted alike, at its own timeout, not first (rule I's
        # limit); it is the one the others wait for only when it is the one rank of the world not shown inside (AO)
        return []
    out = sorted({e.rank for e in recs} - inside)
    return out if first.rank in out and len(out) == 1 else []


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
    crashed = _lagging_crashed(c, ranks) if what == "never joined" else []
    if crashed:
        return _lagging_crash(c, crashed, ranks, where, evs)
    return Verdict(
        "rank_missing",
        f"torch's desync report names {_named(ranks)} as the lagging rank: it {what}{where}, while the other ranks "
        "went on and are blocked behind it (victims)",
        f"Look at what rank {_fmt_ranks(ranks)} was doing: py-spy dump --pid PID on it while the job hangs (py-spy "
        f"dump --native for a stuck CUDA call), its own log, and Flight Recorder dumps ({FR_ON}) "
        "for its last collectives; TORCH_NCCL_DESYNC_DEBUG=1 keeps this report on.",
        "medium", ranks, [e.brief() for e in evs[:3]])


def _lagging_crashed(c: Collected, ranks: list[int]) -> list[Event]:
    """Lead rules AU (1), AK (2) beside torch's desync report: a process's own crash handler reporting a native crash
    (SIGSEGV, SIGILL, SIGFPE: Abseil's "*** SIGSEGV received at ...", Open MPI's, UCX's), untagged or under a rank the
    report names as never joining, printed before any watchdog timeout of its file -- the ranks shown timing out lived
    through their whole wait, so the process that died is the lagging one: its death is the first failure, read by
    its signal (cause unknown), the report naming its rank. [] where a crash carries the rank of a process shown
    inside the collective (its own timeout or watchdog status: a victim's crash is not the lagging one's), or comes
    after a timeout in its file (a victim's teardown may crash so)."""
    crashes = [e for e in c.samples.get("crash", []) if e.data.get("signal") in (4, 8, 11)]
    inside = {r for r, st in c.ranks.items() if r not in ranks and (st.timeouts or st.status)}
    if not crashes or any(e.rank in inside for e in crashes):
        return []
    timed = [place(t) for t in c.samples.get("watchdog_timeout", [])]
    if any(p == q and n > m for e in crashes for (p, n) in [place(e)] for q, m in timed):
        return []
    return crashes


def _lagging_crash(c: Collected, crashed: list[Event], ranks: list[int], where: str, evs: list[Event]) -> Verdict:
    """The desync report's lagging ranks, one of whose processes is shown crashing first (_lagging_crashed): those
    ranks are the culprits, the cause unknown by the crash's signal (lead rule A's table: -11 with no other cause).
    A crash under the tag of a rank the report does not name is two ranks out of step, neither shown first: the
    cause stays the crash's, nobody is named (lead rule J)."""
    from ncclDoctor.diagnose.signatures import R_NCCL_FUNC, R_NCCL_INNER_FUNC, SIGNALS_BY_NUMBER, strip_prefixes
    from ncclDoctor.diagnose.verdict.exits import NATIVE_FIX, NCCL_FRAMES_FIX

    e = crashed[0]
    sig = SIGNALS_BY_NUMBER.get(e.data["signal"], f"signal {e.data['signal']}")
    funcs = [f for x in crashed for f in x.data.get("funcs", [])]
    nccl = next((f for f in funcs if R_NCCL_FUNC.match(f) or R_NCCL_INNER_FUNC.match(f)), None)
    inside = sorted(r for r, st in c.ranks.items() if r not in ranks and (st.timeouts or st.status))
    # a crash under another rank's tag than the report's: two ranks out of step, which failed first not said
    other = sorted({x.rank for x in crashed if x.rank is not None and x.rank not in ranks})
    who = _fmt_ranks(other or ranks)
    dead = f"{_named(other)}'s process" if other else "a process"
    return Verdict(
        "unknown",
        f"{dead} crashed with {sig} "
        f"('{strip_prefixes(e.text)[:100]}'"
        + (f", inside NCCL's own {nccl}()" if nccl else "") + f") and torch's desync report names {_named(ranks)} as "
        f"the lagging rank: it never joined{where}, while "
        + (f"{_named(inside)} waited inside it until the watchdog's timeout" if inside else "the other ranks waited "
           "inside it") + (" -- the crashed process and the lagging rank are two ranks out of step, and which failed "
                           "first the lines do not say: a native crash whose cause the lines do not give" if other else
                           " -- the process that died is the lagging one, its crash the first failure: a native crash "
                           "whose cause the lines do not give"),
        f"Look at rank {who} first: its process crashed by {sig}" + (f" in NCCL ({nccl})" if nccl else "")
        + f" -- get that rank's core dump / gdb backtrace, and check the rank {who} host (dmesg, Xid, memory). "
        + (f"Then at rank {_fmt_ranks(ranks)}, the lagging rank the report names (its own log, py-spy dump). "
           if other else "")
        + NATIVE_FIX + (NCCL_FRAMES_FIX if nccl else "") + "Rerun with NCCL_DEBUG=INFO on every rank, and keep "
        f"TORCH_NCCL_DESYNC_DEBUG=1 and the Flight Recorder ({FR_ON}) on to confirm the lagging rank.",
        "low" if other else "medium", [] if other else ranks, [x.brief() for x in (crashed[:1] + evs[:2])])


def _whole_world(c: Collected, ranks: list[int]) -> bool:
    """The ranks are the whole job: 0..N-1 without a gap (N > 1), no rank outside them shown anywhere, and no
    world size printed that is larger."""
    n = len(ranks)
    return (n > 1 and ranks == list(range(n)) and set(c.ranks) <= set(ranks)
            and all(size <= n for size, _ in c.world))


def _barrier_errors_at(evs: list[Event]) -> list[tuple[str, int]]:
    """Where each monitored barrier's error line stands (file, line): its "Original exception:" block follows it."""
    spots = []
    for e in evs:
        if e.data.get("errors"):
            path, _, line = e.where.rpartition(":")
            spots.append((path, int(line) if line.isdigit() else -1))
    return spots


def _in_original_exception(where: str, spots: list[tuple[str, int]]) -> bool:
    """A line a few lines under a monitored barrier's error, in the same file: that error's original exception."""
    path, _, line = where.rpartition(":")
    return line.isdigit() and any(path == p and 0 < int(line) - n <= 8 for p, n in spots)


def _barrier_timed_out(c: Collected, evs: list[Event]) -> bool:
    """The monitored barrier's error is followed, within its "Original exception:" block (a few lines), by gloo's
    own timeout waiting for the send/recv: the peer never answered."""
    spots = _barrier_errors_at(evs)
    return any(t.data.get("backend") == "gloo" and _in_original_exception(t.where, spots)
               for t in c.samples.get("watchdog_timeout", []))


def _barrier_peer_closed(c: Collected, evs: list[Event]) -> bool:
    """The monitored barrier's error is followed, within its "Original exception:" block (a few lines), by gloo's
    "Connection closed by peer" / "reset by peer": the named peer's socket went away -- its process exited or
    crashed (lead rules U (4) and AQ (2): early_exit, that peer)."""
    spots = _barrier_errors_at(evs)
    return any(R_PEER_GONE.search(str(g.data.get("what", ""))) and _in_original_exception(g.where, spots)
               for g in c.samples.get("gloo_error", []))


def _barrier_recv_waiters(c: Collected, evs: list[Event]) -> set[int]:
    """The waiters whose "Original exception:" is gloo's timeout on the RECEIVE of rank 0's answer: each one's send
    into rank 0 had completed, and gloo completes a send only into a receive the peer posted, which the coordinator
    does as it enters the barrier -- so rank 0 was inside, holding its answers back for a rank that never came.
    A timeout is read as the original exception of the nearest waiter's line before it (a few lines)."""
    spots = []
    for e in evs:
        if e.data.get("errors") and e.data.get("waiters"):
            path, _, line = e.where.rpartition(":")
            if line.isdigit():
                spots.append((path, int(line), e.data["waiters"]))
    out: set[int] = set()
    for t in c.samples.get("watchdog_timeout", []):
        path, _, line = t.where.rpartition(":")
        if t.data.get("backend") != "gloo" or not line.isdigit():
            continue
        before = [(n, ws) for p, n, ws in spots if p == path and 0 < int(line) - n <= 8]
        if before and "recv operation" in t.text:
            out.update(max(before)[1])
    return out


def _coordinator_inside(c: Collected, evs: list[Event]) -> Verdict | None:
    """Lead rule AO: waiters timed out receiving rank 0's answer (so rank 0 reached the barrier), and rank 0's own
    "Rank N failed to pass monitoredBarrier" line is not shown: some other rank never arrived, unnamed here. The
    ranks that timed out receiving are victims; a waiter whose send never completed is proven nothing."""
    received = _barrier_recv_waiters(c, evs)
    if not received:
        return None
    return Verdict(
        "rank_missing",
        f"torch's monitored_barrier: rank(s) {_fmt_ranks(received)} reached the barrier and timed out RECEIVING rank "
        "0's answer -- their sends to rank 0 completed, so rank 0 (the coordinator) was inside the barrier too, "
        "holding its answers back because another rank never arrived (an uneven workload: one rank with more "
        "batches or a different path); rank 0's own 'Rank N failed to pass monitoredBarrier' line names that rank "
        "and is not in these lines",
        "Check rank 0 logs: its 'Rank N failed to pass monitoredBarrier in T ms' line names the rank that never "
        "arrived; py-spy dump --pid PID of that rank shows where it is. For an uneven workload (join timeout), "
        "balance data across ranks so every rank runs an equal number of batches per epoch (DistributedSampler "
        "with drop_last). TORCH_DISTRIBUTED_DEBUG=DETAIL keeps the check on.",
        "medium", [], [e.brief() for e in evs[:3]])


def _busy_before_barrier(c: Collected, own: list[Event], named: list[int]) -> Verdict | None:
    """Lead rules I, AO and AC (1): the waiters name only rank 0 (the coordinator) with their original exception not
    shown, while a data preparation bar with no rank tag (datasets' Map, tokenising) is still short of its end: a
    process was still busy before the barrier (rank_missing). The coordinator also leaves a waiter unanswered when
    another rank is late, so where ranks besides rank 0 and the waiters can be absent (a world larger than those, or
    ranks below a waiter not shown), the bar, which names no rank, leaves the culprit unknown; the waiters are
    innocent."""
    if named != [0] or not any(e.data.get("errors") for e in own):
        return None
    waiters = {r for e in own for r in e.data.get("waiters", [])}
    # a bar behind torchrun's "[defaultN]:" names no rank either where a waiter's own line has that prefix too and
    # names another rank: N is a local rank or a prefix every line was given (corpus rule AC (3))
    # (a bar tagged with a waiter's own rank is no other process's: that rank is at the barrier)
    bars = [e for e in _data_bars(c) if e.data["rank"] is None or e.data["rank"] in waiters or (
        e.data.get("role") is not None and any(x.text.startswith(f"[default{e.data['role']}]:")
                                               and set(x.data.get("waiters", [])) - {e.data["role"]} for x in own))]
    if not bars:
        return None
    size, _, sure = world_size(c)
    others = set(range(max(waiters | {0}) + 1)) | (set(range(size)) if sure == "high" and size else set())
    if not waiters or not others - waiters - {0}:
        return None  # rank 0 is the one rank that can be absent: the waiters' words name it (rule U (4))
    e = bars[0]
    return Verdict(
        "rank_missing",
        f"torch's monitored_barrier: rank(s) {_fmt_ranks(sorted(waiters))} reached the barrier and got errors "
        "waiting for rank 0 (the coordinator), its original exception not shown, while a data preparation bar with "
        f"no rank tag was still running ({e.data['what']}: {e.data['pct']}%): a process was still busy before the "
        "barrier. Rank 0 also leaves the waiters unanswered while it waits for a late rank, and other ranks are not "
        "shown, so which process was busy these lines do not say; the ranks at the barrier are victims",
        "Read rank 0 logs and the full Original exception text of every rank (it names the rank that never arrived); "
        "preprocess the dataset beforehand (datasets map, tokenising) in a separate step, or under "
        "main_process_first(), so no rank does it before the barrier; with fewer num_proc workers or a faster disk "
        "if it crawls; raise the timeout (the monitored_barrier timeout, the HF Trainer's ddp_timeout, "
        "init_process_group(timeout=...)) only to cover what remains. py-spy dump --pid PID on the late process "
        "shows where it is. TORCH_DISTRIBUTED_DEBUG=DETAIL keeps the check on.",
        "medium", [], [e.brief()] + [x.brief() for x in own[:2]])


def _monitored(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """torch's monitored_barrier names the ranks that did not reach it (rank 0 waited for each
    in turn); the ranks that passed it are victims of whatever those ranks were doing."""
    evs = c.samples.get("monitored_barrier", [])
    if not evs:
        return None
    named, _ = barrier_roles(c)
    ranks = sorted(named)
    # the coordinator's own report decides; the waiters' errors then only show it aborting (barrier_roles)
    reports = [e for e in evs if not e.data.get("errors")]
    evs = reports + [e for e in evs if e.data.get("errors")] if reports else evs
    own = reports or evs
    secs = next((e.data["timeout_ms"] / 1000 for e in evs if e.data.get("timeout_ms")), None)
    gone = (any(e.data.get("errors") or "by peer" in e.text.lower() for e in own)
            or any(R_PEER_GONE.search(str(e.data.get("what", ""))) for e in c.samples.get("gloo_error", [])))
    how = (" and its connection was closed: that process exited or crashed before the barrier" if gone
           else ": it was still busy elsewhere (a longer step, a hang, a rank-conditional path)")
    closed = (any("by peer" in e.text.lower() for e in own)
              or any(R_PEER_GONE.search(str(e.data.get("what", ""))) for e in c.samples.get("gloo_error", [])))
    inside = None if reports or closed else _coordinator_inside(c, evs)
    if inside:
        return inside
    if not closed and _barrier_timed_out(c, own):
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
    if any(e.data.get("errors") for e in own) and _barrier_peer_closed(c, own):
        # "reached monitoredBarrier, but received errors while waiting for send/recv from rank N", its original
        # exception gloo's "Connection closed by peer": N's process went away while the others waited -- it exited
        # early (its own error, if any, is in its log, not here)
        return Verdict(
            "early_exit",
            f"torch's monitored_barrier: the waiting rank's send/recv with rank {_fmt_ranks(ranks)} failed because "
            f"rank {_fmt_ranks(ranks)} closed its connection (gloo: closed by peer): its process exited or crashed "
            "while the others waited in the barrier, and the ranks that reached the barrier are its victims; why it "
            "exited is not in these lines",
            f"Read rank {_fmt_ranks(ranks)} logs: its own traceback and exit code (torchrun's failure summary, "
            "dmesg for the OOM killer -- host memory -- on its node, the pod's events); work it does alone before "
            "the monitored_barrier (dataset mapping or tokenizing on the coordinator) is the usual place it dies. "
            "TORCH_DISTRIBUTED_DEBUG=DETAIL keeps the check on.",
            "high", ranks, [e.brief() for e in evs[:3]])
    busy = _busy_before_barrier(c, own, ranks)
    if busy is not None:
        return busy
    if any(e.data.get("errors") for e in own):
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


def _hvd_stall(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Horovod's stall inspector lists each tensor some ranks submitted while others did not, with either the ranks
    missing from it or the ranks ready in it. The ranks that never submitted are the ones the others wait for
    (rank_missing); the ready ranks (and the coordinator that prints the list) wait inside and are victims. A ready
    list names the missing only below its highest rank (a rank above it may be missing too, unseen) or up to a world
    size the lines state. A rank is named only when every stalled tensor lacks it and no record has it ready."""
    evs = c.samples.get("hvd_stall", [])
    if not evs:
        return _hvd_stall_warned(c)
    # every record of every line: a line may list several stalled tensors, each with its own ranks
    recs = [rec for e in evs for rec in (e.data.get("records") or [(e.data["how"], e.data["ranks"])])]
    size, _, sure = world_size(c)
    ready = {r for how, rs in recs if how == "ready" for r in rs}
    top = max([r for _, rs in recs for r in rs] + [-1]) + 1
    world = size if sure == "high" and size and size >= top else top
    split = _hvd_split(recs, evs, world) or _hvd_crossed(evs, world)
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


def _hvd_crossed(evs: list, world: int) -> Verdict | None:
    """Lead rule D read through Horovod's "Missing ranks:" block: where the last block lists every rank of the world
    (the world stated, else up to the highest rank listed), each missing tensors no other listed rank is missing --
    rank 0 lacking a broadcast while rank 1 lacks the allreduces -- every rank has submitted what another still lacks:
    they issued different collectives, none is merely behind (a desync). Two such sides (or more) give no majority,
    so nobody is named (round 110's lightning-5155: a boolean broadcast on one rank, the gradient allreduces on the
    other). Not where one block's ranks all lack the same tensors the rest submitted (rank_missing, horovod-3950)."""
    last = next((e for e in reversed(evs) if e.data.get("per_rank")), None)
    if last is None:
        return None
    per = {}
    for r, names in last.data["per_rank"]:
        per.setdefault(r, set()).update(names)
    if len(per) < 2 or set(per) != set(range(world)) or not all(per.values()):
        return None
    if any(per[a] & per[b] for a in per for b in per if a < b):
        return None  # a tensor two ranks both lack: not each missing its own
    said = "; ".join(f"rank {r} lacks {', '.join(sorted(per[r])[:2])}{' ...' if len(per[r]) > 2 else ''}"
                     for r in sorted(per)[:4])
    return Verdict(
        "desync",
        f"Horovod's stall inspector lists every rank as missing tensors another rank has submitted ({said}): each "
        "rank waits in a collective the other never issued, so none is merely behind -- the ranks submitted "
        "different collectives, and with no majority the lines cannot say which took the other path",
        "Every rank must call the same broadcast/allreduce in the same order: make every rank submit the same "
        "Horovod ops in the same order (no rank-conditional broadcast / allreduce) -- a broadcast inside rank-0-only "
        "code (a checkpoint or logging callback, a file-exists check) leaves the other ranks in it while rank 0 goes "
        "on to the gradient allreduce; move it out so all ranks call it. HOROVOD_TIMELINE and "
        "HOROVOD_STALL_CHECK_TIME_SECONDS to see which rank submits what; py-spy stacks of every rank (py-spy dump "
        "--pid PID) show where each waits.",
        "low", [], [e.brief() for e in evs[-2:]])


def _hvd_stall_warned(c: Collected) -> Verdict | None:
    """Horovod's stall warning with no list of ranks after it in the lines ("... waiting for remainder of ranks for
    more than 60 seconds"): some ranks submitted tensors and wait in the collective for the others, which have not --
    a rank behind (still busy or on another code path) or dead; none is named and nothing failing is shown (lead rules
    B, E: rank_missing, culprits unknown, low; the waiting ranks are not named either, so nobody is cleared)."""
    evs = c.samples.get("hvd_stall_warn", [])
    if not evs or all(e.data.get("hvd_went_on") for e in evs):
        return None  # training steps or the run's end after every warning: a rank was only slow (rules K, N)
    secs = max(e.data.get("waited_s") or 0 for e in evs)
    return Verdict(
        "rank_missing",
        f"Horovod's stall inspector warns that tensors submitted by some ranks have waited more than {secs} s for the "
        "remaining ranks: a rank these lines do not name has not reached the collective (still busy -- evaluation, "
        "data loading -- on another code path, or dead), and the others wait for it",
        "Read the stall inspector's full warning for the 'Missing ranks' list and the tensor names (the lines after "
        "this one, on the coordinator, rank 0), then look at what those ranks were doing: py-spy dump of every rank "
        "(py-spy dump --pid PID) while the job waits, their own logs and tracebacks. Every rank must submit the same "
        "tensors in the same order (no rank-conditional allreduce/broadcast); balance data per rank (uneven number "
        "of batches: hvd.join or drop_last); HOROVOD_TIMELINE shows which tensors each rank submitted. If training "
        "goes on after the warning, a rank is only slow: HOROVOD_STALL_CHECK_TIME_SECONDS raises the warning time "
        "(HOROVOD_STALL_SHUTDOWN_TIME_SECONDS ends a real deadlock instead of waiting forever).",
        "low", [], [e.brief() for e in evs[:3]])


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


def _slow_step(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule I (round 78's RL-2462): ranks time out inside a collective after Timeout(ms) while other ranks' own
    lines report a step they finished only after longer than that timeout ("[rank=5]: ... move_to_device_done after
    4106.03s"): those ranks were outside the collective, still working, when the others' wait ran out -- the ranks
    the others waited for (rank_missing), the waiting ranks innocent. Not when a rank shows an error of its own."""
    took = c.samples.get("step_took", [])
    timeouts = [t for t in c.samples.get("watchdog_timeout", []) if t.data.get("timeout_ms")]
    if not took or not timeouts or any(own_errors(st) for st in c.ranks.values()):
        return None
    limit = min(t.data["timeout_ms"] for t in timeouts) / 1000
    waiting = sorted({t.rank for t in timeouts if t.rank is not None})
    slow = sorted({e.rank for e in took if e.data["secs"] > limit and e.rank not in waiting})
    if not slow:
        return None
    longest = max((e for e in took if e.rank in slow), key=lambda e: e.data["secs"])
    return Verdict(
        "rank_missing",
        f"{_named(waiting) if waiting else 'a rank'} timed out inside a collective after {limit:.0f} s while "
        f"{_named(slow)}'s own lines report "
        f"a step finished only after longer than that ({longest.text.strip()[:160]}): {_named(slow)} was still "
        "working outside the collective when the others' wait ran out -- the rank(s) the others waited for; the "
        "waiting ranks are victims",
        f"Rank {_fmt_ranks(slow)} spent {longest.data['secs']:.0f} s in that step, past the {limit:.0f} s collective "
        "timeout: find why it is that slow there (a model offload / move to CPU -- pinned host memory, NUMA placement "
        "-- a checkpoint, data loading: a py-spy dump of the slow ranks while they run), make it faster or make every "
        "rank do it at the same point; raise the collective timeout (init_process_group(timeout=...)) only as a "
        "stopgap, where the work is legitimately long.",
        "medium", slow, [longest.brief()] + _samples(c, "watchdog_timeout")[:2])


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
        f"Rank {_fmt_ranks(busy)} was still busy before the collective, not hung in NCCL. " + BUSY_FIX
        # torch_npu's watchdog (WorkHCCL): HCCL's own timeouts bound the wait too, besides the process group's
        + (" On Ascend, HCCL_EXEC_TIMEOUT / HCCL_CONNECT_TIMEOUT must cover the preprocessing time as well."
           if any("HCCL" in x.text for k in ("watchdog_timeout", "watchdog_status", "watchdog_report")
                  for x in c.samples.get(k, [])) else ""),
        "medium", busy, [e.brief()] + _samples(c, "watchdog_timeout")[:2])


def _behind(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule I read from the ranks' own progress lines: a phase every rank printed (the block before, or the
    world size the lines state), then the next phase printed by all ranks but a few, and nothing more until the hang
    ends (the scheduler's time limit or cancel, or watchdog timeouts). The ranks that printed it are inside the
    step's collectives waiting; the few that never did are the ranks behind (rank_missing). Only when the last block
    is most of the full set, so a cut paste's scattered lines name nobody, and no rank shows an error of its own."""
    blocks = c.samples.get("step_block", [])
    sigs = c.samples.get("signal", [])
    ended = (any(e.data.get("sched") in ("time limit", "cancelled") for e in sigs)
             or c.kinds.get("watchdog_timeout"))
    if len(blocks) != 1 or not ended or any(own_errors(st) for st in c.ranks.values()):
        return None
    e = blocks[0]
    last, prev = set(e.data["ranks"]), set(e.data["prev"])
    size, _, sure = world_size(c)
    full = prev if last < prev else set(range(size)) if sure == "high" and size and last < set(range(size)) else None
    if not full:
        return None
    behind = sorted(full - last)
    if len(last) < 2 or len(behind) > max(1, len(full) // 4):
        return None
    how = (f"all {len(full)} ranks printed '{e.data['prev_phase']}'" if full == prev else
           f"the world is {size} ranks")
    return Verdict(
        "rank_missing",
        f"{how}, then {len(last)} of them printed '{e.data['phase']}' and rank {_fmt_ranks(behind)} never did; "
        "nothing more was printed until the hang ended (the scheduler's time limit or cancel, a timeout): the ranks "
        f"in that step wait in its collectives for rank {_fmt_ranks(behind)}, the ranks behind -- the stop only ended "
        "the hang",
        f"Look at rank {_fmt_ranks(behind)} while the job hangs: py-spy dump --pid PID of ranks {_fmt_ranks(behind)} "
        "shows where each is stuck (often the DataLoader's first batch: try num_workers=0 to rule out a worker fork, "
        "or the network plugin, e.g. NCCL's OFI plugin / libfabric); "
        "NCCL_DEBUG=INFO and a shorter init_process_group(timeout=...) make the hang end with a stack instead of the "
        "time limit.",
        "medium", behind, [e.brief()] + [s.brief() for s in sigs[:1]])


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
    victims. Only when the lines leave rank 0 the one rank of the world not inside it -- ranks 1..N-1 all shown in one
    collective (one SeqNum), no stated world larger (lead rules AC (1), AX (3): an untagged line names no rank where
    another rank not shown could be the absent one) -- and, for an all-gather or all-reduce, the main process's output
    is an evaluator's own line ("Evaluating ..."), not a bar (every rank may evaluate and draw one): the ranks shown are
    past their evaluation, the one still in it is the rank not shown. Not when rank 0 shows a timeout of its own or a
    rank an error of its own."""
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
    # rank 0 must be the only rank of the world the lines leave outside the one collective: the output carries no
    # rank tag, so it names rank 0 only where no other rank can be the absent one (lead rules AC (1), AX (3), AO;
    # round 82's pytorch-lightning-5646: ranks 2, 3 and 17 of a larger world in a BROADCAST name nobody)
    size, _, sure = world_size(c)
    alone = (len({(t.op.upper(), t.seq) for t in outs}) == 1 and waiting == list(range(1, waiting[-1] + 1))
             and not (sure == "high" and size != waiting[-1] + 1))
    if not alone and not bcast:
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
    if not alone:
        # the same shape with ranks of the world missing from the waiters: the untagged evaluation is likely the main
        # process's, but it names no rank (lead rules AC (1), AX (3)) -- said, and the fix covers both readings
        return Verdict(
            "rank_missing",
            f"{_named(waiting)} timed out inside a BROADCAST while untagged output right before it shows an evaluation "
            f"still running ({e.text[:100]}): frameworks evaluate on the main process alone, but the line carries no "
            "rank tag and ranks of the world are missing from the waiters, so the rank the broadcast waits for is not "
            "shown -- rank 0 if that evaluation is its own",
            "A rank never reached the broadcast. If the evaluation shown is rank 0's (the main process evaluating "
            "alone), it took longer than the collective timeout: raise the process-group timeout (init_process_group("
            "timeout=timedelta(hours=2)), the framework's own timeout setting) or make the evaluation faster (a "
            "subset, less often, or on every rank with the metrics reduced). Otherwise find the rank not shown: a "
            "py-spy dump of every rank, and rank-conditional code around evaluation and checkpoint saving.",
            "low", [], [e.brief()] + [t.brief() for t in outs[:2]])
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


_R_APP_KEY = re.compile(r"wait timeout after \d{1,12} ?ms, keys: (?![^\n]{0,200}(?:torchelastic|rdzv))/")


def _headless_wait(text: str) -> bool:
    """c10d's waitForInput line with its log header cut off by the paste (lead rule Y)."""
    return "waitForInput" in text and "[c10d]" not in text and "socket.cpp" not in text


def _actor_wait(text: str) -> bool:
    """c10d's waitForInput line printed by a Ray actor: its "(Name pid=N[, ip=A])" prefix stands right before the
    line's log header (round 72's ray-45825: two RayTrainWorkers' poolFD lines)."""
    at = text.find("waitForInput")
    return at > 0 and any(_R_ACTOR_HEAD.match(text, m.end()) for m in R_RAY_PID.finditer(text, 0, at))


# what follows a Ray actor prefix on c10d's line: its log header ("[W socket.cpp:432] [c10d]", a "[rank1]:" first,
# a dated "[W611 10:02:03.1 socket.cpp:428]"), nothing of another process's text in between
_R_ACTOR_HEAD = re.compile(r" ?(?:\[rank\d{1,7}\]:)?\[[WEI]\S{0,30}(?: \S{1,40})? ?socket\.cpp:\d{1,6}\] "
                           r"\[c10d\] While waitForInput")


def _store_wait(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """A rank's read from the store (a get/wait: c10d's waitForInput on a socket it had connected) that times out: the
    store answered the connection, and the rank waits for a key another rank has not written yet -- that rank is
    elsewhere (still preparing data, loading, or dead), so this is rank_missing with the culprit unnamed (lead rules G
    and L; the key's rank, when a line names it, is _uniqueid's). A connect that fails or times out stays _store's
    (store_rendezvous), and so does a wait of torchrun's agent itself (no "[rankN]:" of a training process: torch glues
    it to its lines once the default group exists; or torchrun's own frames in the traceback), which is the rendezvous
    waiting for other nodes."""
    # a wait on a key of the program's own (a DistStoreError "wait timeout ..., keys: /broadcast_from/0/553755"), not
    # one of torchrun's agent (its keys hold "torchelastic" or "rdzv"), is a process of the job, ranked or not
    app = any(_R_APP_KEY.search(e.text) for e in c.samples.get("store_timeout", []))
    # c10d's socket line "waitForInput ... returned 0, likely a timeout" pasted without its log header (no "[c10d]",
    # no "socket.cpp:N]"): whether a "[rankN]:" stood before it cannot be told, so the connected read with no key shown
    # is rule Y's rank_missing, unless torchrun's agent is shown making it (its frames: below). With its header shown
    # and no rank tag, the process had no rank yet: the agent's or the set-up's rendezvous (store_rendezvous)
    # a wait printed under a Ray actor's prefix ("(RayTrainWorker pid=3738, ip=10.0.0.5) [W socket.cpp:432] [c10d]
    # While waitForInput, ..."): Ray Train's workers are the job's own processes (no torchrun agent runs under Ray;
    # the rank-0 worker hosts the store), so the read is a process of the job, its rank not shown (rules AD (2), AR)
    # a bare "RuntimeError: Socket Timeout" whose c10 tail names TCPStore's doWait (readers.store): a Python exception
    # carries no "[rankN]:" log prefix, so no tag says nothing here; the wait for a key on a connected store is the
    # job's own process unless torchrun's agent is shown making it (its frames, rendezvous words: below) -- rule Y
    evs = [e for e in c.samples.get("store_timeout", []) if e.data.get("waited_input")
           and (e.rank is not None or e.data.get("in_collective") or app or _headless_wait(e.text)
                or _actor_wait(e.text) or e.data.get("do_wait"))]
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
    rpc = c.samples.get("engine_rpc", [])
    if rpc and not bars:
        return _client_wait(who, ep, rpc[0], evs)
    seen = (f"; the lines show data still being prepared ({bars[0].data['what']}: {bars[0].data['pct']}%)"
            if bars else "")
    # no data bar but the model's weights still loading ("Loading checkpoint shards: 25%| 1/4"): a rank still loading
    # the checkpoint is the likelier one the key waits for; the bar names no rank unless its prefix does (rule AC (1))
    loads = [] if bars else [e for e in c.samples.get("load_bar", []) if not e.data["done"]]
    if loads:
        seen = (f"; the lines show the model's checkpoint still loading ({loads[0].data['what']}: "
                f"{loads[0].data['pct']}%)")
    return Verdict(
        "rank_missing",
        f"{who} had connected to the store at {ep} and waited the whole timeout for a key another rank had "
        f"not written yet{seen}: the rank that should have written it was elsewhere -- usually the main process still "
        "preprocessing or tokenising the dataset while the others wait (or loading, or gone); the waiting ranks are "
        "victims and the lines do not name the one they wait for",
        # the key's writer is rank 0 for most keys (the main process that prepares the data): check it first
        "Find the rank the others wait for (rank 0 for most keys) and check the main rank is still alive: its own log "
        "up to the timeout, a py-spy dump of rank 0 (py-spy dump --pid PID) while the job waits. "
        + (LOAD_FIX if loads else "") + BUSY_FIX + " If it died, its traceback and exit code are the cause. A rank "
        "elsewhere in the code (evaluation or saving on rank 0 alone while the others enter a collective, whose new "
        "group or first call reads the store) is found by a py-spy dump of every rank; TORCH_DISTRIBUTED_DEBUG=DETAIL "
        "and dist.monitored_barrier(wait_all_ranks=True) name the rank that does not arrive. If "
        f"it is a rank on the other node(s) that never joined, check they were started and reach {ep} (nc -zv HOST "
        "PORT; MASTER_ADDR / --dist-init-addr naming an address every node can route to, over the same family: IPv4 "
        "vs IPv6 from the host name's lookup).",
        "low", [], [e.brief() for e in (bars[:1] + evs[:2])],
        demote="its store read only waited for a key another rank had not written: a victim")


# the endpoint a store client was given as the wildcard address: a listening socket's "every interface", no address
# of the server that another host (or the trainer) can reach it at
_R_WILDCARD_HOST = re.compile(r"^(?:::ffff:)?0\.0\.0\.0:|^:::")


# a store wait beside a weights-loading bar that stopped short (parse._load_bar): the remedy of slow loading itself
LOAD_FIX = ("The lines show a rank still loading the checkpoint when the wait ran out: slow checkpoint loading (the "
            "shards' seconds per item in its bar) from a slow or shared filesystem -- pre-copy the checkpoint to local "
            "disk or faster storage, load it once and cache it, and raise the distributed/store timeout "
            "(init_process_group(timeout=timedelta(...))) to cover the load. ")


def _client_wait(who: str, ep: str, rpc: Event, evs: list[Event]) -> Verdict:
    """Lead rule Y inside a serving engine's call from outside (parse: ``engine_rpc``, signatures.R_ENGINE_CLIENT_RPC):
    the engine's workers join a group with the client that called them -- an RL trainer's weight sync puts the trainer
    process in as the group's last rank (world = the engine's tensor x data parallel workers + 1) -- so the key the
    worker waited for is the trainer's to write: the rank not there is the client side, a process of the trainer's own
    log, stuck or dead before the weight broadcast, or never reaching the group. Still rank_missing with the culprit
    unnamed (the trainer's rank is no rank these lines show), the waiting workers victims."""
    wild = bool(_R_WILDCARD_HOST.search(ep))
    return Verdict(
        "rank_missing",
        f"{who} had connected to the store at {ep} and waited the whole timeout for a key, inside a call the serving "
        "engine's client made on its workers (a weight-sync group they share with the trainer, the vLLM client): the "
        "trainer's side never wrote it (stuck or dead before the weight broadcast, or never reaching the group); the "
        "waiting workers are victims, the trainer is not shown",
        "Look at the trainer (vLLM client) side first: check the trainer's own log at the same time (a traceback, an "
        "OOM, a step still running before the weight sync) and take a py-spy dump of the trainer ranks (py-spy dump "
        "--pid PID) while the engine waits, and one of the engine's workers. Check the weight sync / "
        "update_named_param communicator set-up on both sides: the group's world size the client passes must be the "
        "engine's workers (tensor_parallel x data_parallel) + 1, and the host and group port it passes must be the "
        "vLLM server's real address, reachable from the trainer (firewall / network between trainer and vLLM server; "
        "nc -zv HOST PORT)"
        + (f" -- {ep.rpartition(':')[0]} is a wildcard for listening on every interface, no address to connect to"
           if wild else "")
        + "; keep matching trl / vllm versions on both sides (their weight-sync calls change between releases); rerun "
        "with NCCL_DEBUG=INFO on both. Raise the store / connection timeout only once both sides are known to arrive.",
        "low", [], [e.brief() for e in evs[:2]] + [rpc.brief()],
        demote="its store read only waited for a key the engine's client had not written: a victim")


def barrier_owed(c: Collected) -> tuple[list[int], list[int], list[int]]:
    """DeepEP's barrier_block dump read as its slots work (signatures.R_DEEPEP_SLOT): (the peers every waiting rank
    that shows them still owes, the ranks shown in the barrier, the peers some show owed and others cleared). A
    waiting rank is in the barrier itself; so is a peer whose slot every waiting rank shows cleared (0, or below:
    ahead). The owed are named only while fewer than the ranks shown in the barrier: as many or more, the lines
    cannot tell the others' barrier from one only the waiting ranks entered."""
    waiting = set(c.barrier_slots)
    owed, arrived, split = [], set(waiting), []
    for peer in sorted({p for slots in c.barrier_slots.values() for p in slots} - waiting):
        shown = [slots[peer] for slots in c.barrier_slots.values() if peer in slots]
        if all(v > 0 for v in shown):
            owed.append(peer)
        elif all(v <= 0 for v in shown):
            arrived.add(peer)
        else:
            split.append(peer)
    return (owed if len(owed) < len(arrived) else []), sorted(arrived), split


def _barrier_owed(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """DeepEP's barrier_block timed out: each waiting rank prints every peer's slot, which stays at FINISHED_SUM_TAG
    (1024) until that peer enters the barrier and subtracts it. A peer every waiting rank shows still owed, while
    more ranks are shown in the barrier, never reached it (lead rules D and G read for its waiters: ranks agreeing
    on an odd rank): rank_missing, that peer the culprit, the waiting ranks its victims. A peer owed in only some
    dumps is not named (its slot was cleared for the others: it arrived). A failure record of the owed peer itself
    is its own cause (the detectors of exits and crashes read it)."""
    owed, arrived, split = barrier_owed(c)
    if not owed or any(e.rank in owed for e in c.child_failures + c.worker_failures):
        return None
    waiting, who = _fmt_ranks(c.barrier_slots), _fmt_ranks(owed)
    return Verdict(
        "rank_missing",
        f"DeepEP's barrier_block timed out on rank {waiting} waiting for rank {who}: its dump prints, for each "
        "waiting rank, every peer's barrier slot, which stays positive (FINISHED_SUM_TAG, 1024) until that peer "
        f"enters the barrier and subtracts it; rank {who} is still owed in every waiting rank's dump while "
        f"{len(arrived)} ranks are shown in the barrier ({_fmt_ranks(arrived)}), so rank {who} never entered it "
        "(a hang, a crash or a rank-conditional path before it) and the waiting ranks are its victims"
        + (f"; rank {_fmt_ranks(split)} is owed in only some dumps and is not named" if split else "")
        + ". The ranks are the numbers DeepEP's buffer gives its peers (for an internode buffer, the NVLink rank "
        "within the node)",
        f"Look at rank {who}: py-spy dump --pid PID of its process while the others wait shows where it is, and its "
        "own log whether it crashed or took a rank-conditional path that skips the DeepEP call; every rank of the EP "
        "group must make the same dispatch/combine (and Buffer) calls in the same order -- a MoE layer, context "
        "parallel or pipeline branch that skips them on some ranks leaves the others in barrier_block. If rank "
        f"{who} is inside DeepEP too, check NVSHMEM/NVLink health (nvidia-smi nvlink -s, NVSHMEM_DEBUG=INFO).",
        "high" if len(c.barrier_slots) > 1 and not split else "medium", owed, [e.brief() for e in c.slot_evs[:4]])
