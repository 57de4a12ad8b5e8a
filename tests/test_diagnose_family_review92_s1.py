"""Review 92 s1 of round 92's diagnose code (session 36), findings 1, 3, 7, 8, 9, 13 and 14: readings and fix texts
that held for wider shapes than an expert reads so, each narrowed to its shape.

- 1. launch._super_lacks read "'super' object has no attribute 'A'" as two installs' versions not matching whenever
  any installed package's frame was shown (torch's module.py _call_impl above every model's forward), or a private
  name was given -- writing a literal '<package>' where none was. Now the RAISING frame (frame_file) must be an
  installed non-torch package's, which the text names; an unread raising frame falls back to a private name only
  through a non-torch library's frames (mmcv-2171), naming no package. The job's own class reads rule BJ (2)'s unknown.
- 3. R_SETTINGS_CHECK's "When X is enabled/used/set, ... is expected to" took any subject ("each sample is expected to
  fit in max_seq_len": one rank's own data check) as config (high). Now only deit-103's subject, "the model is expected
  to return/output"; the sample check is rank 6's own failure (rule A / BJ (2)).
- 7. layer_check._layer_check gave every error raised in an installed batchnorm.py the 2-D (N, C) input text and the
  SyncBN dimensions fix. Now that text only for the dimension checks (_NORM_INPUT, apex's "Dimension out of range");
  SyncBN's "expected input tensor to be on GPU" gets the CPU-input fix (.to(device), SyncBN only on CUDA); any other
  message is quoted with a neutral norm-layer fix.
- 8. "derivative for X is not implemented" always read as a double backward with create_graph. A forward op with no
  autograd formula (FP8 _scaled_mm) fails a plain loss.backward(); now "double backward" only where X is itself a
  backward kernel (batch_norm_backward_elemt) -- a forward op with no derivative fails the first-order pass, under
  autograd.grad with create_graph too -- else "keep the op out of the trained path / upgrade torch or its library".
- 9. unread._STR_MODULE_FIX ("a model passed by its path") fired for a tensor's .to / .cuda / .half / .float on a str,
  the everyday batch dict iterated by its keys. Now only nn.Module's own methods (yolo-distiller-4's
  named_parameters); the tensor methods get the batch-dict fix ({k: v.to(device) for k, v in batch.items()}).
- 13. unread._ddp_refused_cut's fix named sd-scripts' block swapping for every DDP refusal cut at _log_and_throw. Now
  block swapping only where the cut stack names it, or (hedged) where accelerate's prepare_model places the model as
  the script chose (sd-scripts-pr1374); else DDP's other constructor checks.
- 14. parse's loader_reraise took any "self._process_data(" code line (a dataset's own method), and exits.py said
  "the traceback stops in the DataLoader re-raising" even with the worker's exception shown under it. Now only
  torch's exact _next_data line under its DataLoader frame (where read), and only with no exception line following.
"""

from __future__ import annotations

from tests.conftest import corpus_case_verdict as _case
from tests.conftest import verdict_accused as _verdict

# --- 1. 'super' object has no attribute: the raising frame ---------------------------------------------------------
_C_SUPER = (
    'Traceback (most recent call last):\n'
    '  File "/home/user/proj/train.py", line 50, in <module>\n'
    '    out = model(x)\n'
    '  File "/opt/conda/lib/python3.10/site-packages/torch/nn/modules/module.py", line 1511, in _wrapped_call_impl\n'
    '    return self._call_impl(*args, **kwargs)\n'
    '  File "/opt/conda/lib/python3.10/site-packages/torch/nn/modules/module.py", line 1520, in _call_impl\n'
    '    return forward_call(*args, **kwargs)\n'
    '  File "/home/user/proj/models/vit.py", line 88, in forward\n'
    '    x = super().forward_head(x)\n'
    "AttributeError: 'super' object has no attribute 'forward_head'\n"
)

_C_SUPER2 = (
    'Traceback (most recent call last):\n'
    '  File "/home/user/proj/train.py", line 50, in <module>\n'
    '    model = MyNet(cfg)\n'
    '  File "/home/user/proj/models/net.py", line 31, in __init__\n'
    '    super()._build_layers(cfg)\n'
    "AttributeError: 'super' object has no attribute '_build_layers'\n"
)

_MMCV_FRAME = (
    "Traceback (most recent call last):\n"
    '  File "/home/u/train.py", line 20, in <module>\n'
    "    model = build_model(cfg)\n"
    '  File "/opt/conda/lib/python3.8/site-packages/mmcv/cnn/bricks/norm.py", line 110, in build_norm_layer\n'
    "    layer._specify_ddp_gpu_num(1)\n"
    "AttributeError: 'super' object has no attribute '_specify_ddp_gpu_num'\n")


def test_the_jobs_own_class_calling_super_is_no_version_mismatch(tmp_path):
    for log in (_C_SUPER, _C_SUPER2, _C_SUPER.replace("forward_head", "_forward_head")):
        v, acc = _verdict(tmp_path, log)
        assert v["cause"] == "unknown" and not acc, v
        assert "<package>" not in v["summary"] + (v.get("fix") or ""), v


def test_an_installed_librarys_super_call_still_reads_config(tmp_path):
    v, acc = _verdict(tmp_path, _MMCV_FRAME)
    assert v["cause"] == "config" and not acc and "pip show torch mmcv" in v["fix"], v
    v, acc = _case(tmp_path, "mmcv-2171-syncbn-specify-ddp-gpu-num-torch19-mmcv130")
    assert v["cause"] == "config" and not acc and "_specify_ddp_gpu_num" in v["fix"], v
    assert "<package>" not in v["summary"] + v["fix"], v
    # no frame read at all (a paste wrapped past reading): the private name, no package named
    bare = ("Traceback (most recent call last):\n"
            "AttributeError: 'super' object has no attribute '_specify_ddp_gpu_num'\n")
    v, acc = _verdict(tmp_path, bare)
    assert v["cause"] == "config" and not acc and "<package>" not in v["summary"] + v["fix"], v


# --- 3. 'When X is enabled, ... is expected to': the model's return only -----------------------------------------
_H_ENABLED = (
    '[rank6]: Traceback (most recent call last):\n'
    '[rank6]:   File "/home/user/proj/train.py", line 212, in <module>\n'
    '[rank6]:     main()\n'
    '[rank6]:   File "/home/user/proj/train.py", line 160, in main\n'
    '[rank6]:     batch = collate(samples)\n'
    '[rank6]:   File "/home/user/proj/data.py", line 77, in collate\n'
    '[rank6]:     raise ValueError(f"When packing is enabled, each sample is expected to fit in'
    ' max_seq_len=4096, got {n} tokens (sample {sid})")\n'
    '[rank6]: ValueError: When packing is enabled, each sample is expected to fit in max_seq_le'
    'n=4096, got 5121 tokens (sample 88123)\n'
)


def test_a_sample_check_under_an_enabled_setting_is_the_ranks_own(tmp_path):
    v, acc = _verdict(tmp_path, _H_ENABLED)
    assert v["cause"] == "unknown" and acc == {6}, v
    assert "model built for packing" not in (v.get("fix") or ""), v


def test_the_model_expected_to_return_still_reads_config(tmp_path):
    v, acc = _case(tmp_path, "deit-103-distillation-model-not-tuple-valueerror")
    assert v["cause"] == "config" and v["confidence"] == "high" and not acc, v


# --- 7. a norm layer's other checks: no 2-D input text ------------------------------------------------------------
_G_SYNCBN_GPU = (
    'Traceback (most recent call last):\n'
    '  File "/home/user/proj/train.py", line 90, in <module>\n'
    '    out = model(images)\n'
    '  File "/opt/conda/lib/python3.10/site-packages/torch/nn/modules/module.py", line 1520, in _call_impl\n'
    '    return forward_call(*args, **kwargs)\n'
    '  File "/home/user/proj/model.py", line 40, in forward\n'
    '    x = self.bn1(x)\n'
    '  File "/opt/conda/lib/python3.10/site-packages/torch/nn/modules/module.py", line 1520, in _call_impl\n'
    '    return forward_call(*args, **kwargs)\n'
    '  File "/opt/conda/lib/python3.10/site-packages/torch/nn/modules/batchnorm.py", line 741, in forward\n'
    '    raise ValueError("SyncBatchNorm expected input tensor to be on GPU or privateuseone")\n'
    'ValueError: SyncBatchNorm expected input tensor to be on GPU or privateuseone\n'
)


def test_syncbn_refusing_a_cpu_input_gets_the_device_fix(tmp_path):
    v, acc = _verdict(tmp_path, _G_SYNCBN_GPU)
    assert not acc, v
    text = v["summary"] + (v.get("fix") or "")
    assert "2-D (N, C)" not in text and "unsqueeze" not in text, v
    assert ".to(device)" in v["fix"] and "CPU" in v["fix"], v


def test_another_norm_check_is_quoted_with_a_neutral_fix(tmp_path):
    other = _G_SYNCBN_GPU.replace("SyncBatchNorm expected input tensor to be on GPU or privateuseone",
                                  "num_features must be positive")
    v, acc = _verdict(tmp_path, other)
    text = v["summary"] + (v.get("fix") or "")
    assert "2-D (N, C)" not in text and "unsqueeze" not in text, v


def test_the_dimension_checks_keep_the_dimension_fix(tmp_path):
    for name in ("simsiam-12-syncbn-torch11-expected-3d-input-projector",
                 "det3d-36-apex-syncbn-welford-2d-dimension-out-of-range"):
        v, acc = _case(tmp_path, name)
        assert v["cause"] == "config" and not acc and "2-D (N, C)" in v["summary"] and "unsqueeze" in v["fix"], v


# --- 8. no derivative: double backward only for a backward kernel ------------------------------------------------
_H_SCALED_MM = (
    'Traceback (most recent call last):\n'
    '  File "/home/user/proj/train_fp8.py", line 140, in <module>\n'
    '    loss.backward()\n'
    '  File "/opt/conda/lib/python3.10/site-packages/torch/_tensor.py", line 492, in backward\n'
    '    torch.autograd.backward(\n'
    '  File "/opt/conda/lib/python3.10/site-packages/torch/autograd/__init__.py", line 251, in backward\n'
    '    Variable._execution_engine.run_backward(  # Calls into the C++ engine to run the backward pass\n'
    'RuntimeError: derivative for aten::_scaled_mm is not implemented\n'
)


def test_a_forward_op_with_no_derivative_is_no_double_backward(tmp_path):
    v, acc = _verdict(tmp_path, _H_SCALED_MM)
    assert not acc, v
    text = v["summary"] + v["fix"]
    assert "create_graph" not in text and "double backward" not in text, v
    assert "trained path" in v["fix"] and "upgrade torch" in v["fix"], v


def test_a_backward_kernels_missing_derivative_stays_a_double_backward(tmp_path):
    v, acc = _case(tmp_path, "gradnorm-6-ddp-syncbn-double-backward-not-implemented")
    assert v["cause"] == "config" and not acc and "double backward" in v["fix"], v
    # torch.autograd.grad with create_graph on a forward op: the first-order pass already fails, no double backward
    grad = _H_SCALED_MM.replace("loss.backward()", "grads = torch.autograd.grad(loss, params, create_graph=True)")
    v, acc = _verdict(tmp_path, grad.replace("line 251, in backward", "line 394, in grad"))
    assert "trained path" in v["fix"] and "double backward" not in v["fix"], v


# --- 9. a tensor's method on a str is the batch dict --------------------------------------------------------------
_A_STR_TO = (
    '[rank1]: Traceback (most recent call last):\n'
    '[rank1]:   File "/home/user/proj/train.py", line 212, in <module>\n'
    '[rank1]:     main()\n'
    '[rank1]:   File "/home/user/proj/train.py", line 160, in main\n'
    '[rank1]:     batch = [t.to(device) for t in batch]\n'
    '[rank1]:   File "/home/user/proj/train.py", line 160, in <listcomp>\n'
    '[rank1]:     batch = [t.to(device) for t in batch]\n'
    "[rank1]: AttributeError: 'str' object has no attribute 'to'\n"
)


def test_to_on_a_str_gets_the_batch_dict_fix(tmp_path):
    v, acc = _verdict(tmp_path, _A_STR_TO)
    assert v["cause"] == "unknown" and acc == {1}, v
    assert "passed by its path" not in v["fix"] and "batch.items()" in v["fix"], v


def test_a_module_method_on_a_str_keeps_the_model_path_fix(tmp_path):
    v, acc = _case(tmp_path, "yolo-distiller-4-ddp-teacher-str-named-parameters")
    assert "passed by its path" in v["fix"], v


# --- 13. DDP's refusal cut: block swapping only where shown -------------------------------------------------------
_DDP_CUT = (
    "Traceback (most recent call last):\n"
    '  File "/home/u/train.py", line 80, in <module>\n'
    "    model = DDP(model, device_ids=[local_rank])\n"
    '  File "/opt/conda/lib/python3.10/site-packages/torch/nn/parallel/distributed.py", line 784, in __init__\n'
    "    self._log_and_throw(\n"
    '  File "/opt/conda/lib/python3.10/site-packages/torch/nn/parallel/distributed.py", line 1127, in _log_and_throw\n'
    "    raise err_type(err_msg)\n")


def test_a_plain_ddp_refusal_cut_names_no_block_swapping(tmp_path):
    v, acc = _verdict(tmp_path, _DDP_CUT)
    assert v["cause"] == "invalid_usage" and not acc, v
    assert "swap" not in v["fix"] and "requires a gradient" in v["fix"], v


def test_sd_scripts_refusal_keeps_the_block_swapping_fix(tmp_path):
    v, acc = _case(tmp_path, "sd-scripts-pr1374-flux-train-blockswap-ddp-init-valueerror-rank3")
    assert v["cause"] == "invalid_usage" and not acc and "blocks_to_swap" in v["fix"], v
    named = _DDP_CUT.replace("model = DDP(model, device_ids=[local_rank])",
                             "model = DDP(model, device_ids=[local_rank])  # args.blocks_to_swap")
    v, acc = _verdict(tmp_path, named)
    assert "The stack names block swapping" in v["fix"], v


# --- 14. the DataLoader's re-raise: its own line, its exception not shown ------------------------------------------
_M_PROCESS_DATA3 = (
    'Traceback (most recent call last):\n'
    '  File "/home/user/proj/preprocess.py", line 120, in <module>\n'
    '    ds = build_dataset(cfg)\n'
    '  File "/home/user/proj/datasets/jsonl.py", line 44, in __init__\n'
    '    self.items = self._process_data(raw)\n'
    'WARNING: retrying shard 3\n'
    'E1205 10:01:02.123000 140 torch/distributed/elastic/multiprocessing/api.py:833] failed (ex'
    'itcode: 1) local_rank: 2 (pid: 2301) of binary: /opt/conda/bin/python\n'
    'torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n'
    '============================================================\n'
    'train.py FAILED\n'
    '------------------------------------------------------------\n'
    'Failures:\n'
    '  <NO_OTHER_FAILURES>\n'
    '------------------------------------------------------------\n'
    'Root Cause (first observed failure):\n'
    '[0]:\n'
    '  time      : 2026-12-05_10:01:02\n'
    '  host      : node1\n'
    '  rank      : 2 (local_rank: 2)\n'
    '  exitcode  : 1 (pid: 2301)\n'
    '  error_file: <N/A>\n'
    '  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html\n'
    '============================================================\n'
)

_L_RERAISE_FULL = (
    'Traceback (most recent call last):\n'
    '  File "/home/user/proj/train.py", line 160, in main\n'
    '    for batch in loader:\n'
    '  File "/opt/conda/lib/python3.10/site-packages/torch/utils/data/dataloader.py", line 631, in __next__\n'
    '    data = self._next_data()\n'
    '  File "/opt/conda/lib/python3.10/site-packages/torch/utils/data/dataloader.py", line 1346, in _next_data\n'
    '    return self._process_data(data)\n'
    '  File "/opt/conda/lib/python3.10/site-packages/torch/utils/data/dataloader.py", line 1372, in _process_data\n'
    '    data.reraise()\n'
    '  File "/opt/conda/lib/python3.10/site-packages/torch/_utils.py", line 722, in reraise\n'
    '    raise exception\n'
    'FileNotFoundError: Caught FileNotFoundError in DataLoader worker process 3.\n'
    'Original Traceback (most recent call last):\n'
    '  File "/opt/conda/lib/python3.10/site-packages/torch/utils/data/_utils/worker.py", line 308, in _worker_loop\n'
    '    data = fetcher.fetch(index)\n'
    '  File "/home/user/proj/data.py", line 40, in __getitem__\n'
    '    img = Image.open(path)\n'
    "FileNotFoundError: [Errno 2] No such file or directory: '/data/imgs/000123.jpg'\n"
    '\n'
    'E1205 10:01:02.123000 140 torch/distributed/elastic/multiprocessing/api.py:833] failed (ex'
    'itcode: 1) local_rank: 2 (pid: 2301) of binary: /opt/conda/bin/python\n'
    'torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n'
    '============================================================\n'
    'train.py FAILED\n'
    '------------------------------------------------------------\n'
    'Failures:\n'
    '  <NO_OTHER_FAILURES>\n'
    '------------------------------------------------------------\n'
    'Root Cause (first observed failure):\n'
    '[0]:\n'
    '  time      : 2026-12-05_10:01:02\n'
    '  host      : node1\n'
    '  rank      : 2 (local_rank: 2)\n'
    '  exitcode  : 1 (pid: 2301)\n'
    '  error_file: <N/A>\n'
    '  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html\n'
    '============================================================\n'
)


def test_a_datasets_own_process_data_is_no_dataloader_reraise(tmp_path):
    v, acc = _verdict(tmp_path, _M_PROCESS_DATA3)
    assert acc == {2}, v
    assert "DataLoader" not in v["summary"] + v["fix"], v


def test_a_reraise_with_its_exception_shown_reads_that_exception(tmp_path):
    v, acc = _verdict(tmp_path, _L_RERAISE_FULL)
    assert acc == {2} and "shown in the lines" in v["summary"], v
    assert "stops in the DataLoader" not in v["fix"] and "No such file or directory" in v["fix"], v


def test_a_reraise_cut_before_its_exception_still_reads_so(tmp_path):
    v, acc = _case(tmp_path, "union14m-33-maerec-rank3-dataloader-exit1-three-sigterm")
    assert acc == {3} and "stops in the DataLoader re-raising" in v["fix"], v
