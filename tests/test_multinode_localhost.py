"""Localhost mode: several "nodes" on one machine without namespaces, each its own
`ncclDoctor check --nodes N` with its own loopback address (--local-addr 127.0.0.N).
Runs anywhere (no root). A slow node is simulated with --inject slow (sleeps before each
of that rank's collectives), since one host has no per-node link to throttle."""

from __future__ import annotations

import subprocess

import pytest

from tests.multinode_helpers import codes, named, reporting, run_nodes

pytestmark = pytest.mark.slow


def addr(i: int) -> str:
    return f"127.0.0.{i + 2}"


def start(i, argv, env):
    return subprocess.Popen([*argv, "--local-addr", addr(i)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_localhost_nodes_localize_a_slow_node(tmp_path):
    runs = run_nodes(3, start, addr, tmp_path, extra=["--inject", "slow:2:30ms"])
    host = reporting(runs)
    assert host.addr == addr(0), "the node whose --local-addr is the loopback endpoint reports"
    rep = host.report
    assert sorted(n["addr"] for n in rep["nodes"]) == [addr(0), addr(1), addr(2)]
    assert codes(rep, "BW2") == ["BW201"], rep["findings"]
    assert named(rep, "BW2") == {f"{addr(2)} ({rep['host']['hostname']})"}
    assert codes(rep, "CON") == []
    import json

    import jsonschema

    from tests.conftest import ROOT

    schema = json.loads((ROOT / "ncclDoctor" / "report" / "schema" / "report.schema.json").read_text())
    for r in runs:  # the full report and the local summaries keep the report.json contract
        jsonschema.validate(r.report, schema)
    p2p = rep["results"]["structure"]["p2p"]
    assert p2p["pairs_measured"] == 3 and 4 <= p2p["rounds"] <= 6  # the ring, then confirming the slow node
    # the other nodes print their own summary and point at the full report
    for r in runs:
        if r is not host:
            assert f"full report is on {addr(0)}" in r.stderr
            assert {rk["addr"] for rk in r.report["ranks"]} == {r.addr}
