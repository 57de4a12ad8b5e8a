"""The second review of session 37's diagnose code (rounds 96-97): two new readings named a rank the lines show as a
victim. Ascend's error header lent its RankID to any OOM line under it -- a collective's failure header (ERR02xxx
DIST, a waiting rank's) to a Python OOM printed after it; and an unranked OOM went to the one rank whose cut traceback
was waiting in a collective. Each near shape keeps the reading its fix was for."""
from __future__ import annotations

from tests.conftest import verdict_accused

_DIST = "[ERROR] 2024-05-01-10:00:00 (PID:4321, Device:{d}, RankID:{r}) ERR02200 DIST call hccl api failed.\n"
_PTA = "[ERROR] 2024-08-28-16:15:00 (PID:15597, Device:{d}, RankID:{r}) ERR00100 PTA call acl api failed\n"
_EL = ("EL0004: 2024-08-28-16:15:00.358.141 Failed to allocate memory.\n"
       "        Possible Cause: Available memory is insufficient.\n"
       "        rtFftsPlusTaskLaunch execute failed, reason=[driver error:out of memory][FUNC:FuncErrorReason]\n")


def test_a_collective_failure_header_lends_no_rank_to_an_oom_after_it(tmp_path):
    for r in (3, 6):
        text = (_DIST.format(d=r, r=r) + "EH9999: Inner Error!\n"
                f"EH9999: [PID: 4321] wait timeout for notify, rank {r} waiting remote rank 0\n"
                "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.00 GiB total capacity)\n")
        v, acc = verdict_accused(tmp_path, text)
        assert v["cause"] == "gpu_oom" and v["culprits"] == [] and not acc, (r, v)


def test_an_oom_block_under_another_ranks_collective_header_names_no_rank(tmp_path):
    # rank 2's allocation block, then rank 5's DIST header, then the block's driver line: not rank 5's
    el = _EL.splitlines(keepends=True)
    text = _PTA.format(d=2, r=2) + el[0] + _DIST.format(d=5, r=5) + el[2]
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "gpu_oom" and 5 not in acc and v["culprits"] != [5], v


def test_cann_allocation_block_under_its_own_header_still_names_the_rank(tmp_path):
    for r in (2, 7):
        v, acc = verdict_accused(tmp_path, _PTA.format(d=r, r=r) + _EL)
        assert (v["cause"], v["culprits"]) == ("gpu_oom", [r]), (r, v)


def _cut(rank: int, call: str) -> str:
    return (f"[rank{rank}]: Traceback (most recent call last):\n"
            f'[rank{rank}]:   File "/app/train.py", line 88, in <module>\n'
            f"[rank{rank}]:     main()\n"
            f'[rank{rank}]:   File "/app/train.py", line 70, in main\n'
            f"[rank{rank}]:     {call}\n")


def test_an_unranked_oom_goes_to_no_rank_whose_traceback_waits_in_a_collective(tmp_path):
    oom = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n"
    for rank, call in ((1, "dist.barrier()"), (3, "dist.all_reduce(t)"), (2, "work.wait()")):
        v, acc = verdict_accused(tmp_path, oom + _cut(rank, call))
        assert v["cause"] == "gpu_oom" and v["culprits"] == [] and not acc, (rank, call, v)


def test_an_unranked_oom_beside_a_traceback_cut_in_compute_stays_that_ranks(tmp_path):
    oom = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n"
    for rank, call in ((1, "loss.backward()"), (0, "out = model(batch)")):
        v, _ = verdict_accused(tmp_path, oom + _cut(rank, call))
        assert (v["cause"], v["culprits"]) == ("gpu_oom", [rank]), (rank, call, v)
