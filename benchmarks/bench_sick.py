"""Benchmark: time to verdict of `ncclDoctor check --nodes N` on a sick cluster, default options.

    python benchmarks/bench_sick.py                        # N = 2, 3, 4; every case (root: namespaces)
    python benchmarks/bench_sick.py --nodes 4 --cases healthy,slow

One network namespace per node on a bridge, one rank per node, GLOO_SOCKET_IFNAME=eth0,
and only the options a multi-node check needs (--nodes, --rdzv-endpoint, --rdzv-id,
--nproc-per-node 1, --out): the check's DEFAULTS otherwise (issue 15). Cases, the last
node being the sick one:

=========  =========================================  ============================  ======
case       how                                        verdict checked               target
=========  =========================================  ============================  ======
healthy    nothing                                    every node exit 0, no BW2xx   45 s
                                                      or RUN008, the sweep ran
slow       tc tbf 20mbit on the last node's link      BW201 names it (N >= 3; at    60 s
                                                      N = 2 nothing to compare:
                                                      RUN008), exit 1, no RUN003
hung       --inject hang:N-1 (stops before the sweep) RUN003 names rank N-1, exit 4 45 s *
missing    GLOO_SOCKET_IFNAME=nosuch0 on the last     every node exit 3; NET001     15 s
=========  =========================================  ============================  ======

``*`` the hung target is from the phase's start to the verdict (``verdict_after_s``);
the others are wall time from starting the N processes to the last one's exit. Prints
each run's ratio to the healthy run of the same N in the same invocation, and the host's
1-minute load average when the run ended (the machine may be shared: a miss under load
is the load's as much as the tool's) and the CPU seconds the run's processes used (what
the run costs whatever else the host does; N nodes on this host share its cores).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TARGET_S = {"healthy": 45, "slow": 60, "hung": 45, "missing": 15}
CASES = tuple(TARGET_S)


def env_for(extra: dict[str, str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NCCL_", "GLOO_", "TORCH_NCCL_"))}
    env["PYTHONPATH"] = str(ROOT)
    env.update({"GLOO_SOCKET_IFNAME": "eth0", **extra})
    return env


def run(n: int, case: str, tmp: Path) -> dict:
    from tests.netns import Cluster

    port = random.randint(20000, 40000) // 2 * 2
    out = tmp / f"{case}{n}"
    cpu0 = _children_cpu_s()
    with Cluster(n) as c:
        if case == "slow":
            c.throttle(n - 1, "20mbit")
        procs, t0 = [], time.perf_counter()
        for i in range(n):
            argv = [sys.executable, "-m", "ncclDoctor", "check", "--nodes", str(n), "--rdzv-endpoint",
                    f"{c.addr(0)}:{port}", "--rdzv-id", f"s{port}", "--nproc-per-node", "1", "--out", str(out / str(i))]
            argv += ["--inject", f"hang:{n - 1}"] if case == "hung" else []
            env = env_for({"GLOO_SOCKET_IFNAME": "nosuch0"} if case == "missing" and i == n - 1 else {})
            procs.append(c.popen(i, argv, env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        codes = [p.wait(timeout=600) for p in procs]
        wall = time.perf_counter() - t0
    reps = [json.loads((out / str(i) / "report.json").read_text()) for i in range(n)]
    rep = next((r for r in reps if r["results"].get("multinode", {}).get("is_reporting_node")), reps[0])
    return {"n": n, "case": case, "wall_s": wall, "codes": codes, "report": rep, "last": c.addr(n - 1),
            "cpu_s": _children_cpu_s() - cpu0}


def _children_cpu_s() -> float:
    """CPU seconds of every reaped descendant (the N commands, their torchruns and ranks):
    what a run costs whatever else the host is doing, where its wall time is not."""
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def verdict_ok(r: dict) -> tuple[bool, str, float]:
    """(verdict as expected, what was seen, the time that meets the target)."""
    rep, n, codes = r["report"], r["n"], r["codes"]
    found = sorted({f["code"] for f in rep["findings"] if f["severity"] != "info"})
    named = {x for f in rep["findings"] if f["code"].startswith("BW2") for x in f["nodes"]}
    seen = f"exit {codes} {','.join(found) or '-'}"
    if r["case"] == "healthy":  # exit 0 is not enough: a false BW2xx skips the sweep and flatters the time
        sweep = rep["results"].get("all_reduce", {})
        right = not named and "RUN008" not in found and not sweep.get("skipped") and bool(sweep.get("rows"))
        return all(c == 0 for c in codes) and right, seen, r["wall_s"]
    if r["case"] == "slow":
        right = (any(x.startswith(r["last"] + " ") for x in named) and all(x.startswith(r["last"] + " ") for x in named)
                 if n >= 3 else "RUN008" in found)
        return right and rep["exit_code"] == 1 and "RUN003" not in found, seen, r["wall_s"]
    if r["case"] == "hung":
        run = rep["results"].get("run", {})
        ok = "RUN003" in found and run.get("culprits") == [n - 1] and rep["exit_code"] == 4
        return ok, seen, float(run.get("verdict_after_s") or float("inf"))
    net = [f for f in rep["findings"] if f["code"] == "NET001"]
    return all(c == 3 for c in codes) and bool(net), seen, r["wall_s"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nodes", default="2,3,4")
    ap.add_argument("--cases", default=",".join(CASES))
    args = ap.parse_args()
    if os.geteuid() != 0:
        sys.exit("bench_sick needs root (network namespaces)")
    cases = [c for c in args.cases.split(",") if c]
    if "healthy" not in cases:
        cases.insert(0, "healthy")  # the ratio's denominator, measured in the same invocation
    print("# ncclDoctor check --nodes N, default options, 1 rank per node, namespaces on a bridge")
    print(f"# {'N':>2} {'case':<8} {'wall (s)':>8} {'x healthy':>9} {'timed (s)':>9} {'target':>6}  {'ok':<4} "
          f"{'load':>4} {'cpu (s)':>7}  seen")
    bad = 0
    with tempfile.TemporaryDirectory() as d:
        for n in map(int, args.nodes.split(",")):
            base = None
            for case in cases:
                r = run(n, case, Path(d))
                base = base or r["wall_s"]
                ok, seen, timed = verdict_ok(r)
                hit = ok and timed <= TARGET_S[case]
                bad += not hit
                print(f"  {n:>2} {case:<8} {r['wall_s']:>8.1f} {r['wall_s'] / base:>9.2f} {timed:>9.1f} "
                      f"{TARGET_S[case]:>6}  {'yes' if hit else 'NO':<4} {os.getloadavg()[0]:>4.1f} "
                      f"{r['cpu_s']:>7.1f}  {seen}",
                      flush=True)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
