"""Activation checkpointing's own checks, and DDP's reducer error under a torchrun record, shapes round 93 showed read
by their shape (rules A, AW, BG (1), BJ (2), BW (2), Q):

- torch.utils.checkpoint's CheckpointError in backward ("Recomputed values for the following tensors have different
  metadata than during the forward pass", then its saved / recomputed metadata listing): the library's own check that
  the recomputation replayed the forward failing on the model, its checkpointing and compile / sharding settings that
  every rank builds alike -- config, nobody, nobody innocent, even with one rank-tagged traceback only (rule BW (2);
  modalities-361, trl-4314). Not read so: the same check on a rank after which the agent SIGTERMs the other workers
  (rule A keeps that rank: round 58's stableavatar-57).
- torchrun's "failed (exitcode: 1) local_rank: 0" record after DDP's reducer error ("Expected to mark a variable ready
  only once ... marked as ready twice"), no other worker shown torn down or waiting: the record names only the first
  exit the agent saw of the module and DDP setting every rank runs -- unknown, nobody (rules AW, Q; gligen-30). Not
  read so: the agent's "closing signal SIGTERM" lines beside it (rule A keeps the record's rank), and a record after
  any other exception of that rank (its own, rule A).
- A traceback cut before its error under fairscale FSDP's own training-state assertion (assert_state's frame, from
  _wait_for_post_backward): still unknown, nobody (rules BG (1), BJ (2)), its fix naming FSDP's post-backward hook
  state under reentrant activation checkpointing (fairseq-3353). A cut traceback with no such frame keeps the plain
  cut-traceback fix.
"""
from __future__ import annotations

from tests.conftest import verdict_accused as _verdict

_SITE = "/usr/local/lib/python3.12/dist-packages"
_CKPT_HEAD = ("torch.utils.checkpoint.CheckpointError: torch.utils.checkpoint: Recomputed values for the following "
              "tensors have different metadata than during the forward pass.\n")


def _listing(rank: int, saved: str, recomputed: str) -> str:
    return (f"[rank{rank}]: tensor at position 4:\n"
            f"[rank{rank}]: saved metadata: {{'shape': torch.Size([{saved}]), 'dtype': torch.bfloat16, "
            f"'device': device(type='cuda', index={rank})}}\n"
            f"[rank{rank}]: recomputed metadata: {{'shape': torch.Size([{recomputed}]), 'dtype': torch.bfloat16, "
            f"'device': device(type='cuda', index={rank})}}\n")


# --- torch.utils.checkpoint's recompute check -------------------------------------------------------------------------
def test_one_rank_s_checkpoint_recompute_mismatch_is_the_model_s_config_nobody(tmp_path):
    v, acc = _verdict(tmp_path, f'[rank3]:   File "{_SITE}/torch/utils/checkpoint.py", line 1150, in unpack_hook\n'
                                "[rank3]:     frame.check_recomputed_tensors_match(gid)\n"
                                f'[rank3]:   File "{_SITE}/torch/utils/checkpoint.py", line 903, in '
                                "check_recomputed_tensors_match\n"
                                "[rank3]:     raise CheckpointError(\n"
                                "[rank3]: " + _CKPT_HEAD + _listing(3, "1, 8, 8192, 128", "1, 8, 4096, 128"))
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "deterministic forward on recompute" in v["fix"] and "debug=True" in v["fix"], v
    assert "same context-parallel sharding" in v["fix"] and "torch.compile" in v["fix"], v


def test_checkpoint_recompute_mismatch_with_the_agent_tearing_the_others_down_keeps_rule_a_s_rank(tmp_path):
    sigterm = "".join(f"W0908 17:08:0{i}.837000 3889263 site-packages/torch/distributed/elastic/multiprocessing/"
                      f"api.py:900] Sending process 388942{i} closing signal SIGTERM\n" for i in range(1, 4))
    v, acc = _verdict(tmp_path, "[rank0]: Traceback (most recent call last):\n"
                                '[rank0]:   File "/code/train.py", line 2164, in <module>\n'
                                "[rank0]:     main()\n"
                                + _listing(0, "5120", "0") + "\n" + sigterm)
    assert (v["cause"], v["culprits"]) == ("unknown", [0]) and acc == {0}, v


# --- DDP's reducer error under torchrun's record ----------------------------------------------------------------------
_READY_TWICE = ("RuntimeError: Expected to mark a variable ready only once. This error is caused by one of the "
                "following reasons: 1) Use of a module parameter outside the `forward` function. 2) Reused parameters "
                "in multiple reentrant backward passes. You can try to use _set_static_graph() as a workaround.\n"
                "Parameter at index 12 with name blocks.3.skip.weight has been marked as ready twice.\n")
_RECORD = ("ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 34718) of "
           "binary: /opt/conda/bin/python\n")


def test_reducer_error_then_torchrun_s_record_of_local_rank_0_names_nobody(tmp_path):
    v, acc = _verdict(tmp_path, _READY_TWICE + _RECORD)
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "use_reentrant=False" in v["fix"] and "static_graph=True" in v["fix"], v


def test_reducer_error_with_the_agent_s_sigterm_lines_keeps_the_record_s_rank(tmp_path):
    v, acc = _verdict(tmp_path, _READY_TWICE
                      + "WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 34719 closing signal "
                        "SIGTERM\n" + _RECORD)
    assert v["culprits"] == [0] and acc == {0}, v


def test_another_exception_then_torchrun_s_record_keeps_the_record_s_rank(tmp_path):
    v, acc = _verdict(tmp_path, "KeyError: 'image_path'\n" + _RECORD)
    assert (v["cause"], v["culprits"]) == ("unknown", [0]) and acc == {0}, v


# --- fairscale FSDP's training-state assertion above a cut traceback --------------------------------------------------
_CUT = ("Traceback (most recent call last):\n"
        '  File "/opt/conda/bin/fairseq-train", line 33, in <module>\n'
        "    sys.exit(load_entry_point('fairseq\n")


def test_fsdp_state_assertion_above_a_cut_traceback_names_reentrant_checkpointing(tmp_path):
    v, acc = _verdict(tmp_path, "expected to be in states [<TrainingState.BACKWARD_POST: 4>] but current state is "
                                "TrainingState.IDLE\n"
                                '  File "/ws/fairseq/fairseq/modules/checkpoint_activations.py", line 231, in '
                                "backward\n"
                                "    torch.autograd.backward(outputs_with_grad, args_with_grad)\n"
                                '  File "/ws/fairscale/fairscale/nn/data_parallel/fully_sharded_data_parallel.py", '
                                "line 1174, in _wait_for_post_backward\n"
                                "    m.assert_state(TrainingState.BACKWARD_POST)\n"
                                '  File "/ws/fairscale/fairscale/nn/data_parallel/fully_sharded_data_parallel.py", '
                                "line 1365, in assert_state\n"
                                "    traceback.print_stack()\n" + _CUT)
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "post-backward hook state" in v["fix"] and "use_reentrant=False" in v["fix"], v


def test_a_cut_traceback_without_fsdp_s_assertion_keeps_the_plain_cut_fix(tmp_path):
    v, acc = _verdict(tmp_path, _CUT)
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "post-backward hook state" not in v["fix"] and "full traceback" in v["fix"], v
