"""Monitor overhead at ~10 ms steps: the same loop with and without ncclDoctor.monitor.

    PYTHONPATH=. python benchmarks/bench_monitor.py [--steps 300] [--step-ms 10] [--rounds 5]

A step is a 10 ms busy wait (fixed length, so scheduling noise does not scale with it).
Two figures, both measured in this run:

1. A/B: rounds of plain and monitored loops, interleaved; overhead = median monitored
   time / median plain time - 1. Target: < 2 %.
2. Direct: the monitor's own cost per step (a loop with no work), in microseconds, and
   that cost as a share of a 10 ms step.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time

import torch

from ncclDoctor.monitor import Monitor


def spin(seconds: float) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def plain(batches, step_s: float) -> float:
    t0 = time.perf_counter()
    for _ in batches:
        spin(step_s)
    return time.perf_counter() - t0


SETUP: list[float] = []


def monitored(batches, step_s: float, folder: str) -> float:
    """The loop with the monitor, close() included; Monitor() itself (once per job:
    opening the file, finding the node address) is timed apart into SETUP."""
    t = time.perf_counter()
    mon = Monitor(folder, rank=0, world_size=1)
    t0 = time.perf_counter()
    SETUP.append(t0 - t)
    for _ in mon.iter(batches, epoch=0):
        spin(step_s)
    mon.close()
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--step-ms", type=float, default=10.0)
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    batches = [(torch.zeros(32, 1, 28, 28), torch.zeros(32, dtype=torch.long))] * a.steps
    step_s = a.step_ms / 1000
    base, mon = [], []
    with tempfile.TemporaryDirectory() as d:
        for i in range(a.rounds):
            base.append(plain(batches, step_s))
            mon.append(monitored(batches, step_s, f"{d}/r{i}"))
        direct = [monitored([(torch.zeros(32), torch.zeros(32))] * 5000, 0.0,
                            f"{d}/direct{i}") / 5000 for i in range(3)]
    b, m = statistics.median(base), statistics.median(mon)
    per_step_us = 1e6 * statistics.median(direct)
    print(f"steps per round {a.steps}, step {a.step_ms:g} ms, rounds {a.rounds}")
    print(f"plain loop      median {b:.4f} s  ({1000 * b / a.steps:.3f} ms/step)")
    print(f"monitored loop  median {m:.4f} s  ({1000 * m / a.steps:.3f} ms/step)")
    print(f"A/B overhead    {100 * (m / b - 1):+.2f} %   (target < 2 %)")
    print(f"Monitor() setup {1000 * statistics.median(SETUP):.1f} ms once per job (not per step)")
    print(f"direct cost     {per_step_us:.1f} us/step = {100 * per_step_us / (1000 * a.step_ms):.3f} % of a "
          f"{a.step_ms:g} ms step")


if __name__ == "__main__":
    main()
