"""How fast `ncclDoctor run` names a hang, and what watching costs a training step.

    python benchmarks/bench_live.py [--ranks 2] [--steps 600] [--repeats 3]

Two figures from one run, each a ratio against a baseline measured in the same run:

1. stall -> verdict: a 2-rank gloo DDP loop (tests/fixtures/userjobs/ddp_loop.py) whose rank 1
   stops before step 30, under `ncclDoctor run --on-hang kill` with DEFAULT settings (no
   --stall-after). Time from the culprit's "FAULT" timestamp to the verdict's wall time,
   compared with the 1800 s after which torch's gloo watchdog would report (10 min on nccl).
2. step-time overhead: the same loop with a 10 ms busy step and no fault, ms/step under plain
   torchrun vs under `ncclDoctor run` (default 0.5 s poll), alternating, best of --repeats
   each (the machine is shared: the minimum is the least disturbed run).
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


def ms_per_step(cmd: list[str]) -> float:
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=900, env=env())
    vals = [float(x) for x in re.findall(r"\(([\d.]+) ms/step\)", p.stdout)]
    if p.returncode != 0 or not vals:
        raise SystemExit(f"job failed (rc {p.returncode}): {p.stderr[-2000:]}")
    return max(vals)  # the step time of the job is its slowest rank's


def overhead(ranks: int, steps: int, repeats: int) -> tuple[float, float]:
    job = [JOB, "--steps", str(steps), "--step-ms", "10"]
    plain, watched = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(repeats):
            plain.append(ms_per_step([*torchrun(ranks), *job]))
            ncd = [sys.executable, "-m", "ncclDoctor", "run", "--quiet", "--out", f"{tmp}/r{i}", "--"]
            watched.append(ms_per_step([*ncd, *torchrun(ranks), *job]))
    return min(plain), min(watched)


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
t0 = time.perf_counter()
for i in range(n):
    w._send(socks, w._encode(w._snapshot(i, w._groups())))
print((time.perf_counter() - t0) / n * 1e6)
"""


def publisher_cost_us() -> float:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    inject = str(ROOT / "ncclDoctor" / "live" / "inject")
    cmd = [sys.executable, "-c", PUBLISHER, inject, str(port)]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        raise SystemExit(f"publisher timing failed: {p.stderr[-2000:]}")
    return float(p.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ranks", type=int, default=2)
    ap.add_argument("--steps", type=int, default=600)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    t0 = time.monotonic()
    detect_s = stall_to_verdict(args.ranks)
    print(f"stall -> verdict: {detect_s:.1f} s with default settings; gloo watchdog {GLOO_WATCHDOG_S:.0f} s: "
          f"{GLOO_WATCHDOG_S / detect_s:.0f}x sooner")
    plain, watched = overhead(args.ranks, args.steps, args.repeats)
    print(f"step time, 10 ms busy step, {args.ranks} ranks, best of {args.repeats}: plain torchrun {plain:.2f} ms, "
          f"ncclDoctor run {watched:.2f} ms: ratio {watched / plain:.3f} ({100 * (watched / plain - 1):+.1f}%)")
    us = publisher_cost_us()
    print(f"publisher: {us:.0f} us per poll with a full 2000-entry ring; at the default 0.5 s poll "
          f"{100 * us / 0.5e6:.3f}% of one core")
    print(f"(benchmark wall time {time.monotonic() - t0:.0f} s)")


if __name__ == "__main__":
    main()
