"""Stalls, stragglers and unequal batch counts, from per-rank monitor records (pure).

Input: ``{rank: [record, ...]}`` as ``ncclDoctor.sweep.stalls.read_records`` returns it.
Output: per-rank summaries, throughput windows, and findings:

DL001 dataloader stall      a rank's steady-state data wait is above ``stall_share``
                            (default 10 %) of its step time
DL002 straggler             one rank is busier (data wait + compute) than the others in
                            most steps: named with its node, input- or compute-bound
DL003 unequal batch counts  ranks saw different numbers of batches in an epoch, or
                            ``len(loader)`` differs: in DDP that is a hang in waiting

Straggler score. In DDP the all_reduce makes step times equal, so we compare what each
rank spent *before* it could join the collective: ``busy = data_wait + compute``. For
every steady-state step the busiest rank gets a point. A rank is a straggler when

- its median busy time is at least ``ratio`` (1.25, TraceML's tolerance) times the
  median busy time of the other ranks, and at least ``min_excess_s`` (2 ms) more, so
  scheduling noise on a small step is not blamed on anyone; and
- it was the busiest in more steps than chance explains: a one-sided binomial test of
  its count against ``1 / world_size`` at ``alpha`` (1e-3). The p-value is reported.

It is *input-bound* when most of its excess is data wait, *compute-bound* otherwise.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import asdict, dataclass, field
from typing import Any

from ncclDoctor.findings import Finding
from ncclDoctor.rules.codes.dl import STALL, STRAGGLER, UNEQUAL_BATCHES


@dataclass
class RankSummary:
    rank: int
    host: str = ""
    addr: str = ""
    local_rank: int = 0
    pid: int | None = None
    steps: int = 0
    steady_steps: int = 0
    data_wait_ms: float = 0.0  # medians over steady-state steps
    compute_ms: float = 0.0
    comm_ms: float = 0.0
    step_ms: float = 0.0
    gpu_ms: float | None = None
    data_share: float = 0.0  # sum(data wait) / sum(step time), steady state
    samples: int = 0
    tokens: int | None = None
    warmup_s: float = 0.0
    epochs: dict[int, dict[str, Any]] = field(default_factory=dict)

    @property
    def node(self) -> str:
        return f"{self.addr} ({self.host})" if self.addr else self.host or "?"


def _steps(recs: list[dict[str, Any]], steady: bool | None = None) -> list[dict[str, Any]]:
    out = [r for r in recs if r.get("kind") == "step"]
    return out if steady is None else [r for r in out if bool(r.get("warmup")) != steady]


def _med_ms(vals: list[float]) -> float:
    return round(1000 * statistics.median(vals), 3) if vals else 0.0


def summarize(records: dict[int, list[dict[str, Any]]]) -> dict[int, RankSummary]:
    out = {}
    for rank, recs in sorted(records.items()):
        meta = next((r for r in recs if r.get("kind") == "meta"), {})
        steady = _steps(recs, True)
        s = RankSummary(rank, meta.get("host", ""), meta.get("addr", ""), int(meta.get("local_rank", 0)),
                        meta.get("pid"))
        s.steps, s.steady_steps = len(_steps(recs)), len(steady)
        s.data_wait_ms = _med_ms([r["data_wait_s"] for r in steady])
        s.compute_ms = _med_ms([r["compute_s"] for r in steady])
        s.comm_ms = _med_ms([r["comm_s"] for r in steady])
        s.step_ms = _med_ms([r["step_s"] for r in steady])
        gpu = [r["gpu_s"] for r in steady if r.get("gpu_s") is not None]
        s.gpu_ms = _med_ms(gpu) if gpu else None
        total = sum(r["step_s"] for r in steady)
        s.data_share = round(sum(r["data_wait_s"] for r in steady) / total, 4) if total > 0 else 0.0
        s.samples = sum(int(r.get("samples") or 0) for r in steady)
        toks = [r["tokens"] for r in steady if r.get("tokens") is not None]
        s.tokens = sum(toks) if toks else None
        s.warmup_s = round(sum(r["step_s"] for r in _steps(recs, False)), 4)
        s.epochs = {int(r["epoch"]): {"batches": r.get("batches"),
                                      "len_loader": r.get("len_loader")} for r in recs if r.get("kind") == "epoch"}
        out[rank] = s
    return out


def throughput(records: dict[int, list[dict[str, Any]]], windows: int = 3) -> dict[str, Any]:
    """Steady-state samples/s of the whole job, in ``windows`` equal runs of steps.

    A step's wall time is the longest any rank took for it (they are gated by the
    all_reduce); its samples are summed over ranks. A window's rate is its samples per
    step over its *median* step time: in steady state the steps of one configuration
    take the same time, and the median ignores the odd step stretched by the OS
    scheduling someone else (shared hosts; 2 cores shared by 5 users here)."""
    by_step: dict[int, list[dict[str, Any]]] = {}
    for recs in records.values():
        for r in _steps(recs, True):
            by_step.setdefault(int(r["step"]), []).append(r)
    steps = [by_step[k] for k in sorted(by_step) if len(by_step[k]) == len(records)]
    if not steps or windows < 1:
        return {"windows": [], "median": 0.0, "spread": 0.0, "steps": 0}
    n = max(1, len(steps) // windows)
    rates = []
    for i in range(min(windows, len(steps) // n)):
        chunk = steps[i * n:(i + 1) * n]
        wall = statistics.median(max(r["step_s"] for r in rs) for rs in chunk)
        samples = statistics.median(sum(int(r.get("samples") or 0) for r in rs) for rs in chunk)
        rates.append(samples / wall if wall > 0 else 0.0)
    med = statistics.median(rates)
    spread = (max(rates) - min(rates)) / med if med > 0 else 0.0
    return {"windows": [round(x, 2) for x in rates], "median": round(med, 2), "spread": round(spread, 4),
            "steps": len(steps)}


def binom_sf(k: int, n: int, p: float) -> float:
    """P[X >= k] for X ~ Binomial(n, p)."""
    return min(1.0, sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k, n + 1)))


def stragglers(records: dict[int, list[dict[str, Any]]], ratio: float = 1.25, min_excess_s: float = 0.002,
               alpha: float = 1e-3) -> list[dict[str, Any]]:
    """Per-rank straggler scores; ``straggler`` is True for the ranks that qualify."""
    world = len(records)
    if world < 2:
        return []
    per: dict[int, dict[int, dict[str, Any]]] = {r: {int(x["step"]): x for x in _steps(recs, True)}
                                                 for r, recs in records.items()}
    common = sorted(set.intersection(*(set(v) for v in per.values())))
    if not common:
        return []
    busy = lambda x: x["data_wait_s"] + x["compute_s"]  # noqa: E731
    wins = {r: 0 for r in per}
    for s in common:
        wins[max(per, key=lambda r: busy(per[r][s]))] += 1
    out = []
    for r in sorted(per):
        others = [q for q in per if q != r]
        mine = [busy(per[r][s]) for s in common]
        theirs = [statistics.median(busy(per[q][s]) for q in others) for s in common]
        d_data = statistics.median(per[r][s]["data_wait_s"] - statistics.median(per[q][s]["data_wait_s"]
                for q in others) for s in common)
        d_comp = statistics.median(per[r][s]["compute_s"] - statistics.median(per[q][s]["compute_s"] for q in others)
                                   for s in common)
        m_mine, m_theirs = statistics.median(mine), statistics.median(theirs)
        score = m_mine / m_theirs if m_theirs > 0 else float("inf") if m_mine > 0 else 1.0
        p = binom_sf(wins[r], len(common), 1.0 / world)
        out.append({
            "rank": r, "score": round(score, 3), "busy_ms": round(1000 * m_mine, 3),
            "others_busy_ms": round(1000 * m_theirs, 3),
            "excess_ms": round(1000 * (m_mine - m_theirs), 3), "slowest_in": wins[r], "steps": len(common),
            "p_value": p,
            "bound": "input" if d_data >= d_comp else "compute",
            "straggler": score >= ratio and (m_mine - m_theirs) >= min_excess_s and p < alpha,
        })
    return out


def stall_findings(summ: dict[int, RankSummary], stall_share: float = 0.10) -> list[Finding]:
    hit = [s for s in summ.values() if s.steady_steps and s.data_share > stall_share]
    if not hit:
        return []
    everyone = len(hit) == len(summ)
    msg = "; ".join(f"rank {s.rank} on {s.node}: {100 * s.data_share:.0f}% of step time in next() (median "
                    f"{s.data_wait_ms:.1f} ms of {s.step_ms:.1f} ms)" for s in hit)
    scope = ("Every rank waits for data: the input pipeline is short of throughput everywhere." if everyone
             else "Only some ranks wait for data: see DL002 for the straggler.")
    return [STALL.finding(f"{msg}. {scope}", ranks=[s.rank for s in hit], nodes=sorted({s.node for s in hit}),
                          evidence=[{"rank": s.rank, "data_share": s.data_share, "data_wait_ms": s.data_wait_ms,
                                     "step_ms": s.step_ms} for s in hit])]


def straggler_findings(scores: list[dict[str, Any]], summ: dict[int, RankSummary]) -> list[Finding]:
    out = []
    for sc in scores:
        if not sc["straggler"]:
            continue
        s = summ[sc["rank"]]
        others_comm = statistics.median([o.comm_ms for o in summ.values() if o.rank != s.rank] or [0.0])
        out.append(STRAGGLER.finding(
            f"Rank {s.rank} on {s.node} is {sc['bound']}-bound: busy {sc['busy_ms']:.1f} ms per step against "
            f"{sc['others_busy_ms']:.1f} ms on the other ranks (x{sc['score']:.2f}), the slowest in {sc['slowest_in']} "
            f"of {sc['steps']} steps (p={sc['p_value']:.1e}); the others wait a median {others_comm:.1f} ms per step "
            "in the all_reduce.",
            ranks=[s.rank], nodes=[s.node], evidence=[sc],
        ))
    return out


def batch_count_findings(summ: dict[int, RankSummary]) -> list[Finding]:
    out = []
    epochs = sorted({e for s in summ.values() for e in s.epochs})
    for e in epochs:
        seen = {s.rank: s.epochs.get(e, {}).get("batches") for s in summ.values()}
        lens = {s.rank: s.epochs.get(e, {}).get("len_loader") for s in summ.values()}
        counts, sizes = {v for v in seen.values() if v is not None}, {v for v in lens.values() if v is not None}
        if len(counts) > 1 or len(sizes) > 1:
            low = min(counts or sizes)
            short = [r for r in seen if (seen[r] if seen[r] is not None else lens[r]) == low]
            out.append(UNEQUAL_BATCHES.finding(
                f"Epoch {e}: batches per rank {seen} (len(loader) {lens}); rank(s) {short} would leave the loop first "
                f"and the others would hang in their next all_reduce.",
                ranks=sorted(seen), nodes=sorted({summ[r].node for r in short}),
                evidence=[{"epoch": e, "batches": seen, "len_loader": lens}],
            ))
    total = {s.rank: s.steps for s in summ.values()}
    if not out and len(set(total.values())) > 1:
        out.append(UNEQUAL_BATCHES.finding(
            f"Ranks recorded different numbers of steps: {total}. A rank stopped early (or crashed); the others wait "
            "in the all_reduce.",
            ranks=sorted(total), nodes=sorted({summ[r].node for r in total if total[r] == min(total.values())}),
            evidence=[total],
        ))
    return out


def analyse(records: dict[int, list[dict[str, Any]]], stall_share: float = 0.10,
            windows: int = 3) -> tuple[dict[str, Any], list[Finding]]:
    """Everything above in one call: (results for the report, findings)."""
    summ = summarize(records)
    scores = stragglers(records)
    findings = stall_findings(summ, stall_share) + straggler_findings(scores, summ) + batch_count_findings(summ)
    results = {
        "ranks": [{**asdict(s), "node": s.node} for s in summ.values()],
        "throughput": throughput(records, windows),
        "stragglers": scores,
        "stall_share_threshold": stall_share,
    }
    return results, findings
