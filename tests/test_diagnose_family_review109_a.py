"""Review a of round 109's fixes (session 46, fixer y1): the seven findings, each with a near shape that keeps the
reading the change was made for. (1) UCX's failed registration is nccl_system only where the plugin or the proxy's
Connect fails on it; (2) autograd's second-backward refusal needs two processes, not two tracebacks; (3) the
Batch/Single...Wrapper reading names FlashInfer only where flashinfer appears in the lines; (4) the launch-environment
fix names the launcher that sets that variable; (5) the net_ib.cc GID words only where a GID is named; (6) the split
dimension's remedies only where the message names the dimension; (7) each removed variable's advice once, from the
findings kept. Hosts, pids, paths and numbers are made up."""

from __future__ import annotations

from ncclDoctor.diagnose import generic
from tests.conftest import verdict_accused

# --- (1) UCX's registration failure -----------------------------------------------------------------------------------
_UCX = ("[1733100000.123456] [gpu-a7:4411:1]         rcache.c:985  UCX  ERROR failed to insert region 0x55aa10 "
        "[0x7f1000000000..0x7f1000200000]: Invalid parameter\n")


def test_ucx_registration_line_beside_a_completed_run_is_chatter(tmp_path):
    """Rule K: the UCX line, then Init COMPLETE, a full nccl-tests table, Destroy COMPLETE on both ranks and the
    closing bandwidth: nothing failed, none -- not nccl_system 'before any data moved'."""
    text = ("# nccl-tests version 2.13.9 nccl-headers=21903 nccl-library=21903\n"
            "# Collective test starting: all_gather_perf\n"
            "#  Rank  0 Group  0 Pid   4411 on     gpu-a7 device  0 [0x1b] NVIDIA A100-SXM4-80GB\n"
            "#  Rank  1 Group  0 Pid   5120 on     gpu-a8 device  0 [0x1b] NVIDIA A100-SXM4-80GB\n"
            "gpu-a7:4411:4411 [0] NCCL INFO NCCL version 2.19.3+cuda12.3\n" + _UCX
            + "gpu-a7:4411:4411 [0] NCCL INFO comm 0x7a1 rank 0 nranks 2 cudaDev 0 busId 1b000 - Init COMPLETE\n"
            "gpu-a8:5120:5120 [0] NCCL INFO comm 0x7a2 rank 1 nranks 2 cudaDev 0 busId 1b000 - Init COMPLETE\n"
            "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   "
            "busbw #wrong\n"
            "     2097152        262144     float    none      -1    88.10   23.80   11.90      0    87.95   23.84   "
            "11.92      0\n"
            "gpu-a7:4411:4411 [0] NCCL INFO comm 0x7a1 rank 0 nranks 2 cudaDev 0 busId 1b000 - Destroy COMPLETE\n"
            "gpu-a8:5120:5120 [0] NCCL INFO comm 0x7a2 rank 1 nranks 2 cudaDev 0 busId 1b000 - Destroy COMPLETE\n"
            "# Out of bounds values : 0 OK\n"
            "# Avg bus bandwidth    : 11.91\n#\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "none" and not acc, v
    assert "before any data moved" not in v["summary"], v


def test_ucx_registration_line_before_a_later_hang_keeps_the_hang(tmp_path):
    """Rule O: the UCX line, then every rank of a world of 2 timing out in collective 4051 (4050 finished: data
    moved): the hang's reading, transport_stall, nobody -- not nccl_system."""
    text = (_UCX
            + "gpu-a7:4411:4411 [0] NCCL INFO comm 0x7a1 rank 0 nranks 2 cudaDev 0 busId 1b000 - Init COMPLETE\n"
            "gpu-a7:4412:4412 [1] NCCL INFO comm 0x7a2 rank 1 nranks 2 cudaDev 1 busId 2c000 - Init COMPLETE\n"
            + "".join(f"[rank{r}]:[E1203 08:11:00.000000 {4411 + r} ProcessGroupNCCL.cpp:632] [Rank {r}] Watchdog "
                      "caught collective operation timeout: WorkNCCL(SeqNum=4051, OpType=ALLGATHER, NumelIn=64, "
                      "NumelOut=128, Timeout(ms)=600000) ran for 600031 milliseconds before timing out.\n"
                      for r in (0, 1)))
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "transport_stall" and not acc and v["culprits"] == [], v
    assert "UCX" not in v["summary"], v


def _ucx_connect(closed: bool) -> str:
    return (_UCX
            + "gpu-a7:4411:4420 [0] ucx_plugin.c:498 NCCL WARN Failed: UCX error ucx_plugin.c:498 '-5' Invalid "
            "parameter\n"
            "gpu-a7:4411:4420 [0] NCCL INFO transport/net.cc:858 -> 3\n"
            "gpu-a7:4411:4420 [0] proxy.cc:1524 NCCL WARN [Proxy Service 0] Failed to execute operation Connect from "
            "rank 0, retcode 3\n"
            + ("gpu-a7:4411:4418 [0] misc/socket.cc:57 NCCL WARN socketProgress: Connection closed by remote peer "
               "gpu-a8<41877>\n" if closed else "")
            + "gpu-a7: Test NCCL failure common.cu:1158 'internal error - please report this issue to the NCCL "
            "developers / '\n .. gpu-a7 pid 4411: Test failure common.cu:1000\n")


def test_ucx_registration_breaking_the_connect_is_nccl_system(tmp_path):
    """Near shape (round 109's rccl-1261): the plugin's 'Failed: UCX error' and the proxy's failed Connect follow
    the UCX line: nccl_system, nobody; the summary names the torn-down connection only where its line is shown."""
    v, acc = verdict_accused(tmp_path, _ucx_connect(closed=True))
    assert v["cause"] == "nccl_system" and not acc and v["culprits"] == [], v
    assert "Connection closed by remote peer" in v["summary"], v
    v, acc = verdict_accused(tmp_path, _ucx_connect(closed=False))
    assert v["cause"] == "nccl_system" and not acc, v
    assert "Connection closed" not in v["summary"], v


# --- (2) autograd's second backward -----------------------------------------------------------------------------------
def _backward_tb(prefix: str = "", header: str = "", short: bool = False) -> str:
    lines = ([header] if header else []) + [
        "Traceback (most recent call last):",
        '  File "/srv/cyclegan/train.py", line 143, in <module>',
        "    loss_g.backward()",
        '  File "/opt/py/lib/python3.10/site-packages/torch/_tensor.py", line 522, in backward',
        "    torch.autograd.backward(",
        "RuntimeError: Trying to backward through the graph a second time (or directly access saved tensors after "
        "they have already been freed)." + ("" if short else " Saved intermediate values of the graph are freed when "
                                             "you call .backward() or autograd.grad(). Specify retain_graph=True if "
                                             "you need to backward through the graph a second time or if you need to "
                                             "access saved tensors after calling backward.")]
    return "".join(f"{prefix}{line}\n" for line in lines)


_RECORD = ("E1203 09:00:05.123000 71 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) "
           "local_rank: 5 (pid: 9021) of binary: /usr/bin/python3\n")


def test_one_rank_printing_the_second_backward_twice_keeps_that_rank(tmp_path):
    """Rule A: two tracebacks, both under [rank5]:, and torchrun's record of local_rank 5: one process, not two --
    the base reading of rank 5 (not invalid_usage 'on every rank')."""
    text = _backward_tb("[rank5]: ") + "[rank5]: epoch 3 step 40\n" + _backward_tb("[rank5]: ") + _RECORD
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] != "invalid_usage" and v["culprits"] == [5], v


def test_two_ranks_refusing_the_second_backward_is_invalid_usage(tmp_path):
    """Near shape: the same refusal under [rank0]: and [rank1]: -- two processes alike: invalid_usage, nobody."""
    v, acc = verdict_accused(tmp_path, _backward_tb("[rank0]: ") + _backward_tb("[rank1]: "))
    assert v["cause"] == "invalid_usage" and not acc and v["culprits"] == [], v
    assert "2 processes" in v["summary"], v


def test_second_backward_under_process_headers_reads_alike_with_one_prefix(tmp_path):
    """Round 109's mu-diff shape: untagged tracebacks under multiprocessing's 'Process Process-1:' / 'Process-2:'
    headers are two processes; the paste with every line prefixed by one '[rank2]: ' reads the same (rankprefix)."""
    text = (_backward_tb() + _backward_tb(header="Process Process-1:") + _backward_tb(short=True)
            + _backward_tb(header="Process Process-2:", short=True))
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "invalid_usage" and not acc, v
    v, acc = verdict_accused(tmp_path, "".join(f"[rank2]: {line}\n" for line in text.splitlines()))
    assert v["cause"] == "invalid_usage", v


# --- (3) a Batch/Single...Wrapper of another library ------------------------------------------------------------------
def _wrapper_tb(pkg: str, cls: str, code: str) -> str:
    return ("Traceback (most recent call last):\n"
            '  File "/srv/app/serve.py", line 31, in <module>\n'
            "    engine.step(batch)\n"
            f'  File "/usr/local/lib/python3.11/site-packages/{pkg}/runtime/engine.py", line 402, in step\n'
            f"    {code}\n"
            f"TypeError: {cls}() missing 1 required positional argument: 'stride'\n")


def test_another_librarys_batch_wrapper_does_not_name_flashinfer(tmp_path):
    """A site-packages/torchdata frame calling BatchShuffleWrapper.reset(): nothing names flashinfer, so the
    FlashInfer reading does not apply -- the base reading (not config naming a flashinfer wheel)."""
    v, acc = verdict_accused(tmp_path, _wrapper_tb("torchdata", "BatchShuffleWrapper.reset",
                                                   "self.shuffler.reset(seed)"))
    assert "flashinfer" not in (v["summary"] + v["fix"]).lower(), v
    assert v["cause"] == "unknown" and not acc, v


def test_flashinfer_wrapper_with_flashinfer_in_the_frames_is_config(tmp_path):
    """Near shape: the frame's code calls the flashinfer wrapper (self.flashinfer_decode.plan): config, nobody,
    naming flashinfer."""
    v, acc = verdict_accused(tmp_path, _wrapper_tb("sglang", "BatchDecodeWithPagedKVCacheWrapper.plan",
                                                   "self.flashinfer_decode.plan(*args)"))
    assert v["cause"] == "config" and not acc and "flashinfer" in v["summary"], v


# --- (4) the launcher that sets the variable --------------------------------------------------------------------------
def _keyerror(var: str) -> str:
    return ("Traceback (most recent call last):\n"
            '  File "/home/x/run/launch_job.py", line 18, in <module>\n'
            f"    node = int(os.environ['{var}'])\n"
            '  File "/usr/lib/python3.11/os.py", line 679, in __getitem__\n'
            "    raise KeyError(key) from None\n"
            f"KeyError: '{var}'\n")


def test_a_slurm_variable_names_srun_not_torchrun(tmp_path):
    v, acc = verdict_accused(tmp_path, _keyerror("SLURM_LOCALID"))
    assert v["cause"] == "config" and not acc, v
    assert "launch with srun so SLURM_LOCALID is set" in v["fix"], v
    assert "so SLURM_LOCALID is set" not in v["fix"].replace("launch with srun so SLURM_LOCALID is set", ""), v
    assert "torchrun / the deepspeed launcher so SLURM" not in v["fix"], v


def test_an_mpi_variable_names_mpirun(tmp_path):
    v, _ = verdict_accused(tmp_path, _keyerror("OMPI_COMM_WORLD_LOCAL_RANK"))
    assert "launch with mpirun so OMPI_COMM_WORLD_LOCAL_RANK is set" in v["fix"], v
    assert generic._launch_env_words("KeyError: 'PMI_RANK'").count("launch with mpirun so PMI_RANK is set") == 1


def test_a_variable_no_launcher_sets_names_no_launcher(tmp_path):
    """'environment variable WANDB_API_KEY is not set': no launcher sets it -- no 'launch with ... so it is set'."""
    text = ("Traceback (most recent call last):\n"
            '  File "/home/x/proj/log.py", line 9, in <module>\n'
            "    key = need_key()\n"
            "ValueError: environment variable WANDB_API_KEY is not set\n")
    v, _ = verdict_accused(tmp_path, text)
    assert "WANDB_API_KEY environment variable not set" in v["fix"], v
    assert "so WANDB_API_KEY is set" not in v["fix"], v


def test_a_torch_launch_variable_still_names_torchrun(tmp_path):
    """Near shape: KeyError: 'LOCAL_RANK' keeps torchrun / the deepspeed launcher."""
    v, _ = verdict_accused(tmp_path, _keyerror("LOCAL_RANK"))
    assert "launch with torchrun / the deepspeed launcher so LOCAL_RANK is set" in v["fix"], v


# --- (5) the GID words ------------------------------------------------------------------------------------------------
def _ib_system_error(last: str, extra: str = "") -> str:
    return (extra + "hostq:7711:7790 [2] NCCL INFO transport/net_ib.cc:1302 -> 2\n"
            "hostq:7711:7790 [2] NCCL INFO transport/net.cc:1087 -> 2\n"
            "hostq:7711:7790 [2] NCCL INFO proxy.cc:944 -> 2\n"
            "Traceback (most recent call last):\n"
            '  File "fit.py", line 61, in <module>\n'
            "    dist.all_reduce(g)\n"
            "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:"
            "1970, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5\n"
            "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error. \n"
            f"Last error:\n{last}\n")


def test_a_net_ib_trail_alone_gets_no_gid_words(tmp_path):
    """A data-path request failing (NET/IB : req 2 type 1 failed) with a net_ib.cc -> 2 trail: no GID claim."""
    v, _ = verdict_accused(tmp_path, _ib_system_error("NET/IB : req 2 type 1 failed"))
    assert "GID" not in v["fix"] and "gid_attrs" not in v["fix"], v


def test_a_net_ib_trail_naming_the_gid_gets_the_gid_words(tmp_path):
    """Near shape (round 109's nccl-1332): the lines show the GID chosen (NCCL_IB_GID_INDEX set by environment)."""
    v, _ = verdict_accused(tmp_path, _ib_system_error(
        "NET/IB : req 2 type 1 failed",
        "hostq:7711:7790 [2] NCCL INFO NCCL_IB_GID_INDEX set by environment to 5.\n"))
    assert "port's GID failed" in v["fix"], v


# --- (6) the split dimension's remedies -------------------------------------------------------------------------------
def test_world_size_against_parallel_sizes_gets_the_parallel_sizes_advice_alone(tmp_path):
    text = ("Traceback (most recent call last):\n"
            '  File "/srv/megatron/pretrain_bert.py", line 88, in <module>\n'
            "    initialize_megatron()\n"
            "AssertionError: world size (12) is not divisible by tensor model parallel size (8) times pipeline model "
            "parallel size (1)\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "config" and not acc, v
    assert "num_attention_heads" not in v["fix"] and "--num-layers" not in v["fix"] and "drop_last" not in v["fix"], v
    assert "must multiply to the number of GPUs" in v["fix"], v


def test_heads_against_the_tensor_parallel_size_keep_the_head_advice(tmp_path):
    """Near shape: the message names the heads split: the head / KV-head remedies."""
    text = ("Traceback (most recent call last):\n"
            '  File "/usr/local/lib/python3.10/site-packages/vllm/config.py", line 311, in verify_parallel\n'
            "    raise ValueError(\n"
            "ValueError: Total number of attention heads (20) must be divisible by tensor parallel size (8).\n")
    v, _ = verdict_accused(tmp_path, text)
    assert "num_attention_heads and num_key_value_heads" in v["fix"], v
    assert generic.parallel_dim_words("world_size (6) must be divisible by tp_size (4)") == ""


# --- (7) removed variables' advice ------------------------------------------------------------------------------------
def _removed(version: str) -> str:
    return ("export NCCL_LL_THRESHOLD=16384\n"
            "export NCCL_IB_CUDA_SUPPORT=0\n"
            f"hostm:210:210 [0] NCCL INFO NCCL version {version}\n"
            "hostm:210:210 [0] NCCL INFO NCCL_LL_THRESHOLD set by environment to 16384.\n")


def test_removed_variable_advice_once_and_not_for_a_variable_the_version_reads(tmp_path):
    """NCCL 2.4.7 shown (an INFO line): it still reads NCCL_LL_THRESHOLD (removed in 2.5), so only
    NCCL_IB_CUDA_SUPPORT (removed in 2.4.0) is advised, once."""
    v, _ = verdict_accused(tmp_path, _removed("2.4.7+cuda10.0"))
    assert v["fix"].count("Remove the removed NCCL_IB_CUDA_SUPPORT variable") == 1, v
    assert "Remove it, or use the replacement shown in the message" not in v["fix"], v
    assert "NCCL_LL_THRESHOLD" not in v["fix"], v


def test_removed_variables_under_a_newer_nccl_each_advised_once(tmp_path):
    """Near shape: NCCL 2.21.5 reads neither: each removed variable's sentence once."""
    v, _ = verdict_accused(tmp_path, _removed("2.21.5+cuda12.4"))
    assert v["cause"] == "config", v
    assert v["fix"].count("Remove the removed NCCL_IB_CUDA_SUPPORT variable") == 1, v
    assert v["fix"].count("Remove the removed NCCL_LL_THRESHOLD variable") == 1, v
    assert "Remove it, or use the replacement shown in the message" not in v["fix"], v
