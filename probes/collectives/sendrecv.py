"""sendrecv, measured as nccl-tests' sendrecv_perf: every rank sends to rank+1 and receives
from rank-1 at once (a ring of point-to-point transfers).

Counts (``SendRecvGetCollByteCount``): send = recv = param = size / elsize.
algbw = count x elsize / t; busbw = algbw x 1 (``SendRecvGetBw``, src/sendrecv.cu).
Fill: rank r sends ``(r + 1) + i % 7``, so the receiver can tell who sent it.

The structure phase also uses it between two nodes' leaders (``peer=``: send to and
receive from the same rank; ``probes.localize`` picks the pairs). \
``peer``, ``send_to`` and ``recv_from`` are *global* ranks.
"""

from __future__ import annotations

from probes.collectives import _fill

NAME = "sendrecv"
REDOP, ROOT = "none", -1
SOURCE = "nccl-tests src/sendrecv.cu: SendRecvGetCollByteCount, SendRecvGetBw, SendRecvRunColl"


def counts(nbytes: int, elsize: int, nranks: int) -> tuple[int, int, int]:
    c = max(1, nbytes // elsize)
    return c, c, c


def algbw_bytes(count: int, elsize: int, nranks: int) -> int:
    return count * elsize


def bus_factor(nranks: int) -> float:
    return 1.0


def buffers(count: int, nranks: int, rank: int, device="cpu"):
    return _fill.block(count, rank + 1, device), _fill.empty(count, device)


def expected(count: int, nranks: int, rank: int = 0, device="cpu", *, peer: int | None = None):
    """What ``rank`` receives: from ``peer`` if given, else from its ring predecessor."""
    src = peer if peer is not None else (rank - 1) % nranks
    return _fill.block(count, src + 1, device)


def run(
    send, recv, group=None, *, peer: int | None = None, send_to: int | None = None, recv_from: int | None = None
) -> None:
    import torch.distributed as dist

    if peer is not None:
        send_to = recv_from = peer
    if send_to is None or recv_from is None:
        rank, n = dist.get_rank(group), dist.get_world_size(group)
        to, frm = (rank + 1) % n, (rank - 1) % n
        send_to = to if group is None else dist.get_global_rank(group, to)
        recv_from = frm if group is None else dist.get_global_rank(group, frm)
    reqs = [dist.isend(send, send_to, group=group), dist.irecv(recv, recv_from, group=group)]
    for req in reqs:
        req.wait()
