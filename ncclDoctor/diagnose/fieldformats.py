"""The field's own outputs in ``diagnose``: nccl-tests, NCCL RAS and DCGM diagnostics.

``read(inputs)`` looks at the first bytes of every regular file among the inputs
(``ncclDoctor.fieldformats.sniff``); the ones in a known format are parsed and turned into
findings (``rules/codes/field.py``, FLD0xx) and a summary for ``report.results["field"]``.
JSON outputs are then taken out of the log scan (their content is not log lines);
nccl-tests text stays in it, since NCCL's own WARN lines are often interleaved there.
stdin and pipes are read once, by the log scan, so they are not looked at here.
NCCL RAS's text report is also recognised behind line prefixes, CRLF and colours (pasted into
a job log or captured by kubectl): those are taken off its lines first (``_plain``).
"""

from __future__ import annotations

import dataclasses
import os
from typing import Any

from ncclDoctor import fieldformats
from ncclDoctor.diagnose.load import Input, open_input
from ncclDoctor.fieldformats import nccl_tests
from ncclDoctor.findings import Finding
from ncclDoctor.rules.codes import field as R

MAX_BYTES = 64 << 20


def _where(d: dict[str, Any]) -> str:
    host = d.get("host") or "unknown host"
    return f"{host} (pid {d['pid']})" if d.get("pid") else host


def from_nccl_tests(doc: dict[str, Any], path: str) -> list[Finding]:
    out = []
    for t in doc["tests"]:
        name = t["program"] or "nccl-tests"
        bad = nccl_tests.wrong_rows(t)
        if bad or t["out_of_bounds_failed"]:
            sizes = sorted({r["size"] for r in bad})
            out.append(
                R.NCCL_TESTS_WRONG.finding(
                    f"{name} in {path}: wrong results at {len(sizes)} size(s) ({', '.join(map(str, sizes[:6]))} B)"
                    + (f"; 'Out of bounds values : {t['out_of_bounds']}'." if t["out_of_bounds"] else "."),
                    evidence=bad[:8],
                )
            )
        hosts = {d["host"] for d in t["devices"]}
        if t["avg_busbw_gbps"] == 0 and len(t["devices"]) <= 1:
            out.append(
                R.NCCL_TESTS_ONE_RANK.finding(
                    f"{name} in {path}: {len(t['devices']) or 'one'} rank per test and 'Avg bus bandwidth : 0'"
                    + (f" on {', '.join(sorted(hosts))}" if hosts else "")
                    + "."
                )
            )
        if t["min_bw_failed"]:
            out.append(
                R.NCCL_TESTS_MIN_BW.finding(
                    f"{name} in {path}: Avg bus bandwidth {t['avg_busbw_gbps']} GB/s, FAILED against "
                    "NCCL_TESTS_MIN_BW.",
                    nodes=sorted(hosts),
                )
            )
    return out


def from_ras(doc: dict[str, Any], path: str) -> list[Finding]:
    out = []
    if doc["dead"]:
        who = [(f"rank {d['rank']} on " if d.get("rank") is not None else "") + _where(d) for d in doc["dead"]]
        out.append(
            R.RAS_DEAD.finding(
                f"{path}: dead: {'; '.join(who[:10])}.",
                ranks=[d["rank"] for d in doc["dead"] if d.get("rank") is not None],
                nodes=sorted({d["host"] for d in doc["dead"] if d.get("host")}),
                evidence=doc["dead"][:20],
            )
        )
    if doc["missing"]:
        who = [(f"rank {d['rank']} on " if d.get("rank") is not None else "") + _where(d) for d in doc["missing"]]
        out.append(
            R.RAS_MISSING.finding(
                f"{path}: no data from {'; '.join(who[:10])}.",
                ranks=[d["rank"] for d in doc["missing"] if d.get("rank") is not None],
                nodes=sorted({d["host"] for d in doc["missing"] if d.get("host")}),
                evidence=doc["missing"][:20],
            )
        )
    for lag in doc["lagging"]:
        listed = [r for r in lag["ranks"]]
        who = (
            ", ".join(f"rank {r['rank']} on {_where(r)}" for r in listed[:10])
            or f"{lag['group_size']} rank(s) (not listed)"
        )
        out.append(
            R.RAS_LAGGING.finding(
                f"{path}: communicator {lag['comm']}, {lag['op']}: {who} launched up to operation {lag['launched']} "
                f"where others reached {lag['others']}.",
                ranks=[r["rank"] for r in listed],
                nodes=sorted({r["host"] for r in listed if r.get("host")}),
                evidence=[lag],
            )
        )
    if doc["errors"]:
        who = [f"rank {e['rank']} ({e['error']}) on {_where(e)}" for e in doc["errors"]]
        out.append(
            R.RAS_ERRORS.finding(
                f"{path}: {'; '.join(who[:10])}.",
                ranks=[e["rank"] for e in doc["errors"]],
                nodes=sorted({e["host"] for e in doc["errors"] if e.get("host")}),
                evidence=doc["errors"][:20],
            )
        )
    return out


def from_dcgm(doc: dict[str, Any], path: str) -> list[Finding]:
    out = []
    for status, rule in (("fail", R.DCGM_FAILED), ("warn", R.DCGM_WARN)):
        hits = [t for t in doc["tests"] if str(t["status"]).lower() == status]
        for t in hits:
            serial = (doc["gpus"].get(t["entity"]) or {}).get("serial")
            msg = f"{path}: {t['name']} ({t['category']}) {t['status']} on {t['entity']}"
            msg += (
                (f" (serial {serial})" if serial else "")
                + (": " + " ".join(t["messages"])[:400] if t["messages"] else "")
                + "."
            )
            out.append(rule.finding(msg, evidence=[t]))
    if doc.get("runtime_error"):
        out.append(R.DCGM_FAILED.finding(f"{path}: DCGM could not run its diagnostics: {doc['runtime_error']}."))
    return out


def _bw(r: dict[str, Any]) -> float | None:
    """One busbw per size, as nccl-tests' "Avg bus bandwidth" counts it: the mean of both sides."""
    vals = [r[s]["busbw_gbps"] for s in ("out_of_place", "in_place") if r.get(s) and r[s]["busbw_gbps"] is not None]
    return round(sum(vals) / len(vals), 3) if vals else None


def nccl_tests_summary(t: dict[str, Any]) -> dict[str, Any]:
    """What a reader of one nccl-tests table wants at a glance, and the rows for the report's table."""
    hosts = sorted({d["host"] for d in t["devices"]})
    rows = [{"size": r["size"], "busbw_gbps": _bw(r), "wrong": bool(nccl_tests.wrong_rows({"rows": [r]}))}
            for r in t["rows"]]
    measured = [r for r in rows if r["busbw_gbps"] is not None]
    peak = max(measured, key=lambda r: r["busbw_gbps"]) if measured else None
    name, inferred = (t["collective"], None) if t["collective"] else nccl_tests.infer_collective(t)
    return {
        "collective": name,
        "collective_inferred": inferred,  # the reasoning, when the program name is not in the input
        "program": t["program"],
        "ranks": len(t["devices"]),
        "hosts": hosts,
        "gpus": sorted({d["name"] for d in t["devices"] if d.get("name")}),
        "sizes": len(t["rows"]),
        "rows": rows,
        "peak_busbw_gbps": peak["busbw_gbps"] if peak else None,
        "peak_size": peak["size"] if peak else None,
        "avg_busbw_gbps": t["avg_busbw_gbps"],
        "out_of_bounds": t["out_of_bounds"],
        "wrong_sizes": sorted({r["size"] for r in rows if r["wrong"]}),
    }


def against_reference(s: dict[str, Any], path: str) -> tuple[dict[str, Any], list[Finding]]:
    """The published fleet floor (``analysis.expected``) for the devices the output lists, and BW301
    when the output is below it. An excerpt without its device lines, a mixed or unknown platform,
    or (between nodes) a transport the output does not state is not judged, and says why."""
    from ncclDoctor.analysis import expected

    if not s["ranks"]:
        return {"platform": None, "reason": "not compared: the output lists no devices (its preamble is not "
                                            "in the input)"}, []
    per_node = s["ranks"] // max(1, len(s["hosts"]))
    names = [{"name": g} for g in s["gpus"]] * per_node if len(s["gpus"]) == 1 else [{"name": g} for g in s["gpus"]]
    rows, reasons = {}, []
    for rdma in (False, True):  # the output does not say whether RDMA was used between nodes
        host = {"gpus": {"devices": names}, "ib": {"hcas": [{"ports": [{"state": "ACTIVE"}]}]} if rdma else {}}
        ref = expected.detect(host, nnodes=len(s["hosts"]) or 1, gpus_per_node=per_node, backend="nccl")
        if ref["platform"]:
            rows[ref["platform"]["id"]] = ref
        reasons.append(ref["reason"])
    if len(rows) > 1:
        return {"platform": None, "reason": "no reference applies: the output does not say which transport ran "
                                            "between the nodes (" + ", ".join(rows) + ")"}, []
    if not rows:
        return {"platform": None, "reason": next((r for r in reasons if "several" in r), reasons[0])}, []
    ref = next(iter(rows.values()))
    p = ref["platform"]
    brief = {k: p[k] for k in ("id", "name", "collective", "busbw_gbps", "size_bytes", "source")}
    if s["collective"] != p["collective"]:
        what = f"this output is {s['collective']}" if s["collective"] else "the input does not name its collective"
        return {"platform": brief, "reason": f"{ref['reason']}; not compared: the reference is for "
                                             f"{p['collective']}, {what}"}, []
    table = {"rows": [r for r in s["rows"] if r["busbw_gbps"] is not None]}  # annotate writes expected_pct in them
    results = {"collectives": {p["collective"]: table}}
    exp = expected.annotate(results, ref)
    found = [dataclasses.replace(f, message=f"{path}: {f.message}") for f in expected.judge(exp, results, s["hosts"])]
    return {"platform": brief, "reason": exp["reason"], "below_pct": exp["below_pct"]}, found


def _summary(fmt: str, doc: dict[str, Any], path: str) -> tuple[dict[str, Any], list[Finding]]:
    s: dict[str, Any] = {"format": fmt, "path": path}
    found: list[Finding] = []
    if "tests" in doc and fmt.startswith("nccl-tests"):
        s["tests"] = []
        for t in doc["tests"]:
            one = nccl_tests_summary(t)
            one["expected"], more = against_reference(one, path)
            s["tests"].append(one)
            found += more
    elif fmt == "dcgm":
        s["tests"] = len(doc["tests"])
        s["failed"] = sum(1 for t in doc["tests"] if str(t["status"]).lower() == "fail")
    else:
        s.update({k: len(doc[k]) for k in ("dead", "missing", "errors", "lagging")})
    return s, found


BUILDERS = {
    "nccl-tests": from_nccl_tests,
    "nccl-tests-json": from_nccl_tests,
    "ras": from_ras,
    "ras-json": from_ras,
    "dcgm": from_dcgm,
}


def _head(inp: Input) -> bytes:
    fh = open_input(inp)
    if fh is None:
        return b""
    with fh:
        return fh.read(fieldformats.SNIFF_BYTES)


def _read(inp: Input) -> bytes:
    fh = open_input(inp)
    if fh is None:
        return b""
    with fh:
        return fh.read(MAX_BYTES)


def _plain(data: bytes) -> bytes:
    """The text without what a terminal or a log collector added to each line (\\r, colours,
    signatures.strip_prefixes), its hard-wrapped lines joined (ingest.unwrap, as the log scan reads them):
    ncclras's report or an nccl-tests table pasted into a job log, a kubectl capture or an issue box."""
    from ncclDoctor.diagnose.ingest import unwrap, wrap
    from ncclDoctor.diagnose.load import SNIFF
    from ncclDoctor.diagnose.signatures import R_ANSI, strip_prefixes

    text = data.decode("utf-8", "replace")
    found = wrap(data[:SNIFF])
    text = R_ANSI.sub("", unwrap(text, *found) if found is not None else text)
    return "\n".join(strip_prefixes(line) for line in text.splitlines()).encode()


def _sniff(inp: Input) -> tuple[str | None, bool]:
    """The input's format, and whether its lines must be made plain first (NCCL RAS's text report and
    nccl-tests' table are looked for behind prefixes -- a collector's timestamps, a launcher's rank, colours,
    Markdown quoting: the table read there is the same table; the other formats are JSON)."""
    head = _head(inp)
    fmt = fieldformats.sniff(head, inp.path)
    if fmt is None and (found := fieldformats.sniff(_plain(head), inp.path)) in ("ras", "nccl-tests"):
        return found, True
    return fmt, False


def _rows(doc: dict[str, Any]) -> int:
    return sum(len(t["rows"]) for t in doc["tests"])


def _more_rows(data: bytes) -> dict[str, Any]:
    """nccl-tests' header, device and footer lines are found behind a paste's prefixes (Markdown quoting, colours,
    a collector's timestamps, a hard wrap), its result rows are not (they are read from the line's start): the
    table read from the plain lines (``_plain``) where that holds more result rows, or where the lines as they are
    hold no table. ValueError when neither does."""
    try:
        doc = fieldformats.parse("nccl-tests", data)
    except ValueError:
        return fieldformats.parse("nccl-tests", _plain(data))
    try:
        alt = fieldformats.parse("nccl-tests", _plain(data))
    except ValueError:
        return doc
    return alt if _rows(alt) > _rows(doc) else doc


def read(inputs: list[Input]) -> tuple[list[Finding], list[dict[str, Any]]]:
    findings: list[Finding] = []
    summaries: list[dict[str, Any]] = []
    for inp in inputs:
        if inp.opener is None or not os.path.isfile(inp.path):
            continue
        try:
            fmt, plain = _sniff(inp)
            if fmt is None:
                continue
            data = _read(inp)
            if fmt == "nccl-tests" and not plain:
                doc = _more_rows(data)
            else:
                doc = fieldformats.parse(fmt, _plain(data) if plain else data)
        except (OSError, EOFError, ValueError) as exc:
            inp.notes.append(f"read as a field output: {exc}")
            continue
        summary, judged = _summary(fmt, doc, inp.path)
        findings += BUILDERS[fmt](doc, inp.path) + judged
        summaries.append(summary)
        if fmt in ("dcgm", "ras-json", "nccl-tests-json"):
            inp.kind, inp.opener = f"field:{fmt}", None  # JSON: no log lines in it
        # a text report (NCCL RAS's) stays in the log scan: a job log that holds one holds the job's own lines too
    return findings, summaries
