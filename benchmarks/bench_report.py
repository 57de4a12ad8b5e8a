"""What the report views cost: render a run directory's report as JSON (the baseline),
Markdown and HTML, and print each one's time and its ratio to JSON's, plus the one-off
cost of the first HTML render (importing matplotlib) that every command pays once.

    python benchmarks/bench_report.py RUN_DIR [--repeats 5]

Run it on a run directory from `ncclDoctor check --out RUN_DIR`.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def first_html_s(run_dir: str) -> float:
    """A fresh interpreter, so the import of matplotlib is counted as a user's run pays it."""
    code = (
        "import time; from ncclDoctor.report.model import Report; from ncclDoctor.report.write import render; r = "
        f"Report.load({run_dir!r}); "
        "t = time.perf_counter(); render(r, 'html'); print(time.perf_counter() - t)"
    )
    root = str(Path(__file__).resolve().parent.parent)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=root,
                         check=True)
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("run_dir")
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    from ncclDoctor.report.model import Report
    from ncclDoctor.report.write import render

    rep = Report.load(args.run_dir)
    render(rep, "html")  # warm: imports done
    times = {}
    for fmt in ("json", "markdown", "html"):
        samples = []
        for _ in range(args.repeats):
            t = time.perf_counter()
            text = render(rep, fmt)
            samples.append(time.perf_counter() - t)
        times[fmt] = (statistics.median(samples), len(text.encode()))
    base = times["json"][0]
    print(f"{'view':10} {'median (ms)':>12} {'x json':>8} {'size (KiB)':>11}")
    for fmt, (t, size) in times.items():
        print(f"{fmt:10} {t * 1e3:12.2f} {t / base:8.1f} {size / 1024:11.1f}")
    first = statistics.median(first_html_s(args.run_dir) for _ in range(3))
    print(f"first HTML render in a fresh process (includes importing matplotlib): {first * 1e3:.0f} ms "
          f"= {first / times['html'][0]:.1f}x a warm HTML render")


if __name__ == "__main__":
    main()
