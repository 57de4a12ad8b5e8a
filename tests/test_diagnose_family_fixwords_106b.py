"""Fix words for benign pastes and framework error summaries, shapes round 106 showed read with a fix an expert would
not give (session 43; rules A, K, L, N, T, CG (2)): the verdict stays as it was, the fix names the shape's remedy.

- Ranks' own prints of a tensor's values that differ between ranks, nothing failing (pytorch-76527): none, nobody;
  the fix says when ranks' buffers may rightly differ (reduce's non-dst ranks) and how to check an all_reduce. Prints
  that agree, or one rank's alone, get none of those words. (Only lines that hold a trigger word reach that reading --
  the case's through " Pid " --: "tensor([" is none, per review 96 (x1) finding 2.)
- A benchmark script's own timing table ("size(MB) tavg(usec) ... avgbw(GB/sec)", pytorch-communication-benchmarks-1):
  none, nobody; the fix compares it with nccl-tests all_reduce_perf. nccl-tests' own header gets none of those words.
- SageMaker's SMDDPError summary ("AlgorithmError: SMDDPError: ExitCode 134", sagemaker-training-toolkit-185):
  unknown, culprits unknown; the fix names every host's CloudWatch log and the mpirun rank that raised first. Another
  framework error of the same summary shape gets none of those words.
- TCPStore's connect/validate retry whose ping got an invalid value back (tensorrt-llm-10374): none, nobody; the fix
  names another process on the store's port and a free port. A retry on a refused connect keeps its old words (the
  store not up yet).
"""
from __future__ import annotations

from tests.conftest import verdict_accused as _verdict


# --- ranks' tensor prints ------------------------------------------------------------------------------------------
def test_ranks_printing_different_tensors_is_none_with_reduce_words(tmp_path):
    # (the lines reach the parser through " Pid "; "tensor([" is no trigger word, review 96 (x1) finding 2)
    v, acc = _verdict(tmp_path, "> Pid is  40211 , Rank  2 , output is:  tensor([[ 12,  3],\n"
                                ">         [ 8, 10]], device='cuda:2')\n"
                                "> Pid is  40377 , Rank  3 , output is:  tensor([[ 7,  1],\n"
                                ">         [ 8, 10]], device='cuda:3')\n")
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert "dist.reduce only gives the full result on dst" in v["fix"], v
    assert "nothing failing" in v["fix"], v


def test_ranks_printing_the_same_tensor_get_no_reduce_words(tmp_path):
    v, acc = _verdict(tmp_path, "rank 0 result tensor([4., 6., 8.], device='cuda:0')\n"
                                "rank 1 result tensor([4., 6., 8.], device='cuda:1')\n")
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert "dist.reduce" not in v["fix"], v


# --- a benchmark's own table ---------------------------------------------------------------------------------------
def test_benchmark_bandwidth_table_is_none_and_compared_with_nccl_tests(tmp_path):
    v, acc = _verdict(tmp_path, "torchrun --nproc_per_node 4 --nnodes 1 ./allreduce_bench.py\n\n"
                                "size(MB)   tavg(usec)    tmin(usec)    tmax(usec)  avgbw(GB/sec)  maxbw(GB/sec)\n"
                                "0.25      310.2          281.9          903.4          0.81           0.93\n"
                                "2.00      140.0          131.5          188.0         14.20          15.10\n")
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert "compare with nccl-tests all_reduce_perf" in v["fix"], v


def test_nccl_tests_header_gets_no_benchmark_table_words(tmp_path):
    v, acc = _verdict(tmp_path, "#       size         count      type   redop    root     time   algbw   busbw #wrong\n"
                                "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)\n"
                                "     1048576        262144     float     sum      -1    48.11   21.80   38.14"
                                "      0\n")
    assert "the benchmark script's own output" not in v["fix"], v


# --- SageMaker's SMDDPError summary --------------------------------------------------------------------------------
_SM = ("UnexpectedStatusException: Error for Training job llama-ft-2024-02-01-10-11-12-345: Failed. Reason: "
       "AlgorithmError: {err}:\nExitCode {code}\nErrorMessage \"raise exceptions.{err}('Error')\n"
       " {mod}.{err}: Error\n Traceback (most recent call last)\n"
       ' File "/opt/conda/lib/python3.10/runpy.py", line 196, in _run_module_as_main\n'
       " return _run_code(code, main_globals, None,\n")


def test_smddp_error_summary_names_cloudwatch_and_the_first_rank(tmp_path):
    v, acc = _verdict(tmp_path, _SM.format(err="SMDDPError", code=139,
                                           mod="smdistributed.dataparallel.exceptions"))
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "check CloudWatch logs of all hosts" in v["fix"], v
    assert "find which mpirun rank raised SMDDPError first" in v["fix"], v


def test_other_algorithm_error_summary_gets_no_smddp_words(tmp_path):
    v, acc = _verdict(tmp_path, _SM.format(err="FooLibError", code=134, mod="foolib.exceptions"))
    assert v["cause"] == "unknown" and not acc, v
    assert "SMDDP" not in v["fix"], v


# --- TCPStore ping answered by another server ----------------------------------------------------------------------
_RETRY = ("[W0105 03:11:42.118822311 TCPStore.cpp:340] [c10d] TCP client failed to connect/validate to host "
          "10.1.2.3:{port} - retrying (try={n}, timeout=900000ms, delay=512ms): {why}\n")


def test_store_ping_invalid_value_names_a_port_collision(tmp_path):
    v, acc = _verdict(tmp_path, _RETRY.format(port=41877, n=2, why="Ping failed, invalid value returned from "
                                              "server. Expected: 501223, Got: 16777216")
                      + "Exception raised from ping at /src/torch/csrc/distributed/c10d/TCPStore.cpp:427 (most "
                        "recent call first):\n")
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert "pick a free port for the store" in v["fix"].lower(), v
    assert "lsof -i :41877" in v["fix"], v


def test_store_retry_refused_keeps_its_store_not_up_words(tmp_path):
    v, acc = _verdict(tmp_path, _RETRY.format(port=41877, n=1, why="Connection refused"))
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert "was not up yet" in v["fix"] and "pick a free port" not in v["fix"].lower(), v
