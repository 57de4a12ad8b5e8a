"""How diagnose reads GPU platform failures and words their fixes (round 108, session 45, fixer f3): torch's raised
'Unexpected error from cudaGetDeviceCount()' with CUDA's 804 (forward compatibility on a GPU that cannot use it) or
803 (driver libraries not the kernel module's), the NVIDIA fabric manager's own ERROR refusing an NVLS multicast team,
the driver's Xid 119 (GSP RPC timeout) and the application Xids 13 / 31, 802's fabric manager version, NCCL's topology
WARN for a NIC node, and an OOM's batch size. Each test reads the shape from lines other than the case's own (other
prefixes, pids, handles, PCI addresses, paths, numbers) and a near shape that keeps its old reading. Format strings
are torch's (c10/cuda/CUDAFunctions.cpp), the fabric manager's log, the NVIDIA driver's NVRM Xid lines and NCCL's
graph/xml.h; hosts, pids and paths are made up."""

from __future__ import annotations

from tests.conftest import verdict_accused

_DEVCOUNT = ("RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling "
             "NumCudaDevices() that might have already set an error? Error {code}: {err}\n")
_TB = ('  File "/opt/env/lib/python3.11/site-packages/torch/cuda/__init__.py", line 301, in _lazy_init\n'
       "    torch._C._cuda_init()\n")


# --- 804 / 803 at torch's CUDA initialisation -------------------------------------------------------------------------
def test_804_forward_compat_under_a_compose_prefix_is_the_hosts_install(tmp_path):
    """Lead rules AT (1), V (2): the raised device-count error with 804 under a compose service's prefix and a Ray
    actor's error after it: cuda_error, nobody; the fix names the driver / image match and the compat libraries."""
    text = "".join(f"inference-api-2  | {line}\n" for line in (_TB + _DEVCOUNT.format(
        code=804, err="forward compatibility was attempted on non supported HW")).splitlines()) + (
        "inference-api-2  | (RayWorkerWrapper pid=1207) ERROR 02-11 10:21:33 worker_base.py:160] Error executing "
        "method init_device. This might cause deadlock in distributed execution.\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "cuda_error" and not acc, v
    assert "/usr/local/cuda/compat" in v["fix"] and "LD_LIBRARY_PATH" in v["fix"], v
    assert "host NVIDIA driver" in v["fix"], v


def test_804_in_a_workers_error_log_reads_the_same(tmp_path):
    """The same error inside vLLM's worker error log lines (worker_base's 'ERROR date file:line]' prefix)."""
    text = "".join(f"ERROR 07-19 03:14:15 worker_base.py:151] {line}\n" for line in (_TB + _DEVCOUNT.format(
        code=804, err="forward compatibility was attempted on non supported HW")).splitlines())
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "cuda_error" and not acc, v
    assert "forward compatibility" in v["fix"], v


def test_803_driver_mismatch_is_the_hosts_install_too(tmp_path):
    """803 (cudaErrorSystemDriverMismatch) at the same call: the driver libraries and the module disagree."""
    text = "[rank3]: " + _DEVCOUNT.format(code=803,
                                          err="system has unsupported display driver / cuda driver combination")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "cuda_error" and not acc, v
    assert "nvidia-container-toolkit" in v["fix"] and "803" in v["summary"], v


def test_804_under_a_rank_tag_and_a_launcher_record_is_still_the_host(tmp_path):
    """As 802 under a tag: one rank's traceback and torchrun's record of that local rank do not make 804 its fault --
    every process on that host loads the same CUDA stack (lead rules AF (2), V (2))."""
    text = ("[rank0]: step 3 loss 0.9\n"
            "[rank1]:Traceback (most recent call last):\n"
            '[rank1]:  File "/srv/job/main.py", line 12, in <module>\n'
            "[rank1]:    torch.cuda.set_device(local_rank)\n"
            "[rank1]:" + _DEVCOUNT.format(code=804, err="forward compatibility was attempted on non supported HW")
            + "E0202 01:02:03.000 torch/distributed/elastic/multiprocessing/api.py:881] failed (exitcode: 1) "
            "local_rank: 1 (pid: 4321) of binary: /usr/bin/python3\n")
    v, acc = verdict_accused(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("cuda_error", []) and not acc, v
    assert "forward compatibility" in v["fix"], v


def test_another_device_count_code_keeps_its_old_reading(tmp_path):
    """The near shape: the same raised form with 100 (no device) is not read as the host's install -- while 804 is."""
    near, _ = verdict_accused(tmp_path, _DEVCOUNT.format(code=100, err="no CUDA-capable device is detected"))
    assert "forward compatibility" not in near["fix"] and "forward-compatibility" not in near["summary"], near
    v, acc = verdict_accused(tmp_path, _DEVCOUNT.format(
        code=804, err="forward compatibility was attempted on non supported HW"))
    assert v["cause"] == "cuda_error" and not acc and "forward compatibility" in v["fix"], v


# --- the fabric manager refusing an NVLS multicast team ---------------------------------------------------------------
_FM_ERR = ("[Feb 02 2025 04:05:06] [ERROR] [tid 88123] failed to find the GPU handle 9911223344556677 in the "
           "multicast team request setup 5566778899001122.\n")


def test_fabric_managers_multicast_team_error_is_the_platform(tmp_path):
    """Lead rule V (2)'s platform reading: the fabric manager's ERROR refusing a multicast team, between its INFO
    lines of the request and the response: cuda_error, nobody; the fix disables NVLS and restarts the fabric
    manager."""
    text = ("[Feb 02 2025 04:05:06] [INFO] [tid 88001] Received an inband message:  Message header details: magic "
            "Id:adbc request Id:1a2b3c status:0 type:2 length:46\n"
            "Message payload details:Team setup request: Allocation Size:40000000 Flags:0 Number of GPUs:4\n"
            + _FM_ERR +
            "[Feb 02 2025 04:05:06] [INFO] [tid 88001] Sending inband response message:  Message header details: "
            "magic Id:adbc request Id:1a2b3c status:57 type:3 length:24\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "cuda_error" and not acc, v
    assert "NCCL_NVLS_ENABLE=0" in v["fix"] and "restart nvidia-fabricmanager" in v["fix"], v


def test_fabric_managers_other_lines_are_not_a_multicast_refusal(tmp_path):
    """The near shapes: the fabric manager's INFO lines of a team request alone, and an ERROR of another topic, are
    not read as the multicast refusal -- while its multicast ERROR is."""
    info = ("[Feb 02 2025 04:05:06] [INFO] [tid 88001] Received an inband message: Team setup request for the "
            "multicast team of 4 GPUs\n")
    v, acc = verdict_accused(tmp_path, info)
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    other = "[Feb 02 2025 04:05:06] [ERROR] [tid 88002] failed to open the NVSwitch device node\n"
    v, acc = verdict_accused(tmp_path, other)
    # read, as an error no family names (not as nothing), and not as the multicast refusal
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc and "NVSwitch device node" in v["summary"], v
    assert "NCCL_NVLS_ENABLE=0 (disable" not in v["fix"], v
    v, acc = verdict_accused(tmp_path, _FM_ERR)
    assert v["cause"] == "cuda_error" and not acc and "NCCL_NVLS_ENABLE=0" in v["fix"], v


# --- Xid fix words ----------------------------------------------------------------------------------------------------
def test_xid_119_gsp_timeout_names_the_gsp_firmware(tmp_path):
    """Xid 119 (GSP RPC timeout) on one GPU, from a node service's process: the GPU/driver, nobody; the fix names
    the driver's GSP fixes and turning GSP firmware off."""
    text = ("node7 kern: warning: [2025-03-01T10:00:01Z]: NVRM: _issueRpcAndWait: rpcRecvPoll timedout for fn 10 "
            "sequence 912!\n"
            "node7 kern: warning: [2025-03-01T10:00:46Z]: NVRM: Xid (PCI:0000:8a:00): 119, pid=4410, "
            "name=dcgm-exporter, Timeout after 45s of waiting for RPC response from GPU5 GSP! Expected function 10 "
            "(FREE) sequence 913\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "cuda_error" and not acc, v
    assert "NVreg_EnableGpuFirmware=0" in v["fix"] and "GSP RPC timeouts" in v["fix"], v


def test_application_xids_name_the_cuda_coredump(tmp_path):
    """Xid 31 of one process and Xid 13 of one GPU (the application's kernel faulting): the fix adds a CUDA coredump
    on exception to pin the kernel."""
    for line in ("[Mon Mar  3 09:09:09 2025] NVRM: Xid (PCI:0000:c1:00): 31, pid=77120, name=python, channel "
                 "0x00000011, intr 00000000. MMU Fault: ENGINE GRAPHICS GPC3 GPCCLIENT_T1_2 faulted @ 0x7a1c_1000000. "
                 "Fault is of type FAULT_PDE ACCESS_TYPE_VIRT_WRITE\n",
                 "[Mon Mar  3 09:09:09 2025] NVRM: Xid (PCI:0000:1d:00): 13, Graphics SM Warp Exception on (GPC 4, "
                 "TPC 2, SM 0): MMU Fault\n"):
        v, acc = verdict_accused(tmp_path, line)
        assert v["cause"] == "cuda_error" and not acc, v
        assert "CUDA_ENABLE_COREDUMP_ON_EXCEPTION=1" in v["fix"], v


def test_a_hardware_xid_keeps_its_hardware_fix(tmp_path):
    """The near shape: Xid 79 (fallen off the bus) keeps the hardware fix, neither the GSP words nor the coredump --
    while Xid 120 (GSP error) gets the GSP words."""
    v, _ = verdict_accused(tmp_path, "NVRM: Xid (PCI:0000:41:00): 79, pid=0, GPU has fallen off the bus.\n")
    assert v["cause"] == "cuda_error", v
    assert "NVreg_EnableGpuFirmware" not in v["fix"] and "COREDUMP" not in v["fix"] and "dcgmi" in v["fix"], v
    v, _ = verdict_accused(tmp_path, "NVRM: Xid (PCI:0000:41:00): 120, pid=0, GSP task timeout @ pc:0x1, "
                                     "partition:0#0\n")
    assert "NVreg_EnableGpuFirmware=0" in v["fix"], v


# --- 802's fabric manager version -------------------------------------------------------------------------------------
def test_802_fix_says_the_fabric_manager_version_must_match_the_driver(tmp_path):
    text = "".join(f"(Worker_TP{r} pid={90 + r}) ERROR 05-05 05:05:05 [multiproc_executor.py:612] "
                   + _DEVCOUNT.format(code=802, err="system not yet initialized") for r in (0, 1))
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "cuda_error" and not acc, v
    assert "fabric manager version must match the NVIDIA driver version exactly" in v["fix"], v


# --- NCCL's topology XML: a NIC node ----------------------------------------------------------------------------------
def test_a_nic_node_without_its_busid_names_the_nic_nccl_detects(tmp_path):
    """Lead rule AT (3): 'Attribute busid of node nic not found' as the Last error of an internal error: nccl_internal,
    nobody; the fix shows which NIC NCCL detects and how to exclude a virtual one."""
    text = ("torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/"
            "ProcessGroupNCCL.cpp:1970, internal error - please report this issue to the NCCL developers, NCCL "
            "version 2.19.3\n"
            "ncclInternalError: Internal check failed.\n"
            "Last error:\n"
            "Attribute busid of node nic not found\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "nccl_internal" and not acc, v
    assert "NCCL_DEBUG_SUBSYS=INIT,GRAPH" in v["fix"] and "NCCL_SOCKET_IFNAME" in v["fix"], v


def test_a_cpu_node_attribute_keeps_the_topology_file_fix(tmp_path):
    """The near shape: a <cpu> node's missing attribute keeps its fix (the topology file, NCCL 2.8's bug), no NIC
    words -- while a <nic> node's gets them."""
    v, _ = verdict_accused(tmp_path, "h2:31:31 [1] graph/xml.h:85 NCCL WARN Attribute arch of node cpu not found\n")
    assert v["cause"] == "nccl_internal" and "familyid" in v["fix"] and "NCCL_SOCKET_IFNAME" not in v["fix"], v
    v, _ = verdict_accused(tmp_path, "h2:31:31 [1] graph/xml.h:85 NCCL WARN Attribute busid of node nic not found\n")
    assert v["cause"] == "nccl_internal" and "NCCL_SOCKET_IFNAME" in v["fix"], v


# --- an OOM's batch size ----------------------------------------------------------------------------------------------
def test_an_ooms_fix_says_reduce_batch_size(tmp_path):
    text = ("RuntimeError: CUDA out of memory. Tried to allocate 2.50 GiB (GPU 3; 79.15 GiB total capacity; 75.02 GiB "
            "already allocated; 1.10 GiB free; 76.00 GiB reserved in total by PyTorch)\n"
            "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 3 (pid: 5120) of "
            "binary: /usr/bin/python3\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "gpu_oom" and acc == {3}, v
    assert "reduce batch size" in v["fix"] and "gradient accumulation" in v["fix"], v
