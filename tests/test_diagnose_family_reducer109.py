"""DDP's reducer and parameter checks read alone, and the job's own code bugs, as round 109 showed them (session 46;
rules AH (1), AW, A, BJ (2), BG (1), X (2)): each shape's verdict and the remedy an expert names for it.

- DDP's start-up check "params[N] in this process with sizes [...] appears not to match strides/sizes of the same
  param in process 0" pasted without its "RuntimeError: " head (edm-30): desync, nobody named, as with the head.
- The reducer's list of parameters that got no gradient, pasted alone ("Parameter indices which did not receive grad
  for rank 7: ...", "Parameters which did not receive grad for rank 1: <names>"; pytorch-70099, seervideoldm-5):
  unknown, nobody (the rank is only the printing one); the fix names find_unused_parameters=True and the DETAIL list.
- "Expected to mark a variable ready only once" / "marked as ready twice" (deepke-317): the fix adds
  find_unused_parameters=False and shared/tied parameters.
- "Expected to have finished reduction in the prior iteration" (ms-swift-587): the fix adds the DETAIL listing and
  non-reentrant checkpointing.
- "'DistributedDataParallel' object has no attribute 'X'" (sd-scripts-994; with torchrun's lone record: ad-lgc-1,
  d3rlpy-367): the fix says access submodules through .module and run on a single GPU to confirm.
- A lone local rank's exception record (dialki-3): the fix says to read each worker's traceback if more were launched.
- A launcher's worker dying by SIGSEGV (accelerate-847): the fix adds NCCL_DEBUG=INFO to see where it crashed.
- torchrun's own "'NoneType' object has no attribute 'is_failed'" in launch_agent (pytorch-133380): the fix names the
  launcher bug, the workers' own logs and LOGLEVEL=INFO.
"""
from __future__ import annotations

from tests.conftest import verdict_accused as _verdict


# --- DDP's parameter check without its head ------------------------------------------------------------------------
def test_ddp_param_check_without_its_head_is_desync_nobody_named(tmp_path):
    for text in ("params[41] in this process with sizes [128, 64, 1, 1] appears not to match strides of the same "
                 "param in process 0.\n",
                 "2024-05-02 11:03:17 params[7] in this process with sizes [512] appears not to match sizes of the "
                 "same param in process 0.\n",
                 "replicas[0][3] in this process with sizes [96, 3, 3, 3] appears not to match sizes of the same "
                 "param in process 0.\n"):
        v, acc = _verdict(tmp_path, text)
        assert v["cause"] == "desync" and not acc, v
        assert "TORCH_DISTRIBUTED_DEBUG=DETAIL" in v["fix"], v
        # the strides wording names the layout; the sizes wording does not
        assert ("p.data = p.data.contiguous()" in v["fix"]) == ("match strides" in text), v
    # near shape: a model's own print of its parameter shapes is no check at all
    v, acc = _verdict(tmp_path, "params[41] in this process with sizes [128, 64, 1, 1] looks fine\n")
    assert v["cause"] == "none" and not acc, v


# --- the reducer's unused-parameter list alone -----------------------------------------------------------------------
def test_unused_parameter_list_alone_is_unknown_nobody_named(tmp_path):
    for rank, text in ((5, "Parameter indices which did not receive grad for rank 5: 212 213 214 215 216\n"),
                       (2, "> Parameter indices which did not receive grad for rank 2: 7 8 9\n"),
                       (3, "Parameters which did not receive grad for rank 3: encoder.blocks.4.attn.rel_pos.table, "
                           "decoder.head.bias, decoder.head.weight\n")):
        v, acc = _verdict(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
        assert rank not in acc
        assert "find_unused_parameters=True" in v["fix"], v
        assert "TORCH_DISTRIBUTED_DEBUG=DETAIL to list the parameters that got no gradient" in v["fix"], v
    # near shape: a job's own print about gradients is no reducer error
    v, acc = _verdict(tmp_path, "grad norm for rank 5: 0.0213 (parameters 212 213 214)\n")
    assert v["cause"] == "none" and not acc, v
    assert "find_unused_parameters" not in v["fix"], v


def test_unfinished_reduction_fix_names_non_reentrant_checkpointing(tmp_path):
    v, acc = _verdict(tmp_path,
                      '  File "/srv/env/lib/python3.10/site-packages/torch/nn/parallel/distributed.py", line 1139, in '
                      "forward\n    if torch.is_grad_enabled() and self.reducer._rebuild_buckets():\n"
                      "RuntimeError: Expected to have finished reduction in the prior iteration before starting a new "
                      "one. This error indicates that your module has parameters that were not used in producing "
                      "loss.\n")
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "gradient checkpointing with use_reentrant=False" in v["fix"], v
    assert "TORCH_DISTRIBUTED_DEBUG=DETAIL to list the parameters that got no gradient" in v["fix"], v


# --- a parameter marked ready twice ---------------------------------------------------------------------------------
def test_marked_ready_twice_fix_names_find_unused_false_and_tied_weights(tmp_path):
    for text in ("RuntimeError: Expected to mark a variable ready only once. This error is caused by one of the "
                 "following reasons: 1) Use of a module parameter outside the `forward` function.\n"
                 "Parameter at index 212 has been marked as ready twice. This means that multiple autograd engine  "
                 "hooks have fired for this particular parameter during this iteration.\n",
                 "RuntimeError: Expected to mark a variable ready only once. This error is caused by one of the "
                 "following reasons.\n"):
        v, acc = _verdict(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
        assert "find_unused_parameters=False" in v["fix"], v
        assert "shared/tied parameters are used once per backward" in v["fix"], v
    # near shape: the reducer's other assert keeps its own fix, without the marked-twice words
    v, acc = _verdict(tmp_path, "RuntimeError: expect_autograd_hooks_ INTERNAL ASSERT FAILED at "
                                "\"/opt/pytorch/torch/csrc/distributed/c10d/reducer.cpp\":1541, please report a bug\n")
    assert v["cause"] == "unknown" and not acc, v
    assert "expect_autograd_hooks_" in v["fix"], v
    assert "find_unused_parameters=False" not in v["fix"], v


# --- a model attribute read through the DDP wrapper -------------------------------------------------------------------
_GETATTR = ('  File "/venv/lib/python3.10/site-packages/torch/nn/modules/module.py", line 1688, in __getattr__\n'
            "    raise AttributeError(f\"'{type(self).__name__}' object has no attribute '{name}'\")\n")


def test_ddp_attribute_untagged_names_module_and_single_gpu(tmp_path):
    v, acc = _verdict(tmp_path, "Traceback (most recent call last):\n"
                                '  File "/work/proj/train.py", line 91, in step\n'
                                "    z = self.vae.quant_head(x)\n" + _GETATTR
                      + "AttributeError: 'DistributedDataParallel' object has no attribute 'quant_head'\n")
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "access submodules of a DDP-wrapped module through .module" in v["fix"], v
    assert "run on a single GPU to confirm" in v["fix"], v


def test_ddp_attribute_with_a_lone_record_names_module_and_that_rank(tmp_path):
    v, acc = _verdict(tmp_path, "Traceback (most recent call last):\n"
                                '  File "/work/proj/trainer.py", line 52, in __init__\n'
                                "    self.opt = build(self.net.head_proj)\n" + _GETATTR
                      + "AttributeError: 'DistributedDataParallel' object has no attribute 'head_proj'\n"
                      "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 1 (pid: "
                      "40411) of binary: /venv/bin/python\n")
    assert v["cause"] == "unknown" and acc == {1}, (v, acc)
    assert "unwrap the model (model.module / accelerator.unwrap_model) in the trainer" in v["fix"], v
    assert "read each worker's traceback (torchrun @record, --log-dir) if more workers were launched" in v["fix"], v
    # near shape: another class's missing attribute gets the lone rank's words, none of the wrapper's
    v, acc = _verdict(tmp_path, "Traceback (most recent call last):\n"
                                '  File "train_x.py", line 301, in _epoch\n'
                                "    if loader.sampler.resume_at != 0:\n"
                                "AttributeError: 'SequentialSampler' object has no attribute 'resume_at'\n"
                                "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: "
                                "0 (pid: 5120) of binary: /usr/bin/python3\n")
    assert v["cause"] == "unknown" and acc == {0}, (v, acc)
    assert "read each worker's traceback (torchrun @record, --log-dir) if more workers were launched" in v["fix"], v
    assert "through .module" not in v["fix"], v


# --- a launcher's worker dying by SIGSEGV ----------------------------------------------------------------------------
def test_worker_sigsegv_record_names_nccl_debug_info(tmp_path):
    v, acc = _verdict(tmp_path, "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -11) "
                                "local_rank: 1 (pid: 7781) of binary: /usr/local/bin/python3\n")
    assert v["cause"] == "unknown" and acc == {1}, (v, acc)
    assert "NCCL_DEBUG=INFO to see where the worker crashed" in v["fix"], v
    # near shape: exit code 1 is a Python exception, not a native crash: none of these words
    v, acc = _verdict(tmp_path, "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) "
                                "local_rank: 1 (pid: 7781) of binary: /usr/local/bin/python3\n")
    assert v["cause"] == "unknown", v
    assert "NCCL_DEBUG=INFO to see where the worker crashed" not in v["fix"], v


# --- torchrun's own NoneType bug ----------------------------------------------------------------------------------
def test_torchrun_agent_none_result_names_the_launcher_bug(tmp_path):
    v, acc = _verdict(tmp_path, "Traceback (most recent call last):\n"
                                '  File "/opt/py/bin/torchrun", line 8, in <module>\n    sys.exit(main())\n'
                                '  File "/opt/py/lib/python3.12/site-packages/torch/distributed/launcher/api.py", line '
                                "262, in launch_agent\n    if result.is_failed():\n       ^^^^^^^^^^^^^^^^\n"
                                "AttributeError: 'NoneType' object has no attribute 'is_failed'\n")
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "the elastic agent's run returned no result, a launcher bug" in v["fix"], v
    assert "check the workers' own logs (--log-dir, --redirects) for their exit" in v["fix"].lower(), v
    # near shape: the job's own code reading off None keeps the set-up order words
    v, acc = _verdict(tmp_path, "Traceback (most recent call last):\n"
                                '  File "/work/app/run.py", line 40, in setup\n    n = self.model.parameters()\n'
                                "AttributeError: 'NoneType' object has no attribute 'parameters'\n")
    assert v["cause"] == "unknown" and not acc, v
    assert "launcher bug" not in v["fix"], v
    assert "was not built or not attached yet" in v["fix"], v
