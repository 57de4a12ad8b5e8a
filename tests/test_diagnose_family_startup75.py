"""How diagnose reads a framework's own start-up check of the settings every worker is given, as round 75 showed them:
a pipeline framework refusing a split whose stages do not match the processes launched (accelerate-2497, PiPPy's
PipelineStage: "Number of ranks is larger than number of stages"). The split and the process count are the
launch's settings, the same on every rank (lead rule W): config, nobody named. Near shapes that must not be read so
stay as they were. Paths, names and ranks are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict


def _tb(exc: str, frames: tuple[str, ...] = ("/opt/env/lib/python3.11/site-packages/pipe_lib/stage.py",)) -> str:
    out = ["Traceback (most recent call last):",
           '  File "/home/u/exp/split_model.py", line 21, in <module>',
           "    stage = build_stage(model, split_points='auto')"]
    for f in frames:
        out += [f'  File "{f}", line 71, in __init__', "    raise RuntimeError("]
    return "\n".join(out + [exc]) + "\n"


def test_more_processes_than_pipeline_stages_is_the_launch_settings(tmp_path):
    """PiPPy's own check (and its mirror wording, stages against processes): the two counts every rank is given do
    not match -- config, nobody accused, the fix about the stage count and the process count."""
    for exc in ("RuntimeError: Number of ranks is larger than number of stages, some ranks are unused",
                "ValueError: number of pipeline stages (4) is greater than the world size (2)"):
        text = _tb(exc) + "Traceback (most recent call last):\n" + '  File "/home/u/exp/split_model.py", line 21\n'
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), (exc, v)
        assert "number of pipeline stages" in v["fix"] and "--num_processes" in v["fix"], v


def test_a_stage_runtime_error_without_both_counts_is_not_the_split(tmp_path):
    """Near shapes: a stage's own runtime failure naming stages but not the processes ("stage 2 failed to receive
    ... from the previous stages"), or a count check of other things, is no split against the launch."""
    for exc in ("RuntimeError: stage 2 failed to receive activations larger than the buffer from the previous stages",
                "RuntimeError: number of chunks is larger than batch size"):
        v = _verdict(tmp_path, _tb(exc))
        assert "stages and the processes do not match" not in v["summary"], (exc, v)
