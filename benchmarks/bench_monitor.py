"""Monitor overhead at ~10 ms steps: the same loop with and without ncclDoctor.monitor.

    PYTHONPATH=. python benchmarks/bench_monitor.py [--steps 300] [--step-ms 10] [--rounds 16]
                                                    [--compare-with OTHER/monitor.py]

A step is a 10 ms busy wait (fixed length, so scheduling noise does not scale with it).
Figures, all measured in this run:

1. A/B: rounds of plain and monitored loops in ABBA order (plain, monitored, monitored,
   plain, ...); overhead = median monitored time / median plain time - 1, with a
   bootstrap 90% interval for that ratio and the median of per-pair ratios (each
   monitored round against the plain round next to it). Target (issue 15): < 0.5 %.
2. Direct: the monitor's own cost per step (a loop with no work), in microseconds, and
   that cost as a share of a 10 ms step: what the A/B figure should converge to when
   the machine is quiet enough to resolve it. Printed twice: wall time, and this
   thread's CPU time (``time.thread_time``), which leaves out the time the thread was
   not running (on a loaded host, most of the wall-time figure).
3. ``--compare-with FILE``: another version of ``monitor.py`` (e.g. from ``git show
   REV:ncclDoctor/monitor.py``) timed the same way, in the same process, interleaved.

The load average at the start and the end is printed.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import tempfile
import time
from pathlib import Path

import torch

from ncclDoctor.monitor import Monitor


def spin(seconds: float) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def plain(batches, step_s: float, folder: str, cls=None) -> float:
    t0 = time.perf_counter()
    for _ in batches:
        spin(step_s)
    return time.perf_counter() - t0


SETUP: list[float] = []


def direct_cost(batches, folder: str, cls=Monitor) -> tuple[float, float]:
    """(wall, thread CPU) seconds per step of a monitored loop that does nothing else."""
    mon = cls(folder, rank=0, world_size=1)
    w0, c0 = time.perf_counter(), time.thread_time()
    for _ in mon.iter(batches, epoch=0):
        pass
    mon.close()
    return (time.perf_counter() - w0) / len(batches), (time.thread_time() - c0) / len(batches)


def monitored(batches, step_s: float, folder: str, cls=Monitor) -> float:
    """The loop with the monitor, close() included; Monitor() itself (once per job:
    opening the file, finding the node address) is timed apart into SETUP."""
    t = time.perf_counter()
    mon = cls(folder, rank=0, world_size=1)
    t0 = time.perf_counter()
    SETUP.append(t0 - t)
    for _ in mon.iter(batches, epoch=0):
        spin(step_s)
    mon.close()
    return time.perf_counter() - t0


def interval(a: list[float], b: list[float], n: int = 2000) -> tuple[float, float]:
    """5th and 95th percentile of median(a)/median(b) over bootstrap resamples."""
    rng, med = random.Random(0), statistics.median
    r = sorted(med(rng.choices(a, k=len(a))) / med(rng.choices(b, k=len(b))) for _ in range(n))
    return r[int(0.05 * n)], r[int(0.95 * n) - 1]


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3]) if Path("/proc/loadavg").exists() else "?"


def other_monitor(path: str):
    spec = importlib.util.spec_from_file_location("other_monitor", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.Monitor


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--step-ms", type=float, default=10.0)
    ap.add_argument("--rounds", type=int, default=16)
    ap.add_argument("--compare-with", default=None, help="another monitor.py, timed the same way")
    a = ap.parse_args()
    batches = [(torch.zeros(32, 1, 28, 28), torch.zeros(32, dtype=torch.long))] * a.steps
    step_s = a.step_ms / 1000
    arms = {"plain": (plain, None), "monitored": (monitored, Monitor)}
    if a.compare_with:
        arms["other"] = (monitored, other_monitor(a.compare_with))
    times: dict[str, list[float]] = {k: [] for k in arms}
    direct: dict[str, list[tuple[float, float]]] = {k: [] for k in arms if k != "plain"}
    start_load = load()
    tiny = [(torch.zeros(32), torch.zeros(32))] * 5000
    with tempfile.TemporaryDirectory() as d:
        for i in range(a.rounds):
            for name in (list(arms) if i % 2 == 0 else list(arms)[::-1]):  # ABBA
                fn, cls = arms[name]
                times[name].append(fn(batches, step_s, f"{d}/{name}{i}", cls))
        for i in range(5):
            for name in direct:
                direct[name].append(direct_cost(tiny, f"{d}/direct-{name}{i}", arms[name][1]))
    med = statistics.median
    b = med(times["plain"])
    print(f"steps per round {a.steps}, step {a.step_ms:g} ms, rounds {a.rounds} (ABBA)")
    print(f"plain loop      median {b:.4f} s  ({1000 * b / a.steps:.3f} ms/step)")
    for name in direct:
        m = med(times[name])
        lo, hi = interval(times[name], times["plain"])
        pairs = med(x / y for x, y in zip(times[name], times["plain"]))
        us = 1e6 * med(w for w, _ in direct[name])
        cpu_us = 1e6 * med(c for _, c in direct[name])
        label = "monitored" if name == "monitored" else f"other ({a.compare_with})"
        print(f"{label}: median {m:.4f} s  ({1000 * m / a.steps:.3f} ms/step)")
        print(f"  A/B overhead  {100 * (m / b - 1):+.2f} %  (90% interval {100 * (lo - 1):+.2f} to "
              f"{100 * (hi - 1):+.2f} %; median per-pair {100 * (pairs - 1):+.2f} %)  (target < 0.5 %)")
        print(f"  direct cost   {us:.1f} us/step wall = {100 * us / (1000 * a.step_ms):.3f} % of a {a.step_ms:g} ms "
              f"step; {cpu_us:.1f} us/step CPU = {100 * cpu_us / (1000 * a.step_ms):.3f} %")
    print(f"Monitor() setup {1000 * med(SETUP):.1f} ms once per job (not per step)")
    print(f"load average: {start_load} at the start, {load()} at the end")


if __name__ == "__main__":
    main()
