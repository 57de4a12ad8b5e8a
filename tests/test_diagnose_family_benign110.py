"""How diagnose words the fix of benign runs, start-ups and wrappers around a dead worker (round 110, session 47,
fixer f8): Python's fork-in-threads warning (JAX) as a start-up warning, NCCL's 'Abort COMPLETE' teardown with nothing
failing, c10d's IPv6 lookup warning with gai error -2, the no-failure words of a hang, the barrier's device warning, a
Ray actor's death in a driver's full traceback, Ray's worker-died line, torch.distributed.rpc's old timeout text, a
rank missing from a collective and a GPU OOM. Each test reads the shape from lines other than the corpus case's own
(other ranks, numbers, paths, names), and a near shape that keeps its old reading. Hosts, pids and paths are made
up."""

from __future__ import annotations

from ncclDoctor.diagnose import signatures as S
from tests.conftest import nccl_info, verdict_accused, watchdog_line


def _none(tmp_path, text):
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "none" and not acc and v["culprits"] == [], (v, acc)
    return v


def _unknown(tmp_path, text):
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "unknown" and not acc and v["culprits"] == [], (v, acc)
    return v


# --- Python's warning that a multithreaded process forked ---------------------------------------------------------
_JAX_FORK = ("/opt/envs/py311/lib/python3.11/multiprocessing/popen_fork.py:66: RuntimeWarning: os.fork() was called. "
             "os.fork() is incompatible with multithreaded code, and JAX is multithreaded, so this will likely lead "
             "to a deadlock.\n  self.pid = os.fork()\n")


def test_a_jax_fork_warning_between_worker_start_lines_is_a_start_up_warning(tmp_path):
    """Lead rules K, N, AZ (4): every worker's start-up line, the fork warning of its DataLoader, then progress: none,
    nobody; the fix names JAX, the DataLoader's start method and num_workers=0."""
    text = "".join(f"worker {r} of 4 started on local rank {r % 2}\n" + _JAX_FORK for r in range(4))
    text += "".join(f"epoch 1 step {s}: 812.4 samples/s\n" for s in range(3))
    v = _none(tmp_path, text)
    assert "do not import JAX in the PyTorch training process" in v["fix"], v
    assert "multiprocessing_context='spawn' (or forkserver) for the DataLoader" in v["fix"], v
    assert "num_workers=0 to avoid forking" in v["fix"], v


def test_a_line_only_mentioning_fork_is_not_the_warning(tmp_path):
    """Near shape: a user's question about os.fork() and threads is not JAX's warning (R_FORK_THREADS_WARN's
    anchors); the warning itself is, wherever its path and line number."""
    assert S.R_FORK_THREADS_WARN.search(_JAX_FORK)
    assert not S.R_FORK_THREADS_WARN.search("we call os.fork() in the loader; is fork incompatible with threads?")
    v = _none(tmp_path, "we call os.fork() in the loader: is it incompatible with multithreaded code?\nstep 3 ok\n")
    assert "num_workers=0 to avoid forking" not in v["fix"], v
    assert "Nothing to fix in these lines" in v["fix"], v


# --- NCCL's Abort COMPLETE with nothing failing -------------------------------------------------------------------
def _teardown(end: str) -> str:
    host, pid = "gpu-node-17", 51880
    text = nccl_info(host, pid, 1, "AllReduce: opCount 3a1 sendbuff 0x7f00a0000000 recvbuff 0x7f00a0000000 count 1024 "
                     "datatype 7 op 0 root 0 comm 0x55d0c0ffee00 [nranks=4] stream 0x55d0c0aa0000")
    for comm, n in (("0x55d0c0ffee00", 4), ("0x55d0c1234560", 2)):
        text += "".join(nccl_info(host, pid, 1, f"[Service thread] Connection closed by localRank {r}", tid=pid + 9)
                        for r in range(n))
        text += nccl_info(host, pid, 1, f"comm {comm} rank 1 nranks {n} cudaDev 1 busId 41000 - {end} COMPLETE")
    return text


def test_nccl_abort_complete_with_nothing_failing_names_destroy_process_group(tmp_path):
    """Lead rules K, CJ (2): a process's last op traces, then its communicators' 'Abort COMPLETE': none, nobody; the
    fix says the lines are torch's teardown at exit (destroy_process_group itself aborts on torch 2.3 to 2.5: no
    'instead of abort', review 110 b #5) and where an exception would be."""
    v = _none(tmp_path, _teardown("Abort"))
    assert "destroy_process_group() (on torch 2.3 to 2.5 implemented with ncclCommAbort)" in v["fix"], v
    assert "instead of abort" not in v["fix"], v
    assert "read the Python/torchrun output of each rank for the exception (not in the NCCL log)" in v["fix"], v
    # near shape: the same communicators destroyed ('Destroy COMPLETE'), the clean shutdown: none, no abort words
    v = _none(tmp_path, _teardown("Destroy"))
    assert "instead of abort at exit" not in v["fix"], v
    assert "Nothing to fix in these lines" in v["fix"], v


# --- c10d's IPv6 lookup warning, gai error -2 ----------------------------------------------------------------------
def test_ipv6_lookup_name_unknown_is_a_retried_warning(tmp_path):
    """Lead rules L, N, BM (2): the store client's [W] IPv6 lookup warning of a name not known (a pod's DNS record
    before the pod runs), repeated, nothing after it: none, nobody; the fix says it is retried and what to do if a
    timeout follows."""
    line = ("[W socket.cpp:601] [c10d] The IPv6 network addresses of (trainer-job-0-0.trainer-job, 23456) cannot be "
            "retrieved (gai error: -2 - Name or service not known).\n")
    v = _none(tmp_path, line * 3)
    assert "nothing failed: a retried c10d warning" in v["fix"], v
    assert "use the master pod IP as MASTER_ADDR" in v["fix"], v
    assert "a longer rendezvous / store timeout" in v["fix"], v
    # near shape: gai error -3 (a temporary lookup failure): the harmless fallback reading alone
    line = ("[W socket.cpp:601] [c10d] The IPv6 network addresses of (head-node, 29500) cannot be retrieved (gai "
            "error: -3 - Temporary failure in name resolution).\n")
    v = _none(tmp_path, line)
    assert "harmless (it falls back to IPv4)" in v["fix"], v
    assert "retried c10d warning" not in v["fix"], v


# --- the words of a log with nothing failing -----------------------------------------------------------------------
def test_a_jobs_own_prints_name_nccl_info_with_distributed_detail(tmp_path):
    """Lead rules K, T: two processes' own prints, nothing failing: none, nobody; if it hung, the fix pairs
    NCCL_DEBUG=INFO with TORCH_DISTRIBUTED_DEBUG=DETAIL."""
    v = _none(tmp_path, "START main=True\nSTART main=False\nEND main=True\nEND main=False\n")
    assert "NCCL_DEBUG=INFO and TORCH_DISTRIBUTED_DEBUG=DETAIL" in v["fix"], v


def test_a_deepspeed_launcher_start_up_reads_none(tmp_path):
    """Lead rules K, T, BJ (4): DeepSpeed's runner on one machine (no hostfile: a local run) and its world mapping,
    nothing after them: none, nobody, with the same hang words."""
    text = ("[2024-02-11 08:01:12,004] [WARNING] [runner.py:202:fetch_hostfile] Unable to find hostfile, will proceed "
            "with training with local resources only.\n"
            "Detected CUDA_VISIBLE_DEVICES=0,1: setting --include=localhost:0,1\n"
            "[2024-02-11 08:01:14,220] [INFO] [launch.py:151:main] nnodes=1, num_local_procs=2, node_rank=0\n"
            "[2024-02-11 08:01:14,221] [INFO] [launch.py:145:main] WORLD INFO DICT: {'localhost': [0, 1]}\n")
    v = _none(tmp_path, text)
    assert "NCCL_DEBUG=INFO and TORCH_DISTRIBUTED_DEBUG=DETAIL" in v["fix"], v


def test_the_barrier_device_warning_names_dist_barrier_device_ids(tmp_path):
    """c10d's 'No device id is provided' UserWarning with training going on: none; the fix spells the barrier's own
    remedy as dist.barrier(device_ids=[local_rank])."""
    text = ("/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py:4711: UserWarning: No device id "
            "is provided via `init_process_group` or `barrier `. Using the current device set by the user.\n"
            "  warnings.warn(  # warn only once\nstep 40 loss 1.92\nstep 41 loss 1.90\n")
    v = _none(tmp_path, text)
    assert "dist.barrier(device_ids=[local_rank])" in v["fix"], v


# --- Ray: an actor's death, a worker died ---------------------------------------------------------------------------
def _driver_tb(last: str) -> str:
    return ("Traceback (most recent call last):\n"
            '  File "/srv/app/serve.py", line 88, in <module>\n'
            "    pool = WorkerPool(cfg)\n"
            '  File "/srv/app/pool.py", line 41, in __init__\n'
            "    ray.get([w.setup.remote() for w in self.workers])\n"
            '  File "/opt/py/lib/python3.10/site-packages/ray/_private/worker.py", line 2667, in get\n'
            "    raise value\n" + last + "\n")


def test_a_driver_traceback_ending_in_an_actors_death_names_its_log_and_memory(tmp_path):
    """Lead rules BJ (1), AU (1): a driver's full traceback ending in RayActorError, no cause shown: unknown, nobody;
    the fix sends to the dead actor's own log and an OOM kill."""
    v = _unknown(tmp_path, _driver_tb("ray.exceptions.RayActorError: The actor died unexpectedly before finishing "
                                      "this task."))
    assert "the dead actor's own log (raylet / worker logs" in v["fix"], v
    assert "check dmesg / the Ray memory monitor for an OOM kill" in v["fix"], v
    # near shape: the same traceback ending in Ray's system error, no actor named: no dead-actor words
    v = _unknown(tmp_path, _driver_tb("ray.exceptions.RaySystemError: System error: cannot connect to GCS"))
    assert "dead actor's own log" not in v["fix"], v


def test_rays_worker_died_line_names_rays_own_list_of_causes(tmp_path):
    """Lead rules BJ (1), AD (2): the raylet's worker-died line (connection error code 2, End of file), with Ray's
    list of causes: unknown, nobody; the fix checks each cause in that list."""
    text = ("2024-05-02 11:20:07,118\tWARNING worker.py:2058 -- A worker died or was killed while executing a task by "
            "an unexpected system error. To troubleshoot the problem, check the logs for the dead worker. RayTask ID: "
            "ffffffffffffffffa1b2c3d4 Worker ID: 77aa12bb Node ID: 9c0ffee1 Worker IP address: 10.20.30.40 Worker "
            "port: 41002 Worker PID: 9137 Worker exit type: SYSTEM_ERROR Worker exit detail: Worker unexpectedly "
            "exits with a connection error code 2. End of file. There are some potential root causes. (1) The "
            "process is killed by SIGKILL by OOM killer due to high memory usage. (2) ray stop --force is called. (3) "
            "The worker is crashed unexpectedly due to SIGSEGV or other unexpected errors.\n")
    v = _unknown(tmp_path, text)
    assert "check that nobody ran ray stop --force" in v["fix"], v
    assert "check for a SIGSEGV or core dump in the worker" in v["fix"], v
    assert "check dmesg / the kernel OOM killer for the host" in v["fix"], v


# --- torch.distributed.rpc's timeout ------------------------------------------------------------------------------
def test_the_old_rpc_timeout_aborting_names_a_short_timeout_and_the_future(tmp_path):
    """Lead rule BN (1): torch <= 1.5's 'RPC ran for more than N milliseconds and timed out.' as the what() of an
    uncaught C++ exception, twice: unknown, nobody; the fix names the RPC's own remedies."""
    block = ("terminate called after throwing an instance of 'std::runtime_error'\n"
             "  what():  RPC ran for more than 25 milliseconds and timed out.\n")
    v = _unknown(tmp_path, block * 2 + "FAIL: test_remote_timeout (rpc_test.RpcTest)\n")
    assert "A 25 ms RPC timeout is far too short" in v["fix"], v
    assert "catch the timeout on the future (fut.wait / to_here in try) instead of an uncaught C++ exception" in v[
        "fix"], v
    # near shape: TensorPipe's 'set timeout (60000 ms)' with no abort: the RPC fix without the short / uncaught words
    text = ("RuntimeError: RPCErr:1:RPC ran for more than set timeout (60000 ms) and will now be marked with an "
            "error\n")
    v, _ = verdict_accused(tmp_path, text)
    assert "did not answer within the RPC timeout" in v["fix"], v
    assert "far too short" not in v["fix"] and "uncaught C++ exception" not in v["fix"], v


# --- a rank missing from a collective, a GPU OOM ----------------------------------------------------------------------
def test_a_rank_missing_fix_says_to_raise_the_timeout_only_after_the_hunt(tmp_path):
    """Lead rules B, E: three ranks of a world of 16 inside one broadcast (same SeqNum): rank_missing, nobody; the fix
    says a longer timeout only helps a slow rank."""
    text = "".join(nccl_info(f"n{r // 8}", 700 + r, r % 8, f"comm 0x5500{r} rank {r} nranks 16 cudaDev {r % 8} "
                             f"busId {r % 8 + 1}0000 - Init COMPLETE") for r in (3, 9, 12))
    text += "".join(watchdog_line(r, 41, "BROADCAST", 600071, 600000, numel=2048) for r in (3, 9, 12))
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "rank_missing" and not acc, (v, acc)
    assert "Raise the process group timeout only after finding the stuck rank" in v["fix"], v
    # near shape: two ranks at different SeqNums and ops (a desync, rule D): not rank_missing, no such words
    text = (watchdog_line(0, 90, "ALLREDUCE", 1800030, 1800000, numel=1)
            + watchdog_line(1, 93, "ALLGATHER", 1800044, 1800000, numel=8))
    v, acc = verdict_accused(tmp_path, text)
    # the reading it keeps: rule D's desync (two ops at two SeqNums), nobody named (review 110 b #9)
    assert v["cause"] == "desync" and not acc and v["culprits"] == [], (v, acc)
    assert "make every rank issue the same collectives in the same order" in v["fix"], v
    assert "only after finding the stuck rank" not in v["fix"], v


def test_a_gpu_oom_names_zero3_offload_and_a_bigger_gpu(tmp_path):
    """Lead rule U (3): one process's own OOM on its GPU: gpu_oom; the fix names ZeRO-3 / CPU offload and a GPU with
    more memory beside the batch and fragmentation remedies."""
    text = ("torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.12 GiB. GPU 2 has a total capacity "
            "of 39.39 GiB of which 1.07 GiB is free. Including non-PyTorch memory, this process has 38.30 GiB memory "
            "in use. Of the allocated memory 30.11 GiB is allocated by PyTorch, and 6.50 GiB is reserved by PyTorch "
            "but unallocated.\n")
    v, _ = verdict_accused(tmp_path, text)
    assert v["cause"] == "gpu_oom", v
    assert "use ZeRO-3 or CPU offload to free GPU memory" in v["fix"], v
    assert "use a GPU with more memory" in v["fix"], v
