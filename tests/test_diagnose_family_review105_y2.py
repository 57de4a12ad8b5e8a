"""Round 105's fixes reviewed (review 105 (1) finding 3, review 105 (2) findings 1 and 2).

Several ranks ending on different signals with a native crash among them (lone.several_failures' `unlike`,
lone.crash_ends): the crashed ranks are the culprits. A peer's SIGABRT after the crash is its abort once its
communicator went down, several ranks SIGKILLed alike or a SIGKILL beside a SIGTERM teardown are the launcher's
teardown: none of them is named. A lone SIGKILL beside the crash, no teardown shown, is a kill of its own and is named
too (round 105's ezpz-210: rank 0 signal 11, rank 4 signal 9 -> 0, 4).

Open MPI's crash handler's first line with its signal cut (verdict.exits._native_crash_cut) reads as a lone crash only
when nothing else is shown failing: a traceback's exception or an MPI error line keeps the reading that quotes it.
"""
from __future__ import annotations

import pytest

from tests.conftest import verdict_accused


def _pals(host: str, rank: int, sig: int) -> str:
    core = " and dumped core" if sig in (11, 6, 7, 4, 8) else ""
    return f"{host}: rank {rank} died from signal {sig}{core}\n"


@pytest.mark.parametrize("crash,other,host", [
    (11, 6, "x3001c0s13b0n0.hostmgmt"),
    (11, 6, "x3005c0s13b0n0"),
    (4, 6, "x3001c0s13b0n0.hostmgmt"),
    (8, 6, "nid001"),
])
@pytest.mark.parametrize("order", ["crash_first", "abort_first"])
def test_abort_beside_crash_names_the_crash_only(tmp_path, crash, other, host, order):
    lines = [_pals(host, 0, crash), _pals(host.replace("0n0", "1n0"), 4, other)]
    if order == "abort_first":
        lines.reverse()
    v, acc = verdict_accused(tmp_path, "".join(lines))
    assert acc == {0}
    assert v["culprits"] == [0]
    assert "rank 4" in v["summary"] and "abort" in v["summary"]


@pytest.mark.parametrize("crashed,killed", [(2, [0, 1, 3]), (0, [1, 2]), (3, [0, 1, 2, 4, 5, 6, 7])])
def test_several_sigkilled_after_crash_are_teardown(tmp_path, crashed, killed):
    text = _pals("x3005c0s13b0n0", crashed, 11) + "".join(_pals("x3005c0s13b0n0", r, 9) for r in killed)
    v, acc = verdict_accused(tmp_path, text)
    assert acc == {crashed}
    assert "teardown" in v["summary"]
    assert "SIGKILL (-9) is a kill from outside" not in v["fix"]


@pytest.mark.parametrize("terms", [[0, 2], [0]])
def test_sigkill_beside_sigterm_teardown_not_named(tmp_path, terms):
    text = (_pals("x3005c0s13b0n0", 1, 11) + "".join(_pals("x3005c0s13b0n0", r, 15) for r in terms)
            + _pals("x3005c0s13b0n0", 3, 9))
    v, acc = verdict_accused(tmp_path, text)
    assert acc == {1}
    assert 3 not in v["culprits"]


@pytest.mark.parametrize("host", ["", "x3001c0s13b0n0.hostmgmt: ", "x1921c0s3b0n0: "])
@pytest.mark.parametrize("crash,killed", [(0, 4), (2, 0), (1, 3)])
def test_lone_sigkill_beside_crash_still_named(tmp_path, host, crash, killed):
    # the shape round 105's fix was for (ezpz-210): one crash, one other rank SIGKILLed, no teardown shown
    text = f"{host}rank {crash} died from signal 11 and dumped core\n{host}rank {killed} died from signal 9\n"
    v, acc = verdict_accused(tmp_path, text)
    assert acc == {crash, killed}
    assert v["confidence"] == "medium"
    assert "SIGKILL (-9) is a kill from outside" in v["fix"]


def test_sigsegv_beside_sigterm_names_the_crash(tmp_path):
    text = _pals("x3005c0s13b0n0", 0, 11) + _pals("x3005c0s13b0n0", 1, 15)
    v, acc = verdict_accused(tmp_path, text)
    assert acc == {0}


_SIG = "[node1:23456] *** Process received signal ***\n"


@pytest.mark.parametrize("before,quoted", [
    ("[node2:12345] *** An error occurred in MPI_Allreduce\n[node2:12345] *** reported by process [1234,3]\n",
     "MPI_Allreduce"),
    ("[node2:12345] *** An error occurred in MPI_Bcast\n", "MPI_Bcast"),
    ('node2: Traceback (most recent call last):\nnode2:   File "/w/train.py", line 10, in <module>\n'
     "node2: ValueError: bad shape for batch\n", "bad shape for batch"),
    ('Traceback (most recent call last):\n  File "/w/train.py", line 10, in <module>\n'
     "KeyError: 'labels'\n", "labels"),
])
def test_crash_cut_steps_aside_for_a_shown_failure(tmp_path, before, quoted):
    v, acc = verdict_accused(tmp_path, before + _SIG)
    assert "nothing else is shown failing" not in v["summary"]
    assert quoted in v["summary"] + v["fix"]
    assert not acc


@pytest.mark.parametrize("head", ["", "NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n",
                                  "[node1:23456] [ 0] some prelude\n"])
def test_crash_cut_alone_still_reads(tmp_path, head):
    # the shape round 105's fix was for (nccl-1669): the handler's first line last, nothing else failing
    v, acc = verdict_accused(tmp_path, head + _SIG)
    assert "received a fatal signal" in v["summary"]
    assert v["confidence"] == "low" and not acc
