"""Localization of slow nodes and links: pure functions over simulated clusters."""

from __future__ import annotations

import itertools

import pytest

from probes import localize as L


def cluster(slow_nodes=(), slow_links=(), fast=10.0, slow=0.05):
    """A measure() for a simulated cluster: a pair is as slow as its slowest part."""
    calls = []

    def measure(rnd):
        nodes = [x for p in rnd for x in p]
        assert len(nodes) == len(set(nodes)), f"round {rnd} uses a node twice"
        calls.append(list(rnd))
        return {p: slow if (p[0] in slow_nodes or p[1] in slow_nodes or p in slow_links) else fast for p in rnd}

    return measure, calls


@pytest.mark.parametrize("n", range(2, 12))
def test_ring_rounds_cover_the_ring_with_disjoint_rounds(n):
    rounds = L.ring_rounds(n)
    flat = [p for r in rounds for p in r]
    assert sorted(flat) == sorted(L.ring_pairs(n))
    assert len(rounds) == (1 if n == 2 else 2 if n % 2 == 0 else 3)
    for r in rounds:
        nodes = [x for p in r for x in p]
        assert len(nodes) == len(set(nodes))


@pytest.mark.parametrize("n", [3, 4, 5, 8, 16])
def test_healthy_cluster_costs_only_the_ring(n):
    measure, calls = cluster()
    v = L.localize(n, measure)
    assert v.slow_nodes == [] and v.slow_links == [] and v.unresolved == []
    assert v.rounds == len(L.ring_rounds(n)) <= 3


@pytest.mark.parametrize("n,bad", [(3, 0), (3, 2), (4, 1), (5, 4), (8, 3), (16, 15)])
def test_one_slow_node_is_named_and_no_healthy_node_blamed(n, bad):
    measure, calls = cluster(slow_nodes={bad})
    v = L.localize(n, measure)
    assert v.slow_nodes == [bad]
    assert v.slow_links == [] and v.unresolved == []
    assert v.rounds <= 4
    ev = v.evidence[bad]
    assert ev and all(row["ratio_to_reference"] < L.SLOW_RATIO for row in ev)


def test_a_slow_link_between_healthy_nodes_is_a_link_not_a_node():
    measure, _ = cluster(slow_links={(1, 2)})
    v = L.localize(5, measure)
    assert v.slow_nodes == [] and v.slow_links == [(1, 2)]


def test_adjacent_slow_nodes_are_re_paired_with_good_nodes():
    measure, calls = cluster(slow_nodes={1, 2})
    v = L.localize(6, measure)
    assert v.slow_nodes == [1, 2] and v.slow_links == []
    repaired = [p for r in calls[len(L.ring_rounds(6)):] for p in r]
    assert repaired and all(set(p) & {1, 2} and set(p) - {1, 2} for p in repaired)


@pytest.mark.parametrize("n", [4, 8, 16, 32])
def test_worst_case_stays_linear_and_below_all_pairs(n):
    slow_nodes = set(range(1, n // 2 + 1))  # half the cluster slow, side by side
    measure, calls = cluster(slow_nodes=slow_nodes)
    v = L.localize(n, measure)
    assert v.rounds <= 3 + n
    assert v.pairs_measured < n * (n - 1) // 2 or n <= 4
    assert set(v.slow_nodes) | set(v.unresolved) == slow_nodes


def test_two_nodes_cannot_be_told_apart():
    measure, _ = cluster(slow_nodes={1})
    v = L.localize(2, measure)
    assert not v.localizable and v.slow_nodes == [] and v.rounds == 1


def test_repair_rounds_use_each_good_node_once_per_round():
    rounds = L.repair_rounds([1, 3, 5, 7], [0, 2])
    assert len(rounds) == 2
    for r in rounds:
        goods = [x for p in r for x in p if x in (0, 2)]
        assert len(goods) == len(set(goods))
    assert sorted(x for r in rounds for p in r for x in p if x % 2) == [1, 3, 5, 7]


def test_pair_rejects_a_node_with_itself():
    with pytest.raises(ValueError, match="two different nodes"):
        L.pair(3, 3)


def test_noise_does_not_make_a_suspect():
    # pairs within 2x of each other: scheduling noise on a loaded host, not a slow link
    bw = {p: v for p, v in zip(L.ring_pairs(6), [1.0, 0.6, 0.9, 0.7, 1.1, 0.8])}
    j = L.judge(bw, 6)
    assert j.suspects == [] and j.slow_pairs == []
    assert list(itertools.chain(L.plan_next(bw, 6))) == []


def test_a_pair_slow_once_is_measured_again_and_not_named():
    seen = []

    def measure(rnd):
        out = {}
        for p in rnd:
            out[p] = 0.01 if p == (1, 2) and p not in seen else 1.0  # slow the first time only
            seen.append(p)
        return out

    v = L.localize(5, measure)
    assert v.slow_links == [] and v.slow_nodes == []
    assert v.rounds == len(L.ring_rounds(5)) + 1


def test_a_persistently_slow_link_costs_one_confirmation_round():
    measure, calls = cluster(slow_links={(1, 2)})
    v = L.localize(6, measure)
    assert v.slow_links == [(1, 2)] and v.rounds == len(L.ring_rounds(6)) + 1
    assert calls[-1] == [(1, 2)]


def test_a_node_starved_for_a_moment_is_measured_again_and_not_named():
    first = set()

    def measure(rnd):
        out = {}
        for p in rnd:
            out[p] = 0.05 if 0 in p and len(first) < 2 else 1.0  # node 0 slow in its first two pairs only
            if 0 in p:
                first.add(p)
        return out

    v = L.localize(3, measure)
    assert v.slow_nodes == [] and v.slow_links == []
    assert v.rounds == len(L.ring_rounds(3)) + 2  # the node's pair, then its other pair as a link
