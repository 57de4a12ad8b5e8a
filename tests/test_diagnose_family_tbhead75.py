"""How diagnose reads a paste that stops right at a traceback's header (round 75, session 27): the last line is
"Traceback (most recent call last):" alone (a launcher's "[rankN]: " before it or not), no frame or exception after
it. A process began raising an uncaught exception and nothing of it was pasted: something failed, not "nothing
failed" -- unknown, nobody named or proven innocent, the fix asking for the full traceback (lead rules AB (2),
BG (6)). Near shapes -- the header inside the reporter's own sentence, or right after a terminal's echoed '^C' --
are not read so. Hosts, paths and ranks are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report

_RUN = ("Initializing ->  world_size: 3 rank: 0\n"
        "Initializing ->  world_size: 3 rank: 1\n"
        "Initializing ->  world_size: 3 rank: 2\n"
        "Loading cameras from disk...\n"
        "Training progress:  40%|####      | 4000/10000 [03:10<04:45, 21.00it/s, Loss=0.051]\n"
        "[ITER 3999] Start Evaluation\n")


def test_a_paste_stopping_at_a_traceback_header_is_a_cut_traceback(tmp_path):
    """Three ranks train, evaluation starts, and one rank's traceback header is the paste's last line (with its
    launcher prefix, without one, and inside a closing fence): a process raised, its error cut off -- unknown, nobody
    named, the full traceback asked for."""
    for tail in ("[rank2]: Traceback (most recent call last):\n", "Traceback (most recent call last):\n",
                 "[rank2]: Traceback (most recent call last):\n\n```\n"):
        d = _report(tmp_path, _RUN + tail)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), (tail, v)
        assert "full traceback" in v["fix"] and "header" in v["summary"], v


def test_a_traceback_header_in_prose_or_after_ctrl_c_is_not_a_cut_traceback(tmp_path):
    """The near shapes: the reporter's sentence quoting the header (not a line the process printed), and a header
    right after the terminal's echoed '^C' (the user's interrupt, read as SIGINT): neither is read as a process's
    traceback cut at its header."""
    v = _report(tmp_path, _RUN + "and then it prints Traceback (most recent call last):\n")["verdict"]
    assert v["cause"] == "none" and v["culprits"] == [], v
    v = _report(tmp_path, _RUN + "^CTraceback (most recent call last):\n")["verdict"]
    assert v["cause"] == "signal" and "header" not in v["summary"], v
