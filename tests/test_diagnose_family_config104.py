"""Framework and launcher checks of settings, and a shared compile cache failing alike, that round 104 showed unread
(rules BP (1), V (1), W, AF (2), BV (4), J).

- DeepSpeed's runner warning that it ignores the CUDA_VISIBLE_DEVICES it was started with ("Detected
  CUDA_VISIBLE_DEVICES=2,4,5,7 but ignoring it because one or several of --include/--exclude/--num_gpus/--num_nodes
  cl args were used"; accelerate-663): a launch setting shown without effect, config, culprits [], the fix the
  launcher's --include. Its other line, "Detected CUDA_VISIBLE_DEVICES=1: setting --include=localhost:1" (the
  variable used), stays chatter.
- accelerate's DataLoaderDispatcher refusing batches of different size under dispatch_batches=True (llamafactory-2763):
  a framework's check of the dataloader settings every process shares, config, culprits [] even under one rank's tag,
  the fix split_batches=True / dispatch_batches=False. torch's collate refusing tensors of different sizes (a rank's
  own data) keeps its old reading.
- A module of the JIT compiler's own kernel cache (Triton's ~/.triton/cache or a TRITON_CACHE_DIR, Inductor's
  /tmp/torchinductor_<user>) failing to load, "cannot read file data: Stale file handle" or a module cut short
  (pytorch-173679): the shared software every rank builds and loads, config, culprits [], the fix a node-local
  TRITON_CACHE_DIR. A dataset cache's Stale file handle under one rank (ms-swift-6695) and the installed triton's own
  library failing to load keep their old readings.
"""
from __future__ import annotations

from tests.conftest import corpus_case_verdict, verdict_accused

_DS_IGNORED = ("[2023-02-11 08:01:02,321] [INFO] [runner.py:450:main] Detected CUDA_VISIBLE_DEVICES={ids} but ignoring "
               "it because one or several of --include/--exclude/--num_gpus/--num_nodes cl args were used. If you want "
               "to use CUDA_VISIBLE_DEVICES don't pass any of these arguments to deepspeed.\n"
               "[2023-02-11 08:01:03,001] [INFO] [launch.py:142:main] WORLD INFO DICT: {{'localhost': [0, 1]}}\n")


def test_deepspeed_runner_ignoring_cuda_visible_devices_is_config(tmp_path):
    for ids in ("0,3", "1,2,6"):
        v, acc = verdict_accused(tmp_path, _DS_IGNORED.format(ids=ids))
        assert (v["cause"], v["culprits"], acc) == ("config", [], set()), v
        assert f"--include localhost:{ids}" in v["fix"] and "CUDA_VISIBLE_DEVICES ignored by the deepspeed" in (
            v["summary"]), v


def test_deepspeed_runner_using_cuda_visible_devices_stays_chatter(tmp_path):
    v, _ = verdict_accused(tmp_path, "[2024-05-01 10:00:00,123] [INFO] [runner.py:555:main] Detected "
                           "CUDA_VISIBLE_DEVICES=1,3: setting --include=localhost:1,3\n"
                           "[2024-05-01 10:00:00,124] [INFO] [runner.py:568:main] cmd = /usr/bin/python -u -m "
                           "deepspeed.launcher.launch --world_info=eyJsb2NhbGhvc3QiOiBbMSwgM119 "
                           "--master_addr=127.0.0.1 --master_port=29500 train.py\n")
    assert v["cause"] == "none", v


def _dispatch(prefix: str) -> str:
    return (f"{prefix}Traceback (most recent call last):\n"
            f"{prefix}  File \"/opt/conda/lib/python3.11/site-packages/accelerate/data_loader.py\", line 812, in "
            "__iter__\n"
            f"{prefix}    next_batch, next_batch_info = self._fetch_batches(main_iterator)\n"
            f"{prefix}  File \"/opt/conda/lib/python3.11/site-packages/accelerate/data_loader.py\", line 770, in "
            "_fetch_batches\n"
            f"{prefix}    raise RuntimeError(\n"
            f"{prefix}RuntimeError: You can't use batches of different size with `dispatch_batches=True` or when "
            "using an `IterableDataset`.either pass `dispatch_batches=False` and have each process fetch its own batch "
            " or pass `split_batches=True`. By doing so, the main process will fetch a full batch and slice it into "
            "`num_processes` batches for each process.\n")


def test_accelerate_dispatch_batches_uneven_is_config(tmp_path):
    for prefix in ("[rank0]: ", "[rank2]:", ""):
        v, acc = verdict_accused(tmp_path, _dispatch(prefix))
        assert (v["cause"], v["culprits"], acc) == ("config", [], set()), (prefix, v)
        assert "split_batches=True" in v["fix"] and "dispatch_batches=False" in v["fix"], v


def test_collate_of_unequal_tensors_keeps_its_reading(tmp_path):
    v, _ = verdict_accused(tmp_path, "Traceback (most recent call last):\n"
                           "  File \"train.py\", line 10, in <module>\n    for batch in loader:\n"
                           "  File \"/usr/lib/python3/dist-packages/torch/utils/data/_utils/collate.py\", line 141, "
                           "in collate\n    return torch.stack(batch, 0, out=out)\n"
                           "RuntimeError: stack expects each tensor to be equal size, but got [3, 224] at entry 0 and "
                           "[3, 256] at entry 1\n")
    assert v["cause"] != "config" and "split_batches" not in v["fix"], v


def _jit(rank: int, path: str, why: str) -> str:
    return (f"[rank{rank}]: Traceback (most recent call last):\n"
            f"[rank{rank}]:   File \"/opt/venv/lib/python3.12/site-packages/triton/runtime/build.py\", line 80, in "
            "_load_module_from_path\n"
            f"[rank{rank}]:     mod = importlib.util.module_from_spec(spec)\n"
            f"[rank{rank}]: torch._inductor.exc.InductorError: ImportError: {path}: {why}\n")


def test_jit_kernel_cache_failing_to_load_is_config(tmp_path):
    two = (_jit(4, "/scratch/alice/triton_cache/QWERTY123/__triton_launcher.cpython-312-x86_64-linux-gnu.so",
                "file too short")
           + _jit(7, "/scratch/alice/triton_cache/QWERTY123/__triton_launcher.cpython-312-x86_64-linux-gnu.so",
                  "file too short"))
    v, acc = verdict_accused(tmp_path, two)
    assert (v["cause"], v["culprits"], acc) == ("config", [], set()), v
    assert "TRITON_CACHE_DIR on a node-local disk" in v["fix"], v
    one = _jit(1, "/home/u/.triton/cache/ZZ9/cuda_utils.cpython-310-x86_64-linux-gnu.so",
               "cannot read file data: Stale file handle")
    v, acc = verdict_accused(tmp_path, one)
    assert (v["cause"], v["culprits"], acc) == ("config", [], set()), v
    assert "Stale file handle" in v["summary"] and "clear the Triton cache" in v["fix"], v
    # review 104 (2) finding 3: Inductor's node-local /tmp cache is config where two ranks show it alike; one
    # process's line alone is its node's fault, not the job's shared software
    tmp = "/tmp/torchinductor_bob/triton/0/ABCD/cuda_utils.cpython-311-x86_64-linux-gnu.so"
    v, acc = verdict_accused(tmp_path, _jit(2, tmp, "cannot read file data: Stale file handle")
                             + _jit(6, tmp, "cannot read file data: Stale file handle"))
    assert (v["cause"], v["culprits"]) == ("config", []) and "TORCHINDUCTOR_CACHE_DIR" in v["fix"], v
    v, acc = verdict_accused(tmp_path, f"ImportError: {tmp}: cannot read file data: Stale file handle\n")
    assert v["cause"] != "config" and "TORCHINDUCTOR_CACHE_DIR" not in v["fix"], v


def test_dataset_cache_stale_handle_and_installed_triton_keep_their_readings(tmp_path):
    v, acc = corpus_case_verdict(tmp_path, "ms-swift-6695-rank1-datasets-cache-stale-file-handle")
    assert (v["cause"], v["culprits"]) == ("unknown", [1]), v
    v, _ = verdict_accused(tmp_path, "Traceback (most recent call last):\n  File \"train.py\", line 3, in <module>\n"
                           "    import triton\nImportError: /usr/lib/python3/dist-packages/triton/_C/libtriton.so: "
                           "undefined symbol: _ZN4llvm5APInt\n")
    assert "TRITON_CACHE_DIR" not in v["fix"], v
