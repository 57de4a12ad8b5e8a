"""Fix words for four shapes of round 106 (session 43, fixer w1) whose verdict was already right: torch elastic's
record of a function run in child processes (accelerate's notebook_launcher) cut at spawn's header, nccl-tests'
generic 'Test failure common.cu:N' under mpirun's record, torch's MultiProcessTestCase harness line 'Process N
terminated or timed out after S seconds', and Azure NHC's failed NCCL bandwidth check. Each test reads the shape
from lines other than the corpus case's own (other ranks, pids, numbers, hosts, functions), and a near shape that
keeps its old reading. Format strings are torch's, nccl-tests', Open MPI's and azurehpc-health-checks' (sources beside
each test); hosts, pids and paths are made up."""

from __future__ import annotations

from tests.conftest import verdict_accused

# --- torch elastic's record of a function run in child processes (accelerate's notebook_launcher) -------------------
# torch/distributed/elastic/multiprocessing/api.py: logger.error("failed (exitcode: %s) local_rank: %s (pid: %s) of
# %s", ...) with "fn: NAME (start_method: M)" for a function; torch/multiprocessing/spawn.py: "-- Process %d terminated
# with the following error:\n"
_API = "E0412 09:30:11.500000 77 torch/distributed/elastic/multiprocessing/api.py:732] "


def _elastic_fn(local_rank: int, pid: int, fn: str, method: str) -> str:
    lines = [f"failed (exitcode: 1) local_rank: {local_rank} (pid: {pid}) of fn: {fn} (start_method: {method})",
             "Traceback (most recent call last):",
             '  File "/opt/conda/lib/python3.10/site-packages/torch/distributed/elastic/multiprocessing/api.py", '
             "line 687, in _poll",
             "    self._pc.join(-1)",
             '  File "/opt/conda/lib/python3.10/site-packages/torch/multiprocessing/spawn.py", line 215, in join',
             "    raise ProcessRaisedException(msg, error_index, failed_process.pid)",
             "torch.multiprocessing.spawn.ProcessRaisedException: ",
             "",
             f"-- Process {local_rank} terminated with the following error:"]
    return "".join(_API + x + "\n" for x in lines)


def test_elastic_record_of_a_function_cut_at_spawns_header_asks_for_that_process_traceback(tmp_path):
    """Lead rules A, BG (6): the record names local rank 1, of a function run in forked children; the child's
    exception, printed under spawn's header, is cut: rank 1 named, cause unknown, and the fix asks for process 1's own
    traceback, running the function on one process, and (fork) not initializing CUDA before the launcher forks."""
    v, acc = verdict_accused(tmp_path, _elastic_fn(1, 5150, "training_loop", "fork"))
    assert (v["cause"], acc) == ("unknown", {1}), v
    assert "check process 1's own traceback" in v["fix"], v["fix"]
    assert "run the training_loop function on one process" in v["fix"], v["fix"]
    assert "do not initialize CUDA in the notebook before notebook_launcher forks" in v["fix"], v["fix"]


def test_elastic_record_of_a_spawned_function_does_not_name_fork(tmp_path):
    """The same record under start_method spawn: the fork advice is not given, the rest is."""
    v, acc = verdict_accused(tmp_path, _elastic_fn(0, 812, "main_worker", "spawn"))
    assert (v["cause"], acc) == ("unknown", {0}), v
    assert "check process 0's own traceback" in v["fix"] and "notebook_launcher forks" not in v["fix"], v["fix"]


def test_elastic_record_of_a_binary_keeps_the_scripts_fix(tmp_path):
    """The near shape: torchrun's record 'of binary: python' is a script's worker, whose traceback stands above the
    record: its old fix (@record, TORCHELASTIC_ERROR_FILE), no words of a function run in children."""
    text = (_API + "failed (exitcode: 1) local_rank: 1 (pid: 5150) of binary: /opt/conda/bin/python3\n")
    v, acc = verdict_accused(tmp_path, text)
    assert (v["cause"], acc) == ("unknown", {1}), v
    assert "TORCHELASTIC_ERROR_FILE" in v["fix"] and "of fn" not in v["fix"], v["fix"]
    assert "own traceback" in v["fix"] and "terminated with the following error" not in v["fix"], v["fix"]


# --- nccl-tests' generic result check under mpirun's record ------------------------------------------------------
# nccl-tests src/common.cu: printf(" .. %s pid %d: Test failure %s:%d\n", hostname, getpid(), __FILE__, __LINE__);
# Open MPI's help-mpirun.txt "mpirun detected that one or more processes exited with non-zero status"
def _mpirun_record(proc: int, code: int) -> str:
    return ("--------------------------------------------------------------------------\n"
            "Primary job  terminated normally, but 1 process returned\n"
            "a non-zero exit code. Per user-direction, the job has been aborted.\n"
            "--------------------------------------------------------------------------\n"
            "--------------------------------------------------------------------------\n"
            "mpirun detected that one or more processes exited with non-zero status, thus causing\n"
            "the job to be terminated. The first process to do so was:\n\n"
            f"  Process name: [[41877,1],{proc}]\n"
            f"  Exit code:    {code}\n"
            "--------------------------------------------------------------------------\n")


def test_nccl_tests_generic_failure_under_mpirun_asks_for_the_first_nccl_error(tmp_path):
    """Lead rules A, I, CG (1): nccl-tests' generic 'Test failure common.cu:N', a net plugin's WARN while the proxy
    unwinds, and mpirun's record of MPI rank 5: rank 5 named, cause unknown, and the fix asks for the first 'Test NCCL
    failure' / NCCL WARN line and the plugin / NCCL versions."""
    text = (" .. p5-node-07 pid 21409: Test failure common.cu:412\n\n"
            "p5-node-07:21409:21433 [5] nccl_net_ofi_closeSend:816 NCCL WARN NET/OFI Invalid communicator object "
            "provided\n"
            "p5-node-07:21409:21433 [5] NCCL INFO proxy.cc:1005 -> 3\n" + _mpirun_record(5, 2))
    v, acc = verdict_accused(tmp_path, text)
    assert (v["cause"], acc) == ("unknown", {5}), v
    assert "read the first 'Test NCCL failure' / NCCL WARN line before the teardown" in v["fix"], v["fix"]
    assert "match NCCL and aws-ofi-nccl (net plugin) versions" in v["fix"], v["fix"]


def test_mpirun_record_without_nccl_tests_line_keeps_its_fix(tmp_path):
    """The near shape: mpirun's record alone (no nccl-tests line): the old fix, no nccl-tests words."""
    v, acc = verdict_accused(tmp_path, _mpirun_record(5, 2))
    assert (v["cause"], acc) == ("unknown", {5}), v
    assert "Test NCCL failure" not in v["fix"] and "--tag-output" in v["fix"], v["fix"]


# --- torch's MultiProcessTestCase harness -----------------------------------------------------------------------
# torch/testing/_internal/common_distributed.py _check_return_codes: raise RuntimeError('Process {} terminated or
# timed out after {} seconds'.format(i, elapsed_time))
def _harness(proc: int, secs: str, stamp: str) -> str:
    lines = ["======================================================================",
             "ERROR: test_allgather_coalesced_nccl (__main__.ProcessGroupNCCLTest)",
             "----------------------------------------------------------------------",
             "Traceback (most recent call last):",
             '  File "/opt/torch/testing/_internal/common_distributed.py", line 181, in wrapper',
             "    self._join_processes(fn)",
             '  File "/opt/torch/testing/_internal/common_distributed.py", line 281, in _check_return_codes',
             "    raise RuntimeError('Process {} terminated or timed out after {} seconds'.format(i, elapsed_time))",
             f"RuntimeError: Process {proc} terminated or timed out after {secs} seconds"]
    return "".join(stamp + x + "\n" for x in lines)


def test_multiprocess_test_harness_timeout_asks_for_the_stacks(tmp_path):
    """Lead rule BA (1): the harness's line names no exit code, signal or collective: nobody, cause unknown; the fix
    asks for the children's stacks at the timeout and their own output -- with or without a CI timestamp."""
    for stamp in ("", "11:40:07 "):
        v, acc = verdict_accused(tmp_path, _harness(3, "61.5021", stamp))
        assert (v["cause"], v["culprits"], acc) == ("unknown", [], set()), v
        assert "get the processes' stack traces (py-spy dump) at the timeout" in v["fix"], v["fix"]
        assert "increase the test timeout if the machine is slow" in v["fix"], v["fix"]


def test_other_test_error_keeps_its_fix(tmp_path):
    """The near shape: the same test harness failing on another RuntimeError: no harness-timeout words."""
    text = _harness(3, "61.5", "").replace("RuntimeError: Process 3 terminated or timed out after 61.5 seconds",
                                           "RuntimeError: Expected all tensors to be on the same device")
    text = text.replace("    raise RuntimeError('Process {} terminated or timed out after {} seconds'"
                        ".format(i, elapsed_time))\n", "")
    v, _ = verdict_accused(tmp_path, text)
    assert "py-spy dump" not in v["fix"] and "test timeout" not in v["fix"], v["fix"]


# --- Azure NHC's failed NCCL bandwidth check --------------------------------------------------------------------
# azurehpc-health-checks customTests/azure_nccl_allreduce*.nhc: die 1 "$FUNCNAME: NCCL allreduce, BUS BW (expected
# >=$EXP GB/s, but measured $avg GB/s)" under NHC's "ERROR:  nhc:  Health check failed:  " with its FaultCode
def test_nhc_nccl_bandwidth_check_failed_names_the_nvlink_checks(tmp_path):
    """Lead rules S, CG (3): the checker's own failure verdict on a measured bus bandwidth: cause unknown, nobody,
    and the fix names the NVLink / topology checks and the fault code to drain the node."""
    text = ("ERROR:  nhc:  Health check failed:  check_nccl_allreduce_ib_loopback: NCCL allreduce, BUS BW (expected "
            ">=180.0 GB/s, but measured 2.37 GB/s). FaultCode: NHC2009\n")
    v, acc = verdict_accused(tmp_path, text)
    assert (v["cause"], v["culprits"], acc) == ("unknown", [], set()), v
    assert "NCCL_DEBUG_SUBSYS=INIT,GRAPH" in v["fix"] and "run per GPU pair / subset" in v["fix"], v["fix"]
    assert "drain / reset / reboot the node (NHC2009)" in v["fix"], v["fix"]


def test_nhc_other_check_failed_keeps_its_fix(tmp_path):
    """The near shape: NHC failing a check that is no NCCL bandwidth (a GPU count): no bandwidth words."""
    text = ("ERROR:  nhc:  Health check failed:  check_gpu_count: Expected 8 GPUs, but found 7. FaultCode: "
            "NHC2009\n")
    v, acc = verdict_accused(tmp_path, text)
    assert not acc and "NCCL_DEBUG_SUBSYS" not in v["fix"] and "NVLink" not in v["fix"], v
