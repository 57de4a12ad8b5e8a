"""How diagnose reads round 65's set-up failures of fixer g2 (session 23): NCCL debug lines whose host:pid:tid header
the reporter cut down, which are no hard wrap; HCCL's EI0007 resources of its links refused (rule J); PSM3's cross
memory attach refused by the host (rules J, AQ (1)); Ascend's runtime refusing a device id at communicator creation
(rules AN (2), AU (2), BA (5)); and NCCL's "Duplicate GPU detected" under another code than invalid usage (rule Q).
Each test reads the shape from lines other than the corpus case's own (other ranks, hosts, sizes, wordings), and a
near shape that must NOT be read that way. Hosts, pids and paths are made up."""

from __future__ import annotations

from ncclDoctor.diagnose import ingest
from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict


# --- NCCL debug lines with a cut-down header ("gpu [3] NCCL INFO ...") are lines of their own, not a wrap ----------
def _ipc_lines(name: str, ranks: range) -> str:
    out = []
    for r in ranks:
        out.append(f"{name} [{r}] NCCL INFO transport/p2p.cc:250 Cuda Alloc Size 4194304 pointer 0x7f00{r}0000 "
                   "flags 3")
        out.append(f"[2026-03-02 11:20:05] {name} [{r}] transport/p2p.cc:256 NCCL WARN hipIpcGetMemHandle failed : "
                   "invalid argument")
    return "\n".join(out) + "\n"


def test_whole_nccl_lines_of_one_width_with_a_cut_down_header_are_no_hard_wrap(tmp_path):
    """Every rank's WARN line has the same width and is the longest: a line after it that starts with NCCL's header
    ("gpu [1] NCCL INFO", its host:pid:tid cut down to a name) is a record of its own, never the WARN's rest -- so the
    WARN is read whole, the P2P/IPC failure every rank shares (rules V (2), J): cuda_error, nobody named."""
    text = _ipc_lines("gpu", range(3))
    assert ingest.wrap_width(text.encode()) is None
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("cuda_error", []) and not _accused(d), v
    assert "P2P/IPC" in v["fix"] and "NCCL_P2P_DISABLE" in v["fix"], v["fix"]


def test_a_line_really_cut_at_the_column_is_still_joined_with_its_rest(tmp_path):
    """The near shape: pieces of one line cut at the same column, whose rests start with no header, are a hard wrap."""
    whole = ("gpu [0] NCCL WARN Cuda failure 'invalid argument' while registering the peer buffer of size 4194304 "
             "for the P2P transport of channel 02")
    cut = [whole[:80], whole[80:]]
    other = ("gpu [1] NCCL WARN Cuda failure 'invalid argument' while registering the peer buffer of size 4194304 "
             "for the P2P transport of channel 05")
    text = "\n".join(cut + [other[:80], other[80:]]) + "\n"
    assert ingest.wrap_width(text.encode()) == 80


# --- HCCL's EI0007: the resources of its links refused at set-up -----------------------------------------------
def _ei0007(reason: str) -> str:
    return (f"[PID: 4410] 2026-02-03-11:04:19.120.881 Allocation_Failure(EI0007): Failed to allocate resource[qp] "
            f"with info [aicpu rank:6,localUserrank:6,localIpAddr: 10.20.1.7,deviceLogicId:6,send_cq_depth:16384]. "
            f"Reason: {reason}\n"
            "        TraceBack (most recent call last):\n"
            + "".join(f"        Transport init error. Reason: [Create][DestLink]Create Dest error! creakLink para:"
                      f"rank[6]-localUserrank[6]-localIpAddr[10.20.3.7], dst_rank[{d}]-remoteUserrank[{d}]-"
                      f"remote_ip_addr[10.20.3.8]\n" for d in (8, 9)))


def test_hccl_refusing_its_links_resources_for_lack_of_memory_is_the_hosts_set_up(tmp_path):
    """Rule J: HCCL's EI0007 'Failed to allocate resource[qp] ... Memory resources are exhausted' at set-up is the
    host refusing its links' RDMA resources; the link-creation errors after it follow from it: nccl_system, no rank
    (not the peer failing to answer)."""
    d = _report(tmp_path, _ei0007("Memory resources are exhausted."))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("nccl_system", []) and not _accused(d), v
    assert "HCCL_BUFFSIZE" in v["fix"] and "ulimit -l" in v["fix"], v["fix"]


def test_hccl_links_failing_without_the_resource_exhausted_stay_the_peers_set_up(tmp_path):
    """The near shapes: the same allocation with another reason (no EI0007 code, no memory exhausted) is not read as
    resources refused, and the link errors alone stay the connection failing at set-up (network_setup)."""
    text = _ei0007("Invalid parameter.").replace("Allocation_Failure(EI0007): ", "")
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("network_setup", []), v
    links = "".join(line + "\n" for line in _ei0007("x").splitlines() if "Create Dest" in line)
    v = _verdict(tmp_path, links)
    assert v["cause"] == "network_setup", v


# --- PSM3's cross memory attach refused by the host ---------------------------------------------------------------
_PSM_ASSERT = "node7:rank0: Assertion failure at psm3/ptl_am/ptl.c:196: nbytes == req->req_data.recv_msglen\n"


def test_psm3_disabling_cma_after_its_read_failed_is_the_hosts_ptrace_restriction(tmp_path):
    """Rules J, AQ (1): PSM3 (under Intel MPI / oneCCL) failing to read a peer's memory through cross memory attach
    and disabling it is the host refusing it (ptrace_scope, a container without SYS_PTRACE); the assertion of its
    shared-memory path after it follows from it: nccl_system, no rank -- not the rank the assertion's prefix names."""
    text = ("$ I_MPI_DEBUG=5 mpirun -np 4 ./bench_allgather\n"
            "[1712000000.101] node7:rank2.bench_allgather: Reading from remote process' memory failed. Disabling CMA "
            "support\n" + _PSM_ASSERT)
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("nccl_system", []) and not _accused(d), v
    assert "ptrace_scope" in v["fix"] and "FI_PROVIDER" in v["fix"] and "CMA" in v["summary"], v


def test_the_psm3_assertion_alone_is_not_read_as_cma_refused(tmp_path):
    """The near shape: the same assertion with no CMA line before it says nothing of the host's refusal."""
    v = _verdict(tmp_path, "$ mpirun -np 4 ./bench_allgather\n" + _PSM_ASSERT)
    assert v["cause"] != "nccl_system" and "ptrace_scope" not in v["fix"], v


# --- Ascend's runtime refusing a device id at communicator creation --------------------------------------------
def _npu_comm_init(reason: str) -> str:
    return ("[rank3]: RuntimeError: create_config:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:102 HCCL function "
            "error: hcclCommInitRootInfoConfig(numRanks, &rootInfo, rank, config, &(comm->hcclComm_)), error code is "
            "15\n"
            "[rank3]: [ERROR] 2026-01-12-08:40:02 (PID:77120, Device:3, RankID:3) ERR02200 DIST call hccl api failed.\n"
            "[rank3]: EE9999: Inner Error!\n"
            "[rank3]:         TraceBack (most recent call last):\n"
            f"[rank3]:        rtGetDeviceIndexByPhyId execute failed, reason=[{reason}][FUNC:FuncErrorReason]"
            "[FILE:error_message_manage.cc][LINE:53]\n")


def test_an_npu_device_id_error_at_communicator_creation_is_the_launchs_device(tmp_path):
    """Rules AN (2), AU (2), BA (5): Ascend's runtime refusing the device id it maps while HCCL creates the
    communicator is the NPU's invalid device ordinal -- the device the launch gave the process: config, no rank (not
    rank 3's own failure because its lines carry its tag)."""
    d = _report(tmp_path, _npu_comm_init("device id error"))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "ASCEND_RT_VISIBLE_DEVICES" in v["fix"] and "CANN" in v["fix"], v["fix"]


def test_the_same_call_failing_for_another_reason_is_no_device_ordinal(tmp_path):
    """The near shape: the same runtime call failing with a driver error names no device id refused: not config."""
    v = _verdict(tmp_path, _npu_comm_init("driver error:internal error"))
    assert v["cause"] != "config", v


# --- "Duplicate GPU detected" under torch's "internal error" ----------------------------------------------------
def _nccl_internal(last: str) -> str:
    return ("torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:"
            "1275, internal error, NCCL version 2.14.3\n"
            "ncclInternalError: Internal check failed.\n"
            "Last error:\n"
            f"{last}\n")


def test_duplicate_gpu_under_an_internal_error_code_is_still_two_ranks_on_one_gpu(tmp_path):
    """Rule Q: NCCL's own 'Duplicate GPU detected' under 'Last error:' names the refusal, whatever code torch printed
    above it: invalid_usage, no rank, the set_device fix."""
    text = _nccl_internal("Duplicate GPU detected : rank 2 and rank 3 both on CUDA device 41000")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not _accused(d), v
    assert "set_device" in v["fix"] and "LOCAL_RANK" in v["fix"], v["fix"]


def test_an_internal_error_with_another_last_error_stays_nccls_internal_error(tmp_path):
    """The near shape: the same internal error whose last error says something else is not two ranks on one GPU."""
    v = _verdict(tmp_path, _nccl_internal("Proxy Call to rank 1 failed (Setup)"))
    assert v["cause"] != "invalid_usage", v


# --- a collector's clock before glog's INFO header takes the level with it --------------------------------------
def _glog(level: str) -> str:
    return (f"2025-06-01 09:00:00.500 {level}0611 08:59:59.904211 2231 ProcessGroupNCCL.cpp:484] [Rank 5] found async "
            "exception when checking for NCCL errors: NCCL communicator encountered error set by ProcessGroupNCCL: "
            "Process Group shutdown on rank 5\n")


def test_a_glog_info_line_behind_a_collectors_clock_is_still_info(tmp_path):
    """glog's 'I0611 08:59:59' header split by the stripping of a collector's clock (the level left with the clock,
    the body starting at glog's own time) is still an INFO line, no failure: the same reading as without the clock."""
    assert _verdict(tmp_path, _glog("I"))["cause"] == "none"
    assert _verdict(tmp_path, _glog("I")[24:])["cause"] == "none"


def test_the_same_line_at_glogs_error_level_is_still_a_failure(tmp_path):
    """The near shape: the same line at glog's E level behind the clock still says something failed."""
    assert _verdict(tmp_path, _glog("E"))["cause"] != "none"
