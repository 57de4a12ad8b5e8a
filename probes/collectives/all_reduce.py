"""all_reduce (sum), measured as nccl-tests' all_reduce_perf.

Counts (``AllReduceGetCollByteCount``): send = recv = param = size / elsize.
algbw = count x elsize / t; busbw = algbw x 2(n-1)/n (``AllReduceGetBw``, src/all_reduce.cu).
torch's all_reduce is in place, so only nccl-tests' in-place columns have a counterpart.
Fill: rank r holds ``(r + 1) + i % 7``; the sum is ``n (i % 7) + n(n+1)/2``.
"""

from __future__ import annotations

from probes.collectives import _fill

NAME = "all_reduce"
REDOP, ROOT = "sum", -1
SOURCE = "nccl-tests src/all_reduce.cu: AllReduceGetCollByteCount, AllReduceGetBw"


def counts(nbytes: int, elsize: int, nranks: int) -> tuple[int, int, int]:
    c = max(1, nbytes // elsize)
    return c, c, c


def algbw_bytes(count: int, elsize: int, nranks: int) -> int:
    return count * elsize


def bus_factor(nranks: int) -> float:
    return 2.0 * (nranks - 1) / nranks


def buffers(count: int, nranks: int, rank: int, device="cpu"):
    t = _fill.block(count, rank + 1, device)
    return t, t  # in place


def expected(count: int, nranks: int, rank: int = 0, device="cpu"):
    import torch

    return (_fill.pattern(count, device) * nranks + nranks * (nranks + 1) // 2).to(torch.float32)


def run(send, recv, group=None) -> None:
    import torch.distributed as dist

    dist.all_reduce(recv, op=dist.ReduceOp.SUM, group=group)
