"""Views of a sweep and of a stall analysis: the table, the chart, per-rank imbalance.

Plain text lines, shared by the Markdown report and the terminal; renderers only render.
"""

from __future__ import annotations

from typing import Any

BAR = 40


def _pct(x: Any) -> str:
    return "" if x is None else f"{100 * x:.0f}%"


def sweep_table(sw: dict[str, Any]) -> tuple[list[str], list[list[Any]]]:
    rec = (sw.get("recommendation") or {}).get("label")
    headers = ["config", "num_workers", "pin_memory", "prefetch", "persistent", "samples/s (median)", "spread",
               "data wait (share)", "imbalance (max/min busy)", "status", "run (s)"]
    rows = []
    for c in sw.get("rows", []):
        rows.append([
            c["label"] + (" ◀ pick" if c["label"] == rec else ""), c["num_workers"], c["pin_memory"],
            c["prefetch_factor"] or "default",
            c["persistent_workers"], f"{c['samples_per_s']:.0f}", _pct(c.get("spread")), _pct(c.get("data_share")),
            "" if c.get("imbalance") is None else f"{c['imbalance']:.2f}", c["status"], f"{c['elapsed_s']:.1f}",
        ])
    return headers, rows


def sweep_chart(sw: dict[str, Any]) -> list[str]:
    """Throughput against num_workers, one block per pin_memory value (other axes at default)."""
    configs = [c for c in sw.get("rows", []) if c["status"] == "ok"]
    if not configs:
        return ["(no configuration ran to completion)"]
    top = max(c["samples_per_s"] for c in configs) or 1.0
    rec = (sw.get("recommendation") or {}).get("label")
    lines = []
    for pin in sorted({c["pin_memory"] for c in configs}):
        lines.append(f"samples/s vs num_workers (pin_memory={pin}; {sw.get('ranks')} ranks, bar = median, data wait "
                     "share at right)")
        rows = sorted((c for c in configs if c["pin_memory"] == pin and not c["persistent_workers"]
                       and c["prefetch_factor"] is None), key=lambda c: c["num_workers"])
        for c in rows:
            n = int(round(BAR * c["samples_per_s"] / top))
            mark = "  ◀ pick" if c["label"] == rec else ""
            lines.append(f"  w={c['num_workers']:<2} {'█' * n}{' ' * (BAR - n)} {c['samples_per_s']:>8.0f}  wait "
                         f"{_pct(c.get('data_share')):>4}{mark}")
    return lines


def stalls_table(st: dict[str, Any]) -> tuple[list[str], list[list[Any]]]:
    headers = ["rank", "node", "steps (steady)", "data wait (ms)", "compute (ms)", "comm wait (ms)", "step (ms)",
               "data wait share", "warm-up (s)", "straggler score"]
    scores = {s["rank"]: s for s in st.get("stragglers", [])}
    rows = []
    for r in st.get("ranks", []):
        sc = scores.get(r["rank"])
        rows.append([r["rank"], r["node"], f"{r['steps']} ({r['steady_steps']})", f"{r['data_wait_ms']:.2f}",
                     f"{r['compute_ms']:.2f}", f"{r['comm_ms']:.2f}",
                     f"{r['step_ms']:.2f}", _pct(r["data_share"]), f"{r['warmup_s']:.2f}",
                     "" if sc is None
                     else f"{sc['score']:.2f} ({sc['bound']}, slowest {sc['slowest_in']}/{sc['steps']})"])
    return headers, rows


def markdown_sections(results: dict[str, Any]) -> list[str]:
    from ncclDoctor.report.markdown import table

    parts: list[str] = []
    sw = results.get("sweep")
    if sw:
        rec = sw.get("recommendation")
        parts += ["",
                  f"## DataLoader sweep ({sw['mode']}, {sw['ranks']} ranks, {sw['windows']} windows of "
                  f"{sw['window_steps']} steps after {sw['warmup_steps']} warm-up, {sw['wall_s']:.0f} s)", ""]
        if rec:
            parts += [f"**Recommendation: `{rec['label']}`** — {rec['reason']}", ""]
        parts += [table(*sweep_table(sw)), "", "```", *sweep_chart(sw), "```"]
        if sw.get("not_measured"):
            parts += ["", f"Not measured (time budget): {', '.join(sw['not_measured'])}"]
    st = results.get("stalls")
    if st and st.get("ranks"):
        thr = st.get("throughput", {})
        parts += ["",
                  "## Per-rank data wait and imbalance"
                  + (f" at {sw['recommendation']['label']}" if sw and sw.get("recommendation") else ""), "",
                  table(*stalls_table(st)), "",
                  f"Throughput {thr.get('median', 0):.0f} samples/s (windows {thr.get('windows')}, spread "
                  f"{_pct(thr.get('spread'))})."]
    return parts


def console_lines(results: dict[str, Any]) -> list[str]:
    lines: list[str] = []
    sw = results.get("sweep")
    if sw:
        headers, rows = sweep_table(sw)
        keep = [0, 5, 6, 7, 8, 9]
        widths = [max(len(str(headers[i])), *(len(str(r[i])) for r in rows)) if rows else len(headers[i]) for i in keep]
        lines.append("  ".join(str(headers[i]).ljust(w) for i, w in zip(keep, widths)))
        lines += ["  ".join(str(r[i]).ljust(w) for i, w in zip(keep, widths)) for r in rows]
        lines += ["", *sweep_chart(sw)]
    st = results.get("stalls")
    if st and st.get("ranks"):
        headers, rows = stalls_table(st)
        lines += ["", "per rank: " + " | ".join(headers[1:8])]
        lines += [f"  rank {r[0]}: " + " | ".join(str(x) for x in r[1:8]) for r in rows]
    return lines
