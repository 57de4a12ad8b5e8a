"""An accelerator's OOM whose own figures name its device, read like CUDA's (round 98: llamafactory-5491,
touchnet-100, returnn-1466; lead rules AN (2), BX (1), U (3)).

- torch_npu keeps torch 1.x's OOM text for an Ascend NPU, its device named "NPU N" and one more figure ("C current
  active") between the allocated and the free: "Tried to allocate S (NPU N; T total capacity; A already allocated; C
  current active; F free; R reserved in total by PyTorch)". The figures were not read (the older text's pattern knew
  only "GPU N" and no "current active"), so the OOM named nobody. Now they are the same failing process's own
  allocator figures: on one node, with no other process shown failing, NPU N names rank N; figures that show the NPU
  shared, or Ray's "[repeated Nx across cluster]" on the OOM line (several workers raised it alike, rule J), name
  nobody; the fragmentation words name PYTORCH_NPU_ALLOC_CONF.
- torch >= 2.1's text listing other processes on the GPU ("Process P has X memory in use"), each holding the same small
  amount beside "this process has Y", read as the other ranks' contexts around GPU N's own process (rank N) however
  much they held in all. Where the memory in use outside the failing process is larger than its own and than the
  shortfall, the other processes' memory held the GPU (every worker on GPU 0, no set_device): nobody (rule BX (1)), the
  fix names set_device. Small contexts beside a process holding most of the GPU keep naming its rank.
"""
from __future__ import annotations

from tests.conftest import verdict_accused as _verdict


def _npu_oom(n: int, tried: str, total: str, alloc: str, free: str, reserved: str, prefix: str = "") -> str:
    return (f"{prefix}RuntimeError: NPU out of memory. Tried to allocate {tried} (NPU {n}; {total} total capacity; "
            f"{alloc} already allocated; {alloc} current active; {free} free; {reserved} reserved in total by "
            "PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid "
            "fragmentation.\n")


_LOAD_TB = (
    '  File "/usr/lib/python3.10/site-packages/transformers/modeling_utils.py", line 4415, in _load_pretrained_model\n'
    "    new_error_msgs, offload_index, state_dict_index = _load_state_dict_into_meta_model(\n"
    '  File "/usr/lib/py3/site-packages/accelerate/utils/modeling.py", line 400, in set_module_tensor_to_device\n'
    "    new_value = value.to(device)\n")
_CUT_LAUNCHER = ("Loading checkpoint shards:  30%|###       | 9/30 [00:10<00:21,  1.01s/it]\n"
                 "Traceback (most recent call last):\n"
                 '  File "/opt/app/src/train/launcher.py", line 23, in <module>\n'
                 "    launch()\n"
                 '  File "/opt/app/src/train/launcher.py", line 19, in launch\n'
                 "    run_exp()\n")


# --- torch_npu's figures: NPU N names rank N on one node ----------------------------------------------------------
def test_a_lone_npu_oom_with_its_own_figures_names_the_npu_s_rank(tmp_path):
    v, acc = _verdict(tmp_path, _npu_oom(5, "2.10 GiB", "62.00 GiB", "51.20 GiB", "900.00 MiB", "58.75 GiB"))
    assert v["cause"] == "gpu_oom" and v["culprits"] == [5] and acc == {5}, v
    assert "NPU 5" in v["summary"], v
    # 7.55 GiB reserved but unallocated beside a 2.10 GiB request: the NPU allocator's own setting
    assert "PYTORCH_NPU_ALLOC_CONF=max_split_size_mb" in v["fix"], v


def test_an_npu_oom_while_loading_shards_beside_a_cut_launcher_traceback_names_its_rank(tmp_path):
    v, acc = _verdict(tmp_path, _LOAD_TB + _npu_oom(1, "512.00 MiB", "30.00 GiB", "28.90 GiB", "10.20 MiB",
                                                    "29.40 GiB") + _CUT_LAUNCHER)
    assert v["cause"] == "gpu_oom" and v["culprits"] == [1] and acc == {1}, v


def test_npu_figures_that_show_the_npu_shared_name_nobody(tmp_path):
    # the process holds 1 GiB of 60: the memory outside it (58.9 GiB) is larger than its own and than the shortfall
    v, acc = _verdict(tmp_path, _npu_oom(3, "2.00 GiB", "60.00 GiB", "900.00 MiB", "100.00 MiB", "1.00 GiB"))
    assert v["cause"] == "gpu_oom" and not v["culprits"] and not acc, v


def test_an_npu_oom_ray_repeated_across_the_cluster_names_nobody(tmp_path):
    v, acc = _verdict(tmp_path, _npu_oom(6, "64.00 MiB", "62.00 GiB", "61.10 GiB", "12.00 MiB", "61.50 GiB",
                                         prefix="(NPURayWorkerWrapper pid=3301) ERROR 07-01 10:00:01 worker.py:581] ")
                      .rstrip("\n") + " [repeated 4x across cluster]\n")
    assert v["cause"] == "gpu_oom" and not v["culprits"] and not acc, v


def test_cuda_s_older_figures_keep_their_reading(tmp_path):
    v, acc = _verdict(tmp_path, "RuntimeError: CUDA out of memory. Tried to allocate 1.50 GiB (GPU 2; 31.75 GiB total "
                      "capacity; 27.10 GiB already allocated; 800.00 MiB free; 29.90 GiB reserved in total by "
                      "PyTorch)\n")
    assert v["cause"] == "gpu_oom" and v["culprits"] == [2] and acc == {2}, v
    assert "PYTORCH_CUDA_ALLOC_CONF" in v["fix"] and "PYTORCH_NPU_ALLOC_CONF=max_split" not in v["fix"], v


# --- torch >= 2.1's text: other processes' memory larger than the raiser's own is a shared GPU ---------------------
def _new_oom(gpu: int, tried: str, total: str, free: str, others: list[tuple[int, str]], this: str, alloc: str,
             unalloc: str) -> str:
    procs = " ".join(f"Process {p} has {b} memory in use." for p, b in others)
    return (f"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate {tried}. GPU {gpu} has a total capacity "
            f"of {total} of which {free} is free. {procs} Including non-PyTorch memory, this process has {this} "
            f"memory in use. Of the allocated memory {alloc} is allocated by PyTorch, and {unalloc} is reserved by "
            "PyTorch but unallocated.\n")


def test_every_worker_on_gpu0_holding_more_than_the_raiser_names_nobody(tmp_path):
    others = [(20400 + i, "2.05 GiB") for i in range(7)]  # 14.35 GiB beside the raiser's 8.40 GiB
    v, acc = _verdict(tmp_path, _new_oom(0, "96.00 MiB", "23.65 GiB", "60.25 MiB", others, "8.40 GiB", "7.10 GiB",
                                         "420.00 MiB"))
    assert v["cause"] == "gpu_oom" and not v["culprits"] and not acc, v
    assert "set_device" in v["fix"] and "7 other processes" in v["fix"], v


def test_others_holding_more_than_the_raiser_on_gpu_n_name_nobody(tmp_path):
    others = [(811, "6.00 GiB"), (812, "6.00 GiB"), (813, "6.00 GiB")]  # 18 GiB beside the raiser's 12 GiB on GPU 2
    v, acc = _verdict(tmp_path, _new_oom(2, "1.00 GiB", "39.39 GiB", "500.00 MiB", others, "12.00 GiB", "10.50 GiB",
                                         "900.00 MiB"))
    assert v["cause"] == "gpu_oom" and not v["culprits"] and not acc, v


def test_small_contexts_beside_a_process_holding_most_of_the_gpu_still_name_its_rank(tmp_path):
    others = [(5501, "420.00 MiB"), (5502, "420.00 MiB"), (5503, "420.00 MiB")]
    v, acc = _verdict(tmp_path, _new_oom(0, "2.00 GiB", "79.15 GiB", "1.10 GiB", others, "76.80 GiB", "74.20 GiB",
                                         "1.60 GiB"))
    assert v["cause"] == "gpu_oom" and v["culprits"] == [0] and acc == {0}, v


def test_this_process_on_gpu_n_holding_most_of_it_still_names_rank_n(tmp_path):
    others = [(811, "1.00 GiB"), (812, "3.00 GiB")]
    v, acc = _verdict(tmp_path, _new_oom(3, "1.00 GiB", "39.39 GiB", "500.00 MiB", others, "34.50 GiB", "32.00 GiB",
                                         "1.20 GiB"))
    assert v["cause"] == "gpu_oom" and v["culprits"] == [3] and acc == {3}, v
