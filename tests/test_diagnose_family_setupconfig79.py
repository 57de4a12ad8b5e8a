"""Start-up settings and installs in round 79.

open-sora-32: one traceback of imports, every frame a module's top level, ending in "ImportError: cannot import name
'CaptionProjection' from 'diffusers.models.embeddings' (/.../site-packages/diffusers/models/embeddings.py)", then
torchrun's record of local rank 0 (exitcode 1). The installed package lacks a name the code imports from it: the code
was written for another version of it, the same install and the same import on every worker -- lead rule AF (2),
round 41's sentence: config, no rank (rule A had named rank 0). Near shapes not read so: a name imported from the
project's own files (no site-packages path), a circular import, and a launcher showing more workers started than
tracebacks (rule A reads its record).

pytorch-lightning-6169: Lightning's MisconfigurationException with its message on the lines under it ("You requested
GPUs: [0, 1]" / "But your machine only has: [0]"): the framework's check that the process sees fewer GPUs than its
settings ask for -- the allocation every task of the sbatch script gets alike, lead rules W, AU (2): config, no rank
(it was an unknown failure). Near shape: an exception with an empty message followed by other words keeps its
reading.

fairscale-782: FairScale ShardedDDP's own assertion "Different devices for the bucket and the param, cannot proceed:
cuda:4 - cpu", one untagged traceback: the reading stays unknown, no rank (lead rules BG (1), BJ (2)), and the fix
now names the parameter device placement (move the whole model to the device before wrapping). Near shape: another
assertion does not get that fix.

cloudai-720: an MPIJob's worker pods whose start command cannot run the ssh server ("/bin/bash: line 1:
/usr/sbin/sshd: No such file or directory"), then the harness's "[ERROR] Job nccl-test failed: Missing success
indicators in stdout.txt: '# Out of bounds values', '# Avg bus bandwidth'": no rank ever ran -- the launch set-up,
lead rule X (2): config, no rank (it was read as nothing failing: the quoted "# Avg bus bandwidth" had been taken for
nccl-tests' own closing line). Near shapes: nccl-tests' real closing line is still the run's completion, and the sshd
line beside a completed run is not read as the failure.

ttt-video-dit-22: rank 0's traceback ends in the model's own assertion, its condition's line shown
("hidden_states.size(1) % self.config.mini_batch_size == 0", then "AssertionError: Sequence len must be multiple of
mini batch size."): a check that names a setting of the config every rank is built with -- lead rules W, BF (3):
config, no rank (it was an unknown failure). Near shape: the same assertion against a literal or a local value (no
config setting named) keeps rule BJ (2)'s reading.

libai-415: two nodes' launch lines, the second setting "cuda_visible_devices=2,4" (and starting fewer processes), then
OneFlow's ncclCommInitRank failing with "unhandled system error": environment names are case-sensitive, so the
lower-case name is a variable nothing reads -- read like a misspelled CUDA_VISIBLE_DEVICES, lead rules V (1), AA (1):
config, no rank; the set-up error after it is its consequence (it was an unknown failure). Near shape: a script's own
option spelled so ("--cuda_visible_devices=2,4") is no environment setting.
"""
from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict

_IMPORT_TB = ("Traceback (most recent call last):\n"
              '  File "/work/repo/train.py", line 29, in <module>\n'
              "    from repo.modeling import Model\n"
              '  File "/work/repo/repo/modeling/blocks.py", line 12, in <module>\n'
              "    from diffusers.models.embeddings import (\n")
_SITE = "/env/lib/python3.10/site-packages/diffusers/models/embeddings.py"
_RECORD = ("[2024-03-05 20:52:11,607] torch.distributed.elastic.multiprocessing.api: [ERROR] failed (exitcode: 1) "
           "local_rank: 0 (pid: 42774) of binary: /env/bin/python\n")


def test_an_installed_package_lacking_an_imported_name_is_the_install_not_the_recorded_rank(tmp_path):
    d = _report(tmp_path, _IMPORT_TB + f"ImportError: cannot import name 'CaptionProjection' from "
                f"'diffusers.models.embeddings' ({_SITE})\n" + _RECORD)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "pip install diffusers==" in v["fix"] and "requirements" in v["fix"], v


def test_a_name_missing_from_the_projects_own_module_keeps_rule_a(tmp_path):
    v = _verdict(tmp_path, _IMPORT_TB.replace("diffusers.models.embeddings", "repo.embeddings")
                 + "ImportError: cannot import name 'CaptionProjection' from 'repo.embeddings' "
                 "(/work/repo/repo/embeddings.py)\n" + _RECORD)
    assert v["cause"] != "config" and v["culprits"] == [0], v


def test_one_traceback_where_the_launcher_started_four_keeps_rule_a(tmp_path):
    v = _verdict(tmp_path, "$ torchrun --nproc_per_node=4 --nnodes=1 train.py\n" + _IMPORT_TB
                 + f"ImportError: cannot import name 'CaptionProjection' from 'diffusers.models.embeddings' ({_SITE})\n"
                 + _RECORD.replace("local_rank: 0", "local_rank: 3"))
    assert v["cause"] != "config" and v["culprits"] == [3], v


def test_a_framework_check_of_fewer_visible_gpus_than_requested_is_the_allocation(tmp_path):
    d = _report(tmp_path, "pytorch_lightning.utilities.exceptions.MisconfigurationException: \n"
                "                You requested GPUs: [0, 1]\n"
                "                But your machine only has: [0]\n")
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "--gres=gpu:N" in v["fix"] and "CUDA_VISIBLE_DEVICES" in v["fix"], v


def test_an_empty_message_followed_by_other_words_keeps_its_reading(tmp_path):
    v = _verdict(tmp_path, "pytorch_lightning.utilities.exceptions.MisconfigurationException: \n"
                 "                The provided lr scheduler is invalid\n")
    assert v["cause"] != "config" and "--gres" not in v["fix"], v


_FS_TB = ('  File "/env/lib/python3.6/site-packages/fairscale/nn/misc/param_bucket.py", line 81, in '
          "_add_param_as_view\n"
          '    ), f"Different devices for the bucket and the param, cannot proceed: {param.device} - '
          '{self.buffer.device}"\n')


def test_a_wrappers_param_device_check_names_the_placement_fix(tmp_path):
    v = _verdict(tmp_path, _FS_TB + "AssertionError: Different devices for the bucket and the param, cannot proceed: "
                 "cuda:4 - cpu\n")
    assert (v["cause"], v["culprits"]) == ("unknown", []), v
    assert "parameter device placement" in v["fix"] and "model.to(device) / .cuda()" in v["fix"], v


def test_another_assertion_gets_no_placement_fix(tmp_path):
    v = _verdict(tmp_path, _FS_TB.replace("Different devices for the bucket and the param", "Bucket is full")
                 + "AssertionError: Bucket is full, cannot proceed\n")
    assert "parameter device placement" not in v["fix"], v


_NO_SSHD = "/bin/bash: line 1: /usr/sbin/sshd: No such file or directory\n"
_MISSING = ("[ERROR] Job nccl-test failed: Missing success indicators in stdout.txt: \n"
            "'# Out of bounds values', '# Avg bus bandwidth'\n")


def test_workers_without_an_ssh_server_are_the_launch_set_up(tmp_path):
    d = _report(tmp_path, _NO_SSHD + _MISSING)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "openssh-server" in v["fix"] and "container image" in v["fix"], v


def test_the_harness_quoting_the_closing_line_is_no_completion(tmp_path):
    v = _verdict(tmp_path, _MISSING)
    assert v["cause"] != "none", v


def test_a_completed_nccl_test_beside_the_sshd_line_is_not_that_failure(tmp_path):
    v = _verdict(tmp_path, _NO_SSHD + "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 21.4035 \n")
    assert v["cause"] == "none", v


def _ttt(cond: str) -> str:
    return ('[rank0]:   File "/home/u/ttt/models/ssm/ttt_layer.py", line 321, in forward\n'
            f"[rank0]:     {cond}\n"
            "[rank0]: AssertionError: Sequence len must be multiple of mini batch size.\n")


def test_a_models_assert_on_a_multiple_of_its_config_setting_is_config(tmp_path):
    d = _report(tmp_path, _ttt("hidden_states.size(1) % self.config.mini_batch_size == 0"))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "mini_batch_size" in v["fix"] and "pad sequence" in v["fix"], v


def test_a_multiple_of_a_literal_names_no_setting(tmp_path):
    v = _verdict(tmp_path, _ttt("hidden_states.size(1) % 64 == 0"))
    assert v["cause"] != "config", v


_GLOG = ("F20221031 10:52:42.193126 106986 eager_nccl_comm_manager.cpp:75] Check failed: ncclCommInitRank(comm, "
         "device_vec.size(), nccl_unique_id, rank) : unhandled system error (2).\n*** Check failure stack trace: ***\n")


def test_a_lower_case_cuda_visible_devices_is_a_variable_nothing_reads(tmp_path):
    d = _report(tmp_path, "node 0: NODE=2 NODE_RANK=0 bash tools/train.sh train_net.py cfg.py 8\n"
                "node 1: cuda_visible_devices=2,4 NODE=2 NODE_RANK=1 bash tools/train.sh train_net.py cfg.py 2\n"
                + _GLOG)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "CUDA_VISIBLE_DEVICES (upper case" in v["fix"], v


def test_a_scripts_own_lower_case_option_is_no_environment_setting(tmp_path):
    v = _verdict(tmp_path, "python train.py --cuda_visible_devices=2,4 --nodes 2\n" + _GLOG)
    assert "upper case" not in v["fix"], v
