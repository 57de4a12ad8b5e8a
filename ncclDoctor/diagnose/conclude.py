"""Findings stage: turn conclusions and collected families into LOG findings (pure).

Every finding names the ranks and, where the logs say it, their hosts; its evidence
starts with the confidence and continues with the proving lines as ``file:line: text``.
"""

from __future__ import annotations

from ncclDoctor.diagnose import rules as R
from ncclDoctor.diagnose.load import Input
from ncclDoctor.diagnose.reason import Conclusion, _fmt_ranks, waiting
from ncclDoctor.diagnose.state import Collected
from ncclDoctor.findings import Finding, Severity


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
    rule_for = {"culprit": R.CULPRIT, "desync": R.DESYNC, "first_failure": R.FIRST_FAILURE, "all_joined": R.ALL_JOINED}
    for k in conclusions:
        rule = rule_for.get(k.kind)
        if rule is None:
            continue
        sev = Severity.WARNING if k.confidence == "low" and k.kind == "culprit" else None
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
    seqs = sorted({(pg, t.seq, t.op) for st in c.ranks.values() for pg, t in st.timeouts.items()}, key=str)[:6]
    desc = "; ".join(f"pg {pg} SeqNum={s} {op}" if s is not None else f"pg {pg} (no SeqNum: gloo)" for pg, s, op in seqs)
    msg = f"{n} watchdog timeout line(s) from {len(ranks)} rank(s)" + (f" ({_fmt_ranks(ranks)})" if ranks else "") + f": {desc}"
    if c.torch_timeout_ms:
        ms = c.torch_timeout_ms
        msg += "; the process-group timeout was " + (f"{ms / 60000:.0f} min" if ms >= 60000 else f"{ms / 1000:.0f} s")
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
    st = sorted({e.data.get("status") for e in evs})
    peers = sorted({e.data["peer"] for e in evs if e.data.get("peer")})[:4]
    s = f"completion status {', '.join(map(str, st))}" + (" (12 = transport retry counter exceeded)" if 12 in st else "")
    return s + (f" from peer(s) {', '.join(peers)}" if peers else "")


def _dl_desc(evs) -> str:
    return "bus error (shared memory exhausted)" if any(e.data.get("bus_error") for e in evs) else "worker killed or exited unexpectedly"


def from_families(c: Collected) -> list[Finding]:
    out = _timeouts(c)
    out += _family(c, "nccl_error", R.NCCL_ERROR, _nccl_desc)
    out += _family(c, "ib_completion", R.IB_COMPLETION, _ib_desc)
    out += _family(c, "socket_error", R.SOCKET, lambda evs: ", ".join(sorted({e.data["what"].lower() for e in evs})))
    out += _family(c, "store_timeout", R.STORE, lambda evs: "endpoint " + (next((e.data["endpoint"] for e in evs if e.data.get("endpoint")), None) or "not named"))
    out += _family(c, "gloo_error", R.GLOO, lambda evs: ", ".join(sorted({e.data["what"] for e in evs})))
    out += _family(c, "heartbeat", R.HEARTBEAT, lambda evs: "watchdog stuck" + "".join(f" {e.data['stuck_s']} s" for e in evs[:1] if e.data.get("stuck_s")))
    out += _family(c, "dataloader", R.DATALOADER, _dl_desc)
    out += _family(c, "cuda_oom", R.OOM, lambda evs: "CUDA out of memory" + "".join(f" (tried to allocate {e.data['tried']})" for e in evs[:1] if e.data.get("tried")))
    out += _family(c, "nccl_warn", R.NCCL_WARN, lambda evs: "NCCL WARN")
    out += _child_failed(c)
    out += _transport(c)
    out += [R.PRIOR.finding(f"{p['code']} ({p['severity']}): {p['message'][:300]}", ranks=p.get("ranks", []), nodes=p.get("nodes", []),
                            evidence=[p["where"]]) for p in c.prior_findings[:10]]
    return out


def _child_failed(c: Collected) -> list[Finding]:
    if not c.child_failures:
        return []
    ranks = sorted({e.rank for e in c.child_failures if e.rank is not None})
    root = next((e for e in c.child_failures if e.data.get("root")), None)
    na = any("<N/A>" in e.text for e in c.child_failures)
    msg = f"{len(c.child_failures)} failed rank(s): " + "; ".join(
        f"rank {e.rank} on {e.host} exit code {e.data.get('exitcode')}{' ' + e.data['signal'] if e.data.get('signal') else ''}"
        for e in c.child_failures[:6])
    if root:
        msg += f". Root cause (first observed): rank {root.rank}"
        if root.rank in c.ranks and waiting(c.ranks[root.rank]):
            msg += " — but that rank was waiting in a collective (timed out or lost its peer): it is the first victim torchrun saw, not the cause"
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
    msg = "; ".join(f"{i.path}: {', '.join(i.notes)}" for i in bad[:8]) + (f"; and {len(bad) - 8} more" if len(bad) > 8 else "")
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
    return [R.MISSING_LOGS.finding(f"world size {world}, but nothing from rank(s) {_fmt_ranks(missing)}", ranks=missing)]


def nothing_found(findings: list[Finding], c: Collected) -> list[Finding]:
    if any(f.severity != Severity.INFO for f in findings if f.code != "LOG030"):
        return []
    return [R.NOTHING_FOUND.finding(f"{sum(c.kinds.values())} event(s) recognised, none of them a failure")]
