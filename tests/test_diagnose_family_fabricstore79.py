"""Round 79's fabric, store and start-up shapes.

DeepEP-307: NVSHMEM's IBGDA prints its error macro's prefix ("ibgda.cpp:1348: NULL value ", "ibgda.cpp:3025: non-zero
status: 7 ") and its messages on lines of their own, split apart by the other processes' writes: "Unable to create
ah." (ibv_create_ah returned NULL: no address handle to the peer's GID) and "ibgda_rc_init2rtr failed on RC #216."
(its devx move of a queue pair to RTR). A queue pair that cannot reach its connected state is ib_fabric, nobody named
(rule J), as the same messages on the prefix's line already read. Near shape: the words inside a sentence are not read.

MLOpsPython-416: NCCL's bootstrap remote allocator failing ("[Rem Allocator] Allocation failed") with "Cuda failure 'out
of memory'" on its thread, and nothing else. The allocator serves the job's own peers: its failure is a foreign
request (rule AD (3), none) only where the lines show that thread's connection from outside (its "Connection closed by
remote peer", nccl-844); alone, a device allocation failed: gpu_oom, culprits unknown (rules AN (2), U (3)).

rt-detr-599: rank 0's traceback in all_reduce ends in "NCCL communicator was aborted on rank 0. Original reason for
failure was: [Rank 0] Watchdog caug" (cut). torch's watchdog prints nothing but its collective timeout after its tag
and "Watchdog ca...", so the cut message is that timeout: one rank inside, the world not shown -- rank_missing, rank 0
innocent (rules B, E). Near shape: the words with no rank tag are not read as the timeout.

monouni-18: "[c10d] The client socket has timed out after 1800s while trying to connect to (127.0.0.1, 1222)" on one
host: store_rendezvous (rules L, Y); a loopback store is on this machine, so the fix is its port there (the store's
process, a stale one on the port, --master_port / MASTER_PORT). Near shape: a routable address gets no loopback words.

vllm-windows-19: a single c10d [W] "failed to connect to [host.docker.internal]:12594 (system error: 10049 ...)" and, in
the same second, vLLM's "EngineCore failed to start." with its traceback under vLLM's logger prefix cut inside a frame
line: unknown, nobody named (rules BM (2), BG (6), AG). The cut frame line under a logger prefix ending in "] " is a
cut frame; the fix adds what the warning's address means if the cut error was the store's (the host, USE_LIBUV=0 on
Windows). Near shape: without the warning, no store words.

sglang-28396: a C++ backtrace whose TCPStore::check() frame is called by ProcessGroupNCCL's HeartbeatMonitor::runLoop,
its warning line cut: the heartbeat monitor's poll of the store failing, nothing after -- none (rule N), the fix says
the store host exited first. Near shape: a timeout after it is a failure of its own.

lightning-sam-43: Lightning's start-up banners (GLOBAL_RANK / MEMBER, distributed_backend=gloo), seeds and the
DataLoader's worker-count UserWarning: nothing fails -- none at low confidence (rules K, BJ (4)); the fix reads the
warning's numbers (num_workers against the CPUs). Near shape: an error after the warning decides the cause.
"""
from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report

_IBGDA = "/ws/nvshmem/src/modules/transport/ibgda/ibgda.cpp"


def test_ibgdas_split_address_handle_and_rtr_messages_are_the_fabric(tmp_path):
    text = (f"{_IBGDA}:1348: NULL value \n" * 2 + "Unable to create ah.\n" * 2 + "\n"
            + f"{_IBGDA}:3025: non-zero status: 7 \n" * 2 + "ibgda_rc_init2rtr failed on RC #216.\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("ib_fabric", []) and not _accused(d), v
    assert "NVSHMEM_IB_GID_INDEX" in v["fix"], v
    # the transition's message on its prefix's line reads the same
    one = _report(tmp_path, f"{_IBGDA}:3025: non-zero status: 7 ibgda_rc_init2rtr failed on RC #3.\n")["verdict"]
    assert one["cause"] == "ib_fabric", one


def test_the_words_inside_a_sentence_are_not_read_as_the_fabric(tmp_path):
    v = _report(tmp_path, "I also get Unable to create ah. sometimes when ibgda_rc_init2rtr is slow\n")["verdict"]
    assert v["cause"] != "ib_fabric", v


def _rem_alloc(host: str = "b02205000000", pid: int = 38, tid: int = 209) -> str:
    return (f"{host}:{pid}:{tid} [0] bootstrap.cc:279 NCCL WARN [Rem Allocator] Allocation failed (segment 0, fd 126)\n"
            f"{host}:{pid}:{tid} [0] include/alloc.h:48 NCCL WARN Cuda failure 'out of memory'\n"
            f"{host}:{pid}:{tid} [0] NCCL INFO bootstrap.cc:231 -> 1\n")


def test_the_remote_allocators_oom_alone_is_an_oom(tmp_path):
    d = _report(tmp_path, _rem_alloc() * 3)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("gpu_oom", []) and not _accused(d), v


def test_the_remote_allocators_oom_after_a_foreign_connection_stays_none(tmp_path):
    closed = ("b02205000000:38:209 [0] include/socket.h:423 NCCL WARN Net : Connection closed by remote peer "
              "10.0.0.4<52638>\nb02205000000:38:209 [0] NCCL INFO bootstrap.cc:229 -> 2\n")
    v = _report(tmp_path, closed + _rem_alloc())["verdict"]
    assert (v["cause"], v["culprits"]) == ("none", []), v


_ALLREDUCE = ("Traceback (most recent call last):\n"
              '  File "/w/src/misc/dist_utils.py", line 194, in reduce_dict\n'
              "    torch.distributed.all_reduce(values)\n"
              '  File "/env/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", line 1700, in '
              "all_reduce\n    work = default_pg.allreduce([tensor], opts)\n")


def test_an_abort_quoting_the_watchdogs_timeout_cut_short_is_a_rank_inside(tmp_path):
    d = _report(tmp_path, _ALLREDUCE + "RuntimeError: NCCL communicator was aborted on rank 0.  Original reason for "
                "failure was: [Rank 0] Watchdog caug\n")
    v = d["verdict"]
    assert v["cause"] == "rank_missing" and 0 not in _accused(d), v


def test_the_watchdog_words_with_no_rank_tag_are_not_the_timeout(tmp_path):
    v = _report(tmp_path, _ALLREDUCE + "RuntimeError: the watchdog ca\n")["verdict"]
    assert v["cause"] != "rank_missing", v


_SOCKET_TIMEOUT = ("[E socket.cpp:860] [c10d] The client socket has timed out after 1800s while trying to connect to "
                   "({addr}, {port}).\nTraceback (most recent call last):\n"
                   '  File "/w/train_val.py", line 68, in main_worker\n'
                   "    dist.init_process_group(backend='nccl',\n")


def test_a_loopback_store_timeout_names_the_port_on_this_host(tmp_path):
    d = _report(tmp_path, _SOCKET_TIMEOUT.format(addr="127.0.0.1", port=1222) * 2)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("store_rendezvous", []) and not _accused(d), v
    assert "port 1222" in v["fix"] and "--master_port" in v["fix"], v


def test_a_routable_store_timeout_gets_no_loopback_words(tmp_path):
    v = _report(tmp_path, _SOCKET_TIMEOUT.format(addr="10.1.2.3", port=29500))["verdict"]
    assert v["cause"] == "store_rendezvous" and "loopback" not in v["fix"], v


_WIN_WARN = ("[W812 11:56:08.000000000 socket.cpp:755] [c10d] The client socket has failed to connect to "
             "[host.docker.internal]:12594 (system error: 10049 - The requested address is not valid in its "
             "context.).\n")
_ENGINE_CUT = "".join("ERROR 08-12 11:56:08 [core.py:633] " + x + "\n" for x in (
    "EngineCore failed to start.", "Traceback (most recent call last):",
    '  File "C:\\w\\vllm\\v1\\engine\\core.py", line 78, in __init__',
    "    self.model_executor = executor_class(vllm_config)",
    '  File "C:\\w\\vllm\\executor\\executor_base.py", line 53, in __init__', "    self._init_executor()",
    '  File "C:\\w\\vllm\\executor\\uniproc'))


def test_a_cut_engine_traceback_after_one_connect_warning_is_unknown(tmp_path):
    d = _report(tmp_path, _WIN_WARN + _ENGINE_CUT)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), v
    assert "stops inside its frames" in v["summary"], v
    assert "USE_LIBUV=0" in v["fix"] and "host.docker.internal" in v["fix"], v


def test_the_cut_engine_traceback_without_the_warning_has_no_store_words(tmp_path):
    v = _report(tmp_path, _ENGINE_CUT)["verdict"]
    assert v["cause"] == "unknown" and "USE_LIBUV" not in v["fix"], v


_HB_POLL = ("Exception raised from recvBytes at /pytorch/torch/csrc/distributed/c10d/Utils.hpp:679 (most recent call "
            "first):\nframe #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x9d (0x7b0f in libc10.so)\n"
            "frame #1: <unknown function> + 0x6a91532 (0x7b0e in libtorch_cpu.so)\n"
            "frame #2: c10d::TCPStore::check(std::vector<std::string> const&) + 0x273 (0x7b0e in libtorch_cpu.so)\n"
            "frame #3: c10d::ProcessGroupNCCL::HeartbeatMonitor::runLoop() + 0x4a5 (0x7b0d in libtorch_cuda.so)\n"
            "frame #4: <unknown function> + 0xecdb4 (0x7b10 in libstdc++.so.6)\n\n"
            "[rank7]:[W618 10:26:54.029069735 TCPStore.cpp:12\n")


def test_the_heartbeat_monitors_store_poll_frames_alone_are_nothing_failing(tmp_path):
    d = _report(tmp_path, _HB_POLL)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("none", []) and not _accused(d), v
    assert "TORCH_NCCL_ENABLE_MONITORING=0" in v["fix"] and "destroy_process_group" in v["fix"], v


def test_a_timeout_after_the_poll_frames_is_a_failure(tmp_path):
    from tests.conftest import watchdog_line

    v = _report(tmp_path, _HB_POLL + watchdog_line(7, 88, "ALLREDUCE", 600011, 600000))["verdict"]
    assert v["cause"] != "none", v


_BANNERS = ("Initializing distributed: GLOBAL_RANK: 0, MEMBER: 1/4\n"
            "Initializing distributed: GLOBAL_RANK: 1, MEMBER: 2/4\n"
            "distributed_backend=gloo\nAll distributed processes registered. Starting with 4 processes\n"
            "[rank: 0] Global seed set to 1337\n"
            "/opt/conda/lib/python3.10/site-packages/torch/utils/data/dataloader.py:561: UserWarning: This DataLoader "
            "will create 4 worker processes in total. Our suggested max number of worker in current system is 2, "
            "which is smaller than what this DataLoader\n")


def test_start_up_banners_and_the_loader_worker_warning_are_none(tmp_path):
    d = _report(tmp_path, _BANNERS)
    v = d["verdict"]
    assert (v["cause"], v["culprits"], v["confidence"]) == ("none", [], "low") and not _accused(d), v
    assert "num_workers" in v["fix"], v


def test_an_error_after_the_loader_warning_decides(tmp_path):
    oom = ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of "
           "79.15 GiB of which 1.2 GiB is free.\n")
    v = _report(tmp_path, _BANNERS + oom)["verdict"]
    assert v["cause"] == "gpu_oom", v
