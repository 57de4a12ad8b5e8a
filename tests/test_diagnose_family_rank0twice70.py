"""diagnose on two nodes' logs that each show a process printing NCCL's bare version line, which NCCL prints only in
a communicator's rank 0 (init.cc: ``if (myrank == 0) showVersion()``, once per process), with nothing failing. Where
the lines show nothing but that one world (no other rank of a communicator, no two communicator sizes), each node
started its own rank 0: lead rule AA (1), config, no rank. Round 70 showed it (nccl-810: two one-GPU nodes under
torchrun, each printing 'NCCL version' after its own NCCL_SOCKET_IFNAME / Bootstrap lines). The near shapes: an
ordinary multi-node job with subgroups (a per-node group's rank 0 prints the version on the second node, beside the
world's communicator lines) stays none, and one node alone printing it stays none."""

from __future__ import annotations

from tests.conftest import diagnose_verdict as _verdict


def _node(host: str, pid: int, comms: tuple[tuple[int, int], ...] = ()) -> str:
    lines = (f"{host}:{pid}:{pid} [0] NCCL INFO Bootstrap : Using eth0:10.1.0.{pid % 200}<0>\n"
             f"{host}:{pid}:{pid} [0] NCCL INFO NET/Plugin : No plugin found (libnccl-net.so), using internal "
             "implementation\n"
             "NCCL version 2.15.5+cuda11.8\n")
    for rank, nranks in comms:
        lines += (f"{host}:{pid}:{pid + 40} [0] NCCL INFO comm 0x7f{rank}{nranks}a0 rank {rank} nranks {nranks} "
                  "cudaDev 0 busId 3b000 - Init COMPLETE\n")
    return lines


def _two(tmp_path, a: str, b: str) -> dict:
    """diagnose on two files, one per node."""
    from ncclDoctor.diagnose import diagnose

    (tmp_path / "node0.log").write_text(a)
    (tmp_path / "node1.log").write_text(b)
    return diagnose([str(tmp_path / "node0.log"), str(tmp_path / "node1.log")]).results["diagnose"]["verdict"]


def test_two_nodes_each_printing_the_version_for_their_first_communicator_are_two_rank0s(tmp_path):
    v = _two(tmp_path, _node("gpu-a", 3101), _node("gpu-b", 5202))
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "node_rank" in v["fix"] and "MASTER_ADDR" in v["fix"], v


def test_both_nodes_rank_0_of_communicators_of_one_size_are_two_rank0s(tmp_path):
    v = _two(tmp_path, _node("gpu-a", 3101, ((0, 2),)), _node("gpu-b", 5202, ((0, 2),)))
    assert (v["cause"], v["culprits"]) == ("config", []), v


def test_a_multi_node_job_with_a_per_node_subgroup_stays_none(tmp_path):
    """Node b's process is rank 2 of the world of 4 and rank 0 of its node's group of 2: its version line is the
    subgroup's rank 0, not a second world."""
    v = _two(tmp_path, _node("gpu-a", 3101, ((0, 4), (0, 2))), _node("gpu-b", 5202, ((2, 4), (0, 2))))
    assert v["cause"] == "none", v
    v = _two_sizes(tmp_path)
    assert v["cause"] == "none", v


def _two_sizes(tmp_path) -> dict:
    """Both nodes show only a rank 0 line, but of communicators of two sizes: subgroups, not one world."""
    d = tmp_path / "sizes"
    d.mkdir()
    return _two(d, _node("gpu-a", 3101, ((0, 4),)), _node("gpu-b", 5202, ((0, 2),)))


def test_one_node_alone_printing_the_version_stays_none(tmp_path):
    v = _verdict(tmp_path, _node("gpu-a", 3101))
    assert v["cause"] == "none", v


def _prefixed(text: str, rank: int) -> str:
    return "".join(f"[rank{rank}]: {line}\n" for line in text.splitlines())


def test_the_same_global_rank_named_on_both_nodes_is_still_two_rank0s(tmp_path):
    """Every line of both nodes under one global rank's prefix (a launcher's, a paste's): the two processes hold one
    rank, the same launch fault."""
    v = _two(tmp_path, _prefixed(_node("gpu-a", 3101), 3), _prefixed(_node("gpu-b", 5202), 3))
    assert v["cause"] == "config", v


def test_two_global_ranks_named_for_the_two_processes_stay_none(tmp_path):
    """Node b's process is global rank 1: one world's two members, node b's version line a subgroup's rank 0."""
    v = _two(tmp_path, _prefixed(_node("gpu-a", 3101), 0), _prefixed(_node("gpu-b", 5202), 1))
    assert v["cause"] == "none", v
