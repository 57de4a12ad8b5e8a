"""The control-store exchange between the nodes of one check (no-ops at N = 1).

Every node runs the same ``ncclDoctor check``. At launch (``open`` + ``announce``):

- the node that binds the control port is the **reporting** node (the rendezvous host;
  ``launch.multinode``): it publishes where its report will be (``report/location``);
- every other node is a **member**: it connects, reads ``report/location``, and
  publishes its own record (address, run directory, preflight findings, settings)
  under ``cli/<i>``.

After its own torchrun has exited (``settle`` and ``finish``):

- the reporting node waits ``SETTLE_S`` at most for the other nodes' ranks' last
  results, merges the members' records into the full report (their preflight findings;
  RUN102 for a node that never reported; a settings diff when a node's ranks never got
  as far as the inventory), and keeps the store open until the members have read it
  (``SETTLE_S`` at most);
- a member keeps only its own ranks and the findings that concern it (and RUN105, a node
  or the store lost, which ended its run), and says where the full report is (``results["multinode"]["full_report"]``).

At N = 1 the control store is private to this node (a free port), nothing is published
or awaited, and the report gets no ``multinode`` section.

Testing aid (documented, not hidden: docs/multinode.md): ``NCCLDOCTOR_NODE_WAIT_S=SECONDS``
caps the reporting node's three waits for other nodes after its torchrun has exited (their
ranks' last results, their records, their reading of the store). A node that never started
makes each wait run out; a test of that case need not wait 28 s for it.
"""

from __future__ import annotations

import os
import time
from typing import Any

from ncclDoctor.analysis import consistency
from ncclDoctor.check import phases
from ncclDoctor.check.options import Plan
from ncclDoctor.findings import Finding
from ncclDoctor.knowledge.env_vars import is_surfaced
from ncclDoctor.launch import multinode
from ncclDoctor.launch.store import ControlStore, read_json
from ncclDoctor.launch.supervisor import Outcome, Supervisor
from ncclDoctor.report.model import Report
from ncclDoctor.rules import env as env_rules
from ncclDoctor.rules.codes.run import NODE_LOST, NODE_MISSING

SETTLE_S = 15.0  # how long the reporting node waits for other nodes' last results
NODE_RECORDS_S = 10.0


def node_wait(default_s: float) -> float:
    """One of the reporting node's waits for other nodes: ``default_s``, or less where
    ``NCCLDOCTOR_NODE_WAIT_S`` (a positive number of seconds) says so."""
    try:
        cap = float(os.environ.get("NCCLDOCTOR_NODE_WAIT_S", ""))
    except ValueError:
        return default_s
    return min(default_s, cap) if 0 < cap < float("inf") else default_s


def open_store(plan: Plan) -> tuple[ControlStore, bool, str]:
    """(control store, is this the reporting node, the address ranks connect to)."""
    rd = plan.topology.rdzv
    if rd is None:
        ctl = ControlStore()
        return ctl, True, f"127.0.0.1:{ctl.port}"
    ctl, reporting = multinode.open_control(rd, timeout_s=max(60.0, plan.deadlines.get("init", 60.0)),
                                            wait_s=phases.control_wait_s(dict(plan.deadlines), plan.launch_timeout_s))
    return ctl, reporting, f"{rd.host}:{rd.control_port}"


def announce(plan: Plan, ctl: ControlStore, reporting: bool, env: dict[str, str],
             findings: list[Finding]) -> dict[str, Any]:
    """Publish this node's record; returns what happened (the report location a member
    read, and any store error) for ``results["multinode"]``."""
    if plan.nnodes == 1:
        return {}
    note: dict[str, Any] = {}
    if reporting:
        note["publish_error"] = multinode.publish_json(
            ctl, "report/location", {"node": plan.where, "run_dir": str(plan.run_dir.resolve())})
    else:
        note["report_location"] = read_json(ctl, "report/location")
    err = multinode.publish_node(ctl, {
        "node": plan.where, "host": plan.node["host"], "addr": plan.node["addr"], "is_host": reporting,
        "run_dir": str(plan.run_dir.resolve()), "findings": [f.to_dict() for f in findings],
        "env": {k: v for k, v in sorted(env.items()) if is_surfaced(k)},
    })
    note["publish_error"] = note.get("publish_error") or err
    return note


def settle(plan: Plan, reporting: bool, sup: Supervisor, out: Outcome) -> Outcome:
    """Our torchrun has exited; on the reporting node, other nodes' ranks may publish
    for a moment longer (``SETTLE_S`` after a good run, 3 s after a bad one)."""
    if plan.nnodes == 1 or not reporting or out.status == "interrupted":
        return out
    deadline = time.monotonic() + node_wait(SETTLE_S if out.status == "ok" else 3.0)
    while time.monotonic() < deadline:
        sup.poll_events_safely()
        if all("done" in st.left or st.state == "error" for st in sup.ranks.values()):
            break
        time.sleep(0.2)
    out.ranks = dict(sup.ranks)
    try:
        out.results = sup.results()
    except Exception as exc:  # the results read at exit stay; say why the late ones are missing
        out.evidence["settle_error"] = f"{type(exc).__name__}: {exc}"
    return out


def identities(ctl: ControlStore, world_size: int) -> dict[int, dict[str, Any]]:
    """rank -> the identity it published before init (host, address, node rank)."""
    found = {r: read_json(ctl, f"result/{r}/identity") for r in range(world_size)}
    return {r: v for r, v in found.items() if v}


def finish(report: Report, plan: Plan, out: Outcome, ctl: ControlStore, reporting: bool, note: dict[str, Any]) -> None:
    """After the analysis: merge the nodes (reporting) or keep this node's part (member)."""
    if plan.nnodes == 1:
        return
    rd = plan.topology.rdzv
    mn = {"reporting_node": None, "is_reporting_node": reporting, "nnodes": rd.nnodes, "endpoint": rd.endpoint,
          "rdzv_id": rd.rdzv_id, "this_node": plan.where}
    if note.get("publish_error"):
        mn["publish_error"] = note["publish_error"]
    report.results["multinode"] = mn
    if reporting:
        records = multinode.node_records(ctl, rd.nnodes, node_wait(NODE_RECORDS_S))
        _settings_diff(report, out, records)
        mn["reporting_node"] = plan.where
        mn["nodes_reporting"] = _merge_node_records(report, plan, records)
        # the other nodes read the store after their own torchrun exits: keep it open for them
        # ... except a node lost mid-run (check.heartbeat): it never will
        lost = sum(1 for rec in out.evidence.get("node_lost") or [] if not rec.get("reporting"))
        mn["nodes_finished"] = multinode.wait_finished(ctl, rd.nnodes - 1 - lost, node_wait(SETTLE_S))
    else:
        _local_summary(report, plan, ctl, note)


def _settings_diff(report: Report, out: Outcome, records: list[dict[str, Any]]) -> None:
    """Some node's ranks never got as far as the inventory: diff what its ncclDoctor saw."""
    seen = {(res["inventory"].get("host"), res["inventory"].get("addr")) for res in out.results.values()
            if res.get("inventory")}
    if any((r.get("host"), r.get("addr")) not in seen for r in records):
        keep = ("host", "addr", "env")
        report.add(*consistency.check_consistency([{k: r.get(k) for k in keep} for r in records]))


def _merge_node_records(report: Report, plan: Plan, records: list[dict[str, Any]]) -> list[str]:
    """Other nodes' preflight findings join the report; missing nodes are a finding."""
    rd = plan.topology.rdzv
    for rec in records:
        if rec.get("node") != plan.where:
            report.add(*(Finding.from_dict(f) for f in rec.get("findings", [])))
    report.findings = env_rules.merge_duplicates(report.findings)  # a setting seen on ranks and nodes: once
    names = sorted({rec.get("node", "?") for rec in records})
    if len(records) < rd.nnodes:
        # The finding concerns the nodes that never reported: they have no address we
        # know, so they are named by count, never by a node that did report.
        missing = [f"node never reported ({k} of {rd.nnodes})" for k in range(len(records) + 1, rd.nnodes + 1)]
        report.add(NODE_MISSING.finding(
            f"{len(records)} of {rd.nnodes} nodes reported to the control store at "
            f"{rd.host}:{rd.control_port} ({', '.join(names) or 'none'}); {rd.nnodes - len(records)} never did.",
            nodes=missing, evidence=[{"expected": rd.nnodes, "reported": names}],
        ))
    return names


def _local_summary(report: Report, plan: Plan, ctl: ControlStore, note: dict[str, Any]) -> None:
    """On a member node: this node's ranks and findings, and where the report is."""
    me = plan.where
    # ... and what ended this node's run when it names another node: a node (or the store) lost (RUN105)
    report.findings = [f for f in report.findings if not f.nodes or me in f.nodes or f.code == NODE_LOST.code]
    report.ranks = [r for r in report.ranks if r.get("node") == me]
    report.nodes = [n for n in report.nodes if n.get("node") == me]
    loc = note.get("report_location") or read_json(ctl, "report/location")
    err = multinode.signal_finished(ctl)
    mn = report.results["multinode"]
    mn["reporting_node"] = loc.get("node") if loc else None
    mn["full_report"] = loc
    if err:
        mn["signal_finished_error"] = err
