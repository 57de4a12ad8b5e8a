"""A library's own check refusing a property of the model every rank builds alike, shapes round 92 showed read by
their shape (rules BW (2), BF (3), BF (4), AF (2), BQ (3), W, U (2)): config, no rank, nobody innocent, untagged or
with one traceback only, and the fix names the remedy an expert names for that shape.

- A norm layer refusing its input's dimensions in the model's forward: torch's _check_input_dim ("expected at least
  3D input (got 2D input)": SyncBatchNorm before torch 1.4 on a projection head's (N, C) features; simsiam-12), or
  any error raised in an installed norm layer's module (apex's optimized_sync_batchnorm_kernel.py welford_mean_var
  "Dimension out of range"; det3d-36). The fix names the BN layer's input dimensions, not converting BatchNorm1d to
  SyncBN, unsqueezing to 3-D and the torch / apex release that accepts 2-D input. The same "Dimension out of range"
  raised in the job's own model code is not read so (rule BJ (2)'s unknown).
- Autograd's "derivative for X is not implemented" in a backward (a double backward through SyncBatchNorm's
  batch_norm_backward_elemt; gradnorm-6): the fix names plain BatchNorm and no create_graph through the layer.
- "'super' object has no attribute 'A'" under an installed package's frames (mmcv's SyncBN wrapper calling torch
  1.9's removed _specify_ddp_gpu_num; mmcv-2171): two installs whose versions do not match (rule AF (2)). The same
  error in the script's own class, no installed package's frame, is not read so.
- A framework's own check naming a setting switched on and what the model is then expected to be ("When knowledge
  distillation is enabled, the model is expected to return a Tuple[Tensor, Tensor] ..."; deit-103, rules W, BF (3)):
  the fix names that setting's settings. A model's "expected" check naming no setting is not read so.
- A traceback cut on the ``raise`` of GradScaler's _unscale_grads_ (its one check: "Attempting to unscale FP16
  gradients"; funmusic-28), read by its source location (rule BQ (3)): fp16 parameters, the fix names fp32 master
  weights / autocast / bf16. A cut on unscale_'s own raise (a call-order refusal, invalid_usage by rule BW (2)) is not
  read so.
"""
from __future__ import annotations

from tests.conftest import verdict_accused as _verdict

_TORCH = "/opt/conda/lib/python3.8/site-packages/torch"


# --- a norm layer refusing its input's dimensions ---------------------------------------------------------------------
def test_syncbn_refusing_a_2d_input_is_config_with_the_bn_layer_fix(tmp_path):
    v, acc = _verdict(tmp_path, "    z1 = self.encoder(x1)\n"
                                f'  File "{_TORCH}/nn/modules/container.py", line 92, in forward\n'
                                "    input = module(input)\n"
                                f'  File "{_TORCH}/nn/modules/batchnorm.py", line 440, in forward\n'
                                "    self._check_input_dim(input)\n"
                                f'  File "{_TORCH}/nn/modules/batchnorm.py", line 425, in _check_input_dim\n'
                                "    .format(input.dim()))\n"
                                "ValueError: expected at least 3D input (got 2D input)\n")
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "convert_sync_batchnorm only where input is >=3D" in v["fix"], v
    assert "check the input dimensions of the bn layer" in v["fix"].lower(), v


def test_apex_syncbn_kernel_dimension_out_of_range_is_config(tmp_path):
    v, acc = _verdict(tmp_path, "python -m torch.distributed.launch --nproc_per_node=8 train.py cfg_syncbn.py\n"
                                '  File "/usr/local/lib/python3.6/site-packages/apex/parallel/optimized_sync_batchnorm_'
                                'kernel.py", line 26, in forward\n'
                                "    mean, var_biased = syncbn.welford_mean_var(input)\n"
                                "RuntimeError: Dimension out of range (expected to be in range of [-2, 1], but got "
                                "2)\n")
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "instead of apex" in v["fix"], v


def test_dimension_out_of_range_in_the_jobs_own_model_is_not_a_layer_check(tmp_path):
    v, _ = _verdict(tmp_path, '  File "/home/u/proj/model.py", line 26, in forward\n'
                              "    x = x.mean(dim=2)\n"
                              "RuntimeError: Dimension out of range (expected to be in range of [-2, 1], but got 2)\n")
    assert v["cause"] != "config", v
    assert "BN layer" not in v["fix"], v


# --- autograd without a derivative in a double backward ---------------------------------------------------------------
def test_double_backward_through_syncbn_is_config_with_plain_bn_fix(tmp_path):
    v, acc = _verdict(tmp_path, "  Lgrad.backward()\n"
                                f'  File "{_TORCH}/autograd/__init__.py", line 132, in backward\n'
                                "    allow_unreachable=True)  # allow_unreachable flag\n"
                                "RuntimeError: derivative for batch_norm_backward_elemt is not implemented\n")
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "replace SyncBatchNorm with BatchNorm" in v["fix"], v


# --- a library subclassing another install's class --------------------------------------------------------------------
def test_super_lacking_an_attribute_under_an_installed_package_is_a_version_mismatch(tmp_path):
    v, acc = _verdict(tmp_path, "Traceback (most recent call last):\n"
                                '  File "/env/lib/python3.8/site-packages/mmcv/cnn/bricks/norm.py", line 110, in '
                                "build_norm_layer\n"
                                "    layer._specify_ddp_gpu_num(1)\n"
                                '  File "/env/lib/python3.8/site-packages/mmcv/utils/parrots_wrapper.py", line 87, in '
                                "_specify_ddp_gpu_num\n"
                                "    super()._specify_ddp_gpu_num(gpu_size)\n"
                                "AttributeError: 'super' object has no attribute '_specify_ddp_gpu_num'\n")
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "matching torch / mmcv versions" in v["fix"], v


def test_super_lacking_a_private_name_is_a_version_mismatch_without_its_frames(tmp_path):
    # a hard-wrapped paste whose frame lines were not read: a private name is a base class's internals all the same
    v, acc = _verdict(tmp_path, "Traceback (most recent call last):\n"
                                '  File "/env/lib/python3.8/site-packages/mmcv/utils/parrots_wr\n'
                                'apper.py", line 87, in _specify_ddp_gpu_num\n'
                                "    super()._specify_ddp_gpu_num(gpu_size)\n"
                                "AttributeError: 'super' object has no attribute '_specify_ddp_gpu_num'\n")
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "norm_cfg SyncBN -> BN" in v["fix"], v


def test_super_lacking_an_attribute_in_the_scripts_own_class_is_not_read_so(tmp_path):
    v, _ = _verdict(tmp_path, "Traceback (most recent call last):\n"
                              '  File "train.py", line 12, in __init__\n'
                              "    super().setup_heads()\n"
                              "AttributeError: 'super' object has no attribute 'setup_heads'\n")
    assert v["cause"] != "config", v


# --- a framework's check of a setting switched on ---------------------------------------------------------------------
def test_a_check_of_a_setting_switched_on_is_config_naming_its_settings(tmp_path):
    v, acc = _verdict(tmp_path, '  File "/work/deit/losses.py", line 43, in forward\n'
                                '    raise ValueError("When knowledge distillation is enabled, the model is "\n'
                                "ValueError: When knowledge distillation is enabled, the model is expected to return a "
                                "Tuple[Tensor, Tensor] with the output of the class_token and the dist_token\n")
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "distillation settings" in v["fix"], v


def test_a_models_expected_check_naming_no_setting_is_not_read_so(tmp_path):
    v, _ = _verdict(tmp_path, '  File "/work/proj/losses.py", line 43, in forward\n'
                              '    raise ValueError("the model is expected to return a tuple")\n'
                              "ValueError: the model is expected to return a tuple\n")
    assert v["cause"] != "config", v


# --- a cut on GradScaler's own check ----------------------------------------------------------------------------------
def test_a_cut_on_gradscalers_unscale_grads_raise_is_fp16_parameters(tmp_path):
    v, acc = _verdict(tmp_path, "Traceback (most recent call last):\n"
                                '  File "train_utils.py", line 252, in update_parameter_and_lr\n'
                                "    scaler.unscale_(optimizer)\n"
                                f'  File "{_TORCH}/amp/grad_scaler.py", line 337, in unscale_\n'
                                '    optimizer_state["found_inf_per_device"] = self._unscale_grads_(\n'
                                f'  File "{_TORCH}/amp/grad_scaler.py", line 259, in _unscale_grads_\n'
                                '    raise ValueError("\n')
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "Attempting to unscale FP16 gradients" in v["fix"], v


def test_a_cut_on_unscales_own_raise_is_not_read_as_fp16_parameters(tmp_path):
    v, _ = _verdict(tmp_path, "Traceback (most recent call last):\n"
                              '  File "train.py", line 52, in step\n'
                              "    scaler.unscale_(optimizer)\n"
                              f'  File "{_TORCH}/amp/grad_scaler.py", line 318, in unscale_\n'
                              '    raise RuntimeError(\n')
    assert v["cause"] != "config", v
    assert "FP16 gradients" not in v["fix"], v
