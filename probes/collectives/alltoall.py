"""alltoall, measured as nccl-tests' alltoall_perf.

Counts (``AlltoAllGetCollByteCount``): param = (size/elsize/n) aligned to 16 bytes (per
peer), send = recv = param x n. algbw = count x n x elsize / t; busbw = algbw x (n-1)/n
(``AlltoAllGetBw``, src/alltoall.cu: "1/n of the data is local").
Fill: the block rank s sends to rank d is tagged ``1 + 8 (s n + d)``, so rank d must hold,
in order, the blocks every s addressed to d. torch: ``all_to_all_single``; gloo has it.
"""

from __future__ import annotations

from probes.collectives import _fill

NAME = "alltoall"
REDOP, ROOT = "none", -1
SOURCE = "nccl-tests src/alltoall.cu: AlltoAllGetCollByteCount, AlltoAllGetBw"


def counts(nbytes: int, elsize: int, nranks: int) -> tuple[int, int, int]:
    base = _fill.aligned_share(nbytes // elsize, elsize, nranks)
    return base * nranks, base * nranks, base


def algbw_bytes(count: int, elsize: int, nranks: int) -> int:
    return count * nranks * elsize


def bus_factor(nranks: int) -> float:
    return (nranks - 1) / nranks


def _tag(src: int, dst: int, nranks: int) -> int:
    return 1 + 8 * (src * nranks + dst)


def buffers(count: int, nranks: int, rank: int, device="cpu"):
    import torch

    send = torch.cat([_fill.block(count, _tag(rank, d, nranks), device) for d in range(nranks)])
    return send, _fill.empty(count * nranks, device)


def expected(count: int, nranks: int, rank: int = 0, device="cpu"):
    import torch

    return torch.cat([_fill.block(count, _tag(s, rank, nranks), device) for s in range(nranks)])


def run(send, recv, group=None) -> None:
    import torch.distributed as dist

    dist.all_to_all_single(recv, send, group=group)
