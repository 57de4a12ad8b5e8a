"""The multi-node parts of ``ncclDoctor check`` (``--nodes N``), called from ``check``.

Stages, on every node:

1. ``launch``   open the control store (bind it on the reporting node, connect
                elsewhere; ``ncclDoctor.launch.multinode``), publish this node's
                preflight findings, start torchrun with the c10d rendezvous,
                ``--local-addr`` and ``is_host``, supervise every rank of the job.
                The reporting node then waits (``SETTLE_S`` at most) for the other
                nodes' ranks to finish and collects their results.
2. ``analyse``  consistency across nodes (``analysis.consistency``: rank inventories,
                or what each node's ncclDoctor saw when its ranks never started), bandwidth
                structure and slow node / link (``analysis.structure``), ranks that
                failed with their own error (RUN101), the other nodes' preflight
                findings, and nodes that never reported (RUN102).
3. ``local_summary``  on the other nodes only: keep this node's ranks and the findings
                that concern it, and say where the full report is.
"""

from __future__ import annotations

import time
from typing import Any, Callable

from ncclDoctor.analysis import consistency, structure
from ncclDoctor.facts.network import node_label
from ncclDoctor.findings import Finding, rule
from ncclDoctor.fsutil import write_json_atomic
from ncclDoctor.launch import multinode
from ncclDoctor.launch.supervisor import Outcome, Supervisor
from ncclDoctor.knowledge.env_vars import is_surfaced
from ncclDoctor.launch.torchrun import LaunchSpec, torchrun_argv
from ncclDoctor.rules import env as env_rules

PHASES = ("init", "inventory", "smoke", "all_reduce", "structure", "done")
SETTLE_S = 15.0  # how long the reporting node waits for other nodes' last results
NODE_RECORDS_S = 10.0

RANK_ERRORS = rule(
    "RUN101",
    "error",
    "Ranks on a node failed with an error",
    why="""
These ranks stopped with an exception of their own; the ranks on other nodes that then
waited or failed are victims. At init the error usually names the cause: an interface
that does not exist (GLOO_SOCKET_IFNAME / NCCL_SOCKET_IFNAME), an address that cannot be
reached, or a timeout connecting to the store.
""",
    fix="""
Fix the named node first (its error is quoted), then rerun on all nodes. Its full log is
in that node's run directory (logs/, torchrun.log).
""",
)

NODE_MISSING = rule(
    "RUN102",
    "error",
    "A node did not report to the control store",
    why="""
Every node's ncclDoctor publishes its settings and findings to the reporting node when it
starts. A node that never did was not started, started with other options, or cannot
reach the rendezvous host.
""",
    fix="""
Start `ncclDoctor check` with the same --nodes and --rdzv-endpoint on every node (or
through srun), and check that the rendezvous port and the port after it are reachable.
""",
)


def label_of(p) -> str:
    return node_label(p.node["host"], p.node["addr"])


def launch(p, env: dict[str, str], inject: list[str], on_event: Callable | None = None) -> Outcome:
    from ncclDoctor.check import worker_env

    rd = p.rdzv
    p.control = ctl = multinode.open_control(rd, timeout_s=max(60.0, p.deadlines.get("init", 60.0)))
    if rd.is_host:
        multinode.publish_json(ctl, "report/location", {"node": label_of(p), "run_dir": str(p.run_dir.resolve())})
    else:
        p.report_location = multinode.read_json(ctl, "report/location")
    multinode.publish_node(ctl, {
        "node": label_of(p), "host": p.node["host"], "addr": p.node["addr"], "is_host": rd.is_host,
        "run_dir": str(p.run_dir.resolve()), "findings": [f.to_dict() for f in p.preflight],
        "env": {k: v for k, v in sorted(env.items()) if is_surfaced(k)},
    })
    cfg = {
        "backend": p.backend, "sizes": p.sizes, "warmup": p.warmup, "iters": p.iters,
        "pg_timeout_s": max([*p.deadlines.values(), 180.0]) + 30.0,  # the supervisor decides first
        "run_dir": str(p.run_dir), "node": p.node, "inject": list(inject), "structure": p.structure,
    }
    cfg_path = write_json_atomic(p.run_dir / "probe-config.json", cfg)
    spec = LaunchSpec(
        nproc_per_node=p.nproc_per_node, nnodes=rd.nnodes, rdzv_endpoint=rd.endpoint, rdzv_id=rd.rdzv_id,
        is_host=rd.is_host, local_addr=rd.local_addr, log_dir=str(p.run_dir / "logs"),
    )
    argv = torchrun_argv(spec, ["--config", str(cfg_path)])
    write_json_atomic(p.run_dir / "launch.json", {"argv": argv, "is_host": rd.is_host, "control": f"{rd.host}:{rd.control_port}"})
    sup = Supervisor(
        argv, worker_env(env, rd.control_port, control_host=rd.host), p.world_size, ctl,
        log_path=str(p.run_dir / "torchrun.log"), deadlines_s=p.deadlines, phases=PHASES, on_event=on_event,
        before_stop=lambda s, o: collect_evidence(s, o, p),
    )
    out = sup.run()
    return settle(sup, out, SETTLE_S if out.status == "ok" else 3.0) if rd.is_host else out


def collect_evidence(sup: Supervisor, out: Outcome, p) -> None:
    """check.collect_evidence, except that only this node's ranks are signalled: a pid
    from another node's inventory means nothing here (or, worse, another process)."""
    from ncclDoctor.analysis import flight
    from ncclDoctor.launch import evidence

    if out.status != "hang" or out.phase == "launch":
        return
    mine = {r: pid for r, pid in sup.worker_pids().items()
            if (multinode.read_json(sup.control, f"result/{r}/identity") or {}).get("addr") == p.node["addr"]}
    got = evidence.gather(sup.control, sorted(sup.ranks), mine, p.run_dir)
    out.evidence["stacks"] = got.pop("stacks")
    fr = got.pop("flight_recorder")
    out.evidence["flight_recorder_summary"] = flight.summarize({int(r): d for r, d in fr.items()}) if fr else None
    out.evidence["gathered"] = got


def settle(sup: Supervisor, out: Outcome, wait_s: float) -> Outcome:
    """Our torchrun has exited; other nodes' ranks may publish for a moment longer."""
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        sup.poll_events_safely()
        if all("done" in st.left or st.state == "error" for st in sup.ranks.values()):
            break
        time.sleep(0.2)
    out.ranks = dict(sup.ranks)
    try:
        out.results = sup.results()
    except Exception:
        pass
    return out


def identities(p) -> dict[int, dict[str, Any]]:
    out = {}
    for r in range(p.world_size):
        ident = multinode.read_json(p.control, f"result/{r}/identity") if p.control is not None else None
        if ident:
            out[r] = ident
    return out


def locator(p, inv: dict[int, Any]) -> Callable[[int], tuple[str | None, str | None]]:
    """rank -> (host, address) from its inventory, else its identity (published before
    init), else its node's other ranks (torchrun numbers ranks node by node)."""
    ident = identities(p)
    by_node: dict[int, dict[str, Any]] = {}
    for r, rec in {**ident, **{r: v for r, v in inv.items() if v}}.items():
        by_node.setdefault(r // p.nproc_per_node, rec)

    def locate(r: int) -> tuple[str | None, str | None]:
        rec = inv.get(r) or ident.get(r) or by_node.get(r // p.nproc_per_node) or {}
        return rec.get("host"), rec.get("addr")

    return locate


def labeler(p, inv: dict[int, Any]) -> Callable[[int], str]:
    locate = locator(p, inv)

    def label(r: int) -> str:
        host, addr = locate(r)
        return node_label(str(host), addr) if addr else f"node {r // p.nproc_per_node} (never reported)"

    return label


def analyse(report, p, out: Outcome, label: Callable[[int], str]) -> None:
    _fix_rank_rows(report, p, out, label)
    invs = [res["inventory"] for _, res in sorted(out.results.items()) if res.get("inventory")]
    records = multinode.node_records(p.control, p.rdzv.nnodes, NODE_RECORDS_S) if p.rdzv.is_host else []
    report.add(*consistency.check_consistency(invs))
    seen = {(i.get("host"), i.get("addr")) for i in invs}
    if any((r.get("host"), r.get("addr")) not in seen for r in records):
        # some node's ranks never got as far as the inventory: diff what its ncclDoctor saw
        report.add(*consistency.check_consistency([{k: r.get(k) for k in ("host", "addr", "env")} for r in records]))
    struct = {r: res["structure"] for r, res in out.results.items() if res.get("structure")}
    leader = lambda i: label(i * p.nproc_per_node)  # noqa: E731
    results, findings = structure.analyse(struct, leader)
    if results:
        report.results["structure"] = results
    sweep = structure.per_node_sweep(struct, leader)
    if sweep:
        report.results["intra_node_all_reduce"] = sweep
    report.add(*findings)
    report.add(*_rank_errors(out, label))
    mn = {"reporting_node": None, "is_reporting_node": p.rdzv.is_host, "nnodes": p.rdzv.nnodes,
          "endpoint": p.rdzv.endpoint, "rdzv_id": p.rdzv.rdzv_id, "this_node": label_of(p)}
    if p.rdzv.is_host:
        mn["reporting_node"] = label_of(p)
        mn["nodes_reporting"] = _merge_node_records(report, p, records)
        # the other nodes read the store after their own torchrun exits: keep it open for them
        mn["nodes_finished"] = multinode.wait_finished(p.control, p.rdzv.nnodes - 1, SETTLE_S)
    report.results["multinode"] = mn


def _fix_rank_rows(report, p, out: Outcome, label: Callable[[int], str]) -> None:
    """Rows and nodes by the rank's real node, not this one (check.analyse's default)."""
    locate = locator(p, {r: res.get("inventory") for r, res in out.results.items()})
    nodes: dict[str, dict[str, Any]] = {}
    for row in report.ranks:
        row["host"], row["addr"] = locate(row["rank"])
        row["node"] = name = label(row["rank"])
        nodes.setdefault(name, {"node": name, "host": row["host"], "addr": row["addr"], "ranks": []})["ranks"].append(row["rank"])
    report.nodes = list(nodes.values())


def _rank_errors(out: Outcome, label: Callable[[int], str]) -> list[Finding]:
    by_node: dict[str, list[str]] = {}
    ranks: dict[str, list[int]] = {}
    for r, st in sorted(out.ranks.items()):
        if st.state == "error" and st.error:
            by_node.setdefault(label(r), []).append(f"rank {r} in {st.phase}: {st.error}")
            ranks.setdefault(label(r), []).append(r)
    return [
        RANK_ERRORS.finding(f"{node}: " + "; ".join(errs), nodes=[node], ranks=ranks[node], evidence=errs)
        for node, errs in by_node.items()
    ]


def _merge_node_records(report, p, records: list[dict[str, Any]]) -> list[str]:
    """Other nodes' preflight findings join the report; missing nodes are a finding."""
    me = label_of(p)
    for rec in records:
        if rec.get("node") == me:
            continue
        report.add(*(Finding.from_dict(f) for f in rec.get("findings", [])))
    report.findings = env_rules.merge_duplicates(report.findings)  # a setting seen on ranks and nodes: once
    names = sorted({rec.get("node", "?") for rec in records})
    if len(records) < p.rdzv.nnodes:
        # The finding concerns the nodes that never reported: they have no address we
        # know, so they are named by count, never by a node that did report.
        missing = [f"node never reported ({k} of {p.rdzv.nnodes})" for k in range(len(records) + 1, p.rdzv.nnodes + 1)]
        report.add(NODE_MISSING.finding(
            f"{len(records)} of {p.rdzv.nnodes} nodes reported to the control store at "
            f"{p.rdzv.host}:{p.rdzv.control_port} ({', '.join(names) or 'none'}); "
            f"{p.rdzv.nnodes - len(records)} never did.",
            nodes=missing, evidence=[{"expected": p.rdzv.nnodes, "reported": names}],
        ))
    return names


def local_summary(report, p) -> None:
    """On a non-reporting node: this node's ranks and findings, and where the report is."""
    me = label_of(p)
    report.findings = [f for f in report.findings if not f.nodes or me in f.nodes]
    report.ranks = [r for r in report.ranks if r.get("node") == me]
    report.nodes = [n for n in report.nodes if n.get("node") == me]
    loc = getattr(p, "report_location", None) or multinode.read_json(p.control, "report/location")
    multinode.signal_finished(p.control)
    report.results.setdefault("multinode", {})
    report.results["multinode"]["reporting_node"] = loc.get("node") if loc else None
    report.results["multinode"]["full_report"] = loc
