"""The HTML report: self-contained, charts drawn by matplotlib, rendered by a real browser.

The browser test runs Debian's chromium headless on report.html from a real check run,
inside a network namespace with no interfaces but loopback when we can make one (root
and `unshare`): a page that needed the network would show it there. The screenshot is
kept next to the report as ``report.png``.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ncclDoctor.report.html import render_html
from ncclDoctor.report.model import Report
from tests._reportrun import real_check

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="session")
def run(tmp_path_factory):
    return real_check(tmp_path_factory.getbasetemp() / "reportrun")


def test_html_is_written_with_the_run_and_is_self_contained(run):
    page = (run.dir / "report.html").read_text()
    assert page.startswith("<!DOCTYPE html>")
    assert page.count("<svg") >= 2  # busbw curve and per-rank bars
    assert 'id="chart-busbw"' in page and 'id="chart-ranks"' in page
    # Nothing to fetch: no scripts, no stylesheets, no remote images or fonts.
    assert not re.search(r"<script|<link|<img|<iframe|@import|url\((?!#)", page, re.I)  # url(#id): SVG clip paths
    assert not re.search(r"(src|href)\s*=\s*[\"']?(https?:)?//", page, re.I)
    for text in ("busbw (GB/s)", "message size (bytes)", "time per all_reduce (ms)"):
        assert text in page  # axis labels are text in the SVG, with units


def test_findings_precede_charts_and_tables_worst_first(run):
    page = (run.dir / "report.html").read_text()
    sev = re.findall(r'data-severity="(\w+)"', page)
    assert sev and sev == sorted(sev, key=["error", "warning", "info"].index)
    assert page.index('id="findings"') < page.index('id="chart-busbw"') < page.index('id="table-all_reduce"')


def test_without_matplotlib_the_page_still_has_its_tables(run, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib -> ImportError
    page = render_html(Report.load(run.dir))
    assert "Charts unavailable: matplotlib is not installed" in page
    assert "<svg" not in page and 'id="table-all_reduce"' in page


def test_sweep_curves_are_drawn_from_a_sweep_result(run):
    rep = Report.load(run.dir)
    rep.results["sweep"] = {
        "metric": "samples_per_s",
        "rows": [{"num_workers": w, "pin_memory": pin, "samples_per_s": 100.0 * w + (5 if pin else 0),
                  "label": f"w{w}-pin{int(pin)}",
                  "prefetch_factor": None, "persistent_workers": False, "status": "ok", "elapsed_s": 10.0}
                 for w in (0, 1, 2, 4) for pin in (False, True)],
    }
    page = render_html(rep)
    start = page.index('id="chart-sweep"')
    chart = page[start:page.index("</figure>", start)]  # the chart only, not the tables below it
    assert "DataLoader num_workers" in chart and "pin_memory=True" in chart and "pin_memory=False" in chart


def test_per_node_series_get_their_own_lines(run):
    rep = Report.load(run.dir)
    rows = rep.results["all_reduce"]["rows"]
    rep.results["all_reduce"]["per_node"] = {"nodeA (10.0.0.1)": {"rows": rows},
                                             "nodeB (10.0.0.2)": {"rows": [dict(r,
                                                     busbw_gbps=r["busbw_gbps"] / 3) for r in rows]}}
    chart = render_html(rep)
    assert "all_reduce · nodeA (10.0.0.1)" in chart and "all_reduce · nodeB (10.0.0.2)" in chart


def _offline_prefix() -> tuple[list[str], str]:
    unshare = shutil.which("unshare")
    if unshare and subprocess.run([unshare, "-n", "true"], capture_output=True, timeout=10).returncode == 0:
        return [unshare, "-n"], "in a network namespace without network"
    return [], "no network namespace (unshare -n unavailable): names resolve nowhere and the proxy is a closed port"


# Without a namespace the page still cannot fetch anything: every host name resolves to
# nothing and every request goes to a closed proxy port. (Kept inside the namespace too.)
OFFLINE_FLAGS = [
    "--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=<-loopback>",
]


def _chromium(args: list[str], profile: Path, timeout: float = 90) -> subprocess.CompletedProcess:
    prefix, _ = _offline_prefix()
    flags = [
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        f"--user-data-dir={profile}", *OFFLINE_FLAGS,
    ]
    return subprocess.run([*prefix, CHROMIUM, *flags, *args], capture_output=True, text=True, timeout=timeout)


@pytest.mark.skipif(CHROMIUM is None,
                    reason="chromium is not installed (apt-get install chromium): the browser check cannot run")
def test_chromium_renders_the_report(run, tmp_path):
    page = run.dir / "report.html"
    shot = run.dir / "report.png"  # kept as the run's artifact
    _, how = _offline_prefix()
    print(f"chromium: {CHROMIUM}, {how}")
    p = _chromium(["--screenshot=" + str(shot), "--window-size=1200,2000", page.as_uri()], tmp_path / "profile1")
    assert p.returncode == 0, p.stderr[-2000:]
    png = shot.read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    assert (width, height) == (1200, 2000)
    assert len(png) > 50_000, "a blank page compresses to a few KB; charts and tables do not"
    dom = _chromium(["--dump-dom", page.as_uri()], tmp_path / "profile2")
    assert dom.returncode == 0, dom.stderr[-2000:]
    verdict = json.loads((run.dir / "report.json").read_text())["verdict"]
    assert re.search(rf'id="verdict"[^>]*>{verdict.upper()}<', dom.stdout)
    assert dom.stdout.count("<svg") >= 2 and "busbw (GB/s)" in dom.stdout


def test_straggler_is_named_among_hundreds_of_ranks(run):
    rep = Report.load(run.dir)
    row = max(rep.results["all_reduce"]["rows"], key=lambda r: r["size"])
    row["per_rank_time_us"] = {str(r): 1000.0 + (900.0 if r == 77 else 0.0) for r in range(256)}
    chart = render_html(rep)
    chart = chart[chart.index('id="chart-ranks"'):]
    assert "slowest rank 77 (1.90x median)" in chart and "median 1.00 ms" in chart


def test_many_nodes_are_drawn_as_a_median_band_and_the_slowest_named(run):
    rep = Report.load(run.dir)
    rows = rep.results["all_reduce"]["rows"]
    per_node = {f"node{i:02d} (10.0.0.{i})": {"rows": [dict(r) for r in rows]} for i in range(40)}
    for r in per_node["node17 (10.0.0.17)"]["rows"]:
        r["busbw_gbps"] /= 5  # one slow node among 40
    rep.results["intra_node_all_reduce"] = {"per_node": per_node}
    page = render_html(rep)
    chart = page[page.index('id="chart-busbw"'):page.index("</figure>", page.index('id="chart-busbw"'))]
    assert "intra_node_all_reduce · median of 40 nodes" in chart and "slowest to fastest node" in chart
    assert "intra_node_all_reduce · node17 (10.0.0.17)" in chart
    assert chart.count("intra_node_all_reduce · node") == 3  # the slowest three, not forty lines
