"""How diagnose reads a C++ library's own invariant check raised alike on every rank, as round 73 showed it (session
26): every rank's own traceback ends on the same "RuntimeError: CHECK failed: ..." (protobuf's / glog's / XLA's CHECK
inside the library's lowering of the call) with nothing else failing -- the shared install's build failing alike,
config, no rank (rules BB (1), AF (2), J, AX (4); xla-8074). Each test reads the shape from lines other than the
corpus case's own (other ranks, another check), and a near shape that must NOT be read that way. Paths are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict


def _tb(rank: int, message: str) -> str:
    return (f"[rank{rank}]: Traceback (most recent call last):\n"
            f"[rank{rank}]:   File \"/srv/job/p2p_check.py\", line 41, in <module>\n"
            f"[rank{rank}]:     run()\n"
            f"[rank{rank}]:   File \"/srv/job/p2p_check.py\", line 33, in run\n"
            f"[rank{rank}]:     print(out.cpu())\n"
            f"[rank{rank}]: RuntimeError: {message}\n")


_CHECK = "CHECK failed: it != end(): key not found: _xla_collective_permute_pairs"


def test_every_rank_failing_a_libraries_own_check_alike_is_the_shared_install(tmp_path):
    """Rules BB (1), J: ranks 0, 1 and 2 end on the same library CHECK: the library's build failing alike on every
    rank -- config, no rank; the check's XLA words name torch_xla's version in the fix."""
    d = _report(tmp_path, "".join(_tb(r, _CHECK) for r in (2, 0, 1)))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "torch_xla version" in v["fix"], v


def test_one_ranks_check_alone_or_another_error_alike_is_not_the_shared_install(tmp_path):
    """Near shapes: one rank's CHECK failure alone stays that rank's (rule A); two ranks raising the same error that
    is no library check (a value the script computed) is not read as the library's build."""
    v = _verdict(tmp_path, _tb(1, _CHECK))
    assert "invariant check" not in v["summary"], v
    v = _verdict(tmp_path, _tb(0, "shapes of out and ref differ: 4 vs 8") + _tb(1, "shapes of out and ref differ: "
                                                                                   "4 vs 8"))
    assert v["cause"] != "config" and "invariant check" not in v["summary"], v
