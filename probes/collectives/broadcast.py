"""broadcast from rank 0, measured as nccl-tests' broadcast_perf (its default root ``-r 0``).

Counts (``BroadcastGetCollByteCount``): send = recv = param = size / elsize.
algbw = count x elsize / t; busbw = algbw x 1 (``BroadcastGetBw``, src/broadcast.cu).
Fill: the root holds ``1 + i % 7``, every other rank -1 until the broadcast overwrites it.
torch's broadcast is in place.
"""

from __future__ import annotations

from probes.collectives import _fill

NAME = "broadcast"
REDOP, ROOT = "none", 0
SOURCE = "nccl-tests src/broadcast.cu: BroadcastGetCollByteCount, BroadcastGetBw"


def counts(nbytes: int, elsize: int, nranks: int) -> tuple[int, int, int]:
    c = max(1, nbytes // elsize)
    return c, c, c


def algbw_bytes(count: int, elsize: int, nranks: int) -> int:
    return count * elsize


def bus_factor(nranks: int) -> float:
    return 1.0


def buffers(count: int, nranks: int, rank: int, device="cpu"):
    t = _fill.block(count, ROOT + 1, device) if rank == ROOT else _fill.empty(count, device)
    return t, t


def expected(count: int, nranks: int, rank: int = 0, device="cpu"):
    return _fill.block(count, ROOT + 1, device)


def run(send, recv, group=None) -> None:
    import torch.distributed as dist

    # torch takes the root as a global rank; group_src (torch >= 2.6) is the group rank.
    dist.broadcast(recv, group_src=ROOT, group=group) if group is not None else dist.broadcast(recv, src=ROOT)
