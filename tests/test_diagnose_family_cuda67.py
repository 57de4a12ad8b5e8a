"""How diagnose reads round 67's CUDA-family cases (session 24): a framework's error line that names the rank its CUDA
error was raised on ("... on rank N: CUDA error: ..."), and the CUDA error that is an NVLink hardware fault
(cudaErrorNvlinkUncorrectable, rules A, AN (1)). Each test reads the shape from lines other than the corpus case's
own (other frameworks, ranks, wordings), and a near shape that must NOT be read that way. Hosts, pids and paths are
made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report

_ASYNC = ("CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might "
          "be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1\n"
          "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n")


# --- a framework's line naming the rank its CUDA error was raised on ------------------------------------------------
def test_a_cuda_error_the_line_says_was_raised_on_rank_n_is_that_ranks_own(tmp_path):
    """A serving engine's own error line, "Exception in worker on rank 3: RuntimeError: CUDA error: ...", no launcher
    tag: the error is rank 3's own (rule A), read through the exception's class between the two; the uncorrectable
    NVLink error is the GPU's links failing (rule AN (1)), its fix the NVLink tools and the driver's Xid 74."""
    text = ("INFO 06-01 10:02:09 engine.py:180] capturing CUDA graphs for batch size 64\n"
            "ERROR 06-01 10:02:11 engine.py:201] Exception in worker on rank 3: RuntimeError: CUDA error: "
            "uncorrectable NVLink error detected during the execution\n" + _ASYNC)
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("cuda_error", [3]) and _accused(d) == {3}, v
    assert "nvlink" in v["fix"].lower() and "Xid 74" in v["fix"] and "fabric" in v["fix"], v["fix"]


def test_the_rank_named_in_the_line_wins_over_a_launcher_tag(tmp_path):
    """The same line under another process's launcher tag ("[rank0]: Failed to start executor on rank 5: CUDA error:
    ..."): the line itself says the error was raised on rank 5, so rank 5 is named, not the printing process."""
    text = ("[rank0]: [E] Failed to start executor on rank 5: CUDA error: uncorrectable NVLink error detected during "
            "the execution\n")
    d = _report(tmp_path, text)
    assert (d["verdict"]["cause"], _accused(d)) == ("cuda_error", {5}), d["verdict"]


def test_a_rank_named_elsewhere_in_a_cuda_error_line_is_not_the_errors_own(tmp_path):
    """The near shape: the line names another rank, but not as where the error was raised ("Broadcast from rank 5
    failed: CUDA error: ..."): the error stays the tagged process's own (rank 2), rank 5 is not named."""
    text = ("[rank2]: Broadcast from rank 5 failed: CUDA error: an illegal memory access was encountered\n"
            + "".join("[rank2]: " + x + "\n" for x in _ASYNC.splitlines()))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "cuda_error" and _accused(d) == {2}, v
    assert "NVLink error (cudaErrorNvlinkUncorrectable)" not in v["summary"], v["summary"]
