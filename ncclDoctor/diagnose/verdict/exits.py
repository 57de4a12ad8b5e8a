"""A process's own end as its launcher or its own handler records it: exit codes in torchrun's, mpirun's,
DeepSpeed's, Paddle's and Ray's records, native crashes (SIGSEGV, SIGABRT, SIGILL; one inside libnccl.so is
nccl_internal), the interpreter's 'Fatal Python error', worker processes whose target raised."""

from __future__ import annotations

import re

from ncclDoctor.diagnose import generic, numerics
from ncclDoctor.diagnose import signatures as S
from ncclDoctor.diagnose.lone import (
    Lone,
    failed_on_own,
    lone_failure,
    lone_launched_worker,
    root_not_shown,
    several_failures,
    torn_down,
)
from ncclDoctor.diagnose.reason import Conclusion, _fmt_ranks, own_errors, world_size
from ncclDoctor.diagnose.reason import waiting as rank_waiting
from ncclDoctor.diagnose.signatures import Event, strip_prefixes
from ncclDoctor.diagnose.state import QUIET_KINDS, Collected
from ncclDoctor.diagnose.verdict.base import (
    Verdict,
    _named,
    exception_text,
    horovod_rebuild,
    legacy_launch_shown,
    place,
    waiting_pids,
)
from ncclDoctor.diagnose.verdict.memory import _ROOT_UNSHOWN, _listed, _shell_status, died_alike
from ncclDoctor.diagnose.verdict.signals import _runner_signal, interrupted_kills
from ncclDoctor.diagnose.verdict.unread import (
    _R_DDP_MODULE_WIDE,
    _R_STATE_DICT_LOAD,
    _STATE_DICT_FIX,
    LOAD_READ_FIX,
    LOADER_RERAISE_FIX,
    R_ENOENT_PATH,
    R_LOAD_FRAME,
    R_LOAD_READ_FAILED,
    R_SAVE_FRAME,
    SAVE_WRITE_FIX,
    STATE_DICT_RESUME_FIX,
    _connect_warned,
    _ddp_reducer_fix,
    _fmt_error_fix,
    _py_exception_fix,
    _raised_alike,
    _wrapped_attr_fix,
    http_status_fix,
    missing_file_fix,
    torn_down_fix,
)

# a NaN/Inf check that raised in one rank: autograd's anomaly mode ("Function 'MulBackward0' returned nan values"),
# clip_grad_norm_'s error_if_nonfinite ("... is non-finite, so it cannot be clipped"), a loss check ("Loss is NaN")
_NONFINITE = re.compile(r"returned nan values|non-finite|\bnan or inf\b|\b(?:loss|norm)\b[^\n]{0,30}\b(?:nan|inf)\b",
                        re.IGNORECASE)
_NONFINITE_FIX = ("A NaN/Inf check stopped that rank: its loss or gradients diverged -- " + numerics.DIVERGED_ADVICE
                  + "torch.autograd.set_detect_anomaly(True) names the operation. ")


# A SIGBUS is a page that could not be backed, which a memory-mapped file gives as well as /dev/shm: the file's
# filesystem full, or the file cut short under the mapping (a dataset library's memory-mapped Arrow cache or the
# shards save_to_disk writes, np.memmap); and /dev/shm is itself a tmpfs in host memory
_MMAP_BUS = (" /dev/shm is a tmpfs in host memory, so it also needs free RAM behind it. A SIGBUS also comes from a "
             "memory-mapped file whose filesystem filled up or which was truncated under the mapping (memory-mapped "
             "Arrow caches and datasets' save_to_disk shards, np.memmap): check free disk there (df -h) and write it "
             "from one rank only.")
# frames of the crash handler itself (UCX's, libc's signal trampoline), before the library that crashed
_HANDLER_LIBS = ("libucs.so", "libc.so", "libpthread.so", "libSegFault.so", "libunwind.so", "libbacktrace.so")


def _nccl_crash(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """A native crash (SIGSEGV, SIGBUS) whose first frame past the crash handler is in libnccl.so:
    NCCL's own threads crashed (its proxy, RAS or net threads), not a rank's code or the network."""
    # (not where the lines place it in NCCL's topology code: rule AK (2)'s unknown, read by _native_crash)
    evs = [e for e in c.samples.get("crash", []) if _in_nccl(e.data.get("libs", [])) and not _nccl_topology(e)]
    if not evs:
        return None
    e = evs[0]
    driver = _in_nccl(e.data.get("libs", [])) != "libnccl.so"
    return Verdict(
        "nccl_internal",
        f"a process crashed with signal {e.data['signal']} ({e.data['what']}) inside "
        + ("a CUDA driver call made by NCCL's own thread (the first frames past the crash handler are libcuda's, "
           "called from libnccl.so)" if driver else "libnccl.so (the first frames past the crash handler are NCCL's)")
        + ": a bug in NCCL (or in the driver call it made), not in a rank's code or the network; the lines do not "
        "say which rank",
        "Upgrade NCCL (check its release notes and NVIDIA/nccl issues for the version); symbolise the frames "
        "(addr2line -e libnccl.so OFFSET, or a debug build) to see the subsystem: in NCCL's RAS thread (ras*, 2.24+) "
        "NCCL_RAS_ENABLE=0 bypasses it, in the proxy/net threads compare NCCL_NET / the net plugin version"
        + ("; the crash is in the CUDA driver NCCL called: check that the libcuda loaded matches the host's driver "
           "(a container's CUDA compat libcuda on a newer driver), and in NCCL's proxy (its cuMem file-descriptor "
           "exchange) NCCL_CUMEM_ENABLE=0 avoids the cuMem path." if driver else "."),
        "medium", [], [x.brief() for x in evs[:3]])


_DRIVER_LIBS = ("libcuda.so", "libcudart.so")
# the process an interposer's error line names ("[HAMI-core ERROR (pid:2244 thread=...")
_R_HAMI_PID = re.compile(r"\(pid:(\d{1,9})\b")


def _in_interposer(e: Event) -> bool:
    """A crash whose frames run in a GPU-sharing interposer's code (parse: data interposer, a frame in HAMi-core's
    sources) or library (libvgpu.so among its backtrace's libraries)."""
    return bool(e.data.get("interposer")) or "libvgpu.so" in e.data.get("libs", [])


def _interposer_crash(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rule CH (1): a process crashed inside a GPU-sharing interposer preloaded in front of the CUDA driver
    (HAMi-core's libvgpu.so in a vGPU pod) -- the crash's frames in its sources or library (parse: data interposer),
    the kernel's 'segfault ... in libvgpu.so', or the interposer's own error line ('[HAMI-core ERROR ...]: Illegal
    device id') beside a crash. Every process of the pod loads the same hook (rule AF (2) / AT (1)'s shared install):
    config, culprits [], nobody innocent, whether one process or several show it (rule J). Not a bare SIGSEGV whose
    frames are another library's with only the interposer's start-up Warn / Msg lines beside it (rule A's unknown)."""
    crashes = [e for e in c.samples.get("crash", []) if e.data.get("signal") in (4, 6, 7, 8, 11)]
    framed = [e for e in crashes if _in_interposer(e)]
    texts = [x.text for x in c.unread if "libvgpu" in x.text or "HAMI" in x.text.upper()]
    kernel = [m for t in texts if (m := S.R_INTERPOSER_SEGV.search(t))]
    said = [m for t in [*texts, *(e.text for e in crashes)] if (m := S.R_INTERPOSER_ERROR.search(t))]
    if said and not (framed or kernel):
        # the interposer's error line beside a crash: only a crash of its own kind (not SIGABRT, a watchdog's abort
        # too), of the process the line names, and not where a collective timed out or a DistBackendError ended the
        # process -- that is the timeout's reading (review 107 finding 3)
        pids = {int(p.group(1)) for m in said if (p := _R_HAMI_PID.search(m.string))}
        crashes = [e for e in crashes if e.data.get("signal") in (4, 7, 8, 11)
                   and (e.data.get("proc") or e.pid) in pids]
        if crashes and (c.samples.get("watchdog_timeout") or any(
                "DistBackendError" in x.text for x in [*c.unread, *(e for v in c.samples.values() for e in v)])):
            crashes = []
    if not (framed or kernel or (said and crashes)):
        return None
    ev = (framed or crashes or [None])[0]
    where = ("its crash frames run in the interposer's own code" if framed else
             f"the kernel logged {len(kernel)} segfault(s) in {kernel[0].group('lib')}" if kernel else
             "the interposer's own error beside the crash")
    err = f" ('{said[0].group('what').strip()[:100]}')" if said else ""
    cumem = any(_R_CUMEM_FRAME.search(f) for e in crashes for f in e.data.get("funcs", []))
    fix = ("The crash is inside HAMi-core's vGPU interception library (libvgpu.so, the CUDA hook preloaded in every "
           "process of the pod), not in the job: upgrade HAMi / HAMi-core (libvgpu.so) to a release that supports "
           "this driver, CUDA and NCCL version (match HAMi-core version to the CUDA driver and NCCL version); run once "
           "without the hook to confirm -- CUDA_DISABLE_CONTROL=true, or a whole-GPU allocation without libvgpu's "
           "LD_PRELOAD -- and report the frames to HAMi-core.")
    if said and "device" in said[0].group("what").lower():
        fix += (" 'Illegal device id' is the hook's own lookup of the device failing: check the device plugin's "
                "CUDA_VISIBLE_DEVICES / device mapping inside the pod.")
    if cumem:
        fix += (" Its frames run under NCCL's cuMem calls (cuMemCreate from ncclCuMemHostEnable): NCCL_CUMEM_ENABLE=0 "
                "and NCCL_CUMEM_HOST_ENABLE=0 keep NCCL off that hook until HAMi-core is fixed.")
    n = len({(e.host, e.data.get("proc") or e.where) for e in crashes}) or len(kernel) or 1
    return Verdict(
        "config",
        f"{'a process' if n == 1 else f'{n} processes'} crashed inside a GPU-sharing interposer in front of the CUDA "
        f"driver (HAMi-core's libvgpu.so vGPU hook): {where}{err} -- the hook every process of the pod preloads "
        "failed at start-up, not a rank's code; no rank is at fault",
        fix, "medium", [], [x.brief() for x in (framed or crashes)[:3]] or ([ev.brief()] if ev else []),
        job_wide=True)


def _nccl_topology(e: Event) -> str | None:
    """Lead rule AK (2): a native crash whose frames the lines name in NCCL's topology code -- a frame's function
    (ncclTopoCompute) or its source in NCCL's graph/ (gdb's "#0 ... in pathDistance (...) at graph/topo.cc:618", from
    a core of the crash: S.R_DBG_FRAME_SRC) -- 'function at source' (or the function), else None. The detection of the
    host's PCI / NVLink / NIC tree and the search over it at communicator init run on what this machine and its
    settings present, and with no NCCL error text the lines do not say whether NCCL's code or the topology it met is
    at fault: the cause stays unknown by its signal (rule A's table), not NCCL's own crash (nccl_internal, _nccl_crash),
    whatever library the crash handler's bare frames name (round 104's nccl-291)."""
    funcs, srcs = e.data.get("funcs", []), e.data.get("srcs", [])
    src = next((x for x in srcs if S.R_NCCL_TOPO_SRC.search(x)), None)
    func = next((f for f in [*funcs, *e.data.get("symbols", [])] if S.R_NCCL_TOPO_FUNC.match(f)), None)
    if src is None and func is None:
        return None
    if src is not None and len(funcs) == len(srcs):  # gdb gave each frame its source: the function of that one
        func = funcs[srcs.index(src)]
    return f"{func}() at {src}" if func and src else f"{func}()" if func else src


# what to do where a native crash lies in NCCL's topology code (_nccl_topology), with no NCCL error text: the
# topology NCCL detected and the settings that shape it, then NCCL's version (lead rules AK (2), T)
NCCL_TOPO_CRASH_FIX = (
    "It died in NCCL's topology code ({where}: the detection of the machine's PCI / NVLink / NIC tree and the search "
    "of paths over it at communicator init), with no NCCL error printed: rerun with NCCL_DEBUG=INFO "
    "NCCL_DEBUG_SUBSYS=INIT,GRAPH to see the topology detection, dump what NCCL detected "
    "(NCCL_TOPO_DUMP_FILE=topo.xml) and compare it with nvidia-smi topo -m; rerun without the settings that remove "
    "paths from it (NCCL_SHM_DISABLE, NCCL_P2P_DISABLE, NCCL_P2P_LEVEL, NCCL_TOPO_FILE) and, the other way, with "
    "NCCL_P2P_DISABLE=1 to test; match NCCL and CUDA versions and upgrade NCCL (a release with the topology fix: its "
    "release notes and NVIDIA/nccl issues name graph/ bugs); for a report, take a gdb backtrace of the core with a "
    "debug build of NCCL and give NVIDIA/nccl the topology (NCCL_TOPO_DUMP_FILE). ")


def _in_nccl(libs: list[str]) -> str | None:
    """The library a native crash is NCCL's in: the first frame past the crash handler in libnccl.so, or a CUDA
    driver frame that NCCL itself called (the frame right after the driver's is libnccl's: NCCL's thread)."""
    frames = [x for x in libs if x not in _HANDLER_LIBS]
    if frames and frames[0] == "libnccl.so":
        return "libnccl.so"
    i = 0
    while i < len(frames) and frames[i] in _DRIVER_LIBS:
        i += 1
    return frames[0] if 0 < i < len(frames) and frames[i] == "libnccl.so" else None


def _ray_died(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """The raylet saw a worker process die of an "unexpected system error" (its connection hit EOF): the
    first failure, before the timeouts and transport errors of the ranks that lost it. Ray lists the OOM
    killer, `ray stop --force` and a crash as possible causes; the line gives none of them and no rank.
    Not when every worker it names is a process whose own watchdog timed out (its Ray actor prefix on the timeout
    line): that worker died of the watchdog's abort ("taking the entire process down"), not first (lead rule I)."""
    evs = c.samples.get("ray_died", [])
    if not evs:
        return None
    waiting = waiting_pids(c)
    if waiting and all(x.data.get("pid") in waiting for x in evs):
        return None
    # the dead worker is the process that printed a launcher's record of its own child failing (the Ray actor prefix
    # on that record's line: Lightning's DDP launcher inside a Ray Tune trial): the parent, torn down after the child
    # it reports, not the first failure -- the record names that child (lead rules A, I, AU (4), BJ (1); round 89's
    # neuralforecast-1291)
    parents = {int(p[-1]) for x in c.worker_failures + c.child_failures
               if x.data.get("exitcode") not in (None, 0, -15) and (p := S.R_RAY_PID.findall(x.text))}
    if parents and all(x.data.get("pid") in parents for x in evs):
        return None
    if all(x.data.get("actor") for x in evs) and any(
            x.data.get("ray") for x in c.samples.get("signal", [])):
        return None  # the actor's node drained for preemption (its next line): a stop from outside (signals._preempted)
    e = evs[0]
    if all(x.data.get("node") for x in evs):  # the GCS lost a whole node (its heartbeats), not one worker
        ips = sorted({x.data["ip"] for x in evs if x.data.get("ip") and x.data["ip"][0].isdigit()})
        at = f"{' (' + ', '.join(ips[:4]) + ')' if ips else ''}"
        # an actor's owner gone with its crashed node (signatures.R_RAY_OWNER_NODE): the same loss, told by the
        # driver's ActorDiedError instead of the GCS's heartbeat line (lead rules AU (1), BJ (1), AD (2))
        owner = all(x.data.get("owner") for x in evs)
        # an actor dead with its own node (signatures.R_RAY_ACTOR_NODE: RayActorError's "its node has died"; round
        # 90's ray-43751): the worker that ran there is gone, its pid and IP no rank (lead rules AU (1), BJ (1), AD (2))
        actor = all(x.data.get("actor") for x in evs)
        return Verdict(
            "unknown",
            (f"Ray reports an actor dead because its owner died with its node{at} ('Owner's node has crashed'): "
             "every Ray process on that node is gone, and the errors that follow are its victims; the lines do not "
             "say why the node went (the raylet or the host crashed -- the OOM killer, a full disk, a preempted or "
             "rebooted node) nor which ranks ran there (an actor's or owner's id is no rank)" if owner else
             "Ray reports an actor dead because its node has died ('The actor is dead because its node has died'): "
             "the node died and every Ray process on it with it -- the worker that ran there is the first failure, "
             "the errors that follow (the driver's, the other workers') its victims; the lines do not say why the "
             "node went (preemption of a spot or preemptible instance, the raylet or the host crashed -- the OOM "
             "killer, a reboot -- or its health checks timed out) nor which rank that worker was (an actor's pid "
             "and IP are no rank)" if actor else
             f"Ray's GCS marked {len(evs)} node(s){at} dead after missing "
             "their heartbeats: every worker there is gone and the job's errors that follow are its victims; the lines "
             "do not say why (Ray's own list: the raylet crashed -- the OOM killer, a preempted or rebooted node -- or "
             "its heartbeats lagged on a slow network or a busy node) nor which ranks ran there"),
            "On that node read the raylet's log (/tmp/ray/session_latest/logs/raylet.out, gcs_server.out on the head) "
            "and dmesg -T for the OOM killer; check whether the node was preempted or rebooted (the scheduler's or "
            "cloud's events); for a busy but healthy node raise the GCS health-check timeout "
            "(RAY_health_check_timeout_ms, RAY_health_check_failure_threshold)." + (
                " The node died under the actor: ray status / node health on the cluster (ray list nodes shows the "
                "dead node and its death reason), the cloud's events for a preemption of a spot / preemptible "
                "instance, and the node memory (the OOM killer in dmesg on that host); to let a Ray Train run "
                "survive a lost node, checkpoint and resume with FailureConfig(max_failures) above the failures "
                "expected." if actor else "") + (
                " A node's raylet most often dies of the host: check the host memory OOM (Ray memory monitor, the "
                "kernel's OOM killer in dmesg; memory usage of the node while it runs), the /tmp/ray disk space "
                "(Ray's logs and spilled objects fill it: df -h /tmp/ray) and the shared memory /dev/shm size "
                "(Ray's object store lives there: docker --shm-size); ray status before the crash shows the node's "
                "memory and object store use. If it is memory, reduce memory (rollout batch, offload -- a smaller "
                "rollout / generation batch, vLLM's gpu_memory_utilization, parameter and optimizer offload) and "
                "read the driver's own logs (ray logs, py-spy of the driver) for what ran when the node went."
                if owner else ""),
            "low", [], [x.brief() for x in evs[:2]],
            demote="Ray lost the node before it: that rank's error is a consequence")
    at = (f" (pid {e.data['pid']}" if e.data.get("pid") else " (") + (
        f" on {e.data['ip']})" if e.data.get("ip") else ")")
    at = "" if at == " ()" else at
    # Ray Train's record of the one training worker whose actor died ("Worker 0 has failed."): the dead process is that
    # worker, by its world rank (lead rules I, AU (4); BJ (1): Ray's EOF text gives no cause; round 89's ray-47461)
    train = sorted({x.rank for x in c.child_failures if x.data.get("ray_train") and x.rank is not None})
    named = train if len(train) == 1 else []
    return Verdict(
        "unknown",
        f"a Ray worker process{at} died or was killed by an unexpected system error: it is the first failure, and "
        "the errors and timeouts of the ranks that followed are its victims; "
        + (f"Ray Train then records 'Worker {named[0]} has failed.' -- the training worker whose actor died, by its "
           f"world rank: rank {named[0]}; the lines do not say why it died" if named else
           "the lines say neither which rank it was nor why it died")
        + " (Ray's own list: the OOM killer, ray stop --force, a crash)",
        "Read the dead worker's logs (ray logs worker-<WORKER_ID>.err on that node, or /tmp/ray/session_latest/logs/"
        "worker-*.err) and the raylet's (raylet.out) for why it died; on that node dmesg -T | grep -i 'killed "
        "process' shows whether the OOM killer took it (host memory / container memory limit: the node's RAM, and "
        "the Ray memory monitor, which kills workers itself above RAY_memory_usage_threshold; in a container check "
        "host RAM and --shm-size for the container, Ray's object store living in /dev/shm); for a crash, "
        "faulthandler / core dump for SIGSEGV: the worker-*.err holds its faulthandler stack, a core dump "
        "(ulimit -c unlimited) its native one. Ray's own list of causes says what to check: check dmesg / the "
        "kernel OOM killer for the host, check for a SIGSEGV or core dump in the worker, and check that nobody ran "
        "ray stop --force on that node. If it is memory, reduce memory: a smaller batch, fewer workers per "
        "node, parameter / optimizer offload." + (
            # Ray's hint that the worker's pod may have hit its memory limit: where to look, not a cause shown
            " Ray hints the worker's pod may have exceeded its K8s memory limit: kubectl describe pod (an "
            "OOMKilled last state) and the pod's memory usage against its memory limit say whether it did; raise "
            "the pod memory limit or cut the process's host memory use if so." if any(
                x.data.get("k8s_mem") for x in evs) else ""),
        "medium" if named else "low", named, [x.brief() for x in evs[:2]],
        demote="a Ray worker process died before it: that rank's error is a consequence")


def exception_of(c: Collected, rank: int | None) -> Event | None:
    """The last traceback line of that rank's own log (a line tagged with it or a file named after
    it); else the untagged ones of torchrun's shared output, only when they all say the same (with
    several ranks' tracebacks interleaved there, which one is that rank's cannot be told)."""
    if rank is None:
        return None
    excs = [e for e in c.exceptions if not e.data.get("line")]  # a traceback's own last line, not an "Error:" line
    # mp.spawn's parent re-raising a child's error (ProcessRaisedException, the child's traceback printed below it):
    # the parent's wrapper, not a second exception of its own
    excs = [e for e in excs if not str(e.data.get("type") or "").endswith("ProcessRaisedException")]
    # a launcher's CalledProcessError for the command of another launcher it ran (accelerate's multi_gpu_launcher
    # running torchrun, a script running deepspeed): the outer launcher's report that the inner one exited non-zero,
    # printed below the inner one's record -- no exception of a worker (lead rule M; round 79's
    # fast-stable-diffusion-122)
    excs = [e for e in excs if not (str(e.data.get("type") or "").endswith("CalledProcessError")
                                    and S.R_CPE_LAUNCHER.match(str(e.data.get("message") or "")))]
    # a launcher's CalledProcessError that is itself the record of the worker's exit (read from that same line, its
    # status wrapped onto the next one: torch 1.x launch.py's sigkill_handler raising it for the last worker's
    # command) is the launcher's report of that worker, not the worker's own exception (lead rules M, U (5); round
    # 89's swin-transformer-109)
    recs = {f.where for f in c.child_failures + c.worker_failures}
    excs = [e for e in excs if not (str(e.data.get("type") or "").endswith("CalledProcessError") and e.where in recs)]
    own = [e for e in excs if e.rank == rank]
    if not own:
        own = [e for e in excs if e.rank is None]
        if len({(e.data["type"], e.data["message"]) for e in own}) != 1:
            return None
    return own[-1] if own else None


SIGNALS = {4: "SIGILL", 6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE", 9: "SIGKILL", 11: "SIGSEGV", 15: "SIGTERM"}


_CUT_ALIKE_FIX = (
    "Get the workers' error text first: decorate the entry point with "
    "torch.distributed.elastic.multiprocessing.errors.@record (the error file replaces <N/A>), or keep one log per "
    "worker (torchrun --log-dir DIR --redirects 3 --tee 3), or run one worker alone without the launcher. Then check "
    "what every worker does alike at start-up, where the tracebacks stop: the launcher arguments (--nproc_per_node, "
    "a script's own --launcher option), nproc_per_node matching the GPUs visible (CUDA_VISIBLE_DEVICES; set_device's "
    "invalid device ordinal), LOCAL_RANK / --local_rank, MASTER_ADDR/MASTER_PORT (a port in use), and "
    "init_process_group's arguments.")


def _cut_alike(c: Collected, lone) -> Verdict | None:
    """Lead rule BN (2) with rules J, AM (2), AX (4): torchelastic's "CHILD PROCESS FAILED ... (local_rank N) FAILED
    (exitcode 1)" reports only the first failure in time; several worker tracebacks printed together above it, each
    cut before its error text (no exception line between the first of them and the record) and none inside a
    collective call's frame, covering every worker the lines list (the agent's reply files, the world size) are the
    workers failing alike at start-up on their own, not a lone first failure: nobody named, cause unknown (round 80's
    lptn-23). One cut traceback beside the record stays rule A's lone failure (rules AN (1), BG (4)); a traceback cut
    inside a collective call stays a possible victim (rules BH (1), BM (1))."""
    e = lone.event
    heads = e.data.get("cut_heads") or []
    if len(heads) < 2 or e.data.get("heads_in_collective") or lone.exitcode != 1:
        return None
    path, _, at = e.where.rpartition(":")
    if not at.isdigit():
        return None
    end = int(at)
    for x in c.exceptions:
        xp, _, xl = x.where.rpartition(":")
        if xp == path and xl.isdigit() and int(xl) < end:
            return None  # an error text shown above the record: rule A with its own exception
    listed = e.data.get("listed_workers")
    size = world_size(c)[0]
    if (listed and listed > len(heads)) or (size and size > len(heads)) or any(r != 0 for r in c.ranks):
        return None  # workers the lines list beyond the cut tracebacks: not every shown worker failing alike
    return Verdict(
        "unknown", f"{len(heads)} worker tracebacks printed together above the launcher's record ({e.text[:160]}) "
        "each stop before their error text, none in a collective call"
        + (f", as many as the {listed} workers the agent started" if listed else "")
        + ": the workers failed alike at start-up, each on its own -- torchelastic's 'CHILD PROCESS FAILED' names "
        "only the first failure in time, not a lone first failure -- so no rank is to blame, and with no error text "
        "the cause is not in these lines",
        _CUT_ALIKE_FIX, "low", [], [e.brief()], job_wide=True)


def _kill_launcher(e: Event) -> tuple[str, str]:
    """Which launcher printed the 'Killing subprocess' lines, and how that launcher writes one log per rank."""
    if e.data.get("killed_by") == "torch.distributed.launch":
        return ("torch.distributed.launch", "torchrun --log-dir DIR --redirects 3 --tee 3 in place of that launcher")
    return ("DeepSpeed's launcher", "deepspeed --enable_each_rank_log DIR")


def _lone_worker_error(c: Collected) -> str | None:
    """Lead rule M: with one worker, the untagged exception above its launcher's traceback (the same one, however
    often printed) is that worker's own -- not the launcher's CalledProcessError about it."""
    said = {exception_text(e) for e in c.exceptions if e.rank is None and not e.data.get("line")
            and not str(e.data.get("type") or "").endswith("CalledProcessError")}
    return said.pop() if len(said) == 1 else None


# the DataLoader's "Pin memory thread exited unexpectedly": its pin-memory thread died, its cause not in the line
# (file descriptors, a worker killed, shared memory): lead rule BL (2) keeps the cause unknown, the fix names the
# loader's knobs (round 78's torchmd-net-324)
_PIN_MEMORY = re.compile(r"\bPin memory thread exited unexpectedly")
_PIN_MEMORY_FIX = ("That is the DataLoader's pin-memory thread dying (its own cause is not in the line: a worker "
                   "killed, the file-descriptor limit, /dev/shm shared memory running out): rerun with "
                   "pin_memory=False or num_workers=0 to see the underlying error, raise ulimit -n, enlarge "
                   "/dev/shm, and avoid persistent_workers=True with pin_memory=True when the loaders are "
                   "rebuilt each epoch. ")


def _normal_end(c: Collected, lone: Lone) -> Verdict | None:
    """Lead rule CF (2): the one process a launcher records leaving with the exit status that the program its
    traceback runs (its top-level script) passes deliberately at its normal end (RVC's trainer: os._exit(2333333) once
    the last epoch is saved), with nothing else failing shown -- no exception, signal, OOM or timeout of any rank: the
    run ended as that program ends it, so nobody failed (none, culprits [], nobody innocent). The same code under
    another script, or any other code under that script, keeps rule A / AL (2)'s lone exit. Only process 0 ends so
    (RVC calls os._exit(2333333) under rank 0 alone): another child leaving with that status is a lone exit (review
    105 (3) finding 4). Any exception shown beside it but spawn's own re-raise, ranked or not (a thread's, a helper
    process's: filed as traceback_tail with no rank), is a failure: the lone exit's reading stands (finding 1)."""
    end = lone.event.data.get("normal_end")
    if not end or lone.exitcode is None or lone.local_rank != 0 or any(own_errors(st) for st in c.ranks.values()):
        return None
    if any(not str(e.data.get("type") or "").endswith("ProcessExitedException") for e in c.exceptions):
        return None
    if any(v and k not in QUIET_KINDS and k not in ("child_failed", "worker_failed", "traceback_tail")
           for k, v in c.kinds.items()):
        return None
    script, what = end
    return Verdict(
        "none",
        f"process {lone.local_rank} of {script} left with exit code {lone.exitcode}, the status {what} passes "
        "at its normal end: the launcher's record (mp.spawn's ProcessExitedException) of a run that finished, not a "
        "failure -- no exception, signal, OOM or timeout is shown",
        f"Nothing to fix: exit code {lone.exitcode} is the program's deliberate end-of-training exit "
        f"(os._exit({lone.exitcode}) after the last epoch), a benign end-of-training exit; training completed -- check "
        "the saved model (the weights file and 'Training is done' in the training log) and ignore the "
        "ProcessExitedException (harmless). Only if the model was not written did the run stop early: then read "
        "the training log's last lines before the exit.",
        "medium", [], [lone.event.brief()])


# nccl-tests' generic failure line (src/common.cu's testResult check: " .. HOST pid P: Test failure common.cu:893"),
# printed after the specific 'Test NCCL failure' / 'Test CUDA failure' line that says what failed
_R_NCCL_TESTS_RESULT = re.compile(r"\bpid \d{1,9}: Test failure \w{1,40}\.cu:\d{1,6}\b")
_NCCL_TESTS_FAILED_FIX = (
    "nccl-tests' own 'Test failure common.cu:N' line is its generic result check: the error that failed the test is "
    "the 'Test NCCL failure' / NCCL WARN line printed before it, not in these lines (a net plugin's WARN after it is "
    "the teardown). Rerun with NCCL_DEBUG=INFO and read the first 'Test NCCL failure' / NCCL WARN line before the "
    "teardown; rebuild nccl-tests against the NCCL in use (MPI=1 NCCL_HOME=...)")
# the same, where the lines name the EFA path (aws-ofi-nccl, NET/OFI, EFA, libfabric): its plugin and provider checks,
# only there (review 106 finding 5: on InfiniBand or an on-prem cluster they are advice for another fabric)
_R_EFA_SHOWN = re.compile(r"aws-ofi-nccl|NET/OFI|\bEFA\b|\bFI_PROVIDER=efa\b|libfabric", re.I)
_NCCL_TESTS_EFA_FIX = (
    "; match NCCL and aws-ofi-nccl (net plugin) versions (its closeSend WARN after the failure is the teardown); on "
    "EFA, FI_PROVIDER=efa / fi_info -p efa to check the EFA provider, and the EFA security group must allow all "
    "traffic between the instances")


# torch elastic's record of a function it ran in child processes ("failed (exitcode: 1) local_rank: 0 (pid: 313) of
# fn: train (start_method: fork)": accelerate's notebook_launcher, elastic_launch), not of a script ("of binary:")
_R_ELASTIC_FN = re.compile(r"\bfailed \(exitcode: -?\d+\) local_rank: \d+ \(pid: \d+\) of fn: ([\w.<>]{1,120})")


def _elastic_fn_fix(n: int, fn: str, fork: bool) -> str:
    """The fix's words for torch elastic's record of function FN run in child processes (_R_ELASTIC_FN): process N's
    exception is printed under spawn's '-- Process N terminated with the following error:' below the record."""
    return (f"The record is of a function ('of fn: {fn}') run in child processes (accelerate's notebook_launcher, "
            f"elastic_launch): check process {n}'s own traceback -- read the full traceback of process {n} below "
            f"'Process {n} terminated with the following error' (the full error text of process {n}, which these "
            f"lines cut); run the {fn} function on one process to see its exception (notebook_launcher({fn}, (), "
            "num_processes=1), or call it directly), and check torch.cuda.device_count() matches num_processes"
            + ("; with start_method fork, do not initialize CUDA in the notebook before notebook_launcher forks "
               "(restart the kernel and run notebook_launcher before any CUDA call)" if fork else "") + ". ")


def _exited(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Ranks that exited on their own (torchrun's summary or its 'failed (exitcode: N)'):
    exit code 1 is a Python exception in that rank; -N is signal N (-7 SIGBUS: shared memory)."""
    down = {id(e) for e in torn_down(c)}
    fails = [e for e in c.child_failures + c.worker_failures if id(e) not in down and e.data.get("exitcode") != -9
             and (e.data.get("exitcode") not in (None, 0, -15) or e.data.get("root") or e.data.get("died")
                  or e.data.get("one_launched") or (e.data.get("spawn_exit") and e.data.get("nonzero"))
                  or e.data.get("error_file_copy"))]  # the agent copying its first failure's error file (rule BT (1))
    if not fails:
        return None
    if all(e.data.get("launcher_kill") for e in fails) and _runner_signal(c):
        return None  # the runner got SIGINT/SIGTERM and killed its workers for it: _signal reads it
    if interrupted_kills(c):
        return None  # the launcher's handler killing its workers for the user's Ctrl-C (rule BS (2)): _signal reads it
    if all(e.data.get("launcher_kill") for e in fails) and lone_launched_worker(c, fails):
        who, logs = _kill_launcher(fails[0])
        own = _lone_worker_error(c)
        if own is not None:  # the one worker's own exception, untagged above the launcher's traceback
            return Verdict("unknown", f"{who} killed its one worker ('Killing subprocess' once) after it exited: the "
                           "launcher's record names its single process, rank 0, and the exception above the "
                           f"launcher's traceback is that worker's own ({own[:120]}), of no known family",
                           f"Start from that worker's error ({own[:120]}): its traceback's frames say where it failed "
                           "(a DataLoader worker's re-raised error: rerun with num_workers=0 to see the item that "
                           f"fails, and check that file of the dataset); for a log per rank: {logs}.", "medium", [0],
                           [e.brief() for e in fails[:3]])
        return Verdict("unknown", f"{who} killed its one worker ('Killing subprocess' once: its kill "
                       "lines list every worker it started) after that worker exited: with a single process the "
                       "launcher's record names it, local rank 0 -- rank 0 of a job nothing says spans nodes -- but "
                       "these lines show neither its return code, signal nor exception",
                       f"Look at the worker's own error above the launcher traceback (its stderr, or {logs}); the "
                       "launcher's '[ERROR] ... exits with return code = N' line / "
                       "the CalledProcessError's return code gives the exit code (-9: killed from outside, check "
                       "dmesg -T for the OOM killer and host RAM with free -h; a CUDA out of memory: reduce batch "
                       "size" + (" or offload in the ds_config)." if who.startswith("DeepSpeed") else ")."),
                       "medium", [0], [e.brief() for e in fails[:3]])
    if all(e.data.get("launcher_kill") for e in fails):  # lead rule M: only a launcher killing its workers
        who, logs = _kill_launcher(fails[0])
        return Verdict("unknown", f"{who} killed its workers ('Killing subprocess' for each): it does so "
                       "when one of them exited (or the launcher itself was stopped), and these lines show neither "
                       "which worker failed nor its return code, signal or exception -- the kill lines list every "
                       "worker, the failed one too, so they name nobody",
                       f"Read each rank's log for the first error ({logs} writes one "
                       "per-rank log with the worker traceback); the launcher's '[ERROR] ... exits with return code = "
                       "N' line / the CalledProcessError's return code gives the exit code (-9: killed from outside, "
                       "check dmesg -T for the OOM killer and host memory with free -h).", "low", [],
                       [e.brief() for e in fails[:3]])
    lone = lone_failure(c)
    if lone is not None and (done := _normal_end(c, lone)) is not None:
        return done
    if lone is not None and (alike := _cut_alike(c, lone)) is not None:
        return alike
    if lone is not None and lone.event.data.get("cut_in_collective") and lone.event.data.get("error_cut"):
        return _spawn_in_collective(c, lone.event, lone.local_rank)
    if lone is not None and lone.exitcode is None and lone.event.data.get("one_launched") and lone.culprits:
        return _one_launched(c, lone)
    several = several_failures(c) if lone is None else []
    unshown = root_not_shown(c, failed_on_own(c))
    if any(e.data.get("exitcode") == -7 for e in fails) and (died_alike(c) or unshown):  # lead rule J with rule F
        return Verdict("dataloader_shm", (f"{_listed(fails)} died of SIGBUS (exit code -7){_ROOT_UNSHOWN}" if unshown
                                          else "every process the launcher's record shows died of SIGBUS (exit code "
                                          "-7) within the same second and none was only torn down")
                       + ": /dev/shm (shared memory) ran out for all "
                       "of them at once -- a resource of the host or the container, not one rank's fault",
                       "Enlarge /dev/shm (docker --shm-size=16g or --ipc=host; Kubernetes emptyDir medium: Memory) "
                       "or lower num_workers / prefetch_factor; `df -h /dev/shm` while the job runs shows it filling.",
                       "medium", [], [e.brief() for e in fails[:3]], job_wide=True)
    if any(e.data.get("exitcode") == -7 for e in fails):
        return Verdict("dataloader_shm", f"a process died of SIGBUS (exit code -7{_shell_status(fails)}): it touched "
                       "shared memory that could not be backed, /dev/shm is full or too small (DataLoader workers, "
                       "NCCL's segments)",
                       "Enlarge /dev/shm (docker --shm-size=16g or --ipc=host; Kubernetes emptyDir medium: Memory) "
                       "or lower num_workers." + _MMAP_BUS, "high", lone.culprits if lone else [],
                       [e.brief() for e in fails[:3]])
    ranks = sorted({e.rank for e in fails if e.rank is not None})
    local = sorted({e.data["local_rank"] for e in fails if e.data.get("local_rank") is not None})
    codes = sorted({e.data["exitcode"] for e in fails if e.data.get("exitcode") is not None})
    who = f"rank {_fmt_ranks(ranks)}" if ranks else f"local rank {_fmt_ranks(local)}" if local else "a rank"
    launcher = _launcher(fails)
    if lone is not None:
        who, ranks = lone.who, lone.culprits
    if several:
        # every end of the processes that failed on their own, a SIGKILL among them too (that list leaves -9 out)
        own = sorted({e.data["exitcode"] for e in failed_on_own(c) if e.data.get("exitcode") is not None} | set(codes))
        return _several(c, several, own, fails)
    if lone is not None and lone.exitcode == 1 and lone.rank is not None:
        v = _others_raised(c, lone.rank, [e.brief() for e in fails[:2]])
        if v is not None:
            return v
    if lone is not None and lone.exitcode is None and lone.event.data.get("spawn_exit") and lone.culprits:
        return Verdict(  # lead rules A, AL (2): spawn's ProcessExitedException, its code or signal cut (round 78)
            "unknown", f"torch.multiprocessing.spawn raised ProcessExitedException for process {lone.local_rank} "
            f"('{lone.event.text[:120]}', cut before its exit code or signal): spawn raises that only for a child that "
            "exited with a nonzero code or was killed by a signal -- a Python exception in the child would be "
            f"ProcessRaisedException with its traceback -- so {lone.who} died first, on its own, and no other child "
            "is shown failing. How it died is not in these lines",
            f"Read the end of that line (spawn prints 'terminated with exit code N' or 'with signal SIGx'): SIGKILL or "
            "-9 is the host's OOM killer (dmesg -T, free -h), SIGSEGV/SIGABRT a crash in native code (rerun with "
            "PYTHONFAULTHANDLER=1 and CUDA_LAUNCH_BLOCKING=1), a plain exit code the process's own sys.exit or a "
            f"native library; run process {lone.local_rank}'s function alone (nprocs=1 or the function called "
            "directly) to see its error.",
            "medium", lone.culprits, [lone.event.brief()])
    if lone is not None and lone.exitcode is None and lone.event.data.get("died") and lone.culprits:
        return Verdict(  # lead rules A and I: the executor's record of the first worker that died
            "unknown", f"{lone.who} died first: the executor that runs the workers saw its process end "
            f"('{lone.event.text[:160]}') and shut the others down after it (their 'terminating worker' lines are "
            "that teardown). How it died -- its exit code, signal or exception -- is not in these lines",
            f"Read rank {lone.rank}'s own log (the worker's lines before it died: its traceback, a CUDA error, an "
            "OOM); if it has none, it was killed from outside: dmesg -T for the OOM killer and Xid errors on that "
            "node. Rerun with NCCL_DEBUG=INFO and CUDA_LAUNCH_BLOCKING=1 to get its last NCCL and CUDA call, and "
            "py-spy dump --pid of the workers if it hangs before dying."
            + (" " + LAUNCHER_LOGS[launcher] if launcher in LAUNCHER_LOGS else "")
            + _paddle_files(launcher, lone.culprits),
            "medium", lone.culprits, [lone.event.brief()])
    if lone is not None and lone.event.data.get("uncaught") and lone.culprits:
        exc = exception_of(c, lone.rank)
        tb = (f" Its traceback ends in {exc.data['type']}: {exc.data['message'][:200]} ({exc.where})."
              if exc is not None else " Its traceback, which the hook logs after that line, is not in these lines.")
        return Verdict(  # lead rule A: the process's own record of the exception that ended it
            "unknown", f"{lone.who} ended on an uncaught exception its own logger recorded ('Uncaught "
            f"{lone.event.data['uncaught']}: {lone.event.data['message'][:160]}'): the process exited on it (Python "
            "exits with status 1 after its excepthook), and no other rank shows a failure of its own. The exception's "
            "class names no known cause." + tb,
            f"Read the full log of rank {lone.rank} from that line on: the traceback the hook logs with it names the "
            "frame that raised (an exception raised in a background thread -- a data loader or data thread -- and "
            "re-raised in the main one carries that thread's original error as its cause: fix that one, e.g. the "
            "dataset files it read or its num_threads / num_workers). Keep one log file per rank (torchrun "
            "--log-dir DIR --redirects 3 --tee 3).",
            "medium", lone.culprits, [lone.event.brief()] + ([exc.brief()] if exc is not None else []))
    if lone is not None and lone.event.data.get("rank_cut"):
        alone = lone.event.data.get("alone")
        head = ("torchrun's own traceback ends in its ChildFailedError, and the paste stops before the failure "
                "record it prints as the message (the Root Cause table)" if lone.event.data.get("bare") else
                "torchrun's failure record shows its Failures: list saying <NO_OTHER_FAILURES> -- one process failed "
                "alone -- but the paste ends before its Root Cause block (the entry with the rank, exit code and host)"
                if lone.event.data.get("unshown") else
                "torchrun's failure record shows its Root Cause (first observed failure)"
                + (", and its Failures: list says <NO_OTHER_FAILURES> -- one process failed alone," if alone else "")
                + " but the paste ends at that entry before its rank, exit code and host")
        return Verdict(  # lead rule A without its rank: the record's first observed failure, its entry cut
            "unknown", head + ": a rank failed on its own, which one and how these lines do not say",
            "Read the record's Root Cause entry whole (the full log, not its last lines: the Failures / Root Cause "
            "table, its rank, exitcode, host and error_file) and the failed worker's own traceback above the record "
            "(that rank's output: its full error, the exception it raised) -- it is the cause; decorate the entry "
            "point with torch.distributed.elastic.multiprocessing.errors.@record (@record / error_file, or set "
            "TORCHELASTIC_ERROR_FILE) so the record carries the exception; an exit code -9 there was a kill from "
            "outside (dmesg -T for the OOM killer).", "low", [], [lone.event.brief()])
    if lone is None and len(codes) == 1 and codes[0] < 0 and died_alike(c):  # lead rule J: every process alike
        sig = SIGNALS.get(-codes[0], f"signal {-codes[0]}")
        return Verdict("unknown", f"every process the launcher's record shows ({who}) died of {sig} (exit code "
                       f"{codes[0]}) within the same second and none was only torn down: one cause shared by all of "
                       "them (the host, the container, a library every rank loads), not one rank's fault",
                       (fpe_fix(c) if codes[0] == -8 else "")
                       + (native_fix(codes) if codes[0] in NATIVE_CRASH else ABORT_FIX if codes[0] == -6 else "")
                       + "Read one rank's stderr for the first native error line; check what the processes share "
                       "on that host (dmesg -T for the kernel's view of the crash, the driver, the container's "
                       "limits).", "low", [], [e.brief() for e in fails[:3]], job_wide=True)
    if lone is not None and lone.exitcode == -6 and lone.rank is not None:
        v = _aborted_alike(c, lone.rank, [e.brief() for e in fails[:2]])
        if v is not None:
            return v
    sig = ", ".join(SIGNALS.get(-x, f"signal {-x}") for x in codes if x < 0)
    alike = lone is None and len(codes) == 1 and died_alike(c)  # lead rule J: every process shown alike
    world = next((e.data["world"] for e in fails if e.data.get("whole") and e.data.get("world")), None)
    every = bool(ranks) and lone is None and world is not None and ranks == list(range(world))
    # several processes the launcher's records show failing on their own, some by global rank (torchelastic's event
    # of a FAILED worker) and some by local rank only, none of them first: nobody is named (lead rule J)
    own = failed_on_own(c) if lone is None and not several else []
    mixed = len(own) > 1 and any(e.rank is None for e in own) and any(e.rank is not None for e in own)
    if mixed:
        local_only = sorted({e.data["local_rank"] for e in own
                             if e.rank is None and e.data.get("local_rank") is not None})
        who = f"rank {_fmt_ranks(ranks)}" + (f" and local rank {_fmt_ranks(local_only)}" if local_only else "")
    what = ((f"{who} exited with code {', '.join(map(str, codes))}" if codes else
             f"{who} failed on {'their' if len(ranks) > 1 else 'its'} own (the launcher's record lists "
             f"{'them' if len(ranks) > 1 else 'it'} as exited, with no exit code)") + (f" ({sig})" if sig else "")
            + (": a Python exception in that process" if 1 in codes else "")
            + ("; every process the launcher's record shows exited alike: a cause they share (the same error on every "
               "rank, the environment or the launch they share), not one rank's fault" if alike
               else f"; that is every trainer of the job (all {world}): a cause they share (the same error on every "
               "rank, the environment, the build or the launch), not one rank's fault" if every
               else f"; the launcher's records show {len(own)} processes failing on their own (not stopped by it), "
               "none shown first: no one rank is the culprit (lead rule J)" if mixed
               else "; the launcher then stopped the others"))
    if lone is None and not (alike or every or mixed) and len(ranks) > 1 and len(codes) > 1 and -15 not in codes:
        # ranks failing with different codes, none only torn down (lead rules J, AM (2)): say which ended how
        per = sorted({(e.rank, e.data["exitcode"]) for e in fails
                      if e.rank is not None and e.data.get("exitcode") is not None})
        what = (", ".join(f"rank {r} exit code {x}" + (f" ({SIGNALS.get(-x, f'signal {-x}')})" if x < 0 else
                                                        ": a Python exception" if x == 1 else "") for r, x in per[:6])
                + ": each failed on its own (none is shown only torn down by the launcher), so the record's Root "
                "Cause is only the first it saw: no one rank is the culprit (lead rules J, AM (2))")
    single = lone is not None and len(ranks) == 1
    exc = exception_of(c, ranks[0]) if len(ranks) == 1 and codes == [1] else None
    if exc is not None and S.R_STORAGE_ERR.search(exception_text(exc)):
        exc = None  # the storage under it failed (a disk full, an I/O error): the disk's own fix below (_storage_error)
    if exc is not None and lone is not None and _R_DDP_MODULE_WIDE.search(exception_text(exc)) and not (
            torn_down(c) or _agent_stopped(c) or any(rank_waiting(st) for st in c.ranks.values())):
        return _reducer_recorded(exc, who, [e.brief() for e in fails[:2]])
    told = None if exc is not None or lone is None or codes != [1] or len(ranks) != 1 or c.exceptions else next(
        (u for u in c.unread if _R_DDP_MODULE_WIDE.search(u.text)), None)
    if told is not None and not (torn_down(c) or _agent_stopped(c) or any(rank_waiting(st) for st in c.ranks.values())):
        # the reducer's error text without its traceback's last line (a paste that keeps only its tail sentences,
        # above the record): the same fault every rank shares (round 94's styleavatar-16)
        return _reducer_recorded(told, who, [e.brief() for e in fails[:2]])
    if exc is not None:
        text = exception_text(exc)
        nonfinite = _NONFINITE.search(text)
        http = S.R_HTTP_CLIENT.search(text)
        return Verdict("unknown", f"{who} exited with code 1 on its own exception, the last line of its traceback: "
                       f"{text[:300]} ({exc.where}); the launcher then stopped the others. Its cause is that "
                       "exception" + ("; it is a NaN/Inf check stopping that rank: its numbers diverged" if nonfinite
                                      else "; it is an HTTP client's (requests/urllib3), a download whose server "
                                      "reset or refused it, not a connection of the job's" if http else ""),
                       (_NONFINITE_FIX if nonfinite else _HTTP_FIX if http else http_status_fix(text))
                       + _py_exception_fix(text)
                       # a model attribute read through the DDP wrapper (round 109's ad-lgc-1, d3rlpy-367)
                       + _wrapped_attr_fix(text, exc)
                       + (_PIN_MEMORY_FIX if _PIN_MEMORY.search(text) else "")
                       # load_state_dict refusing the checkpoint a resume reads (round 110's chinese-llama-alpaca-2-161)
                       + (_STATE_DICT_FIX + STATE_DICT_RESUME_FIX if _R_STATE_DICT_LOAD.search(text) else "")
                       + (_missing_path_fix(text, legacy_launch_shown(c))
                          if _R_NO_SUCH_PATH.search(text) and not _AFTERMATH_EXC.search(text) else "")
                       + _own_exception_note(ranks[0], lone.local_rank if lone is not None else None)
                       + f"Fix the exception that traceback ends in, {text[:160]} (read the frames above that line: "
                       "the last one names the file, line and function of the code that raised it); "
                       + ("the other ranks only stopped because torchrun ended the job." if launcher is None else
                          "the other ranks show no failure of their own.")
                       + _restart_note(c)
                       + (" " + LAUNCHER_LOGS[launcher] if launcher in LAUNCHER_LOGS else ""),
                       "medium", ranks, [exc.brief()] + [e.brief() for e in fails[:2]])
    if codes == [-6] and not single:  # abort(): how ProcessGroupNCCL's watchdog ends a process after a timeout
        what += (f"; {WATCHDOG_ABORT}, so this rank may be a victim: its own log says whether it timed out or hit "
                 "its own error")
    native = [x for x in codes if x in NATIVE_CRASH]
    fatal = next((e.data["what"] for e in c.samples.get("fatal_python", [])), None)
    if fatal and any(x < 0 for x in codes):
        what += (f"; the process printed 'Fatal Python error: {fatal[:120]}': the interpreter itself aborted (a C "
                 "extension's reference-count bug or a crash inside native code), not a Python exception")
    abort_fix = ("SIGABRT from the watchdog means the hang or error began elsewhere: collect every rank's log and "
                 f"Flight Recorder dumps ({S.FR_ON}) and, while it hangs, py-spy dump --pid on every "
                 "rank's process. " if codes == [-6] and not single else ABORT_FIX if -6 in codes else "")
    whose = f"local_rank {lone.local_rank}: " if single and lone and lone.local_rank is not None else ""
    if single and c.kinds.get("pg_not_destroyed") and any(x in (-6, -11) for x in codes):
        # the destructor warning is printed at interpreter exit: the abort came after it, in the teardown
        what += ("; it aborted while exiting, after warning that destroy_process_group() was not called: a teardown "
                 "abort (C++ objects destroyed while a thread or callback still used them, printed as 'pure virtual "
                 "method called' / 'terminate called without an active exception'), not a failure of the run")
        abort_fix = ("Call dist.destroy_process_group() at the end of main on every rank, before exit (and stop "
                     "background threads/callbacks first): the teardown then no longer races the interpreter's exit. ")
    elif single and codes == [1] and any(e.rank == ranks[0] for e in c.samples.get("pg_not_destroyed", [])):
        # the failed rank's own last line is the exit-time warning that destroy_process_group() was not called: its
        # Python exception unwound main before the teardown, and the warning followed it out -- a consequence, not
        # the cause, which is that exception (lead rules A, AU (4); round 80's pytorch-192000). A warning of another
        # rank is not read so
        abort_fix = (f"Rank {ranks[0]}'s own last line, the warning that destroy_process_group() was not called "
                     "before program exit, is printed as the process exits: its exception left main before its "
                     f"teardown -- the warning follows the failure, it is not it; rank {ranks[0]}'s own traceback "
                     "(printed before that warning) holds the cause. Call destroy_process_group before exit (in a "
                     "finally: block) so the exit is clean once it is fixed. " + abort_fix)
    if native:
        what += (f"; {SIGNALS[-native[0]]} is a native crash inside that process (a C/C++/CUDA extension, a library "
                 "built for another torch/CUDA, a driver or plugin), not a Python exception nor a kill from outside")
    win = next((x for x in codes if x >= _NTSTATUS_ERROR), None)
    if win is not None:
        name = _NTSTATUS.get(win, "")
        what += (f"; exit code {win} is 0x{win:08X}, a Windows NTSTATUS" + (f" ({name})" if name else "") + ": Windows "
                 "ended the process on a native exception, a native crash inside that process (the Windows form of a "
                 "fatal signal), not a Python exception nor a kill from outside")
        abort_fix = (f"0x{win:08X} leaves no Python traceback: rerun that process with python -X faulthandler "
                     "(faulthandler.enable()) for the Python stack at the crash, alone on one GPU to reproduce it; "
                     "update GPU driver and torch (the torch/CUDA build for the GPU and driver must be the one "
                     "installed, compiled extensions built against it), and check that the batch size / GPU count "
                     "settings give no worker an empty share (an integer divide by zero). " + abort_fix)
    # an expert's last resort when the launcher swallowed the worker's error: the same script without the launcher
    # prints its exception (or crash) straight to the terminal
    # (a single process, a single-GPU debug run: round 110's cotr-15, torchtitan-61)
    alone = (f"; if it does not show, run rank {ranks[0]} alone: run the script without the launcher (one process, "
             f"its inputs) to see its error; rerun with a single process to reproduce rank {ranks[0]}'s error, or "
             "run a single-GPU debug run of the same config. "
             if single and ranks else ". ")
    tb = f"the rank {ranks[0]} traceback" if single and ranks else "the failed rank's traceback"
    replica = {e.data["replica"] for e in fails if e.data.get("replica")}
    if lone is not None and not ranks and len(replica) == 1:  # a managed service's replica: a machine, its own log
        tb = f"the full traceback of {next(iter(replica))}"
        what = what.replace("; the launcher then stopped the others", "; the service then ended the job", 1)
    hub = next((e.data["hub_download"] for e in fails if e.data.get("hub_download")), None)
    if lone is not None and hub:  # the record's message carries the traceback, ending in the Hub's download
        abort_fix = _HUB_FIX.format(via=" from from_pretrained" if hub[1] else "", frame=hub[0]) + abort_fix
    if whose and ranks:  # the record names the worker by its local rank: the traceback is that process's
        # the worker that record names printed its own traceback above the record (round 82's yolov5-3897, flux-11)
        n = lone.local_rank
        tb = (f"the traceback of local_rank {n}" + (f" (rank {ranks[0]})" if n != ranks[0] else "")
              + f": read local_rank {n}'s own traceback above the {launcher or 'torchrun'} record (the worker's own "
              "traceback, printed before the record"
              # torchrun's record is its ChildFailedError's message: the worker's exception stands above it
              + (f"; rank {ranks[0]}'s own traceback (the exception above the ChildFailedError)"
                 if launcher is None and lone.event.kind == "child_failed" and (
                     lone.event.data.get("root") or lone.event.data.get("listed")) else "")
              + f") and check the local_rank {n} worker's own log")
        whose = ""
    plain = bool(single and lone is not None and lone.event.data.get("plain_cmd") and launcher is None)
    if plain:  # a parent's CalledProcessError for `python X.py`, no torchrun shown: no record, no per-rank files
        tb = f"the traceback of local_rank {lone.local_rank} (rank 0), above the CalledProcessError"
        alone = ("; if it does not show, run that command alone (the CalledProcessError's Command, whole, in a shell) "
                 "to see its error. ")
        what = what.replace("; the launcher then stopped the others", "", 1)
    ef = (lone.event.data.get("error_file") or "") if single else ""
    if ef and "<" not in ef and lone.event.data.get("traceback", "").lstrip().startswith("Traceback"):
        # the record names the worker's error file (a path, not <N/A>: the entry point is decorated with @record and
        # wrote its exception there) and its traceback field is cut before the exception: the error file holds the
        # whole of it, the first place an expert reads (round 87's torchft-295)
        abort_fix = (f"torchrun's record names the worker's error_file ({ef[:160]}): the worker wrote its exception "
                     "there -- read the worker's error.json / full traceback (the full traceback in error.json is "
                     "the record's traceback field, cut in these lines; the file sits under torchrun's temporary "
                     "directory on that host, removed when the run is cleaned up, so read it, or the full output "
                     "it was printed in, first). " + abort_fix)
    if single and codes == [1] and any(e.data.get("dynamo") for e in c.samples.get("benign", [])):
        # the rank's own output ends in torch._dynamo's advice, printed under every error it raises: the exception
        # came from compiling the model, whose own logs say which op or graph break
        abort_fix = (f"Rank {ranks[0]}'s output ends in torch._dynamo's advice ('torch._dynamo.config.suppress_errors "
                     "= True'): its exception (exit code 1) came from torch.compile / dynamo compiling the model. "
                     "Rerun with TORCHDYNAMO_VERBOSE=1 (TORCH_LOGS=+dynamo) for the full stack and the op it failed "
                     "on; disable compile to confirm it runs eager; torch._dynamo.config.suppress_errors = True falls "
                     "back to eager where compiling fails. " + abort_fix)
    if lone is not None and lone.event.data.get("last_launched") is not None and lone.event.data.get(
            "last_by") == "cpe":  # lead rules M, U (5): torch 1.x's launch.py (or a wrapper) raising CalledProcessError
        abort_fix = ("The launcher's CalledProcessError does not say which worker failed (torch.distributed.launch "
                     "prints the command of the last worker it launched): show each worker's own traceback (scroll "
                     "up above the CalledProcessError for the first Python exception), run a single process to see "
                     "the error (the same script and arguments without the launcher, on one GPU), and launch with "
                     "torchrun / --use_env (LOCAL_RANK from the environment) so its record names the failed worker; "
                     "python -X faulthandler (PYTHONFAULTHANDLER=1) prints the stack of a worker that dies without a "
                     "Python traceback, NCCL_DEBUG=INFO shows one stopped in a collective, and --nproc_per_node must "
                     "match the GPUs the node shows (CUDA_VISIBLE_DEVICES) "
                     "-- read every worker's own traceback above the launcher error, and run single-GPU / one process "
                     "to see the exception. "
                     + abort_fix)
    elif lone is not None and lone.event.data.get("outer_launcher") and not ranks:
        # a wrapper's CalledProcessError for the launcher command it ran as one subprocess (python -m
        # torch.distributed.launch / torchrun ... script): its exit status is the launcher's, not any worker's, and
        # names none (lead rules A, BG (6); round 110's maskrcnn-benchmark-1329, a SageMaker wrapper)
        abort_fix = ("The CalledProcessError is a wrapper's record of the launcher command it ran as one subprocess: "
                     "it says only that the launcher exited with that status, not which worker failed nor why -- read "
                     "each worker's own log/traceback (the record hides which rank failed): run that launcher command "
                     "directly, or read the output above the wrapper's error (a managed service's log stream), for "
                     "the workers' tracebacks and torchrun's failure table; check the config path and arguments given "
                     "to every worker, and rerun with NCCL_DEBUG=INFO for the distributed start-up. " + abort_fix)
    elif lone is not None and lone.event.data.get("last_launched") is not None:  # lead rule M
        abort_fix = ("DeepSpeed's launcher record does not say which worker failed (its command line is the last "
                     "one launched): read the full log of every worker (deepspeed --enable_each_rank_log DIR writes "
                     "one file per rank) for the first error -- read every worker's own traceback above the launcher "
                     "error, and run single-GPU / one process to see the exception. " + abort_fix)
    # a Python exception (exit code 1) under torchrun: the worker printed its traceback to the shared output before the
    # agent printed its record, so an expert first asks for what stands above the record (round 79's facechain-13,
    # fast-stable-diffusion-122, skyreels-a2-19: the paste starts at the record)
    above = ("; the worker traceback, if it printed one, stands above torchrun's record in the same output: look at "
             "the Python traceback above the record" if codes == [1] else "")
    logs = ("the full output the command printed before its parent raised)" + alone.rstrip() if plain else
            "torchrun --log-dir / --redirects 3 --tee 3 to keep one file per rank" + above + "); decorate the entry "
            "point with torch.distributed.elastic.multiprocessing.errors.@record so torchrun's summary carries the "
            "exception (@record / error_file to capture the exception: the full worker traceback, in the error file "
            "torchrun names in TORCHELASTIC_ERROR_FILE, instead of <N/A>)"
            + alone.rstrip()
            if launcher is None else "the per-rank output below)" + alone + LAUNCHER_LOGS.get(launcher, "")
            + _paddle_files(launcher, ranks) + _record_log(fails, ranks)
            + (MPI_CRASH_FIX if launcher == "mpirun" and native else ""))
    if single and ranks and launcher == "mpirun" and any(_R_NCCL_TESTS_RESULT.search(u.text) for u in c.unread):
        # nccl-tests' own generic "HOST pid P: Test failure common.cu:N" (its testResult check) under mpirun's record:
        # the test stopped on an error its earlier 'Test NCCL failure' / NCCL WARN line names, not in these lines; a
        # net plugin's WARN after it is the teardown (lead rules A, I, CG (1); round 106's nccl-1597)
        efa = any(_R_EFA_SHOWN.search(u.text) for evs in (c.unread, *c.samples.values()) for u in evs) or any(
            _R_EFA_SHOWN.search(f"NET/{k} {v}") for k, v in c.networks.items())  # an INFO "NET/OFI Using ..." line
        abort_fix = _NCCL_TESTS_FAILED_FIX + (_NCCL_TESTS_EFA_FIX if efa else "") + ". " + abort_fix
    fn = _R_ELASTIC_FN.search(lone.event.text) if single and ranks and codes == [1] and lone is not None else None
    if fn:  # torch elastic's record of a function run in child processes (accelerate's notebook_launcher,
        # elastic_launch): that child's exception is printed under spawn's header, not a script's traceback above
        # (lead rules A, BG (6); round 106's accelerate-3833)
        abort_fix = _elastic_fn_fix(lone.local_rank if lone.local_rank is not None else ranks[0], fn.group(1),
                                    "start_method: fork" in lone.event.text) + abort_fix
    cause = ". The cause is in their own output" if alike or every else ". The cause is that process's own traceback"
    disk = _storage_error(c) if single else None
    if disk:  # the failed process's traceback (untagged, beside the launcher's own) ends in its storage's errno
        what += (f"; the traceback in the lines ends in '{disk}': a file it wrote or read (a checkpoint's "
                 "torch.save, a log, a cache) failed on the storage under it, not the network nor NCCL")
        abort_fix = _storage_fix(disk) + abort_fix
    gone = _missing_path(c) if single and not disk and codes == [1] else None
    if gone:  # the failed process's exception (untagged, beside the launcher's record) is a path that does not exist
        what += (f"; the exception in the lines is '{gone[:160]}': a file or directory the process opens (its dataset "
                 "path, a checkpoint, a config file) does not exist where it looked")
        abort_fix = _missing_path_fix(gone, legacy_launch_shown(c)) + abort_fix
    init = next((e.data["comm_init"] for e in fails if e.data.get("comm_init")), "")
    if init:  # a traceback above the record stops in the call that creates NCCL's communicator, its error cut
        cause += (f" (a traceback above it goes into NCCL's communicator creation, ncclCommInitRank, at {init}, and "
                  "stops before its error)")
        abort_fix = ("It failed creating its NCCL communicator (ncclCommInitRank): rerun with NCCL_DEBUG=INFO, which "
                     "prints NCCL's own reason (a CUDA error, a GPU another process holds, a device "
                     "CUDA_VISIBLE_DEVICES hides: check nvidia-smi) and the NCCL version each library loads (a "
                     "framework bundling its own NCCL beside torch's). " + abort_fix)
    reraise = next((e for e in c.samples.get("loader_reraise", []) if e.data.get("rank") in (ranks[0], None)
                    and not _raised_under(c, e)), None) if single and ranks and codes == [1] else None
    if reraise is not None:
        # that rank's own traceback (its tag the record's rank, or untagged beside the one failure) goes through the
        # DataLoader re-raising a worker's exception, cut before its text: the worker's exception is the cause to
        # surface (lead rules A, AU (4), BB (3); round 92's union14m-33). Not read so: a tag of another rank, or a
        # re-raise whose exception ("Caught X in DataLoader worker process N") the lines show under it (_raised_under)
        r = ranks[0]
        cause += (f" (a traceback {'of rank ' + str(r) + ' ' if reraise.data.get('rank') is not None else ''}above "
                  "the record stops where the DataLoader re-raises a worker's exception)")
        abort_fix = (f"Rank {r}'s traceback stops in the DataLoader re-raising its worker's exception (_next_data -> "
                     f"_process_data): rank {r}'s DataLoader worker exception is the error to read. "
                     + LOADER_RERAISE_FIX + abort_fix)
    if single and lone.event.data.get("error_cut"):
        # mp.spawn's record whose child's traceback the paste cut before its exception (readers.exits._spawn_cut):
        # the error text is the traceback's last line, just past the last frame shown
        at, call_fix = _cut_call(c, lone.event, lone.local_rank)
        if not call_fix and any(R_LOAD_READ_FAILED.search(x.text) for x in c.unread):
            # the zip reader's error pasted apart from the child's cut traceback (as markdown, its own line): the
            # checkpoint file torch.load opened is not a whole archive (round 90's so-vits-svc-169)
            call_fix = LOAD_READ_FIX
        cause += (" (the child's traceback follows mp.spawn's record, but the lines stop before its last line"
                  + at + ")")
        abort_fix = (f"The lines cut process {lone.local_rank}'s traceback before its exception: the error is the "
                     "text after the last frame shown (the call it was in names the code, not the reason). Show the "
                     f"child's full traceback: process {lone.local_rank}'s, in the full output (paste the full "
                     f"error text, the full traceback / error text of process {lone.local_rank}: the error text of "
                     "the failed process is the answer; the child's own error text below the traceback's last "
                     "frame); with CUDA_LAUNCH_BLOCKING=1 a CUDA error is raised at the call that caused it, and "
                     "running on one GPU (one process) reproduces it without spawn: run with a single process "
                     "(nprocs=1) to get the plain exception. " + call_fix + abort_fix)
    if single and ranks and lone.event.data.get("error_file_copy"):
        # torchelastic's error handler copying the first failure's error file (lead rule BT (1)): that worker wrote its
        # exception there, so the file holds its traceback (round 89's deepmd-kit-4594)
        abort_fix = (f"The agent copied the child error file error.json of local_rank {lone.local_rank} (the path on "
                     "that line, under torchelastic's temporary directory on that host, removed when the run is "
                     "cleaned up): it holds that worker's own exception and traceback -- read it, or the full "
                     "torchrun Failures table and the worker's own log (--log-dir / --tee), first. " + abort_fix)
    actor = S.R_RAY_PID.findall(lone.event.text) if single and ranks else []
    if actor:  # the launcher ran inside a Ray actor (its record prefixed "(name pid=P)"): the worker's output went to
        # that actor's Ray worker log, and Ray's report of the actor's process dying after it is the launcher torn down
        # (round 89's neuralforecast-1291: Lightning's DDP launcher inside a Ray Tune trial)
        dead = any(x.data.get("pid") == int(actor[-1]) for x in c.samples.get("ray_died", []))
        abort_fix = (f"The launcher ran inside a Ray actor (pid {actor[-1]}), so its workers' output is in the ray "
                     f"worker logs: read the full traceback of rank {ranks[0]} there (ray logs worker-*.err on that "
                     "node, /tmp/ray/session_latest/logs)"
                     + (f"; Ray reporting that actor's process (pid {actor[-1]}) dead afterwards is the launcher "
                        "torn down after its child, not the cause" if dead else "") + ". " + abort_fix)
    if single and exc is None and codes and codes[0] > 0 and lone.event.data.get("spawn_exit"):
        # mp.spawn's wrapper re-raises a child's Python exception as '-- Process N terminated with the following
        # error:' (its traceback below); 'process N terminated with exit code C' says none reached it: the child's
        # code ended itself with a status (sys.exit / exit / os._exit), or it failed before entering the function
        n = lone.local_rank
        crashed = codes[0] >= _NTSTATUS_ERROR  # Windows' status for a native crash (0xC...), not one the code chose
        what = what.replace(": a Python exception in that process", "", 1).replace(
            f"exited with code {codes[0]}", f"exited with code {codes[0]}, "
            + ("Windows' status for a native crash" if crashed else "its own exit status")
            + ": not a Python exception (spawn would have re-raised it with its traceback)", 1)
        cause = ". The cause is in that process's own output (what it printed before exiting)"
        if crashed:  # the NTSTATUS fix above says how to read a native crash; no sys.exit to look for
            abort_fix = (f"mp.spawn reports 'process {n} terminated with exit code {codes[0]}' (0x{codes[0]:08X}), "
                         "not the child's own exception (which spawn re-raises with its traceback as '-- Process N "
                         f"terminated with the following error:'): Windows ended process {n} on a native crash, "
                         "which no Python code chose. " + abort_fix)
        else:
            abort_fix = (f"mp.spawn reports 'process {n} terminated with exit code {codes[0]}', not the child's "
                         "own exception (which spawn re-raises with its traceback as '-- Process N terminated with "
                         f"the following error:'): process {n} ended itself with that status -- a "
                         f"sys.exit({codes[0]}) / exit() / os._exit in the code it runs (the script's own exit after "
                         "printing an error, a library's), or a failure before it entered the function (an import "
                         f"error in the child). Read process {n}'s own output above the parent's traceback for what "
                         "it printed before exiting; search the code the child runs for exit( / sys.exit( and return "
                         "from the function instead; run with one GPU (nprocs=1, or the function called directly) to "
                         "see the error. " + abort_fix)
    if single and exc is None and native and lone.event.data.get("spawn_signal") and lone.local_rank is not None:
        # spawn's parent reports 'process N terminated with signal SIGSEGV': the child died in native code, no Python
        # exception reached spawn (lead rules A, AL (2)): what says why is that child's own crash dump, and one process
        # without spawn reproduces it (round 81's slowfast-118 and lightning-2124: mp.spawn and xmp.spawn alike)
        n, name = lone.local_rank, SIGNALS.get(-native[0], f"signal {-native[0]}")
        abort_fix = (f"mp.spawn reports 'process {n} terminated with signal {name}': the child died in native code, "
                     "and no Python exception reached spawn (it would have re-raised it with its traceback). Get the "
                     f"core dump / faulthandler of process {n}: PYTHONFAULTHANDLER=1 in the parent's environment "
                     "reaches every spawned child and prints its Python stack at the crash, and with ulimit -c "
                     "unlimited its core file gives the native backtrace (gdb python core -> bt); run with one "
                     "process (nprocs=1, one device) to reproduce it without spawn; check that torch, its device "
                     "library (CUDA, torch_xla) and every compiled extension are builds of matching versions, and "
                     "the host memory the processes share (a smaller batch size); on a TPU (xmp.spawn, or a "
                     "notebook launcher starting its workers on the TPU cores) match torch, torch_xla and the TPU "
                     "runtime versions, try with fewer cores (nprocs=1) to isolate, and set PT_XLA_DEBUG=1 for "
                     "torch_xla's own report. " + abort_fix)
    if lone is not None and not ranks and lone.multi_node and lone.local_rank is not None and codes and codes[0] > 0:
        # lead rule A's multi-node limit: the record names a local rank of one node only, and its exit status is the
        # worker's own (a Python exception not shown): where to read that worker's error, and how to tell its rank
        n = lone.local_rank
        said = (f"The launcher's CalledProcessError ('returned non-zero exit status {codes[0]}') is the exit of that "
                f"node's local_rank {n} worker" if "CalledProcessError" in lone.event.text
                else f"The record names local_rank {n} of one node (exit code {codes[0]})")
        abort_fix = (f"{said}, and the job spans several machines: read the worker's own traceback / stderr on that "
                     "machine (the node whose launcher printed the record; its per-rank logs of every node), and "
                     f"find its global rank from the --node_rank / --nnodes that node was launched with (rank = "
                     f"node_rank x nproc_per_node + {n}); run the script directly there (one process, the same "
                     "arguments) to see its error. " + abort_fix)
    # lead rule J: the record names no one (or not the one), but the lines hold several processes' tracebacks ending
    # in the same exception: that exception is the cause the record points to, and the fix starts from it
    alike_tb = _raised_alike([e for e in c.exceptions if not e.data.get("line")]) if not single else ""
    held = (", shown in the lines" if (disk or gone) and not alike_tb else
            ", which these lines do not hold" if not alike_tb else
            "; the lines hold it: " + alike_tb.split(" -- ", 1)[0].replace("tracebacks end", "of the processes' "
                                                                             "tracebacks end", 1))
    # every process shown exited on a Python exception alike: one traceback is every rank's, and a single process
    # run shows it where the launcher's record carries none
    # (an expert names it as the same error on every rank and asks for the worker traceback the record lacks)
    shared = ("Every rank failed the same way (exit code 1), most likely the same error on every rank: read each "
              "rank's own Python traceback (the worker traceback) above the failure record (the first error in it is "
              "the cause, and one rank's fix is every rank's); if none is printed, run with one process to see the "
              "exception (a single GPU). " if (alike or every) and codes == [1] and not alike_tb
              # the records show several processes failing with exit code 1, some by global rank and some by local
              # rank only, none first (lead rules J, AM (2); round 79's open-animateanyone-108): the same ask, for them
              else "Several processes failed the same way (exit code 1), none shown first: read each failed rank's "
              "own Python traceback (the worker traceback) above the failure record and check the script's exception "
              "on every rank (the first error among them is the cause); if none is printed, run with one process to "
              "see the exception (a single GPU). " if mixed and codes == [1] and not alike_tb
              else "")
    if shared and c.accel_launch:
        # the job came through accelerate launch (its launcher's frames shown; round 108's hf-space-daresearch): its
        # own switches show the workers' output and run one process
        shared += ("It was launched by accelerate launch: run the script with a single process (accelerate launch "
                   "--num_processes 1) to surface the exception, or accelerate launch --debug to see the workers' own "
                   "output. ")
    if shared and c.accel_test:
        # the script is accelerate test's own (torchrun's record titled accelerate/test_utils/scripts/test_script.py;
        # round 109's accelerate-2390): the same failure on every rank is the environment or config it checks
        shared += ("The script is accelerate test's own check (accelerate/test_utils/scripts/test_script.py, run with "
                   "the saved accelerate config): check accelerate env / accelerate config: distributed_type and "
                   "num_processes against the GPUs visible (a MEGATRON_LM or DeepSpeed type needs that package "
                   "installed), run accelerate test with one process to isolate the distributed part, and rerun with "
                   "NCCL_DEBUG=INFO to see where the test script failed. ")
    return Verdict("unknown", what + cause + held,
                   alike_tb + shared + abort_fix + (ILL_FIX if -4 in codes else "")
                   + (fpe_fix(c) if -8 in codes else "")
                   + (native_fix(codes) if native else "")
                   # a launcher's worker that died by a native signal: where in the job it crashed, NCCL's own log
                   # says whether it was in the communicator's set-up (round 109's accelerate-847)
                   + (NATIVE_WORKER_FIX if native else "")
                   + f"Read {tb} ({whose}its stderr, or " + logs,
                   "medium" if single else "low", ranks if single else [], [e.brief() for e in fails[:3]])


# A log viewer's line number in front of a traceback's frame line ('165265   File "x.py", line 304, in f'): the code
# line under it carries one too
_R_VIEWER_LINENO = re.compile(r"^\s*\d{1,9}\s+(?=File \")")


# the paste stops inside the next frame's own line, and that frame is torch.distributed's c10d API
# ('File "/x/torch/distributed/distributed_c10d.py", li': parse.input_tail's ``into``) under a code line that is no
# collective call: the process had gone into the process group's set-up (init_process_group; the call's keyword lines,
# "rank=args.rank") -- what to check for it, the error text still cut (lead rules AL (2), BG (6); round 81's
# swahr-humanpose-11)
_R_C10D_INTO = re.compile(r'torch[/\\]distributed[/\\]distributed_c10d\.py"')
_C10D_INTO_FIX = (
    "It had gone into torch.distributed's distributed_c10d.py (init_process_group setting up the process group, or "
    "another of its calls): rerun with NCCL_DEBUG=INFO and TORCH_DISTRIBUTED_DEBUG=DETAIL for the backend's own "
    "reason, and check what every process gives init_process_group -- MASTER_ADDR / MASTER_PORT (the dist_url's host "
    "reachable, its port not already in use by another job), the world_size and rank of each process (as many "
    "processes started as world_size) and the backend (nccl needs a GPU per process on Linux; gloo on Windows). ")


def _own_exception_note(rank: int, local_rank) -> str:
    """The fix's words for ONE worker whose launcher record says exit code 1 and whose own traceback the lines hold
    (lead rule A): that worker raised first, a Python exception of its own code or data, not a failure of the
    distributed job, so its own traceback is what to read (rounds 101's fastchat-1054, funasr-1617)."""
    lr = f" (local_rank {local_rank})" if local_rank is not None else ""
    return (f"Rank {rank}{lr} raised first: exitcode 1 of "
            + (f"local_rank {local_rank}" if local_rank is not None else f"rank {rank}")
            + f" is a Python exception, not a distributed failure -- read rank {rank}'s own traceback (its frames "
            "above that line, or rerun with it: torchrun --tee 3 / @record) and the input it was on (the data "
            "sample, batch or config the last frame reads). "
            # the record names one worker by its local rank: the others the launcher started may have raised the
            # same exception, their records not pasted (round 109's dialki-3)
            + (f"The record names only local_rank {local_rank}: read each worker's traceback (torchrun @record, "
               "--log-dir) if more workers were launched -- they run the same code and may have failed alike. "
               if local_rank is not None else ""))


# a spawned child's traceback cut while its DataLoader starts its worker processes (the iterator's __init__ at
# "w.start()", parse's loader_start; round 110's allennlp-3924, pytorch-encoding-356): under the spawn start method each
# loader worker is sent the dataset, collate_fn and worker_init_fn pickled, so the error cut off there is most often
# one of them not pickling, else a worker that could not be started (memory, process or file limits). The culprit
# stays the child the record names (lead rules AL (2), BM (1)); the reading goes into the fix (rule T)
_LOADER_START_CUT_FIX = (
    "It stopped while its DataLoader started its worker processes (w.start()): under the spawn start method each "
    "loader worker is sent the dataset, its collate_fn and worker_init_fn pickled -- check they pickle (no module "
    "objects, lambdas, local functions or open handles as dataset attributes); use the fork start method for "
    "DataLoader workers (multiprocessing_context='fork'), or set num_workers=0 to test the loader, then fewer "
    "DataLoader workers per rank; a worker that could not start is host limits: enlarge /dev/shm (docker --shm-size), "
    "raise ulimit -n / ulimit -u. ")


def _cut_call(c: Collected, rec: Event, n: int | None) -> tuple[str, str]:
    """Lead rules A, AL (2): mp.spawn's record of process N whose traceback the paste cut before its exception
    (readers.exits._spawn_cut), the input's last frame below that record (parse.input_tail's tb_cut, its function
    and code line): the words that say where it stopped, and the fix's words for that call. A call of a collective
    of torch.distributed (dist.all_reduce in an evaluation function) says the exception came from that collective --
    an NCCL error, a timeout waiting for a process that never made the same call, a tensor off the process's GPU --
    and what to check for it. ("", "") where no such frame follows the record."""
    path, _, at = rec.where.rpartition(":")
    ev = next((e for e in c.samples.get("tb_cut", []) if e.data.get("what") == "frames"
               and (w := e.where.rpartition(":"))[0] == path and w[2].isdigit() and at.isdigit()
               and int(w[2]) > int(at)), None)
    if ev is None:
        return "", ""
    func, code = ev.data.get("func") or "", ev.data.get("code") or ""
    if code and _R_VIEWER_LINENO.match(ev.text):
        code = re.sub(r"^\d{1,9}\s+", "", code)
    code = code.strip()
    where = f"'{code[:120]}' in {func}" if code else f"function {func}"
    coll = S.R_COLLECTIVE_CALL.search(code) if code else None
    if coll is None:
        into = ev.data.get("into") or ""
        return f", at {where}", (
            f"Its last frame shown is {where}: the exception was raised there or below it. "
            + (_LOADER_START_CUT_FIX if ev.data.get("loader_start") else
               SAVE_WRITE_FIX if func in ("save", "_save") and R_SAVE_FRAME.search(ev.text) else
               LOAD_READ_FIX if R_LOAD_FRAME.search(ev.text) else
               _C10D_INTO_FIX if _R_C10D_INTO.search(into) else ""))
    name = coll.group(1)
    return (f", inside the collective {name}: {where}",
            f"Its last frame shown is {where}: process {n} raised inside that collective, so the error is the "
            f"collective's own -- an NCCL error, a timeout (a process that never reached the same {name}: one ran "
            "more iterations of that loop than another, an evaluation over data split unevenly between the "
            "processes), or the tensor on another device than the process's own GPU. Rerun with NCCL_DEBUG=INFO and "
            f"TORCH_DISTRIBUTED_DEBUG=DETAIL to see it; check that every process calls {func}'s {name} the same "
            "number of times (a DistributedSampler giving each process the same number of batches, drop_last) with "
            f"its tensor on its own GPU (.cuda(local rank)), or run that step on one process only. ")


def _spawn_in_collective(c: Collected, rec: Event, n: int | None) -> Verdict:
    """Lead rule BH (1): mp.spawn's "-- Process N terminated with the following error:" whose child's traceback the
    paste cuts inside a collective call (dist.all_gather, all_reduce, broadcast, barrier; torch.distributed's own
    frames of one) before its error text (readers.exits._spawn_in_collective). Rule AL (2) names process N only as
    the first to fail; one that raised while waiting in a collective may be the victim of a peer that left with exit
    code 0 (spawn reports no such exit) or failed in the same call: unknown, culprits "unknown", nobody innocent."""
    at, call_fix = _cut_call(c, rec, n)
    name = rec.data["cut_in_collective"]
    if name == S.DDP_INIT:
        return _spawn_in_ddp_init(rec, n, at)
    if name in (S.DDP_FORWARD, S.DDP_BACKWARD, S.DDP_EVAL, S.DDP_TRAIN, S.DDP_TRAIN_ADVANCE):
        return _spawn_in_ddp_step(rec, n, at, name)
    if name == S.DATAPIPE_SEED:
        return _spawn_in_datapipe_seed(rec, n, at)
    return Verdict(
        "unknown", f"torch.multiprocessing.spawn reports process {n} terminated with an error, but its traceback "
        f"stops inside the collective {name}{at.split(':', 1)[1] if ':' in at else ''} before its exception: a "
        "process that raises while waiting in a collective is not shown failing first -- a timeout or connection "
        "error there is what a process meets when a peer left (one that returned with exit code 0 spawn does not "
        "report) or never made the same call. Which process failed first, and why, these lines do not say",
        f"Paste process {n}'s full traceback down to the exception below it (its last line: a timeout, an NCCL / "
        "gloo error, a connection closed by a peer) and each process's own log, every rank's: the first error in time "
        "is the cause. " + call_fix + "If it hangs there first, py-spy dump --pid of every process shows which one "
        "is not in the same collective; dmesg -T for the OOM killer, which ends a peer without a traceback.",
        "low", [], [rec.brief()])


def _spawn_in_datapipe_seed(rec: Event, n: int | None, at: str) -> Verdict:
    """Lead rule BQ (1) (round 86's data-659): mp.spawn's record of process N whose traceback the paste cuts, before
    its error text, inside the construction of a DataLoader's iterator in an iterable DataPipe job (S.DATAPIPE_SEED):
    torch >= 1.13 creates a gloo group there and broadcasts the DataPipe shared seed from rank 0, a cross-rank
    exchange -- so, as for a cut inside a collective (BH (1)), process N may be waiting on a rank 0 that is late or
    gone: unknown, culprits "unknown", nobody innocent (rules BM (1), BG (6)). Not read so: a cut in the loader's
    batch fetching (BM (1)'s data loading, which runs no collective), or a job not shown to use DataPipes."""
    return Verdict(
        "unknown", f"torch.multiprocessing.spawn reports process {n} terminated with an error, but its traceback "
        f"stops inside the construction of the DataLoader's iterator{at + ',' if at else ''} before its exception, "
        "in a DataPipe job: there torch creates a gloo group (dist.new_group) and broadcasts the DataPipe shared seed "
        "from rank 0 to every rank -- a cross-rank exchange, so a process that raises there is not shown failing "
        "first: a socket timeout is what it meets when rank 0 arrives late (still building its data) or is gone. "
        "Which process failed first, and why, these lines do not say",
        f"Paste process {n}'s full traceback down to its exception and every process's own log: the first error in "
        "time is the cause. A timeout here (gloo's or the store's socket timeout) is a rank 0 that arrives late at "
        "the DataPipe shared seed exchange (dist.new_group and its broadcast, run as each DataLoader iterator is "
        "created): start every rank's iter(dataloader) together (a barrier before it, the same work before the "
        "first epoch on every rank), or raise the process group's timeout (init_process_group(timeout=...)), which "
        "the gloo group created there inherits; while it hangs, py-spy dump --pid of every process shows which one "
        "is elsewhere.",
        "low", [], [rec.brief()])


def _one_launched(c: Collected, lone) -> Verdict:
    """Lead rules M, U (5), A (round 77's simcse-151, as mspn-31 reads the whole line): torch 1.x
    torch.distributed.launch's CalledProcessError for the command of the last worker it started, '--local_rank=0',
    the paste cut before its status (readers.exits._launcher_exit): the launcher started one worker, and it raised
    for it, so that worker -- local rank 0, rank 0 of a job nothing says spans nodes -- failed. Its untagged
    exception above the launcher's traceback, if one, is its own; its class names no cause. Accelerate's
    simple_launcher's record of its only process cut the same way reads alike (rules A, AG, BF (6); round 90's
    kohya-trainer-119): the exit status or signal the cut took is what says how it ended."""
    own = _lone_worker_error(c)
    simple = lone.event.data.get("launcher") == "accelerate's simple_launcher"
    head = ("accelerate's simple_launcher (accelerate launch without --multi_gpu) raised CalledProcessError for the "
            "command of its only process, the script run by python itself (the paste cut before its exit status or "
            "signal): the job's one process failed -- " if simple else
            "torch.distributed.launch raised CalledProcessError for the command of the last worker it started, "
            "'--local_rank=0' (the paste cut before its exit status): it started a single worker, the one that "
            "failed -- ")
    tail = ("The end of the CalledProcessError line (the exit status or signal) says how it ended -- 'died with "
            "<Signals.SIGKILL: 9>' is most often the kernel's OOM killer taking it for host memory (RAM; dmesg -T | "
            "grep -i 'killed process', free -h; load the checkpoint in fp16 / safetensors or with a low-RAM loading "
            "option, more RAM or swap), else a scheduler's or a user's kill (the job's memory or time limit, "
            "kill -9), 'returned non-zero exit status 1' a Python "
            "exception in the child's own stderr above the launcher's traceback; run the script's full command "
            "(the CalledProcessError's Command, whole) once without accelerate launch to see its error and exit "
            "status." if simple else
            "Run the worker's full command (the CalledProcessError's Command, whole) once without the launcher to see "
            "its error and exit status; for a log per rank use torchrun --log-dir DIR --redirects 3 --tee 3 in place "
            "of torch.distributed.launch.")
    return Verdict(
        "unknown", head + f"{lone.who}" + (f"; the exception above the launcher's traceback is that worker's own "
                                            f"({own[:160]}), of no known family" if own
                                            else "; its own error is not in these lines"),
        (f"Start from that worker's error ({own[:160]}): its traceback's last frames name the line of the script that "
         "raised it (a bare NotImplementedError is the script refusing an option or a data format it does not "
         "support: check the arguments against what that line expects -- the model type, the training file's format "
         "and columns)" if own else "Read the worker's own error above the launcher's traceback (its stderr)")
        + ". " + tail,
        "medium", lone.culprits, [lone.event.brief()])


def _spawn_in_ddp_init(rec: Event, n: int | None, at: str) -> Verdict:
    """Lead rule BH (2) (round 77's distributed-tutorial-4, round 70's fixmatch-pytorch-2): mp.spawn's record of
    process N whose traceback the paste cuts inside DistributedDataParallel's constructor (torch/nn/parallel/
    distributed.py's __init__ or its state-sync helpers) before its error text. DDP's construction checks the
    parameters across processes and broadcasts the module's state from rank 0 -- a collective every process joins --
    so, as for a cut inside a collective (BH (1)), process N may be the victim of a peer that left or never connected
    (another node): unknown, culprits "unknown", nobody innocent."""
    return Verdict(
        "unknown", f"torch.multiprocessing.spawn reports process {n} terminated with an error, but its traceback "
        f"stops inside DistributedDataParallel's constructor{at + ',' if at else ''} before its exception: DDP "
        "broadcast at construction (the module's parameters and buffers sent from rank 0 to every "
        "process, _dist_broadcast_coalesced / _sync_params_and_buffers) is a collective every process joins, so a "
        "process that raises there is not shown failing first -- an NCCL or connection error there is what it meets "
        "when a peer (on this node or another) left, crashed or never reached the same point. Which process failed "
        "first, and why, these lines do not say",
        f"Paste process {n}'s full traceback down to its exception (the full error text of process {n}: an NCCL "
        "error, a timeout, 'invalid device ordinal') and every node's log, every process's: the first error in time "
        "is the cause. Rerun with NCCL_DEBUG=INFO (and TORCH_DISTRIBUTED_DEBUG=DETAIL) to see why DDP's broadcast at "
        "construction failed. Check that each process pins its own GPU before building DDP (torch.cuda.set_device("
        "local rank), device_ids=[local rank], the model moved to that GPU; CUDA_VISIBLE_DEVICES listing as many GPUs "
        "as processes per node); on several nodes, that MASTER_ADDR / MASTER_PORT reach the first node from every "
        "other (no firewall between them), that NCCL_SOCKET_IFNAME names the interface the nodes share, and every "
        "node starts the same world size and its own node rank; on one machine whose GPUs cannot talk peer-to-peer "
        "(some PCIe / virtualised hosts), NCCL_P2P_DISABLE=1 tells whether the GPU-to-GPU path is at fault.",
        "low", [], [rec.brief()])


def _spawn_in_ddp_step(rec: Event, n: int | None, at: str, name: str) -> Verdict:
    """Lead rule BM (1) (round 79's pi-GAN-7 and neurad-studio-pr84; maniskill-110, sparsercnn-89 relabelled):
    mp.spawn's record of process N of a multi-process job whose traceback the paste cuts, before its error text, at a
    step that runs DistributedDataParallel's collectives implicitly -- the call of the DDP-wrapped model (its forward
    broadcasts buffers and syncs the reducer's buckets) or a loss's backward() (DDP's bucketed gradient all-reduce
    runs from autograd's hooks) (parse._ddp_step_cut). As for a cut inside a named collective (BH (1)), process N may
    be the victim of a peer that left unreported: unknown, culprits "unknown", nobody innocent (rules BG (6),
    AN (1))."""
    fwd = name != S.DDP_BACKWARD
    ev = name == S.DDP_EVAL
    step = ("its framework's training step (the training epoch loop's call of it: under DDP every process runs the "
            "wrapped model's forward, and backward's gradient all-reduce bucket by bucket)" if name == S.DDP_TRAIN else
            "its framework's training loop's advance (its batch fetch or the training step: under DDP the step runs "
            "the wrapped model's forward, and backward's gradient all-reduce bucket by bucket)"
            if name == S.DDP_TRAIN_ADVANCE else
            "its framework's evaluation pass (the validation/evaluation loop under DDP: all ranks run validation "
            "through the DistributedDataParallel-wrapped model's forward)" if ev else
            "the call of its DistributedDataParallel-wrapped model (DDP's forward: its buffers broadcast from rank 0 "
            "and its reducer's buckets synced with every process)" if fwd else
            "backward() (under DistributedDataParallel the gradients are all-reduced bucket by bucket from "
            "autograd's hooks, a collective every process joins)")
    return Verdict(
        "unknown", f"torch.multiprocessing.spawn reports process {n} terminated with an error, but its traceback "
        f"stops at {step}{at + ',' if at else ''} before its exception: a step that runs DDP's collectives implicitly, "
        "so a process that raises there is not shown failing first -- a timeout or connection error there is what it "
        "meets when a peer left (one that returned with exit code 0 spawn does not report), crashed or is slower or "
        "stuck before the same step; an error of its own (CUDA, out of memory, the reducer's unused parameters) is "
        "possible too. Which process failed first, and why, these lines do not say",
        f"Paste the full error text below the cut: process {n}'s full traceback down to its exception, and the full "
        "traceback of every process (each child's own output, faulthandler / PYTHONFAULTHANDLER=1 for one that died "
        "without one): the first error in time is the cause. Rerun with TORCH_DISTRIBUTED_DEBUG=DETAIL and "
        "NCCL_DEBUG=INFO (CUDA_LAUNCH_BLOCKING=1 for a CUDA error): DDP then names the parameters or the collective "
        "that failed -- 'Expected to have finished reduction in the prior iteration' is parameters unused in the "
        "loss (find_unused_parameters=True, or static_graph), a timeout is a rank slower or stuck before "
        + ("the DistributedDataParallel forward" if fwd else "backward") + " (an uneven number of batches per "
        "process, rank-only work such as evaluation or checkpointing: raise the process group's timeout or even them "
        "out). While it hangs, py-spy dump --pid of every process shows the one elsewhere; dmesg -T for the OOM "
        "killer, which ends a peer without a traceback. Running on one GPU (one process) tells an error of the "
        "process's own code from a peer's."
        + (" In the evaluation pass, log from rank 0 only (a logger's experiment object on the main process only: "
           "Lightning's rank_zero_only), give every rank the same number of validation batches (uneven validation "
           "batches / val_check), and upgrade the framework (pytorch_lightning, its logger) if its own call is the one "
           "that raised." if ev else ""),
        "low", [], [rec.brief()])


def _storage_error(c: Collected) -> str | None:
    """The storage errno a traceback in the lines ends in ("OSError: [Errno 28] No space left on device"), if any."""
    for e in c.exceptions:
        m = S.R_STORAGE_ERR.search(exception_text(e))
        if m:
            return m.group(0)
    return None


# an exception's message saying a path does not exist (ENOENT: "lmdb.Error: lmdb: No such file or directory",
# "FileNotFoundError: [Errno 2] No such file or directory: 'data/train'"): what the process was given to open
_R_NO_SUCH_PATH = re.compile(r"\bNo such file or directory\b")
# an exception line as Python prints it, its dotted type then its message ("lmdb.Error: lmdb: No such file ...")
_R_EXC_LINE = re.compile(r"\b[A-Za-z_][\w.]{0,80}(?:Error|Exception): .{1,300}")
_MISSING_PATH_FIX = ("'No such file or directory' is the process opening a path that does not exist: check the "
                     "dataset path (and any checkpoint / config path) given on the command line or in the config "
                     "(ls it from the host and container the process runs in; a relative path is read from the "
                     "working directory), give the correct path, or create the dataset there first (the repository's "
                     "data preparation step, e.g. building the lmdb from the images) before launching. ")


# a relative ENOENT path's first part (its directory under the working directory: "./data"); the path itself is read
# with unread's R_ENOENT_PATH, the one regex both readings share (review 105 (1) finding 7)
_R_REL_HEAD = re.compile(r"(?:\.{1,2}/)?[^/\\]{1,80}")
# OpenMMLab's registry (mmcv / mmengine build_from_cfg) re-raising a class's error with the class's name before it
# ("FileNotFoundError: OpenLaneV2SubsetADataset: [Errno 2] No such file ..."): a dataset the config builds
_R_CFG_CLASS_RERAISE = re.compile(r"^\w{1,80}Error: [A-Z]\w{0,80}Dataset: \[Errno 2\]")


def _missing_path_fix(text: str, legacy_launch: bool = False) -> str:
    """_MISSING_PATH_FIX, then what the missing path's own form says: a relative path is read from the directory the
    job was launched in; a dataset class's name before the errno is a config-built dataset's file (its data_root /
    ann_file); a data file's or a checkpoint's own words (unread.missing_file_fix, the words unread's reading of the
    same FileNotFoundError gives: review 105 (1) finding 7)."""
    out = _MISSING_PATH_FIX
    m = R_ENOENT_PATH.search(text)
    path = m.group(1) if m else ""
    if path and not path.startswith(("/", "~", "\\")) and not re.match(r"[A-Za-z]:", path) and "/" in path:
        head = _R_REL_HEAD.match(path).group(0)
        if head.startswith("../"):  # beside the launch directory, not under it (review 93 t1, F7)
            out += (f"The path '{path[:160]}' is relative and starts with '..': it resolves against the launch "
                    f"directory's parent, so check which directory the job was started in (the script expects "
                    f"{head} beside it) or give an absolute path. ")
        else:
            out += (f"The path '{path[:160]}' is relative: it is read from the directory the job was launched in "
                    f"(check that {head} is there) or give an absolute path. ")
    if _R_CFG_CLASS_RERAISE.search(text):
        out += ("The dataset class named before the errno is the one the config builds (OpenMMLab's build_from_cfg "
                "re-raises its error with its name): its file comes from the dataset config -- check the "
                "data_root / ann_file path in config, or generate the file with the repository's data preparation "
                "step. ")
    return out + missing_file_fix(text, legacy_launch)


def _missing_path(c: Collected) -> str | None:
    """The exception (type: message) a traceback in the lines ends in, or an exception line no family reads, that
    says a path does not exist (ENOENT), if any; one of a lost peer or a stop is no process's own."""
    for e in c.exceptions:
        text = exception_text(e)
        if _R_NO_SUCH_PATH.search(text) and not _AFTERMATH_EXC.search(text):
            return text
    for u in c.unread:  # an exception line no family reads ("lmdb.Error: lmdb: No such file or directory")
        m = _R_EXC_LINE.search(u.text)
        if m and _R_NO_SUCH_PATH.search(m.group(0)) and not _AFTERMATH_EXC.search(m.group(0)):
            return m.group(0).strip()
    return None


def _storage_fix(disk: str) -> str:
    """What an expert does about a file's storage failing under a process: space for a full disk, the mount's own
    errors otherwise."""
    if disk == "No space left on device" or disk == "Disk quota exceeded":
        return (f"'{disk}': free disk space on the volume the process writes to (df -h on the checkpoint / output "
                "directory, its quota), save checkpoints to a larger volume, and keep fewer checkpoints (keep the last "
                "N, save less often); a write into /dev/shm or /tmp fills a small tmpfs first. ")
    return (f"'{disk}' comes from the filesystem / storage mount the file lives on: read dmesg -T on that host for the "
            "device's or mount's errors, and check the mount (remount a read-only or stale one). ")


# an exception that is the end of a rank's wait on a peer or its stop by the launcher, not an error of its own code
_AFTERMATH_EXC = re.compile(r"Dist(?:Backend|Network|Store)Error|ChildFailedError|KeyboardInterrupt|SignalException|"
                            r"\bNCCL\b|[Tt]imed? ?out|[Cc]onnection (?:reset|refused|closed)|Broken pipe|"
                            r"communicator was aborted|[Ss]ocket")


def _others_raised(c: Collected, rank: int, proof: list[str]) -> Verdict | None:
    """Lead rules J and AM (2): the launcher's record names one rank exiting on a Python exception (code 1), and
    another rank's own traceback ends in an exception of its own (not a lost peer's, not a stop), with no rank shown
    torn down or still waiting: every rank shown failed on the job's own code alike, the record's rank only the first
    the agent saw -- nobody is the culprit. Where the agent's own lines show it stopping the other workers ("Sending
    process P closing signal SIGTERM"), some processes were torn down: the record's rank and the ranks raising their
    own exceptions failed on their own, the culprits (_some_raised)."""
    if torn_down(c) or any(rank_waiting(st) for st in c.ranks.values()):
        return None
    evs = [e for e in c.exceptions if e.rank is not None and e.rank != rank and not e.data.get("line")
           and not _AFTERMATH_EXC.search(f"{e.data.get('type') or ''}: {e.data.get('message') or ''}")]
    if not evs:
        return None
    e = evs[-1]
    text = exception_text(e)
    if _agent_stopped(c):
        return _some_raised(c, rank, evs, proof)
    return Verdict(
        "unknown",
        f"rank {rank} exited with code 1 in the launcher's record, and rank {e.rank} raised its own exception "
        f"({text[:300]}, {e.where}), with no rank shown torn down or still waiting: every rank shown failed on the "
        "job's own code alike (the record names only the first failure its agent saw), not one rank's fault",
        f"Fix the exception every rank raises: {text[:300]} (read the frames above it in any rank's traceback); "
        "the ranks share the code, the data and the launch, so one rank's fix is every rank's. Keep one log file "
        "per rank (torchrun --log-dir DIR --redirects 3 --tee 3) to confirm each raised the same.",
        "medium", [], proof + [e.brief()], job_wide=True)


# an exception raised while torch.compile compiled the model (TorchDynamo's wrapper of the backend's error, an inductor
# frame): the compiler's failure, not the model's code
_COMPILE_FAIL = re.compile(r"BackendCompilerFailed|torch/_inductor/|torch\._inductor\.|InductorError|"
                           r"backend='inductor' raised")
_COMPILE_FIX = ("The error is torch.compile's (TorchDynamo handing the graph to inductor, whose pattern matcher or "
                "code generation failed): rerun with TORCHDYNAMO_VERBOSE=1 for the internal stack trace; disable "
                "torch.compile (or compile a smaller region, another sequence length or dynamic=False) to run on, "
                "upgrade torch (inductor bugs are fixed release by release), and report the BackendCompilerFailed "
                "trace; torch._dynamo.config.suppress_errors = True falls back to eager where compiling fails. ")


def _reducer_recorded(exc: Event, who: str, proof: list[str]) -> Verdict:
    """Lead rules AW and Q: the launcher's record names one process exiting on a Python exception (code 1), and that
    exception is DDP's reducer refusing the backward for the module and DDP setting every rank runs (a parameter
    marked ready twice, one that got no gradient, backward without the forward's hooks), with no other process shown
    torn down or waiting: the record names only the first exit its agent saw of a fault every rank shares,
    so nobody is the culprit (round 93's gligen-30). Not read so: the agent's lines stopping the other workers, or a
    rank shown waiting (rule A reads the record's rank alone)."""
    text = exception_text(exc) or exc.text  # an exception, or the reducer's error text read unread (its tail)
    return Verdict(
        "unknown",
        f"{who} exited with code 1 in the launcher's record, on DDP's reducer refusing the backward ({text[:240]}, "
        f"{exc.where}): that check follows the module and the DDP / checkpointing setting every rank runs alike, and "
        "no other process is shown torn down or waiting, so the record names only the first exit the agent "
        "saw of a fault they share, not that rank's own (lead rules AW, Q)",
        _ddp_reducer_fix([text]) + "TORCH_DISTRIBUTED_DEBUG=DETAIL names the parameters involved. Keep one log file "
        "per rank (torchrun --log-dir DIR --redirects 3 --tee 3) to see each rank raise it.",
        "low", [], proof + [exc.brief()], job_wide=True)


def _agent_stopped(c: Collected) -> bool:
    """torchrun's agent's own lines stopping workers after a failure ("Sending process P closing signal SIGTERM"):
    processes shown torn down, by pid only."""
    return any(e.data.get("sent") == "SIGTERM" for e in c.samples.get("signal", []))


# torchrun's failure record's first line as its logger prints it ("ERROR:torch.distributed.elastic.multiprocessing.api:
# failed (exitcode: 1) local_rank: 0 (pid: 41) of binary: ..."): a paste that stops a few characters into it
# ("ERROR:torch.distr") is that record cut before its exit code and rank (lead rules BG (2), A; round 81's
# ultralytics-2588)
_RECORD_HEAD = "torch.distributed.elastic.multiprocessing.api:failed (exitcode:"


def _record_head_cut(e: Event) -> bool:
    """A line announcing an error whose whole text is the start of torchrun's failure record's first line, cut."""
    said = (e.data.get("message") or "").strip()
    return bool(e.data.get("line")) and len(said) >= 5 and _RECORD_HEAD.startswith(said)


def _restart_note(c: Collected) -> str:
    """torchrun's agent's "Worker group FAILED. N/M attempts left; will restart worker group" after the failure read:
    the agent restarts the whole group (--max_restarts), and a worker's own exception recurs on every attempt -- the
    restart is the launcher's setting, not a second failure (round 87's bevformer-47). Nothing when no attempt is
    left (the job ended there) or no such line is shown."""
    group = [e for e in c.samples.get("group_failed", []) if (e.data.get("left") or 0) > 0]
    if not group:
        return ""
    return (f" torchrun's agent then restarts the worker group ({group[0].data['left']}/{group[0].data['restarts']} "
            "attempts left): the same exception recurs on every attempt, so run with --max_restarts=0 while fixing "
            "it (the first failure then ends the job with its record instead of a restart).")


def _agent_closing_alone(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """torchrun's agent's closing signals alone ("Sending process P closing signal SIGTERM"), or its "Worker group
    FAILED. N/M attempts left" (it restarts the group after a worker failed), nothing else failing in the lines: no
    signal the agent received (its "Received N death signal" comes before them: verdict.signals), no failure record, no
    rank's own error or traceback, not while the workers loaded their weights (_died_loading). The agent sends them when
    it stops the group after a worker exited, and only to the workers still running (SubprocessContext._close skips a
    process that has exited): one pid missing from the middle of the run it stops is that worker
    (readers.common._pid_gap). Which rank failed and how is in the record these lines cut (rule A needs it): unknown,
    nobody named, nobody shown innocent (the stopped workers are named by pid only, the restarted ones all alike)."""
    sigs = c.samples.get("signal", [])
    sent = [e for e in sigs if e.data.get("sent") == "SIGTERM"]
    group = c.samples.get("group_failed", [])
    if (not (sent or group) or len(sent) != len(sigs) or c.child_failures or c.worker_failures
            or (c.exceptions and not all(_record_head_cut(e) for e in c.exceptions))
            or c.unread or any(own_errors(st) for st in c.ranks.values())):
        return None
    gap = next((e.data["pid_gap"] for e in sent if e.data.get("pid_gap") is not None), None)
    if gap is None:
        if c.samples.get("tb_cut"):
            return None  # a process's own traceback (or watchdog rethrow) cut before its error: unread._cut_traceback
        shown = sent[0] if sent else group[0]
        said = (f"torchrun's agent sent SIGTERM to its workers ({len(sent)} closing signal(s), the first at "
                f"{shown.where}) with no signal of its own received shown -- it stops the workers still running "
                "after one of them exited" if sent else
                f"torchrun's agent logged its worker group FAILED ({shown.where}: "
                f"{group[0].data['left']}/{group[0].data['restarts']} attempts left) and restarts it -- a worker of "
                "the group exited with an error")
        return Verdict(
            "unknown",
            said + ": a worker failed on its own, and the lines name neither which rank it was nor how it ended (the "
            "agent's failure record, 'failed (exitcode: N) local_rank: L' and its Root Cause, is not in them); the "
            "workers stopped or restarted are not told apart from it by rank, so nobody is shown innocent",
            "Read torchrun's record of the failed worker (Root Cause: its rank, exitcode and error_file; the line "
            "'failed (exitcode: N) local_rank: L' before 'Worker group FAILED') and the failed worker's own "
            "traceback (its stderr) above it: the first failure is the one to fix. Decorate the entry point with "
            "@record (torch.distributed.elastic.multiprocessing.errors) or set TORCHELASTIC_ERROR_FILE so the record "
            "carries the exception (error.json), and keep per-rank logs (torchrun --log-dir DIR --redirects 3 --tee "
            "3); run with --max_restarts 0 so the first failure ends the job with its record instead of a restart. "
            "With no traceback, an exitcode of -9 was a kill from outside: check dmesg for the OOM killer (dmesg -T "
            "| grep -i 'killed process'; host memory, RAM: free -h while it runs; fewer processes or less memory "
            "per process); a worker that hangs instead: py-spy dump --pid.",
            "low", [], [e.brief() for e in (sent or group)[:3]])
    return Verdict(
        "unknown",
        f"torchrun's agent sent SIGTERM to its workers ({sent[0].where}) skipping pid {gap} in the middle of the run "
        "of pids it stopped, and no signal the agent received is shown: the agent stops the workers still running "
        f"after one exits, so pid {gap} had already exited -- the worker whose failure ended the job. Which rank it "
        "was and why is in the agent's failure record ('failed (exitcode: N) local_rank: L', its Root Cause), which "
        "these lines cut; the workers stopped are named by pid only",
        f"Read the lines after these: torchrun's record of the failed worker (Root Cause: its rank, exitcode and "
        f"error_file; the worker that exited first is pid {gap}) and the failed worker's own traceback above it. "
        "With no traceback, an exitcode of -9 was a kill from outside: check dmesg for the OOM killer (dmesg -T | grep "
        "-i 'killed process'; host memory, RAM: a checkpoint save or an evaluation at that step holds more). "
        "Decorate the entry point with @record (torch.distributed.elastic.multiprocessing.errors) or set "
        "TORCHELASTIC_ERROR_FILE so the record carries the exception, and keep per-rank logs (torchrun --log-dir DIR "
        "--redirects 3 --tee 3); a worker that hangs instead: py-spy dump --pid.",
        "low", [], [e.brief() for e in sent[:3]])


def _some_raised(c: Collected, rank: int, evs: list[Event], proof: list[str]) -> Verdict:
    """Lead rule J, its second half: the launcher's record names one rank exiting with code 1, another rank's own
    lines raise an exception of its own, and the agent is shown stopping the workers still running after them
    (its "closing signal SIGTERM" lines). Some ranks failed on their own and the rest were torn down: the ranks that
    failed are the culprits -- the record's and the one whose exception is shown; the cause is that exception's,
    unknown when its class names none. The workers stopped are named by pid only: nobody is shown innocent."""
    ranks = sorted({rank} | {e.rank for e in evs})
    others = sorted({e.rank for e in evs})
    e = evs[-1]
    text = exception_text(e)
    own = _fmt_ranks(others)
    size, _, sure = world_size(c)
    if sure == "high" and size and ranks == list(range(size)):
        # every rank of the job (NCCL's nranks, a stated size) failed on its own: the teardown stopped only ranks that
        # had already failed, so one cause they share, not one rank's fault (lead rule J)
        compiled = any(x.data.get("dynamo") for x in c.samples.get("benign", [])) or _COMPILE_FAIL.search(text)
        return Verdict(
            "unknown",
            f"rank {rank} exited with code 1 in the launcher's record and rank {own} raised its own exception "
            f"({text[:300]}, {e.where}): that is every rank of the job (all {size}), each failing on its own in the "
            "same code, so a cause they share, not one rank's fault (lead rule J); the exception's class names no "
            "known cause" + ("; it was raised while torch.compile (TorchDynamo / inductor) compiled the model" if
                             compiled else ""),
            (_COMPILE_FIX if compiled else "")
            + f"Fix the exception every rank raises: {text[:200]} (its frames name the code that raised it, the "
            "script's or a library's: a library's bug, upgrade it). Keep one log file per rank (torchrun --log-dir "
            "DIR --redirects 3 --tee 3) and run one process to reproduce it without the launcher.",
            "medium", [], proof + [e.brief()], job_wide=True)
    return Verdict(
        "unknown",
        f"rank {rank} exited with code 1 in the launcher's record, rank {own} raised its own exception ({text[:300]}, "
        f"{e.where}), and the agent then stopped the other workers (its 'closing signal SIGTERM' lines): some ranks "
        "failed on their own and the rest were torn down, so the ranks that failed are the culprits (lead rule J); "
        "the exception's class names no known cause",
        f"Read rank {own}'s traceback, whose last line is {text[:200]}: its frames name the code that raised it, "
        "the script's or a library's (a library's bug: upgrade it, with the versions of the packages it needs "
        "together); then "
        f"read rank {rank}'s own output for its traceback (exitcode 1: a Python exception the record does not "
        "carry), probably the same error. " + _py_exception_fix(text) + "Keep one log file per rank (torchrun "
        "--log-dir DIR --redirects 3 --tee 3) and run one process to reproduce it without the launcher.",
        "medium", ranks, proof + [e.brief()])


def _aborted_alike(c: Collected, rank: int, proof: list[str]) -> Verdict | None:
    """Lead rule J: the launcher's record names one rank aborted (-6), and another rank's own output shows it
    aborting too ("Fatal Python error: Aborted" under that rank's prefix): every rank shown died the same way, a
    cause they share, not the recorded rank's fault. Where faulthandler's stacks show no thread running Python code
    (the main one's script had returned: "<no Python frame>", "Garbage-collecting"), the abort came in the
    interpreter's exit, after the work: torch's teardown, not the training."""
    evs = [e for e in c.samples.get("fatal_python", []) if e.rank is not None and e.rank != rank
           and e.data["what"].lower().startswith("aborted")]
    if not evs:
        return None
    e = evs[0]
    at_exit = e.data.get("threads", 0) > 0 and not e.data.get("frames")
    what = (f"rank {rank} exited with code -6 (SIGABRT) in the launcher's record, and rank {e.rank} printed 'Fatal "
            f"Python error: Aborted' itself ({e.where}): every rank shown aborted alike, a cause they share, not one "
            "rank's fault")
    if at_exit:
        return Verdict("unknown", what + "; faulthandler's stacks show no thread running Python code (the script "
                       "had returned: the interpreter was exiting, garbage-collecting), so the abort came in the "
                       "teardown after the work had finished, not in the training (C++ objects -- the process group, "
                       "NCCL's watchdog, an async checkpoint's thread -- destroyed while still in use, printed as "
                       "'terminate called without an active exception')",
                       "The work had finished before the abort; to make the exit clean, "
                       "end main on every rank with dist.barrier(), drop the DDP/FSDP model, join background threads "
                       "(an async checkpoint's) and call dist.destroy_process_group() before exit, so the teardown no "
                       "longer races the interpreter's; if it still aborts, upgrade torch and take a core dump "
                       "(ulimit -c unlimited; python -X faulthandler) of the exit.",
                       "medium", [], [e.brief()] + proof, job_wide=True)
    return Verdict("unknown", what + ". The cause is in their own output", ABORT_FIX + "Read every rank's stderr "
                   "for the first native error line (the ranks share it: the same library, build or host).",
                   "low", [], [e.brief()] + proof, job_wide=True)


def _spawn_exit(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """torch.multiprocessing.spawn's parent SIGTERMs its other children ("Terminating process P via signal SIGTERM")
    only once a child has exited with an error, and then raises that child's error from context.join(). Where the
    lines cut that error ("Process N terminated with the following error") but one rank's own exit-time line comes
    just before the teardown -- the process group's destructor warning, printed as a process exits -- that rank is the
    child that exited first (lead rules A, I, AL (2)): the culprit, its error not in these lines. The SIGTERM'd child
    is named by its pid only, so nobody is innocent."""
    down = c.samples.get("spawn_teardown", [])
    if not down or c.child_failures or c.worker_failures:
        return None
    first = down[0]
    path, line = first.site()
    exits = [e for e in c.samples.get("pg_not_destroyed", []) if e.rank is not None
             and e.site()[0] == path and e.site()[1] < line]
    ranks = sorted({e.rank for e in exits})
    if len(ranks) != 1 or any(x.rank is not None and x.rank != ranks[0] for x in c.exceptions):
        return None
    r = ranks[0]
    return Verdict(
        "unknown",
        f"rank {r} printed the exit-time warning that destroy_process_group() was not called, and right after it "
        "spawn's parent SIGTERM'd the other child: spawn does that only once a child has exited with an error, so "
        f"rank {r} exited first; its error (spawn's 'Process N terminated with the following error') is not in these "
        "lines",
        f"Read rank {r}'s own exception: the whole output down to spawn's 'Process {r} terminated with the "
        "following error' traceback names it (paste all of it); run on one GPU to reproduce (nprocs=1, or the "
        "entry function called directly) and see the error; with no Python traceback, rerun with "
        "PYTHONFAULTHANDLER=1 and TORCH_SHOW_CPP_STACKTRACES=1. The destroy_process_group() warning is only how "
        "that process ended: call dist.destroy_process_group at exit (the end of the entry function) to silence "
        "it.",
        "medium", [r], [e.brief() for e in exits[:1] + down[:1]])


def _fatal_python(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """The interpreter's own "Fatal Python error: ..." with no launcher record, exception or NCCL error to read:
    a process died in native code or in the interpreter. Nobody is named: faulthandler prints it for any fatal
    signal, the watchdog's abort of a waiting rank too ("Fatal Python error: Aborted")."""
    evs = c.samples.get("fatal_python", [])
    if not evs:
        return None
    what = evs[0].data["what"]
    if what.lower().startswith("bus error"):  # lead rule F
        return Verdict("dataloader_shm", f"a process died of a bus error ('Fatal Python error: {what[:80]}'): it "
                       "touched shared memory that could not be backed, /dev/shm is full or too small",
                       "Enlarge /dev/shm (docker --shm-size=16g or --ipc=host; Kubernetes emptyDir medium: Memory) "
                       "or lower num_workers.", "medium", [], [e.brief() for e in evs[:2]])
    native = what.lower().startswith(("segmentation fault", "floating point exception", "illegal instruction"))
    own = _interpreter_own(c, evs)
    if own is not None:  # lead rules A, AN (1): the interpreter's own check failed in that rank's process
        return Verdict("unknown", f"rank {own}'s own lines show its interpreter aborting: 'Fatal Python error: "
                       f"{what[:120]}' -- the interpreter's own check (a reference-count bug in native code: a C "
                       "extension or a compiled graph's runtime), not a signal from outside nor a Python exception; "
                       "no other rank is shown failing, so it failed first",
                       NATIVE_ABORT_FIX + "That check ('none_dealloc', a refcount or GC check) is a bug in a C "
                       "extension's or torch's native code: upgrade torch (or try a nightly) and the C extensions "
                       "the job loads; with torch.compile, disable compile to see whether the compiled code is the "
                       f"one; rerun with PYTHONFAULTHANDLER=1 and read rank {own}'s whole stderr (its 'Current "
                       "thread' stack names the Python frame it died in).", "medium", [own],
                       [e.brief() for e in evs[:2]])
    how = ("abort() was called in native code: torch's NCCL watchdog after a collective timeout or NCCL error, an "
           "uncaught C++ exception or a C extension" if what.lower().startswith("aborted") else
           "the interpreter or a C extension died in native code")
    # lead rules A, AK (2): the crashing thread stood in a collective (its faulthandler stack) or the crash handler's
    # frames are NCCL's own: still unknown, nobody named, but the fix is NCCL's and the serving engine's
    coll = next((x.data["collective"] for x in evs if x.data.get("collective")), None) if native else None
    # ... or, with no "Current thread" in the report (the signal came in a thread with no Python frame: NCCL's or
    # CUDA's own), a Python thread standing in a collective: the process was inside it all the same (round 107)
    beside = None if coll or not native else next(
        (x.data["thread_collective"] for x in evs if x.data.get("thread_collective") and not x.data.get("saw_current")),
        None)
    nccl = next((f for x in c.samples.get("crash", []) for f in x.data.get("funcs", [])
                 if S.R_NCCL_FUNC.match(f) or S.R_NCCL_INNER_FUNC.match(f)), None) if native else None
    return Verdict("unknown", f"a process crashed: 'Fatal Python error: {what[:120]}' -- {how}, not a Python "
                   "exception" + (f", inside a collective ({coll}() in its crashing thread's stack)" if coll else "")
                   + (f", while it stood in a collective ({beside}() in a thread's stack; no 'Current thread' is "
                      "shown, so the signal came in a thread without Python frames)" if beside else "")
                   + (f", inside the NCCL library ({nccl}() in its crash handler's backtrace)" if nccl else "")
                   + "; these lines do not say which rank nor why",
                   (fpe_fix(c) if what.lower().startswith("floating point exception") else "")
                   + (NATIVE_FIX if native else ABORT_FIX)
                   + (_coll_crash_fix(coll or beside, nccl, _hami_shown(c)) if coll or beside or nccl else "")
                   + (_init_crash_fix(init) if (init := _at_engine_nccl_init(c, evs)) and native and not (
                       coll or beside or nccl)
                      else "")
                   + (_comm_init_crash_fix(fn) if native and not (coll or beside or nccl or init) and (
                       fn := next((x.data["comm_init"] for x in evs if x.data.get("comm_init")), None)) else "")
                   + "Read that process's whole stderr (its 'Current thread' "
                   "stack names the Python frame it died in).", "low", [], [e.brief() for e in evs[:2]])


# how far above the fatal error the engine's NCCL line may stand (round 104: the next line in sglang-28299, one line
# between in vllm-9156, another process's line interleaved): vLLM and SGLang print it once per process at start-up, so
# a crash further down -- after the model load, the server's start, hours of serving -- is not in NCCL's init (review
# 104 (1) finding 1). A line no reader takes (a model load's "Loading model weights took") is not seen between them:
# the gap is kept that short for it
_ENGINE_INIT_GAP = 2


def _at_engine_nccl_init(c: Collected, evs: list) -> str | None:
    """The NCCL version a serving engine announced ("sglang is using nccl==2.28.9") right above the fatal error in the
    same file (at most _ENGINE_INIT_GAP lines, and no other event read between them): its pynccl was setting up the
    communicator when the process crashed (round 104's sglang-28299), or None."""
    at = place(evs[0])
    for e in c.samples.get("benign", []):
        if e.data.get("what") != "engine nccl version" or (p := place(e))[0] != at[0] or not 0 < at[1] - p[1] <= \
                _ENGINE_INIT_GAP:
            continue
        if any(x is not e and (q := place(x))[0] == at[0] and p[1] < q[1] < at[1] and k not in QUIET_KINDS
               for k, xs in c.samples.items() for x in xs):
            continue  # something of the run came between: init was over
        return e.data["nccl"]
    return None


def _init_crash_fix(ver: str) -> str:
    """Lead rules A, AK (2): a native crash right after a serving engine loaded NCCL to set up its communicator: the
    crash came in NCCL's initialisation (ncclCommInitRank), a build that does not fit this GPU/driver -- still unknown,
    nobody named, but the fix is NCCL's."""
    return (f"The engine had just loaded NCCL {ver} to set up its communicator: the crash came in NCCL's init "
            "(ncclCommInitRank). Rerun with NCCL_DEBUG=INFO to see where init crashes, and get the native backtrace "
            "(faulthandler / gdb / core dump) on each TP rank; check that NCCL build against the torch / engine "
            "build (try the NCCL bundled with torch, or a newer nvidia-nccl-cu12) and the driver / CUDA / torch "
            "support for the GPU (a new architecture such as Blackwell SM120 needs recent builds); as tests, "
            "NCCL_P2P_DISABLE=1 and NCCL_CUMEM_ENABLE=0, and the engine's custom all-reduce off "
            "(--disable-custom-all-reduce). ")


def _comm_init_crash_fix(fn: str) -> str:
    """Lead rules A, AK (2): a native crash whose crashing thread stands in NCCL's communicator set-up (a serving
    engine's pynccl calling ncclCommInitRank while its TP group is created) with no NCCL error printed: still unknown,
    nobody named, but the fix is NCCL's init (round 110's sglang-3451)."""
    return (f"It crashed in NCCL's communicator set-up ({fn}() in the crashing thread's stack, the process or TP group "
            "being created) with no NCCL error printed: run with NCCL_DEBUG=INFO to see how far init got "
            "(NCCL_DEBUG_SUBSYS=INIT), and get a native backtrace of the crash (gdb / core dump, python -X "
            "faulthandler on every TP worker); check that the NCCL library the engine loads is the one torch pins "
            "(reinstall nvidia-nccl-cu12 matching the torch build; SGLANG_NCCL_SO_PATH / VLLM_NCCL_SO_PATH) and the "
            "driver / CUDA support for the GPU; as tests, try NCCL_CUMEM_ENABLE=0 / NCCL_P2P_DISABLE=1 (and "
            "NCCL_SHM_DISABLE=1) -- a virtualised GPU (a vGPU profile) lacks some of those paths -- and the engine "
            "with one GPU (--tp 1) to confirm the multi-GPU path is what crashes. ")


def _hami_shown(c: Collected) -> bool:
    """A GPU-sharing interposer (HAMi-core's libvgpu.so) shows in the lines: its own lines among the unread ones, or
    a crash's frames in it -- what verdict._interposer_crash reads (review 107 finding 5 (c))."""
    return any("libvgpu" in x.text or "HAMI" in x.text or "HAMi" in x.text for x in c.unread) or any(
        _in_interposer(e) for e in c.samples.get("crash", []))


def _coll_crash_fix(coll: str | None, nccl: str | None, hami: bool = False) -> str:
    """Lead rules A, AK (2): what to do where a native crash (SIGSEGV) came inside a collective -- the crashing thread's
    Python stack in torch.distributed's or a serving engine's NCCL call (coll), or its native frames NCCL's own
    functions (nccl) -- with no NCCL error printed: round 98's sglang-3745, vllm-15098 (still cause unknown); the
    vGPU interposer's words only where its lines are shown (hami)."""
    where = (f"{nccl}() is NCCL's own function" if nccl else f"{coll}() is a collective call")
    return (f"It crashed inside a collective with no NCCL error printed ({where}): rerun with NCCL_DEBUG=INFO (its "
            "'NCCL version' line and the last step before the crash) and take a core dump / gdb backtrace of the "
            "crashed worker for the native frames; check which libnccl the process loads and keep the same torch / "
            "NCCL / serving-engine versions on every node (a version mismatch, or an NCCL library other than the one "
            "torch pins: nvidia-nccl-cu12; vLLM's VLLM_NCCL_SO_PATH); in a serving engine (vLLM, SGLang) isolate it "
            "with CUDA graphs off (vLLM's --enforce-eager; in SGLang disable CUDA graphs (--disable-cuda-graph)) and "
            "custom all-reduce off (--disable-custom-all-reduce), then upgrade the engine and NCCL; isolate the "
            "transport it crashes in "
            "with NCCL_P2P_DISABLE=1, NCCL_SHM_DISABLE=1 or NCCL_CUMEM_ENABLE=0"
            + (" (a GPU-sharing / vGPU interposer preloaded in front of the CUDA driver, HAMi-core's libvgpu.so here, "
               "breaks NCCL's P2P / IPC paths: test without it)" if hami else "") + ". ")


# faulthandler's names of the fatal signals it reports ("Fatal Python error: Segmentation fault"): the rest are the
# interpreter's own checks (Py_FatalError: "none_dealloc: deallocating None", "PyThreadState_Get: ...")
_FATAL_SIGNALS = ("aborted", "segmentation fault", "bus error", "floating point exception", "illegal instruction",
                  "terminated", "killed", "cannot recover from stack overflow")


def _interpreter_own(c: Collected, evs: list) -> int | None:
    """Lead rules A, AN (1): every "Fatal Python error" line is one rank's, under its own rank tag, and none names a
    fatal signal (faulthandler's "Aborted" is also how the watchdog ends a waiting victim, rule I): the interpreter's
    own check failed in that process -- its own failure, read alone where no other rank is shown failing or waiting
    and that rank is not shown waiting itself. None otherwise."""
    ranks = {e.rank for e in evs}
    if len(ranks) != 1 or None in ranks or any(e.data["what"].lower().startswith(_FATAL_SIGNALS) for e in evs):
        return None
    rank = ranks.pop()
    if any(rank_waiting(st) or (r != rank and own_errors(st)) for r, st in c.ranks.items()):
        return None
    if c.exceptions or c.child_failures or c.worker_failures:
        return None
    return rank


# glog's fatal line of a failed CHECK ("F0721 02:48:28.834262 1159892 util.h:139] Check failed: ..."): glog aborts the
# process right after it ("*** Check failure stack trace: ***", then SIGABRT). Read by the end of its header, the
# source file and line ("util.h:139] "): a collector's clock before it may leave its level letter stripped away.
_R_GLOG_CHECK = re.compile(r"(?:^|\s)[\w.-]{1,120}\.(?:cc|cpp|cxx|c|h|hpp|cu|cuh):\d{1,6}\] Check failed: ")


def _abort_checked(c: Collected, evs: list) -> bool:
    """Every crash a SIGABRT, and a library's own failed CHECK shown among the lines no family read, whose words say
    what kind of failure it is (generic.reading): that abort is the check's own (glog aborts after its fatal line),
    so the check's words are the failure and the signal only how it ended -- the crash handler's "no other failure
    is shown" would hide the one line that says why (lead rule A: -6 is unknown only with no other cause)."""
    if any(e.data.get("signal") != 6 for e in evs):
        return False
    checks = [u.text for u in c.unread if "Check failed" in u.text and _R_GLOG_CHECK.search(strip_prefixes(u.text))]
    return bool(checks) and generic.reading(checks) is not None


# oneCCL's own frames in a crash handler's backtrace (its C++ names, or its library's file), and Level Zero's API
# (zeXxx / zetXxx / zesXxx: Intel's GPU driver stack, under oneCCL or torch's XPU device)
_CCL_FRAME = re.compile(r"^(?:ccl_|ccl::|ze_cmd_|ze_copy_)|^libccl\.so")
_ZE_FRAME = re.compile(r"^ze[tsl]?[A-Z]\w*$")
# a collective library's wait for its operation to complete (oneCCL's ccl_executor::wait, ccl_request::is_completed)
_CCL_WAIT = re.compile(r"::wait$|is_completed$")


def _ccl_frames_fix(evs: list) -> str:
    """Lead rules AK (2), A, I, BM (1): a native crash whose frames run through oneCCL or Level Zero stays unknown by
    its signal, and its fix is that stack's: oneCCL's own error text (CCL_LOG_LEVEL), the versions of oneCCL, its
    torch bindings and the Level Zero driver, its copy / IPC paths; a process aborted while it waits inside a
    collective may be a peer's victim, so every rank's stack says who is not in it."""
    funcs = [f for x in evs for f in x.data.get("funcs", [])]
    files = [f for x in evs for f in x.data.get("files", [])]
    ccl = any(_CCL_FRAME.search(f) for f in funcs + files)
    ze = any(_ZE_FRAME.match(f) for f in funcs)
    if not ccl and not ze:
        return ""
    out = ("Its frames run through " + " into ".join(
        w for w, shown in (("oneCCL (the collective library under torch's ccl / xccl backend)", ccl),
                           ("Level Zero (the Intel GPU driver stack, zeXxx() frames)", ze)) if shown)
           + ": rerun with CCL_LOG_LEVEL=debug for the library's own error text before the crash and read the logs "
           "of every rank; keep the oneCCL version (torch-ccl / oneccl_bindings_for_pytorch) matched to torch and "
           "IPEX and to the Level Zero driver (an intel GPU driver update); take a core dump / gdb backtrace with "
           "symbols. ")
    if ze and any("copy" in f.lower() or "memmove" in f for f in funcs):
        out += ("It dies copying memory on the GPU: try oneCCL without the copy engine (CCL_ZE_COPY_ENGINE=none), "
                "with its IPC handles over sockets (CCL_ZE_IPC_EXCHANGE=sockets), or smaller collectives (smaller "
                "all_gather chunks). ")
    if any(_CCL_WAIT.search(f) and f.startswith("ccl") for f in funcs):
        out += ("It was waiting for a collective to complete: a peer that never joined it leaves it there, so take "
                "the stacks of every rank (py-spy dump --pid, a gdb backtrace of every process) to see who is not in "
                "the collective, with TORCH_DISTRIBUTED_DEBUG=DETAIL. ")
    return out


# the interpreter's own re-initialisation in a child right after fork() (CPython's PyOS_AfterFork, 3.7+'s
# PyOS_AfterFork_Child): a frame of it in a crash's backtrace says the process that died was just forked
_AFTER_FORK = ("PyOS_AfterFork", "PyOS_AfterFork_Child", "PyOS_AfterFork_Parent", "__libc_fork", "fork")


# A native crash whose backtrace is torch.save's zip writer (PyTorchStreamWriter::writeRecord -> miniz's
# mz_zip_writer_add_mem_ex_v2 -> crc32): the process died writing a checkpoint, most often an async save's writer
# process forked from the trainer with CUDA initialised, or reading a tensor's memory freed or changed under it (lead
# rules A, AK (2), T: the cause stays unknown; round 90's megatron-bridge-2355, nemo-speech-14906)
ZIP_WRITER_SEGV_FIX = (
    "It crashed inside torch.save's zip writer (a zip writer segfault: PyTorchStreamWriter::writeRecord -> "
    "mz_zip_writer_add_mem_ex_v2 -> crc32), writing a checkpoint record: save synchronously to confirm (disable async "
    "checkpoint save), or start the checkpoint writer processes with spawn, not fork (fork -> spawn: a writer forked "
    "from a trainer with a CUDA context is unsafe), and keep the tensors being saved unchanged until the save ends; "
    "check the versions of torch (upgrade torch) and of the library whose checkpoint writer it is{libs}, and the "
    "disk space and filesystem of the checkpoint directory (save to local disk to compare). ")


def _zip_writer_fix(c: Collected, e) -> str:
    """ZIP_WRITER_SEGV_FIX, naming Megatron / NeMo dist checkpointing only where the lines read name them (a line
    under the crash, parse's megatron_nemo; an exception's text or its traceback's installed packages; a line no
    family explains; the crash's own frames: S.R_MEGATRON_NEMO; review r2)."""
    seen = [e.text, *e.data.get("funcs", []), *e.data.get("files", [])]
    for x in [*c.exceptions[:32], *c.unread[:16]]:
        seen += [x.text, *x.data.get("tb_pkgs", [])]
    named = e.data.get("megatron_nemo") or any(S.R_MEGATRON_NEMO.search(t) for t in seen if t)
    return ZIP_WRITER_SEGV_FIX.format(libs=" (Megatron / NeMo dist checkpointing)" if named else "")


def _crash_site_fix(c: Collected, e, lib: str | None) -> str:
    """Lead rules A, AK (2), T: a native crash stays unknown by its signal; where its frames say where in the process
    it died, the fix says that place's remedy. A frame of the interpreter's after-fork set-up (PyOS_AfterFork): the
    process is a child forked from the trainer -- a DataLoader worker forked from a process that had MPI (Horovod) or
    CUDA initialised, which fork does not carry over safely (round 86's horovod-492). The crashing library's file
    inside an installed package (site-packages/<package>/...): that package's compiled extension, built against
    another framework or compiler than the one installed (round 86's horovod-716, Horovod's mpi_lib_v2.so). ''
    where the frames say neither."""
    out = _zip_writer_fix(c, e) if e.data.get("zip_writer") else ""
    if any(f in _AFTER_FORK for f in e.data.get("symbols", [])):
        out += ("It died in a process just forked (the interpreter's after-fork set-up, PyOS_AfterFork, in its "
                "backtrace): a child forked from the training process -- a DataLoader worker -- after MPI / CUDA "
                "were initialised, which fork does not carry over safely. Rerun with DataLoader num_workers=0 to "
                "confirm, then start the workers without fork (DataLoader multiprocessing_context='forkserver' or "
                "'spawn'; forkserver / spawn start method), or fork before MPI init; under Open MPI with InfiniBand "
                "allow fork (RDMAV_FORK_SAFE=1, or --mca btl ^openib); upgrade Python / Horovod where an old "
                "interpreter is in use. ")
    pkg = e.data.get("packages", {}).get(lib) if lib else None
    if pkg and pkg != "torch":  # torch's own libraries: the generic sentence above says it
        name = "Horovod" if pkg == "horovod" else pkg
        out += (f"{lib} is part of the installed {name} package (site-packages/{pkg}): rebuild {name} against the "
                f"installed PyTorch (pip uninstall {pkg}; "
                + (horovod_rebuild("HOROVOD_WITH_PYTORCH=1") if pkg == "horovod"
                   else f"pip install --no-cache-dir {pkg}")
                + ") with the same gcc / _GLIBCXX_USE_CXX11_ABI as torch was built with, and check the "
                f"{name} / PyTorch versions against the ones it supports (or upgrade {name}). ")
    return out


def _native_crash(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """A process's own fatal-signal handler (Open MPI's "[host:pid] Signal: Segmentation fault (11)", UCX's "Caught
    signal 11 (...)", Abseil's "*** SIGSEGV received at ...") reporting SIGSEGV, SIGILL, SIGFPE or SIGABRT, with no
    backtrace into libnccl.so (_nccl_crash), no bus error (_bus_error) and nothing else that explains the lines: that
    process died in native code, a first failure whose cause the lines do not give (lead rule A: -11/-6 with no other
    cause is unknown). Its rank is named only where one process crashed and its line carries the rank (a launcher's
    tag); several processes crashing alike share a cause (rule J), and a SIGABRT names nobody (the watchdog's own
    abort looks the same, rule I)."""
    evs = [e for e in c.samples.get("crash", []) if e.data.get("signal") in (4, 6, 8, 11)]
    if not evs or _abort_checked(c, evs):  # a failed CHECK's abort: its words are read last (_unread_failure)
        return None
    e = evs[0]
    procs = {(x.host, x.data.get("proc") or x.where) for x in evs}
    ranks = sorted({x.rank for x in evs if x.rank is not None})
    several = len(procs) > 1
    named = ranks if not several and len(ranks) == 1 and e.data["signal"] != 6 and not any(
        x.data.get("srun_label") for x in evs) else []
    sig = S.SIGNALS_BY_NUMBER.get(e.data["signal"], f"signal {e.data['signal']}")
    lib = next((x for x in e.data.get("files", []) if x not in _HANDLER_LIBS), None)
    mpi = any(x.data.get("handler") == "Open MPI" for x in evs)
    # the crash handler's frames name MPI's own functions (ompi_..., PMPI_...): it died inside the MPI library
    in_mpi = next((f for x in evs for f in x.data.get("funcs", []) if S.R_MPI_FUNC.match(f)), None)
    # ... or NCCL's exported functions (a stripped libnccl, its file not in the frames): the outermost is the API call
    # the process made (ncclAllReduce); the inner ones are only the nearest exported names (pncclRedOpDestroy)
    in_nccl = next((fs[-1] for x in evs if (fs := [f for f in x.data.get("funcs", []) if S.R_NCCL_FUNC.match(f)])),
                   None)
    # ... or, with its symbols, NCCL's own internal functions (addProxyOpIfNeeded): inside NCCL all the same
    inner = None if in_nccl else next((f for x in evs for f in x.data.get("funcs", []) if S.R_NCCL_INNER_FUNC.match(f)),
                                      None)
    who = (f"{len(procs)} processes" if several else _named(named) if named else
           f"a process (pid {e.data['proc']}{' on ' + e.host if e.host else ''})" if e.data.get("proc") else
           "a process")
    # a SIGABRT whose frames hold torch's NCCL watchdog under std::terminate: the watchdog's own abort after a
    # collective timeout or an NCCL error it caught (lead rule I), not a crash in libstdc++
    dog = next((f for x in evs if x.data.get("signal") == 6 for f in x.data.get("funcs", [])
                if _R_WATCHDOG_FRAME.search(f)), None)
    if dog:
        return Verdict(
            "unknown",
            f"{who} died of SIGABRT ('{strip_prefixes(e.text)[:120]}') with torch's NCCL watchdog in its frames "
            f"({dog}): the watchdog aborted the process after a collective timeout or an NCCL "
            "error it caught (rule I: the watchdog's own abort), not a crash in native code -- a process it ends may "
            "have been only waiting for another rank, so no rank is named; which of the two, and which collective, "
            "that process's own 'Watchdog caught collective operation timeout' / ProcessGroupNCCL error lines say",
            WATCHDOG_CORE_FIX, "low", [], [x.brief() for x in evs[:3]], job_wide=several)
    # its frames named in NCCL's topology code (rule AK (2)): that code's remedy is the fix, not a rebuilt extension
    topo = next((t for x in evs if (t := _nccl_topology(x))), None)
    fix = (NCCL_TOPO_CRASH_FIX.format(where=topo) if topo else ILL_FIX if e.data["signal"] == 4 else
           ABORT_FIX if e.data["signal"] == 6 else fpe_fix(c) + native_fix([-8]) if e.data["signal"] == 8
           else NATIVE_FIX)
    if lib and not topo:
        fix += (f"The crash is in {lib} (the first frame past the crash handler): a compiled library or extension "
                "that does not match what it runs with -- rebuild or reinstall the package that ships it against the "
                "installed framework, CUDA and NCCL versions. ")
    fix += _crash_site_fix(c, e, lib)
    if "libucs.so" in e.data.get("libs", []) and not lib and all(x in _HANDLER_LIBS for x in e.data["libs"]) and not (
            in_mpi or in_nccl or inner or topo):
        # the backtrace stops inside the crash handler's own frames (UCX's ucs_handle_error in libucs): it hides the
        # frame that faulted (round 107's hami-1219)
        fix += ("Its backtrace holds only the crash handler's own frames (UCX's libucs: ucs_handle_error), not the "
                "frame that faulted: rerun with UCX_HANDLE_ERRORS=none and core dumps on (ulimit -c unlimited) and "
                "take the real backtrace with gdb from the core; rerun with NCCL_DEBUG=INFO to see what NCCL was "
                "doing when it died. ")
    if in_mpi:
        fix += MPI_FRAMES_FIX
    if (in_nccl or inner) and not lib and not topo:
        fix += NCCL_FRAMES_FIX
        if any(_R_CUMEM_FRAME.search(f) for x in evs for f in x.data.get("funcs", [])):
            fix += NCCL_CUMEM_CRASH_FIX
    fix += _ccl_frames_fix(evs)
    if (mpi and not topo) or in_mpi:
        fix += ("" if named or in_mpi else LAUNCHER_LOGS["mpirun"]) + MPI_CRASH_FIX
    return Verdict(
        "unknown",
        f"{who} died of {sig} ({e.data.get('what') or sig}){' alike' if several else ''}, as "
        f"{'their' if several else 'its'} own crash handler reports ('{strip_prefixes(e.text)[:120]}')"
        + (f", inside {lib}" if lib else "")
        + (f", inside the MPI library ({in_mpi}() in its backtrace)" if in_mpi and not lib else "")
        + (f", inside the NCCL library (its call {in_nccl}() in the backtrace)"
           if in_nccl and not lib and not in_mpi else "")
        + (f", inside the NCCL library (its own {inner}() in the backtrace)"
           if inner and not lib and not in_mpi else "")
        + (f", in NCCL's topology code ({topo}), with no NCCL error printed" if topo else "")
        + ": a crash in native code, not a Python exception; no other failure is shown, so the lines say where it "
        "died, not why" + ("; several processes crashing the same way is a cause they share, not one rank"
                           if several else "" if named else "; the lines do not say which rank it was"),
        fix.strip(), "medium" if named else "low", named, [x.brief() for x in evs[:3]], job_wide=several)


def _native_crash_cut(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """The input ending on Open MPI's fatal-signal handler's first line ("[host:1234] *** Process received signal ***"),
    the lines naming the signal and its backtrace cut, with nothing else failing read before it: that process died of
    a fatal signal, its first failure (lead rules A, AK (2)), but neither which signal nor which rank it was is shown
    (host and pid only) -- unknown, no rank named, nobody innocent (round 105's nccl-1669). Read last, so that any
    other failure shown decides first."""
    evs = [e for e in c.samples.get("crash", []) if e.data.get("signal_cut")]
    if not evs or any(e.data.get("signal") is not None for e in c.samples.get("crash", [])):
        return None
    if c.exceptions or c.unread or any(own_errors(st) for st in c.ranks.values()) or any(
            v and k not in QUIET_KINDS and k != "crash" for k, v in c.kinds.items()):
        # another failure is shown (a traceback's exception, an MPI or NCCL error line read by no family): it is no
        # lone crash -- step aside for the readings that quote it (review 105 (2) finding 2)
        return None
    e = evs[-1]
    where = f"pid {e.data['proc']}" + (f" on {e.host}" if e.host else "")
    nccl = bool(c.kinds.get("setting") or c.kinds.get("setup") or c.kinds.get("setup_net") or
                c.kinds.get("setup_net_ib") or c.kinds.get("transport"))
    return Verdict(
        "unknown",
        f"a process ({where}) received a fatal signal, as Open MPI's crash handler reports "
        f"('{strip_prefixes(e.text)[:120]}'), and the lines stop there: the signal's name and its backtrace, which "
        "the handler prints next, are cut, and nothing else is shown failing -- the process died first, of a cause "
        "the lines do not give; they do not say which rank it was",
        f"Get the rest of the signal handler's output (the signal name, 'Signal code', 'Failing at address' and the "
        f"backtrace frames Open MPI prints after that line) from the log of {where}, and a gdb backtrace / core "
        "dump of the crashing process (ulimit -c unlimited; gdb <program> core -> bt; PYTHONFAULTHANDLER=1 for a "
        "Python process); give every rank's log (mpirun --output-filename DIR, or --tag-output to name each "
        "process's rank)"
        + ("; NCCL_DEBUG=INFO of every host (NCCL_DEBUG_SUBSYS=INIT,NET) shows how far its set-up got before the "
           "crash, and a crash there is often NCCL's own: try the newest NCCL release" if nccl else "") + ".",
        "low", [], [x.brief() for x in evs[:3]])


# generic.reading's config readings of a distributed call made before the process's own set-up ran: c10d's "Default
# process group has not been initialized", torch RPC's "RPC has not been initialized" (the call made in a process where
# init_process_group / init_rpc never ran) -- the only exceptions of a worker process read as config here
_R_SETUP_NOT_DONE = re.compile(r"(?i)\b(?:default process group|RPC) (?:has not been|is not|was not) initiali[sz]ed\b")


def _setup_not_done(said) -> tuple | None:
    """generic.reading of a worker's exception that says a distributed call ran before the process's own set-up
    (_R_SETUP_NOT_DONE); None for any other exception, and where there is none."""
    if said is None:
        return None
    text = f"{said.data['type']}: {said.data.get('message') or ''}"
    if not _R_SETUP_NOT_DONE.search(text):
        return None
    r = generic.reading([text])
    return r if r is not None and r[0] == "config" else None


def _terminated(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """C++'s "terminate called without an active exception" with nothing else that explains the lines (read last: no
    launcher record, exception, crash handler, CUDA or NCCL error): std::terminate with no exception in flight -- a
    std::thread object destroyed while still joinable, in a compiled extension or in a library's threads -- and the
    process aborts (SIGABRT). A failure, whose cause the line does not name: unknown (lead rule A's table, rule AK
    (2)); nobody is named (an abort names no rank, rule I), and several processes printing it alike share their cause
    (rules J, BG (1)): no rank's fault (round 87's trellis2-88). "terminate called after throwing an instance of"
    carries the exception and is read by its class elsewhere."""
    evs = c.samples.get("cpp_terminate", [])
    if not evs:
        return None
    several = len({(e.host, e.pid, e.rank, e.where) for e in evs}) > 1
    who = f"{len(evs)} processes" if several else "a process"
    return Verdict(
        "unknown",
        f"{who} printed 'terminate called without an active exception' ({evs[0].where}): C++'s std::terminate with "
        "no exception in flight -- a std::thread destroyed while still joinable (never joined nor detached) in a "
        "compiled extension or a library's own threads -- then abort() (SIGABRT), a native crash, not a Python "
        "exception; the line names no cause"
        + ("; several processes ending the same way share that cause (the same extension, build or step), not one "
           "rank's fault" if several else "; the lines do not say which rank it was"),
        "The abort leaves no Python traceback: take a gdb backtrace / core dump of the abort (ulimit -c unlimited; "
        "gdb python core -> thread apply all bt; or run under gdb -ex r --args python ...) to see whose thread it "
        "was, and rerun with PYTHONFAULTHANDLER=1 for the Python frame it died in. The usual sources are a compiled "
        "extension (CUDA/C++ ops, sparse conv or attention kernels) built for another torch/CUDA than the installed "
        "one -- a version mismatch: rebuild it against the installed torch/CUDA -- or a thread a library starts and "
        "does not join before exit (thread join before exit; call dist.destroy_process_group() and stop background "
        "threads at the end). Rerun with CUDA_LAUNCH_BLOCKING=1 on one GPU to see whether it follows a CUDA failure.",
        "low", [], [e.brief() for e in evs[:3]], job_wide=several)


def _worker_cut(c: Collected) -> str:
    """Lead rules BG (6), AB (2): a worker process's traceback (multiprocessing's "Process SpawnProcess-1:" header) that
    the paste cut inside its frames, before its exception (parse.input_tail's tb_cut after the header): the child's
    error text is what decides, so the fix asks for it first; a store client's retried connect warning before it is
    one attempt, no failure (rule BM (2)). Round 94's monai-5600. Not read so: a worker traceback that ends in its
    exception (its class is read), a cut traceback with no worker header (unread._cut_traceback's reading). Else ''."""
    heads = [place(e) for e in c.samples.get("worker_raised", [])]
    cut = [e for e in c.samples.get("tb_cut", []) if e.data.get("what") == "frames"
           and any(f == place(e)[0] and n < place(e)[1] for f, n in heads)]
    if not cut:
        return ""
    return ("The paste stops inside the worker's traceback (the child's frames, last "
            f"{(cut[0].data.get('func') or 'frame')[:60]}), before its exception line: give the full traceback of the "
            "failing process, down to the child's error text (the test's own error or assertion, or the library's "
            "exception) -- that names what failed; nothing in these lines does. "
            + (_connect_warned(c).strip() + " " if _connect_warned(c) else ""))


def _workers_raised(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Worker processes whose target raised (multiprocessing's "Process SpawnProcess-1:3:" header before a traceback,
    a multiprocess executor's "got fatal signal from worker processes"), read when nothing else explains the lines:
    something failed in the workers, and the exception is not in these lines. When every rank 0..N shown raised alike,
    it is no one rank's fault (lead rule J: a shared cause, the build, the GPU, the driver); otherwise the lines still
    do not say why, and nobody is named."""
    evs = c.samples.get("worker_raised", [])
    if not evs:
        return None
    raised = sorted(c.kind_ranks.get("worker_raised", set()))
    shown = sorted(c.ranks)
    alike = len(raised) >= 2 and raised == shown == list(range(len(raised)))
    said = next((x for x in c.exceptions if not x.data.get("line")), None)
    what = (f"; the exception shown is {said.data['type']}: {said.data.get('message', '')[:160]}" if said else
            "; their exceptions are not in these lines")
    who = (f"every worker shown ({_named(raised)}) raised in its process at once" if alike else
           f"{_named(raised)} raised in its process" if raised else "a worker process raised")
    setup = _setup_not_done(said)
    if setup is not None:
        return Verdict(
            "config",
            f"{who}{what.rstrip('. ')}: {setup[1]} -- every worker process is started the same way and runs the same "
            "code path, so the set-up is missing in each alike and no worker is at fault (lead rules BL (4), Q)",
            setup[2], "low", [], [said.brief()] + [e.brief() for e in evs[:2]], job_wide=True)
    return Verdict(
        "unknown",
        who + (" -- every rank failing the same way together is a shared cause (the torch/CUDA/NCCL build for this "
               "GPU, the driver, the environment), not one rank's fault" if alike else "")
        + what,
        (f"Fix the {said.data['type']} the traceback ends in (read its frames above that line: the call that "
         "raised it, e.g. the file or key it names). " if said else "")
        + (_fmt_error_fix(said) if said else "")  # torch's own message failing to format hides the real error
        + ("" if said else torn_down_fix(c))  # a worker's SIGTERM record beside them: their teardown (rule A)
        + ("" if said else _worker_cut(c))
        + "Read the workers' full tracebacks (the lines after each 'Traceback (most recent call last):' up to the "
        "exception): they name the failing call. When every worker fails alike at start-up, check that the installed "
        "torch / vLLM / CUDA / NCCL builds support this GPU and driver (a new GPU architecture needs a build for it: "
        "upgrade torch), and rerun with NCCL_DEBUG=INFO if it fails while the communicator (pynccl) is set up.",
        "low", [], [e.brief() for e in evs[:3]])


def _several(c: Collected, ranks: list[int], codes: list[int], fails: list[Event]) -> Verdict:
    """Several processes failed on their own (lead rule A extended): each is a culprit, the ranks torchrun
    only stopped afterwards (SIGTERM, or SIGKILL after its grace period) are innocent."""
    down = sorted({e.rank for e in torn_down(c) if e.rank is not None} - set(ranks))
    # the ranks ending after another's native crash, not named (lone.crash_ends: a peer's SIGABRT, the teardown's
    # SIGKILLs; review 105 (1) finding 3, review 105 (2) finding 1)
    after = [e for e in failed_on_own(c) if (e.rank if e.rank is not None else e.data.get("local_rank")) not in ranks
             and e.data.get("exitcode") is not None]
    if after:
        codes = sorted({e.data["exitcode"] for e in failed_on_own(c) if e not in after
                        and e.data.get("exitcode") is not None})
    sig = ", ".join(SIGNALS.get(-x, f"signal {-x}") for x in codes if x < 0)
    late = sorted({x for e in after for x in [e.data["exitcode"]]})
    what = (f"{_named(ranks)} failed on {'their' if len(ranks) > 1 else 'its'} own"
            + (f" (exit code {', '.join(map(str, codes))}" + (f": {sig}" if sig else "") + ")" if codes else "")
            + (f"; {_named(sorted({e.rank if e.rank is not None else e.data['local_rank'] for e in after}))} ended "
               f"after that crash (exit code {', '.join(map(str, late))}: "
               + ", ".join(SIGNALS.get(-x, f"signal {-x}") for x in late)
               + "): " + ("an abort once a peer's crash took its communicator down (NCCL's watchdog, 'terminate "
                          "called')" if -6 in late else "")
               + (" and " if -6 in late and set(late) - {-6} else "")
               + ("the launcher's teardown of the job" if set(late) - {-6} else "")
               + (", not failures of their own" if len(after) > 1 else ", not a failure of its own") if after else "")
            + (f"; {_named(down)} were only stopped by the launcher afterwards (SIGTERM, then SIGKILL after its grace "
               "period): victims of the teardown, not failures" if down else "")
            + (". The cause is those processes' own tracebacks, which these lines do not hold" if len(ranks) > 1 else
               ". The cause is that process's own traceback, which these lines do not hold"))
    native = [x for x in codes if x in NATIVE_CRASH]
    launcher = _launcher(fails)
    kill = (_KILL_BESIDE if -9 in codes and native else "")
    if launcher in LAUNCHER_LOGS:
        return Verdict("unknown", what, (fpe_fix(c) if -8 in codes else "") + (native_fix(codes) if native else "")
                       + kill
                       + LAUNCHER_LOGS[launcher], "medium", ranks,
                       [e.brief() for e in fails[:4]])
    # an expert's last resort where no worker's exception is in the lines: one process without the launcher prints
    # it (round 110's llmzoo-42, two workers' exit 1 in one second)
    return Verdict("unknown", what,
                   (fpe_fix(c) if -8 in codes else "") + (native_fix(codes) if native else "") + kill
                   + f"Read the tracebacks of {_named(ranks)} (their stderr, or "
                   "torchrun --log-dir / --redirects 3 --tee 3 to keep one file per rank): the first error there is "
                   "the cause; decorate the entry point with torch.distributed.elastic.multiprocessing.errors.@record "
                   "so "
                   "torchrun's summary carries each exception (error_file instead of <N/A>). If they do not show, "
                   "run with one GPU to reproduce the exception: the same script and config without the launcher, "
                   "one process, prints its traceback to the terminal.",
                   "medium", ranks, [e.brief() for e in fails[:4]])


NATIVE_CRASH = (-11, -4, -8)  # SIGSEGV, SIGILL, SIGFPE: the process crashed in native code
# a SIGKILL beside another process's native crash: a kill from outside of its own (rule A's table: -9), not the crash
_KILL_BESIDE = ("The SIGKILL (-9) is a kill from outside, not the crash: check host memory and the OOM killer on that "
                "node (dmesg -T | grep -i 'killed process', free -h) for the killed rank, and reduce host memory per "
                "rank (fewer DataLoader workers, smaller batch) if it ran out. ")
# Windows: a process ended by an unhandled native exception exits with its NTSTATUS (severity "error": 0xC...)
_NTSTATUS_ERROR = 0xC0000000
_NTSTATUS = {0xC0000005: "access violation", 0xC000001D: "illegal instruction", 0xC0000094: "integer divide by zero",
             0xC00000FD: "stack overflow", 0xC0000135: "a DLL not found", 0xC0000374: "heap corruption",
             0xC0000409: "stack buffer overrun / fail-fast"}

# Where a launcher other than torchrun keeps each rank's own output (its record names the rank, its lines the cause).
LAUNCHER_LOGS = {
    "mpiexec (PALS)": ("PALS's mpiexec (HPE Cray: Polaris, Aurora) names the rank and how it ended, not why: read that "
                       "rank's own lines (mpiexec --line-buffer with a per-rank prefix, or the application's own "
                       "per-rank log) for its first error; the ranks that 'died from signal 15' after it were only "
                       "torn down."),
    "Lightning's subprocess launcher": ("Lightning's launcher names the child process that ended ('[rank: N] Child "
                                        "process with PID P terminated with code C', N its local rank), not why: "
                                        "read that rank's own traceback above it in the console output; with "
                                        "devices=1 the same error shows without the other processes."),
    "srun": ("srun's record names the task (SLURM_PROCID, the rank), not why it exited: read that task's own output "
             "for its traceback (srun --output=job-%j-%t.out / --label keep one file or one prefix per task; sacct -j "
             "JOB shows the step's exit codes); the tasks srun killed after it were only torn down."),
    "mpirun": ("mpirun's record names the rank, not why it died: read that rank's own log (mpirun --tag-output "
               "prefixes each line with [job,rank], --output-filename DIR keeps one file per rank) for its last "
               "lines."),
    "horovodrun": ("horovodrun tags each worker's output with its rank ([N]<stdout>: / [N]<stderr>:): read the failed "
                   "rank's own lines for its traceback; horovodrun --output-filename DIR keeps each rank's output in "
                   "its own file, and --verbose shows how the processes were placed on the hosts (-H host1:2,host2:2 "
                   "or --hostfile: check the ranks ran where they were meant to)."),
    "Paddle's launch_utils": ("Paddle's launcher shows only trainer 0's output on the console and writes each "
                              "trainer's to its own file, log/workerlog.N (under --log_dir): read the failed "
                              "trainers' workerlog for their first error; the other trainers were only terminated "
                              "by the launcher."),
    "paddle.distributed.launch": ("paddle.distributed.launch names the failed worker's own log file beside its exit "
                                  "code (log/workerlog.N, under --log_dir): read its first error there."),
    "DeepSpeed's runner": ("The caller got only the status DeepSpeed's runner passed on: read the run's own output "
                           "(the log the deepspeed command wrote, e.g. the step's training.log) for the worker's last "
                           "lines, and its launcher's '[ERROR] ... exits with return code = N' line; deepspeed "
                           "--enable_each_rank_log DIR keeps one log per rank."),
    "SGLang's launcher": ("SGLang's launcher names the scheduler process (its TP rank on this node) that ended before "
                          "the server was ready, and its exit code: read that scheduler's own lines above it (SGLang "
                          "prefixes them [time TPn]) for its last error; exit code -9 is a kill from outside (dmesg "
                          "-T for the OOM killer)."),
    "the model server's launcher (TGI / LoRAX)": (
        "The model server's launcher names the shard (rank=N of --num-shard) and the signal that ended it, not why: "
        "the shard's own stderr follows its 'Shard complete standard error output:' line, and each shard's log; "
        "signal 7 (SIGBUS) is the shared memory the shards map (/dev/shm) running out, signal 9 a kill from outside "
        "(dmesg -T for the OOM killer)."),
    "Ray Train": ("Ray Train's record ('Worker N has failed.') names the training worker whose actor died, by its "
                  "world rank, not why: read that worker's own output in the ray worker logs (ray logs worker-*.err "
                  "on its node, /tmp/ray/session_latest/logs) for its traceback, and on that node dmesg -T for the "
                  "OOM killer (host memory; Ray's memory monitor kills workers above RAY_memory_usage_threshold)."),
    "Vertex AI": ("Vertex AI's record names the replica that failed (workerpoolN-M: replica M of worker pool N, a "
                  "machine that runs one or more ranks), not a rank nor why: its message carries only the head of "
                  "that replica's traceback, so read the replica's own log in Cloud Logging (the custom job's logs, "
                  "filtered by that replica) for the full traceback and its exception; a status of 9 (SIGKILL) is "
                  "host memory running out on that machine."),
    "torch.multiprocessing.spawn": ("mp.spawn's parent re-raises the first child's error as '-- Process N terminated "
                                    "with the following error:', that child's own traceback below it: process N is "
                                    "its index on this host; the children spawn stopped after it were only torn "
                                    "down. A child's own Python exception (its code, not a collective's error) "
                                    "reproduces without spawn: debug with a single process (nprocs=1, or the worker "
                                    "function called directly in one process)."),
    "torch.distributed.launch": ("torch 1.x's torch.distributed.launch raises CalledProcessError with the command of "
                                 "the last worker it started, not the failed one's: read the workers' own output "
                                 "above its traceback; torchrun --log-dir DIR --redirects 3 --tee 3 in its place keeps "
                                 "one log per rank."),
    "accelerate's simple_launcher": ("accelerate's simple_launcher ran the script as its one process (no --multi_gpu): "
                                     "its CalledProcessError carries only the exit status; the script's own "
                                     "traceback printed above it says why (killed by a signal: dmesg -T on the host)."),
    # a unit test's harness, not a training launcher: the test that failed is the thing to rerun, alone
    "PyTorch's test harness": ("PyTorch's MultiProcessTestCase names the test process that exited by its pid, not "
                               "its rank: run the failing test alone (pytest FILE::CLASS::TEST, the FAILED line's id) "
                               "with TORCH_SHOW_CPP_STACKTRACES=1 and TORCH_DISTRIBUTED_DEBUG=DETAIL, and read the "
                               "crashed process's own stderr above the harness's assertion; a negative exit code is "
                               "the signal that killed it (-11: SIGSEGV, a native crash in the backend or its "
                               "collective library: check its build against the installed torch)."),
}
# A native crash of a process mpirun started, with no error of its own shown: MPI's transport (UCX) runs inside it.
MPI_CRASH_FIX = (" A native crash of an MPI-launched process with no error of its own can be MPI's transport: with "
                 "Open MPI over UCX rerun with -x UCX_TLS=tcp (or UCX_NET_DEVICES=<the interface>) or --mca pml ob1 to "
                 "rule it out, run an MPI hello-world across the same hosts or containers first, and compare the NCCL "
                 "and driver versions on the failed rank's node with the others'.")


# a native crash whose backtrace is in MPI's own functions (ompi_dpm_..., PMPI_Comm_...): the MPI library, how the
# ranks were started for it, or the build torch links against -- the same for every rank
MPI_FRAMES_FIX = ("The backtrace is inside the MPI library (Open MPI / HPC-X): with torch's MPI backend launch every "
                  "rank with mpirun (mpirun -np N python train.py, not torchrun or python alone, so that MPI_Init "
                  "sees its job), check that LD_LIBRARY_PATH loads the MPI build torch was compiled against (ldd on "
                  "torch's libtorch_cpu.so | grep mpi), rule out the HPC-X MPI by running with another Open MPI "
                  "build, and get a full backtrace with gdb (a core dump) for the MPI developers.")

# a native crash whose backtrace is in NCCL's own functions with no NCCL error text (lead rule AK (2): the cause stays
# unknown): what the NCCL library the process loaded is -- the usual suspects are a second libnccl shadowing torch's
NCCL_FRAMES_FIX = ("The backtrace is inside the NCCL library (its own functions, no NCCL error printed): check which "
                   "libnccl the process loads and its NCCL version (NCCL_DEBUG=INFO prints 'NCCL version'; ldd / "
                   "lsof -p PID | grep libnccl), look for another libnccl.so on LD_LIBRARY_PATH shadowing the one "
                   "torch was built with (a version mismatch between nodes or with the container image), reinstall "
                   "or upgrade NCCL (the nvidia-nccl wheel torch pins), and get a symbolised backtrace (gdb on a core "
                   "dump, NCCL_DEBUG=INFO) for NVIDIA/nccl. ")

# a native crash in NCCL's cuMem code (its frames ncclCuMemHostEnable / ncclCuMemAlloc over the driver's cuMemCreate,
# at communicator creation or its first buffer): the CUDA driver's virtual-memory (cuMem) allocation, host memory
# included since NCCL 2.23, failing inside the driver -- NCCL's own switches turn that path off
_R_CUMEM_FRAME = re.compile(r"^(?:ncclCuMem\w{0,40}|cuMem(?:Create|Map|SetAccess|ExportToShareableHandle|"
                            r"ImportFromShareableHandle|AddressReserve))\b")
NCCL_CUMEM_CRASH_FIX = (
    "The crash is in NCCL's cuMem path (its frames reach the driver's cuMem* calls): NCCL allocates its buffers, and "
    "since 2.23 its host memory, through the CUDA driver's cuMem API, and on some driver / NUMA layouts (or a "
    "container / IOMMU setting that does not support it) the driver crashes there. Turn the path off to confirm: "
    "NCCL_CUMEM_HOST_ENABLE=0 for the host allocation (or NCCL_CUMEM_ENABLE=0 for all of it) in every process's "
    "environment; then update the NVIDIA driver to match the CUDA / NCCL version (a newer driver branch fixes cuMem "
    "host allocation), or try another NCCL version (the one the framework ships with). ")


def _paddle_files(launcher: str | None, ranks: list[int]) -> str:
    """The workerlog files of the trainers Paddle's launch_utils lists as failed: it writes trainer i of a node to
    log/workerlog.i, i its index on the node (its global rank where one node runs the job)."""
    if launcher != "Paddle's launch_utils" or not ranks:
        return ""
    files = ", ".join(f"log/workerlog.{r}" for r in ranks[:8]) + (" ..." if len(ranks) > 8 else "")
    return (f" The failed trainers' own files: {files} (the number is the trainer's index on its node, its rank "
            "where one node runs the job); a crash in native code prints its signal line above its stack there (a core "
            "dump and gdb bt show the frame).")


def _record_log(fails: list[Event], ranks: list[int]) -> str:
    """The file a launcher's record names as the failed worker's own output (paddle.distributed.launch's "... code 1
    log log/workerlog.1"): where that worker's traceback is, named as the record wrote it. One failed rank only."""
    logs = {e.data["log_file"] for e in fails if e.data.get("log_file")}
    if len(logs) != 1 or len(ranks) != 1:
        return ""
    return (f" Its record names that file: {logs.pop()} -- rank {ranks[0]}'s own traceback, the exception that "
            "exited it, is there (its first error line).")


def _launcher(fails: list[Event]) -> str | None:
    """The launcher whose record the failures come from, when it is not torchrun's (mpirun, horovodrun)."""
    names = {e.data.get("launcher") for e in fails}
    return names.pop() if len(names) == 1 and None not in names else None


# A lone worker's own exception from an HTTP client: a download's connection, not the job's.
_HTTP_FIX = ("The connection that failed is a download's (the Hugging Face hub, wandb, a dataset URL), not a peer "
             "rank's: pre-download the model and data into the cache before the launch (huggingface-cli download) and "
             "run with HF_HUB_OFFLINE=1, or retry; check the node's network, proxy and the server's rate limit. ")
# A failed process's traceback ending in huggingface_hub's download (signatures.R_HUB_DOWNLOAD_FRAME): it failed
# fetching the model or a file from the Hub, every replica doing the same at start-up
_HUB_FIX = ("Its traceback goes{via} into huggingface_hub's download ({frame}): it failed downloading the model or a "
            "file from the Hugging Face Hub (the exception itself is cut off). Download the model once before "
            "training (huggingface-cli download on the chief, or into local storage / GCS) and load it from that "
            "path with local_files_only=True or HF_HUB_OFFLINE=1, so no replica fetches it at start-up; check the "
            "machine's access to huggingface.co (egress, proxy), HF_TOKEN for a gated model, and retry the "
            "download. ")
# What an expert asks for after a SIGABRT that is not the watchdog's: abort() came from native code or the
# interpreter itself, and the evidence is that rank's stderr, its C++/Python stacks at the abort and a core dump.
NATIVE_ABORT_FIX = ("A SIGABRT with no Python traceback is abort() in native code or in the interpreter: read that "
                    "rank's whole stderr for the line just before it (a 'Fatal Python error: ...' is the interpreter "
                    "or a C extension crashing, 'terminate called after throwing' an uncaught C++ exception, a failed "
                    "assertion); rerun with PYTHONFAULTHANDLER=1 (python -X faulthandler) for the Python stack at the "
                    "abort, TORCH_SHOW_CPP_STACKTRACES=1 for the C++ one and core dumps enabled (ulimit -c unlimited; "
                    "gdb python core -> bt); upgrade or downgrade the C extension (or the driver/ROCm/CUDA library) in "
                    "those frames. ")
# in a distributed job abort() is also how torch's NCCL watchdog ends a process (a collective timeout or an NCCL error
# it caught, TORCH_NCCL_ASYNC_ERROR_HANDLING's teardown): its lines, if any, stand in that rank's stderr just before
# the abort (round 92's finetrainers-350: a lone -6 in torchrun's record). Not where the lines show the interpreter's
# own check aborting (_interpreter_own: no signal from outside). WATCHDOG_ABORT is the fact, said once for the cause
# (signal_exit's -6 sentence) and the fix.
WATCHDOG_ABORT = "SIGABRT is how torch's NCCL watchdog ends a process after a collective timeout or an NCCL error"
# a native frame of torch's NCCL watchdog thread (a core's or a crash handler's backtrace): ProcessGroupNCCL's
# ncclCommWatchdog / watchdogHandler / Watchdog::run, WorkNCCL::handleException (the rethrow that terminates)
_R_WATCHDOG_FRAME = re.compile(r"ProcessGroupNCCL::(?:ncclCommWatchdog|watchdogHandler|Watchdog::run)|"
                               r"WorkNCCL::handleException|ProcessGroupNCCL::HeartbeatMonitor")
WATCHDOG_CORE_FIX = (
    "Read that process's stderr (or torchrun's per-rank log) for the watchdog's own line just before the abort: "
    "'Watchdog caught collective operation timeout: WorkNCCL(SeqNum=N, OpType=...)' (a collective that did not "
    "complete: the rank that never entered it is the culprit, this one its victim) or 'Some NCCL operations have "
    "failed or timed out' / an NCCL error (its communicator failed); give every rank's log to ncclDoctor diagnose. "
    "Rerun with the Flight Recorder on (TORCH_FR_BUFFER_SIZE=2000; TORCH_NCCL_DUMP_ON_TIMEOUT=1 on older torch) and "
    "NCCL_DEBUG=INFO so each rank dumps what it was doing; a std::terminate in the frames is the watchdog's "
    "rethrow, not a broken libstdc++ -- no package needs rebuilding for it.")
ABORT_FIX = (NATIVE_ABORT_FIX + f"In a distributed job {WATCHDOG_ABORT} (its 'Watchdog caught collective operation "
             "timeout' / ProcessGroupNCCL lines in that rank's stderr): rerun with NCCL_DEBUG=INFO and "
             "TORCH_DISTRIBUTED_DEBUG=DETAIL for its reason, and read dmesg for GPU Xid errors on that host. ")


# SIGILL: the CPU (or GPU) met an instruction it does not have: a binary built for another machine
ILL_FIX = ("SIGILL (Illegal instruction) means the process ran code built for another CPU (an AVX/AVX-512 instruction "
           "set this node's CPU lacks) or GPU architecture: rebuild or reinstall the package for this CPU (or from "
           "source on that node), and run the same image / build on every node; `grep -o 'avx[^ ]*' /proc/cpuinfo` "
           "on the failing node against the others shows the difference. ")
# SIGFPE: the CPU trapped an arithmetic fault, in practice an integer division (or modulo) by zero in native code
FPE_FIX = ("SIGFPE (Floating point exception, exit code -8) is in practice an integer division or modulo by zero in "
           "native code (a kernel or extension given an empty tensor, a zero batch or shard size, a world or group "
           "size that divides to 0), rarely a floating-point trap: check that no rank gets an empty share of the data "
           "or the model; run the worker with python -X faulthandler or under gdb to get the native frame of the "
           "SIGFPE (a core dump's backtrace names the operation), check dmesg for 'trap divide error' naming the "
           "library (the kernel's line names the .so the division was in), and reproduce on one GPU with "
           "CUDA_LAUNCH_BLOCKING=1 to find the failing batch. ")
# ... and one known case, said only where the lines name cuBLAS / cublasLt or that GPU (review 110 b #7; round 110's
# vlm-r1-71: a crash handler's frames in cublasLt on an H20 host)
_FPE_CUBLAS = ("A known one is in a CUDA math library: cuBLASLt's gemm heuristics dividing by zero on a GPU newer "
               "than the cuBLAS a torch build bundles (H20 / Hopper) -- a newer nvidia-cublas-cu12 or a torch build "
               "with a newer CUDA fixes it; check torch / CUDA / driver versions for the GPU. ")
_R_FPE_CUBLAS = re.compile(r"cublas|(?<![A-Za-z0-9])H(?:20|100|200|800)(?![0-9])|\bHopper\b", re.I)


def fpe_fix(c: Collected) -> str:
    """FPE_FIX, with the cuBLASLt / H20 words where an event's text, host or native frames name cuBLAS or that GPU."""
    def said(x) -> bool:
        return bool(_R_FPE_CUBLAS.search(x.text) or (x.host and _R_FPE_CUBLAS.search(x.host)) or any(
            _R_FPE_CUBLAS.search(str(f)) for k in ("funcs", "files", "libs") for f in (x.data.get(k) or [])))
    evs = [x for v in c.samples.values() for x in v] + c.exceptions + c.child_failures + c.worker_failures
    return FPE_FIX + (_FPE_CUBLAS if any(said(x) for x in evs) else "")


NATIVE_FIX = ("A segmentation fault (SIGSEGV) or another native crash leaves no Python traceback: "
              "rerun with PYTHONFAULTHANDLER=1 (python -X faulthandler) for the Python stack at the crash and with "
              "core dumps enabled (ulimit -c unlimited) for the native one, a gdb backtrace / core dump (gdb python "
              "core -> bt); the usual cause is a "
              "version mismatch: a compiled extension (the project's CUDA/C++ ops, mmcv, apex) built for another "
              "torch/CUDA/gcc than the installed one, so rebuild compiled ops against the installed torch/CUDA. ")

# NATIVE_FIX after FPE_FIX, which already gave the faulthandler / gdb backtrace: the rest, said once (review 110 b #7)
_NATIVE_AFTER_FPE = ("A segmentation fault (SIGSEGV) or another native crash leaves no Python traceback either (the "
                     "faulthandler / gdb backtrace above shows its frame); the usual cause is a version mismatch: a "
                     "compiled extension (the project's CUDA/C++ ops, mmcv, apex) built for another torch/CUDA/gcc "
                     "than the installed one, so rebuild compiled ops against the installed torch/CUDA. ")


def native_fix(codes) -> str:
    """NATIVE_FIX, without its backtrace sentence where SIGFPE's words (FPE_FIX, said before it) already gave it."""
    return _NATIVE_AFTER_FPE if -8 in codes else NATIVE_FIX


# ... and for a worker a distributed launcher recorded dying so: NCCL's own log shows whether it crashed in the
# communicator's set-up (GPU peer-to-peer, the transport) or in the job's code; mismatched builds are the usual cause
NATIVE_WORKER_FIX = ("For a launcher's worker, rerun with NCCL_DEBUG=INFO to see where the worker crashed (in NCCL's "
                     "set-up -- GPU peer-to-peer (try NCCL_P2P_DISABLE=1), its transport -- or in the job's own "
                     "code), and check that the torch / NCCL / CUDA driver versions match. ")


def _sglang_crash(c: Collected, ks: list[Conclusion]) -> Verdict | None:
    """Lead rules A and I: older SGLang's own record of one process's crash ("[.. TP4] Exception in run_tp_server:",
    its traceback after it), the paste cut before the exception's own line: that process failed on its own, and with
    no DP/PP index its TP index is its rank (SGLang inits the world with rank = tp_rank). Only when it is the one
    process shown crashing and no exception text is shown (one shown is read by its own rules); the other TP
    processes are not shown failing, so none is proven innocent."""
    evs = c.samples.get("sglang_crash", [])
    tps = {e.data["tp"] for e in evs}
    if len(tps) != 1 or any(e.data["grouped"] for e in evs) or any(not e.data.get("line") for e in c.exceptions):
        return None
    if any(own_errors(st) for st in c.ranks.values()):
        return None
    e = evs[0]
    r = e.data["tp"]
    return Verdict(
        "unknown",
        f"SGLang's record shows TP{r} (rank {r}) alone raising an exception in {e.data['where']} ({e.where}): that "
        "process failed on its own and the server stopped after it; the paste ends before the exception's own line, "
        "so why it failed these lines do not say",
        f"Read the full traceback of TP{r} (rank {r}'s own process): its last line names the error. Where its frames "
        "are in cuda_graph_runner (capturing CUDA graphs at start-up), retry with --disable-cuda-graph, a smaller "
        "--cuda-graph-max-bs or a lower --mem-fraction-static (graph capture needs free GPU memory beside the KV "
        "cache); out of memory on that one GPU: check nvidia-smi for another process on it.",
        "medium", [r], [e.brief()])


def _raised_under(c: Collected, ev) -> bool:
    """An exception line of the same input a few lines under ``ev`` (a DataLoader's re-raise line): its traceback goes
    on to the exception it re-raises, shown in the lines -- not cut at the re-raise (review 92 s1 #14)."""
    path, _, at = ev.where.rpartition(":")
    if not at.isdigit():
        return False
    for e in c.exceptions:
        p, _, n = e.where.rpartition(":")
        if p == path and n.isdigit() and 0 < int(n) - int(at) <= 8:
            return True
    return False
