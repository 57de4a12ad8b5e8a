"""A launcher's ssh probe of its hosts failing, its command quoted as a list by subprocess (round 77).

DeepSpeed's multi-node runner, given no --master_addr, runs `ssh HOST hostname -I` on the hostfile's first host with
shell=True and a one-item list, so subprocess prints the command in its list's repr ("Command '['ssh HOST hostname
-I']' returned non-zero exit status 255"). Round 77's eva-3 showed it: ssh's own failure (255) before any worker ran is
the launch set-up, config naming no rank (lead rule X (2)), as the plain-string form already read.
"""
from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict

_TB = ("Traceback (most recent call last):\n"
       '  File "/opt/conda/bin/deepspeed", line 6, in <module>\n'
       "    main()\n"
       '  File "/opt/conda/lib/python3.8/site-packages/deepspeed/launcher/runner.py", line 281, in main\n'
       "    result = subprocess.check_output(hostname_cmd, shell=True)\n"
       '  File "/opt/conda/lib/python3.8/subprocess.py", line 512, in run\n'
       "    raise CalledProcessError(retcode, process.args,\n")


def test_the_runners_ssh_probe_quoted_as_a_list_exiting_255_is_config_naming_no_rank(tmp_path):
    for head, cmd in (("ssh: connect to host 10.20.3.7 port 22: No route to host\n", "['ssh 10.20.3.7 hostname -I']"),
                      ("", "['ssh gpu-node-01 hostname -I']"),
                      ("", '["ssh -p 2222 trainer-b hostname -I"]')):
        d = _report(tmp_path, head + _TB + f"subprocess.CalledProcessError: Command '{cmd}' returned non-zero exit "
                    "status 255.\n")
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), (cmd, v)
        assert "passwordless ssh" in v["fix"] and "hostfile" in v["fix"], v


def test_a_remote_commands_own_failure_through_ssh_is_not_the_launch_set_up(tmp_path):
    """Exit status 1 is the remote command's own failure, not ssh's (255): not read as the launcher's reach."""
    v = _verdict(tmp_path, _TB + "subprocess.CalledProcessError: Command '['ssh gpu-node-01 hostname -I']' returned "
                 "non-zero exit status 1.\n")
    assert v["cause"] != "config", v
