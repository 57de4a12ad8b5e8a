"""How diagnose reads round 64's set-up failures of fixer f3 (session 23): torch_npu's HCCL unique-id wait whose store
closed under a vLLM multiprocessing worker (rules AT (2), AZ (1)), a collective library's root-info call failing with
a bare status (rules L, AZ (2)), NCCL handed a NULL communicator (rules Q, W), a framework's communication layer
refusing the nccl backend its build lacks (rule Q's last sentence), and a framework's own KV-store / RPC sockets that
cannot bind or get no answer (rule AQ (3)). Each test reads the shape from lines other than the corpus case's own
(other ranks, ports, paths, wordings), and a near shape that must NOT be read that way. Hosts, pids and paths are
made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict


# --- torch_npu's ProcessGroupHCCL: the hcclUniqueId read from the store -------------------------------------------
def _hccl_wait(prefix: str, rank: int, err: str) -> str:
    return (f"{prefix}RuntimeError: [{rank}] is setting up HCCL communicator and retrieving hcclUniqueId from [0] via "
            f"c10d key-value store by key '0', but store->get('0') got error: {err}\n"
            f"{prefix}Exception raised from recvBytes at /pytorch/torch/csrc/distributed/c10d/Utils.hpp:672\n")


def test_a_vllm_workers_hccl_unique_id_read_cut_names_the_driver_that_hosts_the_store(tmp_path):
    """Rules AT (2), AZ (1): vLLM's multiprocessing workers are spawned by the job's main process (rank 0, the
    driver worker), which hosts the store: a worker's read of HCCL's unique id cut ('got 0 bytes') is that host gone
    first -- early_exit, rank 0 named, the reading worker innocent."""
    text = _hccl_wait("(VllmWorkerProcess pid=7702) ERROR 01-05 10:11:12 [multiproc_worker_utils.py:240] ", 3,
                      "failed to recv, got 0 bytes")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("early_exit", [0]) and 3 not in _accused(d), v
    assert "hcclUniqueId" in v["summary"] and "rank 0" in v["fix"], v


def test_the_same_read_timing_out_or_without_a_spawned_worker_names_no_store_host(tmp_path):
    """The near shapes: the same read under no vLLM worker prefix (the store's host is not shown: torchrun's agent may
    host it) names nobody; a timeout, not a closed connection, is rank 0 never publishing (rank_missing)."""
    v = _verdict(tmp_path, _hccl_wait("", 1, "failed to recv, got 0 bytes"))
    assert (v["cause"], v["culprits"]) == ("early_exit", []), v
    v = _verdict(tmp_path, _hccl_wait("(VllmWorkerProcess pid=7702) ERROR 01-05 10:11:12 [multiproc_worker_utils.py:"
                                      "240] ", 1, "Socket Timeout"))
    assert v["cause"] == "rank_missing" and v["culprits"] == [0], v


# --- a collective library's root-info / unique-id call failing with a bare status ---------------------------------
def test_hccl_get_root_info_failing_with_a_bare_status_is_the_set_ups_address_exchange(tmp_path):
    """Rules L, AZ (2): the communicator set-up's first step (the root's bootstrap address) failing with only a status
    number, in torch_npu's words here, is network_setup, no rank; the fix names HCCL's interface settings."""
    text = ("Traceback (most recent call last):\n"
            '  File "/srv/app/serve.py", line 88, in <module>\n'
            "    dist.all_reduce(t)\n"
            "RuntimeError: HCCL function error: HcclGetRootInfo(&hcclID), error code is 7\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("network_setup", []) and not _accused(d), v
    assert "HCCL_IF_IP" in v["fix"] and "root node address" in v["fix"], v["fix"]


def test_a_root_info_failure_that_names_its_reason_or_another_call_is_not_read_so(tmp_path):
    """The near shapes: the library naming a parameter error (rule W: its own words decide), and the same glog check
    on another HCCL call (an all-reduce), are not the set-up's address exchange."""
    text = ("F0105 10:11:12.000001 4242 collective_service.cpp:37] Check failed: status == HCCL_SUCCESS (1 vs. 0) "
            "HCCL get root info failed: HCCL_E_PARA\n")
    assert _verdict(tmp_path, text)["cause"] != "network_setup"
    text = ("F0105 10:11:12.000001 4242 collective_service.cpp:52] Check failed: status == HCCL_SUCCESS (4 vs. 0) "
            "HCCL all reduce failed.\n*** Check failure stack trace: ***\n")
    assert _verdict(tmp_path, text)["cause"] != "network_setup"


# --- NCCL handed a NULL communicator -------------------------------------------------------------------------------
def test_nccl_refusing_a_null_communicator_says_the_communicator_was_never_made(tmp_path):
    """Rules Q, W: argcheck.cc's 'comm argument is NULL' is the call handed no communicator: invalid_usage, no rank,
    and the fix is to create the NCCL communicator (the process group / the library's set-up) first."""
    text = ("gpu-07:5511:5511 [1] misc/argcheck.cc:30 NCCL WARN AllReduce : comm argument is NULL\n"
            "gpu-07:5511:5511 [1] NCCL INFO enqueue.cc:2011 -> 4\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not _accused(d), v
    assert "NULL communicator" in v["summary"] and "init_process_group" in v["fix"], v


def test_a_null_buffer_is_still_the_calls_tensor_not_the_communicator(tmp_path):
    """The near shape: another argument refused (the send buffer, a NULL pointer) keeps the buffer's reading."""
    text = ("gpu-07:5511:5511 [1] misc/argcheck.cc:41 NCCL WARN AllReduce : sendbuff argument is NULL\n"
            "gpu-07:5511:5511 [1] NCCL INFO enqueue.cc:2011 -> 4\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "invalid_usage" and "NULL communicator" not in v["summary"], v
    assert "tensor" in v["fix"], v["fix"]


# --- a framework's communication layer refusing the backend by name ------------------------------------------------
def test_an_unknown_nccl_communication_backend_is_a_build_without_it(tmp_path):
    """Rule Q's last sentence: every worker's communication layer refusing 'nccl' (a real library) as unknown is the
    installed build lacking it: config, no rank, the fix to reinstall / rebuild with that backend."""
    text = ("[TM][FATAL] comm/device_comm.cc(31): Check failed: 0 Unknown communication backend: nccl\n"
            "[TM][FATAL] comm/device_comm.cc(31): Check failed: 0 Unknown communication backend: nccl\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "rebuild" in v["fix"] and "nccl support" in v["fix"], v["fix"]


def test_an_unknown_backend_name_that_is_no_library_is_the_setting_misspelt(tmp_path):
    """The near shape: a name no library has ('ncll') is the option misspelt -- config still, but not a rebuild."""
    v = _verdict(tmp_path, "[TM][FATAL] comm/device_comm.cc(31): Check failed: 0 Unknown communication backend: ncll\n")
    assert v["cause"] == "config" and "rebuild" not in v["fix"] and "spelling" in v["fix"], v


# --- a framework's own KV-store / RPC sockets ----------------------------------------------------------------------
def test_servers_finding_their_ports_taken_at_start_up_are_the_hosts_not_a_rank(tmp_path):
    """Rule AQ (3): a framework's own servers reporting at start-up that their ports are not available (the bind
    check) is network_setup, no rank; the fix is what holds the port."""
    text = ("Copy script to remote machine ...\n"
            "Error: port 41001 is not available.\n"
            "Error: port 41002 is not available.\n"
            "Reading train triples....\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("network_setup", []) and not _accused(d), v
    assert "41001" in v["summary"] and "port" in v["fix"], v


def test_a_port_that_is_not_available_but_replaced_is_no_failure(tmp_path):
    """The near shape: a program that says the port is not available and goes on to another is no failure."""
    text = "Error: port 41001 is not available, trying 41002 instead\nListening on 41002\n"
    assert _verdict(tmp_path, text)["cause"] != "network_setup"


def test_a_frameworks_socket_read_timing_out_is_its_server_not_answering(tmp_path):
    """Rule AQ (3): the framework's own socket layer failing a read with its timeout errno (EAGAIN) and aborting on it
    is its server not answering: network_setup, no rank."""
    text = ("/opt/dgl/src/rpc/network/tcp_socket.cc:182: recv error: Resource temporarily unavailable\n"
            "terminate called after throwing an instance of 'dmlc::Error'\n"
            "  what():  [10:11:12] /opt/dgl/src/rpc/network/socket_communicator.cc:290: Check failed: tmp != -1 "
            "(-1 vs. -1) : \n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("network_setup", []) and not _accused(d), v
    assert "firewall" in v["fix"] and "ip_config" in v["fix"], v["fix"]


def test_the_same_socket_reset_by_its_peer_is_not_read_as_no_answer(tmp_path):
    """The near shape: the same read reset by the peer is a peer gone, not a server that never answered."""
    text = ("/opt/dgl/src/rpc/network/tcp_socket.cc:182: recv error: Connection reset by peer\n"
            "terminate called after throwing an instance of 'dmlc::Error'\n")
    v = _verdict(tmp_path, text)
    assert "never answered" not in v["summary"], v
