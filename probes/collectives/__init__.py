"""One module per collective, each filling the same interface (nccl-tests' ``struct testColl``).

=============================================  ==============================================
``NAME``                                       the collective's name in reports and phases
``REDOP`` / ``ROOT``                           nccl-tests' ``redop`` and ``root`` columns
``SOURCE``                                     the nccl-tests function the numbers come from
``counts(nbytes, elsize, nranks)``             ``(sendcount, recvcount, paramcount)`` per rank,
                                               nccl-tests' ``*GetCollByteCount`` for a size
``algbw_bytes(count, elsize, nranks)``         S in algbw = S / t, ``count`` = paramcount
                                               (nccl-tests' ``*GetBw``)
``bus_factor(nranks)``                         busbw = algbw x bus_factor
``buffers(count, nranks, rank, device)``       ``(send, recv)`` allocated and filled with
                                               exactly representable values that say who sent
                                               them and where they belong
``expected(count, nranks, rank, device)``      what ``recv`` must hold afterwards, exactly
``run(send, recv, group=None, **kw)``          issue the collective once
=============================================  ==============================================

``count`` everywhere is the *param count*: the count argument of the NCCL call (per rank
for all_gather/reduce_scatter, per peer for alltoall), which is nccl-tests' ``count``
column. The ``size`` column is ``max(sendcount, recvcount) x elsize``
(``size_bytes``). Ranks are group ranks and ``nranks`` the group's size.

Adding a collective: one module here and one line in ``REGISTRY``. Probes import only
torch and the standard library.
"""

from probes.collectives import all_gather, all_reduce, alltoall, broadcast, reduce_scatter, sendrecv

REGISTRY = {
    all_reduce.NAME: all_reduce,
    all_gather.NAME: all_gather,
    reduce_scatter.NAME: reduce_scatter,
    broadcast.NAME: broadcast,
    alltoall.NAME: alltoall,
    sendrecv.NAME: sendrecv,
}

ELSIZE = 4  # float32: every probe buffer; the fills stay exact in it


def size_bytes(module, nbytes: int, nranks: int, elsize: int = ELSIZE) -> int:
    """nccl-tests' ``size`` column for a requested size: the larger of send and receive buffer."""
    send, recv, _ = module.counts(nbytes, elsize, nranks)
    return max(send, recv) * elsize


def parse_ops(text: str | None) -> list[str]:
    """``--op all_reduce,all_gather`` (or ``all``) -> names in registry order; ValueError names a bad one."""
    names = [x.strip() for x in (text or "all_reduce").split(",") if x.strip()]
    if names == ["all"]:
        return list(REGISTRY)
    bad = [x for x in names if x not in REGISTRY]
    if bad or not names:
        raise ValueError(
            f"unknown collective {', '.join(bad) or repr(text)}: expected one or more of {', '.join(REGISTRY)} or all"
        )
    return [x for x in REGISTRY if x in names]
