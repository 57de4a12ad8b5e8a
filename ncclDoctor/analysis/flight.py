"""A short reading of Flight Recorder dumps taken from a stuck probe run.

Each dump is parsed by ``ncclDoctor.diagnose.flight_recorder`` (the one reader of the
format, shared with ``ncclDoctor diagnose``). Then, per process group -- sequence
numbers count per group, and a multi-node check creates intra- and inter-node groups --
the members whose last enqueued collective is below the group's newest are missing from
it (culprits in torch's fr_trace terms, "Not all ranks joining collective"), and members
at the same sequence number with a different op or size are a mismatch; the minority is
named.

Output (``out.evidence["flight_recorder_summary"]``): ``per_rank``, ``newest_seq`` and
``behind`` for the world group, ``mismatches`` in any group, and ``groups`` with the
behind ranks of every group that has some.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Mapping

from ncclDoctor.diagnose.flight_recorder import DumpSummary, summarise

WORLD = "0"  # the default process group's name in every dump


def _members(parsed: Mapping[int, DumpSummary], pg: str) -> list[int]:
    listed = {r for s in parsed.values() for r in s.pg_ranks.get(pg, [])}
    seen = {r for r, s in parsed.items() if pg in s.pgs}
    return sorted((listed & set(parsed)) | seen) if pg != WORLD else sorted(parsed)


def summarize(dumps: Mapping[int, Mapping[str, Any]]) -> dict[str, Any]:
    parsed = {r: summarise(dict(d)) for r, d in dumps.items()}
    pgs = sorted({pg for s in parsed.values() for pg in s.pgs} | {WORLD})
    groups: dict[str, dict[str, Any]] = {}
    mismatches = []
    for pg in pgs:
        members = _members(parsed, pg)
        last = {r: max(parsed[r].pgs[pg].last_enqueued, 0) if pg in parsed[r].pgs else 0 for r in members}
        top = max(last.values(), default=0)
        groups[pg] = {"newest_seq": top, "behind": sorted(r for r, s in last.items() if s < top)}
        seqs = sorted({q for r in members if pg in parsed[r].pgs for q in parsed[r].pgs[pg].records})
        for seq in seqs:
            ops = {r: (rec.op, rec.shape_key()) for r in members if pg in parsed[r].pgs
                   for rec in [parsed[r].pgs[pg].records.get(seq)] if rec is not None}
            if len(set(ops.values())) > 1:
                common, _ = Counter(ops.values()).most_common(1)[0]
                minority = sorted(r for r, v in ops.items() if v != common)
                mismatches.append({"pg": pg, "seq": seq, "expected": {"op": common[0], "sizes": common[1]},
                                   "ranks": minority,
                                   "found": {str(r): {"op": ops[r][0], "sizes": ops[r][1]} for r in minority}})
    per_rank = {}
    for r, s in sorted(parsed.items()):
        t = s.pgs.get(WORLD)
        rec = t.records.get(t.last_enqueued) if t else None
        per_rank[str(r)] = {"last_seq": max(t.last_enqueued, 0) if t else 0} | (
            {"op": rec.op, "input_sizes": rec.in_sizes, "state": rec.state} if rec else {})
    world = groups[WORLD]
    return {"per_rank": per_rank, "newest_seq": world["newest_seq"], "behind": world["behind"],
            "mismatches": mismatches,
            "groups": {pg: g for pg, g in groups.items() if g["behind"]}}
