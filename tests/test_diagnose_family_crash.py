"""How diagnose reads a rank's own hard failure (ncclDoctor/diagnose/verdict/: cuda.py, memory.py,
exits.py, signals.py and launch.py's launch checks): CUDA errors, GPU and
host OOMs (Ray's memory monitor too), a native crash inside libnccl, the launcher's records of a rank that
exited (torchrun's failure summary and agent lines, the lead's labelling rule A: the lone first failure, Ray's
dead worker), and signals from outside (a kill after the SIGTERM grace, Slurm preemption and requeue).

Each test reads a family that a blind round (10 to 16, issue #14) missed, from lines other than the corpus
case's own: another version's wording, rank, host, launcher or numbers. Format strings are torch's, NCCL's,
UCX's, Ray's, Slurm's and submitit's (sources beside each test); numbers, hosts, pids and paths are made up.
A test sits in the family of the detector that decides the verdict it asserts; a test that a verdict is NOT
given sits beside the test of that verdict. The other families: test_diagnose_family_fabric.py,
test_diagnose_family_hang.py, test_diagnose_family_quiet.py."""

from __future__ import annotations

import pytest

from ncclDoctor.diagnose import diagnose
from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict
from tests.conftest import failure_record, nccl_info, watchdog_line


# --- CUDA errors: the CUDA call NCCL or torch names decides the fix -----------------------------------------------
# cudaErrorInvalidDeviceFunction ("invalid device function": the kernel is not compiled for this device's
# architecture) at NCCL's first kernel launch (enqueue.cc's CUDACHECK): the build every rank runs lacks code for the
# GPU.
def _arch_run(host: str, pids: tuple[int, int], version: str, warn: str, line: int = 197) -> str:
    a, b = pids
    return (nccl_info(host, a, 0, "Bootstrap : Using [0]eth0:10.1.0.7<0>") + f"NCCL version {version}\n"
            + nccl_info(host, b, 1, "Bootstrap : Using [0]eth0:10.1.0.7<0>")
            + nccl_info(host, a, 0, "Using 256 threads, Min Comp Cap 8, Trees disabled", a + 30)
            + nccl_info(host, b, 1, "comm 0x7fab54002730 rank 1 nranks 2 cudaDev 1 nvmlDev 1 - Init COMPLETE", b + 30)
            + f"{host}:{b}:{b} [1] enqueue.cc:{line} NCCL WARN Cuda failure '{warn}'\n"
            + nccl_info(host, b, 1, "misc/group.cc:148 -> 1"))


def test_a_kernel_not_built_for_the_gpu_is_the_build_not_a_rank(tmp_path):
    """Lead rule V (2): NCCL 2.4.8+cuda10.1 initialises on compute capability 8 GPUs, then its first kernel launch
    fails with 'invalid device function': the build has no code for that architecture, shared by every rank."""
    d = _report(tmp_path, _arch_run("ubuntu", (107847, 107848), "2.4.8+cuda10.1", "invalid device function"))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("cuda_error", []) and not _accused(d), v
    assert "compute capability" in v["fix"] and "CUDA 11" in v["fix"], v


def test_a_kernel_not_built_for_the_gpu_in_other_wordings_and_ranks(tmp_path):
    """The same shape: another NCCL build on another host, and torch's own 'CUDA error: invalid device function'
    printed under a launcher's rank prefix (rank 3): no rank is at fault."""
    d = _report(tmp_path, _arch_run("gpu-a7", (5120, 5121), "2.7.8+cuda10.2", "invalid device function", 215))
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("cuda_error", []) and not _accused(d), d["verdict"]
    assert "CUDA 11" in d["verdict"]["fix"], d["verdict"]
    text = ("[rank3]: Traceback (most recent call last):\n"
            "[rank3]:   File \"train.py\", line 88, in <module>\n"
            "[rank3]: RuntimeError: CUDA error: invalid device function\n"
            "[rank3]: CUDA kernel errors might be asynchronously reported at some other API call\n")
    d = _report(tmp_path, text, "torch.log")
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("cuda_error", []) and not _accused(d), d["verdict"]


def test_a_cuda_extensions_own_check_of_a_kernel_without_code_for_the_gpu_is_the_build(tmp_path):
    """Round 58: a project's compiled CUDA extension checks its launch with the CUDA_CHECK_ERRORS macro PointNet++
    spread ("CUDA kernel failed : %s" then the wrapper and "at L:%d in %s"), printed once per worker with no rank:
    'invalid device function' is the extension built without code for this GPU (lead rule AT (1)): cuda_error,
    nobody named, the fix rebuilds the extension for the GPU's architecture."""
    text = "".join("CUDA kernel failed : invalid device function\n"
                   "void three_nn_kernel_wrapper_fast(int, int, int, const float*, const float*, float*, int*) "
                   "at L:62 in pointnet2/src/interpolate_gpu.cu\n" for _ in range(3))
    text += "Traceback (most recent call last):\n  File \"tools/train.py\", line 40, in <module>\n"
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("cuda_error", []) and not _accused(d), v
    assert "TORCH_CUDA_ARCH_LIST" in v["fix"] and "invalid device function" in v["summary"], v


def test_an_illegal_memory_access_at_the_same_place_still_names_the_rank(tmp_path):
    """The near shape: the same run failing with 'an illegal memory access was encountered' is that rank's own
    fault (its kernel or its GPU), and 'invalid device ordinal' is not a build without the GPU's code."""
    d = _report(tmp_path, _arch_run("ubuntu", (107847, 107848), "2.4.8+cuda10.1",
                                    "an illegal memory access was encountered"))
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("cuda_error", [1]), d["verdict"]
    d = _report(tmp_path, _arch_run("ubuntu", (107847, 107848), "2.4.8+cuda10.1", "invalid device ordinal"),
                "ordinal.log")
    assert "architecture" not in d["verdict"]["summary"], d["verdict"]


def test_two_terminate_headers_run_into_one_line_are_two_processes_failing_alike(tmp_path):
    """universal-llm-trainer: two processes' std::terminate headers on one CUDA error run into one line ('terminate
    called after throwing an instance of' twice: one process's second terminate says 'terminate called recursively'),
    then rank 1's watchdog shows the same error and mp.spawn reports process 1's SIGABRT: every process shown failed
    alike on its own (rules J, AM (2)): cuda_error, nobody named. The near shape, one terminate header: rank 1's own
    tagged error names it."""
    tail = ("  what():  CUDA error: an illegal memory access was encountered\n"
            "[rank1]:[E409 05:10:01.930967482 ProcessGroupNCCL.cpp:1595] [PG ID 0 PG GUID 0(default_pg) Rank 1] "
            "Process group watchdog thread terminated with exception: CUDA error: an illegal memory access was "
            "encountered\n"
            "terminate called recursively\n"
            "torch.multiprocessing.spawn.ProcessExitedException: process 1 terminated with signal SIGABRT\n")
    two = ("terminate called after throwing an instance of 'terminate called after throwing an instance of "
           "'c10::Errorc10::Error'\n'\n")
    d = _report(tmp_path, two + tail)
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("cuda_error", []) and not _accused(d), d["verdict"]
    d = _report(tmp_path, "terminate called after throwing an instance of 'c10::Error'\n" + tail, "one.log")
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("cuda_error", [1]), d["verdict"]


# --- session 17 (round 52): a CUDA failure printed by another library's own logger (lead rule AC (1)) -----------------
# PhysX's error callback prints "FILE (LINE) : internal error : MESSAGE" (Isaac Gym's GPU pipeline, PxgCudaUtils.h's
# checks of the driver API) and, for a failed copy, the CUDA error code alone on the next line; paths, line numbers,
# calls and the code here are made up or varied.
def _physx(calls: tuple[str, ...], code: int, tail: str = "Segmentation fault (core dumped)\n") -> str:
    src = "/builds/agent/7f3c/source/gpucommon"
    return ("".join(f"{src}/include/PxgCudaUtils.h ({40 + i}) : internal error : SynchronizeStreams {call} failed\n\n"
                    for i, call in enumerate(calls))
            + f"{src}/src/PxgSolverCore.cpp (911) : internal error : memcpy failed fail!\n  {code}\n\n" + tail)


def test_a_physics_engines_failed_cuda_calls_are_a_cuda_error_its_library_placed(tmp_path):
    """Isaac Gym's PhysX reporting failed CUDA driver calls and a copy failing with 700 (illegal address), then the
    process segfaulting, no rank named: a CUDA error of a process nobody names, not a bare SIGSEGV; the fix gives each
    rank's simulator its own GPU."""
    for calls, code in ((("cuEventRecord", "cuStreamWaitEvent"), 700), (("cuLaunchKernel",), 700)):
        d = _report(tmp_path, _physx(calls, code))
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("cuda_error", []) and not _accused(d), v
        assert "illegal" in v["summary"] and "CUDA error 700" in v["summary"], v["summary"]
        assert "sim_device" in v["fix"] and "one GPU per process" in v["fix"] and "CUDA_LAUNCH_BLOCKING=1" in v["fix"]


def test_a_cuda_error_code_or_enum_in_a_librarys_own_line_is_a_cuda_error(tmp_path):
    """Another library's logger naming the CUDA error by its bare code or its enum alone (no torch 'CUDA error:'
    text): read as CUDA's own, its meaning in words."""
    for line, word in (("[warp] error: CUDA error 700 in wp_launch_kernel (sim.py:212)\n", "illegal"),
                       ("simulator: internal error: kernel failed with cudaErrorIllegalAddress\n", "illegal"),
                       ("physx error: stream sync returned CUDA_ERROR_LAUNCH_FAILED\n", "launch failed")):
        d = _report(tmp_path, line + "Segmentation fault (core dumped)\n")
        v = d["verdict"]
        assert v["cause"] == "cuda_error" and not _accused(d), (line, v)
        assert word in v["summary"], (line, v["summary"])


def test_a_librarys_failure_with_no_cuda_call_or_code_stays_a_bare_segfault(tmp_path):
    """The near shape: the same library's lines naming no CUDA call, code or enum (a pinned-memory warning, its own
    'simulate failed'), and a number alone under a line that is no CUDA failure, before a segfault: no CUDA error."""
    text = ("/builds/x/PxgCudaMemoryAllocator.cpp (59) : warning : Failed to allocate pinned memory.\n"
            "/builds/x/NpScene.cpp (3120) : internal error : PxScene::simulate failed\n  700\n"
            "Segmentation fault (core dumped)\n")
    d = _report(tmp_path, text)
    assert d["verdict"]["cause"] != "cuda_error" and not _accused(d), d["verdict"]


def test_a_cuda_graph_capture_failure_names_cuda_graphs(tmp_path):
    """NCCL's strongstream.cc CUDACHECK: "Cuda failure '%s'" with cudaErrorStreamCaptureInvalidated's text."""
    line = ("h:1:2 [1] misc/strongstream.cc:409 NCCL WARN Cuda failure 'operation not permitted when stream is "
            "capturing'\n")
    v = _verdict(tmp_path, line)
    assert v["cause"] == "cuda_error", v
    assert "CUDA graph" in v["fix"] or "cuda graph" in v["fix"].lower()


def test_an_illegal_access_at_nccls_own_launch_says_upgrade_nccl(tmp_path):
    """NCCL's enqueue.cc CUDACHECK after its kernel launch: "Cuda failure %d '%s'" (2.2x)."""
    line = "gpu-3:991:991 [1] enqueue.cc:1620 NCCL WARN Cuda failure 700 'an illegal memory access was encountered'\n"
    v = _verdict(tmp_path, line)
    assert v["cause"] == "cuda_error", v
    assert "upgrade NCCL" in v["fix"]


def test_a_cuda_failure_in_nvls_set_up_is_the_nodes_driver_not_a_rank(tmp_path):
    """transport/nvls.cc's CUCHECK/CUDACHECK "Cuda failure %d '%s'" at init, then torch's ncclUnhandledCudaError
    on the rank that printed it."""
    text = ("hgx-4:700:733 [2] transport/nvls.cc:310 NCCL WARN Cuda failure 801 'operation not supported'\n"
            "[rank2]: torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/"
            "NCCLUtils.cpp:77, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.26.2\n"
            "ncclUnhandledCudaError: Call to CUDA function failed.\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "cuda_error", v
    assert v["confidence"] == "low" or v["culprits"] == [], v
    assert "NCCL_NVLS_ENABLE=0" in v["fix"]


def test_nvshmems_nvls_team_set_up_refused_by_the_driver_is_a_cuda_error_naming_nobody(tmp_path):
    """NVSHMEM's error macros ("%s:%d: non-zero status: %d " then the message) in its NVLS team set-up: the driver's
    cuMemMap of the symmetric heap into the multicast group refused (lead rule V (2))."""
    text = ("/src/nvshmem/src/host/team/team_internal_nvls.cpp:250: non-zero status: 401 cuMemMap failed to map "
            "1073741824 bytes handle at address: 0x7f0000000000 offset 0 on device 3\n"
            "/src/nvshmem/src/host/team/team_internal.cpp:790: non-zero status: 7 Mapping multicast groups for UC "
            "heap failed for pe 3 team ID 1\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "cuda_error" and v["culprits"] == [], v
    assert "NVSHMEM_DISABLE_NVLS=1" in v["fix"] and "PhysX" not in v["fix"], v


def test_nccl_warn_of_the_failed_cuda_ipc_call_names_p2p(tmp_path):
    """transport/p2p.cc: "failed to open CUDA IPC handle : %d %s" before the unhandled cuda error it causes."""
    text = ("host7:101:150 [1] transport/p2p.cc:238 NCCL WARN failed to open CUDA IPC handle : 217 peer access is "
            "not supported between these two devices\n"
            "[rank1]: torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled cuda "
            "error, NCCL version 2.18.1\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "cuda_error" and "NCCL_P2P_DISABLE" in v["fix"], v


# a test harness naming the NCCL call that failed and its ncclResult_t by number (RCCL's unit tests, round 36): code 1
# is ncclUnhandledCudaError -- a CUDA/HIP call failing in set-up, the platform's (rule V(2)), the harness's process
# index no rank
def test_a_harness_naming_the_failed_nccl_call_and_its_code_reads_the_code(tmp_path):
    text = "".join(f"[ RUN      ] Broadcast.{t}\n[ ERROR    ] Child {n} reports failure\n"
                   f"[ ERROR    ] Child process {n} fails NCCL call ncclCommInitRank with code 1\n"
                   f"[ ERROR    ] Child {n} failed on command [INIT_COMMS]:\n[  FAILED  ] Broadcast.{t} ({ms} ms)\n"
                   for t, n, ms in (("InPlace", 3, 2210), ("ManagedMem", 3, 2197)))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "cuda_error" and v["culprits"] == [] and not _accused(d), v
    assert "NCCL_DEBUG=INFO" in v["fix"], v


# a library's own NCCL check printing the ncclResult_t as a bare number (fastmoe's NCCL_SAFE_CALL, round 52: "NCCL
# Error at .../global_exchange.cpp:127 value 5"): the number is NCCL's code (nccl.h: 1 unhandled cuda, 2 system,
# 3 internal, 4 invalid argument, 5 invalid usage), read as the same code in words would be; nobody named (rule Q)
def _moe_boot(host: str, pids: tuple[int, ...], dev: int) -> str:
    return "".join(nccl_info(host, p, dev, "Bootstrap : Using [0]ib0:10.0.0.11<0>") for p in pids)


def test_a_librarys_nccl_check_printing_the_result_code_as_a_number_reads_the_code(tmp_path):
    for where, value, host, pids, dev, cause in (
            ("/home/u/fastmoe/cuda/global_exchange.cpp:127", 5, "gpu1", (8194, 8195, 8197), 0, "invalid_usage"),
            ("/opt/moe/csrc/exchange.cu:88", 5, "node-17", (4410, 4413), 1, "invalid_usage"),
            ("/srv/tutel/csrc/comm.cpp:301", 2, "a100-04", (991, 992), 3, "nccl_system"),
            ("/srv/tutel/csrc/comm.cpp:305", 4, "a100-04", (991,), 2, "invalid_usage")):
        text = f"NCCL Error at {where} value {value}\n" + _moe_boot(host, pids, dev)
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert v["cause"] == cause and v["culprits"] == [] and not _accused(d), (where, v)
    # the same code in other words ("returned code N"), on one rank's line: that rank's own CUDA failure (rule A)
    v = _verdict(tmp_path, "[rank3]: RuntimeError: NCCL failure in moe_ops.cpp:41, returned code 1\n")
    assert v["cause"] == "cuda_error", v


def test_a_bare_value_that_is_no_nccl_failure_is_not_read_as_a_code(tmp_path):
    """0 is ncclSuccess; a number after "value" on a line that is not NCCL's error says nothing of NCCL."""
    for line in ("NCCL Error at /opt/moe/csrc/exchange.cu:88 value 0\n",
                 "Error at /opt/moe/csrc/exchange.cu:88 value 5\n",
                 "NCCL INFO Channel 00/02 : 0 1, buffer value 5\n"):
        v = _verdict(tmp_path, line + _moe_boot("node-2", (512, 513), 0))
        assert v["cause"] != "invalid_usage", (line, v)


# lead rule V (2) (round 48): UCX's CUDA transport inside a CUDA-aware MPI failing a CUDA driver call (UCX 1.6's "is
# failed. ret:", later releases' "failed:"), then the process crashing in MPI's progress and srun ending the others:
# cuda_error, nobody named (whichever rank receives a GPU buffer hits it); the same crash without that line is not
def _ucx_crash(r: int, host: str, pid: int, cuda_line: str) -> str:
    return (f"{r}: [1579244748.838971] [{host}:{pid}:2]    {cuda_line}\n"
            f"{r}: [1579244748.838989] [{host}:{pid}:2]       ucp_rkey.c:250  UCX  ERROR Failed to unpack remote key "
            "from remote md[4]: Input/output error\n"
            f"{r}: [{host}:{pid}:2:{pid + 53}] Caught signal 11 (Segmentation fault: address not mapped to object at "
            "address 0x20)\n"
            f"{r}: ==== backtrace ====\n"
            f"{r}:     0  /opt/ucx/lib/libucs.so.0(+0x2293c) [0x2aab23b7a93c]\n"
            f"{r}:     1  /opt/ompi/lib/libmpi.so.40(MPI_Bcast+0x116) [0x2aaabb3fb776]\n"
            f"{r}: ===================\n"
            f"srun: error: {host}: task {r}: Segmentation fault\n")


def test_ucxs_cuda_transport_failing_a_driver_call_under_mpi_names_nobody(tmp_path):
    for r, other, host, pid, line in (
            (0, 1, "cgpu12", 56309, "cuda_ipc_md.c:62   UCX  ERROR cuCtxGetDevice(&cu_device) is failed. "
                                    "ret:invalid device context"),
            (3, 2, "gpu-n07", 7781, "cuda_ipc_cache.c:191 UCX  ERROR cuIpcOpenMemHandle(&dptr, *ipc_handle, "
                                    "CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS) failed: invalid argument")):
        text = _ucx_crash(r, host, pid, line) + f"srun: error: {host}: task {other}: Terminated\n"
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("cuda_error", []) and not _accused(d), v
        assert "UCX_TLS" in v["fix"] and "NCCL backend" in v["fix"], v
    # UCX's own non-CUDA error (the rkey) before the same crash is not a CUDA error
    plain = _ucx_crash(0, "cgpu12", 56309, "ucp_worker.c:1720 UCX  ERROR failed to create ep: Input/output error")
    assert _verdict(tmp_path, plain)["cause"] != "cuda_error"


# --- out of memory: the GPU's, and the host's (Ray's memory monitor) ----------------------------------------------
def test_of_two_agents_records_the_earlier_lone_root_cause_is_the_culprit(tmp_path):
    """Round 42: two torchrun records (two agents): one's root cause failed alone (<NO_OTHER_FAILURES>) a while
    before every failure of the other record: that process failed first, the others after it (rules A, J). Here
    rank 9 on another host, the later record of ranks 1 and 2, both orders in the paste."""
    alone = ["  <NO_OTHER_FAILURES>\n"]
    first = _record(alone, failure_record(0, 9, 1, 1, 4410, time="2025-03-04_11:20:07", host="n2"))
    later = _record([failure_record(1, 2, 2, 1, 3302, time="2025-03-04_11:21:40", host="n1")],
                    failure_record(0, 1, 1, 1, 3301, time="2025-03-04_11:21:40", host="n1"))
    for text in (later + first, first + later):
        d = _report(tmp_path, text)
        assert _accused(d) == {9}, d["verdict"]
    same = _record(alone, failure_record(0, 9, 1, 1, 4410, time="2025-03-04_11:21:40", host="n2"))
    assert _accused(_report(tmp_path, later + same)) != {9}  # at the same time: no first failure


def test_an_oom_glued_to_the_agents_exit_record_names_that_worker(tmp_path):
    """Round 43: a paste that lost its line breaks (and, read back by OCR, the record's brackets and underscore):
    the worker's OOM, the agent's SIGTERM to the other worker and its "failed (exitcode: 1) local_rank: N" record on
    one line. Rule A: the one worker that failed on its own, with an OOM, is the culprit. Other ranks/numbers."""
    oom = ("torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 79.15 GiB total "
           "capacity; 76.80 GiB already allocated; 1.02 GiB free; 77.90 GiB reserved in total by PyTorch)")
    term = "WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 7310 closing signal SIGTERM"
    for rec in ("ERROR:torch.distributed.elastic.multiprocessing.api:failed exitcode: 1) local rank: 0 pid: 7309) "
                "of binary: /opt/conda/bin/python",
                "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 7309) "
                "of binary: /opt/conda/bin/python"):
        d = _report(tmp_path, oom + term + rec + "\nTraceback (most recent call last):\n")
        v = d["verdict"]
        assert v["cause"] == "gpu_oom" and _accused(d) == {0}, (rec, v)


def test_an_oom_while_the_model_loads_names_sharding(tmp_path):
    text = ("[rank2]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB. GPU 2 has a total "
            "capacity of 39.39 GiB of which 1.02 GiB is free.\n")
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("gpu_oom", [2]), v
    assert "ZeRO-3" in v["fix"] and "offload" in v["fix"]


# Ray's raylet (src/ray/raylet/node_manager.cc) and a task's error when the memory monitor kills it
def test_rays_memory_monitor_killing_workers_is_host_oom(tmp_path):
    text = ("(raylet, ip=10.0.3.4) node_manager.cc:3122: 3 Workers (tasks / actors) killed due to memory pressure "
            "(OOM), 0 Workers crashed due to other reasons at node (ID: ab12, IP: 10.0.3.4) over the last time "
            "period.\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "host_oom" and v["culprits"] == [], v
    assert "RAY_memory_usage_threshold" in v["fix"]


def test_a_task_killed_because_the_node_ran_low_on_memory_is_host_oom(tmp_path):
    text = ("ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.\n"
            "Memory on the node (IP: 10.0.3.5, ID: cd34) where the task was running was 61.2GB / 64.0GB (0.956)\n")
    assert _verdict(tmp_path, text)["cause"] == "host_oom"


def test_a_wrapper_killed_command_bound_by_numactl_membind_names_the_numa_binding(tmp_path):
    """A job script's shell reports its command SIGKILLed ("run.sh: line 5: 41207 Killed   bash -c 'numactl
    --cpunodebind=1 --membind=1 python ...'"): host memory, no rank named, and the fix names the --membind binding
    (one NUMA node's memory is all the process may use) -- also when a terminal put the command on the next line."""
    cmd = "bash -c 'numactl --cpunodebind=$((SLURM_LOCALID/2)) --membind=$((SLURM_LOCALID/2)) python /work/pretrain.py"
    head = "/jobs/scripts/gpt_pretrain_job.sh: line 5: 41207 Killed"
    for text in (f"{head}                  {cmd}\n", f"{head}{' ' * (80 - len(head))}\n          {cmd}\n"):
        v = _verdict(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("host_oom", []), v
        assert "numactl --membind" in v["fix"], v["fix"]
    v = _verdict(tmp_path, f"{head}                  python /work/pretrain.py\n")
    assert v["cause"] == "host_oom" and "numactl" not in v["fix"], v  # no binding shown: none named


def test_rays_memory_monitor_kill_is_still_host_oom(tmp_path):
    text = ("(raylet) Worker exit type: NODE_OUT_OF_MEMORY Worker exit detail: Task was killed due to the node "
            "running low on memory.\n")
    assert _report(tmp_path, text)["verdict"]["cause"] == "host_oom"


def test_a_ranks_own_rss_readout_growing_many_fold_is_its_host_memory_running_away(tmp_path):
    """Round 41: a training loop's per-step readout of its process's resident host memory (wenet's "rank N RSS MEM USE:
    xG"; here another logger's "rank N | RSS=xGiB") growing many-fold with nothing failing shown: that rank's host
    memory runs away until the OOM killer ends it -- host_oom, that rank named; a flat readout is nothing failing,
    and a readout that names no rank, or several ranks growing alike, name nobody."""
    def steps(rank: str, sizes: list[float]) -> str:
        return "".join(f"[2024-06-01 10:{i:02d}:07] epoch 2 step {400 + 50 * i} loss {2.31 - i / 100:.2f}{rank} | "
                       f"RSS={g}GiB\n" for i, g in enumerate(sizes))
    d = _report(tmp_path, steps(" | rank 5", [2.8, 2.9, 11.4, 38.0, 96.5]))
    v = d["verdict"]
    assert (v["cause"], v["culprits"], v["confidence"]) == ("host_oom", [5], "medium") and _accused(d) == {5}, v
    assert "RSS" in v["summary"] and "tracemalloc" in v["fix"] and "dmesg" in v["fix"], v
    d = _report(tmp_path, steps(" | rank 5", [8.1, 8.6, 9.0, 9.2, 9.3]))
    assert d["verdict"]["cause"] == "none" and not _accused(d), d["verdict"]
    d = _report(tmp_path, steps("", [3.0, 3.1, 24.0, 70.2]))
    assert d["verdict"]["cause"] == "host_oom" and not _accused(d), d["verdict"]
    d = _report(tmp_path, steps(" | rank 1", [3.0, 3.1, 24.0, 70.2]) + steps(" | rank 2", [3.2, 3.3, 25.1, 71.0]))
    assert d["verdict"]["cause"] == "host_oom" and not _accused(d), d["verdict"]  # several alike (rule J)


# --- a native crash: inside libnccl or not ------------------------------------------------------------------------
def test_a_crash_inside_libnccl_is_nccls(tmp_path):
    """UCX's crash handler (ucs/debug/debug.c: "Caught signal %d (%s)" and "==== backtrace (tid: %d) ====")
    with the first frames past it in libnccl.so: a SIGBUS this time, another install path."""
    text = ("[gpu-12:4401:0:4490] Caught signal 7 (Bus error: nonexistent physical address)\n"
            "==== backtrace (tid:   4490) ====\n"
            " 0  /opt/hpcx/ucx/lib/libucs.so.0(ucs_handle_error+0x2e4) [0x7f00c925c274]\n"
            " 1  /opt/hpcx/ucx/lib/libucs.so.0(+0x2d44c) [0x7f00c925c44c]\n"
            " 2  /usr/local/lib/python3.10/dist-packages/nvidia/nccl/lib/libnccl.so.2(+0x1a0057) [0x7f00c18c1057]\n"
            " 3  /usr/lib/x86_64-linux-gnu/libc.so.6(+0x94ac3) [0x7f00c151e144]\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "nccl_internal", v
    assert v["culprits"] == [] and "NCCL_RAS_ENABLE" in v["fix"]


def test_a_crash_in_a_driver_call_made_by_nccls_own_thread_is_nccls(tmp_path):
    """The first frame past the crash handler is the CUDA driver's, and the one that called it libnccl.so (NCCL's
    proxy thread calling the driver): still NCCL's crash, no rank named; a driver frame called by the application's
    library is not."""
    text = ("[node-7:5120:0:5177] Caught signal 11 (Segmentation fault: address not mapped to object at address 0x10)\n"
            "==== backtrace (tid:   5177) ====\n"
            " 0  /opt/hpcx/ucx/lib/libucs.so.0(ucs_handle_error+0x2e4) [0x7f11c925c274]\n"
            " 1  /lib/x86_64-linux-gnu/libc.so.6(+0x42520) [0x7f11c1500520]\n"
            " 2  /usr/lib/x86_64-linux-gnu/libcuda.so.1(+0x2a1b3c) [0x7f11a02a1b3c]\n"
            " 3  /opt/conda/lib/python3.11/site-packages/nvidia/nccl/lib/libnccl.so.2(+0x7c1d0) [0x7f11b187c1d0]\n"
            " 4  /lib/x86_64-linux-gnu/libc.so.6(+0x94ac3) [0x7f11c1594ac3]\n")
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("nccl_internal", []), v
    assert "Upgrade NCCL" in v["fix"] and "NCCL_CUMEM_ENABLE=0" in v["fix"], v["fix"]
    wrapped = "\n".join("\n".join(x[k:k + 72] for k in range(0, len(x), 72)) for x in text.split("\n"))
    assert _verdict(tmp_path, wrapped)["cause"] == "nccl_internal"  # a terminal's hard wrap cut a frame
    app = text.replace("nvidia/nccl/lib/libnccl.so.2", "torch/lib/libtorch_cuda.so")
    assert _verdict(tmp_path, app)["cause"] != "nccl_internal"


def test_a_crash_in_the_application_is_not_nccls(tmp_path):
    text = ("[gpu-12:4401:0:4490] Caught signal 11 (Segmentation fault: address not mapped to object at address 0x8)\n"
            "==== backtrace (tid:   4490) ====\n"
            " 0  /opt/hpcx/ucx/lib/libucs.so.0(ucs_handle_error+0x2e4) [0x7f00c925c274]\n"
            " 1  /usr/local/lib/python3.10/dist-packages/torch/lib/libtorch_cuda.so(+0x1a0057) [0x7f00c18c1057]\n"
            " 2  /usr/local/lib/python3.10/dist-packages/nvidia/nccl/lib/libnccl.so.2(+0x1a0057) [0x7f00c18c1057]\n")
    assert _verdict(tmp_path, text)["cause"] != "nccl_internal"


def test_a_crash_outside_nccl_with_nothing_else_is_unknown_not_none(tmp_path):
    """A process's own crash handler reporting SIGSEGV with no frame in libnccl.so and no other failure: it died in
    native code (lead rule A: -11 with no other cause is unknown), never "none"; the library it crashed in is named
    by its whole file name, and no rank is accused where no line names one."""
    text = ("[trn-04:90210:0:90233] Caught signal 11 (Segmentation fault: invalid permissions for mapped object at "
            "address 0x7f3a)\n==== backtrace (tid:  90233) ====\n"
            " 0  /usr/lib/libucs.so.0(ucs_handle_error+0x2e4) [0x7f00c925c274]\n"
            " 1  /opt/venv/lib/python3.11/site-packages/apex/fused_dense_lib.cpython-311-x86_64-linux-gnu.so(+0x91d2)"
            " [0x7f00c18c1057]\n")
    d = _report(tmp_path, text)
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("unknown", []), d["verdict"]
    assert "fused_dense_lib.cpython-311-x86_64-linux-gnu.so" in d["verdict"]["summary"] and not _accused(d)


def test_a_crash_whose_function_frames_are_mpis_own_names_the_mpi_library_and_mpirun(tmp_path):
    """Round 40: UCX's crash handler printing frames as "N 0xADDR function()  file:line" (no library): every process
    dies alike inside Open MPI's own functions (ompi_..., PMPI_...) while a communicator is built. Still unknown and
    nobody named (rule J), but the fix is the MPI side: launch with mpirun, the MPI build torch links, a backtrace.
    Frames in other functions do not name MPI."""
    def crash(pid: int) -> str:
        return (f"[trainer-0:{pid}:0:{pid}] Caught signal 11 (Segmentation fault: address not mapped to object at "
                "address 0x40)\n"
                f"==== backtrace (tid: {pid:7d}) ====\n"
                " 0 0x00000000000421c0 killpg()  ???:0\n"
                " 1 0x000000000007a3f1 ompi_comm_set_nb()  /src/openmpi-4.1.5/ompi/communicator/comm.c:412\n"
                " 2 0x0000000000081c20 PMPI_Comm_create_group()  /src/openmpi-4.1.5/ompi/mpi/c/comm_create_group.c:88\n"
                "=================================\n")
    text = crash(2201) + crash(2202)
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), v
    assert "mpirun" in v["fix"] and "MPI backend" in v["fix"] and "HPC-X" in v["fix"], v["fix"]
    assert "ompi_comm_set_nb" in v["summary"], v
    other = text.replace("ompi_comm_set_nb", "at_grad_fn_apply").replace("PMPI_Comm_create_group", "torch_launch")
    assert "mpirun" not in _verdict(tmp_path, other)["fix"]


def test_a_crash_whose_function_frames_are_nccls_own_stays_unknown_and_checks_the_nccl_library(tmp_path):
    """Round 48 (rule AK (2)): UCX's crash handler in several processes at once, its frames in a stripped libnccl's
    exported names (pnccl..., ncclRecv, the API call ncclAllReduce outermost) and no NCCL error text: cause unknown by
    the signal, nobody named (rule J), and the fix checks the NCCL library loaded (version, LD_LIBRARY_PATH, reinstall).
    Frames of other functions do not name NCCL."""
    def crash(host: str, pid: int, call: str, frames: bool = True) -> str:
        head = (f"[{host}:{pid}:0:{pid}] Caught signal 11 (Segmentation fault: address not mapped to object at "
                "address (nil))\n")
        return head + (f"==== backtrace (tid: {pid:7d}) ====\n"
                       " 0 0x0000000000042520 __sigaction()  ???:0\n"
                       " 1 0x0000000000050dc2 pncclRedOpDestroy()  ???:0\n"
                       " 2 0x000000000004c818 ncclGroupEnd()  ???:0\n"
                       f" 3 0x0000000000042990 {call}()  ???:0\n" if frames else "")
    for host, pids, call in (("gpu-a7", (5101, 5104), "ncclAllReduce"), ("node03", (771, 772), "ncclAllGather")):
        text = "training ...\n" + crash(host, pids[1], call, frames=False) + crash(host, pids[0], call)
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), v
        assert "LD_LIBRARY_PATH" in v["fix"] and "NCCL version" in v["fix"] and call in v["summary"], v
    other = crash("gpu-a7", 5101, "at_launch").replace("pncclRedOpDestroy", "fused_adam").replace(
        "ncclGroupEnd", "multi_tensor_apply")
    v = _verdict(tmp_path, other)
    assert v["cause"] == "unknown" and "LD_LIBRARY_PATH" not in v["fix"], v


def test_a_crash_whose_first_frame_is_in_a_cuda_math_library_is_a_cuda_error_naming_nobody_when_several(tmp_path):
    """Round 41: UCX's crash handler reporting a native crash whose first frame past the handler is in one of CUDA's
    math libraries (cuBLAS/cuBLASLt, cuDNN) -- by function name or by library: the library build or its bug, not the
    training code: cuda_error; several processes alike name nobody (rule J), and the fix names the library to
    upgrade. A crash in another library stays unknown."""
    def crash(pid: int, frames: list[str], sig: str = "11 (Segmentation fault: address not mapped to object at "
                                                          "address 0x18)") -> str:
        return (f"[dgx-a3:{pid}:0:{pid}] Caught signal {sig}\n==== backtrace (tid: {pid:7d}) ====\n"
                + "".join(f" {i} {f}\n" for i, f in enumerate(frames)) + "=================================\n")
    lib = ["/usr/lib/x86_64-linux-gnu/libc.so.6(+0x42520) [0x7fa1c1500520]",
           "/opt/conda/lib/python3.11/site-packages/nvidia/cudnn/lib/libcudnn_cnn_infer.so.8(+0x6b3c21) "
           "[0x7fa10e6b3c21]",
           "/opt/conda/lib/python3.11/site-packages/torch/lib/libtorch_cuda.so(+0x11a2b3) [0x7fa1b011a2b3]"]
    d = _report(tmp_path, crash(30411, lib) + crash(30412, lib))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("cuda_error", []) and not _accused(d), v
    assert "cuDNN" in v["summary"] and "nvidia-cudnn-cu12" in v["fix"], v
    funcs = ["0x0000000000042520 killpg()  ???:0", "0x00000000009c1a2e cublasLtMatmulAlgoGetHeuristic()  ???:0",
             "0x00000000031f2b10 at::cuda::blas::gemm<c10::Half>()  :0"]
    v = _verdict(tmp_path, crash(812, funcs, "8 (Floating point exception: integer divide by zero)"))
    assert v["cause"] == "cuda_error" and "cuBLASLt" in v["summary"] and "nvidia-cublas-cu12" in v["fix"], v
    other = [lib[0], "/opt/venv/lib/python3.11/site-packages/flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so"
                     "(+0x91d2) [0x7f00c18c1057]"]
    assert _verdict(tmp_path, crash(30411, other))["cause"] == "unknown"


# Open MPI's fatal-signal handler (opal/util/stacktrace.c), printed by every process mpirun starts: "[%s:%05d] ***
# Process received signal ***", "[%s:%05d] Signal: %s (%d)", "Signal code: %s (%d)", "Failing at address: %p", one
# "[%s:%05d] [%2d] frame" line a frame, "*** End of error message ***"; mpirun --tag-output puts "[job,rank]<std..>:"
def _ompi_crash(host: str, pid: int, name: str, num: int, code: str, frames: list[str], tag: str = "") -> str:
    head = f"{tag}[{host}:{pid:05d}] "
    return "".join(head + x + "\n" for x in ["*** Process received signal ***", f"Signal: {name} ({num})",
                                             f"Signal code: {code}", "Failing at address: 0x3f8"]
                   + [f"[{i:2d}] {f}" for i, f in enumerate(frames)] + ["*** End of error message ***"])


_LIBC = "/usr/lib64/libpthread.so.0(+0x12d80)[0x7f2be0b4ed80]"


def test_open_mpis_handler_every_rank_a_bus_error_alike_is_shared_memory(tmp_path):
    """Every process mpirun started on a node reports SIGBUS through Open MPI's handler (lead rules F and J): shared
    memory, no rank; one process alone reporting it is that rank's (rule A)."""
    text = "".join(_ompi_crash("worker-b", 4100 + r, "Bus error", 7, "Object-specific hardware error (3)", [_LIBC],
                               f"[1,{r}]<stdout>:") for r in (5, 4, 7, 6))
    d = _report(tmp_path, text)
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("dataloader_shm", []), d["verdict"]
    assert "/dev/shm" in d["verdict"]["fix"] and not _accused(d)
    one = _ompi_crash("worker-b", 4102, "Bus error", 7, "Object-specific hardware error (3)", [_LIBC], "[1,6]<stderr>:")
    v = _verdict(tmp_path, one)
    assert (v["cause"], v["culprits"]) == ("dataloader_shm", [6]), v


def test_open_mpis_handler_a_segfault_in_a_library_names_no_rank_it_does_not_show(tmp_path):
    """One process's segfault in a framework's MPI library, reported by Open MPI's handler after mpirun's "1 process
    returned a non-zero exit code": cause unknown (rule A: -11 with no other cause), the library named; the process
    is known by host and pid only, so no rank (rule A's multi-node "unknown"). With mpirun's rank tag that rank is
    named; a SIGABRT is not (the watchdog's own abort looks the same, rule I)."""
    lib = "/opt/conda/lib/python3.10/site-packages/horovod/torch/mpi_lib_v2.cpython-310-x86_64-linux-gnu.so"
    frames = [_LIBC, f"{lib}(+0x1f3a0)[0x7f2b5c61f3a0]", "python(_PyObject_MakeTpCall+0x2ec)[0x55d0f0e5a2bc]"]
    text = ("Primary job  terminated normally, but 1 process returned\n"
            "a non-zero exit code. Per user-direction, the job has been aborted.\n"
            + _ompi_crash("trainer-pod-3", 731, "Segmentation fault", 11, "Address not mapped (1)", frames))
    d = _report(tmp_path, text)
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("unknown", []), d["verdict"]
    assert "mpi_lib_v2.cpython-310-x86_64-linux-gnu.so" in d["verdict"]["summary"], d["verdict"]
    assert "mpirun --tag-output" in d["verdict"]["fix"] and not _accused(d)
    v = _verdict(tmp_path, _ompi_crash("trainer-pod-3", 731, "Floating point exception", 8,
                                       "Integer divide-by-zero (1)", frames, "[1,9]<stderr>:"))
    assert (v["cause"], v["culprits"], v["confidence"]) == ("unknown", [9], "medium"), v
    v = _verdict(tmp_path, _ompi_crash("trainer-pod-3", 731, "Aborted", 6, "(-6)", frames, "[1,9]<stderr>:"))
    assert (v["cause"], v["culprits"]) == ("unknown", []), v


# --- the launcher's records: torchrun's summary, rule A (the lone first failure), Ray's dead worker ---------------
# torch/distributed/elastic/multiprocessing/api.py: "failed (exitcode: %s) local_rank: %s (pid: %s) of binary: %s"
FAILED = ("E0102 10:00:00.000000 4100 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: {code}) "
          "local_rank: {lr} (pid: {pid}) of binary: /usr/bin/python3\n")


SIGTERM = ("W0102 10:00:00.000000 4100 torch/distributed/elastic/multiprocessing/api.py:897] Sending process {pid} "
           "closing signal SIGTERM\n")


def test_torchrun_summary_pasted_up_to_its_error_file_line(tmp_path):
    """torchrun's ChildFailedError summary (torch/distributed/elastic/multiprocessing/errors) cut
    after ``error_file`` (no traceback field): the entry still names the rank and its -9."""
    text = "Root Cause (first observed failure):\n" + failure_record(0, 3, 3, -9, 4411, traceback=None)
    v = _verdict(tmp_path, text)
    assert v["cause"] == "host_oom", v
    assert v["culprits"] == [3]


def test_torchrun_summary_with_its_traceback_is_one_entry(tmp_path):
    text = "Root Cause (first observed failure):\n" + failure_record(0, 5, 1, -9, 4411)
    (tmp_path / "job.log").write_text(text)
    r = diagnose([str(tmp_path / "job.log")])
    assert r.results["diagnose"]["verdict"]["culprits"] == [5]
    assert "1 failed rank(s)" in " ".join(f.message for f in r.findings)


def test_a_lone_sigkill_in_a_single_node_job_names_its_local_rank(tmp_path):
    text = "".join(SIGTERM.format(pid=p) for p in (201, 202, 204)) + FAILED.format(code=-9, lr=2, pid=203)
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"], v["confidence"]) == ("host_oom", [2], "medium"), v
    assert "local rank 2" in v["summary"]


def test_a_lone_sigkill_of_a_multi_node_job_names_nobody(tmp_path):
    """Only a local rank is printed and torchrun's config says two nodes: the global rank is unknown."""
    config = ("I0102 09:59:00.000000 4100 torch/distributed/elastic/agent/server/api.py:525] [default] Rendezvous "
              "complete for workers. Result:\n  restart_count=0\n  master_addr=node-a\n  master_port=29500\n"
              "  group_rank=1\n  group_world_size=2\n  local_ranks=[0, 1, 2, 3]\n")
    v = _verdict(tmp_path, config + FAILED.format(code=-9, lr=2, pid=203))
    assert v["cause"] == "host_oom" and v["culprits"] == [], v
    assert "multi-node" in v["summary"]


def test_a_lone_exit_code_names_the_global_rank_of_the_table(tmp_path):
    table = "Root Cause (first observed failure):\n" + failure_record(0, 11, 3, 1, 4411, host="node-b")
    v = _verdict(tmp_path, table)
    assert (v["cause"], v["culprits"]) == ("unknown", [11]), v
    assert "@record" in v["fix"]


def test_a_table_entry_pasted_without_its_header_keeps_its_global_rank(tmp_path):
    entry = failure_record(None, 6, 2, -11, 7001, traceback=None)
    v = _verdict(tmp_path, entry)
    assert (v["cause"], v["culprits"]) == ("unknown", [6]), v
    assert "faulthandler" in v["fix"] and "core" in v["fix"]


def test_a_lone_exit_1_with_no_error_file_says_to_run_the_script_without_the_launcher(tmp_path):
    """Round 58: torch 1.9's elastic agent block "CHILD PROCESS FAILED WITH NO ERROR_FILE" names one worker's exit 1
    and holds no traceback (rule A: that worker, cause unknown); the expert's way to its exception is the same script
    run without the launcher, which prints it to the terminal -- beside @record and the worker's own stderr."""
    text = ("CHILD PROCESS FAILED WITH NO ERROR_FILE\n"
            "Child process 30412 (local_rank 0) FAILED (exitcode 1)\n"
            "Error msg: Process failed with exitcode 1\n"
            "Without writing an error file to <N/A>.\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", [0]) and _accused(d) == {0}, v
    assert "run the script without the launcher" in v["fix"] and "@record" in v["fix"], v["fix"]


def test_a_lone_sigsegv_names_the_version_mismatch_and_rebuilding_the_compiled_ops(tmp_path):
    """Round 58: torchrun's agent records one worker's exit -11 (SIGSEGV) and nothing else fails (rule A: that
    worker, cause unknown). A segfault with no Python traceback is in practice a compiled extension built for another
    torch/CUDA: besides the backtrace, the fix an expert gives names that version mismatch and rebuilding the ops."""
    text = ("ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -11) local_rank: 0 (pid: 22817) "
            "of binary: /opt/conda/envs/det/bin/python\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", [0]) and _accused(d) == {0}, v
    assert all(w in v["fix"] for w in ("faulthandler", "version mismatch", "rebuild compiled ops")), v["fix"]


def test_two_ranks_failing_on_their_own_is_no_lone_failure(tmp_path):
    text = FAILED.format(code=1, lr=0, pid=300) + FAILED.format(code=1, lr=1, pid=301)
    assert _verdict(tmp_path, text)["culprits"] == []


def test_a_lone_sigbus_names_its_rank_and_the_shared_memory_fix(tmp_path):
    v = _verdict(tmp_path, SIGTERM.format(pid=501) + FAILED.format(code=-7, lr=1, pid=502))
    assert (v["cause"], v["culprits"]) == ("dataloader_shm", [1]), v


def test_a_launcher_record_wrapped_after_pid_still_names_its_local_rank(tmp_path):
    """rich's console (accelerate) or a narrow terminal wraps torchrun's "failed (exitcode: N) local_rank: M (pid:"
    and moves the pid and "of binary" to the next line: the local rank and the exit code are still whole."""
    text = ("[14:02:11] ERROR    failed (exitcode: -7) local_rank: 2 (pid:       api.py:699\n"
            "                    88123) of binary: /opt/conda/bin/python3\n")
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("dataloader_shm", [2]), v
    v = _verdict(tmp_path, "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -7) local_rank: 1 "
                           "(pid:\n4410) of binary: /usr/bin/python\n")
    assert (v["cause"], v["culprits"]) == ("dataloader_shm", [1]), v


def test_a_launcher_record_cut_after_its_local_rank_label_reads_the_value_on_the_next_line(tmp_path):
    """A paste that broke torchrun's record right after "local_rank: " (the agent's SIGTERMs run together before it)
    puts "0 (pid: P) of binary" at the start of the next line, itself long: the two are read joined, so the failed
    worker's local rank is the label's value, not a rank the lines do not name."""
    term = ("W0311 09:12:40.120000 139 torch/distributed/elastic/multiprocessing/api.py:858] Sending process {} "
            "closing signal SIGTERM ")
    text = ("".join(term.format(p) for p in range(7101, 7104))
            + "E0311 09:12:42.500000 139 torch/distributed/elastic/multiprocessing/api.py:833] failed (exitcode: 1) "
              "local_rank: \n0 (pid: 7100) of binary: /usr/bin/python3 Traceback (most recent call last): File "
              "\"/usr/local/bin/accelerate\", line 8, in sys.exit(main())\n")
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("unknown", [0]), v
    v = _verdict(tmp_path, text.split("\n")[0] + "\n")  # the paste ends at the label: the record as it stands
    assert v["culprits"] == [], v


def test_a_spawn_child_raising_names_its_rank_only_where_nprocs_is_the_world_size(tmp_path):
    """torch.multiprocessing.spawn's "-- Process N terminated with the following error:" names the child by its
    index: a global rank (lead rule I) where the spawn call shows nprocs = the world size (one host), else no rank
    (rule Q)."""
    tail = ("  File \"/opt/conda/lib/python3.11/site-packages/torch/multiprocessing/spawn.py\", line 241, in spawn\n"
            "    return start_processes(fn, args, nprocs, join, daemon, start_method=\"spawn\")\n"
            "torch.multiprocessing.spawn.ProcessRaisedException:\n\n"
            "-- Process 5 terminated with the following error:\n"
            "Traceback (most recent call last):\n"
            "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 64.00 MiB. GPU 1 has a total capacity of "
            "79.10 GiB of which 12.00 MiB is free.\n")
    head = ("Traceback (most recent call last):\n  File \"/work/run.py\", line 88, in main\n"
            "    mp.spawn(worker, args=(cfg,), nprocs={n},\n")
    v = _verdict(tmp_path, head.format(n="cfg.world_size") + tail)
    assert (v["cause"], v["culprits"]) == ("gpu_oom", [5]), v
    v = _verdict(tmp_path, head.format(n="torch.cuda.device_count()") + tail)
    assert v["culprits"] == [], v


def test_a_spawn_childs_traceback_cut_before_its_exception_still_names_that_child(tmp_path):
    """Lead rules A, AL (2): mp.spawn's "-- Process N terminated with the following error:" whose child traceback the
    paste cuts inside the program's own frames (no exception line) is still the only child shown dying on this one
    machine: process N, cause unknown, and the fix asks for its full traceback. Where the lines above show a failure
    every child meets (NCCL's topology warning) or its frames go into the job's machinery (init_process_group), the
    cut record names no one (rule Q's caution). (A cut at the model's call, DDP's implicit collectives, names no one
    since lead rule BM (1): tests/test_diagnose_family_spawnddp79.py.)"""
    cut = ("-- Process 2 terminated with the following error:\n"
           "Traceback (most recent call last):\n"
           "  File \"/usr/lib/python3.9/site-packages/torch/multiprocessing/spawn.py\", line 69, in _wrap\n"
           "    fn(i, *args)\n"
           "  File \"/srv/det/tools/train.py\", line 57, in worker\n"
           "    trainer.train()\n"
           "  File \"/srv/det/engine/loop.py\", line 212, in run_step\n"
           "    images, targets = self.preprocess(batch)\n")
    d = _report(tmp_path, cut)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", [2]) and _accused(d) == {2}, v
    assert "full traceback" in v["fix"], v["fix"]
    torn = ("W0412 08:30:11.204000 913 torch/multiprocessing/spawn.py:160] Terminating process 5121 via signal "
            "SIGTERM\n")  # spawn's own teardown of the other children (torch >= 2.2) is no other failure
    assert _verdict(tmp_path, torn + cut, "torn.log")["culprits"] == [2]
    warned = ("node3:4410:4470 [0] graph/xml.cc:332 NCCL WARN Could not find real path of "
              "/sys/class/pci_bus/0000:3b/../../0000:3b:00.0\n")
    d = _report(tmp_path, warned + cut, "warned.log")
    assert not _accused(d), d["verdict"]
    setup = cut + "  File \"/srv/det/tools/train.py\", line 31, in worker\n    dist.init_process_group(\"nccl\")\n"
    d = _report(tmp_path, setup, "setup.log")
    assert not _accused(d), d["verdict"]


def test_a_spawn_childs_traceback_cut_inside_a_collective_names_no_one(tmp_path):
    """Lead rule BH (1) (round 74's bcnet-53, round 68's bts-100): mp.spawn's "-- Process N terminated with the
    following error:" whose child traceback the paste cuts inside a collective call (its last frame's code calls
    dist.all_gather / all_reduce, or is torch.distributed's own frame of one) before its error text: that child may be
    the victim of a peer that returned with exit code 0 (spawn does not report it) -- unknown, culprits "unknown",
    nobody accused, the fix the collective's. The same record cut in the program's own frames, or one whose traceback
    goes through the collective and ends in the program's own exception, still names process N (rule AL (2))."""
    head = ("Traceback (most recent call last):\n"
            "  File \"tools/train.py\", line 90, in <module>\n"
            "    mp.spawn(worker, nprocs=ngpus, args=(cfg,))\n"
            "Exception: \n\n"
            "-- Process 3 terminated with the following error:\n"
            "Traceback (most recent call last):\n"
            "  File \"/srv/det/engine/loop.py\", line 218, in run_step\n"
            "    self._write_metrics(metrics)\n"
            "  File \"/srv/det/utils/comm.py\", line 125, in _pad_to_largest_tensor\n")
    d = _report(tmp_path, head + "    dist.all_gather(size_list, local_size, group\n")
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), v
    assert "all_gather" in v["fix"] and "full traceback" in v["fix"], v["fix"]
    # spawn's nprocs the world size (the record read as a known rank's at once): the same
    world = head.replace("nprocs=ngpus", "nprocs=cfg.world_size") + "    dist.all_gather(size_list, local_size, group\n"
    d = _report(tmp_path, world, "world.log")
    assert d["verdict"]["culprits"] == [] and not _accused(d), d["verdict"]
    # torch.distributed's own frame of the collective last (its code line is the backend's call)
    c10d = head + ("    dist.barrier()\n"
                   "  File \"/opt/conda/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py\", line "
                   "3685, in barrier\n"
                   "    work = default_pg.barrier(opts=opts)\n")
    d = _report(tmp_path, c10d, "c10d.log")
    assert d["verdict"]["culprits"] == [] and not _accused(d), d["verdict"]
    # near shapes: cut in the program's own frames below the collective's caller, or the traceback ending in the
    # program's own exception raised after the collective: process 3 as rule AL (2) reads it
    own = head + "    sizes = [int(s.item()) for s in size_list]\n"
    assert _verdict(tmp_path, own, "own.log")["culprits"] == [3]
    raised = head + ("    dist.all_gather(size_list, local_size, group)\n"
                     "  File \"/srv/det/utils/comm.py\", line 131, in _pad_to_largest_tensor\n"
                     "    max_size = max(size_list)\n"
                     "TypeError: '>' not supported between instances of 'Tensor' and 'NoneType'\n")
    assert _verdict(tmp_path, raised, "raised.log")["culprits"] == [3]


def test_a_ray_worker_dead_of_a_system_error_is_a_first_failure_of_unknown_cause(tmp_path):
    # Ray core_worker's report; its "potential root causes" list names the OOM killer without meaning it
    text = ("(raylet, ip=192.168.7.7) A worker died or was killed while executing a task by an unexpected system "
            "error. To troubleshoot the problem, check the logs for the dead worker. RayTask ID: ab Worker ID: cd "
            "Node ID: ef Worker IP address: 192.168.7.7 Worker port: 10011 Worker PID: 31337 Worker exit type: "
            "SYSTEM_ERROR Worker exit detail: Worker unexpectedly exits with a connection error code 2. End of file. "
            "There are some potential root causes. (1) The process is killed by SIGKILL by OOM killer due to high "
            "memory usage. (2) ray stop --force is called. (3) The worker is crashed unexpectedly due to SIGSEGV or "
            "other unexpected errors.\n"
            "(Worker pid=31400, ip=192.168.7.8) "
            + watchdog_line(3, 2, "ALLGATHER", 600100, 600000, numel=(10, 40), stamp="E0101 00:10:00.000000000"))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []), v
    assert "31337" in v["summary"] and "dmesg" in v["fix"] and "raylet" in v["fix"]
    assert not _accused(d)


# --- signals from outside: a kill after the SIGTERM grace, Slurm preemption and requeue ---------------------------
_FORCED = ("W0101 10:00:30.000 1234 torch/distributed/elastic/multiprocessing/api.py:{n}] Unable to shutdown process "
           "88 via Signals.SIGTERM, forcefully exiting via Signals.SIGKILL\n")


def test_a_worker_killed_after_the_sigterm_grace_is_a_stop_from_outside(tmp_path):
    """elastic/multiprocessing/api.py's _close warning (torch 2.x glog form, not the logging one)."""
    v = _verdict(tmp_path, _FORCED.format(n=897))
    assert v["cause"] == "signal", v
    assert "SIGTERM" in v["fix"] and "grace" in v["fix"]


def test_a_worker_killed_after_the_grace_following_a_real_failure_is_that_failure(tmp_path):
    text = ("[rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 3 has a total "
            "capacity of 79.10 GiB of which 1.06 GiB is free.\n" + _FORCED.format(n=897))
    assert _verdict(tmp_path, text)["cause"] == "gpu_oom"


def test_slurm_preemption_is_an_outside_signal_not_the_teardown_errors(tmp_path):
    # slurmstepd's cancel banner (src/slurmd/slurmstepd/req.c) and srun's task exits after it
    text = ("slurmstepd: error: *** STEP 91234.0 ON gpu-node-17 CANCELLED AT 2025-03-04T11:22:33 DUE TO PREEMPTION "
            "***\n"
            "[rank5]: RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection closed by peer "
            "[10.1.2.3]:40211\n"
            "srun: error: gpu-node-17: tasks 4-7: Exited with exit code 1\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("signal", []), v
    assert "preempt" in v["summary"] and "requeue" in v["fix"].lower()
    assert not _accused(d)


def test_sruns_force_terminated_job_alone_is_the_scheduler_ending_the_step(tmp_path):
    """srun's own "srun: Force Terminated job N" / "... StepId=J.S" (the controller ended the step: scancel,
    preemption, the time limit) with nothing failing around it is a stop from outside: signal, nobody named."""
    for first in ("srun: Force Terminated job 88123", "srun: Force Terminated StepId=4410.3"):
        d = _report(tmp_path, first + "\nsrun: Job step aborted: Waiting up to 62 seconds for job step to finish.\n")
        assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("signal", []), d["verdict"]
        assert "sacct" in d["verdict"]["fix"] and not _accused(d)


def test_a_wrapper_catching_usr1_before_requeue_is_the_same_signal(tmp_path):
    text = ("submitit WARNING (2024-01-02 03:04:05,678) - Caught signal SIGUSR1 on node-a: this job is preempted.\n"
            "slurmstepd: error: *** JOB 77 ON node-a CANCELLED AT 2024-01-02T03:04:06 DUE TO JOB REQUEUE ***\n")
    v = _report(tmp_path, text)["verdict"]
    assert v["cause"] == "signal" and "SIGUSR1" in v["summary"], v


def test_a_time_limit_is_not_called_preemption(tmp_path):
    """A job that hangs until its time limit: the hang, not the scheduler, is the story."""
    text = (watchdog_line(0, 12, "ALLREDUCE", 600031, 600000, numel=8) +
            "slurmstepd: error: *** JOB 5 ON n1 CANCELLED AT 2024-01-02T03:04:06 DUE TO TIME LIMIT ***\n")
    v = _report(tmp_path, text)["verdict"]
    assert v["cause"] != "signal" and "preempt" not in v["summary"], v


def test_a_time_limit_with_nothing_failing_is_the_scheduler_stopping_the_job(tmp_path):
    """Session 7 (round 24): slurmstepd's "DUE TO TIME LIMIT" banner, then the SIGTERM a framework's handler logs for a
    rank: the scheduler's wall-clock limit stopped the job from outside, no rank's fault (cause signal, culprits [])."""
    text = ("slurmstepd: error: *** JOB 4411.2 ON gpu-c-08 CANCELLED AT 2024-06-30T08:12:44 DUE TO TIME LIMIT ***\n"
            "srun: Job step aborted: Waiting up to 62 seconds for job step to finish.\n"
            "[rank: 3] Received SIGTERM: 15\n"
            "Bypassing SIGTERM: 15\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("signal", []), v
    assert "time limit" in v["summary"] and "--time" in v["fix"] and "requeue" in v["fix"], v
    assert not _accused(d)


def test_a_wrapper_told_the_job_timed_out_is_the_time_limit(tmp_path):
    """submitit's handler, whichever signal it was set up with: "this job is timed-out" is the time limit."""
    text = ("submitit WARNING (2023-02-03 10:11:12,131) - Bypassing signal SIGCONT\n"
            "submitit INFO (2023-02-03 10:11:12,140) - Job has timed out. Ran 118 minutes out of requested 120 "
            "minutes.\n"
            "submitit WARNING (2023-02-03 10:11:12,141) - Caught signal SIGUSR2 on gpu-node-4: this job is "
            "timed-out.\n")
    v = _report(tmp_path, text)["verdict"]
    assert (v["cause"], v["culprits"]) == ("signal", []), v
    assert "time limit" in v["summary"] and "preempt" not in v["summary"], v


def test_a_wrapper_catching_any_signal_as_preemption_is_an_outside_signal(tmp_path):
    """submitit's "Caught signal SIGHUP on host: this job is preempted." (any signal name, not only SIGUSR1/2)."""
    text = ("submitit WARNING (2021-11-05 22:01:02,003) - Bypassing signal SIGTERM\n"
            "submitit WARNING (2021-11-05 22:01:02,110) - Caught signal SIGHUP on node-b12: this job is preempted.\n"
            "submitit INFO (2021-11-05 22:01:02,150) - Requeued job 8812 (2 remaining timeouts)\n"
            "submitit INFO (2021-11-05 22:01:02,151) - Exiting gracefully after preemption/timeout.\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("signal", []), v
    assert "SIGHUP" in v["summary"] and "requeue" in v["fix"].lower()
    assert not _accused(d)


def test_a_sigterm_logged_right_after_the_job_recorded_its_success_is_the_steps_teardown(tmp_path):
    """Round 36: a wrapper's "Job completed successfully", then its handler logging the SIGTERM Slurm sends a step's
    processes at its end: nothing was stopped (cause none, nobody); the same SIGTERM with no success before it, or
    after the success but with slurmstepd's cancel banner, stays a signal."""
    done = "submitit INFO (2024-11-20 07:41:02,310) - Job completed successfully\n"
    term = "".join("submitit WARNING (2024-11-20 07:41:02,314) - Bypassing signal SIGTERM\n" for _ in range(2))
    d = _report(tmp_path, done + term)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("none", []) and not _accused(d), v
    assert "scancel" in v["fix"] and "sacct" in v["fix"], v
    assert _verdict(tmp_path, term)["cause"] == "signal"
    cancel = "slurmstepd: error: *** STEP 9120.0 ON node-17 CANCELLED AT 2024-11-20T07:41:03 ***\n"
    assert _verdict(tmp_path, done + term + cancel)["cause"] == "signal"


def test_a_sigterm_a_job_process_logs_with_nothing_failing_is_a_stop_from_outside(tmp_path):
    """Lightning's signal connector logging the SIGTERM a rank got, nothing failing: signal, nobody named (never
    "nothing failed"); the same lines after a worker's own failure are its teardown, which that failure explains."""
    text = "[rank: 2] Received SIGTERM: 15\nBypassing SIGTERM: 15\n"
    d = _report(tmp_path, text)
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("signal", []), d["verdict"]
    assert "sacct" in d["verdict"]["fix"] and not _accused(d)
    oom = ("[rank1]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.00 GiB. GPU 1 has a total "
           "capacity of 39.38 GiB of which 2.06 GiB is free.\n")
    assert _verdict(tmp_path, oom + text)["cause"] == "gpu_oom"


# --- session 7 (round 24): every worker process raising alike, its exception not shown (lead rule J) -------------
def test_every_worker_process_raising_alike_names_nobody_and_is_not_nothing(tmp_path):
    """multiprocessing's "Process SpawnProcess-1:N:" header (then a traceback) on every worker of the engine, and the
    executor noticing: something failed in all of them at once, the exception is not in the lines: unknown, nobody."""
    text = "".join(f"(EngineWorker rank={r} pid={300 + r}) Process ForkProcess-2:{r + 1}:\n" for r in (2, 0, 3, 1))
    text += ("CRITICAL 11-02 09:10:11 [multiproc_executor.py:51] MultiprocExecutor got fatal signal from worker "
             "processes, shutting down. See stack trace above for root cause issue.\n")
    text += "".join(f"(EngineWorker rank={r} pid={300 + r}) Traceback (most recent call last):\n" for r in (1, 3))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []), v
    assert "every worker" in v["summary"] and "traceback" in v["fix"], v
    assert not _accused(d)


def _entry(n: int, time: str, rank: int, local: int, code: int, pid: int, host: str = "node-a") -> str:
    return failure_record(n, rank, local, code, pid, time=time, host=host)


def _record(others: list[str], root: str) -> str:
    return ("torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n" + "=" * 60 + "\n"
            "train.py FAILED\n" + "-" * 60 + "\nFailures:\n" + "".join(others) + "-" * 60
            + "\nRoot Cause (first observed failure):\n" + root + "=" * 60 + "\n")


# --- several ranks failing on their own, the others only torn down afterwards (rule A extended) ------------
def test_two_ranks_failing_on_their_own_are_the_culprits_not_the_ranks_sigkilled_after_the_grace(tmp_path):
    text = _record([_entry(1, "2025-05-06_08:00:10", 6, 6, 2, 4406),
                    _entry(2, "2025-05-06_08:00:41", 2, 2, -9, 4402),
                    _entry(3, "2025-05-06_08:00:41", 4, 4, -15, 4404),
                    _entry(4, "2025-05-06_08:00:41", 7, 7, -9, 4407)],
                   _entry(0, "2025-05-06_08:00:10", 5, 5, 2, 4405))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] != "host_oom" and sorted(v["culprits"]) == [5, 6] and v["confidence"] == "medium", v
    assert _accused(d) == {5, 6}
    assert "rank 2, 4, 7" in v["summary"] and "traceback" in v["fix"] and "@record" in v["fix"]
    from ncclDoctor.diagnose import diagnose

    codes = {f.code for f in diagnose([str(tmp_path / "job.log")]).findings}
    assert "LOG025" not in codes and "LOG018" in codes, "a teardown SIGKILL is not an OOM kill"


def test_a_root_cause_entry_cut_by_the_paste_still_names_its_rank(tmp_path):
    """The paste ends after the Root Cause entry's rank line: that rank is still torchrun's first failure."""
    text = _record([_entry(1, "2025-05-06_08:00:10", 0, 0, 3, 911),
                    _entry(2, "2025-05-06_08:00:42", 1, 1, -9, 912)], "")
    text = text.rsplit("=" * 60, 1)[0] + "[0]:\n  time      : 2025-05-06_08:00:10\n  host      : node-a\n" \
        "  rank      : 3 (local_rank: 3)\n"
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert sorted(v["culprits"]) == [0, 3] and v["cause"] == "unknown", v
    assert _accused(d) == {0, 3}  # rank 1's SIGKILL 32 s later is teardown: no conclusion may accuse it
    assert "None" not in " ".join(k["message"] for k in d["conclusions"])


def test_a_lone_sigkill_before_any_other_failure_is_still_the_oom_killer(tmp_path):
    """The -9 came first (it is the root cause) and the others were SIGTERM'd: rule A, host memory."""
    text = _record([_entry(1, "2025-05-06_08:00:12", 0, 0, -15, 700),
                    _entry(2, "2025-05-06_08:00:12", 2, 2, -15, 702)],
                   _entry(0, "2025-05-06_08:00:11", 1, 1, -9, 701))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("host_oom", [1]), v
    assert _accused(d) == {1}


def test_every_rank_failing_alike_in_one_second_names_nobody(tmp_path):
    """No rank torn down: the same exit on every rank is a shared cause, not four culprits."""
    text = _record([_entry(i, "2025-05-06_08:00:10", r, r, 1, 800 + r) for i, r in enumerate((1, 2), 1)],
                   _entry(0, "2025-05-06_08:00:10", 0, 0, 1, 800))
    d = _report(tmp_path, text)
    assert not _accused(d), d["verdict"]
    assert d["verdict"]["cause"] == "unknown" and "@record" in d["verdict"]["fix"]


def test_kills_without_times_are_not_guessed_to_be_teardown(tmp_path):
    """Without a time to order them, a -9 beside an exit 1 may be the OOM killer's: it is not cleared."""
    text = _record([_entry(1, "", 3, 3, -9, 903)], _entry(0, "", 2, 2, 1, 902)).replace("  time      : \n", "")
    assert "time" not in text
    v = _report(tmp_path, text)["verdict"]
    assert v["cause"] == "host_oom" and 3 in v["culprits"], v


def test_a_root_cause_that_was_only_sigtermed_is_not_accused(tmp_path):
    """The first process torchrun saw end was SIGTERM'd: the job was stopped from outside, nobody failed."""
    text = _record([_entry(1, "2025-05-06_09:10:03", 1, 1, 0, 601)],
                   _entry(0, "2025-05-06_09:10:00", 0, 0, -15, 600))
    d = _report(tmp_path, text)
    assert not _accused(d), (d["verdict"], d["conclusions"])


# --- the destructor warning of a rank that failed with an exit code: its failure, not an early return -------
def test_the_pg_destructor_warning_of_a_failed_rank_is_its_crash_not_an_early_exit(tmp_path):
    text = ("[rank2]:[W501 07:08:09.123456789 ProcessGroupNCCL.cpp:1250] Warning: WARNING: process group has NOT been "
            "destroyed before we destruct ProcessGroupNCCL. On normal program exit, the application should call "
            "destroy_process_group to ensure that any pending NCCL operations have finished in this process.\n"
            "W0501 07:08:10.000000 4100 torch/distributed/elastic/multiprocessing/api.py:897] Sending process 4111 "
            "closing signal SIGTERM\n"
            "E0501 07:08:11.000000 4100 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) "
            "local_rank: 2 (pid: 4112) of binary: /usr/bin/python3\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", [2]), v
    assert "traceback" in v["fix"] and "@record" in v["fix"]
    clean = text.rsplit("E0501", 1)[0]  # no failure recorded: the rank returned early
    assert _report(tmp_path, clean)["verdict"]["cause"] == "early_exit"


# --- CUDA OOM inside NCCL: the 'Cuda failure N' wording, and the proxy thread naming its process's rank -------
def test_an_unhandled_cuda_error_whose_last_error_is_out_of_memory_is_a_gpu_oom(tmp_path):
    text = ("torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled cuda error (run "
            "with NCCL_DEBUG=INFO for details), NCCL version 2.20.5\n"
            "ncclUnhandledCudaError: Call to CUDA function failed.\n"
            "Last error:\n"
            "Cuda failure 2 'out of memory'\n")
    v = _report(tmp_path, text)["verdict"]
    assert v["cause"] == "gpu_oom", v


def test_nccls_proxy_thread_names_the_rank_of_an_oom_on_its_own_thread(tmp_path):
    text = ("gpu-c:7001:7050 [2] include/alloc.h:190 NCCL WARN Cuda failure 'out of memory'\n"
            "gpu-c:7001:7050 [2] include/alloc.h:197 NCCL WARN Failed to CUDA calloc 4194304 bytes\n"
            "gpu-c:7001:7050 [2] proxy.cc:1490 NCCL WARN [Proxy Service 41] Failed to execute operation Setup from "
            "rank 41, retcode 1\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("gpu_oom", [41]), v
    other = text.replace("gpu-c:7001:7050 [2] proxy.cc", "gpu-c:7999:8050 [2] proxy.cc")  # another process
    assert _report(tmp_path, other)["verdict"]["culprits"] != [41]


# --- an OOM that names no rank: the GPU it names is a rank's only when the text proves whose GPU it is -----------
# torch >= 2.1's CUDACachingAllocator text ("capacty" in 2.1, "capacity" after); sizes and pids made up
_OOM = ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 512.00 MiB. GPU {gpu} has a total capacity of "
        "79.15 GiB of which 301.44 MiB is free. {procs}Of the allocated memory 76.02 GiB is allocated by PyTorch, and "
        "1.11 GiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting "
        "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.\n")


def _procs(*sizes: str, base: int = 8800) -> str:
    return "".join(f"Process {base + i} has {s} memory in use. " for i, s in enumerate(sizes))


def test_an_oom_whose_gpu_holds_the_other_ranks_contexts_names_the_rank_of_that_gpu(tmp_path):
    """The raiser is the one process holding what its allocator holds; three others hold the same small context on
    that GPU: the job's processes share the node's numbering, so GPU 2 is local rank 2's (single node: rank 2)."""
    text = _OOM.format(gpu=2, procs=_procs("512.00 MiB", "78.70 GiB", "512.00 MiB", "512.00 MiB"))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"], v["confidence"]) == ("gpu_oom", [2], "medium"), v
    assert "GPU 2" in v["summary"]
    # torch >= 2.4 names the raiser itself ("this process has ..."), the others listed beside it
    this = _OOM.format(gpu=5, procs=_procs("1.02 GiB", "1.02 GiB") + "Including non-PyTorch memory, this process has "
                       "77.90 GiB memory in use. ")
    assert _report(tmp_path, this)["verdict"]["culprits"] == [5]


def test_an_oom_that_only_names_its_gpu_names_no_rank(tmp_path):
    """A device index alone is not a rank (under Ray every actor's GPU is 'GPU 0'): no sibling contexts, others of
    other sizes (a co-located engine), two processes as large, or a job on two nodes name nobody."""
    for procs in ("", _procs("78.70 GiB"), _procs("3.10 GiB", "40.20 GiB", "78.70 GiB"),
                  _procs("78.70 GiB", "78.70 GiB", "512.00 MiB", "512.00 MiB")):
        v = _report(tmp_path, _OOM.format(gpu=1, procs=procs))["verdict"]
        assert (v["cause"], v["culprits"]) == ("gpu_oom", []), (procs, v)
    config = ("I0102 09:59:00.000000 4100 torch/distributed/elastic/agent/server/api.py:525] [default] Rendezvous "
              "complete for workers. Result:\n  restart_count=0\n  master_addr=node-a\n  master_port=29500\n"
              "  group_rank=1\n  group_world_size=2\n  local_ranks=[0, 1, 2, 3]\n")
    shared = _OOM.format(gpu=3, procs=_procs("512.00 MiB", "512.00 MiB", "78.70 GiB"))
    assert _report(tmp_path, shared)["verdict"]["culprits"] == [3]
    v = _report(tmp_path, config + shared)["verdict"]  # local rank 3 of the second node: not rank 3
    assert (v["cause"], v["culprits"]) == ("gpu_oom", []), v


def test_vllms_worker_prefix_names_the_rank_of_its_lines(tmp_path):
    """vLLM's multiproc executor prefixes each worker's lines with "(VllmWorker rank=N pid=P)" (its rank in the
    engine's world); Ray's "(RayWorkerWrapper pid=P)" names only a process."""
    lines = ("torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.cpp:"
             "77, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5",
             "ncclUnhandledCudaError: Call to CUDA function failed.", "Last error:", "Cuda failure 2 'out of memory'")
    text = "".join(f"(VllmWorker rank=6 pid=41207) ERROR 03-04 05:06:07 [multiproc_executor.py:470] {x}\n"
                   for x in lines)
    v = _report(tmp_path, text)["verdict"]
    assert (v["cause"], v["culprits"]) == ("gpu_oom", [6]), v
    ray = "".join(f"(RayWorkerWrapper pid=41207, ip=10.1.2.3) ERROR 03-04 05:06:07 {x}\n" for x in lines)
    assert _report(tmp_path, ray)["verdict"]["culprits"] == []


def test_a_sigkill_whose_failure_line_lost_its_local_rank_is_read_from_the_pid_torchrun_did_not_stop(tmp_path):
    """torchrun starts local ranks 0..n-1 in order and stops the survivors of a failure: when the paste lost
    "local_rank: N (pid: P)", the one pid missing from the run of stopped pids is the failed worker."""
    cut = "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -9) local_rank/usr/bin/python3\n"
    stop = "WARNING:torch.distributed.elastic.multiprocessing.api:Sending process {} closing signal SIGTERM\n"
    text = "".join(stop.format(p) for p in (7711, 7710, 7713, 7714, 7715)) + cut
    v = _report(tmp_path, text)["verdict"]
    assert (v["cause"], v["culprits"], v["confidence"]) == ("host_oom", [2], "medium"), v
    assert "7712" in v["summary"]
    for pids in ((7710, 7711, 7712), (7710, 7712, 7714), ()):  # no gap (before or after?), two gaps, nothing stopped
        v = _report(tmp_path, "".join(stop.format(p) for p in pids) + cut)["verdict"]
        assert (v["cause"], v["culprits"]) == ("host_oom", []), (pids, v)


# --- Slurm's cancel without a reason: an outside signal ------------------------------------------------------
def test_a_slurm_cancel_without_a_reason_is_an_outside_signal(tmp_path):
    text = ("slurmstepd: error: *** STEP 5521.0 ON gpu-a07 CANCELLED AT 2024-06-01T10:11:12 ***\n"
            "slurmstepd: error: *** JOB 5521 ON gpu-a07 CANCELLED AT 2024-06-01T10:11:12 ***\n")
    v = _report(tmp_path, text)["verdict"]
    assert (v["cause"], v["culprits"]) == ("signal", []), v
    assert "scancel" in v["fix"] and "sacct" in v["fix"]
    hung = watchdog_line(1, 4410, "ALLREDUCE", 600100, 600000, numel=9000000, stamp="E601 10:00:00.000000000", at=632)
    assert _report(tmp_path, hung + text)["verdict"]["cause"] != "signal", "a hang cancelled by hand is the hang"


# --- a SIGABRT at exit after the destructor warning: the teardown ------------------------------------------
def test_a_lone_sigabrt_after_the_destructor_warning_is_a_teardown_abort(tmp_path):
    text = ("[rank1]:[W0220 11:00:00.000000000 ProcessGroupNCCL.cpp:1477] Warning: WARNING: destroy_process_group() "
            "was not called before program exit, which can leak resources.\n"
            "terminate called without an active exception\n"
            "E0220 11:05:00.000000 77 torch/distributed/elastic/multiprocessing/api.py:874] failed (exitcode: -6) "
            "local_rank: 1 (pid: 78) of binary: /usr/bin/python3\n")
    v = _report(tmp_path, text)["verdict"]
    assert v["culprits"] == [1] and "teardown" in v["summary"], v
    assert "destroy_process_group" in v["fix"]


# --- round 17: CUDA failures by family, and whose they are ----------------------------------------------------
def test_shm_transport_invalid_argument_points_at_dev_shm_and_the_shm_transport(tmp_path):
    """NCCL 2.4's include/shm.h: CUDACHECK(cudaHostRegister(...)) -> "Cuda failure 'invalid argument'"."""
    text = "w3:410:433 [1] include/shm.h:48 NCCL WARN Cuda failure 'invalid argument'\n"
    v = _verdict(tmp_path, text)
    assert v["cause"] == "cuda_error", v
    assert "/dev/shm" in v["fix"] and "NCCL_SHM_DISABLE" in v["fix"]


def test_a_ranks_cuda_failure_in_the_shm_transport_set_up_is_the_platform_not_that_rank(tmp_path):
    """Lead rule V (2) reaches the shared-memory transport: include/shm.h / transport/shm.cu's 'Cuda failure' during
    the rings' set-up is the host's /dev/shm or cudaHostRegister with this NCCL, culprits [] (named rank 5 at high
    confidence before)."""
    text = ("[1,4]<stdout>:gpu-b17:2210:2231 [0] NCCL INFO comm 0x55d0 rank 4 nranks 8 cudaDev 0 nvmlDev 0 - "
            "Init COMPLETE\n"
            "[1,5]<stdout>:gpu-b17:2211:2230 [1] NCCL INFO Ring 01 : 5[1] -> 6[2] via direct shared memory\n"
            "[1,5]<stdout>:gpu-b17:2211:2230 [1] transport/shm.cc:97 NCCL WARN Cuda failure 'invalid argument'\n"
            "[1,5]<stdout>:gpu-b17:2211:2230 [1] NCCL INFO init.cc:662 -> 1\n")
    v = _verdict(tmp_path, text)  # the rank it happened on is a lead at low confidence (accuses nobody), as for p2p
    assert (v["cause"], v["confidence"]) == ("cuda_error", "low") and "a lead, not a culprit" in v["summary"], v
    assert "/dev/shm" in v["fix"] and "NCCL_SHM_DISABLE" in v["fix"], v["fix"]


def test_a_stub_libcuda_is_the_images_library_path(tmp_path):
    text = "[3] 5fe1c2:81:90 [3] init.cc:211 NCCL WARN Cuda failure 'CUDA driver is a stub library'\n"
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("cuda_error", []), v
    assert "LD_LIBRARY_PATH" in v["fix"] and "stub" in v["fix"]


def test_a_custom_all_reduce_peer_access_error_says_to_disable_it(tmp_path):
    """vLLM's csrc/custom_all_reduce.cuh CUDACHECK: "Failed: Cuda error %s:%d '%s'"."""
    text = ("Failed: Cuda error /src/csrc/custom_all_reduce.cuh:312 'peer access is not supported between these two "
            "devices'\n")
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("cuda_error", []), v
    assert "disable-custom-all-reduce" in v["fix"] and "P2P" in v["fix"]


def test_a_thd_era_unhandled_cuda_error_is_a_cuda_error_with_an_install_check(tmp_path):
    text = ("RuntimeError: NCCL error in: /src/torch/lib/THD/base/data_channels/DataChannelNccl.cpp:301 unhandled "
            "cuda error\n")
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("cuda_error", []), v
    assert "nccl-tests" in v["fix"]


def test_a_ring_line_of_the_same_thread_names_the_rank_of_a_cuda_failure(tmp_path):
    """NCCL 2.4 prints "Ring 01 : 9 -> 22 [send] via NET/Socket/0" from the thread that sets up rank 9's rings."""
    text = ("h2:700:745 [1] NCCL INFO Ring 01 : 9[1] -> 10[2] via P2P/IPC\n"
            "h2:700:745 [1] NCCL INFO Ring 01 : 9 -> 22 [send] via NET/Socket/0\n"
            "h2:700:745 [1] NCCL INFO Ring 01 : 22 -> 9 [receive] via NET/Socket/0\n"
            "h2:700:745 [1] include/shm.h:48 NCCL WARN Cuda failure 'invalid argument'\n")
    d = _report(tmp_path, text)
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("cuda_error", [9]), d["verdict"]
    other = text.replace("h2:700:745 [1] include", "h2:701:745 [1] include")  # another process: nobody named
    assert _accused(_report(tmp_path, other)) == set()


def test_a_gpu_oom_without_a_rank_names_the_one_process_the_launcher_shows_failing(tmp_path):
    text = ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of "
            "23.65 GiB of which 1.10 GiB is free.\n"
            "E1201 09:00:00.000000 1200 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) "
            "local_rank: 0 (pid: 1201) of binary: /usr/bin/python3\n")
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("gpu_oom", [0]), v
    alone = text.splitlines(keepends=True)[0]
    assert _verdict(tmp_path, alone)["culprits"] == [], "no launcher record: the line names no rank"


def test_an_illegal_access_surfacing_in_nccls_allocation_is_an_earlier_kernels(tmp_path):
    text = "gx:12:40 [3] include/alloc.h:119 NCCL WARN Cuda failure 700 'an illegal memory access was encountered'\n"
    v = _verdict(tmp_path, text)
    assert v["cause"] == "cuda_error" and "torch.cuda.set_device" in v["fix"], v


# c10's tail of a watchdog's rethrown exception (torch 2.x prints the what() text, then "Exception raised from <fn> at
# <file>:<line> (most recent call first):" and the frames, for the inner CUDA check and for ncclCommWatchdog last)
_TAIL_FRAMES = ("frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x64 (0x7f31aa0f1e24 in "
                "/opt/conda/lib/python3.12/site-packages/torch/lib/libc10.so)\n"
                "frame #1: <unknown function> + 0xe3b1c2 (0x7f30e263b1c2 in "
                "/opt/conda/lib/python3.12/site-packages/torch/lib/libtorch_cuda.so)\n"
                "frame #2: <unknown function> + 0xd6df4 (0x7f31a94d6df4 in /lib/x86_64-linux-gnu/libstdc++.so.6)\n")
_WD_TAIL = ("Exception raised from ncclCommWatchdog at /opt/pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:"
            "1654 (most recent call first):\n" + _TAIL_FRAMES)
_OWN_CUDA = ("[rank6]:[E0305 08:14:09.771203114 ProcessGroupNCCL.cpp:1648] [PG ID 0 PG GUID 0(default_pg) Rank 6] "
             "Process group watchdog thread terminated with exception: CUDA error: device-side assert triggered\n")


def test_a_watchdog_tail_before_a_ranks_own_cuda_error_is_another_process_crashing(tmp_path):
    """Lead rule AF(3): the paste opens with the tail of a watchdog's rethrow ("Exception raised from ncclCommWatchdog"
    and its frames, its header not shown) and then rank 6's own watchdog CUDA error: in one process that error's log
    line comes before its rethrow's tail, so the tail is another process's crash, whose error and rank are not shown.
    Rank 6 is not shown failing alone: cuda_error, nobody named."""
    text = "  " + _WD_TAIL.replace("\n", "\n  ") + "\nHydra: Error executing job with overrides: []\n" + _OWN_CUDA
    d = _report(tmp_path, text)
    assert d["verdict"]["cause"] == "cuda_error" and _accused(d) == set(), d["verdict"]
    assert "CUDA_LAUNCH_BLOCKING=1" in d["verdict"]["fix"]
    old = ("Exception raised from ncclCommWatchdog at ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1120 (most "
           "recent call first):\n" + _TAIL_FRAMES + "\nterminate called after throwing an instance of "
           "'c10::DistBackendError'\n  what():  [Rank 2] NCCL watchdog thread terminated with exception: CUDA error: "
           "an illegal memory access was encountered\n")  # torch 2.1's wording, no launcher prefix
    d = _report(tmp_path, old)
    assert d["verdict"]["cause"] == "cuda_error" and _accused(d) == set(), d["verdict"]


def test_a_watchdog_tail_after_a_ranks_own_cuda_error_or_after_a_timeout_leaves_that_rank_named(tmp_path):
    """The same tail AFTER rank 6's error is its own rethrow (one process: the log line, then what() and the tail):
    rank 6 failed alone. A block shown before the tail (here a watchdog timeout's checkTimeout frames: a victim's
    crash) is not headless either: rank 6 stays the one that faulted."""
    own = _OWN_CUDA + ("terminate called after throwing an instance of 'c10::DistBackendError'\n  what():  [PG ID 0 "
                       "PG GUID 0(default_pg) Rank 6] Process group watchdog thread terminated with exception: CUDA "
                       "error: device-side assert triggered\n") + _WD_TAIL
    d = _report(tmp_path, own)
    assert d["verdict"]["cause"] == "cuda_error" and _accused(d) == {6}, d["verdict"]
    victim = ("Exception raised from checkTimeout at /opt/pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:632 "
              "(most recent call first):\n"
              "frame #1: c10d::ProcessGroupNCCL::WorkNCCL::checkTimeout(std::optional<std::chrono::duration<long, "
              "std::ratio<1l, 1000l> > >) + 0x1d2 (0x7f30e2627a42 in /opt/conda/lib/python3.12/site-packages/torch/"
              "lib/libtorch_cuda.so)\n") + _WD_TAIL + _OWN_CUDA
    d = _report(tmp_path, victim)
    assert d["verdict"]["cause"] == "cuda_error" and _accused(d) == {6}, d["verdict"]


# --- the elastic agent's ProcessFailure record and its exit barrier (round 18) ---------------------------------------
def test_the_agents_process_failure_record_with_a_bus_error_is_shared_memory_on_that_rank(tmp_path):
    """torch.distributed.elastic's ProcessFailure repr (multiprocessing/errors: local_rank, pid, exitcode,
    error_file, message) inside an agent's or a framework's log line: rule A's lone failure, rule F's SIGBUS."""
    text = ("2025-02-03 10:11:12 ERROR elastic_trainer: workers failed: {3: ProcessFailure(local_rank=3, pid=4410, "
            "exitcode=-7, error_file='<N/A>', error_file_data={'message': '<NONE>'}, message='Signal 7 (SIGBUS) "
            "received by PID 4410', timestamp=1738577472)}\n")
    d = _report(tmp_path, text)
    assert d["verdict"]["cause"] == "dataloader_shm", d["verdict"]
    assert _accused(d) == {3} and "/dev/shm" in d["verdict"]["fix"]


def test_the_agents_process_failure_record_with_sigkill_is_the_host_killing_it(tmp_path):
    text = ("workers failed: {1: ProcessFailure(local_rank=1, pid=77, exitcode=-9, error_file='<N/A>', "
            "error_file_data={'message': '<NONE>'}, message='Signal 9 (SIGKILL) received by PID 77', timestamp=1)}\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "host_oom", v


def test_a_store_timeout_in_the_agents_exit_barrier_is_teardown_not_the_store(tmp_path):
    """torchrun's agent (elastic/agent/server/api.py _exit_barrier) logs "Error waiting on exit barrier. Elapsed:
    %s seconds" with the store's traceback after its own worker failed: the barrier waits for the other nodes'
    agents, so the job is multi-node and the local rank is no global rank; the worker's exit is the news."""
    text = ("[2024-05-06 07:08:09] ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) "
            "local_rank: 2 (pid: 9121) of binary: /usr/bin/python\n"
            "[2024-05-06 07:13:10] ERROR:torch.distributed.elastic.agent.server.api:Error waiting on exit barrier. "
            "Elapsed: 300.71 seconds\n"
            "Traceback (most recent call last):\n"
            "  File \"/venv/lib/python3.10/site-packages/torch/distributed/elastic/agent/server/api.py\", line 920, "
            "in _exit_barrier\n"
            "    store_util.barrier(\n"
            "  File \"/venv/lib/python3.10/site-packages/torch/distributed/elastic/utils/store.py\", line 64, in "
            "barrier\n"
            "    synchronize(store, data, rank, world_size, key_prefix, timeout)\n"
            "torch.distributed.DistStoreError: Socket Timeout\n")
    d = _report(tmp_path, text)
    assert d["verdict"]["cause"] != "store_rendezvous", d["verdict"]
    assert _accused(d) == set(), d["verdict"]


def test_a_store_timeout_without_the_exit_barrier_is_still_the_store(tmp_path):
    text = ("[E socket.cpp:957] [c10d] The client socket has timed out after 900s while trying to connect to "
            "(10.0.0.5, 29500).\n")
    assert _verdict(tmp_path, text)["cause"] == "store_rendezvous"


# --- the agent's clean-up while the workers load the weights (round 20 preparation) --------------------------------
_TERMS = ("WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 30411 closing signal SIGTERM\n"
          "WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 30412 closing signal SIGTERM\n")


def test_sigterms_while_loading_checkpoint_shards_are_a_host_oom_naming_nobody(tmp_path):
    """torch 2.0's agent wording (logging's "WARNING:torch.distributed...") after vLLM's and transformers'
    progress bars, on their own line and glued to the agent's line by the bar's carriage return: the agent stops
    the survivors of a worker that died while loading the weights, and nothing else failed: the OOM killer."""
    for bar in ("Loading safetensors checkpoint shards:  60% Completed | 18/30 [01:02<00:41,  3.44s/it]\n",
                "Loading checkpoint shards:  25%|##5       | 1/4 [00:40<02:00, 40.1s/it]"):
        d = _report(tmp_path, bar + _TERMS)
        assert d["verdict"]["cause"] == "host_oom" and _accused(d) == set(), (bar, d["verdict"])
        assert "dmesg" in d["verdict"]["fix"] and "low_cpu_mem_usage" in d["verdict"]["fix"], d["verdict"]


def test_sigterms_while_loading_after_the_agent_received_a_signal_are_that_signal(tmp_path):
    text = ("Loading checkpoint shards:  25%|##5       | 1/4 [00:40<02:00, 40.1s/it]\n"
            "WARNING:torch.distributed.elastic.agent.server.api:Received 15 death signal, shutting down workers\n"
            + _TERMS)
    assert _verdict(tmp_path, text)["cause"] == "signal"


def test_sigterms_after_the_shards_loaded_and_training_ran_are_not_read_as_loading(tmp_path):
    assert _verdict(tmp_path, _TERMS + "Loading checkpoint shards: 100%|##########| 4/4 [02:41<00:00]\n")[
        "cause"] != "host_oom"


def test_sigterms_after_a_finished_loading_bar_are_not_read_as_loading(tmp_path):
    for bar in ("Loading checkpoint shards: 100%|##########| 4/4 [02:41<00:00, 40.3s/it]\n",
                "Loading safetensors checkpoint shards: Completed | 30/30 [01:40<00:00,  3.33s/it]\n"):
        assert _verdict(tmp_path, bar + _TERMS)["cause"] != "host_oom", bar


# --- NCCL's version line names rank 0's process (round 20 preparation) ----------------------------------------------
_ONE_PROC = ("node-a3:8812:8812 [0] NCCL INFO Bootstrap : Using ib0:10.9.0.14<0>\n"
             "node-a3:8812:8812 [0] NCCL INFO NET/Plugin : Plugin load returned 2 : libnccl-net.so: cannot open "
             "shared object file\n"
             "NCCL version 2.18.3+cuda12.2\n"
             "node-a3:8812:8840 [0] NCCL INFO NET/Socket : Using [0]ib0:10.9.0.14<0>\n"
             "\n"
             "node-a3:8812:8840 [0] init.cc:1403 NCCL WARN Cuda failure 'unspecified launch failure'\n"
             "node-a3:8812:8840 [0] NCCL INFO init.cc:1480 -> 1\n")


def test_a_cuda_failure_of_the_one_process_that_printed_nccls_version_is_rank_0s(tmp_path):
    """ncclCommInitRank prints "NCCL version X" in a communicator's rank 0 only (init.cc: if (myrank == 0)
    showVersion(), NCCL 2.0-2.28): an input of one process on device 0, with NCCL_DEBUG=INFO (its INFO lines,
    printed by every process, say no other is here), holding that line, is rank 0's output."""
    d = _report(tmp_path, _ONE_PROC)
    assert d["verdict"]["cause"] == "cuda_error" and d["verdict"]["culprits"] == [0], d["verdict"]
    assert d["verdict"]["confidence"] in ("medium", "high") and "version line" in d["verdict"]["summary"]


def test_nccls_version_line_does_not_name_rank_0_when_the_lines_may_hold_another_process(tmp_path):
    warn_only = "NCCL version 2.18.3+cuda12.2\n" + "".join(x + "\n" for x in _ONE_PROC.splitlines() if "WARN" in x)
    other_dev = _ONE_PROC.replace("[0]", "[3]")
    two_procs = _ONE_PROC + "node-a3:8813:8813 [1] NCCL INFO Bootstrap : Using ib0:10.9.0.14<0>\n"
    no_version = _ONE_PROC.replace("NCCL version 2.18.3+cuda12.2\n", "")
    for text in (warn_only, other_dev, two_procs, no_version):
        d = _report(tmp_path, text)
        assert d["verdict"]["cause"] == "cuda_error" and _accused(d) == set(), (text, d["verdict"])


# --- a DataLoader worker's death named by the launcher's record (round 20 preparation) -------------------------------
def test_an_unranked_dataloader_death_names_the_one_rank_torchrun_shows_failing(tmp_path):
    """torch's DataLoader raises in its main process ("DataLoader worker (pid N) is killed by signal: Bus
    error."), which exits 1: the lone failure of torchrun's record (lead rules A and F) is where it happened."""
    for sig, cause in (("Bus error", "dataloader_shm"), ("Killed", "host_oom")):
        text = (f"RuntimeError: DataLoader worker (pid 9123) is killed by signal: {sig}. \n"
                "Root Cause (first observed failure):\n"
                + failure_record(0, 6, 6, 1, 9001, time="2025-03-04_08:00:00", host="gpu-7", traceback=None))
        d = _report(tmp_path, text)
        assert d["verdict"]["cause"] == cause and d["verdict"]["culprits"] == [6], (sig, d["verdict"])
        assert d["verdict"]["confidence"] in ("medium", "high")


def test_a_one_process_jobs_worker_bus_error_names_no_rank(tmp_path):
    """Lead rule AG: a world of one process (rank 0's output tag alone: torch's "[rank0]:", Lightning's "[rank: 0] ")
    whose DataLoader worker dies of a bus error, with no launcher record: the container's /dev/shm, culprits []."""
    worker = ("RuntimeError: DataLoader worker (pid 2210) is killed by signal: Bus error. It is possible that "
              "dataloader's workers are out of shared memory. Please try to raise your shared memory limit.\n")
    for tag in ("[rank0]: ", "[rank: 0] "):
        text = (f"{tag}Epoch 3:  41%|####      | 512/1250 [01:02<01:30, 8.2it/s]\n"
                f"{tag}ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient "
                "shared memory (shm).\n" + f"{tag}{worker}")
        d = _report(tmp_path, text)
        assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("dataloader_shm", []), (tag, d["verdict"])
        assert _accused(d) == set(), (tag, d)
    # the process's own crash handler ("Caught signal 7 (Bus error ...)", lead rule F) alike
    v = _verdict(tmp_path, "[rank0]: [box-3:2201:0:2290] Caught signal 7 (Bus error: nonexistent physical address)\n")
    assert (v["cause"], v["culprits"]) == ("dataloader_shm", []), v
    # a launcher's record naming the process still names it (rule A), and a world of two is no world of one
    recorded = ("[rank0]: " + worker + "Root Cause (first observed failure):\n"
                + failure_record(0, 0, 0, 1, 2201, host="box-3", traceback=None))
    assert _verdict(tmp_path, recorded)["culprits"] == [0]
    two = nccl_info("box-3", 2201, 0, "comm 0x5581c2a0 rank 0 nranks 2 cudaDev 0 busId 1000 - Init COMPLETE") + (
        "[rank0]: " + worker)
    assert _verdict(tmp_path, two)["culprits"] == [0]


def test_sigterms_in_torch_2_6s_wording_while_loading_are_a_host_oom_too(tmp_path):
    """torch >= 2.6's agent says "Closing process N via signal SIGTERM" (elastic/multiprocessing/api.py)."""
    text = ("Loading checkpoint shards:  40%|####      | 2/5 [00:31<00:47, 15.7s/it]\n"
            "W0312 10:01:02.123000 5510 torch/distributed/elastic/multiprocessing/api.py:940] Closing process 5521 "
            "via signal SIGTERM\n"
            "W0312 10:01:02.124000 5510 torch/distributed/elastic/multiprocessing/api.py:940] Closing process 5522 "
            "via signal SIGTERM\n")
    d = _report(tmp_path, text)
    assert d["verdict"]["cause"] == "host_oom" and _accused(d) == set(), d["verdict"]


# --- launchers whose record names the global rank (lead rule I) -----------------------------------------------------
def test_composers_launcher_record_names_the_rank_that_crashed_and_not_those_it_killed(tmp_path):
    """composer/cli/launcher.py: "Rank N crashed with exit code C." (_monitor_processes), "Killing global rank N
    (PID P) with SIGTERM" (_cleanup_processes, the survivors), "Global rank N (PID P) exited with code C"."""
    text = ("ERROR:composer.cli.launcher:Rank 6 crashed with exit code -9.\n"
            "INFO:composer.cli.launcher:Killing global rank 0 (PID 70100) with SIGTERM\n"
            "INFO:composer.cli.launcher:Killing global rank 7 (PID 70107) with SIGTERM\n"
            "ERROR:composer.cli.launcher:Global rank 6 (PID 70106) exited with code -9\n")
    d = _report(tmp_path, text)
    assert d["verdict"]["cause"] == "host_oom" and d["verdict"]["culprits"] == [6], d["verdict"]
    assert _accused(d) == {6}
    oom = ("Global rank 1 (PID 811) exited with code 1\n----------Begin global rank 1 STDERR----------\n"
           "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.00 GiB. GPU 1 has a total capacity of "
           "39.4 GiB of which 2.1 GiB is free.\n----------End global rank 1 STDERR----------\n")
    v = _verdict(tmp_path, oom)
    assert v["cause"] == "gpu_oom" and v["culprits"] == [1], v


def test_mpiruns_record_names_the_rank_that_died_first(tmp_path):
    """Open MPI's mpirun: "mpirun noticed that process rank N with PID P on node H exited on signal S (...)" and
    its non-zero-status block, whose rank is on the "Process name: [[jobid,vpid],N]" line."""
    sig = ("--------------------------------------------------------------------------\n"
           "mpirun noticed that process rank 12 with PID 0 on node hpc-041 exited on signal 9 (Killed).\n"
           "--------------------------------------------------------------------------\n")
    v = _verdict(tmp_path, sig)
    assert v["cause"] == "host_oom" and v["culprits"] == [12], v
    block = ("--------------------------------------------------------------------------\n"
             "mpirun detected that one or more processes exited with non-zero status, thus causing\n"
             "the job to be terminated. The first process to do so was:\n"
             "\n"
             "  Process name: [[51230,1],4]\n"
             "  Exit code:    2\n"
             "--------------------------------------------------------------------------\n")
    v = _verdict(tmp_path, block)
    assert v["culprits"] == [4] and v["confidence"] in ("medium", "high"), v


def test_horovodruns_first_failure_block_names_the_rank_or_only_a_host_and_local_index(tmp_path):
    """horovodrun's gloo launchers raise mpirun's block in their own words ("Horovod detected that one or more
    processes exited with non-zero status ... Process name: N / Exit code: C"): the static launcher's name is the
    slot's index, the rank (lead rules A, I), whatever order a log collector gives the two lines (Determined's trial
    logs, "<> [clock] cid || "); the elastic launcher's "host[local]" gives no global rank (ranks are reassigned at
    each reset), and its 137 is a shell's 128 + 9, SIGKILL (host_oom, nobody named). A bare "Process name: 1" outside
    that block is not a record of anything."""
    head = ("RuntimeError: Horovod detected that one or more processes exited with non-zero status, thus causing the "
            "job to be terminated. The first process to do so was:\n")
    v = _verdict(tmp_path, head + "Process name: 1\nExit code: 1\n")
    assert (v["cause"], v["culprits"]) == ("unknown", [1]), v
    det = "".join(f"<>        [2021-12-07 10:43:01] 087c0ee7 || {x}\n" for x in
                  (head.strip(), "Exit code: 1", "Process name: 1"))
    v = _verdict(tmp_path, det)
    assert (v["cause"], v["culprits"]) == ("unknown", [1]), v
    v = _verdict(tmp_path, head + "Process name: worker-3[0]\nExit code: 137\n")
    assert (v["cause"], v["culprits"]) == ("host_oom", []), v
    v = _verdict(tmp_path, "step 10 done\nProcess name: 1\nExit code: 1\n")
    assert v["culprits"] == [], v


def test_mpiruns_record_with_the_pid_and_node_masked_still_names_the_rank(tmp_path):
    """A reporter who masks mpirun's PID and node ("with PID XXXX on node <host>") leaves the record's meaning
    whole: the rank and the signal still name the first process that died."""
    text = ("Primary job  terminated normally, but 1 process returned\n"
            "a non-zero exit code. Per user-direction, the job has been aborted.\n"
            "mpirun noticed that process rank 6 with PID XXXX on node <host> exited on signal 9 (Killed).\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "host_oom" and v["culprits"] == [6] and v["confidence"] in ("medium", "high"), v
    segv = text.replace("rank 6 with PID XXXX", "rank 3 with PID ****").replace("9 (Killed)", "11 (Segmentation fault)")
    v = _verdict(tmp_path, segv)
    assert v["culprits"] == [3] and v["confidence"] in ("medium", "high"), v


def test_a_pod_evicted_for_the_nodes_memory_is_the_host_running_out(tmp_path):
    """The kubelet evicting a pod under node memory pressure ("Reason: Evicted", "The node was low on resource:
    memory.", the event "The node had condition: [MemoryPressure].") is host memory running out (host_oom), a pod
    and no rank named; the fix names the pod's memory requests."""
    describe = ("Name:           llm-pretrain-worker-2\nStatus:         Failed\nReason:         Evicted\n"
                "Message:        The node was low on resource: memory. Container trainer was using 61203312Ki, "
                "which exceeds its request of 32Gi.\n")
    event = ("LAST SEEN   TYPE      REASON    OBJECT                      MESSAGE\n"
             "2m          Warning   Evicted   pod/llm-pretrain-worker-0   The node had condition: [MemoryPressure].\n")
    for text in (describe, event):
        d = _report(tmp_path, text)
        assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("host_oom", []), d["verdict"]
        assert "memory requests" in d["verdict"]["fix"] and _accused(d) == set()


def test_ray_marking_a_node_dead_is_a_failure_whose_cause_the_line_does_not_give(tmp_path):
    """Ray's GCS losing a node ("The node with node id: ... has been marked dead because the detector has missed too
    many heartbeats from it"): every worker there is gone -- a failure, not a quiet log -- but the raylet crash (OOM,
    preemption) or the lagging heartbeats it lists are not told apart: cause unknown, nobody named."""
    text = ("(TrainTrainable pid=7781) Epoch 3:  41%|####      | 410/1000 [12:01<17:18]\n"
            "2025-02-17 09:12:44,118\tWARNING worker.py:2100 -- The node with node id: 9f3ce1d2aa and address: "
            "10.20.1.14 and node name: 10.20.1.14 has been marked dead because the detector has missed too many "
            "heartbeats from it. This can happen when a \t(1) raylet crashes unexpectedly (OOM, preempted node, etc.)\n"
            "(2) raylet has lagging heartbeats due to slow network or busy workload.\n")
    d = _report(tmp_path, text)
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("unknown", []), d["verdict"]
    assert "raylet" in d["verdict"]["fix"] and _accused(d) == set()


# --- every process killed alike (lead rule J) -------------------------------------------------------------------
def _killed_entry(i: int, rank: int, code: int, when: str = "2025-06-01_03:14:15") -> str:
    return failure_record(i, rank + 8, rank, code, 5100 + rank, time=when, host="gpu-node-2")


def test_every_process_of_the_record_killed_in_one_second_is_the_host_not_a_rank(tmp_path):
    text = ("Failures:\n" + _killed_entry(1, 1, -9) + _killed_entry(2, 2, -9) + _killed_entry(3, 3, -9)
            + "------------------------------------------------------------\nRoot Cause (first observed failure):\n"
            + _killed_entry(0, 0, -9))
    d = _report(tmp_path, text)
    assert d["verdict"]["cause"] == "host_oom" and _accused(d) == set(), d["verdict"]
    assert "dmesg" in d["verdict"]["fix"]


def test_one_process_killed_and_the_rest_torn_down_still_names_it(tmp_path):
    text = ("Failures:\n" + _killed_entry(1, 1, -15) + _killed_entry(2, 2, -15)
            + "Root Cause (first observed failure):\n" + _killed_entry(0, 3, -9))
    d = _report(tmp_path, text)
    assert d["verdict"]["cause"] == "host_oom" and d["verdict"]["culprits"] == [11], d["verdict"]


# --- the shell's signal reports, host memory, ECC (round 20 preparation) ---------------------------------------------
def test_the_shells_bus_error_alone_is_shared_memory_and_its_segfault_a_native_crash(tmp_path):
    """bash's report of a foreground job's death ("Bus error (core dumped)", "./run.sh: line 7: 812 Segmentation
    fault (core dumped) python ..."): SIGBUS is /dev/shm (lead rule F), SIGSEGV a native crash (rule A: unknown)."""
    v = _verdict(tmp_path, "./launch.sh: line 7:   812 Bus error               (core dumped) python train.py\n")
    assert v["cause"] == "dataloader_shm" and v["culprits"] == [], v
    v = _verdict(tmp_path, "Segmentation fault (core dumped)\n")
    assert v["cause"] == "unknown" and v["culprits"] == [] and "faulthandler" in v["fix"], v


def test_mpich_hydras_exit_string_of_a_bus_error_is_shared_memory_and_of_a_segfault_a_native_crash(tmp_path):
    """MPICH's hydra (mpiexec) reports one of its processes dying of a signal as "BAD TERMINATION OF ONE OF YOUR
    APPLICATION PROCESSES" then "YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Bus error (signal 7)", no rank
    named: SIGBUS is /dev/shm (lead rule F), SIGSEGV a native crash (rule A), nobody blamed."""
    block = ("===================================================================================\n"
             "=   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES\n"
             "=   PID 20411 RUNNING AT node-b7\n"
             "=   EXIT CODE: {code}\n"
             "=   CLEANING UP REMAINING PROCESSES\n"
             "===================================================================================\n"
             "YOUR APPLICATION TERMINATED WITH THE EXIT STRING: {sig} (signal {n})\n")
    v = _verdict(tmp_path, block.format(code=135, sig="Bus error", n=7))
    assert v["cause"] == "dataloader_shm" and v["culprits"] == [], v
    v = _verdict(tmp_path, block.format(code=139, sig="Segmentation fault", n=11))
    assert v["cause"] == "unknown" and v["culprits"] == [], v


def test_a_processs_own_host_allocation_failure_is_a_host_oom_on_its_rank(tmp_path):
    """torch's c10/core/impl/alloc_cpu.cpp ("DefaultCPUAllocator: can't allocate memory: you tried to allocate N
    bytes") and Python's MemoryError (numpy: "Unable to allocate 12.5 GiB for an array ...")."""
    for text, ranks in (("[rank6]: RuntimeError: [enforce fail at alloc_cpu.cpp:83] err == 0. DefaultCPUAllocator: "
                         "can't allocate memory: you tried to allocate 8589934592 bytes. Error code 12 (Cannot "
                         "allocate memory)\n", [6]),
                        ("MemoryError: Unable to allocate 12.5 GiB for an array with shape (1677721600,) and data "
                         "type float64\n", [])):
        d = _report(tmp_path, text)
        assert d["verdict"]["cause"] == "host_oom" and d["verdict"]["culprits"] == ranks, (text, d["verdict"])
        assert "memory" in d["verdict"]["fix"]


def test_an_uncorrectable_ecc_error_is_that_gpus_hardware(tmp_path):
    v = _verdict(tmp_path, "[rank2]: torch.AcceleratorError: CUDA error: uncorrectable ECC error encountered\n")
    assert v["cause"] == "cuda_error" and v["culprits"] == [2], v
    assert "ECC" in v["fix"] and "dcgmi" in v["fix"], v


# --- round 20's crash misses, in other wordings ---------------------------------------------------------------------
def _table(entries: list[tuple[int, str, str | None]], root: tuple[int, str]) -> str:
    """torchrun's failure table: (rank, time, exit code or None) entries, then a root cause cut after its rank line."""
    out = ["torch.distributed.elastic.multiprocessing.errors.ChildFailedError:", "=" * 40, "train.py FAILED",
           "-" * 40, "Failures:"]
    for i, (rank, when, code) in enumerate(entries, 1):
        out += [f"[{i}]:", f"  time      : {when}", "  host      : gpu-node-17",
                f"  rank      : {rank} (local_rank: {rank})"]
        if code is not None:
            out += [f"  exitcode  : {code} (pid: {5100 + rank})", "  error_file: <N/A>"]
    out += ["-" * 40, "Root Cause (first observed failure):", "[0]:", f"  time      : {root[1]}",
            "  host      : gpu-node-17", f"  rank      : {root[0]} (local_rank: {root[0]})"]
    return "\n".join(out) + "\n"


def test_every_rank_dying_of_sigbus_in_one_second_is_the_hosts_shm_even_with_the_roots_code_cut(tmp_path):
    """Lead rule J with rule F: the root cause's exit line cut from the paste, the others SIGBUS in the same second
    and nobody torn down: /dev/shm ran out for the whole node, no rank is named (the root least of all)."""
    d = _report(tmp_path, _table([(0, "2025-02-11_08:30:12", "-7"), (1, "2025-02-11_08:30:12", "-7")],
                                 (2, "2025-02-11_08:30:12")))
    assert d["verdict"]["cause"] == "dataloader_shm" and _accused(d) == set(), d["verdict"]
    assert "shm" in d["verdict"]["fix"]


def test_a_cut_root_a_second_apart_from_the_others_is_not_read_as_alike(tmp_path):
    d = _report(tmp_path, _table([(1, "2025-02-11_08:30:14", "-7")], (0, "2025-02-11_08:30:12")))
    assert d["verdict"]["cause"] == "dataloader_shm" and 1 not in _accused(d), d["verdict"]


def test_every_rank_segfaulting_in_one_second_names_no_rank(tmp_path):
    """Rule J's first sentence for any signal: all SIGSEGV together is one shared cause (cause unknown by rule A's
    table), not torchrun's polling order's 'first observed failure'."""
    d = _report(tmp_path, _table([(0, "2024-07-30_22:01:09", "-11"), (1, "2024-07-30_22:01:09", "-11"),
                                  (2, "2024-07-30_22:01:09", "-11")], (3, "2024-07-30_22:01:09")))
    assert d["verdict"]["cause"] == "unknown" and _accused(d) == set(), d
    assert "faulthandler" in d["verdict"]["fix"], d["verdict"]


def test_argparse_refusing_the_launchers_local_rank_argument_is_config_naming_nobody(tmp_path):
    """A launcher/script mismatch on the local-rank argument (argparse exits 2): torchrun passes none while the
    script requires --local_rank, or the launcher passes --local_rank=N to a script that spells it otherwise. Lead
    rules Q and U (2): every worker is launched the same way, so the record's failed rank is not named."""
    required = ("usage: finetune.py [-h] --local_rank LOCAL_RANK [--config CONFIG]\n"
                "finetune.py: error: the following arguments are required: --local_rank\n"
                "E0314 10:02:55.120000 4411 torch/distributed/elastic/multiprocessing/api.py:826] failed (exitcode: 2) "
                "local_rank: 1 (pid: 4420) of binary: /usr/bin/python3\n")
    v = _verdict(tmp_path, required)
    assert v["cause"] == "config" and v["culprits"] == [], v
    assert "LOCAL_RANK" in v["fix"] and "--local-rank" in v["fix"], v
    passed = "[2024-05-02 11:40:03] pretrain.py: error: unrecognized arguments: --local_rank=3 --deepspeed\n"
    v = _verdict(tmp_path, passed)
    assert v["cause"] == "config" and v["culprits"] == [] and "LOCAL_RANK" in v["fix"], v
    assert "unrecognized arguments" in v["fix"] and "exit code 2" in v["fix"], v  # the usage error's own words


def test_a_lone_sigabrt_asks_for_the_ranks_stderr_its_stacks_and_a_core_dump(tmp_path):
    """A rank's own SIGABRT (not the watchdog's): the expert asks for that rank's stderr, faulthandler's Python stack,
    TORCH_SHOW_CPP_STACKTRACES' C++ one and a core dump; a 'Fatal Python error' line says the interpreter or a C
    extension aborted."""
    log = ("Fatal Python error: PyThreadState_Get: the function must be called with the GIL held, but the GIL is "
           "released (the current Python thread state is NULL)\n"
           "Python runtime state: initialized\n"
           "E1107 19:44:02.310000 9021 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: -6) "
           "local_rank: 5 (pid: 9033) of binary: /opt/conda/bin/python\n")
    v = _verdict(tmp_path, log)
    assert v["cause"] == "unknown" and v["culprits"] == [5], v
    assert "Fatal Python error" in v["summary"] and "C extension" in v["summary"], v
    for word in ("faulthandler", "TORCH_SHOW_CPP_STACKTRACES=1", "core dump", "gdb", "stderr"):
        assert word in v["fix"], (word, v["fix"])


def test_a_fatal_python_error_alone_is_a_crash_naming_nobody(tmp_path):
    """faulthandler's "Fatal Python error: <signal>" with no record around it: a process died in native code (or,
    for a bus error, of /dev/shm by rule F); nobody is named, since the watchdog's abort of a waiting rank prints
    "Fatal Python error: Aborted" too."""
    stack = "\nCurrent thread 0x00007fa1c2ffd640 (most recent call first):\n  File \"/srv/train.py\", line 88 in step\n"
    d = _report(tmp_path, "Fatal Python error: Floating point exception\n" + stack)
    assert d["verdict"]["cause"] == "unknown" and _accused(d) == set(), d["verdict"]
    assert "faulthandler" in d["verdict"]["fix"] and "core" in d["verdict"]["fix"], d["verdict"]
    v = _verdict(tmp_path, "[rank1]: Fatal Python error: Aborted\n" + stack)
    assert v["cause"] == "unknown" and v["culprits"] == [] and "watchdog" in v["summary"], v
    assert "TORCH_SHOW_CPP_STACKTRACES=1" in v["fix"], v
    v = _verdict(tmp_path, "Fatal Python error: Bus error\n" + stack)
    assert v["cause"] == "dataloader_shm" and v["culprits"] == [], v


def test_rusts_memory_allocation_failed_abort_is_host_memory(tmp_path):
    """A native extension's Rust allocator aborting ("memory allocation of N bytes failed", here under torchrun's
    [rankN] prefix and another size) is host RAM running out in that process: host_oom, on the rank its line names."""
    text = ("[rank5]:memory allocation of 67108864 bytes failed\n"
            "W1130 09:12:44.118000 4411 torch/distributed/elastic/multiprocessing/api.py:897] Sending process 4420 "
            "closing signal SIGTERM\n")
    d = _report(tmp_path, text)
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("host_oom", [5]), d["verdict"]


def test_an_uncaught_bad_alloc_abort_is_host_memory_of_the_rank_that_aborted(tmp_path):
    """C++'s operator new failing uncaught ("terminate called after throwing an instance of 'std::bad_alloc'") aborts
    the process: torchrun's record of that worker's -6 is the abort of the failed host allocation, so the rank it
    names ran out of host memory (host_oom; rule A names local rank 0 of a single-node job). Without the bad_alloc
    the same -6 stays an unexplained abort, and a bad_alloc only mentioned (caught and retried) is no failure."""
    rec = ("E1114 10:03:38.329000 1813028 torch/distributed/elastic/multiprocessing/api.py:874] failed (exitcode: -6) "
           "local_rank: 0 (pid: 1813105) of binary: /usr/bin/python3.10\n")
    v = _verdict(tmp_path, "terminate called after throwing an instance of 'std::bad_alloc'\n  what():  "
                           "std::bad_alloc\n" + rec)
    assert (v["cause"], v["culprits"]) == ("host_oom", [0]), v
    v = _verdict(tmp_path, rec)
    assert v["cause"] != "host_oom", v
    v = _verdict(tmp_path, "caught std::bad_alloc while building the cache, retrying with a smaller one\n")
    assert v["cause"] != "host_oom", v


def test_a_lone_sigill_names_a_build_for_another_cpu(tmp_path):
    """Rule A with SIGILL (exit -4, torchrun's 'failed (exitcode: -4)' of local_rank 2, another pid): the culprit
    is that rank, and the fix says what an expert does: a binary built for another CPU (AVX) or GPU, rebuilt or
    the same build on every node."""
    text = ("ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -4) local_rank: 2 (pid: 51230) of "
            "binary: /opt/conda/bin/python\n")
    v = _verdict(tmp_path, text)
    assert v["culprits"] == [2], v
    assert "Illegal instruction" in v["fix"] and "AVX" in v["fix"], v["fix"]


# --- session 7 (f3): the fix names the concrete next action for the shape ---------------------------------------
def test_a_lone_exit_1_without_its_exception_names_that_ranks_traceback_and_record(tmp_path):
    """torchrun's agent line "failed (exitcode: %d) local_rank: %s (pid: %d) of binary: %s" for one rank, the other
    only sent SIGTERM (lead rule A): the fix says where that rank's own traceback is and how to get it."""
    text = ("WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 51001 closing signal SIGTERM\n"
            "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 2 (pid: 51003) of "
            "binary: /opt/conda/bin/python3.11\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "unknown" and v["culprits"] == [2], v
    assert "traceback of local_rank 2" in v["fix"] and "run rank 2 alone" in v["fix"], v["fix"]
    assert "@record / error_file" in v["fix"] and "--tee" in v["fix"], v["fix"]


def test_a_dataloader_worker_killed_by_sigkill_is_host_ram_not_shared_memory(tmp_path):
    """torch's _error_if_any_worker_fails: "DataLoader worker (pid(s) %s) is killed by signal: %s." -- Killed is the
    kernel's OOM killer (host RAM); a bus error stays /dev/shm (lead rule F)."""
    killed = "[rank5]: RuntimeError: DataLoader worker (pid 77120) is killed by signal: Killed. \n"
    v = _verdict(tmp_path, killed)
    assert v["cause"] == "host_oom" and v["culprits"] == [5], v
    assert "host memory (RAM)" in v["fix"] and "dmesg" in v["fix"] and "num_workers" in v["fix"], v["fix"]
    assert "/dev/shm" not in v["fix"], v["fix"]
    bus = "[rank5]: RuntimeError: DataLoader worker (pid 77120) is killed by signal: Bus error. \n"
    v = _verdict(tmp_path, bus, "bus.log")
    assert v["cause"] == "dataloader_shm" and "/dev/shm" in v["fix"], v


def test_an_illegal_access_in_a_custom_all_reduce_kernel_names_disabling_it(tmp_path):
    """vLLM/SGLang's CUDACHECK in their own custom all-reduce ("Failed: Cuda error %s:%d '%s'"), in every worker:
    the fix turns that kernel off (and CUDA graph capture, where it is usually hit)."""
    line = "Failed: Cuda error /sgl-workspace/sgl-kernel/csrc/allreduce/custom_all_reduce.cuh:312 'an illegal memory " \
           "access was encountered'\n"
    v = _verdict(tmp_path, line * 2)
    assert v["cause"] == "cuda_error", v
    assert "--disable-custom-all-reduce" in v["fix"] and "--enforce-eager" in v["fix"], v["fix"]


# --- session 7 (fixc): DeepSpeed's launcher record names the failed worker only when it launched one (rule M) -----
def _ds_record(pids: list[int], last_local: int, code: int) -> str:
    """DeepSpeed's launcher/launch.py sigkill_handler: logger.info(f"Killing subprocess {process.pid}") for every
    worker, then logger.error(f"{cmd} exits with return code = {last_return_code}") with `cmd` left over from the
    spawn loop (the last worker launched)."""
    kills = "".join(f"[2025-03-04 08:15:0{i},100] [INFO] [launch.py:319:sigkill_handler] Killing subprocess {p}\n"
                    for i, p in enumerate(pids))
    return kills + ("[2025-03-04 08:15:09,400] [ERROR] [launch.py:325:sigkill_handler] ['/opt/venv/bin/python', '-u', "
                    f"'pretrain.py', '--local_rank={last_local}', '--config', 'cfg.yaml'] exits with return code = "
                    f"{code}\n")


def test_deepspeeds_record_of_several_workers_names_none_of_them(tmp_path):
    """Lead rule M: with three workers the command printed is --local_rank=2's whatever worker failed; its -11 and
    -9 name nobody (the 'Killing subprocess' lines list every worker, the failed one too)."""
    d = _report(tmp_path, _ds_record([7301, 7302, 7303], 2, -11))
    assert d["verdict"]["cause"] == "unknown" and not _accused(d), d["verdict"]
    assert "last" in d["verdict"]["summary"] and "every worker" in d["verdict"]["fix"], d["verdict"]
    d = _report(tmp_path, _ds_record([7301, 7302, 7303], 2, -9), "kill.log")
    assert d["verdict"]["cause"] == "host_oom" and not _accused(d), d["verdict"]


def test_deepspeeds_launcher_killing_its_one_worker_names_local_rank_0(tmp_path):
    """Lead rules M and AG (round 58): one 'Killing subprocess' line and the launcher's own traceback (main's
    sigkill_handler raising CalledProcessError, its return code cut off): the launcher ran one worker, so its
    record names it -- rank 0 -- cause unknown. Two kill lines (two workers) name nobody."""
    tail = ("Traceback (most recent call last):\n"
            '  File "/opt/conda/lib/python3.9/site-packages/deepspeed/launcher/launch.py", line 171, in main\n'
            "    sigkill_handler(signal.SIGTERM, None)  # not coming back\n"
            '  File "/opt/conda/lib/python3.9/site-packages/deepspeed/launcher/launch.py", line 140, in '
            "sigkill_handler\n"
            "    raise subprocess.CalledProcessError(returncode=last_return_code, cmd=cmd)\n")
    one = "[2023-05-17 10:02:11,808] [INFO] [launch.py:139:sigkill_handler] Killing subprocess 88412\n"
    v = _report(tmp_path, one + tail)["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", [0]), v
    assert "return code" in v["fix"], v
    two = one + "[2023-05-17 10:02:11,809] [INFO] [launch.py:139:sigkill_handler] Killing subprocess 88413\n"
    v = _report(tmp_path, two + tail, "two.log")["verdict"]
    assert v["cause"] == "unknown" and v["culprits"] == [], v



_LAUNCH_TAIL = ("Traceback (most recent call last):\n"
                '  File "/usr/lib/python3.8/site-packages/torch/distributed/launch.py", line 340, in <module>\n'
                "    main()\n"
                '  File "/usr/lib/python3.8/site-packages/torch/distributed/launch.py", line 326, in main\n'
                "    sigkill_handler(signal.SIGTERM, None)  # not coming back\n")


def test_torch_launchs_bare_kill_lines_are_its_record_of_a_failed_worker(tmp_path):
    """Round 59 (lead rules M, U (5)): torch 1.x's torch.distributed.launch print()s 'Killing subprocess P' bare, one
    a worker (a tqdm bar may sit before the first), once a worker exited non-zero; its CalledProcessError cut off.
    Three kill lines: a worker failed, the list names nobody (cause unknown, each rank's log). One kill line under
    the one worker's untagged exception: that worker is rank 0, and the fix starts from its exception."""
    kills = "train:   0%|          | 0/12 [00:00<?, ?Killing subprocess 40211\n" \
            "Killing subprocess 40212\nKilling subprocess 40213\n"
    d = _report(tmp_path, "INFO  Start training\n" + kills + _LAUNCH_TAIL)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), v
    assert "each rank's log" in v["fix"] and "worker traceback" in v["fix"], v
    own = ("Traceback (most recent call last):\n"
           '  File "train_vq.py", line 101, in train\n    for i, batch in enumerate(loader):\n'
           '  File "/usr/lib/python3.8/site-packages/torch/_utils.py", line 429, in reraise\n'
           "    raise self.exc_type(msg)\n"
           "PIL.UnidentifiedImageError: cannot identify image file 'img/0042.png'\n")
    v = _report(tmp_path, own + "Killing subprocess 7718\n" + _LAUNCH_TAIL, "one.log")["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", [0]), v
    assert "UnidentifiedImageError" in v["fix"] and "num_workers=0" in v["fix"], v

def _tb(rank: int, exc: str, prefix: str = "[rank{r}]: ") -> str:
    p = prefix.format(r=rank)
    return (f"{p}Traceback (most recent call last):\n{p}  File \"/work/proj/src/adapters/load.py\", line 91, in "
            f"load_state\n{p}    raise {exc.split(':')[0]}\n{p}{exc}\n")


def test_deepspeeds_unnamed_record_with_every_worker_raising_alike_names_that_exception(tmp_path):
    """Round 50 (o-lora's shape, lead rules J and M): the record names no worker, and the lines hold every worker's
    traceback ending in the same exception (a bare one or with a message, another rank order and prefix): the
    summary says the lines hold it and the fix starts from that exception; nobody is accused."""
    for ranks, exc, prefix, last in (((3, 1, 0, 2), "NotImplementedError", "[rank{r}]: ", 3),
                                     ((0, 1), "KeyError: 'lora_A.weight'", "{r}: ", 1)):
        text = "".join(_tb(r, exc, prefix) for r in ranks) + _ds_record([5100 + r for r in ranks], last, 1)
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert v["cause"] == "unknown" and not _accused(d), v
        assert f"tracebacks end in the same {exc}" in v["fix"] and "the lines hold it" in v["summary"], v
    # a near shape: the workers' tracebacks end in different exceptions -- no shared exception is named
    text = _tb(0, "NotImplementedError") + _tb(1, "ValueError: bad shape") + _ds_record([5100, 5101], 1, 1)
    v = _report(tmp_path, text)["verdict"]
    assert "tracebacks end in the same" not in v["fix"] and "the lines hold it" not in v["summary"], v


def test_deepspeeds_record_of_a_single_worker_names_it(tmp_path):
    """Lead rule M's exception: --local_rank=0 printed as the last worker launched means the node ran one worker,
    so the record names the failed one (rule A: single node, local rank 0)."""
    d = _report(tmp_path, _ds_record([9120], 0, -11))
    assert d["verdict"]["culprits"] == [0] and _accused(d) == {0}, d["verdict"]


def test_a_windows_launcher_shim_that_cannot_start_python_is_the_launch_setup(tmp_path):
    """Round 50 (ChatGLM3-372's shape, lead rules X (2), AF (2)): the console-script .exe (torchrun, deepspeed) prints
    that it cannot create its Python process before any worker exists -- the older shim's bare line after a shell
    trace, or distlib's "Fatal error in launcher" with the interpreter path: config, nobody accused, the fix runs the
    launcher as a module and reinstalls. A near shape: the same words after a rank's own NCCL failure is no launch."""
    for text in ("+ torchrun --standalone --nnodes=1 --nproc_per_node=4 train.py --lr 3e-4\n+ tee out/train.log\n"
                 "failed to create process.\n",
                 "(venv) PS D:\\work> deepspeed --num_gpus 2 sft.py\nFatal error in launcher: Unable to create process "
                 "using '\"D:\\old-env\\python.exe\"  \"D:\\work\\venv\\Scripts\\deepspeed.exe\" --num_gpus 2 "
                 "sft.py': The system cannot find the file specified.\n"):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), (text, v)
        assert "python -m torch.distributed.run" in v["fix"] and "reinstall" in v["fix"], v["fix"]
    nccl = ("failed to create process.\n[rank1]: torch.distributed.DistBackendError: NCCL error in: "
            "ProcessGroupNCCL.cpp:1970, unhandled system error\n")
    assert _verdict(tmp_path, nccl)["cause"] != "config"


def _ds_runner_cmd(world: dict) -> str:
    """DeepSpeed's launcher/runner.py: logger.info(f"cmd = {' '.join(cmd)}") of the per-node launcher it runs, whose
    --world_info is base64.urlsafe_b64encode(json.dumps(world_info)) of {host: [GPU ids]}."""
    import base64
    import json
    b64 = base64.urlsafe_b64encode(json.dumps(world).encode()).decode()
    return (f"[2024-05-11 10:02:17,331] [INFO] [runner.py:568:main] cmd = /opt/conda/bin/python3 -u -m "
            f"deepspeed.launcher.launch --world_info={b64} --master_addr=127.0.0.1 --master_port=29611 "
            "--enable_each_rank_log=None finetune.py --deepspeed ds_config.json --num_train_epochs 3\n")


def test_a_callers_exit_status_under_deepspeeds_runner_is_its_one_workers_signal(tmp_path):
    """Lead rules M and F with A (session 12, deepspeedexamples-614's shape): DeepSpeed's launch.py ends with
    sys.exit(the failed worker's returncode) and the runner passes that status on, so a caller's "exited with
    non-zero status 256 - N" is a worker killed by signal N; the runner's --world_info showing ONE worker (one host,
    one GPU) names it: local rank 0 of a single-node job. Other wordings, statuses, GPU and host than the case's."""
    status = ("Traceback (most recent call last):\n  File \"/work/e2e_rlhf.py\", line 190, in launch_cmd\n"
              "    raise RuntimeError('\\n\\n'.join((\n"
              "RuntimeError: Step 3 exited with non-zero status 247\n")
    d = _report(tmp_path, status + _ds_runner_cmd({"gpu-node-7": [5]}))
    assert d["verdict"]["cause"] == "host_oom" and d["verdict"]["culprits"] == [0] and _accused(d) == {0}, d["verdict"]
    # subprocess's CalledProcessError of the same call, the runner's line first, a SIGBUS (249): /dev/shm
    sub = ("subprocess.CalledProcessError: Command 'deepspeed --num_gpus 1 finetune.py' returned non-zero exit "
           "status 249.\n")
    d = _report(tmp_path, _ds_runner_cmd({"localhost": [0]}) + sub, "sub.log")
    assert d["verdict"]["cause"] == "dataloader_shm" and _accused(d) == {0}, d["verdict"]
    # the launcher's own "WORLD INFO DICT" (the same resources decoded) and its kill line, a SIGSEGV (245): rule A's
    # -11, cause unknown, the one worker named
    launch = ("[2025-03-19 09:55:28,724] [INFO] [launch.py:146:main] WORLD INFO DICT: {'gpu-node-2': [6]}\n"
              "[2025-03-19 09:58:01,100] [INFO] [launch.py:319:sigkill_handler] Killing subprocess 8812\n")
    d = _report(tmp_path, launch + sub.replace("249", "245"), "dict.log")
    assert d["verdict"]["cause"] == "unknown" and _accused(d) == {0}, d["verdict"]
    # several workers: the signal is read, the worker is not named (rule M)
    d = _report(tmp_path, status.replace("247", "249") + _ds_runner_cmd({"localhost": [0, 1, 2, 3]}), "four.log")
    assert d["verdict"]["cause"] == "dataloader_shm" and not _accused(d), d["verdict"]
    d = _report(tmp_path, status + _ds_runner_cmd({"node-a": [0], "node-b": [0]}), "two.log")
    assert d["verdict"]["cause"] == "host_oom" and not _accused(d), d["verdict"]


def test_a_callers_exit_status_is_no_signal_without_deepspeeds_runner(tmp_path):
    """The 256 - N reading belongs to DeepSpeed's runner: without its command line the status is a plain exit code
    (a shell reports a signal as 128 + N, Horovod's gloo launcher its workers' own statuses), and 255 -- ssh's own
    failure, never read as SIGHUP -- stays unread even beside it. A launcher record of the failed worker in the file
    says more than a caller's status: the record decides (rule M)."""
    status = "RuntimeError: Step 3 exited with non-zero status 249\n"
    d = _report(tmp_path, status)
    assert d["verdict"]["cause"] != "dataloader_shm" and not _accused(d), d["verdict"]
    d = _report(tmp_path, status.replace("249", "255") + _ds_runner_cmd({"localhost": [0]}), "ssh.log")
    assert d["verdict"]["cause"] != "signal" and not _accused(d), d["verdict"]
    d = _report(tmp_path, _ds_runner_cmd({"localhost": [0, 1, 2]}) + _ds_record([5101, 5102, 5103], 2, -11) + status,
                "record.log")
    assert d["verdict"]["cause"] == "unknown" and not _accused(d), d["verdict"]


def test_an_unranked_cuda_exception_is_the_lone_failed_workers(tmp_path):
    """Lead rule A with a Python exception shown: torch's "CUDA error: %s" traceback line carries no rank, torchrun's
    agent records one worker failing on its own ("failed (exitcode: 1) local_rank: 2") after SIGTERMing the others:
    the CUDA error is that worker's, rank 2 of a single-node job."""
    text = ("torch.AcceleratorError: CUDA error: an illegal memory access was encountered\n"
            "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n\n"
            "W0412 09:01:02.000000 4410 torch/distributed/elastic/multiprocessing/api.py:900] Sending process 4412 "
            "closing signal SIGTERM\n"
            "W0412 09:01:02.000000 4410 torch/distributed/elastic/multiprocessing/api.py:900] Sending process 4413 "
            "closing signal SIGTERM\n"
            "E0412 09:01:03.000000 4410 torch/distributed/elastic/multiprocessing/api.py:874] failed (exitcode: 1) "
            "local_rank: 2 (pid: 4414) of binary: /usr/bin/python3\n")
    d = _report(tmp_path, text)
    assert d["verdict"]["cause"] == "cuda_error" and _accused(d) == {2}, d["verdict"]


def test_a_c_extensions_own_cuda_check_is_a_cuda_error_of_the_lone_failed_worker(tmp_path):
    """A C/CUDA extension's own CUDA check prints cudaGetErrorString with where it failed (bitsandbytes'
    CUDA_CHECK_RETURN: "Error %s at line %d in file %s", no "CUDA" word): a CUDA error of the worker torchrun records
    failing alone (lead rule A), and the fix points at that package, not at NCCL's cuMem/IPC."""
    text = ("Error operation not supported at line 118 in file /src/bitsandbytes/csrc/ops.cu\n"
            "E0412 09:01:03.000000 4410 torch/distributed/elastic/multiprocessing/api.py:874] failed (exitcode: 1) "
            "local_rank: 3 (pid: 4414) of binary: /usr/bin/python3\n")
    d = _report(tmp_path, text)
    assert d["verdict"]["cause"] == "cuda_error" and _accused(d) == {3}, d["verdict"]
    assert "bitsandbytes" in d["verdict"]["fix"] and "NCCL_CUMEM" not in d["verdict"]["fix"], d["verdict"]["fix"]
    other = text.replace("operation not supported", "an illegal memory access was encountered").replace(
        "/src/bitsandbytes/csrc/ops.cu", "/build/myext/csrc/kernels.cpp")
    d = _report(tmp_path, other, "other.log")
    assert d["verdict"]["cause"] == "cuda_error" and "myext" in d["verdict"]["fix"], d["verdict"]
    # the same words naming no C/CUDA source file are no CUDA check
    plain = text.replace("/src/bitsandbytes/csrc/ops.cu", "config.yaml")
    assert _report(tmp_path, plain, "plain.log")["verdict"]["cause"] != "cuda_error"


def test_the_worker_vllms_executor_saw_die_is_the_lone_failure(tmp_path):
    """vLLM's executors log the first worker whose process ended (multiproc_executor: "Worker proc %s died
    unexpectedly, shutting down executor." with the process name VllmWorker-<rank>; the Ray executor: "RayWorkerProc
    rank=%s died unexpectedly, ..." with a list of ranks); the others only log their teardown. Lead rules A and I:
    that worker's rank, cause unknown (no exit code shown). A data-parallel engine's own worker index names no rank."""
    tail = "".join(f"(VllmWorker TP{r} pid={700 + r}) INFO 03-02 10:00:00 [multiproc_executor.py:520] Parent process "
                   "exited, terminating worker\n" for r in (0, 1, 2, 3, 4, 6, 7))
    text = ("(EngineCore_0 pid=650) ERROR 03-02 10:00:00 [multiproc_executor.py:231] Worker proc VllmWorker-5 died "
            "unexpectedly, shutting down executor.\n") + tail
    d = _report(tmp_path, text)
    assert d["verdict"]["cause"] == "unknown" and _accused(d) == {5}, d["verdict"]
    assert "dmesg" in d["verdict"]["fix"], d["verdict"]["fix"]
    ray = ("ERROR 03-02 10:00:00 [ray_executor_v2.py:464] RayWorkerProc rank=[3] died unexpectedly, shutting down "
           "executor.\n")
    assert _accused(_report(tmp_path, ray, "ray.log")) == {3}
    dp = ("(EngineCore_DP1 pid=651) ERROR 03-02 10:00:00 [multiproc_executor.py:231] Worker proc VllmWorker-0 died "
          "unexpectedly, shutting down executor.\n")
    assert not _accused(_report(tmp_path, dp, "dp.log"))


def test_a_failure_record_pasted_bottom_up_keeps_its_exit_code_with_its_rank(tmp_path):
    """torchrun's ChildFailedError entry pasted in reverse line order (traceback, error_file, exitcode, rank, host,
    time, "[0]:", "Root Cause ..."): the exit code read just before the rank line is that rank's, so the lone
    failure (lead rule A) is the global rank of the entry, here a SIGSEGV of rank 13."""
    entry = failure_record(0, 13, 5, -11, 8123, host="trn-node-07",
                           traceback="Signal 11 (SIGSEGV) received by PID 8123")
    text = "\n".join(reversed(entry.splitlines())) + "\nRoot Cause (first observed failure):\n" + "-" * 60 + "\n"
    d = _report(tmp_path, text)
    assert _accused(d) == {13}, d["verdict"]
    assert d["verdict"]["cause"] == "unknown", d["verdict"]


def test_a_lazy_cuda_init_failure_on_every_rank_shown_is_shared_not_theirs(tmp_path):
    """torch/cuda/__init__.py's DeferredCudaCallError ("CUDA call failed lazily at initialization with error: %s")
    is a CUDA error of that process (cuda_error); on every rank shown alike (lead rule J) it is the node's GPU
    visibility or set-up, nobody named; on one rank alone, that rank. Where its values show an index past the GPUs
    the process sees (device=3, num_gpus=2, on the assert's own line as under it), it is rule AU (2)'s device
    setting of the launch instead: config, no rank (round 78's mace-1197, round 83's simple-grpo-24)."""
    line = ("[rank{r}]: torch.cuda.DeferredCudaCallError: CUDA call failed lazily at initialization with error: "
            "device >= 0 && device < num_gpus INTERNAL ASSERT FAILED at \"/pytorch/aten/src/ATen/cuda/CUDAContext.cpp"
            "\":50, please report a bug to PyTorch. device={d}, num_gpus={n}\n")
    d = _report(tmp_path, line.format(r=0, d="", n="") + line.format(r=3, d="", n=""))
    assert d["verdict"]["cause"] == "cuda_error" and not _accused(d), d["verdict"]
    assert "CUDA_VISIBLE_DEVICES" in d["verdict"]["fix"] and "set_device" in d["verdict"]["fix"], d["verdict"]["fix"]
    one = _report(tmp_path, line.format(r=3, d="", n=""), "one.log")
    assert one["verdict"]["cause"] == "cuda_error" and _accused(one) == {3}, one["verdict"]
    past = _report(tmp_path, line.format(r=3, d=3, n=2), "past.log")
    assert (past["verdict"]["cause"], past["verdict"]["culprits"]) == ("config", []) and not _accused(past)


# --- session 7 (fixq): shared memory and a dead Ray actor ---------------------------------------------------------
def test_torch_failing_to_create_a_shared_memory_file_is_dev_shm(tmp_path):
    """aten/MapAllocator.cpp on the /torch_* file of a tensor passed between processes (torch 2.x's posix_fallocate
    wording here, another pid): /dev/shm is full -> dataloader_shm (lead rule F's class), no rank; errno 24 is the
    descriptors running out instead (ulimit -n, the file_system sharing strategy)."""
    full = ("  File \"/opt/conda/lib/python3.11/site-packages/torch/multiprocessing/reductions.py\", line 560, in "
            "reduce_storage\n    fd, size = storage._share_fd_cpu_()\n"
            "RuntimeError: unable to allocate shared memory(shm) for file </torch_48211_3719931220_3>: No space left "
            "on device (28)\n")
    d = _report(tmp_path, full)
    v = d["verdict"]
    assert v["cause"] == "dataloader_shm" and v["culprits"] == [] and not _accused(d), v
    assert "/dev/shm" in v["fix"] and "--shm-size" in v["fix"] and "num_workers" in v["fix"], v["fix"]
    fds = ("RuntimeError: unable to open shared memory object </torch_7730_1150332118_17> in read-write mode: Too many "
           "open files (24)\n")
    v = _verdict(tmp_path, fds, "fds.log")
    assert v["cause"] == "dataloader_shm" and "ulimit -n" in v["fix"] and "file_system" in v["fix"], v


def test_a_shared_memory_block_that_already_exists_is_stale_dev_shm_of_the_rank_that_raised_it(tmp_path):
    """multiprocessing.shared_memory's shm_open refusing to create a block because one of that name exists
    ("FileExistsError: [Errno 17] File exists: '/name'" right below the shm_open call): a block a killed earlier run
    left in /dev/shm -- the shared-memory class (dataloader_shm), the rank whose traceback it is the culprit (rule
    A), and the fix removes the stale block. The same FileExistsError on a path no shm_open created stays unknown."""
    text = ("[rank3]:   File \"/usr/lib/python3.11/multiprocessing/shared_memory.py\", line 104, in __init__\n"
            "[rank3]:     self._fd = _posixshmem.shm_open(\n"
            "[rank3]: FileExistsError: [Errno 17] File exists: '/004211_cache'\n"
            "[rank: 3] Child process with PID 9120 terminated with code 1. Forcefully terminating all other "
            "processes to avoid zombies\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("dataloader_shm", [3]) and _accused(d) == {3}, v
    assert "/dev/shm/004211_cache" in v["fix"] and "stale" in v["fix"] and "leftover processes" in v["fix"], v
    made = ("[rank3]:   File \"/srv/app/prep.py\", line 12, in main\n[rank3]:     os.makedirs(out)\n"
            "[rank3]: FileExistsError: [Errno 17] File exists: '/scratch'\n")
    assert _verdict(tmp_path, made, "made.log")["cause"] == "unknown"


def test_processes_caught_by_sigbus_are_shared_memory_and_several_name_nobody(tmp_path):
    """Lead rules F and J: UCX's crash handler "[host:pid:0:tid] Caught signal 7 (Bus error: ...)" with no backtrace
    shown is shared memory that could not be backed; two processes alike are the container's resource: no culprit;
    one process's alone names nobody either when its line gives no rank. (A backtrace into libnccl.so stays
    test_a_crash_inside_libnccl_is_nccls's.)"""
    two = ("[gpu-n41:61020:0:61177] Caught signal 7 (Bus error: nonexistent physical address)\n"
           "[gpu-n41:61023:0:61180] Caught signal 7 (Bus error: nonexistent physical address)\n")
    d = _report(tmp_path, two)
    v = d["verdict"]
    assert v["cause"] == "dataloader_shm" and v["culprits"] == [] and not _accused(d), v
    assert "/dev/shm" in v["fix"] and "NCCL_SHM_DISABLE=1" in v["fix"], v["fix"]
    one = _report(tmp_path, two.splitlines()[1] + "\n", "one.log")
    assert one["verdict"]["cause"] == "dataloader_shm" and one["verdict"]["culprits"] == [], one["verdict"]


def test_a_ray_actor_whose_worker_exited_on_a_connection_eof_is_an_unknown_first_failure(tmp_path):
    """Ray's ActorDiedError ("its worker process has died ... Worker unexpectedly exits with a connection error code
    2. End of file"), here another actor class and pid: the raylet lost the worker, it names no rank and no cause
    (its own list: the OOM killer, ray stop --force, a crash): unknown, and the fix reads dmesg and the worker's log."""
    text = ("ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\n"
            "        class_name: RewardModelWorker\n        pid: 20931\n"
            "The actor is dead because its worker process has died. Worker exit type: SYSTEM_ERROR Worker exit detail: "
            "Worker unexpectedly exits with a connection error code 2. End of file. There are some potential root "
            "causes. (1) The process is killed by SIGKILL by OOM killer due to high memory usage. (2) ray stop --force "
            "is called. (3) The worker is crashed unexpectedly due to SIGSEGV or other unexpected errors.\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "unknown" and not _accused(d), v
    assert "dmesg" in v["fix"] and "raylet" in v["fix"], v["fix"]


def test_nccl_tests_unhandled_cuda_error_in_capitals_is_a_cuda_error_naming_nobody(tmp_path):
    """nccl-tests' "HOST: Test NCCL failure common.cu:N '<ncclGetErrorString>'" where the string says "unhandled CUDA
    error" (capitals; older NCCL "unhandled cuda error"), one process driving every GPU (-g 4), a few rows completed
    before it: cuda_error, nobody named (not 'none' for the rows)."""
    text = ("# Using devices\n"
            "#  Rank  0 Group  0 Pid  812 on 7f3a9c0e11d2 device  0 [0x01] NVIDIA GeForce RTX 4090\n"
            "#  Rank  1 Group  0 Pid  812 on 7f3a9c0e11d2 device  1 [0x25] NVIDIA GeForce RTX 4090\n"
            "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   "
            "busbw #wrong\n"
            "          16             4     float     sum      -1    88.10    0.00    0.00      0    87.41    0.00    "
            "0.00      0\n"
            "7f3a9c0e11d2: Test NCCL failure common.cu:1022 'unhandled CUDA error'\n"
            " .. 7f3a9c0e11d2 pid 812: Test failure common.cu:903\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("cuda_error", []) and not _accused(d), v
    assert "NCCL_DEBUG=INFO" in v["fix"]


def test_the_same_cuda_error_line_twice_behind_a_collectors_timestamps_is_not_a_lone_failure(tmp_path):
    """Rule J over rule A: processes on two hosts print nccl-tests' "Test NCCL failure" line (one host's twice) and
    mpirun names the first process that exited (rank 77, exit code 3): the processes failing alike, nobody named. A
    collector's timestamp on every line (kubectl, a logging agent) does not make the two lines different ones."""
    err = "Test NCCL failure common.cu:1183 'unhandled cuda error (run with NCCL_DEBUG=INFO for details) / '"
    lines = [f"gpu-h07: {err}", " .. gpu-h07 pid 40112: Test failure common.cu:902",
             f"gpu-h112: {err}", " .. gpu-h112 pid 7301: Test failure common.cu:902",
             f"gpu-h07: {err}", " .. gpu-h07 pid 40118: Test failure common.cu:902",
             "mpirun detected that one or more processes exited with non-zero status, thus causing",
             "the job to be terminated. The first process to do so was:", "",
             "  Process name: [[31805,1],77]", "  Exit code:    3"]
    stamped = "".join(f"2025-04-11T09:30:{i:02d}.000000001Z {x}\n" for i, x in enumerate(lines))
    for name, text in (("plain.log", "".join(x + "\n" for x in lines)), ("stamped.log", stamped)):
        d = _report(tmp_path, text, name)
        assert d["verdict"]["cause"] == "cuda_error" and not _accused(d), (name, d["verdict"])


def test_mp_spawns_signal_name_is_read_as_that_signal_for_every_signal_it_names(tmp_path):
    """torch.multiprocessing.spawn's ProcessExitedException names the signal ("process N terminated with signal
    SIGBUS"): every signal name it can print is that signal's exit, SIGBUS included (lead rule F: shared memory,
    the culprit by rule A's single-node reading), never an exit code 0 that reads as a clean exit."""
    tb = ("Traceback (most recent call last):\n  File \"main.py\", line 40, in <module>\n"
          "    mp.spawn(worker, args=(cfg,), nprocs=4, join=True)\n"
          "torch.multiprocessing.spawn.ProcessExitedException: process {n} terminated with signal {sig}\n")
    v = _verdict(tmp_path, tb.format(n=2, sig="SIGBUS"))
    assert (v["cause"], v["culprits"]) == ("dataloader_shm", [2]), v
    assert "/dev/shm" in v["fix"], v["fix"]
    v = _verdict(tmp_path, tb.format(n=3, sig="SIGILL"), "ill.log")
    assert v["cause"] != "none" and v["culprits"] == [3], v


def test_a_ranks_own_uncaught_exception_line_is_its_lone_failure(tmp_path):
    """A logging excepthook's record of the exception that ends its process ("Uncaught %s: %s" with exc_info, as
    OLMo's olmo.util.excepthook logs it; its rich handler's "[module:line, rank=N]" is the local rank): that
    process ended on its own exception (lead rule A, a Python exception shown -> its class; a class of no cause is
    unknown), named in a job nothing says is multi-node. A rank whose own lines show it waiting in a timed-out
    collective, or a victim's exception class, is not a first failure."""
    step = "[2025-02-03 08:11:20] INFO     [trainer.loop:402, rank=3] [step=1200/90000]\n"
    line = ("[2025-02-03 08:15:02] CRITICAL [trainer.util:91, rank={r}] Uncaught {cls}: prefetch worker 1 "
            "failed\n")
    v = _verdict(tmp_path, step + line.format(r=3, cls="ShardReaderError"))
    assert (v["cause"], v["culprits"], v["confidence"]) == ("unknown", [3], "medium"), v
    assert "traceback" in v["fix"] and "data thread" in v["fix"], v["fix"]
    v = _verdict(tmp_path, line.format(r=1, cls="DistBackendError"), "victim.log")
    assert v["culprits"] == [], v
    waited = watchdog_line(2, 88, "ALLREDUCE", 600050, 600000) + "\n" + (
        "[rank2]: [2025-02-03 08:15:02] CRITICAL Uncaught PipelineStageError: stage 1 failed\n")
    d = _report(tmp_path, waited, "waited.log")
    assert 2 not in _accused(d), d["verdict"]


def test_an_uncaught_exception_line_beside_the_launchers_record_is_one_failure(tmp_path):
    """The same process's failure told twice (its excepthook's line and torchrun's record of its exit) is one lone
    failure: the record's rank is named, not 'two processes failed'."""
    text = ("[2025-02-03 08:15:02] CRITICAL [trainer.util:91, rank=1] Uncaught ShardReaderError: bad shard\n"
            + SIGTERM.format(pid=801) + FAILED.format(code=1, lr=1, pid=802))
    v = _verdict(tmp_path, text)
    assert v["culprits"] == [1], v


# --- session 7 (fix25_1): lead rules M and U (2, 5) ---------------------------------------------------------------
def test_deepspeeds_kill_lines_alone_are_a_failure_naming_nobody(tmp_path):
    """Lead rule M: DeepSpeed's launcher prints 'Killing subprocess PID' for every worker once one exited; with no
    return code, signal or exception shown the job did fail (never 'nothing failed'), cause and culprit unknown."""
    kills = "".join(f"[2024-09-10 17:02:1{i},5{i}0] [INFO] [launch.py:291:sigkill_handler] Killing subprocess {p}\n"
                    for i, p in enumerate([61204, 61205, 61206]))
    d = _report(tmp_path, "Loading extension module cpu_adam...\n" + kills)
    assert d["verdict"]["cause"] == "unknown" and not _accused(d), d["verdict"]
    for word in ("--enable_each_rank_log", "dmesg", "return code"):
        assert word in d["verdict"]["fix"], (word, d["verdict"]["fix"])


def test_torch_launchs_calledprocesserror_prints_the_last_launched_worker(tmp_path):
    """Lead rule U (5): torch 1.x's torch.distributed.launch raises CalledProcessError with `cmd` of the last worker
    it launched (--local_rank=N of N+1), whichever worker died: it names nobody unless it launched one worker."""
    tb = ("Traceback (most recent call last):\n"
          '  File "/usr/lib/python3.8/site-packages/torch/distributed/launch.py", line 255, in main\n'
          "    cmd=cmd)\n")
    text = tb + ("subprocess.CalledProcessError: Command '['/usr/bin/python', '-u', 'run_pretrain.py', "
                 "'--local_rank=3', '--bs', '64']' died with <Signals.SIGABRT: 6>.\n")
    d = _report(tmp_path, text)
    assert d["verdict"]["cause"] == "unknown" and not _accused(d), d["verdict"]
    text = tb + ("subprocess.CalledProcessError: Command '['/usr/bin/python', '-u', 'run_pretrain.py', "
                 "'--local_rank=5']' returned non-zero exit status 1.\n")
    d = _report(tmp_path, text, "exit1.log")
    assert not _accused(d), d["verdict"]
    # the same record of a SIGKILL: the host's OOM killer, whose fix names the DataLoader's num_workers
    text = tb + ("subprocess.CalledProcessError: Command '['/usr/bin/python', '-u', 'run_pretrain.py', "
                 "'--local_rank=3', '--bs', '64']' died with <Signals.SIGKILL: 9>.\n")
    d = _report(tmp_path, text, "kill9.log")
    assert d["verdict"]["cause"] == "host_oom" and not _accused(d), d["verdict"]
    assert "SIGKILL" in d["verdict"]["fix"] and "num_workers" in d["verdict"]["fix"], d["verdict"]["fix"]


# accelerate/commands/launch.py: launch_command calls simple_launcher(args) when no distributed launcher is chosen;
# it runs the script as ONE subprocess.Popen and raises subprocess.CalledProcessError(returncode=process.returncode,
# cmd=cmd) when that process fails. deepspeed_launcher raises the same error for its DeepSpeed runner (several workers).
def _accelerate_tb(launcher: str, line: int, py: str = "3.10") -> str:
    return ("Traceback (most recent call last):\n"
            '  File "/usr/local/bin/accelerate", line 8, in <module>\n'
            "    sys.exit(main())\n"
            f'  File "/usr/local/lib/python{py}/dist-packages/accelerate/commands/launch.py", line {line - 380}, '
            "in launch_command\n"
            f"    {launcher}(args)\n"
            f'  File "/usr/local/lib/python{py}/dist-packages/accelerate/commands/launch.py", line {line}, '
            f"in {launcher}\n"
            "    raise subprocess.CalledProcessError(returncode=process.returncode, cmd=cmd)\n")


def test_accelerates_simple_launcher_names_its_only_process(tmp_path):
    """Lead rules A, I, AG: accelerate's simple_launcher ran the script as the job's one process; its
    CalledProcessError 'died with <Signals.SIGKILL: 9>' while loading the model is that process killed by the host:
    rank 0, host_oom."""
    text = ("Loading checkpoint shards:   0% 0/3 [00:00<?, ?it/s]" + _accelerate_tb("simple_launcher", 637)
            + "subprocess.CalledProcessError: Command '['/usr/bin/python3', 'sft.py', '--config', 'cfg.yaml']' died "
            "with <Signals.SIGKILL: 9>.\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("host_oom", [0]), v
    assert "simple_launcher" in v["summary"] and "dmesg" in v["fix"], v


def test_accelerates_simple_launcher_in_another_release_and_its_own_exit_status(tmp_path):
    """The same shape: another release's line numbers and Python, behind Python logging's timestamp; and the one
    process's own exit status 1 (its exception above): still rank 0, the only process."""
    tb = "".join(f"2024-05-01 09:13:0{i % 10} {ln}" for i, ln in enumerate(
        _accelerate_tb("simple_launcher", 1097, "3.11").splitlines(keepends=True)))
    text = tb + ("2024-05-01 09:13:09 subprocess.CalledProcessError: Command '['/opt/venv/bin/python', 'train.py']' "
                 "died with <Signals.SIGKILL: 9>.\n")
    v = _report(tmp_path, text)["verdict"]
    assert (v["cause"], v["culprits"]) == ("host_oom", [0]), v
    text = _accelerate_tb("simple_launcher", 704) + ("subprocess.CalledProcessError: Command '['/usr/bin/python', "
                                                       "'run.py']' returned non-zero exit status 1.\n")
    v = _report(tmp_path, text, "exit1.log")["verdict"]
    assert v["culprits"] == [0] and "simple_launcher" in v["fix"], v


def test_accelerates_deepspeed_launcher_names_nobody(tmp_path):
    """The near shape: deepspeed_launcher raises the same CalledProcessError for DeepSpeed's runner, which ran
    several workers: the error names none of them."""
    text = _accelerate_tb("deepspeed_launcher", 637) + (
        "subprocess.CalledProcessError: Command '['deepspeed', '--num_gpus', '8', 'sft.py']' died with "
        "<Signals.SIGKILL: 9>.\n")
    d = _report(tmp_path, text)
    assert d["verdict"]["cause"] == "host_oom" and not _accused(d), d["verdict"]


# SGLang's launcher (srt/entrypoints/engine.py): reading each scheduler's pipe in turn, one closed before the
# scheduler was ready logs "Rank N scheduler is dead. Please check if there are relevant logs.", then joins that
# process and logs "Exit code: X"; its SIGCHLD handler (utils.py) logs "Child process unexpectedly failed with an exit
# code S. pid=P" for every child that died (S the raw wait status: a signal's number).
def _sgl_dead(rank: int, code: int, stamp: str = "[12-16 14:27:08] ", between: str = "") -> str:
    return (f"{stamp}Rank {rank} scheduler is dead. Please check if there are relevant logs.\n" + between
            + f"{stamp}Exit code: {code}\n")


def test_sglangs_dead_scheduler_killed_is_that_rank(tmp_path):
    """Lead rules A, I: SGLang's launcher records one dead scheduler, rank 0, exit code -9, while loading; no other
    process shown failing: that rank, killed from outside (host_oom)."""
    text = ("[12-16 14:26:55 TP0] Load weight begin. avail mem=78.21 GB\n" + _sgl_dead(0, -9)
            + "Traceback (most recent call last):\n  File \"/usr/bin/sglang\", line 10, in <module>\n")
    v = _report(tmp_path, text)["verdict"]
    assert (v["cause"], v["culprits"]) == ("host_oom", [0]), v
    assert "dmesg" in v["fix"], v


def test_sglangs_dead_scheduler_with_its_one_child_record_and_another_code(tmp_path):
    """The same shape: scheduler 3, its SIGCHLD line (the same process) between the two lines, full date stamps; and
    scheduler 2 ending on its own exception (exit code 1): that rank named, not a kill."""
    text = _sgl_dead(3, -9, "[2025-03-02 08:11:40] ", "[2025-03-02 08:11:40] Child process unexpectedly failed with "
                     "an exit code 9. pid=51022\n")
    v = _report(tmp_path, text)["verdict"]
    assert (v["cause"], v["culprits"]) == ("host_oom", [3]), v
    v = _report(tmp_path, _sgl_dead(2, 1, "[2025-03-02 08:11:40] "), "exit1.log")["verdict"]
    assert v["culprits"] == [2] and v["cause"] != "host_oom", v


def test_sglangs_dead_scheduler_among_several_dead_children_names_nobody(tmp_path):
    """The near shape (lead rule J): the launcher's SIGCHLD handler shows several children dying together with one
    code; the dead scheduler is one of them, and which rank went first is not shown: nobody named."""
    kids = "".join(f"[2025-03-02 08:11:41] Child process unexpectedly failed with an exit code 9. pid={p}\n"
                   for p in (7301, 7302))
    d = _report(tmp_path, _sgl_dead(1, -9, "[2025-03-02 08:11:41] ", kids))
    assert d["verdict"]["cause"] == "host_oom" and not _accused(d), d["verdict"]


def test_a_script_the_interpreter_cannot_open_is_config_naming_nobody(tmp_path):
    """Lead rule U (2): the launcher starts every worker with the same script path; python's "can't open file ...
    [Errno 2]" then exit code 2 is config, culprits [] even though the launcher's record shows one worker failing."""
    text = ("/opt/conda/bin/python3: can't open file '/home/u/proj/tools/train_net.py': [Errno 2] No such file or "
            "directory\n"
            "E0305 14:22:07.511000 7710 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 2) "
            "local_rank: 1 (pid: 7715) of binary: /opt/conda/bin/python3\n")
    d = _report(tmp_path, text)
    assert d["verdict"]["cause"] == "config" and d["verdict"]["culprits"] == [] and not _accused(d), d["verdict"]
    assert "path" in d["verdict"]["fix"], d["verdict"]


def test_a_script_path_ending_in_a_carriage_return_is_config_and_says_crlf(tmp_path):
    """Lead rule U (2): a launch script saved with CRLF line endings passes a script path ending in '\\r'; python's
    "can't open file '...\\r': [Errno 2]" is printed over itself (the message's tail over its head), and the
    launcher's record shows one worker exiting 2. Every worker gets the same path: config, nobody named."""
    text = ("': [Errno 2] No such file or directorython3.10: can't open file '\n"
            "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 2) local_rank: 0 (pid: 5120) of "
            "binary: /opt/envs/clip/bin/python3.10\n")
    d = _report(tmp_path, text)
    assert d["verdict"]["cause"] == "config" and d["verdict"]["culprits"] == [] and not _accused(d), d["verdict"]
    assert "dos2unix" in d["verdict"]["fix"] and "script path" in d["verdict"]["fix"], d["verdict"]


def test_workers_exiting_with_code_2_and_nothing_else_shown_are_config(tmp_path):
    """Lead rules U (2) and Q: torchrun's record lists workers that exited with code 2 -- Python's status for a
    command line it refuses (argparse's usage error) -- and no exception of theirs is shown: every worker is
    launched with the same arguments, so config, nobody named. The same record with exit code 1 stays that rank's
    own exception (lead rule A)."""
    record = ("torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n" + "=" * 40
              + "\ntrain.py FAILED\n" + "-" * 40 + "\nFailures:\n" + failure_record(1, 3, 3, 2, 21907, host="gpu-b"))
    d = _report(tmp_path, record)
    assert d["verdict"]["cause"] == "config" and d["verdict"]["culprits"] == [] and not _accused(d), d["verdict"]
    assert "unrecognized arguments" in d["verdict"]["summary"], d["verdict"]
    assert "read LOCAL_RANK from the environment" in d["verdict"]["fix"], d["verdict"]
    one = record.replace("exitcode  : 2", "exitcode  : 1")
    assert _verdict(tmp_path, one)["cause"] != "config"


def test_a_frameworks_assert_that_a_package_is_missing_is_config_naming_the_package(tmp_path):
    """Lead rules AF (2) and W: a framework's own assert that the settings it was started with need a package the
    environment lacks ("... requires <pkg> package."): every worker imports the same environment, so config, nobody
    named, and the fix names the package to install."""
    tb = ("Traceback (most recent call last):\n  File \"/srv/gen/infer.py\", line 58, in <module>\n    main()\n"
          "  File \"/srv/gen/pipeline/loader.py\", line 211, in build\n"
          "    assert ringattn is not None, \"Sequence parallel attention requires ringattn package.\"\n"
          "AssertionError: Sequence parallel attention requires ringattn package.\n")
    d = _report(tmp_path, tb)
    assert d["verdict"]["cause"] == "config" and d["verdict"]["culprits"] == [] and not _accused(d), d["verdict"]
    assert "pip install ringattn" in d["verdict"]["fix"], d["verdict"]


def test_a_module_not_installed_behind_one_launcher_record_is_config_naming_nobody(tmp_path):
    """Lead rules AF (2) and Q: a worker's traceback ends at start-up in ModuleNotFoundError and torchrun's record
    names the one local rank it saw exit: every worker imports the same environment and would stop alike, so the
    record's rank is no culprit -- config, the module named in the fix."""
    text = ("  File \"/opt/env/lib/python3.10/site-packages/accel/backends/xpu.py\", line 12, in <module>\n"
            "    import ccl_bindings_torch\n"
            "ModuleNotFoundError: No module named 'ccl_bindings_torch'\n"
            "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 81230) of "
            "binary: /opt/env/bin/python\n")
    d = _report(tmp_path, text)
    assert d["verdict"]["cause"] == "config" and d["verdict"]["culprits"] == [] and not _accused(d), d["verdict"]
    assert "ccl_bindings_torch" in d["verdict"]["fix"] and "ModuleNotFoundError" in d["verdict"]["fix"], d["verdict"]


def test_a_native_librarys_fatal_check_refusing_a_path_setting_is_config(tmp_path):
    """Lead rules W and Q: glog's fatal line of a library refusing a path it was configured with ("F... coord.cc:57]
    Invalid registry path: hdfs://..."), then its "Check failure stack trace": a setting every rank is started with,
    config, nobody named, and the fix quotes the refused value."""
    text = ("world_size: 4, rank: 2\n"
            "F20240512 11:03:27.118204  9131 coord.cc:57] Invalid registry path: hdfs://cluster/reg/\n"
            "*** Check failure stack trace: ***\n"
            "    @     0x7f3a91c2a22e  google::LogMessage::Fail()\n")
    d = _report(tmp_path, text)
    assert d["verdict"]["cause"] == "config" and not _accused(d), d["verdict"]
    assert "registry path: hdfs://cluster/reg/" in d["verdict"]["fix"], d["verdict"]
    # the same behind kubectl's clock: glog's year-form header is no role tag of the collector's prefix
    stamped = "".join(f"2024-05-12T11:03:27.{i}00000000Z {line}\n" for i, line in enumerate(text.splitlines()))
    d = _report(tmp_path, stamped, "stamped.log")
    assert d["verdict"]["cause"] == "config" and not _accused(d), d["verdict"]


def test_an_oom_in_vllms_multiprocessing_worker_names_the_rank_of_its_gpu(tmp_path):
    """Lead rule U (3): vLLM's multiprocessing executor runs its workers on one node, tensor-parallel rank N on
    cuda:N; a CUDA OOM printed under a worker's own '(VllmWorkerProcess pid=P)' prefix naming GPU N is rank N's.
    The same OOM without that prefix (nothing says which process raised it) names nobody."""
    oom = ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 768.00 MiB. GPU 2 has a total capacity "
           "of 79.15 GiB of which 412.00 MiB is free. Of the allocated memory 76.10 GiB is allocated by PyTorch, and "
           "1.05 GiB is reserved by PyTorch but unallocated.\n")
    d = _report(tmp_path, "(VllmWorkerProcess pid=18840) ERROR 03-02 09:14:55 multiproc_worker_utils.py:242] " + oom)
    assert d["verdict"]["cause"] == "gpu_oom" and d["verdict"]["culprits"] == [2], d["verdict"]
    d = _report(tmp_path, "ERROR 03-02 09:14:55 engine.py:160] " + oom, "plain.log")
    assert d["verdict"]["cause"] == "gpu_oom" and not _accused(d), d["verdict"]


def test_torchruns_record_and_the_spawn_join_it_quotes_are_one_failure(tmp_path):
    """Lead rule A: torchrun's "failed (exitcode: -9) local_rank: 0 (pid: P)" and the ProcessExitedException of the
    spawn join its traceback quotes ("process 0 terminated with signal SIGKILL") are the same worker told twice: one
    process killed (host_oom), rank 0 of a job nothing says spans nodes."""
    pre = "E1103 08:41:12.004000 140221 torch/distributed/elastic/multiprocessing/api.py:695] "
    text = (pre + "failed (exitcode: -9) local_rank: 0 (pid: 55120) of fn: run_worker (start_method: spawn)\n"
            + pre + "Traceback (most recent call last):\n"
            + pre + "    raise ProcessExitedException(\n"
            + pre + "torch.multiprocessing.spawn.ProcessExitedException: process 0 terminated with signal SIGKILL\n")
    d = _report(tmp_path, text)
    assert d["verdict"]["cause"] == "host_oom" and d["verdict"]["culprits"] == [0], d["verdict"]


def test_a_worker_process_that_raised_gets_its_exception_named_in_the_fix(tmp_path):
    """A multiprocessing worker whose target raised ("Process SpawnProcess-2:" then its traceback): the fix names
    the exception its traceback ends in, the thing to fix, not only 'read the tracebacks'."""
    text = ("Process SpawnProcess-2:\n"
            "Traceback (most recent call last):\n"
            '  File "/usr/lib/python3.11/multiprocessing/process.py", line 314, in _bootstrap\n'
            "    self.run()\n"
            '  File "/srv/app/shards.py", line 41, in load\n'
            "    return self.index[name]\n"
            "IndexError: list index out of range\n")
    d = _report(tmp_path, text)
    assert d["verdict"]["cause"] == "unknown" and not _accused(d), d["verdict"]
    assert "IndexError" in d["verdict"]["fix"], d["verdict"]


# --- a DataLoader worker's death read by what its line names (round 25) ---------------------------------------------
def test_a_dataloader_worker_stopped_by_sigterm_is_a_signal_from_outside_not_an_oom(tmp_path):
    """"killed by signal: Terminated" is SIGTERM, sent from outside the worker (a scheduler, a kill): the signal
    class, nobody named -- only SIGKILL ("Killed") is the OOM killer and only a bus error is /dev/shm."""
    for pids in ("pid 31077", "pid(s) 5120, 5121"):
        text = ("Traceback (most recent call last):\n"
                f"RuntimeError: DataLoader worker ({pids}) is killed by signal: Terminated. \n")
        d = _report(tmp_path, text)
        assert d["verdict"]["cause"] == "signal" and _accused(d) == set(), (pids, d["verdict"])
        assert "SIGTERM" in d["verdict"]["fix"]


def test_a_dataloader_worker_that_exited_unexpectedly_with_no_signal_names_no_cause(tmp_path):
    """A worker that "exited unexpectedly" with no signal, bus error or /dev/shm text died without a Python
    exception, its cause not shown (the OOM killer, /dev/shm, the fd limit): lead rule BO (4), as BL (2) reads the
    pin-memory thread -- unknown, nobody named, and the fix names what tells them apart. A bus error beside it keeps
    the shared-memory class."""
    for pids in ("pid(s) 77", "pid(s) 4410, 4412, 4415"):
        d = _report(tmp_path, f"RuntimeError: DataLoader worker ({pids}) exited unexpectedly\n")
        assert d["verdict"]["cause"] == "unknown" and _accused(d) == set(), (pids, d["verdict"])
        assert "/dev/shm" in d["verdict"]["fix"] and "dmesg" in d["verdict"]["fix"]
    d = _report(tmp_path, "ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient "
                "shared memory (shm).\nRuntimeError: DataLoader worker (pid(s) 77) exited unexpectedly\n")
    assert d["verdict"]["cause"] == "dataloader_shm", d["verdict"]


def test_a_cuda_oom_spelled_with_a_capital_error_is_a_gpu_oom(tmp_path):
    """vLLM's cumem allocator says "CUDA Error: out of memory at .../cumem_allocator.cpp:N": the same CUDA OOM."""
    text = ("(WorkerDict pid=21904) RuntimeError: CUDA Error: out of memory at /build/csrc/cumem_allocator.cpp:91\n"
            "(RolloutActor pid=21877) CUDA Error: out of memory at /build/csrc/cumem_allocator.cpp:91 "
            "[repeated 7x across cluster]\n")
    d = _report(tmp_path, text)
    assert d["verdict"]["cause"] == "gpu_oom" and _accused(d) == set(), d["verdict"]


def test_the_shells_killed_printed_over_a_progress_line_is_still_the_oom_killer(tmp_path):
    """The shell's "Killed" overwrites a carriage-return progress line and keeps its tail glued on: still a SIGKILL
    (host_oom), and with no rank in the lines nobody is named."""
    text = ("Loading dataset shards...done!\n"
            "Total number of steps 90210\n"
            "Killedng epoch 3, step 41870 / 90210\n")
    d = _report(tmp_path, text)
    assert d["verdict"]["cause"] == "host_oom" and _accused(d) == set(), d["verdict"]


# --- session 8: the process and host side, in other wordings ----------------------------------------------------------
def test_torch_1x_numbered_cuda_runtime_errors_are_cuda_errors(tmp_path):
    """torch <= 1.x (THC) numbered its CUDA errors: "RuntimeError: cuda runtime error (N) : TEXT at FILE:LINE" and
    "THCudaCheck FAIL file=F line=L error=N : TEXT". The same CUDA failures as today's "CUDA error: TEXT"; with no
    rank in the line nobody is named. The C++ runtime's "terminate called ..." after a line that happens to reach
    the longest line's width starts a line of its own (not the rest of a hard-wrapped one)."""
    for text, words in (
            ("RuntimeError: cuda runtime error (77) : an illegal memory access was encountered at "
             "/opt/src/aten/src/THC/generic/THCTensorCopy.cpp:70\n", "CUDA_LAUNCH_BLOCKING"),
            ("THCudaCheck FAIL file=/build/torch/lib/THC/THCCachingAllocator.cpp line=411 error=48 : uncorrectable "
             "ECC error encountered\nterminate called after throwing an instance of 'std::runtime_error'\n", "ECC"),
            ("x" * 40 + "\nRuntimeError: cuda runtime error (39) : uncorrectable ECC error encountered at "
             "/b/THC/THCGeneral.cpp:8\nterminate called without an active exception\n", "ECC")):
        d = _report(tmp_path, text)
        assert d["verdict"]["cause"] == "cuda_error" and _accused(d) == set(), (text, d["verdict"])
        assert words in d["verdict"]["fix"], d["verdict"]["fix"]
    v = _verdict(tmp_path, "RuntimeError: cuda runtime error (2) : out of memory at /b/THC/THCStorage.cu:66\n")
    assert v["cause"] == "gpu_oom", v


def test_a_misaligned_address_is_a_kernel_bug_even_padded_with_blanks(tmp_path):
    """cudaErrorMisalignedAddress ("CUDA error: misaligned address"), here in c10's "terminate called ... what():"
    form with a screen copy's padding blanks after it (the message ends at the blanks, not 120 characters later):
    a kernel's misaligned access, found with CUDA_LAUNCH_BLOCKING=1 / compute-sanitizer; no rank in the lines."""
    text = ("terminate called after throwing an instance of 'c10::Error'" + " " * 90 + "\n"
            "  what():  CUDA error: misaligned address" + " " * 150 + "\n"
            "Exception raised from insert_events at /opt/c10/cuda/CUDACachingAllocator.cpp:912 (most recent call "
            "first):\n")
    d = _report(tmp_path, text)
    assert d["verdict"]["cause"] == "cuda_error" and _accused(d) == set(), d["verdict"]
    assert "misaligned" in d["verdict"]["summary"] and "compute-sanitizer" in d["verdict"]["fix"], d["verdict"]
    v = _verdict(tmp_path, "[rank5]:[E1002 03:04:05.000000000 ProcessGroupNCCL.cpp:1701] [PG ID 0 PG GUID "
                           "0(default_pg) Rank 5] Process group watchdog thread terminated with exception: CUDA error: "
                           "misaligned address\n")
    assert v["cause"] == "cuda_error" and v["culprits"] == [5] and "misaligned" in v["summary"], v


def test_a_dataloader_worker_that_crashed_on_its_own_signal_is_a_native_crash_not_memory(tmp_path):
    """torch's worker-death text names the signal: "Killed" (SIGKILL: the OOM killer, host memory) and "Bus error"
    (SIGBUS: /dev/shm) are the host's resources, but "Segmentation fault" / "Aborted" / "Floating point exception"
    are the worker crashing in native code (the dataset's C libraries): rule A's native crash, cause unknown, the
    rank whose loader it was still the culprit (nobody named when the line has no rank)."""
    for text, ranks in (
            ("[rank3]: RuntimeError: DataLoader worker (pid 5512) is killed by signal: Aborted. \n", [3]),
            ("ERROR: Unexpected segmentation fault encountered in worker.\n"
             "RuntimeError: DataLoader worker (pid 40117) is killed by signal: Segmentation fault. \n", []),
            ("RuntimeError: DataLoader worker (pid 9) is killed by signal: Floating point exception.\n", [])):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert v["cause"] == "unknown" and v["culprits"] == ranks and _accused(d) == set(ranks), (text, v)
        assert "num_workers=0" in v["fix"] and "native" in v["summary"], v
    v = _verdict(tmp_path, "RuntimeError: DataLoader worker (pid 77) is killed by signal: Killed.\n")
    assert v["cause"] == "host_oom", v
    v = _verdict(tmp_path, "RuntimeError: DataLoader worker (pid 78) is killed by signal: Bus error.\n")
    assert v["cause"] == "dataloader_shm", v


def test_a_launch_timeout_is_the_display_watchdog_or_a_hung_kernel(tmp_path):
    """cudaErrorLaunchTimeout in torch 2.x words and torch 1.x's numbered THC form: the driver's display watchdog
    ended a kernel (a GPU driving an X server / Windows' TDR), or the kernel hung (Xid 8); nobody named without a
    rank, the rank when its tag is there."""
    for text, ranks in (
            ("THCudaCheck FAIL file=/src/aten/src/THC/THCCachingHostAllocator.cpp line=278 error=702 : the launch "
             "timed out and was terminated\n", []),
            ("[rank1]: RuntimeError: CUDA error: the launch timed out and was terminated\n", [1])):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert v["cause"] == "cuda_error" and v["culprits"] == ranks, (text, v)
        assert "display" in v["fix"] and "Xid" in v["fix"], v


def test_a_busy_or_missing_gpu_is_the_nodes_gpu_setting(tmp_path):
    """cudaErrorDevicesUnavailable ("all CUDA-capable devices are busy or unavailable", torch 2.x's "CUDA-capable
    device(s) is/are busy or unavailable"): an exclusive compute mode with the GPU already held; cudaErrorNoDevice
    ("no CUDA-capable device is detected"): the process sees no GPU. Each its own fix, not the generic advice."""
    for text, word in (
            ("THCudaCheck FAIL file=/b/torch/lib/THC/THCGeneral.c line=88 error=46 : all CUDA-capable devices are "
             "busy or unavailable\n", "compute mode"),
            ("[rank2]: RuntimeError: CUDA error: CUDA-capable device(s) is/are busy or unavailable\n", "compute mode"),
            ("RuntimeError: cuda runtime error (100) : no CUDA-capable device is detected at /b/THCGeneral.cpp:50\n",
             "CUDA_VISIBLE_DEVICES")):
        v = _verdict(tmp_path, text)
        assert v["cause"] == "cuda_error" and word in v["fix"], (text, v)


def test_a_cuda_error_named_by_its_enum_is_a_cuda_error(tmp_path):
    """A CUDA error printed by its enum name, runtime or driver API (thrust's "failed to synchronize: cudaErrorAssert:
    device-side assert triggered", "CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered"): a CUDA
    error like torch's "CUDA error: ..."; the allocation failures among them are GPU OOMs."""
    for text, words in (
            ("[rank4]: RuntimeError: merge_sort: failed to synchronize: cudaErrorAssert: device-side assert "
             "triggered\n", ("TORCH_USE_CUDA_DSA", "index")),
            ("2023-01-02 10:11:12.000001: E stream_executor/cuda/cuda_event.cc:29] Error polling for event status: "
             "failed to query event: CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered\n",
             ("compute-sanitizer",))):
        v = _verdict(tmp_path, text)
        assert v["cause"] == "cuda_error" and all(w in v["fix"] for w in words), (text, v)
    v = _verdict(tmp_path, "[rank4]: RuntimeError: CUDA error: device-side assert triggered\n")
    assert v["cause"] == "cuda_error" and v["culprits"] == [4] and "index" in v["fix"], v
    v = _verdict(tmp_path, "RuntimeError: scan failed: cudaErrorMemoryAllocation: out of memory\n")
    assert v["cause"] == "gpu_oom", v


def test_a_consequence_xid_is_read_by_the_xid_it_names_as_its_cause(tmp_path):
    """The driver's Xid 45 / 43 lines name the error that caused them ("Ch 00000007 caused by previous Xid 146"):
    when only the consequences are pasted, the named Xid decides -- an NVLink error (Xids 144-150) is the hardware,
    not the application's kernel that a bare Xid 45 would point at."""
    text = "".join(f"[Mon Jun  2 10:0{i}:00 2025] NVRM: Xid (PCI:0000:{bus}:00): 45, pid={900 + i}, name=python, Ch "
                   f"0000000{i} caused by previous Xid 146\n" for i, bus in enumerate(("1b", "43", "52")))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "cuda_error" and _accused(d) == set(), v
    assert "146" in v["summary"] and "not the training code" in v["summary"] and "nvlink" in v["fix"], v
    v = _verdict(tmp_path, "NVRM: Xid (PCI:0000:3b:00): 45, pid=77, name=python, Ch 00000002\n")
    assert "compute-sanitizer" in v["fix"], v  # a bare Xid 45 stays the application's consequence


def test_nvidia_smi_that_cannot_reach_a_gpu_is_a_gpu_off_its_pcie_link(tmp_path):
    """Round 43: nvidia-smi's "Unable to determine the device handle for GPU<pci>: <reason>" after a hang: the GPU
    fell off its PCIe link (Xid 79), a hardware fault; a PCI address, no rank. Other addresses / reasons here."""
    for line in ("Unable to determine the device handle for GPU 0000:B1:00.0: GPU is lost.  Reboot the system to "
                 "recover this GPU\n",
                 "$ nvidia-smi\nUnable to determine the device handle for gpu0000:5e:00.0: Unknown Error\n"
                 "No devices were found\n"):
        d = _report(tmp_path, line)
        v = d["verdict"]
        assert v["cause"] == "cuda_error" and _accused(d) == set(), (line, v)
        assert "PCIe" in v["summary"] and "reseat or replace the GPU" in v["fix"], v


def test_a_nan_check_that_stops_one_rank_says_its_numbers_diverged(tmp_path):
    """Rule A's lone failure whose exception is a NaN/Inf check (clip_grad_norm_'s error_if_nonfinite, autograd's
    anomaly mode): that rank is the culprit (cause unknown: no class for diverging numbers), and the fix is about
    the divergence (learning rate, bf16/loss scaling, the batch), not only "fix the exception"."""
    for exc in ("RuntimeError: The total norm of order 2.0 for gradients from `parameters` is non-finite, so it "
                "cannot be clipped. To disable this error and scale the gradients by the non-finite norm anyway, set "
                "`error_if_nonfinite=False`",
                "RuntimeError: Function 'LogSoftmaxBackward0' returned nan values in its 0th output."):
        text = ("Traceback (most recent call last):\n  File \"/w/train.py\", line 88, in step\n"
                "    loss.backward()\n" + exc + "\n"
                "W0512 09:10:11.000000 4410 torch/distributed/elastic/multiprocessing/api.py:897] Sending process 4521 "
                "closing signal SIGTERM\n"
                "E0512 09:10:12.000000 4410 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) "
                "local_rank: 0 (pid: 4520) of binary: /usr/bin/python3\n")
        v = _verdict(tmp_path, text)
        assert v["cause"] == "unknown" and v["culprits"] == [0], (exc, v)
        assert "NaN/Inf" in v["fix"] and "learning rate" in v["fix"] and "bf16" in v["fix"], v


# NCCL >= 2.27's SHM transport shares host buffers through cuMem handles, which need P2P between the GPUs
def test_peer_access_refused_in_the_shm_transport_names_cumem_host(tmp_path):
    text = ("l4-box:3301:3377 [1] transport/shm.cc:612 NCCL WARN Cuda failure 217 'peer access is not supported "
            "between these two devices'\n"
            + nccl_info("l4-box", 3301, 1, "transport/shm.cc:640 -> 1", tid=3377)
            + nccl_info("l4-box", 3301, 1, "transport.cc:197 -> 1", tid=3377))
    v = _verdict(tmp_path, text)
    assert v["cause"] == "cuda_error" and v["culprits"] == [], v
    assert "NCCL_CUMEM_HOST_ENABLE=0" in v["fix"], v
    # the same refusal in the P2P transport is the GPUs' P2P path, not cuMem host memory
    p2p = text.replace("transport/shm.cc", "transport/p2p.cc")
    assert "NCCL_CUMEM_HOST_ENABLE" not in _verdict(tmp_path, p2p)["fix"]


# cudaErrorMapBufferObjectFailed (205) in NCCL's allocator: ncclMemAlloc maps its buffer into every peer GPU that
# reports P2P access, so the refused mapping is the GPU pair's peer mapping (lead rule V (2)), nobody named
def test_a_buffer_mapping_refused_in_nccls_allocator_is_the_gpu_pairs_peer_mapping(tmp_path):
    text = ("rig-2:8812:8812 [0] allocator.cc:96 NCCL WARN Cuda failure 205 'mapping of buffer object failed'\n"
            "rig-2: Test NCCL failure common.cu:1110 'unhandled cuda error (run with NCCL_DEBUG=INFO for details) / '\n"
            " .. rig-2 pid 8812: Test failure common.cu:1640\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("cuda_error", []) and not _accused(d), v
    assert "NCCL_P2P_DISABLE=1" in v["fix"] and "p2pBandwidthLatencyTest" in v["fix"], v


# init.cc's own CUDA call refused at communicator creation (NCCL >= 2.26's memory pool): not the cuMem/IPC transports
def test_operation_not_supported_at_communicator_creation_names_the_vgpu_memory_pool(tmp_path):
    text = ("vm-gpu-2:7710:7710 [1] init.cc:433 NCCL WARN Cuda failure 'operation not supported'\n"
            + "".join(nccl_info("vm-gpu-2", 7710, 1, f"{at} -> 1") for at in ("init.cc:1450", "init.cc:1870")))
    v = _verdict(tmp_path, text)
    assert v["cause"] == "cuda_error" and v["culprits"] == [], v
    assert "enable_uvm" in v["fix"], v
    ipc = text.replace("init.cc:433", "transport/p2p.cc:301")
    assert "NCCL_CUMEM_ENABLE=0" in _verdict(tmp_path, ipc)["fix"]


# NCCL >= 2.29 as torch prints it: the error string on its own line, its detail on the next with no "Last error:"
def test_nccl_229s_unlabelled_detail_line_is_read_as_the_last_error(tmp_path):
    text = ("[rank3]: torch.distributed.DistBackendError: NCCL error in: /opt/torch/csrc/distributed/c10d/"
            "NCCLUtils.cpp:81, unhandled cuda error, NCCL version 2.30.1\n"
            "[rank3]: ncclUnhandledCudaError: Call to CUDA function failed.\n"
            "[rank3]: Failed to create NVLink SHARP (NVLS) Multicast object of size 4194304 : CUDA error 801 "
            "'operation not supported'.\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "cuda_error", v
    assert "NCCL_NVLS_ENABLE=0" in v["fix"] and "fabric manager" in v["fix"], v


# --- a framework's own settings check (lead rule W): config, no rank at fault ---------------------------------------
def test_a_framework_settings_check_is_config_not_the_rank_that_printed_it(tmp_path):
    """A ValueError/AssertionError about the launch's sizes, recorded by torchrun as one rank's exit 1: every rank is
    started with those settings (rule Q), so nobody is named; a bare AssertionError is read by its `assert` line."""
    record = ("torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n" + "=" * 40 + "\nFailures:\n"
              "  <NO_OTHER_FAILURES>\nRoot Cause (first observed failure):\n"
              + failure_record(0, 5, 1, 1, 40417, host="gpu-node-7"))
    said = ("[rank5]: ValueError: global_batch_size (96) is not divisible by micro_batch_size (4) times "
            "data-parallel size (5)\n")
    d = _report(tmp_path, said + record)
    assert d["verdict"]["cause"] == "config" and d["verdict"]["culprits"] == [], d["verdict"]
    assert not _accused(d), d
    bare = ("Traceback (most recent call last):\n  File \"pretrain.py\", line 88, in <module>\n"
            "    assert args.per_device_batch_size * args.grad_steps % world_size == 0\nAssertionError\n")
    v = _verdict(tmp_path, bare + "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) "
                 "local_rank: 2 (pid: 5120) of binary: /usr/bin/python3\n")
    assert v["cause"] == "config" and v["culprits"] == [], v
    tcp = "[rank2]: RuntimeError: No rendezvous handler for tcp://\n"
    assert _verdict(tmp_path, tcp)["cause"] == "config"


def test_a_device_count_check_in_a_spawned_child_is_config_not_the_child(tmp_path):
    """Lead rules W and Q: torch_xla's replication set-up in an xmp.spawn child refuses the devices the child sees
    against the count the launch expects ("Cannot replicate if number of devices (1) is different from 4"): the
    launch's set-up, the same for every child, so spawn's process index names nobody -- config, no rank. The bare
    "Exception:" above "-- Process N terminated with the following error:" (torch < 1.9's ProcessRaisedException) is
    the parent's wrapper of that error, not a second exception of its own."""
    text = ("Traceback (most recent call last):\n"
            '  File "train_tpu.py", line 210, in <module>\n'
            "    xmp.spawn(_mp_fn, args=(flags,), nprocs=4, start_method='fork')\n"
            "Exception: \n"
            "\n"
            "-- Process 2 terminated with the following error:\n"
            "Traceback (most recent call last):\n"
            '  File "/usr/local/lib/python3.7/dist-packages/torch_xla/distributed/xla_multiprocessing.py", line 231, '
            "in _start_fn\n"
            "    _setup_replication()\n"
            '  File "/usr/local/lib/python3.7/dist-packages/torch_xla/core/xla_model.py", line 190, in '
            "xla_replication_devices\n"
            "    .format(len(local_devices), len(kind_devices)))\n"
            "RuntimeError: Cannot replicate if number of devices (1) is different from 4\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "nprocs must match the devices" in v["fix"] and "xm.xla_device()" in v["fix"], v["fix"]
    gpus = "[rank0]: ValueError: number of GPUs (2) does not match the number of processes per node (8)\n"
    assert _verdict(tmp_path, gpus)["cause"] == "config"
    # a tensor's own size check is that rank's run, no device count
    own = "[rank3]: RuntimeError: number of dims (2) is different from the expected 3\n"
    assert _verdict(tmp_path, own)["cause"] != "config"


def test_an_exit_1_whose_cut_traceback_goes_into_nccl_comm_creation_says_nccl_debug(tmp_path):
    """Lead rule A names the one worker the record shows failing (exit 1); where the traceback above the record stops
    inside a Python call of NCCL's communicator creation (a framework's own binding: "X.ncclCommInitRank(...)")
    without its error's text, the fix says how to get NCCL's reason: NCCL_DEBUG=INFO. NCCL's own INFO line
    "ncclCommInitRank comm ... Init COMPLETE" is no such call."""
    tb = ("Traceback (most recent call last):\n  File \"/srv/job/pretrain.py\", line 52, in setup\n"
          "    dist_env.init(seed=1234)\n"
          "  File \"/opt/env/lib/python3.11/site-packages/fastmp/comm.py\", line 131, in make_comm\n"
          "    self.handle = NCCLComm(_lib.ncclCommInitRank(uid, self.world, self.rank))\n")
    record = ("torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n" + "=" * 40 + "\nFailures:\n"
              "  <NO_OTHER_FAILURES>\nRoot Cause (first observed failure):\n"
              + failure_record(0, 5, 5, 1, 30577, host="dgx-03"))
    d = _report(tmp_path, tb + record)
    v = d["verdict"]
    assert v["cause"] == "unknown" and _accused(d) == {5}, v
    assert "NCCL_DEBUG=INFO" in v["fix"] and "ncclCommInitRank" in v["fix"], v["fix"]
    info = nccl_info("dgx-03", 30577, 5, "ncclCommInitRank comm 0x5a1c2e0 rank 5 nranks 8 cudaDev 5 busId b7000 - "
                     "Init COMPLETE")
    v = _verdict(tmp_path, info + record, "info.log")
    assert "ncclCommInitRank" not in v["fix"], v["fix"]
def test_a_platform_lacking_a_feature_the_settings_ask_for_is_config_and_its_advice_is_quoted(tmp_path):
    """A framework's assert that the device/driver/toolkit every rank shares does not support a feature the settings
    turn on (Transformer Engine's userbuffers overlap), printed by one rank: config, no rank (rules Q, W); the fix
    quotes the check's own advice (an environment setting to launch with)."""
    said = ("[rank6]: AssertionError: GPU driver version does not support NVLink SHARP reductions for the "
            "overlapped all-gather. Relaunch with NVTE_UB_NO_SHARP=1 to fall back to the ring path.\n")
    v = _verdict(tmp_path, said)
    assert v["cause"] == "config" and v["culprits"] == [], v
    assert "NVTE_UB_NO_SHARP=1" in v["fix"], v
    # a rank's own run that hits an unsupported dtype is no platform check
    own = "[rank2]: AssertionError: this kernel does not support bfloat16 inputs\n"
    assert _verdict(tmp_path, own)["cause"] != "config"


def test_a_frameworks_check_telling_which_environment_setting_to_launch_with_is_config(tmp_path):
    """Round 42 (fluxgym-283, ms-swift-3299): a framework's own NotImplementedError/ValueError that the GPUs every rank
    shares lack a transport and that says which environment setting to launch with ("Please set `NCCL_X="1"`") is a
    check of the settings, config, no rank (rule W) -- not a settings line with nothing failing (none): the setting is
    the check's advice, not one applied. Here another class, wording, quoting and rank; the advice is quoted in the
    fix. A settings line itself (an export) stays read as one."""
    for said in ("[rank3]: ValueError: This card series doesn't support peer-to-peer transfers over PCIe. Please "
                 "set `NCCL_P2P_DISABLE='1'` before launching, or start the job with the framework's launcher.\n",
                 "NotImplementedError: Consumer GPUs do not support GPUDirect RDMA. Please export NCCL_IB_DISABLE=1 "
                 "and relaunch\n"):
        d = _report(tmp_path, said)
        v = d["verdict"]
        assert v["cause"] == "config" and v["culprits"] == [] and not _accused(d), (said, v)
        assert "NCCL_P2P_DISABLE" in v["fix"] or "NCCL_IB_DISABLE=1" in v["fix"], v["fix"]
    assert _verdict(tmp_path, "export NCCL_P2P_DISABLE=1\n")["cause"] != "config"


def test_a_script_refusing_the_parallel_mode_it_was_started_in_is_config(tmp_path):
    """Round 42 (moco-48): a script's own check that it runs only distributed ("NotImplementedError: Only
    DistributedDataParallel is supported." when started without its distributed flags) refuses the launch arguments
    every process is given: config, no rank (rules W, U (2)), not an unexplained failure. Here other classes, words and
    a rank tag; a check of the data (a dtype) stays no settings check."""
    for said in ("[rank1]: AssertionError: only DDP training is supported by this trainer\n",
                 "ValueError: Only multi-processing distributed training is supported, pass --launcher pytorch\n"):
        d = _report(tmp_path, said)
        v = d["verdict"]
        assert v["cause"] == "config" and v["culprits"] == [] and not _accused(d), (said, v)
    assert _verdict(tmp_path, "NotImplementedError: Only float32 inputs are supported\n")["cause"] != "config"


def test_a_cluster_launcher_finding_no_shared_folder_for_the_job_is_config(tmp_path):
    """Round 42 (mae-25): a submitit-style launch script's check that the cluster's shared folder (where it puts the
    job's directory and the file:// rendezvous) exists fails before any worker runs: the launch set-up, config, no
    rank (rule X (2)), not an unexplained failure. Here other scripts, wordings and classes."""
    for text in ("Traceback (most recent call last):\n"
                 '  File "run_with_submitit.py", line 120, in <module>\n'
                 "    main()\n"
                 '  File "run_with_submitit.py", line 44, in get_shared_folder\n'
                 '    raise RuntimeError("no shared filesystem available")\n'
                 "RuntimeError: no shared filesystem available\n",
                 "FileNotFoundError: Shared directory not found: /checkpoint/alice/experiments\n"):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert v["cause"] == "config" and v["culprits"] == [] and not _accused(d), (text, v)
        assert "shared folder" in v["fix"] and "torchrun" in v["fix"], v["fix"]


def test_a_jit_op_build_failing_at_start_up_is_the_shared_build_not_the_rank_that_built_it(tmp_path):
    """Lead rule AF (2): torch's cpp_extension JIT build of an op (DeepSpeed's op builder) fails in whichever rank took
    the build lock (ninja's CalledProcessError, then "Error building extension"), the ranks that waited fail to load
    its .so, and the launcher reports exits: the toolchain every rank shares, config, nobody named."""
    build = ("[rank2]: Traceback (most recent call last):\n"
             '[rank2]:   File "/opt/py311/lib/python3.11/site-packages/torch/utils/cpp_extension.py", line 2209, in '
             "_run_ninja_build\n[rank2]:     subprocess.run(\n"
             "[rank2]: subprocess.CalledProcessError: Command '['/usr/bin/ninja', '-v', '-j', '8']' returned non-zero "
             "exit status 2.\n")
    tail = "[rank2]: RuntimeError: Error building extension 'cpu_adagrad'\n"
    waited = ("[rank5]: ImportError: /home/svc/.cache/torch_extensions/py311_cu124/cpu_adagrad/cpu_adagrad.so: "
              "cannot open shared object file: No such file or directory\n")
    exits = ("[2025-06-03 11:02:17,880] [ERROR] [launch.py:325:sigkill_handler] ['/opt/py311/bin/python', '-u', "
             "'train.py', '--local_rank=7'] exits with return code = 1\n")
    for text in (build + tail + waited + exits, build, tail + waited):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert v["cause"] == "config" and v["culprits"] == [] and not _accused(d), (text, v)
        assert "ds_report" in v["fix"] and "torch_extensions" in v["fix"] and "CUDA_HOME" in v["fix"], v["fix"]
    # a worker's own subprocess (a data tool) exiting non-zero is no build
    tool = ("[rank1]: subprocess.CalledProcessError: Command '['ffmpeg', '-i', 'a.mp4']' returned non-zero exit "
            "status 1.\n")
    assert _verdict(tmp_path, tool)["cause"] != "config"


def test_a_rendezvous_endpoint_the_launcher_refuses_to_parse_is_config(tmp_path):
    """torch's parse of the launcher's rendezvous endpoint (elastic/rendezvous/utils.py) refusing the value it was
    given -- a host part that is no host name or address, a port that is no integer -- before any worker runs: a
    launch setting every node shares (lead rules X (2), V (1)), config with no rank, not the store unreachable
    (learn2learn-263's shape: here the port number, torchrun's --rdzv_endpoint, a traceback around it)."""
    text = ("torchrun --nnodes=2 --nproc_per_node=4 --rdzv_backend=c10d --rdzv_endpoint=gpu-a17:29k500 train.py\n"
            "Traceback (most recent call last):\n"
            '  File "/opt/conda/lib/python3.10/site-packages/torch/distributed/elastic/rendezvous/utils.py", line 97, '
            "in parse_rendezvous_endpoint\n"
            "ValueError: The port number of the rendezvous endpoint 'gpu-a17:29k500' must be an integer between 0 "
            "and 65536.\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "config" and v["culprits"] == [] and "rendezvous endpoint" in v["fix"], v
    host = ("ValueError: The hostname of the rendezvous endpoint 'node_07\":29500' must be a dot-separated list of "
            "labels, an IPv4 address, or an IPv6 address.\n")
    assert _verdict(tmp_path, host)["cause"] == "config"
    # the rendezvous failing to connect is the store, not a setting refused
    conn = ("torch.distributed.elastic.rendezvous.api.RendezvousConnectionError: The connection to the C10d store "
            "has failed. See inner exception for details.\n")
    assert _verdict(tmp_path, conn)["cause"] == "store_rendezvous"


def test_a_binding_the_installed_build_cannot_construct_is_config_not_the_rank(tmp_path):
    """Lead rule AF (2)'s last sentence: pybind11's "<Class>: No constructor defined!" -- a package's Python class built
    on a C++ binding (here a plugin's subclass of c10d's Store) that the installed torch does not let Python
    construct -- is two installs of mismatched versions, the same on every process: config, no rank, even where one
    rank's traceback and a launcher's record show it (elastic-37's shape, as a rank's TypeError under torchrun)."""
    text = ("[rank2]: Traceback (most recent call last):\n"
            '[rank2]:   File "/srv/venv/lib/python3.9/site-packages/kvplugin/store.py", line 58, in connect\n'
            "[rank2]:     return RedisStore(client=self.client, prefix=prefix)\n"
            "[rank2]: TypeError: kvplugin.store.RedisStore: No constructor defined!\n"
            "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n"
            "Root Cause (first observed failure):\n" + failure_record(0, 2, 2, 1, 50917))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "RedisStore" in v["summary"] and "torch" in v["fix"], v
    # a constructor that exists, called with the wrong arguments, is no missing binding
    args = "[rank2]: TypeError: __init__() missing 1 required positional argument: 'prefix'\n"
    assert _verdict(tmp_path, args)["cause"] != "config"


def test_a_compiled_class_refusing_its_callers_arguments_is_a_mixed_install_not_the_store(tmp_path):
    """Lead rule AF (2), round 41's sentence: pybind11's "__init__(): incompatible constructor arguments", listing the
    one signature the compiled torch._C class has while the launcher's Python code passed a keyword it does not know
    (a torch.distributed.run newer than the torch._C it loads: two installs mixed), before any worker: config, no
    rank, not store_rendezvous -- nothing was unreachable. As a traceback (the listing on the lines after it) and as
    torchelastic's error-handler record (its JSON message, newlines escaped, on one line)."""
    tb = ("Traceback (most recent call last):\n"
          '  File "/home/u/miniconda3/lib/python3.9/site-packages/torch/distributed/elastic/rendezvous/'
          'c10d_rendezvous_backend.py", line 170, in _create_tcp_store\n'
          "    store = TCPStore(host, port, is_master=is_server, timeout=timedelta(seconds=read_timeout))\n"
          "TypeError: __init__(): incompatible constructor arguments. The following argument types are supported:\n"
          "    1. torch._C._distributed_c10d.TCPStore(host_name: str, port: int, world_size: int, is_master: bool, "
          "timeout: datetime.timedelta = datetime.timedelta(seconds=300))\n"
          "\n"
          "Invoked with: 'node-a3', 29511; kwargs: is_master=True, timeout=datetime.timedelta(seconds=60), "
          "use_libuv=False\n")
    record = ("ERROR:torch.distributed.elastic.multiprocessing.errors.error_handler:{\n"
              '  "message": {\n'
              '    "message": "TypeError: __init__(): incompatible constructor arguments. The following argument types '
              'are supported:\\n    1. torch._C._distributed_c10d.TCPStore(host_name: str, port: int, world_size: int, '
              'is_master: bool)\\n\\nInvoked with: \'10.4.0.2\', 29400, 2, True; kwargs: wait_for_workers=False",\n')
    for text, kw in ((tb, "use_libuv=False"), (record, "wait_for_workers=False")):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
        assert "TCPStore" in v["summary"] and kw in v["summary"], v["summary"]
        assert "reinstall PyTorch" in v["fix"] and "pip uninstall torch" in v["fix"], v["fix"]
    # a Python function's own argument error is no compiled class refusing its caller
    own = "[rank1]: TypeError: __init__() got an unexpected keyword argument 'use_libuv'\n"
    assert _verdict(tmp_path, own)["cause"] != "config"


def test_a_ranks_own_runtime_error_is_not_a_settings_check(tmp_path):
    """Strict: a RuntimeError naming the world size, or an assert about the run's values, is that rank's own
    failure (rule A names it), never a settings check."""
    exit1 = ("ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 3 (pid: 7781) "
             "of binary: /opt/venv/bin/python\n")
    for tail in ("RuntimeError: shape mismatch across world_size 4 in the gathered tensor\n",
                 "ValueError: Expected input batch_size (32) to match target batch_size (16).\n",
                 "AssertionError: loss is nan at step 1200\n",
                 "    assert not torch.isnan(loss).any()\nAssertionError\n"):
        v = _verdict(tmp_path, "Traceback (most recent call last):\n" + tail + exit1)
        assert v["cause"] != "config", (tail, v)
    # a settings-like assert beside a collective timeout: the hang is read, not the check
    hang = watchdog_line(1, 12, "ALLREDUCE", 600012, 600000) + "[rank0]: AssertionError: batch_size must be > 0\n"
    assert _verdict(tmp_path, hang)["cause"] != "config"


# A library's own host-side assertion on the launch shape or its buffer settings (DeepEP's EP_HOST_ASSERT, round 52:
# "num_ranks > NUM_MAX_NVL_PEERS or low_latency_mode" on two nodes of one GPU each; the combine's chunk check for 16
# nodes, its file:line a Markdown link in the paste): every rank is launched with the same sizes and config, so
# config, no rank (rules W, Q), the fix quoting the condition. A condition on a tensor is one call's own error.
def _ep_assert(cond: str, where: str, prefix: str = "") -> str:
    return (f"{prefix}  File \"/opt/venv/lib/python3.10/site-packages/deep_ep/buffer.py\", line 88, in __init__\n"
            f"{prefix}    self.runtime = deep_ep_cpp.Buffer(self.rank, self.group_size, num_nvl_bytes, num_rdma_bytes, "
            "low_latency_mode)\n"
            f"{prefix}RuntimeError: Failed: Assertion error {where} '{cond}'\n")


def test_a_librarys_host_assertion_on_the_launch_shape_or_buffer_settings_is_config(tmp_path):
    launch = ("python3 -m torch.distributed.run --nproc_per_node=2 --nnodes=4 --node_rank=0 --master_addr=10.2.0.5 "
              "--master_port=29511 tests/test_internode.py\n")
    exit1 = ("ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 1 (pid: 6120) "
             "of binary: /opt/venv/bin/python3\n")
    for text, word in (
            (launch + _ep_assert("num_ranks > NUM_MAX_NVL_PEERS or low_latency_mode",
                                 "/src/DeepEP/csrc/deep_ep.cpp:41"), "NUM_MAX_NVL_PEERS"),
            (_ep_assert("num_ranks > NUM_MAX_NVL_PEERS or low_latency_mode", "csrc/deep_ep.cpp:32", "[rank3]: ")
             + exit1, "nproc_per_node"),
            ("[tuning] SMs 20, NVL chunk 2, RDMA chunk 16: 30.1 GB/s (RDMA), 58.2 GB/s (NVL)\n"
             + _ep_assert("num_max_nvl_chunked_recv_tokens / num_rdma_ranks > std::max(num_max_rdma_chunked_send_tokens"
                          ", num_max_nvl_chunked_send_tokens)",
                          "/ws/DeepEP/csrc/kernels/[internode.cu:1650](http://internode.cu:1650/)"),
             "num_max_nvl_chunked_recv_tokens"),
            (_ep_assert("num_experts % num_ranks == 0", "/opt/ep/csrc/ep.cpp:77"), "num_experts % num_ranks")):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert v["cause"] == "config" and v["culprits"] == [] and not _accused(d), v
        assert word in v["fix"] and "launch configuration" in v["fix"], v["fix"]


def test_a_host_assertion_on_a_tensor_or_beside_a_failing_run_is_not_a_settings_check(tmp_path):
    for cond in ("x.size(0) == num_tokens", "topk_idx.dim() == 2 and num_ranks > 0", "ptr != nullptr"):
        v = _verdict(tmp_path, _ep_assert(cond, "/opt/DeepEP/csrc/deep_ep.cpp:512", "[rank2]: "))
        assert v["cause"] != "config", (cond, v)
    hang = watchdog_line(1, 12, "ALLREDUCE", 600012, 600000) + _ep_assert(
        "num_ranks > NUM_MAX_NVL_PEERS or low_latency_mode", "csrc/deep_ep.cpp:32")
    assert _verdict(tmp_path, hang)["cause"] != "config"


# glibc's assert() in a C/CUDA trainer's own host code ("prog: src/loader.h:90: void init(...): Assertion `...'
# failed.") aborts the process, and Open MPI's crash handler then reports its SIGABRT: where the condition relates the
# process count to the run's sizes, every process fails it alike at start-up -- config, no rank (rules W, Q). The
# crash handler's lines are each their own, never the rest of the assertion's line (a hard-wrapped paste).
def _c_assert_abort(pid: int, cond: str) -> str:
    return (f"trainer: src/data/loader.h:90: void loader_init(Loader*, const char*, size_t, int, int): Assertion "
            f"`{cond}' failed.\n"
            f"[gpu-node-7:{pid}] *** Process received signal ***\n"
            f"[gpu-node-7:{pid}] Signal: Aborted (6)\n"
            f"[gpu-node-7:{pid}] Signal code:  (-6)\n"
            f"[gpu-node-7:{pid}] [ 0] /lib/x86_64-linux-gnu/libc.so.6(+0x42520)[0x7f3a1c042520]\n"
            f"[gpu-node-7:{pid}] [ 1] /lib/x86_64-linux-gnu/libc.so.6(abort+0xd3)[0x7f3a1c0287f3]\n"
            f"[gpu-node-7:{pid}] *** End of error message ***\n")


def test_a_c_assert_on_the_process_count_that_aborts_every_process_is_config(tmp_path):
    cond = "ntokens >= (int64_t) (num_processes * B * T + 1)"
    text = "mpirun -np 4 ./trainer -b 8 -t 2048\n" + _c_assert_abort(5120, cond) + _c_assert_abort(5123, cond)
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "fewer processes" in v["fix"] and "total batch size" in v["fix"], v["fix"]


def test_a_c_assert_on_a_pointer_or_beside_another_signal_is_not_a_settings_check(tmp_path):
    v = _verdict(tmp_path, _c_assert_abort(5120, "buf != NULL"))
    assert v["cause"] != "config", v
    segv = ("[gpu-node-7:5131] *** Process received signal ***\n[gpu-node-7:5131] Signal: Segmentation fault (11)\n"
            "[gpu-node-7:5131] Signal code: Address not mapped (1)\n")
    v = _verdict(tmp_path, _c_assert_abort(5120, "ntok >= num_processes * B * T") + segv)
    assert v["cause"] != "config", v


# A dtype clash inside a model's forward (float32 inputs against float64 weights) is the precision the run is built
# with, the same on every rank that reaches the op: config, no rank, even where one rank's traceback shows it
# (rules Q, AF (2)); beside an NCCL failure it is not what stopped the job.
def _dtype_tb(r: int, error: str) -> str:
    return (f"[rank{r}]: Traceback (most recent call last):\n"
            f"[rank{r}]:   File \"/opt/venv/lib/python3.11/site-packages/potnet/modules/readout.py\", line 141, in "
            "forward\n"
            f"[rank{r}]:     return torch.matmul(x, self.reference_energies.T)\n"
            f"[rank{r}]: RuntimeError: {error}\n")


def test_a_dtype_clash_in_the_forward_is_config_for_the_whole_job(tmp_path):
    for error in ("expected mat1 and mat2 to have the same dtype, but got: float != double",
                  "expected scalar type Float but found Double"):
        text = _dtype_tb(5, error) + "[rank2]: Traceback (most recent call last):\n"
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), (error, v)
        assert "model and data dtype consistent" in v["fix"], v["fix"]
    v = _verdict(tmp_path, watchdog_line(1, 40, "ALLREDUCE", 600040, 600000)
                 + _dtype_tb(5, "expected scalar type Float but found Double"))
    assert v["cause"] != "config", v


# --- a stop from outside in the shell's or Ray's words ------------------------------------------------------------
def test_the_shells_terminated_with_nothing_failing_is_a_sigterm_from_outside(tmp_path):
    """bash's job-control and script forms of "Terminated" (SIGTERM ended the foreground job): signal, no rank; after
    a rank's own failure it is that failure's teardown, read by the failure."""
    warn = ("[W ProcessGroupNCCL.cpp:2302] Rank 3 using best-guess GPU 3 to perform barrier as devices used by this "
            "process are currently unknown.\n")
    for term in ("[2]+  Terminated              torchrun --nproc_per_node 4 train.py --cfg base.yaml\n",
                 "./run_dist.sh: line 12: 30211 Terminated              python -m torch.distributed.run train.py\n"):
        v = _verdict(tmp_path, warn + term)
        assert v["cause"] == "signal" and v["culprits"] == [], (term, v)
    failed = ("ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 2 (pid: 611) "
              "of binary: /usr/bin/python\n")
    assert _verdict(tmp_path, failed + "Terminated\n")["cause"] != "signal"


def test_ray_reporting_the_actors_node_preempted_is_a_signal_from_outside(tmp_path):
    text = ("(TrainController pid=4410) The actor died unexpectedly before finishing this task.\n"
            "(TrainController pid=4410) \tclass_name: RayTrainWorker\n"
            "(TrainController pid=4410) The actor died because its node has died. Node Id: 3fa9c0e1d2\n"
            "(TrainController pid=4410) \tthe actor's node was preempted: spot capacity reclaimed by the provider\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "signal" and v["culprits"] == [], v
    assert "checkpoint" in v["fix"], v


def test_an_autoscaler_terminating_the_jobs_nodes_from_outside_is_a_signal(tmp_path):
    """Round 41: a cluster autoscaler's notice "Instance X (node IP: A) will be terminated soon (reason: R)" for a
    reason from outside (Kubernetes' pod termination, a spot preemption) before the trainer fails: the nodes were
    taken away (SIGTERM from outside), signal, no rank; the autoscaler's own scale-down of idle nodes is not."""
    def text(why: str) -> str:
        return (f"(autoscaler +2h05m11s) Instance gpu-wg-7f3c (node IP: 172.16.4.21) will be terminated soon (reason: "
                f"{why}).\n"
                f"(autoscaler +2h05m11s) Instance gpu-wg-9a01 will be terminated soon (reason: {why}).\n"
                "Traceback (most recent call last):\n"
                "  File \"/app/trainer/launch.py\", line 212, in wait_for_placement_group\n"
                "    raise RuntimeError(\n")
    for why in ("kubernetes-pod-termination", "spot-preemption"):
        d = _report(tmp_path, text(why))
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("signal", []) and not _accused(d), (why, v)
        assert "SIGTERM" in v["fix"] and "terminationGracePeriodSeconds" in v["fix"], v["fix"]
        assert "placement group" in v["fix"] and "checkpoint" in v["fix"], v["fix"]
    assert _verdict(tmp_path, text("idle"))["cause"] != "signal"


def test_a_traceback_through_deepspeeds_runner_signal_handler_is_a_signal_from_outside(tmp_path):
    """DeepSpeed's runner installs sigkill_handler only for SIGINT/SIGTERM: its traceback through that handler while it
    waited on its workers is the runner stopped from outside, whatever the handler raised; launch.py's own handler
    (called when a worker exits) is not that frame."""
    text = ("[2024-11-02 08:14:51,203] [INFO] [launch.py:319:sigkill_handler] Killing subprocess 55120\n"
            "[2024-11-02 08:14:51,204] [INFO] [launch.py:319:sigkill_handler] Killing subprocess 55121\n"
            "Traceback (most recent call last):\n"
            "  File \"/usr/local/lib/python3.10/dist-packages/deepspeed/launcher/runner.py\", line 601, in main\n"
            "    result.wait()\n"
            "  File \"/usr/local/lib/python3.10/dist-packages/deepspeed/launcher/runner.py\", line 590, in "
            "sigkill_handler\n    result_kill = subprocess.Popen(kill_cmd, env=env)\n"
            "UnboundLocalError: local variable 'kill_cmd' referenced before assignment\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "signal" and v["culprits"] == [], v
    worker = text.replace("runner.py\", line 590", "launch.py\", line 590")
    assert _verdict(tmp_path, worker)["cause"] != "signal"


# --- a launcher's own check of its set-up failing before any worker ran (lead rule X (2)): config ---------------------
def test_a_launchers_ssh_probe_or_mpi_start_up_failing_is_config(tmp_path):
    ssh = ("Traceback (most recent call last):\n"
           "  File \"/opt/conda/lib/python3.10/subprocess.py\", line 369, in check_call\n"
           "    raise CalledProcessError(retcode, cmd)\n"
           "subprocess.CalledProcessError: Command 'ssh -p 2222 -o PasswordAuthentication=no worker-3 hostname' "
           "returned non-zero exit status 255.\n")
    v = _verdict(tmp_path, ssh)
    assert v["cause"] == "config" and v["culprits"] == [] and "ssh-copy-id" in v["fix"], v
    mpi = ("[gpu-12:04411] *** An error occurred in MPI_Init\n[gpu-12:04411] *** on a NULL communicator\n"
           "[gpu-12:04411] *** MPI_ERRORS_ARE_FATAL (processes in this communicator will now abort,\n")
    v = _verdict(tmp_path, mpi)
    assert v["cause"] == "config" and v["culprits"] == [], v
    # a worker's own command failing with 255 is not the launcher's ssh probe
    other = ssh.replace("'ssh -p 2222 -o PasswordAuthentication=no worker-3 hostname'", "'bash prep.sh'")
    assert _verdict(tmp_path, other)["cause"] != "config"


# --- the destructor's "Process Group destroyed on rank N" beside the error its ncclCommAbort raised (round 28) -------
_ABORT = ("terminate called after throwing an instance of 'c10::Error'\n"
          "  what():  NCCL error in: /opt/pytorch/torch/csrc/distributed/c10d/NCCLUtils.hpp:188, unhandled cuda error, "
          "NCCL version 2.10.3\n")


def test_an_unhandled_cuda_error_raised_in_the_destructor_of_rank_ns_group_is_rank_ns(tmp_path):
    text = (_ABORT + "Process Group destroyed on rank 3\nException raised from ncclCommAbort at /opt/pytorch/torch/"
            "csrc/distributed/c10d/NCCLUtils.hpp:188 (most recent call first):\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "cuda_error" and v["culprits"] == [3], v


def test_destructor_notes_of_two_ranks_beside_one_error_name_nobody(tmp_path):
    text = "Process Group destroyed on rank 1\n" + _ABORT + "Process Group destroyed on rank 2\n"
    v = _verdict(tmp_path, text)
    assert v["cause"] == "cuda_error" and v["culprits"] == [], v


# --- lead rule J: some ranks of the job failing alike, the ranks below them not in the record (round 27) -----------
_SEP = "-" * 60 + "\n"


def _alike_record(entries: list[tuple[int, int]], root: tuple[int, int]) -> str:
    """torchrun's ChildFailedError table: Failures (global rank, pid), then the root cause, all in one second."""
    return ("train.py FAILED\n" + _SEP + "Failures:\n"
            + "".join(failure_record(i + 1, r, r, 1, p, time="2024-08-09_03:04:05", host="gpu-7")
                      for i, (r, p) in enumerate(entries))
            + _SEP + "Root Cause (first observed failure):\n"
            + failure_record(0, root[0], root[0], 1, root[1], time="2024-08-09_03:04:05", host="gpu-7") + _SEP)


def test_two_high_ranks_failing_alike_while_the_ranks_below_them_do_not_are_both_culprits(tmp_path):
    v = _verdict(tmp_path, _alike_record([(5, 7702)], (4, 7701)))
    assert v["cause"] == "unknown" and v["culprits"] == [4, 5], v
    assert "@record" in v["fix"]


def test_ranks_from_zero_up_failing_alike_are_a_shared_cause(tmp_path):
    v = _verdict(tmp_path, _alike_record([(1, 7702), (2, 7703)], (0, 7701)))
    assert v["culprits"] == [], v


def test_failing_ranks_whose_root_cause_entry_was_cut_name_nobody(tmp_path):
    text = _alike_record([(2, 7702), (3, 7703)], (1, 7701))
    text = text[:text.index("  rank      : 1 (")]  # the paste ends inside the root-cause entry
    v = _verdict(tmp_path, text)
    assert v["culprits"] == [], v


def test_a_failures_entry_cut_before_its_exit_code_is_no_teardown_that_would_make_the_others_culprits(tmp_path):
    """Round 41: torchrun's "Failures:" list shows ranks failing with the same code in one second and the paste ends
    inside the next entry, before its exitcode line (its root-cause entry not pasted). Nothing shows that last
    process torn down, so the failing ranks are not "some ranks failing, the rest torn down" (rule A extended) but
    several failing alike (lead rule J): nobody accused; a shown -15 entry still is teardown."""
    entries = "".join(failure_record(i, r, r - 4, 2, 5100 + r, time="2024-11-12_17:40:31", host="trn-04")
                      for i, r in ((1, 5), (2, 6)))
    cut = "[3]:\n  time      : 2024-11-12_17:40:31\n  host      : trn-04\n  rank      : 7 (local_rank: 3)\n"
    text = "train.py FAILED\n" + _SEP + "Failures:\n" + entries + cut
    d = _report(tmp_path, text)
    assert not _accused(d), d["verdict"]
    assert d["verdict"]["cause"] == "unknown" and "rank 7" not in d["verdict"]["summary"], d["verdict"]
    shown = text.replace(cut, failure_record(3, 7, 3, -15, 5107, time="2024-11-12_17:40:59", host="trn-04"))
    v = _report(tmp_path, shown)["verdict"]
    assert sorted(v["culprits"]) == [5, 6] and "rank 7" in v["summary"], v


# --- round 62: a lone failure record whose Root Cause entry the paste cut at its "[0]:" (lead rule A, no rank) ------
# torchrun's table says <NO_OTHER_FAILURES> and the paste ends at the Root Cause entry's header: a rank failed on its
# own, which one and how the lines do not say -- unknown, nobody accused, not "nothing failed" (round 62's internvl-905)
_LONE_CUT = ("torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n" + "=" * 56 + "\n"
             "train.py FAILED\n" + _SEP + "Failures:\n  <NO_OTHER_FAILURES>\n" + _SEP
             + "Root Cause (first observed failure):\n[0]:\n")


def test_a_lone_records_root_cause_cut_at_its_header_is_an_unnamed_failure(tmp_path):
    # (the paste may end on a blank line or a Markdown fence after the cut)
    for text in (_LONE_CUT, _LONE_CUT.removesuffix("[0]:\n"), _LONE_CUT + "\n", "```\n" + _LONE_CUT + "```\n"):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert v["cause"] == "unknown" and not _accused(d), v
        assert "@record" in v["fix"] and "Root Cause" in v["summary"], v


def test_the_agents_own_line_beside_the_cut_root_cause_still_names_the_rank(tmp_path):
    # near shape: the agent's "failed (exitcode: 1) local_rank: 3" line tells the same first failure with its rank:
    # the cut entry adds no process of its own, and a whole entry names its rank as before
    agent = ("E0305 02:17:52.073000 209292 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) "
             "local_rank: 3 (pid: 209379) of binary: /usr/bin/python\n")
    assert _verdict(tmp_path, agent + _LONE_CUT)["culprits"] == [3]
    whole = _LONE_CUT + failure_record(None, 5, 5, 1, 4242)
    whole = whole.replace("[0]:\n", "[0]:\n  time      : 2025-01-02_10:00:00\n  host      : node-a\n")
    assert _verdict(tmp_path, whole)["culprits"] == [5]


# --- GASNet's "*** Caught a fatal signal (proc N)": process N's own death (round 29) --------------------------------
_GASNET_NOTE = ("NOTICE: Before reporting bugs, run with GASNET_BACKTRACE=1 in the environment to generate a "
                "backtrace. \n")


def test_gasnets_caught_fatal_signal_names_that_process(tmp_path):
    text = "*** Caught a fatal signal (proc 3): SIGSEGV(11)\n" + _GASNET_NOTE
    v = _verdict(tmp_path, text)
    assert v["cause"] == "unknown" and v["culprits"] == [3], v
    assert "GASNET_BACKTRACE=1" in v["fix"]


def test_gasnets_fatal_signals_in_two_processes_name_neither(tmp_path):
    text = ("*** Caught a fatal signal (proc 1): SIGABRT(6)\n" + _GASNET_NOTE
            + "*** Caught a fatal signal (proc 2): SIGABRT(6)\n" + _GASNET_NOTE)
    v = _verdict(tmp_path, text)
    assert not ({1, 2} & set(v["culprits"])), v


# --- session 8 (fix27): Horovod's and TensorFlow's wording of an NCCL error names the call ------------------------
def test_horovods_nccl_call_failed_wording_is_read_by_its_error_string(tmp_path):
    """Horovod (HorovodInternalError) and TensorFlow (errors_impl.UnknownError) print NCCL's error string after the
    call that returned it ("<ncclCall> failed: <ncclGetErrorString>"): an unhandled cuda error there is a CUDA
    failure inside NCCL (cuda_error), nobody named from these lines alone."""
    for text in ("horovod.common.exceptions.HorovodInternalError: ncclReduceScatter failed: unhandled cuda error\n",
                 "tensorflow.python.framework.errors_impl.UnknownError: ncclCommInitRank failed: unhandled cuda "
                 "error\n\t [[{{node DistributedSGD_Allreduce/cond_12/HorovodAllreduce_grads_12_0}}]]\n"):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert v["cause"] == "cuda_error" and not _accused(d), (text, v)
        assert "NCCL_DEBUG=INFO" in v["fix"], v


# --- session 8 (fix27): ROCm's HSA hardware exception, the AMD counterpart of an Xid --------------------------------
def test_an_hsa_hardware_exception_of_a_gpu_is_a_gpu_fault_with_no_rank_named(tmp_path):
    """ROCm's HSA runtime ('HW Exception by GPU node-%u (Agent handle: %p) reason :%s'), printed once per process that
    holds an agent on that GPU, is the GPU or its driver failing (cuda_error); node-N is the GPU's KFD topology node,
    not a rank, so nobody is named, and the fix names the GPU and the amdgpu tools."""
    text = (" 12%|#####                                      | 88/731 [1:02:11<7:34:02, 42.39s/it]HW Exception by GPU "
            "node-3 (Agent handle: 0x55e0c1a2b3c0) reason :GPU Hang\n"
            + "".join(f"HW Exception by GPU node-3 (Agent handle: 0x{h:x}) reason :GPU Hang\n"
                      for h in (0x7f10aa01c0d0, 0x5610be3390a0, 0x5571c2d00f10))
            + "Aborted (core dumped)\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "cuda_error" and not v["culprits"] and not _accused(d), v
    assert "rocm-smi" in v["fix"] and "node-3" in v["fix"], v


# --- session 8 (fix27): a CUDA failure at communicator creation on a platform without CUDA virtual memory ----------
def test_a_cuda_failure_creating_the_communicator_without_cuda_vmm_is_the_platform_not_the_rank(tmp_path):
    """Lead rule V (2): torch warning 'expandable_segments not supported on this platform' (no CUDA virtual memory
    management: a VM, WSL, a vGPU) and ncclUnhandledCudaError raised where torch creates the communicator
    (NCCLUtils) is NCCL's own cuMem allocation failing on that platform: cuda_error, the rank only a lead (nobody
    accused), NCCL_CUMEM_ENABLE=0 in the fix; without the platform's warning the rank stays named."""
    err = ("[rank5]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/"
           "NCCLUtils.cpp:77, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5\n"
           "[rank5]: ncclUnhandledCudaError: Call to CUDA function failed.\n[rank5]: Last error:\n"
           "[rank5]: Cuda failure 801 'operation not supported'\n")
    warn = ("[W1104 16:20:31.118240551 CUDAAllocatorConfig.h:28] Warning: expandable_segments not supported on this "
            "platform (function operator())\n")
    d = _report(tmp_path, warn + err)
    v = d["verdict"]
    assert v["cause"] == "cuda_error" and not _accused(d), v
    assert "NCCL_CUMEM_ENABLE=0" in v["fix"], v
    assert _accused(_report(tmp_path, err, "plain.log")) == {5}


# --- session 9 (fix30): horovodrun's record of a worker's exit (lead rules A, I, J) --------------------------------
# horovod/runner/gloo_run.py: print('Process {idx} exit with status code {ec}.') with idx = slot_info.rank (the global
# rank; its output is tagged "[idx]<stdout>:" / "[idx]<stderr>:"), the status as the worker's shell returns it.
def test_horovodruns_one_process_killed_with_shell_status_137_is_that_rank_host_oom(tmp_path):
    """A status of 128 + 9 is SIGKILL as a shell reports it: the one rank the record names, host_oom."""
    d = _report(tmp_path, "[1]<stdout>:epoch 3 loss 0.41\nProcess 5 exit with status code 137.\n"
                "Traceback (most recent call last):\n  File \"/opt/venv/bin/horovodrun\", line 8, in <module>\n")
    v = d["verdict"]
    assert v["cause"] == "host_oom" and _accused(d) == {5}, v
    assert "137" in v["summary"], v


def test_horovodruns_one_process_exiting_on_its_own_exception_is_that_rank(tmp_path):
    """One rank's own traceback in its "[N]<stderr>:" lines, and the record of that rank exiting with status 1."""
    text = ("[0]<stdout>:starting\n[1]<stdout>:starting\n[1]<stderr>:Traceback (most recent call last):\n"
            "[1]<stderr>:  File \"train.py\", line 40, in <module>\n"
            "[1]<stderr>:ValueError: shard 7 of the dataset is empty\nProcess 1 exit with status code 1.\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "unknown" and _accused(d) == {1}, v
    assert "ValueError" in v["summary"] and "horovodrun" in v["fix"], v


def test_horovodruns_every_process_exiting_alike_is_a_shared_cause(tmp_path):
    """Every rank the record shows exiting with the same status (lead rule J): nobody accused, unknown."""
    text = "".join(f"Process {r} exit with status code 3.\n" for r in (1, 0, 2))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "unknown" and not v["culprits"] and not _accused(d), v
    assert "horovodrun" in v["fix"] and "alike" in v["summary"], v


def test_mpiruns_record_of_a_segfault_names_mpis_transport_in_the_fix(tmp_path):
    """mpirun's "exited on signal 11" of one rank: that rank (rule A/I), and the fix names that rank's own log and
    MPI's own transport (UCX) running inside the process as the test to make."""
    text = ("mpirun noticed that process rank 6 with PID 0 on node gpu-b07 exited on signal 11 (Segmentation "
            "fault).\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "unknown" and _accused(d) == {6}, v
    assert "UCX_TLS=tcp" in v["fix"] and "--output-filename" in v["fix"], v


# --- session 9 (fix30): torchrun's "Failures:" list without its "Root Cause" entry (lead rules F, J) ---------------
# torch/distributed/elastic/multiprocessing/errors ChildFailedError.format_msg lists under "Failures:" every failure
# besides the root cause ("<NO_OTHER_FAILURES>" when there is none): an entry there means another process failed too.
def _failures_only(entry: str, prefix: str = "") -> str:
    head = ("torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n" + "=" * 60 + "\n"
            "/srv/app/finetune.py FAILED\n" + "-" * 60 + "\nFailures:\n")
    return "".join(prefix + line + "\n" for line in (head + entry).splitlines())


def test_a_sigbus_listed_under_failures_with_its_root_cause_cut_is_shared_memory_with_no_culprit(tmp_path):
    """accelerate's test runner prefixes each line with 'stdout: '; the entry (rank 3, -7) is not the root cause."""
    d = _report(tmp_path, _failures_only(failure_record(3, 3, 3, -7, 5120, host="box-2"), prefix="stdout: "))
    v = d["verdict"]
    assert v["cause"] == "dataloader_shm" and not v["culprits"] and not _accused(d), v
    assert "/dev/shm" in v["fix"], v


def test_a_sigkill_listed_under_failures_with_its_root_cause_cut_is_host_memory_with_no_culprit(tmp_path):
    d = _report(tmp_path, _failures_only(failure_record(2, 6, 6, -9, 881)))
    v = d["verdict"]
    assert v["cause"] == "host_oom" and not v["culprits"] and not _accused(d), v


def test_an_exit_listed_under_failures_with_its_root_cause_cut_names_nobody(tmp_path):
    """Exit code 1 under "Failures:": that rank failed, and so did the root cause not shown: no lone culprit."""
    d = _report(tmp_path, _failures_only(failure_record(1, 2, 2, 1, 4410)))
    assert not _accused(d), d["verdict"]


# --- session 9 (fix30): Abseil's fatal-signal handler (Ray's raylet), lead rule F ----------------------------------
def test_abseils_sigbus_report_of_the_raylet_is_shared_memory_with_no_rank(tmp_path):
    """absl's FailureSignalHandler: "*** SIGBUS received at time=N on cpu M ***" then its "@ 0x..." frames; printed by
    the raylet (no rank): dataloader_shm, nobody named, Ray's object store in the fix."""
    text = ("(raylet, ip=10.4.0.17) *** SIGBUS received at time=1702000123 on cpu 3 ***\n"
            "(raylet, ip=10.4.0.17) PC: @     0x7fa0c1d2e3f4  (unknown)  memcpy\n"
            "(raylet, ip=10.4.0.17)     @     0x55aa00112233        512  plasma::PlasmaStore::ProcessCreateRequest()\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "dataloader_shm" and not v["culprits"] and not _accused(d), v
    assert "object-store-memory" in v["fix"], v


def test_abseils_sigbus_report_in_a_ranks_own_log_is_that_ranks(tmp_path):
    text = "[rank4]: *** SIGBUS received at time=1702000999 on cpu 40 ***\n[rank4]: PC: @ 0x7f00aa  (unknown)\n"
    d = _report(tmp_path, text)
    assert d["verdict"]["cause"] == "dataloader_shm" and _accused(d) == {4}, d["verdict"]


# --- session 9 (fix30): Ray's memory monitor's advice pasted without the kill's head (host_oom) --------------------
def test_ray_oom_prevention_advice_alone_is_a_host_memory_kill_with_no_rank(tmp_path):
    """Ray's OOM-kill message ends with the same advice whatever killed what (node_manager's memory monitor); a paste
    holding only that tail and the top-memory table still says a worker was killed for the node's RAM."""
    text = ("412\t61.20\tpython serve_embeddings.py --port 8100\n7710\t3.05\tray::TrainerActor.step\n"
            "Refer to the documentation on how to address the out of memory issue: "
            "https://docs.ray.io/en/latest/ray-core/scheduling/ray-oom-prevention.html. Consider provisioning more "
            "memory on this node or reducing task parallelism by requesting more CPUs per task.\n"
            "(TrainerActor pid=7710) Unhandled error (suppress with 'RAY_IGNORE_UNHANDLED_ERRORS=1'): "
            "ray::Rollout.generate() (pid=7702, ip=10.1.1.9)\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "host_oom" and not v["culprits"] and not _accused(d), v
    assert "RAY_memory_usage_threshold" in v["fix"], v


# --- session 9 (fix30): an illegal memory access that NCCL's own CUDA call reports (nccl-tests) --------------------
def test_an_illegal_access_reported_by_nccls_own_cuda_call_points_at_the_gpu_and_driver(tmp_path):
    """NCCL's CUDACHECK outside its kernel launch (init.cc, misc/strongstream.cc) then nccl-tests' own failure line:
    cuda_error, no rank (nccl-tests prints none), and the fix names Xid errors and the driver, not only the user's
    kernels; at NCCL's kernel launch the upgrade advice stays (test_an_illegal_access_at_nccls_own_launch...)."""
    text = ("dgx-b12:33107:33107 [3] misc/strongstream.cc:395 NCCL WARN Cuda failure 'an illegal memory access was "
            "encountered'\n"
            "dgx-b12:33107:33107 [3] NCCL INFO init.cc:1002 -> 1\n"
            "dgx-b12: Test NCCL failure common.cu:1034 'unhandled cuda error (run with NCCL_DEBUG=INFO for details)'\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "cuda_error" and not _accused(d), v
    assert "xid" in v["fix"].lower() and "driver" in v["fix"], v


def test_nccls_own_cuda_failure_warn_pasted_bare_points_at_the_gpu_pair_and_p2p(tmp_path):
    """NCCL's "NCCL WARN Cuda failure 700 'an illegal memory access'" pasted without its host:pid:tid prefix beside
    nccl-tests' "unhandled cuda error" (nvforums-360195's shape, other source lines, orders and a vLLM worker's
    traceback or none): NCCL's own CUDA call found the fault with no kernel of the user's, so cuda_error, nobody named,
    and the fix points at the GPU pair's P2P/NVLink path, the driver and NCCL version. A rank's own illegal access
    (no NCCL WARN) keeps the kernel advice only."""
    warn = "NCCL WARN Cuda failure 700 'an illegal memory access was encountered'\n"
    for text in ("Test NCCL failure common.cu:536 'unhandled cuda error'\n" + warn,
                 warn + "ERROR 03-11 09:12:40 [multiproc_executor.py:611] WorkerProc failed to start.\n"
                 "Test NCCL failure common.cu:1012 'unhandled cuda error (run with NCCL_DEBUG=INFO for details)'\n"):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert v["cause"] == "cuda_error" and not _accused(d), v
        assert "NCCL_P2P_DISABLE=1" in v["fix"] and "driver" in v["fix"] and "IOMMU" in v["fix"], v
    own = "[rank1]: RuntimeError: CUDA error: an illegal memory access was encountered\n"
    v = _report(tmp_path, own)["verdict"]
    assert v["cause"] == "cuda_error" and "NCCL_P2P_DISABLE" not in v["fix"], v


# --- session 9 (fix31): a DataLoader worker's death retold without its pid (rule F) ---------------------------------
def test_a_dataloader_bus_error_retold_without_its_pid_is_shared_memory_and_names_nobody(tmp_path):
    """A framework or a reporter retelling torch's "DataLoader worker (pid N) is killed by signal: Bus error." drops
    the pid and wraps the line in its own words; the bus error is still /dev/shm (lead rule F), and with no rank shown
    nobody is named. The signal's name ends where the retelling's own words begin."""
    for text in ("During PPO rollout the trainer failed: RuntimeError: DataLoader worker is killed by signal: Bus "
                 "error -- see the screenshot below\n$ df -h /dev/shm\ntmpfs  64M  64M  0 100% /dev/shm\n",
                 "RuntimeError: DataLoader worker is killed by signal: Bus error.\n"):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert v["cause"] == "dataloader_shm" and not v["culprits"] and not _accused(d), v
        assert "/dev/shm" in v["fix"], v
    d = _report(tmp_path, "crashed at step 40: RuntimeError: DataLoader worker is killed by signal: Killed (see log)\n")
    assert d["verdict"]["cause"] == "host_oom" and not _accused(d), d["verdict"]


# --- session 9 (fix31F): argparse's refusal glued on one line before the agent's record of the exit ---------------
def test_a_launch_argument_refusal_glued_before_the_failure_record_is_config(tmp_path):
    """Lead rule U(2): a paste that lost the line break between the worker's argparse error and torchrun's
    "failed (exitcode: 2) local_rank: N" record still shows the argument every worker is launched with refused:
    config, culprits [], the failed local rank not accused."""
    text = ("finetune_lm.py: error: unrecognized arguments: --local_rank=3, ERROR:torch.distributed.elastic."
            "multiprocessing.api:failed (exitcode: 2) local_rank: 3 (pid: 61877) of binary: /usr/bin/python3.10\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v


# --- PaddlePaddle's launcher (launch_utils.watch_local_trainers): "ABORT!!! Out of all {N} trainers, the trainer
# process with rank={[ranks]} was aborted. Please check its log." lists the trainers whose process exited nonzero;
# it then terminates the rest. Lead rules A and J: those listed are the culprits, the cause is in their workerlog.
def _paddle_abort(world: int, ranks: list[int]) -> str:
    return ("INFO 2023-03-09 11:02:41,105 launch_utils.py:330] terminate all the procs\n"
            f"ERROR 2023-03-09 11:02:41,106 launch_utils.py:602] ABORT!!! Out of all {world} trainers, the trainer "
            f"process with rank={ranks} was aborted. Please check its log.\n"
            "INFO 2023-03-09 11:02:44,109 launch_utils.py:330] terminate all the procs\n")


def test_paddles_abort_record_of_one_trainer_names_it_and_its_workerlog(tmp_path):
    d = _report(tmp_path, _paddle_abort(8, [5]))
    assert d["verdict"]["culprits"] == [5], d["verdict"]
    assert _accused(d) == {5}
    assert "workerlog" in d["verdict"]["fix"]


def test_paddles_abort_record_of_several_trainers_names_each_and_not_the_rest(tmp_path):
    for world, ranks in ((8, [2, 6]), (2, [1]), (6, [1, 2, 3, 4, 5])):
        d = _report(tmp_path, _paddle_abort(world, ranks))
        assert d["verdict"]["culprits"] == ranks, (world, ranks, d["verdict"])
        assert _accused(d) == set(ranks)
        assert "workerlog" in d["verdict"]["fix"]


def test_paddles_abort_record_pasted_without_its_log_prefix_still_names_the_trainers(tmp_path):
    """The record copied from the console without launch_utils' "ERROR <date> launch_utils.py:N]" prefix (no other
    trigger word on the line): still read, the listed trainers are the culprits (rules J, AC (2))."""
    for world, ranks in ((8, [1, 4]), (4, [2])):
        bare = (f"ABORT!!! Out of all {world} trainers, the trainer process with rank={ranks} was aborted. Please "
                "check its log\n")
        d = _report(tmp_path, bare)
        assert d["verdict"]["culprits"] == ranks, (world, ranks, d["verdict"])
        assert _accused(d) == set(ranks)


def test_paddles_abort_record_naming_every_trainer_blames_none(tmp_path):
    d = _report(tmp_path, _paddle_abort(3, [0, 1, 2]))  # every trainer failing alike: a shared cause (rule J)
    assert _accused(d) == set(), d["verdict"]


def test_paddles_dataloader_worker_killed_under_its_abort_record_is_host_oom_of_that_trainer(tmp_path):
    """Paddle's data_loader.cc: "DataLoader process (pid N) exited is killed by signal: Killed." -- SIGKILL, the OOM
    killer -- in the one trainer the launcher records as aborted (rule A): host_oom, that trainer the culprit."""
    lines = ("SystemError: (Fatal) DataLoader process (pid 30771) exited is killed by signal: Killed. (at "
             "/paddle/paddle/fluid/imperative/data_loader.cc:177)\n" + _paddle_abort(4, [2]))
    d = _report(tmp_path, lines)
    assert d["verdict"]["cause"] == "host_oom", d["verdict"]
    assert d["verdict"]["culprits"] == [2], d["verdict"]


def test_paddles_container_record_names_the_failed_workers_own_log_file_in_the_fix(tmp_path):
    """paddle.distributed.launch's "Container rank N status failed cmd [...] code 1 log <file>" on one node: local
    rank N is the culprit (rules A, AC (3)), and the fix names the file the record gives -- where that rank's own
    traceback is -- as written, not only the launcher's default pattern."""
    lines = ("LAUNCH INFO 2024-02-01 10:11:12,000 Pod failed\n"
             "LAUNCH ERROR 2024-02-01 10:11:12,000 Container failed !!!\n"
             "Container rank 3 status failed cmd ['/usr/bin/python', '-u', 'train.py', '--cfg', 'a.yml'] code 1 log "
             "runs/logs/workerlog.3\n")
    v = _verdict(tmp_path, lines)
    assert (v["cause"], v["culprits"]) == ("unknown", [3]), v
    assert "runs/logs/workerlog.3" in v["fix"] and "rank 3's own traceback" in v["fix"], v["fix"]
    assert "traceback of local_rank 3" in v["fix"], v["fix"]  # the record names the worker by its local rank


def test_paddles_nccl_error_with_its_code_in_brackets_is_read_by_the_code(tmp_path):
    """Paddle's enforce prints "NCCL error(N), <ncclGetErrorString>" with the ncclResult_t code in brackets."""
    lines = ("Container rank 1 status failed cmd ['python', '-u', 'train.py'] code 1 log output/workerlog.1\n"
             '  File "/opt/py/site-packages/paddle/distributed/communication/all_reduce.py", line 91, in all_reduce\n'
             "OSError: (External) NCCL error(2), unhandled system error.\n")
    d = _report(tmp_path, lines)
    assert d["verdict"]["cause"] == "nccl_system", d["verdict"]
    assert d["verdict"]["culprits"] == [1], d["verdict"]


# --- glog's failure-signal handler (Paddle's "[SignalInfo: *** SIGTERM (@0x..) received by PID N (TID 0x..) from
# PID M ***]"): a stop signal another process sent
def _glog_stop(sig: str, got: int, sender: int) -> str:
    return ("FatalError: `Termination signal` is detected by the operating system.\n"
            "  [TimeInfo: *** Aborted at 1700000123 (unix time) try \"date -d @1700000123\" if you are using GNU date "
            "***]\n"
            f"  [SignalInfo: *** {sig} (@0x{sender:x}) received by PID {got} (TID 0x7f12ab34cd00) from PID {sender} "
            "***]\n")


def test_a_stop_signal_another_process_sent_is_the_signal_class_and_names_nobody(tmp_path):
    d = _report(tmp_path, _glog_stop("SIGTERM", 5521, 4410))
    assert d["verdict"]["cause"] == "signal", d["verdict"]
    assert _accused(d) == set()


def test_a_spawned_childs_stop_signal_is_the_spawn_parents_teardown_not_a_kill_from_outside(tmp_path):
    lines = _glog_stop("SIGTERM", 802, 777) + ("\nTraceback (most recent call last):\n"
                                               '  File "run_ddp.py", line 57, in <module>\n'
                                               "    paddle.distributed.spawn(main, nprocs=4)\n")
    d = _report(tmp_path, lines)
    assert d["verdict"]["cause"] == "unknown", d["verdict"]
    assert "other" in d["verdict"]["fix"] and "PID 777" in d["verdict"]["fix"]
    assert _accused(d) == set()


def test_a_runtime_cuda_malloc_out_of_memory_is_a_gpu_oom_of_an_unnamed_rank(tmp_path):
    """A C++ runtime's check of its own allocation call, the call spelled out ("CUDA runtime error in
    ::cudaMalloc(...): out of memory"), no rank on the line: a GPU ran out of memory; nobody is accused, and the fix
    speaks of the engine's batch size and free GPU memory."""
    text = ("mpirun -np 4 ./bin/engine_bench --batch 16 --tp 4\n"
            "[Engine][ERROR] CUDA runtime error in cudaMallocManaged(&buf, bytes): out of memory "
            "(/src/engine/runtime/buffers.cpp:88)\n"
            "1       0x55d1c0a3b2e5 void engine::check<cudaError>(cudaError, char const*, char const*, int) + 149\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "gpu_oom" and v["culprits"] == [], v
    assert not _accused(d)
    assert "max_batch_size" in v["fix"] and "free GPU memory" in v["fix"]


def test_a_launcher_record_of_a_sigterm_death_it_did_not_send_is_a_signal_from_outside(tmp_path):
    """Round 33 (lead rules T, U (5)): torch 1.x's launch.py re-raising a worker's death by SIGTERM as
    CalledProcessError (its command is the last worker launched, not the dead one), the launcher having stopped
    nothing before: a signal from outside, nobody named. A worker that failed on its own beside it is read instead."""
    rec = ("subprocess.CalledProcessError: Command '['/opt/conda/bin/python', '-u', 'main.py', '--local_rank=1', "
           "'--epochs', '90']' died with <Signals.SIGTERM: 15>.\n")
    v = _verdict(tmp_path, '  File "/opt/conda/lib/python3.8/site-packages/torch/distributed/launch.py", line 261, '
                           "in main\n" + rec)
    assert (v["cause"], v["culprits"]) == ("signal", []), v
    assert "who sent SIGTERM" in v["fix"], v
    own = rec.replace("died with <Signals.SIGTERM: 15>", "returned non-zero exit status 1")
    assert _verdict(tmp_path, own)["cause"] != "signal"


def test_sglangs_child_wait_status_is_read_as_the_signal_that_killed_it(tmp_path):
    """Round 33: SGLang's SIGCHLD handler prints the raw os.waitpid status of a dead child ("Child process
    unexpectedly failed with an exit code 11. pid=..."): its low bits are the signal (11: SIGSEGV), a native crash
    whose fix is the faulthandler / core dump, with no rank named (pids only)."""
    lines = "".join(f"[2025-09-02 11:04:17] Child process unexpectedly failed with an exit code 11. pid={p}\n"
                    for p in (51202, 51207))
    v = _verdict(tmp_path, lines)
    assert v["culprits"] == [] and "SIGSEGV" in v["fix"] and "faulthandler" in v["fix"], v
    v = _verdict(tmp_path, "[2025-09-02 11:04:17] Child process unexpectedly failed with exitcode=256. pid=51202\n")
    assert v["culprits"] == [] and "SIGSEGV" not in v["fix"], v


# --- more processes per node than GPUs: "invalid device ordinal" is the launch (lead rules Q, W) -------------------
_ORDINAL = ("[rank3]: Traceback (most recent call last):\n"
            "[rank3]:   File \"/srv/app/train.py\", line 41, in <module>\n"
            "[rank3]:     torch.cuda.set_device(local_rank)\n"
            "[rank3]: RuntimeError: CUDA error: invalid device ordinal\n")


def test_more_processes_than_the_visible_gpus_on_the_command_line_is_config_naming_nobody(tmp_path):
    """torchrun's --nproc-per-node above the CUDA_VISIBLE_DEVICES list set on the same command line: every local rank
    past the last GPU fails torch.cuda.set_device; the launch's setting, not rank 3 (llama-946's shape)."""
    text = "$ CUDA_VISIBLE_DEVICES=0,1 torchrun --nproc-per-node=4 --master_port 29511 train.py\n" + _ORDINAL
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "--nproc_per_node 2" in v["fix"]


def test_more_processes_than_the_gpus_device_query_shows_is_config(tmp_path):
    """torch.distributed.launch's --nproc_per_node 4 and CUDA's deviceQuery sample showing 2 devices on the node."""
    text = ("python -m torch.distributed.launch --nproc_per_node 4 --use-env finetune.py \\\n"
            "    --epochs 3\n" + _ORDINAL +
            "./deviceQuery Starting...\n"
            "Detected 2 CUDA Capable device(s)\n"
            "Device 0: \"NVIDIA A10\"\n")
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("config", []), v


def test_an_invalid_ordinal_with_no_more_processes_than_gpus_stays_a_cuda_error(tmp_path):
    """As many processes as GPUs shown: the ordinal is the code's own (a global rank passed to set_device), so the
    launch line says nothing against it and the CUDA error stands."""
    text = "CUDA_VISIBLE_DEVICES=0,1,2,3 torchrun --nproc_per_node=4 train.py\n" + _ORDINAL
    v = _verdict(tmp_path, text)
    assert v["cause"] == "cuda_error", v


def test_several_processes_of_a_launch_failing_on_the_ordinal_are_config_with_no_gpu_count_shown(tmp_path):
    """Round 41: --nproc_per_node N and no GPU count in the lines, but more than one process fails on 'invalid device
    ordinal' (two ranks' tracebacks, or the same failure line printed by two processes): the local ranks past the
    node's last GPU -- the launch's setting (rules Q, U(2)), config, nobody named. One process alone raising it
    elsewhere than the frame selecting its GPU stays a CUDA error (its ordinal may be the code's own)."""
    launch = "torchrun --standalone --nproc_per_node=6 finetune.py --cfg cfg/base.yaml\n"
    two = _ORDINAL + _ORDINAL.replace("[rank3]", "[rank5]")
    v = _verdict(tmp_path, launch + two)
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "--nproc_per_node" in v["fix"] and "nvidia-smi" in v["fix"]
    same = "RuntimeError: CUDA error: invalid device ordinal\n"
    v = _verdict(tmp_path, "python -m torch.distributed.launch --nproc_per_node 4 main.py\n" + same + same)
    assert (v["cause"], v["culprits"]) == ("config", []), v
    own = _ORDINAL.replace("torch.cuda.set_device(local_rank)", "x = x.to(f'cuda:{rank + 2}')")
    v = _verdict(tmp_path, launch + own)
    assert v["cause"] == "cuda_error", v


def test_one_untagged_process_of_a_launch_failing_to_set_its_device_is_config(tmp_path):
    """Round 59: torch.distributed.launch --nproc_per_node 2 and one worker's untagged traceback ending in 'invalid
    device ordinal' under torch.cuda.set_device(args.local_rank), the launcher then killing every worker: the index is
    the local rank the launch gave it, so the launch asks for more GPUs than the process sees (rules Q, W): config,
    nobody named -- as the same lines read with no launch line shown. The same lines under a launcher's rank tag on
    every line (torchrun --tee's "[rankN]: ") read the same: the tag says who printed them, not whose index it was
    (round 59 under --perturb rankprefix); a tagged ordinal raised elsewhere stays a CUDA error (test above)."""
    text = ("python -m torch.distributed.launch --nproc_per_node=2 tools/train.py configs/tusimple.py\n"
            "Traceback (most recent call last):\n"
            '  File "tools/train.py", line 33, in <module>\n'
            "    torch.cuda.set_device(args.local_rank)\n"
            "RuntimeError: CUDA error: invalid device ordinal\n"
            "Killing subprocess 40411\nKilling subprocess 40412\n")
    for prefix in ("", "[rank3]: ", "[rank1]: "):
        v = _verdict(tmp_path, "".join(prefix + x + "\n" for x in text.splitlines()))
        assert (v["cause"], v["culprits"]) == ("config", []), (prefix, v)
        assert "--nproc_per_node" in v["fix"] and "nvidia-smi" in v["fix"], v


def test_nccl_tests_failing_to_set_its_device_is_the_launch_placement_naming_no_rank(tmp_path):
    """Round 46: nccl-tests sets each device itself from the process's local rank on its host, -t and -g, so its own
    'Test CUDA failure common.cu:N 'invalid device ordinal'' is the launch placing more processes x -g on a host than
    it has GPUs (rules Q, W): config, no rank -- with mpirun's rank tags on several processes, or one process that
    mpirun's record names (nccl-348's and nccl-tests-165's shapes with other hosts, ranks, lines and launchers). Any
    other CUDA failure of nccl-tests stays a CUDA error."""
    tagged = "".join(f"[1,{r}]<stderr>:gpu-b{r // 4}: Test CUDA failure common.cu:{r + 880} 'invalid device ordinal'\n"
                     for r in (4, 6, 5, 7))
    v = _verdict(tmp_path, "mpirun -np 8 -H gpu-b0:4,gpu-b1:4 ./build/all_gather_perf -g 1\n" + tagged)
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "-npernode" in v["fix"] and "hostname" in v["fix"], v
    one = ("node17: Test CUDA failure common.cu:845 'invalid device ordinal'\n"
           " .. node17 pid 4411: Test failure common.cu:797\n"
           "mpirun detected that one or more processes exited with non-zero status, thus causing\n"
           "the job to be terminated. The first process to do so was:\n\n"
           "  Process name: [[4021,1],3]\n  Exit code:    2\n")
    v = _verdict(tmp_path, one)
    assert (v["cause"], v["culprits"]) == ("config", []), v
    v = _verdict(tmp_path, one.replace("'invalid device ordinal'", "'no kernel image is available for execution on "
                                       "the device'"))
    assert v["cause"] == "cuda_error", v
    # torch's own bare line is not nccl-tests' placement: with no frame shown it is the launch's device index by
    # lead rule AU (2) (round 62's rag-retrieval-27), read as such, not as nccl-tests' own -g / -t arithmetic
    v = _verdict(tmp_path, "[1,2]<stderr>:RuntimeError: CUDA error: invalid device ordinal\n")
    assert v["cause"] == "config" and "nccl-tests" not in v["summary"] and "-npernode" not in v["fix"], v


# --- round 36: a DataLoader's own bus-error report, any capitalisation (lead rule F) ---------------------------------
def test_dataloader_bus_error_report_in_any_case_is_shared_memory_naming_no_unshown_rank(tmp_path):
    """A DataLoader's SIGBUS handler reports the worker's bus error ("Unexpected BUS error encountered in DataLoader
    worker", Paddle's; torch's "Unexpected bus error encountered in worker") with no rank or launcher record: /dev/shm
    ran out (lead rule F), dataloader_shm, and no rank is named; Paddle's own switch is in the fix."""
    for line in ("E0419 08:12:55.301 worker.py:88] ERROR: Unexpected BUS error encountered in DataLoader worker. This "
                 "might be caused by insufficient shared memory (shm), please check whether use_shared_memory is set "
                 "and storage space in /dev/shm is enough\n",
                 "ERROR: Unexpected Bus error encountered in DataLoader worker.\n"):
        d = _report(tmp_path, line + "Exception in thread Thread-3:\nTraceback (most recent call last):\n"
                          "    raise Empty\n_queue.Empty\n")
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("dataloader_shm", []) and not _accused(d), (line, v)
        assert "/dev/shm" in v["fix"], v
        assert ("use_shared_memory=False" in v["fix"]) == ("use_shared_memory" in line), v


# --- round 36: argparse refusing any argument the workers are started with (lead rules U (2), W) --------------------
def test_argparse_refusing_the_launch_arguments_is_config_naming_no_rank(tmp_path):
    """A script's argparse usage error on an argument other than the local rank ("finetune.py: error: unrecognized
    arguments: --nproc_per_node=4", "error: the following arguments are required: --cfg"): every worker is launched
    with the same command line, so config, no rank, even where the launcher then lists every trainer as aborted; a
    launcher's own option among the refused arguments was placed after the script (its fix says to move it)."""
    abort = ("ERROR 2022-03-09 11:20:41,118 launch_utils.py:545] ABORT!!! Out of all 4 trainers, the trainer process "
             "with rank=[0, 1, 2, 3] was aborted. Please check its log.\n")
    for text, opt in (("finetune.py: error: unrecognized arguments: --nproc_per_node=4\n" + abort, "--nproc_per_node"),
                      ("usage: run.py [-h] --cfg CFG\nrun.py: error: the following arguments are required: --cfg\n",
                       None),
                      ("[rank1]: main.py: error: unrecognized arguments: --lr-warmup 500\n", None)):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), (text, v)
        assert ("before the training script" in v["fix"]) == (opt is not None), v
        if opt:
            assert f"Put {opt} before" in v["fix"], v


# --- round 36: Paddle's launcher listing every trainer as aborted, no exit codes (lead rule J) ------------------------
def test_paddle_record_of_every_trainer_aborted_names_no_rank_and_their_workerlogs(tmp_path):
    """Paddle's launch_utils record listing every trainer of the job as aborted ("Out of all 3 trainers, ... rank=[0,
    1, 2]"), no exit codes and no error shown: every rank failed together, a shared cause (lead rule J) -- unknown,
    no rank, and the fix names the failed trainers' own files (log/workerlog.N); one trainer of four names its own."""
    rec = ("ERROR 2021-02-11 09:14:27,603 launch_utils.py:327] ABORT!!! Out of all {n} trainers, the trainer process "
           "with rank=[{r}] was aborted. Please check its log.\n")
    term = "INFO 2021-02-11 09:14:24,601 launch_utils.py:269] terminate all the procs\n"
    d = _report(tmp_path, term + rec.format(n=3, r="0, 1, 2") + term)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), v
    assert "every trainer of the job" in v["summary"] and "with code ;" not in v["summary"], v
    assert all(f"log/workerlog.{i}" in v["fix"] for i in range(3)), v
    v = _verdict(tmp_path, term + rec.format(n=4, r="2") + term)
    assert "log/workerlog.2" in v["fix"] and "every trainer" not in v["summary"], v


# --- session 11 (fix36d): an install without NCCL in other builds' words (lead rule Q's last sentence) --------------
def test_torch_thd_refusing_the_nccl_backend_is_the_build_not_a_rank(tmp_path):
    """torch 0.4's THD (process_group/General.cpp): "the distributed NCCL backend is not available; try to recompile
    the THD package with CUDA and NCCL 2+ support", raised on every rank alike: the build, config, nobody named."""
    text = "".join(
        f"[rank{r}]: Traceback (most recent call last):\n"
        f'[rank{r}]:   File "main.py", line 41, in run\n'
        f"[rank{r}]:     dist.init_process_group(backend='nccl', init_method='env://', world_size=3, rank={r})\n"
        f"[rank{r}]: RuntimeError: the distributed NCCL backend is not available; try to recompile the THD package "
        "with CUDA and NCCL 2+ support at /build/pytorch-src/torch/lib/THD/process_group/General.cpp:17\n"
        for r in (2, 0))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "is_nccl_available()" in v["fix"] and "PyTorch build with CUDA/NCCL" in v["fix"], v


def test_xla_unable_to_load_nccl_is_the_install_not_a_replica(tmp_path):
    """XLA (JAX/TensorFlow) failing its first collective because no libnccl can be loaded ("NCCL operation
    ncclGetUniqueId(&id) failed: Unable to load NCCL library."), from another replica and another collective: the
    environment every device shares (config, no rank), the fix names the library and its path."""
    line = ("2025-03-04 08:12:41.551203: E external/xla/xla/pjrt/pjrt_stream_executor_client.cc:3067] Execution of "
            "replica 3 failed: INTERNAL: Failed to execute XLA Runtime executable: run time error: custom call "
            "'xla.gpu.all_reduce' failed: external/xla/xla/service/gpu/runtime/nccl_clique.cc:201: NCCL operation "
            "ncclGetUniqueId(&id) failed: Unable to load NCCL library. Multi-GPU collectives will not work.\n")
    jax = ("jaxlib.xla_extension.XlaRuntimeError: INTERNAL: external/xla/xla/service/gpu/nccl_utils.cc:120: NCCL "
           "operation ncclGetUniqueId(&id) failed: Unable to load NCCL library. Multi-GPU collectives will not "
           "work.\n")
    for text in (line, line.replace("replica 3", "replica 1") + jax, jax):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), (text, v)
        assert "libnccl.so" in v["fix"] and "LD_LIBRARY_PATH" in v["fix"], v


def test_no_nccl_built_in_under_deepspeed_names_the_check_and_other_accelerators(tmp_path):
    """"Distributed package doesn't have NCCL built in" on Linux, raised while a framework sets up its device under
    DeepSpeed's init_distributed: the fix says how to check the build and names the backend of another accelerator."""
    text = ("[2025-01-09 10:02:11,480] [INFO] [comm.py:652:init_distributed] cdb=None\n"
            "Traceback (most recent call last):\n"
            '  File "/srv/app/finetune.py", line 210, in <module>\n'
            "    main()\n"
            '  File "/opt/py311/lib/python3.11/site-packages/deepspeed/comm/comm.py", line 670, in init_distributed\n'
            "    cdb = TorchBackend(dist_backend, timeout, init_method, rank, world_size)\n"
            "RuntimeError: Distributed package doesn't have NCCL built in\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "torch.cuda.is_available()" in v["fix"] and "hccl" in v["fix"] and "DS_ACCELERATOR" in v["fix"], v


def test_the_mpi_backend_given_gpu_tensors_without_a_cuda_aware_mpi_is_config(tmp_path):
    """Round 42 (rocm-pytorch-453): ProcessGroupMPI's check that the MPI it was built with cannot carry GPU tensors
    is the backend and the MPI install every rank shares (rule Q's last sentence): config, no rank, not an unexplained
    failure. Here under a rank tag, a traceback above it, and the other negation; a second rank's copy too."""
    text = ("[rank2]: Traceback (most recent call last):\n"
            '[rank2]:   File "bench.py", line 31, in <module>\n'
            "[rank2]:     dist.all_reduce(t)\n"
            "[rank2]: RuntimeError: CUDA tensor detected and the MPI used does not have CUDA-aware MPI support\n"
            "[rank5]: RuntimeError: CUDA tensor detected and the MPI used does not have CUDA-aware MPI support\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "config" and v["culprits"] == [] and not _accused(d), v
    assert "nccl" in v["fix"] and "CUDA-aware MPI" in v["fix"], v["fix"]


def test_a_backend_name_torch_refuses_is_config_naming_the_backends_it_has(tmp_path):
    """torch's Backend() refusing init_process_group's backend name -- one removed from c10d (1.0's "TCP backend has
    been deprecated ...") or no backend at all ("Invalid backend: 'X'") -- a setting every process shares (lead rules
    L, Q): config, no rank, the fix names the backends to use (pytorch-pr13596's shape, here under torchrun's rank
    prefix, a script's frames and a misspelt name)."""
    text = ("[rank1]: Traceback (most recent call last):\n"
            '[rank1]:   File "/work/dist_train.py", line 41, in setup\n'
            '[rank1]:     dist.init_process_group(backend=cfg.dist_backend, init_method="env://")\n'
            '[rank1]:   File "/opt/venv/lib/python3.7/site-packages/torch/distributed/distributed_c10d.py", line 61, '
            "in __new__\n"
            "[rank1]:     raise ValueError(\"Invalid backend: '{}'\".format(name))\n"
            "[rank1]: ValueError: Invalid backend: 'ncll'\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "gloo" in v["fix"] and "'ncll'" in v["summary"], v
    gone = ("ValueError: THD backend has been removed. Please use Gloo or MPI backends for collective operations on "
            "CPU tensors.\n")
    assert _verdict(tmp_path, gone)["cause"] == "config"


# --- session 11 (fix36d): the watchdog's CUDA check in c10's backtrace, the error's own line cut (lead rules A, I) ---
def _cuda_check_trace(lib: str = "/opt/conda/lib/python3.11/site-packages/torch/lib") -> str:
    """c10's backtrace of an exception thrown by C10_CUDA_CHECK where the watchdog queries a work's end event (torch
    2.x ProcessGroupNCCL.cpp WorkNCCL::finishedGPUExecutionInternal), from its 'Exception raised from' line on."""
    return ("Exception raised from c10_cuda_check_implementation at /pytorch/c10/cuda/CUDAException.cpp:43 (most "
            "recent call first):\n"
            "frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x98 "
            f"(0x7f01a2b3c4d8 in {lib}/libc10.so)\n"
            "frame #1: c10::cuda::c10_cuda_check_implementation(int, char const*, char const*, int, bool) + 0x3c2 "
            f"(0x7f01a2e11c22 in {lib}/libc10_cuda.so)\n"
            "frame #2: c10d::ProcessGroupNCCL::WorkNCCL::finishedGPUExecutionInternal() const + 0x52 (0x7f01a41a2d12 "
            f"in {lib}/libtorch_cuda.so)\n"
            "frame #3: c10d::ProcessGroupNCCL::WorkNCCL::isCompleted() + 0x58 (0x7f01a41a6e38 in "
            f"{lib}/libtorch_cuda.so)\n"
            "frame #4: c10d::ProcessGroupNCCL::watchdogHandler() + 0x1f1 (0x7f01a41b0a51 in "
            f"{lib}/libtorch_cuda.so)\n")


def test_the_watchdogs_cuda_check_cut_from_its_message_with_a_lone_sigabrt_is_that_ranks_cuda_error(tmp_path):
    """The backtrace of the watchdog's CUDA check (its 'CUDA error: ...' line not pasted) and one local rank of a
    single-node job recorded with SIGABRT, the others only SIGTERM'd: the CUDA error ended that process (its watchdog
    thread's exception aborts it), so rule A names it; rule I's watchdog abort is a timeout's, none shown here."""
    text = (_cuda_check_trace() + "".join(SIGTERM.format(pid=p) for p in (5101, 5102, 5104))
            + FAILED.format(code=-6, lr=2, pid=5103))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("cuda_error", [2]), v
    assert "CUDA_LAUNCH_BLOCKING=1" in v["fix"], v
    spawn = (_cuda_check_trace("/home/u/venv/lib/python3.10/site-packages/torch/lib")
             + "    mp.spawn(worker, args=(cfg,), nprocs=world_size, join=True)\n"
             "torch.multiprocessing.spawn.ProcessExitedException: process 3 terminated with signal SIGABRT\n")
    v = _verdict(tmp_path, spawn)
    assert (v["cause"], v["culprits"]) == ("cuda_error", [3]), v


def test_the_watchdogs_cuda_check_alone_names_nobody_and_driver_shutdown_is_no_cuda_error(tmp_path):
    """The same frames with no record of which process died name no rank; beside CUDA's 'driver shutting down' (the
    check at interpreter exit) they are the exit's, not a CUDA error of the run."""
    d = _report(tmp_path, _cuda_check_trace())
    assert d["verdict"]["cause"] == "cuda_error" and not _accused(d), d["verdict"]
    exit_ = ("terminate called after throwing an instance of 'c10::Error'\n"
             "  what():  CUDA error: driver shutting down\n" + _cuda_check_trace())
    assert _verdict(tmp_path, exit_)["cause"] != "cuda_error"


# --- session 11 (fix37b): XLA's and DeepBench's wordings of an NCCL error -----------------------------------------
def test_xlas_nccl_operation_failed_wording_with_the_calls_arguments_is_read_by_its_error_string(tmp_path):
    """XLA (nccl_utils.cc: "NCCL operation %s failed: %s") prints the call with its argument list before NCCL's error
    string: an internal error of communicator creation is NCCL's own (nccl_internal), an unhandled cuda error a CUDA
    failure inside NCCL (cuda_error); no rank is named from these lines."""
    init = ("2025-03-11 17:02:44.118203: W external/xla/xla/service/gpu/runtime/support.cc:58] Intercepted XLA runtime "
            "error:\nINTERNAL: external/xla/xla/service/gpu/nccl_utils.cc:297: NCCL operation "
            "ncclCommInitRank(&comm, nranks, id, rank) failed: internal error\n")
    d = _report(tmp_path, init)
    assert d["verdict"]["cause"] == "nccl_internal" and not _accused(d), d["verdict"]
    group = ("jaxlib.xla_extension.XlaRuntimeError: INTERNAL: external/xla/xla/service/gpu/nccl_api.cc:611: "
             "NCCL operation ncclGroupEnd() failed: unhandled cuda error\n")
    d = _report(tmp_path, group)
    assert d["verdict"]["cause"] == "cuda_error" and not _accused(d), d["verdict"]


def test_deepbenchs_nccl_failure_wording_on_every_rank_names_nobody(tmp_path):
    """DeepBench's NCCL check ("NCCL failure: <ncclGetErrorString> in <file> at line: <n> rank: <r>"): every rank of
    the job failing the same way with an unhandled cuda error is the GPU platform's (cuda_error), no rank first."""
    text = "".join("terminate called after throwing an instance of 'std::runtime_error'\n"
                   f"  what():  NCCL failure: unhandled cuda error in nccl_single_all_reduce.cu at line: 52 rank: {r}\n"
                   f"[gpu-node{r}:{4100 + r}] *** Process received signal ***\n"
                   f"[gpu-node{r}:{4100 + r}] Signal: Aborted (6)\n" for r in range(3))
    d = _report(tmp_path, text)
    assert d["verdict"]["cause"] == "cuda_error" and not _accused(d), d["verdict"]
    assert d["verdict"]["confidence"] != "low", d["verdict"]  # read as NCCL's error, not as words alone


# --- session 12 (fix38-4): a scheduler's OOM kill that names no rank names its memory limit in the fix ---------------
def test_a_schedulers_oom_kill_without_a_rank_names_its_memory_limit(tmp_path):
    """Rule A's table (a kill by the host is host_oom): Slurm's step daemon reporting an OOM kill in a step after a
    checkpoint save began, in its newer ("oom_kill event ... OOM Killed") and older ("oom-kill event(s) ... cgroup
    out-of-memory handler") wordings, names no rank (nobody accused); the fix names the OOM killer and Slurm's
    --mem limit, whichever reading (the host-kill family or the last reading) takes the line."""
    head = ("2024-06-03 17:40:02 | INFO | trainer | step 1200 | loss 1.874\n"
            "2024-06-03 17:40:05 | INFO | checkpointing | writing full state dict to /ckpt/step1200\n")
    for i, line in enumerate((
            "slurmstepd: error: Detected 2 oom_kill events in StepId=51234.batch. Some of the step tasks have been "
            "OOM Killed.\n",
            "slurmstepd: error: Detected 3 oom-kill event(s) in step 4412.0 cgroup. Some of your processes may have "
            "been killed by the cgroup out-of-memory handler.\n")):
        d = _report(tmp_path, head + line, f"slurm{i}.log")
        v = d["verdict"]
        assert v["cause"] == "host_oom" and not _accused(d), v
        assert "OOM killer" in v["fix"] and "--mem" in v["fix"] and "sharded checkpoint" in v["fix"], v["fix"]


# --- lead rule T: the user's Ctrl-C, Python's KeyboardInterrupt ending a traceback, nothing failing before it --------
def test_a_keyboard_interrupt_with_nothing_failing_before_it_is_a_stop_from_outside(tmp_path):
    """A traceback that ends in a bare "KeyboardInterrupt" (the spawn parent interrupted in its join, or a rank in its
    loop), then only the ranks' teardown (ProcessGroupNCCL's destructor/abort INFO lines): SIGINT from outside, signal,
    no rank named. After a rank's own failure (a watchdog timeout) the interrupt is not the cause."""
    tb = ("Traceback (most recent call last):\n"
          '  File "/opt/conda/lib/python3.11/site-packages/torch/multiprocessing/spawn.py", line 190, in join\n'
          "    ready = multiprocessing.connection.wait(\n"
          '  File "/opt/conda/lib/python3.11/selectors.py", line 415, in select\n'
          "    fd_event_list = self._selector.poll(timeout)\n"
          "KeyboardInterrupt\n")
    down = "".join(f"[rank{r}]:[I1130 08:12:0{r} ProcessGroupNCCL.cpp:1188] [PG 0 Rank {r}] ProcessGroupNCCL "
                   "destructor entered.\n" for r in (0, 2))
    d = _report(tmp_path, tb + down)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("signal", []) and not _accused(d), v
    assert "py-spy" in v["fix"] and "destroy_process_group" in v["fix"], v["fix"]
    ranked = "".join(f"[rank3]: {x}\n" for x in tb.splitlines())
    assert _verdict(tmp_path, ranked, "ranked.log")["cause"] == "signal"
    hung = watchdog_line(2, 88, "ALLREDUCE", 600105, 600000) + "\n" + tb
    assert _verdict(tmp_path, hung, "hung.log")["cause"] != "signal"



def test_a_traceback_right_after_the_echoed_ctrl_c_is_a_stop_from_outside(tmp_path):
    """Round 74 (mmpose-2586): the terminal echoes the user's "^C" and the interrupted processes' tracebacks start on
    that same line ("^CTraceback (most recent call last):"), the paste cut before their "KeyboardInterrupt" line, both
    still loading their dataset: SIGINT from outside, signal, no rank named. The same cut traceback without the echo
    is not read as a stop (what it raised is not in the lines), nor is an echo after a rank's own timeout."""
    frames = ('  File "/home/u/proj/tools/train.py", line 175, in <module>\n'
              "    main()\n"
              '  File "/home/u/proj/tools/train.py", line 150, in main\n'
              "    datasets = [build_dataset(cfg.data.train)]\n"
              '  File "/home/u/envs/x/lib/python3.9/site-packages/mmpose/datasets/builder.py", line 87, in '
              "build_dataset\n"
              "    dataset = build_from_cfg(cfg, DATASETS, default_args)\n")
    d = _report(tmp_path, "^CTraceback (most recent call last):\n" + frames + "Traceback (most recent call last):\n"
                + frames)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("signal", []) and not _accused(d), v
    assert "py-spy" in v["fix"], v["fix"]
    plain = "Traceback (most recent call last):\n" + frames
    assert _verdict(tmp_path, plain, "plain.log")["cause"] != "signal"
    inside = "echo '^C' Traceback (most recent call last):\n" + frames
    assert _verdict(tmp_path, inside, "inside.log")["cause"] != "signal"
    hung = watchdog_line(2, 88, "ALLREDUCE", 600105, 600000) + "\n^CTraceback (most recent call last):\n" + frames
    assert _verdict(tmp_path, hung, "hung.log")["cause"] != "signal"
    unfit = ("Command Line Args: Namespace(config_file='c.yml', dist_url='auto', eval_only=False, machine_rank=1, "
             "num_gpus=2, num_machines=1, opts=[], resume=False)\n^CTraceback (most recent call last):\n" + frames)
    assert _verdict(tmp_path, unfit, "unfit.log")["cause"] == "config"  # the hang's cause is shown: Ctrl-C is the user

# --- session 13 (fix42-4): torchrun's agent passing on a Ctrl-C: the fix names SIGINT and the teardown --------
def test_torchrun_agent_receiving_sigint_names_sigint_and_the_teardown_in_its_fix(tmp_path):
    """torch/distributed/elastic/agent/server/api.py: "Received 2 death signal, shutting down workers" and
    multiprocessing/api.py's "Sending process P closing signal SIGINT": the user's Ctrl-C from outside, signal, no
    rank; the fix names SIGINT, says the exit tracebacks (a DataLoader's atexit clean-up) are the teardown, and what
    to take before interrupting a stuck job."""
    text = ("W1203 09:41:17.412000 140233 torch/distributed/elastic/agent/server/api.py:704] Received 2 death signal, "
            "shutting down workers\n"
            + "".join(f"W1203 09:41:17.41{i}000 140233 torch/distributed/elastic/multiprocessing/api.py:897] Sending "
                      f"process {140301 + i} closing signal SIGINT\n" for i in range(4)))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("signal", []) and not _accused(d), v
    assert "SIGINT" in v["fix"] and "DataLoader" in v["fix"] and "py-spy" in v["fix"], v["fix"]
    assert "TORCH_NCCL_ASYNC_ERROR_HANDLING" in v["fix"], v["fix"]


# --- lead rules U (3), A: an unranked CUDA OOM of GPU N whose own process holds it, with rank N's traceback --------
def test_an_unranked_oom_whose_gpu_agrees_with_the_ranked_traceback_pasted_with_it_names_that_rank(tmp_path):
    """The OOM's message line has no launcher prefix, but says "GPU 2 ... this process has X memory in use" (the
    failing process holds GPU 2) and the traceback pasted with it (right below, or the one it ends) is [rank2]'s:
    on a job nothing says spans nodes, rank 2. Another rank's traceback, or no "this process has", names nobody."""
    def oom(gpu: int, this: bool = True) -> str:
        return (f"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.20 GiB. GPU {gpu} has a total "
                "capacity of 79.15 GiB of which 310.75 MiB is free. "
                + ("Including non-PyTorch memory, this process has 78.83 GiB memory in use. " if this else "")
                + "Of the allocated memory 71.02 GiB is allocated by PyTorch, and 6.90 GiB is reserved by PyTorch "
                "but unallocated.\n")

    def tb(rank: int) -> str:
        return (f"[rank{rank}]: Traceback (most recent call last):\n"
                f'[rank{rank}]:   File "/srv/job/train_fsdp.py", line 212, in <module>\n'
                f"[rank{rank}]:     loss = model(**batch).loss\n")
    for text in (oom(2) + tb(2), tb(2) + oom(2)):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("gpu_oom", [2]), (text, v)
    for text in (oom(1) + tb(3), oom(2, this=False) + tb(2)):
        v = _verdict(tmp_path, text, "other.log")
        assert v["cause"] == "gpu_oom" and v["culprits"] == [], (text, v)


def test_an_unranked_oom_of_a_gpu_above_0_its_own_process_holds_names_that_local_rank(tmp_path):
    """Lead rule U (3), rounds 44/45: "GPU N ... this process has X memory in use" with N > 0 and no traceback of
    another rank: the failing process sees the node's GPU numbering (a per-process CUDA_VISIBLE_DEVICES or Ray shows
    every process GPU 0), so GPU N is local rank N's -- rank N on a job nothing says spans nodes. A job on two nodes
    stays unnamed. GPU 0 (round 58): held by the failing process alone (no other process listed on it) it is local
    rank 0's too; with another process listed there (Ray's actors colocated with an engine, each seeing its GPU as
    0) it stays unnamed."""
    def oom(gpu: int, other: str = "") -> str:
        return ("Traceback (most recent call last):\n"
                '  File "/opt/app/train.py", line 88, in <module>\n'
                "    model = DistributedDataParallel(model, device_ids=[local_rank])\n"
                f"torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.40 GiB. GPU {gpu} has a total "
                f"capacity of 23.65 GiB of which 1.05 GiB is free. {other}Including non-PyTorch memory, this process "
                "has 22.58 GiB memory in use. Of the allocated memory 21.90 GiB is allocated by PyTorch, and 201.30 "
                "MiB is reserved by PyTorch but unallocated.\n")
    d = _report(tmp_path, oom(6))
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("gpu_oom", [6]), d["verdict"]
    assert "GPU 6" in d["verdict"]["summary"]
    v = _report(tmp_path, oom(0))["verdict"]
    assert (v["cause"], v["culprits"]) == ("gpu_oom", [0]), v
    assert "alone" in v["summary"], v
    v = _report(tmp_path, oom(0, "Process 51177 has 1.10 GiB memory in use. "))["verdict"]
    assert (v["cause"], v["culprits"]) == ("gpu_oom", []), v
    config = ("I0102 09:59:00.000000 4100 torch/distributed/elastic/agent/server/api.py:525] [default] Rendezvous "
              "complete for workers. Result:\n  restart_count=0\n  master_addr=node-a\n  master_port=29500\n"
              "  group_rank=1\n  group_world_size=2\n  local_ranks=[0, 1, 2, 3, 4, 5, 6, 7]\n")
    v = _report(tmp_path, config + oom(6))["verdict"]
    assert (v["cause"], v["culprits"]) == ("gpu_oom", []), v


# --- lead rule T: elastic's SignalException message printed alone, under a wrapper's own header -------------------
def test_the_agents_signal_exception_message_alone_on_its_line_is_a_signal_from_outside(tmp_path):
    """A framework that runs elastic_launch in its own process prints str(exc) of the SignalException under its own
    header ("Message:" then "    Process 4242 got signal: 1"): the agent's process got that stop signal from
    outside, no rank named: signal, nobody."""
    for sig in ("15", "1", "Signals.SIGTERM"):
        text = ("Traceback (most recent call last):\n"
                '  File "/opt/venv/lib/python3.10/site-packages/torch/distributed/elastic/multiprocessing/api.py", '
                "line 62, in _terminate_process_handler\n"
                '    raise SignalException(f"Process {os.getpid()} got signal: {sigval}", sigval=sigval)\n'
                "\nError message:\n\n"
                f"        Process 4242 got signal: {sig}\n\nSystem error.\n")
        v = _verdict(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("signal", []), (sig, v)


# --- lead rules I, A: srun's record of the task that exited before srun tore the step down ------------------------
def test_srun_task_that_exited_before_the_step_teardown_is_the_first_failure(tmp_path):
    """srun's "task N: Exited with exit code C" above its "_step_signal: Terminating StepId" (and slurmstepd's
    "CANCELLED AT"), the other tasks "Killed" after it: where a node shows several tasks, srun runs one task a
    process, so task N is global rank N, the one that failed first (cause unknown: no exception shown); the killed
    tasks are torn down. One task a node (a launcher per node) names no rank; a task exiting only after the
    teardown began is part of it."""
    text = ("srun: error: gpu-a17: task 11: Exited with exit code 2\n"
            "srun: launch/slurm: _step_signal: Terminating StepId=99120.3\n"
            "slurmstepd: error: *** STEP 99120.3 ON gpu-a16 CANCELLED AT 2024-03-02T11:20:07 ***\n"
            "srun: error: gpu-a16: tasks 0-3,5: Killed\n"
            "srun: error: gpu-a17: tasks 8-10: Killed\n"
            "srun: error: gpu-a16: task 4: Killed\n"
            "srun: error: gpu-a17: tasks 12,14-15: Killed\n"
            "srun: error: gpu-a16: tasks 6,7: Killed\n"
            "srun: error: gpu-a17: task 13: Killed\n"
            "srun: Force Terminated StepId=99120.3\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", [11]), v
    assert _accused(d) <= {11}
    per_node = ("srun: error: gpu-a16: task 1: Exited with exit code 2\n"
                "srun: launch/slurm: _step_signal: Terminating StepId=99120.3\n"
                "slurmstepd: error: *** STEP 99120.3 ON gpu-a16 CANCELLED AT 2024-03-02T11:20:07 ***\n"
                "srun: error: gpu-a17: task 0: Killed\n")
    assert _verdict(tmp_path, per_node, "per_node.log")["culprits"] == []
    after = ("slurmstepd: error: *** STEP 99120.3 ON gpu-a16 CANCELLED AT 2024-03-02T11:20:07 ***\n"
             "srun: error: gpu-a16: tasks 2-3: Exited with exit code 1\n"
             "srun: error: gpu-a16: tasks 0-1: Killed\n")
    v = _verdict(tmp_path, after, "after.log")
    assert (v["cause"], v["culprits"]) == ("signal", []), v


# round 45: NCCL's NVLS WARN in several lines (transport/nvls.cc): the CUDA error on its own line, then "This is usually
# caused by a system or configuration error in the Fabric Manager or NVSwitches." -- the CUDA error is NVLS's
def test_an_nvls_warns_fabric_manager_line_below_its_cuda_error_names_nvls(tmp_path):
    text = ("Failed to allocate NVLink SHARP (NVLS) Multicast memory of size 4194304:\n"
            "CUDA error 999 'unknown error'.\n"
            "This is usually caused by a system or configuration error in the Fabric Manager or NVSwitches.\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "cuda_error" and v["culprits"] == [] and not _accused(d), v
    assert "NCCL_NVLS_ENABLE=0" in v["fix"] and "fabric manager" in v["fix"], v["fix"]
    alone = "CUDA error 999 'unknown error'.\n"  # the same CUDA error without NCCL's NVLS words is not named NVLS
    assert "NCCL_NVLS_ENABLE" not in _verdict(tmp_path, alone)["fix"]
# --- lead rule A: torchrun's failure record in another wording ("for binary located at ... (process ID: P)") ------
def test_the_agents_reworded_exit_record_after_the_others_were_stopped_names_the_killed_local_rank(tmp_path):
    """Rounds 44/45: an agent that words its record "failed (exitcode: N) for binary located at PATH with
    local_rank: R (process ID: P)" and its stops "Sending process P the closing signal SIGTERM": the one worker that
    failed on its own is the culprit (rule A), -9 -> host_oom. Other pids, ranks, paths and host than the corpus."""
    head = "[job-7f3k-worker-0] [2025-11-04 08:10:{s:02d},100] torch.distributed.elastic.multiprocessing.api: "
    stops = "".join(head.format(s=5) + f"[WARNING] Sending process {p} the closing signal SIGTERM\n"
                    for p in (1201, 1202, 1204))
    rec = head.format(s=9) + ("[ERROR] failed (exitcode: {code}) for binary located at "
                              "/opt/py/envs/train/bin/python3.11 with local_rank: 2 (process ID: 1203)\n")
    d = _report(tmp_path, stops + rec.format(code=-9))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("host_oom", [2]), v
    assert not {0, 1, 3} & set(_accused(d))
    v = _verdict(tmp_path, stops + rec.format(code=-11), "other.log")
    assert v["culprits"] == [2], v


def test_elastics_no_error_file_warning_is_the_record_of_the_worker_that_failed(tmp_path):
    """Rounds 44/45 (lead rule A): torch 1.9-1.10's ErrorHandler warning for a worker that wrote no error file
    ("CHILD PROCESS FAILED WITH NO ERROR_FILE", then "Child process P (local_rank R) FAILED (exitcode N)") is the
    agent's record of that worker's exit: the one worker failing on its own is the culprit. Other pid, rank, code;
    the same worker told again by torchrun's own record stays one failure."""
    warn = ("/usr/lib/python3.8/site-packages/torch/distributed/elastic/multiprocessing/errors/__init__.py:354: "
            "UserWarning: \n\n" + "*" * 70 + "\n" + " " * 15 + "CHILD PROCESS FAILED WITH NO ERROR_FILE\n" + "*" * 70
            + "\nCHILD PROCESS FAILED WITH NO ERROR_FILE\nChild process 40077 (local_rank 3) FAILED (exitcode {c})\n")
    d = _report(tmp_path, warn.format(c=2))
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("unknown", [3]), d["verdict"]
    again = ("ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -11) local_rank: 3 (pid: 40077) of "
             "binary: /usr/bin/python3\n")
    v = _verdict(tmp_path, again + warn.format(c=-11), "other.log")
    assert v["culprits"] == [3], v


def test_a_windows_ntstatus_exit_code_is_read_whole_and_named_a_native_crash(tmp_path):
    """Rounds 44/45: on Windows mp.spawn reports a child ended by a native exception with its whole NTSTATUS as the
    exit code ("terminated with exit code 3221225620", 0xC0000094); it was read cut to 4 digits. Other index and
    status here (0xC0000005, access violation): the code in hex, a native crash, faulthandler in the fix."""
    text = ("Traceback (most recent call last):\n"
            '  File "C:\\\\work\\\\train.py", line 40, in <module>\n'
            "    mp.spawn(run, nprocs=2)\n"
            "torch.multiprocessing.spawn.ProcessExitedException: process 1 terminated with exit code 3221225477\n")
    v = _verdict(tmp_path, text)
    assert v["culprits"] == [1], v
    assert "0xC0000005" in v["summary"] and "access violation" in v["summary"], v["summary"]
    assert "faulthandler" in v["fix"], v["fix"]


# --- session 15 (fix46-f1): launcher records and exits of round 46 ------------------------------------------------
def _rendered_record(rank: int, code: int, pid: int, host: str, others: str = "<NO OTHER FAILURES>") -> str:
    """torchrun's ChildFailedError record pasted as rendered Markdown: the underscores went as emphasis and the
    table's layout with them (field names on lines of their own, rank, exit code and error file glued)."""
    sig = {-9: "SIGKILL", -6: "SIGABRT", -11: "SIGSEGV"}[code]
    return ("torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n"
            "experiments/train main.py FAILED\nFailures:\n" + others + "\nRoot Cause (first observed failure) :\n"
            f"[0]:\ntime\nhost\n2024-02-11 09:12:33\n{host}\n"
            f"rank{rank} (local rank: {rank})exitcode: {code} (pid: {pid})error file: <N/A>\n"
            f"traceback : signal {-code} ({sig}) received by PID {pid}\n"
            "python -m torch.distributed.launch --nproc_per_node=8 \\\n       experiments/train_main.py\n")


def test_a_torchrun_record_pasted_as_rendered_markdown_is_still_read(tmp_path):
    """Round 46 (AMVUR-2, lead rule A): the record's fields lost their layout in a rendered paste ("rank2 (local
    rank: 2)exitcode: -9 (pid: 36071)error file: <N/A>", "time" / "host" alone then their values) and
    "<NO OTHER FAILURES>" lost its underscores: still the one failure of a single-node launch, -9 the OOM killer.
    Other ranks, codes, pids, hosts, a collector's prefix; the usual layout reads as before."""
    d = _report(tmp_path, _rendered_record(5, -9, 91712, "gpu-box-07"))
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("host_oom", [5]), d["verdict"]
    assert "OOM killer" in d["verdict"]["fix"], d["verdict"]["fix"]
    logged = "".join(f"[2024-05-01 12:00:00,123] [INFO] {x}\n"
                     for x in _rendered_record(6, -9, 5120, "n3").splitlines())
    assert _verdict(tmp_path, logged, "logged.log")["culprits"] == [6]  # behind a collector's prefix, its time too
    v = _verdict(tmp_path, _rendered_record(1, -11, 4410, "ws-12"), "segv.log")
    assert (v["cause"], v["culprits"]) == ("unknown", [1]), v
    assert "rank 1" in v["summary"] and "SIGSEGV" in v["summary"], v["summary"]
    # the usual layout is unchanged (the near shape)
    plain = ("torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\nFailures:\n  <NO_OTHER_FAILURES>\n"
             "Root Cause (first observed failure):\n" + failure_record(0, 3, 3, -9, 777))
    assert _verdict(tmp_path, plain, "plain.log")["culprits"] == [3]


def test_srun_naming_a_task_out_of_memory_is_host_oom_with_no_rank_when_one_task_a_node(tmp_path):
    """Round 46 (LUMI 8538204, lead rules A, I, J, AI (2)): srun's "task N: Out Of Memory" (and slurmstepd's
    "oom_kill event" in its underscore wording) is the OOM killer in that task's cgroup; the tasks srun then
    terminated on the other nodes are its teardown, not a cancel. One task a node: a task is a node's launcher, not a
    rank, so nobody is named. Other task, nodes, step ids; a task that exited with a code stays what it was."""
    def srun(task: int, how: str, step: str, hosts=("gpu-a17", "gpu-b02", "gpu-c11")) -> str:
        lines = [f"srun: error: {hosts[0]}: task {task}: {how}\n", f"srun: Terminating StepId={step}\n"]
        lines += [f"srun: error: {h}: task {t}: Terminated\n" for t, h in zip((x for x in range(3) if x != task),
                                                                              hosts[1:])]
        return "".join(lines) + f"srun: Force Terminated StepId={step}\n"
    for task, step in ((2, "771203.0"), (0, "90417.1")):
        d = _report(tmp_path, srun(task, "Out Of Memory", step), f"oom{task}.log")
        assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("host_oom", []), d["verdict"]
        assert "--mem" in d["verdict"]["fix"] and not _accused(d), d["verdict"]
    stepd = ("slurmstepd: error: Detected 1 oom_kill event in StepId=4412.0. Some of the step tasks have been OOM "
             "Killed.\n")
    assert _verdict(tmp_path, stepd + srun(1, "Terminated", "4412.0"), "stepd.log")["cause"] == "host_oom"
    # the near shape: a task that exited with a code, then the teardown, is no OOM
    assert _verdict(tmp_path, srun(1, "Exited with exit code 1", "5521.0"), "exit.log")["cause"] != "host_oom"


def _exit_abort(shown: int, recorded: int, at_exit: bool = True) -> str:
    """Rank SHOWN printing its work done, then aborting ("Fatal Python error: Aborted", faulthandler's stacks), and
    torchrun's record of rank RECORDED exiting -6 a few seconds later."""
    p = f"[rank{shown}]:"
    stack = ([f"{p}Current thread 0x00007f0360ff9640 (most recent call first):", f"{p}  Garbage-collecting",
              f"{p}  <no Python frame>", p, f"{p}Thread 0x00007f06b6639200 (most recent call first):",
              f"{p}  <no Python frame>"] if at_exit else
             [f"{p}Current thread 0x00007f0360ff9640 (most recent call first):",
              f'{p}  File "/work/train.py", line 212 in train_step', f'{p}  File "/work/train.py", line 300 in main'])
    lines = [f"{p}2025-03-09 11:02:14,011 - root - INFO - step: 998/1000  loss:  2.1187",
             f"{p}2025-03-09 11:02:19,603 - root - INFO - Training completed",
             f"{p}terminate called without an active exception", f"{p}Fatal Python error: Aborted", p, *stack,
             "W0309 11:02:24.901000 88120 site-packages/torch/distributed/elastic/multiprocessing/api.py:897] Sending "
             "process 88131 closing signal SIGTERM",
             f"E0309 11:02:26.212000 88120 site-packages/torch/distributed/elastic/multiprocessing/api.py:869] failed "
             f"(exitcode: -6) local_rank: {recorded} (pid: 88132) of binary: /opt/env/bin/python3.11",
             "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:", "Failures:", "<NO_OTHER_FAILURES>",
             "Root Cause (first observed failure):"]
    return "\n".join(lines) + "\n" + failure_record(0, recorded, recorded, -6, 88132, traceback="Signal 6 (SIGABRT) "
                                                    "received by PID 88132")


def test_every_rank_shown_aborting_at_interpreter_exit_after_the_work_is_the_teardown_not_a_culprit(tmp_path):
    """Round 46 (NewComputeBench, lead rule J): torchrun records rank R exiting -6, and another rank's own output
    shows it aborting too ("Fatal Python error: Aborted") with faulthandler's stacks holding no Python frame on any
    thread (the script had returned): every rank shown aborted alike at exit, nobody's fault, and the fix names the
    teardown (barrier, destroy_process_group). Other ranks here; the same abort inside the training still names
    nobody but not the teardown; the record's rank alone aborting stays the lone culprit."""
    for shown, recorded in ((0, 1), (3, 2)):
        d = _report(tmp_path, _exit_abort(shown, recorded), f"exit{shown}.log")
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), v
        assert "destroy_process_group" in v["fix"] and "barrier" in v["fix"] and "teardown" in v["summary"], v
    v = _verdict(tmp_path, _exit_abort(0, 1, at_exit=False), "mid.log")
    assert (v["cause"], v["culprits"]) == ("unknown", []) and "destroy_process_group" not in v["fix"], v
    v = _verdict(tmp_path, _exit_abort(2, 2), "same.log")  # the record's own rank: still the lone failure
    assert v["culprits"] == [2], v


def test_a_lone_workers_http_connection_reset_is_its_own_exception_not_a_peer_gone(tmp_path):
    """Round 46 (FastChat-1951, lead rule A): requests' "ConnectionError: ('Connection aborted.',
    ConnectionResetError(104, 'Connection reset by peer'))" is an HTTP client's (a model or data download), not a
    connection of the job's; torchrun records one worker exiting 1 and SIGTERMs the rest: that worker is the culprit,
    cause unknown, and the fix names the download. Other local ranks and urllib3's pool wording; a bare "Connection
    reset by peer" from gloo stays a peer gone."""
    def run(local: int, exc: str, n: int = 8) -> str:
        pids = [30100 + i for i in range(n)]
        return (exc + "\n" + "".join(f"WARNING:torch.distributed.elastic.multiprocessing.api:Sending process {p} "
                                     "closing signal SIGTERM\n" for i, p in enumerate(pids) if i != local)
                + f"ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: {local} "
                f"(pid: {pids[local]}) of binary: /opt/conda/bin/python3.9\n")
    aborted = "ConnectionError: ('Connection aborted.', ConnectionResetError(104, 'Connection reset by peer'))"
    pool = ("requests.exceptions.ConnectionError: HTTPSConnectionPool(host='huggingface.co', port=443): Max retries "
            "exceeded with url: /api/models/lmsys/vicuna-7b (Caused by ProtocolError('Connection aborted.', "
            "ConnectionResetError(104, 'Connection reset by peer')))")
    for local, exc in ((5, aborted), (2, pool)):
        v = _verdict(tmp_path, run(local, exc), f"http{local}.log")
        assert (v["cause"], v["culprits"]) == ("unknown", [local]), v
        assert "HF_HUB_OFFLINE" in v["fix"], v["fix"]
    gloo = ("RuntimeError: [/opt/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:598] Connection closed by peer "
            "[10.0.0.2]:29171")
    assert _verdict(tmp_path, gloo + "\n", "gloo.log")["cause"] == "early_exit"


# --- session 15 (fix47-g1): culprits from launcher records, kernel logs and own errors of round 47 -------------------
def _wrapped_watchdog(rank: int, other: int, what: str, pg: str = "[PG ID 0 PG GUID 0(default_pg) Rank {r}]") -> str:
    """Rank RANK's watchdog failing on a CUDA error, its c10 message wrapped onto the line under its "[PG .. Rank R]"
    tag (a paste that broke the line), then rank OTHER timing out 600 s later inside the collective."""
    return (f"[rank{rank}]:[E810 15:36:05.945860779 ProcessGroupNCCL.cpp:1899] {pg.format(r=rank)}\n"
            f"Process group watchdog thread terminated with exception: CUDA error: {what}\n"
            "CUDA kernel errors might be asynchronously reported at some other API call,\n"
            "so the stacktrace below might be incorrect.\n\n"
            "terminate called after throwing an instance of 'c10::DistBackendError'\nFatal Python error: Aborted\n"
            f"[rank{other}]:[E810 15:46:05.718597139 ProcessGroupNCCL.cpp:632] [Rank {other}] Watchdog caught "
            "collective operation timeout:\nWorkNCCL(SeqNum=8120, OpType=ALLREDUCE, NumelIn=4096, NumelOut=4096, "
            "Timeout(ms)=600000)\nran for 600072 milliseconds before timing out.\n"
            f"[rank{other}]: To avoid data inconsistency, we are taking the entire process down.\n"
            "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n"
            "  exitcode  : -6 (pid: 187)\n  traceback : Signal 6 (SIGABRT) received by PID 187\n")


def test_a_watchdog_error_wrapped_under_its_rank_tag_is_that_ranks_own_cuda_error(tmp_path):
    """Round 47 (sirzzang ECC DBE, lead rule I): c10's "[rank1]:[E.. ProcessGroupNCCL.cpp:1899] [PG ID 0 .. Rank 1]"
    ends its line and the watchdog's "terminated with exception: CUDA error: ..." follows unprefixed on the next:
    that message is rank 1's, its own CUDA error (culprit), and the rank timing out later inside the collective is
    the victim. Other ranks, errors and tag forms; a next line that carries another rank's prefix keeps it."""
    for rank, other, what, pg in ((1, 0, "uncorrectable ECC error encountered",
                                   "[PG ID 0 PG GUID 0(default_pg) Rank {r}]"),
                                  (5, 2, "an illegal memory access was encountered", "[PG 0 Rank {r}]"),
                                  (0, 3, "unspecified launch failure", "[PG 0 (default_pg) Rank {r}]")):
        d = _report(tmp_path, _wrapped_watchdog(rank, other, what, pg), f"wd{rank}.log")
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("cuda_error", [rank]), v
        assert other not in _accused(d), v
    # hard-wrapped at 80 columns: the joined message sits under blank lines, still the tag's rank's
    wrapped = "\n".join(ln[k:k + 80] for ln in _wrapped_watchdog(4, 1, "uncorrectable ECC error encountered")
                         .split("\n") for k in range(0, max(len(ln), 1), 80))
    assert _verdict(tmp_path, wrapped, "wrap80.log")["culprits"] == [4]
    # the near shape: the line under the tag names its own rank, so the tag's rank is not carried onto it
    text = ("[rank3]:[E810 15:36:05.9 ProcessGroupNCCL.cpp:1899] [PG 0 Rank 3]\n"
            "[rank2]: Process group watchdog thread terminated with exception: CUDA error: an illegal memory access "
            "was encountered\n")
    assert _verdict(tmp_path, text, "own.log")["culprits"] == [2]


def _ds_kill(pids: list[int], killed: int, dmesg_first: bool = False, hosts: tuple[str, ...] = ("",)) -> str:
    """DeepSpeed's launcher killing its workers (one "Killing subprocess P" a worker, in the order it started them,
    behind a pdsh host prefix when HOSTS name several) and the kernel's OOM killer's line for pid KILLED."""
    kill = "".join(f"{h}[2025-06-02 20:51:24,18{i % 10}] [INFO] [launch.py:319:sigkill_handler] Killing subprocess "
                   f"{p + 50 * n}\n" for n, h in enumerate(hosts) for i, p in enumerate(pids))
    oom = (f"[856341.770960] Out of memory: Killed process {killed} (python) total-vm:79905000kB, "
           "anon-rss:22957108kB, file-rss:72036kB, shmem-rss:15143164kB, UID:1000 pgtables:78032kB oom_score_adj:0\n")
    return oom + kill if dmesg_first else kill + oom


def test_the_oom_killers_pid_in_deepspeeds_kill_list_names_that_workers_local_rank(tmp_path):
    """Round 47 (Qwen-VL-Series-Finetune-135, lead rules A, AJ (2)): the kernel OOM killer names pid P and
    DeepSpeed's launcher lists its workers ("Killing subprocess P") in the order it started them: P's place in that
    list is its local rank, the rank on one node, host_oom. Other pids, places, list lengths, the dmesg pasted first;
    a pid the list does not hold, or two nodes' lists interleaved, name nobody."""
    for pids, k, first in (([410126, 410127, 410128], 0, False), ([7001 + i for i in range(8)], 4, True),
                           ([52210, 52214, 52219, 52230], 3, False)):
        d = _report(tmp_path, _ds_kill(pids, pids[k], first), f"ds{k}.log")
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("host_oom", [k]), v
        assert _accused(d) <= {k}, v
    stamped = "".join(f"2024-05-01T12:00:{i:02d}.123456789Z {ln}\n"
                      for i, ln in enumerate(_ds_kill([880, 881, 882], 881).splitlines()))
    assert _verdict(tmp_path, stamped, "stamped.log")["culprits"] == [1]  # a timestamp of its own on each line
    for name, text in (("other.log", _ds_kill([300, 301, 302], 999)),
                       ("pdsh.log", _ds_kill([300, 301], 301, hosts=("node-a: ", "node-b: "))),
                       ("pdsh2.log", _ds_kill([300, 301], 350, hosts=("node-a: ", "node-b: ")))):
        v = _verdict(tmp_path, text, name)
        assert (v["cause"], v["culprits"]) == ("host_oom", []), (name, v)


def _oom_and_record(world: int, oom: int, local: int, closed: list[int], code: int = 1, timeout: bool = False) -> str:
    """Rank OOM's own CUDA OOM while moving the model to its GPU, torchrun's agent sending SIGTERM to the local ranks
    CLOSED, then its record of local rank LOCAL failing with CODE (one node of WORLD workers, pids in start order)."""
    pid = {r: 3701338 + r for r in range(world)}
    p = f"[rank{oom}]:"
    lines = [f'{p}   File "/env/lib/python3.10/site-packages/torch/nn/modules/module.py", line 1159, in convert',
             f"{p}     return t.to(",
             f"{p} torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 216.00 MiB. GPU  has a total "
             "capacity of 44.42 GiB of which 118.12 MiB is free. Including non-PyTorch memory, this process has 44.29 "
             "GiB memory in use."]
    if timeout:
        lines.append(watchdog_line(closed[0], 12, "ALLREDUCE", 600071, 600000).rstrip("\n"))
    lines += [f"W0217 08:19:10.679000 140475426195264 torch/distributed/elastic/multiprocessing/api.py:851] Sending "
              f"process {pid[r]} closing signal SIGTERM" for r in closed]
    lines.append(f"E0217 08:19:12.297000 140475426195264 torch/distributed/elastic/multiprocessing/api.py:826] failed "
                 f"(exitcode: {code}) local_rank: {local} (pid: {pid[local]}) of binary: /env/bin/python")
    return "\n".join(lines) + "\n"


def test_an_oom_beside_another_local_rank_the_agent_did_not_stop_names_both(tmp_path):
    """Round 47 (Step-Video-T2V-8, lead rules J, A extended to several): rank 3 runs out of GPU memory, torchrun's
    agent sends SIGTERM to two workers only (it signals the ones still running) and records local rank 2 exiting 1:
    of the world of 4 on one node, the two it did not stop had exited on their own, rank 3 and rank 2 -- both
    culprits, the two stopped innocent. Other worlds, ranks and orders; the near shapes keep the OOM's rank alone:
    the stopped workers do not account for the rest, or a rank timed out waiting (a victim's exit)."""
    for world, oom, local in ((4, 3, 2), (8, 7, 4), (4, 3, 0)):
        closed = [r for r in range(world) if r not in (oom, local)]
        d = _report(tmp_path, _oom_and_record(world, oom, local, closed), f"two{world}{local}.log")
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("gpu_oom", sorted({oom, local})), v
        assert not _accused(d) & set(closed), v
        assert f"local rank {local}" in v["summary"], v["summary"]
    v = _verdict(tmp_path, _oom_and_record(4, 3, 2, [0]), "short.log")  # 4 - 1 stopped != the 2 failed
    assert (v["cause"], v["culprits"]) == ("gpu_oom", [3]), v
    v = _verdict(tmp_path, _oom_and_record(4, 3, 2, [0, 1], timeout=True), "waited.log")
    assert v["culprits"] == [3], v


def test_one_reader_takes_every_spelling_of_nproc_per_node():
    """torchrun's flag as torch/distributed/run.py accepts it ("--nproc-per-node" and its alias "--nproc_per_node",
    the value after "=" or a space, quoted or not) and its word values ("gpu", "auto": as many as the node has, which
    the line does not say): signatures.nproc_per_node, the one reader the launch's world and GPU checks share."""
    from ncclDoctor.diagnose.signatures import nproc_per_node
    for line, count in (("torchrun --nproc_per_node=8 train.py", 8), ("torchrun --nproc-per-node 8 train.py", 8),
                        ("torchrun --nproc-per-node=4 train.py", 4), ("torchrun --nproc_per_node 2 train.py", 2),
                        ("torchrun --nproc_per_node \"4\" train.py", 4), ("torchrun --nproc_per_node='4' t.py", 4),
                        ("python -m torch.distributed.launch --nproc_per_node=1 --use_env t.py", 1)):
        p = nproc_per_node(line)
        assert p is not None and p.count == count and line[p.start:].startswith("--nproc"), line
    for line, word in (("torchrun --nproc_per_node=gpu train.py", "gpu"), ("torchrun --nproc-per-node auto t", "auto"),
                       ("torchrun --nproc-per-node=cpu t.py", "cpu")):
        p = nproc_per_node(line)
        assert p is not None and (p.count, p.value) == (None, word), line
    for line in ("torchrun --nproc_per_node=$NGPUS train.py", "torchrun --nproc_per_node ${GPU_PER_NODE} train.py",
                 "set --nproc_per_node equal to the GPUs", "torchrun --nproc_per_node=gpus8 t.py", "torchrun t.py"):
        assert nproc_per_node(line) is None, line


def test_both_launch_readers_read_every_count_spelling_alike(tmp_path):
    """The GPU check (more processes than visible GPUs) and the world check (a rank announced past the world) give
    the same answer for each spelling of a count; a "gpu" value starts as many as there are GPUs, so neither holds it
    against the launch."""
    world_ranks = ("| distributed init (rank 1): env://, gpu 1\n| distributed init (rank 0): env://, gpu 0\n"
                   "| distributed init (rank 5): env://, gpu 5\n")
    for flag in ("--nproc_per_node=4", "--nproc-per-node 4", "--nproc-per-node=4", "--nproc_per_node \"4\""):
        v = _verdict(tmp_path, f"$ CUDA_VISIBLE_DEVICES=0,1 torchrun {flag} --master_port 29511 train.py\n" + _ORDINAL)
        assert (v["cause"], v["culprits"]) == ("config", []), (flag, v)
        v = _verdict(tmp_path, f"torchrun {flag} --nnodes=1 main.py\n" + world_ranks)
        assert (v["cause"], v["culprits"]) == ("config", []) and "rank 5" in v["summary"], (flag, v)
    v = _verdict(tmp_path, "$ CUDA_VISIBLE_DEVICES=0,1 torchrun --nproc_per_node=gpu train.py\n" + _ORDINAL)
    assert v["cause"] == "cuda_error", v
    assert _verdict(tmp_path, "torchrun --nproc_per_node=gpu --nnodes=1 main.py\n" + world_ranks)["cause"] != "config"


# --- round 48: a node's workers killed alike, srun's OOM task, one import failing everywhere -----------------------
def _head_cut_table(ranks: list[int], host: str, time: str, pid0: int) -> str:
    """torchrun's failure list pasted from inside its first entry (its "[1]:", time and host lines above the
    cut but the time line kept: the paste starts at "time"), every entry SIGKILLed, then its root cause header."""
    first, rest = ranks[0], ranks[1:]
    out = f"  time      : {time}\n  host      : {host}\n" + failure_record(None, first, first % 8, -9, pid0)
    for i, r in enumerate(rest, start=2):
        out += failure_record(i, r, r % 8, -9, pid0 + i - 1, time=time, host=host)
    return out + "-" * 53 + "\nRoot Cause (first observed failure):\n[0]:\n"


def test_a_nodes_workers_sigkilled_in_one_second_from_a_cut_table_is_the_host_not_six_culprits(tmp_path):
    """Lead rule J: the paste starts inside the first entry (its rank line the first one read), every entry shown is
    -9 in the same second: the host's memory, culprits [] (ColossalAI-4418's shape)."""
    for ranks, host, time in (([10, 11, 12, 13, 14, 15], "test-luo-1", "2023-08-11_17:21:54"),
                              ([4, 5, 6, 7], "gpu-b-07", "2024-02-29_03:10:09")):
        d = _report(tmp_path, _head_cut_table(ranks, host, time, 5000))
        assert d["verdict"]["cause"] == "host_oom", d["verdict"]
        assert d["verdict"]["culprits"] == [] and not _accused(d), d["verdict"]


def test_sigkilled_entries_seconds_apart_are_not_read_as_one_moment(tmp_path):
    """Negative: the entries shown are -9 at times minutes apart: not 'all at once' (the later ones are the
    agent's clean-up or separate kills), so the 'same second' reading must not be given."""
    text = ("  time      : 2024-02-29_03:10:09\n  host      : gpu-b-07\n" + failure_record(None, 4, 4, -9, 700)
            + failure_record(2, 5, 5, -9, 701, time="2024-02-29_03:10:09", host="gpu-b-07")
            + failure_record(3, 6, 6, -9, 702, time="2024-02-29_03:14:41", host="gpu-b-07"))
    v = _verdict(tmp_path, text)
    assert "same second" not in v["summary"], v


def test_horovods_comminitrank_unhandled_cuda_error_under_a_rank_tag_names_no_rank(tmp_path):
    """Lead rules V (2) and AG: the framework's "ncclCommInitRank failed: unhandled cuda error" is NCCL's set-up on
    the GPUs every rank shares; horovodrun's / mpirun's output tag is no failure record (ignite-3466's shape)."""
    for tag, exc in (("[1]<stderr>:", "RuntimeError"), ("[1,3]<stderr>:", "tensorflow.python.framework.errors_impl."
                                                                           "UnknownError")):
        text = (f"{tag}    mpi_lib.horovod_torch_wait_and_clear(handle)\n"
                f"{tag}{exc}: ncclCommInitRank failed: unhandled cuda error (run with NCCL_DEBUG=INFO for details)\n")
        v = _verdict(tmp_path, text)
        assert v["cause"] == "cuda_error" and v["culprits"] == [], v


def test_torchs_own_unhandled_cuda_error_under_its_rank_tag_still_names_the_rank(tmp_path):
    """Negative: torch's own "NCCL error in: ...ProcessGroupNCCL.cpp" under its "[rankN]:" prefix stays that rank's
    (the corpus' diffusion-pipe-154 reading)."""
    text = ("[rank5]: torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/"
            "ProcessGroupNCCL.cpp:3396, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version "
            "2.25.1\n[rank5]: ncclUnhandledCudaError: Call to CUDA function failed.\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "cuda_error" and v["culprits"] == [5], v


def _import_tb(exc: str) -> str:
    return ("Traceback (most recent call last):\n"
            '  File "/work/app/main.py", line 50, in <module>\n'
            "    from cuml.preprocessing import StandardScaler\n"
            '  File "/env/lib/python3.12/site-packages/cuml/internals/safe_imports.py", line 401, in '
            "gpu_only_import_from\n    return getattr(imported_module, symbol)\n" + exc + "\n")


def _torchrun_start(n: int) -> str:
    return (f"$ torchrun --nproc_per_node={n} --nnodes=1 --master_port=29511 main.py\n"
            "W0624 23:26:01.876000 98296 site-packages/torch/distributed/run.py:766] *****\n")


def test_every_worker_ending_on_the_same_import_failure_is_the_install_not_the_recorded_rank(tmp_path):
    """Lead rules J, Q, AF (2): one untagged import traceback per worker torchrun launched, the record naming the first
    exit it noticed: config, no rank (genetictrading's shape), whichever worker the record names."""
    for n, local, exc in ((4, 2, "AttributeError: module 'numba' has no attribute 'cuda'"),
                          (2, 1, "ImportError: cannot import name 'packaging' from 'pkg_resources.extern' "
                                  "(/env/lib/python3.12/site-packages/pkg_resources/extern/__init__.py)")):
        text = _torchrun_start(n) + _import_tb(exc) * n + (
            f"E0624 23:26:03.314000 98296 site-packages/torch/distributed/elastic/multiprocessing/api.py:874] failed "
            f"(exitcode: 1) local_rank: {local} (pid: 9833{local}) of binary: /env/bin/python3.12\n")
        text += failure_record(0, local, local, 1, 98330 + local, host="box")
        d = _report(tmp_path, text)
        assert d["verdict"]["cause"] == "config", d["verdict"]
        assert d["verdict"]["culprits"] == [] and not _accused(d), d["verdict"]


def test_one_workers_import_failure_of_four_is_still_that_workers(tmp_path):
    """Negative: one traceback where torchrun launched four: not every worker, so rule A's lone failure stands."""
    text = _torchrun_start(4) + _import_tb("AttributeError: module 'numba' has no attribute 'cuda'") + (
        "E0624 23:26:03.314000 98296 site-packages/torch/distributed/elastic/multiprocessing/api.py:874] failed "
        "(exitcode: 1) local_rank: 3 (pid: 98333) of binary: /env/bin/python3.12\n")
    text += failure_record(0, 3, 3, 1, 98333, host="box")
    v = _verdict(tmp_path, text)
    assert v["cause"] != "config" and v["culprits"] == [3], v


def _srun_oom(task: int, host: str, script: str) -> str:
    return (f"slurmstepd-{host}: error: Detected 1 oom-kill event(s) in StepId=9411285.0. Some of your processes may "
            "have been killed by the cgroup out-of-memory handler.\n"
            f"srun: error: {host}: task {task}: Out Of Memory\n"
            "srun: launch/slurm: _step_signal: Terminating StepId=9411285.0\n"
            f"slurmstepd-{host}: error: *** STEP 9411285.0 ON {host} CANCELLED AT 2022-05-17T17:58:10 ***\n"
            + script)


def test_srun_oom_task_is_its_rank_where_the_job_runs_more_tasks_than_nodes(tmp_path):
    """Lead rules A and AI (2): #SBATCH -n 4 (one node shown) is one task a rank, so srun's "task N: Out Of Memory"
    names rank N (K-Net-30's shape), in either spelling of the option."""
    for task, host, script in ((0, "gpu20-15", "#!/usr/bin/env bash\n#SBATCH --gres gpu:4\n#SBATCH -n 4\n"),
                               (5, "nid001", "#SBATCH --nodes=1\n#SBATCH --ntasks=8\n")):
        v = _verdict(tmp_path, _srun_oom(task, host, script))
        assert v["cause"] == "host_oom" and v["culprits"] == [task], v


def test_srun_oom_task_is_no_rank_with_one_task_a_node(tmp_path):
    """Negative: as many tasks as nodes (a per-node launcher each), or no job size shown: the task is no rank."""
    for script in ("#SBATCH -N 4\n#SBATCH -n 4\n", ""):
        v = _verdict(tmp_path, _srun_oom(0, "nid006024", script))
        assert v["cause"] == "host_oom" and v["culprits"] == [], v


# --- round 49: multiprocessing's temp dir not created under a DataLoader feeder (lead rules F, AL (1)) -------------
_FEEDER = ('File "{py}/multiprocessing/queues.py", line 244, in _feed\nobj = _ForkingPickler.dumps(obj)\n'
           'File "{py}/site-packages/torch/multiprocessing/reductions.py", line 619, in reduce_storage\n'
           'df = multiprocessing.reduction.DupFd(fd)\n'
           'File "{py}/multiprocessing/resource_sharer.py", line 126, in _start\n'
           'File "{py}/multiprocessing/util.py", line 149, in get_temp_dir\n'
           "tempdir = tempfile.mkdtemp(prefix='pymp-')\n{prefix}OSError: [Errno {errno}] {said}: '{tmp}/pymp-{sfx}'\n")
_HEARTBEAT = ("[rank{r}]:[E1229 20:29:13.091296956 ProcessGroupNCCL.cpp:1484] [PG ID 0 PG GUID 0(default_pg) Rank {r}] "
              "ProcessGroupNCCL's watchdog got stuck for 480 seconds without making progress in monitoring enqueued "
              "collectives.\n")


def test_a_feeder_thread_that_cannot_make_pymp_in_a_full_tmp_is_dataloader_shm_before_the_kill(tmp_path):
    """imagenet-nishantb06: an untagged DataLoader queue feeder fails to pass a batch (reduce_storage -> DupFd ->
    resource_sharer's Listener) because /tmp is full; the heartbeat monitors fire later and a bare 'Killed' ends it:
    aftermath, the earlier failure decides (rule AL (1)). Nobody named: the traceback has no rank."""
    for py, prefix, errno, said, tmp, sfx, ranks, end in (
            ("/opt/conda/lib/python3.11", "", 28, "No space left on device", "/tmp", "m_olac7h", (2, 3), "Killed\n"),
            ("/usr/lib/python3.10", "  ", 28, "No space left on device", "/scratch/job42/tmp", "x1_9ab", (0, 5, 6),
             "Killed\n"),
            ("/home/u/.venv/lib/python3.12", "", 122, "Disk quota exceeded", "/home/u/tmp", "qq0", (1,), "")):
        text = (_FEEDER.format(py=py, prefix=prefix, errno=errno, said=said, tmp=tmp, sfx=sfx)
                + "".join(_HEARTBEAT.format(r=r) for r in ranks) + end)
        d = _report(tmp_path, text)
        assert d["verdict"]["cause"] == "dataloader_shm", d["verdict"]
        assert d["verdict"]["culprits"] == [] and not _accused(d)
        assert tmp in d["verdict"]["fix"] and "TMPDIR" in d["verdict"]["fix"]


def test_a_full_disk_elsewhere_or_a_ranked_kill_is_not_the_pymp_reading(tmp_path):
    """A checkpoint write failing on a full disk is no DataLoader transport; and a rank the launcher's record shows
    killed with SIGKILL is read first (its own kill)."""
    v = _verdict(tmp_path, "OSError: [Errno 28] No space left on device: '/ckpt/step_100/model.pt'\nKilled\n")
    assert v["cause"] != "dataloader_shm", v
    text = (_FEEDER.format(py="/usr/lib/python3.10", prefix="", errno=28, said="No space left on device", tmp="/tmp",
                           sfx="ab12") + failure_record(0, 3, 3, -9, 4411))
    assert _verdict(tmp_path, text)["cause"] == "host_oom"


# --- round 49: a shared library of the install that cannot be loaded (lead rules AF (2), J, AD (2)) ---------------
def test_a_shared_library_that_cannot_be_loaded_at_start_up_is_the_install(tmp_path):
    """Lead rules AF (2) and AT (1): a framework's dynamic loader failing to load a library the job needs, said as an
    error ("Failed to find dynamic library: libnccl.so ( <the linker's reason> )", then its LD_LIBRARY_PATH hints), or
    Python's ImportError of it: the shared install, before any collective -- config, no rank. Where the linker says the
    host's glibc is older than the library needs, the fix names that version and a build for this OS."""
    glibc = ("Error: Failed to find dynamic library: libnccl.so ( /lib/x86_64-linux-gnu/libc.so.6: version "
             "`GLIBC_2.27' not found (required by /opt/nccl_2.7.8-1+cuda11.0_x86_64/lib/libnccl.so) )\n"
             " Please specify its path correctly using following ways:\n"
             " Method. set environment variable LD_LIBRARY_PATH on Linux or DYLD_LIBRARY_PATH on Mac OS.\n"
             " For instance, issue command: export LD_LIBRARY_PATH=...\n")
    d = _report(tmp_path, glibc)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "GLIBC_2.27" in v["summary"] and "glibc" in v["fix"] and "LD_LIBRARY_PATH" in v["fix"], v
    py = ("Traceback (most recent call last):\n  File \"pretrain.py\", line 3, in <module>\n    import torch\n"
          "ImportError: libcudnn.so.8: cannot open shared object file: No such file or directory\n")
    v = _verdict(tmp_path, py)
    assert (v["cause"], v["culprits"]) == ("config", []) and "libcudnn.so.8" in v["fix"], v
    # the probes that go on without their library are no failure: NCCL's net plugin, a loader's warning
    probe = (nccl_info("gpu-b2", 5120, 0, "NET/Plugin : dlerror=libnccl-net.so: cannot open shared object file: No "
                       "such file or directory No plugin found (libnccl-net.so), using internal implementation")
             + "W0612 10:01:02.334455 5120 dynamic_loader.cc:307] Failed to find dynamic library: libcupti.so ( "
             "libcupti.so: cannot open shared object file: No such file or directory )\n")
    assert _verdict(tmp_path, probe)["cause"] != "config"


def test_a_library_symbol_that_cannot_be_loaded_before_the_workers_abort_is_the_install(tmp_path):
    """verl-5659: every Ray worker prints 'Invalid handle. Cannot load symbol cublasLtGetVersion', then aborts
    (Abseil's SIGABRT handler) and the raylet reports it dead: the job's shared install cannot be loaded -- config,
    nobody named (a Ray actor's pid is no rank). The same under torchrun's rank prefixes with its failure record."""
    ray = ("Set the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace.\n"
           "(raylet) A worker died or was killed while executing a task by an unexpected system error. To troubleshoot "
           "the problem, check the logs for the dead worker. Worker IP address: 10.9.1.4 Worker port: 40011 Worker "
           "PID: 5102 Worker exit type: SYSTEM_ERROR Worker exit detail: Worker unexpectedly exits with a connection "
           "error code 2. End of file. [repeated 3x across cluster]\n"
           "(WorkerDict pid=5101) Invalid handle. Cannot load symbol cudnnGetVersion [repeated 5x across cluster]\n"
           "(WorkerDict pid=5101) *** SIGABRT received at time=1773825404 on cpu 12 *** [repeated 5x across cluster]\n"
           "(WorkerDict pid=5101) PC: @     0x7fc0d04969fc  (unknown)  pthread_kill [repeated 5x across cluster]\n")
    d = _report(tmp_path, ray)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "cuDNN" in v["summary"] and "nvidia-cudnn" in v["fix"] and "LD_LIBRARY_PATH" in v["fix"], v
    ranks = ("[default0]:Could not load symbol 'cublasLtMatmulAlgoGetHeuristic'\n"
             "[default1]:Could not load symbol 'cublasLtMatmulAlgoGetHeuristic'\n"
             + "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n"
             + "Failures:\n" + failure_record(1, 1, 1, -6, 3302) + "Root Cause (first observed failure):\n"
             + failure_record(0, 0, 0, -6, 3301))
    d = _report(tmp_path, ranks)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "cuBLASLt" in v["summary"] and "nvidia-cublas" in v["fix"], v


def test_a_symbol_line_with_nothing_dying_or_beside_a_ranks_own_failure_is_not_the_install(tmp_path):
    """The near shapes that must not change: a loader's line with no process shown dying after it (a loader that
    goes on without the function), NCCL's own plugin probe ('Failed to find ncclCollNetPlugin symbol') beside a
    crash, and the line beside an NCCL error of a rank's run: not config."""
    alone = "(WorkerDict pid=77) Invalid handle. Cannot load symbol cublasLtGetVersion\n"
    assert _verdict(tmp_path, alone)["cause"] != "config"
    probe = (nccl_info("n1", 40, 0, "NET/Plugin: Failed to find ncclCollNetPlugin_v8 symbol.")
             + "(WorkerDict pid=40) *** SIGABRT received at time=1773825404 on cpu 3 ***\n")
    assert _verdict(tmp_path, probe)["cause"] != "config"
    nccl = (alone + "[rank3]: torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:3699, unhandled "
            "system error, NCCL version 2.21.5\n"
            "(WorkerDict pid=77) *** SIGABRT received at time=1773825404 on cpu 3 ***\n")
    assert _verdict(tmp_path, nccl)["cause"] != "config"


_RECORD_ONE = ("torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
               "============================================================\n{script} FAILED\n"
               "------------------------------------------------------------\nFailures:\n  <NO_OTHER_FAILURES>\n"
               "------------------------------------------------------------\nRoot Cause (first observed failure):\n")


def test_another_rank_raising_its_own_exception_beside_a_one_rank_record_names_nobody(tmp_path):
    """llamafactory-4608: torchrun's record names rank 0 (exit 1), but rank 1's own line raises the same kind of
    error of the job's code, none torn down or waiting: every rank shown failed alike (rules J, AM (2)), nobody."""
    for script, rank, other, exc, pid in (
            ("src/train.py", 0, 1, "RuntimeError: Expected all tensors to be on the same device, but found at least "
             "two devices, cpu and cuda:1! (when checking argument for argument index in method "
             "wrapper_CUDA__index_select)", 11965),
            ("train_dpo.py", 3, 5, "ValueError: Attention mask should be of size (4, 1, 128, 128), but is "
             "(4, 1, 64, 64)", 4242),
            ("run.py", 2, 0, "TypeError: forward() got an unexpected keyword argument 'labels'", 777)):
        text = (_RECORD_ONE.format(script=script) + failure_record(0, rank, rank, 1, pid)
                + "============================================================\n"
                + f"[rank{other}]: {exc}\n")
        d = _report(tmp_path, text)
        assert d["verdict"]["cause"] == "unknown", d["verdict"]
        assert d["verdict"]["culprits"] == [] and not _accused(d), d["verdict"]
        assert exc.split(":")[0] in d["verdict"]["fix"]


def test_a_one_rank_record_beside_its_own_exception_or_another_ranks_stop_still_names_the_rank(tmp_path):
    """The near shapes: the exception is the record's own rank's, another rank's line is only its stop (a
    KeyboardInterrupt / SignalException from the launcher), or no other rank raises anything: the record's lone
    failure stands (rule A)."""
    for rank, line in ((0, "[rank0]: ValueError: bad shape"), (2, "[rank2]: RuntimeError: CUDA out of bounds index"),
                       (0, "[rank1]: KeyboardInterrupt"), (3, "")):
        text = (_RECORD_ONE.format(script="src/train.py") + failure_record(0, rank, rank, 1, 11965)
                + "============================================================\n" + (line + "\n" if line else ""))
        d = _report(tmp_path, text)
        assert d["verdict"]["culprits"] == [rank], (line, d["verdict"])


def test_a_one_rank_record_and_another_ranks_exception_with_the_rest_torn_down_names_both(tmp_path):
    """Lead rule J's second half: torchrun's agent records local_rank 2 exiting with code 1 on one node, rank 5's own
    line raises an exception of the job's code, and the agent's "Sending process P closing signal SIGTERM" lines show
    the other workers torn down: the ranks that failed on their own are the culprits, [2, 5], the cause unknown; the
    fix reads both ranks' tracebacks. Without the SIGTERM lines it stays every shown rank alike (rule AM (2))."""
    term = ("W0412 08:30:11.204000 71500 torch/distributed/elastic/multiprocessing/api.py:897] Sending process {} "
            "closing signal SIGTERM\n")
    exc = "[rank5]: NameError: name 'reward_fn' is not defined\n"
    record = ("E0412 08:30:12.880000 71500 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) "
              "local_rank: 2 (pid: 71533) of binary: /opt/venv/bin/python3\n")
    d = _report(tmp_path, exc + "".join(term.format(p) for p in (71531, 71532, 71534, 71535)) + record)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", [2, 5]) and _accused(d) == {2, 5}, v
    assert "rank 5's traceback" in v["fix"] and "rank 2's own output" in v["fix"], v["fix"]
    d = _report(tmp_path, exc + record, "alike.log")
    assert not _accused(d), d["verdict"]


_SUBPROC = ("raise subprocess.CalledProcessError(returncode=process.returncode, cmd=cmd)\n"
            "subprocess.CalledProcessError: Command '[{cmd}]' died with <Signals.{sig}: {num}>.\n")


def test_a_called_process_error_of_python_running_a_script_itself_is_the_one_process(tmp_path):
    """LlamaFactory-534: the launcher's own raise of subprocess's CalledProcessError (accelerate's simple_launcher;
    its frame cut from the paste) for a plain `python script.py` command -- no torchrun, no --local_rank, no -u --
    died of SIGBUS: the one process of a one-process launcher, rank 0 (rules A, F, AG)."""
    for cmd in ("'/opt/conda/bin/python', 'src/train_bash.py', '--stage', 'sft', '--fp16'",
                "'python3.10', 'finetune.py', '--lr', '1e-4'",
                "'/home/u/.venv/bin/python', 'scripts/run_clm.py'"):
        text = _SUBPROC.format(cmd=cmd, sig="SIGBUS", num=7)
        for paste in (text, "\n".join(ln[i:i + 80] for ln in text.splitlines() for i in range(0, len(ln), 80))):
            d = _report(tmp_path, paste + "\n")  # as pasted, and hard-wrapped at 80 columns
            assert d["verdict"]["cause"] == "dataloader_shm", (cmd, d["verdict"])
            assert d["verdict"]["culprits"] == [0], (cmd, d["verdict"])


def test_a_called_process_error_of_a_per_gpu_launcher_or_a_module_names_no_rank(tmp_path):
    """The near shapes: torch.distributed.launch's command carries --local_rank (the LAST worker launched, lead rule
    M) or its -u (its --use_env form: one of several workers), or the command runs a launcher module (-m): no rank.
    (The error without the launcher's raise above it, for a plain `python script.py`, is since round 94's gpt4all-256
    the parent's record of the one process it ran, rank 0: test_diagnose_family_oom_figures.)"""
    for cmd, raised in (("'/usr/bin/python', '-u', 'train.py', '--local_rank=3', '--fp16'", True),
                        ("'/usr/bin/python', '-u', 'train.py', '--fp16'", True),
                        ("'/usr/bin/python', '-m', 'torch.distributed.run', '--nproc_per_node', '8', 'train.py'", True),
                        ("'/usr/bin/python', '-u', 'train.py', '--fp16'", False)):
        text = _SUBPROC.format(cmd=cmd, sig="SIGBUS", num=7)
        d = _report(tmp_path, text if raised else text.split("\n", 1)[1])
        assert d["verdict"]["cause"] == "dataloader_shm", (cmd, d["verdict"])
        assert d["verdict"]["culprits"] == [], (cmd, d["verdict"])


# --- every launcher a reader names has its own advice on where that launcher keeps each rank's output ---------------
def test_every_launcher_a_reader_names_has_its_log_advice():
    """A launcher name set by a reader and missing from verdict/exits.LAUNCHER_LOGS once stopped diagnose with an
    internal error (round 51: PALS's mpiexec beside a rank's own exception); the names are read from the source."""
    import re
    from pathlib import Path

    from ncclDoctor.diagnose.verdict.exits import LAUNCHER_LOGS

    root = Path(__file__).resolve().parents[1] / "ncclDoctor" / "diagnose"
    named = set()
    for path in root.rglob("*.py"):
        named |= set(re.findall(r"""launcher(?:"\]\s*=\s*|=)"([^"]+)\"""", path.read_text()))
    assert {"srun", "mpirun", "mpiexec (PALS)", "horovodrun"} <= named  # the reading itself finds them
    assert named - {"DeepSpeed's launch.py"} <= set(LAUNCHER_LOGS), named - set(LAUNCHER_LOGS)


# PALS's mpiexec (HPE Cray) ends its ranks with "HOST: rank N exited with code C" or "died from signal S"; beside
# a rank's own exception it is read like any launcher's record, with PALS's own advice (round 51's saforem2 cases)
def _pals(host: str, first: int, torn: int, exc: str) -> str:
    return (f"[rank{first}]: Traceback (most recent call last):\n"
            f"[rank{first}]:   File \"/work/train.py\", line 88, in main\n"
            f"[rank{first}]:     loss = step(model, batch)\n"
            f"[rank{first}]: {exc}\n"
            f"{host}: rank {first} exited with code 1\n"
            f"{host}: rank {torn} died from signal 15\n")


def test_a_pals_record_beside_the_ranks_own_exception_names_it_with_pals_advice(tmp_path):
    for host, first, torn in (("x4512c5s2b0n0", 3, 9), ("x1921c0s7b0n0.hsn.cm.polaris.alcf.anl.gov", 12, 0)):
        d = _report(tmp_path, _pals(host, first, torn, "ValueError: shapes (4,) and (5,) not aligned"))
        assert _accused(d) == {first}, d["verdict"]
        assert "PALS" in d["verdict"]["fix"], d["verdict"]["fix"]


# Lead rule AN (2): another accelerator's runtime error is read like CUDA's. Intel's Unified Runtime (torch's XPU
# device on Aurora) names its result code, "<adapter> backend failed with error: N (UR_RESULT_ERROR_...)": a device
# error of the rank that raised it (cuda_error), save its device-memory code (39) and "XPU out of memory" (gpu_oom).
def test_a_unified_runtime_error_under_pals_is_that_ranks_device_error(tmp_path):
    for host, first, torn, exc in (
            ("x4610c4s3b0n0.hsn.cm.aurora.alcf.anl.gov", 7, 14,
             "RuntimeError: level_zero backend failed with error: 40 (UR_RESULT_ERROR_OUT_OF_RESOURCES)"),
            ("x4102c2s0b0n0", 21, 3, "RuntimeError: level_zero backend failed with error: 20 "
                                     "(UR_RESULT_ERROR_DEVICE_LOST)"),
            ("x1921c0s7b0n0.hsn.cm.polaris.alcf.anl.gov", 0, 5, "RuntimeError: UR_RESULT_ERROR_OUT_OF_RESOURCES")):
        d = _report(tmp_path, _pals(host, first, torn, exc))
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("cuda_error", [first]) and _accused(d) == {first}, (exc, v)
        assert f"GPU / node of rank {first}" in v["fix"] and "xpu-smi" in v["fix"], v["fix"]
    # the same line alone, no launcher record: still that rank's own device error
    d = _report(tmp_path, "[rank5]: RuntimeError: level_zero backend failed with error: 40 "
                          "(UR_RESULT_ERROR_OUT_OF_RESOURCES)\n")
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("cuda_error", [5]), d["verdict"]


# Lead rule AN (2) for Habana's SynapseAI (its synStatus code) and AWS Neuron's runtime (its nrt_* call on the
# NeuronCores): the same reading. Two ranks each failing their own graph compile alike is the stack, nobody named
# (rules J, AM (2)); a Ray worker's pid/ip names no rank (rule AD (2)).
def test_habana_and_neuron_runtime_errors_are_read_like_cuda_errors(tmp_path):
    tb = "".join(f"[rank{r}]: {ln}\n" for r in (3, 5) for ln in (
        "Traceback (most recent call last):",
        '  File "/usr/lib/python3/site-packages/torch/distributed/distributed_c10d.py", line 2810, in all_reduce',
        "    work = group.allreduce([tensor], opts)",
        "RuntimeError: Graph compile failed. synStatus=synStatus 26 [Generic failure]."))
    d = _report(tmp_path, tb)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("cuda_error", []) and not _accused(d), v
    assert "HABANA_LOGS" in v["fix"] and "PT_HPU_LAZY_MODE" in v["fix"], v["fix"]
    d = _report(tmp_path, "[rank4]: RuntimeError: [Rank:4] FATAL ERROR :: MODULE:PT_BRIDGE Exception in Launch "
                          "thread... see logsGraph compile failed. synStatus=synStatus 26 [Generic failure].\n")
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("cuda_error", [4]), d["verdict"]
    d = _report(tmp_path, "ray::_RayTrainWorker__execute.get_next() (pid=4411, ip=10.0.3.7)\n"
                          "RuntimeError: INTERNAL: From /job:c_localservice/replica:0/task:0:\n"
                          "  (0) INTERNAL: Nrt::Load failed on NeuronCores 4-4(1): nrt_load status=4, "
                          "error message=\"Non specific failure\".\n")
    v = d["verdict"]
    assert v["cause"] == "cuda_error" and not _accused(d) and "NEURON_RT_VISIBLE_CORES" in v["fix"], v


def test_unified_runtimes_device_memory_code_or_an_xpu_oom_is_an_oom_not_a_device_error(tmp_path):
    for first, torn, exc in (
            (7, 14, "RuntimeError: level_zero backend failed with error: 39 (UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY)"),
            (2, 9, "torch.OutOfMemoryError: XPU out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total "
                   "capacity of 64.00 GiB of which 1.10 GiB is free."),
            (4, 1, "RuntimeError: HIP out of memory. Tried to allocate 512.00 MiB")):
        d = _report(tmp_path, _pals("x4512c5s2b0n0", first, torn, exc))
        assert d["verdict"]["cause"] == "gpu_oom" and _accused(d) == {first}, (exc, d["verdict"])


# torch's CUDA entry points in a build without CUDA ("AssertionError: Torch not compiled with CUDA enabled", raised by
# torch/cuda/__init__.py's _lazy_init): CUDA-only code on a CPU or another accelerator's build -- the same build and
# code on every rank, so config with nobody named, whichever rank the launcher saw exit (lead rules Q, AF (2))
def _no_cuda_tb(raiser: str, exited: int, torn: int, host: str) -> str:
    site = "/opt/envs/torch26/lib/python3.10/site-packages/torch"
    return "".join(f"{raiser}{ln}\n" for ln in (
        "Traceback (most recent call last):",
        f'  File "{site}/distributed/_composable/fsdp/_fsdp_collectives.py", line 136, in foreach_all_gather',
        "    with torch.cuda.stream(all_gather_copy_in_stream):",
        f'  File "{site}/cuda/__init__.py", line 979, in current_stream',
        "    _lazy_init()",
        f'  File "{site}/cuda/__init__.py", line 310, in _lazy_init',
        '    raise AssertionError("Torch not compiled with CUDA enabled")',
        "AssertionError: Torch not compiled with CUDA enabled")) + (
        f"{host}: rank {exited} exited with code 1\n{host}: rank {torn} died from signal 15\n")


def test_cuda_only_code_in_a_build_without_cuda_is_config_naming_no_rank(tmp_path):
    for raiser, exited, torn, host in (("[rank0]: ", 6, 11, "x4512c5s2b0n0"), ("[rank3]: ", 3, 8, "x4000c1s1b0n0"),
                                       ("      [default1]:", 9, 2, "node-17")):
        d = _report(tmp_path, _no_cuda_tb(raiser, exited, torn, host))
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
        assert "torch.xpu" in v["fix"] and "device-agnostic" in v["fix"], v["fix"]


def test_a_ranks_own_assertion_beside_pals_or_nccl_missing_from_the_build_keep_their_readings(tmp_path):
    """Near shapes that must not move: a rank's own AssertionError of another text under PALS is still that rank's;
    the build without NCCL keeps its backend advice."""
    d = _report(tmp_path, _pals("x4512c5s2b0n0", 5, 10, "AssertionError: loss is nan at step 120"))
    assert _accused(d) == {5}, d["verdict"]
    d = _report(tmp_path, "RuntimeError: Distributed package doesn't have NCCL built in\n")
    assert d["verdict"]["cause"] == "config" and "gloo" in d["verdict"]["fix"], d["verdict"]
    assert "torch.xpu" not in d["verdict"]["fix"], d["verdict"]["fix"]


def _shared_tb(script: str, frame: str, exc: str) -> str:
    """One worker's untagged traceback in torchrun's shared output."""
    return (f"Traceback (most recent call last):\n  File \"{script}\", line 67, in <module>\n    main()\n"
            f"  File \"{frame}\", line 89, in evaluate\n    self.run()\n{exc}\n")


def _sigterms(pids: list[int]) -> str:
    return "".join(f"WARNING:torch.distributed.elastic.multiprocessing.api:Sending process {p} closing signal "
                   "SIGTERM\n" for p in pids)


def _listed_record(script: str, listed: list[int], root: int, host: str, pid0: int) -> str:
    """torchrun's ChildFailedError record: LISTED under Failures, ROOT as the root cause (exit code 1 each)."""
    return ("torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
            "============================================================\n"
            f"{script} FAILED\n------------------------------------------------------------\nFailures:\n"
            + "".join(failure_record(i + 1, r, r, 1, pid0 + r, host=host) for i, r in enumerate(listed))
            + "------------------------------------------------------------\nRoot Cause (first observed failure):\n"
            + failure_record(0, root, root, 1, pid0 + root, host=host)
            + "============================================================\n")


def test_more_alike_tracebacks_than_the_record_lists_is_every_worker_not_the_listed_ranks(tmp_path):
    """GLM-130B 2022-09-24 16:28: all eight workers print the same TypeError into torchrun's shared output, the
    agent SIGTERMs five and its record lists three (ranks 1, 4; root 0) in one second. Each traceback is one process,
    so more processes raised it than the record lists: the stopped ones had raised it too (rules J, AM (2)):
    culprits [], and the fix names the exception. Other worlds, ranks, exceptions and hosts alike."""
    for world, listed, root, exc, host, pid0 in (
            (8, [1, 4], 0, "TypeError: 'list' object is not callable", "node14", 379456),
            (4, [3], 2, "ValueError: too many values to unpack (expected 2)", "gpu-b7", 5100),
            (6, [0, 5], 2, "KeyError: 'accuracy'", "worker-3", 70200)):
        n = len(listed) + 1
        stopped = [pid0 + r for r in range(world) if r not in listed + [root]]
        text = ("".join(_shared_tb("/work/evaluate.py", "/work/evaluation/tasks.py", exc) for _ in range(n + 1))
                + _sigterms(stopped)
                + f"ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: {root} "
                f"(pid: {pid0 + root}) of binary: /usr/bin/python\n"
                + _listed_record("/work/evaluate.py", listed, root, host, pid0))
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), (exc, v)
        assert exc.split(":")[0] in v["fix"], v


def test_no_more_alike_tracebacks_than_the_record_lists_still_names_the_listed_ranks(tmp_path):
    """The near shape: the record lists three ranks failing (the others SIGTERM'd) and the shared output holds no
    more tracebacks ending alike than that -- nothing shows the stopped workers raising it: the listed ranks stay
    the failures (rule A extended to several)."""
    for listed, root, shown in (([1, 4], 0, 3), ([3], 2, 2), ([1, 4], 0, 0)):
        stopped = [9000 + r for r in range(8) if r not in listed + [root]]
        text = ("".join(_shared_tb("/work/evaluate.py", "/work/evaluation/tasks.py", "TypeError: 'list' object is not "
                            "callable") for _ in range(shown))
                + _sigterms(stopped) + _listed_record("/work/evaluate.py", listed, root, "node14", 9000))
        v = _verdict(tmp_path, text)
        assert v["culprits"] == sorted(listed + [root]), (shown, v)


def test_a_lone_ranks_exception_is_named_in_its_fix(tmp_path):
    """GLM-130B 2022-09-24 23:29: one untagged traceback ends in AttributeError, the agent SIGTERMs the others and
    its record names rank 0 alone (rule A): the fix says which exception to fix, not only 'the exception'."""
    for rank, exc in ((0, "AttributeError: 'tuple' object has no attribute 'items'"),
                      (5, "IndexError: list index out of range")):
        text = (_shared_tb("/work/evaluate.py", "/work/evaluation/tasks.py", exc)
                + _sigterms([4200 + r for r in range(8) if r != rank])
                + _RECORD_ONE.format(script="/work/evaluate.py") + failure_record(0, rank, rank, 1, 4200 + rank)
                + "============================================================\n")
        v = _verdict(tmp_path, text)
        assert v["culprits"] == [rank] and v["cause"] == "unknown", v
        assert exc in v["fix"], v


_CHOICES = ("{prefix}Valid configurations ({what}):\n{prefix}- Continue pre-training original LLaMA: 32000 / 32000\n"
            "{prefix}- Continue pre-training Chinese LLaMA: 49953 / 49953\n\n")


def test_a_scripts_list_of_valid_configurations_before_an_exit_is_the_settings_not_the_rank(tmp_path):
    """Chinese-LLaMA-Alpaca-750: the pre-training script prints its 'Valid configurations (base model / tokenizer):'
    list and exits; torchrun records local_rank 0 exiting 1. A check of settings every worker shares (rules W, Q):
    config, nobody -- with another header, local rank, launcher record and prefix alike."""
    for what, prefix, tail in (
            ("base model / tokenizer", "",
             "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 32985) "
             "of binary: /venv/bin/python\n"),
            ("model / vocab size", "[default2]:",
             "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 2 (pid: 812) "
             "of binary: /usr/bin/python3\n"),
            ("checkpoint / tokenizer", "",
             _RECORD_ONE.format(script="run_pt.py") + failure_record(0, 3, 3, 1, 6060)
             + "============================================================\n")):
        d = _report(tmp_path, _CHOICES.format(prefix=prefix, what=what) + tail)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), (what, v)
        assert f"Valid configurations ({what})" in v["fix"], v


def test_a_valid_configurations_list_without_an_exit_or_beside_a_ranks_own_error_is_not_config(tmp_path):
    """The near shapes: the list printed and nothing exits (it stopped nothing); the list beside a rank's own
    runtime error (its traceback decides, rule A); CUDA's 'invalid configuration argument' is a kernel launch's error,
    no list of choices."""
    v = _verdict(tmp_path, _CHOICES.format(prefix="", what="base model / tokenizer") + "Training started\n")
    assert v["cause"] != "config", v
    text = (_CHOICES.format(prefix="", what="base model / tokenizer")
            + "[rank1]: RuntimeError: CUDA error: an illegal memory access was encountered\n"
            + "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 1 (pid: 77) "
            "of binary: /usr/bin/python\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] != "config", v
    text = ("[rank2]: RuntimeError: CUDA error: invalid configuration argument\n"
            "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 2 (pid: 78) "
            "of binary: /usr/bin/python\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] != "config", v


# --- session 17 (fix51-J2): a framework's own check that two settings cannot be combined (lead rule W) ------------
def test_a_check_that_two_settings_are_incompatible_is_config_naming_nobody(tmp_path):
    """DeepSpeed's pipeline engine asserting "ZeRO-2 and ZeRO-3 are incompatible with pipeline parallelism", pasted as
    the statement alone under the launch command (Megatron-DeepSpeed-407's shape with other sizes and prefixes), as
    its AssertionError under a rank tag beside torchrun's record of that rank, and another framework's "are mutually
    incompatible" check: the settings every rank is started with, config, nobody named; ZeRO with the pipeline engine
    gets DeepSpeed's own way out (ZeRO-1, or no pipeline engine)."""
    cmd = ("python -m torch.distributed.run --nproc_per_node 8 --nnodes 1 pretrain_gpt.py --tensor-model-parallel-size "
           "2 --pipeline-model-parallel-size 4 --deepspeed --deepspeed_config ds_z2.json --zero-stage 2\n")
    record = ("torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n" + "=" * 40 + "\nFailures:\n"
              "  <NO_OTHER_FAILURES>\nRoot Cause (first observed failure):\n"
              + failure_record(0, 6, 6, 1, 51777, host="a100-12"))
    for text in (cmd + "ZeRO-2 and ZeRO-3 are incompatible with pipeline parallelism\n",
                 "2024-05-02 10:11:12 ZeRO-3 is incompatible with pipeline parallelism\n",
                 "[rank6]: AssertionError: ZeRO-2 and ZeRO-3 are incompatible with pipeline parallelism\n" + record):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), (text, v)
        assert "--zero-stage 1" in v["fix"] and "--no-pipeline-parallel" in v["fix"], v["fix"]
    v = _verdict(tmp_path, "[rank1]: ValueError: --fp16 and --bf16 are mutually incompatible\n")
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "'--fp16 and --bf16'" in v["fix"] and "--zero-stage" not in v["fix"], v["fix"]


def test_an_incompatibility_warning_or_a_version_mismatch_is_not_a_settings_clash(tmp_path):
    """The near shapes: a framework's warning that it turns a setting off and goes on ("... is incompatible with
    pipeline parallelism, disabling it") shows nothing failing, and torch's "sm_90 is not compatible with the current
    PyTorch installation" is about the install, not two settings of the job: neither is the settings-clash reading."""
    warn = "UserWarning: activation checkpointing is incompatible with pipeline parallelism, disabling it\n"
    assert _verdict(tmp_path, warn)["cause"] != "config"
    sm = ("NVIDIA H100 80GB HBM3 with CUDA capability sm_90 is not compatible with the current PyTorch installation.\n"
          "RuntimeError: CUDA error: no kernel image is available for execution on the device\n")
    v = _verdict(tmp_path, sm)
    assert v["cause"] == "cuda_error" and "incompatible" not in v["summary"], v


# --- session 17 (fix51-J2): 'invalid device ordinal' at the frame selecting a GPU, no launch line (rules Q, W) ----
_CUPY_ORDINAL = ("{p}Traceback (most recent call last):\n"
                 '{p}  File "/work/{app}/train/run.py", line {n}, in main\n'
                 "{p}    init_communicators(args)\n"
                 '{p}  File "/work/{app}/train/comm/nccl_backend.py", line 31, in __init__\n'
                 "{p}    cupy.cuda.Device({arg}).use()\n"
                 '{p}  File "cupy/cuda/device.pyx", line 198, in cupy.cuda.device.Device.use\n'
                 '{p}  File "cupy_backends/cuda/api/runtime.pyx", line 375, in '
                 "cupy_backends.cuda.api.runtime.setDevice\n"
                 '{p}  File "cupy_backends/cuda/api/runtime.pyx", line 144, in '
                 "cupy_backends.cuda.api.runtime.check_status\n"
                 "{p}cupy_backends.cuda.api.runtime.CUDARuntimeError: cudaErrorInvalidDevice: invalid device ordinal\n")


def test_an_invalid_ordinal_raised_selecting_the_gpu_with_no_launch_line_is_the_launch(tmp_path):
    """openchatkit-170's shape with other paths, arguments, lines and prefixes: CuPy's Device(i).use() (or
    torch.cuda.set_device) refusing the index while the job builds its communicators, no launch line shown: the index
    comes from the launch (rules Q, W): config, nobody named -- untagged, or under one rank's own tag."""
    torch_tb = ("{p}Traceback (most recent call last):\n"
                '{p}  File "/srv/x/main.py", line 12, in <module>\n'
                "{p}    torch.cuda.set_device(args.gpu)\n"
                '{p}  File "/usr/lib/python3/site-packages/torch/cuda/__init__.py", line 399, in set_device\n'
                "{p}    torch._C._cuda_setDevice(device)\n"
                "{p}RuntimeError: CUDA error: invalid device ordinal\n")
    for text in (_CUPY_ORDINAL.format(p="", app="chat", n=397, arg="cuda_id")
                 + "Traceback (most recent call last):\n",
                 _CUPY_ORDINAL.format(p="[rank5]: ", app="kit", n=80, arg="args.device"),
                 torch_tb.format(p="[rank2]: ")):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), (text, v)
        assert "CUDA_VISIBLE_DEVICES" in v["fix"] and "nvidia-smi" in v["fix"], v


def test_an_illegal_address_or_a_tagged_ordinal_elsewhere_at_the_same_place_stays_a_cuda_error(tmp_path):
    """The near shapes: the same traceback ending in an illegal memory access is that rank's CUDA fault, and a rank's
    ordinal raised by its own code elsewhere (no device-selection frame above it) stays its CUDA error."""
    text = _CUPY_ORDINAL.format(p="[rank5]: ", app="kit", n=80, arg="args.device").replace(
        "cudaErrorInvalidDevice: invalid device ordinal", "cudaErrorIllegalAddress: an illegal memory access was "
        "encountered")
    assert _verdict(tmp_path, text)["cause"] == "cuda_error"
    own = ("[rank4]: Traceback (most recent call last):\n"
           '[rank4]:   File "/srv/x/model.py", line 77, in forward\n'
           "[rank4]:     h = h.to(f'cuda:{self.stage + 4}')\n"
           "[rank4]: RuntimeError: CUDA error: invalid device ordinal\n")
    assert _verdict(tmp_path, own)["cause"] == "cuda_error"


# torch 1.x's own set_device failing (THCudaCheck FAIL in torch/csrc/cuda/Module.cpp, THCPModule_setDevice_wrap) is the
# frame that selects the GPU, tagged or not (round 52's pycls-142 under a rank prefix); elsewhere a tagged one stays
def test_torch_1x_set_device_failing_with_invalid_device_ordinal_is_the_launch_tagged_or_not(tmp_path):
    for prefix, build, line in (("[rank5]:", "pytorch_1595629401015", 59), ("", "pytorch_1587428398394", 247),
                                ("[default3]:", "pytorch_1603729096996", 61)):
        text = (f"{prefix}THCudaCheck FAIL file=/opt/conda/conda-bld/{build}/work/torch/csrc/cuda/Module.cpp "
                f"line={line} error=10 : invalid device ordinal\n"
                f"{prefix}Traceback (most recent call last):\n"
                f"{prefix}  File \"tools/train_net.py\", line 24, in <module>\n"
                f"{prefix}RuntimeError: cuda runtime error (10) : invalid device ordinal at "
                f"/opt/conda/conda-bld/{build}/work/torch/csrc/cuda/Module.cpp:{line}\n")
        d = _report(tmp_path, text)
        assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("config", []), (prefix, d["verdict"])
        assert not _accused(d)
    other = ("[rank5]:THCudaCheck FAIL file=/opt/conda/conda-bld/pytorch_1595629401015/work/aten/src/THC/"
             "THCCachingHostAllocator.cpp line=278 error=10 : invalid device ordinal\n")
    assert _verdict(tmp_path, other)["cause"] == "cuda_error"


# transformers' TrainingArguments._setup_devices is the frame that selects the GPU too (round 60's graphgpt-54 under a
# rank prefix): a paste often ends its traceback at the device property's "return self._setup_devices"
def test_an_ordinal_under_transformers_setup_devices_is_the_launch_tagged_or_not(tmp_path):
    """HF TrainingArguments sets the process's GPU from its local rank in _setup_devices (the device / n_gpu property
    reaches it while the arguments are parsed): 'invalid device ordinal' there is the launch's index past the GPUs the
    process sees (rules Q, AU (2)): config, nobody named -- untagged, or under a launcher's rank tag on every line
    (torchrun --tee's "[rankN]: "), which says who printed the lines, not whose index it was. The same tagged error
    raised by the rank's own code elsewhere stays its CUDA error."""
    tb = ("{p}Traceback (most recent call last):\n"
          '{p}  File "/home/u/proj/train/train_mem.py", line 9, in <module>\n'
          "{p}    model_args, data_args, training_args = parser.parse_args_into_dataclasses()\n"
          '{p}  File "/opt/env/lib/python3.11/site-packages/transformers/training_args.py", line 1402, in '
          '__post_init__\n'
          '{p}    if self.framework == "pt" and is_torch_available() and self.device.type == "cuda":\n'
          '{p}  File "/opt/env/lib/python3.11/site-packages/transformers/training_args.py", line {n}, in {where}\n'
          "{p}    {code}\n"
          "{p}\n"
          "{p}RuntimeError: CUDA error: invalid device ordinal\n"
          "{p}For debugging consider passing CUDA_LAUNCH_BLOCKING=1.\n")
    for p, n, where, code in (("", 1811, "device", "return self._setup_devices"),
                              ("[rank2]: ", 1811, "device", "return self._setup_devices"),
                              ("[rank1]:", 1760, "_setup_devices", "torch.cuda.set_device(device)"),
                              ("[default3]:", 1824, "n_gpu", "_ = self._setup_devices")):
        d = _report(tmp_path, tb.format(p=p, n=n, where=where, code=code))
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), (p, v)
        assert "nvidia-smi" in v["fix"] and "--nproc_per_node" in v["fix"], v
    own = tb.format(p="[rank2]: ", n=230, where="forward", code="h = h.to(f'cuda:{self.stage + 2}')")
    assert _verdict(tmp_path, own)["cause"] == "cuda_error"


# --- a framework's own check of settings every process shares (lead rules W, Q, AF (2)): config, nobody ------------
# Lightning's accelerator connector refusing a DDP-family strategy on Apple's MPS device (round 53's imaginAIry-235):
# the fix names the strategy and the accelerator, whatever the object's address, the strategy's class or the prefix
def test_a_ddp_strategy_refused_on_the_mps_accelerator_names_the_strategy_and_accelerator(tmp_path):
    for prefix, cls, addr in (("", "DDPStrategy", "0x437b30760"), ("[rank1]:", "DDPSpawnStrategy", "0x7f2a10"),
                              ("2: ", "DDPShardedStrategy", "0x1055c8d90")):
        text = (f"{prefix}ValueError: You set `strategy=<pytorch_lightning.strategies.ddp.{cls} object at {addr}>` "
                "but strategies from the DDP family are not supported on the MPS accelerator. Either explicitly "
                "set `accelerator='cpu'` or change the strategy.\n")
        d = _report(tmp_path, text)
        assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("config", []), (prefix, d["verdict"])
        assert "accelerator='cpu'" in d["verdict"]["fix"] and "strategy" in d["verdict"]["fix"]
        assert not _accused(d)
    # a near shape: a kernel refusing its input dtype on a device is not the strategy's reading
    other = "RuntimeError: bfloat16 is not supported on the MPS device for this op\n"
    assert "strategy" not in _verdict(tmp_path, other)["fix"]


# accelerate's check that a model loaded in 8-bit / 4-bit sits on another device than the one its process trains on,
# two processes' copies run together on one line past 300 characters (round 53's Firefly-270): config, nobody
def test_a_quantized_model_on_another_device_than_training_is_its_placement(tmp_path):
    msg = ("You can't train a model that has been loaded in {b}-bit precision on a different device than the one "
           "you're training on. Make sure you loaded the model on the correct device using for example "
           "`device_map={{'':torch.cuda.current_device()}}")
    for prefix, bits, twice in (("", 8, True), ("[rank3]: ", 4, True), ("[default1]:", 8, False)):
        body = msg.format(b=bits)
        text = f"{prefix}ValueError: {body}" + (body[40:] if twice else "") + "\n"
        d = _report(tmp_path, text)
        assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("config", []), (prefix, d["verdict"])
        assert "device_map" in d["verdict"]["fix"] and "LOCAL_RANK" in d["verdict"]["fix"]
        assert not _accused(d)
    # a near shape: a tensor on another device than the model's is the script's own bug, not the placement reading
    other = ("RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 "
             "and cuda:1!\n")
    assert "device_map={''" not in _verdict(tmp_path, other)["fix"]


# bitsandbytes' native library not loaded (its `lib` is None) failing the paged optimizer on every rank, two
# processes' tracebacks interleaved (round 53's Mixture-of-depths-12): the install every rank shares (rule AF (2))
def test_bitsandbytes_native_library_not_loaded_is_the_shared_install(tmp_path):
    for prefix, fn, twice in (("", "cget_managed_ptr", True), ("[rank1]: ", "cprefetch", False),
                              ("0: ", "cdequantize_blockwise_fp32", True)):
        line = f"AttributeError: 'NoneType' object has no attribute '{fn}'"
        text = (f"{prefix}  File \"/opt/py/site-packages/bitsandbytes/functional.py\", line 171, in get_paged\n"
                f"{prefix}    cuda_ptr = lib.{fn}(ct.c_size_t(num_bytes))\n"
                + (f"{prefix}AttributeErrorAttributeError: : 'NoneType' object has no attribute '{fn}''NoneType' "
                   f"object has no attribute '{fn}'\n" if twice else f"{prefix}{line}\n"))
        d = _report(tmp_path, text)
        assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("config", []), (prefix, d["verdict"])
        assert "bitsandbytes" in d["verdict"]["fix"]
        assert not _accused(d)
    # a near shape: a script's own None (an attribute that is not a native C function) is not bitsandbytes' install
    other = "AttributeError: 'NoneType' object has no attribute 'config'\n"
    assert "bitsandbytes" not in _verdict(tmp_path, other)["fix"]


# torchelastic's event JSON of a worker the agent records FAILED (not TERMINATED: api.py _record_worker_events marks
# the run's failures FAILED, the workers it stopped TERMINATED) beside elastic's "Child process P (local_rank L) FAILED
# (exitcode 1)" of another worker (round 53's depth-from-motion-13): two workers failed on their own, none shown first
# -- nobody named (lead rule J); with the other worker TERMINATED, the lone failed one stays named (rule A)
def _te_worker(state: str, grank: int, lrank: int, wid: int, host: str, world: int) -> str:
    return ('{"name": "torchelastic.worker.status.' + state + '", "source": "WORKER", "timestamp": 0, "metadata": '
            '{"run_id": "none", "global_rank": ' + str(grank) + ', "group_rank": 0, "worker_id": "' + str(wid)
            + '", "role": "default", "hostname": "' + host + '", "state": "' + state + '", "total_run_time": 91, '
            '"rdzv_backend": "static", "raw_error": "{\\"message\\": \\"<NONE>\\"}", "metadata": "{\\"group_world_size'
            '\\": 1, \\"entry_point\\": \\"python\\", \\"local_rank\\": [' + str(lrank) + '], \\"role_rank\\": ['
            + str(lrank) + '], \\"role_world_size\\": [' + str(world) + ']}", "agent_restarts": 0}}\n')


def _no_error_file(pid: int, lrank: int) -> str:
    return ("CHILD PROCESS FAILED WITH NO ERROR_FILE\n"
            f"Child process {pid} (local_rank {lrank}) FAILED (exitcode 1)\n"
            "Error msg: Process failed with exitcode 1\n")


def test_elastic_records_of_two_workers_failing_on_their_own_name_nobody(tmp_path):
    for failed, child, host, world, pid in ((1, 0, "m07", 2, 48529), (0, 3, "gpu-a12", 4, 7311),
                                            (2, 1, "node5", 4, 20014)):
        text = _te_worker("FAILED", failed, failed, pid + 1, host, world) + _no_error_file(pid, child)
        d = _report(tmp_path, text)
        assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("unknown", []), (failed, d["verdict"])
        assert "@record" in d["verdict"]["fix"]
        assert not _accused(d)
    # the near shape: the other worker TERMINATED by the agent is torn down, the lone failed worker is still named
    text = _te_worker("TERMINATED", 1, 1, 48530, "m07", 2) + _no_error_file(48529, 0)
    assert _verdict(tmp_path, text)["culprits"] == [0]


# every rank of the world printing torch's ncclUnhandledCudaError and the same NCCL 'Cuda failure' under it, each line
# with its own "[rankN]: " tag (round 53's vlmevalkit-1036): one cause they share (rule J, V (2)), nobody named; a
# line ending in its quote is whole, and the next rank's tagged line is not its rest
def _every_rank_cuda(ranks: tuple[int, ...], code: int, err: str) -> str:
    return "".join(f"[rank{r}]: ncclUnhandledCudaError: Call to CUDA function failed.\n[rank{r}]: Last error:\n"
                   f"[rank{r}]: Cuda failure {code} '{err}'\n" for r in ranks)


def test_every_rank_failing_with_the_same_nccl_cuda_failure_names_nobody(tmp_path):
    for ranks, code, err in (((0, 1), 217, "peer access is not supported between these two devices"),
                             ((0, 1, 2, 3), 217, "peer access is not supported between these two devices"),
                             ((0, 1, 2), 801, "operation not supported")):
        d = _report(tmp_path, _every_rank_cuda(ranks, code, err))
        v = d["verdict"]
        assert v["cause"] == "cuda_error" and not _accused(d), (ranks, v)
        assert "every rank shown" in v["summary"], v


def test_ranks_failing_with_different_nccl_cuda_failures_are_not_read_alike(tmp_path):
    # near shape: two ranks, two different CUDA errors under their echoes -- not one cause they share
    text = (_every_rank_cuda((0,), 217, "peer access is not supported between these two devices")
            + _every_rank_cuda((1,), 700, "an illegal memory access was encountered"))
    v = _verdict(tmp_path, text)
    assert v["cause"] == "cuda_error" and "every rank shown" not in v["summary"], v


# NCCL's WARN of the CUDA/HIP runtime call it made and the runtime's error string, no "Cuda failure" (transport/p2p.cc
# "cudaIpcGetMemHandle failed : invalid argument"; RCCL's hipified "hipIpcGetMemHandle failed", round 53's
# rccl-tests-120): a CUDA error in NCCL's transport set-up, the platform's (rule V (2)), nobody named
def test_nccls_warn_of_a_failed_ipc_runtime_call_is_a_cuda_error_at_set_up(tmp_path):
    for head, api, err in (("guest:5161:5196 [1] /build/rccl/hipify/src/transport/p2p.cc:239", "hipIpcGetMemHandle",
                            "invalid argument"),
                           ("node3:880:912 [5] transport/p2p.cc:241", "cudaIpcGetMemHandle", "invalid argument"),
                           ("gpu-7:42:77 [2] transport/p2p.cc:310", "cudaIpcOpenMemHandle", "invalid device context")):
        d = _report(tmp_path, f"{head} NCCL WARN {api} failed : {err}\n")
        v = d["verdict"]
        assert v["cause"] == "cuda_error" and not _accused(d), (api, v)
        assert api in v["summary"] and "NCCL_P2P_DISABLE=1" in v["fix"] and "IOMMU" in v["fix"], v


def test_nccls_warn_of_a_failed_non_cuda_call_is_no_cuda_error(tmp_path):
    # near shape: a failed call of NCCL's own (not the CUDA/HIP runtime's) stays off the CUDA reading
    v = _verdict(tmp_path, "node3:880:912 [5] transport/net.cc:410 NCCL WARN ncclNetConnect failed : remote closed\n")
    assert v["cause"] != "cuda_error", v


# a HIP runtime error raised in one rank's own traceback, read like CUDA's (rule AN (2)), and a collector that wraps
# every line of the process in a JSON record of its own (round 53's milabench-397: {"event": "line", "data": "[rank1]:
# ...\n", "pipe": "stderr"}): the one rank shown failing is named (rules A, AN (1))
def _hip_tb(rank: int, err: str = "unspecified launch failure") -> list[str]:
    return [f"[rank{rank}]: Traceback (most recent call last):\n",
            f'[rank{rank}]:   File "/venv/lib/python3.12/site-packages/transformers/generation/utils.py", line 2760, '
            "in _sample\n",
            f"[rank{rank}]: torch.AcceleratorError: HIP error: {err}\n",
            f"[rank{rank}]: HIP kernel errors might be asynchronously reported at some other API call, so the "
            "stacktrace below might be incorrect.\n"]


def _json_wrapped(lines: list[str], key: str = "data") -> str:
    import json
    return "".join(json.dumps({"event": "line", key: x, "pipe": "stderr"} if key == "data" else {key: x}) + "\n"
                   for x in lines)


def test_one_ranks_hip_error_in_json_wrapped_stderr_names_that_rank(tmp_path):
    for rank, key, err in ((1, "data", "unspecified launch failure"), (3, "log", "unspecified launch failure"),
                           (6, "data", "an illegal memory access was encountered")):
        d = _report(tmp_path, _json_wrapped(_hip_tb(rank, err), key))
        v = d["verdict"]
        assert v["cause"] == "cuda_error" and v["culprits"] == [rank], (rank, key, v)
    v = _verdict(tmp_path, "".join(_hip_tb(2)))  # the same lines unwrapped
    assert v["cause"] == "cuda_error" and v["culprits"] == [2], v


def test_a_json_line_that_is_no_collectors_record_is_read_as_it_is():
    # near shape: a metrics record, a record whose text holds several lines or no text: no one wrapped line to read
    from ncclDoctor.diagnose.parse import _json_record_line
    assert _json_record_line('{"step": 10, "loss": 1.25}') is None
    assert _json_record_line('{"data": "[rank1]: a\\n[rank1]: b\\n"}') is None
    assert _json_record_line('{"data": {"rank": 1}}') is None
    assert _json_record_line('{"data": "[rank1]: a\\n", "pipe": "stderr"} trailing') is None
    assert _json_record_line('{"log": "[rank4]: boom\\n", "stream": "stderr"}') == "[rank4]: boom"


# nccl-tests/rccl-tests launched with a message size the GPU cannot hold, NCCL's own allocation then failing 'out of
# memory' (round 53's rocm-systems-3743): the fix names the test's -e / -b sizes, not a model's batch
def test_an_oom_under_nccl_tests_names_the_tests_message_size(tmp_path):
    for cmd, size in (("mpirun -np 8 -x NCCL_DEBUG=INFO ./build/all_reduce_perf -b 16G -e 16G -n 50 -g 1", "16G"),
                      ("NCCL_DEBUG=WARN ./build/all_gather_perf -b 8 -e 32G -f 2 -g 8", "32G"),
                      ("mpirun -np 2 -x NCCL_DEBUG=INFO ./reduce_scatter_perf --minbytes 1M --maxbytes 64G", "64G")):
        text = cmd + "\n" + "node2:4410:4410 [0] /src/allocator.cc:92 NCCL WARN Cuda failure 'out of memory'\n"
        v = _verdict(tmp_path, text)
        assert v["cause"] == "gpu_oom", (cmd, v)
        assert f"-e {size}" in v["fix"] and "smaller -e" in v["fix"], (cmd, v["fix"])


def test_an_oom_without_nccl_tests_keeps_the_training_fix(tmp_path):
    # near shape: a training job's OOM with NCCL settings on its command line: no nccl-tests sizes to name
    text = ("NCCL_DEBUG=INFO torchrun --nproc_per_node 8 train.py --batch-size 64\n"
            "[rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 3 has a total "
            "capacity of 79.15 GiB of which 1.10 GiB is free.\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "gpu_oom" and "nccl-tests" not in v["fix"] and "batch size" in v["fix"], v


# one process of the lines (NCCL_DEBUG=INFO, device 0, NCCL's version line: rank 0) failing NCCL's start-up with a
# CUDA error of a build without code for the GPU, torch's unprefixed "NCCL Error 1: unhandled cuda error" over it, no
# kernel launched (round 53's pytorch-152077): rule AM (3) names that rank
def _startup_arch(host: str, pid: int, dev: int, warn: str, version: str = "2.14.3+cuda11.8") -> str:
    return ("RuntimeError: NCCL Error 1: unhandled cuda error\n"
            f"{host}:{pid}:{pid} [{dev}] NCCL WARN Cuda failure '{warn}'\n"
            f"{host}:{pid}:{pid} [{dev}] NCCL INFO Bootstrap : Using eth0:172.17.0.2<0>\n"
            f"{host}:{pid}:{pid} [{dev}] NCCL INFO cudaDriverVersion 12080\n"
            f"NCCL version {version}\n"
            f"{host}:{pid}:{pid + 164} [{dev}] NCCL INFO Using network Socket\n")


def test_the_one_process_failing_nccl_start_up_on_a_build_without_the_gpus_code_is_named(tmp_path):
    for host, pid, warn in (("4d1a2ae696c8", 50555, "named symbol not found"),
                            ("trainer-0", 812, "no kernel image is available for execution on the device"),
                            ("gpu-box", 31337, "named symbol not found")):
        d = _report(tmp_path, _startup_arch(host, pid, 0, warn))
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("cuda_error", [0]), (host, v)
        assert "compute capability" in v["fix"], v


def test_the_same_start_up_failure_on_another_device_names_nobody(tmp_path):
    # near shape: the process is on device 1, so its version line does not make it rank 0: the build, nobody named
    d = _report(tmp_path, _startup_arch("gpu-box", 4242, 1, "named symbol not found"))
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("cuda_error", []) and not _accused(d), d["verdict"]


# --- round 54: a DataLoader worker's own fault in torch's handler words; fix words of nccl-tests' CUDA failures -------
def test_torchs_worker_handler_reporting_a_segfault_is_a_native_crash_in_the_worker(tmp_path):
    """torch's worker signal handler prints "ERROR: Unexpected segmentation fault encountered in worker." before the
    main process's _try_get_data traceback: a SIGSEGV in the worker, not a bus error (/dev/shm, rule F) -- cause
    unknown by rule A, nobody named (the worker carries no rank), the fix isolating it with num_workers=0."""
    text = ("Epoch 12 [800/2500]  loss 1.93  lr 5.0e-04\n"
            "ERROR: Unexpected segmentation fault encountered in worker.\n"
            "Traceback (most recent call last):\n"
            '  File "/opt/conda/lib/python3.10/site-packages/torch/utils/data/dataloader.py", line 1133, in '
            "_try_get_data\n"
            "    data = self._data_queue.get(timeout=timeout)\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), v
    assert "num_workers=0" in v["fix"] and "corrupt or truncated images" in v["fix"], v["fix"]
    bus = text.replace("segmentation fault", "bus error")
    assert _verdict(tmp_path, bus)["cause"] == "dataloader_shm"


def test_nccl_tests_cuda_failures_name_their_fix_words(tmp_path):
    """nccl-tests' own CUDA check ("Cuda failure common.cu:N '...'") in the one process that drives every GPU:
    cuda_error, nobody named; an old driver's says to upgrade the NVIDIA driver (or cuda-compat), an illegal memory
    access under a profiler says to run without it."""
    old = ("nThread 1 nGpus 4 minBytes 8 maxBytes 1048576 step: 2(factor) warmup iters: 5 iters: 20 validation: 1\n"
           "Cuda failure common.cu:732 'CUDA driver version is insufficient for CUDA runtime version'\n")
    v = _verdict(tmp_path, old)
    assert (v["cause"], v["culprits"]) == ("cuda_error", []), v
    assert "upgrade the NVIDIA driver" in v["fix"] and "cuda-compat" in v["fix"], v["fix"]
    iam = ("==4471== NVPROF is profiling process 4471, command: ./all_gather_perf -g 2\n"
           "nThread 1 nGpus 2 minBytes 1024 maxBytes 1024 step: 1048576(bytes) warmup iters: 5 iters: 20 "
           "validation: 1\n"
           "Cuda failure common.cu:488 'an illegal memory access was encountered'\n")
    v = _verdict(tmp_path, iam)
    assert (v["cause"], v["culprits"]) == ("cuda_error", []), v
    assert "illegal memory access" in v["fix"] and "nvprof" in v["fix"], v["fix"]


# --- launcher failure records (round 54): hydra's block, spawn's teardown, torchrun's table cut at its top ---------


def test_hydras_bad_termination_block_names_the_rank_it_prints(tmp_path):
    """MPICH / Intel MPI's hydra prints the process that died as "RANK N PID P RUNNING AT host" and, on the next line,
    "KILLED BY SIGNAL: 6" (or its wait status as "EXIT CODE: 139"): rank N's own end, rule A's lone failure; a -6 with
    nothing else shown stays cause unknown."""
    for rank, end, sig in ((2, "KILLED BY SIGNAL: 6 (Aborted)", "SIGABRT"), (3, "EXIT CODE: 139", "SIGSEGV")):
        text = (f"[{rank}] Traceback (most recent call last):\n"
                f"[{rank}]   File \"/srv/app/convert.py\", line 40, in <module>\n"
                f"[{rank}]     model = quantize(model)\n"
                "=" * 83 + "\n"
                "=   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES\n"
                f"=   RANK {rank} PID 40{rank}17 RUNNING AT gpu-node-a\n"
                f"=   {end}\n"
                + "=" * 83 + "\n")
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("unknown", [rank]), (end, v)
        assert sig in v["fix"], v
        assert _accused(d) == {rank}, d["verdict"]


def test_a_spawn_child_whose_error_names_the_disk_is_that_child_once_spawn_tore_the_others_down(tmp_path):
    """torch.multiprocessing.spawn SIGTERMs its other children ("Terminating process P via signal SIGTERM") only once
    one exited with an error, then raises it as "Process N terminated with the following error": one host, process N
    first (rules A, AL (2)). An OSError 'No space left on device' is the disk under its checkpoint: no cause class,
    the fix says free space."""
    text = ("W0302 08:01:12.000000 77 torch/multiprocessing/spawn.py:169] Terminating process 91 via signal SIGTERM\n"
            "Traceback (most recent call last):\n"
            "  File \"/srv/train.py\", line 120, in <module>\n"
            "    mp.spawn(run, args=(cfg,), nprocs=gpus)\n"
            "  File \"/usr/lib/python3.10/site-packages/torch/multiprocessing/spawn.py\", line 215, in join\n"
            "    raise ProcessRaisedException(msg, error_index, failed_process.pid)\n"
            "torch.multiprocessing.spawn.ProcessRaisedException: \n\n"
            "-- Process 1 terminated with the following error:\n"
            "Traceback (most recent call last):\n"
            "  File \"/usr/lib/python3.10/site-packages/torch/serialization.py\", line 650, in save\n"
            "    _save(obj, opened_zipfile, pickle_module, pickle_protocol)\n"
            "OSError: [Errno 28] No space left on device\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", [1]), v
    assert "df -h" in v["fix"] and "free disk space" in v["fix"], v
    # near shape: no teardown line and no nprocs = world size: the child's index names no rank (rule Q)
    v = _verdict(tmp_path, text.split("\n", 1)[1])
    assert v["culprits"] == [], v


def test_a_ranks_exit_warning_right_before_spawns_teardown_names_that_rank(tmp_path):
    """A rank's exit-time destroy_process_group() warning, then spawn's SIGTERM of the other child, the child's error
    cut: the rank that printed it exited first (rules A, I), cause unknown; with no teardown it is harmless noise."""
    warn = ("[rank1]:[W302 08:00:10.000000000 ProcessGroupNCCL.cpp:1479] Warning: WARNING: destroy_process_group() "
            "was not called before program exit, which can leak resources. For more info, please see "
            "https://pytorch.org/docs/stable/distributed.html#shutdown (function operator())\n")
    down = ("W0302 08:00:11.000000 500 site-packages/torch/multiprocessing/spawn.py:169] Terminating process 512 via "
            "signal SIGTERM\n"
            "Traceback (most recent call last):\n"
            "  File \"/srv/run.py\", line 30, in <module>\n"
            "    mp.spawn(worker, nprocs=2)\n")
    d = _report(tmp_path, "INFO starting workers\n" + warn + down)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", [1]), v
    assert "run on one GPU to reproduce" in v["fix"], v
    assert _verdict(tmp_path, "INFO starting workers\n" + warn)["cause"] == "none"


def _cf_entry(rank: int, pid: int, stamp: str = "2025-01-09_10:20:30") -> str:
    return (f"  time      : {stamp}\n  host      : node-7\n  rank      : {rank} (local_rank: {rank})\n"
            f"  exitcode  : 1 (pid: {pid})\n  error_file: <N/A>\n"
            "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html\n")


def test_torchruns_table_cut_at_its_top_with_every_rank_alike_names_nobody(tmp_path):
    """The paste begins inside torchrun's "Failures:" list (its first entry below its time line, entries [4]..[6]):
    the entries above the cut are failures too, so the ranks not shown prove nothing; every rank shown exited 1 in
    the same second -- every rank alike (rules J, AM (2)): nobody named, the fix says read each rank's traceback."""
    first = _cf_entry(4, 9004).split("\n", 1)[1]  # the paste starts at the entry's host line
    text = (first + "[5]:\n" + _cf_entry(6, 9006) + "[6]:\n" + _cf_entry(7, 9007)
            + "-" * 60 + "\nRoot Cause (first observed failure):\n[0]:\n" + _cf_entry(2, 9002) + "=" * 60 + "\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []), v
    assert "run with one process to see the exception" in v["fix"] and not _accused(d), v


def test_a_lone_sigfpe_record_names_the_rank_and_says_division_by_zero(tmp_path):
    text = ("E0305 11:00:00.000000 1400 torch/distributed/elastic/multiprocessing/api.py:833] failed (exitcode: -8) "
            "local_rank: 0 (pid: 1401) of binary: /opt/venv/bin/python\n")
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("unknown", [0]), v
    assert "SIGFPE" in v["fix"] and "division" in v["fix"], v


def test_a_ddp_reducer_assert_in_one_ranks_backward_says_how_the_step_drives_ddp(tmp_path):
    text = ("[rank0]: Traceback (most recent call last):\n"
            "[rank0]:   File \"/srv/ft.py\", line 90, in <module>\n"
            "[rank0]:     loss.backward()\n"
            "[rank0]: RuntimeError: expect_autograd_hooks_ INTERNAL ASSERT FAILED at "
            "\"/pytorch/torch/csrc/distributed/c10d/reducer.cpp\":1600, please report a bug to PyTorch.\n")
    v = _verdict(tmp_path, text)
    # rule AW's reducer reading (session 35: round 92's casanovo-512; oevortex-unsloth-16 relabelled): nobody named
    assert (v["cause"], v["culprits"]) == ("unknown", []), v
    assert "static_graph" in v["fix"] and "use_reentrant=False" in v["fix"], v


def test_a_checkpoint_recompute_listing_without_its_header_is_that_ranks_own_exception(tmp_path):
    """Round 58: torch.utils.checkpoint's CheckpointError lists each tensor whose recomputed metadata differs
    ("saved metadata: {...}" / "recomputed metadata: {'shape': torch.Size([0]), ...}"); pasted without its header
    line under one rank's tag, beside the agent's SIGTERMs of the others by pid, it is that rank's own exception:
    unknown, that rank, the fix about checkpointing sharded parameters. Untagged, it names nobody."""
    def listing(p: str) -> str:
        return "".join(f"{p}tensor at position {i}:\n"
                       f"{p}saved metadata: {{'shape': torch.Size([{n}]), 'dtype': torch.float16, 'device': "
                       "device(type='cuda', index=2)}\n"
                       f"{p}recomputed metadata: {{'shape': torch.Size([0]), 'dtype': torch.float16, 'device': "
                       "device(type='cuda', index=2)}\n" for i, n in ((41, 4096), (42, 11008)))
    head = ("[rank2]: Traceback (most recent call last):\n"
            '[rank2]:   File "/home/u/proj/train_lora.py", line 901, in <module>\n[rank2]:     main()\n')
    stop = "".join(f"W0311 04:21:5{i}.100000 51230 torch/distributed/elastic/multiprocessing/api.py:897] Sending "
                   f"process {51300 + i} closing signal SIGTERM\n" for i in range(3))
    v = _verdict(tmp_path, head + listing("[rank2]: ") + stop)
    assert (v["cause"], v["culprits"]) == ("unknown", [2]), v
    assert "CheckpointError" in v["summary"] and "use_reentrant" in v["fix"] and "ZeRO-3" in v["fix"], v
    v = _verdict(tmp_path, listing(""), "untagged.log")
    assert v["cause"] == "unknown" and v["culprits"] == [], v


# --- round 54: a framework's own prefix names the rank of an untagged error ----------------------------------------
# SGLang's logger prefix "[time TPn]" on the scheduler's "hit an exception: Traceback" line (its frames and error follow
# untagged): with no DP or PP index the TP index is the process's torch.distributed rank (round 54's sglang-3713)
def _sglang_scheduler_crash(prefix: str) -> str:
    return (f"[2024-11-02 08:13:45 {prefix}] Scheduler hit an exception: Traceback (most recent call last):\n"
            '  File "/opt/sglang/python/sglang/srt/managers/scheduler.py", line 1702, in run_scheduler_process\n'
            "    scheduler.event_loop_normal()\n"
            '  File "/opt/sglang/python/sglang/srt/managers/scheduler.py", line 480, in event_loop_normal\n'
            "    self.process_batch_result(batch, result)\n"
            '  File "/usr/lib/python3.11/site-packages/torch/cuda/streams.py", line 105, in synchronize\n'
            "    super().synchronize()\n"
            "RuntimeError: CUDA error: an illegal memory access was encountered\n"
            "For debugging consider passing CUDA_LAUNCH_BLOCKING=1\n")


def test_sglangs_tp_prefix_on_the_traceback_names_the_rank_of_its_cuda_error(tmp_path):
    for tp in (2, 5):
        v = _verdict(tmp_path, _sglang_scheduler_crash(f"TP{tp}"))
        assert (v["cause"], v["culprits"]) == ("cuda_error", [tp]), (tp, v)


def test_a_tp_index_beside_a_dp_index_names_no_rank(tmp_path):
    # near shape: "DP1 TP2" is the TP rank inside one data-parallel group, not the process's global rank
    d = _report(tmp_path, _sglang_scheduler_crash("DP1 TP2"))
    assert d["verdict"]["cause"] == "cuda_error" and not _accused(d), d["verdict"]


# torchx's per-process prefix "role/replica [local_rank]:": replica 0's local ranks are the global ones (round 54's
# torchrec-366)
def _torchx_crash(prefix: str) -> str:
    lines = ("Traceback (most recent call last):",
             '  File "/app/train.py", line 140, in <module>',
             "    loss.backward()",
             "RuntimeError: segment_reduce: failed to synchronize: cudaErrorIllegalAddress: an illegal memory access "
             "was encountered")
    return "".join(f"{prefix}{ln}\n" for ln in lines)


def test_torchx_replica_zero_prefix_names_the_rank_of_its_cuda_error(tmp_path):
    for role, local in (("trainer", 1), ("dlrm_main", 3)):
        v = _verdict(tmp_path, _torchx_crash(f"{role}/0 [{local}]:"))
        assert (v["cause"], v["culprits"]) == ("cuda_error", [local]), (role, v)


def test_torchx_prefix_of_another_replica_names_no_rank(tmp_path):
    # near shape: replica 1's local rank 3 is no global rank without the per-node count
    d = _report(tmp_path, _torchx_crash("trainer/1 [3]:"))
    assert d["verdict"]["cause"] == "cuda_error" and not _accused(d), d["verdict"]


# TGI relays a shard's error output, closes it with the shard's span field " rank=N" on a line of its own, then records
# "Shard N failed to start" (round 54's tgi-866)
def _tgi_shard_oom(field: str) -> str:
    return ("torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 256.00 MiB (GPU 0; 22.19 GiB total "
            "capacity; 21.80 GiB already allocated; 41.50 MiB free; 21.95 GiB reserved in total by PyTorch) If "
            "reserved memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation.\n"
            + field
            + "Error: ShardCannotStart\n"
            "2024-02-03T11:02:45.118201Z ERROR text_generation_launcher: Shard 1 failed to start\n"
            "2024-02-03T11:02:45.118230Z  INFO text_generation_launcher: Shutting down shards\n")


def test_tgis_span_field_under_an_oom_names_the_shards_rank(tmp_path):
    v = _verdict(tmp_path, _tgi_shard_oom(" rank=1\n"))
    assert (v["cause"], v["culprits"]) == ("gpu_oom", [1]), v


def test_an_oom_without_the_span_field_names_no_rank(tmp_path):
    # near shape: the field not pasted: the OOM is still nobody's the lines name
    d = _report(tmp_path, _tgi_shard_oom(""))
    assert d["verdict"]["cause"] == "gpu_oom" and not _accused(d), d["verdict"]


# torch < 2.1's OOM text whose own numbers say the failing process holds little of the GPU and nothing is free: other
# processes hold it (several ranks on one GPU), not this process's model or batch (round 54's deepspeed-3461)
def _old_oom(reserved: str) -> str:
    return ('  File "/env/lib/python3.9/site-packages/torch/nn/modules/module.py", line 987, in convert\n'
            "    return t.to(device, dtype if t.is_floating_point() else None, non_blocking)\n"
            "RuntimeError: CUDA out of memory. Tried to allocate 64.00 MiB (GPU 0; 79.15 GiB total capacity; "
            f"{reserved} already allocated; 20.12 MiB free; {reserved} reserved in total by PyTorch) If reserved "
            "memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation.\n")


def test_an_old_oom_of_a_process_holding_little_of_its_gpu_says_other_processes_hold_it(tmp_path):
    v = _verdict(tmp_path, _old_oom("12.40 GiB"))
    assert v["cause"] == "gpu_oom" and v["culprits"] == [], v
    assert "other processes hold the rest" in v["fix"] and "CUDA_VISIBLE_DEVICES" in v["fix"], v


def test_an_old_oom_of_a_process_holding_its_gpu_keeps_the_training_fix(tmp_path):
    # near shape: the process itself reserves nearly all of the GPU: its own model or batch
    v = _verdict(tmp_path, _old_oom("78.90 GiB"))
    assert v["cause"] == "gpu_oom" and "other processes hold" not in v["fix"] and "batch size" in v["fix"], v


def test_both_ranks_of_a_two_process_job_exiting_1_alike_names_the_same_error_on_every_rank(tmp_path):
    """Rules J, AM (2): torchrun's record of a one-host two-process job, both ranks exit 1 in the same second with no
    traceback (error_file <N/A>): nobody named, and the fix says it is the same error on every rank whose worker
    traceback the record lacks (run one process to see it)."""
    text = ("torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n" + "=" * 60 + "\n"
            "/srv/det/ddp_run_x1.py FAILED\n" + "-" * 60 + "\nFailures:\n[1]:\n"
            + failure_record(None, 1, 1, 1, 5202, time="2024-05-02_09:11:07", host="ws-17")
            + "-" * 60 + "\nRoot Cause (first observed failure):\n[0]:\n"
            + failure_record(None, 0, 0, 1, 5201, time="2024-05-02_09:11:07", host="ws-17") + "=" * 60 + "\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), v
    assert "same error on every rank" in v["fix"] and "worker traceback" in v["fix"], v


# a CUDA kernel's device-side assertion, printed by the GPU once per failing thread with no rank tag (rule AC (1)):
# a CUDA error (device-side assert) of a rank the lines do not name -- not "nothing failed"
def test_a_kernels_device_side_assertion_lines_alone_are_a_cuda_error_of_an_unnamed_rank(tmp_path):
    text = "".join(f"/opt/pytorch/aten/src/ATen/native/cuda/Loss.cu:94: operator(): block: [17,0,0], thread: [{t},0,0]"
                   " Assertion `input_val >= zero && input_val <= one` failed.\n" for t in range(96, 101))
    d = _report(tmp_path, "epoch 3 iter 120/800 loss 1.93\n" + text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("cuda_error", []) and not _accused(d), v
    assert "device-side assert" in v["summary"] and "CUDA_LAUNCH_BLOCKING=1" in v["fix"], v
    # the same condition in a host-side traceback's source line is no kernel's assertion
    host = "    assert input_val >= zero and input_val <= one\nAssertionError\n"
    assert _verdict(tmp_path, host)["cause"] != "cuda_error"


# lead rules Q, W: a vendor fork's NCCL build printing its return-code trail at WARN level ("NCCL WARN init.cc:1815
# -> 5", its source path in the INFO lines): 5 is ncclInvalidUsage, NCCL refusing the communicator at creation
def test_a_forks_warn_level_return_code_trail_reads_its_code(tmp_path):
    p = "(Actor pid=4410) [gpu-node-3][4410:{tid}][0][{f}:{n}]"
    text = (p.format(tid=4977, f="init.cc", n=1790) + " NCCL WARN init.cc:1790 -> 5\n"
            + p.format(tid=4977, f="group.cc", n=71) + " NCCL INFO /VENDOR-NCCL/src/group.cc:71 -> 5 [Async thread]\n"
            + p.format(tid=4410, f="group.cc", n=560) + " NCCL WARN group.cc:560 -> 3\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not _accused(d), v
    assert "ncclInvalidUsage" in v["fix"], v


# --- round 56: Ascend's HCCP that cannot start on a rank's NPU is that rank's device error (rules AN (2), AM (3)) --
# EJ0001 under the Ascend error header "(PID:N, Device:D, RankID:R)" at the first barrier: the header names the rank
# (round 56's llamafactory-3839)
def test_ascends_hccp_init_failure_names_the_rank_of_its_header(tmp_path):
    text = ('  File "/env/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 4159, in barrier\n'
            "RuntimeError: [ERROR] HCCL error in: torch_npu/csrc/distributed/ProcessGroupHCCL.cpp:71\n"
            "[ERROR] 2025-03-14-10:02:31 (PID:51402, Device:6, RankID:6) ERR02200 DIST call hccl api failed.\n"
            "EJ0001: 2025-03-14-10:02:31.410.115 Failed to initialize the HCCP process. Reason: Maybe the last "
            "training process is running.\n"
            "        Solution: Wait for 10s after killing the last training process and try again.\n"
            "        rtGetDevMsg execute failed, reason=[driver error:internal error]\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "cuda_error" and _accused(d) == {6}, v
    assert "npu-smi info" in v["fix"] and "HCCP" in v["summary"], v


def test_ascends_hccp_failure_far_below_a_header_names_no_rank(tmp_path):
    # near shape: the header's rank is of lines right under it only
    text = ("[ERROR] 2025-03-14-10:02:31 (PID:51402, Device:6, RankID:6) ERR02200 DIST call hccl api failed.\n"
            + "".join(f"step {i} loss 1.0\n" for i in range(6))
            + "EJ0001: Failed to initialize the HCCP process. Reason: Maybe the last training process is running.\n")
    assert 6 not in _accused(_report(tmp_path, text))


# --- round 60: Ascend's runtime failing a call on a process's NPU while it runs is a device error (rule AN (2)) ------
# torch_npu's "NPU function error: ..., error code is 507014" (the aicore execution timed out) under a header with
# RankID:-1 names no rank (rule AC (1)); another rank's HCCL watchdog dying on "DIST internal error" in the same second
# is not a rank's own failure (round 60's vllm-ascend-4972)
_NPU_TIMEOUT = ("[1733] [2025-11-20 03:41:52:118] torch.distributed: [ERROR] [1801] Find exception when "
                "finishedNPUExecutionInternal, query:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:59 NPU function "
                "error: acl::AclQueryEventRecordedStatus(event_, &currStatus), error code is 507014\n"
                "[ERROR] 2025-11-20-03:41:52 (PID:1733, Device:2, RankID:-1) ERR00100 PTA call acl api failed\n"
                "[Error]: The aicore execution times out.\n"
                "EH9999: Inner Error!\n"
                "        rtEventQueryStatus execute failed, reason=[aicore timeout]\n")
_HCCL_WATCHDOG_DIED = ("[rank5]:[E1120 03:41:52.104218301 compiler_depend.ts:1675] [Rank 5] HCCL watchdog thread "
                       "terminated with exception:\n"
                       "[ERROR] 2025-11-20-03:41:52 (PID:1740, Device:5, RankID:-1) ERR02005 DIST internal error\n")


def test_an_npu_aicore_timeout_without_a_rank_is_a_device_error_of_no_named_rank(tmp_path):
    d = _report(tmp_path, _HCCL_WATCHDOG_DIED + _NPU_TIMEOUT)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("cuda_error", []) and not _accused(d), v
    assert "507014" in v["summary"] and "aicore" in v["summary"] and "ASCEND_LAUNCH_BLOCKING=1" in v["fix"], v


@pytest.mark.parametrize("code,words", [(507015, "aicore execution raised an exception"),
                                        (507016, "aicore execution hit a trap exception"),
                                        (507017, "aicpu execution timed out"), (507018, "aicpu execution raised")])
def test_each_npu_kernel_code_is_named_by_what_canns_header_says(tmp_path, code, words):
    # the other kernel-failure codes of CANN's rt_error_codes.h read the same way, each in its own words; an unknown
    # code keeps its number only
    text = _HCCL_WATCHDOG_DIED + _NPU_TIMEOUT.replace("507014", str(code))
    v = _report(tmp_path, text)["verdict"]
    assert v["cause"] == "cuda_error" and str(code) in v["summary"] and words in v["summary"], v
    other = _report(tmp_path, _HCCL_WATCHDOG_DIED + _NPU_TIMEOUT.replace("507014", "507999"), "other.log")["verdict"]
    assert "Ascend runtime error 507999" in other["summary"] and "aicore exception" not in other["summary"], other


def test_an_npu_runtime_error_under_a_ranks_own_tag_names_that_rank(tmp_path):
    # near shape: the same error on a line its launcher tagged with the rank is that rank's own device error
    text = "".join(f"[rank4]: {ln}\n" for ln in _NPU_TIMEOUT.splitlines())
    d = _report(tmp_path, text)
    assert (d["verdict"]["cause"], _accused(d)) == ("cuda_error", {4}), d["verdict"]


# --- round 60: what the lines hold says where a lone failure came from, for its fix (lead rule A) ---------------------
# a lone exit-code-1 record whose rank's output ends in torch._dynamo's advice: the exception came from torch.compile
# (round 60's torchtitan-216)
def test_a_lone_exit_1_after_dynamos_advice_starts_the_fix_from_compile(tmp_path):
    tail = ("[rank0]: You can suppress this exception and fall back to eager by setting:\n"
            "[rank0]:     import torch._dynamo\n"
            "[rank0]:     torch._dynamo.config.suppress_errors = True\n")
    rec = ("E0502 09:14:03.118000 140211 torch/distributed/elastic/multiprocessing/api.py:826] failed (exitcode: 1) "
           "local_rank: 0 (pid: 88123) of binary: /opt/venv/bin/python\n")
    d = _report(tmp_path, tail + rec)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", [0]), v
    assert "TORCH_LOGS" in v["fix"] and "disable compile" in v["fix"], v
    assert "dynamo" not in _verdict(tmp_path, rec)["fix"]  # near shape: the record alone says nothing of compile


# an abort whose what() is a pluggable CUDA allocator refusing a free, no rank tag: unknown, and the fix names the
# allocator a library swapped in (round 60's ms-swift-5297)
def test_a_pluggable_allocators_refused_free_names_the_allocator_in_the_fix(tmp_path):
    text = ("INFO 05-11 08:02:10 [sft.py:160] last_model_checkpoint: /out/v3/checkpoint-400\n"
            "terminate called after throwing an instance of 'c10::Error'\n"
            "  what():  Trying to free a pointer not allocated here\n"
            "Exception raised from raw_delete at /pytorch/torch/csrc/cuda/CUDAPluggableAllocator.cpp:151 (most recent "
            "call first):\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), v
    assert "CUDAPluggableAllocator" in v["fix"] and "sleep mode" in v["fix"], v


def test_no_kernel_image_fix_says_how_to_read_the_gpus_architecture(tmp_path):
    """Lead rule J / V (2): every worker failing alike with 'no kernel image is available' is the build lacking the
    GPU's architecture; the fix says how to read that architecture (nvidia-smi's compute_cap), no rank named."""
    text = "".join(f"[TM][FATAL] CUDA error: no kernel image is available for execution on the device at "
                   f"/src/kernels/convert.cu:118 (worker {i})\n" for i in range(2))
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("cuda_error", []), v
    assert "check nvidia-smi" in v["fix"], v


def test_one_ray_actors_nccl_cuda_failure_names_the_rank_its_own_tag_gives(tmp_path):
    """Lead rule AM (3): NCCL's 'Cuda failure' WARN of one Ray actor while the communicators are created, the other
    actor shown only in its set-up, is the rank that actor's own '[Rank N]' line names (NCCL's '[N]' is its CUDA
    device); without that tag no rank is named (the build every rank shares)."""
    warn = ("(TrainActor pid=51207) node7:51207:51544 [1] enqueue.cc:42 NCCL WARN Cuda failure 'named symbol not "
            "found'\n")
    head = ("(TrainActor pid=51012) node7:51012:51012 [0] NCCL INFO Bootstrap: Using eth0:10.2.0.7<0>\n"
            "(TrainActor pid=51012) node7:51012:51012 [0] NCCL INFO NCCL version 2.27.3+cuda12.9\n"
            "(TrainActor pid=51012) node7:51012:51012 [0] NCCL INFO Comm config Blocking set to 1\n")
    tag = "(TrainActor pid=51207) [2025-11-02 09:14:11] utils.py:60 - [Rank 1] GPU memory after the error: 3.1 GB\n"
    d = _report(tmp_path, head + tag + warn)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("cuda_error", [1]) and _accused(d) <= {1}, v
    v = _verdict(tmp_path, head + warn)
    assert (v["cause"], v["culprits"]) == ("cuda_error", []), v


# lead rule A: torchrun's failure record wrapped by a narrow terminal right after its "local_rank:", the rank and its
# pid opening the next line (no trigger word there): a lone SIGKILL of that local rank, the host's OOM killer
def test_a_failure_record_wrapped_after_its_local_rank_names_the_rank_on_the_next_line(tmp_path):
    text = ("2025-03-02 09:14:07,552 - mmseg - INFO - Saving checkpoint at 12 epochs\n"
            "[>>>>       ] 310/4800, 21.3 task/s, elapsed: 15s, ETA:ERROR:torch.distributed.elastic.multiprocessing."
            "api:"
            "failed (exitcode: -9) local_rank: \n"
            "2 (pid: 55321) of binary: /opt/conda/envs/seg/bin/python\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("host_oom", [2]), v


# lead rule AC (1): Python's "Exception ignored in: <_io.BufferedWriter ...>" then "BrokenPipeError" is a file
# object's flush at interpreter exit into a pipe whose reader left -- teardown noise, no socket between ranks: the
# agent's record of the one worker that exited 1 (the others SIGTERMed) names it
def test_an_ignored_pipe_flush_at_exit_is_no_peer_gone_beside_the_agents_record(tmp_path):
    text = ("I0311 10:02:11 772104 trainer loop.py:88] step 410/90000 loss 6.1023 lr 0.0004\n"
            "Exception ignored in: <_io.BufferedWriter name=57>\n"
            "BrokenPipeError: [Errno 32] Broken pipe\n"
            + "".join(f"W0311 10:02:15.40{i}000 772050 torch/distributed/elastic/multiprocessing/api.py:897] Sending "
                      f"process {p} closing signal SIGTERM\n" for i, p in enumerate((772101, 772102, 772104)))
            + "E0311 10:02:16.118000 772050 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1)"
              " local_rank: 2 (pid: 772103) of binary: /opt/venv/bin/python3.12\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", [2]), v
    assert "BrokenPipeError" not in v["summary"] and "local_rank 2" in v["fix"], v


# lead rules A, AL (2): mp.spawn's "-- Process N terminated with the following error:" whose child traceback ends in
# the program's own exception (not NCCL's, the store's, a setting's) is that one child failing on this host: process N
def test_a_spawn_childs_own_program_exception_names_that_process(tmp_path):
    text = ("Traceback (most recent call last):\n"
            '  File "/srv/app/train.py", line 310, in <module>\n'
            "    mp.spawn(run, nprocs=n_gpus, args=(n_gpus, cfg))\n"
            "torch.multiprocessing.spawn.ProcessRaisedException: \n\n"
            "-- Process 2 terminated with the following error:\n"
            "Traceback (most recent call last):\n"
            '  File "/opt/conda/lib/python3.11/site-packages/torch/multiprocessing/spawn.py", line 90, in _wrap\n'
            "    fn(i, *args)\n"
            '  File "/srv/app/train.py", line 188, in run\n'
            "    model.module.load_state_dict(ckpt['model'])\n"
            "AttributeError: 'VoiceNet' object has no attribute 'module'\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", [2]), v
    assert "AttributeError" in v["fix"], v
    # the same record over NCCL's own error: every child meets it alike, no process is named (rule Q's caution)
    nccl = text.replace("AttributeError: 'VoiceNet' object has no attribute 'module'",
                        "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled "
                        "system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5")
    assert 2 not in _accused(_report(tmp_path, nccl)), nccl


# rule A: PyTorch's MultiProcessTestCase reporting a spawned test process's exit by pid ("Expected zero exit code but
# got -11 for pid: N"): a SIGSEGV of a process whose rank is not said, the failing test the thing to rerun alone
def test_a_test_harness_exit_by_pid_is_a_signal_of_an_unnamed_rank(tmp_path):
    text = ("AssertionError: Scalars are not equal!\n"
            "Expected 0 but got -11.\n"
            "Expected zero exit code but got -11 for pid: 40417\n"
            "FAILED [12.0113s] test_c10d_ops.py::ProcessGroupXCCLTest::test_reduce_scatter_coalesced\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "unknown" and not _accused(d), v
    assert "SIGSEGV" in v["summary"] and "run the failing test alone" in v["fix"], v


# --- round 57: an OOM shown only by memory_summary()'s count, a logger's rank prefix on its traceback record -------
def _memory_summary(ooms: int, retries: int) -> str:
    """The head of torch.cuda.memory_summary()'s table (torch/cuda/memory.py's format), numbers made up."""
    return ("|===========================================================================|\n"
            "|                  PyTorch CUDA memory summary, device ID 0                 |\n"
            "|---------------------------------------------------------------------------|\n"
            f"|            CUDA OOMs: {ooms:<13}|        cudaMalloc retries: {retries:<10}|\n"
            "|===========================================================================|\n"
            "|        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  |\n"
            "| Allocated memory      |   30112 MB |   38870 MB |  902115 MB |  872003 MB |\n"
            "| GPU reserved memory   |   39020 MB |   39410 MB |   80220 MB |   41200 MB |\n")


def test_memory_summarys_oom_count_is_a_gpu_oom_of_a_process_it_does_not_name(tmp_path):
    """An OOM handler (fairseq's) prints torch.cuda.memory_summary() after catching the OOM; pasted alone, its
    "CUDA OOMs: 2" row is the only sign of it: a GPU OOM, and the table names no rank (its device ID is the process's
    own GPU, not a rank: lead rule U (3)). "cudaMalloc retries" says the allocator had already freed its cache and
    retried, so empty_cache is no fix. A count of 0 (any healthy summary) is no failure."""
    d = _report(tmp_path, _memory_summary(2, 3))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("gpu_oom", []) and not _accused(d), v
    assert "CUDA OOMs: 2" in v["summary"] and "empty_cache" in v["fix"], v
    v = _verdict(tmp_path, _memory_summary(0, 0), "healthy.log")
    assert v["cause"] == "none", v


def test_a_loggers_rank_prefix_on_its_traceback_record_names_the_rank_of_the_oom_below(tmp_path):
    """A logger prefixes each record with its process's rank ("rank:  5 | TIME CRITICAL | ..."), and a record
    whose message is a traceback carries the prefix on its first line only: the frames and the OOM that ends it are
    the same record, that rank's own (lead rule I). A "rank: N |" column inside a table is no prefix."""
    text = ("rank:  5 | 2023-11-20 04:12:09,331 CRITICAL | Traceback (most recent call last):\n"
            '  File "/opt/app/trainer/loop.py", line 418, in train_step\n'
            "    loss.backward()\n"
            "RuntimeError: CUDA out of memory. Tried to allocate 6.25 GiB (GPU 5; 39.39 GiB total capacity; 31.02 GiB "
            "already allocated; 3.10 GiB free; 35.70 GiB reserved in total by PyTorch)\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("gpu_oom", [5]), v
    table = "| step 120 | rank: 2 | loss 3.41 | Traceback (most recent call last):\n" + text.split("\n", 1)[1]
    v = _verdict(tmp_path, table, "table.log")
    # the table's column is no prefix: rank 2 is not named (the OOM's own figures on GPU 5 may name rank 5 by rule BX)
    assert v["cause"] == "gpu_oom" and 2 not in v["culprits"], v


def test_a_lone_sigbus_fix_names_memory_mapped_files_and_host_memory(tmp_path):
    """Rule F: a lone SIGBUS is the shared-memory class, but a bus error is any page that cannot be backed: a
    memory-mapped file (a dataset's Arrow cache, the shards a save writes) on a full filesystem gives it too, and
    /dev/shm is host memory: the fix names both beside --shm-size."""
    v = _verdict(tmp_path, SIGTERM.format(pid=8802) + FAILED.format(code=-7, lr=0, pid=8801))
    assert (v["cause"], v["culprits"]) == ("dataloader_shm", [0]), v
    assert "--shm-size" in v["fix"] and "memory-mapped" in v["fix"] and "host memory" in v["fix"], v["fix"]


def test_a_lone_sigkill_fix_names_fewer_processes_per_node_and_swap(tmp_path):
    """Rule A: one worker SIGKILLed and the others only torn down is the host's OOM killer; every process of the
    node loads the model into host RAM at once, so the fix names fewer processes per node (or loading on rank 0
    only) and swap beside the memory limit."""
    text = "".join(SIGTERM.format(pid=p) for p in (6602, 6603, 6604)) + FAILED.format(code=-9, lr=0, pid=6601)
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("host_oom", [0]), v
    assert "fewer processes per node" in v["fix"] and "swap" in v["fix"] and "rank 0 only" in v["fix"], v["fix"]


# --- session 20 (fix58-Q6): pasted forms of a CUDA error read as the pasted log reads ---------------------------------
def test_an_invalid_ordinal_two_processes_printed_into_one_line_stays_the_launch_under_a_rank_tag(tmp_path):
    """Two workers raising 'invalid device ordinal' at once interleave their stderr ("ValueErrorValueError: ..."
    then ": ... invalid device ordinal"): more than one process failed alike (rules Q, U(2)), config, nobody -- also
    where a launcher or a paste put one rank's tag before every line. One tagged rank's own ordinal raised under its
    own code's frame stays its CUDA error."""
    body = ("RuntimeErrorRuntimeError: CUDA error: invalid device ordinal\n"
            "CUDA kernel errors might be asynchronously reported at some other API call.\n"
            ": CUDA error: invalid device ordinal\n")
    for prefix in ("", "[rank6]: ", "[default1]:"):
        text = "".join(prefix + x + "\n" for x in body.splitlines())
        d = _report(tmp_path, text)
        assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("config", []) and not _accused(d), (prefix, d)
        assert "nvidia-smi" in d["verdict"]["fix"]
    own = ("[rank6]: Traceback (most recent call last):\n"
           '[rank6]:   File "/srv/x/model.py", line 77, in forward\n'
           "[rank6]:     h = h.to(f'cuda:{self.stage + 4}')\n"
           "[rank6]: RuntimeError: CUDA error: invalid device ordinal\n")
    assert _verdict(tmp_path, own)["cause"] == "cuda_error"


def test_a_worker_records_unhandled_cuda_error_wrapped_at_80_columns_still_names_its_rank(tmp_path):
    """A vLLM worker's traceback logged line by line ("(VllmWorker rank=N pid=P) ERROR <date> [file:line] ...") and
    hard-wrapped at 80 columns: a cut inside a source line's indentation leaves the record's header and blanks
    (not a screen's padding), and a cut inside "RuntimeError" leaves "...Error:" in lower case (no class name): both
    are rejoined, so the rank's unhandled CUDA error at communicator creation names it as the pasted log does."""
    head = "(VllmWorker rank=5 pid=2210) ERROR 11-02 08:15:07 [multiproc_executor.py:512] "
    lines = [head + "  File \"/opt/venv/lib/python3.11/site-packages/vllm/distributed/device_communicators/"
             "pynccl.py\", line 99, in __init__",
             head + "    self.comm: ncclComm_t = self.nccl.ncclCommInitRank(",
             head + "  File \"/opt/venv/lib/python3.11/site-packages/vllm/distributed/device_communicators/"
             "pynccl_wrapper.py\", line 257, in NCCL_CHECK",
             head + "    raise RuntimeError(f\"NCCL error: {error_str}\")",
             head + "RuntimeError: NCCL error: unhandled cuda error (run with NCCL_DEBUG=INFO for details)"]
    text = "\n".join(lines) + "\n"
    whole = _verdict(tmp_path, text)
    assert (whole["cause"], whole["culprits"]) == ("cuda_error", [5]), whole
    wrapped = "\n".join("\n".join(x[k:k + 80] for k in range(0, len(x), 80)) for x in text.split("\n"))
    assert any(p.endswith("]   ") for p in wrapped.split("\n")), "the shape: a cut inside the indentation"
    assert any(p.startswith("ntimeError:") for p in wrapped.split("\n")), "the shape: a cut inside the class"
    v = _verdict(tmp_path, wrapped)
    assert (v["cause"], v["culprits"], v["confidence"]) == (whole["cause"], whole["culprits"], whole["confidence"]), v


# --- session 20 (fix59-s1): an OOM line a terminal cut before "this process has", a prefix on every piece (U (3)) ---
def test_a_cut_gpu0_oom_under_a_launchers_prefix_still_names_the_process_holding_gpu_0(tmp_path):
    """Round 59: one process's OOM on GPU 0 ("this process has X memory in use", no other process listed) in a
    single-node torchrun job names local rank 0 (rule U (3)). A terminal cut the OOM's line at its column before that
    phrase; a launcher's or collector's prefix on every piece ("[default0]:", "trainer-1  | ", a logging header) keeps
    the pieces from being joined as a paste, yet the rest on the next line still says who holds GPU 0: rank 0 however
    the lines are prefixed. With "this process has" absent, nobody is named."""
    head = ("torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 96.00 MiB. GPU 0 has a total capacty "
            "of 39.39 GiB of which 81.12 MiB is free. Including non-PyTorch memory, this process has 39.30 GiB memory ")
    rest = ("in use. Of the allocated memory 36.02 GiB is allocated by PyTorch, and 2.61 GiB is reserved by PyTorch "
            "but unallocated.")
    launch = "torchrun --nnodes 1 --nproc_per_node 4 --master_port 29700 train/pretrain.py --fsdp full_shard"
    cut = head[:140], head[140:] + rest
    for prefix in ("", "[default0]:", "trainer-1  | ", "[2024-05-01 12:00:00,123] [INFO] "):
        text = "".join(prefix + x + "\n" for x in (*cut, launch))
        v = _verdict(tmp_path, text, "oom.log")
        assert (v["cause"], v["culprits"]) == ("gpu_oom", [0]), (prefix, v)
    text = "".join("[default0]:" + x + "\n" for x in (head[:140], "is free.", launch))
    assert _verdict(tmp_path, text, "none.log")["culprits"] == []


# --- session 21 (round 60): c10's CUDA warning under a rank tag names whose untagged terminate follows (AN (1)) ----
def test_a_rank_tagged_cuda_warning_names_the_rank_of_the_untagged_terminate_after_it(tmp_path):
    """Lead rule AN (1): "[rank5]:[W ... CUDAGuardImpl.h:119] Warning: CUDA warning: an illegal memory access was
    encountered (function destroyEvent)" is rank 5's own CUDA context holding the error; the untagged "terminate
    called ... what(): CUDA error: ..." after it is that rank's: cuda_error, culprit 5. Without the tag (rule AC (1))
    nobody is named."""
    def paste(tag: str) -> str:
        return (f"{tag}[W1103 09:12:44.118204551 CUDAGuardImpl.h:119] Warning: CUDA warning: an illegal memory access "
                "was encountered (function destroyEvent)\n"
                "terminate called after throwing an instance of 'c10::Error'\n"
                "  what():  CUDA error: an illegal memory access was encountered\n"
                "For debugging consider passing CUDA_LAUNCH_BLOCKING=1\n")
    d = _report(tmp_path, paste("[rank5]:"), "tagged.log")
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("cuda_error", [5]), d["verdict"]
    d = _report(tmp_path, paste(""), "bare.log")
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("cuda_error", []) and not _accused(d), d["verdict"]


# --- session 21 (fix61 X1): a loader's own words for a library it cannot load; torch's driver-version refusal;
# a checkpoint's model-parallel size against the world launched ------------------------------------------------------
def test_a_frameworks_own_failed_to_load_library_error_is_the_install(tmp_path):
    """Lead rules AF (2) and AT (1): a framework's wrapper that loads a library by name says in its own words that it
    could not ("ERROR ... pynccl.py:53] Failed to load NCCL library from libnccl.so.2 ."), at its logger's error level,
    before a worker's set-up fails: the shared install, before any collective -- config, no rank, whatever NCCL the
    line names. The fix names the variable the message itself says points at the library, and LD_LIBRARY_PATH. The
    same words at INFO (its retelling) are no failure of their own."""
    text = ("INFO 05-14 09:12:40 utils.py:611] Found nccl from library libnccl.so.2\n"
            "ldd: ./libnccl.so.2: No such file or directory\n"
            "ERROR 05-14 09:12:40 pynccl.py:53] Failed to load NCCL library from libnccl.so.2 .Otherwise, the nccl "
            "library might not exist. If you already have the library, please set the environment variable "
            "VLLM_NCCL_SO_PATH to point to the correct nccl library path.\n"
            "ERROR 05-14 09:12:41 worker_base.py:160] Error executing method init_device. This might cause deadlock "
            "in distributed execution.\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "VLLM_NCCL_SO_PATH" in v["fix"] and "LD_LIBRARY_PATH" in v["fix"] and "libnccl.so.2" in v["fix"], v["fix"]
    info = "INFO 05-14 09:12:40 pynccl_utils.py:17] Failed to import NCCL library: Failed to load NCCL library from " \
           "libnccl.so.2 .\n"
    assert _verdict(tmp_path, info)["cause"] != "config"


def test_torchs_driver_too_old_refusal_is_a_cuda_error_of_the_host_not_a_rank(tmp_path):
    """Lead rule AT (1): torch's CUDA initialisation refusing the host's driver as older than its build's CUDA
    ("The NVIDIA driver on your system is too old (found version 11040)"), warned by torch.cuda.is_available() with
    nothing after it, or raised by the first CUDA call with torchrun's record of the one worker it saw exit: a CUDA
    call shown failing on the driver's version -- cuda_error, and the driver is the host's, so no rank (rule Q)."""
    warned = ("[2024-03-01 08:00:01,002] [INFO] [real_accelerator.py:158:get_accelerator] Setting ds_accelerator to "
              "cuda (auto detect)\n"
              "/opt/conda/lib/python3.11/site-packages/torch/cuda/__init__.py:141: UserWarning: CUDA initialization: "
              "The NVIDIA driver on your system is too old (found version 11040). Please update your GPU driver by "
              "downloading and installing a new version from the URL: http://www.nvidia.com/Download/index.aspx "
              "Alternatively, go to: https://pytorch.org to install a PyTorch version that has been compiled with your "
              "version of the CUDA driver. (Triggered internally at ../c10/cuda/CUDAFunctions.cpp:108.)\n"
              "  return torch._C._cuda_getDeviceCount() > 0\n")
    d = _report(tmp_path, warned)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("cuda_error", []) and not _accused(d), v
    assert "CUDA 11.4" in v["fix"] and "cu114" in v["fix"] and "update the NVIDIA driver" in v["fix"], v["fix"]
    raised = ("Traceback (most recent call last):\n  File \"train.py\", line 40, in <module>\n    model.cuda()\n"
              "RuntimeError: The NVIDIA driver on your system is too old (found version 10020). Please update your "
              "GPU driver.\n"
              "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 1 (pid: 4411) of "
              "binary: /usr/bin/python3\n")
    d = _report(tmp_path, raised)
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("cuda_error", []) and not _accused(d), d["verdict"]


def test_a_checkpoints_model_parallel_size_against_the_world_says_one_process_per_shard(tmp_path):
    """Lead rules W and AE: a loader's own check that the world matches the model-parallel size its checkpoint was
    saved with ("Loading a checkpoint for MP=2 but world size is 1"): config, no rank, and the fix says the world size
    must match the number of checkpoint shards -- torchrun --nproc_per_node 2 -- or the checkpoint resharded."""
    text = ("Traceback (most recent call last):\n"
            '  File "/home/u/llama/llama/generation.py", line 97, in build\n'
            "    assert model_parallel_size == len(\n"
            "AssertionError: Loading a checkpoint for MP=2 but world size is 1\n"
            "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 77120) of "
            "binary: /usr/bin/python3\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "--nproc_per_node 2" in v["fix"] and "number of checkpoint shards" in v["fix"], v["fix"]


# --- session 22, fix63 g1: every rank of the job failing on its own in torch.compile (lead rule J) ------------------
def _compile_both(nranks: int, advice: bool = True) -> str:
    """Rank 0 raises inductor's error (BackendCompilerFailed) in its forward; a vendor NCCL build's bracketed line
    gives the communicator's size; torchrun SIGTERMs one process and records local_rank 1 failing with exitcode 1."""
    return ("[rank0]:   File \"/usr/lib/python3.12/site-packages/torch/_inductor/pattern_matcher.py\", line 1425, "
            "in check_fn\n[rank0]:     raise RuntimeError(\n"
            "[rank0]: torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\n"
            "[rank0]: RuntimeError: Not all inputs to pattern found in match.kwargs. Perhaps one of the inputs is "
            "unused? argnames=['x', 'slice_shape']\n\n"
            + ("[rank0]: Set TORCHDYNAMO_VERBOSE=1 for the internal stack trace (please do this especially if you're "
               "reporting a bug to PyTorch). For even more developer context, set TORCH_LOGS=\"+dynamo\"\n\n"
               if advice else "")
            + "[master-0][101714:102099][1][proxy.cc:1354] NCCL INFO [Service thread] Connection closed by "
            "localRank 1\n"
            f"[master-0][101714:103566][1][init.cc:2595] NCCL INFO comm 0x5640 rank 1 nranks {nranks} hggcDev 1 "
            "busId c000 - Abort COMPLETE\n"
            "W0525 14:43:32.658000 101623 site-packages/torch/distributed/elastic/multiprocessing/api.py:908] Sending "
            "process 101713 closing signal SIGTERM\n"
            "E0525 14:43:32.923000 101623 site-packages/torch/distributed/elastic/multiprocessing/api.py:882] failed "
            "(exitcode: 1) local_rank: 1 (pid: 101714) of binary: /usr/local/bin/python3\n")


def test_every_rank_of_the_job_failing_in_torch_compile_names_nobody(tmp_path):
    """speculators-544: the bracketed NCCL line says nranks 2; rank 0 raises inductor's error and torchrun records
    rank 1 exiting with code 1: both ranks of the job failed on their own (rule J), nobody is the culprit, and the
    fix is torch.compile's (the newer 'Set TORCHDYNAMO_VERBOSE=1' advice line)."""
    d = _report(tmp_path, _compile_both(2))
    assert not _accused(d), d["verdict"]
    assert d["verdict"]["cause"] == "unknown"
    assert "torch.compile" in d["verdict"]["fix"] and "TORCHDYNAMO_VERBOSE" in d["verdict"]["fix"], d["verdict"]


def test_some_ranks_of_a_larger_job_failing_in_compile_are_still_named(tmp_path):
    """Near shape: the same two ranks failing in a communicator of 4 -- the rest were torn down, so the two that
    failed on their own are the culprits (rule J's second half)."""
    d = _report(tmp_path, _compile_both(4))
    assert _accused(d) == {0, 1}, d["verdict"]


# --- session 22, fix63 g1: torch's incompatible-device warning before a failure with no text of its own (AF (2)) ----
_ARCH_WARN = ("/usr/lib/python3.8/site-packages/torch/cuda/__init__.py:146: UserWarning: \nNVIDIA GeForce RTX 3090 "
              "with CUDA capability sm_86 is not compatible with the current PyTorch installation.\nThe current "
              "PyTorch install supports CUDA capabilities sm_37 sm_50 sm_60 sm_70.\n"
              "  warnings.warn(incompatible_device_warn.format(device_name, capability, \" \".join(arch_list), "
              "device_name))\n")


def _spawn_cut(tail: str = "") -> str:
    """mp.spawn's parent re-raising process 0's error, the child's traceback cut after its last frame (or TAIL)."""
    return ("Traceback (most recent call last):\n  File \"main.py\", line 85, in main\n"
            "    mp.spawn(worker, nprocs=n_gpus, args=(n_gpus, args))\n"
            "  File \"/usr/lib/python3.8/site-packages/torch/multiprocessing/spawn.py\", line 160, in join\n"
            "    raise ProcessRaisedException(msg, error_index, failed_process.pid)\n"
            "torch.multiprocessing.spawn.ProcessRaisedException: \n\n"
            "-- Process 0 terminated with the following error:\nTraceback (most recent call last):\n"
            "  File \"/usr/lib/python3.8/site-packages/torch/multiprocessing/spawn.py\", line 69, in _wrap\n"
            "    fn(i, *args)\n  File \"/work/main.py\", line 102, in worker\n    torch.distributed.barrier()\n"
            + tail)


def test_an_incompatible_gpu_arch_warning_before_a_cut_failure_is_config_naming_nobody(tmp_path):
    """ssit-19: torch's incompatible-device warning (the whole message, or only the echoed source line), then spawn's
    Process 0 dies in its first barrier, its exception cut: the build the GPU cannot run is the cause every process
    shares -- config, nobody named (not spawn's lone child)."""
    for warn in (_ARCH_WARN, _ARCH_WARN.splitlines(keepends=True)[-1]):
        d = _report(tmp_path, warn + _spawn_cut())
        assert d["verdict"]["cause"] == "config", d["verdict"]
        assert not _accused(d), d["verdict"]
        assert "torch.cuda.get_arch_list()" in d["verdict"]["fix"]


def test_an_incompatible_gpu_arch_warning_beside_a_shown_exception_is_not_read_alone(tmp_path):
    """Near shape: the same warning, but the child's exception is shown with its own text (a ValueError of the
    script): that exception is read by its own rules, not the warning."""
    d = _report(tmp_path, _ARCH_WARN + _spawn_cut("ValueError: batch size 0 is not allowed\n"))
    assert d["verdict"]["cause"] != "config", d["verdict"]


# --- session 22, fix63 g1: Open MPI's "MPI_ABORT was invoked on rank N" is that rank's own end (lead rules A, I) ----
_MPI_ABORT = ("--------------------------------------------------------------------------\n"
              " MPI_ABORT was invoked on rank {r} in communicator MPI COMMUNICATOR 5 DUP FROM 0\n"
              "with errorcode {code}.\n\n"
              "NOTE: invoking MPI_ABORT causes Open MPI to kill all MPI processes.\n"
              "You may or may not see output from other processes, depending on\n"
              "exactly when Open MPI kills them.\n"
              "--------------------------------------------------------------------------\n")


def test_an_mpi_abort_record_names_its_rank(tmp_path):
    """sagemaker-examples-3827: Open MPI's record that rank 2 invoked MPI_ABORT with errorcode 1 (its code on the
    next line), nothing else: the launcher's record of one rank ending on its own names it (rule A), cause unknown."""
    d = _report(tmp_path, _MPI_ABORT.format(r=2, code=1))
    assert _accused(d) == {2}, d["verdict"]
    assert d["verdict"]["cause"] == "unknown"


def test_an_mpi_abort_with_errorcode_0_or_a_rank_waiting_is_not_named(tmp_path):
    """Near shapes: MPI_ABORT with errorcode 0 is no failure; and a rank whose own watchdog timed out before it called
    MPI_Abort is inside the collective, not named alone by its abort."""
    d = _report(tmp_path, _MPI_ABORT.format(r=2, code=0))
    assert not _accused(d), d["verdict"]
    text = (watchdog_line(2, 7, "ALLREDUCE", 1800066, 1800000) + watchdog_line(1, 7, "ALLREDUCE", 1800070, 1800000)
            + _MPI_ABORT.format(r=2, code=1))
    d = _report(tmp_path, text)
    assert 2 not in _accused(d), d["verdict"]


# --- session 22, fix63 g1: older SGLang's "[.. TPn] Exception in run_tp_server:" record, its exception cut --------
def _sglang_capture(record: str) -> str:
    """Eight TP processes begin capturing CUDA graphs together; then RECORD, and its traceback cut after a frame."""
    begin = "".join(f"[23:17:01 TP{r}] Capture cuda graph begin. This can take up to several minutes.\n"
                    for r in (3, 1, 6, 4, 5, 2, 7, 0))
    return (begin + record + "\nTraceback (most recent call last):\n  File \"/sgl-workspace/sglang/python/sglang/srt/"
            "model_executor/cuda_graph_runner.py\", line 147, in __init__\n    self.capture()\n")


def test_an_sglang_tp_exception_record_with_its_error_cut_names_that_rank(tmp_path):
    """sglang-1479: only TP4 records 'Exception in run_tp_server:' (no DP/PP index: TP4 is rank 4), the paste cut
    before the exception's line: TP4 failed on its own (rules A, I), cause unknown, the graph-capture fix."""
    d = _report(tmp_path, _sglang_capture("[23:17:08 TP4] Exception in run_tp_server:"))
    assert _accused(d) == {4}, d["verdict"]
    assert d["verdict"]["cause"] == "unknown"
    assert "--disable-cuda-graph" in d["verdict"]["fix"]


def test_an_sglang_exception_record_of_a_grouped_or_several_tp_names_nobody(tmp_path):
    """Near shapes: the record with a DP index ('DP1 TP4': a rank inside a group only), or two TP processes each
    recording one, names no rank."""
    for rec in ("[23:17:08 DP1 TP4] Exception in run_tp_server:",
                "[23:17:08 TP4] Exception in run_tp_server:\n[23:17:08 TP2] Exception in run_tp_server:"):
        d = _report(tmp_path, _sglang_capture(rec))
        assert not _accused(d), d["verdict"]


def test_a_librarys_argument_check_on_one_settings_value_is_config_whichever_rank_tag(tmp_path):
    """Rules W, AW and AG (nvtabular-690): an mpirun-tagged ([1,0]<stderr>) traceback ending in a library's own
    argument check, ValueError: num_buckets 0 < 1, states a setting's value outside its bound -- the same settings
    and data for every worker: config, nobody named, the fix names the argument. A ValueError of other words on the
    same tagged lines stays rank 0's own exception (lead rule A)."""
    tb = ("[1,0]<stderr>:Traceback (most recent call last):\n"
          "[1,0]<stderr>:  File \"trainer.py\", line 92, in <module>\n"
          "[1,0]<stderr>:    tf.feature_column.categorical_column_with_identity(\n"
          "[1,0]<stderr>:  File \"/opt/conda/lib/python3.8/site-packages/tensorflow/python/feature_column/"
          "feature_column_v2.py\", line 1569, in categorical_column_with_identity\n"
          "[1,0]<stderr>:    raise ValueError(\n"
          "[1,0]<stderr>:ValueError: {msg}\n")
    d = _report(tmp_path, tb.format(msg="num_buckets 0 < 1, column_name movieId"))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "num_buckets" in v["fix"] and "cardinality" in v["fix"], v
    other = _report(tmp_path, tb.format(msg="could not convert string to float: 'movieId'"))
    assert other["verdict"]["cause"] != "config" and other["verdict"]["culprits"] == [0], other["verdict"]


def test_ranks_of_one_node_each_failing_their_own_cuda_call_at_once_name_nobody(tmp_path):
    """Lead rules J and V (2) (dra-driver-957): mpirun-tagged nccl-tests ranks 4-6 fail in the same second, rank 5
    on the test's 'unhandled cuda error' and ranks 4 and 6 on NCCL's own 'Cuda failure' WARN (two texts): no rank
    failed first, the GPUs / driver / NVLink domain they share did -- cuda_error, nobody named. The same WARNs a
    minute apart leave rank 4 failing first: not this reading."""
    text = ("[1,5]<stdout>:worker-1: Test NCCL failure all_reduce.cu:44 'unhandled cuda error (run with "
            "NCCL_DEBUG=INFO for details) / '\n"
            "[1,4]<stdout>:[2026-03-19 19:40:08] worker-1:146:146 [0] enqueue.cc:1672 NCCL WARN Cuda failure "
            "'unspecified launch failure'\n"
            "[1,6]<stdout>:[2026-03-19 19:{m}:08] worker-1:148:148 [2] enqueue.cc:1672 NCCL WARN Cuda failure "
            "'the operation cannot be performed in the present state'\n")
    d = _report(tmp_path, text.format(m="40"))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("cuda_error", []) and not _accused(d), v
    assert "NVLink" in v["fix"] and "Xid" in v["fix"], v
    apart = _report(tmp_path, text.format(m="41"))
    assert "failed on its own CUDA call inside NCCL at once" not in apart["verdict"]["summary"], apart["verdict"]


def test_a_launchers_check_call_of_one_workers_command_names_that_worker_index(tmp_path):
    """Lead rules A, I, AC (4) (hybridbackend-153): TensorFlow's distribute launcher raises check_call's
    CalledProcessError for the worker command it ran, '--worker_index=0' among its arguments (the paste cut the line
    before its status: check_call raises only for a non-zero one), under that worker's ncclSystemError at communicator
    creation: the record names worker 0 -- nccl_system, culprit 0. The same error for a command with no index of its
    own names nobody."""
    text = ("2023-10-16 16:57:39.928906: E nccl/nccl_collective.cc:461] NCCL communication aborted: unhandled system "
            "error\n"
            "2023-10-16 16:57:40.323595: W tensorflow/core/framework/op_kernel.cc:1651] OP_REQUIRES failed at "
            "nccl_create.cc:112 : Internal: unhandled system error\n"
            "Traceback (most recent call last):\n"
            "File \"/usr/local/lib/python3.8/dist-packages/tensorflow_core/python/distribute/launch.py\", line 97, in "
            "launch\n"
            "subprocess.check_call(command)\n"
            "File \"/usr/lib/python3.8/subprocess.py\", line 364, in check_call\n"
            "raise CalledProcessError(retcode, cmd)\n"
            "subprocess.CalledProcessError: Command '['/usr/bin/python', '-u', 'run.py'{arg}\n")
    d = _report(tmp_path, text.format(arg=", '--worker_index=0'"))
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("nccl_system", [0]), d["verdict"]
    plain = _report(tmp_path, text.format(arg=", '--epochs=3'"))
    assert plain["verdict"]["cause"] == "nccl_system" and plain["verdict"]["culprits"] == [], plain["verdict"]
    assert not _accused(plain)
