"""Review s3 of round 91's diagnose code (session 35): three readings that held for wider shapes than an expert reads
so, each narrowed to its shape.

- Finding 3: a launch command's ``--config-file x.py`` beside any json / yaml frame in a cut stack was read as "you
  passed a script as the config", config (low) -- but Python configs are normal (detectron2's LazyConfig, mmengine /
  mmdet, a repo's ``--config configs/x.py``), and a json frame is any json.load (COCO annotations, tokenizer files,
  data manifests). Now a .py argument is read so only beside a YAML parser's frame (yaml / omegaconf,
  get_config_from_file), a .sh / .bash beside a YAML parser or a json load under config-reading code, and never
  under a dataset loader's frame; elsewhere the cut traceback is rule BG (6)'s unknown with the paste-the-rest fix.
  The fix text no longer names nanotron's own "config_*.py that writes the yaml" as if it were general.
- Finding 8: the parser kept the first ``--config x.sh / .py`` seen anywhere in the file for the whole file. Now it
  is the latest launch command's (a line that starts a command), dropped at the next launch command, and a usage /
  help text quoting such an argument sets nothing.
- Finding 4: a gather's shape prints were counted "one per process" by taking the first N prints under a label,
  though four prints of one rank over four steps (variable-length batches) are one process's history. Now each print
  keeps who printed it (its rank tag; a file whose lines count steps), a source counts once, and the reading needs
  ``world`` distinct sources (a rank tag is one where the prints count steps or carry two or more ranks' tags);
  one rank's prints over steps read as the plain watchdog timeout (rules H / AH: nobody named,
  Flight Recorder fix). Untagged prints in one block with no step counter still count one per process (the case),
  and so does one tag on every print with no step counter (a collector tagging a whole paste: the rankprefix
  perturbation of the case).
"""
from __future__ import annotations

from tests.conftest import corpus_case_verdict as _case
from tests.conftest import verdict_accused as _verdict


def _said(v: dict) -> str:
    return v["summary"] + " " + (v.get("fix") or "")


# --- 3. a --config-file script beside a cut stack that reads a config -------------------------------------------------
_CFGPY = (
    "$ torchrun --nproc_per_node 8 tools/lazyconfig_train_net.py --config-file "
    "projects/ViTDet/configs/COCO/mask_rcnn_vitdet_b_100ep.py\n"
    "Traceback (most recent call last):\n"
    '  File "/home/u/detectron2/tools/lazyconfig_train_net.py", line 131, in <module>\n'
    "    launch(main, args.num_gpus)\n"
    '  File "/home/u/detectron2/detectron2/data/datasets/coco.py", line 69, in load_coco_json\n'
    "    coco_api = COCO(json_file)\n"
    '  File "/usr/lib/python3.10/json/__init__.py", line 293, in load\n'
    "    return loads(fp.read(),\n"
    '  File "/usr/lib/python3.10/json/decoder.py", line 337, in decode\n')

_YAML_CUT = (
    "Traceback (most recent call last):\n"
    '  File "/home/u/proj/run_train.py", line 201, in <module>\n'
    "    trainer = DistributedTrainer(config_file)\n"
    '  File "/home/u/proj/src/proj/config/config.py", line 444, in get_config_from_file\n'
    "    config_dict = yaml.load(f, Loader=SafeLoader)\n"
    '  File "/usr/lib/python3.10/site-packages/yaml/__init__.py", line 81, in load\n'
    "    return loader.get_single_data()\n")


def test_python_config_beside_a_dataset_json_load_is_a_cut_traceback(tmp_path):
    v, acc = _verdict(tmp_path, _CFGPY)
    assert v["cause"] == "unknown" and not acc
    assert "is a script" not in _said(v) and "Paste the full traceback" in _said(v)


def test_shell_config_beside_a_dataset_json_load_is_a_cut_traceback(tmp_path):
    v, _ = _verdict(tmp_path, _CFGPY.replace("mask_rcnn_vitdet_b_100ep.py\n", "train.sh\n"))
    assert v["cause"] == "unknown"


def test_python_config_beside_a_json_load_in_config_code_is_not_read_so(tmp_path):
    text = ("torchrun --nproc_per_node 8 train.py --config configs/x.py\n"
            "Traceback (most recent call last):\n"
            '  File "/home/u/proj/train.py", line 20, in <module>\n'
            "    cfg = load_config(args.config)\n"
            '  File "/home/u/proj/utils/config.py", line 12, in read_config\n'
            "    return json.load(f)\n"
            '  File "/usr/lib/python3.10/json/__init__.py", line 293, in load\n'
            "    return loads(fp.read(),\n")
    v, _ = _verdict(tmp_path, text)
    assert v["cause"] == "unknown"
    v, _ = _verdict(tmp_path, text.replace("configs/x.py", "configs/x.sh"))
    assert v["cause"] == "config" and "is a script" in _said(v)


def test_python_config_beside_a_yaml_parser_still_reads_as_a_script(tmp_path):
    v, acc = _verdict(tmp_path, "torchrun --nproc_per_node=8 run_train.py --config-file examples/config_x.py\n"
                      + _YAML_CUT)
    assert v["cause"] == "config" and not acc
    assert "config_x.py is a script" in _said(v)


def test_the_fix_names_no_projects_own_generator(tmp_path):
    v, _ = _verdict(tmp_path, "torchrun --nproc_per_node=8 run_train.py --config-file examples/train.sh\n"
                    + _YAML_CUT)
    assert v["cause"] == "config"
    assert "config_*.py" not in _said(v) and "run that script first" in _said(v)


def test_nanotron_case_still_reads_config(tmp_path):
    v, acc = _case(tmp_path, "nanotron-166-config-file-sh-script-yaml-load-cut")
    assert v["cause"] == "config" and not acc
    assert "train_tiny_llama.sh" in _said(v)


# --- 8. the script argument belongs to the latest launch command ------------------------------------------------------
def test_a_later_launch_command_drops_the_script_argument(tmp_path):
    text = ("torchrun --nproc_per_node=8 run_train.py --config-file examples/train.sh\n"
            "bash: line 1: error\n"
            "torchrun --nproc_per_node=8 run_train.py --config-file examples/config_tiny.yaml\n" + _YAML_CUT)
    v, _ = _verdict(tmp_path, text)
    assert v["cause"] == "unknown" and "is a script" not in _said(v)


def test_a_usage_text_quoting_a_script_argument_sets_nothing(tmp_path):
    text = ("usage: run_train.py [-h] --config-file CONFIG_FILE\n"
            "  e.g. run_train.py --config-file run.sh launches nothing: pass the yaml\n" + _YAML_CUT)
    v, _ = _verdict(tmp_path, text)
    assert v["cause"] == "unknown" and "is a script" not in _said(v)


def test_the_latest_launch_command_is_the_one_read(tmp_path):
    text = ("torchrun --nproc_per_node=8 run_train.py --config-file examples/config_tiny.yaml\n"
            "$ torchrun --nproc_per_node=8 run_train.py --config-file examples/train.sh\n" + _YAML_CUT)
    v, _ = _verdict(tmp_path, text)
    assert v["cause"] == "config" and "examples/train.sh is a script" in _said(v)


# --- 4. a gather's shape prints: one per process ----------------------------------------------------------------------
_TIMEOUT = ("[rank1]:[E ProcessGroupNCCL.cpp:563] [Rank 1] Watchdog caught collective operation timeout: "
            "WorkNCCL(SeqNum=9, OpType=_ALLGATHER_BASE, NumelIn=2000, NumelOut=8000, Timeout(ms)=600000) ran for "
            "600046 milliseconds before timing out.\n")


def test_one_ranks_prints_over_steps_are_not_the_worlds_shapes(tmp_path):
    text = "".join(f"[rank0]: step {k} gathered_logits shape: torch.Size([2, {n}, 100])\n"
                   for k, n in enumerate((10, 12, 11, 10), 1)) + _TIMEOUT
    v, acc = _verdict(tmp_path, text)
    assert v["cause"] != "desync" and not acc
    assert "TORCH_FR_BUFFER_SIZE" in _said(v) or "Flight Recorder" in _said(v)


def test_untagged_prints_that_count_steps_are_one_process(tmp_path):
    text = "".join(f"step {k} gathered_logits shape: torch.Size([2, {n}, 100])\n"
                   for k, n in enumerate((10, 12, 11, 10), 1)) + _TIMEOUT
    v, _ = _verdict(tmp_path, text)
    assert v["cause"] != "desync"


def test_four_ranks_tagged_prints_still_read_desync(tmp_path):
    text = "".join(f"[rank{r}]: gathered_logits shape: torch.Size([2, {n}, 100])\n"
                   for r, n in enumerate((10, 12, 11, 10))) + _TIMEOUT
    v, _ = _verdict(tmp_path, text)
    assert v["cause"] == "desync"


def test_ms_swift_case_still_reads_desync(tmp_path):
    v, acc = _case(tmp_path, "ms-swift-2117-infonce-gathered-logits-seq-len-differ-allgather-seq4")
    assert v["cause"] == "desync" and not acc


def test_a_data_mount_in_the_config_readers_path_is_no_dataset_loader(tmp_path):
    v, _ = _verdict(tmp_path, "torchrun --nproc_per_node=8 run_train.py --config-file examples/train.sh\n"
                    + _YAML_CUT.replace("/home/u/", "/data/u/"))
    assert v["cause"] == "config"


def test_two_ranks_prints_are_two_sources_not_four(tmp_path):
    text = "".join(f"[rank{r}]: gathered_logits shape: torch.Size([2, {n}, 100])\n"
                   for r, n in ((0, 10), (0, 12), (1, 11), (1, 10))) + _TIMEOUT
    v, _ = _verdict(tmp_path, text)
    assert v["cause"] != "desync"


def test_one_tag_on_every_line_without_steps_reads_as_the_untagged_block(tmp_path):
    # a collector tagging a whole paste with one rank (the bench's rankprefix): the block reads as without the tag
    text = "".join(f"[rank3]: gathered_logits shape: torch.Size([2, {n}, 100])\n" for n in (10, 12, 11, 10))
    v, _ = _verdict(tmp_path, text + _TIMEOUT)
    assert v["cause"] == "desync"
