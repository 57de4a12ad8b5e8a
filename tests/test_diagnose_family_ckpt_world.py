"""Round 96's checkpoint-time shapes (rules W, Q, J, A, BC (2), I, M, B, E, T, L).

- A loader's own check that the checkpoint's data-parallel world size is the one launched (DeepSpeed's
  ZeRORuntimeException "The checkpoint being loaded used a DP world size of 8 but the current world size is 16"): every
  rank loads the same checkpoint under the same launch, so config, culprits [] -- whichever rank's tag the line carries
  (deepspeed-6441, glm-136). Another ZeRORuntimeException keeps its old reading: that rank's own failure, unknown.
- torchrun's record naming one worker with exit code 1 and no error text: that rank, unknown (rules A, BC (2)); the fix
  now also names that rank's own traceback as the exception above the ChildFailedError (xtuner-315).
- A launcher's "Error in subprocess" report with an empty capture and its command's non-zero exit: unknown, nobody;
  the fix names each rank's own stderr / traceback, per-rank logs, running the process alone and dmesg (composer-149).
- A watchdog timeout whose failed collective's stack runs through Megatron dist_checkpointing's async save
  finalization (sync_all_async_calls): rank_missing, the rank shown innocent; the fix names the async checkpoint save
  (verl-2238). Another caller in the stack keeps the general fix.
- torch's FutureWarning that FSDP.state_dict_type() / set_state_dict_type() are deprecated alone: none; the fix says
  it is a FutureWarning only and names get_state_dict / set_state_dict (pytorch-136907). Another FutureWarning does not
  get those words.
"""
from __future__ import annotations

from tests.conftest import child_failed, diagnose_text, failure_record, watchdog_line
from tests.conftest import verdict_accused as _verdict

_ZERO_MSG = ("The checkpoint being loaded used a DP world size of {saved} but the current world size is {now}. "
             "Automatic adjustment of ZeRO's optimizer state partitioning with a new world size is not currently "
             "supported.")


# --- a ZeRO checkpoint saved under another data-parallel world size ------------------------------------------------
def test_zero_ckpt_world_mismatch_under_one_rank_tag_is_config_nobody(tmp_path):
    text = (' raise ZeRORuntimeException("The checkpoint being loaded used a DP " \\\n'
            "[rank2]: deepspeed.runtime.zero.utils.ZeRORuntimeException: " + _ZERO_MSG.format(saved=4, now=32) + "\n")
    v, acc = _verdict(tmp_path, text)
    assert v["cause"] == "config" and v["culprits"] == [] and not acc
    assert "same data-parallel world size the checkpoint was saved with (4)" in v["fix"]
    assert "load_optimizer_states=False" in v["fix"] and "universal checkpoint" in v["fix"]


def test_zero_ckpt_world_mismatch_untagged_traceback_is_config_nobody(tmp_path):
    text = ("Traceback (most recent call last):\n"
            '  File "train.py", line 91, in <module>\n'
            "    main()\n"
            '  File "train.py", line 60, in main\n'
            "    engine.load_checkpoint(args.load)\n"
            '  File "/opt/conda/lib/python3.10/site-packages/deepspeed/runtime/engine.py", line 2950, in '
            "_load_zero_checkpoint\n"
            '    raise ZeRORuntimeException("The checkpoint being loaded used a DP " \\\n'
            "deepspeed.runtime.zero.utils.ZeRORuntimeException: " + _ZERO_MSG.format(saved=64, now=8) + "\n")
    v, acc = _verdict(tmp_path, text)
    assert v["cause"] == "config" and v["culprits"] == [] and not acc
    assert "(64)" in v["fix"] and "zero_to_fp32.py" in v["fix"]


def test_other_loaders_ckpt_world_check_is_config_without_zero_words(tmp_path):
    text = ("[rank1]: RuntimeError: The checkpoint was saved with a data parallel world size of 8 but the current "
            "world size is 4\n")
    v, acc = _verdict(tmp_path, text)
    assert v["cause"] == "config" and v["culprits"] == [] and not acc
    assert "(8)" in v["fix"] and "ZeRO" not in v["fix"]


def test_other_zero_exception_under_one_rank_tag_keeps_that_rank(tmp_path):
    text = ("[rank6]: deepspeed.runtime.zero.utils.ZeRORuntimeException: Optimizer state for partition 6 not found in "
            "the checkpoint directory\n")
    v, acc = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("unknown", [6]), v  # its old reading (review 96 finding 10)


# --- torchrun's record of one worker's exit code 1 -----------------------------------------------------------------
def _child_failed(rank: int, local: int) -> str:
    return child_failed(failure_record(0, rank, local, 1, 41234, host="gpu-node-7"), space=True, end=True)


def test_torchrun_record_exit1_names_the_exception_above_the_childfailederror(tmp_path):
    v, acc = _verdict(tmp_path, _child_failed(6, 2))
    assert v["cause"] == "unknown" and v["culprits"] == [6]
    assert "rank 6's own traceback (the exception above the ChildFailedError)" in v["fix"]


def test_spawn_record_exit1_does_not_get_the_torchrun_record_words(tmp_path):
    text = ("Traceback (most recent call last):\n"
            '  File "train.py", line 120, in <module>\n'
            "    mp.spawn(main, nprocs=4)\n"
            "torch.multiprocessing.spawn.ProcessExitedException: process 1 terminated with exit code 1\n")
    v, _ = _verdict(tmp_path, text)
    assert "(the exception above the ChildFailedError)" not in v["fix"]


# --- a launcher's "Error in subprocess" record with nothing captured ------------------------------------------------
def _subprocess_error(step: int, code: int, pids: list[int]) -> str:
    return (f'[BATCH][step={step}]: {{ "loss/train": 0.4123, }}\n'
            "Error in subprocess\n"
            "----------Subprocess STDOUT----------\n\n"
            "----------Subprocess STDERR----------\n\n"
            f"Command '['/usr/bin/python3', '-u', 'train.py', '-f', 'c.yaml']' returned non-zero exit status {code}.\n"
            + "".join(f"Killing subprocess {p} with SIGTERM\n" for p in pids)
            + "Waiting 30 seconds for processes to terminate...\n")


def test_error_in_subprocess_names_per_rank_logs_and_no_rank(tmp_path):
    v, acc = _verdict(tmp_path, _subprocess_error(1199, 1, [7012, 7008, 7015]))
    assert v["cause"] == "unknown" and not acc
    assert "each rank's own stderr / traceback" in v["fix"] and "per-rank logs" in v["fix"]
    assert "run the failing process alone" in v["fix"] and "dmesg" in v["fix"]


def test_other_unread_error_words_keep_the_general_fix(tmp_path):
    v, acc = _verdict(tmp_path, "[BATCH][step=99]: { }\nError in subprocess handler: queue closed\n")
    assert not acc and "one worker subprocess exited" not in v["fix"]


# --- a watchdog timeout inside Megatron's async checkpoint finalization --------------------------------------------
def _fr_stack(rank: int, seq: int, frame: str) -> str:
    return (watchdog_line(rank, seq, "ALLREDUCE", 600021, 600000, numel=1, stamp="E627 12:26:40.073493187", at=629)
            + f"[rank{rank}]:[E627 12:26:40.073594829 ProcessGroupNCCL.cpp:2168] [PG ID 0 PG GUID 0(default_pg) Rank "
            f"{rank}]  failure detected by watchdog at work sequence id: {seq} PG status: last enqueued work: {seq}, "
            f"last completed work: {seq - 1}\n"
            f"[rank{rank}]:[E627 12:26:40.074084476 ProcessGroupNCCL.cpp:664] Stack trace of the failed collective: \n"
            "#0 all_reduce from /usr/local/lib/python3.10/dist-packages/torch/distributed/distributed_c10d.py:2806\n"
            "#1 wrapper from /usr/local/lib/python3.10/dist-packages/torch/distributed/c10d_logger.py:81\n"
            f"#2 {frame}\n")


def test_timeout_in_async_checkpoint_finalize_names_the_async_save(tmp_path):
    frame = ("maybe_finalize_async_calls from /opt/megatron/core/dist_checkpointing/strategies/async_utils.py:201")
    d = diagnose_text(tmp_path, _fr_stack(3, 412, frame))
    v = d["verdict"]
    assert v["cause"] == "rank_missing" and 3 not in v["culprits"]
    assert "async checkpoint save" in v["fix"] and "disable async save to test" in v["fix"]


def test_timeout_in_another_caller_keeps_the_general_fix(tmp_path):
    d = diagnose_text(tmp_path, _fr_stack(3, 412, "train_step from /opt/megatron/training/training.py:733"))
    v = d["verdict"]
    assert v["cause"] == "rank_missing" and 3 not in v["culprits"]
    assert "async checkpoint" not in v["fix"]


# --- FSDP1's state_dict_type deprecation notice alone -------------------------------------------------------------
def test_fsdp_state_dict_type_futurewarning_alone_is_none_with_its_words(tmp_path):
    text = ("/opt/venv/lib/python3.11/site-packages/torch/distributed/fsdp/fully_sharded_data_parallel.py:712: "
            "FutureWarning: FSDP.state_dict_type() and FSDP.set_state_dict_type() are being deprecated. Please use "
            "APIs, get_state_dict() and set_state_dict(), which can support different parallelisms, FSDP1, FSDP2, "
            "DDP.\n  warnings.warn(\n")
    v, acc = _verdict(tmp_path, text)
    assert v["cause"] == "none" and v["culprits"] == [] and not acc
    assert "futurewarning only: nothing failing" in v["fix"].lower()
    assert "get_state_dict / set_state_dict" in v["fix"]


def test_other_futurewarning_alone_does_not_get_the_fsdp_words(tmp_path):
    text = ("/opt/venv/lib/python3.11/site-packages/torch/cuda/amp/grad_scaler.py:31: FutureWarning: "
            "`torch.cuda.amp.GradScaler(args...)` is deprecated. Please use `torch.amp.GradScaler('cuda', args...)` "
            "instead.\n")
    v, acc = _verdict(tmp_path, text)
    assert v["cause"] == "none" and not acc and "set_state_dict" not in v["fix"]
