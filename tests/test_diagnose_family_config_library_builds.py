"""An installed library's own build or release failing the same on every rank, shapes round 95 showed unread (lead
rules AF (2), BB (1), BV (4), BW (2), J, AC (1); verdict.library_builds).

- A compiled library's own C++ check finding nothing registered for what the job asks ("RuntimeError:
  /mnt/flux/include/flux/op_registry.h:204 Check failed: visit_iter != gemm_hparams_.end(). No registered hparams
  found for meta:GemmMeta(..., arch=Sm80, ...)"), on ranks 6 and 5 alike and an untagged copy, one cut short
  (flux-121): the library's build has no kernel config for this GPU architecture / dtype, which every rank shares --
  config, culprits [], the fix a build of that library for the GPU's arch (or registered hparams, a supported GPU).
  Not read so: the same C++ check without "nothing registered" words (a check on the job's own values).
- One untagged traceback, the paste starting below its header, its innermost frames inside DeepSpeed's ZeRO-1/2
  gradient reduction, ending in "IndexError: list index out of range" on the code line indexing its own bucket
  ("bucket.buffer[bucket.index]"; musetalk-361): the installed release's bookkeeping every rank runs alike, config,
  culprits [], the fix the DeepSpeed version and the ZeRO settings (overlap_comm, reduce buckets, stage). Not read
  so: DeepSpeed's own raised check (ZeRO-3's "still have inflight params", rule BJ (2)'s unknown: ross3d-8), torch's
  own code indexing what the job's call hands it (deepspeed-7672: unknown), the job's own frame innermost.
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


_ZERO = ("  File \"/env/lib/python3.10/site-packages/deepspeed/runtime/engine.py\", line 2160, in allreduce_gradients\n"
         "    self.optimizer.overlapping_partition_gradients_reduce_epilogue()\n"
         "  File \"/env/lib/python3.10/site-packages/deepspeed/runtime/zero/stage_1_and_2.py\", line 826, in "
         "independent_gradient_partition_epilogue\n"
         "    self.reduce_ipg_grads()\n"
         "  File \"/env/lib/python3.10/site-packages/deepspeed/runtime/zero/stage_1_and_2.py\", line 1453, in "
         "reduce_ipg_grads\n")


def test_an_index_error_in_deepspeeds_own_bookkeeping_is_its_release(tmp_path):
    v = _verdict(tmp_path, _ZERO + "    self.average_tensor(bucket.buffer[bucket.index].narrow(0, 0, n), dtype)\n"
                 "IndexError: list index out of range\n")
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "deepspeed version" in v["fix"] and "overlap_comm false" in v["fix"], v


def test_deepspeeds_own_raised_check_keeps_its_reading(tmp_path):
    v = _verdict(tmp_path, _ZERO + "    raise IndexError(f\"bucket {i} missing\")\n"
                 "IndexError: bucket 3 missing\n")
    assert v["cause"] != "config", v


def test_torchs_own_code_indexing_the_calls_tuple_keeps_its_reading(tmp_path):
    v = _verdict(tmp_path, "  File \"/env/lib/python3.10/site-packages/torch/autograd/function.py\", line 289, in "
                 "apply\n    return user_fn(self, *args)\n"
                 "  File \"/env/lib/python3.10/site-packages/torch/distributed/nn/functional.py\", line 343, in "
                 "backward\n    gx = torch.empty_like(grad_outputs[rank])\n"
                 "IndexError: tuple index out of range\n")
    assert v["cause"] != "config", v
