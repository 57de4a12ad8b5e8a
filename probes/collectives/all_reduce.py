"""all_reduce (sum), measured the way nccl-tests' all_reduce_perf measures it.

algbw = S / t with S the per-rank buffer in bytes; busbw = algbw x 2(n-1)/n
(nccl-tests src/all_reduce.cu, AllReduceGetBw). torch's all_reduce is in-place, so
only nccl-tests' in-place columns have a counterpart here.
"""

from __future__ import annotations

NAME = "all_reduce"


def algbw_bytes(count: int, elsize: int, nranks: int) -> int:
    return count * elsize


def bus_factor(nranks: int) -> float:
    return 2.0 * (nranks - 1) / nranks


def fill(tensor, rank: int) -> None:
    """Small integers (exact in float32): element i of rank r is (r + 1) + i % 7."""
    import torch

    n = tensor.numel()
    pattern = torch.arange(n, dtype=torch.int64, device=tensor.device) % 7
    tensor.copy_((pattern + (rank + 1)).to(tensor.dtype))


def expected(count: int, nranks: int, device="cpu"):
    import torch

    pattern = torch.arange(count, dtype=torch.int64, device=device) % 7
    ranks_sum = nranks * (nranks + 1) // 2
    return (pattern * nranks + ranks_sum).to(torch.float32)


def run(tensor, group=None) -> None:
    import torch.distributed as dist

    dist.all_reduce(tensor, op=dist.ReduceOp.SUM, group=group)
