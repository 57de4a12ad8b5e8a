"""sweep-workers: the plan (pure), usage errors, and real sweeps under torchrun that must
recommend more workers for a slow loader than for a fast one."""

from __future__ import annotations

import json
import re

import pytest

from ncclDoctor.sweep import plan
from ncclDoctor.sweep.plan import Axes, Config
from tests._reportrun import schema_errors
from tests.conftest import cli_env, run_cli, run_cli_here


def test_prediction_is_worker_time_over_step_time():
    assert plan.predict_workers(0.120, 0.040) == 3
    assert plan.predict_workers(0.0405, 0.020) == 2  # 2.02: within 5% of 2 workers
    assert plan.predict_workers(0.005, 0.050) == 1
    assert plan.predict_workers(0.0, 0.050) == 0


def test_adaptive_walk_brackets_the_knee():
    axes = Axes((0, 1, 2, 3, 4, 6, 8))

    def walk(n_star, share, rate):
        """Run the walk against a model host: share(n) and rate(n) per worker count."""
        tried, measured, shares = {0}, {Config(0): rate(0)}, {Config(0): share(0)}
        while (n := plan.next_adaptive(axes, n_star, tried, measured, shares, 0.05, 0.10)) is not None:
            tried.add(n)
            measured[Config(n)], shares[Config(n)] = rate(n), share(n)
        return sorted(tried)

    # loader-bound, knee at 3 workers, prediction 2: up to 3, nothing below 2 or above 3
    assert walk(2, lambda n: 0.04 if n >= 3 else 0.5, lambda n: min(n, 3) * 100 + 50) == [0, 2, 3]
    # prediction too high (6): down while fewer still keep up
    assert walk(6, lambda n: 0.04 if n >= 3 else 0.5, lambda n: min(n, 3) * 100 + 50) == [0, 2, 3, 4, 6]
    # compute-bound: 0 keeps up; one run above confirms it
    assert walk(0, lambda n: 0.03, lambda n: 500) == [0, 1]
    # waits everywhere but stops gaining (CPU-bound): stop at the flat
    assert walk(1, lambda n: 0.3, lambda n: {0: 100, 1: 200, 2: 205}.get(n, 206)) == [0, 1, 2]


def test_recommend_takes_the_fewest_workers_within_the_margin():
    measured = {Config(0): 300.0, Config(1): 590.0, Config(2): 610.0, Config(3): 600.0, Config(4): 620.0}
    assert plan.recommend(measured, 0.05) == Config(1)
    assert plan.recommend(measured, 0.01) == Config(4)
    assert plan.recommend({}, 0.05) is None


def test_recommend_trusts_a_low_data_wait_over_a_lucky_run():
    # n=0 waits 2% of its step for data; n=2 ran while the host was quieter
    measured = {Config(0): 600.0, Config(1): 590.0, Config(2): 1250.0}
    shares = {Config(0): 0.02, Config(1): 0.03, Config(2): 0.02}
    assert plan.recommend(measured, 0.05, shares) == Config(0)
    assert plan.recommend(measured, 0.05, {Config(0): 0.40, Config(1): 0.2, Config(2): 0.02}) == Config(2)


def test_grid_covers_every_axis_without_meaningless_combinations():
    axes = Axes((0, 2), (False, True), (2, 4), (False, True))
    g = plan.grid(axes)
    assert len(g) == 2 + 2 * 2 * 2  # n=0: pin only; n=2: pin x prefetch x persistent
    assert len(set(g)) == len(g)
    assert plan.variants(axes, 2) == [Config(2, True, 2, False), Config(2, False, 4, False), Config(2, False, 2, True)]


@pytest.mark.parametrize("args,needle", [
    (["--workers", "0,x"], "bad --workers"),
    (["--workers", "-1,2"], "bad --workers"),
    (["--loader", "nocolon"], "module:function"),
    (["--pin-memory", "maybe"], "bad --pin-memory"),
    (["--max-minutes", "0"], "--max-minutes"),
])
def test_usage_errors_are_one_line_and_exit_2(tmp_path, args, needle):
    p = run_cli_here("sweep-workers", "--out", str(tmp_path), *args, timeout=120)
    assert p.returncode == 2, p.stderr
    assert needle in p.stderr and "Traceback" not in p.stderr


def test_a_usage_error_is_one_line_in_a_real_process(tmp_path):
    p = run_cli("sweep-workers", "--out", str(tmp_path), "--workers", "0,x", timeout=120)
    assert p.returncode == 2, p.stderr
    assert "bad --workers" in p.stderr and "Traceback" not in p.stderr and len(p.stderr.strip().splitlines()) == 1


FAST = ["--windows", "2", "--window-steps", "8", "--warmup-steps", "3"]


def _sweep(tmp_path, name, *args, env=None):
    p = run_cli("sweep-workers", "--out", str(tmp_path / name), "--json", *FAST, *args, timeout=400, env=env)
    assert p.returncode in (0, 1), p.stderr[-3000:]
    rep = json.loads(p.stdout)
    assert rep["command"] == "sweep-workers" and (tmp_path / name / "report.md").exists()
    assert schema_errors(rep) == []
    return rep


@pytest.mark.slow
def test_sweep_recommends_more_workers_for_a_slow_loader_than_a_fast_one(tmp_path):
    # 6 ms of storage latency per sample (192 ms per batch of 32) against a step of tens
    # of ms needs several workers; with no cost one process keeps up. --margin 0.25 for
    # the slow loader because 2 cores shared by 5 test suites make run-to-run noise far
    # above 5%; the fast one is judged by its data-wait share, a ratio within one run.
    slow = _sweep(tmp_path, "slow", "--workers", "0,1,2,3", "--margin", "0.25", "--sample-cost-ms", "6",
                  "--sample-cost-kind", "io")
    fast = _sweep(tmp_path, "fast", "--workers", "0,1,2,3", "--sample-cost-ms", "0")
    n_slow = slow["results"]["sweep"]["recommendation"]["num_workers"]
    n_fast = fast["results"]["sweep"]["recommendation"]["num_workers"]
    assert n_slow >= 2 and n_fast <= 1 and n_slow > n_fast, (slow["results"]["sweep"]["rows"],
                                                             fast["results"]["sweep"]["rows"])
    assert "loader-bound" in slow["results"]["sweep"]["recommendation"]["reason"]
    assert "compute-bound" in fast["results"]["sweep"]["recommendation"]["reason"]
    codes = {f["code"] for f in slow["findings"]}
    assert {"DL007", "DL004"} <= codes  # the pick, and pin_memory being a no-op on CPU
    # the adaptive search measured n=0 and a few around the prediction, not the whole grid
    assert 0 in {c["num_workers"] for c in slow["results"]["sweep"]["rows"]}
    assert slow["results"]["sweep"]["launches"] == fast["results"]["sweep"]["launches"] == 1
    assert "samples/s vs num_workers" in (tmp_path / "slow" / "report.md").read_text()


@pytest.fixture(scope="module")
def user_grid(tmp_path_factory):
    """One grid over a user's loader factory, read by the two tests below (one sweep instead of
    two): num_workers 0,2 x prefetch_factor 2,4 x persistent_workers both, each DataLoader the
    ranks built logged by tests/sweep_user_loader.py."""
    base = tmp_path_factory.mktemp("user-grid")
    log = base / "loaders"
    log.mkdir()
    rep = _sweep(base, "user", "--grid", "--workers", "0,2", "--prefetch-factor", "2,4", "--persistent-workers",
                 "both", "--loader", "tests.sweep_user_loader:make_loader", "--step-ms", "5",
                 env=cli_env(SWEEP_LOADER_LOG=str(log)))
    return rep, base / "user", log


@pytest.mark.slow
def test_sweep_runs_a_user_loader_factory_on_the_grid(user_grid):
    rep, run_dir, _ = user_grid
    cfgs = rep["results"]["sweep"]["rows"]
    assert {c["num_workers"] for c in cfgs} == {0, 2} and all(c["status"] == "ok" for c in cfgs), cfgs
    by = {(c["num_workers"], c["prefetch_factor"], c["persistent_workers"]): c["samples_per_s"] for c in cfgs}
    assert by[2, 2, False] > by[0, None, False], by  # 16 ms of sleep per batch vs 5 ms steps
    page = (run_dir / "report.html").read_text()  # the HTML view has the table as well as the chart
    table = page[page.index('id="table-sweep"'):]
    assert 'id="chart-sweep"' in page and "samples/s (median)" in table
    assert re.search(r'<td class="l">w[02]-pin0[-a-z0-9]* ◀ pick</td>', table) and 'id="recommendation"' in page


@pytest.mark.slow
def test_prefetch_factor_and_persistent_workers_reach_the_dataloader(user_grid):
    """The grid over prefetch_factor x persistent_workers, run for real: every
    configuration's DataLoader (as the ranks built it) has the settings of its row."""
    rep, _, log = user_grid
    rows = rep["results"]["sweep"]["rows"]
    want = {(0, None, False)} | {(2, pf, pers) for pf in (2, 4) for pers in (False, True)}
    assert {(c["num_workers"], c["prefetch_factor"], c["persistent_workers"]) for c in rows} == want
    assert all(c["status"] == "ok" for c in rows), rows
    built = [json.loads(f.read_text()) for f in log.glob("*.json")]
    # each configuration ran 2 ranks; a worker-less loader reports torch's own prefetch_factor (None)
    got = {(b["num_workers"], b["prefetch_factor"] if b["num_workers"] else None,
            b["persistent_workers"]) for b in built}
    assert got == want and len(built) == 2 * len(want), built


@pytest.mark.slow
def test_sweep_adaptive_runs_every_configuration_in_one_launch(tmp_path):
    """The adaptive search's configurations (n=0, the walk, the variants at the pick) all
    run in one trainer launch (reference_train --session): each row measured, each with
    the DataLoader settings of its row as the ranks built it, by the same two rank
    processes, and no second launch."""
    log = tmp_path / "loaders"
    log.mkdir()
    p = run_cli("sweep-workers", "--out", str(tmp_path / "r"), "--json", "--workers", "0,1,2",
                "--prefetch-factor", "2,4", "--persistent-workers", "both", "--windows", "2", "--window-steps", "4",
                "--warmup-steps", "2", "--loader", "tests.sweep_user_loader:make_loader", "--step-ms", "2",
                env=cli_env(SWEEP_LOADER_LOG=str(log)), timeout=300)
    assert p.returncode in (0, 1), p.stderr[-2000:]
    sweep = json.loads(p.stdout)["results"]["sweep"]
    rows = sweep["rows"]
    assert sweep["launches"] == 1 and len(rows) >= 2 and all(c["status"] == "ok" for c in rows), sweep
    assert len(list((tmp_path / "r" / "sessions").iterdir())) == 1
    want = {(c["num_workers"], c["prefetch_factor"] if c["num_workers"] else None, c["persistent_workers"])
            for c in rows}
    built = [json.loads(f.read_text()) for f in log.glob("*.json")]
    got = [(b["num_workers"], b["prefetch_factor"] if b["num_workers"] else None, b["persistent_workers"])
           for b in built]
    assert set(got) == want and len(got) == 2 * len(rows), (got, want)
    assert len({f.name.split("-")[0] for f in log.glob("*.json")}) == 2  # the same two rank processes built them all
    # (which rows beyond n=0 and n*: the variants at the pick, pf4 and persistent, run only when the pick has
    # workers; on a crushed host n=0 can come within the margin, so the test does not depend on it)


def test_max_minutes_bounds_the_sweep_and_reports_the_cut(tmp_path):
    # Slow on purpose, on any machine: 50 ms of sleep per sample makes the fastest
    # configuration (2 workers) need >= (5 + 3*20) steps * 32 samples * 50 ms / 2 = 52 s,
    # far over the 6 s budget, so nothing can be measured however fast the host is.
    p = run_cli("sweep-workers", "--out", str(tmp_path / "r"), "--json", "--grid", "--workers", "0,1,2",
                "--max-minutes", "0.1", "--sample-cost-ms", "50", "--sample-cost-kind", "io", timeout=120)
    rep = json.loads(p.stdout)
    assert p.returncode == 3, p.stderr  # nothing measured: could not run
    assert rep["results"]["sweep"]["not_measured"], rep["results"]["sweep"]
    codes = {f["code"] for f in rep["findings"]}
    assert "DL009" in codes and "DL008" in codes
    assert schema_errors(rep) == []
    assert rep["duration_s"] < 60
