"""One nccl-tests-style table per collective, for every renderer.

``results["collectives"]`` maps a collective's name to its table (``rows`` as
``analysis.bandwidth.build_table`` makes them); reports of schema 1.1 and older have only
``results["all_reduce"]``, read as ``{"all_reduce": ...}``. Where a platform reference
applies (``results["expected"]``, ``analysis.expected``), a row carries ``expected_pct``,
its busbw as a percentage of the reference, shown beside busbw.
"""

from __future__ import annotations

from typing import Any

HEADER = (
    "#       size         count      type   redop    root      time   algbw   busbw  {pct}#wrong  slowest  max/min\n"
    "#        (B)    (elements)                                (us)  (GB/s)  (GB/s)  {unit}         (rank)   (time)"
)


def tables(results: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """name -> table, in the order the check ran them. The all_reduce table is read from
    ``results["all_reduce"]`` (the same table, written twice in report.json), so a file
    edited or produced by a 1.1 reader is shown as it reads."""
    colls = results.get("collectives")
    out = dict(colls) if isinstance(colls, dict) else {}
    if isinstance(results.get("all_reduce"), dict):
        out["all_reduce"] = results["all_reduce"]
        if list(out)[0] != "all_reduce":
            out = {"all_reduce": out.pop("all_reduce"), **out}
    return {k: v for k, v in out.items() if isinstance(v, dict) and v.get("rows")}


def _has_pct(t: dict[str, Any]) -> bool:
    return any(r.get("expected_pct") is not None for r in t["rows"])


def _ratio(r: dict[str, Any]) -> float:
    return r.get("time_us_max", r["time_us"]) / max(r.get("time_us_min", r["time_us"]), 1e-9)


def console_lines(name: str, t: dict[str, Any]) -> list[str]:
    """nccl-tests' column layout (the in-place columns: torch's all_reduce and broadcast are)."""
    pct = _has_pct(t)
    head = HEADER.format(pct=" % exp  " if pct else "", unit="   (%)  " if pct else "")
    lines = [
        f"# {name} · {t['backend']} · {t['world_size']} ranks · warm-up {t['warmup']} · iters {t['iters']}",
        *head.splitlines(),
    ]
    for r in t["rows"]:
        p = (f"{r['expected_pct']:>7.1f} " if r.get("expected_pct") is not None else "      - ") if pct else ""
        lines.append(
            f"{r['size']:>12} {r['count']:>13} {r.get('type', 'float'):>9} {r.get('redop', 'sum'):>7} "
            f"{r.get('root', -1):>7} "
            f"{r['time_us']:>9.1f} {r['algbw_gbps']:>7.3f} {r['busbw_gbps']:>7.3f} {p}{r['wrong']:>7} "
            f"{r.get('slowest_rank', ''):>8} {_ratio(r):>8.2f}"
        )
    wrong = sum(r["wrong"] for r in t["rows"])
    lines.append(f"# Out of bounds values : {wrong} {'FAILED' if wrong else 'OK'}")
    lines.append(f"# Avg bus bandwidth    : {t['avg_busbw_gbps']:.4f} GB/s   (peak {t['peak_busbw_gbps']:.4f} GB/s)")
    return lines


def all_console_lines(results: dict[str, Any]) -> list[str]:
    out: list[str] = []
    for name, t in tables(results).items():
        out += console_lines(name, t)
    exp = results.get("expected")
    if exp:
        out.append(f"# Expected busbw: {exp_note(exp)}")
    return out


def exp_note(exp: dict[str, Any]) -> str:
    if not exp.get("platform"):
        return exp.get("reason", "no reference applies")
    p = exp["platform"]
    return (
        f"{p['name']}: {p['busbw_gbps']:g} GB/s {p['collective']} busbw ({p['scope']}), "
        f"source {p['source']} -- {exp.get('reason', '')}".rstrip(" -")
    )


def table_rows(t: dict[str, Any]) -> tuple[list[str], list[list[Any]]]:
    """Headers and rows for the Markdown and HTML tables."""
    pct = _has_pct(t)
    headers = [
        "size (B)",
        "count (elements)",
        "type",
        "redop",
        "root",
        "time (us)",
        "algbw (GB/s)",
        "busbw (GB/s)",
        *(["% of expected"] if pct else []),
        "#wrong",
        "slowest rank",
        "max/min time (ratio)",
    ]
    rows = []
    for r in t["rows"]:
        p = [f"{r['expected_pct']:.1f}" if r.get("expected_pct") is not None else ""] if pct else []
        rows.append(
            [
                r["size"],
                r["count"],
                r.get("type", "float"),
                r.get("redop", "sum"),
                r.get("root", -1),
                f"{r['time_us']:.1f}",
                f"{r['algbw_gbps']:.3f}",
                f"{r['busbw_gbps']:.3f}",
                *p,
                r["wrong"],
                r.get("slowest_rank", ""),
                f"{_ratio(r):.2f}",
            ]
        )
    return headers, rows
