"""The RUN rules that no other test made fire, each by a real run that goes wrong the
way the rule describes, asserting the node (and ranks) it names and the exit code.

RUN003/RUN004/RUN005 are in test_faults.py (hang, crash, corrupt data); RUN002 in
test_check.py (nccl on a CPU machine); RUN007 in test_faults (Ctrl-C).
"""

from __future__ import annotations

import json
import socket

import pytest

from ncclDoctor.report.model import Report
from tests.conftest import cli_env, run_cli


def _finding(rep: Report, code: str):
    found = [f for f in rep.findings if f.code == code]
    assert len(found) == 1, [(f.code, f.message) for f in rep.findings]
    return found[0]


def test_run001_torchrun_that_exits_before_any_rank_started(tmp_path):
    """torchrun refuses a log directory that is a file (NotADirectoryError) before it
    starts a worker: the probe could not start (3), and the node is named."""
    out = tmp_path / "run"
    out.mkdir()
    (out / "logs").write_text("not a directory\n")
    p = run_cli("check", "--no-config", "--out", str(out), "-e", "4K", "--timeout", "30", "--json", timeout=180)
    assert p.returncode == 3, p.stderr
    rep = Report.load(out)
    f = _finding(rep, "RUN001")
    assert "before any rank started" in f.message and f.ranks == []
    assert f.nodes == [f"{rep.ranks[0]['addr']} ({socket.gethostname()})"], f.nodes
    assert "is a file" in (out / "torchrun.log").read_text()  # the evidence the message points at
    assert rep.verdict == "error" and json.loads(p.stdout)["exit_code"] == 3


def test_run001_a_node_that_cannot_reach_the_control_store(tmp_path, clean_env, capsys):
    """Another node's ncclDoctor that finds no control store at the endpoint: RUN001 on
    that node, exit 3, through the CLI (--launch-timeout 1: it waits 1 s, not 60 s)."""
    from ncclDoctor.cli import main

    with socket.socket() as s:  # a port nobody listens on (the control store is PORT+1)
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    code = main(
        [
            "check",
            "--no-config",
            "--nodes",
            "2",
            "--rdzv-endpoint",
            f"127.0.0.2:{port - 1}",
            "--local-addr",
            "127.0.0.3",
            "--nproc-per-node",
            "1",
            "-e",
            "4K",
            "--launch-timeout",
            "1",
            "--out",
            str(tmp_path / "r"),
        ]
    )
    assert code == 3
    f = _finding(Report.load(tmp_path / "r"), "RUN001")
    assert f.nodes == [f"127.0.0.3 ({socket.gethostname()})"]
    assert f"cannot reach the control store at 127.0.0.2:{port}" in f.message


def test_run006_a_single_rank_is_named_and_reads_zero_busbw(tmp_path):
    out = tmp_path / "run"
    p = run_cli("check", "--no-config", "--out", str(out), "--nproc-per-node", "1", "-e", "4K", "-n", "2", timeout=180)
    rep = Report.load(out)
    f = _finding(rep, "RUN006")
    assert f.severity.value == "warning" and f.nodes == [f"{rep.ranks[0]['addr']} ({socket.gethostname()})"]
    rows = rep.results["all_reduce"]["rows"]
    assert rep.results["all_reduce"]["world_size"] == 1 and rows
    assert all(r["busbw_gbps"] == 0 and r["algbw_gbps"] > 0 for r in rows)  # bus factor 2(n-1)/n = 0
    assert p.returncode == 0 and rep.verdict == "warn"  # a warning under the default --fail-on error


@pytest.mark.slow
def test_run102_a_node_that_never_started_is_named(tmp_path):
    """--nodes 2 but only one node runs ncclDoctor: the rendezvous never completes (the
    launch deadline: --launch-timeout 10 here, where --timeout alone would wait 60 s) and the
    reporting node says a node is missing, without naming itself as the missing one.
    NCCLDOCTOR_NODE_WAIT_S=1: the reporting node's waits for the node that never started
    (its ranks' last results, its record, its reading of the store: 3 + 10 + 15 s by default,
    coordinate.node_wait) each end after 1 s; the default waits are not what this test is about."""
    from tests.multinode_helpers import free_port

    port = free_port()
    me = f"127.0.0.2 ({socket.gethostname()})"
    p = run_cli(
        "check",
        "--no-config",
        "--nodes",
        "2",
        "--rdzv-endpoint",
        f"127.0.0.2:{port}",
        "--rdzv-id",
        f"t{port}",
        "--local-addr",
        "127.0.0.2",
        "--nproc-per-node",
        "1",
        "-e",
        "4K",
        "--timeout",
        "10",
        "--launch-timeout",
        "10",
        "--out",
        str(tmp_path / "r"),
        env=cli_env(NCCLDOCTOR_NODE_WAIT_S="1"),
        timeout=240,
    )
    assert p.returncode == 3, p.stderr  # the rendezvous never completed: could not run
    rep = Report.load(tmp_path / "r")
    assert rep.results["multinode"]["is_reporting_node"] and rep.results["multinode"]["nodes_reporting"] == [me]
    f = _finding(rep, "RUN102")
    assert f.nodes == ["node never reported (2 of 2)"] and me not in f.nodes
    assert f"1 of 2 nodes reported to the control store at 127.0.0.2:{port + 1} ({me}); 1 never did." == f.message
