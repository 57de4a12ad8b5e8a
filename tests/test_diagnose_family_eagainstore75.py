"""torch 1.x's store read timing out, raised as EAGAIN's bare words (round 75 showed both): torch 1.x's store client
sets SO_RCVTIMEO to the store's timeout, so a timed read that expires raises "RuntimeError: Resource temporarily
unavailable" and nothing else. Right under init_process_group's frames (the process group's construction reading its
peers' addresses) it is lead rule AI (1)'s store_rendezvous, nobody named; right under DDP's first broadcast (torch
1.0/1.1's _dist_broadcast_coalesced, whose NCCL unique id is read from the connected store) it is rule Y's
rank_missing, nobody named. The same words elsewhere (a thread that cannot start, a message that says more) are not
read so. Paths, line numbers and values are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report

_EAGAIN = "RuntimeError: Resource temporarily unavailable\n"

_INIT_PG = ('Traceback (most recent call last):\n  File "train.py", line 310, in <module>\n    main()\n'
            '  File "train.py", line 77, in setup\n'
            '    dist.init_process_group(backend, rank=rank, world_size=world_size)\n'
            '  File "/usr/lib/python3.7/site-packages/torch/distributed/distributed_c10d.py", line 372, in '
            'init_process_group\n    timeout=timeout)\n')

_DDP = ('Traceback (most recent call last):\n  File "fit.py", line 120, in <module>\n    main()\n'
        '  File "fit.py", line 61, in build\n    output_device=local_rank,\n'
        '  File "/usr/lib/python3.7/site-packages/torch/nn/parallel/distributed.py", line 215, in __init__\n'
        '    self.broadcast_bucket_size)\n'
        '  File "/usr/lib/python3.7/site-packages/torch/nn/parallel/distributed.py", line 380, in '
        '_dist_broadcast_coalesced\n'
        '    dist._dist_broadcast_coalesced(self.process_group, tensors, buffer_size, False)\n')


def test_eagain_under_init_process_group_is_the_store_read_at_set_up(tmp_path):
    """pipedream-61's shape with other frames: the process group's construction raising EAGAIN's words is its store
    read of the peers timing out (rule AI (1)): store_rendezvous, nobody named; the fix names MASTER_ADDR."""
    d = _report(tmp_path, _INIT_PG + _EAGAIN)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("store_rendezvous", []) and not _accused(d), v
    assert "MASTER_ADDR" in v["fix"], v


def test_eagain_under_ddp_first_broadcast_is_a_connected_store_read(tmp_path):
    """maskrcnn-benchmark-931's shape: DDP's constructor broadcasting the module state (torch 1.0's
    _dist_broadcast_coalesced) raising EAGAIN's words is the first collective's read of NCCL's unique id timing out
    on a connected store (rule Y): rank_missing, nobody named."""
    d = _report(tmp_path, _DDP + _EAGAIN)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("rank_missing", []) and not _accused(d), v
    assert "py-spy dump" in v["fix"], v


def test_eagain_away_from_the_store_or_saying_more_is_not_a_store_read(tmp_path):
    """The near shapes: the same words with nothing of the store or a collective above them, or a message that says
    more than EAGAIN's words (a thread that could not start under init_process_group), are no store read."""
    plain = ('Traceback (most recent call last):\n  File "loader.py", line 40, in <module>\n    fetch()\n'
             '  File "loader.py", line 12, in fetch\n    sock.recv(4096)\n')
    for text in (plain + _EAGAIN,
                 _INIT_PG + "RuntimeError: can't start new thread: Resource temporarily unavailable (os error 11)\n"):
        v = _report(tmp_path, text)["verdict"]
        assert v["cause"] not in ("store_rendezvous", "rank_missing"), (text, v)
