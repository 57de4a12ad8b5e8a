"""The view model: what every renderer shows, built once as data.

A *view* turns one key of ``report.results`` (or a part of the report: ranks, settings,
host) into ``Table`` objects; ``evidence_tables(report)`` walks the one registry
``VIEWS`` in order, so Markdown (``report.markdown``) and HTML (``report.html``) render
the same tables and cannot disagree. Every numeric column names its unit in the header:
sizes in bytes (B), times in microseconds (us), bandwidth in GB/s (1 GB = 10^9 B, as
nccl-tests). Adding a table for a new results key is one builder plus one ``VIEWS`` line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ncclDoctor.report.model import Report

VERDICT_TEXT = {"pass": "PASS", "warn": "WARN", "fail": "FAIL", "error": "ERROR (could not complete)"}


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
    """One table per collective (``report.collectives``: ``results["collectives"]``, the
    all_reduce one from ``results["all_reduce"]``); each keeps its collective's name as id."""
    from ncclDoctor.report import collectives as coll

    out = []
    for name, t in coll.tables(results).items():
        headers, rows = coll.table_rows(t)
        note = (f"Peak busbw {t['peak_busbw_gbps']:.3f} GB/s; average over all sizes {t['avg_busbw_gbps']:.3f} GB/s "
                "(nccl-tests' 'Avg bus bandwidth').")
        if results.get("expected"):
            note += " Expected busbw: " + coll.exp_note(results["expected"]) + "."
        if t.get("stopped"):  # the sweep's time budget ended it (check.budget)
            note += f" Sweep {t['stopped']['note']}."
        title = f"{name} ({t['backend']}, {t['world_size']} ranks, {t['iters']} iters, {t['warmup']} warm-up)"
        out.append(Table(name, title, headers, rows, bad={i for i, r in enumerate(t["rows"]) if r["wrong"]}, note=note))
    return out


def baseline_table(b: dict[str, Any]) -> Table:
    rows = [
        [r["table"], r["node"], r["size"], _num(r["baseline_busbw_gbps"], ".3g"), _num(r["busbw_gbps"], ".3g"),
         _num(r["change_pct"], "+.1f"),
         "REGRESSED" if r["regressed"] else ("" if r["change_pct"] is not None else "not compared")]
        for r in b["rows"]
    ]
    return Table(
        "baseline",
        f"busbw against the baseline (fail below -{b['max_regression_pct']:g}%)",
        ["table", "node", "size (B)", "baseline busbw (GB/s)", "busbw (GB/s)", "change (%)", "status"],
        rows, left=2, bad={i for i, r in enumerate(b["rows"]) if r["regressed"]},
        note=f"Baseline {b['file']}, measured {b.get('measured_at')} ({b.get('backend')}, {b.get('world_size')} "
             "ranks).",
    )


def host_table(h: dict[str, Any]) -> Table:
    gpus, tf, shm = h.get("gpus", {}), h.get("torch", {}), h.get("dev_shm", {})
    ifaces = ", ".join(
        f"{i['name']} ({'up' if i['up'] else 'down'}, MTU "
        f"{i['mtu']}{', ' + str(i['speed_mbps']) + ' Mb/s' if i.get('speed_mbps') else ''})"
        for i in h.get("interfaces", [])
    )
    return Table("host", "Host", ["fact", "value"], [
        ["host", h.get("hostname")],
        ["CPUs (affinity)", f"{h.get('cpu_count')} ({len(h.get('cpu_affinity') or [])} usable)"],
        ["memory", f"{(h.get('memory_total_bytes') or 0) / (1 << 30):.1f} GiB"],
        ["/dev/shm", f"{shm['total_bytes'] / (1 << 30):.1f} GiB" if "total_bytes" in shm else shm.get("skipped", "?")],
        ["ulimit -l / -n",
         f"{h.get('ulimit_memlock', {}).get('soft')} B / {h.get('ulimit_nofile', {}).get('soft')} files"],
        ["GPUs",
         gpus.get("skipped") and f"skipped: {gpus['skipped']}" or f"{gpus.get('count')} (driver {gpus.get('driver')})"],
        ["torch / CUDA / NCCL", f"{tf.get('version')} / {tf.get('cuda')} / {tf.get('nccl')}"],
        ["interfaces", ifaces],
    ], left=2)


def _structure(report: Report) -> list[Table]:
    if not (report.results.get("structure") or report.results.get("intra_node_all_reduce")):
        return []
    from ncclDoctor.report.structure import structure_tables

    return structure_tables(report.results)


def _collectives(report: Report) -> list[Table]:
    return collective_tables(report.results)


def _baseline(report: Report) -> list[Table]:
    b = report.results.get("baseline") or {}
    return [baseline_table(b)] if b.get("rows") else []


def _ranks(report: Report) -> list[Table]:
    if not report.ranks:
        return []
    return [Table("ranks", "Ranks",
                  ["rank", "local rank", "host", "address", "pid", "device", "phase", "state", "collectives issued"], [
        [r.get("rank"), r.get("local_rank", ""), r.get("host", ""), r.get("addr", ""), r.get("pid", ""),
         r.get("device", ""),
         r.get("phase", ""), r.get("state", ""), r.get("seq", "")]
        for r in report.ranks
    ], bad={i for i, r in enumerate(report.ranks) if r.get("state") == "error"})]


def _settings(report: Report) -> list[Table]:
    if not report.settings:
        return []
    return [Table("settings", "Distributed settings", ["variable", "value", "status", "meaning"],
                  [[s["name"], s["value"], s["status"], s["meaning"]] for s in report.settings], left=4)]


def field_tables(results: dict[str, Any]) -> list[Table]:
    """One table per nccl-tests result that ``diagnose`` read (``results["field"]``): busbw per size
    (the mean of out-of-place and in-place, as nccl-tests' average counts it) and, where a published
    floor applies, the % of it."""
    out = []
    for i, doc in enumerate(results.get("field") or []):
        for j, t in enumerate(doc.get("tests") if isinstance(doc.get("tests"), list) else []):
            exp = t.get("expected") or {}
            who = f"{t['ranks']} ranks on {len(t['hosts'])} host(s)" if t.get("ranks") else "devices not listed"
            gpus = f", {', '.join(t['gpus'])}" if t.get("gpus") else ""
            name = t.get("program") or (f"{t['collective']} (inferred)" if t.get("collective") else "nccl-tests")
            title = f"{name} in {doc['path']} ({who}{gpus})"
            judged = any(r.get("expected_pct") is not None for r in t.get("rows", []))
            rows = [[r["size"], _num(r["busbw_gbps"], ".3f")] + ([_num(r.get("expected_pct"), ".0f")] if judged else [])
                    + ["WRONG" if r["wrong"] else "ok"] for r in t.get("rows", [])]
            peak = (f"Peak busbw {_num(t.get('peak_busbw_gbps'), '.3f')} GB/s at {t.get('peak_size')} B"
                    if t.get("peak_busbw_gbps") is not None else "No complete result row")
            note = (peak
                    + (f"; Avg bus bandwidth {t['avg_busbw_gbps']} GB/s" if t.get("avg_busbw_gbps") is not None else "")
                    + (f"; out of bounds values {t['out_of_bounds']}" if t.get("out_of_bounds") is not None else "")
                    + (f". Collective: {t['collective_inferred']}" if t.get("collective_inferred") else "")
                    + f". Expected: {exp.get('reason', 'not compared')}.")
            headers = ["size (B)", "busbw (GB/s)"] + (["% of reference"] if judged else []) + ["values"]
            out.append(Table(f"field-{i}-{j}", title, headers,
                             rows, bad={k for k, r in enumerate(t.get("rows", [])) if r["wrong"]}, note=note))
    return out


def _field(report: Report) -> list[Table]:
    return field_tables(report.results)


def _host(report: Report) -> list[Table]:
    return [host_table(report.host)] if report.host else []


# The one registry, in display order: a results key (or report part) -> its tables.
VIEWS: dict[str, Callable[[Report], list[Table]]] = {
    "collectives": _collectives,  # also all_reduce
    "structure": _structure,  # also intra_node_all_reduce
    "baseline": _baseline,
    "field": _field,  # nccl-tests outputs read by diagnose
    "ranks": _ranks,
    "settings": _settings,
    "host": _host,
}


def evidence_tables(report: Report) -> list[Table]:
    return [t for view in VIEWS.values() for t in view(report)]


def suppressed_note(report: Report) -> str:
    sup = (report.config.get("gates") or {}).get("suppressed") or {}
    if not sup:
        return ""
    return "Not shown (--select/--ignore): " + ", ".join(f"{c} x{n}" for c, n in sorted(sup.items())) + "."
