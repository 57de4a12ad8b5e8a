"""Issue 15 item 1: bounded wall time, slow told apart from hung, with default options
(real torchrun, real gloo ranks, the existing --inject faults)."""

from __future__ import annotations

import time

from ncclDoctor.check.budget import HANG_FLOOR_S, no_progress
from ncclDoctor.launch.supervisor import RankState
from ncclDoctor.report.model import Report
from probes.budget import size_budget
from tests.conftest import run_cli
from tests.test_faults import leftovers

CFG = {"until_wall": 1000.0, "margin": 4.0, "floor_s": 2.0}


def test_size_budget_scales_the_previous_size_and_stays_within_the_time_left():
    assert size_budget(CFG, None, 1024, 900.0) == 100.0  # the first size: the time left
    assert size_budget(CFG, (1024, 0.5), 4096, 900.0) == 4 * 0.5 * 4  # margin x time x size ratio
    assert size_budget(CFG, (1024, 50.0), 4096, 900.0) == 100.0  # never past the end
    assert size_budget(CFG, (1024, 0.001), 4096, 900.0) == 2.0  # tiny sizes: the floor
    assert size_budget(CFG, (1024, 0.5), 4096, 999.5) == 0.5 and size_budget(CFG, (1024, 0.5), 4096, 1001) == 0.0


def test_one_size_never_takes_more_than_its_share_of_max_seconds():
    """A link slow at every size scales by the size ratio, inside MARGIN: only the cap
    stops it before the end of the budget (a 2-node check over 20 Mbit/s took 93 s)."""
    from ncclDoctor.check.budget import SIZE_SHARE, probe_budget

    cfg = probe_budget(120.0, 0.0)
    assert cfg["size_cap_s"] == SIZE_SHARE * 120.0 == 15.0
    assert size_budget(cfg, None, 1024, 10.0) == 15.0  # the first size: the cap, not the 95 s left
    assert size_budget(cfg, (1 << 20, 5.5), 4 << 20, 20.0) == 15.0  # 4 MiB after 5.5 s at 1 MiB: 22 s would not fit
    assert size_budget(cfg, (1 << 20, 0.5), 4 << 20, 20.0) == 4 * 0.5 * 4  # a healthy size: the scaled rule
    assert size_budget(cfg, (1 << 20, 5.5), 4 << 20, 100.0) == 5.0  # the time left, when less than the cap


class _Sup:
    def __init__(self):
        self.ranks = {r: RankState(r, phase="all_reduce", state="enter", left={"init", "smoke"}) for r in (0, 1)}
        self.phases = ("init", "smoke", "all_reduce", "done")


def test_no_progress_waits_far_longer_than_the_longest_step_then_names_the_phase():
    sup, policy = _Sup(), no_progress(lambda s, now: None)
    assert policy(sup, 0.0) is None
    sup.ranks[0].seq = 5
    assert policy(sup, 3.0) is None  # a 3 s step: the limit is now max(15, 30) s
    assert policy(sup, 30.0) is None
    stall = policy(sup, 33.5)
    assert stall and stall.phase == "all_reduce" and stall.limit_s == 30.0 and stall.since == 3.0
    quick, p2 = _Sup(), no_progress(lambda s, now: None)
    assert p2(quick, 0.0) is None and p2(quick, HANG_FLOOR_S) is None and p2(quick, HANG_FLOOR_S + 0.5)


def test_a_rank_hung_before_the_sweep_is_named_from_evidence_within_45_s(tmp_path):
    """Default options (no --timeout): today's fixed sweep deadline said so after 191 s."""
    out = tmp_path / "run"
    t0 = time.monotonic()
    proc = run_cli("check", "--out", str(out), "--inject", "hang:1", timeout=240)
    wall = time.monotonic() - t0
    assert proc.returncode == 4, proc.stderr[-2000:]
    rep = Report.load(out)
    [f] = [f for f in rep.findings if f.code == "RUN003"]
    assert f.ranks == [1] and "no rank made progress for" in f.message, f.message
    run = rep.results["run"]
    assert run["phase"] == "all_reduce" and run["culprits"] == [1] and run["victims"] == [0]
    assert run["verdict_after_s"] <= 45, run
    assert run["evidence"]["no_progress"]["limit_s"] >= HANG_FLOOR_S
    assert leftovers(out) == [] and wall < 150


def test_a_slow_rank_ends_the_sweep_at_its_budget_as_slow_not_hung(tmp_path):
    """Every collective waits 1 s for rank 1: a 13-op size takes ~13 s, so a 60 s check
    stops the sweep at the size that would not fit -- RUN008, exit 1, within the time."""
    out = tmp_path / "run"
    proc = run_cli("check", "--out", str(out), "--inject", "slow:1:1s", "--max-seconds", "60", timeout=240)
    assert proc.returncode == 1, proc.stderr[-2000:]
    rep = Report.load(out)
    codes = {f.code for f in rep.findings}
    assert "RUN008" in codes and "RUN003" not in codes, [(f.code, f.message) for f in rep.findings]
    ar = rep.results["all_reduce"]
    stop = ar["stopped"]
    ran = [r["size"] for r in ar["rows"]]
    assert stop["size"] not in ran and stop["size"] > max(ran, default=0)
    assert stop["predicted_s"] > stop["budget_s"] and "stopped at" in stop["note"]
    assert rep.results["run"]["status"] == "ok"
    assert rep.duration_s <= 60, rep.duration_s


def test_the_budget_counts_start_up_but_not_a_long_lived_callers_age():
    """A CLI run's clock starts with the process; run_check from a test session or a
    notebook that has run for an hour still gets the full --max-seconds."""
    from ncclDoctor.check.options import process_start

    now = time.time()
    assert now - 31 <= process_start() <= now
    assert now - 6 <= process_start(startup_s=5) <= now


def test_with_the_budget_each_sizes_first_sweep_op_still_sends_its_fingerprint(tmp_path, monkeypatch):
    """The budget's op of a size is not a sweep op (faults leave it alone), so the sweep
    count starts at 1: the fingerprint must still go out for the size's first sweep op,
    or a rank issuing another size is never seen and the verdict blames the wrong rank.
    One real gloo rank in this process, the real Worker, the mismatch fault on it."""
    import torch
    import torch.distributed as dist

    from ncclDoctor.analysis.verdict import plan_deviations
    from ncclDoctor.launch.supervisor import Outcome
    from probes import harness
    from probes.collectives import REGISTRY
    from probes.worker import Worker

    monkeypatch.setenv("RANK", "0")
    monkeypatch.setenv("WORLD_SIZE", "1")
    monkeypatch.delenv("NCCLDOCTOR_CONTROL", raising=False)
    w = Worker({"inject": ["mismatch:0"], "phases": ["all_reduce"]})
    marks: list[dict] = []
    w.event = lambda phase, kind, **f: marks.append({"event": kind, **f})
    w.device = torch.device("cpu")
    sizes, budget = [1024, 4096], {"until_wall": time.time() + 60, "margin": 4.0, "floor_s": 2.0}
    dist.init_process_group("gloo", init_method=f"file://{tmp_path / 'pg'}", rank=0, world_size=1)
    try:
        out = harness.sweep(w, REGISTRY["all_reduce"], sizes, 2, 1, 1, 0, budget=budget)
    finally:
        dist.destroy_process_group()
    assert "stopped" not in out and len(out["rows"]) == 2
    assert [(m["numel"], m["want"]) for m in marks if m["event"] == "issue"] == [(512, 256), (1024, 1024)]
    assert [m["issued"] for m in marks if m["event"] == "barrier"] == [2, 2]  # budget op + 1 warm-up
    st = RankState(0, marks=marks)
    found = plan_deviations(Outcome("failed", 1, 1.0, {0: st}, {}), sizes, warmup=2)
    assert "issued all_reduce of 512 elements where every rank was to issue 256" in found[0]
