"""A Python traceback whose exception line is not in the input though other log lines follow it (session 31, the
lead's generalisation of round 83's misses, where tracebacks cut before their error text read as "nothing failed"):
a paste that left the error out between two excerpts, or one process's output interleaved with another's. A process
raised, so "nothing failed" is not what the lines say, and the error is not shown, so neither cause nor rank is:
unknown, nobody named, low (lead rules AB (2), BG (6), AF (3); verdict.unread._open_traceback, read only where
nothing else in the lines failed). A traceback at the input's very end stays parse.input_tail's cut traceback.

Near shapes kept: the word "Traceback (most recent call last)" in a line with no frame under it stays nothing failed;
a traceback whose exception line is shown (KeyboardInterrupt) keeps that exception's reading.
"""
from __future__ import annotations

from tests.conftest import accused, diagnose_text

_FRAMES = ('  File "train.py", line 10, in <module>\n    main()\n'
           '  File "train.py", line 8, in main\n    trainer.fit(model)\n')


def test_traceback_without_its_error_between_log_lines_is_a_failure_not_nothing(tmp_path):
    d = diagnose_text(tmp_path, "[INFO] epoch 3 start\nTraceback (most recent call last):\n" + _FRAMES
                      + "[INFO] cleaning up\n[INFO] done\n")
    v = d["verdict"]
    assert (v["cause"], v["culprits"], v["confidence"]) == ("unknown", [], "low") and not accused(d)
    assert "Paste the full traceback" in v["fix"]


def test_a_ranks_open_traceback_is_said_as_its_own_but_names_nobody(tmp_path):
    text = ('[rank1]: Traceback (most recent call last):\n[rank1]:   File "train.py", line 10, in <module>\n'
            "[rank1]:     main()\n[rank0]: [INFO] saved checkpoint\n[rank0]: [INFO] epoch 4\n")
    d = diagnose_text(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not accused(d)
    assert "rank 1's Python traceback" in v["summary"]


def test_the_word_traceback_with_no_frame_under_it_stays_nothing_failed(tmp_path):
    v = diagnose_text(tmp_path, "[INFO] epoch 3 start\n[INFO] a Traceback (most recent call last): line was printed "
                      "above\n[INFO] done\n")["verdict"]
    assert v["cause"] == "none"


def test_a_traceback_with_its_exception_keeps_that_reading(tmp_path):
    v = diagnose_text(tmp_path, "[INFO] epoch 3 start\nTraceback (most recent call last):\n" + _FRAMES
                      + "KeyboardInterrupt\n[INFO] done\n")["verdict"]
    assert v["cause"] == "signal"
