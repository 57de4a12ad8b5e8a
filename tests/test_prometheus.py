"""--prometheus FILE: a node_exporter textfile, read back with prometheus_client's own parser."""

from __future__ import annotations

from pathlib import Path

import pytest

from ncclDoctor.findings import Severity
from ncclDoctor.report import prometheus
from ncclDoctor.report.model import Report
from ncclDoctor.rules.codes.bw import STRAGGLER
from tests.conftest import run_cli, run_cli_here

parser = pytest.importorskip("prometheus_client.parser", reason="prometheus-client is in the test extra")
FIX = Path(__file__).parent / "fixtures" / "field"


def families(text: str) -> dict:
    return {f.name: f for f in parser.text_string_to_metric_families(text)}


def sample(fams: dict, name: str, **labels) -> float:
    hits = [s.value for s in fams[name].samples if all(s.labels.get(k) == str(v) for k, v in labels.items())]
    assert len(hits) == 1, (name, labels, fams[name].samples)
    return hits[0]


def synthetic() -> Report:
    rows = [
        {"size": 1 << 20, "count": 1 << 18, "time_us": 100.0, "algbw_gbps": 10.5, "busbw_gbps": 21.0, "wrong": 0},
        {"size": 4 << 20, "count": 1 << 20, "time_us": 300.0, "algbw_gbps": 14.0, "busbw_gbps": 28.0, "wrong": 2},
    ]
    t = {"collective": "all_reduce", "backend": "nccl", "world_size": 8, "rows": rows, "peak_busbw_gbps": 28.0}
    rep = Report(
        command="check",
        results={
            "collectives": {"all_reduce": t},
            "all_reduce": t,
            "expected": {"platform": {"id": "azure-nd-h100-v5", "collective": "all_reduce", "busbw_gbps": 460.0}},
        },
    )
    rep.add(STRAGGLER.finding('rank 3 on "node\\1"'), STRAGGLER.finding("rank 4"))
    rep.duration_s = 12.5
    rep.conclude(Severity.ERROR)
    return rep


def test_every_family_parses_with_help_type_and_units():
    text = prometheus.render(synthetic())
    fams = families(text)
    assert all(f.type == "gauge" and f.documentation for f in fams.values())
    assert all(n.startswith("ncclDoctor_") for n in fams)
    assert (
        sample(fams, "ncclDoctor_busbw_bytes_per_second", collective="all_reduce", size_bytes=4 << 20, node="all")
        == 28e9
    )
    assert sample(
        fams, "ncclDoctor_collective_time_seconds", collective="all_reduce", size_bytes=1 << 20
    ) == pytest.approx(1e-4)
    assert sample(fams, "ncclDoctor_collective_wrong_elements", size_bytes=4 << 20) == 2
    assert sample(fams, "ncclDoctor_busbw_expected_bytes_per_second", platform="azure-nd-h100-v5") == 460e9
    assert sample(fams, "ncclDoctor_findings", code="BW001", severity="warning") == 2
    assert (
        sample(fams, "ncclDoctor_verdict", verdict="warn") == 1
        and sample(fams, "ncclDoctor_verdict", verdict="pass") == 0
    )
    assert sample(fams, "ncclDoctor_run_duration_seconds", command="check") == 12.5


def test_written_whole_with_no_temporary_left(tmp_path):
    out = tmp_path / "textfile" / "ncclDoctor_check.prom"
    prometheus.write(synthetic(), out)
    assert out.read_text().endswith("\n") and [p.name for p in out.parent.iterdir()] == ["ncclDoctor_check.prom"]


def test_check_writes_one_busbw_series_per_collective_and_size(tmp_path):
    prom = tmp_path / "check.prom"
    p = run_cli(
        "check",
        "--op",
        "all_reduce,alltoall",
        "--max-bytes",
        "16K",
        "--out",
        str(tmp_path / "run"),
        "--prometheus",
        str(prom),
        timeout=300,
    )
    assert p.returncode == 0, p.stderr[-2000:]
    fams = families(prom.read_text())
    got = {(s.labels["collective"], s.labels["size_bytes"]) for s in fams["ncclDoctor_busbw_bytes_per_second"].samples}
    assert {c for c, _ in got} == {"all_reduce", "alltoall"} and len(got) == 2 * 3  # 1K, 4K, 16K
    assert sample(fams, "ncclDoctor_verdict", command="check", verdict="pass") == 1
    assert "Prometheus textfile" in p.stderr


def test_diagnose_counts_findings_by_code(tmp_path):
    prom = tmp_path / "diag.prom"
    p = run_cli_here("diagnose", str(FIX / "dcgm_diag_r2.json"), "--out", str(tmp_path / "d"),
                     "--prometheus", str(prom))
    assert p.returncode == 1, p.stderr[-2000:]
    fams = families(prom.read_text())
    assert sample(fams, "ncclDoctor_findings", command="diagnose", code="FLD020", severity="error") == 1
    assert sample(fams, "ncclDoctor_exit_code", command="diagnose") == 1
