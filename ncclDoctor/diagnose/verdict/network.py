"""The network set-up wrong (network_setup): interfaces NCCL or gloo must not use (loopback, docker bridges),
addresses no peer can reach, a port already bound, a connection refused at set-up, peers that never come up, a
framework's own RPC transport failing at start-up."""

from __future__ import annotations

import ipaddress
import re

from ncclDoctor.diagnose.reason import Conclusion
from ncclDoctor.diagnose.signatures import R_ENDPOINT, R_PEER_GONE, R_RAY_PID, R_TOPO_REALPATH, Event, is_loopback
from ncclDoctor.diagnose.state import ERROR_KINDS, QUIET_KINDS, Collected
from ncclDoctor.diagnose.verdict.base import Verdict, _samples, exception_text, hosts
from ncclDoctor.units import fmt_ranks

_BAD_IFACE = re.compile(r"^(lo|docker\d*|veth\w*|virbr\d*|ip6tnl\d*|tunl\d*|br-\w+|cni\d*|flannel\S*)$")


def _topology_failed(c: Collected) -> bool:
    """NCCL's topology detection failing on this host's sysfs: its WARN about a GPU's PCI path (R_TOPO_REALPATH) or
    its ncclSystemError (2) carried up through graph/xml.cc or topo.cc."""
    return (any(R_TOPO_REALPATH.search(e.text) for e in c.samples.get("nccl_warn", []))
            or any(f in ("xml.cc", "topo.cc") and n == 2 for f, n in c.retcodes))


def bad_interfaces(c: Collected) -> list[str]:
    """Interfaces NCCL chose that cannot carry inter-node traffic: loopback, link-local, virtual. Loopback carries
    NCCL's bootstrap between the processes of ONE node (issue #14 item 3: it is a problem in a multi-node job): with
    every line on one host (or none named) and nothing failing, NCCL choosing lo is set-up chatter (lead rule K)."""
    from ncclDoctor.diagnose.verdict.noise import one_host_alone  # noise imports this module

    bad = [f"{n}:{a}" for n, a in c.interfaces.items() if _bad_iface(n, a)]
    if bad and _loopback_only(bad) and not spans_nodes(c) and not _something_failed(c):
        return []
    # lead rules K, Z (one host alone, rule AX (1)): where the lines show the whole job on one host (every NCCL line
    # there, its world no larger than the processes shown) and nothing failing, the interfaces NET/Socket lists carry
    # none of the job's traffic -- NCCL's intra-node transports (P2P, shared memory) do: a virtual bridge among them
    # (virbr0, docker0) is the host's set-up chatter, not an interface chosen wrong
    if bad and one_host_alone(c) and not _something_failed(c):
        return []
    # lead rule K: with nothing failing, virtual interfaces NCCL's bootstrap only lists after the first, routable one
    # ("Bootstrap : Using [0]enp7s0:10.x [1]virbr0:... [2]veth...": it uses the first alone), and no NET/Socket line
    # uses, are the host's other interfaces in its set-up chatter, not an interface chosen wrong
    if bad and not any(b.split(":", 1)[0] in c.used_ifaces for b in bad) and not _something_failed(c):
        return []
    # lead rule K: with nothing failing, an interface NET/Socket uses beside a routable one that holds only an IPv6
    # link-local address ("NET/Socket : Using [0]ens5:172.31.x [1]veth..:fe80::..%veth..": a docker veth, its
    # address bound to that one link) is a doubtful choice the fix names, not a failure shown. Loopback, an IPv4
    # link-local (169.254) or a bridge's private IPv4 address is another matter: every host has one alike, so a peer
    # connecting there reaches the wrong host -- the set-up line names that problem itself (network_setup)
    if bad and routable_used(c) and all(_v6_link_local(c, b.split(":", 1)[0]) for b in bad if b.split(":", 1)[0]
                                        in c.used_ifaces) and not _v4_link_local_used(c) and not _something_failed(c):
        return []
    return bad


def routable_used(c: Collected) -> bool:
    """NCCL uses at least one interface other nodes can reach (not loopback, link-local or virtual)."""
    return any(not _bad_iface(n, c.interfaces.get(n, "")) for n in c.used_ifaces)


def _v6_link_local(c: Collected, name: str) -> bool:
    return c.interfaces.get(name, "").lower().startswith("fe80")


def _v4_link_local_used(c: Collected) -> bool:
    """NCCL uses an interface with an IPv4 link-local address (169.254.x.x: a USB/BMC Ethernet, a host without
    DHCP), one every such host has alike."""
    return any(c.interfaces.get(n, "").startswith("169.254.") for n in c.used_ifaces)


def doubtful_used(c: Collected) -> list[str]:
    """The loopback, link-local or virtual interfaces NCCL uses (name:address), first 4."""
    return [f"{n}:{c.interfaces.get(n, '?')}" for n in sorted(c.used_ifaces)
            if _bad_iface(n, c.interfaces.get(n, ""))][:4]


def _bad_iface(name: str, addr: str) -> bool:
    return bool(_BAD_IFACE.match(name)) or addr.startswith("127.") or addr.lower().startswith("fe80")


def _loopback_only(bad: list[str]) -> bool:
    return all(b.startswith("lo:") or b.split(":", 1)[1].startswith("127.") or b.endswith(":::1") for b in bad)


# A Kubernetes training operator's replica pod (Kubeflow's PyTorchJob "<job>-master-0", "<job>-worker-3"): the job's
# processes run in a master pod and worker pods, each its own host with its own loopback
_REPLICA_POD = re.compile(r"-(?:master|worker)-\d{1,5}$")


def spans_nodes(c: Collected) -> bool:
    """The lines show more than one node: ranks or NCCL processes on several hosts, torchrun's printed node count
    (GROUP_WORLD_SIZE / nnodes) above 1, or a host named as a training operator's master or worker replica pod
    (lead rule AU (3): its peers are other pods)."""
    nodes = [int(v) for n in ("GROUP_WORLD_SIZE", "PET_NNODES") for v in (c.settings.get(n) or {}) if v.isdigit()]
    named = hosts(c) | set(c.setup_hosts) | {h for h, _, _ in c.procs if h}
    return max(nodes + [len(named)]) > 1 or any(_REPLICA_POD.search(h) for h in named)


def _something_failed(c: Collected) -> bool:
    """Any failure at all in the lines: an error family, an NCCL return-code trail, a launcher's record of a failed
    process, a traceback's exception."""
    from ncclDoctor.diagnose.verdict.noise import harmless_warn

    # a harmless NCCL WARN (libibverbs absent, a net plugin finding no device and dropped) is no failure
    warns = c.samples.get("nccl_warn", [])
    real_warn = len(warns) < c.kinds.get("nccl_warn", 0) or any(not harmless_warn(c, e) for e in warns)
    return bool(any(c.kinds.get(k) for k in ERROR_KINDS if k != "nccl_warn") or real_warn or c.retcodes
                or c.child_failures or c.worker_failures or c.exceptions or c.kinds.get("watchdog_timeout"))


def shared_addresses(c: Collected) -> list[tuple[str, set[str]]]:
    """Addresses NCCL bootstraps on that two hosts both print: containers on bridge networks (Docker's
    172.17.0.2 on every node) advertise an address no other node can reach. Loopback is bad_interfaces'."""
    known = {h for hs in c.iface_hosts.values() for h in hs} | set(c.setup_hosts)

    def own(h: str) -> str:  # "NCCLx3200n1", "assox3200n1": a line cut by another process's, glued to a host seen
        return min((k for k in known if len(k) < len(h) and h.endswith(k)), key=len, default=h)
    shared = sorted((a, hs) for a, hs in ((a, {own(h) for h in hs}) for a, hs in c.iface_hosts.items())
                    if len(hs) > 1 and not a.startswith("127."))
    # lead rule K, as in bad_interfaces: an address only the bootstrap's list shows after its first (used) interface
    unused = {a for n, a in c.interfaces.items() if n not in c.used_ifaces}
    if shared and any(a in unused for a, _ in shared) and not _something_failed(c):
        shared = [(a, hs) for a, hs in shared if a not in unused]
    return shared


R_BIND_BUSY = re.compile(r"\bbind failed ?:? ?Address already in use")
# socket.cc's socketFinalizeAccept: the peer that connected announced another socket type than the listener's
# (enum ncclSocketType: 1 bootstrap, 2 proxy, 3 the socket net transport, 4 the IB net transport, 5 RAS)
_MIXED_FIX = ("Make every node use the same network transport: check InfiniBand on each node (ibstat, ibv_devinfo, "
              "the same NCCL_IB_HCA, /dev/infiniband in the container) so that IB works on both ends, or set "
              "NCCL_IB_DISABLE=1 (and the same NCCL_NET) on every node -- under mpirun pass it with -x so the remote "
              "ranks get it; compare the 'Using network' line of each node's NCCL_DEBUG=INFO log. ")
R_WRONG_TYPE = re.compile(r"socketFinalizeAccept: wrong type (\d) != (\d)")


def survivor_retries(c: Collected) -> set[int]:
    """The ranks a launcher's complete record shows alive while others exited on their own: Paddle's launch_utils
    lists every trainer whose process exited nonzero ("rank=[1, 2, 3] was aborted", data "whole") and prints trainer
    0's own log on the console, so a console line without a rank of its own is trainer 0's. In Paddle's
    gen_comm_id_helper only trainer 0 connects out, retrying, to send the NCCL id: its refused connects to a
    trainer that died before it listened are that death's symptom, not the network's fault."""
    whole = [e for e in c.child_failures if e.data.get("whole") and e.rank is not None]
    if not whole:
        return set()
    return {0} - {e.rank for e in whole}


# Paddle's NCCL id exchange, whose connects only trainer 0 makes (gen_comm_id_helper.cc's "connect addr=H:P failed N
# times with reason: Connection refused retry after S seconds", the older nccl_context.cc's "Socket connect worker
# H:P failed, try again after S seconds"): such a line is trainer 0's, whatever prefix a paste gave it
R_PADDLE_ID_SEND = re.compile(r"\bgen_comm_id_helper\.cc:\d{1,6}\] connect addr=|"
                              r"\bnccl_context\.cc:\d{1,6}\] Socket connect worker ")


def _connect_rank(e) -> int | None:
    """The rank whose connect failed: trainer 0 for Paddle's NCCL id exchange, else the line's own rank."""
    return 0 if R_PADDLE_ID_SEND.search(e.text) else e.rank


def _zero_net(endpoint: str) -> str | None:
    """The host of HOST:PORT when it is an IPv4 address in 0.0.0.0/8 other than 0.0.0.0 itself (RFC 1122's "this
    network": never a host's address, never a destination on the wire), else None."""
    host = endpoint.rsplit(":", 1)[0]
    try:
        ip = ipaddress.IPv4Address(host)
    except ValueError:
        return None
    return host if ip in _THIS_NETWORK and ip != ipaddress.IPv4Address(0) else None


_THIS_NETWORK = ipaddress.ip_network("0.0.0.0/8")


def _peer_of(e) -> str:
    """The HOST:PORT a failed connect went to: the socket error's peer, or Paddle's NCCL id exchange's address."""
    if e.data.get("peer"):
        return str(e.data["peer"])
    m = R_PADDLE_ID_SEND.search(e.text)
    p = R_ENDPOINT.search(e.text, m.end()) if m else None
    return f"{p.group(1)}:{p.group(2)}" if p else ""


def _unroutable_peers(c: Collected) -> Verdict | None:
    """Lead rule L: the endpoints a launcher waits for (Paddle's "not ready endpoints:[...]") or a connect goes to are
    at an address in 0.0.0.0/8, which no host has: the node's own address was read wrong where the endpoints were
    built (its host name resolving to a garbage address, a wrong --ips / POD_IP), so the connections between the
    processes can never be made at set-up -- network_setup, no rank (the one that waits only reports it)."""
    evs = [e for e in c.samples.get("peer_wait", []) if any(_zero_net(x) for x in e.data["endpoints"])]
    evs += [e for e in c.samples.get("socket_error", []) if e.data.get("connect") and _zero_net(_peer_of(e))]
    if not evs:
        return None
    bad = sorted({h for e in evs for x in (e.data.get("endpoints") or [_peer_of(e)]) if (h := _zero_net(x))})
    said = evs[0].data.get("said") or evs[0].text.strip()
    return Verdict(
        "network_setup",
        f"the processes wait for (or connect to) peers at {', '.join(bad[:3])} ('{said[:120]}'): an "
        "address in 0.0.0.0/8, which no host has and no packet can reach -- the address the endpoints were built from "
        "is wrong (a host name resolving to a garbage address, or a wrong node address given to the launcher), so the "
        "connections between the processes can never be made at set-up; not a rank's fault",
        "Find the node's real host IP and make the launcher use it: check what the host name resolves to (hostname "
        "-i; getent hosts $(hostname)) and fix /etc/hosts so that it maps the host name to the host IP of the "
        "interface the nodes reach each other on, or pass the address explicitly -- Paddle's launcher --ips=<host IP> "
        "(--ips=127.0.0.1 for one machine), POD_IP, or PADDLE_TRAINER_ENDPOINTS / MASTER_ADDR with real host IPs; "
        "then check the firewall / ports between the nodes.",
        "high" if any(e.kind == "socket_error" for e in evs) else "medium", [], [e.brief() for e in evs[:2]],
        job_wide=True)


def _peer_wait(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule AD (1): Paddle's trainers waiting on each other's endpoints ("server not ready, wait 3 sec to
    retry..." / "not ready endpoints:[...]", the NCCL-id hand-over between trainers, not a store) that stay not ready
    wait after wait, with nothing else failing: the connections between the trainers cannot be made at set-up --
    network_setup (lead rule L). Several endpoints never answering (a whole node, or every other trainer) is the
    launch or the network, no rank; one endpoint missing is most likely its trainer never started, a rank the lines
    do not name (nobody is named either way). Read after the nodes' launch lines (quiet._rank_args: nodes given
    different --ips are config) and after the address no host has (_unroutable_peers)."""
    if not c.peer_waits or c.exceptions or c.child_failures or c.worker_failures:
        return None
    stuck = [(now, ev) for now, runs, ev in c.peer_waits.values() if now and runs >= 2]
    if not stuck:
        return None
    eps = list(dict.fromkeys(x for now, _ in stuck for x in now))
    by_host: dict[str, list[str]] = {}
    for x in eps:
        by_host.setdefault(x.rsplit(":", 1)[0], []).append(x.rsplit(":", 1)[1])
    where = "; ".join(f"{h} (port{'s' if len(ps) > 1 else ''} {', '.join(ps[:8])})" for h, ps in
                      list(by_host.items())[:4])
    one = len(eps) == 1
    loop = all(h.startswith("127.") or h in ("localhost", "::1") for h in by_host)
    said = stuck[0][1].data.get("said") or stuck[0][1].text.strip()
    workerlog = ("the workerlog (log/workerlog.N, under --log_dir) of the trainer that should listen at "
                 f"{eps[0]}" if one else "the workerlogs (log/workerlog.N, under --log_dir) on the node(s) "
                 f"{', '.join(list(by_host)[:4])}")
    return Verdict(
        "network_setup",
        f"the launcher's trainer keeps waiting for its peers' endpoints ('{said[:120]}'), retry after retry: "
        f"{'the endpoint' if one else 'the endpoints'} at {where} never "
        + ("answers" if one else "answer")
        + " -- the trainers' NCCL id exchange connects trainer to trainer at set-up (not a store), and that "
        "connection cannot be made; "
        + ("one trainer's endpoint is missing: most likely its process never started or died before listening (its "
           "rank is not in these lines), or its port is taken or blocked" if one else
           "several trainers' endpoints never answer (a whole node or every other trainer): that node was not "
           "launched (or not with the same --ips), or the network/firewall between the nodes blocks those ports -- "
           "a launch or network fault, not one rank's"),
        f"Read {workerlog}: a trainer that failed at start-up writes its error there, and one that is missing never "
        "started. Launch on every node with the same command and the same --ips list (paddle.distributed.launch "
        "--ips=A,B --gpus=...), check that PADDLE_TRAINER_ENDPOINTS holds the addresses the nodes reach each other on "
        "(hostname -i), and that the ports are free and open between the nodes (no firewall; `nc -zv HOST PORT` from "
        "the waiting node" + (", 127.0.0.1 on one machine: another job or a stale process may hold the port, "
                              "--started_port picks others" if loop else "")
        + "); rerun with GLOG_v=3 / NCCL_DEBUG=INFO to see the NCCL id exchange (gen_nccl_id).",
        "low" if one else "medium", [], [ev.brief() for _, ev in stuck[:2]], job_wide=True)


# the files of NCCL's return-code trail under a socket read or write of the net transport's data path
_PEER_READ_FILES = frozenset(("socket.cc", "net_socket.cc", "socket.h", "net.h"))


# an exception that is the RPC failure itself re-raised (its timeout, its agent's error), not a worker's own error
_R_RPC_RAISED = re.compile(r"\bRPC|\brpc|timed out|[Tt]imeout|\bbind\b")


def _root_unreached(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules L and AD (1): a collective library's own bootstrap at communicator set-up (HCCL's rootInfo
    detection, parse: ``rpc_setup`` with ``root``) reports that ranks never connected to its root node in time. That
    is the backend's set-up connection between its processes (not a TCPStore): network_setup. A run of consecutive
    ranks unconnected is a whole node's -- that node not launched (or not with the same world size and root
    address) or the network between the nodes blocked: a launch or network fault, no rank named; the process that
    reports it only waited."""
    evs = [e for e in c.samples.get("rpc_setup", []) if e.data.get("root")]
    if not evs:
        return None
    if all(e.data.get("root_info") for e in evs):
        # lead rule AZ (2): the root-info / unique-id call itself failed with only a status number -- the set-up's
        # first step, where the root makes the bootstrap address the others connect to; no rank is shown at fault
        return Verdict(
            "network_setup",
            "the collective library's communicator set-up failed at its exchange with the root: its root-info / "
            "unique-id call (the bootstrap address of the root node that every rank connects to), or the "
            "communicator's init from that root info, returned an error with only a "
            "status number ('" + evs[0].text.strip()[:140] + "'): the set-up's address exchange could not be made "
            "-- no usable interface or address for the root node, or the network between the nodes; no rank is "
            "shown at fault",
            "Pin the interface the nodes reach each other on (HCCL_IF_IP / HCCL_SOCKET_IFNAME on Ascend; "
            "NCCL_SOCKET_IFNAME for NCCL) and check that the root node address it resolves is this host's routable "
            "one, reachable from every node (ping, hccn_tool -i N -ping); open the firewall / ports between the "
            "nodes; check the devices are visible and free (npu-smi info, ASCEND_RT_VISIBLE_DEVICES); rerun with "
            "ASCEND_GLOBAL_LOG_LEVEL=1 (NCCL_DEBUG=INFO) for the library's own reason; on a slow start-up raise "
            "HCCL_CONNECT_TIMEOUT.",
            "medium", [], [e.brief() for e in evs[:2]], job_wide=True)
    evs = [e for e in evs if not e.data.get("root_info")]
    ranks = [r for e in evs for r in e.data.get("unconnected") or []]
    rs = sorted(set(ranks))
    block = len(rs) > 1 and rs[-1] - rs[0] == len(rs) - 1
    who = (fmt_ranks(rs, limit=12) + (" (a run of consecutive ranks: a whole node's)" if block else "")
           if rs else "ranks")
    return Verdict(
        "network_setup",
        f"the collective library's communicator set-up (its rootInfo bootstrap, not a store) failed: {who} never "
        "connected to the root node within its timeout ('" + evs[0].text.strip()[:140] + "'): the connections "
        "between the processes could not be made at set-up -- those ranks' node was not launched (or not with the "
        "same world size and root address), or the network or firewall between the nodes blocks them; a launch or "
        "network fault, not one rank's",
        "Check that the node of the unconnected ranks started the same launch (same world size, same master/root "
        "address) and reached the set-up; that the root node address is reachable from every node (ping, hccn_tool "
        "-i N -ping on Ascend); pin the interface the nodes reach each other on (HCCL_IF_IP / HCCL_SOCKET_IFNAME, "
        "NCCL_SOCKET_IFNAME for NCCL); open the firewall / ports between the nodes; on a slow start-up raise "
        "HCCL_CONNECT_TIMEOUT.",
        "medium", [], [e.brief() for e in evs[:2]], job_wide=True)


def _nvshmem_no_path(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """NVSHMEM (DeepEP's and torch symmetric memory's transport, nvshmem_init / nvshmem_malloc) stopping at start-up
    because no transport reaches a peer PE's GPU ("[GPU 3] Peer GPU 8 is not accessible, exiting ...", "building
    transport map failed", parse: ``nvshmem_no_path``): P2P reaches the GPUs of one node only, a peer on another node
    needs NVSHMEM's remote transport (IBRC / IBGDA over InfiniBand-RoCE, UCX, libfabric), which did not load or was
    not chosen -- the paths between the PEs at set-up, every PE alike (lead rules L, Z, J): network_setup, nobody
    named. A verbs call's own failure (verdict.transport._ib) or a rank's own error is read first."""
    evs = c.samples.get("nvshmem_no_path", [])
    if not evs:
        return None
    pairs = list(dict.fromkeys((e.data["gpu"], e.data["peer_gpu"]) for e in evs if e.data.get("peer_gpu") is not None))
    said = ", ".join(f"GPU {g} cannot reach peer GPU {p}" for g, p in pairs[:4])
    return Verdict(
        "network_setup",
        "NVSHMEM could not build its transport map at start-up" + (f" ({said})" if said else "")
        + ": no transport reaches those peer PEs -- P2P (NVLink / PCIe peer access) only reaches GPUs of the same "
        "node, and a peer on another node needs NVSHMEM's remote transport (IBRC or IBGDA over InfiniBand/RoCE, UCX, "
        "libfabric), which did not load or was not selected; every PE fails alike at set-up, no rank's fault",
        "Give NVSHMEM a remote transport for the peers on other nodes: rerun with NVSHMEM_DEBUG=INFO to see which "
        "transports each PE loaded and why the remote one did not ('init failed for transport: ...'); load the GPU "
        "driver's peer-memory module for GPUDirect RDMA (modprobe nvidia_peermem, or nv_peer_mem with MLNX_OFED; "
        "lsmod | grep peermem), check the InfiniBand/RoCE devices are visible in the container (ibv_devinfo, "
        "/dev/infiniband), and select the transport with NVSHMEM_REMOTE_TRANSPORT=ibrc (or ucx / libfabric for a "
        "fabric without IB verbs, such as EFA) or NVSHMEM_IB_ENABLE_IBGDA=1 for IBGDA (NVSHMEM_REMOTE_TRANSPORT=none "
        "leaves only P2P). For peers on the same node check GPU peer access (P2P): nvidia-smi topo -m, and that "
        "CUDA_VISIBLE_DEVICES shows each process the GPUs its node's PEs use.",
        "medium", [], [e.brief() for e in evs[:3]], job_wide=True)


def _ib_device_range(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """MSCCL++'s own check that the IB transport a GPU uses names an IB device of the host ("IB transport out of
    range: 2 >= 1", parse: ``ib_device_range``): it gives each GPU index its own IB device (Transport::IB0..IB7), so a
    host with fewer IB devices than the GPUs that use IB refuses every process past them alike -- the host's set-up
    against the library's, a library's own check (lead rules Q, W): config, nobody named."""
    evs = c.samples.get("ib_device_range", [])
    if not evs:
        return None
    have = next((e.data["devices"] for e in evs if e.data.get("devices") is not None), None)
    idx = sorted({e.data["index"] for e in evs if e.data.get("index") is not None})
    return Verdict(
        "config",
        "MSCCL++ refused the IB transport a GPU uses ('" + evs[0].text.strip()[:120] + "')"
        + (f": IB device index {', '.join(map(str, idx))} asked for, the host has {have} IB device(s)"
           if idx and have is not None else "")
        + ": it gives each GPU (by its index) its own IB device (Transport::IB0..IB7, one IB device per GPU), so every "
        "process whose GPU has no IB device of its own fails alike -- the host's NIC set-up against the library's, "
        "not a rank's fault",
        "Match the IB transports to the host's IB devices (ibv_devices lists them; the number of IB devices must "
        "reach the GPUs that use IB, one NIC per GPU): name the devices to use with MSCCLPP_HCA_DEVICES, run as many "
        "processes per node as there are IB devices (CUDA_VISIBLE_DEVICES), or have the test use CudaIpc (NVLink) "
        "between GPUs of one node and IB only across nodes; a framework on NCCL instead picks its NICs with "
        "NCCL_IB_HCA.",
        "medium", [], [e.brief() for e in evs[:3]], job_wide=True)


def _link_unmade(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules L and X (1), read for HCCL like NCCL (AN (2)): a collective library's own link from a rank to its
    peer that could not be created at communicator set-up (HCCL's EI0009 createLink, parse: ``rpc_setup`` with
    ``link``) is the connection between the ranks failing at set-up: network_setup, no rank at fault -- the rank that
    reports it found its peer not answering (a victim), and the peer's own side (its NPU, its network, whether it
    reached the same set-up at all) is where the reason lies. A rank's own failure shown beside it is read first, and
    so is the library's own word that the resources of those links could not be allocated (``rdma_refused``: HCCL's
    EI0007, the host refusing them, rule J) -- then the links failing is what follows, not the peer not answering."""
    evs = [e for e in c.samples.get("rpc_setup", []) if e.data.get("link")]
    if not evs or c.child_failures or c.worker_failures:
        return None
    if any(c.kinds.get(k) for k in ("cuda_error", "cuda_oom", "host_mem", "signal", "nccl_error", "rdma_refused")):
        return None
    dst = sorted({e.data["dst"] for e in evs if e.data.get("dst") is not None})
    reporters = sorted({e.rank for e in evs if e.rank is not None})
    by = f"rank {reporters[0]}" if len(reporters) == 1 else "a rank"
    peer = f"its peer rank {dst[0]}" if len(dst) == 1 else "a peer"
    ip = next((e.data["peer_ip"] for e in evs if e.data.get("peer_ip")), None)
    return Verdict(
        "network_setup",
        f"the collective library's communicator set-up failed: {by} could not create its link to {peer}"
        + (f" (at {ip})" if ip else "") + " ('" + evs[0].text.strip()[:160] + "'): the connection between the ranks "
        "could not be made at set-up -- the peer did not answer (not at the same communicator set-up, its device or "
        "its network interface not reachable); a network or set-up fault, not the reporting rank's",
        f"Check the other end first: {peer}'s own log and NPU (check the peer NPU's logs -- the ASCEND plog, "
        "ASCEND_GLOBAL_LOG_LEVEL=1), that it reached the same communicator set-up (weight-sync communicator init on "
        "both sides, in the same order, e.g. a trainer and a vLLM server) and that the two processes do not share "
        "an NPU (ASCEND_RT_VISIBLE_DEVICES); check HCCL link set-up between the devices: the device IP / NPU "
        "network (hccn_tool -i N -ip -g, hccn_tool -i N -ping -g address A), pin the interface "
        "(HCCL_IF_IP / HCCL_SOCKET_IFNAME; NCCL_SOCKET_IFNAME for NCCL); on a slow start-up raise "
        "HCCL_CONNECT_TIMEOUT.",
        "medium", [], [e.brief() for e in evs[:2]], job_wide=True)


def _rpc_first_request(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule AQ (3) (round 75's adjudication of pytorch-85607): torch RPC's TensorPipe agents whose pipes to a peer
    were reset on their very first outgoing request (#0: the agent numbers its requests from 0 over its whole life,
    so that is init_rpc's start-up exchange with worker 0) or on the response to it, no later request shown failing,
    are the RPC agent's own connections failing at start-up: network_setup, no worker at fault, the reporting workers
    its victims (rules O, X (1): a reset at set-up or first connect). The peer is named only where its own lines show
    it exiting: anything else failing in the lines (an exception of the job's own, a launcher's record of a process's
    end) is read by its own family first; a reset on a later request is a mid-run peer gone (rule O, early_exit)."""
    socks = c.samples.get("socket_error", [])
    tp = [e for e in socks if e.data.get("tp_agent") and R_PEER_GONE.search(str(e.data.get("what", "")))]
    if not tp or len(tp) != len(socks) or c.child_failures or c.worker_failures:
        return None
    reqs = [e.data.get("tp_request") for e in tp]
    if 0 not in reqs or any(r for r in reqs if r is not None):
        return None  # no first request shown, or a later one failing: a mid-run call
    if any(v and k not in QUIET_KINDS + ("socket_error",) for k, v in c.kinds.items()):
        return None
    if any(not (R_PEER_GONE.search(exception_text(e)) or _R_RPC_RAISED.search(exception_text(e)))
           for e in c.exceptions):
        return None
    agents = sorted({str(e.data["tp_agent"]) for e in tp}, key=lambda a: (not a.isdigit(), int(a) if a.isdigit()
                                                                          else 0, a))
    peers = sorted({str(e.data["tp_peer"]) for e in tp})
    transport = next((m.group(1) for e in tp if (m := _R_TP_TRANSPORT.search(e.text))), None)
    return Verdict(
        "network_setup",
        f"torch RPC's TensorPipe agents ({', '.join(agents[:12])}{', ...' if len(agents) > 12 else ''}) had their "
        f"connection to worker {' / '.join(peers[:4])} reset on their very first request (#0) or its response"
        + (f", on TensorPipe's {transport} transport" if transport else "") + ": that is init_rpc's start-up exchange "
        "(the agent numbers its requests from 0), so the RPC agents' own connections failed at set-up; no worker is "
        "shown exiting, so nobody is at fault and the reporting workers are its victims",
        f"Read worker {peers[0]}'s own log (it answers every worker's first RPC at init_rpc) for an error at "
        "start-up. With many workers the one serving them all can run out of what it accepts connections with: "
        "raise its open files limit (ulimit -n: every pipe holds file descriptors), the listen backlog (sysctl "
        "net.core.somaxconn) and TensorPipeRpcBackendOptions' num_worker_threads; or start fewer workers to confirm. "
        + ("TensorPipe's shm transport needs room in /dev/shm (docker --shm-size): " if transport == "shm" else "")
        + "pick the transports explicitly, TensorPipeRpcBackendOptions(_transports=['uv']) (TCP only), with the "
        "interface set by TP_SOCKET_IFNAME; raise rpc_timeout for a slow start-up, rerun with TP_VERBOSE_LOGGING=1 "
        "to see each pipe, and end every worker with rpc.shutdown().",
        "medium", [], [e.brief() for e in tp[:3]], job_wide=True)


# TensorPipe's source site on its error ("this error originated at tensorpipe/transport/shm/connection_impl.cc:187")
_R_TP_TRANSPORT = re.compile(r"tensorpipe/transport/(\w{1,16})/")


def _rpc_setup(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule AQ (3): a framework's own RPC transport failing at start-up (parse: ``rpc_setup``) -- its server
    socket that cannot bind, torch RPC's gather of every worker timing out with no worker shown failing -- is the
    set-up of the connections between its processes: network_setup, no rank at fault, the leader that reports the
    timeout a victim (rule X (1)). Not the c10d store's or the launcher's rendezvous (store_rendezvous). Anything else
    failing in the lines (a worker's own error, a launcher's record of one) is read by its own family first."""
    evs = [e for e in c.samples.get("rpc_setup", []) if not e.data.get("root") and not e.data.get("link")]
    if not evs or c.child_failures or c.worker_failures:
        return None
    if any(v and k not in QUIET_KINDS + ("rpc_setup",) for k, v in c.kinds.items()):
        return None
    if any(not _R_RPC_RAISED.search(exception_text(e)) for e in c.exceptions):
        return None
    bind = [e for e in evs if e.data.get("bind")]
    if bind:
        e = bind[0]
        at = e.data.get("endpoint") or "its port"
        verb, _, said = e.data["what"].partition(": ")
        return Verdict(
            "network_setup",
            f"a framework's own RPC server socket could not {verb} on {at} at start-up "
            f"(error: {said or '?'}"
            + ("; errno was not set, so the line says neither 'in use' nor 'not this host's address'" if
               said.lower() == "success" else "")
            + "): the server its workers must reach never listens -- the port is taken (a server of an earlier run "
            "still holding it) or the address is not one of this host's; a setting or a leftover process of the "
            "host, no rank at fault",
            f"Failed {verb} on {at}: find what holds the port (ss -ltnp | grep PORT, lsof -i :PORT) and kill leftover "
            "server processes of an earlier run (port already in use), or give the servers another port; check that "
            "the address the framework's server list gives this host (DistDGL's ip_config.txt) is one this machine "
            "owns (ip -br addr: an interface with an IP address), and launch the servers with the framework's own "
            "launcher so each gets its address and port.",
            "medium", [], [x.brief() for x in bind[:3]], job_wide=True)
    quiet = [e for e in evs if e.data.get("no_answer")]
    if quiet:  # the framework's own socket read/write timing out (signatures.R_FW_SOCKET_NO_ANSWER)
        e = quiet[0]
        return Verdict(
            "network_setup",
            f"a framework's own socket (its RPC / KV-store connection, not NCCL's, gloo's or the c10d store's) failed "
            f"a {e.data['what']} ('{e.text.strip()[:140]}'): the server it reads from never answered in time, and the "
            "process aborted on it -- the connection between the framework's clients and servers did not work (a "
            "server not running or not reachable at the address it was given, a firewall, the wrong interface); no "
            "rank is at fault",
            "Check that every server process of the framework is running and listening at the address and port its "
            "server list gives it (DistDGL / DGL-KE: ip_config.txt; ss -ltnp on the server hosts) before the clients "
            "start, and that each client reaches it (nc -zv HOST PORT): open the firewall for those ports, use the "
            "network interface the machines reach each other on (an address of that interface in ip_config.txt); a "
            "server that is slow to load its data needs the clients started later or a longer socket timeout.",
            "medium", [], [x.brief() for x in quiet[:3]], job_wide=True)
    e = evs[0]
    who = ", ".join(e.data.get("followers") or []) or "some followers"
    name = f"'{e.data['rpc_barrier']}'" if e.data.get("rpc_barrier") else "the start-up gather"
    secs = e.data.get("timeout_s")
    return Verdict(
        "network_setup",
        f"torch RPC's gather of every worker ({name}, _all_gather) timed out"
        + (f" after {secs:g} s" if secs else "") + f": the leader's RPCs to {who} got no answer in time, and no "
        "worker is shown failing -- the RPC agent's own connections between the workers at start-up did not work "
        "in time (the interface it chose, a firewall, or an RPC timeout too short for the start-up); the leader "
        "reporting it only waited, no rank is at fault",
        "Raise the RPC timeout (init_rpc's rpc_backend_options rpc_timeout"
        + (f"; {secs:g} s is short for a start-up across nodes" if secs and secs < 60 else "") + "); pin the interface "
        "the RPC agent uses to the one the nodes reach each other on: TP_SOCKET_IFNAME (TensorPipe) and "
        "GLOO_SOCKET_IFNAME; check the network and firewall between the client nodes (nc -zv HOST PORT) and read "
        "the named followers' own logs for where they were then; upgrade the framework if its barrier over "
        "init_rpc is a known race.",
        "medium", [], [x.brief() for x in evs[:3]], job_wide=True)


def _service_wait(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules AQ (3), AX (3): every trainer shown raising that its wait for a framework's own serving process
    (an RL rollout server) gave up at start-up ("server launch failed": readers.crash, ``service_wait``) -- two or more
    tracebacks alike (each one process's uncaught exception), no other exception of the job's own code and no
    process's end recorded before them -- is the framework's own service never answering: network_setup, no rank at
    fault, whichever one a launcher's record names first (it only waited). Read before the kills: the processes a
    scheduler kills (-9) after the trainers gave up are its teardown."""
    waits = [e for e in c.exceptions if e.data.get("service_wait")]
    if not waits:
        return None
    if len(waits) < 2:  # each traceback is one process's uncaught exception
        return None

    def at(e) -> tuple[str, int]:
        path, _, line = e.where.rpartition(":")
        return path, int(line) if line.isdigit() else 0

    first = min(at(e) for e in waits)
    if any(not e.data.get("service_wait") and not e.data.get("line") and at(e)[0] == first[0] and at(e) < first
           for e in c.exceptions):
        return None  # another exception of the job's own code came first
    if any(at(e)[0] == first[0] and at(e) < first for e in c.child_failures + c.worker_failures):
        return None  # a process's end (a kill, a crash) recorded before the trainers gave up: that came first
    if any(v and k not in QUIET_KINDS + ("worker_failed", "child_failed", "signal") for k, v in c.kinds.items()):
        return None
    said = exception_text(waits[0])
    return Verdict(
        "network_setup",
        f"{len(waits)} processes raised '{said[:120]}' alike: each trainer's wait for the framework's own server "
        "(its rollout / inference service) at start-up gave up because the server never answered -- it did not "
        "start, crashed while starting, or listens on another address or port; no trainer is at fault, and the "
        "one a launcher's record names first only waited",
        "Read the server's own log (the SGLang / vLLM server the framework launched: launch_server's output) for why "
        "it never became healthy -- a crash while loading (GPU memory: mem_fraction_static, the model's size), a port "
        "already taken, a start-up slower than the trainers' setup timeout; check the server address and port the "
        "trainers were given is the one it listens on (curl its health endpoint from a trainer's node), and raise the "
        "framework's server wait / setup timeout for a slow load.",
        "medium", [], [e.brief() for e in waits[:3]], job_wide=True)


# vLLM's front end (its API server process, core_client's __init__) giving up on the engine core's start-up handshake:
# "TimeoutError: Timed out waiting for engines to send initial message on input socket" (the message's two literals
# joined without a space in some releases: "sendinitial")
_R_ENGINE_HANDSHAKE = re.compile(r"\bTimed out waiting for engines? (?:core )?to send ?initial message on (?:the )?"
                                 r"input socket\b")


def _engine_handshake(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules AQ (3), AX (3), BN (1) (round 109's adjudication of vllm-ascend-3977): a serving framework's front
    end raising its own start-up timeout because its engine never sent the first handshake message on the framework's
    own socket -- no engine, worker or rank shown exiting or raising, nothing else failing: the framework's service
    socket that never answered at start-up, network_setup, nobody (the front end holds no rank), low confidence (a
    slow or failed engine start is in the fix, rule T). Not read so: the same wait beside an engine's or worker's own
    error or exit (that error is the cause), or a framework's wait in the middle of a run (rule P / BN (1))."""
    waits = [e for e in c.exceptions if _R_ENGINE_HANDSHAKE.search(exception_text(e))]
    if not waits or len(waits) != len(c.exceptions) or c.worker_failures or c.child_failures:
        return None
    if any(v and k not in QUIET_KINDS + ("signal",) for k, v in c.kinds.items()):
        return None
    if any(not _R_ENGINE_HANDSHAKE.search(e.text) for e in c.unread):
        # an engine's or worker's own failure kept as an unread line ("EngineCore failed to start.", "WorkerProc
        # failed to start.", "Process VllmWorker-3 died unexpectedly (exit code -9)"): that failure decides, not the
        # front end's wait (lead ruling 2 of review 109 b)
        return None
    return Verdict(
        "network_setup",
        "the serving framework's front end (vLLM's API server, core_client) gave up at start-up waiting for its engine "
        f"core's first message on its own input socket ('{exception_text(waits[0])[:120]}'): the framework's service "
        "socket never got its handshake, and no engine or worker is shown exiting or raising -- the engine never "
        "connected back (its address or port unreachable), or is still loading or died while starting; the front end "
        "holds no rank, so no rank is at fault",
        "Read the engine core processes' own log for their start-up error (device / HCCL / NCCL init, model load, "
        "out of memory); raise the engine start-up timeout (VLLM_ENGINE_READY_TIMEOUT_S) if engines load slowly (a "
        "large model's weights); check the data-parallel address / RPC port (--data-parallel-address, "
        "--data-parallel-rpc-port, VLLM_HOST_IP) is reachable between the front end and the engines, set no_proxy for "
        "local addresses and open the ZMQ ports in the firewall; try --api-server-count 1 / a single engine to isolate "
        "the handshake, and match the vllm and plugin (vllm-ascend) versions.",
        "low", [], [e.brief() for e in waits[:3]], job_wide=True)


def _link_local_roles(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule AU (3) (round 78's vllm-dgx-spark-7): a launch prints the addresses of two nodes' roles (a head and a
    worker, the master and a node) and they are IPv4 link-local (169.254.x.x): a multi-node job's sockets (NCCL's,
    gloo's, the store's) set up on addresses valid on one link only, which every host without DHCP has alike --
    network_setup, no rank, even with nothing failing shown (launch settings, rules V (1), AA (1))."""
    evs = c.samples.get("link_local_role", [])
    if len({e.data["addr"] for e in evs}) < 2:
        return None
    said = "; ".join(f"{e.data['role']} {e.data['addr']}" for e in evs[:3])
    return Verdict(
        "network_setup",
        f"the launch sets up a multi-node job on IPv4 link-local addresses ({said}): 169.254.x.x is valid on one link "
        "only and is what a host without an assigned address gives itself, so a peer connecting there can reach the "
        "wrong host or none -- the network set-up, not a rank",
        "Give the nodes routable addresses on the interface they share (a static or DHCP address on the high-speed "
        "link, e.g. the ConnectX port), and point the job at them: the head / MASTER_ADDR address, "
        "NCCL_SOCKET_IFNAME and GLOO_SOCKET_IFNAME naming that interface (ip -br addr shows each interface's "
        "address); if the pair is one direct cable and the link-local addresses do connect, run with NCCL_DEBUG=INFO "
        "and read where set-up stops.",
        "medium", [], [e.brief() for e in evs[:3]], job_wide=True)


# oneCCL's exchange of device-memory handles between the processes of a node (exchange_utils.cpp sendmsg_fd /
# recvmsg_fd: its CCL_ZE_IPC_EXCHANGE=sockets / drmfd path passing file descriptors over local sockets)
_CCL_FD_EXCHANGE = re.compile(r"^exchange_utils\.cpp |\b(?:send|recv)msg_fd$")


def _ccl_exchange(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules L, O, J: oneCCL's own socket between the processes -- its exchange of the GPUs' memory handles
    (exchange_utils.cpp sendmsg_fd: "errno: Broken pipe") -- failing while the communicator is set up, with no other
    process's own failure, no launcher record and no collective timing out shown: the collective library's own
    connection at set-up, network_setup (rule O's set-up half; the c10d store is not involved), every process that
    shows it failing alike (rule J): culprits [], nobody proven innocent. Not read so: a oneCCL errno of no connection
    (_ccl_sys_call's nccl_system), its kvs (store_rendezvous), NCCL's or gloo's sockets, a process shown failing
    first (a CUDA / device error wins before this), a launcher record naming a worker (rule A), a watchdog timeout."""
    socks = [e for e in c.samples.get("socket_error", []) if e.data.get("ccl")
             and _CCL_FD_EXCHANGE.search(e.data["ccl"])]
    if not socks or c.worker_failures or c.child_failures or c.kinds.get("watchdog_timeout"):
        return None
    if any(e.kind in ERROR_KINDS and e.kind != "socket_error" for k in c.samples for e in c.samples[k]):
        return None
    said = socks[0].data["ccl"] + ": " + str(socks[0].data.get("what") or "")
    return Verdict(
        "network_setup",
        f"oneCCL (the collective library here) could not pass the GPUs' memory handles between the processes over "
        f"its own local socket ({said}) while the communicator was set up -- the other end of its exchange "
        "closed or never served it; every process shown fails alike there, so no rank is at fault",
        "Read the logs of every worker (the first one to exit closed the socket: its own error, if any, is the "
        "cause); rerun with CCL_LOG_LEVEL=debug; try another handle exchange (CCL_ZE_IPC_EXCHANGE=sockets vs pidfd "
        "or drmfd); in a container share the host's namespaces (docker --ipc=host --pid=host, or --privileged); raise "
        "ulimit -n (open file descriptors: every handle passed is one); check CCL_LOCAL_RANK / CCL_LOCAL_SIZE and the "
        "parallel sizes against the GPUs of the node; keep the oneCCL version matching the framework's build.",
        "medium", [], [e.brief() for e in socks[:3]], job_wide=True)


def _abort_unwound(c: Collected) -> bool:
    """NCCL's bare INFO trail "socket.cc:N -> 3" (internal), nothing else, beside a communicator's "Abort COMPLETE"
    and a watchdog's timeout: the abort flag unwinding the proxy and bootstrap threads' sockets of a timed-out
    collective (printed by the host's other processes before this one's report), not a failure of the network.
    The same trail beside a process's own traceback cut before its error text (parse.input_tail's tb_cut, or a
    header with no exception line after it: tb_open) is the sockets of a job some process was leaving: unwinding
    without its message it shows no failure class of its own, and the cut traceback is read (lead rules O, BG (6),
    AN (1); round 88's bionemo-recipes-877).
    A WARN, a socket text (reset, closed, refused), a system error (-> 2) or a set-up file in the trail (bootstrap,
    init.cc, transport.cc) is a failure of its own and keeps its reading (lead rules O, AQ (1); round 84's
    uniworld-46)."""
    return (bool(c.retcodes) and all(f == "socket.cc" and n == 3 for f, n in c.retcodes)
            and (bool(c.kinds.get("watchdog_timeout"))
                 and any(st.counts.get("comm_aborted") for st in c.ranks.values())
                 or bool(c.samples.get("tb_cut") or c.samples.get("tb_open")))
            and not c.samples.get("nccl_warn") and not c.samples.get("socket_error"))


def _other_failed(c: Collected, e: Event) -> bool:
    """Whether the lines show a process other than the one printing the gloo peer gone E failing on its own: an
    exception (not itself a peer gone) under another rank's launcher prefix, or under a relayed worker's prefix
    ("(RayWorkerWrapper pid=N, ip=...)") that E's line lacks, or torchrun's Root Cause record naming another rank.
    That peer failing first is what closed E's connection (lead rules A/U: early_exit, the peer named), not the
    network (review 102 (2) finding 1)."""
    mine = R_RAY_PID.search(e.text)
    for x in c.exceptions:
        if x.data.get("line") or R_PEER_GONE.search(exception_text(x)):
            continue
        if x.rank is not None and e.rank is not None and x.rank != e.rank:
            return True
        if x.rank is None and (w := R_RAY_PID.search(x.text)) and (mine is None or w.group(0) != mine.group(0)):
            return True
    return e.rank is not None and any(f.data.get("root") and f.rank is not None and f.rank != e.rank
                                      for f in c.child_failures)


def _network(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    unroutable = _unroutable_peers(c)
    if unroutable is not None:
        return unroutable
    alive = survivor_retries(c)
    connect = [e for e in c.samples.get("socket_error", []) if e.data.get("connect")
               and (0 if _connect_rank(e) is None else _connect_rank(e)) not in alive]
    # a peer that closed the socket while the communicator was still being set up (the return-code trail runs
    # through transport.cc/init.cc: the connections of ncclCommInitRank or of a lazy connect) never got connected:
    # the other end gave up on a connection that did not work (interface, firewall), not a peer that crashed mid-run
    if not connect and any(f in ("init.cc", "transport.cc") for f, _ in c.retcodes):
        connect = [e for e in c.samples.get("socket_error", []) if not e.data.get("store_gone")
                   and R_PEER_GONE.search(str(e.data.get("what", "")))]
    # a gloo peer gone inside the set-up call (hvd.init(), init_process_group: parse._init_frame) is set-up too; a
    # pair's read that timed out after it is the path stalling under a running collective (transport._gloo_stall)
    gloo = [e for e in c.samples.get("gloo_error", []) if e.data.get("setup")
            or not (R_PEER_GONE.search(str(e.data.get("what", ""))) or e.data.get("stalled"))]
    # a peer gone at set-up -- under ProcessGroupGloo's constructor or inside init_process_group's frame -- while
    # another process is shown failing on its own: that process left first and closed the mesh (early_exit names it),
    # not the network (review 102 (2) finding 1 and its init_process_group form, the reviewer's g7)
    gloo = [e for e in gloo if not (e.data.get("setup") and _other_failed(c, e))]
    # NCCL's return-code trail: any error through bootstrap (connection set-up at init), or a
    # system/internal error (2, 3) through the socket layer; 6 (remote) there is a peer gone.
    # A trail printed only after its log's watchdog timeout is the abort's (torch tears the communicator down).
    boot = sorted(
        f"{f} -> {n}"
        for (f, n), k in c.retcodes.items()
        if (f.startswith("bootstrap.") or (f in ("socket.cc", "net_socket.cc", "socket.h") and n in (2, 3)))
        and c.late_retcodes.get((f, n), 0) < k
    )
    # a socket-layer trail (net_socket.cc, net.h) whose only failure is a peer closing NCCL's data socket, with no
    # connect failing and nothing of set-up in the trail (bootstrap, init.cc, transport.cc, proxy.cc): the peer's
    # process went away mid-run (lead rule O), the system error of the read is its consequence, not the network's
    socks = c.samples.get("socket_error", [])
    if (boot and not connect and socks and not any(e.data.get("connect") for e in socks)
            and all(R_PEER_GONE.search(str(e.data.get("what", ""))) for e in socks)
            and all(f in _PEER_READ_FILES for f, _ in c.retcodes)):
        boot = []
    if boot and _abort_unwound(c):
        boot = []
    setup = [k for k in ks if k.kind == "connection_setup"]
    bad = bad_interfaces(c)
    shared = shared_addresses(c)
    # NCCL's own socket could not bind (socket.h/socket.cc "Call to bind failed : Address already in use"): the port
    # it wants is taken -- a fixed NCCL_COMM_ID port still held, or the ephemeral ports used up by communicators
    # created again and again (a new group per step) -- not the interface. The WARN names its class by itself (lead
    # rules K, L): a paste cut right after it, with no return-code trail, is that failure too (round 67)
    from ncclDoctor.diagnose.verdict.noise import harmless_warn  # noise imports this module

    # NCCL's RAS listener (ras/*.cc) failing to bind is its monitoring port, not the job's (the noise table)
    busy = [e for e in c.samples.get("nccl_warn", []) if R_BIND_BUSY.search(e.text) and not harmless_warn(c, e)]
    if not (connect or gloo or boot or setup or bad or shared or busy):
        return None
    if bad and not (connect or gloo or boot or setup or shared) and _topology_failed(c):
        return None  # an interface choice alone explains no topology failure: the host's sysfs does (verdict.nccl)
    seen = []
    if connect:
        seen.append(
            "connections between ranks failed at set-up (" + ", ".join(sorted({e.data["what"] for e in connect})) + ")"
        )
    if gloo:
        seen.append("gloo could not connect its peers (" + ", ".join(sorted({str(e.data["what"]) for e in gloo})) + ")")
    if boot:
        seen.append(
            "NCCL's bootstrap/socket layer returned an error (" + ", ".join(boot[:3]) + ": 2 = system error, "
            "3 = internal, 6 = remote)"
        )
    if setup:
        seen.append(setup[0].message)
    if bad:
        seen.append(
            "NCCL chose interface(s) " + ", ".join(bad[:4]) + (f" and {len(bad) - 4} more" if len(bad) > 4 else "")
            + " (loopback, link-local or virtual: not reachable from "
            "other nodes)"
        )
    if shared:
        a, hs = shared[0]
        seen.append(f"hosts {', '.join(sorted(hs)[:3])} all use the address {a}"
                    + (" (Docker's default bridge, 172.17.0.0/16)" if a.startswith("172.17.") else "")
                    + ": each container sits behind its own NAT with the same private address, so no other node can "
                    "reach the address it advertises; run the containers with host networking (--network=host) and "
                    "set NCCL_SOCKET_IFNAME to the routable host interface")
    bridge = sorted({str(e.data.get("peer")) for e in connect + gloo
                     if str(e.data.get("peer", "")).startswith("172.17.")})
    if bridge:
        seen.append(f"the peer address {bridge[0]} is in 172.17.0.0/16, Docker's default bridge (docker0): NCCL/gloo "
                    "chose the container bridge, which other nodes cannot reach (NCCL_SOCKET_IFNAME=^docker0,lo)")
    if any("ss_family" in str(e.data.get("what", "")) for e in gloo):
        seen.append("the two ends of a gloo pair have different address families (2 = AF_INET, IPv4; 10 = AF_INET6, "
                    "IPv6): the ranks resolved the master's or their own host name to IPv4 on one side and IPv6 on "
                    "the other; give MASTER_ADDR as an IPv4 address and GLOO_SOCKET_IFNAME the same interface on "
                    "every node (or fix /etc/hosts so the hostname resolves to one address family)")
    if any(re.search(r"\bfe80:|\b169\.254\.", e.text) for e in connect + gloo):
        seen.append("a peer's address is link-local (IPv6 fe80::, IPv4 169.254.x.x: valid on one link only): that "
                    "node chose an interface other nodes cannot route to; pin the same routable interface on every "
                    "node")
    loop = sorted({str(e.data.get("peer")) for e in connect if str(e.data.get("peer", "")).startswith("127.")})
    if loop and len(hosts(c)) > 1:
        seen.append(
            f"ranks on {len(hosts(c))} hosts connect to the loopback address {', '.join(loop)}: a host name that "
            "resolves to 127.0.1.1 (Debian/Ubuntu /etc/hosts) or MASTER_ADDR=localhost in a multi-node job"
        )
    if loopback_master(c):
        seen.append(loopback_master(c))
    # a gloo peer gone raised by ProcessGroupGloo's own constructor (readers.store._under_gloo_ctor) from a peer on this
    # same host (loopback): no path between hosts is involved -- that process closed its end of the full mesh before
    # the group finished connecting (it left right after creating the group: a test's or a script's ranks that run
    # different amounts of work and exit). The reading stays set-up (lead rules L, O, X (1)); the fix names that race
    ctor = [e for e in gloo if e.data.get("gloo_ctor")]
    ctor_loop = (bool(ctor) and all(is_loopback(str(e.data.get("peer") or "")) for e in ctor)
                 and not (connect or boot or setup or bad or shared or busy))
    if ctor:
        seen.append("raised by ProcessGroupGloo's constructor while it connected gloo's full mesh (connectFullMesh)"
                    + (", from a peer on this same host (loopback): that process closed its end before the mesh "
                       "finished connecting -- it exited (finished its work or failed) right after creating the group"
                       if ctor_loop else ""))
    proof = [e.brief() for e in (connect + gloo)[:3]] + (setup[0].evidence[:2] if setup else [])
    # 3 vs 4: a rank of one node reached this one over IB's connection set-up while this node listens with the socket
    # transport (or the reverse): the nodes picked different network transports -- IB up (or enabled) on one only
    mixed = next((m for e in c.samples.get("nccl_warn", []) if (m := R_WRONG_TYPE.search(e.text))
                  and {m.group(1), m.group(2)} == {"3", "4"}), None)
    if mixed:
        got, want = ("IB", "socket") if mixed.group(1) == "4" else ("socket", "IB")
        seen.insert(0, f"a peer connected with NCCL's {got} transport to a node listening with its {want} transport "
                    f"('{mixed.group(0)}'): the nodes do not use the same network transport (InfiniBand works or is "
                    "enabled on one node and not the other)")
    # gloo's tcp device (no GLOO_SOCKET_IFNAME) binds to the address the host name resolves to, and no interface has it
    lost = next((m for e in gloo if (m := _R_GLOO_NO_IFACE.search(str(e.data.get("what", ""))))), None)
    if lost:
        seen.insert(0, f"gloo found no local network interface holding {lost.group(1) or 'the address'}, the address "
                    "this host's name resolves to ('Unable to find interface for'): the host name resolves to an "
                    "address that is not this host's" + (" (0.0.0.0/8: what a numeric host name reads as, an IPv4 "
                                                         "address)" if (lost.group(1) or "").startswith("0.") else ""))
    # gloo's tcp device found no interface of the name GLOO_SOCKET_IFNAME gave ("Unable to find address for: ^lo")
    named = next((m.group(1) for e in gloo if (m := _R_GLOO_NO_ADDR.search(str(e.data.get("what", ""))))), None)
    if named is not None:
        seen.insert(0, f"gloo found no network interface named '{named}' (GLOO_SOCKET_IFNAME)"
                    + (": gloo takes interface names (one, or a comma-separated list), "
                       "not NCCL's '^' exclusion syntax or prefix matching; give it an interface that exists on every "
                       "node (ip addr: e.g. eth0, ens5)" if named.startswith(("^", "=")) else
                       ": that interface does not exist on this host; give it one that exists on every node "
                       "(ip addr)"))
    if busy:
        seen.insert(0, "NCCL could not bind its socket ('bind failed : Address already in use'): the port it needs is "
                    "taken on that host")
        proof = [busy[0].brief()] + proof
    return Verdict(
        "network_setup",
        "; ".join(seen) + (": a port on that host, not the path between the ranks" if busy and len(seen) <= 2 else
                           ": gloo's connection set-up between the processes failed, not one rank" if ctor_loop else
                           ": the network interface or path chosen between the ranks does not work"),
        (_GLOO_CTOR_FIX if ctor_loop else "") +
        ("NCCL's bind failed with 'Address already in use': a stale process of an earlier run (one stopped with "
         "Ctrl+C, its workers left behind) may still hold the port -- kill the leftover (nvidia-smi, ps); if "
         "NCCL_COMM_ID fixes the bootstrap port, pick a free one (or unset it); if the job ran for a while first, "
         "it creates communicators again and again (a dist.new_group or init per step): create the group once "
         "(outside the loop) and reuse it, and check the "
         "ephemeral port range (sysctl net.ipv4.ip_local_port_range) and sockets in TIME_WAIT (ss -tan); an old "
         "NCCL version leaked bootstrap sockets (upgrade NCCL). " if busy else "")
        + (_MIXED_FIX if mixed else "")
        + (_GLOO_IFACE_FIX if lost else "")
        + _own_socket_fix(connect)
        + "Set NCCL_SOCKET_IFNAME (and GLOO_SOCKET_IFNAME) to the interface the nodes reach each other on "
        "(ip -br addr; e.g. NCCL_SOCKET_IFNAME==eth0, or ^docker,lo,veth); check the firewall lets the ports "
        "through (nc -zv PEER PORT); rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET to see the bootstrap "
        "address and interface chosen. "
        "On one node, NCCL_P2P_DISABLE=1 as a test tells a broken GPU peer-to-peer path."
        + _connect_fix(connect)
        + (" " + _GLOO_CTOR_FIX.strip() if ctor and not ctor_loop else ""),
        "high" if connect or gloo or boot else "medium",
        [],
        proof or _samples(c, "transport"),
    )


def _connect_fix(connect: list) -> str:
    """What a failed connect's own words add to the fix (lead rules L, X (1); round 108): 'Connection refused' names an
    address where nothing listened -- a service not started yet, or the wrong address; 'No route to host' an address
    this node has no route to (the routing or the interface chosen, not the peer process)."""
    out = ""
    refused = next((e for e in connect if "refused" in str(e.data.get("what", ""))), None)
    if refused is not None:
        m = _R_CONNECT_URL.search(refused.text)
        where = m.group(1) if m else str(refused.data.get("peer") or "") or "that address"
        out += (f" Connection refused: nothing listening at {where} when the connect was made -- make sure the "
                "service that should listen there (the store, the framework's scheduler or master) is started and "
                "listening before the workers connect (ss -ltnp on its host), check whether a stale process holds "
                "the port or a firewall / container network blocks it, and in a multi-node run give the master's "
                "reachable IP, not 127.0.0.1.")
    unroute = next((e for e in connect if "No route" in str(e.data.get("what", ""))), None)
    if unroute is not None:
        peer = str(unroute.data.get("peer") or "the peer address").rsplit(":", 1)[0]
        out += (f" No route to host: this node has no route to {peer} -- check the routing between the nodes (ping "
                f"{peer} from the node that failed, ip route on both hosts; an IPoIB interface such as ib0 must be up "
                "and routed on every node, also inside a container's network namespace), and run nccl-tests across "
                "the nodes to reproduce outside PyTorch.")
    return out


def _own_socket_fix(connect: list) -> str:
    """The fix of a runtime's own socket, not NCCL's or gloo's, that failed at set-up (round 108): Open MPI's TCP BTL
    connecting to a peer process (its interface choice: btl_tcp_if_include), TensorPipe's listener that could not
    listen on the address it auto-detected (TP_SOCKET_IFNAME, the host name's resolution)."""
    out = ""
    ompi = next((e for e in connect if e.data.get("ompi_tcp")), None)
    if ompi is not None:
        addr = str(ompi.data.get("peer") or "").rsplit(":", 1)[0]
        out += ("Open MPI's TCP transport could not connect to a peer process"
                + (f" at {ompi.data['peer']}" if addr else "")
                + ": restrict Open MPI's TCP BTL to the routable interface: -mca btl_tcp_if_include <iface> (or "
                "btl_tcp_if_exclude lo,docker0); set -mca oob_tcp_if_include to the same interface (horovodrun "
                "--network-interface <iface>), "
                + (f"check that {addr} is a reachable address of the peer host and not a docker/virtual bridge, "
                   if addr else "check the address is a reachable one of the peer host, not a docker/virtual bridge, ")
                + "open the firewall / security group for the ephemeral TCP ports between the hosts, and verify "
                "plain TCP connectivity between hosts (ssh, nc) before mpirun/horovodrun. ")
    tp = next((e for e in connect if e.data.get("tp_listener")), None)
    if tp is not None:
        said = str(tp.data["what"]).split(": ", 1)[-1]
        if "in use" in said.lower():  # EADDRINUSE: the port is taken, not the address invalid (review b, finding 3)
            return out + (f"TensorPipe's listener could not listen ('{said}'): the port it binds is already taken on "
                          "this host -- a stale RPC agent of an earlier run or another job still holds it: find the "
                          "holder with ss -ltnp / lsof -i :PORT and end it, or give init_rpc a free port (the "
                          "init_method's / MASTER_PORT's port, one per job), and call rpc.shutdown() at the end of "
                          "every run. ")
        out += (f"TensorPipe's listener could not listen on the address it auto-detected ('{said}'): set "
                "TP_SOCKET_IFNAME (and GLOO_SOCKET_IFNAME) to a valid interface; make the hostname resolve to a local "
                "routable address (/etc/hosts), not an invalid one -- check socket.getaddrinfo(socket.gethostname(), "
                "None), avoid an IPv6 link-local address without scope; set MASTER_ADDR / the RPC init_method to an "
                "address of this host; or upgrade torch / tensorpipe (later releases pre-bind each candidate address "
                "and skip unusable ones). ")
    return out


# the address a client's error names in quotes or as a URL ("Timed out trying to connect to 'tcp://127.0.0.1:8000'")
_R_CONNECT_URL = re.compile(r"connect to '?((?:tcp|http|https)://[\w.\-\[\]:]{1,255}:\d{1,5})")


_GLOO_CTOR_FIX = ("A peer closed its gloo connection while the group was being created: every process must stay "
                  "until all have connected (synchronize all ranks after process-group creation before any rank "
                  "exits) -- call dist.barrier(group=pg) right after creating the ProcessGroupGloo "
                  "(or the group of init_process_group / new_group), before any process can finish its work and exit, "
                  "and destroy_process_group only after that barrier; in tests give each test a fresh store and port "
                  "(port reuse between tests) and read the first error of every spawned process. ")


_R_GLOO_NO_ADDR = re.compile(r"Unable to find address for:? ?(\S{1,80})")
_R_GLOO_NO_IFACE = re.compile(r"Unable to find interface for:? ?\[?([\w.:%\-]{0,80}?)\]?$")
_GLOO_IFACE_FIX = ("gloo binds to the address the host name resolves to unless GLOO_SOCKET_IFNAME names an interface: "
                   "set GLOO_SOCKET_IFNAME to the interface that holds this host's address (ip addr; e.g. eth0), or "
                   "fix the host name's resolution (hostname -i; /etc/hosts, DNS) so that it gives one of this host's "
                   "addresses -- a numeric host name ('189') reads as an IPv4 address (0.0.0.189); in vLLM also set "
                   "VLLM_HOST_IP to this host's address. ")


def loopback_master(c: Collected) -> str | None:
    """torchrun's printed MASTER_ADDR / rdzv_endpoint is a loopback address while the job
    spans several nodes (its GROUP_WORLD_SIZE or nnodes > 1, or ranks on several hosts):
    the other nodes' agents can never reach that store."""
    addrs = [v for n in ("MASTER_ADDR", "PET_RDZV_ENDPOINT") for v in (c.settings.get(n) or {})]
    bad = [a for a in addrs if is_loopback(a)]
    nodes = max([int(v) for n in ("GROUP_WORLD_SIZE", "PET_NNODES") for v in (c.settings.get(n) or {})
                 if v.isdigit()] + [len(hosts(c))])
    if not bad or nodes < 2:
        return None
    return (f"torchrun's rendezvous address is {bad[0]}, a loopback address, in a job of {nodes} nodes: only the "
            "node that hosts the store can reach it; set --rdzv-endpoint / MASTER_ADDR to rank 0's routable address")


# an IPoIB interface's name, the kernel's (ib0) or the predictable one (ibp60s0, ibs1): the host has an InfiniBand HCA
_IPOIB_NAME = re.compile(r"ib(?:\d+|p\d+s\d+(?:f\d+)?|s\d+)$")


# an RDMA device's name as ibv_devices lists it (Mellanox/NVIDIA mlx4_0 / mlx5_3, Broadcom bnxt_re0, Intel irdma0,
# Alibaba erdma_0, Huawei hns_0, QLogic qedr0, Pensando ionic_0): an NCCL_IB_HCA naming one names IB/RoCE hardware
_RDMA_DEVICE = re.compile(r"(?:^|[,=:\s])(?:mlx[45]_\d|bnxt_re\d|irdma\d|erdma_\d|hns_\d|qedr\d|ionic_\d)")


def _ib_asked(c: Collected) -> str:
    """The lines' evidence that the job was meant to run over an InfiniBand fabric (lead rule Z): NCCL_NET=IB (NCCL
    then fails rather than falls back), an IPoIB interface named by the job's socket settings (NCCL_SOCKET_IFNAME /
    GLOO_SOCKET_IFNAME=ib0, ibp60s0; one NCCL uses is read by _ib_unseen's own rule, on two hosts), or an
    NCCL_IB_HCA naming RDMA devices (mlx5_0, bnxt_re0: _RDMA_DEVICE; exported, or NCCL's own "NCCL_IB_HCA set to"),
    failing or not: the user named the HCAs meant to carry the job, as FI_PROVIDER=efa names the EFA fabric (rule Z;
    round 96's llamafactory-6111). '' where none does: NCCL_IB_DISABLE=0 is NCCL's default, exported out of habit on
    Ethernet-only clusters too, and says nothing of the hardware (review r3 of session 35; lead rule K); an
    NCCL_IB_HCA that only leaves devices out (^mlx5_0) names none meant."""
    for v in c.settings.get("NCCL_NET") or {}:
        if v.strip("'\" ").upper() == "IB":
            return f"NCCL_NET={v.strip(chr(39) + chr(34) + ' ')}"
    for name in ("NCCL_SOCKET_IFNAME", "GLOO_SOCKET_IFNAME"):
        for v in c.settings.get(name) or {}:
            v = v.strip("'\" ")
            if v.startswith("^"):
                continue  # a list of interfaces left out names none the job uses
            hit = next((i for i in v.lstrip("=").split(",") if _IPOIB_NAME.match(i.strip())), None)
            if hit:
                return f"{name}={v}, an IPoIB interface: the host has an InfiniBand HCA"
    for v in c.settings.get("NCCL_IB_HCA") or {}:
        v = v.strip("'\" ")
        if not v.startswith("^") and _RDMA_DEVICE.search(v):
            return f"NCCL_IB_HCA={v}"
    return ""


def _ib_asked_unseen(c: Collected, asked: str) -> Verdict:
    """Lead rules Z, AX (1), V (1): NCCL's IB transport found no device ("NET/IB : No device found") in a job whose
    lines show the fabric meant for it (_ib_asked: NCCL_NET=IB, an IPoIB interface, NCCL_IB_HCA=mlx5 beside a
    failure; NCCL's default NCCL_IB_DISABLE=0 alone is no evidence) and whose lines do not show the
    whole job on one host: the fabric meant to carry the job is not set up for the processes, which fall back to
    sockets -- network_setup, no rank (round 90's pytorch-111424); a removed or wrong setting beside it goes into the
    fix (rule L), the fabric's failure being shown. 'No device found' with no setting asking for IB (an Ethernet-only
    cluster) is not read so; NCCL_IB_CUDA_SUPPORT's removal is said only where the lines set it."""
    return Verdict(
        "network_setup",
        f"NCCL's IB transport found no device ('NET/IB : No device found') although the lines show an "
        f"InfiniBand fabric meant for the job ({asked}): the InfiniBand fabric meant to carry the job is not open "
        "to the processes, so NCCL falls back "
        "to TCP sockets (NET/Socket) -- slow, or failing where the socket interface does not reach the other nodes",
        "Give the processes the InfiniBand devices: check ibv_devinfo on the node (inside the container if one is "
        "used) lists the HCA; in a container expose /dev/infiniband (docker --device /dev/infiniband, --cap-add="
        "IPC_LOCK, --ulimit memlock=-1) and install libibverbs / rdma-core with the HCA's provider (libmlx5); check "
        "that NCCL_IB_HCA (if set) names the HCA (ibv_devinfo's names) and NCCL_SOCKET_IFNAME the right interface; "
        + ("remove settings NCCL no longer reads (NCCL_IB_CUDA_SUPPORT is removed: use NCCL_NET_GDR_LEVEL). "
           if "NCCL_IB_CUDA_SUPPORT" in c.settings else "")
        + "Rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET: 'NET/IB : Using [0]mlx5_0:1/IB' and 'Using network "
        "IB' instead of 'Using network Socket' show the fabric in use; nccl-tests across the two nodes confirm it.",
        "medium", [], [c.networks["no_ib"]])


def _ib_unseen(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule Z: NCCL's own IB transport found no device ("NET/IB : No device found"), and NET/Socket on two or
    more hosts runs over their IPoIB interfaces (ib0, ib1: an InfiniBand HCA is in those hosts): the job's traffic
    between nodes goes over TCP where the fabric should carry it -- the processes cannot open the HCA (a container
    without /dev/infiniband or libibverbs, the HCA filtered by NCCL_IB_HCA). One host alone needs no network (rule K),
    and an Ethernet-only cluster (eth0, ens5) prints the same 'No device found' with nothing wrong. Lead rule AX (1):
    NCCL's WARN that it could not open libibverbs itself, beside NET/Socket on an IPoIB interface, is the fabric
    meant to carry the job from one host's lines too, unless the lines show the whole job on that host."""
    from ncclDoctor.diagnose.verdict.noise import one_host_alone

    asked = _ib_asked(c)
    if "no_ib" in c.networks and "IB" not in c.networks and asked and not one_host_alone(c):
        return _ib_asked_unseen(c, asked)
    if "Socket" not in c.networks or "IB" in c.networks or not c.ipoib_hosts:
        return None
    # lead rule AX (1): NCCL failing to load the verbs library itself ('Failed to open libibverbs') while its sockets
    # run on a host's IPoIB interface shows the fabric meant to carry the job even on one host's lines, unless the
    # lines show the whole job on that host (one_host_alone)
    nolib = next((e for e in c.samples.get("nccl_warn", []) if "Failed to open libibverbs" in e.text), None)
    if not ("no_ib" in c.networks and len(c.ipoib_hosts) >= 2) and (nolib is None or one_host_alone(c)):
        return None
    names = sorted(c.ipoib_hosts)
    said = ("failed to load the InfiniBand verbs library ('Failed to open libibverbs')" if nolib is not None
            and "no_ib" not in c.networks else "found no device ('NET/IB : No device found')")
    return Verdict(
        "network_setup",
        f"NCCL's IB transport {said} and fell back to NET/Socket, which runs "
        + (f"over the IPoIB interfaces of {len(names)} hosts ({', '.join(names[:4])}" if len(names) > 1 else
           f"over an IPoIB interface of host {names[0]} (the lines do not show the whole job on that host")
        + (f" and {len(names) - 4} more" if len(names) > 4 else "")
        + f"): {'those hosts have' if len(names) > 1 else 'it has'} InfiniBand, but the processes cannot open it, so "
        "the traffic between nodes goes over "
        "TCP sockets (IP over IB) instead of the fabric's RDMA -- slow, and a job meant for IB",
        "Give the processes the InfiniBand devices: in a container (docker, shifter, apptainer, enroot) mount "
        "/dev/infiniband (docker --device /dev/infiniband or -v /dev/infiniband:/dev/infiniband, --cap-add=IPC_LOCK, "
        "--ulimit memlock=-1; shifter: the image needs the site's IB/MPI module) and install libibverbs (rdma-core) "
        "with the HCA's provider (libmlx5) in the image; check ibv_devinfo inside it lists the HCA, and that "
        "NCCL_IB_HCA (if set) names it and NCCL_IB_DISABLE is not 1. Rerun with NCCL_DEBUG=INFO "
        "NCCL_DEBUG_SUBSYS=INIT,NET: 'NET/IB : Using [0]mlx5_0:1/IB' instead of NET/Socket shows the fabric in use.",
        "medium",
        [],
        [c.networks["no_ib"] if "no_ib" in c.networks else nolib.brief(), c.networks["Socket"]],
    )
