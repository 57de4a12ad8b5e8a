"""How diagnose reads three shapes of round 99 (session 39, fix brief i2): a traceback flattened onto one line with a
log viewer's consecutive line numbers glued between its lines (deepspeed-3483: an RNG-state broadcast's generator
refusing the state it received, 'Invalid mt19937 state'), torch's 'NCCL error in: <site>, unhandled system error'
with the site's path elided by the reporter ('NCCL error in: ... /torch/...', azureml-bert-34), and a library's
unreachable-branch assertion saying its kernels have no case for the launch's rank count ('false and "Unsupported RDMA
ranks"', DeepEP's SWITCH_RDMA_RANKS: deepep-255). Each test reads the shape from lines other than the cases' own
(other numbers, ranks, paths), and a near shape that keeps its old reading. Paths and numbers are made up."""

from __future__ import annotations

from tests.conftest import verdict_accused

_SITE = "/opt/conda/lib/python3.10/site-packages/accelerate"


def _flat(start: int, lines: list[str], lead: str = "") -> str:
    """LINES flattened onto one line, each after its log viewer's number (START, START+1, ...)."""
    return lead + "".join(f"{start + i}{x}" for i, x in enumerate(lines)) + "\n"


_RNG_SYNC = [f'  File "{_SITE}/data_loader.py", line 451, in __iter__',
             "    synchronize_rng_states(self.rng_types, self.synchronized_generator)",
             f'  File "{_SITE}/utils/random.py", line 127, in synchronize_rng_states',
             "    synchronize_rng_state(RNGType(rng_type), generator=generator)",
             f'  File "{_SITE}/utils/random.py", line 122, in synchronize_rng_state']


def test_a_flattened_numbered_traceback_of_an_rng_state_broadcast_is_read_as_its_lines(tmp_path):
    """A worker's traceback flattened with a log viewer's line numbers 118..124 glued between its lines, behind a
    launcher's "[rank2]: ": its frames run through accelerate's synchronize_rng_states and end in the generator
    refusing the state it received ('RNG state is wrong size') -- desync, nobody named (one rank's line cannot say
    which side went off path), not 'nothing failed'."""
    text = _flat(118, _RNG_SYNC + ["    torch.cuda.set_rng_state(rng_state)", "RuntimeError: RNG state is wrong size"],
                 lead="[rank2]: ")
    v, acc = verdict_accused(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("desync", []) and not acc, v
    assert "rng_types" in v["fix"] and "synchronize_rng_states" in v["fix"], v


def test_a_flattened_numbered_traceback_untagged_reads_the_same(tmp_path):
    """The same with other numbers (40512..40518), no prefix and the CPU generator's 'Invalid mt19937 state'."""
    text = _flat(40512, _RNG_SYNC + ["    generator.set_state(rng_state)", "RuntimeError: Invalid mt19937 state"])
    v, acc = verdict_accused(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("desync", []) and not acc, v


def test_numbers_that_do_not_follow_one_another_are_no_log_viewers_and_the_line_is_not_cut(tmp_path):
    """The near shape: the same frames with numbers that are not consecutive (12, 40, 57, ...): no log viewer's
    numbering, the line is not cut, and it keeps its old reading (no desync read into one line's words)."""
    lines = _RNG_SYNC + ["    generator.set_state(rng_state)", "RuntimeError: Invalid mt19937 state"]
    text = "".join(f"{n}{x}" for n, x in zip((12, 40, 57, 90, 93, 97, 99), lines)) + "\n"
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] != "desync" and not acc, v


def test_a_flattened_numbered_traceback_of_a_state_loaded_from_a_checkpoint_is_no_desync(tmp_path):
    """The near shape: a flattened numbered traceback whose state comes from a checkpoint file (no RNG-state
    broadcast in its frames): cut into its lines, it is the file's state, never a desync."""
    text = _flat(301, ['  File "/home/u/train.py", line 88, in main', "    trainer.load_checkpoint(path)",
                       '  File "/home/u/ckpt.py", line 31, in load_checkpoint', '    torch.set_rng_state(state["rng"])',
                       "RuntimeError: Invalid mt19937 state"])
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] != "desync" and not acc, v


def test_an_nccl_check_with_its_path_elided_is_still_nccls_system_error(tmp_path):
    """torch's NCCL check with the site's path cut by the reporter to an ellipsis ('NCCL error in: ...
    /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:514, unhandled system error, NCCL version 2.4.8'), under the
    traceback of DDP's construction: ncclSystemError, nobody named -- not an unexplained failure."""
    text = ("Traceback (most recent call last):\n  File \"run_pretraining.py\", line 410, in <module>\n"
            "    model = DDP(model)\nRuntimeError: NCCL error in: ... /pytorch/torch/lib/c10d/"
            "ProcessGroupNCCL.cpp:514, unhandled system error, NCCL version 2.4.8\n")
    v, acc = verdict_accused(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("nccl_system", []) and not acc, v


def test_an_nccl_check_with_its_path_elided_by_a_unicode_ellipsis_reads_the_same(tmp_path):
    """The same line alone, its path elided with the one-character ellipsis and another site's line."""
    text = "RuntimeError: NCCL error in: \u2026 /torch/lib/c10d/ProcessGroupNCCL.cpp:37, unhandled system error\n"
    v, acc = verdict_accused(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("nccl_system", []) and not acc, v


def test_an_elided_nccl_site_followed_by_no_nccl_error_string_keeps_its_old_reading(tmp_path):
    """The near shape: the same elided head followed by words that are no string of NCCL's ('see the log above'):
    no NCCL result code is named, so it is not read as one -- it stays an unexplained failure."""
    text = "RuntimeError: NCCL error in: ... /torch/lib/c10d/ProcessGroupNCCL.cpp:290, see the log above\n"
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "unknown" and not acc, v


def _deepep(cond: str, line: int = 1917) -> str:
    return ('  File "/opt/DeepEP/deep_ep/buffer.py", line 360, in internode_combine\n'
            "    combined_x, combined_topk_weights, event = self.runtime.internode_combine(\n"
            f"RuntimeError: Failed: Assertion error /opt/DeepEP/csrc/kernels/internode.cu:{line} '{cond}'\n")


def test_an_unsupported_rdma_ranks_assertion_is_the_launchs_node_count(tmp_path):
    """DeepEP's SWITCH_RDMA_RANKS default branch ('false and "Unsupported RDMA ranks"', here in internode_combine at
    another line) under a spawned worker's traceback: the node count every rank shares has no compiled case --
    config, nobody named, the fix a supported number of RDMA ranks (nodes) or a case added and rebuilt."""
    v, acc = verdict_accused(tmp_path, _deepep('false and "Unsupported RDMA ranks"', 2044))
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "supported number of RDMA ranks" in v["fix"] and "SWITCH_RDMA_RANKS" in v["fix"], v


def test_an_unsupported_ranks_assertion_in_cs_other_idiom_reads_the_same(tmp_path):
    """The same idiom written with '&&' and the rank count ('false && "Unsupported ranks"', SWITCH_RANKS): config,
    nobody named, the fix a supported number of ranks."""
    v, acc = verdict_accused(tmp_path, _deepep('false && "Unsupported ranks"'))
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "supported number of ranks" in v["fix"], v


def test_an_unsupported_type_assertion_is_no_launch_count_and_keeps_its_old_reading(tmp_path):
    """The near shape: the same switch idiom on a tensor's dtype ('false and "Unsupported type"'): no launch count,
    so not read as one -- it keeps the generic reading of a settings check, low confidence, no kernel-count fix."""
    v, acc = verdict_accused(tmp_path, _deepep('false and "Unsupported type"'))
    assert v["cause"] == "config" and v["confidence"] == "low" and "SWITCH_RDMA_RANKS" not in v["fix"] and not acc, v
