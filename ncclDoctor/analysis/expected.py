"""Expected busbw: which published reference applies to this run, and how far off it is.

    ref = detect(host, nnodes=1, gpus_per_node=8, backend="nccl", env=os.environ)
    expected = annotate(results, ref, below_pct=90)   # sets row["expected_pct"], returns results["expected"]
    findings = judge(expected, results)                # BW301 when far below

``detect`` reads the facts ``ncclDoctor env``/``check`` already collect: NVML's device
names and count (``host["gpus"]``), the RDMA ports in sysfs (``host["ib"]``), and
LD_LIBRARY_PATH for the transport plugin; it returns the one row of
``knowledge.platforms.PLATFORMS`` that matches, or why none does (a CPU run, GPUs not in
the table, several rows matching). The row applies to one collective and scope: an
intra-node row to the all_reduce table of a one-node run over every GPU of the node, an
inter-node row to the all_gather table of a run over that many nodes.

``annotate`` writes ``expected_pct`` = busbw / reference x 100 into every row of that
table (shown beside busbw in every renderer). ``judge`` raises BW301 when the best busbw
at sizes >= half the reference's size is below ``below_pct`` % of it (default 90:
nccl-tests' own ``NCCL_TESTS_MIN_BW`` check fails below 0.9 x the value). A sweep that
never reaches that size is not judged, and the report says so.
"""

from __future__ import annotations

import re
from typing import Any, Mapping

from ncclDoctor.findings import Finding
from ncclDoctor.knowledge.platforms import PLATFORMS
from ncclDoctor.rules.codes.bw import BELOW_REFERENCE

DEFAULT_BELOW_PCT = 90.0


def _gpus(host: Mapping[str, Any]) -> list[str]:
    return [str(d.get("name", "")) for d in (host.get("gpus") or {}).get("devices", [])]


def _rdma_active(host: Mapping[str, Any]) -> bool:
    for hca in (host.get("ib") or {}).get("hcas", []):
        for port in hca.get("ports", []) if isinstance(hca.get("ports"), list) else (hca.get("ports") or {}).values():
            if isinstance(port, dict) and "ACTIVE" in str(port.get("state", "")).upper():
                return True
    return False


def detect(
    host: Mapping[str, Any], nnodes: int, gpus_per_node: int, backend: str, env: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """``{"platform": row or None, "detected": facts, "reason": why}``."""
    names = _gpus(host)
    facts = {
        "gpu": names[0] if names else None,
        "gpus": len(names),
        "gpus_per_node": gpus_per_node,
        "nodes": nnodes,
        "rdma": _rdma_active(host),
        "backend": backend,
    }
    if backend != "nccl" or not names:
        why = "a CPU (gloo) run" if backend != "nccl" else "no GPU seen through NVML"
        return {"platform": None, "detected": facts, "reason": f"no reference applies: {why}"}
    if len(set(names)) > 1:
        return {
            "platform": None,
            "detected": facts,
            "reason": f"no reference applies: mixed GPU models {sorted(set(names))}",
        }
    lib = (env or {}).get("LD_LIBRARY_PATH", "")
    rows = [
        p
        for p in PLATFORMS
        if re.search(p["gpu"], names[0])
        and p["gpus_per_node"] == gpus_per_node == len(names)
        and (
            p["nodes"] == nnodes if p["scope"] == "intra-node" else nnodes >= p["nodes"] and p["rdma"] == facts["rdma"]
        )
    ]
    hinted = [p for p in rows if p.get("hint") and p["hint"] in lib]
    rows = hinted or rows
    if len(rows) == 1:
        return {"platform": rows[0], "detected": facts, "reason": f"matched {rows[0]['id']}"}
    if rows:
        return {
            "platform": None,
            "detected": facts,
            "reason": "no reference applies: several platforms match (" + ", ".join(p["id"] for p in rows) + ")",
        }
    return {
        "platform": None,
        "detected": facts,
        "reason": f"no reference applies: no published row for {len(names)}x {names[0]} on {nnodes} node(s)",
    }


def annotate(results: dict[str, Any], ref: dict[str, Any], below_pct: float = DEFAULT_BELOW_PCT) -> dict[str, Any]:
    """Write ``expected_pct`` into the matching table's rows; return ``results["expected"]``."""
    out = {**ref, "below_pct": below_pct}
    p = ref.get("platform")
    table = (results.get("collectives") or {}).get(p["collective"]) if p else None
    if p and not table:
        out["reason"] = f"{ref['reason']}; the reference is for {p['collective']}, not run (add --op {p['collective']})"
    elif p:
        for row in table["rows"]:
            row["expected_pct"] = round(row["busbw_gbps"] / p["busbw_gbps"] * 100.0, 1)
    results["expected"] = out
    return out


def judge(expected: dict[str, Any], results: dict[str, Any], where: list[str] | None = None) -> list[Finding]:
    p = expected.get("platform")
    table = (results.get("collectives") or {}).get(p["collective"]) if p else None
    if not p or not table:
        return []
    if not table.get("rows"):  # e.g. a log whose result rows were cut or mangled: nothing to compare
        expected["reason"] += "; not judged: the output has no complete result row"
        return []
    big = [r for r in table["rows"] if r["size"] * 2 >= p["size_bytes"]]
    if not big:
        largest = max(r["size"] for r in table["rows"])
        expected["reason"] += (
            f"; not judged: the sweep stops at {largest} B, the reference was measured at "
            f"{p['size_bytes']} B (run with -e {p['size_bytes'] >> 30}G)"
        )
        return []
    best = max(big, key=lambda r: r["busbw_gbps"])
    if best["busbw_gbps"] >= expected["below_pct"] / 100.0 * p["busbw_gbps"]:
        return []
    return [
        BELOW_REFERENCE.finding(
            f"{p['collective']} busbw peaks at {best['busbw_gbps']:.1f} GB/s (at {best['size']} B), "
            f"{best['busbw_gbps'] / p['busbw_gbps'] * 100:.0f}% of the {p['busbw_gbps']:g} GB/s published for "
            f"{p['name']} ({p['kind']}; {p['source']}).",
            nodes=list(where or []),
            evidence=[
                {
                    "platform": p["id"],
                    "reference_gbps": p["busbw_gbps"],
                    "busbw_gbps": best["busbw_gbps"],
                    "size": best["size"],
                }
            ],
        )
    ]
