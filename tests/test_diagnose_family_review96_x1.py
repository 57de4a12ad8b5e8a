"""Review 96's findings 2, 4, 7 and 8 (the review of rounds 96-97's diagnose fixes, /work/notes/s38/findings.md).

- Finding 2: the trigger words "tensor([" and "orld size" sent every per-step tensor print and every "world size 8
  rank 0" print through the full parser (10x). The triggers are now the words the readers need: the receive's word
  ("ecv", "eceived", "rcv") and the sentinel's own world size -1 ("ize -1", "ize: -1", ...); "computed world size" is
  a trigger again. The shapes the fixes were for (a received integer bit pattern, every process printing rank -1 and
  world size -1, Lightning's computed world size) still read as they did.
- Finding 4: one process's "rank -1, world size -1" (a script run without a launcher) is not the not-a-member
  sentinel of every process; neither is a run that finished.
- Finding 7: one "nothing failing" guard (verdict.base.quiet) for the readers of a job's own prints and settings,
  finished runs included, with no private import across verdict families.
- Finding 8: "rank: -1, world_size: -1" at a line's start reads as it does after another word.
"""
from __future__ import annotations

import inspect

import pytest

from ncclDoctor.diagnose import load
from ncclDoctor.diagnose.verdict import base, desync, world
from tests.conftest import verdict_accused

_PG_LEFT = ("[rank0]:[W1205 10:00:00.000000000 ProcessGroupNCCL.cpp:1250] Warning: WARNING: process group has NOT been "
            "destroyed before we destruct ProcessGroupNCCL.\n")


def _hits(text: str) -> list[int]:
    block = text.encode()
    return load._find_hits(block, len(block))


# --- finding 2: ordinary prints reach no trigger word -----------------------------------------------------------------
@pytest.mark.parametrize("line", [
    "step 12 loss tensor([0.1234], device='cuda:0')",
    "epoch 3 grad_norm tensor([1.5000e+00, 2.0000e-01], device='cuda:1', grad_fn=<AddBackward0>)",
    "logits: tensor([[0.1, 0.9]], device='cuda:0')",
    "step 7 world size 8 rank 3 loss 0.2537",
    "World size: 2, rank 0",
    "[init] rank 5 / world size 16 local rank 5",
])
def test_a_per_step_tensor_or_world_size_print_holds_no_trigger_word(line):
    assert _hits(line + "\n") == [], line


@pytest.mark.parametrize("line", [
    "1:recv_tensor=tensor([2.8026e-45, 0.0000e+00], device='cuda:1')",
    "Rank 3 received: tensor([7.0065e-45, 0.0000e+00], device='cuda:3')",
    "irecv_buf tensor([1.4013e-45])",
    "rank: -1, world_size: -1",
    "hello from rank -1, world size -1",
    "World Size: -1, Rank: -1",
    "WORLD_SIZE environment variable (2) is not equal to the computed world size (1). Ignored.",
])
def test_the_lines_the_readers_need_still_hold_a_trigger_word(line):
    assert _hits(line + "\n") == [0], line


def test_a_received_integer_bit_pattern_alone_is_still_a_p2p_desync(tmp_path):
    # no other word on the lines: only the receive's word lets them through
    text = ("0:send_tensor=tensor([2, 0], device='cuda:0', dtype=torch.int32)\n"
            "1:recv_tensor=tensor([2.8026e-45, 0.0000e+00], device='cuda:1')\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "desync" and v["culprits"] == [] and not acc, v


# --- finding 4: one process's own -1 is no broken process group -------------------------------------------------------
@pytest.mark.parametrize("text", [
    "Running in single-process mode (no torch.distributed)\nhello from rank -1, world size -1\nstep 0 loss 2.3\n"
    "step 1 loss 2.1\nTraining finished.\n",
    "rank -1 world size -1\n",
    "[main] world_size: -1, rank: -1 (not distributed)\nepoch 0 loss 1.0\n",
])
def test_one_sentinel_print_is_no_reading(tmp_path, text):
    v, _ = verdict_accused(tmp_path, text)
    assert v["cause"] == "none", v


def test_sentinel_prints_in_a_run_that_finished_are_no_reading(tmp_path):
    text = "hello from rank -1, world size -1\nhello from rank -1, world size -1\n" + _PG_LEFT
    v, _ = verdict_accused(tmp_path, text)
    assert v["cause"] == "none", v


def test_every_process_printing_the_sentinel_is_still_unknown_with_the_build_in_the_fix(tmp_path):
    text = ("mpirun -np 2 python test_backends.py mpi\n"
            + "Testing mpi backend: hello from rank -1, world size -1\n" * 2)
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "unknown" and v["culprits"] == [] and not acc, v
    assert "upgrade torch" in v["fix"], v


# --- finding 8: the "rank: -1, world_size: -1" form reads alike wherever it starts ------------------------------------
@pytest.mark.parametrize("prefix", ["", "proc 0 ", "[mpi] "])
def test_the_colon_form_reads_alike_at_a_lines_start_or_after_a_word(tmp_path, prefix):
    v, acc = verdict_accused(tmp_path, f"{prefix}rank: -1, world_size: -1\n" * 2)
    assert v["cause"] == "unknown" and v["culprits"] == [] and not acc, v


# --- finding 7: one "nothing failing" guard -------------------------------------------------------------------------
def test_the_readers_share_one_quiet_guard_and_import_nothing_private_across_families():
    assert callable(base.quiet)
    for mod in (desync, world):
        assert "verdict.transport import" not in inspect.getsource(mod), mod.__name__
    for reader in (desync._recv_garbage, world._rank_sentinel, world._env_rank0_elsewhere, world._slurm_tasks_gpus):
        assert "quiet(c)" in inspect.getsource(reader), reader.__name__


def test_a_received_integer_bit_pattern_in_a_run_that_finished_is_no_desync(tmp_path):
    text = ("Rank 3 received: tensor([7.0065e-45, 0.0000e+00, 8.4078e-45, 0.0000e+00], device='cuda:3')\n"
            + _PG_LEFT)
    v, _ = verdict_accused(tmp_path, text)
    assert v["cause"] != "desync", v
    assert v["cause"] == "none", v
