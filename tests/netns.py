"""Network namespaces as nodes: N namespaces joined by a Linux bridge, one per "node".

    with Cluster(3) as c:                 # needs root and `ip netns`
        c.throttle(2, "20mbit")           # tc tbf on node 2's link, both directions
        procs = [c.popen(i, [...]) for i in range(3)]

Each namespace has ``lo`` up and one veth ``eth0`` with address ``10.77.0.(i+1)/24`` on a
bridge of its own; the host has no address on that bridge, so no traffic leaves the
test's private network and parallel runs (unique names per run) do not collide. Teardown
always runs, even when setup fails half-way: it kills what is still running in the
namespaces (only processes this fixture started there), deletes the namespaces (which
deletes their veths) and the bridge.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
import uuid

SUBNET = "10.77.0"


def skip_reason() -> str | None:
    """Why netns tests cannot run here, or None."""
    if os.geteuid() != 0:
        return "needs root to create network namespaces (run as root, as CI does)"
    if not shutil.which("ip") or not shutil.which("tc"):
        return "needs iproute2 (`ip`, `tc`)"
    probe = f"ndprobe{uuid.uuid4().hex[:6]}"
    r = subprocess.run(["ip", "netns", "add", probe], capture_output=True, text=True)
    if r.returncode != 0:
        return f"`ip netns add` failed: {r.stderr.strip()}"
    subprocess.run(["ip", "netns", "del", probe], capture_output=True)
    return None


def sh(*argv: str) -> None:
    r = subprocess.run(list(argv), capture_output=True, text=True, timeout=30)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed: {r.stderr.strip()}")


class Cluster:
    def __init__(self, n: int):
        self.n = n
        self.tag = uuid.uuid4().hex[:5]  # interface names must stay under 16 characters
        self.bridge = f"ndbr{self.tag}"
        self.ns = [f"nd{self.tag}n{i}" for i in range(n)]
        self.procs: list[subprocess.Popen] = []

    def addr(self, i: int) -> str:
        return f"{SUBNET}.{i + 1}"

    def __enter__(self) -> Cluster:
        try:
            self._setup()
        except BaseException:
            self.teardown()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.teardown()

    def _setup(self) -> None:
        sh("ip", "link", "add", self.bridge, "type", "bridge")
        sh("ip", "link", "set", self.bridge, "up")
        for i, ns in enumerate(self.ns):
            host_end, node_end = f"nd{self.tag}h{i}", f"nd{self.tag}v{i}"
            sh("ip", "netns", "add", ns)
            sh("ip", "link", "add", host_end, "type", "veth", "peer", "name", node_end)
            sh("ip", "link", "set", host_end, "master", self.bridge)
            sh("ip", "link", "set", host_end, "up")
            sh("ip", "link", "set", node_end, "netns", ns)
            sh("ip", "-n", ns, "link", "set", node_end, "name", "eth0")
            sh("ip", "-n", ns, "addr", "add", f"{self.addr(i)}/24", "dev", "eth0")
            sh("ip", "-n", ns, "link", "set", "eth0", "up")
            sh("ip", "-n", ns, "link", "set", "lo", "up")

    def throttle(self, i: int, rate: str = "20mbit") -> None:
        """Slow node i's link both ways with a token bucket (netem is not available here)."""
        tbf = ["root", "tbf", "rate", rate, "burst", "32kbit", "latency", "400ms"]
        sh("tc", "qdisc", "add", "dev", f"nd{self.tag}h{i}", *tbf)
        sh("ip", "netns", "exec", self.ns[i], "tc", "qdisc", "add", "dev", "eth0", *tbf)

    def popen(self, i: int, argv: list[str], env: dict[str, str], **kw) -> subprocess.Popen:
        p = subprocess.Popen(["ip", "netns", "exec", self.ns[i], *argv], env=env, start_new_session=True, **kw)
        self.procs.append(p)
        return p

    def teardown(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                try:
                    os.killpg(p.pid, signal.SIGKILL)  # the session this fixture started
                except ProcessLookupError:
                    pass
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
        for ns in self.ns:
            r = subprocess.run(["ip", "netns", "pids", ns], capture_output=True, text=True)
            for pid in r.stdout.split():  # stragglers of our own runs (torchrun workers)
                try:
                    os.kill(int(pid), signal.SIGKILL)
                except (ProcessLookupError, ValueError):
                    pass
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)
        subprocess.run(["ip", "link", "del", self.bridge], capture_output=True)
        time.sleep(0.1)
