"""all_gather, measured as nccl-tests' all_gather_perf.

Counts (``AllGatherGetCollByteCount``): param = send = (size/elsize/n) aligned to 16 bytes,
recv = send x n; the size column is the gathered output. algbw = count x elsize x n / t;
busbw = algbw x (n-1)/n (``AllGatherGetBw``, src/all_gather.cu).
Fill: rank r sends ``(r + 1) + i % 7``; everyone receives the ranks' blocks in rank order.
torch: ``all_gather_single`` (2.13; ``all_gather_into_tensor`` before it). gloo has it.
"""

from __future__ import annotations

from probes.collectives import _fill

NAME = "all_gather"
REDOP, ROOT = "none", -1
SOURCE = "nccl-tests src/all_gather.cu: AllGatherGetCollByteCount, AllGatherGetBw"


def counts(nbytes: int, elsize: int, nranks: int) -> tuple[int, int, int]:
    base = _fill.aligned_share(nbytes // elsize, elsize, nranks)
    return base, base * nranks, base


def algbw_bytes(count: int, elsize: int, nranks: int) -> int:
    return count * elsize * nranks


def bus_factor(nranks: int) -> float:
    return (nranks - 1) / nranks


def buffers(count: int, nranks: int, rank: int, device="cpu"):
    return _fill.block(count, rank + 1, device), _fill.empty(count * nranks, device)


def expected(count: int, nranks: int, rank: int = 0, device="cpu"):
    import torch

    return torch.cat([_fill.block(count, r + 1, device) for r in range(nranks)])


def run(send, recv, group=None) -> None:
    import torch.distributed as dist

    fn = getattr(dist, "all_gather_single", None) or dist.all_gather_into_tensor
    fn(recv, send, group=group)
