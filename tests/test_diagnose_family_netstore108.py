"""Network and store set-up shapes round 108 showed read wrong or with a fix an expert would not give (session 45; rules
K, L, X (1), Y, AN (2), AQ (3)): each shape varied (other hosts, ports, paths, ranks, prefixes) reads right, and a near
shape keeps its old reading.

- torchft's lighthouse that cannot bind ("RuntimeError: Address already in use (os error 98)" under its console
  script's frame, torchft-30): store_rendezvous, nobody; the fix names its --bind and TORCHFT_LIGHTHOUSE. The same
  error under an unrelated program's frame is not torchft's.
- A store port taken inside the ephemeral range (enroot-243's 57062, pytorch-68716's 38655 in torch 1.10's "(generic
  error: 98 - ...)" wording): the fix names the port and the ephemeral range; a port below it gets no such words.
- A store client whose IPv6 lookups fail (gai error) and that never connects (pytorch-131691): the fix gives an IPv4
  address literal for MASTER_ADDR; a store timeout with no such lookup gets none of those words.
- A store client's 'No route to host' to another network's name of the host it was given (bun003 -> bun003.admin,
  uq-rcc-hpc-docs-2): the fix names both; the same error to the name it was given says no such thing.
- A framework's own service refusing the trainers' connect (vega-89's Dask scheduler): network_setup, nobody; the fix
  names the address nothing listened at. NCCL's bootstrap 'No route to host' (nersc 1450334): the fix says where to
  ping from and names the bootstrap address and interface NCCL_DEBUG_SUBSYS=INIT,NET shows.
- Open MPI's "failed to TCP connect to a peer MPI process" box (horovod-489): network_setup, nobody; the fix restricts
  the TCP BTL's interface and names the peer address. Another Open MPI warning box is no such thing.
- TensorPipe's listener failing its libuv check at init_rpc (tensorpipe-224): network_setup, nobody; the fix names
  TP_SOCKET_IFNAME. gloo's libuv transport failing keeps its own reading without those words.
"""
from __future__ import annotations

from tests.conftest import verdict_accused as _verdict


# --- torchft's lighthouse that cannot bind its port ------------------------------------------------------------------
def _bare_in_use(frame: str, call: str) -> str:
    return ("Traceback (most recent call last):\n"
            f"  File \"{frame}\", line 8, in <module>\n"
            f"    sys.exit({call})\n"
            "             ^^^^^^^^^^^^^^^^^\n"
            "RuntimeError: Address already in use (os error 98)\n")


def test_torchft_lighthouse_bind_in_use_is_the_store_and_an_unrelated_program_is_not(tmp_path):
    for frame in ("/opt/conda/envs/ft/bin/torchft_lighthouse", "/usr/local/bin/torchft_lighthouse"):
        v, acc = _verdict(tmp_path, "$ torchft_lighthouse --min_replicas 2 --quorum_tick_ms 250\n"
                          + _bare_in_use(frame, "lighthouse_main()"))
        assert (v["cause"], v["culprits"]) == ("store_rendezvous", []) and not acc, v
        assert "--bind" in v["fix"] and "TORCHFT_LIGHTHOUSE" in v["fix"], v
    # the same Rust io::Error under another program's entry point: no torchft, no store frame
    v, acc = _verdict(tmp_path, _bare_in_use("/srv/webapp/bin/serve_metrics", "serve_main()"))
    assert v["cause"] != "store_rendezvous" and not acc, v
    # the reading it keeps: an error no family reads, nobody named, the generic words (review b of round 108, 10)
    assert (v["cause"], v["culprits"]) == ("unknown", []), v
    assert "Read the full output around that line" in v["fix"], v
    assert "TORCHFT_LIGHTHOUSE" not in v["fix"], v


# --- a store port taken inside the ephemeral range --------------------------------------------------------------------
def test_store_port_in_use_in_the_ephemeral_range_says_so_and_a_low_port_does_not(tmp_path):
    v, acc = _verdict(tmp_path, "3: torch.distributed.DistNetworkError: The server socket has failed to listen on any "
                                "local network address. port: 51377, useIpv6: false, code: -98, name: EADDRINUSE, "
                                "message: address already in use\n")
    assert (v["cause"], v["culprits"]) == ("store_rendezvous", []) and not acc, v
    assert "choose a MASTER_PORT outside the ephemeral port range" in v["fix"] and "51377" in v["fix"], v
    # torch 1.10's wording: the bind lines name the port, the listen failure does not
    v, acc = _verdict(tmp_path, "09:11:02 [W socket.cpp:334] The server socket has failed to bind to [::]:44021 "
                                "(generic error: 98 - Address already in use).\n"
                                "09:11:03 [W socket.cpp:334] The server socket has failed to bind to 0.0.0.0:44021 "
                                "(generic error: 98 - Address already in use).\n"
                                "09:11:03 [E socket.cpp:368] The server socket has failed to listen on any local "
                                "network address.\n"
                                "09:11:03 ERROR (2.104s)\n")
    assert (v["cause"], v["culprits"]) == ("store_rendezvous", []) and not acc, v
    assert "port 44021" in v["fix"] and "ephemeral port range" in v["fix"], v
    # a port below the range: the in-use reading, no ephemeral words
    v, acc = _verdict(tmp_path, "torch.distributed.DistNetworkError: The server socket has failed to listen on any "
                                "local network address. port: 29517, useIpv6: false, code: -98, name: EADDRINUSE, "
                                "message: address already in use\n")
    assert (v["cause"], v["culprits"]) == ("store_rendezvous", []) and not acc, v
    assert "port 29517" in v["fix"] and "ephemeral" not in v["fix"], v


# --- a store client whose IPv6 lookups fail and that never connects --------------------------------------------------
def test_store_client_ipv6_lookups_failing_then_timeout_gets_the_ipv4_fix_and_a_plain_timeout_does_not(tmp_path):
    warn = ("The IPv6 network addresses of (trainer-head.svc, 29611) cannot be retrieved (gai error: -2 - Name or "
            "service not known).\n")
    v, acc = _verdict(tmp_path, warn * 4 + "torch.distributed.DistNetworkError: The client socket has timed out after "
                                          "900s while trying to connect to (trainer-head.svc, 29611).\n")
    assert (v["cause"], v["culprits"]) == ("store_rendezvous", []) and not acc, v
    assert "MASTER_ADDR as an IPv4 address literal" in v["fix"], v
    assert "falls back from IPv6 to IPv4" in v["fix"], v
    v, acc = _verdict(tmp_path, "torch.distributed.DistNetworkError: The client socket has timed out after 900s while "
                                "trying to connect to (trainer-head.svc, 29611).\n")
    assert (v["cause"], v["culprits"]) == ("store_rendezvous", []) and not acc, v
    assert "IPv4 address literal" not in v["fix"], v


# --- 'No route to host' to another network's name of the master ------------------------------------------------------
def test_store_no_route_to_another_networks_name_names_both_and_the_same_name_does_not(tmp_path):
    v, acc = _verdict(tmp_path, "RuntimeError: The client socket has failed to connect to any network address of "
                                "(gpu017, 29400). The client socket has failed to connect to gpu017.mgmt:29400 "
                                "(errno: 113 - No route to host).\n")
    assert (v["cause"], v["culprits"]) == ("store_rendezvous", []) and not acc, v
    assert "gpu017 resolves to gpu017.mgmt" in v["fix"], v
    assert "check name resolution on every node (getent hosts / /etc/hosts)" in v["fix"], v
    v, acc = _verdict(tmp_path, "RuntimeError: The client socket has failed to connect to any network address of "
                                "(gpu017, 29400). The client socket has failed to connect to gpu017:29400 "
                                "(errno: 113 - No route to host).\n")
    assert (v["cause"], v["culprits"]) == ("store_rendezvous", []) and not acc, v
    assert "gpu017 resolves to" not in v["fix"], v
    assert "getent hosts" in v["fix"], v


# --- connects refused by a framework's service; NCCL's bootstrap with no route ---------------------------------------
def test_service_refusing_the_trainers_names_its_address_and_nccl_no_route_says_where_to_ping(tmp_path):
    lines = []
    for r in (2, 5):
        lines += [f"[{r}]<stderr>:Traceback (most recent call last):",
                  f"[{r}]<stderr>:  File \"/opt/py/site-packages/distributed/comm/core.py\", line 215, in _raise",
                  f"[{r}]<stderr>:    raise IOError(msg)",
                  f"[{r}]<stderr>:OSError: Timed out trying to connect to 'tcp://10.4.0.9:8786' after 30 s: in "
                  "<distributed.comm.tcp.TCPConnector object at 0x7f00aa11>: ConnectionRefusedError: [Errno 111] "
                  "Connection refused"]
    v, acc = _verdict(tmp_path, "\n".join(lines) + "\n")
    assert (v["cause"], v["culprits"]) == ("network_setup", []) and not acc, v
    assert "Connection refused: nothing listening at tcp://10.4.0.9:8786" in v["fix"], v
    assert "No route to host:" not in v["fix"], v
    boot = "".join(f"{r}: nodeb:{4100 + r}:{4200 + r} [{r - 4}] include/socket.h:406 NCCL WARN Connect to "
                   f"10.50.3.17<51022> failed : No route to host\n"
                   f"{r}: nodeb:{4100 + r}:{4200 + r} [{r - 4}] NCCL INFO bootstrap.cc:70 -> 2\n" for r in (4, 5))
    v, acc = _verdict(tmp_path, boot)
    assert (v["cause"], v["culprits"]) == ("network_setup", []) and not acc, v
    assert "ping 10.50.3.17 from the node that failed" in v["fix"], v
    assert "to see the bootstrap address and interface chosen" in v["fix"], v
    assert "nothing listening at" not in v["fix"], v


# --- Open MPI's TCP BTL connect warning ------------------------------------------------------------------------------
def _ompi_box(prefix: str, addr: str, err: str) -> str:
    body = ["WARNING: Open MPI failed to TCP connect to a peer MPI process.  This", "should not happen.", "",
            "Your Open MPI job may now fail.", "", "  Local host: worker-b7", "  PID:        40211",
            f"  Message:    connect() to {addr} failed", f"  Error:      {err}"]
    return "".join(f"{prefix}{b}\n" for b in body)


def test_openmpi_tcp_connect_warning_is_network_setup_and_another_box_is_not(tmp_path):
    for prefix, addr, err in (("", "10.8.0.1:1024", "Connection timed out (110)"),
                              ("[1,3]<stderr>:", "192.168.77.2:1190", "Operation now in progress (115)")):
        v, acc = _verdict(tmp_path, _ompi_box(prefix, addr, err))
        assert (v["cause"], v["culprits"]) == ("network_setup", []) and not acc, v
        assert "-mca btl_tcp_if_include <iface>" in v["fix"], v
        host = addr.rsplit(":", 1)[0]
        assert f"check that {host} is a reachable address of the peer host" in v["fix"], v
    v, acc = _verdict(tmp_path, "WARNING: There is at least non-excluded one OpenFabrics device found,\n"
                                "but there are no active ports detected (or Open MPI was unable to use\n"
                                "them).  This is most certainly not what you wanted.\n")
    assert "btl_tcp_if_include" not in v["fix"] and v["cause"] != "network_setup", v
    # the reading it keeps: Open MPI's OpenFabrics notice alone is no failure (review b of round 108, finding 10)
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert "Nothing to fix in these lines" in v["fix"], v


# --- TensorPipe's listener at init_rpc --------------------------------------------------------------------------------
def test_tensorpipe_listener_check_is_network_setup_and_gloo_uv_keeps_its_reading(tmp_path):
    for at, said in (("/opt/src/pytorch/third_party/tensorpipe/tensorpipe/transport/uv/listener.cc:131",
                      "address not available"),
                     ("/pytorch/third_party/tensorpipe/tensorpipe/transport/uv/listener.cc:126", "invalid argument")):
        v, acc = _verdict(tmp_path, "terminate called after throwing an instance of 'std::runtime_error'\n"
                                    f"  what():  In initFromLoop at {at} \"rv < 0: {said}\"\n")
        assert (v["cause"], v["culprits"]) == ("network_setup", []) and not acc, v
        assert "TP_SOCKET_IFNAME" in v["fix"] and f"'{said}'" in v["fix"], v
    v, acc = _verdict(tmp_path, "terminate called after throwing an instance of 'gloo::EnforceNotMet'\n"
                                "  what():  [enforce fail at C:/actions-runner/_work/pytorch/third_party/gloo/gloo/"
                                "transport/uv/libuv.h:596] uv_accept: invalid argument\n")
    assert "TP_SOCKET_IFNAME" not in v["fix"], v
    assert v["cause"] == "network_setup", v
