"""Process ends round 87 showed read by their shape (rules A, AK (2), AL (2), AU (4), BG (1), BG (2), BG (4), BJ (2),
J, I, T): each is a process that failed with no cause class in its lines, and what an expert reads is who (or that
nobody can be named) and what to do next.

- C++'s "terminate called without an active exception" (std::terminate with no exception in flight: a joinable
  std::thread destroyed, then abort()) with nothing else failing is a native crash whose text names no class: unknown
  (rule AK (2)); two untagged processes printing it alike share their cause (rules J, BG (1)), nobody named
  (trellis2-88). The line was not read at all before (no trigger word). "terminate called after throwing an instance
  of ..." is not read so: it carries the exception, read by its class (a CUDA error stays cuda_error).
- torchrun's ChildFailedError record cut after its "Failures: <NO_OTHER_FAILURES>" list, before the Root Cause block,
  is the record's root cause cut before its rank (rule BG (2)): unknown, culprits "unknown", the fix asks for the Root
  Cause entry (easycontext-11; it was read as the launcher's own traceback cut, a wrong fix). A record whose list
  names an entry, or that shows its Root Cause entry, is not read so.
- A worker's own exception named by torchrun's record, then the agent's "Worker group FAILED. N/M attempts left; will
  restart worker group": the exception is the cause (rules A, AU (4), BG (4), BJ (2)), and the restart is the
  launcher's --max_restarts, which an expert turns off while fixing it (bevformer-47). With no attempt left the note
  is not given.
- mp.spawn's "process 0 terminated with exit code 3221225477" (0xC0000005, Windows' access violation): rule AL (2)
  names process 0, cause unknown; the fix names the remedy an expert gives for a Windows native crash, updating the GPU
  driver and torch (vits-fast-fine-tuning-221).
"""
from __future__ import annotations

from tests.conftest import failure_record
from tests.conftest import verdict_accused as _verdict

# --- std::terminate without an exception ------------------------------------------------------------------------------
_TERM = ("[SPARSE] Conv backend: spconv; Attention backend: xformers\n"
         "[SPARSE] Conv backend: spconv; Attention backend: xformers\n"
         "terminate called without an active exception\n"
         "terminate called without an active exception\n")


def test_two_processes_terminating_without_an_exception_are_unknown_nobody_named(tmp_path):
    v, acc = _verdict(tmp_path, _TERM)
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "gdb backtrace" in v["fix"] and "still joinable" in v["summary"], v


def test_terminate_after_throwing_a_cuda_error_keeps_its_class(tmp_path):
    v, acc = _verdict(tmp_path, "terminate called after throwing an instance of 'c10::Error'\n"
                                "  what():  CUDA error: an illegal memory access was encountered\n")
    assert v["cause"] == "cuda_error" and "std::thread" not in v["summary"], v


# --- torchrun's record cut before its Root Cause ----------------------------------------------------------------------
_CF_HEAD = ("Traceback (most recent call last):\n"
            '  File "/opt/venv/bin/torchrun", line 8, in <module>\n'
            "    sys.exit(main())\n"
            '  File "/opt/venv/lib/python3.10/site-packages/torch/distributed/launcher/api.py", line 263, in '
            "launch_agent\n"
            "    raise ChildFailedError(\n"
            "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
            "============================================================\n"
            "train.py FAILED\n"
            "------------------------------------------------------------\n"
            "Failures:\n")


def test_a_record_cut_after_no_other_failures_names_no_rank(tmp_path):
    v, acc = _verdict(tmp_path, _CF_HEAD + "  <NO_OTHER_FAILURES>\n-------------------------\n")
    assert v["cause"] == "unknown" and not acc, v
    assert "Root Cause" in v["fix"] and "exit code" in v["fix"], v


def test_the_same_cut_record_in_a_fence_names_no_rank(tmp_path):
    v, acc = _verdict(tmp_path, "```\n" + _CF_HEAD + "  <NO_OTHER_FAILURES>\n---------------\n```\n\n")
    assert v["cause"] == "unknown" and not acc and "Root Cause block" in v["summary"], v


def test_the_same_record_with_its_root_cause_entry_names_that_rank(tmp_path):
    text = (_CF_HEAD + "  <NO_OTHER_FAILURES>\n------------------------------------------------------------\n"
            "Root Cause (first observed failure):\n" + failure_record(0, 1, 1, 1, 4242)
            + "============================================================\n")
    v, acc = _verdict(tmp_path, text)
    assert acc == {1}, v


# --- a worker's own exception, then the agent restarting the group ----------------------------------------------------
_ASSERT = ("Traceback (most recent call last):\n"
           '  File "./tools/test.py", line 262, in <module>\n'
           "    main()\n"
           '  File "./tools/test.py", line 240, in main\n'
           "    assert False\n"
           "AssertionError\n"
           "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 32743) of "
           "binary: /opt/venv/bin/python\n"
           "ERROR:torch.distributed.elastic.agent.server.local_elastic_agent:[default] Worker group failed\n")


def test_a_worker_exception_then_a_group_restart_names_max_restarts(tmp_path):
    v, acc = _verdict(tmp_path, _ASSERT + "INFO:torch.distributed.elastic.agent.server.api:[default] Worker group "
                      "FAILED. 3/3 attempts left; will restart worker group\n")
    assert (v["cause"], acc) == ("unknown", {0}), v
    assert "max_restarts=0" in v["fix"] and "AssertionError" in v["fix"], v


def test_no_attempt_left_gives_no_restart_note(tmp_path):
    v, acc = _verdict(tmp_path, _ASSERT + "INFO:torch.distributed.elastic.agent.server.api:[default] Worker group "
                      "FAILED. 0/3 attempts left; will restart worker group\n")
    assert (v["cause"], acc) == ("unknown", {0}), v
    assert "max_restarts=0" not in v["fix"], v


# --- mp.spawn's child ended by a Windows access violation -------------------------------------------------------------
def test_spawns_child_access_violation_names_process_0_and_the_driver_update(tmp_path):
    text = ("Traceback (most recent call last):\n"
            '  File "C:\\repos\\tts\\train.py", line 55, in main\n'
            "    mp.spawn(run, nprocs=n_gpus, args=(n_gpus, hps,))\n"
            '  File "C:\\envs\\tts\\lib\\site-packages\\torch\\multiprocessing\\spawn.py", line 149, in join\n'
            "    raise ProcessExitedException(\n"
            "torch.multiprocessing.spawn.ProcessExitedException: process 0 terminated with exit code 3221225477\n")
    v, acc = _verdict(tmp_path, text)
    assert (v["cause"], acc) == ("unknown", {0}), v
    assert "update GPU driver and torch" in v["fix"] and "0xC0000005" in v["fix"], v
    # Windows chose that status for a native crash: no sys.exit in the child's code to look for
    assert "native crash" in v["fix"] and "sys.exit(" not in v["fix"], v["fix"]

    # near shape: a status the child's code can choose keeps the sys.exit reading
    v, acc = _verdict(tmp_path, text.replace("3221225477", "3"))
    assert (v["cause"], acc) == ("unknown", {0}) and "sys.exit(3)" in v["fix"], v
