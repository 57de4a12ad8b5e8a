"""Benchmark: how often `ncclDoctor diagnose` reaches the expert's conclusion on real logs.

    python benchmarks/bench_diagnose_accuracy.py                  # the development split
    python benchmarks/bench_diagnose_accuracy.py --split heldout  # the held-back quarter
    python benchmarks/bench_diagnose_accuracy.py --split all -v   # every case, with the misses
    python benchmarks/bench_diagnose_accuracy.py --split all --round 14,15   # only those rounds

Reads every case of tests/fixtures/corpus/ (format and the held-out rule:
tests/fixtures/corpus/README.md), runs ``ncclDoctor.diagnose.diagnose`` on its input
files, and scores the report's verdict (``results["diagnose"]["verdict"]``) against the
expert answer in ``case.json``:

- culprit   the ranks diagnose accuses with medium or high confidence equal the expected
            culprits; when the expected answer is "unknown" or [] it must accuse nobody
- victim    no rank the case proves innocent is accused with medium or high confidence
            (the worst error: it sends the user to a healthy rank)
- cause     the verdict's cause class equals the expected one
- fix       the verdict's fix names at least one of the expected key words
- correct   all four

Prints one table per split. Exit status 1 when a victim is accused anywhere scored.

``--variants`` also re-scores every case with its log lines rewritten the way other
launchers and collectors print them (``VARIANTS``: Windows line endings, kubectl
timestamps, torchrun's ``[default0]:`` role prefix, terminal
colours, docker compose's ``name  | ``, Python logging's prefix, Ray's actor prefix,
sglang's ``[time TP0]``) and counts the cases
whose score changes: a family read only in one wording is a blind spot for the next
round of real logs.

``--perturb wrap80,wrap120,quote,crlf,ansi,timestamps,rankprefix,fence,wrapquote`` (or
``all``) re-diagnoses every case pasted the way people paste logs into an issue
(``PERTURB``: hard wrapped at 80 or 120 columns, Markdown ``> `` quoting, CRLF, colours, a
timestamp per line, a ``[rank3]:`` prefix, inside a ``` fence, wrapped at 80 then quoted) and
counts the verdicts (cause, accused ranks,
confidence) that stay the same; for ``rankprefix``, which says which rank printed every
line, only the cause is compared.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "fixtures" / "corpus"
ACCUSING = ("culprit", "desync", "first_failure")


def heldout(case_id: str) -> bool:
    """The split rule, fixed before any tuning (see the corpus README)."""
    return int(hashlib.sha256(case_id.encode()).hexdigest()[:8], 16) % 100 < 30


ROUNDS: set[int] | None = None  # --round: only the cases of these rounds (no "round" field = round 1)


def load_cases(split: str = "dev") -> list[dict]:
    cases = []
    for d in sorted(p for p in CORPUS.iterdir() if p.is_dir()):
        meta = json.loads((d / "case.json").read_text())
        meta["dir"] = d
        if ROUNDS is not None and meta.get("round", 1) not in ROUNDS:
            continue
        if split == "all" or (split == "heldout") == meta["heldout"]:
            cases.append(meta)
    return cases


def inputs(case: dict) -> list[str]:
    """The files diagnose reads for a case: everything in its folder but case.json (the expert answer)."""
    return [str(p) for p in sorted(Path(case["dir"]).iterdir()) if p.name != "case.json"]


def accused(report) -> set[int]:
    """Ranks the report blames with medium or high confidence, in the verdict or any conclusion."""
    d = report.results["diagnose"]
    out = set()
    v = d.get("verdict") or {}
    if v.get("confidence") in ("medium", "high"):
        out.update(v.get("culprits") or [])
    for k in d.get("conclusions", []):
        if k["kind"] in ACCUSING and k["confidence"] in ("medium", "high"):
            out.update(k["ranks"])
    return out


def score(case: dict, report) -> dict:
    exp = case["expected"]
    v = report.results["diagnose"].get("verdict") or {}
    blamed = accused(report)
    want = set() if exp["culprits"] in ("unknown", []) else set(exp["culprits"])
    fix = (v.get("fix") or "").lower()
    row = {
        "id": case["id"],
        "culprit": blamed == want,
        "victim": not (blamed & set(exp["innocent"])),
        "cause": v.get("cause") == exp["cause"],
        "fix": any(k.lower() in fix for k in exp["fix"]),
        "got": {"cause": v.get("cause"), "accused": sorted(blamed), "confidence": v.get("confidence")},
        "want": {"cause": exp["cause"], "culprits": exp["culprits"]},
    }
    # the bar ("culprit/innocents/cause all right"); "correct" also asks for the fix words
    row["verdict"] = all(row[k] for k in ("culprit", "victim", "cause"))
    row["correct"] = row["verdict"] and row["fix"]
    return row


def _ansi(line: str) -> str:
    return f"\x1b[1;31m{line}\x1b[0m" if line.strip() else line


# name -> line rewriter (line, line index); none of them carries a rank, so the answer must not change
VARIANTS = {
    "crlf": lambda line, i: line + "\r",
    "kubectl-timestamps": lambda line, i: f"2024-05-01T12:{i // 60 % 60:02d}:{i % 60:02d}.123456789Z {line}",
    "torchrun-role": lambda line, i: f"[default0]:{line}",
    "ansi-colour": lambda line, i: _ansi(line),
    "compose": lambda line, i: f"trainer-1  | {line}",
    "py-logging": lambda line, i: f"[2024-05-01 12:00:00,123] [INFO] {line}",
    "ray-actor": lambda line, i: f"(RayWorkerWrapper pid=5304, ip=10.0.0.1) {line}",
    "sglang": lambda line, i: f"[2025-02-26 11:16:37 TP0] {line}",
}


def _wrap(width: int):
    """A terminal or an issue box hard-wrapping at ``width`` columns: the rest of a long line goes on the next."""
    def wrap(line: str, i: int) -> str:
        return "\n".join(line[k:k + width] for k in range(0, len(line), width)) if len(line) > width else line
    return wrap


def _fence(text: str) -> str:
    return "```\n" + text + "\n```\n"


# A launcher's "[rankN]: " prefix on every line. Where a line names its rank in a pre-2.2 "[Rank N]" tag (no PG),
# that is the default group's rank, which is the process's global rank: a launcher would prefix that same N, and
# the lines after it (its traceback, its teardown) the same, so the perturbation does too. Prefixing another rank
# there would not be a paste but a contradiction (two ranks claiming one line), which legitimately changes the
# world the lines show. C++'s std::terminate writes its two lines ("terminate called after throwing ..." and
# "  what():  [Rank N] ...") in one write of one process, so the first takes the rank the second names (the
# previous rank's prefix there split one message between two processes: round 78's adl-10). Lines before any
# such tag get rank 3.
_OWN_RANK = re.compile(r"\[Rank (\d+)\]")
_TEARDOWN = re.compile(r"\s*(?:terminate called |\[E ProcessGroupNCCL\.cpp:\d+\] (?:Some NCCL|To avoid))")


def _rankprefix(text: str) -> str:
    lines = text.split("\n")
    rank = "3"
    out = []
    for i, line in enumerate(lines):
        m = _OWN_RANK.search(line)
        j = i
        while m is None and j + 1 < len(lines) and _TEARDOWN.match(lines[j]):
            j += 1
            if "what():" in lines[j]:
                m = _OWN_RANK.search(lines[j])
                break
        if m:
            rank = m.group(1)
        out.append(f"[rank{rank}]: {line}" if line.strip() else line)
    return "\n".join(out)


# name -> line rewriter, the way people PASTE logs into an issue or a chat (``--perturb``). Wrapping
# makes one line several; the answer must not change, since no perturbation carries a rank or a cause.
PERTURB = {
    "wrap80": _wrap(80),
    "wrap120": _wrap(120),
    "quote": lambda line, i: "> " + line,
    "crlf": lambda line, i: line + "\r",
    "ansi": lambda line, i: _ansi(line),
    "timestamps": lambda line, i: f"2024-05-01 12:{i // 60 % 60:02d}:{i % 60:02d}.123 {line}",
    "rankprefix": None,  # whole-file (WHOLE): a line may take its rank from the next one
    "fence": None,  # whole-file: the log inside a ``` Markdown fence
    # a terminal copy, then quoted in an issue: every wrapped piece gets its own "> "
    "wrapquote": lambda line, i: "\n".join("> " + x for x in _wrap(80)(line, i).split("\n")),
}
# the perturbations PERTURB marks None rewrite the whole text, not a line at a time
WHOLE = {"rankprefix": _rankprefix, "fence": _fence}


def rewrite(case: dict, variant: str) -> list[tuple[str, bytes, bool]]:
    """(file name, bytes, changed) for each of the case's input files with every text line rewritten by
    ``VARIANTS[variant]`` or ``PERTURB[variant]`` (Flight Recorder dumps and JSON files are kept as they
    are); ``changed`` is False where the rewritten bytes equal the original ones."""
    fn = VARIANTS.get(variant) or PERTURB.get(variant) or (lambda line, i: line)
    out = []
    for p in map(Path, inputs(case)):
        data = p.read_bytes()
        if p.suffix in (".json", ".gz", ".pkl") or b"\x00" in data[:8192] or data[:1] == b"\x80":
            new = data
        else:
            lines = data.decode("utf-8", "replace").split("\n")
            if variant in WHOLE:
                text = WHOLE[variant]("\n".join(lines))
            else:
                text = "\n".join(fn(line, i) for i, line in enumerate(lines))
            new = text.encode("utf-8")
        out.append((p.name, new, new != data))
    return out


def rewritten(case: dict, variant: str, into: Path) -> list[str]:
    """The case's input files rewritten by ``rewrite``, written into the folder INTO: their paths."""
    out = []
    for name, data, _ in rewrite(case, variant):
        (into / name).write_bytes(data)
        out.append(str(into / name))
    return out


def variant_row(case: dict, name: str, base_row: dict, into: Path) -> dict:
    """The case's score with its files rewritten by ``name``. Where the rewrite leaves every byte as it
    was (a wrap wider than every line; only JSON or binary inputs) the input is the baseline's own, so
    the baseline's row is returned without diagnosing it again. The files are written into INTO (an
    empty folder, one per sweep: making and removing a folder per case cost more than diagnosing it)
    and removed after."""
    from ncclDoctor.diagnose import diagnose

    files = rewrite(case, name)
    if not any(changed for _, _, changed in files):
        return base_row
    paths = []
    try:
        for fname, data, _ in files:
            (into / fname).write_bytes(data)
            paths.append(into / fname)
        return score(case, diagnose([str(p) for p in paths]))
    finally:
        for p in paths:
            p.unlink()


# a "[rank3]:" prefix on every line says rank 3 printed them: the ranks accused may change, not the cause
CAUSE_ONLY = ("rankprefix",)


def _same(a: dict, b: dict, name: str) -> bool:
    if name in CAUSE_ONLY:
        return a["got"]["cause"] == b["got"]["cause"]
    return a["got"] == b["got"] and a["correct"] == b["correct"]


def run_variants(cases: list[dict], base: dict[str, dict], only: str | None = None, names=None, strict=False
                 ) -> dict[str, list[tuple[str, dict]]]:
    """variant -> [(case id, row)] for the cases whose correctness changed or that accuse a victim
    (``strict``: whose verdict changed at all: cause, accused ranks or confidence)."""
    import tempfile

    changed: dict[str, list[tuple[str, dict]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in [only] if only else (names or VARIANTS):
            changed[name] = []
            for c in cases:
                row = variant_row(c, name, base[c["id"]], Path(tmp))
                if moved(row, base[c["id"]], name, strict):
                    changed[name].append((c["id"], row))
    return changed


def moved(row: dict, base_row: dict, name: str, strict: bool) -> bool:
    """Whether a variant's row counts as changed (``run_variants``): its correctness changed, or
    (``strict``) its verdict did, or it accuses a victim."""
    differs = not _same(row, base_row, name) if strict else row["correct"] != base_row["correct"]
    return differs or not row["victim"]


def run(cases: list[dict]) -> list[dict]:
    from ncclDoctor.diagnose import diagnose

    rows = []
    for c in cases:
        try:
            rows.append(score(c, diagnose(inputs(c))))
        except Exception as e:  # an internal error is a miss on every column, named in the -v list, not a lost run
            rows.append({"id": c["id"], "culprit": False, "victim": True, "cause": False, "fix": False,
                         "verdict": False, "correct": False,
                         "got": {"cause": f"internal error {type(e).__name__}: {e}", "accused": [], "confidence": None},
                         "want": {"cause": c["expected"]["cause"], "culprits": c["expected"]["culprits"]}})
    return rows


def baseline(split: str) -> tuple[list[dict], dict[str, dict]]:
    """The cases of ``split`` and each one's score by id: what the variant and paste checks compare against."""
    cases = load_cases(split)
    return cases, {r["id"]: r for r in run(cases)}


def table(name: str, rows: list[dict]) -> str:
    n = len(rows) or 1
    pct = {k: 100.0 * sum(r[k] for r in rows) / n for k in ("culprit", "victim", "cause", "fix", "verdict", "correct")}
    victims = sum(not r["victim"] for r in rows)
    return (
        f"{name:<8} {len(rows):>5}  {pct['culprit']:6.1f}%  {victims:>7}  {pct['cause']:6.1f}%  "
        f"{pct['fix']:6.1f}%  {pct['verdict']:6.1f}%  {pct['correct']:7.1f}%"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", choices=("dev", "heldout", "all"), default="dev")
    ap.add_argument("--corpus", default=None, metavar="DIR",
                    help="score another case folder of the same format, e.g. a blind round kept out of "
                         "tests/fixtures/corpus (the development corpus) until its misses are fixed")
    ap.add_argument("--round", default=None, metavar="N[,N]",
                    help="score only the cases of these labelling rounds (case.json's \"round\"; none = round 1), "
                         "e.g. a blind round's first score")
    ap.add_argument("-v", "--verbose", action="store_true", help="list every case that is not fully correct")
    ap.add_argument("--variants", action="store_true",
                    help="also re-score every case with its lines in other launchers' formats (VARIANTS)")
    ap.add_argument("--perturb", metavar="LIST", default=None,
                    help="re-diagnose every case pasted the way people paste logs and count the verdicts that stay "
                         f"the same; comma-separated, from {','.join(PERTURB)} (or 'all')")
    a = ap.parse_args()
    if a.round:
        global ROUNDS
        try:
            ROUNDS = {int(x) for x in a.round.split(",") if x.strip()}
        except ValueError:
            ap.error(f"--round takes round numbers separated by commas, not {a.round!r}")
    if a.corpus:
        global CORPUS
        CORPUS = Path(a.corpus).resolve()
        if not CORPUS.is_dir():
            sys.exit(f"bench_diagnose_accuracy: no such folder: {a.corpus}")
    splits = ["dev", "heldout"] if a.split == "all" else [a.split]
    t0 = time.monotonic()
    results = {s: run(load_cases(s)) for s in splits}
    print(f"{'split':<8} {'cases':>5}  {'culprit':>7}  {'victims':>7}  {'cause':>7}  {'fix':>7}  {'verdict':>7}  "
          f"{'correct':>8}")
    for s in splits:
        print(table(s, results[s]))
    print(
        f"({time.monotonic() - t0:.1f} s; victims = cases where an innocent rank was accused "
        "with medium/high confidence; verdict = culprit, no innocent accused and cause all right, the issue's "
        "bar; correct = verdict and the fix named)"
    )
    if a.verbose:
        for s in splits:
            for r in results[s]:
                if not r["correct"]:
                    bad = [k for k in ("culprit", "victim", "cause", "fix") if not r[k]]
                    print(f"  {s} {r['id']}: wrong {', '.join(bad)}; got {r['got']} want {r['want']}")
    bad_variant = False
    if a.variants:
        base = {r["id"]: r for rs in results.values() for r in rs}
        cases = [c for s in splits for c in load_cases(s)]
        for name, rows in run_variants(cases, base).items():
            print(f"variant {name:<20} {len(rows):>3} of {len(cases)} cases score differently")
            for cid, r in rows:
                print(f"    {cid}: got {r['got']} (victim accused: {not r['victim']})")
            bad_variant = bad_variant or any(not r["victim"] for _, r in rows)
    if a.perturb:
        names = list(PERTURB) if a.perturb == "all" else a.perturb.split(",")
        unknown = [n for n in names if n not in PERTURB]
        if unknown:
            ap.error(f"unknown perturbation {', '.join(unknown)}; known: {', '.join(PERTURB)}")
        base = {r["id"]: r for rs in results.values() for r in rs}
        cases = [c for s in splits for c in load_cases(s)]
        for name, rows in run_variants(cases, base, names=names, strict=True).items():
            print(f"perturb {name:<12} {len(cases) - len(rows):>3} of {len(cases)} verdicts unchanged")
            for cid, r in rows:
                was = base[cid]["got"]
                print(f"    {cid}: {was} -> {r['got']} (victim accused: {not r['victim']})")
            bad_variant = bad_variant or any(not r["victim"] for _, r in rows)
    sys.exit(1 if bad_variant or any(not r["victim"] for rs in results.values() for r in rs) else 0)


if __name__ == "__main__":
    main()
