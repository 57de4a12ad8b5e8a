"""spconv's cumm / tensorview CUDA check in round 78.

cvpr2023-unidistill-9: "RuntimeError: zero_ .../cumm/include/tensorview/tensor.h 221" then, on its own line (the paste
wrapped at 93 columns), "cuda failed with error 1 invalid argument. use CUDA_LAUNCH_BLOCKING=1 to get correct
traceback.": tensorview's TV_CUDA_CHECK printing the runtime's code and string for the op -- a CUDA call shown failing,
cuda_error (rule AT (1)), untagged, no rank named (it was an unknown failure). Near shape: the words "cuda failed"
without "with error N" are not read as a CUDA error.
"""
from __future__ import annotations

from tests.conftest import diagnose_text as _report


def test_tensorviews_cuda_check_is_a_cuda_error(tmp_path):
    v = _report(tmp_path, "RuntimeError: zero_ /tmp/env/cumm/include/tensorview/tensor.h 221\n"
                "cuda failed with error 1 invalid argument. use CUDA_LAUNCH_BLOCKING=1 to get correct traceback.\n"
                )["verdict"]
    assert (v["cause"], v["culprits"]) == ("cuda_error", []), v


def test_cuda_failed_without_its_code_is_not_read_so(tmp_path):
    v = _report(tmp_path, "RuntimeError: the cuda failed check of the config\n")["verdict"]
    assert v["cause"] != "cuda_error", v
