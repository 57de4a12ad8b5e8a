"""Two shapes round 99 showed read otherwise than the experts read them (rules A, I, BO (4), AM (3), AN (1), AT (1),
AC (1)).

- A DataLoader worker stopped by SIGTERM, its RuntimeError raised under a rank's own tag ("[rank0]: RuntimeError:
  DataLoader worker (pid N) is killed by signal: Terminated."; ultralytics-16400): the signal class as before, and
  the rank the line's own tag names is the culprit, as rule BO (4) names the rank of a worker's death. Not read so:
  the same line untagged (mmsegmentation-2085) names nobody.
- NCCL's untagged 'Cuda failure' WARN at a collective's launch (enqueue.cc, its trail only "enqueue.cc:N -> 1"), one
  process, then a rank's traceback cut in its barrier before any error text (pytorch-130414): cuda_error, nobody
  named -- rule AM (3) names the rank only for a failure at communicator creation. Not read so: a WARN whose trail
  runs through the communicator's creation (alloc.h, channel.cc, init.cc; diffusion-pipe-292), even one raised in
  enqueue.cc (old NCCL's kernel set-up at init), still names the traceback's rank.
"""
from __future__ import annotations

import pytest

from tests.conftest import corpus_case_verdict, nccl_cuda_beside_cut, verdict_accused


def _sigterm(rank: int | None, pid: int) -> str:
    tag = f"[rank{rank}]: " if rank is not None else ""
    return "".join(tag + x + "\n" for x in (
        "Traceback (most recent call last):",
        '  File "/opt/conda/lib/python3.11/site-packages/torch/utils/data/dataloader.py", line 1251, in '
        "_try_get_data",
        "    data = self._data_queue.get(timeout=timeout)",
        '  File "/opt/conda/lib/python3.11/site-packages/torch/utils/data/_utils/signal_handling.py", line 73, in '
        "handler",
        "    _error_if_any_worker_fails()",
        f"RuntimeError: DataLoader worker (pid {pid}) is killed by signal: Terminated. ",
        "",
        "The above exception was the direct cause of the following exception:",
        "",
        "Traceback (most recent call last):",
        '  File "/work/train_ddp.py", line 88, in <module>',
        "    trainer.fit()",
    ))


@pytest.mark.parametrize("rank,pid", [(0, 3349014), (3, 81234), (6, 402)])
def test_a_tagged_dataloader_worker_sigterm_names_its_rank(tmp_path, rank, pid):
    v, acc = verdict_accused(tmp_path, _sigterm(rank, pid))
    assert (v["cause"], v["culprits"], acc) == ("signal", [rank], {rank}), v
    assert "other ranks' logs" in v["fix"], v


def test_an_untagged_dataloader_worker_sigterm_names_nobody(tmp_path):
    v, acc = verdict_accused(tmp_path, _sigterm(None, 8102))
    assert (v["cause"], v["culprits"], acc) == ("signal", [], set()), v
    v, acc = corpus_case_verdict(tmp_path, "mmsegmentation-2085-dataloader-worker-terminated")
    assert (v["cause"], acc) == ("signal", set()), v


def _nccl_cuda(host: str, pid: int, dev: int, warn_at: str, trail: list[str], rank: int, call: str) -> str:
    return nccl_cuda_beside_cut(host, pid, dev, warn_at, trail, rank, call)


@pytest.mark.parametrize("host,pid,dev,rank,call", [
    ("gpu-node7", 2532579, 0, 1, "barrier"),
    ("worker-2", 44120, 3, 2, "barrier"),
    ("a100box", 918, 1, 5, "all_reduce"),
])
def test_a_launch_cuda_failure_beside_a_cut_traceback_names_nobody(tmp_path, host, pid, dev, rank, call):
    text = _nccl_cuda(host, pid, dev, "enqueue.cc:336", ["enqueue.cc:1382"], rank, call)
    v, acc = verdict_accused(tmp_path, text)
    assert (v["cause"], v["culprits"], acc) == ("cuda_error", [], set()), v
    assert "NCCL_DEBUG=INFO" in v["fix"], v


@pytest.mark.parametrize("warn_at,trail", [
    ("include/alloc.h:237", ["include/alloc.h:338", "channel.cc:42", "init.cc:590", "init.cc:1409"]),
    ("enqueue.cc:88", ["init.cc:870", "init.cc:1138"]),  # old NCCL's kernel set-up in enqueue.cc, at init
])
def test_a_cuda_failure_at_communicator_creation_still_names_the_traced_rank(tmp_path, warn_at, trail):
    v, acc = verdict_accused(tmp_path, _nccl_cuda("node-b", 7731, 2, warn_at, trail, 2, "barrier"))
    assert (v["cause"], v["culprits"], acc) == ("cuda_error", [2], {2}), v
    v, acc = corpus_case_verdict(tmp_path, "diffusion-pipe-292-nccl-cuda-failure-999-alloc-rank0")
    assert (v["cause"], acc) == ("cuda_error", {0}), v
