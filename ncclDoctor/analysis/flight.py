"""A short reading of Flight Recorder dumps taken from a stuck probe run.

For each process group: every rank's last enqueued collective (sequence number, op,
sizes, state). The ranks whose last sequence number is below the highest are missing
from the newest collective -- culprits in torch's fr_trace terms ("Not all ranks
joining collective"); ranks at the same sequence number with a different op or size
are a mismatch, and the minority is named.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Mapping


def _collectives(dump: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [e for e in dump.get("entries", []) if not e.get("is_p2p")]


def summarize(dumps: Mapping[int, Mapping[str, Any]]) -> dict[str, Any]:
    per_rank: dict[int, dict[str, Any]] = {}
    by_seq: dict[tuple, dict[int, tuple]] = {}
    for rank, dump in dumps.items():
        entries = _collectives(dump)
        if not entries:
            per_rank[rank] = {"last_seq": 0}
            continue
        for e in entries:
            pg = str(e.get("pg_id", e.get("process_group", "0")))
            by_seq.setdefault((pg, e.get("collective_seq_id")), {})[rank] = (e.get("profiling_name"), str(e.get("input_sizes")))
        last = max(entries, key=lambda e: e.get("collective_seq_id", 0))
        per_rank[rank] = {
            "last_seq": last.get("collective_seq_id", 0),
            "op": last.get("profiling_name"),
            "input_sizes": last.get("input_sizes"),
            "state": last.get("state"),
        }
    top = max((v["last_seq"] for v in per_rank.values()), default=0)
    behind = sorted(r for r, v in per_rank.items() if v["last_seq"] < top)
    mismatches = []
    for (pg, seq), ops in sorted(by_seq.items(), key=lambda kv: (kv[0][0], kv[0][1] or 0)):
        if len(set(ops.values())) > 1:
            common, _ = Counter(ops.values()).most_common(1)[0]
            minority = sorted(r for r, v in ops.items() if v != common)
            mismatches.append({"pg": pg, "seq": seq, "expected": {"op": common[0], "sizes": common[1]},
                               "ranks": minority, "found": {str(r): {"op": ops[r][0], "sizes": ops[r][1]} for r in minority}})
    return {"per_rank": {str(r): v for r, v in sorted(per_rank.items())}, "newest_seq": top, "behind": behind, "mismatches": mismatches}
