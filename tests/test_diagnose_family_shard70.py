"""Round 70's reads of a model-serving launcher's shards (LoRAX, a fork of Hugging Face TGI: one server process per
GPU, rank=N of --num-shard): the framework refusing to shard the model class the launch fell back to ("sharded is
not supported for AutoModel", lead rules W, Q: config, no rank), and the launcher's own error line whose traceback
the paste cut before its exception (lead rules AB (2), AN (1): unknown, the fix asks for the shard's stderr and the
full traceback). Each test has the shape that must be read and a near shape that must not be read that way. Paths
and times are made up; the wordings are LoRAX's and TGI's."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict


def _get_model(error: str) -> str:
    return ('  File "/opt/conda/lib/python3.9/site-packages/lorax_server/server.py", line 214, in serve_inner\n'
            "    model = get_model(\n"
            '  File "/opt/conda/lib/python3.9/site-packages/lorax_server/models/__init__.py", line 304, in get_model\n'
            f'    raise {error.split(":", 1)[0]}("{error.split(": ", 1)[1]}")\n'
            f"{error}\n")


def test_sharding_refused_for_the_fallback_model_class_is_the_launch_setting(tmp_path):
    """get_model refusing to shard the generic AutoModel path (flash attention unavailable): the shard count every
    shard is launched with does not fit that model class -- config, nobody named, and the fix names flash attention
    and one shard."""
    d = _report(tmp_path, _get_model("ValueError: sharded is not supported for AutoModel"))
    v = d["verdict"]
    assert v["cause"] == "config" and not _accused(d), v
    assert "flash attention" in v["fix"] and "num_shard" in v["fix"], v


def test_a_sharded_tensor_error_is_not_a_refused_setting(tmp_path):
    """The same frames ending in a ValueError about a sharded tensor's contents: a check of the data, not the launch
    refused -- not read as the settings check."""
    v = _verdict(tmp_path, _get_model("ValueError: sharded tensor has an unexpected shape for lm_head"))
    assert "flash attention needs compute capability" not in v["fix"], v


_LAUNCH = "".join(
    f"2024-08-26T19:59:58.33{r}Z  INFO shard-manager: lorax_launcher: Starting shard rank={r}\n" for r in range(4))
_CUT = ("Traceback (most recent call last):\n"
        '  File "/opt/conda/bin/lorax-server", line 8, in <module>\n'
        "    sys.exit(app())\n"
        '  File "/opt/conda/lib/python3.10/site-packages/typer/main.py", line 311, in __call__\n'
        "    return get_command(self)(*args, **kwargs)\n")


def test_a_launchers_error_line_over_a_cut_traceback_asks_for_the_shards_stderr(tmp_path):
    """The launcher's "Error when initializing model" with the traceback under it cut inside its frames: a shard
    failed, neither which nor why is shown -- unknown, nobody named, and the fix asks for the shard's complete
    standard error output and the full traceback."""
    d = _report(tmp_path, _LAUNCH + "2024-08-26T20:00:14.389465Z ERROR lorax_launcher: server.py:287 Error when "
                "initializing model\n" + _CUT)
    v = d["verdict"]
    assert v["cause"] == "unknown" and not _accused(d), v
    assert "Shard complete standard error output" in v["fix"] and "full traceback" in v["fix"], v


def test_an_error_line_with_no_traceback_under_it_gets_no_cut_traceback_fix(tmp_path):
    """The same error line with nothing cut after it (the paste ends on it): still an unread failure, but no
    traceback was cut, so the fix does not say one was."""
    v = _verdict(tmp_path, _LAUNCH + "2024-08-26T20:00:14.389465Z ERROR lorax_launcher: server.py:287 Error when "
                 "initializing model\n")
    assert v["cause"] == "unknown", v
    assert "Paste the full traceback" not in v["fix"], v


def test_another_programs_error_over_a_cut_traceback_names_no_shards(tmp_path):
    """A plain program's error line over a cut traceback: the fix asks for the full traceback, and says nothing of
    a serving launcher's shards."""
    v = _verdict(tmp_path, "2024-08-26 20:00:14 ERROR trainer: failed while building the model\n" + _CUT)
    assert v["cause"] == "unknown", v
    assert "full traceback" in v["fix"] and "Shard complete standard error output" not in v["fix"], v
