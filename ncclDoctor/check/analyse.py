"""From a finished probe run to the report's tables, findings and exit code (pure).

``fill(report, plan, out, identities, failures)`` reads the supervisor's ``Outcome``
(phase markers, results per rank and phase), the identities the ranks published before
init and torchrun's failure record; it writes ``report.ranks``, ``report.nodes`` and
``report.results`` (``run``, ``smoke``, ``collectives`` -- one table per collective of
``--op``, keyed by its name -- and ``all_reduce``, the same all_reduce table where older
readers look for it; with several nodes also
``structure`` and ``intra_node_all_reduce``) and adds the findings: every rank's env
lint, BW001 (a straggler), RUN005 (wrong results), the verdict of
``analysis.verdict`` (RUN001-RUN004, RUN105) and, with several nodes, the consistency diff
(CON), the structure findings (BW2xx) and RUN101 (a node's ranks failed with their own
error). It returns the run's exit code (OK when it ran).

One ``locator`` names a rank's node for every N: its inventory, else its identity,
else another rank of its node (torchrun numbers ranks node by node), else -- at N = 1
only -- this node.
"""

from __future__ import annotations

import statistics
from typing import Any, Callable

from ncclDoctor.analysis import bandwidth, consistency, expected, structure, verdict
from ncclDoctor.check.options import Plan
from ncclDoctor.errors import ExitCode
from ncclDoctor.facts.network import node_label
from ncclDoctor.findings import Finding
from ncclDoctor.knowledge.env_vars import is_surfaced
from ncclDoctor.launch.supervisor import Outcome
from ncclDoctor.report.model import Report
from ncclDoctor.rules import env as env_rules
from ncclDoctor.rules.codes import run as run_rules
from ncclDoctor.rules.codes.bw import STRAGGLER
from ncclDoctor.rules.codes.run import RANK_ERRORS, SIZE_OVER_BUDGET

Locate = Callable[[int], "tuple[str | None, str | None]"]
Label = Callable[[int], str]


def inventories(out: Outcome) -> dict[int, dict[str, Any]]:
    """rank -> inventory, its env narrowed to the settings we surface (the probe
    publishes every variable under the distributed prefixes, unfiltered)."""
    invs = {}
    for r, res in out.results.items():
        inv = res.get("inventory")
        if inv:
            invs[r] = {**inv, "env": {k: v for k, v in (inv.get("env") or {}).items() if is_surfaced(k)}}
    return invs


def locator(plan: Plan, inv: dict[int, Any], ident: dict[int, Any]) -> Locate:
    """rank -> (host, address); see the module docstring."""
    per = plan.nproc_per_node
    by_node: dict[int, dict[str, Any]] = {}
    for r, rec in {**ident, **inv}.items():
        by_node.setdefault(r // per, rec)
    here = dict(plan.node) if plan.nnodes == 1 else {}

    def locate(r: int) -> tuple[str | None, str | None]:
        rec = inv.get(r) or ident.get(r) or by_node.get(r // per) or here
        return rec.get("host"), rec.get("addr")

    return locate


def labeler(plan: Plan, locate: Locate) -> Label:
    def label(r: int) -> str:
        host, addr = locate(r)
        return node_label(str(host), addr) if addr else f"node {r // plan.nproc_per_node} (never reported)"

    return label


def rank_rows(plan: Plan, out: Outcome, inv: dict[int, Any], locate: Locate, label: Label) -> tuple[list, list]:
    """report.ranks and report.nodes: every rank of the job with its node and state."""
    rows, nodes = [], {}
    for r in range(plan.world_size):
        st = out.ranks.get(r)
        row = {k: v for k, v in (inv.get(r) or {"rank": r}).items() if k != "env"}
        row["host"], row["addr"] = locate(r)
        row["node"] = name = label(r)
        row.update(phase=st.phase if st else None, state=st.state if st else None, seq=st.seq if st else 0,
                   error=st.error if st else None)
        rows.append(row)
        nodes.setdefault(name, {"node": name, "host": row["host"], "addr": row["addr"], "ranks": []})["ranks"].append(r)
    return rows, list(nodes.values())


def run_record(out: Outcome) -> dict[str, Any]:
    return {
        "status": out.status, "returncode": out.returncode, "elapsed_s": round(out.elapsed_s, 3), "phase": out.phase,
        "culprits": out.culprits, "victims": out.victims, "deadline_s": out.deadline_s,
        "detected_after_s": out.detected_after_s, "verdict_after_s": out.verdict_after_s, "evidence": out.evidence,
    }


def sweep_results(plan: Plan, out: Outcome, label: Label) -> tuple[dict[str, Any], list[Finding], list[int]]:
    """(results, findings, ranks with wrong elements) for the smoke test and the sweep."""
    results: dict[str, Any] = {}
    findings: list[Finding] = []
    smoke = {r: res["smoke"] for r, res in out.results.items() if "smoke" in res}
    if smoke:
        results["smoke"] = {"wrong": sum(v["wrong"] for v in smoke.values()), "ranks_reported": len(smoke)}
    bad = {r: [f"smoke {v['wrong']}"] for r, v in smoke.items() if v["wrong"]}
    for op in plan.ops:
        sweep = {r: res[op] for r, res in out.results.items() if op in res}
        if not sweep:
            continue
        skipped = next((v["skipped"] for v in sweep.values() if v.get("skipped")), None)
        if skipped:  # the structure phase named a slow node or link first (probes.structure)
            results.setdefault("collectives", {})[op] = {
                "collective": op, "backend": plan.backend, "world_size": plan.world_size, "rows": [],
                "skipped": skipped,
            }
            continue
        table = bandwidth.build_table(op, sweep, plan.world_size)
        results.setdefault("collectives", {})[op] = {
            "collective": op, "backend": plan.backend, "world_size": plan.world_size,
            "warmup": plan.warmup, "iters": plan.iters, "rows": table,
            "peak_busbw_gbps": bandwidth.peak_busbw(table), "avg_busbw_gbps": bandwidth.avg_busbw(table),
        }
        findings += straggler_findings(table, label, op)
        findings += over_budget(results["collectives"][op], sweep, label, op)
        for r, v in sweep.items():
            steps = [f"{op} {x['size']} B {x['wrong']}" for x in v["rows"] if x["wrong"]]
            if steps:
                bad.setdefault(r, []).extend(steps)
    if "all_reduce" in results.get("collectives", {}):
        results["all_reduce"] = results["collectives"]["all_reduce"]  # schema 1.x readers
    if bad:
        ranks = sorted(bad)
        ops = sorted({s.split(" ")[0] for v in bad.values() for s in v if not s.startswith("smoke")} or {"all_reduce"})
        detail = "; ".join(f"rank {r} on {label(r)}: {', '.join(steps)}" for r, steps in sorted(bad.items()))
        findings.append(run_rules.WRONG_RESULTS.finding(
            f"{', '.join(ops)} returned wrong elements (exact check against the known result) on rank(s) {ranks}. "
            f"Wrong elements per step: {detail}.",
            ranks=ranks, nodes=sorted({label(r) for r in ranks}),
        ))
    return results, findings, sorted(bad)


def over_budget(result: dict[str, Any], sweep: dict[int, Any], label: Label, op: str = "all_reduce") -> list[Finding]:
    """RUN008: the ranks stopped the sweep together at a size over its time budget
    (``check.budget``); the table says where, the finding why (slow, not hung)."""
    stops = {r: v["stopped"] for r, v in sweep.items() if v.get("stopped")}
    if not stops:
        return []
    r, worst = max(stops.items(), key=lambda kv: kv[1]["predicted_s"] / max(kv[1]["budget_s"], 1e-9))
    s = worst
    result["stopped"] = {**s, "note": f"stopped at {human_bytes(s['size'])}: took {s['took_s']:.2f} s for "
                         f"{s['ops_done']} of {s['ops_total']} ops (all would take ~{s['predicted_s']:.0f} s), "
                         f"budget {s['budget_s']:.1f} s"}
    ran = [row["size"] for row in result["rows"]]
    last = f"; the last size that ran, {human_bytes(ran[-1])}, reached {result['rows'][-1]['busbw_gbps']:.3f} GB/s " \
        "busbw" if ran else ""
    return [SIZE_OVER_BUDGET.finding(
        f"{op} sweep {result['stopped']['note']} (the worst of {len(stops)} rank(s): rank {r} on {label(r)}). "
        f"Every rank kept completing collectives: slow, not hung{last}.",
        ranks=sorted(stops), nodes=sorted({label(x) for x in stops}), evidence=[s])]


def human_bytes(n: int) -> str:
    for unit, div in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= div:
            return f"{n / div:g} {unit}"
    return f"{n} B"


def straggler_findings(table: list[dict[str, Any]], label: Label, op: str = "all_reduce") -> list[Finding]:
    out = []
    for rank, sizes in sorted(bandwidth.late_ranks(table).items()):
        if len(sizes) * 4 < len(table) * 3:
            continue  # late at some sizes only: scheduling noise, not a straggler
        mine = statistics.median(x["outside_us"] for x in sizes)
        others = statistics.median(x["others_us"] for x in sizes)
        out.append(STRAGGLER.finding(
            f"Rank {rank} on {label(rank)} arrives late at {op}: it spends {mine / 1000:.1f} ms per op outside "
            f"the collective (its own work) where the other ranks spend {others / 1000:.2f} ms; they wait inside "
            f"the collective for it. Seen at {len(sizes)} of {len(table)} sizes.",
            ranks=[rank], nodes=[label(rank)], evidence=sizes[:8],
        ))
    return out


def across_nodes(plan: Plan, out: Outcome, inv: dict[int, Any], label: Label) -> tuple[dict[str, Any], list[Finding]]:
    """Several nodes only: the settings diff, the bandwidth structure, RUN101."""
    if plan.nnodes == 1:
        return {}, []
    findings = consistency.check_consistency([i for _, i in sorted(inv.items())])
    struct = {r: res["structure"] for r, res in out.results.items() if res.get("structure")}

    def leader(i: int) -> str:
        return label(i * plan.nproc_per_node)

    results: dict[str, Any] = {}
    found, more = structure.analyse(struct, leader)
    if found:
        results["structure"] = found
    per_node = structure.per_node_sweep(struct, leader)
    if per_node:
        results["intra_node_all_reduce"] = per_node
    return results, [*findings, *more, *rank_errors(out, label)]


def rank_errors(out: Outcome, label: Label) -> list[Finding]:
    """RUN101 per node: the ranks' own errors. A rank that only lost its peer ("Connection closed
    by peer", ``verdict.CONSEQUENCES``) is left out when another rank failed on its own, or a whole
    node was lost (RUN105): it is a victim."""
    by_node: dict[str, list[str]] = {}
    ranks: dict[str, list[int]] = {}
    errs = {r: st for r, st in out.ranks.items() if st.state == "error" and st.error}
    lost = out.evidence.get("node_lost") or out.evidence.get("store_lost")  # RUN105 names the cause
    if lost or any(not verdict.is_consequence(st.error) for st in errs.values()):
        errs = {r: st for r, st in errs.items() if not verdict.is_consequence(st.error)}
    for r, st in sorted(errs.items()):
        by_node.setdefault(label(r), []).append(f"rank {r} in {st.phase}: {st.error}")
        ranks.setdefault(label(r), []).append(r)
    return [RANK_ERRORS.finding(f"{node}: " + "; ".join(said), nodes=[node], ranks=ranks[node], evidence=said)
            for node, said in by_node.items()]


def crash_timing(findings: list[Finding], out: Outcome) -> float | None:
    """From the culprit's last sign of life to the job stopped, for a failed run."""
    culprits = [f for f in findings if f.code in ("RUN002", "RUN004", "RUN105")]
    ranks = culprits[0].ranks if culprits else []
    last = [out.ranks[r].t for r in ranks if r in out.ranks and out.ranks[r].t]
    return round(out.finished_wall - max(last), 3) if last else None


def against_reference(report: Report, plan: Plan, env: dict[str, str]) -> None:
    """"% of expected" beside busbw and BW301 (``analysis.expected``); on CPU, why none applies."""
    ref = expected.detect(report.host, plan.nnodes, plan.nproc_per_node, plan.backend, env)
    exp = expected.annotate(report.results, ref, plan.expected_below_pct)
    report.add(*expected.judge(exp, report.results, [plan.where] if plan.nnodes == 1 else []))


def fill(report: Report, plan: Plan, out: Outcome, identities: dict[int, Any], failures: dict[str, Any]) -> ExitCode:
    """Fill the report from the outcome; return the run's exit code (OK if it ran)."""
    inv = inventories(out)
    locate = locator(plan, inv, identities)
    label = labeler(plan, locate)
    report.ranks, report.nodes = rank_rows(plan, out, inv, locate, label)
    run = report.results["run"] = run_record(out)
    # The env lint of every rank, merged with the preflight's: one finding per setting.
    report.add(*env_rules.lint_ranks({r: i.get("env", {}) for r, i in inv.items()}, label))
    report.findings = env_rules.merge_duplicates(report.findings)
    results, findings, wrong = sweep_results(plan, out, label)
    report.results.update(results)
    report.add(*findings)
    results, findings = across_nodes(plan, out, inv, label)
    report.results.update(results)
    report.add(*findings)
    run["torchrun_failures"] = failures
    v = verdict.judge(out, label, inv, failures, list(plan.sizes), plan.warmup, run)
    report.add(*v.findings)
    run.update(culprits=v.culprits, victims=v.victims)
    if out.status == "failed" and (after := crash_timing(report.findings, out)) is not None:
        run["verdict_after_s"] = after
    if wrong and v.code == ExitCode.OK:  # the run finished, with corrupt results: a fault (errors.py)
        return ExitCode.FAULT
    return v.code
