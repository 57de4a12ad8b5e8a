"""Fix words naming the shape's remedy, shapes round 104 showed read right but with a fix an expert would not give
(rules J, K, T, AN (2)): the verdict stays as it was, the fix names what an expert names for that shape.

- gloo's set-up report "[Gloo] Rank N is connected to M peer ranks. Expected number of connected peer ranks is : M",
  alone (gloo-462): none, nobody; the fix calls it gloo's harmless connection log, to ignore, silenced with
  GLOO_LOG_LEVEL. A rank short of its expected peers gets none of those words.
- An old NCCL's ring lines pasted without the word NCCL ("host:pid:tid [6] INFO Ring 00 : 6[6] -> 10[2] via P2P/IPC")
  beside an unhandled cuda error, two ranks on one device in one host's P2P/IPC lines (nccl-187): cuda_error, nobody;
  the fix says NCCL took two hosts for one (hostnames equal before the first dot) and names NCCL_HOSTID. Ring lines
  whose devices are all distinct keep the old fix.
"""
from __future__ import annotations

from tests.conftest import corpus_case_verdict
from tests.conftest import verdict_accused as _verdict

_GLOO = "harmless gloo connection log"
_HOSTS = "give the nodes hostnames that differ before the first dot"


def _gloo(rank: int, got: int, want: int) -> str:
    return f"[Gloo] Rank {rank} is connected to {got} peer ranks. Expected number of connected peer ranks is : {want}\n"


# --- gloo's connected-peers report ----------------------------------------------------------------------------------
def test_gloo_connected_peers_lines_name_gloo_log_level(tmp_path):
    for n, wrap in ((8, ""), (4, "[default0]:"), (16, "2026-01-02 10:00:00 ")):
        text = "".join(wrap + _gloo(r, n - 1, n - 1) + "\n" for r in (3, 0, n - 1, 1, 2) for _ in (0, 1))
        v, acc = _verdict(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
        assert _GLOO in v["fix"] and "GLOO_LOG_LEVEL=ERROR" in v["fix"] and "ignore the message" in v["fix"], v


def test_gloo_rank_short_of_its_peers_gets_no_harmless_words(tmp_path):
    v, _ = _verdict(tmp_path, _gloo(0, 3, 3) + _gloo(2, 1, 3) + _gloo(1, 3, 3))
    assert _GLOO not in v["fix"] and "GLOO_LOG_LEVEL" not in v["fix"], v


def test_sglang_gloo_mesh_case_keeps_its_reading(tmp_path):
    v, acc = corpus_case_verdict(tmp_path, "sglang-15608-gloo-mesh-connected-then-silent")
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert "py-spy" in v["fix"], v


# --- an old NCCL's ring over P2P/IPC to another host ----------------------------------------------------------------
_ERR = ("    dist._dist_broadcast_coalesced(self.process_group, tensors, buffer_size, False)\n"
        "RuntimeError: NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:{at}, unhandled cuda error\n\n")


def _ring(host: str, edges) -> str:
    return "".join(f"{host}:{4100 + a}:{5200 + a} [{da}] INFO Ring 0{ring} : {a}[{da}] -> {b}[{db}] via P2P/IPC\n"
                   for ring, (a, da, b, db) in edges)


def test_p2p_ipc_ring_to_a_rank_on_a_held_device_names_host_identity(tmp_path):
    cases = (("gpu-node07", [(0, (1, 1, 2, 2)), (0, (2, 2, 3, 3)), (0, (5, 5, 12, 2))], 260),
             ("trainer12.cluster", [(1, (0, 0, 1, 1)), (1, (3, 3, 0, 0)), (1, (1, 1, 8, 0))], 514))
    for host, edges, at in cases:
        v, acc = _verdict(tmp_path, _ERR.format(at=at) + _ring(host, edges))
        assert (v["cause"], v["culprits"]) == ("cuda_error", []) and not acc, v
        assert _HOSTS in v["fix"] and "NCCL_HOSTID" in v["fix"] and "NCCL_P2P_DISABLE=1" in v["fix"], v


def test_p2p_ipc_ring_on_distinct_devices_keeps_old_fix(tmp_path):
    v, acc = _verdict(tmp_path, _ERR.format(at=260) + _ring("gpu-node07", [(0, (1, 1, 2, 2)), (0, (2, 2, 3, 3)),
                                                                           (0, (3, 3, 0, 0))]))
    assert (v["cause"], v["culprits"]) == ("cuda_error", []) and not acc, v
    assert _HOSTS not in v["fix"] and "NCCL_HOSTID" not in v["fix"], v
    assert "IOMMU / ACS settings that block P2P" in v["fix"], v
