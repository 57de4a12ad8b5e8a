"""The last words: NCCL's other errors and WARN families, settings printed in the logs, benign noise
(the "none" verdict), and ``settle`` (the verdict after every reader's findings).

Before "none": a log that stops inside NCCL's set-up chatter (no "Init COMPLETE") or an nccl-tests
run with no result row is a hang in set-up (``_setup_hang``), and "none" is high only with positive
evidence the job ended (``finished``); a run that completed is not failed by its own settings.
"""

from __future__ import annotations

import re

from ncclDoctor.diagnose import generic
from ncclDoctor.diagnose.lone import lone_failure
from ncclDoctor.diagnose.reason import Conclusion, _fmt_ranks
from ncclDoctor.diagnose.signatures import (
    R_EFA_HOST,
    R_FOREIGN_ACCEPT,
    R_NCCL_PREFIX,
    R_OFI_NO_NIC,
    R_STORAGE_ERR,
    R_VICTIM_EXC,
    is_loopback,
)
from ncclDoctor.diagnose.state import Collected
from ncclDoctor.diagnose.verdict.base import Verdict, _named, _samples, _what
from ncclDoctor.diagnose.warn_families import _NET_FIX, OFI_START_FAILED
from ncclDoctor.findings import Finding, Severity

# proxy.cc's ncclProxyCallBlocking: "Proxy Call to rank 7 failed (Connect)" -- the message types of set-up
# (Init, SharedInit, Setup, Connect) fail when the connection to the peer cannot be made
_PROXY_SETUP = re.compile(r"Proxy Call to rank (\d{1,7}) failed \((?:Connect|Setup|SharedInit|Init)\)")


# argcheck.cc's range check prints the communicator's own size ("root should be in the 0..%d range", nRanks-1): a
# range of 0..-1 is a communicator with no ranks -- its creation failed, or it was aborted
_EMPTY_COMM = re.compile(r"should be in the 0\.\.-1 range")


def argument_echo(c: Collected, e) -> bool:
    """An NCCL argument check (argcheck.cc: "invalid root", "not a valid pointer") refusing a call on a communicator
    that had already failed on a system error: an ncclSystemError is shown, and the communicator was aborted (NCCL's
    "Abort COMPLETE") or the check found it with no ranks (0..-1). The refusal only echoes that failure (the
    framework went on calling the broken communicator): the system error is the cause, not the call's arguments."""
    from ncclDoctor.diagnose.warn_families import classify

    fam = classify(e.text)
    if fam is None or fam.name != "call_arguments":
        return False
    if not any(x.data.get("code") == "ncclSystemError" for x in c.samples.get("nccl_error", [])):
        return False
    return bool(_EMPTY_COMM.search(e.text)) or any(st.counts.get("comm_aborted") for st in c.ranks.values())


def _nccl_other(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    evs = c.samples.get("nccl_error", [])
    if not evs:
        return None
    codes = {e.data.get("code") for e in evs}
    echo = [e for e in c.samples.get("nccl_warn", []) if argument_echo(c, e)]
    if echo or ("ncclSystemError" in codes and any(st.counts.get("comm_aborted") for st in c.ranks.values())):
        # the argument refusals that follow an aborted communicator (its "invalid argument") are its echo
        codes.discard("ncclInvalidArgument")
    proxy = next((m for e in evs if (m := _PROXY_SETUP.search(str(e.data.get("last_error") or e.text)))), None)
    if proxy:  # NCCL's proxy could not open the transport connection to a peer while the communicator was set up
        return Verdict(
            "network_setup",
            f"NCCL's proxy could not set up the transport connection to rank {proxy.group(1)} ({proxy.group(0)}): the "
            "connection between the ranks failed while the communicator was being set up (the interface NCCL "
            "picked, a firewall between the hosts), not a faulty rank",
            _NET_FIX, "medium", [], [e.brief() for e in evs[:3]])
    if "ncclInternalError" in codes:
        lone = lone_failure(c)  # lead rule A: the one process torchrun shows failing is the rank it happened on
        who = lone.culprits if lone is not None and lone.exitcode not in (None, 0, -6) else []
        return Verdict(
            "nccl_internal",
            "NCCL reported an internal error" + (f" on {lone.who}, the one process torchrun shows failing" if who
                                                 else ""),
            "Rerun with NCCL_DEBUG=INFO to see the check that failed; check that every rank uses the same NCCL "
            "version (torch's bundled one vs a system one) and run `ncclDoctor check`; on consumer GPUs try "
            "NCCL_P2P_DISABLE=1 as a test (a broken PCIe peer-to-peer path)." + _old_nccl(evs),
            "medium",
            who,
            [e.brief() for e in evs[:3]],
        )
    if "ncclInvalidArgument" in codes and not any(e.data.get("last_error") for e in evs):
        # lead rule Q: NCCL refusing an argument with nothing more said (no Last error, no WARN the detectors before
        # read): torch's own calls pass NCCL the rank, device and communicator the launch gave it (a barrier has no
        # user tensor at all), so the usual cause is the launch every rank shares -- more processes than GPUs, the
        # device not set per local rank, a rank or world size that does not fit: invalid usage, no rank named
        return Verdict(
            "invalid_usage",
            "NCCL rejected an argument (ncclInvalidArgument) with nothing more said: in torch's calls (a barrier, the "
            "lazy creation of the communicator in the first collective) the arguments are the rank, world size and "
            "device the processes were launched with -- a launch or device-assignment error every rank shares, not "
            "a faulty rank",
            "Check how the processes were started: one process per GPU and no more (torchrun --nproc_per_node / "
            "torch.distributed.launch --nproc_per_node equal to the GPUs CUDA_VISIBLE_DEVICES leaves), each on its "
            "own device: torch.cuda.set_device(local_rank) before init_process_group and the first collective; a "
            "script that spawns its own workers must not also run under a launcher. Rerun with NCCL_DEBUG=INFO (or "
            "WARN): the 'Last error' line names the argument.",
            "medium", [], [e.brief() for e in evs[:3]], job_wide=True)
    if codes == {"ncclRemoteError"} and all(e.data.get("in_init") for e in evs):
        # lead rules L and O: the remote error raised while the communicator was being created (CuPy's
        # NcclCommunicator.__init__): the bootstrap or first connection between the processes failed -- set-up
        return Verdict(
            "network_setup",
            "NCCL's ncclRemoteError ('remote process exited or there was a network error') raised while the "
            "communicator was being created: the connection between the processes failed in its set-up (the "
            "interface NCCL picked, a firewall, a peer that never started), not a faulty rank",
            "Check every peer process is alive at init (each one creating the same communicator with the same unique "
            "id); " + _NET_FIX + (" An old binding that prints the result code as a bare number (CuPy's 'KeyError: "
                                  "6' is ncclRemoteError): upgrade cupy to see NCCL's own message."
                                  if any("KeyError" in e.text for e in evs) else ""),
            "medium", [], [e.brief() for e in evs[:3]])
    if codes == {"unknown"} and not any(e.data.get("last_error") for e in evs):
        # an NcclError whose text is lost (Ray's "RayTaskError(NcclError)" names only the class): which NCCL error,
        # and whose side, the lines cannot say
        return Verdict(
            "unknown",
            "an NCCL call failed (NcclError), but its result code and message are not in these lines: which NCCL "
            "error it was, and which process or connection is at fault, cannot be told",
            "Show the NcclError's full message (the result code: system, internal, invalid usage, remote error); "
            "rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET and collect the other workers' logs (Ray worker "
            "logs under /tmp/ray/session_latest/logs); check the NCCL version the binding (cupy / NCCL version) "
            "loads and NCCL_SOCKET_IFNAME.",
            "low", [], [e.brief() for e in evs[:3]])
    if codes == {"ncclRemoteError"} and not any(e.data.get("last_error") or e.data.get("mid_run") for e in evs):
        # the two-line summary alone: NCCL's own words say "a peer exited OR the network failed", and the
        # "Last error:" line that would tell them apart (a socket closed/reset, an IB completion) is not there.
        # (A line that places the error in a communicator already running -- XLA aborting one on its async error
        # -- is lead rule O's peer gone mid-run: early_exit below.)
        return Verdict(
            "unknown",
            "NCCL's ncclRemoteError without its 'Last error' line: 'remote process exited or there was a network "
            "error' is NCCL's own either-or, and nothing else in these lines tells which (no peer's failure, no "
            "socket or IB error); no rank can be named",
            "Rerun with NCCL_DEBUG=WARN (or INFO, NCCL_DEBUG_SUBSYS=INIT,NET) so the error carries its 'Last error' "
            "line (a peer's socket closed or reset, an IB completion error), and collect the other ranks' logs: a "
            "rank that exited first (an exception, an OOM, a SIGKILL) is the cause; if every process was alive, it "
            "is the network between the nodes.",
            "low", [], [e.brief() for e in evs[:3]])
    if codes == {"ncclRemoteError"}:  # ncclGetErrorString: "remote process exited or there was a network error"
        return Verdict(
            "early_exit",
            "NCCL's ncclRemoteError: a peer process exited (or the network to it failed) while this rank still "
            "communicated with it; the rank printing it is a victim, the peer's own failure came first",
            "Find the rank that exited first: its own log and traceback (an exception, a CUDA error, an OOM, a "
            "SIGKILL from the host); if every process was alive, check the network between the nodes "
            "(NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=NET).",
            "medium",
            [],
            [e.brief() for e in evs[:3]],
        )
    topo = sorted({f"{f} -> {n}" for f, n in c.retcodes if f in ("xml.cc", "topo.cc") and n == 2})
    if "ncclSystemError" in codes and topo:  # the trail runs through graph/: topology detection read sysfs and failed
        return Verdict(
            "nccl_system",
            f"NCCL's topology detection failed on a system call ({', '.join(topo[:3])}: graph/xml.cc, topo.cc read "
            "the PCI tree in sysfs): it could not resolve a GPU's or NIC's PCI path, as in VMs and containers whose "
            "PCI view is virtual or whose /sys is partial; no rank is at fault",
            "Upgrade NCCL (newer versions tolerate virtual PCI paths), or give NCCL the topology instead of reading "
            "sysfs: NCCL_TOPO_FILE=<xml> (dump one with NCCL_TOPO_DUMP_FILE on a node where it works); in a container, "
            "mount /sys from the host.",
            "medium", [], [e.brief() for e in evs[:3]], job_wide=True)
    if "ncclSystemError" in codes:
        lone = lone_failure(c)  # lead rule A: the one process the launcher shows failing is where the call failed
        who = lone.culprits if lone is not None and lone.exitcode not in (None, 0, -6) else []
        return Verdict(
            "nccl_system",
            "NCCL reported a system error (a socket, shared memory or IB verbs call failed)"
            + (f" on {lone.who}, the one process the launcher shows failing" if who else "")
            + (f"; the later '{_what(echo[0])[:100]}' is that failed communicator's echo (a call on a communicator "
               "already aborted), not the call's arguments" if echo else ""),
            "Read the Last error line; rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET to see which call "
            "failed; check /dev/shm (docker --shm-size / --ipc=host), NCCL_SOCKET_IFNAME, and the GPUs each process "
            "sees: select them with CUDA_VISIBLE_DEVICES (contiguous, one per process) rather than a framework's "
            "device list with gaps." + _old_nccl(evs),
            "medium",
            who,
            [e.brief() for e in evs[:3]],
        )
    return None


_NCCL_VERSION = re.compile(r"NCCL version (\d+)\.(\d+)\.(\d+)")


def _old_nccl(evs: list) -> str:
    """An NCCL older than 2.10 named in the error lines: its set-up bugs have been fixed since."""
    for e in evs:
        m = _NCCL_VERSION.search(e.text)
        if m and (int(m.group(1)), int(m.group(2))) < (2, 10):
            return (f" NCCL {'.'.join(m.groups())} is old (2021 or before): upgrade torch (it bundles NCCL) before "
                    "digging further, many set-up errors of that age are fixed.")
    return ""


def _first_and_last(said: list[str]) -> str:
    """The first message a library printed, quoted, and its last when it printed several."""
    return f"'{said[0][:160]}'" + (f" ... '{said[-1][:120]}'" if len(said) > 1 else "")


def _warn_family(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """An NCCL WARN (or an NCCL error's "Last error" text) of a family no specific detector
    read: its family's cause and fix (warn_families.py)."""
    from ncclDoctor.diagnose.warn_families import classify

    refused = c.samples.get("rdma_refused", [])
    if refused:  # lead rule J: the host's RDMA driver refused to create a resource (a PD, a CQ) for lack of memory
        return Verdict(
            "nccl_system", "the kernel's RDMA driver refused to create a network resource for lack of memory "
            f"('{refused[0].text.strip()[-120:]}'): the host refused the EFA/IB resources the transport asked for at "
            "set-up, on every rank alike, not a rank's fault nor the fabric's links",
            "Check the host's resources for the RDMA device: dmesg for the driver's errors, the locked-memory limit "
            "(ulimit -l unlimited; docker --ulimit memlock=-1; the memlock limit in /etc/security/limits.conf), huge "
            "pages and free memory on the node, and that the EFA driver, libfabric and aws-ofi-nccl come from one EFA "
            "installer (fi_info -p efa lists the devices); then rerun.", "medium", [],
            [e.brief() for e in refused[:2]] + [e.brief() for e in c.samples.get("nccl_warn", [])[:1]], job_wide=True)
    atl = c.samples.get("ccl_transport", [])
    if atl:  # oneCCL's transport layer (ATL over libfabric/MPI) failed to start: the library's own system set-up
        said = [e.data["said"] for e in atl]
        return Verdict(
            "nccl_system", "oneCCL (the collective library here) could not initialise its transport layer (ATL): "
            + _first_and_last(said) + " -- libfabric (or MPI) "
            "offers no usable provider in this environment (the one asked for missing, or shared memory unusable), "
            "before any collective and before any peer is contacted; the set-up every rank shares, not a rank",
            "Check oneCCL's transport set-up: source the oneAPI / oneCCL environment (setvars.sh / vars.sh) so that "
            "its libfabric and providers are found, and list them (fi_info; fi_info -p shm); set FI_PROVIDER to one "
            "that exists here (shm on one node, tcp or the fabric's across nodes) or CCL_ATL_TRANSPORT=mpi; give the "
            "container a usable /dev/shm (--ipc=host or --shm-size); keep the oneCCL version matched to the "
            "framework (torch-ccl / intel-extension); CCL_LOG_LEVEL=debug shows the providers it tries.",
            "medium", [], [e.brief() for e in atl[:3]], job_wide=True)
    wk = c.samples.get("ccl_worker", [])
    if wk:  # oneCCL could not start its worker threads: a system call of the host (pthread_create) refused them
        said = [e.data["said"] for e in wk]
        return Verdict(
            "nccl_system", "oneCCL (the collective library here) could not start its worker threads: "
            + _first_and_last(said) + " -- a system call of its "
            "start-up failed on this host (typically the worker CPU affinity naming CPUs the process may not use), "
            "before any collective; every process starts the same way, not a rank's fault",
            "Check oneCCL's worker settings against the CPUs the process may use (taskset -p PID, the cgroup cpuset "
            "of the container / job): unset or fix CCL_WORKER_AFFINITY, lower CCL_WORKER_COUNT, or launch through "
            "mpirun (CCL_ATL_TRANSPORT=mpi) so the affinity comes from the launcher; CCL_LOG_LEVEL=debug shows the "
            "affinity it tries.",
            "medium", [], [e.brief() for e in wk[:3]], job_wide=True)
    hits = []
    for e in c.samples.get("nccl_warn", []) + c.samples.get("nccl_error", []):
        if e.kind == "nccl_warn" and harmless_warn(c, e):
            continue
        fam = classify(e.text if e.kind == "nccl_warn" else (e.data.get("last_error") or ""))
        if fam is not None and not (e.kind == "nccl_warn" and argument_echo(c, e)):
            hits.append((fam, e))
    if not hits:
        return None
    # a family that only hands an earlier error back (the communicator already failed) gives way to any other
    hits = [h for h in hits if h[0].cause != "unknown"] or hits
    fam, first = hits[0]
    same = [e for f, e in hits if f is fam]
    ranks = sorted({e.rank for e in same if e.rank is not None})
    cause, meaning = fam.cause, fam.meaning
    nonic = [e for e in c.samples.get("benign", []) if e.data.get("what") == "ofi device not found"]
    if fam.name == "ofi_endpoint" and nonic:  # the plugin could not even read its device: the device is not usable
        cause, meaning = "network_setup", (
            "the libfabric net plugin (aws-ofi-nccl) could not set up its endpoint on the EFA device, and the lines "
            f"show it unable to read the device at all ('{R_OFI_NO_NIC.search(nonic[0].text).group(0)}'): the EFA "
            "device is not usable from these processes (not passed into the container, the EFA driver or libfabric "
            "missing or mismatched), so NCCL's connections between the nodes cannot be set up over it")
    return Verdict(cause, f"{meaning} (NCCL: '{_what(first)}'" + (f", on {_named(ranks)})" if ranks else ")"),
                   fam.fix, "low" if cause == "unknown" else "medium", [], [e.brief() for e in same[:3]],
                   job_wide=fam.job_wide)


# WARN texts NCCL prints at a normal teardown, as advice, or about its topology search in containers (init.cc/
# linux.cc "Could not find real path of <sysfs device>": a virtual NIC), never a failure by themselves; also
# what NCCL or a net plugin says about an optional library or plugin it did not find (it then uses its own
# sockets: libibverbs absent on a node without IB, no libnccl-net.so) and a plugin's CPU-affinity/retry chatter.
# (pattern, what an expert says of it in a "none" verdict; "" when it needs no word)
_NOISE = (
    (r"driver shutting down|Accept failed Resource temporarily unavailable|NCCL_\w+ (?:is )?deprecated|"
     r"\bignor(?:ed|ing)\b|[Ww]arning:", ""),
    (r"Could not find real path", "NCCL's 'Could not find real path' is harmless: a virtual device in its "
     "topology search (a container or VM NIC)"),
    # ibvwrap.cc's "lib wrapper not initialized." is the same absence seen by the IB transport's first verbs call
    (r"Failed to open libibverbs|lib wrapper not initialized", "NCCL's 'Failed to open libibverbs' is harmless: no "
     "InfiniBand verbs library on this node, so NCCL uses its sockets (install rdma-core only if the nodes have "
     "InfiniBand/RoCE)"),
    (r"(?:Failed to open|could not find|No plugin found \(|Plugin load returned) ?\S*libnccl-net|"
     r"NET/Plugin ?: (?:No plugin found|Plugin load|Failed to find)", "NCCL's 'no net plugin' line is harmless: "
     "it uses its built-in transports"),
    # a net plugin probing NCCL for an optional entry point with dlsym (aws-ofi-nccl's configure_nvls_option:
    # "NET/OFI Could not find ncclGetVersion symbol"): it skips the check the function was for and goes on
    (r"\bNET/\w+\b.*[Cc]ould not find \w+ symbol", "a net plugin's 'Could not find <function> symbol' WARN is "
     "harmless: the plugin (aws-ofi-nccl) looked up an optional NCCL function and skips the check it was for; check "
     "that the aws-ofi-nccl / NCCL version pair is a supported one"),
    # graph/search.cc: the topology search found no path of that pattern (ring, tree, ...) and builds its channels
    # in the simple order instead: the communicator still works, maybe with less bandwidth
    (r"Could not find a path for pattern \d+, falling back", "NCCL's 'Could not find a path for pattern N, falling "
     "back to simple order' is harmless for correctness: its topology search built the channels in a simple order "
     "instead (maybe at lower bandwidth); in a VM or container whose PCI/NVLink topology NCCL cannot see, give it "
     "the topology (NCCL_TOPO_FILE) and compare nccl-tests' busbw with the hardware's"),
    # aws-ofi-nccl finding no EFA provider when it initializes ("NET/OFI Only EFA provider is supported", "OFI
    # fi_getinfo() call failed: No data available", "Couldn't find any optimal provider", then "aws-ofi-nccl
    # initialization failed"): NCCL drops the plugin and uses its own transports, as when libibverbs is absent
    (r"NET/OFI (?:Only EFA provider is supported|aws-ofi-nccl initialization failed|OFI fi_getinfo\(\) call failed|"
     r"Couldn't find any optimal provider)", "the net plugin aws-ofi-nccl's 'initialization failed' (no EFA "
     "provider, fi_getinfo finding nothing) is harmless where the node has no EFA: NCCL drops the plugin and uses "
     "its own transports (IB or sockets); where the node should use EFA, the device is not visible to the process: "
     "fi_info -p efa must list it (docker --device /dev/infiniband/uverbs*, the Kubernetes EFA device plugin)"),
    # the FastSocket plugin's rx-queue affinity loop: it goes on ("Connected after N retries")
    # lead rule U(1): the subnet manager's informational IB async events (re-registration, a new SM, a LID/GID
    # change, a port coming up); port errors, catastrophic errors and access violations stay ib_fabric
    (r"async event ?: ?(?:client reregist|SM change|LID change|GID (?:table )?change|P_Key change|pkey change|"
     r"port active)", "NCCL's 'Got async event : client reregistration' (or SM/LID/GID change) is informational: "
     "the InfiniBand subnet manager re-registered the ports; nothing failed"),
    # lead rule AD (3): NCCL's listening socket refusing a connection from outside the job ("socketFinalizeAccept:
    # wrong magic", the proxy's "[Service thread] Accept failed Success"): the job's own connections are untouched
    (R_FOREIGN_ACCEPT.pattern, "NCCL's 'socketFinalizeAccept: wrong magic' / '[Service thread] Accept failed "
     "Success' warnings are its listening socket refusing a connection that did not speak NCCL's handshake -- "
     "something outside the job (a port scanner or health check hitting NCCL's listening port) connected to it; the "
     "job's own connections are not affected. To stop them, keep NCCL on the cluster's internal network "
     "(NCCL_SOCKET_IFNAME) and firewall the NCCL port range (NCCL_PORT_RANGE) from outside hosts"),
    (r"Cannot get incoming CPU|Maximum retry reached for (?:accept|connect)", "a net plugin's (FastSocket's) CPU-"
     "affinity and retry warnings are harmless when it goes on to connect ('Connected after N retries')"),
)


_WARN_NOISE = re.compile("|".join(p for p, _ in _NOISE))
# net_ib.cc's device enumeration: an HCA it cannot open (its /dev/infiniband/uverbsN not in the container, no
# permission) is skipped, and NCCL goes on with the HCAs it could open, or its sockets: harmless where NCCL's own lines
# show it went on ("Using network X"); alone, the WARN is that HCA's trouble (ib_fabric)
R_SKIPPED_HCA = re.compile(r"Call to ibv_open_device failed|NET/IB ?: ?Unable to open device")
_SKIPPED_HCA_WORDS = (
    "NCCL's 'Call to ibv_open_device failed' / 'NET/IB : Unable to open device X' is no failure here: NCCL skipped "
    "that HCA and went on with the others (or its sockets when none is left, slower); to use it in a container pass "
    "its device files (docker --device /dev/infiniband/uverbsN or -v /dev/infiniband:/dev/infiniband, "
    "--cap-add=IPC_LOCK, --ulimit memlock=-1; Kubernetes: the RDMA device plugin) and check ibv_devinfo inside it")


def _went_on(c: Collected) -> bool:
    """NCCL's own lines show it chose its network and went on ("Using network IB", "NET/IB : Using [0]mlx5_1")."""
    return any(e.data.get("network") for e in c.samples.get("transport", []))


# aws-ofi-nccl failing to start (no EFA provider): harmless where the host has no EFA, not where it was meant (rule Z)
R_OFI_INIT = re.compile(rf"NET/OFI (?:{OFI_START_FAILED})")


def efa_meant(c: Collected) -> bool:
    """Lead rule Z: the lines show the EFA fabric was meant to carry the job: the plugin naming an EFA instance type
    as its platform or FI_PROVIDER=efa (parse: 'efa fabric meant'), a host name carrying an EFA instance type (p4d,
    p5, trn1), the plugin's own test failing ('OFI NCCL failure'), or several hosts left on NCCL's sockets."""
    if any(e.data.get("what") == "efa fabric meant" for e in c.samples.get("benign", [])):
        return True
    warns = c.samples.get("nccl_warn", [])
    if any("OFI NCCL failure" in e.text for e in warns):
        return True
    hosts = {m.group("host") for e in warns + c.samples.get("transport", []) if (m := R_NCCL_PREFIX.search(e.text))}
    if any(R_EFA_HOST.search(h) for h in hosts):
        return True
    socket_hosts = {m.group("host") for e in c.samples.get("transport", [])
                    if e.data.get("network") == "Socket" and (m := R_NCCL_PREFIX.search(e.text))}
    return len(socket_hosts) > 1


def harmless_warn(c: Collected, e) -> bool:
    """An NCCL WARN that names no failure: the noise table, or an HCA skipped where NCCL went on without it."""
    if R_OFI_INIT.search(e.text) and efa_meant(c):
        return False
    return bool(_WARN_NOISE.search(e.text) or (R_SKIPPED_HCA.search(e.text) and _went_on(c)))


def _noise_words(c: Collected) -> list[str]:
    """What the harmless NCCL WARNs of the input are, for a "none" verdict."""
    texts = [e.text for e in c.samples.get("nccl_warn", [])]
    skipped = [_SKIPPED_HCA_WORDS] if _went_on(c) and any(R_SKIPPED_HCA.search(t) for t in texts) else []
    return [w for p, w in _NOISE if w and any(re.search(p, t) for t in texts)] + skipped


def _warn_subsystem(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """The last word before "nothing found": an NCCL WARN is NCCL reporting a failure, so a WARN
    of no known family still gets its subsystem's cause class (low confidence) and its text."""
    from ncclDoctor.diagnose.warn_families import subsystem

    evs = [e for e in c.samples.get("nccl_warn", []) if not harmless_warn(c, e)]
    if not evs:
        return None
    fam = subsystem(_what(evs[0]))
    return Verdict(fam.cause, f"{fam.meaning}: '{_what(evs[0])}'; no known family of NCCL's messages explains it "
                   "further", fam.fix, "low", [], [e.brief() for e in evs[:3]])


def finished(c: Collected) -> bool:
    """Positive evidence that the job ran to its end: an nccl-tests result row or closing average,
    torch's process-group destructor warning or CUDA's 'driver shutting down' at process exit."""
    exits = any("driver shutting down" in (e.data.get("what") or "") for e in c.samples.get("benign", []))
    return bool(c.kinds.get("run_done") or c.kinds.get("pg_not_destroyed") or exits)


_P2P_FIX = ("A hang in set-up or in the first collective on one node, with no error, is the GPUs' peer-to-peer "
            "path: rerun with NCCL_P2P_DISABLE=1 (NCCL then copies through host memory); if that works, P2P DMA "
            "between the GPUs is broken on this machine: turn the IOMMU off (kernel parameter intel_iommu=off or "
            "amd_iommu=off, or iommu=pt) and PCIe ACS on the switches (setpci, the BIOS), check nvidia-smi topo -m, "
            "and update the GPU driver (consumer GPUs report P2P that some drivers do not support); run nccl-tests' "
            "all_reduce_perf with NCCL_DEBUG=INFO to see the last step.")
_SETUP_NET_FIX = ("Collect every rank's log with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET (the rank that did not "
                  "connect prints where it stopped) and py-spy dump --pid of a stuck process; check that NCCL uses an "
                  "interface the nodes reach each other on (NCCL_SOCKET_IFNAME), that no firewall blocks the ports "
                  "NCCL opens between the nodes, and that every node runs the same NCCL version; nccl-tests "
                  "(all_reduce_perf -b 8 -e 128M) across the same hosts, with NCCL_DEBUG=INFO, tells whether NCCL's "
                  "transport between them works without the framework.")


def _setup_hang(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """NCCL's set-up chatter (rings, trees, channels) with no 'Init COMPLETE', or an nccl-tests run
    that printed its devices and header but no result row, and no failure: the job stopped in (or
    right after) the communicator's set-up, which is a hang, not 'nothing wrong'. On one node with
    no network transport it is the GPUs' peer-to-peer path; across nodes the lines cannot say why."""
    in_setup = c.kinds.get("setup") and not c.kinds.get("setup_done")
    no_row = c.kinds.get("run_start") and not c.kinds.get("run_done")
    if finished(c) or not (in_setup or no_row):
        return None
    where = ("in NCCL's communicator set-up (no 'Init COMPLETE')" if in_setup
             else "before the first result of the benchmark (its first collective)")
    proof = _samples(c, "setup", 2) + _samples(c, "run_start", 2)
    one_node = len(c.setup_hosts) == 1 and not c.kinds.get("setup_net")
    if not c.kinds.get("run_header"):
        # lead rule K: NCCL's set-up INFO lines with nothing failing among them show nothing failing, whether the
        # log stopped there or the paste did (the lines cannot tell); the fix says what to collect if it hangs there.
        # So does an nccl-tests run that printed its devices but not yet its table header: it never reached its first
        # collective in these lines. A WARN among them that names a problem is read by its own class.
        if any(not harmless_warn(c, e) for e in c.samples.get("nccl_warn", [])):
            return None
        return Verdict(
            "none",
            "nothing in these lines is a failure: they are NCCL's communicator set-up INFO lines (versions, rings, "
            "trees, channels) with no WARN, error, timeout or exit among them, and they cannot tell an excerpt from a "
            "log that stopped there",
            "Nothing to fix in these lines. " + _if_it_hangs(c), "low", [], proof)
    if one_node:
        return Verdict("network_setup", f"the log stops {where} on one node ({next(iter(c.setup_hosts))}) with no "
                       "error: a hang while the GPUs connect to each other, the peer-to-peer (P2P) path between "
                       "them, not a rank", _P2P_FIX, "medium", [], proof)
    return Verdict("unknown", f"the log stops {where} with no error: the job hung while the ranks connected "
                   + ("over the network (" + ", ".join(sorted(c.setup_hosts)[:4]) + ")" if c.setup_hosts else "")
                   + "; these lines do not say which rank or connection is stuck", _SETUP_NET_FIX, "low", [], proof)


def _nccl_chatter(c: Collected) -> bool:
    """NCCL's own set-up INFO lines are in the input (bootstrap and socket interfaces, versions, rings, trees,
    channels, 'Init COMPLETE')."""
    return bool(c.kinds.get("setup") or c.kinds.get("transport") or c.kinds.get("setup_done"))


def _if_it_hangs(c: Collected) -> str:
    """Lead rule K's fix for set-up chatter: what to collect if the job hangs after these lines. On one node (every
    NCCL process on one host, no network transport) the usual suspect is the GPUs' peer-to-peer path."""
    named = set(c.setup_hosts) | {h for h, _, _ in c.procs if h}
    one_node = len(named) == 1 and not c.kinds.get("setup_net")
    return ("If the job does hang right after them, collect what shows where: every rank's log with NCCL_DEBUG=INFO "
            "(an 'Init COMPLETE' line per rank, or the rank that never printed one), py-spy dump --pid of a stuck "
            "process and a Flight Recorder dump. " + (_P2P_FIX if one_node else _SETUP_NET_FIX) + _shown_settings(c))


_OWN_NETS = ("IB", "Socket", "no_ib")


def _set_here(c: Collected) -> str:
    """For a "none" verdict over lines that set NCCL's network settings (exports, an env dump) and nothing failing:
    what to check of those settings, and what to collect, since the failure the user saw is not in the lines."""
    ifname = next(iter(c.settings.get("NCCL_SOCKET_IFNAME") or ()), None)
    debug = next(iter(c.settings.get("NCCL_DEBUG") or ()), None)
    out = ""
    if ifname:
        out += (f" These lines set NCCL_SOCKET_IFNAME={ifname}: check that this interface exists, is up and carries "
                "the address the other nodes reach, under the same name on every node (ifconfig / ip addr), and "
                "that the hostfile and passwordless ssh reach every node.")
    if debug:
        out += (f" They set NCCL_DEBUG={debug}: collect the failing lines, the NCCL_DEBUG=INFO logs of every node "
                "(the first WARN or error there says why).")
    return out


def _shown_settings(c: Collected) -> str:
    """What the set-up lines show of NCCL's own choices: the NCCL_* settings it echoes ("X set by environment to
    Y"), and an external net plugin it runs over ("Using network IBext_v8"), which NCCL_IB_DISABLE does not turn off."""
    out = ""
    shown = [f"{n}={v}" for n, vals in sorted(c.settings.items()) if n.startswith("NCCL_") for v in list(vals)[:1]]
    if shown:
        out += (f" The NCCL settings these lines show ({', '.join(shown[:6])}) only change which transport or path "
                "NCCL picks; they do not fail by themselves.")
    plugins = sorted(n for n in c.networks if n not in _OWN_NETS and not n.endswith("_using"))
    if plugins:
        out += (f" NCCL runs over the external net plugin '{plugins[0]}' (a libnccl-net.so such as HPC-X's SHARP "
                "plugin), not its internal IB/Socket transports: NCCL_IB_DISABLE does not turn a plugin off; "
                "NCCL_NET=Socket (or NCCL_NET_PLUGIN=none) selects the internal transport.")
    return out


def _rank0_elsewhere(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """The host that took rank 0 (fairseq's "initialized host H as rank 0") is not the master address its processes
    were given (tcp://A:P): NCCL's Bootstrap interface list on H shows H's own addresses and A is not among them. Rank 0
    hosts the store at A, so H was launched with another node's rank range (the nodes each take ranks 0..N-1: its
    --distributed-rank / --node_rank offset missing), with nothing failing: lead rule AA (1), config, no rank."""
    evs = [e for e in c.samples.get("launch_args", []) if e.data.get("rank0_host") and e.data["addrs"]]
    if not evs or c.exceptions or c.child_failures or c.worker_failures or c.samples.get("nccl_error"):
        return None
    if any(not harmless_warn(c, e) for e in c.samples.get("nccl_warn", [])):
        return None
    e = evs[0]
    a, host, addrs = e.data["master"], e.data["host"], list(dict.fromkeys(e.data["addrs"]))
    if a in ("localhost", "127.0.0.1", "::1", "0.0.0.0") or a in addrs or a.split(".")[0] == host.split(".")[0]:
        return None
    if not _R_IPV4.match(a) and all(_R_IPV4.match(x) or ":" in x for x in addrs):
        return None  # a host name against addresses: the same host may answer to both, the text cannot tell
    return Verdict(
        "config",
        f"host {host} took rank 0 ('{e.text[:120]}') while its processes were given the master address {a}, and NCCL's "
        f"Bootstrap interfaces on that host are {', '.join(addrs[:4])}: rank 0 hosts the store at the master address, "
        "so this node was launched with the rank range of the master node (every node taking ranks 0..N-1) and the "
        "nodes do not form one world -- a launch setting, not a rank's fault",
        "Give each node its own rank range: --distributed-rank (or --node_rank / NODE_RANK) = node index x GPUs per "
        "node, --distributed-world-size = the total GPUs over all nodes, and the same --distributed-init-method "
        "tcp://MASTER_IP:PORT on every node, so that they form one world across both nodes; pin NCCL's interface "
        "(NCCL_SOCKET_IFNAME=eth0) where it also lists docker0.",
        "medium", [], [e.brief()], job_wide=True)


def _own_worlds(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """nccl-tests' preamble printed by two processes at once (parse: ``own_worlds``), with nothing failing: only a
    world's rank 0 prints it, so each process is rank 0 of its own world -- the binary was launched by mpirun without
    being built with (or linked to) that MPI, and every process runs alone (lead rule AA (1)): config, no rank."""
    evs = [e for e in c.samples.get("launch_args", []) if e.data.get("own_worlds")]
    if not evs or c.exceptions or c.child_failures or c.worker_failures:
        return None
    if any(not harmless_warn(c, e) for e in c.samples.get("nccl_warn", [])) or c.samples.get("nccl_error"):
        return None
    return Verdict(
        "config",
        "nccl-tests printed its preamble ('# nThread ... nGpus ...') more than once at the same time: only rank 0 of a "
        "world prints it, so every process launched is rank 0 of its own world (each numbers its GPUs from Rank 0) "
        "and the nodes run separate jobs instead of one -- the benchmark is not built with (or not linked to) the "
        "MPI that launched it, a launch set-up every process shares, not a rank's fault",
        "Rebuild nccl-tests with MPI support against the MPI whose mpirun launches it (make MPI=1 MPI_HOME=<that "
        "MPI's prefix>; `ldd all_reduce_perf | grep libmpi` must show it, the same MPI on every node), then rerun: "
        "expect one header for all ranks (one header with Rank 0..N-1 across the nodes).",
        "medium", [], [e.brief() for e in evs[:2]], job_wide=True)


def _rank_args(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Workers' command lines that give a rank at or past the world size they are told (lead rules V (1), U (2)),
    with nothing failing shown: the launch arguments are wrong for every worker, config, no rank."""
    evs = c.samples.get("launch_args", [])
    if not evs or c.exceptions or c.child_failures or c.worker_failures or finished(c):
        return None
    evs = [e for e in evs if not e.data.get("own_worlds") and not e.data.get("rank0_host")]  # read elsewhere
    if not evs:
        return None
    unfit = world_unfit(c)
    if unfit is not None:
        return unfit
    dup = [e for e in evs if e.data.get("member_world") and len(e.data["members"]) < e.data["member_world"]]
    if dup:  # lead rule AA (1): two processes at once were given one global rank, and some ranks none
        e = dup[0]
        ranks, world = e.data["members"], e.data["member_world"]
        twice = ", ".join(map(str, e.data["dup_members"][:8]))
        return Verdict(
            "config",
            f"global rank(s) {twice} of a world of {world} are each announced twice at the same time "
            f"('{e.text[:80]}'), and only rank(s) {', '.join(map(str, ranks[:16]))} appear: two nodes' processes "
            "took the same global ranks (each node started as node rank 0, or the tasks per node do not match), so "
            f"the other ranks of the {world} never exist and the job waits for them at init -- a launch set-up of "
            "every node, not a rank's fault",
            "Give each node its own node rank (NODE_RANK / --node_rank: 0 on the master's node, 1, 2, ... on the "
            "others) and the same MASTER_ADDR and MASTER_PORT on every node; under SLURM launch with srun and "
            "#SBATCH --ntasks-per-node equal to the GPUs per node (SLURM_NTASKS = nodes x GPUs), matching the "
            "trainer's num_nodes and devices, so global rank = node rank x GPUs per node + local rank.",
            "medium", [], [x.brief() for x in dup[:2]], job_wide=True)
    evs = [e for e in evs if not e.data.get("member_world")]
    lists = [e for e in evs if e.data.get("ips")]
    a, b = next(((x, y) for i, x in enumerate(lists) for y in lists[i + 1:]
                 if _file(x) != _file(y) and x.data["ips"] != y.data["ips"]), (None, None))
    if a is not None and b is not None:  # lead rule AA (1): two nodes given the node list differently
        la, lb = ",".join(a.data["ips"]), ",".join(b.data["ips"])
        order = sorted(a.data["ips"]) == sorted(b.data["ips"])
        return Verdict(
            "config",
            f"two nodes were launched with different node lists: --ips={la[:120]} "
            f"({_file(a).rsplit('/', 1)[-1]}) and --ips={lb[:120]} ({_file(b).rsplit('/', 1)[-1]})"
            + (", the same nodes in another order" if order else "")
            + ": each node takes its node rank (and the endpoints of every rank) from where its own address stands in "
            "that list, so the nodes disagree on which ranks live where and wait for endpoints that never come up -- "
            "a launch setting of every node, not a rank's fault",
            "Pass the same --ips list, in the same order, on every node (the same launch command on every node: "
            "paddle.distributed.launch / fleetrun --ips=A,B --gpus=...), so the node order, each node's node rank and "
            "PADDLE_TRAINER_ENDPOINTS agree; then relaunch every node.",
            "medium", [], [a.brief(), b.brief()], job_wide=True)
    evs = [e for e in evs if not e.data.get("ips")]
    if not evs:
        return None
    split = _nodes_disagree([e for e in evs if e.data.get("node_rank") is not None])
    if split is not None:  # lead rule AA (1): the nodes were given different master addresses, ports or world sizes
        what, a, b = split
        same = a.data["node_rank"] == b.data["node_rank"]
        return Verdict(
            "config",
            (f"two nodes both print NODE_RANK={a.data['node_rank']} ({_file(a).rsplit('/', 1)[-1]}, "
             f"{_file(b).rsplit('/', 1)[-1]}), with {what}="
             f"{a.data[_NODE_FIELD[what]]} on one and {what}={b.data[_NODE_FIELD[what]]} on the other: each node "
             "was launched as its own world's first node, with its own master" if same else
             f"the nodes print different launch settings: node {a.data['node_rank']} has "
             f"{what}={a.data[_NODE_FIELD[what]]}, node {b.data['node_rank']} {what}={b.data[_NODE_FIELD[what]]}")
            + ": nodes launched with different rendezvous settings cannot meet at one store (each waits at its own), "
            "a launch setting, not a rank's fault",
            "Give every node the same MASTER_ADDR (the address of node 0, the same master address on every node), "
            "MASTER_PORT and WORLD_SIZE, with only NODE_RANK differing"
            + (" (each node its own node rank: 0 on the master's node, 1, 2, ... on the others; under mpirun, take "
               "it from OMPI_COMM_WORLD_RANK / the launcher's variables, not a default of 0)" if same else "")
            + "; check the value each node's script or "
            "scheduler exports (a typo in one node's address) and that node 0's address is reachable from the others "
            "(nc -zv MASTER_ADDR MASTER_PORT).",
            "medium", [], [a.brief(), b.brief()], job_wide=True)
    evs = [e for e in evs if e.data.get("node_rank") is None]
    if not evs:
        return None
    alone = [e for e in evs if e.data.get("standalone")]
    if alone:  # lead rule AA (1): torchrun --standalone with a multi-node --nnodes
        return Verdict(
            "config",
            f"the launch command gives torchrun --standalone together with --nnodes={alone[0].data['nnodes']} (a "
            "multi-node job): --standalone starts a local rendezvous on localhost on every node and ignores the "
            "master address, so each node waits for the others at its own endpoint and the nodes never meet -- a "
            "launch setting of every node, not one rank's fault",
            "Drop --standalone for a multi-node job: give every node the same rendezvous, --rdzv_backend=c10d "
            "--rdzv_endpoint=$MASTER_ADDR:$MASTER_PORT (or --master_addr/--master_port with --node_rank), with "
            "--nnodes = the number of nodes (not WORLD_SIZE, the number of processes) and the same command on every "
            "node; keep --standalone only for single-node runs (--nnodes=1).",
            "medium", [], [e.brief() for e in alone[:2]], job_wide=True)
    lost = [e for e in evs if e.data.get("no_endpoint")]
    if lost:  # lead rules V (1), AA (1): a non-static rendezvous for several nodes given only a master address
        e = lost[0]
        return Verdict(
            "config",
            f"the launch command asks torchrun for {e.data['nnodes']} nodes with "
            f"--rdzv_backend={e.data['no_endpoint']} and --master_addr but no --rdzv_endpoint: only the static "
            "rendezvous reads the master address, so each node looks for the rendezvous on its own localhost and "
            "the nodes never meet -- a launch setting, not one rank's fault",
            "Give every node the same rendezvous endpoint: --rdzv_backend=c10d --rdzv_endpoint=MASTER_ADDR:PORT "
            "(the master node's address, reachable from the others: nc -zv MASTER_ADDR PORT), or keep "
            "--master_addr/--master_port with --rdzv_backend=static and --node_rank on each node.",
            "medium", [], [x.brief() for x in lost[:2]], job_wide=True)
    ep = next((e for e in evs if e.data.get("entrypoint")), None)
    if ep is not None:  # lead rule AF (1): a flag's value where torchrun's launch config names the script
        v = ep.data["entrypoint"]
        return Verdict(
            "config",
            (f"torchelastic's worker events name '{v}' as every worker's entry_point ('{ep.text.strip()[:80]}')"
             if ep.data.get("events") else
             f"torchrun's launch config names '{v}' as the entrypoint ('{ep.text.strip()[:80]}')") + ": the script (or "
            f"program) every worker is to run is the bare value '{v}', an option's value taken as the training "
            "script -- an option given without its value, or a value the launcher does not take, shifted the "
            "command line -- so no worker runs the job; a launch setting of every worker, not a rank's fault",
            f"Fix the launch command so that the training script is the first argument that is not an option: give "
            f"each option its value (a boolean flag is given alone, without '{v}', where the launcher takes it as a "
            "switch), check the accelerate launch arguments / accelerate config (e.g. --same_network, "
            "--machine_rank) the launcher turns into torchrun's, then relaunch; the launch configs block should show "
            "'entrypoint : train.py'.",
            "medium", [], [ep.brief()], job_wide=True)
    mis = next((e for e in evs if e.data.get("misspelled")), None)
    if mis is not None:  # lead rules L, V (1): a variable that does not exist, set where one that does was meant
        name, meant = mis.data["misspelled"], mis.data["meant"]
        return Verdict(
            "config",
            f"the launch sets {name}={mis.data['value']} ('{mis.text.strip()[:100]}'), a variable that does not "
            f"exist -- one typo from {meant} -- so nothing reads it and the setting meant is not applied: the "
            f"processes run as if {meant} were not set (every GPU visible: two jobs on one machine land on the same "
            "GPUs); a launch setting, not a rank's fault",
            f"Spell the variable {meant} (e.g. {meant}={mis.data['value']} before the launch command), or pass the "
            "launcher's own option for it (accelerate launch --gpu_ids 2,3, torchrun with the variable exported), "
            "then relaunch; check with `ncclDoctor env` or print os.environ in each process.",
            "medium", [], [mis.brief()], job_wide=True)
    evs = [e for e in evs if "arg_rank" in e.data]
    if not evs:
        return None
    bad = sorted({(e.data["arg_rank"], e.data["arg_world"]) for e in evs})
    said = ", ".join(f"--rank={r} in a world of {w}" for r, w in bad[:4])
    return Verdict(
        "config",
        f"the workers' command lines give ranks outside the world they are launched into ({said}): ranks run from 0 "
        "to world size - 1, so those processes can never join that world -- a launch argument every worker is built "
        "with (the launcher's rank offset, a world size / GPU count that does not match the processes started), not "
        "one rank's fault",
        "Make the launch arguments agree: the world size (--n_gpus / --world_size / WORLD_SIZE) equal to the number of "
        "processes started across all nodes, and each worker's --rank = node's first rank + its index below that "
        "(multiproc-style launchers: start ranks from 0 on one node); with CUDA_VISIBLE_DEVICES limiting the GPUs, "
        "count only those.",
        "medium", [], [e.brief() for e in evs[:3]], job_wide=True)


def _launch_mode(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """A library's warning, with nothing failing shown, that its installed version supports only one bootstrap for a
    feature the settings turn on (parse: ``launch_mode``; Transformer Engine's userbuffers for --tp-comm-overlap before
    1.9 start only under MPI): the job was launched some other way, a launch setting every rank shares (lead rules
    V (1), W): config, no rank. The crash that may follow is read by its own lines when they are shown."""
    evs = c.samples.get("launch_mode", [])
    if not evs or c.exceptions or c.child_failures or c.worker_failures or finished(c):
        return None
    if c.samples.get("nccl_error") or any(not harmless_warn(c, e) for e in c.samples.get("nccl_warn", [])):
        return None
    e = evs[0]
    who, mode = e.data["who"], e.data["mode"]
    ver = f" v{e.data['version']}" if e.data.get("version") else ""
    mpi = mode.upper() == "MPI"
    return Verdict(
        "config",
        f"{who}{ver} warns ('{e.data['said'][:160]}', {c.kinds.get('launch_mode', 1)} time(s)) that this installed "
        f"version supports only the {mode} bootstrap for a feature the settings turn on, and the job was not started "
        "that way: a launch setting every rank shares, not a rank's fault; these lines show nothing failing beyond "
        "that warning",
        ("Launch every rank under MPI (mpirun -np N ..., or srun --mpi=pmix under Slurm) with a PyTorch built with "
         "MPI, so the MPI bootstrap can start; or " if mpi else
         f"Launch every rank so the {mode} bootstrap can start; or ")
        + f"upgrade {who} to a version that bootstraps over torch.distributed (Transformer Engine >= 1.9 for its "
        "userbuffers: --tp-comm-bootstrap-backend nccl), or turn off the feature that needs it (--tp-comm-overlap "
        "for TP comm+GEMM overlap). Collect the full output of a run if it then stops: the failure itself is not in "
        "these lines.",
        "medium", [], [x.brief() for x in evs[:2]], job_wide=True)
def world_unfit(c: Collected, failed: list | None = None) -> Verdict | None:
    """Launch settings shown that cannot form the world (lead rules AA (1), AE): a call to init_process_group with a
    literal rank at or past its literal world size, or a node other than node 0 given a loopback master address
    (torchrun's --node-rank / --master-addr, NODE_RANK / MASTER_ADDR printed) where no node 0 on a loopback address is
    shown (one host running both nodes' launchers). Config, no rank, with nothing failing after them or with the store
    connection failing as it must (FAILED: those store lines, verdict.fabric._store); rule R's store_rendezvous holds
    only where no such setting is shown."""
    evs = c.samples.get("launch_args", [])
    nodes = [e for e in evs if e.data.get("node_rank") is not None and e.data.get("master_addr")]
    own = any(e.data["node_rank"] == 0 and is_loopback(e.data["master_addr"]) for e in nodes)
    loop = [] if own else [e for e in nodes if e.data["node_rank"] > 0 and is_loopback(e.data["master_addr"])]
    calls = [e for e in evs if e.data.get("init_call")]
    after = " -- the store connection then fails as it must" if failed else ""
    proof = [e.brief() for e in (calls or loop)[:2]] + [e.brief() for e in (failed or [])[:2]]
    if calls:
        e = calls[0]
        r, w = e.data["arg_rank"], e.data["arg_world"]
        return Verdict(
            "config",
            f"init_process_group is called with rank={r} in a world of world_size={w} ('{e.text.strip()[:120]}'): "
            "ranks run from 0 to world_size - 1, so this process can never join that world; it waits as a store "
            f"client for a rank 0 that no process of that world starts{after} -- a rank and world size written into "
            "the script (or its launch arguments), not a rank's fault",
            "Give init_process_group a rank below its world size: world_size = the processes of the whole job (nodes "
            "x GPUs per node) and rank = node_rank x GPUs per node + the process's GPU index (one process alone: "
            "world_size=1, rank=0), not a hard-coded rank; or let torchrun set them (init_method='env://', RANK / "
            "WORLD_SIZE), with the same dist_url / init_method (tcp://MASTER_IP:PORT) on every process.",
            "high" if failed else "medium", [], proof, job_wide=True)
    if loop:
        e = loop[0]
        n, a = e.data["node_rank"], e.data["master_addr"]
        return Verdict(
            "config",
            f"node rank {n} was launched with the master address {a} ('{e.text.strip()[:160]}'): a loopback address "
            "is the node's own host, so a node other than node 0 looks for the rendezvous and store of node 0 on "
            f"itself, where they are not, and the nodes never meet{after} -- a launch setting, not a rank's fault",
            "Give every node the same --master-addr / MASTER_ADDR: node 0's IP address, reachable from the other "
            "nodes (not 127.0.0.1 / localhost, which names each node itself), and the same --master-port; launch "
            "with --nnodes = the number of nodes, --node-rank 0 on the master's node and 1, 2, ... on the others (the "
            "node-rank-0 command on node 0 too); check the address from another node: nc -zv MASTER_ADDR "
            "MASTER_PORT.",
            "high" if failed else "medium", [], proof, job_wide=True)
    return None


_NODE_FIELD = {"MASTER_ADDR": "master_addr", "MASTER_PORT": "master_port", "WORLD_SIZE": "world"}
_R_IPV4 = re.compile(r"^\d{1,3}(?:\.\d{1,3}){3}$")


def _comparable(a: str, b: str) -> bool:
    """Two master addresses that can be told apart by their text: both IPv4 literals, or both host names (a host name
    and an address may be the same host); a loopback address is node 0's own view of itself, never a disagreement."""
    loop = ("localhost", "127.0.0.1", "::1", "0.0.0.0")
    if a in loop or b in loop:
        return False
    ipa, ipb = bool(_R_IPV4.match(a)), bool(_R_IPV4.match(b))
    if ipa != ipb:
        return False
    return a != b if ipa else a.split(".")[0].lower() != b.split(".")[0].lower()


def _file(e) -> str:
    return e.where.rpartition(":")[0]


def _nodes_disagree(evs: list) -> tuple[str, object, object] | None:
    """Two nodes (different node ranks) whose printed launch settings disagree: (the setting, one node's line,
    the other's), or None."""
    for i, a in enumerate(evs):
        for b in evs[i + 1:]:
            # one node rank in one file is one node; the same node rank printed in two files (each node's log) is
            # two nodes both given it, each its own master: their settings are compared alike
            if a.data["node_rank"] == b.data["node_rank"] and _file(a) == _file(b):
                continue
            if _comparable(a.data["master_addr"], b.data["master_addr"]):
                return "MASTER_ADDR", a, b
            for what in ("MASTER_PORT", "WORLD_SIZE"):
                x, y = a.data.get(_NODE_FIELD[what]), b.data.get(_NODE_FIELD[what])
                if x and y and x.isdigit() and y.isdigit() and x != y:
                    return what, a, b
    return None


def _config(c: Collected, ks: list[Conclusion], env: list[Finding]) -> Verdict | None:
    bad = [f for f in env if f.severity != Severity.INFO]
    if not bad or finished(c):  # a run that completed: its settings are its parameters, not its failure
        return None
    said = "; ".join(f.message.removeprefix("in the logs: ") for f in bad[:3])
    return Verdict(
        "config",
        "settings in the logs are wrong: " + said,
        f"Change the settings: {said.rstrip('.')}. {' '.join(dict.fromkeys(f.fix for f in bad[:3] if f.fix))} "
        f"({' '.join(f.code for f in bad[:3])}: `ncclDoctor explain` has the details; `ncclDoctor env` checks a "
        "node's environment the same way.)",
        "high",
        [],
        [e for f in bad[:3] for e in f.evidence[:1]],
    )


# ncclResult_t: the code an NCCL return-code trail ("NCCL INFO init.cc:904 -> 3") carries up to the caller
_RETCODE_CLASS = {
    1: ("cuda_error", "ncclUnhandledCudaError: a CUDA call inside NCCL failed",
        "Rerun with NCCL_DEBUG=WARN (or INFO) so the failing CUDA call is printed (its 'Cuda failure' WARN); check the "
        "driver against the CUDA runtime (nvidia-smi) and dmesg for Xid errors."),
    2: ("nccl_system", "ncclSystemError: a system call NCCL made failed (a socket, shared memory, IB verbs)",
        "Rerun with NCCL_DEBUG=WARN (or INFO, NCCL_DEBUG_SUBSYS=INIT,NET) so the failing call is printed; check "
        "/dev/shm (docker --shm-size / --ipc=host), NCCL_SOCKET_IFNAME and the IB devices (ibstat)."),
    3: ("nccl_internal", "ncclInternalError: one of NCCL's own checks failed",
        "Rerun with NCCL_DEBUG=WARN (or INFO, NCCL_DEBUG_SUBSYS=INIT,GRAPH) so the check that failed is printed; check "
        "that every rank loads the same NCCL version (torch's bundled one vs a system one); a trail through graph/ "
        "(topology: paths.cc, search.cc, topo.cc) is NCCL not finding a GPU or NIC in the machine's topology -- in a "
        "VM or container give it the topology (NCCL_TOPO_FILE) and unset stray NCCL_GRAPH_FILE / NCCL_TOPO_FILE "
        "settings (also in /etc/nccl.conf), or upgrade NCCL."),
    4: ("invalid_usage", "ncclInvalidArgument: NCCL was called with an invalid argument",
        "Rerun with NCCL_DEBUG=WARN so the argument NCCL rejected is printed; check every rank passes the same count, "
        "datatype and root, and each process uses its own GPU (torch.cuda.set_device(LOCAL_RANK))."),
    5: ("invalid_usage", "ncclInvalidUsage: NCCL was used in a way it does not allow",
        "Rerun with NCCL_DEBUG=WARN so the misuse is printed (two ranks on one GPU: torch.cuda.set_device(LOCAL_RANK), "
        "CUDA_VISIBLE_DEVICES; mismatched calls between ranks)."),
}


_R_REALPATH_SYS = re.compile(r"Could not find real path of /sys/\S{1,300}")
_TRAIL_TOP = ("init.cc", "group.cc", "enqueue.cc", "collectives.cc", "init.cu", "group.cu", "enqueue.cu")


def _retcode_trail(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """NCCL's return-code trail alone ("NCCL INFO transport.cc:84 -> 3" ... "group.cc:72 -> 3 [Async thread]"), the
    WARN that started it not in the lines: NCCL still failed, and the code it carries up (ncclResult_t) is the class
    of the failure -- never "nothing failed". The detectors before read the trails they know (bootstrap, sockets,
    IB, topology's system calls); this one reads the code of any other."""
    if not c.retcodes or any(not harmless_warn(c, e) for e in c.samples.get("nccl_warn", [])):
        return None
    if c.samples.get("nccl_error") or c.exceptions:
        return None
    codes: dict[int, int] = {}
    for (_, n), k in c.retcodes.items():
        codes[n] = codes.get(n, 0) + k
    code = max(codes, key=lambda n: (codes[n], n))
    # a trail that stops below the API (a probe NCCL recovers from: net_ib/gdr.cc -> 3, then "Using network
    # Socket") is no failure; one that reaches ncclCommInitRank's or a group's layer came out of NCCL's call
    if code not in _RETCODE_CLASS or not any(f in _TRAIL_TOP for (f, n) in c.retcodes if n == code):
        return None
    cause, what, fix = _RETCODE_CLASS[code]
    files = [f for (f, n) in c.retcodes if n == code]
    # NCCL <= 2.4 inlines the topology's realpath() of the GPU's sysfs path (include/topo.h): its WARN "Could not find
    # real path of /sys/class/pci_bus/..." is then the first line of a trail that names only init.cu/group.cu
    realpath = next((e for e in c.samples.get("nccl_warn", []) if _R_REALPATH_SYS.search(e.text)), None)
    if code == 2 and (realpath is not None or any(f in ("xml.cc", "topo.cc") for f in files)):
        # ncclSystemError out of graph/ (xml.cc, topo.cc): the topology detection's own system calls, reading the
        # machine's PCI tree under /sys, failed -- the host (WSL2, a VM, a container's /sys) hides it from every rank
        fix = ("The trail runs through NCCL's topology detection (graph/xml.cc, topo.cc): it could not read the PCI "
               "tree under /sys (sysfs: /sys/class/pci_bus, /sys/bus/pci/devices) on this host, as in WSL2, a VM or a "
               "container without the host's /sys. Run where sysfs shows the GPUs (native Linux; a container with the "
               "host's /sys mounted, e.g. --privileged), give NCCL the topology in a file (NCCL_TOPO_FILE), or upgrade "
               "NCCL to a version that supports this platform (the 'NCCL version' line of NCCL_DEBUG=INFO). " + fix)
    said = (f"its WARN '{_R_REALPATH_SYS.search(realpath.text).group(0)}' says the topology detection could not "
            "resolve a GPU's sysfs path; these lines name no rank" if code == 2 and realpath is not None else
            "the WARN line that says which call or check failed is not in these lines, and no rank is named by them")
    return Verdict(
        cause,
        f"NCCL's return-code trail ({', '.join(f'{f} -> {code}' for f in files[:4])}) carries {code} = {what}; "
        f"{said}",
        fix, "medium" if code != 1 else "low", [], _samples(c, "transport"), job_wide=True)


# torch.distributed.rpc's timeout of a remote call (TensorPipe agent: "RPCErr:1:RPC ran for more than set timeout
# (180000 ms) and will now be marked with an error"): the peer that should answer stalled or died; no rank is named
_R_RPC_TIMEOUT = re.compile(r"RPC ran for more than set timeout \((\d{1,9}) ?ms\)")
_R_RAN_ON = re.compile(r"^failed to run \S.{0,2000}? on [\w.\-:]{1,255}\b")


def _unread_failure(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Issue #14 item 6: benign noise never becomes the verdict, and a failure line never becomes "nothing failed"
    either. A traceback's exception or a line announcing an error (a launcher's "Error: failed to run ...") that no
    family explains shows something failed; the lines do not say why, nor which rank: nobody named, and the cause
    unknown unless the failure's general words read as one (generic.reading: "Connection refused", "out of memory").
    With no exception, the lines no family read that announce a failure (_unread_words)."""
    if not c.exceptions:
        return _unread_words(c)
    own = [e for e in c.exceptions if not e.data.get("line")]
    e = (own or c.exceptions)[0]
    what = e.data["type"] + (": " + e.data["message"] if e.data.get("message") else "")
    disk = R_STORAGE_ERR.search(what)
    # a multi-host launcher's own report that the command it ran on a host failed ("Error: failed to run torchrun ...
    # on HOST": ColossalAI's CLI runs it there over ssh with fabric): the workers' errors are on those hosts
    hosts = [x for x in c.exceptions if x.data.get("line") and _R_RAN_ON.search(x.data.get("message") or "")]
    rpc = any(_R_RPC_TIMEOUT.search(x.text) for x in list(c.exceptions) + list(c.unread))
    code = _script_bug(e, own)
    read = None if disk or hosts else generic.reading([what] + [u.text for u in c.unread])
    if read is not None:  # no family's, but its general words say what kind of failure it is (generic.py)
        return Verdict(read[0], f"the lines show a failure ({what[:240]}) that no known family explains; its words say "
                       f"{read[1]}; which rank, and why, these lines do not say", read[2] + " " + _READ_AROUND, "low",
                       [], [x.brief() for x in (own or c.exceptions)[:3]])
    lone = [] if disk or hosts or code else _own_exception(c, e, own)
    if lone:
        return Verdict(
            "unknown",
            f"rank {lone[0]}'s own traceback ends in {what[:240]} (its lines carry its rank tag), and no other process "
            "is shown failing: it failed first on its own exception (lead rule A), whose class names no known cause",
            f"Read rank {lone[0]}'s traceback from its first frame: the last frames name the code and the data it "
            f"read when it raised {e.data['type']} (a file, a checkpoint or config key it expected, a batch); fix "
            "that, then rerun. " + _READ_AROUND,
            "medium", lone, [x.brief() for x in own[:3]])
    return Verdict(
        "unknown",
        f"the lines show a failure ({what[:240]}) that no known family explains: something failed, and these lines "
        "say neither why nor on which rank"
        + (f"; '{disk.group(0)}' is the storage under a file the process read or wrote failing, not the network "
           "nor NCCL" if disk else ""),
        code
        + (f"'{disk.group(0)}' comes from the filesystem / storage mount the file lives on: read dmesg -T on the host "
         "that raised it for the device's or mount's errors, df -h / quotas for space; a file that every node "
         "writes (a dataset's index, a cache) on a shared filesystem needs one writer (rank 0, then a barrier) or a "
         "local disk per node. " if disk else "")
        + ("torch.distributed.rpc's call timed out waiting for its peer: check that the remote side's processes "
           "(the sampling server / worker processes) are alive and read the remote sampling server's log; dmesg "
           "(OOM killer) on its host; while it hangs, a py-spy dump of every process shows the one stuck; rpc_timeout "
           "(TensorPipeRpcBackendOptions) bounds each call, num_rpc_threads / num_worker_threads the calls served at "
           "once; check the network between the nodes. " if rpc else "")
        + ("The launcher ran that command on each host over ssh (its hostfile / --host list): run torchrun directly "
           "on each node with the same arguments to see the workers' own errors and the full output / traceback, and "
           "check that passwordless ssh from the launching node reaches every host by the name the hostfile gives. "
           if hosts else "")
        + "Read the full output around that line: the traceback above it (its frames say where it failed) and every "
        "rank's own stderr (per-rank logs: torchrun --log-dir DIR --redirects 3 --tee 3); when a launcher only reports "
        "that its command failed, run that command (torchrun directly) to see the workers' own errors and torchrun's "
        "failure table; rerun with NCCL_DEBUG=INFO if it fails in the process group's set-up.",
        "low", [], [x.brief() for x in (own or c.exceptions)[:3]])


# A program's own assertion: a check every rank makes alike on what it was given (lead rule W), not a rank's fault
_R_ASSERT_EXC = re.compile(r"(?:^|\.)AssertionError$")


def _own_exception(c: Collected, e, own: list) -> list[int]:
    """Lead rule A without a launcher's record: the exception ending a traceback whose lines carry one rank's tag
    ("[rank0]: KeyError: ..."), of no victim's class (a timeout, the store or a peer gone) and no assert (rule W),
    where no other process is shown failing (every exception the lines hold is that rank's): that rank failed first,
    [rank]. A rank from a file's name, or several ranks' exceptions, name nobody: []."""
    if e not in own or e.rank is None or any(e.data.get(k) for k in ("rank_from", "settings", "in_handler")):
        return []
    if R_VICTIM_EXC.match(e.data["type"]) or _R_ASSERT_EXC.search(e.data["type"]):
        return []
    if any(x.rank != e.rank for x in c.exceptions) or c.child_failures or c.worker_failures:
        return []
    return [e.rank]


# Python's own errors of the code it runs: a name the program uses that is not defined, or source that does not
# parse. They come from the script's text, not from the job's distribution: the same on every process that runs it.
# (An AttributeError or ImportError is left out: a destructor's after another failure, a package not installed.)
_R_CODE_EXC = re.compile(r"(?:^|\.)(?:NameError|UnboundLocalError|SyntaxError|IndentationError|TabError)$")


def _script_bug(e, own: list) -> str:
    """The fix's first sentence when the exception is one of the code's own errors (_R_CODE_EXC): fix the script,
    run it once without the launcher; several processes raising the same one is the code, not a rank. Else ''."""
    if not _R_CODE_EXC.search(e.data["type"]):
        return ""
    same = sum(1 for x in own if (x.data["type"], x.data.get("message")) == (e.data["type"], e.data.get("message")))
    said = e.data["type"] + (f" ({e.data['message'][:120]})" if e.data.get("message") else "")
    return (f"Fix the script: {said} is Python's error of the code it runs (a name it uses that is not defined, or "
            "source that does not parse); the traceback's last frame names the file and line. "
            + (f"{same} processes raised the same one: the same error on every rank is the code, not a rank. "
               if same >= 2 else "")
            + "Run the script once without the launcher (python script.py, one process) to see it alone; a launcher "
            "that still exits 0 after its workers failed hides it (check each worker's exit code, not only the "
            "launcher's). ")


_READ_AROUND = ("Read the full output around that line and every rank's own log (torchrun --log-dir DIR --redirects 3 "
                "--tee 3), with NCCL_DEBUG=WARN; the line's own library or launcher documents what it means.")


# ProcessGroupNCCL's Python stack of a collective that failed (printed beside its watchdog's timeout or error line):
# alone, it says which collective and code path, not whether it timed out or errored, nor which rank did not join
_R_FAILED_STACK = re.compile(r"Stack trace of the failed collective")
_FAILED_STACK = ("That line is ProcessGroupNCCL's stack of the collective that failed: its frames (#0 the collective, "
                 "then the code that called it) say which call, not why; the watchdog's own timeout or error line "
                 "beside it, in every rank's log, says whether it timed out (a rank that never joined) or errored. "
                 "Collect every rank's log and, on the next run, Flight Recorder dumps (TORCH_FR_BUFFER_SIZE=2000; "
                 "TORCH_NCCL_TRACE_BUFFER_SIZE on torch < 2.8) with NCCL_DEBUG=INFO; while it hangs, py-spy dump "
                 "--pid on every rank shows the one elsewhere. ")


def _unread_words(c: Collected) -> Verdict | None:
    """Lines that announce a failure in words no family reads (generic.py): not "none", which would tell the user
    that a failure is not one. Their general words give a reading where they have one (connection refused, preempted,
    not supported); nobody is named, at low confidence."""
    if not c.unread:
        return None
    read = generic.reading([u.text for u in c.unread])
    quoted = c.unread[read[3] if read else 0]
    said = f"the lines report a failure in words no known family reads ('{quoted.text[:200]}')"
    proof = [quoted.brief()] + [u.brief() for u in c.unread[:3] if u is not quoted][:2]
    if read is None:
        return Verdict("unknown", said + ": something failed, and these lines say neither why nor on which rank",
                       (_FAILED_STACK if any(_R_FAILED_STACK.search(u.text) for u in c.unread) else "")
                       + _READ_AROUND, "low", [], proof)
    return Verdict(read[0], f"{said}; its words say {read[1]}; which rank, and why, these lines do not say",
                   read[2] + " " + _READ_AROUND, "low", [], proof)


def _none(c: Collected, ks: list[Conclusion]) -> Verdict:
    benign = []
    if c.kinds.get("pg_not_destroyed"):
        benign.append(
            "the process-group destructor warning at exit is harmless: call dist.destroy_process_group() at the "
            "end of main to silence it"
        )
    whats = {e.data.get("what") for e in c.samples.get("benign", [])}
    if "barrier device warning" in whats:
        benign.append("the barrier's device warning ('using GPU N to perform barrier as devices used by this process "
                      "are currently unknown', 'No device id is provided') is a harmless warning while every process "
                      "uses its own GPU: call torch.cuda.set_device(local_rank) first and pass device_id="
                      "torch.device('cuda', local_rank) to init_process_group (or device_ids=[local_rank] to "
                      "barrier) to silence it; only a wrong guess (two ranks on one GPU) would hang")
    if "IPv6 lookup warning" in whats:
        benign.append("the IPv6 lookup warning of the store is harmless (it falls back to IPv4)")
    if "SIGTERM after the job completed" in whats:
        benign.append("the SIGTERM a handler logged (submitit's 'Bypassing signal SIGTERM') came right after the job "
                      "recorded its own success: Slurm signals a step's processes when it ends, nothing was stopped; "
                      "if the Slurm job still runs after that, check its state (sacct -j JOB, squeue) and end it with "
                      "scancel, and upgrade submitit or let the process exit on SIGTERM (Slurm's --signal)")
    if "cuda-gdb peer-access notice" in whats:
        benign.append("cuda-gdb's 'Cuda API error detected: cudaDeviceEnablePeerAccess returned' warnings are "
                      "harmless: NCCL probes GPU peer access (P2P) and falls back to shared memory where it is not "
                      "available; the debugger only reports the probe's error code")
    if "Windows store connect warning" in whats:
        benign.append("the store client's 'failed to connect ... (system error: 10049 / errno: 22 - Invalid "
                      "argument / errno: 99 - Cannot assign requested address)' warning is a benign retried "
                      "warning: torch tries each address (IPv6, IPv4) the store's hostname resolves to (10049 = "
                      "WSAEADDRNOTAVAIL on Windows, EINVAL or EADDRNOTAVAIL on Linux, e.g. IPv6 localhost where the "
                      "host has no IPv6 address: not usable from here) and connects through the next one; nothing "
                      "to fix unless a store timeout follows (then check the next error and MASTER_ADDR; "
                      "MASTER_ADDR=127.0.0.1 skips the IPv6 attempt on one host)")
    polled = any(e.data.get("poll") for e in c.samples.get("benign", []))
    if "store reset before the group" in whats and polled:
        benign.append("the TCPStore client's 'recvValue failed ... Connection reset by peer' warning comes from "
                      "TCPStore::check (its frames): a process polling the store (NCCL's heartbeat monitor checks a "
                      "key in it) found the store host exited first -- the TCPStore server lives in rank 0's process "
                      "(or the launcher's), and it shut down while the others still polled: harmless at teardown "
                      "when the job had finished. Call destroy_process_group before exit on every rank (a barrier "
                      "before exit keeps the store's host up until all are done); TORCH_NCCL_ENABLE_MONITORING=0 "
                      "stops the poll")
    elif "store reset before the group" in whats:
        benign.append("the TCPStore client's 'recvValue failed ... Connection reset by peer' warning was "
                      "printed before the process group existed (torch adds its [rankN] prefix once it does): it "
                      "is the client's connect/validate, which TCPStore retries ('failed to connect/validate ... "
                      "retrying'), a transient reset; harmless unless a store timeout or error follows")
    retry = [e.data["endpoint"] for e in c.samples.get("benign", []) if e.data.get("what") == "store connect retry"]
    if retry:
        benign.append(f"the TCPStore client's 'failed to connect/validate to host {retry[0]} - retrying' warnings "
                      "are retries with nothing failing after them: the store was not up yet (rank 0's node still "
                      "starting), which TCPStore waits for until its timeout. If the job hangs there, collect that "
                      f"host's log (is its store listening? `ss -ltnp | grep {retry[0].rpartition(':')[2]}`) and "
                      f"`nc -zv {retry[0].replace(':', ' ')}` from this node (MASTER_ADDR/MASTER_PORT, the firewall)")
    if any(w and "driver shutting down" in w for w in whats):
        benign.append("CUDA's 'driver shutting down' at exit is harmless: a thread (the NCCL watchdog) outlived "
                      "CUDA's teardown; call dist.destroy_process_group() before the process exits")
    if "net plugin absent" in whats:
        benign.append("NCCL's 'Failed to find ncclCollNetPlugin' / 'No plugin found' INFO lines are harmless: an "
                      "optional net or CollNet (SHARP) plugin is not installed, so CollNet is off and NCCL uses its "
                      "built-in transports")
    # NCCL's harmless WARNs say nothing of the failure the user may have seen; benign start-up lines alone do
    # not show the job got anywhere: "high" needs positive evidence that it ran to its end
    conf = ("high" if finished(c) else "medium") if benign and len(benign) > bool(retry) else "low"
    benign += _noise_words(c)
    if "store warning alone" in whats:  # lead rule N (state.Collected._store_warnings_alone)
        benign.append("the ranks' c10d TCPStore warnings ('Failed to check the \"should dump\" flag on TCPStore', "
                      "recvValue/sendBytes failed: 'Connection reset by peer' / 'Broken pipe') with nothing failing "
                      "after them say the TCPStore server shut down first (store host / rank 0 exited): its process "
                      "ended while the others still polled the store (NCCL's heartbeat monitor checks a key in it), "
                      "harmless at teardown when the job had finished. Call destroy_process_group before exit on every "
                      "rank (a dist.barrier() before it keeps the store's host up until all are done); "
                      "TORCH_NCCL_ENABLE_MONITORING=0 stops the poll; if the job did fail, node 0's own log (the store "
                      "host's) says why")
    if "rendezvous keep-alive warning alone" in whats:  # lead rule N (state.Collected._keepalive_alone)
        benign.append("torchrun's agent's warning that it 'has failed to send a keep-alive heartbeat to the "
                      "rendezvous' (RendezvousConnectionError) with nothing failing after it is harmless: the "
                      "agent's background keep-alive could not reach the rendezvous store host (the --rdzv-endpoint / "
                      "rdzv_endpoint, node 0's agent) for a moment, or that node's agent exited first at the end of "
                      "the job; the agent goes on. If the job did fail, read the logs of the node hosting the store "
                      "(node 0's agent log) and check that every node can reach the endpoint (nc -zv HOST PORT)")
    if "c10d debug line" in whats:  # debug chatter: it shows nothing ran or failed, so no confidence
        benign.append("the c10d debug line is benign: '[c10d - debug]' lines are the store's own tracing "
                      "(TORCH_CPP_LOG_LEVEL=INFO with TORCH_DISTRIBUTED_DEBUG=DETAIL prints them; a 'Read callback "
                      "failed ... EOF' is the TCPStore server seeing a client's connection close, which every "
                      "process does when it exits, harmless at job end). If the job failed, the cause is in the "
                      "worker's own traceback (decorate main with torch.distributed.elastic's @record so torchrun's "
                      "error file keeps it)")
    if "launch deprecated" in whats:  # a notice printed at every launch: it shows nothing ran, so no confidence
        benign.append("torch.distributed.launch's FutureWarning is a deprecation warning only, safe to ignore: to "
                      "silence it use torchrun (--use_env is its default: read LOCAL_RANK from the environment, "
                      "os.environ['LOCAL_RANK'], instead of a --local_rank argument)")
    if "ddp no unused parameters" in whats:  # printed once per rank after the first backward: a notice, no failure
        benign.append("DDP's warning that find_unused_parameters=True found no unused parameters is a performance "
                      "warning only, harmless: nothing failed. Construct DistributedDataParallel with "
                      "find_unused_parameters=False (the default) to skip the extra traversal of the autograd graph "
                      "every iteration; keep True only if some parameters really go unused in a forward pass")
    if "deepspeed backend fallback" in whats:  # printed at every start: it shows nothing ran, so no confidence
        benign.append("DeepSpeed's 'NCCL backend in DeepSpeed not yet implemented' warning is a benign warning, safe "
                      "to ignore: DeepSpeed falls back to torch.distributed NCCL for its communication (cdb=None "
                      "until then). If the job did fail, look for the real error elsewhere: each rank's traceback, "
                      "the launcher's exit code of the failing rank, dmesg on its node (an OOM kill), with "
                      "NCCL_DEBUG=INFO set")
    selfwarn = [e for e in c.samples.get("benign", []) if e.data.get("what") == "self-declared warning"]
    if selfwarn:  # lead rule K: a handled warning, its program went on without the optional feature
        advice = selfwarn[0].data.get("advice")
        benign.append("the line that says it failed calls itself a warning ('To silence this warning'): the program "
                      "went on without that optional feature (it falls back to its default path, e.g. NCCL for a "
                      "custom all-reduce without P2P peer access), harmless by itself"
                      + (f"; to silence the warning: {advice}" if advice else "")
                      + "; if the job failed later, give the full log of that failure")
    # lead rule K: NCCL's set-up chatter alone; the fix says what to collect if the job hangs after it
    hangs = " " + _if_it_hangs(c) if _nccl_chatter(c) and not finished(c) else ""
    if not hangs and not finished(c):  # lead rule T: a hang the reporter tells of, not shown by the lines
        hangs = (" If the job hung after these lines (nothing failed in them), what shows where each rank is: a "
                 "py-spy dump of every rank's process while it hangs (py-spy dump --pid PID: its stack), and a Flight "
                 "Recorder dump (TORCH_FR_BUFFER_SIZE=2000).")
    return Verdict(
        "none",
        "nothing in these lines is a failure" + (": " + "; ".join(benign) if benign else ""),
        ("; ".join(benign) + ". " if benign else "") + "Nothing to fix in these lines: they show no failure "
        "(start-up and INFO output is harmless). If the job did fail, the failing lines are not in the input: give "
        "the logs of every rank (NCCL_DEBUG=WARN)." + hangs + _set_here(c),
        conf,
        [],
        _samples(c, "pg_not_destroyed") + _samples(c, "benign"),
    )


def _ras_lagging(f: Finding) -> Verdict:
    """NCCL RAS's operation-count MISMATCH (fieldformats/ras.py, finding FLD012): the ranks at the
    lowest count never launched the collective the others wait in. RAS lists only the outlier
    ranks: when the ones behind are the many, only their number is known, and nobody is named."""
    lag = f.evidence[0] if f.evidence and isinstance(f.evidence[0], dict) else {}
    listed = [r["rank"] for r in lag.get("ranks", []) if isinstance(r, dict) and r.get("rank") is not None]
    n = lag.get("group_size") or len(listed)
    named = bool(listed) and len(listed) == n
    op = lag.get("op", "collective")
    who = f"rank(s) {_fmt_ranks(sorted(listed))}" if named else f"{n} ranks (RAS does not list them)"
    return Verdict(
        "rank_missing",
        f"NCCL RAS reports an operation-count MISMATCH on {op}: {who} launched up to operation {lag.get('launched')} "
        f"while the other ranks reached {lag.get('others')} and wait inside it: the ranks behind never issued it",
        f"Look at what the {n} rank(s) behind are doing instead: py-spy dump --pid on their nodes, or Flight Recorder "
        "dumps; query ncclras a few times (a one-operation spread on a running job can be sampling, a stable one "
        "is a hang). The ranks ahead are waiting, not at fault.",
        "medium" if named else "low", sorted(listed) if named else [], [f.message[:300]])


def _wrong_results(bad: list[Finding]) -> Verdict:
    """Lead rule S: nccl-tests' table with a nonzero #wrong column and no hang, error or timeout: the collectives
    completed and returned corrupted data. No class covers silent corruption (cause unknown) and one GPU, NIC or
    link anywhere in the job can cause it, so nobody is named; the fix says how to find where."""
    return Verdict(
        "unknown",
        "wrong results with nothing failing (" + "; ".join(f.message[:200].rstrip(".") for f in bad[:2]) + "): the "
        "collectives "
        "completed and returned corrupted data (no hang, error or timeout); these lines do not say which GPU, NIC or "
        "link corrupts it, nor through which path",
        "Find where the data goes wrong: rerun nccl-tests with data checking on (-c 1, the #wrong column) while "
        "narrowing the path -- NCCL_PROTO=Simple / LL / LL128 and NCCL_ALGO=Ring / Tree one at a time (a protocol "
        "that alone corrupts points at it or at the hardware path it uses), NCCL_P2P_DISABLE=1 / NCCL_SHM_DISABLE=1 "
        "/ NCCL_NET_GDR_LEVEL=LOC to take P2P, shared memory or GPUDirect RDMA out; run the test per node (one node's "
        "GPUs alone) and then per pair of nodes to find the bad host, GPU or NIC; check IOMMU / ACS settings "
        "(lspci -vvv | grep ACSCtl), dmesg for Xid errors, and the NCCL / driver version pair. Keep that node out "
        "of training until it passes: corrupted reductions give silently wrong gradients.",
        "low", [], [str(e) for f in bad[:2] for e in f.evidence[:2]])


def _clean_nccl_tests(field: list[dict] | None) -> str:
    """The nccl-tests tables in the input that ran to their end with nothing wrong (every size checked, no wrong
    value, 'Out of bounds values : 0'): '' when there is none."""
    tests = [t for o in field or [] if str(o.get("format", "")).startswith("nccl-tests")
             for t in o.get("tests") or [] if isinstance(t, dict)]
    clean = [t for t in tests if t.get("sizes") and not t.get("wrong_sizes") and t.get("out_of_bounds") == 0]
    if not clean or len(clean) != len(tests):
        return ""
    t = clean[0]
    return (f"nccl-tests' table in the input completed with no error: {t['sizes']} sizes, 0 wrong at each (its error "
            "column) and 'Out of bounds values : 0 OK'"
            + (f", up to {t['peak_busbw_gbps']} GB/s busbw" if t.get("peak_busbw_gbps") else ""))


def settle(v: Verdict, findings: list[Finding], field: list[dict] | None = None) -> Verdict:
    """The verdict once every finding is known: 'nothing failed' never stands beside an error
    from another reader (a field output such as a failed nccl-tests run); it points at it. An nccl-tests
    table (``field``: fieldformats' summaries) that completed clean is said, with what to collect if the
    host hangs while it runs (lead rule T: a hang the lines do not show)."""
    bad = [f for f in findings if f.severity == Severity.ERROR]
    if v.cause != "none":
        return v
    slow = [f for f in findings if f.severity == Severity.WARNING and f.code.startswith(("BW", "FLD"))]
    if not bad and slow:  # a tool's output (nccl-tests) that ran without error but below what it should reach
        return Verdict("none", "no failure in these lines, but a tool's output in the input shows a problem: "
                       + "; ".join(f"{f.code} {f.title}" for f in slow[:3]),
                       "Follow those findings' fixes (ncclDoctor explain CODE).", v.confidence, [],
                       [f.message[:200] for f in slow[:2]])
    if not bad and (ok := _clean_nccl_tests(field)):
        return Verdict(
            "none", f"{v.summary}; {ok}",
            f"{ok}: the collectives ran and returned correct data. {v.fix} If the machine "
            "hangs or freezes while it runs, the lines do not show it: collect dmesg -T from that moment (Xid errors, "
            "soft lockups, PCIe/AER errors) and the run's NCCL_DEBUG=INFO output; NCCL_P2P_DISABLE=1 tells whether "
            "GPU peer-to-peer traffic is involved (nvidia-smi topo -m shows the path between the GPUs), and the "
            "busbw of a clean run is the baseline to compare later runs with.",
            v.confidence, [], v.proof)
    if not bad:
        return v
    if all(f.code == "FLD001" for f in bad):  # lead rule S: wrong results with nothing failing
        return _wrong_results(bad)
    lag = next((f for f in bad if f.code == "FLD012"), None)
    if lag is not None and all(f.code == "FLD012" for f in bad):  # a dead process or a RAS error may be the cause
        return _ras_lagging(lag)
    return Verdict(
        "unknown",
        "the log lines hold no known failure signature, but other findings do: "
        + "; ".join(f"{f.code} {f.title}" for f in bad[:3]),
        "Follow those findings' fixes (ncclDoctor explain CODE).",
        "low",
        [],
        [str(e) for f in bad[:2] for e in f.evidence[:2]],
    )
