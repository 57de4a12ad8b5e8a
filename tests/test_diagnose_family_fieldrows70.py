"""diagnose on an nccl-tests output whose platform has a published reference but whose result table has no
complete row (a committed NCCL_DEBUG=INFO log where the INFO lines cut the table down to a bare "time algbw busbw
#wrong" fragment): the reference comparison (analysis/expected.judge) has nothing to compare and must say so, never
fail. Round 70 showed it (an all_reduce_perf log on two A100 80GB PCIe with only mlx5 dlvsym INFO lines beside it:
diagnose stopped with "max() arg is an empty sequence"). The near shape: the same run with a complete row at the
reference's size is still judged against the reference."""

from __future__ import annotations

from ncclDoctor.diagnose import diagnose

HEAD = ("# Collective test starting: all_reduce_perf\n"
        "# nThread 1 nGpus 2 minBytes 8388608 maxBytes 8589934592 step: 2(factor) warmup iters: 1 iters: 20 agg "
        "iters: 1 validation: 1 graph: 0\n#\n# Using devices\n"
        "#  Rank  0 Group  0 Pid   4101 on      gpu7 device  0 [0000:17:00] NVIDIA A100 80GB PCIe\n"
        "#  Rank  1 Group  0 Pid   4101 on      gpu7 device  1 [0000:65:00] NVIDIA A100 80GB PCIe\n"
        "gpu7:4101:4101 [0] NCCL INFO NCCL version 2.27.7+cuda13.0\n"
        "gpu7:4101:4120 [1] NCCL INFO dlvsym failed on mlx5dv_reg_dmabuf_mr - /lib/x86_64-linux-gnu/libmlx5.so: "
        "undefined symbol: mlx5dv_reg_dmabuf_mr, version MLX5_1.25\n"
        "gpu7:4101:4120 [1] NCCL INFO Using network IB\n")
TAIL = ("gpu7:4101:4190 [0] NCCL INFO comm 0x55d0 rank 0 nranks 2 cudaDev 0 busId 17000 - Destroy COMPLETE\n"
        "gpu7:4101:4190 [1] NCCL INFO comm 0x55e0 rank 1 nranks 2 cudaDev 1 busId 65000 - Destroy COMPLETE\n"
        "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 171.5 \n#\n"
        "# Collective test concluded: all_reduce_perf\n")


def _run(tmp_path, text):
    (tmp_path / "nccl.log").write_text(text)
    rep = diagnose([str(tmp_path / "nccl.log")])
    return rep, rep.results["diagnose"]["verdict"]


def test_a_reference_matched_table_without_a_complete_row_is_not_judged_and_does_not_fail(tmp_path):
    cut = ("gpu7:4101:4101 [0] NCCL INFO AllReduce: 8589934592 Bytes -> Algo RING proto SIMPLE "
           "channel{Lo..Hi}={0..23}\n"
           "    40112  214.15  214.15      0\n")
    rep, v = _run(tmp_path, HEAD + cut + TAIL)
    assert (v["cause"], v["culprits"]) == ("none", []), v
    tests = [t for doc in rep.results["field"] for t in doc["tests"]]
    assert tests and "not judged" in tests[0]["expected"]["reason"], tests


def test_the_same_run_with_a_complete_row_far_below_the_reference_is_still_judged(tmp_path):
    row = ("#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   "
           "busbw #wrong\n"
           "  8589934592    2147483648     float     sum      -1   850000   10.11   10.11      0   850000   10.11   "
           "10.11      0\n")
    rep, _ = _run(tmp_path, HEAD + row + TAIL)
    tests = [t for doc in rep.results["field"] for t in doc["tests"]]
    assert tests and "not judged" not in tests[0]["expected"]["reason"], tests
    assert any("published for" in f.message for f in rep.findings), [f.message for f in rep.findings]
