"""How diagnose words the fix for torch's device check and for hard crashes by signal (round 110, session 47, fixer
f5): 'Expected all tensors to be on the same device' naming cuda:0 beside another GPU, naming the CPU (its GPU index
hidden too), raised in DeepSpeed ZeRO's own optimizer code, or in torch.cat; a worker killed by SIGFPE; a faulthandler
dump whose crashing thread stands in NCCL's communicator set-up or in a collective of a serving engine; and srun's
tasks ending in a segmentation fault. The verdicts stay as they were (unknown; the same ranks); only the fix names what
an expert would do for that shape. Each test reads the shape from lines other than the corpus case's own (other ranks,
numbers, paths, names), and a near shape that keeps its old reading. Hosts, pids, paths and names are made up."""

from __future__ import annotations

from ncclDoctor.diagnose import signatures as S
from ncclDoctor.diagnose.verdict import exits, unread
from tests.conftest import verdict_accused

_MSG = "RuntimeError: Expected all tensors to be on the same device, but found at least two devices, {a} and {b}!"


# --- cuda:0 beside another GPU: a tensor made or loaded on the default GPU --------------------------------------------
def _alike(a: str, b: str, a2: str, b2: str) -> str:
    tb = ("Traceback (most recent call last):\n"
          '  File "fit_vision.py", line 712, in <module>\n'
          "    run()\n"
          '  File "fit_vision.py", line 240, in run\n'
          "    improved = top1 > tracker.best_top1\n")
    return (tb + _MSG.format(a=a, b=b) + "\n" + " * Top1 71.204 Top5 90.118\n"
            + tb + _MSG.format(a=a2, b=b2) + "\n")


def test_cuda0_beside_another_gpu_names_set_device_and_map_location(tmp_path):
    """Lead rules BG (1), AC (1): untagged processes failing alike on the device check, one device cuda:0: unknown,
    nobody; the fix says the tensor stayed on the default GPU -- torch.cuda.set_device(local_rank) before creating
    tensors, checkpoints loaded with map_location to the local device."""
    v, acc = verdict_accused(tmp_path, _alike("cuda:3", "cuda:0", "cuda:0", "cuda:5"))
    assert v["cause"] == "unknown" and not acc, v
    assert "torch.cuda.set_device(local_rank) before creating tensors" in v["fix"], v
    assert "load checkpoints with map_location to the local device" in v["fix"], v


def test_two_gpus_neither_cuda0_keep_the_general_device_fix(tmp_path):
    """Neither device is cuda:0 (cuda:2 and cuda:3): no default-device words, the general device-placement fix only."""
    v, acc = verdict_accused(tmp_path, _alike("cuda:2", "cuda:3", "cuda:3", "cuda:2"))
    assert v["cause"] == "unknown" and not acc, v
    assert "torch's check that an op's tensors are on the same device" in v["fix"], v
    assert "before creating tensors" not in v["fix"], v
    assert unread._R_DEVICE_CUDA0.search("devices, cuda:7 and cuda:0!")
    assert not unread._R_DEVICE_CUDA0.search("devices, cuda:7 and cuda:10!")


# --- the CPU as one device: the batch, an offload or a second model ---------------------------------------------------
def test_cpu_with_the_gpu_index_hidden_names_the_batch_and_the_offload(tmp_path):
    """A report that hides the GPU's index ('cuda:y and cpu!'), untagged: unknown, nobody; the fix moves the batch to
    the model's device and names a CPU offload / a second model left on the CPU."""
    text = ("    return F.embedding(ids, self.table)\n"
            "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n" + _MSG.format(a="cuda:y", b="cpu") + "\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "unknown" and not acc, v
    assert "move input_ids / the batch to the model's device before the forward" in v["fix"], v
    assert "disable CPU offload / device_map='auto' under DDP/DeepSpeed" in v["fix"], v


def test_one_ranks_cpu_mismatch_names_it_and_the_offload(tmp_path):
    """Lead rule BJ (2): one rank's own tagged device check with the CPU: unknown, that rank; the fix names a CPU
    offload or a second model never moved (a DPO reference model) beside the EMA / device= words."""
    v, acc = verdict_accused(tmp_path, "[rank6]: " + _MSG.format(a="cpu", b="cuda:6") + "\n")
    assert v["cause"] == "unknown" and acc == {6}, (v, acc)
    assert "disable CPU offload / device_map='auto' under DDP/DeepSpeed" in v["fix"], v
    assert "a reference or teacher model" in v["fix"], v


def test_two_gpus_get_no_cpu_words(tmp_path):
    """The same tagged line with two GPUs (cuda:6 and cuda:1): no CPU-operand words; the device fix still given."""
    v, acc = verdict_accused(tmp_path, "[rank6]: " + _MSG.format(a="cuda:6", b="cuda:1") + "\n")
    assert v["cause"] == "unknown" and acc == {6}, (v, acc)
    assert "move input_ids / the batch" not in v["fix"] and "torch's check that an op's tensors" in v["fix"], v
    assert unread._R_DEVICE_CPU.search("devices, cuda:x and cpu!") and unread._R_DEVICE_CPU.search(
        "devices, cpu and cuda:12!")
    assert not unread._R_DEVICE_CPU.search("devices, cuda:6 and cuda:1!")


# --- raised in DeepSpeed ZeRO's own optimizer code ------------------------------------------------------------------
def _zero_tb(rank: int, path: str, func: str) -> str:
    p = f"[rank{rank}]: "
    return (f'{p}  File "{path}", line 1977, in step\n'
            f"{p}    self.{func}(group_id, norm)\n"
            f'{p}  File "{path}", line 2040, in {func}\n'
            f"{p}    self.fp32_groups_flat[group_id].grad.mul_(1. / scale)\n"
            f"{p}" + _MSG.format(a=f"cuda:{rank}", b="cpu") + "\n")


def test_cpu_mismatch_in_zeros_own_step_names_deepspeed_and_its_offload(tmp_path):
    """Lead rules BJ (2), BG (4): one rank's own device check raised in DeepSpeed ZeRO's optimizer (its frames in
    deepspeed/runtime/zero/): unknown, that rank; the fix names DeepSpeed's release and its CPU offload."""
    v, acc = verdict_accused(tmp_path, _zero_tb(
        5, "/opt/venv/lib/python3.11/site-packages/deepspeed/runtime/zero/stage3.py", "_clip_and_unscale"))
    assert v["cause"] == "unknown" and acc == {5}, (v, acc)
    assert "DeepSpeed ZeRO's own (_clip_and_unscale in stage3.py)" in v["fix"], v
    assert "disable offload_optimizer / offload_param (keep the optimizer on GPU) or use ZeRO-2" in v["fix"], v


def test_cpu_mismatch_in_the_jobs_own_step_is_not_deepspeeds(tmp_path):
    """The same frames in the job's own optimizer file: no DeepSpeed words, the CPU-operand fix as before."""
    v, acc = verdict_accused(tmp_path, _zero_tb(5, "/srv/train/my_optim/offload.py", "_clip_and_unscale"))
    assert v["cause"] == "unknown" and acc == {5}, (v, acc)
    assert "DeepSpeed ZeRO's own" not in v["fix"] and "One of the two devices is the CPU" in v["fix"], v
    assert "disable CPU offload" in v["fix"], v


# --- torch.cat's argument check, one rank's own beside a launcher's record of another ---------------------------------
def _cat_failed(suffix: str) -> str:
    return ("[rank3]: " + _MSG.format(a="cpu", b="cuda:3")[:-1] + "!" + suffix + "\n"
            "W0311 09:12:40.101000 8811 torch/distributed/elastic/multiprocessing/api.py:897] Sending process 9120 "
            "closing signal SIGTERM\n"
            "W0311 09:12:40.103000 8811 torch/distributed/elastic/multiprocessing/api.py:897] Sending process 9122 "
            "closing signal SIGTERM\n"
            "E0311 09:12:43.550000 8811 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) "
            "local_rank: 0 (pid: 9119) of binary: /usr/bin/python3.10\n")


def test_device_check_in_torch_cat_names_moving_before_cat(tmp_path):
    """Rule J's extension: rank 3's own device check in torch.cat and the record of local_rank 0 failing: unknown,
    [0, 3]; the fix moves the tensors to one device before torch.cat and carries the CPU-operand words."""
    v, acc = verdict_accused(tmp_path, _cat_failed(
        " (when checking argument for argument tensors in method wrapper_CUDA_cat)"))
    assert v["cause"] == "unknown" and acc == {0, 3}, (v, acc)
    assert "move the tensors to the same device before torch.cat (.to(device) / accelerator.device)" in v["fix"], v
    assert "One of the two devices is the CPU" in v["fix"], v


def test_device_check_with_no_op_named_gets_no_cat_words(tmp_path):
    """The same lines without the argument check's suffix: the same verdict and the device fix, no torch.cat words."""
    v, acc = verdict_accused(tmp_path, _cat_failed(""))
    assert v["cause"] == "unknown" and acc == {0, 3}, (v, acc)
    assert "torch.cat" not in v["fix"] and "One of the two devices is the CPU" in v["fix"], v
    assert unread._R_DEVICE_JOIN.search("in method wrapper_CUDA_stack)").group("op") == "stack"


# --- a worker killed by SIGFPE ----------------------------------------------------------------------------------------
def _killed(code: int, local: int = 6) -> str:
    return ("W0902 03:11:20.400000 140011 torch/distributed/elastic/multiprocessing/api.py:858] Sending process 77120 "
            "closing signal SIGTERM\n"
            f"E0902 03:11:20.910000 140011 torch/distributed/elastic/multiprocessing/api.py:833] failed (exitcode: "
            f"{code}) local_rank: {local} (pid: 77126) of binary: /opt/env/bin/python3.11\n")


def test_sigfpe_worker_names_dmesg_and_a_one_gpu_reproduction(tmp_path):
    """Lead rule A: torchrun's record of one worker killed by SIGFPE (exitcode -8): unknown, that rank; the fix says
    where to find the division (dmesg's 'trap divide error', a native frame) and how to reproduce it on one GPU;
    cuBLASLt's known division by zero on newer GPUs only where the lines name cuBLAS or that GPU, which this record
    does not (review 110 b #7)."""
    v, acc = verdict_accused(tmp_path, _killed(-8))
    assert v["cause"] == "unknown" and acc == {6}, (v, acc)
    assert "check dmesg for 'trap divide error' naming the library" in v["fix"], v
    assert "reproduce on one GPU with CUDA_LAUNCH_BLOCKING=1" in v["fix"], v
    assert "cuBLASLt" not in v["fix"], v


def test_sigsegv_worker_gets_no_sigfpe_words(tmp_path):
    """The same record with SIGSEGV (exitcode -11): the native-crash fix, none of SIGFPE's words."""
    v, acc = verdict_accused(tmp_path, _killed(-11))
    assert v["cause"] == "unknown" and acc == {6}, (v, acc)
    assert "A segmentation fault (SIGSEGV)" in v["fix"] and "trap divide error" not in v["fix"], v
    assert "trap divide error" in exits.FPE_FIX and "trap divide error" not in exits.NATIVE_FIX


# --- faulthandler: the crashing thread in NCCL's communicator set-up, or in a collective ------------------------------
def _fh(innermost: str) -> str:
    root = "/opt/py/lib/python3.12/site-packages/vllm"
    return ("Fatal Python error: Segmentation fault\n\n"
            "Current thread 0x00007f11aa0b7740 (most recent call first):\n"
            f'  File "{root}/distributed/device_communicators/pynccl_wrapper.py", line 298 in {innermost}\n'
            f'  File "{root}/distributed/device_communicators/pynccl.py", line 99 in __init__\n'
            f'  File "{root}/distributed/parallel_state.py", line 201 in __init__\n'
            f'  File "{root}/worker/worker.py", line 412 in init_worker_distributed_environment\n')


def test_segfault_in_nccl_comm_init_names_init_and_its_transports(tmp_path):
    """Lead rules AK (2), AC (1): one untagged process's segfault with its crashing thread in ncclCommInitRank
    (vLLM's pynccl here): unknown, nobody; the fix is NCCL's init -- NCCL_DEBUG=INFO to see how far it got, the NCCL
    build torch pins, the transports a vGPU lacks."""
    v, acc = verdict_accused(tmp_path, _fh("ncclCommInitRank"))
    assert v["cause"] == "unknown" and not acc, v
    assert "run with NCCL_DEBUG=INFO to see how far init got" in v["fix"], v
    assert "try NCCL_CUMEM_ENABLE=0 / NCCL_P2P_DISABLE=1" in v["fix"], v
    assert "reinstall nvidia-nccl-cu12 matching the torch build" in v["fix"], v


def test_segfault_in_a_pynccl_collective_keeps_the_collective_fix(tmp_path):
    """The same dump with the crashing thread in pynccl's all-reduce: the collective-crash fix (its engine words say
    to disable CUDA graphs), not the communicator set-up's."""
    v, acc = verdict_accused(tmp_path, _fh("ncclAllReduce"))
    assert v["cause"] == "unknown" and not acc, v
    assert "It crashed inside a collective" in v["fix"] and "how far init got" not in v["fix"], v
    assert "disable CUDA graphs (--disable-cuda-graph)" in v["fix"], v
    assert S.R_FH_COMM_INIT_FRAME.search('pynccl_wrapper.py", line 12 in ncclCommInitRankConfig').group("op") == \
        "ncclCommInitRankConfig"
    assert not S.R_FH_COMM_INIT_FRAME.search('pynccl_wrapper.py", line 12 in ncclAllReduce')


# --- srun's tasks ending in a segmentation fault ----------------------------------------------------------------------
def test_srun_tasks_segfaulting_name_a_backtrace_and_a_one_task_run(tmp_path):
    """Lead rules A, J: srun's only lines, two tasks on two nodes ending in 'Segmentation fault (core dumped)':
    unknown, nobody; the fix is the native crash's (a core dump / gdb backtrace of the task, one task on one node)."""
    text = ("srun: error: gpu-b07: task 2: Segmentation fault (core dumped)\n"
            "srun: Terminating job step 88123.0\n"
            "srun: error: gpu-b03: task 0: Segmentation fault (core dumped)\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "unknown" and not acc, v
    assert "get a core dump / gdb backtrace of the crashing task" in v["fix"], v
    assert "run one task on one node to reproduce" in v["fix"], v


def test_srun_tasks_exiting_with_a_code_get_no_segfault_words(tmp_path):
    """The same tasks exiting with code 1: no segmentation-fault words (the guard reads srun's signal name)."""
    text = ("srun: error: gpu-b07: task 2: Exited with exit code 1\n"
            "srun: Terminating job step 88123.0\n"
            "srun: error: gpu-b03: task 0: Exited with exit code 1\n")
    v, _ = verdict_accused(tmp_path, text)
    assert "run one task on one node" not in v["fix"] and "SIGSEGV" not in v["fix"], v
    assert unread._srun_segv_fix(["srun: error: gpu-b07: tasks 0-3: Segmentation fault"])
    assert not unread._srun_segv_fix(["srun: error: gpu-b07: task 2: Exited with exit code 1"])
