"""HTML view of a report: one self-contained, offline file (``report.html`` in the run dir).

``ncclDoctor report RUN_DIR --format html -o report.html`` re-renders it. Nothing is
fetched: the CSS is inline, the charts are inline SVG drawn by matplotlib (Agg backend,
text kept as text so it can be searched and copied), there is no script.

Sections, in reading order: verdict; findings (worst first) with why and fix; charts;
evidence tables with units in every header; host.

Charts, each drawn only when its data is in the report:

- **busbw against message size**: one line per busbw series (``analysis.baseline.busbw_series``:
  the whole job, and one per node when tables carry per-node rows), with the baseline's
  values dashed when the run was compared against one. A table with more than
  ``MAX_NODE_LINES`` nodes is drawn as its median node with a slowest-to-fastest band,
  plus the few nodes furthest below the median, named.
- **per-rank time** at the largest message size of ``results["all_reduce"]`` (from each
  row's ``per_rank_time_us``): one bar per rank, the slowest in red, the median dashed.
- **sweep curves** from ``results["sweep"]``, expected as::

      {"metric": "samples_per_s",            # optional; the y value key
       "rows": [{"num_workers": 4, "pin_memory": true, "samples_per_s": 1830.0}, ...]}

  (``workers`` is accepted for ``num_workers`` and ``throughput`` for the metric): one
  line of the metric against workers per ``pin_memory`` value.

Without matplotlib the page still renders, with its tables, and says charts are
unavailable. SVG output is made deterministic (fixed hash salt, no date) so re-rendering
a run directory gives the same file.
"""

from __future__ import annotations

import html
import io
import re
import statistics
from typing import Any, Callable

from ncclDoctor.analysis import baseline as bl
from ncclDoctor.report.model import Report
from ncclDoctor.report.views import VERDICT_TEXT, evidence_tables, suppressed_note
from ncclDoctor.units import fmt_size

SEV_COLOUR = {"error": "#b3261e", "warning": "#9a6700", "info": "#0b5cad"}
VERDICT_COLOUR = {"pass": "#1a7f37", "warn": "#9a6700", "fail": "#b3261e", "error": "#b3261e"}

CSS = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:24px \
auto;max-width:1100px;color:#1f2328;padding:0 16px}
h1{font-size:22px;margin:0 0 4px} h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid \
#d0d7de;padding-bottom:4px}
.verdict{display:inline-block;color:#fff;border-radius:6px;padding:2px 10px;font-weight:600}
.meta{color:#59636e;margin:4px 0 0} .finding{border-left:4px solid;padding:6px 12px;margin:10px 0;background:#f6f8fa}
.finding h3{font-size:15px;margin:0 0 4px} .sev{font-weight:700;text-transform:uppercase;margin-right:6px}
table{border-collapse:collapse;margin:6px 0;font-variant-numeric:tabular-nums} th,td{border:1px solid \
#d0d7de;padding:3px 8px;text-align:right}
th{background:#f6f8fa} td.l,th.l{text-align:left} tr.bad td{background:#ffebe9}
figure{margin:12px 0} figcaption{color:#59636e} svg{max-width:100%;height:auto}
code{background:#eff1f3;padding:1px 4px;border-radius:4px} .note{color:#59636e;font-style:italic}
"""


def _e(v: Any) -> str:
    return html.escape("" if v is None else str(v))


def _table(headers: list[str], rows: list[list[Any]], left: int = 0, bad: Callable[[int], bool] | None = None) -> str:
    """``left``: how many leading columns are text (left-aligned); ``bad(i)`` marks row i."""
    head = "".join(f'<th class="{"l" if i < left else ""}">{_e(h)}</th>' for i, h in enumerate(headers))
    body = []
    for n, r in enumerate(rows):
        cells = "".join(f'<td class="{"l" if i < left else ""}">{_e(c)}</td>' for i, c in enumerate(r))
        body.append(f'<tr class="{"bad" if bad and bad(n) else ""}">{cells}</tr>')
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


# ---------------------------------------------------------------- charts


def _pyplot() -> Any | None:
    try:
        import matplotlib

        matplotlib.use("Agg", force=True)
        import matplotlib.pyplot as plt
    except Exception:  # ImportError, or a broken install: the page renders without charts
        return None
    plt.rcParams.update({"svg.hashsalt": "ncclDoctor", "svg.fonttype": "none", "font.size": 10})
    return plt


def preload() -> None:
    """Import matplotlib in a daemon thread now, so the report written at the end of a
    run does not wait for the import (the longest part of rendering it). For a caller
    that has a wait ahead (``check`` while its ranks start); call it only after the
    last fork of this process: a fork while the thread holds an import lock would leave
    the child waiting on it."""
    import threading

    threading.Thread(target=_pyplot, name="ncclDoctor-preload-matplotlib", daemon=True).start()


_METADATA = re.compile(r"<metadata>.*?</metadata>\s*", re.S)


def _svg(plt: Any, fig: Any) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None})  # layout="constrained": no second draw for bbox "tight"
    plt.close(fig)
    text = buf.getvalue()
    # Inline in HTML: drop the XML prolog, DOCTYPE and the RDF metadata block (its URLs
    # are namespace names, never fetched, but an offline page should not even name any).
    return _METADATA.sub("", text[text.index("<svg"):])


def _size_axis(ax: Any, sizes: list[int]) -> None:
    ax.set_xscale("log", base=2)
    ax.set_xticks(sizes)
    ax.set_xticklabels([fmt_size(s) for s in sizes], rotation=45, ha="right")
    ax.minorticks_off()


MAX_NODE_LINES = 8  # past this many nodes in a table, a line each is a tangle
OUTLIERS = 3  # ... so draw the median, the band, and the slowest few nodes


def summarise_crowds(
    series: bl.Series,
) -> tuple[bl.Series, dict[str, tuple[list[int], list[float], list[float], list[float], int]]]:
    """Split the series into those drawn one line each and, for every table with more
    than ``MAX_NODE_LINES`` nodes, a summary: per size the median node, the slowest and
    fastest (a band); the ``OUTLIERS`` nodes furthest below the median (their worst
    size's ratio) are still drawn and named."""
    by_table: dict[str, dict[str, dict[int, float]]] = {}
    for (table, node), pts in series.items():
        if node != bl.WHOLE_JOB:
            by_table.setdefault(table, {})[node] = pts
    drawn = dict(series)
    crowds = {}
    for table, nodes in by_table.items():
        if len(nodes) <= MAX_NODE_LINES:
            continue
        xs = sorted({x for pts in nodes.values() for x in pts})
        cols = {x: [pts[x] for pts in nodes.values() if x in pts] for x in xs}
        med = [statistics.median(cols[x]) for x in xs]
        crowds[table] = (xs, med, [min(cols[x]) for x in xs], [max(cols[x]) for x in xs], len(nodes))
        m = dict(zip(xs, med))

        def lowest_ratio(node: str) -> float:
            """The node's worst size, as a fraction of the median node there."""
            return min((v / m[x] for x, v in nodes[node].items() if m[x] > 0), default=1.0)  # noqa: B023 (used at once)

        worst = sorted(nodes, key=lowest_ratio)
        for node in nodes:
            if node not in worst[:OUTLIERS]:
                del drawn[(table, node)]
    return drawn, crowds


def busbw_chart(plt: Any, report: Report) -> str | None:
    series = bl.busbw_series(report.results)
    if not series:
        return None
    base = {}
    if report.results.get("baseline"):
        for r in report.results["baseline"].get("rows", []):
            if r.get("baseline_busbw_gbps") is not None:
                base.setdefault((r["table"], r["node"]), {})[r["size"]] = r["baseline_busbw_gbps"]
    fig, ax = plt.subplots(figsize=(8, 4.2), layout="constrained")
    sizes: set[int] = set()
    drawn, crowds = summarise_crowds(series)
    for table, (xs, med, lo, hi, n) in sorted(crowds.items()):
        sizes |= set(xs)
        (line,) = ax.plot(xs, med, ls="-", lw=2, label=f"{table} · median of {n} nodes")
        ax.fill_between(xs, lo, hi, color=line.get_color(), alpha=0.15, label=f"{table} · slowest to fastest node")
    for (table, node), pts in sorted(drawn.items()):
        xs = sorted(pts)
        sizes |= set(xs)
        label = table if node == bl.WHOLE_JOB else f"{table} · {node}"
        (line,) = ax.plot(xs, [pts[x] for x in xs], marker="o", label=label)
        if (table, node) in base:
            bx = sorted(base[(table, node)])
            ax.plot(bx, [base[(table, node)][x] for x in bx], ls="--", color=line.get_color(), alpha=0.7,
                    label=f"{label} (baseline)")
    ref = (report.results.get("expected") or {}).get("platform")
    if ref:  # the published floor the "% of expected" column is measured against
        ax.axhline(ref["busbw_gbps"], ls=":", color="grey", label=f"{ref['collective']} reference · {ref['id']}")
    _size_axis(ax, sorted(sizes))
    ax.set_xlabel("message size (bytes)")
    ax.set_ylabel("busbw (GB/s)")
    ax.set_title("Bus bandwidth against message size")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    return _svg(plt, fig)


def rank_time_chart(plt: Any, report: Report) -> tuple[str, int] | None:
    rows = (report.results.get("all_reduce") or {}).get("rows") or []
    rows = [r for r in rows if len(r.get("per_rank_time_us") or {}) > 1]
    if not rows:
        return None
    row = max(rows, key=lambda r: r["size"])
    times = {int(k): float(v) for k, v in row["per_rank_time_us"].items()}
    ranks = sorted(times)
    median = statistics.median(times.values())
    slow = max(times, key=times.get)
    colours = ["#b3261e" if r == slow else "#0b5cad" for r in ranks]
    ms = [times[r] / 1e3 for r in ranks]
    if len(ranks) <= 32:  # one labelled row per rank
        fig, ax = plt.subplots(figsize=(8, max(2.0, 0.3 * len(ranks) + 1)), layout="constrained")
        ax.barh([str(r) for r in ranks], ms, color=colours)
        ax.axvline(median / 1e3, ls="--", color="#59636e", label=f"median {median / 1e3:.2f} ms")
        ax.invert_yaxis()
        ax.set_xlabel("time per all_reduce (ms)")
        ax.set_ylabel("rank")
    else:  # hundreds of ranks: columns keep the figure a readable size
        fig, ax = plt.subplots(figsize=(10, 3.5), layout="constrained")
        ax.bar(ranks, ms, color=colours, width=1.0)
        ax.axhline(median / 1e3, ls="--", color="#59636e", label=f"median {median / 1e3:.2f} ms")
        ax.set_ylabel("time per all_reduce (ms)")
        ax.set_xlabel("rank")
    ax.set_title(f"Per-rank time at {fmt_size(row['size'])}: slowest rank {slow} ({times[slow] / median:.2f}x median)")
    ax.legend(fontsize=8)
    return _svg(plt, fig), row["size"]


def _sweep_points(sweep: dict[str, Any]) -> tuple[str, dict[Any, list[tuple[float, float]]]]:
    rows = [r for r in sweep.get("rows", []) if isinstance(r, dict)]
    metric = sweep.get("metric") or next((m for m in ("samples_per_s", "throughput") if rows and m in rows[0]),
                                         "throughput")
    lines: dict[Any, list[tuple[float, float]]] = {}
    for r in rows:
        w = r.get("num_workers", r.get("workers"))
        y = r.get(metric)
        if isinstance(w, (int, float)) and isinstance(y, (int, float)):
            lines.setdefault(r.get("pin_memory"), []).append((w, y))
    return metric, lines


def sweep_chart(plt: Any, report: Report) -> str | None:
    sweep = report.results.get("sweep")
    if not isinstance(sweep, dict):
        return None
    metric, lines = _sweep_points(sweep)
    if not lines:
        return None
    fig, ax = plt.subplots(figsize=(8, 4), layout="constrained")
    for pin, pts in sorted(lines.items(), key=lambda kv: str(kv[0])):
        pts.sort()
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=f"pin_memory={pin}")
    ax.set_xlabel("DataLoader num_workers")
    ax.set_ylabel(metric.replace("_per_s", "/s").replace("_", " "))
    ax.set_title("Throughput against num_workers")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    return _svg(plt, fig)


def charts_html(report: Report) -> str:
    has_data = bl.busbw_series(report.results) or isinstance(report.results.get("sweep"), dict)
    if not has_data:
        return ""
    plt = _pyplot()
    if plt is None:
        return ('<h2>Charts</h2><p class="note" id="no-charts">Charts unavailable: matplotlib is not installed (pip '
                'install matplotlib). The tables below hold the same numbers.</p>')
    out = ["<h2>Charts</h2>"]
    svg = busbw_chart(plt, report)
    if svg:
        out.append(f'<figure id="chart-busbw">{svg}<figcaption>busbw in GB/s (1 GB = 10⁹ B), nccl-tests\' '
                   'definition.</figcaption></figure>')
    bars = rank_time_chart(plt, report)
    if bars:
        out.append(f'<figure id="chart-ranks">{bars[0]}<figcaption>Each rank\'s mean time per all_reduce at '
                   f'{fmt_size(bars[1])}; a collective ends when its slowest rank does.</figcaption></figure>')
    svg = sweep_chart(plt, report)
    if svg:
        out.append(f'<figure id="chart-sweep">{svg}<figcaption>Input-pipeline sweep.</figcaption></figure>')
    return "".join(out)


# ---------------------------------------------------------------- page


def sweep_html(results: dict[str, Any]) -> list[str]:
    """The sweep's recommendation and table, and the per-rank data-wait table: the same
    tables the Markdown view shows (``ncclDoctor.sweep.render``)."""
    from ncclDoctor.sweep.render import stalls_table, sweep_table

    out = []
    sw = results.get("sweep")
    if isinstance(sw, dict) and sw.get("rows"):
        out.append(f'<h2 id="table-sweep">DataLoader sweep ({_e(sw.get("mode"))}, {_e(sw.get("ranks"))} ranks)</h2>')
        rec = sw.get("recommendation")
        if rec:
            out.append(f'<p id="recommendation"><b>Recommendation: <code>{_e(rec["label"])}</code></b> — '
                       f'{_e(rec.get("reason", ""))}</p>')
        headers, rows = sweep_table(sw)
        out.append(_table(headers, rows, 1, lambda i: sw["rows"][i]["status"] != "ok"))
        if sw.get("not_measured"):
            out.append(f'<p class="note">Not measured (time budget): {_e(", ".join(sw["not_measured"]))}</p>')
    st = results.get("stalls")
    if isinstance(st, dict) and st.get("ranks"):
        out.append('<h2 id="table-stalls">Per-rank data wait and imbalance</h2>')
        out.append(_table(*stalls_table(st), 2))
    return out


def _finding_html(f: Any) -> str:
    colour = SEV_COLOUR[f.severity.value]
    where = "".join(
        f"<div><b>{label}:</b> {_e(', '.join(map(str, vals)))}</div>"
        for label, vals in (("nodes", f.nodes), ("ranks", f.ranks)) if vals
    )
    evidence = ""
    if f.evidence:
        items = "".join(f"<li><code>{_e(str(ev)[:400])}</code></li>" for ev in f.evidence[:10])
        evidence = f"<details><summary>evidence ({len(f.evidence)})</summary><ul>{items}</ul></details>"
    return (
        f'<div class="finding" style="border-color:{colour}" data-code="{_e(f.code)}" '
        f'data-severity="{f.severity.value}">'
        f'<h3><span class="sev" style="color:{colour}">{f.severity.value}</span>{_e(f.code)}: {_e(f.title)}</h3>'
        f"<div>{_e(f.message)}</div>{where}"
        f"<div><b>Why:</b> {_e(' '.join(f.why.split()))}</div><div><b>Fix:</b> "
        f"{_e(' '.join(f.fix.split()))}</div>{evidence}</div>"
    )


def render_html(report: Report) -> str:
    from ncclDoctor.findings import sort_findings

    verdict = VERDICT_TEXT.get(report.verdict, report.verdict)
    n = len(report.findings)
    meta = (
        f"exit code {report.exit_code} · {n} finding{'s' if n != 1 else ''} · started {_e(report.started_at)}"
        + (f" · {report.duration_s:.1f} s" if report.duration_s is not None else "")
        + f" · ncclDoctor {_e(report.tool_version)} (report schema {_e(report.schema_version)})"
    )
    body = [
        f'<h1>ncclDoctor {_e(report.command)}: <span class="verdict" id="verdict" '
        f'style="background:{VERDICT_COLOUR.get(report.verdict, "#59636e")}">{_e(verdict)}</span></h1>',
        f'<p class="meta">{meta}</p>',
    ]
    if report.interrupted:
        body.append("<p><b>Interrupted: the results below are partial.</b></p>")
    body.append('<h2 id="findings">Findings</h2>')
    body += [_finding_html(f) for f in sort_findings(report.findings)] or ["<p>No findings.</p>"]
    if suppressed_note(report):
        body.append(f'<p class="note">{_e(suppressed_note(report))}</p>')
    body.append(charts_html(report))
    body += sweep_html(report.results)
    for t in evidence_tables(report):
        body.append(f'<h2 id="table-{_e(t.id)}">{_e(t.title)}</h2>'
                    + _table(t.headers, t.rows, t.left, t.bad.__contains__))
        if t.note:
            body.append(f'<p class="note">{_e(t.note)}</p>')
    if report.run_dir:
        body.append(f'<p class="meta">Run directory: <code>{_e(report.run_dir)}</code></p>')
    title = f"ncclDoctor {report.command}: {verdict}"
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_e(title)}</title><style>{CSS}</style></head>\n<body>\n" + "\n".join(body) + "\n</body></html>\n"
    )
