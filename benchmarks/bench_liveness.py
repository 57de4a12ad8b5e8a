"""A rank killed without a word on one node: seconds from the kill to every node's exit.

    sudo PYTHONPATH=. python benchmarks/bench_liveness.py [--runs 3] [--spec exit-held:1] [--timeout 60]

Two network namespaces (``tests/netns.py``: root and ``ip netns``), one ``ncclDoctor check
--nodes 2`` in each, ``--inject exit-held:1``: rank 1 (node 1) is killed by SIGKILL inside the
all_reduce sweep while a child holds its connections open, as a dead NCCL peer's are never seen
closed. Its node's supervisor posts an error on its behalf (``launch.liveness``) and node 0 stops
(``check.failfast.watching``). The time runs from the kill (the fault's own line in the rank's log,
wall clock) to the moment both nodes' commands have exited; target: well within the deadline
(``--timeout``). Each run's exit codes and the reporting node's culprit finding are printed, and
the processes left behind (none expected). Run it at a commit before ``launch.liveness`` to see
the deadline waited out (RUN003).
"""

from __future__ import annotations

import argparse
import glob
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def one(tmp: Path, spec: str, timeout: int) -> tuple[float | None, list[int], str, list[str]]:
    from tests import netns
    from tests.multinode_helpers import run_nodes
    from tests.test_faults import leftovers
    from tests.test_multinode_netns import launch_in

    with netns.Cluster(2) as c:
        runs = run_nodes(2, launch_in(c), c.addr, tmp, timeout=timeout + 240,
                         extra=["--timeout", str(timeout), "--max-seconds", "0", "--inject", spec])
        ended = time.time()
    said = "".join(Path(f).read_text(errors="replace")
                   for f in glob.glob(str(tmp / "node*/logs/**/stderr.log"), recursive=True))
    m = re.search(r"killed by SIGKILL inside '\w+' at ([\d.]+)", said)
    host = next((r for r in runs if r.report.get("results", {}).get("multinode", {}).get("is_reporting_node")), runs[0])
    blamed = [f"{f['code']} ranks {f['ranks']}: {f['message'][:160]}" for f in host.report.get("findings", [])
              if f["code"] in ("RUN003", "RUN004")]
    time.sleep(0.5)
    left = [p for i in range(2) for p in leftovers(tmp / f"node{i}")]
    return (ended - float(m[1]) if m else None), [r.returncode for r in runs], "; ".join(blamed), left


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--spec", default="exit-held:1")
    ap.add_argument("--timeout", type=int, default=60)
    args = ap.parse_args()
    from tests import netns

    if reason := netns.skip_reason():
        sys.exit(f"cannot run: {reason}")
    print(f"# 2 netns nodes, one gloo rank each, --inject {args.spec}, --timeout {args.timeout} s")
    print(f"{'run':>3} {'kill -> both exited (s)':>24}  exits   culprit finding (reporting node)")
    got = []
    for i in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            secs, codes, blamed, left = one(Path(tmp), args.spec, args.timeout)
        got += [secs] if secs is not None else []
        print(f"{i + 1:>3} {secs if secs is None else round(secs, 1):>24}  {codes}  {blamed}"
              + (f"  LEFT RUNNING: {left}" if left else ""))
    if got:
        print(f"# kill -> both nodes exited: {min(got):.1f}-{max(got):.1f} s over {len(got)} runs "
              f"(deadline {args.timeout} s)")


if __name__ == "__main__":
    main()
