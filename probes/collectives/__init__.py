"""One module per collective, each filling the same interface:

``NAME``                         the collective's name in reports
``algbw_bytes(count, elsize, n)``  the S in algbw = S / t (nccl-tests' convention)
``bus_factor(n)``                busbw = algbw x bus_factor(n)
``fill(t, rank)``                deterministic, exactly-representable input
``expected(count, n)``           the exact result for a check
``run(t, group=None, **kw)``     issue the collective once (sendrecv: ``peer=``, ``out=``)
"""

from probes.collectives import all_reduce, sendrecv

REGISTRY = {all_reduce.NAME: all_reduce, sendrecv.NAME: sendrecv}
