"""How diagnose reads a framework's own start-up check of the settings every worker is given, as round 75 showed them:
a pipeline framework refusing a split whose stages do not match the processes launched (accelerate-2497, PiPPy's
PipelineStage: "Number of ranks is larger than number of stages"; the split and the process count are the launch's
settings, the same on every rank: lead rule W), and a framework refusing the config file a launch argument names
(baichuan-13b-148, HfDeepSpeedConfig's "Expected a string path to an existing deepspeed config ... Received: x.json",
its base64 try's binascii.Error beside it: the path every worker is given, rules BF (3), U (2)): config, nobody named.
Near shapes that must not be read so stay as they were. Paths, names and ranks are made up."""

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


_DS = ("  File \"/opt/env/lib/python3.10/site-packages/accelerate/utils/deepspeed.py\", line 55, in __init__\n"
       "    raise ValueError(\n"
       "ValueError: Expected a string path to an existing deepspeed config, or a dictionary, or a base64 encoded "
       "string. Received: configs/ds_z3.json\n")
_B64 = ("Traceback (most recent call last):\n"
        "  File \"/opt/env/lib/python3.10/site-packages/accelerate/utils/deepspeed.py\", line 52, in __init__\n"
        "    config_decoded = base64.urlsafe_b64decode(config_file_or_dict).decode(\"utf-8\")\n"
        "  File \"/opt/env/lib/python3.10/base64.py\", line 87, in b64decode\n"
        "    return binascii.a2b_base64(s)\n"
        "binascii.Error: Invalid base64-encoded string: number of data characters (5) cannot be 1 more than a "
        "multiple of 4\n")


def test_a_deepspeed_config_path_that_does_not_exist_is_the_launch_argument(tmp_path):
    """The check alone, or with its base64 try's binascii.Error printed beside it (either order): the --deepspeed
    path every worker gets -- config, nobody accused, the fix about the path."""
    for text in (_DS, _DS + _B64, _B64 + "\nDuring handling of the above exception, another exception occurred:\n\n"
                 + "Traceback (most recent call last):\n" + _DS):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
        assert "absolute path" in v["fix"] and "--deepspeed" in v["fix"], v


def test_a_decode_error_alone_or_beside_another_failure_is_not_the_config_path(tmp_path):
    """Near shapes: the binascii.Error alone (the script's own decoding of its data), or the config check beside a
    rank's own runtime failure, is not read as the config path every worker is given."""
    assert "config file it was given does not exist" not in _verdict(tmp_path, _B64)["summary"]
    other = _DS + "[rank1]: RuntimeError: CUDA error: an illegal memory access was encountered\n"
    assert "config file it was given does not exist" not in _verdict(tmp_path, other)["summary"]
