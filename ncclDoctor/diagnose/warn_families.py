"""NCCL's WARN messages by family: what each family of its failure texts means, so that a
message diagnose has no specific reasoning for still gets its cause class and fix.

The families are written from NCCL's own ``WARN(...)`` calls (NVIDIA/nccl 5067397, master
after v2.30.7-1, and v2.21.5-1: src/os/linux.cc, src/misc/socket.cc, bootstrap.cc, init.cc,
enqueue.cc, proxy.cc, transport/p2p.cc, transport/net_ib/*), not from reports: each pattern
covers every template of its family, in the wordings of both versions. The templates,
with their sources and what an expert concludes, are tests/fixtures/log_templates/
templates.yaml; ``benchmarks/bench_diagnose_templates.py`` measures how many of them
diagnose recognises.

``classify(text)`` returns the first family whose pattern the text holds, or None. The
verdict (``verdict.nccl._warn_family``) runs after the specific detectors (IB completions,
/dev/shm, sockets, hangs), which reason further from the same lines, and before the
generic "NCCL reported a system error".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_NET_FIX = ("Set NCCL_SOCKET_IFNAME (and GLOO_SOCKET_IFNAME) to the interface the nodes reach each other on "
            "(ip -br addr; e.g. NCCL_SOCKET_IFNAME==eth0, or ^docker,lo,veth); check the firewall lets the ports "
            "through (nc -zv PEER PORT); rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET to see the choice.")


# NCCL unable to dlopen the driver's NVML library (misc/nvmlwrap.cc: "NCCL WARN Failed to open libnvidia-ml.so.1",
# or the same words as an error's Last error): the "nvml_unloadable" family below, and verdict.nccl's reading of it
R_NVML_UNLOADABLE = re.compile(r"\bFailed to open libnvidia-ml\.so(?:\.\d{1,3})?\b")
# aws-ofi-nccl's own words for failing to start (no usable EFA provider): its "ofi_init" family below where EFA was
# meant, harmless otherwise (verdict.noise.R_OFI_INIT, lead rule Z)
# (nccl_net_ofi_create_plugin's "Failed to initialize sendrecv protocol" / "... rdma protocol" and nccl_net_ofi_init's
# "Initializing plugin failed" are its later releases' words for the same start failing, and its 1.1x releases'
# "Unable to find a protocol that worked.  Failing initialization." after "No eligible providers were found":
# round 71's gpustack-5553)
OFI_START_FAILED = (r"Only EFA provider is supported|aws-ofi-nccl initialization failed|OFI fi_getinfo\(\) call failed|"
                    r"Couldn't find any optimal provider|Failed to initiali[sz]e \w{1,16} protocol|"
                    r"Initiali[sz]ing plugin failed|Unable to find a protocol that worked")

@dataclass(frozen=True)
class Family:
    name: str
    cause: str
    pattern: re.Pattern
    meaning: str
    fix: str
    job_wide: bool = False  # no single rank causes it (the ranks' shared views): whoever printed it first is no culprit


FAMILIES = (
    Family(
        # net.cc / init.cc: "Error: network %s not found." -- NCCL_NET names a network (gIB, AWS Libfabric, IB) no
        # loaded net plugin or built-in transport provides, and init unwinds with ncclInvalidUsage (the bare "-> 5"
        # trail is not the text: lead rule AZ (2)). The job chose the fabric meant to carry it and its plugin is not
        # there (lead rules Z, AX (1)): network_setup, the setting every rank shares (round 70, gpu-recipes' gIB)
        "net_not_found", "network_setup",
        re.compile(r"Error ?: ?network \S[^\n]{0,62}? not found"),  # a name may hold a space: "AWS Libfabric"
        "NCCL_NET asks NCCL for a network that no loaded net plugin (or built-in transport) provides, so NCCL "
        "refuses to create the communicator: the net plugin for the fabric the job was meant to run over is not "
        "loaded in these processes (not installed or not mounted into the container, not on LD_LIBRARY_PATH, or "
        "NCCL_NET_PLUGIN names another), a setting every rank shares, not a rank",
        "Load the net plugin the job asks for, or stop asking for it: make the plugin's library visible to every "
        "process (for GCP's gIB: mount /usr/local/gib into the container, LD_LIBRARY_PATH=/usr/local/gib/lib64 and "
        "source its set_nccl_env.sh; for EFA: aws-ofi-nccl, LD_LIBRARY_PATH /opt/amazon/ofi-nccl/lib), set "
        "NCCL_NET_PLUGIN to it where its name differs, or unset NCCL_NET (NCCL_NET=Socket / IB for NCCL's own); "
        "rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET to see which net plugin NCCL loads ('Using network "
        "...').",
        job_wide=True),
    Family(
        "connect_retries", "network_setup",
        # socket.cc's socketPollConnect is only ever a connect in progress: "SocketPollConnect to ADDR failed", and its
        # poll() seeing the socket never become writable ("socketPollConnect poll() returned 1, no POLLOUT events",
        # NCCL 2.2x: the connect to the peer's listener did not complete), lead rule L
        re.compile(r"exceeded (?:error )?retr(?:ies|y count)|exceeded timeouts|SocketPollConnect to \S+ failed|"
                   r"[Ss]ocketPollConnect:? poll\(\) (?:returned|failed)"),
        "NCCL's connection to a peer at set-up failed on every retry: the address it connects to is not "
        "reachable from this node (wrong interface, firewall, or the peer never listened)",
        _NET_FIX),
    Family(
        "bootstrap_timeout", "network_setup",
        # the bootstrap's own sockets waiting out their timeout at set-up ("bootstrap.cc:89 ... Timeout waiting for
        # incoming connection (waited 120 sec)", socket.h's "Timeout waiting for RX (waited 120 sec) - retrying"; the
        # NCCL-derived collective libraries print NCCL's words): the ranks' bootstrap connections to each other never
        # came up before any collective ran, which names no rank absent or broken (lead rules L, O)
        re.compile(r"Timeout waiting for (?:incoming connection|connection|RX|TX)\b"),
        "the collective library's bootstrap connections between the ranks timed out at set-up (a rank waited for its "
        "peers' incoming connection or data and none came): the connections between the workers, not one rank",
        "Check that every worker started and reached init (as many as --nproc_per_node x nodes; a worker still "
        "compiling arrives late: precompile, e.g. neuron_parallel_compile), that the network interface they bootstrap "
        "on is reachable between them (NCCL_SOCKET_IFNAME; the firewall's ports), and the limits many processes per "
        "node hit: the open-file limit (ulimit -n) and the socket listen backlog (net.core.somaxconn); rerun with "
        "NCCL_DEBUG=INFO (NEURON_RT_LOG_LEVEL=INFO for Neuron's CCOM) to see which bootstrap connection timed out, "
        "or with fewer processes per node to confirm."),
    Family(
        "no_interface", "network_setup",
        re.compile(r"[Nn]o (?:usable listening |socket |IP )?interface found|No interface found in the same subnet|"
                   r"no device found (?:matching|after excluding)|verify NCCL_\w*IFNAME"),
        "NCCL found no network interface to use: NCCL_SOCKET_IFNAME (or NCCL_OOB_NET_IFNAME) names an interface "
        "this node does not have, or none is in the peers' subnet",
        "List the interfaces with `ip -br addr` on every node and set NCCL_SOCKET_IFNAME to the one that carries "
        "MASTER_ADDR's subnet (a prefix such as eth matches eth0, eth1; =eth0 matches exactly; ^ excludes)."),
    Family(
        "gpu_p2p", "network_setup",
        re.compile(r"failed to peer with device|peer access is not supported|cudaIpc\w+ failed|"
                   r"P2P (?:is )?not (?:supported|available)"),
        "GPU peer-to-peer / CUDA IPC between the GPUs of one node failed: the GPUs cannot map each other's memory "
        "(PCIe ACS or an IOMMU in the way, a VM, or containers that do not share the IPC namespace)",
        "Check `nvidia-smi topo -p2p r` and ACS/IOMMU settings; run containers with --ipc=host; NCCL_P2P_DISABLE=1 "
        "works around it (slower) and tells whether P2P is the cause."),
    Family(
        # init.cc's config check "Invalid config %s attribute value %d" with NCCL_CONFIG_UNDEF_INT (INT_MIN): the
        # caller's ncclConfig_t initializer (NCCL >= 2.17's headers, torch's build) leaves the field "unset", which
        # only a library as new understands: an older libnccl.so was loaded than the one torch was built against
        "config_undef", "nccl_internal",
        re.compile(r"[Ii]nvalid config \w+ attribute value -2147483648"),
        "NCCL rejected the 'unset' value (-2147483648, NCCL_CONFIG_UNDEF_INT) of a communicator config field: the "
        "libnccl.so loaded at run time is older than the NCCL version torch was built against",
        "Make the loaded NCCL the one torch expects: python -c 'import torch; print(torch.cuda.nccl.version())' vs "
        "the 'NCCL version' line; remove the stale libnccl (a system or conda one) from LD_LIBRARY_PATH so the "
        "pip nvidia-nccl-cu* wheel's is used, or install the matching version."),
    Family(
        # bootstrap.cc: the root seeing one rank twice, or ranks that disagree on the world size: the launch handed
        # two processes the same global rank (or different world sizes), so the communicator can never complete
        "duplicate_rank", "invalid_usage",
        # NCCL <= 2.8's root: "Bootstrap Root : mismatch in rank count from procs 6 : 3" (its nranks : the caller's)
        re.compile(r"has already checked in|mismatch in (?:info|rank count) from procs"),
        "NCCL's bootstrap root saw the same rank check in twice (or ranks that disagree on the number of ranks): two "
        "processes were given one global rank, or the world size differs between them -- a launch error, no rank's "
        "fault",
        "Give every process a unique rank per process: a duplicate global rank comes from the node rank (each "
        "node's NODE_RANK / node_rank, SLURM_NODEID under srun) or from a launcher starting another number of "
        "processes per node than it was told (srun --ntasks-per-node = devices per node, the num_nodes/devices of "
        "the trainer); global rank = node_rank * gpus per node + local_rank. Kill stale processes of an earlier run "
        "still on MASTER_PORT, and print RANK/WORLD_SIZE/LOCAL_RANK in each process to see the two that collide; "
        "'mismatch in rank count from procs A : B' is processes told different world sizes: give every process the "
        "same WORLD_SIZE (init_process_group's world_size), equal to the number of processes actually started.",
        job_wide=True),
    Family(
        # argcheck.cc's PtrCheck on the communicator itself ("CommUserRank : comm argument is NULL", "Send : comm
        # argument is NULL"): the call was handed no communicator at all -- it was never created (the library's or
        # the process group's NCCL set-up did not run in this path, or its init failed and left it NULL). Still
        # NCCL refusing the call (lead rules Q, W): invalid_usage, the code every rank runs, no rank named
        "null_comm", "invalid_usage",
        re.compile(r"\bcomm argument is NULL"),
        "NCCL refused a call made with a NULL communicator (ncclInvalidArgument, 'comm argument is NULL'): the NCCL "
        "communicator the call was given was never created -- the set-up that creates it did not run before the call "
        "(or failed and left it NULL), not a buffer or a rank's fault",
        "Create the NCCL communicator before the first call that uses it: init_process_group(backend='nccl') with the "
        "right world_size on every process, and any library that calls NCCL itself (a CUDA extension's own "
        "communicator, taken from the process group by its set-up call) must run that set-up first; a single GPU "
        "run (world_size 1) needs no NCCL communicator -- take the library's path without NCCL (build it without "
        "NCCL support) or launch it under torchrun with init_process_group. If an earlier NCCL error is shown (the "
        "communicator's init failing), that error is the cause. NCCL_DEBUG=WARN shows which call got the NULL "
        "communicator."),
    Family(
        # argcheck.cc's checks of one call's arguments ("%s : %s %p is not a valid pointer" for sendbuff/recvbuff,
        # "%s : invalid root %d (root should be in the 0..%d range)", "%s : invalid type %d", "%s : invalid Reduction Op
        # %d", "%s : %s argument is NULL"): NCCL refused the buffers or values the application passed to one
        # collective (lead rule W: NCCL refusing the call) -- the caller's tensor, no rank the lines can name
        "call_arguments", "invalid_usage",
        re.compile(r"\b(?:send|recv)?buff \S{1,20} is not a valid pointer|: invalid (?:root|type|Reduction Op|redop|"
                   r"datatype|count) -?\d|\w+ argument is NULL"),
        "NCCL refused the arguments of one collective call (ncclInvalidArgument): a buffer that is no valid device "
        "pointer (NULL: an empty or unallocated tensor, or host memory), a root outside the ranks, or an unknown data "
        "type or reduction -- what the application passed, not the network",
        "Check the tensor passed to that collective on the rank that sends it (the src/root of a broadcast): an "
        "empty tensor (numel 0) or one not allocated has a NULL data pointer (sendbuff (nil)); it must be a "
        "contiguous tensor on the GPU of this rank (tensor.cuda(), torch.cuda.set_device(local_rank)), with a src "
        "inside the group and a dtype NCCL supports. TORCH_DISTRIBUTED_DEBUG=DETAIL checks the collectives' "
        "arguments across ranks; NCCL_DEBUG=WARN prints NCCL's own check, CUDA_LAUNCH_BLOCKING=1 the failing call."),
    Family(
        # init.cc's ncclCommEnsureReady: "Attempt to use communicator before the previous operation returned
        # ncclSuccess" -- the communicator's async error is already set (an earlier NCCL call failed, or a non-blocking
        # init never finished), and the call returns that earlier error. It is the aftermath: the first failure, and
        # which rank hit it, are not in this line (round 31's adjudication: unknown, nobody named)
        "comm_already_failed", "unknown",
        re.compile(r"Attempt to use communicator before the previous operation"),
        "NCCL refused a call because the communicator had already failed: an earlier NCCL operation on it (its "
        "communicator init, or a collective whose error was not checked) did not return ncclSuccess, and this call "
        "only hands that earlier error back -- the first error, and which rank hit it, are not in these lines",
        "Find the first error: rerun with NCCL_DEBUG=INFO (NCCL_DEBUG_SUBSYS=INIT,NET) and read every rank's log from "
        "the start, before this line -- the communicator init or the earlier NCCL / async error on the communicator "
        "is the cause (the ranks whose connections closed first are where to look); check each NCCL call's return "
        "code (ncclCommGetAsyncError) so that a failed one is not followed by more calls.",
        job_wide=True),
    Family(
        # misc/nvmlwrap.cc: every NVML call NCCL makes that fails is "WARN %s() failed: %s" and returns
        # ncclSystemError: NVML (the driver's management library) could not see or query a GPU -- a peer's GPU
        # another container hides (two containers on one host that NCCL takes for one node), an NVML/driver version
        # mismatch, a GPU fallen off the bus -- the host's or container's view, no rank's fault
        "nvml", "nccl_system",
        re.compile(r"\bnvml[A-Z]\w*\(\) failed"),
        "an NVML call inside NCCL failed (ncclSystemError): the driver's management library could not find or query "
        "a GPU NCCL asked about -- a peer's GPU this process's container cannot see (ranks of one host split over "
        "containers, which NCCL takes for one node), or NVML and the driver out of step",
        "Compare what each rank's container sees (nvidia-smi, CUDA_VISIBLE_DEVICES / NVIDIA_VISIBLE_DEVICES) with the "
        "busIds of the ranks' Init lines: run the ranks of one host in one container (or pass every GPU into each), "
        "or give each container its own NCCL_HOSTID so that NCCL does not treat the others as local peers "
        "(NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 as a test); check the NVML / driver version (nvidia-smi works, "
        "libnvidia-ml matches the driver) and dmesg for a GPU that fell off the bus; upgrade NCCL if it persists.",
        job_wide=True),
    Family(
        "usage", "invalid_usage",
        re.compile(r"Invalid rank requested|improper usage of ncclCommInit|"
                   r"Trying to (?:send|recv) to self without|[Ii]nvalid (?:device|config \w+ attribute)|"
                   r"invalid device count|rank \d+ exceeds ndev|not initialized via NCCL_CONFIG_INITIALIZER|"
                   r"Data type supplied to user-created ncclRedOp_t|communicator was revoked|"
                   # NCCL states its usage rules with "must": "total ranks must be positive", "Streams given to a
                   # communicator within a NCCL group must either be all uncaptured or ...", "count must be 0"
                   r"\bmust (?:either )?(?:be|pass|not)\b|should not be called"),
        "NCCL rejected a call as invalid (ncclInvalidUsage): the arguments are wrong for this communicator "
        "(a rank outside the world size, a send to itself without a receive, a communicator used after an error)",
        "Check RANK/WORLD_SIZE/LOCAL_RANK as each process sees them and that no collective runs after a failed "
        "one; TORCH_DISTRIBUTED_DEBUG=DETAIL checks the collectives' arguments across ranks."),
    Family(
        # init.cc/enqueue.cc: "NCCL cannot be captured in a graph if either it wasn't built with CUDA runtime >= 11.3
        # or if the installed CUDA driver < R465", and the driver-version checks of other builds
        "build_vs_driver", "nccl_internal",
        re.compile(r"(?:wasn't|was not|not) built with CUDA(?: runtime)? ?>=|installed CUDA driver ?<|"
                   r"CUDA driver (?:version )?is (?:insufficient|too old|older than)"),
        "the NCCL library loaded does not match this machine's CUDA: it was built for another CUDA runtime than the "
        "driver and toolkit here (the 'NCCL version 2.x+cudaY' line), or the driver is older than it needs",
        "Compare NCCL's 'NCCL version 2.x+cudaY' line (NCCL_DEBUG=VERSION) with torch.version.cuda and the driver "
        "(nvidia-smi); reinstall torch, or the nvidia-nccl-cu* wheel, built for your CUDA so that the NCCL version "
        "matches it (a wheel for cu11.8/cu12.x, not one built for 11.0), or update the driver."),
    Family(
        "versions_topology", "nccl_internal",
        re.compile(r"Mismatched NCCL version|mixed local (?:Coll)?Net device counts|[Vv]ersion mismatch"),
        "the ranks disagree on NCCL itself: different NCCL versions, or nodes that see different numbers of NICs "
        "(a node lost an HCA, or the nodes are not alike)",
        "Run one torch/NCCL build on every node (python -c 'import torch; print(torch.cuda.nccl.version())'); "
        "compare the NICs per node (ibstat, ibv_devinfo) and drain a node with a missing one."),
    Family(
        # graph/rings.cc "Error : ring %d does not loop back to start (%d != %d)", "Error : ring %d does not contain
        # rank %d"; graph/trees.cc and connect.cc's ring/tree checks: the ranks' views of the topology disagree
        "graph_inconsistent", "nccl_internal",
        re.compile(r"ring \d+ does not (?:loop back|contain rank)|(?:ring|tree) \d+ .*(?:inconsistent|mismatch)"),
        "the ranks disagree about the topology NCCL built its rings/trees from: which ranks share a host (two "
        "containers with one host identity, NCCL_HOSTID set alike or inconsistently) or a different topology/graph "
        "file per node",
        "Unset NCCL_HOSTID (or make it unique per node) and NCCL_TOPO_FILE/NCCL_GRAPH_FILE unless made for these "
        "nodes; give every node's container its own hostname; compare the ring lines of NCCL_DEBUG=INFO "
        "NCCL_DEBUG_SUBSYS=INIT,GRAPH across ranks to see where the topology differs. With clean settings it is "
        "NCCL's own topology detection (2.19 read uninitialised PCI link speeds, fixed in 2.20): upgrade NCCL and "
        "run one NCCL version on every node.", job_wide=True),
    Family(
        # graph/paths.cc "Failed to find reverse path from remNode %d/%lx nlinks %d to node %d/%lx": the topology graph
        # NCCL built has a link (GPU-NIC, PCI switch) with no way back -- a PCI tree NCCL misreads (VMs: virtual
        # buses, NVLink or C2C it does not know), a bug of its topology code fixed in later versions
        "topology_paths", "nccl_internal",
        re.compile(r"Failed to find reverse path from"),
        "NCCL's topology search found a link with no path back in the machine's topology graph: the PCI/NVLink tree "
        "it read (a VM's virtual buses, devices it does not know) is not one its path code handles -- a topology "
        "detection problem of this machine type, no rank's fault",
        "Upgrade NCCL (or RCCL) first: several topology-path bugs of this kind are fixed in later versions; otherwise "
        "give it the machine's topology (NCCL_TOPO_FILE=<xml>, the VM vendor's topology file) and compare "
        "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,GRAPH (or NCCL_TOPO_DUMP_FILE) with nvidia-smi topo -m.",
        job_wide=True),
    Family(
        # misc/cudawrap.cc (NCCL >= 2.13): "Failed to find CUDA library libcuda.so (NCCL_CUDA_PATH='') : libcuda.so:
        # cannot open shared object file": NCCL's dlopen of the CUDA driver library at start-up, before any CUDA
        # call. Lead rule AT (1): an unloadable shared install every rank fails alike (rule AF (2)), config, no rank;
        # cuda_error needs a CUDA call shown failing ("Cuda failure", a stub library), which other detectors read
        "cuda_driver_unloadable", "config",
        re.compile(r"Failed to find CUDA library|cudawrap\.cc:\d{1,5}.{0,80}\b(?:dlopen|libcuda\b)"),
        "NCCL could not load the CUDA driver library (libcuda.so) at start-up: the loader does not find the NVIDIA "
        "driver's libcuda.so on its path -- the node's driver install / loader path, which every rank shares, not a "
        "rank",
        "Put the NVIDIA driver's libcuda.so on the loader path: on WSL2 it lives in /usr/lib/wsl/lib (export "
        "LD_LIBRARY_PATH=/usr/lib/wsl/lib:$LD_LIBRARY_PATH, or ldconfig that directory); elsewhere find it with "
        "ldconfig -p | grep libcuda (a container needs the NVIDIA container runtime to mount it), or point "
        "NCCL_CUDA_PATH at it; check the NVIDIA driver is installed (nvidia-smi).",
        job_wide=True),
    Family(
        # misc/nvmlwrap.cc: "Failed to open libnvidia-ml.so.1" (a WARN, or an ncclSystemError's Last error): NCCL's
        # dlopen of the driver's NVML library at communicator creation, before any NVML call. Lead rule AT (1) as read
        # in session 46: NCCL unable to load a driver library (libcuda.so above, libnvidia-ml.so.1 here, both the
        # driver's) is rule AF (2)'s unloadable shared install every rank fails alike, config, no rank (round 109's
        # nccl-tests-320; round 30's llamafactory-6161 relabelled). NVML calls failing once loaded stay "nvml" below
        "nvml_unloadable", "config",
        R_NVML_UNLOADABLE,
        "NCCL could not load the NVIDIA driver's NVML library (libnvidia-ml.so.1) at start-up: the loader does not "
        "find the driver's libnvidia-ml.so.1 on its path -- the node's driver install / loader path (or the "
        "container's driver mounts), which every rank shares, not a rank",
        "Install the NVIDIA driver's NVML library (libnvidia-ml.so.1) or fix the driver installation (nvidia-smi "
        "works but NCCL cannot dlopen libnvidia-ml.so.1: check the CUDA / driver installation); add the directory "
        "holding libnvidia-ml.so.1 to LD_LIBRARY_PATH / ldconfig (ldconfig -p | grep libnvidia-ml), or "
        "LD_PRELOAD=<that directory>/libnvidia-ml.so.1; in containers, mount the driver libraries "
        "(nvidia-container-toolkit, --gpus all); check that nvidia-smi runs on that host, match the NCCL build to "
        "the installed driver, and rerun with NCCL_DEBUG=INFO to confirm NVML loads.",
        job_wide=True),
    Family(
        # misc/cudawrap.cc (NCCL >= 2.13): "Retrieve cuDeviceGet failed with 0 status 1", "CUDA some PFN functions not
        # found in the library": NCCL's lookup of the CUDA driver's entry points (cuGetProcAddress) at start-up came
        # back empty -- the driver library the process loaded, or an interposer preloaded in front of it (HAMi-core's
        # libvgpu.so vGPU hook), does not hand them out. No CUDA call's own failure: lead rules AT (1), CH (1)'s
        # shared install every process loads, config, no rank
        "cuda_driver_entry_points", "config",
        # NCCL's other cudawrap builds and NVSHMEM word it "Retrieve cuX version N failed [with R [status S]]"
        # (review 107 finding 4)
        re.compile(r"\bRetrieve cu[A-Z]\w{1,60}(?: version \d{1,6})? failed(?: with -?\d{1,6}(?: status -?\d{1,6})?)?|"
                   r"\bsome PFN functions not found in the library"),
        "NCCL could not retrieve the CUDA driver's entry points (cuGetProcAddress) at start-up: the CUDA driver "
        "library the processes load -- or a vGPU / GPU-sharing interposer preloaded in front of it (HAMi-core's "
        "libvgpu.so) -- does not return them; the shared install every process loads, not a rank",
        # the driver library first; the vGPU hook only where the pod preloads one (review 107 finding 4)
        "Check the CUDA driver library the processes load: libcuda.so must be the host driver's own (not a stub or a "
        "container's compat copy of another version: ldconfig -p | grep libcuda), and the driver must support the "
        "CUDA NCCL was built with (nvidia-smi; a newer driver, or an NCCL / CUDA build that driver supports). If the "
        "pod preloads a vGPU hook (HAMi-core's libvgpu.so): upgrade HAMi / libvgpu.so to a version whose "
        "cuGetProcAddress hook returns cuDeviceGet and the other driver entry points; disable the HAMi vGPU hook "
        "(LD_PRELOAD libvgpu.so; CUDA_DISABLE_CONTROL=true) to test; check dmesg for a segfault in libvgpu.so, and "
        "match the NVIDIA driver, CUDA and NCCL versions with the HAMi release (an NCCL version compatible with the "
        "vGPU interposer).",
        job_wide=True),
    Family(
        # MSCCL's executor (a fork of NCCL) parses the algorithm files it loads at communicator creation with NCCL's
        # own XML code (include/msccl/msccl_parser.h): "Attribute minBytes of node algo not found" there is the
        # algorithm XML lacking a field, not the topology. Lead rule AT (3): nccl_internal, culprits [] (config only
        # where the lines show the variable pointing at that file set wrong)
        "algorithm_xml", "nccl_internal",
        re.compile(r"\bmsccl\w{0,20}\.\w{1,4}:\d+|\bMSCCL\b.{0,80}\b(?:XML|algo)\b.{0,80}(?:not found|fail)|"
                   r"Attribute \w{1,40} of node (?:algo|tb|step)\b"),
        "MSCCL could not read an algorithm XML file it loads at communicator creation: the file lacks an attribute "
        "its executor's parser requires (minBytes, maxBytes, outofplace of the <algo> node), so every rank that "
        "loads it fails alike",
        "Check the MSCCL algorithm XML files in the msccl-algorithms directory (MSCCL_XML_FILES / the build's "
        "default): regenerate them with the msccl-tools version matching the MSCCL executor version so that each "
        "<algo> node carries its minBytes / maxBytes / outofplace attributes; disable MSCCL to confirm "
        "(MSCCL_ENABLE=0, or remove the algorithm files) that NCCL's own algorithms work.",
        job_wide=True),
    Family(
        # the same graph/xml.h WARN for a NIC node of the topology ("Attribute busid of node nic not found"): a network
        # device NCCL detected without the PCI attributes its topology needs -- a virtual NIC (a docker / veth bridge,
        # a VM's or WSL's interface) or NCCL_TOPO_FILE's <nic> -- so the fix is the NIC NCCL picks, not the <cpu>
        # node's; lead rule AT (3): nccl_internal, culprits [] (round 108's nemo-compatible-20)
        "topology_nic", "nccl_internal",
        re.compile(r"Attribute \w+ of node (?:nic|net)\b not found"),
        "NCCL could not read a NIC node of its topology: a network device it detected (or NCCL_TOPO_FILE describes) "
        "lacks an attribute the topology needs, such as the PCI bus id a virtual NIC does not have",
        "Run with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,GRAPH to see which NIC is detected; exclude the virtual NIC "
        "without a PCI busid: NCCL_SOCKET_IFNAME / NCCL_IB_HCA to the real device, or NCCL_IB_DISABLE=1 / "
        "NCCL_NET=Socket where there is no real IB NIC (a VM, WSL, a container's bridge); if NCCL_TOPO_FILE is set, "
        "provide a correct NCCL_TOPO_FILE or unset a bad one; otherwise try a newer NCCL (a torch build with a newer "
        "NCCL) in case it is a topology-detection bug of the version in use."),
    Family(
        # graph/xml.h "Attribute %s of node %s not found" (xmlGetAttrStr...): the topology XML NCCL reads
        # (NCCL_TOPO_FILE) or builds lacks a field; NCCL < 2.8 also failed so on a CPU socket without a used GPU
        "topology_xml", "nccl_internal",
        re.compile(r"Attribute \w+ of node \w+ not found|graph/xml\.\w+:\d+|[Cc]ould not (?:parse|load) (?:the )?"
                   r"(?:topology|XML)"),
        "NCCL could not read the topology XML it works from: an attribute is missing in the file NCCL_TOPO_FILE "
        "points to (or, before NCCL 2.8, in the topology it built itself for a CPU socket without a used GPU)",
        "If NCCL_TOPO_FILE is set, check the file (every <cpu> node needs arch, vendor, familyid, modelid as "
        "NCCL_TOPO_DUMP_FILE writes them) or unset it; otherwise upgrade NCCL (2.8 fixed the topology detection "
        "bug behind 'Attribute arch of node cpu not found')."),
    Family(
        # init.cc's hang hint (2.2x+): "Your program may be hanging, this may be caused by a collective mismatch
        # around rank %d. Please check your collective calls at and around this rank." -- data of a size no posted
        # operation expects arrived: the ranks issued different collectives; the rank it names is only where to look
        "collective_mismatch", "desync",
        re.compile(r"may be caused by a collective mismatch|collective mismatch around rank \d+|"
                   r"check your collective calls at and around"),
        "NCCL saw data no posted operation expects and says the program may hang from a collective mismatch: the "
        "ranks issued different collectives (another op, size or order) at this point; the rank it names is "
        "where to look, not proven to be the one that took the odd path",
        "Check the collectives at and around the rank NCCL names: rerun with NCCL_DEBUG=INFO "
        "NCCL_DEBUG_SUBSYS=COLL (each rank's op, count and datatype) or TORCH_DISTRIBUTED_DEBUG=DETAIL, and look "
        "for code that only some ranks run (validation, checkpoint saving or logging under `if rank == 0`); every "
        "rank must issue the same collectives in the same order.", job_wide=True),
    Family(
        # enqueue.cc / tuning (topoGetAlgoInfo, getAlgoInfo): "Error : no algorithm/protocol available for function F
        # with datatype T.[ NCCL_ALGO was set to X.][ NCCL_PROTO was set to Y.]" (NCCL 2.7's "Error : no
        # algorithm/protocol available" without the rest; 2.27's "No algorithm/protocol nor symKernelId available").
        # NCCL returns ncclInvalidUsage when NCCL_ALGO / NCCL_PROTO is set and ncclInternalError when neither is: a
        # setting's by default (lead rules Q, V), read by the code the lines show it returning in
        # verdict.nccl._no_algorithm_internal (rules AK (2), BO (3): ncclInternalError with no setting shown)
        "no_algorithm", "config",
        re.compile(r"[Nn]o algorithm/protocol (?:nor symKernelId )?available"),
        "NCCL's tuner found no algorithm/protocol for this collective: an NCCL_ALGO / NCCL_PROTO setting (or an "
        "optional algorithm a setting forces) rules out every implementation NCCL has for it",
        "Fix or unset the NCCL_* variable the line names (NCCL_ALGO/NCCL_PROTO restrictions: NCCL_ALGO=CollNet "
        "needs a CollNet/SHARP plugin, NVLS an NVSwitch system; NCCL_COMM_ID's <host>:<port> form); `ncclDoctor "
        "env` lints the whole environment."),
    Family(
        "settings", "config",
        re.compile(r"Invalid NCCL_\w+|"
                   r"NCCL_\w+=\S* is (?:out of range|being ignored)|please use format|No valid \S+ pair found|"
                   r"Try selecting NICs of only one|(?:[Uu]se|[Ss]et|[Uu]nset|[Ii]ncrease|[Dd]ecrease) NCCL_\w+"),
        "an NCCL_* setting is invalid, or NCCL names the "
        "setting that avoids the failure (e.g. NCCL_IB_HCA to select NICs of one link type)",
        "Fix or unset the NCCL_* variable the line names (NCCL_ALGO/NCCL_PROTO restrictions: NCCL_ALGO=CollNet "
        "needs a CollNet/SHARP plugin, NVLS an NVSwitch system; NCCL_COMM_ID's <host>:<port> form); `ncclDoctor "
        "env` lints the whole environment."),
    Family(
        "capability", "invalid_usage",
        re.compile(r"support begins with|\brequires (?:CUDA|a |an |sm|driver|compute)|is not supported (?:on|with|in) "
                   r"(?:this|the)\b"),
        "the job asks NCCL for a feature this GPU, driver or communicator does not have (e.g. an FP8 reduction "
        "before sm90, one-sided operations on an old driver)",
        "Use a data type / feature the GPUs support (or newer GPUs/driver, as the line says); the job's code or "
        "its precision settings choose it. For NCCL's 'FP8 reduction support begins with sm90': run FP8 collectives "
        "only on sm90 or newer GPUs (Hopper), upcast float8 tensors to bf16/fp16 before a reduction, and skip such a "
        "test below sm90 (a compute-capability check)."),
    Family(
        # a net plugin (aws-ofi-nccl's register_mr_buffers: "NET/OFI Unable to register memory (type = 1) for device
        # 0. RC: 12, Error: Cannot allocate memory") failing to register a buffer with its NIC while NCCL connects the
        # net transport: the host refused the registration (the locked-memory limit, the NIC's MR resources, or GPU
        # memory without GPUDirect RDMA), lead rule J's second part -- the host's, shared by every rank, no link's
        # and no rank's (the IB transport's ibv_reg_mr has its own detector, verdict.transport._reg_at_setup)
        "net_register_memory", "nccl_system",
        re.compile(r"NET/(?!IB\b)\w+ (?:Unable to|Couldn't|Could not|Failed to) register "
                   r"(?:the )?(?:memory|buffer|MR)"),
        "the net plugin could not register a buffer with its network device while NCCL set up the net transport: "
        "the host refused the memory registration (the locked-memory limit, the device's memory-region resources, "
        "or GPU memory without GPUDirect RDMA), not a link or a rank",
        "Raise the locked-memory limit where the ranks run: ulimit -l unlimited (memlock unlimited in "
        "/etc/security/limits.conf, docker run --ulimit memlock=-1); for GPU buffers check GPUDirect RDMA "
        "(nvidia-peermem loaded: lsmod | grep peermem; FI_EFA_USE_DEVICE_RDMA=1 on EFA) and use an aws-ofi-nccl "
        "version built for this libfabric / NCCL; many peers at once (an all_to_all) register many buffers: rerun "
        "with NCCL_DEBUG=INFO to see which registration fails.", job_wide=True),
    Family(
        # allocator.cc's ncclSpaceAlloc (NCCL 2.27+), NCCL's own bookkeeping of a reserved virtual-address range that
        # symmetric-memory windows (ncclCommWindowRegister -> symMemoryObtain) are placed in: "Allocation failed. No
        # suitable space found to accommodate size=0x2171600000 within limit=0x2d00000000", unwinding with 3
        # (ncclInternalError). No host memory, CUDA call or link refused anything: NCCL's own range is full, which every
        # rank registering the same way reaches (round 76's nccl-2331): nccl_internal, no rank at fault (rules Q, J)
        "symmetric_space", "nccl_internal",
        re.compile(r"No suitable space found to accommodate size=\w{1,20} within limit="),
        "NCCL's own allocator of the symmetric-memory virtual-address range found no room for a window being "
        "registered (ncclCommWindowRegister): the windows registered so far (never deregistered, or one buffer "
        "registered again and again) fill the range NCCL reserved -- NCCL's own limit, not host memory, not a rank",
        "Deregister symmetric windows you no longer use (ncclCommWindowDeregister for every ncclCommWindowRegister; "
        "with torch's symmetric memory / NCCL mem-pool register each buffer once and reuse the window instead of "
        "registering it per step), register a smaller buffer, or turn window registration off (NCCL_WIN_ENABLE=0); "
        "upgrade NCCL if the framework registers the same buffer repeatedly without a reference count. NCCL_DEBUG=INFO "
        "shows each registration.", job_wide=True),
    Family(
        "system_resources", "nccl_system",
        # not on the IB transport's lines: there the HCA/verbs layer decides (SUBSYSTEMS), ENOMEM from verbs is
        # the HCA's or the locked-memory limit's, and the memory registration case has its own detector
        re.compile(r"^(?!.*(?:NET/IB|\bibv_|\bmlx\d)).*(?:Thread creation failed|Resource temporarily unavailable|"
                   r"Too many open files|Allocation failed|Cannot allocate memory)"),
        "a system resource ran out inside NCCL: threads (ulimit -u, the container's pids limit), file descriptors "
        "(ulimit -n) or host memory",
        "Check `ulimit -u` and `ulimit -n` where the ranks run (and the container's --pids-limit), and the host's "
        "free memory; many ranks per node multiply NCCL's threads and sockets."),
    Family(
        # proxy.cc's service thread failing a set-up operation ("Error encountered progressing operation=Connect,
        # res=3, closing connection"): the proxy could not open the transport connection to the peer (another node)
        "proxy_connect", "network_setup",
        # and its "[Proxy Service N] Failed to execute operation Connect from rank N, retcode R" (lead rule L)
        re.compile(r"(?:Error encountered progressing operation=|Failed to execute operation )"
                   r"(?:Connect|Setup|SharedInit|Init)\b"),
        "NCCL's proxy failed to open the transport connection to a peer while the communicator was set up: the "
        "interface or path it uses between the nodes does not work (a wrong interface, a firewall), not a rank",
        _NET_FIX),
    Family(
        # lead rule Z: aws-ofi-nccl failing to start ("NET/OFI Couldn't find any optimal provider", "Only EFA provider
        # is supported", "aws-ofi-nccl initialization failed") where the lines show EFA was meant to carry the job
        # (verdict.noise.harmless_warn reads it as harmless on a host without EFA): NCCL falls back to TCP sockets
        "ofi_init", "network_setup",
        re.compile(rf"NET/OFI (?:{OFI_START_FAILED}|OFI NCCL failure)"),
        "the libfabric net plugin (aws-ofi-nccl) found no usable EFA provider where the lines show EFA was meant to "
        "carry the job (an EFA instance type, FI_PROVIDER=efa, the plugin's own test, several nodes): NCCL drops the "
        "plugin and runs between the nodes over TCP sockets ('Using network Socket'), or the plugin's test fails",
        "Make the EFA devices visible to the processes: fi_info -p efa must list them on the host and inside the "
        "container (docker --device /dev/infiniband/uverbs*, Kubernetes: the EFA device plugin's "
        "vpc.amazonaws.com/efa resource, --ulimit memlock=-1); install the EFA driver and libfabric with the EFA "
        "installer and use the aws-ofi-nccl built against that libfabric (LD_LIBRARY_PATH /opt/amazon/efa/lib), "
        "FI_PROVIDER=efa; check with NCCL_DEBUG=INFO that NCCL prints 'Using network AWS Libfabric', not "
        "'Using network Socket'.",
        job_wide=True),
    Family(
        # RCCL's init.cc checks of the platform it runs on (AMD GPUs): 'Missing "HSA_FORCE_FINE_GRAIN_PCIE=1" from
        # environment which can lead to low RCCL performance, system instablity or hang!', 'Missing "iommu=pt" from
        # kernel command line ...': a setting every rank of the node shares is absent (lead rule V (1): config)
        "rccl_missing_setting", "config",
        re.compile(r"Missing \"?[\w.=-]{1,64}\"? from (?:the )?(?:environment|kernel command line)"),
        "RCCL found a setting it needs missing from the environment or the kernel command line of the node, which it "
        "says can lead to low performance, instability or a hang: the platform's configuration every rank shares, "
        "not a rank",
        "Set what RCCL names: HSA_FORCE_FINE_GRAIN_PCIE=1 in the job's environment (every rank), and on the kernel "
        "command line of every node iommu=pt with amd_iommu=on (GRUB_CMDLINE_LINUX, update-grub, reboot; check "
        "/proc/cmdline); then rerun with NCCL_DEBUG=INFO and confirm the WARNs are gone.",
        job_wide=True),
    Family(
        # lead rule X (3): a net plugin's error NCCL returns as "internal error", classed by its Last error: the plugin
        # could not reach the peer's address ("NET/OFI Unable to insert remote address into address vector for device
        # 1. RC: 0" -- fi_av_insert in its connect path --, "NET/OFI Couldn't connect to remote endpoint")
        "ofi_peer_address", "network_setup",
        re.compile(r"NET/OFI (?:Unable to insert (?:the )?remote address|Couldn't (?:insert|resolve) (?:the )?remote "
                   r"address|Unable to connect to (?:the )?remote|Couldn't connect to (?:the )?remote)"),
        "the libfabric net plugin (aws-ofi-nccl) could not connect to the peer node: the peer's EFA address could not "
        "be inserted or reached while the connection was set up, a reachability problem between the pair of hosts "
        "(EFA, the security group), not a rank's bug",
        "Check that the nodes reach each other over EFA: the security group must allow all inbound and outbound "
        "traffic to itself (EFA needs it), every node's EFA devices listed by fi_info -p efa, and the aws-ofi-nccl / "
        "libfabric of one EFA installer on every node; rerun with NCCL_DEBUG=INFO FI_LOG_LEVEL=warn to see the peer "
        "it failed on, and NCCL_NET=Socket as a test that the rest of the job works over TCP.",
        job_wide=True),
    Family(
        # aws-ofi-nccl (the libfabric net plugin, EFA): its endpoint / address-vector set-up failing after the plugin
        # loaded ("NET/OFI Couldn't open AV. RC: -22", "NET/OFI Creating new endpoint for domain 0x.. failed: Invalid
        # argument", "NET/OFI Couldn't bind/enable endpoint"): like ibv_create_qp/cq (verdict.transport._LOCAL_VERBS) it
        # only allocates on the local device, so the provider or the host refused the resource: lead rule J,
        # nccl_system. Where the lines also show the plugin unable to read its device ("No NIC info for dev N"), the
        # device itself is not usable there: network_setup (verdict.nccl._warn_family, rule Z)
        "ofi_endpoint", "nccl_system",
        re.compile(r"NET/OFI (?:Couldn't (?:open|create|bind|enable|allocate) \w+|Creating new endpoint\b.{0,60}"
                   r"\bfailed|Unable to (?:create|open|bind|enable) \w+)"),
        "the libfabric net plugin (aws-ofi-nccl) could not create its endpoint resources (endpoint, address vector) "
        "on the EFA device it found: a local allocation (no peer, nothing on the wire) that the provider or the "
        "host refused -- a system/resource failure of the fabric stack (its limits, driver or libfabric version), "
        "not a link error and not a rank",
        "Check EFA's resources and stack on the node and inside the container: the locked-memory limit (ulimit -l "
        "unlimited, docker --ulimit memlock=-1), fi_info -p efa -t FI_EP_RDM must list the devices (docker: "
        "--device /dev/infiniband/uverbs*, Kubernetes: the EFA device plugin's vpc.amazonaws.com/efa resource); use "
        "the aws-ofi-nccl and libfabric of one EFA installer (the plugin built against the libfabric it loads: check "
        "the aws-ofi-nccl version and libfabric / EFA installer version), check dmesg for efa errors; "
        "NCCL_DEBUG=INFO FI_LOG_LEVEL=warn shows the provider chosen and the fi_endpoint call refused.",
        job_wide=True),
    Family(
        # lead rule X (3), the other side: aws-ofi-nccl's RDMA protocol finding its own message state inconsistent in
        # the middle of a run ("NET/OFI Unexpected status (0) for message 246", "NET/OFI Write complete from
        # unexpected request type!", "Unexpected request type. Request type: 4") -- a completion or message the
        # plugin's bookkeeping does not expect, returned to NCCL as an internal error: a plugin / NCCL version or
        # protocol bug, not a link error and no rank's
        "ofi_protocol_state", "nccl_internal",
        re.compile(r"NET/OFI (?:Unexpected (?:status|request type|message type|completion)\b|"
                   r"(?:Write|Read|Send|Recv|Receive) complet(?:e|ed|ion) (?:from|for|of) (?:an? )?unexpected "
                   r"request|(?:Invalid|Unknown|Received unexpected) (?:message|request) type)"),
        "the libfabric net plugin (aws-ofi-nccl) found its own message bookkeeping inconsistent while the job ran (a "
        "completion or message status its RDMA protocol does not expect) and returned it to NCCL as an internal "
        "error: a bug or version mismatch of the plugin with NCCL / libfabric, not a link and not a rank",
        "Upgrade aws-ofi-nccl (the plugin's RDMA protocol bugs of this kind are fixed in later releases) and keep "
        "the NCCL version, aws-ofi-nccl version and libfabric of one EFA installer matched on every node; rerun "
        "with NCCL_DEBUG=INFO to see the plugin version loaded; NCCL_PROTO=Simple, or the plugin's other protocol "
        "(OFI_NCCL_PROTOCOL=SENDRECV), as a test that the RDMA protocol is the cause.",
        job_wide=True),
    Family(
        # a net plugin's progress loop (the data path once connected: GPUDirect-TCPX's "tcpxCommProgress(tcpxComm*):N
        # NCCL WARN ..., nic 3, enp6s0, ... rx ctrl timeout cnt N, nanos N", a plugin's send/recv progress) counting
        # its receives or sends that time out while the job runs: lead rule O, a recv/send timing out on NCCL's
        # transport with no process shown gone is the transport stalling -- the plugin's fabric, no rank
        "net_progress_timeout", "transport_stall",
        re.compile(r"Progress\w*\(.{0,60}NCCL WARN .*\b(?:rx|tx|recv|send|ctrl)\b.{0,20}\btime(?:out|d out)\b"),
        "the net plugin's progress loop reports receives or sends on the data path timing out while the job runs: "
        "the transport between the nodes is stalling (the plugin's fabric, its NICs or its helper), not a process "
        "gone and not a rank",
        "Check the net plugin's data path on the NIC the line names: its version against NCCL's (GPUDirect-TCPX: the "
        "tcpx plugin version and its receive-datapath manager (RxDM) container must match; the NCCL_GPUDIRECTTCPX_* "
        "settings, NCCL_SOCKET_IFNAME naming the data NICs), the NICs' link and MTU (ethtool -S for drops); run "
        "nccl-tests (all_reduce_perf) across the same nodes with NCCL_DEBUG=INFO to see whether the stall follows a "
        "NIC or a node.", job_wide=True),
    Family(
        "local_peer_gone", "early_exit",
        re.compile(r"Could not receive type from localRank|Error encountered progressing operation"),
        "the proxy of this node lost a local rank: that rank's process went away (crashed or exited) while the "
        "others still used it",
        "Read the log of the local rank the line names: its own error (an exception, a CUDA error, an OOM) is "
        "the first failure; the others only lost it."),
)


# Any other NCCL WARN is still a failure NCCL reported: its subsystem's words give the cause class, with
# low confidence (``verdict.nccl._warn_subsystem``, after every other detector). Order matters: an IB line may
# also say "connect", a proxy line "CUDA".
SUBSYSTEMS = (
    Family("ib", "ib_fabric", re.compile(r"NET/IB|\bibv_\w+|\bmlx\d|\bHCA\b|\bGID\b|\bRoCE\b"),
           "NCCL's InfiniBand/RoCE transport reported a failure",
           "Check the HCAs and links of the node that printed it (ibstat, ibv_devinfo, dmesg for mlx5 errors); run "
           "`ncclDoctor check --nodes N` to localize the bad link."),
    Family("socket", "network_setup",
           re.compile(r"[Ss]ocket|[Cc]onnect|[Aa]ccept|[Bb]ootstrap|\bNET/|\bNet :|[Ii]nterface|IFNAME|address info|"
                      r"[Hh]ost ?name"),
           "NCCL's sockets/bootstrap (the connections between ranks) reported a failure",
           _NET_FIX),
    Family("shm", "nccl_system", re.compile(r"/dev/shm|\bshm\b|[Ss]hared memory|posix_fallocate"),
           "NCCL's shared-memory transport reported a failure",
           "Give the container a larger /dev/shm (--shm-size=16g or --ipc=host); NCCL_SHM_DISABLE=1 works around it."),
    Family("cuda", "cuda_error", re.compile(r"\bC[Uu][Dd][Aa]\b|\bcu[A-Z]\w+|CUDA device"),
           "a CUDA call inside NCCL failed on this rank",
           "Look at that GPU first: nvidia-smi, `dmesg | grep -i xid`; rerun with CUDA_LAUNCH_BLOCKING=1 to find the "
           "failing kernel."),
)
INTERNAL = Family("internal", "nccl_internal", re.compile(r""),
                  "NCCL reported a failure of a kind this tool has no family for",
                  "Rerun with NCCL_DEBUG=INFO (NCCL_DEBUG_SUBSYS=ALL for the full trail); check that every rank uses "
                  "the same NCCL version, and search NVIDIA/nccl's issues for the WARN text.")


def classify(text: str) -> Family | None:
    for f in FAMILIES:
        if f.pattern.search(text):
            return f
    return None


def subsystem(text: str) -> Family:
    """The family of an NCCL WARN that ``classify`` has no family for: by its subsystem's words."""
    for f in SUBSYSTEMS:
        if f.pattern.search(text):
            return f
    return INTERNAL
