"""How diagnose reads the transports of communication libraries beside NCCL failing at set-up (round 66, session 23,
fixer h2): NVSHMEM's IBGDA refused an address handle, NVSHMEM's verbs message split from its error macro's prefix by
other processes' writes, UCX's mlx5 DEVX allocation refused by the host, NVSHMEM's transport map with no path to a
peer PE's GPU, and MSCCL++'s IB device index past the host's IB devices. Each test reads the shape from lines other
than the corpus case's own (another build path, line, GPU, status, host), and a near shape that must NOT be read that
way. Format strings are the libraries' own (nvshmemx_error.h, topo.cpp, ib_mlx5.c, mscclpp's utils); hosts, paths and
numbers are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict


def _nvshmem(path: str, line: int, what: str, status: int | None = None) -> str:
    """A line of NVSHMEM's error macros (nvshmemx_error.h: "%s:%d: non-zero status: %d " or "%s:%d: NULL value ",
    then the message)."""
    return f"{path}:{line}: " + (f"non-zero status: {status} " if status is not None else "NULL value ") + what + "\n"


_BUILD = "/opt/build/nvshmem_src_3.3.9/src"


# --- NVSHMEM's IBGDA cannot create the address handle to a peer (lead rule J: the path to the peer's GID) ----------
def test_nvshmems_ibgda_address_handle_refused_is_the_fabric(tmp_path):
    """Round 66's nvshmem-33: "ibgda.cpp:2234: NULL value Unable to create ah." (ibv_create_ah returned NULL while its
    shared DCT objects are built), then its trail ("create DCT share err.", "connect EPS failed", "nvshmem setup"):
    an address handle is the verbs path to the peer's GID, read like UCX's ibv_create_ah and rule J's ibv_modify_qp:
    ib_fabric, nobody named, NVSHMEM's own settings in the fix."""
    text = (_nvshmem(f"{_BUILD}/modules/transport/ibgda/ibgda.cpp", 2251, "Unable to create ah.")
            + _nvshmem(f"{_BUILD}/modules/transport/ibgda/ibgda.cpp", 2990, "create DCT share err.", 7)
            + _nvshmem(f"{_BUILD}/host/transport/transport.cpp", 431, "connect EPS failed ", 7)
            + _nvshmem(f"{_BUILD}/host/init/init.cu", 1060, "nvshmem setup connections failed", 7))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("ib_fabric", []) and not _accused(d), v
    assert "ibv_create_ah" in v["summary"] and "NVSHMEM_IB_GID_INDEX" in v["fix"], v


def test_nvshmems_trail_without_the_address_handle_names_no_verbs_call(tmp_path):
    """The near shape: the trail alone ("create DCT share err.", "connect EPS failed") says which step returned, not
    which verbs call failed: not read as the fabric."""
    text = (_nvshmem(f"{_BUILD}/modules/transport/ibgda/ibgda.cpp", 2990, "create DCT share err.", 7)
            + _nvshmem(f"{_BUILD}/host/transport/transport.cpp", 431, "connect EPS failed ", 7))
    assert _verdict(tmp_path, text)["cause"] != "ib_fabric"


# --- NVSHMEM's verbs message split from its macro's prefix (two writes, several processes) --------------------------
def test_nvshmems_verbs_message_split_from_its_prefix_is_still_the_call_failing(tmp_path):
    """Round 66's sglang-7888: NVSHMEM's macros write "<file>:<line>: non-zero status: N " and the message with two
    writes, so several processes' stderr leave "ibv_modify_qp failed" alone on its lines and the prefixes without it
    ("ibrc.cpp:1433: non-zero status: 7 ", twice on one line). The call named failing is rule J's ibv_modify_qp at
    set-up: ib_fabric, nobody named, NVSHMEM's settings in the fix (its prefixes before or after the message)."""
    ibrc = "/workspace/deps/nvshmem/src/modules/transport/ibrc/ibrc.cpp"
    prefix = f"{ibrc}:1447: non-zero status: 7 "
    for text in ("ibv_modify_qp failed \n\nibv_modify_qp failed \n" + prefix + prefix + "\n\n" + prefix + "\n",
                 prefix + "\n" + "[ep-worker-2] ibv_modify_qp failed\n" + "ibv_modify_qp failed\n"):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("ib_fabric", []) and not _accused(d), (text, v)
        assert "ibv_modify_qp" in v["summary"] and "NVSHMEM_IB_GID_INDEX" in v["fix"], v


def test_a_verbs_call_inside_a_sentence_or_nvshmems_bare_prefix_is_not_a_call_failing(tmp_path):
    """The near shapes: a line that only mentions a verbs call with more after "failed" (a counter, a test's summary)
    is not read as the call failing (at most the last reading's low-confidence guess from its words), and NVSHMEM's
    prefix with no message names no call."""
    v = _verdict(tmp_path, "ibv_post_send failed=0 retries=3 (perf counters)\n")
    assert v["confidence"] == "low" and "completion errors" not in v["summary"], v
    bare = "/workspace/deps/nvshmem/src/modules/transport/ibrc/ibrc.cpp:1447: non-zero status: 7 \n"
    assert _verdict(tmp_path, bare)["cause"] != "ib_fabric"


# --- UCX's mlx5 DEVX allocation refused by the host (lead rule J: local resources, nccl_system) ---------------------
_OMPI_INIT = ("--------------------------------------------------------------------------\n"
              "It looks like MPI_INIT failed for some reason; your parallel process is\n")


def test_ucx_devx_allocation_refused_at_mpi_init_is_a_system_error(tmp_path):
    """Round 66's ucx-6223: UCX's "ib_mlx5.c:395 UCX ERROR mlx5dv_devx_alloc_uar() failed: Operation not supported"
    then Open MPI's "MPI_INIT failed": DEVX allocating its user access region on the local HCA, refused by the host's
    verbs stack -- rule J's resource creation the host refuses, nccl_system, nobody named; not the MPI install's
    start-up (config), which only follows from it."""
    text = ("[1700000000.123456] [gpu-b07:51423:0]        ib_mlx5.c:412  UCX  ERROR mlx5dv_devx_alloc_uar() failed: "
            "Operation not supported\n"
            "[gpu-b07:51423] pml_ucx.c:419  Error: ucp_ep_create(proc=1) failed: Out of memory\n" + _OMPI_INIT)
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("nccl_system", []) and not _accused(d), v
    assert "mlx5dv_devx_alloc_uar" in v["summary"] and "UCX_IB_MLX5_DEVX" in v["fix"], v


def test_mpi_init_failing_without_a_refused_allocation_stays_the_mpi_install(tmp_path):
    """The near shape: Open MPI's MPI_INIT failing with no verbs call shown refused is still its own start-up."""
    assert _verdict(tmp_path, _OMPI_INIT)["cause"] == "config"


# --- NVSHMEM finds no transport to a peer PE's GPU (lead rules L, Z, J: the paths between the PEs at set-up) --------
def test_nvshmems_transport_map_with_no_path_to_a_peer_gpu_is_the_set_up(tmp_path):
    """Round 66's multi-gpu-programming-models-20 and pytorch-170479: "topo.cpp:469: [GPU 3] Peer GPU 8 is not
    accessible, exiting ..." and "init.cu:1035: non-zero status: 3 building transport map failed" on every PE alike:
    the peer is on another node and NVSHMEM had no remote transport for it (P2P only reaches GPUs of one node):
    network_setup, nobody named, the fix NVSHMEM's remote transport. Also from the transport map line alone."""
    topo = f"{_BUILD}/host/topo/topo.cpp:472: [GPU {{g}}] Peer GPU {{p}} is not accessible, exiting ... \n"
    tmap = _nvshmem(f"{_BUILD}/host/init/init.cu", 1041, "building transport map failed ", 3)
    for text in ("".join(topo.format(g=g, p=16) + tmap for g in (5, 6, 7)),
                 "[node-12]: " + tmap + "[node-12]: " + tmap):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("network_setup", []) and not _accused(d), (text, v)
        assert "NVSHMEM_REMOTE_TRANSPORT" in v["fix"] and "nvidia_peermem" in v["fix"], v


def test_a_service_not_accessible_is_not_nvshmems_peer_gpu(tmp_path):
    """The near shapes: another program's "... is not accessible, exiting" and NVSHMEM's other init failures are not
    its transport map."""
    assert _verdict(tmp_path, "ERROR: Airflow is not accessible, exiting\n")["cause"] != "network_setup"
    other = _nvshmem(f"{_BUILD}/host/init/init.cu", 990, "nvshmem detect topo failed ", 7)
    assert _verdict(tmp_path, other)["cause"] != "network_setup"


# --- MSCCL++'s IB device index past the host's IB devices (lead rules Q, W: the host's set-up, config) --------------
def test_msccl_ib_transport_out_of_range_is_the_hosts_nic_set_up(tmp_path):
    """Round 66's mscclpp-254: "terminate called after throwing an instance of 'std::out_of_range' / what():  IB
    transport out of range: 1 >= 1" on several processes: MSCCL++ gives each GPU index its own IB device, and the
    host has fewer -- every process started the same way fails alike: config, nobody named. Newer builds throw
    mscclpp::Error with the same words."""
    for text in ("".join("terminate called after throwing an instance of 'std::out_of_range'\n"
                         f"  what():  IB transport out of range: {i} >= 2\n" for i in (2, 3)),
                 "[rank5]: mscclpp::Error: IB transport out of range: 5 >= 4 (InvalidUsage)\n"):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), (text, v)
        assert "MSCCLPP_HCA_DEVICES" in v["fix"] and "IB device" in v["summary"], v


def test_an_index_out_of_range_elsewhere_is_not_the_ib_device_check(tmp_path):
    """The near shape: Python's own "list index out of range" is a script's error, not MSCCL++'s device check."""
    v = _verdict(tmp_path, "Traceback (most recent call last):\n  File \"train.py\", line 9, in <module>\n"
                 "IndexError: list index out of range\n")
    assert "MSCCL" not in v["summary"] and "MSCCLPP_HCA_DEVICES" not in v["fix"], v
