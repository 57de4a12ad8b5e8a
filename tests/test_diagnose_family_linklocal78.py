"""A launch's printed node addresses that are IPv4 link-local (round 78, rule AU (3)).

vllm-dgx-spark-7: a two-node vLLM launcher prints its auto-detected settings, "Head IP: 169.254.194.225" and "Worker IB
IP: 169.254.153.248 (NCCL)": a multi-node job's sockets set up on addresses valid on one link only, which every host
without an assigned address gives itself -- network_setup, no rank, even with nothing failing shown (it was read as
nothing failing). Near shapes: one such address alone (no second node's shown), or routable addresses, are not read so.
"""
from __future__ import annotations

from tests.conftest import diagnose_text as _report

_CFG = ("[2026-01-26 15:58:16] Configuration:\n"
        "[2026-01-26 15:58:16]   Head IP:         {head} (auto-detected)\n"
        "[2026-01-26 15:58:16]   Tensor Parallel: 2\n"
        "[2026-01-26 15:58:16]   Worker IB IP:    {worker} (NCCL)\n"
        "[2026-01-26 15:58:16]   NCCL Interface:  enp1s0f0np0\n")


def test_two_nodes_on_link_local_addresses_is_the_network_setup(tmp_path):
    v = _report(tmp_path, _CFG.format(head="169.254.194.225", worker="169.254.153.248"))["verdict"]
    assert (v["cause"], v["culprits"]) == ("network_setup", []), v
    assert "NCCL_SOCKET_IFNAME" in v["fix"], v


def test_one_link_local_address_or_routable_ones_are_not_read_so(tmp_path):
    for head, worker in (("169.254.194.225", "10.0.0.2"), ("10.0.0.1", "10.0.0.2")):
        v = _report(tmp_path, _CFG.format(head=head, worker=worker))["verdict"]
        assert v["cause"] != "network_setup", (head, worker, v)
