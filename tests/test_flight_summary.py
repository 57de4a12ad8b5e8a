"""The check's reading of Flight Recorder dumps (``ncclDoctor.analysis.flight``), on dumps
recorded from real gloo runs (tests/fixtures/fr/recorded: rank 2 skipped a collective;
rank 1 broadcast where the others all_reduced), parsed by the same reader as
``ncclDoctor diagnose``."""

from __future__ import annotations

import copy
import json

from ncclDoctor.analysis.flight import summarize
from tests.conftest import ROOT

REC = ROOT / "tests" / "fixtures" / "fr" / "recorded"


def dumps(case: str) -> dict[int, dict]:
    return {r: json.loads((REC / case / "json" / f"comm_lib_trace_rank_{r}.json").read_text()) for r in range(3)}


def test_the_rank_that_never_enqueued_the_newest_collective_is_behind():
    s = summarize(dumps("hang"))
    assert s["behind"] == [2] and s["newest_seq"] == 4 and s["mismatches"] == []
    assert s["per_rank"]["2"]["last_seq"] == 3 and s["per_rank"]["0"]["op"] == "all_reduce"


def test_a_different_op_at_the_same_sequence_number_names_the_minority():
    s = summarize(dumps("mismatch"))
    assert s["behind"] == []
    [m] = s["mismatches"]
    assert m["ranks"] == [1] and m["seq"] == 4 and m["found"]["1"]["op"] == "broadcast" and m["expected"][
        "op"] == "all_reduce"


def test_sequence_numbers_are_compared_within_a_process_group_only():
    # A subgroup of ranks 0 and 1 (as the structure phase creates) counts from 1 again:
    # rank 1 is behind in it, and the world group is unaffected by its numbers.
    d = dumps("mismatch")
    for r, n in ((0, 3), (1, 2)):
        base = copy.deepcopy(d[r]["entries"][0])
        for seq in range(1, n + 1):
            d[r]["entries"].append(dict(copy.deepcopy(base), process_group=["1", "intra"], collective_seq_id=seq,
                                        record_id=100 + seq))
    s = summarize(d)
    assert s["behind"] == [] and s["newest_seq"] == 4
    assert s["groups"] == {"1": {"newest_seq": 3, "behind": [1]}}
    assert [m["pg"] for m in s["mismatches"]] == ["0"]
