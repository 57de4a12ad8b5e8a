"""How diagnose reads a check on the launch's shape, and one backend's own collective timeout (round 93, session 36).

- ProcessGroupXCCL's (torch-xpu-ops) blocking wait giving up on its work, "Work ran time out after N milliseconds."
  (round 93's torch-xpu-ops-2968): a collective this process waited in timed out, no SeqNum, world or rank tag shown
  -- some rank never joined it: rank_missing, nobody named (lead rules B, E, AI (4), AC (1)). Not read so: the same
  words in a line of any other wording (a work's own log of its duration) -- only "ran time out after N
  milliseconds".
- A distributed sampler's own `assert self.num_samples >= 1 ...` (Lightning's UnrepeatedDistributedSampler, round
  93's darts-1945): a replica was given no sample, the data set smaller than the processes launched -- the layout
  every rank shares: config, no rank (lead rules W, BU (1), AC (1)). Not read so: an `assert num_samples > 0` of any
  other code (a generation's argument) with neither the sampler's total_size nor a sampler's frame.

Each test reads the shape from lines other than the round's cases' own (other paths, sizes, programs), and a near shape
that must NOT be read that way. Paths, pids and programs are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict

# --- ProcessGroupXCCL's blocking wait timing out ---------------------------------------------------------------------
_HARNESS = ("E1107 08:02:45.118000 4121 site-packages/torch/testing/_internal/common_distributed.py:733] Caught "
            "exception:\n"
            "E1107 08:02:45.118000 4121 site-packages/torch/testing/_internal/common_distributed.py:733] Traceback "
            "(most recent call last):\n")


def test_xccl_work_ran_time_out_is_a_rank_that_never_joined(tmp_path):
    """Lead rules B, E, AI (4), AC (1) (round 93, torch-xpu-ops-2968): XCCL's blocking wait says its work ran time
    out, one process shown, no rank tag or world: some rank never entered the collective -- rank_missing, nobody
    accused, the fix looks for the rank that did not join (stacks of every rank)."""
    d = _report(tmp_path, "[E1107 08:02:44.991203311 ProcessGroupXCCL.cpp:240] Work ran time out after 5012 "
                          "milliseconds.\n" + _HARNESS)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("rank_missing", []) and not _accused(d), v
    assert "py-spy" in v["fix"] and "TORCH_DISTRIBUTED_DEBUG=DETAIL" in v["fix"], v


def test_a_work_that_ran_for_its_time_is_no_timeout(tmp_path):
    """The near shape: a line saying a work ran for some milliseconds without timing out is no collective timeout."""
    v = _verdict(tmp_path, "[I1107 08:02:44.991203311 ProcessGroupXCCL.cpp:240] Work ran for 5012 milliseconds.\n")
    assert v["cause"] != "rank_missing", v


# --- a distributed sampler's own check that every replica gets a sample ----------------------------------------------
_SAMPLER_TB = ('Traceback (most recent call last):\n  File "/work/forecast/predict.py", line 51, in <module>\n'
               "    preds = trainer.predict(model, loader)\n"
               '  File "/opt/venv/lib/python3.11/site-packages/lightning/pytorch/overrides/distributed.py", line 204, '
               "in __init__\n    {cond}\nAssertionError\n")


def test_a_samplers_num_samples_assert_is_a_dataset_smaller_than_the_world(tmp_path):
    """Lead rules W, BU (1), AC (1) (round 93, darts-1945): an untagged traceback ending in a distributed sampler's
    own assert that each replica holds a sample -- the set split over more processes than it has samples: config,
    no rank, the fix says predict on fewer devices or a larger set."""
    d = _report(tmp_path, _SAMPLER_TB.format(cond="assert self.num_samples >= 1 or self.total_size == 0"))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "devices=1" in v["fix"] and "smaller than the number of processes" in v["summary"], v


def test_a_num_samples_assert_of_other_code_is_not_the_sampler(tmp_path):
    """The near shape: a generation script's own `assert num_samples > 0` (its argument, no sampler's total_size, no
    sampler's frame) is not read as the data set split over the world."""
    text = ('Traceback (most recent call last):\n  File "/work/gen/sample.py", line 30, in generate\n'
            "    assert num_samples > 0\nAssertionError\n")
    v = _verdict(tmp_path, text)
    assert "sampler" not in v["summary"] and "devices=1" not in v["fix"], v


# --- torch's distributed test harness exiting on its own GPU-count guard ---------------------------------------------
_SKIP_TB = ("=========================== short test summary info ============================\n"
            "FAILED [0.0031s] distributed/test_c10d_gloo.py::ProcessGroupGlooTest::test_allreduce_basics - "
            "SystemExit: {code}\n"
            "!!!!!!!!!!!!!!!!!!!!!!!!!! stopping after 1 failures !!!!!!!!!!!!!!!!!!!!!!!!!!!\n"
            '  File "/usr/lib/python3.11/site-packages/torch/testing/_internal/common_distributed.py", line 201, in '
            "wrapper\n    sys.exit(TEST_SKIPS[{key}].exit_code)\nSystemExit: {code}\n")


def test_the_harness_gpu_count_guard_exit_is_the_runner_not_a_rank(tmp_path):
    """Lead rules Q, W, AU (2) (round 93, ci-infra-132): pytest reports a distributed test FAILED with SystemExit,
    raised by the harness's own guard sys.exit(TEST_SKIPS["multi-gpu-N"].exit_code) -- the runner has fewer GPUs
    than the test asks for, nothing distributed failed: config, no rank, the fix names a multi-GPU runner."""
    d = _report(tmp_path, _SKIP_TB.format(key='"multi-gpu-4"', code=80))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "multi-GPU runner" in v["fix"] and "skip_if_lt_x_gpu" in v["fix"], v


def test_another_harness_skip_key_is_not_the_gpu_count(tmp_path):
    """The near shape: the harness's exit on another skip key (a backend not built) is not read as a runner short of
    GPUs."""
    v = _verdict(tmp_path, _SKIP_TB.format(key='"backend_unavailable"', code=72))
    assert "multi-GPU runner" not in v["fix"], v


# --- two nodes' launch scripts exporting one RANK, then the bootstrap's wrong-sized messages -------------------------
def _exports(rank: int) -> str:
    return f"export MASTER_ADDR=10.8.0.5\nexport WORLD_SIZE=2\nexport MASTER_PORT=29511\nexport RANK={rank}\n"


_TRUNC = ("/opt/nvshmem/src/modules/bootstrap/uid/bootstrap_uid.cpp:bootstrap_net_recv:99: Message truncated : "
          "received 52 bytes instead of 8\n\n"
          "/opt/nvshmem/src/modules/bootstrap/uid/bootstrap_uid.cpp:499: non-zero status: -3 "
          "/opt/nvshmem/src/host/topo/topo.cpp:526: non-zero status: -3 allgather of ipc handles failed\n")


def test_two_nodes_exporting_one_rank_before_a_truncated_bootstrap_is_the_launch(tmp_path):
    """Lead rules AA (1), V (1), AJ (1) (round 93, deepep-121): both nodes' scripts export RANK=0 with WORLD_SIZE=2
    and one MASTER_ADDR, then the unique-id bootstrap receives messages of the wrong size -- two processes
    connecting as one rank, not a version mismatch: config, no rank, the fix gives the second node RANK=1."""
    d = _report(tmp_path, "# node A\n" + _exports(0) + "# node B\n" + _exports(0)
                + "python bench/test_ll.py\nAllocating buffer size: 1024.5 MB ...\n" + _TRUNC)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "RANK=1 on the second node" in v["fix"] and "Message truncated" in v["summary"], v


def test_two_nodes_with_distinct_ranks_keep_the_bootstrap_reading(tmp_path):
    """The near shape: the nodes' scripts export RANK=0 and RANK=1 -- launched consistently -- so the truncated
    bootstrap keeps its own reading (NCCL's / NVSHMEM's set-up exchange, nccl_internal), not the launch."""
    v = _verdict(tmp_path, "# node A\n" + _exports(0) + "# node B\n" + _exports(1)
                 + "python bench/test_ll.py\n" + _TRUNC)
    assert v["cause"] == "nccl_internal", v
