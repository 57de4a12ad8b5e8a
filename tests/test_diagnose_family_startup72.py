"""How diagnose reads start-up failures round 72 showed (session 26): FSDP's own check refusing to flatten integer
(quantized) parameters (rules Q, W, AF (2); axolotl-2250, llama-cookbook-675), a sharding planner's own check that
the user's constraints leave a table nothing to shard with (rules W, Q; torchrec-1614), a script's own check that a
data file its settings name can't be read (rules U (2), W; videochat-flash-33), and GitPython's
InvalidGitRepositoryError at start-up (rules J, Q; xmem-138). Each test reads the shape from lines
other than the corpus case's own (other ranks, paths, wordings), and a near shape that must NOT be read that way.
Hosts, pids and paths are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict
from tests.conftest import watchdog_line


# --- FSDP refusing integer (quantized) parameters -------------------------------------------------------------------
def _fsdp_tb(rank: int, message: str, exc: str = "ValueError") -> str:
    return (f"[rank{rank}]: Traceback (most recent call last):\n"
            f"[rank{rank}]:   File \"/srv/env/lib/python3.10/site-packages/torch/distributed/fsdp/_flat_param.py\", "
            "line 642, in _init_flat_param_and_metadata\n"
            f"[rank{rank}]:     raise ValueError(\"{message}\")\n"
            f"[rank{rank}]: {exc}: {message}\n")


def test_fsdp_refusing_integer_parameters_is_the_models_setup(tmp_path):
    """Rules Q, W, AF (2), as adjudicated in round 72: FSDP refusing to flatten integer-dtype parameters (bitsandbytes'
    8-bit or uint8-stored 4-bit weights) is the wrapper refusing the model every rank builds alike -- config, no rank,
    not the rank whose traceback is shown, and not a c10d call's invalid usage; the fix names the quant storage."""
    d = _report(tmp_path, _fsdp_tb(2, "Cannot flatten integer dtype tensors") + "[rank3]: Traceback (most recent "
                                                                                 "call last):\n")
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "bnb_4bit_quant_storage" in v["fix"] and "integer" in v["summary"], v


def test_another_integer_error_or_the_check_beside_a_hang_is_not_the_models_setup(tmp_path):
    """Near shapes: a rank's own ValueError about integer tensors in other words is that rank's failure (rule A), and
    the same check beside a watchdog timeout is not the one failure shown."""
    v = _verdict(tmp_path, _fsdp_tb(2, "Cannot index with integer dtype tensors of rank 3"))
    assert v["cause"] != "config", v
    v = _verdict(tmp_path, watchdog_line(1, 40, "ALLREDUCE", 600040, 600000)
                 + _fsdp_tb(2, "Cannot flatten integer dtype tensors"))
    assert v["cause"] != "config", v


# --- a sharding planner's constraints check ------------------------------------------------------------------------
def _planner_tb(exc: str, message: str) -> str:
    return ("Process SpawnProcess-2:\n"
            "Traceback (most recent call last):\n"
            "  File \"/opt/py/lib/python3.11/site-packages/torchrec/distributed/planner/planners.py\", line 201, "
            "in collective_plan\n"
            "    return invoke_on_rank_and_broadcast_result(\n"
            "  File \"/opt/py/lib/python3.11/site-packages/torchrec/distributed/planner/enumerators.py\", line 170, "
            "in enumerate\n"
            "    raise RuntimeError(\n"
            f"{exc}: {message}\n")


def test_planner_finding_no_sharding_after_user_constraints_is_config(tmp_path):
    """Rules W, Q: torchrec's enumerator finding no sharding type / compute kernel left for a table after the user's
    ParameterConstraints is a check of the settings every rank is given -- a RuntimeError that is no rank's own run
    failing: config, no rank; the fix names the constraints."""
    d = _report(tmp_path, _planner_tb("RuntimeError", "No available sharding types after applying user provided "
                                                      "constraints for user_embeddings"))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "ParameterConstraints" in v["fix"] and "user_embeddings" in v["summary"], v


def test_another_planner_runtime_error_is_not_read_as_its_constraints(tmp_path):
    """Near shape: a RuntimeError of the planner in other words (its storage not fitting) says nothing of the user's
    constraints and is not read as this check."""
    v = _verdict(tmp_path, _planner_tb("RuntimeError", "No available compute kernels could fit within the "
                                                       "remaining HBM"))
    assert "ParameterConstraints" not in v["fix"], v


# --- a data file the settings name that can't be read --------------------------------------------------------------
def _data_tb(rank: int, exc: str, message: str) -> str:
    return (f"[rank{rank}]: Traceback (most recent call last):\n"
            f"[rank{rank}]:   File \"/work/proj/train/dataset.py\", line 412, in __init__\n"
            f"[rank{rank}]:     assert ok, f\"Data in {{data_path}} can't be read!\"\n"
            f"[rank{rank}]: {exc}: {message}\n")


def test_script_check_that_a_named_data_file_cannot_be_read_is_config(tmp_path):
    """Rules U (2), W as round 72's adjudication reads them: the script's own assert that a file the data config names
    can't be read, the path in its words, is a path every worker is launched with: config, no rank (a cut traceback of
    another rank after it proves nobody a victim); the fix names the dataset path."""
    d = _report(tmp_path, _data_tb(2, "AssertionError", "Data in /mnt/corpus/clips/a0017.mp4 can't be read!")
                + "[rank3]: Traceback (most recent call last):\n")
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "data_path" in v["fix"] and "download the videos locally" in v["fix"], v


def test_unreadable_without_a_path_or_as_a_runtime_error_is_not_a_path_setting(tmp_path):
    """Near shapes: the same words without a path name no setting, and a RuntimeError (a rank's own run failing while
    it reads) is not the script's check of its settings."""
    v = _verdict(tmp_path, _data_tb(2, "AssertionError", "Data can't be read!"))
    assert v["cause"] != "config", v
    v = _verdict(tmp_path, _data_tb(2, "RuntimeError", "Data in /mnt/corpus/clips/a0017.mp4 can't be read!"))
    assert v["cause"] != "config", v


# --- the launch directory not a git checkout -----------------------------------------------------------------------
def _git_tb(prefix: str = "") -> str:
    return (f"{prefix}Traceback (most recent call last):\n"
            f"{prefix}  File \"/home/u/proj/train.py\", line 22, in <module>\n"
            f"{prefix}    repo = git.Repo(\".\")\n"
            f"{prefix}  File \"/home/u/env/lib/python3.10/site-packages/git/repo/base.py\", line 265, in __init__\n"
            f"{prefix}    raise InvalidGitRepositoryError(epath)\n"
            f"{prefix}git.exc.InvalidGitRepositoryError: /home/u/proj\n")


def test_every_worker_stopping_on_a_launch_directory_that_is_no_git_checkout_is_config(tmp_path):
    """Rules J, Q: every worker's traceback ends on GitPython's InvalidGitRepositoryError at start-up -- the directory
    they are all launched from is not a git checkout: config, no rank; the fix names the git clone."""
    d = _report(tmp_path, _git_tb("[rank0]: ") + _git_tb("[rank1]: "))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "git clone" in v["fix"], v


def test_another_git_error_or_the_git_error_beside_a_hang_is_not_the_launch_directory(tmp_path):
    """Near shapes: another GitPython error (a git command failing) names no launch directory, and the git error
    beside a watchdog timeout is not the one failure shown."""
    v = _verdict(tmp_path, _git_tb().replace("InvalidGitRepositoryError: /home/u/proj",
                                             "GitCommandError: Cmd('git') failed due to: exit code(128)"))
    assert "git clone" not in v["fix"], v
    v = _verdict(tmp_path, watchdog_line(1, 40, "ALLREDUCE", 600040, 600000) + _git_tb("[rank0]: "))
    assert "git clone" not in v["fix"], v
