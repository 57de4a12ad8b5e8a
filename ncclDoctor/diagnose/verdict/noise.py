"""Benign noise and 'nothing failed' (none): the harmless WARNs and warnings, set-up chatter that stopped (a
hang in set-up), what to collect if it hangs; ``settle`` gives the verdict its last word once every finding
is known."""

from __future__ import annotations

import ipaddress
import re

from ncclDoctor.diagnose import numerics
from ncclDoctor.diagnose.reason import Conclusion, _fmt_ranks
from ncclDoctor.diagnose.signatures import (
    FR_ON,
    R_EFA_HOST,
    R_FOREIGN_ACCEPT,
    R_NCCL_PREFIX,
    R_NCCL_WARN_AT,
    R_REM_ALLOC,
    R_WIN_CONNECT_WARN,
)
from ncclDoctor.diagnose.state import QUIET_KINDS, TESTS_WORLD, Collected
from ncclDoctor.diagnose.verdict.base import Verdict, _samples
from ncclDoctor.diagnose.warn_families import OFI_START_FAILED
from ncclDoctor.findings import Finding, Severity

# WARN texts NCCL prints at a normal teardown, as advice, or about its topology search in containers (init.cc/
# linux.cc "Could not find real path of <sysfs device>": a virtual NIC), never a failure by themselves; also
# what NCCL or a net plugin says about an optional library or plugin it did not find (it then uses its own
# sockets: libibverbs absent on a node without IB, no libnccl-net.so) and a plugin's CPU-affinity/retry chatter.
# aws-ofi-nccl failing to start (no EFA provider): harmless where the host has no EFA, not where it was meant (rule Z)
R_OFI_INIT = re.compile(rf"NET/OFI (?:{OFI_START_FAILED})")

# (pattern, what an expert says of it in a "none" verdict; "" when it needs no word)
_NOISE = (
    (r"driver shutting down|Accept failed Resource temporarily unavailable|NCCL_\w+ (?:is )?deprecated|"
     r"\bignor(?:ed|ing)\b|[Ww]arning:", ""),
    # ras/client_support.cc (NCCL 2.24+): the RAS monitoring thread's client listener (NCCL_RAS_ADDR, default
    # localhost:28028, for the ncclras tool) could not bind -- another process of the job on that host holds it. NCCL
    # logs "RAS failed to establish a client listening socket" and goes on; the job's own sockets are untouched
    # (round 73's vLLM TP start-up)
    (r"\bras/\w{1,40}\.cc:\d{1,6} NCCL WARN Call to bind failed", "NCCL's RAS 'Call to bind failed: Address "
     "already in use' WARN is harmless: NCCL's RAS monitoring listener (NCCL_RAS_ADDR, default localhost port 28028, "
     "queried by the ncclras tool) found its port held by another process of the job on the host, and NCCL went on "
     "without it; set NCCL_RAS_ENABLE=0 (or a free NCCL_RAS_ADDR per process) to silence it. If the job then hangs, "
     "NCCL_DEBUG=INFO and py-spy dump --pid show where"),
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
    (R_OFI_INIT.pattern, "the net plugin aws-ofi-nccl's 'initialization failed' (no EFA "
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
     "Success' / '[Service thread] Unknown command N from localRank -1' warnings are its listening socket refusing "
     "a connection that did not speak NCCL's handshake (localRank -1: the peer never said which rank it is) -- "
     "something outside the job (a port scanner or health check hitting NCCL's listening port) connected to it; the "
     "job's own connections are not affected. To stop them, keep NCCL on the cluster's internal network "
     "(NCCL_SOCKET_IFNAME) and firewall the NCCL port range (NCCL_PORT_RANGE) from outside hosts"),
    # lead rules K, AD (3): the bootstrap's remote-allocator thread failing a request that came from outside the job
    (R_REM_ALLOC.pattern, "NCCL's '[Rem Allocator] Allocation failed' (with its 'Cuda failure 'out of memory'' and "
     "'Connection closed by remote peer') is the bootstrap's remote-allocator service thread failing one request: "
     "something that is not a peer of this NCCL connected to its listening socket and sent a garbage size (most "
     "often another NCCL version on another node, or a port scanner); the thread goes on and the job's own "
     "communicators are not affected, benign while training proceeds. Run the same NCCL version on every node "
     "(upgrade NCCL: the remote allocator is gone from later releases), keep NCCL on the internal network "
     "(NCCL_SOCKET_IFNAME) and NCCL_DEBUG=WARN hides nothing that failed"),
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


# lead rule AH (2): a CollNet (SHARP) plugin that fails to start ("NET/IB : SHARP coll init error: Cannot create SHARP
# job(-11)") and NCCL's own "Cannot initialize CollNet, using point-to-point network instead" (transport.cc): NCCL
# drops the in-network reduction and carries the job on its own point-to-point network. Harmless where that fallback
# is in the lines and NCCL is not left on its sockets (rule Z: then the fabric meant to carry the job is not used)
R_COLLNET_FALLBACK = re.compile(r"Cannot initialize CollNet, using point-to-point network")
R_COLLNET_START = re.compile(r"\bSHARP\b.{0,40}\b(?:init|create|open)\w* (?:error|fail)|Cannot create SHARP job|"
                             r"\bCollNet\b.{0,40}\binit\w* (?:error|fail)|"
                             # the plugin's own set-up of its SHARP group (sharp_plugin.c's ncclSharpConnect): "SHARP
                             # group create: Streaming Tree lock failed (-18)", the error after the step's name
                             r"\bSHARP\b.{0,40}\b(?:init|create|open)\w*: .{0,80}\b(?:fail|error)")
# the SHARP library's own log lines (libsharp_coll: "[HOST:RANK:PID - comm.c:374] ERROR Failed to lock SAT tree"),
# which the plugin's WARN reports again in NCCL's words; its releases that stamp each line print the time in a second
# bracket before the level ("[HOST:0:174 - tree_ops.c:314][2024-05-31 02:30:21] ERROR ...", round 87's
# coreweave-nccl-tests-39)
R_SHARP_LIB_LINE = re.compile(r"^\s*\[[\w.-]{1,80}:\d{1,7}:\d{1,9} - \w{1,40}\.c:\d{1,6}\]"
                              r"(?:\[[\d :./-]{8,32}\])? ?(?:ERROR|WARN|INFO|DEBUG)\b")
_COLLNET_WORDS = (
    "the CollNet/SHARP WARNs ('SHARP coll init error', NCCL's 'Cannot initialize CollNet, using point-to-point "
    "network instead', and the set-up's '-> 2' lines of that try) are no failure here: the SHARP plugin could not "
    "start its in-network reduction, and NCCL went on over its own point-to-point network (IB), which carries the "
    "job. To stop asking for it set NCCL_COLLNET_ENABLE=0; to use SHARP, run its aggregation manager (sharp_am) on "
    "the subnet manager's node and check the plugin's SHARP_COLL_* settings (a streaming aggregation tree, SAT, that "
    "cannot be locked: SHARP_COLL_ENABLE_SAT=0 keeps SHARP's low-latency trees only) and the switches' SHARP "
    "support; NCCL_DEBUG=INFO shows which network NCCL went on with")


def collnet_fell_back(c: Collected) -> bool:
    """Rule AH (2): NCCL said it gave CollNet up for its point-to-point network, and no host is left on sockets. Its
    own "Cannot initialize CollNet" line may not be pasted: the SHARP plugin's failure to start (its job, its group)
    with nothing failing after it -- no NCCL error raised in a process, no other WARN that is not one of the
    plugin's -- is the same try given up, the collectives carried on NCCL's point-to-point network."""
    warns = c.samples.get("nccl_warn", [])
    if any(e.data.get("network") == "Socket" for e in c.samples.get("transport", [])):
        return False
    if any(R_COLLNET_FALLBACK.search(e.text) for e in warns):
        return True
    return (any(R_COLLNET_START.search(e.text) for e in warns) and not c.samples.get("nccl_error")
            and all(R_COLLNET_START.search(e.text) for e in warns))


def efa_meant(c: Collected) -> bool:
    """Lead rule Z: the lines show the EFA fabric was meant to carry the job: the plugin naming an EFA instance type
    as its platform or FI_PROVIDER=efa (parse: 'efa fabric meant'), a host name carrying an EFA instance type (p4d,
    p5, trn1), the plugin's own test failing ('OFI NCCL failure'), or several hosts left on NCCL's sockets. Not where
    the lines show the job on one host alone (one_host_alone): no traffic between nodes needs the fabric there."""
    warns = c.samples.get("nccl_warn", [])
    if any("OFI NCCL failure" in e.text for e in warns):
        return True
    if one_host_alone(c):
        return False
    if any(e.data.get("what") == "efa fabric meant" for e in c.samples.get("benign", [])):
        return True
    hosts = {m.group("host") for e in warns + c.samples.get("transport", []) if (m := R_NCCL_PREFIX.search(e.text))}
    if any(R_EFA_HOST.search(h) for h in hosts):
        return True
    socket_hosts = {m.group("host") for e in c.samples.get("transport", [])
                    if e.data.get("network") == "Socket" and (m := R_NCCL_PREFIX.search(e.text))}
    return len(socket_hosts) > 1


def one_host_alone(c: Collected) -> bool:
    """Lead rule Z's one-host clause: every NCCL line names one host, and the communicator's world (NCCL's nranks)
    is no larger than the processes shown on it -- the whole job on that host, NCCL's intra-node transports (P2P,
    shared memory) carrying it. A world larger than them, or none printed, may be one node's excerpt of more."""
    hosts = {m.group("host") for k in ("nccl_warn", "transport", "setup", "setup_done") for e in c.samples.get(k, [])
             if (m := R_NCCL_PREFIX.search(e.text)) and m.group("host")}
    hosts |= {h for h, _, _ in c.procs if h} | set(c.setup_hosts)
    worlds = [n for n, _ in c.world]
    if len(hosts) != 1 or not worlds:
        return False
    return max(worlds) <= len({(pid, dev) for h, pid, dev in c.procs if h in hosts})


_OFI_ONE_HOST = (
    "here the whole job runs on a single node (every NCCL line on one host, no more ranks than its processes): "
    "no traffic between nodes needs EFA, NCCL's own intra-node transports (NVLink/P2P, shared memory) carry it, "
    "so the plugin failing to start is benign and needs no action; to stop it loading on single-node runs set "
    "NCCL_NET_PLUGIN=none (or leave FI_PROVIDER=efa unset there); for a multi-node run the EFA devices must be "
    "visible to the processes first (fi_info -p efa, the EFA device plugin), checked with NCCL_DEBUG=INFO")


# Lead rules AD (3) and K: proxy.cc's service thread at a communicator's teardown. Its "[Proxy Service N] Failed to
# execute operation Close from rank R" is the Close request (sent only when a communicator is freed or aborted) failing
# because the peer's end already went away; its "[Service thread] Could not receive type from localRank N" / "Accept
# failed Resource temporarily unavailable" are the same thread's sockets closing under it. With a Close op failing or a
# communicator's "Abort COMPLETE" shown, and nothing failing otherwise, they are teardown chatter, no process lost
R_PROXY_SERVICE = re.compile(r"\[(?:Service thread|Proxy Service \d{1,6})\] ")
# The net plugin's side of the same teardown: aws-ofi-nccl's "NET/OFI Attempt to call recv_close (send_close) with
# outstanding requests!" is its close of a connection the proxy frees while receives posted on it were never completed
# -- the communicator being aborted at exit (ncclCommAbort does not drain them), then the proxy's "-> 3" unwinding it.
# Read as the proxy's chatter only beside a communicator's "Abort COMPLETE" with nothing failing (round 94's
# aws-k8s-tester-524); the plugin's completion errors (R_OFI) and the WARN alone are not read so
R_PLUGIN_CLOSE = re.compile(r"NET/OFI Attempt to call (?:recv|send)_close with outstanding requests")
R_PROXY_CLOSE = re.compile(r"\[Proxy Service \d{1,6}\] Failed to execute operation Close\b")
_PROXY_TEARDOWN_READ = (
    "NCCL's proxy service WARNs ('[Proxy Service N] Failed to execute operation Close', '[Service thread] Could not "
    "receive type from localRank N', 'Accept failed Resource temporarily unavailable') are benign teardown warnings: "
    "the proxy Close at communicator abort/destroy found the peer's socket already closed; nothing failed")
_PLUGIN_CLOSE_READ = (
    "the net plugin's 'NET/OFI Attempt to call recv_close with outstanding requests!' (with the proxy's 'proxy.cc:N "
    "-> 3' after it) is a harmless teardown warning: aws-ofi-nccl closing a connection whose posted receives were "
    "never completed because the communicator was aborted at exit ('Abort COMPLETE'), not drained; nothing failed "
    "(if the job did fail, its first error is earlier in the log)")
# the one remedy of both teardown chatters (the communicator aborted at exit rather than destroyed), said once when
# both are shown; {what}: the library whose later releases quiet them
_TEARDOWN_REMEDY = (
    "Call destroy_process_group before exit (ncclCommDestroy/Finalize instead of abort at exit) to tear down "
    "cleanly, update {what} (later releases quiet these), or run with NCCL_DEBUG=WARN and read past them")
_PROXY_TEARDOWN_WORDS = _PROXY_TEARDOWN_READ + ". " + _TEARDOWN_REMEDY.format(what="NCCL")
_PLUGIN_CLOSE_WORDS = _PLUGIN_CLOSE_READ + ". " + _TEARDOWN_REMEDY.format(what="aws-ofi-nccl")


def proxy_teardown(c: Collected) -> bool:
    """Every NCCL WARN of the lines is the proxy service thread's (or the noise table's), a Close op failing or a
    communicator's abort is shown, and nothing else failed (no error, exception, timeout or failure record)."""
    warns = c.samples.get("nccl_warn", [])
    if not warns or c.exceptions or len(warns) != c.kinds.get("nccl_warn", 0):
        return False
    aborted = any(e.data.get("aborted") for e in c.samples.get("transport", []))
    if not any(R_PROXY_CLOSE.search(e.text) for e in warns) and not aborted:
        return False
    if any(v and k not in QUIET_KINDS and k != "nccl_warn" for k, v in c.kinds.items()):
        return False

    def teardown(e) -> bool:  # the proxy's own WARN, or the plugin's close beside a shown abort
        return bool(R_PROXY_SERVICE.search(e.text) or (aborted and R_PLUGIN_CLOSE.search(e.text)))
    return all(teardown(e) or _WARN_NOISE.search(e.text) for e in warns) and any(
        teardown(e) and not _WARN_NOISE.search(e.text) for e in warns)


def _cut_copy(c: Collected, e) -> bool:
    """Lead rules K, BG (3): a WARN cut off mid-message (the paste ends inside it) whose location and text so far are
    those of a whole harmless WARN in the same lines (another GPU or process printing the same set-up message) is
    that message again, read by its source location; a cut WARN no whole one explains stays unread (a failure).
    Cut means the input's last line or a message ending inside a word of the whole one, and the text so far must
    say which message it is (a few words of it): an empty or one-word start is no one WARN's (review r3)."""
    m = R_NCCL_WARN_AT.search(e.text)  # its location and message so far ("graph/search.cc:890", "Could not find a pat")
    if not m:
        return False
    site, cut = m.group(1, 2), m.group(3).rstrip()
    if len(cut) < _CUT_MIN or " " not in cut:
        return _site_alike(c, e, site, cut)
    for o in c.samples.get("nccl_warn", []):
        if o is e or not (w := R_NCCL_WARN_AT.search(o.text)) or w.group(1, 2) != site:
            continue
        whole = w.group(3).rstrip()
        if len(whole) > len(cut) and whole.startswith(cut) and (
                e.data.get("at_end") or (cut[-1].isalnum() and whole[len(cut)].isalnum())) and _harmless_whole(c, o):
            return True
    return False


_CUT_MIN = 8  # the fewest characters of a cut WARN's message that can say which message it is


def _site_alike(c: Collected, e, site: tuple[str, str], cut: str) -> bool:
    """Lead rules BG (3), K: a WARN the paste ends inside (the input's last line) with too little text to say which
    message it is ('misc/ibvwrap.cu:63 NCCL WARN Fa'), at the source location where every other process shown printed
    one and the same harmless WARN whole (two processes or more, each with a pid of its own, no other text at that
    location), is read by that location: the same set-up step of one more process, cut. An empty cut, a location
    printing several texts or a single whole copy stays unread (review r3 #5; round 93's horovod-969)."""
    if not e.data.get("at_end") or not cut[:1].isalpha():
        return False
    wholes = [o for o in c.samples.get("nccl_warn", []) if o is not e and (w := R_NCCL_WARN_AT.search(o.text))
              and w.group(1, 2) == site]
    if len(wholes) < 2 or len(c.samples.get("nccl_warn", [])) < c.kinds.get("nccl_warn", 0):  # every WARN seen
        return False
    texts = {R_NCCL_WARN_AT.search(o.text).group(3).rstrip() for o in wholes}
    pids = {m.group("pid") for o in wholes + [e] if (m := R_NCCL_PREFIX.search(o.text))}
    whole = texts.pop() if len(texts) == 1 else ""
    return (len(pids) == len(wholes) + 1 and len(whole) > len(cut) and whole.startswith(cut)
            and _harmless_whole(c, wholes[0]))


def harmless_warn(c: Collected, e) -> bool:
    """An NCCL WARN that names no failure: the noise table, or an HCA skipped where NCCL went on without it, or the
    proxy service's chatter at a communicator's teardown, or such a WARN again with its message cut off."""
    return _harmless_whole(c, e) or _cut_copy(c, e)


def _harmless_whole(c: Collected, e) -> bool:
    if R_OFI_INIT.search(e.text) and efa_meant(c):
        return False
    if (R_COLLNET_FALLBACK.search(e.text) or R_COLLNET_START.search(e.text)) and collnet_fell_back(c):
        return True
    if (R_PROXY_SERVICE.search(e.text) or R_PLUGIN_CLOSE.search(e.text)) and proxy_teardown(c):
        return True
    return bool(_WARN_NOISE.search(e.text) or (R_SKIPPED_HCA.search(e.text) and _went_on(c)))


def _noise_words(c: Collected) -> list[str]:
    """What the harmless NCCL WARNs of the input are, for a "none" verdict."""
    texts = [e.text for e in c.samples.get("nccl_warn", [])]
    skipped = [_SKIPPED_HCA_WORDS] if _went_on(c) and any(R_SKIPPED_HCA.search(t) for t in texts) else []
    skipped += [_COLLNET_WORDS] if collnet_fell_back(c) else []
    if proxy_teardown(c):
        proxy = any(R_PROXY_SERVICE.search(t) for t in texts)
        plugin = any(R_PLUGIN_CLOSE.search(t) for t in texts)
        if proxy and plugin:  # the two readings, then their one remedy (not said twice)
            skipped.append(_PROXY_TEARDOWN_READ + "; " + _PLUGIN_CLOSE_READ + ". "
                           + _TEARDOWN_REMEDY.format(what="NCCL and aws-ofi-nccl"))
        else:
            skipped += [_PROXY_TEARDOWN_WORDS] if proxy else [_PLUGIN_CLOSE_WORDS] if plugin else []
    if any(R_OFI_INIT.search(t) for t in texts) and one_host_alone(c):  # lead rule Z's one-host clause
        skipped.append(_OFI_ONE_HOST)
    return [w for p, w in _NOISE if w and any(re.search(p, t) for t in texts)] + skipped


def finished(c: Collected) -> bool:
    """Positive evidence that the job ran to its end: an nccl-tests result row or closing average,
    torch's process-group destructor warning or CUDA's 'driver shutting down' at process exit."""
    exits = any("driver shutting down" in (e.data.get("what") or "") for e in c.samples.get("benign", []))
    return bool(c.kinds.get("run_done") or c.kinds.get("pg_not_destroyed") or exits)


_P2P_FIX = ("A hang in set-up or in the first collective on one node, with no error, is the GPUs' peer-to-peer "
            "path: rerun with NCCL_P2P_DISABLE=1 to test it (NCCL then copies through host memory); if that works, "
            "P2P DMA between the GPUs is broken on this machine: turn the IOMMU off (kernel parameter "
            "intel_iommu=off or amd_iommu=off, or iommu=pt) and PCIe ACS on the switches (setpci, the BIOS), check "
            "nvidia-smi topo -m, and update the GPU driver (consumer GPUs report P2P that some drivers do not "
            "support) -- check IOMMU/ACS first where P2P is suspected; run nccl-tests' all_reduce_perf with "
            "NCCL_DEBUG=INFO to see the last step.")
_SETUP_NET_FIX = ("Collect every rank's log with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET (the rank that did not "
                  "connect prints where it stopped) and py-spy dump --pid of a stuck process; check that NCCL uses an "
                  "interface the nodes reach each other on (NCCL_SOCKET_IFNAME), that no firewall blocks the ports "
                  "NCCL opens between the nodes, and that every node runs the same NCCL version; nccl-tests "
                  "(all_reduce_perf -b 8 -e 128M) across the same hosts, with NCCL_DEBUG=INFO, tells whether NCCL's "
                  "transport between them works without the framework.")


# lead rules K, Z: NCCL's INFO that an optional net plugin is not installed ("NET/Plugin : No plugin found
# (libnccl-net.so)", a CollNet plugin's symbol not found; the reader's "net plugin absent"): NCCL goes on with its own
# transports. Round 82's nccl-259 (beside libibverbs absent and NET/Socket chosen). Its WARN forms are in _NOISE; a
# plugin that loads and then fails (aws-ofi-nccl's initialization, rule Z) is read apart.
_NO_PLUGIN_WORDS = (
    "NCCL's INFO 'NET/Plugin : No plugin found (libnccl-net.so)' (or a CollNet plugin's symbol not found) is "
    "harmless: NCCL falls back to its internal network transports (IB verbs, or sockets where there is no IB); an "
    "external net plugin is only needed for a fabric that requires one (aws-ofi-nccl for EFA, HPC-X's SHARP plugin), "
    "so look past the plugin lines for the WARN that fails, if any")


def _no_plugin(c: Collected) -> bool:
    return any(e.data.get("what") == "net plugin absent" for e in c.samples.get("benign", []))


# lead rule K: NCCL's INFO that its optional tuner plugin is not installed ("TUNER/Plugin: Could not find:
# libnccl-tuner.so", "Failed to find ncclTunerPlugin_vN symbol"; the reader's "tuner plugin absent"): NCCL goes on
# with its internal tuner. Round 95's verl-3518 (beside 'Init COMPLETE' and the RDMA net plugin in use).
_NO_TUNER_WORDS = (
    "NCCL's INFO 'TUNER/Plugin: Could not find: libnccl-tuner.so' / 'Failed to find ncclTunerPlugin_vN symbol' -- the "
    "tuner plugin message is harmless: libnccl-tuner.so / NCCL_TUNER_PLUGIN is optional and NCCL then picks its "
    "algorithms and protocols with its internal tuner")


def _no_tuner(c: Collected) -> bool:
    return any(e.data.get("what") == "tuner plugin absent" for e in c.samples.get("benign", []))


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
        # a Python traceback among them, cut before its error text (parse.input_tail's tb_cut) or with no exception
        # line after its header (tb_open), is a process raising: something failed, not "nothing failing" -- read by
        # verdict.unread (lead rules BG (6), AB (2); round 88's deeplearningexamples-761, its frames interleaved with
        # the channel lines). A traceback whose exception is shown is read by its own family before this
        if c.samples.get("tb_cut") or c.samples.get("tb_open"):
            return None
        # the harmless WARNs among them (the noise table's) are said by name (round 73's RAS listener bind)
        said = [w for w in _noise_words(c) if w and w != _COLLNET_WORDS]
        plugin = _NO_PLUGIN_WORDS[0].upper() + _NO_PLUGIN_WORDS[1:] + ". " if _no_plugin(c) else ""
        plugin += _NO_TUNER_WORDS + ". " if _no_tuner(c) else ""
        return Verdict(
            "none",
            "nothing in these lines is a failure: they are NCCL's communicator set-up INFO lines (versions, rings, "
            "trees, channels) with no " + ("WARN naming a failure, no " if said else "WARN, ")
            + "error, timeout or exit among them, and they cannot tell an excerpt from a log that stopped there",
            "Nothing to fix in these lines. " + (_COLLNET_WORDS[0].upper() + _COLLNET_WORDS[1:] + ". "
                                                 if collnet_fell_back(c) else "")
            + "".join(w[0].upper() + w[1:] + ". " for w in said[:2]) + plugin + _if_it_hangs(c)
            + (_NVLS_HANG if c.nvls_info else "")
            + (_MULTI_NODE_SETUP if len(c.setup_hosts) > 1 or c.comm_nodes > 1 else "") + _env_before_mpirun(c),
            "low", [], proof)
    if one_node:
        return Verdict("network_setup", f"the log stops {where} on one node ({next(iter(c.setup_hosts))}) with no "
                       "error: a hang while the GPUs connect to each other, the peer-to-peer (P2P) path between "
                       "them, not a rank", _P2P_FIX, "medium", [], proof)
    return Verdict("unknown", f"the log stops {where} with no error: the job hung while the ranks connected "
                   + ("over the network (" + ", ".join(sorted(c.setup_hosts)[:4]) + ")" if c.setup_hosts else "")
                   + "; these lines do not say which rank or connection is stuck", _SETUP_NET_FIX, "low", [], proof)


# lead rules K, T: NCCL's set-up INFO lines of several nodes with nothing failing -- the reporter's failure lies past
# them; what to check across the nodes (round 100's nccl-tests-133: two nodes, RoCE, different OOB interfaces)
_MULTI_NODE_SETUP = (" Across several nodes: run the test on each node alone first, then across them (run "
                     "nccl-tests on each node alone, then pairs of nodes, to find a bad host or link); pass NCCL "
                     "variables to every node with mpirun -x (NCCL_DEBUG, NCCL_SOCKET_IFNAME, NCCL_IB_*), else the "
                     "remote ranks run without them; set NCCL_SOCKET_IFNAME to an interface both nodes share (the "
                     "'Bootstrap : Using' and OOB lines name the interface each node chose); on RoCE check the RoCE "
                     "GID index (NCCL_IB_GID_INDEX) and NCCL_IB_HCA on both nodes (show_gids); and test the fabric "
                     "without NCCL with ib_write_bw between the nodes.")


# a launch line that sets NCCL variables in front of mpirun for several hosts ("NCCL_DEBUG=INFO NCCL_SHM_DISABLE=1
# mpirun -H ddp-0,ddp-1 ..."): the shell sets them for the local mpirun only; Open MPI forwards a variable to the
# remote nodes' ranks only when -x names it (round 104's nccl-tests-125: INFO lines from one node only)
_R_ENV_MPIRUN = re.compile(r"(?:^|[\s$#>])((?:NCCL_[A-Z0-9_]{1,40}=\S{1,80}\s+){1,12})(?:\S{0,200}/)?mpirun\b"
                           r"[^\n]*?(?:\s(?:-H|--host)\s+\S+,\S|\s-{1,2}(?:hostfile|machinefile)\b)")


def _env_before_mpirun(c: Collected) -> str:
    """The words for NCCL variables set in front of a several-host mpirun, or ''."""
    m = next((m for e in c.samples.get("setting", []) if (m := _R_ENV_MPIRUN.search(e.text))), None)
    if m is None:
        return ""
    names = m.group(1).split()
    return (f" The launch line sets {' '.join(names)} in front of mpirun: Open MPI's mpirun gives them to the "
            "local node's ranks only (MPICH's forwards them), the remote nodes run without them; pass NCCL "
            f"environment variables to every node with mpirun -x ({' '.join('-x ' + n for n in names)}).")


def unread_before_done(c: Collected) -> list:
    """Lead rules K and N: the lines announcing an error that no family reads ("The last reading": its words, or a
    line whose first word announces one) that an nccl-tests run's own completion follows in the same file (its
    closing 'Avg bus bandwidth' line: every size ran, and its check prints the wrong values after it): whatever they
    report did not stop the run -- a launcher's or a library's chatter at start-up. [] unless every such line is
    followed so (one after the last completion, or in a file with none, is still a failure shown), and none where a
    traceback's own exception is shown (a process that raised)."""
    said = list(c.unread) + [e for e in c.exceptions if e.data.get("line")]
    if not said or not c.last_done or c.last_raised:
        return []
    if any(line >= c.last_done.get(path, 0) for path, line in c.last_unread.items()):
        return []
    return said


_PMIX_DS12 = re.compile(r"PMIX ERROR: \w+ in file gds_ds\d+_lock\w*\.c")


def _before_done_words(c: Collected) -> str:
    """What a "none" verdict says of the error-looking lines an nccl-tests run completed after (unread_before_done)."""
    lines = unread_before_done(c)
    if not lines:
        return ""
    said = (f"'{lines[0].text[:160]}'" + (f" (and {len(lines) - 1} more such lines)" if len(lines) > 1 else "")
            + " came before the run's own completion (nccl-tests' closing 'Avg bus bandwidth'): whatever it reports "
            "did not stop the run, so it is benign chatter here and needs no action")
    if any(_PMIX_DS12.search(u.text) for u in lines):
        said += ("; Slurm's PMIx 'PMIX ERROR: ... gds_ds12_lock_pthread.c' is a known harmless message of its "
                 "shared-memory datastore's lock (PMIx v3/v4 under srun --mpi=pmix), silenced with PMIX_MCA_gds=hash")
    return said


def _nccl_chatter(c: Collected) -> bool:
    """NCCL's own set-up INFO lines are in the input (bootstrap and socket interfaces, versions, rings, trees,
    channels, 'Init COMPLETE')."""
    return bool(c.kinds.get("setup") or c.kinds.get("transport") or c.kinds.get("setup_done"))


def _nccl_info_words(c: Collected) -> str:
    """Lead rules K, T: where the lines are NCCL's own INFO output (set-up chatter, or only its topology detection --
    'KV Convert to int', 'Attribute coll of node net not found', the '=== System' tree -- which no family reads), the
    fix says it is informational and how to quiet it. Round 90's mlflow-8238 / mlflow-8510 pasted such lines into a
    tracker's report: the tracker's own trouble is not in them."""
    if not (_nccl_chatter(c) or c.nccl_info):
        return ""
    return (" NCCL's INFO lines are informational (its set-up and topology detection as NCCL_DEBUG=INFO prints them): "
            "nothing failing in these lines -- NCCL_DEBUG=WARN to quiet the chatter, or NCCL_TOPO_DUMP_FILE=<file> to "
            "keep the topology NCCL detected.")


def _coll_trace_words(c: Collected) -> str:
    """Lead rules K, T: NCCL's COLL trace (NCCL_DEBUG_SUBSYS=COLL, readers.nccl._coll_traced: "NCCL INFO Send:
    opCount 12 sendbuff ... comm 0x.. [nranks=2] stream 0x..") with nothing failing is a log of the calls issued; the
    fix says so, and how the trace shows a hang (each communicator's opCounts matched across its ranks). Where one
    process traces point-to-point calls on two communicators, the usual hang of that shape is named too (round 107's
    nccl-584)."""
    procs = [p for e in c.samples.get("coll_trace", []) for p in e.data.get("procs", {}).values()]
    if not procs:
        return ""
    words = (" The 'NCCL INFO <op>: opCount N ... comm 0x..' lines are NCCL's COLL trace (NCCL_DEBUG_SUBSYS=COLL, a "
             "line per call issued): NCCL_DEBUG=INFO trace lines are not errors. If it hangs: collect every rank's "
             "trace and match send/recv opCounts per comm (the rank whose last opCount on a communicator is behind "
             "the others' stopped issuing there). For normal runs, unset NCCL_DEBUG_SUBSYS=COLL (or NCCL_DEBUG=WARN) "
             "to stop the per-collective INFO lines; to keep a trace, set NCCL_DEBUG_FILE per process (e.g. "
             "nccl_log.%p) to separate the ranks' traces, and count a step's collectives with torch's CommDebugMode "
             "rather than from these lines.")
    if any(sum(1 for comm in comms.values() if any(op in ("Send", "Recv") for op, _ in comm["ops"].values())) >= 2
           for comms in procs):
        words += (" One process issues Send/Recv on two communicators here: do not issue NCCL operations on two "
                  "communicators concurrently from different threads/streams (each may wait on the other's peer), and "
                  "group each exchange's send and recv (ncclGroupStart/ncclGroupEnd or batch_isend_irecv).")
    return words


# lead rules K, T: NCCL's INFO lines of its NVLS set-up (NVLink SHARP: multicast buffers bound through the NVSwitches)
# with nothing failing: what an expert tries if the job hung or died there (nccl-tests-216, round 98: a 4-GPU H100 run
# stuck after 'NVLS Bind mem' ran with NVLS disabled). Not said where no NVLS line is in the input.
_NVLS_HANG = (" These lines include NCCL's NVLS set-up (NVLink SHARP: multicast memory bound through the NVSwitches): "
              "if the job hangs or dies there, rerun with NCCL_NVLS_ENABLE=0 to rule out NVLS (disable NVLS), and "
              "check the fabric manager / NVSwitch state on that node (systemctl status nvidia-fabricmanager, "
              "nvidia-smi -q | grep -i -A2 fabric: the fabric state must be Completed, Success) and that its version "
              "matches the driver's.")


def _if_it_hangs(c: Collected) -> str:
    """Lead rule K's fix for set-up chatter: what to collect if the job hangs after these lines. On one node (every
    NCCL process on one host, no network transport) the usual suspect is the GPUs' peer-to-peer path."""
    named = set(c.setup_hosts) | {h for h, _, _ in c.procs if h}
    # with no host named, channels over NCCL's P2P transport (P2P/IPC, P2P/direct pointer: GPUs of one host only)
    # and none over a network are one node's ranks too (nccl-417, round 91: "[1] ... 1[21000] -> 0[1000] via P2P/IPC")
    one_node = ((len(named) == 1 or not named and c.kinds.get("setup_p2p")) and not c.kinds.get("setup_net")
                and c.comm_nodes <= 1)  # one host's lines of a communicator of 'nNodes 3' (round 109's nccl-1453)
    # channels "via SHM" / "via direct shared memory" between GPUs of one host are NCCL's fallback where P2P could not
    # be enabled: the reader may take them (and the "Could not enable P2P" INFO beside them) for the failure
    # (with P2P turned off by the settings shown the SHM channels are that setting's, not a fallback: ruling 7 of
    # review 109 b)
    shm = ("" if not (one_node and c.kinds.get("setup_shm")) else
           "The channels through shared memory (SHM) are not an error: with P2P disabled by the settings shown NCCL "
           "copies between the GPUs through shared memory (slower, it works). " if _p2p_off(c) else
           "The channels through shared memory (SHM) are not an error: the shared memory transport is a normal "
           "fallback where NCCL could not enable P2P between two GPUs (slower, it works). ")
    return (shm + "If the job does hang right after them, collect what shows where: every rank's log with "
            "NCCL_DEBUG=INFO (an 'Init COMPLETE' line per rank, or the rank that never printed one), py-spy dump "
            "--pid of a stuck process (a py-spy dump if it hangs, of every rank), a Flight Recorder dump and "
            "TORCH_DISTRIBUTED_DEBUG=DETAIL (torch checks that every rank calls the same collective). "
            + ((_P2P_OFF_FIX if _p2p_off(c) else _P2P_FIX) if one_node
               else _SETUP_NET_FIX + (_IB_LINK_WORDS if c.kinds.get("setup_net_ib") else ""))
            + _roce_words(c) + _ofi_words(c) + _shown_settings(c))


def _ofi_words(c: Collected) -> str:
    """Lead rules K, Z: set-up chatter with the aws-ofi-nccl net plugin's INFO notes (its 'NET/OFI' lines) and
    nothing failing: the plugin's notes are no failure; what to check of the plugin and the fabric if the run hangs or
    is slow past them (round 109's nccl-tests-245: two A10G nodes, GDR turned off by the plugin, DMA-BUF probed)."""
    out = ""
    # the plugin's own WARN ("NET/OFI aws-ofi-nccl initialization failed", "OFI fi_getinfo() call failed") says it
    # failed: its lines are not called notes; its EFA / provider advice only where the plugin is the transport in use:
    # NCCL's own line shows it carrying the traffic ("Using network AWS Libfabric"), or its notes stand with no other
    # transport shown (its own set-up going on: round 109's nccl-tests-245) -- lead ruling 4 of review 109 b
    warned = any("NET/OFI" in e.text for e in c.samples.get("nccl_warn", []))
    in_use = any(k.startswith("AWS") or "Libfabric" in k or "OFI" in k for k in c.networks) or not any(
        k in c.networks for k in ("Socket", "IB"))
    if "ofi" in c.info_notes and not warned:
        out += (" The 'NET/OFI' lines are the aws-ofi-nccl net plugin's notes (libfabric), not failures"
                + (": its 'Could not disable CUDA API usage for HMEM, disabling GDR' means it sends through host "
                   "memory (GPUDirect RDMA off, expected where the provider or instance has none; a newer libfabric / "
                   "aws-ofi-nccl may enable it)" if "ofi_gdr_off" in c.info_notes else "")
                + ("; if it hangs or is slow between the nodes, check the aws-ofi-nccl / libfabric provider "
                   "(FI_PROVIDER=efa, FI_EFA_USE_DEVICE_RDMA) and plugin version, and check security groups allow "
                   "all traffic between the nodes (EFA needs it)." if in_use else "."))
    if "dmabuf_probe" in c.info_notes:
        out += (" NCCL's 'DMA-BUF is available on GPU device N' is a generic init probe, not a transport choice: "
                "whether a channel uses GPUDirect RDMA shows in its 'via NET/.../GDRDMA' line (NCCL_DEBUG_SUBSYS="
                "INIT,NET).")
    return out


def _p2p_off(c: Collected) -> bool:
    """The lines show NCCL's P2P transport turned off (NCCL_P2P_DISABLE=1, or the NCCL_P2P_LEVEL=LOC it implies)."""
    return "1" in (c.settings.get("NCCL_P2P_DISABLE") or {}) or "LOC" in (c.settings.get("NCCL_P2P_LEVEL") or {})


# lead rules K, T: set-up chatter on one node with P2P already off (NCCL_P2P_DISABLE=1; NCCL 2.11 echoes it as
# 'NCCL_P2P_LEVEL set by environment to LOC'): NCCL copies through shared memory, so a hang or failure past these lines
# points at the SHM transport (/dev/shm too small in a container), not at P2P (round 109's nccl-606)
_P2P_OFF_FIX = ("P2P is already off in these lines (NCCL_P2P_DISABLE=1 / NCCL_P2P_LEVEL=LOC): NCCL copies between "
                "the GPUs through shared memory (/dev/shm), so if it stops or fails past here look at the SHM "
                "transport: with P2P disabled NCCL uses shared memory -- enlarge /dev/shm in a container (docker "
                "--shm-size=1g or --ipc=host; a 64 MB /dev/shm fails with 'posix_fallocate failed : No space left on "
                "device'), or try NCCL_SHM_DISABLE=1 to isolate the SHM transport; rerun with NCCL_DEBUG=INFO "
                "NCCL_DEBUG_SUBSYS=INIT,P2P,SHM and take a stack of the stuck process (gdb/py-spy). For the P2P "
                "path itself, check IOMMU / ACS settings on the host and nvidia-smi topo -p2p r (read capability).")


# the IB/RoCE device and the interface NCCL's NET/IB line names ("NET/IB : Using [0]mlx5_4:1/RoCE [RO]; OOB
# net1:172.20.1.1<0>"): read from the set-up samples
_R_IB_USING = re.compile(r"NET/IB : Using \[\d+\](?P<hca>[\w.-]{1,32}):\d+/(?P<link>RoCE|IB)\b[^;\n]{0,40}; OOB "
                         r"(?P<oob>[\w.-]{1,15}):")


def _roce_words(c: Collected) -> str:
    """Lead rules K, T: set-up chatter where NCCL's IB transport runs over RoCE ('NET/IB : Using [0]mlx5_4:1/RoCE'),
    nothing failing: what an expert pins and checks if the job then fails or hangs -- the HCA and OOB interface, and the
    RoCE GID index (round 109's multus-cni-1100: pods on a secondary macvlan RoCE network)."""
    m = next((m for k in ("transport", "setup") for e in c.samples.get(k, [])
              if "NET/IB : Using" in e.text and (m := _R_IB_USING.search(e.text))), None)
    if m is None or m.group("link") != "RoCE":
        return ""
    return (f" NCCL's IB transport runs over RoCE here ({m.group('hca')}, OOB {m.group('oob')}): if it fails or "
            f"hangs past these lines, set NCCL_SOCKET_IFNAME / NCCL_IB_HCA explicitly to {m.group('oob')} / "
            f"{m.group('hca')} on every node or pod, check the RoCE GID index (NCCL_IB_GID_INDEX: the RoCE v2 GID of "
            "the interface's address in show_gids, the same kind on both ends, or unset so NCCL picks it).")


# lead rules K, T: set-up chatter whose channels between nodes run over NCCL's IB/RoCE transport ("Channel 00/0 :
# 1[0] -> 0[0] [send] via NET/IB/0", a plugin's NET/IBext_v10) with nothing failing: what an expert checks of that
# link when the job is slow or hangs there (the complaint is the reporter's words, not the lines'); round 82's
# vllm-dgx-spark-1. Channels over NET/Socket are said by _socket_words, P2P/SHM ones on one node by _P2P_FIX.
_IB_LINK_WORDS = (" The channels between the nodes run over NCCL's InfiniBand/RoCE transport (via NET/IB), and "
                  "nothing failed in these lines: if the job is slow or hangs there, measure that link with nccl-tests "
                  "(all_reduce_perf / all_gather_perf between the nodes, NCCL_DEBUG=INFO) against its line rate; "
                  "check that NCCL_IB_HCA names every HCA port meant to carry it, the RoCE link's MTU (9000 on both "
                  "ends) and GID index (NCCL_IB_GID_INDEX), and that GPU Direct RDMA / DMABUF is enabled for each HCA "
                  "(NCCL's 'GPU Direct RDMA ... enabled for HCA' INFO line; nvidia-peermem or DMA-BUF) -- without it "
                  "NCCL stages its traffic through host memory.")


_OWN_NETS = ("IB", "Socket", "no_ib", "gdr_off")
# the tuner's numbers (nccl.h's NCCL_ALGO_* and NCCL_PROTO_* since NCCL 2.19)
_ALGO_PROTO_WORDS = ("Algo 0 Tree, 1 Ring, 2 CollNetDirect, 3 CollNetChain, 4 NVLS, 5 NVLSTree, 6 PAT; proto 0 LL, "
                     "1 LL128, 2 Simple")


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
    other = [f"{n}={next(iter(v))}" for n, v in sorted(c.settings.items())
             if n.startswith(("NCCL_", "TORCH_NCCL_", "GLOO_")) and n not in ("NCCL_SOCKET_IFNAME", "NCCL_DEBUG")]
    if other and not _nccl_chatter(c):  # NCCL's own set-up lines say it in _shown_settings
        out += (f" The settings these lines show ({', '.join(other[:4])}) are NCCL/torch settings that change how "
                "it runs, not failures: a warning that names one (a framework saying the variable is already set and "
                "it skips its own override, that the value may cost memory or speed) is informational; leave "
                f"{other[0].partition('=')[0]} as set if it was set on purpose (unset it to get the framework's "
                "default) and ignore the warning.")
    return out


def _shown_settings(c: Collected) -> str:
    """What the set-up lines show of NCCL's own choices: the NCCL_* settings it echoes ("X set by environment to
    Y"), and an external net plugin it runs over ("Using network IBext_v8"), which NCCL_IB_DISABLE does not turn off."""
    out = ""
    shown = [f"{n}={v}" for n, vals in sorted(c.settings.items()) if n.startswith("NCCL_") for v in list(vals)[:1]]
    if shown:
        out += (f" The NCCL settings these lines show ({', '.join(shown[:6])}) only change which transport or path "
                "NCCL picks; they do not fail by themselves.")
        # P2P turned off stays off as the test the P2P advice asks for (a hang with P2P on is what it works around:
        # IOMMU / ACS-broken P2P), so it is not among the settings to try without (ruling 7 of review 109 b)
        p2p = ("NCCL_P2P_DISABLE", "NCCL_P2P_LEVEL") if _p2p_off(c) else ()
        tuned = [x for x in shown if not x.startswith(("NCCL_DEBUG", "NCCL_SOCKET_IFNAME", "NCCL_IB_HCA") + p2p)]
        level = next((x for x in shown if x.startswith("NCCL_P2P_LEVEL=")), None)
        if p2p and level and "1" in (c.settings.get("NCCL_P2P_DISABLE") or {}):
            out += f" {level} is redundant beside NCCL_P2P_DISABLE=1 (drop it)."
        if tuned:  # forced settings are the first thing an expert takes out when a run is slow or hangs
            out += (f" If the run is slow or hangs, try without {tuned[0]} (unset it"
                    + (" and the other forced NCCL_* variables" if len(tuned) > 1 else "")
                    + ") to let NCCL choose by itself.")
    if c.settings.get("NCCL_HOSTID"):  # lead rules K, T: round 109's nccl-1781 (two pods, one host id forced)
        out += (" NCCL_HOSTID forces the host hash that makes ranks count as one node: NCCL_HOSTID only makes the "
                "host hashes match; /dev/shm and the IPC namespace must also be shared between the pods or containers "
                "(hostIPC, --ipc=host) for NCCL's P2P and SHM transports, and all the GPUs visible to each -- set it "
                "alike only where the processes really share one physical host.")
    out += _socket_words(c) + _alias_words(c)
    plugins = sorted(n for n in c.networks if n not in _OWN_NETS and not n.endswith("_using"))
    if plugins:
        out += (f" NCCL runs over the external net plugin '{plugins[0]}' (a libnccl-net.so such as HPC-X's SHARP "
                "plugin), not its internal IB/Socket transports: NCCL_IB_DISABLE does not turn a plugin off; "
                "NCCL_NET=Socket (or NCCL_NET_PLUGIN=none) selects the internal transport.")
    return out


# an interface NCCL lists as "eno1:avahi:10.1.2.3<0>" is an IPv4 address label (ip addr's "eno1:avahi", ifconfig's
# alias): R_IFACE reads the name before the first colon, so the label stays in front of the address
_ALIAS_ADDR = re.compile(r"^([\w-]{1,15}):(?:\d{1,3}|x{1,3})(?:\.(?:\d{1,3}|x{1,3})){3}$")


def _alias_words(c: Collected) -> str:
    """Lead rules K, T (round 87's nccl-tests-162): NCCL's bootstrap / sockets chose an alias interface (a second
    address label of one NIC: avahi-autoipd's link-local "eno1:avahi", an "eth0:1") and nothing fails in the lines:
    no failure, but the first thing an expert pins if the ranks' connections fail or hang -- the alias often carries
    a link-local or stale address the other ranks cannot reach. Rule AU (3)'s multi-node reading of a link-local
    address in use is network.py's, not this."""
    alias = [(n, m.group(1)) for n, a in c.interfaces.items() if (m := _ALIAS_ADDR.match(a))]
    if not alias:
        return ""
    name, label = alias[0]
    return (f" NCCL's sockets use {name}:{label}, an alias interface (a second address label on {name}, as "
            "avahi-autoipd's link-local alias is): harmless where every rank runs on this host, but where the ranks' "
            "connections fail or hang (socketStartConnect, a connection abort) it is the first suspect -- pin the "
            f"interface the ranks reach each other on, NCCL_SOCKET_IFNAME={name} (ip addr lists each interface's "
            "addresses and labels; remove the avahi / link-local alias interface if it is not needed).")


# getaddrinfo's EAI_NONAME in c10d's IPv6 lookup warning ("cannot be retrieved (gai error: -2 - Name or service not
# known)"): the host has no IPv6 address, or its name does not resolve yet (round 110's jobset-93)
_R_GAI_NONAME = re.compile(r"\(gai error: -2 - Name or service not known\)")
_R_EC2_HOST = re.compile(r"ip-\d{1,3}-\d{1,3}-\d{1,3}-\d{1,3}(?:\.|$)")  # an EC2 instance's default hostname


def _socket_words(c: Collected) -> str:
    """NCCL's set-up chatter showing it loaded its internal socket transport (NET/Socket, 'Using internal Network
    Socket'): no failure, but what an expert checks first if the job hangs or is slow between nodes -- whether the
    nodes have InfiniBand/RoCE NCCL did not load (libibverbs absent, NCCL_IB_DISABLE), and which interfaces the
    sockets use (a docker/veth or link-local one beside the routable one is a doubtful choice to exclude)."""
    from ncclDoctor.diagnose.verdict.network import doubtful_used

    if "Socket" not in c.networks:
        return ""
    noverbs = any("libibverbs" in e.text for e in c.samples.get("nccl_warn", []))
    out = (" NCCL carries its traffic between nodes over its socket transport (NET/Socket), not InfiniBand/RoCE"
           + (": its WARN 'Failed to open libibverbs.so' is harmless on a host without IB (the libibverbs warning "
              "only says NCCL fell back to sockets)" if noverbs else "")
           + "; if the nodes do have IB, install libibverbs (rdma-core; ibv_devinfo lists the devices) and leave "
           "NCCL_IB_DISABLE unset.")
    hosts = set(c.setup_hosts) | {h for h, _, _ in c.procs if h}
    ifaces = sorted(i for i in c.used_ifaces if i != "lo")
    # lead rules K, T: one interface across the nodes (round 109's horovod-3658)
    if len(hosts) > 1 and len(ifaces) == 1:
        out += (f" If it hangs between the nodes, rerun with NCCL_DEBUG=INFO with NCCL_SOCKET_IFNAME={ifaces[0]} on "
                + ("both nodes" if len(hosts) == 2 else "every node")
                + " and check that no firewall (a cloud security group) blocks the TCP ports between them.")
    if "1" in (c.settings.get("NCCL_IB_DISABLE") or {}) and hosts and all(_R_EC2_HOST.match(h) for h in hosts):
        out += (" On AWS, use EFA (aws-ofi-nccl) instead of NCCL_IB_DISABLE=1 sockets on AWS for speed where the "
                "instances have EFA.")
    odd = doubtful_used(c)
    if odd:
        out += (f" Its sockets also use {', '.join(odd)} (a docker/veth, virtual or link-local interface other nodes "
                "cannot reach): set NCCL_SOCKET_IFNAME to the interface the nodes reach each other on, or exclude "
                "docker/veth interfaces (NCCL_SOCKET_IFNAME=^docker,veth,lo).")
    return out


def _gdr_off_words(c: Collected) -> str:
    """NCCL's INFO 'NET/IB : GPU Direct RDMA Disabled for HCA N': a performance matter with nothing failing."""
    level = next(iter(c.settings.get("NCCL_NET_GDR_LEVEL") or ()), None)
    return ("NCCL's INFO 'NET/IB : GPU Direct RDMA Disabled for HCA' is no failure: the IB/RoCE transport cannot "
            "read or write GPU memory through that HCA, so NCCL stages its network traffic through host memory "
            "(slower, correct). GPU Direct RDMA needs the GPU driver's peer-memory module loaded on every node "
            "(nvidia-peermem: modprobe nvidia_peermem; lsmod | grep peermem) or DMA-BUF (NCCL_DMABUF_ENABLE=1, a "
            "kernel >= 5.12 and the open GPU kernel modules); then NCCL prints 'GPU Direct RDMA Enabled for HCA'. "
            + (f"NCCL_NET_GDR_LEVEL={level} cannot enable it: it only says up to which PCIe distance GPU Direct RDMA "
               "is used once the HCA supports it" if level else
               "NCCL_NET_GDR_LEVEL only says up to which PCIe distance it is used once the HCA supports it"))


# An MPI launch of an nccl-tests binary over several processes ("mpirun -np 2 ... ./build/all_reduce_perf -b 8 ...")
# pasted beside nccl-tests tables of fewer ranks (a one-process run that works): the several-process run printed
# nothing of its own -- no header, no "Rank N" device line -- so it stopped before nccl-tests or NCCL printed
# anything (round 102's nccl-tests-26: lead rules K, T, nothing failing in the lines)
_R_MPI_TESTS_LAUNCH = re.compile(r"\b(?:mpirun|mpiexec|orterun)\b[^\n]{0,400}?\s-(?:np|n|c)\s+(\d{1,5})\b[^\n]{0,400}?"
                                 r"\b\w{1,40}_perf(?:_mpi)?\b")


def _silent_mpi_tests(c: Collected) -> str:
    """The fix's words where an MPI launch of nccl-tests over N > 1 processes is shown and the highest 'Rank N' device
    line of the lines (nccl-tests' world, state._tests_world: every device line, not the capped samples) is below
    N - 1: that launch printed nothing. '' otherwise (no device line shown, or one up to rank N - 1)."""
    n = max((int(m.group(1)) for es in c.samples.values() for e in es
             if "_perf" in e.text and (m := _R_MPI_TESTS_LAUNCH.search(e.text))), default=0)
    # review 102 (1) finding 1: the run_start samples keep 5 events, so an -np 16 run's ranks 5..15 are not there
    shown = max((k for k, w in c.world if w.startswith(TESTS_WORLD)), default=0)
    if n < 2 or not shown or shown >= n:
        return ""
    return (f"The {n}-process mpirun of nccl-tests printed nothing of its own (no header, no 'Rank' device lines, "
            "no NCCL INFO line), while the run of fewer processes shown works: it stopped before NCCL started, in "
            f"the MPI start-up. Check MPI itself works with -np {n} (mpirun -np {n} hostname / an MPI hello world), "
            "that the binary is nccl-tests built with MPI=1 against the same MPI as this mpirun (make MPI=1 "
            "MPI_HOME=<that mpirun's prefix>), and Open MPI's interfaces (--mca btl_tcp_if_include IFACE --mca "
            "oob_tcp_if_include IFACE, or --mca btl tcp,self); take a gdb -p / py-spy dump stack of the spinning "
            "processes to see whether they wait in MPI_Init or in NCCL, and keep the NCCL_DEBUG=INFO output of that "
            "run. ")


def _none(c: Collected, ks: list[Conclusion]) -> Verdict:
    benign = [w for w in [_before_done_words(c)] if w]
    if c.kinds.get("pg_not_destroyed"):
        benign.append(
            "the process-group destructor warning at exit is harmless: call dist.destroy_process_group() at the "
            "end of main to silence it (call dist.destroy_process_group() before the program exits)"
        )
    whats = {e.data.get("what") for e in c.samples.get("benign", [])}
    if "barrier device warning" in whats:
        benign.append("the barrier's device warning ('using GPU N to perform barrier as devices used by this process "
                      "are currently unknown', 'using GPU N as device used by this process is currently unknown', 'No "
                      "device id is provided', 'barrier(): using the device under current context') is a harmless "
                      "warning while every process uses its own GPU: call torch.cuda.set_device(local_rank) first "
                      "and pass device_id=torch.device('cuda', local_rank) to init_process_group (or "
                      "device_ids=[local_rank] to barrier: dist.barrier(device_ids=[local_rank])) to silence it; only "
                      "a "
                      "wrong guess (two ranks on one GPU) "
                      "would hang")
    if _no_plugin(c):
        benign.append(_NO_PLUGIN_WORDS)
    if _no_tuner(c):
        benign.append(_NO_TUNER_WORDS)
    if "torchrun master_addr default warning" in whats:  # lead rule BR (3): printed for torchrun's own default
        benign.append("torchrun's 'master_addr is only used for static rdzv_backend and when rdzv_endpoint is not "
                      "specified' is printed for torchrun's default --master_addr when --rdzv_backend c10d and "
                      "--rdzv_endpoint are used, and the command shown gives none: ignore it -- do not pass "
                      "--master_addr/MASTER_ADDR with the c10d rendezvous (only static rdzv_backend uses it)")
    if "torchrun OMP_NUM_THREADS banner" in whats:  # lead rules K, L: the launcher's notice of its own default
        benign.append("torchrun's banner ('Setting OMP_NUM_THREADS environment variable for each process to be 1 in "
                      "default') only says it gave each worker one OpenMP thread: nothing to fix -- set "
                      "OMP_NUM_THREADS explicitly to silence torchrun's banner (or tune it to the cores per process)")
    if "IPv6 lookup warning" in whats:
        benign.append("the IPv6 lookup warning of the store is harmless (it falls back to IPv4)")
        if any(e.data.get("what") == "IPv6 lookup warning" and _R_GAI_NONAME.search(e.text)
               for e in c.samples.get("benign", [])):
            # lead rules L, N, BM (2): getaddrinfo's EAI_NONAME for the store's host, retried, nothing failing after
            # it: the name has no IPv6 address, or does not resolve yet (a pod's DNS record before the pod runs);
            # round 110's jobset-93
            benign.append("its gai error -2 ('Name or service not known') says the store's host name has no IPv6 "
                          "address, or does not resolve yet at all (on Kubernetes a headless service's DNS record "
                          "of a pod appears only once that pod runs): the c10d client retries until it resolves -- "
                          "nothing failed: a retried c10d warning. Only if a store / rendezvous timeout follows: make "
                          "MASTER_ADDR resolvable from every node (getent hosts NAME there; on Kubernetes wait for "
                          "the master pod's DNS record / publishNotReadyAddresses on the service, or use the master "
                          "pod IP as MASTER_ADDR), and give it a longer rendezvous / store timeout")
    fork_idle = False
    if "fork in threads warning" in whats:
        # lead rules K, N, AZ (4): Python's warning that a process with threads forked (DataLoader workers); "went
        # on" and a confidence from it only where a later line of its file is not the warning's own (readers.exits,
        # Parser._fork_went_on: went_on; round 110's alcf-nccl-tests-resnet50-20241108-2131); a paste that ends on it
        # is the shape of the hang it warns of: the hang words first, low (review 110 b #4)
        went = any(e.data.get("went_on") for e in c.samples.get("benign", [])
                   if e.data.get("what") == "fork in threads warning")
        fork_idle = not went
        hang = ("take a py-spy dump of the DataLoader workers (py-spy dump --pid of each worker) if it hangs at "
                "the first batch")
        benign.append(("the RuntimeWarning that os.fork() was called while JAX is multithreaded is a start-up "
                       "warning, no failure: the DataLoader forks its worker processes from a process where JAX, "
                       "imported, runs threads, and a child forked while another thread holds a lock can deadlock -- "
                       "here the processes went on after it. " if went else
                       "the RuntimeWarning that os.fork() was called while JAX is multithreaded warns of a deadlock, "
                       "and these lines end on it (nothing after it shows the run going on or failing): "
                       + hang + " -- a child forked while another thread held a lock waits forever; it is no failure "
                       "where the run went on after it. ")
                      + "To silence it, do not import JAX in the PyTorch training "
                      "process, or use the 'spawn' or 'forkserver' start method for DataLoader workers "
                      "(multiprocessing_context='spawn' (or forkserver) for the DataLoader), or num_workers=0 to "
                      "avoid forking" + ("; if it ever hangs at the first batch, take a py-spy dump of the DataLoader "
                                         "workers (py-spy dump --pid of each worker)" if went else ""))
    if "SIGTERM after the job completed" in whats:
        benign.append("the SIGTERM a handler logged (submitit's 'Bypassing signal SIGTERM') came right after the job "
                      "recorded its own success: Slurm signals a step's processes when it ends, nothing was stopped; "
                      "if the Slurm job still runs after that, check its state (sacct -j JOB, squeue) and end it with "
                      "scancel, and upgrade submitit or let the process exit on SIGTERM (Slurm's --signal)")
    if "fp16 loss scale skip" in whats:  # lead rule K: dynamic loss scaling finding its scale (numerics.py)
        benign.append(numerics.SKIP_WORDS)
    if "ray temp dir nearly full" in whats:  # lead rules K, N: the raylet's disk warning, a failure only if spilling
        ev = next(e for e in c.samples.get("benign", []) if e.data.get("what") == "ray temp dir nearly full")
        benign.append(f"Ray's raylet warned that its temp dir {ev.data.get('ray_dir') or '/tmp/ray'} is over "
                      f"{ev.data.get('ray_pct') or 95}% full: a warning, not a failure by itself (object creation "
                      "fails only if Ray must spill objects to that disk) -- free disk space under /tmp/ray, or give "
                      "Ray a temp dir on a bigger disk (ray start --temp-dir, a larger volume mounted at /tmp/ray) "
                      "and point its object spilling directory there; if the job failed, look for the real error "
                      "elsewhere in the log")
    if "ray dev shm short" in whats:  # lead rules K, N, CI: Ray's start-up warning that /dev/shm is small
        benign.append("Ray's warning that /dev/shm is smaller than its object store asks for (the raylet's 'System "
                      "memory request exceeds memory available in /dev/shm', or 'The object store is using /tmp "
                      "instead of /dev/shm because /dev/shm has only N bytes available') is a start-up warning, and "
                      "nothing failing follows it in these lines: accept the /tmp fallback: it is only slower, nothing "
                      "fails. To clear it give the container a larger /dev/shm (docker run --shm-size=<N>g or "
                      "--ipc=host; in Kubernetes mount an emptyDir with medium: Memory at /dev/shm), lower Ray's "
                      "object store size (--object-store-memory) below the /dev/shm available, or delete stale files "
                      "in /dev/shm left by earlier runs; if the job then fails, collect the raylet and worker logs "
                      "showing the failure itself")
    if "cuda-gdb peer-access notice" in whats:
        benign.append("cuda-gdb's 'Cuda API error detected: cudaDeviceEnablePeerAccess returned' warnings are "
                      "harmless: NCCL probes GPU peer access (P2P) and falls back to shared memory where it is not "
                      "available; the debugger only reports the probe's error code")
    if "ompi shmem btl warning" in whats:  # lead rules K, N, AH (3): a start-up warning the process goes on after
        benign.append("Open MPI's 'shmem: mmap: an error occurred while determining whether or not /tmp/ompi.../"
                      "shared_mem_cuda_pool... could be created' and 'create_and_attach: unable to create shared "
                      "memory BTL coordinating structure' are start-up warnings, harmless here: its shared-memory "
                      "BTL (smcuda's CUDA pool) could not create its segment in the session directory under /tmp, "
                      "so Open MPI leaves that BTL out and the process goes on -- and Open MPI is not the path the "
                      "job's collectives take (c10d / NCCL). To silence them point the session directory at a "
                      "local, writable file system with room (OMPI_MCA_orte_tmpdir_base / TMPDIR), give the "
                      "container shared memory (/dev/shm: docker --shm-size / --ipc=host), or leave the BTL out "
                      "(mpirun --mca btl ^smcuda, OMPI_MCA_btl=^smcuda)")
    if "pmix datastore lock warning" in whats and not any(_PMIX_DS12.search(u.text) for u in unread_before_done(c)):
        # lead rules K, N, AZ (4): an MPI/PMIx library's shared-memory start-up message the process goes on after
        benign.append("Slurm's / Open MPI's PMIx 'PMIX ERROR: ERROR in file .../gds_ds12_lock_pthread.c' is a known "
                      "benign, harmless start-up message of its shared-memory datastore's lock (a PMIx version "
                      "mismatch between srun --mpi=pmix's plugin and the MPI library's own PMIx, v3/v4): the "
                      "processes go on after it, no action needed; silence it with PMIX_MCA_gds=hash in the job's "
                      "environment (or launch with the srun --mpi plugin matching the MPI library's PMIx version)")
    if "Windows store connect warning" in whats:
        benign.append("the store client's 'failed to connect ... (system error: 10049 / errno: 22 - Invalid "
                      "argument / errno: 99 - Cannot assign requested address)' warning is a benign retried "
                      "warning: torch tries each address (IPv6, IPv4) the store's hostname resolves to (10049 = "
                      "WSAEADDRNOTAVAIL on Windows, EINVAL or EADDRNOTAVAIL on Linux, e.g. IPv6 localhost where the "
                      "host has no IPv6 address: not usable from here) and connects through the next one; nothing "
                      "to fix unless a store timeout follows (then check the next error and MASTER_ADDR; "
                      "MASTER_ADDR=127.0.0.1 skips the IPv6 attempt on one host)" + _named_host(c))
    polled = any(e.data.get("poll") for e in c.samples.get("benign", []))
    if "store reset before the group" in whats and polled:
        benign.append("the TCPStore client's 'recvValue failed ... Connection reset by peer' warning comes from "
                      "TCPStore::check (its frames): a process polling the store (NCCL's heartbeat monitor checks a "
                      "key in it) found the store host exited first -- the TCPStore server lives in rank 0's process "
                      "(or the launcher's), and it shut down while the others still polled: harmless at teardown "
                      "when the job had finished. Call destroy_process_group before exit on every rank (a barrier "
                      "before exit keeps the store's host up until all are done); TORCH_NCCL_ENABLE_MONITORING=0 "
                      "stops the poll")
    if "heartbeat store poll" in whats and "store warning alone" not in whats and not (
            "store reset before the group" in whats and polled):
        # lead rule N: the monitor's store poll raising, read from its C++ frames alone (parse)
        benign.append("the C++ backtrace of TCPStore::check under ProcessGroupNCCL's heartbeat monitor (its poll of "
                      "the 'should dump' flag in the store) says the TCPStore server exited first (the store host, "
                      "rank 0's or the launcher's process, ended at the end of the job) while this process still "
                      "polled it: harmless with nothing failing after it -- if the job did fail, the real error is "
                      "earlier in the log (the store host's own). Call destroy_process_group before exit on every "
                      "rank (a barrier before it keeps the store's host up until all are done); "
                      "TORCH_NCCL_ENABLE_MONITORING=0 stops the poll")
    if "allocator OOM warning" in whats:
        benign.append("the caching allocator's [W] 'memory allocation failed with OOM on device N' is a warning of "
                      "one allocation its caller caught (an autotuner -- FlashInfer's -- trying a tactic that does not "
                      "fit falls back to a default one): nothing failing unless an out-of-memory error follows. To "
                      "give such start-up work headroom, lower --gpu-memory-utilization, reduce --max-num-seqs / "
                      "--max-num-batched-tokens, set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True, or skip CUDA "
                      "graph capture with --enforce-eager")
    elif "store reset before the group" in whats:
        benign.append("the TCPStore client's 'recvValue failed ... Connection reset by peer' warning was "
                      "printed before the process group existed (torch adds its [rankN] prefix once it does): it "
                      "is the client's connect/validate, which TCPStore retries ('failed to connect/validate ... "
                      "retrying'), a transient reset; harmless unless a store timeout or error follows. If resets "
                      "repeat until the timeout, something on this host cuts local TCP connections: check firewall / "
                      "VPN / proxy, and bind the store where both ends reach it (MASTER_ADDR=127.0.0.1 on one "
                      "machine, GLOO_SOCKET_IFNAME for gloo's interface)")
    tries = [e.data for e in c.samples.get("benign", []) if e.data.get("what") == "store connect retry"]
    retry = [d["endpoint"] for d in tries]
    if retry:
        said = (f"'The server socket on {retry[0]} is not yet listening ..., will retry'" if tries[0].get("listening")
                is False else f"'failed to connect/validate to host {retry[0]} - retrying'")
        port = retry[0].rpartition(":")[2]
        if any(d.get("foreign") for d in tries):
            # TCPStore's ping got another server's answer (readers.store): a port another process holds, retried
            benign.append(f"the TCPStore client's {said} warnings are retries with nothing failing after them; its "
                          f"ping to {retry[0]} got an invalid value back ('Ping failed, invalid value returned from "
                          "server'): a server answered on that port but it was not this job's store -- another "
                          "process (another service, or a parallel test's store: a port collision) is listening on "
                          f"MASTER_PORT {port}. Nothing failing in these lines: collect the error that follows (the "
                          "full log of the failing test), or wait for the retries to finish. Pick a free port for the "
                          "store: a unique free MASTER_PORT per test (--master_port), and check what owns the port "
                          f"(ss -ltnp / lsof -i :{port})")
        else:
            benign.append(f"the TCPStore client's {said} warnings are retries with nothing failing after them: the "
                          "store host (MASTER_ADDR, rank 0's TCPStore server) was not up yet "
                          "(rank 0's node still starting), which the client waits for until its timeout (the "
                          "rendezvous timeout, init_process_group's timeout): check for a later timeout. If the job "
                          "hangs there (py-spy dump of a stuck process), check that the store server started on rank "
                          f"0, collect that host's log (is its store listening? `ss -ltnp | grep {port}`) and "
                          f"`nc -zv {retry[0].replace(':', ' ')}` from this node (MASTER_ADDR/MASTER_PORT, the "
                          "firewall)")
    if "nccl teardown trail" in whats:
        benign.append("NCCL's INFO return-code lines ('misc/socket.cc:N -> 3') and 'Abort COMPLETE' after the job "
                      "recorded its own success are its communicators' teardown at exit (ncclCommAbort closing the "
                      "proxy's sockets), benign, no failure and no WARN: nothing to fix; call "
                      "dist.destroy_process_group() before exit, and NCCL_DEBUG=WARN hides the INFO trail")
    if "nccl abort trail" in whats and "nccl teardown trail" not in whats:
        # lead rules AD (3), K: a communicator's own abort completing, then its threads' sockets unwinding, is the
        # teardown of a process told to stop; whatever made it stop is an error above these lines, not shown
        benign.append("NCCL's 'Abort COMPLETE' and the return-code lines after it ('misc/socket.cc:N -> 3') are a "
                      "communicator's normal teardown (ncclCommAbort closing the sockets under its proxy and "
                      "bootstrap threads), benign, no failure of their own: if the job failed, the cause is the "
                      "first error above the abort lines (read the full log; NCCL_DEBUG=INFO for its context), "
                      "and a job that stopped on purpose should call dist.destroy_process_group() before exit")
    if any(w and "driver shutting down" in w for w in whats):
        # (a thread's last CUDA call after the runtime unloaded: NCCL's watchdog or torch's workCleanupLoop, or an
        # uncaught gloo EnforceNotMet freeing its CUDA streams -- parse._unload_what; rounds 12, 101)
        benign.append("CUDA's 'driver shutting down' (error 29, cudaErrorCudartUnloading) is harmless at exit: a "
                      "thread (the NCCL watchdog or its work-cleanup loop, gloo's CUDA streams and events) outlived "
                      "CUDA's teardown as the process exited, even when the uncaught exception aborts it -- no GPU "
                      "fault, and nothing failed if the run had finished (check the log above for an earlier error); "
                      "tear down the process group before the CUDA runtime unloads: call "
                      "dist.destroy_process_group() before exit (after a final barrier), and upgrade torch (newer "
                      "releases ignore it in their exit-time threads)")
    if "net plugin absent" in whats:
        benign.append("NCCL's 'Failed to find ncclCollNetPlugin' / 'No plugin found' INFO lines are harmless: an "
                      "optional net or CollNet (SHARP) plugin is not installed, so CollNet is off and NCCL uses its "
                      "built-in transports")
    # NCCL's harmless WARNs say nothing of the failure the user may have seen; benign start-up lines alone do
    # not show the job got anywhere: "high" needs positive evidence that it ran to its end
    conf = ("high" if finished(c) else "medium") if benign and len(benign) - fork_idle > bool(retry) else "low"
    # after conf: start-up progress and a test's own prints explain nothing alarming (no confidence from them)
    if "vllm weights loaded" in whats:  # lead rules K, T: vLLM's start-up progress, the workers' weights loaded
        ray = any("RayWorker" in e.text for e in c.samples.get("benign", [])
                  if e.data.get("what") == "vllm weights loaded")
        benign.append("vLLM's 'Loading model weights took N GB' lines are start-up progress: the workers loaded their "
                      "weights and nothing failed in these lines; after loading vLLM profiles memory, allocates the "
                      "KV cache and captures CUDA graphs, so wait longer: profiling / KV-cache and graph capture run "
                      "after loading. "
                      + ("If it hangs after weight loading, collect py-spy stacks of every Ray worker (py-spy dump "
                         "--pid PID on each node) and check the Ray cluster (ray status) sees every node and GPU"
                         if ray else "If it hangs after weight loading, collect py-spy stacks of every worker process "
                         "(py-spy dump --pid PID)")
                      + ", with NCCL_DEBUG=INFO and VLLM_LOGGING_LEVEL=DEBUG; try --enforce-eager to skip CUDA graph "
                      "capture. If it runs out of memory there, give the CUDA out of memory line and lower "
                      "--gpu-memory-utilization or --max-model-len, or use --cpu-offload-gb or a quantized checkpoint")
    if "collective result print" in whats:  # lead rules K, CG (2): a test's per-rank prints of a collective's result
        benign.append(_collective_results(c))
    loader = next((e.data for e in c.samples.get("benign", []) if e.data.get("what") == "dataloader workers warning"),
                  None)
    if loader:  # lead rules K, BJ (4): a warning the process goes on after, which explains nothing alarming (no
        # confidence from it); what it says matters if the job died or stalled after the lines
        benign.append(f"the DataLoader's warning that it creates {loader['workers']} worker processes where the "
                      f"system suggests at most {loader['suggested']} (the CPUs this process may use) is a warning, "
                      "not a failure; but every rank's loader starts its workers on the same machine, which on a "
                      "small one slows the start and can exhaust host memory (the OOM killer: dmesg -T) -- reduce "
                      f"num_workers to {loader['suggested']} or fewer per process if the job died or stalled after it")
    recompile = next((e.data for e in c.samples.get("benign", []) if e.data.get("what") == "dynamo recompile limit"),
                     None)
    if recompile:  # lead rules K, N, T: a warning after which Dynamo runs the frame uncompiled (no confidence from it)
        limit = recompile["limit"]
        benign.append(f"TorchDynamo's warning that a compiled function hit config.{limit} ({recompile['n']}) is a "
                      "warning, not a failure: each guard failure (an input whose size changes, its 'last reason: "
                      "... size mismatch') recompiled the function until the limit, and Dynamo then runs that frame "
                      "uncompiled (eager), slower but on. To stop the recompiles mark the varying dimension dynamic "
                      "(torch._dynamo.mark_dynamic / dynamic=True), or pad or bucket input sizes to a few fixed "
                      f"shapes, or raise torch._dynamo.config.{limit}; TORCH_LOGS=recompiles to see each recompile "
                      "reason. If a rank then hangs or falls behind the others, collect py-spy stacks and a "
                      "collective timeout")
    benign += _noise_words(c)
    if "gdr_off" in c.networks:  # an INFO of net_ib's capabilities: a performance matter, no confidence either
        benign.append(_gdr_off_words(c))
    if "store warning alone" in whats:  # lead rule N (state.Collected._store_warnings_alone)
        benign.append("the ranks' c10d TCPStore warnings ('Failed to check the \"should dump\" flag on TCPStore', "
                      "recvValue/sendBytes failed: 'Connection reset by peer' / 'Broken pipe' / 'failed to recv, got 0 "
                      "bytes') with nothing failing "
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
    if "c10d bind retried as client" in whats:  # lead rule BY (1) (state.Collected._bind_retried_alone)
        port = next((e.data["in_use"] for e in c.samples.get("benign", []) if e.data.get("what") == "c10d bind "
                     "retried as client" and e.data.get("in_use")), None)
        on = f"port {port}" if port else "its port"
        benign.append(f"c10d's [W]/[E] lines that its server socket could not bind {on} already in use (errno 98) "
                      "and 'failed to listen on any local network address' raised nothing, and the job's own lines "
                      "go on after them: torchrun's c10d rendezvous"
                      + (" (--standalone's default port 29400)" if port == 29400 else "")
                      + " found another store on that port -- another torchrun job with the c10d rendezvous on "
                      "the host, or a stale one -- and the rendezvous store fell back to client of it, so the "
                      "workers started; benign. "
                      "To keep jobs apart give each its own --rdzv-endpoint with a free port (--rdzv_endpoint "
                      "host:port; localhost:0 on one node), or free the port: kill stale torchrun processes (ss -ltnp "
                      "/ lsof -i :PORT shows the holder). If the job did fail, look for the real error elsewhere "
                      "(failure record, dmesg: host memory / OOM killer (-9))")
    if "c10d debug line" in whats:  # debug chatter: it shows nothing ran or failed, so no confidence
        benign.append("the c10d debug line is benign: '[c10d - debug]' lines are the store's own tracing "
                      "(TORCH_CPP_LOG_LEVEL=INFO with TORCH_DISTRIBUTED_DEBUG=DETAIL prints them: "
                      "TORCH_CPP_LOG_LEVEL / TORCH_DISTRIBUTED_DEBUG only add these debug lines; a 'Read callback "
                      "failed ... EOF' is the TCPStore server seeing a client's connection close, which every "
                      "process does when it exits, harmless at job end). If the job failed, the cause is in the "
                      "worker's own traceback (decorate main with torch.distributed.elastic's @record so torchrun's "
                      "error file keeps it); if it hangs after this, collect py-spy stacks of every rank, and check "
                      "that the store's address (MASTER_ADDR / the rdzv endpoint) resolves to the same host on every "
                      "node (hostname in /etc/hosts)")
    if "cuda ipc producer exit" in whats:  # lead rule AH (3): printed as a process exits, it shows nothing failing
        benign.append("torch's 'Producer process has been terminated before all shared CUDA tensors released' "
                      "(CudaIPCTypes, see Note [Sharing CUDA tensors]) is an exit-time warning, harmless: a process "
                      "that shared CUDA tensors with others (a DataLoader worker, a multiprocessing producer) exited "
                      "before they released them; nothing failed in these lines. If the job really stopped there, "
                      "collect the full log of every rank, each process's exit code (the launcher's failure record, "
                      "echo $? / sacct) and dmesg on the node (the OOM killer, Xid errors)")
    if "accelerate defaults notice" in whats:  # printed at every launch: it shows nothing ran, so no confidence
        benign.append("accelerate launch's notice that values were not passed and defaults were used (its list "
                      "'`--num_processes` was set to a value of `N`', or 'More than one GPU was found, enabling "
                      "multi-GPU training. If this was unintended please pass in `--num_processes=1`') is a harmless "
                      "launcher warning, a warning only: the processes run as launched with those defaults. To "
                      "silence it pass every value it lists on the command line (--num_processes=1 for one process, "
                      "--multi_gpu with --num_processes N for several, --num_machines, "
                      "--mixed_precision, --dynamo_backend) or save them once with `accelerate config`; where the "
                      "command already passes --num_processes=1, the notice is the launcher misreading its own "
                      "arguments: upgrade accelerate (CUDA_VISIBLE_DEVICES=0 also shows it one GPU)")
    traced = [e.data for e in c.samples.get("benign", []) if e.data.get("what") == "nccl call trace"]
    if traced:  # lead rule K: NCCL's tracing of what it chose for each call, printed whether or not anything fails
        algo = next((d for d in traced if d.get("algo") is not None), None)
        benign.append(
            "NCCL's per-call lines ('Broadcast: opCount N ... [nranks=N]', NCCL_DEBUG_SUBSYS=COLL) and its tuner's "
            "TRACE ('N Bytes -> Algo A proto P') are tracing of the algorithm and protocol NCCL chose for each call, "
            "no failure" + (f" (here Algo {algo['algo']} proto {algo['proto']}: " + _ALGO_PROTO_WORDS + ")"
                            if algo else "") + ". NCCL_ALGO / NCCL_PROTO tuning applies only where the collective "
            "has that algorithm: Broadcast, Reduce, AllGather and ReduceScatter have no Tree, so NCCL_ALGO=Tree "
            "falls back to Ring for them (and older NCCL ignored NCCL_PROTO on that fallback: upgrade NCCL, 2.22 or "
            "later). To see the tuner's choice per call and size, rerun with NCCL_DEBUG=INFO "
            "NCCL_DEBUG_SUBSYS=TUNING (or COLL), and compare nccl-tests at the job's scale with and without the "
            "settings; if the job hangs, collect the full log of every rank")
    if "launch deprecated" in whats:  # a notice printed at every launch: it shows nothing ran, so no confidence
        benign.append("torch.distributed.launch's FutureWarning is a deprecation warning only, safe to ignore: to "
                      "silence it use torchrun (--use_env is its default: read LOCAL_RANK from the environment, "
                      "os.environ['LOCAL_RANK'], instead of a --local_rank argument)")
    if "fsdp state_dict_type deprecated" in whats:  # printed at every save / load of the state dict: no failure
        benign.append("torch's FutureWarning that FSDP.state_dict_type() / FSDP.set_state_dict_type() are being "
                      "deprecated is a FutureWarning only: nothing failing, nothing to fix in these lines. To move off "
                      "the deprecated API, use torch.distributed.checkpoint.state_dict get_state_dict / "
                      "set_state_dict (get_model_state_dict / get_optimizer_state_dict with StateDictOptions) "
                      "instead of FSDP.state_dict_type; where the code already calls get_state_dict, which still uses "
                      "the deprecated context inside, upgrade torch or filter the FutureWarning "
                      "(warnings.filterwarnings('ignore', category=FutureWarning)). If the job did fail, collect the "
                      "full log / traceback of every rank")
    if "ddp no unused parameters" in whats:  # printed once per rank after the first backward: a notice, no failure
        benign.append("DDP's warning that find_unused_parameters=True found no unused parameters is a performance "
                      "warning only, harmless: nothing failed. Construct DistributedDataParallel with "
                      "find_unused_parameters=False when every parameter is used (the default; Lightning: "
                      "DDPStrategy(find_unused_parameters=False)), or with static_graph=True, to skip the extra "
                      "traversal of the autograd graph every iteration; keep True only if some parameters really go "
                      "unused in a forward pass")
    if "lightning test sampler warning" in whats:  # advice on exact test metrics, printed at trainer.test() (K, N)
        benign.append("Lightning's PossibleUserWarning 'Using `DistributedSampler` with the dataloaders. During "
                      "`trainer.test()`, it is recommended to use `Trainer(devices=1)`' is a harmless warning, nothing "
                      "to fix: nothing failed. After a multi-device (DDP) fit, trainer.test() shards the test set with "
                      "DistributedSampler, and DistributedSampler replicates samples for uneven inputs (it pads the "
                      "last batch so that every device gets the same batch size), so a few samples are evaluated "
                      "twice and the test metrics are not exactly once per sample. For exact metrics test on a single "
                      "device after fit with a separate test Trainer: Trainer(devices=1, num_nodes=1) for "
                      "trainer.test(); or pass use_distributed_sampler=False (replace_sampler_ddp=False before "
                      "Lightning 2.0) with your own sampler that does not pad; otherwise accept the padded duplicates "
                      "-- ignore or filter the warning (warnings.filterwarnings('ignore', "
                      "category=PossibleUserWarning)). If the test step then hangs, take a py-spy dump of every rank "
                      "and rerun with NCCL_DEBUG=INFO")
    long_tok = [e for e in c.samples.get("benign", []) if e.data.get("what") == "tokenizer length warning"]
    if long_tok:  # a tokenizer's note while the dataset is preprocessed, before any collective (K, N)
        benign.append("the tokenizer warning 'Token indices sequence length is longer than the specified maximum "
                      "sequence length for this model' is harmless here: one example is longer than the model's "
                      "maximum, and the trainer truncates the examples to its cutoff length (cutoff_len / max_length) "
                      "before the model sees them; nothing failing in these lines. While the main process tokenizes a "
                      "large dataset the other ranks wait for it in a collective, so a job that then times out (the "
                      "30-min NCCL watchdog) needs the process-group timeout raised above the preprocessing time "
                      "(the HF Trainer's or LLaMA-Factory's --ddp_timeout in seconds, e.g. --ddp_timeout 180000; "
                      "init_process_group(timeout=...)), or the dataset tokenized once on one process and the cache "
                      "reused (pre-tokenize once and reuse: LLaMA-Factory's tokenized_path, the datasets cache), then "
                      "launch; a streaming dataset avoids the up-front pass. A large preprocessing_num_workers "
                      "(num_proc) uses much host memory: watch host memory (dmesg, free -h). If it hangs, take a "
                      "py-spy dump of every rank")
    if "deepspeed backend fallback" in whats:  # printed at every start: it shows nothing ran, so no confidence
        benign.append("DeepSpeed's 'NCCL backend in DeepSpeed not yet implemented' warning is a benign warning, safe "
                      "to ignore: DeepSpeed falls back to torch.distributed NCCL for its communication (cdb=None "
                      "until then). If the job did fail, look for the real error elsewhere: each rank's traceback, "
                      "the launcher's exit code of the failing rank, dmesg on its node (an OOM kill), with "
                      "NCCL_DEBUG=INFO set")
    noeffect = [e for e in c.samples.get("benign", []) if e.data.get("what") == "setting without effect"]
    if noeffect:  # a notice printed once a process: it shows nothing ran, so no confidence
        d = noeffect[0].data
        p2p = re.search(r"point-to-point|\bp2p\b|send|recv", d["ops"], re.IGNORECASE)
        benign.append(
            f"torch's warning that {d['var']}={d['val']} has no effect {d['ops']} is a harmless warning: the "
            "setting does not apply to those operations (it only changes how the others run"
            + (", here the collectives, not point-to-point (send/recv) ones" if p2p else "")
            + "), so nothing failed and there is nothing to fix; ignore the warning"
            + (f". The '{d['flag']}' glued before the variable is the value TORCH_WARN_ONCE printed of its "
               "condition: " + (f"{d['var']} is not set (0) and the warning fires anyway, a torch bug (2.1-2.2) "
                                "fixed in later releases: upgrade torch to silence it" if d["flag"] == "0" else
                                f"{d['var']} is set; unset it if the job's NCCL traffic is only point-to-point")
               if d.get("flag") else ""))
    if "ddp grad strides" in whats:  # a performance notice printed once by DDP's reducer: no confidence either
        benign.append("DDP's reducer warning 'Grad strides do not match bucket view strides' is a harmless performance "
                      "warning (it says so: 'This is not an error, but may impair performance'): a parameter's "
                      "gradient has another memory layout than its slot in DDP's gradient bucket (a channels_last or "
                      "otherwise non-contiguous parameter -- typically a 1x1 conv weight -- or strides changed after "
                      "DistributedDataParallel was constructed), so DDP copies that gradient into the bucket every "
                      "step. To silence it give the model one memory format before wrapping it (model.to(memory_format="
                      "torch.channels_last) or contiguous params, .contiguous()) and pass gradient_as_bucket_view=True "
                      "to DistributedDataParallel; where the model builds a parameter from a view, call "
                      ".contiguous() after transpose()/permute()/view()/einops.rearrange so parameters and gradients "
                      "are contiguous; otherwise ignore the warning")
    if "tbe subprocess after run end" in whats:  # lead rules K, N: the run ended, then its workers exited
        benign.append("nothing failing: training finished (final validation metrics printed), and the TBE compile "
                      "subprocess message is teardown noise after the worker exited -- CANN's TBE compiler's "
                      "subprocess logs 'TBE Subprocess[...] raise error[], main process disappeared!' when the NPU "
                      "worker process that started it has exited, here at the end of the job. Check that the final "
                      "checkpoint and metrics were written; to end the run cleanly, call ray.shutdown / destroy the "
                      "process group at the end of the run; if the message comes mid-run, the worker died: read that "
                      "worker's own log")
    if "habana bridge config" in whats:  # lead rules K, T: the HPU bridge's settings at start-up
        benign.append("Habana's 'HABANA PT BRIDGE CONFIGURATION' block is the PyTorch HPU bridge's start-up dump of "
                      "its settings (PT_HPU_LAZY_MODE and the other PT_HPU_* variables), printed once a process: "
                      "nothing failing in it, no action needed. If the job does fail later, give the full traceback "
                      "of the failing HPU process, the HCCL / Habana SynapseAI version (and the habana torch / "
                      "Lightning plugin versions), the LOG_LEVEL_ALL / HABANA logs ($HABANA_LOGS), and a py-spy dump "
                      "of each rank if it hangs")
    if "fsdp profiling" in whats:  # FSDP's SimpleProfiler dump once a state-dict call ended (lead rules K, N)
        benign.append("FSDP's 'FSDP _flatten_optim_state_dict() profiling: {...}' line (torch.distributed.fsdp."
                      "_debug_utils, logged as a WARNING) is benign: FSDP debug profiling output, the seconds each "
                      "part of the state-dict call took (RESHARDING: the all-gather that reshards a full optimizer "
                      "state to the current sharding) once the call completed -- nothing failed, no fix needed. If "
                      "the load is too slow, load a sharded optimizer state dict (SHARDED_STATE_DICT / "
                      "set_optimizer_state_dict) so no resharding is needed; to hide the line, lower the FSDP debug "
                      "log level (raise the torch.distributed.fsdp logger's level above WARNING)")
    if "fsdp order warning" in whats:  # FSDP's execution-order check: a warning that a hang *may* follow, none did
        benign.append("FSDP's warning 'All-gather order differs from that of the first iteration' is a warning, not a "
                      "failure: FSDP checks that each rank issues its parameter all-gathers in the same execution "
                      "order as in its own first iteration (forward), and this iteration's order differs -- usually "
                      "evaluation after training (eval takes another path through the model), a module called twice "
                      "in forward, or a data-dependent branch. Only if the ranks take different orders could the "
                      "collectives mismatch: nothing timed out or failed after it here. Keep the forward order the "
                      "same on every rank (same branches, every rank in eval together); if the job does hang there, "
                      "take a py-spy dump of every rank (py-spy if it hangs) and set TORCH_DISTRIBUTED_DEBUG=DETAIL")
    if "dataloader state empty" in whats:  # lead rules K, N: a resume's warning, nothing failed after it
        benign.append("the 'DataLoader state is empty for dp rank N, expected key dp_rank_N' lines are a warning, not "
                      "a failure: on resume the checkpoint held no data loader state under that data-parallel rank's "
                      "key (dp_rank_N), so those ranks' data loaders restart their data from the beginning (samples "
                      "seen again) while training goes on. To resume the data where it stopped, save the dataloader "
                      "state per rank in the checkpoint (a stateful dataloader: torchdata's StatefulDataLoader, its "
                      "state_dict under each dp_rank key) and resume with the same data-parallel degree it was saved "
                      "with; a checkpoint written before the data loader was checkpointed has none to restore")
    if "ffmpeg decoder warning" in whats:  # lead rules K, N: a video decoder's note on its stream, then it goes on
        benign.append("the '[h264 @ 0x...] ...' lines are FFmpeg's own decoder warnings, harmless: the video "
                      "decoder of the data pipeline (DataLoader workers) met an odd frame ('mmco: unref short "
                      "failure'), concealed it and went on. To silence them lower FFmpeg's log level "
                      "(av.logging.set_level(av.logging.ERROR)) or re-encode the videos with ffmpeg; if the run "
                      "stalls, look at the video decoding / dataloader num_workers (long videos decode slowly) as "
                      "well as the collectives")
    if "zero3 trace cache" in whats:  # lead rules K, N: ZeRO-3 re-recording its prefetch trace, training going on
        benign.append("DeepSpeed ZeRO-3's 'Invalidate trace cache @ step N: expected module A, but got module B' "
                      "(newer DeepSpeed: '... @ step N and module M: cache has only K modules') is "
                      "informational, benign: ZeRO-3 records the order in which the modules fetch their partitioned "
                      "parameters to prefetch them (stage3_prefetch_bucket_size), and a step that ran them in another "
                      "order (dynamic control flow / module order changes: a branch taken per batch, eval or generate "
                      "between training steps, gradient checkpointing) makes it drop that trace and record it again; "
                      "training goes on -- ignore the message. If it repeats every step, keep the forward's module "
                      "order fixed (or set stage3_prefetch_bucket_size to 0 to stop prefetching); if the run then "
                      "stalls, take a py-spy dump of every rank (py-spy if it stalls)")
    flushes = [e.data.get("flushes") for e in c.samples.get("benign", [])
               if e.data.get("what") == "zero3 cache flushes"]
    if flushes:  # lead rules K, N: memory pressure costing speed, each step going on
        benign.append("DeepSpeed ZeRO-3's 'N pytorch allocator cache flushes since last step' (here "
                      + ", ".join(str(n) for n in flushes[:3]) + ") is a performance warning, not a failure: the "
                      "GPU is near its memory limit, so torch's caching allocator frees its cache and retries "
                      "allocations (slow steps), and the step goes on. To reduce memory pressure use a smaller micro "
                      "batch or gradient checkpointing, lower stage3_max_live_parameters / "
                      "stage3_prefetch_bucket_size, or use ZeRO-3 offload (offload_param / offload_optimizer); where "
                      "the flushes stay, call get_accelerator().empty_cache() / torch.cuda.empty_cache() on all ranks "
                      "at the same step so that no rank stalls the others' collectives; an out-of-memory error after "
                      "it would be a failure of its own")
    if "torchx shared gpu warning" in whats:  # lead rules K, N, BR (3): a launcher's cautionary default warning
        benign.append("torchx's warning that role replicas requiring GPUs run without CUDA_VISIBLE_DEVICES set is a "
                      "cautionary start-up warning, no failure: the replicas of this host all see every GPU, so two "
                      "processes may use the same GPU unless each selects its own. Use one GPU per process: set "
                      "CUDA_VISIBLE_DEVICES per replica (torchx run -cfg auto_set_cuda_visible_devices=True divides "
                      "the host's GPUs among them) or call torch.cuda.set_device(LOCAL_RANK) in each process; if the "
                      "job did fail, read the replicas' own logs (torchx's log dir, kept with the log_dir cfg "
                      "option)")
    idle = [e for e in c.samples.get("benign", []) if e.data.get("what") == "megatron no iterations"]
    if idle:  # lead rules K, T: Megatron's loop returned at once -- no failure, but no training either
        d = idle[0].data
        benign.append(f"Megatron's '[after training is done]' stamp came {d['gap']} s after '[{d['step']}]': the "
                      "training loop returned before running any iteration (no iteration line, no error). Megatron "
                      "trains while the iteration count is below --train-iters (or the consumed samples below "
                      "--train-samples): a checkpoint loaded with --load whose checkpoint iteration is already at or "
                      "past --train-iters ends training at once. Raise --train-iters above the checkpoint iteration "
                      "(its latest_checkpointed_iteration.txt), or pass --finetune to start a loaded model from "
                      "iteration 0 (with --no-load-optim --no-load-rng), and check --exit-interval / "
                      "--exit-duration-in-mins and that --train-iters is set at all")
    nohost = [e for e in c.samples.get("benign", []) if e.data.get("what") == "c10d hostname warning"]
    if nohost:  # c10d's socket log line: it shows nothing failed, and nothing ran either
        err = nohost[0].data.get("err")
        benign.append("c10d's '[c10d] The hostname of the client socket cannot be retrieved' warning is a benign "
                      "warning: the store's socket code could not turn a peer's address back into a host name "
                      "(getnameinfo: reverse DNS / hostname resolution"
                      + {"-3": "; err=-3 is EAI_AGAIN, a temporary failure in name resolution",
                         "-2": "; err=-2 is EAI_NONAME, the address has no name"}.get(err or "", "")
                      + ") while writing its log line; the connection is made by address and goes on. To silence it "
                      "make the hosts' names and addresses resolve on every node (/etc/hosts or DNS, `getent hosts "
                      "$(hostname)`), or hide c10d's warnings with TORCH_CPP_LOG_LEVEL=ERROR; if the job did fail or "
                      "hang, look for the real error elsewhere (a store timeout, each rank's traceback) and check that "
                      "every rank of the world size was started and reaches MASTER_ADDR:MASTER_PORT (the store's host "
                      "waits for all of them at init)")
    gloo = {e.data.get("what") for e in c.samples.get("benign", [])}
    if "gloo peers connected" in gloo and "gloo peers short" not in gloo:
        # lead rules K, T: gloo's TCP context reports its mesh once a process and group at set-up; every rank reached
        # every expected peer (round 104's gloo-462)
        benign.append("gloo's '[Gloo] Rank N is connected to M peer ranks. Expected number of connected peer ranks "
                      "is : M' lines are a harmless gloo connection log, printed once a process and process group as "
                      "its TCP mesh is set up, each rank reaching every peer it expects: nothing failing in these "
                      "lines, so ignore the message. To silence it set GLOO_LOG_LEVEL=ERROR (or WARNING) in every "
                      "rank's environment, on a torch / gloo build whose gloo reads GLOO_LOG_LEVEL (an older one: "
                      "upgrade torch, or filter the [Gloo] lines out of the log); if a later connect fails, pin the "
                      "interface with GLOO_SOCKET_IFNAME")
    prints = _rank_prints(c)
    if prints:
        benign.append(prints)
    if "bandwidth table header" in gloo:
        # lead rules K, T: a benchmark's own timing table, nothing failing in it (round 106's
        # pytorch-communication-benchmarks-1); the fix is how to read its numbers
        benign.append("the table (message size, times, bandwidth in GB/s) is the benchmark script's own output: "
                      "nothing failed in these lines, a benchmark's results, no fix needed. To judge the numbers "
                      "compare with nccl-tests all_reduce_perf at the same message sizes and dtype, comparing like "
                      "with like (nccl-tests' busbw = algbw x 2(n-1)/n; report algbw and busbw separately); a large "
                      "tmax beside a normal tmin is small-message jitter: run more warm-up/iterations to smooth "
                      "small-message timings, and pin CPU/NUMA affinity and rerun")
    selfwarn = [e for e in c.samples.get("benign", []) if e.data.get("what") == "self-declared warning"]
    if selfwarn:  # lead rule K: a handled warning, its program went on without the optional feature
        advice = selfwarn[0].data.get("advice")
        benign.append("the line that says it failed calls itself a warning ('To silence this warning'): the program "
                      "went on without that optional feature (it falls back to its default path, e.g. NCCL for a "
                      "custom all-reduce without P2P peer access), harmless by itself"
                      + (f"; to silence the warning: {advice}" if advice else "")
                      + "; if the job failed later, give the full log of that failure")
    whats = {e.data.get("what") for e in c.samples.get("benign", [])}
    rdzv = [e.data.get("restarts") for e in c.samples.get("benign", [])
            if e.data.get("what") == "elastic rendezvous complete"]
    if rdzv and not any(rdzv):  # lead rules K, T: torchrun's agent's first rendezvous round, no restart before it
        benign.append("torchrun's (torchelastic's) agent logged 'Rendezvous complete for workers' with "
                      "restart_count=0: the rendezvous completed on its first round and the agent went on to start "
                      "its worker group -- "
                      "no failure or restart, benign INFO output of the launcher, no action needed. The training's "
                      "own progress and errors are in the workers' own output (torchrun --log-dir DIR --redirects 3 "
                      "--tee 3 keeps each worker's stdout/stderr), not in the agent's INFO lines (shown with "
                      "LOGLEVEL=INFO); a restart_count above 0 in a later block would mean a worker failed and the "
                      "group was restarted")
    if "elastic worker succeeded" in whats:  # lead rules K, T: torchelastic's event of a worker that ran to its end
        benign.append("torchelastic's worker event with state SUCCEEDED (its agent's 'Local worker group finished "
                      "(SUCCEEDED)'): the worker group finished SUCCEEDED, the job completed successfully on this "
                      "node -- no action needed; a FutureWarning from torch/distributed/elastic/utils/store.py about "
                      "an experimental API beside it is benign and can be ignored. If the job then hangs on exit, the "
                      "agent waits (up to 300 s) at its exit barrier for the other nodes' agents: check the other "
                      "agent's logs and that every node uses the same rdzv settings (--rdzv-id, --rdzv-endpoint, "
                      "--nnodes)")
    if "nccl abort trail" not in whats and "nccl teardown trail" not in whats and any(
            st.counts.get("comm_aborted") for st in c.ranks.values()):
        # lead rules K, CJ (2): NCCL's "Abort COMPLETE" of its communicators with nothing failing shown -- the
        # process tore its communicators down by abort (at exit, or stopped by an error outside an NCCL-only log);
        # round 110's megatron-lm-duihuhu
        benign.append("NCCL's 'comm ... - Abort COMPLETE' lines are its communicators torn down by ncclCommAbort, "
                      "no failure of their own (the '[Service thread] Connection closed by localRank N' lines are "
                      "the same teardown): NCCL prints them whenever torch tears its communicators down at exit -- "
                      "destroy_process_group() (on torch 2.3 to 2.5 implemented with ncclCommAbort) or the process "
                      "group's destructor -- so they are harmless where the job finished; a job that did not "
                      "finish has its exception in each rank's own output: if the job did fail, read the "
                      "Python/torchrun output of each rank for the exception (not in the NCCL log)")
    # lead rule K: NCCL's set-up chatter alone; the fix says what to collect if the job hangs after it
    hangs = " " + _if_it_hangs(c) if _nccl_chatter(c) and not finished(c) else ""
    if not hangs and not finished(c) and not idle:  # lead rule T: a hang the reporter tells of, not shown by the lines
        hangs = (" If the job hung after these lines (nothing failed in them), collect stacks if it hangs, what "
                 "shows where each rank is: a py-spy dump of every rank's process while it hangs (py-spy dump --pid "
                 "PID: its stack; a py-spy dump if it hangs, before the job is killed), a Flight "
                 "Recorder dump (" + FR_ON + "), and every rank's log rerun with NCCL_DEBUG=INFO and "
                 "TORCH_DISTRIBUTED_DEBUG=DETAIL (a hang in set-up shows as the rank that never printed 'Init "
                 "COMPLETE'; with TORCH_DISTRIBUTED_DEBUG=DETAIL torch checks that every rank calls the same "
                 "collective) and a collective timeout set short enough to turn the hang into an error.")
    if c.nvls_info and not finished(c):  # lead rules K, T: NCCL set NVLS up in these lines; if it hung there
        hangs += _NVLS_HANG
    return Verdict(
        "none",
        "nothing in these lines is a failure" + (": " + "; ".join(benign) if benign else ""),
        _silent_mpi_tests(c) + ("; ".join(benign) + ". " if benign else "")
        + "Nothing to fix in these lines: they show no failure (start-up and INFO output is harmless)."
        + _nccl_info_words(c) + _coll_trace_words(c) + " If the job did fail, the failing lines "
        "are not in the input: give the logs of every rank (NCCL_DEBUG=WARN)." + hangs + _set_here(c),
        conf,
        [],
        _samples(c, "pg_not_destroyed") + _samples(c, "benign"),
    )


def _collective_results(c: Collected) -> str:
    """The fix words for a test script's prints of a collective's result, a line per rank under srun -l's tag
    (readers.exits' "collective result print"; lead rules K, CG (2); round 108's nersc-416584): where every rank
    printed one value for a collective they agree, the test worked; ranks that differ are named, with no failure
    read from them (an expert reads a wrong result from an error or a check, not from a print alone)."""
    seen = c.coll_results
    names = {"allreduce": "all-reduce", "allgather": "all-gather"}
    agree = [op for op, by in seen.items() if len(set(by.values())) == 1]
    differ = [op for op in seen if op not in agree]
    ranks = max((len(by) for by in seen.values()), default=0)
    # ranks below the highest that printed, or below the job's size where the lines give it, that printed no result:
    # a rank missing is what a rank stuck in the collective leaves (review b of round 108, finding 1)
    printed = set().union(*(set(by) for by in seen.values())) if seen else set()
    size = max(([max(printed) + 1] if len(printed) > 1 else []) + [n for n, _ in c.world if 0 < n <= 4096], default=0)
    missing = [r for r in range(size) if r not in printed]
    words = []
    if missing:
        named = ", ".join(str(r) for r in missing[:8]) + (" ..." if len(missing) > 8 else "")
        words.append(f"rank{'s' if len(missing) > 1 else ''} {named} printed no result (a rank stuck in the "
                     "collective prints none; the log may also be cut): if the job hung, take a py-spy dump (py-spy "
                     f"dump --pid PID) of rank {missing[0]}'s process while it hangs and every rank's log with "
                     "NCCL_DEBUG=INFO")
    if len(printed) == 1 and not missing:  # one rank's print: nothing to compare it with
        words.append(f"only rank {min(printed)} printed a result, so there is nothing to compare it with")
    if agree and not differ and ranks >= 2:
        ops = " and ".join(names.get(op, op) for op in agree)
        scope = f"all {ranks} ranks" if not missing else f"the {ranks} ranks that printed one"
        words.append(f"nothing failing: the {ops} results agree on {scope} (each rank's print of the "
                     "result is the same value; values that differ before a collective are each rank's own input)"
                     + ("; no action needed" if not missing else ""))
    elif differ:
        words.append("the " + " and ".join(names.get(op, op) for op in differ) + " results printed differ between "
                     "ranks and nothing failing is shown: check the collective's correctness with nccl-tests "
                     "(all_reduce_perf -c 1) and that every rank passed the same op, group and src")
    return "; ".join(words + ["if a later run hangs or fails, collect its full log with NCCL_DEBUG=INFO and a py-spy "
                              "dump of every rank if a run hangs"])


def _rank_prints(c: Collected) -> str:
    """The fix words for ranks' own prints of a tensor's values (readers.exits' "rank tensor print") where two ranks'
    first rows differ: with nothing failing that is none (lead rules K, T, CG (2); round 106's pytorch-76527), and the
    words say when ranks' buffers may rightly differ; prints that agree, or one rank's alone, add nothing."""
    seen: dict[int, str] = {}
    for e in c.samples.get("benign", []):
        if e.data.get("what") == "rank tensor print":
            seen.setdefault(e.data["printed_by"], e.data["value"])
    if len(seen) < 2 or len(set(seen.values())) < 2:
        return ""
    ranks = sorted(seen)
    after = {e.data["printed_by"]: e.data["value"] for e in c.samples.get("benign", [])
             if e.data.get("what") == "rank tensor print" and e.data.get("after_broadcast")}
    if len(after) >= 2 and len(set(after.values())) >= 2:
        # after a broadcast every member of its group holds src's value: ranks printing different values after it
        # did not take part (a group they are not members of, another src) -- nothing failing shown (lead rules K,
        # T, CG (2); round 107's pytorch-67600)
        shown = sorted(after)
        return (f"ranks {', '.join(map(str, shown[:-1]))} and {shown[-1]} print different tensor values after a "
                "broadcast, and nothing failing in these lines: after dist.broadcast every member of the group holds "
                "src's value, so a rank whose value did not change did not take part -- call the collective only on "
                "ranks that are members of the group (create the group with the ranks that will call the collective); "
                "a non-member gets GroupMember.NON_GROUP_MEMBER and the call returns without doing anything, and src "
                "must be a member of the group: check the src argument and the group passed to dist.broadcast, and "
                "run with NCCL_DEBUG=INFO and TORCH_DISTRIBUTED_DEBUG=DETAIL to see whether the broadcast ran"
                + ("; every rank prints device='cuda:0': call torch.cuda.set_device(local_rank) so each rank uses its "
                   "own GPU" if all("device='cuda:0'" in e.text for e in c.samples.get("benign", [])
                                    if e.data.get("what") == "rank tensor print") else ""))
    return (f"ranks {', '.join(map(str, ranks[:-1]))} and {ranks[-1]} print different tensor values, and nothing "
            "failing in these lines (no error, hang or check saying a value is wrong): ranks' buffers may rightly "
            "differ -- dist.reduce only gives the full result on dst; read it only on the dst rank (non-dst buffer "
            "contents are undefined after reduce; clone the input first), and use all_reduce if every rank needs "
            "the result; if an all_reduce disagrees, check collective correctness with nccl-tests -c 1")


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


def _one_rank_tests(field: list[dict] | None, v: Verdict, slow: list[Finding]) -> Verdict | None:
    """nccl-tests run with one rank per test (FLD002) and every table checked clean (no wrong value, 'Out of bounds
    values : 0'): nothing failed -- a bus bandwidth of 0 is what one rank prints (the bus factor (n-1)/n or 2(n-1)/n
    is 0 for n = 1), so nothing was measured between GPUs. One table is a run asked for one GPU (nGpus 1, no mpirun);
    several are independent one-rank jobs (a build without MPI=1 under mpirun). None when a table is not clean."""
    tests = [t for o in field or [] if str(o.get("format", "")).startswith("nccl-tests")
             for t in o.get("tests") or [] if isinstance(t, dict)]
    # checked clean: its closing 'Out of bounds values : 0 OK' (nccl-tests' own count of sizes with a wrong value,
    # read even where a paste cut its result rows), or result rows with no wrong value where that line is not shown
    if not tests or any(t.get("ranks", 0) > 1 or t.get("wrong_sizes") or not (
            t.get("out_of_bounds") == 0 or (t.get("sizes") and t.get("out_of_bounds") is None)) for t in tests):
        return None
    hosts = sorted({h for t in tests for h in t.get("hosts") or []})
    where = f" on {', '.join(hosts[:3])}" if hosts else ""
    how = (f"nccl-tests ran with one rank (one process, one GPU{where})" if len(tests) == 1 else
           f"nccl-tests ran as {len(tests)} independent one-rank jobs{where}, each its own table of 'Rank 0' (a "
           "build without MPI=1 launched under mpirun)")
    return Verdict(
        "none",
        f"no failure in these lines: {how}, and nccl-tests' own check found no wrong value ('#wrong' 0, 'Out of "
        "bounds values : 0 OK'); a bus bandwidth of 0 is what one rank "
        "prints -- the bus factor (n-1)/n or 2(n-1)/n is 0 for n = 1 -- so nothing was measured between GPUs",
        "Nothing failing: nccl-tests' validation passed (#wrong 0) and busbw 0 is expected with one rank. To test "
        "communication, run it over more than one GPU/rank: one process driving N GPUs (-g N, e.g. "
        "./build/all_reduce_perf -b 8 -e 1G -f 2 -g 2) or one process per GPU (mpirun -np N with nccl-tests built "
        "with make MPI=1 MPI_HOME=...: without MPI=1 every process under mpirun is its own one-rank job printing "
        "'Rank 0' and busbw 0); add NCCL_DEBUG=INFO to see which transport (P2P, SHM, NET) carries the data.",
        v.confidence, [], [f.message[:200] for f in slow[:2]])


def settle(v: Verdict, findings: list[Finding], field: list[dict] | None = None) -> Verdict:
    """The verdict once every finding is known: 'nothing failed' never stands beside an error
    from another reader (a field output such as a failed nccl-tests run); it points at it. An nccl-tests
    table (``field``: fieldformats' summaries) that completed clean is said, with what to collect if the
    host hangs while it runs (lead rule T: a hang the lines do not show)."""
    bad = [f for f in findings if f.severity == Severity.ERROR]
    if v.cause != "none":
        return v
    slow = [f for f in findings if f.severity == Severity.WARNING and f.code.startswith(("BW", "FLD"))]
    if not bad and slow and all(f.code == "FLD002" for f in slow) and (one := _one_rank_tests(field, v, slow)):
        return one
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
            "busbw of a clean run is the baseline to compare later runs with. If the bandwidth is the concern, "
            "check the GPU link with nvidia-smi topo -m and nvidia-smi nvlink -s, and rerun with NCCL_DEBUG=INFO "
            "NCCL_DEBUG_SUBSYS=INIT,GRAPH to see the topology and channels NCCL chose.",
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


def _named_host(c: Collected) -> str:
    """The fix's words where a retried store-client warning names a host by name, not an address (lead rules K, L, N;
    round 86's fedlab-299: this machine's name resolving to Docker Desktop's kubernetes.docker.internal entry): the name
    resolves here, through the hosts file (or DNS, a VPN), to an address of which one is not usable. '' where every
    warning names an address."""
    for e in c.samples.get("benign", []):
        m = R_WIN_CONNECT_WARN.search(e.text) if e.data.get("what") == "Windows store connect warning" else None
        host = m.group("host") if m else ""
        if host and not _is_address(host) and host.lower() != "localhost":
            return (f"; [{host}] is a host name: it resolves on this machine (the hosts file -- C:\\Windows\\System32\\"
                    "drivers\\etc\\hosts or /etc/hosts, where Docker Desktop maps kubernetes.docker.internal / "
                    "host.docker.internal to the machine's own address -- or DNS, a VPN) to an address the client "
                    "could not use, and the client goes on with the next: to quiet it, set MASTER_ADDR to 127.0.0.1 "
                    "on one machine (or the host's reachable address) or fix that hosts file entry: set "
                    "MASTER_ADDR=127.0.0.1 (or localhost) instead of the machine's hostname on one machine, or make "
                    "the hostname resolve to a reachable IPv4 address (hosts file / DNS)")
    return ""


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True
