"""Terminal view (rich): findings worst first, the nccl-tests-style table, the verdict last.

Colour only on a terminal: rich decides from ``isatty`` (and honours ``NO_COLOR`` and
``TERM=dumb``), so piped or CI output is plain text. Nothing here animates.
"""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from ncclDoctor.report.model import Report

STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}
VERDICT_STYLE = {"pass": "bold green", "warn": "bold yellow", "fail": "bold red", "error": "bold red"}


def render_console(report: Report, console: Console | None = None) -> None:
    from ncclDoctor.findings import sort_findings
    from ncclDoctor.report.views import suppressed_note

    console = console or Console(stderr=False)
    for f in sort_findings(report.findings):
        sev = f.severity.value
        where = f" [{', '.join(f.nodes)}]" if f.nodes else ""
        console.print(f"[{STYLE[sev]}]{sev.upper():7}[/] {escape(f.code)} {escape(f.title)}{escape(where)}")
        console.print(f"        {f.message}", highlight=False, markup=False)
        console.print(f"        fix: {' '.join(f.fix.split())}", highlight=False, markup=False)
    if suppressed_note(report):
        console.print(suppressed_note(report), highlight=False, markup=False)
    if report.results.get("sweep") or report.results.get("stalls"):
        from ncclDoctor.sweep.render import console_lines

        for line in console_lines(report.results):
            console.print(line, markup=False, highlight=False, soft_wrap=True)
    from ncclDoctor.report.collectives import all_console_lines  # one table per collective

    for line in all_console_lines(report.results):
        console.print(line, markup=False, highlight=False, soft_wrap=True)
    for name, t in (report.results.get("collectives") or {}).items():  # the time budget / localization (issue 15)
        if t.get("skipped") or t.get("stopped"):
            console.print(f"# {name} sweep {t.get('skipped') or t['stopped']['note']}", markup=False, highlight=False)
    from ncclDoctor.report.views import field_tables  # nccl-tests outputs read by diagnose

    for t in field_tables(report.results):
        for line in table_lines(t):
            console.print(line, markup=False, highlight=False, soft_wrap=True)
    base = report.results.get("baseline")
    if base and base.get("rows"):
        for line in baseline_lines(base):
            console.print(line, markup=False, highlight=False, soft_wrap=True)
    from ncclDoctor.report.structure import structure_lines  # multi-node runs only

    for line in structure_lines(report.results):
        console.print(line, markup=False, highlight=False, soft_wrap=True)
    if report.settings:
        console.print("Distributed settings set: " + ", ".join(f"{s['name']}={s['value']}" for s in report.settings),
                      markup=False, highlight=False)
    verdict = report.verdict.upper()
    n = len(report.findings)
    console.print(
        f"[{VERDICT_STYLE.get(report.verdict, 'bold')}]{verdict}[/] · {n} finding{'s' if n != 1 else ''} · exit code "
        f"{report.exit_code}"
        + (escape(f" · report: {report.run_dir}/report.html") if report.run_dir else "")
    )


def baseline_lines(b: dict) -> list[str]:
    lines = [
        f"# busbw against baseline {b['file']} (fail below -{b['max_regression_pct']:g}%)",
        "#       size  baseline     busbw   change  table / node",
        "#        (B)    (GB/s)    (GB/s)      (%)",
    ]
    for r in b["rows"]:
        fmt = lambda v, f: "-" if v is None else format(v, f)  # noqa: E731
        flag = "  REGRESSED" if r["regressed"] else ""
        lines.append(
            f"{r['size']:>12} {fmt(r['baseline_busbw_gbps'], '9.3g'):>9} {fmt(r['busbw_gbps'], '9.3g'):>9} "
            f"{fmt(r['change_pct'], '+8.1f'):>8}  {r['table']} / {r['node']}{flag}"
        )
    return lines


def table_lines(t) -> list[str]:
    """A view Table as nccl-tests-style comment lines: title, header, right-aligned rows, note."""
    widths = [max([len(h)] + [len(str(r[i])) for r in t.rows]) for i, h in enumerate(t.headers)]
    lines = [f"# {t.title}", "# " + "  ".join(h.rjust(w) for h, w in zip(t.headers, widths))]
    lines += ["  " + "  ".join(str(c).rjust(w) for c, w in zip(r, widths)) for r in t.rows]
    return lines + ([f"# {t.note}"] if t.note else [])
