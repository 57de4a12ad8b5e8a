"""reduce_scatter (sum), measured as nccl-tests' reduce_scatter_perf.

Counts (``ReduceScatterGetCollByteCount``): param = recv = (size/elsize/n) aligned to 16
bytes, send = recv x n; the size column is the full input. algbw = count x elsize x n / t;
busbw = algbw x (n-1)/n (``ReduceScatterGetBw``, src/reduce_scatter.cu).
Fill: element j of rank r's input is ``(r + 1) + j % 7``; rank r receives the sum of block r,
``n (j % 7) + n(n+1)/2`` for j in [r*count, (r+1)*count).
torch: ``reduce_scatter_single`` (2.13; ``reduce_scatter_tensor`` before it). gloo has it.
"""

from __future__ import annotations

from probes.collectives import _fill

NAME = "reduce_scatter"
REDOP, ROOT = "sum", -1
SOURCE = "nccl-tests src/reduce_scatter.cu: ReduceScatterGetCollByteCount, ReduceScatterGetBw"


def counts(nbytes: int, elsize: int, nranks: int) -> tuple[int, int, int]:
    base = _fill.aligned_share(nbytes // elsize, elsize, nranks)
    return base * nranks, base, base


def algbw_bytes(count: int, elsize: int, nranks: int) -> int:
    return count * elsize * nranks


def bus_factor(nranks: int) -> float:
    return (nranks - 1) / nranks


def buffers(count: int, nranks: int, rank: int, device="cpu"):
    return _fill.block(count * nranks, rank + 1, device), _fill.empty(count, device)


def expected(count: int, nranks: int, rank: int = 0, device="cpu"):
    import torch

    p = _fill.pattern(count, device, offset=rank * count)
    return (p * nranks + nranks * (nranks + 1) // 2).to(torch.float32)


def run(send, recv, group=None) -> None:
    import torch.distributed as dist

    fn = getattr(dist, "reduce_scatter_single", None) or dist.reduce_scatter_tensor
    fn(recv, send, op=dist.ReduceOp.SUM, group=group)
