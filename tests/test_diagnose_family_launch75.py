"""How diagnose reads a launch that fails on its own command line or install (round 75, session 27): the interpreter
given a folder for its script ("can't find '__main__' module in ..."), a worker's module-spec failure cut before its
reason, argparse's usage block cut before its "error:" line (the script's or the launcher's own), argparse's
"required" error naming the arguments in its fix, and torch.distributed lacking its core API (a build without
distributed support). Each is a setting or an install every worker shares (lead rules U (2), W, Q, X (2), AF (2)):
config, no rank. Each test reads the shape from lines other than the round's cases' own (other paths, hosts, programs),
and a near shape that must NOT be read that way. Paths, pids and programs are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict

_AGENT = ("ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 4410) of "
          "binary: D:\\envs\\seg\\python.exe\n")


# --- CPython's pymain_run_python: "%ls: can't find '__main__' module in %R" ----------------------------------------
def test_a_folder_given_for_the_script_is_the_launch_path_naming_nobody(tmp_path):
    """Lead rule U (2) (round 75, fcos-390): the interpreter a worker is started with was given a folder for its
    script and finds no __main__ in it -- the script path every worker gets: config, no rank, although the agent's
    record names local_rank 0. A drive's root is the lone '\\' of a bash continuation typed in Windows cmd."""
    text = ("D:\\envs\\seg\\python.exe: can't find '__main__' module in 'D:\\\\'\n" + _AGENT)
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "one line" in v["fix"] and "script path" in v["fix"], v
    folder = "/usr/bin/python3: can't find '__main__' module in '/home/u/proj/tools'\n" + _AGENT
    v = _verdict(tmp_path, folder)
    assert (v["cause"], v["culprits"]) == ("config", []) and "script path" in v["fix"], v
    assert "one line" not in v["fix"], v  # a real folder: no shell continuation to blame


def test_a_main_module_error_inside_a_traceback_is_not_the_launch_path(tmp_path):
    """The near shape: a worker's own exception mentioning __main__ (a pickling error of a class defined in the
    script) is that worker's failure, not the interpreter's refusal of its script path."""
    text = ('Traceback (most recent call last):\n  File "/w/train.py", line 9, in <module>\n    main()\n'
            "AttributeError: Can't get attribute 'Net' on <module '__main__' (built-in)>\n" + _AGENT)
    v = _verdict(tmp_path, text)
    assert "folder" not in v["summary"] and "script path" not in v["fix"], v


# --- runpy's "Error while finding module specification for '__main__'" cut before its reason -----------------------
def test_a_module_spec_failure_cut_before_its_reason_is_still_the_launch_command(tmp_path):
    """Lead rules Q, U (2), W (round 75, so-vits-svc-fork-481): the extra worker's "Error while finding module
    specification for '__main__'" with the paste ending before '(ValueError: __main__.__spec__ is None)': the same
    launch command every extra worker gets -- config, no rank, the fix says python -m."""
    text = ("Initializing distributed: GLOBAL_RANK: 0, MEMBER: 1/2\n"
            "E:\\tools\\venv\\Scripts\\python.exe: Error while finding module specification for '__main__'\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "__spec__" in v["summary"] and "python -m" in v["fix"], v


def test_a_module_spec_failure_for_another_module_cut_is_not_read_as_main(tmp_path):
    """The near shape: the same message for a package module, its reason cut: still the launch command, but not the
    __main__ restart (no __spec__ story, no devices=1)."""
    text = "/usr/bin/python3: Error while finding module specification for 'trainer.cli'\n"
    v = _verdict(tmp_path, text)
    assert v["cause"] == "config" and "__spec__" not in v["summary"] and "devices=1" not in v["fix"], v


# --- argparse's "the following arguments are required" -----------------------------------------------------------
def test_a_required_argument_error_names_argparse_in_its_fix(tmp_path):
    """Lead rules U (2), W (round 75, nafnet-112): argparse's usage error on a required argument, then the agent's
    record of exit code 2: config, no rank, and the fix names argparse's usage line."""
    text = ("usage: fit.py [-h] --cfg CFG [--seed SEED] stage\n"
            "fit.py: error: the following arguments are required: stage\n"
            "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 2) local_rank: 0 (pid: 881) of "
            "binary: /opt/py/bin/python\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "argparse" in v["fix"], v


# --- torch.distributed without its core API -------------------------------------------------------------------------
_TB = ('Traceback (most recent call last):\n  File "run.py", line 40, in <module>\n    setup(args)\n'
       '  File "C:\\w\\utils\\dist.py", line 12, in setup\n    torch.distributed.{attr}(backend="gloo")\n'
       "AttributeError: module 'torch.distributed' has no attribute '{attr}'\n")


def test_torch_distributed_lacking_its_core_api_is_a_build_without_distributed(tmp_path):
    """Lead rules Q's last sentence, AF (2) (round 75, detr-43): torch.distributed with no init_process_group (or
    another core call) is a torch build without distributed support (a Windows wheel before 1.7): config, no rank, the
    fix says is_available and to upgrade PyTorch / run without the launcher."""
    v = _verdict(tmp_path, _TB.format(attr="is_initialized"))
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "is_available" in v["fix"] and "upgrade PyTorch" in v["fix"], v


def test_torch_distributed_lacking_a_newer_name_is_a_version_not_a_build(tmp_path):
    """The near shape: torch.distributed lacking a name only newer releases have (get_node_local_rank) is the
    installed version, read by the general module-lacks rule: no claim of a build without distributed support."""
    v = _verdict(tmp_path, _TB.format(attr="get_node_local_rank"))
    assert v["cause"] == "config" and "is_available" not in v["fix"], v
    assert "torch.distributed.get_node_local_rank" in v["fix"], v


# --- argparse's usage block, the paste cut before its "error:" line -------------------------------------------------
_LAUNCH_WARN = ("/opt/py/lib/python3.11/site-packages/torch/distributed/launch.py:183: FutureWarning: The module "
                "torch.distributed.launch is deprecated\nand will be removed in future. Use torchrun.\n"
                "Note that --use-env is set by default in torchrun.\n"
                "If your script expects `--local-rank` argument to be set, please\n"
                "change it to read from `os.environ['LOCAL_RANK']` instead.\n\n  warnings.warn(\n")


def test_a_scripts_usage_cut_before_its_error_line_is_the_launch_arguments(tmp_path):
    """Lead rules U (2), W (round 75, flagai-511): after torch.distributed.launch's warning, the script prints
    argparse's usage and the paste ends inside it (its "error:" line cut): argparse refused the arguments every
    worker is launched with -- config, no rank, the fix names --local-rank / LOCAL_RANK / torchrun."""
    text = (_LAUNCH_WARN + "loading tokenizer from /data/tok\nloading tokenizer from /data/tok\n"
            "usage: finetune_lm.py [-h] [--cfg CFG] [--lr LR]\n"
            "                      [--warmup_steps WARMUP_STEPS] [--seed SEED]\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "--local-rank" in v["fix"] and "LOCAL_RANK" in v["fix"] and "argparse" in v["summary"], v


def test_the_launchers_own_usage_cut_is_its_launch_command(tmp_path):
    """Lead rule X (2) (round 75, flagai-447): torch.distributed.run prints its own usage, the paste ending at its
    last wrapped line ('training_script ...'): the launcher refused its command before any worker started --
    config, no rank, the fix is about the launch command (--master_addr, training_script)."""
    text = (_LAUNCH_WARN + "usage: run.py [-h] [--nnodes NNODES] [--nproc-per-node NPROC_PER_NODE]\n"
            "              [--node-rank NODE_RANK] [--master-addr MASTER_ADDR]\n"
            "              [--master-port MASTER_PORT] [--use-env]\n"
            "              training_script ...\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "--master_addr" in v["fix"] and "training_script" in v["fix"] and "launcher" in v["summary"], v


def test_a_help_text_or_a_usage_followed_by_a_run_is_not_a_refused_command_line(tmp_path):
    """The near shapes: the usage line followed by argparse's help sections (the script run with -h), or by the
    run's own lines (a usage printed and the job going on) is no refusal cut off: not read as the launch arguments."""
    usage = "usage: finetune_lm.py [-h] [--cfg CFG] [--lr LR]\n                      [--seed SEED]\n"
    helped = usage + "\noptions:\n  -h, --help  show this help message and exit\n  --cfg CFG   the config file\n"
    v = _verdict(tmp_path, _LAUNCH_WARN + helped)
    assert v["cause"] != "config" and "argparse" not in v["summary"], v
    went_on = usage + "epoch 0 step 10 loss 2.31\nepoch 0 step 20 loss 2.12\n"
    v = _verdict(tmp_path, _LAUNCH_WARN + went_on)
    assert v["cause"] != "config" and "argparse" not in v["summary"], v
