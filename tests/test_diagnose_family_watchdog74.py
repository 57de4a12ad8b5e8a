"""A rank's watchdog timeout line cut right after "[Rank N] Watchdog caught" (the paste or the terminal ended there) is
still that rank's timeout, in a collective the lines do not show. Round 74 (motr-63) showed it: two ranks, rank 0 in
SeqNum=1 and rank 1's line cut at the same moment -- every rank inside the first collective, network_setup (rule H),
not rank 1 missing."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict
from tests.conftest import watchdog_line

_INIT = "| distributed init (rank 0): env://\n| distributed init (rank 1): env://\n\n"


def test_a_watchdog_line_cut_after_watchdog_caught_is_that_ranks_timeout(tmp_path):
    text = (_INIT + watchdog_line(0, 1, "ALLREDUCE", 1809347, 1800000, style="1.x", at=821) + "\n"
            "[E ProcessGroupNCCL.cpp:821] [Rank 1] Watchdog caught\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("network_setup", []) and not _accused(d), v
    assert "NCCL_SOCKET_IFNAME" in v["fix"], v["fix"]


def test_watchdog_caught_without_a_rank_tag_or_before_more_text_is_not_read_as_a_timeout(tmp_path):
    base = _INIT + watchdog_line(0, 1, "ALLREDUCE", 1809347, 1800000, style="1.x", at=821) + "\n"
    # prose ending in the words, no "[Rank N] " tag: not the watchdog's line
    prose = base + "I think the Watchdog caught\n"
    assert _verdict(tmp_path, prose, "prose.log")["cause"] == "rank_missing"
    # the tag, but other words after "Watchdog caught": not this cut message
    other = base + "[E ProcessGroupNCCL.cpp:821] [Rank 1] Watchdog caught nothing here\n"
    assert _verdict(tmp_path, other, "other.log")["cause"] == "rank_missing"


_DEPRECATED = ("/opt/conda/lib/python3.8/site-packages/torch/distributed/launch.py:180: FutureWarning: The module "
               "torch.distributed.launch is deprecated\n")


def test_a_rank_prefix_on_the_launchers_own_deprecation_warning_shows_no_rank(tmp_path):
    """torch.distributed.launch's FutureWarning is printed by the launcher before any worker starts: a "[rank3]: "
    prefix a collector put on it (every line of its stream tagged) is no rank 3 alive, so the world of two read from
    the timeouts stays two and both are inside the first collective (round 74's motr-63 under --perturb rankprefix).
    A rank 3's own line (DDP's warning in its worker) still shows rank 3, outside the collective: rank_missing."""
    tail = (_INIT + "[rank0]: " + watchdog_line(0, 1, "ALLREDUCE", 1809347, 1800000, style="1.x", at=821) + "\n"
            "[rank1]: [E ProcessGroupNCCL.cpp:821] [Rank 1] Watchdog caught\n")
    d = _report(tmp_path, "[rank3]: " + _DEPRECATED + tail)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("network_setup", []) and not _accused(d), v
    ddp = ("[rank3]: /opt/conda/lib/python3.8/site-packages/torch/nn/parallel/distributed.py:1204: UserWarning: "
           "find_unused_parameters=True was specified in DDP constructor, but did not find any unused parameters in "
           "the forward pass.\n")
    assert _verdict(tmp_path, ddp + tail, "ddp.log")["cause"] == "rank_missing"
