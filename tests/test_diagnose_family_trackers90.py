"""Experiment trackers (wandb, tensorboard loggers) and the processes around them, read by their shape (rules A, I,
W, V (1), Q, K, T, BF (3), BG (4), BG (6), BH (1), BJ (2), BM (1), BO (4), BS (2), BU (2)).

- wandb's own check "wandb: ERROR api_key not configured (no-tty)" above mp.spawn's record of the process that reached
  wandb.init, its traceback cut in wandb_init.py: a setting of the environment every worker is launched with -- config,
  culprits [] (rules W, BF (3); round 90's zoedepth-112, was unknown [0]). Another ERROR line of wandb's keeps the
  reading of the lines around it.
- wandb's interactive login menu ending in "wandb: Enter your choice:" printed by two or more processes of one job:
  every rank blocked on the one terminal they share -- config, culprits [] (rules BU (2), V (1); sftvsrl-1, was
  none). One process's prompt alone stays none (rules K, T).
- A launcher's per-process record prefix after its clock ("2023-02-17 22:40:24,365 (worker_7) : ...") names rank N:
  that rank's unread error line (wandb's "Error communicating with wandb process") and its traceback cut below it,
  with nothing else failing, name it -- unknown, [7] (rules A, I, BG (4), BJ (2); bigcode-megatron-27, was nobody),
  the fix naming the tracker's remedies. An untagged error line with a cut traceback names nobody as before.
- A ^C traceback of mp.spawn's join with a child's "Process SpawnProcess-1:" header printed after it: the interrupt
  reaching the child, not a failure first -- signal, culprits [] (rule BS (2); fairseq-4619, was unknown). A child's
  header before the ^C is still a failure first.
- Lightning's "DeadlockDetectedException: DeadLock detected from rank: 0" names the process whose untagged traceback
  follows: a DataLoader worker's SIGABRT in it is rank 0's (rules A, I, BO (4); aim-2540, was nobody). Without the
  guard's line the worker's rank stays unnamed.
- mp.spawn's "-- Process 1 terminated" with its traceback cut in an installed framework's evaluation pass
  (Lightning's run_evaluation): under DDP every rank runs it through the wrapped model -- rule BM (1)'s unknown,
  culprits "unknown" (test-tube-67, was [1]). Process 0 of a world not shown to hold another, and a cut in the job's
  own evaluate(), keep the child named.
"""
from __future__ import annotations

from tests.conftest import verdict_accused as _verdict


# --- wandb's own no-key check above a spawn child's traceback ----------------------------------------------------
def _spawned(first: str) -> str:
    return (f"{first}\n"
            "Traceback (most recent call last):\n"
            '  File "/w/train.py", line 169, in <module>\n'
            "    mp.spawn(main_worker, nprocs=ngpus_per_node, args=(cfg,))\n"
            '  File "/usr/lib/python3.10/site-packages/torch/multiprocessing/spawn.py", line 160, in join\n'
            "    raise ProcessRaisedException(msg, error_index, failed_process.pid)\n"
            "torch.multiprocessing.spawn.ProcessRaisedException: \n"
            "\n"
            "-- Process 0 terminated with the following error:\n"
            "Traceback (most recent call last):\n"
            '  File "/usr/lib/python3.10/site-packages/torch/multiprocessing/spawn.py", line 69, in _wrap\n'
            "    fn(i, *args)\n"
            '  File "/w/trainer.py", line 155, in train\n'
            "    wandb.init(project=self.config.project, dir=self.config.root,\n"
            '  File "/usr/lib/python3.10/site-packages/wandb/sdk/wandb_init.py", line 1105, in ini\n')


def test_wandb_no_key_check_above_a_spawn_child_is_config(tmp_path):
    v, acc = _verdict(tmp_path, _spawned("wandb: ERROR api_key not configured (no-tty). call "
                                         "wandb.login(key=[your_api_key])"))
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "WANDB_API_KEY" in v["fix"] and "WANDB_MODE=offline" in v["fix"], v["fix"]


def test_another_wandb_error_above_a_spawn_child_keeps_the_child(tmp_path):
    v, acc = _verdict(tmp_path, _spawned("wandb: ERROR Run initialization has timed out after 90.0 sec."))
    assert v["cause"] != "config" and v["culprits"] == [0], v


# --- wandb's login menu on several processes --------------------------------------------------------------------------
_MENU = ("wandb: (1) Create a W&B account\n"
         "wandb: (2) Use an existing W&B account\n"
         "wandb: (3) Don't visualize my results\n")


def test_the_login_menu_printed_by_several_ranks_is_config(tmp_path):
    text = "".join(_MENU + f"wandb: Enter your choice: [2025-02-01 17:26:01,{9 + i}14] [INFO] [comm.py:652:"
                   "init_distributed] cdb=None\n" for i in range(3))
    v, acc = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "WANDB_API_KEY" in v["fix"] and "rank 0 only" in v["fix"], v["fix"]


def test_one_process_login_menu_stays_none(tmp_path):
    text = ("[2025-02-01 17:26:01,857] [INFO] [comm.py:652:init_distributed] cdb=None\n" + _MENU
            + "wandb: Enter your choice: \n")
    v, _ = _verdict(tmp_path, text)
    assert v["cause"] == "none", v


# --- a launcher's "(worker_N) :" record prefix: one worker's own error and cut traceback ----------------------------
def _worker_log(tag: str) -> str:
    def line(t: str, body: str) -> str:
        return f"2023-02-17 22:40:24,{t} {tag}{body}\n"
    return ("2023-02-17 22:39:17,767 (worker_0) : training ...\n"
            + line("365", "wandb: ERROR Error communicating with wandb process")
            + "wandb: ERROR For more info see: https://docs.wandb.ai/library/init#init-start-error\n\n"
            + line("367", "Traceback (most recent call last):")
            + line("367", '  File "/app/run.py", line 34, in run')
            + line("367", "    runnable.run()")
            + line("368", '  File "/app/models/megatron_gpt.py", line 65, in train')
            + line("368", "    pretrain(train_valid_test_datasets_provider, model_provider,")
            + line("368", '  File "/app/megatron/training.py", line'))


def test_one_workers_error_and_cut_traceback_name_that_worker(tmp_path):
    v, acc = _verdict(tmp_path, _worker_log("(worker_7) : "))
    assert (v["cause"], v["culprits"]) == ("unknown", [7]), v
    assert "WANDB_MODE=disabled" in v["fix"], v["fix"]


def test_an_untagged_error_and_cut_traceback_name_nobody(tmp_path):
    v, acc = _verdict(tmp_path, _worker_log(""))
    assert v["cause"] == "unknown" and v["culprits"] == [] and not acc, v


# --- a ^C of spawn's join, a child's header after it ---------------------------------------------------------------
def _ctrl_c(child_first: bool) -> str:
    child = "Process SpawnProcess-1:\n"
    return ("2022-07-29 22:52:33 | INFO | fairseq_cli.train | done training in 162.1 seconds\n"
            + (child if child_first else "")
            + "^CTraceback (most recent call last):\n"
            '  File "/f/fairseq_cli/train.py", line 563, in cli_main\n'
            "    distributed_utils.call_main(cfg, main)\n"
            + ("" if child_first else child)
            + '  File "/f/fairseq/distributed/utils.py", line 351, in call_main\n'
            "    join=True,\n"
            '  File "/env/lib/python3.7/site-packages/torch/multiprocessing/spawn.py", line 77, in join\n')


def test_a_child_header_after_the_ctrl_c_is_the_interrupt(tmp_path):
    v, acc = _verdict(tmp_path, _ctrl_c(child_first=False))
    assert (v["cause"], v["culprits"]) == ("signal", []) and not acc, v


def test_a_child_header_before_the_ctrl_c_is_no_stop_from_outside(tmp_path):
    v, _ = _verdict(tmp_path, _ctrl_c(child_first=True))
    assert v["cause"] != "signal", v


# --- Lightning's deadlock guard naming the rank of the traceback under it --------------------------------------------
def _deadlock(head: str) -> str:
    return (f"{head}"
            " Traceback (most recent call last):\n"
            '  File "/v/site-packages/torch/utils/data/dataloader.py", line 1120, in _try_get_data\n'
            "    data = self._data_queue.get(timeout=timeout)\n"
            '  File "/v/site-packages/torch/utils/data/_utils/signal_handling.py", line 66, in handler\n'
            "    _error_if_any_worker_fails()\n"
            "RuntimeError: DataLoader worker (pid 353773) is killed by signal: Aborted. \n")


def test_the_deadlock_guard_names_the_rank_whose_loader_worker_aborted(tmp_path):
    v, acc = _verdict(tmp_path, _deadlock("DeadlockDetectedException: DeadLock detected from rank: 0 \n"))
    assert (v["cause"], v["culprits"]) == ("unknown", [0]), v


def test_a_loader_worker_abort_alone_names_nobody(tmp_path):
    v, acc = _verdict(tmp_path, _deadlock(""))
    assert v["culprits"] == [] and not acc, v


# --- spawn's child cut in an installed framework's evaluation pass -------------------------------------------------
def _eval_cut(n: int, path: str) -> str:
    return (f"-- Process {n} terminated with the following error:\n"
            "Traceback (most recent call last):\n"
            '  File "/env/lib/python3.7/site-packages/torch/multiprocessing/spawn.py", line 19, in _wrap\n'
            "    fn(i, *args)\n"
            '  File "/env/lib/python3.7/site-packages/pytorch_lightning/trainer/train_loop_mixin.py", line 114, in '
            "run_training_epoch\n"
            "    self.run_evaluation(test=self.testing)\n"
            f'  File "{path}", line 130, in run_evaluation\n'
            "    test)\n"
            '  File "/env/lib/python3.7/site-packages/pytor\n')


def test_process_1_cut_in_the_frameworks_evaluation_pass_names_nobody(tmp_path):
    v, acc = _verdict(tmp_path, _eval_cut(1, "/env/lib/python3.7/site-packages/pytorch_lightning/trainer/"
                                             "evaluation_loop_mixin.py"))
    assert (v["cause"], v["culprits"], v["confidence"]) == ("unknown", [], "low") and not acc, v
    assert "uneven validation batches" in v["fix"], v["fix"]


def test_process_1_cut_in_the_jobs_own_evaluation_stays_named(tmp_path):
    v, _ = _verdict(tmp_path, _eval_cut(1, "/home/u/project/eval_utils.py"))
    assert v["culprits"] == [1], v


def test_process_0_cut_in_the_evaluation_pass_stays_named(tmp_path):
    v, _ = _verdict(tmp_path, _eval_cut(0, "/env/lib/python3.7/site-packages/pytorch_lightning/trainer/"
                                           "evaluation_loop_mixin.py"))
    assert v["culprits"] == [0], v
