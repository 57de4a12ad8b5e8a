"""diagnose's words do not depend on Python's string hashing: two tracebacks of one exception and two of another (a
tie) name the same one in every process, whatever PYTHONHASHSEED (the first shown; verdict.unread._raised_alike once
broke the tie by a set's order, so the same logs gave two fixes across runs)."""
from __future__ import annotations

import os
import subprocess
import sys

_LOGS = "".join(
    f"[rank{r}]: Traceback (most recent call last):\n"
    f"[rank{r}]:   File \"/work/train.py\", line {40 + r}, in <module>\n"
    f"[rank{r}]:     load(cache)\n"
    f"[rank{r}]: {exc}\n"
    for r, exc in enumerate([
        "OSError: [Errno 5] Input/output error: '/data/cache/a.arrow'",
        "FileNotFoundError: [Errno 2] No such file or directory: '/data/cache/b.arrow'",
        "OSError: [Errno 5] Input/output error: '/data/cache/a.arrow'",
        "FileNotFoundError: [Errno 2] No such file or directory: '/data/cache/b.arrow'",
    ]))

_RUN = ("import sys; from ncclDoctor.diagnose import diagnose; "
        "print(diagnose([sys.argv[1]]).results['diagnose']['verdict']['fix'])")


def test_a_tie_between_two_shared_exceptions_reads_the_same_under_every_hash_seed(tmp_path):
    log = tmp_path / "job.log"
    log.write_text(_LOGS)
    fixes = set()
    for seed in ("1", "2", "3", "4", "5", "6"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        out = subprocess.run([sys.executable, "-c", _RUN, str(log)], capture_output=True, text=True, env=env,
                             timeout=120, check=True)
        fixes.add(out.stdout)
    assert len(fixes) == 1, fixes
    assert "2 tracebacks end in the same OSError" in fixes.pop()  # the first one shown
