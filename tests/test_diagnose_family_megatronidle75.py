"""How diagnose reads Megatron-LM's own progress stamps when training ends at once (round 75, session 27): "[after
dataloaders are built] datetime: T", "training ...", then "[after training is done] datetime: T" within the same
second, no iteration line and no error. Nothing failed (lead rules K, T): cause none, nobody named -- but the loop ran
no iteration, so the fix looks at the iteration settings (--train-iters against the loaded checkpoint's iteration,
--finetune). A near shape -- the same stamps minutes apart, iterations logged between them -- is a run that trained
and gets no such fix. Dates and figures are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report

_SETUP = ("[after model, optimizer, and learning rate scheduler are built] datetime: 2025-02-03 10:11:58\n"
          "[after dataloaders are built] datetime: 2025-02-03 10:12:04\n"
          "done with setup ...\n"
          "(min, max) time across ranks (ms):\n"
          "    model-and-optimizer-setup ......................: (8120.11, 8121.40)\n"
          "training ...\n")


def test_training_done_within_a_second_of_setup_is_no_iteration_run(tmp_path):
    """Training done in the same second (or the next) as the data loaders' stamp, with or without a launcher's rank
    prefix: none, nobody named, the fix names --train-iters and --finetune."""
    for done, pre in (("2025-02-03 10:12:04", ""), ("2025-02-03 10:12:05", "[rank7]: ")):
        text = "".join(pre + ln + "\n" for ln in (_SETUP + f"[after training is done] datetime: {done}\n").splitlines())
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("none", []) and not _accused(d), v
        assert "--train-iters" in v["fix"] and "--finetune" in v["fix"], v["fix"]


def test_training_done_minutes_later_is_a_run_that_trained(tmp_path):
    """The near shape: iterations logged and training done twelve minutes after set-up: the loop ran, so no
    iteration-settings fix."""
    text = (_SETUP + " iteration       10/     100 | consumed samples:          640 | lm loss: 7.1E+00 |\n"
            " iteration      100/     100 | consumed samples:         6400 | lm loss: 4.2E+00 |\n"
            "[after training is done] datetime: 2025-02-03 10:24:31\n")
    v = _report(tmp_path, text)["verdict"]
    assert v["cause"] == "none" and v["culprits"] == [] and "--train-iters" not in v["fix"], v
