"""diagnose on a GPU runtime error saying the collective library's kernel code object does not load on the GPU
(HIP's hipErrorInvalidKernelFile 'invalid kernel file'; 'device kernel image is invalid'): RCCL / NCCL built for
another GPU architecture or ROCm / CUDA version -- cuda_error, no rank, a fix that names the build for this GPU
(lead rules J, AX (4), as 'invalid device function'). Round 70 showed it (RCCL 2.17.1+hip5.7 failing in enqueue.cc
while ncclGroupEnd created two devices' communicators). The near shape: another CUDA failure at the same place
(out of memory) keeps its own reading, not the build's."""

from __future__ import annotations

from tests.conftest import diagnose_verdict as _verdict


def _run(what: str) -> str:
    return ("mi-node3:40120:40120 [0] NCCL INFO Bootstrap : Using ens5:10.4.0.9<0>\n"
            "RCCL version 2.18.3+hip6.0 HEAD:a1b2c3d+\n"
            f"mi-node3:40120:40131 [1] /opt/rocm/rccl/src/enqueue.cc:70 NCCL WARN Cuda failure '{what}'\n"
            "mi-node3:40120:40131 [1] NCCL INFO /opt/rocm/rccl/src/init.cc:1500 -> 1\n"
            "mi-node3:40120:40131 [1] NCCL INFO /opt/rocm/rccl/src/group.cc:70 -> 1 [Async thread]\n")


def test_a_kernel_code_object_that_does_not_load_is_the_library_build(tmp_path):
    for what in ("invalid kernel file", "device kernel image is invalid"):
        v = _verdict(tmp_path, _run(what))
        assert (v["cause"], v["culprits"]) == ("cuda_error", []), (what, v)
        assert "gfx" in v["fix"] and "AMDGPU_TARGETS" in v["fix"] and "ROCm" in v["fix"], v


def test_another_cuda_failure_at_the_same_place_is_not_read_as_the_build(tmp_path):
    v = _verdict(tmp_path, _run("out of memory"))
    assert "AMDGPU_TARGETS" not in v["fix"], v
