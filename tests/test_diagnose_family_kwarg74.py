"""How diagnose reads a call refused for a keyword argument ("f() got an unexpected keyword argument 'x'") on one
rank beside ANOTHER rank's own traceback cut in its frames, as round 73's petastorm-742 showed it (fixed in session
26, round 74): several processes failing alike at the same start-up call -- the calling code and the installed
library of mismatched versions, the same install on every rank: config, nobody named (rules AF (2), J, AZ (3)). The
near shape -- the same refusal on one rank with no other rank's traceback -- stays rule A's (compile66's). Paths,
names and ranks are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict

_EXC = "[1,4]<stderr>:TypeError: open_shards() got an unexpected keyword argument 'shuffle_seed'\n"
_CUT = ("[1,9]<stderr>:Traceback (most recent call last):\n"
        "[1,9]<stderr>:  File \"/srv/job/train.py\", line 88, in <module>\n"
        "[1,9]<stderr>:    main()\n"
        "[1,9]<stderr>:  File \"/srv/job/train.py\", line 41, in main\n")


def test_a_refused_keyword_beside_another_ranks_cut_traceback_is_the_install(tmp_path):
    """Rank 4 refused a keyword, rank 9's traceback is cut in its frames: several fail alike -- config, nobody
    accused, the fix matching the installed versions."""
    d = _report(tmp_path, _EXC + _CUT)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "pip install" in v["fix"] and "version" in v["fix"], v


def test_a_refused_keyword_alone_or_beside_its_own_cut_traceback_is_not_the_install(tmp_path):
    """Near shapes: the refusal alone (no other process shown), or with a cut traceback of the SAME rank: no second
    process is shown failing -- not read as several failing alike."""
    assert _verdict(tmp_path, _EXC)["cause"] != "config"
    same = _EXC + _CUT.replace("[1,9]", "[1,4]")
    assert "several processes fail alike" not in _verdict(tmp_path, same)["summary"]


def test_the_two_mpi_ranks_under_one_launcher_prefix_are_still_two_processes(tmp_path):
    """A launcher's "[rank3]: " prefix on every line: the lines' own MPI tags ([1,4], [1,9]) still tell two
    processes apart -- the same reading, config."""
    text = "".join(f"[rank3]: {line}\n" for line in (_EXC + _CUT).splitlines())
    assert _verdict(tmp_path, text)["cause"] == "config"
