"""Review 107 findings 1, 2, 3, 4 (wording) and 7 (session 44, y1): the fixes of round 107 narrowed where they read
another shape too, each reviewer's input (varied) with the shape the original fix was for beside it.

1. The duplicate-GPU override (NCCL's "Duplicate GPU detected", torch's "Duplicated GPU device is not allowed by
   NCCL") steps aside when a rank outside the shared pair shows its own first failure (a ranked OOM, exception or
   crash): that rank's failure is read (rule A); the refusal alone, or with only the pair failing, keeps its reading.
2. "barrier() got an unexpected keyword argument 'x'" is torch.distributed's only where the traceback shows it is
   (its code line calls dist. / torch.distributed., or its innermost frame is torch's), never for a keyword c10d's
   function takes (group, async_op, device_ids); a bare line keeps the config reading (deepspeed-course-19).
3. A backend lacking barrier gets a stand-in tensor on its own device (CUDA for nccl, NPU for hccl, CPU for
   gloo/mpi), and the torch 1.11 gather/scatter note only when the op is gather or scatter.
4. A generic config reading never says "no known family explains".
7. vLLM's world-size check gets vLLM's fix, not the generic parallel-layout paragraph after it.
Ranks, paths and numbers are made up."""

from __future__ import annotations

import pytest

from ncclDoctor.diagnose import generic
from tests.conftest import verdict_accused

_WD = ("[rank{r}]:[E1206 08:00:00.000000 ProcessGroupNCCL.cpp:616] [Rank {r}] Watchdog caught collective operation "
       "timeout: WorkNCCL(SeqNum=5, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600001 "
       "milliseconds before timing out.\n")


def _tb(frames: list[tuple[str, str]], exc: str, prefix: str = "") -> str:
    out = [prefix + "Traceback (most recent call last):"]
    for n, (path, code) in enumerate(frames):
        out += [f'{prefix}  File "{path}", line {80 + n}, in <module>', f"{prefix}    {code}"]
    return "\n".join(out + [prefix + exc]) + "\n"


def _oom(gpu: int) -> str:
    return (f"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU {gpu} has a total capacity "
            "of 79.10 GiB of which 1.00 GiB is free.")


def _torch_dup(a: int, b: int, dev: int, prefix: str) -> str:
    return (f"{prefix}[W1206 08:00:00.000000 ProcessGroupNCCL.cpp:100] Duplicated GPU device is not allowed by NCCL. "
            f"Rank [{a}] and rank [{b}] both on CUDA device {dev}\n")


def _nccl_dup(a: int, b: int, dev: str, prefix: str) -> str:
    return (f"{prefix}host:1:1 [0] init.cc:300 NCCL WARN Duplicate GPU detected : rank {a} and rank {b} both on CUDA "
            f"device {dev}\n")


# --- finding 1 ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("dup", ["torch", "nccl"])
@pytest.mark.parametrize("pair,third,waiter", [((0, 1), 2, 0), ((1, 3), 0, 1), ((2, 5), 7, 2)])
def test_a_third_ranks_own_oom_is_read_beside_a_duplicate_gpu_line(tmp_path, dup, pair, third, waiter):
    """The reviewer's e1.log / e2.log (varied): a duplicate-GPU line naming two ranks, a third rank's own OOM on
    another GPU, a watchdog timeout: gpu_oom with that third rank, not invalid_usage with nobody."""
    a, b = pair
    line = (_torch_dup(b, a, 6, f"[rank{b}]:") if dup == "torch" else _nccl_dup(b, a, "1000", f"[rank{b}]:"))
    text = line + _tb([("/app/train.py", "loss = model(x)")], _oom(third), f"[rank{third}]: ") + _WD.format(r=waiter)
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "gpu_oom" and v["culprits"] == [third], v
    assert acc == {third}, acc


def test_a_third_ranks_own_exception_is_read_beside_a_duplicate_gpu_line(tmp_path):
    """The same with a third rank's own traceback (a ranked exception): the override no longer reads it away."""
    text = (_torch_dup(1, 0, 0, "[rank1]:")
            + _tb([("/app/train.py", "batch = next(it)")], "KeyError: 'input_ids'", "[rank3]: "))
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] != "invalid_usage" and v["culprits"] == [3], v


@pytest.mark.parametrize("dup", ["torch", "nccl"])
def test_a_duplicate_gpu_line_alone_keeps_the_launch_reading(tmp_path, dup):
    """The shape the override was for: the refusal with no third rank failing -- invalid_usage, high, nobody."""
    line = _torch_dup(1, 0, 0, "[rank1]:") if dup == "torch" else _nccl_dup(1, 0, "1000", "[rank1]:")
    v, acc = verdict_accused(tmp_path, line + _WD.format(r=0))
    assert (v["cause"], v["confidence"], v["culprits"]) == ("invalid_usage", "high", []) and not acc, v


def test_an_oom_of_a_rank_of_the_pair_keeps_the_launch_reading(tmp_path):
    """A rank of the pair itself running out on the shared GPU: the sharing explains it -- invalid_usage, nobody."""
    text = _torch_dup(1, 0, 0, "[rank1]:") + _tb([("/app/train.py", "loss = model(x)")], _oom(0), "[rank1]: ")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "invalid_usage" and not acc, v


def test_a_third_ranks_oom_on_the_shared_gpu_keeps_the_launch_reading(tmp_path):
    """A third rank whose OOM names the shared device shares it too: the override stands."""
    text = _torch_dup(1, 0, 0, "[rank1]:") + _tb([("/app/train.py", "loss = model(x)")], _oom(0), "[rank2]: ")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "invalid_usage" and not acc, v


# --- finding 2 ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("code,kw", [("trainer.barrier(timeout=30)", "timeout"),
                                     ("utils.barrier(timeout=timedelta(minutes=5))", "timeout"),
                                     ("hvd.broadcast(x, root_rank=0, name='w')", "name")])
def test_another_functions_keyword_refusal_under_its_own_frame_keeps_the_ranks_reading(tmp_path, code, kw):
    """The reviewer's b3.log (varied): a rank-tagged traceback whose code line calls a user's / a library's function
    of c10d's name: not torch's refusal -- the rank's own failure, not config."""
    fn = code.split(".", 1)[1].split("(", 1)[0]
    text = _tb([("/app/train.py", code)], f"TypeError: {fn}() got an unexpected keyword argument '{kw}'", "[rank1]: ")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "unknown" and v["culprits"] == [1], v
    assert "torch.distributed's own function" not in v["summary"], v["summary"]


@pytest.mark.parametrize("code,fn,kw", [("utils.barrier(group=g)", "barrier", "group"),
                                        ("dist.barrier(async_op=True)", "barrier", "async_op"),
                                        # barrier's device_ids arrived in torch 1.8: refused under a dist. call it
                                        # is torch's (round 110's yolov5-4480, rule BT (2)); under a user's own
                                        # barrier it is not
                                        ("utils.barrier(device_ids=[0])", "barrier", "device_ids")])
def test_a_keyword_c10d_takes_is_not_read_as_torchs_refusal(tmp_path, code, fn, kw):
    """The reviewer's b2.log (varied): a keyword c10d's function has long taken cannot be torch's refusal -- the
    unread reading, no torch-version advice."""
    v, acc = verdict_accused(tmp_path, _tb([("/app/train.py", code)],
                                           f"TypeError: {fn}() got an unexpected keyword argument '{kw}'"))
    assert v["cause"] == "unknown" and not acc, v
    assert "torch.distributed's own function" not in v["summary"], v["summary"]


@pytest.mark.parametrize("frames,prefix", [
    ([("/app/train.py", "dist.barrier(timeout=30)")], ""),
    ([("/app/train.py", "torch.distributed.barrier(timeout=timedelta(seconds=60))")], "[rank2]: "),
    ([("/app/train.py", "barrier(timeout=30)"),
      ("/usr/lib/python3/site-packages/torch/distributed/c10d_logger.py", "return func(*args, **kwargs)")], ""),
])
def test_torchs_barrier_refusing_timeout_under_its_frames_stays_config(tmp_path, frames, prefix):
    """The shape the reading was for, with frames that show torch's function: config, nobody."""
    v, acc = verdict_accused(tmp_path, _tb(frames, "TypeError: barrier() got an unexpected keyword argument "
                                                   "'timeout'", prefix))
    assert v["cause"] == "config" and not acc and "torch.distributed's own function" in v["summary"], v


def test_a_bare_barrier_timeout_refusal_stays_config(tmp_path):
    """deepspeed-course-19's shape: the bare line, no frame -- config, nobody."""
    v, acc = verdict_accused(tmp_path, "TypeError: barrier() got an unexpected keyword argument 'timeout'\n")
    assert v["cause"] == "config" and not acc, v


# --- finding 3 ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("backend,device", [("Backend mpi", "CPU"), ("ProcessGroupMPI", "CPU"),
                                            ("ProcessGroupGloo", "CPU"), ("ProcessGroupHCCL", "NPU"),
                                            ("ProcessGroupNCCL", "CUDA")])
def test_a_backend_lacking_barrier_gets_a_tensor_on_its_own_device(tmp_path, backend, device):
    """The reviewer's f1.log (varied): the barrier's stand-in is a small tensor on the backend's device, and no torch
    1.11 gather/scatter note."""
    v, acc = verdict_accused(tmp_path, _tb([("/app/train.py", "dist.barrier()")],
                                           f"RuntimeError: {backend} does not support barrier"))
    assert v["cause"] == "invalid_usage" and not acc, v
    assert f"all_reduce of a small {device} tensor" in v["fix"], v["fix"]
    assert "1.11" not in v["fix"] and "gather and scatter" not in v["fix"], v["fix"]


@pytest.mark.parametrize("op", ["gather", "scatter"])
def test_a_backend_lacking_gather_or_scatter_keeps_the_torch_1_11_note(tmp_path, op):
    """The shape the note was for: ProcessGroupNCCL lacking gather / scatter -- the 1.11 note, no barrier clause."""
    v, acc = verdict_accused(tmp_path, _tb([("/app/train.py", f"dist.{op}(x)")],
                                           f"RuntimeError: ProcessGroupNCCL does not support {op}"))
    assert v["cause"] == "invalid_usage" and not acc, v
    assert "since torch 1.11" in v["fix"] and "small CUDA tensor" not in v["fix"], v["fix"]


# --- findings 4 and 7 --------------------------------------------------------------------------------------------
_VLLM = "/usr/lib/python3/site-packages/vllm/distributed/parallel_state.py"


@pytest.mark.parametrize("world,tp,prefix", [(1, 4, "[rank1]: "), (8, 4, ""), (2, 8, "[rank0]: ")])
def test_vllm_world_size_check_says_its_pattern_and_only_vllms_fix(tmp_path, world, tp, prefix):
    """The reviewer's a2.log (varied): config; the summary does not call the known pattern "no known family", and
    the fix is vLLM's, without the generic parallel-layout (MoE, num_experts) paragraph after it."""
    text = _tb([("/app/eval.py", f"llm = LLM(model=path, tensor_parallel_size={tp})"), (_VLLM, "raise RuntimeError(")],
               f"RuntimeError: world_size ({world}) is not equal to tensor_model_parallel_size ({tp}) x "
               "pipeline_model_parallel_size (1)", prefix)
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "config" and not acc, v
    assert "no known family" not in v["summary"] and "initialize_model_parallel" in v["summary"], v["summary"]
    assert "external_launcher" in v["fix"] and "num_experts" not in v["fix"], v["fix"]


def test_a_generic_parallel_layout_check_keeps_its_fix(tmp_path):
    """The near shape: a framework's world size not divisible by its parallel degrees keeps the parallel-layout
    fix."""
    read = generic.reading(["ValueError: world_size 6 must be divisible by tensor_parallel_size 4"])
    assert read is not None and read[0] == "config" and "Make the parallel layout fit" in read[2], read


def test_a_non_config_generic_reading_keeps_its_unknown_family_wording():
    """Finding 4 is wording for config / invalid_usage only: a generic reading of another cause (a refused
    connection) still says no known family explains it."""
    from ncclDoctor.diagnose.verdict.unread import _read_said

    shown = "the lines show a failure (ConnectionRefusedError: [Errno 111] Connection refused)"
    assert "no known family explains" in _read_said(shown, ("connection", "a refused connection", "", 0))
    for cause in ("config", "invalid_usage"):
        assert "no known family" not in _read_said(shown, (cause, "a setting", "", 0))
