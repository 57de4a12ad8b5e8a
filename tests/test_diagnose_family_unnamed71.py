"""Failures whose lines do not say which rank failed (round 71, session 25): torchrun's own traceback ending in a bare
"ChildFailedError:" with the failure record it prints as the message cut off (a worker failed, unnamed: unknown,
nobody named, not 'nothing failed'); torchrun's agent sending its closing SIGTERMs where each worker's Abseil signal
handler ("*** SIGTERM received at time=N on cpu C ***") prints under the agent's line and that line happens to end at
a wrap-like column (the handler's line starts a line of its own, it is never the rest of the one above); and
nccl-tests' / rccl-tests' "Test NCCL failure" under srun -l's task label with no other task shown (a task is one
process that may drive every GPU: no rank named, lead rule AI (2)). Each test reads the shape from lines other than
the corpus cases' own, and a near shape that must NOT be read that way. Pids, paths and hosts are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report

_AGENT_TB = ("Traceback (most recent call last):\n"
             "  File \"/opt/conda/bin/torchrun\", line 33, in <module>\n"
             "    sys.exit(load_entry_point('torch', 'console_scripts', 'torchrun')())\n"
             "  File \"/opt/conda/lib/python3.10/site-packages/torch/distributed/run.py\", line 794, in main\n"
             "    run(args)\n"
             "  File \"/opt/conda/lib/python3.10/site-packages/torch/distributed/launcher/api.py\", line 259, in "
             "launch_agent\n"
             "    raise ChildFailedError(\n")


def test_torchruns_traceback_ending_at_a_bare_child_failed_error_is_a_worker_failure_unnamed(tmp_path):
    """torchrun's own traceback, its last line 'ChildFailedError: ' with nothing after it (the Root Cause table it
    prints as the message is cut from the paste): a worker failed, which one and how is not shown -- unknown, nobody
    named, the fix asking for the record's Root Cause and @record; not 'nothing failed'."""
    for cls in ("torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ", "ChildFailedError:"):
        d = _report(tmp_path, "step 120: loss 1.93\n" + _AGENT_TB + cls + "\n\n")
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), (cls, v)
        assert "Root Cause" in v["fix"] and "@record" in v["fix"], v
        assert "ChildFailedError" in v["summary"], v


def test_a_child_failed_error_followed_by_its_record_is_read_from_the_record(tmp_path):
    """The near shape: the same traceback with torchrun's record after the exception line (Root Cause: rank 1,
    exitcode 1): the record names the rank (rule A), not read as a record cut off."""
    record = ("============================================================\n"
              "train.py FAILED\n"
              "------------------------------------------------------------\n"
              "Failures:\n  <NO_OTHER_FAILURES>\n"
              "------------------------------------------------------------\n"
              "Root Cause (first observed failure):\n[0]:\n"
              "  time      : 2025-03-02_10:11:12\n  host      : trainbox\n"
              "  rank      : 1 (local_rank: 1)\n  exitcode  : 1 (pid: 7712)\n"
              "  error_file: <N/A>\n"
              "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html\n"
              "============================================================\n")
    v = _report(tmp_path, _AGENT_TB + "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
                + record)["verdict"]
    assert v["culprits"] == [1] and "stops before the failure record" not in v["summary"], v


def _closing(pids, handler: bool) -> str:
    out = []
    for i, p in enumerate(pids):
        # padded to one width on purpose: every closing line the same length, as a wrap column would be
        out.append(f"W0414 18:02:11.{i:06d} 139911204 torch/distributed/elastic/multiprocessing/api.py:897] Sending "
                   f"process {p} closing signal SIGTERM")
        if handler:
            out.append(f"*** SIGTERM received at time=1744653731 on cpu {12 + i} ***")
        else:
            out.append(f"rank shutdown {i}")
    return "\n".join(out) + "\n"


def test_abseils_sigterm_line_under_the_agents_closing_line_is_a_line_of_its_own(tmp_path):
    """torchrun's agent SIGTERMs pids 5101, 5103 and 5104 (5102 skipped: it had exited) and each worker's Abseil
    handler prints '*** SIGTERM received at time=...' under the agent's line; the agent's lines are all one length,
    like a hard wrap's column, but the handler's line starts anew: the closing signals are read (a worker failed,
    pid 5102, unnamed -- unknown, nobody named), not one line glued to the next nor 'nothing failed'."""
    d = _report(tmp_path, _closing([5101, 5103, 5104], True) + "PC: @     0x7f2b11c4d87f  (unknown)  recv\n")
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), v
    assert "5102" in v["summary"] and "Root Cause" in v["fix"], v


def test_a_line_of_one_width_followed_by_its_rest_is_still_joined(tmp_path):
    """The near shape: a line cut at the same column whose rest is ordinary text (not a handler's line) is still
    joined as a hard wrap (the input's note says so)."""
    from ncclDoctor.diagnose import ingest
    agent = _closing([5101, 5103], False).splitlines()[0::2]
    rest = "\n".join([agent[0], "and its rest, cut at the column", agent[1], "and the second rest"]) + "\n"
    assert ingest.wrap_width(rest.encode()) == len(agent[0])
    handler = _closing([5101, 5103], True)
    assert ingest.wrap_width(handler.encode()) is None


_TEST_FAIL = ("{label}nid007311: Test NCCL failure /tmp/build/rccl-tests/build/hipify/common.cu.cpp:1108 'unhandled "
              "cuda error (run with NCCL_DEBUG=INFO for details) / '\n"
              "{label} .. nid007311 pid 51220: Test failure /tmp/build/rccl-tests/build/hipify/common.cu.cpp:1582\n")


def test_rccl_tests_cuda_failure_under_a_lone_srun_task_label_names_nobody(tmp_path):
    """rccl-tests under srun -l: task 0's 'Test NCCL failure ... unhandled cuda error' and the test's own unwinding,
    no other task shown: cuda_error, the task label read as no rank (rule AI (2); a lone process, which may drive
    every GPU) -- nobody accused; the host is the test's own."""
    d = _report(tmp_path, _TEST_FAIL.format(label="0: "))
    v = d["verdict"]
    assert v["cause"] == "cuda_error" and not _accused(d) and v["culprits"] == [], v
    assert "NCCL_DEBUG=INFO" in v["fix"], v


def test_a_ranks_own_tag_on_the_same_failure_still_names_it(tmp_path):
    """The near shape: the same failure behind a rank's own '[rank0]:' tag (torchrun's rank prefix, not srun's task
    number) keeps its rank."""
    d = _report(tmp_path, _TEST_FAIL.format(label="[rank0]: "))
    assert d["verdict"]["cause"] == "cuda_error" and d["verdict"]["culprits"] == [0], d["verdict"]
