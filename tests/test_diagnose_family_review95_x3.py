"""Session 37's review, fixer x3: readings and fix texts of rounds 94-95's new code that went too broad, and what
reads them now.

- library_builds._framework_internal read any IndexError / KeyError on a state-indexing line in DeepSpeed's runtime
  as the release's own bug, and under zero/ always advised ZeRO's bucket settings (overlap_comm, reduce_bucket_size).
  A checkpoint being loaded (load_checkpoint, _load_*, load_state_dict, _restore_* among the innermost frames) is a
  checkpoint that does not fit the current optimizer / param groups / stage / world size (rule AL (2) / W): it now
  reads so, and its fix is the checkpoint (load_optimizer_states=False, the same optimizer and stage). The bucket
  advice is given only where a frame is reduce_ipg_grads or a bucket function (round 95's musetalk-361 as before).
- library_builds._kernel_unregistered's fix named flux-121's details (gemm hparams, Hopper sm90, bf16) for any
  library's "nothing registered": arch / dtype are now said in general, "gemm" only where the message names it.
- The hvd_no_cuda fix always said HOROVOD_WITH_PYTORCH=1: it now takes the binding from the frames (horovod/torch,
  horovod/tensorflow, horovod/keras), or names both where none is shown; the rebuild command's wording is one helper
  (verdict.base.horovod_rebuild) shared with the native-crash fix of exits.py.
"""
from __future__ import annotations

from tests.conftest import corpus_case_verdict, verdict_accused

# --- 3. a ZeRO checkpoint resume -------------------------------------------------------------------------------------
_RESUME = (
    "Traceback (most recent call last):\n"
    '  File "/home/u/train.py", line 88, in <module>\n'
    "    engine.load_checkpoint(args.ckpt)\n"
    '  File "/opt/conda/lib/python3.10/site-packages/deepspeed/runtime/engine.py", line 2750, in load_checkpoint\n'
    "    success = self._load_zero_checkpoint(load_dir, tag, load_optimizer_states=load_optimizer_states)\n"
    '  File "/opt/conda/lib/python3.10/site-packages/deepspeed/runtime/engine.py", line 3010, in '
    "_load_zero_checkpoint\n"
    "    self.optimizer.load_state_dict(state_dict_list=zero_sd_list, "
    "load_from_fp32_weights=self.zero_load_from_fp32_weights())\n"
    '  File "/opt/conda/lib/python3.10/site-packages/deepspeed/runtime/zero/stage_1_and_2.py", line 2290, in '
    "_restore_base_optimizer_state\n"
    "    self.optimizer.state[p][key].data.copy_(saved.data)\n"
    "KeyError: 'exp_avg'\n")


def test_a_zero_checkpoint_resume_keyerror_is_the_checkpoint(tmp_path):
    v, acc = verdict_accused(tmp_path, _RESUME)
    assert v["cause"] == "config" and v["culprits"] == [] and not acc, v
    assert "checkpoint" in v["summary"] and "load_optimizer_states=False" in v["fix"], v
    assert "overlap_comm" not in v["fix"] and "gradient buckets" not in v["summary"], v


def test_musetalk_reduce_ipg_grads_keeps_the_bucket_advice(tmp_path):
    v, acc = corpus_case_verdict(tmp_path, "musetalk-361-deepspeed-zero2-reduce-ipg-grads-indexerror")
    assert v["cause"] == "config" and not acc, v
    assert "overlap_comm" in v["fix"] and "gradient buckets" in v["summary"], v


# --- 8. a library's "nothing registered" check -----------------------------------------------------------------------
_ATTN = ("RuntimeError: /src/attn/include/attn/registry.h:88 Check failed: it != kernels_.end(). No kernel registered "
         "for config: AttnMeta(dtype=FP8, arch=Sm75, head_dim=256)\n")


def test_a_non_gemm_registry_gets_no_gemm_advice(tmp_path):
    v, acc = verdict_accused(tmp_path, _ATTN)
    assert v["cause"] == "config" and not acc, v
    assert "gemm" not in v["fix"].lower() and "Hopper" not in v["fix"] and "bf16" not in v["fix"], v


def test_flux_121_still_reads_a_gemm_build_gap(tmp_path):
    v, acc = corpus_case_verdict(tmp_path, "flux-121-moe-no-hparams-sm80")
    assert v["cause"] == "config" and not acc, v
    assert "gemm" in v["fix"] and "Sm80" in v["fix"], v


# --- 10. Horovod built without CUDA: the framework binding's build variable ------------------------------------------
_TF = (
    "Traceback (most recent call last):\n"
    '  File "/usr/local/lib/python3.8/dist-packages/horovod/tensorflow/__init__.py", line 120, in broadcast_variables\n'
    "    return _broadcast_group(variables, root_rank)\n"
    '  File "/usr/local/lib/python3.8/dist-packages/horovod/tensorflow/mpi_ops.py", line 200, in broadcast\n'
    "    return MPI_LIB.horovod_broadcast(tensor, name=name, root_rank=root_rank)\n"
    "tensorflow.python.framework.errors_impl.InternalError: Internal error. Requested ReadyEvent with GPU device but "
    "not compiled with CUDA.\n")


def test_a_tensorflow_horovod_is_told_its_own_variable(tmp_path):
    v, acc = verdict_accused(tmp_path, _TF)
    assert v["cause"] == "config" and not acc, v
    assert "HOROVOD_WITH_TENSORFLOW=1" in v["fix"] and "HOROVOD_WITH_PYTORCH" not in v["fix"], v


def test_once_for_all_29_torch_horovod_keeps_pytorch(tmp_path):
    v, acc = corpus_case_verdict(tmp_path, "once-for-all-29-horovod-readyevent-not-compiled-with-cuda")
    assert v["cause"] == "config" and not acc, v
    assert "HOROVOD_WITH_PYTORCH=1" in v["fix"] and "HOROVOD_WITH_TENSORFLOW" not in v["fix"], v
