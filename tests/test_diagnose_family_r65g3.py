"""How diagnose reads round 65's cases of fixer g3 (session 23): two processes' exception lines interleaved into one
("RuntimeError    : <the other's source line>Expected to mark a variable ready only once.", rules J, AW), a connection
error raised where a rank fetches its next DataLoader batch (rules A, AN (1), F's class), and a CUDA OOM that names
the failing process by its pid only (rule BA (2), extending U (3)). Each test reads the shape from lines other than the
corpus case's own (other ranks, sizes, paths, wordings), and a near shape that must NOT be read that way. Hosts, pids
and paths are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict


# --- two processes' tracebacks ending at once, their last lines interleaved ---------------------------------------
def test_an_exception_class_split_from_its_colon_by_another_writers_indent_is_that_exception(tmp_path):
    """Two processes raising DDP's reducer error at once: one's class, the other's frame indentation, the first's
    ': ', the other's source line run into the first's message. Python never prints blanks before the colon, so it is
    the same exception: DDP's reducer error every rank's module raises alike (rules J, AW) -- unknown, nobody named,
    the reducer's own fix."""
    frame = '  File "/env/lib/python3.11/site-packages/torch/autograd/graph.py", line 768, in _engine_run_backward\n'
    text = (frame + "\n" + frame + "    return Variable._execution_engine.run_backward(\n"
            "RuntimeError  : return Variable._execution_engine.run_backward(Expected to mark a variable ready only "
            "once.\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), v
    assert "use_reentrant=False" in v["fix"] and "static_graph" in v["fix"], v["fix"]


def test_a_table_of_error_counts_aligned_on_its_colons_is_no_exception(tmp_path):
    """The near shape: a summary table whose rows align an exception's name and a count on their colons ('ValueError
    : 3') is no traceback's last line -- a message starts with words, not a bare number: nothing failed."""
    text = ("summary of the evaluation set (documents skipped, by exception type):\n"
            "RuntimeError      : 3\n"
            "ValueError        : 12\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "none" and v["culprits"] == [], v
