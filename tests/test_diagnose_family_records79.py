"""Launcher failure records read whole in round 79: who a record names, and what it does not.

- skyreels-a2-19 (the round's innocent accused): "[rank3]... destroy_process_group() was not called before program
  exit", torchrun's agent SIGTERMing three pids, then "failed (exitcode: 1) local_rank: 1". torchrun SIGTERMs only the
  workers still running after one failed, so the warning rank was torn down; the record's worker is the lone first
  failure (rules A, AU (4)): unknown, culprit [1], rank 3 not accused. Near shape kept: the same warning and SIGTERMs
  with no record (colossalai-6202) stay early_exit of the warning rank.
- fast-stable-diffusion-122: torchrun's table (rank 0, exit 1, <NO_OTHER_FAILURES>) and below it accelerate's
  traceback ending in "CalledProcessError: Command '['torchrun', ...'": the outer launcher's report of torchrun's exit
  (rule M), neither the worker's exception nor a second failed process; the fix asks for the worker traceback above
  the record (also facechain-13, skyreels-a2-19). Near shape kept: a worker's own CalledProcessError for another
  command (git) is still read as its exception.
- open-animateanyone-108: the agent's "failed (exitcode: 1) local_rank: 0" beside a "Failures:" entry of rank 1 cut
  inside its pid ("exitcode  : 1 (pid: 445"): the exit code is shown, so two processes failed, none first (rules J,
  AM (2)): nobody named. Near shape kept: the entry cut before its exitcode line shows no failure of its own, and
  local_rank 0 stays the lone failure.
- gsplat-910: "[rank0]:[E] ProcessGroupNCCL.cpp:2057] [PG ID 0 ... Rank 0]" wrapped after its tag, then "Process
  group watchdog thread terminated with exception:" and "CUDA error: an illegal memory access ...": the detail is
  rank 0's own error (rules AM (3), BJ (2)). Near shape kept: a head line that does not end in ':' does not carry
  the tag to the line after it.
- real-esrgan-302: the agent's "failed (exitcode: -9) local_rank: 0" beside a table whose root cause, rank 0 /
  local_rank 0, failed alone (<NO_OTHER_FAILURES>) with -6: one worker told by two runs' records, its SIGKILL the
  cause (host_oom), the table its rank (rule A): culprit [0]. Near shape kept: a -9 line for ANOTHER local rank is
  another process, and nobody is named.
- cosmos-predict2.5-72: an abbreviated record ("exitcode: -9", "exitcode  : -9 (SIGKILL)", "received by PID xxx"):
  the exit code without a pid is read -- host_oom -- and entries with no rank, pid nor time are one failure told
  again: no rank named (rules A, T). Near shape kept: the same abbreviated record with exit code 1 is no host_oom.
"""
from __future__ import annotations

from tests.conftest import accused, failure_record
from tests.conftest import diagnose_text as _report

_SIGTERM = ("W0416 07:21:49.790000 37537 site-packages/torch/distributed/elastic/multiprocessing/api.py:897] Sending "
            "process {} closing signal SIGTERM\n")
_PG_WARN = ("[rank{}]:[W416 07:21:47.623504334 ProcessGroupNCCL.cpp:1496] Warning: WARNING: destroy_process_group() "
            "was not called before program exit, which can leak resources. For more info, please see "
            "https://pytorch.org/docs/stable/distributed.html#shutdown (function operator())\n")
_AGENT = ("E0416 07:21:51.019000 37537 site-packages/torch/distributed/elastic/multiprocessing/api.py:869] failed "
          "(exitcode: {code}) local_rank: {lr} (pid: 37540) of binary: /usr/bin/python\n")
def _table(code: int, tb: str) -> str:
    """torchrun's ChildFailedError record whose root cause, rank 0 (pid 918), failed alone (<NO_OTHER_FAILURES>)."""
    return ("torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n" + "=" * 60 + "\ntrain.py FAILED\n"
            + "-" * 60 + "\nFailures:\n  <NO_OTHER_FAILURES>\n" + "-" * 60 + "\nRoot Cause (first observed failure):\n"
            + failure_record(0, 0, 0, code, 918, time="2022-10-10_12:07:42", traceback=tb) + "=" * 60 + "\n")
_HINT = "To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html"


def _sigterms() -> str:
    return "".join(_SIGTERM.format(p) for p in (37539, 37541, 37542))


def test_a_torn_down_ranks_destroy_warning_does_not_outweigh_the_records_failure(tmp_path):
    d = _report(tmp_path, _PG_WARN.format(3) + _sigterms() + _AGENT.format(code=1, lr=1))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", [1]), v
    assert accused(d) == {1}, d
    assert "above the record" in v["fix"], v


def test_the_destroy_warning_with_no_record_stays_an_early_exit(tmp_path):
    v = _report(tmp_path, _PG_WARN.format(3) + _sigterms())["verdict"]
    assert (v["cause"], v["culprits"]) == ("early_exit", [3]), v


_ACCELERATE = """Traceback (most recent call last):
  File "/usr/local/bin/accelerate", line 8, in <module>
    sys.exit(main())
  File "/usr/local/lib/python3.7/dist-packages/accelerate/commands/launch.py", line 450, in multi_gpu_launcher
    raise subprocess.CalledProcessError(returncode=process.returncode, cmd=cmd)
subprocess.CalledProcessError: Command '['torchrun', '--nproc_per_node', '1', '/content/train_dreambooth.py', '--pre
"""


def test_accelerates_error_for_torchrun_is_no_workers_exception(tmp_path):
    d = _report(tmp_path, _table(1, _HINT) + _ACCELERATE)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", [0]), v
    assert "CalledProcessError" not in v["summary"], v
    assert "worker traceback" in v["fix"] and "above the record" in v["fix"], v
    # its whole form ("... returned non-zero exit status 1.") is no second failed process either
    whole = _ACCELERATE.replace("'--pre\n", "'train.py']' returned non-zero exit status 1.\n")
    v = _report(tmp_path, _table(1, _HINT) + whole, "whole.log")["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", [0]), v


def test_a_workers_own_called_process_error_is_still_its_exception(tmp_path):
    own = ("Traceback (most recent call last):\n  File \"train.py\", line 40, in <module>\n"
           "    subprocess.check_call([\"git\", \"lfs\", \"pull\"])\n"
           "subprocess.CalledProcessError: Command '['git', 'lfs', 'pull']'\n")
    v = _report(tmp_path, own + _table(1, _HINT))["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", [0]), v
    assert "Command '['git', 'lfs', 'pull']'" in v["summary"], v


_FAILURES = ("ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 44522) "
             "of binary: /usr/bin/python\n") + """torch.distributed.elastic.multiprocessing.errors.ChildFailedError:
============================================================
train_hack.py FAILED
------------------------------------------------------------
Failures:
[1]:
  time      : 2024-01-24_20:20:12
  host      : 5038d4aa163f
  rank      : 1 (local_rank: 1)
"""


def test_a_failures_entry_cut_inside_its_pid_is_a_second_failure(tmp_path):
    d = _report(tmp_path, _FAILURES + "  exitcode  : 1 (pid: 445\n")
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []), v
    assert not accused(d), d
    assert "run with one process to see the exception" in v["fix"], v


def test_a_failures_entry_cut_before_its_exit_code_leaves_the_lone_failure(tmp_path):
    v = _report(tmp_path, _FAILURES)["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", [0]), v


_TAG = "[rank0]:[E] ProcessGroupNCCL.cpp:2057] [PG ID 0 PG GUID 0(default_pg) Rank 0]\n"
_IMA = "CUDA error: an illegal memory access was encountered\n\nException raised from c10_cuda_\n"


def test_a_wrapped_watchdog_head_carries_its_rank_to_the_cuda_error(tmp_path):
    d = _report(tmp_path, _TAG + "Process group watchdog thread terminated with exception:\n" + _IMA)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("cuda_error", [0]), v


def test_a_head_not_ending_in_a_colon_does_not_carry_the_tag(tmp_path):
    d = _report(tmp_path, _TAG + "Process group watchdog thread terminated with exception: see below\n" + _IMA)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("cuda_error", []), v
    assert not accused(d), d


_KILLED = ("ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -9) local_rank: {} (pid: 71517) of "
           "binary: /usr/bin/python\n")


def test_the_agents_kill_line_of_the_tables_lone_worker_is_that_worker(tmp_path):
    d = _report(tmp_path, _KILLED.format(0) + _table(-6, "Signal 6 (SIGABRT) received by PID 918"))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("host_oom", [0]), v


def test_the_kill_line_keeps_its_worker_when_its_clock_is_later_than_the_tables(tmp_path):
    """A clock before every line (a collector's, or the paste check's timestamps) puts the agent's -9 line years after
    the table's time of the other run: the same local rank on one node is still that worker, not a survivor the agent
    SIGKILLed after the root cause (lone.torn_down)."""
    text = _KILLED.format(0) + _table(-6, "Signal 6 (SIGABRT) received by PID 918")
    stamped = "".join(f"2024-05-01 12:00:{i:02d}.123 {x}\n" for i, x in enumerate(text.splitlines()))
    v = _report(tmp_path, stamped)["verdict"]
    assert (v["cause"], v["culprits"]) == ("host_oom", [0]), v


def test_a_kill_line_of_another_local_rank_names_nobody(tmp_path):
    d = _report(tmp_path, _KILLED.format(1) + _table(-6, "Signal 6 (SIGABRT) received by PID 918"))
    v = d["verdict"]
    assert v["cause"] == "host_oom" and 0 not in accused(d), v


_ABBREVIATED = ("exitcode: {c}\n{s}\n\nsync_model_states] Synchronizing model states from rank 0 to all ranks\n...\n"
                "exitcode: {c}\n{s}\n\nexitcode  : {c}{n}\nerror_file: <N/A>\ntraceback : {t}\n")


def test_an_abbreviated_sigkill_record_is_host_oom_of_no_named_rank(tmp_path):
    d = _report(tmp_path, _ABBREVIATED.format(c=-9, s="Signal 9 (SIGKILL)", n=" (SIGKILL)",
                                              t="Signal 9 (SIGKILL) received by PID xxx"))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("host_oom", []), v
    assert not accused(d), d
    assert "every process" not in v["summary"], v  # one failure told three times, not three dying alike


def test_an_abbreviated_exit_one_record_is_no_host_oom(tmp_path):
    d = _report(tmp_path, _ABBREVIATED.format(c=1, s="", n="", t=_HINT))
    v = d["verdict"]
    assert v["cause"] == "unknown" and not accused(d), v
