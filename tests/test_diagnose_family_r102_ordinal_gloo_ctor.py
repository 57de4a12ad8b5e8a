"""Round 102's l2 shapes (session 40): two failures an expert reads as the job's set-up, not one process's fault.

- nccl-tests 1.x's own CUDA check failing on a device index ("Cuda failure common.cu:891 'invalid device ordinal'": its
  common.h printf, no host and no "Test" as newer nccl-tests print) where the same output shows nccl-tests' preamble
  ("nThread 1 nGpus 2 minBytes ..."), under mpirun's record of the first process to exit ("Process name:
  [[61045,1],1]"): nccl-tests picks every GPU itself from the process's local rank and its -g, so an index past the
  host's GPUs is the launch's placement (processes per host x -g more than its GPUs) -- config, culprits [], nobody
  innocent, whichever process mpirun names first (lead rules AU (2), Q, W; round 102's nccl-tests-1). NOT read so:
  the same printf (a common CUDACHECK idiom of other programs) under the same record with no nccl-tests preamble keeps
  its old reading, the recorded process's CUDA error (rule A).
- gloo's "Connection closed by peer" (or reset) raised right under a traceback's code line constructing the gloo group
  ("pg = c10d.ProcessGroupGloo(store, self.rank, self.world_size, self.opts())"), no frame under it: the C++
  constructor connects gloo's full mesh, so the pair closed while the group was being set up -- network_setup,
  culprits [], nobody innocent, the fix a barrier right after creating the group (lead rules L, O's set-up half,
  X (1); round 102's pytorch-pr61396). NOT read so: the same close raised under a collective's frame (rule U (4)), or
  under a Python frame below the constructor's line, keeps its early_exit reading.
"""

from __future__ import annotations

from tests.conftest import verdict_accused as _verdict

# --- nccl-tests 1.x's ordinal under mpirun's record ------------------------------------------------------------------
_MPIRUN_RECORD = (
    "-------------------------------------------------------\n"
    "Primary job  terminated normally, but 1 process returned\n"
    "a non-zero exit code.. Per user-direction, the job has been aborted.\n"
    "-------------------------------------------------------\n"
    "--------------------------------------------------------------------------\n"
    "mpirun detected that one or more processes exited with non-zero status, thus causing\n"
    "the job to be terminated. The first process to do so was:\n"
    "\n"
    "  Process name: [[{job},1],{rank}]\n"
    "  Exit code:    1\n"
    "--------------------------------------------------------------------------\n"
)


def _record(rank: int, job: int = 61045) -> str:
    return _MPIRUN_RECORD.format(rank=rank, job=job)


def test_nccl_tests_1x_ordinal_beside_its_preamble_is_the_launchs_placement_not_the_recorded_process(tmp_path):
    text = (
        "mpirun -np 4 -npernode 4 -hostfile hosts ./build/all_gather_perf -g 2 -b 8 -e 64M\n"
        "nThread 1 nGpus 2 minBytes 8 maxBytes 67108864 step: 1048576(bytes) warmup iters: 5 iters: 20 "
        "validation: 1 \n"
        "Cuda failure common.cu:873 'invalid device ordinal'\n"
        "Cuda failure common.cu:873 'invalid device ordinal'\n"
        + _record(3, 4411))
    v, acc = _verdict(tmp_path, text)
    assert v["cause"] == "config" and v["culprits"] == [] and not acc, v
    assert "-g 1" in v["fix"] and "npernode" in v["fix"], v["fix"]


def test_nccl_tests_1x_ordinal_before_its_preamble_under_mpiruns_tags_reads_the_same(tmp_path):
    # mpirun --tag-output: the failing process's line may come out before rank 0's preamble
    text = (
        "[1,1]<stdout>:Cuda failure common.cu:891 'invalid device ordinal'\n"
        "[1,0]<stdout>:nThread 1 nGpus 4 minBytes 33554432 maxBytes 33554432 step: 1048576(bytes) warmup iters: 5 "
        "iters: 20 validation: 0 \n"
        + _record(1, 20731))
    v, acc = _verdict(tmp_path, text)
    assert v["cause"] == "config" and v["culprits"] == [] and not acc, v
    assert "-g 4" in v["fix"], v["fix"]


def test_the_same_cuda_check_printf_with_no_nccl_tests_preamble_keeps_the_recorded_processs_cuda_error(tmp_path):
    # a user's MPI program with the same CUDACHECK macro: nothing says nccl-tests placed its GPUs
    text = ("mpirun -np 2 ./my_allreduce --iters 100\n"
            "Cuda failure my_allreduce.cu:57 'invalid device ordinal'\n" + _record(1, 5120))
    v, acc = _verdict(tmp_path, text)
    assert v["cause"] == "cuda_error" and v["culprits"] == [1], v


# --- gloo's pair closed inside ProcessGroupGloo's constructor -------------------------------------------------------
_GLOO_PAIR = "RuntimeError: [/opt/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:{line}] {what} [{peer}]:{port}\n"


def test_a_gloo_peer_gone_raised_by_processgroupgloos_constructor_is_connection_set_up(tmp_path):
    text = ('  File "test/distributed/test_c10d_gloo.py", line 912, in test_allgather_checks\n'
            "    pg = c10d.ProcessGroupGloo(store, self.rank, self.world_size, self.opts())\n"
            + _GLOO_PAIR.format(line=575, what="Connection closed by peer", peer="127.0.0.1", port=48211))
    v, acc = _verdict(tmp_path, text)
    assert v["cause"] == "network_setup" and v["culprits"] == [] and not acc, v
    assert "dist.barrier(group=pg)" in v["fix"] and "GLOO_SOCKET_IFNAME" in v["fix"], v["fix"]
    # a reset, another peer, a CI log's timestamps and a traceback header: the same reading
    text2 = ("Traceback (most recent call last):\n"
             '  File "/workspace/tests/test_groups.py", line 77, in _run\n'
             "    backend = ProcessGroupGloo(prefix_store, rank, world_size, timeout=timeout)\n"
             "Jan 11 10:02:03 "
             + _GLOO_PAIR.format(line=598, what="Connection reset by peer", peer="10.1.4.7", port=50113))
    v2, acc2 = _verdict(tmp_path, text2)
    assert v2["cause"] == "network_setup" and v2["culprits"] == [] and not acc2, v2
    assert v2["fix"].startswith("Set NCCL_SOCKET_IFNAME") and "dist.barrier(group=pg)" in v2["fix"], v2["fix"]


def test_a_gloo_peer_gone_under_a_collective_or_a_frame_below_the_constructor_keeps_early_exit(tmp_path):
    coll = ('  File "test/distributed/test_c10d_gloo.py", line 1040, in test_reduce_checks\n'
            "    pg.reduce([t1], opts).wait()\n"
            + _GLOO_PAIR.format(line=598, what="Connection closed by peer", peer="127.0.0.1", port=35521))
    v, acc = _verdict(tmp_path, coll)
    assert v["cause"] == "early_exit" and not acc, v
    below = ('  File "train.py", line 30, in main\n'
             "    pg = ProcessGroupGloo(store, rank, world_size)\n"
             '  File "train.py", line 12, in sync_all\n'
             "    dist.all_reduce(flag, group=pg)\n"
             + _GLOO_PAIR.format(line=598, what="Connection closed by peer", peer="127.0.0.1", port=40001))
    v2, acc2 = _verdict(tmp_path, below)
    assert v2["cause"] == "early_exit" and not acc2, v2
