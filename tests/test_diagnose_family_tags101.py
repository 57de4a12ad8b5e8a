"""A launcher's tag or record read for a rank, and a crash beside a desync report, as round 101 showed them (rules AT
(1), AG, V (2), A's multi-node limit, AU (1), AK (2)).

- NCCL's 'Cuda failure' saying the driver is too old for the CUDA runtime the build was made with ("API call is not
  supported in the installed CUDA driver": cudaErrorCallRequiresNewerDriver; "CUDA driver version is insufficient for
  CUDA runtime version") is the host's driver and the build every rank runs: cuda_error, nobody named, even where
  mpirun's "[1,R]<stdout>:" tag puts the lines on one rank -- a tag is no failure record (rule AG); the 'invalid
  device ordinal' WARN after it is the broken communicator that follows (nccl-496). Where another rank is shown
  going on without an error of its own, the failing rank keeps being named; an 'invalid device ordinal' or an
  illegal memory access alone under the tag keeps its old reading.
- A launcher record's worker command (torch.distributed.launch's CalledProcessError "Command '[..., '--local_rank=0',
  ...]' returned non-zero exit status 1") whose own arguments say the job spans several machines (--nnodes /
  --num_nodes / --num_machines above 1, ncluster's --num_tasks beside its /ncluster/ run directory) names only a
  local rank of one node: culprits unknown, nobody named (pytorch-20728). A task count with no ncluster, one node,
  or other arguments keep local rank 0 named.
- torch's desync report naming the lagging rank ("[R] finished collective #N, but didn't join collective #N+1")
  beside a process's own crash handler reporting SIGSEGV (Abseil's "*** SIGSEGV received at ...", Open MPI's,
  UCX's), untagged or under that rank, printed before the others' watchdog timeouts: the lagging rank's process
  crashed, the first failure -- cause unknown by its signal, that rank named, the timed-out ranks innocent
  (nccl-2213). Without the crash, with the crash under a timed-out rank's tag, or printed after the timeouts in the
  same file, the report's rank_missing reading stays.
"""
from __future__ import annotations

import pytest

from tests.conftest import nccl_info, verdict_accused, watchdog_line


# --- a driver too old for the build, under mpirun's tag ---------------------------------------------------------------
def _mpirun(rank: int, pid: int, warns: list[tuple[str, str]], host: str = "8470dd07de42") -> str:
    return "".join(f"[1,{rank}]<stdout>:{host}:{pid}:{pid + 65} [{rank}] {at} NCCL WARN {text}\n"
                   for at, text in warns)


_API = "Cuda failure 'API call is not supported in the installed CUDA driver'"
_INSUFFICIENT = "Cuda failure 'CUDA driver version is insufficient for CUDA runtime version'"


@pytest.mark.parametrize("rank,pid,warns", [
    (0, 174, [("enqueue.cc:802", _API),
              ("misc/argcheck.cc:39", "Broadcast : invalid root 0 (root should be in the 0..-1 range)"),
              ("init.cc:895", "Cuda failure 'invalid device ordinal'")]),
    (3, 2811, [("enqueue.cc:815", _API), ("init.cc:901", "Cuda failure 'invalid device ordinal'")]),
    (5, 40213, [("enqueue.cc:802", _API)]),
    (2, 977, [("init.cc:290", _INSUFFICIENT)]),
])
def test_a_driver_too_old_for_the_build_under_a_launchers_tag_names_nobody(tmp_path, rank, pid, warns):
    v, acc = verdict_accused(tmp_path, _mpirun(rank, pid, warns))
    assert (v["cause"], v["culprits"]) == ("cuda_error", []) and not acc, v
    assert "upgrade the NVIDIA driver" in v["fix"] and "CUDA version" in v["fix"], v
    if warns[0][1] == _API and warns[0][0].startswith("enqueue"):
        assert "2.9.9" in v["fix"], v


@pytest.mark.parametrize("warn", [_API, _INSUFFICIENT])
def test_the_same_failure_beside_another_rank_going_on_keeps_the_failing_rank(tmp_path, warn):
    other = "".join("[1,1]<stdout>:" + x for x in (
        nccl_info("8470dd07de42", 175, 1, "Channel 00 : 1[1] -> 0[0] via P2P/IPC", 240),
        nccl_info("8470dd07de42", 175, 1, "comm 0x55d1 rank 1 nranks 2 cudaDev 1 busId 2000 - Init COMPLETE", 240)))
    v, acc = verdict_accused(tmp_path, other + _mpirun(0, 174, [("enqueue.cc:802", warn)]))
    assert (v["cause"], v["culprits"]) == ("cuda_error", [0]), v


@pytest.mark.parametrize("text", ["Cuda failure 'invalid device ordinal'",
                                  "Cuda failure 'an illegal memory access was encountered'"])
def test_another_cuda_failure_alone_under_the_tag_keeps_its_reading(tmp_path, text):
    v, acc = verdict_accused(tmp_path, _mpirun(4, 311, [("enqueue.cc:802", text)]))
    assert (v["cause"], v["culprits"]) == ("cuda_error", [4]) and acc == {4}, v


# --- a worker's command naming several machines ----------------------------------------------------------------------
def _cpe(args: str, status: int = 1, local: int = 0) -> str:
    return ("subprocess.CalledProcessError: Command '['/home/ubuntu/anaconda3/envs/p36/bin/python', '-u', "
            f"'bench.py', '--local_rank={local}', {args}]' returned non-zero exit status {status}.\n"
            "(p36) ubuntu@ip-10-0-0-7:~$ echo $?\n0\n")


@pytest.mark.parametrize("args,status", [
    ("'--num_tasks=2', '--logdir', '/ncluster/runs/unnamedrun-0-ogf2l.06'", 1),
    ("'--logdir', '/ncluster/runs/imagenet-16', '--num_tasks', '16'", 1),
    ("'--nnodes=4', '--epochs', '3'", 2),
    ("'--num_nodes', '2'", 1),
    ("'--num-machines=3'", 1),
])
def test_a_local_rank_of_a_job_its_command_says_spans_machines_names_nobody(tmp_path, args, status):
    v, acc = verdict_accused(tmp_path, _cpe(args, status))
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert f"exit status {status}" in v["fix"] and "--node_rank / --nnodes" in v["fix"], v


@pytest.mark.parametrize("args", [
    "'--num_tasks=2', '--logdir', 'runs/multitask'",  # a multi-task model's task count, no ncluster
    "'--nnodes=1'",
    "'--lr=0.1', '--epochs', '90'",
])
def test_a_command_that_does_not_say_so_keeps_local_rank_0(tmp_path, args):
    v, acc = verdict_accused(tmp_path, _cpe(args))
    assert (v["cause"], v["culprits"]) == ("unknown", [0]) and acc == {0}, v


# --- a crash beside torch's desync report ---------------------------------------------------------------------------
_ABSEIL = ("*** SIGSEGV received at time=1775734074 on cpu 19 ***\n"
           "PC: @     0xe1e2567f5014  (unknown)  {func}()\n\n")
_OMPI = ("[node-{r}:31337] *** Process received signal ***\n[node-{r}:31337] Signal: Segmentation fault (11)\n"
         "[node-{r}:31337] Signal code: Address not mapped (1)\n")


def _timeouts(victims: list[int], seq: int) -> str:
    return "".join(watchdog_line(r, seq, "ALLREDUCE", 1800002, 1800000, 9445376, style="1.x") for r in victims)


def _report(lagging: int, seq: int) -> str:
    return f"\n[{lagging}] finished collective #{seq - 1}, but didn't join collective #{seq}\n"


@pytest.mark.parametrize("lagging,victims,seq,crash", [
    (1, [0], 1155874, _ABSEIL.format(func="ncclLocalOpAppend")),
    (3, [0, 1, 2], 42, _ABSEIL.format(func="ncclProxyProgress")),
    (2, [0, 1, 3], 7001, _OMPI.format(r=2)),
    (1, [0], 512, "".join(f"[rank1]: {x}\n" for x in _ABSEIL.format(func="ncclLocalOpAppend").splitlines())),
])
def test_the_lagging_ranks_crash_is_the_first_failure_cause_unknown(tmp_path, lagging, victims, seq, crash):
    v, acc = verdict_accused(tmp_path, crash + "\n" + _timeouts(victims, seq) + _report(lagging, seq))
    assert (v["cause"], v["culprits"]) == ("unknown", [lagging]) and acc == {lagging}, v
    assert "SIGSEGV" in v["summary"] and "core dump / gdb backtrace" in v["fix"], v
    assert "NCCL_DEBUG=INFO on every rank" in v["fix"], v


def test_the_report_alone_keeps_rank_missing(tmp_path):
    v, acc = verdict_accused(tmp_path, _timeouts([0, 2], 300) + _report(1, 300))
    assert (v["cause"], v["culprits"]) == ("rank_missing", [1]), v


def test_a_crash_after_the_timeouts_or_under_a_victims_tag_keeps_rank_missing(tmp_path):
    crash = _ABSEIL.format(func="ncclLocalOpAppend")
    v, _ = verdict_accused(tmp_path, _timeouts([0], 88) + crash + _report(1, 88))
    assert (v["cause"], v["culprits"]) == ("rank_missing", [1]), v
    tagged = "".join(f"[rank0]: {x}\n" for x in crash.splitlines())
    v, acc = verdict_accused(tmp_path, tagged + _timeouts([0], 88) + _report(1, 88))
    assert (v["cause"], v["culprits"]) == ("rank_missing", [1]) and 0 not in acc, v


def test_a_crash_under_a_rank_the_report_does_not_name_names_nobody(tmp_path):
    crash = "".join(f"[rank3]: {x}\n" for x in _ABSEIL.format(func="ncclLocalOpAppend").splitlines())
    v, acc = verdict_accused(tmp_path, crash + _timeouts([0], 88) + _report(1, 88))
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
