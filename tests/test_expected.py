"""Expected busbw per platform: detection from NVML/sysfs replays, "% of expected", BW301.

Facts come from the recorded NVML snapshots (tests/fixtures/nvml) and sysfs trees
(tests/fixtures/sysfs) through the same collectors the check uses.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ncclDoctor.analysis import expected
from ncclDoctor.facts.gpu import collect_gpu_facts
from ncclDoctor.facts.ib import collect_ib_facts
from ncclDoctor.facts.nvml_replay import NvmlReplay
from ncclDoctor.knowledge.platforms import PLATFORMS

FIX = Path(__file__).parent / "fixtures"
GiB = 1 << 30


def host(nvml: str, sysfs: str | None = None) -> dict:
    ib = collect_ib_facts(str(FIX / "sysfs" / sysfs) if sysfs else str(FIX / "sysfs" / "nonexistent"))
    return {"gpus": collect_gpu_facts(nvml=NvmlReplay(FIX / "nvml" / nvml)), "ib": ib}


def test_every_row_has_a_source_and_a_number():
    assert len(PLATFORMS) >= 8
    for p in PLATFORMS:
        assert p["source"].startswith("https://github.com/") and "#L" in p["source"], p["id"]
        assert p["busbw_gbps"] > 0 and p["size_bytes"] >= GiB and p["collective"] in ("all_reduce", "all_gather")
        re.compile(p["gpu"])
    assert len({p["id"] for p in PLATFORMS}) == len(PLATFORMS)


def test_eight_h100_on_one_node_is_azure_nd_h100_v5():
    ref = expected.detect(host("healthy_8x_h100.json"), nnodes=1, gpus_per_node=8, backend="nccl")
    assert ref["platform"]["id"] == "azure-nd-h100-v5" and ref["platform"]["busbw_gbps"] == 460.0
    assert ref["detected"]["gpu"] == "NVIDIA H100 80GB HBM3" and ref["detected"]["gpus"] == 8


def test_two_h100_nodes_without_rdma_need_the_transport_hint():
    h = host("healthy_8x_h100.json")
    ref = expected.detect(h, nnodes=2, gpus_per_node=8, backend="nccl", env={})
    assert ref["platform"] is None and "gcp-a3-high" in ref["reason"] and "gcp-a3-mega" in ref["reason"]
    ref = expected.detect(h, 2, 8, "nccl", env={"LD_LIBRARY_PATH": "/usr/local/tcpxo/lib64:/usr/local/nvidia/lib64/"})
    assert ref["platform"]["id"] == "gcp-a3-mega" and ref["platform"]["collective"] == "all_gather"


def test_eight_h200_one_node_azure_two_nodes_with_rdma_google_a3_ultra():
    ref = expected.detect(host("healthy_8x_h200.json"), 1, 8, "nccl")
    assert ref["platform"]["id"] == "azure-nd-h200-v5" and ref["platform"]["collective"] == "all_reduce"
    ref = expected.detect(host("healthy_8x_h200.json", "roce_2x"), 2, 8, "nccl")
    assert ref["platform"]["id"] == "gcp-a3-ultra" and ref["platform"]["busbw_gbps"] == 250.0
    ref = expected.detect(host("healthy_8x_h200.json"), 2, 8, "nccl")  # no RDMA port: not the measured platform
    assert ref["platform"] is None


def test_rdma_ports_from_sysfs_change_the_match():
    ref = expected.detect(host("healthy_8x_h100.json", "healthy_4x_ndr"), 2, 8, "nccl")
    assert ref["detected"]["rdma"] is True and ref["platform"] is None and "no published row" in ref["reason"]


@pytest.mark.parametrize(
    "nvml,n,backend,why",
    [
        ("healthy_pcie_v100_idle.json", 1, "nccl", "no published row for 1x Tesla V100-PCIE-32GB"),
        ("healthy_8x_h100.json", 2, "gloo", "a CPU (gloo) run"),
        ("healthy_8x_h100.json", 4, "nccl", "no published row"),  # 4 of the 8 GPUs: not the measured platform
    ],
)
def test_no_reference_applies_says_why(nvml, n, backend, why):
    ref = expected.detect(host(nvml), 1, n, backend)
    assert ref["platform"] is None and why in ref["reason"]


def results(busbw_by_size: dict[int, float]) -> dict:
    rows = [{"size": s, "count": s // 4, "busbw_gbps": b} for s, b in sorted(busbw_by_size.items())]
    return {"collectives": {"all_reduce": {"rows": rows}}}


def nd_h100() -> dict:
    return expected.detect(host("healthy_8x_h100.json"), 1, 8, "nccl")


def test_percent_of_expected_on_every_row_and_bw301_when_far_below():
    res = results({1 << 20: 40.0, 8 * GiB: 200.0, 16 * GiB: 230.0})
    exp = expected.annotate(res, nd_h100(), below_pct=90)
    assert [r["expected_pct"] for r in res["collectives"]["all_reduce"]["rows"]] == [8.7, 43.5, 50.0]
    (f,) = expected.judge(exp, res, ["10.0.0.1 (node1)"])
    assert (
        f.code == "BW301" and "230.0 GB/s" in f.message and "50%" in f.message and "azurehpc-health-checks" in f.message
    )


def test_healthy_node_and_short_sweep_are_not_flagged():
    res = results({8 * GiB: 420.0, 16 * GiB: 455.0})  # 98.9% of 460 >= 90%
    assert expected.judge(expected.annotate(res, nd_h100()), res) == []
    res = results({1 << 20: 10.0, 128 << 20: 150.0})  # the GPU default sweep: far below 16 GiB
    exp = expected.annotate(res, nd_h100())
    assert expected.judge(exp, res) == [] and "not judged" in exp["reason"] and "-e 16G" in exp["reason"]
    assert res["collectives"]["all_reduce"]["rows"][-1]["expected_pct"] == 32.6


def test_reference_for_a_collective_that_did_not_run():
    res = results({GiB: 100.0})
    ref = expected.detect(host("healthy_8x_h100.json"), 2, 8, "nccl", {"LD_LIBRARY_PATH": "/usr/local/tcpx/lib64"})
    exp = expected.annotate(res, ref)
    assert "add --op all_gather" in exp["reason"] and expected.judge(exp, res) == []
