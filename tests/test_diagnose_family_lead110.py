"""Round 110, the lead's own fix: several workers recorded failing on their own with no exception shown get the
one-process rerun that shows the exception (llmzoo-42: ranks 0 and 3 exit 1 in one second, ranks 1 and 2 absent)."""
from tests.conftest import verdict_accused

_TABLE = """torch.distributed.elastic.multiprocessing.errors.ChildFailedError:
============================================================
finetune.py FAILED
------------------------------------------------------------
Failures:
[1]:
  time      : 2024-02-11_17:40:05
  host      : node-b07
  rank      : {b} (local_rank: {b})
  exitcode  : 1 (pid: 88213)
  error_file: <N/A>
  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html
------------------------------------------------------------
Root Cause (first observed failure):
[0]:
  time      : 2024-02-11_17:40:05
  host      : node-b07
  rank      : {a} (local_rank: {a})
  exitcode  : 1 (pid: 88210)
  error_file: <N/A>
  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html
============================================================
"""


def test_two_workers_exit1_no_exception_name_both_and_the_one_process_rerun(tmp_path):
    v, acc = verdict_accused(tmp_path, _TABLE.format(a=1, b=5))
    assert (v["cause"], acc, v["confidence"]) == ("unknown", {1, 5}, "medium"), v
    assert "run with one GPU to reproduce the exception" in v["fix"]
    assert "Read the tracebacks of rank 1, 5" in v["fix"], v


def test_lone_worker_keeps_its_own_single_process_words(tmp_path):
    # near shape: one worker recorded (<NO_OTHER_FAILURES>) keeps the lone record's wording, not the several ranks'
    one = _TABLE.split("Failures:\n")[0] + "Failures:\n  <NO_OTHER_FAILURES>\n" + \
        _TABLE.split("------------------------------------------------------------\n", 2)[2]
    v, acc = verdict_accused(tmp_path, one.format(a=2, b=2))
    assert (v["cause"], acc) == ("unknown", {2}), v
    assert "rerun with a single process to reproduce rank 2's error" in v["fix"]
    assert "run with one GPU to reproduce the exception" not in v["fix"]


def test_a_rank_tail_of_frames_without_its_header_is_not_called_frameless(tmp_path):
    """A rank's own traceback pasted from its middle (frames, no 'Traceback' header) ending in an exception that names
    no known cause: rank 2's own exception (rule A); the fix reads those frames instead of claiming none are shown
    (f5's note on round 110's huatuogpt-o1-9). Near shape: the exception line alone keeps the 'none of its frames'."""
    site = "/opt/conda/lib/python3.11/site-packages/widgetlib/engine.py"
    frames = [f'  File "{site}", line 812, in step', "    self.refresh_tables(group)",
              f'  File "{site}", line 877, in refresh_tables', "    table.rebuild(epoch)"]
    exc = "RuntimeError: widget table 7 is stale after rebuild"
    v, acc = verdict_accused(tmp_path, "".join(f"[rank2]: {x}\n" for x in frames + [exc]))
    assert (v["cause"], acc) == ("unknown", {2}), v
    assert "Read rank 2's own traceback from its first frame" in v["fix"], v
    assert "none of its frames" not in v["fix"], v
    d = tmp_path / "near"
    d.mkdir()
    v, acc = verdict_accused(d, f"[rank2]: {exc}\n")
    assert (v["cause"], acc) == ("unknown", {2}), v
    assert "Only the last line of rank 2's traceback is in these lines, none of its frames" in v["fix"], v
