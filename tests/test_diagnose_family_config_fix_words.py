"""Round 95 (session 37, fixer g4): four config shapes diagnose already read as config, no rank, whose fix did not
name the shape's own remedy.

- A framework's wrapper of torch's "Default process group has not been initialized" check, naming the world size the
  launcher gave it ("The world_size(8) > 1, but the distributed package is not available or has not been
  initialized", composer's dist utilities used outside its Trainer): read like torch's own check by lead rule BL (4)
  (Q's last sentence, W) -- the generic reading of a script started without its process group, whose fix names
  init_process_group and the framework's own initializer (composer.utils.dist.initialize_dist). Round 95's
  diffusion-22 showed it (it fell to the catch-all settings fix).
- A framework's own check refusing multi-GPU / distributed runs as a whole ("ValueError: Multi-gpu and distributed
  training is currently not supported.", FastDP's trainer): rules W, U (2), BQ (3); the fix is one GPU
  (CUDA_VISIBLE_DEVICES=0, plain python) or the library's distributed scripts, not the batch-size arithmetic of the
  generic settings check. Round 95's fast-differential-privacy-32 showed it.
- Horovod's ops given GPU tensors by a Horovod built without CUDA ("Requested ReadyEvent with GPU device but not
  compiled with CUDA."): the shared install (rule AF (2)), config, no rank however one rank's mpirun tag shows it
  (rules AG, AZ (3)); the fix rebuilds Horovod with GPU operations. Round 95's once-for-all-29 showed it.
- argparse refusing the launcher's --local-rank=N: the fix now says "read LOCAL_RANK from os.environ" in those words
  (round 95's scbert-53).
- Not read so: a single distributed feature refused ("distributed sampler is not supported"), or distributed refused
  under one condition ("... not supported on Windows"), keeps the generic settings reading; torch's own "Torch not
  compiled with CUDA enabled" stays the torch-build reading, not Horovod's; a world-size message without the
  not-initialized clause is not the process-group reading.
"""
from __future__ import annotations

from tests.conftest import verdict_accused


def test_a_frameworks_world_size_without_a_process_group_names_init(tmp_path):
    text = ("RuntimeError: The world_size(4) > 1, but the distributed package is not available or has not been "
            "initialized. Please check you have initialized the distributed runtime.\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "config" and v["culprits"] == [] and not acc, v
    assert "init_process_group" in v["fix"] and "initialize_dist" in v["fix"], v["fix"]


def test_a_world_size_check_without_the_init_clause_keeps_its_reading(tmp_path):
    text = "ValueError: world_size(4) must be divisible by tensor_parallel_size(3)\n"
    v, _ = verdict_accused(tmp_path, text)
    assert "initialize_dist" not in v["fix"], v


_TB = ('Traceback (most recent call last):\n'
       '  File "/home/u/proj/train.py", line 90, in <module>\n'
       '    trainer.train()\n'
       '  File "/home/u/proj/src/trainer.py", line 253, in train\n'
       '    raise ValueError("{msg}")\n'
       'ValueError: {msg}\n')


def test_a_trainer_refusing_multi_gpu_says_run_on_one_gpu(tmp_path):
    v, acc = verdict_accused(tmp_path, _TB.format(msg="Multi-gpu and distributed training is currently not supported."))
    assert v["cause"] == "config" and v["culprits"] == [] and not acc, v
    assert "CUDA_VISIBLE_DEVICES=0" in v["fix"] and "run on a single GPU" in v["fix"], v["fix"]


def test_one_distributed_feature_refused_is_not_the_multi_gpu_reading(tmp_path):
    for msg in ("distributed sampler is not supported with an IterableDataset",
                "Distributed training is not supported on Windows"):
        v, _ = verdict_accused(tmp_path, _TB.format(msg=msg))
        assert "run on a single GPU" not in v["fix"], (msg, v)


def test_horovod_built_without_cuda_names_no_rank_and_the_rebuild(tmp_path):
    text = ("[1,1]<stderr>:Traceback (most recent call last):\n"
            '[1,1]<stderr>:  File "train.py", line 194, in <module>\n'
            "[1,1]<stderr>:    hvd.broadcast_parameters(model.state_dict(), 0)\n"
            '[1,1]<stderr>:  File "/env/lib/python3.8/site-packages/horovod/torch/mpi_ops.py", line 359, in '
            "_broadcast_async\n"
            "[1,1]<stderr>:    tensor, output, root_rank, name.encode() if name is not None else _NULL)\n"
            "[1,1]<stderr>:RuntimeError: Internal error. Requested ReadyEvent with GPU device but not compiled with "
            "CUDA.\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "config" and v["culprits"] == [] and not acc, v
    assert "HOROVOD_GPU_OPERATIONS=NCCL" in v["fix"] and "horovodrun --check-build" in v["fix"], v["fix"]


def test_torch_without_cuda_keeps_the_torch_build_reading(tmp_path):
    text = ('  File "/env/lib/python3.10/site-packages/torch/cuda/__init__.py", line 239, in _lazy_init\n'
            '    raise AssertionError("Torch not compiled with CUDA enabled")\n'
            "AssertionError: Torch not compiled with CUDA enabled\n")
    v, _ = verdict_accused(tmp_path, text)
    assert v["cause"] == "config" and "Horovod" not in v["fix"], v


def test_unrecognized_local_rank_says_read_local_rank_from_the_environment(tmp_path):
    text = ("usage: finetune.py [-h] [--local_rank LOCAL_RANK] [--epoch EPOCH]\n"
            "finetune.py: error: unrecognized arguments: --local-rank=0\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "config" and v["culprits"] == [] and not acc, v
    assert "read LOCAL_RANK from os.environ" in v["fix"], v["fix"]
