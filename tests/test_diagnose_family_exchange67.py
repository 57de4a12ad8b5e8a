"""How diagnose reads a value or an amount exchanged with peers that the lines show going wrong (round 67, session 24):
a generator refusing the RNG state a rank received in an RNG-state broadcast (accelerate's synchronize_rng_states;
lead rules BB (2), AH (1)), and an all-to-all that a peer is shown completing while a rank times out inside it
(rules D, H). Each test reads the shape from lines other than the corpus case's own, and a near shape that must NOT be
read that way. Error wordings are torch's (CPUGeneratorImpl.cpp, ProcessGroupNCCL.cpp, _functional_collectives.py);
hosts, pids and paths are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import watchdog_line as _wd

# --- a generator refusing the state an RNG-state broadcast delivered --------------------------------------------------
_RNG_TB = ("{tag}Traceback (most recent call last):\n"
           '{tag}  File "/home/u/train_lm.py", line 140, in <module>\n'
           "{tag}    for batch in train_loader:\n"
           '{tag}  File "/opt/env/lib/python3.11/site-packages/accelerate/data_loader.py", line 550, in __iter__\n'
           "{tag}    synchronize_rng_states(self.rng_types, self.synchronized_generator)\n"
           '{tag}  File "/opt/env/lib/python3.11/site-packages/accelerate/utils/random.py", line 120, in '
           "synchronize_rng_states\n"
           "{tag}    synchronize_rng_state(RNGType(rng_type), generator=generator)\n"
           '{tag}  File "/opt/env/lib/python3.11/site-packages/accelerate/utils/random.py", line 115, in '
           "synchronize_rng_state\n"
           "{tag}    torch.set_rng_state(rng_state)\n"
           "{tag}RuntimeError: {error}\n")
_AGENT = ("E0412 08:01:02.500000 140000 torch/distributed/elastic/multiprocessing/api.py:833] failed (exitcode: 1) "
          "local_rank: 1 (pid: 51234) of binary: /opt/env/bin/python\n")


def test_an_invalid_generator_state_received_in_an_rng_broadcast_is_a_desync_naming_nobody(tmp_path):
    """Rules BB (2), AH (1): [rank3]'s generator refuses the state it just received from rank 0's RNG broadcast
    (accelerate's synchronize_rng_state frame), its node's agent recording local_rank 1's exit: a state rank 0 never
    sent as such -- desync, nobody named (not rank 3 by rule A), the fix the broadcast's (same collective order, same
    versions on every node, rng_types)."""
    text = _RNG_TB.format(tag="[rank3]: ", error="Invalid mt19937 state") + _AGENT
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("desync", []) and not _accused(d), v
    assert "synchronize_rng_states" in v["fix"] and "rng_types" in v["fix"], v
    assert "TORCH_DISTRIBUTED_DEBUG=DETAIL" in v["fix"] and "nccl-tests" in v["fix"], v


def test_a_wrong_sized_cuda_rng_state_in_the_broadcast_reads_the_same(tmp_path):
    """CUDA's wording of a state no generator made ('RNG state is wrong size'), untagged: the same desync."""
    text = _RNG_TB.format(tag="", error="RNG state is wrong size")
    v = _report(tmp_path, text)["verdict"]
    assert (v["cause"], v["culprits"]) == ("desync", []), v


def test_an_invalid_generator_state_loaded_from_a_checkpoint_is_no_desync(tmp_path):
    """The near shape: the same error where the state comes from a checkpoint file (the Trainer's _load_rng_state),
    no RNG broadcast in the traceback: the file's state, not a peer's -- not read as a desync."""
    text = ("[rank3]: Traceback (most recent call last):\n"
            '[rank3]:   File "/opt/env/lib/python3.11/site-packages/transformers/trainer.py", line 2400, in '
            "_inner_training_loop\n"
            "[rank3]:     self._load_rng_state(resume_from_checkpoint)\n"
            '[rank3]:   File "/opt/env/lib/python3.11/site-packages/transformers/trainer.py", line 3001, in '
            "_load_rng_state\n"
            '[rank3]:     torch.random.set_rng_state(checkpoint_rng_state["cpu"])\n'
            "[rank3]: RuntimeError: Invalid mt19937 state\n")
    v = _report(tmp_path, text)["verdict"]
    assert v["cause"] != "desync", v


def test_another_error_inside_the_rng_broadcast_is_not_read_as_a_garbage_state(tmp_path):
    """The near shape: the broadcast's frame with an error that says nothing of the state's contents (an illegal
    memory access while moving it): not this reading."""
    text = _RNG_TB.format(tag="[rank3]: ", error="CUDA error: an illegal memory access was encountered") + _AGENT
    v = _report(tmp_path, text)["verdict"]
    assert v["cause"] != "desync", v


# --- a peer shown completing the all-to-all that a rank times out in ----------------------------------------------
# torch/distributed/_functional_collectives.py: AsyncCollectiveTensor.__repr__ waits for the collective, then prints
# "AsyncCollectiveTensor(" + the tensor's repr
_DONE = ("result: AsyncCollectiveTensor(tensor([[5., 5., 5., 5.],\n"
         "        [7., 7., 7., 7.]], device='cuda:{dev}'))\n")


def test_a_peer_printing_its_all_to_all_result_while_a_rank_times_out_in_the_first_one_is_a_desync(tmp_path):
    """Rules D, H: rank 1 times out in its group's first collective, an ALLTOALL (SeqNum 1), while another process
    prints a functional collective's completed result: that peer got through the all-to-all, so no rank was missing
    (not rule H's rank_missing) -- their split sizes disagree: desync, nobody named, rank 1 not proven a victim."""
    text = _DONE.format(dev=0) + _wd(1, 1, "ALLTOALL", 1800123, 1800000, numel=(48, 40))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("desync", []) and not _accused(d), v
    assert "output_split_sizes" in v["fix"] and "TORCH_DISTRIBUTED_DEBUG=DETAIL" in v["fix"], v


def test_a_first_all_to_all_timeout_with_no_peer_shown_done_stays_a_missing_rank(tmp_path):
    """The near shape: the same timeout with no completed result printed: rule H's rank_missing stands."""
    text = "input: tensor([[1., 1.]], device='cuda:1')\n" + _wd(1, 1, "ALLTOALL", 1800123, 1800000, numel=(48, 40))
    v = _report(tmp_path, text)["verdict"]
    assert v["cause"] == "rank_missing", v


def test_a_result_printed_before_a_later_all_to_all_timeout_is_no_proof_of_a_peer(tmp_path):
    """The near shape: the timeout is in the group's fifth collective, so the printed result may be the timing-out
    rank's own earlier one: not read as a peer done (no desync)."""
    text = _DONE.format(dev=1) + _wd(1, 5, "ALLTOALL", 1800123, 1800000, numel=(48, 40))
    v = _report(tmp_path, text)["verdict"]
    assert v["cause"] != "desync", v


def test_a_peer_result_beside_a_first_allreduce_timeout_is_not_this_reading(tmp_path):
    """The near shape: an all-reduce completes on no rank before every rank contributed, so a printed result beside a
    rank timing out in a first ALLREDUCE says nothing of split sizes: not this all-to-all reading."""
    text = _DONE.format(dev=0) + _wd(1, 1, "ALLREDUCE", 1800123, 1800000, numel=48)
    v = _report(tmp_path, text)["verdict"]
    assert "output_split_sizes" not in v["fix"], v
