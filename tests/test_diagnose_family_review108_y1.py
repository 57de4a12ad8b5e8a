"""Review 108 (reviewer a)'s findings on round 108's fixes, fixed in s46-y1 (session 45; rules I, K, N, AC (1), BO (2)).

- Finding 1: Horovod's stall warning followed by training steps or the run's end is no failure (rules K, N): none.
  The warning as the last line keeps reading as a missing rank nobody named.
"""
from __future__ import annotations

from tests.conftest import verdict_accused as _verdict


def _hvd_warn(secs: int, head: str) -> str:
    return (f"{head}One or more tensors were submitted to be reduced, gathered or broadcasted by subset of ranks and "
            f"are waiting for remainder of ranks for more than {secs} seconds. This may indicate that different ranks "
            "are trying to submit different tensors or that only subset of ranks is submitting tensors, which will "
            "cause deadlock.\n")


# --- finding 1: the warning, then training goes on --------------------------------------------------------------------
def test_horovod_stall_warning_then_training_goes_on_is_none(tmp_path):
    for head, after in (
            ("[0]<stderr>:[2023-03-01 10:00:00.000000: W /tmp/pip-install/horovod/common/stall_inspector.cc:105] ",
             "[0]<stdout>:Epoch 2/10 loss=0.31\n[0]<stdout>:Epoch 10/10 loss=0.12\n"
             "[0]<stdout>:Training finished. Saved model to /out/model.pt\n"),
            ("[2024-08-11 21:40:07.5521: W horovod/common/stall_inspector.cc:107] ",
             "[1]<stdout>:step=1200 loss: 2.041\n[1]<stdout>:step=1300 loss: 1.987\n"),
            ("[3]<stderr>:[2022-01-02 03:04:05.6: W horovod/common/stall_inspector.cc:105] ",
             "[3]<stdout>:Training completed in 4211 s\n")):
        v, acc = _verdict(tmp_path, _hvd_warn(75, head) + after)
        assert v["cause"] == "none" and not v["culprits"] and not acc, v
    # the same warning with nothing after it, or only lines that are no progress: still a missing rank nobody named
    for after in ("", "[0]<stdout>:waiting...\n"):
        v, acc = _verdict(tmp_path, "[0]<stdout>:Epoch 1/10 loss=0.40\n" + _hvd_warn(
            240, "[0]<stderr>:[2023-03-01 10:00:00.000000: W horovod/common/stall_inspector.cc:105] ") + after)
        assert (v["cause"], v["culprits"], v["confidence"]) == ("rank_missing", [], "low") and not acc, v
