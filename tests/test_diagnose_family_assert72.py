"""How diagnose names the rank of a CUDA kernel's device-side assert that no tag names (round 72, session 26): the GPU
prints the assert untagged (lead rule AC (1)), and right below it the traceback of the one rank the lines name
('[rank7]: Traceback ...', its error text cut): that rank's process launched the kernel, so the cuda_error is its
own (weathergenerator-255, as easycontext-13 reads a lone rank's assert). Each test reads the shape from lines other
than the corpus case's own, and a near shape that must NOT be read that way. Paths are made up."""

from __future__ import annotations

from ncclDoctor.diagnose import diagnose
from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report

_ASSERT = ("/build/pytorch/aten/src/ATen/native/cuda/IndexKernel.cu:92: operator(): block: [12,0,0], thread: [5,0,0] "
           "Assertion `-sizes[i] <= index && index < sizes[i] && \"index out of bounds\"` failed.\n")


def _tb(rank: int) -> str:
    return (f"[rank{rank}]: Traceback (most recent call last):\n"
            f'[rank{rank}]:   File "/srv/proj/train.py", line 40, in <module>\n'
            f"[rank{rank}]:     main()\n"
            f'[rank{rank}]:   File "/srv/proj/train.py", line 31, in main\n'
            f"[rank{rank}]:     trainer.fit(cfg)\n")


def test_an_untagged_kernel_assert_then_one_ranks_traceback_names_that_rank(tmp_path):
    """The assert, then rank 7's traceback cut before its error, no other rank named: rank 7's cuda_error."""
    d = _report(tmp_path, "step 120 loss 0.31\n" + _ASSERT + _tb(7))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("cuda_error", [7]) and _accused(d) == {7}, v
    assert "CUDA_LAUNCH_BLOCKING=1" in v["fix"], v


def test_an_untagged_kernel_assert_then_two_ranks_tracebacks_names_nobody(tmp_path):
    """The near shape: two ranks' tracebacks right below the same assert -- the lines do not say whose kernel it was:
    cuda_error, nobody named."""
    d = _report(tmp_path, "step 120 loss 0.31\n" + _ASSERT + _tb(7) + _tb(2))
    v = d["verdict"]
    assert v["cause"] == "cuda_error" and not _accused(d), v


def test_an_untagged_kernel_assert_then_an_untagged_traceback_names_nobody(tmp_path):
    """The near shape: the traceback under the assert carries no rank tag: nobody named (rule AC (1))."""
    d = _report(tmp_path, _ASSERT + _tb(7).replace("[rank7]: ", ""))
    v = d["verdict"]
    assert v["cause"] == "cuda_error" and not _accused(d), v


def _wd(rank: int, what: str, ms: int) -> str:
    return (f"[rank{rank}]:[E0311 10:02:17.{ms:09d} ProcessGroupNCCL.cpp:1515] [PG 0 (default_pg) Rank {rank}] Process "
            f"group watchdog thread terminated with exception: CUDA error: {what}")


def test_every_rank_hitting_one_cuda_error_one_line_cut_short_is_every_rank_alike(tmp_path):
    """An extension's own check ('Error an illegal memory access was encountered at line 88 in file /src/csrc/
    kern.cu'), then both ranks' watchdogs on the same error within one second, rank 0's line cut mid-text (two
    excerpts of one paste): every rank alike (rules J, AX (4)) -- cuda_error, nobody named; the fix the extension's
    illegal access, not 'upgrade src' (a build directory is no package)."""
    (tmp_path / "a.log").write_text("Error an illegal memory access was encountered at line 88 in file "
                                    "/src/csrc/kern.cu\n" + _wd(0, "an illegal memory", 100200300) + "\n")
    (tmp_path / "b.log").write_text(_wd(1, "an illegal memory access was encountered", 200300400) + "\n")
    d = diagnose([str(tmp_path)]).results["diagnose"]
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("cuda_error", []) and not _accused(d), v
    assert "compute-sanitizer" in v["fix"] and "upgrade src" not in v["fix"], v


def test_two_ranks_with_different_cuda_errors_are_not_read_as_one_error_alike(tmp_path):
    """The near shape: one rank's watchdog line cut to 'an illegal', too short to say which error (an illegal memory
    access or instruction), the other's 'an illegal instruction was encountered': not read as one error alike."""
    (tmp_path / "a.log").write_text(_wd(0, "an illegal", 100200300) + "\n")
    (tmp_path / "b.log").write_text(_wd(1, "an illegal instruction was encountered", 200300400) + "\n")
    d = diagnose([str(tmp_path)]).results["diagnose"]
    v = d["verdict"]
    assert v["cause"] == "cuda_error" and "alike" not in v["summary"], v
