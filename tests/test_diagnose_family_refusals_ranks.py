"""Refusals of the shared install or of a call every rank makes, and a torchrun record with a second failure cut, shapes
round 92 showed read by their shape (rules A, AF (2), AG, AV, BA (3), BF (1), BK (1), BP (1), BQ (3), BT (2), BW):

- torch's NCCL process group with no NCCL datatype for a tensor's dtype ("Unconvertible NCCL type BFloat16"): the torch
  build every rank shares was compiled against an NCCL without that type -- config, nobody, whatever stream tag
  (mpirun's [1,1]) the lines carry (rule BF (1); nccl-677). Not read so: NCCL's own ncclInvalidArgument.
- A collective backend refusing an op in its own words, here SageMaker's SMDDP ("SMDDP does not support: ReduceOp"),
  also where SageMaker's ExecuteUserScriptError quotes it after 'ErrorMessage "': invalid_usage, nobody (rules AV,
  BA (3); pytorch-lightning-20409). A SageMaker failure that quotes no refusal keeps its old unknown reading.
- torch.amp.GradScaler's own order check ("unscale_() has already been called ...") in untagged processes: torch
  refusing the loop's call by its order, invalid_usage, nobody (rules BQ (3), BT (2), BW (2); swin-transformer-311).
  One rank's own tagged traceback ending there keeps rule A's reading of that rank (round 88's lvsm-pr19).
- torch's warning that it cannot use the installed NumPy ("Failed to initialize NumPy: _ARRAY_API not found") then a
  traceback cut before its text: the shared install shown wrong, config, nobody (rules AF (2), BP (1); training-760).
  The same cut traceback without the warning stays unknown (rule BG (6)).
- A traceback cut at the `raise` of DistributedDataParallel's own check (_log_and_throw), at most the exception's class
  shown ("ValueErro"): DDP refusing the module / device it was given, invalid_usage, nobody, whatever rank tag (rules
  BQ (3), BG (5), AG; sd-scripts-pr1374). A cut inside DDP's constructor elsewhere (its broadcast) is not read so.
- torchrun's table whose Failures section shows another entry's tail (its traceback line above the ---- before Root
  Cause, its rank and exit cut) beside an exit-1 Root Cause with error_file <N/A>: a second worker failed, the Root
  Cause is no lone first failure -- nobody named (rule BW (1); lora-scripts-257). A Root Cause with
  <NO_OTHER_FAILURES> above it keeps rule A's rank.
- DDP's reducer asserting that backward ran without the hooks its forward prepares ("expect_autograd_hooks_ INTERNAL
  ASSERT FAILED at .../reducer.cpp"), one rank's tagged traceback: the module and DDP setting every rank runs
  (no_sync with static_graph, a forward that bypassed the wrapper) -- nobody, as rule AW reads the reducer's other
  errors (casanovo-512; the lead relabelled oevortex-unsloth-16 to match). Another of that rank's own RuntimeErrors
  in backward keeps its rank.
"""
from __future__ import annotations

from tests.conftest import failure_record
from tests.conftest import verdict_accused as _verdict

_SITE = "/opt/conda/lib/python3.10/site-packages"


# --- torch built without NCCL's datatype ------------------------------------------------------------------------------
def test_unconvertible_nccl_type_is_the_torch_build_config_nobody(tmp_path):
    v, acc = _verdict(tmp_path, f'[1,1]<stderr>:  File "{_SITE}/torch/distributed/distributed_c10d.py", line 911, in '
                                "irecv\n"
                                "[1,1]<stderr>:    return pg.recv([tensor], src, tag)\n"
                                "[1,1]<stderr>:RuntimeError: Unconvertible NCCL type BFloat16\n")
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "torch.cuda.nccl.version()" in v["fix"] and "use fp16 instead of bf16" in v["fix"], v


def test_a_rank_s_other_runtime_error_in_irecv_keeps_its_rank(tmp_path):
    v, acc = _verdict(tmp_path, f'[1,1]<stderr>:  File "{_SITE}/torch/distributed/distributed_c10d.py", line 911, in '
                                "irecv\n"
                                "[1,1]<stderr>:    return pg.recv([tensor], src, tag)\n"
                                "[1,1]<stderr>:RuntimeError: shape of the received tensor is wrong\n")
    assert (v["cause"], v["culprits"]) == ("unknown", [1]) and acc == {1}, v


# --- a collective backend refusing an op ------------------------------------------------------------------------------
def test_smddp_refusing_a_reduce_op_quoted_by_sagemaker_is_invalid_usage(tmp_path):
    v, acc = _verdict(tmp_path, "UnexpectedStatusException: Error for Training job job-1: Failed. Reason: "
                                "AlgorithmError: ExecuteUserScriptError:\n"
                                "ExitCode 1\n"
                                'ErrorMessage "RuntimeError: SMDDP does not support: ReduceOp\n'
                                " Traceback (most recent call last)\n"
                                ' File "train.py", line 369, in <module>\n')
    assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not acc, v
    assert "use the backend nccl instead of smddp" in v["fix"] and "ReduceOp.SUM" in v["fix"], v


def test_a_sagemaker_failure_quoting_no_refusal_stays_unknown(tmp_path):
    v, acc = _verdict(tmp_path, "UnexpectedStatusException: Error for Training job job-1: Failed. Reason: "
                                "AlgorithmError: ExecuteUserScriptError:\n"
                                "ExitCode 1\n"
                                'ErrorMessage "KeyError: \'labels\'\n')
    assert v["cause"] != "invalid_usage" and not acc, v


# --- GradScaler's order check -----------------------------------------------------------------------------------------
_SCALER_TB = ("Traceback (most recent call last):\n"
              '  File "train.py", line 138, in train_one_epoch\n'
              "    scaler.unscale_(optimizer)\n"
              f'  File "{_SITE}/torch/cuda/amp/grad_scaler.py", line 270, in unscale_\n'
              '    raise RuntimeError("unscale_() has already been called on this optimizer since the last update().")'
              '\n'
              "RuntimeError: unscale_() has already been called on this optimizer since the last update().\n")


def test_untagged_processes_refused_by_gradscaler_order_are_invalid_usage(tmp_path):
    v, acc = _verdict(tmp_path, _SCALER_TB + _SCALER_TB[:-40] + "\n")
    assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not acc, v
    assert "Call scaler.unscale_ once per optimizer step" in v["fix"] and "accumulation boundary" in v["fix"], v


def test_one_tagged_rank_refused_by_gradscaler_keeps_its_rank(tmp_path):
    v, acc = _verdict(tmp_path, "".join(f"[rank0]: {x}\n" for x in _SCALER_TB.splitlines()))
    assert (v["cause"], v["culprits"]) == ("unknown", [0]) and acc == {0}, v
    assert "GradScaler usage" in v["fix"], v


# --- NumPy 1.x / 2.x beside a cut traceback ---------------------------------------------------------------------------
_CUT_TB = ("w/0 [1]:Traceback (most recent call last):\n"
           'w/0 [1]:  File "/workspace/dlrm_main.py", line 939, in <module>\n'
           "w/0 [1]:    main(sys.argv[1:])\n"
           'w/0 [1]:  File "/workspace/dlrm_main.py", line 813, in main\n'
           "w/0 [1]:    plan = planner.collective_plan(\n")


def test_numpy_abi_warning_beside_a_cut_traceback_is_the_shared_install(tmp_path):
    v, acc = _verdict(tmp_path, f"w/0 [1]:{_SITE}/torchvision/ops/x.py:63: UserWarning: Failed to initialize NumPy: "
                                "_ARRAY_API not found (Triggered internally at /w/csrc/utils/tensor_numpy.cpp:77.)\n"
                                + _CUT_TB)
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "numpy<2" in v["fix"] and "NumPy 1.x / 2.x mismatch" in v["fix"], v


def test_the_cut_traceback_without_the_numpy_warning_stays_unknown(tmp_path):
    v, acc = _verdict(tmp_path, _CUT_TB)
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v


# --- a cut at the raise of DDP's own check ----------------------------------------------------------------------------
_DDP_FRAMES = ("[rank3]:   File \"train.py\", line 427, in train\n"
               "[rank3]:     model = DistributedDataParallel(model, device_ids=[rank])\n"
               f'[rank3]:   File "{_SITE}/torch/nn/parallel/distributed.py", line 739, in __init__\n'
               "[rank3]:     self._log_and_throw(\n")


def test_a_cut_at_ddps_own_check_raise_is_invalid_usage_nobody(tmp_path):
    v, acc = _verdict(tmp_path, _DDP_FRAMES
                      + f'[rank3]:   File "{_SITE}/torch/nn/parallel/distributed.py", line 1127, in _log_and_throw\n'
                      "[rank3]:     raise err_type(err_msg)\n"
                      "[rank3]: ValueErro\n")
    assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not acc, v
    assert "move the model to the rank's GPU before DistributedDataParallel" in v["fix"], v


def test_a_cut_inside_ddps_constructor_elsewhere_is_not_its_refusal(tmp_path):
    v, acc = _verdict(tmp_path, _DDP_FRAMES.replace("self._log_and_throw(", "_sync_module_states(")
                      + f'[rank3]:   File "{_SITE}/torch/distributed/utils.py", line 300, in _sync_module_states\n'
                      "[rank3]:     _sync_params_and_buffers(\n")
    assert v["cause"] != "invalid_usage", v


# --- torchrun's table with another failure's entry cut above its Root Cause -----------------------------------------
_ROOT = ("------------------------------------------------------------\n"
         "Root Cause (first observed failure):\n"
         + failure_record(0, 0, 0, 1, 5131, host="desk")
         + "============================================================\n")


def test_a_failures_entry_tail_above_root_cause_names_nobody(tmp_path):
    v, acc = _verdict(tmp_path, "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/"
                                "errors.html\n" + _ROOT)
    assert v["cause"] == "unknown" and v["culprits"] == [] and not acc, v
    assert "@record" in v["fix"], v


def test_no_other_failures_above_root_cause_keeps_its_rank(tmp_path):
    v, acc = _verdict(tmp_path, "Failures:\n  <NO_OTHER_FAILURES>\n" + _ROOT)
    assert v["culprits"] == [0] and acc == {0}, v


# --- DDP's reducer asserting its own hooks ----------------------------------------------------------------------------
_BACKWARD = (f'[rank1]:   File "{_SITE}/torch/autograd/graph.py", line 824, in _engine_run_backward\n'
             "[rank1]:     return Variable._execution_engine.run_backward(\n")


def test_the_reducers_expect_autograd_hooks_assert_names_nobody(tmp_path):
    v, acc = _verdict(tmp_path, _BACKWARD + '[rank1]: RuntimeError: expect_autograd_hooks_ INTERNAL ASSERT FAILED at '
                                '"/pytorch/torch/csrc/distributed/c10d/reducer.cpp":1633, please report a bug to '
                                "PyTorch.\n")
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "static_graph" in v["fix"], v


def test_another_runtime_error_of_that_rank_in_backward_keeps_its_rank(tmp_path):
    v, acc = _verdict(tmp_path, _BACKWARD + "[rank1]: RuntimeError: Function 'MulBackward0' returned nan values in its "
                                "0th output.\n")
    assert v["culprits"] == [1] and acc == {1}, v
