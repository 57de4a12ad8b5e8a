"""``ncclDoctor run`` across two real "nodes": one network namespace each (tests/netns.py), one
``ncclDoctor run`` per node around that node's torchrun, gloo over the namespaces' own
interfaces. Rank 1, on node 1, stops issuing collectives; node 0 (the reporting node) must
name rank 1, node 1's address as the network sees it, and its pid. Needs root and
``ip netns``; elsewhere it skips with the reason."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests import netns
from tests.conftest import ROOT, cli_env
from tests.multinode_helpers import free_port

pytestmark = [pytest.mark.netns, pytest.mark.slow]

REASON = netns.skip_reason()
if REASON:
    print(f"skipping netns live tests: {REASON}")
    pytestmark.append(pytest.mark.skip(reason=REASON))

JOB = str(ROOT / "tests" / "fixtures" / "userjobs" / "ddp_loop.py")
COLLECTOR_PORT = 29631  # each namespace has its own port space: a fixed port cannot collide


def test_reporting_node_names_the_culprit_rank_and_node_across_namespaces(tmp_path):
    rdzv = free_port()
    env = {**cli_env(), "GLOO_SOCKET_IFNAME": "eth0"}
    with netns.Cluster(2) as c:
        def node(i: int, extra: list[str]) -> subprocess.Popen:
            # static rendezvous on node 0's address: node i holds rank i
            line = [sys.executable, "-m", "torch.distributed.run", "--nnodes", "2", "--nproc-per-node", "1",
                    "--node-rank", str(i), "--master-addr", c.addr(0), "--master-port", str(rdzv),
                    "--max-restarts", "0", JOB, "--steps", "100000", "--fault", "hang", "--fault-rank", "1",
                    "--fault-step", "8"]
            argv = [sys.executable, "-m", "ncclDoctor", "run", "--out", str(tmp_path / f"node{i}"), *extra, "--", *line]
            return c.popen(i, argv, env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

        leader = node(0, ["--collector-port", str(COLLECTOR_PORT), "--stall-after", "4", "--on-hang", "kill"])
        follower = node(1, ["--report-to", f"{c.addr(0)}:{COLLECTOR_PORT}"])
        _, err = leader.communicate(timeout=400)
        follower.terminate()  # its culprit sleeps for ever: stop it as a scheduler would (SIGTERM, forwarded)
        _, ferr = follower.communicate(timeout=120)
    assert leader.returncode == 4, err[-3000:]
    rep = json.loads((tmp_path / "node0" / "report.json").read_text())
    f = rep["findings"][0]
    assert f["code"] == "LIVE001" and f["ranks"] == [1], rep["findings"]
    assert any(c.addr(1) in n for n in f["nodes"]), f  # the culprit's node, by its address on the network
    v = rep["results"]["live"]["verdicts"][0]
    assert c.addr(1) in v["hosts"]["1"] and c.addr(1) not in v["hosts"]["0"]
    boot = json.loads((tmp_path / "node1" / "live" / "boot.rank1.json").read_text())
    assert v["pids"]["1"] == boot["pid"]  # the remote culprit's pid, from its heartbeat
    assert any("ddp_loop.py" in fr for fr in v["frames"]["1"])
    assert f"rank 1 ({v['hosts']['1']}" in err  # said on the reporting node's terminal
    rep1 = json.loads((tmp_path / "node1" / "report.json").read_text())
    assert not rep1["results"]["live"]["verdicts"], ferr[-2000:]  # the other node judged nothing
    assert "FAULT hang rank 1" in (tmp_path / "node1" / "ranks" / "rank1.log").read_text()  # per-rank tee there
