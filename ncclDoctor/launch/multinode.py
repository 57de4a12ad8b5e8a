"""Multi-node check: the same ``ncclDoctor check`` on every node, like torchrun.

Usage (one command per node, or once through ``srun --ntasks-per-node=1``)::

    ncclDoctor check --nodes 2 --rdzv-endpoint node01:29500          # on every node
    srun --ntasks-per-node=1 ncclDoctor check                          # SLURM: defaults

Definitions
-----------
rendezvous
    torchrun's own c10d rendezvous at ``--rdzv-endpoint HOST:PORT`` (``--rdzv-id``
    names the job); ncclDoctor writes no rendezvous of its own.
node address
    ``--local-addr``, else the interface named by GLOO_SOCKET_IFNAME /
    NCCL_SOCKET_IFNAME, else the source address that routes to the endpoint
    (``ncclDoctor.facts.network.node_address``). It is passed to torchrun as
    ``--local-addr`` because torchrun's own guess comes from the host name, which is
    wrong in containers and network namespaces. A node is named "address (host)".
reporting node
    The node that hosts the rendezvous: the endpoint is one of its addresses (for a
    loopback endpoint: its ``--local-addr`` is that address) and it could bind the
    control port. It owns the control store, passes ``is_host=1`` to
    torchrun, and writes the full report into its ``--out``. When several ncclDoctor
    processes share the endpoint's host with a routable endpoint, the first to bind the
    control port is the reporting node and the others are ordinary nodes (``is_host=0``).
localhost mode
    Several "nodes" on one machine without namespaces: give each its own loopback
    address, ``--rdzv-endpoint 127.0.0.2:PORT --local-addr 127.0.0.N`` (N = 2, 3, ...);
    Linux routes all of 127/8 to ``lo``. Node identity then reads "127.0.0.3 (host)".
control store
    A TCPStore at the rendezvous port + 1 on the reporting node (``control_port``),
    independent of the collectives under test: every rank's phase markers and results
    go there, so the report is complete even when the data path is broken. Other
    nodes connect to it as clients, read it to supervise their ranks, publish their
    preflight findings under ``cli/<i>`` and read ``report/location`` to say where the
    full report is.

Failure modes: a non-reporting node that cannot reach the control store within
``--timeout`` (or 60 s) exits 3 and says so; a node whose ranks fail at init is named
with the ranks' own error in the reporting node's report.
"""

from __future__ import annotations

import ipaddress
import socket
import time
from dataclasses import dataclass
from typing import Any, Mapping

from ncclDoctor.errors import CouldNotRun, UsageError
from ncclDoctor.facts.network import is_local, node_address
from ncclDoctor.launch import slurm
from ncclDoctor.launch.store import ControlStore, RemoteControl, publish_json, read_json, wait_listening

__all__ = ["Rendezvous", "resolve", "open_control", "publish_json", "read_json", "publish_node", "node_records",
           "signal_finished", "wait_finished"]


@dataclass(frozen=True)
class Rendezvous:
    """What every node is told; whether this node hosts it is decided at launch
    (``open_control``), by binding the control port."""

    nnodes: int
    endpoint: str
    rdzv_id: str
    local_addr: str
    candidate_host: bool  # the endpoint is one of this node's addresses

    @property
    def host(self) -> str:
        return self.endpoint.rpartition(":")[0].strip("[]")

    @property
    def port(self) -> int:
        return int(self.endpoint.rpartition(":")[2])

    @property
    def control_port(self) -> int:
        return self.port + 1


def parse_endpoint(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65535:
        raise UsageError(f"bad --rdzv-endpoint {text!r}: expected HOST:PORT with a port below 65535")
    return host.strip("[]"), int(port)


def resolve(nnodes: int | None, endpoint: str | None, rdzv_id: str | None, local_addr: str | None,
            env: Mapping[str, str]) -> Rendezvous | None:
    """Options, else the SLURM allocation; None for a single-node check."""
    alloc = slurm.allocation(env)
    if nnodes is None:
        nnodes = alloc.nnodes if alloc else 1
    if nnodes < 1:
        raise UsageError(f"--nodes must be at least 1, got {nnodes}")
    if nnodes == 1:
        return None
    if endpoint is None:
        if not (alloc and alloc.hosts):
            raise UsageError(f"--nodes {nnodes} needs --rdzv-endpoint HOST:PORT (the same on every node), "
                             "or a SLURM allocation")
        endpoint = alloc.rdzv_endpoint
    host, _ = parse_endpoint(endpoint)
    rdzv_id = rdzv_id or (alloc.rdzv_id if alloc else "ncclDoctor")
    addr = local_addr or node_address(env, host)
    return Rendezvous(nnodes, endpoint, rdzv_id, addr, candidate_host=hosts_endpoint(host, addr))


def hosts_endpoint(host: str, addr: str) -> bool:
    """Is the rendezvous endpoint on this node? One of its addresses -- except that in
    localhost mode (every node on one machine, each with its own 127.0.0.x as
    ``--local-addr``) a loopback endpoint belongs only to the node with that address."""
    if not is_local(host):
        return False
    try:
        ip = ipaddress.ip_address(socket.gethostbyname(host))
        mine = ipaddress.ip_address(addr)
    except (OSError, ValueError):
        return True
    return not (ip.is_loopback and mine.is_loopback and ip != mine)


def open_control(rdzv: Rendezvous, timeout_s: float, wait_s: float | None = None) -> tuple[ControlStore, bool]:
    """Bind the control store when this node may host the rendezvous, else connect: wait up to
    ``wait_s`` (default ``timeout_s``) for it to listen; ``timeout_s`` is the store client's own.
    Returns the store and whether this node is the reporting node (it bound it)."""
    wait_s = timeout_s if wait_s is None else wait_s
    if rdzv.candidate_host:
        try:
            return ControlStore(port=rdzv.control_port), True
        except RuntimeError:  # another ncclDoctor on this host got there first
            pass
    try:
        wait_listening(rdzv.host, rdzv.control_port, wait_s)
        return RemoteControl(rdzv.host, rdzv.control_port, timeout_s), False
    except (OSError, RuntimeError):
        raise CouldNotRun(
            f"cannot reach the control store at {rdzv.host}:{rdzv.control_port} within {wait_s:.0f} s: "
            "is `ncclDoctor check` running on the rendezvous host, and is that port open?"
        ) from None


def publish_node(ctl: ControlStore, record: dict[str, Any]) -> str | None:
    """A node's own facts and preflight findings, under ``cli/<i>``; the error as text
    when the store is gone (the reporting node then names this node as missing)."""
    try:
        i = ctl.store.add("cli/count", 1)
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"
    return publish_json(ctl, f"cli/{i}", record)


def node_records(ctl: ControlStore, nnodes: int, wait_s: float) -> list[dict[str, Any]]:
    """Wait up to ``wait_s`` for every node's record; return those that arrived."""
    deadline = time.monotonic() + wait_s
    while True:
        try:
            n = ctl.store.add("cli/count", 0)
        except Exception:
            n = 0
        if n >= nnodes or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    return [r for r in (read_json(ctl, f"cli/{i}") for i in range(1, n + 1)) if r]


def signal_finished(ctl: ControlStore) -> str | None:
    """A non-reporting node has read all it needs: the reporting node may close the store.
    The error as text when the reporting node has already gone."""
    try:
        ctl.store.add("cli/finished", 1)
        return None
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"


def wait_finished(ctl: ControlStore, others: int, wait_s: float) -> int:
    """On the reporting node: wait up to ``wait_s`` for ``others`` nodes to finish reading."""
    deadline = time.monotonic() + wait_s
    n = 0
    while time.monotonic() < deadline:
        try:
            n = ctl.store.add("cli/finished", 0)
        except Exception:
            break
        if n >= others:
            break
        time.sleep(0.2)
    return n
