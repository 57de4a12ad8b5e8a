"""Review 98 (of rounds 98-99's diagnose changes), findings 1, 4 and 11.

- Finding 1 (rules A, I, J): a DataLoader worker's SIGTERM raised under a rank's own tag names that rank only when
  nothing shows the SIGTERM to be the job's stop reaching it: not where several ranks raise it alike, not where a
  launcher's failure record names another rank (torchrun tore this one down after it), not where torchrun's agent
  sends its closing signals with no record of this rank exiting on its own, not where another rank fails on its own.
  The shape the round-99 fix was for (ultralytics-16400: one rank's tagged SIGTERM and nothing else) still names it.
- Finding 4 (rule AM (3)): NCCL's 'Cuda failure' WARN in enqueue.cc whose return trail reaches the communicator's
  creation (init.cc) only after five or more other lines still names the traced rank; the trail is read per process
  as it comes, not from the five sampled transport lines. A launch-only trail (no init.cc, channel.cc, alloc.h) of
  any length still names nobody (pytorch-130414).
- Finding 11: a store timeout's count of 0 joined, beside a waitForInput line. A count of 0 of N > 0 reads "only 0 of
  N ranks reached the store" (before and after commit 8dbe1c8a); only a count with no world in it (0 of 0) reaches
  the waitForInput reading, whose rank connected and waited (a victim) -- what 8dbe1c8a changed.
"""
from __future__ import annotations

import pytest

from tests.conftest import child_failed, corpus_case_verdict, failure_record, nccl_cuda_beside_cut, verdict_accused

# -- finding 1 ------------------------------------------------------------------------------------------------------


def _sigterm(tag: str, pid: int) -> str:
    return "".join(f"{tag}{x}\n" for x in (
        "Traceback (most recent call last):",
        '  File "/workspace/train.py", line 210, in <module>',
        "    for batch in loader:",
        f"RuntimeError: DataLoader worker (pid {pid}) is killed by signal: Terminated.",
    ))


def _closing(pid: int) -> str:
    return ("W1205 10:00:05.123000 140 torch/distributed/elastic/multiprocessing/api.py:897] Sending process "
            f"{pid} closing signal SIGTERM\n")


def _record(rank: int, code: int = 1, pid: int = 51201) -> str:
    return ("E1205 10:00:06.456000 140 torch/distributed/elastic/multiprocessing/api.py:869] "
            f"failed (exitcode: {code}) local_rank: {rank} (pid: {pid}) of binary: /usr/bin/python\n"
            + child_failed(failure_record(0, rank, rank, code, pid, time="2024-12-05_10:00:06", host="node1",
                                          traceback=_HINT), end=True))


_HINT = "To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html"


@pytest.mark.parametrize("mine,root,closing", [
    (0, 1, True),    # the reviewer's sigterm_teardown.log
    (3, 5, True),
    (2, 0, False),   # the record alone names another rank
    (6, 7, True),
])
def test_a_tagged_sigterm_of_a_rank_torn_down_after_another_names_nobody(tmp_path, mine, root, closing):
    text = _sigterm(f"[rank{mine}]: ", 51234) + (_closing(51200 + mine) if closing else "") + _record(root)
    v, acc = verdict_accused(tmp_path, text)
    assert (v["cause"], v["culprits"], acc) == ("signal", [], set()), v


@pytest.mark.parametrize("rank,code", [(0, None), (4, -15), (1, -15)])
def test_a_tagged_sigterm_beside_the_agents_closing_signals_alone_names_nobody(tmp_path, rank, code):
    """The agent's closing signals with no record, or a record of this rank stopped by the agent itself (-15)."""
    text = _sigterm(f"[rank{rank}]: ", 60001) + _closing(60100) + (_record(rank, code) if code is not None else "")
    v, acc = verdict_accused(tmp_path, text)
    assert (v["cause"], v["culprits"], acc) == ("signal", [], set()), v


@pytest.mark.parametrize("ranks", [[0, 1, 2, 3], [1, 4], list(range(8))])
def test_the_same_tagged_sigterm_on_several_ranks_names_nobody(tmp_path, ranks):
    """Rule J: every rank's loader stopped alike (the reviewer's sigterm_all.log) is the job's stop."""
    v, acc = verdict_accused(tmp_path, "".join(_sigterm(f"[rank{r}]: ", 51234 + r) for r in ranks))
    assert (v["cause"], v["culprits"], acc) == ("signal", [], set()), v
    assert "that rank's own tag" not in v["summary"], v


@pytest.mark.parametrize("rank,record,closing", [
    (0, False, False),
    (5, False, False),
    (2, True, False),   # the record names the same rank, exit code 1
    (0, True, True),    # ... and the agent then stopped the others
])
def test_one_ranks_tagged_sigterm_still_names_it(tmp_path, rank, record, closing):
    text = (_sigterm(f"[rank{rank}]: ", 3349014) + (_closing(51299) if closing else "")
            + (_record(rank) if record else ""))
    v, acc = verdict_accused(tmp_path, text)
    assert (v["cause"], v["culprits"], acc) == ("signal", [rank], {rank}), v
    assert "other ranks' logs" in v["fix"], v
    v, acc = corpus_case_verdict(tmp_path, "ultralytics-16400-tuner-ddp-rank0-dataloader-worker-sigterm")
    assert (v["cause"], v["culprits"], acc) == ("signal", [0], {0}), v


# -- finding 4 ------------------------------------------------------------------------------------------------------


def _nccl_cuda(host: str, pid: int, dev: int, trail: list[str], rank: int, before: int = 0) -> str:
    # the process's own set-up lines read first fill the five sampled transport lines
    setup = ("NCCL INFO NET/IB : No device found.", "NCCL INFO NCCL_SOCKET_IFNAME set by environment to eth0",
             "NCCL INFO NET/Socket : Using [0]eth0:10.0.0.5<0>", "NCCL INFO Using network Socket",
             "NCCL INFO NCCL_IB_DISABLE set by environment to 1", "NCCL INFO NCCL_DEBUG set by environment to INFO")
    return nccl_cuda_beside_cut(host, pid, dev, "enqueue.cc:88", trail, rank, setup=setup[:before])


_LONG = ["enqueue.cc:120", "enqueue.cc:245", "proxy.cc:880", "proxy.cc:912", "group.cc:110"]


@pytest.mark.parametrize("host,pid,dev,rank,trail", [
    ("node-b", 7731, 2, 2, _LONG + ["init.cc:870", "init.cc:1138"]),  # the reviewer's launch_trail.log
    ("gpu-3", 55120, 0, 5, _LONG + _LONG + ["channel.cc:42", "init.cc:590"]),
    ("box", 918, 1, 1, _LONG + ["include/alloc.h:338", "init.cc:1409"]),
])
def test_a_deep_trail_through_communicator_creation_keeps_the_traced_rank(tmp_path, host, pid, dev, rank, trail):
    v, acc = verdict_accused(tmp_path, _nccl_cuda(host, pid, dev, trail, rank))
    assert (v["cause"], v["culprits"], acc) == ("cuda_error", [rank], {rank}), v


def test_other_transport_lines_read_first_do_not_hide_the_init_trail(tmp_path):
    v, acc = verdict_accused(tmp_path, _nccl_cuda("node-b", 7731, 2, ["init.cc:870", "init.cc:1138"], 2, before=6))
    assert (v["cause"], v["culprits"], acc) == ("cuda_error", [2], {2}), v


@pytest.mark.parametrize("trail", [["enqueue.cc:1382"], _LONG, _LONG + _LONG])
def test_a_launch_only_trail_of_any_length_still_names_nobody(tmp_path, trail):
    v, acc = verdict_accused(tmp_path, _nccl_cuda("gpu-node7", 2532579, 0, trail, 1))
    assert (v["cause"], v["culprits"], acc) == ("cuda_error", [], set()), v


def test_a_launch_only_trail_is_not_confused_by_another_processes_init_trail(tmp_path):
    """The trail is the WARN's own process's: another process's init.cc line does not make it creation."""
    text = _nccl_cuda("gpu-node7", 2532579, 0, ["enqueue.cc:1382"], 1)
    text = "gpu-node7:2532600:2532600 [3] NCCL INFO init.cc:1409 -> 1\n" + text
    v, acc = verdict_accused(tmp_path, text)
    assert (v["cause"], v["culprits"], acc) == ("cuda_error", [], set()), v


# -- finding 11 -----------------------------------------------------------------------------------------------------

_WAIT = ("[rank{r}]:[W101 01:02:03.000000000 socket.cpp:485] [c10d] waitForInput: socket SocketImpl(fd=41, "
         "addr=[10.0.0.5]:5511{r}, remote=[10.0.0.5]:31000) timed out after 600000ms\n")
_BARRIER = ("RuntimeError: Timed out initializing process group in store based barrier on rank: {r}, for key: "
            "store_based_barrier_key:1 (world_size={n}, worker_count=0, timeout=0:30:00)\n")


@pytest.mark.parametrize("r,n,count", [
    (2, 4, _BARRIER),
    (1, 8, "RuntimeError: Socket Timeout: 0/{n} clients joined\n"),
    (1, 2, "WARN lighthouse: No quorum, only have 0 participants, need {n}\n"),
])
def test_a_zero_of_n_count_beside_a_wait_for_input_reads_as_ranks_missing_from_the_store(tmp_path, r, n, count):
    v, acc = verdict_accused(tmp_path, _WAIT.format(r=r) + count.format(r=r, n=n))
    assert (v["cause"], v["culprits"], acc) == ("store_rendezvous", [], set()), v
    assert f"only 0 of {n} ranks reached the store" in v["summary"], v


@pytest.mark.parametrize("r", [2, 6])
def test_a_count_with_no_world_beside_a_wait_for_input_reads_as_a_connected_victim(tmp_path, r):
    v, acc = verdict_accused(tmp_path, _WAIT.format(r=r) + _BARRIER.format(r=r, n=0))
    assert (v["cause"], v["culprits"], acc) == ("store_rendezvous", [], set()), v
    assert "connected to the store at 10.0.0.5:31000" in v["summary"] and "victims" in v["summary"], v
