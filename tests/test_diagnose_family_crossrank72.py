"""Ranks that stand at different points of the job, read from the lines (round 72 showed each): a rank waiting in the
store for the ncclUniqueId of a new communicator from a rank that is itself shown timing out inside a collective of
its own (the two sides issued different collectives: desync, nobody named, lead rules G and D); torch's cross-rank
check of a ShardedTensor's metadata finding two ranks' global sizes differ (desync, nobody named: rules AH (1), D, as
round 72's adjudication of torchrec-1591 reads it). And, by the same round, a store read's poolFD line printed by Ray
Train's workers (their actor prefix, no rank tag): processes of the job already connected, rule AR's rank_missing with
nobody named, not the launcher's rendezvous. Hosts, ranks and values are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report


def _uid_wait(rank: int, root: int, key: str, error: str = "Socket Timeout") -> str:
    return (f"RuntimeError: [{rank}] is setting up NCCL communicator and retrieving ncclUniqueId from [{root}] via "
            f"c10d key-value store by key '{key}', but store->get('{key}') got error: {error}\n")


def _timeout(rank: int, seq: int, op: str = "ALLREDUCE") -> str:
    return (f"[E ProcessGroupNCCL.cpp:474] [Rank {rank}] Watchdog caught collective operation timeout: "
            f"WorkNCCL(SeqNum={seq}, OpType={op}, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for 1800241 "
            "milliseconds before timing out.\n")


def test_the_unique_id_root_timing_out_inside_its_own_collective_is_a_desync(tmp_path):
    """diffae-71's shape with other numbers: rank 2 waits for rank 0's unique id under a later key while rank 0's
    watchdog shows it inside all-reduce #517: rank 0 reached collectives, so not rule G's rank that never arrived;
    each side waits for the other: desync, nobody named or proven innocent."""
    for key in ("1", "0"):
        d = _report(tmp_path, _uid_wait(2, 0, key) + _timeout(0, 517))
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("desync", []) and not _accused(d), (key, v)
        assert "same order" in v["fix"] and "TORCH_DISTRIBUTED_DEBUG=DETAIL" in v["fix"], v


def test_a_unique_id_wait_with_no_timeout_of_the_root_stays_rule_g(tmp_path):
    """The near shapes: the wait alone, or beside a timeout of the waiting rank itself (not the root), is still
    rule G's root that never reached its first collective; a closed store stays the store host gone."""
    for text in (_uid_wait(2, 0, "1"), _uid_wait(2, 0, "1") + _timeout(2, 517)):
        v = _report(tmp_path, text)["verdict"]
        assert (v["cause"], v["culprits"]) == ("rank_missing", [0]), (text, v)
    v = _report(tmp_path, _uid_wait(2, 0, "1", "Connection reset by peer") + _timeout(0, 517))["verdict"]
    assert v["cause"] != "desync", v


def _meta(prop: str, a: str, b: str, ra: int = 0, rb: int = 1) -> str:
    return (f"ValueError: ShardedTensor {prop} property does not match from different ranks! Found {prop}={a} on "
            f"rank:{ra}, and {prop}={b} on rank:{rb}.\n")


_SPAWN_TB = ('Traceback (most recent call last):\n  File "shard_demo.py", line 88, in <module>\n    run(4)\n'
             '  File "shard_demo.py", line 80, in run\n    assert p.exitcode == 0\nAssertionError\n')


def test_sharded_tensor_ranks_disagreeing_on_global_size_are_a_desync(tmp_path):
    """torchrec-1591's shape with other sizes and ranks: every process raises the same cross-rank check, then the
    parent's exit-code assert: the ranks handed one all-gathered metadata different sizes: desync, nobody named, nobody
    innocent (two ranks named, no majority); the fix names the sharding plan and the table sizes."""
    line = _meta("global_size", "torch.Size([1026, 64])", "torch.Size([1024, 64])", 0, 2)
    for text in (line * 3 + _SPAWN_TB, _meta("dtype", "torch.float32", "torch.float16")):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("desync", []) and not _accused(d), (text, v)
        assert "same global_size on every rank" in v["fix"] and "sharding plan" in v["fix"], v


def test_sharded_tensor_local_shard_check_is_not_read_as_ranks_disagreeing(tmp_path):
    """The near shape: its check of one rank's own local shards ("Local shards' tensor size property need to be the
    same on rank:0!") compares no other rank -- not a cross-rank disagreement."""
    text = ("ValueError: Local shards' tensor dtype property need to be the same on rank:0! Found one local shard "
            "tensor dtype=torch.float32, the other local shard tensor dtype=torch.float16.\n" + _SPAWN_TB)
    v = _report(tmp_path, text)["verdict"]
    assert v["cause"] != "desync", v


_POOLFD = "[W socket.cpp:432] [c10d] While waitForInput, poolFD failed with (errno: 0 - Success).\n"
_TRIAL = ("2025-02-01 09:40:30,679\tERROR tune_controller.py:1331 -- Trial task failed for trial "
          "TorchTrainer_0ab12_00000\n")


def test_ray_train_workers_store_reads_are_the_jobs_processes_waiting(tmp_path):
    """ray-45825's shape with other hosts: two RayTrainWorker actors (one remote) print c10d's poolFD line, glued on
    one line or each on its own, then the trial fails: rule AR's connected read, rank_missing, nobody named."""
    for text in (f"(RayTrainWorker pid=4121, ip=10.2.0.7) {_POOLFD.strip()} (RayTrainWorker pid=811) {_POOLFD}"
                 + _TRIAL,
                 f"(RayTrainWorker pid=4121, ip=10.2.0.7) {_POOLFD}(RayTrainWorker pid=811) {_POOLFD}" + _TRIAL):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("rank_missing", []) and not _accused(d), (text, v)
        assert "py-spy dump" in v["fix"] and "MASTER_ADDR" in v["fix"], v


def test_a_poolfd_line_with_its_header_and_no_actor_or_rank_stays_the_rendezvous(tmp_path):
    """The near shapes: the same line with its header but no rank tag and no actor prefix is still a process with no
    rank yet (the rendezvous), and a Ray worker whose store connection fails is the store unreachable: both
    store_rendezvous."""
    for text in (_POOLFD + _TRIAL, "(RayTrainWorker pid=811) [W socket.cpp:663] [c10d] The client socket has failed "
                 "to connect to [10.2.0.7]:29500 (errno: 110 - Connection timed out).\n" + _TRIAL):
        v = _report(tmp_path, text)["verdict"]
        assert v["cause"] == "store_rendezvous", (text, v)
