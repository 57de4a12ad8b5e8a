"""Markdown view of a report: verdict, findings first (worst first), then evidence tables.

The evidence tables are built once, as data (``evidence_tables``), and every view that
shows tables (Markdown here, HTML in ``report.html``) renders the same ones, so the views
cannot disagree. Every numeric column names its unit in the header: sizes in bytes
(B), times in microseconds (us), bandwidth in GB/s (1 GB = 10^9 B, as nccl-tests).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ncclDoctor.findings import sort_findings
from ncclDoctor.report.model import Report

VERDICT_TEXT = {"pass": "PASS", "warn": "WARN", "fail": "FAIL", "error": "ERROR (could not complete)"}


def fmt_size(n: int) -> str:
    for unit, div in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= div and n % div == 0:
            return f"{n // div} {unit}"
    return f"{n} B"


@dataclass
class Table:
    id: str
    title: str
    headers: list[str]
    rows: list[list[Any]]
    left: int = 0  # leading text columns
    bad: set[int] = field(default_factory=set)  # rows to highlight
    note: str = ""


def _num(v: Any, fmt: str) -> str:
    return "" if v is None else format(v, fmt)


def collective_tables(results: dict[str, Any]) -> list[Table]:
    """One table per collective (``report.collectives``); the all_reduce one keeps its id."""
    from ncclDoctor.report import collectives as coll

    out = []
    for name, t in coll.tables(results).items():
        headers, rows = coll.table_rows(t)
        note = (f"Peak busbw {t['peak_busbw_gbps']:.3f} GB/s; average over all sizes {t['avg_busbw_gbps']:.3f} GB/s "
                "(nccl-tests' 'Avg bus bandwidth').")
        if results.get("expected"):
            note += " Expected busbw: " + coll.exp_note(results["expected"]) + "."
        out.append(Table(name, f"{name} ({t['backend']}, {t['world_size']} ranks, {t['iters']} iters, {t['warmup']} warm-up)",
                         headers, rows, bad={i for i, r in enumerate(t["rows"]) if r["wrong"]}, note=note))
    return out


def baseline_table(b: dict[str, Any]) -> Table:
    rows = [
        [r["table"], r["node"], r["size"], _num(r["baseline_busbw_gbps"], ".3g"), _num(r["busbw_gbps"], ".3g"),
         _num(r["change_pct"], "+.1f"), "REGRESSED" if r["regressed"] else ("" if r["change_pct"] is not None else "not compared")]
        for r in b["rows"]
    ]
    return Table(
        "baseline",
        f"busbw against the baseline (fail below -{b['max_regression_pct']:g}%)",
        ["table", "node", "size (B)", "baseline busbw (GB/s)", "busbw (GB/s)", "change (%)", "status"],
        rows, left=2, bad={i for i, r in enumerate(b["rows"]) if r["regressed"]},
        note=f"Baseline {b['file']}, measured {b.get('measured_at')} ({b.get('backend')}, {b.get('world_size')} ranks).",
    )


def host_table(h: dict[str, Any]) -> Table:
    gpus, tf, shm = h.get("gpus", {}), h.get("torch", {}), h.get("dev_shm", {})
    ifaces = ", ".join(
        f"{i['name']} ({'up' if i['up'] else 'down'}, MTU {i['mtu']}{', ' + str(i['speed_mbps']) + ' Mb/s' if i.get('speed_mbps') else ''})"
        for i in h.get("interfaces", [])
    )
    return Table("host", "Host", ["fact", "value"], [
        ["host", h.get("hostname")],
        ["CPUs (affinity)", f"{h.get('cpu_count')} ({len(h.get('cpu_affinity') or [])} usable)"],
        ["memory", f"{(h.get('memory_total_bytes') or 0) / (1 << 30):.1f} GiB"],
        ["/dev/shm", f"{shm['total_bytes'] / (1 << 30):.1f} GiB" if "total_bytes" in shm else shm.get("skipped", "?")],
        ["ulimit -l / -n", f"{h.get('ulimit_memlock', {}).get('soft')} B / {h.get('ulimit_nofile', {}).get('soft')} files"],
        ["GPUs", gpus.get("skipped") and f"skipped: {gpus['skipped']}" or f"{gpus.get('count')} (driver {gpus.get('driver')})"],
        ["torch / CUDA / NCCL", f"{tf.get('version')} / {tf.get('cuda')} / {tf.get('nccl')}"],
        ["interfaces", ifaces],
    ], left=2)


def evidence_tables(report: Report) -> list[Table]:
    out = []
    out += collective_tables(report.results)
    if report.results.get("structure") or report.results.get("intra_node_all_reduce"):
        from ncclDoctor.report.structure import structure_tables

        out += structure_tables(report.results)
    if report.results.get("baseline", {}).get("rows"):
        out.append(baseline_table(report.results["baseline"]))
    if report.ranks:
        out.append(Table("ranks", "Ranks", ["rank", "local rank", "host", "address", "pid", "device", "phase", "state", "collectives issued"], [
            [r.get("rank"), r.get("local_rank", ""), r.get("host", ""), r.get("addr", ""), r.get("pid", ""), r.get("device", ""),
             r.get("phase", ""), r.get("state", ""), r.get("seq", "")]
            for r in report.ranks
        ], bad={i for i, r in enumerate(report.ranks) if r.get("state") == "error"}))
    if report.settings:
        out.append(Table("settings", "Distributed settings", ["variable", "value", "status", "meaning"],
                         [[s["name"], s["value"], s["status"], s["meaning"]] for s in report.settings], left=4))
    if report.host:
        out.append(host_table(report.host))
    return out


def suppressed_note(report: Report) -> str:
    sup = (report.config.get("gates") or {}).get("suppressed") or {}
    if not sup:
        return ""
    return "Not shown (--select/--ignore): " + ", ".join(f"{c} x{n}" for c, n in sorted(sup.items())) + "."


def _cell(v: Any) -> str:
    return str(v).replace("|", "\\|").replace("\n", " ")


def table(headers: list[str], rows: list[list[Any]]) -> str:
    out = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    out += ["| " + " | ".join(_cell(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def _finding_md(f: Any) -> list[str]:
    where = (f" — nodes: {', '.join(f.nodes)}" if f.nodes else "") + (f" — ranks: {', '.join(map(str, f.ranks))}" if f.ranks else "")
    parts = [f"### {f.severity.value.upper()} {f.code}: {f.title}", "", f.message + where, "", f"*Why:* {' '.join(f.why.split())}", "", f"*Fix:* {' '.join(f.fix.split())}", ""]
    parts += [f"- evidence: `{_cell(ev)[:300]}`" for ev in f.evidence[:10]]
    return parts + ([""] if f.evidence else [])


def render_markdown(report: Report) -> str:
    parts = [f"# ncclDoctor {report.command}: {VERDICT_TEXT.get(report.verdict, report.verdict)}", ""]
    parts.append(
        f"exit code {report.exit_code} · started {report.started_at}"
        + (f" · {report.duration_s:.1f} s" if report.duration_s is not None else "")
        + f" · ncclDoctor {report.tool_version} (report schema {report.schema_version})"
    )
    if report.interrupted:
        parts += ["", "**Interrupted: the results below are partial.**"]
    parts += ["", "## Findings", ""]
    if not report.findings:
        parts += ["No findings.", ""]
    for f in sort_findings(report.findings):
        parts += _finding_md(f)
    if suppressed_note(report):
        parts += [suppressed_note(report), ""]
    if report.results.get("sweep") or report.results.get("stalls"):
        from ncclDoctor.sweep.render import markdown_sections  # table, text chart, per-rank waits

        parts += markdown_sections(report.results)[1:] + [""]
    for t in evidence_tables(report):
        parts += [f"## {t.title}", "", table(t.headers, t.rows), ""]
        if t.note:
            parts += [t.note, ""]
    if report.results.get("diagnose"):
        from ncclDoctor.diagnose.timeline import markdown as diagnose_markdown

        parts += diagnose_markdown(report.results["diagnose"]) + [""]
    if report.run_dir:
        parts += [f"Run directory: `{report.run_dir}`"]
    return "\n".join(parts).rstrip("\n") + "\n"
