"""Benchmark: the check's busbw for every collective against a bare torchrun loop of it, in one run.

    python benchmarks/bench_collectives.py [--repeats 3] [--nproc 2] [--iters 20]

For each collective of ``probes.collectives`` and each size, busbw from ``ncclDoctor check
--op all`` (the probe harness: fill, warm-up, barrier, timed loop, exact check) and from
``benchmarks/bare_collectives.py`` (the same loop in plain torch), both through nccl-tests'
formulas (``probes.collectives``: algbw bytes and bus factor). Runs alternate ABBA so
drift in the machine's speed falls on both sides. Printed per collective: the median
ratio check/bare over runs at sizes >= 1 MiB, and the bare loop's own run-to-run spread
(its first half of runs against its second half), which is how sharply this machine can
tell. Target: within +-10% where the bare loop's own spread is within +-10%.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from probes.collectives import REGISTRY  # noqa: E402

SIZES = [1 << 16, 1 << 18, 1 << 20, 1 << 22]  # check -b 64K -e 4M -f 4
WARMUP = 2


def run(cmd: list[str]) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900, cwd=ROOT)
    if p.returncode != 0:
        sys.exit(f"command failed ({p.returncode}): {' '.join(cmd)}\n{p.stderr[-2000:]}")
    return p.stdout


def bare(nproc: int, iters: int) -> dict[str, dict[int, float]]:
    out = run(
        [
            sys.executable,
            "-m",
            "torch.distributed.run",
            "--standalone",
            f"--nproc-per-node={nproc}",
            str(ROOT / "benchmarks" / "bare_collectives.py"),
            ",".join(REGISTRY),
            ",".join(map(str, SIZES)),
            str(WARMUP),
            str(iters),
        ]
    )
    data = json.loads(out.strip().splitlines()[-1])
    n, res = data["world"], {}
    for name, mod in REGISTRY.items():
        res[name] = {}
        for i, _ in enumerate(data["sizes"]):
            count = data["ranks"][0][name][i][0]
            t = statistics.fmean(r[name][i][1] for r in data["ranks"]) * 1e-6
            size = max(mod.counts(data["sizes"][i], 4, n)[:2]) * 4
            res[name][size] = mod.algbw_bytes(count, 4, n) / t / 1e9 * mod.bus_factor(n)
    return res


def check(nproc: int, iters: int, out: str) -> dict[str, dict[int, float]]:
    stdout = run(
        [
            sys.executable,
            "-m",
            "ncclDoctor",
            "check",
            "--json",
            "--out",
            out,
            f"--nproc-per-node={nproc}",
            "--op",
            "all",
            "-b",
            str(SIZES[0]),
            "-e",
            str(SIZES[-1]),
            "-f",
            "4",
            "-w",
            str(WARMUP),
            "-n",
            str(iters),
        ]
    )
    rep = json.loads(stdout)
    return {name: {r["size"]: r["busbw_gbps"] for r in t["rows"]} for name, t in rep["results"]["collectives"].items()}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=3, help="pairs of runs (bare + check)")
    ap.add_argument("--nproc", type=int, default=2)
    ap.add_argument("--iters", type=int, default=20)
    args = ap.parse_args()
    runs: dict[str, list] = {"bare": [], "check": []}
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.repeats):
            for side in ("bare", "check") if i % 2 == 0 else ("check", "bare"):
                runs[side].append(
                    bare(args.nproc, args.iters) if side == "bare" else check(args.nproc, args.iters, f"{tmp}/r{i}")
                )
    med = statistics.median
    print(
        f"# {args.nproc} gloo ranks, warm-up {WARMUP}, iters {args.iters}, {args.repeats} runs each (ABBA), "
        f"{time.monotonic() - t0:.0f} s"
    )
    print(
        f"{'collective':>15} {'size (B)':>10} {'bare busbw':>11} {'check busbw':>12} {'ratio':>7} {'bare spread':>12}"
    )
    verdicts: dict[str, list] = {}
    for name in REGISTRY:
        for size in sorted(runs["bare"][0][name]):
            b = [r[name][size] for r in runs["bare"]]
            c = [r[name].get(size, float("nan")) for r in runs["check"]]
            half = len(b) // 2
            spread = med(b[:half]) / med(b[half:]) if half else float("nan")
            print(f"{name:>15} {size:>10} {med(b):>11.4f} {med(c):>12.4f} {med(c) / med(b):>7.3f} {spread:>12.3f}")
            if size >= 1 << 20:
                verdicts.setdefault(name, []).append((med(c) / med(b), abs(spread - 1) <= 0.10))
    for name, vs in verdicts.items():
        judged = [r for r, ok in vs if ok]
        if not judged:
            print(f"{name:>15}: not judged (the bare loop's own spread at >= 1 MiB exceeds +-10% on this machine)")
        else:
            r = med(judged)
            print(
                f"{name:>15}: median ratio {r:.3f} at >= 1 MiB -> {'within' if abs(r - 1) <= 0.10 else 'OUTSIDE'} +-10%"
            )


if __name__ == "__main__":
    main()
