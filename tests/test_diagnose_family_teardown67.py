"""How diagnose reads torchrun's agent stopping its workers with nothing else in the lines (round 67, session 24:
ms-swift-4411): its "Sending process P closing signal SIGTERM" lines skip one pid in the middle of the run it stops,
and no signal the agent received is shown -- the agent sends its closing signal only to the workers still running, so
the skipped pid had exited first; which rank and why is in the failure record the paste cut (rule A needs it):
unknown, nobody named. Each test reads the shape from lines other than the corpus case's own (other pids, agents,
steps), and a near shape that must NOT be read that way. Pids and paths are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report


def _closing(pids, agent: int = 2207) -> str:
    return "".join(f"W1104 09:12:44.10{i}000 {agent} torch/distributed/elastic/multiprocessing/api.py:897] Sending "
                   f"process {p} closing signal SIGTERM\n" for i, p in enumerate(pids))


_BAR = "Train:  62%|######2   | 310/500 [41:02<25:09, 7.94s/it]"


def test_the_agents_closing_signals_skipping_one_pid_are_a_workers_failure_not_shown(tmp_path):
    """A training bar, then the agent SIGTERMs pids 3301-3305 and 3307-3308, skipping 3306 (the gap after the fifth
    line: read from the whole run, not the first lines only), no 'Received ... death signal': the worker 3306 had
    exited and its record is cut -- unknown, nobody named, the fix pointing at the record and the pid."""
    d = _report(tmp_path, _BAR + _closing([3301, 3302, 3303, 3304, 3305, 3307, 3308]))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), v
    assert "pid 3306" in v["summary"] and "Root Cause" in v["fix"] and "@record" in v["fix"], v


def test_the_agents_closing_signals_after_its_own_death_signal_are_a_stop_from_outside(tmp_path):
    """The near shape: the same run of closing signals with one pid skipped, after the agent's own 'Received
    Signals.SIGTERM death signal, shutting down workers': the job was stopped from outside (signal), not read as a
    worker's failure."""
    head = ("W1104 09:12:44.090000 2207 torch/distributed/elastic/agent/server/api.py:704] Received Signals.SIGTERM "
            "death signal, shutting down workers\n")
    v = _report(tmp_path, _BAR + "\n" + head + _closing([3301, 3302, 3304, 3305]))["verdict"]
    assert v["cause"] == "signal" and not v["culprits"], v


def test_closing_signals_with_no_gap_or_several_gaps_name_no_exited_pid(tmp_path):
    """The near shapes: pids stopped one after the other (no gap: the exited worker, if any, is not located) or with
    two gaps (not one worker's place): no pid is read as the exited worker."""
    for pids in ([3301, 3302, 3303, 3304], [3301, 3303, 3305, 3306]):
        v = _report(tmp_path, _BAR + _closing(pids))["verdict"]
        assert "had already exited" not in v["summary"], (pids, v)
