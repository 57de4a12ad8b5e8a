"""The second-expert labels behind benchmarks/bench_label_agreement.py (issue #14 item 7): well formed, about
cases the corpus holds, and the agreement rule the benchmark applies."""

from __future__ import annotations

import json

from benchmarks import bench_label_agreement as agreement
from benchmarks.bench_diagnose_accuracy import CORPUS
from tests.test_diagnose_accuracy import CAUSES


def _answer(culprits, cause="rank_missing", innocent=()):
    return {"culprits": culprits, "innocent": list(innocent), "cause": cause, "fix": ["x"]}


def test_every_pair_is_about_a_corpus_case_and_both_answers_are_well_formed():
    cases = json.loads(agreement.PAIRS.read_text())["cases"]
    assert len(cases) >= 80
    for cid, pair in cases.items():
        assert (CORPUS / cid / "case.json").is_file(), cid
        assert pair["round"] == json.loads((CORPUS / cid / "case.json").read_text())["round"], cid
        for side in ("first", "second"):
            exp = pair[side]["expected"]
            assert exp["cause"] in CAUSES, (cid, side)
            assert exp["culprits"] == "unknown" or all(isinstance(r, int) for r in exp["culprits"]), (cid, side)
            assert all(isinstance(r, int) for r in exp["innocent"]), (cid, side)


def test_unknown_and_empty_both_name_nobody_but_a_named_rank_is_different():
    assert agreement.agree(_answer("unknown"), _answer([]))
    assert not agreement.agree(_answer([0]), _answer("unknown"))
    assert agreement.agree(_answer([1, 3]), _answer([3, 1]))


def test_the_same_ranks_with_another_cause_disagree():
    assert not agreement.agree(_answer([2], "host_oom"), _answer([2], "unknown"))


def test_one_experts_culprit_proven_innocent_by_the_other_is_a_conflict():
    a, b = _answer([0]), _answer([0], innocent=[0])
    assert not agreement.agree(a, b)
