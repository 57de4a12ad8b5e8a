"""How diagnose reads a call refused for a keyword argument on the code line of the script's first function (the one
frame right under the entry script's top level, in the same file: its run(args) / main()), as round 75's pippy-1130
showed it ("pipe = pipeline(" refused as "pipeline() got an unexpected keyword argument 'mb_args'"): the script's
start-up calls an installed library's API with a keyword that version does not take, every worker runs the same line
on the same install (lead rules AF (2), U (2)): config, nobody named. Near shapes -- the refusal deeper in the run, a
line that calls another name (build(**kw) refused as a constructor's), the bare line with no frame, a launcher's
record of one worker of several -- stay as they were. Paths, names and ranks are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict
from tests.conftest import failure_record


def _tb(code: str, exc: str, rank: int = 0, fn: str = "run", deeper: bool = False, carets: bool = False) -> str:
    lines = ["Traceback (most recent call last):",
             '  File "/home/u/examples/split_gpt.py", line 118, in <module>',
             "    run(args)",
             f'  File "/home/u/examples/split_gpt.py", line 50, in {fn}']
    if deeper:
        lines += ["    stage = make_stage(model)",
                  '  File "/home/u/examples/split_gpt.py", line 30, in make_stage']
    lines += [f"    {code}"] + (["           " + "^" * 20] if carets else []) + [exc]
    return "".join(f"[rank{rank}]: {x}\n" for x in lines)


def test_a_keyword_refused_on_the_first_functions_call_is_the_install_version(tmp_path):
    """The function or a class refused on the line that calls it, with or without 3.11's carets: config, nobody
    accused, the fix about the installed version and the keyword."""
    for text in (_tb("pipe = pipeline(", "TypeError: pipeline() got an unexpected keyword argument 'mb_args'"),
                 _tb("sched = ScheduleLoop(stage, n_microbatches=4)",
                     "TypeError: ScheduleLoop.__init__() got an unexpected keyword argument 'n_microbatches'",
                     rank=2, fn="main", carets=True)):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
        assert "version mismatch" in v["fix"] or "version" in v["summary"], v
        assert "installed version" in v["fix"], v


def test_a_keyword_refused_deeper_or_through_another_call_or_of_one_worker_is_not_the_install(tmp_path):
    """Near shapes: a second function frame between (deeper in the run), a line calling another name than the one
    refused (the keyword handed on from data), and the same refusal with a launcher's record of one worker of two."""
    exc = "TypeError: pipeline() got an unexpected keyword argument 'mb_args'"
    assert _verdict(tmp_path, _tb("pipe = pipeline(", exc, deeper=True))["cause"] != "config"
    assert _verdict(tmp_path, _tb("return build(**kw)", exc))["cause"] != "config"
    record = ("torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n"
              "============================================================\n"
              "split_gpt.py FAILED\n"
              "------------------------------------------------------------\n"
              "Failures:\n"
              "  <NO_OTHER_FAILURES>\n"
              "------------------------------------------------------------\n"
              "Root Cause (first observed failure):\n"
              + failure_record(0, 0, 0, 1, 4242, time="2024-05-01_10:00:07", host="node1", traceback=None)
              + "============================================================\n")
    launch = "W0501 10:00:00.000000 1 torch/distributed/run.py:757] Setting OMP_NUM_THREADS ... nproc_per_node=2\n"
    v = _verdict(tmp_path, launch + _tb("pipe = pipeline(", exc) + record)
    assert "start-up code (the first function" not in v["summary"], v
