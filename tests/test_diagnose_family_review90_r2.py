"""Review r2 of round 90's diagnose code: readings that were too broad, or fix words that were wrong, narrowed to the
shape an expert reads that way (rules AL (2), A, BF, BM (1), T, BG (4), J).

- A framework's evaluation loop frame (an installed package's evaluation_loop / run_evaluation) was read as DDP's
  evaluation pass on its function's name alone, so a spawn child cut in its metrics (compute_metrics) lost its
  culprit. Now the loop's code line must call the model or an evaluation step, or be a call's continuation line
  ("test)", test-tube-67), in a job shown to run several processes (a DDP frame, or process N >= 1 as for DDP's
  forward); a loop cut in its metrics, a save or a log runs no collective: process N failed on its own (rule AL (2)).
- A refused rename under any function holding "save" (save_results, autosave, unsaved_*) got the HF Trainer's
  tmp-checkpoint rename race as its fix, in a single process too. Now a save function is one whose name's first word
  is "save"; the race needs several processes in the lines (a rank tag, two processes' errors, a launcher's record)
  or the Trainer's own save (its _save_checkpoint frame in transformers/trainer.py, a tmp-checkpoint-* path), and
  the Trainer's details are said only then. One process alone: the rename source is missing (its temporary file was
  not written), or a stale target is in the way. A pandas frame's rename(columns=...) is no file rename.
- The save frame stuck across tracebacks: a save function's frame in one stack was charged with an unrelated
  traceback's rename within 12 lines. It now is reset at every traceback header and once its exception is read.
- Fix words: a simple_launcher child's SIGKILL is "most often" the OOM killer (also a scheduler's or a user's kill),
  with no notebook (Colab) advice; the zip writer segfault's fix names Megatron / NeMo only where the lines do.
"""
from __future__ import annotations

from ncclDoctor.diagnose import signatures as S
from tests.conftest import verdict_accused as _verdict

_SP = "/opt/conda/lib/python3.10/site-packages"
_TRAINER = f"{_SP}/transformers/trainer.py"


# --- 4. an evaluation loop's frame: DDP's evaluation pass only where its code line runs the model --------------------
def _spawn_eval(code: str) -> str:
    return ("-- Process 1 terminated with the following error:\n"
            "Traceback (most recent call last):\n"
            f'  File "{_SP}/torch/multiprocessing/spawn.py", line 69, in _wrap\n'
            "    fn(i, *args)\n"
            '  File "/home/u/train.py", line 80, in worker\n'
            "    trainer.evaluate()\n"
            f'  File "{_TRAINER}", line 3011, in evaluate\n'
            "    output = eval_loop(\n"
            f'  File "{_TRAINER}", line 3280, in evaluation_loop\n'
            f"    {code}\n")


def test_eval_loop_cut_in_its_metrics_keeps_the_spawn_childs_culprit(tmp_path):
    v, acc = _verdict(tmp_path, _spawn_eval(
        "metrics = self.compute_metrics(EvalPrediction(predictions=all_preds, label_ids=all_labels))"))
    assert (v["cause"], v["culprits"]) == ("unknown", [1]) and acc == {1}, v
    assert "evaluation pass" not in str(v), v


def test_eval_loop_cut_at_its_prediction_step_is_still_the_evaluation_pass(tmp_path):
    v, acc = _verdict(tmp_path, _spawn_eval(
        "losses, logits, labels = self.prediction_step(model, inputs, prediction_loss_only, ignore_keys=ignore_keys)"))
    assert v["culprits"] == [] and not acc, v


_LIGHTNING = "/envs/ln1/lib/python3.7/site-packages/pytorch_lightning/trainer"


def test_lightning_run_evaluation_cut_on_a_continuation_line_stays_the_evaluation_pass(tmp_path):
    # test-tube-67's shape: ddp_train above, run_evaluation's call continued on "test)", the next frame cut
    v, acc = _verdict(tmp_path, "-- Process 1 terminated with the following error:\n"
                                "Traceback (most recent call last):\n"
                                '  File "/envs/ln1/lib/python3.7/site-packages/torch/multiprocessing/spawn.py", '
                                "line 19, in _wrap\n"
                                "    fn(i, *args)\n"
                                f'  File "{_LIGHTNING}/ddp_mixin.py", line 181, in ddp_train\n'
                                "    self.run_pretrain_routine(model)\n"
                                f'  File "{_LIGHTNING}/trainer.py", line 471, in run_pretrain_routine\n'
                                "    self.train()\n"
                                f'  File "{_LIGHTNING}/train_loop_mixin.py", line 60, in train\n'
                                "    self.run_training_epoch()\n"
                                f'  File "{_LIGHTNING}/train_loop_mixin.py", line 114, in run_training_epoch\n'
                                "    self.run_evaluation(test=self.testing)\n"
                                f'  File "{_LIGHTNING}/evaluation_loop_mixin.py", line 130, in run_evaluation\n'
                                "    test)\n"
                                '  File "/envs/ln1/lib/python3.7/site-packages/pytor\n')
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v


# --- 5. a save's refused rename: the race only with several processes or the Trainer's own save -------------------
def test_one_process_own_save_helper_rename_source_missing_is_not_the_race(tmp_path):
    v, acc = _verdict(tmp_path, "Traceback (most recent call last):\n"
                                '  File "/home/u/train.py", line 200, in <module>\n'
                                '    save_results(metrics, "results/final.json")\n'
                                '  File "/home/u/utils.py", line 41, in save_results\n'
                                "    os.rename(tmp_path, path)\n"
                                "FileNotFoundError: [Errno 2] No such file or directory: 'results/final.json.tmp' -> "
                                "'results/final.json'\n")
    assert v["cause"] == "unknown" and not acc, v
    fix = v["fix"]
    assert "rename source is missing" in fix and "was not written" in fix, v
    assert "rename race" not in fix and "HF Trainer" not in fix and "tmp-checkpoint" not in fix, v


def test_one_process_save_rename_onto_a_stale_target_says_so(tmp_path):
    v, _ = _verdict(tmp_path, "Traceback (most recent call last):\n"
                              '  File "/home/u/train.py", line 90, in save_checkpoint\n'
                              "    os.rename(tmp_dir, ckpt_dir)\n"
                              "OSError: [Errno 39] Directory not empty: 'ckpt/tmp' -> 'ckpt/step-100'\n")
    assert "target is already there" in v["fix"] and "rename race" not in v["fix"], v


def test_rank_tagged_own_save_rename_gets_the_race_without_the_trainer(tmp_path):
    v, acc = _verdict(tmp_path, "[rank2]: Traceback (most recent call last):\n"
                                '[rank2]:   File "/home/u/train.py", line 90, in save_checkpoint\n'
                                "[rank2]:     os.rename(tmp_path, path)\n"
                                "[rank2]: FileNotFoundError: [Errno 2] No such file or directory: 'ck/last.pt.tmp' -> "
                                "'ck/last.pt'\n")
    assert (v["cause"], v["culprits"]) == ("unknown", [2]) and acc == {2}, v
    assert "rename race" in v["fix"] and "rename on the main process only" in v["fix"].lower(), v
    assert "HF Trainer" not in v["fix"], v


def test_trainers_own_save_checkpoint_keeps_the_tmp_checkpoint_race(tmp_path):
    # minicpm-v-144's shape, untagged: the Trainer's own frame says what renames there
    v, acc = _verdict(tmp_path, f'  File "{_TRAINER}", line 2383, in _save_checkpoint\n'
                                "    os.rename(staging_output_dir, output_dir)\n"
                                "FileNotFoundError: [Errno 2] No such file or directory: '/work/output/tmp-checkpoint-"
                                "300'\n")
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "tmp-checkpoint rename race" in v["fix"] and "transformers version" in v["fix"], v


# --- 6. the save frame belongs to its own traceback ------------------------------------------------------------------
def test_a_save_frame_of_another_stack_is_not_charged_with_a_later_rename(tmp_path):
    v, _ = _verdict(tmp_path, "[rank0]:[W] checkpoint slow, stack:\n"
                              '  File "/home/u/train.py", line 90, in save_checkpoint\n'
                              "    torch.save(state, path)\n"
                              "Traceback (most recent call last):\n"
                              '  File "/home/u/data.py", line 12, in <module>\n'
                              "    build_cache()\n"
                              '  File "/home/u/data.py", line 8, in build_cache\n'
                              "    os.rename(tmp, final)\n"
                              "FileNotFoundError: [Errno 2] No such file or directory: 'cache.tmp' -> 'cache.bin'\n")
    assert "save_checkpoint" not in v["fix"] and "rename race" not in v["fix"], v
    assert "rename source is missing" not in v["fix"], v  # build_cache is no save function


# --- 14. word matches: a save function's name, a file rename's call --------------------------------------------------
def test_a_function_merely_holding_save_is_no_save_function(tmp_path):
    v, _ = _verdict(tmp_path, "[rank1]: Traceback (most recent call last):\n"
                              '[rank1]:   File "/home/u/train.py", line 40, in autosave_state\n'
                              "[rank1]:     os.rename(tmp, final)\n"
                              "[rank1]: FileNotFoundError: [Errno 2] No such file or directory: 's.tmp' -> 's.bin'\n")
    assert v["culprits"] == [1] and "rename race" not in v["fix"] and "The save (" not in v["fix"], v
    for name in ("autosave", "unsaved_params", "saved_tensors_hooks"):
        assert not S.R_SAVE_FUNC.match(name), name
    for name in ("save", "save_checkpoint", "_save_checkpoint", "save_results"):
        assert S.R_SAVE_FUNC.match(name), name


def test_a_pandas_rename_is_no_file_rename():
    assert not S.R_RENAME_CALL.search("df = df.rename(columns={'a': 'b'})")
    assert not S.R_RENAME_CALL.search("df.rename({'a': 'b'}, axis=1)")
    for code in ("os.rename(tmp, final)", "os.replace(tmp, final)", "shutil.move(a, b)", "rename(old, new)",
                 "tmp_path.rename(final_path)", "os.renames(output_dir, checkpoint_dir)"):
        assert S.R_RENAME_CALL.search(code), code


# --- 12. fix words: one case's details are not said as general -------------------------------------------------------
def test_simple_launcher_sigkill_words_say_most_often_and_no_notebook(tmp_path):
    v, _ = _verdict(tmp_path, "Traceback (most recent call last):\n"
                              '  File "/usr/local/bin/accelerate", line 8, in <module>\n'
                              "    sys.exit(main())\n"
                              '  File "/usr/local/lib/python3.8/dist-packages/accelerate/commands/launch.py", line '
                              "1104, in launch_command\n"
                              "    simple_launcher(args)\n"
                              '  File "/usr/local/lib/python3.8/dist-packages/accelerate/commands/launch.py", line '
                              "567, in simple_launcher\n"
                              "    raise subprocess.CalledProcessError(returncode=process.returncode, cmd=cmd)\n"
                              "subprocess.CalledProcessError: Command '['/usr/bin/python3', 'train_network.py', "
                              "'--output_name=test', '--pretrained_model_name_or_path=/content/model.ckpt'")
    fix = v["fix"]
    assert "most often the kernel's OOM killer" in fix and "scheduler" in fix and "kill -9" in fix, v
    assert "notebook" not in fix and "high-RAM runtime" not in fix, v


_ZIP = ("93: !!!!!!! Segfault encountered !!!!!!!\n"
        '93:   File "<unknown>", line 0, in crc32_16bytes(void const*, unsigned long, unsigned int)\n'
        '93:   File "<unknown>", line 0, in mz_crc32\n'
        '93:   File "<unknown>", line 0, in mz_zip_writer_add_mem_ex_v2\n'
        '93:   File "<unknown>", line 0, in caffe2::serialize::PyTorchStreamWriter::writeRecord(std::string const&, '
        "void const*, unsigned long, bool)\n")


def test_zip_writer_segfault_names_no_library_the_lines_do_not(tmp_path):
    v, _ = _verdict(tmp_path, _ZIP)
    assert "zip writer segfault" in v["fix"] and "upgrade torch" in v["fix"], v
    assert "Megatron" not in v["fix"] and "NeMo" not in v["fix"], v


def test_zip_writer_segfault_under_a_nemo_line_names_its_dist_checkpointing(tmp_path):
    v, _ = _verdict(tmp_path, "[c608-061:2760180:0:2760180] Caught signal 11 (Segmentation fault: address not mapped "
                              "to object at address 0x400581d86000)\n"
                              "[NeMo I 2025-10-08 23:27:54 nemo_logging:393] Scheduled async checkpoint save for "
                              "/x/nemo_experiments/default/checkpoints/step=936-last.ckpt\n"
                              "==== backtrace (tid:2760180) ====\n"
                              " 0  /opt/hpcx/ucx/lib/libucs.so.0(ucs_handle_error+0x2cc) [0x4000f1ce278c]\n"
                              " 1  /usr/local/lib/python3.12/dist-packages/torch/lib/libtorch_cpu.so(+0x452b904) "
                              "[0x40003edab904]\n"
                              " 2  /usr/local/lib/python3.12/dist-packages/torch/lib/libtorch_cpu.so("
                              "mz_zip_writer_add_mem_ex_v2+0x3c8) [0x40003ed9e308]\n")
    assert "zip writer segfault" in v["fix"] and "Megatron / NeMo dist checkpointing" in v["fix"], v
