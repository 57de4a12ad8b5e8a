"""How diagnose reads start-up banners and NCCL set-up lines that show a launch set-up wrong with nothing failing (lead
rule CE, round 102's adjudication): config, nobody named, nobody cleared.

- Lightning's per-process banner "LOCAL_RANK: l - CUDA_VISIBLE_DEVICES: [...]" printing one local rank for more
  processes than the job has nodes, while the launch shown puts several processes on each node (#SBATCH
  --ntasks-per-node, torchrun's --nproc_per_node): a local rank taken twice on one node (round 102's
  lightning-7027; rule CE (1)). Near shape: banners whose local ranks agree with the launch (0 and 1 on each of two
  nodes), or all local rank 0 under one task per node, keep their none (rules K, BJ (4)).
- NCCL's INFO lines from two hosts of one job, one loading an external net plugin ("Plugin Path : .../libnccl-net.so",
  "Loaded net plugin"), the other "Could not find: libnccl-net.so. Using internal network plugin" (round 102's
  nccl-1634; rule CE (2)). Near shape: every host agreeing, or one host alone, keeps rule Z's none.
Hosts, paths and numbers are made up.
"""
from __future__ import annotations

from tests.conftest import nccl_info
from tests.conftest import verdict_accused as _verdict


def _banners(locals_: list[int], world: int, order: list[int], space: str = " ", prefix: str = "") -> str:
    out = ""
    for local, rank in zip(locals_, order):
        out += (f"{prefix}LOCAL_RANK: {local}{space}-{space}CUDA_VISIBLE_DEVICES: [{','.join(map(str, range(4)))}]\n"
                f"{prefix}initializing ddp: GLOBAL_RANK: {rank}, MEMBER: {rank + 1}/{world}\n")
    return out


def _sbatch(nodes: int | None, tasks: int) -> str:
    return ((f"#SBATCH --nodes={nodes}\n" if nodes is not None else "") + f"#SBATCH --gres=gpu:{tasks}\n"
            f"#SBATCH --ntasks-per-node={tasks}\n")


def test_one_local_rank_printed_past_the_nodes_under_several_tasks_a_node_is_config_nobody_named(tmp_path):
    for nodes, tasks, shown_nodes, space, prefix in ((2, 2, True, "", ""), (3, 4, True, " ", ""),
                                                      (2, 4, False, " ", "[INFO] "), (4, 2, False, "", "")):
        world = nodes * tasks
        order = list(range(world))[::-1]
        text = (_banners([0] * world, world, order, space, prefix)
                + f"trainer = Trainer(gpus={tasks}, accelerator='ddp', num_nodes={nodes})\n"
                + _sbatch(nodes if shown_nodes else None, tasks))
        v, acc = _verdict(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("config", []) and not acc, (nodes, tasks, v)
        assert "local rank 0" in v["summary"] and "--ntasks-per-node equal to gpus per node" in v["fix"].lower(), v


def test_banners_that_agree_with_the_launch_keep_their_none(tmp_path):
    # two tasks a node on two nodes: local ranks 0 and 1 on each node; and one task a node: every process local rank 0
    for locals_, nodes, tasks in (([0, 1, 0, 1], 2, 2), ([0, 0, 0], 3, 1), ([0, 1, 2, 3, 0, 1, 2, 3], 2, 4)):
        world = len(locals_)
        v, acc = _verdict(tmp_path, _banners(locals_, world, list(range(world))) + _sbatch(nodes, tasks))
        assert v["cause"] == "none" and not acc, (locals_, v)
    # all local rank 0 with no launch of several processes a node shown: nothing to hold the banners against
    v, acc = _verdict(tmp_path, _banners([0, 0, 0, 0], 4, [2, 3, 0, 1]))
    assert v["cause"] == "none" and not acc, v


def test_two_hosts_loading_different_net_plugins_is_config_nobody_named(tmp_path):
    for ext_host, own_host, ext_line, own_line in (
            ("gpu-node-07", "gpu-node-12",
             "Plugin Path : /opt/hpcx/nccl_rdma_sharp_plugin/lib/libnccl-net.so",
             "NET/Plugin: Could not find: libnccl-net.so. Using internal network plugin."),
            ("dgx-a3", "dgx-b9", "NET/Plugin: Loaded net plugin NCCL RDMA Plugin v7 (v7)",
             "NET/Plugin : No plugin found (libnccl-net.so), using internal implementation")):
        for first in (0, 1):
            lines = [nccl_info(ext_host, 40211, 3, ext_line), nccl_info(own_host, 7710, 6, own_line)]
            v, acc = _verdict(tmp_path, "".join(lines[first:] + lines[:first]))
            assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
            assert ext_host in v["summary"] and own_host in v["summary"] and "NCCL_NET_PLUGIN" in v["fix"], v


def test_hosts_that_agree_on_the_net_plugin_keep_rule_z_none(tmp_path):
    absent = "NET/Plugin: Could not find: libnccl-net.so. Using internal network plugin."
    loaded = "Plugin Path : /opt/hpcx/nccl_rdma_sharp_plugin/lib/libnccl-net.so"
    for lines in ([nccl_info("gpu-node-07", 511, 0, absent), nccl_info("gpu-node-12", 622, 1, absent)],
                  [nccl_info("gpu-node-07", 511, 0, loaded), nccl_info("gpu-node-12", 622, 1, loaded)],
                  [nccl_info("gpu-node-07", 511, 0, absent)],
                  [nccl_info("gpu-node-07", 511, 0, loaded), nccl_info("gpu-node-07", 512, 1, absent)],
                  # CollNet's symbol missing on one host is not the net plugin missing
                  [nccl_info("gpu-node-07", 511, 0, loaded),
                   nccl_info("gpu-node-12", 622, 1, "NET/Plugin: Failed to find ncclCollNetPlugin_v8 symbol.")]):
        v, acc = _verdict(tmp_path, "".join(lines))
        assert v["cause"] == "none" and not acc, (lines, v)
