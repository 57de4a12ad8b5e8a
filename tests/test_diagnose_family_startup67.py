"""How diagnose reads three start-up failures round 67 showed (session 24): FSDP's own check refusing to flatten a
wrapped unit's parameters of different dtypes (rules Q, W, AF (2); peft-484), MPICH's / Intel MPI's own start-up
failing in workers torchrun started ("Fatal error in PMPI_Init_thread", PMI_Get_appnum returned -1: rule X (2); a
oneCCL job on Intel GPUs), and a traceback cut inside the construction of a DeepSpeed op while torch's cpp_extension
JIT-builds the ops (rule AF (2); deepspeed-5627). Each test reads the shape from lines other than the corpus case's own
(other ranks, paths, wordings), and a near shape that must NOT be read that way. Hosts, pids and paths are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict
from tests.conftest import watchdog_line


# --- FSDP's flatten check ------------------------------------------------------------------------------------------
def _fsdp_tb(rank: int, message: str, exc: str = "ValueError") -> str:
    return (f"[rank{rank}]: Traceback (most recent call last):\n"
            f"[rank{rank}]:   File \"/opt/venv/lib/python3.11/site-packages/torch/distributed/fsdp/_flat_param.py\", "
            "line 781, in _validate_tensors_to_flatten\n"
            f"[rank{rank}]:     raise ValueError(\n"
            f"[rank{rank}]: {exc}: {message}\n")


def test_fsdp_refusing_to_flatten_parameters_of_two_dtypes_is_the_models_setup(tmp_path):
    """Rules Q, W, AF (2): one rank's traceback ends in FSDP's own check that a wrapped unit's parameters share one
    dtype (a LoRA adapter in float32 beside a bfloat16 base model). Every rank wraps the same model with the same
    settings and fails the same check: config, no rank -- not the rank whose traceback happens to be shown; the fix
    names the dtype cast and FSDP's mixed precision. The requires_grad form is the same check, its fix
    use_orig_params."""
    d = _report(tmp_path, _fsdp_tb(3, "Must flatten tensors with uniform dtype but got torch.float16 and "
                                      "torch.float32"))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "FlatParameter" in v["summary"] and "mixed_precision" in v["fix"] and "torch_dtype" in v["fix"], v
    v = _verdict(tmp_path, _fsdp_tb(1, "Must flatten tensors with uniform `requires_grad` when "
                                       "`use_orig_params=False`"))
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "use_orig_params=True" in v["fix"], v["fix"]


def test_another_value_error_or_the_flatten_check_beside_a_hang_is_not_the_models_setup(tmp_path):
    """The near shapes: a rank's own ValueError in other words is that rank's failure (rule A), not FSDP's check; and
    FSDP's check beside a watchdog timeout is not what stopped the job alone (the reading needs it to be the one
    failure shown)."""
    v = _verdict(tmp_path, _fsdp_tb(3, "Must provide tensors with a uniform batch size but got 8 and 6"))
    assert v["cause"] != "config", v
    v = _verdict(tmp_path, watchdog_line(1, 40, "ALLREDUCE", 600040, 600000)
                 + _fsdp_tb(3, "Must flatten tensors with uniform dtype but got torch.bfloat16 and torch.float32"))
    assert v["cause"] != "config", v
