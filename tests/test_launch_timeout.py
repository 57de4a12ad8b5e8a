"""``check --launch-timeout``: the launch deadline (every node's torchrun and every rank
started and joined) on its own, whatever ``--timeout`` says. Quick tier: the plan, the
supervisor's deadlines, torchrun's command line and the CLI's usage error, in-process;
the real wait is tests/test_run_rules.py::test_run102_a_node_that_never_started_is_named."""

from __future__ import annotations

import pytest

from ncclDoctor.check import phases
from ncclDoctor.check.launch import launch_spec
from ncclDoctor.check.options import CheckOptions, plan
from ncclDoctor.errors import UsageError
from ncclDoctor.launch.torchrun import torchrun_argv
from tests.conftest import run_cli_here

HOST = {"torch": {}}
MULTI = {"nnodes": 2, "rdzv_endpoint": "127.0.0.2:29400", "local_addr": "127.0.0.2"}


def _plan(tmp_path, **kw):
    return plan(CheckOptions(nproc_per_node=1, backend="gloo", out=str(tmp_path / "r"), **kw), HOST, {})


def _supervised(p) -> dict[str, float]:
    """The deadlines the supervisor gets (check.launch.start)."""
    return phases.deadlines({**phases.sweep_deadlines(p.ops), **dict(p.deadlines)})


def _rdzv_conf(p) -> str:
    [conf] = [a for a in torchrun_argv(launch_spec(p, True), []) if a.startswith("--rdzv-conf=")]
    return conf


@pytest.mark.parametrize("timeout, launch_timeout, launch, others", [
    (None, None, 90.0, 180.0),  # the defaults, unchanged: 90 s launch, 180 s sweep
    (10, None, 60.0, 10.0),  # --timeout alone: launch max(timeout, 60), as before
    (120, None, 120.0, 120.0),
    (10, 5, 5.0, 10.0),  # CI: shorter than the 60 s floor --timeout keeps
    (120, 600, 600.0, 120.0),  # nodes starting minutes apart; the phases keep --timeout's
    (None, 300, 300.0, 180.0),  # alone: only the launch deadline moves
    (None, 2.5, 2.5, 180.0),
])
def test_launch_timeout_sets_the_launch_deadline_whatever_timeout_says(tmp_path, timeout, launch_timeout, launch,
                                                                       others):
    p = _plan(tmp_path, timeout=timeout, launch_timeout=launch_timeout)
    d = _supervised(p)
    assert d["launch"] == launch
    assert d["all_reduce"] == others and d["init"] == (60.0 if timeout is None else float(timeout))
    # report.config records what was given and the deadlines the options set, as for --timeout
    cfg = p.summary(CheckOptions(timeout=timeout, launch_timeout=launch_timeout))
    assert cfg["launch_timeout"] == launch_timeout
    given = timeout is not None or launch_timeout is not None
    assert cfg["deadlines_s"].get("launch") == (launch if given else None)


def test_only_launch_timeout_moves_the_waits_for_other_nodes(tmp_path):
    """torchrun's rendezvous join timeout and a member's wait for the control store: as before
    unless --launch-timeout is given; then the join timeout is later than it (so the supervisor
    decides, never sooner than 60 s) and the wait is as long (tests/test_run_rules.py's RUN001)."""
    assert _rdzv_conf(_plan(tmp_path, **MULTI)).startswith("--rdzv-conf=join_timeout=60,read_timeout=60,")
    assert _rdzv_conf(_plan(tmp_path, timeout=120, **MULTI)).startswith("--rdzv-conf=join_timeout=60,")
    assert _rdzv_conf(_plan(tmp_path, launch_timeout=600, **MULTI)).startswith(
        "--rdzv-conf=join_timeout=630,read_timeout=630,")
    assert _rdzv_conf(_plan(tmp_path, launch_timeout=5)) == "--rdzv-conf=join_timeout=60"  # never shorter
    for kw, wait in [({}, 60.0), ({"timeout": 120}, 120.0), ({"launch_timeout": 5}, 5.0),
                     ({"timeout": 120, "launch_timeout": 600}, 600.0)]:
        p = _plan(tmp_path, **kw, **MULTI)
        assert phases.control_wait_s(dict(p.deadlines), p.launch_timeout_s) == wait, kw


@pytest.mark.parametrize("value", [0, -30, float("nan"), float("inf")])
def test_a_launch_timeout_that_is_not_a_positive_number_is_a_usage_error(tmp_path, value):
    with pytest.raises(UsageError, match="--launch-timeout must be a positive number of seconds"):
        _plan(tmp_path, timeout=10, launch_timeout=value)


@pytest.mark.parametrize("value", ["0", "-5"])
def test_the_cli_says_so_in_one_line_with_exit_2(tmp_path, value):
    proc = run_cli_here("check", "--no-config", "--launch-timeout", value, "--out", str(tmp_path / "r"),
                        timeout=60, cwd=str(tmp_path))
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert f"--launch-timeout must be a positive number of seconds, got {value}" in proc.stderr
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert not (tmp_path / "r" / "torchrun.log").exists()
