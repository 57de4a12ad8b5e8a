"""Round 98's nccl-1417: the job's own prints, each naming the rank that prints it, of the tensor it hands to one
all_reduce ("Rank 7 tensor before allreduce: torch.Size([32768000]) 1.0"), rank 0 alone with another size, nothing
failing beside them (the job hung). One size against a size two or more ranks agree on is rule D's majority (rules
AH (1), BV (1)): desync, that rank the culprit, the agreeing ranks innocent (verdict.desync._rank_shapes, read from
parse._rank_shape_print's per-file ``rank_shapes`` event). Without such a majority: desync, nobody named. Near shapes
keep their old reading: one size on every rank, prints of what came back ("after allreduce"), an object collective
(any size is allowed), and the same prints beside a failure.
"""
from __future__ import annotations

import pytest

from ncclDoctor.diagnose import load
from tests.conftest import child_failed, failure_record, verdict_accused, watchdog_line


def _prints(sizes: dict[int, str], label: str = "tensor before allreduce", fmt: str = "Rank {r} {label}: "
            "torch.Size([{size}]) 1.0", indent: str = "    ", order: list[int] | None = None) -> str:
    return "".join(indent + fmt.format(r=r, label=label, size=sizes[r]) + "\n" for r in order or sorted(sizes))


def test_the_case_lines_hold_a_trigger_word():
    line = b"        # Rank 7 tensor before allreduce: torch.Size([32768000]) 1.0\n"
    assert load._find_hits(line, len(line)) == [0]


@pytest.mark.parametrize("sizes, odd, order, fmt, label", [
    # the case's shape: eight ranks, rank 0 alone, printed out of order under a comment marker
    ({r: "409600" if r == 0 else "32768000" for r in range(8)}, 0, [7, 6, 4, 0, 5, 3, 2, 1],
     "# Rank {r} {label}: torch.Size([{size}]) 1.0", "tensor before allreduce"),
    # other ranks, numbers and words: four ranks, rank 2 alone, a two-dimensional shape, "rank=N"
    ({0: "1024, 8", 1: "1024, 8", 2: "1000, 8", 3: "1024, 8"}, 2, None,
     "rank={r} {label}: torch.Size([{size}])", "grads before all_reduce"),
    # a launcher's "[rankN]: " tag as the rank, a broadcast
    ({0: "64", 1: "64", 2: "64", 3: "64", 4: "64", 5: "128"}, 5, None,
     "[rank{r}]: {label}: torch.Size([{size}])", "buffer before broadcast"),
])
def test_one_ranks_printed_size_against_the_others_is_that_ranks_desync(tmp_path, sizes, odd, order, fmt, label):
    text = "Test 1 log:\n" + _prints(sizes, label, fmt, order=order)
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "desync", v
    assert acc == {odd}, (v, acc)
    assert "pad tensors to a common size before the collective" in v["fix"].lower()


def test_the_odd_rank_printing_again_after_the_collective_still_reads_so(tmp_path):
    sizes = {r: "2048" if r == 3 else "4096" for r in range(4)}
    text = _prints(sizes, "x before all_reduce") + "    Rank 3 x after all_reduce: torch.Size([2048]) 4.0 4.0\n"
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "desync" and acc == {3}, (v, acc)


def test_a_launchers_rank_prefix_before_the_jobs_own_rank_leaves_the_jobs_rank(tmp_path):
    sizes = {r: "10" if r == 1 else "20" for r in range(4)}
    text = _prints(sizes, fmt="[rank0]: Rank {r} {label}: torch.Size([{size}])", indent="")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "desync" and acc == {1}, (v, acc)


def test_sizes_with_no_single_odd_rank_are_a_desync_with_nobody_named(tmp_path):
    sizes = {0: "100", 1: "100", 2: "200", 3: "200"}
    v, acc = verdict_accused(tmp_path, _prints(sizes))
    assert v["cause"] == "desync", v
    assert acc == set() and v["culprits"] == [], v


# --- near shapes: their old reading ----------------------------------------------------------------------------------
def test_one_size_on_every_rank_is_no_failure(tmp_path):
    v, acc = verdict_accused(tmp_path, _prints({r: "32768000" for r in range(8)}))
    assert v["cause"] != "desync" and acc == set(), v


def test_sizes_printed_after_the_collective_are_its_results_not_what_the_ranks_handed_it(tmp_path):
    sizes = {r: "409600" if r == 0 else "32768000" for r in range(8)}
    v, acc = verdict_accused(tmp_path, _prints(sizes, "tensor after allreduce"))
    assert v["cause"] != "desync" and acc == set(), v


def test_an_object_collective_allows_any_size(tmp_path):
    sizes = {r: "7" if r == 2 else "9" for r in range(4)}
    v, acc = verdict_accused(tmp_path, _prints(sizes, "obj before all_gather_object"))
    assert v["cause"] != "desync" and acc == set(), v


def test_the_prints_beside_a_failure_leave_that_failures_reading(tmp_path):
    sizes = {r: "409600" if r == 0 else "32768000" for r in range(4)}
    failed = watchdog_line(2, 5, "ALLREDUCE", 600001, 600000, 32768000) + "\n" + child_failed(
        failure_record(0, 2, 2, -6, 4242))
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    plain, plain_acc = verdict_accused(tmp_path / "a", failed)
    v, acc = verdict_accused(tmp_path / "b", _prints(sizes, indent="") + failed)
    assert "each naming its rank" not in v["summary"], v
    assert (v["cause"], acc) == (plain["cause"], plain_acc), (v, plain)
