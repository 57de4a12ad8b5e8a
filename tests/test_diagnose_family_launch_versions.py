"""Launch set-ups and shared installs round 94 showed read by their shape (rules AF (2), AU (2), Q, U (2), X (2)): each
is a set-up every process shares, refused before any worker ran -- config, no rank, nobody innocent -- even where a
launcher's record names the one local rank it saw fail.

- Ray's own version check ("RuntimeError: Version mismatch: The cluster was started with:" then both Ray / Python
  versions) refusing a driver that attaches to a Ray cluster started from another environment: one installed stack
  refusing another for their versions (rule AF (2)'s round-41 sentence), a set-up check before any worker (rule X
  (2); logic-rl-30). The fix restarts the cluster from the job's environment. Not read so: another "Version mismatch"
  message (a loader's own format check) keeps the generic reading, and so does Ray's beside any other failure.
- torch's device-index check given None ("ValueError: Expected a torch.device with a specified index or an integer,
  but got:None"): torch.cuda.set_device(args.local_rank) with a --local_rank the launch never passed (torchrun gives
  LOCAL_RANK in the environment), every worker alike (rules AU (2), U (2), Q; loveda-52, despite torchrun's record of
  local_rank 0). Not read so: the check given another value ("got:cuda", the code's own device string) keeps rule A's
  reading of the record's rank.
- torch.distributed lacking a backend's process-group class ("module 'torch.distributed' has no attribute
  'ProcessGroupGloo'"): a torch build without that backend (rule Q's last sentence, AF (2); pytorch-33506), whose fix
  names the backend's check (dist.is_gloo_available()) and build flags, not a newer torch. Not read so: another
  torch.distributed name missing (DeviceMesh, added in a later release) keeps the older-torch fix.
"""
from __future__ import annotations

from tests.conftest import verdict_accused as _verdict

_RAY = ("Traceback (most recent call last):\n"
        '  File "/w/main.py", line 12, in <module>\n'
        '    ray.init(address="auto")\n'
        "RuntimeError: Version mismatch: The cluster was started with:\n"
        "    Ray: 2.9.0\n    Python: 3.10.12\n"
        "This process on node 10.0.0.5 was started with:\n"
        "    Ray: 2.10.0\n    Python: 3.11.4\n")
_RECORD = ("ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 4242) of "
           "binary: {py}\n")


def _set_device(arg: str, got: str, py: str = "/usr/bin/python3") -> str:
    return ("Traceback (most recent call last):\n"
            '  File "train.py", line 30, in <module>\n'
            f"    torch.cuda.set_device({arg})\n"
            "ValueError: Expected a torch.device with a specified index or an integer, but got:" + got + "\n"
            + _RECORD.format(py=py))


def _lacks(attr: str) -> str:
    return ("Traceback (most recent call last):\n"
            '  File "test_c10d.py", line 90, in test_x\n'
            f"    pg = c10d.{attr}(store, self.rank, self.world_size)\n"
            f"AttributeError: module 'torch.distributed' has no attribute '{attr}'\n"
            "exiting process with exit code: 10\n")


# --- Ray's version check --------------------------------------------------------------------------------------------
def test_ray_refusing_a_driver_of_another_version_is_config_with_the_cluster_restarted(tmp_path):
    v, acc = _verdict(tmp_path, _RAY)
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "ray stop" in v["fix"] and "same Ray version on every node" in v["fix"], v


def test_another_version_mismatch_message_is_not_ray_s(tmp_path):
    v, _ = _verdict(tmp_path, "Traceback (most recent call last):\n"
                              '  File "/w/main.py", line 12, in <module>\n'
                              "    load(ckpt)\n"
                              "RuntimeError: Version mismatch: the checkpoint was saved with format 3, this loader "
                              "reads 2\n")
    assert "ray stop" not in v["fix"] and v["cause"] != "config", v


# --- set_device given None ------------------------------------------------------------------------------------------
def test_set_device_given_a_local_rank_of_none_is_config_despite_the_record(tmp_path):
    v, acc = _verdict(tmp_path, _set_device("args.local_rank", "None"))
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "int(os.environ['LOCAL_RANK'])" in v["fix"] and "Windows" not in v["fix"], v


def test_set_device_of_none_on_a_windows_install_names_gloo(tmp_path):
    v, _ = _verdict(tmp_path, _set_device("self.args.local_rank", "None", py=r"D:\Anaconda3\envs\seg\python.exe"))
    assert v["cause"] == "config" and "gloo backend" in v["fix"], v


def test_set_device_given_a_device_without_index_keeps_the_record_s_rank(tmp_path):
    v, _ = _verdict(tmp_path, _set_device("args.device", "cuda"))
    assert (v["cause"], v["culprits"]) == ("unknown", [0]), v


# --- a backend's process-group class missing from torch.distributed -------------------------------------------------
def test_missing_processgroupgloo_is_a_build_without_gloo(tmp_path):
    v, acc = _verdict(tmp_path, _lacks("ProcessGroupGloo"))
    assert (v["cause"], v["culprits"]) == ("config", []) and not acc, v
    assert "dist.is_gloo_available()" in v["fix"] and "USE_GLOO=1" in v["fix"], v


def test_another_missing_torch_distributed_name_keeps_the_older_torch_fix(tmp_path):
    v, _ = _verdict(tmp_path, _lacks("DeviceMesh"))
    assert v["cause"] == "config" and "is_gloo_available" not in v["fix"], v
    assert "hasattr(torch.distributed, 'DeviceMesh')" in v["fix"], v
