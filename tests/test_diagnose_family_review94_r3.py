"""Session 37's review, fixer r3: four readings or fix texts of round 94's new code that went too broad, and what
reads them now.

- A subprocess CalledProcessError whose command runs a Python script with the interpreter itself, with no launcher's
  raise or frame above it, was read as the job's one process, rank 0 -- for any script: pip building an extension's
  setup.py, a pipeline's preprocess.py. Without the launcher's raise the script must now be a training entry
  (train.py, finetune.py, train_network.py ...; lead rules A, AG, T): round 94's gpt4all-256 (train.py killed by
  SIGKILL) keeps rank 0, a package build or a helper step names nobody (as before round 94). Where rank 0 is read
  from such a plain command, the fix no longer sends the reader to a torchrun record nobody printed.
- torch.distributed lacking ProcessGroupNCCL (lead rules Q, AF (2)): "reinstall the official wheel" cannot help on
  Windows or macOS (no official wheel there has NCCL) nor with Linux's CPU-only wheel. The fix now says gloo on
  Windows / macOS and the CUDA wheel on Linux; the other backends' classes keep the reinstall advice.
- A traceback cut in init_process_group's rendezvous step: the generic fix carried one case's detail (a CUDA error on
  an occupied GPU) for every cut rendezvous; it now says any early error, that rank's own traceback.
- The proxy service's and the net plugin's teardown WARNs together: one verdict said their shared remedy twice; the
  two readings now share one remedy clause.
"""
from __future__ import annotations

from tests.conftest import corpus_case_verdict, verdict_accused

# --- 3. a CalledProcessError of `python X.py` with no launcher shown ---------------------------------------------
_PIP_BUILD = (
    "  Building wheel for apex (setup.py) ... error\n"
    "Traceback (most recent call last):\n"
    '  File "/tmp/pip-build/apex/setup.py", line 12, in <module>\n'
    "    main()\n"
    "subprocess.CalledProcessError: Command '['/usr/bin/python3', 'setup.py', 'bdist_wheel']' returned non-zero exit "
    "status 1.\n")
_PREP = ("Running data preparation...\n"
         "subprocess.CalledProcessError: Command '['python', 'scripts/preprocess.py', '--out', 'data/']' returned "
         "non-zero exit status 1.\n")


def test_a_pip_build_of_setup_py_is_no_rank(tmp_path):
    v, acc = verdict_accused(tmp_path, _PIP_BUILD)
    assert v["culprits"] == [] and not acc, v
    assert "torchrun record" not in v["fix"], v


def test_a_pipelines_helper_script_is_no_rank(tmp_path):
    v, acc = verdict_accused(tmp_path, _PREP)
    assert v["culprits"] == [] and not acc, v


def test_the_same_helper_killed_is_no_rank_either(tmp_path):
    killed = _PREP.replace("returned non-zero exit status 1.", "died with <Signals.SIGKILL: 9>.")
    v, acc = verdict_accused(tmp_path, killed)
    assert v["culprits"] == [] and not acc, v


def test_the_training_script_killed_stays_rank_0(tmp_path):
    v, acc = corpus_case_verdict(tmp_path, "gpt4all-256-semaphore-leak-then-sigkill")
    assert (v["cause"], v["culprits"]) == ("host_oom", [0]), v


def test_a_training_script_failing_alone_is_rank_0_without_torchrun_advice(tmp_path):
    v, _ = verdict_accused(tmp_path, "Running training...\nsubprocess.CalledProcessError: Command '['python', "
                           "'train.py', '--config', 'c.yaml']' returned non-zero exit status 1.\n")
    assert (v["cause"], v["culprits"]) == ("unknown", [0]), v
    assert "above the CalledProcessError" in v["fix"], v
    assert "torchrun" not in v["fix"] and "launcher then stopped" not in v["summary"], v


def test_a_launchers_raise_of_the_command_keeps_rank_0(tmp_path):
    v, _ = corpus_case_verdict(tmp_path, "kohya-trainer-119-simple-launcher-cut-at-checkpoint-load")
    assert v["culprits"] == [0], v


# --- 9. ProcessGroupNCCL missing ------------------------------------------------------------------------------------
_NO_PG = ("Traceback (most recent call last):\n"
          '  File "C:\\Users\\me\\proj\\train.py", line 12, in <module>\n'
          "    opts = dist.ProcessGroup{b}.Options()\n"
          "AttributeError: module 'torch.distributed' has no attribute 'ProcessGroup{b}'\n")


def test_no_processgroupnccl_says_gloo_on_windows_and_the_cuda_wheel_on_linux(tmp_path):
    v, acc = verdict_accused(tmp_path, _NO_PG.format(b="NCCL"))
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "backend='gloo'" in v["fix"] and "Windows or macOS" in v["fix"], v
    assert "CUDA wheel" in v["fix"] and "official wheel for the platform" not in v["fix"], v


def test_no_processgroupgloo_keeps_the_reinstall_advice(tmp_path):
    v, _ = corpus_case_verdict(tmp_path, "pytorch-33506-macos-no-processgroupgloo")
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "official wheel for the platform" in v["fix"] and "backend='gloo'" not in v["fix"], v


# --- 10. the rendezvous step cut before its error -------------------------------------------------------------------
def test_the_rendezvous_cut_fix_names_no_one_cases_cuda_detail(tmp_path):
    v, acc = corpus_case_verdict(tmp_path, "mmpose-321-dist-train-init-dist-traceback-cut-in-rendezvous")
    assert (v["cause"], v["culprits"]) == ("store_rendezvous", []) and not acc, v
    assert "any early error: its own traceback" in v["fix"], v
    assert "a GPU another process occupies" not in v["fix"], v
    assert "Address already in use" in v["fix"], v


# --- 14. the proxy's and the plugin's teardown WARNs together ------------------------------------------------------
_H = "[1,16]<stdout>:node-2:21:585 [0] "
_PROXY = ("gpu-a3:8120:8177 [1] proxy.cc:1490 NCCL WARN [Service thread] Could not receive type from localRank 1, "
          "res=3, closed=0\n"
          "gpu-a3:8120:8177 [1] proxy.cc:1515 NCCL WARN [Proxy Service 0] Failed to execute operation Close from "
          "rank 0, retcode 3\n")
_PLUGIN = (f"{_H}recv_close:3201 NCCL WARN NET/OFI Attempt to call recv_close with outstanding requests!\n"
           f"{_H}NCCL INFO transport/net.cc:1015 -> 3\n"
           f"{_H}NCCL INFO proxy.cc:984 -> 3\n")
_ABORT = "gpu-a3:8121:8190 [1] NCCL INFO comm 0x5591aa00 rank 0 nranks 4 cudaDev 1 busId 41000 - Abort COMPLETE\n"


def test_both_teardown_warns_share_one_remedy(tmp_path):
    v, acc = verdict_accused(tmp_path, _PROXY + _PLUGIN + _ABORT)
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert "proxy Close at communicator abort/destroy" in v["fix"] and "aws-ofi-nccl closing" in v["fix"], v
    assert v["fix"].count("destroy_process_group before exit") == 1, v
    assert v["fix"].count("NCCL_DEBUG=WARN and read past them") == 1, v
    assert "update NCCL and aws-ofi-nccl" in v["fix"], v


def test_each_teardown_warn_alone_keeps_its_remedy(tmp_path):
    v, _ = verdict_accused(tmp_path, _PROXY + _ABORT)
    assert v["cause"] == "none" and "update NCCL (later releases" in v["fix"], v
    v, _ = verdict_accused(tmp_path, _PLUGIN + _ABORT)
    assert v["cause"] == "none" and "update aws-ofi-nccl (later releases" in v["fix"], v
