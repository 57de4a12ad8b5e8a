"""Hangs and stalls round 108 missed, and two ranks' exit records read as nothing (session 45; rules B, E, H, I, J,
AC (1), AM (2), BO (2), BW (1), CF (1)).

- Horovod's stall inspector's warning printed alone ("One or more tensors were submitted to be reduced, gathered or
  broadcasted by subset of ranks and are waiting for remainder of ranks for more than 60 seconds.", horovod-2843):
  rank_missing, nobody named, low; the fix names the stall inspector's knobs. The warning followed by its "Missing
  ranks:" list keeps naming the listed rank; a sentence that only quotes "remainder of ranks" is no warning.
- A data preparation bar whose own text names its rank ("Rank 0, running tokenizer on train_dataset (num_proc=16):
  30% | 48000/157712 [07:55<02:22, ...]", its glyphs dropped by the paste) while other ranks' HCCL watchdogs time out
  (mindspeed-rank0-tokenizing): that rank is the culprit (rule I), the waiting ranks innocent; the fix adds HCCL's own
  timeouts. The same bar with no rank in its text names nobody (rule AC (1)); a launcher's "[rankN]:" prefix wins
  over the bar's own words.
- HCCL's P2P connection set-up timing out between two devices (EI9999 "connected p2p timeout, timeout:600 s.local
  logicDevid:0,remote physic id:7 ... [FUNC:WaitP2PConnected]", mindspore-p2p-timeout): rank_missing, culprits
  unknown (rule BO (2)); the fix names the remote device. Another EI9999 inner error is not that wait.
- torchrun's failure record flattened onto one line (a Space's runtime-error box, hf-space-daresearch): cut back into
  its lines, two workers exiting with 1 read as a shared failure (unknown, nobody); under accelerate launch the fix
  adds its own switches. A line that only mentions ChildFailedError is not cut.
"""
from __future__ import annotations

from ncclDoctor.diagnose import signatures as S
from ncclDoctor.diagnose.parse import LineParser
from tests.conftest import diagnose_text
from tests.conftest import verdict_accused as _verdict


# --- Horovod's stall warning, alone ----------------------------------------------------------------------------------
def _hvd_warn(secs: int, head: str) -> str:
    return (f"{head}One or more tensors were submitted to be reduced, gathered or broadcasted by subset of ranks and "
            f"are waiting for remainder of ranks for more than {secs} seconds. This may indicate that different ranks "
            "are trying to submit different tensors or that only subset of ranks is submitting tensors, which will "
            "cause deadlock. \n")


def test_horovod_stall_warning_alone_is_a_missing_rank_nobody_named(tmp_path):
    for text in (_hvd_warn(120, "[2022-11-02 08:14:51.002315: W horovod/common/stall_inspector.cc:107] "),
                 _hvd_warn(45, "[1]<stderr>:[2023-01-09 17:00:03.917: W /opt/horovod/common/stall_inspector.cc:"
                               "105] "),
                 "Epoch 3/40\n" + _hvd_warn(300, "[2021-07-21 02:11:40.123456: W horovod/common/stall_inspector.cc:"
                                                 "105] ")):
        v, acc = _verdict(tmp_path, text)
        assert (v["cause"], v["culprits"], v["confidence"]) == ("rank_missing", [], "low") and not acc, v
        assert "HOROVOD_STALL_CHECK_TIME_SECONDS" in v["fix"] and "py-spy dump of every rank" in v["fix"], v


def test_horovod_stall_warning_with_its_missing_ranks_list_keeps_naming_the_rank(tmp_path):
    warn = _hvd_warn(60, "[2023-06-26 07:23:58.477178: W horovod/common/stall_inspector.cc:105] ")
    ev = LineParser("job.log").parse(1, warn.strip())
    assert ev is not None and ev.kind == "hvd_stall_warn" and ev.data["waited_s"] == 60, ev
    v, acc = _verdict(tmp_path, warn + "Missing ranks:\n2: [allreduce.layer4.1.bn2.weight, allreduce.fc.bias]\n")
    assert (v["cause"], v["culprits"]) == ("rank_missing", [2]) and acc == {2}, v


def test_a_sentence_quoting_remainder_of_ranks_is_no_stall_warning(tmp_path):
    assert S.R_HVD_STALL_WARN.search(_hvd_warn(90, "")) is not None
    line = "note: the scheduler keeps the remainder of ranks for more than 60 seconds in its queue"
    assert S.R_HVD_STALL_WARN.search(line) is None
    assert LineParser("job.log").parse(1, line) is None
    v, acc = _verdict(tmp_path, line + "\n")
    assert v["cause"] == "none" and not acc, v


# --- a rank's own data preparation bar while the others' HCCL watchdogs time out ------------------------------------
def _hccl_watchdog(rank: int, seq: int, ran: int) -> str:
    return (f"[E compiler_depend.ts:421] [Rank {rank}] Watchdog caught collective operation timeout: "
            f"WorkHCCL(SeqNum={seq}, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for {ran} milliseconds before timing "
            "out.\n")


def _own_bar(rank: int, pct: int) -> str:
    return (f"Rank {rank}, running tokenizer on eval_split (num_proc=8): {pct}% | {pct * 1000}/100000 "
            f"[12:03<31:10, 131.07 examples/s]\n")


def test_a_bar_naming_its_own_rank_names_the_rank_still_tokenising(tmp_path):
    text = ("INFO:train:building the dataset\n" + _own_bar(2, 41) + _hccl_watchdog(0, 27, 1800211)
            + "[E compiler_depend.ts:475] Some HCCL operations have failed or timed out.\n"
            + _hccl_watchdog(3, 27, 1800274) + _hccl_watchdog(1, 27, 1800290))
    v, acc = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"], v["confidence"]) == ("rank_missing", [2], "medium") and acc == {2}, v
    assert "HCCL_EXEC_TIMEOUT / HCCL_CONNECT_TIMEOUT" in v["fix"], v


def test_a_glyphless_bar_with_no_rank_in_its_text_names_nobody(tmp_path):
    p = LineParser("job.log")
    p.parse(1, "Running tokenizer on eval_split (num_proc=8): 41% | 41000/100000 [12:03<31:10, 131.07 examples/s]")
    assert [(r, e.data["pct"], e.data["done"]) for r, e in p.bars.items()] == [(None, 41, False)]
    text = ("Running tokenizer on eval_split (num_proc=8): 41% | 41000/100000 [12:03<31:10, 131.07 examples/s]\n"
            + _hccl_watchdog(3, 27, 1800274) + _hccl_watchdog(1, 27, 1800290))
    v, acc = _verdict(tmp_path, text)
    assert v["cause"] == "rank_missing" and not acc, v


def test_a_launchers_rank_prefix_wins_over_the_bars_own_words():
    p = LineParser("job.log")
    p.parse(1, "[rank5]: Rank 0, running tokenizer on train (num_proc=4): 12%|█▏        | 1200/10000 [00:40<04:53, "
               "30.0 examples/s]")
    assert list(p.bars) == [5], p.bars
    q = LineParser("job.log")
    q.parse(1, "[default1]:Rank 6, running tokenizer on train (num_proc=4): 12%|█▏        | 1200/10000 [00:40<04:53, "
               "30.0 examples/s]")
    assert list(q.bars) == [6] and "role" not in q.bars[6].data, q.bars


# --- HCCL's P2P connection set-up timing out -------------------------------------------------------------------------
def _p2p(secs: int, local: int, remote: int) -> str:
    return (f"EI9999 connected p2p timeout, timeout:{secs} s.local logicDevid:{local},remote physic id:{remote} The "
            "possible causes are as follows:1.the connection between this device and the target device is abnormal "
            "2.an exception occurred at the target devices 3.The ranktable is not matched.[FUNC:WaitP2PConnected]"
            "[FILE:p2p_mgmt.cc][LINE:301]\n")


def test_hccl_p2p_connect_timeout_is_a_first_collective_wait_naming_the_device(tmp_path):
    text = ("RuntimeError: Preprocess failed before run graph 3.\n- Ascend Error Message:\nEI9999: Inner Error!\n"
            + _p2p(1200, 3, 5) + "TraceBack (most recent call last):\n"
            "error msg: davinci_model : load task fail, return ret: 1343225860, the task is Default/AllReduce-op77\n")
    v, acc = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("rank_missing", []) and not acc, v
    assert "physical device 5" in v["fix"] and "HCCL_CONNECT_TIMEOUT" in v["fix"], v
    ev = LineParser("job.log").parse(1, _p2p(600, 1, 6).strip())
    assert ev.kind == "watchdog_timeout" and ev.data["hccl_p2p"] and ev.data["remote_device"] == 6, ev.data


def test_another_ei9999_inner_error_is_not_the_p2p_wait(tmp_path):
    line = ("EI9999 kernel launch failed, the stream is aborted.[FUNC:ReportInnerError][FILE:log_inner.cpp]"
            "[LINE:145]")
    ev = LineParser("job.log").parse(1, line)
    assert ev is None or ev.kind != "watchdog_timeout", ev
    assert LineParser("job.log").parse(1, _p2p(900, 0, 2).strip()).kind == "watchdog_timeout"
    d = diagnose_text(tmp_path, "EI9999: Inner Error!\n" + line + "\n")
    assert not d["events"].get("watchdog_timeout"), d["events"]


# --- torchrun's failure record flattened onto one line ---------------------------------------------------------------
def _flat(script: str, frames: str, entries: list[tuple[int, int, int]]) -> str:
    fails = " ".join(f"[{i}]: time : 2025-03-04_11:02:{17 + i} host : node-a7 rank : {r} (local_rank: {r}) "
                     f"exitcode : 1 (pid: {pid}) error_file: <N/A>" for i, (r, pid, _) in enumerate(entries))
    return (f"Exit code: 1. Reason: cessing/api.py:833] failed (exitcode: 1) local_rank: {entries[0][2]} (pid: "
            f"{entries[0][1] - 2}) of binary: /opt/conda/bin/python3 Traceback (most recent call last): {frames}"
            "File \"/opt/conda/lib/python3.10/site-packages/torch/distributed/launcher/api.py\", line 263, in "
            "launch_agent raise ChildFailedError( torch.distributed.elastic.multiprocessing.errors.ChildFailedError: "
            f"============================================================ {script} FAILED "
            f"------------------------------------------------------------ Failures: {fails}\n")


_ACCEL = ("File \"/opt/conda/lib/python3.10/site-packages/accelerate/commands/launch.py\", line 1004, in "
          "multi_gpu_launcher distrib_run.run(args) ")


def test_a_flattened_record_of_two_exits_is_a_shared_failure(tmp_path):
    from ncclDoctor.diagnose.ingest import record_pieces

    text = _flat("sft_qlora.py", _ACCEL, [(2, 310, 0), (5, 313, 5)])
    pieces = record_pieces(text.strip())
    assert pieces is not None and "Failures:" in pieces and "rank : 5 (local_rank: 5)" in pieces, pieces
    v, acc = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "accelerate launch --num_processes 1" in v["fix"] and "accelerate launch --debug" in v["fix"], v


def test_a_flattened_record_without_accelerate_gets_no_accelerate_words(tmp_path):
    v, acc = _verdict(tmp_path, _flat("pretrain.py", "", [(1, 4410, 3), (6, 4415, 6)]))
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "accelerate launch --debug" not in v["fix"], v


def test_a_line_only_mentioning_child_failed_error_is_not_cut():
    from ncclDoctor.diagnose.ingest import record_pieces

    line = ("see the ChildFailedError: section of the docs, then Failures: for each exitcode and rank : fields; "
            "File \"a.py\", line 3, in f ------------------------------------------------------------ done")
    assert record_pieces(line) is None
    assert len(record_pieces(_flat("t.py", _ACCEL, [(0, 9, 0), (1, 10, 1)]).strip())) > 10
