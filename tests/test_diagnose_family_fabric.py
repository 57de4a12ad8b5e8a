"""How diagnose reads the transport and the set-up (ncclDoctor/diagnose/verdict/: transport.py,
usage.py, network.py, store.py): InfiniBand
completion errors and memory registration (ib_fabric), invalid usage (a size mismatch, two ranks on one GPU),
NCCL's /dev/shm segments, the network interfaces and sockets (unreachable and link-local peers, containers
behind NAT, bridges, a peer closing the socket at set-up, wrapped and quoted pastes of such lines), and the
TCPStore and rendezvous (ports, endpoints, the client's retries and timeouts, Windows' 10049 warning, a store
barrier short of ranks). The store's socket cut mid-run is an early exit: test_diagnose_family_hang.py; NCCL's
proxy failing at set-up is read by nccl.py's NCCL errors: test_diagnose_family_quiet.py.

Each test reads a family that a blind round (10 to 16, issue #14) missed, from lines other than the corpus
case's own: another version's wording, prefix, host, port or peer. Format strings are NCCL's, torch's and
gloo's (sources beside each test); numbers, hosts, ports and peers are made up. A test sits in the family of
the detector that decides the verdict it asserts; a test that a verdict is NOT given sits beside the test of
that verdict (so the 10049 warning's harmless case is here, beside its store cases)."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict
from tests.conftest import failure_record, nccl_info


# --- InfiniBand: completion errors (also as an NCCL error's "Last error") and memory registration -----------------
def test_watchdog_report_glued_to_its_nccl_error_reads_the_ib_last_error(tmp_path):
    """torch 2.1's watchdog text, std::terminate's what() and the NCCL error pasted as one line
    (a terminal or issue form joined them): the Last error is an IB completion error 12."""
    line = ("[rank5]:[E ProcessGroupNCCL.cpp:915] [Rank 5] Some NCCL operations have failed or timed out. Due to the "
            "asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data. "
            "terminate called after throwing an instance of 'c10::DistBackendError' what(): NCCL error in: "
            "../torch/csrc/distributed/c10d/NCCLUtils.hpp:219, remote process exited or there was a network error, "
            "NCCL version 2.18.1 ncclRemoteError: A call failed possibly due to a network error or a remote process "
            "exiting prematurely. Last error: NET/IB : Got completion from peer 10.4.0.17<51022> with error 12, "
            "opcode 1, len 32768, vendor err 129 (Send)\n")
    v = _verdict(tmp_path, line)
    assert v["cause"] == "ib_fabric", v
    assert v["culprits"] == []


def test_watchdog_report_alone_is_still_a_report(tmp_path):
    line = ("[E ProcessGroupNCCL.cpp:455] Some NCCL operations have failed or timed out. Due to the asynchronous "
            "nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.\n")
    assert _verdict(tmp_path, line)["cause"] != "ib_fabric"


def test_a_quoted_wrapped_piece_that_starts_with_a_bracket_is_still_its_rest(tmp_path):
    """Wrapped at 80 columns, then Markdown-quoted: the cut fell just before the '>' closing '<port>',
    so the piece reads '> > with status=...' (the quote, then the line's own '>')."""
    head = ":91:95 [1] NCCL WARN NET/IB: Got completion from peer 10.2.0.9<41234"
    head = "node" + "n" * (76 - len(head)) + head
    assert len(head) == 80
    rest = "> with status=12 opcode=0 len=0 vendor err 129 (Send) hca mlx5_1"
    v = _verdict(tmp_path, f"> {head}\n> {rest}\n")
    assert v["cause"] == "ib_fabric", v
    assert "IBV_WC_RETRY_EXC_ERR" in v["summary"], v  # status 12: the piece after the cut was joined


def test_ib_flush_errors_alone_point_at_the_rdma_path(tmp_path):
    line = ("gpu12:88:99 [3] net_ib.cc:1290 NCCL WARN NET/IB : Got completion from peer 10.2.0.8<40411> with "
            "error 5, opcode 32767, len 0, vendor err 244 (Recv)\n")
    v = _verdict(tmp_path, line * 3)
    assert v["cause"] == "ib_fabric" and "GPUDirect RDMA" in v["fix"] and "NCCL_NET_GDR_LEVEL" in v["fix"], v


# the kernel's mlx5 driver in a pasted dmesg: "<dev>/<port>: QP <n> error: <ib_wc_status_msg> (<syndrome>)" -- the
# host's view of a queue pair's error completion, the same statuses as NCCL's NET/IB lines (rule U(1), round 36)
def test_the_kernels_qp_error_completions_in_dmesg_are_the_fabric(tmp_path):
    for words, status in (("local protection error", "IBV_WC_LOC_PROT_ERR"), ("remote access error",
                                                                              "IBV_WC_REM_ACCESS_ERR")):
        text = "".join(f"[ 8812.{440 + i}021] {pre}mlx5_{n}/1: QP {3301 + 7 * i} error: {words} (0x8{i} 0x0 0x1c)\n"
                       for i, (pre, n) in enumerate((("", 2), ("infiniband mlx5_3: ", 3))))
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert v["cause"] == "ib_fabric" and v["culprits"] == [] and not _accused(d), (words, v)
        assert status in v["summary"] and "mlx5_2" in v["summary"], v


# NCCL misc/ibvwrap.cc: "Call to ibv_reg_mr failed with error %s" / ibv_reg_dmabuf_mr / ibv_reg_mr_iova2
def test_an_ib_memory_registration_failure_is_the_nodes_system_error_not_the_rank(tmp_path):
    """Lead rule J (session 12): registering memory is resource creation the host refuses, nccl_system, also when
    a collective registers its buffer mid-run (no set-up trail)."""
    text = ("[rank3]: torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:3356, unhandled "
            "system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5\n"
            "gpu-node-7:2211:2290 [3] misc/ibvwrap.cc:199 NCCL WARN Call to ibv_reg_dmabuf_mr failed with error "
            "Bad address\n"
            "gpu-node-7:2211:2290 [3] NCCL INFO transport/net_ib.cc:1410 -> 2\n")
    r = _report(tmp_path, text)
    v = r["verdict"]
    assert v["cause"] == "nccl_system" and v["culprits"] == [], v
    assert "nvidia-peermem" in v["fix"] and "NCCL_NET_GDR_LEVEL" in v["fix"]
    assert not [k for k in r["conclusions"] if k["kind"] == "first_failure" and k["confidence"] != "low"]


# --- invalid usage ------------------------------------------------------------------------------------------------
def test_ib_size_mismatch_is_invalid_usage_with_the_environment_fix(tmp_path):
    """net_ib.cc: "NET/IB : req %d/%d tag %x peer %s collective mismatch error, local size %d remote size %d",
    then the return-code trail of 5 (ncclInvalidUsage)."""
    text = ("gpu7:2211:2290 [1] transport/net_ib.cc:1104 NCCL WARN NET/IB : req 1/1 tag 3 peer 10.2.0.9<41877> "
            "collective mismatch error, local size 1048576 remote size 262144\n"
            "gpu7:2211:2290 [1] NCCL INFO include/net.h:35 -> 5\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "invalid_usage", v
    assert "NCCL_PROTO" in v["fix"] and v["culprits"] == []


# NCCL init.cc: 2.27+ "Multiple Ranks are using the same GPU/Partition" (older: "Duplicate GPU detected")
def test_the_same_gpu_message_alone_is_invalid_usage(tmp_path):
    text = "worker-3: Multiple Ranks are using the same GPU/Partition for communication, rank 5 and rank 4\n"
    v = _verdict(tmp_path, text)
    assert v["cause"] == "invalid_usage" and v["culprits"] == [], v
    assert "nproc_per_node" in v["fix"]


# session 16 (fix48-F2): a paste that starts at torch's "Last error:" (the ncclInvalidUsage line above it cut), NCCL's
# text on the next line: "Duplicate GPU detected" is init.cc's ncclInvalidUsage whatever code line was cut
def test_duplicate_gpu_under_a_bare_last_error_line_is_invalid_usage(tmp_path):
    for a, b, dev, tag in ((4, 0, "109000", "[rank0]: "), (7, 3, "1b000", ""), (1, 0, "40", "[rank1]:")):
        text = ("Last error:\n"
                f"Duplicate GPU detected : rank {a} and rank {b} both on CUDA device {dev}. Discard the weights.\n"
                f"{tag}Traceback (most recent call last):\n"
                f'{tag}  File "/srv/app/train.py", line 287, in main\n'
                f"{tag}    dist.broadcast(t, src=0, group=g)\n")
        v = _verdict(tmp_path, text)
        assert v["cause"] == "invalid_usage" and v["culprits"] == [], (a, v)
        assert "CUDA_VISIBLE_DEVICES" in v["fix"]


def test_another_reason_under_a_bare_last_error_line_is_no_duplicate_gpu(tmp_path):
    text = ("Last error:\n"
            "socketPollConnect: Connect to 10.2.0.9<44217> returned 113(No route to host) errno 113\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] != "invalid_usage", v
    assert "Duplicate GPU" not in v["summary"]


# session 13 (fix42-4): ProcessGroupNCCL.cpp's getNCCLComm raising ncclInvalidUsage with an empty "Last error:" (torch
# 2.0/2.1, NCCL 2.14-2.18): the reason is only in NCCL's WARN; a group aborted and used again is one such call
def test_invalid_usage_raised_creating_the_communicator_with_no_reason_names_the_warn_and_the_abort(tmp_path):
    text = ("Traceback (most recent call last):\n"
            '  File "/workspace/train.py", line 212, in <module>\n'
            "    dist.all_reduce(flag, group=sub_group)\n"
            '  File "/usr/lib/python3/dist-packages/torch/distributed/distributed_c10d.py", line 1700, in all_reduce\n'
            "    work = group.allreduce([tensor], opts)\n"
            "torch.distributed.DistBackendError: NCCL error in: "
            "../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1275, "
            "invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.18.3\n"
            "ncclInvalidUsage: This usually reflects invalid usage of NCCL library.\n"
            "Last error:\n\n"
            "Exception raised from getNCCLComm at ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1275 (most "
            "recent call first):\n")
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("invalid_usage", []), v
    assert "ncclInvalidUsage" in v["fix"] and "NCCL_DEBUG=INFO" in v["fix"], v["fix"]
    assert "ncclCommAbort" in v["fix"] and "destroy_process_group" in v["fix"], v["fix"]
    assert "device_ids" in v["fix"], v["fix"]


# --- NCCL's /dev/shm segments -------------------------------------------------------------------------------------
def test_nccl_shm_segment_failure_without_the_warn_prefix(tmp_path):
    """NCCL's shmutils.cc "Error while creating shared memory segment %s (size %d)" quoted without
    its host:pid:tid NCCL WARN prefix, behind torchrun's rank tag; NCCL names its segments nccl-XXXXXX."""
    v = _verdict(tmp_path, "[rank2]: Error while creating shared memory segment /dev/shm/nccl-Qw81Zt (size 9637888)\n")
    assert v["cause"] == "nccl_system", v
    assert "/dev/shm" in v["fix"] and "NCCL_SHM_DISABLE" in v["fix"]


def test_another_programs_shm_segment_is_not_nccls(tmp_path):
    v = _verdict(tmp_path, "Error while creating shared memory segment /dev/shm/psm_shm.1234 (size 4096)\n")
    assert v["cause"] != "nccl_system"


# --- network interfaces and sockets -------------------------------------------------------------------------------
def test_gloo_connect_network_unreachable_is_set_up(tmp_path):
    """gloo/transport/tcp/pair.cc's enforce after connect(2) failed with ENETUNREACH, as torch 2.x
    prints it inside a RuntimeError."""
    line = ("RuntimeError: [enforce fail at ../third_party/gloo/gloo/transport/tcp/pair.cc:352] rv != -1. -1 vs -1. "
            "connect: Network is unreachable\n")
    v = _verdict(tmp_path, line)
    assert v["cause"] == "network_setup", v
    assert "GLOO_SOCKET_IFNAME" in v["fix"]


def test_gloo_libuv_transport_enforcing_a_failed_uv_call_is_set_up(tmp_path):
    """gloo's libuv transport (torch's default on macOS and Windows) enforcing a libuv call of its listener or
    connections, then aborting: gloo's own connection set-up between the ranks failed (rule L), no rank named."""
    log = ("[/opt/build/torch/third_party/gloo/gloo/transport/uv/device.cc:212] uv_listen: address not available\n"
           "*** SIGABRT received at time=1765432101 on cpu 3 ***\n"
           "PC: @        0x7ff81a2c41ce  (unknown)  __pthread_kill\n"
           "    @        0x1127a0c10  (unknown)  gloo::transport::uv::Device::listen()\n")
    d = _report(tmp_path, log)
    v = d["verdict"]
    assert v["cause"] == "network_setup" and _accused(d) == set(), v
    assert "GLOO_SOCKET_IFNAME" in v["fix"]
    # the enforce line alone, behind a launcher's prefix: no other trigger word is in it (load.TRIGGERS)
    alone = "(TrainWorker pid=40211) " + log.splitlines()[0].replace("device.cc:212", "libuv.h:588") + "\n"
    assert _verdict(tmp_path, alone)["cause"] == "network_setup"


def test_a_peer_closing_nccls_data_socket_mid_run_is_the_peer_gone_not_the_network(tmp_path):
    """NCCL's socket transport WARNs that the remote peer closed the connection and its return-code trail runs only
    through the data path (net_socket.cc, net.h): no connect failed, nothing of set-up in the trail -- the peer's
    process went away mid-run (rule O): early_exit, nobody accused. A failed connect before it stays set-up."""
    log = ("gpu-node3:2277:2301 [1] include/socket.h:398 NCCL WARN Net : Connection closed by remote peer\n"
           "gpu-node3:2277:2301 [1] NCCL INFO transport/net_socket.cc:512 -> 2\n"
           "gpu-node3:2277:2301 [1] NCCL INFO include/net.h:35 -> 2\n")
    d = _report(tmp_path, log)
    v = d["verdict"]
    assert v["cause"] == "early_exit" and _accused(d) == set(), v
    connect = ("gpu-node3:2277:2301 [1] misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to 10.4.0.9<41877> "
               "failed : Connection refused\n")
    assert _verdict(tmp_path, connect + log)["cause"] == "network_setup"


def test_a_gloo_peer_gone_inside_the_set_up_call_is_set_up_not_an_early_exit(tmp_path):
    """Round 31 (lead rules L, X (1)): gloo's "Connection closed by peer" / "reset by peer" on a process whose own
    stack (faulthandler after it, or a traceback before it) is in Horovod's hvd.init() or torch's init_process_group:
    the full mesh could not be held while the job was set up -- network_setup, nobody named. Hosts and ports made up."""
    hvd = ["[1,2]<stderr>:terminate called after throwing an instance of 'gloo::IoException'",
           "[1,2]<stderr>:  what():  [/build/horovod/third_party/gloo/gloo/transport/tcp/pair.cc:575] Read error "
           "[192.168.7.31]:40117: Connection reset by peer",
           "[1,2]<stderr>:Fatal Python error: Aborted",
           "[1,2]<stderr>:Current thread 0x00007f00aa11b740 (most recent call first):",
           '[1,2]<stderr>:  File "/opt/venv/lib/python3.8/site-packages/horovod/common/basics.py", line 112 in init',
           '[1,2]<stderr>:  File "train_imagenet.py", line 44 in <module>']
    d = _report(tmp_path, "\n".join(hvd) + "\n")
    assert d["verdict"]["cause"] == "network_setup" and _accused(d) == set(), d["verdict"]


def test_nccl_23s_one_interface_a_line_choosing_loopback_across_two_hosts_is_set_up(tmp_path):
    """Round 31: NCCL 2.3 prints each chosen socket interface on a line of its own ("NET : Using interface
    lo:127.0.0.1<0>"): two hosts that both put loopback in the list cannot reach each other on it -- network_setup,
    no rank at fault (rule K). One host alone choosing lo stays set-up chatter. Hosts, pids and addresses made up."""
    def lines(host, pid, dev, rank, addr):
        p = f"{host}:{pid}:{pid + 9} [{dev}] NCCL INFO "
        return [p + "Using internal Network Socket", p + "NET : Using interface lo:127.0.0.1<0>",
                p + f"NET : Using interface ens5:{addr}<0>", p + "NET/Socket : 2 interfaces found",
                p + f"rank {rank} nranks 2"]
    two = lines("worker-a", 711, 0, 0, "172.20.4.9") + lines("worker-b", 902, 0, 1, "172.20.4.17")
    d = _report(tmp_path, "\n".join(two) + "\n")
    assert d["verdict"]["cause"] == "network_setup" and _accused(d) == set(), d["verdict"]
    assert "NCCL_SOCKET_IFNAME" in d["verdict"]["fix"]
    one = lines("worker-a", 711, 0, 0, "172.20.4.9") + lines("worker-a", 712, 1, 1, "172.20.4.9")
    assert _verdict(tmp_path, "\n".join(one) + "\n")["cause"] != "network_setup"


def test_a_training_operators_replica_pod_choosing_loopback_first_is_set_up_with_nothing_failing(tmp_path):
    """Lead rule AU (3) (round 62's kubeflow-pytorch-operator-202): a Kubeflow PyTorchJob's master or worker pod
    ("<job>-master-0", "<job>-worker-2") whose NET/Socket uses lo:127.0.0.1 first is a process of a multi-pod job
    offering its peers the loopback, which in another pod is that pod itself -- network_setup, nobody named, with
    nothing failing and one pod's lines only. A host not named as a replica pod, or the pod on eth0 alone, stays set-up
    chatter (rule K)."""
    def pod(host: str, using: str) -> str:
        return (nccl_info(host, 1, 0, "Bootstrap : Using eth0:10.244.3.17<0>")
                + nccl_info(host, 1, 0, f"NET/Socket : Using {using}"))
    both = "[0]lo:127.0.0.1<0> [1]eth0:10.244.3.17<0>"
    for host in ("mnist-ddp-master-0", "bert-ft-worker-2"):
        d = _report(tmp_path, pod(host, both))
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("network_setup", []) and not _accused(d), (host, v)
        assert "lo:127.0.0.1" in v["summary"] and "NCCL_SOCKET_IFNAME" in v["fix"], v
    assert _verdict(tmp_path, pod("trainbox-3", both), "box.log")["cause"] == "none"
    assert _verdict(tmp_path, pod("mnist-ddp-master-0", "[0]eth0:10.244.3.17<0>"), "eth.log")["cause"] == "none"


def test_nccl_connect_to_an_ipv4_link_local_peer(tmp_path):
    """NCCL 2.1x socket.h "Connect to %s failed : %s" to a 169.254.x.x address (a node that picked
    a link-local interface): set-up, and the link-local address is named."""
    line = ("node-b:4411:4502 [3] include/socket.h:403 NCCL WARN Connect to 169.254.12.7<40115> failed : "
            "Network is unreachable\n")
    v = _verdict(tmp_path, line)
    assert v["cause"] == "network_setup", v
    assert "link-local" in v["summary"] and "NCCL_SOCKET_IFNAME" in v["fix"]


def test_two_hosts_bootstrapping_on_one_address_are_containers_behind_nat(tmp_path):
    """NCCL's "Bootstrap : Using [0]eth0:%s<0>" on two hosts with the same address (here a user-defined
    bridge's 10.88.0.5, not docker0's 172.17/16)."""
    text = (nccl_info("cont-a", 101, 0, "Bootstrap : Using [0]eth0:10.88.0.5<0>")
            + nccl_info("cont-b", 202, 0, "Bootstrap : Using [0]eth0:10.88.0.5<0>"))
    v = _verdict(tmp_path, text)
    assert v["cause"] == "network_setup", v
    assert "--network=host" in v["summary"] and "NCCL_SOCKET_IFNAME" in v["fix"]


def test_one_host_on_its_own_address_is_not_a_network_verdict(tmp_path):
    text = (nccl_info("cont-a", 101, 0, "Bootstrap : Using [0]eth0:10.88.0.5<0>")
            + nccl_info("cont-b", 202, 0, "Bootstrap : Using [0]eth0:10.88.0.6<0>"))
    assert _verdict(tmp_path, text)["cause"] != "network_setup"


def test_bootstrap_on_an_ipv6_link_local_address_without_an_index(tmp_path):
    """NCCL 2.2x prints "Bootstrap : Using ib0:fe80::...%ib0<0>" without the "[0]" of older versions."""
    v = _verdict(tmp_path, "g1:55:55 [0] NCCL INFO Bootstrap : Using ib1:fe80::1e34:da03:7b:9c10%ib1<0>\n")
    assert v["cause"] == "network_setup", v
    assert "link-local" in v["summary"]


def test_a_socket_interface_list_one_a_line_names_the_bridges(tmp_path):
    """NCCL_DEBUG=INFO's NET/Socket list as a paste shows it: the header line, then one interface a line."""
    text = ("INFO NET/Socket : Using\n[0]eth2:10.0.3.4<0>\n[1]docker0:172.17.0.1<0>\n"
            "[2]vethab12cd3:fe80::18ab:22ff:fe01:9a9a%vethab12cd3<0>\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "network_setup", v
    assert "docker0" in v["summary"] and "eth2" not in v["summary"]


# NCCL misc/socket.cc "Net : Connection closed by remote peer %s" with its return-code trail through init
def _trail(*places: str) -> str:
    return "".join(nccl_info("node-c", 801, 0, f"{at} -> 6", tid=850) for at in places)


def test_a_peer_closing_the_socket_during_communicator_set_up_is_network_set_up(tmp_path):
    text = ("node-c:801:850 [0] misc/socket.cc:47 NCCL WARN socketProgress: Connection closed by remote peer "
            "node-d.cluster<41022>\n"
            + _trail("misc/socket.cc:752", "transport/net_socket.cc:474", "transport.cc:165", "init.cc:1222"))
    v = _verdict(tmp_path, text)
    assert v["cause"] == "network_setup" and v["culprits"] == [], v
    assert "NCCL_SOCKET_IFNAME" in v["fix"]


def test_a_peer_closing_the_socket_mid_run_is_still_a_peer_gone(tmp_path):
    text = ("node-c:801:850 [0] misc/socket.cc:47 NCCL WARN socketProgress: Connection closed by remote peer "
            "node-d.cluster<41022>\n"
            + _trail("misc/socket.cc:752", "proxy.cc:1480"))
    assert _verdict(tmp_path, text)["cause"] == "early_exit"


def test_a_quoted_paste_wrapped_afterwards_is_read_whole(tmp_path):
    """An issue's '> ' quote on the first piece only: the pieces of each wrapped line are joined."""
    line = ("> node-c:801:850 [0] misc/socket.cc:47 NCCL WARN socketProgress: Connection closed by remote peer "
            "node-d.cluster<41022>")
    trail = ["> node-c:801:850 [0] NCCL INFO misc/socket.cc:752 -> 6",
             "> node-c:801:850 [0] NCCL INFO transport.cc:165 -> 6",
             "> node-c:801:850 [0] NCCL INFO init.cc:1222 -> 6"]
    wrapped = [line[k:k + 80] for k in range(0, len(line), 80)]
    wrapped += [x[k:k + 80] for x in trail for k in range(0, len(x), 80)]
    other = ("> node-c:801:851 [0] proxy.cc:1120 NCCL WARN [Proxy Service 0] Failed to execute operation Connect "
             "from rank 0, retcode 6")
    wrapped += [other[k:k + 80] for k in range(0, len(other), 80)]
    v = _verdict(tmp_path, "\n".join(wrapped) + "\n")
    assert v["cause"] == "network_setup", v


# --- the TCPStore and the rendezvous ------------------------------------------------------------------------------
def test_store_port_permission_denied(tmp_path):
    """TCPStore's socket.cpp "The server socket has failed to bind to %s (errno: %d - %s)", IPv4 and a
    launcher's prefix; the line has no other trigger word than its errno."""
    line = ("[rank0]: torch.distributed.DistNetworkError: The server socket has failed to listen on any local network "
            "address. The server socket has failed to bind to 0.0.0.0:80 (errno: 13 - Permission denied).\n")
    v = _verdict(tmp_path, line)
    assert v["cause"] == "store_rendezvous", v
    assert "master_port" in v["fix"] and "below 1024" in v["summary"]


def test_an_unreachable_rendezvous_names_torchruns_printed_endpoint(tmp_path):
    """torchrun's printed launch config ("rdzv_endpoint    : HOST", no port) and the agent's
    RendezvousConnectionError: the endpoint is the printed host on c10d's default port 29400."""
    text = ("[INFO] 2024-01-01 10:00:00,000 api: Starting elastic_operator with launch configs:\n"
            "  rdzv_backend     : c10d\n  rdzv_endpoint    : 192.168.7.20\n\n"
            "RendezvousConnectionError: The connection to the C10d store has failed. See inner exception for "
            "details.\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "store_rendezvous", v
    assert "192.168.7.20:29400" in v["summary"] and "firewall" in v["fix"]


def test_the_store_clients_retries_name_the_endpoint(tmp_path):
    """TCPStore.cpp: "TCP client failed to connect/validate to host %s:%d - retrying (try=%d, ...): %s"."""
    line = ("[W102 10:00:00.000000000 TCPStore.cpp:347] [c10d] TCP client failed to connect/validate to host "
            "100.101.7.9:29511 - retrying (try=2, timeout=900000ms, delay=1200ms): Connection reset by peer\n")
    v = _verdict(tmp_path, line)
    assert v["cause"] == "store_rendezvous", v
    assert "100.101.7.9" in v["fix"] and "VPN" in v["summary"]


# torch/csrc/distributed/c10d/socket.cpp: "The client socket has failed to connect to [%s]:%s (%s)."
WIN_WARN = ("[W1102 08:00:00.000000000 socket.cpp:752] [c10d] The client socket has failed to connect to "
            "[{host}]:{port} (system error: 10049 - The requested address is not valid in its context.).\n")


def test_the_windows_10049_connect_warning_alone_is_harmless(tmp_path):
    v = _verdict(tmp_path, "starting 2 processes\n" + WIN_WARN.format(host="DESKTOP-AB12CD", port=29512))
    # harmless, but nothing shows the job got further: "none" is high only with evidence it ended (issue #14)
    assert v["cause"] == "none" and v["confidence"] == "medium", v
    assert "Windows" in v["summary"] and "harmless" in v["fix"]


def test_the_10049_warning_to_a_docker_desktop_alias_alone_is_none(tmp_path):
    # lead rules L/N (session 7): a retried store-client warning with nothing failing after it is none, whatever host
    v = _verdict(tmp_path, WIN_WARN.format(host="host.docker.internal", port=29512))
    assert (v["cause"], v["culprits"]) == ("none", []), v
    timeout = ("torch.distributed.DistNetworkError: The client socket has timed out after 900s while trying to "
               "connect to (host.docker.internal, 29512).\n")
    assert _verdict(tmp_path, WIN_WARN.format(host="host.docker.internal", port=29512) + timeout)["cause"] == (
        "store_rendezvous")


def test_the_10049_warning_then_a_checkpoint_loaders_missing_parameter_note_is_still_none(tmp_path):
    """VITS-family utils.load_checkpoint logs a parameter absent from the checkpoint through logger.error ("%s is
    not in the checkpoint") and keeps the model's initial value: a loading note, not a failure, so a one-process run
    whose store client logged the retried 10049 warning stays none (round 64, lead rules K, L, N). load_state_dict's
    strict "Missing key(s) in state_dict" raises, and stays a failure."""
    note = ("INFO:models:Loaded checkpoint 'logs/DUR_0.pth' (iteration 0)\n"
            "ERROR:models:emb_g.weight is not in the checkpoint\n"
            "INFO:models:Loaded checkpoint 'logs/G_0.pth' (iteration 0)\n")
    v = _verdict(tmp_path, WIN_WARN.format(host="DESKTOP-AB12CD", port=10086) + note)
    assert (v["cause"], v["culprits"]) == ("none", []), v
    strict = ("RuntimeError: Error(s) in loading state_dict for SynthesizerTrn:\n"
              "\tMissing key(s) in state_dict: \"emb_g.weight\".\n")
    assert _verdict(tmp_path, WIN_WARN.format(host="DESKTOP-AB12CD", port=10086) + strict)["cause"] != "none"
    other = "ERROR:models:emb_g.weight could not be loaded: shape mismatch\n"
    assert _verdict(tmp_path, WIN_WARN.format(host="DESKTOP-AB12CD", port=10086) + other)["cause"] != "none"


def test_linux_errno_99_store_connect_warnings_alone_are_none(tmp_path):
    """EADDRNOTAVAIL (errno 99) is 10049's errno on Linux: the client tries an address of the host it cannot use
    (localhost's IPv6 one) and goes on; retried warnings with nothing failing after them are none (lead rule L)."""
    warn = ("[W1107 09:12:44.118200931 socket.cpp:752] [c10d] The client socket has failed to connect to "
            "[ip6-localhost]:29533 (errno: 99 - Cannot assign requested address).\n")
    v = _verdict(tmp_path, "[rank1]:" + warn + "[rank1]:" + warn)
    assert v["cause"] == "none" and v["culprits"] == [], v
    # the fix names errno 99 itself (IPv6 localhost, MASTER_ADDR=127.0.0.1), not only Windows' 10049 and errno 22
    assert "errno: 99" in v["fix"] and "MASTER_ADDR=127.0.0.1" in v["fix"] and "store timeout" in v["fix"], v
    timeout = ("torch.distributed.DistNetworkError: The client socket has timed out after 600s while trying to "
               "connect to (ip6-localhost, 29533).\n")
    assert _verdict(tmp_path, warn + warn + timeout)["cause"] == "store_rendezvous"


def test_a_store_timeout_after_the_10049_warning_is_still_the_store(tmp_path):
    timeout = ("torch.distributed.DistNetworkError: The client socket has timed out after 1800s while trying to "
               "connect to (DESKTOP-AB12CD, 29512).\n")
    v = _verdict(tmp_path, WIN_WARN.format(host="DESKTOP-AB12CD", port=29512) + timeout)
    assert v["cause"] == "store_rendezvous", v


def test_store_clients_that_waited_out_their_timeout_connected_are_victims_of_ranks_that_never_joined(tmp_path):
    """torch/csrc/distributed/c10d/socket.cpp waitForInput (torch 2.4+). Lead rule L (session 6): a read after the
    connection waits for a key a rank not shown has not written: rank_missing, nobody named (was store_rendezvous)."""
    line = ("[rank{r}]:[W101 01:02:03.000000000 socket.cpp:485] [c10d] waitForInput: socket SocketImpl(fd=41, "
            "addr=[10.0.0.5]:5511{r}, remote=[10.0.0.5]:31000) timed out after 600000ms\n")
    d = _report(tmp_path, line.format(r=2) + line.format(r=3))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("rank_missing", []), v
    assert "10.0.0.5:31000" in v["summary"] and "victims" in v["summary"]
    assert "reach" in v["fix"] and "MASTER_ADDR" in v["fix"]
    assert not _accused(d)


def test_a_store_barrier_short_of_ranks_names_worker_count_and_the_timeout_in_its_fix(tmp_path):
    text = ("RuntimeError: Timed out initializing process group in store based barrier on rank: 2, for key: "
            "store_based_barrier_key:1 (world_size=16, worker_count=12, timeout=0:00:30)\n")
    v = _report(tmp_path, text)["verdict"]
    assert v["cause"] == "store_rendezvous" and "4 of 16 clients never joined" in v["fix"], v["fix"]
    assert "timeout" in v["fix"] and "reachable" in v["fix"]


def test_a_store_barrier_past_its_world_beside_a_preemption_and_a_refused_socket_is_still_the_launch(tmp_path):
    """Rule R (round 30): a store barrier with more processes checked in than its world (C > W) is rule Q's launch
    error, invalid_usage, even when the lines also show the scheduler preempting/requeueing the job and the
    launcher's own refused connection: the requeued attempt shares its store with leftovers; nobody is named."""
    text = ("slurmstepd: error: *** JOB 5521 ON node-07 CANCELLED AT 2024-02-01T03:04:05 DUE TO PREEMPTION ***\n"
            "slurmstepd: error: Failed to send MESSAGE_TASK_EXIT: Connection refused\n"
            "RuntimeError: Timed out initializing process group in store based barrier on rank: 3, for key: "
            "store_based_barrier_key:1 (world_size=4, worker_count=12, timeout=0:10:00)\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not _accused(d), v
    assert "leftover" in v["fix"], v["fix"]


# --- session 7 (round 24), lead rule R: the store-based barrier read by its counts ---------------------------------
def test_a_store_barrier_still_waiting_short_of_the_world_is_the_rendezvous(tmp_path):
    """torch's periodic INFO while init_process_group waits in its store-based barrier (2.x's num_workers_joined
    spelling): fewer joined than the world size is store_rendezvous, the waiting rank innocent, nobody named."""
    text = ("INFO:torch.distributed.distributed_c10d:Waiting in store based barrier to initialize process group for "
            "rank: 5, key: store_based_barrier_key:3 (world_size=16, num_workers_joined=9, timeout=0:10:00)\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("store_rendezvous", []), v
    assert "9 of 16" in v["summary"] and "--nproc-per-node" in v["fix"], v
    assert not _accused(d)


def test_a_store_barrier_with_more_joined_than_the_world_is_a_launch_error(tmp_path):
    """More processes checked in than the world size they were told: two jobs on one MASTER_PORT, leftovers or a wrong
    --nproc_per_node (rule R with rule Q): invalid_usage, no rank at fault."""
    for line in ("Waiting in store based barrier to initialize process group for rank: 0, key: store_based_barrier_key:"
                 "2 (world_size=2, worker_count=6, timeout=0:05:00)\n",
                 "RuntimeError: Timed out initializing process group in store based barrier on rank: 1, for key: "
                 "store_based_barrier_key:1 (world_size=8, worker_count=12, timeout=0:30:00)\n"):
        d = _report(tmp_path, line)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("invalid_usage", []), v
        assert "MASTER_PORT" in v["fix"] and "nproc_per_node" in v["fix"], v
        assert not _accused(d)


def test_a_store_barrier_that_completed_is_not_a_failure(tmp_path):
    text = ("Waiting in store based barrier to initialize process group for rank: 2, key: store_based_barrier_key:1 "
            "(world_size=4, worker_count=3, timeout=0:30:00)\n"
            "Rank 2: Completed store-based barrier for key:store_based_barrier_key:1 with 4 nodes.\n")
    assert _verdict(tmp_path, text)["cause"] == "none"


def test_slurm_pmix_fence_timeout_is_the_launchers_rendezvous(tmp_path):
    """Slurm's PMIx plugin's collective (its fence between the nodes) timing out before NCCL: the launcher's own
    key-value exchange failed (lead rules L and R): store_rendezvous, no rank at fault."""
    text = ("slurmstepd: error:  mpi/pmix_v4: pmixp_coll_tree_reset_if_to: gpu-n7 [1]: pmixp_coll_tree.c:1290: "
            "0x7f00a4012340: collective timeout seq=3\n"
            "slurmstepd: error:  mpi/pmix_v4: pmixp_coll_log: gpu-n7 [1]: pmixp_coll.c:286: Dumping collective state\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("store_rendezvous", []), v
    assert "PMIx" in v["summary"] and "firewall" in v["fix"] and "--mpi=pmi2" in v["fix"], v
    assert not _accused(d)


# --- session 7 (round 24), lead rule G: a reset store get('0') where the store lived in rank 0's process ----------
_RESET = ("RuntimeError: [{r}] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via c10d key-value "
          "store by key '0', but store->get('0') got error: Connection reset by peer. This may indicate a possible "
          "application crash on rank 0 or a network set up issue.\n")


def test_a_reset_uniqueid_get_under_deepspeeds_launcher_names_rank_0(tmp_path):
    """DeepSpeed's launch.py hosts no store: rank 0's process did (env://), so the reset is rank 0 gone (rule G)."""
    text = ("[2024-05-06 07:08:09,101] [INFO] [launch.py:316:sigkill_handler] Killing subprocess 5120\n"
            + _RESET.format(r=6) + _RESET.format(r=2)
            + "[2024-05-06 07:08:09,202] [INFO] [launch.py:316:sigkill_handler] Killing subprocess 5121\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"], v["confidence"]) == ("early_exit", [0], "medium"), v
    assert "rank 0" in v["fix"]
    assert _accused(d) == {0}


def test_a_reset_uniqueid_get_without_the_launcher_names_nobody(tmp_path):
    """The same reset with nothing saying where the store lived (torchrun's agent may host it): nobody named."""
    d = _report(tmp_path, _RESET.format(r=6))
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("early_exit", []), d["verdict"]
    assert not _accused(d)


def test_a_reset_uniqueid_get_without_the_store_host_sends_to_every_ranks_log_and_the_network(tmp_path):
    """Round 59 (lead rules AK (1), G): two ranks' reset get of key '1' in an all_gather, no launcher showing where
    the store lived: victims, nobody named, and the fix reads the logs of every rank (the store host's first) and,
    with every process still up, MASTER_ADDR / MASTER_PORT."""
    one = _RESET.replace("key '0', but store->get('0')", "key '1', but store->get('1')")
    d = _report(tmp_path, "    work = default_pg.allgather([tensor_list], [tensor])\n" + one.format(r=3)
                + one.format(r=1))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("early_exit", []) and not _accused(d), v
    assert "logs of every rank" in v["fix"] and "ncclUniqueId" in v["fix"] and "MASTER_ADDR" in v["fix"], v


# --- a verbs call that only allocates on the local HCA: the node's limits, not the fabric ------------------
def test_a_failed_queue_pair_creation_is_a_local_system_limit_not_the_fabric(tmp_path):
    # NCCL's ibvwrap "Call to ibv_create_cq failed" and its return-code trail (2 = ncclSystemError)
    text = ("gpu-b:811:902 [3] misc/ibvwrap.cc:198 NCCL WARN Call to ibv_create_cq failed with error Cannot allocate "
            "memory\n"
            + nccl_info("gpu-b", 811, 3, "transport/net_ib.cc:512 -> 2", tid=902)
            + nccl_info("gpu-b", 811, 3, "init.cc:640 -> 2", tid=902))
    v = _report(tmp_path, text)["verdict"]
    assert (v["cause"], v["culprits"]) == ("nccl_system", []), v
    assert "memlock" in v["fix"] and "ulimit -l" in v["fix"]


def test_a_queue_pair_that_cannot_reach_its_peer_stays_the_fabric(tmp_path):
    text = "node7:55:66 [1] NCCL WARN Call to ibv_modify_qp failed with error Connection timed out\n"
    assert _report(tmp_path, text)["verdict"]["cause"] == "ib_fabric"


# --- NET/OFI (aws-ofi-nccl) completion errors: the fabric, as an IB completion status is ------------------
def test_an_ofi_completion_error_is_the_fabric_with_its_errno_decoded(tmp_path):
    text = ("[rank6]: torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:3100, remote process "
            "exited or there was a network error, NCCL version 2.26.2\n"
            "[rank6]: ncclRemoteError: A call failed possibly due to a network error or a remote process exiting "
            "prematurely.\n"
            "[rank6]: Last error:\n"
            "[rank6]: NET/OFI Request 0x55aa01 completed with error. RC: 110. Error: 5 (TIMEDOUT). Completed length: "
            "4096\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("ib_fabric", []), v
    assert "ETIMEDOUT" in v["summary"] and "FI_LOG_LEVEL" in v["fix"]
    assert not _accused(d)


# --- an HCA's access-violation async event: the memory registration, not the link ---------------------------
def test_an_access_violation_async_event_points_at_memory_registration(tmp_path):
    text = ("gpu9:400:410 [1] transport/net_ib.cc:101 NCCL WARN NET/IB : mlx5_3:1 Got async event : local access "
            "violation work queue error\n")
    v = _report(tmp_path, text)["verdict"]
    assert v["cause"] == "ib_fabric" and "NCCL_NET_PLUGIN" in v["fix"] and "GPUDirect" in v["fix"], v


# --- round 17: two ranks on one GPU, set-up errors worded as others, the master's name ----------------------
def test_two_processes_of_one_host_printing_one_bus_id_are_two_ranks_on_one_gpu(tmp_path):
    text = ("srv-4:9101:9101 [0] NCCL INFO comm 0x71c0 rank 2 nranks 4 cudaDev 0 busId 3b000 - Init COMPLETE\n"
            "srv-4:9102:9102 [0] NCCL INFO comm 0x93a8 rank 3 nranks 4 cudaDev 0 busId 3b000 - Init COMPLETE\n")
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("invalid_usage", []), v
    assert "LOCAL_RANK" in v["fix"] and "CUDA_VISIBLE_DEVICES" in v["fix"]
    apart = text.replace("srv-4:9102:9102", "srv-5:9102:9102")  # another host: its own GPU
    assert _verdict(tmp_path, apart)["cause"] != "invalid_usage"


def test_ipc_to_ones_own_device_is_two_ranks_on_one_gpu_not_an_oom(tmp_path):
    """NCCL 2.0-2.3 transport/p2p.cu: "rank %d failed to get CUDA IPC handle to device %d : %d %s"."""
    text = ("n9:300:310 [2] init.cu:230 WARN Cuda failure 'out of memory'\n"
            "n9:300:310 [2] transport/p2p.cu:411 WARN rank 5 failed to get CUDA IPC handle to device 2 : 11 invalid "
            "argument\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "invalid_usage" and "set_device" in v["fix"], v
    other = text.replace("handle to device 2", "handle to device 3")  # a peer on another GPU: not this family
    assert _verdict(tmp_path, other)["cause"] != "invalid_usage"


def test_a_bootstrap_without_an_interface_reported_as_invalid_usage_is_network_set_up(tmp_path):
    text = ("torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:3010, invalid usage, NCCL "
            "version 2.26.2\n"
            "ncclInvalidUsage: This usually reflects invalid usage of NCCL library.\n"
            "Last error:\n"
            "\n"
            "Bootstrap : no socket interface found\n")
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("network_setup", []), v
    assert "NCCL_SOCKET_IFNAME" in v["fix"]


def test_a_master_host_name_that_does_not_resolve_is_the_rendezvous(tmp_path):
    text = ("curl: (6) Could not resolve host: ptjob-llm-master-0\n"
            "master not ready, sleeping 10s\n")
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("store_rendezvous", []), v
    assert "MASTER_ADDR" in v["fix"]
    assert _verdict(tmp_path, "curl: (6) Could not resolve host: huggingface.co\n")["cause"] != "store_rendezvous"


def test_cuda_errors_after_ib_completion_errors_are_the_fabrics_teardown(tmp_path):
    """NCCL 2.x transport/net_ib.cu: "NET/IB : Got completion with error %d, opcode %d, len %d, vendor err %d"."""
    text = ("a1:10:20 [0] transport/net_ib.cu:801 NCCL WARN NET/IB : Got completion with error 12, opcode 0, len 0, "
            "vendor err 129\n"
            "a1:10:10 [1] init.cu:201 NCCL WARN Cuda failure 'an illegal memory access was encountered'\n")
    assert _verdict(tmp_path, text)["cause"] == "ib_fabric"
    first = "\n".join(reversed(text.splitlines())) + "\n"  # the CUDA error first: it is the rank's own
    assert _verdict(tmp_path, first)["cause"] == "cuda_error"


def test_one_bus_id_in_two_communicators_is_two_runs_not_two_ranks_on_one_gpu(tmp_path):
    """NCCL 2.1x+ print the communicator's id: one GPU in two communicators (a rerun in the same file) is fine."""
    text = ("srv-4:9101:9101 [0] NCCL INFO comm 0x71c0 rank 0 nranks 2 cudaDev 0 busId 3b000 commId 0xa1 - Init "
            "COMPLETE\n"
            "srv-4:9302:9302 [0] NCCL INFO comm 0x93a8 rank 1 nranks 2 cudaDev 0 busId 3b000 commId 0xb7 - Init "
            "COMPLETE\n")
    assert _verdict(tmp_path, text)["cause"] != "invalid_usage"
    same = text.replace("commId 0xb7", "commId 0xa1")
    assert _verdict(tmp_path, same)["cause"] == "invalid_usage"


# --- a resolver error as the exception of the store's traceback (round 18) ----------------------------------------
def test_a_dns_failure_ending_the_stores_traceback_is_the_rendezvous_host(tmp_path):
    """torch 1.x's TCPStore raised the resolver's text bare ("host not found: Name or service not known"); only
    the traceback's frames above it (rendezvous.py's handler, TCPStore(...)) say it was the store's host."""
    text = ("Traceback (most recent call last):\n"
            "  File \"train.py\", line 88, in setup\n"
            "    dist.init_process_group(\"nccl\", init_method=\"env://\")\n"
            "  File \"/opt/py/torch/distributed/distributed_c10d.py\", line 410, in init_process_group\n"
            "    store, rank, world_size = next(rendezvous(url, timeout=timeout))\n"
            "  File \"/opt/py/torch/distributed/rendezvous.py\", line 172, in _env_rendezvous_handler\n"
            "    store = TCPStore(master_addr, master_port, world_size, start_daemon, timeout)\n"
            "RuntimeError: Temporary failure in name resolution\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "store_rendezvous" and "MASTER_ADDR" in v["fix"], v
    assert v["culprits"] == []


def test_a_dns_failure_in_a_download_traceback_is_not_the_rendezvous(tmp_path):
    text = ("Traceback (most recent call last):\n"
            "  File \"fetch.py\", line 12, in <module>\n"
            "    urllib.request.urlopen(\"https://example.org/weights.bin\")\n"
            "  File \"/usr/lib/python3.10/urllib/request.py\", line 1351, in do_open\n"
            "    raise URLError(err)\n"
            "urllib.error.URLError: <urlopen error [Errno -2] Name or service not known>\n")
    assert _verdict(tmp_path, text)["cause"] != "store_rendezvous"


def test_c10ds_host_not_found_carried_by_a_wrapper_is_the_store_host(tmp_path):
    """c10d's own words for its store client's failed lookup ("host not found: " and the resolver's text), passed on
    by a wrapper that prints no store frame (torchelastic's coordinator, a logger's "Detailed message:"), with the
    store's announcement above it holding no trigger word: the store's host name does not resolve (lead rules L, Y),
    store_rendezvous with no rank, not a connection between ranks (elastic-31's shape, another wording and host)."""
    text = ("INFO 2021-03-02 11:04:17,201 Rank 3 will connect to TCPStore server at trainer-job-0x9k:51873\n"
            "[ERROR] 2021-03-02 11:04:17,233 coordinator_p2p: Rank: -1\n"
            "Error: Rank -1 received an Exception. Detailed message: host not found: Temporary failure in name "
            "resolution\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "store_rendezvous" and v["culprits"] == [], v
    # a job's own lookup of another service, in other words than c10d's, is not the store's
    other = text.replace("host not found: Temporary failure", "could not reach the metrics host: Temporary failure")
    assert _verdict(tmp_path, other)["cause"] != "store_rendezvous"


# --- a one-process nccl-tests run whose own socket is closed (round 20 preparation) -----------------------------------
_ONE_GPU_RUN = ("# nThread 1 nGpus 1 minBytes 1048576 maxBytes 1073741824 step: 2(factor) warmup iters: 5 iters: 20 "
                "agg iters: 1 validation: 1 graph: 0\n"
                "#\n"
                "# Using devices\n"
                "#  Rank  0 Group  0 Pid 4411 on    dgx-b7 device  0 [0000:1b:00] NVIDIA H100 80GB HBM3\n"
                "{more}"
                "dgx-b7:4411:4411 [0] NCCL INFO Bootstrap : Using ens7f0:10.4.3.9<0>\n"
                "NCCL version 2.19.3+cuda12.3\n"
                "dgx-b7:4411:4430 [0] NCCL INFO NET/Socket : Using [0]ens7f0:10.4.3.9<0>\n"
                "\n"
                "dgx-b7:4411:4429 [0] misc/socket.cc:47 NCCL WARN socketProgress: Connection closed by remote peer "
                "dgx-b7<40122>\n"
                "dgx-b7:4411:4429 [0] NCCL INFO misc/socket.cc:749 -> 6\n")


def test_a_peer_closing_the_socket_of_a_one_process_nccl_tests_run_is_the_hosts_network(tmp_path):
    """nccl-tests' rank 0 prints every process's device line ("#  Rank  N Group  G Pid P on HOST device D"), so a
    list of Rank 0 alone is a world of one process: no other process exists to have exited, and a socket closed
    by its 'remote peer' is one NCCL opened to itself, cut by the host (a firewall, a proxy) at set-up."""
    d = _report(tmp_path, _ONE_GPU_RUN.format(more=""))
    assert d["verdict"]["cause"] == "network_setup" and _accused(d) == set(), d["verdict"]
    assert "firewall" in d["verdict"]["fix"] and "NCCL_SOCKET_IFNAME" in d["verdict"]["fix"], d["verdict"]


def test_a_peer_closing_the_socket_of_a_two_process_nccl_tests_run_is_still_that_peer(tmp_path):
    two = _ONE_GPU_RUN.format(more="#  Rank  1 Group  0 Pid 5120 on    dgx-c2 device  0 [0000:1b:00] NVIDIA H100 "
                              "80GB HBM3\n")
    d = _report(tmp_path, two)
    assert d["verdict"]["cause"] == "early_exit" and _accused(d) == set(), d["verdict"]


# --- the store's port taken, in the wordings that do not say "listen on ...:P (errno: 98" (round 20's misses) ------
def test_a_bare_address_in_use_under_the_stores_traceback_frames_is_the_stores_port(tmp_path):
    """torch 1.x raises a bare "RuntimeError: Address already in use" from the TCPStore constructor: the line names
    no store, the traceback's frames just above (rendezvous.py's handler, ``TCPStore(...)``) do."""
    log = ('  File "/opt/venv/lib/python3.9/site-packages/torch/distributed/rendezvous.py", line 191, in '
           "_env_rendezvous_handler\n"
           "    store = TCPStore(master_addr, master_port, world_size, start_daemon, timeout)\n"
           "RuntimeError: Address already in use\n")
    d = _report(tmp_path, log)
    assert d["verdict"]["cause"] == "store_rendezvous" and _accused(d) == set(), d["verdict"]
    assert "already in use" in d["verdict"]["summary"] and "MASTER_PORT" in d["verdict"]["fix"], d["verdict"]


def test_an_address_in_use_far_from_any_store_frame_is_not_the_store(tmp_path):
    """Another server's bind failure (a metrics exporter, a web dashboard) is no store's: with no store frame above
    it the line is not read as the store's port."""
    log = ('  File "/srv/app/metrics.py", line 40, in serve\n'
           "    httpd = HTTPServer(('', 9100), Handler)\n"
           "OSError: [Errno 98] Address already in use\n")
    assert _verdict(tmp_path, log)["cause"] != "store_rendezvous"


def test_a_bare_address_in_use_exception_with_no_frames_is_still_the_stores_port(tmp_path):
    """Round 36: torch raises the store's bind failure as an exception whose whole message is the socket's words --
    THD's "at .../General.cpp:N" tail, torchelastic's error file quoting it -- and a paste keeps no frames. Those
    words alone are the store's (NCCL, gloo and Python's sockets word theirs otherwise); another wording stays not."""
    thd = ("RuntimeError: Address already in use at /tmp/pytorch_build/torch/lib/THD/process_group/General.cpp:17\n"
           "CUDA_VISIBLE_DEVICES=2,3 python -m torch.distributed.launch --nproc_per_node=2 train.py\n")
    elastic = ("ERROR:torch.distributed.elastic.multiprocessing.errors.error_handler:{\n"
               '  "message": {\n'
               '    "message": "DistNetworkError: Address already in use",\n'
               '    "extraInfo": {\n')
    for log in (thd, elastic):
        d = _report(tmp_path, log)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("store_rendezvous", []) and not _accused(d), v
        assert "already in use" in v["summary"] and "--master_port" in v["fix"], v
    log = "RuntimeError: [/src/third_party/gloo/gloo/transport/tcp/pair.cc:214] bind: Address already in use\n"
    assert _verdict(tmp_path, log)["cause"] != "store_rendezvous"


def test_a_grpc_channel_that_cannot_connect_is_the_coordination_services_store(tmp_path):
    """Round 36: gRPC's own words for a channel it could not connect (JAX's coordination service at
    jax.distributed.initialize's coordinator address): the job's key-value store and rendezvous, not NCCL's
    connections between ranks (lead rule L): store_rendezvous, nobody; an NCCL refusal beside no gRPC stays not."""
    log = ("[process 2] E1108 04:12:55.301 88 coordination_service_agent.cc:332] UNAVAILABLE: failed to connect to "
           "all addresses; last error: UNKNOWN: ipv4:172.16.4.21:8476: Failed to connect to remote host: No route "
           "to host\n"
           "[process 5] PollForErrorAsync failed: UNAVAILABLE: failed to connect to all addresses\n")
    d = _report(tmp_path, log)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("store_rendezvous", []) and not _accused(d), v
    assert "172.16.4.21:8476" in v["summary"] and "coordinator address" in v["fix"], v
    nccl = "node-3:4411:4502 [2] NCCL INFO Call to connect returned Connection refused, retrying\n"
    assert _verdict(tmp_path, nccl)["cause"] != "store_rendezvous"


def test_the_store_clients_connect_error_with_its_address_cut_off_is_still_the_store(tmp_path):
    """Round 62: c10d's socket client raising "The client socket has failed to connect" with the " to [host]:port"
    cut off by the paste (a vLLM worker's init_process_group over tcp://): still the store's connection that could
    not be made (lead rule L), store_rendezvous, nobody named. The same cut words as c10d's [W] warning, which the
    client retries from, are no store failure."""
    log = ('  File "/opt/conda/lib/python3.10/site-packages/torch/distributed/rendezvous.py", line 172, in '
           "_create_c10d_store\n"
           "    return TCPStore(\n"
           "RuntimeError: The client socket has failed to connect\n")
    d = _report(tmp_path, log)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("store_rendezvous", []) and not _accused(d), v
    assert "could not connect to the store" in v["summary"] and "MASTER_ADDR" in v["fix"], v
    warn = "[W socket.cpp:663] [c10d] The client socket has failed to connect\n"
    assert _verdict(tmp_path, warn, "warn.log")["cause"] != "store_rendezvous"


def test_torch_xlas_mesh_master_unreachable_or_a_mesh_rendezvous_failing_is_the_rendezvous(tmp_path):
    """Round 62 (lead rule AS (1)): torch_xla's XRT mesh service's other two failures -- the client giving up on the
    mesh master ("Failed to connect to client mesh master: HOST:PORT") and a rendezvous it holds failing ("Failed to
    meet rendezvous 'init': Socket closed (14)") -- are the job's rendezvous service: store_rendezvous, nobody named,
    even beside xmp.spawn's "process N terminated with exit code 17" (the index of the child it joined first). The
    service's INFO and VLOG lines of the same waits ("Waiting to connect to client mesh master", "Waiting for
    rendezvous") fail nothing. Round 90 (xla-1870, rules G, O, AK (1)): a rendezvous of the run past its set-up
    (xm.save's 'torch_xla.core.xla_model.save') failing on the service's closed or reset connection is the service's
    host gone mid-run, early_exit with nobody named -- rule AS (1) is the start-up's (test_diagnose_family_fabric90)."""
    spawn = ('  File "/usr/lib/python3.8/site-packages/torch/multiprocessing/spawn.py", line 112, in join\n'
             "    (error_index, exitcode)\n"
             "Exception: process 3 terminated with exit code 17\n")
    for line in ("Failed to connect to client mesh master: 5f0e1a2b3c4d:48213\n",
                 "Exception in device=TPU:2: tensorflow/compiler/xla/xla_client/mesh_service.cc:294 : Failed to meet "
                 "rendezvous 'init': Socket closed (14)\n"):
        for tail in ("", spawn):
            d = _report(tmp_path, line + tail)
            v = d["verdict"]
            assert (v["cause"], v["culprits"]) == ("store_rendezvous", []) and not _accused(d), (line, tail, v)
            assert "mesh master" in v["fix"] and "XRT_MESH_SERVICE_ADDRESS" in v["fix"], v
    save = ("2021-03-02 11:04:17.118230: E tensorflow/compiler/xla/xla_client/tf_logging.cc:11] Failed to meet "
            "rendezvous 'torch_xla.core.xla_model.save': Connection reset by peer (14)\n")
    for tail in ("", spawn):
        d = _report(tmp_path, save + tail)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("early_exit", []) and not _accused(d), (tail, v)
    quiet = ("2021-03-02 11:04:02.005512: I tensorflow/compiler/xla/xla_client/mesh_service.cc:234] Waiting to connect "
             "to client mesh master (300 seconds) 5f0e1a2b3c4d:48213\n"
             "2021-03-02 11:04:03.101977: I tensorflow/compiler/xla/xla_client/mesh_service.cc:350] Waiting for "
             "rendezvous: ordinal=0 tag=init\n")
    assert _verdict(tmp_path, quiet, "quiet.log")["cause"] == "none"


def test_the_newer_eaddrinuse_wording_names_the_port(tmp_path):
    log = ('  File "/usr/lib/python3.11/site-packages/torch/distributed/rendezvous.py", line 176, in '
           "_create_c10d_store\n"
           "    return TCPStore(\n"
           "torch.distributed.DistNetworkError: The server socket has failed to listen on any local network address. "
           "port: 23456, useIpv6: 0, code: -98, name: EADDRINUSE, message: address already in use\n")
    v = _verdict(tmp_path, log)
    assert v["cause"] == "store_rendezvous" and "port 23456 is already in use" in v["summary"], v


def test_the_rendezvous_ports_bind_warnings_name_a_free_port_the_rdzv_endpoint_and_the_stale_holder(tmp_path):
    """Round 40: torchrun's c10d rendezvous store failing to bind its port on every address (errno 98) and then to
    listen: the fix an expert gives names the port's two settings (--master_port, --rdzv_endpoint), a free port and
    the stale process of an earlier run that holds it -- not the launcher's settings in the abstract."""
    log = ("[W socket.cpp:501] [c10d] The server socket has failed to bind to [::]:31017 (errno: 98 - Address "
           "already in use).\n"
           "[W socket.cpp:501] [c10d] The server socket has failed to bind to 0.0.0.0:31017 (errno: 98 - Address "
           "already in use).\n"
           "[E socket.cpp:537] [c10d] The server socket has failed to listen on any local network address.\n")
    v = _verdict(tmp_path, log)
    assert (v["cause"], v["culprits"]) == ("store_rendezvous", []), v
    assert "31017" in v["summary"], v
    assert all(w in v["fix"] for w in ("rdzv_endpoint", "free port", "stale process", "Address already in use")), v


def test_a_store_port_in_use_under_srun_says_pick_a_free_port(tmp_path):
    """Round 58: several processes started by srun each try to host the c10d store on one port and all but one fail
    to bind it (errno 98) on [::] and 0.0.0.0, then to listen: store_rendezvous, nobody at fault; the expert's fix
    words are a free port per run and the holder found with ss."""
    bind = ("[W socket.cpp:426] [c10d] The server socket cannot be initialized on [::]:41877 (errno: 97 - Address "
            "family not supported by protocol).\n"
            "[W socket.cpp:601] [c10d] The server socket has failed to bind to [::]:41877 (errno: 98 - Address "
            "already in use).\n"
            "[W socket.cpp:601] [c10d] The server socket has failed to bind to 0.0.0.0:41877 (errno: 98 - Address "
            "already in use).\n")
    log = bind * 2 + "[E socket.cpp:462] [c10d] The server socket has failed to listen on any local network address.\n"
    d = _report(tmp_path, log)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("store_rendezvous", []) and not _accused(d), v
    assert "41877" in v["summary"] and "pick a free port" in v["fix"] and "ss -ltnp" in v["fix"], v


_STORE_IN_USE = ('  File "/usr/lib/python3.10/site-packages/torch/distributed/rendezvous.py", line 174, in '
                 "_create_c10d_store\n"
                 "    return TCPStore(\n"
                 "torch.distributed.DistNetworkError: The server socket has failed to listen on any local network "
                 "address. port: 29612, useIpv6: 0, code: -98, name: EADDRINUSE, message: address already in use\n")


def test_the_stores_port_in_use_under_several_slurm_tasks_a_node_with_procid_node_ranks_is_config(tmp_path):
    """Lead rule AA (1), megatron-lm-1371's shape in other words: srun's --tasks-per-node 4 and torchrun's
    --node_rank from SLURM_PROCID start four launchers a node; the extra ones on the master's host bind its port."""
    log = ("srun --nodes=2 --tasks-per-node 4 --gres=gpu:4 bash -c 'torchrun --nnodes 2 --nproc_per_node 4 "
           "--node_rank=$SLURM_PROCID --master_addr $HEAD --master_port 29612 pretrain.py'\n" + _STORE_IN_USE)
    v = _verdict(tmp_path, log)
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "--ntasks-per-node=1" in v["fix"] and "SLURM_NODEID" in v["fix"], v


def test_the_stores_port_in_use_with_one_slurm_task_a_node_stays_the_stores_port(tmp_path):
    """With one task a node SLURM_PROCID is the node's index: the launch is right, the port is another holder's."""
    log = ("#SBATCH --ntasks-per-node=1\n"
           "export NODE_RANK=$SLURM_PROCID\n" + _STORE_IN_USE)
    v = _verdict(tmp_path, log)
    assert v["cause"] == "store_rendezvous" and "port 29612 is already in use" in v["summary"], v


_CONNECT_WARN = ("[W socket.cpp:601] [c10d] The client socket has failed to connect to [trainbox.lan]:29512 (errno: 99 "
                 "- Cannot assign requested address).\n")
_INTO_INIT = ("Traceback (most recent call last):\n"
              '  File "/home/u/proj/train.py", line 88, in <module>\n'
              "    main()\n"
              '  File "/home/u/proj/train.py", line 31, in main\n'
              '    dist.init_process_group("gloo", rank=rank, world_size=world)\n')


def test_a_connect_warning_then_a_traceback_cut_inside_init_process_group_is_unknown_with_the_warning_as_lead(
        tmp_path):
    """Lead rules BM (2), BG (6), kohya-ss-2163's shape on Linux: the store client's connect warning (one attempt at
    one address, which it retries), then a traceback down to the init_process_group call and no exception line (the
    paste was cut): what the process raised is not shown, so the cause is unknown, low, no rank -- never 'nothing
    failed', and the fix leads with the warning's address (MASTER_ADDR) and asks for the exception text."""
    d = _report(tmp_path, _CONNECT_WARN + _INTO_INIT)
    assert (d["verdict"]["cause"], d["verdict"]["confidence"]) == ("unknown", "low"), d["verdict"]
    assert "MASTER_ADDR" in d["verdict"]["fix"] and "exception text" in d["verdict"]["fix"] and _accused(d) == set()


def test_a_connect_warning_with_the_traceback_s_exception_shown_is_read_by_that_exception(tmp_path):
    """The exception line shown below the call decides: Windows' torch without NCCL is no store failure."""
    log = (_CONNECT_WARN + _INTO_INIT
           + '  File "/usr/lib/python3/torch/distributed/distributed_c10d.py", line 1097, in init_process_group\n'
           "RuntimeError: Distributed package doesn't have NCCL built in\n")
    assert _verdict(tmp_path, log)["cause"] != "store_rendezvous"


def test_a_connect_warning_then_a_traceback_cut_in_accelerates_set_up_is_unknown_with_the_warning_as_lead(tmp_path):
    """Lead rules BM (2), BG (6), round 57's shape: the same warning (Windows' 10049 to a hosts-file alias), then a
    traceback cut at the frame of accelerate's set-up (prepare_accelerator, which makes the Accelerator and so the
    process group): read as if cut at init_process_group itself -- unknown, low, no rank, the warning the lead."""
    log = ("prepare optimizer, data loader etc.\n"
           "[W socket.cpp:601] [c10d] The client socket has failed to connect to [host.docker.internal]:29533 "
           "(system error: 10049 - The requested address is not valid in its context.).\n"
           "Traceback (most recent call last):\n"
           '  File "D:\\sd\\scripts\\train_lora.py", line 402, in <module>\n'
           "    trainer.train(args)\n"
           '  File "D:\\sd\\scripts\\train_lora.py", line 117, in train\n'
           "    acc = util.prepare_accelerator(args)\n"
           '  File "D:\\sd\\scripts\\util.py", line 2204, in prepare_accelerator\n')
    d = _report(tmp_path, log)
    assert (d["verdict"]["cause"], d["verdict"]["confidence"]) == ("unknown", "low"), d["verdict"]
    assert "MASTER_ADDR" in d["verdict"]["fix"] and "gloo" in d["verdict"]["fix"] and _accused(d) == set()


_SPAWNED_INTO_INIT = (
    "Traceback (most recent call last):\n"
    '  File "run.py", line 40, in <module>\n'
    "    mp.spawn(worker, nprocs=2, join=True)\n"
    '  File "/opt/py/lib/python3.9/site-packages/torch/multiprocessing/spawn.py", line 118, in join\n'
    "    raise Exception(msg)\n"
    "Exception: \n\n"
    "-- Process 0 terminated with the following error:\n"
    "Traceback (most recent call last):\n"
    '  File "/opt/py/lib/python3.9/site-packages/torch/multiprocessing/spawn.py", line 19, in _wrap\n'
    "    fn(i, *args)\n"
    '  File "/srv/app/run.py", line 12, in worker\n'
    "    dist.init_process_group('nccl', rank=rank, world_size=2)\n"
    '  File "/opt/py/lib/python3.9/site-packages/torch/distributed/distributed_c10d.py", line 500, in '
    "init_process_group\n")
_RDZV_NEXT = "    store, rank, world_size = next(rendezvous_iterator)\n"


def test_a_traceback_cut_at_init_process_groups_rendezvous_step_is_the_store(tmp_path):
    """Lead rules L, Q and AN (2), round 67: a spawned child's traceback cut (no exception line) at init_process_group's
    rendezvous step -- 'store, rank, world_size = next(rendezvous_iterator)' (with Python 3.11's carets too) or the
    env:// handler creating the TCPStore -- raised while the store every process shares was being set up:
    store_rendezvous, nobody named (spawn's child 0 hosts the store; its own work never started). A cut at the
    handler reading an environment variable, or past the store in init_process_group, is not read so; an exception
    line shown decides by itself."""
    handler = ('  File "/opt/py/lib/python3.9/site-packages/torch/distributed/rendezvous.py", line 190, in '
               "_env_rendezvous_handler\n")
    for tail in (_RDZV_NEXT, _RDZV_NEXT + " " * 30 + "^" * 25 + "\n",
                 _RDZV_NEXT + handler + "    store = TCPStore(master_addr, master_port, world_size, start_daemon, "
                 "timeout)\n"):
        d = _report(tmp_path, _SPAWNED_INTO_INIT + tail)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("store_rendezvous", []), (tail, v)
        assert "MASTER_PORT" in v["fix"] and "Address already in use" in v["fix"] and _accused(d) == set(), v
    for tail in (_RDZV_NEXT + handler + '    rank = int(_get_env_or_raise("RANK"))\n',
                 "    default_pg = _new_process_group_helper(\n"):
        assert _verdict(tmp_path, _SPAWNED_INTO_INIT + tail)["cause"] != "store_rendezvous", tail
    shown = (_RDZV_NEXT + "ValueError: Error initializing torch.distributed using env:// rendezvous: environment "
             "variable MASTER_ADDR expected, but not set\n")
    assert _verdict(tmp_path, _SPAWNED_INTO_INIT + shown)["cause"] == "config"


def test_a_windows_traceback_cut_in_init_process_group_past_the_store_is_the_nccl_backend(tmp_path):
    """Lead rules L and Q, round 57: the 10049 warnings, then a (rich) traceback of a Windows install asking for the
    nccl backend, cut inside init_process_group past 'store = PrefixStore("default_pg", store)': the store was got
    (the warnings were retried), and what failed is making the NCCL group, which Windows' torch has not -- config, no
    rank; a traceback cut before the store (the case above) stays the store's."""
    bar = "\u2502"
    log = ("[W ..\\torch\\csrc\\distributed\\c10d\\socket.cpp:558] [c10d] The client socket has failed to "
           "connect to [WORKSTATION-7]:29500 (system error: 10049 - The requested address is not valid in its "
           "context.).\n" * 2
           + "\u256d\u2500\u2500 Traceback (most recent call last) \u2500\u2500\u256e\n"
           f"{bar} E:\\ai\\trainer\\run_train.py:640 in <module>        {bar}\n"
           f"{bar}   88 {bar}   if not torch.distributed.is_initialized():      {bar}\n"
           f'{bar} \u2771 89 {bar}   {bar}   torch.distributed.init_process_group(backend="nccl")  {bar}\n'
           f"{bar} E:\\ai\\trainer\\venv\\lib\\site-packages\\torch\\distributed\\distributed_c10d.py:895 in {bar}\n"
           f"{bar} init_process_group                                 {bar}\n"
           f'{bar}  893 {bar}   {bar}   store = PrefixStore("default_pg", store)    {bar}\n')
    d = _report(tmp_path, log)
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("config", []), d["verdict"]
    assert "gloo" in d["verdict"]["fix"] and _accused(d) == set()


def test_a_connect_warning_alone_stays_harmless(tmp_path):
    """Rule N: the warning with nothing failing after it (torch connects through the host's next address)."""
    assert _verdict(tmp_path, _CONNECT_WARN + "epoch 1/3: loss 2.31\n")["cause"] == "none"


# --- an IB completion names a queue pair, not the rank that printed it (round 20: deepspeed-6875) --------------------
def test_no_completion_status_makes_the_reporting_rank_a_culprit(tmp_path):
    """A flush (5) follows an earlier failure of the pair; a retry (12) or remote error (9-11) is the peer or the
    path not answering; a local one (4) is the node's GPUDirect set-up: in no case is the printing rank at fault."""
    for status, where in ((5, "check the peer"), (12, "link to the peer"), (10, "link to the peer"),
                          (4, "GPUDirect")):
        log = (f"[rank6]: gpu-b12:71002:71300 [6] NCCL WARN NET/IB : Got completion from peer 172.16.4.9<51022> "
               f"with status={status} opcode=1 len=0 vendor err 129 (Send) localGid ::ffff:172.16.4.11 hca mlx5_3\n"
               "[rank6]:[E0702 04:12:55.101201 71002 ProcessGroupNCCL.cpp:1575] [PG 0 Rank 6] Process group watchdog "
               "thread terminated with exception: NCCL error: remote process exited or there was a network error, "
               "NCCL version 2.21.5\n")
        d = _report(tmp_path, log)
        assert d["verdict"]["cause"] == "ib_fabric" and _accused(d) == set(), (status, d)
        assert where in d["verdict"]["summary"], (status, d["verdict"]["summary"])


# --- lead rule L: oneCCL's key-value store is its rendezvous -------------------------------------------------------
def test_oneccl_kvs_failures_are_the_store(tmp_path):
    """oneCCL's kvs (internal_kvs.cpp) is the rendezvous of its ranks: a connection that runs out of time, or no
    interface to take its address from, is store_rendezvous, no rank named (its "|CCL_ERROR|" lines carry no
    lower-case "error" of their own)."""
    timeout = ("2025:06:03-08:14:55:(70211) |CCL_ERROR| internal_kvs.cpp:541 kvs_init: connection time (120) >= "
               "limit (120)\n")
    d = _report(tmp_path, timeout)
    assert d["verdict"]["cause"] == "store_rendezvous" and _accused(d) == set(), d["verdict"]
    assert "CCL_KVS_IP_PORT" in d["verdict"]["fix"], d["verdict"]
    iface = ("2025:06:03-08:14:55:( 911) |CCL_ERROR| internal_kvs.cpp:301 fill_local_host_ip: can't find interface "
             "eth9 to get host IP\n")
    v = _verdict(tmp_path, iface)
    assert v["cause"] == "store_rendezvous" and "CCL_KVS_IFACE" in v["fix"] and "no network interface" in v["summary"]


# round 30: oneCCL's transport layer (ATL) finding no libfabric provider is its own system set-up, not the kvs
def test_oneccl_atl_finding_no_provider_is_the_librarys_system_setup_not_a_rank(tmp_path):
    stamp = "2025:02:14-17:03:09:(55120) |CCL_ERROR| "
    text = (stamp + "atl_ofi_helper.cpp:870 atl_ofi_get_prov_list: fi_getinfo error: ret -2, providers 0\n"
            + stamp + "atl_ofi_helper.cpp:910 atl_ofi_get_prov_list: can't create providers for name psm3\n"
            + stamp + "atl_ofi.cpp:250 init: can't find suitable provider\n"
            "failed to initialize ATL\nTraceback (most recent call last):\n  File \"serve.py\", line 12, in <module>\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("nccl_system", []) and not _accused(d), v
    assert "FI_PROVIDER" in v["fix"] and "CCL_ATL_TRANSPORT" in v["fix"] and "CCL_KVS" not in v["fix"], v


# --- session 6, fix21h: lead rule L, a read from the store against a connect --------------------------------------

def _wait_input(prefix: str, port: int = 29611) -> str:
    """torch 2.5's socket.cpp waitForInput pair: the socket was connected (it has a remote), no reply came."""
    return "".join(f"{prefix}[W1103 10:00:01.000000000 socket.cpp:{n}] [c10d] waitForInput: {what}socket "
                   f"SocketImpl(fd=41, addr=[trainer-3]:50112, remote=[trainer-0]:{port}) {tail}\n"
                   for n, what, tail in ((462, "poll for ", "returned 0, likely a timeout"),
                                         (487, "", "timed out after 600000ms")))


def test_a_ranks_store_read_that_times_out_after_connecting_waits_for_a_rank_not_shown(tmp_path):
    """Rule L against G: rank 5 had connected to the store and waited 10 min for a reply: a key another rank had not
    written (the main process still busy), rank_missing with nobody named; the same wait of torchrun's agent (no
    rank prefix: its rendezvous waits for other nodes) stays store_rendezvous."""
    d = _report(tmp_path, "Map (num_proc=16):  77%|███████▋  | 77000/100000 [10:01<02:59]" + _wait_input("[rank5]:"))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("rank_missing", []) and 5 not in _accused(d), v
    assert "main_process_first" in v["fix"] and "Map" in v["summary"], v
    assert _verdict(tmp_path, _wait_input(""))["cause"] == "store_rendezvous"


def test_a_store_read_whose_pasted_rank_prefix_lost_its_bracket_is_still_a_training_ranks_wait(tmp_path):
    """Rule Y (round 30): a paste that cut the first character of its first line keeps "rank3]:[W..." -- still the
    training process's own prefix, not torchrun's agent: its connected store read timing out is rank_missing, the
    waiting rank a victim, whether or not the lines after it carry the full "[rank3]:"."""
    text = _wait_input("rank3]:", port=40123) + "[rank3]: Traceback (most recent call last):\n"
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("rank_missing", []) and not _accused(d), v
    assert _verdict(tmp_path, "> " + _wait_input("rank11]:"))["cause"] == "rank_missing"


def test_a_bare_socket_timeout_raised_by_a_collective_call_is_a_store_read_not_a_connect(tmp_path):
    """Rule Y (round 30): "Socket Timeout" raised right below a traceback's collective frame in distributed_c10d.py
    (with NCCL's lazy set-up a group's first collective reads the unique id from the store it is connected to) is a
    read that waited for a rank not shown: rank_missing, nobody named; the same exception below
    init_process_group's frames stays the store's rendezvous."""
    frames = ('  File "/usr/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", line 2211, in {fn}\n'
              "    work = group.{call}([tensor], opts)\n"
              "torch.distributed.DistStoreError: Socket Timeout\n")
    d = _report(tmp_path, '  File "train.py", line 88, in setup\n    dist.broadcast(flag, src=0)\n'
                + frames.format(fn="broadcast", call="broadcast"))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("rank_missing", []) and not _accused(d), v
    assert "broadcast" in v["summary"], v["summary"]
    init = frames.format(fn="init_process_group", call="store_based_barrier").replace("work = group.", "")
    assert _verdict(tmp_path, init)["cause"] == "store_rendezvous"


def test_a_socket_timeout_under_ddps_parameter_broadcast_is_a_store_read_for_a_rank_not_shown(tmp_path):
    """Rule Y with H (round 50, pytorch-63455's shape): DDP's constructor broadcasts rank 0's parameters, its first
    collective, and with NCCL's lazy set-up that reads the unique id from the connected store: a "Socket Timeout"
    right under that frame (torch 1.7's _distributed_broadcast_coalesced, 1.12+'s utils.py _sync_params_and_buffers)
    is rank_missing with nobody named; the same exception under init_process_group's frames stays the store's."""
    for frames in (
            '  File "/opt/conda/lib/python3.8/site-packages/torch/nn/parallel/distributed.py", line 431, in __init__\n'
            "    self._sync_params_and_buffers(authoritative_rank=0)\n"
            '  File "/opt/conda/lib/python3.8/site-packages/torch/nn/parallel/distributed.py", line 1001, in '
            "_distributed_broadcast_coalesced\n"
            "    self.process_group, tensors, buffer_size, authoritative_rank\n"
            "RuntimeError: Socket Timeout\n",
            "[rank3]:   File \"/usr/lib/python3.10/site-packages/torch/nn/parallel/distributed.py\", line 824, in "
            "__init__\n[rank3]:     _sync_module_states(\n"
            "[rank3]:   File \"/usr/lib/python3.10/site-packages/torch/distributed/utils.py\", line 310, in "
            "_sync_params_and_buffers\n[rank3]:     dist._broadcast_coalesced(\n"
            "[rank3]: torch.distributed.DistStoreError: Socket Timeout\n"):
        d = _report(tmp_path, "Traceback (most recent call last):\n" + frames)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("rank_missing", []) and not _accused(d), v
        assert "broadcast" in v["summary"], v["summary"]
    init = ('  File "/opt/conda/lib/python3.8/site-packages/torch/distributed/distributed_c10d.py", line 455, in '
            "init_process_group\n    barrier()\nRuntimeError: Socket Timeout\n")
    assert _verdict(tmp_path, init)["cause"] == "store_rendezvous"


def test_a_waitforinput_line_pasted_without_its_header_is_a_ranks_read_unless_the_agent_is_shown(tmp_path):
    """Rule Y (round 50, LlamaFactory-9350's shape): c10d's "waitForInput: poll for socket ... returned 0, likely a
    timeout" on a connected socket, pasted without its "[W... socket.cpp:N] [c10d]" header (so whether a "[rankN]:"
    stood before it cannot be told), other hosts, ports and quoting: rank_missing, nobody named. Near shapes that
    stay the store's rendezvous: the same line with its header and no rank tag (the process had no rank yet), or
    below torchrun's own agent frames (its rendezvous)."""
    for host, port, quote in (("10.20.0.7", 29500, ""), ("::ffff:192.168.8.2", 23456, "> ")):
        line = (f"{quote}waitForInput: poll for socket SocketImpl(fd=57, addr=[{host}]:41822, remote=[{host}]:{port}) "
                "returned 0, likely a timeout\n")
        d = _report(tmp_path, "NNODES=2 RANK=1 MASTER_PORT=29500 llamafactory-cli train cfg.yaml\n" + line)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("rank_missing", []) and not _accused(d), (line, v)
        agent = line + ('  File "/usr/lib/python3.10/site-packages/torch/distributed/run.py", line 892, in main\n'
                        "    run(args)\n")
        assert _verdict(tmp_path, agent)["cause"] == "store_rendezvous"
    assert _verdict(tmp_path, _wait_input("", port=31337))["cause"] == "store_rendezvous"


def test_a_store_read_timing_out_inside_a_serving_engines_client_call_waits_for_the_trainer(tmp_path):
    """Rule Y (round 61, a weight-sync shape): a rollout engine's worker times out reading the store it had connected
    to inside a call the engine's client made on its workers (vLLM's engine core logging its failed collective_rpc; a
    trainer's update_named_param frame): the group is the weight sync shared with the trainer, whose side never wrote
    the key -- rank_missing, nobody named, the waiting worker a victim, and the fix looks at the trainer (its log, a
    py-spy dump), not at a dataset's preprocessing. Without such a call the same read keeps its usual reading."""
    wait = _wait_input("[rank1]:", port=51888).replace("trainer-0", "0.0.0.0").replace("trainer-3", "localhost")
    for call in ("ERROR 03-02 11:04:09 [core.py:470] Invocation of collective_rpc method failed\n",
                 'Traceback (most recent call last):\n  File "/srv/rollout/serve.py", line 311, in update_named_param\n'
                 "    self.pynccl_comm.broadcast(weights, src=self.client_rank)\n"):
        d = _report(tmp_path, wait + call)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("rank_missing", []) and not _accused(d), v
        assert "trainer" in v["summary"] and "py-spy dump of the trainer ranks" in v["fix"], v
        assert "main_process_first" not in v["fix"] and "0.0.0.0 is a wildcard" in v["fix"], v["fix"]
    v = _verdict(tmp_path, wait)
    assert v["cause"] == "rank_missing" and "main_process_first" in v["fix"] and "trainer" not in v["fix"], v


def test_a_store_connection_reset_pasted_in_markdown_bold_is_read_like_the_plain_line(tmp_path):
    """Rules L/Y (round 30): the store client's connection reset as the exception right below init_process_group's
    store-barrier frames is store_rendezvous; an issue's Markdown emphasis around that exception line
    ("**RuntimeError: ...**", "__...__") is the same line, not a peer's socket error (was early_exit)."""
    frames = ('  File "/opt/py/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", line 901, in '
              "init_process_group\n    _store_based_barrier(rank, store, timeout)\n"
              '  File "/opt/py/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", line 402, in '
              "_store_based_barrier\n    store.add(store_key, 1)\n")
    for mark in ("**", "__"):
        d = _report(tmp_path, frames + f"{mark}RuntimeError: Connection reset by peer{mark}\n")
        assert d["verdict"]["cause"] == "store_rendezvous" and not _accused(d), d["verdict"]

def test_a_unique_id_wait_whose_rank_was_cut_off_the_paste_still_names_rank_0(tmp_path):
    """Lead rule G: the store get of the key rank 0 publishes the ncclUniqueId under, timing out, with the waiting
    rank's "[N] is" cut off the pasted line (torch 2.1's "retrieving" spelling, the second communicator's key '1'
    here): rank 0 of the group never reached its first collective; nobody else is named."""
    text = ("RuntimeError: [../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1331] setting up NCCL communicator "
            "and retrieving ncclUniqueId from [0] via c10d key-value store by key '1', but store->get('1') got "
            "error: Socket Timeout\n")
    d = _report(tmp_path, text)
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("rank_missing", [0]), d["verdict"]
    assert "rank(s)  " not in d["verdict"]["summary"]


def test_a_unique_id_wait_timing_out_names_what_rank_0_was_doing_and_what_to_run(tmp_path):
    """Lead rule G (round 52): a rank's store get('0') of the ncclUniqueId timing out: rank 0 never reached its first
    NCCL collective (still loading or preprocessing the dataset): the fix says so, names py-spy on rank 0,
    preprocessing before launch, the process-group timeout and NCCL_DEBUG=INFO (other ranks, keys, prefixes)."""
    for r, key, pre in ((3, "0", "torch.distributed.DistBackendError: "), (11, "1", "[rank11]: RuntimeError: ")):
        text = (f"{pre}[{r}] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via c10d key-value "
                f"store by key '{key}', but store->get('{key}') got error: Socket Timeout\n")
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("rank_missing", [0]) and r not in _accused(d), v
        for words in ("rank 0 never reached its first NCCL collective", "py-spy dump rank 0",
                      "Preprocess the dataset before launch", "increase the process-group timeout", "NCCL_DEBUG=INFO"):
            assert words.lower() in v["fix"].lower(), (words, v["fix"])


def test_a_unique_id_wait_cut_right_after_got_error_still_names_rank_0(tmp_path):
    """Lead rule G (round 73): a rank's store get('0') of the ncclUniqueId, the paste cut right after "got error"
    (its reason lost), under transformers' main_process_first barrier: the read failed all the same, so rank 0 never
    reached its first collective; the waiting rank is not accused. Cut before "got error", the line shows no failed
    read, and nobody is named from it."""
    head = ("RuntimeError: [2] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via c10d key-value "
            "store by key '0', but store->get('0')")
    frames = ("Traceback (most recent call last):\n"
              '  File "/srv/app/sft.py", line 88, in prepare\n'
              '    with args.main_process_first(desc="dataset map pre-processing"):\n'
              '  File "/srv/venv/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", line 3328, in '
              "barrier\n"
              "    work = default_pg.barrier(opts=opts)\n")
    d = _report(tmp_path, frames + head + " got error\n")
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("rank_missing", [0]) and 2 not in _accused(d), v
    d = _report(tmp_path, frames + head + "\n")
    assert d["verdict"]["cause"] != "rank_missing" and 0 not in _accused(d), d["verdict"]


def test_a_unique_id_wait_whose_head_was_cut_off_still_names_the_rank_it_waited_for(tmp_path):
    """Lead rule G (round 55): the paste kept only the last words of a rank's failed store read of the ncclUniqueId
    ("... This may indicate a possible application crash on rank 0 or a network set up issue.", its head lost among
    the C++ frames), under that rank's barrier frame: the named rank never reached the first collective; the waiting
    rank is its victim."""
    for r in (1, 6):
        text = (f"[rank{r}]: Traceback (most recent call last):\n"
                f'[rank{r}]:   File "/srv/app/train_lora.py", line 402, in train\n'
                f"[rank{r}]:     accelerator.wait_for_everyone()\n"
                f"[rank{r}]: frame #12: _start + 0x25 (0x5600aa10b605 in /srv/venv/bin/python)\n"
                f"[rank{r}]: . This may indicate a possible application crash on rank 0 or a network set up issue.\n")
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("rank_missing", [0]) and r not in _accused(d), v


def test_a_connected_store_reads_poll_failing_with_errno_0_is_a_wait_naming_nobody(tmp_path):
    """Rules Y/H (round 55): c10d's "While waitForInput, poolFD failed with (errno: 0 - Success)" on ranks already
    connected to the store is poll() failing with no socket error: a read waiting for a key that never came, not a
    refused or reset connection. With no key named and rank 0 not shown: rank_missing, nobody named, the waiting
    ranks not accused."""
    text = "".join(f"[rank{r}]:[W302 08:11:40.{r}00000000 socket.cpp:428] [c10d] While waitForInput, poolFD failed "
                   "with (errno: 0 - Success).\n" for r in (1, 2, 3))
    text += ("[rank2]: Traceback (most recent call last):\n"
             '[rank2]:   File "/srv/app/train.py", line 210, in main\n'
             "[rank2]:     accelerator.wait_for_everyone()\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("rank_missing", []) and not _accused(d), v


def test_a_unique_id_wait_reset_keeps_its_own_fix(tmp_path):
    """The near shape: the same get('0') lost to a reset (the store's host process gone) keeps its early_exit reading
    and fix, not the never-arrived one."""
    v = _report(tmp_path, _RESET.format(r=5))["verdict"]
    assert v["cause"] == "early_exit" and "never reached its first NCCL collective" not in v["fix"], v


# --- session 7 (f3) ------------------------------------------------------------------------------------------------
def test_a_rank_checked_in_twice_at_the_bootstrap_root_is_a_duplicate_global_rank(tmp_path):
    """bootstrap.cc's root: "Bootstrap Root : rank %d of %d ranks has already checked in": two processes were given
    one global rank (the node rank or the tasks per node of the launch), no rank's fault."""
    text = nccl_info("gpu-b7", 3120, 1, "Bootstrap : Using ib0:10.9.0.12<0>") + (
        "gpu-a3:6021:6188 [0] bootstrap.cc:144 NCCL WARN Bootstrap Root : rank 11 of 16 ranks has already checked in\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "invalid_usage" and not _accused(d), v
    assert "duplicate global rank" in v["fix"] and "NODE_RANK" in v["fix"] and "MASTER_PORT" in v["fix"], v["fix"]


def test_a_verbs_create_that_the_host_refuses_names_the_container_memlock_and_ib_resources(tmp_path):
    """ibvwrap.cc: "Call to ibv_create_qp failed with error %s" at connection set-up (lead rule J: nccl_system)."""
    text = ("dgx-14:2201:2377 [3] misc/ibvwrap.cc:212 NCCL WARN Call to ibv_create_qp failed with error Cannot "
            "allocate memory\n" + nccl_info("dgx-14", 2201, 3, "transport/net_ib.cc:1011 -> 2", tid=2377))
    v = _verdict(tmp_path, text)
    assert v["cause"] == "nccl_system", v
    assert "container memlock limit" in v["fix"] and "IB resources" in v["fix"], v["fix"]


def test_nccls_mlx5dv_create_qp_refused_is_the_same_local_refusal_not_the_fabric(tmp_path):
    """net_ib/connect.cc: "NET/IB: mlx5dv_create_qp failed to create QP: %s" (strerror) is the mlx5 direct-verbs
    path of the same ibv_create_qp: a queue pair allocated on the local HCA, nothing on the wire. The host refused
    it (lead rule J: nccl_system, nobody accused), as for "Call to ibv_create_qp failed"."""
    text = ("gpu-r2:7710:7790 [5] transport/net_ib/connect.cc:372 NCCL WARN NET/IB: mlx5dv_create_qp failed to "
            "create QP: Cannot allocate memory\n"
            + nccl_info("gpu-r2", 7710, 5, "transport/net_ib/connect.cc:506 -> 2", tid=7790)
            + nccl_info("gpu-r2", 7710, 5, "transport/net.cc:700 -> 2", tid=7790))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "nccl_system" and not _accused(d), v
    assert "ulimit -l" in v["fix"] and "max_qp" in v["fix"], v["fix"]


def test_an_rdma_engines_own_modify_qp_refusal_is_the_fabric_whatever_its_errno(tmp_path):
    """Round 62's uccl-641: an RDMA engine of its own (UCCL's expert-parallel set-up) prints "Failed to modify QP to
    RTR: Connection timed out" and "errno: 110" for many queue pairs, no NCCL prefix, no rank: ibv_modify_qp failing at
    connection set-up, whatever its errno, is lead rule J's ib_fabric, nobody named -- as NCCL's "Call to
    ibv_modify_qp failed". Another state and errno too (a line with no other trigger word). Creating the queue pair
    refused by the host stays nccl_system, and the engine's note of a transition done fails nothing."""
    for state, said, errno_ in (("RTR", "Connection timed out", 110), ("RTS", "Invalid argument", 22)):
        text = ("RoCE detected (Ethernet)\n  port_state: ACTIVE\n"
                + f"Failed to modify QP to {state}: {said}\nerrno: {errno_}\n" * 3)
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("ib_fabric", []) and not _accused(d), (state, v)
        assert f"ibv_modify_qp failed (to {state}: {said})" in v["summary"], v
        assert "NCCL_IB_GID_INDEX" in v["fix"] and "show_gids" in v["fix"], v
    assert _verdict(tmp_path, "Failed to create QP: Cannot allocate memory [12]\n", "qp.log")["cause"] == "nccl_system"
    assert _verdict(tmp_path, "Modify QP to RTR done, remote QPN: 2120\n", "done.log")["cause"] != "ib_fabric"


def test_a_truncated_bootstrap_message_is_nccls_own_protocol_not_the_network(tmp_path):
    """bootstrap.cc's bootstrapNetRecv: "Message truncated : received %d bytes instead of %d" returns
    ncclInternalError: the two ends of NCCL's own set-up disagree (versions, a bug), not an unreachable path."""
    text = ("node-12:881:940 [6] bootstrap.cc:81 NCCL WARN Message truncated : received 1024 bytes instead of 8\n"
            + nccl_info("node-12", 881, 6, "bootstrap.cc:560 -> 3", tid=940)
            + nccl_info("node-12", 881, 6, "transport.cc:211 -> 3", tid=940))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "nccl_internal" and not _accused(d), v
    assert "NCCL version" in v["fix"], v["fix"]


def test_a_file_path_as_the_stores_host_is_the_rendezvous_endpoint_not_a_harmless_lookup(tmp_path):
    """socket.cpp's "The IPv6 network addresses of (%s, %d) cannot be retrieved (gai error: %d - %s)." with a file
    path where the host belongs: MASTER_ADDR is wrong (store_rendezvous); a real host name stays harmless."""
    bad = ("[W socket.cpp:663] [c10d] The IPv6 network addresses of (/home/ml/envs/setup_env.sh, 29511) cannot be "
           "retrieved (gai error: -2 - Name or service not known).\n")
    v = _verdict(tmp_path, bad)
    assert v["cause"] == "store_rendezvous" and v["culprits"] == [], v
    assert "MASTER_ADDR" in v["fix"], v["fix"]
    good = bad.replace("/home/ml/envs/setup_env.sh", "trainer-node-4")
    assert _verdict(tmp_path, good, "good.log")["cause"] == "none"


# --- session 7 (fixh): NCCL's socket data path timing out mid-run (lead rule O) ------------------------------------
def _socket_stall(first: str, trail: str) -> str:
    """misc/socket.cc's socketProgressOpt ("Call to %s %s failed : %s", "send to"/"recv from"), its return code,
    net_socket.cc's ncclNetSocketTest ("NET/Socket : socket progress error") and the proxy's return code."""
    return ("gpu-node-07:2211:2290 [3] misc/socket.cc:583 NCCL WARN socketProgressOpt: " + first + "\n"
            + nccl_info("gpu-node-07", 2211, 3, "misc/socket.cc:600 -> 2", tid=2290)
            + "gpu-node-07:2211:2290 [3] transport/net_socket.cc:222 NCCL WARN NET/Socket : socket progress error\n"
            + nccl_info("gpu-node-07", 2211, 3, trail, tid=2284))


def test_a_socket_send_that_times_out_mid_transfer_is_a_transport_stall(tmp_path):
    text = _socket_stall("Call to send to 10.44.0.12<60011> failed : Connection timed out",
                         "proxy.cc:1120 -> 2 [Progress Thread]")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("transport_stall", []) and not _accused(d), v
    assert "MTU" in v["fix"] and "NCCL_SOCKET_IFNAME" in v["fix"], v["fix"]


def test_a_socket_timeout_with_nccls_set_up_trail_stays_set_up(tmp_path):
    text = _socket_stall("Call to recv from 10.44.0.12<60011> failed : Connection timed out", "bootstrap.cc:412 -> 2")
    assert _verdict(tmp_path, text)["cause"] == "network_setup"


def test_a_socket_reset_mid_transfer_is_no_transport_stall(tmp_path):
    text = _socket_stall("Call to recv from 10.44.0.12<60011> failed : Connection reset by peer",
                         "proxy.cc:1120 -> 2 [Progress Thread]")
    assert _verdict(tmp_path, text)["cause"] != "transport_stall"


# --- round 30: socketPollConnect's poll() never seeing the connect complete is a set-up connection (lead rule L) -----
def test_a_socket_connect_poll_without_pollout_is_network_setup_not_the_reporting_rank(tmp_path):
    text = ("[rank14]: Traceback (most recent call last):\n"
            "[rank14]:   File \"/app/train.py\", line 88, in setup\n[rank14]:     dist.all_reduce(flag)\n"
            "[rank14]: torch.distributed.DistBackendError: NCCL error in: /opt/pytorch/torch/csrc/distributed/c10d/"
            "ProcessGroupNCCL.cpp:3356, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version "
            "2.25.1\n[rank14]: ncclSystemError: System call (e.g. socket, malloc) or external library call failed or "
            "device error.\n[rank14]: Last error:\n[rank14]: socketPollConnect poll() returned 1, no POLLOUT events\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("network_setup", []) and not _accused(d), v
    assert "NCCL_SOCKET_IFNAME" in v["fix"], v
    warn = ("node-b:7710:7790 [6] misc/socket.cc:615 NCCL WARN socketPollConnect poll() returned 1, no POLLOUT events\n"
            + nccl_info("node-b", 7710, 6, "misc/socket.cc:640 -> 2", tid=7790)
            + nccl_info("node-b", 7710, 6, "bootstrap.cc:301 -> 2", tid=7790))
    assert _verdict(tmp_path, warn, "warn.log")["cause"] == "network_setup"


# --- round 30: NCCL's check of one call's arguments (argcheck.cc) refusing a buffer or value (lead rule W) ---------
def test_nccl_refusing_a_calls_null_buffer_is_invalid_usage_about_the_tensor(tmp_path):
    for last in ("AllGather : recvbuff (nil) is not a valid pointer", "Reduce : invalid root 12 (root should be in "
                 "the 0..7 range)"):
        text = ("RuntimeError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, invalid "
                "argument, NCCL version 2.18.1\nncclInvalidArgument: Invalid value for an argument.\nLast error:\n"
                + last + "\n")
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert v["cause"] == "invalid_usage" and v["culprits"] == [] and not _accused(d), (last, v)
        assert "empty tensor" in v["fix"] and "on the GPU" in v["fix"], v


# --- round 35: an argument refusal on a communicator already aborted on a system error is that error's echo ------
def test_an_invalid_root_after_the_communicator_aborted_on_a_system_error_is_nccl_system(tmp_path):
    """NCCL's argument check refusing a call ("invalid root 1 (root should be in the 0..-1 range)": a communicator with
    no ranks) after the same job's communicator was aborted on ncclSystemError is the abort's echo: nccl_system, no
    rank named (lead rules J, AC (4)); the argument check alone, on a live communicator, stays invalid_usage."""
    warn = ("gpu-b:5121:5188 [3] misc/argcheck.cc:39 NCCL WARN Broadcast : invalid root 1 (root should be in the "
            "0..-1 range)\n")
    abort = nccl_info("gpu-b", 5121, 3, "comm 0x55d0c04e1a20 rank 5 nranks 8 cudaDev 3 busId 41000 - Abort COMPLETE")
    for failed in ("E1104 08:12:40.118822 5121 nccl_manager.cc:212] OP_REQUIRES failed at nccl_comm_init.cc:57 : "
                   "Internal: unhandled system error\n",
                   "RuntimeError: NCCL error in: /opt/pytorch/torch/csrc/distributed/c10d/NCCLUtils.hpp:121, unhandled "
                   "system error, NCCL version 2.12.10\n"):
        for text in (abort + warn + nccl_info("gpu-b", 5121, 3, "enqueue.cc:1342 -> 4", tid=5188) + failed,
                     failed + warn):
            d = _report(tmp_path, text)
            v = d["verdict"]
            assert (v["cause"], v["culprits"]) == ("nccl_system", []) and not _accused(d), (text, v)
            assert "NCCL_DEBUG_SUBSYS=INIT,NET" in v["fix"] and "echo" in v["summary"], v
    v = _report(tmp_path, warn.replace("0..-1", "0..7"))["verdict"]
    assert v["cause"] == "invalid_usage", v


# --- round 35: peers' endpoints at an address in 0.0.0.0/8 (no host has one) are the set-up's, not a rank's -------
def test_peer_endpoints_in_zero_network_are_network_setup_naming_no_rank(tmp_path):
    """Paddle's launcher waiting for trainer endpoints (or its NCCL id exchange connecting) at an address in
    0.0.0.0/8, which no host has: the address the endpoints were built from is wrong (a host name resolving to a
    garbage address): network_setup, no rank, and the fix checks the host name's address (lead rule L). The same wait
    at a real address, or at 0.0.0.0 itself, is not read so."""
    for text in ("server not ready, wait 3 sec to retry...\nnot ready endpoints:['0.23.7.5:6171', '0.23.7.5:6172']\n",
                 "[2024-05-02 11:20:03] not ready endpoints:['0.0.12.9:40117']\nserver not ready, wait 3 sec to "
                 "retry...\nnot ready endpoints:['0.0.12.9:40117']\n",
                 "I0312 10:01:02.123 4411 gen_comm_id_helper.cc:190] connect addr=0.9.1.4:6170 failed 3 times with "
                 "reason: Connection refused retry after 0.5 seconds\n"):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("network_setup", []) and not _accused(d), (text, v)
        assert "hostname -i" in v["fix"] and "/etc/hosts" in v["fix"] and "0.0.0.0/8" in v["summary"], v
    for text in ("server not ready, wait 3 sec to retry...\nnot ready endpoints:['10.23.7.5:6171']\n",
                 "not ready endpoints:['0.0.0.0:6171']\n"):
        assert "0.0.0.0/8" not in _verdict(tmp_path, text)["summary"], text


# --- round 30: a net plugin's progress loop counting data-path timeouts while the job runs (lead rule O) ------------
def test_a_net_plugins_progress_loop_timing_out_is_a_transport_stall_naming_no_rank(tmp_path):
    for line in ("a3-node-2:4410:4501 [1] tcpxResult_t tcpxCommProgress(tcpxComm*):1130 NCCL WARN 0x7f11c0, nic 1, "
                 "enp12s0, tx ctrl timeout cnt 5120, nanos 10000000104\n",
                 "[rank7]: gpu-12:881:902 [7] ncclResult_t fooNetRecvProgress(fooComm*, int):212 NCCL WARN nic 0, "
                 "eth2, recv timed out after 30000 ms\n"):
        d = _report(tmp_path, line)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("transport_stall", []) and not _accused(d), (line, v)
        assert "plugin" in v["fix"] and "all_reduce_perf" in v["fix"], v


# --- session 7 (fixc): a launch configuration error names no rank (lead rule Q) ----------------------------------
def test_an_invalid_argument_at_communicator_creation_is_the_launch_not_a_rank(tmp_path):
    """C10D_NCCL_CHECK's "NCCL error in: %s:%d, %s, NCCL version %s" raised from NCCLComm::create (NCCLUtils) with
    ncclInvalidArgument, under mp.spawn's "-- Process N terminated with the following error:" (N: the parent's index
    of its children): invalid_usage, nobody named; the same code with a 'Last error' saying more is read by it."""
    text = ("-- Process 1 terminated with the following error:\n"
            "[rank5]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.cpp"
            ":112, invalid argument (run with NCCL_DEBUG=INFO for details), NCCL version 2.19.3\n"
            "[rank5]: ncclInvalidArgument: Invalid value for an argument.\n")
    d = _report(tmp_path, text)
    assert d["verdict"]["cause"] == "invalid_usage" and d["verdict"]["culprits"] == [] and not _accused(d), d
    assert "one process per GPU" in d["verdict"]["fix"], d["verdict"]["fix"]
    more = text + "[rank5]: Last error:\n[rank5]: Invalid config blocking attribute value -2147483648\n"
    assert _verdict(tmp_path, more, "more.log")["cause"] == "nccl_internal"


# --- session 7 (fixq): the launcher's record of the URL init_process_group raised on -------------------------------
def test_the_process_group_url_a_launcher_logs_on_failure_is_the_rendezvous(tmp_path):
    """detectron2's launch (and trainers built on it) logs "Process group URL: <init_method>" when init_process_group
    raised: None is no dist_url reaching the workers (env:// without MASTER_ADDR), a URL is the rendezvous at that
    endpoint failing; store_rendezvous either way, no rank."""
    none = "".join(f"ERROR [07/19 08:0{i}:12 detectron2.engine.launch]: Process group URL: None\n" for i in range(2))
    d = _report(tmp_path, none)
    v = d["verdict"]
    assert v["cause"] == "store_rendezvous" and v["culprits"] == [] and not _accused(d), v
    assert "dist_url" in v["fix"] and "MASTER_ADDR" in v["fix"], v["fix"]
    url = "[07/19 08:01:12 d2.engine.launch]: Process group URL: tcp://10.3.0.9:24877\n"
    v = _verdict(tmp_path, url, "url.log")
    assert v["cause"] == "store_rendezvous" and "tcp://10.3.0.9:24877" in v["summary"], v


def test_a_memory_registration_refused_at_communicator_set_up_is_the_hosts_resource(tmp_path):
    """Lead rule J: ibvwrap's "Call to ibv_reg_mr failed" (also with an error text) whose return-code trail runs
    through transport.cc and init.cc -- the communicator's own buffers registered while it connects -- is the host
    refusing an IB resource (locked memory, GPU memory it cannot pin): nccl_system, nobody named. Since session 12
    the same failure with no set-up trail (a collective registering its buffer) is nccl_system too."""
    trail = "".join(nccl_info("trn-31", 9120, 5, f"{f} -> 2", tid=9188)
                    for f in ("net_ib.cc:531", "include/net.h:28", "transport/net.cc:310", "transport.cc:165",
                              "init.cc:1090", "init.cc:1401"))
    for warn in ("Call to ibv_reg_mr failed", "Call to ibv_reg_mr_iova2 failed with error Operation not permitted"):
        text = (nccl_info("trn-32", 4410, 1, "Connected all rings", tid=4477)
                + f"trn-31:9120:9188 [5] misc/ibvwrap.cc:241 NCCL WARN {warn}\n" + trail)
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("nccl_system", []) and not _accused(d), (warn, v)
        assert "ulimit -l" in v["fix"] and "nvidia-peermem" in v["fix"], v["fix"]
    mid = ("trn-31:9120:9188 [5] misc/ibvwrap.cc:241 NCCL WARN Call to ibv_reg_mr failed\n"
           + nccl_info("trn-31", 9120, 5, "transport/net_ib.cc:1702 -> 2", tid=9188)
           + nccl_info("trn-31", 9120, 5, "transport/net.cc:871 -> 2", tid=9188))
    assert _verdict(tmp_path, mid, "mid.log")["cause"] == "nccl_system"


def test_a_bare_registration_warn_before_a_ranks_collective_traceback_is_the_hosts_not_the_fabric(tmp_path):
    """Lead rule J (session 12): a pasted ibvwrap WARN with no host prefix nor return-code trail, "Call to
    ibv_reg_mr* failed with error <strerror>", then one rank's traceback through a collective: the host's verbs
    stack refused to register the buffer (GPUDirect/dma-buf, memlock), nccl_system, no rank named. A completion
    error beside it is still the fabric."""
    tb = ("[rank6]: Traceback (most recent call last):\n"
          "[rank6]:   File \"/opt/train/dp.py\", line 88, in step\n"
          "[rank6]:     work = group.reduce_scatter_tensor_coalesced(outputs, inputs, opts)\n")
    for warn in ("misc/ibvwrap.cc:207 NCCL WARN Call to ibv_reg_mr_iova2 failed with error Bad address",
                 "misc/ibvwrap.cc:199 NCCL WARN Call to ibv_reg_dmabuf_mr failed with error Operation not supported"):
        d = _report(tmp_path, "export NCCL_IB_HCA=mlx5_0,mlx5_3\n" + warn + " \n" + tb)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("nccl_system", []) and not _accused(d), (warn, v)
        assert "nvidia-peermem" in v["fix"] and "ulimit -l" in v["fix"], v["fix"]
    cqe = ("misc/ibvwrap.cc:207 NCCL WARN Call to ibv_reg_mr_iova2 failed with error Bad address\n"
           "h9:51:60 [6] transport/net_ib.cc:1695 NCCL WARN NET/IB : Got completion from peer 10.1.2.3<41552> with "
           "status=12 opcode=0 len=0 vendor err 129 (Recv) localGid ::ffff:10.1.2.4 remoteGidsfe80::1\n")
    assert _verdict(tmp_path, cqe, "cqe.log")["cause"] == "ib_fabric"


# --- lead rule U(1): the subnet manager's informational IB async events fail nothing -------------------------
def test_informational_ib_async_events_with_every_rank_initialised_are_none(tmp_path):
    text = "".join(nccl_info("node-c", 700 + r, r, f"comm 0x5a1{r} rank {r} nranks 4 cudaDev {r} busId {r}a000 - "
                             "Init COMPLETE", tid=900 + r) for r in range(4))
    text += ("node-c:702:911 [2] transport/net_ib.cc:93 NCCL WARN NET/IB : Got async event : SM change\n"
             "node-c:703:912 [3] transport/net_ib.cc:93 NCCL WARN NET/IB : mlx5_4:1 Got async event : LID change\n"
             "node-c:701:913 [1] transport/net_ib.cc:93 NCCL WARN NET/IB : Got async event : client reregistration\n")
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("none", []), v
    port = text.replace("Got async event : SM change", "Got async event : port error")
    assert _verdict(tmp_path, port)["cause"] == "ib_fabric"


# --- lead rule J: a memory registration the host refuses (ENOMEM) is the node's system error, not the fabric ------
def test_a_registration_refused_with_enomem_is_a_host_system_error(tmp_path):
    text = ("ERROR 11-02 10:00:00 [worker.py:88] NcclError: NCCL_ERROR_SYSTEM_ERROR: unhandled system error\n"
            "gpu-q:4410:4522 [2] misc/ibvwrap.cc:201 NCCL WARN Call to ibv_reg_dmabuf_mr failed with error Cannot "
            "allocate memory\n")
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("nccl_system", []), v
    assert "ulimit -l" in v["fix"] and "NCCL_DMABUF_ENABLE=0" in v["fix"], v["fix"]
    line = "misc/ibvwrap.cc:290 NCCL WARN Call to ibv_reg_mr failed with error Cannot allocate memory\n"
    v = _verdict(tmp_path, line)
    assert v["cause"] == "nccl_system" and "memlock" in v["fix"], v


# --- NCCL's own bind refused (EADDRINUSE) after the job ran: a group created again and again, not the interface ---
def test_nccls_bind_address_in_use_names_the_port_and_creating_the_group_once(tmp_path):
    text = ("step 912 loss 2.31\n"
            "worker-3:77:77 [1] misc/socket.cc:410 NCCL WARN Call to bind failed : Address already in use\n"
            + nccl_info("worker-3", 77, 1, "bootstrap.cc:104 -> 2", tid=77)
            + nccl_info("worker-3", 77, 1, "init.cc:1380 -> 2", tid=77))
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("network_setup", []), v
    assert "create the group once" in v["fix"] and "ip_local_port_range" in v["fix"] and "NCCL_COMM_ID" in v["fix"]


def test_nccls_bind_address_in_use_alone_at_set_up_is_the_port(tmp_path):
    """Lead rules K and L, round 67: NCCL's bootstrap set-up printed, then its bind WARN ('Call to bind failed :
    Address already in use') and nothing after it (no return-code trail, the paste ends there): the WARN names its
    class by itself -- the port NCCL needs is taken on that host (a stale process of an earlier run), network_setup,
    no rank. The same errno from the c10d store's own server socket is the store's port, not NCCL's."""
    text = (nccl_info("gpu-4", 2210, 0, "Bootstrap : Using eth0:10.1.2.3<0>", tid=2210)
            + "NCCL version 2.10.3+cuda11.3\n\n"
            "gpu-4:2210:2241 [0] misc/socket.cc:388 NCCL WARN Call to bind failed : Address already in use\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("network_setup", []), v
    assert "stale process" in v["fix"] and "NCCL_COMM_ID" in v["fix"] and _accused(d) == set(), v
    store = ("[W socket.cpp:426] [c10d] The server socket cannot be initialized on [::]:29500 (errno: 98 - Address "
             "already in use).\n"
             "RuntimeError: The server socket has failed to listen on any local network address. The server socket "
             "has failed to bind to 0.0.0.0:29500 (errno: 98 - Address already in use).\n")
    assert _verdict(tmp_path, store)["cause"] == "store_rendezvous"


def test_nccls_ras_listener_bind_in_use_with_set_up_going_on_is_harmless(tmp_path):
    """Lead rules K, U (1) and AD (3), round 73: NCCL 2.24+'s RAS thread (ras/client_support.cc) could not bind its
    client listener (NCCL_RAS_ADDR, localhost:28028, held by another process of the job) and the communicator's
    set-up goes on: NCCL's monitoring port, not the job's -- none, no rank. The same WARN from NCCL's own socket code
    (misc/socket.cc, the bootstrap's port) before the same set-up lines is still the port NCCL needs (network_setup)."""
    after = "".join(nccl_info("node-7", 4411, 1, m, tid=4411) for m in (
        "RAS failed to establish a client listening socket at localhost:28028",
        "comm 0x5a1c3f0 rank 1 nRanks 2 nNodes 1 localRanks 2 localRank 1 MNNVL 0",
        "Trees [0] -1/-1/-1->1->0 [1] -1/-1/-1->1->0",
        "Channel 00 : 1[1] -> 0[0] via SHM/direct/direct",
        "Connected all rings, use ring PXN 0 GDR 1"))
    ras = "node-7:4411:4411 [1] ras/client_support.cc:171 NCCL WARN Call to bind failed: Address already in use\n"
    v = _verdict(tmp_path, ras + after)
    assert (v["cause"], v["culprits"]) == ("none", []), v
    assert "NCCL_RAS_ENABLE=0" in v["fix"] and "28028" in v["fix"], v["fix"]
    own = "node-7:4411:4411 [1] misc/socket.cc:388 NCCL WARN Call to bind failed : Address already in use\n"
    v = _verdict(tmp_path, own + after.replace("RAS failed to establish a client listening socket at localhost:28028",
                                               "Bootstrap : Using eth0:10.1.2.3<0>"))
    assert (v["cause"], v["culprits"]) == ("network_setup", []), v


# socket.cc's socketFinalizeAccept: a socket-transport peer reaching an IB listener (or the reverse): the nodes picked
# different network transports (IB up on one node only, NCCL_IB_DISABLE set on one node only)
def test_a_wrong_socket_type_between_ib_and_sockets_is_the_nodes_transports_differing(tmp_path):
    text = (nccl_info("dgx-b", 31007, 2, "Channel 00/0 : 5[2] -> 10[2] [send] via NET/IB/1", tid=31050)
            + "\ndgx-b:31007:31061 [2] misc/socket.cc:452 NCCL WARN socketFinalizeAccept: wrong type 3 != 4\n"
            + "".join(nccl_info("dgx-b", 31007, 2, f"{at} -> 3", tid=31061)
                      for at in ("misc/socket.cc:570", "transport/net_ib.cc:1021", "transport.cc:160")))
    v = _verdict(tmp_path, text)
    assert v["cause"] == "network_setup" and v["culprits"] == [], v
    assert "NCCL_IB_DISABLE=1" in v["fix"] and "same network transport" in v["fix"], v


# aws-ofi-nccl's endpoint / address-vector / CQ creation on the EFA device failing after the plugin loaded: a local
# allocation the provider or host refused (lead rule J, as ibv_create_cq; session 12 fix38-4, round 38 aws-ofi-nccl-889)
def test_a_net_plugin_endpoint_failing_on_efa_names_the_device_not_the_interface(tmp_path):
    text = (nccl_info("ip-10-2-3-4", 5120, 3, "Channel 01/0 : 11[3] -> 19[3] [send] via NET/AWS Libfabric/1",
                      tid=5188)
            + "ip-10-2-3-4:5120:5188 [3] ofi_create_domain:880 NCCL WARN NET/OFI Couldn't create CQ. RC: -22, ERROR: "
            "Invalid argument\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "nccl_system" and v["culprits"] == [], v
    assert "fi_info -p efa" in v["fix"] and "NCCL_SOCKET_IFNAME" not in v["fix"], v


def test_a_net_plugin_endpoint_refused_alone_is_a_resource_failure_unless_the_device_is_not_found(tmp_path):
    """Lead rule J's libfabric counterpart: aws-ofi-nccl failing to create an endpoint on a domain it opened (EINVAL,
    any process, no rank named) is the provider or host refusing a local resource: nccl_system, nobody accused, the
    fix names memlock and the EFA stack. Where the lines also show the plugin unable to read its device ('No NIC info
    for dev N'), the device is not usable on those nodes and NCCL cannot connect over it: network_setup."""
    ep = ("trn-node-12:40211:40388 [5] nccl_net_ofi_rdma_endpoint_create:2291 NCCL WARN NET/OFI Creating new endpoint "
          "for domain 0x55d0c3a41f20 failed: Invalid argument\n")
    d = _report(tmp_path, ep)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("nccl_system", []) and not _accused(d), v
    assert "ulimit -l" in v["fix"] and "fi_info -p efa" in v["fix"], v["fix"]
    nonic = (nccl_info("trn-node-9", 7702, 1, "NET/OFI No NIC info for dev 1", tid=7790)
             + nccl_info("trn-node-9", 7702, 1, "include/net.h:31 -> 2", tid=7790))
    v = _verdict(tmp_path, nonic + ep, "nonic.log")
    assert (v["cause"], v["culprits"]) == ("network_setup", []), v


# a net plugin refusing a memory registration while the net transport connects (lead rule J, round 30): the host's
# limit (memlock, MR resources, GPUDirect RDMA), not a link and not a rank
def test_a_net_plugin_memory_registration_refused_is_the_hosts_limit_not_the_fabric(tmp_path):
    text = ("gpu-node-7:3311:3402 [2] register_mr_buffers:512 NCCL WARN NET/OFI Unable to register memory (type = 2) "
            "for device 1. RC: 12, Error: Cannot allocate memory\n"
            + "".join(nccl_info("gpu-node-7", 3311, 2, f"{at} -> 2", tid=3402)
                      for at in ("include/net.h:27", "transport/net.cc:301", "transport.cc:140"))
            + nccl_info("gpu-node-7", 3311, 2, "group.cc:245 -> 2"))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "nccl_system" and v["culprits"] == [] and _accused(d) == set(), v
    assert "ulimit -l" in v["fix"] and "nvidia-peermem" in v["fix"] and "ulimit -u" not in v["fix"], v


# a shared-memory segment announced with size 0 (name empty or garbled): a peer's cuMem host handle read as a path
def test_attaching_to_a_size_0_shm_segment_is_cumem_host_memory_disagreeing(tmp_path):
    text = ("epyc-4:5501:5590 [2] misc/shmutils.cc:129 NCCL WARN Error while attaching to shared memory segment "
            "/dev/shm/nccl-Ќq (size 0), error: No such file or directory (2)\n"
            + "".join(nccl_info("epyc-4", 5501, 2, f"{at} -> 2", tid=5590)
                      for at in ("transport/shm.cc:601", "transport.cc:199")))
    v = _verdict(tmp_path, text)
    assert v["cause"] == "nccl_system" and v["culprits"] == [], v
    assert "NCCL_CUMEM_HOST_ENABLE=0" in v["fix"], v
    # a real segment that is missing stays the processes not sharing /dev/shm
    plain = text.replace("/dev/shm/nccl-Ќq (size 0)", "/dev/shm/nccl-a8Zk2P (size 9437184)")
    assert "NCCL_CUMEM_HOST_ENABLE" not in _verdict(tmp_path, plain)["fix"]


def test_a_shmutils_warn_cut_after_its_location_is_still_dev_shm(tmp_path):
    """Round 64 (rules J/AG): a paste cut right after NCCL's WARN location in misc/shmutils.cc ("[0]
    misc/shmutils.cc:72 NCCL", the WARN's text lost), after another process's Init COMPLETE: every WARN of that file
    is a /dev/shm segment failing, so nccl_system at low confidence, nobody named; the same cut location in another
    NCCL file says nothing of /dev/shm."""
    head = "".join(nccl_info("box-1", 4410, 0, t, tid=4470) for t in (
        "Connected all rings", "ncclCommInitRank comm 0x55aa rank 0 nranks 2 cudaDev 0 busId 4c000 - Init COMPLETE"))
    for cut in ("(Worker pid=4412) box-1:4412:4481 [0] misc/shmutils.cc:72 NCCL\n",
                "box-1:4412:4481 [1] shmutils.cc:108 NCCL WARN\n"):
        d = _report(tmp_path, head + cut)
        v = d["verdict"]
        assert (v["cause"], v["culprits"], v["confidence"]) == ("nccl_system", [], "low"), (cut, v)
        assert "/dev/shm" in v["fix"] and "NCCL_SHM_DISABLE" in v["fix"] and _accused(d) == set(), v
    near = head + "(Worker pid=4412) box-1:4412:4481 [0] transport/net_ib.cc:72 NCCL\n"
    assert _verdict(tmp_path, near)["cause"] != "nccl_system"


# --- the store client's own connection failing (lead rules L, Y): store_rendezvous, no rank -------------------------
def test_a_bare_connection_failure_under_the_store_frames_is_the_store(tmp_path):
    """A traceback whose frames just above create the store (TCPStore(...) in the env:// handler, init_process_group)
    ending in a bare connection failure: the store connection could not be made. The TCPStore client's protocol
    error ("Stop_waiting response is expected") is another process on the port. Without a store frame: nothing."""
    frames = ("Traceback (most recent call last):\n"
              "  File \"/opt/venv/lib/python3.8/site-packages/torch/distributed/distributed_c10d.py\", line 433, in "
              "init_process_group\n    store, rank, world_size = next(rendezvous_iterator)\n"
              "  File \"/opt/venv/lib/python3.8/site-packages/torch/distributed/rendezvous.py\", line 155, in "
              "_env_rendezvous_handler\n    store = TCPStore(master_addr, master_port, world_size, start_daemon, "
              "timeout)\n")
    for exc in ("RuntimeError: Connection refused", "RuntimeError: [Errno 113] No route to host",
                "ConnectionResetError: [Errno 104] Connection reset by peer"):
        v = _verdict(tmp_path, frames + exc + "\n")
        assert v["cause"] == "store_rendezvous" and v["culprits"] == [], (exc, v)
    v = _verdict(tmp_path, "[rank3]: RuntimeError: Stop_waiting response is expected\n")
    assert v["cause"] == "store_rendezvous" and "master_port" in v["fix"], v
    assert _verdict(tmp_path, "RuntimeError: Connection refused\n")["cause"] != "store_rendezvous"
    # init_method tcp://: the store lives in rank 0's process, a reset there is that process gone (rule G), not this
    tcp = ("    dist.init_process_group('nccl', init_method='tcp://10.1.2.3:23456', rank=1, world_size=2)\n"
           "  File \"/usr/lib/python3/dist-packages/torch/distributed/distributed_c10d.py\", line 602, in "
           "init_process_group\n    default_pg._set_sequence_number_for_group()\n"
           "RuntimeError: Connection reset by peer\n")
    assert _verdict(tmp_path, tcp)["cause"] != "store_rendezvous"


def test_a_reset_uniqueid_get_under_deepspeeds_launcher_says_the_store_host_exited_or_the_address(tmp_path):
    """Round 29: rank 0 (the store's host under DeepSpeed's launcher) went away, or the nodes cannot reach its store:
    the fix says both (the reset's own message names 'a possible application crash on rank 0 or a network set up
    issue')."""
    text = ("[2025-02-03 04:05:06,707] [INFO] [launch.py:319:sigkill_handler] Killing subprocess 88031\n"
            + _RESET.format(r=11))
    v = _report(tmp_path, text)["verdict"]
    assert (v["cause"], v["culprits"]) == ("early_exit", [0]), v
    assert "store host (rank 0) exited" in v["fix"] and "MASTER_ADDR / MASTER_PORT" in v["fix"], v["fix"]
    assert "main_process_first" in v["fix"]


# --- session 8 (fix27): lead rule Z, aws-ofi-nccl failing to start where EFA was meant; the host refusing EFA's PD --
def test_an_ofi_plugin_failing_to_start_is_network_setup_only_where_the_lines_show_efa_was_meant(tmp_path):
    """Lead rule Z: 'NET/OFI aws-ofi-nccl initialization failed' (or 'Couldn't find any optimal provider') with NCCL
    going on over its sockets is harmless on a host without EFA (none), but network_setup where the lines show the
    fabric was meant: the plugin naming an EFA platform, FI_PROVIDER=efa, an EFA instance in the host name, several
    hosts left on 'Using network Socket', or the plugin's own test failing (its pre-1.0 'WARN: Function:' lines)."""
    def node(host: str, pid: int, ip: str = "10.1.7.9") -> str:
        return (f"{host}:{pid}:{pid + 40} [3] nccl_net_ofi_init:1490 NCCL WARN NET/OFI aws-ofi-nccl initialization "
                "failed\n"
                + nccl_info(host, pid, 3, "NET/IB : No device found.", tid=pid + 40)
                + nccl_info(host, pid, 3, f"NET/Socket : Using [0]ens5:{ip}<0>", tid=pid + 40)
                + nccl_info(host, pid, 3, "Using network Socket", tid=pid + 40))
    alone = node("gpu-host-2", 7301)
    assert _verdict(tmp_path, alone)["cause"] == "none"
    for meant in (nccl_info("gpu-host-2", 7301, 3, "NET/OFI Running on p5.48xlarge platform, Setting NCCL_TOPO_FILE "
                            "environment variable to /opt/aws-ofi-nccl/share/xml/p5.48xl-topo.xml") + alone,
                  "+ export FI_PROVIDER=efa\n" + alone.replace("initialization failed", "initialization failed (rc 2)"),
                  node("train-trn1-04", 5120),
                  alone + node("gpu-host-3", 8812, "10.1.7.31")):
        v = _verdict(tmp_path, meant)
        assert v["cause"] == "network_setup" and v["culprits"] == [], (meant, v)
        assert "fi_info -p efa" in v["fix"] and "Using network Socket" in v["fix"], v
    old = ("172.31.4.9: WARN: Function: find_ofi_provider Line: 601: NET/OFI Couldn't find any optimal provider\n"
           "172.31.4.9: WARN: Function: main Line: 71: NET/OFI OFI NCCL failure: 2\n")
    v = _verdict(tmp_path, old)
    assert v["cause"] == "network_setup" and v["culprits"] == [], v


def _ib_fallback_node(host: str, pid: int, gpus: int, ifaces: str, first_rank: int, prefix: bool) -> str:
    """One node's NCCL set-up with NCCL's IB transport finding no device and NET/Socket on the given interfaces."""
    out = ""
    for g in range(gpus):
        line = (nccl_info(host, pid + g, g, "NET/IB : No device found.")
                + nccl_info(host, pid + g, g, f"NET/Socket : Using {ifaces}"))
        out += "".join(f"{first_rank + g:2d}: {x}\n" for x in line.splitlines()) if prefix else line
    return out


def test_nccls_sockets_over_ipoib_on_several_nodes_where_ib_finds_no_device_is_network_setup(tmp_path):
    """Lead rule Z (round 48): 'NET/IB : No device found' and NET/Socket over the hosts' IPoIB interfaces (ib0, ib1)
    on two or more nodes: InfiniBand is in the hosts but the processes cannot open it (a container without
    /dev/infiniband or libibverbs), so the job runs over TCP where the fabric should carry it -- network_setup, nobody
    named, even when the run completes. One node alone, or an Ethernet-only cluster (ens5), stays none (rule K)."""
    for a, b, prefix in ((("cgpu15", 44841, "[0]ib1:10.101.105.115<0> [1]ib4:128.55.150.58<0>"),
                          ("cgpu16", 59497, "[0]ib1:10.101.105.116<0> [1]ib4:128.55.150.59<0>"), True),
                         (("node-a03", 2301, "[0]ib0:192.168.40.3<0>"), ("node-a11", 3377, "[0]ib0:192.168.40.11<0>"),
                          False)):
        text = (_ib_fallback_node(a[0], a[1], 2, a[2], 0, prefix) + _ib_fallback_node(b[0], b[1], 2, b[2], 2, prefix)
                + nccl_info(b[0], b[1], 0, "Ring 00 : 1[1b000] -> 2[1a000] [receive] via NET/Socket/0", tid=b[1] + 9))
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("network_setup", []) and not _accused(d), v
        assert "/dev/infiniband" in v["fix"] and "libibverbs" in v["fix"] and "NET/Socket" in v["summary"], v
    one = _ib_fallback_node("node-a03", 2301, 4, "[0]ib0:192.168.40.3<0>", 0, False)
    assert _verdict(tmp_path, one)["cause"] == "none"
    ethernet = (_ib_fallback_node("gpu-st-1", 7614, 2, "[0]ens5:10.1.94.228<0>", 0, False)
                + _ib_fallback_node("gpu-st-2", 7070, 2, "[0]ens5:10.1.113.246<0>", 2, False))
    assert _verdict(tmp_path, ethernet)["cause"] == "none"


def test_nccl_without_libibverbs_on_a_hosts_ipoib_interface_is_the_fabric_meant_unless_the_job_is_that_host(tmp_path):
    """Lead rule AX (1) (round 62's meshtransformer-38): one host's lines under mpirun, NCCL's WARN 'Failed to open
    libibverbs.so[.1]' and NET/Socket then on the IPoIB interface (ib0): the host has InfiniBand the processes cannot
    use (the verbs library missing), so the job meant for the fabric runs over TCP -- network_setup, nobody named,
    from one host's lines too. The same on an Ethernet interface, or with the lines showing the whole job on that one
    host (NCCL's nranks no larger than its processes), stays set-up chatter (rule K): none."""
    def host(iface: str, nranks: int | None = None) -> str:
        out = ""
        for g in range(2):
            pid = 4410 + g
            out += (f"2021-06-02 10:11:12 [1,{g}]<stdout>:gpu-h7:{pid}:{pid} [{g}] misc/ibvwrap.cc:63 NCCL WARN Failed "
                    "to open libibverbs.so[.1]\n"
                    + f"2021-06-02 10:11:12 [1,{g}]<stdout>:" + nccl_info("gpu-h7", pid, g, f"NET/Socket : Using "
                                                                         f"[0]{iface}:10.20.1.7<0>")
                    + (f"2021-06-02 10:11:12 [1,{g}]<stdout>:" + nccl_info("gpu-h7", pid, g, f"comm 0x5583{g}a0 rank "
                                                                          f"{g} nranks {nranks} cudaDev {g} busId "
                                                                          f"{g + 1}a000 - Init COMPLETE", tid=pid + 90)
                       if nranks else ""))
        return out
    d = _report(tmp_path, host("ib0"))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("network_setup", []) and not _accused(d), v
    assert "libibverbs" in v["summary"] and "gpu-h7" in v["summary"], v
    assert "rdma-core" in v["fix"] and "ibv_devinfo" in v["fix"], v
    assert _verdict(tmp_path, host("ib0", nranks=4), "excerpt.log")["cause"] == "network_setup"
    assert _verdict(tmp_path, host("eth0"), "eth.log")["cause"] == "none"
    assert _verdict(tmp_path, host("ib0", nranks=2), "alone.log")["cause"] == "none"


def test_the_rdma_driver_refusing_a_protection_domain_for_memory_is_the_host_not_the_fabric(tmp_path):
    """Lead rule J's second paragraph: the plugin's endpoint set-up failing ('NET/OFI Couldn't open AV', old or new
    log format) beside the kernel's RDMA driver refusing the PD with ENOMEM ('Failed to allocate pd[-12]') is the
    host refusing the resource: nccl_system, nobody named. Without the kernel line the plugin's resource creation
    failing is still nccl_system (rule J's libfabric counterpart, round 38's adjudicated aws-ofi-nccl-889); only the
    plugin shown unable to read its device ('No NIC info for dev N') makes it network_setup."""
    warn = ("WARN: Function: create_nccl_ofi_component Line: 471: NET/OFI Couldn't open AV. RC: -22, ERROR: Invalid "
            "argument\n")
    new = ("ip-10-0-9-77:4410:4471 [5] nccl_net_ofi_rdma.c:5210 NCCL WARN NET/OFI Couldn't open AV. RC: -22, ERROR: "
           "Invalid argument\n")
    kernel = "[ 88410.120331] infiniband efa_3: Failed to allocate pd[-12]\n"
    for text in (warn + kernel, kernel + new):
        v = _verdict(tmp_path, text)
        assert v["cause"] == "nccl_system" and v["culprits"] == [], (text, v)
        assert "memlock" in v["fix"] and "dmesg" in v["fix"], v
    assert _verdict(tmp_path, new)["cause"] == "nccl_system"


def test_a_net_plugin_that_cannot_insert_the_peers_address_is_network_setup_whatever_the_paste(tmp_path):
    """Lead rule X (3): ncclInternalError whose Last error (on the next line) is aws-ofi-nccl failing to insert the
    remote node's address into its address vector is the connection between the hosts (network_setup, nobody named),
    also when a collector's timestamps or its own rank tag prefix every line."""
    lines = ["[rank3]: torch.distributed.DistBackendError: NCCL error in: /opt/pytorch/torch/csrc/distributed/c10d/"
             "NCCLUtils.hpp:317, internal error - please report this issue to the NCCL developers, NCCL version 2.21.5",
             "[rank3]: ncclInternalError: Internal check failed.",
             "[rank3]: Last error:",
             "[rank3]: NET/OFI Unable to insert remote address into address vector for device 0. RC: -22"]
    for text in ("\n".join(lines) + "\n",
                 "".join(f"2025-03-07T10:21:{i + 4:02d}.551Z {x}\n" for i, x in enumerate(lines)),
                 "".join(f"[rank0]: {x}\n" for x in lines)):  # a collector's own rank tag before the process's
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert v["cause"] == "network_setup" and v["culprits"] == [] and not _accused(d), (text, v)
        assert "security group" in v["fix"], v


# --- session 8 (fix27): stacks beside NCCL that move data themselves (DeepEP, UCX/NIXL, NVSHMEM's bootstrap) --------
def test_deepep_and_ucx_timing_out_on_a_live_data_path_are_a_transport_stall_not_nothing(tmp_path):
    """Lead rule O read for DeepEP's kernels (printf in internode.cu: "DeepEP RDMA sender coordinator timeout, channel:
    %d, IB: %d, nvl %d, dst IB: %d, tail: %d, remaining: %d", "DeepEP dispatch forwarder timeout (RDMA check), ...",
    "DeepEP timeout check failed: rank = %d, thread = %d)") and for UCX's tcp endpoint (tcp_ep.c: "tcp_ep %p
    (state=%s): send(%d) failed", "Unexpected UCX error: Endpoint timeout"): sends that time out with every process
    alive are transport_stall, nobody named; a rank shown failing first is not."""
    deepep = ("[testing] Running with FP8, with top-k (async=True, previous=True) ...\n"
              "DeepEP dispatch forwarder timeout (RDMA check), channel: 1, RDMA: 0, nvl: 2, dst NVL: 5, head: 18, "
              "tail: 40\n"
              "DeepEP RDMA sender coordinator timeout, channel: 9, IB: 1, nvl 3, dst IB: 0, tail: 512, remaining: 33\n"
              "DeepEP timeout check failed: rank = 12, thread = 32)\n"
              "DeepEP timeout check failed: rank = 5, thread = 0)\n")
    ucx = ("[1712345678.123456] [decode-pod-2:4180 :0]          tcp_ep.c:1195 UCX  ERROR tcp_ep 0x55d1c0a3b9f0 "
           "(state=CONNECTED): send(110) failed: Input/output error\n"
           "W0301 11:02:03.001122    4180 ucx_utils.cpp:51] Unexpected UCX error: Endpoint timeout\n")
    for text, word in ((deepep, "ib_write_bw"), (ucx, "UCX_TLS")):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert v["cause"] == "transport_stall" and v["culprits"] == [] and not _accused(d), (text, v)
        assert word in v["fix"], v
    crashed = deepep + "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n" + failure_record(
        0, 12, 4, -9, 30412)
    assert _verdict(tmp_path, crashed)["cause"] != "transport_stall"


# --- round 62: DeepEP's host-side "timeout (dispatch CPU)" is the rank waiting for its peers' counts (rules B, E) -----
# deep_ep.cpp spins on the receive counters the notify kernel fills once every peer sent its token counts, then throws
# "DeepEP error: timeout (dispatch CPU)": one rank shown waiting inside the dispatch of a larger world is a victim and
# the rank it waited for is not shown (rank_missing), not a data path seen stalling from every kernel (round 62's
# megatron-bridge-1335)
def _deepep_cpu_wait(rank: int) -> str:
    lines = ('  File "/opt/venv/lib/python3.12/site-packages/deep_ep/buffer.py", line 581, in internode_dispatch',
             "    recv_src_meta, send_rdma_head, send_nvl_head, event = self.runtime.internode_dispatch(",
             "RuntimeError: DeepEP error: timeout (dispatch CPU)")
    return "".join(f"[rank{rank}]: {ln}\n" for ln in lines)


def test_deepeps_host_timeout_on_one_rank_is_that_rank_waiting_not_a_stall(tmp_path):
    for rank in (428, 9):
        d = _report(tmp_path, _deepep_cpu_wait(rank))
        v = d["verdict"]
        assert v["cause"] == "rank_missing" and not _accused(d), (rank, v)
        assert "DeepEP" in v["fix"] and "py-spy" in v["fix"], v


def test_deepeps_kernel_timeouts_beside_the_host_timeout_stay_a_transport_stall(tmp_path):
    # near shape: the device-side kernels' own timeouts (every rank's kernel inside, sends left unfinished) beside it
    kernels = ("DeepEP RDMA sender coordinator timeout, channel: 9, IB: 1, nvl 3, dst IB: 0, tail: 512, remaining: 33\n"
               "DeepEP timeout check failed: rank = 5, thread = 0)\n")
    v = _verdict(tmp_path, kernels + _deepep_cpu_wait(9))
    assert v["cause"] == "transport_stall", v


def test_nccl_eps_device_side_receive_timeouts_then_their_trap_are_a_transport_stall(tmp_path):
    """Round 48: NCCL EP's kernels timing out a receive ("NCCL EP timeout for dispatch receive, rank R, local_expert_idx
    E, src_rank S") from ranks that are themselves inside the same exchange, then CUDA's 'unspecified launch failure'
    (719, the kernel's trap) on a rank's synchronize and in NCCL's teardown: transport_stall, nobody named (the
    waiting ranks are victims). The same 719 with no EP timeout before it stays a CUDA error."""
    def trap(host: str, pid: int, dev: int) -> str:
        return ("torch.AcceleratorError: CUDA error: unspecified launch failure\n"
                f"[2026-07-23 04:16:01] {host}:{pid}:{pid + 1274} [{dev}] misc/strongstream.cc:424 "
                "(ncclStrongStreamSynchronize) NCCL WARN Cuda failure 'unspecified launch failure'\n")

    for waits, host, pid, dev in ((((2, 0, "dispatch"), (0, 1, "combine")), "cn13", 2619531, 1),
                                  (((5, 3, "combine"), (3, 6, "dispatch"), (6, 5, "dispatch")), "gb200-n2", 8812, 4)):
        timeouts = "".join(f"Warning: NCCL EP timeout for {phase} receive, rank {r}, local_expert_idx {11 + r}, "
                           f"src_rank {s}\n" for r, s, phase in waits)
        d = _report(tmp_path, "NCCL EP: using timeout=96993ms (env=unset)\n" + timeouts + trap(host, pid, dev))
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("transport_stall", []) and not _accused(d), v
        assert "ep_bench" in v["fix"] and "719" in v["summary"], v
    assert _verdict(tmp_path, trap("cn13", 2619531, 1))["cause"] == "cuda_error"


def test_nvshmems_bootstrap_receiving_the_wrong_size_is_the_two_ends_protocol_not_nothing(tmp_path):
    """NVSHMEM's UID bootstrap (NCCL's socket code inside NVSHMEM, DeepEP's set-up) failing with 'Message truncated :
    received N bytes instead of M' is read like NCCL's own bootstrap truncation: the two ends disagree on its
    protocol (nccl_internal, nobody named), and the fix names NVSHMEM's version and bootstrap interface."""
    text = ("/opt/nvshmem/src/host/init/init.cu:nvshmemi_check_state_and_init:1077: nvshmem initialization failed, "
            "exiting\n"
            "/opt/nvshmem/src/modules/bootstrap/uid/bootstrap_uid.cpp:bootstrap_net_recv:102: Message truncated : "
            "received 120 bytes instead of 16\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "nccl_internal" and v["culprits"] == [], v
    assert "NVSHMEM_BOOTSTRAP_UID_SOCK_IFNAME" in v["fix"], v


# --- session 17 (fix52): NVSHMEM's own IB transport failing a verbs call (DeepEP's set-up), read as NCCL's own -------
def _nvshmem(path: str, line: int, what: str, status: int | None = None) -> str:
    """A line of NVSHMEM's error macros (nvshmemx_error.h: "%s:%d: non-zero status: %d " or "%s:%d: NULL value ",
    then the message): __FILE__ is the build's own path."""
    return f"{path}:{line}: " + (f"non-zero status: {status} " if status is not None else "NULL value ") + what + "\n"


_IBRC = "/sgl-workspace/nvshmem/src/modules/transport/ibrc/ibrc.cpp"


def test_nvshmems_ibv_modify_qp_failing_at_set_up_is_the_fabric_whatever_its_errno(tmp_path):
    """Round 52's deepep-289: NVSHMEM's IBRC transport prints "ibrc.cpp:418: non-zero status: 110 ibv_modify_qp
    failed" (the call's errno, ETIMEDOUT) then its trail "ep_connect failed", with no NCCL prefix and no rank. Lead
    rule J (session 12): ibv_modify_qp failing at connection set-up, whatever its errno, is ib_fabric, nobody named --
    as NCCL's "Call to ibv_modify_qp failed". Other builds' paths and lines, other errnos, other prefixes."""
    for prefix, path, line, errno_, said in (
            ("[default{i}]:", "/opt/nvshmem_src/src/modules/transport/ibrc/ibrc.cpp", 329, 22, "Invalid argument"),
            ("(EPWorker pid=88{i}1) ", "/workspace/nvshmem/src/modules/transport/ibdevx/ibdevx.cpp", 1411, 19,
             "No such device"),
            ("", _IBRC, 418, 110, "Connection timed out")):
        text = "Allocating buffer size: 2115.111296 MB ...\n" + "".join(
            prefix.format(i=i) + _nvshmem(path, line, "ibv_modify_qp failed ", errno_)
            + prefix.format(i=i) + _nvshmem(path.rsplit("/", 2)[0] + "/common/transport_ib_common.cpp", 318,
                                            "ep_connect failed ", 7)
            for i in range(3))
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("ib_fabric", []) and not _accused(d), (text, v)
        assert "ibv_modify_qp" in v["summary"] and said in v["summary"], v
        assert "NVSHMEM_IB_GID_INDEX" in v["fix"] and "NCCL_IB_GID_INDEX" not in v["fix"], v


def test_nvshmems_ibgda_devx_queue_pair_transition_failing_is_the_fabric(tmp_path):
    """Round 58: NVSHMEM's IBGDA transport moves its queue pairs with mlx5's devx calls, not ibv_modify_qp: "ibgda.cpp:
    1345: non-zero status: 121 Error in mlx5dv_devx_obj_modify for INIT2RTR_QP with syndrome ..." then its trail
    ("ibgda_rc_init2rtr failed", "connect EPS failed"). The devx form of ibv_modify_qp failing at set-up: lead rule
    J's ib_fabric, nobody named, NVSHMEM's own settings in the fix. Another build path, transition and syndrome."""
    path = "/opt/nvshmem-3.2/src/modules/transport/ibgda/ibgda.cpp"
    for step, synd in (("INIT2RTR_QP", "4f1a20"), ("RTR2RTS_QP", "b07c3d")):
        text = "Allocating buffer size: 1058.14 MB ...\n" + "".join(
            _nvshmem(path, 1402, f"Error in mlx5dv_devx_obj_modify for {step} with syndrome {synd}", 121)
            + _nvshmem(path, 3110, f"ibgda_rc_{step.split('_')[0].lower()} failed on RC #{i}.", 7)
            + _nvshmem("/opt/nvshmem-3.2/src/host/transport/transport.cpp", 412, "connect EPS failed", 7)
            for i in range(2))
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("ib_fabric", []) and not _accused(d), (text, v)
        assert "mlx5dv_devx_obj_modify" in v["summary"] and step in v["summary"], v
        assert "NVSHMEM_IB_GID_INDEX" in v["fix"], v


def test_nvshmem_refused_a_queue_or_a_registration_by_the_host_is_a_system_error(tmp_path):
    """Round 52's deepep-126: "ibrc.cpp:304: NULL value cq creation failed" (ibv_create_cq returned NULL) then every
    process segfaulting alike: lead rule J, IB resources the host refuses at set-up are nccl_system, nobody named (the
    segfaults follow the failed set-up). The same for a queue pair, and for "mem registration failed. Reason: Cannot
    allocate memory" (ibv_reg_mr: the locked-memory limit); a completion's status through ibv_poll_cq is the fabric."""
    def segv(host: str, pids) -> str:
        return "".join(f"[{host}:{p} :0:{p}] Caught signal 11 (Segmentation fault: address not mapped to object at "
                       f"address 0x{p:x}8)\n" for p in pids)

    for what, host, pids in (("cq creation failed ", "TENCENT64", (5489, 5490)),
                             ("qp creation failed ", "node-a17", (700, 701, 702, 703)),
                             ("srq creation failed ", "h100-pod-3", (31, 32, 33))):
        text = (segv(host, pids[:1]) + _nvshmem(_IBRC.replace("/sgl-workspace", "/home/" + host), 297, what)
                + _nvshmem(_IBRC, 1388, "ep_create failed", 7) + segv(host, pids[1:]))
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("nccl_system", []) and not _accused(d), (text, v)
        assert "memlock" in v["fix"] and "NVSHMEM_IB_ENABLE_IBGDA" in v["fix"], v
    reg = _nvshmem("/nvshmem/src/modules/transport/common/transport_ib_common.cpp", 129,
                   "mem registration failed. Reason: Cannot allocate memory")
    v = _verdict(tmp_path, "[2025-03-02 10:00:01] " + reg)
    assert (v["cause"], v["culprits"]) == ("nccl_system", []) and "NVSHMEM's buffers" in v["summary"], v
    polled = _nvshmem(_IBRC, 1072, "ibv_poll_cq failed, status: 12", 12)
    v = _verdict(tmp_path, polled)
    assert (v["cause"], v["culprits"]) == ("ib_fabric", []) and "IBV_WC_RETRY_EXC_ERR" in v["summary"], v


def test_nvshmems_return_trail_alone_or_the_segfaults_alone_name_no_verbs_call(tmp_path):
    """The near shapes: NVSHMEM's trail without the call that failed ("non-zero status: 7 ep_create failed",
    "transport create ep failed": its own return code, no verbs call) says neither the fabric nor the host's
    resources, and the segfaults alone stay a native crash with no cause shown."""
    trail = (_nvshmem(_IBRC, 1388, "ep_create failed", 7)
             + _nvshmem("/nvshmem/src/modules/transport/common/transport_ib_common.cpp", 398,
                        "transport create ep failed ", 7))
    segv = "".join(f"[TENCENT64:{p} :0:{p}] Caught signal 11 (Segmentation fault: address not mapped to object at "
                   "address 0x38)\n" for p in (5490, 5491))
    for text in (trail, segv):
        v = _verdict(tmp_path, text)
        assert v["cause"] not in ("ib_fabric", "nccl_system") and v["culprits"] == [], (text, v)


# --- session 8 (fix27): ncclInvalidArgument in torch's own first collective ---------------------------------------
def test_an_invalid_argument_in_torchs_first_collective_is_the_launch_not_a_rank(tmp_path):
    """Lead rule Q: torch 1.x created the communicator lazily in the first collective, so 'NCCL error in:
    .../ProcessGroupNCCL.cpp:N, invalid argument' raised from a barrier or broadcast with no Last error is the launch
    every rank shares (more processes than GPUs, the device not set per local rank): invalid_usage, nobody named,
    even with a launcher's record of the one process it saw fail."""
    err = ("RuntimeError: NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:400, invalid argument\n")
    text = ("Traceback (most recent call last):\n  File \"train.py\", line 61, in <module>\n"
            "    torch.distributed.broadcast(flag, 0)\n" + err
            + "Traceback (most recent call last):\n  File \"train.py\", line 61, in <module>\n" + err
            + "subprocess.CalledProcessError: Command '['/usr/bin/python', '-u', 'train.py', '--local_rank=5']' "
            "returned non-zero exit status 1.\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "invalid_usage" and v["culprits"] == [] and not _accused(d), v
    assert "torch.cuda.set_device" in v["fix"] and "--nproc_per_node" in v["fix"], v


# --- session 9 (fix31): an NVML call failing inside NCCL --------------------------------------------------------------
def test_an_nvml_call_failing_inside_nccl_is_the_hosts_view_of_its_gpus_not_a_rank(tmp_path):
    """misc/nvmlwrap.cc prints every failed NVML call as "NAME() failed: REASON" and returns ncclSystemError: the
    process could not see or query a GPU (a peer's GPU another container hides, NVML out of step with the driver):
    nccl_system, nobody named, whichever rank printed it."""
    text = (nccl_info("gpu-node-7", 4410, 2, "ncclCommInitRank comm 0x5a1 rank 2 nranks 4 cudaDev 2 nvmlDev 2 busId "
                      "41000 commId 0x77 - Init START")
            + nccl_info("gpu-node-7", 4412, 3, "ncclCommInitRank comm 0x5a2 rank 3 nranks 4 cudaDev 3 nvmlDev 3 busId "
                        "42000 commId 0x77 - Init START")
            + "gpu-node-7:4412:4530 [3] misc/nvmlwrap.cc:120 NCCL WARN nvmlDeviceGetNvLinkRemotePciInfo() failed: "
              "Unknown Error\n"
            + nccl_info("gpu-node-7", 4412, 3, "graph/topo.cc:612 -> 2", tid=4530))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "nccl_system" and not v["culprits"] and not _accused(d), v
    assert "NCCL_HOSTID" in v["fix"] and "nvidia-smi" in v["fix"], v


# --- session 9 (fix31): a communicator used after it already failed (round 31's adjudication) ------------------------
def test_a_communicator_used_after_it_failed_hands_back_an_earlier_error_the_lines_do_not_show(tmp_path):
    """init.cc's "Attempt to use communicator before the previous operation returned ncclSuccess" returns the
    communicator's earlier async error: the aftermath, whose first failure (and its rank) is not shown -- cause
    unknown, nobody named; another family's WARN in the same lines is that earlier error and is read instead."""
    warn = "init.cc:455 NCCL WARN Attempt to use communicator before the previous operation returned ncclSuccess\n"
    text = (f"node3:8801:8801 [1] {warn}" + nccl_info("node3", 8801, 1, "enqueue.cc:2011 -> 6")
            + nccl_info("node3", 8803, 3, "[Service thread] Connection closed by localRank 0", tid=8950)
            + f"node3:8803:8803 [3] {warn}")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "unknown" and v["confidence"] == "low" and not v["culprits"] and not _accused(d), v
    assert "first error" in v["fix"] and "NCCL_DEBUG=INFO" in v["fix"], v
    first = "node3:8801:8801 [1] init.cc:1710 NCCL WARN Invalid rank requested : 5/4\n"
    d = _report(tmp_path, first + f"node3:8801:8801 [1] {warn}")
    assert d["verdict"]["cause"] == "invalid_usage", d["verdict"]


# --- session 9 (fix31): libfabric's provider logging a completion error itself (EFA) ------------------------------
def test_libfabrics_own_completion_error_log_is_the_fabric_not_a_rank(tmp_path):
    """libfabric's log (src/log.c: "libfabric:PID:[TIME:]PREFIX:PROV:cq:FUNC():LINE<warn> ") from a provider's
    completion-error handler (EFA's efa_rdm_*_handle_error, older rxr_cq_write_tx_error) in a run whose channels go
    over the libfabric net plugin: a transfer the fabric could not complete, as NET/OFI's 'completed with error' --
    ib_fabric, nobody named; the fix names the provider and the peer host the line gives."""
    chan = nccl_info("ip-10-0-3-17", 90211, 2, "Channel 01/0 : 5[2] -> 13[2] [send] via NET/AWS Libfabric/2/GDRDMA",
                     tid=90390)
    for line in ("libfabric:90211:1721830000::efa:cq:efa_rdm_rxe_handle_error():512<warn> err: 5, message: Invalid "
                 "address My EFA addr: fi_addr_efa://[fe80::a1:b2ff:fe03:1]:0:11 My host id: i-0aa11 Peer EFA addr: "
                 "fi_addr_efa://[fe80::c4:dff:fe05:2]:0:22 Peer host id: i-0bb22 (3)\n",
                 "libfabric:90211:efa:cq:rxr_cq_write_tx_error():243<warn> rxr_cq_write_tx_error: err: 21, prov_err: "
                 "Unknown error -21 (21)\n"):
        d = _report(tmp_path, chan + line + line)
        v = d["verdict"]
        assert v["cause"] == "ib_fabric" and not v["culprits"] and not _accused(d), v
        assert "fi_info -p efa" in v["fix"] and "FI_LOG_LEVEL=warn" in v["fix"], v
        if "Peer host id" in line:
            assert "i-0bb22" in v["fix"], v


# --- session 9 (fix31F): torch's own store-barrier lines counting more ranks than the barrier's size (lead rule R) --
def _barrier_lines(added: list[int], nodes: int, key: str = "store_based_barrier_key:1") -> str:
    out = ""
    for i, r in enumerate(added):
        out += (f"[2023-02-11 14:03:{10 + i:02d},2{i}1][torch.distributed.distributed_c10d][INFO] Added key: {key} to "
                f"store for rank: {r}\n")
        if i == 1:
            out += (f"[2023-02-11 14:03:{10 + i:02d},9{i}0][torch.distributed.distributed_c10d][INFO] Rank {r}: "
                    f"Completed store-based barrier for key:{key} with {nodes} nodes.\n")
    return out


def test_more_ranks_adding_the_barrier_key_than_it_completed_with_is_invalid_usage(tmp_path):
    """Lead rule R: five processes add the same store-barrier key while one of them completes that barrier 'with 4
    nodes': more processes share the store than the world size -- rule Q's launch error, culprits []."""
    d = _report(tmp_path, _barrier_lines([3, 1, 4, 0, 2], 4))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not _accused(d), v
    assert "MASTER_PORT" in v["fix"], v["fix"]


def test_the_barrier_key_added_by_as_many_ranks_as_it_completed_with_is_not_a_launch_error(tmp_path):
    assert _verdict(tmp_path, _barrier_lines([3, 1, 0, 2], 4))["cause"] != "invalid_usage"
    # a subgroup's own barrier: its members' global ranks past its count are no over-count
    assert _verdict(tmp_path, _barrier_lines([5, 7, 4, 6], 4, "store_based_barrier_key:1:3"), "sub.log")[
        "cause"] != "invalid_usage"


def test_paddles_comm_id_connect_retries_to_trainers_that_died_are_not_the_network(tmp_path):
    """Paddle's gen_comm_id_helper.cc: only trainer 0 connects out (retrying) to send the NCCL id; the launcher shows
    trainer 0's log and lists the trainers that exited nonzero. Refused connects beside a record that leaves trainer
    0 out are trainer 0 waiting on the dead ones: those are the culprits, not the network."""
    lines = "".join(f"W1104 07:31:0{i}.1200{i}  4417 gen_comm_id_helper.cc:119] connect addr=10.3.0.7:6071{i} failed "
                    f"{i + 1} times with reason: Connection refused retry after {0.5 * (i + 1)} seconds\n"
                    for i in range(3))
    lines += ("INFO 2022-11-04 07:31:09,771 launch_utils.py:341] terminate all the procs\n"
              "ERROR 2022-11-04 07:31:09,772 launch_utils.py:604] ABORT!!! Out of all 8 trainers, the trainer process "
              "with rank=[3, 7] was aborted. Please check its log.\n")
    d = _report(tmp_path, lines)
    assert d["verdict"]["cause"] != "network_setup", d["verdict"]
    assert d["verdict"]["culprits"] == [3, 7], d["verdict"]
    # trainer 0 itself in the record: its own connects failing stay the network's (no survivor to explain them)
    d = _report(tmp_path, lines.replace("rank=[3, 7]", "rank=[0]"))
    assert d["verdict"]["cause"] == "network_setup", d["verdict"]


# --- session 10 (fix33c): communication-library errors of frameworks diagnose had seen little of --------------------
def test_tensorrt_llms_nccl_check_wording_is_read_by_its_nccl_result_code(tmp_path):
    """TensorRT-LLM's NCCLCHECK prints "Failed, NCCL error <file>:<line> '<ncclGetErrorString>'" (no "in:"): the
    quoted string is NCCL's result code, read like torch's "NCCL error in:" (system / invalid usage / internal),
    nobody named by a line that names no failing peer."""
    for path, msg, cause in (
            ("/code/trtllm/cpp/tensorrt_llm/runtime/ncclCommunicator.cpp:71", "invalid usage (run with NCCL_DEBUG=WARN "
             "for details)", "invalid_usage"),
            ("/workspace/tensorrt_llm/cpp/tensorrt_llm/plugins/ncclPlugin/allgatherPlugin.cpp:118", "unhandled system "
             "error (run with NCCL_DEBUG=INFO for details)", "nccl_system"),
            ("/build/cpp/tensorrt_llm/plugins/ncclPlugin/reduceScatterPlugin.cpp:140", "internal error - please report "
             "this issue to the NCCL developers", "nccl_internal")):
        text = f"[TensorRT-LLM][ERROR] Assertion failed: Failed, NCCL error {path} '{msg}'\n"
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == (cause, []) and not _accused(d), (msg, v)


def test_xla_aborting_a_live_communicator_on_an_async_remote_error_is_a_peer_gone_mid_run(tmp_path):
    """Lead rule O: XLA's checker aborting a communicator 'due to async NCCL error: remote process exited or there was
    a network error' places the remote error in a communicator already running collectives: a peer that went away
    (early_exit), culprits unknown since the line names no peer; torch's bare two-line summary, which places it
    nowhere, stays unknown."""
    for stamp, where, addr in (("2024-03-02 07:41:12.004113: E", "external/xla/xla/service/gpu/nccl_utils.cc:204",
                                "0x7f01c4a2b3d0"),
                               ("E0302 07:41:12.004113  9127", "xla/service/gpu/runtime/nccl_api.cc:88",
                                "0x55d3e81f0c40")):
        text = (f"{stamp} {where}] Aborting communicator: {addr} due to async NCCL error: remote process exited or "
                "there was a network error\n")
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("early_exit", []) and not _accused(d), (where, v)
    bare = ("torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:"
            "1691, remote process exited or there was a network error, NCCL version 2.20.5\n")
    assert _verdict(tmp_path, bare)["cause"] == "unknown"


def _cupy_tb(key: str, with_comm: bool = True) -> str:
    comm = ('  File "/opt/app/dist/comm.py", line 57, in _init_comm\n'
            '    self._comm = nccl.NcclCommunicator(self.world, self.uid, self.rank)\n'
            '  File "cupy_backends/cuda/libs/nccl.pyx", line 283, in cupy_backends.cuda.libs.nccl.NcclCommunicator.'
            '__init__\n') if with_comm else ('  File "/opt/app/dist/comm.py", line 88, in all_reduce\n'
                                             '    self._comm.allReduce(a, b, n, t, op, stream)\n')
    return ("Traceback (most recent call last):\n" + comm
            + '  File "cupy_backends/cuda/libs/nccl.pyx", line 129, in cupy_backends.cuda.libs.nccl.check_status\n'
            '  File "cupy_backends/cuda/libs/nccl.pyx", line 118, in cupy_backends.cuda.libs.nccl.NcclError.__init__\n'
            f"KeyError: {key}\n")


def test_cupys_keyerror_from_ncclerror_is_the_nccl_result_code_it_has_no_name_for(tmp_path):
    """An old CuPy raises 'KeyError: N' from NcclError.__init__ for a result code it has no name for: N is NCCL's
    ncclResult_t. 6 (ncclRemoteError) while NcclCommunicator is being created is the connection set-up failing
    (lead rules L and O: network_setup, nobody named); 2 there is a system call (nccl_system); a KeyError not under
    NcclError's constructor is no NCCL code at all."""
    d = _report(tmp_path, _cupy_tb("6"))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("network_setup", []) and not _accused(d), v
    assert "NCCL_SOCKET_IFNAME" in v["fix"], v["fix"]
    assert _verdict(tmp_path, _cupy_tb("2"))["cause"] == "nccl_system"
    assert _verdict(tmp_path, _cupy_tb("6", with_comm=False))["cause"] != "network_setup"
    plain = 'Traceback (most recent call last):\n  File "x.py", line 3, in <module>\n    d["a"]\nKeyError: 6\n'
    assert _verdict(tmp_path, plain)["cause"] not in ("network_setup", "early_exit")


def test_an_ncclerror_whose_text_was_lost_is_unknown_and_asks_for_it(tmp_path):
    """Ray re-raising a task's exception by its class alone ('RayTaskError(NcclError)'): an NCCL call failed, but which
    error and whose side the lines cannot say -- unknown, nobody accused, and the fix asks for the message."""
    text = ("ray.exceptions.RayTaskError(NcclError): ray::CollectiveActor.setup_group() (pid=20411, ip=10.3.0.12, "
            "repr=<trainer.CollectiveActor object at 0x7f21c0a51d90>)\n"
            '  File "/usr/lib/python3.10/site-packages/trainer/collective.py", line 140, in setup_group\n'
            "    comm = NcclCommunicator(self.world_size, uid, self.rank)\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "unknown" and not _accused(d), v
    assert "NCCL_DEBUG=INFO" in v["fix"] and "NcclError's full message" in v["fix"], v["fix"]


def test_an_nccl_check_printing_unknown_result_code_is_unknown_and_asks_for_the_real_error(tmp_path):
    """Lead rules J and AK (2) (round 61): a framework's NCCL check printing 'unknown result code' --
    ncclGetErrorString's words for a code the loaded libnccl has no name for -- says an NCCL call failed, not which
    error: unknown, not nccl_internal; every process printing the same check is no rank's fault (nobody named); the
    fix asks for NCCL_DEBUG=INFO's real error, the libnccl loaded against the build's and the P2P path. Another
    check's wording ("NCCL error in: file:line, ...") reads the same; the words alone, with no NCCL error before
    them, do not."""
    for text in ("[TensorRT-LLM][ERROR] Assertion failed: Failed, NCCL error /opt/trtllm/cpp/tensorrt_llm/plugins/"
                 "ncclPlugin/reduceScatterPlugin.cpp:96 'unknown result code'\n" * 2,
                 "[rank2]: RuntimeError: NCCL error in: /src/comm/nccl_ops.cc:140, unknown result code\n"):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), v
        assert "unknown result code" in v["summary"], v["summary"]
        assert "NCCL_DEBUG=INFO to see the real NCCL error" in v["fix"] and "NCCL_P2P_DISABLE=1" in v["fix"], v["fix"]
        assert "which libnccl is loaded" in v["fix"], v["fix"]
    assert "2 processes print the same" in _verdict(
        tmp_path, "Failed, NCCL error a/b.cpp:7 'unknown result code'\n" * 2)["summary"]
    assert "see the real NCCL error" not in _verdict(tmp_path, "lookup failed: unknown result code 9\n")["fix"]


def test_oneccl_failing_to_start_its_worker_threads_is_the_hosts_system_call(tmp_path):
    """oneCCL's start-up creating its worker threads fails on a system call (pthread_create returning an errno, the
    worker affinity against the CPUs allowed): lead rule J's system error of the set-up every process shares --
    nccl_system, nobody named, the fix the worker affinity/count."""
    for n, err in ((2, 11), (0, 1)):
        text = (f"2024:05:14-09:12:03:(4411) |CCL_ERROR| base_thread.cpp:41 start: error while creating worker thread "
                f"#{n} pthread_create returns {err}\n"
                "2024:05:14-09:12:03:(4411) |CCL_ERROR| exec.cpp:151 start_workers: condition workers.back()->start("
                "cpu_affinity, mem_affinity) == ccl::status::success failed\n"
                f"RuntimeError: oneCCL: exec.cpp:151 start_workers: EXCEPTION: failed to start worker # {n}\n")
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("nccl_system", []) and not _accused(d), v
        assert "CCL_WORKER_AFFINITY" in v["fix"], v["fix"]


def test_an_rdma_engines_own_retry_exceeded_completion_is_the_fabric_between_the_two_nics(tmp_path):
    """A transfer engine of its own (Mooncake's worker pool) printing a work completion's status in ibv_wc_status_str's
    words, 'transport retry counter exceeded' (IBV_WC_RETRY_EXC_ERR) on its local NIC towards a peer NIC: the link or
    path between the hosts (ib_fabric, nobody named), the fix naming that HCA and peer for a direct test."""
    text = ("W0911 17:02:55.120331 30418 worker_pool.cpp:301] Worker: Process failed for slice (opcode: 0, "
            "source_addr: 0x7f5a10200000, length: 131072, dest_addr: 0x7fe2c0200000, local_nic: mlx5_3, peer_nic: "
            "192.168.40.21:17412@mlx5_3, dest_rkey: 88123, retry_cnt: 1): transport retry counter exceeded\n"
            "E0911 17:02:55.130020 30418 rdma_context.cpp:322] Context is not active: mlx5_3\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("ib_fabric", []) and not _accused(d), v
    assert "mlx5_3" in v["fix"] and "192.168.40.21" in v["fix"] and "ib_write_bw" in v["fix"], v["fix"]


def test_rdma_engine_completion_status_words_other_than_retry_are_the_fabric(tmp_path):
    """Round 64 (rule AI (3)): the same engines printing other completion statuses in ibv_wc_status_str's words --
    Mooncake's 'local protection error' (IBV_WC_LOC_PROT_ERR, the local buffer's registration: GPUDirect) and UCX's
    SRD/RC 'send completion[0] with error on DEV/0x..: Work Request Flushed Error' (IBV_WC_WR_FLUSH_ERR) -- are
    ib_fabric with nobody named; other words after the same anchor are no completion status."""
    prot = ("E0402 09:11:40.771203 81233 worker_pool.cpp:294] Worker: Process failed for slice (opcode: 0, "
            "source_addr: 0x7f11aa000400, length: 8192, dest_addr: 0x7f22bb000400, local_nic: mlx5_1, peer_nic: "
            "10.20.3.4:16001@mlx5_1, dest_rkey: 40112, retry_cnt: 2): local protection error\n")
    v = _verdict(tmp_path, prot * 2)
    assert (v["cause"], v["culprits"]) == ("ib_fabric", []), v
    assert "nvidia-peermem" in v["fix"] and "mlx5_1" in v["summary"], v
    flush = ("[1712040000.123456] [worker-3:771  :0]        rc_iface.c:221  UCX  ERROR send completion[0] with error "
             "on mlx5_4/0x5611aa0b1230: Work Request Flushed Error, vendor_err 0xf5 wr_id 0x7f0011223340\n")
    v = _verdict(tmp_path, flush)
    assert (v["cause"], v["culprits"]) == ("ib_fabric", []), v
    assert "ibv_devinfo" in v["fix"] and "mlx5_4" in v["summary"], v
    # near shapes: the anchor followed by words that are no verbs status (a slice whose engine says why in its own
    # words, a completion with an application's error) are not read as a completion status
    for near in ("E0402 09:11:40.771203 81233 worker_pool.cpp:294] Worker: Process failed for slice (opcode: 0, "
                 "length: 8192, local_nic: mlx5_1): segment not registered\n",
                 "[1712040000.1] [w:7 :0] tag_recv.c:88 UCX ERROR recv completion[0] with error on request 0x1: "
                 "Message truncated\n"):
        v = _verdict(tmp_path, near)
        assert v["cause"] != "ib_fabric", (near, v)


def test_ucx_verbs_call_failing_at_connect_is_the_fabric_with_ucx_settings(tmp_path):
    """Round 64 (rule J, its ibv_modify_qp reading): UCX under Open MPI naming a verbs call it made for a peer's
    connection and its errno ('ibv_create_ah(dlid=.. dgid=::ffff:10.0.0.9 sgid_index=3 ..) for UD verbs connect on
    bnxt_re0 failed: Connection timed out') is the RoCE path to that peer's GID (ib_fabric, nobody named), above
    MPI's own MPI_ERR_OTHER; the fix names UCX's own settings. A verbs call that only allocates on the local HCA
    (ibv_create_qp) stays the host's resources (nccl_system)."""
    ah = ("[1700000000.100000] [node7:4412 :0]       ib_device.c:1250 UCX  ERROR   ibv_create_ah(dlid=49152 sl=0 "
          "port=1 src_path_bits=0 dgid=::ffff:10.0.0.9 sgid_index=3 traffic_class=106) for UD verbs connect on "
          "bnxt_re0 failed: Connection timed out\n"
          "[node7:4412] pml_ucx.c:419  Error: ucp_ep_create(proc=1) failed: Endpoint timeout\n"
          "RuntimeError: Runtime error: MPI_ERR_OTHER: known error not in list\n")
    v = _verdict(tmp_path, ah)
    assert (v["cause"], v["culprits"]) == ("ib_fabric", []), v
    assert "UCX_IB_GID_INDEX" in v["fix"] and "show_gids" in v["fix"] and "bnxt_re0" in v["summary"], v
    qp = ("[1700000000.100000] [node7:4412 :0]       ib_iface.c:1020 UCX  ERROR   ibv_create_qp(port=1 "
          "max_send_wr=256) for RC on mlx5_0 failed: Cannot allocate memory\n")
    v = _verdict(tmp_path, qp)
    assert (v["cause"], v["culprits"]) == ("nccl_system", []), v


def test_gloo_device_factory_without_interface_or_hostname_is_network_set_up(tmp_path):
    """Round 33 (lead rule L): gloo's device factory (libuv on Windows) finds neither an interface nor a host name to
    bind: the host's address set-up, network_setup with no rank named, even after the store client's connect warning
    to an empty address."""
    warn = ("[W D:\\build\\torch\\csrc\\distributed\\c10d\\socket.cpp:558] [c10d] The client socket has failed to "
            "connect to []:41873 (system error: 10049).\n")
    tb = ("Traceback (most recent call last):\n"
          '  File "D:\\app\\train.py", line 57, in main\n'
          "    dist.init_process_group(backend='gloo', init_method='env://', world_size=1, rank=0)\n"
          "RuntimeError: GlooDeviceFactory::makeUVDevice(): interface or hostname can't be empty\n")
    for text in (warn + warn + tb, tb):
        v = _verdict(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("network_setup", []), v
        assert "GLOO_SOCKET_IFNAME" in v["fix"], v


def test_gloos_no_interface_for_the_host_names_address_is_network_setup_naming_the_resolution(tmp_path):
    """Round 40: gloo's tcp device (no GLOO_SOCKET_IFNAME) binds to the address the host name resolves to; when no
    local interface holds it, its enforce says "ifa != nullptr. Unable to find interface for: [ADDR]": a wrong address
    at connection set-up (lead rule L), nobody named, and the fix names the interface setting and the name's
    resolution. A 0.0.0.0/8 address is what a numeric host name reads as."""
    for rank, addr in ((3, "10.20.30.41"), (0, "0.0.1.7")):
        text = ("Traceback (most recent call last):\n"
                '  File "/opt/app/serve.py", line 31, in start\n'
                "    dist.init_process_group(backend='gloo')\n"
                f"[rank{rank}]: RuntimeError: [enforce fail at /opt/pytorch/third_party/gloo/gloo/transport/tcp/"
                f"device.cc:230] ifa != nullptr. Unable to find interface for: [{addr}]\n")
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("network_setup", []) and not _accused(d), v
        assert addr in v["summary"] and "GLOO_SOCKET_IFNAME" in v["fix"] and "/etc/hosts" in v["fix"], v
        assert ("numeric host name" in v["summary"]) == addr.startswith("0."), v


# --- a CPU tensor handed to an NCCL collective on every rank (round 34) ---------------------------------------------
def test_every_ranks_collective_refusing_a_cpu_tensor_is_invalid_usage_naming_no_rank(tmp_path):
    """ProcessGroupNCCL's "Tensors must be CUDA and dense" on each rank (here an all_gather of a CPU tensor under
    torchrun, both workers exit 1): the caller's usage error, the same code on every rank, so nobody is accused."""
    tb = ("Traceback (most recent call last):\n"
          '  File "/srv/app/eval_loop.py", line 88, in gather_scores\n'
          "    dist.all_gather(out, scores)\n"
          '  File "/opt/venv/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", line 2870, in '
          "all_gather\n"
          "    work = default_pg.allgather([tensor_list], [tensor])\n"
          "RuntimeError: Tensors must be CUDA and dense\n")
    text = (tb + tb + "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n"
            + "=" * 60 + "\neval_loop.py FAILED\n" + "-" * 60 + "\nFailures:\n"
            + failure_record(1, 3, 1, 1, 7712, host="gpu-b7") + "-" * 60 + "\nRoot Cause (first observed failure):\n"
            + failure_record(0, 2, 0, 1, 7711, host="gpu-b7") + "=" * 60 + "\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "invalid_usage" and v["culprits"] == [] and not _accused(d), v
    assert "CPU tensor" in v["fix"] or ".cuda()" in v["fix"], v["fix"]
    v = _verdict(tmp_path, tb, "one.log")  # one rank's traceback alone reads the same
    assert v["cause"] == "invalid_usage" and v["culprits"] == [], v


def test_c10d_finding_no_backend_for_a_cpu_tensor_is_the_same_invalid_usage(tmp_path):
    """Round 59: newer torch refuses a broadcast of a CPU tensor one layer before ProcessGroupNCCL, in c10d's dispatch
    by device ("No backend type associated with device type cpu": the default group holds only an NCCL backend),
    printed by several processes after every communicator's Init COMPLETE: the same usage error as "Tensors must be
    CUDA and dense", invalid_usage, nobody accused; the gloo backend for CPU tensors is in the fix."""
    init = "".join(nccl_info("node3", 5100 + r, r, f"comm 0x55aa{r:04x} rank {r} nranks 4 cudaDev {r} busId "
                             f"{r + 1}b000 commId 0x1c2d3e4f5a6b7c8d - Init COMPLETE") for r in range(4))
    err = "RuntimeError: No backend type associated with device type cpu\n"
    tb = ('  File "/opt/venv/lib/python3.11/site-packages/mylib/trainer.py", line 211, in sync_frozen_params\n'
          "    dist.broadcast(p.data, src=0, group=None)\n"
          '  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 2201, in '
          "broadcast\n"
          "    work = default_pg.broadcast([tensor], opts)\n")
    d = _report(tmp_path, init + err + tb + err)
    v = d["verdict"]
    assert v["cause"] == "invalid_usage" and v["culprits"] == [] and not _accused(d), v
    assert "gloo" in v["fix"] and "cpu:gloo,cuda:nccl" in v["fix"], v["fix"]


def test_a_cpu_tensor_refusal_glued_to_the_next_lines_module_path_is_still_read(tmp_path):
    """Round 72 (newsreclib-32): a paste that lost the newline after "Tensors must be CUDA and dense" glues the
    launcher's "torch.distributed.elastic...ChildFailedError:" onto it ("densetorch.distributed..."): the message still
    ends at "dense" -- rule AV's invalid_usage, nobody accused. A longer word there ("densely") is another message."""
    tb = ('"/opt/venv/lib/python3.9/site-packages/torch/distributed/distributed_c10d.py", line 2450, in all_gather\n'
          "    work = group.allgather([tensor_list], [tensor])\n")
    tail = "\n" + "=" * 60 + "\nsrc/train.py FAILED \n"
    glued = ("RuntimeError: Tensors must be CUDA and densetorch.distributed.elastic.multiprocessing.errors."
             "ChildFailedError:")
    d = _report(tmp_path, tb + glued + tail)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not _accused(d), v
    assert ".cuda()" in v["fix"] and "gloo" in v["fix"], v["fix"]
    v = _verdict(tmp_path, tb + "RuntimeError: Tensors must be CUDA and densely packed for this kernel" + tail)
    assert v["cause"] != "invalid_usage", v


def test_c10d_no_backend_for_cpu_pasted_without_its_exception_class_is_the_same_invalid_usage(tmp_path):
    """Round 72 (dgl-7333): "No backend type associated with device type cpu" alone on its line, the paste having
    dropped its "RuntimeError: " (frames of an all_to_all before it, several ranks' code lines glued together): the
    same c10d refusal of a CPU tensor, rule AV's invalid_usage with nobody accused. The same words in an INFO line of
    a logger (a framework noting the fallback it takes) announce no failure."""
    frames = ('File "/home/u/dgl/python/dgl/distributed/optim/pytorch/utils.py", line 86, in alltoall\n'
              "            th.distributed.all_to_all(output_tensor_list, input_tensor_list)"
              "th.distributed.all_to_all(output_tensor_list, input_tensor_list)\n")
    d = _report(tmp_path, frames + "No backend type associated with device type cpu\n")
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not _accused(d), v
    assert "cpu:gloo,cuda:nccl" in v["fix"], v["fix"]
    v = _verdict(tmp_path, "2024-05-02 10:11:12 INFO sync.py:40 No backend type associated with device type cpu, "
                 "using the gloo group for CPU tensors\n")
    assert v["cause"] != "invalid_usage", v



# --- round 62: c10d refusing a collective's tensors for another device or for sizes (rule AV) ------------------------
def _c10d_tb(rank: int, call: str, err: str) -> str:
    """One rank's tagged traceback ending in c10d's refusal of the collective CALL."""
    return "".join(f"[rank{rank}]: {x}\n" for x in (
        "Traceback (most recent call last):",
        '  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 3801, in '
        f"{call}",
        "    work = group._allgather_base(output_tensor, input_tensor, opts)", err))


def test_no_backend_for_a_non_cpu_device_is_invalid_usage_with_that_devices_backend_as_the_fix(tmp_path):
    """Round 62: c10d's dispatch by device refusing an XPU (or HPU) tensor ("No backend type associated with device
    type xpu"): the group was created with no backend for that device, the same set-up on every rank -- rule AV's
    invalid_usage, nobody accused even where only one rank's traceback is shown; the fix names the device's backend."""
    for dev, word in (("xpu", "xccl"), ("hpu", "habana_frameworks.torch.distributed.hccl")):
        err = f"RuntimeError: No backend type associated with device type {dev}"
        d = _report(tmp_path, _c10d_tb(3, "all_gather_into_tensor", err) + "[3]  51207 exit 1     tune run x\n")
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not _accused(d), v
        assert word in v["fix"] and f"'{dev}'" in v["summary"], v


def test_gloo_refusing_an_mps_tensor_is_invalid_usage_and_a_mixed_call_names_both_devices(tmp_path):
    """Round 62: gloo's own type check of a call's tensors ("ProcessGroupGloo::broadcast: invalid tensor type at index
    0 (expected ... device=cpu ..., got ... device=mps:0 ...)") on DDP's parameter check: MPS has no backend (rule AV),
    invalid_usage, the rank that printed it not accused. A call mixing CPU and CUDA tensors is the same usage error,
    its fix one device for the whole call."""
    opts = ("TensorOptions(dtype=float, device={}, layout=Strided, requires_grad=false (default), pinned_memory=false "
            "(default), memory_format=(nullopt))")
    err = ("RuntimeError: ProcessGroupGloo::broadcast: invalid tensor type at index 0 (expected "
           f"{opts.format('cpu')}, got {opts.format('mps:0')})")
    d = _report(tmp_path, _c10d_tb(2, "broadcast", err))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not _accused(d), v
    assert "gloo does not support MPS tensors" in v["fix"] and "device=cpu" in v["fix"], v["fix"]
    err = ("RuntimeError: ProcessGroupGloo::allgather: invalid tensor type at index 1 (expected "
           f"{opts.format('cpu')}, got {opts.format('cuda:1')})")
    d = _report(tmp_path, _c10d_tb(1, "all_gather", err))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not _accused(d), v
    assert "cpu and cuda" in v["summary"] and "one device" in v["fix"], v


def test_a_collectives_own_size_check_behind_a_frameworks_logger_is_invalid_usage(tmp_path):
    """Round 62: the single-tensor collectives' size checks ("output tensor size must be equal to world_size times
    input tensor size", reduce_scatter_tensor's "input tensor must be the same size as output size times world
    size"), printed by every worker behind vLLM's logger header (no traceback line of its own): the caller's tensor
    sizes, the same code on every worker -- invalid_usage, nobody accused, the fix the sizes and their padding."""
    for msg in ("ValueError: output tensor size must be equal to world_size times input tensor size",
                "ValueError: input tensor must be the same size as output size times world size"):
        text = "".join(f"(VllmWorker rank={r} pid={700 + r}) ERROR 03-14 11:02:09 [multiproc_executor.py:470] {x}\n"
                       for r in (1, 0) for x in ("Traceback (most recent call last):", msg))
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not _accused(d), v
        assert "pad" in v["fix"] and "world size" in v["fix"], v["fix"]


def test_a_frameworks_divisibility_check_and_a_gloo_peer_closing_are_not_a_refused_tensor(tmp_path):
    """Near shapes of round 62's readings: a framework's own check that its settings divide the world (rule W) is not
    a collective refusing its tensors, nor is gloo's transport failing inside an all_gather (a peer closed the
    connection): neither is invalid_usage."""
    own = ("(VllmWorker rank=0 pid=700) ERROR 03-14 11:02:09 [multiproc_executor.py:470] ValueError: Total number of "
           "attention heads (40) must be divisible by tensor parallel size (3).\n")
    gloo = _c10d_tb(1, "all_gather", "RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:534] "
                    "Connection closed by peer [10.4.0.12]:40311")
    for text in (own, gloo):
        v = _verdict(tmp_path, text)
        assert v["cause"] != "invalid_usage", v


# round 35: Open MPI's own shared-memory transport refused by the host (lead rule J): every process, no rank
def test_open_mpi_vader_cma_read_refused_is_the_hosts_setup_not_the_shutdown(tmp_path):
    """The vader BTL's single copy (process_vm_readv) failing with EPERM in a container: btl_vader_get.c's
    "Read %ld, expected %lu, errno = %d" from every process, then Horovod's shutdown: nccl_system, nobody."""
    text = "".join(f"[1,{r}]<stderr>:[worker-7f3a:{pid}] Read -1, expected {n}, errno = 1\n"
                   for r, pid, n in ((3, 4412, 65536), (2, 4411, 1048576), (3, 4412, 2097152), (2, 4411, 8192)))
    text += ("[1,0]<stderr>:tensorflow.python.framework.errors_impl.AbortedError: Horovod has been shut down. This "
             "was caused by an exception on one of the ranks or an attempt to allreduce, allgather or broadcast a "
             "tensor after one of the ranks finished execution.\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("nccl_system", []) and not _accused(d), v
    assert "SYS_PTRACE" in v["fix"] and "btl_vader_single_copy_mechanism" in v["fix"], v


def test_open_mpi_shmem_mmap_sys_call_fail_is_the_hosts_setup(tmp_path):
    """opal's shmem mmap component (help-opal-shmem-mmap.txt, "sys call fail"): its backing file could not be
    made, whatever the call; the aggregated count of the other processes says it is every one of them."""
    text = ("--------------------------------------------------------------------------\n"
            "A system call failed during shared memory initialization that should\n"
            "not have.  It is likely that your MPI job will now either abort or\n"
            "experience performance degradation.\n\n"
            "  Local host:  gpu-node-12\n"
            "  System call: ftruncate(2)\n"
            "  Error:       No space left on device (errno 28)\n"
            "--------------------------------------------------------------------------\n"
            "[gpu-node-12:91822] 7 more processes have sent help message help-opal-shmem-mmap.txt / sys call fail\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("nccl_system", []) and not _accused(d), v
    assert "orte_tmpdir_base" in v["fix"] and "/dev/shm" in v["fix"], v


# --- round 36: Paddle's trainers waiting on each other's endpoints, never ready (lead rule AD (1)) -----------------
def test_paddle_endpoints_never_ready_are_network_setup_naming_no_rank(tmp_path):
    """Paddle's launcher (trainer 0, which hands the NCCL id to the others) retrying endpoints that stay not ready
    wait after wait, nothing else failing: the connections between trainers cannot be made at set-up -- network_setup
    (lead rules L, AD (1)), no rank named, whether several endpoints (a node) or one (its trainer) never answer. One
    wait that the next line does not repeat is not read so, and the --ips rule (config) still comes first."""
    node = ("[2023-03-02 10:11:12] server not ready, wait 3 sec to retry...\n"
            "[2023-03-02 10:11:12] not ready endpoints:['192.168.30.8:36110', '192.168.30.8:36111']\n") * 4
    one = ("not ready endpoints:['127.0.0.1:41235']\nserver not ready, wait 3 sec to retry...\n") * 3
    shrink = ("not ready endpoints:['10.4.0.2:6170', '10.4.0.3:6170']\nserver not ready, wait 3 sec to retry...\n"
              "not ready endpoints:['10.4.0.3:6170']\nserver not ready, wait 3 sec to retry...\n"
              "not ready endpoints:['10.4.0.3:6170']\n")
    for text, several in ((node, True), (one, False), (shrink, False)):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("network_setup", []) and not _accused(d), (text, v)
        assert "workerlog" in v["fix"] and "--ips" in v["fix"], v
        assert ("several trainers" in v["summary"]) == several, v
    assert "192.168.30.8" in _verdict(tmp_path, node)["summary"]
    assert "--started_port" in _verdict(tmp_path, one)["fix"]
    assert _verdict(tmp_path, "server not ready, wait 3 sec to retry...\nnot ready endpoints:['10.4.0.3:6170']\n"
                    )["cause"] != "network_setup"


# --- round 36: ncclRemoteError raised inside Paddle's set-up call (lead rules L, O) ---------------------------------
def test_remote_error_under_paddles_init_parallel_env_is_network_setup(tmp_path):
    """A traceback through paddle.distributed.init_parallel_env (its store, the communicator, a first barrier) that
    ends in NCCL error 6 (ncclRemoteError, 'remote process exited or there was a network error'): the connection
    between the processes failed while the job was being set up -- network_setup, no rank (lead rules L, O). The
    same error in a training step's traceback stays a peer gone or unknown, never set-up."""
    def tb(frames):
        return ("Traceback (most recent call last):\n  File \"/workspace/train_dist.py\", line 41, in <module>\n"
                + frames + "RuntimeError: (External) NCCL error(6), remote process exited or there was a network "
                "error.\n  [Hint: Please search for the error code(6) on website.] (at "
                "/paddle/paddle/fluid/distributed/collective/process_group_nccl.cc:512)\n")
    init = ("    paddle.distributed.init_parallel_env()\n  File \"/opt/conda/lib/python3.10/site-packages/paddle/"
            "distributed/parallel.py\", line 1104, in init_parallel_env\n    paddle.distributed.all_reduce(x)\n")
    step = ("    loss.backward()\n  File \"/opt/conda/lib/python3.10/site-packages/paddle/distributed/fleet/utils/"
            "hybrid_parallel_util.py\", line 88, in fused_allreduce_gradients\n    task.wait()\n")
    d = _report(tmp_path, tb(init))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("network_setup", []) and not _accused(d), v
    assert "NCCL_SOCKET_IFNAME" in v["fix"] and "cupy" not in v["fix"], v
    assert _verdict(tmp_path, tb(step))["cause"] != "network_setup"
    cut = ("Traceback (most recent call last):\n  File \"/w/a.py\", line 3, in <module>\n  File \"/p/parallel.py\", "
           "line 9, in init_parallel_env\nValueError: bad env\n")
    assert _verdict(tmp_path, cut + tb(step))["cause"] != "network_setup"


# --- session 11 (fix37b): an RDMA engine's own words for a queue pair the host refused ---------------------------
def test_an_rdma_engines_failed_to_create_qp_is_the_nodes_system_error_not_the_fabric(tmp_path):
    """Mooncake's transfer engine (rdma_endpoint.cpp: LOG(ERROR) << "Failed to create QP: " << strerror(errno)) is the
    counterpart of NCCL's "Call to ibv_create_qp failed with error ...": the local HCA or the locked-memory limit
    refused it, nothing on the wire (lead rule J: nccl_system), and no rank is named; a crash after it follows."""
    text = ("W1103 11:42:07.003311 27710 rdma_context.cpp:131] RDMA device mlx5_3 port 1 is active\n"
            "E1103 11:42:09.918420 27754 rdma_endpoint.cpp:88] Unable to create QP: Cannot allocate memory [12]\n"
            "E1103 11:42:09.918502 27754 rdma_endpoint.cpp:88] Unable to create QP: Cannot allocate memory [12]\n"
            "Fatal Python error: Aborted\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "nccl_system" and not _accused(d), v
    assert "ulimit -l" in v["fix"] and "max_qp" in v["fix"], v["fix"]


# --- session 12 (fixA): the coordination service's set-up barrier, and the settings beside it (lead rules R, AE) ------
_COORD_TB = ("Traceback (most recent call last):\n"
             "  File \"/home/u/proj/launch.py\", line 31, in <module>\n"
             "{call}\n"
             "  File \"/opt/venv/lib/python3.10/site-packages/jax/_src/distributed.py\", line 196, in initialize\n"
             "    global_state.initialize(coordinator_address, num_processes, process_id,\n"
             "  File \"/opt/venv/lib/python3.10/site-packages/jax/_src/distributed.py\", line 104, in initialize\n"
             "    self.client.connect()\n"
             "jaxlib.xla_extension.XlaRuntimeError: DEADLINE_EXCEEDED: Barrier timed out. Id: PjRT_Client_Connect::0. "
             "This usually happens because a task triggered the barrier too early or too slowly. Please look at the "
             "task logs (both timed out and first task) to debug further.\n"
             "# of tasks that reached the barrier: 1/4.\n"
             "The first task at the barrier: /job:jax_worker/replica:0/task:0. Some timed out task names:\n"
             "/job:jax_worker/replica:0/task:2\n"
             "/job:jax_worker/replica:0/task:3\n"
             "/job:jax_worker/replica:0/task:1\n")


def test_a_coordination_barrier_beside_a_hard_coded_process_id_is_the_settings(tmp_path):
    """Rule AE (round 37): jax.distributed.initialize called with a literal process id for a world of several
    processes (here positional: address, count, id) while its set-up barrier waits for the others: every process
    started with that line claims the same id -- config, nobody named, the waiting process no culprit."""
    d = _report(tmp_path, _COORD_TB.format(call='    jax.distributed.initialize("10.20.0.4:9911", 4, 0)'))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "process_id" in v["fix"] and "num_processes" in v["fix"], v


def test_a_coordination_barrier_with_the_id_from_the_launcher_is_the_rendezvous(tmp_path):
    """Rule R (rule AE's other side): the same barrier with the process id taken from a variable, or with no call
    shown, says only that tasks never checked in: store_rendezvous, nobody named (the missing tasks are not shown)."""
    call = "    jax.distributed.initialize(coordinator_address=addr, num_processes=4, process_id=args.node_rank)"
    for text in (_COORD_TB.format(call=call), _COORD_TB.split("jaxlib.", 1)[1]):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("store_rendezvous", []) and not _accused(d), v
        assert "1 of 4" in v["summary"] and "coordinator_address" in v["fix"], v


def test_a_store_barrier_short_of_its_world_beside_init_process_group_with_a_literal_rank_is_the_settings(tmp_path):
    """Rule AE for torch: init_process_group(..., rank=0, world_size=3) in the traceback above the store-based
    barrier's timeout (1 of 3 joined): every process claims rank 0 -- config, nobody named."""
    text = ("Traceback (most recent call last):\n"
            "  File \"run_ddp.py\", line 12, in <module>\n"
            "    dist.init_process_group(backend='nccl', init_method='tcp://10.9.8.7:29511', rank=0, world_size=3)\n"
            "  File \"/usr/lib/python3/site-packages/torch/distributed/distributed_c10d.py\", line 627, in "
            "init_process_group\n"
            "RuntimeError: Timed out initializing process group in store based barrier on rank: 0, for key: "
            "store_based_barrier_key:1 (world_size=3, worker_count=1, timeout=0:30:00)\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    plain = text.replace("rank=0, world_size=3", "rank=args.rank, world_size=args.world")
    assert _verdict(tmp_path, plain)["cause"] == "store_rendezvous"


def test_a_coordination_barrier_beside_a_loopback_coordinator_on_several_hosts_is_the_settings(tmp_path):
    """Rule AE's third setting: a loopback coordinator_address while the lines show ranks on two hosts (the id from
    the environment, so not hard-coded): the other host's process can never reach it -- config, nobody named."""
    hosts = ("[rank0]:gpu-a:3301:3301 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n"
             "[rank1]:gpu-b:4402:4402 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.2<0>\n")
    call = ('    jax.distributed.initialize(coordinator_address="127.0.0.1:5000", num_processes=4, '
            'process_id=int(os.environ["RANK"]))')
    d = _report(tmp_path, hosts + _COORD_TB.format(call=call))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "127.0.0.1:5000" in v["summary"], v
    assert _verdict(tmp_path, _COORD_TB.format(call=call))["cause"] == "store_rendezvous"


# --- session 12 (fixA): the process group refusing a rank given twice (lead rules Q, W) -----------------------------
def test_the_process_group_refusing_a_rank_given_twice_is_invalid_usage_naming_nobody(tmp_path):
    """Round 37 (apex-28): THD's init_process_group raising "more than one node have assigned same rank" is the
    launch giving two processes one rank, the counterpart of NCCL's bootstrap seeing a rank check in twice:
    invalid_usage, nobody named -- here in another wording, under torch.distributed.launch, with torchrun's record
    naming the one process it saw fail (rule Q: still no rank)."""
    text = ("Traceback (most recent call last):\n"
            "  File \"train_net.py\", line 212, in <module>\n"
            "    dist.init_process_group(backend='gloo', init_method='env://', world_size=4, rank=opt.rank)\n"
            "  File \"/usr/lib/python3.7/site-packages/torch/distributed/__init__.py\", line 102, in "
            "init_process_group\n"
            "RuntimeError: more than one process has been assigned the same rank at "
            "/build/torch/lib/THD/process_group/General.cpp:21\n"
            "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 2 (pid: 5120) of "
            "binary: /usr/bin/python3\n"
            + failure_record(0, 2, 2, 1, 5120))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not _accused(d), v
    assert "--rank" in v["fix"] and "world_size" in v["fix"], v
    other = text.replace("more than one process has been assigned the same rank", "Connection refused")
    assert _verdict(tmp_path, other)["cause"] != "invalid_usage"
# --- session 12 (fix38-1): lead rule AE, a world written into init_process_group that cannot form ------------------
def test_a_store_timeout_under_an_init_call_with_rank_past_its_world_size_is_config(tmp_path):
    """A traceback whose code line calls init_process_group with a literal rank at or past its literal world size
    ('world_size=2, rank=2'): that process can never join the world and waits on the store for a rank 0 none of
    it starts, so the store timeout after it is the setting (lead rule AE): config, no rank. A rank inside its world
    leaves the store timeout to rule R (store_rendezvous)."""
    def tb(call: str) -> str:
        return ("Traceback (most recent call last):\n"
                '  File "/srv/seg/tools/train_net.py", line 71, in run_worker\n'
                f"    {call}\n"
                '  File "/usr/local/lib/python3.9/site-packages/torch/distributed/distributed_c10d.py", line 500, in '
                "init_process_group\n"
                "    store, rank, world_size = next(rendezvous_iterator)\n"
                '  File "/usr/local/lib/python3.9/site-packages/torch/distributed/rendezvous.py", line 133, in '
                "_tcp_rendezvous_handler\n"
                "    store = TCPStore(result.hostname, result.port, world_size, start_daemon, timeout)\n"
                "TimeoutError: The client socket has timed out after 1800s while trying to connect to (10.3.1.9, "
                "23456).\n")
    for call in ("torch.distributed.init_process_group('nccl', init_method=cfg.url, rank=2, world_size=2)",
                 "dist.init_process_group(backend=\"gloo\", init_method=\"tcp://10.3.1.9:23456\", world_size=4, "
                 "rank=7)"):
        v = _verdict(tmp_path, tb(call))
        assert v["cause"] == "config" and v["culprits"] == [], (call, v)
        assert "world_size" in v["fix"] and "rank" in v["fix"], v
    for call in ("torch.distributed.init_process_group('nccl', init_method=cfg.url, rank=1, world_size=2)",
                 "dist.init_process_group(backend='nccl', world_size=world_size, rank=local_rank)"):
        assert _verdict(tmp_path, tb(call))["cause"] == "store_rendezvous", call


# --- gloo's pair of mixed address families; its enforce with the message on the next line (round 42/43) ------------
def test_gloos_pair_of_ipv4_and_ipv6_ends_is_network_setup_naming_the_address_family(tmp_path):
    """Round 42: gloo's tcp device enforces that both ends of a pair have one address family ("ss1.ss_family ==
    ss2.ss_family. 2 vs 10": AF_INET against AF_INET6): the ranks resolved their addresses to different families at
    connection set-up (lead rules L, AA (2)); every rank fails the same way, nobody is named."""
    for ranks in ((0, 1), (2, 5, 7)):
        text = "".join(f"[rank{r}]: RuntimeError: [enforce fail at /src/pytorch/third_party/gloo/gloo/transport/tcp/"
                       f"device.cc:281] ss1.ss_family == ss2.ss_family. {10 if r % 2 else 2} vs {2 if r % 2 else 10}\n"
                       for r in ranks)
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("network_setup", []) and not _accused(d), v
        assert "IPv6" in v["summary"] and "GLOO_SOCKET_IFNAME" in v["fix"], v


def test_gloos_enforce_with_its_message_on_the_next_line_names_the_missing_interface(tmp_path):
    """Round 43: gloo's "Unable to find address for: NAME" (no interface of the name GLOO_SOCKET_IFNAME gave) with the
    enforce's condition and message on the line after its "[enforce fail at .../gloo/...]" header: read joined, a
    wrong interface at connection set-up (lead rule L), nobody named; NCCL's '^' exclusion syntax is called out."""
    for name, caret, tag in (("^docker0,lo", True, "[rank3]: "), ("ib7", False, "")):
        text = ("Traceback (most recent call last):\n"
                f"{tag}RuntimeError: [enforce fail at /opt/pytorch/third_party/gloo/gloo/transport/tcp/device.cc:88]\n"
                f"{tag}    ifa != nullptr. Unable to find address for: {name}\n")
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("network_setup", []) and not _accused(d), (name, v)
        assert name in v["summary"] and ("exclusion syntax" in v["summary"]) == caret, v


# --- torchrun's agent failing its exit barrier with nothing else failing (round 43) ---------------------------------
def test_an_agents_exit_barrier_timeout_alone_is_the_launchers_store_barrier_naming_nobody(tmp_path):
    """Round 43: torchrun's agent logs "Error waiting on exit barrier. Elapsed: N seconds" (its store barrier of every
    node's agent after its own workers ended) and no worker is shown failing: the other nodes' agents never checked in
    -- the launcher's own store barrier, store_rendezvous (lead rules R, Y), nobody named. Cut before its exception or
    with the store's "Socket Timeout" after the frames, the same; with a worker's failure record, that decides."""
    frames = ("Traceback (most recent call last):\n"
              '  File "/usr/lib/python3.11/site-packages/torch/distributed/elastic/agent/server/api.py", line 921, in '
              "_exit_barrier\n    store_util.barrier(\n"
              '  File "/usr/lib/python3.11/site-packages/torch/distributed/elastic/utils/store.py", line 81, in '
              "barrier\n")
    head = ("[2025-01-07 04:12:55,301] torch.distributed.elastic.agent.server.api: [ERROR] Error waiting on exit "
            "barrier. Elapsed: 603.1177 seconds\n")
    for tail in ("", "RuntimeError: Socket Timeout\n"):
        d = _report(tmp_path, head + frames + tail)
        v = d["verdict"]
        assert v["cause"] == "store_rendezvous" and not _accused(d), v
        assert "exit barrier" in v["summary"] and "603 s" in v["summary"], v
    failed = ("[2025-01-07 04:02:51,011] torch.distributed.elastic.multiprocessing.api: [ERROR] failed (exitcode: 1) "
              "local_rank: 2 (pid: 7731) of binary: /usr/bin/python3\n")
    d = _report(tmp_path, failed + head + frames)
    assert d["verdict"]["cause"] != "store_rendezvous", d["verdict"]


# round 47 (lead rule AE): one vLLM server launched with the V0 engine (VLLM_USE_V1=0) and --data-parallel-size N
# waits for N store clients that V0 never starts (V1 starts every DP rank from one launch): config, nobody named.
# Another DP size, TP size, wording (vllm serve, -dp), and the count short of it.
def test_a_vllm_v0_launch_with_data_parallel_cannot_fill_its_store(tmp_path):
    timed = ("ERROR 03-14 09:11:02 [engine.py:458] Timed out after {s} seconds waiting for clients. {j}/{n} clients "
             "joined.\n")
    for launch, dp, tp in (
            ("VLLM_USE_V1=0 python3 -m vllm.entrypoints.openai.api_server --model /m/q --port 8001 "
             "--tensor-parallel-size 2 --data-parallel-size 4\n", 4, 2),
            ("VLLM_USE_V1=0 CUDA_VISIBLE_DEVICES=0,1 vllm serve /models/llama -dp 2\n", 2, 1),
            ("export VLLM_USE_V1=0\nvllm serve /models/llama --port 9000 \\\n    --data-parallel-size 8\n", 8, 1)):
        for n in sorted({dp, dp * tp}):
            d = _report(tmp_path, launch + timed.format(s=601, j=1, n=n))
            v = d["verdict"]
            assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), (launch, n, v)
            assert "VLLM_USE_V1=1" in v["fix"] and "data-parallel-rank" in v["fix"], v["fix"]


def test_a_vllm_v0_launch_of_its_own_dp_rank_or_v1_stays_the_store(tmp_path):
    """Near shapes that keep rule R's store_rendezvous: a V0 launch of one DP rank of its own (the others launched
    apart), the V1 engine, and a store world that is not the DP world."""
    timed = ("ERROR 03-14 09:11:02 [engine.py:458] Timed out after 601 seconds waiting for clients. 1/{n} clients "
             "joined.\n")
    for launch, n in (
            ("VLLM_USE_V1=0 vllm serve /m --data-parallel-size 4 --data-parallel-rank 0\n", 4),
            ("VLLM_USE_V1=0 VLLM_DP_RANK=0 vllm serve /m --data-parallel-size 4\n", 4),
            ("VLLM_USE_V1=1 vllm serve /m --data-parallel-size 4\n", 4),
            ("VLLM_USE_V1=0 vllm serve /m --data-parallel-size 4\n", 3)):
        v = _verdict(tmp_path, launch + timed.format(n=n))
        assert v["cause"] == "store_rendezvous", (launch, v)


# --- round 48: a set-up topology error of the one worker torchrun's record names ------------------------------------
def _topo_internal(local: int, node: str, attr: str, record: bool) -> str:
    text = ("python -m torch.distributed.run --nproc_per_node 4 --master_port 57491 train.py\n"
            "    work = default_pg.broadcast([tensor], opts)\n"
            "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:"
            "1691, internal error - please report this issue to the NCCL developers, NCCL version 2.19.3\n"
            f"ncclInternalError: Internal check failed.\nLast error:\nAttribute {attr} of node {node} not found\n")
    if record:
        text += ("[2024-04-09 19:43:34,514] torch.distributed.elastic.multiprocessing.api: [ERROR] failed (exitcode: "
                 f"1) local_rank: {local} (pid: 269373{local}) of binary: /venv/bin/python\n")
    return text


def test_a_topology_internal_error_names_the_one_worker_torchruns_record_shows(tmp_path):
    """Lead rules A and AC (4): NCCL's set-up ncclInternalError (the topology XML missing an attribute) raised in a
    process, and torchrun's record naming exactly one failed worker on one node: that worker's rank
    (ultralytics-9919's shape)."""
    for local, attr, node in ((0, "busid", "nic"), (2, "arch", "cpu")):
        v = _verdict(tmp_path, _topo_internal(local, node, attr, record=True))
        assert v["cause"] == "nccl_internal" and v["culprits"] == [local], v


def test_a_topology_internal_error_without_a_launcher_record_names_nobody(tmp_path):
    """Negative: the same error with no launcher record: no process is shown failing alone, culprits []."""
    v = _verdict(tmp_path, _topo_internal(0, "nic", "busid", record=False))
    assert v["cause"] == "nccl_internal" and v["culprits"] == [], v


# --- round 49: an EOFError beside an ncclRemoteError with no 'Last error' line (lead rule O) -----------------------
_REMOTE = ("torch.distributed.DistBackendError: NCCL error in: /opt/pytorch/torch/csrc/distributed/c10d/"
           "NCCLUtils.cpp:{line}, remote process exited or there was a network error, NCCL version {ver}\n")


def _eof(rank: int, frame: str) -> str:
    return (f"[rank{rank}]: Traceback (most recent call last):\n[rank{rank}]:   File \"/opt/megatron-lm/megatron/core/"
            f"dist_checkpointing/{frame}\", line 425, in save\n[rank{rank}]:     raise EOFError\n"
            f"[rank{rank}]: EOFError\n")


def test_an_eoferror_beside_a_bare_remote_error_is_a_process_gone(tmp_path):
    """Megatron-Bridge-926: a checkpoint save ends in ncclRemoteError's either-or (no Last error) and a rank's
    EOFError -- a read found the other end closed: the 'remote process exited' half, early_exit, nobody named."""
    for text in (_REMOTE.format(line=77, ver="2.27.3") + _eof(2, "serialization.py"),
                 _eof(5, "strategies/filesystem_async.py") + _eof(1, "serialization.py")
                 + "> " + _REMOTE.format(line=104, ver="2.21.5")):
        d = _report(tmp_path, text)
        assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("early_exit", []) and not _accused(d), d
        assert "EOFError" in d["verdict"]["summary"]


def test_a_bare_remote_error_with_another_exception_stays_unknown(tmp_path):
    """The either-or with a rank's ValueError (no end-of-stream read) is not told apart: unknown, as before."""
    text = _REMOTE.format(line=77, ver="2.27.3") + "[rank3]: ValueError: bad shape\n"
    assert _verdict(tmp_path, text)["cause"] == "unknown"


# --- round 49: a NET/OFI error while the channels connect is the network's set-up (lead rules L, O, X (1)) ---------
def _ofi_warn(host: str, pid: int, dev: int, rc: int, err: int, what: str, stamp: str = "") -> str:
    return (f"{stamp}{host}:{pid}:{pid + 500} [{dev}] int cm_req_handle_error_entry(nccl_net_ofi_context_t*, fid_cq*, "
            f"fi_cq_err_entry*, uint16_t):46 NCCL WARN NET/OFI Request 0x7f00aa{dev}0 completed with error. RC: {rc}. "
            f"Error: {err} ({what} My EFA addr: fi_addr_efa://[fe80::1:2]:0:1234 My host id: i-0aa Peer EFA addr: "
            "fi_addr_efa://[fe80::3:4]:0:5678 Peer host id: N/A). Completed length: 0\n")


_HANDSHAKE = "Unresponsive receiver (reachable by EFA device but handshake failed)"


def _ofi_remote_error(rank: int, rc: int, err: int, what: str) -> str:
    return (f"[rank{rank}]: torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:3699, remote "
            "process exited or there was a network error, NCCL version 2.27.3\n"
            f"[rank{rank}]: ncclRemoteError: A call failed possibly due to a network error or a remote process exiting "
            "prematurely.\n"
            f"[rank{rank}]: Last error:\n"
            f"[rank{rank}]: NET/OFI Request 0x7f00bb completed with error. RC: {rc}. Error: {err} ({what} My EFA addr: "
            "fi_addr_efa://[fe80::1:2]:0:1 Peer host id: N/A). Completed length: 0\n")


def test_an_efa_handshake_failing_while_the_channels_connect_is_the_network_set_up(tmp_path):
    """aws-ofi-nccl's "completed with error ... (Unresponsive receiver (reachable by EFA device but handshake
    failed)" with NCCL's trail through transport.cc / transport/generic.cc (training-on-eks-a1): the two hosts never
    connected -- network_setup, nobody named, the rank that printed it innocent; not an IB-like completion error."""
    for host, pid, rank in (("train-node-3", 771, 5), ("gpu-b7", 4120, 12)):
        text = (nccl_info(host, pid, 0, f"Channel 00/0 : {rank}[0] -> {rank + 1}[0] [send] via NET/Libfabric/0/GDRDMA")
                + _ofi_warn(host, pid, 0, 103, 4126, _HANDSHAKE, stamp="[2026-03-04 01:02:03] ")
                + nccl_info(host, pid, 0, "transport/net.cc:753 -> 6", tid=pid + 500)
                + nccl_info(host, pid, 0, "transport.cc:198 -> 6", tid=pid + 2)
                + nccl_info(host, pid, 0, "transport/generic.cc:19 -> 6", tid=pid + 2)
                + nccl_info(host, pid, 0, "group.cc:146 -> 6", tid=pid + 2)
                + _ofi_remote_error(rank, 103, 4126, _HANDSHAKE))
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("network_setup", []), v
        assert "security group" in v["fix"] and "handshake" in v["summary"] and "nccl-tests" in v["fix"]
        assert rank not in _accused(d)


def test_an_ofi_error_in_the_connect_trail_alone_or_the_handshake_alone_is_the_set_up(tmp_path):
    # NCCL's connect trail with a completion that names no handshake (UNDELIVERABLE): still a connection being made
    trail = (nccl_info("n5", 300, 2, "transport/net.cc:800 -> 6", tid=310)
             + nccl_info("n5", 300, 2, "transport.cc:183 -> 6", tid=311)
             + _ofi_remote_error(7, 113, 2, "UNDELIVERABLE)."))
    assert _verdict(tmp_path, trail)["cause"] == "network_setup"
    # the provider's handshake words with no trail pasted (the torch exception's Last error only)
    alone = _ofi_remote_error(2, 103, 4126, _HANDSHAKE)
    v = _verdict(tmp_path, alone)
    assert (v["cause"], v["culprits"]) == ("network_setup", []), v


def test_an_ofi_error_of_a_running_transfer_stays_the_fabric(tmp_path):
    """The near shape that must not change: a completion error with no connect trail and no handshake words (a
    transfer under a running collective, as nccl-1928), or EFA's "(connection previously established)": ib_fabric."""
    running = (nccl_info("n5", 300, 2, "transport/net.cc:1200 -> 6", tid=310)
               + nccl_info("n5", 300, 2, "proxy.cc:1510 -> 6", tid=310)
               + _ofi_remote_error(3, 113, 2, "UNDELIVERABLE)."))
    assert _verdict(tmp_path, running)["cause"] == "ib_fabric"
    lost = _ofi_remote_error(6, 103, 4125, "Unresponsive receiver (connection previously established)")
    assert _verdict(tmp_path, lost)["cause"] == "ib_fabric"


def _nccl_tests_failure(host: str, at: str = "common.cu:345", what: str = "unhandled system error") -> str:
    return (f"{host}: Test NCCL failure {at} '{what}'\n"
            + "".join(f" .. {host}: Test failure {f}\n" for f in ("common.cu:393", "common.cu:492",
                                                                     "all_reduce.cu:103")))


_MPIRUN_FIRST = ("--------------------------------------------------------------------------\n"
                 "mpirun detected that one or more processes exited with non-zero status, thus causing\n"
                 "the job to be terminated. The first process to do so was:\n\n"
                 "  Process name: [[{job},1],{rank}]\n  Exit code:    3\n"
                 "--------------------------------------------------------------------------\n")


def test_the_same_system_error_on_several_hosts_names_nobody_over_mpiruns_first_process(tmp_path):
    """nccl-tests-36: both hosts' all_reduce_perf print the same 'unhandled system error'; mpirun's 'first process'
    names one of them, but every process shown failed alike on its own (rule J, not rule A): nccl_system, nobody."""
    for hosts, rank, job, prefix in ((("pkb-aa8dbd1b-1", "pkb-aa8dbd1b-0"), 1, 6918, ""),
                                     (("gpu-node-07", "gpu-node-12", "gpu-node-03"), 2, 411, "[default0]:"),
                                     (("a100x8.cluster.local", "a100x9.cluster.local"), 0, 77, "trainer-1  | ")):
        text = "".join(prefix + line for h in hosts for line in _nccl_tests_failure(h).splitlines(keepends=True))
        text += _MPIRUN_FIRST.format(job=job, rank=rank)
        v = _verdict(tmp_path, text)
        assert v["cause"] == "nccl_system", v
        assert v["culprits"] == [], v


def test_the_system_error_on_one_host_alone_still_names_mpiruns_first_process(tmp_path):
    """The near shape: one host alone prints the error (the other shows nothing of its own): mpirun's first
    process is the lone failure (rule A)."""
    for host, rank in (("pkb-aa8dbd1b-1", 1), ("gpu-node-12", 3)):
        text = _nccl_tests_failure(host) + _MPIRUN_FIRST.format(job=6918, rank=rank)
        v = _verdict(tmp_path, text)
        assert v["cause"] == "nccl_system", v
        assert v["culprits"] == [rank], v


def test_the_same_untagged_system_error_raised_twice_names_nobody_over_torchruns_record(tmp_path):
    """albef-123: two processes' tracebacks end in the same 'RuntimeError: NCCL error ... unhandled system error'
    (no rank tag: the shared output of torchrun's workers) and torchrun records local_rank 0: Python prints a
    process's uncaught exception once, so two such lines are two processes failing alike (rules J, AM (2)):
    nccl_system, nobody. The near shape, the line once: torchrun's record names the rank (rule A)."""
    err = ("RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1169, unhandled system "
           "error, NCCL version 21.0.3\nncclSystemError: System call (socket, malloc, munmap, etc) failed.\n")
    rec = ("ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 8304) of "
           "binary: /usr/local/bin/python\n")
    v = _verdict(tmp_path, err + "    work = default_pg.barrier(opts=opts)\n" + err + rec)
    assert (v["cause"], v["culprits"]) == ("nccl_system", []), v
    v = _verdict(tmp_path, "    work = default_pg.barrier(opts=opts)\n" + err + rec)
    assert (v["cause"], v["culprits"]) == ("nccl_system", [0]), v
    # a collector's clock or a launcher's tag on every line is no other process
    for pre in ("2024-05-01T12:00:00.123456789Z ", "> ", "(RayWorkerWrapper pid=5304, ip=10.0.0.1) "):
        text = "".join(pre + x + "\n" for x in (err + err + rec).splitlines())
        v = _verdict(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("nccl_system", []), (pre, v)


def _rpc_pair(me: int, world: int, addr: str, flags: str = "--world_size={w} --rank={r}", prompt: str = "$ ") -> str:
    """A process's launch line (its --rank in the --world_size it is told), its set-up chatter, then gloo's read
    reset from its peer's address while it runs (ProcessGroupAgent's listenLoop, RPC over gloo)."""
    return (prompt + "python rpc_parameter_server.py " + flags.format(w=world, r=me) + "\n"
            "PS master initializing RPC\nRPC initialized! Running parameter server...\n"
            "[E process_group_agent.cpp:664] Encountered exception in ProcessGroupAgent::listenLoop(): "
            "[/build/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:566] Read error "
            f"[{addr}]:28296: Connection reset by peer on worker {me}. This means that the RPC agent is in an "
            "unhealthy state and unusable.\n")


def test_a_reset_from_the_only_peer_of_a_world_of_two_names_that_peer(tmp_path):
    """Round 53 (lead rules O, U (4), AO; pytorch/examples#772, pytorch#45338): a world of exactly two shown by the
    launch line above the reset (--rank R --world_size 2): the rank whose connection is reset after set-up has one
    peer only, so that peer went away (early_exit) and the rank printing it is its victim. Ranks, flags' spelling,
    addresses and prompts varied; hosts and ports made up."""
    for me, flags, addr, prompt in ((0, "--world_size={w} --rank={r}", "192.168.9.4", "$ "),
                                    (1, "--rank {r} --world-size {w} --num_gpus 4", "10.2.0.17", "(env) u@h:~$ "),
                                    (0, "--world_size {w} --rank {r} --master_addr 172.31.6.1", "172.31.8.254", "")):
        d = _report(tmp_path, _rpc_pair(me, 2, addr, flags, prompt))
        v = d["verdict"]
        assert v["cause"] == "early_exit" and _accused(d) == {1 - me}, (me, v)
        assert f"rank {1 - me}" in v["fix"], v["fix"]
    # the peer's own launch line below the reset (the second machine's paste) does not change whose line it is
    two = _rpc_pair(0, 2, "172.31.78.254", "--world_size 2 --rank 0") + (
        "$ python rpc_parameter_server.py --world_size 2 --rank 1\nWorker rank 1 initializing RPC\n")
    assert _accused(_report(tmp_path, two)) == {1}


def test_a_reset_in_a_bigger_or_unknown_world_or_from_both_ends_names_nobody(tmp_path):
    """The near shapes of the world-of-two reading: a world of three or more (any peer may have gone), no launch line
    (world unknown), and both ranks of a pair reporting the reset (no one end is the one that left): early_exit with
    nobody named, as before."""
    for log in (_rpc_pair(0, 3, "192.168.9.4"), _rpc_pair(2, 8, "10.0.0.5", "--rank {r} --world-size {w}"),
                _rpc_pair(0, 2, "192.168.9.4").split("\n", 1)[1],
                _rpc_pair(0, 2, "10.0.0.2") + _rpc_pair(1, 2, "10.0.0.1")):
        d = _report(tmp_path, log)
        assert d["verdict"]["cause"] == "early_exit" and _accused(d) == set(), (log, d["verdict"])


# one process on a desktop (WSL) driving its GPUs over loopback, and NCCL's topology detection failing on every device
# alike: realpath() of the GPU's /sys/class/pci_bus path fails and graph/xml.cc returns 2 (ncclSystemError) up
# through topo.cc and init.cc (round 53's humannerf-87): the host's sysfs, nccl_system, nobody named (rule J); the
# loopback interface, right for one machine, explains none of it
def _topo_sysfs_run(host: str, pid: int, devs: tuple[int, ...], bus: str, iface: str = "lo:127.0.0.1") -> str:
    lines = [f"{host}:{pid}:{pid} [0] NCCL INFO Bootstrap : Using [0]{iface}<0>\n",
             f"{host}:{pid}:{pid} [0] NCCL INFO NET/Socket : Using [0]{iface}<0>\n",
             f"{host}:{pid}:{pid} [0] NCCL INFO Using network Socket\n", "NCCL version 2.7.8+cuda10.2\n"]
    for i, d in enumerate(devs):
        t = f"{host}:{pid}:{pid + 120 + i} [{d}]"
        lines += [f"{t} graph/xml.cc:332 NCCL WARN Could not find real path of /sys/class/pci_bus/0000:{bus}/../../"
                  f"0000:{bus}:00.0\n"]
        lines += [f"{t} NCCL INFO {f} -> 2\n" for f in ("graph/xml.cc:469", "graph/xml.cc:660", "graph/topo.cc:523",
                                                        "init.cc:581", "init.cc:840")]
    return "".join(lines)


def test_topology_detection_failing_on_sysfs_over_loopback_is_the_hosts_sysfs(tmp_path):
    for host, pid, devs, bus in (("DESKTOP-KQ38CGS", 1582, (0, 1), "01"), ("WIN-BOX7", 40211, (0, 1, 2, 3), "2b"),
                                 ("wsl-host", 77, (1,), "81")):
        d = _report(tmp_path, _topo_sysfs_run(host, pid, devs, bus))
        v = d["verdict"]
        assert v["cause"] == "nccl_system" and v["culprits"] == [] and not _accused(d), (host, v)
        assert "/sys" in v["fix"] and "WSL" in v["fix"], v


def test_loopback_with_a_connection_failing_at_set_up_stays_the_network(tmp_path):
    # near shape: the loopback interface and a connection refused at set-up, no topology failure: network_setup
    text = ("nodeA:100:100 [0] NCCL INFO Bootstrap : Using [0]lo:127.0.0.1<0>\n"
            "nodeA:100:100 [0] NCCL INFO NET/Socket : Using [0]lo:127.0.0.1<0>\n"
            "nodeA:100:180 [0] misc/socket.cc:456 NCCL WARN Net : Connect to 127.0.0.1<41234> failed : Connection "
            "refused\n"
            "nodeA:100:180 [0] NCCL INFO bootstrap.cc:95 -> 2\n"
            "nodeA:100:180 [0] NCCL INFO init.cc:679 -> 2\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "network_setup", v


# --- session 18 (fix54 F4): connections set up outside the c10d store; gloo's established pair timing out (rule AQ) --
def test_gloo_reads_timing_out_on_an_established_pair_mid_run_are_a_transport_stall(tmp_path):
    """Lead rule AQ (2): gloo's pair.cc "Read error [peer]:port: Connection timed out" (or a write's) on a pair
    connected long before, on several ranks inside one collective: the kernel gave up on the connection (ETIMEDOUT),
    the peer neither closed nor reset it -- transport_stall, nobody named, the printing ranks innocent. Addresses,
    ports and line numbers made up."""
    pair = "RuntimeError: [/opt/torch/third_party/gloo/gloo/transport/tcp/pair.cc:{}] {} error [10.3.1.12]:{}: " \
        "Connection timed out\n"
    log = ("[rank2]: Traceback (most recent call last):\n"
           '[rank2]:   File "/opt/torch/distributed/distributed_c10d.py", line 2417, in all_reduce\n'
           "[rank2]:     work.wait()\n"
           "[rank2]: " + pair.format(534, "Read", 45873)
           + "[rank3]: " + pair.format(534, "Read", 40561) + "[rank5]: " + pair.format(598, "Write", 39002))
    d = _report(tmp_path, log)
    v = d["verdict"]
    assert v["cause"] == "transport_stall" and v["culprits"] == [] and _accused(d) == set(), v
    assert "GLOO_SOCKET_IFNAME" in v["fix"] and "MTU" in v["fix"], v["fix"]
    # near shapes: a peer that reset the pair is a peer gone (rule U (4)); the same timeout inside the set-up call
    # is a connection that never worked (rule L)
    gone = log.replace("Connection timed out", "Connection reset by peer")
    assert _verdict(tmp_path, gone)["cause"] == "early_exit"
    setup = ("[rank2]: Traceback (most recent call last):\n"
             '[rank2]:   File "/opt/torch/distributed/distributed_c10d.py", line 1510, in init_process_group\n'
             "[rank2]: " + pair.format(534, "Read", 45873))
    assert _verdict(tmp_path, setup)["cause"] == "network_setup"


def test_a_frameworks_own_rpc_server_failing_to_bind_is_the_network_set_up(tmp_path):
    """Lead rule AQ (3): a framework's own RPC transport (DistDGL's rpc/network/tcp_socket.cc) failing to bind its
    server socket at start-up -- not the c10d store: network_setup, nobody named; the fix says the port is taken or
    the address is not this host's. Addresses and ports made up."""
    log = ("Warning! Interface: ens8f1\nIP address not available for interface.\n"
           "[09:12:44] /workspace/dgl/src/rpc/network/tcp_socket.cc:81: Failed bind on 192.168.10.4:30050 , "
           "error: Address already in use\n")
    d = _report(tmp_path, log)
    v = d["verdict"]
    assert v["cause"] == "network_setup" and v["culprits"] == [] and _accused(d) == set(), v
    assert "192.168.10.4:30050" in v["fix"] and "ss -ltnp" in v["fix"], v["fix"]


def test_every_trainer_giving_up_on_the_frameworks_own_server_is_the_network_set_up(tmp_path):
    """rldecisionagent-areal: four trainers' tracebacks end in AReaL's _wait_for_server 'RuntimeError: server launch
    failed' (the framework's rollout server never answered at start-up) and torchrun records local_rank 1 first:
    every trainer failed alike waiting on the framework's own service (rules AQ (3), AX (3)): network_setup, nobody,
    the recorded rank innocent. The near shape: the same tracebacks ending in an exception of the job's own code
    are not the service."""
    def run(exc: str) -> str:
        tb = ("Traceback (most recent call last):\n  File \"/w/areal/engine/sglang_remote.py\", line 80, in "
              "initialize\n    self._wait_for_server(addr_)\n" + exc + "\n")
        return (tb * 4 + "W0813 22:08:39.776000 2585 torch/distributed/elastic/multiprocessing/api.py:898] Sending "
                "process 2711 closing signal SIGTERM\nE0813 22:08:39.893000 2585 torch/distributed/elastic/"
                "multiprocessing/api.py:870] failed (exitcode: 1) local_rank: 1 (pid: 2712) of binary: "
                "/usr/bin/python\n")
    d = _report(tmp_path, run('RuntimeError: server launch failed'))
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("network_setup", []), d["verdict"]
    assert _accused(d) == set(), d["verdict"]  # the rank torchrun recorded is not named at any confidence
    assert d["verdict"]["summary"].startswith("4 processes raised 'RuntimeError: server launch failed' alike")
    assert "Read the server's own log" in d["verdict"]["fix"] and "health endpoint" in d["verdict"]["fix"]
    d = _report(tmp_path, run("KeyError: 'reward_fn'"), "own.log")
    assert d["verdict"]["cause"] != "network_setup", d["verdict"]
    # a process's end recorded before the trainers gave up (the server's OOM kill) came first: not the wait's
    kill = ("E0813 22:08:30.000000 2585 torch/distributed/elastic/multiprocessing/api.py:870] failed (exitcode: -9) "
            "local_rank: 0 (pid: 2711) of binary: /usr/bin/python\n")
    d = _report(tmp_path, kill + run('RuntimeError: server launch failed'), "killed.log")
    assert d["verdict"]["cause"] != "network_setup", d["verdict"]


def test_torch_rpcs_start_up_gather_timing_out_with_every_worker_alive_is_the_network_set_up(tmp_path):
    """Lead rule AQ (3): torch RPC's _all_gather of every worker (init_rpc's start-up, a framework's barrier over it)
    timing out with nothing else failing: the RPC agent's own connections at start-up -- network_setup, nobody named,
    the leader that reports it a victim; the fix names the RPC timeout and the interface. The same gather of
    rpc.shutdown ('Shutdown Proceed') is the exit's, not the set-up's. Worker names and times made up."""
    gather = ("Followers ['trainer-2', 'trainer-5'] timed out in _all_gather after 30.00 seconds. The first "
              "exception is RPCErr:1:RPC ran for more than set timeout (30000 ms) and will now be marked with an error")
    log = ("[trainer-0] starting RPC agent ...\n[trainer-2] starting RPC agent ...\n"
           f"ERROR:root:Failed to respond to 'startup_sync' in time, got error {gather}\n"
           "[trainer-5] starting RPC agent ...\n")
    d = _report(tmp_path, log)
    v = d["verdict"]
    assert v["cause"] == "network_setup" and v["culprits"] == [] and _accused(d) == set(), v
    assert "rpc_timeout" in v["fix"] and "TP_SOCKET_IFNAME" in v["fix"], v["fix"]
    assert _verdict(tmp_path, f"RuntimeError: {gather}\n")["cause"] == "network_setup"
    exit_gather = f"ERROR:root:Failed to respond to 'Shutdown Proceed' in time, got error {gather}\n"
    assert _verdict(tmp_path, exit_gather)["cause"] != "network_setup"


def test_accelerate_refusing_a_rendezvous_port_already_in_use_is_the_stores_port(tmp_path):
    """Lead rule AN (2): accelerate launch's own check that its main_process_port (the port torchrun's store binds)
    is free, refusing before any worker starts: the store's port taken -- store_rendezvous, nobody named; the fix
    names accelerate's flag. The port made up; the message in accelerate's own backquoted wording."""
    log = ("Traceback (most recent call last):\n"
           '  File "/opt/conda/lib/python3.10/site-packages/accelerate/commands/launch.py", line 1057, in '
           "multi_gpu_launcher\n"
           "ConnectionError: Tried to launch distributed communication on port `29517`, but another process is "
           "utilizing it. Please specify a different port (such as using the `--main_process_port` flag or "
           "specifying a different `main_process_port` in your config file) and rerun your script. To automatically "
           "use the next open port (on a single node), you can set this to `0`.\n")
    d = _report(tmp_path, log)
    v = d["verdict"]
    assert v["cause"] == "store_rendezvous" and v["culprits"] == [] and _accused(d) == set(), v
    assert "--main_process_port" in v["fix"] and "29517" in v["summary"], v


# --- round 56: a collective library's bootstrap root that no rank reached is the network set-up (rules L, AD (1)) ---
# HCCL's EI0015 under hcclCommInitRootInfoConfig names the ranks that never connected to the root node: a run of
# consecutive ranks is a whole node's -- launch or network, no rank (round 56's vllm-ascend-pr7742)
def _root_unreached(ranks: str) -> str:
    return ("RuntimeError: create_config:../torch_npu/csrc/distributed/HCCLUtils.cpp:140 HCCL function error: "
            "hcclCommInitRootInfoConfig(numRanks, &rootInfo, rank, config, &(comm->hcclComm_)), error code is 1\n"
            "[ERROR] 2025-11-02-08:01:44 (PID:7310, Device:0, RankID:-1) ERR02200 DIST call hccl api failed.\n"
            "[PID: 7310] 2025-11-02-08:01:44.118.020 Communication_Error_Ranktable_Detect(EI0015): Failed to collect "
            "cluster information of the communicator based on rootInfo detection. Reason: No rank in the "
            "communicator can connect to the root node within the timeout period. List of unconnected ranks: "
            f'"[{ranks}]".\n')


def test_hccls_root_node_unreached_by_a_whole_node_is_network_setup(tmp_path):
    d = _report(tmp_path, _root_unreached("8,9,10,11,12,13,14,15,"))
    v = d["verdict"]
    assert v["cause"] == "network_setup" and not _accused(d), v
    assert "ranks 8-15" in v["summary"], v["summary"]
    assert "HCCL_IF_IP" in v["fix"] and "HCCL_CONNECT_TIMEOUT" in v["fix"], v["fix"]


def test_hccls_init_error_without_the_root_detection_names_no_unreached_ranks(tmp_path):
    # near shape: the init call's error code alone does not say which ranks never reached the root. Round 82's
    # adjudication (vllm-ascend-2712) reads hcclCommInitRootInfoConfig failing with a bare number as rule AZ (2)'s
    # root-info exchange, network_setup with no rank (it was "not network_setup" here before rule AZ, round 56)
    text = "".join(ln for ln in _root_unreached("3,").splitlines(keepends=True) if "EI0015" not in ln)
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("network_setup", []) and not _accused(d), v
    assert "unconnected" not in v["summary"] and "rank 3" not in v["summary"], v["summary"]


# --- round 60: a collective library's own rank-to-rank link not made at set-up is network set-up (rules L, X (1)) ---
# HCCL's EI0009 "Transport init error ... createLink ... dst_rank[N]" from one rank: the connection to its peer could
# not be created, the reporting rank only found that peer not answering (round 60's vllm-ascend-3162)
def _link_unmade(dst: int) -> str:
    return (f"[rank3]: EI0009: [PID: 90211] 2025-10-02-11:04:17.502.310 Transport init error. Reason: "
            f"[Create][DestLink]Create Dest error! createLink para:rank[3]-localUserrank[3]-localIpAddr[10.20.1.7], "
            f"dst_rank[{dst}]-remoteUserrank[{dst}]-remote_ip_addr[10.20.1.8]\n"
            "[rank3]:         Solution: Check other NPUs that are not reporting errors, or check if there are any "
            "abnormalities on the other end's NPU.\n"
            "(EngineCore_DP0 pid=90102) ERROR 10-02 11:04:25 [core.py:790] Invocation of collective_rpc method "
            "failed\n")


def test_hccls_link_to_a_peer_not_created_at_set_up_is_network_setup(tmp_path):
    d = _report(tmp_path, _link_unmade(2))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("network_setup", []) and not _accused(d), v
    assert "peer rank 2" in v["summary"] and "HCCL_CONNECT_TIMEOUT" in v["fix"] and "hccn_tool" in v["fix"], v


def test_hccls_link_failure_beside_a_ranks_own_device_error_is_that_error(tmp_path):
    # near shape: a rank's own NPU runtime error shown beside it is read first (the link then only follows from it)
    text = _link_unmade(2) + ("[rank2]: [E1002 11:04:16] Find exception when finishedNPUExecutionInternal, query: "
                              "NPU function error: acl::AclQueryEventRecordedStatus(event_, &currStatus), error code "
                              "is 507015\n")
    assert _verdict(tmp_path, text)["cause"] == "cuda_error"


def test_a_workers_serving_loop_reporting_a_remote_error_is_a_peer_gone_mid_run(tmp_path):
    """Lead rule O: a worker's own loop logging the NCCL error it caught while running its tasks ('Worker encountered
    error NCCL error in: ..., remote process exited or there was a network error') places the remote error in a
    running job: a peer that went away (early_exit), culprits unknown; an actor's name is no rank tag."""
    text = ("RuntimeError: Fail to interrupt workers, timeout=30.\n"
            "(train_worker/3 pid=41877) 20250611-02:13:09.118 worker ERROR: Worker encountered error NCCL error in: "
            "/opt/pytorch/torch/csrc/distributed/c10d/NCCLUtils.hpp:268, remote process exited or there was a "
            "network error, NCCL version 2.21.5\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("early_exit", []) and not _accused(d), v


def test_a_runtime_error_in_nccls_own_system_error_words_is_nccl_system(tmp_path):
    """A library's NCCL check that raises NCCL's error string after a bare 'Runtime error: ' (the failed NCCL call
    on the next line) is that NCCL result: 'unhandled system error' is ncclSystemError, no rank named; a generic
    'internal error' in those words is not read as NCCL's."""
    text = ("Traceback (most recent call last):\n"
            '  File "train.py", line 31, in <module>\n'
            "    model = lib.Model(solver, reader, optimizer)\n"
            "RuntimeError: Runtime error: unhandled system error\n"
            "        ncclGroupEnd() at ResourceManager(/src/resource_manager.cpp:203)\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("nccl_system", []) and not _accused(d), v
    assert "--shm-size" in v["fix"], v
    generic = "RuntimeError: Runtime error: internal error\n"
    assert _verdict(tmp_path, generic)["cause"] != "nccl_internal"


def test_invalid_usage_fix_names_a_consistent_multi_node_launch(tmp_path):
    """ncclInvalidUsage with no reason shown: the fix names the launch every node shares (the same world size and
    GPUs per node, the same NCCL version on all nodes), not a rank."""
    text = ("[TRT-LLM] [E] Executor worker returned error: Failed, NCCL error /src/cpp/tensorrt_llm/thop/allreduceOp."
            "cpp:210 'invalid usage (run with NCCL_DEBUG=WARN for details)'\n")
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("invalid_usage", []), v
    assert "same NCCL version on all nodes" in v["fix"], v


# --- session 19 (round 57): a reset inside a collective in a spawned world of two names the other child (rule AT (2))
def test_a_broken_pipe_in_a_spawned_world_of_two_names_the_other_process(tmp_path):
    """torch.multiprocessing.spawn(nprocs=2) from the script itself (no torchrun agent): spawn's "Process N" is rank N
    on its one machine, and rank 0's own process hosts the store. A child whose own error is a c10d "Broken pipe" in
    its collective wrote to a socket its only peer had closed: the other child left first (early_exit, culprit the
    other index), the reporting child a victim. With four children, or nprocs not shown, nobody is named."""
    def paste(nprocs: str, idx: int) -> str:
        return ("Traceback (most recent call last):\n"
                '  File "train_pair.py", line 88, in <module>\n'
                f"    mp.spawn(worker, args=(cfg,), nprocs={nprocs}, join=True)\n"
                '  File "/usr/lib/python3.9/site-packages/torch/multiprocessing/spawn.py", line 118, in join\n'
                "    raise Exception(msg)\n"
                "Exception:\n\n"
                f"-- Process {idx} terminated with the following error:\n"
                "Traceback (most recent call last):\n"
                '  File "/usr/lib/python3.9/site-packages/torch/multiprocessing/spawn.py", line 19, in _wrap\n'
                "    fn(i, *args)\n"
                '  File "/srv/train_pair.py", line 41, in worker\n'
                "    dist.all_reduce(flag)\n"
                "RuntimeError: Broken pipe\n")
    for idx, peer in ((1, 0), (0, 1)):
        d = _report(tmp_path, paste("2", idx), f"pair{idx}.log")
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("early_exit", [peer]) and idx not in _accused(d), (idx, v)
        assert "destroy_process_group before exit" in v["fix"], v["fix"]
    assert "TCPStore" in _verdict(tmp_path, paste("2", 1), "host.log")["fix"]
    for other in ("4", "args.gpus"):
        d = _report(tmp_path, paste(other, 1), "wider.log")
        assert d["verdict"]["cause"] == "early_exit" and d["verdict"]["culprits"] == [] and not _accused(d), d


# --- session 19 (round 57): the rank a store read waits for is the main rank: what to look at on it ----------------
def test_a_poll_failure_in_a_main_process_first_barrier_says_to_look_at_rank_0(tmp_path):
    """Rule Y: ranks 2 and 5 fail in c10d's store read ("While waitForInput, poolFD failed") while their traceback
    waits in main_process_first's barrier: rank_missing, nobody named, the waiting ranks victims; the fix names what
    shows the rank they wait for (a py-spy dump of rank 0, whether the main rank is still alive)."""
    text = "".join(f"[rank{r}]:[W0214 08:11:52.10000000 socket.cpp:428] [c10d] While waitForInput, poolFD failed "
                   "with (errno: 0 - Success).\n" for r in (5, 2))
    text += ("[rank5]: Traceback (most recent call last):\n"
             "[rank5]:   File \"/home/u/lib/site-packages/transformers/training_args.py\", line 2390, in "
             "main_process_first\n[rank5]:     dist.barrier()\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("rank_missing", []) and not _accused(d), v
    assert "py-spy dump of rank 0" in v["fix"] and "check the main rank is still alive" in v["fix"], v["fix"]


# --- a library's own failed CHECK (glog) before its abort: the check's words, not the bare signal (round 57) -------
def test_a_failed_check_on_a_plugins_listen_bind_before_its_abort_is_the_connection_set_up(tmp_path):
    """Lead rules L and AQ (3): a net plugin's glog CHECK on bind() of its listen socket, then Open MPI's handler
    reporting the abort: the abort is the check's own, so its words decide -- network_setup, no rank."""
    log = ("WARNING: Logging before InitGoogleLogging() is written to STDERR\n"
           "F0304 10:21:07.118230 40213 transport.h:88] Check failed: bind(sock_fd, (struct sockaddr*)&addr, "
           "sizeof(addr)) >= 0 ERROR: binding\n"
           "*** Check failure stack trace: ***\n"
           "[gpu-node-3:40190] *** Process received signal ***\n"
           "[gpu-node-3:40190] Signal: Aborted (6)\n"
           "[gpu-node-3:40190] Signal code:  (-6)\n"
           "[gpu-node-3:40190] [ 0] /lib/x86_64-linux-gnu/libc.so.6(+0x42520)[0x7f01a2a42520]\n")
    d = _report(tmp_path, log)
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("network_setup", []), d["verdict"]
    assert "--network=host" in d["verdict"]["fix"] and _accused(d) == set()


def test_a_failed_check_reading_a_roce_gids_version_is_the_fabric(tmp_path):
    """Rule J's GID/port failures at set-up: an RDMA plugin's CHECK that the RoCE version of its candidate GID index
    can be read (EINVAL from the port's gid_attrs) aborts it before any connection: ib_fabric, no rank."""
    log = ("I0911 08:02:41.300117   977 rdma_io.cc:52] UCCL_IB_HCA: mlx5_2:1\n"
           "W0911 08:02:41.310402   977 util_rdma.h:547] NET/IB: read failed in ncclIbRoceGetVersionNum: Invalid "
           "argument\n"
           "F0911 08:02:41.310431   977 util_rdma.h:592] Check failed: ncclIbRoceGetVersionNum(dev, port, gidIdx, "
           "&ver)\n"
           "*** Check failure stack trace: ***\n")
    d = _report(tmp_path, log)
    assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("ib_fabric", []), d["verdict"]
    assert "GID index" in d["verdict"]["fix"] and _accused(d) == set()


def test_ucx_that_cannot_open_its_transports_at_start_up_is_its_install(tmp_path):
    """Round 64 (rule AF (2)): UCX inside a KV-transfer engine (NIXL) failing to open its own transports when its
    worker starts -- "Async mode mismatch", "uct_iface_open(tcp/eth1) failed: Invalid parameter" after its WARN that
    the CUDA transports asked for are not available -- in every process alike is the UCX install they share (config,
    nobody named), its fix the UCX build and which libucx is loaded. A UCX line saying a peer refused the connection
    is no install's fault (network_setup stays)."""
    log = ("[1700000000.100001] [gpu-9:2201 :0]     ucp_context.c:1321 UCX  WARN  transports 'cuda_ipc' are not "
           "available, please use one or more of: posix, self, sysv, tcp\n"
           "[1700000000.200001] [gpu-9:2201 :0]           async.c:457  UCX  ERROR Async mode mismatch for handler "
           "???(), mode: 0 async context mode: 1\n"
           "[1700000000.200002] [gpu-9:2202 :0]      ucp_worker.c:1412 UCX  ERROR uct_iface_open(tcp/eth1) failed: "
           "Invalid parameter\n"
           "E1114 08:06:22.819292    2201 backend_plugin.h:97] Failed to create engine:\n")
    v = _verdict(tmp_path, log)
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "ucx_info" in v["fix"] and "LD_LIBRARY_PATH" in v["fix"], v
    near = ("[1700000000.200002] [gpu-9:2202 :0]       sock.c:325  UCX  ERROR connect(fd=41, dest_addr=10.0.0.5:41000) "
            "failed: Connection refused\n")
    v = _verdict(tmp_path, near)
    assert v["cause"] == "network_setup" and "ucx_info" not in v["fix"], v


def test_a_failed_check_with_no_general_words_leaves_the_abort_unknown(tmp_path):
    """A glog CHECK whose words say nothing general (an internal invariant) does not explain the abort: the native
    crash stays unknown, naming nobody."""
    log = ("F0304 10:21:07.118230 40213 queue.h:41] Check failed: head_ != tail_\n"
           "*** Check failure stack trace: ***\n"
           "[gpu-node-3:40190] *** Process received signal ***\n"
           "[gpu-node-3:40190] Signal: Aborted (6)\n")
    d = _report(tmp_path, log)
    assert d["verdict"]["cause"] == "unknown" and _accused(d) == set(), d["verdict"]


# --- session 21 (round 60): torch.distributed.launch of an agent-less torch: rank 0's process hosts the store (AW) ---
def test_broken_pipes_under_an_agentless_distributed_launch_name_rank_0(tmp_path):
    """Lead rule AW: torch <= 1.8 (a "work = _default_pg.<op>(...)" frame of its own distributed_c10d.py) started by
    torch.distributed.launch on one node runs no elastic agent: rank 0's own process hosts the TCPStore, so untagged
    bare "Broken pipe"s from the other processes' collectives are rank 0 going away (early_exit, culprit 0) and the
    N-1 failing processes are ranks 1..N-1. With torchrun, several nodes, or no torch-version frame, nobody is named;
    a Broken pipe in DDP's constructor broadcast says every process must construct DDP."""
    def paste(cmd: str, frame: str = "    work = _default_pg.all_reduce([tensor], opts)\n") -> str:
        return (f"$ CUDA_VISIBLE_DEVICES=0,1,2 {cmd} --nproc_per_node=3 main.py --epochs 90\n"
                "RuntimeError: Broken pipe\n" + frame + frame + "RuntimeError: Broken pipe\n")
    d = _report(tmp_path, paste("python -m torch.distributed.launch"), "launch.log")
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("early_exit", [0]) and _accused(d) <= {0}, v
    assert "rank 0 log" in v["fix"] and "ranks 1-2" in v["summary"], v
    for other in (paste("torchrun"), paste("python -m torch.distributed.launch --nnodes=2"),
                  paste("python -m torch.distributed.launch", frame="    dist.all_reduce(tensor)\n")):
        d = _report(tmp_path, other, "other.log")
        assert d["verdict"]["cause"] == "early_exit" and d["verdict"]["culprits"] == [] and not _accused(d), d
    ddp = ('  File "/opt/venv/lib/python3.7/site-packages/torch/nn/parallel/distributed.py", line 471, in '
           "_distributed_broadcast_coalesced\n"
           "    dist._broadcast_coalesced(self.process_group, tensors, buffer_size)\n"
           "RuntimeError: Broken pipe\n")
    v = _verdict(tmp_path, ddp, "ddp.log")
    assert (v["cause"], v["culprits"]) == ("early_exit", []) and "every process must construct DDP" in v["fix"], v


def test_oneccl_failing_a_system_call_of_its_own_is_nccl_system_naming_no_rank(tmp_path):
    """Round 62: oneCCL raising on a system call it made (its errno in the exception: the Level Zero IPC opening the
    GPUs' render devices in its ze fd manager) during the first all_reduce of an XPU worker: oneCCL's counterpart of
    an ncclSystemError, the host's set-up (rules J, AC (4)) -- nccl_system, nobody accused, the fix the device files.
    Another call's errno under its CCL_ERROR header reads the same, with the general fix."""
    tb = ('  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 2806, in '
          "all_reduce\n    work = group.allreduce([tensor], opts)\n")
    d = _report(tmp_path, tb + "RuntimeError: oneCCL: ze_fd_manager.cpp:187 init_device_fds: EXCEPTION: opendir "
                "failed: could not open device directory, errno: Permission denied\n")
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("nccl_system", []) and not _accused(d), v
    assert "/dev/dri" in v["fix"] and "CCL_ZE_IPC_EXCHANGE=sockets" in v["fix"], v["fix"]
    v = _verdict(tmp_path, "2025:03:02-10:11:12:(5120) |CCL_ERROR| shm_helper.cpp:77 create_segment: shm_open failed, "
                 "errno: No space left on device\n")
    assert (v["cause"], v["culprits"]) == ("nccl_system", []), v
    assert "/dev/dri" not in v["fix"] and "/dev/shm" in v["fix"], v["fix"]


def test_oneccl_errno_of_a_connection_is_not_read_as_its_system_call(tmp_path):
    """The near shape: oneCCL's errno of a connection it made ("connect failed ... errno: Connection refused") is a
    peer not reached, the network's or the store's reading, never the host's own system call (nccl_system)."""
    v = _verdict(tmp_path, "RuntimeError: oneCCL: sockets_exchange.cpp:130 connect_to_peer: EXCEPTION: connect failed"
                 ", errno: Connection refused\n")
    assert v["cause"] != "nccl_system", v


def test_a_programs_own_coordination_barrier_names_the_tasks_that_never_reached_it(tmp_path):
    """Rules Y and I (levanter-432): a barrier the running program calls itself after jax.distributed.initialize
    (multihost_broadcast_sync0, no connect / init in its id) timing out names the tasks that never reached it: the
    world was formed, so those processes are missing -- rank_missing, tasks 0 and 3 named. The set-up barrier of the
    same shape (PjRT_Client_Connect) stays the rendezvous, nobody named."""
    text = ("  File \"/src/levanter/utils/jax_utils.py\", line 75, in multihost_broadcast_sync\n"
            "    client.wait_at_barrier(f\"multihost_broadcast_sync{_sync_counter}\", timeout_in_ms=60000)\n"
            "jaxlib.xla_extension.XlaRuntimeError: DEADLINE_EXCEEDED: Barrier timed out. Barrier_id: {bid}. "
            "Timed out task names:\n"
            "/job:jax_worker/replica:0/task:3\n"
            "/job:jax_worker/replica:0/task:0\n")
    d = _report(tmp_path, text.replace("{bid}", "multihost_broadcast_sync0"))
    v = d["verdict"]
    assert (v["cause"], sorted(v["culprits"])) == ("rank_missing", [0, 3]), v
    assert "py-spy" in v["fix"] and "task" in v["fix"], v
    setup = _report(tmp_path, text.replace("{bid}", "PjRT_Client_Connect"))
    assert (setup["verdict"]["cause"], setup["verdict"]["culprits"]) == ("store_rendezvous", []), setup["verdict"]
    assert not _accused(setup)
