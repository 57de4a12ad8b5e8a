"""`check --op`: every collective through the real CLI, torchrun and gloo; one table per
collective in every view; a hang inside a collective's phase is localized there."""

from __future__ import annotations

import json

from probes.collectives import REGISTRY
from tests.conftest import run_cli, run_cli_here


def test_op_all_gives_one_exact_table_per_collective_in_every_view(tmp_path):
    p = run_cli("check", "--op", "all", "--max-bytes", "4K", "--out", str(tmp_path), timeout=400)
    assert p.returncode == 0, p.stderr[-3000:]
    rep = json.loads((tmp_path / "report.json").read_text())
    colls = rep["results"]["collectives"]
    assert list(colls) == list(REGISTRY) and rep["schema_version"] == "1.2"
    assert rep["results"]["all_reduce"] == colls["all_reduce"]  # schema 1.1 readers
    for name, t in colls.items():
        assert [r["wrong"] for r in t["rows"]] == [0, 0] and all(r["busbw_gbps"] > 0 for r in t["rows"]), name
        assert t["rows"][0]["redop"] == REGISTRY[name].REDOP and t["rows"][0]["root"] == REGISTRY[name].ROOT
    assert [r["size"] for r in colls["all_gather"]["rows"]] == [1024, 4096]  # nccl-tests' size column: the output
    assert rep["results"]["expected"]["reason"] == "no reference applies: a CPU (gloo) run"
    md, html = (tmp_path / "report.md").read_text(), (tmp_path / "report.html").read_text()
    for name in REGISTRY:
        assert f"## {name} (gloo, 2 ranks" in md and f'id="table-{name}"' in html
        assert f"# {name} · gloo · 2 ranks" in p.stdout


def test_unknown_op_is_a_usage_error(tmp_path):
    p = run_cli_here("check", "--op", "all_reduce,allgather", "--out", str(tmp_path))
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert "unknown collective allgather" in p.stderr and len(p.stderr.strip().splitlines()) == 1


def test_a_hang_inside_a_collective_phase_names_the_rank(tmp_path):
    p = run_cli(
        "check",
        "--op",
        "all_reduce,reduce_scatter",
        "--max-bytes",
        "4K",
        "--inject",
        "hang:1:reduce_scatter",
        "--timeout",
        "10",
        "--out",
        str(tmp_path),
        timeout=300,
    )
    rep = json.loads((tmp_path / "report.json").read_text())
    assert p.returncode == 4, p.stderr[-2000:]
    run = rep["results"]["run"]
    assert run["status"] == "hang" and run["phase"] == "reduce_scatter" and run["culprits"] == [1]
    assert "all_reduce" in rep["results"]["collectives"]  # the sweep before it is kept


def test_sendrecv_alone_needs_two_gloo_ranks(tmp_path):
    p = run_cli("check", "--nproc-per-node", "1", "--op", "sendrecv", "--out", str(tmp_path))
    assert p.returncode == 2 and "needs at least 2 ranks on gloo" in p.stderr and "Traceback" not in p.stderr
