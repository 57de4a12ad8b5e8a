"""Adaptive search against the full grid, in a loader-bound setting, on this machine.

    PYTHONPATH=. python benchmarks/bench_sweep.py [--workers 0,1,2,3,4,5,6,7,8] [--sample-cost-ms 3]

Both sweeps run the reference trainer (2 ranks, gloo) with an I/O-like per-sample cost
(``--sample-cost-kind io``: a sleep, as slow storage; on 2 shared cores CPU-bound
decode cannot show workers scaling). Printed, from this run only:

- each sweep's wall time, configurations run, pick and its throughput;
- adaptive pick's throughput / the grid's best (target >= 95 %), measured in the grid
  run (the same configuration in the adaptive run is printed too: run-to-run noise);
- adaptive wall time / grid wall time (target <= 50 %).
"""

from __future__ import annotations

import argparse
import tempfile

from ncclDoctor.sweep import SweepOptions, run_sweep


def sweep(out: str, grid: bool, a: argparse.Namespace):
    opts = SweepOptions(nproc_per_node=2, workers=a.workers, grid=grid, sample_cost_ms=a.sample_cost_ms, sample_cost_kind="io",
                        max_minutes=a.max_minutes, out=out, windows=a.windows, window_steps=a.window_steps)
    rep = run_sweep(opts, argv=[])
    sw = rep.results["sweep"]
    return sw, {c["label"]: c["samples_per_s"] for c in sw["configs"] if c["status"] == "ok"}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--workers", default="0,1,2,3,4,5,6,7,8")
    ap.add_argument("--sample-cost-ms", type=float, default=3.0)
    ap.add_argument("--windows", type=int, default=3)
    ap.add_argument("--window-steps", type=int, default=10)
    ap.add_argument("--max-minutes", type=float, default=15.0)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        g, g_tp = sweep(f"{d}/grid", True, a)
        ad, ad_tp = sweep(f"{d}/adaptive", False, a)
    for name, sw, tp in (("grid", g, g_tp), ("adaptive", ad, ad_tp)):
        rec = sw["recommendation"] or {}
        print(f"{name:9} wall {sw['wall_s']:7.1f} s  runs {len(sw['configs']):2}  pick {rec.get('label')}  "
              f"({rec.get('samples_per_s', 0):.0f} samples/s)  measured: " + ", ".join(f"{k}={v:.0f}" for k, v in tp.items()))
    best_label = max(g_tp, key=g_tp.get)
    pick = (ad["recommendation"] or {}).get("label")
    in_grid = g_tp.get(pick, 0.0)
    print(f"prediction (adaptive): {ad['prediction']}")
    print(f"grid best {best_label} = {g_tp[best_label]:.0f} samples/s; adaptive pick {pick} = {in_grid:.0f} samples/s in the grid run "
          f"({ad_tp.get(pick, 0):.0f} in its own run)")
    print(f"adaptive pick / grid best : {100 * in_grid / g_tp[best_label]:.1f} %   (target >= 95 %)")
    print(f"adaptive wall / grid wall : {100 * ad['wall_s'] / g['wall_s']:.1f} %   (target <= 50 %)")


if __name__ == "__main__":
    main()
