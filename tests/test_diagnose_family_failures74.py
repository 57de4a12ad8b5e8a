"""How diagnose reads torchrun's failure record cut inside its "Failures:" list, as round 74 showed it (session 26,
yolov7-pose-bytetrack-6): the list holds the failures BESIDES the root cause, so an entry there ("[1]:") cut before
its rank line says at least two processes failed on their own, none shown first or torn down: unknown, nobody named
or innocent (rules J, AM (2)). Each test reads the shape from lines other than the corpus case's own, and a near
shape that must NOT be read that way. Paths and times are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict

_HEAD = ("Traceback (most recent call last):\n"
         '  File "/opt/conda/lib/python3.10/site-packages/torch/distributed/launcher/api.py", line 250, in '
         "launch_agent\n"
         "    raise ChildFailedError(\n"
         "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n"
         "============================================================\n"
         "pretrain.py FAILED\n"
         "------------------------------------------------------------\n"
         "Failures:\n")


def test_a_record_cut_at_a_listed_failure_before_its_rank_is_several_failing_unnamed(tmp_path):
    """The paste ends at a "Failures:" entry's time line: another process failed besides the root cause, which
    ranks and how not shown -- unknown, nobody accused, the fix asking for the workers' own errors (@record)."""
    d = _report(tmp_path, _HEAD + "[2]:\n  time      : 2024-03-05_08:14:11\n")
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), v
    assert "Failures:" in v["summary"] and "@record" in v["fix"], v


def test_a_listed_failure_with_its_rank_and_exit_code_is_not_the_cut_list(tmp_path):
    """Near shape: the same entry pasted down to its rank and exit code is read as that entry (the rank named by its
    record), not as the cut list."""
    v = _verdict(tmp_path, _HEAD + "[2]:\n  time      : 2024-03-05_08:14:11\n  host      : node7\n"
                 "  rank      : 2 (local_rank: 2)\n  exitcode  : 1 (pid: 4411)\n"
                 "  error_file: <N/A>\n  traceback : To enable traceback see: "
                 "https://pytorch.org/docs/stable/elastic/errors.html\n")
    assert "the paste ends there, before its rank" not in v["summary"], v


def test_a_list_that_says_no_other_failures_is_not_several_failing(tmp_path):
    """Near shape: "Failures: <NO_OTHER_FAILURES>" then the paste stops: no listed entry, one failure at most --
    not read as several processes failing."""
    v = _verdict(tmp_path, _HEAD + "  <NO_OTHER_FAILURES>\n")
    assert "at least two worker processes" not in v["summary"], v


def test_the_cut_list_inside_a_markdown_fence_is_read_the_same(tmp_path):
    """The same paste inside a ``` fence: the closing fence ends the record at the same cut entry -- the same
    reading (a paste's form carries no cause)."""
    v = _verdict(tmp_path, "```\n" + _HEAD + "[2]:\n  time      : 2024-03-05_08:14:11\n\n```\n")
    assert (v["cause"], v["culprits"]) == ("unknown", []) and "Failures:" in v["summary"], v
