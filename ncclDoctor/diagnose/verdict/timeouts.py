"""The watchdog's timeouts read for who is missing (rank_missing) or blocked (watchdog_blocked): which ranks a
timed-out collective lacks, one collective or a larger world, a serving engine's own watchdog."""

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
    one_step_ahead,
    raised_outside,
    timed_out_at,
    world_size,
)
from ncclDoctor.diagnose.signatures import FR_ON, R_LIMIT_NAMED, Event
from ncclDoctor.diagnose.state import QUIET_KINDS, Collected
from ncclDoctor.diagnose.verdict.base import Verdict, _first, _named, _ranks, _samples, waiting_pids

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
        "The watchdog thread was stuck: py-spy dump --native of every rank while they hang (py-spy dump --native "
        "--pid PID; the blocked CUDA/NCCL call, a CUDA/NCCL API hang, or the GIL held by another thread shows "
        "there); check dmesg for Xid errors and nvidia-smi on that node; NCCL_DEBUG=INFO for the communicator's "
        "own lines. If this happens at exit, call destroy_process_group() before the end.",
        "high",
        [],
        (k.evidence if k else []) + [e.brief() for e in hb[:2]],
    )


def _limit_ignored(c: Collected, evs: list) -> Verdict | None:
    """Lead rule CK (1) (round 110's vllm-16692): the framework's timeout error names the setting that bounds it and the
    value it ran with ("increase RAY_CGRAPH_get_timeout which is currently 10 seconds"), while the lines show that same
    setting set to another value ("RAY_CGRAPH_get_timeout is set to 300": readers.settings._env). The failure shown
    is that setting's own limit firing at a value it was not given: the setting did not reach the process that reads
    it (rules L, BP (1)) -- config, culprits [], nobody innocent. A limit the lines show set to the value the error
    reports, or no setting shown, keeps rule P's unknown."""
    for e in evs:
        # the error's own line, or the next line of a paste hard-wrapped past it (readers.watchdog: limit_named)
        m = R_LIMIT_NAMED.search(e.text)
        if m is None and e.data.get("limit_named") is None:
            continue
        name, now = (m.group(1), m.group(2)) if m is not None else e.data["limit_named"]
        shown = {v: w for v, w in (c.settings.get(name) or {}).items() if v != now and v.isdigit()}
        if not shown:
            continue
        value, where = next(iter(shown.items()))
        return Verdict(
            "config",
            f"the framework's timeout fired at {name}={now} s ({e.text.strip()[:200]}), while the lines show {name} "
            f"set to {value} ({where}): the setting did not reach the process that reads it, so its default limit "
            "fired -- a setting without effect, the same for every worker, not a rank's hang shown",
            f"{name} not applied ({value} set, {now} s used): set it in the environment of every Ray node / worker "
            f"before ray start or via runtime_env (Ray reads RAY_CGRAPH_* when its compiled graph is built, in the "
            f"driver and worker processes: set {name} in the environment before Ray starts -- ray start / "
            "runtime_env={'env_vars': {...}} -- so the value takes effect), or upgrade vLLM / Ray to a release that "
            "propagates the compiled-graph timeout; or disable the compiled DAG (VLLM_USE_RAY_COMPILED_DAG=0) or use "
            "the mp distributed executor backend. If it still times out at the longer limit, the execution is hung: "
            "py-spy dump of every RayWorkerWrapper to find the worker that is slow or hung in execute_model, and "
            "NCCL_DEBUG=INFO for the cross-node all-reduce.",
            "medium", [], [e.brief()], job_wide=True)
    return None


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
    if (ignored := _limit_ignored(c, evs)) is not None:
        return ignored
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
        "that was running. Rerun with NCCL_DEBUG=INFO and the flight recorder (" + FR_ON + ") to see "
        "whether a collective was stuck.",
        "low", [], [e.brief() for e in evs[:4]])


# a still-waiting line of PyTorch-BigGraph's trainer asking its lock server for a bucket ("[Trainer-1] still in queue:
# 24") or one naming a lock server / torchbiggraph: only there is the lock server's partition advice the fix's own
_R_LOCK_SERVER = re.compile(r"\[Trainer-\d{1,6}\] still in queue\b|\block ?server\b|\btorchbiggraph\b|"
                            r"\bPyTorch-BigGraph\b", re.IGNORECASE)


def _own_wait(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules P and BN (1) for a framework's own wait (the last detector before "none"): a process's own line
    saying it is still waiting ("[Trainer-1] still in queue: 24", readers.watchdog._own_wait) printed again and again
    unchanged, with nothing failing in the lines -- no collective, SeqNum, store read, error or exit. The wait is shown
    not ending, but it is the framework's wait for its own service or peers (a lock server, a scheduler, a queue),
    which cannot tell a service that will never answer from a peer still holding what it asked for: cause unknown,
    nobody named, nobody proven innocent (its "Trainer-N" / worker label is the framework's own, no rank). One or two
    such lines, or a count that changes (a queue moving), are no stall (readers.watchdog)."""
    evs = c.samples.get("own_wait", [])
    if not evs or c.exceptions or c.unread or c.retcodes or c.child_failures or c.worker_failures or any(
            v and k not in QUIET_KINDS + ("own_wait",) for k, v in c.kinds.items()):
        return None
    what = str(evs[0].data.get("what") or evs[0].text)[:120]
    return Verdict(
        "unknown",
        f"a process keeps printing that it is still waiting ('{what}', the same words again and again): a wait in the "
        "framework's own scheduling -- for its own service (a lock server, a scheduler, a queue) or a peer holding "
        "what it asked for -- shown not ending, but with no collective, SeqNum, store read, error or exit in the "
        "lines, they cannot tell a service that will never answer from another process still busy with it",
        "Check every process's log (the other trainers' / workers' logs and the service's own: the lock server, "
        "scheduler or rank 0 process it asks) for an error or exit, and take a py-spy dump (py-spy dump --pid PID) of "
        "the waiting process and of the service it waits on while it hangs: the one that is not waiting is the "
        "answer. Check the framework's own rules for what it hands out ("
        + ("a lock server's buckets or partitions: more partitions than trainers"
           if any(_R_LOCK_SERVER.search(e.text) for e in evs) else
           "the resource, slot or work item it asks for: enough of them for the processes that wait")
        + "), that every "
        "process was given the same init method / address of that service, and upgrade the framework if its "
        "scheduling is a known bug.",
        "low", [], [e.brief() for e in evs[:3]])


def _timeouts(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Timeouts with no proven culprit. Lead rule B: every rank shown inside one collective in an input
    that does not hold every rank -> rank_missing (the missing rank is one not shown); so is a rank behind
    the stuck collective that is only a lead (most ranks behind). Otherwise unknown."""
    if not any(c.kinds.get(k) for k in ("watchdog_timeout", "watchdog_status", "watchdog_report")):
        return _timeout_frames(c)
    unclear = next((k for k in ks if k.kind == "groups_unclear"), None)
    low = [k for k in ks if k.kind == "culprit" and k.confidence == "low"]
    lead = f" Leads (low confidence): {low[0].message}." if low else ""
    inside = (one_collective(c) or larger_world(c) or groups_inside(c)) if not unclear else larger_world(c)
    behind = None if unclear or inside else next((k for k in low if k.behind), None)
    gloo = inside and any(e.data.get("backend") == "gloo" for e in c.samples.get("watchdog_timeout", []))
    if (inside or _error_exit(c)) and _failed_outside_alone(c):
        return None  # lead rules B, A: the rank not inside is shown failing on its own -- its exit decides (_exited)
    if _raised_alone(c):
        return None  # lead rules B, A: a rank not inside raised its own exception -- its traceback decides (review 107)
    quiet = None if unclear or inside or behind or low else silent_ranks(c)
    if quiet:
        return _silent_lead(c, *quiet)
    # lead rules B, E, I: the silent ranks are only a lead because the launcher's teardown (SIGTERM) reached one of
    # them -- a rank missing from the collective all the others wait in, which one not proven
    torn = None if unclear or inside or behind or not low or any(k.behind for k in low) else silent_ranks(c)
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
    elif torn:
        msg = (f"{_named(torn[0])} timed out inside the collective (victims) and the launcher stopped "
               f"{_named(torn[1])} (SIGTERM) in the teardown: a rank missing from that collective, which one these "
               "lines do not prove.")
    else:
        msg = (("no rank these lines show is proven to have missed the collective" if low else
                "every rank the input shows was inside the timed-out collective (victims)")
               + "; the rank that never arrived is not proven by these lines"
               + (f"; {unclear.message}" if unclear else "") + ".")
    xccl = _only_xccl(c)
    return Verdict(
        "rank_missing" if inside or behind or torn else "unknown",
        msg + lead,
        ("Collect the log of every rank (one file per rank, e.g. torchrun --log-dir, or srun -l), then rerun "
         "`ncclDoctor diagnose` on all of them: the rank whose log shows no timeout is the culprit." if xccl else
         "Collect the log of every rank (one file per rank, e.g. torchrun --log-dir, or srun -l) "
         "and Flight Recorder dumps (" + FR_ON + "), then "
         "rerun `ncclDoctor diagnose` on all of them: the rank whose log shows no timeout, or the lowest "
         "'last enqueued', is the culprit.")
        + " While the job still hangs, py-spy dump --pid PID on every rank's process "
        "shows the one that is elsewhere in the code."
        # lead rules B, E: a rank missing from the collective is not helped by a longer wait -- the remedy an expert
        # names beside the hunt for it (round 110's alcf-nccl-tests-vae-20241108-2121)
        + (" Raise the process group timeout only after finding the stuck rank: a longer timeout helps a rank that "
           "is only slow (a long save or evaluation on one rank), not one that never issues the collective."
           if inside or behind or torn else "")
        + (GLOO_LATE if gloo else "")
        + (HCCL_WAIT if _hccl(c) else "") + (HCCL_CONNECT_WAIT if _hccl_connect(c) else "")
        + (_hccl_p2p_wait(c) or "")
        + (DEEPEP_WAIT if _backend(c, "deepep") else "") + (XCCL_WAIT if xccl else "")
        + ((XCCL_NOT_SHOWN if xccl else NOT_SHOWN) if inside else "") + (P2P_PEER if inside and _p2p(c) else "")
        + (" A missing rank that died without a word in these logs was often killed by the host: check dmesg -T on "
           "every node for the OOM killer (host memory growing over the run)"
           + ("." if xccl else " and for Xid errors.") if inside else "")
        + (SHARD_GATHER if inside and _shard_gather(c) else "") + (ASYNC_CKPT if _async_ckpt(c) else "")
        + (_driver_oom_lead(c) if inside else ""),
        "low",
        [],
        (_samples(c, "watchdog_timeout") + _samples(c, "watchdog_status") + _samples(c, "watchdog_report"))[:4]
        + (_samples(c, "driver_oom")[:1] if inside and _driver_oom_lead(c) else []),
    )


def _error_exit(c: Collected) -> bool:
    """Whether the launcher's one failure record is a positive exit code (1: a Python exception in that process):
    an error of its own, which rule A reads first even where the ranks shown are not all inside one collective
    (another group's, a subgroup's timeout of the rank waiting for it)."""
    lone = lone_failure(c)
    return lone is not None and isinstance(lone.exitcode, int) and lone.exitcode > 0


def _failed_outside_alone(c: Collected) -> bool:
    """Lead rules B and A together: the shown ranks wait inside one collective, so the rank they wait for is one not
    shown inside it; the launcher's record shows exactly one rank failing on its own (a signal or a nonzero exit,
    the others only torn down after it), and that rank is not among those inside. It is the rank they waited for:
    its exit names it (rule A), the ranks inside are victims. A SIGABRT (-6) is also how the watchdog takes a waiting
    process down, and a local rank is not the global one on a node the lines do not place: a -6 counts only when the
    agent's record then stops other processes still running ("Sending process P closing signal SIGTERM") and no
    timeout shown is the watchdog taking its own process down (C++'s terminate with the timeout as its "what():")."""
    lone = lone_failure(c)
    if lone is None or lone.rank is None or lone.exitcode in (None, 0, -15):
        return False
    if lone.exitcode == -6 and (not any(e.data.get("sent") == "SIGTERM" for e in c.samples.get("signal", [])) or any(
            "what():" in e.text or "entire process down" in e.text
            for k in ("watchdog_timeout", "watchdog_report") for e in c.samples.get(k, []))):
        return False  # or the watchdog shown taking its own process down (C++'s terminate, "what(): ..."): maybe it
    inside = {r for r, st in c.ranks.items() if st.timeouts or st.status or st.counts.get("watchdog_report")}
    return bool(inside) and lone.rank not in inside


def _raised_alone(c: Collected) -> bool:
    """Lead rules B and A without a launcher's record (review 107's aside): the shown ranks wait inside a collective
    and a rank not among them ends its own rank-tagged traceback in an exception of its own code (raised_outside):
    it raised and left, the rank they wait for. Its exception's own reading decides (the readers after the timeouts:
    _unread_failure reads one rank's exception, several ranks' name nobody). A launcher's record is read by rule A's
    own readers (_failed_outside_alone, _exited)."""
    return not (c.child_failures or c.worker_failures) and bool(raised_outside(c))


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
        "rank, op and SeqNum) and Flight Recorder dumps (" + FR_ON + "); while it hangs, py-spy dump --pid PID "
        "on every rank's process shows the one elsewhere in the code; rerun with NCCL_DEBUG=INFO. Raise the "
        "timeout only if a rank is legitimately slow (saving, evaluating)." + NOT_SHOWN,
        "low", [], [e.brief() for e in evs[:2]])


def _driver_oom_lead(c: Collected) -> str:
    """A process of these lines that no timeout line is from failed to get GPU memory through the CUDA driver
    (CUresult 2 from cuMemCreate & co.): the likely rank that never reached the collective. Only a lead: the line
    names no rank, so nobody is accused."""
    waiting = waiting_pids(c)
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
             "names a rank that issued another). On a job over several nodes that means the other node logs too, "
             "and the network between nodes (NCCL_SOCKET_IFNAME, NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=NET) when a whole "
             "node's ranks are the missing ones.")

# the same for oneCCL on XPU (ProcessGroupXCCL): its own knobs, not NCCL's
XCCL_NOT_SHOWN = (" The ranks these lines do not show are where to look: get the logs of every rank, and while it "
                  "hangs a py-spy dump of the other ranks (those not shown here); on the next run CCL_LOG_LEVEL=info "
                  "and TORCH_DISTRIBUTED_DEBUG=DETAIL (torch then checks each collective's type and sizes across "
                  "ranks and names a rank that issued another). On a job over several nodes that means the other "
                  "node logs too, and the transport between nodes (CCL_ATL_TRANSPORT, ofi or mpi, and its fabric) "
                  "when a whole node's ranks are the missing ones.")

# ProcessGroupXCCL's own wait ran out (readers.watchdog: "Work ran time out after N milliseconds"): oneCCL on XPU has
# none of NCCL's knobs (no NCCL_* variable, no Flight Recorder dump of its own); its timeout is the process group's
XCCL_WAIT = (" XCCL (oneCCL on XPU) waited past the process group's timeout: that timeout is init_process_group("
             "timeout=...), and a longer one only delays the same failure when a rank never arrives; "
             "CCL_LOG_LEVEL=info (or debug) in every rank's log shows where each rank is.")


SHARD_GATHER = (" The stuck collective gathers parameter shards (FSDP / ZeRO-3 all-gather every layer's weights before "
                "its forward): a rank that runs a different number of forward passes leaves the others there -- "
                "model.generate producing different lengths per rank (pass synced_gpus=True, or generate with an "
                "unsharded copy; DeepSpeed ZeRO-3 needs it too), or a forward/eval step only some ranks run.")


# Megatron dist_checkpointing's async save finalization in the stuck collective's frames (round 96's verl-2238;
# lead rules B, E, T): the all_reduce there asks every rank whether its async checkpoint write is done, so the rank
# that has not joined is most likely still writing its checkpoint shard
ASYNC_CKPT = (" The collective's frames are Megatron dist_checkpointing's async checkpoint save finalization "
              "(async_utils sync_all_async_calls / maybe_finalize_async_calls): an all_reduce asking whether every "
              "rank's async save is done -- the rank missing from it is most likely still writing its checkpoint "
              "shard (slow storage, a large shard) or stuck in its save: py-spy dump the ranks not in the "
              "all_reduce; call maybe_finalize_async_calls / sync_all_async_calls on every rank at the same steps, "
              "speed up the checkpoint write (faster storage, a fully parallel save), raise the process-group "
              "timeout for checkpoint saves (nccl_timeout) where the write is only slow, and disable async save to "
              "test whether the hang follows it.")


def _async_ckpt(c: Collected) -> bool:
    """Megatron's async checkpoint finalization among the frames the lines show (S.R_ASYNC_CKPT_FRAME)."""
    return any(e.data.get("what") == "async checkpoint finalize frame" for e in c.samples.get("benign", []))


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


GLOO_LATE = (" A gloo op waits for one peer: ranks out of step are the usual reason -- uneven data across workers "
             "(one rank ran out of batches or tasks: DistributedSampler(drop_last=True), or "
             "torch.distributed.algorithms.Join for uneven inputs), "
             "one rank still evaluating or saving: make every rank reach the same all_reduce (or barrier, broadcast) "
             "the same number of times, and take a py-spy dump of every rank while it hangs; "
             "dist.monitored_barrier(wait_all_ranks=True) names every rank that does not arrive.")


# Ascend's HCCL names its own knobs: the wait that ran out is HCCL_EXEC_TIMEOUT (HCCL_CONNECT_TIMEOUT at the link's
# set-up), and its own plog says which peer it waited for; the rank not inside is found as for any collective
HCCL_WAIT = (" HCCL's own wait ran out (its watchdog's WorkHCCL timeout, a stuck notify, or Remote Rank did not "
             "send the data in time): find the stuck rank in the other ranks' logs (while it hangs, a py-spy dump "
             "of every rank shows the one elsewhere) and the HCCL / Ascend plog of the other ranks "
             "(ASCEND_GLOBAL_LOG_LEVEL=1 names the peer "
             "it waited for); a rank still busy before the collective (a longer generation or training step) needs "
             "a longer HCCL_EXEC_TIMEOUT; a link that never came up, HCCL_CONNECT_TIMEOUT and HCCL_IF_IP (the "
             "network interface).")

# HCCL's EI0006 at an operator's first connection, the remote never initiating its connect (signatures.R_HCCL_WAIT):
# a rank late to its first collective, or the link between the NPUs at set-up (lead rules H, BO (2))
HCCL_CONNECT_WAIT = (" The wait was at the connection's set-up (the remote never initiated its connect): a rank that "
                     "started late or is still loading weights before its first collective (check other ranks' errors "
                     "and when each started; a longer HCCL_CONNECT_TIMEOUT where the start-up is slow), or the link "
                     "between the nodes -- the NPU device IPs on the same network segment (hccn_tool ping between "
                     "nodes), TLS consistent on every NPU (hccn_tool -i $devid -tls -g), and HCCL_IF_IP / "
                     "HCCL_SOCKET_IFNAME naming the interface the nodes share.")




def _hccl_p2p_wait(c: Collected) -> str | None:
    """The fix words for HCCL's P2P connection set-up timing out between two devices of one node (EI9999 "connected
    p2p timeout ... remote physic id:N", WaitP2PConnected; signatures.R_HCCL_WAIT): the peer is a device, not a rank."""
    evs = [e for e in c.samples.get("watchdog_timeout", []) if e.data.get("hccl_p2p")]
    if not evs:
        return None
    dev = next((e.data["remote_device"] for e in evs if e.data.get("remote_device") is not None), None)
    peer = f"physical device {dev}" if dev is not None else "the remote device"
    return (f" It was HCCL's P2P connection to {peer} of this node (WaitP2PConnected) that never completed: check "
            f"the process on {peer} -- did it start and reach the same collective, or crash (its own log / plog); "
            "collect the plog of all devices and look for the earliest error; verify the rank table (RANK_TABLE_FILE) "
            "matches the devices and hosts launched; kill leftover processes of a previous training run on the NPUs "
            "(npu-smi info); raise HCCL_CONNECT_TIMEOUT if one rank is slow to compile/load before the first "
            "collective.")


# DeepEP's host gave up on the counts its peers send before a dispatch (signatures.R_DEEPEP_CPU_WAIT)
DEEPEP_WAIT = (" DeepEP's host waited for its peers' token counts (timeout (dispatch CPU)): a py-spy dump of every "
               "rank finds one not inside the same DeepEP dispatch (a rank-conditional path, a rank still "
               "elsewhere); if every rank is inside, test the RDMA path (ib_write_bw between the nodes, "
               "NVSHMEM_DEBUG=INFO, the IBGDA settings) and that every node runs the same DeepEP and NVSHMEM build.")


def _hccl(c: Collected) -> bool:
    """Whether a timeout shown is HCCL's own wait for a peer (readers.watchdog: R_HCCL_WAIT, a WorkHCCL watchdog)."""
    return any(e.data.get("backend") == "hccl" for e in c.samples.get("watchdog_timeout", []))


def _hccl_connect(c: Collected) -> bool:
    """Whether a timeout shown is HCCL's wait at a connection's set-up (EI0006, the remote never connected)."""
    return any(e.data.get("hccl_connect") for e in c.samples.get("watchdog_timeout", []))


def _only_xccl(c: Collected) -> bool:
    """Whether every timeout shown is XCCL's own (ProcessGroupXCCL's work timeout): its knobs, not NCCL's, apply."""
    ts = c.samples.get("watchdog_timeout", [])
    return bool(ts) and all(e.data.get("backend") == "xccl" for e in ts)


def _backend(c: Collected, name: str) -> bool:
    """Whether a timeout shown is that stack's own wait for its peers (the watchdog_timeout's backend)."""
    return any(e.data.get("backend") == name for e in c.samples.get("watchdog_timeout", []))


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


def groups_inside(c: Collected) -> str | None:
    """Lead rules B and E group by group: every rank shown timed out in one process group each (the group its own
    status line names), inside the op it has pending (no status line of the rank says it got further), and the
    groups are several: SeqNums count per group, so no rank is ahead of or behind another, and every group's shown
    members wait inside one op (one SeqNum, op and size). Each waits on a member these lines do not show -- in a
    pipeline the peer stage that never posted the matching send or recv. None when a rank shows more than its
    timeout, a line lacks its group, rank or SeqNum, or a stated world size says every rank is shown."""
    lines = c.samples.get("watchdog_timeout", [])
    if not c.ranks or len(lines) != c.kinds.get("watchdog_timeout", 0) or None in {_own_rank(t) for t in lines}:
        return None
    groups: dict[str, list[Event]] = {}
    for st in c.ranks.values():
        if len(st.timeouts) != 1 or "?" in st.timeouts:
            return None
        (pg, t), = st.timeouts.items()
        if t.seq is None or any(spg != pg or s.seq not in (None, t.seq) or s.data.get("enqueued", t.seq) > t.seq
                                for spg, s in st.status.items()):
            return None  # a rank also in another group's queue, or past the op it timed out in: not only inside
        groups.setdefault(pg, []).append(t)
    if len(groups) < 2 or any(_own_failure(c, e) for st in c.ranks.values() for e in st.errors):
        return None
    if any(len({t.seq for t in ts}) > 1 or len({t.op for t in ts}) > 1 or len({t.numel_in for t in ts}) > 1
           for ts in groups.values()):
        return None  # two members of one group in different ops: rule D's, not this
    size, _, sure = world_size(c)
    if sure == "high" and size and size <= len(c.ranks):
        return None
    each = "; ".join(f"pg {pg}: {ts[0].op or 'collective'} #{ts[0].seq}" for pg, ts in sorted(groups.items())[:4])
    return (f"its own process group's stuck op ({each}: different groups, whose SeqNums are not compared; each "
            "waits on a member of its group not shown)")


P2P_OPS = {"SEND", "RECV", "_SEND", "_RECV", "RECV_ANY_SOURCE", "COALESCED"}


def _p2p(c: Collected) -> bool:
    """A timed-out op is point-to-point (SEND, RECV, or batch_isend_irecv's COALESCED with NumelIn -1 printed
    unsigned): it waits on one peer."""
    return any(t.op and t.op.upper() in P2P_OPS and (t.op.upper() != "COALESCED" or (t.numel_in or 0) >= 1 << 63)
               for t in c.samples.get("watchdog_timeout", []))


P2P_PEER = (" A point-to-point SEND/RECV (or a batch of them) waits on one peer: find the pipeline peer that never "
            "posted the matching op -- check the send/recv pairing (every send's recv in the peer's schedule) and the "
            "send/recv order of the stages (both sides sending first deadlocks without batch_isend_irecv).")


def _died_after_wait(c: Collected, rank: int, st) -> bool:
    """Lead rule BS (4) (round 88's vllm-16514): a rank shown only dying with no cause (multiprocessing's "Process
    SpawnProcess-N:" header, its traceback not shown), whose death the clocks put in the same second as or later than
    a timeout line that says the op waited its full timeout ("Timed out waiting 1800000ms", a watchdog's
    Timeout(ms)): that death came at or after the end of the whole wait, not first (rule AU (1) does not name it) --
    read by rule AN (1), neither named nor a proven victim, and the timed-out rank alone by rules B, E and H. A death
    printed before the timeout, or one with its own error, stays what it is.

    In the same second, a death printed above the timeout line in the same file came first; a later second is
    after whatever the order of the lines. The death's clock is its own line's, or else the executor's "fatal
    signal from worker processes" line printed right after it in the same file (vLLM's executor reports a worker's
    death as it happens). With no clock on either side, the order the lines were printed in is not read: a paste
    that puts per-rank logs one after another prints a process's death after a peer's timeout block whatever the
    order they happened in, and the lines of two processes do not show they are one stream (review r3)."""
    if st.timeouts or st.status or st.errors or set(st.counts) - {"worker_raised", "transport", "benign"}:
        return False
    full = [t for t in c.samples.get("watchdog_timeout", []) if t.data.get("timeout_ms") and t.rank != rank]
    died = [e for e in c.samples.get("worker_raised", []) if e.rank == rank]
    if not full or not died or len(died) != st.counts.get("worker_raised", 0):
        return False
    execs = [x for x in c.samples.get("worker_raised", []) if x.data.get("executor")]

    def clock(e: Event) -> tuple[str, float] | None:
        if e.ts is not None:
            return "ts", e.ts
        m = _R_MD_CLOCK.search(e.text)  # vLLM's "ERROR 04-11 13:45:00 [file.py:N]" (no year): like with like
        return ("md", float(int(m.group(1)) * 2678400 + int(m.group(2)) * 86400 + int(m.group(3)) * 3600
                      + int(m.group(4)) * 60 + int(m.group(5)))) if m else None

    def death(e: Event) -> tuple[str, float] | None:
        if (own := clock(e)) is not None:
            return own
        pe, ne = e.site()  # the executor's line that reported this death: the next one, a few lines below
        return next((k for x in execs if (px := x.site())[0] == pe and 0 < px[1] - ne <= 8
                     and (k := clock(x)) is not None), None)

    def after(e: Event, t: Event) -> bool:
        d, w = death(e), clock(t)
        if d is None or w is None or d[0] != w[0] or d[1] < int(w[1]):
            return False
        # a later second, or the same second where the death is not printed above the timeout in the same file
        (pe, ne), (pt, nt) = e.site(), t.site()
        return d[1] >= int(w[1]) + 1 or pe != pt or ne > nt
    return all(any(after(e, t) for t in full) for e in died)


# a log line's month-day clock with no year (vLLM's logger: "INFO 04-11 13:45:00 [config.py:3773]")
_R_MD_CLOCK = re.compile(r"\b(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)\b")


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
    # a rank's own dump signal cut before its queue numbers ("from this local rank" alone) says as much: its own
    # watchdog timed out, so a collective of it was still pending
    pending = pending or (not outs and not stuck and any(e.data.get("dump_from") is not None
                                                         for e in c.samples.get("watchdog_report", [])))

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
    if not (outs or stuck or pending) or not all(inside(st) or (torn and only_aborted(st)) or _died_after_wait(c, r, st)
                                                 for r, st in c.ranks.items()) \
            or (c.ranks and all(only_aborted(st) for st in c.ranks.values())):
        return None
    if any(_own_failure(c, e) for st in c.ranks.values() for e in st.errors):
        return None  # a rank shows more than its timeout (its own error, a stuck watchdog): not only inside
    if pending:
        return "collectives still pending when a rank's timeout signalled the dump (no line says which)"
    seqs = {t.seq for t in outs if t.seq is not None} or stuck
    ops = {t.op for t in outs if t.op}
    sizes = {t.numel_in for t in outs if t.numel_in is not None}
    lines = c.samples.get("watchdog_timeout", [])
    if len(seqs) == 2 and len(lines) == c.kinds.get("watchdog_timeout", 0) and one_step_ahead(lines):
        # one rank a step past the collective the others are stuck in (rules B, E): still that collective
        ahead = max(seqs)
        return (f"the same {ops.pop() if ops else 'collective'} #{min(seqs)} (one rank a step past it, at #{ahead}: "
                "inside or past it, none behind)")
    if len(seqs) > 1 or len(ops) > 1 or len(sizes) > 1:  # different sizes: maybe another group, or a desync
        return None
    return " ".join(x for x in ("the same", ops.pop() if ops else "collective", f"#{seqs.pop()}" if seqs else "") if x)
