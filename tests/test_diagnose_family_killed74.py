"""How diagnose reads the shell's "Killed" of a process whose OWN exception is the line right before it, under the
same rank tag, as round 74's horovod-2907 showed it (Horovod's rank-tagged stderr: "[0]<stderr>:RuntimeError: ..."
then "[0]<stderr>:Killed", exit status 137, the other ranks aborting on gloo's "Connection reset by peer" /
"Connection closed by peer"): that process failed on its own error and was killed on its way out by its launcher --
not the OOM killer -- and the others failed only because it left: early_exit, that rank the culprit, the others its
victims (lead rules A, J). The near shapes -- a bare "Killed" with nothing before it, an exception about memory or a
signal, another rank's exception, an exception with no rank tag, one several lines up -- stay the kill from outside
(host_oom). Paths, messages, ports and ranks are made up."""

from __future__ import annotations

import re

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report

_EXC = "[2]<stderr>:ValueError: batch of 17 samples does not split over 4 replicas at step 310\n"
_KILL = "[2]<stderr>:Killed\n"
_PAIR = "[/opt/src/third_party/gloo/gloo/transport/tcp/pair.cc:{}]"
_REST = (
    "[0]<stderr>:terminate called after throwing an instance of 'gloo::IoException'\n"
    f"[0]<stderr>:  what():  {_PAIR.format(598)} Connection closed by peer [127.0.0.1]:40112\n"
    "[0]<stderr>:Aborted (core dumped)\n"
    "[1]<stderr>:terminate called after throwing an instance of 'gloo::IoException'\n"
    f"[1]<stderr>:  what():  {_PAIR.format(589)} Read error [127.0.0.1]:61220: Connection reset by peer\n"
    "[1]<stderr>:Aborted (core dumped)\n"
    "[3]<stderr>:terminate called after throwing an instance of 'gloo::IoException'\n"
    f"[3]<stderr>:  what():  {_PAIR.format(589)} Read error [127.0.0.1]:61228: Connection reset by peer\n"
    "[3]<stderr>:Aborted (core dumped)\n"
    "\n"
    "Process 2 exit with status code 137.\n"
    "Process 1 exit with status code 134.\n"
    "Process 0 exit with status code 134.\n")


def test_a_rank_killed_right_after_its_own_exception_exited_first(tmp_path):
    """Rank 2 raised, then its "Killed" (status 137); ranks 0, 1, 3 lost their gloo connections to it: rank 2 exited
    first on its own error -- early_exit, rank 2 named, the others not accused, the fix sending to its error."""
    d = _report(tmp_path, _EXC + _KILL + "\n" + _REST)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("early_exit", [2]) and _accused(d) == {2}, v
    assert "rank 2's own error" in v["fix"] and "OOM killer" not in v["fix"], v


def test_the_same_kill_in_mpiruns_tags_and_a_shells_job_line(tmp_path):
    """The same shape in mpirun's "[1,2]<stderr>:" tags and a shell's "line N: PID Killed" record."""
    text = re.sub(r"^\[(\d)\]<", r"[1,\1]<", _EXC + _KILL.replace(
        "Killed", "./run.sh: line 4: 51220 Killed                  python train.py") + "\n" + _REST, flags=re.M)
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("early_exit", [2]) and _accused(d) == {2}, v


def test_a_bare_kill_or_one_after_a_memory_error_is_still_the_oom_killer(tmp_path):
    """Near shapes: the "Killed" with nothing before it, or right after an exception that is itself about memory or a
    signal (a DataLoader worker killed by a signal): the kill from outside, host_oom on rank 2."""
    for i, head in enumerate(("", "[2]<stderr>:RuntimeError: DataLoader worker (pid 8812) is killed by signal: "
                                  "Killed.\n")):
        d = _report(tmp_path, head + _KILL + "\n" + _REST, f"bare{i}.log")
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("host_oom", [2]), (head, v)


def test_an_exception_of_another_rank_untagged_or_further_up_does_not_explain_the_kill(tmp_path):
    """Near shapes: the exception above the "Killed" is another rank's, carries no rank tag (a shared console: whose
    it is the lines do not say), or the process printed on after it: the kill is not read as its own error's end."""
    shapes = (_EXC.replace("[2]", "[1]"), _EXC.replace("[2]<stderr>:", ""),
              _EXC + "".join(f"[2]<stdout>:step {i} loss 0.41\n" for i in range(311, 316)))
    for i, head in enumerate(shapes):
        v = _report(tmp_path, head + _KILL + "\n" + _REST, f"near{i}.log")["verdict"]
        assert v["cause"] == "host_oom", (head, v)


def test_a_pastes_rank_prefix_on_every_line_keeps_the_kill_its_own_errors_end(tmp_path):
    """A paste's "[rank3]: " on every line gives every line one rank, against Horovod's own tags: the launcher's one
    SIGKILL record is still the one "Killed" shown, right after its process's error -- no OOM killer (the cause
    stays early_exit). A second SIGKILL record with no "Killed" of its own is another process killed: host_oom."""
    text = "".join(f"[rank3]: {ln}" if ln.strip() else ln for ln in (_EXC + _KILL + "\n" + _REST).splitlines(True))
    assert _report(tmp_path, text)["verdict"]["cause"] == "early_exit"
    v = _report(tmp_path, _EXC + _KILL + "\n" + _REST + "Process 4 exit with status code 137.\n", "two.log")["verdict"]
    assert (v["cause"], v["culprits"]) == ("host_oom", [4]), v
