"""Wordings round 73 (session 26) showed diagnose did not read: vLLM's engine sizing its KV cache to nothing ("# GPU
blocks: 0", then a worker failing in initialize_cache: gpu_oom, no rank -- lm-evaluation-harness-2431); a resume's
"DataLoader state is empty for dp rank N" warning with nothing failing (none, the fix about the data loader's state --
torchtitan-409); torchrun's lone exit-1 record beside an exception line saying "No such file or directory" (unknown,
the record's rank, the fix about the missing path -- stylegan2-pytorch-320); torch's "Expected all tensors to be on
the same device" check, unread (unknown, nobody named, the fix about device placement -- lmms-eval-79). Each test reads
the shape from lines other than the cases' own, and a near shape that must NOT be read that way. Paths and hosts are
made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report

_W = "(VllmWorkerProcess pid=7301) ERROR 03-02 08:01:17 multiproc_worker_utils.py:233] "
_KV = ("INFO 03-02 08:01:16 model_runner.py:1060] Loading model weights took 38.12 GB\n"
       "INFO 03-02 08:01:17 distributed_gpu_executor.py:57] # GPU blocks: 0, # CPU blocks: 4096\n"
       "INFO 03-02 08:01:17 distributed_gpu_executor.py:61] Maximum concurrency for 32768 tokens per request: 0.00x\n")
_CUT = (f"{_W}Exception in worker VllmWorkerProcess while processing method initialize_cache.\n"
        f"{_W}Traceback (most recent call last):\n"
        f'{_W}  File "/opt/env/lib/python3.10/site-packages/vllm/worker/worker.py", line 260, in initialize_cache\n'
        f"{_W}    raise_if_cache_size_invalid(num_gpu_blocks,\n")


def test_zero_gpu_blocks_then_a_worker_failing_in_initialize_cache_is_gpu_oom_no_rank(tmp_path):
    """Rules J, AG: the block count is the tensor-parallel group's minimum, each worker holding the same shard --
    gpu_oom with nobody named, the fix about gpu_memory_utilization / max_model_len / more GPUs."""
    d = _report(tmp_path, _KV + _CUT)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("gpu_oom", []) and not _accused(d), v
    assert "gpu_memory_utilization" in v["fix"] and "max_model_len" in v["fix"], v["fix"]


def test_vllms_own_no_memory_for_the_cache_blocks_error_is_gpu_oom(tmp_path):
    """The check's own exception line, without the INFO count above it, says the same."""
    text = (f"{_W}ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` "
            "when initializing the engine.\n")
    v = _report(tmp_path, text)["verdict"]
    assert (v["cause"], v["culprits"]) == ("gpu_oom", []), v


def test_a_nonzero_block_count_then_the_same_failure_is_not_read_as_the_cache(tmp_path):
    """The near shape: the engine found cache blocks (# GPU blocks: 2715), so the worker's cut traceback is not the
    cache's memory -- not gpu_oom; and the zero count alone, nothing failing after it, is not gpu_oom either."""
    v = _report(tmp_path, _KV.replace("# GPU blocks: 0,", "# GPU blocks: 2715,") + _CUT)["verdict"]
    assert v["cause"] != "gpu_oom", v
    assert _report(tmp_path, _KV)["verdict"]["cause"] != "gpu_oom"


_DL = "".join(f"2025-01-09 10:02:41,{500 + r:03d} - root - WARNING - DataLoader state is empty for dp rank {r}, "
              f"expected key dp_rank_{r}.\n" for r in (1, 6, 11))


def test_dataloader_state_empty_warnings_alone_are_none_with_the_state_fix(tmp_path):
    """Rules K, N: a resume's warning that the checkpoint holds no data loader state for a dp rank, nothing failing
    after it: none, the fix about saving the dataloader state per rank (StatefulDataLoader)."""
    v = _report(tmp_path, _DL)["verdict"]
    assert (v["cause"], v["culprits"]) == ("none", []), v
    assert "dataloader state" in v["fix"] and "StatefulDataLoader" in v["fix"], v["fix"]


def test_dataloader_state_warning_before_an_oom_stays_the_oom(tmp_path):
    """The near shape: the same warnings, then a rank running out of GPU memory -- the OOM is the verdict."""
    oom = ("[rank6]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 6 has a total "
           "capacity of 79.15 GiB of which 1.20 GiB is free.\n")
    v = _report(tmp_path, _DL + oom)["verdict"]
    assert v["cause"] == "gpu_oom", v


_REC = ("ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 5120) of binary: "
        "/opt/conda/bin/python\n")


def test_lone_record_beside_a_no_such_file_exception_names_the_missing_path(tmp_path):
    """Rules A, AU (4), T: torchrun's lone record names local_rank 0; the exception line beside it says a path does
    not exist -- unknown, rank 0, the fix about the dataset path."""
    v = _report(tmp_path, "h5py.Error: unable to open: No such file or directory\n\n" + _REC)["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", [0]), v
    assert "No such file or directory" in v["fix"] and "dataset path" in v["fix"], v["fix"]


def test_lone_record_beside_another_exception_does_not_name_a_missing_path(tmp_path):
    """The near shape: another exception beside the same record is not a missing path."""
    v = _report(tmp_path, "h5py.Error: unable to open: file signature not found\n\n" + _REC)["verdict"]
    assert v["culprits"] == [0] and "No such file or directory" not in v["fix"], v


_DEV = ("07-21 11:02:09 [evalkit/models/vlm.py:212] ERROR Error Expected all tensors to be on the same device, but "
        "found at least two devices, cuda:0 and cuda:2! (when checking argument for argument mat2 in method "
        "wrapper_CUDA_mm) in generating\n")


def test_an_unread_same_device_error_gets_the_device_placement_fix(tmp_path):
    """Rules J, AC (1): torch's same-device check in a line no family reads, no rank named: unknown, nobody named,
    the fix about one GPU per process (device_map, model.to)."""
    d = _report(tmp_path, _DEV)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), v
    assert "same device" in v["fix"] and "device_map" in v["fix"] and "one GPU per process" in v["fix"], v["fix"]


def test_another_unread_error_does_not_get_the_device_placement_fix(tmp_path):
    """The near shape: another error in the same kind of line keeps the generic fix."""
    v = _report(tmp_path, _DEV.replace("Expected all tensors to be on the same device, but found at least two devices",
                                       "Input type and weight type should be the same"))["verdict"]
    assert v["cause"] == "unknown" and "device_map" not in v["fix"], v
