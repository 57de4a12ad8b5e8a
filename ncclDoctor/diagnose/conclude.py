"""Findings stage: turn conclusions and collected families into LOG findings (pure).

Every finding names the ranks and, where the logs say it, their hosts; its evidence
starts with the confidence and continues with the proving lines as ``file:line: text``.
"""

from __future__ import annotations

import re

from ncclDoctor.diagnose import rules as R
from ncclDoctor.diagnose.load import Input
from ncclDoctor.diagnose.lone import torn_down
from ncclDoctor.diagnose.reason import Conclusion, _fmt_ranks, timeout_in_seconds, waiting
from ncclDoctor.diagnose.signatures import R_DUP_GPU
from ncclDoctor.diagnose.state import Collected
from ncclDoctor.findings import Finding, Severity
from ncclDoctor.rules.codes import log as L


def _nodes(c: Collected, ranks) -> list[str]:
    hosts = set()
    for r in ranks:
        st = c.ranks.get(r)
        if st:
            hosts.update(st.hosts)
    for e in c.child_failures:
        if e.rank in ranks and e.host:
            hosts.add(e.host)
    return sorted(hosts)[:16]


def _hosted(c: Collected, ranks) -> str:
    """"rank 5 on gpu-a" or, for many ranks, "gpu-a: ranks 0, 1, 2; gpu-b: rank 9"."""
    by_host: dict[str, list[int]] = {}
    for r in sorted(ranks):
        by_host.setdefault(", ".join(_nodes(c, [r])) or "host unknown", []).append(r)
    parts = [f"{h}: rank{'s' if len(rs) > 1 else ''} {_fmt_ranks(rs)}" for h, rs in sorted(by_host.items())]
    return "; ".join(parts[:6]) + (f"; and {len(parts) - 6} more hosts" if len(parts) > 6 else "")


def _samples(c: Collected, kind: str) -> list[str]:
    return [e.brief() for e in c.samples.get(kind, [])]


def from_conclusions(c: Collected, conclusions: list[Conclusion]) -> list[Finding]:
    out = []
    rule_for = {"culprit": R.CULPRIT, "desync": R.DESYNC, "first_failure": R.FIRST_FAILURE, "all_joined": R.ALL_JOINED,
                "watchdog_blocked": L.WATCHDOG_BLOCKED, "connection_setup": L.CONNECTION_SETUP,
                "groups_unclear": L.GROUPS_UNCLEAR, "numbers": L.NUMBERS}
    for k in conclusions:
        rule = rule_for.get(k.kind)
        if rule is None:
            continue
        sev = Severity.WARNING if k.confidence == "low" and k.kind in ("culprit", "first_failure") else None
        where = f" ({_hosted(c, k.ranks)})" if _nodes(c, k.ranks) else ""
        out.append(rule.finding(
            f"{k.message}{where} (confidence: {k.confidence})", severity=sev, ranks=k.ranks,
            nodes=_nodes(c, k.ranks), evidence=[f"confidence: {k.confidence}"] + k.evidence[:8],
        ))
    return out


def _timeouts(c: Collected) -> list[Finding]:
    ranks = sorted(c.kind_ranks.get("watchdog_timeout", set()))
    n = c.kinds.get("watchdog_timeout", 0)
    if not n:
        return []
    # (the label names the backend the timeout line is from -- gloo, XCCL, HCCL -- where its reader knows it)
    seqs = sorted({(pg, t.seq, t.op, t.data.get("backend"))
                   for st in c.ranks.values() for pg, t in st.timeouts.items()}, key=str)[:6]
    desc = "; ".join(f"pg {pg} SeqNum={s} {op}" if s is not None else
                     f"pg {pg} (no SeqNum" + (f": {bk}" if bk else "") + ")" for pg, s, op, bk in seqs)
    msg = (f"{n} watchdog timeout line(s) from {len(ranks)} rank(s)" + (f" ({_fmt_ranks(ranks)})" if ranks else "")
           + f": {desc}")
    if c.torch_timeout_ms:
        ms = c.torch_timeout_ms
        msg += "; the process-group timeout was " + (f"{ms / 60000:.0f} min" if ms >= 60000 else f"{ms / 1000:.0f} s")
    secs = next((t for t in c.samples.get("watchdog_timeout", []) if timeout_in_seconds(t)), None)
    if secs is not None:  # Timeout(ms) in seconds: zeros lost in a paste, or the wrong unit (reason.timeout_in_seconds)
        msg += (f"; Timeout(ms)={secs.data['timeout_ms']} against ran for {secs.data['ran_for_ms']} ms: read as "
                f"{secs.data['timeout_ms']} s (its zeros lost in the paste, or a timeout given in the wrong unit)")
    return [R.TIMEOUTS.finding(msg, ranks=ranks, nodes=_nodes(c, ranks), evidence=_samples(c, "watchdog_timeout"))]


def _family(c: Collected, kind: str, rule, describe) -> list[Finding]:
    n = c.kinds.get(kind, 0)
    if not n:
        return []
    ranks = sorted(c.kind_ranks.get(kind, set()))
    who = f" on {_hosted(c, ranks)}" if ranks else ""
    return [rule.finding(f"{describe(c.samples.get(kind, []))}: {n} line(s){who}", ranks=ranks, nodes=_nodes(c, ranks),
                         evidence=_samples(c, kind))]


def _nccl_desc(evs) -> str:
    codes = sorted({e.data.get("code", "?") for e in evs})
    last = next((e.data["last_error"] for e in evs if e.data.get("last_error")), None)
    return ", ".join(codes) + (f" (Last error: {last[:160]})" if last else "")


def _ib_desc(evs) -> str:
    # async events and failed verbs calls carry no completion status (None): never sorted with the ints
    st = sorted({e.data["status"] for e in evs if e.data.get("status") is not None})
    other = sorted({e.data.get("async_event") or e.data.get("verbs")
                    for e in evs if e.data.get("status") is None} - {None})
    peers = sorted({e.data["peer"] for e in evs if e.data.get("peer")})[:4]
    parts = ([f"completion status {', '.join(map(str, st))}" + (" (12 = transport retry counter exceeded)"
                                                                 if 12 in st else "")] if st else [])
    parts += [f"{'event' if len(other) == 1 else 'events'} {', '.join(other)[:200]}"] if other else []
    return "; ".join(parts or ["an InfiniBand error"]) + (f" from peer(s) {', '.join(peers)}" if peers else "")


def _dl_desc(evs) -> str:
    if any(e.data.get("mp_tmp") for e in evs):
        return "multiprocessing's temp directory could not be created (a batch's tensor not passed)"
    if evs and all(e.data.get("shm_exists") for e in evs):
        return (f"a shared-memory block ({evs[0].data['shm_exists']}) already exists in /dev/shm (stale from an "
                "earlier run)")
    return "bus error (shared memory exhausted)" if any(e.data.get("bus_error")
                                                        for e in evs) else "worker killed or exited unexpectedly"


def from_families(c: Collected) -> list[Finding]:
    out = _timeouts(c)
    out += _family(c, "nccl_error", R.NCCL_ERROR, _nccl_desc)
    out += _family(c, "ib_completion", R.IB_COMPLETION, _ib_desc)
    out += _family(c, "socket_error", R.SOCKET, lambda evs: ", ".join(sorted({e.data["what"].lower() for e in evs})))
    out += _family(c, "store_timeout", R.STORE,
                   lambda evs: "endpoint " + (next((e.data["endpoint"] for e in evs if e.data.get("endpoint")), None)
                                              or "not named"))
    out += _family(c, "gloo_error", R.GLOO, lambda evs: ", ".join(sorted({e.data["what"] for e in evs})))
    out += _family(c, "heartbeat", R.HEARTBEAT,
                   lambda evs: "watchdog stuck"
                   + "".join(f" {e.data['stuck_s']} s" for e in evs[:1] if e.data.get("stuck_s")))
    out += _family(c, "dataloader", R.DATALOADER, _dl_desc)
    out += _family(c, "cuda_oom", R.OOM,
                   lambda evs: "CUDA out of memory"
                   + "".join(f" (tried to allocate {e.data['tried']})" for e in evs[:1] if e.data.get("tried")))
    out += _family(c, "nccl_warn", R.NCCL_WARN, lambda evs: "NCCL WARN")
    out += _family(
        c, "cuda_error", L.CUDA_ERROR,
        lambda evs: "CUDA error: " + ", ".join(sorted({e.data["what"] for e in evs if e.data.get("what")})),
    )
    out += _family(
        c, "shm_error", L.SHM, lambda evs: evs[0].data.get("what", "shared memory") if evs else "shared memory"
    )
    out += _killed(c)
    if any(e.data.get("received") for e in c.samples.get("signal", [])):
        out += _family(c, "signal", L.AGENT_SIGNAL, _signal_desc)
    out += _family(c, "desync_report", R.DESYNC, lambda evs: "collective fingerprints differ between ranks")
    out += _child_failed(c)
    out += _transport(c)
    out += [R.PRIOR.finding(f"{p['code']} ({p['severity']}): {p['message'][:300]}", ranks=p.get("ranks", []),
                            nodes=p.get("nodes", []),
                            evidence=[p["where"]]) for p in c.prior_findings[:10]]
    return out


def _signal_desc(evs) -> str:
    got = sorted({e.data["received"] for e in evs if e.data.get("received")})
    names = {15: "SIGTERM", 2: "SIGINT", 1: "SIGHUP", 9: "SIGKILL"}
    return "received " + ", ".join(f"{n} ({names.get(n, '?')})" for n in got)


def _killed(c: Collected) -> list[Finding]:
    down = {id(e) for e in torn_down(c)}  # SIGKILL'd by the agent after its grace period: not a kill of its own
    cf = [e for e in c.child_failures if (e.data.get("exitcode") == -9 or e.data.get("signal") == "SIGKILL")
          and id(e) not in down]
    wf = [e for e in c.worker_failures if e.data.get("exitcode") == -9 and id(e) not in down]
    if not cf and not wf:
        return []
    ranks = sorted({e.rank for e in cf if e.rank is not None})
    local = sorted({e.data["local_rank"] for e in wf if e.data.get("local_rank") is not None})
    who = f"rank(s) {_fmt_ranks(ranks)}" if ranks else f"local rank(s) {_fmt_ranks(local)}"
    return [L.KILLED.finding(f"{who} exited with -9 (SIGKILL)", ranks=ranks, nodes=_nodes(c, ranks),
                             evidence=[e.brief() for e in (cf + wf)[:4]])]


def _child_failed(c: Collected) -> list[Finding]:
    if not c.child_failures:
        return []
    ranks = sorted({e.rank for e in c.child_failures if e.rank is not None})
    root = next((e for e in c.child_failures if e.data.get("root")), None)
    na = any("<N/A>" in e.text for e in c.child_failures)
    msg = f"{len(c.child_failures)} failed rank(s): " + "; ".join(
        f"rank {e.rank} on {e.host} exit code "
        f"{e.data.get('exitcode')}{' ' + e.data['signal'] if e.data.get('signal') else ''}"
        for e in c.child_failures[:6])
    if root:
        msg += f". Root cause (first observed): rank {root.rank}"
        if root.rank in c.ranks and waiting(c.ranks[root.rank]):
            msg += (" — but that rank was waiting in a collective (timed out or lost its peer): it is the first victim "
                    "torchrun saw, not the cause")
    if na:
        msg += ". error_file: <N/A> — the entry point lacks @record, so the real exception was not recorded"
    return [R.CHILD_FAILED.finding(msg, ranks=ranks, nodes=sorted({e.host for e in c.child_failures if e.host})[:16],
                                   evidence=[e.brief() for e in c.child_failures[:6]])]


def _transport(c: Collected) -> list[Finding]:
    out = []
    if "Socket" in c.networks or "no_ib" in c.networks:
        ev = [c.networks[k] for k in ("Socket", "no_ib") if k in c.networks]
        ib = "IB" in c.networks
        out.append(R.SOCKET_FALLBACK.finding(
            "NCCL used its socket transport" + (" on some ranks while others used IB" if ib else "")
            + (" after finding no IB device" if "no_ib" in c.networks else "")
            + (f" (NET/Socket : Using {c.networks['Socket_using']})" if "Socket_using" in c.networks else ""),
            severity=Severity.WARNING, evidence=ev))
    from ncclDoctor.diagnose.verdict import bad_interfaces

    bad = bad_interfaces(c)
    if bad:
        out.append(L.INTERFACE.finding(
            "NCCL chose " + ", ".join(bad), evidence=[e.brief() for e in c.samples.get("transport", [])[:3]]
        ))
    dup = [e for e in c.samples.get("nccl_error", []) if R_DUP_GPU.search(e.data.get("last_error") or "")]
    if dup:
        out.append(L.DUPLICATE_GPU.finding(dup[0].data["last_error"][:200], evidence=[e.brief() for e in dup[:3]]))
    if c.settings:
        text = ", ".join(f"{k}={'|'.join(v)}" for k, v in sorted(c.settings.items()))
        differ = sorted(k for k, v in c.settings.items() if len(v) > 1)
        msg = f"NCCL applied: {text}" + (f". Differs between ranks: {', '.join(differ)}" if differ else "")
        out.append(R.SETTINGS.finding(msg, severity=Severity.WARNING if differ else None,
                                      evidence=[w for v in c.settings.values() for w in v.values()][:8]))
    return out


def from_inputs(inputs: list[Input]) -> list[Finding]:
    bad = [i for i in inputs if i.notes]
    if not bad:
        return []
    msg = ("; ".join(f"{i.path}: {', '.join(i.notes)}" for i in bad[:8])
           + (f"; and {len(bad) - 8} more" if len(bad) > 8 else ""))
    only_empty = all(n == "empty file" for i in bad for n in i.notes)  # an empty log is a fact, not a read failure
    return [R.UNREADABLE.finding(msg, severity=Severity.INFO if only_empty else None,
                                 evidence=[f"{i.path}: {n}" for i in bad[:20] for n in i.notes])]


def coverage(c: Collected, world: int | None, source_conf: str) -> list[Finding]:
    """Ranks the job had but the input holds nothing from (only when the size is known)."""
    if not world or source_conf != "high" or world > 1 << 16:
        return []
    missing = [r for r in range(world) if r not in c.ranks]
    if not missing or len(missing) == world:
        return []
    return [R.MISSING_LOGS.finding(f"world size {world}, but nothing from rank(s) {_fmt_ranks(missing)}",
                                   ranks=missing)]


def nothing_found(findings: list[Finding], c: Collected, field: list[dict] | None = None) -> list[Finding]:
    if any(f.severity != Severity.INFO for f in findings if f.code != "LOG030"):
        return []
    read = [f"{d['format']} output {d['path']}" for d in field or []]
    return [R.NOTHING_FOUND.finding(f"{sum(c.kinds.values())} event(s) recognised, none of them a failure"
                                    + (f"; read as a tool's output, with no failure in it: {', '.join(read)} (its "
                                       "table is in the report)" if read else ""))]


def settings_findings(c: Collected) -> list[Finding]:
    """Settings the logs print (``export NCCL_X=``, ``-e NCCL_X=``, env dumps, ``X set by
    environment to Y``, torch's deprecation warnings) judged by the same lint as
    ``ncclDoctor env``; each warning or error cites the line the setting came from (the info
    notes of ``env``, e.g. a debug knob set, stay in LOG020's list of applied settings)."""
    from ncclDoctor.rules.env import lint

    if not c.settings:
        return []
    env = {name: next(iter(vals)) for name, vals in c.settings.items()}
    older = _removed_later(c, env)
    out = []
    for f in lint(env):
        if f.severity == Severity.INFO:
            continue  # LOG020 lists every setting; only what is wrong becomes its own finding
        if f.code == "ENV003" and any(f"{n} was removed" in f.message for n in older):
            continue  # the NCCL the lines show is older than the removal: it still reads the variable
        names = [n for n in env if n in f.message]
        f.evidence = [c.settings[n][env[n]] for n in names[:3]] + list(f.evidence)
        f.message = "in the logs: " + f.message
        out.append(f)
    return out


def _version(text: str) -> tuple[int, ...] | None:
    m = re.search(r"NCCL (?:version )?(\d{1,3})\.(\d{1,3})(?:\.(\d{1,3}))?", text)
    return tuple(int(g) for g in m.groups() if g is not None) if m else None


def _removed_later(c: Collected, env: dict[str, str]) -> set[str]:
    """Settings NCCL removed in a release later than every "NCCL version X" line the logs print (an NCCL 2.2.13's
    NCCL_SINGLE_RING_THRESHOLD, removed in 2.3): that NCCL still reads them, so ENV003 does not apply to the lines
    (pytorch-7019, round 91); NCCL_DEBUG=INFO's "NCCL INFO NCCL version X" lines count too (review a of round 109,
    finding 7). Without a version line the lint stands."""
    from ncclDoctor.knowledge.env_vars import BY_NAME

    shown = [v for v in (_version(t) for t in [e.text for e in c.samples.get("nccl_version", [])] + c.info_versions)
             if v]
    if not shown:
        return set()
    out = set()
    for name in env:
        info = BY_NAME.get(name)
        gone = _version(info.removed_in or "") if info is not None and info.status == "removed" else None
        if gone and all(v[:len(gone)] < gone for v in shown):
            out.add(name)
    return out


def from_verdict(c: Collected, v, findings: list[Finding]) -> list[Finding]:
    """Findings the verdict needs: LOG027 for a rank that left early, and LOG029 when the
    verdict names a failure no other finding reports (so "nothing found" never sits beside it)."""
    if v.cause == "early_exit" and c.kinds.get("pg_not_destroyed") and v.culprits:
        return [L.LEFT_EARLY.finding(v.summary, ranks=v.culprits, nodes=_nodes(c, v.culprits), evidence=v.proof[:4])]
    if v.cause != "none" and not any(f.severity != Severity.INFO for f in findings):
        sev = Severity.WARNING if v.cause in ("unknown", "config") else None
        return [L.VERDICT.finding(f"{v.cause}: {v.summary} (confidence: {v.confidence}). Fix: {v.fix}", severity=sev,
                                  ranks=v.culprits, nodes=_nodes(c, v.culprits), evidence=v.proof[:6])]
    return []
