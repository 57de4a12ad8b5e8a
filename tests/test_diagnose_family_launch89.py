"""Launch set-ups round 89 showed read by their shape (rules A, AA (1), AE, AF (2), AU (2), Q, T, V (1), X (2)): each
is a launch every process shares shown wrong -- config, no rank, nobody innocent -- even where a launcher's record
names one local rank, or where nothing fails after the lines.

- A bare "RuntimeError: CUDA error: invalid device ordinal" (no traceback above it, no source file on it) under a shown
  launch of several processes per node (torchrun / torch.distributed.launch --nproc_per_node N > 1) is the local ranks
  past the node's last GPU asking for one that does not exist (rules AU (2), Q), even beside torchrun's record of the
  one local rank that failed first (codellama-123) or the set_device frame pasted below the error (unilm-511); the same
  record with no launch line shown reads so too (session 46's ruling: round 109's mlp-maps-21, round 23's
  simpletuner-40 relabelled). Not read so: an ordinal raised under the process's own frames (an index its code
  computed) or under a command line whose CUDA_VISIBLE_DEVICES leaves as many GPUs as processes.
- A shell that cannot find the launcher itself ("/bin/sh: 1: torchrun: not found", "bash: deepspeed: command not
  found") with nothing else run: no worker ever started, the launch's environment (rules X (2), AF (2);
  llamafactory-5217); the fix puts the launcher on the PATH. Another program not found (a monitoring tool) is not read
  so, nor is the launcher's line beside a worker's own failure.
- A multi-node launch command's environment prefix (NNODES=N with RANK=K below N, read as the node's rank) on two
  nodes with different MASTER_ADDR: nodes launched inconsistently (rules AA (1), V (1); llamafactory-7326). Not read
  so: the same MASTER_ADDR on both, or RANK without NNODES (a process's own rank).
- A torch.distributed.launch command of several processes per node whose script arguments set --local_rank by hand:
  the launcher passes its own --local_rank=i before them and argparse keeps the last, so every worker takes the
  hand-set value; two nodes' commands differing in it meant it as the node's rank the launcher is never told (rules
  AA (1), AE, V (1); unilm-671). Not read so under torchrun (it passes no --local_rank), with --use_env, or with one
  process per node.
"""
from __future__ import annotations

from tests.conftest import verdict_accused as _verdict

_RECORD = ("WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 101 closing signal SIGTERM\n"
           "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: {lr} (pid: 103) of "
           "binary: /usr/bin/python3\n")
_ORDINAL = ("RuntimeError: CUDA error: invalid device ordinal\n"
            "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below "
            "might be incorrect.\n")


# --- invalid device ordinal said bare under a shown launch ------------------------------------------------------------
def test_bare_ordinal_under_a_launch_of_several_per_node_is_config_despite_the_record(tmp_path):
    v, acc = _verdict(tmp_path, "torchrun --nproc_per_node 4 generate.py --ckpt_dir ckpt/\n" + _ORDINAL
                      + _RECORD.format(lr=2))
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "nproc_per_node" in v["fix"], v


def test_bare_ordinal_with_the_set_device_frame_pasted_below_it_is_config(tmp_path):
    v, acc = _verdict(tmp_path, "\tRuntimeError: CUDA error: invalid device ordinal\n"
                                "    torch._C._cuda_setDevice(device)\n"
                                "python -m torch.distributed.launch --nproc_per_node=4 run.py \\\n--do_train\n")
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v


def test_the_record_without_a_launch_line_is_config_too(tmp_path):
    # rule AU (2), "whether or not the launch setting is shown" (session 46's ruling; simpletuner-40 relabelled)
    v, acc = _verdict(tmp_path, _ORDINAL + _RECORD.format(lr=1))
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v


def test_an_ordinal_under_the_process_own_frames_keeps_its_rank(tmp_path):
    v, _ = _verdict(tmp_path, "torchrun --nproc_per_node 4 train.py\n"
                              "Traceback (most recent call last):\n"
                              '  File "/w/train.py", line 40, in <module>\n'
                              "    x = x.to(f'cuda:{args.eval_gpu}')\n"
                              "RuntimeError: CUDA error: invalid device ordinal\n" + _RECORD.format(lr=2))
    assert (v["cause"], v["culprits"]) == ("cuda_error", [2]), v


def test_an_ordinal_where_cuda_visible_devices_leaves_one_gpu_per_process_keeps_its_rank(tmp_path):
    v, _ = _verdict(tmp_path, "CUDA_VISIBLE_DEVICES=0,1,2,3 torchrun --nproc_per_node 4 train.py\n"
                              "RuntimeError: CUDA error: invalid device ordinal\n" + _RECORD.format(lr=2))
    assert (v["cause"], v["culprits"]) == ("cuda_error", [2]), v


# --- the launcher itself not found ------------------------------------------------------------------------------------
def test_the_launcher_not_found_by_the_shell_is_config(tmp_path):
    v, acc = _verdict(tmp_path, "08/20/2024 19:04:44 - INFO - cli - Initializing distributed tasks at: 10.0.0.5:29500\n"
                                "/bin/sh: 1: torchrun: not found\n")
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "python -m torch.distributed.run" in v["fix"] and "PATH" in v["fix"], v
    v, _ = _verdict(tmp_path, "bash: deepspeed: command not found\n")
    assert (v["cause"], v["culprits"]) == ("config", []) and "deepspeed" in v["fix"], v


def test_another_program_not_found_or_the_launcher_beside_a_failure_is_not_read_so(tmp_path):
    v, _ = _verdict(tmp_path, "/bin/sh: gpustat: command not found\n")
    assert v["cause"] == "none", v
    v, _ = _verdict(tmp_path, "/bin/sh: 1: torchrun: not found\n"
                              "[rank1]: RuntimeError: NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled system "
                              "error\n")
    assert "launcher" not in v["summary"], v


# --- NNODES / RANK environment prefixes on two nodes ------------------------------------------------------------------
_NODE = "FORCE_TORCHRUN=1 NNODES=2 RANK={r} MASTER_ADDR={a} MASTER_PORT=29500 llamafactory-cli train lora.yaml\n"


def test_two_nodes_env_prefixes_with_different_master_addr_are_config(tmp_path):
    v, acc = _verdict(tmp_path, _NODE.format(r=0, a="10.0.0.1") + _NODE.format(r=1, a="10.0.0.2"))
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "MASTER_ADDR" in v["fix"], v


def test_same_master_addr_or_rank_without_nnodes_is_not_read_so(tmp_path):
    v, _ = _verdict(tmp_path, _NODE.format(r=0, a="10.0.0.1") + _NODE.format(r=1, a="10.0.0.1"))
    assert v["cause"] == "none", v
    v, _ = _verdict(tmp_path, "RANK=0 MASTER_ADDR=10.0.0.1 MASTER_PORT=29500 python train.py\n"
                              "RANK=1 MASTER_ADDR=10.0.0.2 MASTER_PORT=29500 python train.py\n")
    assert v["cause"] == "none", v


# --- --local_rank set by hand under torch.distributed.launch ----------------------------------------------------------
_LAUNCH = ("python -m torch.distributed.launch --nproc_per_node={n} {opt}main.py --world_size 2 --local_rank {lr} "
           "--dist_url tcp://10.0.0.1:23456\n")


def test_two_nodes_launch_commands_with_local_rank_by_hand_are_config(tmp_path):
    v, acc = _verdict(tmp_path, _LAUNCH.format(n=8, opt="", lr=0) + _LAUNCH.format(n=8, opt="", lr=1))
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "do not pass --local_rank by hand" in v["fix"] and "--node_rank" in v["fix"], v


def test_local_rank_by_hand_under_torchrun_use_env_or_one_process_is_not_read_so(tmp_path):
    for text in ("torchrun --nproc_per_node=8 main.py --local_rank 0\n", _LAUNCH.format(n=1, opt="", lr=0),
                 _LAUNCH.format(n=4, opt="--use_env ", lr=0)):
        v, _ = _verdict(tmp_path, text)
        assert v["cause"] == "none", (text, v)
