"""Multi-node pieces that need no processes: rendezvous options, structure findings, rendering."""

from __future__ import annotations

import pytest

from ncclDoctor.analysis import structure
from ncclDoctor.errors import UsageError
from ncclDoctor.launch import multinode
from ncclDoctor.launch.torchrun import LaunchSpec, torchrun_argv
from ncclDoctor.report.structure import structure_lines


def test_single_node_needs_no_rendezvous():
    assert multinode.resolve(None, None, None, None, {}) is None
    assert multinode.resolve(1, "x:1", None, None, {}) is None


def test_several_nodes_need_an_endpoint():
    with pytest.raises(UsageError, match="needs --rdzv-endpoint"):
        multinode.resolve(2, None, None, None, {})


@pytest.mark.parametrize("bad", ["node01", "node01:", ":29500", "node01:http", "node01:70000"])
def test_bad_endpoints_are_usage_errors(bad):
    with pytest.raises(UsageError, match="bad --rdzv-endpoint"):
        multinode.resolve(2, bad, None, None, {})


def test_slurm_fills_nodes_endpoint_and_id():
    env = {"SLURM_JOB_ID": "77", "SLURM_NNODES": "3", "SLURM_JOB_NODELIST": "gpu[3-5]"}
    rd = multinode.resolve(None, None, None, "10.1.1.4", env)
    assert (rd.nnodes, rd.endpoint, rd.rdzv_id, rd.local_addr) == (3, "gpu3:29500", "slurm-77", "10.1.1.4")
    assert rd.control_port == 29501 and not rd.candidate_host
    # the command line wins over the allocation
    rd = multinode.resolve(2, "10.0.0.9:1234", "mine", "10.0.0.2", env)
    assert (rd.nnodes, rd.endpoint, rd.rdzv_id) == (2, "10.0.0.9:1234", "mine")


def test_localhost_mode_gives_the_endpoint_to_the_node_with_that_address():
    assert multinode.hosts_endpoint("127.0.0.2", "127.0.0.2")
    assert not multinode.hosts_endpoint("127.0.0.2", "127.0.0.3")
    assert not multinode.hosts_endpoint("10.255.255.254", "10.255.255.254")  # not an address of this machine


def test_torchrun_gets_rendezvous_is_host_and_local_addr():
    argv = torchrun_argv(LaunchSpec(2, nnodes=3, rdzv_endpoint="10.0.0.1:29500", rdzv_id="j", is_host=False,
                                    local_addr="10.0.0.3"), [])
    assert "--nnodes=3" in argv and "--rdzv-backend=c10d" in argv and "--rdzv-endpoint=10.0.0.1:29500" in argv
    assert "--local-addr=10.0.0.3" in argv and any("is_host=0" in a for a in argv)


def _struct(gbps: dict, nnodes: int = 4, intra=None):
    pairs = [{"pair": list(p), "gbps": g, "round": 0, "ring": True} for p, g in gbps.items()]
    res = {}
    for node in range(nnodes):
        res[node] = {"node_rank": node, "nnodes": nnodes, "nproc_per_node": 1,
                     "intra_node": {"size": 1 << 20, "nranks": 2, "time_us": 10.0,
                                    "busbw_gbps": (intra or {}).get(node, 5.0), "algbw_gbps": 5.0}}
    res[0]["p2p"] = {"pairs": pairs, "rounds": [[]] * 2, "wrong": 0}
    res[0]["inter_node"] = {"size": 1 << 20, "nranks": nnodes, "time_us": 100.0, "busbw_gbps": 1.0, "algbw_gbps": 0.7}
    return res


def name(i):
    return f"10.0.0.{i + 1} (n{i})"


def test_structure_names_the_slow_node_with_evidence_and_renders():
    ring = {(0, 1): 1.0, (1, 2): 0.01, (2, 3): 0.01, (0, 3): 1.1}
    results, findings = structure.analyse(_struct(ring), name)
    assert [f.code for f in findings] == ["BW201"]
    assert findings[0].nodes == ["10.0.0.3 (n2)"]
    assert "10.0 MB/s with 10.0.0.2 (n1)" in findings[0].message
    assert results["p2p"]["slow_nodes"] == ["10.0.0.3 (n2)"] and results["p2p"]["all_pairs"] == 6
    text = "\n".join(structure_lines({"structure": results}))
    assert "slow node: 10.0.0.3 (n2)" in text and "4 of 6 pairs in 2 rounds" in text


def test_structure_names_a_slow_link_and_a_slow_node_inside():
    ring = {(0, 1): 1.0, (1, 2): 0.01, (2, 3): 1.0, (0, 3): 1.1}
    _, findings = structure.analyse(_struct(ring, intra={3: 0.5}), name)
    assert sorted(f.code for f in findings) == ["BW202", "BW204"]
    link = next(f for f in findings if f.code == "BW202")
    assert link.nodes == ["10.0.0.2 (n1)", "10.0.0.3 (n2)"]


def test_healthy_structure_has_no_findings():
    ring = {(0, 1): 1.0, (1, 2): 0.9, (2, 3): 1.2, (0, 3): 0.8}
    _, findings = structure.analyse(_struct(ring), name)
    assert findings == []


def test_a_node_that_cannot_reach_the_control_store_says_so_in_bounded_time():
    import time

    from ncclDoctor.errors import CouldNotRun

    rd = multinode.Rendezvous(2, "127.0.0.2:1", "x", "127.0.0.3", candidate_host=False)  # port 2: nobody listens
    t0 = time.monotonic()
    with pytest.raises(CouldNotRun, match="cannot reach the control store at 127.0.0.2:2"):
        multinode.open_control(rd, timeout_s=1.0)
    assert time.monotonic() - t0 < 30
