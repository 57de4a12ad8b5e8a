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


HEADER = (
    "#       size         count      type   redop      time   algbw   busbw  #wrong  slowest  max/min\n"
    "#        (B)    (elements)                        (us)  (GB/s)  (GB/s)           (rank)   (time)"
)


def allreduce_lines(ar: dict) -> list[str]:
    """The sweep in nccl-tests' column layout (in-place only: torch's all_reduce is)."""
    lines = [f"# all_reduce · {ar['backend']} · {ar['world_size']} ranks · warm-up {ar['warmup']} · iters {ar['iters']}", *HEADER.splitlines()]
    for r in ar["rows"]:
        ratio = r["time_us_max"] / max(r["time_us_min"], 1e-9)
        lines.append(
            f"{r['size']:>12} {r['count']:>13} {r['type']:>9} {r['redop']:>7} {r['time_us']:>9.1f} {r['algbw_gbps']:>7.3f} "
            f"{r['busbw_gbps']:>7.3f} {r['wrong']:>7} {r['slowest_rank']:>8} {ratio:>8.2f}"
        )
    lines.append(f"# Out of bounds values : {sum(r['wrong'] for r in ar['rows'])} {'OK' if not any(r['wrong'] for r in ar['rows']) else 'FAILED'}")
    lines.append(f"# Avg bus bandwidth    : {ar['avg_busbw_gbps']:.4f} GB/s   (peak {ar['peak_busbw_gbps']:.4f} GB/s)")
    return lines


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
    ar = report.results.get("all_reduce")
    if ar and ar.get("rows"):
        for line in allreduce_lines(ar):
            console.print(line, markup=False, highlight=False, soft_wrap=True)
    base = report.results.get("baseline")
    if base and base.get("rows"):
        for line in baseline_lines(base):
            console.print(line, markup=False, highlight=False, soft_wrap=True)
    from ncclDoctor.report.structure import structure_lines  # multi-node runs only

    for line in structure_lines(report.results):
        console.print(line, markup=False, highlight=False, soft_wrap=True)
    if report.settings:
        console.print("Distributed settings set: " + ", ".join(f"{s['name']}={s['value']}" for s in report.settings), markup=False, highlight=False)
    verdict = report.verdict.upper()
    n = len(report.findings)
    console.print(
        f"[{VERDICT_STYLE.get(report.verdict, 'bold')}]{verdict}[/] · {n} finding{'s' if n != 1 else ''} · exit code {report.exit_code}"
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
