"""Round 78's hang shapes.

funasr-332: torch 1.9-1.10's "[Rank 0] Caught collective operation timeout" cut inside its last word by the paste
("... operation timeou"), under DDP's constructor's first collective. It is the same tagged watchdog message (nothing
else torch prints starts so): rank 0 waited in the collective, a victim; one rank shown of a DDP world is rule H's
rank_missing, nobody named (rules B, E). Read as an unknown RuntimeError, rank 0 was accused by rule A -- the worst
miss. Near shapes: the words cut earlier, or without the rank tag, are not read so.

physicsnemo-691: ranks 2 and 3 time out at one SeqNum of one ALLREDUCE, rank 2's line cut inside its WorkNCCL(...)
before NumelOut. A size a line does not show is not another size: both are inside the same collective, two ranks of
four shown -- rule E's rank_missing, not a desync. Near shape: two NumelOuts both shown and different stay rule D's.

RL-2462: ranks 1 and 5's own lines ("DTensorPolicyWorkerV2[rank=5]: offload_after_refit/model_to_cpu/
move_to_device_done after 4106.03s") report a step that took longer than the 600 s the waiting rank's collective ran
before its watchdog fired ("[rank3] Watchdog caught collective operation timeout:", its WorkNCCL(...) on the next
line): they were still working outside the collective -- rule I, culprits [1, 5]. Near shape: a step shorter than
the timeout names nobody.
"""
from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report

_TB = ("Traceback (most recent call last):\n"
       '  File "train.py", line 236, in run\n'
       "    model = torch.nn.parallel.DistributedDataParallel(model, device_ids=[0])\n"
       '  File "/usr/lib/python3.7/site-packages/torch/distributed/utils.py", line 89, in '
       "_verify_param_shape_across_processes\n"
       "    return dist._verify_params_across_processes(process_group, tensors, logger)\n")


def test_a_tagged_timeout_line_cut_inside_its_last_word_is_a_waiting_rank(tmp_path):
    for cut in ("timeou", "time", "t"):
        d = _report(tmp_path, _TB + f"RuntimeError: [Rank 0] Caught collective operation {cut}\n")
        v = d["verdict"]
        assert v["cause"] == "rank_missing" and not _accused(d), (cut, v)


def test_the_words_cut_earlier_or_untagged_are_not_a_timeout(tmp_path):
    for tail in ("RuntimeError: [Rank 0] Caught collective oper\n",
                 "RuntimeError: Caught collective operation timeou\n"):
        d = _report(tmp_path, _TB + tail)
        assert d["verdict"]["cause"] != "rank_missing", (tail, d["verdict"])


_W = ("[rank{r}]:[E1016 03:33:45.3 ProcessGroupNCCL.cpp:568] [Rank {r}] Watchdog caught collective operation timeout: "
      "WorkNCCL(SeqNum=50, OpType=ALLREDUCE, NumelIn=1, {tail}\n")


def test_a_line_cut_before_numelout_is_not_another_size(tmp_path):
    text = (_W.format(r=3, tail="NumelOut=1, Timeout(ms)=600000) ran for 600011 milliseconds before timing out.")
            + _W.format(r=2, tail="Nume").rstrip("\n") + "\n")
    d = _report(tmp_path, text)
    assert d["verdict"]["cause"] == "rank_missing" and not _accused(d), d["verdict"]


def test_two_shown_numelouts_that_differ_stay_a_desync(tmp_path):
    done = "Timeout(ms)=600000) ran for 600011 milliseconds before timing out."
    text = "".join(_W.format(r=r, tail=f"NumelOut={n}, {done}") for r, n in ((0, 1), (1, 1), (2, 1), (3, 2)))
    d = _report(tmp_path, text)
    assert d["verdict"]["cause"] == "desync", d["verdict"]


_STEP = "DTensorPolicyWorkerV2[rank={r}]: offload_after_refit/model_to_cpu/move_to_device_done after {s}s ...\n"
_WD3 = ("[rank3] Watchdog caught collective operation timeout:\n"
        "WorkNCCL(SeqNum=64214, OpType=ALLGATHER, NumelIn=1, NumelOut=32, Timeout(ms)=600000)\n")


def test_ranks_whose_own_step_outlasted_the_timeout_are_the_ones_waited_for(tmp_path):
    d = _report(tmp_path, _STEP.format(r=5, s="4106.03") + _STEP.format(r=1, s="5133.73") + _WD3)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("rank_missing", [1, 5]) and 3 not in _accused(d), v


def test_a_step_shorter_than_the_timeout_names_nobody(tmp_path):
    d = _report(tmp_path, _STEP.format(r=5, s="41.2") + _WD3)
    assert 5 not in _accused(d), d["verdict"]
