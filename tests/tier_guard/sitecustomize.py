"""Quick-tier guard, loaded at start-up by every Python a quick-tier test starts.

tests/conftest.py puts this folder first on PYTHONPATH and sets NCCLDOCTOR_TEST_TIER=quick
when pytest runs the quick tier (`-m "not integration"`). Python then imports this file as
`sitecustomize`, and the audit hook below refuses to start torchrun, a network namespace
or Chromium, in the test process and in every child (the CLI the test runs, and so on).
A refusal is also appended to $NCCLDOCTOR_TIER_LOG, so the session fails even where the
product turns the error into an exit code. The cure is to list the test as integration
in tests/conftest.py (INTEGRATION).
"""

from __future__ import annotations

import os
import sys


def _what(argv) -> str | None:
    """What ``argv`` would start that the quick tier forbids, or None."""
    words = [str(a) for a in (argv if isinstance(argv, (list, tuple)) else [argv])]
    exe = os.path.basename(words[0]) if words else ""
    if exe == "torchrun" or any(a == "-m" and b == "torch.distributed.run" for a, b in zip(words, words[1:])):
        return "torchrun"
    if exe == "unshare" or (exe == "ip" and "netns" in words[1:3]):
        return "a network namespace"
    if "chrom" in exe or exe == "headless_shell":
        return "Chromium"
    return None


def _hook(event: str, args: tuple) -> None:
    # Only while a test runs (pytest sets PYTEST_CURRENT_TEST; children inherit it):
    # collection may probe for namespaces to decide a skip.
    if event != "subprocess.Popen" or "PYTEST_CURRENT_TEST" not in os.environ:
        return
    what = _what(args[1])
    if what is None:
        return
    msg = (f"quick tier: a test started {what} ({' '.join(map(str, args[1]))[:200]}); mark it integration in "
           "tests/conftest.py")
    log = os.environ.get("NCCLDOCTOR_TIER_LOG")
    if log:
        with open(log, "a", encoding="utf-8") as fh:
            fh.write(f"{os.environ.get('PYTEST_CURRENT_TEST', '?')}\t{msg}\n")
    raise RuntimeError(msg)


def install() -> None:
    if not getattr(sys, "_ncclDoctor_tier_guard", False):
        sys.addaudithook(_hook)
        sys._ncclDoctor_tier_guard = True


if os.environ.get("NCCLDOCTOR_TEST_TIER") == "quick":
    install()
