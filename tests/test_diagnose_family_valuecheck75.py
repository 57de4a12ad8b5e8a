"""How diagnose reads a job's own value check that finds a result off its reference (round 75, session 27): a test's
lines reporting the error of a gradient as a number ("error in dLdX on global rank 0: 3.2e-03", fairscale's model-
parallel layer tests) and FAILED, with no exception, hang or timeout. Lead rule S: wrong results with nothing failing
-- unknown, nobody named, and the fix looks at precision (TF32 on Ampere, the test's tolerance, a float64 single-GPU
reference) before the path's corruption (nccl-tests -c 1, NCCL_PROTO / NCCL_ALGO). A near shape -- the same line
holding a code, not a fraction -- is not read so. Hosts, names and ranks are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report

_HEAD = ("dist init r=0, world=2\n"
         "dist init r=1, world=2\n"
         "> initializing model parallel with size 2\n"
         "> testing RowParallelLinear with model parallel size: 2\n")


def test_a_value_checks_numeric_error_is_wrong_results(tmp_path):
    """Both ranks' gradient errors as a fraction and an exponent (in a paste's bold marks or not), then FAILED:
    unknown, nobody named, the fix names TF32 and the tolerance and nccl-tests' -c 1."""
    for lines in ("   error in dLdX on global rank 1: 0.0021\n   error in dLdX on global rank 0: 3.2e-03\n",
                  "   **error in dLdX on global rank 1: 0.0021\n   error in dLdX on global rank 0: 0.0018**\n"):
        d = _report(tmp_path, _HEAD + lines + "FAILED\n")
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), v
        assert "TF32" in v["fix"] and "tolerance" in v["fix"] and "-c 1" in v["fix"], v["fix"]


def test_an_error_line_holding_a_code_is_no_value_check(tmp_path):
    """The near shape: the same error line holding an exit code (a whole number, no fraction): a failure in words no
    family reads, not a value check's numeric difference -- no precision fix."""
    d = _report(tmp_path, _HEAD + "   error in dLdX on global rank 0: exit code: 1\nFAILED\n")
    v = d["verdict"]
    assert v["cause"] == "unknown" and v["culprits"] == [] and "TF32" not in v["fix"], v
