"""How diagnose reads round 96's Slurm and launcher settings shown wrong (session 38, f4): the env:// rendezvous'
message of a variable the launcher sets wrapped onto the line under its exception (prime-rl-3146), a launch
environment printed as one dict giving global rank 0 on a host other than MASTER_ADDR (pytorch-137402, rule AA (1)),
Lightning's warning that the GPUs requested and the Slurm tasks launched differ (pytorch-lightning-102, rules V (1),
BP (1)), and Lightning's device check on one line, its message's line break kept as "\\n" (pytorch-lightning-16828,
rules W, AU (2)). Each test reads the shape from lines other than the case's own (other ranks, numbers, hosts), and a
near shape that must keep its old reading. Hosts and numbers are made up."""

from __future__ import annotations

from tests.conftest import verdict_accused


# --- the env:// rendezvous' message wrapped onto the line under its exception ----------------------------------------
def test_an_unset_rank_variable_on_the_line_under_the_rendezvous_error_is_a_launch_without_torchrun(tmp_path):
    """The exception's message ends at "rendezvous:" and its variable is named on the next line (RANK or WORLD_SIZE,
    which hold no other trigger word): started without the launcher that sets them -- config, nobody named, with the
    Slurm mapping in the fix."""
    for var in ("RANK", "WORLD_SIZE"):
        v, acc = verdict_accused(tmp_path, "Starting trainer in World(world_size=1, rank=0, local_rank=0)\n\n"
                                 "ValueError: Error initializing torch.distributed using env:// rendezvous:\n"
                                 f"environment variable {var} expected, but not set\n")
        assert (v["cause"], v["culprits"]) == ("config", []) and not acc, (var, v)
        assert "srun torchrun --nproc-per-node" in v["fix"] and "SLURM_PROCID/SLURM_NTASKS/SLURM_LOCALID" in v["fix"]


def test_the_rendezvous_error_without_its_variable_keeps_the_store_reading(tmp_path):
    """The near shape: the same exception whose next line names no variable is still the rendezvous' own words."""
    v, acc = verdict_accused(tmp_path, "ValueError: Error initializing torch.distributed using env:// rendezvous:\n"
                             "the store could not be reached\n")
    assert v["cause"] == "store_rendezvous" and not acc, v


# --- a launch environment printed as one dict: rank 0 not on MASTER_ADDR's host --------------------------------------
def _env(host: str, master: str, rank: int, world: int = 8) -> str:
    return (f"{{'HOSTNAME': '{host}', 'MASTER_ADDR': '{master}', 'MASTER_PORT': '29411', 'LOCAL_RANK': '{rank % 4}', "
            f"'RANK': '{rank}', 'WORLD_SIZE': '{world}', 'LOCAL_WORLD_SIZE': '4'}}\n")


_C10D = ("srun bash -c 'torchrun --nproc_per_node 4 --nnodes 2 --master_addr $MASTER_NODE --master_port 29411 "
         "--rdzv_endpoint $MASTER_NODE:29411 --rdzv_backend c10d train.py'\n")


def test_global_rank_zero_on_a_host_other_than_master_addr_is_a_launch_setting(tmp_path):
    """Rule AA (1): a worker's environment shows RANK 0 on node-b17 while MASTER_ADDR is node-a03, nothing failing:
    config, nobody named, with the static rendezvous in the fix (also as a JSON object)."""
    for text in (_C10D + _env("node-b17", "node-a03", 0),
                 _env("node-b17", "node-a03", 0).replace("'", '"'),
                 _env("node-a03", "node-a03", 4) + _env("node-b17.cluster", "node-a03.cluster", 0, 16)):
        v, acc = verdict_accused(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
        assert "--rdzv_backend=static" in v["fix"] and "--node_rank" in v["fix"], v


def test_rank_zero_on_the_master_host_or_another_rank_elsewhere_keeps_nothing_failed(tmp_path):
    """The near shapes: rank 0 on MASTER_ADDR's own host (short and full names), rank 4 on another host, an address
    against a host name, and a world of one are nothing shown wrong: still 'none'."""
    for text in (_C10D + _env("node-a03", "node-a03", 0), _env("node-a03.cluster", "node-a03", 0),
                 _env("node-b17", "node-a03", 4), _env("node-b17", "10.1.2.3", 0), _env("node-b17", "node-a03", 0, 1)):
        v, acc = verdict_accused(tmp_path, text)
        assert v["cause"] == "none" and not acc, (text, v)


# --- Lightning's warning: GPUs requested against the Slurm tasks launched --------------------------------------------
_WARN = ("UserWarning: \nYou requested {g} GPUs but launched {t} slurm tasks.\nWe will launch {g} processes for you.\n"
         "We recommend you let slurm manage the processes by setting: --ntasks-per-node={g}\n"
         "If you're not using SLURM, ignore this message!\n")


def test_gpus_requested_against_fewer_slurm_tasks_is_a_launch_setting(tmp_path):
    """Rules V (1), BP (1): 4 (8) GPUs requested, 1 (2) Slurm task(s) launched, nothing failing: config, nobody named,
    low, with the tasks-per-node fix."""
    for g, t in ((4, 1), (8, 2)):
        v, acc = verdict_accused(tmp_path, _WARN.format(g=g, t=t))
        assert (v["cause"], v["culprits"], v["confidence"]) == ("config", [], "low") and not acc, v
        assert f"--ntasks-per-node={g}" in v["fix"] and "one Slurm task per GPU" in v["fix"], v


def test_the_slurm_warning_beside_a_ranks_own_failure_keeps_that_failure(tmp_path):
    """The near shape: the same warning, then a CUDA OOM of its own: the failure shown is read, not the setting."""
    v, _ = verdict_accused(tmp_path, _WARN.format(g=4, t=1) + "torch.OutOfMemoryError: CUDA out of memory. Tried to "
                           "allocate 2.00 GiB (GPU 0; 79.10 GiB total capacity; 77.50 GiB already allocated)\n")
    assert (v["cause"], v["culprits"]) == ("gpu_oom", []), v  # the failure (review 96 finding 10)


# --- Lightning's device check on one line ----------------------------------------------------------------------------
def test_a_one_line_device_check_of_fewer_visible_gpus_is_the_allocation(tmp_path):
    """Rules W, AU (2): the check's exception on one line -- its repr with the line break kept as "\\n", or the class
    and message joined -- asking for GPUs 0-3 (0-1) where the machine has [0] ([1]): config, nobody named."""
    for text in ("MisconfigurationException('You requested gpu: [0, 1, 2, 3]\\n But your machine only has: [0]\n",
                 "lightning_fabric.utilities.exceptions.MisconfigurationException: You requested gpu: [0, 1] "
                 "But your machine only has: [1]\n"):
        v, acc = verdict_accused(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
        assert "--gres=gpu:N" in v["fix"] and "CUDA_VISIBLE_DEVICES" in v["fix"], v


def test_a_one_line_exception_of_other_words_keeps_its_reading(tmp_path):
    """The near shape: the same class on one line with another message (no devices seen) gets no device fix."""
    v, _ = verdict_accused(tmp_path, "lightning_fabric.utilities.exceptions.MisconfigurationException: The provided "
                           "lr scheduler is invalid, it only has: a step method\n")
    assert "--gres" not in v["fix"], v
