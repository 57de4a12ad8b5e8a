"""Round 63's shapes (session 22, fixer g2): what an expert reads from torch's CUDA driver-API error, an NCCL CUDA
failure whose process the traceback below it names, ... Each test holds the shape that must be read and a near shape
that must not be read that way. Hosts, pids, paths and numbers are made up; the format strings are torch's and
NCCL's."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict

# --- torch's CUDA driver-API check: "CUDA driver error: <cuGetErrorString>" (c10/cuda/driver_api.h) ---------------
_OPTIM_TB = ("[rank2]: Traceback (most recent call last):\n"
             '[rank2]:   File "/work/train.py", line 88, in <module>\n'
             "[rank2]:     optimizer.step()\n"
             '[rank2]:   File "/opt/env/lib/python3.11/site-packages/torch/optim/adamw.py", line 699, in '
             "_multi_tensor_adamw\n"
             "[rank2]:     exp_avg_sq_sqrt = torch._foreach_sqrt(device_exp_avg_sqs)\n")


def test_torchs_cuda_driver_error_is_a_cuda_error_of_the_rank_that_raised_it(tmp_path):
    """C10_CUDA_DRIVER_CHECK raises "CUDA driver error: <the driver's string>": the same CUDA failure as the runtime's
    "CUDA error: ...", reached through the driver API; the rank whose own traceback ends in it is the culprit (rule I),
    cause cuda_error (round 63's llamafactory-9155)."""
    v = _verdict(tmp_path, _OPTIM_TB + "[rank2]: RuntimeError: CUDA driver error: invalid argument\n")
    assert v["cause"] == "cuda_error" and v["culprits"] == [2]


def test_a_driver_named_in_another_runtime_error_is_no_cuda_error(tmp_path):
    """Near shape: a RuntimeError that only mentions the driver ("... the NVIDIA driver ... error") without torch's
    "CUDA driver error: " text is not read as a CUDA error."""
    v = _verdict(tmp_path, _OPTIM_TB + "[rank2]: RuntimeError: driver error while loading the tokenizer plugin\n")
    assert v["cause"] != "cuda_error"


# --- NCCL's 'Cuda failure' WARN whose process the rank-tagged traceback right below names (lead rule AM (3)) -------
def _nccl_cuda_then_tb(tag: str, host: str = "ws01", pid: int = 4242, second_proc: bool = False) -> str:
    t = pid + 200
    lines = [f"{host}:{pid}:{t} [0] include/alloc.h:237 NCCL WARN Cuda failure 999 'unknown error'",
             f"{host}:{pid}:{t} [0] NCCL INFO include/alloc.h:338 -> 1",
             f"{host}:{pid}:{t} [0] NCCL INFO channel.cc:42 -> 1",
             f"{host}:{pid}:{t} [0] NCCL INFO init.cc:590 -> 1",
             f"{host}:{pid}:{t} [0] NCCL INFO group.cc:75 -> 1 [Async thread]",
             f"{host}:{pid}:{pid} [0] NCCL INFO group.cc:422 -> 1"]
    if second_proc:
        lines.append(f"{host}:{pid + 1}:{pid + 1} [1] NCCL INFO group.cc:422 -> 1")
    lines += [f"{tag}Traceback (most recent call last):",
              f'{tag}  File "/work/train.py", line 431, in <module>',
              f"{tag}    torch.distributed.broadcast_object_list(queue, src=0)"]
    return "\n".join(lines) + "\n"


def test_nccl_cuda_failure_is_the_rank_whose_traceback_it_raised(tmp_path):
    """One process's NCCL WARN 'Cuda failure 999', its return trail, then the traceback it raised under "[rank0]:":
    the only process of the lines is that rank, and it failed creating its communicator -- named, cuda_error (round
    63's diffusion-pipe-292)."""
    v = _verdict(tmp_path, _nccl_cuda_then_tb("[rank0]: "))
    assert v["cause"] == "cuda_error" and v["culprits"] == [0]


def test_nccl_cuda_failure_names_no_rank_without_a_tagged_traceback_or_with_two_processes(tmp_path):
    """Near shapes: the traceback under no rank tag, or a second process's lines in the input, leave the device index
    as no rank: nobody is named."""
    d = _report(tmp_path, _nccl_cuda_then_tb(""))
    assert d["verdict"]["cause"] == "cuda_error" and not _accused(d)
    d = _report(tmp_path, _nccl_cuda_then_tb("[rank0]: ", second_proc=True), "two.log")
    assert not _accused(d)


# --- lead rule N: a rank's exit-time destroy_process_group() warning, then another's store read cut -------------
_EXIT_WARN = ("[rank0]:[W311 08:14:02.118000000 ProcessGroupNCCL.cpp:1479] Warning: WARNING: destroy_process_group() "
              "was not called before program exit, which can leak resources. For more info, please see "
              "https://pytorch.org/docs/stable/distributed.html#shutdown (function operator())\n"
              "[rank3]:[W311 08:14:03.402000000 TCPStore.cpp:125] [c10d] recvValue failed on SocketImpl(fd=41, "
              "addr=[::ffff:10.0.0.5]:40112, remote=[::ffff:10.0.0.4]:29500): failed to recv, got 0 bytes\n"
              "Exception raised from recvBytes at /pytorch/torch/csrc/distributed/c10d/Utils.hpp:678 (most recent "
              "call first):\n")


def test_store_read_cut_after_a_ranks_exit_warning_is_the_end_of_the_job(tmp_path):
    """Rank 0 warns at its exit that destroy_process_group() was not called, then another rank's c10d [W] TCPStore
    recvValue gets 0 bytes: the store's host exited at the end, and nothing fails after it -- none (rule N; round 63's
    falcon-12)."""
    d = _report(tmp_path, _EXIT_WARN)
    assert d["verdict"]["cause"] == "none" and not _accused(d)


def test_store_read_cut_after_an_exit_warning_followed_by_a_failure_is_no_end_of_job(tmp_path):
    """Near shape: the same two warnings, then a rank's own exception: something failed, so the store warnings are
    not read as a clean end."""
    d = _report(tmp_path, _EXIT_WARN + "[rank3]: Traceback (most recent call last):\n"
                '[rank3]:   File "/work/train.py", line 50, in <module>\n'
                "[rank3]: torch.distributed.DistStoreError: Socket Timeout\n")
    assert d["verdict"]["cause"] != "none"


# --- lead rule AD (3): NCCL's proxy service thread reading bytes from a connection that is no local rank --------
def _proxy_unknown(local_rank: int) -> str:
    p = "gpu-node-7:55:310 [0]"
    return ("Train Epoch: 9 [12800/64000 (20%)] Loss: 0.0412\n" * 3 + "training done\n"
            + f"{p} NCCL INFO [Service thread] Connection closed by localRank {local_rank}\n"
            + f"{p} proxy.cc:1111 NCCL WARN [Service thread] Unknown command 71234 from localRank {local_rank}\n" * 2)


def test_proxy_unknown_command_from_local_rank_minus_one_is_an_outside_connection(tmp_path):
    """proxy.cc's service thread knows a connection's local rank only once the peer's init request set it: an
    'Unknown command N from localRank -1' is bytes from something outside the job (a port scanner) on NCCL's port,
    with nothing failing after it -- none (rule AD (3); round 63's nccl-851)."""
    d = _report(tmp_path, _proxy_unknown(-1))
    assert d["verdict"]["cause"] == "none" and not _accused(d)
    assert "localRank -1" in d["verdict"]["fix"] or "port scanner" in d["verdict"]["fix"]


def test_proxy_unknown_command_from_a_job_local_rank_is_no_outside_connection(tmp_path):
    """Near shape: the same WARN from local rank 2 of the job is a request NCCL's own peer sent (versions that do not
    match, a corrupted stream): not read as an outside connection."""
    v = _verdict(tmp_path, _proxy_unknown(2))
    assert v["cause"] != "none"


# --- Slurm cancelling the step DUE TO NODE FAILURE: the scheduler's stop from outside (signal) ------------------
_TRAINING = "step 900/10000 | loss 2.8811 | lr 3.0E-04\n** Finished validation **\n"
_NODE_FAIL = ("srun: error: Node failure on cn-0412\n"
              "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.\n"
              "slurmstepd: error: *** STEP 7700.0 ON cn-0401 CANCELLED AT 2024-05-01T11:02:33 DUE TO NODE FAILURE, "
              "SEE SLURMCTLD LOG FOR DETAILS ***\n")


def test_slurm_step_cancelled_due_to_node_failure_is_the_schedulers_stop(tmp_path):
    """Training goes on, then srun's 'Node failure on H' and slurmstepd's 'CANCELLED AT ... DUE TO NODE FAILURE' with
    nothing failing before: the scheduler ended the step after a host went down -- signal, nobody named (no line
    maps the node to ranks); the fix looks at that node (round 63's m4-logs tr141)."""
    d = _report(tmp_path, _TRAINING + _NODE_FAIL)
    v = d["verdict"]
    assert v["cause"] == "signal" and not _accused(d)
    assert "cn-0412" in v["fix"] and "--exclude" in v["fix"]


def test_node_failure_after_a_ranks_own_error_is_that_error(tmp_path):
    """Near shape: a rank's own CUDA error before the cancel: that rank failed first (rule I), the cancel is the
    step's end after it -- not read as the scheduler's stop."""
    v = _verdict(tmp_path, _TRAINING + "[rank5]: RuntimeError: CUDA error: an illegal memory access was "
                 "encountered\n" + _NODE_FAIL)
    assert v["cause"] != "signal"


# --- lead rule J: TensorPipe's (torch RPC's) ibv transport refused a verbs resource at init_rpc (nccl_system) -----
def _tp(where: str, why: str) -> str:
    h = "10.1.2.3: "
    return (f"{h}RuntimeError: In operator() at tensorpipe/common/{where} \"\": {why}\n"
            f"{h}  File \"train_rpc.py\", line 70, in setup\n{h}    rpc.init_rpc(name, rank=rank, world_size=ws)\n")


def test_tensorpipe_ibv_resource_refused_is_the_hosts_system_error(tmp_path):
    """tensorpipe/common/ibv.h throws only from its verbs checks (opening the device, creating the PD, queues, memory
    regions): refused at init_rpc it is a resource the host allocates -- nccl_system, nobody named; the fix names
    TensorPipe's own switch (_transports=['uv']) and the memlock limit (round 63's pytorch-55615)."""
    d = _report(tmp_path, _tp("ibv.h:172", "Operation not supported"))
    v = d["verdict"]
    assert v["cause"] == "nccl_system" and not _accused(d)
    assert "_transports=['uv']" in v["fix"] and "ulimit -l" in v["fix"]


def test_tensorpipe_error_outside_its_ibv_checks_is_not_read_as_a_refused_resource(tmp_path):
    """Near shape: a TensorPipe error thrown elsewhere (its queue-pair transitions in ibv.cc, a socket in uv) is
    no verbs resource refused by the host."""
    v = _verdict(tmp_path, _tp("ibv.cc:120", "Connection timed out"))
    assert v["cause"] != "nccl_system"
