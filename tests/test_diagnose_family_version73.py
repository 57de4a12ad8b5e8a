"""How diagnose reads a call refused for its keyword argument, as round 73 showed it (session 26): a framework's own
per-rank error lines reporting two ranks or more failing alike on "X() got an unexpected keyword argument 'k'" are
the code and the installed library it calls written for different versions -- config, no rank (rules AF (2), J;
lmdeploy-1273). Each test reads the shape from lines other than the corpus
case's own (other ranks, names, wordings), and a near shape that must NOT be read that way. Hosts, pids and paths are
made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict
from tests.conftest import failure_record


def _framework_lines(kw: str, ranks=(0, 3)) -> str:
    return "".join(f"2025-05-02 11:20:0{i},51{i} - servekit - ERROR - rank[{r}] failed with error: __init__() got an "
                   f"unexpected keyword argument '{kw}'\n" for i, r in enumerate(ranks))


def test_every_rank_refusing_a_constructors_keyword_is_a_version_mismatch(tmp_path):
    """Rules AF (2), J: a framework's engine reports each of its ranks failing alike on a constructor refusing a
    keyword (a config class of an installed library older than the file or caller that passes it): config, no rank,
    the fix matching the versions."""
    d = _report(tmp_path, "2025-05-02 11:19:58,001 - servekit - INFO - Checking model.\n"
                + _framework_lines("rank_pattern_v2"))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "version" in v["fix"] and "pip install -U" in v["fix"], v


def test_one_ranks_refusal_alone_is_not_read_as_every_ranks(tmp_path):
    """Near shape: the framework reports one rank alone failing on the refused keyword: one line says nothing of the
    other ranks (as compile66's bare line) -- not read as the shared install."""
    v = _verdict(tmp_path, _framework_lines("rank_pattern_v2", ranks=(1,)))
    assert "ranks are reported failing alike" not in v["summary"], v


def test_a_keyword_refused_where_the_launchers_record_names_the_rank_stays_that_ranks(tmp_path):
    """Near shape: the same refusal in rank 1's own traceback, torchrun's failure record naming rank 1 (exit code 1)
    and the others stopped by it: rule A names the rank the record names -- not read as the shared install."""
    text = ("[rank1]: Traceback (most recent call last):\n"
            "[rank1]:   File \"/opt/job/evolve.py\", line 211, in <module>\n"
            "[rank1]:     run_phase(pop, keep_best=4)\n"
            "[rank1]: TypeError: run_phase() got an unexpected keyword argument 'keep_best'\n"
            "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
            "============================================================\n"
            "evolve.py FAILED\n"
            "------------------------------------------------------------\n"
            "Failures:\n"
            + failure_record(1, 0, 0, -15, 4101) +
            "------------------------------------------------------------\n"
            "Root Cause (first observed failure):\n"
            + failure_record(0, 1, 1, 1, 4102) +
            "============================================================\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] != "config" and v["culprits"] == [1], v


def test_other_keyword_words_are_not_read_as_a_refused_call(tmp_path):
    """Near shape: a config parser's own complaint about an unknown key ('unexpected keyword argument in section
    [model]') is no call refusing its argument: not read as the version mismatch."""
    line = ("2025-05-02 11:20:00,510 - servekit - ERROR - rank[{}] failed with error: unexpected keyword argument in "
            "section [model]: 'rank_pattern_v2'\n")
    v = _verdict(tmp_path, line.format(0) + line.format(1))
    assert "ranks are reported failing alike" not in v["summary"], v
