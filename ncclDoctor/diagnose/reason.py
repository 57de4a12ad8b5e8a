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

import re
from collections import Counter
from dataclasses import dataclass, field

from ncclDoctor.diagnose.load import rank_from_path
from ncclDoctor.diagnose.signatures import R_PEER_GONE, R_VICTIM_EXC, Event
from ncclDoctor.diagnose.state import QUIET_KINDS, Collected, RankState

NONFATAL = ("nccl_warn",)


def is_consequence(e: Event) -> bool:
    """A peer went away: "connection closed/reset by peer", "Broken pipe" is what a rank
    sees when another rank died first, so it never makes that rank the cause. A gloo pair's
    read that timed out (the path stalled, lead rule AQ (2)) is a rank waiting on its peer alike."""
    what = str(e.data.get("what") or "").lower()
    if e.kind == "socket_error":
        return not e.data.get("connect")
    return e.kind == "gloo_error" and (bool(R_PEER_GONE.search(what)) or bool(e.data.get("stalled")))


def own_errors(st: RankState) -> list[Event]:
    return [e for e in st.errors if e.kind not in NONFATAL and e.kind != "child_failed" and not is_consequence(e)]


# an exception that is a victim's symptom, not a failure of the rank's own code: a lost peer, an aborted communicator,
# a timeout of its own, the launcher's stop (review 107's aside: such a traceback never names its rank)
_R_AFTERMATH_EXC = re.compile(r"Dist\w{0,40}Error|ChildFailedError|KeyboardInterrupt|SignalException|SystemExit|"
                              r"\bNCCL\b|[Tt]imed out|[Tt]ime ?out(?:Error| after| expired| reached)|Timeout\(ms\)|"
                              r"[Cc]onnection (?:reset|refused|closed)|Broken pipe|"
                              r"communicator was aborted|[Ss]ocket|SIGTERM|[Ww]atchdog")


def raised_outside(c: Collected) -> dict[int, Event]:
    """Lead rules A and B together (review 107's aside): ranks whose own rank-tagged traceback ("[rank1]: KeyError:
    ...") ends in an exception of their own code -- not a victim's (a lost peer, an aborted communicator, a timeout, the
    launcher's stop) -- while other ranks are shown inside a collective (a watchdog timeout or status) and they are
    not: they raised and left the collective the others wait in. {rank: its exception}; {} where no rank is shown
    inside, a raising rank is itself inside or waiting, or the rank came from a file's name or a handler's print."""
    inside = {r for r, st in c.ranks.items() if st.timeouts or st.status or st.counts.get("watchdog_report")}
    if not inside:
        return {}
    out: dict[int, Event] = {}
    for e in c.exceptions:
        if e.rank is None or e.data.get("line") or any(e.data.get(k) for k in ("rank_from", "in_handler")):
            continue
        kind = str(e.data.get("type") or "")
        if not kind or R_VICTIM_EXC.match(kind) or _R_AFTERMATH_EXC.search(f"{kind}: {e.data.get('message') or ''}"):
            return {}  # a victim's traceback beside them: who left first, these lines do not say alone
        if e.data.get("frame_func") == "_tensor_to_object":
            return {}  # torch unpickling what a collective received (EOFError: Ran out of input): it was inside it
        if e.rank in inside or (e.rank in c.ranks and waiting(c.ranks[e.rank])):
            return {}
        out.setdefault(e.rank, e)
    return out


def waiting(st: RankState) -> bool:
    """The rank was stuck in a collective: it timed out, or lost its peer while waiting."""
    return bool(st.timeouts) or any(is_consequence(e) for e in st.errors)


def barrier_roles(c: Collected) -> tuple[set[int], set[int]]:
    """The ranks torch's monitored_barrier names as not arriving, and the ranks it shows waiting at it.

    The barrier has one coordinator, the group's rank 0: every other rank sends to it and waits for its answer,
    and says "successfully reached monitoredBarrier, but received errors while waiting for send/recv from rank 0"
    when none comes. The coordinator's own report, "[Rank 0]: Rank(s) N failed to pass monitoredBarrier in T ms",
    shows it at the barrier, waiting for N: where that report is in the logs, the others' "from rank 0" is only its
    abort (it threw without answering), so the coordinator is a waiter and the report's ranks are the ones missing
    (lead rule U (4)). Without the report, the rank the waiters name is all there is."""
    evs = c.samples.get("monitored_barrier", [])
    reports = [e for e in evs if not e.data.get("errors")]
    named = {r for e in (reports or evs) for r in e.data.get("ranks", [])}
    waiters = {r for e in evs for r in e.data.get("waiters", [])}
    if reports:  # the coordinator the waiters name reported from the barrier itself
        waiters |= {r for e in evs if e.data.get("errors") for r in e.data.get("ranks", [])}
    return named, waiters - named


def barrier_waiters(c: Collected) -> set[int]:
    """Ranks torch's monitored_barrier shows waiting at the barrier for the ranks it names: victims, whatever a
    launcher records of them afterwards (their exit is the barrier's error)."""
    return barrier_roles(c)[1]


@dataclass
class Conclusion:
    kind: str
    confidence: str
    message: str
    ranks: list[int] = field(default_factory=list)
    pg: str | None = None
    seq: int | None = None
    evidence: list[str] = field(default_factory=list)
    behind: bool = False  # a culprit proven by its own queue: it never enqueued the stuck collective

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


def inside(c: Collected, r: int, pg: str, seq: int | None) -> bool:
    """The rank's own lines put it inside collective ``seq`` of ``pg`` (or past it): it
    timed out there, or its watchdog status / Flight Recorder says it enqueued that far.
    Such a rank is a victim whether or not it printed "Watchdog caught"."""
    st = c.ranks.get(r)
    if st is None:
        return False
    if pg in st.timeouts:
        return True
    if seq is None:
        return False
    s = st.status.get(pg)
    if s is not None and s.data["enqueued"] >= seq:
        return True
    tr = st.fr.pgs.get(pg) if st.fr else None
    return tr is not None and tr.last_enqueued >= seq


def reported(st: RankState) -> bool:
    """Every watchdog wording counts as the rank's report: a timeout, a status line, a
    heartbeat, "Some NCCL operations have failed or timed out"."""
    return bool(st.timeouts or st.status or st.counts.get("heartbeat") or st.counts.get("watchdog_report"))


def complete_input(c: Collected) -> bool:
    """Does the input plausibly hold every rank's log? When the world size is known from an
    explicit count and every rank of it has lines here, or when every rank up to the highest
    has a file of its own (rank3.log, attempt_0/3/stderr.log). A pasted excerpt fails both."""
    size, _, conf = world_size(c)
    if not size or size > MAX_RANKS_CHECKED:
        return False
    if conf == "high":
        return all(r in c.ranks for r in range(size))
    return all(r in c.ranks and any(rank_from_path(f)[0] == r for f in c.ranks[r].files) for r in range(size))


MAX_RANKS_CHECKED = 1 << 16


def hang(c: Collected, pg: str, members: list[int], split: bool = False, unnamed: bool = False) -> list[Conclusion]:
    """Culprits of a hang in one process group: behind or silent ranks. Lines without a
    process-group tag (pg "?") are never compared as one group: nobody is called
    behind on them, and a silent rank is at most a low-confidence suspect. ``unnamed``: the group's
    sequences diverged (a desync) and the numbers do not say which side took the wrong path, so a
    rank that looks "behind" is only on the other path: nobody is called behind either."""
    prog = {r: _progress(c.ranks[r], pg) for r in members if r in c.ranks}
    timed = {r for r in members if r in c.ranks and pg in c.ranks[r].timeouts}
    known = {r: p for r, (p, _) in prog.items() if p is not None}
    if not known and not timed:
        return []
    seqs = Counter(c.ranks[r].timeouts[pg].seq for r in timed if c.ranks[r].timeouts[pg].seq is not None)
    target = seqs.most_common(1)[0][0] if seqs else max(known.values(), default=None)
    untagged = pg == "?"
    behind = [] if untagged or unnamed else sorted(r for r, p in known.items() if target is not None and p < target)
    if any(r not in c.ranks for r in members) or unsynced(c, pg, members):
        # a rank whose own watchdog shows it inside an earlier collective is stuck there, waiting for a member of
        # it; with a rank of the group not shown, that member may be the unshown one (lead rule E): not named. Nor
        # where every member timed out inside rooted collectives (broadcasts): those let ranks drift apart
        behind = [r for r in behind if r not in timed]
    traced = traced_inside(c, pg, members, target)
    ins = {r for r in members if inside(c, r, pg, target)} | timed | traced
    silent = sorted(r for r in members if r not in ins and r not in behind
                    and not (r in c.ranks and (waiting(c.ranks[r]) or (untagged and reported(c.ranks[r])))))
    silent = silent if timed and not split else []
    out: list[Conclusion] = []
    if behind:
        out.append(_behind(c, pg, target, behind, known, prog, timed, members))
    logged = [r for r in silent if r in c.ranks and (c.ranks[r].files or c.ranks[r].counts)]
    # a rank whose only lines are its own traceback is not without lines: it raised and left (review 107's aside)
    raised = raised_outside(c) if any(r not in logged for r in silent) else {}
    left = [r for r in silent if r not in logged and r in raised]
    unlogged = [r for r in silent if r not in logged and r not in raised]
    if logged:
        # untagged lines all at one SeqNum read as one collective; at several, the groups are unknown
        full = complete_input(c) and (not untagged or len(seqs) == 1) and not _stopped(c, logged)
        out.append(Conclusion(
            "culprit", "medium" if full else "low",
            f"process group {_pg_name(pg)}: {len(ins)} rank(s) were inside collective {_num(target)}, but rank(s) "
            f"{_fmt_ranks(logged)} logged no timeout and no watchdog status: they were not inside it"
            + ("" if full else " — but the launcher's record shows rank "
               f"{_fmt_ranks(_stopped(c, logged))} stopped by SIGTERM in the teardown: a rank inside whose timeout "
               "had not fired yet is silent alike, so this is only a lead" if _stopped(c, logged) and complete_input(c)
               else " — but the input does not hold every rank's full log (an excerpt?), so this is only a lead"),
            logged, pg, target,
            _victim_lines(c, pg, timed)
            + [f"rank {r}: {', '.join(sorted(c.ranks[r].files)) or 'events'} without a watchdog line"
               for r in logged[:3]],
        ))
    if left:
        out.append(Conclusion(
            "culprit", "low",
            f"process group {_pg_name(pg)}: rank(s) {_fmt_ranks(left)} logged no timeout, only their own traceback "
            f"({', '.join(_exc_text(raised[r]) for r in left[:2])}) while the others timed out in collective "
            f"{_num(target)}: they raised and left it",
            left, pg, target, _victim_lines(c, pg, timed) + [raised[r].brief() for r in left[:3]],
        ))
    if unlogged:
        out.append(Conclusion(
            "culprit", "low",
            f"process group {_pg_name(pg)}: no log lines at all from rank(s) {_fmt_ranks(unlogged)} "
            f"while the others timed out in collective {_num(target)}: either they are the culprits or their logs "
            "were not given",
            unlogged, pg, target, _victim_lines(c, pg, timed),
        ))
    if untagged and len(seqs) > 1 and not one_step_ahead([c.ranks[r].timeouts[pg] for r in timed]):
        out.append(_groups_unclear(c, pg, timed))
    return out


def _exc_text(e: Event) -> str:
    kind, msg = str(e.data.get("type") or ""), str(e.data.get("message") or "")
    return (f"{kind}: {msg[:160]}" if msg else kind)


def one_step_ahead(ts: list) -> bool:
    """Lead rules B, E (one rank ahead does not change it): untagged timeouts at two adjacent SeqNums of one OpType
    (and one size where printed), the higher held by one rank and the lower by at least two, every one having run for
    the same time (within a minute): one group whose ranks are all inside (or one step past) the stuck collective, not
    two groups (round 91's guidedcontrast-2: ranks 0, 1, 3 in ALLREDUCE 47362, rank 2 in 47363). SeqNums further
    apart, other ops or sizes, a higher one held by several ranks or a tie, and different starts stay unclear."""
    seqs = Counter(t.seq for t in ts)
    if len(seqs) != 2 or None in seqs:
        return False
    (lo, n_lo), (hi, n_hi) = sorted(seqs.items())
    if hi != lo + 1 or n_hi != 1 or n_lo < 2:
        return False
    ops = {t.op for t in ts}
    sizes = {(t.numel_in, t.numel_out) for t in ts}
    ran = [t.data.get("ran_for_ms") for t in ts]
    return (len(ops) == 1 and None not in ops and len(sizes) == 1 and None not in ran
            and max(ran) - min(ran) < 60_000)


def _stopped(c: Collected, silent: list[int]) -> list[int]:
    """Silent ranks the launcher's record shows stopped by SIGTERM (torchrun's, mpiexec's teardown after another
    rank failed): the stop reached them while they ran, so their silence may be a timeout not fired yet (lead rules
    B, E, I: beside them, the other silent ranks are no surer)."""
    return sorted({e.rank for e in c.child_failures if e.rank in silent
                   and (e.data.get("exitcode") == -15 or e.data.get("signal") == "SIGTERM")})


def _pg_name(pg: str) -> str:
    return "untagged (no PG in the lines)" if pg == "?" else pg


def _behind(c, pg, target, behind, known, prog, timed, members) -> Conclusion:
    direct = [r for r in behind if c.ranks[r].fr or pg in c.ranks[r].status]
    conf = "high" if len(direct) == len(behind) and len(behind) < len(known) else "medium"
    if len(behind) > len(known) - len(behind):
        # more of the ranks shown are behind than ahead: maybe the ones ahead issued an extra collective -- a reading
        # only when those behind are also most of the group; in an excerpt of a larger group (members not shown,
        # which may be inside with the ones ahead) the ranks whose own queue stops short are named, at medium
        conf = "low" if len(behind) * 2 >= len(members) or len(direct) < len(behind) else "medium"
    elif len(behind) == len(known) - len(behind):
        # a tie (one behind, one ahead): a two-rank world's answer, but with other ranks shown timing out outside this
        # group's lines (the same job, its group tag lost) the one ahead may be the odd one (lead rule E): a lead
        others = [r for r, st in c.ranks.items() if r not in known and st.timeouts]
        conf = "low" if others else "medium"
    return Conclusion(
        "culprit", conf,
        f"process group {pg}: rank(s) {_fmt_ranks(behind)} never enqueued collective #{target} "
        f"that {len(known) - len(behind)} other rank(s) issued; last enqueued: "
        + ", ".join(f"rank {r} #{known[r]}" for r in behind[:6]),
        behind, pg, target, [prog[r][1] for r in behind[:4] if prog[r][1]] + _victim_lines(c, pg, timed),
        behind=True,
    )


def _groups_unclear(c: Collected, pg: str, timed: set[int]) -> Conclusion:
    """Untagged timeouts at different SeqNums. Equal 'ran for' (within a minute) means the
    collectives were enqueued at the same moment: different process groups, not a rank
    thousands of collectives behind."""
    ts = [c.ranks[r].timeouts[pg] for r in sorted(timed)]
    lo, hi = min(ts, key=lambda t: t.seq or 0), max(ts, key=lambda t: t.seq or 0)
    rf = [t.data.get("ran_for_ms") for t in (lo, hi)]
    same_time = None not in rf and abs(rf[0] - rf[1]) < 60_000
    why = (f"both ran for about {rf[0] / 1000:.0f} s, so they were enqueued at the same moment: different process "
           "groups (SeqNums count per group), not a rank that fell behind" if same_time else
           "the lines carry no process-group tag, so the SeqNums may belong to different groups")
    return Conclusion("groups_unclear", "low",
                      f"could not tell apart: rank {lo.rank} timed out at SeqNum {lo.seq} and rank {hi.rank} at "
                      f"SeqNum {hi.seq}; {why}. Nobody is named from this difference.",
                      sorted({lo.rank, hi.rank} - {None}), pg, None, [lo.brief(), hi.brief()])


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
                                             f"{st.fr_where} record {rec.record_id}: #{seq} {rec.op} input sizes "
                                             f"{rec.in_sizes}"
                                             + (f" from {rec.frame}" if rec.frame else "")))
    return sigs


def desync(c: Collected, pg: str) -> list[Conclusion]:
    """The first sequence number at which ranks disagree on the collective. A tie (as many ranks
    on each side) proves the desync but not which side is wrong: nobody is named."""
    sigs = _signatures(c, pg)
    if pg == "0" and set(_pgs(c)) == {pg, "?"}:
        # the "[Rank N] Watchdog caught" line names no group; when the only group the lines name is the
        # default one, a timeout at one of its SeqNums is taken as in it. Not when a sub-group is named
        # (PG 2 proves groups 0 and 1 exist: the untagged line may be any of them)
        for seq, items in _signatures(c, "?").items():
            if seq in sigs:
                sigs[seq] += [i for i in items if i[0] not in {x[0] for x in sigs[seq]}]
    for seq, items in sorted(sigs.items()):
        ordered = _split(items)
        if len(ordered) < 2:
            continue
        tie = len(ordered[1][1]) == len(ordered[0][1])
        point = (_one_point(c) or (None, None))[:2] if pg == "?" else None
        if pg == "?" and point != (seq, _shape(ordered)) and _same_point(c, seq):
            # lead rule D without a majority (two ranks, several sizes or ops): a desync, nobody named
            return [_desync_at(pg, seq, ordered, "medium", named=False)]
        conf = ("medium" if point == (seq, _shape(ordered)) else "low" if pg == "?"
                else "medium" if tie else ("high" if len(ordered[0][1]) >= 2 else "medium"))
        return [_desync_at(pg, seq, ordered, conf)]
    point = _one_point(c) if pg == "?" else None
    if point is not None:  # every line tagged by one launcher prefix: the lines' own "[Rank N]" tell them apart
        return [_desync_at(pg, point[0], point[2], "medium")]
    return passed_desync(c, pg)


def _split(items: list) -> list:
    """The signatures at one SeqNum grouped by (op, sizes), the largest group first. A size is compared only
    where every rank's line shows it: a line the paste cut inside its WorkNCCL(...) ("NumelIn=1, Nume": round
    78's physicsnemo-691) has no NumelOut, which is not another NumelOut."""
    with_numel = all(i[2] is not None for i in items)
    with_out = with_numel and all(i[3] is not None for i in items)
    groups: dict[tuple, list] = {}
    for r, op, ni, no, where in items:
        groups.setdefault((op, ni if with_numel else None, no if with_out else None), []).append((r, where))
    return sorted(groups.items(), key=lambda kv: -len(kv[1]))


def _shape(ordered: list) -> tuple:
    return tuple((sig, tuple(sorted(r for r, _ in rs))) for sig, rs in ordered)


def _desync_at(pg: str, seq: int, ordered: list, conf: str, named: bool = True) -> Conclusion:
    major = ordered[0][1]
    minority = sorted(r for _, rs in ordered[1:] for r, _ in rs)
    tie = len(ordered[1][1]) == len(major) or not named
    desc = "; ".join(f"{_sig_text(sig)} on rank(s) {_fmt_ranks(r for r, _ in rs)}" for sig, rs in ordered)
    ev = [w for _, rs in ordered[1:] for _, w in rs[:2]] + [w for _, w in major[:2]]
    both = " vs ".join(f"{sig[0]}" for sig, _ in ordered[:2])
    return Conclusion(
        "desync", conf,
        f"process group {_pg_name(pg)}, collective #{seq}: ranks disagree: {desc}. Two code paths issued "
        f"different collectives ({both}) at the same point: a rank-conditional call (an `if rank == 0:` branch, "
        "an extra step at epoch end, uneven data)",
        [] if tie else minority, pg, seq, ev,
    )


def _one_point(c: Collected) -> tuple | None:
    """Lead rule D for lines that name no group: (seq, shape, ordered) when every untagged NCCL timeout line
    (each with the rank its own "[Rank N]" names) is at one SeqNum under one Timeout(ms), and exactly one
    rank's op differs from one at least two others agree on. The same SeqNum on every rank is one point of
    one group (different groups would be at that number only by chance), so the odd rank took the
    rank-conditional path. None when a line was not kept as a sample (more than ``SAMPLES``)."""
    ts = [t for t in c.samples.get("watchdog_timeout", []) if t.data.get("backend") != "gloo"
          and t.pg in (None, "?")]
    if len(ts) < 3 or len(ts) != c.kinds.get("watchdog_timeout", 0) or any(t.seq is None or not t.op for t in ts):
        return None
    by_rank = {_own_rank(t): t for t in ts}
    if None in by_rank or len({t.seq for t in ts}) != 1 or len({t.data.get("timeout_ms") for t in ts}) != 1:
        return None
    ordered = _split([(r, _norm_op(t.op), t.numel_in, t.numel_out, t.brief()) for r, t in sorted(by_rank.items())])
    if len(ordered) != 2 or len(ordered[0][1]) < 2 or len(ordered[1][1]) != 1:
        return None
    return ts[0].seq, _shape(ordered), ordered


def _same_point(c: Collected, seq: int) -> bool:
    """Lead rule D without a majority, for lines that name no group: two or more ranks (each named by its own
    "[Rank N]") time out at SeqNum SEQ under one Timeout(ms) in different collectives (another op, another
    NumelIn/NumelOut), and the gathers or scatters among them span the same number of ranks (NumelOut/NumelIn):
    one setting, one number, one group size -- one point of one group, where the ranks issued different
    collectives. Lines of the same ranks at other SeqNums (another group, or one step either side) do not undo
    that. False when a line was not kept as a sample."""
    ts = [t for t in c.samples.get("watchdog_timeout", []) if t.data.get("backend") != "gloo" and t.pg in (None, "?")]
    if len(ts) != c.kinds.get("watchdog_timeout", 0):
        return False
    at = [t for t in ts if t.seq == seq and t.op]
    by_rank = {_own_rank(t): t for t in at}
    if len(at) < 2 or None in by_rank or len(by_rank) != len(at):
        return False
    if len({t.data.get("timeout_ms") for t in at}) != 1 or any(_P2P_OP.search(t.op) for t in at):
        return False
    if not all(_OP_NAME.fullmatch(t.op) for t in at) or len({t.numel_in is None for t in at}) != 1:
        return False  # a line cut or garbled inside WorkNCCL(...) (a terminal's margin) is no other collective
    spans = set()
    for t in at:
        op, ni, no = _norm_op(t.op), t.numel_in, t.numel_out
        if ni and no and ni != no and ("gather" in op or "scatter" in op):
            spans.add(max(ni, no) // min(ni, no))
    if len(spans) > 1:
        return False
    return len(_split([(r, _norm_op(t.op), t.numel_in, t.numel_out, "") for r, t in by_rank.items()])) > 1


def passed_desync(c: Collected, pg: str) -> list[Conclusion]:
    """In a default group of two ranks (one communicator on every rank), a rank whose watchdog says it had
    COMPLETED the collective the other is stuck in: with two members, one finishing means it got the other's
    data, so the other cannot still wait in the same collective for the whole timeout -- they were not in the
    same collective at that number, their sequences diverged (a rank-conditional step, e.g. around a checkpoint
    save), a desync. Which side took the wrong path the numbers do not say: nobody is named. With more members
    a rank can finish while another still waits on a third one (a rank not shown, a stalled link): not said."""
    if pg != "0":
        return []
    stuck = {r: st.timeouts[pg].seq for r, st in c.ranks.items()
             if pg in st.timeouts and st.timeouts[pg].seq is not None}
    done = {r: st.status[pg].data["completed"] for r, st in c.ranks.items()
            if pg in st.status and st.status[pg].data.get("completed") is not None}
    pair = next(((a, b) for a in sorted(stuck) for b in sorted(done) if b != a and done[b] >= stuck[a]), None)
    if pair is None:
        return []
    a, b = pair
    ta, sb = c.ranks[a].timeouts[pg], c.ranks[b].status[pg]
    if _group_of(c, ta) != 2:
        return []
    theirs = c.ranks[b].timeouts.get(pg)
    at = f", and is stuck at #{theirs.seq} ({theirs.op})" if theirs is not None and theirs.seq else ""
    return [Conclusion(
        "desync", "medium",
        f"process group {_pg_name(pg)}: rank {a} is stuck in collective #{ta.seq} ({ta.op}) while rank {b} had "
        f"already completed it (last completed #{sb.data['completed']}){at}: a collective cannot finish on one "
        "member while another waits in it, so their sequences of collectives diverged -- a desync (a rank-"
        "conditional step: a save, an evaluation, uneven data); the numbers do not say which side took the wrong "
        "path",
        [], pg, ta.seq, [ta.brief(), sb.brief()] + ([theirs.brief()] if theirs is not None else []))]


def pair_split(c: Collected) -> list[Conclusion]:
    """A world of exactly two ranks, both timed out, each in ONE collective, and not the same one (another
    SeqNum, another op, another size): every group of two ranks holds both, so each waits in a collective the
    other never issued -- whatever group each line is in, the two sequences of collectives diverged (a desync;
    a rank two collectives "ahead" in the same group would have needed the other's part in the one it is stuck
    in). Which side took the wrong path the lines do not say: nobody is named. Not for send/recv (the two ends
    of one transfer name different ops) nor gloo; not when a rank shows its own error. Each line's own
    "[Rank N]" says whose it is (a launcher prefix may tag them all alike)."""
    lines = c.samples.get("watchdog_timeout", [])
    if len(lines) != c.kinds.get("watchdog_timeout", 0) or any(own_errors(st) for st in c.ranks.values()):
        return []
    by: dict[int | None, dict[tuple, Event]] = {}
    for t in lines:
        by.setdefault(_own_rank(t), {})[(t.seq, t.op, t.numel_in)] = t
    # a rank known only from a prefix on lines that each name another rank is not a rank of its own
    tagged = {r for r, st in c.ranks.items()
              if not (st.timeouts and all(_own_rank(t) not in (None, r) for t in st.timeouts.values()))}
    size, _, sure = world_size(c)
    shown = set(by) | tagged | {e.rank for e in c.child_failures if e.rank is not None}
    if sorted(by, key=str) != [0, 1] or shown != {0, 1} or (sure == "high" and size != 2):
        return []
    if any(len(sigs) != 1 for sigs in by.values()):
        return []
    a, b = (next(iter(by[r].values())) for r in (0, 1))
    if any(t.seq is None or not t.op or t.data.get("backend") == "gloo" or _P2P_OP.search(t.op) for t in (a, b)):
        return []
    if any(t.numel_in and t.numel_out and t.numel_in != t.numel_out and ("gather" in _norm_op(t.op) or "scatter"
           in _norm_op(t.op)) and max(t.numel_in, t.numel_out) // min(t.numel_in, t.numel_out) != 2 for t in (a, b)):
        return []  # NumelOut/NumelIn of a gather or scatter says a larger group
    sized = a.numel_in is not None and b.numel_in is not None
    if a.seq == b.seq and _norm_op(a.op) == _norm_op(b.op) and (not sized or a.numel_in == b.numel_in):
        return []
    def desc(r: int, t: Event) -> str:
        return f"rank {r} in #{t.seq} {t.op}" + (f" of {t.numel_in} element(s)" if t.numel_in is not None else "")
    return [Conclusion(
        "desync", "medium",
        f"a world of two ranks, each stuck in a different collective ({desc(0, a)}; {desc(1, b)}): every group "
        "of two holds both ranks, so each waits in a collective the other never issued -- their sequences of "
        "collectives diverged (a rank-conditional call, e.g. a logger/metric hook or a save on one rank only, "
        "uneven data), a desync; the lines do not say which side took the wrong path",
        [], a.pg, a.seq, [a.brief(), b.brief()])]


_P2P_OP = re.compile(r"send|recv", re.I)
_OP_NAME = re.compile(r"_?[A-Za-z][A-Za-z_]{1,40}")


def _group_of(c: Collected, t: Event) -> int | None:
    """The size of the default group a timeout is in: NumelOut/NumelIn of a gather or scatter, else the
    world size the input states."""
    op, ni, no = _norm_op(t.op or ""), t.numel_in, t.numel_out
    if ni and no and ni != no and ("scatter" in op or "gather" in op):
        return max(ni, no) // min(ni, no)
    return world_size(c)[0]


_PIPELINE = re.compile(r"PIPELINE|\bpp(?:_group)?\b|_pp_|pp_group", re.I)


_RANK_IN_LINE = re.compile(r"\[(?:PG [^\]]{0,80} )?Rank (\d{1,7})\]")


def _own_rank(e: Event) -> int | None:
    m = _RANK_IN_LINE.search(e.text)
    return int(m.group(1)) if m else e.rank


def unnumbered_desync(c: Collected, pg: str) -> list[Conclusion]:
    """Timeouts without a SeqNum (torch < 2.0 printed none) in lines that name no group: when the ranks time out
    in different collective types under one timeout setting, each waits in a collective the others never joined:
    they took different code paths (a desync). Which side is wrong, and whether a sub-group is involved, the
    lines do not say: nobody is named, and the conclusion says so."""
    if pg != "?":
        return []
    # every timeout line read (not one per rank: a prefix that tags every line with one rank must not hide them),
    # each with the rank its own "[Rank N]" names
    ts = [(_own_rank(t), t) for t in c.samples.get("watchdog_timeout", []) if t.data.get("backend") != "gloo"]
    if len(ts) < 2 or any(t.seq is not None or not t.op for _, t in ts):
        return []
    ops: dict[str, set[int]] = {}
    for r, t in ts:
        ops.setdefault(_norm_op(t.op), set()).update([] if r is None else [r])
    if len(ops) < 2 or len({t.data.get("timeout_ms") for _, t in ts}) != 1:
        return []
    desc = "; ".join(f"{op} on rank(s) {_fmt_ranks(sorted(rs))}"
                     for op, rs in sorted(ops.items(), key=lambda kv: -len(kv[1])))
    return [Conclusion(
        "desync", "medium",
        f"the ranks timed out in different collectives ({desc}): each side waits in a collective the other never "
        "issued, so they are on different code paths, e.g. one rank ran an extra step (uneven batches at epoch end) "
        "or a rank-conditional collective while the others moved on. The lines carry no SeqNum or process group, "
        "so which side is wrong (or whether one op is in a sub-group) is not said",
        [], pg, None, [t.brief() for _, t in ts[:4]],
    )]


def _sig_text(sig: tuple) -> str:
    op, ni, no = sig
    return op + (f" (NumelIn={ni}, NumelOut={no})" if ni is not None else "")


def first_failure(c: Collected) -> list[Conclusion]:
    # The heartbeat monitor fires minutes after a watchdog got stuck: when it fired says
    # nothing about which rank failed first.
    # A duplicate-GPU refusal is the launch's (two ranks put on one GPU), no rank's own failure: it never makes the
    # rank that printed it the first to fail (review 107 finding 1: torch's "Duplicated GPU device" warning line
    # beside another rank's own OOM)
    errs: list[Event] = [e for st in c.ranks.values() for e in own_errors(st) if e.kind != "heartbeat"
                         and "duplicate_gpu" not in e.data]
    timeouts = [t for st in c.ranks.values() for t in st.timeouts.values()]
    stamped = [e for e in errs if e.ts is not None]
    if stamped:
        e = min(stamped, key=lambda x: (x.ts, x.rank))
        later = [t for t in timeouts if t.ts is not None and (t.ts >= 1e9) == (e.ts >= 1e9)]
        t0 = min((t.ts for t in later), default=None)
        # "first" needs something it came before: a watchdog timeout's clock, or another rank's stamped error.
        # One rank's own stamped errors alone say only that it failed (a prefix's clock on every line must not
        # turn a lone victim into the rank that failed first); the unstamped reading below then decides.
        compared = t0 is not None or len({x.rank for x in stamped}) > 1
        if compared and (t0 is None or e.ts <= t0):
            conf = "high" if t0 is not None else "medium"
            msg = f"rank {e.rank} failed first ({e.kind.replace('_', ' ')})" + (
                f", {t0 - e.ts:.1f} s before the first watchdog timeout" if t0 is not None else "")
            return [Conclusion("first_failure", conf, msg, [e.rank], None, None,
                               [e.brief()] + [t.brief() for t in later[:1]])]
    victims = {r for r, st in c.ranks.items() if waiting(st)} | barrier_waiters(c)
    # a root cause that only timed out is the first victim torchrun saw, not a cause; one SIGTERM'd is
    # the first the agent stopped (the job was stopped from outside), not one that failed on its own
    roots = [e for e in c.child_failures if e.data.get("root") and e.rank not in victims
             and e.data.get("exitcode") != -15 and e.data.get("signal") != "SIGTERM"]
    if roots:
        e = roots[0]
        # SIGABRT is how the watchdog ends a process after a timeout or an NCCL error: no proof either way
        victim = e.data.get("signal") == "SIGABRT" or e.data.get("exitcode") == -6
        # Every rank exiting with the same code in the same second: torchrun's "first" is the order it
        # polled them in, not which failed first (a shared cause, e.g. the same exception on every rank).
        # A root whose exit code the paste cut is alike any other failure of its second (nothing says otherwise).
        # So is another rank of that second failing on its own with another code (a signal not the agent's SIGTERM,
        # its own lines showing no watchdog timeout: lead rules J, AM (2)): two failures, neither shown first
        alike = [x for x in c.child_failures if x is not e and (x.data.get("time") or e.data.get("time")) ==
                 e.data.get("time") and (e.data.get("exitcode") is None and x.data.get("exitcode") not in (None, -15)
                                         or x.data.get("exitcode") == e.data.get("exitcode")
                                         or (x.data.get("exitcode") not in (None, -15, 0)
                                             and x.data.get("signal") != "SIGTERM" and x.rank not in victims))]
        # the record's Failures section shows another entry's tail above the Root Cause (its rank and exit cut) and
        # no error file was written: a second worker failed, and "first observed" is only the agent's poll (lead
        # rule BW (1); round 92's lora-scripts-257). An error file's own timestamp keeps rule A's reading
        others = bool(e.data.get("others_cut")) and (e.data.get("error_file") or "<N/A>") == "<N/A>"
        conf = "low" if victim or alike or others else "medium"
        code = e.data.get("exitcode") if e.data.get("exitcode") is not None else "not shown"
        same = all(x.data.get("exitcode") == e.data.get("exitcode") for x in alike)
        note = (" (SIGABRT: that is how the watchdog takes a victim down, so this may be a victim)" if victim else
                f" ({len(alike)} other rank(s) exited with the same code in the same second: torchrun's 'first' is "
                "only the order it polled them in)" if alike and same else
                f" ({len(alike)} other rank(s) failed on their own in the same second: torchrun's 'first' is only "
                "the order it polled them in)" if alike else
                " (the record's Failures section shows another worker's entry above it, its rank and exit code cut, "
                "and no error file: torchrun's 'first' is only the order it polled them in)" if others else "")
        return [Conclusion("first_failure", conf,
                           f"torchrun's first observed failure: rank {e.rank} on {e.host}, exit code "
                           f"{code}{note}", [e.rank] if e.rank is not None else [],
                           evidence=[e.brief()])]
    ranks_with = sorted({e.rank for e in errs})
    if len(ranks_with) == 1 and timeouts:
        e = next(x for x in errs if x.rank == ranks_with[0])
        return [Conclusion("first_failure", "medium",
                           f"only rank {e.rank} reports its own error ({e.kind.replace('_', ' ')}); "
                           "the others only time out", [e.rank], evidence=[e.brief()])]
    return []


def all_joined(c: Collected, pg: str, members: list[int]) -> list[Conclusion]:
    """Every member timed out in one collective. Only said when the members are known (a
    Flight Recorder pg_config, or the whole world with every rank's log): in an excerpt,
    "everyone shown joined" says nothing about the ranks not shown."""
    timed = [r for r in members if r in c.ranks and pg in c.ranks[r].timeouts]
    seqs = {c.ranks[r].timeouts[pg].seq for r in timed}
    traced = traced_inside(c, pg, members, next(iter(seqs))) if len(seqs) == 1 and timed else set()
    if traced and set(timed) | traced == set(members):
        seq = next(iter(seqs))
        return [Conclusion("all_joined", "medium",
                           f"process group {pg}: rank(s) {_fmt_ranks(timed)} timed out inside collective #{seq} and "
                           "NCCL's collective trace (NCCL_DEBUG_SUBSYS=COLL) shows rank(s) "
                           f"{_fmt_ranks(sorted(traced))} issuing it too: every rank of the world was inside it, "
                           "no rank is missing",
                           sorted(set(timed) | traced), pg, seq, _victim_lines(c, pg, set(timed)))]
    if len(members) < 2 or len(timed) != len(members) or not (complete_input(c) or _pg_config(c, pg)
                                                              or _whole_by_count(c, members)):
        return []
    if len(seqs) != 1 and unsynced(c, pg, members):
        ops = sorted({str(c.ranks[r].timeouts[pg].op) for r in timed})
        return [Conclusion("all_joined", "medium",
                           f"process group {pg}: all {len(timed)} ranks timed out, each inside a {'/'.join(ops)} it "
                           f"had enqueued (SeqNums {min(seqs)}-{max(seqs)}: a rooted collective lets the ranks drift "
                           "apart, so the one at the lowest SeqNum is stuck inside its own, not behind): no rank is "
                           "missing", timed, pg, min(seqs), _victim_lines(c, pg, set(timed)))]
    if len(seqs) != 1:
        return []
    seq = seqs.pop()
    return [Conclusion("all_joined", "medium",
                       f"process group {pg}: all {len(timed)} ranks timed out inside collective #{seq}: "
                       "no rank is missing", timed, pg, seq, _victim_lines(c, pg, set(timed)))]


def traced_inside(c: Collected, pg: str, members: list[int], seq: int | None) -> set[int]:
    """Ranks of the world that NCCL's collective trace (NCCL_DEBUG_SUBSYS=COLL: "AllGather: opCount 109a2 ... comm 0x..
    [nranks=2]") shows issuing collective ``seq`` of the default group or a later one: their own process's line, as a
    watchdog line is. The trace names processes (host:pid) and devices, not ranks: a process is a rank where the same
    file's NCCL lines tie its pid to one ("comm 0x.. rank 1 nranks 2"), or, where every rank that timed out is so tied,
    the traced processes left over are the ranks left over, one for one. Only the process's one communicator of the
    world's size is read (its opCount counts that communicator's collectives as the group's SeqNum does); its highest
    opCount at or past ``seq`` is inside or past it under either numbering (from 0 or from 1). Lead rule B (round 68's
    SOAP-9: rank 0's trace issuing AllGather 68002 while rank 1 timed out in ALLGATHER #68002)."""
    size, _, sure = world_size(c)
    evs = c.samples.get("coll_trace", [])
    if not evs or seq is None or pg not in ("0", "?") or sure != "high" or not size or members != list(range(size)):
        return set()
    pid_rank: dict[str, int] = {}
    far: dict[str, int] = {}
    ops = {_op_word(c.ranks[r].timeouts[pg].op) for r in members if r in c.ranks and pg in c.ranks[r].timeouts}
    for e in evs:
        pid_rank.update(e.data.get("pid_rank", {}))
        for proc, comms in e.data.get("procs", {}).items():
            world = [v for v in comms.values() if v["nranks"] == size]
            if len(world) == 1 and world[0]["ops"]:
                at = world[0]["ops"].get(seq)
                if at is not None and _op_word(at[0]) not in ops:
                    continue  # another collective at that count: not the one timed out (a desync is not "inside")
                hp = proc.rsplit(":", 1)[0]
                far[hp] = max(far.get(hp, -1), max(world[0]["ops"]))
    out = {r for hp, r in pid_rank.items() if hp in far and far[hp] >= seq and r in members}
    timed = {r for r in members if r in c.ranks and pg in c.ranks[r].timeouts}
    tied = set(pid_rank.values())
    rest = [r for r in members if r not in tied]
    loose = [hp for hp in far if hp not in pid_rank]
    if timed and timed <= tied and rest and len(loose) == len(rest) and all(far[hp] >= seq for hp in loose):
        out |= set(rest)
    return out - timed


def _op_word(op) -> str:
    """A collective's name as NCCL's trace and torch's OpType both spell it: "AllGather", "_ALLGATHER_BASE" ->
    "allgather"."""
    return str(op).lower().replace("_base", "").replace("_", "")


# collectives with a root: a broadcast's (a reduce's, a scatter's, a gather's) ranks do not all wait for each other,
# so an upstream rank finishes its part and goes on to the next while a rank downstream still receives
ROOTED_OPS = frozenset({"BROADCAST", "REDUCE", "SCATTER", "GATHER"})


def unsynced(c: Collected, pg: str, members: list[int]) -> bool:
    """Lead rule B over rooted collectives: every member of a known, whole group timed out by its own watchdog, each
    inside a broadcast (reduce, scatter, gather) it had enqueued (its status line's last enqueued at or past its own
    timed-out SeqNum), at different SeqNums. Those collectives do not hold the ranks in step, so a rank at a lower
    SeqNum is stuck inside its own collective -- the data path into it stalled -- not a rank that never reached the
    others' (round 68's alcf-nccl-tests VAE run: broadcasts timing out at SeqNums 5 to 56 on all 8 ranks). An
    all-reduce or all-gather at different SeqNums is not read so (its ranks finish together)."""
    if len(members) < 2 or not (complete_input(c) or _pg_config(c, pg)):
        return False
    ts = [c.ranks[r].timeouts.get(pg) if r in c.ranks else None for r in members]
    if any(t is None or t.seq is None or str(t.op).upper() not in ROOTED_OPS for t in ts):
        return False
    for r, t in zip(members, ts):
        s = c.ranks[r].status.get(pg)
        if s is not None and s.data["enqueued"] < t.seq:
            return False
    return len({t.seq for t in ts}) > 1


def _whole_by_count(c: Collected, members: list[int]) -> bool:
    """Lead rule B: every rank from 0 up to the highest shown has its own timeout line, nothing in the lines says
    the world is larger (no stated size, no other rank named), and their number is a machine's usual GPU count (a
    power of two, four or more: three ranks shown of a 4-GPU job, or two ranks' lines, are the usual excerpt): the
    ranks shown plausibly are the job. Only where the timeouts carry a SeqNum (the corpus's no-SeqNum reading, rule
    AI (4)): an older torch's lines without one do not show the ranks inside the same collective, so ranks shown
    with no world size printed stay an excerpt (steerer-20's four ALLREDUCE timeouts)."""
    if any(t.seq is None for r in members if r in c.ranks for t in c.ranks[r].timeouts.values()):
        return False
    size, _, conf = world_size(c)
    return (conf == "low" and size is not None and size >= 4 and size & (size - 1) == 0 and size == len(members)
            and set(c.ranks) == set(members) == set(range(size)))


def _pg_config(c: Collected, pg: str) -> bool:
    return any(st.fr and st.fr.pg_ranks.get(pg) for st in c.ranks.values())


SETUP_SEQ = 8  # NCCL connects peers lazily, in the first collectives of a communicator
SETUP_NUMEL = 1 << 16


def single_line(c: Collected) -> list[Conclusion]:
    """What an expert reads from the numbers of one watchdog line.

    - ``ran for`` far beyond ``Timeout(ms)``: the watchdog checks every few seconds, so a
      large excess means the watchdog thread itself did not run (GIL held by a thread
      stuck in a CUDA call, a driver hang): a blocked process, not a late collective.
    - a timeout at one of the first SeqNums with a tiny message: nothing of the training
      step has run yet; NCCL was still connecting the ranks (interface, firewall, P2P, IB).
    """
    out: list[Conclusion] = []
    ts = [t for st in c.ranks.values() for t in st.timeouts.values()] + [
        e for e in c.samples.get("watchdog_timeout", []) if e.rank is None]
    blocked = [t for t in ts if t.data.get("ran_for_ms") and t.data.get("timeout_ms")
               and _late(t.data["ran_for_ms"], t.data["timeout_ms"]) and not timeout_in_seconds(t)]
    if blocked:
        t = max(blocked, key=lambda x: x.data["ran_for_ms"])
        late = (t.data["ran_for_ms"] - t.data["timeout_ms"]) / 60000
        out.append(Conclusion(
            "watchdog_blocked", "high",
            f"the watchdog noticed the timeout {late:.0f} min late (ran for {t.data['ran_for_ms']} ms against "
            f"Timeout(ms)={t.data['timeout_ms']}): the watchdog thread itself could not run — a thread holding the GIL "
            "inside a CUDA call, or a driver/GPU hang. The process was stuck, not only the collective",
            sorted({x.rank for x in blocked if x.rank is not None}), t.pg, t.seq, [x.brief() for x in blocked[:3]]))
    seqs = [t for t in ts if t.seq is not None]
    # a pipeline group's first work is the first training step's send/recv between two stages, where a stage
    # waits on its neighbour's forward/backward: its low SeqNum says the group is young, not the job
    piped = seqs and all(_PIPELINE.search(str(t.data.get("pg_desc") or "")) for t in seqs)
    # torch's "Timeout at NCCL work: N" status lines say the same when no "Watchdog caught" line is shown
    said = seqs or ([] if ts else [s for st in c.ranks.values() for s in st.status.values()
                                   if s.seq is not None and timed_out_at(s)])
    unshown = None if piped else first_unshown(c, said)
    if unshown is None and not piped:  # ("" is every rank of the world shown inside: connection set-up)
        unshown = _lone_untagged(c, ts, seqs)
    if unshown:
        t = said[0]
        out.append(Conclusion(
            "first_missing", "medium",
            f"the timeout is in collective #{t.seq}" + (f" ({t.op})" if t.op else "") + ", one of the group's "
            "first collectives, and "
            f"{unshown}: the rank the others wait for is one these lines do not show (lead rule H)",
            [], t.pg, t.seq, [x.brief() for x in said[:3]]))
    elif unshown == "" or seqs and not piped and not _failed_alone(c) and all(
            t.seq <= SETUP_SEQ and (t.numel_in is None or t.numel_in <= SETUP_NUMEL) for t in seqs) \
            and (all(t.seq <= FIRST_SEQ for t in seqs) and not first_unshown(c, said, SETUP_SEQ)
                 or first_unshown(c, said, SETUP_SEQ) == ""):
        # past rule H's first collectives (SeqNum 3-8), set-up only with every rank of the world shown inside it; a
        # rank not shown, or lines that name no rank (an excerpt), are rules B/E's rank_missing
        t = said[0]
        size = f", {t.numel_in} element(s)" if t.numel_in is not None else ""
        out.append(Conclusion(
            "connection_setup", "medium",
            f"the timeout is in collective #{t.seq} ({t.op or '?'}{size}): one of the first collectives, "
            + ("with every rank of the world inside it" if unshown == "" else "with a tiny message")
            + ". NCCL connects the ranks during the first collectives, so this is connection set-up (network "
            "interface, firewall, P2P/IB), not the training step",
            [], t.pg, t.seq, [x.brief() for x in said[:3]]))
    return out


def _late(ran: int, timeout: int) -> bool:
    """A watchdog that noticed the timeout far past it (it checks every few seconds): more than a minute, or a
    quarter of the timeout, late."""
    return ran - timeout > max(60_000, timeout // 4)


def timeout_in_seconds(t: Event) -> bool:
    """A watchdog line whose Timeout(ms) is a number of seconds -- its thousands' zeros lost in a paste, or a timeout
    given in the wrong unit ("Timeout(ms)=1800) ran for 1808499 milliseconds": round 104's nora-8): far below what
    the collective ran for, yet read as seconds the watchdog noticed it on time. The ran-for is then the timeout's
    own (the process was not stuck past it): read with that timeout, not as a watchdog thread that could not run.
    Only 1000 to 86400 "ms" so read (17 min to a day as seconds): under a second is verdict.launch's tiny timeout."""
    ran, to = t.data.get("ran_for_ms"), t.data.get("timeout_ms")
    if not ran or not to or not 1000 <= to <= 86_400 or ran < to * 1000:
        return False
    return not _late(ran, to * 1000)


# what may stand beside rule H's one untagged timeout line and still leave one process shown inside the collective: that
# process's own watchdog lines ("Watchdog caught ...", its abort: "NCCL communicator was aborted") and a launcher's
# record of processes exiting ("Sending process N closing signal SIGTERM", "failed (exitcode: -6) local_rank: 1", its
# ChildFailedError), which shows a process gone, not one inside the collective (_lone_untagged)
_LONE_BESIDE = ("watchdog_timeout", "watchdog_report", "signal", "worker_failed", "child_failed")


def _lone_untagged(c: Collected, ts: list[Event], seqs: list[Event]) -> str | None:
    """Lead rule H for one watchdog timeout line that names no rank (no "[Rank N]" tag, no launcher prefix, no world
    size), in one of its group's first collectives (SeqNum 1 or 2), with no other failure of any process shown: one
    process is shown inside the collective, and a collective has at least two -- the rest of the world is not shown
    (round 104's deepspeed-course-17: a barrier's one-element all-reduce at SeqNum=1, pasted alone). A launcher's
    record of processes exiting beside it (SIGTERM sent, a worker's exit code: _LONE_BESIDE) does not show a process
    inside the collective: rule H still (review 104 (1) finding 5, lead's ruling). Described as first_unshown
    describes it; None where a rank is named or more is shown (several untagged lines may be the whole world:
    connection set-up stays their reading), and where another failure with no rank stands beside it -- an NCCL error,
    a crash, a CUDA error, an exception no family reads: the lines show more than one process's trouble, not one
    process alone (review 104 (2) finding 2, lead's ruling)."""
    if len(ts) != 1 or len(seqs) != 1 or ts[0].rank is not None or seqs[0].seq > FIRST_SEQ:
        return None
    if any(st.timeouts or st.status or st.errors or st.counts.get("watchdog_report") for st in c.ranks.values()):
        return None
    if c.exceptions or any(n and k not in QUIET_KINDS and k not in _LONE_BESIDE for k, n in c.kinds.items()):
        return None
    return "only one process, its rank not printed, is shown inside it (a collective has at least two): the rest " \
           "of the world not shown"


def _failed_alone(c: Collected) -> bool:
    """A rank shown failing on its own (an error of its own: ncclInternalError raised, a crash) and not inside the
    timed-out collective (no timeout or watchdog status of its own), beside ranks timing out in their first
    collectives: that failure is the first one shown (lead rules AU (1), AN (1)), read by its own class, not the
    connection set-up a tiny first timeout alone suggests (round 68's pippy-1146: rank 3's ncclInternalError while
    rank 2 timed out in its first send/recv batch)."""
    return any(own_errors(st) and not (st.timeouts or st.status or st.counts.get("watchdog_report"))
               for st in c.ranks.values())


_TIMEOUT_AT = re.compile(r"Timeout at NCCL work: ?\d")  # ProcessGroupNCCL's status line of a timed-out work
# torch 2.4+'s "failure detected by watchdog at work sequence id: 10 PG status: last enqueued work: 10, last completed
# work: 9": whether a timeout or an error it does not say; with nothing enqueued after the failed work the rank
# stopped there, waiting inside it, as a timed-out rank does (a rank's own NCCL error beside it is read first); with
# work enqueued after it, only the same rank's dump signal "due to a collective timeout from this local rank" (state's
# "own_timeout") says the failure was its timeout, inside that work
_FAILED_AT = re.compile(r"failure detected by watchdog at work sequence id: ?\d")


def timed_out_at(s: Event) -> bool:
    """A watchdog status line saying this rank's work ``s.seq`` timed out, or failed with the rank stopped in it."""
    return bool(_TIMEOUT_AT.search(s.text)) or bool(
        _FAILED_AT.search(s.text) and s.seq is not None
        and (s.data.get("enqueued") == s.seq or s.data.get("own_timeout")))
FIRST_SEQ = 2  # lead rule H: a group's first collectives (NCCL connects its peers there)


def first_unshown(c: Collected, seqs: list[Event], first: int = FIRST_SEQ) -> str | None:
    """Lead rule H: every timeout is in one of its group's first collectives (SeqNum 1 or 2, or a status line
    saying nothing ever completed) and a rank of the world is not shown inside it -- rank 0 or a rank below the
    highest shown absent, fewer ranks than a stated world size or than NumelOut/NumelIn of a gather or scatter
    says, one rank alone (a collective has at least two). What is not shown, described; "" when every rank of
    that world is shown inside (connection set-up, whatever the message size); None when rule H does not apply
    (later collectives, a rank's own error) or the lines name no rank (nothing to count). ``first``: the highest
    SeqNum read as a first collective (single_line asks up to SETUP_SEQ whether a tiny timeout can be set-up)."""
    if not seqs or any(t.seq is None for t in seqs):
        return None
    done = [s.data.get("completed") for st in c.ranks.values() for s in st.status.values()]
    if not all(t.seq <= first or -1 in done for t in seqs):
        return None
    # a rank known only from a launcher's prefix on timeout lines that each name another rank of the default group
    # ("[rank3]: what(): [Rank 1] Watchdog caught ...") is not a rank of its own: those lines are the rank they name
    # (as pair_split reads them); a sub-group's "[PG 5 Rank 1]" is a rank inside that group, not a global one
    lent = {r for r, st in c.ranks.items() if st.timeouts and all(
        t.pg in (None, "0") and _own_rank(t) not in (None, r) for t in st.timeouts.values())}
    named = {_own_rank(t) for r in lent for t in c.ranks[r].timeouts.values()}
    inside = {r for r, st in c.ranks.items() if r not in lent and (st.timeouts or st.status
                                                                   or st.counts.get("watchdog_report"))} | named
    if not inside or any(own_errors(st) for st in c.ranks.values()):
        return None  # no rank named, or a rank shows more than its timeout: not rule H's reading
    ratios = [max(t.numel_in, t.numel_out) // min(t.numel_in, t.numel_out) for t in seqs
              if t.numel_in and t.numel_out and t.numel_in != t.numel_out and t.op
              and ("GATHER" in t.op.upper() or "SCATTER" in t.op.upper()) and max(t.numel_in, t.numel_out) < 1 << 62]
    size, _, sure = world_size(c)
    stated = size if size and sure == "high" else 0
    world = max([2, max((set(c.ranks) - lent) | inside) + 1, stated] + ratios)
    if world > MAX_RANKS_CHECKED:
        return None
    absent = [r for r in range(world) if r not in inside]
    known = max([stated] + ratios)
    if world > known and any(t.data.get("ray_repeated") for t in seqs):
        # Ray folded the same watchdog line of other workers -- other ranks -- into a shown one ("[repeated Nx
        # across cluster]"): a rank number missing above rank 0 is no rank known missing (lead rule AB (1))
        absent = [r for r in absent if r == 0 or r < known]
    if not absent:
        return ""
    why = (f"a world of {stated} (NCCL's nranks / a stated size)" if stated == world else
           f"a group of {world} (NumelOut/NumelIn of the gather/scatter)"
           if world in ratios and world > max(c.ranks) + 1 else
           f"a world of at least {world} (ranks 0-{world - 1})")
    return (f"only rank {_fmt_ranks(sorted(inside))} of {why} is shown inside it: "
            f"rank {_fmt_ranks(absent)} not shown")


def _rank_set(text: str) -> list[int]:
    return sorted({int(x) for x in re.findall(r"\d+", text or "")})


def fr_analysis(c: Collected) -> list[Conclusion]:
    """torch's own Flight Recorder analyzer compared every rank's dump: 'Not all ranks
    joining collective' with 'missing ranks' names ranks that did not issue it (their
    dumps exist and lack it), 'error msg: Culprit rank N; Error type: ...' a mismatch."""
    out: list[Conclusion] = []
    for e in c.fr_analysis:
        d = e.data
        where = f"process group {d.get('group_info', '?')}, collective {_num(e.seq)} ({d.get('collective', '?')}" + (
            f", issued from {d['stack']})" if d.get("stack") else ")")
        if d.get("missing_join") and d.get("missing_ranks"):
            ranks = _rank_set(d["missing_ranks"])
            out.append(Conclusion("culprit", "high", f"{where}: torch's Flight Recorder analyzer found rank(s) "
                                  f"{_fmt_ranks(ranks)} not joining it (expected ranks {d.get('expected_ranks', '?')})",
                                  ranks, d.get("group_info"), e.seq, [e.brief()]))
        elif d.get("error_msg"):
            culprits = _rank_set(" ".join(re.findall(r"Culprit rank (\d+)", d["error_msg"])))
            kind = "desync" if "MISMATCH" in d["error_msg"] and "STATE" not in d["error_msg"] else "culprit"
            out.append(Conclusion(kind, "high", f"{where}: torch's Flight Recorder analyzer: {d['error_msg'][:300]}",
                                  culprits, d.get("group_info"), e.seq, [e.brief()]))
    return out[:4]


def numbers(c: Collected) -> list[Conclusion]:
    """An expert's reading of the numbers of the most common watchdog line and its rank's status."""
    ts = [(pg, t) for st in c.ranks.values() for pg, t in st.timeouts.items() if t.seq is not None]
    ts += [("?", e) for e in c.samples.get("watchdog_timeout", []) if e.rank is None and e.seq is not None]
    if not ts:
        return []
    common = Counter((t.seq, t.op) for _, t in ts).most_common(1)[0][0]
    pg, t = min(((p, x) for p, x in ts if (x.seq, x.op) == common), key=lambda px: (px[0] == "?", px[1].rank or 0))
    said = [f"SeqNum={t.seq}: the {_ordinal(t.seq)} collective of process group {_pg_name(pg)}"]
    ni, no, op = t.numel_in, t.numel_out, (t.op or "").upper()
    if ni and no and ni != no and ("SCATTER" in op or "GATHER" in op):
        g = max(ni, no) // min(ni, no)
        said.append(f"NumelIn={ni} / NumelOut={no}: a {op.strip('_').lower()} over {g} ranks")
    elif ni is not None and ni <= 8:
        said.append(f"NumelIn={ni}: a barrier or a scalar (a loss/metric sync, a flag), not a gradient bucket")
    elif ni:
        said.append(f"NumelIn={ni}: {ni * 2 / 2**20:.0f} MiB in bf16, {ni * 4 / 2**20:.0f} MiB in fp32 "
                    "(a gradient bucket or a parameter shard)")
    to, ran = t.data.get("timeout_ms"), t.data.get("ran_for_ms")
    if to:
        origin = (" (torch's NCCL default)" if to == 600000
                  else " (set by the job or its launcher, not NCCL's 10-min default)")
        said.append(f"Timeout(ms)={to}: {to / 60000:g} min" + origin)
    if to and ran:
        said.append(f"ran for {ran} ms: the watchdog looked {(ran - to) / 1000:.1f} s after the deadline"
                    + (" (it was running normally)" if ran - to < 60_000 else " (it was blocked)"))
    s = next((st.status[pg] for st in c.ranks.values() if pg in st.status and st.status[pg].seq == t.seq), None)
    if s is not None:
        enq, done = s.data["enqueued"], s.data["completed"]
        if enq > t.seq:
            said.append(f"last enqueued {enq}: rank {s.rank}'s CPU had already issued {enq - t.seq} more "
                        "collective(s): it was not stuck in Python; it waits for the GPU/NCCL to finish #" + str(t.seq))
        if done == t.seq - 1:
            said.append(f"last completed {done}: everything before #{t.seq} finished; the hang is exactly there")
        elif done < t.seq - 1:
            said.append(f"last completed {done}: {t.seq - 1 - done} earlier collective(s) also never finished")
    return [Conclusion("numbers", "high", "; ".join(said), [], pg, t.seq, [t.brief()] + ([s.brief()] if s else []))]


def idle_at_dump(c: Collected) -> list[Conclusion]:
    """torch 2.6+'s dump-signal line gives the rank's own queue when another rank timed out:
    'last enqueued M, last completed M' means nothing of that group was pending on it, so it
    was not waiting in NCCL. Either it had not issued the collective the timed-out rank waits
    in (the culprit), or that collective is in another group: a low-confidence lead only."""
    idle = sorted(
        (r, s) for r, st in c.ranks.items() for pg, s in st.status.items()
        if s.data.get("dump_from") not in (None, r) and s.data["enqueued"] == s.data["completed"]
        and not waiting(st))
    if not idle:
        return []
    ranks = sorted({r for r, _ in idle})
    froms = sorted({s.data["dump_from"] for _, s in idle})
    return [Conclusion(
        "culprit", "low",
        f"rank(s) {_fmt_ranks(ranks)} had completed every collective they enqueued (last enqueued = last completed = "
        f"#{idle[0][1].data['enqueued']}) when rank(s) {_fmt_ranks(froms)} timed out: they were not waiting in NCCL, "
        "so either they never issued the collective the others wait in, or that collective is in another process "
        "group (compare with the timed-out rank's SeqNum)",
        ranks, None, None, [s.brief() for _, s in idle[:3]])]


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def reason(c: Collected) -> list[Conclusion]:
    size, source, conf = world_size(c)
    out = [Conclusion("world_size", conf, f"world size {size} (from {source})" if size else "world size unknown",
                      evidence=[source])]
    out[0].seq = size
    for pg in _pgs(c):
        members, guessed = _members(c, pg, size)
        split = desync(c, pg) or unnumbered_desync(c, pg)
        out += split
        found = hang(c, pg, members, bool(split), bool(split) and all(not k.ranks for k in split))
        if guessed:
            for k in found:
                k.message += f" (assuming process group {pg} spans all {size} ranks)"
        out += found or ([] if split else all_joined(c, pg, members))
    if not any(k.kind in ("desync", "culprit") for k in out):
        out += pair_split(c)
    if not any(k.kind == "culprit" for k in out):
        out += idle_at_dump(c)
    out += fr_analysis(c)
    out += first_failure(c)
    out += single_line(c)
    out += numbers(c)
    return out
