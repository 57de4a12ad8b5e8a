"""Review 102's findings on rule CE's readings (verdict.world._net_plugin_split, _local_rank_twice), with the shapes
the round-102 fixes were made for still read as they meant.

- Review 102 (1) finding 2: two separate single-node runs pasted together ("on machine A ... on machine B ..."), each
  host's communicator spanning one node ('nNodes 1'), one host loading an external net plugin and the other NCCL's
  internal one, are not the hosts of one job: rule Z's none, not config. Hosts shown as one job ('nNodes 2'), or
  shown with no communicator line at all (round 102's nccl-1634), keep rule CE (2)'s config.
- Review 102 (1) finding 6: Lightning's banners of one local rank whose GPU lists differ ('CUDA_VISIBLE_DEVICES: [0]'
  and '[1]', a GPU a task) claim no GPU twice: none. One local rank with one list past the nodes (lightning-7027's
  '[0,1]', or every process seeing only '[0]') keeps rule CE (1)'s config.
- Review 102 (2) finding 3: one process's banner reprinted at each Trainer stage (fit, validate, test) with no world
  announced (no 'GLOBAL_RANK .., MEMBER r/W' line) is not several processes: none.
Hosts, paths and numbers are made up.
"""
from __future__ import annotations

from tests.conftest import nccl_info
from tests.conftest import verdict_accused as _verdict

_LOADED = "Plugin Path : /opt/hpcx/nccl_rdma_sharp_plugin/lib/libnccl-net.so"
_ABSENT = "NET/Plugin: Could not find: libnccl-net.so. Using internal network plugin."
_LOADED2 = "NET/Plugin: Loaded net plugin NCCL RDMA Plugin v7 (v7)"
_ABSENT2 = "NET/Plugin : No plugin found (libnccl-net.so), using internal implementation"


def _run(host: str, pid: int, plugin: str, ranks: int, nodes: int, header: str = "") -> str:
    addr = f"10.0.{pid % 200}.{len(host) + 10}"
    out = header + nccl_info(host, pid, 0, f"Bootstrap : Using eth0:{addr}<0>") + nccl_info(host, pid, 0, plugin)
    for r in range(ranks):
        out += nccl_info(host, pid + r, r, f"comm 0x55d{r} rank {r} nRanks {ranks} nNodes {nodes} localRanks "
                                           f"{ranks // nodes} localRank {r % (ranks // nodes)} MNNVL 0", pid + 40 + r)
    return out + nccl_info(host, pid, 0, "Init COMPLETE", pid + 40)


def test_two_single_node_runs_pasted_together_keep_rule_z_none(tmp_path):
    for (ext, own), (loaded, absent), ranks in ((("dgx-a", "workstation-b"), (_LOADED, _ABSENT), 2),
                                                (("gpu-node-07", "laptop"), (_LOADED2, _ABSENT2), 4),
                                                (("hgx-11", "hgx-04"), (_LOADED, _ABSENT2), 8)):
        a = _run(ext, 1201, loaded, ranks, 1, f"=== run on {ext} (container) ===\n")
        b = _run(own, 877, absent, ranks, 1, f"=== run on {own} (pip torch) ===\n")
        for text in (a + b, b + a):
            v, acc = _verdict(tmp_path, text)
            assert v["cause"] == "none" and not acc, (ext, own, v)
    # only one of the two runs shows its communicator, in a world of its own: still not one job's hosts
    text = _run("dgx-a", 1201, _LOADED, 2, 1) + nccl_info("workstation-b", 877, 0, _ABSENT)
    v, acc = _verdict(tmp_path, text)
    assert v["cause"] == "none" and not acc, v


def test_hosts_of_one_job_loading_different_net_plugins_stay_config(tmp_path):
    # the same hosts' communicators spanning both nodes (nNodes 2): one job, its nodes launched differently
    for loaded, absent in ((_LOADED, _ABSENT), (_LOADED2, _ABSENT2)):
        text = _run("hgx-h100-04", 589474, loaded, 4, 2) + _run("hgx-h100-11", 18226, absent, 4, 2)
        v, acc = _verdict(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
        assert "hgx-h100-04" in v["summary"] and "hgx-h100-11" in v["summary"] and "NCCL_NET_PLUGIN" in v["fix"], v
    # round 102's nccl-1634: the two plugin lines alone, no communicator line shown
    text = nccl_info("HGX-H100-11", 18226, 5, _ABSENT) + nccl_info("HGX-H100-04", 589474, 0, _LOADED)
    v, acc = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v


def _lightning(gpu_lists: list[str], nodes: int, tasks: int, members: bool = True, local: int = 0) -> str:
    gpus_line = "#SBATCH --gpus-per-task=1\n" if "," not in gpu_lists[0] else f"#SBATCH --gres=gpu:{tasks}\n"
    out = f"#SBATCH --nodes={nodes}\n#SBATCH --ntasks-per-node={tasks}\n{gpus_line}srun python train.py\n"
    world = len(gpu_lists)
    for gpus in gpu_lists:
        out += f"LOCAL_RANK: {local} - CUDA_VISIBLE_DEVICES: [{gpus}]\n"
    if members:
        for r in range(world):
            out += f"Initializing distributed: GLOBAL_RANK: {r}, MEMBER: {r + 1}/{world}\n"
    return out + "Epoch 0: 100%|##########| 50/50 [00:10<00:00, loss=0.4]\n"


def test_one_local_rank_seeing_different_gpus_claims_no_gpu_twice(tmp_path):
    # a GPU a task (--gpus-per-task=1): every process is local rank 0 of its own list, and the lists differ on a node
    for lists, nodes, tasks in ((["0", "1", "0", "1"], 2, 2), (["0", "1", "2", "3"] * 2, 2, 4),
                                (["1", "0", "1", "0", "1", "0"], 3, 2), (["0", "1"], 1, 2)):
        v, acc = _verdict(tmp_path, _lightning(lists, nodes, tasks))
        assert v["cause"] == "none" and not acc, (lists, v)


def test_one_local_rank_with_one_gpu_list_past_the_nodes_stays_config(tmp_path):
    # lightning-7027's shape: every process local rank 0 of one list of the node's GPUs, the world announced
    for lists, nodes, tasks in ((["0,1"] * 4, 2, 2), (["0, 1, 2, 3"] * 8, 2, 4), (["0,1,2,3"] * 3, 1, 4)):
        v, acc = _verdict(tmp_path, _lightning(lists, nodes, tasks))
        assert (v["cause"], v["culprits"]) == ("config", []) and not acc, (lists, v)
        assert "local rank 0" in v["summary"] and "same GPU" in v["summary"], v


def test_one_process_banner_reprinted_by_trainer_stages_keeps_its_none(tmp_path):
    stages = ["Epoch 9: 100%|##########| 196/196 [00:31<00:00,  6.30it/s, loss=0.412]",
              "Validation DataLoader 0: 100%|##########| 40/40 [00:03<00:00, 12.1it/s]",
              "Testing DataLoader 0:  37%|###7      | 15/40 [00:01<00:02, 11.9it/s]",
              "Predicting DataLoader 0: 100%|##########| 10/10 [00:01<00:00, 9.1it/s]"]
    for launch, n, gpus in (("#SBATCH --nodes=1\n#SBATCH --ntasks-per-node=2\n#SBATCH --gres=gpu:2\n"
                             "srun python train.py\n", 2, "0,1"),
                            ("#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=2\n#SBATCH --gres=gpu:2\n"
                             "srun python train.py --devices 2 --num_nodes 2\n", 3, "0,1"),
                            ("#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=4\n#SBATCH --gres=gpu:4\n"
                             "srun python train.py\n", 4, "0, 1, 2, 3")):
        text = launch + "GPU available: True (cuda), used: True\n"
        for stage in stages[:n]:
            text += f"LOCAL_RANK: 0 - CUDA_VISIBLE_DEVICES: [{gpus}]\n{stage}\n"
        v, acc = _verdict(tmp_path, text)
        assert v["cause"] == "none" and not acc, (n, v)
    # the same banners with no stage line between them and no world announced: still no count of processes
    v, acc = _verdict(tmp_path, _lightning(["0,1"] * 4, 2, 2, members=False))
    assert v["cause"] == "none" and not acc, v
