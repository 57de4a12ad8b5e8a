"""nccl-tests' formulas: algbw = S/t, busbw = algbw x factor (src/all_reduce.cu)."""

import pytest

from ncclDoctor.analysis import bandwidth

# nccl-tests PERFORMANCE.md: all_reduce factor 2(n-1)/n, tabulated for n = 1..8.
NCCL_TESTS_ALLREDUCE = {1: 0.0, 2: 1.0, 3: 4 / 3, 4: 1.5, 5: 1.6, 6: 5 / 3, 7: 12 / 7, 8: 1.75}


@pytest.mark.parametrize("n,factor", sorted(NCCL_TESTS_ALLREDUCE.items()))
def test_allreduce_bus_factor_matches_nccl_tests(n, factor):
    assert bandwidth.bus_factor("all_reduce", n) == pytest.approx(factor)


def test_algbw_is_bytes_over_seconds_in_1e9():
    assert bandwidth.algbw_gbps(2_000_000_000, 2.0) == pytest.approx(1.0)
    assert bandwidth.algbw_gbps(1, 0) == 0.0


def test_table_averages_rank_times_and_names_slowest():
    per_rank = {
        0: {"rows": [{"size": 4 << 20, "count": 1 << 20, "time_us": 1000.0, "wrong": 0}]},
        1: {"rows": [{"size": 4 << 20, "count": 1 << 20, "time_us": 3000.0, "wrong": 2}]},
    }
    (row,) = bandwidth.build_table("all_reduce", per_rank, 2)
    assert row["time_us"] == pytest.approx(2000.0)
    assert row["algbw_gbps"] == pytest.approx((4 << 20) / 1e9 / 2e-3)
    assert row["busbw_gbps"] == pytest.approx(row["algbw_gbps"] * 1.0)
    assert row["slowest_rank"] == 1 and row["wrong"] == 2
    assert row["time_us_max"] / row["time_us_min"] == pytest.approx(3.0)


def _rank(rows):
    return {"rows": rows}


def test_table_is_exactly_what_every_view_reads_three_ranks_two_sizes():
    """Every key of a row, at world size 3 (bus factor 4/3), sizes sorted, a rank that
    published no '#wrong' or outside time counting as 0, the slowest rank by its time."""
    per_rank = {
        2: _rank([{"size": 4096, "count": 1024, "time_us": 30.0, "wrong": 1, "outside_us": 5.0},
                  {"size": 1024, "count": 256, "time_us": 12.0, "wrong": 0, "outside_us": 1.0}]),
        0: _rank([{"size": 1024, "count": 256, "time_us": 15.0},
                  {"size": 4096, "count": 1024, "time_us": 20.0, "wrong": 2}]),
        "1": _rank([{"size": "4096", "count": "1024", "time_us": "25.0", "outside_us": 2.5},
                    {"size": 1024, "count": 256, "time_us": 6.0, "outside_us": 0.5}]),
    }
    table = bandwidth.build_table("all_reduce", per_rank, 3)
    assert [r["size"] for r in table] == [1024, 4096]
    small, big = table
    assert big == {
        "size": 4096, "count": 1024, "type": "float", "redop": "sum", "root": -1,
        "time_us": 25.0, "algbw_gbps": pytest.approx(4096 / 1e9 / 25e-6, rel=1e-12),
        "busbw_gbps": pytest.approx(4096 / 1e9 / 25e-6 * 4 / 3, rel=1e-12),
        "wrong": 3, "time_us_min": 20.0, "time_us_max": 30.0, "slowest_rank": 2, "ranks_reported": 3,
        "per_rank_time_us": {"0": 20.0, "1": 25.0, "2": 30.0},
        "per_rank_outside_us": {"0": 0.0, "1": 2.5, "2": 5.0},
    }
    # rank 0 is the slowest at 1 KiB: the slowest rank is found by time, not by rank number
    assert (small["time_us"], small["slowest_rank"], small["wrong"], small["time_us_min"]) == (11.0, 0, 0, 6.0)
    assert small["per_rank_outside_us"] == {"0": 0.0, "1": 0.5, "2": 1.0}
    assert list(big) == ["size", "count", "type", "redop", "root", "time_us", "algbw_gbps", "busbw_gbps", "wrong",
                         "time_us_min", "time_us_max", "slowest_rank", "ranks_reported", "per_rank_time_us",
                         "per_rank_outside_us"]


def test_a_rank_without_rows_and_a_size_some_ranks_missed():
    table = bandwidth.build_table("all_reduce", {0: {}, 1: _rank([{"size": 1024, "count": 256, "time_us": 4.0}])}, 2)
    assert [(r["size"], r["ranks_reported"], r["per_rank_time_us"]) for r in table] == [(1024, 1, {"1": 4.0})]
    assert bandwidth.build_table("all_reduce", {}, 2) == []


def test_algbw_is_exactly_bytes_per_nanosecond():
    assert bandwidth.algbw_gbps(1_000_000_000, 1.0) == 1.0
    assert bandwidth.algbw_gbps(3e9, 1.5) == 2.0
    assert bandwidth.algbw_gbps(5, -1.0) == 0.0


def test_peak_and_average_busbw_as_nccl_tests_footer():
    table = [{"busbw_gbps": 1.0}, {"busbw_gbps": 4.0}, {"busbw_gbps": 1.0}]
    assert bandwidth.peak_busbw(table) == 4.0 and bandwidth.avg_busbw(table) == 2.0
    assert bandwidth.peak_busbw([]) == 0.0 and bandwidth.avg_busbw([]) == 0.0


def _late_row(outs, time_us=4000.0, size=1024):
    return {"size": size, "time_us": time_us, "per_rank_outside_us": {str(r): v for r, v in outs.items()}}


def test_late_rank_needs_every_threshold():
    """Late = outside time >= min_us, >= a quarter of the op time and >= 4x the others' median."""
    assert bandwidth.late_ranks([_late_row({0: 100.0, 1: 1000.0, 2: 200.0})]) == {
        1: [{"size": 1024, "outside_us": 1000.0, "others_us": 150.0}]}
    exactly_4x = {1: [{"size": 1024, "outside_us": 1000.0, "others_us": 250.0}]}
    assert bandwidth.late_ranks([_late_row({0: 250.0, 1: 1000.0})]) == exactly_4x
    assert bandwidth.late_ranks([_late_row({0: 251.0, 1: 1000.0})]) == {}  # just under 4x
    assert bandwidth.late_ranks([_late_row({0: 100.0, 1: 999.0})]) == {}  # under min_us
    at_min = bandwidth.late_ranks([_late_row({0: 100.0, 1: 999.0}, time_us=3996.0)], min_us=999.0)
    assert at_min == {1: [{"size": 1024, "outside_us": 999.0, "others_us": 100.0}]}
    assert bandwidth.late_ranks([_late_row({0: 100.0, 1: 1000.0}, time_us=4001.0)]) == {}  # under a quarter of the op
    assert bandwidth.late_ranks([_late_row({0: 10.0})]) == {}  # one rank: nobody to be late against
    assert bandwidth.late_ranks([{"size": 1, "time_us": 1.0}]) == {}
    # a size with one rank reporting is skipped, not the end of the table
    assert list(bandwidth.late_ranks([_late_row({0: 10.0}), _late_row({0: 0.0, 1: 2000.0})])) == [1]


def test_late_rank_collects_every_size_it_was_late_at():
    table = [_late_row({0: 0.0, 1: 2000.0}, size=1024), _late_row({0: 0.0, 1: 10.0}, size=4096),
             _late_row({0: 3000.0, 1: 0.0}, size=16384)]
    assert bandwidth.late_ranks(table) == {
        1: [{"size": 1024, "outside_us": 2000.0, "others_us": 0.0}],
        0: [{"size": 16384, "outside_us": 3000.0, "others_us": 0.0}],
    }
