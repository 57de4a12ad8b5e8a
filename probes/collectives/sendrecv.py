"""sendrecv: a bidirectional point-to-point exchange between two ranks.

Both ranks send S bytes to each other at once (isend + irecv), as nccl-tests'
sendrecv_perf does with its ring neighbours; algbw = S / t per direction and the bus
factor is 1 (nccl-tests src/sendrecv.cu, SendRecvGetBw). Used by the structure phase to
measure the link between two nodes' leader ranks (``probes.localize``).
"""

from __future__ import annotations

NAME = "sendrecv"


def algbw_bytes(count: int, elsize: int, nranks: int) -> int:
    return count * elsize


def bus_factor(nranks: int) -> float:
    return 1.0


def fill(tensor, rank: int) -> None:
    """Element i of rank r is (r + 1) + i % 7: exact in float32, and says who sent it."""
    import torch

    pattern = torch.arange(tensor.numel(), dtype=torch.int64, device=tensor.device) % 7
    tensor.copy_((pattern + (rank + 1)).to(tensor.dtype))


def expected(count: int, peer: int, device="cpu"):
    """What the receiver holds after the exchange: the peer's ``fill``."""
    import torch

    pattern = torch.arange(count, dtype=torch.int64, device=device) % 7
    return (pattern + (peer + 1)).to(torch.float32)


def run(tensor, group=None, *, peer: int, out) -> None:
    import torch.distributed as dist

    reqs = [dist.isend(tensor, peer, group=group), dist.irecv(out, peer, group=group)]
    for req in reqs:
        req.wait()
