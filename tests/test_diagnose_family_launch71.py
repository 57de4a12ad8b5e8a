"""Launch settings that every worker shares and that cannot run the job, read from the lines (round 71 showed each):
a script started without the launcher that exports its variables (torchpack's KeyError: 'MASTER_HOST'), a trainer's
printed argparse Namespace whose leftover positional list swallowed one of its own options (--dist-url inside
opts=[...], its dist_url left at the default), and DeepSpeed's launcher spawning every worker with an argument list
that stops before the arguments a Hugging Face training script requires (--output_dir). Config, nobody named (lead
rules Q, V (1), W, AA (1), AF (1)). Hosts, paths and values are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict

_TB = ('Traceback (most recent call last):\n  File "/opt/proj/tools/run_train.py", line 40, in <module>\n    main()\n'
       '  File "/opt/proj/tools/run_train.py", line 12, in main\n    dist.init()\n'
       '  File "/usr/lib/python3.9/site-packages/torchpack/distributed/context.py", line 23, in init\n'
       "    master_host = 'tcp://' + os.environ['MASTER_HOST']\n"
       '  File "/usr/lib/python3.9/os.py", line 679, in __getitem__\n    raise KeyError(key) from None\n')


def test_a_launcher_variable_missing_from_the_environment_is_config(tmp_path):
    d = _report(tmp_path, _TB + "KeyError: 'MASTER_HOST'\n")
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "torchpack dist-run" in v["fix"]


def test_a_key_that_only_starts_like_a_launcher_variable_is_not_read_as_one(tmp_path):
    v = _verdict(tmp_path, _TB.replace("os.environ['MASTER_HOST']", "cfg['MASTER_HOST_WEIGHTS']")
                 + "KeyError: 'MASTER_HOST_WEIGHTS'\n")
    assert v["cause"] != "config", v


_NS = ("Command Line Args: Namespace(config_file='configs/det/R_101.yaml', dist_url='tcp://127.0.0.1:{own}', "
       "eval_only=False, machine_rank=0, num_gpus=2, num_machines=1, opts=['SOLVER.IMS_PER_BATCH', '8', {tail}], "
       "resume=False)\n")
_URL = ("Process group URL: tcp://127.0.0.1:{own}\nTraceback (most recent call last):\n"
        '  File "/home/u/det/tools/train_net.py", line 120, in <module>\n    args=(args,),\n')


def test_an_option_swallowed_into_the_positional_overrides_is_config(tmp_path):
    text = _NS.format(own=49152, tail="'--dist-url', 'tcp://127.0.0.1:23456'") + _URL.format(own=49152)
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "--dist-url" in v["fix"] and "argument order" in v["fix"]


def test_an_override_list_holding_no_option_of_the_parser_is_not_read_as_swallowed(tmp_path):
    # a value that merely starts with dashes but names no field of the Namespace: the overrides as given
    text = _NS.format(own=49152, tail="'MODEL.NAME', '--fcos-head'") + _URL.format(own=49152)
    v = _verdict(tmp_path, text)
    assert v["cause"] == "store_rendezvous", v


_SPAWN = ("[2025-02-11 09:14:{s:02d},112] [INFO] [launch.py:256:main] process {pid} spawned with command: "
          "['/opt/conda/bin/python', '-u', 'llava/train/train_mem.py', '--local_rank={r}', '--deepspeed', "
          "'./scripts/zero2.json', '--model_name_or_path', 'lmsys/vicuna-7b-v1.5', '--version', 'v1', "
          "'--data_path', '/data/mix.json', '--bf16', 'True'{tail}]\n")


def test_deepspeed_workers_spawned_without_the_trainers_output_dir_is_config(tmp_path):
    text = "".join(_SPAWN.format(s=10 + r, pid=7700 + r, r=r, tail="") for r in range(4))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "--output_dir" in v["fix"] and "backslash" in v["fix"]


def test_deepspeed_workers_spawned_with_their_output_dir_or_a_cut_list_are_not_read_so(tmp_path):
    full = "".join(_SPAWN.format(s=10 + r, pid=7700 + r, r=r, tail=", '--output_dir', './checkpoints/run1'")
                   for r in range(4))
    assert _verdict(tmp_path, full)["cause"] != "config"
    # the paste cuts the list (no closing ']'): what follows is not shown, so nothing is known missing
    cut = "".join(_SPAWN.format(s=10 + r, pid=7700 + r, r=r, tail="").rsplit(", '--bf16'", 1)[0] + "\n"
                  for r in range(4))
    assert _verdict(tmp_path, cut)["cause"] != "config"
