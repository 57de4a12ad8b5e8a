"""The families rounds 11 and 12's blind scores missed (issue #14), each read from lines other than
the corpus case's own: another rank, host, plugin or wording. Format strings are NCCL's, torch's and
the plugins' (sources in each test); numbers, hosts and peers are made up."""

from __future__ import annotations

from ncclDoctor.diagnose import diagnose
from tests.conftest import diagnose_verdict as _verdict


def test_torchrun_summary_pasted_up_to_its_error_file_line(tmp_path):
    """torchrun's ChildFailedError summary (torch/distributed/elastic/multiprocessing/errors) cut
    after ``error_file`` (no traceback field): the entry still names the rank and its -9."""
    text = ("Root Cause (first observed failure):\n[0]:\n  time      : 2025-01-02_10:00:00\n  host      : node-a\n"
            "  rank      : 3 (local_rank: 3)\n  exitcode  : -9 (pid: 4411)\n  error_file: <N/A>\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "host_oom", v
    assert v["culprits"] == [3]


def test_torchrun_summary_with_its_traceback_is_one_entry(tmp_path):
    text = ("Root Cause (first observed failure):\n[0]:\n  time      : 2025-01-02_10:00:00\n  host      : node-a\n"
            "  rank      : 5 (local_rank: 1)\n  exitcode  : -9 (pid: 4411)\n  error_file: <N/A>\n"
            "  traceback : Signal 9 (SIGKILL) received by PID 4411\n")
    (tmp_path / "job.log").write_text(text)
    r = diagnose([str(tmp_path / "job.log")])
    assert r.results["diagnose"]["verdict"]["culprits"] == [5]
    assert "1 failed rank(s)" in " ".join(f.message for f in r.findings)


def test_cuda_driver_shutting_down_at_exit_is_not_a_failure(tmp_path):
    """torch's ProcessGroupNCCL.cpp "main process destroyed cuda before watchdog loop exited" and a
    bare CUDA 'driver shutting down' (cudaErrorCudartUnloading) from another thread at exit."""
    for line in ("[I1203 09:01:02.000001 ProcessGroupNCCL.cpp:1410] [PG 0 Rank 3] main process destroyed cuda "
                 "before watchdog loop exited, terminating watchdog. (Watchdog caught exception: CUDA error: driver "
                 "shutting down\n",
                 "[rank1]: RuntimeError: CUDA error: driver shutting down\n"):
        v = _verdict(tmp_path, line)
        assert v["cause"] == "none", (line, v)


def test_harmless_nccl_warns_are_not_the_verdict(tmp_path):
    """misc/ibvwrap.cc "Failed to open libibverbs.so[.1]" (2.1x: "Failed to open libibverbs.so"), the net
    plugin loader's "NET/Plugin : Plugin load returned ... : libnccl-net.so: cannot open shared object file",
    the FastSocket plugin's affinity/retry warnings (net_fastsocket.cc)."""
    lines = ("nodeb:1201:1201 [5] misc/ibvwrap.cc:106 NCCL WARN Failed to open libibverbs.so\n",
             "nodeb:1201:1201 [5] NCCL WARN NET/Plugin : Plugin load returned 2 : libnccl-net.so: cannot open "
             "shared object file: No such file or directory.\n",
             "gke-n2:77:90 [1] net_fastsocket.cc:700 NCCL WARN Maximum retry reached for connect 7.\n"
             "gke-n2:77:90 [1] net_fastsocket.cc:652 NCCL WARN Cannot get incoming CPU.\n")
    for text in lines:
        v = _verdict(tmp_path, text)
        assert v["cause"] == "none", (text, v)
        assert "harmless" in v["fix"]


def test_a_real_warn_beside_a_harmless_one_still_decides(tmp_path):
    text = ("nodeb:1201:1201 [5] misc/ibvwrap.cc:106 NCCL WARN Failed to open libibverbs.so\n"
            "nodeb:1201:1290 [5] misc/foo.cc:12 NCCL WARN Proxy thread lost its peer unexpectedly\n")
    assert _verdict(tmp_path, text)["cause"] != "none"


def test_graph_file_set_by_the_environment_is_the_setting_to_unset(tmp_path):
    """NCCL's env log "%s set by environment to %s" (misc/param.cc; nccl.conf's values are put in the
    environment first), and a shell export of it: a forced ring/tree graph file."""
    for line in ("gpu-7:811:811 [3] NCCL INFO NCCL_GRAPH_FILE set by environment to /opt/vendor/ndv5/graph.xml\n",
                 "export NCCL_GRAPH_FILE=/opt/vendor/ndv5/graph.xml\n"):
        v = _verdict(tmp_path, line)
        assert v["cause"] == "config", (line, v)
        assert "NCCL_GRAPH_FILE" in v["fix"] and "unset" in v["fix"]


def test_graph_dump_file_alone_is_not_a_cause(tmp_path):
    v = _verdict(tmp_path, "gpu-7:811:811 [3] NCCL INFO NCCL_GRAPH_DUMP_FILE set by environment to /tmp/g.xml\n")
    assert v["cause"] != "config"


def test_a_ring_that_does_not_close_is_the_ranks_disagreeing_on_the_topology(tmp_path):
    """graph/rings.cc: "Error : ring %d does not loop back to start (%d != %d)" and "ring %d does not
    contain rank %d"."""
    for line in ("n1:5:9 [2] graph/rings.cc:40 NCCL WARN Error : ring 3 does not loop back to start (9 != 2)\n",
                 "n1:5:9 [2] graph/rings.cc:44 NCCL WARN Error : ring 1 does not contain rank 11\n"):
        v = _verdict(tmp_path, line)
        assert v["cause"] == "nccl_internal", (line, v)
        assert "NCCL_HOSTID" in v["fix"] and "topology" in v["fix"]


def test_a_timeout_of_a_few_milliseconds_is_the_setting(tmp_path):
    """torch 2.x ProcessGroupNCCL.cpp's watchdog text with Timeout(ms)=5 on a later collective."""
    line = ("[rank0]:[E1002 11:00:00.100 ProcessGroupNCCL.cpp:616] [Rank 0] Watchdog caught collective operation "
            "timeout: WorkNCCL(SeqNum=57, OpType=BROADCAST, NumelIn=4096, NumelOut=4096, Timeout(ms)=5) ran for 41 "
            "milliseconds before timing out.\n")
    v = _verdict(tmp_path, line)
    assert v["cause"] == "config", v
    assert v["culprits"] == [] and "timeout" in v["fix"]


def test_a_default_timeout_is_not_the_setting(tmp_path):
    line = ("[rank0]:[E1002 11:00:00.100 ProcessGroupNCCL.cpp:616] [Rank 0] Watchdog caught collective operation "
            "timeout: WorkNCCL(SeqNum=57, OpType=BROADCAST, NumelIn=4096, NumelOut=4096, Timeout(ms)=600000) ran for "
            "600004 milliseconds before timing out.\n")
    assert _verdict(tmp_path, line)["cause"] != "config"


_STUCK = ("[rank4]:[E1002 {t} ProcessGroupNCCL.cpp:1743] [PG ID 0 PG GUID 0(default_pg) Rank 4] ProcessGroupNCCL's "
          "watchdog got stuck for 480 seconds without making progress in monitoring enqueued collectives. This "
          "typically indicates a NCCL/CUDA API (e.g., CudaEventDestroy) hang blocking the watchdog, and could be "
          "triggered by another thread holding the GIL inside a CUDA api (for example, CudaEventDestroy), or other "
          "deadlock-prone behaviors.\n")
_TIMEOUT = ("[rank1]:[E1002 {t} ProcessGroupNCCL.cpp:632] [Rank 1] Watchdog caught collective operation timeout: "
            "WorkNCCL(SeqNum=88, OpType=ALLREDUCE, NumelIn=1048576, NumelOut=1048576, Timeout(ms)=600000) ran for "
            "600031 milliseconds before timing out.\n")


def test_a_stuck_watchdog_after_a_normal_timeout_is_its_aftermath(tmp_path):
    """The heartbeat monitor's "watchdog got stuck" (ProcessGroupNCCL.cpp) eight minutes after another
    rank's normal timeout, pasted first: the abort hung, the collective is the hang."""
    v = _verdict(tmp_path, _STUCK.format(t="11:18:00.000") + _TIMEOUT.format(t="11:10:00.000"))
    assert v["cause"] != "watchdog_blocked", v


def test_a_stuck_watchdog_alone_or_first_is_still_blocked(tmp_path):
    assert _verdict(tmp_path, _STUCK.format(t="11:18:00.000"))["cause"] == "watchdog_blocked"
    v = _verdict(tmp_path, _STUCK.format(t="11:00:00.000") + _TIMEOUT.format(t="11:10:00.000"))
    assert v["cause"] == "watchdog_blocked", v


def test_store_port_permission_denied(tmp_path):
    """TCPStore's socket.cpp "The server socket has failed to bind to %s (errno: %d - %s)", IPv4 and a
    launcher's prefix; the line has no other trigger word than its errno."""
    line = ("[rank0]: torch.distributed.DistNetworkError: The server socket has failed to listen on any local network "
            "address. The server socket has failed to bind to 0.0.0.0:80 (errno: 13 - Permission denied).\n")
    v = _verdict(tmp_path, line)
    assert v["cause"] == "store_rendezvous", v
    assert "master_port" in v["fix"] and "below 1024" in v["summary"]


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


def test_two_hosts_bootstrapping_on_one_address_are_containers_behind_nat(tmp_path):
    """NCCL's "Bootstrap : Using [0]eth0:%s<0>" on two hosts with the same address (here a user-defined
    bridge's 10.88.0.5, not docker0's 172.17/16)."""
    text = ("cont-a:101:101 [0] NCCL INFO Bootstrap : Using [0]eth0:10.88.0.5<0>\n"
            "cont-b:202:202 [0] NCCL INFO Bootstrap : Using [0]eth0:10.88.0.5<0>\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "network_setup", v
    assert "--network=host" in v["summary"] and "NCCL_SOCKET_IFNAME" in v["fix"]


def test_one_host_on_its_own_address_is_not_a_network_verdict(tmp_path):
    text = ("cont-a:101:101 [0] NCCL INFO Bootstrap : Using [0]eth0:10.88.0.5<0>\n"
            "cont-b:202:202 [0] NCCL INFO Bootstrap : Using [0]eth0:10.88.0.6<0>\n")
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


def test_a_crash_in_the_application_is_not_nccls(tmp_path):
    text = ("[gpu-12:4401:0:4490] Caught signal 11 (Segmentation fault: address not mapped to object at address 0x8)\n"
            "==== backtrace (tid:   4490) ====\n"
            " 0  /opt/hpcx/ucx/lib/libucs.so.0(ucs_handle_error+0x2e4) [0x7f00c925c274]\n"
            " 1  /usr/local/lib/python3.10/dist-packages/torch/lib/libtorch_cuda.so(+0x1a0057) [0x7f00c18c1057]\n"
            " 2  /usr/local/lib/python3.10/dist-packages/nvidia/nccl/lib/libnccl.so.2(+0x1a0057) [0x7f00c18c1057]\n")
    assert _verdict(tmp_path, text)["cause"] != "nccl_internal"


def test_a_cuda_graph_capture_failure_names_cuda_graphs(tmp_path):
    """NCCL's strongstream.cc CUDACHECK: "Cuda failure '%s'" with cudaErrorStreamCaptureInvalidated's text."""
    line = ("h:1:2 [1] misc/strongstream.cc:409 NCCL WARN Cuda failure 'operation not permitted when stream is "
            "capturing'\n")
    v = _verdict(tmp_path, line)
    assert v["cause"] == "cuda_error", v
    assert "CUDA graph" in v["fix"] or "cuda graph" in v["fix"].lower()


def test_a_log_holding_a_ras_report_still_has_its_own_lines_read(tmp_path):
    """ncclras's text report (its "Communicators..." table, NCCL 2.24+) pasted in the same file as the
    job's own watchdog lines: the report says RUNNING/OK, the timeout is still the job's failure."""
    text = ("NCCL version 2.27.3 compiled with CUDA 12.8\n\nJob summary\n===========\n\n"
            "  Nodes  Processes         GPUs  Processes     GPUs\n(total)   per node  per process    (total)  (total)\n"
            "      2          4            1          8        8\n\n"
            "Communicators... (0.00s)\n=============\n\n"
            "Group     Comms     Nodes     Ranks     Ranks     Ranks    Status  Errors\n"
            "    #  in group  per comm  per node  per comm  in group\n"
            "    0         1         2         4         8         8   RUNNING      OK\n\n"
            "[rank5]:[E1002 11:00:00.100 ProcessGroupNCCL.cpp:632] [Rank 5] Watchdog caught collective operation "
            "timeout: WorkNCCL(SeqNum=7710, OpType=ALLREDUCE, NumelIn=4096, NumelOut=4096, Timeout(ms)=600000) ran "
            "for 600009 milliseconds before timing out.\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] != "none", v


_DDP = ("[rank{r}]: RuntimeError: DDP expects same model across all ranks, but Rank {r} has {n} params, while rank "
        "{o} has inconsistent {m} params.\n")


def test_ddp_models_that_differ_name_the_rank_without_a_model(tmp_path):
    """torch reducer.cpp's verify_params_across_processes text; here the reporter is the empty one."""
    v = _verdict(tmp_path, _DDP.format(r=2, n=0, o=0, m=388))
    assert v["cause"] == "desync", v
    assert v["culprits"] == [2] and "same model" in v["fix"]


def test_ddp_models_that_differ_between_two_full_models_name_nobody_from_one_report(tmp_path):
    v = _verdict(tmp_path, _DDP.format(r=1, n=212, o=0, m=210))
    assert v["cause"] == "desync" and v["culprits"] == [], v


def test_ddp_models_every_report_names_one_odd_rank(tmp_path):
    text = _DDP.format(r=1, n=212, o=3, m=210) + _DDP.format(r=2, n=212, o=3, m=210)
    assert _verdict(tmp_path, text)["culprits"] == [3]


def test_an_illegal_access_at_nccls_own_launch_says_upgrade_nccl(tmp_path):
    """NCCL's enqueue.cc CUDACHECK after its kernel launch: "Cuda failure %d '%s'" (2.2x)."""
    line = "gpu-3:991:991 [1] enqueue.cc:1620 NCCL WARN Cuda failure 700 'an illegal memory access was encountered'\n"
    v = _verdict(tmp_path, line)
    assert v["cause"] == "cuda_error", v
    assert "upgrade NCCL" in v["fix"]


def test_torch_27s_destroy_process_group_warning_is_harmless(tmp_path):
    """torch 2.7+ ProcessGroupNCCL.cpp: "WARNING: destroy_process_group() was not called before program exit,
    which can leak resources." on two ranks, nothing else."""
    text = "".join(f"[rank{r}]:[W1104 10:00:0{r}.000 ProcessGroupNCCL.cpp:1521] Warning: WARNING: "
                   "destroy_process_group() "
                   "was not called before program exit, which can leak resources. For more info, please see "
                   "https://pytorch.org/docs/stable/distributed.html#shutdown (function operator())\n" for r in (0, 1))
    v = _verdict(tmp_path, text)
    assert v["cause"] == "none", v
    assert "destroy_process_group" in v["fix"]


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


def test_an_unset_config_value_rejected_is_an_older_libnccl_than_torchs(tmp_path):
    """init.cc's "Invalid config %s attribute value %d" for another field (cgaClusterSize) with INT_MIN,
    as NCCL's own WARN line."""
    line = "n1:7:7 [0] init.cc:1902 NCCL WARN Invalid config cgaClusterSize attribute value -2147483648\n"
    v = _verdict(tmp_path, line)
    assert v["cause"] == "nccl_internal", v
    assert "LD_LIBRARY_PATH" in v["fix"]


def test_an_out_of_range_config_value_is_still_usage(tmp_path):
    line = "n1:7:7 [0] init.cc:1902 NCCL WARN Invalid config blocking attribute value 7\n"
    assert _verdict(tmp_path, line)["cause"] == "invalid_usage"


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
