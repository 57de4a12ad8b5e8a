"""Consistency across nodes: the minority is named by host and address."""

from __future__ import annotations

from ncclDoctor.analysis.consistency import check_consistency


def inv(addr, host="node", nccl_hca="mlx5_0", **extra):
    env = {"NCCL_DEBUG": "WARN"}
    if nccl_hca is not None:
        env["NCCL_IB_HCA"] = nccl_hca
    base = {"host": host, "addr": addr, "torch": "2.13.0", "cuda": "12.8", "nccl": "2.27.3", "driver": "570.86",
            "device_name": "NVIDIA H100 80GB HBM3", "iface": "ib0", "dev_shm_bytes": 64 << 30,
            "ulimit_memlock": "unlimited", "env": env}
    base.update(extra)
    return base


def test_identical_nodes_give_no_findings():
    assert check_consistency([inv(f"10.0.0.{i}", rank=i) for i in range(1, 5)]) == []


def test_the_odd_node_is_named_by_address_and_host():
    invs = [inv(f"10.0.0.{i}", host=f"node-{i}") for i in range(1, 9)]
    invs[3] = inv("10.0.0.4", host="node-3", nccl_hca="mlx5_1")
    [f] = check_consistency(invs)
    assert f.code == "CON001"
    assert f.message == "10.0.0.4 (node-3) sets NCCL_IB_HCA=mlx5_1; 7 other nodes set NCCL_IB_HCA=mlx5_0."
    assert f.nodes == ["10.0.0.4 (node-3)"]


def test_nodes_sharing_a_host_name_are_told_apart_by_address():
    invs = [inv("10.77.0.1", host="vm"), inv("10.77.0.2", host="vm"), inv("10.77.0.3", host="vm", nccl_hca=None)]
    [f] = check_consistency(invs)
    assert f.nodes == ["10.77.0.3 (vm)"]
    assert "does not set NCCL_IB_HCA" in f.message and "2 other nodes set NCCL_IB_HCA=mlx5_0" in f.message


def test_every_rank_counts_but_a_node_is_named_once():
    invs = [inv("10.0.0.1", rank=0), inv("10.0.0.1", rank=1), inv("10.0.0.2", rank=2, nccl="2.21.5"),
            inv("10.0.0.2", rank=3, nccl="2.21.5"), inv("10.0.0.3", rank=4)]
    [f] = check_consistency(invs)
    assert f.code == "CON002" and f.nodes == ["10.0.0.2 (node)"]
    assert "has NCCL 2.21.5" in f.message and "2 other nodes have NCCL 2.27.3" in f.message


def test_two_nodes_that_disagree_are_both_named():
    [f] = check_consistency([inv("10.0.0.1", device_name="NVIDIA A100-SXM4-80GB"), inv("10.0.0.2")])
    assert f.code == "CON003" and f.message.startswith("No majority")
    assert f.nodes == ["10.0.0.1 (node)", "10.0.0.2 (node)"]


def test_interface_and_limits_are_compared():
    invs = [inv("10.0.0.1"), inv("10.0.0.2"),
            inv("10.0.0.3", iface="eth0", dev_shm_bytes=64 << 20, ulimit_memlock=65536)]
    found = check_consistency(invs)
    assert sorted(f.code for f in found) == ["CON004", "CON005", "CON005"]
    assert all(f.nodes == ["10.0.0.3 (node)"] for f in found), [(f.code, f.nodes) for f in found]


def test_one_node_is_not_compared_with_itself():
    assert check_consistency([inv("10.0.0.1", rank=0), inv("10.0.0.1", rank=1, nccl_hca="x")]) == []
