"""Run one `ncclDoctor check --nodes N` per node, as on a cluster, and read the reports."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from tests.conftest import cli_env

# Small and quick: tiny sweep, small structure messages, short deadlines.
FAST = ["--nproc-per-node", "1", "-b", "4K", "-e", "16K", "-w", "1", "-n", "3", "--structure-bytes", "256K",
        "--timeout", "30"]


@dataclass
class NodeRun:
    index: int
    addr: str
    returncode: int
    stdout: str
    stderr: str
    report: dict


def free_port() -> int:
    """A rendezvous port whose next port (the control store's) is free too: the kernel
    picks PORT by binding port 0, so parallel test runs do not draw the same one."""
    for _ in range(200):
        with socket.socket() as a, socket.socket() as b:
            a.bind(("", 0))
            port = a.getsockname()[1]
            if port >= 65535:
                continue
            try:
                b.bind(("", port + 1))
            except OSError:
                continue
            return port
    raise RuntimeError("no free pair of adjacent ports")


def run_nodes(n: int, start, addr, tmp: Path, extra: list[str] | None = None, envs: dict[int, dict] | None = None,
              endpoint_port: int | None = None, timeout: float = 240, fast: bool = True) -> list[NodeRun]:
    """``start(i, argv, env)`` launches node i (in a namespace or plainly); returns every node's result.
    ``fast=False``: the check's default options (only --nodes, the endpoint, the id, --out)."""
    port = endpoint_port or free_port()
    procs = []
    for i in range(n):
        argv = [sys.executable, "-m", "ncclDoctor", "check", "--nodes", str(n), "--rdzv-endpoint", f"{addr(0)}:{port}",
                "--rdzv-id", f"t{port}", "--out", str(tmp / f"node{i}"), *(FAST if fast else []), *(extra or [])]
        env = cli_env(**(envs or {}).get(i, {}))
        procs.append(start(i, argv, env))
    deadline = time.monotonic() + timeout
    runs = []
    for i, p in enumerate(procs):
        try:
            out, err = p.communicate(timeout=max(1.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            p.kill()
            out, err = p.communicate()
            raise AssertionError(f"node {i} did not finish within {timeout} s: {err[-3000:]}") from None
        rp = tmp / f"node{i}" / "report.json"
        report = json.loads(rp.read_text()) if rp.exists() else {}
        runs.append(NodeRun(i, addr(i), p.returncode, out, err, report))
    return runs


def reporting(runs: list[NodeRun]) -> NodeRun:
    hosts = [r for r in runs if r.report.get("results", {}).get("multinode", {}).get("is_reporting_node")]
    assert len(hosts) == 1, [(r.index, r.returncode, r.stderr[-2000:]) for r in runs]
    return hosts[0]


def codes(report: dict, prefix: str = "") -> list[str]:
    return sorted(f["code"] for f in report.get("findings", []) if f["code"].startswith(prefix))


def named(report: dict, prefix: str) -> set[str]:
    return {n for f in report.get("findings", []) if f["code"].startswith(prefix) for n in f["nodes"]}
