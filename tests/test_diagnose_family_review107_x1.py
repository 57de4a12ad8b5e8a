"""Review 107's aside (session 44, x1): a rank's own rank-tagged traceback beside the other ranks' watchdog timeouts.

The reviewer's a1/b1/c1/c2 and the lead's aside1.log: ranks 0 and 2 time out in ALLREDUCE #5 and rank 1's traceback
("[rank1]: ... KeyError: 'labels'") is in the same file. It read as rank_missing (low), "no log lines at all from
rank(s) 1": the traceback is no event of rank 1's state, so reason.hang called rank 1 unlogged and _timeouts /
_missing decided before the exception's own reading. Now (reason.raised_outside) a rank not inside the collective
whose own traceback ends in an exception of its own code raised and left it: the exception's reading decides
(rule A: culprit rank 1, medium, unknown for a bare Python exception; a job-wide settings check names nobody), the
timed-out ranks are victims. Never read so: a victim's exception (a lost peer, an aborted communicator, a timeout, the
launcher's stop, KeyboardInterrupt, torch unpickling what a broadcast received), a rank itself timed out, two ranks
raising (nobody named). The shapes the timeout readers are for keep their readings. Ranks, paths and numbers are
made up."""

from __future__ import annotations

import pytest

from ncclDoctor.diagnose.ingest import _file_input, ingest_all
from ncclDoctor.diagnose.reason import raised_outside
from tests.conftest import diagnose_text, verdict_accused


def _wd(r: int, op: str = "ALLREDUCE", seq: int = 5) -> str:
    return (f"[rank{r}]:[E1206 08:00:00.000000 ProcessGroupNCCL.cpp:616] [Rank {r}] Watchdog caught collective "
            f"operation timeout: WorkNCCL(SeqNum={seq}, OpType={op}, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran "
            "for 600001 milliseconds before timing out.\n")


def _tb(r: int, exc: str, code: str = "batch = next(it)", path: str = "/app/train.py") -> str:
    p = f"[rank{r}]: "
    return (f"{p}Traceback (most recent call last):\n{p}  File \"{path}\", line 80, in <module>\n{p}    {code}\n"
            f"{p}{exc}\n")


def _raised(tmp_path, text: str) -> dict:
    """reason.raised_outside on the lines read as diagnose reads them: the ranks it says raised and left."""
    f = tmp_path / "raised.log"
    f.write_text(text)
    return raised_outside(ingest_all([_file_input(str(f))]))


_OWN = ["KeyError: 'labels'", "TypeError: barrier() got an unexpected keyword argument 'timeout'",
        "ValueError: could not convert string to float: 'abc'", "IndexError: list index out of range"]


# --- the reviewer's input (varied) ---------------------------------------------------------------------------------
@pytest.mark.parametrize("exc", _OWN)
@pytest.mark.parametrize("waiters,raiser", [((0, 2), 1), ((0, 1, 3), 2), ((1,), 0), ((0, 1, 2, 4, 5, 6, 7), 3)])
@pytest.mark.parametrize("first", [True, False])
def test_a_ranks_own_traceback_beside_the_others_timeouts_names_it(tmp_path, exc, waiters, raiser, first):
    """aside1.log / b1.log / c2.log (varied): the raising rank is the culprit (medium) on its own exception's
    reading, the timed-out ranks are innocent, and nothing says the rank left no lines -- its traceback before or
    after the watchdog lines."""
    wd = "".join(_wd(r) for r in waiters)
    tb = _tb(raiser, exc)
    d = diagnose_text(tmp_path, tb + wd if first else wd + tb)
    v = d["verdict"]
    assert v["cause"] == "unknown" and v["culprits"] == [raiser] and v["confidence"] == "medium", v
    assert exc.split(":")[0] in v["summary"], v
    assert not any(r in v["culprits"] for r in waiters)
    # the rank table says of the raising rank what the verdict says (the hang reading alone was low)
    roles = {row["rank"]: row["role"] for row in d["ranks"]}
    assert roles[raiser] == "culprit (medium)" and all(roles[r] == "victim (timed out)" for r in waiters), roles
    assert "no log lines at all" not in str(d), d["conclusions"]


def test_the_leads_aside1_log(tmp_path):
    """/tmp/s45/aside1.log verbatim: culprit rank 1 (medium), unknown; ranks 0 and 2 innocent."""
    text = _wd(0) + _wd(2) + _tb(1, "KeyError: 'labels'")
    assert set(_raised(tmp_path, text)) == {1}  # the helper sees what the filter keeps
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "unknown" and v["culprits"] == [1] and v["confidence"] == "medium", v
    assert acc == {1}
    assert "KeyError" in v["summary"] and "no log lines" not in v["summary"]


def test_a_raising_rank_with_other_lines_of_its_own_is_read_by_its_exception(tmp_path):
    """A variant: rank 1 also printed an NCCL INFO line (so it had lines): its traceback decides, not 'rank 1 logged
    no timeout' as rank_missing."""
    text = (_wd(0) + _wd(2) + "host1:12:34 [1] NCCL INFO comm 0x55 rank 1 nranks 3 cudaDev 1 busId 1000 - Init "
            "COMPLETE\n" + _tb(1, "KeyError: 'labels'"))
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "unknown" and v["culprits"] == [1] and acc == {1}, v


@pytest.mark.parametrize("op", ["BROADCAST", "ALLREDUCE"])
def test_an_exception_raised_issuing_the_collective_names_its_rank(tmp_path, op):
    """c1.log (varied): rank 1's traceback runs through torch's broadcast and ends in its own RuntimeError (an
    inference tensor updated in place): it never joined; rank 0 timed out waiting."""
    exc = ("RuntimeError: Inplace update to inference tensor outside InferenceMode is not allowed.You can make a "
           "clone to get a normal tensor before doing inplace update.")
    tb = ("[rank1]: Traceback (most recent call last):\n[rank1]:   File \"/app/serve.py\", line 80, in <module>\n"
          "[rank1]:     dist.broadcast(t, src=0)\n[rank1]:   File \"/usr/lib/python3/site-packages/torch/distributed/"
          "distributed_c10d.py\", line 2400, in broadcast\n[rank1]:     work = group.broadcast([tensor], opts)\n"
          f"[rank1]: {exc}\n")
    v, acc = verdict_accused(tmp_path, _wd(0, op) + tb)
    assert v["culprits"] == [1] and acc == {1} and "no log lines" not in v["summary"], v


def test_a_job_wide_settings_check_beside_timeouts_names_nobody(tmp_path):
    """a1.log: rank 1's traceback ends in vLLM's world-size check, a setting every rank shares: read as it reads
    alone (config, nobody named), not rank_missing with 'no log lines at all from rank(s) 1'."""
    tb = ("[rank1]: Traceback (most recent call last):\n[rank1]:   File \"/app/eval.py\", line 40, in <module>\n"
          "[rank1]:     llm = LLM(model=path, tensor_parallel_size=4)\n[rank1]:   File \"/usr/lib/python3/"
          "site-packages/vllm/distributed/parallel_state.py\", line 900, in initialize_model_parallel\n"
          "[rank1]:     raise RuntimeError(\n[rank1]: RuntimeError: world_size (1) is not equal to "
          "tensor_model_parallel_size (4) x pipeline_model_parallel_size (1)\n")
    d = diagnose_text(tmp_path, _wd(0) + _wd(2) + _wd(3) + tb)
    assert d["verdict"]["cause"] == "config" and d["verdict"]["culprits"] == [], d["verdict"]
    assert "no log lines at all" not in str(d)


# --- never a victim's traceback, never a rank itself timed out, two raising name nobody --------------------------
@pytest.mark.parametrize("exc", [
    "torch.distributed.DistBackendError: NCCL communicator was aborted on rank 1.",
    "RuntimeError: Connection reset by peer",
    "BrokenPipeError: [Errno 32] Broken pipe",
    "KeyboardInterrupt",
    "torch.distributed.elastic.multiprocessing.api.SignalException: Process 123 got signal: 15",
    "RuntimeError: [Rank 1] Watchdog caught collective operation timeout",
    "TimeoutError: timed out",
])
def test_a_victims_traceback_is_never_the_culprit(tmp_path, exc):
    """A traceback ending in the peer-lost / abort / timeout / stop family is a victim's symptom: rank 1 is not
    named with medium confidence on it. raised_outside must not take it as "raised and left" (most of these are
    read by their own readers first -- a socket error, an aborted communicator -- and never reach it as a plain
    exception; TimeoutError does, and only its filter keeps the rank out)."""
    text = _wd(0) + _wd(2) + _tb(1, exc, "dist.all_reduce(t)")
    assert _raised(tmp_path, text) == {}  # the filter itself: a victim's exception is never "raised and left"
    v, acc = verdict_accused(tmp_path, text)
    assert v["culprits"] == [] and acc == set(), v  # nobody named: the lines prove no rank left on its own
    # and read positively: the ranks that timed out are victims in the rank table, rank 1 at most a low lead there
    roles = {r["rank"]: r["role"] for r in diagnose_text(tmp_path, text, "table.log")["ranks"]}
    assert roles[0] == roles[2] == "victim (timed out)", roles
    assert roles[1] not in ("culprit (medium)", "culprit (high)"), roles


def test_a_broadcast_object_lists_unpickling_is_a_victims(tmp_path):
    """ms-swift-4340's shape: rank 6's EOFError is torch unpickling what broadcast_object_list received (the
    broadcast was aborted under it): it was inside, not raising on its own -- nobody named."""
    p = "[rank6]: "
    tb = (f"{p}Traceback (most recent call last):\n{p}  File \"/usr/lib/python3/site-packages/torch/distributed/"
          f"distributed_c10d.py\", line 3504, in broadcast_object_list\n{p}    object_list[i] = _tensor_to_object("
          f"obj_view, obj_size, group)\n{p}  File \"/usr/lib/python3/site-packages/torch/distributed/"
          f"distributed_c10d.py\", line 2961, in _tensor_to_object\n{p}    return _unpickler(io.BytesIO(buf)).load()\n"
          f"{p}EOFError: Ran out of input\n")
    v, acc = verdict_accused(tmp_path, tb + _wd(7, "BROADCAST", 57) + _wd(2, "BROADCAST", 57))
    assert v["cause"] == "rank_missing" and acc == set(), v


def test_a_rank_itself_timed_out_is_not_named_on_its_traceback(tmp_path):
    """Rank 1 timed out too: its traceback is no proof it left -- not named with medium confidence."""
    text = _wd(0) + _wd(2) + _tb(1, "KeyError: 'labels'") + _wd(1)
    assert _raised(tmp_path, text) == {}  # the filter itself: a rank inside the collective did not leave it
    v, acc = verdict_accused(tmp_path, text)
    assert v["culprits"] == [] and acc == set(), v  # nobody named: every rank shown was inside the collective
    # and read positively: all three ranks timed out and the table calls each a victim, none a culprit
    roles = {r["rank"]: r["role"] for r in diagnose_text(tmp_path, text, "table.log")["ranks"]}
    assert all(roles[r] == "victim (timed out)" for r in (0, 1, 2)), roles


def test_two_ranks_raising_their_own_name_nobody(tmp_path):
    """Ranks 1 and 3 each raise their own exception beside 0's and 2's timeouts: which failed first the lines do not
    say -- nobody named, and neither is called without lines."""
    d = diagnose_text(tmp_path, _wd(0) + _wd(2) + _tb(1, "KeyError: 'labels'") + _tb(3, "IndexError: list index "
                                                                                       "out of range"))
    assert d["verdict"]["culprits"] == [] and "no log lines at all" not in d["verdict"]["summary"], d["verdict"]


# --- the shapes the timeout readers are for keep their readings ----------------------------------------------------
def test_timeouts_alone_still_read_rank_missing_with_the_unshown_rank_a_lead(tmp_path):
    """No traceback: ranks 0 and 2 inside ALLREDUCE #5, rank 1 not shown -- rank_missing (low), its lines absent."""
    d = diagnose_text(tmp_path, _wd(0) + _wd(2))
    assert d["verdict"]["cause"] == "rank_missing" and d["verdict"]["confidence"] == "low", d["verdict"]
    assert "no log lines at all from rank(s) 1" in str(d["conclusions"])


@pytest.mark.parametrize("exc", _OWN[:2])
def test_the_traceback_alone_still_reads_as_its_own(tmp_path, exc):
    """b3.log's shape: the traceback alone (no timeouts) reads as rank 1's own failure, as before."""
    v, acc = verdict_accused(tmp_path, _tb(1, exc))
    assert v["culprits"] == [1] and acc == {1}, v
