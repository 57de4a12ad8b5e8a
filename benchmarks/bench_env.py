"""What the env lint costs, against baselines measured in the same run.

    python benchmarks/bench_env.py --repeats 3 --ranks 1024

1. ``ncclDoctor env --json`` against ``ncclDoctor version`` (the same interpreter, torch
   import and CLI start-up, no lint): ratio of whole-command wall times, alternating.
   Target: <= 1.5x.
2. ``lint_ranks`` over N ranks that all carry the seed blog's 22 settings against N
   plain ``lint`` calls (the merge and the cross-rank diff are the difference): ratio,
   and milliseconds per rank, which is what ``check`` adds per rank. Target: ratio
   <= 1.5x and < 2 ms per rank.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SEED = {  # tests/test_env_lint.py::test_seed_blog_recommendations_get_the_expert_findings
    "NCCL_TIMEOUT": "1800000", "NCCL_IB_TIMEOUT": "22", "NCCL_IB_RETRY_CNT": "13",
    "NCCL_IB_PCI_RELAXED_ORDERING": "1", "NCCL_PXN_DISABLE": "1", "NCCL_CHECKS_DISABLE": "1",
    "NCCL_CHECK_POINTERS": "1", "NCCL_MAX_NRINGS": "8", "NCCL_MIN_NRINGS": "4",
    "NCCL_BUFFLE_SIZE": "4194304", "NCCL_CHUNK_SIZE": "524288", "NCCL_IB_HCA": "mlx5",
    "NCCL_IB_DISABLE": "1", "NCCL_P2P_DISABLE": "1", "NCCL_P2P_LEVEL": "NVL", "NCCL_ALGO": "Ring",
    "NCCL_DEBUG": "INFO", "NCCL_DEBUG_FILE": "/tmp/nccl_debug.log", "TORCH_NCCL_BLOCKING_WAIT": "1",
    "TORCH_NCCL_ASYNC_ERROR_HANDLING": "1", "NCCL_BLOCKING_WAIT": "1", "NCCL_ASYNC_ERROR_HANDLING": "1",
}


def wall(argv: list[str], env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(argv, env=env, capture_output=True, timeout=300, check=False)
    return time.perf_counter() - t0


def bench_cli(repeats: int) -> None:
    env = {**os.environ, **SEED, "PYTHONPATH": str(ROOT)}
    py = [sys.executable, "-m", "ncclDoctor"]
    env_t, base_t = [], []
    for _ in range(repeats):
        base_t.append(wall(py + ["version"], env))
        env_t.append(wall(py + ["env", "--json"], env))
    b, e = statistics.median(base_t), statistics.median(env_t)
    print(f"cli   ncclDoctor version {b:.2f} s   ncclDoctor env --json {e:.2f} s   ratio {e / b:.2f}x (target <= 1.5x)")


def bench_ranks(repeats: int, ranks: int) -> None:
    from ncclDoctor.rules.env import lint, lint_ranks

    envs = {r: dict(SEED) for r in range(ranks)}
    label = lambda r: f"10.0.{r // 8 // 256}.{r // 8 % 256} (node{r // 8})"  # noqa: E731
    plain, merged = [], []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for r in range(ranks):
            lint(envs[r], where=label(r))
        plain.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        found = lint_ranks(envs, label)
        merged.append(time.perf_counter() - t0)
    p, m = statistics.median(plain), statistics.median(merged)
    print(f"ranks {ranks} x {len(SEED)} settings: plain lint {p:.3f} s   lint_ranks {m:.3f} s ({len(found)} findings)  "
          f" ratio {m / p:.2f}x (target <= 1.5x)   {m / ranks * 1e3:.2f} ms per rank (target < 2)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--ranks", type=int, default=1024)
    a = ap.parse_args()
    bench_ranks(a.repeats, a.ranks)
    bench_cli(a.repeats)


if __name__ == "__main__":
    main()
