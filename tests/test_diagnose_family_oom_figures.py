"""How diagnose reads the memory failures round 94 showed it missing: what an OOM's own text says (its figures, or
that it has none) and what a launcher's record of one killed process names.

- A bare "CUDA error: out of memory" (the CUDA runtime's own error code, no "Tried to allocate", no figures: round
  94's monai-5831, a distributed test's first tensor on its device) is not the caching allocator running out: the
  context or an allocation outside the allocator found the GPU already full -- other processes on it, or every
  process of the job on one GPU. The fix names that (set_device per rank, CUDA_VISIBLE_DEVICES, nvidia-smi,
  empty_cache between tests); it names no rank (lead rule U (3): no GPU index, no figure). The allocator's own
  "CUDA out of memory. Tried to allocate" keeps its batch-size fix alone.
- subprocess's CalledProcessError for a command that is the interpreter running a script itself ("Command
  '['python', 'train.py', ...]' died with <Signals.SIGKILL: 9>"), its launcher's frame or raise not pasted (round
  94's gpt4all-256): the parent's record of the one process it ran, rank 0 of a world of one (lead rules A, AG), -9
  host_oom. A command that is itself a launcher (torchrun) names no worker (rule M) and stays unnamed.
- The fix of one worker killed with SIGKILL names the host memory (RAM) per worker, which the node holds once for
  every worker it runs (round 94's mjlab-576: 50000 simulated environments per worker); every process killed in
  the same second keeps the job-wide wording (rule J).
Paths, pids, sizes and commands are made up.
"""
from __future__ import annotations

from tests.conftest import failure_record
from tests.conftest import verdict_accused as _verdict

_SPAWN_TB = (
    "Process SpawnProcess-2:\n"
    "Traceback (most recent call last):\n"
    '  File "/usr/lib/python3.10/multiprocessing/process.py", line 314, in _bootstrap\n'
    "    self.run()\n"
    '  File "/work/tests/test_metric_dist.py", line 41, in _run\n'
    "    value = torch.as_tensor(rank, device=device)\n")


# --- a bare "CUDA error: out of memory": the runtime's own error, the GPU already full -------------------------------
def test_a_bare_cuda_error_out_of_memory_gets_the_full_gpu_fix_and_no_rank(tmp_path):
    v, acc = _verdict(tmp_path, "Rank 1: Completed store-based barrier for key:store_based_barrier_key:1 with 2 "
                      "nodes.\n" + _SPAWN_TB + "RuntimeError: CUDA error: out of memory\n")
    assert v["cause"] == "gpu_oom" and not acc, v
    assert "CUDA error: out of memory" in v["fix"] and "torch.cuda.set_device(local_rank)" in v["fix"], v
    # review 94 r1 (7): set_device takes the local rank (rank is no device ordinal past one node); empty_cache()
    # frees none of another process's memory
    assert "CUDA_VISIBLE_DEVICES" in v["fix"] and "set_device(rank)" not in v["fix"], v


def test_the_allocators_own_oom_text_keeps_its_batch_fix_only(tmp_path):
    v, _ = _verdict(tmp_path, _SPAWN_TB + "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB."
                    "\n")
    assert v["cause"] == "gpu_oom", v
    assert "runtime's own error" not in v["fix"] and "batch size" in v["fix"], v


# --- a CalledProcessError for `python script.py`: the one process its parent ran --------------------------------------
def test_a_called_process_error_for_a_plain_python_script_names_rank_0(tmp_path):
    v, acc = _verdict(tmp_path, "UserWarning: resource_tracker: There appear to be 1 leaked semaphore objects to "
                      "clean up at shutdown\nCalledProcessError: Command '['/opt/conda/bin/python', 'finetune.py', "
                      "'--config', 'cfg/run.yaml']' died with <Signals.SIGKILL: 9>.\n")
    assert v["cause"] == "host_oom" and acc == {0}, v


def test_a_called_process_error_for_torchrun_names_no_worker(tmp_path):
    v, acc = _verdict(tmp_path, "CalledProcessError: Command '['torchrun', '--nproc_per_node=2', 'finetune.py']' died "
                      "with <Signals.SIGKILL: 9>.\n")
    assert not acc, v


# --- one worker killed with SIGKILL: the host memory per worker ------------------------------------------------------
def test_one_worker_killed_names_the_host_memory_per_worker(tmp_path):
    v, acc = _verdict(tmp_path, "Starting 2 worker processes.\n"
                      "W0204 21:34:02.274000 6578 torch/multiprocessing/spawn.py:174] Terminating process 6701 via "
                      "signal SIGTERM\n"
                      "E0204 21:34:02.943000 6578 torch/distributed/elastic/multiprocessing/api.py:742] failed "
                      "(exitcode: -9) local_rank: 1 (pid: 6702) of fn: worker_entrypoint (start_method: spawn)\n")
    assert v["cause"] == "host_oom" and acc == {1}, v
    assert "host memory (RAM) per worker" in v["fix"], v


def test_every_process_killed_at_once_keeps_the_job_wide_fix(tmp_path):
    v, acc = _verdict(tmp_path, "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n"
                      + failure_record(0, 0, 0, -9, 5101) + failure_record(1, 1, 1, -9, 5102))
    assert v["cause"] == "host_oom" and not acc, v
    assert "every process uses at once" in v["fix"] and "per worker" not in v["fix"], v


# --- torch 1.x's OOM figures: the failing allocator's own memory on GPU N (lead rule BX (1)) -------------------------
_OLD = ("CUDA out of memory. Tried to allocate {s} (GPU {g}; {t} total capacity; {a} already allocated; {f} free; "
        "{r} reserved in total by PyTorch)")


def test_old_figures_of_the_failing_allocator_name_the_gpus_rank(tmp_path):
    logged = ("2022-08-21 00:29:47 | WARNING | trainer | OOM: Ran out of memory with exception: "
              + _OLD.format(s="93.75 GiB", g=4, t="79.17 GiB", a="1.52 GiB", f="74.14 GiB", r="1.54 GiB")
              .removesuffix(" by PyTorch)") + "\n")  # a trainer's warning, cut after its figures
    v, acc = _verdict(tmp_path, "begin training epoch 1\n" + logged)
    assert v["cause"] == "gpu_oom" and acc == {4}, v
    assert "larger than the whole GPU" in v["fix"], v
    raised = ('  File "train.py", line 431, in <module>\n    engine.backward(loss)\nRuntimeError: '
              + _OLD.format(s="1.93 GiB", g=0, t="23.70 GiB", a="15.29 GiB", f="1.54 GiB", r="20.47 GiB") + "\n")
    v, acc = _verdict(tmp_path, "Traceback (most recent call last):\n" + raised)
    assert v["cause"] == "gpu_oom" and acc == {0}, v
    assert "max_split_size_mb" in v["fix"], v


def test_old_figures_of_a_shared_gpu_name_no_rank(tmp_path):
    for a, f, r in (("512.00 MiB", "20.00 MiB", "600.00 MiB"),  # the memory outside R holds the GPU
                    ("0 bytes", "20.00 MiB", "0 bytes")):  # this process holds nothing there
        v, acc = _verdict(tmp_path, "RuntimeError: " + _OLD.format(s="64.00 MiB", g=1, t="23.70 GiB", a=a, f=f, r=r)
                          + "\n")
        assert v["cause"] == "gpu_oom" and not acc, (a, v)
