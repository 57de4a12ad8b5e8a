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


# -- exact values of the pure helpers (what mutation testing found unasserted) --------


def test_pair_is_ordered_and_refuses_a_node_with_itself():
    assert L.pair(3, 1) == (1, 3) and L.pair(1, 3) == (1, 3)
    with pytest.raises(ValueError, match=r"two different nodes, got \(2, 2\)"):
        L.pair(2, 2)


def test_ring_pairs_are_neighbours_in_node_order():
    assert L.ring_pairs(4) == [(0, 1), (1, 2), (2, 3), (0, 3)]


def test_percentile_and_median_exact():
    assert L.percentile([4.0, 1.0, 3.0, 2.0], 0.75) == 4.0  # ceil(0.75 * 3) = index 3
    assert L.percentile([1.0, 2.0, 3.0, 4.0, 5.0], 0.75) == 4.0  # index 3
    assert L.percentile([5.0, 1.0], 0.0) == 1.0 and L.percentile([5.0, 1.0], 1.0) == 5.0
    assert L.median([3.0, 1.0, 2.0]) == 2.0
    assert L.median([4.0, 1.0, 3.0, 2.0]) == 2.5
    assert L.median([1.0, 2.0, 3.0, 4.0, 5.0, 6.0]) == 3.5
    assert L.median([7.0]) == 7.0


def test_judge_splits_at_exactly_half_the_reference():
    bw = {(0, 1): 10.0, (1, 2): 10.0, (2, 3): 5.0, (0, 3): 4.99}  # reference = 75th percentile = 10
    j = L.judge(bw, 4)
    assert (j.reference_gbps, j.median_gbps) == (10.0, 7.5)
    assert j.slow_pairs == [(0, 3)]  # 5.0 is exactly half: not slow
    assert j.good == [0, 1, 2, 3] and j.suspects == []
    one = L.judge({(0, 1): 3.0}, 2)
    assert (one.reference_gbps, one.median_gbps, one.slow_pairs, one.good, one.suspects) == (None, 3.0, [], [], [])
    assert L.judge({}, 2).median_gbps is None
    two = L.judge({(0, 1): 10.0, (1, 2): 1.0}, 3)
    assert (two.reference_gbps, two.slow_pairs, two.good, two.suspects) == (10.0, [(1, 2)], [0, 1], [2])


def test_repair_pairs_a_suspect_with_a_good_node_it_has_not_met():
    assert L.repair_rounds([2], [0, 1], done=[(0, 2)]) == [[(1, 2)]]
    assert L.repair_rounds([2], [0, 1]) == [[(0, 2)]]
    assert L.repair_rounds([2], [0], done=[(0, 2)]) == [[(0, 2)]]  # nobody else: measure it again
    assert L.repair_rounds([3, 4, 5], [0, 1]) == [[(0, 3), (1, 4)], [(0, 5)]]
    assert L.repair_rounds([3], []) == []


def test_plan_next_re_pairs_only_unproven_suspects():
    ring = {(0, 1): 10.0, (1, 2): 10.0, (2, 3): 0.1, (0, 3): 0.1}  # node 3 slow with both good neighbours
    j = L.judge(ring, 4)
    assert j.good == [0, 1, 2] and j.suspects == [3]
    assert L.plan_next(ring, 4) == []  # two slow pairs with good nodes: already proven
    ring = {(0, 1): 10.0, (1, 2): 0.1, (2, 3): 0.1, (0, 3): 0.1}  # 2 and 3 slow: each met one good node
    assert L.judge(ring, 4).suspects == [2, 3]
    assert L.plan_next(ring, 4) == [[(0, 2), (1, 3)]]  # each with the good node it has not met


def test_verdict_names_the_slow_node_with_its_evidence_rows():
    ring = {(0, 1): 10.0, (1, 2): 10.0, (2, 3): 0.1, (0, 3): 0.1}
    v = L.verdict(ring, {(1, 3): 0.2}, 4, rounds=3)
    got = (v.slow_nodes, v.slow_links, v.unresolved, v.localizable, v.rounds, v.pairs_measured)
    assert got == ([3], [], [], True, 3, 5)
    assert (v.reference_gbps, v.median_gbps) == (10.0, 5.05)
    assert v.evidence == {3: [
        {"pair": [0, 3], "gbps": 0.1, "reference_gbps": 10.0, "median_gbps": 5.05, "ratio_to_reference": 0.01},
        {"pair": [1, 3], "gbps": 0.2, "reference_gbps": 10.0, "median_gbps": 5.05, "ratio_to_reference": 0.02},
        {"pair": [2, 3], "gbps": 0.1, "reference_gbps": 10.0, "median_gbps": 5.05, "ratio_to_reference": 0.01},
    ]}


def test_verdict_names_a_slow_link_between_cleared_nodes_and_an_unresolved_suspect():
    ring = {(0, 1): 10.0, (1, 2): 10.0, (2, 3): 10.0, (0, 3): 1.0}  # one slow pair: a link?
    v = L.verdict(ring, {(0, 2): 10.0, (1, 3): 10.0}, 4)
    assert (v.slow_nodes, v.slow_links, v.unresolved) == ([], [(0, 3)], [])
    assert v.evidence == {(0, 3): [{"pair": [0, 3], "gbps": 1.0, "reference_gbps": 10.0, "median_gbps": 10.0,
                                    "ratio_to_reference": 0.1}]}
    two = L.verdict({(0, 1): 10.0, (1, 2): 1.0}, {}, 3)  # node 2's only partner is a suspect's ring pair
    assert (two.slow_nodes, two.unresolved) == ([2], []) and list(two.evidence) == [2]
    lonely = L.verdict({(0, 1): 1.0, (2, 3): 1.0, (4, 5): 10.0}, {}, 6)  # 0-3 met nobody good
    assert lonely.unresolved == [0, 1, 2, 3] and lonely.slow_nodes == [] and sorted(lonely.evidence) == [0, 1, 2, 3]


def test_verdict_with_too_few_pairs_is_not_localizable():
    v = L.verdict({(0, 1): 4.0}, {(0, 1): 5.0}, 2, rounds=1)
    assert (v.slow_nodes, v.slow_links, v.unresolved, v.reference_gbps, v.median_gbps, v.evidence, v.localizable,
            v.rounds, v.pairs_measured) == ([], [], [], None, 4.0, {}, False, 1, 1)


def test_judge_reference_is_the_75th_percentile_not_the_best_pair():
    bw = {(0, 1): 10.0, (1, 2): 10.0, (2, 3): 10.0, (3, 4): 20.0, (0, 4): 7.0}
    j = L.judge(bw, 5)
    assert j.reference_gbps == 10.0 and j.slow_pairs == []  # 7.0 is not below half of 10 (it is of 20)


def test_repair_avoids_the_good_node_a_suspect_already_met():
    ring = {(0, 1): 0.1, (1, 2): 0.1, (2, 3): 0.1, (0, 3): 10.0}  # 1 met good 0, 2 met good 3
    assert L.judge(ring, 4).suspects == [1, 2]
    assert L.plan_next(ring, 4) == [[(1, 3), (0, 2)]]


def test_verdict_thresholds_are_strictly_below_half():
    ring = {(0, 1): 10.0, (1, 2): 10.0, (2, 3): 1.0, (0, 3): 1.0}
    v = L.verdict(ring, {(1, 3): 5.0}, 4)  # node 3 at exactly half with a good node: not proven slow
    assert (v.slow_nodes, v.slow_links) == ([], [(0, 3), (2, 3)])
    v = L.verdict({(0, 1): 10.0, (1, 2): 10.0, (2, 3): 10.0, (0, 3): 5.0}, {}, 4)
    assert (v.slow_nodes, v.slow_links, v.unresolved) == ([], [], [])


def test_evidence_rows_round_as_documented():
    assert L._row((0, 1), 1 / 3, 10 / 3, 2 / 3) == {
        "pair": [0, 1], "gbps": 0.333333, "reference_gbps": 3.333333, "median_gbps": 0.666667,
        "ratio_to_reference": 0.1}
    assert L._row((0, 1), 1 / 7, 1.0, None) == {
        "pair": [0, 1], "gbps": 0.142857, "reference_gbps": 1.0, "median_gbps": None, "ratio_to_reference": 0.1429}
    assert L._row((0, 1), 1.0, 0.0, 1.0)["ratio_to_reference"] is None


def test_disjoint_rounds_pack_pairs_that_share_no_node():
    assert L.disjoint_rounds([(1, 2), (0, 1), (2, 3)]) == [[(0, 1), (2, 3)], [(1, 2)]]


def test_confirmation_pairs_use_each_slow_nodes_fastest_good_partner():
    bw = {(0, 1): 10.0, (1, 2): 10.0, (0, 3): 0.1, (1, 3): 0.3, (2, 3): 0.2}
    v = L.verdict({(0, 1): 10.0, (1, 2): 10.0, (2, 3): 0.2, (0, 3): 0.1}, {(1, 3): 0.3}, 4)
    assert v.slow_nodes == [3]
    assert L.confirm_pairs(v, bw) == [(1, 3)]
    assert L.confirm_pairs(L.verdict({(0, 1): 10.0, (1, 2): 10.0, (2, 3): 10.0, (0, 3): 1.0}, {}, 4), {}) == [(0, 3)]


def test_localize_counts_rounds_keeps_the_best_of_two_and_reports_what_it_measured():
    """n = 4, node 3 slow; its confirmation pair measures slower the second time: the
    better of the two is kept. Ring 2 rounds + 1 confirmation = 3 rounds."""
    seen: dict = {}

    def measure(rnd):
        out = {}
        for p in rnd:
            seen[p] = seen.get(p, 0) + 1
            out[p] = (0.3 if seen[p] == 1 else 0.25) if 3 in p else 10.0
        return out

    v = L.localize(4, measure)
    assert (v.slow_nodes, v.slow_links, v.unresolved, v.rounds) == ([3], [], [], 3)
    assert v.measured == {(0, 1): 10.0, (2, 3): 0.3, (1, 2): 10.0, (0, 3): 0.3}
    assert v.median_gbps == 5.15 and v.pairs_measured == 4
    assert seen == {(0, 1): 1, (2, 3): 2, (1, 2): 1, (0, 3): 1}


def test_localize_with_repair_rounds_counts_each_round():
    measure, calls = cluster(slow_nodes=(2, 3))
    v = L.localize(4, measure)
    assert v.slow_nodes == [2, 3] and v.rounds == len(calls)
    assert calls[:3] == [[(0, 1), (2, 3)], [(1, 2), (0, 3)], [(0, 2), (1, 3)]]


def test_verdict_counts_no_rounds_unless_told():
    assert L.verdict({(0, 1): 10.0, (1, 2): 10.0}, {}, 3).rounds == 0


def test_gloos_ratio_tolerates_a_busy_hosts_twofold_swing_and_still_names_a_throttled_link():
    """Seen on a loaded 2-core host: a healthy gloo pair at 0.49 of the reference (named
    BW202 at 0.5, which skipped the sweep); a 20 Mbit/s link is ~0.005 of it."""
    swing = {(0, 1): 0.57, (0, 2): 0.68, (1, 2): 0.33}  # GB/s, the measured healthy run
    measure = lambda rnd: {p: swing[p] for p in rnd}  # noqa: E731
    assert L.localize(3, measure).slow_links == [(1, 2)]  # the nccl default: half the reference
    assert L.localize(3, measure, L.GLOO_SLOW_RATIO).slow_links == []
    throttled, _ = cluster(slow_nodes={2}, fast=0.6, slow=0.0025)
    assert L.localize(3, throttled, L.GLOO_SLOW_RATIO).slow_nodes == [2]


def test_the_check_judges_gloo_by_its_own_ratio_and_the_analysis_by_the_ranks():
    from ncclDoctor.analysis.structure import analyse
    from ncclDoctor.check.options import DEFAULTS

    assert DEFAULTS["gloo"]["structure_slow_ratio"] == L.GLOO_SLOW_RATIO
    assert DEFAULTS["nccl"]["structure_slow_ratio"] == L.SLOW_RATIO
    pairs = [{"pair": [0, 1], "gbps": 0.57, "ring": True}, {"pair": [0, 2], "gbps": 0.68, "ring": True},
             {"pair": [1, 2], "gbps": 0.33, "ring": True}]
    res = {0: {"nnodes": 3, "p2p": {"pairs": pairs, "rounds": [[[0, 1]], [[1, 2]], [[0, 2]]], "slow_ratio": 0.25}}}
    results, findings = analyse(res, lambda i: f"node{i}")
    assert results["p2p"]["slow_links"] == [] and results["p2p"]["slow_ratio"] == 0.25 and not findings
    res[0]["p2p"]["slow_ratio"] = 0.5
    results, findings = analyse(res, lambda i: f"node{i}")
    assert results["p2p"]["slow_links"] == [["node1", "node2"]] and [f.code for f in findings] == ["BW202"]
