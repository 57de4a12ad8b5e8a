"""The fix's words for lines of torch's own distributed test harness (lead rules BA (1), CJ (3); round 109).

torch's MultiProcessTestCase (torch.testing._internal.common_distributed) runs each distributed test's processes
itself, on one host, and reports how they ended: "Process(es) N exited with error code 10" (its TEST_ERROR_EXIT_CODE:
the child raised in the test body, its exception printed by the child), "Process N timed out after S seconds" (the
harness's own time limit), "Expected zero exit code but got -11" (every process's multiprocessing exit code, a
negative one the signal that killed it), or a child's own "Process process N:" header over its traceback. None of them
names a rank or a cause (rule CJ (3)); whatever the reading, the remedy is the test's: each process's own traceback,
the test rerun alone with torch's debug output, the processes' stacks before the limit, the test's requirements on
that platform, a flaky test skipped. A gloo::IoException no code caught (std::terminate, then the process aborted) is
gloo's error path letting a pair's error escape, which the same post-step says (round 109's pytorch-50701).
"""

from __future__ import annotations

import re

from ncclDoctor.diagnose.state import Collected
from ncclDoctor.diagnose.verdict.base import Verdict

# the harness's own summary lines (common_distributed's _check_return_codes / _check_no_test_errors), wherever the
# reader kept them (an unread line, an exception's last line, an exit record: torch's current "Expected zero exit code
# but got -11 for pid: N"). "Processes N exited with error code C" alone is the harness's only with its code 10
# (TEST_ERROR_EXIT_CODE) or beside another sign of it (lead ruling 5 of review 109 b): other launchers word it alike
_R_HARNESS_LINE = re.compile(
    r"\bProcess(?:es)? \d{1,5}(?:, \d{1,5}){0,63} exited with error code (?P<exited>-?\d{1,4})\b|"
    r"\bProcess \d{1,5} (?:terminated or )?timed out after \d[\d.]{0,30} seconds|"
    r"\bExpected zero exit code but got (?P<code>-?\d{1,4})\b")
# the harness's own names where a line or an exception's frame shows them
_R_HARNESS_NAME = re.compile(r"\bMultiProcessTestCase\b|common_distributed\b")
# the harness's frames a cut traceback stops in
_HARNESS_FUNCS = ("_check_return_codes", "_check_no_test_errors", "_join_processes")
_R_GLOO_TERMINATE = re.compile(r"\bterminate called after throwing an instance of '(?:gloo::)?\w{0,40}IoException'")

HARNESS_FIX = (
    " These lines are torch's own distributed test harness (MultiProcessTestCase, "
    "torch.testing._internal.common_distributed), which starts the test's processes on this one host and reports "
    "only how they ended: exit code 10 is the harness's test-error exit (the process raised in the test body), a "
    "negative code the signal that killed it, 'timed out after S seconds' the harness's own time limit. Read each "
    "test process's own traceback in the test log above the harness's summary (check the other process's output for "
    "its own error or a hang); rerun the test alone with TORCH_DISTRIBUTED_DEBUG=DETAIL and NCCL_DEBUG=INFO; dump "
    "stacks of the test processes (py-spy) before the harness timeout; check the test's requirements on this "
    "platform (GPU count, backend, skip decorators) and the torch build; a test that fails only sometimes is flaky: "
    "skip/disable the flaky test until it is fixed.")
_SEGV_FIX = (
    " Exit code -11 is SIGSEGV in the test process: get a backtrace of the segfault (gdb / core dump, faulthandler, "
    "catchsegv; TORCH_SHOW_CPP_STACKTRACES=1), and check the NCCL / CUDA / driver versions the build links against.")
GLOO_TERMINATE_FIX = (
    " The gloo::IoException was thrown where nothing caught it (terminate called, then the process aborted): a gloo "
    "pair's error escaping its thread, which takes the process down instead of failing the pending collective -- "
    "upgrade torch/gloo to a release where pair errors are propagated to the waiting op, and set a collective "
    "timeout so the survivor fails cleanly.")


def _harness(c: Collected) -> tuple[bool, bool]:
    """(whether the lines show torch's test harness, whether it reports a process killed by SIGSEGV)."""
    evs = list(c.exceptions) + list(c.unread) + list(c.worker_failures) + list(c.child_failures)
    texts = [e.text for e in evs]
    hits = [m for t in texts for m in _R_HARNESS_LINE.finditer(t)]
    cut = c.samples.get("tb_cut", [])
    named = any(_R_HARNESS_NAME.search(t) for t in texts) or any(
        _R_HARNESS_NAME.search(e.data.get("frame_file") or "") for e in evs)
    own = [m for m in hits if m.group("exited") is None or m.group("exited") == "10"]
    seen = bool(own) or named or any(e.data.get("func") in _HARNESS_FUNCS or e.data.get("harness_index") is not None
                                     for e in cut)
    segv = seen and (any("-11" in (m.group("code"), m.group("exited")) for m in hits) or any(
        e.data.get("harness_code") == "-11" for e in cut))
    return seen, segv


def harness_fix(c: Collected, v: Verdict) -> Verdict:
    """V with the test harness's remedy (and an uncaught gloo IoException's) added to its fix where the lines show
    them; the cause and the ranks stay the reading's."""
    seen, segv = _harness(c)
    if seen and HARNESS_FIX not in v.fix:
        v.fix = v.fix.rstrip() + (_SEGV_FIX if segv else "") + HARNESS_FIX
    if GLOO_TERMINATE_FIX not in v.fix and any(_R_GLOO_TERMINATE.search(u.text) for u in c.unread):
        v.fix = v.fix.rstrip() + GLOO_TERMINATE_FIX
    return v
