"""How diagnose reads start-up failures round 72 showed (session 26): FSDP's own check refusing to flatten integer
(quantized) parameters (rules Q, W, AF (2); axolotl-2250, llama-cookbook-675). Each test reads the shape from lines
other than the corpus case's own (other ranks, paths, wordings), and a near shape that must NOT be read that way.
Hosts, pids and paths are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict
from tests.conftest import watchdog_line


# --- FSDP refusing integer (quantized) parameters -------------------------------------------------------------------
def _fsdp_tb(rank: int, message: str, exc: str = "ValueError") -> str:
    return (f"[rank{rank}]: Traceback (most recent call last):\n"
            f"[rank{rank}]:   File \"/srv/env/lib/python3.10/site-packages/torch/distributed/fsdp/_flat_param.py\", "
            "line 642, in _init_flat_param_and_metadata\n"
            f"[rank{rank}]:     raise ValueError(\"{message}\")\n"
            f"[rank{rank}]: {exc}: {message}\n")


def test_fsdp_refusing_integer_parameters_is_the_models_setup(tmp_path):
    """Rules Q, W, AF (2), as adjudicated in round 72: FSDP refusing to flatten integer-dtype parameters (bitsandbytes'
    8-bit or uint8-stored 4-bit weights) is the wrapper refusing the model every rank builds alike -- config, no rank,
    not the rank whose traceback is shown, and not a c10d call's invalid usage; the fix names the quant storage."""
    d = _report(tmp_path, _fsdp_tb(2, "Cannot flatten integer dtype tensors") + "[rank3]: Traceback (most recent "
                                                                                 "call last):\n")
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "bnb_4bit_quant_storage" in v["fix"] and "integer" in v["summary"], v


def test_another_integer_error_or_the_check_beside_a_hang_is_not_the_models_setup(tmp_path):
    """Near shapes: a rank's own ValueError about integer tensors in other words is that rank's failure (rule A), and
    the same check beside a watchdog timeout is not the one failure shown."""
    v = _verdict(tmp_path, _fsdp_tb(2, "Cannot index with integer dtype tensors of rank 3"))
    assert v["cause"] != "config", v
    v = _verdict(tmp_path, watchdog_line(1, 40, "ALLREDUCE", 600040, 600000)
                 + _fsdp_tb(2, "Cannot flatten integer dtype tensors"))
    assert v["cause"] != "config", v
