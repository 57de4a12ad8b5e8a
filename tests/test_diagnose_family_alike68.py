"""How diagnose reads two shapes round 68 showed (session 25): every rank of a job raising its own CUDA OOM while
torchrun's record names only the worker it saw exit first (lead rule J: gpu_oom, nobody named), and mp.spawn's
record of one child whose traceback the paste cut inside a call of a torch.distributed collective (lead rule BH (1),
session 27: no one named -- that child may be a peer's victim -- cause unknown, the fix naming the collective and the
function that called it; cut in the script's own code, rules A, AL (2) still name it). Each test
reads the shape from lines other than the corpus case's own (other models, sizes, ranks, wordings), and a near shape
that must NOT be read that way. Hosts, pids and paths are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import failure_record

_AGENT = "torch/distributed/elastic/multiprocessing/api.py"


def _oom(rank: int, gpu: int, style: str = "2.5") -> str:
    """One rank's traceback ending in its own CUDA OOM, under its "[rankN]:" tag: torch >= 2.1's wording ("GPU N
    has a total capacity of ... this process has ...") or torch 1.x's ("(GPU N; ... total capacity; ...)")."""
    tb = (f"[rank{rank}]: Traceback (most recent call last):\n"
          f'[rank{rank}]:   File "/srv/lm/train_long.py", line 311, in <module>\n'
          f"[rank{rank}]:     loss = model(batch).loss\n")
    if style == "1.x":
        return tb + (f"[rank{rank}]: RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU {gpu}; 39.59 "
                     "GiB total capacity; 36.10 GiB already allocated; 1.21 GiB free; 37.02 GiB reserved in total by "
                     "PyTorch)\n")
    return tb + (f"[rank{rank}]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU {gpu} "
                 f"has a total capacity of 23.57 GiB of which 1.02 GiB is free. Including non-PyTorch memory, this "
                 f"process has 22.5{rank} GiB memory in use. Of the allocated memory 20.1{rank} GiB is allocated by "
                 "PyTorch, and 1.9 GiB is reserved by PyTorch but unallocated.\n")


def _record(n: int, failed: int, style: str = "2.5") -> str:
    """torchrun's agent on one node of N workers: its closing signal to every worker but local rank FAILED, its
    "failed (exitcode: 1) local_rank: FAILED" line and its ChildFailedError record naming that one worker."""
    pids = {r: 7100 + r for r in range(n)}
    closing = "".join(f"W0305 11:20:0{4} 7000 {_AGENT}:897] Sending process {pids[r]} closing signal SIGTERM\n"
                      for r in range(n) if r != failed)
    if style == "1.x":
        closing = "".join(f"WARNING:torch.distributed.elastic.multiprocessing.api:Sending process {pids[r]} closing "
                          "signal SIGTERM\n" for r in range(n) if r != failed)
    return (closing + f"E0305 11:20:05 7000 {_AGENT}:869] failed (exitcode: 1) local_rank: {failed} (pid: "
            f"{pids[failed]}) of binary: /opt/venv/bin/python\n"
            "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
            "============================================================\n"
            "/srv/lm/train_long.py FAILED\n"
            "------------------------------------------------------------\n"
            "Failures:\n  <NO_OTHER_FAILURES>\n"
            "------------------------------------------------------------\n"
            "Root Cause (first observed failure):\n"
            + failure_record(0, failed, failed, 1, pids[failed], time="2025-03-05_11:20:05", host="gpu-box-3")
            + "============================================================\n")


# --- every rank's own OOM, the record naming one ---------------------------------------------------------------------
def test_every_workers_own_oom_under_a_record_of_one_names_nobody(tmp_path):
    """Each of the node's workers raises its own CUDA OOM on its own GPU (their tracebacks under their rank tags);
    torchrun's agent SIGTERMs the others and records one: the agent's closing signals and its record account for
    every worker of the node, each of which ran out alike -- the job's memory, not a rank (rule J): gpu_oom, nobody
    named. Two and four workers, either OOM wording, the record naming the lowest or the highest rank."""
    for n, failed, style in ((2, 1, "2.5"), (2, 0, "1.x"), (4, 2, "2.5"), (4, 3, "1.x")):
        text = "".join(_oom(r, r, style) for r in reversed(range(n))) + _record(n, failed, style)
        d = _report(tmp_path, text, f"n{n}-{failed}.log")
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("gpu_oom", []) and not _accused(d), (n, failed, v)
        assert "every rank" in v["summary"] and "batch size" in v["fix"], v


def test_some_workers_own_oom_under_a_record_of_one_still_names_them(tmp_path):
    """The near shapes: the agent stopped more workers than the ones that raised an OOM (two of four), or only one
    worker of two shows its OOM: those ranks are not every rank of the job, and the OOM's own ranks stay named."""
    text = _oom(1, 1) + _oom(0, 0) + _record(4, 1)
    d = _report(tmp_path, text, "two-of-four.log")
    v = d["verdict"]
    assert v["cause"] == "gpu_oom" and v["culprits"] == [0, 1] and "every rank" not in v["summary"], v
    d = _report(tmp_path, _oom(1, 1) + _record(2, 1), "one-of-two.log")
    v = d["verdict"]
    assert v["cause"] == "gpu_oom" and v["culprits"] == [1], v


# --- mp.spawn's child cut inside a collective ------------------------------------------------------------------------
def _spawned(last_frames: str) -> str:
    return ("Traceback (most recent call last):\n"
            '  File "run_depth.py", line 402, in <module>\n'
            "    main()\n"
            '  File "/opt/conda/lib/python3.8/site-packages/torch/multiprocessing/spawn.py", line 118, in join\n'
            "    raise Exception(msg)\n"
            "Exception:\n\n"
            "-- Process 2 terminated with the following error:\n"
            "Traceback (most recent call last):\n"
            '  File "/opt/conda/lib/python3.8/site-packages/torch/multiprocessing/spawn.py", line 19, in _wrap\n'
            "    fn(i, *args)\n"
            '  File "/home/u/depth/run_depth.py", line 377, in worker\n'
            "    scores = validate(net, val_loader, gpu)\n" + last_frames)


def test_a_spawned_childs_traceback_cut_in_a_collective_names_the_collective(tmp_path):
    """mp.spawn's parent re-raises process 2's error and the paste stops inside that child's traceback, its last
    frame a call of torch.distributed's all_gather / broadcast in the script's validation function: process 2 raised
    inside the collective and may be the victim of a peer spawn does not report, so no one is named (lead rule BH (1),
    which relabelled round 68's bts-100), its cause unknown, and the fix names that collective, the function calling
    it, and what such an error is (NCCL_DEBUG=INFO, a timeout, the same number of calls on every process)."""
    for call, name in (("dist.all_gather(gathered, scores)", "all_gather"),
                       ("torch.distributed.broadcast(scores, src=0)", "broadcast")):
        d = _report(tmp_path, _spawned('  File "/home/u/depth/run_depth.py", line 211, in validate\n'
                                       f"    {call}\n"), f"{name}.log")
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), (call, v)
        assert name in v["fix"] and "validate" in v["fix"] and "NCCL_DEBUG=INFO" in v["fix"], v["fix"]
        assert "timeout" in v["fix"] and f"inside the collective {name}" in v["summary"], v["summary"]
    # a log viewer's line numbers in front of every line: the code is read past them
    numbered = "".join(f"{9000 + i} {line}\n" for i, line in enumerate(_spawned(
        '  File "/home/u/depth/run_depth.py", line 211, in validate\n    dist.all_reduce(scores)\n').splitlines()))
    v = _report(tmp_path, numbered, "numbered.log")["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []) and "'dist.all_reduce(scores)' in validate" in v["fix"], v


def test_a_spawned_childs_traceback_cut_elsewhere_names_no_collective(tmp_path):
    """The near shapes: the cut frame runs the script's own code (a metric, a .item()) or a function merely named
    like a collective on another object: process 2 is still named, the frame is said, no collective's advice."""
    for call in ("err = compute_errors(gt, pred)", "self.all_reduce(scores)"):
        v = _report(tmp_path, _spawned('  File "/home/u/depth/run_depth.py", line 211, in validate\n'
                                       f"    {call}\n"), "own.log")["verdict"]
        assert (v["cause"], v["culprits"]) == ("unknown", [2]), (call, v)
        assert f"'{call}' in validate" in v["fix"] and "NCCL_DEBUG=INFO" not in v["fix"], v["fix"]


# --- mp.spawn's child cut inside DistributedDataParallel's constructor (rule BH (2), round 77) ----------------------
_DDP_PY = "/opt/conda/lib/python3.8/site-packages/torch/nn/parallel/distributed.py"
_BUILD = '  File "/home/u/depth/run_depth.py", line 120, in build\n    net = DDP(net, device_ids=[gpu])\n'


def test_a_spawned_childs_traceback_cut_in_ddps_constructor_names_no_one(tmp_path):
    """Lead rule BH (2) (round 77's distributed-tutorial-4, round 70's fixmatch-pytorch-2 relabelled): process 2's
    traceback stops inside DistributedDataParallel's construction -- the frame line of its __init__ last, or its
    code line then the next frame's line cut after its number, or a state-sync helper it calls -- before any error
    text. DDP broadcasts the module's state from rank 0 at construction, a collective: process 2 may be a peer's
    victim, so nobody is named, the cause unknown, and the fix asks for the full error (NCCL_DEBUG=INFO) and names
    the construction's checks (set_device / device_ids, MASTER_ADDR, NCCL_SOCKET_IFNAME)."""
    for tail in (f'  File "{_DDP_PY}", line 333, in __init__\n',
                 f'  File "{_DDP_PY}", line 285, in __init__\n    self.broadcast_bucket_size)\n'
                 f'  File "{_DDP_PY}", line 496\n',
                 f'  File "{_DDP_PY}", line 305, in __init__\n    self._ddp_init_helper()\n'
                 f'  File "{_DDP_PY}", line 612, in _ddp_init_helper\n'):
        d = _report(tmp_path, _spawned(_BUILD + tail), "ddp-init.log")
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), (tail, v)
        assert "DistributedDataParallel's constructor" in v["summary"], v["summary"]
        for word in ("full traceback", "NCCL_DEBUG=INFO", "torch.cuda.set_device", "NCCL_SOCKET_IFNAME"):
            assert word in v["fix"], (word, v["fix"])


def test_a_spawned_childs_traceback_cut_in_ddps_forward_still_names_it(tmp_path):
    """The near shape: the cut frame is a module's __init__ in another file: no state broadcast is shown, so process
    2, the one child shown dying, stays named (rules A, AL (2)) and nothing of DDP's construction is said. (A cut in
    the constructor where spawn's teardown of the other children is shown keeps the child named too:
    tests/test_diagnose_r62_launch.py.) A cut in DDP's forward (the training step, not its construction) runs DDP's
    collectives implicitly: since lead rule BM (1) (session 29, maniskill-110 relabelled) it names nobody either,
    without being read as the constructor (tests/test_diagnose_family_spawnddp79.py)."""
    d = _report(tmp_path, _spawned(_BUILD + '  File "/home/u/depth/model.py", line 40, in __init__\n'), "init.log")
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", [2]), v
    assert "DistributedDataParallel's constructor" not in v["summary"], v["summary"]
    d = _report(tmp_path, _spawned(_BUILD + f'  File "{_DDP_PY}", line 705, in forward\n'), "ddp-forward.log")
    v = d["verdict"]
    assert v["cause"] == "unknown" and not d["verdict"]["culprits"], v
    assert "DistributedDataParallel's constructor" not in v["summary"], v["summary"]
