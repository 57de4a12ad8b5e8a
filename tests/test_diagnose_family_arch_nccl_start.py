"""Two failures at a job's start, read by their shape where the paste hid the words diagnose keyed on (round 94):

- A CUDA extension's own check raising cudaGetErrorString's text bare ("RuntimeError: no kernel image is available for
  execution on the device", "Exception raised from solve_cuda_batch at src/..._kernel.cu:250" under it; or the same
  text under C++'s "what():"), with no "CUDA error:" before it: a CUDA call shown failing (rule AT (1)) because the
  binary holds no code for the GPU's architecture -- the build every process shares, so cuda_error, nobody, nobody
  innocent, even with one rank-tagged traceback (rule BD (4), as cpm-live-377; round 94's torch-linear-assignment-21).
  Its fix is the build's (TORCH_CUDA_ARCH_LIST, the compute capability), not a library's own GPU choice: that advice
  stays for a library's other bare CUDA texts (an illegal memory access). Not read so: a rank's bare RuntimeError with
  any other text from an extension's .cu source (no known cause: unknown on that rank, rule A).
- torch's NCCL check cut at its site ("RuntimeError: NCCL error in: .../ProcessGroupNCCL.cpp:410," ending the line,
  "unhandled system error, NCCL version 2.4.8" on the next): the message always follows the site, so the two lines are
  one error, however short the first is -- ncclSystemError at dist.barrier() on torch 1.4's default group (its
  communicator's set-up), no rank named: nccl_system, nobody, nobody innocent (rules J, AC (4); round 94's
  stochastic-gradient-push-11). Not read so: a site line whose next line is no NCCL message (torch's "During handling"
  line): the join says nothing, and the line keeps its old reading.
"""
from __future__ import annotations

from tests.conftest import verdict_accused as _verdict

_SP = "/opt/conda/lib/python3.9/site-packages"


def _ext_raise(rank: int, message: str) -> str:
    """An extension's own CUDA check raising MESSAGE on RANK, the c10::Error's source line under it."""
    return (f'[rank{rank}]:   File "{_SP}/torch_linear_assignment/assignment.py", line 29, in batch_cuda\n'
            f"[rank{rank}]:     col4row, row4col = backend.batch_linear_assignment(cost.contiguous())\n"
            f"[rank{rank}]: RuntimeError: {message}\n"
            f"[rank{rank}]: Exception raised from solve_cuda_batch at src/assignment_cuda_kernel.cu:250 (most recent "
            "call first):\n"
            f"[rank{rank}]: frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0xae (0x1554e2878d1e in "
            f"{_SP}/torch/lib/libc10.so)\n")


# --- an extension's bare "no kernel image" ----------------------------------------------------------------------------
def test_an_extension_s_bare_no_kernel_image_on_one_rank_is_the_build_nobody(tmp_path):
    v, acc = _verdict(tmp_path, _ext_raise(2, "no kernel image is available for execution on the device"))
    assert v["cause"] == "cuda_error" and v["culprits"] == [] and not acc, v
    assert "TORCH_CUDA_ARCH_LIST" in v["fix"] and "compute capability" in v["fix"], v
    assert "PhysX" not in v["fix"] and "library's own GPU pipeline" not in v["summary"], v


def test_the_same_text_under_cpp_what_is_read_alike(tmp_path):
    v, acc = _verdict(tmp_path, "terminate called after throwing an instance of 'c10::Error'\n"
                                "  what():  no kernel image is available for execution on the device\n"
                                "Exception raised from launch at csrc/ops_kernel.cu:88 (most recent call first):\n")
    assert v["cause"] == "cuda_error" and v["culprits"] == [] and not acc, v


def test_an_extension_s_other_bare_text_stays_unknown_on_its_rank(tmp_path):
    v, acc = _verdict(tmp_path, _ext_raise(2, "cost matrix must be finite"))
    assert v["cause"] == "unknown" and v["culprits"] == [2], v


def test_a_library_s_bare_illegal_memory_access_keeps_the_library_s_gpu_advice(tmp_path):
    v, _ = _verdict(tmp_path, "/builds/gpucommon/src/PxgSolverCore.cpp (911) : internal error : an illegal memory "
                              "access was encountered\n")
    assert v["cause"] == "cuda_error", v
    assert "library's own GPU pipeline" in v["summary"] and "sim_device" in v["fix"], v


# --- torch's NCCL check cut at its site -------------------------------------------------------------------------------
_BARRIER = ('  File "train.py", line 928, in parse_args\n    dist.barrier()\n'
            '  File "/opt/conda/envs/py36/lib/python3.6/site-packages/torch/distributed/distributed_c10d.py", line '
            "1489, in barrier\n    work = _default_pg.barrier()\n")
_SITE = "RuntimeError: NCCL error in: /opt/conda/condabld/pytorch/work/torch/lib/c10d/ProcessGroupNCCL.cpp:410, \n"


def test_an_nccl_check_cut_after_its_site_is_read_with_its_message_on_the_next_line(tmp_path):
    v, acc = _verdict(tmp_path, _BARRIER + _SITE + "unhandled system error, NCCL version 2.4.8\n")
    assert v["cause"] == "nccl_system" and v["culprits"] == [] and not acc, v
    assert "NCCL_DEBUG=INFO" in v["fix"] and "/dev/shm" in v["fix"], v


def test_a_site_line_followed_by_no_nccl_message_keeps_its_old_reading(tmp_path):
    v, acc = _verdict(tmp_path, _BARRIER + _SITE + "\nDuring handling of the above exception, another exception "
                                "occurred:\n")
    assert v["cause"] == "unknown" and not acc, v
