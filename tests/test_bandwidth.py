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
