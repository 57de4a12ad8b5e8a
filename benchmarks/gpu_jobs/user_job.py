"""A tiny user training loop that knows nothing of ncclDoctor (the job run under ``ncclDoctor run``).

    torchrun --standalone --nproc-per-node 1 benchmarks/gpu_jobs/user_job.py [--steps 200] [--step-ms 10]
             [--stall-at STEP --stall-s SECONDS] [--backend nccl|gloo]

Each step: ``--step-ms`` of work (a GPU spin with nccl, a CPU spin with gloo), one
all_reduce of 256 KiB, a device synchronize. At step ``--stall-at`` the GPU spins for
``--stall-s`` *before* the all_reduce: a GPU-side stall, so the rank sits inside the
collective from the host's point of view. Rank 0 prints one JSON line with the mean and
median step time (the stall step left out).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time

import torch
import torch.distributed as dist


def spinner(device):
    if device.type != "cuda":
        def cpu(ms: float) -> None:
            end = time.perf_counter() + ms / 1000.0
            while time.perf_counter() < end:
                pass
        return cpu
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    for cycles in (50_000_000,) * 5 + (20_000_000,):  # warm-up first: _sleep counts SM cycles, the clock ramps
        a.record()
        torch.cuda._sleep(cycles)
        b.record()
        b.synchronize()
    per_ms = 20_000_000 / a.elapsed_time(b)
    return lambda ms: torch.cuda._sleep(int(per_ms * ms))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--step-ms", type=float, default=10.0)
    ap.add_argument("--stall-at", type=int, default=-1)
    ap.add_argument("--stall-s", type=float, default=0.0)
    ap.add_argument("--backend", default="nccl", choices=["nccl", "gloo"])
    args = ap.parse_args()
    device = torch.device("cpu")
    if args.backend == "nccl":
        device = torch.device("cuda", int(os.environ.get("LOCAL_RANK", 0)))
        torch.cuda.set_device(device)
    dist.init_process_group(args.backend)
    spin, t = spinner(device), torch.ones(1 << 16, device=device)
    sync = (lambda: torch.cuda.synchronize(device)) if device.type == "cuda" else (lambda: None)
    times = []
    for step in range(args.steps):
        t0 = time.perf_counter()
        spin(args.step_ms)
        if step == args.stall_at:
            spin(args.stall_s * 1000.0)
        dist.all_reduce(t)
        sync()
        if step != args.stall_at:
            times.append((time.perf_counter() - t0) * 1000.0)
    if dist.get_rank() == 0:
        print(json.dumps({"steps": args.steps, "mean_step_ms": statistics.fmean(times[5:]),
                          "median_step_ms": statistics.median(times[5:])}), flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
