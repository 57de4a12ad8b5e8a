"""The labelled corpus (tests/fixtures/corpus/) as the diagnose tests read it, computed once per session.

- ``report(case)``: one ``diagnose`` run per case for the whole session (test_diagnose_accuracy reads
  every case's report in several tests, the paste and launcher sweeps compare against its score).
- ``rows(name, cases)``: each case's score with its files rewritten by ``bench.PERTURB[name]`` or
  ``bench.VARIANTS[name]``, kept per (name, case): the quick tier's sample and the integration tier's
  whole sweep share every row they both need. A rewrite that leaves every byte as it was reuses the
  baseline's row (``bench.variant_row``). The rows missing are computed here, or in a process pool of N
  when NCCLDOCTOR_TEST_WORKERS=N asks for one (``workers()``).
- ``sample(cases)``: the quick tier's deterministic sample (``SAMPLE_PER_CAUSE`` cases of each
  expected cause class: those whose sha256 of the id is smallest), a fixed size however the corpus
  grows (19 classes: at most 57 cases).
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

from benchmarks import bench_diagnose_accuracy as bench

SAMPLE_PER_CAUSE = 3
_reports: dict[str, object] = {}
_rows: dict[tuple[str, str], dict] = {}


def report(case: dict):
    """The case's report from ``diagnose`` on its input files (never case.json), computed once."""
    cid = case["id"]
    if cid not in _reports:
        from ncclDoctor.diagnose import diagnose

        _reports[cid] = diagnose(bench.inputs(case))
    return _reports[cid]


def base_row(case: dict) -> dict:
    return bench.score(case, report(case))


def base(cases: list[dict]) -> dict[str, dict]:
    """Each case's baseline score by id: what the sweeps compare against."""
    return {c["id"]: base_row(c) for c in cases}


def sample(cases: list[dict]) -> list[dict]:
    """The quick tier's sample of CASES: for each expected cause class, the SAMPLE_PER_CAUSE cases with
    the smallest sha256 of their id (deterministic; a new case enters only if its hash is smaller),
    in the corpus' order."""
    by_cause: dict[str, list[dict]] = {}
    for c in cases:
        by_cause.setdefault(c["expected"]["cause"], []).append(c)
    keep = {c["id"] for group in by_cause.values()
            for c in sorted(group, key=lambda c: hashlib.sha256(c["id"].encode()).hexdigest())[:SAMPLE_PER_CAUSE]}
    return [c for c in cases if c["id"] in keep]


def workers() -> int:
    """Processes for a sweep: 1 (no pool) unless NCCLDOCTOR_TEST_WORKERS=N asks for N. Not by default:
    the pool forks the pytest process, which earlier tests may have left with threads (torch's, gloo's),
    and a child that inherits a held lock would hang the suite; on this 2-core machine the pool saved
    nothing. With N set, N is capped by the CPUs this process may run on (os.sched_getaffinity)."""
    want = os.environ.get("NCCLDOCTOR_TEST_WORKERS", "").strip()
    if not want.isdigit() or int(want) <= 1:
        return 1
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(cpus, int(want)))


def _compute(jobs: list[tuple[str, dict, dict]]) -> list[dict]:
    with tempfile.TemporaryDirectory() as tmp:
        return [bench.variant_row(case, name, row, Path(tmp)) for name, case, row in jobs]


# below this many rows a pool's start costs more than it saves
_POOL_MIN = 200


def rows(name: str, cases: list[dict]) -> dict[str, dict]:
    """case id -> the case's row with its files rewritten by NAME (a PERTURB or VARIANTS key)."""
    todo = [(name, c, base_row(c)) for c in cases if (name, c["id"]) not in _rows]
    n = workers()
    if n > 1 and len(todo) >= _POOL_MIN:
        chunks = [todo[k::n * 4] for k in range(n * 4)]  # interleaved: big and small cases spread over the chunks
        with ProcessPoolExecutor(n, mp_context=get_context("fork")) as pool:
            done = [r for chunk, got in zip(chunks, pool.map(_compute, chunks)) for r in zip(chunk, got)]
    else:
        done = list(zip(todo, _compute(todo)))
    for (nm, c, _), row in done:
        _rows[(nm, c["id"])] = row
    return {c["id"]: _rows[(name, c["id"])] for c in cases}


def changed(name: str, cases: list[dict], strict: bool) -> list[tuple[str, dict]]:
    """``bench.run_variants``'s answer for one NAME: (case id, row) of the cases that moved."""
    got = rows(name, cases)
    return [(c["id"], got[c["id"]]) for c in cases if bench.moved(got[c["id"]], base_row(c), name, strict)]
