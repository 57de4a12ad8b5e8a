"""Which address identifies this node.

Node identity is host name *and* address: containers and network namespaces share host
names. The address is, in order: the interface named by GLOO_SOCKET_IFNAME /
NCCL_SOCKET_IFNAME (first exact name that exists), the source address the kernel
would use to reach the rendezvous endpoint, the host name's address if it is not
loopback, the first non-loopback interface that is up, and finally 127.0.0.1.
"""

from __future__ import annotations

import ipaddress
import socket
from typing import Mapping

import psutil


def interface_ipv4(name: str) -> str | None:
    for a in psutil.net_if_addrs().get(name, []):
        if a.family == socket.AF_INET:
            return a.address
    return None


def route_source(host: str, port: int = 9) -> str | None:
    """The local address that routes to ``host``. A UDP connect sends no packet."""
    try:
        infos = socket.getaddrinfo(host, port, socket.AF_INET, socket.SOCK_DGRAM)
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(infos[0][4])
            return s.getsockname()[0]
    except OSError:
        return None


def local_addresses() -> set[str]:
    out = set()
    for addrs in psutil.net_if_addrs().values():
        for a in addrs:
            if a.family in (socket.AF_INET, socket.AF_INET6):
                out.add(a.address.split("%")[0])
    return out


def is_local(host: str) -> bool:
    try:
        infos = socket.getaddrinfo(host, None)
    except OSError:
        return False
    mine = local_addresses()
    for info in infos:
        addr = info[4][0]
        if addr in mine or ipaddress.ip_address(addr).is_loopback:
            return True
    return False


def node_address(env: Mapping[str, str], endpoint_host: str | None = None) -> str:
    for var in ("GLOO_SOCKET_IFNAME", "NCCL_SOCKET_IFNAME"):
        for name in env.get(var, "").lstrip("=").split(","):
            name = name.strip()
            if name and not name.startswith("^"):
                addr = interface_ipv4(name)
                if addr:
                    return addr
    if endpoint_host:
        addr = route_source(endpoint_host)
        if addr:
            return addr
    try:
        addr = socket.gethostbyname(socket.gethostname())
        if not ipaddress.ip_address(addr).is_loopback:
            return addr
    except OSError:
        pass
    stats = psutil.net_if_stats()
    for name, addrs in sorted(psutil.net_if_addrs().items()):
        if name == "lo" or not (stats.get(name) and stats[name].isup):
            continue
        for a in addrs:
            if a.family == socket.AF_INET and not a.address.startswith("127."):
                return a.address
    return "127.0.0.1"


def node_label(host: str, addr: str) -> str:
    return f"{addr} ({host})"
