"""How diagnose reads round 66's cases of fixer h4 (session 23): a node's torchrun record naming only a local_rank
beside the one worker shown raising under its global rank tag (rule BB (3)), the interpreter's own fatal error under
one rank's tag (rules A, AN (1)), an unranked GPU-0 OOM of a worker a driver ran (rule U (3)), impossible sizes built
from counts exchanged in a sharded forward (rule BB (2), AH (1)), and a bare py-spy dump of a process with no
collective shown (rules AB (2), AC (1)). Each test reads the shape from lines other than the corpus case's own, and
a near shape that must NOT be read that way. Hosts, pids and paths are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict

_P2P_FAIL = (
    '{tag}   File "/env/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", line 2100, in irecv\n'
    "{tag}     return pg.recv([tensor], group_src_rank, tag)\n"
    "{tag} torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, "
    "unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5\n"
    "{tag} ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.\n")
_AGENT = (
    "W0302 10:11:12.100000 4242 torch/distributed/elastic/multiprocessing/api.py:858] Sending process 77100 closing "
    "signal SIGTERM\n"
    "E0302 10:11:12.400000 4242 torch/distributed/elastic/multiprocessing/api.py:833] failed (exitcode: 1) "
    "local_rank: {local} (pid: 77101) of binary: /env/bin/python\n")


# --- a node's record naming a local_rank, the one worker shown raising under its global rank tag ------------------
def test_a_local_rank_record_beside_the_one_worker_raising_under_its_global_tag_names_that_rank(tmp_path):
    """A second node's agent (two workers) records local_rank 0 failing with exit 1, and the only process shown raising
    is [rank2]'s, an uncaught set-up ncclSystemError: that worker is the record's (rule BB (3)) -- rank 2 named."""
    text = _P2P_FAIL.format(tag="[rank2]:") + _AGENT.format(local=0)
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("nccl_system", [2]), v


def test_a_rank_tag_below_the_records_local_rank_is_another_process(tmp_path):
    """The near shape: [rank0] raising beside a record of local_rank 1 -- a global rank is never below its local index,
    so two processes failed alike (rule J): nobody named."""
    text = _P2P_FAIL.format(tag="[rank0]:") + _AGENT.format(local=1)
    v = _verdict(tmp_path, text)
    assert v["cause"] == "nccl_system" and v["culprits"] == [], v


# --- the interpreter's own fatal error under one rank's tag ---------------------------------------------------------
_STEPS = "".join(f"[rank2]:[trainer] 2025-03-01 10:00:{s:02d},100 - INFO - step: {s * 10}  loss:  3.91\n"
                 for s in range(1, 4))


def test_the_interpreters_own_fatal_check_under_one_ranks_tag_names_that_rank(tmp_path):
    """One rank's training steps, then its interpreter's own check failing ('GC object already tracked', not a
    signal's name) with faulthandler's thread stacks: that rank's own failure, no other rank shown -- rank 2, cause
    unknown, the fix naming faulthandler and an upgrade."""
    text = _STEPS + ("[rank2]:Fatal Python error: _PyObject_GC_TRACK: object already tracked by the garbage collector\n"
                     "[rank2]:Python runtime state: initialized\n"
                     "[rank2]:\n[rank2]:Thread 0x00007f00aa000640 (most recent call first):\n"
                     "[rank2]:  <no Python frame>\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", [2]), v
    assert "PYTHONFAULTHANDLER" in v["fix"] and "upgrade" in v["fix"], v["fix"]


def test_a_fatal_abort_under_one_ranks_tag_names_nobody(tmp_path):
    """The near shape: faulthandler's 'Fatal Python error: Aborted' is a signal's name -- also how the watchdog ends a
    waiting victim (rule I): nobody named."""
    text = _STEPS + "[rank2]:Fatal Python error: Aborted\n[rank2]:\n[rank2]:Thread 0x00007f00aa000640 (most recent " \
                    "call first):\n[rank2]:  <no Python frame>\n"
    d = _report(tmp_path, text)
    assert d["verdict"]["culprits"] == [] and not _accused(d), d["verdict"]


# --- an unranked GPU-0 OOM of a worker a driver ran ------------------------------------------------------------------
_OOM0 = ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.20 GiB. GPU 0 has a total capacity of 79.10 "
         "GiB of which 310.00 MiB is free. Including non-PyTorch memory, this process has 78.70 GiB memory in use. Of "
         "the allocated memory 75.02 GiB is allocated by PyTorch, and 1.90 GiB is reserved by PyTorch but "
         "unallocated.\n")


def test_a_gpu0_oom_a_driver_reports_as_its_workers_failure_names_no_rank(tmp_path):
    """The OOM alone on GPU 0, then Ray's driver raising the worker's failure (RayTaskError): the worker sees its own
    GPU as 0 (rule U (3)), so the index names no rank -- gpu_oom, nobody named."""
    text = _OOM0 + "ray.exceptions.RayTaskError(OutOfMemoryError): ray::ActorRollout.generate() (pid=5501)\n"
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("gpu_oom", []), v


def test_a_gpu0_oom_alone_still_names_local_rank_0(tmp_path):
    """The near shape: the same OOM with no driver's word keeps rule U (3)'s single-node reading, rank 0."""
    v = _verdict(tmp_path, _OOM0)
    assert (v["cause"], v["culprits"]) == ("gpu_oom", [0]), v


# --- a bare py-spy dump of a process, no collective shown --------------------------------------------------------
_DUMP = ('Thread 0x7F3A11C2E740 (active+gil): "MainThread"\n'
         "    _conv_forward (torch/nn/modules/conv.py:456)\n"
         "    forward (model/unet.py:212)\n"
         "    train_step (train.py:88)\n"
         "    <module> (train.py:140)\n"
         'Thread 0x7F39F5FFF640 (idle): "pin_memory"\n'
         "    wait (threading.py:320)\n")


def test_a_py_spy_dump_with_no_collective_frame_is_a_hang_whose_rank_is_unknown(tmp_path):
    """A py-spy dump of one process (no rank tag, no collective frame, nothing failing): taken while the job hung, it
    shows a hang, not which rank -- unknown, nobody named, the fix asking for every rank's dump (rules AB (2),
    AC (1))."""
    d = _report(tmp_path, _DUMP)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), v
    assert "py-spy dump" in v["fix"] and "every rank" in v["fix"], v["fix"]


def test_thread_lines_that_are_no_py_spy_header_are_nothing(tmp_path):
    """The near shape: a logger's own thread names ('Thread 3 (idle) finished: "loader"', no colon after the status)
    are no py-spy dump: nothing failed."""
    text = 'Thread 3 (idle) finished: "loader"\nepoch 1 done, loss 0.41\n'
    v = _verdict(tmp_path, text)
    assert v["cause"] == "none", v


# --- impossible sizes built from counts exchanged with peers ------------------------------------------------------
def _moe(err: str, frame: bool = True) -> str:
    return ("[rank5]: Traceback (most recent call last):\n"
            '[rank5]:   File "/srv/moe/layers.py", line 301, in dispatch\n'
            "[rank5]:     recv = torch.empty(int(sum(counts)), hidden, device=x.device)\n"
            + ('[rank5]:   File "/env/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 3880, '
               "in all_to_all_single\n[rank5]:     work = group.alltoall_base(\n" if frame else "")
            + f"[rank5]: RuntimeError: {err}\n")


def test_a_random_negative_dimension_under_an_all_to_all_is_a_desync_of_unknown_rank(tmp_path):
    """A tensor sized from split counts an all_to_all_single exchanged, with a dimension of random 64-bit bytes: the
    counts were never sent as such (rules BB (2), AH (1)) -- desync, nobody named, the fix naming the collective order
    and nccl-tests' check."""
    d = _report(tmp_path, _moe("Trying to create tensor with negative dimension -7051843329177530012: "
                                "[-7051843329177530012, 4096]"))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("desync", []) and not _accused(d), v
    assert "TORCH_DISTRIBUTED_DEBUG=DETAIL" in v["fix"] and "nccl-tests with -c 1" in v["fix"], v["fix"]


def test_a_small_negative_dimension_or_no_exchange_frame_is_no_desync(tmp_path):
    """The near shapes: a dimension of -1 is the script's arithmetic, and the same garbage size with no frame of an
    exchange is no count a peer sent: neither is read as a desync."""
    v = _verdict(tmp_path, _moe("Trying to create tensor with negative dimension -1: [-1, 4096]"))
    assert v["cause"] != "desync", v
    v = _verdict(tmp_path, _moe("Storage size calculation overflowed with sizes=[8410156404468110876]", frame=False))
    assert v["cause"] != "desync", v
