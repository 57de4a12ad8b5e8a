"""Fixtures that fire the rules no other test fired (the registry test in
test_rules_registry.py requires a firing test for every code). Each asserts the code,
its severity and where it points: the node for host rules, the ranks for log rules."""

from __future__ import annotations

from pathlib import Path

from ncclDoctor.analysis import structure
from ncclDoctor.diagnose import diagnose
from ncclDoctor.rules.system import check_host
from ncclDoctor.sweep import checks

FIX = Path(__file__).parent / "fixtures" / "rules"
WHERE = "10.0.0.7 (gpu-node-7)"
GIB, MIB = 1 << 30, 1 << 20

# facts.host's shape (collect_host_facts) for a container with Docker's default /dev/shm,
# a low memlock limit, 2 usable cores and a torch that sees 4 GPUs.
HOST = {
    "dev_shm": {"total_bytes": 64 * MIB, "free_bytes": 60 * MIB},
    "ulimit_memlock": {"soft": 65536, "hard": 65536},
    "cpu_affinity": [0, 1],
    "cpu_count": 2,
    "torch": {"version": "2.13.0", "cuda_available": True, "cuda_device_count": 4},
}


def _by_code(findings):
    return {f.code: f for f in findings}


def test_small_dev_shm_and_memlock_fire_on_an_nccl_node():
    got = _by_code(check_host(HOST, "nccl", 4, WHERE))
    assert set(got) == {"SYS001", "SYS002"}
    assert got["SYS001"].nodes == [WHERE] and "64 MiB" in got["SYS001"].message
    assert got["SYS002"].nodes == [WHERE] and "65536 bytes" in got["SYS002"].message
    assert got["SYS001"].severity.value == got["SYS002"].severity.value == "warning"


def test_more_gloo_ranks_than_cores_is_oversubscribed():
    got = _by_code(check_host({**HOST, "dev_shm": {"total_bytes": 8 * GIB}}, "gloo", 3, WHERE))
    assert set(got) == {"SYS003"}
    assert got["SYS003"].nodes == [WHERE] and "3 ranks on 2 usable CPU core(s)" in got["SYS003"].message


def test_more_nccl_ranks_than_visible_gpus():
    host = {**HOST, "dev_shm": {"total_bytes": 8 * GIB}, "ulimit_memlock": {"soft": "unlimited"}}
    got = _by_code(check_host(host, "nccl", 8, WHERE))
    assert set(got) == {"SYS005"}
    assert got["SYS005"].nodes == [WHERE] and "8 ranks per node but 4 visible GPU(s)" in got["SYS005"].message
    assert got["SYS005"].severity.value == "error"


def test_loader_workers_oversubscribe_the_cores():
    [f] = checks.check_cpu(HOST, num_workers=2, nproc=2, where=WHERE)
    assert f.code == "DL005" and f.nodes == [WHERE]
    assert "2 ranks x (2 workers + 1 main process) = 6 processes on 2 usable cores" in f.message
    assert checks.check_cpu(HOST, num_workers=0, nproc=2, where=WHERE) == []


def test_batches_in_flight_do_not_fit_dev_shm():
    [f] = checks.check_shm(HOST, num_workers=4, prefetch_factor=2, nproc=2, batch_bytes=4 * MIB, where=WHERE)
    assert f.code == "DL006" and f.nodes == [WHERE]
    assert f.evidence[0]["in_flight_bytes"] == 2 * 4 * 2 * 4 * MIB and f.evidence[0]["shm_free_bytes"] == 60 * MIB
    assert checks.check_shm(HOST, num_workers=1, prefetch_factor=2, nproc=1, batch_bytes=MIB, where=WHERE) == []


def _ring(n: int, slow: list[tuple[int, int]]):
    """A p2p ring of n nodes at 1 GB/s with the given pairs at 10 MB/s, in check's structure shape."""
    bw = {tuple(sorted((i, (i + 1) % n))): (0.01 if tuple(sorted((i, (i + 1) % n))) in slow else 1.0) for i in range(n)}
    res = {node: {"node_rank": node, "nnodes": n, "nproc_per_node": 1} for node in range(n)}
    res[0]["p2p"] = {
        "pairs": [{"pair": list(p), "gbps": g, "round": 0, "ring": True} for p, g in bw.items()],
        "rounds": [[]],
        "wrong": 0,
    }
    return res


def test_a_node_slow_only_with_other_slow_nodes_is_unresolved():
    # nodes 1, 2, 3 slow side by side: 1 and 3 meet a good node in the ring, 2 meets only suspects
    results, findings = structure.analyse(_ring(8, [(0, 1), (1, 2), (2, 3), (3, 4)]), lambda i: f"n{i}")
    got = _by_code(findings)
    assert got["BW203"].nodes == ["n2"] and got["BW203"].severity.value in ("warning", "error")
    assert sorted(f.nodes[0] for f in findings if f.code == "BW201") == ["n1", "n3"]
    assert results["p2p"]["slow_nodes"] == ["n1", "n3"]


def test_plain_nccl_warn_and_ranks_without_logs():
    report = diagnose([str(FIX / "nccl_warn_missing_ranks")])
    got = _by_code(report.findings)
    assert got["LOG021"].ranks == [0, 1] and "NCCL WARN" in got["LOG021"].message
    assert got["LOG032"].ranks == [2, 3] and "world size 4" in got["LOG032"].message
