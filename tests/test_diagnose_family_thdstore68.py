"""How diagnose reads torch 1.0's THD (torch.distributed.deprecated) failing to reach the rendezvous at set-up (round
68, session 25: maskrcnn-benchmark-315): THD raises the socket's own words with its source site glued on,
"RuntimeError: Connection reset by peer at .../torch/lib/THD/process_group/General.cpp:20". Under init_process_group's
frame that is the store connection cut while the process group is set up, as the bare "Connection reset by peer" of
c10d is (rules L, G's last sentence): store_rendezvous, culprits []. Each test reads the shape from lines other than the
corpus case's own (another script, paths, line numbers), and a near shape that must NOT be read that way. Paths are
made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report

_SITE = "/opt/conda/conda-bld/pytorch_1544000000000/work/torch/lib/THD/process_group/General.cpp:20"


def _init_tb(exc: str) -> str:
    return ("Traceback (most recent call last):\n"
            '  File "train_dist.py", line 88, in <module>\n'
            "    main()\n"
            '  File "train_dist.py", line 61, in main\n'
            '    dist.init_process_group(backend="gloo", init_method="env://", world_size=4, rank=args.rank)\n'
            '  File "/usr/lib/python3.6/site-packages/torch/distributed/deprecated/__init__.py", line 101, in '
            "init_process_group\n"
            "    group_name, rank)\n"
            f"{exc}\n")


def test_thds_reset_with_its_source_site_in_init_process_group_is_the_rendezvous_at_set_up(tmp_path):
    """THD's init_process_group raising 'Connection reset by peer at .../General.cpp:20': the connection to the master
    (MASTER_ADDR:MASTER_PORT) was cut while the group was set up, before any collective -- store_rendezvous, nobody
    named, the fix checking the master address and port."""
    d = _report(tmp_path, _init_tb(f"RuntimeError: Connection reset by peer at {_SITE}"))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("store_rendezvous", []) and not _accused(d), v
    assert "MASTER_ADDR" in v["fix"] and "General.cpp" not in v["summary"], v


def test_thds_refused_connection_with_its_source_site_is_read_alike(tmp_path):
    """The same site glued to a refusal (the master not listening yet, or the wrong address): the rendezvous at
    set-up too."""
    v = _report(tmp_path, _init_tb(f"RuntimeError: Connection refused at {_SITE}"))["verdict"]
    assert (v["cause"], v["culprits"]) == ("store_rendezvous", []), v


def test_thds_reset_raised_by_a_collective_mid_run_is_not_the_rendezvous(tmp_path):
    """The near shape: the same THD text raised from a collective in the training loop (no init_process_group frame
    above it): a peer's connection cut mid-run, not the store at set-up."""
    text = ("Traceback (most recent call last):\n"
            '  File "train_dist.py", line 120, in train\n'
            "    average_gradients(model)\n"
            '  File "train_dist.py", line 74, in average_gradients\n'
            "    dist.all_reduce(param.grad.data, op=dist.reduce_op.SUM)\n"
            '  File "/usr/lib/python3.6/site-packages/torch/distributed/deprecated/__init__.py", line 302, in '
            "all_reduce\n"
            "    return torch._C._dist_all_reduce(tensor, op, group)\n"
            "RuntimeError: Connection reset by peer at /opt/conda/conda-bld/pytorch_1544000000000/work/torch/lib/"
            "THD/base/data_channels/DataChannelTCP.cpp:422\n")
    v = _report(tmp_path, text)["verdict"]
    assert v["cause"] != "store_rendezvous", v
