"""The monitor: what it records in a loop, the stall/straggler/batch-count analysis on
recorded fixtures, and a real 2-rank run with one slow loader that must be named."""

from __future__ import annotations

import json
import subprocess
import time

import torch

from ncclDoctor.analysis import stalls
from ncclDoctor.monitor import Monitor
from ncclDoctor.sweep.stalls import read_records
from tests._reportrun import schema_errors
from tests.conftest import ROOT, cli_env, run_cli


class SlowLoader:
    def __init__(self, n, wait_s):
        self.n, self.wait_s = n, wait_s

    def __len__(self):
        return self.n

    def __iter__(self):
        for _ in range(self.n):
            time.sleep(self.wait_s)
            yield torch.zeros(8, 3), torch.zeros(8)


def test_monitor_records_data_wait_compute_and_warmup(tmp_path):
    mon = Monitor(tmp_path, rank=0, world_size=1, warmup_steps=2)
    for _ in mon.iter(SlowLoader(6, 0.02), epoch=0):
        time.sleep(0.01)
        with mon.comm():
            time.sleep(0.005)
    mon.close()
    recs = read_records(tmp_path)[0]
    steps = [r for r in recs if r["kind"] == "step"]
    assert [r["warmup"] for r in steps] == [True, True, False, False, False, False]
    assert all(r["data_wait_s"] >= 0.019 and r["samples"] == 8 for r in steps)
    assert all(r["comm_s"] >= 0.004 and r["compute_s"] >= 0.009 for r in steps)
    assert all(abs(r["step_s"] - r["data_wait_s"] - r["comm_s"] - r["compute_s"]) < 1e-6 for r in steps)
    assert steps[0]["batch_bytes"] == 8 * 3 * 4 + 8 * 4
    assert {"kind": "epoch", "epoch": 0, "batches": 6, "len_loader": 6} in recs
    assert recs[0]["kind"] == "meta" and recs[-1] == {"kind": "end", "steps": 6}


def test_monitor_takes_samples_and_tokens_from_the_user(tmp_path):
    with Monitor(tmp_path, rank=0, world_size=1, warmup_steps=0) as mon:
        for i, _ in enumerate(mon.iter([{"ids": torch.zeros(4, 7)}] * 3)):
            mon.step(samples=4, tokens=20 + i)
    steps = [r for r in read_records(tmp_path)[0] if r["kind"] == "step"]
    assert [(r["samples"], r["tokens"]) for r in steps] == [(4, 20), (4, 21), (4, 22)]
    assert stalls.summarize(read_records(tmp_path))[0].tokens == 63


def test_read_records_skips_a_torn_last_line(tmp_path):
    mon = Monitor(tmp_path, rank=3, world_size=4)
    for _ in mon.iter([torch.zeros(2)] * 3):
        pass
    mon.close()
    with open(tmp_path / "monitor" / "rank-3.jsonl", "a") as fh:
        fh.write('{"kind":"step","st')  # a rank killed mid-write
    assert [r["kind"] for r in read_records(tmp_path)[3]][-1] == "end"


def _records(world, steps, busy, host="n1", warmup=2):
    """Recorded-shape fixtures: busy(rank, step) -> (data_wait_s, compute_s)."""
    out = {}
    for r in range(world):
        recs = [{"kind": "meta", "rank": r, "host": host, "addr": f"10.0.0.{r + 1}", "local_rank": r}]
        for s in range(steps):
            dw, comp = busy(r, s)
            recs.append({"kind": "step", "step": s, "epoch": 0, "data_wait_s": dw, "compute_s": comp, "comm_s": 0.001,
                         "step_s": 0.0, "samples": 32, "warmup": s < warmup})
        out[r] = recs
    for s in range(steps):  # all ranks leave the all_reduce together: step time = slowest + comm
        slowest = max(sum(busy(q, s)) for q in range(world))
        for r in range(world):
            rec = out[r][s + 1]
            rec["comm_s"] = slowest - sum(busy(r, s)) + 0.001
            rec["step_s"] = rec["data_wait_s"] + rec["compute_s"] + rec["comm_s"]
    for r in range(world):
        out[r].append({"kind": "epoch", "epoch": 0, "batches": steps, "len_loader": steps})
    return out


def _jitter(r, s):
    return ((r * 7 + s * 13) % 5) * 0.0004  # deterministic scheduling noise, < 2 ms


def test_analysis_names_the_input_straggler_and_its_node():
    recs = _records(4, 40, lambda r, s: (0.002 + (0.03 if r == 2 else 0.0) + _jitter(r, s), 0.02 + _jitter(s, r)))
    results, findings = stalls.analyse(recs)
    by = {f.code: f for f in findings}
    assert by["DL002"].ranks == [2] and by["DL002"].nodes == ["10.0.0.3 (n1)"]
    assert "input-bound" in by["DL002"].message
    assert by["DL001"].ranks == [2]  # only the slow rank waits for data
    assert [s["straggler"] for s in results["stragglers"]] == [False, False, True, False]


def test_analysis_calls_a_compute_straggler_compute_bound():
    recs = _records(2, 30, lambda r, s: (0.001 + _jitter(r, s), 0.02 + (0.015 if r == 0 else 0.0) + _jitter(s, r)))
    _, findings = stalls.analyse(recs)
    f = next(f for f in findings if f.code == "DL002")
    assert f.ranks == [0] and "compute-bound" in f.message
    assert not [f for f in findings if f.code == "DL001"]


def test_analysis_blames_nobody_when_ranks_are_even():
    recs = _records(4, 40, lambda r, s: (0.0005 + _jitter(r, s), 0.02 + _jitter(s, r)))
    assert stalls.analyse(recs)[1] == []


def test_analysis_flags_unequal_batch_counts_as_an_error():
    recs = _records(2, 10, lambda r, s: (0.001, 0.01))
    recs[1][-1] = {"kind": "epoch", "epoch": 0, "batches": 9, "len_loader": 9}
    f = [f for f in stalls.analyse(recs)[1] if f.code == "DL003"]
    assert len(f) == 1 and f[0].severity.value == "error" and "rank(s) [1]" in f[0].message


def test_stalls_cli_usage_error_without_records(tmp_path):
    p = run_cli("stalls", str(tmp_path))
    assert p.returncode == 2 and "no monitor records" in p.stderr and "Traceback" not in p.stderr


def test_slow_loader_on_one_rank_is_detected_and_named(tmp_path):
    """Real torchrun, 2 gloo ranks; rank 1's loader sleeps 3 ms more per sample."""
    from ncclDoctor.launch.torchrun import LaunchSpec, torchrun_argv

    run = tmp_path / "run"
    args = ["--data-dir", str(tmp_path / "data"), "--synthetic-train", "1536", "--synthetic-test", "64", "--batch-size",
            "16", "--no-eval",
            "--slow-rank", "1", "--slow-sample-ms", "3", "--sample-cost-kind", "io", "--monitor-dir", str(run),
            "--warmup-steps", "3"]
    argv = torchrun_argv(LaunchSpec(nproc_per_node=2, module="reference_train", log_dir=str(tmp_path / "logs")), args)
    p = subprocess.run(argv, capture_output=True, text=True, timeout=240, env=cli_env(OMP_NUM_THREADS="1"),
                       cwd=str(ROOT))
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    out = run_cli("stalls", str(run), "--json", "--fail-on", "warning")
    rep = json.loads(out.stdout)
    assert out.returncode == 1, out.stderr  # warnings at --fail-on warning
    dl002 = [f for f in rep["findings"] if f["code"] == "DL002"]
    assert len(dl002) == 1 and dl002[0]["ranks"] == [1], rep["findings"]
    assert "input-bound" in dl002[0]["message"] and dl002[0]["nodes"]
    ranks = {r["rank"]: r for r in rep["results"]["stalls"]["ranks"]}
    assert ranks[1]["data_wait_ms"] > 30 and ranks[0]["comm_ms"] > 30  # rank 0 waits in the all_reduce
    assert (run / "report.md").read_text().count("Per-rank data wait") == 1
    assert schema_errors(rep) == []


def test_step_lines_are_the_json_that_json_dumps_writes():
    """The hand-formatted step line (the monitor's per-step cost) must read back exactly
    as json.dumps's: plain steps, None samples, a step with the keys added later."""
    from ncclDoctor.monitor import _step_line

    base = {"kind": "step", "step": 7, "epoch": 2, "epoch_step": 3, "t": 12345.678901234, "data_wait_s": 1.5e-05,
            "samples": 32, "warmup": False, "step_s": 0.0101, "comm_s": 0.0, "compute_s": 0.010085}
    cases = [base, {**base, "samples": None, "warmup": True, "epoch": "a"},
             {**base, "batch_bytes": 4096, "tokens": 20, "gpu_s": 0.004, "note": [1, "x"]}]
    for rec in cases:
        line = _step_line(rec)
        assert line == json.dumps(rec, separators=(",", ":"))
        assert json.loads(line) == rec


def test_batch_size_follows_the_first_batchs_path_and_falls_back(tmp_path):
    """The cached path to the batch's tensor must not stick when the batch's shape changes."""
    batches = [(torch.zeros(4, 2), 1), (torch.zeros(3, 2), 1), {"x": torch.zeros(5)}, [torch.zeros(6, 1)], 7]
    with Monitor(tmp_path, rank=0, world_size=1, warmup_steps=0) as mon:
        for _ in mon.iter(batches):
            pass
    steps = [r for r in read_records(tmp_path)[0] if r["kind"] == "step"]
    assert [r["samples"] for r in steps] == [4, 3, 5, 6, None]
