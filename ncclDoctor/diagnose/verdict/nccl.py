"""NCCL's other errors and WARNs (nccl_system, nccl_internal, invalid_usage...): its error lines no other
family reads, WARN families, the subsystem a WARN names, its return-code trail alone; and a host-limit errno at a
communication library's own source location (TensorPipe, gloo, oneCCL, NCCL: rule CA's nccl_system)."""

from __future__ import annotations

import re
from collections import Counter

from ncclDoctor.diagnose.lone import lone_failure
from ncclDoctor.diagnose.reason import Conclusion
from ncclDoctor.diagnose.signatures import R_OFI_NO_NIC, R_TOPO_REALPATH, Event, strip_prefixes
from ncclDoctor.diagnose.state import Collected
from ncclDoctor.diagnose.verdict.base import Verdict, _named, _samples, _what, place
from ncclDoctor.diagnose.verdict.noise import collnet_fell_back, harmless_warn
from ncclDoctor.diagnose.warn_families import _NET_FIX, R_NVML_UNLOADABLE

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
    if fam is None or fam.name not in ("call_arguments", "null_comm"):
        return False
    if not any(x.data.get("code") == "ncclSystemError" for x in c.samples.get("nccl_error", [])):
        return False
    return bool(_EMPTY_COMM.search(e.text)) or any(st.counts.get("comm_aborted") for st in c.ranks.values())


def _unnamed_code(evs: list[Event]) -> Verdict:
    """Lead rules J and AK (2): a library's NCCL check printing 'unknown result code' (signatures.R_NCCL_UNNAMED) --
    ncclGetErrorString's words for a result code the libnccl loaded has no name for. Which NCCL error it was is not
    said (no internal error, no WARN, no version shown), so no class can be read: unknown. Every process printing it
    alike is a failure they share, no rank's (rule J): nobody named. An expert's first step is the real error (NCCL's
    own WARN line), then the usual suspects of an unnamed code: two NCCLs (the build's headers and the libnccl loaded),
    then the peer-to-peer path of GPUs without NVLink."""
    alike = len(evs) > 1 and len({e.text.split("NCCL", 1)[-1] for e in evs}) == 1
    return Verdict(
        "unknown",
        "an NCCL call failed and the library's check printed 'unknown result code' -- NCCL's own words for a result "
        "code it has no name for: which NCCL error it was, and on which connection, these lines do not say"
        + (f"; {len(evs)} processes print the same check failing, alike on every rank, so no rank is at fault"
           if alike else ""),
        "Rerun with NCCL_DEBUG=INFO to see the real NCCL error: NCCL's WARN line before the check names what failed. "
        "An unnamed code often means two NCCLs: the framework (its NCCL plugin) built against one NCCL version and "
        "another libnccl loaded at run time -- check which libnccl is loaded (LD_LIBRARY_PATH, ldd on the framework's "
        "library, the 'NCCL version' line NCCL_DEBUG=INFO prints) against the NCCL version the framework was built "
        "with, and the NVIDIA driver / CUDA version it needs. If every process fails alike in its first collective on "
        "GPUs without NVLink (consumer cards), test the peer-to-peer path: NCCL_P2P_DISABLE=1 as a test, nvidia-smi "
        "topo -m for the GPUs' links; in a container, --ipc=host or a larger --shm-size.",
        "low", [], [e.brief() for e in evs[:3]])


# what each accelerator's collective library is called, and the fix for its own internal error (lead rule BO (3))
_ACCEL_CCL = {
    "hccl": ("Ascend's HCCL (called by the operator layer, nnopbase, for an aclnn operator's communication)",
             "HCCL_E_INTERNAL",
             "Collect the HCCL plog of every rank (ASCEND_GLOBAL_LOG_LEVEL=1, ASCEND_SLOG_PRINT_TO_STDOUT=1; "
             "~/ascend/log/debug/plog) for the first error before the return code, and check every rank's log for "
             "the first error: HcclAllocComResourceByTiling failing allocates an operator's communication resources "
             "(a fused MC2 operator such as the MoE dispatch / combine): make HCCL_BUFFSIZE large enough for it, keep "
             "CANN / HCCL, torch_npu and the framework (vllm-ascend) a matching set or upgrade CANN / HCCL, and try "
             "without the fused operator (the all-to-all / all-gather path); check the inter-node links (hccn_tool "
             "-i $devid -tls -g, ping between the NPUs' device IPs)."),
    "hcl": ("Habana's HCCL (HCL, on Gaudi)", "hcclInternalError",
            "Match the Habana software to the devices: upgrade the Habana SynapseAI / HCCL software, with the "
            "habanalabs driver and firmware versions the HCL library expects (the same on every device); hl-smi: "
            "check devices are free and not busy (no other process holding them); rerun with Habana's debug logs "
            "(ENABLE_CONSOLE=true LOG_LEVEL_ALL=0, HABANA_LOGS) to see the first failing check, and try a smaller "
            "collective size / fewer outstanding collectives where the check is of HCL's buffers or credits."),
}


def _accel_ccl_internal(ci: list[Event]) -> Verdict | None:
    """Lead rule BO (3): an accelerator's collective library (Ascend's HCCL, Habana's HCL) failing its own internal
    check with no device runtime call shown failing (readers.crash._accel_ccl_internal) is read like
    ncclInternalError: nccl_internal, no rank -- every rank runs the same collective. None for oneCCL's."""
    libs = [e for e in ci if e.data.get("lib") in _ACCEL_CCL]
    if not libs:
        return None
    name, code, fix = _ACCEL_CCL[libs[0].data["lib"]]
    said = sorted({e.data["said"] for e in libs if e.data["lib"] == libs[0].data["lib"]})
    return Verdict(
        "nccl_internal", f"{name} failed one of its own internal checks: " + _first_and_last(said)
        + f" -- {code}, its counterpart of ncclInternalError, with no device runtime or system call shown failing; "
        "every rank runs the same collective with the same settings, so no rank is at fault",
        fix, "medium", [], [e.brief() for e in libs[:3]], job_wide=True)


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
    internal = [e for e in evs if e.data.get("code") == "ncclInternalError" and e.data.get("last_error")]
    sock = next((e for e in internal if not e.data.get("mid_run") and _socket_said(e.data["last_error"])), None)
    if sock is not None:
        # lead rule X (3): an internal error is classed by its Last error. NCCL (2.18 among others) returns its own
        # socket's failure in set-up as ncclInternalError ("Socket recv failed while polling for opId": a proxy
        # call of the connection set-up); a socket of NCCL's failing there is the connection between the ranks,
        # network_setup with no rank to blame (rules L and O)
        return Verdict(
            "network_setup",
            f"NCCL reported an internal error whose Last error is one of its own sockets failing ('{_what(sock)}'): "
            "NCCL returns a failure of its sockets (bootstrap, proxy) as ncclInternalError, and here the connection "
            "between the ranks failed while the communicator was being set up (the interface NCCL picked, a firewall "
            "or proxy between the hosts, a peer that went away), not a faulty rank",
            _NET_FIX + " Read the other ranks' logs with NCCL_DEBUG=INFO (or NCCL_DEBUG=WARN): a peer that failed "
            "first names its own error; NCCL_IB_DISABLE=1 as a test tells an IB set-up problem from the sockets.",
            "medium", [], [e.brief() for e in evs[:3]])
    if "ncclInternalError" in codes:
        lone = lone_failure(c)  # lead rule A: the one process torchrun shows failing is the rank it happened on
        who = lone.culprits if lone is not None and lone.exitcode not in (None, 0, -6) else []
        return Verdict(
            "nccl_internal",
            "NCCL reported an internal error" + (f" on {lone.who}, the one process torchrun shows failing" if who
                                                 else ""),
            "Rerun with NCCL_DEBUG=INFO to see the failing internal check; check the same NCCL version on every rank "
            "(torch's bundled one vs a system one) and run `ncclDoctor check`; on consumer GPUs try "
            "NCCL_P2P_DISABLE=1 as a test (a broken PCIe peer-to-peer path); in point-to-point code, group send and "
            "recv the same way on every rank (ncclGroupStart/ncclGroupEnd, batch_isend_irecv on both sides); an "
            "internal check failing in one release may be fixed in a later one: upgrade NCCL." + _old_nccl(evs),
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
    if codes == {"unknown"} and all(e.data.get("unnamed") for e in evs) and not any(e.data.get("last_error")
                                                                             for e in evs):
        return _unnamed_code(evs)
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
    if codes == {"ncclRemoteError"} and not any(e.data.get("last_error") or e.data.get("mid_run") for e in evs) \
            and not _peer_closed(c):
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
        closed = _peer_closed(c)
        return Verdict(
            "early_exit",
            "NCCL's ncclRemoteError: a peer process exited (or the network to it failed) while this rank still "
            "communicated with it; the rank printing it is a victim, the peer's own failure came first"
            + (f"; {_eof_who(closed)}: a read of its connection found the other end closed (end of stream, not a "
               "reset or a timeout) -- a process on the other side exited, the 'remote process exited' half of "
               "NCCL's either-or; which process went first these lines do not say" if closed else ""),
            "Find the rank that exited first (the first failing rank): its own log and traceback (an exception, a "
            "CUDA error, an OOM, a SIGKILL from the host); if every process was alive, check the network between the "
            "nodes (NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=NET).",
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
        # (a check_call's CalledProcessError cut before its status still says that worker exited non-zero; with no
        # watchdog timeout shown it is no victim's abort: readers.exits._launcher_exit, lead rule AC (4))
        cut = lone is not None and lone.exitcode is None and bool(lone.event.data.get("nonzero")) and not (
            c.samples.get("watchdog_timeout"))
        who = lone.culprits if lone is not None and (lone.exitcode not in (None, 0, -6) or cut) else []
        alike = _printers([e for e in evs if e.data.get("code") == "ncclSystemError"])
        twice = _raised_twice([e for e in evs if e.data.get("code") == "ncclSystemError"])
        if who and (len(alike) > 1 or twice):
            who = []  # lead rule J: several processes raised that same error on their own; the record's is the first
        return Verdict(
            "nccl_system",
            "NCCL reported a system error (a socket, shared memory or IB verbs call failed)"
            + (f" on {lone.who}, the one process the launcher shows failing" if who else "")
            + (f" in {len(alike)} processes alike ({', '.join(f'{k} {v}' for k, v in sorted(alike, key=str)[:4])}): "
               "every process shown raised it on its own, a cause they share, not the one a launcher's record names "
               "first" if len(alike) > 1 else "")
            + (f"; the same exception ends {twice} tracebacks of the shared output (no rank tag): each is one "
               "process's, so every process shown raised it on its own -- a cause they share, not the one a "
               "launcher's record names first" if twice and len(alike) < 2 else "")
            + (f"; the later '{_what(echo[0])[:100]}' is that failed communicator's echo (a call on a communicator "
               "already aborted), not the call's arguments" if echo else ""),
            "Read the Last error line; rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET to see which call "
            "failed; check /dev/shm (docker --shm-size / --ipc=host), NCCL_SOCKET_IFNAME, and the GPUs each process "
            "sees: select them with CUDA_VISIBLE_DEVICES (contiguous, one per process) rather than a framework's "
            "device list with gaps." + _no_last_error(evs) + _old_nccl(evs) + _topo_files(c) + _ib_setup(c)
            + _nvml_unloadable(c, evs),
            "medium",
            who,
            [e.brief() for e in evs[:3]],
        )
    return None


# the NET/IB settings that choose a RoCE port's GID by address (NCCL_IB_ADDR_RANGE, NCCL_IB_ADDR_FAMILY) or version
_GID_BY_ADDRESS = ("NCCL_IB_ADDR_RANGE", "NCCL_IB_ADDR_FAMILY", "NCCL_IB_ROCE_VERSION_NUM")


def _ib_setup(c: Collected) -> str:
    """Lead rules J, T: an ncclSystemError whose '-> 2' trail starts in NCCL's own IB transport (transport/net_ib.cc)
    failed a system call of NET/IB's set-up -- reading the RDMA port's GID table and its attributes in sysfs, or
    opening the device -- not the fabric (no completion, port or ibv_modify_qp error): the fix names the GID choice and
    the sysfs files it reads, and the NET/IB settings the lines show choosing the GID (round 109's nccl-1332); '' where
    the trail does not run through net_ib.cc, and '' where no line names a GID or its sysfs read (_gid_named):
    net_ib.cc returns ncclSystemError for almost every verbs failure, a data-path request's or a memory
    registration's among them (review a of round 109, finding 5)."""
    if not any(f == "net_ib.cc" and n == 2 for f, n in c.retcodes) or not _gid_named(c):
        return ""
    gid = [n for n in _GID_BY_ADDRESS if c.settings.get(n)]
    return (" The error unwinds from NCCL's IB transport set-up (net_ib.cc): a call choosing or reading the RDMA "
            "port's GID failed; check /sys/class/infiniband/<dev>/ports/<port>/gid_attrs/types is readable in the "
            "container/pod (mount /sys, or the RDMA device plugin), list the GIDs with show_gids, use NCCL_IB_HCA to "
            "select the right RoCE device, and run once with NCCL_IB_DISABLE=1 to confirm the IB path is the cause"
            + (f"; the lines show {' / '.join(gid)} set: set NCCL_IB_GID_INDEX explicitly (check show_gids) instead, "
               "or make the range match the RoCE interface's subnet (ip addr)" if gid else "")
            + "; upgrade NCCL (newer NET/IB skips GID entries it cannot read).")


# a GID named by the lines: the port's GID table or its sysfs read ("gid_attrs", "GID index", ibv_query_gid), the RoCE
# version NCCL picks a GID by ("RoCE version", NCCL_IB_ROCE_VERSION_NUM), NCCL_IB_GID_INDEX
_R_GID = re.compile(r"(?i)\bgids?\b|\bgid[_ ]?(?:attrs|index|idx|tbl|table)\b|ibv_query_gid|\broce[ _]?v(?:ersion)?\b|"
                    r"ROCE_VERSION_NUM|IB_GID_INDEX")
_GID_SETTINGS = ("NCCL_IB_GID_INDEX",) + _GID_BY_ADDRESS


def _gid_named(c: Collected) -> bool:
    """Some line of the input names a GID or its sysfs read (_R_GID): an NCCL WARN or error (its Last error), an NCCL
    setting that picks the GID (NCCL_IB_GID_INDEX, or by address / RoCE version: _GID_BY_ADDRESS), a line no reader
    took."""
    if any(c.settings.get(n) for n in _GID_SETTINGS):
        return True
    evs = c.samples.get("nccl_warn", []) + c.samples.get("nccl_error", []) + c.unread
    return any(_R_GID.search(e.text) or _R_GID.search(e.data.get("last_error") or "") for e in evs)


def _nvml_unloadable(c: Collected, evs: list) -> str:
    """Lead rules J, T: the system error's call is NCCL loading the NVIDIA driver's NVML library, which it needs at
    start-up on every rank: the fix names the driver's library and the paths that find it (round 109's
    nccl-tests-320); '' where the lines do not show NVML failing to load. warn_families' "nvml_unloadable" reads the
    same words first (config, rule AT (1), session 46's ruling); this is the generic system error's words for them
    where that family did not (a WARN read as harmless)."""
    texts = [e.text for e in c.samples.get("nccl_warn", [])] + [e.data.get("last_error") or "" for e in evs]
    if not any(R_NVML_UNLOADABLE.search(t) for t in texts):
        return ""
    return (" NCCL could not load the NVIDIA driver's NVML library (libnvidia-ml.so.1): install the NVIDIA driver's "
            "NVML library (libnvidia-ml.so.1) or fix the driver installation, add the directory holding "
            "libnvidia-ml.so.1 to LD_LIBRARY_PATH / ldconfig (or LD_PRELOAD it), and in containers, mount the driver "
            "libraries (nvidia-container-toolkit, --gpus all); check that nvidia-smi runs on that host.")


def _topo_files(c: Collected) -> str:
    """Lead rule T: the topology or graph file the lines show NCCL taking from the environment ("NCCL_TOPO_FILE set
    by environment to /opt/microsoft/ncv4/topo.xml", an exported NCCL_GRAPH_FILE) beside an ncclSystemError: NCCL
    reads the machine from that file instead of sysfs, and a file made for another machine type (a VM size's image)
    fails its set-up, so the fix names it (round 90's nccl-1101); '' where no such file is set."""
    files = [f"{n}={next(iter(c.settings[n]))}" for n in ("NCCL_TOPO_FILE", "NCCL_GRAPH_FILE") if c.settings.get(n)]
    if not files:
        return ""
    return (f" The lines show {' and '.join(files)} set: NCCL builds its topology from that file, not the machine's "
            "own PCI tree; check it matches this machine (the VM size / image it was made for), or unset "
            "NCCL_TOPO_FILE / NCCL_GRAPH_FILE to let NCCL detect it.")


# an exception's own line, as a traceback ends (its class, then the message), not a log line quoting it
_RAISED = re.compile(r"^\s*(?:[A-Za-z_][\w.]{0,80}\.)?[A-Z]\w{0,60}(?:Error|Exception): NCCL error\b")


def _raised_twice(evs: list) -> int:
    """Lead rules J, AM (2): how many times one NCCL error's exception line ends a traceback under one tag (the shared
    output: no tag, or one a launcher or collector put on every line), when more than once (else 0). Python prints a
    process's uncaught exception once: the same line twice is two processes raising it on their own."""
    said = Counter((e.rank, e.host, body) for e in evs if _RAISED.match(body := strip_prefixes(e.text).strip()))
    most = max(said.values(), default=0)
    return most if most > 1 else 0


def _printers(evs: list) -> set:
    """The processes that printed these NCCL errors, each told by its rank or its host: two or more raising the same
    error on their own are every process failing alike (lead rule J), whichever one a launcher's record names first
    (mpirun's "the first process to do so was")."""
    return {("rank", e.rank) if e.rank is not None else ("host", e.host) for e in evs
            if e.rank is not None or e.host is not None}


def _peer_closed(c: Collected) -> list:
    """Lead rule O: a rank's own exception is EOFError -- a read of a pipe or socket (multiprocessing's
    Connection.recv, a store or checkpoint worker's channel) found the other end closed cleanly. Beside an
    ncclRemoteError with no 'Last error' line it says which half of NCCL's either-or happened: a process exited
    (a network fault resets or times out; it does not close a stream cleanly)."""
    return [e for e in c.exceptions if (e.data.get("type") or "").rsplit(".", 1)[-1] == "EOFError"]


def _eof_who(evs: list) -> str:
    ranks = sorted({e.rank for e in evs if e.rank is not None})
    return ", ".join(f"rank {r} EOFError" for r in ranks[:4]) if ranks else "an EOFError"


_NCCL_VERSION = re.compile(r"NCCL version (\d+)\.(\d+)\.(\d+)")


# a peer that closed or reset the socket: set-up or a peer gone mid-run (lead rule O), which the words alone do not say
_PEER_GONE = re.compile(r"closed by (?:remote )?peer|reset by peer|[Bb]roken pipe")


def _socket_said(text: str) -> bool:
    """The Last error is NCCL's sockets' (their subsystem's words), no family reads it more closely, and it is not a
    peer closing its end."""
    from ncclDoctor.diagnose.warn_families import classify, subsystem

    return classify(text) is None and subsystem(text).name == "socket" and not _PEER_GONE.search(text)


# cuGetErrorString of CUDA_ERROR_NOT_SUPPORTED (801, "API call is not supported in the installed CUDA driver") and of
# cudaErrorInsufficientDriver (35): the installed driver is older than the API the library was built to call
R_DRIVER_REFUSES = re.compile(r"not supported in the installed CUDA driver|CUDA driver version is insufficient")


def driver_refused(c: Collected):
    """The ncclInternalError whose Last error is the driver refusing a CUDA call for its version, or None."""
    return next((e for e in c.samples.get("nccl_error", []) if e.data.get("code") == "ncclInternalError"
                 and R_DRIVER_REFUSES.search(e.data.get("last_error") or "")), None)


def _driver_too_old(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule X (3): NCCL's internal error whose Last error is the driver refusing a CUDA call for its version: the
    NCCL (or torch) build needs a newer driver than the one installed -- a version problem every rank on those hosts
    shares, NCCL's own failure (not a CUDA fault of a GPU, not a rank's). Before the WARN families, whose capability
    family reads "is not supported in the ..." as a feature the job asked for."""
    e = driver_refused(c)
    if e is None:
        return None
    evs = c.samples.get("nccl_error", [])
    return Verdict(
        "nccl_internal",
        f"NCCL reported an internal error whose Last error is the CUDA driver refusing one of its calls ('{_what(e)}'):"
        " the NCCL/CUDA build in use calls a driver API that the installed NVIDIA driver does not have -- the build "
        "is too new for the driver, on every rank alike, not a faulty rank or GPU",
        "Compare the driver with the CUDA version the build needs: nvidia-smi (its Driver Version and the CUDA "
        "version it supports) against torch.version.cuda and the NCCL version (torch.cuda.nccl.version()). Upgrade "
        "the NVIDIA driver to one that supports that CUDA version, or install a torch/NCCL build for the CUDA version "
        "the installed driver supports (downgrade torch to a build for that CUDA, or a matching NCCL version); a "
        "container can add the CUDA forward-compatibility package (cuda-compat) on a datacenter GPU." + _old_nccl(evs),
        "medium", [], [x.brief() for x in evs[:3]], job_wide=True)


def _no_last_error(evs: list) -> str:
    """A system error whose lines carry no Last error (an old NCCL's one-line RuntimeError): the call that failed is
    not shown at all, so NCCL's own log is the next step, with the host limits such a call hits."""
    sys_errs = [e for e in evs if e.data.get("code") == "ncclSystemError"]
    if not sys_errs or any(e.data.get("last_error") for e in sys_errs):
        return ""
    return (" These lines carry no Last error: rerun with NCCL_DEBUG=INFO to see the failing system call "
            "(NCCL_DEBUG_SUBSYS=INIT,SHM,NET), and check the limits such a call hits: /dev/shm size, ulimit -l "
            "(memlock) and ulimit -n (nofile) -- raise the locked-memory limit (ulimit -l unlimited) and the "
            "open-files limit; try NCCL_SHM_DISABLE=1 / NCCL_P2P_DISABLE=1 / NCCL_IB_DISABLE=1 to isolate the "
            "transport.")


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


# oneCCL raising on a system call of its own that failed, its errno in the text: "oneCCL: ze_fd_manager.cpp:214
# fill_device_fds: EXCEPTION: open failed: fd: -1, errno: No such file or directory" (its Level Zero IPC opening the
# GPUs' render devices, /dev/dri/by-path/*-render), or the same under its "|CCL_ERROR|" log header -- oneCCL's
# counterpart of ncclSystemError. An errno of a connection (refused, reset, unreachable, timed out) is the network's
# and left to the readers of the network and the store.
_R_CCL_SYS_CALL = re.compile(r"(?:\|CCL_ERROR\||oneCCL:)\s*(\w{1,60})\.cpp:\d{1,6} (\w{1,80}): (?:EXCEPTION: )?"
                             r"([^\n]{0,200}?\berrno\b[^\n]{0,120})")
_R_NET_ERRNO = re.compile(r"(?i)connection|unreachable|timed out|no route|address already in use|broken pipe")
# what oneCCL's device-file exchange needs (its ze fd manager, the drmfd / pidfd IPC exchange)
_R_CCL_DEVICE_FD = re.compile(r"(?i)\bze_|_fd|\bfds?\b|drm|/dev/dri")


def _ccl_sys_call(c: Collected) -> Verdict | None:
    """Lead rules J, AC (4): oneCCL failing a system call of its own (an errno in its exception or CCL_ERROR line, no
    connection's): the host's set-up that every process shares -- nccl_system, no rank named."""
    hit = next(((x, m) for x in list(c.exceptions) + list(c.unread)
                if "errno" in (t := x.data.get("message") or x.text) and (m := _R_CCL_SYS_CALL.search(t))
                and not _R_NET_ERRNO.search(m.group(3))), None)
    if hit is None:
        return None
    x, m = hit
    said = f"{m.group(1)}.cpp {m.group(2)}: {m.group(3).strip()}"
    devices = bool(_R_CCL_DEVICE_FD.search(m.group(1) + " " + m.group(2)))
    return Verdict(
        "nccl_system", f"oneCCL (the collective library here) failed a system call of its own: '{said[:200]}'"
        + (" -- opening the GPUs' device files (/dev/dri/by-path/*-render) that its Level Zero IPC exchanges between "
           "the processes" if devices else "")
        + "; the host's set-up every process shares (oneCCL's counterpart of an ncclSystemError), not a rank's fault "
        "nor the network's",
        ("oneCCL's IPC between the processes opens the GPUs' render devices: in a container pass them all "
         "(docker --device /dev/dri, and mount /dev/dri/by-path, which --device does not create; or --privileged), "
         "give the user the render group's permissions on them (ls -l /dev/dri/by-path), or make oneCCL exchange the "
         "handles over sockets instead (CCL_ZE_IPC_EXCHANGE=sockets; pidfd needs a kernel >= 5.6). "
         if devices else
         "The errno names what the host refused: check the file or device the call names (its path, permissions, "
         "a container's --device and mounts, /dev/shm), and the process limits (ulimit -n). ")
        + "CCL_LOG_LEVEL=debug shows the call and its arguments; keep oneCCL matched to the framework's build.",
        "medium", [], [x.brief()], job_wide=True)


def _warn_family(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """An NCCL WARN (or an NCCL error's "Last error" text) of a family no specific detector
    read: its family's cause and fix (warn_families.py)."""
    from ncclDoctor.diagnose.warn_families import classify

    refused = c.samples.get("rdma_refused", [])
    hccl = next((e for e in refused if e.data.get("lib") == "HCCL"), None)
    if hccl is not None:  # lead rule J: HCCL's own resources for its links (queue pairs) refused at set-up
        res = hccl.data.get("resource") or "?"
        links = [e for e in c.samples.get("rpc_setup", []) if e.data.get("link")]
        return Verdict(
            "nccl_system", f"HCCL (the collective library here) could not allocate resource[{res}] for its links at "
            f"communicator set-up: memory resources exhausted ('{hccl.text.strip()[:160]}')"
            + (f"; the {len(links)} link(s) it could not then create to its peers follow from it" if links else "")
            + " -- the host / NPU refused the RDMA resources the set-up asked for, the same set-up every rank runs, "
            "not a rank's fault nor the network's",
            "Free the memory HCCL's links need: lower HCCL_BUFFSIZE (the buffer, in MB, each link between two NPUs "
            "holds), leave room on the NPU beside the model (a lower --gpu-memory-utilization in vLLM), or fewer "
            "ranks / smaller TP and EP per communicator (fewer links, fewer queue pairs: a queue pair's send_cq_depth "
            "is what it allocates); check the locked-memory limit where the ranks run (ulimit -l unlimited; docker "
            "--ulimit memlock=-1) and the NPU's memory (npu-smi info); the HCCL plog (ASCEND_GLOBAL_LOG_LEVEL=1) names "
            "the allocation that failed.", "medium", [],
            [hccl.brief()] + [e.brief() for e in links[:1]], job_wide=True)
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
    if sys_call := _ccl_sys_call(c):
        return sys_call
    ci = c.samples.get("ccl_internal", [])
    if ci and (other := _accel_ccl_internal(ci)) is not None:
        return other
    if ci:  # oneCCL's own exception with no runtime or system call shown failing (lead rules BO (3), AK (2), BJ (2))
        said = sorted({e.data["said"] for e in ci})
        return Verdict(
            "nccl_internal", "oneCCL (the collective library here) failed one of its own internal checks: "
            + _first_and_last(said) + " -- its counterpart of ncclInternalError, with no Level Zero call or "
            "system call shown failing; every rank runs the same collective with the same settings, so no rank is at "
            "fault",
            "Avoid the path that failed: the function named is where oneCCL threw (its collective's algorithm -- "
            "CCL_<COLLECTIVE>=<another algorithm>, e.g. CCL_ALLTOALLV=naive or direct, or its monolithic kernel -- "
            "or the buffers it was handed: pass device (USM) memory buffers, avoid zero-sized (torch.empty(0)) "
            "buffers); rerun with CCL_LOG_LEVEL=info (or debug) for its context, and upgrade oneCCL (update oneCCL "
            "and the Level Zero driver together, matched to the framework's build).",
            "medium", [], [e.brief() for e in ci[:3]], job_wide=True)
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
    if fam.name == "no_algorithm" and (internal := _no_algorithm_internal(c, same)) is not None:
        return internal
    ranks = sorted({e.rank for e in same if e.rank is not None})
    cause, meaning = fam.cause, fam.meaning
    nonic = [e for e in c.samples.get("benign", []) if e.data.get("what") == "ofi device not found"]
    if fam.name == "ofi_endpoint" and nonic:  # the plugin could not even read its device: the device is not usable
        cause, meaning = "network_setup", (
            "the libfabric net plugin (aws-ofi-nccl) could not set up its endpoint on the EFA device, and the lines "
            f"show it unable to read the device at all ('{R_OFI_NO_NIC.search(nonic[0].text).group(0)}'): the EFA "
            "device is not usable from these processes (not passed into the container, the EFA driver or libfabric "
            "missing or mismatched), so NCCL's connections between the nodes cannot be set up over it")
    who: list[int] = []
    if cause in ("nccl_internal", "nccl_system") and not fam.job_wide and any(e.kind == "nccl_error" for e in same):
        # lead rules A and AC (4): NCCL's error raised in a process (its exception, not a WARN alone), and the
        # launcher's record names exactly one process failing on its own: the error is that process's
        lone = lone_failure(c)
        who = lone.culprits if lone is not None and lone.exitcode not in (None, 0, -6, -15) else []
        if who:
            meaning += f"; on {lone.who}, the one process the launcher shows failing"
    fix = fam.fix + (_NVML_BUSID_FIX if fam.name == "nvml" and any(_R_NVML_BUSID.search(e.text) for e in same)
                     else "")
    return Verdict(cause, f"{meaning} (NCCL: '{_what(first)}'" + (f", on {_named(ranks)})" if ranks and not who
                                                                  else ")"),
                   fix, "low" if cause == "unknown" else "medium", who, [e.brief() for e in same[:3]],
                   job_wide=fam.job_wide)


# NVML finding no GPU at a PCI bus id NCCL asks about (nvmlwrap.cc: "nvmlDeviceGetHandleByPciBusId() failed: Not
# Found"): the GPU is not in this process's NVML view -- a Slurm task bound to its own GPU with the devices cgroup
# constrained hides the node's other GPUs, which NCCL's topology of the node still names; a container or VM whose
# GPUs are passed through at other bus ids (round 109's nccl-tests-300)
_R_NVML_BUSID = re.compile(r"\bnvmlDeviceGetHandleByPciBusId\w*\(\) failed: Not Found")
_NVML_BUSID_FIX = (
    " NVML found no GPU at a bus id NCCL asked about: check that NVML sees the GPUs at the PCI bus ids CUDA reports "
    "(nvidia-smi -q vs /sys/bus/pci, container/VM GPU passthrough). Under Slurm, per-task GPU binding with the "
    "devices cgroup constrained (ConstrainDevices) hides the node's other GPUs from each task: request the GPUs with "
    "--gpus-per-node instead of --gpu-bind/--tres-bind=gres/gpu:per_task:1 (or --tres-bind=gres/gpu:none) and let "
    "each task pick its own with CUDA_VISIBLE_DEVICES / LOCAL_RANK; NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,GRAPH "
    "shows the topology NCCL detected.")


def _no_algorithm_internal(c: Collected, same: list[Event]) -> Verdict | None:
    """Lead rules AK (2) and BO (3), with rule AH (2)'s "the failure's own class stands": NCCL's tuner finding no
    algorithm/protocol for a call returns ncclInvalidUsage where NCCL_ALGO / NCCL_PROTO is set (its text then says
    "NCCL_ALGO was set to X": _forced_algorithm) and ncclInternalError where neither is. Where the lines show it
    returning ncclInternalError -- torch's error with that code and this Last error, or the WARN's own return-code
    trail through enqueue.cc with 3 -- and show no NCCL_ALGO / NCCL_PROTO setting, no setting ruled the algorithms
    out: the table NCCL built for the communicator, which every rank shares, has no entry for the call -- nccl_internal,
    no rank at fault (round 87's nccl-1709, tensorrt-llm-953). Where no code is shown, or a setting is (NCCL 2.7 also
    returned ncclInternalError under NCCL_ALGO=CollNet), the setting reading stays (nccl-653)."""
    if any(k in c.settings for k in ("NCCL_ALGO", "NCCL_PROTO")) or any("was set to" in e.text for e in same):
        return None
    errs = [e for e in same if e.kind == "nccl_error" and e.data.get("code") == "ncclInternalError"]
    trail = c.retcodes.get(("enqueue.cc", 3)) and not any(f == "enqueue.cc" and n != 3 for f, n in c.retcodes)
    if not errs and not (trail and any(e.kind == "nccl_warn" for e in same)):
        return None
    first = (errs or same)[0]
    text = _what(first)
    ranks = sorted({e.rank for e in same if e.rank is not None})
    m = re.search(r"for function (\w{1,32}) with datatype (\w{1,32})", text)
    call = f"{m.group(1)} on {m.group(2)}" if m else "the collective"
    return Verdict(
        "nccl_internal",
        f"NCCL's tuner found no algorithm/protocol for {call} and returned ncclInternalError (NCCL: '{text}'"
        + (f", on {_named(ranks)}" if ranks else "") + "): where NCCL_ALGO / NCCL_PROTO rules the algorithms out NCCL "
        "says so (ncclInvalidUsage, 'NCCL_ALGO was set to ...'), and the lines show no such setting -- the "
        "algorithm/protocol table NCCL built for this communicator, which every rank of it shares, has no entry for "
        "the call: one of NCCL's own checks, not a rank's fault",
        "No algorithm/protocol available with no NCCL_ALGO / NCCL_PROTO set is NCCL's own table left empty for this "
        "call: rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=TUNING (and INIT) to see the algorithms and protocols NCCL "
        "enabled for the communicator; check that no NCCL_ALGO / NCCL_PROTO is set anywhere (/etc/nccl.conf, "
        "~/.nccl.conf, a container or launcher default) and unset NCCL_ALGO/NCCL_PROTO if one is; turn the optional "
        "algorithms off one at a time to find the one that leaves the call without an implementation "
        "(NCCL_NVLS_ENABLE=0 for NVLS, NCCL_COLLNET_ENABLE=0 for CollNet / SHARP); check the collective supports the "
        "datatype (an int8 or fp8 all_gather / reduce: cast the tensor's dtype); upgrade NCCL (tuner bugs of this "
        "kind are fixed in later releases), and report to NCCL (its GitHub issues) with the version and the "
        "NCCL_DEBUG=INFO log.",
        "medium", [], [e.brief() for e in same[:3]], job_wide=True)


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
        "Rerun with NCCL_DEBUG=WARN so the misuse (ncclInvalidUsage) is printed in NCCL's Last error (two ranks on one "
        "GPU, 'Duplicate GPU detected': torch.cuda.set_device(LOCAL_RANK), CUDA_VISIBLE_DEVICES, or two processes of "
        "one communicator placed on the same GPU; a wrong rank or world size given to the group; mismatched calls "
        "between ranks; the same NCCL build on every node)."),
}


_R_REALPATH_SYS = re.compile(r"Could not find real path of /sys/\S{1,300}")
_TOPO_SYSFS_FIX = (
    "it could not read the PCI tree under /sys (sysfs: /sys/class/pci_bus, /sys/bus/pci/devices) on this host, as in "
    "WSL2, a VM or a container without the host's /sys. Run where sysfs shows the GPUs (native Linux; a container "
    "with the host's /sys mounted, e.g. --privileged), give NCCL the topology in a file (NCCL_TOPO_FILE), or upgrade "
    "NCCL to a version that supports this platform (the 'NCCL version' line of NCCL_DEBUG=INFO). ")
# the files of NCCL's CollNet try-setup (init.cc's collNetTrySetup over transport.cc / transport/coll_net.cc)
_COLLNET_TRY = ("init.cc", "transport.cc", "coll_net.cc")
_TRAIL_TOP = ("init.cc", "group.cc", "enqueue.cc", "collectives.cc", "init.cu", "group.cu", "enqueue.cu")


def _retcode_trail(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """NCCL's return-code trail alone ("NCCL INFO transport.cc:84 -> 3" ... "group.cc:72 -> 3 [Async thread]"), the
    WARN that started it not in the lines: NCCL still failed, and the code it carries up (ncclResult_t) is the class
    of the failure -- never "nothing failed". The detectors before read the trails they know (bootstrap, sockets,
    IB, topology's system calls); this one reads the code of any other."""
    retcodes = dict(c.retcodes)
    if collnet_fell_back(c):  # rule AH (2): the CollNet try-setup's own trail, whose result init.cc ignores
        retcodes = {(f, n): k for (f, n), k in retcodes.items() if f not in _COLLNET_TRY}
    if not retcodes or any(not harmless_warn(c, e) for e in c.samples.get("nccl_warn", [])):
        return None
    if c.samples.get("nccl_error") or c.exceptions:
        return None
    # a trail that stops below the API (a probe NCCL recovers from: net_ib/gdr.cc -> 3, then "Using network
    # Socket") is no failure; one that reaches ncclCommInitRank's or a group's layer came out of NCCL's call
    codes = {n for (f, n) in retcodes if n in _RETCODE_CLASS and f in _TRAIL_TOP}
    if not codes:
        return None
    # of those, the code the first trail line printed carries (where the failure started, as an engineer reads the
    # trail from its top), else the code most lines carry
    first = [e.data["retcode"][1] for e in c.retcode_heads if e.data["retcode"][1] in codes]
    code = first[0] if first else max(codes, key=lambda n: (sum(k for (_, m), k in retcodes.items() if m == n), n))
    cause, what, fix = _RETCODE_CLASS[code]
    files = [f for (f, n) in retcodes if n == code]
    # NCCL <= 2.4 inlines the topology's realpath() of the GPU's sysfs path (include/topo.h): its WARN "Could not find
    # real path of /sys/class/pci_bus/..." is then the first line of a trail that names only init.cu/group.cu
    realpath = next((e for e in c.samples.get("nccl_warn", []) if _R_REALPATH_SYS.search(e.text)), None)
    if code == 2 and (realpath is not None or any(f in ("xml.cc", "topo.cc") for f in files)):
        # ncclSystemError out of graph/ (xml.cc, topo.cc): the topology detection's own system calls, reading the
        # machine's PCI tree under /sys, failed -- the host (WSL2, a VM, a container's /sys) hides it from every rank
        fix = "The trail runs through NCCL's topology detection (graph/xml.cc, topo.cc): " + _TOPO_SYSFS_FIX + fix
    said = (f"its WARN '{_R_REALPATH_SYS.search(realpath.text).group(0)}' says the topology detection could not "
            "resolve a GPU's sysfs path; these lines name no rank" if code == 2 and realpath is not None else
            "the WARN line that says which call or check failed is not in these lines, and no rank is named by them")
    return Verdict(
        cause,
        f"NCCL's return-code trail ({', '.join(f'{f} -> {code}' for f in files[:4])}) carries {code} = {what}; "
        f"{said}",
        fix, "medium" if code != 1 else "low", [], _samples(c, "transport"), job_wide=True)


# NCCL's proxy and bootstrap connections between the processes at set-up, in their own words: a peer's end closed, a
# proxy call's reply never came ("Socket recv failed while polling for opId=..."), the proxy service dropping a
# request ("[Proxy Service 1] Failed to execute operation Init from rank 2", "[Service thread] Could not receive type")
_R_SETUP_SOCKET = re.compile(r"closed by (?:remote )?peer|Socket recv failed|\[Proxy Service \d{1,6}\] Failed to "
                             r"execute|\[Service thread\] (?:Could not receive|Error encountered)")
# the layers whose own trail a socket failure starts (a closure or a failed connect returns 2 = ncclSystemError there)
_SOCKET_LAYERS = ("socket.", "net_socket.", "bootstrap.", "proxy.", "net.")


def _first_own_error(c: Collected):
    """The first return-code trail line of the lines when it is a process's own set-up failure: the first failure in
    its file (no WARN or socket error above it), carrying ncclUnhandledCudaError (1) or ncclSystemError (2) out of a
    layer that is not the sockets' (group.cc's async thread, init.cc, a transport's setup) -- or None."""
    first = next((e for e in c.retcode_heads if not e.data.get("after_timeout")), None)
    if first is None or first.pid is None:
        return None
    f, code = first.data["retcode"]
    if code not in (1, 2) or f.startswith(_SOCKET_LAYERS):
        return None
    path, line = place(first)
    said = [e for e in c.samples.get("nccl_warn", []) if not harmless_warn(c, e)]
    said += c.samples.get("socket_error", []) + c.samples.get("nccl_error", [])
    if any(place(e)[0] == path and place(e)[1] < line for e in said):
        return None
    return first


def _setup_aftermath(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule AQ (1): NCCL's proxy or bootstrap socket texts at communicator set-up ("Connection closed by remote
    peer", "Socket recv failed while polling") printed by a process AFTER another process's own set-up error -- the
    first failure in the lines, a return-code trail carrying ncclSystemError or ncclUnhandledCudaError out of a layer
    that is not the sockets' -- are that error seen from its peers: the failing process's proxy service dropped their
    requests and closed its end. They take that first error's class; rule O's network_setup is for socket texts that
    come first (_network). No rank is named: the prefix's [N] is a CUDA device of one host (rule AC (4))."""
    if not any(f in ("init.cc", "transport.cc") for f, _ in c.retcodes):
        return None  # the trail never ran through the communicator's set-up
    if any(e.data.get("connect") for e in c.samples.get("socket_error", [])):
        return None  # a connection that could not be made is the network's (rule L)
    first = _first_own_error(c)
    if first is None:
        return None
    path, line = place(first)
    me = (first.host, first.pid)
    after = [e for k in ("socket_error", "nccl_warn") for e in c.samples.get(k, [])
             if place(e)[0] == path and place(e)[1] > line and (e.host, e.pid) != me and e.pid is not None
             and _R_SETUP_SOCKET.search(e.text)]
    if not after:
        return None
    f, code = first.data["retcode"]
    cause, what, fix = _RETCODE_CLASS[code]
    dev = first.data.get("dev")
    who = f"process {first.host}:{first.pid}" + (f" (CUDA device [{dev}])" if dev is not None else "")
    peers = sorted({f"{e.host}:{e.pid}" for e in after})
    return Verdict(
        cause,
        f"the first failure in the lines is {who}'s own communicator set-up: its return-code trail ({f} -> {code}) "
        f"carries {what}; the socket texts after it on {', '.join(peers[:3])} ('{_what(after[0])[:80]}') are its "
        "peers' proxy/bootstrap connections to it dropped at set-up -- that error's consequence, not the network "
        "(lead rule AQ (1))" + (". The lines name no rank ([N] is a CUDA device)" if first.rank is None else ""),
        f"Read {who}'s full NCCL_DEBUG=INFO output above that trail: the WARN there names the call that failed (the "
        "other ranks' logs show only its consequence). " + fix
        + " On one host, NCCL_P2P_DISABLE=1 or NCCL_SHM_DISABLE=1 as a test tells a peer-to-peer or shared-memory "
        "transport set-up failing.",
        "medium", [], [first.brief()] + [e.brief() for e in after[:3]], job_wide=True)


def _topo_realpath(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """NCCL's topology detection resolving a GPU's PCI path (getPciPath: realpath() of "/sys/class/pci_bus/<domain:
    bus>/../../<busId>", graph/xml.cc; include/topo.h in NCCL <= 2.4) returns ncclSystemError whenever it fails: the
    WARN "Could not find real path of /sys/class/pci_bus/..." without its return-code trail (the paste kept the WARNs
    and the framework's traceback) is still the communicator's set-up failing on this host's sysfs, on every rank
    alike (ncclSystemError, no rank). A NIC's path (/sys/class/net/X/device) is the harmless one (verdict.noise)."""
    warns = c.samples.get("nccl_warn", [])
    hits = [e for e in warns if R_TOPO_REALPATH.search(e.text)]
    if not hits or any(not harmless_warn(c, e) for e in warns):
        return None
    path = R_TOPO_REALPATH.search(hits[0].text).group(0)
    ranks = sorted({e.rank for e in hits if e.rank is not None})
    return Verdict(
        "nccl_system",
        f"NCCL's topology detection could not resolve a GPU's PCI device under /sys ('{path}'"
        + (f", on {_named(ranks)}" if ranks else "") + "): NCCL returns ncclSystemError there and the communicator's "
        "set-up fails, a system-level failure of this host that every rank hits alike, not a rank's fault",
        "NCCL's topology detection (graph/xml.cc) failed: " + _TOPO_SYSFS_FIX + _RETCODE_CLASS[2][2],
        "medium", [], [e.brief() for e in hits[:3]], job_wide=True)


def _nccl_builds(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule AJ (1): the lines show two NCCL builds in one job -- the same WARN message printed from different
    source sites on different hosts (parse._warn_site), or the bootstrap root receiving a message whose counts agree
    and one field is garbled (another version's layout read as its own). The connections refused or reset after it
    follow from the root giving up: nccl_internal, no rank at fault."""
    e = next(iter(c.samples.get("nccl_builds", [])), None)
    if e is None:
        return None
    sites = e.data.get("sites") or []
    seen = []
    if sites:
        (h1, s1), (h2, s2) = sites
        seen.append(f"the same NCCL warning is printed from {s1} on {h1} and from {s2} on {h2}: two builds of NCCL")
    if e.data.get("garbled"):
        seen.append(f"the bootstrap root received info whose counts agree but whose '{e.data['garbled']}' field is "
                    "garbled: a message of another NCCL version's layout read as its own")
    return Verdict(
        "nccl_internal",
        "; ".join(seen) + " -- the nodes run different NCCL versions, whose bootstrap messages do not match; the "
        "refused or reset connections that follow are the root giving up, no rank is at fault",
        "Install the same NCCL version on every node (the nvidia-nccl-cu12 wheel torch pins, or one libnccl.so on "
        "NCCL's path; LD_LIBRARY_PATH / NCCL_LIB must not pick a system copy on some nodes): compare `python -c "
        "'import torch; print(torch.cuda.nccl.version())'` and NCCL_DEBUG=INFO's \"NCCL version\" line on every node, "
        "then reinstall the same version everywhere.",
        "high", [], [e.brief()] + [f"{e.where.rsplit(':', 1)[0]}: {t}" for t in e.data.get("lines", [])[1:2]],
        job_wide=True)


# ProcessGroupNCCL's map from a tensor's dtype to an NCCL datatype (getNcclDataType, ProcessGroupNCCL.cpp / NCCLUtils):
# "Unconvertible NCCL type BFloat16" -- the torch build has no NCCL datatype for it (bfloat16 needs NCCL >= 2.10 at
# build time; torch 1.x builds against an older NCCL compiled it out), whatever NCCL the job loads at run time
_NCCL_DTYPE_UNBUILT = re.compile(r"^Unconvertible NCCL type (\w{1,40})")
# the dtypes whose NCCL datatype depends on the NCCL torch was built against: bfloat16 (NCCL 2.10), float8 (2.24);
# any other one is a dtype torch's NCCL backend has no mapping for (int16, bool on older torch, complex; uint32 / uint64
# on a torch whose map lacks kUInt32 / kUInt64, though NCCL itself defines ncclUint32 / ncclUint64)
_BUILD_DTYPE = re.compile(r"BFloat16$|Float8", re.IGNORECASE)


def _nccl_dtype_unbuilt(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule BF (1) (round 92's nccl-677): torch refusing a collective or send/recv because the NCCL it was built
    against has no datatype for the tensor's dtype ('Unconvertible NCCL type BFloat16') is the build every rank shares:
    config, no rank named, whichever process printed it (an mpirun [1,1] stream tag is no failure record: rules AG,
    AZ (3)). Only an exception's own message; NCCL's own ncclInvalidArgument for a datatype is read elsewhere."""
    hits = [e for e in c.exceptions if _NCCL_DTYPE_UNBUILT.match((e.data.get("message") or "").strip())]
    if not hits:
        return None
    dtype = _NCCL_DTYPE_UNBUILT.match(hits[0].data["message"].strip()).group(1)
    if not _BUILD_DTYPE.match(dtype):
        # a dtype torch's NCCL backend has no mapping for (Short / int16, Bool on an older torch, ComplexFloat /
        # ComplexDouble, UInt32 / UInt64 where torch's map lacks them): the call handed the collective a tensor it
        # cannot carry -- the caller's argument, the same code on every rank
        # (lead rules BQ (3), BK (1); review 92 s2, finding 6)
        cast = ("torch.view_as_real(t) before the collective (torch.view_as_complex after)" if "omplex" in dtype else
                "t.view(torch.int32) / t.view(torch.int64) (the same width) before the collective and back after"
                if dtype.lower() in ("uint32", "uint64") else
                "t.to(torch.int32) (or torch.uint8 for a mask) before the collective and back after")
        return Verdict(
            "invalid_usage",
            f"torch's NCCL process group refused the collective's {dtype} tensor ('Unconvertible NCCL type {dtype}', "
            f"{hits[0].where}): torch's NCCL backend has no mapping for {dtype}, so the call's own argument "
            "dtype is one it cannot carry -- the same code on every rank, so no rank is at fault, a usage error of the "
            "caller",
            f"Cast the {dtype} tensor to a dtype torch's NCCL backend maps before the collective: {cast}; it maps "
            "int8/uint8/int32/int64, float16/bfloat16/float32/float64 (uint32/uint64 on torch builds that map them: "
            "NCCL itself has ncclUint32 / ncclUint64), or run that collective on a gloo group.",
            "medium", [], [e.brief() for e in hits[:2]], job_wide=True)
    bf16 = dtype.lower() == "bfloat16"
    return Verdict(
        "config",
        f"torch's NCCL process group has no NCCL datatype for {dtype} tensors ('Unconvertible NCCL type {dtype}', "
        f"{hits[0].where}): the torch build was compiled against an NCCL without that type"
        + (" (bfloat16 needs NCCL >= 2.10 at torch's build time)" if bf16 else "")
        + ", the same build on every rank, so no rank is at fault, whichever printed it first",
        f"The NCCL version torch was built against lacks {dtype}: check torch.cuda.nccl.version() (not the libnccl "
        "the job loads) and upgrade PyTorch (or the container / build) to one built with "
        + ("NCCL >= 2.10 (bfloat16 support)" if bf16 else "an NCCL that has that type (float8: NCCL >= 2.24)")
        + " -- a container / build NCCL mismatch is the usual cause; or avoid the type in the collective: "
        + ("use fp16 instead of bf16, or cast bf16 tensors to fp16/fp32 before send/recv (bf16 send/recv, all_reduce), "
           "or use gloo for the bf16 p2p." if bf16 else f"cast the {dtype} tensors to a supported dtype before the "
           "collective, or use gloo for it."),
        "medium", [], [e.brief() for e in hits[:2]], job_wide=True)


# Lead rule CA: a host-limit errno in a communication library's own message, at its own source location -- TensorPipe's
# ('In connectFromLoop at tensorpipe/transport/uv/uv.h:297 "rv < 0: too many open files"', round 97's tensorpipe-460),
# gloo's, oneCCL's, NCCL's socket / shm code: that library's system call refused by the host
_R_COMM_SITE = re.compile(r"\b(?:tensorpipe|gloo|oneccl|ccl|nccl)/(?:[\w.-]{1,40}/){0,6}[\w.-]{1,60}\."
                          r"(?:h|hpp|cc|cpp|cu)(?::\d{1,6})?\b|\b(?:misc/socket|misc/shmutils|transport/shm|transport/net_socket|"
                          r"bootstrap)\.cc(?::\d{1,6})?\b", re.IGNORECASE)
_R_HOST_LIMIT = re.compile(r"\b(?:too many open files|EMFILE|ENFILE|cannot allocate memory)\b", re.IGNORECASE)
# an address or connection fault's words: the network's reading (rule AQ (3)), not a host limit's
_R_CONN_FAULT = re.compile(r"\b(?:address|route|refused|reset|timed? ?out|unreachable|resolve|no such host)\b",
                           re.IGNORECASE)


def _lib_host_limit(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule CA (round 97's tensorpipe-460): a message naming a communication library's own source location
    (_R_COMM_SITE) and a host-limit errno (_R_HOST_LIMIT: too many open files, EMFILE/ENFILE, cannot allocate memory),
    with no address / route / refusal / reset / timeout words, even uncaught ('terminate called after throwing ...'
    with its what()): the library's system call refused by the host, nccl_system. The culprit follows the processes
    shown: one process (untagged) with peers shown alive is unknown, nobody innocent (rules AC (1), AD (2), BR (4));
    every process failing alike is nobody (rule J). Not read so: a bare OSError [Errno 24] with no source location
    (rule BZ (1): unknown), an address or connection fault (rule AQ (3)), NCCL's own WARN lines (the warn families)."""
    said: list[tuple[str, Event]] = []
    for u in c.unread:
        for t in (u.data.get("cpp_what"), u.text):
            if t:
                said.append((t, u))
    for e in c.exceptions:
        said.append((e.text, e))
    hit = [(t, e) for t, e in said
           if _R_HOST_LIMIT.search(t) and _R_COMM_SITE.search(t) and not _R_CONN_FAULT.search(t)]
    if not hit:
        return None
    text, ev = hit[0]
    site = _R_COMM_SITE.search(text).group(0)
    lim = _R_HOST_LIMIT.search(text).group(0)
    fds = bool(re.search(r"open files|EMFILE|ENFILE", lim, re.IGNORECASE))
    ranks = sorted({e.rank for _, e in hit if e.rank is not None})
    eof = [u for u in c.unread if re.search(r"\bEOF\b|end of file|Connection closed", u.text) and u not in
           [e for _, e in hit]]
    lib = site.split("/", 1)[0] if "/" in site else "NCCL"
    return Verdict(
        "nccl_system",
        f"{lib}'s own system call was refused by the host: '{text.strip()[:200]}' ({ev.where}) -- '{lim}' at the "
        f"library's source location {site}, a per-process limit of the host, not an address or connection fault"
        + (f"; ranks {', '.join(map(str, ranks))} fail alike on it: a limit every process shares, no rank's fault"
           if len(ranks) > 1 else
           "; the process that hit it carries no rank tag, so which rank it was these lines do not say")
        + ("; the peers' EOF / closed connections after it only read the aborted process going away" if eof else ""),
        ("Raise the open-file limit (file descriptor limit) for the job: ulimit -n 65536 (or higher) in the launch "
         "script, nofile in /etc/security/limits.conf, systemd LimitNOFILE, docker --ulimit nofile=...; count the "
         "process's open fds (ls /proc/PID/fd | wc -l, lsof -p PID) while it runs; use fewer connections per "
         "process (fewer RPC workers per parameter server, fewer TensorPipe transports / channels: "
         "TensorPipeRpcBackendOptions _transports / _channels). " if fds else
         "Check the host's limits for the job's processes (ulimit -a: locked memory, processes, open files; the "
         "container's limits) and its free memory, and use fewer connections or buffers per process. ")
        + "Read the full log of the aborting process (which worker or server it is)"
        + (" with TP_VERBOSE_LOGGING=1" if lib.lower() == "tensorpipe" else " with NCCL_DEBUG=INFO") + ".",
        "low", [], [ev.brief()] + [u.brief() for u in eof[:2]], job_wide=len(ranks) > 1)
