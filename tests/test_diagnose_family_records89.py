"""Launcher records round 89 showed read by their shape (rules A, AM (2), AU (4), BG (6), BH (2), BJ (1), BM (1),
BN (2), BT (1), I, J, M, U (5)): each is a launcher's (or an agent's, or Ray's) record of a worker failing, and what
an expert reads is whose failure it names -- or that it names nobody.

- torch 1.x torch.distributed.launch's CalledProcessError for its last worker's '--local_rank=0' command, the Command
  wrapped so its "returned non-zero exit status 1" stands on the next line: the launcher's record of that worker, not
  the worker's own exception -- culprit local rank 0, cause unknown, and the fix asks for the worker's own traceback
  (swin-transformer-109, as mspn-31 reads the whole line). A CalledProcessError on a line of its own that no failure
  record was read from keeps its old reading.
- torchrun's Failures table pasted from inside a Failures entry (its time line cut) beside the timed Root Cause entry,
  both exit code 1, nobody torn down: every shown rank failing alike, culprits [] (rules J, AM (2); nnscaler-10, as
  xflux-44 and VideoLLaMA2-58 read the table). Entries with different exit codes still name each rank.
- Ray's raylet reporting a worker process dead (connection EOF) whose pid is the Ray actor prefix on Lightning's
  "[rank: 1] Child process with PID P terminated with code 1": that process is the launcher, torn down after its child
  -- the child's record names rank 1 (rules A, I, AU (4), BJ (1); neuralforecast-1291). A dead Ray worker of another
  pid is still read as the first failure, nobody named.
- Ray Train's "(TorchTrainer pid=P) Worker 0 has failed." beside the raylet's dead-worker report: the dead process is
  training worker 0, its world rank (rules I, AU (4); Ray's hedged OOM list gives no cause, BJ (1); ray-47461). A bare
  "Worker 0 has failed." with no trainer actor prefix is not read.
- torchelastic's error handler copying the child error file ".../attempt_0/4/error.json" before the agent's
  ChildFailedError: its record of the first failure, local rank 4, cause unknown, the fix names that error.json (rule
  BT (1); deepmd-kit-4594). Beside the agent's own "failed (exitcode: 1) local_rank: 0" record it adds no second
  failure.
- mp.spawn's "-- Process 2 terminated with the following error:" whose traceback is cut at the caller's code line
  constructing DistributedDataParallel ("module=model, device_ids=[cur_device], outp", the continuation line of the
  call): cut in DDP's constructor, its state broadcast -- unknown, culprits "unknown" (rules BH (2), BM (1), BG (6);
  slowfast-274). A cut at another code line still names process 2.
"""
from __future__ import annotations

from tests.conftest import failure_record
from tests.conftest import verdict_accused as _verdict

# --- torch.distributed.launch's CalledProcessError, its status wrapped ------------------------------------------------
_LAUNCH = ('  File "C:\\envs\\mm\\lib\\site-packages\\torch\\distributed\\launch.py", line 301, in sigkill_handler\n'
           "    raise subprocess.CalledProcessError(returncode=last_return_code, cmd=cmd)\n")


def test_launch_cpe_wrapped_is_the_workers_record_not_its_exception(tmp_path):
    v, acc = _verdict(tmp_path, _LAUNCH + "subprocess.CalledProcessError: Command '['C:\\\\envs\\\\mm\\\\python.exe', "
                      "'-u', 'main.py', '--local_rank=0', '--data-path', 'E:/data\n/train', '--batch-size', '2']' "
                      "returned non-zero exit status 1.\n")
    assert (v["cause"], v["culprits"]) == ("unknown", [0]) and acc == {0}, v
    assert "Fix the exception that traceback ends in" not in v["fix"] and "local_rank 0" in v["fix"], v


def test_launch_cpe_whole_line_keeps_its_reading(tmp_path):
    v, _ = _verdict(tmp_path, _LAUNCH + "subprocess.CalledProcessError: Command '['/env/bin/python', '-u', 'train.py', "
                    "'--local_rank=0']' returned non-zero exit status 1.\n")
    assert (v["cause"], v["culprits"]) == ("unknown", [0]), v


# --- torchrun's table from inside a Failures entry --------------------------------------------------------------------
def _table(first_code: int) -> str:
    return (failure_record(None, 7, 7, first_code, 4227, host="node-a")
            + "------------------------------------------------------------\n"
              "Root Cause (first observed failure):\n"
            + failure_record(0, 0, 0, 1, 4220, host="node-a")
            + "============================================================\n")


def test_cut_failures_entry_beside_root_cause_alike_names_nobody(tmp_path):
    v, acc = _verdict(tmp_path, _table(1))
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "same error on every rank" in v["fix"], v


def test_cut_failures_entry_with_another_code_still_names_each(tmp_path):
    _, acc = _verdict(tmp_path, _table(-11))
    assert acc == {0, 7}, acc


# --- Ray: the launcher's actor torn down, Ray Train's failed worker ---------------------------------------------------
_RAY_DIED = ("(raylet) A worker died or was killed while executing a task by an unexpected system error. To "
             "troubleshoot the problem, check the logs for the dead worker. Worker IP address: 10.0.0.2 Worker port: "
             "3309 Worker PID: {pid} Worker exit type: SYSTEM_ERROR Worker exit detail: Worker unexpectedly exits "
             "with a connection error code 2. End of file. There are some potential root causes. (1) The process is "
             "killed by SIGKILL by OOM killer due to high memory usage. (2) ray stop --force is called.\n")
_CHILD = ("(_train_tune pid=22946) [rank: 1] Child process with PID 23026 terminated with code 1. Forcefully "
          "terminating all other processes to avoid zombies\n")


def test_ray_death_of_the_launchers_actor_leaves_the_child_named(tmp_path):
    v, acc = _verdict(tmp_path, _CHILD + _RAY_DIED.format(pid=22946))
    assert (v["cause"], v["culprits"]) == ("unknown", [1]) and acc == {1}, v
    assert "ray worker logs" in v["fix"], v


def test_ray_death_of_another_pid_is_still_the_first_failure(tmp_path):
    v, _ = _verdict(tmp_path, _CHILD + _RAY_DIED.format(pid=31000))
    assert (v["cause"], v["culprits"]) == ("unknown", []) and "Ray worker process" in v["summary"], v


def test_ray_train_failed_worker_names_its_rank(tmp_path):
    v, acc = _verdict(tmp_path, _RAY_DIED.format(pid=89513) + "(TorchTrainer pid=89392) Worker 0 has failed.\n")
    assert (v["cause"], v["culprits"]) == ("unknown", [0]) and acc == {0}, v
    assert "dmesg" in v["fix"], v


def test_bare_worker_has_failed_is_not_ray_trains(tmp_path):
    v, acc = _verdict(tmp_path, _RAY_DIED.format(pid=89513) + "Worker 0 has failed.\n")
    assert v["culprits"] == [] and not acc, v


# --- torchelastic's error handler copying the child error file --------------------------------------------------------
_AGENT_TB = ("Traceback (most recent call last):\n"
             '  File "/env/bin/torchrun", line 10, in <module>\n'
             "    sys.exit(main())\n"
             '  File "/env/lib/python3.12/site-packages/torch/distributed/launcher/api.py", line 264, in launch_agent\n'
             "    raise ChildFailedError(\n")
_COPY = ("E0212 10:00:00.000000 9 torch/distributed/elastic/multiprocessing/errors/error_handler.py:141] no error file "
         "defined for parent, to copy child error file (/tmp/torchelastic_ab/none_cd/attempt_0/4/error.json)\n")


def test_child_error_file_copy_names_its_local_rank(tmp_path):
    v, acc = _verdict(tmp_path, _COPY + _AGENT_TB)
    assert (v["cause"], v["culprits"]) == ("unknown", [4]) and acc == {4}, v
    assert "error.json of local_rank 4" in v["fix"], v


def test_child_error_file_copy_beside_the_agents_record_adds_nothing(tmp_path):
    v, acc = _verdict(tmp_path, "E0212 10:00:00.000000 9 torch/distributed/elastic/multiprocessing/api.py:869] failed "
                      "(exitcode: 1) local_rank: 0 (pid: 20327) of binary: /env/bin/python\n"
                      + _COPY.replace("/4/", "/0/") + _AGENT_TB)
    assert v["culprits"] == [0] and acc == {0}, v


# --- mp.spawn's child cut at DDP's construction -----------------------------------------------------------------------
def _spawn(code: str) -> str:
    return ("Traceback (most recent call last):\n"
            '  File "/w/tools/run_net.py", line 42, in <module>\n'
            "    main()\n"
            '  File "/env/lib/python3.7/site-packages/torch/multiprocessing/spawn.py", line 118, in join\n'
            "    raise Exception(msg)\n"
            "Exception: \n\n"
            "-- Process 2 terminated with the following error:\n"
            "Traceback (most recent call last):\n"
            '  File "/env/lib/python3.7/site-packages/torch/multiprocessing/spawn.py", line 19, in _wrap\n'
            "    fn(i, *args)\n"
            '  File "/w/tools/train_net.py", line 382, in train\n'
            "    model = build_model(cfg)\n"
            '  File "/w/models/build.py", line 51, in build_model\n'
            f"    {code}")


def test_spawn_child_cut_at_ddp_construction_names_nobody(tmp_path):
    v, acc = _verdict(tmp_path, _spawn("module=model, device_ids=[cur_device], outp"))
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "DistributedDataParallel's constructor" in v["summary"] and "NCCL_DEBUG=INFO" in v["fix"], v


def test_spawn_child_cut_at_another_line_still_names_it(tmp_path):
    v, acc = _verdict(tmp_path, _spawn("model = model.cuda(device=cur_de"))
    assert v["culprits"] == [2] and acc == {2}, v
