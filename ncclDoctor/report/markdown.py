"""Markdown view of a report: verdict, findings first (worst first), then evidence tables.

The evidence tables are built once, as data, in ``report.views``; Markdown here and HTML
(``report.html``) render the same ones, so the views cannot disagree.
"""

from __future__ import annotations

from typing import Any

from ncclDoctor.findings import sort_findings
from ncclDoctor.report.model import Report
from ncclDoctor.report.views import VERDICT_TEXT, evidence_tables, suppressed_note


def _cell(v: Any) -> str:
    return str(v).replace("|", "\\|").replace("\n", " ")


def table(headers: list[str], rows: list[list[Any]]) -> str:
    out = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    out += ["| " + " | ".join(_cell(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def _finding_md(f: Any) -> list[str]:
    where = (f" — nodes: {', '.join(f.nodes)}" if f.nodes else "") + (f" — ranks: {', '.join(map(str, f.ranks))}"
                                                                      if f.ranks else "")
    parts = [f"### {f.severity.value.upper()} {f.code}: {f.title}", "", f.message + where, "",
             f"*Why:* {' '.join(f.why.split())}", "", f"*Fix:* {' '.join(f.fix.split())}", ""]
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
