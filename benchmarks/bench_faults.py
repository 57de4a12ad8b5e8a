"""Time to verdict for each injected fault (the README's fault table).

    python benchmarks/bench_faults.py [--nproc 2] [--timeout 10]

For hangs the time runs from the start of the phase the culprit never reached to the
job stopped with evidence gathered (target: deadline + 10 s). For crashes it runs from
the culprit's last phase marker to the job stopped.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FAULTS = ["hang:1", "hang:1:smoke", "crash:1", "exit:1", "mismatch:1", "skip:1", "slow:1:50ms"]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--nproc", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=10)
    args = ap.parse_args()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    print(f"# {args.nproc} gloo ranks, --timeout {args.timeout:g} s per phase")
    print(f"{'fault':<14} {'exit':>4} {'finding':<8} {'culprit':<8} {'verdict after (s)':>18} {'command wall (s)':>17}")
    with tempfile.TemporaryDirectory() as tmp:
        for spec in FAULTS:
            out = Path(tmp) / spec.replace(":", "_")
            t0 = time.perf_counter()
            p = subprocess.run([sys.executable, "-m", "ncclDoctor", "check", "--out", str(out), "--nproc-per-node",
                                str(args.nproc),
                                "-e", "64K", "--timeout", str(args.timeout), "--inject", spec], capture_output=True,
                                text=True, env=env, timeout=600)
            wall = time.perf_counter() - t0
            rep = json.loads((out / "report.json").read_text())
            main_f = next((f for f in rep["findings"] if f["code"].startswith(("RUN", "BW"))), None)
            after = rep["results"].get("run", {}).get("verdict_after_s")
            print(f"{spec:<14} {p.returncode:>4} {main_f['code'] if main_f else '-':<8} "
                  f"{str(main_f['ranks'] if main_f else '-'):<8} "
                  f"{after if after is not None else float('nan'):>18.1f} {wall:>17.1f}")


if __name__ == "__main__":
    main()
