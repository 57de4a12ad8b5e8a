"""Markdown view of a report: findings first (worst first), then evidence tables."""

from __future__ import annotations

from typing import Any

from ncclDoctor.report.model import Report

VERDICT_TEXT = {"pass": "PASS", "warn": "WARN", "fail": "FAIL", "error": "ERROR (could not complete)"}


def fmt_size(n: int) -> str:
    for unit, div in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= div and n % div == 0:
            return f"{n // div} {unit}"
    return f"{n} B"


def _cell(v: Any) -> str:
    return str(v).replace("|", "\\|").replace("\n", " ")


def table(headers: list[str], rows: list[list[Any]]) -> str:
    out = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    out += ["| " + " | ".join(_cell(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


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
        parts.append("No findings.")
    for f in report.findings:
        where = ""
        if f.nodes:
            where += f" — nodes: {', '.join(f.nodes)}"
        if f.ranks:
            where += f" — ranks: {', '.join(map(str, f.ranks))}"
        parts += [f"### {f.severity.value.upper()} {f.code}: {f.title}", "", f.message + where, "", f"*Why:* {f.why}", "", f"*Fix:* {f.fix}", ""]
        for ev in f.evidence[:10]:
            parts.append(f"- evidence: `{_cell(ev)[:300]}`")
        if f.evidence:
            parts.append("")
    if report.results.get("sweep") or report.results.get("stalls"):
        from ncclDoctor.sweep.render import markdown_sections

        parts += markdown_sections(report.results)
    ar = report.results.get("all_reduce")
    if ar:
        parts += [
            "",
            f"## all_reduce ({ar['backend']}, {ar['world_size']} ranks, {ar['iters']} iters, {ar['warmup']} warm-up)",
            "",
            table(
                ["size (B)", "count (elements)", "type", "redop", "time (us)", "algbw (GB/s)", "busbw (GB/s)", "#wrong", "slowest rank", "max/min time"],
                [
                    [r["size"], r["count"], r["type"], r["redop"], f"{r['time_us']:.1f}", f"{r['algbw_gbps']:.3f}", f"{r['busbw_gbps']:.3f}", r["wrong"], r["slowest_rank"], f"{r['time_us_max'] / max(r['time_us_min'], 1e-9):.2f}"]
                    for r in ar["rows"]
                ],
            ),
            "",
            f"Peak busbw {ar['peak_busbw_gbps']:.3f} GB/s; average over all sizes {ar['avg_busbw_gbps']:.3f} GB/s (nccl-tests' 'Avg bus bandwidth').",
        ]
    if report.ranks:
        parts += ["", "## Ranks", "", table(
            ["rank", "local rank", "host", "address", "pid", "device", "phase", "state", "collectives"],
            [[r.get("rank"), r.get("local_rank", ""), r.get("host", ""), r.get("addr", ""), r.get("pid", ""), r.get("device", ""), r.get("phase", ""), r.get("state", ""), r.get("seq", "")] for r in report.ranks],
        )]
    if report.settings:
        parts += ["", "## Distributed settings", "", table(
            ["variable", "value", "status", "meaning"],
            [[s["name"], s["value"], s["status"], s["meaning"]] for s in report.settings],
        )]
    if report.host:
        h = report.host
        gpus = h.get("gpus", {})
        tf = h.get("torch", {})
        shm = h.get("dev_shm", {})
        parts += ["", "## Host", "", table(["fact", "value"], [
            ["host", h.get("hostname")],
            ["CPUs (affinity)", f"{h.get('cpu_count')} ({len(h.get('cpu_affinity') or [])} usable)"],
            ["memory", f"{(h.get('memory_total_bytes') or 0) / (1 << 30):.1f} GiB"],
            ["/dev/shm", f"{shm['total_bytes'] / (1 << 30):.1f} GiB" if "total_bytes" in shm else shm.get("skipped", "?")],
            ["ulimit -l / -n", f"{h.get('ulimit_memlock', {}).get('soft')} / {h.get('ulimit_nofile', {}).get('soft')}"],
            ["GPUs", gpus.get("skipped") and f"skipped: {gpus['skipped']}" or f"{gpus.get('count')} (driver {gpus.get('driver')})"],
            ["torch / CUDA / NCCL", f"{tf.get('version')} / {tf.get('cuda')} / {tf.get('nccl')}"],
            ["interfaces", ", ".join(f"{i['name']} ({'up' if i['up'] else 'down'}, MTU {i['mtu']}{', ' + str(i['speed_mbps']) + ' Mb/s' if i.get('speed_mbps') else ''})" for i in h.get("interfaces", []))],
        ])]
    if report.run_dir:
        parts += ["", f"Run directory: `{report.run_dir}`"]
    return "\n".join(parts) + "\n"
