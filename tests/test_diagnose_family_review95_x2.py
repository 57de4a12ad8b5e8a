"""Review x2 of session 37's diagnose code (rounds 94-95): readings that held for wider shapes than an expert reads so.

- R_NO_MULTI_GPU (2, 9) read any "does not support distributed training" as "this trainer has no distributed mode",
  high, remedy one GPU -- one feature's refusal too ("The streaming loader does not support distributed training;
  pass --no-streaming"). Now the refused subject is the run itself (the message's start, or a trainer / engine /
  model / script); a refusal naming its own option is rule W's settings conflict, medium, remedy that option. Its
  fix text no longer gives FastDP's n_gpu / DeepSpeed variant unless the paste shows transformers / FastDP.
- R_TRAIN_ENTRY_SCRIPT (4) matched "train" / "pretrain" inside any name (download_pretrained.py, constrain.py): a
  pipeline's helper step read as the job's one process, rank 0. Now the keyword is a whole word of the file name.
- R_STEP_FRAME (5) counted any "def step" (a diffusion scheduler's, a gym env's, an LR scheduler's) as a training
  step, which turned the OOM fix to "your own cache in the middle of a training step". Now a bare "step" frame counts
  only in an optimizer's / trainer's / training framework's file (no scheduler's).
- DDP_TRAIN (7): a cut at Lightning's "self.advance" was summarised as "the training step", but advance begins with
  its batch fetch. Now it says "the training loop's advance (its batch fetch or the training step)"; the explicit
  step calls (automatic_optimization.run, _run_training_batch, _optimizer_step) still read the training step.
"""
from __future__ import annotations

from tests.conftest import LIGHTNING_SPAWN_CUT
from tests.conftest import verdict_accused as _verdict


def _raise(msg: str) -> str:
    return ("Traceback (most recent call last):\n"
            '  File "train.py", line 90, in <module>\n    main()\n'
            '  File "train.py", line 40, in build_trainer\n'
            f'    raise ValueError("{msg}")\n'
            f"ValueError: {msg}\n")


# --- 2, 9. a feature's refusal of distributed running is rule W with its own option; the whole run's stays ----------
def test_a_features_refusal_with_its_own_option_is_a_settings_conflict_not_one_gpu(tmp_path):
    v, acc = _verdict(tmp_path, _raise("The streaming IterableDataset loader does not support distributed training; "
                                       "pass --no-streaming to shard the dataset"))
    assert v["cause"] == "config" and v["confidence"] != "high" and not acc, v
    assert "--no-streaming" in v["fix"] and "single GPU" not in v["fix"], v["fix"]
    assert "no distributed mode" not in v["summary"], v


def test_a_feature_with_distributed_training_is_not_read_as_no_distributed_mode(tmp_path):
    v, acc = _verdict(tmp_path, _raise("Gradient checkpointing with distributed training is not supported"))
    assert "no distributed mode" not in v["summary"] and not acc, v


def test_the_whole_runs_refusal_still_reads_no_distributed_mode_without_fastdp_details(tmp_path):
    from ncclDoctor.diagnose import signatures as S
    assert S.R_NO_MULTI_GPU.search("ValueError: MyTrainer does not support multi-GPU training")
    assert not S.R_NO_MULTI_GPU.search("ValueError: The streaming loader does not support distributed training")
    for msg in ("Multi-gpu and distributed training is currently not supported.",):
        v, acc = _verdict(tmp_path, _raise(msg))
        assert v["cause"] == "config" and v["confidence"] == "high" and not acc, (msg, v)
        assert "no distributed mode" in v["summary"] and "single GPU" in v["fix"], (msg, v)
        assert "n_gpu" not in v["fix"] and "deepspeed_config" not in v["fix"], (msg, v["fix"])


# --- 4. a helper step's file name holding "pretrained" is no training entry ----------------------------------------
_CPE = ('    subprocess.run(["python", "{s}", "--model", "bert-base"], check=True)\n'
        '  File "/usr/lib/python3.10/subprocess.py", line 526, in run\n'
        "    raise CalledProcessError(retcode, process.args,\n"
        "subprocess.CalledProcessError: Command '['python', '{s}', '--model', 'bert-base']' returned non-zero exit "
        "status 1.\n")


def test_a_helper_script_named_pretrained_is_no_rank(tmp_path):
    for s in ("download_pretrained.py", "constrain.py", "untrained_baseline.py"):
        v, acc = _verdict(tmp_path, _CPE.replace("{s}", s))
        assert not acc and not v["culprits"], (s, v)


def test_a_training_entry_script_still_reads_the_jobs_one_process():
    from ncclDoctor.diagnose import signatures as S
    for s in ("train.py", "scripts/train_network.py", "finetune.py", "pretrain_gpt.py", "run_sft.py", "trainer.py",
              "fine_tune-llama.py"):
        assert S.R_TRAIN_ENTRY_SCRIPT.search(s), s
    for s in ("download_pretrained.py", "constrain.py", "strain.py", "untrained.py", "preprocess.py"):
        assert not S.R_TRAIN_ENTRY_SCRIPT.search(s), s


# --- 5. a sampler's / scheduler's step is no training step ----------------------------------------------------------
_OOM = ("Traceback (most recent call last):\n"
        '  File "sample.py", line 50, in main\n'
        "    {code}\n"
        '  File "{path}", line 400, in step\n'
        "    prev_sample = alpha_prod_t_prev ** 0.5 * pred_original_sample + pred_sample_direction\n"
        "RuntimeError: CUDA error: out of memory\n")


def test_a_diffusion_schedulers_step_is_no_training_step(tmp_path):
    v, _ = _verdict(tmp_path, _OOM.replace("{code}", "latents = scheduler.step(noise_pred, t, latents).prev_sample")
                    .replace("{path}", "/venv/lib/python3.10/site-packages/diffusers/schedulers/scheduling_ddim.py"))
    assert v["cause"] == "gpu_oom" and "training step" not in v["fix"], v


def test_a_backward_pass_and_an_optimizers_step_are_still_a_training_step(tmp_path):
    v, _ = _verdict(tmp_path, _OOM.replace("{code}", "loss.backward()")
                    .replace("{path}", "/venv/lib/python3.10/site-packages/torch/_tensor.py").replace("in step",
                                                                                                      "in backward"))
    assert v["cause"] == "gpu_oom" and "training step" in v["fix"], v
    from ncclDoctor.diagnose import signatures as S
    for path in ("/venv/site-packages/torch/optim/adamw.py", "/venv/site-packages/apex/optimizers/fused_adam.py",
                 "/venv/site-packages/deepspeed/runtime/engine.py"):
        assert S.R_STEP_FILE.search(path), path
    for path in ("/venv/site-packages/diffusers/schedulers/scheduling_ddim.py", "/venv/site-packages/gym/core.py",
                 "sample.py"):
        assert not S.R_STEP_FILE.search(path), path


# --- 7. a cut at Lightning's self.advance says advance (batch fetch or step), not the step --------------------------
_SPAWN = LIGHTNING_SPAWN_CUT


def test_a_cut_at_advance_says_batch_fetch_or_step(tmp_path):
    v, acc = _verdict(tmp_path, _SPAWN + "    self.advance(data_fetcher)\n")
    assert v["cause"] == "unknown" and v["culprits"] == [] and not acc, v
    assert "batch fetch or the training step" in v["summary"], v["summary"]


def test_a_cut_at_the_optimization_run_still_says_the_training_step(tmp_path):
    text = (_SPAWN.replace("line 133, in run", "line 250, in advance")
            + "    batch_output = self.automatic_optimization.run(trainer.optimizers[0], batch_idx, kwargs)\n")
    v, acc = _verdict(tmp_path, text)
    assert v["cause"] == "unknown" and v["culprits"] == [] and not acc, v
    assert "training step" in v["summary"] and "batch fetch" not in v["summary"], v["summary"]
