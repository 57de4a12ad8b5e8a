"""How fast `ncclDoctor run` names a hang, and what watching costs a training step.

    python benchmarks/bench_live.py [--ranks 2] [--steps 400] [--pairs 8] [--skip-verdict]

Two figures from one run, each a ratio against a baseline measured in the same run:

1. stall -> verdict: a 2-rank gloo DDP loop (tests/fixtures/userjobs/ddp_loop.py) whose rank 1
   stops before step 30, under `ncclDoctor run --on-hang kill` with DEFAULT settings (no
   --stall-after). Time from the culprit's "FAULT" timestamp to the verdict's wall time,
   compared with the 1800 s after which torch's gloo watchdog would report (10 min on nccl).
2. step-time overhead: the same loop with a 10 ms busy step and no fault, under plain torchrun
   (A) and under `ncclDoctor run` (B, default 0.5 s poll), in --pairs pairs run in ABBA order
   (AB, BA, AB, ...: a drift in the machine's load hits both arms alike). Per pair:
   - the ratio B/A of the wall ms/step of the slowest rank, as the job prints it (what the user
     feels); the mean ratio gets a 95% confidence interval (Student t over the pairs), and the
     interval either resolves the < 1% target (upper bound below 1.01), refutes it (lower bound
     above 1.01) or cannot tell (it spans 1.01);
   - what the cost is made of, in CPU time, which other tenants disturb far less than wall time:
     the worker's background threads (process CPU minus main-thread CPU, per second of stepping:
     gloo's threads in A; plus the publisher, torch's worker server and nothing else in B), as
     B - A in % of one core per worker; and the `ncclDoctor run` process itself (collector and
     tracker), sampled with psutil over the job's stepping window, in % of one core; and the
     publisher thread's own CPU as it measures itself (thread_time, in every heartbeat; the
     report's results.live.publisher_cpu), which load does not inflate. On a node
     with a spare core per rank, these are the only way watching can slow a step, apart from
     the publisher's GIL hold (figure 3).
3. publisher cost: one poll of the in-worker publisher (FR counters of both recorders, group
   membership, main-thread frames, JSON, one UDP datagram) timed in a 1-rank gloo process whose
   Flight Recorder ring is full (2000 entries), as a share of one core at the default 0.5 s poll.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
JOB = str(ROOT / "tests" / "fixtures" / "userjobs" / "ddp_loop.py")
GLOO_WATCHDOG_S = 1800.0


def env() -> dict[str, str]:
    e = {k: v for k, v in os.environ.items() if not k.startswith(("NCCL_", "TORCH_NCCL_", "TORCH_FR_", "GLOO_"))}
    e["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), e.get("PYTHONPATH", "")) if p)
    return e


def torchrun(ranks: int) -> list[str]:
    return [sys.executable, "-m", "torch.distributed.run", "--standalone", f"--nproc-per-node={ranks}"]


def stall_to_verdict(ranks: int) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run"
        cmd = [sys.executable, "-m", "ncclDoctor", "run", "--on-hang", "kill", "--quiet", "--out", str(out), "--",
               *torchrun(ranks), JOB, "--steps", "1000000", "--fault", "hang", "--fault-step", "30"]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=900, env=env())
        m = re.search(r"FAULT hang rank \d+ step \d+ at ([\d.]+)", p.stdout)
        rep = json.loads((out / "report.json").read_text())
        verdicts = rep["results"]["live"]["verdicts"]
        if not m or not verdicts:
            raise SystemExit(f"no verdict (rc {p.returncode}): {p.stderr[-2000:]}")
        return verdicts[0]["wall"] - float(m.group(1))


FIGURES = re.compile(r"\(([\d.]+) ms/step; cpu ([\d.]+) ms/step, main ([\d.]+) ms/step; ended ([\d.]+)\)")


def step_figures(cmd: list[str], steps: int, sample_self: bool = False) -> dict[str, float]:
    """wall: ms/step of the slowest rank; bg: mean share of a core used by a worker's non-main
    threads while stepping; ncd (``sample_self``): share of a core used by the top process
    (``ncclDoctor run``) over rank 0's stepping window."""
    import psutil

    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env())
    samples: list[tuple[float, float]] = []
    if sample_self:
        ps = psutil.Process(proc.pid)
        while proc.poll() is None:
            try:
                t = ps.cpu_times()
                samples.append((time.time(), t.user + t.system))
            except psutil.Error:
                break
            time.sleep(0.2)
    out, err = proc.communicate(timeout=900)
    found = [tuple(map(float, m)) for m in FIGURES.findall(out)]
    if proc.returncode != 0 or not found:
        raise SystemExit(f"job failed (rc {proc.returncode}): {err[-2000:]}")
    res = {"wall": max(f[0] for f in found),
           "bg": sum((f[1] - f[2]) / f[0] for f in found) / len(found)}
    if sample_self:
        end = found[0][3]
        res["ncd"] = _window_share(samples, end - steps * found[0][0] / 1000, end)
    return res


def _window_share(samples: list[tuple[float, float]], start: float, end: float) -> float:
    inside = [s for s in samples if start <= s[0] <= end]
    if len(inside) < 2:
        return float("nan")
    (t0, c0), (t1, c1) = inside[0], inside[-1]
    return (c1 - c0) / (t1 - t0) if t1 > t0 else float("nan")


T95 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26, 10: 2.23, 11: 2.20,
       12: 2.18, 13: 2.16, 14: 2.14, 15: 2.13, 19: 2.09, 24: 2.06, 29: 2.05}


def mean_ci(xs: list[float]) -> tuple[float, float, float]:
    """Mean and 95% confidence interval (Student t, two-sided) of ``xs``."""
    import statistics

    m = statistics.fmean(xs)
    if len(xs) < 2:
        return m, float("nan"), float("nan")
    df = len(xs) - 1
    t = T95.get(df) or T95[max(k for k in T95 if k <= df)]
    half = t * statistics.stdev(xs) / len(xs) ** 0.5
    return m, m - half, m + half


def against_target(lo: float, hi: float, target: float = 1.01) -> str:
    if hi < target:
        return "resolved: under 1%"
    if lo > target:
        return "resolved: OVER 1%"
    return "unresolved: the interval spans +1%"


def overhead(ranks: int, steps: int, pairs: int) -> dict[str, list[float]]:
    job = [JOB, "--steps", str(steps), "--step-ms", "10"]
    got: dict[str, list[float]] = {k: [] for k in ("ratio", "wall_a", "wall_b", "bg_delta", "ncd", "pub")}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(pairs):
            arms = {"a": [*torchrun(ranks), *job],
                    "b": [sys.executable, "-m", "ncclDoctor", "run", "--quiet", "--out", f"{tmp}/r{i}", "--",
                          *torchrun(ranks), *job]}
            order = ("a", "b") if i % 2 == 0 else ("b", "a")
            res = {arm: step_figures(arms[arm], steps, sample_self=arm == "b") for arm in order}
            a, b = res["a"], res["b"]
            pub = json.loads(Path(f"{tmp}/r{i}/report.json").read_text())["results"]["live"]["publisher_cpu"]
            got["pub"].append(100 * sum(v["share_of_core"] for v in pub.values()) / max(len(pub), 1))
            got["wall_a"].append(a["wall"])
            got["wall_b"].append(b["wall"])
            got["ratio"].append(b["wall"] / a["wall"])
            got["bg_delta"].append(100 * (b["bg"] - a["bg"]))
            got["ncd"].append(100 * b["ncd"])
            print(f"  pair {i + 1}/{pairs} ({''.join(order).upper()}): wall {a['wall']:.2f} -> {b['wall']:.2f} ms/step "
                  f"({b['wall'] / a['wall']:.3f}); worker background threads {100 * a['bg']:.2f}% -> "
                  f"{100 * b['bg']:.2f}% of a core; publisher thread (self-measured) {got['pub'][-1]:.3f}%; "
                  f"ncclDoctor process {100 * b['ncd']:.2f}%", flush=True)
    return got


PUBLISHER = r"""
import json, os, socket, sys, time
sys.path.insert(0, sys.argv[1])
import torch, torch.distributed as dist
import _ncd_live_watcher as w
rx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); rx.bind(("127.0.0.1", 0))
os.environ.update(RANK="0", LOCAL_RANK="0", WORLD_SIZE="1", MASTER_ADDR="127.0.0.1", MASTER_PORT=sys.argv[2],
                  NCD_LIVE_ADDR="127.0.0.1:%d" % rx.getsockname()[1])
dist.init_process_group("gloo")
for _ in range(2100):
    dist.all_reduce(torch.ones(1))
socks = w._connect()
n = 2000
def timed(fn):
    t0 = time.perf_counter()
    for i in range(n):
        fn(i)
    return (time.perf_counter() - t0) / n * 1e6
groups = w._groups()
print(json.dumps({
    "poll": timed(lambda i: w._send(socks, w._encode(w._snapshot(i, groups)))),  # what the loop does each poll
    "pg_status": timed(lambda i: w._pg_status()),
    "frames": timed(lambda i: w._main_frames()),
    "groups": timed(lambda i: w._groups()),  # every 5 s in the loop, not every poll
}))
"""


def publisher_cost_us() -> dict[str, float]:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    inject = str(ROOT / "ncclDoctor" / "live" / "inject")
    cmd = [sys.executable, "-c", PUBLISHER, inject, str(port)]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        raise SystemExit(f"publisher timing failed: {p.stderr[-2000:]}")
    return json.loads(p.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ranks", type=int, default=2)
    ap.add_argument("--steps", type=int, default=400)
    ap.add_argument("--pairs", type=int, default=8)
    ap.add_argument("--skip-verdict", action="store_true", help="only the overhead and the publisher's cost")
    args = ap.parse_args()
    t0 = time.monotonic()
    if not args.skip_verdict:
        detect_s = stall_to_verdict(args.ranks)
        print(f"stall -> verdict: {detect_s:.1f} s with default settings; gloo watchdog {GLOO_WATCHDOG_S:.0f} s: "
              f"{GLOO_WATCHDOG_S / detect_s:.0f}x sooner", flush=True)
    got = overhead(args.ranks, args.steps, args.pairs)
    m, lo, hi = mean_ci(got["ratio"])
    a, b = (sum(got[k]) / args.pairs for k in ("wall_a", "wall_b"))
    print(f"step-time overhead, 10 ms busy step, {args.ranks} ranks, {args.steps} steps, {args.pairs} ABBA pairs: "
          f"plain torchrun {a:.2f} ms/step, ncclDoctor run {b:.2f} ms/step; ratio {m:.4f} "
          f"(95% CI {lo:.4f}-{hi:.4f}): {against_target(lo, hi)}")
    dm, dlo, dhi = mean_ci(got["bg_delta"])
    nm, nlo, nhi = mean_ci(got["ncd"])
    pm, plo, phi = mean_ci(got["pub"])
    print(f"what watching costs in CPU: worker background threads {dm:+.3f}% of a core per worker "
          f"(95% CI {dlo:+.3f} to {dhi:+.3f}); of which the publisher thread, measured by itself, {pm:.4f}% "
          f"(95% CI {plo:.4f}-{phi:.4f}); the ncclDoctor run process {nm:.3f}% of a core (95% CI {nlo:.3f}-{nhi:.3f})")
    us = publisher_cost_us()
    print(f"publisher: {us['poll']:.0f} us per poll with a full 2000-entry ring (FR counters {us['pg_status']:.0f} us, "
          f"frames {us['frames']:.0f} us; group membership {us['groups']:.0f} us every 5 s); at the default 0.5 s "
          f"poll {100 * us['poll'] / 0.5e6:.3f}% of one core")
    print(f"(benchmark wall time {time.monotonic() - t0:.0f} s)")


if __name__ == "__main__":
    main()
