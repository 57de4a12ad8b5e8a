"""Fix words naming the shape's remedy, shapes rounds 100 and 101 showed read right but with a fix an expert would
not give (rules A, M, U, J): the verdict stays as it was, the fix names what an expert names for that shape.

- torch.distributed.launch's CalledProcessError naming the last worker it launched (deocclusion-15, pick-pytorch-36):
  nobody named; the fix adds faulthandler, NCCL_DEBUG=INFO and --nproc_per_node vs CUDA_VISIBLE_DEVICES. A
  CalledProcessError of another command (a build's ninja) gets none of those words.
- One worker's own exception under torchrun's exit-1 record, the others SIGTERM'd (fastchat-1054, funasr-1617): that
  rank named; the fix says it raised first, that exit code 1 of its local_rank is a Python exception, not a
  distributed failure, and to read its own traceback. The same record with no traceback of its own keeps its old
  reading.
- mp.spawn's record whose child's traceback is cut at fn(i, *args) (pytorch-examples-1403): the fix asks for the full
  traceback / error text of process N. A child traceback that reaches its exception gets none of those words.
- std::bad_alloc in every process under the launcher (dsvt-14): host_oom; the fix names free -h / dmesg and fewer
  processes per node. CUDA's out-of-memory gets none of them.
- datasets' 'Directory not empty' on its '.incomplete' cache directory (transformers-30859): that rank named, cause
  unknown; the fix names the race between ranks building the same cache, main_process_first and a node-local
  cache_dir. 'Directory not empty' on another directory gets none of those words.
- A rank's own size mismatch whose sizes differ by a whole factor (ms-swift-9917): the fix says that rank raised
  first. Sizes that are no whole factor apart keep the old words.
"""
from __future__ import annotations

from tests.conftest import child_failed, failure_record
from tests.conftest import verdict_accused as _verdict


# --- torch.distributed.launch's CalledProcessError ------------------------------------------------------------------
def test_launch_calledprocesserror_names_faulthandler_nccl_debug_and_visible_gpus(tmp_path):
    line = ("subprocess.CalledProcessError: Command '['/opt/conda/bin/python', '-u', 'tools/train.py', "
            "'--local_rank=5', '--cfg', 'configs/run/exp.yaml']' returned non-zero exit status 1.\n")
    v, acc = _verdict(tmp_path, line)
    assert v["culprits"] == [] and v["cause"] == "unknown" and not acc, v
    assert "faulthandler" in v["fix"] and "NCCL_DEBUG=INFO" in v["fix"], v
    assert "--nproc_per_node" in v["fix"] and "CUDA_VISIBLE_DEVICES" in v["fix"], v


def test_other_calledprocesserror_gets_no_launch_words(tmp_path):
    line = ("subprocess.CalledProcessError: Command '['ninja', '-v']' returned non-zero exit status 1.\n")
    v, _ = _verdict(tmp_path, line)
    assert "faulthandler (PYTHONFAULTHANDLER=1)" not in v["fix"], v


# --- one worker's own exception under torchrun's exit-1 record ------------------------------------------------------
_API = "torch.distributed.elastic.multiprocessing.api"


def _own_exception(lr: int, exc: str) -> str:
    others = [x for x in range(4) if x != lr]
    return ("Traceback (most recent call last):\n"
            '  File "/work/train/train.py", line 88, in <module>\n'
            "    main()\n"
            '  File "/work/train/data.py", line 41, in preprocess\n'
            "    turn = conv[idx]\n"
            f"{exc}\n"
            + "".join(f"WARNING:{_API}:Sending process {5100 + x} closing signal SIGTERM\n" for x in others)
            + f"ERROR:{_API}:failed (exitcode: 1) local_rank: {lr} (pid: {5100 + lr}) of binary: /usr/bin/python3\n")


def test_torchrun_own_exception_is_a_python_exception_raised_first(tmp_path):
    v, acc = _verdict(tmp_path, _own_exception(3, "ValueError: not enough values to unpack (expected 2, got 1)"))
    assert v["culprits"] == [3] and v["cause"] == "unknown" and acc == {3}, v
    assert "exitcode 1 of local_rank 3 is a Python exception, not a distributed failure" in v["fix"], v
    assert "rank 3 (local_rank 3) raised first" in v["fix"].lower() and "rank 3's own traceback" in v["fix"], v


def test_torchrun_own_assertion_names_its_rank(tmp_path):
    v, acc = _verdict(tmp_path, _own_exception(2, "AssertionError: torch.Size([4, 7])"))
    assert v["culprits"] == [2] and acc == {2}, v
    assert "rank 2's own traceback" in v["fix"] and "local_rank 2 is a Python exception" in v["fix"], v


def test_torchrun_child_failed_record_names_global_and_local_rank(tmp_path):
    tb = ("Traceback (most recent call last):\n  File \"/w/train.py\", line 8, in <module>\n    main()\n"
          "  File \"/w/data.py\", line 4, in get\n    x = rows[i]\nIndexError: list index out of range\n")
    v, acc = _verdict(tmp_path, tb + child_failed(failure_record(0, 5, 1, 1, 4242, host="n2")))
    assert v["culprits"] == [5] and acc == {5}, v
    assert "exitcode 1 of local_rank 1 is a Python exception" in v["fix"] and "rank 5's own traceback" in v["fix"], v


def test_torchrun_record_without_own_traceback_keeps_old_words(tmp_path):
    text = "".join(f"WARNING:{_API}:Sending process {5100 + x} closing signal SIGTERM\n" for x in (0, 2, 3)) + (
        f"ERROR:{_API}:failed (exitcode: 1) local_rank: 1 (pid: 5101) of binary: /usr/bin/python3\n")
    v, _ = _verdict(tmp_path, text)
    assert "is a Python exception, not a distributed failure" not in v["fix"], v


# --- mp.spawn's child traceback cut at fn(i, *args) -----------------------------------------------------------------
_SPAWN = "/usr/lib/python3.11/site-packages/torch/multiprocessing/spawn.py"


def _spawn_record(n: int, tail: str) -> str:
    return ("Traceback (most recent call last):\n"
            '  File "/srv/job/main.py", line 120, in <module>\n'
            "    mp.spawn(train_worker,\n"
            f'  File "{_SPAWN}", line 246, in spawn\n'
            '    return start_processes(fn, args, nprocs, join, daemon, start_method="spawn")\n'
            f'  File "{_SPAWN}", line 202, in start_processes\n'
            "    while not context.join():\n"
            f'  File "{_SPAWN}", line 163, in join\n'
            "    raise ProcessRaisedException(msg, error_index, failed_process.pid)\n"
            "torch.multiprocessing.spawn.ProcessRaisedException:\n\n"
            f"-- Process {n} terminated with the following error:\n"
            "Traceback (most recent call last):\n"
            f'  File "{_SPAWN}", line 69, in _wrap\n'
            "    fn(i, *args)\n" + tail)


def test_spawn_child_cut_asks_for_process_error_text(tmp_path):
    v, acc = _verdict(tmp_path, _spawn_record(2, ""))
    assert v["culprits"] == [2] and v["cause"] == "unknown", v
    assert "full traceback / error text of process 2" in v["fix"], v
    assert "the child's own error text below the traceback" in v["fix"], v


def test_spawn_child_with_its_exception_gets_no_cut_words(tmp_path):
    tail = ('  File "/srv/job/main.py", line 40, in train_worker\n'
            "    cfg = load(path)\n"
            "ValueError: bad config value 'lr'\n")
    v, _ = _verdict(tmp_path, _spawn_record(2, tail))
    assert "error text of process 2" not in v["fix"], v


# --- std::bad_alloc in every process --------------------------------------------------------------------------------
def test_bad_alloc_names_free_dmesg_and_fewer_processes(tmp_path):
    text = ("WARNING:torch.distributed.run:\n*****************************************\n"
            "Setting OMP_NUM_THREADS environment variable for each process to be 1 in default\n"
            "*****************************************\n"
            + "terminate called after throwing an instance of 'std::bad_alloc'\n" * 3
            + "  what():  std::bad_alloc\n")
    v, acc = _verdict(tmp_path, text)
    assert v["cause"] == "host_oom" and not acc, v
    assert "free -h / dmesg" in v["fix"] and "fewer processes per node" in v["fix"], v


def test_cuda_oom_gets_no_host_memory_words(tmp_path):
    text = ("[rank1]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 1 has a total "
            "capacity of 79.10 GiB of which 1.02 GiB is free.\n")
    v, _ = _verdict(tmp_path, text)
    assert v["cause"] != "host_oom" and "free -h / dmesg" not in v["fix"], v


# --- datasets' .incomplete cache directory --------------------------------------------------------------------------
def _rmtree_error(rank: int, path: str) -> str:
    return (f"{rank}: Traceback (most recent call last):\n"
            f'{rank}:   File "/opt/py/site-packages/datasets/builder.py", line 909, in incomplete_dir\n'
            f"{rank}:     shutil.rmtree(tmp_dir)\n"
            f'{rank}:   File "/opt/py/shutil.py", line 736, in rmtree\n'
            f"{rank}:     os.rmdir(path, dir_fd=dir_fd)\n"
            f"{rank}: OSError: [Errno 39] Directory not empty: '{path}'\n")


def test_incomplete_cache_dir_not_empty_is_a_cache_race(tmp_path):
    v, acc = _verdict(tmp_path, _rmtree_error(6, "/shared/hf_cache/json/default-1a2b3c/0.0.0/9f8e7d6c.incomplete"))
    assert v["culprits"] == [6] and v["cause"] == "unknown" and acc == {6}, v
    assert "race on the .incomplete cache directory" in v["fix"], v
    assert "main_process_first" in v["fix"] and "per-rank or node-local cache_dir" in v["fix"], v


def test_other_dir_not_empty_gets_no_cache_race_words(tmp_path):
    v, acc = _verdict(tmp_path, _rmtree_error(6, "/shared/outputs/checkpoint-500"))
    assert v["culprits"] == [6] and acc == {6}, v
    assert ".incomplete" not in v["fix"] and "main_process_first" not in v["fix"], v


# --- a rank's own size mismatch by a whole factor -------------------------------------------------------------------
def _size_mismatch(rank: int, a: int, b: int) -> str:
    return (f"[rank{rank}]: Traceback (most recent call last):\n"
            f'[rank{rank}]:   File "/opt/py/site-packages/rl/advantage.py", line 51, in compute_advantages\n'
            f"[rank{rank}]:     rewards = rewards - beta * kl_values\n"
            f"[rank{rank}]: RuntimeError: The size of tensor a ({a}) must match the size of tensor b ({b}) at "
            "non-singleton dimension 0\n")


def test_sharded_size_mismatch_says_the_rank_raised_first(tmp_path):
    v, acc = _verdict(tmp_path, _size_mismatch(5, 256, 2048))
    assert v["culprits"] == [5] and v["cause"] == "unknown" and acc == {5}, v
    assert "rank 5 raised first" in v["fix"].lower(), v


def test_unsharded_size_mismatch_keeps_old_words(tmp_path):
    v, acc = _verdict(tmp_path, _size_mismatch(5, 300, 2048))
    assert v["culprits"] == [5] and acc == {5}, v
    assert "raised first" not in v["fix"], v
