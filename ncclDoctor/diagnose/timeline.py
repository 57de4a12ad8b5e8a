"""Timeline stage: the per-rank table, ``report.results["diagnose"]`` and next steps.

``results["diagnose"]`` holds: ``world_size`` (value, source, confidence), ``inputs``
(path, kind, bytes, lines, notes), ``events`` (count per family), ``conclusions``
(kind, confidence, ranks, pg, seq, message, evidence), ``ranks`` (per rank: role,
hosts, files, last collective per process group, first error, timeline) and
``next_steps``. The console and Markdown views below only render these fields.
"""

from __future__ import annotations

from typing import Any

from ncclDoctor.diagnose.load import Input
from ncclDoctor.diagnose.reason import Conclusion, waiting
from ncclDoctor.diagnose.signatures import FR_ON
from ncclDoctor.diagnose.state import Collected, RankState
from ncclDoctor.findings import Finding

MAX_INPUTS_LISTED = 200


def _role(r: int, conclusions: list[Conclusion], st: RankState | None, v=None) -> str:
    for k in conclusions:
        if r in k.ranks and k.kind == "first_failure":
            return "failed first"
    # the verdict may weigh a rank otherwise than the conclusions (a low hang reading that the rank's own
    # exception settles at medium), or name one they do not: the table says what the verdict says of it
    named = v is not None and isinstance(v.culprits, list) and r in v.culprits
    for k in conclusions:
        if r in k.ranks and k.kind in ("culprit", "desync"):
            if k.kind == "desync":
                return f"desync ({k.confidence})"
            return f"culprit ({v.confidence if named else k.confidence})"
    if named:
        return f"culprit ({v.confidence})"
    if st is None:
        return "no logs"
    if waiting(st):
        return "victim (timed out)" if st.timeouts else "victim (lost peer)"
    if st.errors:
        return "error"
    return "no failure seen"


def _last_collective(st: RankState) -> str:
    parts = []
    for pg, t in sorted(st.timeouts.items()):
        parts.append(f"pg {pg}: timed out "
                     + (f"#{t.seq} {t.op or ''}".rstrip() if t.seq is not None else "(no SeqNum)"))
    for pg, s in sorted(st.status.items()):
        if pg not in st.timeouts:
            parts.append(f"pg {pg}: enqueued #{s.data['enqueued']}, completed #{s.data['completed']}")
    if st.fr:
        for pg, tr in sorted(st.fr.pgs.items()):
            # gloo records no progress
            done = f", started #{tr.last_started}, completed #{tr.last_completed}" if tr.backend != "gloo" else ""
            parts.append(f"pg {pg}: FR enqueued #{tr.last_enqueued}{done}")
    return "; ".join(parts[:4])


def _event_row(e) -> dict[str, Any]:
    return {"ts": e.ts, "where": e.where, "kind": e.kind, "text": e.text[:200]}


def rank_rows(c: Collected, conclusions: list[Conclusion], world: int | None, v=None) -> list[dict[str, Any]]:
    ranks = set(c.ranks)
    for k in conclusions:
        ranks.update(k.ranks)
    if world and world <= 4096:
        ranks.update(range(world))
    rows = []
    for r in sorted(ranks):
        st = c.ranks.get(r)
        rows.append({
            "rank": r, "role": _role(r, conclusions, st, v),
            "hosts": sorted(st.hosts) if st else [], "files": sorted(st.files) if st else [],
            "last_collective": _last_collective(st) if st else "",
            "first_error": st.errors[0].brief() if st and st.errors else None,
            "counts": dict(st.counts) if st else {},
            "timeline": [_event_row(e) for e in st.timeline()] if st else [],
        })
    return rows


def next_steps(c: Collected, conclusions: list[Conclusion], findings: list[Finding], v=None) -> list[str]:
    """The verdict's fix first; then the steps the findings call for. Never a step that
    contradicts a finding (no "nothing explains a failure" beside an error)."""
    codes = {f.code for f in findings}
    steps = []
    if v is not None and v.cause != "none":
        steps.append(f"{v.summary[:400]} ({v.confidence} confidence). Fix: {v.fix}")
    order = {"first_failure": 0, "desync": 1, "culprit": 2}
    conf = {"high": 0, "medium": 1, "low": 2}
    named = sorted((k for k in conclusions if k.kind in order and k.ranks),
                   key=lambda k: (conf[k.confidence], order[k.kind]))
    rank_causes = ("rank_missing", "desync", "cuda_error", "gpu_oom", "host_oom", "early_exit")
    if named and (v is None or v.cause in rank_causes):
        k = named[0]
        files = sorted({f for r in k.ranks[:4] if r in c.ranks for f in c.ranks[r].files})[:3]
        what = {"first_failure": "it failed first", "desync": "it issued a different collective",
                "culprit": "the others waited for it"}[k.kind]
        steps.append(f"Start with rank {', '.join(map(str, k.ranks[:4]))}: {what} ({k.confidence} confidence). "
                     + (f"Its log: {', '.join(files)}." if files else "Its log is not in the input: collect it."))
    # (XCCL's work timeout, oneCCL on XPU: NCCL's words and Flight Recorder dumps do not apply; its verdict names its
    # own knobs)
    tos = c.samples.get("watchdog_timeout", [])
    xccl = bool(tos) and all(e.data.get("backend") == "xccl" for e in tos)
    if "LOG005" in codes:
        steps.append("Do not raise the timeout to 'fix' this: "
                     + ("" if xccl else "NCCL has no NCCL_TIMEOUT, and ") + "a longer "
                     "init_process_group(timeout=...) only delays the same crash when a rank never arrives.")
        if not c.kinds.get("fr_dump") and not xccl:
            steps.append("Rerun with the Flight Recorder on (" + FR_ON + ") so every "
                         "rank dumps its Flight Recorder trace on timeout; give the dumps to `ncclDoctor diagnose` "
                         "with the logs.")
    if codes & {"LOG004", "LOG011", "LOG012", "LOG019", "LOG010"}:
        steps.append("Run `ncclDoctor check --nodes N` on the same nodes to measure each link and localize a slow or "
                     "broken one.")
    # (not for a stale shared-memory block left in /dev/shm: no number of workers removes it)
    if "LOG016" in codes and not all(e.data.get("shm_exists") for e in c.samples.get("dataloader", [])):
        steps.append("Run `ncclDoctor sweep-workers` to pick num_workers / pin_memory that fit the node's shared "
                     "memory.")
    if "LOG032" in codes:
        steps.append("Collect the logs of the ranks listed in LOG032 and rerun `ncclDoctor diagnose` on all of them.")
    if "LOG002" in codes:
        steps.append("Rerun with TORCH_DISTRIBUTED_DEBUG=DETAIL to have torch check collective types and shapes across "
                     "ranks.")
    if not steps:
        head, _, said = v.summary.partition(": ") if v is not None else ("", "", "")
        if v is not None and v.cause == "none" and said and v.fix.startswith(said[:120]):
            # a benign reading's summary and fix open with the same sentences: say them once, not a cut copy first
            steps.append(f"{head}: {v.fix}")
        elif v is not None:
            steps.append(f"{v.summary[:400]}. {v.fix}")
        else:
            steps.append("Nothing in the input explains a distributed failure; "
                         "`ncclDoctor check` tests this node's collectives directly.")
    return steps


def results(
    c: Collected, conclusions: list[Conclusion], inputs: list[Input], findings: list[Finding], v=None
) -> dict[str, Any]:
    ws = next((k for k in conclusions if k.kind == "world_size"), None)
    return {
        "world_size": {"value": ws.seq if ws else None, "source": ws.evidence[0] if ws else "",
                       "confidence": ws.confidence if ws else "low"},
        "inputs": [i.to_dict() for i in inputs[:MAX_INPUTS_LISTED]],
        "inputs_total": len(inputs),
        "bytes_read": sum(i.bytes_read for i in inputs),
        "events": dict(c.kinds),
        "unranked_events": dict(c.unranked),
        "conclusions": [k.to_dict() for k in conclusions if k.kind != "world_size"],
        "ranks": rank_rows(c, conclusions, ws.seq if ws else None, v),
        "next_steps": next_steps(c, conclusions, findings, v),
        "verdict": v.to_dict() if v is not None else None,
    }


def report_ranks(rows: list[dict[str, Any]], c: Collected) -> list[dict[str, Any]]:
    """The report's generic rank table (report.schema.json): state = the rank's role,
    seq = the highest collective sequence number it is known to have enqueued, phase =
    its last event; the description of every process group is in results.diagnose."""
    return [{"rank": r["rank"], "host": ", ".join(r["hosts"]) or None, "state": r["role"],
             "seq": _highest_seq(c.ranks.get(r["rank"])),
             "phase": r["timeline"][-1]["kind"] if r["timeline"] else None} for r in rows]


def _highest_seq(st: RankState | None) -> int | None:
    if st is None:
        return None
    seqs = [t.seq for t in st.timeouts.values() if t.seq is not None]
    seqs += [s.data["enqueued"] for s in st.status.values()]
    seqs += [tr.last_enqueued for tr in st.fr.pgs.values() if tr.last_enqueued >= 0] if st.fr else []
    return max(seqs, default=None)


def markdown(d: dict[str, Any]) -> list[str]:
    ws = d["world_size"]
    out = ["", "## Diagnosis", "", f"World size: {ws['value'] if ws['value'] is not None else 'unknown'} "
           f"({ws['source']}; {ws['confidence']} confidence). Read {d['inputs_total']} input(s), "
           f"{d['bytes_read'] / 1e6:.1f} MB.", ""]
    v = d.get("verdict")
    if v:
        culprits = f"; culprit rank(s) {', '.join(map(str, v['culprits']))}" if v["culprits"] else ""
        out += ["### Verdict", "", f"**{v['cause']}** ({v['confidence']} confidence{culprits}): {v['summary']}",
                "", f"Fix: {v['fix']}", ""] + [f"- `{p[:200].replace('`', chr(39))}`" for p in v["proof"][:4]] + [""]
    out += ["### Next steps", ""] + [f"{i}. {s}" for i, s in enumerate(d["next_steps"], 1)] + [""]
    out += ["### Per-rank timeline", ""]
    shown = [r for r in d["ranks"] if r["timeline"] or r["role"] != "no failure seen"][:64]
    for r in shown:
        out.append(f"- **rank {r['rank']}** {r['role']}" + (f" on {', '.join(r['hosts'])}" if r["hosts"] else "")
                   + (f" — {r['last_collective']}" if r["last_collective"] else ""))
        for e in r["timeline"][-6:]:
            out.append(f"  - `{e['where']}` {e['kind']}: {e['text'][:160].replace('`', chr(39))}")
    if len(d["ranks"]) > len(shown):
        out.append(f"- ... {len(d['ranks']) - len(shown)} more rank(s) in report.json (results.diagnose.ranks)")
    return out


def console_lines(d: dict[str, Any], limit: int = 16) -> list[str]:
    ws = d["world_size"]
    lines = [f"# diagnose · {d['inputs_total']} input(s) · {d['bytes_read'] / 1e6:.1f} MB · world size "
             f"{ws['value'] if ws['value'] is not None else '?'} ({ws['confidence']})",
             f"# {'rank':>5}  {'role':<22} {'host':<16} last collective / first error"]
    interesting = [r for r in d["ranks"] if r["role"] not in ("no failure seen", "victim (timed out)")]
    victims = [r for r in d["ranks"] if r["role"] == "victim (timed out)"]
    for r in (interesting + victims)[:limit]:
        detail = r["last_collective"] or (r["first_error"] or "")
        lines.append(f"  {r['rank']:>5}  {r['role']:<22} {(', '.join(r['hosts']) or '-')[:16]:<16} {detail[:110]}")
    rest = len(interesting) + len(victims) - limit
    if rest > 0:
        lines.append(f"  ... {rest} more rank(s): see report.md / report.json")
    v = d.get("verdict")
    if v:
        lines.append(f"verdict: {v['cause']} ({v['confidence']}"
                     + (f", culprit rank(s) {', '.join(map(str, v['culprits'][:8]))}" if v["culprits"] else "") + ")")
    lines += [f"next: {s}" for s in d["next_steps"][:4]]
    return lines
