"""NET rule texts: network interfaces and InfiniBand ports.

Texts only (what `ncclDoctor explain CODE` prints); the checks that fire them live in
``ncclDoctor.rules.network``.
"""

from __future__ import annotations

from ncclDoctor.findings import rule

MISSING_IFACE = rule(
    "NET001",
    "error",
    "Interface named in settings is not on this host",
    why="""
NCCL_SOCKET_IFNAME / GLOO_SOCKET_IFNAME decide which interface carries bootstrap and
socket traffic. When nothing on this host matches, NCCL stops with "Bootstrap : no
socket interface found" and gloo cannot bind; when only some names match, the job uses
fewer or other interfaces than the script says. Interface names differ between hosts
and container images (eth0, ens5, enp65s0f0, ib0).
""",
    fix="List this host's interfaces with `ip -br addr` and name the one on the cluster network (NCCL: '=name' for an "
        "exact match).",
)


MISSING_HCA = rule(
    "NET002",
    "error",
    "RDMA device named in NCCL_IB_HCA is not on this host",
    why="""
NCCL_IB_HCA restricts NCCL to the named RDMA devices. If none of them exists, NCCL finds
no usable InfiniBand/RoCE device and falls back to TCP sockets: the job runs, at a
fraction of the bandwidth. If some are missing, fewer rails carry the traffic.
""",
    fix="List the devices with `ibv_devinfo -l` or `ls /sys/class/infiniband` and correct NCCL_IB_HCA (or unset it to "
        "use all).",
)


PORT_DOWN = rule(
    "NET003",
    "error",
    "RDMA port is not ACTIVE",
    why="""
A port NCCL may use is not in the ACTIVE state (cable, switch port, subnet manager, or
a RoCE interface that is down). NCCL skips it or, if it was the only one, uses sockets;
a port that flaps between states causes IB errors (status 12, retry exceeded) mid-job.
""",
    fix="Check `ibstat` / `ibv_devinfo` on this host, the cable and the switch port; exclude the HCA with NCCL_IB_HCA "
        "until it is fixed.",
)


PORT_SLOW = rule(
    "NET004",
    "warning",
    "RDMA port runs below the rate of its peers",
    why="""
Ports of the same host normally train to the same rate. One port at a lower rate
(fewer lanes, or an older speed) is a degraded cable or transceiver; every collective
whose ring crosses it runs at that port's speed.
""",
    fix="Compare `ibstat` rates; reseat or replace the cable/transceiver of the slow port.",
)
