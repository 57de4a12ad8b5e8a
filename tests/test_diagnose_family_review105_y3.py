"""Review 105 (1) findings 2, 4, 7 and 8: readings round 105 made too wide, or fix words that did not fit the lines.

- Finding 2 (signatures.R_LAUNCHER_SHIM): the Windows shim's "failed to create process." is read glued only after
  torchrun's own "Initializing distributed tasks at: HOST:PORT" (llamafactory-3953) or on a line of its own; another
  subject before it ("subprocess.Popen(cmd) failed ...", "worker on 10.0.0.5:29500 failed ...") is another
  program's sentence, read as it was at 9ea680a0 (not config).
- Findings 4 and 7 (verdict.unread.missing_file_fix, used by unread's and exits' readings alike, one regex
  R_ENOENT_PATH): a missing file's words fit its kind -- dataset words for a data file (an image, audio or annotation,
  a data / dataset directory), checkpoint words for a checkpoint, none for a config or tokenizer file -- and the
  torch.distributed.launch sentence only where that launcher is shown (pytorch-42107 keeps its data words).
- Finding 8 (verdict.launch._launch_config_missing): the advice to leave torch.distributed.launch only where its
  deprecation warning or launch.py is shown (spikingformer-5 keeps it); torchrun's banner or a second traceback alone
  gets none.
"""
from __future__ import annotations

import pytest

from tests.conftest import verdict_accused as _verdict

_DATA = "re-extract the dataset"
_CKPT = "The missing file is a checkpoint"
_LEGACY = "under torch.distributed.launch: launch with torchrun"
_DEPRECATED = "Use torchrun instead of the deprecated torch.distributed.launch"
_TDL_WARNING = (
    "/usr/lib/python3.9/site-packages/torch/distributed/launch.py:181: FutureWarning: The module "
    "torch.distributed.launch is deprecated\nand will be removed in future. Use torchrun.\n"
    "Note that --use-env is set by default in torchrun.\n"
    "If your script expects `--local-rank` argument to be set, please\n"
    "change it to read from `os.environ['LOCAL_RANK']` instead. See\n"
    "https://pytorch.org/docs/stable/distributed.html#launch-utility for\nfurther instructions\n\n"
    "  warnings.warn(\n")
_BANNER = (
    "WARNING:torch.distributed.run:\n*****************************************\n"
    "Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system being "
    "overloaded, please further tune the variable for optimal performance in your application as needed.\n"
    "*****************************************\n")


# --- finding 2: the shim's words glued only after torchrun's own line ----------------------------------------------
@pytest.mark.parametrize("line", [
    "subprocess.Popen(cmd) failed to create process.",
    "ERROR: worker on 10.0.0.5:29500 failed to create process.",
    "[launcher] failed to create process.",
    "spawn_worker(3) failed to create process",
    "connecting to node7:8080 failed to create process.",
])
def test_other_programs_create_process_sentence_is_not_the_shim(tmp_path, line):
    v, _ = _verdict(tmp_path, f"INFO starting job\n{line}\n")
    assert v["cause"] != "config", v


@pytest.mark.parametrize("line", [
    "llamafactory.cli - Initializing distributed tasks at: 127.0.0.1:29437 failed to create process.",
    "llamafactory.cli - Initializing distributed tasks at: node-1.cluster:29500 failed to create process",
    "Initializing distributed tasks at: 10.0.0.5:2950failed to create process.",
    "failed to create process.",
])
def test_shim_glued_after_torchrun_line_or_alone_is_config(tmp_path, line):
    v, acc = _verdict(tmp_path, "CUDA_VISIBLE_DEVICES=0,1 llamafactory-cli train examples/llama3_lora_sft.yaml\n"
                                f"{line}\n")
    assert v["cause"] == "config" and v["confidence"] == "high" and not acc, v


# --- findings 4 and 7: a missing file's words fit its kind and its launcher -------------------------------------------
def _tb(path: str, prefix: str = "") -> str:
    return "".join(f"{prefix}{x}\n" for x in (
        "Traceback (most recent call last):",
        '  File "/workspace/train.py", line 40, in <module>',
        "    model.load_state_dict(torch.load(args.resume))",
        '  File "/usr/lib/python3/site-packages/torch/serialization.py", line 986, in load',
        "    with _open_file_like(f, 'rb') as opened_file:",
        f"FileNotFoundError: [Errno 2] No such file or directory: '{path}'"))


_RECORD = ("E0501 10:00:05.000000 1 torch/distributed/elastic/multiprocessing/api.py:833] failed (exitcode: 1) "
           "local_rank: 0 (pid: 1234) of binary: /usr/bin/python\n")


@pytest.mark.parametrize("path", ["/ckpt/run1/model_final.pth", "/out/checkpoint-500/model.safetensors",
                                  "/data/models/pytorch_model.bin", "/runs/exp3/last.ckpt"])
@pytest.mark.parametrize("prefix", ["[rank0]: ", ""])
@pytest.mark.parametrize("record", ["", _RECORD])
def test_missing_checkpoint_gets_checkpoint_words_not_dataset_nor_launch(tmp_path, path, prefix, record):
    v, _ = _verdict(tmp_path, _tb(path, prefix) + record)
    assert _CKPT in v["fix"] and _DATA not in v["fix"] and _LEGACY not in v["fix"], v


@pytest.mark.parametrize("path", ["/models/llama/tokenizer.json", "/models/llama/config.json",
                                  "/srv/app/configs/train.yaml"])
def test_missing_config_or_tokenizer_gets_neither(tmp_path, path):
    v, _ = _verdict(tmp_path, _tb(path, "[rank0]: "))
    assert _CKPT not in v["fix"] and _DATA not in v["fix"] and _LEGACY not in v["fix"], v


@pytest.mark.parametrize("path", ["/data/coco/train2017/000000315242.jpg", "/mnt/audio/clips/a12.wav",
                                  "/srv/ann/instances_train.json", "/home/u/datasets/shards/part-0001.tar"])
def test_pytorch_42107_shape_keeps_data_words_without_a_launcher(tmp_path, path):
    v, _ = _verdict(tmp_path, f"FileNotFoundError: [Errno 2] No such file or directory: '{path}'\n")
    assert "check the data path exists" in v["fix"] and "same data path mounted on every node/rank" in v["fix"], v
    assert _LEGACY not in v["fix"], v


def test_data_file_under_torch_distributed_launch_keeps_the_launcher_sentence(tmp_path):
    v, _ = _verdict(tmp_path, _TDL_WARNING + "FileNotFoundError: [Errno 2] No such file or directory: "
                                             "'/data/coco/train2017/000000315242.jpg'\n")
    assert _DATA in v["fix"] and _LEGACY in v["fix"], v


@pytest.mark.parametrize("path", ["/data/coco/train2017/000000315242.jpg", "/ckpt/run1/model_final.pth"])
def test_exits_and_unread_give_the_same_kind_words(tmp_path, path):
    words = _CKPT if path.endswith(".pth") else _DATA
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    lone, _ = _verdict(tmp_path / "a", _tb(path, "[rank0]: "))
    rec, _ = _verdict(tmp_path / "b", _tb(path) + _RECORD)
    assert words in lone["fix"] and words in rec["fix"], (lone, rec)


def test_one_enoent_regex_and_helper_shared():
    from ncclDoctor.diagnose.verdict import exits, unread
    assert exits.R_ENOENT_PATH is unread.R_ENOENT_PATH and exits.missing_file_fix is unread.missing_file_fix
    assert not hasattr(unread, "_R_MISSING_PATH") and not hasattr(unread, "_missing_path_fix")


# --- finding 8: the deprecation advice only where torch.distributed.launch is shown ---------------------------------
_CFG_TB = (
    "Traceback (most recent call last):\n"
    '  File "/home/u/Spikingformer-master/cifar10/train.py", line 952, in <module>\n    main()\n'
    '  File "/home/u/Spikingformer-master/cifar10/train.py", line 338, in main\n'
    "    args, args_text = _parse_args()\n"
    '  File "/home/u/Spikingformer-master/cifar10/train.py", line 323, in _parse_args\n'
    "    with open(args_config.config, 'r') as f:\n"
    "FileNotFoundError: [Errno 2] No such file or directory: 'cifar10.yml'\n")


def test_spikingformer_5_shape_keeps_the_deprecation_advice(tmp_path):
    v, acc = _verdict(tmp_path, _TDL_WARNING + _BANNER + _CFG_TB + "Traceback (most recent call last):\n")
    assert v["cause"] == "config" and not acc and _DEPRECATED in v["fix"], v


@pytest.mark.parametrize("head,tail", [(_BANNER, "Traceback (most recent call last):\n"), (_BANNER, ""),
                                       ("", "Traceback (most recent call last):\n")])
def test_config_missing_under_torchrun_gets_no_deprecation_advice(tmp_path, head, tail):
    v, acc = _verdict(tmp_path, head + _CFG_TB + tail)
    assert v["cause"] == "config" and not acc, v
    assert _DEPRECATED not in v["fix"] and "config file path" in v["fix"], v
