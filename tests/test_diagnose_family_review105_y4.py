"""Review 105 (3) findings 1-5 (/work/notes/s43/findings3.md), as the lead ruled them:
1. verdict.exits._normal_end: RVC's os._exit(2333333) read as a normal end only with no exception shown but spawn's
   own re-raise, ranked or not -- a thread's or helper process's untagged traceback keeps the lone exit's reading.
2. verdict.usage._mesh_refused: a mesh refusal is "nobody" only where no other rank is shown alive or waiting past
   it (a watchdog timeout, a collective it is inside); a lone rank's traceback keeps invalid_usage, no rank.
3. verdict.launch._cann_python_env: CANN's EC0010 steps aside beside an Ascend device's own error (EE9999 / EZ9999,
   "error from device(chipId:N", an aicore error), and is medium, not high, where only one rank is shown.
4. verdict.exits._normal_end: the 2333333 end only from process 0 (RVC calls it under rank 0 alone).
5. verdict.layer_check._pipeline_assert: names the frame the assert was raised in, not the schedule's step."""
from __future__ import annotations

import pytest

from tests.conftest import verdict_accused

_SPAWN = "/usr/local/lib/python3.10/dist-packages/torch/multiprocessing/spawn.py"


def _spawn_exit(script: str, proc: int, code: int = 2333333) -> str:
    return ("Traceback (most recent call last):\n"
            f'  File "{script}", line 595, in <module>\n'
            "    main()\n"
            f'  File "{script}", line 105, in main\n'
            "    mp.spawn(run, nprocs=n_gpus, args=(n_gpus, hps))\n"
            f'  File "{_SPAWN}", line 240, in spawn\n'
            "    return start_processes(fn, args, nprocs, join, daemon, start_method='spawn')\n"
            f'  File "{_SPAWN}", line 198, in start_processes\n'
            "    while not context.join():\n"
            f'  File "{_SPAWN}", line 149, in join\n'
            "    raise ProcessExitedException(\n"
            f"torch.multiprocessing.spawn.ProcessExitedException: process {proc} terminated with exit code {code}\n")


def _thread_tb(script: str, exc: str, head: str = "Exception in thread Thread-3:") -> str:
    return (f"{head}\n"
            "Traceback (most recent call last):\n"
            '  File "/usr/lib/python3.10/threading.py", line 1016, in _bootstrap_inner\n'
            "    self.run()\n"
            f'  File "{script}", line 330, in run\n'
            "    batch = next(loader)\n"
            f"{exc}\n")


_RVC = "/content/RVC/train_nsf_sim_cache_sid_load_pretrain.py"
_RVC2 = "/app/rvc/train/train.py"


# --- finding 1: an untagged exception beside the 2333333 end ------------------------------------------------------
@pytest.mark.parametrize("script", [_RVC, _RVC2])
@pytest.mark.parametrize("exc, said", [
    ("OSError: [Errno 28] No space left on device", "No space left on device"),
    ("PermissionError: [Errno 13] Permission denied: '/content/RVC/logs/mi-test/G_2333333.pth'", ""),
    ("ValueError: too many values to unpack (expected 2)", ""),
])
def test_untagged_exception_beside_the_normal_end_keeps_the_lone_exit(tmp_path, script, exc, said):
    for text in (_thread_tb(script, exc) + _spawn_exit(script, 0), _spawn_exit(script, 0) + _thread_tb(script, exc)):
        v, _ = verdict_accused(tmp_path, text)
        assert v["cause"] != "none", v
        assert "Nothing to fix" not in v["fix"], v
        if said and v["cause"] == "unknown":
            assert said in v["fix"] + v["summary"], v


def test_plain_rvc_end_still_reads_none(tmp_path):
    for script in (_RVC, _RVC2):
        v, acc = verdict_accused(tmp_path, _spawn_exit(script, 0))
        assert (v["cause"], v["culprits"], acc) == ("none", [], set()), v
        assert "Nothing to fix" in v["fix"], v


# --- finding 4: the 2333333 code from another child ---------------------------------------------------------------
@pytest.mark.parametrize("proc", [1, 2, 7])
@pytest.mark.parametrize("script", [_RVC, _RVC2])
def test_2333333_from_another_child_is_its_lone_exit(tmp_path, script, proc):
    v, _ = verdict_accused(tmp_path, _spawn_exit(script, proc))
    assert v["cause"] == "unknown" and v["culprits"] == [proc], v


# --- finding 2: a mesh refusal on one rank while the others wait ------------------------------------------------
def _mesh_tb(rank: int, key: str = "ep") -> str:
    p = f"[rank{rank}]: "
    return (f"{p}Traceback (most recent call last):\n"
            f'{p}  File "/work/train.py", line 90, in <module>\n'
            f'{p}    ep_mesh = world_mesh["{key}"]\n'
            f'{p}  File "/usr/lib/python3/dist-packages/torch/distributed/device_mesh.py", line 560, in __getitem__\n'
            f"{p}    raise KeyError(f\"Mesh dimension '{{mesh_dim_names}}' does not exist.\")\n"
            f"{p}KeyError: \"Mesh dimension '{key}' does not exist.\"\n")


def _wd(rank: int, seq: int = 12, op: str = "ALLREDUCE") -> str:
    return (f"[rank{rank}]:[E1201 10:30:00.000000 10{rank} ProcessGroupNCCL.cpp:616] [Rank {rank}] Watchdog caught "
            f"collective operation timeout: WorkNCCL(SeqNum={seq}, OpType={op}, NumelIn=1, NumelOut=1, "
            "Timeout(ms)=600000) ran for 600010 milliseconds before timing out.\n")


@pytest.mark.parametrize("raiser, waiters, seq, op", [
    (3, (0, 1, 2), 12, "ALLREDUCE"),
    (1, (0,), 40, "ALLGATHER"),
    (0, (1, 2, 3), 7, "BROADCAST"),
])
def test_mesh_refusal_with_other_ranks_waiting_is_not_nobody(tmp_path, raiser, waiters, seq, op):
    text = _mesh_tb(raiser) + "".join(_wd(r, seq, op) for r in waiters)
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] != "invalid_usage", v
    assert "no rank is at fault" not in v["summary"], v
    assert not acc & set(waiters), v


@pytest.mark.parametrize("rank, key", [(3, "ep"), (1, "cp"), (0, "tp")])
def test_mesh_refusal_alone_keeps_invalid_usage(tmp_path, rank, key):
    v, acc = verdict_accused(tmp_path, _mesh_tb(rank, key))
    assert (v["cause"], v["culprits"], acc) == ("invalid_usage", [], set()), v


def test_mesh_refusal_on_every_rank_shown_keeps_invalid_usage(tmp_path):
    v, acc = verdict_accused(tmp_path, _mesh_tb(0) + _mesh_tb(1))
    assert (v["cause"], v["culprits"], acc) == ("invalid_usage", [], set()), v


# --- finding 3: CANN's EC0010 beside an Ascend device error -------------------------------------------------------
def _cann(rank: int, dev: int | None = None) -> str:
    dev = rank if dev is None else dev
    p = f"[rank{rank}]: "
    return (f"{p}Traceback (most recent call last):\n"
            f'{p}  File "/work/train.py", line 30, in <module>\n'
            f"{p}    dist.all_reduce(t)\n"
            f'{p}  File "/usr/local/python3.10/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", '
            "line 2050, in all_reduce\n"
            f"{p}    work = group.allreduce([tensor], opts)\n"
            f"{p}RuntimeError: InnerRun:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:218 OPS function error: "
            "HcclAllreduce, error code is 6\n"
            f"{p}[ERROR] 2024-05-21-11:57:54 (PID:92700{rank}, Device:{dev}, RankID:{rank}) ERR02200 DIST call hccl "
            "api failed.\n"
            f"{p}EC0010: Failed to import Python module [ModuleNotFoundError: No module named "
            "'tbe.common.repository_manager'.]\n"
            f"{p}        Solution: Check that all required components are properly installed and the specified "
            "Python path matches the Python installation directory.\n")


_DEVICE_ERRORS = (
    "[rank{r}]: EE9999: Inner Error!\n[rank{r}]: EE9999: [PID: 927000] 2024-05-21-11:57:54.123.456 The error from "
    "device(chipId:{r}, dieId:0), serial number is 5, there is an aicore error, core id is 0, error code = 0x800000\n",
    "[rank{r}]: EZ9999: Inner Error!\n[rank{r}]: EZ9999: [PID: 927000] The error from device(chipId:{r}, dieId:0), "
    "serial number is 2\n",
    "[rank{r}]: [ERROR] RUNTIME(927000,python):2024-05-21-11:57:54.123.456 [device_error_proc.cc:123]927000 "
    "there is an AI Core error on device {r}\n",
)


@pytest.mark.parametrize("dev_err", _DEVICE_ERRORS)
@pytest.mark.parametrize("before", [False, True])
def test_ec0010_beside_a_device_error_is_not_config(tmp_path, dev_err, before):
    err = dev_err.format(r=3)
    text = err + _cann(3) if before else _cann(3) + err
    v, _ = verdict_accused(tmp_path, text)
    assert v["cause"] != "config", v
    assert "not a fault of that rank or its NPU" not in v["summary"], v


def test_ec0010_beside_another_chips_device_error_is_not_config(tmp_path):
    v, _ = verdict_accused(tmp_path, _cann(3) + _DEVICE_ERRORS[0].format(r=5))
    assert v["cause"] != "config", v


def test_ec0010_one_rank_alone_is_config_medium(tmp_path):
    for rank in (1, 3):
        v, acc = verdict_accused(tmp_path, _cann(rank))
        assert (v["cause"], v["culprits"], acc, v["confidence"]) == ("config", [], set(), "medium"), v


def test_ec0010_the_issue_shape_is_config_medium(tmp_path):
    text = ("RuntimeError: [ERROR] HCCL error in: torch_npu/csrc/distributed/ProcessGroupHCCL.cpp:64\n"
            "[ERROR] 2024-10-09-10:06:30 (PID:1506967, Device:1, RankID:1) ERR02200 DIST call hccl api failed.\n"
            "EC0010: Failed to import Python module [ModuleNotFoundError: No module named "
            "'tbe.common.repository_manager.utils.repository_manager_log'.].\n"
            "        Solution: Check that all required components are properly installed and the specified Python "
            "path matches the Python installation directory. (If the path does not match the directory, run "
            "set_env.sh in the installation package.)\n")
    v, acc = verdict_accused(tmp_path, text)
    assert (v["cause"], v["culprits"], acc, v["confidence"]) == ("config", [], set(), "medium"), v
    assert "set_env.sh" in v["fix"], v


def test_ec0010_on_two_ranks_is_config_high(tmp_path):
    v, acc = verdict_accused(tmp_path, _cann(0) + _cann(1))
    assert (v["cause"], v["culprits"], acc, v["confidence"]) == ("config", [], set(), "high"), v


# --- finding 5: the pipelining assert's own frame -------------------------------------------------------------
_PP = "/usr/lib/python3/dist-packages/torch/distributed/pipelining"


@pytest.mark.parametrize("rank", [0, 1])
@pytest.mark.parametrize("inner, func, code", [
    ("_backward.py", "stage_backward", "assert len(stage_output_tensors) == len(output_grad_tensors)"),
    ("_backward.py", "extract_tensors_with_grads", "assert len(output_val) == len(grad_val)"),
])
def test_pipelining_assert_names_its_own_frame(tmp_path, rank, inner, func, code):
    p = f"[rank{rank}]: "
    text = (f"{p}Traceback (most recent call last):\n"
            f'{p}  File "/work/pp.py", line 80, in <module>\n'
            f"{p}    schedule.step(target=y, losses=losses)\n"
            f'{p}  File "{_PP}/schedules.py", line 650, in _step_microbatches\n'
            f"{p}    self._stage.backward_one_chunk(i, loss=loss)\n"
            f'{p}  File "{_PP}/{inner}", line 330, in {func}\n'
            f"{p}    {code}\n"
            f"{p}AssertionError\n")
    v, acc = verdict_accused(tmp_path, text)
    assert (v["cause"], v["culprits"], acc) == ("config", [], set()), v
    assert f"raised under {func} in {inner}" in v["summary"], v
    assert "_step_microbatches" not in v["summary"], v


def test_assert_in_the_jobs_own_model_under_pipelining_is_not_taken(tmp_path):
    p = "[rank1]: "
    text = (f"{p}Traceback (most recent call last):\n"
            f'{p}  File "{_PP}/schedules.py", line 650, in _step_microbatches\n'
            f"{p}    output = self._stage.forward_one_chunk(i, arg_mbs[i], kwarg_mbs[i])\n"
            f'{p}  File "{_PP}/stage.py", line 500, in forward_one_chunk\n'
            f"{p}    output = self.forward_maybe_with_nosync(*composite_args, **composite_kwargs)\n"
            f'{p}  File "/work/model.py", line 40, in forward\n'
            f"{p}    assert x.shape[0] == self.micro_bs\n"
            f"{p}AssertionError\n")
    v, _ = verdict_accused(tmp_path, text)
    assert v["cause"] != "config", v
