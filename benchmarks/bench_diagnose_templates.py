"""Benchmark: how many of the failure messages NCCL, gloo and torch print `diagnose` reads.

    python benchmarks/bench_diagnose_templates.py        # coverage, and the templates missed
    python benchmarks/bench_diagnose_templates.py -v     # every template with its verdict
    python benchmarks/bench_diagnose_templates.py --perturb wrap80   # each log pasted hard-wrapped at 80 columns

The table tests/fixtures/log_templates/templates.yaml holds message templates copied from
the sources (NCCL's WARN(...) calls, gloo's exceptions, torch's store/rendezvous/watchdog
texts; each with file@commit), the cause class an expert concludes from the line alone and
why. Each template is instantiated with its plausible values behind the prefix its printer
puts before it (``PREFIX``), put in a small log before lines of ordinary chatter, and
diagnosed alone. A template is *recognised* when the verdict's cause is the expected class
(for ``cause: unknown``, when the verdict is a failure at all: not "none").

Unlike the corpus (real reports, bench_diagnose_accuracy.py), this measures the vocabulary:
a message the tool has no words for ends as "none"/"unknown" however good its reasoning.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "tests" / "fixtures" / "log_templates" / "templates.yaml"

PREFIX = {
    "nccl": "node-7:12345:12400 [3] NCCL WARN ",
    "glog": "[rank2]:[W1130 17:01:02.123456789 {file}] ",
    "py": "",
    "none": "",
}
CHATTER = [  # lines every job prints around a failure, none of them a failure
    "node-7:12345:12345 [3] NCCL INFO Bootstrap : Using eth0:10.1.2.4<0>",
    "node-7:12345:12345 [3] NCCL INFO NET/Plugin: No plugin found (libnccl-net.so), using internal implementation",
    "{'loss': 1.2345, 'grad_norm': 0.87, 'learning_rate': 1.9e-05, 'epoch': 0.42}",
    " 42%|████▏     | 4200/10000 [1:02:03<1:25:41,  1.13it/s]",
]
_SPEC = re.compile(r"%[-+ #0-9.]*(?:hh|h|ll|l|z|j|t)?[diouxXfeEgGsp]")


def load() -> list[dict]:
    import yaml

    return yaml.safe_load(TABLE.read_text())


def message(entry: dict) -> str:
    """The template with its args in place of the printf conversions (each as str(): the
    table holds the values as the log shows them, e.g. 1b000 for a %lx)."""
    args = iter(entry.get("args") or [])
    return _SPEC.sub(lambda m: str(next(args)), entry["template"]).replace("%%", "%")


def line(entry: dict) -> str:
    return PREFIX[entry["prefix"]].format(file=entry.get("file", "ProcessGroupNCCL.cpp:1000")) + message(entry)


def _pasted(name: str | None):
    """The line rewriter of bench_diagnose_accuracy.PERTURB (how people paste logs), or None."""
    if not name:
        return None
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_diagnose_accuracy", ROOT / "benchmarks" /
                                                  "bench_diagnose_accuracy.py")
    acc = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(acc)
    if name not in acc.PERTURB:
        raise SystemExit(f"unknown perturbation {name}; known: {', '.join(acc.PERTURB)}")
    fn = acc.PERTURB[name]
    return acc.WHOLE[name] if fn is None else (
        lambda text: "\n".join(fn(x, i) for i, x in enumerate(text.split("\n"))))


def verdict_of(entry: dict, tmp: Path, perturb: str | None = None) -> dict:
    from ncclDoctor.diagnose import diagnose

    log = tmp / "job.log"
    # the template first: a long chatter line before it would make the scanner read it as a wrapped line's rest
    # even without a trigger word (a template once passed only that way)
    text = "\n".join([line(entry)] + CHATTER) + "\n"
    paste = _pasted(perturb)
    log.write_text(paste(text) if paste else text)
    return diagnose([str(log)]).results["diagnose"]["verdict"]


def recognised(entry: dict, v: dict) -> bool:
    if entry["cause"] == "unknown":
        return v.get("cause") not in (None, "none")
    return v.get("cause") == entry["cause"]


def run(entries: list[dict], perturb: str | None = None) -> list[tuple[dict, dict, bool]]:
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for e in entries:
            v = verdict_of(e, Path(tmp), perturb)
            out.append((e, v, recognised(e, v)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-v", "--verbose", action="store_true", help="list every template with its verdict")
    ap.add_argument("--perturb", metavar="NAME", default=None,
                    help="paste the log as bench_diagnose_accuracy.PERTURB[NAME] does (wrap80, quote, ...)")
    a = ap.parse_args()
    rows = run(load(), a.perturb)
    ok = sum(r for _, _, r in rows)
    by_src: dict[str, list[bool]] = {}
    for e, _, r in rows:
        by_src.setdefault(e["src"].split()[0], []).append(r)
    print(f"templates recognised: {ok} of {len(rows)} "
          + "(" + ", ".join(f"{k} {sum(v)}/{len(v)}" for k, v in sorted(by_src.items())) + ")")
    for e, v, r in rows:
        if a.verbose or not r:
            print(f"  {'ok  ' if r else 'MISS'} want {e['cause']:<16} got {v.get('cause'):<16} "
                  f"[{e['src']}] {message(e)[:90]}")
    sys.exit(0 if ok == len(rows) else 1)


if __name__ == "__main__":
    main()
