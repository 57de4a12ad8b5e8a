"""How diagnose reads start-up failures of the install and the set-up every worker shares (round 65, session 23, fixer
g1): an installed library's own version check at import, Python's "cannot import name" of a private API, c10d
refusing a second init of the default process group, a script finding no data at the path its arguments give, torch's
CUDA bindings absent from a build without CUDA, and a collective library's check naming a device setting not set.
Each test reads the shape from lines other than the corpus case's own (another package, script, path, rank, device),
and a near shape that must NOT be read that way. Hosts and paths are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report


def _record(script: str, ranks: list[int], host: str = "node-a", pid0: int = 4100) -> str:
    """torchrun's ChildFailedError record: every rank in RANKS exiting 1 in the same second (the first the root)."""
    def entry(r: int) -> str:
        return (f"[{r}]:\n  time      : 2025-02-01_09:15:07\n  host      : {host}\n"
                f"  rank      : {r} (local_rank: {r})\n  exitcode  : 1 (pid: {pid0 + r})\n  error_file: <N/A>\n"
                "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html\n")
    root, rest = ranks[0], ranks[1:]
    return ("torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n"
            "============================================================\n"
            f"{script} FAILED\n------------------------------------------------------------\nFailures:\n"
            + ("".join(entry(r) for r in rest) if rest else "  <NO_OTHER_FAILURES>\n")
            + "------------------------------------------------------------\nRoot Cause (first observed failure):\n"
            + entry(root) + "============================================================\n")


# --- an installed library's own version check at import (lead rule AF (2), round 41's addition) -------------------
# diffusers/utils/__init__.py check_min_version: raise ImportError("This example requires a source install from
# HuggingFace diffusers (see `...#install-from-source`)," f" but the version found is {__version__}.\n")
def test_a_version_check_at_import_is_the_shared_install_even_with_one_traceback(tmp_path):
    """One untagged traceback ends in an ImportError whose words say the installed version is not the one required,
    and the launcher's record shows both workers exiting 1: the install every worker imports -- config, nobody named,
    and the fix is the version / source install the check asks for, quoting it."""
    for said in ("This example requires a source install from HuggingFace transformers (see "
                 "`https://huggingface.co/docs/transformers/installation#install-from-source`), but the version "
                 "found is 4.30.2.",
                 "peft_trainer requires accelerate>=0.26.0, but found accelerate==0.21.0"):
        text = ("Traceback (most recent call last):\n  File \"/work/run_sft.py\", line 18, in <module>\n"
                "    check_min_version(\"4.31.0.dev0\")\n"
                f"ImportError: {said}\n" + _record("run_sft.py", [0, 1]))
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), (said, v)
        assert said[:60] in v["fix"] and "check_min_version" in v["fix"] and "source install" in v["fix"], v


def test_an_import_error_of_a_missing_name_alone_is_not_read_as_a_version_check(tmp_path):
    """The near shape: one ImportError that says nothing of a version ("cannot import name ...") under one rank's own
    tag is not the version check: its fix asks for no source install."""
    text = ("[rank1]: Traceback (most recent call last):\n[rank1]:   File \"/work/a.py\", line 3, in <module>\n"
            "[rank1]:     from mylib.ops import fused_norm\n"
            "[rank1]: ImportError: cannot import name 'fused_norm' from 'mylib.ops' (/work/mylib/ops.py)\n")
    v = _report(tmp_path, text)["verdict"]
    assert "check_min_version" not in v["fix"] and "source install" not in v["fix"], v


# --- Python's "cannot import name 'N' from 'M'" on every worker (lead rule AF (2)) ---------------------------------
def test_every_worker_failing_to_import_a_private_name_names_the_package_version(tmp_path):
    """Every worker's traceback ends in "cannot import name '_X' from 'pkg._private'": config, nobody named, and the fix
    names the package's version, the missing name and that it is a private API."""
    tb = ("Traceback (most recent call last):\n  File \"/srv/exp/train_fsdp.py\", line 9, in <module>\n"
          "    from torch.distributed._composable.fsdp._fsdp_api import _MixedPrecisionPolicy\n"
          "ImportError: cannot import name '_MixedPrecisionPolicy' from 'torch.distributed._composable.fsdp._fsdp_api'"
          " (/opt/venv/lib/python3.11/site-packages/torch/distributed/_composable/fsdp/_fsdp_api.py)\n")
    text = ("W0301 torch/distributed/run.py:793] Setting OMP_NUM_THREADS environment variable for each process to be 1"
            " in default\n" + tb * 3 + _record("train_fsdp.py", [0, 1, 2], host="gpu-7", pid0=900))
    text = "torchrun --standalone --nproc-per-node=3 train_fsdp.py\n" + text
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "The installed torch has no _MixedPrecisionPolicy" in v["fix"] and "private API" in v["fix"], v
    assert "downgrade torch" in v["fix"], v


def test_a_public_name_missing_is_no_private_api(tmp_path):
    """The near shape: the same failure of a public name of a public module names the version, not a private API."""
    tb = ("Traceback (most recent call last):\n  File \"/srv/exp/main.py\", line 4, in <module>\n"
          "    from transformers import Qwen9Model\n"
          "ImportError: cannot import name 'Qwen9Model' from 'transformers' "
          "(/opt/venv/lib/python3.11/site-packages/transformers/__init__.py)\n")
    text = "torchrun --nproc-per-node=2 main.py\n" + tb * 2 + _record("main.py", [0, 1])
    v = _report(tmp_path, text)["verdict"]
    assert v["cause"] == "config" and "The installed transformers has no Qwen9Model" in v["fix"], v
    assert "private API" not in v["fix"], v


# --- c10d refusing a second init of the default process group (lead rules AV, BA (3)) ------------------------------
def test_a_second_init_of_the_default_group_is_invalid_usage_naming_no_rank(tmp_path):
    """c10d's own refusal, raised in a traceback under a rank's tag or logged by a wrapper that retries the init:
    invalid_usage, nobody named, and the fix is to initialize once (is_initialized, destroy_process_group, restart
    the notebook's runtime)."""
    for text in (
            "[rank2]: Traceback (most recent call last):\n"
            "[rank2]:   File \"/srv/nb/setup.py\", line 30, in init_dist\n"
            "[rank2]:     dist.init_process_group(backend='nccl')\n"
            "[rank2]: ValueError: trying to initialize the default process group twice!\n",
            "2025-03-02 11:00:01 WARNING retrying dist setup after error: trying to initialize the default process "
            "group twice!\nRuntimeError: distributed setup failed after 3 attempts\n"):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not _accused(d), (text, v)
        assert "dist.is_initialized()" in v["fix"] and "destroy_process_group" in v["fix"], v
        assert "restart the runtime" in v["fix"], v


def test_a_group_not_yet_initialized_is_not_read_as_a_second_init(tmp_path):
    """The near shape: the opposite refusal (a call before any init_process_group) keeps its own reading."""
    text = ("Traceback (most recent call last):\n  File \"/srv/a.py\", line 5, in <module>\n    dist.barrier()\n"
            "ValueError: Default process group has not been initialized, please make sure to call "
            "init_process_group.\n")
    v = _report(tmp_path, text)["verdict"]
    assert v["cause"] != "invalid_usage" and "twice" not in v["fix"], v


# --- a script finding no data at the path its arguments give (lead rules W, U (2)) ---------------------------------
def test_no_data_found_with_a_plea_to_check_the_arguments_is_config(tmp_path):
    """Two workers print their data set-up and stop on the script's own check that it found no data and the
    arguments should be checked (no exception class): config, nobody named, and the fix quotes the check's words."""
    said = "No training samples found, please check your args (--data_root must hold one sub-folder per class)"
    text = ("accelerate launch --num_processes=2 finetune.py --data_root /mnt/none\n"
            "loading dataset\nloading dataset\n0 samples in train split\n" + said + "\n0 samples in train split\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "--data_root" in v["fix"] and "check your args" in v["fix"], v


def test_a_note_that_no_optional_data_was_found_is_no_failure(tmp_path):
    """The near shapes: a note that optional data is absent ("no validation images found") with training going on,
    and a plea to check the arguments that says nothing was missing, are not read as the check."""
    for text in ("no validation images found, skipping evaluation\nepoch 1 step 10 loss 0.31\n",
                 "Hint: please check your arguments if the loss diverges\nepoch 1 step 10 loss 0.31\n"):
        v = _report(tmp_path, text)["verdict"]
        assert v["cause"] == "none" and "Verify the arguments" not in v["fix"], (text, v)


# --- torch's CUDA bindings absent: a build without CUDA (lead rules Q, AF (2), AU (2)) -----------------------------
def test_a_cuda_binding_missing_from_torch_c_is_a_build_without_cuda(tmp_path):
    """torch.cuda.set_device (or device_count) in a build without CUDA raises "module 'torch._C' has no attribute
    '_cuda_...'" on the one worker the agent records: config, nobody named, the fix names the device to run on."""
    for attr, frame in (("_cuda_setDevice", "set_device"), ("_cuda_getDeviceCount", "device_count")):
        text = (f'[rank0]:   File "/opt/homebrew/lib/python3.11/site-packages/torch/cuda/__init__.py", line 401, in '
                f"{frame}\n[rank0]:     torch._C.{attr}()\n"
                f"[rank0]: AttributeError: module 'torch._C' has no attribute '{attr}'\n"
                "E0601 10:00:00.100000 123 torch/distributed/elastic/multiprocessing/api.py:826] failed (exitcode: 1) "
                "local_rank: 0 (pid: 777) of binary: /opt/homebrew/bin/python3\n")
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), (attr, v)
        assert "without CUDA" in v["summary"] and "'mps' or 'cpu'" in v["fix"] and "gloo" in v["fix"], v


def test_another_torch_c_attribute_missing_is_not_read_as_no_cuda(tmp_path):
    """The near shape: a torch._C attribute that is no basic CUDA binding (a newer API missing from an older torch)
    is not read as a build without CUDA."""
    text = ("[rank0]: AttributeError: module 'torch._C' has no attribute '_cuda_clearCublasWorkspaces'\n"
            "E0601 10:00:00.100000 123 torch/distributed/elastic/multiprocessing/api.py:826] failed (exitcode: 1) "
            "local_rank: 0 (pid: 777) of binary: /usr/bin/python3\n")
    v = _report(tmp_path, text)["verdict"]
    assert "without CUDA" not in v["summary"], v


# --- a collective library's check naming a device setting not set (lead rules V (1), W, BA (5)) --------------------
def test_a_library_check_naming_a_device_setting_not_set_names_it_in_the_fix(tmp_path):
    """A vendor collective library prints that a device setting is not properly set, then the communicator's creation
    raises its invalid-parameter error: config, nobody named, and the fix names the setting and the vendor's tool."""
    text = ("[BKCL][comm.cpp:88] dev 3 bar_size not properly set\n"
            "[BKCL][init.cpp:902] host 10.1.2.3 bar_size check failed\n"
            "RuntimeError: [INVALID PARAMETER]: bkcl init error code=1\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "bar_size ('bar_size not properly set')" in v["fix"] and "xpu-smi" in v["fix"], v


def test_an_invalid_parameter_without_a_named_setting_names_none(tmp_path):
    """The near shape: the same invalid-parameter error with no line naming a setting keeps the general advice."""
    v = _report(tmp_path, "RuntimeError: [INVALID PARAMETER]: bkcl init error code=1\n")["verdict"]
    assert v["cause"] == "config" and "found wrong" not in v["fix"], v
