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

