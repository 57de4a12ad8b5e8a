"""A rank's own CUDA error (cuda_error): the CUDA runtime's and driver's errors, Xid codes, NCCL's CUDA calls
failing, the device set-up behind an 'invalid device ordinal' (more processes than GPUs: config)."""

from __future__ import annotations

import re

from ncclDoctor.diagnose import signatures as S
from ncclDoctor.diagnose.lone import lone_failure, lone_launched_worker, torn_down
from ncclDoctor.diagnose.reason import Conclusion, own_errors, waiting
from ncclDoctor.diagnose.signatures import Event, strip_prefixes
from ncclDoctor.diagnose.state import Collected
from ncclDoctor.diagnose.verdict.base import Verdict, _named, _ranks, _samples, place
from ncclDoctor.diagnose.verdict.nccl import R_DRIVER_REFUSES, driver_refused

# NVIDIA's Xid catalogue (docs.nvidia.com/deploy/xid-errors): the ones that mean the hardware or driver,
# and the ones an application causes (13, 31, 43, 45: the application's kernel, or a consequence).
XID = {
    13: "Graphics Engine Exception: usually the application's kernel (an illegal access), rarely hardware",
    31: "GPU memory page fault (MMU fault): usually the application (illegal address), rarely the driver",
    43: "the GPU stopped processing: a consequence of an application error",
    45: "preemptive cleanup: the driver killed a process's work (a consequence, after a kill or another Xid)",
    48: "double-bit ECC error: GPU memory hardware fault",
    63: "ECC page retirement / row remapping event (memory hardware)",
    64: "ECC page retirement / row remapping failure (memory hardware)",
    74: "NVLink error: the link between GPUs failed",
    79: "the GPU has fallen off the bus: hardware, power or PCIe failure",
    92: "high single-bit ECC error rate (memory hardware)",
    94: "contained ECC error (memory hardware; the affected process is killed)",
    95: "uncontained ECC error (memory hardware; the GPU needs a reset)",
    119: "GSP firmware timed out (driver/firmware)",
    144: "NVLink SAW error (the NVLink hardware)",
    145: "NVLink RLW error (the NVLink hardware)",
    146: "NVLink TLW error (the NVLink hardware)",
    147: "NVLink TREX error (the NVLink hardware)",
    148: "NVLink NVLPW_CTRL error (the NVLink hardware)",
    149: "NVLink NETIR error (the NVLink hardware or the NVLink fabric)",
    150: "NVLink MSE error (the NVLink hardware)",
    120: "GSP firmware error (driver/firmware)",
}


APP_XIDS = {13, 31, 43, 45}


NVLINK_XIDS = {74, 144, 145, 146, 147, 148, 149, 150}


# DeepEP's own source or module in a CUDA error's lines ("CUDA error /build/DeepEP/csrc/deep_ep.cpp:112 'invalid
# resource handle'", "deep_ep/buffer.py", sglang's token_dispatcher/deepep.py)
_DEEPEP = re.compile(r"deep_?ep\b", re.I)


def xid_meaning(xids: list[int], pcis: list[str]) -> tuple[str, str]:
    """What the driver's Xid numbers say, and whether to look at the code or the hardware."""
    said = "; ".join(f"Xid {x} = {XID.get(x, 'see NVIDIA Xid catalogue')}" for x in xids)
    where = f" on GPU {', '.join(pcis)}" if pcis else ""
    if set(xids) <= APP_XIDS:
        return (f"the NVIDIA driver reported {said}{where}",
                "These Xids are usually the application's own kernel fault: rerun that rank with "
                "CUDA_LAUNCH_BLOCKING=1 or under compute-sanitizer, or with a CUDA coredump on exception "
                "(CUDA_ENABLE_COREDUMP_ON_EXCEPTION=1) to pin the kernel; if they repeat on one GPU only, test that "
                "GPU (dcgmi diag -r 3).")
    nvlink = ("NVLink errors: read each GPU's link state and error counters (nvidia-smi nvlink --status, nvidia-smi "
              "nvlink -e) and the fabric manager's log on NVSwitch systems. " if set(xids) & NVLINK_XIDS else "")
    # Xid 119 / 120: the GPU System Processor's firmware stopped answering the driver (GSP RPC timeout) or faulted:
    # a driver / firmware fault of that GPU, whose own remedies are the driver's GSP fixes or GSP off (round 108's
    # vllm-40652)
    gsp = ("GSP errors: the GPU's system processor (GSP firmware) stopped answering the driver -- reset the GPU "
           "(nvidia-smi -r, with no process on it) or reboot the node, and drain it if it recurs; update the NVIDIA "
           "driver/GSP firmware to a release that fixes GSP RPC timeouts, or disable GSP firmware "
           "(NVreg_EnableGpuFirmware=0) where the driver allows it. " if set(xids) & {119, 120} else "")
    return (f"the NVIDIA driver reported {said}{where}: the GPU/driver failed, not the training code",
            gsp + nvlink + "Drain that node and check the GPU: nvidia-smi -q (ECC, retired pages / remapped rows), "
            "dcgmi diag -r 3, "
            "the full dmesg around the Xid; a GPU that fell off the bus or has uncorrectable ECC needs a reset or "
            "replacement. Map the PCI address to the rank's GPU with nvidia-smi --query-gpu=pci.bus_id,index "
            "--format=csv.")


# NCCL's transport/proxy set-up files, where a 'Cuda failure' is the node's CUDA set-up, not a kernel
# (include/shm.h, transport/shm.cc/.cu: the shared-memory transport's cudaHostRegister of the /dev/shm segment; NCCL
# 2.0-2.3's transport/p2p.cu "failed to open CUDA IPC handle : N ...", round 82's horovod-785)
_SETUP_CUDA = re.compile(r"NCCL WARN.*(?:transport\.cc|transport/p2p\.cc|proxy\.cc|p2p\.cc)|"
                         r"(?:transport\.cc|transport/p2p\.cc|proxy\.cc|p2p\.cc|p2p\.cu|nvls\.cc|shm\.(?:h|cc|cu)):\d+ "
                         r"NCCL WARN (?:Cuda failure|(?:cuda|hip)[A-Z]\w{2,60} failed ?:|"
                         r"failed to (?:open|get) (?:CUDA|HIP) IPC handle ?:)")


# a framework's report of the call's return (Horovod, TensorFlow, XLA), not torch's "NCCL error in: ..." of its own
_INIT_RETURNED = re.compile(r"ncclCommInitRank failed: unhandled cuda error")
_NVLS_CUDA = re.compile(r"nvls\.cc:\d+ NCCL WARN Cuda failure")
# NVLink SHARP's multicast set-up in a communication library's own words: NCCL's nvls.cc, NVSHMEM's NVLS team
# (team_internal_nvls.cpp, "Mapping mem size N to MC group X failed"), the driver's cuMulticast calls
_NVLS_SETUP = re.compile(r"\bNVLS\b|NVLink SHARP|\bnvls\w{0,12}\.c(?:c|pp)?:\d{1,6}|cuMulticast|\bto MC group\b|"
                         r"[Mm]ulticast group")
# NVSHMEM's own source files in its error macros' "<file>:<line>: non-zero status" prefix
_NVSHMEM_LINE = re.compile(r"(?i)\bnvshmem\w{0,20}/\S{0,200}\.c(?:c|pp|u)?:\d{1,6}|\bNVSHMEM\b")


# --- a rank's own hard failure ---------------------------------------------------------
_NCCL_ALLOC = re.compile(r"\balloc\.h:\d+ NCCL WARN Cuda failure")
_NCCL_LAUNCH = re.compile(r"\benqueue\.cc:\d+ NCCL WARN|\bNCCL WARN .*ncclLaunch")
_NCCL_CUDA_WARN = re.compile(r"\bNCCL WARN Cuda failure")
# One exception's class written twice into one line ("RuntimeErrorRuntimeError: CUDA error: ..."): two processes'
# stderr interleaved as both raised the same error at once, so more than one process printed it, whatever single
# rank tag a launcher or a paste later put before the line.
_TWO_WRITERS = re.compile(r"\b([A-Z]\w{0,60}?(?:Error|Exception))\1\s{0,2}:")


_DESTROYED_NEAR = 3  # lines between the destructor's error and its "Process Group destroyed on rank N" note


def destroyed_rank(c: Collected, evs: list[Event]) -> tuple[list[int], str]:
    """The rank of a CUDA failure no line names, from torch 1.x's "Process Group destroyed on rank N": the process
    tearing its ProcessGroupNCCL down prints it right beside the error the destructor's ncclCommAbort raised, so that
    error is rank N's own. Only when every such note near the errors names one rank; ([], "") otherwise."""
    notes = c.samples.get("pg_destroyed", [])
    near = {n.data["rank"] for n in notes for e in evs
            if place(n)[0] == place(e)[0] and abs(place(n)[1] - place(e)[1]) <= _DESTROYED_NEAR}
    if len(near) != 1:
        return [], ""
    r = near.pop()
    return [r], f"rank {r} (its ProcessGroupNCCL's teardown raised it: 'Process Group destroyed on rank {r}')"


def version_rank(c: Collected, evs: list[Event]) -> tuple[list[int], str]:
    """The rank of a CUDA failure no line names, from NCCL's version line: ncclCommInitRank prints "NCCL version
    X" in rank 0 of a communicator only. When the input is one process on one GPU (every host:pid-prefixed line
    from the same process and device, no rank tag, no launcher record) and it holds that line, the process is
    rank 0, and the failure is its own. Only with NCCL_DEBUG=INFO (that process's INFO lines are there: every
    process prints them, so no other process is in the input) and on device 0 (where a job's rank 0 sits): under
    NCCL_DEBUG=WARN a console holds rank 0's unprefixed version line beside another rank's WARN alone.
    ([], "") otherwise: a device index alone is not a rank."""
    if not c.kinds.get("nccl_version") or c.ranks or c.child_failures or c.worker_failures or len(c.procs) != 1:
        return [], ""
    host, pid, dev = next(iter(c.procs))
    info = any((e.host, e.pid) == (host, pid) and "INFO" in e.text
               for k in ("transport", "setup", "benign") for e in c.samples.get(k, []))
    # an unprefixed line (torch's exception over NCCL's WARN) is that process's too: under INFO any other process
    # would have printed its own prefixed lines
    if dev != 0 or not info or not evs or any(e.host is not None and (e.host, e.pid) != (host, pid) for e in evs):
        return [], ""
    return [0], ("rank 0 (the only process in these lines, and the one that printed NCCL's version line, which "
                 "NCCL prints in a communicator's rank 0 only)")


def traced_rank(c: Collected, evs: list[Event]) -> tuple[list[int], str]:
    """Lead rule AM (3): the rank of NCCL's 'Cuda failure' WARN no line names, from the traceback it raised: the
    input is one process (every host:pid-prefixed line from the same process, no launcher record), NCCL's WARN and
    its return trail are followed right below by a traceback under one rank's tag ("[rank0]: Traceback ..."), and
    no other rank is named -- that traceback is the same process's, so the failure is that rank's own. ([], "")
    otherwise: with two processes, or a traceback under another rank, the device index stays no rank."""
    if c.ranks or c.child_failures or c.worker_failures or not evs:
        return [], ""
    tagged = {e.data.get("tb_rank") for e in evs}
    if len(tagged) != 1 or None in tagged:
        return [], ""
    r = tagged.pop()
    if not c.procs and all(e.data.get("kernel_assert") and e.host is None for e in evs):
        # a kernel's device-side assert, untagged (the GPU prints it), then right below it the traceback of the one
        # rank the lines name: that rank's process launched the kernel (round 72's weathergenerator-255, as
        # easycontext-13 reads a lone rank's assert)
        return [r], (f"rank {r} (the one rank these lines name: the kernel's device-side assert unwinds into the "
                     f"traceback printed right below it under its rank tag '[rank{r}]')")
    if len(c.procs) != 1:
        return [], ""
    host, pid, _ = next(iter(c.procs))
    if any((e.host, e.pid) != (host, pid) for e in evs):
        return [], ""
    if _launch_only(c, evs, host, pid):
        return [], ""
    return [r], (f"rank {r} (the only process in these lines; NCCL's CUDA failure unwinds into the traceback printed "
                 f"right below it under its rank tag '[rank{r}]')")


# nccl-tests' own CUDA check failing ("node0: Test CUDA failure common.cu:389 'an illegal memory access ...'"): the
# host it names, no pid, no rank
_R_TESTS_CUDA_FAIL = re.compile(r"(?:^|\s)([A-Za-z0-9][\w.\-]{0,62}): Test CUDA failure [\w/.\-]{1,128}:\d{1,6}\b")
_R_TESTS_TRAIL_LINE = re.compile(r"\bpid \d{1,10}: Test failure [\w/.\-]{1,128}:\d{1,6}\b")


def tests_trail_rank(c: Collected, evs: list[Event]) -> tuple[list[int], str]:
    """Lead rules AN (1), BJ (2): nccl-tests' CUDA check failing names only its host ("node0: Test CUDA failure
    common.cu:389 '...'"), but its failure trail below it (" .. node0 pid 62767: Test failure common.cu:519") names
    the process, and the run's device table ("#  Rank  0 Group  0 Pid  62767 on node0 device 0 ...") lists that
    process as exactly one rank (one GPU per process; parse: tests_rank). Where every such trail shown is that one
    process's, on the host the failure names, and no launcher record names another, that rank is the one process shown
    failing (round 109's nccl-tests-355). ([], "") otherwise: several processes' trails, a process of several GPUs
    (-g N), or a failure line cut before its trail (the host alone holds several ranks: rule AC (1))."""
    if c.child_failures or c.worker_failures or not evs:
        return [], ""
    hosts = {m.group(1) for e in evs if (m := _R_TESTS_CUDA_FAIL.search(e.text))}
    if len(hosts) != 1 or not all(_R_TESTS_CUDA_FAIL.search(e.text) for e in evs):
        return [], ""
    trails = [u for u in c.unread if _R_TESTS_TRAIL_LINE.search(u.text)]
    named = {(u.data.get("tests_host"), u.data.get("tests_rank")) for u in trails}
    if not trails or len(named) != 1:
        return [], ""
    host, r = named.pop()
    if r is None or host not in hosts:
        return [], ""
    r = int(r)
    return [r], (f"rank {r} (nccl-tests' CUDA check on {host} unwinds through its failure trail of one process, which "
                 f"the run's device table lists as rank {r} alone; no other process is shown failing)")


def _launch_only(c: Collected, evs: list[Event], host: str | None, pid: int | None) -> bool:
    """Lead rules AM (3), AN (1), AT (1): rule AM (3) names the rank of NCCL's 'Cuda failure' at communicator
    creation. A WARN at a collective's launch (enqueue.cc, ncclLaunch*) whose return trail ("enqueue.cc:1382 -> 1")
    names no step of the communicator's creation (init.cc, channel.cc, alloc.h) failed in the enqueue every rank runs
    for that collective (a stream or event of another device: 'invalid resource handle'), and the rank-tagged
    traceback below it, cut before its error text, is not proven that failure's: nobody is named (round 99's
    pytorch-130414). Old NCCL's kernel set-up in enqueue.cc at init unwinds through init.cc and stays rule AM (3)'s,
    wherever in its trail init.cc comes (the trail's files are kept per process as read, not from the five sampled
    transport lines: review 98 finding 4)."""
    if not all(_NCCL_LAUNCH.search(e.text) for e in evs):
        return False
    return not c.trail_files.get((host, pid), set()) & {"init.cc", "channel.cc", "alloc.h"}


def aborted_rank(c: Collected, evs: list[Event]) -> tuple[list[int], str]:
    """Lead rules A, I: a device runtime's own abort no line names (Intel's compute runtime: "Abort was called at N
    line in file:", which raises SIGABRT in the process it runs in), and a launcher that records exactly one rank
    failing, by SIGABRT (exit code -6): the abort is that rank's. ([], "") otherwise: another rank recorded failing,
    an exit of another kind, or a failure that is not such an abort (round 73's streaming-331)."""
    if not evs or not all(e.data.get("aborts") for e in evs):
        return [], ""
    recs = c.child_failures + c.worker_failures
    ranks = {e.rank for e in recs}
    if len(ranks) != 1 or None in ranks or any(e.data.get("exitcode") != -6 for e in recs):
        return [], ""
    r = ranks.pop()
    return [r], (f"rank {r} (the launcher records it alone ending by SIGABRT, exit code -6: the device runtime's "
                 "abort printed before that record is its own)")


def _own_tag_alone(c: Collected, evs: list[Event], shown: list[int]) -> bool:
    """Lead rule AM (3): NCCL's own 'Cuda failure' WARN printed by one process of several, whose rank that process
    named on another of its lines (a Ray actor's "[Rank N]" tag), with no rank shown waiting on it: that rank failed
    creating its communicator (NCCL loads its kernels there, enqueue.cc), named even where the build is the likely
    root -- the others are shown only in their set-up."""
    return (len(shown) == 1 and len(c.procs) > 1 and not any(waiting(st) for st in c.ranks.values())
            and all(e.data.get("rank_from") == "the process's own rank tag" and "NCCL WARN Cuda failure" in e.text
                    for e in evs))


def _build_cuda(c: Collected) -> tuple[str, str] | None:
    """NCCL's version line "NCCL version 2.4.8+cuda10.1": the version and the CUDA it was built with."""
    for e in c.samples.get("nccl_version", []):
        m = re.search(r"NCCL version (\d+\.\d+\.\d+)\+cuda(\d+\.\d+)", e.text)
        if m:
            return m.group(0).split(" ", 2)[2], m.group(2)
    return None


def _after_ib(c: Collected, evs: list[Event]) -> bool:
    """Every CUDA error comes after an IB work-completion error in the same file: NCCL's proxy lost
    the transfers first, and the CUDA errors of its abort/teardown are the consequence."""
    ib = [place(e) for e in c.samples.get("ib_completion", [])]
    return bool(ib) and all(any(p == q and n > m for q, m in ib) for p, n in map(place, evs))


def _after_kernel_timeout(c: Collected, evs: list[Event]) -> bool:
    """Every CUDA error is 'unspecified launch failure' (719) after a communication kernel's own device-side timeout
    (NCCL EP's "NCCL EP timeout for dispatch receive, rank R, ... src_rank S", verdict.transport._beside_stall): the
    kernel traps when its wait runs out, and a trap reaches the host as 719 -- the consequence of the stall."""
    timed_out = [place(e) for e in c.samples.get("beside_timeout", []) if e.data.get("device")]
    if not timed_out or not all("unspecified launch failure" in (e.data.get("what") or "").lower() for e in evs):
        return False
    first = min(n for _, n in timed_out)
    return all(p not in {q for q, _ in timed_out} or n > first for p, n in map(place, evs))


def _procs_past_gpus(c: Collected, evs: list[Event]) -> Verdict | None:
    """Lead rules Q and W: a process asking for a GPU index that does not exist ("invalid device ordinal", torch's
    "device < num_gpus" assert) where the launch line starts more processes per node (--nproc_per_node N) than the
    GPUs the lines show there (deviceQuery's device count, a CUDA_VISIBLE_DEVICES list on that command line): every
    local rank past the last GPU fails the same way -- the launch's setting, config, no rank. With no GPU count shown,
    several processes of a launch of N > 1 per node failing alike on the ordinal say the same (rule U (2))."""
    said = " ".join((e.data.get("what") or "") + " " + e.text for e in evs).lower()
    if "invalid device ordinal" not in said and "device < num_gpus" not in said:
        return None
    tests = [e for e in evs if S.R_NCCL_TESTS_ORDINAL.search(e.text) or e.data.get("tests_check")]
    # nccl-tests 1.x prints every CUDA error with the same "Cuda failure common.cu:N '...'" as its ordinal: that form
    # is the launch's placement only where every CUDA error shown is the ordinal and no process is shown crashing on
    # a signal -- another process's ECC error or segfault beside it keeps its own reading (review 102 (2) finding 2)
    v1_only = bool(tests) and not any(S.R_NCCL_TESTS_ORDINAL.search(e.text) for e in tests)
    if tests and not (v1_only and (len(tests) < len(evs) or c.kinds.get("crash"))):
        return _nccl_tests_past_gpus(tests)
    if unsaid := [e for e in evs if e.data.get("device_index", 0) >= 1 and "num_gpus" not in e.data]:
        return _index_past_unsaid(unsaid)
    if past_idx := [e for e in evs if e.data.get("num_gpus") and e.data.get("device_index", -1) >= e.data["num_gpus"]]:
        # torch's device-index assert with its values shown: GPUs ARE visible, the index asked for is past them
        # (round 78's mace-1197: device=1, num_gpus=1 -- a DDP launch over single-device MIG slices). Lead rules
        # AU (2), Q: the launch's device setting, no rank; none visible at all (num_gpus= empty) stays a CUDA error
        e = past_idx[0]
        n, k = e.data["device_index"], e.data["num_gpus"]
        return Verdict(
            "config",
            f"a process asked for GPU index {n} while it sees {k} GPU{'s' if k != 1 else ''} (torch's assert 'device "
            f"< num_gpus' with device={n}, num_gpus={k}): the device index comes from the launch (the local rank, a "
            "device argument, CUDA_VISIBLE_DEVICES / the scheduler's GPUs per task or MIG instances), which gives "
            "every process its GPU the same way -- a launch setting, not a CUDA fault and not one rank's",
            f"Give each process a device index below the GPUs it sees: with {k} visible (nvidia-smi -L; under MIG each "
            "process sees only its own MIG instance, so set CUDA_VISIBLE_DEVICES=<MIG UUID> per rank and use cuda:0), "
            "call torch.cuda.set_device(local_rank) only where the process sees every GPU of the node, and start no "
            "more processes per node (--nproc_per_node) than torch.cuda.device_count() shows.",
            "medium", [], [x.brief() for x in past_idx[:2]], job_wide=True)
    launches = [e for e in c.samples.get("launch_procs", []) if e.data["procs"] is not None]  # not "gpu" / "auto"
    shown = [e.data["gpus"] for e in c.samples.get("gpus_shown", [])]
    past = [(e.data["procs"], e.data["gpus"], e, "CUDA_VISIBLE_DEVICES on that command line leaves")
            for e in launches if e.data.get("gpus") is not None and e.data["procs"] > e.data["gpus"]]
    if not past and shown and launches:
        top = max(launches, key=lambda e: e.data["procs"])
        if top.data["procs"] > max(shown):
            past = [(top.data["procs"], max(shown), top, "the node's device list (deviceQuery) shows")]
    if not past and launches and not shown:
        top = max(launches, key=lambda e: e.data["procs"])
        # no GPU count shown: several processes of that launch failing alike on the ordinal (distinct ranks, or the
        # same failure line printed by more than one process) are the local ranks past the node's last GPU
        ranks = {e.rank for e in evs if e.rank is not None}
        lines = [strip_prefixes(e.text).strip() for e in evs]
        alike = len(ranks) >= 2 or any(lines.count(x) >= 2 for x in set(lines))
        # or one process of it failing in the frame that selects its GPU (torch.cuda.set_device(local_rank)): its
        # index is the local rank the launch gave it, so the launch asks for more GPUs than it sees -- the launcher
        # then kills the other workers, which only then die (rule Q's launch/rank-assignment error). A rank tag on
        # its lines (torchrun --tee's "[rankN]:") only says which worker printed them, not whose index it was; a
        # tagged rank's ordinal raised elsewhere (an index its code computed) stays its CUDA error, and so does one
        # under a command line whose CUDA_VISIBLE_DEVICES leaves as many GPUs as processes (its index is the code's)
        at_set = all(e.data.get("at_set_device") for e in evs) and top.data.get("gpus") is None
        # lead rules AU (2), Q (round 89's codellama-123, unilm-511): or the ordinal said bare, no traceback above it
        # and no source file on it (parse: no_frames) -- nothing shows the process's own code computing the index, so
        # it is read as what it nearly always is under a launch of several processes per node, a local rank asking at
        # start-up for a GPU past the node's last; a launcher's record naming the one local rank that failed first
        # only says which local rank that was (the others are then torn down), not a rank at fault. Without the
        # launch line shown, such a record is read the same (_ordinal_launch; session 46's ruling, round 109's
        # mlp-maps-21 and round 23's simpletuner-40 relabelled)
        bare = (not at_set and top.data.get("gpus") is None and all(
            e.data.get("no_frames") and "invalid device ordinal" in ((e.data.get("what") or "") + " " + e.text).lower()
            for e in evs))
        if top.data["procs"] > 1 and (alike or at_set or bare):
            how = ("as they set their device" if alike else "as it sets its device" if at_set
                   else "at start-up, with no traceback showing its own code computing the index")
            return Verdict(
                "config",
                f"the launch starts {top.data['procs']} processes per node (--nproc_per_node {top.data['procs']}) "
                f"and {'several of them fail alike' if alike else 'one of them fails'} with 'invalid device "
                f"ordinal' {how}: more processes were started "
                "than the node has GPUs, so the local ranks past its last GPU ask for one that does not exist -- a "
                "launch setting every process shares, not a CUDA fault and not one rank's",
                "Start no more processes per node than it has GPUs: set --nproc_per_node to the number of GPUs "
                "nvidia-smi shows (or CUDA_VISIBLE_DEVICES leaves visible), and set each process's device from its "
                "LOCAL_RANK.", "medium", [], [top.brief()] + [x.brief() for x in evs[:2]], job_wide=True)
    if not past:
        return None
    procs, gpus, e, where = past[0]
    return Verdict(
        "config",
        f"the launch starts {procs} processes per node (--nproc_per_node {procs}) but {where} {gpus} "
        f"GPU{'s' if gpus != 1 else ''}: every local rank from {gpus} on asks torch.cuda.set_device for a GPU that "
        "does not exist ('invalid device ordinal') -- a launch setting every process shares, not a CUDA fault and "
        "not one rank's",
        f"Start no more processes per node than it has GPUs: --nproc_per_node {gpus} (the number of GPUs nvidia-smi "
        "shows, or CUDA_VISIBLE_DEVICES leaves); a model whose model-parallel size is larger needs that many GPUs "
        "(or a smaller model / checkpoint whose model-parallel size equals the number of GPUs).",
        "high", [], [e.brief()] + [x.brief() for x in evs[:2]], job_wide=True)


def _index_past_unsaid(evs: list[Event]) -> Verdict:
    """torch's device-index assert ('device >= 0 && device < num_gpus') showing the index asked for (device=N, N >= 1)
    but no count (num_gpus= left empty): the assert failed on a non-negative index, so N is at or past the GPUs the
    process sees -- a device index the process was given (its local rank, a device setting of the script or its
    config, CUDA_VISIBLE_DEVICES leaving fewer GPUs), the launch's setting (lead rules AU (2), Q): config, no rank.
    With no index shown either (device=, num_gpus=: round 78's mace-1504) nothing says a GPU is visible at all, and
    index 0 failing means none is: those stay a CUDA error."""
    n = evs[0].data["device_index"]
    return Verdict(
        "config",
        f"a process asked for GPU index {n} and torch's assert 'device >= 0 && device < num_gpus' failed (device={n}, "
        f"its num_gpus not printed): a non-negative index failing it is at or past the GPUs the process sees, so "
        f"fewer than {n + 1} GPUs are visible to it -- the device index comes from the launch or the job's settings "
        "(the local rank, a device index in the script's config or arguments, CUDA_VISIBLE_DEVICES), a setting every "
        "process shares, not a CUDA fault and not one rank's",
        "Give each process a device index within the visible GPU count: count the GPUs it sees (nvidia-smi -L; "
        "torch.cuda.device_count() in the process; with CUDA_VISIBLE_DEVICES set, only those, renumbered from 0) and "
        f"lower the index {n} the script or its config asks for (a device argument or setting such as a separate "
        "generation / inference device index, cuda:N) below that count, or make that GPU visible to the process (a "
        "CUDA_VISIBLE_DEVICES that includes it, set before importing torch / initialising CUDA); start no more "
        "processes than visible GPUs (--nproc_per_node, deepspeed --num_gpus N or --include localhost:0,1,...), each "
        "on torch.cuda.set_device(local_rank).",
        "medium", [], [x.brief() for x in evs[:2]], job_wide=True)


def _ordinal_at_start(evs: list[Event]) -> bool:
    """Every failing line is 'invalid device ordinal' said bare (no traceback above it, no source file on it: parse's
    no_frames) or raised by the frame that selects the process's GPU (at_set_device): rule AU (2)'s start-up shape."""
    return bool(evs) and all(
        "invalid device ordinal" in ((e.data.get("what") or "") + " " + e.text).lower()
        and (e.data.get("no_frames") or e.data.get("at_set_device")) for e in evs)


def _ordinal_launch(evs: list[Event], tagged: list[int], record: bool = False) -> Verdict | None:
    """Lead rules Q and W: 'invalid device ordinal' is CUDA refusing a device index at or past the GPUs the process
    sees (cudaErrorInvalidDevice, at torch.cuda.set_device, CuPy's Device(i).use(), cudaSetDevice) -- the index comes
    from how the job was launched (the local rank, a --cuda-id / device argument, CUDA_VISIBLE_DEVICES), never from a
    faulty GPU. With no launch line shown (one is read by _procs_past_gpus, which knows the processes per node), it is
    the launch's device assignment every process shares: config, no rank -- where no line names the process, or where
    the rank's own lines (TAGGED) show it raised by the frame that selects its GPU (torch.cuda.set_device, CuPy's
    Device(i).use(), transformers' TrainingArguments._setup_devices): a launcher's tag on every line says who printed
    them, not whose index it was. A tagged rank's ordinal raised elsewhere (an index its code computed) stays its CUDA
    error. A launcher's record naming the one failed rank beside an ordinal said bare or at set_device changes
    nothing (rule AU (2), session 46: round 109's mlp-maps-21, round 23's simpletuner-40 relabelled); with RECORD the
    verdict says what the record tells and the fix names the processes per node against the GPUs visible."""
    if not evs or not all("invalid device ordinal" in ((e.data.get("what") or "") + " " + e.text).lower()
                          for e in evs):
        return None
    # two processes' copies of the error run into one line are several processes failing alike (rule U (2)): not
    # one rank's own index, whichever rank's tag the line carries
    several = any(_TWO_WRITERS.search(e.text) for e in evs)
    # lead rule AU (2): with no traceback shown above it, nothing says the rank's own code computed the index: the
    # error is read as what it nearly always is, a process asking at start-up for a GPU its launch gave it -- beside a
    # launcher's record of the failed worker too ("whether or not the launch setting is shown"; session 46's ruling)
    # lead rule BA (5): an accelerator runtime refusing the device id it maps for the process (Ascend's "device id
    # error" under its communicator's creation) is the device the process was given, as at set_device
    if tagged and not several and not all(e.data.get("at_set_device") or e.data.get("device_map")
                                          or e.data.get("no_frames") for e in evs):
        return None  # a rank's own ordinal elsewhere (an index its code computed) stays its CUDA error
    if all(e.data.get("accel") == "ascend" for e in evs):
        return _npu_ordinal(evs, tagged)
    where = ("the frame selecting its GPU" if all(e.data.get("at_set_device") for e in evs) else "its CUDA call")
    who = ("more than one process asked" if several else f"{_named(tagged)} asked" if tagged else "a process asked")
    # the launcher's record beside it (rule AU (2), session 46): which worker failed first, the others torn down
    told = ("; the launcher's record of the one worker that failed only says which local rank hit it first (the "
            "others are then torn down), every worker being given its GPU the same way" if record else "")
    more = ("Keep --num_processes / nproc_per_node no more than the GPUs visible: set --nproc_per_node to the number "
            "of GPUs visible (torch.cuda.device_count()), or CUDA_VISIBLE_DEVICES to as many GPUs as processes per "
            "node; use torch.cuda.set_device(local_rank) with local_rank < visible GPU count; check nvidia-smi for "
            "the GPUs the job expects, and the project's own gpus / device setting against the launch; "
            "CUDA_LAUNCH_BLOCKING=1 to see the exact call if the ordinal is set elsewhere. " if record else "")
    return Verdict(
        "config",
        f"{who} CUDA for a GPU index its host does not have ('invalid device ordinal' at {where}): the device index "
        "comes from the launch (the local rank, a device / cuda_id argument, CUDA_VISIBLE_DEVICES), which gives every "
        f"process its GPU the same way -- a launch setting, not a CUDA fault and not one rank's{told}",
        more +
        "Give each process a device index below the number of GPUs it sees: count them on every host (nvidia-smi -L; "
        "with CUDA_VISIBLE_DEVICES set, only those, renumbered from 0) -- launch no more processes per node than "
        "visible GPUs: start no more processes per host than that (--nproc_per_node / num_processes / the launch "
        "script's world_size and pipeline or tensor group sizes per host) -- one process per visible GPU: "
        "torch.cuda.device_count() must exceed local_rank" + _mp_clause(evs)
        + ". Derive the index from the local rank (torch.cuda.set_device(LOCAL_RANK), the script's --cuda-id / device "
        "argument as local rank modulo the number of GPUs; a device_ids= list given to dist.barrier the same), and "
        "do not use the global rank as a device index (on several nodes it runs past each node's GPUs: "
        # cuda:{rank} on a multi-node job (round 110's vertex-ai-samples-1454)
        "use torch.cuda.set_device(local_rank), not the global rank, with LOCAL_RANK from the launcher, then "
        "torch.device('cuda')).",
        "medium", [], [e.brief() for e in evs[:3]], job_wide=True)


def _mp_clause(evs: list[Event]) -> str:
    """The ordinal fix's checkpoint clause, only where the lines show model parallelism above the error (parse:
    model_parallel -- fairscale's / Megatron's "initializing model parallel with size N", a model-parallel size
    setting, Llama.build / initialize_model_parallel frames; review 105 (1) finding 5): a checkpoint saved for
    model-parallel size N is loaded by N processes, one GPU each. A size of 1 is no model parallelism."""
    sizes = [mp for e in evs if (mp := e.data.get("model_parallel"))]
    if not sizes:
        return ""
    n = next((s for s in sizes if s is not True), None)
    if n == 1 and all(s is not True for s in sizes):
        return ""
    if n and n > 1:
        return (f"; the job is model-parallel (size {n}): a checkpoint sharded for model parallel size {n} needs {n} "
                f"GPUs -- run it on a host with {n} visible GPUs, or reshard / use a checkpoint saved for the GPUs "
                "there are")
    return ("; the job is model-parallel: a checkpoint sharded for model parallel size N needs N GPUs -- run it on "
            "a host with that many visible GPUs, or reshard / use a checkpoint saved for the GPUs there are")


def _npu_ordinal(evs: list[Event], tagged: list[int]) -> Verdict:
    """_ordinal_launch on Ascend: its runtime's "device id error" (rtGetDeviceIndexByPhyId under HCCL's communicator
    creation, lead rule BA (5)) is a device id the process's visible NPUs do not map -- the launch's."""
    who = f"{_named(tagged)}'s" if tagged else "a process's"
    return Verdict(
        "config",
        f"{who} Ascend runtime refused the device id it was to use ({evs[0].data.get('call') or 'its call'}: "
        "'device id error'), the NPU's "
        "'invalid device ordinal': the device comes from the launch (ASCEND_RT_VISIBLE_DEVICES, the local rank, "
        "torch.npu.set_device, a rank table's device_id), which gives every process its NPU the same way -- a "
        "launch setting, not a fault of the NPU and not one rank's",
        "Give each process a device id its visible NPUs have: list them (npu-smi info), set ASCEND_RT_VISIBLE_DEVICES "
        "to the NPUs of the node (the visible devices are renumbered from 0), start no more processes per node than "
        "that (data / tensor / expert parallel sizes per node), and derive the device from the local rank "
        "(torch.npu.set_device(LOCAL_RANK)); a rank table's device_id must name physical NPUs of that host. If they "
        "match, the runtime cannot map physical to logical ids: the driver / firmware and the CANN toolkit do not "
        "match -- upgrade CANN (and torch_npu) to the versions the driver supports.",
        "medium", [], [e.brief() for e in evs[:3]], job_wide=True)


def _nccl_tests_past_gpus(evs: list[Event]) -> Verdict:
    """Lead rules Q, W: nccl-tests chooses every device itself from the process's local rank on its host (processes
    of the same hostname), its threads (-t) and GPUs (-g): cudaDev = localRank*nThreads*nGpus + thread*nGpus + i. Its
    own CUDA check failing with 'invalid device ordinal' is therefore an index past the host's GPUs, which only the
    launch makes: more processes x -t x -g placed on one host than it has GPUs (mpirun's slots filling the first host,
    hosts that share one hostname, a CUDA_VISIBLE_DEVICES that hides GPUs). Config, no rank: whichever process's
    failure is shown or recorded by mpirun first, every process was placed by the same launch."""
    hosts = sorted({h for e in evs if (h := e.host or _tests_host(e.text))})
    where = f" on {', '.join(hosts[:4])}" if hosts else ""
    # nccl-tests 1.x's check (S.R_TESTS_V1_ORDINAL) carries its preamble's nGpus: each process drives that many GPUs
    g = max((e.data.get("tests_gpus") or 0 for e in evs), default=0)
    each = (f" (its preamble's nGpus {g}: every process asks for {g} GPUs, -g {g})" if g > 1 else "")
    per = (f"With -g {g} every process needs {g} GPUs of its host, so processes per host x {g} must not exceed the "
           f"host's GPUs: -g 1 with one process per GPU (mpirun -np <GPUs> -npernode <GPUs per node> ... -g 1), or "
           f"one process per node with -g <GPUs per node>. " if g > 1 else "")
    return Verdict(
        "config",
        f"nccl-tests failed setting its device with 'invalid device ordinal'{where}{each}: it picks each GPU from the "
        "process's local rank on its host, its -t threads and -g GPUs, so the launch placed more processes x -t x -g "
        "on that host than it has GPUs -- a placement every process shares, not a CUDA fault and not one rank's",
        per + ("Place no more processes on a host than it has GPUs (with -g G, GPUs/G): give mpirun each host's "
               "slots as its GPU count (-H host1:8,host2:8 or a hostfile with slots=8), or -npernode / --map-by "
               "ppr:8:node, with -np and -g matching the GPUs per node; check every node has a unique hostname "
               "(nccl-tests counts local ranks by hostname), that CUDA_VISIBLE_DEVICES leaves the GPUs visible, and "
               "nvidia-smi's GPU count on each host."),
        "high", [], [x.brief() for x in evs[:3]], job_wide=True)


def _tests_host(text: str) -> str:
    """The host nccl-tests names before its failure ("gpu-07: Test CUDA failure ...")."""
    m = re.search(r"([\w.\-]{1,64}): Test CUDA failure", text)
    return m.group(1) if m else ""


# CUDA's math libraries, by the prefix of their functions and libraries: cuBLAS / cuBLASLt, cuDNN, cuFFT, cuSPARSE,
# cuSOLVER, cuRAND
_CUDA_MATH = ("cublas", "cudnn", "cufft", "cusparse", "cusolver", "curand")


def _math_lib(e: Event) -> str | None:
    """The CUDA math library a native crash died in: the first frame past the crash handler's own (UCX's
    "N 0xADDR func()" frames, where the signal trampoline shows as __sigaction or killpg, or a backtrace's library)
    is one of its functions or its .so."""
    funcs = [f for f in e.data.get("funcs", []) if not f.startswith(("_", "ucs_", "ucm_")) and f != "killpg"]
    libs = [x for x in e.data.get("files", []) or e.data.get("libs", [])
            if not x.startswith(("libucs.", "libucm.", "libc.", "libc-", "libpthread.", "libSegFault.", "libunwind.",
                                 "libbacktrace."))]
    first = (funcs[:1] or [x[3:] for x in libs[:1] if x.startswith("lib")])
    return first[0] if first and first[0].lower().startswith(_CUDA_MATH) else None


def _cuda_lib_crash(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """A native crash (SIGFPE, SIGSEGV, SIGILL) whose backtrace's first frame past the crash handler is in one of
    CUDA's math libraries (cuBLAS / cuBLASLt, cuDNN, ...), e.g. cuBLASLt's matmul heuristic dividing by zero: the
    library build does not support this GPU or its own bug -- a CUDA library fault (cuda_error), not the rank's code.
    Several processes crashing there alike share it (lead rule J): nobody named; one process is named by its rank."""
    evs = [e for e in c.samples.get("crash", []) if e.data.get("signal") in (4, 8, 11)]
    where = next((f for e in evs if (f := _math_lib(e))), None)
    if where is None:
        return None
    procs = {(x.host, x.data.get("proc") or x.where) for x in evs}
    ranks = sorted({x.rank for x in evs if x.rank is not None})
    named = ranks if len(procs) == 1 and len(ranks) == 1 else []
    sig = S.SIGNALS_BY_NUMBER.get(evs[0].data["signal"], f"signal {evs[0].data['signal']}")
    lib = ("cuBLASLt" if where.lower().startswith("cublaslt") else "cuBLAS" if where.lower().startswith("cublas")
           else "cuDNN" if where.lower().startswith("cudnn") else where.split("_")[0])
    who = f"{len(procs)} processes" if len(procs) > 1 else _named(named) if named else "a process"
    return Verdict(
        "cuda_error",
        f"{who} died of {sig} ({evs[0].data.get('what') or sig}) inside {lib} ({where}() is the first frame past the "
        "crash handler): a fault in the CUDA library itself -- its build does not support this GPU, or its own bug -- "
        "not the training code" + ("; several processes crashing there alike is a cause they share, not one rank"
                                   if len(procs) > 1 else ""),
        f"Upgrade the CUDA library the crash is in ({lib}: pip install -U nvidia-cublas-cu12 for cuBLAS / cublasLt, "
        "nvidia-cudnn-cu12 for cuDNN) or install a torch build whose CUDA version supports this GPU (its CUDA "
        "libraries must know the GPU's architecture); to confirm, keep torch off that library "
        "(torch.backends.cuda.preferred_blas_library('cublas') instead of cublasLt, torch.backends.cudnn.enabled = "
        "False for cuDNN). Check the driver supports that CUDA version (nvidia-smi).",
        "medium" if named else "low", named, [x.brief() for x in evs[:3]], job_wide=len(procs) > 1)


def _ucx_cuda(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule V (2): UCX's CUDA transport (cuda_ipc, cuda_copy) inside a CUDA-aware MPI failing a CUDA driver call
    ("cuCtxGetDevice ... is failed. ret:invalid device context", "cuIpcOpenMemHandle ... failed") while it maps a
    peer's GPU buffer, then the process crashing in MPI's progress (Segmentation fault in MPI_Bcast): the transport's
    CUDA IPC fails for whichever rank receives a GPU buffer, not one rank's code; the others are ended after it."""
    evs = [e for e in c.samples.get("cuda_error", []) if e.data.get("ucx_cuda")]
    if not evs or len(evs) != c.kinds.get("cuda_error", 0):
        return None
    calls = sorted({e.data["what"] for e in evs})
    crashed = any(e.data.get("signal") in (6, 7, 11) for e in c.samples.get("crash", []))
    return Verdict(
        "cuda_error",
        f"UCX's CUDA transport failed a CUDA driver call ({'; '.join(calls[:3])})"
        + (", and the process then crashed inside MPI's progress" if crashed else "")
        + ": the MPI backend's CUDA IPC path (UCX cuda_ipc, a CUDA-aware MPI) could not use the peer's GPU buffer "
        "from its progress thread (no current CUDA device context there, or the peer's GPU not visible to this "
        "process) -- any rank receiving a GPU tensor would hit it, so no rank is at fault; the ranks ended after it "
        "are victims",
        "Keep MPI off the GPU buffers: use the NCCL backend for CUDA tensors (init_process_group('nccl'), or "
        "'cpu:mpi,cuda:nccl'); to stay on MPI, turn UCX's CUDA IPC off (UCX_TLS=^cuda_ipc, or UCX_TLS=rc,sm,cuda_copy) "
        "or copy the tensors to the CPU before the collective; check that CUDA_VISIBLE_DEVICES shows every process "
        "the GPUs of its peers on the node (CUDA IPC needs the peer's device) and that the CUDA-aware MPI / UCX build "
        "matches the CUDA driver (a newer UCX sets the device context itself: upgrade UCX / Open MPI).",
        "medium",
        [],
        [e.brief() for e in evs[:2]] + _samples(c, "crash", 1),
        job_wide=True,
    )


# a directory a source checkout is built in, not a package's name ("/src/csrc/ops.cu", "/workspace/csrc/x.cu")
_NO_PACKAGE = frozenset({"src", "source", "sources", "build", "workspace", "app", "tmp", "home", "root", "code", "repo",
                         "opt", "usr", "lib", "csrc"})


def _alike(evs: list, ranks: list[int]) -> bool:
    """Whether every rank shows the same CUDA error. torch's ncclUnhandledCudaError is the echo of NCCL's 'Cuda
    failure' line under it, so where each rank shows that line, the lines are compared, not the echoes."""
    if _one_text({(e.data.get("what") or "").lower() for e in evs}):
        return True
    own = [e for e in evs if e.kind == "cuda_error" and e.data.get("what")]
    if not own or not _one_text({e.data["what"].lower() for e in own}):
        return False
    said = {e.rank for e in own}
    # lead rules J, AM (2): a rank whose echo is cut before its 'Last error' text (round 88's pytorch-148150: rank
    # 7's "ncclUnhandledCudaError:" ends the paste) fails alike where its NCCL error is the same line -- the same
    # source location and text -- as a rank that shows the CUDA text, and it shows no other CUDA text of its own
    shown_at = {m.group(0) for e in evs if e.rank in said and (m := _R_NCCL_ERR_AT.search(e.text))}
    for r in set(ranks) - said:
        at = {m.group(0) for e in evs if e.rank == r and (m := _R_NCCL_ERR_AT.search(e.text))}
        if not at or not at <= shown_at or any(e.data.get("last_error") for e in evs if e.rank == r):
            return False
    return True


# cudaErrorDevicesUnavailable's string (cudaGetErrorString), for an error text cut inside it
_BUSY = "cuda-capable device(s) is/are busy or unavailable"
# torch's "NCCL error in: .../NCCLUtils.cpp:133, unhandled cuda error": where and what NCCL returned (_alike)
_R_NCCL_ERR_AT = re.compile(r"NCCL error in: ?[^\s,]{1,400}:\d{1,6}, [a-z][a-z ]{2,60}")


def _one_text(whats: set[str]) -> bool:
    """Whether the errors' texts are one: the same, or a paste's line cut short of the others' ("CUDA error: an
    illegal memory" under one rank's tag, "... an illegal memory access was encountered" under the other's; round
    72's torchtune-1856) -- a start of the longest, long enough to say which error it is."""
    if len(whats) <= 1:
        return True
    whole = max(whats, key=len)
    return all(whole.startswith(w) and len(w) >= 12 for w in whats)


def _one_of_those_shown(c: Collected, ranks: list[int]) -> bool:
    """Lead rule AM (3) over V (2)'s platform reading: the lines show other ranks besides the one whose
    communicator creation returned the CUDA error (their own records, a launcher's label tied to their rank), none of
    them failing on its own -- that one rank is shown failing alone, and is named. Where only the failing rank's
    lines are shown (a launcher's tag on its lines alone), nothing tells its failure from every rank's: V (2)."""
    return len(ranks) == 1 and len(c.ranks) > 1 and not any(
        own_errors(st) for r, st in c.ranks.items() if r not in ranks)


# what to do about a GPU kernel's memory access fault under ROCm, whether the HSA runtime or the amdgpu driver says it
HIP_FAULT_FIX = (
    "Rerun with AMD_SERIALIZE_KERNEL=3 and HIP_LAUNCH_BLOCKING=1 (every kernel waits for the one before, so the "
    "traceback names the kernel that faulted) and AMD_LOG_LEVEL=3 for the failing launch. A memory access fault is "
    "most often a kernel built or chosen for another GPU or ROCm version: a framework's fused kernel or flash "
    "attention (its own HIP/CUDA extensions, hipified) built for another gfx architecture (MI250X is gfx90a, MI300X "
    "gfx942: PYTORCH_ROCM_ARCH) or another ROCm version than torch's (torch.version.hip) -- rebuild those "
    "extensions clean for this GPU and ROCm version, or switch the fused kernels / flash attention off to confirm; "
    "check the ROCm version pairs (torch's ROCm build, the node's ROCm and amdgpu driver). If it is one GPU only: "
    "rocm-smi --showras and dmesg for the amdgpu page fault (the amdgpu kernel log) of that GPU, HSA_ENABLE_SDMA=0 as "
    "a test.")


def _kmd_fault(evs: list) -> tuple[str, str]:
    """A GPU kernel driver's own fault of a device in the kernel log (readers.crash: signatures.R_GPU_KMD_FAULT), the
    Intel / AMD counterpart of an Xid, read like a CUDA error (lead rule AN (2)); the PCI addresses are the GPUs', no
    rank (lead rule AD (2))."""
    pcis = sorted({e.data["pci"] for e in evs})
    gpus = ", ".join(pcis[:6]) + (", ..." if len(pcis) > 6 else "")
    said = evs[0].data["what"]
    if evs[0].data["kmd"] == "amd":
        return (f"a GPU page fault in the amdgpu kernel log ({said}; GPU {gpus}): a GPU kernel read or wrote memory "
                "it may not -- a memory access fault, HIP's illegal address, read like a CUDA error",
                "Map the PCI address to the process's GPU (rocm-smi --showbus) and " + HIP_FAULT_FIX[0].lower()
                + HIP_FAULT_FIX[1:] + " Faults of several GPUs at once in one job point at a kernel every rank runs "
                "(an all-to-all or expert-parallel kernel: try without it), not one bad GPU.")
    return (f"a GPU hang in the Intel xe / i915 driver's kernel log ({said}; GPU {gpus}): a job on that GPU timed out "
            "(a GPU hang / job timeout) and the driver reset its engine, read like a CUDA error; the process using it "
            "then sees the device lost (UR_RESULT_ERROR_DEVICE_LOST)",
            f"Read the device coredump the driver wrote (devcoredump: /sys/class/drm/cardN/device/devcoredump/data) "
            f"and dmesg around the timeout for GPU {gpus}; check its health with xpu-smi (xpu-smi diag) or "
            "intel_gpu_top; keep the xe driver / kernel, the GuC firmware and the Level Zero / compute-runtime "
            "version a matching set (update them, or roll back the image to the last one that ran); a hang in a "
            "collective can be the oneCCL version or its algorithm (CCL_ALLREDUCE=ring as a test); if the same GPU "
            "hangs again, take it out of the job.")


# ROCm's own words for a failed HIP runtime call: RCCL's check ("HIP failure: '...'"), torch's ROCm build ("HIP error:")
_R_HIP_SAID = re.compile(r"\bhip (?:failure|error):?", re.I)
_R_HIP_NO_FUNCTION = re.compile(r"\bhip (?:error|failure):? '?invalid device function")
_R_HIP_NO_DEVICE = re.compile(r"\bno ROCm-capable device is detected\b|\bhipErrorNoDevice\b")


def _rocm_unseen(c: Collected, evs: list[Event]) -> Verdict | None:
    """HIP's 'no ROCm-capable device is detected' (hipErrorNoDevice) at a process's start, with the ROCm
    device-selection settings the script exports shown wrong (readers.settings' ``rocm_env``): HIP_VISIBLE_DEVICES
    indexes the devices ROCR_VISIBLE_DEVICES leaves, renumbered from 0, so an index at or past their number selects
    none; HSA_OVERRIDE_GFX_VERSION takes a version (9.0.6), not a target name. A setting every process of the launch
    shares, not a faulty device: config, no rank (lead rules V (1), AU (2)). None where no setting is shown wrong
    (the device error's own reading stays)."""
    if not evs or not all(_R_HIP_NO_DEVICE.search(e.text) for e in evs):
        return None
    env = next(iter(c.samples.get("rocm_env", [])), None)
    if env is None:
        return None
    d, wrong, fixes = env.data, [], []
    rocr, hip, gfx = d.get("rocr"), d.get("hip"), d.get("gfx")
    if rocr and hip and max(hip) >= len(rocr):
        wrong.append(f"HIP_VISIBLE_DEVICES={','.join(map(str, hip))} indexes the {len(rocr)} device(s) "
                     f"ROCR_VISIBLE_DEVICES={','.join(map(str, rocr))} leaves, renumbered from 0: it selects none")
        fixes.append(f"do not set both to the physical index: set only ROCR_VISIBLE_DEVICES={','.join(map(str, rocr))} "
                     f"(or only HIP_VISIBLE_DEVICES={','.join(map(str, rocr))}), or HIP_VISIBLE_DEVICES="
                     f"{','.join(str(i) for i in range(len(rocr)))} beside it: ROCR_VISIBLE_DEVICES / "
                     "HIP_VISIBLE_DEVICES index the already-filtered device list")
    if gfx and not S.R_GFX_VERSION_OK.match(gfx):
        wrong.append(f"HSA_OVERRIDE_GFX_VERSION={gfx} is not a version (major.minor.stepping)")
        fixes.append("HSA_OVERRIDE_GFX_VERSION must be a version like 9.0.6 or 10.3.0, not a target name -- or "
                     "unset it")
    if not wrong:
        return None
    return Verdict(
        "config",
        "the process found no GPU at start-up (HIP: 'no ROCm-capable device is detected') under the ROCm device "
        "settings the launch exports: " + "; ".join(wrong) + " -- the launch's setting, shared by every process it "
        "starts, not a faulty device",
        "Fix the device selection: " + "; ".join(fixes) + ". Then check the GPU is visible: rocminfo / rocm-smi "
        "(hy-smi on a Hygon DCU), and /dev/kfd and /dev/dri passed to the container (render / video groups).",
        "medium", [], [e.brief() for e in evs[:2]] + [env.brief()], job_wide=True)


def _cuda(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    # lead rule X (3): the driver refusing a call for its version, returned by NCCL as its internal error, is NCCL's
    # build against the driver (verdict.nccl._driver_too_old), not a CUDA fault
    refused = driver_refused(c) is not None
    # lead rule BO (3): an Ascend operator's error that only carried HCCL's own internal error (readers.crash
    # _accel_ccl_internal) is the collective library's, read by verdict.nccl
    evs = [e for e in c.samples.get("cuda_error", []) if not (refused and R_DRIVER_REFUSES.search(e.text))
           and not e.data.get("hccl_internal")] + [
        e for e in c.samples.get("nccl_error", []) if e.data.get("code") == "ncclUnhandledCudaError"
    ]
    cut = not evs and not any("driver shutting down" in (e.data.get("what") or "") for e in c.samples.get("benign", []))
    if cut:  # the watchdog's CUDA check raised (its backtrace's frame), the error's own line not shown
        evs = c.samples.get("cuda_check", [])
    if not evs or (c.kinds.get("shm_error") and all("NCCL WARN" in e.text for e in evs)):
        return None  # 'Cuda failure' while NCCL registers its shared memory: the shm detector says it
    if _after_ib(c, evs):
        return None  # the fabric failed first (IB work completions in error): the CUDA errors of the teardown follow
    if all(e.data.get("driver_cuda") for e in evs):
        return _torch_driver_old(evs)
    if all(e.data.get("cuda_init") for e in evs):
        return _torch_cuda_init(evs)
    if all(e.data.get("fm_multicast") for e in evs):
        return _fm_multicast(evs)
    if _after_kernel_timeout(c, evs):
        return None  # a communication kernel timed out on the device first: its trap is the 719 that follows
    if (unseen := _rocm_unseen(c, evs)) is not None:
        return unseen
    over = _procs_past_gpus(c, evs)
    if over is not None:
        return over
    ranks = sorted(set(_ranks(c, "cuda_error")) | {e.rank for e in evs if e.rank is not None})
    # lead rule AF(3): another process's watchdog crash (its rethrow's tail, its header not pasted) is shown before a
    # rank's own watchdog CUDA error: that rank is not shown failing alone, and the other process has no name
    other = next((e for e in evs if e.data.get("other_crash")), None)
    # lead rules J, AM (2): two processes' std::terminate headers run into one line ("terminate called after throwing
    # an instance of 'terminate called after throwing an instance of '...": within one process a second terminate
    # prints "terminate called recursively") on this CUDA error: two processes hit it on their own at once, so the
    # one rank a tag or a launcher's record names is not shown failing alone
    twice = next((e for e in evs if e.rank is None and e.text.count("terminate called after throwing") >= 2), None)
    # rule CK (2) (review a of round 110, #1): the XRT client's session call failing in two or more processes -- spawn's
    # 'Process N' blocks, or xmp.spawn's 'Exception in device=TPU:N' lines, each ordinal a process -- is every process
    # failing alike: no one process named (the spawn block's index is only the one spawn printed)
    xrt = [e for e in evs if e.data.get("xrt_run")]
    xrt_procs = sorted({e.rank for e in xrt if e.rank is not None}
                       | {e.data["xla_dev"] for e in xrt if e.rank is None and e.data.get("xla_dev") is not None})
    xrt_all = len(xrt_procs) >= 2 and len(xrt) == len(evs)
    if xrt_all:
        ranks = []
    shown, ranks = ranks, [] if other is not None or (twice is not None and len(ranks) <= 1) else ranks
    twice = twice if twice is not None and not ranks else None
    alone, only = ([], "") if ranks or other or twice else destroyed_rank(c, evs)
    if not ranks and not alone and not other and not twice:
        alone, only = version_rank(c, evs)
    if not ranks and not alone and not other and not twice:
        alone, only = traced_rank(c, evs)
    if not ranks and not alone and not other and not twice:
        alone, only = aborted_rank(c, evs)
    if not ranks and not alone and not other and not twice:
        alone, only = tests_trail_rank(c, evs)
    text = " ".join(
        (e.data.get("what") or "") + " " + (e.data.get("last_error") or "") + " " + e.text for e in evs
    ).lower()
    # NCCL's WARN about the CUDA call it failed ("failed to open CUDA IPC handle : 217 peer access is not supported
    # between these two devices") often comes without "Cuda failure" and before the error it causes
    text += " " + " ".join(w for e in c.samples.get("nccl_warn", []) if "cuda" in (w := e.data.get("warn", "").lower()))
    # a consequence Xid's "caused by previous Xid N" names the one that failed first, shown or not
    xids = sorted({e.data[k] for e in evs for k in ("xid", "cause_xid") if e.data.get(k) is not None})
    hsa = sorted({e.data["hsa_node"] for e in evs if e.data.get("hsa_node") is not None})
    build = init_err = multicast = old_driver = peer_map = False
    if xids:
        what, fix = xid_meaning(xids, sorted({e.data["pci"] for e in evs if e.data.get("pci")}))
    elif lost := sorted({e.data["pci"] for e in evs if e.data.get("lost")}):
        gpus = ", ".join(lost[:4])  # nvidia-smi's view of the node: a GPU it can no longer reach
        said = next(e.data["what"] for e in evs if e.data.get("lost"))
        what = (f"a GPU that dropped off its PCIe link ({said}; the driver's Xid 79, 'fallen off the bus'): a "
                "hardware fault of that node, not the training code")
        fix = (f"Drain that node and look at GPU {gpus}: dmesg -T | grep -iE 'xid|aer|pcie' (Xid 79, PCIe AER errors "
               "of the root port above it), nvidia-smi -q once it is back; reboot the node to recover the GPU, and "
               "if it drops again check the PCIe link / riser, power and cooling, reseat or replace the GPU. Map the "
               "PCI address to the rank's GPU with nvidia-smi --query-gpu=pci.bus_id,index --format=csv.")
    elif any(e.data.get("reset_required") for e in evs):
        # the driver's NV_ERR_RESET_REQUIRED in the kernel log (readers.crash): whatever CUDA call failed beside it
        # (a new context refused as 'busy or unavailable'), the GPU is unusable until it is reset -- not a compute
        # mode or another process, and not the training code
        said = next((e.data["what"] for e in evs if not e.data.get("reset_required") and e.data.get("what")), "")
        what = ("a GPU that the NVIDIA driver says needs a reset (its kernel log: 'Reset required "
                "[NV_ERR_RESET_REQUIRED]'): an earlier fault left the GPU unusable until it is reset"
                + (f", so the CUDA call failed ('{said}')" if said else "") + " -- the GPU or its driver, not the "
                "training code")
        fix = ("Reset the GPU (nvidia-smi -r) or reboot the node; look in dmesg for the NVRM Xid before it (GSP "
               "errors, Xid 119 / 154: a GPU that needs a reset), check it with nvidia-smi -q and dcgmi diag, and "
               "drain that GPU (exclude it from the job) if the failure comes back after the reset; update the driver "
               "and its GSP firmware if it recurs on several GPUs.")
    elif hsa:  # ROCm's HSA runtime: a hardware exception of the GPU itself (its Xid), the rank holding it not said
        gpus = ", ".join(f"node-{n}" for n in hsa[:4])
        said = next(e.data["what"] for e in evs if e.data.get("hsa_node") is not None)
        what = (f"a hardware exception of the GPU ({said}; GPU {gpus} in the KFD topology): the GPU or its driver "
                "failed, not the training code")
        fix = (f"Look at that GPU ({gpus}: /sys/class/kfd/kfd/topology/nodes/N maps it to a PCI address): dmesg / the "
               "amdgpu kernel log for its reset or fault, rocm-smi (and rocm-smi --showras) for its errors; check the "
               "ROCm / amdgpu driver version pair and take the GPU out of the job until it passes a stress test "
               "(rocm-validation-suite, rvs). A 'GPU Hang' can also be a kernel that never finishes: rerun with "
               "AMD_LOG_LEVEL=3 or HIP_LAUNCH_BLOCKING=1 to find it.")
    elif faults := sorted({e.data["hsa_fault"] for e in evs if e.data.get("hsa_fault") is not None}):
        # ROCm's HSA runtime: "Memory access fault by GPU node-N ... Reason: X", HIP's illegal memory access (lead
        # rule AN (2)) -- a kernel of that process, unless the reason is the GPU memory's own ECC
        gpus = ", ".join(f"node-{n}" for n in faults[:6]) + (", ..." if c.kinds.get("cuda_error", 0) > len(evs) else "")
        why = next(e.data["fault_why"] for e in evs if e.data.get("hsa_fault") is not None)
        what = (f"a memory access fault of a GPU kernel under ROCm (the HSA runtime's 'Memory access fault by GPU "
                f"node-N ... Reason: {why}', on GPU {gpus}: HIP's illegal memory access)")
        fix = HIP_FAULT_FIX
        if "ecc" in why.lower():
            what += ": an ECC failure of the GPU's memory, a hardware fault of that GPU, not the training code"
            fix = ("The GPU's memory reported an ECC failure: drain that node and check the GPU (rocm-smi --showras, "
                   "the amdgpu kernel log in dmesg), take it out of the job until it passes a stress test "
                   "(rocm-validation-suite, rvs); reset or replace it if the errors repeat. " + fix)
    elif kmd := [e for e in evs if e.data.get("kmd")]:
        what, fix = _kmd_fault(kmd)
    elif accel := [e for e in evs if e.data.get("accel")]:
        # another accelerator's runtime (Intel's Unified Runtime / Level Zero under torch's XPU, Habana's SynapseAI,
        # AWS Neuron's runtime, Ascend's HCCP start) read as CUDA's (lead rule AN (2)); its out-of-device-memory code
        # is an OOM (readers/crash._oom), not this
        what, fix = _accel_error(accel[0].data["what"], accel[0].data["accel"], ranks, accel[0].data.get("npu_code"),
                                 vllm=_names_vllm(c, evs))
    elif cut and any("_hip" in e.text for e in evs):
        # the same check in torch's ROCm build (libtorch_hip's WorkNCCL frame, c10_hip_check_implementation above it):
        # a HIP error on that process's GPU, read like CUDA's (lead rule AN (2)), with ROCm's own tools to find it
        what, fix = (
            "a HIP error that the watchdog found checking a finished collective's GPU event (c10's backtrace through "
            "WorkNCCL::finishedGPUExecutionInternal in torch's ROCm build, libtorch_hip, and "
            "c10_hip_check_implementation: a kernel on that GPU failed earlier, most often an illegal memory access "
            "or a launch failure); the error's own message is not in these lines",
            "Find the 'HIP error: ...' line above 'Exception raised from c10_hip_check_implementation' in that "
            "process's full stderr; rerun with AMD_SERIALIZE_KERNEL=3 / HIP_LAUNCH_BLOCKING=1 so the failing kernel "
            "raises where it runs, and check dmesg for amdgpu faults and rocm-smi for the GPU's health (rocm-smi "
            "--showras); check the ROCm / driver / torch build versions as a set.",
        )
    elif cut:
        what, fix = (
            "a CUDA error that the watchdog found checking a finished collective's CUDA event (c10's backtrace through "
            "WorkNCCL::finishedGPUExecutionInternal and c10_cuda_check_implementation: a kernel on that GPU failed "
            "earlier, most often an illegal memory access or a device-side assert); the error's own message is not "
            "in these lines",
            "Find the 'CUDA error: ...' line above 'Exception raised from c10_cuda_check_implementation' in that "
            "process's full stderr; rerun with CUDA_LAUNCH_BLOCKING=1 so the failing kernel raises where it runs "
            "(compute-sanitizer for an illegal memory access, TORCH_USE_CUDA_DSA for a device-side assert), and check "
            "dmesg -T | grep -i xid on that node for the GPU's own errors.",
        )
    elif "during capture" in text or "stream capture" in text or "stream is capturing" in text:
        what, fix = (  # cudaErrorStreamCapture*: "operation failed due to a previous error during capture", ...
            "a CUDA stream-capture error ('... during capture'): a collective was issued while a CUDA graph was being "
            "captured and the capture had already failed (or the operation is not allowed in a capture), which "
            "poisons the communicator",
            "Run without CUDA graphs to confirm (eager mode: the framework's disable_cuda_graphs / --enforce-eager / "
            "torch.compile mode without cudagraphs); then capture only after NCCL's warm-up collectives, keep "
            "TORCH_NCCL_ASYNC_ERROR_HANDLING on, and use a NCCL/torch that supports collectives in graph capture.",
        )
    elif "uncorrectable nvlink" in text or "nvlinkuncorrectable" in text:
        what, fix = (  # cudaErrorNvlinkUncorrectable (220): the driver saw an NVLink fault during the GPU's work
            "an uncorrectable NVLink error (cudaErrorNvlinkUncorrectable): the NVLink between that GPU and its peers "
            "(or the NVSwitch fabric) failed while it ran -- a hardware / driver fault (the driver's Xid 74), not the "
            "training code",
            "Drain that node and check the GPU's links: dmesg -T | grep -i xid (Xid 74: NVLink error, and the Xid "
            "14x NVLink errors on newer GPUs), nvidia-smi nvlink -s / nvidia-smi nvlink -e (link state and error "
            "counters), nvidia-smi -q, the fabric manager's log and service (nvidia-fabricmanager, its version equal "
            "to the driver's) on NVSwitch systems, and DCGM diagnostics (dcgmi diag -r 3); reset the GPU "
            "(nvidia-smi -r) or reboot the node, and exclude that GPU / node from the job until its links pass "
            "(a link that fails again needs the hardware replaced); set NCCL_P2P_DISABLE=1 to avoid NVLink while "
            "diagnosing (the job then runs over PCIe / shared memory: if it passes so, the links are at fault).",
        )
    elif "ecc error" in text:
        what, fix = (
            "an uncorrectable ECC error in the GPU's memory (cudaErrorECCUncorrectable): a hardware fault of that "
            "GPU, not the training code",
            "Drain that node and check the GPU: nvidia-smi -q -d ECC,PAGE_RETIREMENT,ROW_REMAPPER (volatile / "
            "aggregate uncorrectable counts, pending remaps), dmesg -T | grep -i xid (Xid 48, 94, 95), dcgmi diag -r "
            "3; a pending row remap needs a GPU reset (nvidia-smi -r), repeated errors a replacement. Report the "
            # the job itself goes on elsewhere (round 110's pytorch-63174: a multi-node run on a shared cluster,
            # the faulty node not named in the lines)
            "node to the cluster admins and restart from the last checkpoint without that node (sbatch --exclude); "
            "where the lines name no host or rank, print them with every exception (srun -l, a rank / host log "
            "prefix) to find the faulty node.",
        )
    elif "999" in text or "unknown error" in text:
        what, fix = (
            "'Cuda failure 999 unknown error': the CUDA driver/GPU is in a bad state",
            # torch raises it where it next synchronizes (the asynchronous-report note): the call shown need not be
            # the one that failed (round 88's mu-got-7: 'CUDA error: unknown error' in a softmax)
            "Check GPU health and the driver on that node: nvidia-smi (is the GPU visible, any 'ERR!'), "
            "dmesg -T | grep -i xid "
            "for Xid errors, and that the driver supports the container's CUDA runtime (update the NVIDIA driver, "
            "or install the torch build for its CUDA; under WSL2 the Windows-side driver); reset or drain the GPU. "
            "CUDA errors are reported asynchronously: rerun with CUDA_LAUNCH_BLOCKING=1 to see the call that failed.",
        )
    elif "invalid kernel file" in text or "kernel image is invalid" in text:
        # hipErrorInvalidKernelFile ("invalid kernel file") / cudaErrorInvalidKernelImage and hipErrorInvalidImage
        # ("device kernel image is invalid"): the library's code object for its kernels does not load on this GPU --
        # built for another GPU architecture or another ROCm / CUDA than the one it runs under. Every rank loads that
        # library (lead rules V (2), AX (4), as 'invalid device function'): the build, not a rank (round 70, RCCL in
        # enqueue.cc at communicator creation)
        build = True
        said = "invalid kernel file" if "invalid kernel file" in text else "device kernel image is invalid"
        what, fix = (
            f"a GPU runtime error saying the library's kernel code object does not load on this GPU ('{said}')",
            "The collective library's (RCCL / NCCL, or the framework's) kernels were built for another GPU "
            "architecture or another ROCm / CUDA version than this one: use an RCCL build for this GPU and ROCm "
            "version (the ROCm of torch.version.hip, the RCCL that ROCm release ships), or rebuild RCCL with "
            "AMDGPU_TARGETS (GPU_TARGETS) naming this GPU's gfx architecture (rocminfo | grep gfx; MI250X gfx90a, "
            "MI300X gfx942; PyTorch's own kernels: PYTORCH_ROCM_ARCH) -- a consumer GPU outside the build's list may "
            "run with HSA_OVERRIDE_GFX_VERSION set to a supported one; under CUDA rebuild with NVCC_GENCODE / "
            "TORCH_CUDA_ARCH_LIST for the GPU's compute capability and a toolkit the driver supports. Check that one "
            "RCCL / NCCL library is loaded (ldd, LD_LIBRARY_PATH: torch's bundled one vs a system one).",
        )
    elif "named symbol not found" in text or "no kernel image" in text or "invalid device function" in text:
        # cudaErrorNoKernelImageForDevice / cudaErrorInvalidDeviceFunction ("the requested device function does not
        # exist or is not compiled for the proper device architecture") / a missing symbol at kernel launch: the
        # binary holds no code for this GPU's architecture. Every rank runs that binary (lead rule V (2)): the
        # build is at fault, not a rank
        build = True
        said = next(w for w in ("no kernel image", "invalid device function", "named symbol not found") if w in text)
        what, fix = (
            f"a CUDA error saying the binary has no kernel for this GPU ('{said}')",
            "The NCCL (or nccl-tests/PyTorch) binary was built without code for this GPU's compute capability (CUDA "
            "arch): rebuild it with NVCC_GENCODE including that architecture (e.g. -gencode=arch=compute_90,"
            "code=sm_90 for H100), or install a PyTorch build with CUDA/NCCL matching the GPU's compute capability and "
            "a CUDA version the driver supports (check torch.cuda.get_arch_list() against "
            "torch.cuda.get_device_capability(); an old GPU such as a Kepler sm_35 needs an older build that still "
            "lists it); check nvidia-smi "
            "--query-gpu=name,compute_cap --format=csv for the architecture each GPU needs ('named symbol not "
            "found' is cudaErrorSymbolNotFound: a kernel the build does not hold). A project's own CUDA "
            "extension (a setup.py / torch.utils.cpp_extension build of .cu sources) is such a binary too: rebuild it "
            "clean (remove its build/ directory) with TORCH_CUDA_ARCH_LIST set to that compute capability (e.g. "
            "TORCH_CUDA_ARCH_LIST=8.6) and a CUDA toolkit (CUDA_HOME) matching the one PyTorch was built with "
            "(torch.version.cuda).",
        )
        if _R_HIP_NO_FUNCTION.search(text) and "cuda error" not in text:
            # hipErrorInvalidDeviceFunction: torch's ROCm build (or RCCL, or a compiled op) holds no code object for
            # this GPU's gfx target -- CUDA's 'no kernel image', its tools ROCm's (lead rule AN (2)); torch's "HIP
            # error: ..." or RCCL's own check, "HIP failure: '...'"
            what = (f"a HIP error saying the build has no kernel for this GPU ('{said}': torch's ROCm build, RCCL or "
                    "a compiled op holds no code for the GPU's gfx architecture, HIP's counterpart of CUDA's 'no "
                    "kernel image')")
            fix = ("The ROCm build (torch's ROCm wheel, the RCCL it loads, the framework's compiled ops) holds no code "
                   "for this GPU's gfx target: check rocminfo's gfx target (rocminfo | grep gfx) against "
                   "torch.cuda.get_arch_list(); install a ROCm PyTorch build (and ROCm release / rocm/pytorch image) "
                   "that supports that gfx target, or rebuild torch / the ops with PYTORCH_ROCM_ARCH naming it; "
                   "HSA_OVERRIDE_GFX_VERSION for an unsupported consumer GPU of a supported family; match the ROCm "
                   "version of torch, RCCL and the driver; AMD_SERIALIZE_KERNEL=3 to confirm the failing kernel.")
        if (cu := _build_cuda(c)) and int(cu[1].split(".")[0]) <= 10:
            fix += (f" NCCL here is {cu[0]}, built with CUDA {cu[1]}, which cannot hold code for compute capability "
                    "8.0 or newer (A100, A30, RTX 30xx and later need a CUDA 11+ build, sm_80/sm_86; H100 CUDA "
                    "11.8+): install a PyTorch/NCCL build for the GPU (PyTorch built for CUDA 11 or 12) or upgrade "
                    "NCCL.")
    elif "system not yet initialized" in text or "system not ready" in text:
        what, fix = (
            "'system not yet initialized' (cudaErrorSystemNotReady): on an NVSwitch system (HGX/DGX A100, H100) the "
            "GPUs are not usable until the fabric manager has set up the NVSwitches",
            "Start the fabric manager on that node (systemctl start nvidia-fabricmanager; its version must equal the "
            "driver's) and check nvidia-smi -q (fabric state: `nvidia-smi -q | grep -i fabric` says 'Completed'); "
            "reboot / reset the GPUs after fixing the fabric manager where the state stays 'In Progress' or failed.",
        )
    elif "driver version is insufficient" in text or "forward compatibility" in text or R_DRIVER_REFUSES.search(
            " ".join((e.data.get("what") or "") + " " + e.text for e in evs)):
        # the installed driver older than the CUDA runtime the build was made with: cudaErrorInsufficientDriver, or
        # the runtime's "API call is not supported in the installed CUDA driver" (cudaErrorCallRequiresNewerDriver:
        # one API of that runtime, NCCL's stream-capture query in enqueue.cc, that the driver does not have) -- the
        # host's driver and the build every rank runs, not one rank's (lead rules AT (1), V (2), AG)
        old_driver = True
        what, fix = (
            "'CUDA driver version is insufficient for CUDA runtime version': the container's CUDA is newer than the "
            "node's driver",
            "Use a build (container, torch wheel; nccl-tests and NCCL rebuilt with that CUDA) whose CUDA version the "
            "node's driver supports (nvidia-smi shows the driver version and its highest CUDA), or upgrade the NVIDIA "
            "driver on that node (a data-center GPU can also run a newer CUDA on the old driver through the "
            "cuda-compat package on LD_LIBRARY_PATH).",
        )
        if "driver version is insufficient" not in text:
            what = ("'API call is not supported in the installed CUDA driver' (cudaErrorCallRequiresNewerDriver): the "
                    "build (NCCL, torch) calls a CUDA runtime API that the node's NVIDIA driver is too old to have")
            if "enqueue.cc" in text:
                fix += (" NCCL's own call failing so at its collective's enqueue (enqueue.cc's stream-capture query, "
                        "cudaStreamGetCaptureInfo_v2 of CUDA 11.3+) on an older driver: upgrade NCCL to 2.9.9 or "
                        "later (it no longer fails that query) or use an NCCL build for the driver's CUDA version; "
                        "NCCL WARNs after it ('invalid root', 'invalid device ordinal') are the broken communicator "
                        "that follows.")
    elif "failed lazily at initialization" in text or "device < num_gpus" in text:
        what, fix = (  # torch's DeferredCudaCallError: the process's CUDA initialisation saw no usable GPU for it
            "a failed CUDA initialisation (torch's DeferredCudaCallError at its first CUDA call, e.g. "
            "torch.cuda.set_device): the process sees no GPU for the device index it asks for",
            "Check the GPUs each process sees: nvidia-smi on the node, CUDA_VISIBLE_DEVICES as the scheduler sets it "
            "(GPUs per task, MIG instances), and that torch.cuda.set_device(local_rank) asks for a device that exists "
            "(LOCAL_RANK below the number of visible GPUs: --nproc_per_node / GPUs per task no larger than it).",
        )
    elif "invalid device ordinal" in text:
        what, fix = (
            "'invalid device ordinal': a process asked for a GPU index that does not exist on its node",
            "Each process must use torch.cuda.set_device(int(os.environ['LOCAL_RANK'])) (not the global rank), and "
            "--nproc-per-node must not exceed the GPUs CUDA_VISIBLE_DEVICES leaves visible.",
        )
    elif ext := re.search(r"\berror [a-z][^\n]{2,100}? at line \d{1,6} in file (\S{1,200}\.(?:c|cc|cpp|cu|cuh))\b",
                          text):
        # a C/CUDA extension's own CUDA check (bitsandbytes' CUDA_CHECK_RETURN: "Error operation not supported at line
        # 351 in file .../bitsandbytes/csrc/pythonInterface.c"): the extension's CUDA call, not NCCL's
        pkg = re.search(r"([\w.\-]{1,64})/csrc/", ext.group(1))  # the package's source tree names it
        # ... unless it is only a build's checkout directory ("/src/csrc/ops.cu": bitsandbytes built under /src)
        lib = pkg.group(1) if pkg and pkg.group(1).lower() not in _NO_PACKAGE else "the extension"
        what = (f"a CUDA error in {lib}'s own C/CUDA code (its check printed 'Error ... at line N in file ...'), "
                "not in NCCL or torch")
        fix = (f"The failing call is {lib}'s: upgrade {lib} to a build for this CUDA version and driver, or avoid the "
               "feature that needs it.")
        if "illegal memory access" in text:
            # the extension's own kernel read or wrote out of bounds (round 72's torchtune-1856: bitsandbytes'
            # ops.cu under its paged optimizer)
            fix += (f" 'an illegal memory access' at {ext.group(1)} is that extension's kernel reading or writing "
                    "out of bounds: rerun with CUDA_LAUNCH_BLOCKING=1 (or under compute-sanitizer) to confirm the "
                    "kernel, TORCH_USE_CUDA_DSA for torch's own asserts; replace the extension's op by torch's own "
                    "(a bitsandbytes paged / 8-bit optimizer by torch.optim.AdamW) or upgrade the extension.")
        if "operation not supported" in text:
            fix += (" 'operation not supported' there is managed/paged memory (cudaMemPrefetchAsync) the GPU, driver, "
                    "WSL or vGPU does not support: for bitsandbytes use a plain optimizer instead of its paged one "
                    "(optim paged_adamw_* -> adamw_torch).")
    elif "operation not supported" in text and "userbuffers" in text:
        # Transformer Engine's Userbuffers (--tp-comm-overlap) creating its communicator: the CUDA call it refuses
        # there is a multicast object's (cuMulticastCreate, NVLink SHARP), which needs NVSwitch-connected GPUs and a
        # driver >= 535 -- the platform every rank shares, not a rank (lead rules AT (1), V (2); round 88's
        # transformerengine-991); NCCL's cuMem reading below is not its remedy
        multicast = True
        what, fix = (
            "'operation not supported' from a CUDA call Transformer Engine's Userbuffers makes while creating its "
            "communicator for the tensor-parallel comm overlap: CUDA multicast objects, which this GPU / driver does "
            "not offer",
            "CUDA multicast needs NVSwitch-connected GPUs and an NVIDIA driver >= 535 (nvidia-smi shows the driver "
            "version): upgrade the NVIDIA driver (and the fabric manager on NVSwitch systems, its version equal to the "
            "driver's), or set UB_SKIPMC=1 so Userbuffers falls back to CUDA IPC handles, or disable tp comm overlap "
            "(--tp-comm-overlap off, ub_tp_comm_overlap=False) to confirm.",
        )
    elif "operation not supported" in text or "operation not permitted" in text:
        what, fix = (
            f"'{'operation not supported' if 'supported' in text else 'operation not permitted'}' from a CUDA call "
            "NCCL makes to share GPU memory between processes (cuMem / CUDA IPC), which the container or driver "
            "does not allow",
            "Set NCCL_CUMEM_ENABLE=0 (NCCL then uses legacy CUDA IPC), or run the ranks of a node in one container "
            "with --ipc=host and the same PID namespace (--pid=host); as a test NCCL_P2P_DISABLE=1.",
        )
        if re.search(r"\binit\.cc:\d+ nccl warn cuda failure[^\n]{0,20}'operation not supported", text):
            # init.cc's own CUDA call at communicator creation, no transport involved: NCCL >= 2.26 creates a CUDA
            # memory pool there (cudaMemPoolCreate), which a vGPU VM without unified memory refuses
            what = ("'operation not supported' from the CUDA call NCCL makes while creating the communicator "
                    "(init.cc: NCCL >= 2.26 creates a CUDA memory pool there), which this GPU's driver or "
                    "virtualization does not offer")
            fix = ("On a vGPU VM (VMware, other hypervisors) enable unified memory for the vGPU "
                   "(pciPassthru<N>.cfg.enable_uvm = 1) or use a passthrough GPU; otherwise update the driver, or pin "
                   "an NCCL older than 2.26 (the nvidia-nccl-cu* wheel torch loads). NCCL_CUMEM_ENABLE=0 does not "
                   "avoid this call.")
    elif "peer access" in text or "peer mapping" in text:
        peer_map = True
        what, fix = (
            "a CUDA error setting up GPU peer-to-peer access ('peer access is not supported' / 'peer mapping "
            "resources exhausted')",
            "The GPUs cannot map each other's memory on this node (PCIe topology, IOMMU/ACS, a VM or container "
            "without P2P): test with NCCL_P2P_DISABLE=1 (NCCL then goes through host memory), check nvidia-smi topo "
            "-m and that IOMMU/ACS is off; with more than 8 GPUs in one process, P2P mappings run out.",
        )
        if "shm.cc" in text:  # NCCL >= 2.27 shares its SHM transport's host buffers through cuMem handles
            what += (" in NCCL's shared-memory transport (transport/shm.cc), which shares its host buffers through "
                     "cuMem handles (NCCL_CUMEM_HOST_ENABLE, NCCL >= 2.27) that need peer access between the GPUs")
            fix = ("Set NCCL_CUMEM_HOST_ENABLE=0 (the SHM transport then uses /dev/shm as before; give the container "
                   "enough --shm-size) or upgrade NCCL/the driver past the fix. " + fix)
        if "custom_all_reduce" in text or "custom all-reduce" in text:  # vLLM/sglang's own P2P all-reduce kernel
            what += " in the serving engine's custom all-reduce kernel, which needs P2P between the GPUs"
            fix = ("Disable the custom all-reduce on GPUs without P2P (vLLM --disable-custom-all-reduce, sglang "
                   "--disable-custom-all-reduce / disable_custom_all_reduce=True): it then uses NCCL. " + fix)
    elif "mapping of buffer object failed" in text:
        peer_map = True
        # cudaErrorMapBufferObjectFailed (205): NCCL's ncclMemAlloc (allocator.cc) maps each cuMem allocation into
        # every peer GPU that reports P2P access, so the mapping refused is the peer mapping between two GPUs of
        # the node -- the platform / GPU pair (lead rule V (2)), not a rank's code
        what, fix = (
            "a CUDA error mapping a buffer object ('mapping of buffer object failed', 205): NCCL maps its buffers "
            "into every peer GPU that reports P2P access (ncclMemAlloc's cuMem mapping), and that peer mapping failed",
            "The GPUs report peer-to-peer access they cannot map on this node: test with NCCL_P2P_DISABLE=1 (NCCL then "
            "copies through host memory) and with NCCL_CUMEM_ENABLE=0; check the pair with CUDA's "
            "p2pBandwidthLatencyTest and nvidia-smi topo -m, the BAR1 size of each GPU (nvidia-smi -q; Resizable BAR "
            "in the BIOS) -- mixed GPU models, a P2P-patched driver or open kernel modules often report P2P that does "
            "not map -- and the IOMMU/ACS settings; update the driver version.",
        )
        if "ncclmemalloc" not in text and "allocator.cc" not in text and "nccl warn" not in text:
            # the call that failed is not shown as NCCL's (a library's own peer exchange, a custom kernel mapping its
            # peers' buffers): the same GPU peer mapping, which NCCL's switches do not reach
            what = ("a CUDA error mapping a buffer object ('mapping of buffer object failed', 205): a call mapping "
                    "another GPU's buffer for peer-to-peer access failed")
            fix = ("The GPUs cannot map each other's buffers on this node: check GPU peer access / P2P between the "
                   "pair (nvidia-smi topo -p2p r, CUDA's p2pBandwidthLatencyTest, nvidia-smi topo -m), the BAR1 size "
                   "of each GPU (nvidia-smi -q; Resizable BAR in the BIOS), the IOMMU/ACS settings and a driver that "
                   "supports P2P on these GPUs (consumer GeForce cards often do not); the library's own peer exchange "
                   "is not NCCL's, so NCCL_P2P_DISABLE=1 does not avoid it: use its path without peer-to-peer "
                   "(an NCCL collective instead). Rerun with CUDA_LAUNCH_BLOCKING=1 to confirm the failing call.")
    elif ipc := re.search(r"\b(?:cuda|hip)ipc\w{0,40}", text):
        # NCCL's P2P transport exporting or opening a GPU buffer's IPC handle for a peer process (transport/p2p.cc):
        # the driver, the IOMMU or the container refusing GPU memory sharing between processes (lead rule V (2))
        api = next((e.data["api"] for e in evs if (e.data.get("api") or "").lower() == ipc.group(0)), ipc.group(0))
        what, fix = (
            f"a failed CUDA/HIP IPC call ({api}), which shares GPU buffers between the processes for NCCL's P2P "
            "transport",
            "The GPUs' memory cannot be shared between processes here (P2P/IPC): test with NCCL_P2P_DISABLE=1; run "
            "the ranks of a node in one container with --ipc=host; check the IOMMU (on AMD GPUs iommu=pt on the "
            "kernel command line), a virtual machine's GPU passthrough (P2P often unsupported), and that the driver "
            "(amdgpu-dkms / ROCm, or the NVIDIA driver) matches the runtime.",
        )
    elif "stub library" in text:
        what, fix = (
            "'CUDA driver is a stub library': the process loaded the libcuda.so stub of the CUDA toolkit (for "
            "linking only) instead of the node's driver library",
            "Remove the toolkit's stubs directory (…/cuda/lib64/stubs) from LD_LIBRARY_PATH (and any libcuda.so "
            "symlink to it) in the image or environment, so the real libcuda.so.1 that the NVIDIA container runtime "
            "mounts from the host is loaded; check with ldconfig -p | grep libcuda.",
        )
    elif "invalid argument" in text and re.search(r"\bshm\.(?:h|cc|cu)\b|shmutils|/dev/shm", text):
        what, fix = (
            "'Cuda failure invalid argument' in NCCL's shared-memory (shm) transport set-up (it registers its "
            "/dev/shm segment with CUDA, cudaHostRegister)",
            "Check /dev/shm on that host (df -h /dev/shm; in docker --shm-size=16g or --ipc=host) and its limits; "
            "bypass the transport with NCCL_SHM_DISABLE=1 as a test (NCCL then uses P2P or the network), and "
            "upgrade NCCL (a newer NCCL version, torch's bundled one): old 2.4-era NCCL failed this way.",
        )
    elif "invalid argument" in text and any(w in text for w in ("topo.h", "topo.cc", "init.cu", "init.cc")):
        what, fix = (
            "'Cuda failure invalid argument' in NCCL's own set-up (its topology or init code querying the GPUs)",
            "Upgrade NCCL (a newer NCCL version, or a torch that bundles one): old versions failed on some boards "
            "(dual-GPU K80, virtualised GPUs) in these queries; as a test set NCCL_P2P_DISABLE=1, and check the "
            "driver matches the CUDA runtime (nvidia-smi).",
        )
    elif "device-side assert" in text:
        what, fix = (  # cudaErrorAssert (59, 710): a kernel's own assertion (torch's index checks)
            "a device-side assert: a kernel's own check failed, most often an index out of range (a class label >= "
            "the number of classes, a token id >= the vocabulary, a gather/scatter/embedding index)",
            "Rerun with CUDA_LAUNCH_BLOCKING=1 (or the failing step on CPU) so the error names the operation and its "
            "bad index, TORCH_USE_CUDA_DSA for the assertion's text; check the data that rank got (labels vs "
            "num_classes, token ids vs the embedding size after adding tokens).",
        )
    elif "busy or unavailable" in text or any(_BUSY.startswith(w) and len(w) >= 12 for w in (
            (e.data.get("what") or "").lower() for e in evs)):
        # a paste cut inside the error's text ("Test CUDA failure common.cu:1304 'CUDA-capable", round 88's
        # nccl-tests-369): the one CUDA runtime string that starts so is cudaErrorDevicesUnavailable's ("no CUDA-capable
        # device is detected" starts with "no")
        what, fix = (  # cudaErrorDevicesUnavailable (46): the GPU refused a new CUDA context
            "'CUDA-capable device(s) is/are busy or unavailable' (cudaErrorDevicesUnavailable): the GPU refused a "
            "new CUDA context -- it is in an exclusive compute mode and another process (a second rank on the same "
            "GPU, a leftover or another job's process) already holds it",
            "Check the GPU's compute mode and who holds it: nvidia-smi -q -d COMPUTE (Exclusive_Process admits one "
            "process; nvidia-smi -c DEFAULT if the node allows sharing) and nvidia-smi's process list; under an "
            # a parent that made a CUDA context before spawning its workers holds the GPU they then ask for (round
            # 110's butspeechfit-safe-gpu-1: a GPU claimed in the parent on an Exclusive_Process node)
            "exclusive mode run one process per GPU and create no CUDA context in the parent before spawning the "
            "workers (claim the GPU inside each worker); each rank "
            "must select its own GPU (torch.cuda.set_device(LOCAL_RANK) before any CUDA call); kill stray processes "
            "or ask the scheduler for the GPUs (CUDA_VISIBLE_DEVICES as it sets it).",
        )
        if any(e.data.get("torch_load") for e in evs):
            # raised under torch.load's deserializer: a checkpoint saved with cuda:N storages is restored onto GPU N,
            # another rank's GPU, which an exclusive compute mode refuses (round 88's ms-swift-5118)
            fix = ("The error is raised inside torch.load, restoring a storage to the GPU it was saved on: load with "
                   "torch.load(map_location='cpu') or to each rank's own device (map_location=f'cuda:{local_rank}', "
                   "after torch.cuda.set_device(local_rank)), so no rank opens another rank's GPU. " + fix)
    elif "no cuda-capable device" in text:
        what, fix = (  # cudaErrorNoDevice (38, 100)
            "'no CUDA-capable device is detected' (cudaErrorNoDevice): the process sees no GPU at all",
            "Check what the process is given: CUDA_VISIBLE_DEVICES (empty, or indices that do not exist on the "
            "node), the container's GPU access (docker --gpus all / the NVIDIA container runtime, the scheduler's GPU "
            "request), and that the driver is loaded (nvidia-smi on that node).",
        )
    elif "launch timed out" in text:
        what, fix = (  # cudaErrorLaunchTimeout (6, 702): the display watchdog ended a kernel that ran too long
            "'the launch timed out and was terminated' (cudaErrorLaunchTimeout): the driver killed a kernel that ran "
            "longer than the display watchdog allows -- a GPU that also drives a display (X server, Windows' TDR) -- "
            "or a kernel that hung",
            "Run on GPUs that drive no display (nvidia-smi's Disp.A column Off), stop the X server / desktop on that "
            "GPU or raise Windows' TdrDelay; if no display is attached, the kernel hung: dmesg -T | grep -i xid (Xid "
            "8: a GPU timeout) and CUDA_LAUNCH_BLOCKING=1 for which kernel; smaller batches shorten each kernel.",
        )
    elif "misaligned address" in text:
        what, fix = (  # cudaErrorMisalignedAddress
            "a misaligned memory access in a kernel ('misaligned address': a load or store at an address not "
            "aligned to its size; reported asynchronously, at a later CUDA call)",
            "Rerun with CUDA_LAUNCH_BLOCKING=1 so the traceback names the kernel, or under compute-sanitizer: a kernel "
            "bug (a custom or fused kernel, an extension built for another torch/CUDA, a tensor view at an odd "
            "offset): rebuild or upgrade that extension, or pass contiguous tensors; the NCCL timeouts of the other "
            "ranks are consequences.",
        )
    elif "invalid resource handle" in text and _DEEPEP.search(text):
        # DeepEP's Buffer set-up (deep_ep.cpp's CUDA_CHECK around cudaIpcOpenMemHandle of every peer's NVLink
        # buffer) refused: a CUDA IPC handle cannot be opened from another host of an NVL72 (MNNVL) fabric, or
        # where peer access / IPC is not allowed; the illegal memory access after it is its consequence (lead rule
        # AT (1): a CUDA call shown failing; every rank runs this set-up alike)
        what, fix = (
            "DeepEP's buffer set-up failing with a CUDA 'invalid resource handle' (opening its peers' NVLink "
            "buffers through CUDA IPC handles), the illegal memory access after it a consequence",
            "DeepEP's NVLink buffers are shared through CUDA IPC handles, which a GPU on another host of a GB200 / "
            "NVL72 (multi-node NVLink) fabric cannot open: upgrade DeepEP/SGLang to a build with use_fabric support "
            "(SGLang passes use_fabric=True to the DeepEP Buffer when MNNVL fabric is supported), or pass "
            "use_fabric=True to the DeepEP Buffer yourself, so it uses fabric handles; within one host check GPU "
            "peer access (nvidia-smi topo -m) "
            "and run the container with --ipc=host; disable DeepEP (fall back to the default all-to-all) to confirm, "
            "and rebuild DeepEP / NVSHMEM against the installed CUDA and driver.",
        )
    elif "illegal memory access" in text or "illegal address" in text:
        what, fix = (
            "an illegal memory access in a kernel (reported asynchronously, often first by the watchdog thread)",
            "Rerun that rank's failing step with CUDA_LAUNCH_BLOCKING=1 so the traceback names the kernel, or run it "
            "under compute-sanitizer (it names the kernel and the address of the illegal memory access); where the run "
            "is wrapped by a profiler (nvprof, which injects itself into every CUDA call, then reports its own "
            "profiling error), run it once without the profiler (nsys or NCCL's own profiling instead); the NCCL "
            "timeouts of the other ranks are consequences.",
        )
        if any(_NCCL_ALLOC.search(e.text) for e in evs):  # not NCCL's kernel: an earlier one, found at its cudaMalloc
            what += ", surfacing in NCCL's memory allocation (an earlier kernel's error, seen at the next CUDA call)"
            fix = ("A kernel launched before NCCL's allocation faulted, often on the wrong GPU: call "
                   "torch.cuda.set_device(local_rank) before creating the process group (torch 2.4's "
                   "TORCH_NCCL_NAN_CHECK=1 ran its check kernel on the default device without it: unset it or "
                   "upgrade torch). " + fix)
        if not any(_NCCL_ALLOC.search(e.text) or _NCCL_LAUNCH.search(e.text) for e in evs) and any(
                _NCCL_CUDA_WARN.search(e.text) for e in evs + c.samples.get("nccl_warn", [])):
            # NCCL's own CUDA call elsewhere (init.cc, a proxy's) found the fault: an earlier kernel's, or NCCL's and
            # the GPU's own where no kernel of the user's runs (nccl-tests)
            fix += (" NCCL's own CUDA call reported the illegal memory access (its 'Cuda failure' WARN): where no "
                    "kernel of your own ran before it (nccl-tests runs only NCCL's), look at the GPU, the driver and "
                    "the GPUDirect RDMA path on that host: dmesg -T | grep -i xid (Xid errors), nvidia-smi -q, the "
                    "same NCCL and driver versions on every node (NCCL_DEBUG=INFO prints both), and "
                    "NCCL_NET_GDR_LEVEL=LOC to run once without GPUDirect RDMA. Between the GPUs of one node, run "
                    "once with NCCL_P2P_DISABLE=1: if that passes, the GPU peer-to-peer (P2P) / NVLink path is at "
                    "fault (IOMMU / ACS left on, nvidia-fabricmanager not running or not matching the driver on "
                    "NVSwitch systems; cuda-samples' p2pBandwidthLatencyTest checks it); upgrade NCCL where the GPU "
                    "is newer than the NCCL version.")
        if tests_host := sorted({m.group(1) for e in evs if (m := _R_TESTS_CUDA_FAIL.search(e.text))}):
            # nccl-tests' own CUDA check caught it (round 109's nccl-tests-355): the test runs only NCCL's kernels and
            # its own, on the GPUs and paths its options choose
            fix += (f" nccl-tests' own check caught it on {tests_host[0]}: check dmesg / nvidia-smi -q for Xid on "
                    f"{tests_host[0]}; rerun that test with NCCL_DEBUG=INFO to see the transports each peer uses "
                    "and with one size (-b = -e, -c 1) to capture the failing collective; an option that picks a "
                    "kernel for one path (a device-API kernel for NVLink peers, -D) needs every peer on that path; "
                    "rebuild nccl-tests against the same NCCL/CUDA it runs with.")
        if any(_NCCL_LAUNCH.search(e.text) for e in evs):  # NCCL's own WARN at its kernel launch/enqueue
            what += ", reported by NCCL at its own kernel launch (enqueue.cc)"
            fix = ("NCCL's own kernel faulted: a known NCCL bug on new GPUs/drivers (e.g. 2.26 on Blackwell); upgrade "
                   "NCCL first (pip install -U nvidia-nccl-cu12, or a torch built with a newer NCCL version) and check "
                   "the driver supports the GPU. " + fix)
        if "custom_all_reduce" in text or "custom all-reduce" in text:  # vLLM/sglang's own P2P all-reduce kernel
            what += ", in the serving engine's custom all-reduce kernel (its own P2P all-reduce, not NCCL's)"
            fix = ("The fault is in the custom all-reduce kernel, which every worker runs alike: rerun with it "
                   "disabled (vLLM/sglang --disable-custom-all-reduce; the engine then uses NCCL) to confirm; as it is "
                   "often hit while capturing CUDA graphs, --enforce-eager (no CUDA graph capture) is the other test; "
                   "then upgrade the engine. " + fix)
    elif init_err := "initialization error" in text:
        # cudaErrorInitializationError (3) from a CUDA call of the process's own code or a library's (dmlc's "CUDA:
        # initialization error": decord's GPU VideoReader inside a Dataset's __getitem__; round 86's decord-327): CUDA
        # could not be started in that process -- most often a child (a DataLoader worker, a fork-started rank) forked
        # from a parent that had already initialised CUDA, every one alike (lead rules AT (1), BG (1); the fix keeps
        # round 61's scvi-tools-2602, torch's own "CUDA error: initialization error" in a notebook's forked ranks)
        what, fix = (
            "a CUDA call failed with 'initialization error' (cudaErrorInitializationError): CUDA could not be started "
            "in the process that made it",
            "CUDA cannot be initialized in a forked child: CUDA initialized before fork in the parent (a torch.cuda "
            "call, .cuda(), a model on the GPU) leaves every child forked after it unable to start it -- Lightning's "
            "strategy='ddp_fork' / 'ddp_notebook' workers (a notebook's multi-GPU run), a multiprocessing 'fork' start "
            "method, DataLoader workers. Use the spawn start method (mp.set_start_method('spawn'); strategy='ddp' or "
            "ddp_spawn instead of ddp_fork; run as a script instead of a notebook, or restart the kernel and touch no "
            "CUDA before the workers start). CUDA cannot be initialized in a forked DataLoader worker either: GPU work "
            "in a Dataset's __getitem__ or collate (a GPU video / image decoder such as decord's VideoReader with "
            "ctx=gpu, a .cuda() call) runs in the DataLoader's forked workers -- decode on the CPU in the workers "
            "(decord.cpu(0), device='cpu') and move the batch to the GPU in the main process, or use DataLoader "
            "num_workers=0 for GPU decoding, or DataLoader(multiprocessing_context='spawn'); do not initialize CUDA "
            "before forking DataLoader workers, and where GPU decoding stays create the decoder on the rank's own GPU "
            "(ctx=gpu(local_rank)). If no child process is involved, check the host: nvidia-smi, GPU access in the "
            "container (--gpus all, /dev/nvidia*), the driver against the CUDA runtime; CUDA_LAUNCH_BLOCKING=1 shows "
            "the failing call.",
        )
    elif evs and all(e.data.get("cublas_gemm") is not None for e in evs):
        # DeepSpeed's transformer kernel's cuBLAS GEMM failing (signatures.R_DS_CUBLAS_GEMM; round 97's deepspeed-454)
        code = evs[0].data["cublas_gemm"]
        name = S.CUBLAS_STATUS_NAMES.get(code, f"cuBLAS status {code}")
        what, fix = (
            f"a failure of DeepSpeed's transformer kernel's cuBLAS GEMMs ('!!!! kernel execution error ... error: "
            f"{code}', {name})",
            f"cuBLAS error {code} = {name} in DeepSpeed's transformer kernel: its GEMM could not run on the GPU it "
            "was given. Where it fails only with several GPUs, the kernel ran on the wrong GPU: pass local_rank to "
            "DeepSpeedTransformerConfig (local_rank=args.local_rank) and call torch.cuda.set_device(local_rank) "
            "before building the model. Else rebuild DeepSpeed's ops for the GPU's compute capability "
            "(TORCH_CUDA_ARCH_LIST, DS_BUILD_TRANSFORMER=1) with matching CUDA and cuBLAS, check the GPU supports the "
            "fp16 / tensor-op GEMM algorithms and the torch / CUDA / driver versions match; disable the DeepSpeed "
            "transformer kernel (--deepspeed_transformer_kernel off) to confirm; rerun with CUDA_LAUNCH_BLOCKING=1 "
            "for the failing call.",
        )
    elif hip := _R_HIP_SAID.search(text):
        # ROCm's own words for the failed call (RCCL's "[FATAL ERROR]: HIP failure: '...'" from its CUDACHECK, torch's
        # ROCm build's "HIP error: ..."), no message another branch reads: a HIP runtime error, read like CUDA's (lead
        # rule AN (2)), found with ROCm's own tools, not nvidia-smi / Xid
        said = next((e.data["what"] for e in evs if e.data.get("what")), "") or hip.group(0)
        by = "RCCL's own check, 'HIP failure'" if "failure" in hip.group(0) else "'HIP error'"
        what, fix = (
            f"a failed HIP runtime call ('{said}', {by}: ROCm's counterpart of a CUDA error, in RCCL or a kernel)",
            "Rerun with NCCL_DEBUG=INFO (RCCL) to see the failing call and on which rank (NCCL_DEBUG_SUBSYS=INIT,P2P "
            "at start-up), and with AMD_LOG_LEVEL / HIP_LAUNCH_BLOCKING=1 to find the failing HIP call "
            "(AMD_LOG_LEVEL=3, AMD_SERIALIZE_KERNEL=3 for a kernel); check the GPU and the driver on that node "
            "(amd-smi or rocm-smi, dmesg for amdgpu faults) and that ROCm, RCCL and the amdgpu driver versions match "
            "torch's (torch.version.hip), each process on its own GPU (HIP_VISIBLE_DEVICES, torch.cuda.set_device). "
            "Where it fails in RCCL's set-up between the GPUs, NCCL_P2P_DISABLE=1 tells the GPU peer-to-peer (P2P / "
            "IPC) path, and the IOMMU wants iommu=pt on the kernel command line.",
        )
    elif cross := next((e for e in c.samples.get("benign", []) if e.data.get("what") == "p2p ipc to another host"),
                       None):
        # lead rules AN (2), V: an old NCCL's ring over P2P/IPC to a rank of another host (readers.exits._p2p_ring):
        # NCCL took two hosts for one, its CUDA IPC open across them fails -- no rank's fault (round 104's nccl-187)
        d, (r1, r2) = cross.data["p2p_dev"], cross.data["p2p_ranks"]
        what, fix = (
            f"a CUDA call failed inside NCCL (host {cross.data['p2p_host']}'s ring reaches ranks {r1} and {r2}, both "
            f"on CUDA device {d}, over P2P/IPC: one of them is on another host NCCL took for this one)",
            f"NCCL's ring connects rank {r1} and rank {r2}, both on device {d}, 'via P2P/IPC' (CUDA IPC, which "
            "works only between GPUs of one host): NCCL treated two hosts as one node. NCCL releases of this era "
            "compare hostnames only up to the first dot, so nodes whose hostnames share that short part "
            "(node1.a.example and node1.b.example) look like one host: give the nodes hostnames that differ before "
            "the first dot, or set NCCL_HOSTID to a different value on each node, or upgrade NCCL to a release that "
            "identifies a host by its full hostname and boot id; NCCL_P2P_DISABLE=1 is a workaround meanwhile. "
            "Check too that each process uses one GPU of its own (CUDA_VISIBLE_DEVICES / torch.cuda.set_device("
            "local_rank)), and rerun with NCCL_DEBUG=INFO to see the failing CUDA call.",
        )
    elif "custom_all_reduce" in text or "custom all-reduce" in text:
        # lead rules J, V (2): vLLM's/sglang's own all-reduce kernel (CUDA IPC buffers between the GPUs, captured in
        # CUDA graphs) failing a CUDA call with another message than the peer-access and illegal-access ones above
        # ("Failed: /workspace/csrc/custom_all_reduce.cuh:368 'invalid argument'" from every TP worker after the graph
        # capture; round 106's dynamo-787): the kernel every worker runs alike, not NCCL's and not one rank's
        what, fix = (
            "a CUDA call failed in the serving engine's custom all-reduce kernel (its own CUDA-IPC all-reduce, not "
            "NCCL's)",
            "The failing call is in the serving engine's custom all-reduce, which every tensor-parallel worker runs "
            "alike: disable vLLM custom all-reduce (--disable-custom-all-reduce / disable_custom_all_reduce=True; "
            "sglang --disable-custom-all-reduce) so the engine uses NCCL all-reduce instead of custom all-reduce; "
            "where it fails after CUDA graph capture with custom all-reduce, --enforce-eager (skip CUDA graph "
            "capture) tells the two apart. Check GPU P2P / IPC support (nvidia-smi topo -m; containers need IPC "
            "between the GPUs, --ipc=host), and upgrade vLLM where the engine's release has a fix for it.",
        )
    else:
        what, fix = (
            "a CUDA call failed inside NCCL or a kernel",
            "Rerun with NCCL_DEBUG=INFO to see the failing CUDA call and with CUDA_LAUNCH_BLOCKING=1 for the kernel; "
            "check the driver matches the CUDA runtime (nvidia-smi) and dmesg for Xid errors. If it fails as soon as "
            "two GPUs are used, test the NCCL install alone with nccl-tests (all_reduce_perf -g <GPUs>) and check "
            "the NCCL version torch was built with (torch.cuda.nccl.version()); rebuild or reinstall a matching one. "
            "Where it is the GPU-to-GPU path (consumer GPUs, an NVLink bridge, a VM), NCCL_P2P_DISABLE=1 tells: "
            "check nvidia-smi topo -m and nvidia-smi nvlink --status, and IOMMU / ACS settings that block P2P.",
        )
    lib_nvls = bool(evs) and all(e.data.get("library") for e in evs) and any(_NVLS_SETUP.search(e.text) for e in evs)
    if lib_nvls:
        # lead rule V (2): a communication library's own NVLS (multicast) set-up refused by the driver (NVSHMEM's
        # "team_internal_nvls.cpp: non-zero status: 401 cuMemMap failed"): the GPUs' NVLink fabric every rank shares,
        # not a simulator's device choice and not a rank
        what = ("a CUDA driver call refused in the communication library's own set-up ("
                + evs[0].data.get("what", "") + ")")
    elif evs and all(e.data.get("library") for e in evs) and not init_err and not build:
        # the CUDA failure is printed by a library's own GPU pipeline (a physics engine such as PhysX, a CUDA
        # library): that library picks its GPU from its own settings, not from torch's device, so ranks that do not
        # give it theirs all run it on one GPU. Not where the error says the binary holds no code for the GPU (an
        # extension's bare "no kernel image ..."): its build is the cause wherever it runs, not the device it chose
        coded = next((e for e in evs if e.data.get("cuda_code") is not None), evs[0])
        what += f", reported by a library's own GPU pipeline ({coded.data.get('what', '')})"
        fix = ("The library's own CUDA work failed (a simulator such as PhysX / Isaac Gym, a CUDA library): it "
               "chooses its GPU from its own settings, so give each rank its own -- each rank's sim_device / "
               "graphics_device_id set to its own GPU (cuda:LOCAL_RANK), one GPU per process (CUDA_VISIBLE_DEVICES "
               "per rank, or torch.cuda.set_device(local_rank) before the library starts) -- and run on a single "
               "GPU to compare; check the driver supports that library's build. " + fix)
    seen = {(e.data["hsa_fault"], e.data.get("fault_addr")) for e in evs if e.data.get("hsa_fault") is not None}
    if len(seen) >= 2 and not shown and not alone and not xids and not hsa and other is None:
        # lead rules J, AX (4): several processes (other GPUs, other addresses) each hit the same memory access fault,
        # none named by a rank: what they all run (the kernel, its build, the ROCm stack) failed, not one rank
        return Verdict(
            "cuda_error",
            f"several processes each hit {what} alike ({max(len(seen), c.kinds.get('cuda_error', 0))} such lines, "
            "other GPUs and addresses), no rank named on their lines: a cause they share -- a kernel or build every "
            "rank runs, or the ROCm stack under them -- not one rank's fault",
            fix, "medium", [], [e.brief() for e in evs[:3]], job_wide=True)
    if xrt_all:
        return Verdict(
            "cuda_error",
            f"several processes (processes {', '.join(map(str, xrt_procs[:8]))}"
            f"{', ...' if len(xrt_procs) > 8 or c.kinds.get('cuda_error', 0) > len(evs) else ''}) each hit {what} "
            "alike: the TPU runtime they all call, not one process's fault",
            fix, "medium", [], [e.brief() for e in evs[:3]], job_wide=True)
    conf, shared = "high" if len(ranks) == 1 else "medium", False
    if multicast and not ranks and not alone:
        shared = True  # the node's driver / GPUs, the same under every rank's communicator set-up (rule V (2))
    if alone:  # read from NCCL's version line or the destructor's note, not from a line naming the rank
        ranks = alone
    elif (not ranks and not xids and not hsa and not other and not twice
          and len({strip_prefixes(e.text).strip() for e in evs}) == len(evs)):
        # lead rule A: the one process the launcher shows failing is where it happened (not when the same error
        # line is printed by several processes: every rank failing alike, rule J; the same line once a collector's
        # timestamp or a launcher's prefix is taken off)
        lone = lone_failure(c)
        # a SIGABRT is the watchdog's abort of a victim (rule I), except after a CUDA error the watchdog found on
        # its own GPU: its exception ends that process with abort() (std::terminate), a first failure (rule A)
        own = (None, 0, -15) if all(e.data.get("watchdog") for e in evs) else (None, 0, -6, -15)
        ranks = lone.culprits if lone is not None and lone.exitcode not in own else []
        only = lone.who if ranks else ""
        if not ranks and lone is not None and lone.event.data.get("launcher_kill") and lone_launched_worker(
                c, [lone.event]):
            # lead rules AV, BF (6) with rule A: torch 1.x's / DeepSpeed's launcher prints 'Killing subprocess P' for
            # every worker it started, and only one such line is shown on one node: the single worker is local rank
            # 0, and the one untagged CUDA failure is its own (round 80's hrnet-semantic-segmentation-224)
            ranks, only = [0], ("local rank 0 (the launcher's one worker: a single 'Killing subprocess' line, and "
                                "it prints one for every worker it started)")
        conf = "medium" if ranks else conf
    if conf == "high" and xrt:
        # rule CK (2): the one process spawn shows failing on the XRT session call is a lead the experts doubted
        # (the TPU server every process calls may have failed for all): medium (review a of round 110, #1)
        conf = "medium"
    if conf == "high" and any(e.data.get("npu_kernel") and e.data.get("rank_from") for e in evs):
        # an Ascend kernel fault's rank taken from the block's head a few lines above, not from its own lines: in an
        # interleaved log a guess (review 107 finding 1)
        conf = "medium"
    # named by a launcher's record or a teardown note, not by the failing lines' own rank tags
    recorded = bool(ranks) and ranks != shown
    if (old_driver and not recorded and not xids and not hsa and other is None and twice is None
            and not _one_of_those_shown(c, ranks)):
        # lead rules AT (1), AG: the driver too old for the build's CUDA runtime is the host's, the same under every
        # process that runs the build there; a launcher's tag on the failing lines (mpirun's "[1,0]<stdout>:") is no
        # failure record, and no other rank with records of its own (parsed events: NCCL INFO lines, a launcher's
        # label -- _one_of_those_shown; a progress print such as "step 100 loss" is none) is shown going on without
        # it -- nobody named, like an untagged line. Where the failing lines carry a rank, its host is the lead (a
        # multi-node cluster whose nodes' drivers differ): the summary says so (review 100 finding 6)
        lead = (f" (where the nodes' drivers differ, the host of {_named(shown)} is the lead: nvidia-smi there)"
                if shown else "")
        return Verdict(
            "cuda_error",
            f"{_named(shown) if shown else 'a process'}{lead} hit {what}: the driver is the host's and the build every "
            "rank runs, so every process there fails alike -- the driver / build pair is at fault, not a rank",
            fix, "medium", [], [e.brief() for e in evs[:3]], job_wide=True)
    # lead rule AU (2) (session 46's ruling): the ordinal said bare or at the frame selecting the GPU is the launch's
    # device index even where a launcher's record names the one local rank that failed first -- the record says which
    # worker that was, the others then torn down, not a rank at fault (round 109's mlp-maps-21; round 23's
    # simpletuner-40 relabelled so). An ordinal under the process's own frames keeps rule A's reading of the record
    if ((not recorded or _ordinal_at_start(evs)) and not xids and not hsa and other is None
            and not c.samples.get("launch_procs")
            and (launch := _ordinal_launch(evs, [] if recorded else ranks,
                                           bool(c.worker_failures or c.child_failures)))):
        return launch
    warns = [e for e in evs if e.kind == "cuda_error"]  # NCCL's own lines; ncclUnhandledCudaError is their echo
    # (the P2P transport's IPC-handle WARN cut inside its message is read by its source location: round 91's ray-17909)
    if warns and all(_SETUP_CUDA.search(e.text) or S.p2p_warn_cut(e.text) for e in warns):
        # NCCL's own CUDA call while connecting peers (p2p/IPC/cuMem set-up): the node's driver or the
        # container's CUDA, which every rank there shares, not one rank's kernel; name the rank as a lead only
        conf, shared = "low", True
        what += " while NCCL set up its transports (CUDA IPC/cuMem between the GPUs)"
        fix += (" A failure at transport set-up is usually the environment every rank shares: the container's "
                "CUDA vs the node's driver, or CUDA IPC/cuMem not allowed in the container (try NCCL_CUMEM_ENABLE=0 "
                "and NCCL_P2P_DISABLE=1 as tests).")
        if any(_NVLS_CUDA.search(e.text) for e in warns):  # NVLink SHARP's multicast set-up (transport/nvls.cc)
            what += "; in NVLS (NVLink SHARP) set-up, whose multicast calls need a recent driver"
            # (with the fabric manager the multicast objects need on NVSwitch systems: the words vllm-6732's and
            # vllm-9369's shape got at 7a366534, where this block was unreachable -- review 105 (1) finding 1)
            fix += (" NVLS set-up failing: the driver is older than the CUDA runtime's multicast API needs, or on "
                    "NVSwitch systems the fabric manager is not running at the driver's version (nvidia-smi -q | grep "
                    "-i -A2 fabric says 'Completed'); upgrade the driver (and the fabric manager with it), or disable "
                    "NVLS with NCCL_NVLS_ENABLE=0.")
    elif (peer_map and ranks and not recorded and not xids and not hsa and other is None and twice is None
          and not shared):
        # lead rule V (2): GPU peer-to-peer access refused or a peer buffer's mapping failed ('peer access is not
        # supported', 'mapping of buffer object failed') -- whatever library made the call (NCCL, a serving engine's
        # custom all-reduce, an MoE kernel's peer exchange), it is the GPU pair or the platform under it (BAR1 /
        # IOMMU / ACS / a driver without P2P), which every rank of the node shares: the one rank shown raising it is
        # where it surfaced, a lead and not a culprit (round 105's tutel-298)
        conf, shared = "low", True
    # lead rule AM (3): the one process of the lines (rank 0 by NCCL's version line) failing its communicator's
    # creation with ncclUnhandledCudaError, no kernel launched yet (enqueue.cc), is named, whatever the build lacks
    at_creation = bool(alone) and "enqueue" not in text and any(
        e.data.get("code") == "ncclUnhandledCudaError" for e in evs)
    own_tag = build and not xids and not hsa and other is None and _own_tag_alone(c, evs, shown)
    if own_tag:
        return Verdict(
            "cuda_error",
            f"{_named(shown)} (named by its own process's rank tag) hit {what} in NCCL while creating its "
            "communicator, the other processes shown only in their set-up: that rank failed first; the likely root is "
            "the build, which lacks code for the GPU's architecture on every rank that runs it",
            fix, "medium", shown, [e.brief() for e in evs[:3]])
    if build and not xids and not hsa and other is None and not at_creation:
        return Verdict(
            "cuda_error",
            f"{_named(shown) if shown else 'a process'} hit {what}: the build lacks code for the GPU's architecture, "
            "and every rank that runs that build on such a GPU fails alike -- the build is at fault, not a rank",
            fix, "medium", [], [e.brief() for e in evs[:3]], job_wide=True)
    if (not shared and not xids and not hsa and not alone and not (c.child_failures or c.worker_failures)
            and all(_INIT_RETURNED.search(e.text) for e in evs) and _one_of_those_shown(c, ranks)):
        # lead rule AM (3): the same report on one rank, the other ranks shown going on without an error of their own
        conf = "medium"
        what += (" while NCCL created its communicator (ncclCommInitRank), the other ranks shown going on without an "
                 "error of their own")
        fix += (" Look at that rank's GPU first: the device it was given (one GPU per rank: CUDA_VISIBLE_DEVICES / "
                "the launcher's local rank, horovod's hvd.local_rank()), nvidia-smi and dmesg on its node; then the "
                "driver / CUDA / NCCL versions it loads against the other ranks' (NCCL_DEBUG=INFO prints them).")
    elif (not shared and not xids and not hsa and not alone and not (c.child_failures or c.worker_failures)
            and all(_INIT_RETURNED.search(e.text) for e in evs)):
        # lead rule V (2): a framework's own report that ncclCommInitRank returned the CUDA error (Horovod's,
        # TensorFlow's, XLA's "ncclCommInitRank failed: unhandled cuda error") -- every rank makes that same call
        # while NCCL sets up the communicator, so the GPUs or the platform they share failed, not one rank; the
        # printing process's launcher tag (horovodrun's "[1]<stderr>:") is no failure record (rule AG)
        conf, shared, ranks, only = "medium", True, [], ""
        what += " while NCCL created its communicator (ncclCommInitRank)"
        fix += (" A CUDA failure at communicator creation is the environment every rank shares: the GPUs visible "
                "to each process (one GPU per process, CUDA_VISIBLE_DEVICES / the launcher's GPU assignment), CUDA "
                "IPC/P2P between them (try NCCL_P2P_DISABLE=1 and NCCL_CUMEM_ENABLE=0 as tests), the driver vs the "
                "CUDA runtime.")
    no_vmm = any(e.data.get("what") == "no cuda vmm" for e in c.samples.get("benign", []))
    at_init = [e for e in evs if e.kind == "nccl_error" and S.R_NCCL_AT_INIT.search(e.text)]
    elsewhere = [e for e in evs if "NCCL error in:" in e.text and not S.R_NCCL_AT_INIT.search(e.text)]
    if no_vmm and at_init and not elsewhere and not shared:
        # torch says this platform has no CUDA virtual memory management (expandable_segments not supported: a VM,
        # WSL, a virtual GPU) and the CUDA call failed while NCCL created its communicator, where NCCL >= 2.19
        # allocates its buffers with that same cuMem API: the platform every rank shares (lead rule V (2)), a lead
        conf, shared = "low", True
        what += (" while NCCL created its communicator, on a platform without CUDA virtual memory management (torch: "
                 "'expandable_segments not supported on this platform'), where NCCL's cuMem allocations fail")
        fix += (" The platform has no CUDA virtual memory (cuMem): run with NCCL_CUMEM_ENABLE=0 (NCCL then allocates "
                "as older versions did), and as further tests NCCL_P2P_DISABLE=1 / NCCL_SHM_DISABLE=1; update the "
                "driver or the virtualisation layer (vGPU, WSL) to one that supports it.")
    nvls = " ".join(e.text + " " + str(e.data.get("last_error") or "") for e in evs + c.samples.get("nccl_warn", []))
    if lib_nvls:
        conf, shared, ranks, only = "medium", True, [], ""
    if lib_nvls and _NVSHMEM_LINE.search(nvls):
        # NVSHMEM maps its whole symmetric heap into the multicast group: its own switch and its heap size
        fix = ("NVSHMEM's NVLS team set-up failed: disable it with NVSHMEM_DISABLE_NVLS=1 to confirm, or map a "
               "smaller symmetric heap (a lower NVSHMEM_SYMMETRIC_SIZE); check the driver's view of the NVLink fabric "
               "(dmesg NVRM lines such as NV_ERR_FABRIC_STATE_OUT_OF_SYNC, nvidia-smi -q fabric state). " + fix)
    if ("NCCL_NVLS_ENABLE" not in fix
            and (_NVLS_SETUP.search(nvls) or any(e.data.get("nvls") for e in evs))):
        # NVLink SHARP's multicast objects (NVSwitch systems): set up by the fabric manager, a finite resource
        what += "; in NVLS (NVLink SHARP) multicast set-up"
        fix += (" NVLS (NVLink SHARP) multicast failing: check the fabric manager (nvidia-smi -q | grep -i -A2 fabric "
                "says 'Completed'; its version equals the driver's), reset the GPUs or reboot a node whose fabric "
                "manager was restarted, upgrade the driver; or disable NVLS with NCCL_NVLS_ENABLE=0.")
    # lead rules J and V (2) (dra-driver-957): beside the ranks whose NCCL call returned the CUDA error, other ranks'
    # own NCCL WARN names a CUDA failure ("Cuda failure 'unspecified launch failure'", another text on a third rank):
    # every rank shown failed on its own CUDA call, within seconds where the lines stamp it -- no rank failed
    # first, the GPUs / driver / NVLink domain they share did: nobody named
    warned = [e for e in c.samples.get("nccl_warn", []) if e.rank is not None and e.rank not in shown
              and (e.data.get("warn") or "").startswith("Cuda failure")]
    together = sorted(set(shown) | {e.rank for e in warned})
    stamps = [e.ts for e in evs + warned if e.ts is not None]
    if (shown and warned and not alone and not xids and not hsa and other is None and twice is None
            and len(together) >= 2 and set(together) == set(c.ranks) and not torn_down(c)
            and not (c.child_failures or c.worker_failures) and not any(waiting(st) for st in c.ranks.values())
            and (len(stamps) < 2 or max(stamps) - min(stamps) < 5.0)):
        return Verdict(
            "cuda_error",
            f"every rank shown ({_named(together)}) failed on its own CUDA call inside NCCL at once ({what}; NCCL's "
            "own 'Cuda failure' WARN on the others): no rank is shown failing first, so the GPUs, driver or NVLink "
            "domain they share failed, not one rank",
            fix + " Several ranks' CUDA calls failing together point at what they share: the GPUs of the node "
            "(dmesg -T | grep -i xid, nvidia-smi -q), the GPU driver and, on multi-node NVLink systems, the NVLink "
            "domain (the IMEX channel / ComputeDomain, one job per NVLink clique; NCCL_MNNVL_ENABLE=0 as a test).",
            "medium", [], [e.brief() for e in (evs + warned)[:3]], job_wide=True)
    if (len(ranks) >= 2 and not alone and set(ranks) == set(c.ranks) and not torn_down(c)
            and _alike(evs, ranks) and not any(waiting(st) for st in c.ranks.values())):
        # lead rule J: every rank the lines show fails with the same CUDA error, none shown torn down or waiting:
        # one cause they share (the node's GPUs, driver or set-up), not several culprits
        return Verdict("cuda_error", f"every rank shown ({_named(ranks)}) hit {what} alike: a cause they share "
                       "(the node's GPUs, driver or the way the processes were set up), not one rank's fault",
                       fix, "medium", [], [e.brief() for e in evs[:3]], job_wide=True)
    if twice is not None and not xids and not hsa and not shared:
        return Verdict(
            "cuda_error",
            f"two processes hit {what} at once: their std::terminate headers run into one line ('terminate called "
            "after throwing an instance of' twice, where one process's second terminate says 'terminate called "
            f"recursively')" + (f", {_named(shown)} among the processes shown" if shown else "")
            + ": every process shown failed alike on its own, so the rank a tag or the launcher's record names "
            "first is not the one at fault, and which GPU's kernel faulted first these lines cannot say",
            fix, "medium", [], [e.brief() for e in evs[:3]])
    if other is not None and not xids and not hsa and not shared:
        return Verdict(
            "cuda_error",
            f"{_named(shown)} hit {what}, but the lines show another process's watchdog crash before it (the tail of "
            f"its rethrown exception, 'Exception raised from ncclCommWatchdog', at {other.data['other_crash']}, its "
            "own error not shown): two processes failed together, and which GPU's kernel (or which transport between "
            "the GPUs) faulted first these lines cannot say",
            fix + " Collect every rank's full stderr (each process's own 'CUDA error' line above its 'Exception raised "
            "from ncclCommWatchdog' block) to see which faulted first; if two GPUs fault together, test the transport "
            "between them with NCCL_P2P_DISABLE=1 and NCCL_SHM_DISABLE=1.",
            "medium", [], [e.brief() for e in evs[:3]])
    if xids or hsa:
        return Verdict("cuda_error", what + ("; the ranks on that GPU failed first, the others only lose them"
                                             if what.endswith("training code") else ""),
                       fix, "medium", ranks, [e.brief() for e in evs[:3]], job_wide=not ranks)
    return Verdict(
        "cuda_error",
        f"{only or _named(ranks)} hit {what}; "
        + ("the other ranks share that environment, so it is a lead, not a culprit" if shared
           else "it failed first, the others only lose it"),
        fix,
        conf,
        ranks,
        [e.brief() for e in evs[:3]],
        job_wide=shared,
    )


def _torch_driver_old(evs: list) -> Verdict:
    """Lead rule AT (1): torch's CUDA initialisation refused the host's NVIDIA driver as older than the CUDA runtime
    the torch build needs (readers.crash._driver_too_old: cudaErrorInsufficientDriver), raised or warned -- a CUDA call
    shown failing on the driver's version. The driver is the host's, the same under every process there, so no
    collective ran and no rank is at fault: culprits [], whoever printed it (rule Q's platform-wide reading)."""
    e = evs[0]
    cu = e.data["driver_cuda"]
    tag = "cu" + cu.replace(".", "")
    return Verdict(
        "cuda_error",
        f"torch's CUDA initialisation refused the host's NVIDIA driver as too old ({e.data['what']}, {e.where}): the "
        "torch build in use needs a newer CUDA driver than the host has, so no process there can use a GPU "
        "(torch.cuda.is_available() is False) -- the host's driver, the same under every rank, not a rank's fault",
        f"Compare the driver with the CUDA version torch was built with: nvidia-smi shows the driver version and the "
        f"highest CUDA it supports (found version {e.data['driver_found']} here is "
        f"CUDA {cu}), python -c 'import torch; print(torch.version.cuda, torch.cuda.is_available())' the torch "
        f"build's. Either update the NVIDIA driver on every node to one that supports torch's CUDA version, or "
        f"install a torch build for the driver's CUDA version ({tag} or older: pip install torch --index-url "
        f"https://download.pytorch.org/whl/{tag}, with the matching torchvision / deepspeed), then relaunch.",
        "high", [], [x.brief() for x in evs[:2]], job_wide=True)


def _fm_multicast(evs: list) -> Verdict:
    """Lead rule V (2)'s platform reading: the NVIDIA fabric manager's own log refusing an NVLS multicast team request
    (readers.crash: "[ERROR] [tid N] failed to find the GPU handle ... in the multicast team request setup ..."),
    nothing else failing in the lines -- the NVSwitch fabric refused the multicast set-up that NCCL's NVLS (NVLink
    SHARP, NCCL >= 2.17) asks for, as a multicast mapping refused by the fabric state is read: cuda_error, no rank at
    fault and nobody innocent (a host service's log names no rank)."""
    e = evs[0]
    many = f", {len(evs)} such lines" if len(evs) > 1 else ""
    return Verdict(
        "cuda_error",
        f"{e.data['what']} ({e.where}{many}): the NVSwitch fabric refused the multicast (NVLS, NVLink SHARP) team "
        "that the collective library asked for, so its NVLS set-up fails or hangs on every rank alike -- the node's "
        "fabric manager / GPUs, not a rank",
        "Disable NVLS to confirm and run on: NCCL_NVLS_ENABLE=0 (disable NVLink SHARP / multicast); restart "
        "nvidia-fabricmanager (and the GPUs) on the node, or reboot or reset the node's GPUs / NVSwitches; match the "
        "Fabric Manager version exactly to the NVIDIA driver version; check the GPUs' fabric state (nvidia-smi -q "
        "fabric section) and that every GPU in the container is registered; upgrade driver / Fabric Manager / NCCL "
        "to releases with the multicast fix.",
        "medium", [], [x.brief() for x in evs[:2]], job_wide=True)


def _torch_cuda_init(evs: list) -> Verdict:
    """Lead rules AT (1), AX (4), BG (7): torch's CUDA initialisation warned that cudaGetDeviceCount failed
    (readers.crash._cuda_init_failed: "CUDA driver initialization failed", "CUDA unknown error") -- a CUDA call shown
    failing, after which that process has no GPU. The warning names no rank and every process that starts CUDA the
    same way prints it (the lines' copies, one a process), so no rank is at fault: cuda_error, culprits [], and
    nobody innocent. A traceback cut before its error text beside it adds nothing (rule BG (6))."""
    e = evs[0]
    n = len(evs)
    many = f", printed {n} times" if n > 1 else ""
    if any(x.data.get("cuda_code") == 802 or "system not yet initialized" in x.data["what"] for x in evs):
        # cudaErrorSystemNotReady (802) from the device count, before any rank's work: the host's GPU system is not
        # ready -- on an NVSwitch machine (HGX / DGX) the fabric manager is not running or not the driver's version
        # (lead rule V (2)'s platform reading): no rank's fault
        return Verdict(
            "cuda_error",
            f"CUDA could not count the GPUs ('{e.data['what']}', {e.where}{many}): Error 802 system not yet "
            "initialized (cudaErrorSystemNotReady) -- on an NVSwitch server the GPUs are not usable until the fabric "
            "manager has set up the NVSwitches; the host's GPU system, not a rank",
            "Start the fabric manager on that node (systemctl start nvidia-fabricmanager) and install the fabric "
            "manager version matching the NVIDIA driver (the fabric manager version must match the NVIDIA driver "
            "version exactly); "
            "check nvidia-smi -q (Fabric State: Completed) and reboot or reset the GPUs once the fabric manager runs.",
            "high", [], [x.brief() for x in evs[:2]], job_wide=True)
    if any(x.data.get("cuda_code") in (803, 804) for x in evs):
        # cudaErrorSystemDriverMismatch (803) / cudaErrorCompatNotSupportedOnDevice (804) from the device count: the
        # CUDA user-space driver the process loaded is not the host kernel module's -- a container image's CUDA
        # forward-compatibility libraries (cuda-compat) on a GPU that cannot use them (forward compatibility works on
        # datacenter GPUs only), or driver libraries of another version than the loaded module. The host's install,
        # the same for every process there (lead rules AT (1), V (2)'s platform reading): no rank's fault
        code = next(x.data["cuda_code"] for x in evs if x.data.get("cuda_code") in (803, 804))
        said = ("forward compatibility was attempted on non supported HW (cudaErrorCompatNotSupportedOnDevice): the "
                "CUDA forward-compatibility libraries (cuda-compat) of the container / environment were loaded on a "
                "GPU or driver that cannot use them" if code == 804 else
                "system has unsupported display driver / cuda driver combination (cudaErrorSystemDriverMismatch): "
                "the CUDA user-space driver libraries loaded are not the version of the host's kernel module")
        return Verdict(
            "cuda_error",
            f"CUDA could not count the GPUs ('{e.data['what']}', {e.where}{many}): Error {code} {said} -- the "
            "host's driver and the CUDA stack installed for the job disagree, the same for every process there, "
            "not a rank",
            "Upgrade the host NVIDIA driver to one that supports the container's CUDA version, or use a vLLM/torch "
            "image built for a CUDA version the host driver supports (match the image to nvidia-smi's driver); "
            "remove the CUDA forward-compatibility libraries (/usr/local/cuda/compat) from LD_LIBRARY_PATH: forward "
            "compatibility works only on datacenter GPUs; check that the container runtime (nvidia-container-toolkit) "
            "mounts the host's driver libraries, not stale ones in the image, and reboot / reload the nvidia kernel "
            "module after a driver update; check nvidia-smi and torch.cuda.is_available() inside the container "
            "before starting the job.",
            "high", [], [x.brief() for x in evs[:2]], job_wide=True)
    return Verdict(
        "cuda_error",
        f"torch's CUDA initialisation failed ('{e.data['what']}', {e.where}{many}): the driver could not be started "
        "in the process(es) that printed it, so they have no GPU -- the same wherever CUDA starts this way, not one "
        "rank's fault",
        "CUDA driver initialization failed (cudaErrorInitializationError) inside the training processes: where they "
        "are forked children of a parent that already initialised CUDA (Lightning's strategy='ddp_fork' / "
        "'ddp_notebook', a multiprocessing 'fork' start method, a DataLoader touching CUDA), the children cannot "
        "start it -- do not initialize CUDA in the parent before fork (no torch.cuda call, .cuda() or model on the GPU "
        "there) or use the spawn start method: strategy='ddp' / ddp_spawn instead of ddp_fork, "
        "mp.set_start_method('spawn'); a forked child would raise 'Cannot re-initialize CUDA in forked subprocess'. "
        "Otherwise the host: check the NVIDIA driver / nvidia-smi and python -c 'import torch; "
        "print(torch.cuda.is_available())' outside the job, GPU access in the container / nvidia-uvm module "
        "(--gpus all, /dev/nvidia*; sudo modprobe nvidia-uvm), CUDA_VISIBLE_DEVICES set before the program starts "
        "(not changed after), and reinstall matching torch and driver where they disagree.",
        "high", [], [x.brief() for x in evs[:2]], job_wide=True)


# Ascend runtime's codes for a device's own kernel failing (CANN's ACL_ERROR_RT_*, rt_error_codes.h): the AI Core's
# or AI CPU's execution timing out or raising -- a kernel of that NPU hung or faulted, like a CUDA kernel's error.
# 507015-507018 as CANN's rt_error_codes.h defines them (checked in session 22 against several public copies of the
# header and Ascend's error-code table: "aicore exception", "aicore trap exception", "aicpu timeout", "aicpu exception")
NPU_RT_CODES = {507014: "the aicore execution timed out (ACL_ERROR_RT_AICORE_TIMEOUT)",
                507015: "an aicore execution raised an exception (ACL_ERROR_RT_AICORE_EXCEPTION)",
                507016: "an aicore execution hit a trap exception (ACL_ERROR_RT_AICORE_TRAP_EXCEPTION)",
                507017: "the aicpu execution timed out (ACL_ERROR_RT_AICPU_TIMEOUT)",
                507018: "an aicpu execution raised an exception (ACL_ERROR_RT_AICPU_EXCEPTION)"}


def _npu_runtime(said: str, code: int, ranks: list[int]) -> tuple[str, str]:
    """An Ascend runtime error of a call on a process's own NPU while it ran (readers.crash: torch_npu's 'NPU
    function error ... error code is N'): a kernel on that device hung or faulted (lead rule AN (2)); where its line
    names no rank (RankID:-1), the NPU and process are all that is known."""
    npu = f"rank {ranks[0]}'s NPU" if len(ranks) == 1 else "the NPU of the process that raised it"
    meaning = NPU_RT_CODES.get(code, f"Ascend runtime error {code}")
    return (f"an Ascend NPU runtime error ({said}: {meaning}): a kernel on that device hung or faulted, read like a "
            "CUDA kernel error; the collectives and watchdogs of the other processes that fail with it follow from it",
            f"Read the ASCEND plog (device log) of {npu} for error code {code} and the operator that hung "
            "(ASCEND_GLOBAL_LOG_LEVEL=1, /root/ascend/log; msnpureport pulls the device-side log); rerun with "
            "ASCEND_LAUNCH_BLOCKING=1 to find the failing operator where it runs; check npu-smi device health; "
            "keep CANN / torch_npu versions a matching set (a version regression: roll back to the last release "
            "that ran); for a communication operator try without HCCL_OP_EXPANSION_MODE=AIV and check "
            "HCCL_EXEC_TIMEOUT.")


_R_VLLM = re.compile(r"vllm", re.I)  # vLLM, vllm-ascend, "(VllmWorker ...)", VLLM_* settings


def _names_vllm(c: Collected, evs: list) -> bool:
    """The lines name vLLM (or vllm-ascend): its flags (--enforce-eager) are advice there only (review 107 (5))."""
    seen = [*evs, *c.exceptions[:32], *c.samples.get("tb_cut", []), *c.unread[:16]]
    return any(_R_VLLM.search(e.text) for e in seen)


def _accel_error(said: str, runtime: str, ranks: list[int], npu_code: int | None = None,
                 vllm: bool = False) -> tuple[str, str]:
    """What a non-CUDA accelerator's runtime error means and how to look at it (lead rule AN (2)), by the runtime
    that named it (readers.crash._accel_what, _cuda_error's Ascend HCCP and NPU-call readers): each has its own
    device tools, logs and version set to match; vLLM's flags only where the lines name vLLM (VLLM)."""
    who = f"rank {ranks[0]}" if len(ranks) == 1 else "the rank that raised it"
    if runtime == "ascend" and npu_code is not None:
        return _npu_runtime(said, npu_code, ranks)
    if runtime == "ascend" and said.startswith("an NPU kernel exception"):
        # the runtime's own report of a kernel faulting on the device (readers.crash._npu_kernel_exc: an aivec /
        # aicore error, "[vector core exception]"): CUDA's illegal access, on that NPU (lead rules AN (2), BO (1))
        npu = f"rank {ranks[0]}'s NPU" if len(ranks) == 1 else "the NPU of the process that raised it"
        return (f"an Ascend NPU device error ({said}): a kernel (an AI Core / vector-core operator) faulted on that "
                "device -- read like a CUDA illegal memory access in the kernel; the other processes' failures follow "
                "from it",
                f"Device error on the NPU: illegal memory access in the kernel. Find the operator on {npu}: rerun with "
                "ASCEND_LAUNCH_BLOCKING=1 to find the operator that raised the vector core exception, collect the "
                "Ascend plog (ASCEND_GLOBAL_LOG_LEVEL=1, ASCEND_SLOG_PRINT_TO_STDOUT=1) for the failing kernel, and "
                + ("run with --enforce-eager (no graph compilation) or " if vllm else "run ")
                + "without the custom / fused operator to isolate it; match CANN / torch_npu"
                + (" / vllm-ascend" if vllm else "") + " versions (upgrade them: a faulty AIV kernel is fixed in a "
                "release) and report the failing operator; check the device health with npu-smi info.")
    if runtime == "ascend":
        # Ascend's runtime could not start HCCP (HCCL's device-side process) on that process's NPU at the
        # communicator's set-up (lead rules AN (2), AM (3)): that rank's device, most often held by an earlier run
        npu = f"rank {ranks[0]}'s NPU" if len(ranks) == 1 else "the NPU of the rank that raised it"
        return (f"an Ascend NPU runtime error at the communicator's set-up ({said}): HCCP, HCCL's process on the "
                "device, could not start there -- most often an earlier run's training process still holds that "
                "NPU; the driver errors under it follow from it, not a peer's fault",
                f"Check {npu}: npu-smi info lists the processes on each NPU -- kill the leftover training process "
                "of an earlier run still holding it, wait about 10 s after killing it (HCCP needs the time to exit) "
                "and relaunch; make sure two jobs do not share NPUs (ASCEND_RT_VISIBLE_DEVICES). If no process "
                "holds it, read the ASCEND plog (/root/ascend/log, ASCEND_GLOBAL_LOG_LEVEL=1) for the driver's error "
                "and reset or check that device (npu-smi).")
    if runtime == "xla" and "session call to the TPU failed" in said:
        # the XRT client's own session call failing (R_XRT_CLIENT_RUN; rule CK (2), round 110's xla-1911): at a
        # process's start-up (xm.xla_device()) the TPU server did not answer or could not serve it; the status cut
        return (f"an accelerator runtime error ({said}: torch_xla's XRT runtime on the TPU server): that process's "
                "call to the TPU server's runtime failed -- the server not reachable or not serving (restarting, out "
                "of host memory, another torch_xla version than it serves)",
                f"The XRT session call of {who} failed: get the full XRT error text (it is cut at the check: the "
                "status after 'vs. OK' names what the server said); restart the TPU runtime / reconnect the Colab "
                "session (a factory reset of the runtime); check XRT_TPU_CONFIG / COLAB_TPU_ADDR points to a reachable "
                "TPU; match torch_xla version to the TPU runtime (env-setup.py --version, the TPU software version); "
                "run xm.xla_device() once outside xmp.spawn to test the TPU connection (without touching the device "
                "in the parent before xmp.spawn with start_method='fork'); check every process's own log (its "
                "TPU:N lines) and reduce the TPU host memory each process uses (smaller model or batch per core).")
    if runtime == "xla":
        return (f"an accelerator runtime error ({said}: torch_xla's XRT runtime on the TPU server): the TPU runtime "
                "lost the session that process's device calls ran in -- it restarted under the process (its host out "
                "of memory, a crash, a client version it cannot serve)",
                f"The TPU runtime session lost by {who}: restart the TPU runtime (restart the Colab runtime on Colab) "
                "so every process gets a fresh XRT session; reduce TPU host memory use (batch size, the data held "
                "in each process), the usual reason the runtime restarts; keep the TPU runtime / torch_xla version "
                "match (the torch_xla / XRT version the TPU software version serves); rerun with fewer cores to "
                "isolate a process that fails alone.")
    if runtime == "habana":
        return (f"an accelerator runtime error ({said}: Habana's SynapseAI under torch's HPU bridge): the HPU's "
                "graph compiler or runtime failed that process's own call, not a peer",
                f"Read the SynapseAI logs of {who} ($HABANA_LOGS; LOG_LEVEL_ALL=3 ENABLE_CONSOLE=true prints them): "
                "they name the op the graph compile failed on. Keep the habanalabs driver, SynapseAI, habana torch "
                "and optimum-habana a matching set (update SynapseAI / optimum-habana together); try eager mode "
                "(PT_HPU_LAZY_MODE=0) to find the op, move an unsupported op's tensor to CPU, and reproduce on one "
                "card; hl-smi shows the devices' health.")
    if runtime == "neuron":
        return (f"an accelerator runtime error ({said}: AWS Neuron's runtime loading or running the compiled NEFF "
                "on the NeuronCores): the device or its runtime failed that process's call, not a peer",
                f"Read the Neuron runtime's log of {who} (NEURON_RT_LOG_LEVEL=INFO names why nrt_load failed); "
                "check with neuron-ls / neuron-top that its NeuronCores are free (another process holding them; "
                "NEURON_RT_VISIBLE_CORES giving each worker its own), that the Neuron runtime, driver and compiler "
                "versions match on every node, and clear the neuron compile cache to recompile the NEFF "
                "(neuron_parallel_compile ahead of the run).")
    if runtime == "rocm":
        # HIP's runtime aborting a process's GPU queue on an HSA error (readers.crash, S.R_HSA_QUEUE_ABORT): a kernel
        # faulted on the device, most often a build (torch's ROCm wheel, compiled ops) or driver that does not fit
        return (f"a HIP runtime error ({said}: ROCm's runtime under torch's HIP device): a kernel faulted on the GPU "
                "and the runtime aborted the process -- the device, its driver or a build not made for this GPU, "
                "read like a CUDA error",
                "Check the ROCm software set against the GPU: the ROCm version and amdgpu driver the torch ROCm build "
                "was made for, the GPU architecture support of that build and of every compiled op (the gfx target: "
                "PYTORCH_ROCM_ARCH when building; HSA_OVERRIDE_GFX_VERSION only for a GPU of a supported family), "
                "rebuilding the framework's own ops (DeepSpeed's, apex) for the installed ROCm; rerun with "
                "AMD_SERIALIZE_KERNEL=3 and AMD_LOG_LEVEL=4 to find the kernel, and look at rocm-smi / dmesg for GPU "
                "faults (HIP_VISIBLE_DEVICES to try one GPU at a time).")
    if runtime == "oneccl":
        # oneCCL's wrapper of a Level Zero call threw (readers.crash, S.R_CCL_ZE_CALL): the device runtime refused
        # the collective library's call, most often in its peer set-up between the GPUs (IPC handles, P2P)
        return (f"an accelerator runtime error inside the collective library ({said}: a Level Zero call oneCCL "
                "made failed, most often in its set-up between the GPUs -- IPC handles, peer-to-peer access): the "
                "GPUs, their driver or the platform refused it, not a rank's fault",
                "Read the full oneCCL exception text (CCL_LOG_LEVEL=debug prints the Level Zero call and its "
                "ZE_RESULT code); try without peer-to-peer between the GPUs (CCL_TOPO_P2P_ACCESS=0) and with the IPC "
                "handles exchanged over sockets (CCL_ZE_IPC_EXCHANGE=sockets, or pidfd); check ZE_AFFINITY_MASK / "
                "device visibility per worker; keep the kernel GPU driver (xe / i915), Level Zero and oneCCL a "
                "matching set (a oneCCL / Level Zero driver update), with the framework image built for them.")
    fix = (f"Check the GPU / node of {who}: xpu-smi (xpu-smi discovery, xpu-smi diag -d N for its health), dmesg "
           "for the i915 / xe driver's errors; exclude the bad node (drain it) if the same device fails again. "
           "OUT_OF_RESOURCES means the device runtime ran out of a resource, often device memory under another "
           "name (or command queues, events): reduce batch size / activation memory (activation checkpointing), "
           "and keep the Intel GPU driver, oneAPI / Level Zero runtime and torch XPU builds a matching set "
           "(ZE_DEBUG=1 or UR_LOG_LEVEL0=\"level:error;output:stderr\" shows the failing call).")
    if "OUT_OF_RESOURCES" not in said:
        fix = fix.replace("OUT_OF_RESOURCES means", "If it says OUT_OF_RESOURCES: it means")
    if "(NEO) abort" in said:  # the compute runtime's own internal check, in the source file printed under it
        fix = ("The Intel GPU compute runtime (NEO) aborted on its own internal check (the source file printed under "
               "'Abort was called at N line in file:' names the part, e.g. its memory_manager): upgrade the "
               "compute-runtime / Level Zero and the GPU driver (or roll back to the last set that ran), and for a "
               "report enable core dumps (ulimit -c unlimited; gdb python core -> bt). " + fix)
    return (f"an accelerator runtime error ({said}: Intel's Unified Runtime / Level Zero, torch's XPU device): "
            "the device or its runtime failed that process's call, not a peer", fix)


# the exceptions that only carry another's (mp.spawn's parent re-raising a child's, torchrun's record)
_WRAPPER_EXC = ("ProcessRaisedException", "ChildFailedError", "ProcessExitedException")


def _arch_unsupported(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule AF (2), as AX (2) reads a build that does not match the platform: torch warned that the GPU's compute
    capability is not in the installed build's arch list, and the failure after it shows no text of its own (a cut
    traceback, a launcher's record, mp.spawn's re-raise): the one cause the lines name is that build, which every
    process on the host shares -- config, nobody named (not spawn's lone child, AL (2)). A CUDA call shown failing
    is _cuda's (rule AT (1)), and an exception shown with its own text is read by its own rules."""
    evs = [e for e in c.samples.get("benign", []) if e.data.get("arch_unsupported")]
    if not evs:
        return None
    if any(not str(e.data.get("type") or "").endswith(_WRAPPER_EXC) for e in c.exceptions
           if not e.data.get("line")):
        return None
    sm = next((e.data["arch_unsupported"] for e in evs if isinstance(e.data["arch_unsupported"], str)), None)
    return Verdict(
        "config",
        f"torch warned that the GPU's compute capability{' (' + sm + ')' if sm else ''} is not compatible with the "
        "installed PyTorch build (the GPU's arch is not in the build's arch list: incompatible_device_warn), and the "
        "failure after it shows no text of its own: a PyTorch build this GPU cannot run, which every process on the "
        "host shares -- the job's install, not one rank's fault",
        "Install a PyTorch build for the GPU's CUDA capability: compare torch.cuda.get_arch_list() with "
        "torch.cuda.get_device_capability() (an RTX 30xx / A100 needs sm_86 / sm_80, a CUDA 11+ build such as cu113 "
        "or newer; an H100 sm_90, CUDA 11.8+); reinstall torch from the index URL of a CUDA version the driver "
        "supports (nvidia-smi shows it), then rerun with NCCL_DEBUG=INFO if it still fails; the incompatible "
        "warning's text names the capabilities the installed build supports.",
        "medium", [], [e.brief() for e in evs[:2]], job_wide=True)
