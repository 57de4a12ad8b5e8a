"""Reason stage: cross-rank conclusions from the collected state (pure functions).

Conclusion kinds and what they mean:

===============  ========================================================================
world_size       how many ranks the job had, and from what (NCCL's ``nranks``, a Flight
                 Recorder ``pg_config``, or only the highest rank seen: a lower bound)
culprit          ranks that did not issue the collective the others are stuck in: they
                 enqueued fewer collectives (behind) or never reported a timeout while
                 the others did (silent). The reporting ranks are victims.
desync           ranks issued different collectives (type or size) at the same sequence
                 number of one process group; the minority is named
first_failure    a rank's own error that happened before the timeouts (by timestamp
                 where there is one, else torchrun's "first observed failure")
all_joined       every rank timed out inside the same collective: nobody is missing, so
                 suspect the transport (a dead or slow link, a stuck peer's GPU)
===============  ========================================================================

Confidence: ``high`` when two independent sources agree or the evidence is direct (an
enqueued count, Flight Recorder from every rank, a timestamp order); ``medium`` when
one source says it (e.g. only the absence of a timeout line); ``low`` when it rests on
missing data (no logs at all from a rank).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ncclDoctor.diagnose.signatures import Event
from ncclDoctor.diagnose.state import Collected, RankState

NONFATAL = ("nccl_warn",)


def is_consequence(e: Event) -> bool:
    """A peer went away: "connection closed/reset by peer" is what a rank sees when
    another rank died first, so it never makes that rank the cause."""
    what = str(e.data.get("what") or "").lower()
    return e.kind in ("socket_error", "gloo_error") and ("by peer" in what or "by remote peer" in what)


def own_errors(st: RankState) -> list[Event]:
    return [e for e in st.errors if e.kind not in NONFATAL and e.kind != "child_failed" and not is_consequence(e)]


def waiting(st: RankState) -> bool:
    """The rank was stuck in a collective: it timed out, or lost its peer while waiting."""
    return bool(st.timeouts) or any(is_consequence(e) for e in st.errors)


@dataclass
class Conclusion:
    kind: str
    confidence: str
    message: str
    ranks: list[int] = field(default_factory=list)
    pg: str | None = None
    seq: int | None = None
    evidence: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"kind": self.kind, "confidence": self.confidence, "message": self.message, "ranks": self.ranks,
                "pg": self.pg, "seq": self.seq, "evidence": self.evidence[:8]}


def _fmt_ranks(ranks) -> str:
    rs = sorted(ranks)
    if len(rs) > 12:
        return ", ".join(map(str, rs[:10])) + f", ... ({len(rs)} ranks)"
    return ", ".join(map(str, rs))


def world_size(c: Collected) -> tuple[int | None, str, str]:
    """(size, source, confidence). Explicit counts win over the highest rank seen."""
    if c.world:
        size, where = max(c.world)
        return size, where, "high"
    seen = [r for r in c.ranks]
    seen += [e.rank for e in c.child_failures if e.rank is not None]
    if seen:
        return max(seen) + 1, "highest rank seen in the logs (a lower bound)", "low"
    return None, "no rank numbers in the input", "low"


def _progress(st: RankState, pg: str) -> tuple[int | None, str | None]:
    """How far a rank got in a process group: the highest collective it enqueued."""
    best, where = None, None
    tr = st.fr.pgs.get(pg) if st.fr else None
    if tr is not None and tr.last_enqueued >= 0:
        best, where = tr.last_enqueued, f"{st.fr_where} (Flight Recorder: last enqueued {tr.last_enqueued})"
    s = st.status.get(pg)
    if s is not None and (best is None or s.data["enqueued"] > best):
        best, where = s.data["enqueued"], s.brief()
    t = st.timeouts.get(pg)
    if t is not None and t.seq is not None and (best is None or t.seq > best):
        best, where = t.seq, t.brief()
    return best, where


def _pgs(c: Collected) -> list[str]:
    pgs = set()
    for st in c.ranks.values():
        pgs.update(st.timeouts, st.status)
        if st.fr:
            pgs.update(st.fr.pgs)
    return sorted(pgs, key=lambda p: (len(p), p))


def _members(c: Collected, pg: str, world: int | None) -> tuple[list[int], bool]:
    """The ranks of a process group, and whether that is a guess. Without a Flight
    Recorder pg_config we only know the ranks that mentioned the group; when those are
    more than half of a known world, the group is taken to be the whole world (torch
    numbers the default group 0 or, under some launchers, 1)."""
    for st in c.ranks.values():
        if st.fr and st.fr.pg_ranks.get(pg):
            return st.fr.pg_ranks[pg], False
    seen = sorted(r for r, st in c.ranks.items() if pg in st.timeouts or pg in st.status or (st.fr and pg in st.fr.pgs))
    if world and (pg == "0" or len(seen) * 2 > world):
        return list(range(world)), len(seen) < world
    return seen, False


def hang(c: Collected, pg: str, members: list[int], split: bool = False) -> list[Conclusion]:
    """Culprits of a hang in one process group: behind or silent ranks."""
    prog = {r: _progress(c.ranks[r], pg) for r in members if r in c.ranks}
    timed = {r for r in members if r in c.ranks and pg in c.ranks[r].timeouts}
    known = {r: p for r, (p, _) in prog.items() if p is not None}
    if not known and not timed:
        return []
    seqs = Counter(c.ranks[r].timeouts[pg].seq for r in timed if c.ranks[r].timeouts[pg].seq is not None)
    target = seqs.most_common(1)[0][0] if seqs else max(known.values(), default=None)
    behind = sorted(r for r, p in known.items() if target is not None and p < target)
    silent = sorted(r for r in members if r not in timed and r not in behind
                    and not (r in c.ranks and waiting(c.ranks[r]))) if timed and not split else []
    out: list[Conclusion] = []
    if behind:
        direct = [r for r in behind if c.ranks[r].fr or pg in c.ranks[r].status]
        conf = "high" if len(direct) == len(behind) and len(behind) < len(known) else "medium"
        if len(behind) > len(known) - len(behind):
            conf = "low"  # the majority is behind: maybe the ones ahead issued an extra collective
        elif len(behind) == len(known) - len(behind):
            conf = "medium"
        out.append(Conclusion(
            "culprit", conf,
            f"process group {pg}: rank(s) {_fmt_ranks(behind)} never enqueued collective #{target} "
            f"that {len(known) - len(behind)} other rank(s) issued; last enqueued: "
            + ", ".join(f"rank {r} #{known[r]}" for r in behind[:6]),
            behind, pg, target, [prog[r][1] for r in behind[:4] if prog[r][1]] + _victim_lines(c, pg, timed),
        ))
    logged = [r for r in silent if r in c.ranks and c.ranks[r].files or r in c.ranks and c.ranks[r].counts]
    unlogged = [r for r in silent if r not in logged]
    if logged:
        out.append(Conclusion(
            "culprit", "medium",
            f"process group {pg}: {len(timed)} rank(s) timed out in collective {_num(target)}, but rank(s) "
            f"{_fmt_ranks(logged)} logged no timeout: they were not inside it (their logs are present)",
            logged, pg, target, _victim_lines(c, pg, timed) + [f"rank {r}: {', '.join(sorted(c.ranks[r].files)) or 'events'} without a watchdog timeout" for r in logged[:3]],
        ))
    if unlogged:
        out.append(Conclusion(
            "culprit", "low",
            f"process group {pg}: no log lines at all from rank(s) {_fmt_ranks(unlogged)} while the others timed out in "
            f"collective {_num(target)}: either they are the culprits or their logs were not given",
            unlogged, pg, target, _victim_lines(c, pg, timed),
        ))
    return out


def _num(seq: int | None) -> str:
    return f"#{seq}" if seq is not None else "(no sequence number in the log)"


def _victim_lines(c: Collected, pg: str, timed: set[int]) -> list[str]:
    return [c.ranks[r].timeouts[pg].brief() for r in sorted(timed)[:3]]


def _norm_op(op: str) -> str:
    """ALLREDUCE (WorkNCCL OpType) and all_reduce (Flight Recorder) name the same thing."""
    return op.lower().replace("_", "")


def _numel(sizes) -> int | None:
    try:
        total = 0
        for shape in sizes or []:
            n = 1
            for d in shape:
                n *= int(d)
            total += n
        return total
    except (TypeError, ValueError):
        return None


def _signatures(c: Collected, pg: str) -> dict[int, list[tuple[int, str, int | None, int | None, str]]]:
    """seq -> [(rank, op, numel_in, numel_out, evidence)] from watchdog lines and FR records."""
    sigs: dict[int, list] = {}
    for r, st in c.ranks.items():
        t = st.timeouts.get(pg)
        if t is not None and t.seq is not None and t.op:
            sigs.setdefault(t.seq, []).append((r, _norm_op(t.op), t.numel_in, t.numel_out, t.brief()))
        tr = st.fr.pgs.get(pg) if st.fr else None
        for seq, rec in (tr.records.items() if tr else ()):
            if t is not None and t.seq == seq:
                continue
            sigs.setdefault(seq, []).append((r, _norm_op(rec.op), _numel(rec.in_sizes), _numel(rec.out_sizes),
                                             f"{st.fr_where} record {rec.record_id}: #{seq} {rec.op} input sizes {rec.in_sizes}"
                                             + (f" from {rec.frame}" if rec.frame else "")))
    return sigs


def desync(c: Collected, pg: str) -> list[Conclusion]:
    """The first sequence number at which ranks disagree on the collective."""
    for seq, items in sorted(_signatures(c, pg).items()):
        with_numel = all(i[2] is not None for i in items)
        groups: dict[tuple, list] = {}
        for r, op, ni, no, where in items:
            groups.setdefault((op, ni, no) if with_numel else (op, None, None), []).append((r, where))
        if len(groups) < 2:
            continue
        ordered = sorted(groups.items(), key=lambda kv: -len(kv[1]))
        major = ordered[0][1]
        minority = sorted(r for _, rs in ordered[1:] for r, _ in rs)
        tie = len(ordered[1][1]) == len(major)
        conf = "low" if tie else ("high" if len(major) >= 2 else "medium")
        desc = "; ".join(f"{_sig_text(sig)} on rank(s) {_fmt_ranks(r for r, _ in rs)}" for sig, rs in ordered)
        ev = [w for _, rs in ordered[1:] for _, w in rs[:2]] + [w for _, w in major[:2]]
        return [Conclusion("desync", conf, f"process group {pg}, collective #{seq}: ranks disagree: {desc}", minority, pg, seq, ev)]
    return []


def _sig_text(sig: tuple) -> str:
    op, ni, no = sig
    return op + (f" (NumelIn={ni}, NumelOut={no})" if ni is not None else "")


def first_failure(c: Collected) -> list[Conclusion]:
    errs: list[Event] = [e for st in c.ranks.values() for e in own_errors(st)]
    timeouts = [t for st in c.ranks.values() for t in st.timeouts.values()]
    stamped = [e for e in errs if e.ts is not None]
    if stamped:
        e = min(stamped, key=lambda x: (x.ts, x.rank))
        later = [t for t in timeouts if t.ts is not None and (t.ts >= 1e9) == (e.ts >= 1e9)]
        t0 = min((t.ts for t in later), default=None)
        if t0 is None or e.ts <= t0:
            conf = "high" if t0 is not None else "medium"
            msg = f"rank {e.rank} failed first ({e.kind.replace('_', ' ')})" + (
                f", {t0 - e.ts:.1f} s before the first watchdog timeout" if t0 is not None else "")
            return [Conclusion("first_failure", conf, msg, [e.rank], None, None, [e.brief()] + [t.brief() for t in later[:1]])]
    victims = {r for r, st in c.ranks.items() if waiting(st)}
    roots = [e for e in c.child_failures if e.data.get("root") and e.rank not in victims]
    if roots:  # a root cause that only timed out is the first victim torchrun saw, not a cause
        e = roots[0]
        victim = e.data.get("signal") == "SIGABRT" and len(timeouts) > 1
        conf = "low" if victim else "medium"
        note = " (SIGABRT: that is how the watchdog takes a victim down, so this may be a victim)" if victim else ""
        return [Conclusion("first_failure", conf, f"torchrun's first observed failure: rank {e.rank} on {e.host}, exit code "
                           f"{e.data.get('exitcode')}{note}", [e.rank] if e.rank is not None else [], evidence=[e.brief()])]
    ranks_with = sorted({e.rank for e in errs})
    if len(ranks_with) == 1 and timeouts:
        e = next(x for x in errs if x.rank == ranks_with[0])
        return [Conclusion("first_failure", "medium", f"only rank {e.rank} reports its own error ({e.kind.replace('_', ' ')}); "
                           "the others only time out", [e.rank], evidence=[e.brief()])]
    return []


def all_joined(c: Collected, pg: str, members: list[int]) -> list[Conclusion]:
    timed = [r for r in members if r in c.ranks and pg in c.ranks[r].timeouts]
    if len(members) < 2 or len(timed) != len(members):
        return []
    seqs = {c.ranks[r].timeouts[pg].seq for r in timed}
    if len(seqs) != 1:
        return []
    seq = seqs.pop()
    return [Conclusion("all_joined", "medium", f"process group {pg}: all {len(timed)} ranks timed out inside collective #{seq}: "
                       "no rank is missing", timed, pg, seq, _victim_lines(c, pg, set(timed)))]


def reason(c: Collected) -> list[Conclusion]:
    size, source, conf = world_size(c)
    out = [Conclusion("world_size", conf, f"world size {size} (from {source})" if size else "world size unknown", evidence=[source])]
    out[0].seq = size
    for pg in _pgs(c):
        members, guessed = _members(c, pg, size)
        split = desync(c, pg)
        out += split
        found = hang(c, pg, members, bool(split))
        if guessed:
            for k in found:
                k.message += f" (assuming process group {pg} spans all {size} ranks)"
        out += found or ([] if split else all_joined(c, pg, members))
    out += first_failure(c)
    return out
