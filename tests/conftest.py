"""Shared test helpers. Tests run real torchrun processes on gloo/CPU; nothing of torch
is mocked. Tests that need root or network namespaces skip with a printed reason."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TIER_GUARD = Path(__file__).resolve().parent / "tier_guard"

# Node-id prefixes of the integration tier: each of these starts torchrun (directly or via
# the CLI), a network namespace or Chromium. A whole module, or one test of it.
INTEGRATION = (
    "tests/test_check_ops.py::test_op_all_gives_one_exact_table_per_collective_in_every_view",
    "tests/test_check_ops.py::test_a_hang_inside_a_collective_phase_names_the_rank",
    "tests/test_check_ops.py::test_sendrecv_alone_needs_two_gloo_ranks",
    "tests/test_collectives.py::test_every_collective_is_exact_on_gloo",
    "tests/test_collectives.py::test_a_corrupted_input_is_caught_on_gloo",
    "tests/test_prometheus.py::test_check_writes_one_busbw_series_per_collective_and_size",
    "tests/test_faults.py",
    "tests/test_multinode_localhost.py",
    "tests/test_multinode_netns.py",
    "tests/test_live_netns.py",
    "tests/test_multinode_per_node.py",
    "tests/test_diagnose_fr_live.py",
    "tests/test_diagnose_victim_live.py",  # a real gloo job under torchrun: the rank that never arrived
    # the corpus-wide sweeps (every paste perturbation of every dev case, every launcher format of every case):
    # they grow with the corpus; the quick tier runs the same checks on tests/_corpus.sample
    "tests/test_diagnose_paste.py::test_every_corpus_case_keeps_its_verdict_when_pasted",
    "tests/test_diagnose_variants.py::test_every_corpus_case_scores_the_same_in_every_launcher_format",
    "tests/test_check.py::test_in_process_cli_flags_nonexistent_settings_and_fails_on_warning",
    "tests/test_check.py::test_nccl_on_a_cpu_machine_cannot_run",
    "tests/test_check.py::test_check_reports_rdma_port_health_from_sysfs",
    "tests/test_ci.py::test_exit_1_from_config_file_fail_on_and_ignore",
    "tests/test_ci.py::test_exit_3_could_not_run_is_a_junit_error",
    "tests/test_ci.py::test_exit_4_fault_localized_with_min_busbw_skipped",
    "tests/test_env_cli.py::test_check_lints_every_rank_and_merges_identical_findings",
    "tests/test_monitor.py::test_slow_loader_on_one_rank_is_detected_and_named",
    "tests/test_reference_train.py::test_trainer_learns_on_synthetic_data_under_torchrun",
    "tests/test_sweep.py::test_sweep_",
    "tests/test_sweep.py::test_prefetch_factor_and_persistent_workers_reach_the_dataloader",
    "tests/test_sweep.py::test_max_minutes_bounds_the_sweep_and_reports_the_cut",
    "tests/test_packaging.py",
    "tests/test_process_fork.py",  # torchrun itself, forked (launch.process)
    "tests/test_supervisor.py::test_a_",  # a second client of the generic supervisor, under real torchrun
    "tests/test_preflight.py::test_the_same_nccl_conf_gives_the_same_env_and_net_findings_through_env_and_check",
    "tests/test_budget.py::test_a_",  # the hung and the slow rank under real torchrun (issue 15)
    "tests/test_run_rules.py::test_run001_torchrun_that_exits_before_any_rank_started",
    "tests/test_run_rules.py::test_run006_a_single_rank_is_named_and_reads_zero_busbw",
    "tests/test_run_rules.py::test_run102_a_node_that_never_started_is_named",
    # issue 13: faults applied from outside unmodified jobs (the whole module is torchrun)
    "tests/test_live_outside.py::test_reference_trainer_with_a_slow_rank_names_the_straggler_and_finishes_normally",
    "tests/test_live_outside.py::test_reference_trainer_rank_stopped_from_outside_is_named_frozen",
    "tests/test_live_outside.py::test_reference_trainer_rank_killed_from_outside_is_named_dead_and_the_exit_code_kept",
    "tests/test_live_outside.py::test_rank_killed_while_attach_watches_is_named_dead_without_waiting_for_the_others",
    "tests/test_live_outside.py::test_ctrl_c_typed_on_a_terminal_stops_the_job_and_writes_the_partial_report",
    "tests/test_live_outside.py::test_attach_inject_returns_within_its_deadline_when_gdb_cannot_get_the_gil",
    "tests/test_live_outside.py::test_attach_inject_skips_a_stopped_rank_names_it_and_leaves_the_job_able_to_go_on",
)
# Fixtures that run a real check under torchrun: every test using one is integration.
INTEGRATION_FIXTURES = {"two_rank_run", "run"}  # tests/_reportrun.real_check behind `run`


def cli_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NCCL_", "TORCH_NCCL_", "TORCH_FR_", "GLOO_"))}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.update(extra)
    return env


def run_cli(*args: str, timeout: float = 300, env: dict[str, str] | None = None,
            cwd: str | None = None) -> subprocess.CompletedProcess:
    """Run `python -m ncclDoctor ARGS` as a real subprocess (what a user runs)."""
    return subprocess.run(
        [sys.executable, "-m", "ncclDoctor", *args],
        capture_output=True, text=True, timeout=timeout, env=env or cli_env(), cwd=cwd,
    )


def diagnose_text(tmp_path: Path, text: str, name: str = "job.log") -> dict:
    """``diagnose`` on TEXT written to TMP_PATH/NAME: the report's ``results["diagnose"]`` (the
    family tests' common step; the verdict is its ``["verdict"]``)."""
    from ncclDoctor.diagnose import diagnose

    (tmp_path / name).write_text(text)
    return diagnose([str(tmp_path / name)]).results["diagnose"]


def diagnose_verdict(tmp_path: Path, text: str, name: str = "job.log") -> dict:
    return diagnose_text(tmp_path, text, name)["verdict"]


ACCUSING = ("culprit", "desync", "first_failure")


def accused(d: dict) -> set[int]:
    """The ranks a ``diagnose_text`` result accuses with medium or high confidence: the verdict's
    culprits and those of its accusing conclusions (a victim must never be among them)."""
    v = d["verdict"]
    out = set(v["culprits"]) if v["confidence"] in ("medium", "high") else set()
    return out | {r for k in d["conclusions"] if k["kind"] in ACCUSING and k["confidence"] in ("medium", "high")
                  for r in k["ranks"]}


# --- log-line builders: the generic shapes the diagnose tests write (a test whose wording is the point keeps its
# literal lines) ------------------------------------------------------------------------------------------------
def verdict_accused(tmp_path: Path, text: str) -> tuple[dict, set[int]]:
    """diagnose on one pasted log: its verdict and the ranks it accuses (medium/high confidence)."""
    d = diagnose_text(tmp_path, text)
    return d["verdict"], accused(d)


def corpus_case_verdict(tmp_path: Path, name: str) -> tuple[dict, set[int]]:
    """verdict_accused on a corpus case's input.log (tests/fixtures/corpus/NAME)."""
    return verdict_accused(tmp_path, (Path(__file__).parent / "fixtures" / "corpus" / name / "input.log").read_text())


def watchdog_line(rank: int | None, seq: int | None, op: str, ran_ms: int | str, timeout_ms: int, numel=None,
                  pg: str | None = None, style: str = "2.4", stamp: str = "E102 10:00:00.000000000",
                  at: int = 616) -> str:
    """ProcessGroupNCCL.cpp's watchdog timeout line. STYLE "2.4": torch 2.x's "[rankR]:[STAMP ...cpp:AT]";
    "1.x": torch 1.x's "[E ...cpp:AT]" (no launcher prefix; RANK None: no "[Rank R] " either). NUMEL: None
    (not printed), an int (NumelIn = NumelOut), a pair (NumelIn, NumelOut) or the text itself ("NumelIn=1,
    NumelOut=8"). SEQ None: torch 1.x's line without a SeqNum. PG: the group's words before "Rank R"."""
    head = f"[rank{rank}]:[{stamp} ProcessGroupNCCL.cpp:{at}] " if style == "2.4" else f"[E ProcessGroupNCCL.cpp:{at}] "
    who = "" if rank is None else f"[{pg} Rank {rank}] " if pg else f"[Rank {rank}] "
    if numel is None:
        sizes = ""
    elif isinstance(numel, str):
        sizes = f"{numel}, "
    else:
        ni, no = numel if isinstance(numel, tuple) else (numel, numel)
        sizes = f"NumelIn={ni}, NumelOut={no}, "
    seqnum = "" if seq is None else f"SeqNum={seq}, "
    return (f"{head}{who}Watchdog caught collective operation timeout: WorkNCCL({seqnum}OpType={op}, {sizes}"
            f"Timeout(ms)={timeout_ms}) ran for {ran_ms} milliseconds before timing out.\n")


def failure_record(n: int | None, rank: int, local_rank: int, exitcode: int, pid: int,
                   time: str = "2025-01-02_10:00:00", host: str = "node-a", traceback: str | None = "auto") -> str:
    """One entry of torchrun's ChildFailedError record ("[N]:" then its fields; N None: the entry pasted
    without its header). TRACEBACK: "auto" torch's text for the exit code (a signal's, else the @record
    hint), None no traceback field (a paste cut after error_file), else that text."""
    if traceback == "auto":
        sig = {-9: "SIGKILL", -15: "SIGTERM"}.get(exitcode)
        traceback = (f"Signal {-exitcode} ({sig}) received by PID {pid}" if sig
                     else "To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html")
    return ((f"[{n}]:\n  time      : {time}\n  host      : {host}\n" if n is not None else "")
            + f"  rank      : {rank} (local_rank: {local_rank})\n  exitcode  : {exitcode} (pid: {pid})\n"
            + "  error_file: <N/A>\n" + (f"  traceback : {traceback}\n" if traceback is not None else ""))


def child_failed(entries: str, script: str = "train.py", space: bool = False, end: bool = False) -> str:
    """torchrun's ChildFailedError record around ENTRIES (failure_record's text) as its root cause, no other failures:
    SPACE keeps the blank torch prints after "ChildFailedError:", END the closing rule."""
    rule = "-" * 60 + "\n"
    return (f"torch.distributed.elastic.multiprocessing.errors.ChildFailedError:{' ' if space else ''}\n"
            + "=" * 60 + f"\n{script} FAILED\n" + rule + "Failures:\n  <NO_OTHER_FAILURES>\n" + rule
            + "Root Cause (first observed failure):\n" + entries + ("=" * 60 + "\n" if end else ""))


def nccl_cuda_beside_cut(host: str, pid: int, dev: int, warn_at: str, trail: list[str], rank: int,
                         call: str = "barrier", setup: tuple[str, ...] = ()) -> str:
    """One process's NCCL 'Cuda failure' WARN at WARN_AT (its SETUP lines first), its return-code TRAIL ("file:line"
    -> 1 each), then rank RANK's traceback cut inside dist.CALL() before its error text (lead rule AM (3)'s shape)."""
    p = f"{host}:{pid}:{pid} [{dev}]"
    lines = [f"{p} {x}" for x in setup]
    lines += [f"{p} {warn_at} NCCL WARN Cuda failure 'invalid resource handle'"]
    lines += [f"{p} NCCL INFO {t} -> 1" for t in trail]
    lines += [f"[rank{rank}]: {x}" for x in (
        "Traceback (most recent call last):",
        '  File "/home/u/run.py", line 52, in <module>',
        "    main()",
        '  File "/home/u/run.py", line 31, in main',
        f"    dist.{call}()",
        '  File "/usr/lib/python3/site-packages/torch/distributed/c10d_logger.py", line 83, in wrapper',
        "    return func(*args, **kwargs)",
    )]
    return "\n".join(lines) + "\n"


def nccl_info(host: str, pid: int, dev: int, text: str, tid: int | None = None) -> str:
    """An NCCL_DEBUG=INFO line: "HOST:PID:TID [DEV] NCCL INFO TEXT" (TID defaults to PID: the main thread)."""
    return f"{host}:{pid}:{pid if tid is None else tid} [{dev}] NCCL INFO {text}\n"


class CliTimeout(BaseException):
    """An in-process run past its deadline (a BaseException: main() maps Exception to exit 70)."""


def run_cli_here(*args: str, timeout: float = 300, env: dict[str, str] | None = None,
                 cwd: str | None = None) -> subprocess.CompletedProcess:
    """``ncclDoctor ARGS`` in this process, as `run_cli` runs it in a subprocess: the same
    ``main`` (argument parsing, one-line errors, exit codes) with sys.argv, os.environ (ENV,
    default ``cli_env()``), the working directory, stdout and stderr set for the run, and
    all of them restored after it, the SIGTERM handler too (check and sweep install one).
    No Python and torch start-up per run (4-5 CPU-s each), so tests of the CLI's logic use
    this; the packaging and bad-input tests keep `run_cli`, since a subprocess is what a
    user runs. TIMEOUT is enforced with SIGALRM and raises CliTimeout."""
    from ncclDoctor.cli import main

    saved_env, saved_argv, saved_cwd = dict(os.environ), sys.argv, os.getcwd()
    saved_term, saved_alarm = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGALRM)
    out, err = io.StringIO(), io.StringIO()

    def expire(signum, frame):
        raise CliTimeout(f"ncclDoctor {' '.join(args)}: still running after {timeout:g} s")

    try:
        os.environ.clear()
        os.environ.update(env or cli_env())
        sys.argv = [str(ROOT / "ncclDoctor" / "__main__.py"), *args]
        if cwd:
            os.chdir(cwd)
        signal.signal(signal.SIGALRM, expire)
        signal.setitimer(signal.ITIMER_REAL, timeout)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(args))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, saved_alarm)
        signal.signal(signal.SIGTERM, saved_term)
        os.chdir(saved_cwd)
        sys.argv = saved_argv
        os.environ.clear()
        os.environ.update(saved_env)
    return subprocess.CompletedProcess(["ncclDoctor", *args], code, out.getvalue(), err.getvalue())


@pytest.fixture
def clean_env(monkeypatch):
    """In-process CLI runs read os.environ: drop the distributed settings of the host."""
    for k in list(os.environ):
        if k.startswith(("NCCL_", "TORCH_NCCL_", "TORCH_FR_", "GLOO_")):
            monkeypatch.delenv(k, raising=False)
    return monkeypatch


def _quick_tier(config) -> bool:
    return ("not integration" in (config.getoption("markexpr", "") or "")
            or os.environ.get("NCCLDOCTOR_TEST_TIER") == "quick")


def _interactive_sigint() -> None:
    """The Ctrl-C tests send SIGINT to the CLI as a terminal's keypress does. A shell that starts the suite in the
    background without job control (`nohup ... &`, a script's `&`) hands it SIGINT *ignored*; every child inherits
    that, and Python keeps an inherited SIG_IGN, so the CLI never saw the signal and ran on to its hang deadline
    (exit 4, not 130: session 9's one failure of the ctrl-c test). Give the suite's children the default SIGINT a
    terminal would."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_configure(config):
    _interactive_sigint()
    if not _quick_tier(config):
        return
    log = Path(config.rootpath) / ".pytest_cache" / f"tier-violations-{os.getpid()}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    log.unlink(missing_ok=True)
    os.environ.update(NCCLDOCTOR_TEST_TIER="quick", NCCLDOCTOR_TIER_LOG=str(log))
    os.environ["PYTHONPATH"] = os.pathsep.join([str(TIER_GUARD), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    spec = importlib.util.spec_from_file_location("_ncclDoctor_tier_guard", TIER_GUARD / "sitecustomize.py")
    guard = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(guard)  # installs the hook in this process (NCCLDOCTOR_TEST_TIER is set)
    config._ncclDoctor_tier_log = log


def pytest_collection_modifyitems(config, items):
    for item in items:
        heavy = INTEGRATION_FIXTURES.intersection(getattr(item, "fixturenames", ()))
        if item.nodeid.startswith(INTEGRATION) or heavy or item.get_closest_marker("netns") or item.get_closest_marker(
            "slow"):
            item.add_marker(pytest.mark.integration)


def pytest_sessionfinish(session, exitstatus):
    log = getattr(session.config, "_ncclDoctor_tier_log", None)
    if log is None or not log.exists():
        return
    lines = log.read_text(encoding="utf-8").splitlines()
    if lines:
        print("\n".join(["", "quick-tier guard: these tests started what the quick tier must not:", *lines]))
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


# mp.spawn's record of a child whose traceback is cut inside Lightning's training-epoch loop, down to its run()
# frame: a test appends the loop's code line it stops at (round 95's scvi-tools-2236 shape)
LIGHTNING_SPAWN_CUT = (
    "-- Process 2 terminated with the following error:\n"
    "Traceback (most recent call last):\n"
    '  File "/usr/lib/python3.10/site-packages/torch/multiprocessing/spawn.py", line 69, in _wrap\n'
    "    fn(i, *args)\n"
    '  File "/usr/lib/python3.10/site-packages/lightning/pytorch/trainer/trainer.py", line 1016, in _run_stage\n'
    "    self.fit_loop.run()\n"
    '  File "/usr/lib/python3.10/site-packages/lightning/pytorch/loops/fit_loop.py", line 354, in advance\n'
    "    self.epoch_loop.run(self._data_fetcher)\n"
    '  File "/usr/lib/python3.10/site-packages/lightning/pytorch/loops/training_epoch_loop.py", line 133, in run\n'
)
