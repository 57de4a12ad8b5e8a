"""Per-node busbw against message size in a real multi-node run (localhost mode: two
"nodes" with two gloo ranks each, their own loopback addresses, no root needed).

The structure phase runs each node's intra-node all_reduce over the check's message
sizes; the report carries one curve per node (``results.intra_node_all_reduce``), which
the Markdown and HTML views show, the HTML chart draws as a line per node, and a
baseline compares node by node and size by size."""

from __future__ import annotations

import json
import re
import subprocess

import jsonschema
import pytest

from ncclDoctor.analysis import baseline as bl
from ncclDoctor.report.html import render_html
from ncclDoctor.report.model import Report
from tests.conftest import ROOT
from tests.multinode_helpers import reporting, run_nodes
from tests.test_html import CHROMIUM, _chromium

pytestmark = pytest.mark.slow

TABLE = "intra_node_all_reduce"


def addr(i: int) -> str:
    return f"127.0.0.{i + 12}"


def starter(**per_node_args: str):
    """Launch node i with --local-addr, plus ``--OPTION VALUE.format(i=i)`` for each option."""
    def start(i, argv, env):
        extra = [x for k, v in per_node_args.items() for x in (f"--{k.replace('_', '-')}", v.format(i=i))]
        return subprocess.Popen([*argv, "--local-addr", addr(i), *extra], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return start


@pytest.fixture(scope="module")
def host(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("per-node")
    runs = run_nodes(2, starter(save_baseline=str(tmp / "base{i}.json")), addr, tmp, extra=["--nproc-per-node", "2"])
    for r in runs:
        assert r.returncode == 0, (r.index, r.stderr[-3000:])
    return reporting(runs), tmp


def test_each_node_gets_a_busbw_curve_over_the_sweep_sizes(host):
    run, _ = host
    rep = run.report
    # the sweep + --structure-bytes
    sizes = sorted({r["size"] for r in rep["results"]["all_reduce"]["rows"]} | {256 * 1024})
    per_node = rep["results"][TABLE]["per_node"]
    labels = {f"{addr(i)} ({rep['host']['hostname']})" for i in range(2)}
    assert set(per_node) == labels
    for node, sub in per_node.items():
        assert [r["size"] for r in sub["rows"]] == sizes, node
        assert all(r["nranks"] == 2 and r["busbw_gbps"] > 0 and r["time_us"] > 0 for r in sub["rows"]), sub
        # busbw = algbw x 2(n-1)/n with n = 2 ranks in the node
        assert all(abs(r["busbw_gbps"] - r["algbw_gbps"]) < 1e-9 for r in sub["rows"])
    # the world table: 4 ranks over both nodes, so nccl-tests' bus factor 2(n-1)/n = 1.5
    world = rep["results"]["all_reduce"]
    assert world["world_size"] == 4 and world["rows"]
    for r in world["rows"]:
        assert r["busbw_gbps"] == pytest.approx(r["algbw_gbps"] * 1.5, rel=1e-9), r
    # the single-size summary BW204 reads is the curve's point at the structure size
    for row in rep["results"]["structure"]["intra_node"]:
        curve = {r["size"]: r for r in per_node[row["node"]]["rows"]}
        assert curve[row["size"]]["busbw_gbps"] == row["busbw_gbps"]
    # the terminal shows the curves too, a line per node
    shown = {lb for ln in (run.stdout + run.stderr).splitlines() for lb in labels
             if ln.strip("# ").startswith(lb) and re.search(r"4 KiB [0-9.]+ · 16 KiB [0-9.]+ · 256 KiB [0-9.]+$", ln)}
    assert shown == labels, run.stdout + run.stderr
    schema = json.loads((ROOT / "ncclDoctor" / "report" / "schema" / "report.schema.json").read_text())
    jsonschema.validate(rep, schema)


def test_markdown_and_html_show_the_per_node_curves(host, tmp_path):
    run, tmp = host
    md = (tmp / f"node{run.index}" / "report.md").read_text()
    assert "## Intra-node all_reduce per node (2 ranks each, all nodes at once)" in md
    assert "## Between nodes (2 nodes)" in md
    for i in range(2):
        assert re.search(rf"\| {re.escape(addr(i))} \(.*?\) \| 262144 \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \|", md), md
    page = render_html(Report.load(tmp / f"node{run.index}"))
    chart = page[page.index('id="chart-busbw"'):page.index("</figure>", page.index('id="chart-busbw"'))]
    for i in range(2):
        assert f"{TABLE} · {addr(i)}" in chart
    assert 'id="table-intra_node_all_reduce"' in page and 'id="table-structure"' in page


@pytest.mark.skipif(CHROMIUM is None,
                    reason="chromium is not installed (apt-get install chromium): the browser check cannot run")
def test_chromium_renders_the_multinode_report(host, tmp_path):
    run, tmp = host
    page = tmp / f"node{run.index}" / "report.html"
    shot = tmp / f"node{run.index}" / "report.png"  # kept with the run as its artifact
    p = _chromium(["--screenshot=" + str(shot), "--window-size=1200,2400", page.as_uri()], tmp_path / "profile1")
    assert p.returncode == 0, p.stderr[-2000:]
    png = shot.read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 50_000
    dom = _chromium(["--dump-dom", page.as_uri()], tmp_path / "profile2")
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert f"{TABLE} · {addr(1)}" in dom.stdout and 'id="table-intra_node_all_reduce"' in dom.stdout


def test_a_baseline_judges_each_node_and_size(host):
    run, tmp = host
    doc = bl.baseline_from_report(Report.load(tmp / f"node{run.index}"))
    base = bl.baseline_series(doc)
    nodes = {node for table, node in base if table == TABLE}
    assert len(nodes) == 2
    slow = sorted(nodes)[1]
    # the same run against a baseline where one node used to be 3x faster: only that node regressed, at every size
    doctored = {k: ({s: v * 3 for s, v in pts.items()} if k == (TABLE, slow) else dict(pts)) for k, pts in base.items()}
    rows = bl.compare(doctored, bl.busbw_series(Report.load(tmp / f"node{run.index}").results), 10.0)
    regressed = {(r["table"], r["node"]) for r in rows if r["regressed"]}
    assert regressed == {(TABLE, slow)}
    assert all(r["regressed"] and round(r["change_pct"]) == -67
               for r in rows if (r["table"], r["node"]) == (TABLE, slow))


def test_check_baseline_names_the_node_that_regressed(host, tmp_path):
    """End to end through the CLI: a saved multi-node baseline, doctored so that node 2's
    intra-node curve used to be 20x faster and node 1's 20x slower (every other series
    dropped, so this machine's noise cannot judge them), fails the next check with
    BW102 naming node 2 alone."""
    run, tmp = host
    doc = json.loads((tmp / f"base{run.index}.json").read_text())
    mine = [x for x in doc["series"] if x["table"] == TABLE]
    assert sorted(x["node"].split(" ")[0] for x in mine) == [addr(0), addr(1)]
    for x in mine:
        k = 20.0 if x["node"].startswith(addr(1) + " ") else 1 / 20  # far beyond the 2-3x that small sizes swing here
        x["busbw_gbps"] = {size: v * k for size, v in x["busbw_gbps"].items()}
    doc["series"] = mine
    (tmp_path / "doctored.json").write_text(json.dumps(doc))
    runs = run_nodes(2, starter(), addr, tmp_path,
                     extra=["--nproc-per-node", "2", "--baseline", str(tmp_path / "doctored.json")])
    rep = reporting(runs).report
    [bw102] = [f for f in rep["findings"] if f["code"] == "BW102"]
    assert [n.split(" ")[0] for n in bw102["nodes"]] == [addr(1)], bw102
    rows = rep["results"]["baseline"]["rows"]
    assert {r["node"].split(" ")[0] for r in rows if r["regressed"]} == {addr(1)}
    assert all(r["regressed"] for r in rows if r["node"].startswith(addr(1) + " ") and r["table"] == TABLE)
    assert reporting(runs).returncode == 1
