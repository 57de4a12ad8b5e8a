"""The fill every collective uses: small integers, exact in float32 and in their sums.

Element ``i`` of a block tagged ``tag`` is ``tag + i % 7``. Tags say who sent a block (and
for alltoall, to whom), so a block delivered to the wrong place, from the wrong rank or
reduced wrongly does not compare equal. Sums over up to ~10^5 ranks stay below 2^24.
"""

from __future__ import annotations


def pattern(count: int, device="cpu", offset: int = 0):
    import torch

    return torch.arange(offset, offset + count, dtype=torch.int64, device=device) % 7


def block(count: int, tag: int, device="cpu", offset: int = 0):
    import torch

    return (pattern(count, device, offset) + tag).to(torch.float32)


def empty(count: int, device="cpu"):
    """A receive buffer holding a value no collective here produces (-1)."""
    import torch

    return torch.full((max(count, 0),), -1.0, dtype=torch.float32, device=device)


def aligned_share(count: int, elsize: int, nranks: int) -> int:
    """nccl-tests' ``(count/nranks) & ~(16/eltSize - 1)``, at least 1 element (nccl-tests
    would run a 0-element op; a 0-element op times nothing)."""
    base = (count // nranks) & ~(max(16 // elsize, 1) - 1)
    return max(base, 1)
