"""Localizing a slow node or a slow link from point-to-point bandwidth between nodes.

Pure functions: nodes are indices ``0..N-1`` (torchrun's node rank, ``GROUP_RANK``); a
*pair* ``(a, b)`` with ``a < b`` is one bidirectional exchange between the two nodes'
leader ranks (local rank 0); a *round* is a list of disjoint pairs measured at the same
time, so no node's link carries two exchanges at once.

It lives in ``probes/`` because the probe's structure phase runs it between rounds (and
probes import only torch and the standard library); ``ncclDoctor.analysis.structure``
imports it from here.

The algorithm (bounded: never all N*(N-1)/2 pairs one after another)
-----------------------------------------------------------------------

1. **Ring.** Measure the ring ``(0,1), (1,2), ..., (N-1,0)``: every node in exactly two
   pairs (one pair when N = 2). The ring splits into disjoint rounds: 2 rounds for even
   N, 3 for odd N (``ring_rounds``). A healthy cluster stops here: a constant number of
   rounds whatever N.
2. **Judge.** The reference bandwidth is the 75th percentile of the measured pairs (not
   the median: one slow node spoils 2 of the ring's N pairs, which for N = 3 is most of
   them). A pair is *slow* below ``slow_ratio`` x reference (``SLOW_RATIO``, 0.5; the
   check passes ``GLOO_SLOW_RATIO``, 0.25, for gloo, whose CPU-driven pairs swing 2x on
   a busy host). A node that appears in at
   least one pair that is not slow is *known good* -- that pair proves its link can run
   at full speed. A node whose every measured pair is slow is a *suspect*.
3. **Re-pair suspects with known-good nodes** (``plan_next``): a suspect already slow
   against two known-good nodes is proven (a single slow node costs no extra round:
   both its ring neighbours are cleared by their other pair). Each remaining suspect is
   paired with a known-good node it has not met, each good node in at most one pair per
   round: ``ceil(S / G)`` more rounds for S suspects and G good nodes -- O(N) at worst.
4. **Verdict** (``verdict``): a suspect slow against every known-good partner is a
   **slow node**; one that runs fast against a good partner was only on a slow link. A
   slow pair whose two ends are both cleared is a **slow link**. A suspect with no good
   partner at all (most of the cluster slow) is **unresolved**. Every verdict carries
   its evidence: the pairs' bandwidth against the reference and the median.

5. **Confirm**: every slow link, and every slow node against its fastest known-good
   partner, is measured once more (the better of the two counts) before it is named --
   on a busy host a node's process can be starved for a moment; a bad link stays slow.
   No extra round when nothing is slow; ``ceil`` of the confirmations per good node
   otherwise (one round for one slow node).

``localize(n, measure)`` runs steps 1-5 with a caller's ``measure(round) -> {pair:
GB/s}``: the probe workers pass real exchanges, the benchmark a simulated cluster.

With 2 nodes there is one pair and nothing to compare it with: no node or link can be
singled out (``verdict`` says so); the inter-node versus intra-node bandwidth is the
only evidence then.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

SLOW_RATIO = 0.5  # a pair below half the reference bandwidth is slow (the default; nccl)
# gloo moves bytes with the CPU: on a busy host a healthy pair swings 2x (0.49 of the
# reference measured on a loaded 2-core host), while a throttled link is 100x off
GLOO_SLOW_RATIO = 0.25

Pair = tuple[int, int]


def pair(a: int, b: int) -> Pair:
    if a == b:
        raise ValueError(f"a pair needs two different nodes, got ({a}, {b})")
    return (a, b) if a < b else (b, a)


def ring_pairs(n: int) -> list[Pair]:
    if n < 2:
        return []
    if n == 2:
        return [(0, 1)]
    return [pair(i, (i + 1) % n) for i in range(n)]


def ring_rounds(n: int) -> list[list[Pair]]:
    """The ring as rounds of disjoint pairs: 1 round for N=2, 2 for even N, 3 for odd N."""
    if n < 2:
        return []
    if n == 2:
        return [[(0, 1)]]
    even = [pair(i, i + 1) for i in range(0, n - 1, 2)]
    odd = [pair(i, (i + 1) % n) for i in range(1, n - 1, 2)]
    rounds = [even, odd]
    if n % 2:  # the closing edge (N-1, 0) shares node 0 with the first round
        rounds.append([pair(n - 1, 0)])
    else:
        rounds[1].append(pair(n - 1, 0))
    return [r for r in rounds if r]


def percentile(values: list[float], q: float) -> float:
    vals = sorted(values)
    return vals[min(len(vals) - 1, math.ceil(q * (len(vals) - 1)))]


def median(values: list[float]) -> float:
    vals = sorted(values)
    mid = len(vals) // 2
    return vals[mid] if len(vals) % 2 else (vals[mid - 1] + vals[mid]) / 2


@dataclass
class Judgement:
    reference_gbps: float | None
    median_gbps: float | None
    slow_pairs: list[Pair] = field(default_factory=list)
    good: list[int] = field(default_factory=list)
    suspects: list[int] = field(default_factory=list)


def judge(bw: dict[Pair, float], n: int, slow_ratio: float = SLOW_RATIO) -> Judgement:
    """Classify measured pairs (pair -> GB/s) into slow pairs, known-good nodes, suspects."""
    if len(bw) < 2:
        return Judgement(None, median(list(bw.values())) if bw else None)
    ref = percentile(list(bw.values()), 0.75)
    slow = sorted(p for p, v in bw.items() if v < slow_ratio * ref)
    good = sorted({x for p in bw if p not in slow for x in p})
    measured = {x for p in bw for x in p}
    suspects = sorted(x for x in measured if x not in good)
    return Judgement(ref, median(list(bw.values())), slow, good, suspects)


def _against_good(node: int, bw: dict[Pair, float], good: set[int]) -> dict[Pair, float]:
    return {p: v for p, v in bw.items() if node in p and (p[1] if p[0] == node else p[0]) in good}


def unconfirmed(bw: dict[Pair, float], j: Judgement) -> list[int]:
    """Suspects not yet proven slow: fewer than two slow pairs with known-good nodes
    (one slow pair with a good node may be that one link)."""
    good = set(j.good)
    return [s for s in j.suspects if len(_against_good(s, bw, good)) < 2]


def repair_rounds(suspects: Iterable[int], good: Iterable[int], done: Iterable[Pair] = ()) -> list[list[Pair]]:
    """Pair each suspect with a known-good node (one it was not measured with, when there
    is one), each good node in at most one pair per round: ceil(S / G) rounds."""
    good, done, pending = sorted(good), set(done), sorted(suspects)
    rounds: list[list[Pair]] = []
    while pending and good:
        rnd: list[Pair] = []
        busy: set[int] = set()
        for s in list(pending):
            free = [g for g in good if g not in busy]
            if not free:
                break
            fresh = [g for g in free if pair(s, g) not in done]
            g = (fresh or free)[0]
            rnd.append(pair(s, g))
            busy.add(g)
            pending.remove(s)
        rounds.append(rnd)
    return rounds


def plan_next(bw: dict[Pair, float], n: int, slow_ratio: float = SLOW_RATIO) -> list[list[Pair]]:
    """What to measure after the ring: nothing when healthy or when every suspect is
    already proven, else the re-pairing rounds. Deterministic, so every leader rank
    computes the same plan from the same numbers."""
    j = judge(bw, n, slow_ratio)
    return repair_rounds(unconfirmed(bw, j), j.good, bw)


@dataclass
class Verdict:
    """``slow_nodes``: slow against every known-good partner; ``slow_links``: slow pairs
    between two cleared nodes; ``unresolved``: suspects with no good partner to test."""

    slow_nodes: list[int]
    slow_links: list[Pair]
    unresolved: list[int]
    reference_gbps: float | None
    median_gbps: float | None
    evidence: dict[Any, list[dict[str, Any]]]
    localizable: bool
    rounds: int = 0
    pairs_measured: int = 0
    measured: dict[Pair, float] = field(default_factory=dict)


def verdict(ring_bw: dict[Pair, float], repair_bw: dict[Pair, float], n: int, rounds: int = 0,
            slow_ratio: float = SLOW_RATIO) -> Verdict:
    """Name slow nodes and slow links from the ring and the re-pairing measurements
    (a pair is slow below ``slow_ratio`` x the reference)."""
    all_bw = {**ring_bw, **repair_bw}
    j = judge(ring_bw, n, slow_ratio)
    if j.reference_gbps is None:
        return Verdict([], [], [], None, j.median_gbps, {}, False, rounds, len(all_bw))
    ref, good = j.reference_gbps, set(j.good)
    slow_nodes, unresolved = [], []
    for s in j.suspects:
        checks = _against_good(s, all_bw, good)
        if not checks:
            unresolved.append(s)
        elif all(v < slow_ratio * ref for v in checks.values()):
            slow_nodes.append(s)
    cleared = set(range(n)) - set(slow_nodes) - set(unresolved)
    slow = [p for p, v in all_bw.items() if v < slow_ratio * ref]
    slow_links = sorted(p for p in slow if p[0] in cleared and p[1] in cleared)
    evidence: dict[Any, list[dict[str, Any]]] = {}
    for s in slow_nodes + unresolved:
        evidence[s] = [_row(p, v, ref, j.median_gbps) for p, v in sorted(all_bw.items()) if s in p]
    for p in slow_links:
        evidence[p] = [_row(p, all_bw[p], ref, j.median_gbps)]
    return Verdict(slow_nodes, slow_links, unresolved, ref, j.median_gbps, evidence, True, rounds, len(all_bw))


def _row(p: Pair, gbps: float, ref: float, med: float | None) -> dict[str, Any]:
    return {
        "pair": list(p),
        "gbps": round(gbps, 6),
        "reference_gbps": round(ref, 6),
        "median_gbps": round(med, 6) if med is not None else None,
        "ratio_to_reference": round(gbps / ref, 4) if ref else None,
    }


def disjoint_rounds(pairs: Iterable[Pair]) -> list[list[Pair]]:
    """Greedy split into rounds in which no node appears twice."""
    rounds: list[list[Pair]] = []
    for p in sorted(pairs):
        for rnd in rounds:
            if all(not set(p) & set(q) for q in rnd):
                rnd.append(p)
                break
        else:
            rounds.append([p])
    return rounds


def localize(n: int, measure: Callable[[list[Pair]], dict[Pair, float]], slow_ratio: float = SLOW_RATIO) -> Verdict:
    """Steps 1-5: the ring, re-pairing only the unproven suspects, confirming slow links."""
    ring: dict[Pair, float] = {}
    rounds = 0
    for rnd in ring_rounds(n):
        ring.update(measure(rnd))
        rounds += 1
    repair: dict[Pair, float] = {}
    for rnd in plan_next(ring, n, slow_ratio):
        repair.update(measure(rnd))
        rounds += 1
    v = verdict(ring, repair, n, rounds, slow_ratio)
    confirmed: set[Pair] = set()
    # Each pair is confirmed at most once: clearing a node can leave its other slow pair
    # looking like a slow link, which then gets its own second measurement.
    while confirm := [p for p in confirm_pairs(v, {**ring, **repair}) if p not in confirmed]:
        for rnd in disjoint_rounds(confirm):
            for p, gbps in measure(rnd).items():
                held = ring if p in ring else repair
                held[p] = max(held.get(p, 0.0), gbps)  # the best of two: a moment's noise is not a fault
            rounds += 1
        confirmed.update(confirm)
        v = verdict(ring, repair, n, rounds, slow_ratio)
    v.measured = {**ring, **repair}
    return v


def confirm_pairs(v: Verdict, bw: dict[Pair, float]) -> list[Pair]:
    """Step 5: measure every slow link again, and every slow node again against its
    fastest known-good partner, before naming them."""
    pairs = list(v.slow_links)
    for s in v.slow_nodes:
        mine = {p: g for p, g in bw.items() if s in p and (p[1] if p[0] == s else p[0]) not in v.slow_nodes}
        if mine:
            pairs.append(max(mine, key=lambda p: mine[p]))
    return pairs
