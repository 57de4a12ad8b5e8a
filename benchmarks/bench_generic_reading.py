"""Benchmark: how well generic.reading's general words predict a case's cause from its exception lines alone.

    python benchmarks/bench_generic_reading.py        # precision and recall per cause
    python benchmarks/bench_generic_reading.py -v     # and every case the words read as the wrong cause

generic.py reads an unfamiliar failure's words as an engineer meeting them would ("connection refused" is the
network, "not supported" the set-up); verdict/unread.py gives that reading only when no family explains the lines.
This measures those readings on their own, over every corpus case: the case's exception tails (the lines
signatures.R_EXC_TAIL matches once the launcher's prefixes are stripped: "RuntimeError: ..."), read by
generic.reading as if no family had seen them, against the case's expected cause. Precision per cause is how often
a reading of that cause is the expert's; recall, how many of the cases of that cause the words alone find. A wrong
class is worse than "unknown" (no reading), so precision is the figure that matters. Exit status 0; it prints only.
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.bench_diagnose_accuracy import inputs, load_cases  # noqa: E402
from ncclDoctor.diagnose import generic  # noqa: E402
from ncclDoctor.diagnose import signatures as S  # noqa: E402


def tails(case: dict) -> list[str]:
    """The case's exception lines ("Type: message"), without the prefixes launchers and collectors put before them."""
    out = []
    for f in inputs(case):
        for line in Path(f).read_text(errors="replace").splitlines():
            body = S.strip_prefixes(line).strip()
            if "rror" in body or "xception" in body:
                m = S.R_EXC_TAIL.match(body)
                if m and len(out) < 64:
                    out.append(body[:400])
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-v", action="store_true", help="list every case read as the wrong cause")
    args = ap.parse_args()
    cases = load_cases("all")
    want = collections.Counter(c["expected"]["cause"] for c in cases)
    said, right = collections.Counter(), collections.Counter()
    wrong, with_tails = [], 0
    for c in cases:
        t = tails(c)
        with_tails += bool(t)
        r = generic.reading(t) if t else None
        if r is None:
            continue
        said[r[0]] += 1
        if r[0] == c["expected"]["cause"]:
            right[r[0]] += 1
        else:
            wrong.append((c["id"], r[0], c["expected"]["cause"], t[r[3]][:160]))
    print(f"{len(cases)} cases, {with_tails} with an exception line; {sum(said.values())} read by their words, "
          f"{sum(right.values())} as the expected cause")
    print(f"{'cause':18} {'cases':>6} {'read':>6} {'right':>6} {'precision':>10} {'recall':>8}")
    for cause in sorted(set(said) | {k for k in want if said[k]}):
        p = f"{100 * right[cause] / said[cause]:.1f}%" if said[cause] else "-"
        print(f"{cause:18} {want[cause]:6} {said[cause]:6} {right[cause]:6} {p:>10} "
              f"{100 * right[cause] / want[cause]:7.1f}%")
    tot = sum(said.values())
    print(f"{'all':18} {len(cases):6} {tot:6} {sum(right.values()):6} "
          f"{100 * sum(right.values()) / max(tot, 1):9.1f}% {100 * sum(right.values()) / len(cases):7.1f}%")
    if args.v:
        for cid, got, exp, line in wrong:
            print(f"  {cid}: read {got}, expected {exp}: {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
