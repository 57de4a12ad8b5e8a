"""torch.multiprocessing.spawn's records in round 78.

icefall-1390: the parent's ProcessExitedException cut right after "process 1 terminated with". spawn raises that
exception only for a child that exited with a nonzero code or a signal (a Python exception in the child is
ProcessRaisedException, "-- Process N terminated with the following error:"), so the record names child 1 dying on
its own: lead rules A, AL (2) -- rank 1 on one machine, cause unknown. It was read as an unknown failure naming
nobody. Near shapes: the same line with its exit code keeps its reading; ProcessRaisedException's "-- Process 1
terminated with" cut is not read so (that child raised, it may be a victim).

video_analyst-92: spawn's "-- Process 2 terminated with the following error:" over that child's own
ncclUnhandledCudaError ("unhandled cuda error") in its first collective (dist.barrier, where old ProcessGroupNCCL
creates its communicator), no transport set-up file named: that child's device failed -- rule AM (3) names it, rule
AL (2) reads spawn's index on one machine as its rank. It was read as a CUDA error of a rank the lines do not name.
Near shapes: a child's NCCL error that a victim meets (a remote peer gone) names no one.

torchmd-net-324: Lightning's subprocess launcher's observer, in the main process, "[rank: 1] Child process with PID P
terminated with code 1. Forcefully terminating all other processes to avoid zombies" -- rank=(i + 1) of the i-th
child it started, the child's local rank -- under that process's "RuntimeError: Pin memory thread exited
unexpectedly": rank 1 failed first on its own exception (lead rules A, I); the pin-memory thread's death states no
cause (rule BL (2)), the fix names the loader's knobs. The line was not read at all before.
"""
from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report

_TB = ("Traceback (most recent call last):\n"
       '  File "train.py", line 1380, in main\n'
       "    mp.spawn(run, args=(world_size, args), nprocs=world_size, join=True)\n"
       '  File "/opt/conda/lib/python3.10/site-packages/torch/multiprocessing/spawn.py", line 145, in join\n'
       "    raise ProcessExitedException(\n")


def test_a_process_exited_record_cut_before_its_code_names_that_child(tmp_path):
    d = _report(tmp_path, _TB + "torch.multiprocessing.spawn.ProcessExitedException: process 1 terminated with\n")
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", [1]), v
    assert "ProcessExitedException" in v["summary"] and "dmesg" in v["fix"], v


def test_a_whole_record_or_a_raised_childs_cut_record_is_not_read_so(tmp_path):
    whole = _report(tmp_path, _TB + "torch.multiprocessing.spawn.ProcessExitedException: process 1 terminated with "
                    "signal SIGKILL\n")["verdict"]
    assert (whole["cause"], whole["culprits"]) == ("host_oom", [1]), whole
    raised = _report(tmp_path, _TB.replace("ProcessExitedException(", "ProcessRaisedException(msg, error_index, "
                                           "failed_process.pid)") + "torch.multiprocessing.spawn.ProcessRaised"
                     "Exception:\n\n-- Process 1 terminated with\n")
    assert "ProcessExitedException" not in raised["verdict"]["summary"] and not _accused(raised), raised["verdict"]


_CHILD = ("Traceback (most recent call last):\n"
          '  File "dist_train.py", line 211, in <module>\n'
          "    join=True)\n"
          '  File "/env/lib/python3.6/site-packages/torch/multiprocessing/spawn.py", line 118, in join\n'
          "    raise Exception(msg)\n"
          "Exception:\n\n"
          "-- Process 2 terminated with the following error:\n"
          "Traceback (most recent call last):\n"
          '  File "/env/lib/python3.6/site-packages/torch/multiprocessing/spawn.py", line 19, in _wrap\n'
          "    fn(i, *args)\n"
          '  File "/env/lib/python3.6/site-packages/torch/distributed/distributed_c10d.py", line 1489, in barrier\n'
          "    work = _default_pg.barrier()\n")


def test_a_spawned_childs_own_unhandled_cuda_error_names_that_child(tmp_path):
    v = _report(tmp_path, _CHILD + "RuntimeError: NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:410, "
                "unhandled cuda error, NCCL version 2.4.8\n")["verdict"]
    assert (v["cause"], v["culprits"]) == ("cuda_error", [2]), v


def test_a_spawned_childs_nccl_error_of_a_lost_peer_names_no_one(tmp_path):
    d = _report(tmp_path, _CHILD + "RuntimeError: NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:410, "
                "remote process exited or there was a network error, NCCL version 2.10.3\n")
    assert 2 not in _accused(d), d["verdict"]


_PIN = ('  File "/env/lib/python3.11/site-packages/torch/utils/data/dataloader.py", line 1289, in _get_data\n'
        "    raise RuntimeError('Pin memory thread exited unexpectedly')\n"
        "RuntimeError: Pin memory thread exited unexpectedly\n")
_OBSERVER = ("[rank: {r}] Child process with PID 224779 terminated with code {code}. Forcefully terminating all other "
             "processes to avoid zombies :zombie:\n")


def test_lightnings_observer_record_names_its_child_and_pin_memory_gets_its_fix(tmp_path):
    v = _report(tmp_path, _PIN + _OBSERVER.format(r=1, code=1))["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", [1]), v
    assert "pin_memory=False" in v["fix"] and "ulimit -n" in v["fix"], v


def test_lightnings_observer_record_of_a_kill_reads_by_its_code(tmp_path):
    v = _report(tmp_path, _OBSERVER.format(r=3, code=-9))["verdict"]
    assert (v["cause"], v["culprits"]) == ("host_oom", [3]), v
