"""Launch and device settings round 83 showed read wrongly or with a fix no expert would give (rules Q, U (2), W,
AA (1), BD (3), V (1), AU (2), AF (2), AX (2), BL (1), T).

- torch refusing a negative device index ("RuntimeError: Device index must not be negative", from a tensor's
  .to(model_engine.local_rank)): -1 is the local rank a script holds where no launcher gave it one -- a process asking
  at start-up for a device index it cannot have, rule AU (2)'s launch error read like 'invalid device ordinal':
  config, no rank (azureml-examples-346; it was an unknown failure). Near shape: a tensor's own negative index
  (IndexError) is no device setting and keeps its reading.
- argparse's usage block pasted without its "usage: PROG [-h]" head and cut before its "error:" line: only the
  indented rows of option groups ("[--seed SEED] [--lr LR] ...") end the paste. argparse prints its usage alone only
  when it refuses the command line, which every worker is launched with: rules U (2), W, config, no rank, as the
  block with its head is read (megatron-deepspeed-178; it was none). Near shapes: argparse's --help output (its
  option sections follow the usage) and a single row of options are not read so.
- nccl-tests' device table listing several processes (distinct pids, two hosts) each as "Rank 0": one run lists every
  rank once, so every process numbered itself from rank 0, a world of its own (nccl-tests not one MPI job) -- rule
  AA (1), as BD (3) reads two hosts each rank 0, with nothing failing (V (1)): config, no rank (pyxis-116; it was
  none). Near shapes: one world's table (Rank 0..N-1) and two runs one after the other (a results table between
  them) keep their readings.
- torch's device-index assert showing the index asked for but an empty count ("... INTERNAL ASSERT FAILED ...
  device=7, num_gpus="): the assert failed on a non-negative index, so it is past the GPUs the process sees -- rule
  AU (2)'s device setting: config, no rank (simple-grpo-24; it was cuda_error). Near shapes: no index shown
  ("device=, num_gpus=", mace-1504) and index 0 failing (no GPU visible at all) stay a CUDA error.
- Fix text only (verdict unchanged): a module missing in processes started by the spawn start method (a traceback
  through torch/multiprocessing/spawn.py) names what spawn re-imports -- PYTHONPATH, pip install -e, the package a
  framework registers by name (allennlp-4428). Without spawn's frames the install fix alone stays.
"""
from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict


def test_a_negative_device_index_is_the_launchs_local_rank(tmp_path):
    d = _report(tmp_path, "Traceback (most recent call last):\n  File \"train.py\", line 171, in <module>\n"
                "    inputs = data[0].to(model_engine.local_rank)\nRuntimeError: Device index must not be negative\n")
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "LOCAL_RANK" in v["fix"] and "torch.cuda.set_device(local_rank)" in v["fix"], v


def test_a_tensors_own_negative_index_is_no_device_setting(tmp_path):
    v = _verdict(tmp_path, "Traceback (most recent call last):\n  File \"train.py\", line 171, in <module>\n"
                 "    x = batch[-1]\nIndexError: index -1 is out of bounds for dimension 0 with size 0\n")
    assert v["cause"] != "config", v


_CMD = "deepspeed pretrain_gpt.py --num-layers 12 --hidden-size 768 --seq-length 2048 --fp16\n"
_ROWS = ("                       [--exit-signal-handler] [--tensorboard-dir TENSORBOARD_DIR] [--no-bias-gelu-fusion]\n"
         "                       [--seed SEED] [--init-method-std INIT_METHOD_STD] [--lr LR] [--optimizer {adam,sgd}]\n"
         "                       [--lr-warmup-iters LR_WARMUP_ITERS] [--lr-warmup-samples LR_WARMUP_SAMPLES] [--\n")


def test_usage_rows_without_their_head_are_the_launch_arguments(tmp_path):
    d = _report(tmp_path, _CMD + _ROWS)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "argparse" in v["fix"] and "--local_rank" in v["fix"], v


def test_argparse_help_output_and_a_single_row_are_not_read_so(tmp_path):
    help_text = _ROWS.replace(" [--\n", "\n") + "\noptions:\n  -h, --help            show this help message and exit\n"
    assert _verdict(tmp_path, _CMD + help_text)["cause"] == "none"
    assert _verdict(tmp_path, _CMD + _ROWS.splitlines()[0] + "\n")["cause"] == "none"


def _dev(rank: int, pid: int, host: str, dev: int) -> str:
    return f"#  Rank {rank:2d} Group  0 Pid {pid:6d} on {host} device {dev:2d} [0x0f] NVIDIA A100-SXM4-40GB\n"


_PREAMBLE = ("# nThread 1 nGpus 1 minBytes 8 maxBytes 134217728 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 "
             "validation: 1 graph: 0\n#\n# Using devices\n")
_TABLE = ("#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   "
          "busbw #wrong\n"
          "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  "
          "(GB/s)\n"
          "           8             2     float     sum      -1     4.12    0.00    0.00      0     4.01    0.00    "
          "0.00      0\n# Avg bus bandwidth    : 0.00\n")


def test_every_nccl_tests_process_listed_as_rank_0_is_a_world_of_its_own(tmp_path):
    rows = "".join(_dev(0, 6721 + i, "node-a" if i % 2 else "node-b", 0) for i in range(6))
    d = _report(tmp_path, "# Using devices\n" + rows)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "MPI=1" in v["fix"] and "--mpi=pmix" in v["fix"] and "CUDA_VISIBLE_DEVICES" in v["fix"], v


def test_one_worlds_table_and_two_runs_in_turn_keep_their_readings(tmp_path):
    one = _PREAMBLE + "".join(_dev(r, 4470 + r, "node-a", r) for r in range(4)) + _TABLE
    assert _verdict(tmp_path, one)["cause"] == "none"
    two = _PREAMBLE + _dev(0, 4470, "node-a", 0) + _TABLE + _PREAMBLE + _dev(0, 5120, "node-a", 0) + _TABLE
    assert _verdict(tmp_path, two)["cause"] == "none"


_ASSERT = ("Traceback (most recent call last):\n"
           "  File \"/env/lib/python3.10/site-packages/torch/cuda/__init__.py\", line 527, in get_device_properties\n"
           "    return _get_device_properties(device)\n"
           "RuntimeError: device >= 0 && device < num_gpus INTERNAL ASSERT FAILED at "
           "\"../aten/src/ATen/cuda/CUDAContext.cpp\":49, please report a bug to PyTorch. device={d}, \nnum_gpus=\n")


def test_a_device_index_shown_past_an_unprinted_gpu_count_is_the_launchs(tmp_path):
    d = _report(tmp_path, _ASSERT.format(d=7))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "torch.cuda.device_count()" in v["fix"] and "CUDA_VISIBLE_DEVICES" in v["fix"], v


def test_no_index_shown_or_index_0_failing_stays_a_cuda_error(tmp_path):
    assert _verdict(tmp_path, _ASSERT.format(d=0))["cause"] == "cuda_error"
    assert _verdict(tmp_path, _ASSERT.format(d=""))["cause"] == "cuda_error"


_NO_MODULE = "ModuleNotFoundError: No module named 'my_package'\n"
_SPAWN_TB = ("Traceback (most recent call last):\n"
             "  File \"/env/lib/python3.7/site-packages/allennlp/commands/train.py\", line 295, in train_model\n"
             "    nprocs=num_procs,\n"
             "  File \"/env/lib/python3.7/site-packages/torch/multiprocessing/spawn.py\", line 158, in "
             "start_processes\n"
             "    while not context.join():\n")


def test_a_module_missing_in_spawned_processes_names_what_spawn_reimports(tmp_path):
    v = _verdict(tmp_path, _NO_MODULE + _SPAWN_TB)
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "PYTHONPATH" in v["fix"] and "pip install -e" in v["fix"] and "spawn" in v["fix"], v


def test_a_module_missing_without_spawn_keeps_the_install_fix(tmp_path):
    v = _verdict(tmp_path, "Traceback (most recent call last):\n  File \"train.py\", line 3, in <module>\n"
                 "    import my_package\n" + _NO_MODULE)
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "Install 'my_package'" in v["fix"] and "spawn start method" not in v["fix"], v
