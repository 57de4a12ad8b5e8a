"""Review 96's findings 1 and 3 (session 38, fixer x2): the job-print readers of round 96's fixes read a finished
barrier or a float64 tensor as a failure.

- Finding 1: the job's subgroup prints at a barrier ("0 before barrier: [0, 1]") with one member's "done" printed more
  than the follow lines after the enter prints, or with the job printing on after the barrier (loading, training):
  nothing failing, not transport_stall. The shape the fix was for -- the prints end the input with members never past
  (pytorch-130102) -- is still transport_stall.
- Finding 3: a received tensor printed with another dtype than float32 (float64's 1e-300), or a float32 subnormal that
  underflow reaches (1e-40, no whole multiple of float32's smallest subnormal): nothing failing, not desync. A small
  integer's bit pattern in a float32 receive ("2.8026e-45", pytorch-pr110408) is still desync.
"""
from __future__ import annotations

from ncclDoctor.diagnose import diagnose
from tests.conftest import accused, verdict_accused


# --- finding 1: a subgroup barrier that completed ---------------------------------------------------------------------
def _enter(ids: list[int], members: list[int], tag: str = "") -> str:
    return "".join(f"{tag}{who} before barrier: {members}\n" for who in ids)


def test_a_done_printed_past_the_follow_lines_is_no_stall(tmp_path):
    # review 96 finding 1's p_grp2.log: both processes print done, the second 11 lines after the first
    for tag, filler, n in (("", "loading shard {}", 10), ("rank ", "[data] reading file part-{}.parquet", 14)):
        text = (_enter([0, 1], [0, 1], tag) + f"{tag}0 done\n" + "".join(filler.format(i) + "\n" for i in range(n))
                + f"{tag}1 done\n")
        v, acc = verdict_accused(tmp_path, text)
        assert v["cause"] == "none" and not acc, (tag, v)


def test_a_job_that_went_on_past_the_barrier_is_no_stall(tmp_path):
    # review 96 finding 1's p_grp.log: one "done" missing from the lines, the job trains on after the barrier
    for tail in ("epoch 0 step 10 loss 2.1\n", "Saving checkpoint to /ckpt/step_100\nstep 100 | loss 1.873\n"):
        text = _enter([0, 3, 1, 2], [0, 1, 2, 3], "rank ") + "rank 0 done\nrank 2 done\n" + tail
        v, acc = verdict_accused(tmp_path, text)
        assert v["cause"] == "none" and not acc, (tail, v)


def test_a_stuck_process_own_log_that_goes_on_is_no_stall(tmp_path):
    # each process's own log: process 1 prints no "done" but its own log goes on training after its enter print
    (tmp_path / "rank0.log").write_text("0 before barrier: [0, 1]\n0 done\nstep 1 loss 0.9\n")
    (tmp_path / "rank1.log").write_text("1 before barrier: [0, 1]\nstep 1 loss 0.9\nstep 2 loss 0.8\n")
    d = diagnose([str(tmp_path)]).results["diagnose"]
    assert d["verdict"]["cause"] == "none" and not accused(d), d["verdict"]


def test_the_prints_ending_the_input_with_members_never_past_stay_a_stall(tmp_path):
    # the shape the fix was for (pytorch-130102): the prints end the input, a member of each group past, others not
    for end in ("", "\n\n", "\n```\n"):
        text = ("```\n" + _enter([2, 0], [0, 2]) + _enter([1, 3], [1, 3]) + "\n2 done\n3 done\n" + end)
        v, acc = verdict_accused(tmp_path, text)
        assert v["cause"] == "transport_stall" and v["culprits"] == [] and not acc, (end, v)
        assert "never do" in v["summary"] or "never does" in v["summary"], v


def test_a_late_done_of_one_member_keeps_the_others_stuck(tmp_path):
    # a "done" read from the input's last lines only (past the follow lines) counts; the members with none stay stuck
    text = _enter([0, 1, 2, 3], [0, 1, 2, 3]) + "0 done\n" + "\n" * 9 + "1 done\n"
    v, _ = verdict_accused(tmp_path, text)
    assert v["cause"] == "transport_stall", v
    assert "processes 0, 1 --" in v["summary"] and "while 2, 3 never do" in v["summary"], v


def test_per_process_logs_ending_at_the_barrier_stay_a_stall(tmp_path):
    (tmp_path / "rank0.log").write_text("step 0 loss 1.0\n0 before barrier: [0, 1]\n0 done\n")
    (tmp_path / "rank1.log").write_text("step 0 loss 1.0\n1 before barrier: [0, 1]\n")
    d = diagnose([str(tmp_path)]).results["diagnose"]
    assert d["verdict"]["cause"] == "transport_stall" and not accused(d), d["verdict"]


# --- finding 3: a received tensor of another dtype, or an underflow value ---------------------------------------------
def test_a_received_float64_tensor_is_no_desync(tmp_path):
    # review 96 finding 3's p_f64.log, and the same with a device and a receive label of another wording
    for line in ("rank 1 received: tensor([1.0000e-300, 2.5000e-301], dtype=torch.float64)\n",
                 "1:recv_tensor=tensor([2.8026e-45, 0.0000e+00], device='cuda:1', dtype=torch.float64)\n",
                 "irecv buf: tensor([3.3000e-42], device='cuda:0', dtype=torch.double)\n"):
        v, acc = verdict_accused(tmp_path, line + "rank 1 step done\n")
        assert v["cause"] == "none" and not acc, (line, v)


def test_a_float32_underflow_value_is_no_desync(tmp_path):
    # float32 subnormals that underflow reaches: no whole multiple of float32's smallest subnormal
    for vals in ("1.0000e-40, 2.0000e-41", "3.1416e-39", "-5.0000e-42, 0.0000e+00"):
        v, acc = verdict_accused(tmp_path, f"rank 0 received: tensor([{vals}], device='cuda:0')\n")
        assert v["cause"] == "none" and not acc, (vals, v)


def test_an_integer_bit_pattern_in_a_float32_receive_stays_a_desync(tmp_path):
    # the shape the fix was for (pytorch-pr110408): 2.8026e-45 is the integer 2, 4.2039e-45 the integer 3
    for line, n in (("1:recv_tensor=tensor([2.8026e-45, 0.0000e+00], device='cuda:1')\n", 2),
                    ("rank 2 received: tensor([4.2039e-45, 1.4013e-45], device='cuda:2', dtype=torch.float32)\n", 3),
                    ("recv: tensor([1.4013e-44])\n", 10)):
        v, acc = verdict_accused(tmp_path, line)
        assert v["cause"] == "desync" and v["culprits"] == [] and not acc, (line, v)
        assert f"the integer {n} read as a float" in v["summary"], v
