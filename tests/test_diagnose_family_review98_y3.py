"""Review 98 (session 39) findings 5, 6, 7 and 9 (its _rank_shapes / _print_sizes part), each with the reviewer's
input varied and the shape the reviewed fix was for.

5: a job's own per-rank prints of what it hands an all_gather / gather with one rank's size short (a data-driven
   shard: torch's all_gather takes unequal outputs, gather is send/recv) -- desync, nobody named; all_reduce /
   broadcast / reduce_scatter keep rule D's majority (round 98's nccl-1417).
6: the same prints from more than 256 ranks -- the cap keeps the first 256 and still compares them.
7: a non-DeepEP library's 'false and "Unsupported number of ..."' assertion -- config, a fix naming that library's
   own switch, not DeepEP's launch.cuh; DeepEP's own assertion keeps DeepEP's fix (round 99's deepep-255).
9: _rank_shapes and _print_sizes share one label filter / merge / n-th-print comparison (_first_size_split).
Paths, ranks and numbers are made up."""

from __future__ import annotations

import pytest

from ncclDoctor.diagnose.verdict.desync import _first_size_split
from tests.conftest import verdict_accused


def _prints(sizes: dict[int, str], label: str, fmt: str = "Rank {r} {label}: torch.Size([{size}])") -> str:
    return "".join(fmt.format(r=r, label=label, size=sizes[r]) + "\n" for r in sorted(sizes))


# --- finding 5 -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("sizes, label, fmt", [
    # the reviewer's input: three ranks, rank 2's shard short
    ({0: "5, 64", 1: "5, 64", 2: "3, 64"}, "tokens before all_gather", "Rank {r} {label}: torch.Size([{size}])"),
    # another gather spelling, more ranks, one dimension, the launcher's tag as the rank
    ({r: "17" if r == 6 else "32" for r in range(8)}, "ids before allgather",
     "[rank{r}]: {label}: torch.Size([{size}])"),
    # torch.distributed.gather, rank=N
    ({0: "128", 1: "128", 2: "128", 3: "96"}, "preds before gather", "rank={r} {label}: torch.Size([{size}])"),
])
def test_a_short_shard_before_a_gather_is_data_not_a_ranks_fault(tmp_path, sizes, label, fmt):
    v, acc = verdict_accused(tmp_path, _prints(sizes, label, fmt))
    assert v["cause"] == "desync" and v["culprits"] == [] and acc == set(), v
    assert "nobody is named" in v["summary"] and "pad every rank's tensor" in v["fix"], v


@pytest.mark.parametrize("sizes, odd, label", [
    ({r: "409600" if r == 0 else "32768000" for r in range(8)}, 0, "tensor before allreduce"),  # nccl-1417's shape
    ({0: "64", 1: "64", 2: "64", 3: "128"}, 3, "buffer before broadcast"),
    ({0: "4096", 1: "4000", 2: "4096", 3: "4096"}, 1, "grads before reduce_scatter"),
])
def test_a_minority_size_before_a_same_size_collective_still_names_that_rank(tmp_path, sizes, odd, label):
    v, acc = verdict_accused(tmp_path, _prints(sizes, label))
    assert v["cause"] == "desync" and acc == {odd}, (v, acc)


# --- finding 6 -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("world, odd", [(300, 5), (257, 200), (1024, 0)])
def test_more_than_256_printing_ranks_still_read_the_kept_ranks(tmp_path, world, odd):
    sizes = {r: "999" if r == odd else "1000" for r in range(world)}
    v, acc = verdict_accused(tmp_path, _prints(sizes, "tensor before allreduce"))
    assert v["cause"] == "desync" and acc == {odd}, (v, acc)


def test_eight_printing_ranks_read_as_before(tmp_path):
    sizes = {r: "999" if r == 5 else "1000" for r in range(8)}
    v, acc = verdict_accused(tmp_path, _prints(sizes, "tensor before allreduce"))
    assert v["cause"] == "desync" and acc == {5}, (v, acc)


# --- finding 7 -------------------------------------------------------------------------------------------------------
def _assert_line(path: str, cond: str, frames: str = "/ws/bench.py") -> str:
    return ("[rank0]: Traceback (most recent call last):\n"
            f'[rank0]:   File "{frames}", line 40, in <module>\n'
            "[rank0]:     lib.run(x)\n"
            f"[rank0]: RuntimeError: Failed: Assertion error {path} '{cond}'\n")


@pytest.mark.parametrize("path, cond, count", [
    ("/src/mylib/csrc/dispatch.cu:77", 'false and "Unsupported number of GPUs"', "process count"),  # the reviewer's
    ("/opt/ep_kernels/src/moe_combine.cu:1203", 'false && "Unsupported ranks"', "process count"),
    ("/home/u/fastep/kernels/net.cu:51", 'false and "Unsupported RDMA ranks"', "number of nodes"),
])
def test_another_librarys_no_case_assertion_gets_no_deepep_fix(tmp_path, path, cond, count):
    v, acc = verdict_accused(tmp_path, _assert_line(path, cond))
    assert v["cause"] == "config" and not acc, v
    assert "DeepEP" not in v["fix"] and "launch.cuh" not in v["fix"] and "SWITCH_" not in v["fix"], v
    assert path.rsplit("/", 1)[-1] in v["fix"] and count in v["fix"], v


@pytest.mark.parametrize("path, cond, fix", [
    ("/data1/workdata/DeepEP/csrc/kernels/internode.cu:328", 'false and "Unsupported RDMA ranks"',
     "SWITCH_RDMA_RANKS"),  # deepep-255's shape
    ("/opt/conda/lib/python3.10/site-packages/deep_ep/csrc/kernels/intranode.cu:88", 'false && "Unsupported ranks"',
     "SWITCH_RANKS"),
    ("/workspace/ep/csrc/kernels/internode_ll.cu:412", 'false and "Unsupported RDMA ranks"', "SWITCH_RDMA_RANKS"),
])
def test_deepeps_own_no_case_assertion_keeps_deepeps_fix(tmp_path, path, cond, fix):
    v, acc = verdict_accused(tmp_path, _assert_line(path, cond))
    assert v["cause"] == "config" and not acc, v
    assert "DeepEP" in v["fix"] and fix in v["fix"], v


# --- finding 9 -------------------------------------------------------------------------------------------------------
def test_the_shared_size_split_filters_labels_merges_keys_and_compares_the_nth_print():
    prints = [("x before all gather", (None, "cuda:0"), ["10"]), ("X  before  all gather", (None, "cuda:1"), ["12"]),
              ("x after all_gather", (None, "cuda:0"), ["1"]), ("obj before all_gather_object", (0, "cuda:0"), ["3"])]
    assert _first_size_split(prints) == ("x before all gather", {(None, "cuda:0"): "10", (None, "cuda:1"): "12"})
    # the n-th print: equal first prints, different second ones; files' prints of one rank follow on
    ranks = [("t before allreduce", 0, ["8"]), ("t before allreduce", 1, ["8"]), ("t before allreduce", 0, ["9"]),
             ("t before allreduce", 1, ["7"])]
    assert _first_size_split(ranks) == ("t before allreduce", {0: "9", 1: "7"})
    assert _first_size_split([("t before allreduce", 0, ["8"]), ("t before allreduce", 1, ["8"])]) is None


def test_the_device_prints_read_as_before(tmp_path):
    text = "".join(f"x before all gather: tensor([1., 2.], device='cuda:{d}') torch.Size([{n}])\n"
                   for d, n in ((0, 21551), (1, 21549)))
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "desync" and acc == set() and "name devices, not ranks" in v["summary"], v
