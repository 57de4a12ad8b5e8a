"""DeviceMesh / DTensor usage and layout errors, and a torch build without NCCL, shapes round 90 showed read by their
shape (rules BA (3), BB (4), BQ (3), BU (1), AE, W, Q's last sentence, AF (2)): each is the same code, settings or
install on every process, so no rank is at fault and nobody is innocent; the fix names the remedy an expert gives.

- torch.distributed's own checks on how a DeviceMesh, a DTensor or a backend string is used, read by their messages
  whichever rank printed them (usage._mesh_refused): DeviceMesh slicing's "Cannot create a submesh from a submesh."
  (cache-dit-784: a ring mesh sliced from a submesh), DTensor dispatch's "got mixed torch.Tensor and DTensor"
  (torchtune-2856: rank 1's error, rank 7's traceback cut in the same recipe step, no second failure by rule AN (1)),
  and c10d's "Unknown c10d backend type CUDA:NCCL" for a device:backend mapping handed to split_group
  (pytorch-159200): invalid_usage, culprits []. Not read so: a plain backend name unknown ("... type HCCL", a plugin
  not imported or installed) and DTensor's other errors (an op it does not support for a data-dependent
  shape), which keep their readings. An op with no sharding strategy registered is round 96's config (rule BW (2):
  test_diagnose_family_dtensor_compile).
- A reshape in DeviceMesh._init_process_groups failing on "0 elements into shape [-1, 0]" (rule BU (1);
  verl-internvl-12): a mesh with a dimension of size 0, a parallel layout no world can fill -- config, culprits [],
  the fix naming mesh_shape, the parallel sizes and the world size (usage._mesh_zero_dim). The same reshape error
  raised in the model's own code is not read so.
- torch.cuda.nccl's own "UserWarning: PyTorch is not compiled with NCCL support" beside is_nccl_available() False
  (nccl-1561, NVIDIA's Jetson wheel): a CUDA build without NCCL every process shares -- config, culprits [], the fix
  naming a torch build with NCCL (USE_SYSTEM_NCCL on Jetson) or gloo (signatures.R_NO_NCCL). c10d's "Distributed
  package doesn't have NCCL built in" keeps its CPU-only build wording.
"""
from __future__ import annotations

from tests.conftest import verdict_accused as _verdict


def _usage(v: dict, acc: set[int]) -> None:
    assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not acc, v


_TP = "/usr/local/lib/python3.10/dist-packages/torch/distributed"


# --- torch's DeviceMesh / DTensor / backend-string checks ------------------------------------------------------------
def test_submesh_from_a_submesh_is_the_callers_usage(tmp_path):
    v, acc = _verdict(tmp_path, '[rank3]:   File "/app/diffusers/models/_modeling_parallel.py", line 123, in setup\n'
                                '[rank3]:     self._ring_mesh = self._mesh["ring"]\n'
                                f'[rank3]:   File "{_TP}/device_mesh.py", line 712, in __getitem__\n'
                                "[rank3]:     slice_mesh_dims = _mesh_resources._get_slice_mesh_dims(\n"
                                f'[rank3]:   File "{_TP}/device_mesh.py", line 295, in _get_slice_mesh_dims\n'
                                '[rank3]:     raise RuntimeError("Cannot create a submesh from a submesh.")\n'
                                "[rank3]: RuntimeError: Cannot create a submesh from a submesh.\n")
    _usage(v, acc)
    assert "slice from the root mesh" in v["fix"].lower() and "_flatten" in v["fix"], v


def test_mixed_tensor_and_dtensor_names_no_rank(tmp_path):
    v, acc = _verdict(tmp_path, f'[rank1]:   File "{_TP}/tensor/_dispatch.py", line 452, in _try_replicate\n'
                                "[rank1]:     raise RuntimeError(\n"
                                "[rank1]: RuntimeError: aten.mm.default: got mixed torch.Tensor and DTensor, need to "
                                "convert all torch.Tensor to DTensor before calling distributed operators!\n"
                                "[rank7]: Traceback (most recent call last):\n"
                                '[rank7]:   File "/home/u/recipes/lora_finetune_distributed.py", line 923, in _loss\n'
                                "[rank7]:     loss = self._loss_fn(weight, outputs, labels)\n")
    _usage(v, acc)
    assert "DTensor.from_local" in v["fix"] and "full_tensor()" in v["fix"], v


def test_device_backend_mapping_in_split_group_is_the_callers_usage(tmp_path):
    v, acc = _verdict(tmp_path, f'[rank0]:   File "{_TP}/distributed_c10d.py", line 4844, in split_group\n'
                                "[rank0]:     assert parent_backend_str.upper() in Backend._plugins, "
                                'f"Unknown c10d backend type {parent_backend_str.upper()}"\n'
                                "[rank0]: AssertionError: Unknown c10d backend type CUDA:NCCL\n")
    _usage(v, acc)
    assert 'backend="nccl"' in v["fix"] and "split_group" in v["fix"], v


def test_a_plain_unknown_backend_name_is_not_read_so(tmp_path):
    v, _ = _verdict(tmp_path, f'[rank0]:   File "{_TP}/distributed_c10d.py", line 1740, in new_group\n'
                              '[rank0]:     assert backend_str.upper() in Backend._plugins, "Unknown backend"\n'
                              "[rank0]: AssertionError: Unknown c10d backend type HCCL\n")
    assert v["cause"] != "invalid_usage", v


def test_another_dtensor_error_stays_the_ranks_own(tmp_path):
    v, acc = _verdict(tmp_path, "[rank2]: Traceback (most recent call last):\n"
                                f'[rank2]:   File "{_TP}/tensor/_dispatch.py", line 170, in dispatch\n'
                                "[rank2]:     raise NotImplementedError(\n"
                                "[rank2]: NotImplementedError: DTensor does not support the op aten.nonzero.default "
                                "with a data-dependent output shape yet.\n")
    assert v["cause"] == "unknown" and acc == {2}, v


# --- a device mesh with a dimension of size 0 (rule BU (1)) -----------------------------------------------------------
def test_empty_mesh_reshape_in_init_process_groups_is_config(tmp_path):
    v, acc = _verdict(tmp_path, 'File "/root/env/lib/python3.10/site-packages/torch/distributed/device_mesh.py", '
                                "line 530, in _init_process_groups\n"
                                "    pg_ranks_by_dim = self.mesh.swapdims(-1, dim).reshape(\n"
                                "RuntimeError: cannot reshape tensor of 0 elements into shape [-1, 0] because the "
                                "unspecified dimension size -1 can be any value and is ambiguous\n")
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "mesh_shape" in v["fix"] and "world size" in v["fix"], v


def test_the_same_reshape_error_in_the_models_code_is_not_read_so(tmp_path):
    v, _ = _verdict(tmp_path, "Traceback (most recent call last):\n"
                              '  File "/work/model/attn.py", line 88, in forward\n'
                              "    q = q.reshape(-1, self.num_heads)\n"
                              "RuntimeError: cannot reshape tensor of 0 elements into shape [-1, 0] because the "
                              "unspecified dimension size -1 can be any value and is ambiguous\n")
    assert v["cause"] != "config", v


# --- a CUDA build of torch without NCCL -------------------------------------------------------------------------------
def test_torch_cuda_nccl_not_compiled_warning_is_the_install(tmp_path):
    v, acc = _verdict(tmp_path, ">>> torch.distributed.is_nccl_available()\n"
                                "False\n"
                                ">>> torch.cuda.nccl.is_available(torch.randn(1).cuda())\n"
                                "/usr/local/lib/python3.8/dist-packages/torch/cuda/nccl.py:15: UserWarning: "
                                "PyTorch is not compiled with NCCL support\n"
                                "  warnings.warn('PyTorch is not compiled with NCCL support')\n"
                                "False\n")
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "USE_SYSTEM_NCCL" in v["fix"] and "gloo backend" in v["fix"], v


def test_no_nccl_built_in_keeps_its_cpu_build_reading(tmp_path):
    v, _ = _verdict(tmp_path, "Traceback (most recent call last):\n"
                              '  File "train.py", line 10, in <module>\n'
                              '    dist.init_process_group("nccl")\n'
                              "RuntimeError: Distributed package doesn't have NCCL built in\n")
    assert v["cause"] == "config" and "CPU-only build" in v["summary"] and "Jetson" not in v["fix"], v
