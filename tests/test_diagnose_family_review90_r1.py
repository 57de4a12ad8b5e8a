"""Review r1 of session 35's diagnose code (round 90): readings and fix texts that held for wider shapes than an expert
reads so, each narrowed to its shape.

- wandb's interactive login prompt (lead rule BU (2), sftvsrl-1) was read config from any two prompt lines, ahead of
  every failure reader: one process re-prompted after an invalid choice, or prompts that were answered beside a
  Python traceback, read "every process blocked on the shared terminal". Now only unanswered prompts count (one
  process shows at most one), and any failure shown (an exception, a failure record, an unread failure line not the
  tracker's own) is the reading instead.
"""
from __future__ import annotations

from tests.conftest import accused, diagnose_text

_MENU = ("wandb: (1) Create a W&B account\n"
         "wandb: (2) Use an existing W&B account\n"
         "wandb: (3) Don't visualize my results\n")


def _verdict(tmp_path, text: str) -> tuple[dict, set[int]]:
    d = diagnose_text(tmp_path, text)
    return d["verdict"], accused(d)


# --- 1. the tracker's login prompt: processes, not lines; a failure shown wins -------------------------------------
def test_one_process_reprompted_after_an_invalid_choice_is_not_config(tmp_path):
    v, acc = _verdict(tmp_path, _MENU + "wandb: Enter your choice: 5\nwandb: ERROR Invalid choice\n"
                      "wandb: Enter your choice: \n")
    assert v["cause"] in ("none", "unknown") and not acc, v


def test_answered_prompts_beside_a_traceback_read_the_traceback(tmp_path):
    v, acc = _verdict(tmp_path, "wandb: Enter your choice: 2\nwandb: Enter your choice: 2\n"
                      "Traceback (most recent call last):\n"
                      '  File "/home/u/train.py", line 88, in <module>\n    main()\n'
                      '  File "/home/u/train.py", line 70, in main\n    loss = compute(batch)\n'
                      "ZeroDivisionError: float division by zero\n")
    assert v["cause"] != "config" and "ZeroDivisionError" in v["summary"], v


def test_unanswered_prompts_with_an_exception_glued_on_are_not_config(tmp_path):
    glued = _MENU + ("wandb: Enter your choice: ValueError: Tokenizer class LlamaTokenizer does not exist or is not "
                     "currently imported.\n")
    v, _ = _verdict(tmp_path, glued * 2)
    assert v["cause"] != "config", v


def test_every_rank_printing_the_menu_with_nothing_failing_is_still_config(tmp_path):
    text = ""
    for t in ("17:26:01,814", "17:26:01,949", "17:26:01,994", "17:26:02,010"):
        text += _MENU + f"wandb: Enter your choice: [2025-02-01 {t}] [INFO] [comm.py:652:init_distributed] cdb=None\n"
    v, acc = _verdict(tmp_path, text)
    assert v["cause"] == "config" and v["culprits"] == [] and not acc, v
    assert "WANDB_API_KEY" in v["fix"], v
