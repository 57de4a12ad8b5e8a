"""How diagnose gives its last words (ncclDoctor/diagnose/verdict/: nccl.py, world.py,
noise.py, unread.py): NCCL's other errors and WARN
families (rings, the topology file, config attributes, a libnccl built for another CUDA, a system error
through topology detection, the proxy failing at set-up), settings printed in the logs (the config verdict),
benign noise that gives the "none" verdict (and a real WARN beside it that does not), and NCCL's RAS report,
read by ``settle`` after every other reader.

Each test reads a family that a blind round (10 to 16, issue #14) missed, from lines other than the corpus
case's own: another version's wording, prefix, host, plugin or numbers. Format strings are NCCL's, torch's and
cuda-gdb's (sources beside each test); numbers, hosts and peers are made up. A test sits in the family of the
detector that decides the verdict it asserts; a test that a verdict is NOT given sits beside the test of that
verdict."""

from __future__ import annotations

import pytest

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict
from tests.conftest import failure_record, nccl_info, watchdog_line


# --- NCCL's other errors and WARN families ------------------------------------------------------------------------
def test_a_ring_that_does_not_close_is_the_ranks_disagreeing_on_the_topology(tmp_path):
    """graph/rings.cc: "Error : ring %d does not loop back to start (%d != %d)" and "ring %d does not
    contain rank %d"."""
    for line in ("n1:5:9 [2] graph/rings.cc:40 NCCL WARN Error : ring 3 does not loop back to start (9 != 2)\n",
                 "n1:5:9 [2] graph/rings.cc:44 NCCL WARN Error : ring 1 does not contain rank 11\n"):
        v = _verdict(tmp_path, line)
        assert v["cause"] == "nccl_internal", (line, v)
        assert "NCCL_HOSTID" in v["fix"] and "topology" in v["fix"]


def test_a_topology_xml_missing_attribute_is_the_topology_file(tmp_path):
    line = "node3:50:50 [2] graph/xml.h:85 NCCL WARN Attribute vendor of node nic not found\n"
    v = _verdict(tmp_path, line)
    assert v["cause"] == "nccl_internal" and "NCCL_TOPO_FILE" in v["fix"], v


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


# NCCL enqueue.cc / init.cc: the graph-capture check of the runtime and driver NCCL was built against
def test_nccl_built_for_an_older_cuda_runtime_is_a_version_mismatch(tmp_path):
    text = ("node-e:77:77 [1] NCCL INFO NCCL version 2.18.1+cuda11.0\n"
            "node-e:77:90 [1] enqueue.cc:1190 NCCL WARN NCCL cannot be captured in a graph if either it wasn't "
            "built with CUDA runtime >= 11.3 or if the installed CUDA driver < R465.\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "nccl_internal" and v["culprits"] == [], v
    assert "reinstall" in v["fix"]


# NCCL graph/xml.cc and graph/topo.cc return-code trail after a failed sysfs read
def test_a_system_error_through_topology_detection_names_the_topology_file(tmp_path):
    text = ("RuntimeError: NCCL error in: ProcessGroupNCCL.cpp:1191, unhandled system error, NCCL version 2.10.3\n"
            "vm-9:500:520 [2] graph/xml.cc:340 NCCL WARN Could not find real path of /sys/class/pci_bus/0001:00/"
            "../../0001:00:04.0\n"
            + "".join(nccl_info("vm-9", 500, 2, f"{at} -> 2", tid=520)
                      for at in ("graph/xml.cc:658", "graph/topo.cc:611", "init.cc:880")))
    v = _verdict(tmp_path, text)
    assert v["cause"] == "nccl_system" and v["culprits"] == [], v
    assert "NCCL_TOPO_FILE" in v["fix"]


def test_a_proxy_call_failing_at_connect_is_network_setup(tmp_path):
    # proxy.cc ncclProxyCallBlocking, as torch quotes it under "Last error:"
    text = ("torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:317, "
            "internal error - please report this issue to the NCCL developers, NCCL version 2.21.5\n"
            "ncclInternalError: Internal check failed.\nLast error:\nProxy Call to rank 12 failed (Setup)\n")
    v = _report(tmp_path, text)["verdict"]
    assert (v["cause"], v["culprits"]) == ("network_setup", []), v
    assert "NCCL_SOCKET_IFNAME" in v["fix"]


# --- settings printed in the logs ---------------------------------------------------------------------------------
def test_torch_deprecation_of_a_variable_that_became_the_default(tmp_path):
    """ProcessGroupNCCL.cpp (torch 2.6+) TORCH_WARN_ONCE, here behind torchrun's rank tag and glog prefix."""
    v = _verdict(tmp_path, "[rank3]:[W1201 09:12:44.512000 ProcessGroupNCCL.cpp:1003] Warning: "
                 "TORCH_NCCL_AVOID_RECORD_STREAMS is the default now, this environment variable is thus deprecated. "
                 "(function operator())\n")
    assert v["cause"] == "config", v
    assert "TORCH_NCCL_AVOID_RECORD_STREAMS" in v["fix"]


def test_graph_file_set_by_the_environment_is_the_setting_to_unset(tmp_path):
    """NCCL's env log "%s set by environment to %s" (misc/param.cc; nccl.conf's values are put in the
    environment first), and a shell export of it: a forced ring/tree graph file."""
    for line in ("gpu-7:811:811 [3] NCCL INFO NCCL_GRAPH_FILE set by environment to /opt/vendor/ndv5/graph.xml\n",
                 "export NCCL_GRAPH_FILE=/opt/vendor/ndv5/graph.xml\n"):
        v = _verdict(tmp_path, line)
        assert v["cause"] == "config", (line, v)
        assert "NCCL_GRAPH_FILE" in v["fix"] and "unset" in v["fix"]


def test_a_graph_file_behind_a_blank_host_prefix_explains_the_graph_import_warn(tmp_path):
    """NCCL's "%s:%d:%d [%d]" prefix with an empty host name (a container without one, or a paste that blanked it:
    "::PID:TID [DEV]", " :PID:TID [DEV]") is still NCCL's line: its "set by environment" setting is read, and a
    graph file forced on this machine is the setting to unset, not an NCCL internal error (search.cc's
    "XML Import Channel : dev N not found" when the file names a device this machine lacks)."""
    for host in (":", " "):
        text = (f"{host}:2210:2290 [1] NCCL INFO comm 0x55d0 rank 1 nranks 2 cudaDev 1 busId 200000 - Init START\n"
                f"{host}:2210:2290 [1] NCCL INFO NCCL_GRAPH_FILE set by environment to /etc/vendor/nd96/graph.xml\n"
                f"{host}:2210:2290 [1] graph/search.cc:690 NCCL WARN XML Import Channel : dev 5 not found.\n"
                f"{host}:2210:2290 [1] NCCL INFO graph/search.cc:726 -> 2\n")
        v = _verdict(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("config", []), (host, v)
        assert "NCCL_GRAPH_FILE" in v["fix"] and "unset" in v["fix"], v


def test_graph_dump_file_alone_is_not_a_cause(tmp_path):
    v = _verdict(tmp_path, "gpu-7:811:811 [3] NCCL INFO NCCL_GRAPH_DUMP_FILE set by environment to /tmp/g.xml\n")
    assert v["cause"] != "config"


def test_no_algorithm_available_in_either_case_is_a_setting(tmp_path):
    for word in ("no", "No"):
        line = f"node3:50:50 [0] enqueue.cc:400 NCCL WARN Error : {word} algorithm/protocol available\n"
        v = _verdict(tmp_path, line)
        assert v["cause"] == "config" and "NCCL_ALGO" in v["fix"] and "CollNet" in v["fix"], (word, v)


def test_p2p_use_cuda_memcpy_in_a_launch_line_is_a_setting_to_unset(tmp_path):
    text = "srun --export=ALL,NCCL_P2P_USE_CUDA_MEMCPY=1 python train.py\nNCCL_P2P_USE_CUDA_MEMCPY=1\n"
    v = _verdict(tmp_path, text)
    assert v["cause"] == "config", v
    assert "NCCL_P2P_USE_CUDA_MEMCPY" in v["fix"] and "unset" in v["fix"]


# rule V(1) (round 36): a shell's ';' ends an exported value on a launcher's command line ("export NCCL_X=1; export
# ..."): valid settings so printed, with nothing failing, are none; a wrong value so printed stays config
def test_settings_exported_on_a_command_line_end_at_the_shells_separator(tmp_path):
    cmd = ("[2023-05-02 09:14:20,118] [INFO] [runner.py:412:main] cmd = pdsh -S -f 1024 -w gpu-3,gpu-4 export "
           "NCCL_IB_DISABLE=1; export NCCL_SOCKET_IFNAME=eth1;  cd /work; /opt/conda/bin/python -u -m "
           "deepspeed.launcher.launch --node_rank=%n --master_addr=gpu-3 --master_port=29511 pretrain.py\n")
    v = _verdict(tmp_path, cmd)
    assert v["cause"] == "none" and v["culprits"] == [], v
    bad = cmd.replace("NCCL_IB_DISABLE=1;", "NCCL_IB_DISABLE=yes;")
    assert _verdict(tmp_path, bad)["cause"] == "config"


# --- benign noise: the none verdict -------------------------------------------------------------------------------
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


def test_an_absent_collnet_plugin_is_named_harmless(tmp_path):
    """net.cc's INFO when the plugin library has no CollNet symbols."""
    text = ("node9:300:300 [4] NCCL INFO NET/Plugin: Failed to find ncclCollNetPlugin_v9 symbol.\n"
            "node9:300:300 [4] NCCL INFO Bootstrap : Using ens5:10.4.0.12<0>\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "none" and "harmless" in v["fix"] and "CollNet" in v["fix"], v


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


def test_cuda_gdb_peer_access_notices_are_harmless(tmp_path):
    text = ("[New Thread 0x7fff1234 (LWP 3301)]\n"
            "warning: Cuda API error detected: cudaDeviceCanAccessPeer returned (0x2c0)\n"
            "warning: Cuda API error detected: cudaPeekAtLastError returned (0x2c0)\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "none" and v["confidence"] == "medium", v  # harmless; nothing shows the job ended
    assert "shared memory" in v["fix"]


# Open MPI's smcuda BTL (opal/mca/shmem/mmap, btl_smcuda_component.c): "shmem: mmap: an error occurred while
# determining whether or not %s could be created." and "create_and_attach: unable to create shared memory BTL
# coordinating structure :: size %lu" -- start-up warnings the process goes on after (round 64, deepmd-kit-4595)
OMPI_SHMEM_WARN = ("[gpu-n7:02210] shmem: mmap: an error occurred while determining whether or not "
                   "/tmp/ompi.gpu-n7.1000/jf.0/2871984128/shared_mem_cuda_pool.gpu-n7 could be created.\n"
                   "[gpu-n7:02210] create_and_attach: unable to create shared memory BTL coordinating structure :: "
                   "size 134217728\n")


def test_open_mpi_shared_memory_btl_warnings_with_the_run_going_on_are_none(tmp_path):
    text = ("2025-03-01 10:00:00 INFO computing device: cuda:1\n" + OMPI_SHMEM_WARN
            + "2025-03-01 10:00:01 INFO epoch 0\n")
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("none", []), v
    assert "Open MPI" in v["fix"] and "harmless" in v["fix"] and "^smcuda" in v["fix"], v


def test_open_mpis_shared_memory_failing_outright_is_not_read_as_that_warning(tmp_path):
    """opal's help-opal-shmem-mmap.txt "sys call fail" is the shmem component failing on a system call, and an
    error after the BTL warnings is the news: neither becomes the harmless warning's none."""
    failed = ("--------------------------------------------------------------------------\n"
              "A system call failed during shared memory initialization that should\n"
              "not have.  It is likely that your MPI job will now either abort or\n"
              "experience performance degradation.\n")
    assert _verdict(tmp_path, failed)["cause"] != "none"
    crash = "RuntimeError: CUDA error: an illegal memory access was encountered\n"
    assert _verdict(tmp_path, OMPI_SHMEM_WARN + crash)["cause"] != "none"


# lead rules K, N, AZ (4): PMIx's shared-memory datastore lock message ("PMIX ERROR: ERROR in file
# .../src/mca/gds/ds12/gds_ds12_lock_pthread.c at line 169", PMIx's gds/ds12 component), printed by every process of
# an srun --mpi=pmix launch whose PMIx versions differ, with the run going on after it (round 66, llmc-pr426)
def test_pmix_datastore_lock_errors_with_the_run_going_on_are_none(tmp_path):
    text = "Allocated nodes:\ngpu-a1\ngpu-b12\n" + "".join(
        f"[gpu-{h}:{p}] PMIX ERROR: ERROR in file ../../../src/mca/gds/ds12/gds_ds12_lock_pthread.c at line 168\n"
        for h, p in (("a1", 7001), ("b12", 9102), ("a1", 7002)))
    text += "Started training: ProcessID:0, NumProcess:3\n| micro batch size B | 32 |\n"
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("none", []), v
    assert "PMIX_MCA_gds=hash" in v["fix"], v


def test_pmix_errors_in_other_files_or_a_failure_after_the_lock_message_are_not_none(tmp_path):
    """The near shapes: PMIx's error in another of its files (its server unreachable) is a failure the lines show,
    and a failure after the lock message is the news."""
    other = "[gpu-a1:7001] PMIX ERROR: UNREACHABLE in file ../../src/server/pmix_server.c at line 2795\n"
    assert _verdict(tmp_path, other)["cause"] != "none"
    lock = "[gpu-a1:7001] PMIX ERROR: ERROR in file gds_ds21_lock_pthread.c at line 99\n"
    crash = "RuntimeError: CUDA error: an illegal memory access was encountered\n"
    assert _verdict(tmp_path, lock + crash)["cause"] != "none"


def test_start_up_info_alone_says_there_is_no_failure(tmp_path):
    text = ("[I ProcessGroupNCCL.cpp:665] [Rank 3] ProcessGroupNCCL initialization options:"
            "NCCL_ASYNC_ERROR_HANDLING: 1\n")
    v = _report(tmp_path, text)["verdict"]
    assert v["cause"] == "none" and "no failure" in v["fix"], v


# lead rule AD(3): NCCL's listening socket refusing a connection from outside the job (a scanner, a health check):
# "wrong magic", the foreign peer leaving during the accept handshake on the thread that then says "[Service thread]
# Accept failed Success" -- with nothing failing after them, none; a job connection closed on another thread, or a
# timeout after them, is not (round 36)
def test_nccl_refusing_a_foreign_connection_on_its_listening_socket_is_none(tmp_path):
    refusal = ("gpu-a17:51020:51388 [6] misc/socket.cc:441 NCCL WARN socketFinalizeAccept: wrong magic 4702111234 != "
               "2cf0a11b3e7d9955\n"
               "gpu-a17:51023:51402 [1] misc/socket.cc:52 NCCL WARN socketProgress: Connection closed by remote peer "
               "198.51.100.23<61220>\n"
               + nccl_info("gpu-a17", 51023, 1, "misc/socket.cc:60 -> 6", tid=51402)
               + nccl_info("gpu-a17", 51023, 1, "misc/socket.cc:437 -> 6", tid=51402)
               + "gpu-a17:51023:51402 [1] proxy.cc:1530 NCCL WARN [Service thread] Accept failed Success\n")
    d = _report(tmp_path, refusal)
    v = d["verdict"]
    assert v["cause"] == "none" and v["culprits"] == [] and not _accused(d), v
    assert "NCCL_SOCKET_IFNAME" in v["fix"], v
    # the job's own connection closed on another thread (its proxy progress) stays rule O's peer gone
    other = refusal + ("gpu-a17:51023:51455 [1] misc/socket.cc:52 NCCL WARN socketProgress: Connection closed by "
                       "remote peer 10.4.2.9<40112>\n")
    assert _verdict(tmp_path, other)["cause"] == "early_exit"
    # and a timeout after the refusal is a failure of its own
    late = refusal + watchdog_line(1, 88, "ALLREDUCE", 600011, 600000)
    assert _verdict(tmp_path, late)["cause"] != "none"


# lead rules K, AD (3) (round 48): NCCL's bootstrap remote-allocator thread (2.7-2.8) served a connection that is not a
# peer of this NCCL and got a garbage size: its "Cuda failure 'out of memory'", the peer's "Connection closed" and the
# "[Rem Allocator] Allocation failed" are all that thread's; with nothing else failing, none (not gpu_oom, not the
# bootstrap's network). An OOM on another thread, or a timeout after them, is not
def _rem_allocator(host: str, pid: int, tid: int, dev: int, peer: str, fd: int) -> str:
    return (f"{host}:{pid}:{tid} [{dev}] include/socket.h:423 NCCL WARN Net : Connection closed by remote peer "
            f"{peer}<{40000 + fd}>\n"
            + nccl_info(host, pid, dev, "include/socket.h:445 -> 2", tid=tid)
            + nccl_info(host, pid, dev, "bootstrap.cc:229 -> 2", tid=tid)
            + f"{host}:{pid}:{tid} [{dev}] bootstrap.cc:279 NCCL WARN [Rem Allocator] Allocation failed (segment 0, "
              f"fd {fd})\n"
            + f"{host}:{pid}:{tid} [{dev}] include/alloc.h:48 NCCL WARN Cuda failure 'out of memory'\n"
            + nccl_info(host, pid, dev, "bootstrap.cc:231 -> 1", tid=tid))


def test_nccls_remote_allocator_failing_a_foreign_request_is_none(tmp_path):
    for host, pid, tid, dev, peer, fd in (("node-b7", 41, 311, 0, "10.0.0.4", 130),
                                          ("7f3ac9e1d2000001", 2207, 2291, 3, "172.16.8.21", 57)):
        text = _rem_allocator(host, pid, tid, dev, peer, fd) + "Train Epoch: 2 [6400/50000 (13%)]\tLoss: 0.412\n"
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("none", []) and not _accused(d), v
        assert "same NCCL version on every node" in v["fix"], v
    text = _rem_allocator("node-b7", 41, 311, 0, "10.0.0.4", 130)
    # the job's own OOM on another thread (its main thread) is an OOM
    own = text + "node-b7:41:41 [0] include/alloc.h:48 NCCL WARN Cuda failure 'out of memory'\n"
    assert _verdict(tmp_path, own)["cause"] == "gpu_oom"
    # and a timeout after them is a failure of its own
    assert _verdict(tmp_path, text + watchdog_line(0, 31, "ALLREDUCE", 600042, 600000))["cause"] != "none"


# lead rule K (round 48): the job's own record that it finished ("Training Completed Successfully!", "Training job
# finished successfully"), then NCCL's INFO return-code trail through socket.cc and "Abort COMPLETE": the
# communicators torn down at exit, none; the same trail with no such record before it stays NCCL's socket layer
def _teardown_trail(host: str, pid: int, tid: int, rank: int, nranks: int) -> str:
    return ("".join(nccl_info(host, pid, 0, f"misc/socket.cc:{n} -> 3", tid=tid) for n in (47, 58, 781))
            + nccl_info(host, pid, 0, f"comm 0x5f1c2a3b40e0 rank {rank} nranks {nranks} cudaDev 0 busId 1e0 - "
                        "Abort COMPLETE", tid=tid))


def test_nccls_info_trail_after_the_job_recorded_its_success_is_teardown(tmp_path):
    for done, trail in (
            ("=====\n✅ Training Completed Successfully!\n[Rank 0] Training job finished successfully!\n",
             _teardown_trail("gpu-st-1", 7614, 9432, 0, 2) + _teardown_trail("gpu-st-2", 7070, 11027, 1, 2)),
            ("2025-03-02 10:12:01 INFO run finished successfully\n",
             _teardown_trail("worker-3", 210, 388, 5, 8))):
        d = _report(tmp_path, done + trail)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("none", []) and not _accused(d), v
        assert "teardown" in v["summary"] and "destroy_process_group" in v["fix"], v
    # the same trail with no record that the job finished is NCCL's socket layer failing
    assert _verdict(tmp_path, _teardown_trail("worker-3", 210, 388, 5, 8))["cause"] == "network_setup"


# --- NCCL's RAS report, read by settle ----------------------------------------------------------------------------
RAS_HEAD = """NCCL version 2.26.2 compiled with CUDA 12.6
CUDA runtime version 12060, driver version 12060

Job summary
===========

  Nodes  Processes         GPUs  Processes     GPUs
(total)   per node  per process    (total)  (total)
      2          8            1         16       16

Communicators... (0.00s)
=============

Group     Comms     Nodes     Ranks     Ranks     Ranks    Status  Errors
    #  in group  per comm  per node  per comm  in group
    0         1         2         8        16        16   RUNNING  MISMATCH

Errors
======

Warnings
========

#0-0 (5c0ffee0badd00d5) MISMATCH
"""


def test_ras_mismatch_with_the_many_behind_names_nobody_and_clears_the_listed(tmp_path):
    """NCCL RAS (ras/client_support.cc): the listed outliers are AHEAD, waiting; the 14 behind are not listed."""
    v = _verdict(tmp_path, RAS_HEAD + "  Communicator ranks have different ReduceScatter operation counts\n"
                 "  14 ranks have launched up to operation 90\n"
                 "  2 ranks have launched up to operation 91\n"
                 "  Rank 3 -- GPU 3 managed by process 7001 on node 10.0.0.1\n"
                 "  Rank 9 -- GPU 1 managed by process 7102 on node 10.0.0.2\n", "ras.txt")
    assert v["cause"] == "rank_missing", v
    assert v["culprits"] == [] and v["confidence"] == "low"
    assert "14 rank" in v["fix"]


def test_ras_mismatch_with_one_rank_behind_names_it(tmp_path):
    """The lone-outlier wording: "Rank %d has launched up to operation %ld -- GPU %s managed by ..."."""
    v = _verdict(tmp_path, RAS_HEAD + "  Communicator ranks have different AllReduce operation counts\n"
                 "  15 ranks have launched up to operation 64\n"
                 "  Rank 7 has launched up to operation 60 -- GPU 7 managed by process 7106 on node 10.0.0.1\n",
                 "ras.txt")
    assert v["cause"] == "rank_missing", v
    assert v["culprits"] == [7] and v["confidence"] == "medium"


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
            + watchdog_line(5, 7710, "ALLREDUCE", 600009, 600000, numel=4096, stamp="E1002 11:00:00.100", at=632))
    v = _verdict(tmp_path, text)
    assert v["cause"] != "none", v


# --- ncclSystemError with no network cause: the devices each process sees, an old NCCL ---------------------
def test_a_bare_system_error_on_an_old_nccl_says_devices_and_upgrade(tmp_path):
    text = ("RuntimeError: NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:784, unhandled system error, "
            "NCCL version 2.4.8\n")
    v = _report(tmp_path, text)["verdict"]
    assert v["cause"] == "nccl_system" and "CUDA_VISIBLE_DEVICES" in v["fix"] and "upgrade" in v["fix"], v
    new = text.replace("2.4.8", "2.21.5")
    assert "is old" not in _report(tmp_path, new)["verdict"]["fix"]


# --- a TCPStore reset printed before the process group existed: the client's retried connect ---------------
_RESET = ("{p}[W1102 03:04:05.123456789 TCPStore.cpp:125] [c10d] recvValue failed on SocketImpl(fd=5, "
          "addr=[n12]:51000, remote=[n01]:29400): Connection reset by peer\n")


def test_a_store_reset_before_the_group_existed_is_a_transient_retry(tmp_path):
    v = _report(tmp_path, _RESET.format(p=""))["verdict"]
    assert v["cause"] == "none" and "retr" in v["summary"], v


def test_a_store_reset_after_the_group_existed_is_the_store_host_dying(tmp_path):
    """...when the rank fails after it (its store call raising); the warning alone is none (lead rule N, below)."""
    fails = ("[rank4]: Traceback (most recent call last):\n[rank4]:   File \"/app/run.py\", line 40, in <module>\n"
             "[rank4]:     dist.barrier()\n[rank4]: torch.distributed.DistNetworkError: failed to recv, got 0 bytes\n")
    v = _report(tmp_path, _RESET.format(p="[rank4]:") + fails)["verdict"]
    assert v["cause"] != "none" and "died" in v["summary"], v


# --- rule A on NCCL's internal error: the one process torchrun shows failing -------------------------------
def test_an_internal_error_of_the_lone_failed_rank_names_it(tmp_path):
    text = ("RuntimeError: NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:911, internal error, NCCL "
            "version 2.8.3\n"
            "ncclInternalError: Internal check failed. This is either a bug in NCCL or due to memory corruption\n"
            "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 2 (pid: 991) of "
            "binary: /opt/py/bin/python\n")
    v = _report(tmp_path, text)["verdict"]
    assert (v["cause"], v["culprits"]) == ("nccl_internal", [2]), v
    assert "NCCL_DEBUG=INFO" in v["fix"] and "upgrade" in v["fix"]
    alone = text.rsplit("ERROR:", 1)[0]
    assert _report(tmp_path, alone)["verdict"]["culprits"] == []


def test_a_system_error_of_the_lone_failed_rank_names_it(tmp_path):
    """Rule A on ncclSystemError (no Last error, no network cause): the one worker torchrun records failing is the rank
    whose system call failed; with no record, or two ranks failing, nobody is named."""
    text = ("[E ProcessGroupNCCL.cpp:1203] RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/"
            "ProcessGroupNCCL.cpp:1169, unhandled system error, NCCL version 2.10.3\n"
            "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.\n"
            "WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 5120 closing signal SIGTERM\n"
            "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 1 (pid: 5121) of "
            "binary: /venv/bin/python3\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"], v["confidence"]) == ("nccl_system", [1], "medium"), v
    assert "/dev/shm" in v["fix"] and "local rank 1" in v["summary"]
    alone = text.split("WARNING:", 1)[0]
    assert _report(tmp_path, alone)["verdict"]["culprits"] == []
    two = text + ("ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 5120) "
                  "of binary: /venv/bin/python3\n")
    assert _report(tmp_path, two)["verdict"]["culprits"] == []


# --- round 17: a log that stops in set-up is a hang, not "nothing wrong" ---------------------------------------
# NCCL 2.18-style set-up chatter (init.cc, graph/connect.cc); hosts, pids and bus ids made up.
def _setup(host: str, pid: int, rank: int, peer: str) -> str:
    return "".join(nccl_info(host, pid, rank, text, tid=pid + 40) for text in (
        f"Setting affinity for GPU {rank} to 0fff", f"Trees [0] -1/-1/-1->{rank}->1 [1] 1/-1/-1->{rank}->-1",
        f"Channel 00/0 : {rank}[1b000] -> {peer} via P2P/CUMEM"))


def test_a_single_node_log_that_stops_in_nccl_set_up_is_the_p2p_path(tmp_path):
    text = _setup("box7", 3100, 0, "1[3d000]") + _setup("box7", 3101, 1, "0[1b000]")
    v = _verdict(tmp_path, text)  # lead rule K (session 6): set-up chatter alone is none, low, with what to collect
    assert (v["cause"], v["culprits"], v["confidence"]) == ("none", [], "low"), v
    assert "NCCL_P2P_DISABLE" in v["fix"] and "IOMMU" in v["fix"]
    done = text + "box7:3100:3140 [0] NCCL INFO comm 0x5a rank 0 nranks 2 cudaDev 0 busId 1b000 - Init COMPLETE\n"
    assert _verdict(tmp_path, done)["cause"] == "none", "past Init COMPLETE the chatter is no hang"


def test_set_up_that_stops_while_connecting_over_the_network_is_unknown_with_what_to_collect(tmp_path):
    text = (_setup("nodeA", 51, 0, "1[3d000]") +
            "nodeA:51:91 [0] NCCL INFO Channel 01/0 : 3[2c000] -> 0[1b000] [receive] via NET/IB/0\n"
            "nodeA:51:91 [0] NCCL INFO Channel 01/0 : 0[1b000] -> 3[2c000] [send] via NET/IB/0\n")
    v = _verdict(tmp_path, text)  # lead rule K (session 6): none, low, the fix says what to collect
    assert (v["cause"], v["culprits"], v["confidence"]) == ("none", [], "low"), v
    assert "NCCL_DEBUG=INFO" in v["fix"] and "py-spy" in v["fix"] and "NCCL_SOCKET_IFNAME" in v["fix"]


def test_an_nccl_tests_run_that_printed_its_header_and_no_row_hung_in_its_first_collective(tmp_path):
    head = ("# nThread 1 nGpus 4 minBytes 1024 maxBytes 1048576 step: 4(factor) warmup iters: 5 iters: 20\n"
            "#  Rank  0 Group  0 Pid   9001 on   rig-3 device  0 [0x17] NVIDIA GeForce RTX 3090\n"
            "#  Rank  1 Group  0 Pid   9001 on   rig-3 device  1 [0x65] NVIDIA GeForce RTX 3090\n"
            "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw\n")
    v = _verdict(tmp_path, head)
    assert (v["cause"], v["culprits"]) == ("network_setup", []), v
    assert "NCCL_P2P_DISABLE" in v["fix"]
    row = "        1024           256     float     sum      -1    18.52    0.06    0.08      0    18.10    0.06\n"
    assert _verdict(tmp_path, head + row)["cause"] == "none", "a result row: the collective ran"


def test_none_is_high_only_with_evidence_that_the_job_ended(tmp_path):
    start = "trainer:77:77 [0] NCCL INFO NET/Plugin : No plugin found (libnccl-net.so), using internal implementation\n"
    assert _verdict(tmp_path, start)["confidence"] == "medium"
    end = ("[rank0]:[W1201 10:00:00.000000000 ProcessGroupNCCL.cpp:1250] Warning: WARNING: destroy_process_group() was "
           "not called before program exit, which can leak resources.\n")
    v = _verdict(tmp_path, start + end)
    assert (v["cause"], v["confidence"]) == ("none", "high"), v


def test_forced_settings_of_a_benchmark_that_completed_are_not_its_failure(tmp_path):
    text = ("mpirun -np 2 -x NCCL_PROTO=LL -x NCCL_ALGO=Tree ./build/all_gather_perf -b 8 -e 64M\n"
            "#  Rank  0 Group  0 Pid  400 on hostA device  0 [0x3b] Tesla T4\n"
            "hostA:400:400 [0] misc/ibvwrap.cc:119 NCCL WARN Failed to open libibverbs.so[.1]\n"
            "           8             1     float    none      -1    21.44    0.00    0.00      0    20.90    0.00\n"
            "# Avg bus bandwidth    : 1.2345\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "none" and "libibverbs" in v["fix"], v


def test_the_proxy_service_failing_a_set_up_operation_is_the_network_between_the_nodes(tmp_path):
    """proxy.cc: "[Service thread] Error encountered progressing operation=%s, res=%d, closing connection"."""
    text = ("RuntimeError: NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled system error, NCCL version 2.21.5\n"
            "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.\n"
            "Last error:\n"
            "[Service thread] Error encountered progressing operation=Setup, res=2, closing connection\n")
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("network_setup", []), v
    assert "NCCL_SOCKET_IFNAME" in v["fix"]


def test_rings_that_disagree_accuse_nobody_even_with_timestamps(tmp_path):
    text = ("2025-03-01 10:00:01 31: gpu-z:800:900 [7] graph/rings.cc:38 NCCL WARN Error : ring 2 does not loop back "
            "to start (24 != 31)\n"
            "2025-03-01 10:00:02 31: RuntimeError: NCCL error in: ProcessGroupNCCL.cpp:1100, internal error\n"
            "2025-03-01 10:00:03 29: RuntimeError: NCCL error in: ProcessGroupNCCL.cpp:1100, internal error\n")
    d = _report(tmp_path, text)
    assert d["verdict"]["cause"] == "nccl_internal" and _accused(d) == set(), d["verdict"]


# --- the barrier's device warning (round 18) ----------------------------------------------------------------------
def test_the_barriers_unknown_device_warning_alone_is_harmless_with_the_device_id_fix(tmp_path):
    """ProcessGroupNCCL::barrier's TORCH_WARN in three torch versions: 1.x "Rank %d using best-guess GPU %d to
    perform barrier as devices used by this process are currently unknown", 2.x "using GPU %d to perform barrier
    ...", and 2.8's Python UserWarning from distributed_c10d.barrier "No device id is provided via
    `init_process_group` or `barrier `"."""
    for text in ("[W ProcessGroupNCCL.cpp:1812] Rank 3 using best-guess GPU 3 to perform barrier as devices used by "
                 "this process are currently unknown. This can potentially cause a hang if this rank to GPU mapping "
                 "is incorrect.Specify device_ids in barrier() to force use of a particular device.\n",
                 "[rank6]:[W305 08:01:02.123456789 ProcessGroupNCCL.cpp:4561] [PG ID 0 PG GUID 0 Rank 6]  using GPU 6 "
                 "to perform barrier as devices used by this process are currently unknown. This can potentially "
                 "cause a hang if this rank to GPU mapping is incorrect.\n",
                 "/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py:4809: UserWarning: No "
                 "device id is provided via `init_process_group` or `barrier `. Using the current device set by the "
                 "user.\n  warnings.warn(  # warn only once\n"):
        d = _report(tmp_path, text)
        assert d["verdict"]["cause"] == "none", (text, d["verdict"])
        assert "device_id" in d["verdict"]["fix"] and "harmless" in d["verdict"]["fix"], d["verdict"]
        assert _accused(d) == set()


def test_the_barriers_device_warning_wrapped_over_lines_is_still_the_harmless_warning(tmp_path):
    """Round 30: the long TORCH_WARN wrapped by the paste, so 'this process are currently unknown' is on the next
    line; its first words ('GPU N to perform barrier') already say which warning it is."""
    for text in ("[W ProcessGroupNCCL.cpp:2044] Rank 5 using best-guess GPU 5 to perform barrier as devices\n"
                 "used by this process are currently unknown. This can potentially cause a hang if this\n"
                 "rank to GPU mapping is incorrect. Specify device_ids in barrier() to force use of a device.\n",
                 "[rank2]:[W1203 11:22:33.4 ProcessGroupNCCL.cpp:4105] [PG ID 0 PG GUID 0 Rank 2]  using GPU 2 to "
                 "perform barrier\n[rank2]: as devices used by this process are currently unknown.\n"):
        d = _report(tmp_path, text)
        assert d["verdict"]["cause"] == "none", (text, d["verdict"])
        assert "device_ids=[local_rank]" in d["verdict"]["fix"] and "set_device" in d["verdict"]["fix"], d["verdict"]
        assert _accused(d) == set()


def test_the_barriers_device_warning_beside_a_timeout_does_not_make_it_harmless(tmp_path):
    text = ("[rank1]:[W305 08:01:02.1 ProcessGroupNCCL.cpp:4561] [PG ID 0 PG GUID 0 Rank 1]  using GPU 1 to perform "
            "barrier as devices used by this process are currently unknown.\n"
            + watchdog_line(1, 1, "ALLREDUCE", 1800093, 1800000, numel=1, stamp="E305 08:31:02.1", at=632))
    assert _verdict(tmp_path, text)["cause"] != "none"


# --- a bare ncclRemoteError (round 20 preparation) ------------------------------------------------------------------
def test_a_bare_remote_error_without_its_last_error_names_no_cause(tmp_path):
    """ncclGetErrorString(ncclRemoteError) is "remote process exited or there was a network error": NCCL's own
    either-or. Pasted without its "Last error:" line (torch 1.13's c10d/ProcessGroupNCCL.cpp and 2.4's
    NCCLUtils.hpp wordings, with and without a rank tag), nothing tells the two apart: cause unknown, nobody named,
    and the fix asks for the Last error line and the other ranks' logs."""
    for text in ("RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1269, remote "
                 "process exited or there was a network error, NCCL version 2.14.3\n"
                 "ncclRemoteError: A call failed possibly due to a network error or a remote process exiting "
                 "prematurely.\n",
                 "[rank5]: torch.distributed.DistBackendError: NCCL error in: /opt/pytorch/torch/csrc/distributed/"
                 "c10d/NCCLUtils.hpp:317, remote process exited or there was a network error, NCCL version 2.20.5\n"
                 "[rank5]: ncclRemoteError: A call failed possibly due to a network error or a remote process "
                 "exiting prematurely.\n"):
        d = _report(tmp_path, text)
        assert d["verdict"]["cause"] == "unknown" and _accused(d) == set(), (text, d["verdict"])
        assert "Last error" in d["verdict"]["fix"] and "other ranks" in d["verdict"]["fix"], d["verdict"]


def test_a_remote_error_whose_last_error_says_the_peer_closed_stays_an_early_exit(tmp_path):
    text = ("[rank2]: torch.distributed.DistBackendError: NCCL error in: /opt/pytorch/torch/csrc/distributed/c10d/"
            "NCCLUtils.hpp:317, remote process exited or there was a network error, NCCL version 2.20.5\n"
            "[rank2]: ncclRemoteError: A call failed possibly due to a network error or a remote process exiting "
            "prematurely.\n"
            "[rank2]: Last error:\n"
            "[rank2]: socketProgressOpt: Call to recv from 10.2.0.7<44120> failed : Connection closed by remote "
            "peer\n")
    d = _report(tmp_path, text)
    assert d["verdict"]["cause"] == "early_exit" and _accused(d) == set(), d["verdict"]


# --- lead rule K: NCCL's set-up chatter alone, and what it shows (session 6) ----------------------------------------
def test_set_up_chatter_over_an_external_net_plugin_names_the_plugin_and_the_settings_shown(tmp_path):
    """NCCL 2.19's INFO lines when a libnccl-net.so plugin carries the traffic ("Using network IBext_v8", AWS's
    "Using network AWS Libfabric"): nothing fails (rule K), and the fix says NCCL_IB_DISABLE does not turn the
    plugin off (NCCL_NET / NCCL_NET_PLUGIN do) and names the NCCL_* settings the lines echo."""
    text = ("gpu-st-p4d-1:20114:20114 [3] NCCL INFO NCCL_SOCKET_IFNAME set by environment to ens32\n"
            "gpu-st-p4d-1:20114:20250 [3] NCCL INFO NET/OFI Using aws-ofi-nccl 1.7.4-aws\n"
            "gpu-st-p4d-1:20114:20250 [3] NCCL INFO Using network AWS Libfabric\n"
            "gpu-st-p4d-1:20114:20250 [3] NCCL INFO comm 0x7f1 rank 3 nranks 16 cudaDev 3 nvmlDev 3 busId 201c0 - "
            "Init START\n"
            "gpu-st-p4d-1:20114:20250 [3] NCCL INFO Trees [0] 4/-1/-1->3->2 [1] 4/-1/-1->3->2\n"
            "gpu-st-p4d-1:20114:20250 [3] NCCL INFO Channel 00/0 : 3[201c0] -> 4[101c0] [send] via NET/AWS "
            "Libfabric/0/GDRDMA\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"], v["confidence"]) == ("none", [], "low"), v
    assert "NCCL_NET" in v["fix"] and "NCCL_SOCKET_IFNAME=ens32" in v["fix"], v["fix"]


# rule K (round 36): set-up chatter over the network that ends at 'Init COMPLETE' with nothing failing -- if the job
# hangs after it, the fix also says to test NCCL's transport between the hosts alone (nccl-tests)
def test_network_set_up_chatter_alone_names_nccl_tests_across_the_hosts(tmp_path):
    text = "".join(nccl_info("", 7310, 1, t, tid=7388) for t in (
        "Ring 00 : 3 -> 2 [receive] via NET/IB/1", "Ring 00 : 2 -> 3 [send] via NET/IB/1",
        "NCCL_IB_HCA set by environment to mlx5_1.", "comm 0x55d0c1e0 rank 2 nranks 4 cudaDev 1 nvmlDev 1 - "
        "Init COMPLETE"))
    v = _verdict(tmp_path, text)
    assert v["cause"] == "none" and v["culprits"] == [], v
    assert "nccl-tests" in v["fix"] and "NCCL_DEBUG=INFO" in v["fix"], v["fix"]


# rule K (round 36): the bootstrap uses only the first interface it lists; the host's bridges and veths listed after a
# routable first one, with the data on IB (OOB on that first one) and nothing failing, are chatter -- where NCCL's
# socket transport lists them (it uses them all), they stay the interfaces chosen wrong
def test_virtual_interfaces_the_bootstrap_only_lists_after_a_routable_first_are_chatter(tmp_path):
    boot = "".join(nccl_info(h, p, 0, f"Bootstrap : Using [0]ib0:10.40.3.{n}<0> [1]docker0:172.17.0.1<0> "
                             "[2]veth3a91c2e:fe80::a8c1:4ff:fe22:9b1%veth3a91c2e<0> [3]br-7e1d0c2a91f3:172.18.0.1<0>")
                   + nccl_info(h, p, 0, f"NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:10.40.3.{n}<0>")
                   + nccl_info(h, p, 0, "Using network IB")
                   for h, p, n in (("trn-07", 4412, 7), ("trn-08", 5120, 8)))
    v = _verdict(tmp_path, boot)
    assert v["cause"] == "none" and v["culprits"] == [], v
    sock = boot.replace("NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:10.40.3.8<0>",
                        "NET/Socket : Using [0]ib0:10.40.3.8<0> [1]docker0:172.17.0.1<0>")
    assert _verdict(tmp_path, sock)["cause"] == "network_setup"


# --- lead rule L: TCPStore's retried connect warnings with nothing failing after them ---------------------------------
_RETRY = ("[W1130 22:41:07.553201 8123 torch/csrc/distributed/c10d/TCPStore.cpp:358] [c10d] TCP client failed to "
          "connect/validate to host node-a7:23456 - retrying (try={n}, timeout=600000ms, delay={d}ms): Connection "
          "refused\n")


def test_store_connect_retries_with_nothing_failing_after_them_are_none(tmp_path):
    """TCPStore warns of each connect attempt it retries while rank 0's store is not up yet; with no timeout or
    error after them nothing failed (rule L with rule K): none at low confidence, the fix saying what to collect."""
    d = _report(tmp_path, _RETRY.format(n=0, d=312) + _RETRY.format(n=1, d=1207))
    v = d["verdict"]
    assert v["cause"] == "none" and v["confidence"] == "low" and _accused(d) == set(), v
    assert "nc -zv node-a7 23456" in v["fix"], v


def test_store_connect_retries_followed_by_the_stores_timeout_are_the_store(tmp_path):
    log = _RETRY.format(n=0, d=312) + ("torch.distributed.DistNetworkError: The client socket has timed out after "
                                       "600000ms while trying to connect to (node-a7, 23456).\n")
    assert _verdict(tmp_path, log)["cause"] == "store_rendezvous"


def test_the_store_socket_not_yet_listening_will_retry_alone_is_none(tmp_path):
    """c10d's socket warning that the store's server "is not yet listening (errno: 111 - Connection refused), will
    retry" is the same retried connect (pytorch-73114's shape with other hosts, ports, source lines and a rank
    prefix): with nothing failing after it none, the fix naming the endpoint to check; the store's timeout after it
    is still the store. A refused connection that is not retried is still read as a failure."""
    for head, host, port in (("[W socket.cpp:701]", "jean-zay-iam01-ib0", 55035),
                             ("[rank3]:[W1106 09:14:52.108223 socket.cpp:558] [c10d]", "10.2.0.17", 29500)):
        warn = (f"{head} The server socket on [{host}]:{port} is not yet listening (errno: 111 - Connection refused), "
                "will retry\n")
        d = _report(tmp_path, warn * 2)
        v = d["verdict"]
        assert v["cause"] == "none" and _accused(d) == set(), v
        assert f"nc -zv {host} {port}" in v["fix"] and "will retry" in v["fix"], v
        late = warn + (f"torch.distributed.DistNetworkError: The client socket has timed out after 600000ms while "
                       f"trying to connect to ({host}, {port}).\n")
        assert _verdict(tmp_path, late)["cause"] == "store_rendezvous"
    refused = ("[W socket.cpp:601] [c10d] The client socket has failed to connect to [node-b2]:29500 (errno: 111 - "
               "Connection refused).\nRuntimeError: Connection refused\n")
    assert _verdict(tmp_path, refused)["cause"] != "none"


def test_store_connect_retry_whose_own_error_is_the_spent_connect_timeout_is_the_store(tmp_path):
    """A [W] 'retrying' warning whose own error is the client socket timing out after the whole connect budget
    (timeout=N ms, timed out after N ms) is a store that could not be reached (rules L, Y), not a transient retry:
    store_rendezvous, no rank named. A shorter socket timeout than the budget is one attempt, still retried."""
    spent = ("[W0412 03:17:55.201884113 TCPStore.cpp:358] [c10d] TCP client failed to connect/validate to host "
             "trn-17.lab:29511 - retrying (try=0, timeout={t}ms, delay=4021ms): The client socket has timed out "
             "after {s}ms while trying to connect to (trn-17.lab, 29511).\n"
             "Exception raised from throwTimeoutError at ../torch/csrc/distributed/c10d/socket.cpp:1013 (most "
             "recent call first):\n")
    d = _report(tmp_path, spent.format(t=1800000, s=1800000))
    v = d["verdict"]
    assert v["cause"] == "store_rendezvous" and _accused(d) == set(), v
    assert _verdict(tmp_path, spent.format(t=1800000, s=30000))["cause"] == "none"


def test_store_client_einval_warnings_retried_with_nothing_failing_are_benign(tmp_path):
    """Lead rule L: c10d's [W] store-client warnings that an address of the store's host could not be used
    ("errno: 22 - Invalid argument", newer torch's glog-style prefix here) are attempts torch retries at the next
    address; with nothing failing after them the reading is none. A store timeout after them is still read."""
    warn = "".join(f"[W1130 08:1{i}:02.51{i}000 socket.cpp:752] [c10d] The client socket has failed to connect to "
                   f"[gpu-b12.cluster.local]:41873 (errno: 22 - Invalid argument).\n" for i in range(3))
    assert _verdict(tmp_path, warn)["cause"] == "none"
    failed = warn + ("[E1130 08:41:02.510000000 socket.cpp:1023] [c10d] The client socket has timed out after "
                     "1800000ms while trying to connect to (gpu-b12.cluster.local, 41873).\n")
    assert _verdict(tmp_path, failed)["cause"] == "store_rendezvous"


def test_nccls_collective_mismatch_hint_is_a_desync_naming_nobody(tmp_path):
    """NCCL's init.cc hint "this may be caused by a collective mismatch around rank N" (here from a host-prefixed
    line of GPU 6, naming rank 11) says the ranks issued different collectives: desync, and the rank it names is
    where to look, not a proven culprit (lead rule D without SeqNums: culprits unknown)."""
    text = ("node-b07:20117:20391 [6] init.cc:1302 NCCL WARN Your program may be hanging, this may be caused by a "
            "collective mismatch around rank 11. Please check your collective calls at and around this rank. You can "
            "use NCCL_DEBUG=INFO and NCCL_DEBUG_SUBSYS=COLL to see the collective logs\n")
    d = _report(tmp_path, text)
    assert d["verdict"]["cause"] == "desync", d["verdict"]
    assert not _accused(d) and "NCCL_DEBUG_SUBSYS=COLL" in d["verdict"]["fix"]


# --- session 7 (f3) ------------------------------------------------------------------------------------------------
_CHECK_FRAMES = (
    "Exception raised from recvBytes at /opt/pytorch/torch/csrc/distributed/c10d/Utils.hpp:671 (most recent call "
    "first):\n"
    "frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x98 (0x7f1c2a0b33d8 in /usr/lib/python3/"
    "site-packages/torch/lib/libc10.so)\n"
    "frame #1: <unknown function> + 0x5a1c0e2 (0x7f1c1e81c0e2 in /usr/lib/python3/site-packages/torch/lib/"
    "libtorch_cpu.so)\n"
    "frame #2: c10d::TCPStore::check(std::vector<std::string, std::allocator<std::string> > const&) + 0x2b1 "
    "(0x7f1c1e8172a1 in /usr/lib/python3/site-packages/torch/lib/libtorch_cpu.so)\n")


def test_a_store_reset_seen_by_a_check_poll_is_the_store_host_gone_at_teardown(tmp_path):
    """TCPStore.cpp's "[c10d] recvValue failed on SocketImpl(...): Connection reset by peer" whose own frames are
    TCPStore::check (a poll of a key, the heartbeat monitor's): the store's host exited first; nothing failed."""
    warn = ("[W0412 21:03:55.118220431 TCPStore.cpp:125] [c10d] recvValue failed on SocketImpl(fd=11, "
            "addr=[node-3]:41882, remote=[node-3]:29650): Connection reset by peer\n")
    v = _verdict(tmp_path, warn + _CHECK_FRAMES)
    assert v["cause"] == "none" and v["culprits"] == [], v
    assert "store host exited first" in v["fix"] and "destroy_process_group before exit" in v["fix"], v["fix"]
    alone = _verdict(tmp_path, warn, "alone.log")  # no frames: the client's connect/validate retry, as before
    assert alone["cause"] == "none" and "store host exited first" not in alone["fix"], alone


def test_the_launch_modules_deprecation_warning_says_torchrun_and_local_rank(tmp_path):
    """torch/distributed/launch.py's FutureWarning (lead rule L: none): the fix says what silences it."""
    text = ("/usr/local/lib/python3.9/dist-packages/torch/distributed/launch.py:181: FutureWarning: The module "
            "torch.distributed.launch is deprecated\nand will be removed in future. Use torchrun.\n"
            "Note that --use-env is set by default in torchrun.\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "none" and v["culprits"] == [], v
    assert "use torchrun" in v["fix"] and "LOCAL_RANK" in v["fix"], v["fix"]


def test_deepspeeds_nccl_backend_not_implemented_warning_is_benign_and_says_it_falls_back(tmp_path):
    """Round 34: DeepSpeed's comm.py warns "NCCL backend in DeepSpeed not yet implemented" at every start (its own
    backend is absent; it uses torch.distributed's NCCL): none, and the fix says so and where the real error is."""
    lines = []
    for t in ("10:01:02,113", "10:01:02,587"):
        lines += [f"[2025-01-17 {t}] [WARNING] [comm.py:163:init_deepspeed_backend] NCCL backend in DeepSpeed not "
                  "yet implemented",
                  f"[2025-01-17 {t}] [INFO] [comm.py:637:init_distributed] cdb=None"]
    v = _verdict(tmp_path, "\n".join(lines) + "\n")
    assert v["cause"] == "none" and v["culprits"] == [], v
    assert "falls back to torch.distributed NCCL" in v["fix"] and "safe to ignore" in v["fix"], v["fix"]


def test_ddps_no_unused_parameters_warning_alone_is_none_and_names_find_unused_parameters_false(tmp_path):
    """Round 40: DDP's reducer warns, once per rank after the first backward, that find_unused_parameters=True found
    no unused parameters (an extra autograd traversal a step): a performance notice, nothing failed. The verdict is
    none, and its fix names the one change it suggests; beside a real failure the failure still decides."""
    lines = ["python -m torch.distributed.run --nproc_per_node=3 main.py --cfg swin_base.yaml"]
    for r in (0, 2, 1):
        lines.append(f"[rank{r}]:[W reducer.cpp:1158] Warning: find_unused_parameters=True was specified in DDP "
                     "constructor, but did not find any unused parameters. This flag results in an extra traversal of "
                     "the autograd graph every iteration, which can adversely affect performance. If your model indeed "
                     "never has any unused parameters, consider turning this flag off. (function operator())")
    d = _report(tmp_path, "\n".join(lines) + "\n")
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("none", []) and not _accused(d), v
    assert "find_unused_parameters=False" in v["fix"] and "performance warning" in v["fix"], v["fix"]
    failed = "\n".join(lines) + "\n" + "RuntimeError: CUDA error: an illegal memory access was encountered\n"
    assert _verdict(tmp_path, failed)["cause"] != "none"


def test_the_barriers_current_context_warning_alone_is_harmless_whole_or_split(tmp_path):
    """Round 41: torch 2.4+'s UserWarning from barrier() (distributed_c10d.py / c10d_logger.py) "barrier(): using the
    device under current context. You can specify `device_id` in `init_process_group` to mute this warning.", whole
    behind a vLLM worker's prefix, or split by warnings.warn / a paste into its two sentences (either alone says
    which warning it is): none, and the fix says how to silence it."""
    for text in ("(Worker_TP3 pid=40112) /opt/venv/lib/python3.11/site-packages/torch/distributed/c10d_logger.py:81: "
                 "UserWarning: barrier(): using the device under current context. You can specify `device_id` in "
                 "`init_process_group` to mute this warning.\n(Worker_TP3 pid=40112)   return func(*args, **kwargs)\n",
                 "/usr/lib/python3/dist-packages/torch/distributed/distributed_c10d.py:4790: UserWarning: barrier(): "
                 "using the device under current context.\nYou can specify `device_id` in `init_process_group` to "
                 "mute this warning.\n  warnings.warn(  # warn only once\n"):
        d = _report(tmp_path, text)
        assert (d["verdict"]["cause"], d["verdict"]["culprits"]) == ("none", []), (text, d["verdict"])
        assert "device_id" in d["verdict"]["fix"] and "set_device" in d["verdict"]["fix"], d["verdict"]["fix"]
        assert "harmless warning" in d["verdict"]["fix"] and not _accused(d)


def test_a_setting_that_has_no_effect_for_some_operations_is_a_harmless_notice(tmp_path):
    """Round 41: ProcessGroupNCCL's TORCH_WARN_ONCE "TORCH_NCCL_AVOID_RECORD_STREAMS=1 has no effect for
    point-to-point collectives." with the flag's value glued before it ("0": the variable not set, torch 2.1-2.2's
    spurious warning; "1": set), behind torchrun's rank tag and glog prefix: none, the fix names the variable,
    point-to-point and the upgrade that silences the spurious one; beside a real failure the failure decides."""
    for flag, said in (("0", "upgrade torch"), ("1", "unset it")):
        text = (f"[rank5]:[W1130 17:40:12.901 ProcessGroupNCCL.cpp:2611] Warning: {flag}TORCH_NCCL_AVOID_RECORD_STREAMS"
                "=1 has no effect for point-to-point collectives. (function operator())\n")
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("none", []) and not _accused(d), (flag, v)
        assert "TORCH_NCCL_AVOID_RECORD_STREAMS" in v["fix"] and "point-to-point (send/recv)" in v["fix"], v["fix"]
        assert "harmless warning" in v["fix"] and said in v["fix"], v["fix"]
    failed = text + "RuntimeError: CUDA error: an illegal memory access was encountered\n"
    assert _verdict(tmp_path, failed)["cause"] != "none"


def test_ddps_grad_strides_warning_alone_is_a_performance_warning_with_the_memory_format_fix(tmp_path):
    """Round 41: DDP's reducer TORCH_WARN_ONCE "Grad strides do not match bucket view strides. ... This is not an
    error, but may impair performance." then its grad/bucket_view sizes and strides, here behind torchrun's rank tag
    and another layout: none, and the fix names the memory format and gradient_as_bucket_view."""
    text = ("[rank2]:[W1201 08:15:00.5 reducer.cpp:334] Warning: Grad strides do not match bucket view strides. This "
            "may indicate grad was not created according to the gradient layout contract, or that the param's strides "
            "changed since DDP was constructed.  This is not an error, but may impair performance.\n"
            "[rank2]:grad.sizes() = [64, 128, 1, 1], strides() = [128, 1, 128, 128]\n"
            "[rank2]:bucket_view.sizes() = [64, 128, 1, 1], strides() = [128, 1, 1, 1] (function operator())\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("none", []) and not _accused(d), v
    assert "gradient_as_bucket_view" in v["fix"] and "channels_last" in v["fix"], v["fix"]
    assert "harmless performance warning" in v["fix"], v["fix"]


def test_a_library_error_naming_the_environment_setting_it_needs_is_config_and_the_fix_names_it(tmp_path):
    """Round 50 (the Aurora oneCCL shape, lead rules Q, W): every worker's traceback ends in a library's exception that
    says which environment variable to set, with its value -- another library, variable, prefix and count of workers
    than the case's: config, nobody accused, and the fix names the setting. A near shape: an error that only asks
    for a debugging aid (set NCCL_DEBUG=INFO) is no setting of the job's."""
    for n, prefix, line in (
            (4, "", "RuntimeError: oneCCL: global.cpp:210 getenv_local_coord: EXCEPTION: to get local_idx/count from "
                    "ATL, set CCL_ZE_IPC_EXCHANGE=pidfd explicitly"),
            (3, "[{r}] ", "RuntimeError: fabric init failed: no shared IPC handle, set FOO_IPC_MODE=sockets and "
                          "restart")):
        text = "".join(f"{prefix.format(r=r)}Traceback (most recent call last):\n{prefix.format(r=r)}  File "
                       f"\"/srv/train.py\", line 12, in <module>\n{prefix.format(r=r)}{line}\n" for r in range(n))
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), (line, v)
        var = "CCL_ZE_IPC_EXCHANGE=pidfd" if "CCL" in line else "FOO_IPC_MODE=sockets"
        assert f"set {var} in every worker's environment" in v["fix"], v["fix"]
    dbg = ("Traceback (most recent call last):\n  File \"/srv/train.py\", line 12, in <module>\nRuntimeError: "
           "fabric init failed, set FOO_DEBUG=INFO for details\n") * 2
    v = _verdict(tmp_path, dbg)
    assert v["cause"] != "config" and "in every worker's environment" not in v["fix"], v


def test_fsdps_execution_order_warning_alone_is_none_and_says_what_it_means(tmp_path):
    """Round 50: FSDP's execution-order UserWarning "All-gather order differs from that of the first iteration on rank
    N -- collectives are unchecked and may give incorrect results or hang" (each rank compares with its own first
    iteration), whole or wrapped inside "All-gathe|r", on other ranks and paths, with nothing failing after it: none,
    and the fix says what the warning means; a timeout after it is no longer none."""
    for ranks, wrap in (((3, 5), False), ((0, 7, 2), True)):
        text = "".join(
            f"/opt/conda/lib/python3.10/site-packages/torch/distributed/fsdp/_exec_order_utils.py:{210 + r}: "
            + ("UserWarning: All-gathe\nr" if wrap else "UserWarning: All-gather")
            + f" order differs from that of the first iteration on rank {r} -- collectives are unchecked and may give "
            "incorrect results or hang\nFirst iteration's all-gather sequence: [0, 1, 2]\n  warnings.warn(\n"
            for r in ranks)
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("none", []) and not _accused(d), (ranks, v)
        assert "execution order" in v["fix"] and "eval" in v["fix"] and "py-spy" in v["fix"], v["fix"]
    hung = text + watchdog_line(rank=7, seq=88, op="_ALLGATHER_BASE", ran_ms=600012, timeout_ms=600000)
    assert _verdict(tmp_path, hung)["cause"] != "none"


def test_c10ds_client_socket_hostname_warning_alone_is_benign_and_names_name_resolution(tmp_path):
    """Round 41: socket.cpp's C10D_WARNING "[c10d] The hostname of the client socket cannot be retrieved. err=%d"
    (getnameinfo failing: -3 EAI_AGAIN, -2 EAI_NONAME), in another torch's glog stamp and line, with nothing failing
    after it: none, and the fix names name resolution (/etc/hosts) and where the real error would be."""
    for err in ("-3", "-2"):
        text = "".join(f"[W1015 21:0{i}:11.004{i} socket.cpp:209] [c10d] The hostname of the client socket cannot be "
                       f"retrieved. err={err}\n" for i in range(3))
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("none", []) and not _accused(d), (err, v)
        assert "/etc/hosts" in v["fix"] and "benign warning" in v["fix"], v["fix"]
        assert "look for the real error elsewhere" in v["fix"] and "TORCH_CPP_LOG_LEVEL" in v["fix"], v["fix"]


# --- session 7 (fixh): the ranks' TCPStore warnings alone (lead rule N) ---------------------------------------------
_STORE_WARNINGS = (
    "[rank5]:[W0903 22:14:07.318840112 ProcessGroupNCCL.cpp:1530] [PG ID 0 PG GUID 0 Rank 5] Failed to check the "
    "\"should dump\" flag on TCPStore, (maybe TCPStore server has shut down too early), with error: Broken pipe\n"
    "[rank9]:[W0903 22:14:07.402311876 TCPStore.cpp:122] [c10d] recvValue failed on SocketImpl(fd=88, "
    "addr=[worker-2]:39114, remote=[worker-0]:23456): Connection reset by peer\n"
    "Exception raised from recvBytes at /opt/pytorch/torch/csrc/distributed/c10d/Utils.hpp:671 (most recent call "
    "first):\n")


def test_the_ranks_store_warnings_alone_are_none(tmp_path):
    """Two ranks' c10d [W] TCPStore warnings (the heartbeat monitor's "should dump" check with "Broken pipe", a
    recvValue "Connection reset by peer") and nothing failing after them: the store's host exited first, none."""
    d = _report(tmp_path, _STORE_WARNINGS)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("none", []) and not _accused(d), v
    assert "destroy_process_group before exit" in v["fix"] and "TORCH_NCCL_ENABLE_MONITORING" in v["fix"], v["fix"]


def test_the_ranks_store_warnings_with_a_timeout_after_them_are_not_none(tmp_path):
    text = _STORE_WARNINGS + watchdog_line(9, 3001, "ALLREDUCE", 600017, 600000, numel=1)
    assert _verdict(tmp_path, text)["cause"] != "none"


# session 22 (round 62): Utils.hpp's recvBytes reading the end of the stream ("failed to recv, got 0 bytes")
_ZERO_BYTES = ("[rank3]:[W0611 09:12:44.201337530 TCPStore.cpp:125] [c10d] recvValue failed on SocketImpl(fd=77, "
               "addr=[::ffff:127.0.0.1]:41822, remote=[::ffff:127.0.0.1]:29500): failed to recv, got 0 bytes\n"
               "Exception raised from recvBytes at /pytorch/torch/csrc/distributed/c10d/Utils.hpp:678 (most recent "
               "call first):\n")


def test_a_ranks_store_read_that_got_0_bytes_alone_is_the_store_host_leaving_first(tmp_path):
    """Lead rule N: a rank's c10d [W] recvValue warning whose recv "got 0 bytes" read the store's side closing the
    connection -- the same news as a reset -- and nothing fails after it: the store's host exited first, none,
    nobody accused. With a collective timing out after it, it is no longer the teardown's warning."""
    d = _report(tmp_path, _ZERO_BYTES)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("none", []) and not _accused(d), v
    assert "got 0 bytes" in v["fix"] and "destroy_process_group before exit" in v["fix"], v["fix"]
    text = _ZERO_BYTES + watchdog_line(3, 812, "ALLREDUCE", 600031, 600000, numel=1)
    assert _verdict(tmp_path, text, "after.log")["cause"] != "none"


# --- session 12 (fix38-4): torch 2.3/2.4's wording of the same heartbeat-monitor poll, at ERROR level -----------------
_DUMP_FLAG_POLL = (
    "[rank6]:[E0722 04:51:37.664120938 ProcessGroupNCCL.cpp:1276] [PG 0 Rank 6] Failed to get exception dump flag "
    "from the global store.Broken pipe\n"
    "Exception raised from sendBytes at /opt/conda/pytorch/torch/csrc/distributed/c10d/Utils.hpp:645 (most recent "
    "call first):\n"
    "frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x57 (0x7fa1c2b79897 in "
    "/opt/conda/lib/python3.11/site-packages/torch/lib/libc10.so)\n")


def test_the_heartbeat_monitors_dump_flag_poll_cut_alone_is_none(tmp_path):
    """Lead rule N: torch 2.3/2.4's heartbeat monitor logs its poll of the global store's dump flag at ERROR level
    ("Failed to get exception dump flag from the global store.<errno text>", later versions' [W] "should dump"
    check): cut by a peer-gone error with nothing failing after it, the store's host exited first -- none, nobody
    accused, not a peer's early exit."""
    d = _report(tmp_path, _DUMP_FLAG_POLL)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("none", []) and not _accused(d), v
    assert "destroy_process_group before exit" in v["fix"], v["fix"]
    text = _DUMP_FLAG_POLL + watchdog_line(6, 4410, "ALLGATHER", 1800042, 1800000, numel=4096)
    assert _verdict(tmp_path, text, "after.log")["cause"] != "none"


def test_channels_through_shared_memory_where_p2p_could_not_be_enabled_are_a_normal_fallback(tmp_path):
    """Round 58 (lead rule K): on one host NCCL's INFO "Could not enable P2P between dev 1(=3e0) and dev 0(=3d0)"
    and channels "via direct shared memory" (2.7's words; later "via SHM/direct/direct") are its fallback transport,
    nothing failing: none, low, and the fix says the SHM transport is a normal fallback. Channels over the network
    say nothing of it."""
    def _pair(g: int, via: str) -> str:
        peer = (g + 1) % 3
        return (nccl_info("vm-a10", 4400 + g, g, f"Could not enable P2P between dev {g}(={g + 3}d0) and dev "
                          f"{peer}(={peer + 3}d0)", tid=4500 + g)
                + nccl_info("vm-a10", 4400 + g, g, f"Channel 0{g % 2} : {g}[{g + 3}d0] -> {peer}[{peer + 3}d0] {via}",
                            tid=4500 + g))

    text = "".join(_pair(g, "via direct shared memory" if g else "via SHM/direct/direct") for g in range(3))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "none" and v["confidence"] == "low" and not _accused(d), v
    assert "shared memory transport is a normal fallback" in v["fix"] and "NCCL_P2P_DISABLE=1" in v["fix"], v
    two = text + nccl_info("vm-b10", 71, 0, "Channel 00 : 3[3d0] -> 0[3d0] [receive] via NET/Socket/0")
    assert "normal fallback" not in _verdict(tmp_path, two, "two.log")["fix"]


# --- session 7 (fixq): round 23's set-up chatter and failures shown without a cause --------------------------------
def _lo_setup(host: str, pid: int, dev: int) -> str:
    return (nccl_info(host, pid, dev, "NCCL_SOCKET_IFNAME set by environment to lo")
            + nccl_info(host, pid, dev, "Bootstrap : Using lo:127.0.0.1<0>")
            + nccl_info(host, pid, dev, "NET/Socket : Using [0]lo:127.0.0.1<0>", tid=pid + 301)
            + nccl_info(host, pid, dev, "Using network Socket", tid=pid + 301))


def test_nccl_choosing_loopback_on_one_node_with_nothing_failing_is_chatter(tmp_path):
    """Issue #14 item 3 (a loopback address is a problem in a MULTI-node job) with lead rule K: four processes of one
    host bootstrapping on lo, nothing failing, are set-up chatter (none, low), not network_setup; the fix says what
    to collect if it hangs there. The same lines from two hosts stay the interface problem."""
    one = "".join(_lo_setup("trainbox-3", 9120 + i, i) for i in range(4))
    d = _report(tmp_path, one)
    v = d["verdict"]
    assert v["cause"] == "none" and v["confidence"] == "low" and not _accused(d), v
    assert "py-spy dump" in v["fix"] and "NCCL_P2P_DISABLE=1" in v["fix"], v["fix"]
    two = _lo_setup("trainbox-3", 9120, 0) + _lo_setup("trainbox-4", 5511, 0)
    assert _verdict(tmp_path, two, "two.log")["cause"] == "network_setup"


def test_nccl_setup_chatter_that_completed_says_what_to_collect_if_it_hangs(tmp_path):
    """Lead rule K: a communicator's set-up INFO lines up to 'Init COMPLETE' on every rank show nothing failing
    (none, low); the fix names py-spy and NCCL_DEBUG=INFO, as for a log that stops before 'Init COMPLETE'."""
    text = "".join(
        nccl_info("infer-07", 40210 + r, r, "Connected all rings")
        + nccl_info("infer-07", 40210 + r, r, "Connected all trees")
        + nccl_info("infer-07", 40210 + r, r, f"comm 0x5a1{r}e00 rank {r} nranks 4 cudaDev {r} nvmlDev {r} busId "
                    f"{r + 1}b000 commId 0x1f2e3d4c5b6a7988 - Init COMPLETE")
        for r in range(4))
    v = _verdict(tmp_path, text)
    assert v["cause"] == "none" and v["confidence"] == "low" and v["culprits"] == [], v
    assert "py-spy dump" in v["fix"] and "NCCL_DEBUG=INFO" in v["fix"], v["fix"]


def test_a_launchers_error_line_without_a_cause_is_unknown_not_nothing(tmp_path):
    """Issue #14 item 6: a failure line is never "nothing failed". A launcher that only reports its command failed
    (here on another host and port), or a traceback ending in an exception no family reads, is unknown with nobody
    named; the fix says to run the command itself and read the traceback."""
    line = ("Error: failed to run torchrun --nproc_per_node=8 --nnodes=2 --node_rank=1 --rdzv_backend=c10d "
            "--rdzv_endpoint=10.20.0.4:31500 pretrain.py -c cfg.yaml on 10.20.0.5\n")
    d = _report(tmp_path, line)
    v = d["verdict"]
    assert v["cause"] == "unknown" and v["culprits"] == [] and not _accused(d), v
    assert "torchrun directly" in v["fix"] and "traceback" in v["fix"], v["fix"]
    exc = ("Traceback (most recent call last):\n  File \"/srv/app/train.py\", line 88, in <module>\n    main()\n"
           "omegaconf.errors.ConfigAttributeError: Key 'warmup_ratio' is not in struct\n")
    v = _verdict(tmp_path, exc, "exc.log")
    assert v["cause"] == "unknown" and v["culprits"] == [], v


# --- round 24: a net plugin's optional-symbol WARN, nccl-tests before its table, a proxy Connect at set-up, wrong
# results (lead rules K, L, S) --------------------------------------------------------------------------------------
def test_a_net_plugins_optional_symbol_warn_on_every_rank_is_harmless(tmp_path):
    """aws-ofi-nccl's configure_nvls_option: NCCL_OFI_WARN("Could not find ncclGetVersion symbol") -- a dlsym of an
    optional NCCL function; the plugin skips the version check and goes on (later versions print it at TRACE). Four
    ranks of another host, then the job's own output: none, and the fix says it is harmless. ibvwrap's "lib wrapper
    not initialized." (libibverbs absent) is the same kind of notice."""
    text = "NCCL version 2.17.1+cuda11.8\n" + "".join(
        f"ip-10-2-7-31:{120 + r}:{180 + r} [{r}] configure_nvls_option:287 NCCL WARN NET/OFI Could not find "
        "ncclGetVersion symbol\n" for r in (2, 0, 3, 1)) + "Loading checkpoint shards:   0%|          | 0/4\n" * 4
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "none" and v["culprits"] == [] and not _accused(d), v
    assert "harmless" in v["fix"] and "aws-ofi-nccl" in v["fix"], v["fix"]
    ibv = (nccl_info("wsl-box", 311, 0, "Bootstrap : Using eth0:172.22.1.5<0>")
           + "wsl-box:311:311 [0] misc/ibvwrap.cc:160 NCCL WARN lib wrapper not initialized.\n"
           + nccl_info("wsl-box", 311, 0, "NET/Socket : Using [0]eth0:172.22.1.5<0>")
           + nccl_info("wsl-box", 311, 0, "Channel 00/32 :    0"))
    assert _verdict(tmp_path, ibv, "ibv.log")["cause"] == "none"


def test_nccl_tests_devices_and_start_up_lines_before_its_table_are_chatter(tmp_path):
    """Lead rule K: an nccl-tests run on two hosts that printed its devices and NCCL's bootstrap/plugin INFO lines but
    not yet its table header shows nothing failing (none, low), whatever the thread says; the fix names what to
    collect if it hangs there. The same run that printed its table header and no row stays a hang in the first
    collective (one node: the GPUs' P2P path)."""
    text = ("# nThread 1 nGpus 1 minBytes 1024 maxBytes 1073741824 step: 2(factor) warmup iters: 5 iters: 20 agg "
            "iters: 1 validation: 1 graph: 0\n#\n# Using devices\n"
            "#  Rank  0 Group  0 Pid  20511 on    gpu-a17 device  0 [0x1b] NVIDIA H100 80GB HBM3\n"
            "#  Rank  1 Group  0 Pid   9034 on    gpu-a18 device  0 [0x1b] NVIDIA H100 80GB HBM3\n"
            + nccl_info("gpu-a17", 20511, 0, "Bootstrap : Using ens1f0:10.40.3.17<0>")
            + nccl_info("gpu-a17", 20511, 0, "NET/Plugin: Using internal network plugin.")
            + nccl_info("gpu-a18", 9034, 0, "cudaDriverVersion 12020")
            + nccl_info("gpu-a18", 9034, 0, "Bootstrap : Using ens1f0:10.40.3.18<0>"))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "none" and v["confidence"] == "low" and not _accused(d), v
    assert "NCCL_DEBUG=INFO" in v["fix"] and "py-spy" in v["fix"], v["fix"]
    header = ("# nThread 1 nGpus 2 minBytes 8 maxBytes 1048576 step: 2(factor) warmup iters: 5 iters: 20 "
              "validation: 1\n#\n# Using devices\n"
              "#   Rank  0 Pid   7702 on box-2 device  0 [0x41] NVIDIA GeForce RTX 3090\n"
              "#   Rank  1 Pid   7702 on box-2 device  1 [0x61] NVIDIA GeForce RTX 3090\n#\n"
              "#                                                       out-of-place                       in-place\n"
              "#       size         count      type   redop     time   algbw   busbw  error     time   algbw   busbw  "
              "error\n")
    assert _verdict(tmp_path, header, "header.log")["cause"] == "network_setup"


def test_the_proxy_service_failing_to_execute_connect_beside_set_up_chatter_is_the_network(tmp_path):
    """Lead rule L: proxy.cc's "[Proxy Service %d] Failed to execute operation %s from rank %d, retcode %d" for a
    set-up operation, with its return-code trail, while the other node's ranks print their set-up chatter: NCCL's own
    connection between the ranks failed at set-up -- network_setup, nobody named (not 'none' for the chatter)."""
    text = ("node-b12:77120:77161 [2] proxy.cc:1163 NCCL WARN [Proxy Service 14] Failed to execute operation Connect "
            "from rank 14, retcode 3\n"
            + nccl_info("node-b12", 77120, 2, "transport/net.cc:702 -> 3", tid=77161)
            + nccl_info("node-b12", 77120, 2, "proxy.cc:1021 -> 3", tid=77161)
            + nccl_info("node-b11", 55012, 0, "Connected all rings", tid=55040)
            + nccl_info("node-b11", 55012, 0, "Connected all trees", tid=55040)
            + nccl_info("node-b11", 55012, 0, "4 coll channels, 4 p2p channels, 1 p2p channels per peer", tid=55040))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("network_setup", []) and not _accused(d), v
    assert "NCCL_SOCKET_IFNAME" in v["fix"]


def test_wrong_results_in_an_nccl_tests_table_with_nothing_failing_name_how_to_find_the_path(tmp_path):
    """Lead rule S: a reduce_scatter_perf table whose #wrong column turns nonzero from 4 MB, every size completing,
    no error, hang or timeout: cause unknown (no class is silent corruption), nobody named, and the fix names
    nccl-tests' -c 1 check, NCCL_PROTO/NCCL_ALGO and a test per node."""
    text = ("#                                                              out-of-place                       "
            "in-place\n"
            "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   "
            "busbw #wrong\n"
            "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  "
            "(GB/s)\n"
            "     1048576         32768     float     sum      -1    51.20   20.48   17.92      0    50.11   20.93   "
            "18.31      0\n"
            "     2097152         65536     float     sum      -1    80.02   26.21   22.93      0    79.63   26.34   "
            "23.04      0\n"
            "     4194304        131072     float     sum      -1    131.5   31.90   27.91   4101    130.8   32.07   "
            "28.06   3977\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "unknown" and v["culprits"] == [] and not _accused(d), v
    assert "-c 1" in v["fix"] and "NCCL_PROTO" in v["fix"] and "NCCL_ALGO" in v["fix"] and "per node" in v["fix"], v
    # the same table behind a collector's timestamps, or quoted in an issue, is the same table
    stamped = "".join(f"2025-06-02T08:14:{i:02d}.120Z {line}\n" for i, line in enumerate(text.splitlines()))
    quoted = "".join(f"> {line}\n" for line in text.splitlines())
    for name, pasted in (("stamped.log", stamped), ("quoted.md", quoted)):
        assert _verdict(tmp_path, pasted, name)["cause"] == "unknown", name


def test_an_exception_of_the_storage_under_a_file_names_the_filesystem(tmp_path):
    """An exception no family reads whose text is the storage failing under a file the run reads or writes (EIO,
    ENOSPC, ESTALE: a dataset's index written by every node on a shared filesystem) stays unknown with nobody named
    (no rank tag, no record), and its fix points at that filesystem, not at the network or NCCL."""
    for n, (code, text) in enumerate(((28, "No space left on device"), (116, "Stale file handle"),
                                      (5, "Input/output error"))):
        tb = ("Traceback (most recent call last):\n  File \"/srv/llm/data/index.py\", line 211, in build\n"
              "    arr = np.lib.format.open_memmap(path, mode=\"w+\", dtype=np.uint32, shape=(n,))\n"
              f"IOError: [Errno {code}] {text}: '/mnt/shared/run7/data-index.npy'\n")
        d = _report(tmp_path, tb, f"t{n}.log")
        v = d["verdict"]
        assert v["cause"] == "unknown" and v["culprits"] == [] and not _accused(d), v
        assert "filesystem / storage mount" in v["fix"] and "dmesg" in v["fix"] and "local disk" in v["fix"], v


def test_collective_fingerprints_alone_are_none_and_say_what_to_collect_if_it_hangs(tmp_path):
    """Lead rule T (with K): TORCH_DISTRIBUTED_DEBUG=DETAIL's "Running collective" fingerprints of a few ranks, no
    timeout, error or failure record after them, show nothing failing, whatever the reporter says of a hang: none,
    nobody named, and the fix says what shows where each rank is if it hangs (py-spy stacks)."""
    fp = ("[I ProcessGroupWrapper.cpp:563] [Rank {r}] Running collective: CollectiveFingerPrint(SequenceNumber={s}, "
          "OpType=ALLGATHER, TensorShape=[8], TensorDtypes=Float, TensorDeviceTypes=TensorOptions(dtype=float "
          "(default), device=cuda, layout=Strided (default), requires_grad=false (default), pinned_memory=false "
          "(default), memory_format=(nullopt)))\n")
    d = _report(tmp_path, "".join(fp.format(r=r, s=s) for r, s in ((0, 9001), (1, 9001), (0, 9002))))
    v = d["verdict"]
    assert v["cause"] == "none" and v["culprits"] == [] and not _accused(d), v
    assert "py-spy dump" in v["fix"], v["fix"]


# NCCL's return-code trail alone (the WARN that started it not pasted): the code it carries up is the class
def test_a_return_code_trail_alone_is_its_codes_failure(tmp_path):
    text = "".join(nccl_info("gpu-a7", 4410, 5, f"{at} -> 3", tid=4471)
                   for at in ("graph/search.cc:1010", "transport/p2p.cc:212", "transport.cc:52", "init.cc:1301"))
    text += nccl_info("gpu-a7", 4410, 5, "group.cc:110 -> 3 [Async thread]", tid=4471)
    v = _verdict(tmp_path, text)
    assert v["cause"] == "nccl_internal" and v["culprits"] == [], v
    assert "NCCL_TOPO_FILE" in v["fix"]
    usage = "".join(nccl_info("n2", 77, 1, f"{at} -> 5") for at in ("enqueue.cc:1880", "group.cc:420"))
    assert _verdict(tmp_path, usage)["cause"] == "invalid_usage"



# two codes in the trail: the failure is the one whose trail came first (ncclInternalError out of the set-up), not the
# ncclSystemError the other ranks' group threads print more often after it
def test_a_trail_with_two_codes_is_read_by_the_first(tmp_path):
    first = "".join(nccl_info("gpu-c", 610, 0, f"{at} -> 3", tid=671) for at in ("transport.cc:52", "init.cc:1301"))
    later = "".join(nccl_info("gpu-c", pid, r, f"{at} -> 2", tid=pid + 61)
                    for pid, r in ((611, 1), (612, 2), (613, 3)) for at in ("init.cc:1406", "group.cc:110"))
    assert _verdict(tmp_path, first + later)["cause"] == "nccl_internal"
    assert _verdict(tmp_path, later + first)["cause"] == "nccl_system"

# round 35: ncclSystemError (2) carried up from graph/xml.cc and topo.cc is the topology detection's reads of /sys
def test_a_system_error_trail_through_topology_detection_names_sysfs(tmp_path):
    text = "".join(nccl_info("wsl-box", pid, r, f"{at} -> 2", tid=pid + 61)
                   for pid, r in ((5120, 0), (5121, 1), (5122, 2))
                   for at in ("graph/xml.cc:512", "graph/xml.cc:730", "graph/topo.cc:688", "init.cc:612",
                              "init.cc:1030"))
    v = _verdict(tmp_path, text)
    assert v["cause"] == "nccl_system" and v["culprits"] == [], v
    assert "/sys/class/pci_bus" in v["fix"] and "NCCL_TOPO_FILE" in v["fix"], v["fix"]
    other = "".join(nccl_info("n5", 812, 3, f"{at} -> 2") for at in ("transport/shm.cc:90", "init.cc:700"))
    assert "NCCL_TOPO_FILE" not in _verdict(tmp_path, other)["fix"]


# round 40: NCCL <= 2.4 inlines the topology's realpath() (include/topo.h), so its trail names only init.cu/group.cu;
# the WARN before it is what says the topology detection failed to read sysfs
def test_an_old_nccls_realpath_warn_above_an_init_trail_is_the_topology_detection(tmp_path):
    text = "".join(
        f"gpu-b:{pid}:{pid + 900} [{r}] include/topo.h:31 NCCL WARN Could not find real path of "
        f"/sys/class/pci_bus/0000:{bus}/../../0000:{bus}:00.0\n"
        + "".join(nccl_info("gpu-b", pid, r, f"{at} -> 2", tid=pid + 900)
                  for at in ("init.cu:870", "init.cu:902", "misc/group.cu:72"))
        for pid, r, bus in ((7011, 0, "3b"), (7012, 1, "5e"), (7013, 2, "86")))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("nccl_system", []) and not _accused(d), v
    assert "/sys/class/pci_bus" in v["fix"] and "NCCL_TOPO_FILE" in v["fix"] and "sysfs" in v["fix"], v["fix"]
    assert "Could not find real path" in v["summary"], v


def test_a_trail_nccl_recovers_from_below_the_api_is_not_a_failure(tmp_path):
    # a probe that fails (no GDR module) and NCCL goes on with its socket transport
    text = (nccl_info("box", 900, 0, "transport/net_ib/gdr.cc:41 -> 3")
            + nccl_info("box", 900, 0, "Using network Socket"))
    assert _verdict(tmp_path, text)["cause"] == "none"


# aws-ofi-nccl finding no EFA provider at its initialization: NCCL drops the plugin and uses its own transports,
# as when libibverbs is absent; one host bootstrapping on lo with only that WARN is still nothing failing
def test_a_net_plugin_that_finds_no_efa_is_dropped_harmlessly(tmp_path):
    text = ("c0ffee12:310:402 [1] find_ofi_provider:612 NCCL WARN NET/OFI Couldn't find any optimal provider\n"
            "c0ffee12:310:402 [1] nccl_net_ofi_init:1490 NCCL WARN NET/OFI aws-ofi-nccl initialization failed\n"
            + nccl_info("c0ffee12", 310, 1, "NET/Socket : Using [0]lo:127.0.0.1<0>", tid=402)
            + nccl_info("c0ffee12", 310, 1, "Using network Socket", tid=402))
    v = _verdict(tmp_path, text)
    assert v["cause"] == "none" and v["culprits"] == [], v
    assert "fi_info" in v["fix"], v
    ib = ("c0ffee12:311:311 [2] misc/ibvwrap.cc:70 NCCL WARN Failed to open libibverbs.so[.1]\n"
          + nccl_info("c0ffee12", 311, 2, "Bootstrap : Using lo:127.0.0.1<0>"))
    assert _verdict(tmp_path, ib)["cause"] == "none"


# lead rule X(3): aws-ofi-nccl's RDMA protocol finding a message or completion it does not expect in the middle of a
# run, returned as ncclInternalError; the later "Attempt to use communicator" refusals only echo it (round 36)
def test_a_net_plugin_protocol_state_error_is_nccl_internal_not_unknown(tmp_path):
    text = ("trn-node-4:8812:9031 [5] process_completions:1720 NCCL WARN NET/OFI Unexpected request type. Request "
            "type: 4\n"
            + nccl_info("trn-node-4", 8812, 5, "transport/net.cc:1410 -> 3", tid=9031)
            + nccl_info("trn-node-4", 8812, 5, "proxy.cc:912 -> 3 [Progress Thread]", tid=9031)
            + "trn-node-4:8812:8812 [5] init.cc:301 NCCL WARN Attempt to use communicator before the previous "
            "operation returned ncclSuccess\n"
            "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:2027, internal error - please "
            "report this issue to the NCCL developers, NCCL version 2.23.4\n"
            "ncclInternalError: Internal check failed.\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "nccl_internal" and v["culprits"] == [], v
    assert "aws-ofi-nccl" in v["fix"] and not _accused(d), v


# NCCL <= 2.8's bootstrap root: the processes were told different world sizes (rule Q: a launch error, nobody)
def test_a_rank_count_mismatch_at_the_bootstrap_root_is_the_launch(tmp_path):
    text = (nccl_info("gpu12", 8801, 0, "Bootstrap : Using [0]ib0:10.4.0.12<0>")
            + "gpu12:8801:8840 [0] bootstrap.cc:222 NCCL WARN Bootstrap Root : mismatch in rank count from procs "
            "16 : 8\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "invalid_usage" and v["culprits"] == [], v
    assert "WORLD_SIZE" in v["fix"], v


# graph/search.cc's fallback: the topology search builds its channels in the simple order and goes on
def test_a_topology_search_falling_back_to_simple_order_is_not_a_failure(tmp_path):
    text = "".join(f"dgx{n}:{700 + d}:{790 + d} [{d}] graph/search.cc:1042 NCCL WARN Could not find a path for pattern "
                   f"{p}, falling back to simple order\n" for n, d, p in ((3, 1, 2), (3, 5, 2), (7, 0, 3)))
    v = _verdict(tmp_path, text)
    assert v["cause"] == "none" and v["culprits"] == [], v
    assert "NCCL_TOPO_FILE" in v["fix"], v
    # beside a real failure the fallback is no cause of its own
    failing = text + "dgx3:701:791 [1] graph/topo.h:230 NCCL WARN Could not find NET with id 2\n"
    assert _verdict(tmp_path, failing)["cause"] != "none"


# net_ib's device enumeration skipping an HCA it cannot open, NCCL going on with the others: no failure
def test_an_hca_skipped_at_enumeration_is_harmless_when_nccl_goes_on(tmp_path):
    text = ("pod-7:310:310 [2] misc/ibvwrap.cc:198 NCCL WARN Call to ibv_open_device failed\n"
            "pod-7:310:310 [2] transport/net_ib.cc:160 NCCL WARN NET/IB : Unable to open device mlx5_12\n"
            + nccl_info("pod-7", 310, 2, "NET/IB : Using [0]mlx5_2:1/IB ; OOB eth0:10.9.8.7<0>")
            + nccl_info("pod-7", 310, 2, "Using network IB"))
    v = _verdict(tmp_path, text)
    assert v["cause"] == "none" and v["culprits"] == [], v
    assert "/dev/infiniband" in v["fix"], v
    # the WARN alone (NCCL not shown going on) is that HCA's trouble
    alone = "pod-7:310:310 [2] transport/net_ib.cc:160 NCCL WARN NET/IB : Unable to open device mlx5_12\n"
    assert _verdict(tmp_path, alone)["cause"] == "ib_fabric"


# graph/paths.cc: a link in the topology graph with no path back (a PCI tree NCCL misreads): topology, no rank
def test_a_reverse_path_missing_in_the_topology_names_the_topology_file_and_upgrade(tmp_path):
    text = ("vm-a100-3:9120:9188 [5] graph/paths.cc:79 NCCL WARN Failed to find reverse path from remNode 1/c10000 "
            "nlinks 2 to node 0/3a000\n"
            + "".join(nccl_info("vm-a100-3", 9120, 5, f"{at} -> 3", tid=9188)
                      for at in ("graph/paths.cc:615", "init.cc:901")))
    v = _verdict(tmp_path, text)
    assert v["cause"] == "nccl_internal" and v["culprits"] == [], v
    assert "NCCL_TOPO_FILE" in v["fix"] and "Upgrade" in v["fix"], v


def test_a_multi_host_launchers_failed_command_on_a_host_says_to_run_torchrun_on_each_node(tmp_path):
    """A launcher that runs torchrun on each host over ssh reporting only that the command failed there: unknown, no
    rank; the fix runs torchrun directly on each node and checks ssh to the hosts."""
    text = ("Error: failed to run torchrun --nproc_per_node=4 --nnodes=3 --node_rank=2 --master_addr=10.8.0.11 "
            "--master_port=29617 train.py --config cfg.py on 10.8.0.13, is localhost: False, exception: "
            "Encountered a bad command exit code!\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "unknown" and v["culprits"] == [], v
    assert "torchrun directly on each node" in v["fix"] and "ssh" in v["fix"], v


def test_worker_command_lines_with_a_rank_outside_their_world_are_config(tmp_path):
    """Launch arguments only (rule V (1), U (2)): a --rank at or past the --world_size it is given, nothing failing."""
    lines = "".join(f"python main.py --dist-backend nccl --world_size 2 --rank {r} --epochs 90\n" for r in (2, 3))
    v = _verdict(tmp_path, lines)
    assert v["cause"] == "config" and v["culprits"] == [], v
    ok = "".join(f"python main.py --dist-backend nccl --world_size 2 --rank {r} --epochs 90\n" for r in (0, 1))
    assert _verdict(tmp_path, ok)["cause"] != "config"


# --- c10d's own debug lines alone (round 29) ------------------------------------------------------------------------
def test_c10ds_debug_lines_alone_are_benign_store_tracing(tmp_path):
    """torch's TCPStoreLibUvBackend.cpp C10D_DEBUG("Read callback failed. code:{} name:{} desc:{}") under
    TORCH_CPP_LOG_LEVEL=INFO: the store's server seeing clients' connections close as their processes exit."""
    text = "".join(f"[I0312 14:02:{11 + i}.004512881 TCPStoreLibUvBackend.cpp:121] [c10d - debug] Read callback "
                   "failed. code:-4095 name:EOF desc:end of file\n" for i in range(3))
    v = _verdict(tmp_path, text)
    assert v["cause"] == "none" and v["culprits"] == [], v
    assert "c10d debug line is benign" in v["fix"] and "@record" in v["fix"]


# --- a progress bar and Python warnings alone: nothing failed; if it hangs, each rank's stack (round 29) -----------
def test_an_evaluation_bar_and_user_warnings_alone_say_nothing_failed_and_how_to_see_a_hang(tmp_path):
    """mmcv's ProgressBar ("[>>] done/total, N task/s, elapsed: Ns, ETA: Ns") past its total (a distributed sampler
    pads the last batch) and a UserWarning: no failure in the lines; a hang the reporter tells of needs each rank's
    stack (lead rule T)."""
    text = ("/opt/app/model/head.py:51: UserWarning: To copy construct from a tensor, it is recommended to use "
            "sourceTensor.clone().detach() or sourceTensor.clone().detach().requires_grad_(True), rather than "
            "torch.tensor(sourceTensor).\n  self.bounds = torch.tensor(\n"
            "[>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>] 130/128, 11.4 task/s, elapsed: 12s, ETA:     0s\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "none" and v["culprits"] == [], v
    assert "nothing failed" in v["fix"] and "py-spy dump of every rank" in v["fix"], v["fix"]


# --- session 8 (fix27): nccl-tests' older "error" column is a deviation, not a count -------------------------------
def test_an_old_nccl_tests_error_column_within_the_types_tolerance_is_rounding_not_wrong_results(tmp_path):
    """Before v2.13 nccl-tests printed the largest relative deviation in an ``error`` column and counted a value wrong
    only above its data type's tolerance (DeltaMaxValue: 1e-2 half/bfloat16, 1e-5 float, 1e-12 double): a reduction
    summed in another order rounds, so small values there are nothing failing (none); above it they stay rule S."""
    head = ("#                                                       out-of-place                       in-place\n"
            "#       size         count      type   redop     time   algbw   busbw  error     time   algbw   busbw  "
            "error\n")

    def table(typ: str, err: str) -> str:
        return head + "".join(f"  {s:>10}  {s // 2:>12}  {typ:>8}     sum   {40 + i}.25    1.10    2.05  {err}    "
                              f"{41 + i}.50    1.08    2.01  {err}\n"
                              for i, s in enumerate((262144, 524288, 1048576)))
    for typ, err in (("half", "4e-03"), ("float", "3e-07"), ("bfloat16", "8e-03")):
        v = _verdict(tmp_path, table(typ, err))
        assert v["cause"] == "none" and v["culprits"] == [], (typ, v)
    for typ, err in (("float", "5e-02"), ("double", "1e-09"), ("int32", "1e+00")):
        assert _verdict(tmp_path, table(typ, err))["cause"] == "unknown", typ


# --- session 15 (fix46): an old all_gather / broadcast table has no redop column ----------------------------------
def test_an_old_nccl_tests_table_without_a_redop_column_is_read_for_wrong_results(tmp_path):
    """Before v2.13 all_gather_perf's and broadcast_perf's tables have no redop column ("size count type time algbw
    busbw error"): the header and rows are still read, the first time is not taken for a root, and an error above the
    type's tolerance with 'Out of bounds values : N FAILED' is rule S (nccl-tests-37's shape with other sizes, types
    and command lines); the same table within tolerance is nothing failing."""
    def table(cmd: str, typ: str, err: str, oob: str) -> str:
        return (cmd + "\n"
                "                                             out-of-place                       in-place\n"
                "       size         count    type     time   algbw   busbw  error     time   algbw   busbw  error\n"
                "        (B)    (elements)             (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)\n"
                + "".join(f"  {s:>10}  {s // 8:>12}  {typ:>6}    {3100 + i}  {20 + i}.05  {20 + i}.05  {err}    "
                          f"{3150 + i}  {19 + i}.84  {19 + i}.84  {err}\n" for i, s in enumerate((1 << 28, 1 << 30)))
                + f" Out of bounds values : {oob}\n Avg bus bandwidth    : 20.5\n")
    for cmd, typ in (("./build/all_gather_perf -g 4 -b 256M -e 1G -f 4", "float"),
                     ("mpirun -np 2 broadcast_perf -g 1 -b 256M -e 1G -f 4", "double")):
        v = _verdict(tmp_path, table(cmd, typ, "2e+00", "2 FAILED"))
        assert v["cause"] == "unknown" and v["culprits"] in ([], "unknown"), (cmd, v)
        assert "-c 1" in v["fix"] and "NCCL_PROTO" in v["fix"], v
        assert "2 size(s)" in v["summary"], v["summary"]
    v = _verdict(tmp_path, table("./build/all_gather_perf -g 4 -b 256M -e 1G -f 4", "float", "0e+00", "0 OK"))
    assert v["cause"] == "none", v


# --- session 15 (fix46): NCCL_ALGO / NCCL_PROTO forcing an algorithm a function does not have ----------------------
def test_no_algorithm_for_a_function_under_a_forced_nccl_algo_is_that_setting(tmp_path):
    """NCCL's enqueue.cc: "Error : no algorithm/protocol available for function F with datatype T. NCCL_ALGO was set
    to X." returns ncclInvalidUsage only because NCCL_ALGO / NCCL_PROTO was set: the forced setting has no
    implementation of F (lead rules Q, V, W): config, no rank -- as torch's ncclInvalidUsage with its Last error
    (pytorch-163063's shape with another function, datatype and setting) or as NCCL's own WARN line with a rank tag.
    torch's ncclInvalidUsage whose Last error names no setting stays invalid usage."""
    torch_err = ("[rank2]: torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/"
                 "ProcessGroupNCCL.cpp:3356, invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version "
                 "2.27.3\n"
                 "[rank2]: ncclInvalidUsage: This usually reflects invalid usage of NCCL library.\n"
                 "[rank2]: Last error:\n"
                 "[rank2]: Error : no algorithm/protocol available for function AllGather with datatype ncclBfloat16. "
                 "NCCL_ALGO was set to Tree.\n")
    v = _verdict(tmp_path, torch_err)
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "NCCL_ALGO" in v["fix"] and "unset" in v["fix"].lower() and "AllGather" in v["summary"], v
    warn = ("gpu-c3:7741:7790 [5] enqueue.cc:1921 NCCL WARN Error : no algorithm/protocol available for function "
            "ReduceScatter with datatype ncclFloat32. NCCL_PROTO was set to LL128.\n")
    v = _verdict(tmp_path, warn)
    assert (v["cause"], v["culprits"]) == ("config", []), v
    assert "NCCL_PROTO" in v["fix"], v
    v = _verdict(tmp_path, torch_err.replace(" NCCL_ALGO was set to Tree.", "").replace("AllGather", "Broadcast"))
    assert v["cause"] == "invalid_usage", v


# --- session 8 (fix27): RCCL's warnings of a platform setting missing ------------------------------------------------
def test_rccls_missing_setting_warns_are_the_platforms_config_not_an_internal_error(tmp_path):
    """RCCL's init checks ('Missing "%s" from environment|kernel command line which can lead to ... hang!') name a
    setting every rank of the node shares: config, nobody named, and the fix names the settings (lead rule V (1))."""
    text = ("mi-node-07:88120:88120 [5] /src/rccl/src/init.cc:131 NCCL WARN Missing \"iommu=pt\" from kernel command "
            "line which can lead to system instablity or hang!\n"
            + nccl_info("mi-node-07", 88120, 5, "Bootstrap : Using ens3f0:10.9.0.17<0>")
            + "mi-node-07:88121:88121 [6] /src/rccl/src/init.cc:135 NCCL WARN Missing \"HSA_FORCE_FINE_GRAIN_PCIE=1\" "
            "from environment which can lead to low RCCL performance, system instablity or hang!\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "config" and v["culprits"] == [], v
    assert "HSA_FORCE_FINE_GRAIN_PCIE=1" in v["fix"] and "iommu=pt" in v["fix"], v


# --- a failure in words no family reads (generic.py) ------------------------------------------------------------
# The blind rounds' misses were mostly stacks no earlier round had shown (an RDMA library, a scheduler, a framework's
# own check), read as "nothing failed". These lines are made up in the shapes such stacks log in (Python logging,
# glog, a bracketed level); none of their words is any family's.
def test_an_error_line_no_family_reads_is_a_failure_of_unknown_cause_not_nothing(tmp_path):
    line = "2025-03-02 10:11:12,345 - trainer - ERROR - checkpoint shard 3 could not be written, aborting\n"
    d = _report(tmp_path, line)
    v = d["verdict"]
    assert v["cause"] == "unknown" and v["confidence"] == "low" and not _accused(d), v
    assert "checkpoint shard 3 could not be written" in v["summary"] and "nothing in these lines" not in v["summary"]


def test_a_worker_that_cannot_import_a_module_at_start_is_its_environment_not_the_network(tmp_path):
    """Round 34: each worker a launcher started dies at its script's import, "ModuleNotFoundError: No module named X":
    the interpreter that runs the workers lacks the package (config), nobody accused, the fix says which Python."""
    tb = ("Traceback (most recent call last):\n"
          '  File "/home/u/.cache/trainer/ddp_entry_3f9a.py", line 4, in <module>\n'
          "    from vision_kit.engine import Runner\n"
          "ModuleNotFoundError: No module named 'vision_kit'\n")
    launch = "/opt/conda/envs/cv/bin/python -m torch.distributed.run --nproc_per_node 2 ddp_entry_3f9a.py\n"
    for text in (launch + tb * 2, tb):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert v["cause"] == "config" and not _accused(d), v
        assert "same Python environment" in v["fix"] and "which python" in v["fix"], v["fix"]


def test_a_feature_refused_for_the_nccl_version_torch_was_built_with_is_a_shared_version_mismatch(tmp_path):
    """A collective refused because the NCCL version torch was compiled against is too old ("... only supports X for
    NCCL lib version >= N"), beside the loaded NCCL's own version line: a build/runtime NCCL mismatch every rank
    shares (rules Q, AF (2): one installed library rejecting another), config, nobody named; the fix compares
    torch.cuda.nccl.version() with the loaded one."""
    tb = ('  File "/opt/conda/lib/python3.8/site-packages/torch/distributed/distributed_c10d.py", line 2410, in '
          "reduce_scatter_tensor\n    work = group._reduce_scatter_base(output, input, opts)\n"
          "[rank3]: RuntimeError: ProcessGroupNCCL only supports reduce_scatter_v for NCCL lib version >= 2.12.0\n")
    for text in (tb + nccl_info("gpu-b07", 40122, 3, "NET/IB : Using [0]mlx5_0:1/IB"), tb,
                 "ValueError: this sharded optimizer requires NCCL >= 2.18.1 for its uneven all-gather\n"):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert v["cause"] == "config" and v["culprits"] == [] and not _accused(d), v
        assert "torch.cuda.nccl.version()" in v["fix"] and "USE_SYSTEM_NCCL" in v["fix"], v["fix"]


def test_a_library_that_supports_only_a_bootstrap_the_job_was_not_launched_with_is_config(tmp_path):
    """Lead rules V (1), W: every process warns that the installed library starts its feature only through the MPI
    bootstrap (Transformer Engine's userbuffers before 1.9), nothing failing after it: the launch every rank shares,
    config, nobody named; the fix says to launch under MPI, upgrade, or drop the feature. Beside a rank's own
    failure, that failure is read."""
    warn = ("/opt/megatron/megatron/core/transformer/utils.py:88: UserWarning: Transformer Engine v1.7.0+4e7d8a1 "
            "supports only MPI bootstrap backend.\n  warnings.warn(\n")
    for text in (warn * 8, "[default3]:" + warn.splitlines()[0] + "\n"):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert v["cause"] == "config" and v["culprits"] == [] and not _accused(d), v
        assert "mpirun" in v["fix"] and "--tp-comm-overlap" in v["fix"], v["fix"]
    crash = warn + watchdog_line(5, 3, "ALLGATHER", 600031, 600000)
    assert _verdict(tmp_path, crash)["cause"] != "config"


def test_the_general_words_of_an_unread_failure_give_its_reading(tmp_path):
    for line, cause, word in (
            ("[2025-03-02 10:11:12] ERROR gang-scheduler: pod trainer-worker-3 was evicted for a higher priority job\n",
             "signal", "preemption"),
            ("[2025-03-02 10:11:12] FATAL transfer_engine.cpp:310 RDMA write to segment 7 timed out after 30000 ms\n",
             "transport_stall", "NCCL_DEBUG=INFO"),
            ("ERROR [launcher] --zero-stage must be one of 0, 1, 2, 3 (got 4)\n", "config", "launch command"),
            ("E0302 10:11:12.345678  4242 alloc.cc:88] pool error: HBM out of memory on device 3 (requested 2.0 GiB)\n",
             "gpu_oom", "batch size"),
    ):
        d = _report(tmp_path, line)
        v = d["verdict"]
        assert (v["cause"], v["confidence"]) == (cause, "low") and word in v["fix"], (line, v)
        assert not _accused(d) and v["culprits"] == [], (line, v)  # words alone never name a rank


def test_an_exception_no_family_explains_is_read_by_its_words(tmp_path):
    tb = ('Traceback (most recent call last):\n  File "serve.py", line 40, in <module>\n    engine.pull(block)\n')
    v = _verdict(tmp_path, tb + "mooncake.store.TransferError: RDMA read from segment 2 timed out after 30000 ms\n")
    assert v["cause"] == "transport_stall" and v["confidence"] == "low" and "TransferError" in v["summary"], v
    v = _verdict(tmp_path, tb + "mooncake.store.TransferError: segment 2 is gone\n")
    assert v["cause"] == "unknown", v  # no general word: still a failure of unknown cause


def test_one_ranks_own_tagged_traceback_with_nothing_else_failing_names_that_rank(tmp_path):
    """Lead rule A without a launcher's record: torch >= 2.2 prefixes each line of a rank's traceback with its rank
    ("[rank2]: "); when it ends in an exception of its own (not a victim's class, not an assert) and no other process
    is shown failing, that rank failed first: named, cause unknown (no class covers an application error)."""
    tb = "".join(f"[rank2]: {x}\n" for x in (
        "Traceback (most recent call last):",
        '  File "/work/trainer/run_pretrain.py", line 412, in <module>',
        "    trainer.resume(args.load_dir)",
        '  File "/work/trainer/engine.py", line 88, in resume',
        '    self.sched.load_state_dict(state["lr_scheduler"][0])',
        "IndexError: list index out of range"))
    d = _report(tmp_path, tb)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", [2]) and _accused(d) == {2}, v
    assert "IndexError" in v["fix"], v["fix"]
    # nobody named: the traceback untagged, an assert (a check every rank makes alike: rule W), another rank's
    # exception beside it, or a victim's class (the store or a peer gone)
    untagged = tb.replace("[rank2]: ", "")
    asserted = tb.replace("IndexError: list index out of range", "AssertionError: expected 8 shards, found 4")
    two = tb + "[rank5]: ValueError: bad value\n"
    victim = tb.replace("IndexError: list index out of range", "torch.distributed.DistStoreError: Socket Timeout")
    for n, text in enumerate((untagged, asserted, two, victim)):
        d = _report(tmp_path, text, f"t{n}.log")
        assert not _accused(d), (n, d["verdict"])


def test_lines_that_hold_failure_words_without_a_failure_stay_nothing(tmp_path):
    text = ("  rdzv_configs     : {'rank': 1, 'timeout': 900}\n"
            "I0425 17:05:53.758841  4566 ProcessGroupNCCL.cpp:686] [Rank 0] ProcessGroupNCCL initialization options: "
            "NCCL_ASYNC_ERROR_HANDLING: 1, TIMEOUT(ms): 1800000\n"
            "2025-03-02 10:11:12,345 - INFO - eval finished: 0 errors, error rate 0.00\n"
            "/usr/lib/python3/site-packages/foo.py:12: UserWarning: falling back after a failed probe\n"
            '  File "/opt/venv/lib/python3.10/site-packages/torch/distributed/elastic/agent/server/api.py", line 9\n')
    v = _verdict(tmp_path, text)
    assert v["cause"] == "none", v


# --- a launch shown inconsistent or a setting every process shares refused (round 30, lead rules Q, W, X (2), AA) ---
def test_a_store_asked_for_libuv_in_a_build_without_it_is_config(tmp_path):
    """TCPStore.cpp's "use_libuv was requested but PyTorch was built without libuv support" (Windows wheels), here
    as a rank's RuntimeError behind a launcher prefix: a setting every process shares, config, not the store."""
    text = ("[rank1]: Traceback (most recent call last):\n"
            "[rank1]:   File \"C:\\\\venv\\\\lib\\\\site-packages\\\\torch\\\\distributed\\\\rendezvous.py\", "
            "line 189, in _create_c10d_store\n"
            "[rank1]: RuntimeError: use_libuv was requested but PyTorch was built without libuv support, run with "
            "USE_LIBUV=0 to disable it.\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "config" and v["culprits"] == [], v
    assert "USE_LIBUV=0" in v["fix"] and "WSL" in v["fix"], v


def test_a_store_asked_for_libuv_in_torch_24s_wording_is_config_too(tmp_path):
    """torch 2.4's TCPStore.cpp said "PyTorch was build without libuv support" (the typo fixed later): here as the
    store's DistStoreError under an agent's static rendezvous frame, cut before its advice and with no rank tag. The
    same setting every process shares: config, no rank, never none (round 42: fluxgym-302)."""
    text = ('  File "D:\\env\\Lib\\site-packages\\torch\\distributed\\elastic\\rendezvous\\'
            'static_tcp_rendezvous.py", line 58, in next_rendezvous\n'
            "    self._store = TCPStore(  # type: ignore[call-arg]\n"
            "torch.distributed.DistStoreError: use_libuv was requested but PyTorch was build without libuv support\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "config" and v["culprits"] == [], v
    assert "USE_LIBUV=0" in v["fix"], v


def test_a_frameworks_own_one_gpu_per_worker_check_is_config_not_a_rank(tmp_path):
    """XGBoost's CHECK (device_helpers.cu "Multiple processes within communication group running on same CUDA device
    is not supported"), its text wrapped onto the lines after the XGBoostError that a rank raised: config, no rank
    (lead rules W, AA (1)); the fix gives each worker its own GPU."""
    text = ("[rank2]: Traceback (most recent call last):\n"
            "[rank2]:   File \"train.py\", line 40, in <module>\n"
            "[rank2]: xgboost.core.XGBoostError: [11:02:17] /workspace/src/common/device_helpers.cu:71:\n"
            "[rank2]:   Check failed: n_uniques == world (2 vs. 8) : Multiple processes within communication group "
            "running on\n"
            "[rank2]:   same CUDA device is not supported\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "config" and v["culprits"] == [], v
    assert "CUDA_VISIBLE_DEVICES" in v["fix"] and "one GPU per worker" in v["fix"], v


def test_a_model_loaded_across_gpus_refused_in_distributed_mode_is_config(tmp_path):
    """accelerate's check "You can't train a model that has been loaded with `device_map='auto'` in any distributed
    mode", as a ValueError behind a launcher prefix: config, no rank; the fix names device_map."""
    text = ("[default3]:Traceback (most recent call last):\n"
            "[default3]:ValueError: You can't train a model that has been loaded with `device_map='auto'` in any "
            "distributed mode. Please rerun your script specifying `--num_processes=1` or by launching with `python "
            "{{myscript.py}}`.\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "config" and v["culprits"] == [], v
    assert "device_map" in v["fix"] and "NPROC_PER_NODE" in v["fix"], v


def test_torchrun_standalone_with_several_nodes_is_config_and_one_node_is_not(tmp_path):
    """Launch lines only (lead rules V (1), AA (1)): --standalone (a localhost rendezvous per node) beside --nnodes
    asking for several nodes is config, no rank, nothing failing; --standalone on one node is a plain launch."""
    for cmd in ("python -m torch.distributed.run --nproc_per_node 4 --nnodes 2:4 --standalone pretrain.py --cfg a.yaml",
                "torchrun --nnodes=${NNODES} --node-rank=${NODE_RANK} --master-addr=${ADDR} --standalone run.py"):
        v = _verdict(tmp_path, "export NCCL_DEBUG=WARN\n" + cmd + "\n")
        assert v["cause"] == "config" and v["culprits"] == [], (cmd, v)
        assert "--rdzv_endpoint" in v["fix"] and "--standalone" in v["fix"], v
    for cmd in ("torchrun --standalone --nnodes=1 --nproc_per_node=8 train.py",
                "torchrun --standalone --nnodes=$NNODES --nproc_per_node=8 train.py"):
        assert _verdict(tmp_path, cmd + "\n")["cause"] != "config", cmd


def test_nodes_printing_different_master_addresses_are_config_and_the_same_one_is_not(tmp_path):
    """Each node's launch settings on one line (lead rules V (1), AA (1)): another master address (or port) on one
    node than on the other is config, no rank, nothing failing; the same settings with only the node rank differing
    are not, nor a loopback address on node 0 (its own view of itself)."""
    bad = ("[node-a] NODE_RANK=0 MASTER_ADDR=10.20.0.5 MASTER_PORT=29400 WORLD_SIZE=16\n"
           "[node-b] NODE_RANK=1 MASTER_ADDR=10.20.0.50 MASTER_PORT=29400 WORLD_SIZE=16\n")
    v = _verdict(tmp_path, bad)
    assert v["cause"] == "config" and v["culprits"] == [], v
    assert "same MASTER_ADDR" in v["fix"], v
    port = ("NODE_RANK: 0 | MASTER_ADDR: gpu-07 | MASTER_PORT: 6000\n"
            "NODE_RANK: 1 | MASTER_ADDR: gpu-07 | MASTER_PORT: 6001\n")
    assert _verdict(tmp_path, port)["cause"] == "config"
    for ok in ("[node-a] NODE_RANK=0 MASTER_ADDR=10.20.0.5 MASTER_PORT=29400 WORLD_SIZE=16\n"
               "[node-b] NODE_RANK=1 MASTER_ADDR=10.20.0.5 MASTER_PORT=29400 WORLD_SIZE=16\n",
               "NODE_RANK=0 MASTER_ADDR=localhost MASTER_PORT=29400\n"
               "NODE_RANK=1 MASTER_ADDR=10.20.0.5 MASTER_PORT=29400\n"):
        assert _verdict(tmp_path, ok)["cause"] != "config", ok


def test_two_nodes_env_dumps_both_at_node_rank_0_with_their_own_master_are_config(tmp_path):
    """Each node's environment dumped one "KEY = value" a line (sorted, as `env | sort` or a script's print loop
    gives it): two nodes' logs that both say NODE_RANK=0 with another MASTER_PORT (or world size) each were each
    launched as their own world (lead rule AA (1)): config, no rank. The same dump twice in one node's file (its
    local processes) and two nodes with their own node ranks and one master are not."""
    from ncclDoctor.diagnose import diagnose

    dump = ("==== env ====\nLOCAL_RANK = {lr}\nMASTER_ADDR = {addr}\nMASTER_PORT = {port}\nNODE_RANK = {nr}\n"
            "RANK = \nWORLD_SIZE = {ws}\n=============\n")

    def run(name, *logs):
        d = tmp_path / name
        d.mkdir()
        for i, text in enumerate(logs):
            (d / f"host{i}.out").write_text(text)
        return diagnose([str(d)]).results["diagnose"]["verdict"]

    v = run("a", dump.format(lr=0, addr="localhost", port=41207, nr=0, ws=4),
            dump.format(lr=0, addr="localhost", port=50113, nr=0, ws=4))
    assert v["cause"] == "config" and v["culprits"] == [], v
    assert "NODE_RANK=0" in v["summary"] and "MASTER_PORT" in v["fix"], v
    v = run("b", dump.format(lr=0, addr="10.3.1.9", port=29500, nr=0, ws=8),
            dump.format(lr=0, addr="10.3.1.9", port=29500, nr=0, ws=16))
    assert v["cause"] == "config", v
    for name, logs in (("c", (dump.format(lr=0, addr="10.3.1.9", port=29500, nr=0, ws=8)
                              + dump.format(lr=1, addr="10.3.1.9", port=29501, nr=0, ws=8),)),
                       ("d", (dump.format(lr=0, addr="10.3.1.9", port=29500, nr=0, ws=8),
                              dump.format(lr=0, addr="10.3.1.9", port=29500, nr=1, ws=8)))):
        assert run(name, *logs)["cause"] != "config", name


def test_one_global_rank_announced_twice_at_once_with_ranks_missing_is_config(tmp_path):
    """PyTorch Lightning announces each process's place ("Initializing distributed: GLOBAL_RANK: r, MEMBER: r+1/W").
    Two processes announcing the same global ranks at once, the others never announced, are two nodes that both
    took node rank 0 (lead rule AA (1)): config, no rank. A restart (every rank announced again after the first
    round) and a full world are not."""
    line = "Initializing distributed: GLOBAL_RANK: {r}, MEMBER: {m}/{w}\n"

    def ann(ranks, w):
        return "".join(line.format(r=r, m=r + 1, w=w) for r in ranks)

    v = _verdict(tmp_path, "[node-x] starting\n" + ann([0, 0, 1, 1], 4))
    assert v["cause"] == "config" and v["culprits"] == [], v
    assert "node rank" in v["fix"] and "NODE_RANK" in v["fix"], v
    v = _verdict(tmp_path, ann([2, 0, 1, 2, 1, 5, 0, 3, 4, 5, 3, 4], 16))
    assert v["cause"] == "config", v
    for ok in (ann([0, 1, 2, 3], 8) + ann([0, 1, 2, 3], 8),  # one node's processes, restarted
               ann([0, 4, 1, 5, 2, 6, 3, 7], 8),  # two nodes, each its own ranks
               ann([0, 1, 1, 2], 3)):  # every rank of the world announced
        assert _verdict(tmp_path, ok)["cause"] != "config", ok


def test_one_global_rank_announced_under_two_launcher_task_labels_is_config(tmp_path):
    """Lead rule AA (1), round 67: Lightning's announcements under srun -l's task labels ("0: ", "1: ") or mpirun's
    "[1,N]<stdout>:": one global rank announced by two tasks is two processes holding it at once, whatever order the
    lines come in and even with no new rank after the repeats (both nodes took node rank 0) -- config, no rank. One
    task announcing its ranks again (a restart under the same label) and two tasks announcing their own ranks are
    not."""
    line = "{t}: Initializing distributed: GLOBAL_RANK: {r}, MEMBER: {m}/{w}\n"

    def ann(pairs, w):
        return "".join(line.format(t=t, r=r, m=r + 1, w=w) for t, r in pairs)

    v = _verdict(tmp_path, ann([(0, 1), (0, 3), (0, 2), (1, 2), (1, 1), (1, 3)], 8))
    assert v["cause"] == "config" and v["culprits"] == [], v
    assert "node rank" in v["fix"] and "--ntasks-per-node" in v["fix"], v
    mpi = "".join(f"[1,{t}]<stdout>:Initializing distributed: GLOBAL_RANK: {r}, MEMBER: {r + 1}/8\n"
                  for t, r in ((0, 0), (0, 1), (4, 1), (4, 0)))
    assert _verdict(tmp_path, mpi)["cause"] == "config"
    for ok in (ann([(0, r) for r in range(4)] * 2, 8),  # one task's processes announced again: a restart
               ann([(0, 0), (0, 1), (0, 2), (0, 3), (1, 4), (1, 5), (1, 6), (1, 7)], 8)):  # each node its own ranks
        assert _verdict(tmp_path, ok)["cause"] != "config", ok


def test_the_remote_shell_refusing_a_launchers_export_is_config(tmp_path):
    """A multi-host launcher's 'export ... && torchrun ...' refused by the remote shell ("bash: line 1: SSH_CLIENT:
    readonly variable"), then its report that the command failed on that host: the launch set-up before any worker
    ran, config, no rank (lead rule X (2)). Beside a worker's own failure the shell's line decides nothing."""
    text = ("bash: line 1: SSH_CLIENT: readonly variable\n"
            "Error: failed to run torchrun --nproc_per_node=4 --nnodes=3 --node_rank=1 --master_addr=10.4.0.2 "
            "--master_port=29511 pretrain.py on 10.4.0.3, is localhost: False, exception: Encountered a bad command "
            "exit code!\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "config" and v["culprits"] == [], v
    assert "readonly" in v["summary"] and "ssh" in v["fix"] and "hostfile" in v["fix"], v
    oom = text + ("[rank5]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 1 has a "
                  "total capacity of 79.15 GiB of which 1.02 GiB is free.\n")
    assert _verdict(tmp_path, oom)["cause"] != "config"


def test_pdsh_failing_to_ssh_into_a_host_before_any_worker_is_config(tmp_path):
    """pdsh's own report that ssh could not log in to a host ("pdsh@LAUNCHER: HOST: ssh exited with exit code 255"),
    with ssh's refusals before it and no worker's line: the launch set-up (passwordless ssh) failed before any worker
    ran, config, no rank (lead rule X (2)). A remote command's own status (exit code 1) is not it, and beside a
    worker's own failure pdsh's line decides nothing."""
    text = ("gpu-node-07: Host key verification failed.\r\n"
            "pdsh@head-01: gpu-node-07: ssh exited with exit code 255\n"
            "pdsh@head-01: gpu-node-08: ssh exited with exit code 255\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "config" and v["culprits"] == [], v
    assert "gpu-node-07" in v["summary"] and "ssh" in v["fix"] and "pdsh" in v["fix"], v
    assert _verdict(tmp_path, text.replace("code 255", "code 1"))["cause"] != "config"
    oom = text + ("gpu-node-08: [rank5]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 1 "
                  "has a total capacity of 79.15 GiB of which 1.02 GiB is free.\n")
    assert _verdict(tmp_path, oom)["cause"] != "config"


def test_two_nodes_given_the_paddle_node_list_in_different_orders_are_config(tmp_path):
    """Two nodes' Paddle launch lines whose --ips lists differ (the same hosts in another order, or another host):
    each node takes its node rank from its own address's place in the list, so the nodes disagree on which ranks live
    where and wait on each other's endpoints (lead rule AA (1)): config, no rank. The same list on every node, or two
    launch lines in one node's file (a relaunch), is not."""
    from ncclDoctor.diagnose import diagnose

    wait = "server not ready, wait 3 sec to retry...\nnot ready endpoints:['{0}:36001']\n" * 3

    def run(name, *logs):
        d = tmp_path / name
        d.mkdir()
        for i, text in enumerate(logs):
            (d / f"node{i}.log").write_text(text)
        return diagnose([str(d)]).results["diagnose"]["verdict"]

    def launch(ips):
        return f"fleetrun --ips='{ips}' --gpus=0,1,2,3 run_pretrain.py --model ernie\n"

    v = run("a", launch("10.20.0.5,10.20.0.6,10.20.0.7") + wait.format("10.20.0.6"),
            launch("10.20.0.6,10.20.0.5,10.20.0.7") + wait.format("10.20.0.5"))
    assert v["cause"] == "config" and v["culprits"] == [], v
    assert "--ips" in v["summary"] and "same order" in v["fix"], v
    v = run("b", launch("hostA,hostB") + wait.format("hostB"), launch("hostA,hostC") + wait.format("hostA"))
    assert v["cause"] == "config", v
    for name, logs in (("c", (launch("10.20.0.5,10.20.0.6") + wait.format("10.20.0.6"),
                              launch("10.20.0.5,10.20.0.6") + wait.format("10.20.0.5"))),
                       ("d", (launch("10.20.0.5,10.20.0.6") + launch("10.20.0.6,10.20.0.5"),))):
        assert run(name, *logs)["cause"] != "config", name


def _tests_run(host: str, gpus: int, first: int = 0) -> str:
    return "".join(f"#  Rank {first + g:2d} Group  0 Pid  {4100 + first} on {host:>10} device {g:2d} [0x{16 + g:02x}] "
                   "NVIDIA A100-SXM4-80GB\n" for g in range(gpus))


_PREAMBLE = ("# nThread 1 nGpus 4 minBytes 8 maxBytes 134217728 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 "
             "validation: 1 graph: 0\n#\n")


def test_nccl_tests_preambles_printed_at_once_are_separate_worlds(tmp_path):
    """nccl-tests' preamble is rank 0's alone: three of them at once (mpirun -np 3, a binary without MPI=1), each
    process then listing its GPUs from Rank 0, nothing failing, is config, no rank (lead rule AA (1)). One run after
    another (a result table between) is not."""
    text = ("mpirun -np 3 -H a1,a2,a3 -x NCCL_DEBUG=WARN ./build/all_gather_perf -b 8 -e 128M -f 2 -g 4\n"
            + _PREAMBLE * 3 + "# Using devices\n" + _tests_run("a2", 4))
    v = _verdict(tmp_path, text)
    assert v["cause"] == "config" and v["culprits"] == [], v
    assert "MPI=1" in v["fix"] and "libmpi" in v["fix"], v
    row = ("   134217728      33554432     float    none      -1   1201.3  111.73  83.80      0   1199.8  111.87  "
           "83.90      0\n")
    two_runs = (_PREAMBLE + "# Using devices\n" + _tests_run("a1", 4) + row + "# Avg bus bandwidth    : 83.85\n#\n"
                + _PREAMBLE + "# Using devices\n" + _tests_run("a1", 4) + row)
    assert _verdict(tmp_path, two_runs)["cause"] != "config"


def _fairseq_node(master: str, host: str, addr: str, ranks=(2, 0, 1, 3)) -> str:
    out = "".join(f"| distributed init (rank {r}): tcp://{master}:23456\n| initialized host {host} as rank {r}\n"
                  for r in ranks)
    return out + nccl_info(host, 901, 0, f"Bootstrap : Using [0]ib0:{addr}<0> [1]eth0:192.168.7.9<0>") + (
        "NCCL version 2.7.8+cuda11.0\n")


def test_a_host_taking_rank_0_away_from_the_master_address_is_config(tmp_path):
    """fairseq's own start-up lines: a host that takes rank 0 (the store's host) while its processes were given
    another master address than any of its own (NCCL's Bootstrap list on it): that node was launched with the
    master's rank range, nothing failing -- config, no rank (lead rule AA (1)). The master node itself, or a master
    given by a host name, is not."""
    v = _verdict(tmp_path, _fairseq_node("10.1.0.4", "trn-node-3", "10.1.0.9"))
    assert v["cause"] == "config" and v["culprits"] == [], v
    assert "--distributed-rank" in v["fix"] and "one world across both nodes" in v["fix"], v
    for ok in (_fairseq_node("10.1.0.4", "trn-node-1", "10.1.0.4"), _fairseq_node("trn-master", "trn-node-3",
                                                                                  "10.1.0.9")):
        assert _verdict(tmp_path, ok)["cause"] != "config", ok


# --- session 9 (fix31): an nccl-tests excerpt pasted from its rows on, with nothing wrong (rules K, T) -------------
def test_an_nccl_tests_table_pasted_from_its_rows_on_is_read_clean_or_wrong(tmp_path):
    """A paste that starts at nccl-tests' result rows (no preamble, no column header; older all_gather/broadcast
    rows have no redop column) and ends at 'Out of bounds values': every size 0 wrong is nothing failing (none),
    and the fix says the test ran clean and what to collect if the host hangs meanwhile (rule T); a row with
    wrong values is still rule S."""
    rows = "".join(f"   {s:>10}   {s // 4:>10}   float   {30 + i}.40   {2 + i}.10   {2 + i}.10  0e+00   "
                   f"{29 + i}.90   {2 + i}.20   {2 + i}.20  0e+00\n" for i, s in enumerate((1 << 20, 1 << 21, 1 << 22)))
    v = _verdict(tmp_path, rows + "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 3.1\n")
    assert v["cause"] == "none" and v["culprits"] == [], v
    assert "nccl-tests" in v["fix"] and "completed" in v["fix"] and "dmesg" in v["fix"], v
    wrong = "".join(f"  {s:>10}  {s // 4:>10}  float  sum  -1  {50 + i}.1  9.{i}  17.{i}  {3 if i == 1 else 0}  "
                    f"{51 + i}.2  9.{i}  17.{i}  0\n" for i, s in enumerate((1 << 24, 1 << 25, 1 << 26)))
    v = _verdict(tmp_path, wrong + "# Out of bounds values : 3 FAILED\n")
    assert v["cause"] == "unknown" and v["culprits"] == [], v


# --- session 13 (fix42-4): nccl-tests run with one rank, clean; GPU Direct RDMA off for an HCA (lead rule K) ---------
def _one_rank_table(host: str, wrong: int = 0, prefix: str = "") -> str:
    """An all_gather_perf run of one process on one GPU (nccl-tests v2.13+ format: root and #wrong columns): every
    busbw 0 (the bus factor (n-1)/n of one rank), WRONG values at the second size."""
    rows = "".join(f"{s:>12}  {s // 4:>12}     float    none      -1    {11 + i}.20   {90 + i}.31    0.00  "
                   f"{wrong if i == 1 else 0:>5}    {10 + i}.70   {95 + i}.02    0.00  {wrong if i == 1 else 0:>5}\n"
                   for i, s in enumerate((1 << 20, 1 << 22, 1 << 24)))
    text = ("# nThread 1 nGpus 1 minBytes 1048576 maxBytes 16777216 step: 4(factor) warmup iters: 5 iters: 20 agg "
            "iters: 1 validation: 1 graph: 0\n#\n# Using devices\n"
            f"#  Rank  0 Group  0 Pid  41207 on {host:>10} device  0 [0x1b] NVIDIA A100-SXM4-80GB\n#\n"
            "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   "
            "busbw #wrong\n" + rows
            + f"# Out of bounds values : {1 if wrong else 0} {'FAILED' if wrong else 'OK'}\n"
            "# Avg bus bandwidth    : 0 \n#\n")
    return "".join(prefix + line + "\n" for line in text.splitlines())


def test_nccl_tests_run_with_one_rank_and_checked_clean_is_nothing_failing_run_it_over_more_gpus(tmp_path):
    """nccl-tests with one rank (nGpus 1, one device line) prints busbw 0 (the bus factor is 0 for n = 1) and
    'Avg bus bandwidth : 0': with '#wrong' 0 and 'Out of bounds values : 0 OK' nothing failed (none, rule K) and the
    fix says how to test communication (-g N / mpirun -np N with MPI=1), also when the paste quotes every line; a
    wrong value there is still rule S."""
    for prefix in ("", "> "):
        v = _verdict(tmp_path, _one_rank_table("dgx-b07", prefix=prefix))
        assert (v["cause"], v["culprits"]) == ("none", []), (prefix, v)
        assert "#wrong 0" in v["fix"] and "-g " in v["fix"] and "mpirun -np N" in v["fix"], (prefix, v["fix"])
        assert "NCCL_DEBUG=INFO" in v["fix"], v["fix"]
    v = _verdict(tmp_path, _one_rank_table("dgx-b07", wrong=12))
    assert v["cause"] == "unknown" and "#wrong 0" not in v["fix"], v


def test_nccls_gpu_direct_rdma_disabled_for_an_hca_is_a_performance_info_naming_the_peer_memory_module(tmp_path):
    """net_ib's INFO "NET/IB : GPU Direct RDMA Disabled for HCA N 'dev'" beside set-up lines with nothing failing:
    none (rule K), and the fix says what enables GPU Direct RDMA (nvidia-peermem or DMA-BUF; NCCL_NET_GDR_LEVEL does
    not). NCCL's topology choice ("... for GPU 0[0] / HCA 0 (distance 2 >= 2)") on NET/Socket is not that line."""
    text = (nccl_info("trn-node12", 7731, 3, "NET/IB : Using [0]mlx5_4:1/IB [1]mlx5_7:1/IB ; OOB ib0:10.8.1.12<0>")
            + nccl_info("trn-node12", 7731, 3, "Using network IB")
            + nccl_info("trn-node12", 7731, 3, "NCCL_NET_GDR_LEVEL set by environment to PHB")
            + nccl_info("trn-node12", 7731, 3, "comm 0x7f2a10 rank 3 nranks 32 cudaDev 3 busId 4e000 - Init START")
            + nccl_info("trn-node12", 7731, 3, "NET/IB : GPU Direct RDMA Disabled for HCA 1 'mlx5_7'"))
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("none", []), v
    assert "nvidia-peermem" in v["fix"] and "NCCL_DMABUF_ENABLE" in v["fix"], v["fix"]
    assert "NCCL_NET_GDR_LEVEL=PHB cannot enable it" in v["fix"], v["fix"]
    socket = (nccl_info("ws-2", 881, 0, "NET/Socket : Using [0]enp5s0:192.168.3.4<0>")
              + nccl_info("ws-2", 881, 0, "NET/Socket : GPU Direct RDMA Disabled for GPU 0[0] / HCA 0 "
                          "(distance 3 >= 2)"))
    assert "nvidia-peermem" not in _verdict(tmp_path, socket, "socket.log")["fix"]


# --- session 9 (fix31F): torchrun agent's rendezvous keep-alive warnings alone (lead rule N) ----------------------
def _keepalive(node: str, run: str, n: int) -> str:
    return "".join(
        f"[2025-03-14 08:{12 + i:02d}:07,51{i}] torch.distributed.elastic.rendezvous.dynamic_rendezvous: [WARNING] "
        f"The node '{node}' has failed to send a keep-alive heartbeat to the rendezvous '{run}' due to an error of "
        "type RendezvousConnectionError.\n" for i in range(n))


def test_the_agents_rendezvous_keepalive_warnings_alone_are_none(tmp_path):
    """Lead rule N (session 9): torchrun's agent warning that it failed to send a keep-alive heartbeat to the c10d
    rendezvous (RendezvousConnectionError), one or several times, with nothing failing after them: none, no rank
    accused; the fix names the rendezvous endpoint and the store host's log in case the job did fail."""
    for n in (1, 4):
        d = _report(tmp_path, _keepalive("a100-node-07_33127_0", "llm-pretrain-42", n), f"k{n}.log")
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("none", []) and not _accused(d), v
        assert "keep-alive" in v["fix"] and "rdzv_endpoint" in v["fix"], v["fix"]


def test_the_agents_keepalive_warning_then_a_rendezvous_timeout_stays_store_rendezvous(tmp_path):
    text = _keepalive("a100-node-07_33127_0", "llm-pretrain-42", 2) + (
        "torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError: The rendezvous 'llm-pretrain-42' has "
        "timed out.\n")
    assert _verdict(tmp_path, text)["cause"] == "store_rendezvous"


# --- session 9 (fix32I): ProcessGroupNCCL's stack of a failed collective alone ------------------------------------
def test_a_failed_collectives_stack_alone_is_unknown_and_asks_for_every_ranks_log(tmp_path):
    """ProcessGroupNCCL's "Stack trace of the failed collective" with its frames, and no timeout or error line: the
    lines say which call (an all_gather here), not whether it timed out or errored nor which rank did not join --
    unknown, nobody named, and the fix asks for every rank's log, Flight Recorder and py-spy."""
    text = ("[rank6]:[E1102 14:02:11.120034512 ProcessGroupNCCL.cpp:741] Stack trace of the failed collective: \n"
            "#0 all_gather_into_tensor from /opt/conda/lib/python3.11/site-packages/torch/distributed/"
            "distributed_c10d.py:3801\n"
            "#1 wrapper from /opt/conda/lib/python3.11/site-packages/torch/distributed/c10d_logger.py:81\n"
            "#2 gather_logits from /srv/app/engine/tp_runner.py:212\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "unknown" and v["culprits"] in ([], "unknown") and not _accused(d), v
    assert "every rank's log" in v["fix"] and "TORCH_NCCL_TRACE_BUFFER_SIZE" in v["fix"], v["fix"]



def test_habanas_bare_collective_call_error_is_unknown_and_asks_for_hccls_own_logs(tmp_path):
    """Round 62: Habana's ProcessGroupHCCL's "Collective call returned error" (its check of what HCCL returned, from
    process_group_hccl_base.cpp), here as std::terminate's what() of one untagged process: HCCL failed a collective
    and gave no reason, no op, no rank -- unknown, nobody named (rule AB (2)); the fix asks for HCCL's and SynapseAI's
    own logs of every worker and the devices' health."""
    text = ("terminate called after throwing an instance of 'c10::Error'\n"
            "  what():  Collective call returned error\n"
            "Exception raised from operator() at /npu-stack/pytorch-integration/python_packages/habana_frameworks/"
            "torch/distributed/hccl/process_group_hccl_base.cpp:301 (most recent call first):\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "unknown" and v["culprits"] in ([], "unknown") and not _accused(d), v
    assert "HABANA_LOGS" in v["fix"] and "hl-smi" in v["fix"] and "every worker" in v["fix"], v["fix"]


def test_ascends_hccl_function_error_does_not_take_habanas_advice(tmp_path):
    """The near shape: Ascend's torch_npu "HCCL function error: HcclAllreduce(...), error code is 7" is another HCCL
    (Huawei's), with its own code: Habana's logs and tools are not its fix."""
    v = _verdict(tmp_path, "[rank1]: RuntimeError: HCCL function error: HcclAllreduce(inputDataPtr, outputDataPtr, "
                 "numel, hcclType, hcclOp, comm, stream.stream(false)), error code is 7\n")
    assert "HABANA_LOGS" not in v["fix"] and "hl-smi" not in v["fix"], v["fix"]


def test_a_failed_optional_setup_that_calls_itself_a_warning_is_no_failure(tmp_path):
    """A set-up step that "failed with ... error" but says of itself "To silence this warning, pass --flag" is a
    handled warning: the program went on without the optional feature (lead rule K), so the lines show no failure,
    and the fix repeats the line's own advice."""
    text = ("[2026-03-02 09:14:07 TP2] Init fused all-gather failed with CUDA error: operation not supported on this "
            "device. To suppress this warning, pass --no-fused-allgather.\n"
            "[2026-03-02 09:14:07 TP3] Init fused all-gather failed with CUDA error: operation not supported on this "
            "device. To suppress this warning, pass --no-fused-allgather.\n"
            "[Gloo] Rank 3 is connected to 3 peer ranks. Expected number of connected peer ranks is : 3\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("none", []), v
    assert "warning" in v["fix"] and "--no-fused-allgather" in v["fix"], v["fix"]


def test_lines_that_only_set_ncclS_network_settings_are_none_and_the_fix_checks_those_settings(tmp_path):
    """A paste of a launch script's NCCL settings and a launcher's start-up lines, nothing failing: none, and the fix
    says to check the interface they name on every node and to collect the NCCL_DEBUG=INFO logs."""
    text = ("NCCL_SOCKET_IFNAME=ens5f1 NCCL_IB_DISABLE=1\n"
            "export NCCL_DEBUG=INFO\n"
            "[2025-06-11 08:00:01,101] [INFO] [runner.py:555:main] cmd = /usr/bin/python -u -m "
            "deepspeed.launcher.launch --world_info=eyJub2RlMSI6IFswXX0= --node_rank=0 train.py\n")
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("none", []), v
    assert "NCCL_SOCKET_IFNAME=ens5f1" in v["fix"] and "NCCL_DEBUG=INFO logs of every node" in v["fix"], v["fix"]


def test_a_multi_node_c10d_rendezvous_given_only_a_master_address_is_config(tmp_path):
    """Round 33 (lead rules V (1), AA (1)): torchrun for several nodes with a non-static --rdzv_backend and
    --master_addr but no --rdzv_endpoint (only the static backend reads the master address: each node meets on its
    own localhost) is config, no rank; with the endpoint, the static backend or one node it is not."""
    for cmd in ("torchrun --nnodes 4 --nproc-per-node 8 --node-rank 2 --master-addr 192.168.7.3 --master-port 23456 "
                "--rdzv-backend c10d --rdzv-id 77 main.py --lr 3e-4",
                "python -m torch.distributed.run --nnodes=$NNODES --node_rank=$RANK --master_addr=$MASTER "
                "--rdzv_backend=etcd-v2 pretrain.py"):
        v = _verdict(tmp_path, "+ " + cmd + "\nTraceback (most recent call last):\n")
        assert v["cause"] == "config" and v["culprits"] == [], (cmd, v)
        assert "--rdzv_endpoint" in v["fix"], v
    for cmd in ("torchrun --nnodes 4 --node-rank 2 --master-addr 192.168.7.3 --rdzv-backend c10d "
                "--rdzv-endpoint 192.168.7.3:23456 main.py",
                "torchrun --nnodes 4 --node-rank 2 --master-addr 192.168.7.3 --rdzv-backend static main.py",
                "torchrun --nnodes 1 --master-addr 127.0.0.1 --rdzv-backend c10d main.py"):
        assert _verdict(tmp_path, cmd + "\n")["cause"] != "config", cmd


# --- round 36: the ssh client failing to reach a launcher's hosts before any worker ran (lead rule X (2)) -------------
def test_ssh_failing_to_reach_the_hosts_before_any_worker_is_config_naming_no_rank(tmp_path):
    """ssh's own failure to reach the hostfile's hosts (a name that does not resolve, a refused or unroutable ssh
    port), with nothing else shown: the launcher's reach of its hosts, the launch set-up -- config, no rank (lead rule
    X (2)); not a connection of the job's own (network_setup). Beside a rank's own failure it is not the verdict."""
    for text in ("$ horovodrun -np 4 -H trainer-a:2,trainer-b:2 python train.py\nssh not successful for host "
                 "trainer-b:\nssh: Could not resolve hostname trainer-b: Temporary failure in name resolution\n",
                 "[mpiexec@node-3] launch\nssh: connect to host 10.8.1.44 port 2222: Connection refused\r\n"
                 "ssh: connect to host 10.8.1.45 port 2222: No route to host\n"):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), (text, v)
        assert "ssh" in v["fix"] and "hostfile" in v["fix"], v
    v = _verdict(tmp_path, "ssh: connect to host node-9 port 22: Connection timed out\n"
                 + failure_record(None, 3, 3, -9, 4410))
    assert v["cause"] != "config", v


# --- session 11 (fix36d): Python's error of the script's own text, raised alike by every worker (lead rules J, Q) ---
def test_the_same_name_error_on_every_worker_says_fix_the_script_and_names_nobody(tmp_path):
    """Every process of a job raising the same UnboundLocalError/NameError (or a SyntaxError) before any collective:
    the code, not a rank (no class covers a script's bug: unknown, nobody named); the fix says to fix the script and
    run it once without the launcher, and says 'every rank' only where several processes raised it."""
    tb = ("Traceback (most recent call last):\n"
          '  File "/work/proj/run_pretrain.py", line 318, in <module>\n'
          "    main(cfg)\n"
          '  File "/work/proj/run_pretrain.py", line 291, in main\n'
          "    optimizer.zero_grad()\n"
          "UnboundLocalError: local variable 'optimizer' referenced before assignment\n")
    head = "[2024-06-02 07:41:10,118] [INFO] [launch.py:163:main] dist_world_size=4\n"
    d = _report(tmp_path, head + tb * 4)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), v
    assert v["fix"].startswith("Fix the script: UnboundLocalError") and "4 processes raised the same" in v["fix"], v
    syntax = ('  File "/work/proj/eval_ddp.py", line 57\n'
              "    if rank == 0\n"
              "               ^\n"
              "SyntaxError: expected ':'\n")
    v = _verdict(tmp_path, "Traceback (most recent call last):\n" + syntax)
    assert v["fix"].startswith("Fix the script: SyntaxError") and "processes raised the same" not in v["fix"], v


def test_a_name_error_for_the_entry_points_argument_parser_is_the_launched_script(tmp_path):
    """Lead rules U (2) and Q: every worker the launcher started raises the same NameError for the function the
    entry-point script builds its command-line parser with ('get_args_parser'), at start-up: the script does not
    match the package it takes that function from, and every worker is launched with it -- config, no rank. A
    NameError of any other name stays the script's own bug (unknown, above)."""
    tb = ("Traceback (most recent call last):\n"
          '  File "/srv/detr/main.py", line 431, in <module>\n'
          "    parser = argparse.ArgumentParser('training script', parents=[get_args_parser()])\n"
          "NameError: name 'get_args_parser' is not defined\n")
    d = _report(tmp_path, "python -m torch.distributed.launch --nproc_per_node=2 --use_env main.py\n" + tb * 2)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "get_args_parser" in v["fix"] and "entry-point script" in v["fix"], v["fix"]
    other = tb.replace("get_args_parser", "build_model_from_cfg")
    assert _verdict(tmp_path, other * 2)["cause"] == "unknown"


def test_an_attribute_error_of_a_destructor_is_not_called_the_scripts_bug(tmp_path):
    """An AttributeError may be a library's destructor after another failure (a communicator object that was never
    built): the fix does not tell the user their script is wrong."""
    v = _verdict(tmp_path, "(Worker pid=8811) AttributeError: 'PyNcclCommunicator' object has no attribute "
                           "'comm'\n")
    assert not v["fix"].startswith("Fix the script"), v


# session 16 (fix48-F2): any exception, word for word the same in several processes' tracebacks (lead rule J): the
# fix names it and the code it was raised in; one process's, or several different ones, say nothing of the kind
def test_the_same_exception_in_several_tracebacks_is_named_in_the_fix(tmp_path):
    def tb(script: str, func: str, exc: str) -> str:
        return ("Traceback (most recent call last):\n"
                f'  File "{script}", line 664, in main\n'
                f'  File "{script}", line 294, in {func}\n'
                f"{exc}\n")
    for script, func, exc, n in (
            ("/home/u/proj/train.py", "decoupled_optimizer",
             "AttributeError: 'tuple' object has no attribute 'named_parameters'", 5),
            ("/srv/jobs/pretrain_gpt.py", "build_loader", "TypeError: 'NoneType' object is not subscriptable", 3)):
        info = "[2024-07-24 15:58:17,032] [INFO] [logging.py:96:log_dist] [Rank 0] Creating ZeRO Offload\n"
        d = _report(tmp_path, info + tb(script, func, exc) * n)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), v
        assert v["fix"].startswith(f"{n} tracebacks end in the same {exc}"), v["fix"]
    one = _verdict(tmp_path, tb("/home/u/proj/train.py", "f", "AttributeError: 'tuple' object has no attribute 'x'"))
    assert "tracebacks end in the same" not in one["fix"], one
    two = _verdict(tmp_path, tb("/a/t.py", "f", "TypeError: bad operand") + tb("/a/t.py", "g", "KeyError: 'lr'"))
    assert "tracebacks end in the same" not in two["fix"], two


# session 16 (fix48-F2): torch refusing CUDA in a worker started by fork (lead rules AF (2), Q): the start method
# every worker shares, config with nobody named, and the store's wait after it is its consequence
def test_cuda_refused_in_a_forked_worker_is_the_shared_start_method(tmp_path):
    store = ("torch.distributed.DistStoreError: Timed out after {t} seconds waiting for clients. {k}/{n} clients "
             "joined.\n")
    vllm = ("(VllmWorkerProcess pid={pid}) ERROR 03-02 11:20:05 multiproc_worker_utils.py:240] Exception in worker "
            "VllmWorkerProcess while processing method init_device: Cannot re-initialize CUDA in forked subprocess. "
            "To use CUDA with multiprocessing, you must use the 'spawn' start method, Traceback (most recent call "
            "last):\n")
    plain = ("[rank{r}]: Traceback (most recent call last):\n"
             '[rank{r}]:   File "/opt/app/data.py", line 41, in __getitem__\n'
             "[rank{r}]: RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with "
             "multiprocessing, you must use the 'spawn' start method\n")
    for text in (vllm.format(pid=4411) + store.format(t=1801, k=1, n=4),
                 vllm.format(pid=90) + vllm.format(pid=91) + store.format(t=601, k=2, n=8),
                 plain.format(r=3)):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
        assert "VLLM_WORKER_MULTIPROC_METHOD=spawn" in v["fix"] and "set_start_method('spawn')" in v["fix"], v
    # vLLM's own warning that it switched to spawn is no failure: the store's wait stays what it was
    warn = ("WARNING 03-02 11:19:58 multiproc_worker_utils.py:300] We must use the `spawn` multiprocessing start "
            "method. Overriding VLLM_WORKER_MULTIPROC_METHOD to 'spawn'. Reasons: CUDA is initialized\n")
    assert _verdict(tmp_path, warn + store.format(t=601, k=1, n=8))["cause"] == "store_rendezvous"


# --- session 12 (fix38-1): launch settings printed that cannot run the job (lead rules AF (1), AA (1), AE) ---------
def test_torchrun_launch_config_with_a_flag_value_as_entrypoint_is_config(tmp_path):
    """torchrun's launch-config block whose entrypoint is a bare flag value ('true', 'False', a number): an option's
    value taken as the training script, which every worker would run (lead rule AF (1)): config, no rank, nothing
    failing, with or without the block's header and a launcher's prefix. A script, a module or a program there is
    a plain launch, as is the old agent's 'starting workers for entrypoint: python'."""
    block = ("I1104 09:12:40.101000 140213 torch/distributed/launcher/api.py:188] Starting elastic_operator with "
             "launch configs:\n"
             "  entrypoint       : {ep}\n"
             "  min_nodes        : 1\n"
             "  max_nodes        : 1\n"
             "  nproc_per_node   : 2\n"
             "  run_id           : 7731\n"
             "  rdzv_backend     : static\n"
             "  rdzv_endpoint    : 10.8.0.4:29400\n"
             "  rdzv_configs     : {{'rank': 0, 'timeout': 900}}\n"
             "  max_restarts     : 0\n")
    for ep in ("true", "False", "8"):
        bare = "".join(f"worker-2  | {x}\n" for x in block.format(ep=ep).splitlines()[1:6])  # no header, a prefix
        for text in (block.format(ep=ep), bare):
            v = _verdict(tmp_path, text)
            assert v["cause"] == "config" and v["culprits"] == [], (ep, text, v)
            assert "entrypoint" in v["fix"] and "training script" in v["fix"], v
    for ep in ("finetune_lora.py", "/mnt/jobs/pretrain_gpt.py", "llamafactory.launcher", "bash"):
        assert _verdict(tmp_path, block.format(ep=ep))["cause"] != "config", ep
    old = "[INFO] 2022-03-01 10:11:12,131 api: [default] starting workers for entrypoint: python\n"
    assert _verdict(tmp_path, old)["cause"] != "config"


def test_torchelastic_worker_events_with_a_flag_value_as_entry_point_are_config(tmp_path):
    """torchelastic's event JSON, one worker a line, keeps the launch's entrypoint in its nested metadata
    ('\\"entry_point\\": \\"false\\"'): a bare flag value there is what every worker ran instead of a training
    script (lead rule AF (1)), config, no rank, even with every worker SUCCEEDED. A script there is a plain launch."""
    def event(rank: int, ep: str) -> str:
        q = '\\"'
        meta = (f"{{{q}group_world_size{q}: 2, {q}entry_point{q}: {q}{ep}{q}, {q}local_rank{q}: [{rank % 4}], "
                f"{q}role_rank{q}: [{rank}], {q}role_world_size{q}: [8]}}")
        return ('{"name": "torchelastic.worker.status.SUCCEEDED", "source": "WORKER", "timestamp": 0, "metadata": '
                f'{{"run_id": "job-81", "global_rank": {rank}, "group_rank": {rank // 4}, '
                f'"worker_id": "{9100 + rank}", '
                '"role": "trainer", "hostname": "gpu-node-3", "state": "SUCCEEDED", "total_run_time": 12, '
                f'"rdzv_backend": "c10d", "raw_error": null, "metadata": "{meta}", "agent_restarts": 0}}}}\n')
    for ep in ("false", "1"):
        text = "".join(event(r, ep) for r in (2, 5, 6))
        v = _verdict(tmp_path, text)
        assert v["cause"] == "config" and v["culprits"] == [], (ep, v)
        assert "entry_point" in v["summary"] and "training script" in v["fix"], v
    assert _verdict(tmp_path, "".join(event(r, "pretrain.py") for r in (2, 5)))["cause"] != "config"


def test_a_misspelled_cuda_visible_devices_on_the_launch_line_is_config(tmp_path):
    """A launch that sets a CUDA variable that does not exist, one typo from one that does (CUDA_VISABLE_DEVICES,
    CUDA_VISIBLE_DEVICE), judged by the env knowledge base: nothing reads it, the GPUs meant are not selected
    (lead rules L, V (1)): config, no rank, with nothing failing. The right name, or another command, is no fault."""
    for line in ("CUDA_VISABLE_DEVICES=4,5,6,7 torchrun --nproc_per_node 4 finetune.py --cfg a.yaml\n",
                 "export CUDA_VISIBLE_DEVICE=1\n"):
        text = "python -m pip list | grep torch\n" + line + "epoch 0 step 10 loss 2.31\n"
        v = _verdict(tmp_path, text)
        assert v["cause"] == "config" and v["culprits"] == [], (line, v)
        assert "CUDA_VISIBLE_DEVICES" in v["fix"], v
    for line in ("CUDA_VISIBLE_DEVICES=4,5,6,7 torchrun --nproc_per_node 4 finetune.py\n",
                 "export CUDA_VERSION=12.4\n"):
        assert _verdict(tmp_path, line, "ok.log")["cause"] != "config", line


def test_a_node_other_than_node_0_launched_with_a_loopback_master_is_config(tmp_path):
    """A launch giving node rank N > 0 a loopback master address (torchrun's --node-rank / --master-addr in any
    spelling, or NODE_RANK / MASTER_ADDR printed): that node looks for node 0's store on its own host (lead rules
    AA (1), AE): config, no rank, with nothing failing or with its store connection then timing out. Node 0 on a
    loopback address, node 1 given a real address, and both node ranks on one loopback address (one host running
    both launchers) are not."""
    for cmd in ("python -m torch.distributed.run --nproc_per_node=4 --nnodes=3 --node_rank=2 --master_addr=localhost "
                "--master_port=29511 pretrain.py --cfg base.yaml",
                "torchrun --nproc-per-node 2 --nnodes 2 --node-rank 1 --master-addr 127.0.1.1 run_clm.py",
                "[launch] NODE_RANK=3 MASTER_ADDR=localhost MASTER_PORT=6100 WORLD_SIZE=32"):
        v = _verdict(tmp_path, cmd + "\n")
        assert v["cause"] == "config" and v["culprits"] == [], (cmd, v)
        assert "MASTER_ADDR" in v["fix"] and "--node-rank" in v["fix"], v
    late = ("torchrun --nproc_per_node 8 --nnodes 4 --node_rank 3 --master_addr 127.0.0.1 --master_port 29500 "
            "train.py\n"
            "torch.distributed.DistNetworkError: The client socket has timed out after 900s while trying to connect "
            "to (127.0.0.1, 29500).\n")
    v = _verdict(tmp_path, late)
    assert v["cause"] == "config" and v["culprits"] == [], v
    for ok in ("torchrun --nproc-per-node 8 --nnodes 2 --node-rank 0 --master-addr 127.0.0.1 train.py\n",
               "torchrun --nproc-per-node 8 --nnodes 2 --node-rank 1 --master-addr 10.42.0.7 train.py\n",
               "torchrun --nproc-per-node 2 --nnodes 2 --node-rank 0 --master-addr localhost train.py\n"
               "torchrun --nproc-per-node 2 --nnodes 2 --node-rank 1 --master-addr localhost train.py\n"):
        assert _verdict(tmp_path, ok)["cause"] != "config", ok


def test_one_loopback_test_for_addresses_and_endpoints():
    """One answer to "does this address name the host it is used on" for a bare master address and an endpoint with
    a port (the launch readers', the rendezvous and coordinator checks' one helper): /etc/hosts' loopback aliases
    (RHEL's localhost.localdomain) count, a name that only begins like one ("localhost-node3") does not."""
    from ncclDoctor.diagnose.signatures import is_loopback
    for yes in ("127.0.0.1", "127.0.1.1:29500", "localhost", "LOCALHOST:1234", "localhost.localdomain",
                "localhost.localdomain:29400", "::1", "[::1]", "[::1]:29500", "0.0.0.0:6000", "ip6-localhost"):
        assert is_loopback(yes), yes
    for no in ("10.42.0.7", "10.42.0.7:29500", "[fe80::1]:29500", "localhost-node3", "node127.0.0.1", "127.0.0",
               "master-0:29500", ""):
        assert not is_loopback(no), no


def test_a_later_node_given_localhost_localdomain_as_master_is_config(tmp_path):
    """RHEL's /etc/hosts name for 127.0.0.1 is as much loopback as 'localhost' on node rank 1."""
    v = _verdict(tmp_path, "torchrun --nproc-per-node 8 --nnodes 2 --node-rank 1 --master-addr localhost.localdomain "
                           "--master-port 29500 train.py\n")
    assert v["cause"] == "config" and v["culprits"] == [], v


# --- a launch command whose master address is a file path (round 43) -----------------------------------------------
def test_a_launch_command_giving_a_file_path_as_the_master_address_is_config(tmp_path):
    """Round 43: a multi-node runner's command line with --master_addr set to a file path (what a node's shell rc file
    printed over ssh, read as the address): a launch setting shown wrong for every worker, with nothing failing --
    config, nobody named (lead rules V (1), AA (1)). Whole on one line, or cut by a terminal inside --world_info."""
    cmd = ("cmd = cd /work/proj; /opt/conda/envs/train/bin/python -u -m deepspeed.launcher.launch --world_info=eyJ3b3Jr"
           "ZXItMCI6IFswLCAxXX0= --node_rank=%n --master_addr=/home/ml/.nvm/nvm.sh --master_port=29511 finetune.py\n")
    k = cmd.index("ZXItMCI6")
    assert k >= 100
    for text in (cmd, cmd[:k].rstrip() + "\n" + cmd[k:]):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
        assert "/home/ml/.nvm/nvm.sh" in v["summary"] and "main_process_ip" in v["fix"], v


def test_deepspeeds_runner_choosing_an_address_only_its_own_host_reaches_is_config(tmp_path):
    """DeepSpeed's multi-node runner, given no --master_addr, takes the first address `hostname -I` prints on the first
    node ("Using IP address of A for node N"): Docker's default bridge (172.17.0.0/16) or a loopback address is every
    host's own, so the other nodes' workers look for the rendezvous on themselves (lead rules V (1), AA (1)): config,
    no rank, even with nothing failing yet. So is 0.0.0.0 (signatures.is_loopback's answer): "every interface" to a
    server, the connecting host itself to every other node's workers. A routable address is not."""
    for addr, node in (("172.17.0.1", "10.0.4.7"), ("127.0.1.1", "trainer-a"), ("172.17.8.2", "gpu-node-03"),
                       ("0.0.0.0", "gpu-node-01")):
        text = (f"[2025-01-02 03:04:05,678] [INFO] [runner.py:470:main] Using IP address of {addr} for node {node}\n"
                "[2025-01-02 03:04:05,679] [INFO] [multinode_runner.py:81:get_cmd] Running on the following workers: "
                f"{node},10.0.4.8\n")
        v = _verdict(tmp_path, text)
        assert v["cause"] == "config" and v["culprits"] == [], (addr, v)
        assert "--master_addr" in v["fix"] and addr in v["summary"], v
        assert ("Docker" in v["summary"]) == addr.startswith("172.17."), v
    for addr, node in (("10.0.4.7", "10.0.4.7"), ("192.168.3.9", "gpu-node-03"), ("172.18.0.4", "h1")):
        text = f"[INFO] [runner.py:470:main] Using IP address of {addr} for node {node}\n"
        assert _verdict(tmp_path, text)["cause"] != "config", addr


# --- "none" never stands beside a failure: a battery of the shapes a failure line takes ----------------------------
# Made-up failures in the shapes reports paste them (bare, rank-tagged, behind srun's, pdsh's or Ray's label, under a
# traceback, indented under its frames, continued on the next lines, a logger's ERROR line or bracketed [ERROR] level,
# a launcher's "Error: ...", C++'s "terminate called after throwing"), some naming a setting (NCCL_X=1, MASTER_ADDR,
# a path, a URL), each alone and beside the benign lines a run prints anyway (the process-group destructor's warning,
# NCCL INFO set-up chatter, c10d's IPv6 warning), before and after them: the verdict is never "nothing failed".
_BENIGN = (
    "",
    "[rank{r}]:[W0611 14:02:51.118204331 ProcessGroupNCCL.cpp:1250] Warning: WARNING: destroy_process_group() was not "
    "called before program exit, which can leak resources. For more info, please see "
    "https://pytorch.org/docs/stable/distributed.html#shutdown (function operator())\n",
    nccl_info("trn-h100-12", 77310, 1, "Bootstrap : Using ens5:172.31.9.40<0>")
    + nccl_info("trn-h100-12", 77310, 1, "cudaDriverVersion 12020"),
    "[W socket.cpp:464] [c10d] The IPv6 network addresses of (trn-h100-12, 23456) cannot be retrieved (gai error: -3 - "
    "Temporary failure in name resolution).\n",
)
_FAILURES = (
    "RuntimeError: the scheduler state of stage 2 holds no entry for micro-batch 57",
    "ValueError: NCCL_ALGO=Tree cannot be used together with the interleaved schedule",
    "RuntimeError: no answer from MASTER_ADDR=172.31.9.40 within 120 s",
    "FileNotFoundError: [Errno 2] No such file or directory: '/mnt/ckpt/iter_0004000/mp_rank_03.pt'",
    "OSError: could not download https://models.example.net/tok/vocab.json (attempt 5 of 5)",
    "Exception: the data of shard 12 holds no samples for epoch 3",  # `raise Exception(...)`: Python's base class
)


def _failure_shapes(msg: str, r: int):
    tb = 'Traceback (most recent call last):\n  File "/srv/job/pretrain.py", line 217, in <module>\n    run(cfg)\n'
    yield msg + "\n"
    yield f"[rank{r}]: {msg}\n"
    yield f"{r}: {msg}\n"  # srun -l's task label
    yield f"172.31.9.{40 + r}: {msg}\n"  # pdsh's host label (DeepSpeed's multi-node runner)
    yield f"(pid={51200 + r}, ip=172.31.9.{40 + r}) {msg}\n"  # Ray's label of a worker without an actor name
    yield tb + msg + "\n"
    yield tb + "    " + msg + "\n"  # indented like the frames above it
    yield "".join(f"[rank{r}]: {x}\n" for x in (tb + msg).splitlines())
    yield tb + msg + "\n  while restoring the run from its last checkpoint\n  (the first error is above)\n"
    yield f"2026-05-14 03:22:41,908 - pretrain - ERROR - {msg}\n"
    yield f"Error: {msg}\n"
    said = msg.split(": ", 1)[1]  # the message alone, under a logger's bracketed error level
    yield f"[ERROR] {said}\n"
    yield f"[2026-05-14 03:22:41] [FATAL] [pretrain.py:88] {said}\n"
    # C++'s runtime aborting on an exception nothing caught (a native extension's)
    yield f"terminate called after throwing an instance of 'std::runtime_error'\n  what():  {said}\n"


def test_a_failure_line_is_never_read_as_nothing_failed_whatever_its_shape_or_the_benign_lines_beside_it(tmp_path):
    for msg in _FAILURES:
        for shape in _failure_shapes(msg, 6):
            for benign in _BENIGN:
                for text in (benign.format(r=6) + shape, shape + benign.format(r=6)):
                    v = _verdict(tmp_path, text)
                    assert v["cause"] != "none", (text, v)


def test_the_general_words_of_a_settings_refusal_or_a_launch_without_its_launcher_read_as_an_expert_would(tmp_path):
    """generic.reading widened where the corpus' labels read the words one way (benchmarks/bench_generic_reading.py
    measures each reading's precision on every case's exception lines): a check refusing the set-up ("not compiled
    with", "requires ... version", "is not available", "please install") is config; a script
    started without its launcher's variables (KeyError: 'LOCAL_RANK', "environment variable X expected") or calling
    torch.distributed before init_process_group is config too (rules Q, W), not the store its words name; shared
    memory running out is rule F's. Always low confidence and nobody named: from words alone no rank is known."""
    tb = 'Traceback (most recent call last):\n  File "/srv/app/launch_job.py", line 61, in <module>\n    main()\n'
    for want, last in (
            ("dataloader_shm", "loader.WorkerError: prefetch process 4 exited: out of shared memory while mapping"),
            ("dataloader_shm", "2026-05-14 03:22:41,908 - feeder - ERROR - reader process 2 died of SIGBUS"),
            ("config", "KeyError: 'LOCAL_RANK'"),
            ("config", "RuntimeError: Default process group has not been initialized, please make sure to call "
                       "init_process_group."),
            ("config", "AssertionError: Torch not compiled with CUDA enabled"),
            ("config", "RuntimeError: fused rotary kernels require CUDA version 11.8 or higher"),
            ("config", "RuntimeError: the MPI backend is not available in this build"),
            ("config", "ImportError: please install apex to use the fused LAMB optimizer"),
    ):
        for text in (tb + last + "\n", last + "\n"):
            d = _report(tmp_path, text)
            v = d["verdict"]
            assert (v["cause"], v["culprits"]) == (want, []) and not _accused(d), (text, v)
    # a reset connection is the peer gone or the store host gone, by whose socket it was (rules G, O), never the
    # set-up's network: its words alone give no reading
    from ncclDoctor.diagnose import generic

    assert generic.reading(["relay.StreamError: upstream 3: Connection reset by peer"]) is None
    # a port in use is the ranks' network only on NCCL's or gloo's own sockets; elsewhere no reading (the store's
    # MASTER_PORT in a torch job, another server's bind elsewhere: the words cannot tell)
    assert generic.reading(["exporter.BindError: [Errno 98] Address already in use"]) is None
    assert generic.reading(["RuntimeError: [/src/gloo/transport/tcp/pair.cc:176] bind: Address already in use"])[0] \
        == "network_setup"


def test_a_sharp_plugin_that_fails_to_start_with_nccl_falling_back_to_ib_is_none(tmp_path):
    """Lead rule AH (2): the SHARP plugin's "Cannot create SHARP job" / "SHARP coll init error", the CollNet try-setup's
    "-> 2" trail (transport.cc, init.cc) and NCCL's own "Cannot initialize CollNet, using point-to-point network
    instead" (transport.cc), with NCCL on IB and nothing failing after: none, no rank. Left on sockets (rule Z), or
    with a collective failing after it, it is not."""
    text = (nccl_info("gpu-17", 4411, 2, "NET/IB : Using [0]mlx5_2:1/IB [1]mlx5_3:1/IB ; OOB ib0:10.4.0.17<0>")
            + nccl_info("gpu-17", 4411, 2, "Using network IB")
            + "gpu-17:4411:4520 [2] sharp_plugin.c:301 NCCL WARN NET/IB : SHARP coll init error: Cannot create SHARP "
              "job(-4)\n"
            + nccl_info("gpu-17", 4411, 2, "transport.cc:140 -> 2", tid=4520)
            + nccl_info("gpu-17", 4411, 2, "init.cc:811 -> 2", tid=4520)
            + "gpu-09:3310:3402 [0] transport.cc:310 NCCL WARN Cannot initialize CollNet, using point-to-point network "
              "instead\n"
            + nccl_info("gpu-09", 3310, 0, "16 coll channels, 8 p2p channels, 1 p2p channels per peer", tid=3402))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "none" and not v["culprits"] and not _accused(d), v
    assert "NCCL_COLLNET_ENABLE" in v["fix"]
    on_sockets = text.replace("Using network IB", "Using network Socket")
    assert _verdict(tmp_path, on_sockets)["cause"] != "none"
    failed = text + watchdog_line(3, 12, "ALLREDUCE", 600012, 600000)
    assert _verdict(tmp_path, failed)["cause"] != "none"


# round 44: getPciPath's realpath() of a GPU's bus id ("/sys/class/pci_bus/<domain:bus>/../../<busId>") always returns
# ncclSystemError: its WARN with no trail, above the spawn's traceback, is still the topology detection failing
def test_a_gpus_realpath_warn_without_its_trail_is_the_topology_detection(tmp_path):
    spawn = ("Traceback (most recent call last):\n"
             '  File "train.py", line 40, in <module>\n'
             "    mp.spawn(run, nprocs=3, args=(cfg,))\n"
             "Exception:\n\n-- Process 2 terminated with the following error:\n"
             "Traceback (most recent call last):\n")
    text = "NCCL version 2.8.4+cuda11.1\n" + "".join(
        f"\nws-3:{pid}:{pid + 40} [{r}] graph/xml.cc:340 NCCL WARN Could not find real path of "
        f"/sys/class/pci_bus/0000:{bus}/../../0000:{bus}:00.0\n"
        for pid, r, bus in ((9120, 2, "af"), (9118, 0, "3b"), (9119, 1, "5e"))) + spawn
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("nccl_system", []) and not _accused(d), v
    assert "/sys/class/pci_bus" in v["fix"] and "NCCL_TOPO_FILE" in v["fix"], v["fix"]
    nic = text.replace("/sys/class/pci_bus/0000:af/../../0000:af:00.0", "/sys/class/net/eth1/device").replace(
        "/sys/class/pci_bus/0000:3b/../../0000:3b:00.0", "/sys/class/net/eth1/device").replace(
        "/sys/class/pci_bus/0000:5e/../../0000:5e:00.0", "/sys/class/net/eth1/device")
    assert _verdict(tmp_path, nic)["cause"] != "nccl_system"


# lead rule AH (3): torch's exit-time CudaIPCTypes warning with nothing failing after it is none, with what to collect
def test_the_cuda_ipc_producer_exit_warning_alone_is_none_with_what_to_collect(tmp_path):
    text = ("epoch 7 step 12000/40000 loss 0.4123 lr 2.0e-4\n"
            "[W1103 14:02:11.482910 5531 torch/csrc/CudaIPCTypes.cpp:16] Producer process has been terminated before "
            "all shared CUDA tensors released. See Note [Sharing CUDA tensors]\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "none" and v["culprits"] == [] and not _accused(d), v
    assert "dmesg" in v["fix"] and "exit code" in v["fix"], v["fix"]
    after = text + ("Traceback (most recent call last):\n  File \"train.py\", line 9, in <module>\n"
                    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n")
    assert _verdict(tmp_path, after)["cause"] == "gpu_oom"
# --- session 14 (rounds 44-45): launch settings shown wrong --------------------------------------------------------
def test_a_launchers_check_of_the_hosts_and_slots_it_is_asked_for_is_config(tmp_path):
    """DeepSpeed's runner (launcher/runner.py parse_resource_filter) refusing its --include filter before any worker
    starts: "No slot '{slot}' specified on host '{hostname}'", "Hostname '{hostname}' not found in hostfile" (lead
    rule X (2)): config, no rank, the fix naming the slots the host has (molgen-25's shape, other hosts and slots)."""
    for tail in ("ValueError: No slot '5' specified on host 'gpu-node-2'\n",
                 "ValueError: Hostname 'worker-7' not found in hostfile\n"):
        text = ("[2024-11-02 08:14:51,311] [WARNING] [runner.py:212:fetch_hostfile] Unable to find hostfile, will "
                "proceed with training with local resources only.\n"
                "Traceback (most recent call last):\n"
                '  File "/opt/venv/bin/deepspeed", line 6, in <module>\n'
                "    main()\n"
                '  File "/opt/venv/lib/python3.11/site-packages/deepspeed/launcher/runner.py", line 451, in main\n'
                "    active_resources = parse_inclusion_exclusion(resource_pool, args.include, args.exclude)\n"
                + tail)
        v = _verdict(tmp_path, text)
        assert v["cause"] == "config" and v["culprits"] == [], (tail, v)
        assert "--include localhost:0" in v["fix"] and "--num_gpus" in v["fix"], v


def test_a_launch_hiding_every_gpu_beside_the_nccl_backend_is_config_naming_no_rank(tmp_path):
    """CUDA_VISIBLE_DEVICES set empty or -1 on the launch command, and the script asking for the nccl backend: NCCL
    cannot run without a GPU, so whatever the launcher records failing is that shared setting (lead rule Q's last
    sentence; ignite-1165's shape, another launcher, exit and backend spelling): config, nobody accused. The same
    lines with GPUs listed, or with the gloo backend, are not read so."""
    head = ("$ CUDA_VISIBLE_DEVICES=-1 torchrun --nproc_per_node=2 train_ddp.py\n"
            "    torch.distributed.init_process_group(backend='nccl')\n")
    tail = ("torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
            "============================================================\n"
            "train_ddp.py FAILED\n"
            "------------------------------------------------------------\n"
            "Failures:\n  <NO_OTHER_FAILURES>\n"
            "------------------------------------------------------------\n"
            "Root Cause (first observed failure):\n" + failure_record(0, 1, 1, -11, 40211) +
            "============================================================\n")
    d = _report(tmp_path, head + tail)
    v = d["verdict"]
    assert v["cause"] == "config" and v["culprits"] == [] and not _accused(d), v
    assert "gloo" in v["fix"] and "CUDA_VISIBLE_DEVICES" in v["fix"], v
    for other in (head.replace("=-1", "=0,1"), head.replace("'nccl'", "'gloo'")):
        assert _verdict(tmp_path, other + tail)["cause"] != "config"


def test_deepspeeds_runner_starting_workers_with_a_path_that_is_no_script_is_config(tmp_path):
    """DeepSpeed's runner's cmd line (runner.py: deepspeed_launch + [user_script] + user_args) whose user script is
    no Python file while the argument after it is one: an option's value given without its option stands where the
    script goes (lead rules AF (1), U (2); deepspeedexamples-575's shape with a config path, other ports and a
    --save_pid): config, no rank. The runner told the script is no Python file (--no_python), or a .py script in
    its place, is not read so."""
    head = ("[2024-03-01 10:11:12,001] [INFO] [runner.py:568:main] cmd = /usr/bin/python3 -u -m "
            "deepspeed.launcher.launch ")
    args = ("--world_info=eyJsb2NhbGhvc3QiOiBbMCwgMSwgMiwgM119 --master_addr=127.0.0.1 --master_port=29631 "
            "--save_pid 4242 --enable_each_rank_log=None")
    bad = head + args + " configs/ds_zero2.json train_sft.py --model_name llama --lr 2e-5\n"
    v = _verdict(tmp_path, bad)
    assert v["cause"] == "config" and v["culprits"] == [], v
    assert "configs/ds_zero2.json" in v["summary"] and "train_sft.py" in v["fix"], v
    for ok in (head + args + " train_sft.py configs/ds_zero2.json --lr 2e-5\n",
               head + args.replace("--save_pid", "--no_python --save_pid") + " bash run.py\n"):
        assert _verdict(tmp_path, ok)["cause"] != "config", ok


def test_accelerate_asked_for_fewer_processes_than_machines_is_config(tmp_path):
    """accelerate's num_processes is the total over all machines: below num_machines a machine gets no process and
    the world cannot form (lead rules V (1), AE; accelerate-2818's shape as its YAML config and as a command line,
    other counts): config, no rank. A total that fills every machine is not read so."""
    yaml = ("compute_environment: LOCAL_MACHINE\ndistributed_type: MULTI_GPU\nmachine_rank: 1\n"
            "main_process_ip: 10.8.0.4\nmain_process_port: 29511\nmixed_precision: bf16\nnum_machines: 4\n"
            "num_processes: 2\nrdzv_backend: static\nsame_network: true\n")
    cli = ("accelerate launch --multi_gpu --num_machines 3 --num_processes 2 --machine_rank 0 "
           "--main_process_ip 10.8.0.4 --main_process_port 29511 finetune.py\n")
    for text in (yaml, cli):
        v = _verdict(tmp_path, text)
        assert v["cause"] == "config" and v["culprits"] == [], (text, v)
        assert "num_processes = total processes over all machines" in v["fix"], v
    assert _verdict(tmp_path, yaml.replace("num_processes: 2", "num_processes: 32"))["cause"] != "config"


def test_a_machine_rank_at_or_past_num_machines_is_config_with_nothing_failing(tmp_path):
    """Round 59: a per-machine launcher (detectron2-style launch()) given --machine-rank at or past its machine count,
    as the trainer's printed argument Namespace or its command line shows it: its workers take global ranks past the
    world and none is rank 0 to host the store, so init waits until the user interrupts (lead rules AA (1), V (1)):
    config, no rank. A machine index below the count is not read so."""
    ns = ("CUDA_VISIBLE_DEVICES=4,5,6,7 python tools/train_net.py --config-file configs/market/sbs_r50.yml "
          "--machine-rank 2 --num-gpus 4\n"
          "Command Line Args: Namespace(config_file='configs/market/sbs_r50.yml', dist_url='tcp://127.0.0.1:50152', "
          "eval_only=False, machine_rank=2, num_gpus=4, num_machines=2, opts=[], resume=False)\n"
          "^CTraceback (most recent call last):\n"
          '  File "tools/train_net.py", line 58, in <module>\n')
    cli = "python train_net.py --num-gpus 8 --num-machines 1 --machine-rank 1 --dist-url tcp://10.2.0.5:29400\n"
    for text in (ns, cli):
        v = _verdict(tmp_path, text)
        assert v["cause"] == "config" and v["culprits"] == [], (text, v)
        assert "--machine-rank 0" in v["fix"] and "machine_rank must be < num_machines" in v["fix"], v
    inside = ns.replace("--machine-rank 2", "--machine-rank 1").replace("machine_rank=2", "machine_rank=1")
    for text in (inside, cli.replace("--machine-rank 1", "--machine-rank 0")):
        assert _verdict(tmp_path, text)["cause"] != "config", text


def test_a_rank_past_accelerates_num_processes_waiting_for_the_unique_id_is_config(tmp_path):
    """accelerate's settings pasted with a failure (num_processes, the total over all machines: ranks 0 ..
    num_processes - 1) and a rank at or past that world timing out in store->get for rank 0's ncclUniqueId: no launch
    with those settings starts that rank, so the machines ran different settings (lead rules AE, AA (1) over G;
    trl-3119's shape as other counts, a YAML config and a command line): config, no rank, medium. A waiting rank
    inside the world stays rule G's rank 0 missing."""
    def wait(rank: int) -> str:
        return (f"[rank{rank}]: torch.distributed.DistBackendError: [{rank}] is setting up NCCL communicator and "
                "retrieving ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: "
                "wait timeout after 600000ms, keys: //worker/attempt_0/default_pg/0//1//cuda//0\n"
                f"[rank{rank}]: Exception raised from doWait at ../torch/csrc/distributed/c10d/TCPStore.cpp:590 "
                "(most recent call first):\n")
    yaml = ("compute_environment: LOCAL_MACHINE\ndistributed_type: MULTI_GPU\nmachine_rank: 2\n"
            "main_process_ip: 10.4.1.7\nmain_process_port: 29500\nmixed_precision: bf16\nnum_machines: 4\n"
            "num_processes: 24\nrdzv_backend: static\nsame_network: true\n")
    cli = ("accelerate launch --multi_gpu --num_machines 2 --num_processes 12 --machine_rank 1 "
           "--main_process_ip 10.4.1.7 --main_process_port 29500 train_grpo.py\n")
    for text, rank in ((yaml + wait(29), 29), (cli + wait(13), 13), (yaml + wait(24), 24)):
        v = _verdict(tmp_path, text)
        assert v["cause"] == "config" and v["culprits"] == [] and v["confidence"] == "medium", (text, v)
        assert f"rank {rank} cannot exist" in v["summary"] and "machine_rank" in v["fix"], v
    v = _verdict(tmp_path, yaml + wait(17))
    assert v["cause"] == "rank_missing" and v["culprits"] == [0], v


def test_accelerates_defaults_notice_alone_is_none_naming_its_options(tmp_path):
    """accelerate launch's notice of the values it defaulted ("If this was unintended please pass in
    `--num_processes=1`"), nothing failing after it: a harmless launcher warning, none, the fix naming the options
    that silence it (accelerate-2920's shape with other values and output)."""
    text = ("$ accelerate launch --num_processes=1 --mixed_precision=bf16 eval.py\n"
            "The following values were not passed to `accelerate launch` and had defaults used instead:\n"
            "\t\tMore than one GPU was found, enabling multi-GPU training.\n"
            "\t\tIf this was unintended please pass in `--num_processes=1`.\n"
            "\t`--dynamo_backend` was set to a value of `'no'`\n"
            "To avoid this warning pass in values for each of the problematic parameters or run `accelerate config`.\n"
            "accuracy: 0.913\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "none" and v["culprits"] == [], v
    assert "warning only" in v["fix"] and "accelerate config" in v["fix"] and "upgrade accelerate" in v["fix"], v


def test_a_process_announcing_a_rank_past_the_world_its_launch_gives_is_config(tmp_path):
    """A launch command continued over shell lines (--nproc_per_node, --nnodes, a world-size argument) and the
    processes' own "| distributed init (rank N): env://" announcements: a rank at or past nproc_per_node x nnodes
    (or the world-size argument) is more processes than the world launched (lead rules V (1), AA (1); fairseq-915's
    shape with torchrun, other counts and the DeiT/MAE wording): config, no rank. Ranks inside the world, or a
    launch that does not say its node count, are not read so."""
    cmd = ("torchrun --nproc_per_node=2 \\\n"
           "    --nnodes=1 --master_port=29877 \\\n"
           "    main_finetune.py --batch_size 64 --world_size 2\n")
    ranks = "| distributed init (rank 1): env://, gpu 1\n| distributed init (rank 0): env://, gpu 0\n"
    v = _verdict(tmp_path, cmd + ranks + "| distributed init (rank 5): env://, gpu 5\n")
    assert v["cause"] == "config" and v["culprits"] == [], v
    assert "rank 5" in v["summary"] and "CUDA_VISIBLE_DEVICES" in v["fix"], v
    assert _verdict(tmp_path, cmd + ranks)["cause"] != "config"
    loose = cmd.replace("    --nnodes=1 ", "    ").replace(" --world_size 2", "")
    assert _verdict(tmp_path, loose + ranks + "| distributed init (rank 5): env://, gpu 5\n")["cause"] != "config"


def test_a_torch_warning_wrapped_after_its_header_is_read_whole(tmp_path):
    """torch's exit-time "destroy_process_group() was not called before program exit" pasted with its glog header
    ("... ProcessGroupNCCL.cpp:1575] Warning: WARNING:") on a line of its own and the message on the next (ms-swift-
    9726's shape with other ranks, stamps and source lines): the warning is read, none, the fix naming
    destroy_process_group. The message without that header before it is not joined to anything."""
    for rank, src in ((24, "1575"), (3, "1421"), (117, "1250")):
        text = (f"[rank{rank}]:[W1103 11:02:{rank % 60:02d}.551302 ProcessGroupNCCL.cpp:{src}] Warning: WARNING:\n"
                "destroy_process_group() was not called before program exit, which can leak resources.\n"
                "For more info, please see https://pytorch.org/docs/stable/distributed.html#shutdown\n"
                "(function operator())\n")
        v = _verdict(tmp_path, text)
        assert v["cause"] == "none" and v["culprits"] == [], v
        assert "destroy_process_group()" in v["fix"] and v["confidence"] == "high", v
    other = "[rank2]:[W1103 11:02:07.551302 ProcessGroupNCCL.cpp:1575] Warning: WARNING:\nsaving checkpoint 12\n"
    v = _verdict(tmp_path, other)
    assert v["cause"] == "none" and "destroy_process_group()" not in v["fix"], v


def test_accelerates_list_of_defaulted_values_alone_is_none(tmp_path):
    """accelerate launch's older notice: only its list of defaulted values ("`--num_processes` was set to a value of
    `1`"), without the multi-GPU sentence (sd-scripts-440's shape, other values and indents): a launcher's warning,
    none, the fix naming accelerate config and the options. A process count below the machine count stays config."""
    head = "The following values were not passed to `accelerate launch` and had defaults used instead:\n"
    for procs, ind in ((1, "        "), (8, "\t")):
        text = (head + f"{ind}`--num_processes` was set to a value of `{procs}`\n"
                f"{ind}`--num_machines` was set to a value of `1`\n"
                f"{ind}`--mixed_precision` was set to a value of `'no'`\n"
                f"{ind}`--dynamo_backend` was set to a value of `'no'`\n")
        v = _verdict(tmp_path, text)
        assert v["cause"] == "none" and v["culprits"] == [], v
        assert "accelerate config" in v["fix"] and "--mixed_precision" in v["fix"], v
    unfit = "num_machines: 4\nnum_processes: 2\n" + head + "\t`--dynamo_backend` was set to a value of `'no'`\n"
    assert _verdict(tmp_path, unfit)["cause"] == "config"


def test_a_frameworks_notice_of_an_nccl_setting_already_made_is_none_naming_it(tmp_path):
    """A framework's warning that an NCCL variable is already set and it keeps it ("NCCL_CUMEM_ENABLE is set to 0,
    skipping override", vLLM's env_override; open-instruct-838's shape with other variables, values and prefixes),
    nothing failing after it: none, the fix naming the variable and saying to leave it as set. A removed setting shown
    the same way is still config (lead rule L)."""
    for line in ("2025-07-29T15:39:27.815Z WARNING 07-29 15:39:27 [env_override.py:17] NCCL_CUMEM_ENABLE is set to 0, "
                 "skipping override. This may increase memory overhead with cudagraph+allreduce: "
                 "https://github.com/NVIDIA/nccl/issues/1234\n",
                 "(RayWorker pid=4411) WARNING 11-02 08:01:13 [env_override.py:21] NCCL_NVLS_ENABLE is already set "
                 "to 1, skipping override.\n"):
        v = _verdict(tmp_path, line)
        name = "NCCL_CUMEM_ENABLE" if "CUMEM" in line else "NCCL_NVLS_ENABLE"
        assert v["cause"] == "none" and v["culprits"] == [], v
        assert f"leave {name} as set" in v["fix"] and "warning" in v["fix"], v
    assert _verdict(tmp_path, "export NCCL_ASYNC_ERROR_HANDLING=1\n")["cause"] == "config"


def test_ncclS_per_call_and_tuner_trace_lines_alone_are_none_naming_the_tuning(tmp_path):
    """NCCL's per-call INFO line ("Broadcast: opCount a ... [nranks=1024]") and its tuner's TRACE ("24 Bytes -> Algo
    1 proto 0"), nothing failing (nccl-1304's shape with other collectives, sizes and prefixes): none, the fix
    decoding the algorithm and protocol and naming NCCL_DEBUG_SUBSYS=TUNING. A WARN beside them is still read."""
    for op, n, algo, proto in (("Broadcast", 1024, 1, 0), ("AllGather", 16, 4, 2)):
        text = (f"[1] NCCL INFO {op}: opCount a sendbuff 0x7f6cb9e00200 recvbuff 0x7f6cb9e00200 count 24 datatype 0 "
                f"op 0 root 0 comm 0x55a2f87b6bb0 [nranks={n}] stream 0x55a2f87bbd40\n"
                f"[1] 15269.938482 topoGetAlgoInfo:1535 NCCL TRACE 24 Bytes -> Algo {algo} proto {proto} time 27.4\n")
        v = _verdict(tmp_path, text)
        assert v["cause"] == "none" and v["culprits"] == [], v
        assert f"Algo {algo} proto {proto}" in v["fix"] and "NCCL_DEBUG_SUBSYS=TUNING" in v["fix"], v
    warn = ("node1:311:402 [0] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion from peer 10.0.0.2 with "
            "error 12\n")
    assert _verdict(tmp_path, "[1] NCCL TRACE 24 Bytes -> Algo 1 proto 0 time 2.1\n" + warn)["cause"] != "none"


# round 47 (lead rule AJ (1)): two NCCL builds in one job, with no version printed -- the same WARN message from
# another source file on another host (2.29's os/linux.cc ncclOsSocketPollConnect, 2.27's misc/socket.cc
# socketPollConnect), or the bootstrap root's "mismatch in info from procs" with the counts agreeing and a field
# garbled -- is nccl_internal, nobody named; the refused connections that follow are its consequence
_REFUSED = ("{h}:{pid}:{pid} [{d}] {src} NCCL WARN {fn}: connect to 10.20.3.{ip}<{port}> returned Connection refused, "
            "exceeded error retry count after 35 attempts\n")


def test_one_nccl_message_from_two_source_files_on_two_hosts_is_two_nccl_builds(tmp_path):
    for ha, hb, port in (("gpu-a01", "gpu-b07", 36141), ("node12", "node3", 40001)):
        a = _REFUSED.format(h=ha, pid=2211, d=1, src="os/linux.cc:200", fn="ncclOsSocketPollConnect", ip=9, port=port)
        b = "".join(_REFUSED.format(h=hb, pid=4100 + i, d=i, src="misc/socket.cc:578", fn="socketPollConnect", ip=9,
                                    port=port) for i in range(3))
        for text in (a + b, b + a):
            d = _report(tmp_path, text)
            v = d["verdict"]
            assert (v["cause"], v["culprits"]) == ("nccl_internal", []) and not _accused(d), v
            assert "same NCCL version" in v["fix"], v["fix"]


def test_the_bootstrap_roots_garbled_field_is_two_nccl_builds(tmp_path):
    root = ("{h}:77:90 [0] bootstrap.cc:345 NCCL WARN Bootstrap Root : mismatch in info from procs, nranks {n} vs {n}, "
            "nroots 1 vs 1, iroot 0 vs 0, offset 0 vs {x}\n")
    for n, x in ((8, -1034223614), (32, 2147418114)):
        text = root.format(h="hostq", n=n, x=x) + _REFUSED.format(h="hostr", pid=5, d=2, src="misc/socket.cc:578",
                                                                  fn="socketPollConnect", ip=4, port=5000)
        v = _verdict(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("nccl_internal", []), v


def test_refusals_from_one_source_file_or_counts_that_differ_are_not_two_builds(tmp_path):
    """Near shapes: the same refusal from one file on two hosts (one build), one message from two lines of one file
    (two call sites of one build: a plugin's accept and connect sides), and a root mismatch whose rank counts differ
    (two launches' worlds on one port, not a message layout)."""
    same = "".join(_REFUSED.format(h=h, pid=3, d=0, src="misc/socket.cc:578", fn="socketPollConnect", ip=9, port=1)
                   for h in ("ha", "hb"))
    lines = "".join(_REFUSED.format(h=h, pid=3, d=0, src=f"misc/socket.cc:{ln}", fn="socketPollConnect", ip=9, port=1)
                    for h, ln in (("ha", 578), ("hb", 601)))
    counts = ("hq:77:90 [0] bootstrap.cc:345 NCCL WARN Bootstrap Root : mismatch in info from procs, nranks 8 vs 16, "
              "nroots 1 vs 1, iroot 0 vs 0, offset 0 vs -981270526\n")
    for text in (same, lines, counts + same):
        assert _verdict(tmp_path, text)["cause"] != "nccl_internal", text


# --- round 49: lead rule Z's one-host clause; an error line an nccl-tests run completed after (rules K, N) --------
def _ofi_start_failing(host: str, pid: int, dev: int, platform: str, stamp: str = "") -> str:
    """One process's aws-ofi-nccl 1.1x failing to start on an EFA instance type, NCCL going on over its sockets."""
    tid = pid + 350
    head = f"{stamp}{host}:{pid}:{tid} [{dev}]"
    return (nccl_info(host, pid, dev, f"NET/OFI Running on {platform} platform, topology file /opt/amazon/ofi-nccl/xml/"
                      "topo.xml", tid=tid)
            + f"{head} int nccl_net_ofi_create_plugin(nccl_net_ofi_plugin_t**):208 NCCL WARN "
            "NET/OFI Failed to initialize sendrecv protocol\n"
            + f"{head} int nccl_net_ofi_create_plugin(nccl_net_ofi_plugin_t**):353 NCCL WARN "
            "NET/OFI aws-ofi-nccl initialization failed\n"
            + f"{head} ncclResult_t nccl_net_ofi_init_v6(ncclDebugLogger_t):162 NCCL WARN "
            "NET/OFI Initializing plugin failed\n"
            + nccl_info(host, pid, dev, "NCCL_IB_DISABLE set by environment to 1.", tid=tid)
            + nccl_info(host, pid, dev, "Using network Socket", tid=tid))


def _init_complete(host: str, pid: int, dev: int, rank: int, nranks: int) -> str:
    return nccl_info(host, pid, dev, f"ncclCommInitRankConfig comm 0x55{rank:02d} rank {rank} nranks {nranks} cudaDev "
                     f"{dev} nvmlDev {dev} busId {dev + 1}01c0 commId 0x52e9 - Init COMPLETE", tid=pid + 350)


def _one_host_job(host: str, pid0: int, n: int, platform: str, nranks: int | None = None, stamp: str = "") -> str:
    return ("".join(_ofi_start_failing(host, pid0 + r, r, platform, stamp) for r in range(n))
            + "".join(_init_complete(host, pid0 + r, r, r, nranks or n) for r in range(n))
            + "***** Running training *****\n")


def test_a_net_plugin_failing_to_start_on_a_job_of_one_host_is_nothing_failing(tmp_path):
    """Lead rule Z's one-host clause (training-on-eks-a2): aws-ofi-nccl failing to start ('Failed to initialize
    sendrecv protocol', 'Initializing plugin failed') on an EFA instance type, NCCL on its sockets, every rank of the
    communicator on that one host reaching 'Init COMPLETE': no traffic between nodes needs the fabric -- none."""
    for host, pid0, n, platform, stamp in (("ip-172-31-3-153", 35113, 4, "p4d.24xlarge", "[2026-01-02 10:24:27] "),
                                           ("gpu-box-1", 9100, 8, "p5.48xlarge", ""),
                                           ("trainer", 2200, 2, "p4de.24xlarge", "2026-01-02T10:24:27Z ")):
        v = _verdict(tmp_path, _one_host_job(host, pid0, n, platform, stamp=stamp))
        assert (v["cause"], v["culprits"]) == ("none", []), v
        assert "single node" in v["fix"] and "NCCL_NET_PLUGIN=none" in v["fix"], v


def test_a_net_plugin_failing_to_start_on_an_excerpt_of_several_nodes_stays_network_setup(tmp_path):
    """The near shapes that must not change (rule Z): the same host's lines where the communicator is larger than the
    processes shown (one node's excerpt of a multi-node job), or two hosts both left on NCCL's sockets."""
    excerpt = _one_host_job("ip-10-0-1-7", 5000, 4, "p4d.24xlarge", nranks=16)
    assert _verdict(tmp_path, excerpt)["cause"] == "network_setup"
    two = (_one_host_job("node-a", 5000, 2, "p5.48xlarge", nranks=4)
           + _one_host_job("node-b", 6000, 2, "p5.48xlarge", nranks=4).replace(" rank 0 ", " rank 2 ")
           .replace(" rank 1 ", " rank 3 "))
    assert _verdict(tmp_path, two)["cause"] == "network_setup"


def _clean_table_run(prefix: str = "") -> str:
    """An nccl-tests all_reduce_perf table that ran to its end, 0 wrong at every size."""
    rows = "".join(f"{prefix}  {s:>12}  {s // 4:>12}     float     sum      -1    85.1    0.05    0.09      0    "
                   "84.2    0.05    0.09      0\n" for s in (8, 1024, 1048576))
    return (f"{prefix}#       size         count      type   redop    root     time   algbw   busbw #wrong     time   "
            "algbw   busbw #wrong\n" + rows + f"{prefix}# Out of bounds values : 0 OK\n"
            f"{prefix}# Avg bus bandwidth    : 20.2635 \n")


def test_error_lines_an_nccl_tests_run_completed_after_are_benign(tmp_path):
    """Rules K, N (awsome-distributed-training slurm-104): lines announcing an error in words no family reads (Slurm
    PMIx's 'PMIX ERROR: ERROR in file gds_ds12_lock_pthread.c', another library's 'ERROR: ...') on every rank, then
    the nccl-tests run completing ('Avg bus bandwidth', 0 wrong): they stopped nothing -- none, nobody named."""
    pmix = "".join(f"{r:2d}: [compute-{r // 4}:{7700 + r}] PMIX ERROR: ERROR in file gds_ds12_lock_pthread.c at line "
                   "168\n" for r in range(8))
    v = _verdict(tmp_path, pmix + _clean_table_run(" 0: "))
    assert (v["cause"], v["culprits"]) == ("none", []), v
    assert "PMIX_MCA_gds=hash" in v["fix"] and "benign" in v["fix"], v
    other = "".join(f"[1,{r}]<stderr>:ERROR: hwloc topology discovery failed on node{r}\n" for r in range(3))
    v = _verdict(tmp_path, other + _clean_table_run())
    assert (v["cause"], v["culprits"]) == ("none", []), v


def test_an_error_line_after_the_run_completed_or_with_no_completion_is_still_a_failure_shown(tmp_path):
    """The near shapes that must not change: the same error line after the run's completion (something failed after
    it), or with the table cut before its end (no completion): the last reading's unknown stays."""
    line = " 3: [compute-1:7703] PMIX ERROR: ERROR in file gds_ds12_lock_pthread.c at line 168\n"
    assert _verdict(tmp_path, _clean_table_run(" 0: ") + line)["cause"] == "unknown"
    cut = _clean_table_run(" 0: ").split("# Out of bounds")[0]
    assert _verdict(tmp_path, line + cut)["cause"] != "none"


# round 51: NCCL (2.18 among others) returns its own socket's failure in set-up as ncclInternalError; lead rule X (3)
# classes an internal error by its Last error (proxy.cc's "Socket recv failed while polling for opId=%p")
def test_an_internal_error_whose_last_error_is_ncclS_own_socket_is_network_setup(tmp_path):
    head = ("torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:"
            "{line}, internal error - please report this issue to the NCCL developers, NCCL version {ver}\n"
            "ncclInternalError: Internal check failed.\nLast error:\n{last}\n")
    shapes = (
        ("", 1333, "2.18.1", "Socket recv failed while polling for opId=0x7f22ff731e10"),
        ("[rank5]:", 1691, "2.19.3", "Socket recv failed while polling for opId=0x55d0c4a81f00"),
        ("node-3: ", 1970, "2.18.6", "Socket recv failed while polling for opId=0x1c2f9e0"),
        ("[default3]:", 2006, "2.20.5", "socketProgressOpt: Call to recv from 10.1.0.8<47321> failed : No route "
                                        "to host"),
    )
    for prefix, line, ver, last in shapes:
        text = "".join(prefix + x + "\n" for x in head.format(line=line, ver=ver, last=last).splitlines())
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("network_setup", []) and not _accused(d), (last, v)
        assert "NCCL_SOCKET_IFNAME" in v["fix"], v["fix"]
        assert "opId" not in last or "other ranks' logs" in v["fix"], v["fix"]
    # not a socket's: the topology XML missing an attribute stays NCCL's own internal error; a peer that closed the
    # socket may be a peer gone mid-run (rule O), which these words alone do not place in set-up
    other = head.format(line=1333, ver="2.18.1", last="Attribute busid of node nic not found")
    assert _verdict(tmp_path, other)["cause"] == "nccl_internal"
    closed = head.format(line=1333, ver="2.18.1", last="socketProgress: Connection closed by remote peer n2<41822>")
    assert _verdict(tmp_path, closed)["cause"] != "network_setup"


# round 51: cuGetErrorString(CUDA_ERROR_NOT_SUPPORTED) / cudaErrorInsufficientDriver as the Last error of an
# ncclInternalError: the NCCL/CUDA build calls what the installed driver does not have (lead rule X (3): a version
# problem is nccl_internal), not a GPU's CUDA fault, nor a feature the job asked for
def test_an_internal_error_whose_last_error_is_the_driver_too_old_is_the_build_against_the_driver(tmp_path):
    shapes = (
        "RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1269, internal error, NCCL "
        "version 2.14.3\nncclInternalError: Internal check failed.\nLast error:\nCuda failure 'API call is not "
        "supported in the installed CUDA driver'\nNVIDIA-SMI 450.51.05    Driver Version: 450.51.05    CUDA Version: "
        "11.0\n",
        "[rank2]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:317,"
        " internal error - please report this issue to the NCCL developers, NCCL version 2.21.5\n"
        "[rank2]: ncclInternalError: Internal check failed.\n[rank2]: Last error:\n"
        "[rank2]: Cuda failure 'CUDA driver version is insufficient for CUDA runtime version'\n",
        "gpu-4:7701:7790 [1] init.cc:1201 NCCL WARN Cuda failure 'API call is not supported in the installed CUDA "
        "driver'\nRuntimeError: NCCL error in: ProcessGroupNCCL.cpp:1191, internal error, NCCL version 2.16.2\n"
        "ncclInternalError: Internal check failed.\nLast error:\nCuda failure 'API call is not supported in the "
        "installed CUDA driver'\n",
    )
    for text in shapes:
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("nccl_internal", []) and not _accused(d), v
        assert "Upgrade the NVIDIA driver" in v["fix"] and "CUDA version" in v["fix"], v["fix"]
    # the same driver's words returned as NCCL's unhandled cuda error stay the CUDA error (lmdeploy-1108's reading)
    cuda = ("init.cc:1582 NCCL WARN Cuda failure 'CUDA driver version is insufficient for CUDA runtime version'\n"
            "Failed, NCCL error nccl_utils.cc:296 'unhandled cuda error (run with NCCL_DEBUG=INFO for details)'\n")
    assert _verdict(tmp_path, cuda)["cause"] == "cuda_error"


# round 51: lead rule AH (2) without NCCL's own "Cannot initialize CollNet" line: the SHARP plugin failing to create
# its group (sharp_plugin.c: "SHARP group create: Streaming Tree lock failed (-18)"), beside the SHARP library's own
# ERROR lines ("[HOST:RANK:PID - comm.c:N] ERROR Failed to lock SAT tree"), with nothing failing after it
def test_a_sharp_group_that_cannot_be_created_with_nothing_failing_after_is_none(tmp_path):
    def shaped(hosts, dev, ret, tree):
        out = "".join(f"[{h}:{i}:{pid} - comm.c:37{i}] ERROR Failed to lock SAT tree(ID:{tree} ret:0x4)\n"
                      for i, (h, pid) in enumerate(hosts))
        out += "".join(nccl_info(h, pid, dev, f"Sharp rank {i}/{len(hosts)} initialized on mlx5_{dev}:1",
                                 tid=pid + 90) for i, (h, pid) in enumerate(hosts))
        return out + "".join(f"{h}:{pid}:{pid + 90} [{dev}] sharp_plugin.c:302 NCCL WARN SHARP group create: "
                             f"Streaming Tree lock failed ({ret})\n" for h, pid in hosts)

    for args in ((("C25L18", 24972), ("C25L19", 19373)), 3, -18, "0x40"), \
                ((("dgx-a01", 5110), ("dgx-a02", 6220), ("dgx-a03", 7330)), 0, -11, "0x41"), \
                ((("node7", 301),), 5, -2, "0x80"):
        text = shaped(*args)
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("none", []) and not _accused(d), (args, v)
        assert "NCCL_COLLNET_ENABLE=0" in v["fix"] and "SHARP_COLL_ENABLE_SAT=0" in v["fix"], v["fix"]
    # something failing after it, or NCCL left on its sockets: not none
    failed = text + ("RuntimeError: NCCL error in: ProcessGroupNCCL.cpp:1269, internal error, NCCL version 2.18.3\n"
                     "ncclInternalError: Internal check failed.\n")
    assert _verdict(tmp_path, failed)["cause"] != "none"
    assert _verdict(tmp_path, text + watchdog_line(3, 12, "ALLREDUCE", 600012, 600000))["cause"] != "none"
    on_sockets = text + nccl_info("node7", 301, 5, "Using network Socket")
    assert _verdict(tmp_path, on_sockets)["cause"] != "none"


# session 17 (fix51-J2): a launcher's own words for a worker forked after CUDA was initialised (lead rule AF (2))
def test_a_notebook_launchers_check_that_cuda_was_initialised_before_the_fork_is_config(tmp_path):
    """accelerate's notebook_launcher: its pre-launch check ("An issue was found when verifying a stable environment
    ... causing CUDA to be initialized.", accelerate-3524's shape behind other prefixes and pids) and its launch's own
    "CUDA has been initialized before the `notebook_launcher` could create a forked subprocess": the fork start method
    every worker shares with CUDA already used in the notebook, config, nobody named; the fix says what to do in a
    notebook (restart the kernel, no CUDA before the launch), not the spawn start method a notebook cannot use."""
    check = ("notebook_launcher failed: An issue was found when verifying a stable environment for the notebook "
             "launcher.This likely stems from an outside import causing issues once the `notebook_launcher()` is "
             "called. Please review your imports and test them when running the `notebook_launcher()` to identify "
             "which one is problematic and causing CUDA to be initialized.\n")
    launch = ("RuntimeError: CUDA has been initialized before the `notebook_launcher` could create a forked "
              "subprocess. This likely stems from an outside import causing issues once the `notebook_launcher()` is "
              "called.\n")
    sigterm = ("W1107 13:02:11.420000 {pid} torch/multiprocessing/spawn.py:160] Terminating process {child} via "
               "signal SIGTERM\n")
    for text in (sigterm.format(pid=311, child=377) + check, "[I 2025-01-02 10:00:01] " + check,
                 sigterm.format(pid=90, child=95) + launch):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), (text, v)
        assert "restart the kernel" in v["fix"] and "notebook_launcher" in v["fix"], v["fix"]
    # the same launcher's other failure ("The following error was raised: ...") is not the fork's
    other = ("notebook_launcher failed: An issue was found when verifying a stable environment for the notebook "
             "launcher. The following error was raised: ValueError: bad batch\n")
    assert _verdict(tmp_path, other)["cause"] != "config"


# session 17 (fix51-J2): accelerate's coordinator on the loopback for several machines (lead rules AE, AA (1))
def test_accelerate_main_process_ip_on_the_loopback_for_several_machines_is_config(tmp_path):
    """moss-267's shape with other counts, addresses and orders: accelerate's main_process_ip 127.0.0.1 / localhost
    (its config file or command line) while num_machines asks for several machines (on the command line or in the
    file), then the store's Socket Timeout: every other machine looks for machine 0's coordinator on itself, the world
    cannot form -- config, nobody named, not the store's own failure. One machine on the loopback is no fault."""
    yaml = ("compute_environment: LOCAL_MACHINE\ndistributed_type: DEEPSPEED\nmachine_rank: 0\n"
            "main_process_ip: {ip}\nmain_process_port: 22222\nnum_machines: {m}\nnum_processes: 8\n")
    script = "num_machines={m}\naccelerate launch --config_file sft.yaml --num_machines $num_machines train.py\n"
    timeout = "RuntimeError: Socket Timeout\n"
    cli = ("accelerate launch --num_machines 3 --num_processes 24 --machine_rank 0 --main_process_ip localhost "
           "--main_process_port 29500 train.py\n")
    for text in (timeout + script.format(m=6) + yaml.format(ip="127.0.0.1", m=1),
                 yaml.format(ip="127.0.1.1", m=4) + timeout, cli + timeout):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), (text, v)
        assert "main_process_ip" in v["fix"] and "machine_rank" in v["fix"], v["fix"]
    assert _verdict(tmp_path, timeout + yaml.format(ip="127.0.0.1", m=1))["cause"] == "store_rendezvous"
    assert _verdict(tmp_path, timeout + yaml.format(ip="10.0.3.7", m=4))["cause"] == "store_rendezvous"


# Lead rule AA (1) on launch commands that give each machine its node index and its rendezvous URL (round 52's
# slowfast-234: SlowFast's --shard_id / --init_method, the command continued over backslashed lines): two machines
# pointed at different endpoints never meet, config, no rank -- even with nothing failing.
def _machine(idx: int, url: str, flag: str = "--shard_id", url_flag: str = "--init_method") -> str:
    return (f"python -u tools/run_net.py \\\n --cfg configs/Kinetics/SLOWFAST_8x8_R50.yaml \\\n {flag} {idx} \\\n"
            f" --num_shards 2 \\\n {url_flag} {url} \\\n NUM_GPUS 4 TRAIN.BATCH_SIZE 32\n\n")


def test_machines_launched_with_different_rendezvous_urls_are_config(tmp_path):
    for a, b, flag, url_flag in (("tcp://127.0.0.1:40000", "tcp://10.110.17.113:50933", "--shard_id", "--init_method"),
                                 ("tcp://10.0.0.5:23456", "tcp://10.0.0.6:23456", "--machine-rank", "--dist-url"),
                                 ("tcp://gpu-a:29500", "tcp://gpu-a:29501", "--node_rank", "--init_method")):
        text = ("in the master machine:\n" + _machine(0, a, flag, url_flag) + "in the second machine:\n"
                + _machine(1, b, flag, url_flag) + "[INFO: train_net.py:  307]: Start epoch: 1\n")
        v = _verdict(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("config", []), (a, b, v)


def test_machines_launched_at_one_rendezvous_url_are_not_config(tmp_path):
    """Negative: the same endpoint on both machines (node 0 may name itself by loopback with the same port)."""
    for a, b in (("tcp://10.0.0.5:23456", "tcp://10.0.0.5:23456"), ("tcp://127.0.0.1:40000", "tcp://10.1.1.2:40000")):
        text = _machine(0, a) + _machine(1, b) + "[INFO: train_net.py:  307]: Start epoch: 1\n"
        v = _verdict(tmp_path, text)
        assert v["cause"] != "config", (a, b, v)


# --- session 17 (fix53 L1): gloo on Windows -- a build or a backend every rank shares refusing (rules Q, AP) ---------
@pytest.mark.parametrize("head,tail", [
    ("", "RuntimeError: makeDeviceForHostname(): unsupported gloo device\n"),
    ("[rank3]: ", "RuntimeError: makeDeviceForInterface(): unsupported gloo device\n"),
    ("2026-01-02 10:00:01 | ", "RuntimeError: makeDeviceForHostname(): unsupported gloo device\n"),
])
def test_gloo_with_no_device_for_its_transport_is_the_build_config(tmp_path, head, tail):
    """torch's GlooDeviceFactory throws "makeDeviceFor...(): unsupported gloo device" only when its registry has no
    creator for the transport (a Windows build without gloo's libuv transport, or GLOO_DEVICE_TRANSPORT naming none):
    before any address is used, the build every process shares cannot serve gloo -- config, no rank (rule AP)."""
    text = "".join(head + line for line in (
        "Traceback (most recent call last):\n",
        '  File "C:\\app\\env\\lib\\site-packages\\torch\\distributed\\distributed_c10d.py", line 1949, in '
        "_new_process_group_helper\n", "    backend_class = ProcessGroupGloo(\n", tail))
    v = _verdict(tmp_path, text)
    assert v["cause"] == "config" and v["culprits"] == [], v
    assert "GLOO_DEVICE_TRANSPORT" in v["fix"], v


def test_gloos_own_empty_hostname_error_stays_network_setup(tmp_path):
    """The near shape: gloo's own address error from inside makeUVDevice ("interface or hostname can't be empty")
    is an address the transport could not use (rule L), not a missing transport: it keeps its network_setup."""
    text = ("Traceback (most recent call last):\n"
            '  File "C:\\app\\env\\lib\\site-packages\\torch\\distributed\\distributed_c10d.py", line 1949, in '
            "_new_process_group_helper\n    backend_class = ProcessGroupGloo(\n"
            "RuntimeError: GlooDeviceFactory::makeUVDevice(): interface or hostname can't be empty\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "network_setup", v


@pytest.mark.parametrize("prefix,arg,backend,local", [
    ("", "device_ids", "gloo", 0),
    ("[rank1]: ", "device_ids", "gloo", 1),
    ("[default2]:", "async_op", "mpi", 2),
])
def test_an_argument_the_shared_backend_refuses_is_config_not_the_rank_the_launcher_saw(
        tmp_path, prefix, arg, backend, local):
    """distributed_c10d's "Function argument device_ids not supported for the selected backend gloo" (barrier with
    device_ids on Windows, where gloo is the backend): the code and the backend every rank runs (rule Q) -- config,
    nobody accused, even though torchrun's record names the one local rank it saw fail."""
    text = (f"{prefix}RuntimeError: Function argument {arg} not supported for the selected backend {backend}\n"
            f"ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: {local} "
            f"(pid: {23000 + local}) of binary: E:\\Conda\\envs\\x\\python.exe\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert arg in v["fix"] and backend in v["fix"], v


def test_another_exception_beside_the_launchers_record_is_not_read_as_the_backends_argument(tmp_path):
    """The near shape: the same torchrun record under an ordinary exception of the rank's own code is not a backend
    refusing an argument, so it does not become config."""
    text = ("RuntimeError: Expected all tensors to be on the same device, but found at least two devices\n"
            "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 23812) of "
            "binary: E:\\Conda\\envs\\x\\python.exe\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] != "config", v


# --- round 54: set-up chatter over the socket transport, rank 0 away from the master, rows without their footer ------
def test_a_v6_link_local_veth_beside_the_routable_socket_interface_is_chatter_named_in_the_fix(tmp_path):
    """Rule K: NET/Socket using a routable interface and, after it, a docker veth holding only an IPv6 link-local
    address, with nothing failing, is set-up chatter (none); the fix names the veth to exclude and the socket
    fallback. An IPv4 link-local interface beside them (169.254.x.x, alike on every host) stays network_setup."""
    ifs = "[0]eth2:10.8.4.21<0> [1]vethc03e9a1:fe80::6c2:1bff:fe0a:44d1%vethc03e9a1<0>"
    text = "".join(nccl_info("gpu-n4", 2210, 0, t, tid=2290) for t in (
        f"Bootstrap : Using {ifs}", "NET/Plugin : No plugin found (libnccl-net.so), using internal implementation",
        f"NET/Socket : Using {ifs}", "Using network Socket", "Channel 00/02 :    0   1",
        "Channel 00 : 1[3b000] -> 0[3b000] [receive] via NET/Socket/0"))
    warn = "gpu-n4:2210:2290 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]\n"
    v = _verdict(tmp_path, warn + text)
    assert (v["cause"], v["culprits"]) == ("none", []), v
    assert "vethc03e9a1" in v["fix"] and "NCCL_SOCKET_IFNAME" in v["fix"] and "NET/Socket" in v["fix"], v["fix"]
    v4 = text.replace(f"NET/Socket : Using {ifs}", f"NET/Socket : Using {ifs} [2]enx0c37:169.254.9.1<0>")
    assert _verdict(tmp_path, v4)["cause"] == "network_setup"


def test_nccl_23s_internal_socket_wording_is_read_as_the_socket_transport(tmp_path):
    """NCCL 2.3's "Using internal Network Socket" over an ib0 interface, nothing failing: none, and the fix says the
    IB transport was not loaded (libibverbs, NCCL_IB_DISABLE) and which interface to pin."""
    text = "".join(nccl_info("node7", 3301 + r, r, t) for r in range(2) for t in (
        "NET : Using interface ib0:10.2.0.17<0>", "NET/IB : Using interface ib0 for sideband communication",
        "Using internal Network Socket", f"rank {r} nranks 4"))
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("none", []), v
    assert "NCCL_IB_DISABLE" in v["fix"] and "libibverbs" in v["fix"], v["fix"]


def test_nccls_version_line_printed_on_a_host_other_than_the_master_is_config(tmp_path):
    """Rule AA (1): NCCL prints its bare version line in rank 0 only, right after that process's own set-up lines;
    printed on node-b while the launch command's master address is node-a (whose processes are in the lines too),
    global rank 0 is not on the master node: config, nobody accused. On the master's host it is chatter."""
    launch = ("python -m torch.distributed.launch --nproc_per_node 2 --nnodes 2 --master_addr node-a "
              "--master_port 29411 --node_rank 0 train.py\n")
    head = "".join(nccl_info("node-b", 8120, 0, t) for t in (
        "Bootstrap : Using [0]ib0:10.3.0.12<0>", "NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:10.3.0.12<0>",
        "Using network IB"))
    rest = "".join(nccl_info(h, p, d, "Bootstrap : Using [0]ib0:10.3.0." + a + "<0>")
                   for h, p, d, a in (("node-a", 611, 1, "11"), ("node-b", 8121, 1, "12"), ("node-a", 610, 0, "11")))
    d = _report(tmp_path, launch + head + "NCCL version 2.8.4+cuda11.1\n" + rest)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "--node_rank" in v["fix"] and "MASTER_ADDR" in v["fix"], v["fix"]
    same = launch.replace("node-a", "node-b")
    assert _verdict(tmp_path, same + head + "NCCL version 2.8.4+cuda11.1\n" + rest)["cause"] != "config"


def test_nccl_tests_rows_with_nonzero_wrong_counts_without_their_footer_are_wrong_results(tmp_path):
    """Rule S: a paste that keeps only v2.13+ result rows (redop, root -1, both sides' #wrong) after Init COMPLETE,
    with no table header nor 'Out of bounds values' line, and nonzero #wrong: silent corruption, cause unknown,
    nobody named, the fix isolating protocol and algorithm."""
    text = (nccl_info("gx1", 4410, 0, "comm 0x55d1 rank 0 nranks 4 cudaDev 0 busId 1000 - Init COMPLETE")
            + "#\n"
            + "".join(f"     {s:>7}   {s // 4:>7}     float     sum      -1    210.4    0.00    0.00    {w:>4}    "
                      f"212.9    0.00    0.00    {w + 3:>4}\n" for s, w in ((32, 7), (64, 19), (128, 40))))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "unknown" and not _accused(d), v
    assert "NCCL_PROTO" in v["fix"] and "NCCL_ALGO" in v["fix"], v["fix"]


# --- session 18 (fix54 F4): NCCL's proxy sockets closing after another process's own set-up error (rule AQ (1)) -----
def _proxy_closed_after(first: str) -> str:
    """Two processes of one host at communicator set-up: process 5120 (device [3]) with the trail FIRST, then
    process 5121 (device [0]) whose proxy connection to it closes inside its P2P set-up. Host and pids made up."""
    other = ("gpu07:5121:5190 [0] misc/socket.cc:49 NCCL WARN socketProgress: Connection closed by remote peer "
             "gpu07<41877>\n"
             "gpu07:5121:5190 [0] NCCL INFO misc/socket.cc:752 -> 6\n"
             "gpu07:5121:5190 [0] proxy.cc:1143 NCCL WARN Socket recv failed while polling for opId=0x7f01c2a0\n"
             "gpu07:5121:5190 [0] NCCL INFO transport/p2p.cc:251 -> 3\n"
             "gpu07:5121:5190 [0] NCCL INFO transport.cc:165 -> 3\n"
             "gpu07:5121:5190 [0] NCCL INFO init.cc:1190 -> 3\n")
    return first + other


def test_proxy_closures_after_another_processs_system_error_take_its_class(tmp_path):
    """Lead rule AQ (1): the first failure in the lines is process 5120's own set-up error (its async init thread
    returning 2, ncclSystemError); the proxy socket closures process 5121 sees after it are that error's consequence:
    nccl_system, nobody named ([N] is a CUDA device). The socket texts printed first, or by the same process, stay
    rule O's set-up network_setup."""
    own = ("gpu07:5120:5188 [3] NCCL INFO group.cc:72 -> 2 [Async thread]\n"
           "gpu07:5120:5120 [3] NCCL INFO group.cc:421 -> 2\n")
    d = _report(tmp_path, _proxy_closed_after(own))
    v = d["verdict"]
    assert v["cause"] == "nccl_system" and v["culprits"] == [] and _accused(d) == set(), v
    assert "NCCL_DEBUG=INFO" in v["fix"] and "/dev/shm" in v["fix"], v["fix"]
    # the socket texts first: the network's set-up (rule O)
    assert _verdict(tmp_path, _proxy_closed_after("")[:-1] + "\n" + own)["cause"] == "network_setup"
    # the same process's own trail: its own socket failure returning 2 is no other process's error
    same = own.replace("5120", "5121")
    assert _verdict(tmp_path, _proxy_closed_after(same))["cause"] == "network_setup"


# lead rules AD (3), K (round 55): a process's communicator abort completing ("Abort COMPLETE"), then its proxy and
# bootstrap threads' sockets unwinding (socket.cc -> 3) and the proxy's "[Service thread] Accept failed Success": the
# abort's own teardown, none; the trail before any abort (above) stays NCCL's socket layer
def test_nccls_socket_trail_after_its_own_abort_completed_is_teardown(tmp_path):
    text = (nccl_info("dgx-7", 3310, 2, "comm 0x61a0 rank 0 nranks 1 cudaDev 2 busId 3b000 - Abort COMPLETE", tid=3920)
            + "".join(nccl_info("dgx-7", 3310, 2, f"misc/socket.cc:{n} -> 3", tid=3488) for n in (47, 752, 428, 668))
            + "dgx-7:3310:3488 [2] proxy.cc:1460 NCCL WARN [Service thread] Accept failed Success\n"
            + nccl_info("dgx-7", 3310, 2, "comm 0x61b4 rank 1 nranks 2 cudaDev 2 busId 3b000 - Abort COMPLETE",
                        tid=3921))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("none", []) and not _accused(d), v
    assert "first error above the abort lines" in v["fix"] + v["summary"], v
    # a watchdog timeout with it is a failure of its own
    assert _verdict(tmp_path, text + watchdog_line(0, 12, "ALLREDUCE", 600030, 600000))["cause"] != "none"


# --- round 57: the proxy service at teardown; the CUDA driver library and MSCCL's algorithm files (lead rule AT) ---
def test_the_proxy_services_close_failing_at_teardown_is_benign(tmp_path):
    """proxy.cc's service thread as a communicator is aborted: "[Service thread] Could not receive type from
    localRank %d, res=%d, closed=%d", "[Proxy Service %d] Failed to execute operation %s from rank %d, retcode %d"
    for the Close op, then init.cc's "comm %p rank %d nranks %d ... - Abort COMPLETE"; nothing fails after it."""
    text = ("gpu-a3:8120:8177 [1] proxy.cc:1490 NCCL WARN [Service thread] Could not receive type from localRank 1, "
            "res=3, closed=0\n"
            "gpu-a3:8120:8177 [1] proxy.cc:1515 NCCL WARN [Proxy Service 0] Failed to execute operation Close from "
            "rank 0, retcode 3\n"
            "gpu-a3:8121:8190 [1] NCCL INFO comm 0x5591aa00 rank 0 nranks 4 cudaDev 1 busId 41000 - Abort COMPLETE\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "none" and v["culprits"] == [], v
    assert "destroy_process_group" in v["fix"] and "NCCL_DEBUG=WARN" in v["fix"], v


def test_the_proxy_losing_a_local_rank_beside_a_failure_is_not_teardown(tmp_path):
    """The same service-thread WARN with no Close op and no abort, and a rank's traceback: a local rank lost."""
    text = ("gpu-a3:8120:8177 [1] proxy.cc:1490 NCCL WARN [Service thread] Could not receive type from localRank 1, "
            "res=3, closed=0\n"
            "[rank1]: RuntimeError: CUDA error: an illegal memory access was encountered\n")
    assert _verdict(tmp_path, text)["cause"] != "none"


def test_nccl_unable_to_load_the_cuda_driver_library_is_the_install(tmp_path):
    """misc/cudawrap.cc "Failed to find CUDA library %s (NCCL_CUDA_PATH='%s') : %s" on two processes of one host,
    no CUDA call shown failing (lead rule AT (1))."""
    text = "".join(f"wsl-box:{pid}:{pid} [{d}] misc/cudawrap.cc:180 NCCL WARN Failed to find CUDA library libcuda.so "
                   "(NCCL_CUDA_PATH='') : libcuda.so: cannot open shared object file: No such file or directory\n"
                   for pid, d in ((901, 0), (902, 1)))
    v = _verdict(tmp_path, "wsl-box:901:901 [0] NCCL INFO NCCL version 2.19.3+cuda12.2\n" + text)
    assert v["cause"] == "config" and v["culprits"] == [], v
    assert "libcuda.so" in v["fix"] and "LD_LIBRARY_PATH" in v["fix"], v


def test_an_msccl_algorithm_file_missing_an_attribute_is_the_algorithm_xml(tmp_path):
    """MSCCL's executor parsing its algorithm files with NCCL's XML code (include/msccl/msccl_parser.h "Attribute
    %s of node %s not found", then the trail "-> 3" through msccl_lifecycle.cc and init.cc; lead rule AT (3))."""
    text = ("box:310:355 [3] NCCL INFO Using MSCCL Algo files from /opt/msccl/build/lib/msccl-algorithms\n"
            "box:310:355 [3] include/msccl/msccl_parser.h:70 NCCL WARN Attribute maxBytes of node algo not found\n"
            "box:310:355 [3] NCCL INFO misc/msccl/msccl_lifecycle.cc:150 -> 3\n"
            "box:310:355 [3] NCCL INFO init.cc:1250 -> 3\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "nccl_internal" and v["culprits"] == [], v
    assert "MSCCL algorithm XML" in v["fix"] and "NCCL_TOPO_FILE" not in v["fix"], v


# --- session 19 (round 57): a launcher's own waiting stack, and a start-up banner that stops -------------------------
def test_a_launchers_stack_waiting_on_its_worker_is_unknown_not_none(tmp_path):
    """The parent of torch.distributed.launch interrupted (or dumped) in subprocess's wait on its worker, no exception
    line after it and no worker's line: it shows a worker still alive and nothing more. Not "nothing failed" (the job
    was stopped), not a rank: unknown, nobody named; the fix asks for the workers' own logs and stacks."""
    text = ("Traceback (most recent call last):\n"
            '  File "/opt/py/lib/python3.8/runpy.py", line 194, in _run_module_as_main\n'
            '    return _run_code(code, main_globals, None,\n'
            '  File "/opt/py/lib/python3.8/site-packages/torch/distributed/launch.py", line 260, in main\n'
            "    process.wait()\n"
            '  File "/opt/py/lib/python3.8/subprocess.py", line 1083, in wait\n'
            "    return self._wait(timeout=timeout)\n"
            '  File "/opt/py/lib/python3.8/subprocess.py", line 1806, in _wait\n'
            "    (pid, sts) = self._try_wait(0)\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "unknown" and v["culprits"] == [] and not _accused(d), v
    assert "py-spy dump of every worker" in v["fix"] and "workers' own logs" in v["fix"], v["fix"]
    # the same stack ending in the user's Ctrl-C is the signal it shows
    assert _verdict(tmp_path, text + "KeyboardInterrupt\n", "ctrl_c.log")["cause"] == "signal"


def test_a_ddp_start_up_banner_alone_says_to_rerun_with_nccl_debug_info(tmp_path):
    """Lightning's banner for every rank ("initializing ddp: GLOBAL_RANK: r, MEMBER: r+1/W") and nothing after it
    shows nothing failing (lead rules K, T): none, nobody named; if it hangs there the fix says what to collect,
    NCCL_DEBUG=INFO among it (the rank that never completes its set-up)."""
    text = "GPU available: True, used: True\nLOCAL_RANK: 0 - CUDA_VISIBLE_DEVICES: [0,1,2]\n" + "".join(
        f"initializing ddp: GLOBAL_RANK: {r}, MEMBER: {r + 1}/3\n" for r in range(3))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert v["cause"] == "none" and v["culprits"] == [] and not _accused(d), v
    assert "NCCL_DEBUG=INFO" in v["fix"] and "py-spy dump" in v["fix"], v["fix"]
