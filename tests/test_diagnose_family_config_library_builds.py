"""An installed library's own build or release failing the same on every rank, shapes round 95 showed unread (lead
rules AF (2), BV (4), BW (2), J, AC (1); verdict.library_builds).

- A compiled library's own C++ check finding nothing registered for what the job asks ("RuntimeError:
  /mnt/flux/include/flux/op_registry.h:204 Check failed: visit_iter != gemm_hparams_.end(). No registered hparams
  found for meta:GemmMeta(..., arch=Sm80, ...)"), on ranks 6 and 5 alike and an untagged copy, one cut short
  (flux-121): the library's build has no kernel config for this GPU architecture / dtype, which every rank shares --
  config, culprits [], the fix a build of that library for the GPU's arch (or registered hparams, a supported GPU).
  Not read so: the same C++ check without "nothing registered" words (a check on the job's own values).
"""
from __future__ import annotations

from tests.conftest import diagnose_verdict as _verdict

_CHECK = ("/opt/flux/include/flux/op_registry.h:204 Check failed: visit_iter != gemm_hparams_.end(). No registered "
          "hparams found for meta:GemmMeta(dtype=GemmDTypeConfig(a=FP16,b=FP16,c=FP16,d=FP16,acc=FP32),arch=Sm80,"
          "comm_op=AGScatter,gemm_layout=RCR,impl=GemmGroupedV3)")


def test_a_librarys_registry_with_nothing_for_the_arch_is_its_build(tmp_path):
    v = _verdict(tmp_path, f"[rank2]: RuntimeError: {_CHECK}\n{_CHECK}\n"
                 "[rank1]: Traceback (most recent call last):\n"
                 "[rank1]:   File \"/work/moe.py\", line 152, in forward\n"
                 "[rank1]:     self.ag_op.forward(\n"
                 f"[rank1]: RuntimeError: {_CHECK[:90]}\n")
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "flux build for the GPU architecture" in v["fix"] and "Sm80" in v["fix"], v


def test_a_cpp_check_on_the_jobs_own_values_is_not_a_build(tmp_path):
    v = _verdict(tmp_path, "[rank2]: RuntimeError: /opt/flux/include/flux/gemm.h:88 Check failed: m % 128 == 0. "
                 "m=100 is not a multiple of the tile\n")
    assert "GPU architecture" not in v["fix"], v

