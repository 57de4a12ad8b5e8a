"""Review 104 (1) finding 2: DeepSpeed's runner's "Detected CUDA_VISIBLE_DEVICES=<ids> but ignoring it" (round 104's
accelerate-663, read as config by verdict.world._rank_args) is read so only where the setting had an effect: the ids
differ from the GPUs the launcher used (its --world_info / WORLD INFO DICT), or, with no such list shown, are not
0..N-1 (the runner's own --num_gpus N choice is the same GPUs) -- and never where training steps are shown after it
(the workers trained: their placement did not fail). accelerate passes --num_gpus on every DeepSpeed launch, so the
warning with CUDA_VISIBLE_DEVICES=0,1 is chatter; what fails after it is read on its own (a traceback cut before its
error: unknown, as the base read it)."""
from __future__ import annotations

import base64
import json

from tests.conftest import verdict_accused

_WARN = ("[2024-05-01 10:00:00,001] [WARNING] [runner.py:212:main] Detected CUDA_VISIBLE_DEVICES={ids} but ignoring it "
         "because one or several of --include/--exclude/--num_gpus/--num_nodes cl args were used. If you want to use "
         "CUDA_VISIBLE_DEVICES don't pass any of these arguments to deepspeed.\n")
_CUT = ("Traceback (most recent call last):\n"
        "  File \"/workspace/train.py\", line 88, in <module>\n"
        "    loss = model(batch)\n")
_STEPS = ("[2024-05-01 10:00:20,000] [INFO] [logging.py:96:log_dist] [Rank 0] step=10, skipped=0, lr=[1e-05], "
          "mom=[(0.9, 0.999)]\n"
          "[2024-05-01 10:00:30,000] [INFO] [logging.py:96:log_dist] [Rank 0] step=20, skipped=0, lr=[1e-05], "
          "mom=[(0.9, 0.999)]\n")
_CVD_SAID = "ignores CUDA_VISIBLE_DEVICES"


def _cmd(gpus: list[int], host: str = "localhost") -> str:
    b64 = base64.urlsafe_b64encode(json.dumps({host: gpus}).encode()).decode()
    return (f"[2024-05-01 10:00:01,000] [INFO] [runner.py:568:main] cmd = /usr/bin/python -u -m "
            f"deepspeed.launcher.launch --world_info={b64} --master_addr=127.0.0.1 --master_port=29500 "
            "--enable_each_rank_log=None train.py\n")


def _dict(gpus: list[int], host: str = "localhost") -> str:
    return f"[2024-05-01 10:00:03,000] [INFO] [launch.py:146:main] WORLD INFO DICT: {{'{host}': {gpus}}}\n"


def _is_cut_unknown(v: dict, acc: set[int]) -> bool:
    return (v["cause"], v["culprits"], acc) == ("unknown", [], set()) and _CVD_SAID not in v["summary"] and (
        "stops inside a process's traceback" in v["summary"])


# --- the reviewer's input: the same GPUs used, training steps shown, a traceback cut before its error -------------
def test_ignored_ids_the_launcher_used_with_steps_after_read_the_cut_traceback(tmp_path):
    for ids, gpus in (("0,1", [0, 1]), ("0,1,2,3", [0, 1, 2, 3])):
        text = (_WARN.format(ids=ids) + _cmd(gpus) + _dict(gpus)
                + "[2024-05-01 10:00:03,001] [INFO] [launch.py:152:main] nnodes=1, num_local_procs=2, node_rank=0\n"
                + _STEPS + _CUT)
        v, acc = verdict_accused(tmp_path, text)
        assert _is_cut_unknown(v, acc), v


def test_ignored_ids_the_launcher_used_no_steps_read_the_cut_traceback(tmp_path):
    # the launcher's list shown (its command line alone, its WORLD INFO DICT alone) and equal to the ids given
    for ids, gpus, shown in (("0,1", [0, 1], _cmd), ("0,1", [0, 1], _dict), ("2,3", [2, 3], _cmd),
                             ("4,5,6,7", [4, 5, 6, 7], _dict)):
        v, acc = verdict_accused(tmp_path, _WARN.format(ids=ids) + shown(gpus) + _CUT)
        assert _is_cut_unknown(v, acc), (ids, v)


def test_ignored_ids_zero_to_n_no_list_shown_read_the_cut_traceback(tmp_path):
    for ids in ("0", "0,1", "0,1,2,3,4,5,6,7"):
        v, acc = verdict_accused(tmp_path, _WARN.format(ids=ids) + _CUT)
        assert _is_cut_unknown(v, acc), (ids, v)


def test_ignored_ids_zero_to_n_alone_is_not_config(tmp_path):
    v, acc = verdict_accused(tmp_path, _WARN.format(ids="0,1"))
    assert v["cause"] != "config" and not acc and _CVD_SAID not in v["summary"], v


def test_other_gpus_ignored_but_training_steps_after_is_not_config(tmp_path):
    # the GPUs differ from those given, yet the workers trained: their placement did not fail the job
    for steps in (_STEPS, "{'loss': 1.2345, 'learning_rate': 1e-05, 'epoch': 0.1}\n",
                  "iteration 30/ 1000 | lm loss: 2.104E+00 | grad norm: 1.2\n"):
        v, acc = verdict_accused(tmp_path, _WARN.format(ids="2,4,5,7") + _dict([0, 1, 2, 3]) + steps + _CUT)
        assert _is_cut_unknown(v, acc), (steps, v)


# --- the shape round 104's fix was for: still config --------------------------------------------------------------
def test_accelerate_663_ids_not_zero_to_n_alone_stay_config(tmp_path):
    for ids in ("2,4,5,7", "1,0", "1", "GPU-5f2c1a3e"):
        v, acc = verdict_accused(tmp_path, _WARN.format(ids=ids))
        assert (v["cause"], v["culprits"], acc) == ("config", [], set()), (ids, v)
        assert _CVD_SAID in v["summary"] and f"--include localhost:{ids}" in v["fix"], v


def test_ids_other_than_the_launchers_gpus_stay_config(tmp_path):
    # CUDA_VISIBLE_DEVICES=0,1 with --num_gpus 4: the runner used 0..3, not the two GPUs given
    for ids, gpus, shown in (("0,1", [0, 1, 2, 3], _cmd), ("0,1", [0, 1, 2, 3], _dict), ("2,3", [0, 1], _dict),
                             ("2,4,5,7", [0, 1, 2, 3], _cmd)):
        v, acc = verdict_accused(tmp_path, _WARN.format(ids=ids) + shown(gpus))
        assert (v["cause"], v["culprits"], acc) == ("config", [], set()), (ids, gpus, v)
        assert _CVD_SAID in v["summary"], v
