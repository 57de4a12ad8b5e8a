"""Watchdog and grad-norm shapes round 104 showed read by their shape (rules B, E, H, S, AC (1), AH (1), D):

- a watchdog timeout pasted as two lines, its "WorkNCCL(SeqNum=1, ..., Timeout(ms)=600000)" on one and "ran for N
  milliseconds before timing out" on the next, with no "Watchdog caught" head, no rank tag and no world size
  (deepspeed-course-17): the two lines are one timeout (parse's cut join), and one untagged process timing out in its
  group's first collective shows one process of a collective of at least two -- rule H's rank not shown:
  rank_missing, nobody named (it was nothing at all, then connection set-up). Several untagged lines keep
  connection set-up (they may be the whole world); a WorkNCCL(...) line followed by anything else stays nothing.
- a watchdog line whose Timeout(ms) the ran-for fits as seconds ("Timeout(ms)=1800) ran for 1808499 milliseconds":
  nora-8): a timeout pasted without its zeros or given in the wrong unit, noticed on time -- not a watchdog thread
  stuck 30 minutes (watchdog_blocked); the lone untagged timeout is rules B/E's rank_missing. A ran-for far past the
  timeout even read as seconds stays watchdog_blocked.
- fairseq's grad-norm table ("grad_norm across the workers:" and a "rank N = X" line per worker) pasted without the
  "gradients are inconsistent between workers" error above it (fairseq-3920): that error's own text, a check over
  reduced values -- cause unknown, nobody named, the inconsistent-norms fix (it was none). A logged grad_norm value
  on a line of its own is no such table.
"""
from __future__ import annotations

from tests.conftest import verdict_accused as _verdict


# --- a WorkNCCL(...) line whose "ran for" tail a paste put on the next line ------------------------------------------
def _split_work(seq: int, op: str, numel: int, timeout: int, ran: int, tail: str | None = None) -> str:
    return (f"WorkNCCL(SeqNum={seq}, OpType={op}, NumelIn={numel}, NumelOut={numel}, Timeout(ms)={timeout})\n"
            + (tail if tail is not None else f"  ran for {ran} milliseconds before timing out") + "\n")


def test_a_split_untagged_first_collective_timeout_is_a_rank_not_shown(tmp_path):
    for seq, op, numel, timeout, ran in ((1, "ALLREDUCE", 1, 600000, 721595), (2, "BROADCAST", 4, 1800000, 1805123)):
        v, acc = _verdict(tmp_path, _split_work(seq, op, numel, timeout, ran))
        assert (v["cause"], v["culprits"]) == ("rank_missing", []) and not acc, v
        assert "NCCL_DEBUG=INFO" in v["fix"], v


def test_a_work_line_without_its_ran_for_tail_stays_nothing(tmp_path):
    v, acc = _verdict(tmp_path, _split_work(1, "ALLREDUCE", 1, 600000, 0, tail="step 12 loss 3.21"))
    assert v["cause"] == "none" and not acc, v


def test_several_untagged_first_collective_timeouts_keep_connection_setup(tmp_path):
    line = ("Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, NumelIn=1, "
            "NumelOut=1, Timeout(ms)=600000) ran for {} milliseconds before timing out\n")
    v, acc = _verdict(tmp_path, line.format(604211) + line.format(604388))
    assert v["cause"] == "network_setup" and not acc, v


# --- a Timeout(ms) that the ran-for fits as seconds -------------------------------------------------------------------
_WD = ("Watchdog caught collective operation timeout: WorkNCCL(OpType={op}, Timeout(ms)={to}) ran for {ran} "
       "milliseconds before timing out\n")


def test_a_timeout_pasted_without_its_zeros_is_no_blocked_watchdog(tmp_path):
    for op, to, ran in (("BROADCAST", 1800, 1808499), ("ALLGATHER", 3600, 3604120)):
        v, acc = _verdict(tmp_path, _WD.format(op=op, to=to, ran=ran))
        assert (v["cause"], v["culprits"]) == ("rank_missing", []) and not acc, v


def test_a_watchdog_late_even_read_in_seconds_stays_blocked(tmp_path):
    for to, ran in ((600000, 2405123), (1800, 2700000)):
        v, acc = _verdict(tmp_path, _WD.format(op="BROADCAST", to=to, ran=ran))
        assert v["cause"] == "watchdog_blocked" and not acc, v


# --- fairseq's grad-norm table alone ----------------------------------------------------------------------------------
def test_fairseqs_grad_norm_table_alone_is_its_inconsistent_check(tmp_path):
    for norms in ((11.16489500, 10.57914402), (3.25, 3.5, 2.75)):
        text = "grad_norm across the workers:\n" + "".join(f"rank {r:3d} = {n:.8f}\n" for r, n in enumerate(norms))
        v, acc = _verdict(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
        assert "--ddp-backend=no_c10d" in v["fix"], v


def test_a_logged_grad_norm_value_is_no_table(tmp_path):
    v, acc = _verdict(tmp_path, "epoch 001 | grad_norm across the workers: 11.165 | lr 0.0005\n")
    assert v["cause"] == "none" and not acc, v


def test_a_timeout_under_a_second_keeps_the_tiny_timeout_reading(tmp_path):
    v, acc = _verdict(tmp_path, _WD.format(op="ALLGATHER", to=600, ran=605123))
    assert v["cause"] == "config" and not acc, v


def test_every_rank_tagged_in_the_first_collective_keeps_connection_setup(tmp_path):
    line = ("[E ProcessGroupNCCL.cpp:474] [Rank {r}] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, "
            "OpType=BROADCAST, NumelIn=4096, NumelOut=4096, Timeout(ms)=600000) ran for {ran} milliseconds before "
            "timing out.\n")
    v, acc = _verdict(tmp_path, line.format(r=0, ran=600081) + line.format(r=1, ran=600090))
    assert v["cause"] == "network_setup" and not acc, v
