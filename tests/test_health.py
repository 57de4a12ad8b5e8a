"""Host health through recorded fixtures: an NVML double replaying JSON snapshots
(tests/fixtures/nvml/) and fake sysfs trees (tests/fixtures/sysfs/), both read by the
production functions (``collect_gpu_facts(nvml=...)``, ``collect_ib_facts(root=...)``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ncclDoctor.facts.gpu import collect_gpu_facts
from ncclDoctor.facts.ib import collect_ib_facts, hca_names
from ncclDoctor.facts.nvml_replay import NvmlReplay
from ncclDoctor.rules.gpu import check_gpus
from ncclDoctor.rules.network import check_ib

FIX = Path(__file__).parent / "fixtures"
WHERE = "10.0.0.1 (node1)"


def gpu_findings(name, nproc=None):
    facts = collect_gpu_facts(nvml=NvmlReplay(FIX / "nvml" / name))
    return facts, check_gpus(facts, WHERE, nproc)


# real_h200_vm_1gpu.json: a real driver's answers (580.159.04, one H200 in a VM), recorded by
# benchmarks/gpu_verify.py on 2026-11-30 -- the other fixtures are written by hand.
@pytest.mark.parametrize("name", ["healthy_8x_h100.json", "healthy_pcie_v100_idle.json", "real_h200_vm_1gpu.json"])
def test_healthy_gpus_fire_nothing(name):
    facts, found = gpu_findings(name, nproc=facts_count(name))
    assert found == [], [f.message for f in found]
    assert all(d["errors"] == {} for d in facts["devices"])


def facts_count(name):
    return len(NvmlReplay(FIX / "nvml" / name).data["devices"])


def test_healthy_h100_facts_read_through_every_query():
    facts, _ = gpu_findings("healthy_8x_h100.json")
    d = facts["devices"][0]
    assert facts["count"] == 8 and facts["driver"] == "550.54.15"
    assert d["pcie"] == {"gen": 5, "gen_max": 5, "width": 16, "width_max": 16}
    assert d["nvlink"] == [True] * 18 and d["remapped_rows"]["pending"] is False
    assert d["ecc_uncorrected_volatile"] == 0 and d["persistence_mode"] is True and d["mig_enabled"] is False


def test_not_supported_queries_are_none_not_errors():
    facts, _ = gpu_findings("healthy_pcie_v100_idle.json")
    d = facts["devices"][0]
    assert d["nvlink"] is None and d["remapped_rows"] is None and d["errors"] == {}


# fixture, nproc, code, text, severity
GPU_CASES = [
    ("healthy_8x_h100.json", 9, "GPU001", "9 ranks per node but NVML sees 8 GPU(s)", "error"),
    ("ecc_volatile.json", None, "GPU002", "GPU 1 (NVIDIA H100 80GB HBM3, 00000000:2A:00.0)", "error"),
    ("ecc_aggregate.json", None, "GPU003", "3 uncorrectable ECC error(s) in its lifetime", "warning"),
    ("remap_pending.json", None, "GPU004", "a remapped row is pending", "error"),
    ("remap_failed.json", None, "GPU004", "row remapping FAILED", "error"),
    ("thermal_throttle.json", None, "GPU005", "software thermal slowdown, hardware thermal slowdown", "warning"),
    ("pcie_x8.json", None, "GPU006", "PCIe Gen5 x8 (maximum Gen5 x16)", "warning"),
    ("pcie_gen_idle.json", None, "GPU006", "normal while idle", "info"),
    ("nvlink_down.json", None, "GPU007", "NVLink link(s) [14, 15] inactive, 16 of 18 up", "error"),
    ("persistence_off.json", None, "GPU008", "persistence mode is off", "info"),
    ("exclusive_process.json", None, "GPU009", "Exclusive Process", "warning"),
    ("prohibited.json", None, "GPU009", "Prohibited", "error"),
    ("mig_enabled.json", None, "GPU010", "MIG mode is enabled", "warning"),
    ("no_driver.json", None, "GPU000", "skipped (no NVML: Driver Not Loaded)", "info"),
]


@pytest.mark.parametrize("name,nproc,code,text,sev", GPU_CASES, ids=[c[0] for c in GPU_CASES])
def test_each_gpu_rule_fires_on_its_fixture(name, nproc, code, text, sev):
    _, found = gpu_findings(name, nproc)
    assert [f.code for f in found] == [code], [(f.code, f.message) for f in found]
    assert text in found[0].message and found[0].severity.value == sev
    assert found[0].nodes == [WHERE]


def test_one_failing_query_is_recorded_and_the_rest_still_read():
    facts, found = gpu_findings("query_error.json")
    d = facts["devices"][0]
    assert "throttle" in d["errors"] and d["throttle_reasons"] is None
    assert d["pcie"]["width"] == 16 and found == []


def test_real_pynvml_without_a_driver_is_skipped_not_failed():
    pytest.importorskip("pynvml")
    facts = collect_gpu_facts()
    if "devices" in facts:
        pytest.skip("this machine has a working NVIDIA driver; the no-driver path cannot be shown here")
    assert facts["skipped"].startswith("no NVML")
    assert [f.code for f in check_gpus(facts, WHERE)] == ["GPU000"]


def ib(name):
    return collect_ib_facts(FIX / "sysfs" / name)


def test_sysfs_reader_parses_ports():
    facts = ib("healthy_4x_ndr")
    assert hca_names(facts) == ["mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"]
    p = facts["hcas"][0]["ports"][0]
    assert p == {"port": 1, "state": "ACTIVE", "state_code": 4, "phys_state": "LinkUp", "phys_state_code": 5,
                 "rate": "400 Gb/sec (4X NDR)", "rate_gbps": 400.0, "link_layer": "InfiniBand"}
    assert hca_names(ib("twelve_hcas"))[-3:] == ["mlx5_9", "mlx5_10", "mlx5_11"]  # natural order


@pytest.mark.parametrize("tree", ["healthy_4x_ndr", "twelve_hcas", "roce_2x"])
def test_healthy_ib_fires_nothing(tree):
    assert check_ib(ib(tree), {}, WHERE) == []


def test_port_down_and_slow_port():
    down = check_ib(ib("port_down"), {}, WHERE)
    assert [f.code for f in down] == ["NET003"]
    assert "mlx5_1 port 1" in down[0].message and "DOWN (physical state Polling" in down[0].message
    slow = check_ib(ib("slow_port"), {}, WHERE)
    assert ([f.code for f in slow] == ["NET004"] and "mlx5_2 port 1" in slow[0].message
            and "below the 400 Gb/sec" in slow[0].message)


def test_port_checks_follow_nccl_ib_hca_and_ib_disable():
    assert check_ib(ib("port_down"), {"NCCL_IB_HCA": "=mlx5_0,mlx5_2"}, WHERE) == []
    assert check_ib(ib("port_down"), {"NCCL_IB_HCA": "^=mlx5_1"}, WHERE) == []
    assert check_ib(ib("port_down"), {"NCCL_IB_DISABLE": "1"}, WHERE) == []
    assert [f.code for f in check_ib(ib("port_down"), {"NCCL_IB_HCA": "mlx5_1:1"}, WHERE)] == ["NET003"]


def test_no_infiniband_is_skipped(tmp_path):
    facts = collect_ib_facts(tmp_path)
    assert facts["skipped"].startswith("no RDMA devices") and hca_names(facts) == []
    assert check_ib(facts, {}, WHERE) == []


def test_shm_against_dataloader_workers():
    from ncclDoctor.rules.shm import MIB, check_shm

    docker_default = {"dev_shm": {"total_bytes": 64 * MIB, "free_bytes": 64 * MIB}}
    f = check_shm(docker_default, WHERE, ranks_per_node=8, workers=4, batch_bytes=16 * MIB)
    assert [x.code for x in f] == ["SYS006"] and f[0].severity.value == "error"
    assert "8 rank(s) x 4 worker(s) x prefetch 2 x 16 MiB = 1,024 MiB" in f[0].message
    busy = {"dev_shm": {"total_bytes": 16384 * MIB, "free_bytes": 512 * MIB}}
    f = check_shm(busy, WHERE, ranks_per_node=8, workers=4, batch_bytes=16 * MIB)
    assert f[0].severity.value == "warning" and "512 MiB free" in f[0].message
    roomy = {"dev_shm": {"total_bytes": 16384 * MIB, "free_bytes": 16000 * MIB}}
    assert check_shm(roomy, WHERE, ranks_per_node=8, workers=4, batch_bytes=16 * MIB) == []
    assert check_shm(docker_default, WHERE, ranks_per_node=8, workers=0, batch_bytes=16 * MIB) == []
    assert check_shm({"dev_shm": {"skipped": "no /dev/shm"}}, WHERE, ranks_per_node=8, workers=4, batch_bytes=MIB) == []


def test_the_nvml_double_only_answers_calls_pynvml_has():
    """The double must not drift from the real module: every nvml* function it offers
    exists in pynvml under the same name, so production calls the same names."""
    pynvml = pytest.importorskip("pynvml")
    offered = [n for n in dir(NvmlReplay) if n.startswith("nvml")]
    assert len(offered) >= 20
    assert [n for n in offered if not hasattr(pynvml, n)] == []


def test_the_nvml_double_takes_the_arguments_pynvml_takes():
    """Arity and the constants production passes: a double that accepted (h, counter,
    error_type) in the wrong order, or a call with a missing argument, would pass a
    names-only check and fail on a real driver."""
    import inspect

    pynvml = pytest.importorskip("pynvml")
    from ncclDoctor.facts import gpu

    for name in [n for n in dir(NvmlReplay) if n.startswith("nvml")]:
        real = inspect.signature(getattr(pynvml, name)).parameters.values()
        required = sum(1 for p in real if p.default is inspect.Parameter.empty)
        mine = len(inspect.signature(getattr(NvmlReplay, name)).parameters) - 1  # self
        assert required <= mine <= len(real), (name, [p.name for p in real], mine)
    # nvmlDeviceGetTotalEccErrors(handle, errorType, counterType): the double reads the
    # *third* argument as the counter, with NVML's values for volatile and aggregate
    ecc_args = list(inspect.signature(pynvml.nvmlDeviceGetTotalEccErrors).parameters)
    assert ecc_args == ["handle", "errorType", "counterType"]
    assert (gpu.VOLATILE_ECC, gpu.AGGREGATE_ECC) == (pynvml.NVML_VOLATILE_ECC, pynvml.NVML_AGGREGATE_ECC) == (0, 1)
    assert gpu.MEMORY_ERROR_TYPE_UNCORRECTED == pynvml.NVML_MEMORY_ERROR_TYPE_UNCORRECTED
    assert gpu.PAGE_RETIREMENT_CAUSE_DOUBLE_BIT == pynvml.NVML_PAGE_RETIREMENT_CAUSE_DOUBLE_BIT_ECC_ERROR
    # nvmlDeviceGetRemappedRows returns (corrRows, uncRows, isPending, failureOccurred):
    # production reads it by position, so a recorded value must be a 4-sequence
    src = inspect.getsource(pynvml.nvmlDeviceGetRemappedRows)
    assert "return (c_corr.value, c_unc.value, c_bpending.value, c_bfailure.value)" in src


NVML_FIXTURES = Path(__file__).parent / "fixtures" / "nvml"


@pytest.mark.parametrize("snapshot", sorted(p.name for p in NVML_FIXTURES.glob("*.json")))
def test_the_recorder_captures_everything_the_facts_reader_reads(snapshot):
    """record() is what a GPU host runs to commit a real-driver snapshot
    (python -m ncclDoctor.facts.nvml_replay --record FILE): recording the replay of each
    fixture and reading the recording back gives the same facts as the fixture itself."""
    from ncclDoctor.facts import nvml_replay

    fixture = NVML_FIXTURES / snapshot
    again = nvml_replay.record(NvmlReplay(fixture))
    assert json.loads(json.dumps(again)) == again  # JSON as written
    assert collect_gpu_facts(nvml=NvmlReplay(again)) == collect_gpu_facts(nvml=NvmlReplay(fixture))
