"""Round 78's hang shapes.

funasr-332: torch 1.9-1.10's "[Rank 0] Caught collective operation timeout" cut inside its last word by the paste
("... operation timeou"), under DDP's constructor's first collective. It is the same tagged watchdog message (nothing
else torch prints starts so): rank 0 waited in the collective, a victim; one rank shown of a DDP world is rule H's
rank_missing, nobody named (rules B, E). Read as an unknown RuntimeError, rank 0 was accused by rule A -- the worst
miss. Near shapes: the words cut earlier, or without the rank tag, are not read so.
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
    for tail in ("RuntimeError: [Rank 0] Caught collective oper\n", "RuntimeError: Caught collective operation timeou\n"):
        d = _report(tmp_path, _TB + tail)
        assert d["verdict"]["cause"] != "rank_missing", (tail, d["verdict"])
