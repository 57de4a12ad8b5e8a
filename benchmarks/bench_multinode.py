"""Benchmark: time to verdict and probe rounds of a multi-node check, as N grows.

    python benchmarks/bench_multinode.py                  # localhost mode, slow node by --inject
    python benchmarks/bench_multinode.py --netns          # one namespace per node, slow node by tc tbf (root)

For N = 2, 3, 4 simulated nodes, healthy and with one slow node (the last), it runs one
`ncclDoctor check --nodes N` per node at once and prints: the wall time until every node
has its verdict, the point-to-point rounds and pairs measured (of N(N-1)/2), the time
the localization itself took, and what was named. Then the growth against N = 2 in the
same run, and the rounds the same algorithm (``probes.localize``) needs for larger
simulated clusters -- the claim to check: a constant number of rounds when healthy (at
most 3), one or two more with one slow node, never all pairs.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from probes import localize  # noqa: E402

FAST = ["--nproc-per-node", "1", "-b", "4K", "-e", "16K", "-w", "1", "-n", "3",
        "--structure-bytes", "256K", "--timeout", "60"]


def env_for(extra: dict[str, str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NCCL_", "GLOO_", "TORCH_NCCL_"))}
    env["PYTHONPATH"] = str(ROOT)
    env.update(extra)
    return env


def run(n: int, slow: bool, netns: bool, tmp: Path) -> dict:
    port = random.randint(20000, 40000) // 2 * 2
    cluster = None
    if netns:
        sys.path.insert(0, str(ROOT))
        from tests.netns import Cluster

        cluster = Cluster(n).__enter__()
        addr = cluster.addr
    else:
        addr = lambda i: f"127.0.0.{i + 2}"  # noqa: E731
    try:
        procs, t0 = [], time.perf_counter()
        for i in range(n):
            argv = [sys.executable, "-m", "ncclDoctor", "check", "--nodes", str(n),
                    "--rdzv-endpoint", f"{addr(0)}:{port}",
                    "--rdzv-id", f"b{port}", "--out", str(tmp / f"n{n}{slow}{i}"), "--json", *FAST]
            if netns:
                if slow and i == 0:
                    cluster.throttle(n - 1, "20mbit")
                procs.append(cluster.popen(i, argv, env_for({"GLOO_SOCKET_IFNAME": "eth0"}),
                                           stdout=subprocess.PIPE, stderr=subprocess.PIPE))
            else:
                extra = ["--local-addr", addr(i)] + (["--inject", f"slow:{n - 1}:30ms"] if slow else [])
                procs.append(subprocess.Popen(argv + extra, env=env_for({}),
                                             stdout=subprocess.PIPE, stderr=subprocess.PIPE))
        for p in procs:
            p.communicate(timeout=600)
        wall = time.perf_counter() - t0
    finally:
        if cluster:
            cluster.teardown()
    reps = [json.loads((tmp / f"n{n}{slow}{i}" / "report.json").read_text()) for i in range(n)]
    rep = next(r for r in reps if r["results"].get("multinode", {}).get("is_reporting_node"))
    p2p = rep["results"].get("structure", {}).get("p2p", {})
    return {"n": n, "slow": slow, "wall_s": wall, "rounds": p2p.get("rounds"), "pairs": p2p.get("pairs_measured"),
            "all_pairs": p2p.get("all_pairs"), "p2p_s": p2p.get("elapsed_s"), "verdict": rep["verdict"],
            "named": sorted({n for f in rep["findings"] if f["code"].startswith("BW2") for n in f["nodes"]})}


def simulated_rounds(n: int, slow_nodes: set[int]) -> tuple[int, int]:
    def measure(rnd):
        return {p: 0.01 if set(p) & slow_nodes else 1.0 for p in rnd}

    v = localize.localize(n, measure)
    return v.rounds, v.pairs_measured


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--netns", action="store_true",
                    help="namespaces + tc tbf (needs root) instead of localhost + --inject")
    ap.add_argument("--nodes", default="2,3,4")
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as d:
        for slow in (False, True):
            for n in map(int, args.nodes.split(",")):
                rows.append(run(n, slow, args.netns, Path(d)))
    mode = "netns + tc tbf 20mbit" if args.netns else "localhost + --inject slow:30ms"
    print(f"# multi-node check, {mode}; 1 rank per node, 256 KiB p2p messages")
    print(f"# {'nodes':>5} {'case':>8} {'wall (s)':>9} {'x N=2':>6} "
          f"{'rounds':>6} {'pairs':>9} {'p2p (s)':>8}  verdict  named")
    for r in rows:
        base = next(x for x in rows if x["slow"] == r["slow"] and x["n"] == rows[0]["n"])
        print(f"  {r['n']:>5} {'slow' if r['slow'] else 'healthy':>8} {r['wall_s']:>9.1f} "
              f"{r['wall_s'] / base['wall_s']:>6.2f} "
              f"{r['rounds']!s:>6} {str(r['pairs']) + '/' + str(r['all_pairs']):>9} {r['p2p_s'] or 0:>8.2f}  "
              f"{r['verdict']:<7}  {', '.join(r['named']) or '-'}")
    print("# rounds the same algorithm needs for larger clusters (simulated): "
          "N, healthy, one slow, half slow side by side; all pairs")
    for n in (8, 16, 32, 64, 128):
        h, s, w = (simulated_rounds(n, set()), simulated_rounds(n, {n // 2}),
                   simulated_rounds(n, set(range(1, n // 2 + 1))))
        print(f"  {n:>5}  healthy {h[0]} rounds/{h[1]} pairs   one slow {s[0]}/{s[1]}   "
              f"half slow {w[0]}/{w[1]}   all pairs {n * (n - 1) // 2}")


if __name__ == "__main__":
    main()
