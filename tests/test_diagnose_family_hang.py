"""How diagnose reads hangs (ncclDoctor/diagnose/verdict/: timeouts.py, missing.py,
desync.py, early_exit.py and launch.py's tiny timeout): watchdog timeouts (a Timeout(ms) of a few
milliseconds is the setting), a stuck or blocked watchdog and the heartbeat monitor, desyncs (two collectives at
one SeqNum, collective types without SeqNums, DDP models that differ), torch's desync report
(TORCH_NCCL_DESYNC_DEBUG), missing ranks (the lead's labelling rule B: every rank shown inside one collective;
gloo's recv timeout, monitored_barrier, the rank a dump signal came from), and early exits (the store or a peer
gone mid-run, the ranks' store warnings alone being none: lead rule N), a serving framework's own watchdog (lead rule
P). Flight Recorder dumps have their own tests: test_diagnose_fr_live.py,
test_diagnose_dump_names.py.

Each test reads a family that a blind round (10 to 16, issue #14) missed, from lines other than the corpus
case's own: another version's wording, rank, collective, group tag or numbers. Format strings are torch's,
gloo's and vLLM's (sources beside each test); numbers, hosts, ports and peers are made up. A test sits in the
family of the detector that decides the verdict it asserts; a test that a verdict is NOT given sits beside the
test of that verdict."""

from __future__ import annotations

import pytest

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict
from tests.conftest import failure_record, nccl_info, watchdog_line


# --- a watchdog timeout of a few milliseconds is the setting ------------------------------------------------------
def test_a_timeout_of_a_few_milliseconds_is_the_setting(tmp_path):
    """torch 2.x ProcessGroupNCCL.cpp's watchdog text with Timeout(ms)=5 on a later collective."""
    line = watchdog_line(0, 57, "BROADCAST", 41, 5, numel=4096, stamp="E1002 11:00:00.100")
    v = _verdict(tmp_path, line)
    assert v["cause"] == "config", v
    assert v["culprits"] == [] and "timeout" in v["fix"]


def test_a_default_timeout_is_not_the_setting(tmp_path):
    line = watchdog_line(0, 57, "BROADCAST", 600004, 600000, numel=4096, stamp="E1002 11:00:00.100")
    assert _verdict(tmp_path, line)["cause"] != "config"


# --- a stuck watchdog and the heartbeat monitor: blocked, or the aftermath of another failure ---------------------
_STUCK = ("[rank4]:[E1002 {t} ProcessGroupNCCL.cpp:1743] [PG ID 0 PG GUID 0(default_pg) Rank 4] ProcessGroupNCCL's "
          "watchdog got stuck for 480 seconds without making progress in monitoring enqueued collectives. This "
          "typically indicates a NCCL/CUDA API (e.g., CudaEventDestroy) hang blocking the watchdog, and could be "
          "triggered by another thread holding the GIL inside a CUDA api (for example, CudaEventDestroy), or other "
          "deadlock-prone behaviors.\n")


def _timeout_at(t: str) -> str:
    return watchdog_line(1, 88, "ALLREDUCE", 600031, 600000, numel=1048576, stamp=f"E1002 {t}", at=632)


def test_a_stuck_watchdog_after_a_normal_timeout_is_its_aftermath(tmp_path):
    """The heartbeat monitor's "watchdog got stuck" (ProcessGroupNCCL.cpp) eight minutes after another
    rank's normal timeout, pasted first: the abort hung, the collective is the hang."""
    v = _verdict(tmp_path, _STUCK.format(t="11:18:00.000") + _timeout_at(t="11:10:00.000"))
    assert v["cause"] != "watchdog_blocked", v


def test_a_stuck_watchdog_alone_or_first_is_still_blocked(tmp_path):
    assert _verdict(tmp_path, _STUCK.format(t="11:18:00.000"))["cause"] == "watchdog_blocked"
    v = _verdict(tmp_path, _STUCK.format(t="11:00:00.000") + _timeout_at(t="11:10:00.000"))
    assert v["cause"] == "watchdog_blocked", v


def test_a_stuck_watchdog_cut_inside_its_seconds_by_a_wrap_is_still_blocked(tmp_path):
    """A terminal hard-wrapped the heartbeat monitor's line inside "480 seconds", then a log collector stamped (or a
    quote marked) every piece: the pieces cannot be joined, and the first ends "got stuck for 480 sec"."""
    line = _STUCK.format(t="11:18:00.000").rstrip("\n")
    for cut, mark in (("480 sec", "2025-03-04T05:06:{i:02d}.000000000Z "), ("480 s", "> "), ("480", "{i:03d} | ")):
        width = line.index("got stuck for 480") + len("got stuck for ") + len(cut)
        pieces = [line[k:k + width] for k in range(0, len(line), width)]
        text = "".join(mark.format(i=i) + p + "\n" for i, p in enumerate(pieces))
        v = _verdict(tmp_path, text)
        assert v["cause"] == "watchdog_blocked", (cut, v)


# vLLM executor/multiproc_worker_utils.py: "Worker %s pid %s died, exit code: %s"
def test_a_heartbeat_timeout_after_a_worker_died_is_its_aftermath(tmp_path):
    text = ("ERROR 03-01 10:00:00 multiproc_worker_utils.py:120] Worker VllmWorkerProcess pid 4412 died, exit code: "
            "-6\n"
            "INFO 03-01 10:00:00 multiproc_worker_utils.py:123] Killing local vLLM worker processes\n"
            "[rank0]:[E301 10:08:00.000000000 ProcessGroupNCCL.cpp:1418] [PG 1 Rank 0] Heartbeat monitor timed out! "
            "Process will be terminated after dumping debug info. workMetaList_.size()=3\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "unknown" and v["culprits"] == [], v
    assert "every rank" in v["fix"] and "py-spy" in v["fix"]


def test_a_heartbeat_timeout_alone_is_still_a_blocked_watchdog(tmp_path):
    text = ("[rank2]:[E301 10:08:00.000000000 ProcessGroupNCCL.cpp:1418] [PG 0 Rank 2] Heartbeat monitor timed out! "
            "Process will be terminated after dumping debug info. workMetaList_.size()=1\n")
    assert _verdict(tmp_path, text)["cause"] == "watchdog_blocked"


# --- desync: different collectives at one SeqNum or without SeqNums, DDP models that differ -----------------------
def test_untagged_timeout_at_the_default_groups_seq_is_a_desync_naming_nobody(tmp_path):
    """torch 2.4 prints "[Rank N] Watchdog caught ..." without the group; only rank 2's status line
    names default_pg. Two ranks, two different collectives at one SeqNum: a desync; a 1-1 tie names nobody."""
    text = ("[rank2]:[E1003 10:00:01.1 ProcessGroupNCCL.cpp:607] [Rank 2] Watchdog caught collective operation "
            "timeout: WorkNCCL(SeqNum=4410, OpType=ALLGATHER, NumelIn=128, NumelOut=1024, Timeout(ms)=600000) "
            "ran for 600410 milliseconds before timing out.\n"
            "[rank2]:[E1003 10:00:01.2 ProcessGroupNCCL.cpp:1664] [PG 0 (default_pg) Rank 2] Exception (either an "
            "error or timeout) detected by watchdog at work: 4410, last enqueued NCCL work: 4410, last completed "
            "NCCL work: 4409.\n"
            "[rank5]:[E1003 10:00:01.3 ProcessGroupNCCL.cpp:607] [Rank 5] Watchdog caught collective operation "
            "timeout: WorkNCCL(SeqNum=4410, OpType=ALLREDUCE, NumelIn=7, NumelOut=7, Timeout(ms)=600000) "
            "ran for 600399 milliseconds before timing out.\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "desync", v
    assert v["culprits"] == []


# ProcessGroupNCCL.cpp (torch 1.x): "[Rank %d] Watchdog caught collective operation timeout: WorkNCCL(OpType=%s,
# Timeout(ms)=%d) ran for %d milliseconds before timing out." -- no SeqNum, no process group
def _old_timeout(r: int, op: str, ran: int) -> str:
    return watchdog_line(r, None, op, ran, 600000, style="1.x", at=587)


def test_timeouts_in_different_collective_types_without_seqnum_are_a_desync_naming_nobody(tmp_path):
    text = "".join(_old_timeout(r=r, op="ALLGATHER", ran=600100 + r) for r in (0, 1, 3))
    text += _old_timeout(r=2, op="REDUCE_SCATTER", ran=600042)
    v = _verdict(tmp_path, text)
    assert v["cause"] == "desync" and v["culprits"] == [], v
    assert "drop_last" in v["fix"]


def test_timeouts_in_one_collective_type_without_seqnum_are_no_desync(tmp_path):
    text = "".join(_old_timeout(r=r, op="ALLREDUCE", ran=600100 + r) for r in (0, 1, 3))
    assert _verdict(tmp_path, text)["cause"] != "desync"


# torch's own "[rankN]:" prefix inside a collector's "[rankM]: " (the paste check's rankprefix found it)
def test_a_nested_rank_tag_is_read_as_the_inner_one(tmp_path):
    text = "".join("[rank0]: " + watchdog_line(r, 512, op, 600031, 600000, numel=n, pg="PG 0 (default_pg)")
                   for r, op, n in ((5, "ALLGATHER", 64), (2, "ALLREDUCE", 900)))
    v = _verdict(tmp_path, text)
    assert v["cause"] == "desync", v
    assert "rank(s) 5" in v["summary"] and "rank(s) 2" in v["summary"]


_DDP = ("[rank{r}]: RuntimeError: DDP expects same model across all ranks, but Rank {r} has {n} params, while rank "
        "{o} has inconsistent {m} params.\n")


def test_ddp_one_report_with_an_empty_side_names_nobody(tmp_path):
    """torch reducer.cpp's verify_params_across_processes text; here the reporter is the empty one. Lead rule AH (1)
    (session 14) changed this test's reading: one printing rank's line is symmetric, culprits unknown."""
    v = _verdict(tmp_path, _DDP.format(r=2, n=0, o=0, m=388))
    assert v["cause"] == "desync", v
    assert v["culprits"] == [] and "same model" in v["fix"]


def test_ddp_one_report_naming_a_zero_count_names_nobody(tmp_path):
    """Rounds 44/45 (lead rule AH (1)): DDP names the first all-gather slot that differs; a 0 in it was never sent,
    so one printing rank's line says neither side is wrong. Other ranks and counts than the corpus."""
    v = _verdict(tmp_path, _DDP.format(r=6, n=97, o=1, m=0))
    assert (v["cause"], v["culprits"]) == ("desync", []), v
    assert "TORCH_DISTRIBUTED_DEBUG=DETAIL" in v["fix"]


def test_ddp_models_that_differ_between_two_full_models_name_nobody_from_one_report(tmp_path):
    v = _verdict(tmp_path, _DDP.format(r=1, n=212, o=0, m=210))
    assert v["cause"] == "desync" and v["culprits"] == [], v


def test_ddp_models_every_report_names_one_odd_rank(tmp_path):
    text = _DDP.format(r=1, n=212, o=3, m=210) + _DDP.format(r=2, n=212, o=3, m=210)
    assert _verdict(tmp_path, text)["culprits"] == [3]


def test_ddp_models_a_count_no_model_has_in_one_report_names_nobody(tmp_path):
    """Round 43's shape, read by lead rule AH (1) (session 14 changed this test's expectation): a count no model has
    was never sent -- the named rank was elsewhere, or the printer was, or the transfer delivered nothing."""
    v = _verdict(tmp_path, _DDP.format(r=3, n=391, o=6, m=4611686018427387904))
    assert (v["cause"], v["culprits"]) == ("desync", []), v


def test_ddp_zero_counts_read_from_a_check_gather_every_rank_timed_out_in_name_nobody(tmp_path):
    """Every rank of the world times out in DDP's parameter-count all-gather (SeqNum 1, ALLGATHER, NumelOut = world)
    and then prints "rank K has inconsistent 0 params" naming ranks that timed out there too (unige-4301's shape,
    other world sizes and ranks): neither side was in another collective, so the aborted gather delivered nothing and
    the lines name nobody (lead rule AH (1)); rule H reads the timeouts: network_setup, nobody accused. Where a
    named rank is not shown timing out, the several reports naming it still name it (the next test)."""
    for world, named in ((4, {0: 1}), (8, {0: 3, 5: 2})):
        text = "".join(watchdog_line(r, 1, "ALLGATHER", 600004, 600000, numel=(1, world)) for r in range(world))
        text += "".join(_DDP.format(r=r, n=51, o=named.get(r, 0), m=0) for r in range(world))
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert v["cause"] == "network_setup" and v["culprits"] == [] and not _accused(d), v
        assert "name no rank and are consequences" in v["summary"], v
    missing = "".join(watchdog_line(r, 1, "ALLGATHER", 600004, 600000, numel=(1, 4)) for r in (1, 2, 3))
    missing += "".join(_DDP.format(r=r, n=51, o=0, m=0) for r in (1, 2, 3))
    v = _verdict(tmp_path, missing)
    assert v["cause"] == "desync" and v["culprits"] == [0], v


def test_ddp_several_reports_naming_one_empty_rank_name_it(tmp_path):
    """Lead rule AH (1): several printing ranks' own lines naming the same rank name it; the printers are innocent."""
    text = "".join(_DDP.format(r=r, n=57, o=4, m=0) for r in (0, 2, 5))
    d = _report(tmp_path, text)
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("desync", [4]), d["verdict"]
    assert not {0, 2, 5} & set(_accused(d))


# --- torch's desync report ----------------------------------------------------------------------------------------
DESYNC = ("[rank1]:[E601 01:00:00.000000000 ProcessGroupNCCL.cpp:632] [Rank 1] Watchdog caught collective operation "
          "timeout: WorkNCCL(SeqNum=90, OpType=BROADCAST, NumelIn=4, NumelOut=4, Timeout(ms)=1800000) ran for "
          "1800012 milliseconds before timing out.\n"
          "[rank1]:[E601 01:00:00.000000000 ProcessGroupNCCL.cpp:1937] Rank 1\n"
          "         - [1] Timeout at collective: BROADCAST, #90\n"
          "         - To our best knowledge, the lagging/dead/mismatched ranks that caused the desync are:\n")


def test_the_desync_report_names_the_rank_that_never_joined(tmp_path):
    text = DESYNC + "             [2, 3] finished collective #88, but didn't join collective #89 (count from 1)\n"
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"], v["confidence"]) == ("rank_missing", [2, 3], "medium"), v
    assert "#89" in v["summary"] and 1 not in _accused(d)


def test_the_desync_report_with_both_lists_names_the_smaller(tmp_path):
    text = (DESYNC + "           - [4] joined but didn't finish collective #89 (count from 1)\n"
            "             [0, 1, 2, 3, 5, 6, 7] finished collective #89, but didn't join collective #90 (count from "
            "1)\n")
    v = _report(tmp_path, text)["verdict"]
    assert v["culprits"] == [4] and v["cause"] == "rank_missing", v


def test_the_desync_report_listing_every_rank_as_joined_is_a_stall_nobody_lags(tmp_path):
    """Round 19 (a 16-rank job, victim accused): torch lists the whole world as "joined but didn't finish": every
    rank is inside, none lags -- rule B with every rank shown. Here 8 ranks, another collective and SeqNum."""
    text = (DESYNC + "           - [0, 1, 2, 3, 4, 5, 6, 7] joined but didn't finish collective #90 (count from 1)\n"
            "         - Snapshot of ranks' latest states:\n"
            "           #90 started ranks:\n"
            "             [0, 1, 2, 3, 4, 5, 6, 7] started BROADCAST\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("transport_stall", []), v
    assert not _accused(d) and "NCCL_DEBUG=INFO" in v["fix"]


def test_a_desync_report_naming_only_some_ranks_as_joined_still_names_them(tmp_path):
    # the same report where rank 6 of 8 alone joined: it is the odd one, not a stall of the whole job
    text = DESYNC + "           - [6] joined but didn't finish collective #90 (count from 1)\n"
    v = _report(tmp_path, text)["verdict"]
    assert (v["cause"], v["culprits"]) == ("rank_missing", [6]), v


def test_a_two_rank_desync_names_neither_side_even_the_one_behind(tmp_path):
    """Rule D: two ranks, one finished the collective the other is stuck in and went on to the next: the numbers
    say their sequences diverged, not which side took the wrong path -- the rank 'behind' is not named either
    (round 19's f5-tts case; here other ops and SeqNums, and the ranks' lines in the other order)."""
    status = ("[rank{r}]:[E102 10:00:00.000000000 ProcessGroupNCCL.cpp:1785] [PG ID 0 PG GUID 0(default_pg) Rank {r}] "
              "Exception (either an error or timeout) detected by watchdog at work: {seq}, last enqueued NCCL work: "
              "{seq}, last completed NCCL work: {done}.\n")
    ahead = _timeout(r=0, seq=4411, op="REDUCE_SCATTER", n=2048) + status.format(r=0, seq=4411, done=4410)
    behind = _timeout(r=1, seq=4410, op="ALLGATHER", n=64) + status.format(r=1, seq=4410, done=4409)
    for text in (behind + ahead, ahead + behind):
        d = _report(tmp_path, text)
        assert d["verdict"]["cause"] == "desync", d["verdict"]
        assert not _accused(d), d["conclusions"]


def test_a_failed_desync_report_is_still_a_timeout(tmp_path):
    text = ("[E ProcessGroupNCCL.cpp:988] Failed to retrieve TORCH_NCCL_DESYNC_DEBUG report.  Please file an issue. "
            "Error: something INTERNAL ASSERT FAILED\n")
    v = _report(tmp_path, text)["verdict"]
    assert v["cause"] in ("unknown", "rank_missing") and not v["culprits"], v


# --- rank_missing: rule B (every rank shown inside one collective), gloo's recv timeout, monitored_barrier --------
# ProcessGroupNCCL.cpp's watchdog timeout (torch 2.4+ wording)
def _timeout(r: int, seq: int, op: str, n: int, to: int = 600000) -> str:
    return watchdog_line(r, seq, op, to + 31, to, numel=n)


def test_every_shown_rank_inside_one_collective_of_an_excerpt_is_a_missing_rank(tmp_path):
    text = "".join(_timeout(r=r, seq=7301, op="BROADCAST", n=12) for r in (2, 9))
    d = _report(tmp_path, text)
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("rank_missing", []), d["verdict"]
    assert "every rank" in d["verdict"]["fix"]
    assert not any(k["confidence"] in ("medium", "high") and k["kind"] == "culprit" for k in d["conclusions"])


def test_shown_ranks_at_different_sizes_are_no_one_collective(tmp_path):
    """Same SeqNum, different NumelIn, no group tag -- under different Timeout(ms) settings (two groups): no reading."""
    text = _timeout(r=1, seq=610, op="ALLREDUCE", n=100) + _timeout(r=4, seq=610, op="ALLREDUCE", n=300, to=900000)
    assert _verdict(tmp_path, text)["cause"] == "unknown"


def test_a_gloo_recv_timeout_alone_is_a_peer_that_never_arrived(tmp_path):
    """gloo/transport/tcp/unbound_buffer.cc: "Timed out waiting %dms for recv operation to complete", logged
    by itself (no RuntimeError around it)."""
    line = ("2025/01/02 10:00:00 [/opt/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:81] Timed out "
            "waiting 120000ms for recv operation to complete\n")
    v = _verdict(tmp_path, line)
    assert (v["cause"], v["culprits"]) == ("rank_missing", []), v
    assert "monitored_barrier" in v["fix"] and "uneven" in v["fix"]


def test_screen_copy_padding_is_no_hard_wrap(tmp_path):
    """A terminal screen copy pads every line with blanks to the edge: each line is its own."""
    width = 150
    lines = [_timeout(r=r, seq=44, op="ALLREDUCE", n=1).rstrip("\n") for r in (0, 1, 2)]
    text = "".join((x[:width] + "\n" + x[width:].ljust(width) + "\n") for x in lines)
    d = _report(tmp_path, text)
    assert sorted(r["rank"] for r in d["ranks"] if r.get("rank") is not None) == [0, 1, 2]
    assert d["verdict"]["cause"] == "rank_missing"


def test_a_verdict_that_names_nobody_still_names_the_wrong_settings(tmp_path):
    """The lines cannot say who hung, but the exports beside them are actionable (NCCL_LL_THRESHOLD was removed
    in NCCL 2.5): the fix names them too."""
    text = "export NCCL_LL_THRESHOLD=0\n" + _timeout(r=4, seq=88, op="ALLREDUCE", n=10)
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("rank_missing", []), v
    assert "NCCL_LL_THRESHOLD" in v["fix"] and "every rank" in v["fix"]


def test_the_rank_a_dump_signal_came_from_counts_as_inside(tmp_path):
    """torch 2.6+ HeartbeatMonitor: "Received a dump signal due to a collective timeout from  rank R": R's
    watchdog fired, so R is inside too, and this rank with 'last enqueued' = the stuck work as well."""
    dump = ("[rank2]:[E703 15:37:17.178360488 ProcessGroupNCCL.cpp:1987] [PG ID 0 PG GUID 0(default_pg) Rank 2] "
            "Received a dump signal due to a collective timeout from  rank 6 and we will try our best to dump the "
            "debug info. Last enqueued NCCL work: 7001, last completed NCCL work: 7000.\n")
    v = _verdict(tmp_path, _timeout(r=3, seq=7001, op="ALLREDUCE", n=1) + dump)
    assert (v["cause"], v["culprits"]) == ("rank_missing", []), v
    assert "2, 3, 6" in v["summary"]


def test_monitored_barrier_errors_name_the_faulty_rank_with_cause_unknown(tmp_path):
    # ProcessGroupGloo.cpp monitoredBarrier
    text = ("[rank2]: RuntimeError: Rank 2 successfully reached monitoredBarrier, but received errors while waiting "
            "for send/recv from rank 5. Please check rank 5 logs for faulty rank.\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", [5]), v
    assert "rank 5 logs" in v["fix"] and 2 not in _accused(d)


def test_monitored_barrier_errors_whose_peer_closed_the_connection_are_an_early_exit(tmp_path):
    """Lead rules U (4), AQ (2): the waiter's "Original exception:" is gloo's "Connection closed by peer" (or reset by
    peer): the rank it names went away while the others waited -- early_exit, that rank; the waiter is its victim.
    A rank's own traceback cut before its error proves nothing."""
    for gone in ("Connection closed by peer [10.4.0.12]:41877",
                 "Read error [10.4.0.12]:41877: Connection reset by peer"):
        text = ("[rank3]: RuntimeError: Rank 3 successfully reached monitoredBarrier, but received errors while "
                "waiting for send/recv from rank 0. Please check rank 0 logs for faulty rank.\n"
                "[rank3]:  Original exception: \n"
                f"[rank3]: [../third_party/gloo/gloo/transport/tcp/pair.cc:534] {gone}\n"
                "[rank1]: Traceback (most recent call last):\n")
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("early_exit", [0]), (gone, v)
        assert "rank 0 logs" in v["fix"].lower() and 3 not in _accused(d), d


_ROOT_CAUSE = ("torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n"
               "============================================================\n"
               "job.py FAILED\n"
               "------------------------------------------------------------\n"
               "Root Cause (first observed failure):\n")


def test_a_rank_waiting_in_the_monitored_barrier_is_never_accused(tmp_path):
    """torchrun records the rank that waited in gloo's monitoredBarrier as its first failure (its exit is the
    barrier's error): that rank is a victim of the peer the barrier names, never a culprit."""
    text = ("[E ProcessGroupGloo.cpp:137] Rank 3 successfully reached monitoredBarrier, but received errors while "
            "waiting for send/recv from rank 2. Please check rank 2 logs for faulty rank.\n"
            + _ROOT_CAUSE + failure_record(0, 3, 3, 1, 5521))
    d = _report(tmp_path, text)
    assert d["verdict"]["culprits"] == [2], d["verdict"]
    assert 3 not in _accused(d), d


def test_monitored_barrier_errors_that_timed_out_are_a_missing_rank(tmp_path):
    """ProcessGroupGloo's "received errors while waiting for send/recv" whose original exception is gloo's own
    timeout: on the SEND to rank 0 (unbound_buffer.cc:133) the coordinator never took the waiter's message -- alive
    (its connection stayed open) but never at the barrier (rank_missing, rank 0), and the waiting rank, recorded
    failed by torchrun, is its victim. (A RECEIVE timeout shows rank 0 inside instead: lead rule AO, below.)"""
    text = ("RuntimeError: Rank 2 successfully reached monitoredBarrier, but received errors while waiting for "
            "send/recv from rank 0. Please check rank 0 logs for faulty rank.\n"
            " Original exception:\n"
            "[/opt/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:133]\n"
            "Timed out waiting 1800000ms for send operation to complete\n"
            + _ROOT_CAUSE + failure_record(0, 2, 2, 1, 7310))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("rank_missing", [0]), v
    assert 2 not in _accused(d), d


# Lead rule AO (round 52's CosyVoice-1727): a waiter whose original exception is gloo's timeout RECEIVING rank 0's
# answer had its send taken -- gloo completes a send only into a receive the peer posted, and the coordinator posts
# them as it enters the barrier -- so rank 0 was inside, holding its answers for a rank that never came. Without rank
# 0's own "Rank N failed to pass monitoredBarrier" line that rank is unnamed: rank_missing, culprits unknown, the
# receivers innocent, a waiter whose send never completed proven nothing.
def _mb_recv_waiter(r: int, head: str = "", ms: int = 1800000, op: str = "recv", line: int = 81) -> str:
    return (f"{head}Rank {r} successfully reached monitoredBarrier, but received errors while waiting for send/recv "
            "from rank 0. Please check rank 0 logs for faulty rank.\n Original exception:\n"
            f"[../third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:{line}] Timed out waiting {ms}ms for {op} "
            "operation to complete\n")


def test_monitored_barrier_receive_timeouts_show_rank_0_inside_and_name_nobody(tmp_path):
    """The real case's shape: three receivers, then one waiter whose send timed out, world of 16, a join check."""
    text = ("".join(_mb_recv_waiter(r, f"2025-12-19 09:03:13,77{r} INFO Detected uneven workload distribution: ")
                    + f"Break current worker to manually join all workers, world_size 16, current rank {r}\n\n"
                    for r in (5, 12, 7))
            + "[rank1]:[E ProcessGroupGloo.cpp:144] Rank 1 successfully reached monitoredBarrier, but received errors "
            "while waiting for send/recv from rank 0. Please check rank 0 logs for faulty rank.\n"
            + _mb_recv_waiter(1, "2025-12-19 09:03:13,924 WARNING Rank 1 model.join() exit failed: ", op="send",
                              line=133))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("rank_missing", []), v
    assert _accused(d) == set(), d
    assert "rank 0 logs" in v["fix"].lower(), v


def test_monitored_barrier_receive_timeouts_in_other_shapes_name_nobody(tmp_path):
    """Other ranks, timeouts and prefixes: two receivers of a world of 16 under torchrun's prefix; one receiver."""
    for text in ("".join(_mb_recv_waiter(r, f"[rank{r}]: RuntimeError: ", ms=600000) for r in (11, 3)),
                 _mb_recv_waiter(2, "RuntimeError: ", ms=30000)):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("rank_missing", []), (text, v)
        assert _accused(d) == set(), d


def test_monitored_barrier_receive_timeout_with_rank_0s_own_line_still_names_its_rank(tmp_path):
    """Negative (round 49's cosyvoice-180): rank 0's own report is shown -- it names the rank missing."""
    text = (_mb_recv_waiter(3) + "[E ProcessGroupGloo.cpp:138] [Rank 0]: Rank 4 failed to pass monitoredBarrier in "
            "1800000 ms\n" + _mb_recv_waiter(1))
    v = _report(tmp_path, text)["verdict"]
    assert (v["cause"], v["culprits"]) == ("rank_missing", [4]), v


def test_monitored_barrier_timeout_is_still_a_missing_rank(tmp_path):
    text = "RuntimeError: [Rank 0]: Rank 6 failed to pass monitoredBarrier in 30000 ms\n"
    v = _report(tmp_path, text)["verdict"]
    assert (v["cause"], v["culprits"]) == ("rank_missing", [6]), v


# ProcessGroupGloo::monitoredBarrier: the coordinator (the group's rank 0) logs "[Rank 0]: Rank N failed to pass
# monitoredBarrier in T ms" (gloo's bare LOG(ERROR), no exception word); every other rank that arrived logs that it
# "received errors while waiting for send/recv from rank 0" (the coordinator threw without answering it).
def _mb_waiter(r: int, tag: str = "[E ProcessGroupGloo.cpp:138] ") -> str:
    return (f"{tag}Rank {r} successfully reached monitoredBarrier, but received errors while waiting for send/recv "
            "from rank 0. Please check rank 0 logs for faulty rank.\n")


def test_the_coordinators_report_names_the_missing_rank_not_the_rank_the_waiters_name(tmp_path):
    """Lead rule U (4), a gloo log of a world of 4: rank 0's own line names rank 2; ranks 1 and 3 reached the
    barrier and only failed waiting on rank 0, which was there (it wrote the report): rank 2 is missing, 0, 1 and 3
    are innocent."""
    text = (_mb_waiter(3) + "[E ProcessGroupGloo.cpp:138] [Rank 0]: Rank 2 failed to pass monitoredBarrier in "
            "30000 ms\n" + _mb_waiter(1) + " Original exception: \n[../third_party/gloo/gloo/transport/tcp/"
            "unbound_buffer.cc:81] Timed out waiting 30000ms for recv operation to complete\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("rank_missing", [2]), v
    assert _accused(d) & {0, 1, 3} == set(), d


def test_the_coordinators_report_of_several_ranks_after_the_waiters_lines(tmp_path):
    """The same shape with wait_all_ranks=True in a world of 8, torchrun's prefixes, the report printed last."""
    text = ("".join(_mb_waiter(r, f"[rank{r}]: RuntimeError: ") for r in (6, 1, 4))
            + "[rank0]: [E1107 08:12:44.417 ProcessGroupGloo.cpp:2871] [Rank 0]: Ranks 5, 7 failed to pass "
            "monitoredBarrier in 600000 ms\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("rank_missing", [5, 7]), v
    assert _accused(d) & {0, 1, 4, 6} == set(), d


def test_the_coordinators_report_in_the_older_wording_clears_rank_0(tmp_path):
    """torch 1.10's report without its "[Rank 0]: " tag, behind Python logging's prefix, in a world of 3."""
    text = ("2023-03-02 10:01:12,004 - ERROR - RuntimeError: Rank 1 failed to pass monitoredBarrier in 2000 ms\n"
            + _mb_waiter(2, "2023-03-02 10:01:12,090 - ERROR - RuntimeError: "))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("rank_missing", [1]), v
    assert _accused(d) & {0, 2} == set(), d


def test_the_waiters_lines_alone_still_name_the_coordinator(tmp_path):
    """Without the coordinator's report, gloo's bare log lines of the waiting ranks are all there is: the rank they
    name (rank 0) never answered. With no receive timeout among them nothing shows rank 0 inside the barrier, and
    with no timeout at all its failure is named, not its cause (round 25's wenet-2266 shape)."""
    text = _mb_waiter(3) + _mb_waiter(1)
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", [0]), v
    assert _accused(d) & {1, 3} == set(), d


def test_the_waiters_lines_with_a_receive_timeout_show_the_coordinator_inside(tmp_path):
    """Lead rule AO: rank 3's original exception is gloo's timeout RECEIVING rank 0's answer -- its send was taken, so
    rank 0 was at the barrier; without rank 0's own line the rank that never arrived is unnamed."""
    text = (_mb_waiter(3) + " Original exception: \n[../third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:81] "
            "Timed out waiting 30000ms for recv operation to complete\n" + _mb_waiter(1))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("rank_missing", []), v
    assert _accused(d) == set(), d


def _coll(dev: int, pid: int, op: str, count: int, comm: str, n: int = 8) -> str:
    """NCCL_DEBUG_SUBSYS=COLL's line of one collective (enqueue.cc's INFO, RCCL alike)."""
    return nccl_info("gpu-node-4", pid, dev, f"{op}: opCount {count:x} sendbuff 0x7f21a0000000 recvbuff 0x7f21a0000000 "
                     f"count 262144 datatype 7 op 0 root 0 comm {comm} [nranks={n}] stream 0x5571c0e00000")


def test_a_collective_trace_with_two_collectives_at_one_opcount_is_a_desync(tmp_path):
    """Lead rule D through NCCL's collective trace: at opCount 0x1f two processes of an 8-rank communicator enqueue
    Broadcast and one ReduceScatter; the trace names devices, not ranks: desync, nobody named."""
    text = "".join(_coll(d, 7100 + d, op, k, f"0x55d0{d}0") for k, ops in ((0x1e, ("Broadcast",) * 3),
                                                                         (0x1f, ("Broadcast", "Broadcast",
                                                                                 "ReduceScatter")))
                   for d, op in zip((1, 3, 6), ops))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("desync", []), v
    assert "1f" in v["summary"] and "NCCL_DEBUG_SUBSYS=COLL" in v["fix"] and _accused(d) == set()


def test_a_collective_trace_that_agrees_or_pairs_sends_is_no_desync(tmp_path):
    """The same collective at each opCount; a Send against its peer's Recv; a process with two communicators of one
    size (which of them the other process's is, the trace cannot say): no desync."""
    same = "".join(_coll(d, 7100 + d, "AllGather", k, f"0x55d0{d}0") for k in (3, 4) for d in (0, 2))
    p2p = _coll(0, 7100, "Send", 9, "0x55d000") + _coll(2, 7102, "Recv", 9, "0x55d020")
    two = (_coll(0, 7100, "AllReduce", 9, "0x55d000") + _coll(0, 7100, "AllGather", 9, "0x55d0ff")
           + _coll(2, 7102, "AllGather", 9, "0x55d020"))
    for text in (same, p2p, two):
        assert _verdict(tmp_path, text)["cause"] != "desync", text


# --- early exits: the store or a peer gone mid-run ----------------------------------------------------------------
# a rank's own failure after its store warning (lead rule N: the warnings alone are none, test_diagnose_family_quiet)
_FAILS_AFTER = ("[rank{r}]: Traceback (most recent call last):\n"
                "[rank{r}]:   File \"/srv/job/loop.py\", line 212, in <module>\n"
                "[rank{r}]:     dist.barrier()\n"
                "[rank{r}]: torch.distributed.DistNetworkError: failed to recv, got 0 bytes\n")


def test_a_store_socket_reset_is_the_store_hosts_death(tmp_path):
    """TCPStore.cpp: "[c10d] recvValue failed on SocketImpl(fd=..., addr=..., remote=...): Connection reset by peer",
    with the rank failing after it (alone, the warning is none: lead rule N)."""
    line = ("[rank2]:[W102 10:00:00.000000000 TCPStore.cpp:125] [c10d] recvValue failed on SocketImpl(fd=41, "
            "addr=[node-a]:51200, remote=[node-a]:29400): Connection reset by peer\n")
    v = _verdict(tmp_path, line + _FAILS_AFTER.format(r=2))
    assert (v["cause"], v["culprits"]) == ("unknown", []), v
    assert "rank 0" in v["fix"] and "dmesg" in v["fix"]


def test_the_store_shut_down_too_early_is_an_early_exit(tmp_path):
    lines = ("[rank3]:[W102 10:00:00.000000000 ProcessGroupNCCL.cpp:1662] [PG ID 0 PG GUID 0 Rank 3] Failed to check "
             "the \"should dump\" flag on TCPStore, (maybe TCPStore server has shut down too early), with error: "
             "Connection reset by peer\n"
             "[rank3]:[W102 10:00:00.000000000 TCPStore.cpp:106] [c10d] sendBytes failed on SocketImpl(fd=9, "
             "addr=[node-a]:40000, remote=[node-a]:29500): Broken pipe\n")
    v = _verdict(tmp_path, lines + _FAILS_AFTER.format(r=3))
    assert (v["cause"], v["culprits"]) == ("early_exit", []), v
    assert "destroy_process_group" in v["fix"]


def test_a_store_client_cut_off_while_waiting_for_a_key_is_a_store_failure(tmp_path):
    # TCPStore.cpp recvValue / Utils.hpp: "Failed to recv, got 0 bytes. Connection was likely closed."
    text = ("[W301 09:09:09.000000000 TCPStore.cpp:141] [c10d] recvValue failed on SocketImpl(fd=9, "
            "addr=[trainer-2]:51000, remote=[trainer-0]:29511): Failed to recv, got 0 bytes. Connection was likely "
            "closed. Did the remote server shutdown or crash?\n")
    v = _report(tmp_path, text)["verdict"]
    assert (v["cause"], v["culprits"]) == ("store_rendezvous", []), v
    assert "trainer-0:29511" in v["summary"] and "exited" in v["fix"]


def test_a_serving_engines_post_load_barrier_blames_the_ranks_that_never_arrived(tmp_path):
    """SGLang's barrier after loading the weights: each rank that prints "TP rank N could finish the model loading,
    but there are other ranks that didn't finish loading" arrived and is a victim; the ranks it waited for are not
    named (rank_missing, nobody accused), whichever ranks report it."""
    raised = ("ValueError: TP rank {r} could finish the model loading, but there are other ranks that didn't finish "
              "loading. It is likely due to unexpected failures (e.g., OOM) or a slow node.\n")
    text = ("[2025-06-01 10:00:00 TP5] Scheduler hit an exception: Traceback (most recent call last):\n"
            '  File "/opt/sglang/srt/model_executor/model_runner.py", line 700, in load_model\n'
            "    raise ValueError(\n" + raised.format(r=5) + raised.format(r=6))
    d = _report(tmp_path, text)
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("rank_missing", []), d["verdict"]
    assert _accused(d) == set() and "OOM" in d["verdict"]["fix"]


def test_a_post_load_barrier_message_cut_after_other_ranks_is_still_the_barrier(tmp_path):
    """The same SGLang message pasted short ("... but there are other ranks" and nothing after) is the same barrier:
    the printing rank arrived and is a victim, the missing ranks unnamed. A rank that only says it could finish the
    model loading, with no other ranks, is not read so (no load barrier, no innocent)."""
    head = ("[2025-06-01 10:00:00 TP1] Scheduler hit an exception: Traceback (most recent call last):\n"
            '  File "/opt/sglang/srt/model_executor/model_runner.py", line 417, in load_model\n'
            "    raise ValueError(\n")
    d = _report(tmp_path, head + "ValueError: TP rank 1 could finish the model loading, but there are other ranks\n")
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("rank_missing", []), d["verdict"]
    assert _accused(d) == set() and "OOM" in d["verdict"]["fix"]
    d = _report(tmp_path, head + "ValueError: TP rank 1 could finish the model loading, but the weights differ\n")
    assert d["verdict"]["cause"] != "rank_missing", d["verdict"]


def test_the_etcd_rendezvous_backend_failing_is_the_rendezvous_store_not_a_rank(tmp_path):
    """torchelastic's etcd backends raise python-etcd's exceptions unwrapped: a key of the rendezvous state missing,
    or the etcd server unreachable, is the rendezvous store failing (lead rule L), whatever the key or the node."""
    frames = ('  File "/opt/venv/lib/python3.10/site-packages/etcd/client.py", line 595, in read\n'
              "    response = self.api_execute(\n")
    for exc in ("etcd.EtcdKeyNotFound: Key not found : /torchelastic/p2p/run_job42/rdzv/active_version",
                "etcd.EtcdConnectionFailed: Connection to etcd failed due to MaxRetryError(\"HTTPConnectionPool("
                "host='etcd-0', port=2379)\")"):
        d = _report(tmp_path, "Traceback (most recent call last):\n" + frames + exc + "\n"
                    "INFO 2025-03-02 08:00:01,500 Node gpu-node-7 Attempting to join next rendezvous\n")
        assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("store_rendezvous", []), d["verdict"]
        assert "etcd" in d["verdict"]["fix"] and _accused(d) == set()


def test_the_heartbeat_monitor_losing_the_store_at_shutdown_stays_an_early_exit(tmp_path):
    """...when the rank fails after it; the warning alone is none (lead rule N)."""
    text = ("[rank3]:[W0101 00:00:00.000000000 ProcessGroupNCCL.cpp:1662] [PG ID 0 PG GUID 0 Rank 3] Failed to check "
            "the \"should dump\" flag on TCPStore, (maybe TCPStore server has shut down too early), with error: "
            "Connection was likely closed. Did the remote server shutdown or crash?\n")
    assert _report(tmp_path, text + _FAILS_AFTER.format(r=3))["verdict"]["cause"] == "early_exit"


def test_a_recv_from_a_literal_source_that_closed_names_that_source(tmp_path):
    text = ("Traceback (most recent call last):\n  File \"/work/pp.py\", line 31, in stage\n"
            "    torch.distributed.recv(buf, src=3)\n"
            "  File \"/usr/lib/python3/site-packages/torch/distributed/distributed_c10d.py\", line 2100, in recv\n"
            "    pg.recv([tensor], src, tag).wait()\n"
            "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:589] Connection closed by peer "
            "[10.9.9.9]:41000\n")
    v = _report(tmp_path, text)["verdict"]
    assert (v["cause"], v["culprits"], v["confidence"]) == ("early_exit", [3], "medium"), v
    assert "wait()" in v["fix"]


def test_a_closed_peer_without_a_literal_source_names_nobody(tmp_path):
    text = ("    dist.recv(buf, src=peer)\n"
            "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:589] Connection closed by peer "
            "[10.9.9.9]:41000\n")
    v = _report(tmp_path, text)["verdict"]
    assert v["cause"] == "early_exit" and v["culprits"] == [], v


def test_a_barrier_closed_by_its_peer_says_how_every_rank_should_leave(tmp_path):
    """A gloo barrier whose pair the peer closed mid-run, beside a test harness's own exit lines: the peer left
    first; if it finished normally, the ranks ended at different points, so the fix says how every rank leaves
    the same way (a barrier before exit, then destroy_process_group; rpc.shutdown for RPC)."""
    text = ("    torch.distributed.barrier(group=g)\n"
            "RuntimeError: [/opt/src/third_party/gloo/gloo/transport/tcp/pair.cc:575] Connection closed by peer "
            "[10.44.0.7]:29871\n exiting process 1 with exit code: 10\n")
    v = _report(tmp_path, text)["verdict"]
    assert v["cause"] == "early_exit" and v["culprits"] == [], v
    assert "barrier() before exit" in v["fix"] and "destroy_process_group" in v["fix"], v["fix"]


def test_a_gloo_pair_error_cut_after_its_source_site_is_read_by_that_site(tmp_path):
    """Rules U (4), O, read through a source site as rules AM (1) and AJ (1) read one (round 73): an untagged process's
    all_reduce mid-run fails with gloo's GLOO_ERROR_MSG header and nothing after it ("[.../gloo/transport/tcp/
    pair.cc:543]", the message cut): in gloo's tcp pair that line prints only the read path's "Connection closed by
    peer", so a peer went away first -- early_exit, nobody named. A line that another run-time message (Read error,
    Read timeout) shares in some gloo version, and gloo's enforce header ('enforce fail at') at the same site, say no
    message, so they are not read as a peer's close."""
    frames = ("Traceback (most recent call last):\n"
              '  File "/srv/rl/learner.py", line 142, in sync_grads\n'
              "    dist.all_reduce(count, op=dist.ReduceOp.SUM)\n"
              '  File "/usr/lib/python3/site-packages/torch/distributed/distributed_c10d.py", line 838, in all_reduce\n'
              "    work.wait()\n")
    d = _report(tmp_path, frames + "RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:544]\n")
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("early_exit", []) and not _accused(d), v
    assert "tcp/pair.cc:544" in v["summary"] and "dmesg (OOM killer)" in v["fix"], v
    for cut in ("RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:563]\n",
                "RuntimeError: [enforce fail at /pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:543]\n"):
        assert _report(tmp_path, frames + cut)["verdict"]["cause"] != "early_exit", cut


def test_a_broadcast_closed_by_its_peer_names_nobody_and_says_where_to_look(tmp_path):
    """Lead rule U(4): gloo's "Connection closed by peer" inside a collective (broadcast with src=N) is early_exit
    with no culprit named; the fix sends to the peer's own log, the OOM killer, py-spy and the network."""
    text = ("    dist.broadcast(sizes, src=2, group=cpu_group)\n"
            "RuntimeError: [/src/third_party/gloo/gloo/transport/tcp/pair.cc:598] Connection closed by peer "
            "[172.31.4.20]:50211\n")
    v = _report(tmp_path, text)["verdict"]
    assert (v["cause"], v["culprits"]) == ("early_exit", []), v
    assert "dmesg (OOM killer)" in v["fix"] and "py-spy" in v["fix"] and "network between the nodes" in v["fix"]


def test_a_rank_shown_only_aborting_its_communicator_keeps_rule_e(tmp_path):
    """Lead rule E: ranks 5 and 6 time out in one ALLGATHER of an 8-rank world (NCCL's nranks); rank 2 appears only in
    NCCL's "Abort COMPLETE" of its communicator (torn down like the others): rank_missing, nobody named."""
    text = (watchdog_line(5, 30412, "ALLGATHER", 600114, 600000, numel=4, style="1.x")
            + "gpu-b:811:902 [2] NCCL INFO comm 0x7a10 rank 2 nranks 8 cudaDev 2 busId 41000 - Abort COMPLETE\n"
            + watchdog_line(6, 30412, "ALLGATHER", 600120, 600000, numel=4, style="1.x")
            + "gpu-b:815:907 [6] NCCL INFO comm 0x7c40 rank 6 nranks 8 cudaDev 6 busId c1000 - Abort COMPLETE\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("rank_missing", []), v
    assert not _accused(d)


def test_the_watchdogs_timeout_stack_alone_is_rule_b(tmp_path):
    """Lead rule B: only the checkTimeout frames of the watchdog's c10::Error (its message line not in the input), of
    a process that names no rank: it timed out inside a collective; the rank that never issued it is not shown."""
    lib = "/opt/py311/lib/python3.11/site-packages/torch/lib"
    text = (f"node07: frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x96 (0x7fa1 in {lib}/"
            "libc10.so)\n"
            "node07: frame #1: c10d::ProcessGroupNCCL::WorkNCCL::checkTimeout(std::optional<std::chrono::duration<"
            f"long, std::ratio<1l, 1000l> > >) + 0x2b0 (0x7fa2 in {lib}/libtorch_cuda.so)\n"
            f"node07: frame #2: c10d::ProcessGroupNCCL::watchdogHandler() + 0x23f (0x7fa3 in {lib}/libtorch_cuda.so)\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("rank_missing", []), v
    assert "py-spy" in v["fix"] and "every rank's log" in v["fix"], v["fix"]
    assert not _accused(d)


# --- rule D on lines that name no group: one odd op at the SeqNum every line shares ------------------------
def _old(r: int, s: int, op: str, to: int, ran: int) -> str:
    return watchdog_line(r, s, op, ran, to, style="1.x", at=587)


def test_one_rank_in_another_op_at_the_shared_seqnum_is_the_desync_culprit(tmp_path):
    text = "".join(_old(r=r, s=88120, op=op, to=900000, ran=900412 + r)
                   for r, op in ((2, "ALLREDUCE"), (3, "BROADCAST"), (6, "ALLREDUCE"), (7, "ALLREDUCE")))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"], v["confidence"]) == ("desync", [3], "medium"), v
    assert _accused(d) == {3} and "same order" in v["fix"]


def test_untagged_lines_at_different_seqnums_or_two_ranks_name_nobody(tmp_path):
    two = "".join(_old(r=r, s=5001, op=op, to=600000, ran=600100) for r, op in ((0, "REDUCE"), (1, "ALLGATHER")))
    d = _report(tmp_path, two)
    assert not _accused(d), d["verdict"]
    apart = "".join(_old(r=r, s=s, op=op, to=600000, ran=600100)
                    for r, s, op in ((0, 700, "REDUCE"), (1, 700, "ALLGATHER"), (2, 700, "ALLGATHER"),
                                     (3, 41, "ALLGATHER")))
    d = _report(tmp_path, apart)
    assert not _accused(d), d["verdict"]


# --- two ranks of the default group: one completed the collective the other is stuck in --------------------
_NEW = ("[rank{r}]:[E305 10:11:12.000000000 ProcessGroupNCCL.cpp:632] [Rank {r}] Watchdog caught collective operation "
        "timeout: WorkNCCL(SeqNum={s}, OpType={op}, NumelIn={ni}, NumelOut={no}, Timeout(ms)=600000) ran for 600050 "
        "milliseconds before timing out.\n"
        "[rank{r}]:[E305 10:11:12.000000000 ProcessGroupNCCL.cpp:1790] [PG ID 0 PG GUID 0(default_pg) Rank {r}] "
        "Exception (either an error or timeout) detected by watchdog at work: {s}, last enqueued NCCL work: {enq}, "
        "last completed NCCL work: {done}.\n")


def test_a_rank_that_completed_the_other_ranks_stuck_collective_of_two_is_a_desync(tmp_path):
    text = (_NEW.format(r=1, s=311, op="ALLREDUCE", ni=4096, no=4096, enq=320, done=310)
            + _NEW.format(r=0, s=318, op="_ALLGATHER_BASE", ni=2048, no=4096, enq=319, done=317))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("desync", []), v
    assert "rank 1 is stuck in collective #311" in v["summary"] and "save" in v["fix"]
    assert not _accused(d)


def test_with_more_ranks_one_finishing_first_is_not_called_a_desync(tmp_path):
    """An all-gather over 8: rank 5 may finish while rank 2 still waits on a third rank's data."""
    text = (_NEW.format(r=2, s=90, op="_ALLGATHER_BASE", ni=1000, no=8000, enq=93, done=89)
            + _NEW.format(r=5, s=92, op="_ALLGATHER_BASE", ni=1000, no=8000, enq=93, done=91))
    v = _report(tmp_path, text)["verdict"]
    assert v["cause"] != "desync", v


# --- an early SeqNum of a pipeline group: the group is young, not the job ----------------------------------
def test_a_pipeline_groups_first_send_recv_timeout_is_not_connection_set_up(tmp_path):
    text = ("[rank21]:[E0707 01:02:03.000000000 ProcessGroupNCCL.cpp:1900] [PG ID 9 PG GUID 133(pp_group) Rank 2] "
            "Process group watchdog thread terminated with exception: [Rank 2] Watchdog caught collective operation "
            "timeout: WorkNCCL(SeqNum=2, OpType=RECV, NumelIn=1, NumelOut=1, Timeout(ms)=1200000) ran for 1200070 "
            "milliseconds before timing out.\n")
    d = _report(tmp_path, text)
    assert d["verdict"]["cause"] == "rank_missing" and 21 not in _accused(d), d["verdict"]
    assert not [k for k in d["conclusions"] if k["kind"] in ("connection_setup", "first_missing")]
    default = text.replace("PG ID 9 PG GUID 133(pp_group)", "PG ID 0 PG GUID 0(default_pg)")
    # the default group's SeqNum 2 is one of the job's first collectives; a rank alone there is rule H's
    assert [k for k in _report(tmp_path, default)["conclusions"] if k["kind"] == "first_missing"]


# --- rule E: a world larger than the ranks shown, one of them a collective or two ahead ----------------------
def _wd(r: int, seq: int, op: str, ni: int, no: int, ran: int) -> str:
    return watchdog_line(r, seq, op, ran, 900000, numel=(ni, no), stamp="E904 05:06:07.000000000")


def test_shown_ranks_inside_or_just_past_in_a_larger_world_is_a_missing_rank(tmp_path):
    # an all-gather of 100 -> 800 elements: eight ranks; three shown, rank 5 two collectives ahead
    text = (_wd(2, 7710, "BROADCAST", 4000, 4000, 900051) + _wd(6, 7710, "BROADCAST", 4000, 4000, 900049)
            + _wd(5, 7712, "_ALLGATHER_BASE", 100, 800, 900050))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("rank_missing", []) and not _accused(d), v
    assert "8 ranks" in v["summary"]


def test_several_groups_far_apart_are_not_read_as_one_stuck_collective(tmp_path):
    text = (_wd(1, 40, "ALLREDUCE", 10, 10, 900100) + _wd(3, 2900, "ALLREDUCE", 10, 10, 900090)
            + _wd(3, 5100, "ALLREDUCE", 10, 10, 900095))
    assert _report(tmp_path, text)["verdict"]["cause"] != "rank_missing"


# --- a 'peer' closing the connection of a one-rank communicator: the host, not a peer -----------------------
def test_a_closed_connection_in_a_communicator_of_one_is_the_host_not_a_peer(tmp_path):
    text = ("box:5501:5501 [0] NCCL INFO comm 0x55d0 rank 0 nranks 1 cudaDev 0 busId 1000 - Init START\n"
            "box:5501:5510 [0] misc/socket.cc:50 NCCL WARN socketProgress: Connection closed by remote peer "
            "localhost<40111>\n")
    v = _report(tmp_path, text)["verdict"]
    assert (v["cause"], v["culprits"]) == ("network_setup", []), v
    assert "firewall" in v["fix"] and "NCCL_SOCKET_IFNAME" in v["fix"]
    two = text.replace("nranks 1", "nranks 2")
    assert _report(tmp_path, two)["verdict"]["cause"] == "early_exit"


# --- a watchdog line a terminal cut inside WorkNCCL(...): its numbers read from the whole --------------------
def test_a_watchdog_line_cut_inside_a_number_is_read_whole(tmp_path):
    text = ("[default3]:[rank7]:[E808 01:02:03.000000000 ProcessGroupNCCL.cpp:616] [Rank 7] Watchdog caught collective "
            "operation timeout: WorkNCCL(SeqNum=61, OpType=_ALLGATHER_BASE, NumelIn=3000, NumelOut=4\n"
            "[default3]:8000, Timeout(ms)=600000) ran for 600321 milliseconds before timing out.\n")
    d = _report(tmp_path, text)
    numbers = next(k for k in d["conclusions"] if k["kind"] == "numbers")["message"]
    assert "NumelOut=48000" in numbers and "over 16 ranks" in numbers, numbers


# --- round 17: a py-spy stack in the teardown; a sub-communicator's rank; the missing rank's fix -------------
def test_a_py_spy_stack_stuck_in_destroy_process_group_is_an_early_exits_teardown(tmp_path):
    text = ('Process 4410: python -m trainer.main\n'
            'Thread 4410 (idle): "MainThread"\n'
            '    destroy_process_group (torch/distributed/distributed_c10d.py:2091)\n'
            '    cleanup (trainer/main.py:88)\n'
            '    main (trainer/main.py:140)\n')
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"], v["confidence"]) == ("early_exit", [], "low"), v
    assert "destroy_process_group" in v["fix"] and "finally" in v["fix"]


def test_a_split_communicators_rank_is_not_a_rank_of_the_job(tmp_path):
    """ncclCommSplit's "comm %p rank %d nranks %d ... parent %p" names the rank inside the new group."""
    text = ("gpu-n1:61:4100 [6] NCCL INFO ncclCommSplit comm 0x55f0 rank 6 nranks 8 cudaDev 6 nvmlDev 6 busId c1000 "
            "parent 0x5511 color 7 key 6 commId 0x9f - Init COMPLETE\n"
            + watchdog_line(2, 812, "ALLREDUCE", 600021, 600000, numel=4096, stamp="E1201 08:00:00.000000000", at=632))
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("rank_missing", []), v
    assert "dmesg" in v["fix"] and "OOM killer" in v["fix"]


# --- session 6, lead rule H: a group's first collectives with a rank of the world not shown ----------------------
def _first_timeout(rank: int, seq: int, numel=None) -> str:
    """torch 1.13's ProcessGroupNCCL.cpp:821 wording (no NumelIn/NumelOut unless NUMEL gives them)."""
    return watchdog_line(rank, seq, "ALLREDUCE", f"90{rank}117", 900000, numel=numel, style="1.x", at=821)


def test_a_prefix_on_a_timeout_line_that_names_another_rank_adds_no_rank_to_the_first_collectives(tmp_path):
    """Lead rule H's count of the world: a launcher prefix ("[rank6]: ") on a watchdog timeout whose own text names
    another rank of the default group ("what():  [Rank 0] Watchdog caught ...": std::terminate's message, joined to
    the "terminate called" line before it) is that named rank's line, not a rank 6 that would make the world 7 with
    ranks 2-5 missing: a two-rank world inside its first collectives stays connection set-up, as unprefixed."""
    plain = ("[E ProcessGroupNCCL.cpp:475] Some NCCL operations have failed or timed out. Due to the asynchronous "
             "nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.\n"
             "terminate called after throwing an instance of 'std::runtime_error'\n"
             "  what():  [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=2, "
             "OpType=ALLGATHER, Timeout(ms)=600000) ran for 600431 milliseconds before timing out.\n"
             + watchdog_line(1, 1, "BROADCAST", 600388, 600000, style="1.x", at=828))
    tags = ("[rank6]: ", "[rank6]: ", "[rank0]: ", "[rank1]: ")
    prefixed = "".join(t + x + "\n" for t, x in zip(tags, plain.splitlines()))
    base = _verdict(tmp_path, plain)
    assert (base["cause"], base["culprits"]) == ("network_setup", []), base
    d = _report(tmp_path, prefixed, "prefixed.log")
    assert d["verdict"]["cause"] == base["cause"] and not _accused(d) & {0, 1}, d["verdict"]


def test_the_first_collectives_with_the_low_ranks_not_shown_wait_for_a_rank_not_shown(tmp_path):
    text = "".join(_first_timeout(r, 2) for r in (7, 5, 4, 6))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("rank_missing", []), v
    assert not _accused(d) & {4, 5, 6, 7}
    assert "dataset" in v["fix"] and "ddp_timeout" in v["fix"] and "NCCL_DEBUG=INFO" in v["fix"], v["fix"]
    assert "rank 0, 1, 2, 3 not shown" in v["summary"], v["summary"]


def test_a_first_gather_of_a_larger_group_than_the_ranks_shown_waits_for_a_rank_not_shown(tmp_path):
    """torch 2.4's wording: NumelOut/NumelIn of an all-gather says a group of 8, ranks 0-3 shown."""
    text = "".join(watchdog_line(r, 1, "_ALLGATHER_BASE", 1200031, 1200000, numel=(3, 24),
                                 stamp="E1130 02:03:04.000000000") for r in range(4))
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("rank_missing", []), v
    assert "a group of 8 (NumelOut/NumelIn" in v["summary"], v["summary"]


def test_every_rank_of_the_world_inside_the_first_collective_is_set_up_and_one_not_shown_is_not(tmp_path):
    init = "".join(f"node-b:{900 + r}:{950 + r} [{r}] NCCL INFO comm 0x7f{r}0 rank {r} nranks 3 cudaDev {r} busId "
                   f"{r}1000 commId 0x41 - Init COMPLETE\n" for r in range(3))
    every = init + "".join(_first_timeout(r, 1, "NumelIn=1, NumelOut=1") for r in range(3))
    v = _verdict(tmp_path, every)
    assert (v["cause"], v["culprits"]) == ("network_setup", []), v
    one_away = "".join(x for x in init.splitlines(keepends=True) if " rank 1 " not in x) + "".join(
        _first_timeout(r, 1, "NumelIn=1, NumelOut=1") for r in (0, 2))  # rank 1 has no line at all
    d = _report(tmp_path, one_away)
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("rank_missing", []), d["verdict"]
    assert "rank 1 not shown" in d["verdict"]["summary"] and not _accused(d) & {0, 2}


def test_ranks_at_the_same_first_seqnum_with_another_op_are_a_desync_not_a_rank_not_shown(tmp_path):
    """Rule H's last sentence (rule D): rank 0 not shown, but ranks 1-3 disagree at SeqNum 1 -- rank 2 alone
    issued a BROADCAST where 1 and 3 agree on an ALLREDUCE."""
    text = "".join(_first_timeout(r, 1, "NumelIn=1, NumelOut=1") for r in (1, 3))
    text += _first_timeout(2, 1, "NumelIn=1, NumelOut=1").replace("ALLREDUCE", "BROADCAST")
    d = _report(tmp_path, text)
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("desync", [2]), d["verdict"]
    assert not _accused(d) & {1, 3}


# --- session 6: a world of two ranks stuck in different collectives is a desync --------------------------------
def _pg_timeout(rank: int, seq: int, op: str, numel: int, pg: str = "[PG ID 0 PG GUID 0(default_pg) Rank {r}] ") -> str:
    """torch 2.5's "Process group watchdog thread terminated" wording, tagged with its group."""
    return (f"[rank{rank}]:[E0405 10:11:12.000000000 ProcessGroupNCCL.cpp:1595] " + pg.format(r=rank)
            + f"Process group watchdog thread terminated with exception: [Rank {rank}] Watchdog caught collective "
            f"operation timeout: WorkNCCL(SeqNum={seq}, OpType={op}, NumelIn={numel}, NumelOut={numel}, "
            f"Timeout(ms)=1800000) ran for 180000{rank} milliseconds before timing out.\n")


def test_a_world_of_two_stuck_in_different_collectives_is_a_desync_naming_nobody(tmp_path):
    init = "gpu-7:311:311 [0] NCCL INFO comm 0x55e0 rank 0 nranks 2 cudaDev 0 busId 1000 commId 0x9 - Init COMPLETE\n"
    text = init + _pg_timeout(1, 902, "ALLREDUCE", 1) + _pg_timeout(0, 899, "ALLREDUCE", 16777216)
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("desync", []), v
    assert not _accused(d) and "TORCH_DISTRIBUTED_DEBUG=DETAIL" in v["fix"]
    # one line untagged (older wording), the other in a named group: still the same two ranks
    untagged = init + _pg_timeout(1, 41, "_ALLGATHER_BASE", 4096, pg="") + _pg_timeout(0, 44, "_ALLGATHER_BASE", 4096)
    assert _verdict(tmp_path, untagged)["cause"] == "desync"


def test_a_world_of_two_at_a_send_and_its_recv_is_not_a_desync(tmp_path):
    """The two ends of one transfer name different ops (SEND on one rank, RECV on the other)."""
    text = _pg_timeout(0, 7, "SEND", 2048) + _pg_timeout(1, 7, "RECV", 2048)
    assert _verdict(tmp_path, text)["cause"] != "desync"


# --- session 6, rule G: the ncclUniqueId wait in older torch's spelling -------------------------------------------
def test_the_unique_id_wait_spelled_retreiving_waits_for_rank_0(tmp_path):
    """Older ProcessGroupNCCL.cpp spells it "retreiving"; ranks 3 and 5 time out in the store's get."""
    text = "".join(f"RuntimeError: [{r}] is setting up NCCL communicator and retreiving ncclUniqueId from [0] via "
                   "c10d key-value store by key '0', but store->get('0') got error: Socket Timeout\n" for r in (3, 5))
    d = _report(tmp_path, text)
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("rank_missing", [0]), d["verdict"]
    assert not _accused(d) & {3, 5}


# --- session 6: torch's status lines alone report the timeout (no "Watchdog caught" line shown) -----------------
def _status(rank: int, seq: int, enq: int, done: int, pg: str = "PG ID 3 PG GUID 7") -> str:
    """torch 2.4+ ProcessGroupNCCL.cpp's "Timeout at NCCL work" status line."""
    return (f"[rank{rank}]:[E0611 04:05:06.000000000 ProcessGroupNCCL.cpp:1834] [{pg} Rank {rank}] Timeout at NCCL "
            f"work: {seq}, last enqueued NCCL work: {enq}, last completed NCCL work: {done}.\n")


def test_a_rank_whose_status_says_it_timed_out_inside_a_collective_waits_for_a_rank_not_shown(tmp_path):
    d = _report(tmp_path, _status(9, 5512, 5513, 5511))
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("rank_missing", []), d["verdict"]
    assert 9 not in _accused(d) and "#5512" in d["verdict"]["summary"]


def test_status_lines_at_a_groups_second_work_with_ranks_not_shown_are_rule_h(tmp_path):
    text = "".join(_status(r, 2, 2, 1, pg="PG 0 (default_pg)") for r in (3, 1))
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("rank_missing", []), v
    assert "rank 0, 2 not shown" in v["summary"] and "dataset" in v["fix"], v


def test_a_dump_signal_from_another_rank_with_work_pending_counts_both_inside(tmp_path):
    """torch 2.6+: rank 4 observed rank 11's dump signal with two works still pending on its own queue."""
    text = ("[rank4]:[E0101 01:01:01.000000000 ProcessGroupNCCL.cpp:1914] [PG ID 0 PG GUID 0(default_pg) Rank 4] "
            "Received a dump signal due to a collective timeout from  rank 11 and we will try our best to dump the "
            "debug info. Last enqueued NCCL work: 884, last completed NCCL work: 882.\n")
    d = _report(tmp_path, text)
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("rank_missing", []), d["verdict"]
    assert not _accused(d) & {4, 11}
    # the same rank with nothing pending (last enqueued = last completed) is no longer inside: not this reading
    idle = text.replace("work: 884,", "work: 882,")
    assert "still pending" not in _verdict(tmp_path, idle)["summary"]


def test_ranks_inside_a_parameter_shard_all_gather_get_the_uneven_forward_passes_hint(tmp_path):
    """torch 2.3's wording: ranks 0 and 5 inside ALLGATHER_INTO_TENSOR of a 12 M-element shard (x 8 ranks)."""
    text = "".join(watchdog_line(r, 2210, "ALLGATHER_INTO_TENSOR", f"60001{r}", 600000, numel=(12000000, 96000000),
                                 stamp="E0909 09:09:09.000000000", at=563) for r in (0, 5))
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("rank_missing", []), v
    assert "synced_gpus=True" in v["fix"] and "forward" in v["fix"], v["fix"]
    scalar = text.replace("NumelIn=12000000, NumelOut=96000000", "NumelIn=1, NumelOut=8")
    assert "synced_gpus" not in _verdict(tmp_path, scalar)["fix"]


def test_every_rank_of_a_stated_world_inside_a_large_first_broadcast_is_set_up_too(tmp_path):
    """Rule H names no message size: the first weight broadcast (24 M elements) with both ranks of nranks 2 in it."""
    init = "box-3:70:70 [0] NCCL INFO comm 0x5a10 rank 0 nranks 2 cudaDev 0 busId 3000 commId 0x1 - Init COMPLETE\n"
    big = (24000000, 24000000)
    text = init + "".join(_first_timeout(r, 1, big).replace("ALLREDUCE", "BROADCAST") for r in (0, 1))
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("network_setup", []), v


# --- session 6, fix21h: lead rules I, B and E past the first collectives ----------------------------------------------

def _wd24(rank: int, seq: int, op: str = "BROADCAST", numel: str = "NumelIn=1, NumelOut=1") -> str:
    """torch 2.4's ProcessGroupNCCL.cpp:607 wording with the launcher's "[rankN]:" prefix."""
    return watchdog_line(rank, seq, op, f"180002{rank}", 1800000, numel=numel, stamp=f"E1103 07:21:4{rank}.000000000",
                         at=607)


def test_a_rank_whose_own_lines_show_it_still_tokenising_is_the_rank_the_others_wait_for(tmp_path):
    """Rule I: rank 1's own datasets.map bar (41%, "Running tokenizer on dataset") glued before rank 0's timeout;
    ranks 0 and 2 wait in broadcast #6. Rank 1 is the culprit; a finished bar or a training loop's bar names nobody."""
    bar = ("[rank1]:Running tokenizer on dataset (num_proc=8):  41%|████      | 41000/100000 [01:02<01:30, "
           "650 examples/s]")
    text = bar + _wd24(0, 6) + _wd24(2, 6)
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("rank_missing", [1]), v
    assert not _accused(d) & {0, 2} and "main_process_first" in v["fix"] and "ddp_timeout" in v["fix"], v
    # without the unfinished data step nobody is named: rank 1 is then only the rank not shown (rules B/E)
    for other in (text.replace("41%|████      | 41000/", "100%|██████████| 100000/"),
                  text.replace("Running tokenizer on dataset (num_proc=8)", "Epoch 0")):
        d = _report(tmp_path, other)
        assert _accused(d) == set() and (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("rank_missing", []), d


def test_a_tiny_timeout_past_the_first_collectives_with_a_rank_not_shown_is_not_set_up(tmp_path):
    """Rules B/H: all-reduce #6 of one element with ranks 1 and 3 shown (0 and 2 not) is a rank missing, not the
    connection set-up rule H keeps for SeqNum 1-2 or for every rank shown; one unranked line at #4 likewise."""
    v = _verdict(tmp_path, _wd24(1, 6, "ALLREDUCE") + _wd24(3, 6, "ALLREDUCE"))
    assert (v["cause"], v["culprits"]) == ("rank_missing", []), v
    one = watchdog_line(None, 4, "ALLREDUCE", 1200077, 1200000, numel=1, style="1.x", at=587)
    assert _verdict(tmp_path, one)["cause"] == "rank_missing"


def test_rule_e_counts_a_rank_whose_status_line_shows_its_work_still_queued(tmp_path):
    """Rule E: ranks 3 and 6 time out in all-gather #9010 of a group of 16 (NumelOut/NumelIn), rank 6 one past it in
    #9011, and rank 9 shows only its status (work 9010 enqueued, 9009 completed): every shown rank is inside or
    past; the missing one is not shown."""
    gather = "NumelIn=4096, NumelOut=65536"
    text = (_wd24(3, 9010, "_ALLGATHER_BASE", gather) + _wd24(6, 9011, "ALLREDUCE", "NumelIn=8, NumelOut=8")
            + "[rank9]:[E1103 07:21:49.000000000 ProcessGroupNCCL.cpp:2168] [PG ID 0 PG GUID 0(default_pg) Rank 9]  "
            "failure detected by watchdog at work sequence id: 9010 PG status: last enqueued work: 9010, last "
            "completed work: 9009\n")
    d = _report(tmp_path, text)
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("rank_missing", []), d["verdict"]
    assert not _accused(d) & {3, 6, 9}


_TCP_INIT = '''Traceback (most recent call last):
  File "/work/run_ddp.py", line 44, in <module>
    dist.init_process_group("nccl", init_method="tcp://10.20.0.7:29877", rank=args.rank, world_size=4)
  File "/usr/lib/python3/site-packages/torch/distributed/distributed_c10d.py", line 1305, in init_process_group
    _store_based_barrier(rank, store, group_name, world_size, timeout)
ConnectionResetError: [Errno 104] Connection reset by peer
'''


def test_a_store_reset_under_a_tcp_init_method_is_rank_0s_process_gone(tmp_path):
    """Rule G with the store's host shown: init_method="tcp://" makes rank 0's own process host the TCPStore, so the
    reset inside init_process_group is rank 0 leaving (early_exit, culprit 0); with env:// (under torchrun the agent
    hosts the store) the lines do not say whose process it was."""
    v = _verdict(tmp_path, _TCP_INIT)
    assert (v["cause"], v["culprits"]) == ("early_exit", [0]) and "destroy_process_group" in v["fix"], v
    assert _verdict(tmp_path, _TCP_INIT.replace("tcp://", "env://"))["culprits"] == []


def test_a_launchers_record_of_a_rank_failing_before_the_first_collective_names_it(tmp_path):
    """Rules I and A: composer's "Rank 0 crashed with exit code 1" while ranks 1 and 2 wait in broadcast #1 (torch
    2.0's wording): rank 0 failed on an error of its own (exit 1: a Python exception, not shown) before reaching it --
    the culprit, the cause its unseen exception (unknown; rule AU (4)). Without the record nobody is named (rule H)."""
    wait = "".join(watchdog_line(r, 1, "BROADCAST", 1800417, 1800000, numel=1024, style="1.x", at=737) for r in (1, 2))
    d = _report(tmp_path, "ERROR:composer.cli.launcher:Rank 0 crashed with exit code 1.\n" + wait)
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("unknown", [0]), d["verdict"]
    assert not _accused(d) & {1, 2}
    assert _verdict(tmp_path, wait)["culprits"] == []


def test_one_rank_behind_one_ahead_in_a_group_with_other_ranks_timing_out_untagged_names_nobody(tmp_path):
    """Rule E: in PG 2 rank 4 is one past (#7702) and rank 6's status is at #7701; ranks 1 and 3 time out at #7701 with
    no group tag. The tie between 4 and 6 is not a majority: rank 6 is not accused (it was inside, like 1 and 3)."""
    def tagged(r: int, seq: int) -> str:
        return (f"[rank{r}]:[E0302 11:00:0{r}.000000000 ProcessGroupNCCL.cpp:2168] [PG ID 2 PG GUID 2 Rank {r}]  "
                f"failure detected by watchdog at work sequence id: {seq} PG status: last enqueued work: {seq}, last "
                f"completed work: {seq - 1}\n")
    text = (_wd24(1, 7701, "ALLREDUCE", "NumelIn=2048, NumelOut=2048") + _wd24(3, 7701, "ALLREDUCE",
                                                                              "NumelIn=2048, NumelOut=2048")
            + _wd24(4, 7702, "ALLREDUCE", "NumelIn=9, NumelOut=9").replace("] [Rank 4]", "] [PG ID 2 PG GUID 2 Rank 4]")
            + tagged(4, 7702) + tagged(6, 7701))
    d = _report(tmp_path, text)
    assert not _accused(d) & {1, 3, 4, 6}, d["verdict"]


def test_rule_e_reads_a_gap_in_the_rank_numbers_as_a_rank_not_shown(tmp_path):
    """Rule E by the rank numbers: ranks 2 and 5 of one group, 5 one collective past 2 (#401 vs #400, the same size),
    say ranks 0, 1, 3 and 4 exist and are not shown: rank_missing, nobody named."""
    same = "NumelIn=5120, NumelOut=5120"
    d = _report(tmp_path, _wd24(2, 400, "ALLREDUCE", same) + _wd24(5, 401, "ALLREDUCE", same))
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("rank_missing", []), d["verdict"]
    assert not _accused(d) & {2, 5}


def test_a_rank_stuck_inside_an_earlier_collective_with_a_rank_not_shown_is_not_called_behind(tmp_path):
    """Rule E: a rank whose own watchdog line puts it INSIDE collective N waits there for a member of N; with a rank of
    the world not shown (here ranks 0 and 3 of a group whose ranks 1 and 2 are absent), that member may be the unshown
    one. Rank 3 in ALLGATHER #57 while rank 0 is past it in REDUCE_SCATTER #63: rank_missing, nobody named, in both the
    torch 2.4 wording and the older "[PG 0 Rank N]" one."""
    newer = (_wd24(3, 57, "_ALLGATHER_BASE", "NumelIn=4096, NumelOut=16384")
             + _wd24(0, 63, "_REDUCE_SCATTER_BASE", "NumelIn=16384, NumelOut=4096"))
    older = "".join(
        f"[E ProcessGroupNCCL.cpp:474] [PG 0 Rank {r}] Watchdog caught collective operation timeout: "
        f"WorkNCCL(SeqNum={seq}, OpType={op}, NumelIn=2, NumelOut=2, Timeout(ms)=600000) ran for 60031{r} "
        "milliseconds before timing out.\n" for r, seq, op in ((3, 57, "BROADCAST"), (0, 63, "ALLREDUCE")))
    for text in (newer, older):
        d = _report(tmp_path, text)
        assert d["verdict"]["cause"] == "rank_missing", d["verdict"]
        assert not _accused(d) & {0, 3}, d["verdict"]


def test_every_rank_from_0_up_a_machines_gpu_count_all_inside_one_collective_is_a_stall(tmp_path):
    """Lead rule B: ranks 0-7 (torch 2.4 wording), every one timing out in the same ALLREDUCE #8811, and nothing
    naming a larger world: they plausibly are the job, so the collective itself stalled (transport_stall, nobody
    named). Three ranks 0-2 of the same shape are the usual excerpt of a 4-GPU job: a rank not shown (rank_missing)."""
    d = _report(tmp_path, "".join(_wd24(r, 8811, "ALLREDUCE", "NumelIn=262144, NumelOut=262144")
                                  for r in (3, 0, 6, 1, 7, 2, 5, 4)))
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("transport_stall", []), d["verdict"]
    assert not _accused(d)
    three = _report(tmp_path, "".join(_wd24(r, 8811, "ALLREDUCE", "NumelIn=4096, NumelOut=4096") for r in (0, 1, 2)))
    assert (three["verdict"]["cause"], three["verdict"]["culprits"]) == ("rank_missing", []), three["verdict"]


# --- session 7 (f3) ------------------------------------------------------------------------------------------------
def test_a_driver_oom_of_another_process_is_named_as_the_lead_of_a_rank_missing_hang(tmp_path):
    """A rank inside a collective of a larger group (lead rule E) beside another process's CUDA driver allocation
    failing with CUresult 2 (torch_memory_saver: "CUresult error  result=%d file=%s func=%s line=%d"): the fix
    names that process as the lead; nobody is accused (its line names no rank)."""
    wd = watchdog_line(6, 2210, "_ALLGATHER_BASE", 600041, 600000, numel=(1024, 8192))
    text = ("(TrainWorker pid=90412) [torch_memory_saver.cpp] CUresult error  result=2 file=csrc/torch_memory_saver.cpp"
            " func=cu_mem_create line=97\n" + "(TrainWorker pid=90405) " + wd)
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "rank_missing" and not _accused(d), v
    assert "process 90412" in v["fix"] and "cu_mem_create out of memory" in v["fix"], v["fix"]
    # the same process that timed out is no lead
    same = text.replace("pid=90412", "pid=90405")
    assert "Lead:" not in _verdict(tmp_path, same, "same.log")["fix"]


def test_a_remote_error_reset_names_the_fabric_as_the_other_reading(tmp_path):
    """ncclRemoteError ("remote process exited or there was a network error") with socketProgressOpt's "Call to recv
    from %s failed : %s": a peer gone, or the network: the fix also says how to check the fabric."""
    text = ("torch.distributed.DistBackendError: NCCL error in: /opt/pytorch/torch/csrc/distributed/c10d/"
            "ProcessGroupNCCL.cpp:2006, remote process exited or there was a network error, NCCL version 2.20.5\n"
            "ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.\n"
            "Last error:\n"
            "socketProgressOpt: Call to recv from 10.20.4.31<50217> failed : Connection reset by peer\n")
    v = _verdict(tmp_path, text)
    assert "ibstat" in v["fix"] and "NCCL_DEBUG=INFO" in v["fix"], v
# --- session 7 (f2): the main process evaluating alone; ranks behind in an excerpt; a rank's own dump signal -------
def _dump24(rank: int, enq: int, done: int, src: int | None = None) -> str:
    """torch 2.6+ HeartbeatMonitor's dump-signal line (ProcessGroupNCCL.cpp), from rank SRC or this rank's own
    watchdog (SRC None: "from this local rank")."""
    came = "this local rank" if src is None else f" rank {src}"
    return (f"[rank{rank}]:[E0412 03:04:05.00000000{rank} ProcessGroupNCCL.cpp:1790] [PG ID 0 PG GUID 0(default_pg) "
            f"Rank {rank}] Received a dump signal due to a collective timeout from {came} and we will try our best to "
            f"dump the debug info. Last enqueued NCCL work: {enq}, last completed NCCL work: {done}.\n")


def test_the_main_process_still_evaluating_while_the_others_wait_in_a_broadcast_is_rank_0(tmp_path):
    """Rule I's rank-0-only form: the main process's own (unprefixed) validation bar short of its end, or an evaluator's
    progress line, right before ranks 1..N-1 time out in a BROADCAST (the broadcast waits for its source, rank 0,
    which evaluates alone), no larger world stated: rank 0 is the culprit, the ranks inside victims. With ranks of the
    world missing from the waiters (3 and 5 shown, 1, 2 and 4 not) the untagged output names no rank -- another rank
    not shown could be the absent one (lead rules AC (1), AX (3); round 82's pytorch-lightning-5646, and
    mmdetection-11096 relabelled to it): rank_missing, nobody named, the waiting ranks still innocent."""
    bar = "Validation DataLoader 0:  41%|████      | 512/1250 [03:10<04:34,  2.69it/s]\n"
    coco = "Evaluating segm...\nRunning per image evaluation...\nEvaluate annotation type *segm*\n"
    waits = "".join(_wd24(r, 40127, "BROADCAST", "NumelIn=64, NumelOut=64") for r in (3, 1, 2))
    older = "".join(watchdog_line(r, None, "BROADCAST", 1201933, 1200000, style="1.x", at=587) for r in (2, 1))
    for text in (bar + waits, coco + waits, bar + older):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"], v["confidence"]) == ("rank_missing", [0], "medium"), v
        assert not _accused(d) & {1, 2, 3} and "timeout" in v["fix"] and "evaluat" in v["fix"], v
    gaps = _wd24(3, 40127, "BROADCAST", "NumelIn=64, NumelOut=64") + _wd24(5, 40127, "BROADCAST",
                                                                          "NumelIn=64, NumelOut=64")
    for text in (bar + gaps, coco + gaps):
        d = _report(tmp_path, text)
        assert d["verdict"]["cause"] == "rank_missing" and not _accused(d), d["verdict"]
    # not when every rank evaluates (an all-gather of the results: the bar may be anyone's), the bar ended, rank 0 is
    # itself shown timing out, or the bar is another rank's own (its launcher prefix)
    for other in ((bar + waits).replace("BROADCAST", "ALLGATHER"),
                  (bar + waits).replace("41%|████      | 512/", "100%|██████████| 1250/"),
                  bar + waits + _wd24(0, 40127, "BROADCAST", "NumelIn=64, NumelOut=64"),
                  "[rank3]:" + bar + waits):
        d = _report(tmp_path, other)
        assert 0 not in _accused(d) and not _accused(d) & {1, 2, 3}, d["verdict"]


def test_ranks_whose_own_queue_stops_short_in_an_excerpt_of_a_larger_group_are_named(tmp_path):
    """torch 2.8's watchdog status puts rank 6 inside all-reduce #105 of default_pg; ranks 2 and 9 got its dump signal
    with everything they enqueued done at #104: they never issued #105. More ranks shown are behind than inside, but
    the group has at least 10 members and the others are not shown: ranks 2 and 9 are named (medium), rank 6 is a
    victim. With the whole group shown (ranks 0-3, three behind one) the one ahead may have issued an extra
    collective: only a lead."""
    inside = ("[rank6]:[E0412 03:04:05.000000000 ProcessGroupNCCL.cpp:2299] [PG ID 0 PG GUID 0(default_pg) Rank 6]  "
              "failure detected by watchdog at work sequence id: 105 PG status: last enqueued work: 105, last "
              "completed work: 104\n")
    d = _report(tmp_path, inside + _dump24(2, 104, 104, 6) + _dump24(9, 104, 104, 6))
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("rank_missing", [2, 9]), d["verdict"]
    assert d["verdict"]["confidence"] == "medium" and 6 not in _accused(d)
    whole = inside.replace("rank6]", "rank3]").replace("Rank 6]", "Rank 3]")
    d = _report(tmp_path, whole + "".join(_dump24(r, 104, 104, 3) for r in (0, 1, 2)))
    assert _accused(d) == set(), d["verdict"]


def test_ranks_whose_own_watchdog_signalled_the_dump_with_work_pending_are_inside(tmp_path):
    """torch 2.6+: ranks 3 and 5 each received the dump signal "from this local rank" (their own watchdog fired) with
    work still pending on default_pg: both are inside (rule B: rank_missing, nobody named). Beside a rank whose own dump
    could not take its GIL (its Python busy or stuck), the lines no longer show every rank inside: unknown, the GIL
    named as a lead."""
    d = _report(tmp_path, _dump24(3, 1310, 1309) + _dump24(5, 1310, 1309))
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("rank_missing", []), d["verdict"]
    assert not _accused(d) & {3, 5}
    gil = ("[rank4]:[E0412 03:04:06.000000000 ProcessGroupNCCL.cpp:1935] [PG ID 0 PG GUID 0(default_pg) Rank 4] "
           "Could not acquire GIL within 500 ms on exit, possible GIL induced hang\n")
    d = _report(tmp_path, _dump24(1, 7002, 7000) + gil)
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("unknown", []), d["verdict"]
    assert "GIL" in d["verdict"]["summary"] and not _accused(d)


def test_a_rank_whose_own_dump_signal_was_cut_before_its_queue_numbers_is_still_inside(tmp_path):
    """torch 2.6+: rank 3's "dump signal due to a collective timeout from this local rank", hard-wrapped with a
    launcher's prefix on every piece (so the pieces are not rejoined): its first piece alone says rank 3's own
    watchdog timed out -- it is inside the collective, the queue numbers lost or not. torchrun then records local
    rank 3 failing with -6 and SIGTERMs the others: that SIGABRT is its watchdog's abort (rule I), not a first
    failure; with rank 3 alone shown inside: rank_missing, nobody named, rank 3 a victim (rules B/E)."""
    head = ("[PG ID 0 PG GUID 0(default_pg) Rank 3] Received a dump signal due to a collective timeout from this "
            "local rank and we will try our best to dump the")
    rest = ("debug info. Last enqueued NCCL work: 88211, last completed NCCL work: 88210.This is most likely caused "
            "by incorrect usages of collectives")
    term = "".join(f"W0901 10:00:01.{pid}000 55 site-packages/torch/distributed/elastic/multiprocessing/api.py:900] "
                   f"Sending process {pid} closing signal SIGTERM\n" for pid in (60, 61, 62))
    died = ("E0901 10:00:02.100000 55 site-packages/torch/distributed/elastic/multiprocessing/api.py:874] failed "
            "(exitcode: -6) local_rank: 3 (pid: 63) of binary: /usr/bin/python3\n")
    for pre in ("[rank3]: ", "worker-0  | "):
        text = f"{pre}[rank3]:[E0901 10:00:00.100000000 ProcessGroupNCCL.cpp:1746] {head}\n{pre}{rest}\n" + term + died
        d = _report(tmp_path, text)
        assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("rank_missing", []), d["verdict"]
        assert 3 not in _accused(d), d["verdict"]


# --- session 7 (fixh): rule D with no majority in untagged lines; a serving framework's watchdog (rule P); the
# ranks not shown of an excerpt (rules B/E) ----------------------------------------------------------------------
def test_two_untagged_ranks_at_one_seqnum_in_different_sizes_are_a_desync_naming_nobody(tmp_path):
    """Lead rule D (no majority): two ranks time out at the same SeqNum under one Timeout(ms) in the same op with
    different NumelIn/NumelOut (torch 2.x lines, a reduce-scatter over 4 on both): not one collective, a desync;
    with two ranks neither side is named."""
    text = (watchdog_line(11, 9120, "_REDUCE_SCATTER_BASE", 1200044, 1200000, numel=(8192, 2048))
            + watchdog_line(3, 9120, "_REDUCE_SCATTER_BASE", 1200071, 1200000, numel=(7680, 1920)))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("desync", []), v
    assert not _accused(d) and "TORCH_DISTRIBUTED_DEBUG=DETAIL" in v["fix"]


def test_two_untagged_ranks_at_one_seqnum_in_different_ops_are_a_desync_naming_nobody(tmp_path):
    """torch 1.x lines without Numel: ranks 2 and 5 at SeqNum 311, one in ALLREDUCE, the other in REDUCE."""
    text = "".join(watchdog_line(r, 311, op, 900000 + 9 * r, 900000, style="1.x", at=455)
                   for r, op in ((5, "ALLREDUCE"), (2, "REDUCE")))
    d = _report(tmp_path, text)
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("desync", []), d["verdict"]
    assert not _accused(d)


def test_uneven_gathers_at_one_seqnum_beside_other_lines_are_a_desync_naming_nobody(tmp_path):
    """Two ranks' all-gathers over 8 at one SeqNum with different sizes; a third rank one collective before it and a
    line of another group (another Timeout(ms)) beside them: the gathers still disagree -- a desync, nobody named."""
    text = (watchdog_line(5, 7721, "ALLGATHER", 1800310, 1800000, numel=(2048, 16384))
            + watchdog_line(1, 7721, "ALLGATHER", 1800522, 1800000, numel=(2560, 20480))
            + watchdog_line(1, 7302, "ALLREDUCE", 1801003, 600000, numel=5000000)
            + watchdog_line(6, 7720, "ALLGATHER", 1800911, 1800000, numel=(512, 4096)))
    d = _report(tmp_path, text)
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("desync", []), d["verdict"]
    assert not _accused(d)


def test_gathers_over_different_group_sizes_at_one_seqnum_are_no_desync(tmp_path):
    """NumelOut/NumelIn says one all-gather spans 2 ranks and the other 8: two groups at the same number."""
    text = (watchdog_line(0, 402, "ALLGATHER", 600012, 600000, numel=(1024, 2048))
            + watchdog_line(1, 402, "ALLGATHER", 600020, 600000, numel=(1024, 8192)))
    assert _verdict(tmp_path, text)["cause"] != "desync"


_SGL = "[2025-07-14 09:41:{s:02d} TP{r}] Scheduler watchdog timeout (self.watchdog_timeout=600, self.soft=False)\n"


def test_a_serving_frameworks_own_watchdog_on_every_tp_rank_names_nobody_and_no_oom(tmp_path):
    """Lead rule P: SGLang's scheduler watchdog (newer wording, with self.soft) on TP0-TP3, then the launcher's
    SIGQUIT handler and the shell's "Killed" of the process tree: cause unknown, nobody named, not the OOM killer."""
    text = ("".join(_SGL.format(s=10 + r // 2, r=r) for r in (2, 0, 3, 1))
            + "[2025-07-14 09:41:17] SIGQUIT received. signum=None, frame=None. It usually means one child failed.\n"
            + "Killed\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []), v
    assert not _accused(d) and "py-spy dump" in v["fix"] and "--watchdog-timeout" in v["fix"], v["fix"]


def test_vllms_rpc_timeout_to_its_workers_names_nobody(tmp_path):
    """vLLM v1 multiproc_executor.py: raise TimeoutError(f"RPC call to {method} timed out.")."""
    text = ("ERROR 08-02 17:03:55 [core.py:634] EngineCore encountered a fatal error.\n"
            "TimeoutError: RPC call to sample_tokens timed out.\n")
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("unknown", []), v
    assert "py-spy dump" in v["fix"], v["fix"]


def test_vllms_ray_compiled_graph_read_timeout_is_the_serving_stall_not_nothing(tmp_path):
    """vLLM's Ray executor reads each step's output through a Ray compiled graph: its read timing out
    ("RayChannelTimeoutError: System error: Timed out waiting for object available to read") is the engine's own
    stall timeout (lead rule P): cause unknown, nobody named, and not a log without a failure."""
    text = ("(EngineCore_DP1 pid=4411) ERROR 03-14 02:11:09 [core.py:710] Traceback (most recent call last):\n"
            "(EngineCore_DP1 pid=4411) ERROR 03-14 02:11:09 [core.py:710] ray.exceptions.RayChannelTimeoutError: "
            "System error: Timed out waiting for object available to read. ObjectID: 00ab12cd\n")
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("unknown", []), v
    assert "RAY_CGRAPH_get_timeout" in v["fix"] and "py-spy dump" in v["fix"], v["fix"]


def test_a_bare_killed_without_a_frameworks_watchdog_stays_the_oom_killer(tmp_path):
    assert _verdict(tmp_path, "Killed\n")["cause"] == "host_oom"


def test_a_lone_rank_inside_a_larger_group_points_at_the_ranks_not_shown(tmp_path):
    """Rules B/E: one rank of an all-gather over 16 is shown inside it: the fix names the other ranks' logs and
    py-spy stacks and the next run's NCCL_DEBUG=INFO / TORCH_DISTRIBUTED_DEBUG=DETAIL."""
    d = _report(tmp_path, watchdog_line(9, 15007, "_ALLGATHER_BASE", 900020, 900000, numel=(512, 8192)))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("rank_missing", []) and not _accused(d), v
    for words in ("logs of every rank", "py-spy dump of the other ranks", "NCCL_DEBUG=INFO",
                  "TORCH_DISTRIBUTED_DEBUG=DETAIL"):
        assert words in v["fix"], (words, v["fix"])


def test_a_gloo_send_closed_by_its_destination_names_that_rank(tmp_path):
    """The send side of the recv case above: a traceback's "dist.send(tensor=..., dst=N)" source line, then gloo's
    pair.cc "Connection closed by peer": the destination rank's process went away while this rank sent to it
    (early_exit, culprit the destination). A destination that is a variable names nobody."""
    text = ("  File \"/srv/fl/worker.py\", line 88, in push_update\n"
            "    dist.send(tensor=delta.flat, dst=2)\n"
            "  File \"/usr/lib/python3/site-packages/torch/distributed/distributed_c10d.py\", line 1801, in send\n"
            "    default_pg.send([tensor], dst, tag).wait()\n"
            "RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection closed by peer "
            "[10.4.0.9]:60217\n")
    d = _report(tmp_path, text)
    assert d["verdict"]["cause"] == "early_exit" and _accused(d) == {2}, d["verdict"]
    assert "rank 2" in d["verdict"]["fix"], d["verdict"]["fix"]
    var = text.replace("dst=2", "dst=server_rank")
    assert not _accused(_report(tmp_path, var, "var.log"))


def test_a_heartbeat_timeout_after_the_ranks_own_on_time_timeout_leaves_it_inside(tmp_path):
    """Lead rule B with the heartbeat monitor as aftermath: rank 3 times out on time (ran for ~ its timeout) inside
    ALLGATHER #90211, then its heartbeat monitor fires while it dumps and aborts. Rank 3 is still only inside the
    collective: rank_missing, nobody named, rank 3 innocent (not 'unknown' for the heartbeat line). A heartbeat
    whose rank's collective ran far past its timeout stays a blocked watchdog."""
    text = (watchdog_line(3, 90211, "ALLGATHER", 900021, 900000, numel=(2048, 8192), stamp="E0305 04:12:10.520000000")
            + "[rank3]:[E0305 04:20:10.611000000 ProcessGroupNCCL.cpp:1418] [PG 0 Rank 3] Heartbeat monitor timed out! "
            "Process will be terminated after dumping debug info. workMetaList_.size()=1\n"
            "[rank3]:[E0305 04:20:10.612000000 ProcessGroupNCCL.cpp:1255] [PG 0 Rank 3] ProcessGroupNCCL preparing to "
            "dump debug info.\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "rank_missing" and v["culprits"] == [] and 3 not in _accused(d), v
    late = (watchdog_line(3, 90211, "ALLGATHER", 5400021, 900000, numel=(2048, 8192), stamp="E0305 05:27:10.520000000")
            + "[rank3]:[E0305 04:20:10.611000000 ProcessGroupNCCL.cpp:1418] [PG 0 Rank 3] Heartbeat monitor timed out! "
            "Process will be terminated after dumping debug info. workMetaList_.size()=1\n")
    assert _verdict(tmp_path, late, "late.log")["cause"] == "watchdog_blocked"


def test_an_exception_line_cut_before_its_watchdog_words_is_still_that_ranks_timeout(tmp_path):
    """A paste that broke an exception's line inside the watchdog's message ("... Original reason for failure was:
    [Rank 3] Watchdog caught" / "collective operation timeout: WorkNCCL(...)"): the line read alone is only "a failure
    shown", so it must still be joined with its rest -- the rank is inside the collective (a victim), not unknown."""
    for head, rest in (
            ("RuntimeError: NCCL communicator was aborted on rank 3.  Original reason for failure was: [Rank 3] "
             "Watchdog caught ", "collective operation timeout: WorkNCCL(SeqNum=4410, OpType=BROADCAST, "
             "Timeout(ms)=600000) ran for 600412 milliseconds before timing out."),
            ("torch.distributed.DistBackendError: NCCL communicator was aborted on rank 5. Original reason for failure "
             "was: [Rank 5] Watchdog caught collective", "operation timeout: WorkNCCL(SeqNum=77, OpType=ALLREDUCE, "
             "NumelIn=9, NumelOut=9, Timeout(ms)=1800000) ran for 1800321 milliseconds before timing out.")):
        d = _report(tmp_path, head + "\n" + rest + "\n")
        assert d["verdict"]["cause"] == "rank_missing" and _accused(d) == set(), (head, d["verdict"])


# --- Horovod's stall inspector names the ranks that did not submit a tensor (round 28) -----------------------------
# horovod/common/operations.cc (0.1x): the coordinator's warning, then one stalled tensor a line with the ranks missing
# from it or, in other releases, the ranks ready in it. Tensor names, ranks and times made up.
_HVD_WARN = ("WARNING: One or more tensors were submitted to be reduced, gathered or broadcasted by subset of ranks "
             "and are waiting for remainder of ranks for more than 60 seconds. This may indicate that different ranks "
             "are trying to submit different tensors or that only subset of ranks is submitting tensors, which will "
             "cause deadlock. ")


def test_horovods_missing_ranks_are_the_culprits_and_the_coordinator_waits(tmp_path):
    lines = [f"[1,0]<stderr>:[2020-02-03 10:11:12.{i:06d}: W horovod/common/operations.cc:601] "
             f"HorovodAllreduce_gradients_dense_{i}_MatMul_0 [missing ranks: 3]" for i in range(4)]
    v = _verdict(tmp_path, "\n".join(lines) + "\n")
    assert v["cause"] == "rank_missing" and v["culprits"] == [3], v
    assert v["confidence"] == "high" and "missing ranks" in v["fix"]


def test_horovods_ready_ranks_name_the_ranks_absent_below_the_highest_never_a_ready_one(tmp_path):
    names = ["fc1.weight", "fc1.bias", "fc2.weight"]
    ready = ["0, 4, 1, 2", "1, 0, 4, 2", "4, 2, 1, 0"]
    text = _HVD_WARN + "\nStalled ops:\n" + "".join(f"allreduce.{n} [ready ranks: {r}],\n"
                                                    for n, r in zip(names, ready))
    v = _verdict(tmp_path, text)
    assert v["cause"] == "rank_missing" and v["culprits"] == [3], v


def test_horovods_ready_ranks_that_differ_per_tensor_name_only_the_ranks_absent_from_all(tmp_path):
    text = (_HVD_WARN + "\nStalled ops:\nallreduce.a [ready ranks: 0, 2, 5]\nallreduce.b [ready ranks: 0, 1, 5]\n"
            "allreduce.c [ready ranks: 0, 5]\n")
    v = _verdict(tmp_path, text)
    # 1 and 2 are ready in some tensor: never named; 3 and 4 are absent from every one
    assert v["cause"] == "rank_missing" and v["culprits"] == [3, 4], v


def test_horovods_ready_ranks_from_zero_up_name_nobody(tmp_path):
    text = _HVD_WARN + "\nStalled ops:\nallreduce.emb.weight [ready ranks: 2, 0, 1]\n"
    v = _verdict(tmp_path, text)
    assert v["cause"] == "rank_missing" and v["culprits"] == [] and v["confidence"] == "low", v


def test_horovods_records_all_on_one_line_are_each_read(tmp_path):
    """Round 31: the stall inspector's single line holds several tensors, each with its own ready list; reading only
    the first made the lone rank's tensor look like every other rank missing. Every record counts: here rank 5 alone
    waits in the metric allreduce while 0-4 agree on the gradients -- rule D's odd rank, a desync, 0-4 innocent."""
    recs = ", ".join(["HorovodAllreduce_metrics_accuracy_0 [ready ranks: 5]"]
                     + [f"DistributedAdamOptimizer_Allreduce/HorovodAllreduce_grads_dense_{i}_0 [ready ranks: 4, 1, "
                        "0, 3, 2]" for i in range(3)])
    v = _verdict(tmp_path, _HVD_WARN + "Stalled ops: " + recs + "\n")
    assert v["cause"] == "desync" and v["culprits"] == [5] and v["confidence"] in ("medium", "high"), v
    assert "HOROVOD_TIMELINE" in v["fix"]


def test_horovods_ready_groups_with_no_majority_name_nobody(tmp_path):
    recs = "allreduce.head.weight [ready ranks: 1, 0], allreduce.tail.bias [ready ranks: 3, 2]"
    v = _verdict(tmp_path, _HVD_WARN + "Stalled ops: " + recs + "\n")
    assert v["cause"] == "desync" and v["culprits"] == [] and v["confidence"] == "low", v


def test_horovod_028s_missing_ranks_block_names_each_rank_listed_one_a_line(tmp_path):
    """Round 31: Horovod 0.28's stall_inspector.cc prints "Missing ranks:" on a line of its own, then one line a rank
    that has not submitted tensors others wait in, "N: [names ...]": those ranks are the ones behind (rank_missing)."""
    head = ("[2024-02-11 03:04:05.123456: W /usr/src/horovod/horovod/common/stall_inspector.cc:107] " + _HVD_WARN)
    block = ["Missing ranks:",
             "2: [allreduce.encoder.layer.0.weight, allreduce.encoder.layer.0.bias ...]",
             "5: [allreduce.encoder.layer.0.weight ...]",
             "Epoch 3: loss 0.412"]
    for tag in ("", "[0] ", "[0]: "):
        v = _verdict(tmp_path, "\n".join(tag + x for x in [head] + block) + "\n")
        assert v["cause"] == "rank_missing" and v["culprits"] == [2, 5] and v["confidence"] == "high", (tag, v)
    # a paste that hard-wrapped the first rank's list: the next rank's line still belongs to the block
    wrapped = [head, block[0], block[1][:40], block[1][40:]] + block[2:]
    v = _verdict(tmp_path, "\n".join(wrapped) + "\n")
    assert v["cause"] == "rank_missing" and v["culprits"] == [2, 5], v


def test_older_horovods_stalled_ranks_block_names_the_ranks_that_have_not_submitted(tmp_path):
    """Round 34: Horovod 0.19's stall_inspector.cc heads the same block "Stalled ranks:" (the ranks that have NOT
    submitted the tensors the others wait in, as 0.28's "Missing ranks:"): each rank listed is behind."""
    head = ("[2021-07-02 11:22:33.445566: W horovod/common/stall_inspector.cc:105] " + _HVD_WARN)
    block = ["Stalled ranks:",
             "3: [DistributedAdam_Allreduce/HorovodAllreduce_grads_7_0, ",
             "DistributedAdam_Allreduce/HorovodAllreduce_grads_8_0 ...]",
             "6: [DistributedAdam_Allreduce/HorovodAllreduce_grads_7_0 ...]",
             "step 1200 loss 2.31"]
    for tag in ("", "[1] "):
        v = _verdict(tmp_path, "\n".join(tag + x for x in [head] + block) + "\n")
        assert v["cause"] == "rank_missing" and v["culprits"] == [3, 6] and v["confidence"] == "high", (tag, v)


# --- a paste that wrapped the watchdog's message right after its "[Rank N]" tag (round 27) --------------------------
def test_a_watchdog_message_wrapped_after_its_rank_tag_is_that_ranks_timeout_alone_in_its_group(tmp_path):
    """torch 2.3 ProcessGroupNCCL.cpp's header, "[PG 0 Rank 5]" last on its line, the message on the next ones: rank
    5's own timeout in its group's first collective, shown alone -- rule H's rank_missing, not connection set-up."""
    text = ("[rank5]:[E611 09:12:44.120000000 ProcessGroupNCCL.cpp:563] [PG 0 Rank 5]\n"
            "Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1,\n"
            "OpType=BROADCAST, NumelIn=64, NumelOut=64, Timeout(ms)=60000) ran for\n"
            "60087 milliseconds before timing out.\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "rank_missing" and 5 not in v["culprits"], v


# --- a peer gone, its address named: the fix says which process to look at (round 27) -----------------------------
def test_an_allreduce_closed_by_its_peer_names_the_peers_address_in_the_fix_and_no_rank(tmp_path):
    """gloo's pair.cc "Connection closed by peer [ADDR]:PORT" inside DDP's backward all-reduce: early_exit, no rank
    named (an address is not a rank); the fix points at the process behind that address (its pod on Kubernetes)."""
    text = ("    Variable._execution_engine.run_backward(\n"
            "RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:598] Connection closed by peer "
            "[172.20.3.41]:20544\n")
    v = _report(tmp_path, text)["verdict"]
    assert v["cause"] == "early_exit" and v["culprits"] == [], v
    assert "172.20.3.41" in v["fix"] and "kubectl describe pod" in v["fix"], v["fix"]


# --- Open MPI's "peer process has unexpectedly disconnected": a peer left first, its host named (round 28) ---------
def test_open_mpis_peer_disconnected_text_is_an_early_exit_naming_the_peers_host_and_no_rank(tmp_path):
    """Open MPI's help text (btl tcp), here under mpirun --tag-output on rank 2's stream; hosts and PID made up."""
    body = ["An MPI communication peer process has unexpectedly disconnected.  This",
            "usually indicates a failure in the peer process (e.g., a crash or",
            "otherwise exiting without calling MPI_FINALIZE first).", "",
            "  Local host: gpu-node-17", "  Local PID:  30211", "  Peer host:  gpu-node-21",
            "-" * 74]
    text = "".join(f"[1,2]<stderr>:{line}\n" for line in body)
    v = _verdict(tmp_path, text)
    assert v["cause"] == "early_exit" and v["culprits"] == [], v
    assert "gpu-node-21" in v["fix"] and "core file" in v["fix"] and "dmesg" in v["fix"], v["fix"]


# --- Horovod's "has been shut down": a peer raised or finished first, the printing rank a victim (round 31) --------
def test_horovods_shut_down_error_is_an_early_exit_naming_nobody(tmp_path):
    """PyTorch Horovod's wording on rank 3's stream (mpirun --tag-output), after its allreduce's frames; made up."""
    body = ['  File "/opt/conda/lib/python3.10/site-packages/horovod/torch/mpi_ops.py", line 141, in synchronize',
            "    return MPI_LIB.horovod_torch_wait_and_clear(handle)",
            "RuntimeError: Horovod has been shut down. This was caused by an exception on one of the ranks or an "
            "attempt to allreduce, allgather or broadcast a tensor after one of the ranks finished execution. If the "
            "shutdown was caused by an exception, you should see the exception in the log before the first shutdown "
            "message."]
    d = _report(tmp_path, "".join(f"[1,3]<stderr>:{line}\n" for line in body))
    v = d["verdict"]
    assert v["cause"] == "early_exit" and v["culprits"] == [] and 3 not in _accused(d), v


# --- a watchdog line whose head another process's output cut into: its WorkNCCL(...) tail still says it (round 27) --
def test_watchdog_lines_cut_into_by_interleaved_output_still_show_a_desync_at_one_seqnum(tmp_path):
    """Two ranks' torch 2.x watchdog lines at one SeqNum with different sizes, each with a warning of another
    process printed into the middle of "collective operation timeout": read from the WorkNCCL(...) tail."""
    junk = "UserWarning: `resume_download` is deprecated and will be removed in vers"
    lines = [watchdog_line(r, 812, "ALLREDUCE", 600090, 600000, numel=n).replace(
        "collective operation timeout", f"collective op{junk}eration timeout") for r, n in ((0, 1048576), (1, 4096))]
    v = _verdict(tmp_path, "".join(lines))
    assert v["cause"] == "desync" and v["culprits"] == [], v


# --- DDP's shape check: a process's parameter differs from process 0's (round 29) -----------------------------------
def test_ddps_param_shape_mismatch_is_a_desync_naming_neither_side(tmp_path):
    """torch 2.x reducer.cpp verify_params_across_processes' shape check raised on rank 2 while rank 3 waits in
    DDP's parameter broadcast: the models differ, which side is wrong is not said."""
    text = ("[rank2]:     dist._verify_params_shape(process_group, parameters)\n"
            "[rank2]: RuntimeError: params[14] in this process with sizes [1024, 512] appears not to match sizes of "
            "the same param in process 0.\n"
            + watchdog_line(3, 1, "BROADCAST", 1800411, 1800000, numel=524288))
    v = _verdict(tmp_path, text)
    assert v["cause"] == "desync" and v["culprits"] == [], v
    assert "same model on every rank" in v["fix"] or "same config" in v["fix"], v["fix"]


# --- torch 2.4+'s "failure detected by watchdog at work sequence id" with the rank stopped in that work (round 29) --
def _failed_at(rank: int, at: int, enq: int) -> str:
    """ProcessGroupNCCL.cpp (torch 2.4+): the watchdog's failure line, then its report taking the process down."""
    return (f"[rank{rank}]:[E311 02:03:04.000000001 ProcessGroupNCCL.cpp:1895] [PG ID 0 PG GUID 0(default_pg) Rank "
            f"{rank}]  failure detected by watchdog at work sequence id: {at} PG status: last enqueued work: {enq}, "
            f"last completed work: {at - 1}\n"
            f"[rank{rank}]:[E311 02:03:04.000000002 ProcessGroupNCCL.cpp:630] [Rank {rank}] Some NCCL operations "
            "have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations "
            "might run on corrupted/incomplete data.\n")


def test_a_watchdog_failure_at_the_ranks_last_enqueued_work_is_that_rank_inside_a_rank_missing_hang(tmp_path):
    v = _verdict(tmp_path, _failed_at(21, 57, 57))
    assert v["cause"] == "rank_missing" and v["culprits"] == [], v


def test_a_watchdog_failure_with_work_enqueued_after_it_stays_unknown(tmp_path):
    v = _verdict(tmp_path, _failed_at(21, 57, 93))
    assert v["cause"] != "rank_missing" and v["culprits"] == [], v


def _own_dump(rank: int, enq: int, done: int) -> str:
    """ProcessGroupNCCL.cpp (torch 2.4+): the rank's own dump signal after its watchdog fired."""
    return (f"[rank{rank}]:[E311 02:03:04.200000000 ProcessGroupNCCL.cpp:1858] [PG ID 0 PG GUID 0(default_pg) Rank "
            f"{rank}] Received a dump signal due to a collective timeout from this local rank and we will try our "
            f"best to dump the debug info. Last enqueued NCCL work: {enq}, last completed NCCL work: {done}.\n")


def test_a_watchdog_failure_with_work_enqueued_after_it_and_its_own_timeout_dump_is_a_rank_inside(tmp_path):
    """Round 30: "failure detected at work 130, last enqueued 162" says neither timeout nor error; the same rank's dump
    signal "due to a collective timeout from this local rank" says it was its timeout: that rank waits inside #130
    having issued more (rules B/E: rank_missing, nobody named), in either order of the two lines."""
    for text in (_failed_at(5, 130, 162) + _own_dump(5, 162, 129), _own_dump(5, 162, 129) + _failed_at(5, 130, 162)):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert v["cause"] == "rank_missing" and v["culprits"] == [] and not _accused(d), v

def test_a_coloured_watchdog_header_wrapped_after_its_rank_tag_is_read_the_same(tmp_path):
    """The same paste in a terminal's colours (a logger colouring the glog header): the tag is read through them."""
    text = ("\x1b[31m[rank5]:[E611 09:12:44.120000000 ProcessGroupNCCL.cpp:563] [PG 0 Rank 5]\x1b[0m\n"
            "Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1,\n"
            "OpType=BROADCAST, NumelIn=64, NumelOut=64, Timeout(ms)=60000) ran for\n"
            "60087 milliseconds before timing out.\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "rank_missing" and 5 not in v["culprits"], v


# --- lead rule I in vLLM: the driver still in its P2P check while a worker times out in init_device (round 28) ------
_P2P = "INFO 03-04 05:06:07 custom_all_reduce_utils.py:204] generating GPU P2P access cache in " \
       "/home/u/.cache/vllm/gpu_p2p_access_cache_for_0,1,2,3.json\n"


def _worker_timeout(method: str) -> str:
    """vLLM multiproc_worker_utils' record of a worker's exception, a gloo recv timeout (unbound_buffer.cc)."""
    return ("(VllmWorkerProcess pid=5120) ERROR 03-04 05:36:07 multiproc_worker_utils.py:226] Exception in worker "
            f"VllmWorkerProcess while processing method {method}: [/pytorch/third_party/gloo/gloo/transport/tcp/"
            "unbound_buffer.cc:81] Timed out waiting 1800000ms for recv operation to complete, Traceback (most "
            "recent call last):\n")


def test_vllms_driver_still_generating_the_p2p_cache_while_a_worker_times_out_in_init_device_is_rank_0(tmp_path):
    v = _verdict(tmp_path, _P2P + _worker_timeout("init_device"))
    assert v["cause"] == "rank_missing" and v["culprits"] == [0], v
    assert "--disable-custom-all-reduce" in v["fix"]


def test_a_vllm_worker_timing_out_later_than_init_device_does_not_name_the_driver(tmp_path):
    v = _verdict(tmp_path, _P2P + _worker_timeout("execute_model"))
    assert 0 not in v["culprits"], v


def test_vllms_driver_in_its_p2p_check_is_read_through_a_quoted_paste_with_a_trailing_blank(tmp_path):
    """The same lines quoted ("> ", an issue's reply) with the quote's empty last line: no driver log line follows."""
    frames = ("(VllmWorkerProcess pid=5120) ERROR 03-04 05:36:07 multiproc_worker_utils.py:226]   File \"/opt/venv/"
              "lib/python3.10/site-packages/vllm/executor/multiproc_worker_utils.py\", line 223, in "
              "_run_worker_process\n(VllmWorkerProcess pid=5120) ERROR 03-04 05:36:07 multiproc_worker_utils.py:226]"
              "   File \"/opt/venv/lib/python3.10/site-packages/vllm/worker/worker.py\", line 131, in init_device\n")
    text = "".join(f"> {line}\n" for line in (_P2P + _worker_timeout("init_device") + frames).splitlines()) + "> \n"
    v = _verdict(tmp_path, text)
    assert v["cause"] == "rank_missing" and v["culprits"] == [0], v


# --- round 30: lead rules B/E with a rank shown only tearing down its communicator -----------------------------------
def test_one_rank_inside_with_another_only_aborting_its_communicator_in_a_larger_world_is_rank_missing(tmp_path):
    """One rank's watchdog times out; the only other rank in the lines is NCCL's teardown note of a communicator of a
    stated world ("rank 2 nranks 16 ... Abort COMPLETE"), which shows neither where it stood nor a failure of its
    own: every rank shown is inside (or torn down with it) and the world is larger than the ranks shown -> rank_missing,
    nobody named, the timed-out rank innocent (was unknown)."""
    text = (watchdog_line(11, 4402, "ALLGATHER", 600412, 600000, numel=(512, 8192), style="1.x")
            + "host-b:311:377 [2] NCCL INFO comm 0x7f3a10 rank 2 nranks 16 cudaDev 2 busId 41000 - Abort COMPLETE\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("rank_missing", []) and not _accused(d), v


def test_a_teardown_note_that_may_be_the_timed_out_rank_itself_does_not_make_a_rank_missing(tmp_path):
    """The communicator's own rank of a 2-rank group can be the timed-out process itself (its group rank): the lines
    may hold the whole group, so the abort note is no evidence of a rank not shown and the verdict does not move."""
    base = ("[rank6]:[E218 04:54:23.314069184 ProcessGroupNCCL.cpp:1844] [PG ID 5 PG GUID 9 Rank 1] Timeout at NCCL "
            "work: 31, last enqueued NCCL work: 31, last completed NCCL work: 30.\n")
    torn = "host-c:17:28 [1] NCCL INFO comm 0x55e1 rank 1 nranks 2 cudaDev 1 busId c5000 - Abort COMPLETE\n"
    assert _verdict(tmp_path, torn + base)["cause"] == "unknown"


# --- round 30: lead rule D on FSDP's own execution-order check ------------------------------------------------------
def test_fsdps_forward_order_check_naming_two_ranks_is_a_desync_naming_nobody(tmp_path):
    """FSDP's first-iteration check "Forward order differs across ranks: rank A is all-gathering ... while rank B is
    all-gathering ...": the ranks ran different forward paths (desync); two ranks and no majority name nobody."""
    for what in ("3 parameters while rank 5 is all-gathering 2 parameters",
                 "parameters for ['lm_head.weight'] while rank 5 is all-gathering parameters for ['norm.weight']"):
        d = _report(tmp_path, "[rank2]: torch.distributed.DistBackendError: Forward order differs across ranks: "
                              f"rank 2 is all-gathering {what}\n")
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("desync", []) and not _accused(d), v
        assert "forward order" in v["fix"] and "use_orig_params" in v["fix"], v["fix"]


def test_glooss_size_enforce_on_its_own_what_line_is_a_desync_naming_nobody(tmp_path):
    """gloo's "op.preamble.length <= op.nbytes. A vs B" (a peer sent more bytes than this rank posted: different
    collectives or sizes at the same point) arrives as a C++ "what():" line with no other trigger word (round 30)."""
    text = ("terminate called after throwing an instance of 'gloo::EnforceNotMet'\n"
            "  what():  [enforce fail at /opt/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:446] "
            "op.preamble.length <= op.nbytes. 8192 vs 16\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("desync", []) and not _accused(d), v
    assert "8192" in v["summary"], v["summary"]

# --- session 9 (fix31F): vLLM's shared-memory broadcast notice, a serving stall (lead rule P) ----------------------
def test_vllms_repeated_shm_broadcast_notice_is_a_serving_stall_naming_nobody(tmp_path):
    """Lead rule P: vLLM's engine core printing, every minute, that it found no shared memory broadcast block (its
    workers have not read the last step) and nothing else: a stall whose worker the lines cannot name -- cause
    unknown, nobody accused; the fix asks for py-spy dumps of every worker."""
    text = "".join(
        f"(VllmWorker TP{i % 2} pid={2201 + i % 2}) INFO 11-02 09:{10 + i:02d}:41 [shm_broadcast.py:466] No available "
        "shared memory broadcast block found in 60 seconds. This typically happens when some processes are hanging "
        "or doing some time-consuming work (e.g. compilation).\n" for i in range(4))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "unknown" and v["culprits"] in ([], "unknown") and not _accused(d), v
    assert "py-spy dump" in v["fix"], v["fix"]


# --- session 9 (fix31F): a gloo timeout under one collective while another traceback stands at another (rule D) ----
_TB = "Traceback (most recent call last):\n"
_BWD = ('  File "/opt/venv/lib/python3.10/site-packages/torch/_tensor.py", line 522, in backward\n'
        "    torch.autograd.backward(\n")
_ALLREDUCE = ('  File "/opt/venv/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", line 2050, in '
              "all_reduce\n    work.wait()\n"
              "RuntimeError: [/opt/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:598] Timed out waiting "
              "600000ms for send operation to complete\n")


def test_a_gloo_timeout_in_one_collective_beside_another_processes_backward_is_a_desync(tmp_path):
    """Lead rule D without SeqNums: one process's all_reduce times out in gloo while another process's traceback
    (printed before it) stands in autograd's backward (DDP's gradient all-reduce): different collectives at the same
    point, desync, nobody named."""
    text = (_TB + '  File "run_pretrain.py", line 88, in train_step\n    loss.backward()\n' + _BWD
            + _TB + '  File "run_pretrain.py", line 140, in evaluate\n    dist.all_reduce(metric)\n' + _ALLREDUCE)
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "desync" and v["culprits"] in ([], "unknown") and not _accused(d), v
    assert "TORCH_DISTRIBUTED_DEBUG=DETAIL" in v["fix"] and "every rank" in v["fix"], v["fix"]


def test_a_gloo_timeout_under_backward_in_its_own_traceback_is_not_a_desync(tmp_path):
    """The same frames in ONE traceback (a collective called from inside backward, a hook) are one process's
    stack: no second site, no desync."""
    text = _TB + '  File "run_pretrain.py", line 88, in train_step\n    loss.backward()\n' + _BWD + _ALLREDUCE
    assert _verdict(tmp_path, text)["cause"] != "desync"


# --- session 9 (fix31F): torch.distributed.rpc's call timeout with nobody named -----------------------------------
def test_an_rpc_call_timeout_names_nobody_and_says_where_to_look(tmp_path):
    """torch.distributed.rpc's "RPC ran for more than set timeout (N ms)" with nothing else: the remote side stalled
    or died; the lines name no peer: unknown, nobody accused; the fix names rpc_timeout, the remote processes and
    py-spy dumps."""
    text = ("Traceback (most recent call last):\n"
            '  File "/srv/app/sampler_client.py", line 77, in fetch\n'
            "    return fut.wait()\n"
            "RuntimeError: RPCErr:1:RPC ran for more than set timeout (60000 ms) and will now be marked with an "
            "error\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "unknown" and v["culprits"] in ([], "unknown") and not _accused(d), v
    assert "rpc_timeout" in v["fix"] and "py-spy dump" in v["fix"], v["fix"]


# --- session 9 (fix32I): a peer on loopback is a process of this same host (lead rule U(4)) ------------------------
def test_a_loopback_peer_closing_a_collective_sends_to_the_local_processes_first_traceback(tmp_path):
    """Lead rule U(4): gloo's "Connection closed by peer" in a collective names no single peer (early_exit, nobody
    named); a loopback address (127.x) says the peer is another process of this same host (a single-node job, a
    test's spawned processes): the fix sends to the first traceback of every process, not to pods or nodes."""
    text = ("    work.wait()\n"
            "RuntimeError: [/build/third_party/gloo/gloo/transport/tcp/pair.cc:601] Connection closed by peer "
            "[127.0.0.5]:38117\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("early_exit", []) and not _accused(d), v
    assert "first traceback of every process" in v["fix"] and "kubectl" not in v["fix"], v["fix"]


# --- session 9 (fix32I): rule I, rank 0 evaluating while every other rank waits in an all-reduce ------------------
def test_rank0_evaluating_while_every_other_rank_waits_in_one_allgather_is_named(tmp_path):
    """Lead rule I: the main process's own untagged evaluator line ("Evaluating ...") right before ranks 1..7 all time
    out in one ALLGATHER (same SeqNum): the ranks inside are past their evaluation, and rank 0, the one rank of the
    world not inside, is still in it -- culprit 0 (rank_missing), the waiting ranks victims."""
    text = ("epoch 12 finished, running validation\n"
            "Evaluating the predictions on the val split...\n"
            + "".join(watchdog_line(r, 91207, "_ALLGATHER_BASE", 3600412 + r, 3600000, style="1.x")
                      for r in (4, 1, 7, 2, 6, 3, 5)))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"], v["confidence"]) == ("rank_missing", [0], "medium"), v
    assert "timeout" in v["fix"], v["fix"]


def test_rank0_evaluating_before_an_allreduce_with_a_rank_gap_names_nobody(tmp_path):
    """The same shape, but rank 2 is not shown either (ranks 1 and 3 wait): rank 0 is not the only rank outside the
    collective, so the lines do not single it out (rule E): nobody accused."""
    text = ("Evaluating the predictions on the val split...\n"
            + "".join(watchdog_line(r, 5530, "ALLREDUCE", 1800311, 1800000, style="1.x") for r in (3, 1)))
    d = _report(tmp_path, text)
    assert d["verdict"]["cause"] == "rank_missing" and not _accused(d), d["verdict"]


def test_an_object_gather_that_cannot_unpickle_the_others_data_is_a_desync_naming_no_rank(tmp_path):
    """A pickle error raised just below the frame of an object gather (torch's all_gather_object here, fairseq's
    all_gather_list in the corpus): the bytes the ranks exchanged do not line up, so the workers entered the gather out
    of step: a desync, and nobody is named (lead rule D)."""
    text = ("-- Process 5 terminated with the following error:\n"
            "Traceback (most recent call last):\n"
            '  File "/srv/job/eval.py", line 88, in gather_metrics\n'
            "    dist.all_gather_object(out, stats)\n"
            '  File "/usr/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", line 2309, in '
            "all_gather_object\n"
            "    object_list[i] = _tensor_to_object(tensor, tensor_size, group)\n"
            '  File "/usr/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", line 2012, in '
            "_tensor_to_object\n"
            "    return _unpickler(io.BytesIO(buf)).load()\n"
            "_pickle.UnpicklingError: invalid load key, '\\x00'.\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("desync", []), v
    assert not _accused(d)
    assert "all_gather_object" in v["fix"] and "out of sync" in v["fix"], v["fix"]


def test_fairseqs_own_unpickle_message_is_a_desync(tmp_path):
    """The gather's own words that the workers fell out of sync, with no traceback frame above them."""
    text = ("RuntimeError: Unable to unpickle data from other workers. all_gather_list requires all workers to enter "
            "the function together, so this error usually indicates that the workers have fallen out of sync.\n")
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("desync", []), v


# round 36: TensorFlow's collectives aborted by a peer's connection closing (lead rule O in gRPC's words)
def test_tensorflow_collectives_aborted_by_a_closed_connection_are_a_peer_gone(tmp_path):
    """TF's collective executor aborts every pending collective with the error one of them met; "Socket closed" (or a
    reset) there is a worker's process gone mid-run: early_exit, nobody named (task indices are not ranks). The
    same abort for another reason (a deadline) is no peer gone."""
    text = ('tensorflow.python.framework.errors_impl.UnavailableError: {{function_node __inference_train_step_812}} '
            'Collective ops is aborted by: {what}\nAdditional GRPC error information from remote target '
            '/job:worker/replica:0/task:3:\n:{{"created":"@1701000000.1","description":"Error received from peer '
            'ipv4:10.4.0.9:41213","grpc_message":"{what}","grpc_status":14}}\n'
            "The error could be from a previous operation. Restart your program to reset.\n")
    for what in ("Socket closed", "Connection reset by peer"):
        d = _report(tmp_path, text.format(what=what))
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("early_exit", []) and not _accused(d), v
        assert "the worker that exited first" in v["fix"], v
    assert _verdict(tmp_path, text.format(what="Deadline Exceeded"))["cause"] != "early_exit"


# round 36: XLA's rendezvous of a collective's participants, some never arriving (lead rules B, E, H)
def test_xlas_rendezvous_stuck_waiting_for_the_clique_is_a_rank_missing_not_the_waiter(tmp_path):
    """XLA's "This thread has been waiting for `initialize clique for rank R; clique=devices=[...]` ... Expected N
    threads to join the rendezvous": a clique wider than this process's threads, the other process's devices never
    came: rank_missing, nobody named, the waiting rank never accused."""
    devs = ",".join(str(i) for i in range(8))
    text = "".join(
        f"2025-02-11 09:03:{s:02d}.114502: E external/xla/xla/service/rendezvous.cc:41] This thread has been waiting "
        f"for `initialize clique for rank {r}; clique=devices=[{devs}]; stream=0; run_id=-88120431` for 20 seconds "
        "and may be stuck. Expected 4 threads to join the rendezvous, but not all of them arrived on time.\n"
        for s, r in ((10, 1), (11, 3)))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("rank_missing", []) and not _accused(d), v
    assert "8 devices" in v["summary"] and "every process must run the same collective" in v["fix"], v


# round 44: vLLM's engine core's own traceback of the same wait: a frame in its shared-memory message queue
# (shm_broadcast.py) and the TimeoutError it raises -- the serving stall of lead rule P, nobody named
def test_vllms_shm_broadcast_timeout_traceback_is_a_serving_stall_naming_nobody(tmp_path):
    pre = "(EngineCore_DP0 pid=4107) ERROR 03-02 07:41:55 [core.py:710] "
    text = "".join(pre + x + "\n" for x in (
        "EngineCore encountered a fatal error.",
        "Traceback (most recent call last):",
        '  File "/opt/venv/lib/python3.11/site-packages/vllm/distributed/device_communicators/shm_broadcast.py", '
        "line 512, in acquire_read",
        "    raise TimeoutError",
        "TimeoutError"))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "unknown" and v["culprits"] in ([], "unknown") and not _accused(d), v
    assert "py-spy dump" in v["fix"], v["fix"]


# round 45: torch 1.x's blocking wait (NCCL_BLOCKING_WAIT) throws "Operation timed out!" from the collective's
# work.wait(): right under a collective's frame it is a process inside that collective (lead rule B)
def test_a_blocking_waits_operation_timed_out_under_a_collective_is_rank_missing(tmp_path):
    text = ("Process SpawnProcess-3:\nTraceback (most recent call last):\n"
            '  File "/opt/conda/lib/python3.8/site-packages/torch/distributed/distributed_c10d.py", line 1002, in '
            "broadcast\n    work.wait()\nRuntimeError: Operation timed out!\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("rank_missing", []) and not _accused(d), v
    assert "py-spy" in v["fix"], v["fix"]
    elsewhere = text.replace("distributed_c10d.py\", line 1002, in broadcast", "loader.py\", line 88, in fetch")
    assert _verdict(tmp_path, elsewhere)["cause"] != "rank_missing"
def test_a_rank_not_inside_the_stuck_collective_recorded_failing_alone_is_the_one_waited_for(tmp_path):
    """Rounds 44/45 (lead rules B then A): the shown ranks time out inside one collective; torchrun's agent stops
    them ("Sending process P closing signal SIGTERM") and records one other local rank failing on its own. That rank
    is the one they waited for: rule A names it, the ranks inside are victims. Other ranks, ops, pids than the
    corpus. A -6 with no process stopped after it may be the timed-out process's own watchdog abort: nobody."""
    wait = "".join(watchdog_line(r, 9120, "BROADCAST", 600412, 600000, style="1.x") for r in (0, 1))
    stop = ("WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 51001 closing signal SIGTERM\n"
            "WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 51002 closing signal SIGTERM\n")
    rec = ("ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: {code}) local_rank: 2 (pid: 51003) "
           "of binary: /usr/bin/python3\n")
    for code in (-6, -11):
        d = _report(tmp_path, wait + stop + rec.format(code=code))
        v = d["verdict"]
        assert v["culprits"] == [2] and v["cause"] == "unknown", (code, v)
        assert not {0, 1} & set(_accused(d))
    v = _verdict(tmp_path, wait + rec.format(code=-6), "other.log")
    assert v["culprits"] == [], v


def test_gloos_closed_by_peer_names_the_peer_process_at_its_address_in_the_fix(tmp_path):
    """Rounds 44/45: gloo's "Connection closed by peer [IP]:PORT" from another host: the fix says where to look in the
    words an expert uses -- the peer at that address, the peer process's own error. Another address and port."""
    text = ("RuntimeError: [/opt/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:598] Connection closed by peer "
            "[10.40.7.22]:61234\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "early_exit" and v["culprits"] == [], v
    assert "peer at 10.40.7.22" in v["fix"] and "peer process's own error" in v["fix"], v["fix"]


# round 47: gloo's pair.cc "Application timeout caused pair closure" is the printing process's own wait running out
# (gloo closes the pair on its timeout): rank_missing, nobody named; a "Connection closed by peer" that follows it on
# the same process is that close's aftermath, while one that comes first is still a peer gone (early_exit)
def test_gloos_application_timeout_pair_closure_is_the_process_waiting_then_the_close_follows(tmp_path):
    closed = "{p}: [/opt/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:{n}] Connection closed by peer {a}\n"
    for prefix, n, addr in (("[rank3]: RuntimeError", 598, "[10.9.1.4]:40112"), ("Rank 6 step failed", 534, ""),
                            ("[rank0]: torch.distributed.DistBackendError", 547, "[127.0.0.1]:23456")):
        timeout = f"{prefix}: Application timeout caused pair closure\n"
        for text in (timeout, timeout + closed.format(p=prefix, n=n, a=addr)):
            d = _report(tmp_path, text)
            v = d["verdict"]
            assert (v["cause"], v["culprits"]) == ("rank_missing", []) and not _accused(d), (text, v)
        # the peer gone first, the timeout after it: the peer's exit is still the first news
        v = _verdict(tmp_path, closed.format(p=prefix, n=n, a=addr) + timeout)
        assert v["cause"] == "early_exit", (prefix, v)


# round 47 (lead rule Y): a connected rank's store read timing out mid-run -- torch >= 2.4's "waitForInput: poll for
# socket ... returned 0, likely a timeout" warning, kept alone in the paste, beside a DistStoreError "wait timeout" on a
# key another process publishes (vLLM's stateless group's /broadcast_from/<src>/<n>): rank_missing, nobody named; its
# "[rankN]:" prefix may be on the line before when a screen copy wrapped the line (its last row padded to the edge)
def test_a_connected_store_reads_poll_timeout_mid_run_is_rank_missing(tmp_path):
    poll = ("[W{d} 11:02:41.118273645 socket.cpp:{ln}] [c10d] waitForInput: poll for socket SocketImpl(fd={fd}, "
            "addr=[localhost]:{lp}, remote=[::ffff:10.0.0.7]:{rp}) returned 0, likely a timeout")
    err = "torch.distributed.DistStoreError: wait timeout after {ms}ms, keys: /broadcast_from/{src}/{n}\n"
    for rank, src, ms, rp in ((2, 1, 600000, 40123), (5, 0, 1800000, 51999)):
        line = f"[rank{rank}]:" + poll.format(d="1107", ln=464, fd=71, lp=38810, rp=rp)
        d = _report(tmp_path, err.format(ms=ms, src=src, n=88123) + line + "\n")
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("rank_missing", []) and not _accused(d), v
    # a screen copy wrapped at its width: the rank prefix glued after a progress bar, the rest on the next row, the
    # last row padded with blanks to the same edge
    for rank, cols in ((1, 170), (7, 190)):
        cut = f"[rank{rank}]:[W403 00:25:54.341099763 s"
        rest = ("ocket.cpp:462] [c10d] waitForInput: poll for socket SocketImpl(fd=80, addr=[localhost]:44084, "
                "remote=[::ffff:0.0.0.0]:41216) returned 0, likely a timeout")
        bar = " 41%|████████████▊          | 2718/6642 [1:40:27<2:31:03,  3.41s/it]"
        text = (err.format(ms=300000, src=0, n=553) + bar.ljust(cols - len(cut)) + cut + "\n" + rest.ljust(cols)
                + "\n")
        d = _report(tmp_path, text)
        assert d["verdict"]["cause"] == "rank_missing", (cols, d["verdict"])


def test_an_unranked_poll_timeout_beside_a_programs_own_key_is_still_rank_missing(tmp_path):
    """The poll line with no "[rankN]:" (a paste's own prefixes, the rank lost): a wait on a key of the program's own
    is a process of the job all the same; a wait on torchrun's agent's keys (torchelastic) is not this."""
    poll = ("{p}[W1107 11:02:41.118273645 socket.cpp:464] [c10d] waitForInput: poll for socket SocketImpl(fd=71, "
            "addr=[localhost]:38810, remote=[10.0.0.7]:{rp}) returned 0, likely a timeout\n")
    err = "{p}torch.distributed.DistStoreError: wait timeout after {ms}ms, keys: {key}\n"
    for p, key, rp in (("2025-04-03T00:25:54Z ", "/broadcast_from/1/88123", 41216),
                       ("worker-2 | ", "/weight_sync/ready/7", 29555)):
        v = _verdict(tmp_path, err.format(p=p, ms=600000, key=key) + poll.format(p=p, rp=rp))
        assert (v["cause"], v["culprits"]) == ("rank_missing", []), (p, v)
    agent = err.format(p="", ms=900000, key="/none/torchelastic/role_info/0") + poll.format(p="", rp=29400)
    assert _verdict(tmp_path, agent)["cause"] != "rank_missing"


def test_a_store_wait_in_a_store_based_barrier_stays_the_store(tmp_path):
    """The near shape: the same DistStoreError under vLLM's stateless group's barrier() frames with no connected
    read shown is rule R's store-based barrier short of a participant (store_rendezvous), not rule Y's read."""
    text = ('[rank0]:   File "/venv/lib/python3.11/site-packages/vllm/distributed/utils.py", line 216, in barrier\n'
            "[rank0]:     self.broadcast_obj(None, src=i)\n"
            '[rank0]:   File "/venv/lib/python3.11/site-packages/vllm/distributed/utils.py", line 197, in '
            "broadcast_obj\n[rank0]:     recv_obj = pickle.loads(self.store.get(key))\n"
            "[rank0]: torch.distributed.DistStoreError: wait timeout after 300000ms, keys: /broadcast_from/0/1234\n")
    assert _verdict(tmp_path, text)["cause"] == "store_rendezvous"


# --- session 16 (fix48 F3): Ray's folded lines, a Ray worker dead of its own watchdog, return codes of the abort -----
# Ray's log deduplication (RAY_DEDUP_LOGS, Ray >= 2.3, python/ray/_private/ray_logging.py) folds lines of other
# workers that differ only in their numbers into the first one and appends "[repeated Nx across cluster]".
def _ray(actor: str, pid: int, line: str, times: int = 0) -> str:
    fold = f" [repeated {times}x across cluster]" if times else ""
    return f"({actor} pid={pid}) " + line.rstrip("\n") + fold + "\n"


def _abort(rank: int) -> str:
    """torch 2.x's abort lines after a rank's own watchdog timeout (ProcessGroupNCCL.cpp)."""
    return (f"[rank{rank}]:[E816 01:09:38.266897325 ProcessGroupNCCL.cpp:621] [Rank {rank}] Some NCCL operations have "
            "failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run "
            "on corrupted/incomplete data.\n"
            f"[rank{rank}]:[E816 01:09:38.266910599 ProcessGroupNCCL.cpp:627] [Rank {rank}] To avoid data "
            "inconsistency, we are taking the entire process down.\n")


def _folded_first(shown: tuple[int, ...], times: int, actor: str = "WorkerDict", fold: bool = True) -> str:
    text = ""
    for i, r in enumerate(shown):
        pid = 3943529 + 668 * i
        if r == 0:  # rank 0 shown only by its abort lines, as in the real paste
            text += "".join(_ray(actor, pid, x, times if fold else 0) for x in _abort(0).splitlines())
        else:
            text += _ray(actor, pid, watchdog_line(r, 1, "ALLREDUCE", 600034, 600000, numel=1), times if fold else 0)
    return text


def test_ray_folded_first_collective_with_rank_0_shown_is_connection_set_up(tmp_path):
    """Lead rule AB (1) under Ray's deduplication (round 48's sql-r1-18: rank 0's abort lines and rank 2's timeout
    in SeqNum 1, each "[repeated Nx across cluster]"): the folded lines are other ranks' same lines, so rank 1's
    absence from the shown rank numbers says no rank is missing; every shown rank, rank 0 among them, is inside
    the group's first tiny collective with no world size printed: network_setup, nobody accused."""
    for shown, times, actor in (((0, 2), 2, "WorkerDict"), ((0, 3), 5, "RayWorkerWrapper"), ((2, 0), 6, "Actor")):
        d = _report(tmp_path, _folded_first(shown, times, actor))
        assert d["verdict"]["cause"] == "network_setup", (shown, d["verdict"])
        assert not _accused(d), (shown, d["verdict"])


def test_unfolded_gap_or_rank_0_not_shown_stays_rank_missing(tmp_path):
    """The near shapes: the same lines without Ray's fold mark (rank 1 is then not shown: rule H), or folded lines
    without rank 0 (rule H's rank 0 absent) stay rank_missing, culprits unknown."""
    for text in (_folded_first((0, 2), 2, fold=False), _folded_first((2, 3), 4)):
        d = _report(tmp_path, text)
        assert d["verdict"]["cause"] == "rank_missing", d["verdict"]
        assert not _accused(d)


def _dead_worker(pid: int) -> str:
    """Ray's raylet line for a worker that died (python/ray/_private/worker.py's task error text)."""
    return ("(raylet) A worker died or was killed while executing a task by an unexpected system error. To "
            "troubleshoot the problem, check the logs for the dead worker. RayTask ID: ffffffffffffffff1a990bd6 "
            "Worker ID: 844534794edd787d Node ID: 0e9947ba3916 Worker IP address: 10.1.2.3 Worker port: 34533 "
            f"Worker PID: {pid} Worker exit type: SYSTEM_ERROR Worker exit detail: Worker unexpectedly exits with a "
            "connection error code 2. End of file.\n")


def _split_seqs(pids: tuple[int, int], seqs: tuple[int, int], ranks: tuple[int, int] = (1, 0)) -> str:
    a, b = ranks
    return (_ray("WorkerDict", pids[0], watchdog_line(a, seqs[0], "ALLREDUCE", 1800024, 1800000, numel=1))
            + "".join(_ray("WorkerDict", pids[0], x) for x in _abort(a).splitlines())
            + _ray("WorkerDict", pids[1], watchdog_line(b, seqs[1], "_REDUCE_SCATTER_BASE", 1800053, 1800000,
                                                        numel=(46797824, 23398912))))


def test_a_ray_worker_dead_of_its_own_watchdog_abort_is_not_the_first_failure(tmp_path):
    """Lead rule I under Ray (round 48's verl-agent2): the raylet's "worker died ... unexpected system error" names
    the pid of a worker whose own lines show its watchdog timing out and "taking the entire process down": it died
    of that abort. The two ranks stand at different SeqNums with different ops (a desync, no majority: rule D)."""
    for pids, seqs, ranks in (((3490362, 3490084), (2635, 2667), (1, 0)), ((771, 902), (88, 97), (0, 1))):
        d = _report(tmp_path, _split_seqs(pids, seqs, ranks) + _dead_worker(pids[0]))
        assert d["verdict"]["cause"] == "desync", (pids, d["verdict"])
        assert d["verdict"]["culprits"] == [], d["verdict"]


def test_a_ray_worker_dead_that_printed_no_timeout_stays_the_first_failure(tmp_path):
    """The near shape: the dead worker's pid is none of the timed-out workers': Ray lost a process first."""
    d = _report(tmp_path, _split_seqs((3490362, 3490084), (2635, 2667)) + _dead_worker(3491777))
    assert d["verdict"]["cause"] == "unknown", d["verdict"]


def _seq2(shown: tuple[int, ...], world: int, host: str, trail_after: bool) -> str:
    """Ranks SHOWN of a WORLD time out in SeqNum 2 (last completed 1); an NCCL socket return-code trail from the
    first of them before or after those lines."""
    trail = "".join(nccl_info(host, 36673, shown[0], f"misc/socket.cc:{n} -> 3", tid=39804) for n in (64, 80, 829))
    nranks = nccl_info(host, 36674, shown[-1], f"comm 0x63b23727bf90 rank {shown[-1]} nranks {world} cudaDev "
                       f"{shown[-1]} busId 9000 - Init COMPLETE")
    lines = "".join(watchdog_line(r, 2, "ALLREDUCE", 1800009, 1800000, numel=1, stamp="E625 03:24:32.979296419")
                    for r in shown)
    return nranks + (lines + trail if trail_after else trail + lines)


def test_return_codes_after_the_watchdog_timeout_are_its_abort_not_the_network(tmp_path):
    """Round 48's genetictrading: ranks 1-3 of 4 time out in SeqNum 2 (the first collective completed: the ranks
    were connected), then rank 2's NCCL threads print "misc/socket.cc:64 -> 3" while torch aborts the communicator
    after the timeout. That trail is the abort's, not a network set-up failure: rule H's rank missing stays."""
    for shown, world, host in (((1, 2, 3), 4, "alex-box"), ((0, 1, 2, 3, 4, 6, 7), 8, "gpu-node-07")):
        d = _report(tmp_path, _seq2(shown, world, host, trail_after=True))
        assert d["verdict"]["cause"] == "rank_missing", (shown, d["verdict"])
        assert not _accused(d) & set(shown)


def test_return_codes_before_the_watchdog_timeout_stay_the_network(tmp_path):
    """The near shape: the same trail printed before any timeout of its log is the hang's cause (network_setup)."""
    d = _report(tmp_path, _seq2((1, 2, 3), 4, "alex-box", trail_after=False))
    assert d["verdict"]["cause"] == "network_setup", d["verdict"]


# --- session 16 (fix48 F3): py-spy cannot stop one process while the others wait in a collective (round 48's m4) ---
def _pyspy_hang(waiting: list[int], stuck: int, frame: str, line: int) -> str:
    """py-spy dump's output (`Thread PID (active): "MainThread"` then innermost-first frames) for the processes that
    wait in a collective, then its error for one it could not stop (py-spy's python_spy.rs "Failed to suspend
    process"; remoteprocess's ptrace error "EPERM")."""
    text = ""
    for pid in waiting:
        text += (f'Thread {pid} (active): "MainThread"\n    {frame} (torch/distributed/distributed_c10d.py:{line})\n'
                 "    wait_for_everyone (accelerate/utils/other.py:81)\n")
    return text + (f"Process {stuck}: ...\nError: Failed to suspend process\n"
                   "Reason: EPERM: Operation not permitted\n")


def test_a_process_py_spy_cannot_stop_beside_others_in_a_collective_is_the_missing_one(tmp_path):
    """ptrace stops every process but one, which sits in uninterruptible sleep (a filesystem or driver call in the
    kernel): it never reached the collective the others wait in -- rank_missing, and py-spy names pids, not ranks."""
    for waiting, stuck, frame, line in (([280064], 280058, "barrier", 2784),
                                        ([5120, 5121, 5123], 5122, "all_reduce", 1534),
                                        ([77001, 77003], 77002, "broadcast", 1910)):
        d = _report(tmp_path, _pyspy_hang(waiting, stuck, frame, line))
        assert d["verdict"]["cause"] == "rank_missing", (frame, d["verdict"])
        assert d["verdict"]["culprits"] == [] and not _accused(d)
        assert "uninterruptible sleep" in d["verdict"]["fix"] or "D state" in d["verdict"]["fix"]


def test_py_spy_failing_alone_or_dumps_outside_a_collective_are_not_a_missing_rank(tmp_path):
    """The near shapes: py-spy's error with no dump of a waiting process (it may lack the permission for every
    process), or every dump outside torch's collectives: nothing says the others wait for that process."""
    alone = "Process 280058: ...\nError: Failed to suspend process\nReason: EPERM: Operation not permitted\n"
    outside = _pyspy_hang([280064], 280058, "barrier", 2784).replace("barrier (torch/distributed/distributed_c10d",
                                                                     "barrier (myproject/sync")
    for text in (alone, outside):
        assert _verdict(tmp_path, text)["cause"] != "rank_missing"


# --- round 49: timeouts in different process groups, each rank inside its own group's op (lead rules B, E) --------
def _own_group(rank: int, pg: int, seq: int, op: str, numel: int, prefix: str = "") -> str:
    """torch 2.4's watchdog line (no group in it) and its status line naming the group (ProcessGroupNCCL.cpp)."""
    return (prefix + watchdog_line(rank, seq, op, 600007, 600000, numel=numel, at=607)
            + f"{prefix}[rank{rank}]:[E102 10:00:00.000000000 ProcessGroupNCCL.cpp:1664] [PG {pg} Rank {rank}] "
            f"Exception (either an error or timeout) detected by watchdog at work: {seq}, last enqueued NCCL work: "
            f"{seq}, last completed NCCL work: {max(seq - 1, 0)}.\n")


def test_ranks_timed_out_each_in_its_own_groups_p2p_op_are_a_rank_missing_nobody_named(tmp_path):
    """xDiT's PipeFusion (xdit-284): rank 0 in a SEND of one pipeline group, rank 3 in a batched COALESCED send/recv
    of another: SeqNums count per group, nobody is behind; each waits on a peer these lines do not show."""
    for lines in (_own_group(0, 37, 0, "SEND", 7208960, "  3%|| 1/3 ") + _own_group(3, 35, 29, "COALESCED",
                                                                                    18446744073709551615),
                  _own_group(6, 12, 4, "RECV", 1048576) + _own_group(2, 9, 118, "SEND", 1048576)
                  + _own_group(5, 14, 40, "_RECV", 65536, "> ")):
        d = _report(tmp_path, lines)
        assert d["verdict"]["cause"] == "rank_missing", d["verdict"]
        assert d["verdict"]["culprits"] == [] and not _accused(d)
        assert "send/recv pairing" in d["verdict"]["fix"]


def test_two_groups_where_a_member_of_one_is_at_another_seqnum_stay_unnamed_and_not_per_group(tmp_path):
    """Two ranks of one group at different SeqNums (beside a rank of another group) are not 'each inside its own
    group's op': no per-group rule B; and one group alone is rule B's own shape, not this one."""
    lines = (_own_group(1, 7, 30, "SEND", 4096) + _own_group(4, 7, 31, "SEND", 4096)
             + _own_group(2, 8, 3, "RECV", 4096))
    v = _verdict(tmp_path, lines)
    assert "its own process group's stuck op" not in v["summary"], v


# --- round 49: a launcher's SIGTERM teardown makes silent ranks only a lead (lead rules B, E, I) -------------------
def _pals_world(timed: tuple[int, ...], world: int, stopped: int | None, aborted: int, seq: int = 7) -> str:
    """Every rank's NCCL init (nranks WORLD, two nodes of world/2 GPUs), then the ranks in TIMED time out in PG 0 at
    SEQ (torch 2.3's wording), then HPE Cray PALS mpiexec's record: the first aborted rank (signal 6) and one rank
    it stopped (signal 15)."""
    half = world // 2
    out = []
    for r in range(world):
        host = f"x3100c0s{r // half}b0n0"
        out.append(nccl_info(host, 4100 + r, r % half, f"comm 0x55{r:02d}aa rank {r} nranks {world} cudaDev {r % half} "
                             f"nvmlDev {r % half} busId {r % half}7000 commId 0x61 - Init COMPLETE"))
    for r in timed:
        out.append(f"[rank{r}]:[E ProcessGroupNCCL.cpp:563] [Rank {r}] Watchdog caught collective operation timeout: "
                   f"WorkNCCL(SeqNum={seq}, OpType=BROADCAST, NumelIn=800, NumelOut=800, Timeout(ms)=300000) ran "
                   f"for 3000{r:02d} milliseconds before timing out.\n"
                   f"[rank{r}]:[E ProcessGroupNCCL.cpp:1537] [PG 0 Rank {r}] Timeout at NCCL work: {seq}, last "
                   f"enqueued NCCL work: {seq + 1}, last completed NCCL work: {seq - 1}.\n")
    out.append(f"x3100c0s0b0n0.hsn.cm.polaris.alcf.anl.gov: rank {aborted} died from signal 6 and dumped core\n")
    if stopped is not None:
        out.append(f"x3100c0s0b0n0.hsn.cm.polaris.alcf.anl.gov: rank {stopped} died from signal 15\n")
    return "".join(out)


def test_silent_ranks_beside_a_pals_sigterm_teardown_are_rank_missing_nobody_named(tmp_path):
    """alcf-nccl-tests-vae: a world of 8 (Init COMPLETE on all), 5 ranks inside one BROADCAST, 3 silent, and
    mpiexec's record shows one of the silent ranks stopped by SIGTERM: a rank inside whose timeout had not fired is
    silent alike, so the silent ones are only a lead."""
    for timed, world, stopped, aborted in (((1, 4, 5, 6, 7), 8, 3, 1), ((0, 1, 2, 5, 6, 7, 9, 10, 11), 12, 8, 2)):
        d = _report(tmp_path, _pals_world(timed, world, stopped, aborted))
        assert d["verdict"]["cause"] == "rank_missing", d["verdict"]
        assert not _accused(d) & set(timed) and not _accused(d), d["verdict"]
        assert d["verdict"]["confidence"] == "low"


def test_silent_ranks_with_no_teardown_shown_are_still_named(tmp_path):
    """The same world with only the first abort in mpiexec's record (no rank stopped by SIGTERM): every rank's log
    is here, so the silent ones are named at medium as before."""
    d = _report(tmp_path, _pals_world((1, 4, 5, 6, 7), 8, None, 1))
    assert d["verdict"]["cause"] == "rank_missing", d["verdict"]
    assert _accused(d) == {0, 2, 3}, d["verdict"]


def test_an_interleaved_nccl_lines_interfaces_are_the_last_prefixs(tmp_path):
    """Two nodes' processes writing to one stream cut each other's lines: the bootstrap interface after the second
    host's prefix is that host's, so two hosts with their own addresses share none (no NAT verdict)."""
    for a, b in (("x3200c0s25b0n0", "x3200c0s25b1n0"), ("gpu-node-07", "gpu-node-12")):
        text = (nccl_info(a, 3055271, 0, "Bootstrap : Using bond0:10.140.48.182<0>")
                + nccl_info(b, 3051060, 0, "Bootstrap : Using bond0:10.140.48.181<0>")
                + f"{a}:3055272:3055506 [1] NCCL INFO NET/OFI Libfabric provider asso"
                + nccl_info(b, 3051061, 1, "Bootstrap : Using bond0:10.140.48.181<0>")
                + f"{a}:3055274:3055502 [3] NCCL"
                + nccl_info(b, 3051063, 3, "Bootstrap : Using bond0:10.140.48.181<0>")
                + watchdog_line(1, 7, "BROADCAST", 300066, 300000, numel=800))
        v = _verdict(tmp_path, text)
        assert v["cause"] != "network_setup", v
    shared = (nccl_info("node-a", 11, 0, "Bootstrap : Using eth0:172.17.0.2<0>")
              + nccl_info("node-b", 12, 0, "Bootstrap : Using eth0:172.17.0.2<0>")
              + watchdog_line(1, 7, "BROADCAST", 300066, 300000, numel=800))
    assert _verdict(tmp_path, shared)["cause"] == "network_setup"  # two real hosts on one address still are


# --- session 16, fix49 G4: torchrun's "[defaultN]:" is a local rank (corpus rule AC (3)) --------------------------
_TOKENISE = "Running tokenizer on dataset (num_proc=8):  41%|████      | 41000/100000 [01:02<01:30, 650 examples/s]\n"
_PACKING = "Packing (num_proc=1):   1%|          | 857140/108919656 [30:00<62:11:24, 476.77 examples/s]\n"


def test_a_bar_behind_a_local_prefix_shown_before_other_global_ranks_names_nobody(tmp_path):
    """Round 49 (ms-swift-4340 under the torchrun-role variant): torchrun's "[defaultN]:" is the LOCAL rank. Where the
    same prefix stands before the tags of other global ranks ("[default0]:[rank7]:", every line given one prefix, or
    a job on several nodes), it is not the global rank, and a data bar behind it names no rank (rule AC (1)): the
    ranks inside the collective are victims, the one they wait for is not shown."""
    for local, ranks, bar, stamp in ((0, (2, 7), _PACKING, ""), (1, (3, 5, 6), _TOKENISE, ""),
                                     (3, (4, 6), _PACKING, "2024-05-01T12:00:01.123456789Z ")):
        text = f"{stamp}[default{local}]:{bar}" + "".join(f"{stamp}[default{local}]:{_wd24(r, 57)}" for r in ranks)
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("rank_missing", []), (local, v)
        assert not _accused(d), (local, d["verdict"])


def test_a_bar_behind_a_local_prefix_that_is_each_processs_global_rank_still_names_it(tmp_path):
    """The near shape: one node, each "[defaultN]:" before its own "[rankN]:" only (local = global): the bar behind
    "[default1]:" is rank 1's, still preparing data while ranks 0 and 2 wait (rule I)."""
    for busy, waiting in ((1, (0, 2)), (3, (0, 1, 2))):
        text = f"[default{busy}]:{_TOKENISE}" + "".join(f"[default{r}]:{_wd24(r, 6)}" for r in waiting)
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("rank_missing", [busy]), v
        assert not _accused(d) & set(waiting), v


# --- session 17 (fix52): DeepEP's barrier_block dump names the peer that never entered (round 52's deepep-570) --------
def _barrier_dump(waiting, peers: int, owed, prefix: str = "", value: int = 1024) -> str:
    """DeepEP's barrier_block timing out (csrc/kernels utils.cuh: printf("DeepEP timeout check failed: rank = %d,
    thread = %d, value = %d)\n", rank, thread_id, value)): every thread of each waiting rank prints the slot of the
    peer it watches; OWED maps a waiting rank to the peers it still shows owed (a set: the same for every one)."""
    return "".join(f"{prefix.format(r=r)}DeepEP timeout check failed: rank = {r}, thread = {t}, "
                   f"value = {value if t in (owed.get(r, ()) if isinstance(owed, dict) else owed) else 0})\n"
                   for r in waiting for t in range(peers))


def test_deepeps_barrier_dump_names_the_peer_every_waiting_rank_still_owes(tmp_path):
    """A rank adds FINISHED_SUM_TAG (1024) to its own slot for each peer and each peer subtracts it on entering, so a
    slot still positive is a peer that never entered. The peers every waiting rank shows owed, while more ranks are
    shown in the barrier, are missing (rank_missing, culprits), the waiting ranks their victims; high with two
    waiting ranks agreeing, medium with one. Other ranks, world sizes, values, orders and prefixes."""
    for waiting, peers, owed, prefix, value, conf in (
            ((6, 2), 8, {5}, "> ", 1024, "high"),
            ((0, 3), 8, {7}, "[default{r}]:", 1024, "high"),
            ((5, 2, 7), 8, {1, 6}, "", 1024, "high"),
            ((4,), 4, {1}, "(EPWorker pid=90{r}1) ", 2048, "medium")):
        d = _report(tmp_path, _barrier_dump(waiting, peers, owed, prefix, value))
        v = d["verdict"]
        assert (v["cause"], v["culprits"], v["confidence"]) == ("rank_missing", sorted(owed), conf), (waiting, v)
        assert _accused(d) == set(owed) and "py-spy dump" in v["fix"] and "barrier_block" in v["fix"], v
    # the kernel traps after its dump: the 'unspecified launch failure' the waiting ranks then raise is its consequence
    trap = "".join(f"[rank{r}]: RuntimeError: CUDA error: unspecified launch failure\n" for r in (0, 3))
    v = _verdict(tmp_path, _barrier_dump((0, 3), 8, {7}, "[default{r}]:") + trap)
    assert (v["cause"], v["culprits"]) == ("rank_missing", [7]), v


def test_deepeps_barrier_dump_names_no_peer_some_waiting_ranks_saw_arrive_nor_a_waiting_rank_alone(tmp_path):
    """The near shapes: a peer owed in one waiting rank's dump but cleared in another's did enter (not named); one
    waiting rank owed by every peer is the odd one itself (it entered a barrier the others did not); the older
    wording without the slot's value names no peer. None of them names a rank; each stays DeepEP's stall."""
    split = _barrier_dump((6, 2), 8, {6: {5}, 2: set()})
    alone = _barrier_dump((4,), 8, {0, 1, 2, 3, 5, 6, 7})
    old = "DeepEP timeout check failed: rank = 6, thread = 0)\nDeepEP timeout check failed: rank = 2, thread = 0)\n"
    for text in (split, alone, old):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("transport_stall", []) and not _accused(d), (text, v)
    # the owed peer's own failure record is its own cause: the exits' detectors read it, still naming that rank
    crashed = (_barrier_dump((2, 6), 8, {5}) + "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n"
               + failure_record(0, 5, 5, -9, 30412))
    v = _verdict(tmp_path, crashed)
    assert v["cause"] != "rank_missing" and v["culprits"] == [5], v


# Lead rule I read from the ranks' own progress lines (round 52's pytorch-nccl-hang-8384637): a phase every rank
# printed, then the next phase printed by all ranks but a few, then only the scheduler's stop: the few never reached
# the step whose collectives the others wait in -- the ranks behind; the time limit only ended the hang.
def _steps(ranks, phase: str, label: str = "srun") -> str:
    if label == "srun":
        return "".join(f"{r:2d}: RANK {r}: {phase}\n" for r in ranks)
    return "".join(f"[rank{r}]: {phase}\n" for r in ranks)


_LIMIT = ("{pre}slurmstepd: error: *** STEP 4242.3 ON nid00{n} CANCELLED AT 2024-03-02T03:58:46 DUE TO TIME LIMIT ***\n"
          "slurmstepd: error: *** JOB 4242 ON nid00{n} CANCELLED AT 2024-03-02T03:58:46 DUE TO TIME LIMIT ***\n")


def test_ranks_that_never_printed_the_step_the_others_did_are_behind_until_the_time_limit(tmp_path):
    order = [5, 1, 7, 0, 3, 6, 2, 4]
    for world, behind, label, done in ((8, [2, 6], "srun", "COMPLETE!"), (16, [13], "rank", "running step 10/10"),
                                       (32, [0, 25], "srun", "COMPLETE!")):
        ranks = order + [r for r in range(8, world)] if world > 8 else order
        text = ("trial 3...\n" + _steps(ranks, done, label) + "trial 4...\n"
                + _steps([r for r in reversed(ranks) if r not in behind], "running step 1/10", label)
                + _LIMIT.format(pre=" 0: " if label == "srun" else "", n=world))
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("rank_missing", behind), (world, v)
        assert _accused(d) == set(behind), d


def test_progress_lines_behind_a_collectors_prefix_still_name_the_ranks_behind(tmp_path):
    """The same shape with a Python logging prefix and a Kubernetes timestamp on every line, world of 12."""
    def pre(s: str) -> str:
        return "".join(f"2024-05-01T10:00:{i % 60:02d}.123Z 2024-05-01 10:00:00,{i:03d} - INFO - {ln}\n"
                       for i, ln in enumerate(s.splitlines()))
    text = pre(_steps(range(12), "running step 4/10") + _steps([r for r in range(12) if r != 9], "running step 5/10"))
    d = _report(tmp_path, text + _LIMIT.format(pre="", n=12))
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("rank_missing", [9]), d["verdict"]
    assert _accused(d) == {9}, d


def test_a_time_limit_with_no_progress_pattern_stays_the_signal(tmp_path):
    """Negatives: every rank printed the last step (nobody behind); a cut paste whose last block is a few scattered
    ranks (most missing: a cut, not ranks behind); no block before it to show the full set."""
    full = _steps(range(8), "COMPLETE!") + _steps(range(8), "running step 1/10")
    cut = _steps(range(8), "COMPLETE!") + _steps([2, 5], "running step 1/10")
    alone = _steps([0, 1, 2, 4, 5, 6, 7], "running step 1/10")
    for text in (full, cut, alone):
        v = _report(tmp_path, text + _LIMIT.format(pre="", n=8))["verdict"]
        assert v["cause"] == "signal" and v["culprits"] == [], (text, v)


# --- session 17 (fix53 L1): gloo uv's own size check on a received message (rules D, AM (1)) ------------------------
@pytest.mark.parametrize("head,path", [
    ("libc++abi: terminating due to uncaught exception of type gloo::EnforceNotMet: ",
     "/Users/runner/work/pytorch/pytorch/pytorch/third_party/gloo/gloo/transport/uv/pair.cc:248"),
    ("[rank5]:   what():  ", "/opt/pytorch/third_party/gloo/gloo/transport/uv/pair.cc:251"),
    ("12:00:01 worker-3 | terminate called after throwing an instance of 'gloo::EnforceNotMet' what(): ",
     "C:/actions-runner/_work/pytorch/third_party/gloo/gloo/transport/uv/pair.cc:262"),
])
def test_gloo_uvs_nread_against_the_announced_size_is_a_desync_naming_nobody(tmp_path, head, path):
    """gloo's uv transport aborts on "op.nread == op.preamble.nbytes" (the bytes read differ from the size the peer
    announced): the two sides' sends and receives do not match, a desync like tcp's "op.preamble.length <=
    op.nbytes" -- nobody named, whatever prefix tags the aborting process (its peer is the other side)."""
    text = ("INFO - Sent package to destination 0, message code 7, content length 1\n"
            f"{head}[enforce fail at {path}] op.nread == op.preamble.nbytes. \n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "desync" and not _accused(d), v
    assert "send/recv sizes" in v["fix"] and "same torch version" in v["fix"], v


def test_gloo_uvs_libuv_call_failing_is_not_read_as_a_size_mismatch(tmp_path):
    """The near shape: gloo's uv transport enforcing a libuv call (uv_accept failing) is the transport's socket, not a
    message size: it must not become a desync."""
    text = ("terminate called after throwing an instance of 'gloo::EnforceNotMet'\n"
            "  what():  [enforce fail at C:/w/pytorch/third_party/gloo/gloo/transport/uv/libuv.h:596] uv_accept: "
            "invalid argument\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] != "desync", v


# --- round 54: Ascend HCCL's wait for a peer inside a collective is the waiting rank's line (rules B, E) -------------
# torch_npu raises "OPS function error: HcclAllreduce, error code is 6" and HCCL's EI0006 says why: "Getting socket
# times out. Reason: Remote Rank did not send the data in time" -- the rank shown was inside the collective, connected,
# and its peer never sent (round 54's vllm-ascend-486)
def _hccl_wait(rank: int, op: str = "HcclAllreduce") -> str:
    lines = ('  File "/env/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", line 2501, in '
             "all_reduce",
             "    work = group.allreduce([tensor], opts)",
             f"RuntimeError: InnerRunOpApi:torch_npu/csrc/framework/OpParamMaker.cpp:281 OPS function error: {op}, "
             "error code is 6",
             f"[ERROR] 2025-06-11-09:42:13 (PID:40811, Device:{rank}, RankID:{rank}) ERR01100 OPS call acl api failed.",
             "EI0006: [PID: 40811] 2025-06-11-09:42:13.120.518 Getting socket times out. Reason: Remote Rank did not "
             "send the data in time. Please check the reason for the rank being stuck")
    return "".join(f"[rank{rank}]: {ln}\n" for ln in lines)


def test_hccls_socket_timeout_inside_a_collective_accuses_nobody(tmp_path):
    for rank in (1, 3):
        d = _report(tmp_path, _hccl_wait(rank))
        v = d["verdict"]
        assert v["cause"] == "rank_missing" and not _accused(d), (rank, v)
        assert "HCCL_EXEC_TIMEOUT" in v["fix"] and "HCCL_CONNECT_TIMEOUT" in v["fix"], v


def test_the_same_hccl_error_without_its_wait_reason_is_the_ranks_own(tmp_path):
    # near shape: the op's error alone, no "Remote Rank did not send": nothing says the rank was waiting for a peer
    text = "".join(ln for ln in _hccl_wait(2).splitlines(keepends=True) if "EI0006" not in ln)
    d = _report(tmp_path, text)
    assert d["verdict"]["cause"] != "rank_missing", d["verdict"]


# --- round 56: HCCL's own watchdog and the device's stuck notify are the waiting rank's lines (rules B, E, AN (2)) --
# torch_npu's ProcessGroupHCCL prints NCCL's watchdog text with WorkHCCL(SeqNum=..., OpType=...); the device's EI9999
# "hccl fftsplus task timeout ... stuck notify" under "ACL stream synchronize failed" is the same wait seen from the
# NPU (round 56's vllm-ascend-382, ascend-pytorch-54)
def test_hccls_watchdog_timeout_is_read_like_nccls(tmp_path):
    msg = ("Watchdog caught collective operation timeout: WorkHCCL(SeqNum=88, OpType=BROADCAST, "
           "Timeout(ms)=1800000) ran for 1800342 milliseconds before timing out.")
    text = (f"[rank3]:[E517 08:14:02.118020331 compiler_depend.ts:574] [Rank 3] {msg}\n"
            "[rank3]:[E517 08:14:02.118092101 compiler_depend.ts:634] To avoid data inconsistency, we are taking the "
            "entire process down.\n"
            f"  what():  [Rank 3] HCCL watchdog thread terminated with exception: [Rank 3] {msg}\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "rank_missing" and not _accused(d), v
    assert "#88 BROADCAST" in v["summary"] or "BROADCAST #88" in v["summary"], v["summary"]
    assert "HCCL_EXEC_TIMEOUT" in v["fix"], v["fix"]


def test_the_npus_stuck_notify_inside_a_collective_accuses_nobody(tmp_path):
    text = ('  File "/env/lib/python3.9/site-packages/torch/distributed/distributed_c10d.py", line 2301, in '
            "all_gather_object\n"
            "RuntimeError: ACL stream synchronize failed.\n"
            "EI9999: Inner Error!\n"
            "EI9999: 2025-02-03-17:20:11.004.212  The error from device(chipId:5, dieId:0), serial number is 2, hccl "
            "fftsplus task timeout occurred during task execution, stream_id:9, sq_id:9, task_id:1204, stuck notify "
            "num:2, timeout:30min(default).[FUNC:ProcessStarsHcclFftsPlusTimeoutErrorInfo]\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "rank_missing" and not _accused(d), v
    assert "HCCL_EXEC_TIMEOUT" in v["fix"], v["fix"]


def test_acls_stream_failure_without_the_stuck_notify_is_not_a_wait(tmp_path):
    # near shape: the synchronize failing alone says nothing of a peer
    d = _report(tmp_path, "RuntimeError: ACL stream synchronize failed.\nEI9999: Inner Error!\n")
    assert d["verdict"]["cause"] != "rank_missing", d["verdict"]


# --- round 62: HCCL's EI0002 Notify Wait timeout is the same wait by HCCL's host side (rules B, E) --------------------
# "The wait execution of the Notify register times out. Reason: The Notify register has not received the Notify record
# from remote rank: [24]" under the rank's own Ascend header: the rank sat in the AllReduce for a peer's record; the
# remote rank is a group-local neighbour that may itself only be waiting (round 62's vllm-ascend-3413)
_EI0002 = ("[ERROR] 2025-10-11-15:09:34 (PID:2969, Device:0, RankID:{rank}) ERR00100 PTA call acl api failed.\n"
           "EI0002: [PID: 2969] 2025-10-11-15:09:34.713.335 The wait execution of the Notify register times out. "
           "Reason: The Notify register has not received the Notify record from remote rank: [24]. base information: "
           "[streamID:[109], taskID[38], taskType[Notify Wait], tag[AllReduce_group_name_1654NHRAllReduceComm_device], "
           "AlgType(level 0-1-2):[ring-NHR-NHR].]\n")


def test_hccls_notify_wait_timeout_inside_a_collective_accuses_nobody(tmp_path):
    for rank in (101, 7):
        d = _report(tmp_path, _EI0002.format(rank=rank))
        v = d["verdict"]
        assert v["cause"] == "rank_missing" and not _accused(d), (rank, v)
        assert "HCCL_EXEC_TIMEOUT" in v["fix"], v["fix"]


def test_the_acl_api_failure_without_the_notify_wait_is_not_a_wait(tmp_path):
    # near shape: the Ascend header alone, no Notify record awaited: nothing says the rank waited for a peer
    d = _report(tmp_path, _EI0002.format(rank=101).splitlines(keepends=True)[0])
    assert d["verdict"]["cause"] != "rank_missing", d["verdict"]


# --- round 62: HCCL's heartbeat detection naming a device whose heartbeat was lost is a peer gone (rules O, AN (2)) --
# the task information of an EI0002 timeout: "Cluster Exception Location[IP/ID]:[h/1], Discoverer:[h/0],
# ExceptionType:[Heartbeat Lost Occurred], Possible Reason:1. Process has exited" -- the lost device left the job while
# the discoverer waited; it is named by host and device, not rank (round 62's ascend-pytorch doc HCCL_timeout)
def _hb(exc: str) -> str:
    return (_EI0002.format(rank=0).splitlines(keepends=True)[1]
            + "there are(is) 1 abnormal device(s):\n"
            + "Cluster Exception Location[IP/ID]:[10.0.0.5/1], Arrival Time:[Thu Nov 28 11:56:34 2024], "
            f"Discoverer:[10.0.0.5/0], ExceptionType:[{exc}], Possible Reason:1. Process has exited, 2. Network "
            "Disconnected\n]\n")


def test_hccls_heartbeat_lost_peer_is_an_early_exit_named_by_device(tmp_path):
    d = _report(tmp_path, _hb("Heartbeat Lost Occurred"))
    v = d["verdict"]
    assert v["cause"] == "early_exit" and not _accused(d), v
    assert "10.0.0.5/1" in v["summary"] and "device 1" in v["fix"], v


def test_hccls_other_exception_type_is_not_a_peer_gone(tmp_path):
    # near shape: the same detection reporting a stuck task, not a lost heartbeat: nothing says the peer left
    d = _report(tmp_path, _hb("Stuck Occurred"))
    assert d["verdict"]["cause"] == "rank_missing" and not _accused(d), d["verdict"]


# --- a dump signal's own timeout pasted hard-wrapped where the cut fell on a blank the copy trimmed ---------------
def _own_dump_signal_wrapped(rank: int, enq: int) -> str:
    """torch 2.6+'s ProcessGroupNCCL.cpp "Received a dump signal due to a collective timeout from this local rank"
    hard-wrapped at the column right after a blank between two words, which the copy trimmed: the first piece is one
    column short of the wrap, every other piece but the last the full width."""
    line = (f"[rank{rank}]:[E1002 10:00:00.570252694 ProcessGroupNCCL.cpp:1746] [PG ID 0 PG GUID 0(default_pg) Rank "
            f"{rank}] Received a dump signal due to a collective timeout from this local rank and we will try our "
            f"best to dump the debug info. Last enqueued NCCL work: {enq}, last completed NCCL work: {enq - 1}.This "
            "is most likely caused by incorrect usages of collectives, e.g., wrong sizes used across ranks, the "
            "order of collectives is not same for all ranks or the scheduled collective, for some reason, didn't run. "
            "Additionally, this can be caused by GIL deadlock or other reasons such as network errors or bugs in the "
            "communications library (e.g. NCCL), etc.")
    width = line.index(" debug info") + 1
    pieces = [line[i:i + width] for i in range(0, len(line), width)]
    assert len(pieces) >= 4 and pieces[0].endswith(" ") and not any(x.endswith(" ") for x in pieces[1:-1])
    return "\n".join(x.rstrip(" ") for x in pieces) + "\n"


def test_a_wrapped_own_dump_signal_whose_cut_blank_was_trimmed_is_read_whole(tmp_path):
    """Lead rules I, B: a rank's own dump signal (its watchdog's collective timeout, work still pending) pasted
    wrapped, the blank at the cut trimmed so its first piece is one column short; torchrun then records that rank's
    SIGABRT and stops the others. The SIGABRT is the watchdog's abort, not a first failure: nobody is accused."""
    text = ("[rank3]:[E1002 10:00:00.500439151 ProcessGroupNCCL.cpp:1536] [PG ID 0 PG GUID 0(default_pg) Rank 3] "
            "ProcessGroupNCCL preparing to dump debug info. Include stack trace: 1\n"
            + _own_dump_signal_wrapped(2, 123456)
            + "".join(f"W1002 10:00:01.128000 77 site-packages/torch/distributed/elastic/multiprocessing/api.py:900] "
                      f"Sending process {p} closing signal SIGTERM\n" for p in (80, 82, 83))
            + "E1002 10:00:01.163000 77 site-packages/torch/distributed/elastic/multiprocessing/api.py:874] failed "
              "(exitcode: -6) local_rank: 2 (pid: 81) of binary: /usr/bin/python3\n")
    d = _report(tmp_path, text)
    assert d["verdict"]["cause"] == "rank_missing", d["verdict"]
    assert 2 not in _accused(d), d["verdict"]


# --- Ray's actor death glued before a rank's watchdog timeout on one line ------------------------------------------
def test_a_ray_actor_death_glued_before_a_timeout_is_the_first_failure(tmp_path):
    """Lead rules AD (2), AU (1): ActorDiedError's "worker process has died ... connection error code 2. End of file"
    and a rank's watchdog timeout pasted on one line (the driver's paste lost its line breaks): a process shown dying
    on its own, with no cause given, is the first failure -- cause unknown, the timing-out rank innocent."""
    death = ("7 ip: 10.2.3.4 The actor is dead because its worker process has died. Worker exit type: SYSTEM_ERROR "
             "Worker exit detail: Worker unexpectedly exits with a connection error code 2. End of file. There are "
             "some potential root causes. (1) The process is killed by SIGKILL by OOM killer due to high memory usage. "
             "(2) ray stop --force is called. (3) The worker is crashed unexpectedly due to SIGSEGV or other "
             "unexpected errors. ")
    line = _ray("PolicyRayActor", 512, watchdog_line(5, 20417, "ALLREDUCE", 1800077, 1800000, numel=16, pg="PG 2"),
                times=3)
    d = _report(tmp_path, death + line)
    assert d["verdict"]["cause"] == "unknown", d["verdict"]
    assert 5 not in _accused(d), d["verdict"]


# --- a rank's own error exit before a subgroup's timeout: rule A reads its exit ------------------------------------
def test_a_rank_exiting_with_code_1_before_a_subgroup_timeout_is_read_by_its_exit(tmp_path):
    """Lead rule A: torchrun's record names one rank exiting with code 1 (its own exception, not shown); minutes
    later another rank times out in an early collective of a two-rank subgroup whose other member is gone. The
    exited rank is the culprit, the cause its unseen exception (unknown), not a rank that never arrived."""
    record = ("torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n" + "=" * 40
              + "\ntrain.py FAILED\n" + "-" * 40 + "\nFailures:\n  <NO_OTHER_FAILURES>\n" + "-" * 40
              + "\nRoot Cause (first observed failure):\n"
              + failure_record(0, 6, 2, 1, 40213, time="2025-01-02_10:00:00", host="node-b") + "=" * 40 + "\n"
              + "srun: error: node-b: task 1: Exited with exit code 1\n")
    timeout = (watchdog_line(1, 2, "_ALLGATHER_BASE", 600002, 600000, numel=(1, 2), stamp="E102 10:10:00.000000000")
               + "[rank1]:[E102 10:10:00.000200000 ProcessGroupNCCL.cpp:1664] [PG 1 Rank 1] Exception (either an "
                 "error or timeout) detected by watchdog at work: 2, last enqueued NCCL work: 3, last completed NCCL "
                 "work: 1.\n")
    d = _report(tmp_path, record + timeout)
    assert d["verdict"]["cause"] == "unknown", d["verdict"]
    assert d["verdict"]["culprits"] == [6], d["verdict"]
    # the rank timing out in the subgroup is shown as the exited rank's victim (not merely left unnamed)
    assert next(r["role"] for r in d["ranks"] if r["rank"] == 1).startswith("victim"), d["ranks"]


# --- session 22, fix63 g1: a SIGABRT record of a rank not shown, beside watchdogs that abort (rule I's limit) ---------
def _first_seq_with_abort(world: int, code_line: str) -> str:
    """Ranks 1 and 2 of a world of WORLD (NCCL's nranks) time out in the group's first ALLREDUCE and abort; then
    PALS's mpiexec records rank 0's end (CODE_LINE) and rank 1 stopped by SIGTERM."""
    out = [nccl_info("x3200c0s19b1n0", 191643, 2, f"comm 0x55aa rank 2 nranks {world} cudaDev 2 nvmlDev 2 busId "
                     "85000 commId 0xfa - Init COMPLETE")]
    for r in (1, 2):
        out.append(f"[rank{r}]:[E ProcessGroupNCCL.cpp:1414] [PG 0 Rank {r}] Process group watchdog thread terminated "
                   f"with exception: [Rank {r}] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, "
                   "OpType=ALLREDUCE, NumelIn=1048576, NumelOut=1048576, Timeout(ms)=120000) ran for 12009"
                   f"{r} milliseconds before timing out.\n")
    out.append(f"x3200c0s19b1n0.hsn.cm.sirius.alcf.anl.gov: rank 0 {code_line}\n")
    out.append("x3200c0s19b1n0.hsn.cm.sirius.alcf.anl.gov: rank 1 died from signal 15\n")
    return "".join(out)


def test_a_pals_sigabrt_of_a_silent_rank_beside_aborting_watchdogs_is_not_named(tmp_path):
    """alcf-nccl-tests-pytests: a world of 8, ranks 1 and 2 time out in SeqNum=1 and their watchdogs abort; PALS
    records rank 0 'exited with code 134' (a wrapper shell's 128 + SIGABRT): the same abort the watchdogs take, and
    ranks 3..7 are not shown either, so rank 0 is not read as a lone first failure (rule I's limit, rule H)."""
    for code_line in ("exited with code 134", "died from signal 6 and dumped core"):
        d = _report(tmp_path, _first_seq_with_abort(8, code_line))
        assert d["verdict"]["cause"] == "rank_missing", d["verdict"]
        assert not _accused(d) & {0, 1, 2}, d["verdict"]


def test_a_pals_exit_of_its_own_or_the_one_absent_rank_is_still_named(tmp_path):
    """Near shapes: rank 0 exiting with code 1 (its own error, no abort) is still the rank the others waited for
    (rule I); and a SIGABRT of rank 0 in a world of 3, where it is the one rank not inside, still names it."""
    d = _report(tmp_path, _first_seq_with_abort(8, "exited with code 1"))
    assert 0 in _accused(d), d["verdict"]
    d = _report(tmp_path, _first_seq_with_abort(3, "exited with code 134"))
    assert _accused(d) == {0}, d["verdict"]


_MAP_BAR = ("Map (num_proc=14):  70%|" + "█" * 66 + "▌" + " " * 28 + "| 652383/930514 [6:39:53<4:31:33, 17.07 "
            "examples/s]")
_GLOO_WAIT = ("[E ProcessGroupGloo.cpp:138] Rank {w} successfully reached monitoredBarrier, but received errors while "
              "waiting for send/recv from rank 0. Please check rank 0 logs for faulty rank.\n")


def test_a_barrier_waiter_beside_an_untagged_map_bar_still_running_names_nobody(tmp_path):
    """deepspeed-4488: rank 3 reached the monitored barrier and got errors from rank 0 (its original exception not
    shown) while an untagged datasets Map bar (a long one, wider than 80 characters) was at 70%: a process busy
    before the barrier (rule I's rank_missing), which names no rank (AC (1)); rank 0 is not the one rank that can
    be absent (ranks 1 and 2 are not shown, AO), so nobody is named and rank 3 is innocent."""
    d = _report(tmp_path, "Loading checkpoint shards: 100%|" + "█" * 100 + "| 2/2 [00:27<00:00, 13.69s/it]\n"
                + _MAP_BAR + _GLOO_WAIT.format(w=3))
    assert d["verdict"]["cause"] == "rank_missing", d["verdict"]
    assert not _accused(d), d["verdict"]


def test_a_barrier_waiter_with_no_busy_bar_or_only_rank0_absent_still_names_rank0(tmp_path):
    """Near shapes: the same waiter with no data bar still names rank 0 (rule U (4), as xtuner-944); and with the bar
    but rank 1 the only waiter (rank 0 the one rank that can be absent), rank 0 is still named."""
    assert _accused(_report(tmp_path, _GLOO_WAIT.format(w=3))) == {0}
    assert _accused(_report(tmp_path, _MAP_BAR + _GLOO_WAIT.format(w=1))) == {0}


def test_ranks_0_to_3_timing_out_without_a_seqnum_are_an_excerpt_not_the_whole_job(tmp_path):
    """Rule AI (4) / B (steerer-20): an older torch's watchdog lines carry no SeqNum, so ranks 0-3 each timing out
    in an ALLREDUCE with no world size printed are not shown inside one collective of a whole job: rank_missing,
    nobody named. The same four ranks with one SeqNum stay lead rule B's whole job (transport_stall)."""
    old = "".join(f"[E ProcessGroupNCCL.cpp:587] [Rank {r}] Watchdog caught collective operation timeout: "
                  f"WorkNCCL(OpType=ALLREDUCE, Timeout(ms)=3600000) ran for 360610{r} milliseconds before timing out.\n"
                  for r in (1, 3, 0, 2))
    d = _report(tmp_path, old)
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("rank_missing", []), d["verdict"]
    assert not _accused(d)
    seq = _report(tmp_path, "".join(_wd24(r, 8811, "ALLREDUCE", "NumelIn=262144, NumelOut=262144")
                                    for r in (1, 3, 0, 2)))
    assert (seq["verdict"]["cause"], seq["verdict"]["culprits"]) == ("transport_stall", []), seq["verdict"]
