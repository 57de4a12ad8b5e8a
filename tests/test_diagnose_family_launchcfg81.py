"""Launch and install set-ups round 81 showed misread (rules BL (1), U (2), W, AF (2), M, A, AU (4), X (2), V (1), AE).

- A spawn child's traceback (spawn_main -> prepare -> _fixup_main_from_path -> runpy) into the script's top level in
  a call -- fastcore's @call_parse running main() at its definition -- cut in that call's own site-packages frames
  (fsdp-qlora-28): the unguarded main (rule BL (1)), config, no rank; the fix says the spawn start method re-imports
  the main module. A top-level frame whose code line is an import is not read so (the import failing, rule AF (2)).
- argparse's usage printed alone (its error line cut) that declares only --local_rank, under torch >= 2.0's
  torch.distributed.launch, which passes --local-rank (colbert-213, lora-79): config, no rank, the fix names the
  --local-rank vs --local_rank mismatch (use torchrun and read LOCAL_RANK, or accept both spellings). A usage that
  declares no local-rank option keeps the generic fix.
- A framework's check refusing a feature without its package ("Exception: No Support for SyncBN without Apex"),
  beside torch.distributed.launch's CalledProcessError for the worker's command (nvidia-semantic-segmentation-59):
  config, no rank, install the package (rules W, AF (2); the CalledProcessError is the launcher's report, rule M).
  A message with "without" that refuses no feature is not read so.
- A wrapper's CalledProcessError for 'accelerate launch' (the Command joined with newlines) under torchrun's record
  of one failed rank (omini-kontext-22): rank 2 culprit, cause unknown (rules A, AU (4)), and the fix asks for that
  rank's own traceback (@record / error_file), not to fix the CalledProcessError.
- An import of the project's own package, the importing script inside its folder (chinese-clip-114, -217): a
  ModuleNotFoundError is the repository root missing from the path (PYTHONPATH / pip install -e .), a
  "cannot import name" from site-packages a stale installed copy shadowing the checkout (rule AF (2)). A module
  imported from a script outside such a folder keeps the install fix.
- A FileNotFoundError for a log file the process creates, untagged, nothing else failing (tacotron2-16): the log
  folder missing, a launch set-up (rule X (2)): config, mkdir it. A data file opened to be read is not read so.
- A launch script whose --nproc_per_node (through a variable it sets) exceeds the GPUs its exported
  CUDA_VISIBLE_DEVICES leaves, nothing failing shown (qwen-1175): contradicting settings (rules V (1), AE): config,
  no rank, one process per GPU. As many processes as GPUs is not read so.
"""
from __future__ import annotations

from tests.conftest import diagnose_verdict as _verdict

_SPAWN = (
    "Traceback (most recent call last):\n"
    "  File \"<string>\", line 1, in <module>\n"
    "  File \"/usr/lib/python3.10/multiprocessing/spawn.py\", line 116, in spawn_main\n"
    "    exitcode = _main(fd, parent_sentinel)\n"
    "  File \"/usr/lib/python3.10/multiprocessing/spawn.py\", line 236, in prepare\n"
    "    _fixup_main_from_path(data['init_main_from_path'])\n"
    "  File \"/usr/lib/python3.10/multiprocessing/spawn.py\", line 287, in _fixup_main_from_path\n"
    "    main_content = runpy.run_path(main_path,\n"
    "  File \"/usr/lib/python3.10/runpy.py\", line 86, in _run_code\n"
    "    exec(code, run_globals)\n")


def test_a_spawn_child_cut_below_a_top_level_call_is_the_unguarded_main(tmp_path):
    v = _verdict(tmp_path, _SPAWN
                 + "  File \"/home/u/proj/train.py\", line 939, in <module>\n    def main(\n"
                 "  File \"/home/u/.local/lib/python3.10/site-packages/fastcore/script.py\", line 125, in call_parse\n"
                 "    return _f()\n"
                 "  File \"/home/u/.local/lib/python3.10/site-packages/fastcore/script.py\", line 119, in _f\n"
                 "    return tfunc(**merge(args, args_from_prog(func, xtra)))\n")
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "spawn start method re-imports the main module" in v["fix"], v


def test_a_spawn_child_cut_in_a_top_level_import_is_not_read_so(tmp_path):
    v = _verdict(tmp_path, _SPAWN
                 + "  File \"/home/u/proj/train.py\", line 3, in <module>\n    import torchvision\n"
                 "  File \"<frozen importlib._bootstrap>\", line 1027, in _find_and_load\n")
    assert "__main__" not in v["fix"], v


_LAUNCH_NOTE = (
    "/env/lib/python3.9/site-packages/torch/distributed/launch.py:181: FutureWarning: The module "
    "torch.distributed.launch is deprecated\nand will be removed in future. Use torchrun.\n"
    "Note that --use-env is set by default in torchrun.\n")


def test_a_cut_usage_declaring_only_local_rank_underscore_names_the_spelling(tmp_path):
    v = _verdict(tmp_path, _LAUNCH_NOTE
                 + "usage: train.py [-h] [--root ROOT] [--local_rank RANK] [--dim DIM]\n"
                 "                [--doc_maxlen DOC_MAXLEN] [--amp]\n")
    assert (v["cause"], v["culprits"]) == ("config", []), v
    for word in ("--local-rank vs --local_rank", "use torchrun and read LOCAL_RANK from the environment",
                 "accept both spellings in argparse"):
        assert word.lower() in v["fix"].lower(), (word, v)


def test_a_cut_usage_without_a_local_rank_option_keeps_the_generic_fix(tmp_path):
    v = _verdict(tmp_path, _LAUNCH_NOTE + "usage: train.py [-h] [--root ROOT] [--dim DIM]\n")
    assert v["cause"] == "config", v
    assert "--local-rank vs --local_rank" not in v["fix"] and "python train.py --help" in v["fix"], v


_DIST_LAUNCH_CPE = (
    "Traceback (most recent call last):\n"
    "  File \"/opt/conda/lib/python3.6/site-packages/torch/distributed/launch.py\", line 231, in main\n"
    "    cmd=process.args)\n"
    "subprocess.CalledProcessError: Command '['/opt/conda/bin/python', '-u', 'train.py', '--local_rank=0']' "
    "returned non-zero exit status 1.\n")


def test_a_feature_refused_without_its_package_is_the_shared_install(tmp_path):
    v = _verdict(tmp_path, "Traceback (most recent call last):\n"
                 "  File \"/work/seg/config.py\", line 101, in assert_and_infer_cfg\n"
                 "    raise Exception('No Support for SyncBN without Apex')\n"
                 "Exception: No Support for SyncBN without Apex\n" + _DIST_LAUNCH_CPE)
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "pip install apex" in v["fix"], v


def test_without_in_a_message_refusing_no_feature_is_not_read_so(tmp_path):
    v = _verdict(tmp_path, "Traceback (most recent call last):\n"
                 "  File \"/work/seg/train.py\", line 50, in main\n"
                 "    run()\n"
                 "Exception: loss went to nan without warning\n")
    assert "pip install" not in v["fix"], v


_RECORD = (
    "Root Cause (first observed failure):\n"
    "[0]:\n"
    "  time      : 2025-08-15_10:48:34\n"
    "  host      : localhost\n"
    "  rank      : 2 (local_rank: 2)\n"
    "  exitcode  : 1 (pid: 34)\n"
    "  error_file: <N/A>\n"
    "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html\n"
    "============================================================\n"
    "Traceback (most recent call last):\n"
    "  File \"/root/trainer.py\", line 441, in exec_subprocess\n"
    "    raise subprocess.CalledProcessError(exitcode, \"\\n\".join(cmd))\n")


def test_a_wrappers_accelerate_launch_error_leaves_the_recorded_rank_its_own_traceback(tmp_path):
    v = _verdict(tmp_path, _RECORD + "subprocess.CalledProcessError: Command 'accelerate\nlaunch\n--multi_gpu\n"
                 "-m\nproj.train' returned non-zero exit status 1.\n")
    assert (v["cause"], v["culprits"]) == ("unknown", [2]), v
    assert "@record / error_file to capture the exception" in v["fix"], v
    assert "Fix the exception that traceback ends in" not in v["fix"], v


def test_a_wrappers_error_for_another_command_keeps_its_old_reading(tmp_path):
    v = _verdict(tmp_path, _RECORD + "subprocess.CalledProcessError: Command 'accelerate_data.sh' returned non-zero "
                 "exit status 1.\n")
    # the wrapper's own command failing is a second process failing, as before: nobody named first (rule J)
    assert (v["cause"], v["culprits"]) == ("unknown", []), v
    assert v["fix"].startswith("Several processes failed the same way"), v


def test_the_projects_own_package_not_importable_is_the_path(tmp_path):
    tb = ("Traceback (most recent call last):\n"
          "  File \"cn_clip/training/main.py\", line 16, in <module>\n"
          "    from cn_clip.clip import load\n"
          "ModuleNotFoundError: No module named 'cn_clip'\n")
    v = _verdict(tmp_path, tb + tb + "Killing subprocess 7480\nKilling subprocess 9048\n")
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "PYTHONPATH" in v["fix"] and "pip install -e ." in v["fix"], v


def test_a_third_party_module_missing_keeps_the_install_fix(tmp_path):
    v = _verdict(tmp_path, "Traceback (most recent call last):\n"
                 "  File \"tools/train.py\", line 16, in <module>\n"
                 "    import apex\n"
                 "ModuleNotFoundError: No module named 'apex'\n")
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "Install 'apex'" in v["fix"] and "PYTHONPATH" not in v["fix"], v


def test_a_stale_installed_copy_of_the_projects_package_shadows_the_checkout(tmp_path):
    v = _verdict(tmp_path, "Traceback (most recent call last):\n"
                 "  File \"D:\\Chinese-CLIP\\cn_clip\\training\\main.py\", line 17, in <module>\n"
                 "    from cn_clip.clip.model import convert_weights, convert_state_dict\n"
                 "ImportError: cannot import name 'convert_state_dict' from 'cn_clip.clip.model' "
                 "(C:\\envs\\clip\\lib\\site-packages\\cn_clip\\clip\\model.py)\n"
                 "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 16028) "
                 "of binary: C:\\envs\\clip\\python.exe\n")
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "uninstall the stale site-packages cn_clip" in v["fix"], v


def test_a_log_file_whose_folder_is_missing_is_the_launch_set_up(tmp_path):
    v = _verdict(tmp_path, "['train.py', '--n_gpus=4', '--rank=0']\n"
                 "Traceback (most recent call last):\n"
                 "  File \"/home/u/tacotron2/multiproc.py\", line 16, in <module>\n"
                 "    \"w\")\n"
                 "FileNotFoundError: [Errno 2] No such file or directory: 'logs/2018_05_11_GPU_1.log'\n")
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "mkdir logs" in v["fix"], v


def test_a_data_file_opened_to_be_read_is_not_read_so(tmp_path):
    v = _verdict(tmp_path, "Traceback (most recent call last):\n"
                 "  File \"/home/u/proj/data.py\", line 16, in load\n"
                 "    with open(path) as f:\n"
                 "FileNotFoundError: [Errno 2] No such file or directory: 'data/train.jsonl'\n")
    assert "mkdir" not in v["fix"], v


_SCRIPT = ("#!/bin/bash\nGPUS_PER_NODE={n}\nNNODES=1\nexport CUDA_VISIBLE_DEVICES=0,1\n"
           "DISTRIBUTED_ARGS=\"\n    --nproc_per_node $GPUS_PER_NODE \\\n    --nnodes $NNODES \\\n"
           "    --master_port 9902\n\"\ntorchrun $DISTRIBUTED_ARGS finetune.py --bf16\n")


def test_more_processes_than_the_scripts_visible_gpus_is_config(tmp_path):
    v = _verdict(tmp_path, _SCRIPT.format(n=8))
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "--nproc_per_node 2" in v["fix"] and "one process per GPU" in v["fix"], v


def test_as_many_processes_as_visible_gpus_is_not_read_so(tmp_path):
    v = _verdict(tmp_path, _SCRIPT.format(n=2))
    assert v["cause"] != "config", v
