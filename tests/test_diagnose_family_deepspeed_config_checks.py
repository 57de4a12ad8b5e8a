"""A training framework's own check of the DeepSpeed config against the job's other settings, which round 92 showed
unread (rules W, Q, V (1), AC (1), J, AF (1)).

- transformers' DeepSpeed integration refusing the DeepSpeed config where it disagrees with TrainingArguments
  ("ValueError: Please correct the following DeepSpeed config values that mismatch TrainingArguments values:", one
  "- ds X=a vs hf Y=b" line each after it: train_batch_size, lr, warmup, fp16.enabled): with its class (belle-154, two
  untagged tracebacks alike) or pasted without it above the launch command (apps-9; the prefilter passes the bare line
  by "mismatch TrainingArguments").
- DeepSpeed's own _batch_assertion on the batch sizes it derives from train_batch_size, gradient_accumulation_steps
  and the world ("AssertionError: Micro batch size per gpu: 0 has to be greater than 0"; instructerc-16, in a rich
  traceback).
- accelerate refusing its own config's DeepSpeed keys beside a deepspeed_config_file ("ValueError: When using
  `deepspeed_config_file`, the following accelerate config variables will be ignored: [...]"), even beside torchrun's
  "failed (exitcode: 1) local_rank: 0" record (pickscore-2): rule Q names no rank for a launch configuration error.

Each is config, culprits [], nobody innocent (signatures.R_DS_CONFIG_CHECK, crash reader: ds_config,
verdict.launch._ds_config); the fix names that check's remedy: the 'auto' values or TrainingArguments' values, the
batch sizes that fill the world, the keys to move from the accelerate config into the DeepSpeed config file.
Not read so: the `assert` source line a traceback prints above the check ("{micro_batch} has to be gr...", no number),
and a batch-size ValueError of the model's own ("Expected input batch_size (32) to match target batch_size (16)"),
which stays a rank's own failure (rule A).
"""
from __future__ import annotations

from tests.conftest import diagnose_verdict as _verdict
from tests.conftest import failure_record, verdict_accused

_HF_TB = ('Traceback (most recent call last):\n'
          '  File "finetune.py", line 214, in train\n'
          '    trainer.train()\n'
          '  File "/env/lib/python3.8/site-packages/transformers/deepspeed.py", line 221, in trainer_config_finalize\n'
          '    raise ValueError(\n')
_HF_MSG = ("Please correct the following DeepSpeed config values that mismatch TrainingArguments values:\n"
           "- ds fp16.enabled=True vs hf fp16|fp16_full_eval+fp16_backend(amp)=False\n"
           "The easiest method is to set these DeepSpeed config values to 'auto'.\n")


def test_transformers_deepspeed_config_mismatch_is_config_of_nobody(tmp_path):
    v, acc = verdict_accused(tmp_path, _HF_TB + "ValueError: " + _HF_MSG + _HF_TB)
    assert (v["cause"], v["culprits"], acc) == ("config", [], set()), v
    assert "'auto'" in v["fix"] and "bf16.enabled" in v["fix"] and "mixed precision setting" in v["fix"], v


def test_the_mismatch_pasted_without_its_class_is_read_alike(tmp_path):
    v = _verdict(tmp_path, _HF_MSG.replace("fp16.enabled=True vs hf fp16|fp16_full_eval+fp16_backend(amp)=False",
                                           "train_batch_size=8 vs hf train_batch_size (calculated)=128")
                 + "deepspeed train.py --deepspeed ds_config.json --grad-acc-steps=8\n")
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "train_batch_size = per-device batch x gradient_accumulation_steps x world size" in v["fix"], v


def test_deepspeeds_batch_assertion_is_config(tmp_path):
    v = _verdict(tmp_path, "│ ❱ 881 │   │   assert (micro_batch > 0), f\"Micro batch size per gpu: {micro_batch} has "
                 "to be gr   │\n"
                 "╰─────────────────────────────────────────────────╯\n"
                 "AssertionError: Micro batch size per gpu: 0 has to be greater than 0\n")
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "train_micro_batch_size_per_gpu" in v["fix"] and "world size" in v["fix"], v


def test_accelerates_deepspeed_config_file_check_names_no_rank_beside_torchruns_record(tmp_path):
    v, acc = verdict_accused(tmp_path, "ValueError: When using `deepspeed_config_file`, the following accelerate "
                             "config variables will be ignored: ['gradient_accumulation_steps', 'gradient_clipping',\n"
                             "'zero_stage', 'mixed_precision'].\n"
                             "Please specify them appropriately in the DeepSpeed config file.\n"
                             "[01:26:13] ERROR    failed (exitcode: 1) local_rank: 0 (pid: 1527604) of binary: "
                             "/usr/bin/python3\n")
    assert (v["cause"], v["culprits"], acc) == ("config", [], set()), v
    assert "deepspeed_config_file" in v["fix"] and "accelerate config" in v["fix"], v


def test_the_asserts_source_line_alone_is_no_settings_check(tmp_path):
    v = _verdict(tmp_path, "│ ❱ 881 │   │   assert (micro_batch > 0), f\"Micro batch size per gpu: {micro_batch} has "
                 "to be gr   │\n")
    assert v["cause"] != "config", v


def test_a_models_own_batch_size_error_keeps_its_rank(tmp_path):
    v = _verdict(tmp_path, "[rank1]: Traceback (most recent call last):\n"
                 "[rank1]:   File \"train.py\", line 88, in <module>\n"
                 "[rank1]:     loss = criterion(out, target)\n"
                 "[rank1]: ValueError: Expected input batch_size (32) to match target batch_size (16).\n"
                 + failure_record(1, 1, 1, 1, 4242))
    assert v["cause"] != "config" and "train_micro_batch_size_per_gpu" not in v["fix"], v
