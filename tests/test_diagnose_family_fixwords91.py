"""Fix words naming the shape's remedy, shapes round 91 showed read right but with a fix an expert would not give
(rules W, Q, U (2), BJ (1), BJ (2), BG (1), BL (4), T): the verdict stays as it was, the fix names what an expert names
for that shape.

- A bare `assert` line comparing the world size with a number the script hard-codes ("assert world_size == 8 # this
  code is designed for 8xH100", then a bare AssertionError): config, nobody (rules W, Q, U (2); modded-nanogpt-115).
  The fix quotes the condition and says to launch that many processes or to edit the world_size assert and scale the
  gradient accumulation. A trailing '#' comment is no part of the condition (readers.crash._top_condition). A
  world-size assert against a gathered or data value ("len(preds) == world_size") gets no such sentence.
- An untagged TypeError "'NoneType' object is not subscriptable" in the job's code (cosyvoice-1774: a target built
  from a batch field that was None): unknown, nobody (rules BJ (2), BG (1)); the fix names samples missing the field,
  re-running the data preprocessing with the current code, and to run on one GPU to reproduce. An AttributeError of
  None keeps _none_attr_fix's words.
- torch's "The size of tensor a (992) must match the size of tensor b (1024)" with sizes that are NOT a whole multiple
  of each other (vissl-471: a loss's mask built for the full global batch against the incomplete last batch): unknown,
  nobody; the fix names the incomplete last batch, drop_last=True and every rank's traceback. Sizes a whole factor
  apart keep the sharded-tensor sentence (_shard_sized) and get none of these words.
- argparse's "the following arguments are required: --local_rank" under torchrun (gfm-4): config, nobody (rules U (2),
  W, Q); the fix names --use_env (torch < 2.0's spelling) beside --use-env, and a launcher / script argument mismatch.
- "Default process group is not initialized" under a distributed call in a job started without a launcher (moco-v3-15,
  rule BL (4)): config, nobody; the fix says to call init_process_group before training.
- A paste cut inside the frames of a Ray driver's get() that re-raised RayTaskError(ActorDiedError) (rllm-115, rule
  BJ (1)): unknown, culprits unknown; the fix names the dead actor's own log (raylet / worker logs), dmesg for the OOM
  killer and the Ray memory monitor. A cut traceback with no Ray actor's death in it gets none of those words.
"""
from __future__ import annotations

from tests.conftest import verdict_accused as _verdict


# --- a hard-coded world size asserted -------------------------------------------------------------------------------
def test_world_size_assert_on_a_literal_names_that_launch_or_editing_the_assert(tmp_path):
    v, acc = _verdict(tmp_path, "Traceback (most recent call last):\n"
                                '  File "/work/nanogpt/train_gpt.py", line 574, in <module>\n'
                                "    assert world_size == 8 # this code is designed for 8xH100\n"
                                "           ^^^^^^^^^^^^^^^\n"
                                "AssertionError\n")
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "world_size == 8" in v["fix"] and "edit the world_size assert / scale gradient accumulation" in v["fix"], v


def test_world_size_assert_against_a_gathered_value_gets_no_literal_sentence(tmp_path):
    v, acc = _verdict(tmp_path, "Traceback (most recent call last):\n"
                                '  File "/work/eval.py", line 88, in gather_preds\n'
                                "    assert len(all_preds) == world_size # one list per rank\n"
                                "AssertionError\n")
    assert not acc, v
    assert "edit the world_size assert" not in v["fix"], v


# --- indexing None in the job's code ----------------------------------------------------------------------------------
def test_none_not_subscriptable_names_the_data_and_a_one_gpu_reproduction(tmp_path):
    v, acc = _verdict(tmp_path, "Traceback (most recent call last):\n"
                                '  File "/work/tts/llm/llm.py", line 341, in prepare_lm_input_target\n'
                                "    target = torch.tensor(prefix + speech_token[i].tolist())\n"
                                "TypeError: 'NoneType' object is not subscriptable\n")
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "run on one GPU to reproduce" in v["fix"] and "samples missing that field" in v["fix"], v


def test_none_attribute_keeps_its_own_fix(tmp_path):
    v, acc = _verdict(tmp_path, "Traceback (most recent call last):\n"
                                '  File "/work/train.py", line 41, in setup\n'
                                "    params = self.model.parameters()\n"
                                "AttributeError: 'NoneType' object has no attribute 'parameters'\n")
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "run on one GPU to reproduce" not in v["fix"] and "reads .parameters off" in v["fix"], v


# --- a size mismatch of a full batch against a short one ------------------------------------------------------------
def test_size_mismatch_not_a_whole_factor_names_the_incomplete_last_batch(tmp_path):
    v, acc = _verdict(tmp_path, '  File "/opt/conda/lib/python3.8/site-packages/vissl/losses/info_nce.py", line 144, '
                                "in forward\n"
                                "    pos = torch.sum(similarity * self.pos_mask, 1)\n"
                                "RuntimeError: The size of tensor a (992) must match the size of tensor b (1024) at "
                                "non-singleton dimension 1\n")
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    fix = v["fix"]
    assert "incomplete last batch" in fix and "drop_last=True" in fix and "every rank's traceback" in fix, v


def test_size_mismatch_a_whole_factor_keeps_the_shard_sentence(tmp_path):
    v, acc = _verdict(tmp_path, '  File "/work/model.py", line 90, in forward\n'
                                "    x = x + self.cache\n"
                                "RuntimeError: The size of tensor a (5070) must match the size of tensor b (20280) at "
                                "non-singleton dimension 1\n")
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "whole factor" in v["fix"] and "incomplete last batch" not in v["fix"], v


# --- --local_rank required under torchrun ----------------------------------------------------------------------------
def test_local_rank_required_names_use_env_and_the_argument_mismatch(tmp_path):
    v, acc = _verdict(tmp_path, "WARNING:torch.distributed.run:\n"
                                "usage: pretrain.py --cfg FILE [--batch-size BATCH_SIZE] --local_rank LOCAL_RANK\n"
                                "pretrain.py: error: the following arguments are required: --local_rank\n"
                                "usage: pretrain.py --cfg FILE [--batch-size BATCH_SIZE] --local_rank LOCAL_RANK\n"
                                "pretrain.py: error: the following arguments are required: --local_rank\n")
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "--use_env" in v["fix"] and "launcher / script argument mismatch" in v["fix"], v


# --- a distributed call with no process group -------------------------------------------------------------------------
def test_default_group_not_initialized_says_init_before_training(tmp_path):
    v, acc = _verdict(tmp_path, "AssertionError: Default process group is not initialized\n"
                                '  File "/work/moco/builder.py", line 68, in contrastive_loss\n'
                                "    k = concat_all_gather(k)\n"
                                '  File "/work/moco/builder.py", line 178, in concat_all_gather\n'
                                "    for _ in range(torch.distributed.get_world_size())]\n")
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "call init_process_group before training" in v["fix"], v


# --- a Ray actor's death re-raised by the driver, the paste cut ------------------------------------------------------
_RAY = "/envs/rl/lib/python3.10/site-packages/ray/_private/worker.py"


def test_cut_traceback_of_an_actor_death_names_its_log_and_the_oom_killer(tmp_path):
    v, acc = _verdict(tmp_path, "Traceback (most recent call last):\n"
                                '  File "/work/verl/trainer/main_ppo.py", line 114, in main\n'
                                "    ray.get(main_task.remote(config))\n"
                                f'  File "{_RAY}", line 919, in get_objects\n'
                                "    raise value.as_instanceof_cause()\n"
                                "ray.exceptions.RayTaskError(ActorDiedError): ray::main_task() (pid=7890, "
                                "ip=10.0.0.5)\n"
                                '  File "/work/verl/trainer/main_ppo.py", line 199, in main_task\n'
                                "    trainer.fit()\n"
                                '  File "/work/verl/trainer/ppo/ray_trainer.py", line 610, in fit\n'
                                "    batch = self.actor_rollout_wg.genera\n")
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    fix = v["fix"]
    assert "the dead actor's own log (raylet / worker logs" in fix and "dmesg for the OOM killer" in fix, v
    assert "Ray memory monitor" in fix, v


def test_cut_traceback_without_a_ray_death_gets_no_actor_words(tmp_path):
    v, acc = _verdict(tmp_path, "Traceback (most recent call last):\n"
                                '  File "/work/train.py", line 114, in main\n'
                                "    trainer.fit()\n"
                                '  File "/work/trainer.py", line 610, in fit\n'
                                "    batch = self.build_batch(step)\n")
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "dead actor" not in v["fix"] and "Ray memory monitor" not in v["fix"], v
