"""How diagnose reads DDP's construction-time parameter check, as round 73 showed it (session 26): torch 1.x's c10d
Reducer refusing to be built around a module with no parameter ("replicas_[0].size() >= 1 ASSERT FAILED ... Expected
at least one parameter. (Reducer at .../reducer.cpp:N)") is torch refusing an API call by its argument, one every
rank makes alike -- invalid_usage, no rank (rules AV, BA (3), BB (4); ranksrgan-14's adjudication). Each test reads
the shape from lines other than the corpus case's own, and a near shape that must NOT be read that way. Hosts, pids
and paths are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict


def _tb(rank: int, message: str) -> str:
    return (f"[rank{rank}]: Traceback (most recent call last):\n"
            f"[rank{rank}]:   File \"/srv/sr/train.py\", line 57, in <module>\n"
            f"[rank{rank}]:     netF = DistributedDataParallel(netF, device_ids=[local_rank])\n"
            f"[rank{rank}]:   File \"/srv/env/lib/python3.7/site-packages/torch/nn/parallel/distributed.py\", "
            "line 301, in __init__\n"
            f"[rank{rank}]:     self._ddp_init_helper()\n"
            f"[rank{rank}]: RuntimeError: {message}\n")


_NO_PARAM = ("replicas_[0].size() >= 1 ASSERT FAILED at /opt/torch-src/torch/csrc/distributed/c10d/reducer.cpp:61, "
             "please report a bug to PyTorch. Expected at least one parameter. (Reducer at "
             "/opt/torch-src/torch/csrc/distributed/c10d/reducer.cpp:61)")


def test_the_reducer_refusing_a_module_with_no_parameter_is_invalid_usage(tmp_path):
    """Rules AV, BA (3), BB (4): rank 1's traceback ends in the Reducer's 'Expected at least one parameter' assert:
    DDP wrapped a module with nothing to synchronize, the same call on every rank -- invalid_usage, no rank (not the
    rank whose traceback is shown), the fix not wrapping that module in DDP."""
    d = _report(tmp_path, _tb(1, _NO_PARAM))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not _accused(d), v
    assert "without DDP" in v["fix"] and "requires_grad" in v["fix"], v


def test_the_reducers_mid_run_check_is_not_read_as_its_construction(tmp_path):
    """Near shape: the Reducer's mid-run check (a reduction not finished in the prior iteration, rule AW) is not its
    construction refusing the module: not read as the parameter-free module."""
    v = _verdict(tmp_path, _tb(1, "Expected to have finished reduction in the prior iteration before starting a new "
                                  "one. This error indicates that your module has parameters that were not used in "
                                  "producing loss."))
    assert "Reducer refused to be built" not in v["summary"], v


def test_ddps_newer_no_trainable_parameter_refusal_keeps_its_own_reading(tmp_path):
    """Near shape: torch 2.x's 'DistributedDataParallel is not needed when a module doesn't have any parameter that
    requires a gradient' is the freezing settings' refusal (rules Q, W, V (1)): still config, not this reading."""
    v = _verdict(tmp_path, _tb(0, "DistributedDataParallel is not needed when a module doesn't have any parameter "
                                  "that requires a gradient."))
    assert v["cause"] == "config" and "Reducer refused to be built" not in v["summary"], v
