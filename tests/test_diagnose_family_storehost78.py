"""The store's host closing under a ncclUniqueId wait cut before its error (round 78).

continual-vla-rl-2: the paste begins inside c10d's message for a rank fetching rank 0's ncclUniqueId through the store
(". This may indicate a possible application crash on rank 0 or a network set up issue."), then rank 1's own store
read fails on the store's side closing ("Failed to recv, got 0 bytes. Connection was likely closed"), every line
behind a Ray actor's "(EmbodiedFSDPActor pid=N)". The connection was lost, not timed out, and with Ray actors (no
torchrun agent) an env:// group's TCPStore lives in rank 0's actor: rank 0 exited first -- early_exit, rank 0, rank 1
its victim (lead rules AT (2), AZ (1), AK (1)); it was read as rank 0 never arriving (rank_missing). Near shapes: the
cut wait alone stays rule G's; the closed store without the actors' prefix names no host.

vllm-18492: a test's own processes all pass their check, then rank 1's [W] store read is reset and pytest prints the
test FAILED: a store warning is news when a failure follows (rule N), and with the test starting its processes itself
the store lived in rank 0's process -- rank 0 left first. The same warning with nothing failing stays a warning.
"""
from __future__ import annotations

from tests.conftest import ROOT
from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report

_CUT = ". This may indicate a possible application crash on rank 0 or a network set up issue.\n"
_CLOSED = ("(EmbodiedFSDPActor pid=194723) [rank1]:[W504 16:19:23.815092992 TCPStore.cpp:138] [c10d] "
           "recvValueWithTimeout failed on SocketImpl(fd=103, addr=[node]:38272, remote=[node]:39067): Failed to "
           "recv, got 0 bytes. Connection was likely closed. Did the remote server shutdown or crash?\n")


def test_a_cut_uniqueid_wait_then_the_store_closing_in_ray_actors_is_rank_0_leaving(tmp_path):
    d = _report(tmp_path, _CUT + _CLOSED)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("early_exit", [0]) and 1 not in _accused(d), v


def test_the_cut_wait_alone_or_no_actor_prefix_is_not_read_so(tmp_path):
    alone = _report(tmp_path, _CUT)["verdict"]
    assert alone["cause"] != "early_exit", alone
    bare = _report(tmp_path, _CUT + _CLOSED.replace("(EmbodiedFSDPActor pid=194723) ", ""))["verdict"]
    assert bare["culprits"] == [], bare


# the pasted log's own first line, read from the case it came from: pytest's summary of the reporter's failed test
# ("FAILED distributed/test_shm_broadcast.py::test_shm_broadcast - AssertionError: ..."), input to diagnose
_PYTEST_SUMMARY = (ROOT / "tests" / "fixtures" / "corpus" / "vllm-18492-shm-broadcast-test-rank1-store-recvvector-reset"
                   / "input.log").read_text().splitlines()[0] + "\n"
_READ = ("[rank1]:[W520 21:12:22.801158701 TCPStore.cpp:115] [c10d] recvVector failed on SocketImpl(fd=24, "
         "addr=[host]:32772, remote=[host]:49587): Connection reset by peer\n")


def test_a_failed_tests_store_read_reset_is_rank_0_leaving_first(tmp_path):
    """vllm-18492: a test's own processes (no torchrun), every rank passed its check, rank 1's store read reset,
    pytest's FAILED line: the store lived in rank 0's process, which left first (rules N, AT (2), AZ (1))."""
    d = _report(tmp_path, _PYTEST_SUMMARY + "StatelessProcessGroup passed the test!\n" * 3 + _READ)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("early_exit", [0]) and 1 not in _accused(d), v


def test_the_reset_read_with_no_failed_test_is_still_a_warning(tmp_path):
    assert _report(tmp_path, _READ)["verdict"]["cause"] == "none"
