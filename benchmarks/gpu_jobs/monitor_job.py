"""``ncclDoctor.monitor``'s CUDA-event times against a known GPU workload.

    python benchmarks/gpu_jobs/monitor_job.py RUN_DIR [--steps 30] [--gpu-ms 20]

One process, no torchrun. Each step of the loop spins the GPU for ``--gpu-ms`` with
``torch.cuda._sleep`` (cycles calibrated first with CUDA events, outside the monitor).
The monitor's ``gpu_s`` per step should then be close to that time; the job prints one
JSON line with the calibration, the monitor's per-step ``gpu_s`` and ``step_s``. On a
machine without CUDA the loop does CPU sleeps and the records must have no ``gpu_s``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path


def calibrate(torch, target_ms: float) -> tuple[int, float]:
    """Cycles of ``torch.cuda._sleep`` that take about ``target_ms``, and the measured ms."""
    def timed(cycles: int) -> float:
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        torch.cuda._sleep(cycles)
        b.record()
        b.synchronize()
        return a.elapsed_time(b)

    for _ in range(5):  # warm-up: _sleep counts SM cycles, and an idle H200 clocks at 345 MHz, not 1980
        timed(50_000_000)
    per_ms = 10_000_000 / timed(10_000_000)
    cycles = int(per_ms * target_ms)
    return cycles, statistics.median(timed(cycles) for _ in range(5))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("run_dir")
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--gpu-ms", type=float, default=20.0)
    args = ap.parse_args()
    import torch

    from ncclDoctor.monitor import Monitor

    cuda = torch.cuda.is_available()
    cycles, direct_ms = 0, None
    if cuda:
        torch.cuda.init()
        cycles, direct_ms = calibrate(torch, args.gpu_ms)
    mon = Monitor(args.run_dir, warmup_steps=3)
    batches = [torch.zeros(8, 4) for _ in range(args.steps)]
    for _batch in mon.iter(batches, epoch=0):
        if cuda:
            torch.cuda._sleep(cycles)
        else:
            time.sleep(args.gpu_ms / 1000.0)
    mon.close()
    lines = (Path(args.run_dir) / "monitor" / "rank-0.jsonl").read_text().splitlines()
    steps = [r for r in map(json.loads, lines) if r.get("kind") == "step"]
    print(json.dumps({
        "cuda": cuda, "monitor_cuda": json.loads(lines[0]).get("cuda"), "cycles": cycles, "direct_ms": direct_ms,
        "steps": len(steps), "gpu_ms": [None if "gpu_s" not in r else r["gpu_s"] * 1e3 for r in steps],
        "step_ms": [r["step_s"] * 1e3 for r in steps], "warmup": [r["warmup"] for r in steps],
    }))


if __name__ == "__main__":
    main()
