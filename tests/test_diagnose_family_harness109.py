"""How diagnose reads torch's and libraries' distributed test harnesses (round 109, session 46, fixer f7): torch's
MultiProcessTestCase summary lines ("Process(es) N exited with error code 10", "Process N timed out after S seconds",
"Expected zero exit code but got -11", a child's "Process process N:" over a cut traceback) give the test's remedy; an
uncaught gloo::IoException (terminate called) asks for a torch/gloo that propagates pair errors; gloo's pair.cc close
site cut inside its first words under ProcessGroupGloo's constructor is set-up; ProcessGroupNCCL's bare "preparing to
dump debug info" is a failure's Flight Recorder dump, not chatter; a lone first-collective timeout asks for the other
ranks' earlier exit; accelerate test's own script failing on every rank asks for accelerate's config. Each test reads
the shape from lines other than the case's own (other processes, numbers, paths, test names) and a near shape that
keeps its old reading. Paths, pids and test names are made up."""

from __future__ import annotations

from ncclDoctor.diagnose import generic
from ncclDoctor.diagnose import signatures as S
from tests.conftest import verdict_accused

_CD = "/usr/lib/python3.9/site-packages/torch/testing/_internal/common_distributed.py"


def _harness_tb(check: str, message: str, stamp: str = "") -> str:
    return "".join(f"{stamp}{line}\n" for line in (
        "=" * 70,
        "ERROR: test_all_reduce_sum_twice (__main__.SomeDistTest)",
        "-" * 70,
        "Traceback (most recent call last):",
        f'  File "{_CD}", line 311, in wrapper',
        "    self._join_processes(fn)",
        f'  File "{_CD}", line 498, in _join_processes',
        f"    self.{check}(elapsed_time)",
        f'  File "{_CD}", line 541, in {check}',
        "    raise RuntimeError(error)",
        message))


# --- torch's MultiProcessTestCase: its summary lines name no rank; the fix is the test's ------------------------------
def test_harness_error_code_10_gives_the_tests_remedy(tmp_path):
    """Rule CJ (3): 'Processes 2 exited with error code 10' names nobody (unknown, no culprit); the fix asks for the
    process's own traceback and the test rerun alone with TORCH_DISTRIBUTED_DEBUG=DETAIL."""
    v, acc = verdict_accused(tmp_path, _harness_tb("_check_return_codes",
                                                   "RuntimeError: Processes 2 exited with error code 10", "11:02:03 "))
    assert v["cause"] == "unknown" and not acc and v["culprits"] == [], (v, acc)
    assert "rerun the test alone with TORCH_DISTRIBUTED_DEBUG=DETAIL" in v["fix"], v
    assert "skip/disable the flaky test" in v["fix"], v


def test_harness_timed_out_gives_the_stacks_before_the_limit(tmp_path):
    """Rule BA (1): 'Process 3 timed out after 250.4 seconds' (the harness's own limit) names nobody; the fix asks for
    the processes' stacks before the harness timeout."""
    v, acc = verdict_accused(tmp_path, _harness_tb(
        "_check_no_test_errors", "RuntimeError: Process 3 timed out after 250.41 seconds"))
    assert v["cause"] == "unknown" and not acc, (v, acc)
    assert "dump stacks of the test processes (py-spy) before the harness timeout" in v["fix"], v
    assert "TORCH_DISTRIBUTED_DEBUG=DETAIL" in v["fix"], v


def test_harness_sigsegv_asks_for_the_segfaults_backtrace(tmp_path):
    """'Expected zero exit code but got -11' then the next test's traceback cut inside the harness's frames: every
    process died by SIGSEGV (rule J, nobody); the fix asks for the segfault's backtrace."""
    text = "".join(f"Dec 01 10:00:00 {line}\n" for line in (
        f'  File "{_CD}", line 470, in _check_return_codes',
        '    msg="Expected zero exit code but got {}".format(first_process.exitcode)',
        "AssertionError: False is not true : Expected zero exit code but got -11",
        "",
        "=" * 70,
        "FAIL [1.204s]: test_all_gather_cuda (__main__.TestDistBackendWithSpawn)",
        "-" * 70,
        "Traceback (most recent call last):",
        f'  File "{_CD}", line 290, in wrapper',
        "    self._join_processes(fn)",
        f'  File "{_CD}", line 401, in _join_processes',
        "    self._check_return_codes(elapsed_time)",
        f'  File "{_CD}", line 470, in _check_return_codes'))
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "unknown" and not acc and v["culprits"] == [], (v, acc)
    assert "get a backtrace of the segfault (gdb / core dump, faulthandler" in v["fix"], v
    assert "check the NCCL / CUDA / driver versions the build links against" in v["fix"], v


def test_harness_child_header_over_a_cut_traceback_gives_the_tests_remedy(tmp_path):
    """The harness's child 'Process process 1:' then a traceback cut at its header: nobody (rules BS (4), AU (1)); the
    fix asks for the other process's output and the test's requirements on that platform."""
    text = ("INFO:torch.testing._internal.common_distributed:Started process 0 with pid 4410\n"
            "INFO:torch.testing._internal.common_distributed:Started process 1 with pid 4411\n"
            "INFO:torch.distributed.distributed_c10d:Rank 1: Completed store-based barrier for key:"
            "store_based_barrier_key:1 with 2 nodes.\n"
            "Process process 1:\n"
            "Traceback (most recent call last):\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "unknown" and not acc, (v, acc)
    assert "check the test's requirements on this platform (GPU count, backend, skip decorators)" in v["fix"], v
    assert "check the other process's output for its own error or a hang" in v["fix"], v


def test_a_cut_header_without_the_harness_keeps_its_fix(tmp_path):
    """Near shape: a script's own traceback cut at its header, no harness header above it: its old fix, no test
    words."""
    text = ("INFO:torch.distributed.distributed_c10d:Rank 1: Completed store-based barrier for key:"
            "store_based_barrier_key:1 with 2 nodes.\n"
            "Traceback (most recent call last):\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "unknown" and not acc, (v, acc)
    assert "Paste the full traceback" in v["fix"] and "MultiProcessTestCase" not in v["fix"], v
    from ncclDoctor.diagnose.verdict import harness  # the post-step that adds the test's words where the header is

    assert harness.HARNESS_FIX.strip() not in v["fix"], v


def test_harness_lines_are_read_by_the_pattern_only():
    """The harness's summary lines, not a launcher's own words about a process."""
    from ncclDoctor.diagnose.verdict import harness

    r = harness._R_HARNESS_LINE
    assert r.search("RuntimeError: Processes 0, 3 exited with error code 10")
    assert r.search("RuntimeError: Process 12 timed out after 99.5 seconds")
    assert not r.search("torch.multiprocessing.spawn.ProcessExitedException: process 1 terminated with exit code 1")
    assert not r.search("Process 2 exit with status code 137.")


# --- a gloo IoException nothing caught --------------------------------------------------------------------------------
def test_gloo_ioexception_terminate_asks_for_pair_errors_propagated(tmp_path):
    """Rule U (4): a gloo pair reset by its peer mid-run is early_exit with nobody named; with the IoException
    uncaught (terminate called, then Aborted) the fix asks for a torch/gloo that propagates pair errors."""
    text = ("Mar 02 01:00:00 [ RUN      ] ProcessGroupGlooTest.testAllreduceKilledPeer\n"
            "Mar 02 01:00:00 terminate called after throwing an instance of 'gloo::IoException'\n"
            "Mar 02 01:00:00   what():  [/build/third_party/gloo/gloo/transport/tcp/pair.cc:401] writev "
            "[127.0.0.1]:40022: Connection reset by peer\n"
            "Mar 02 01:00:01 run.sh: line 12:  8812 Aborted                 (core dumped) build/bin/PgTest\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "early_exit" and not acc, (v, acc)
    assert "upgrade torch/gloo to a release where pair errors are propagated to the waiting op" in v["fix"], v


def test_gloo_reset_caught_keeps_its_fix(tmp_path):
    """Near shape: the same reset raised as a Python RuntimeError (caught and re-raised by the bindings): the peer is
    still gone, and no terminate words are added."""
    text = ("RuntimeError: [/build/third_party/gloo/gloo/transport/tcp/pair.cc:401] writev [127.0.0.1]:40022: "
            "Connection reset by peer\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "early_exit" and not acc, (v, acc)
    from ncclDoctor.diagnose.verdict import harness

    assert harness.GLOO_TERMINATE_FIX.strip() not in v["fix"], v
    assert "Find the peer's own error" in v["fix"], v
    assert not harness._R_GLOO_TERMINATE.search(text)
    assert harness._R_GLOO_TERMINATE.search("terminate called after throwing an instance of 'gloo::IoException'")


# --- gloo's close site cut inside its message, under ProcessGroupGloo's constructor -----------------------------------
def _ctor_close(tail: str) -> str:
    return ("RuntimeError: Process 1 exited with error code 10 and exception:\n"
            "Traceback (most recent call last):\n"
            f'  File "{_CD}", line 510, in run_test\n'
            "    getattr(self, test_name)()\n"
            '  File "distributed/test_c10d_gloo.py", line 880, in test_broadcast_checks\n'
            "    pg = c10d.ProcessGroupGloo(store, self.rank, self.world_size, self.opts())\n"
            f"RuntimeError: [/ci/workspace/third_party/gloo/gloo/transport/tcp/pair.cc:598] {tail}\n")


def test_gloo_close_site_cut_in_its_words_under_the_ctor_is_setup(tmp_path):
    """Rule BG (3): 'pair.cc:598] Connection cl' is gloo's close read by its site; under ProcessGroupGloo's
    constructor it is set-up (rules L, O): network_setup, nobody; the fix says to synchronize after creation."""
    v, acc = verdict_accused(tmp_path, _ctor_close("Connection cl"))
    assert v["cause"] == "network_setup" and not acc and v["culprits"] == [], (v, acc)
    assert "synchronize all ranks after process-group creation before any rank exits" in v["fix"], v


def test_other_words_after_the_close_site_are_not_a_close(tmp_path):
    """Near shape: other words after the site (not the start of 'Connection closed by peer') are not read as the
    close: the pattern gives them as the rest, which the reader refuses."""
    m = S.R_GLOO_PAIR_CUT.search("RuntimeError: [/x/gloo/transport/tcp/pair.cc:598] Read erro")
    assert m is not None and m.group("rest") == "Read erro"
    v, acc = verdict_accused(tmp_path, _ctor_close("Read erro"))
    assert v["cause"] != "network_setup" and not acc, (v, acc)
    v, acc = verdict_accused(tmp_path, _ctor_close("Connection closed by peer [127.0.0.1]:4111"))
    assert v["cause"] == "network_setup", v


# --- ProcessGroupNCCL's Flight Recorder dump start alone --------------------------------------------------------------
def test_fr_dump_start_alone_is_a_failure_nobody_named(tmp_path):
    """Rule AB (2): rank 3's 'ProcessGroupNCCL preparing to dump debug info.' and a profiler plugin's lines, nothing
    else: something failed (not none), nobody named; the fix asks for what triggered the dump and the dump itself."""
    text = ("worker/3 [3]:E1103 08:00:01.100200 5511 ProcessGroupNCCL.cpp:1402] [PG ID 0 PG GUID 0(default_pg) Rank 3] "
            "ProcessGroupNCCL preparing to dump debug info.\n"
            "worker/3 [3]:I1103 08:00:01.100300 5511 ProcessGroupNCCL.cpp:401] NCCL_PROFILER_PLUGIN: "
            "/opt/plugins/libnccl_prof.so\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "unknown" and not acc and v["culprits"] == [], (v, acc)
    assert "look earlier in every rank's log for the collective timeout, exception or desync report" in v["fix"], v
    assert generic.R_FAILURE_WORD.search("ProcessGroupNCCL preparing to dump debug info. Include stack trace: 1")


def test_a_profiler_plugin_line_alone_is_still_none(tmp_path):
    """Near shape: the profiler plugin's INFO line alone shows no failure: none, as before."""
    text = ("worker/3 [3]:I1103 08:00:01.100300 5511 ProcessGroupNCCL.cpp:401] NCCL_PROFILER_PLUGIN: "
            "/opt/plugins/libnccl_prof.so\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "none" and not acc, v
    assert not generic.R_FAILURE_WORD.search("NCCL_PROFILER_PLUGIN: /opt/plugins/libnccl_prof.so")
    assert generic.R_FAILURE_WORD.search("[PG ID 0 Rank 3] ProcessGroupNCCL preparing to dump debug info.")


# --- a lone first-collective timeout ----------------------------------------------------------------------------------
def test_lone_first_broadcast_timeout_asks_for_the_other_ranks_exit(tmp_path):
    """Rules H, B/E: rank 2's watchdog timeout in its group's first collective (SeqNum=1): rank_missing, rank 2 a
    victim; the fix asks for the other ranks' earlier exception or exit."""
    text = ("[Rank 2] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=BROADCAST, NumelIn=8, "
            "NumelOut=8, Timeout(ms)=30000) ran for 30021 milliseconds before timing out.\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "rank_missing" and not acc, (v, acc)
    assert "check the other ranks' logs for an earlier exception or exit" in v["fix"], v


# --- accelerate test's own script, every rank exit 1 ------------------------------------------------------------------
def _accel_record(title: str) -> str:
    text = ("stderr: torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n"
            "stderr: ============================================================\n"
            f"stderr: {title} FAILED\n"
            "stderr: ------------------------------------------------------------\n"
            "stderr: Failures:\n")
    for r in (1, 2):
        text += (f"stderr: [{r}]:\n"
                 "stderr:   time      : 2025-01-09_10:11:12\n"
                 "stderr:   host      : box-a\n"
                 f"stderr:   rank      : {r} (local_rank: {r})\n"
                 f"stderr:   exitcode  : 1 (pid: {700 + r})\n"
                 "stderr:   error_file: <N/A>\n"
                 "stderr:   traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html\n")
    return text + ("stderr: ------------------------------------------------------------\n"
                   "stderr: Root Cause (first observed failure):\n"
                   "stderr: [0]:\n")


def test_accelerate_tests_script_failing_everywhere_asks_for_accelerates_config(tmp_path):
    """Rule J: every worker exits 1 alike (nobody); the record's title is accelerate test's own script, so the fix
    asks for accelerate env / accelerate config's distributed_type and a one-process accelerate test."""
    v, acc = verdict_accused(tmp_path, _accel_record(
        "/home/u/venv/lib/python3.11/site-packages/accelerate/test_utils/scripts/test_script.py"))
    assert v["cause"] == "unknown" and not acc and v["culprits"] == [], (v, acc)
    assert "accelerate env / accelerate config: distributed_type" in v["fix"], v
    assert "run accelerate test with one process" in v["fix"], v


def test_another_projects_test_script_keeps_the_shared_fix(tmp_path):
    """Near shape: the same record for a project's own test_script.py: the shared failure's fix, no accelerate
    words."""
    v, acc = verdict_accused(tmp_path, _accel_record("/work/proj/tests/test_script.py"))
    assert v["cause"] == "unknown" and not acc, (v, acc)
    assert "Every rank failed the same way" in v["fix"] and "accelerate test" not in v["fix"], v
    assert S.R_ACCEL_TEST_TITLE.search("/x/accelerate/test_utils/scripts/test_script.py FAILED")
