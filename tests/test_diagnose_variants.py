"""diagnose reads the same log the same way whatever launcher or collector printed it
(issue #14: generalise to real logs, not to one wording), and reads the wordings of the
NCCL and torch versions the corpus has no case for. Verbatim lines cite their source. The
whole corpus in every launcher format is integration tier (tests/conftest.py); the quick tier
checks every format on tests/_corpus.sample (3 cases of each cause class)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ncclDoctor.diagnose import diagnose
from ncclDoctor.diagnose.parse import LineParser
from tests import _corpus
from tests._corpus import bench

ROOT = Path(__file__).resolve().parent.parent

TIMEOUT = ("[E ProcessGroupNCCL.cpp:737] [Rank 1] Watchdog caught collective operation timeout: "
           "WorkNCCL(SeqNum=1580, OpType=ALLREDUCE, NumelIn=4, NumelOut=4, Timeout(ms)=600000) "
           "ran for 600060 milliseconds before timing out.")


def _verdict(tmp_path, text: str, name: str = "job.log") -> dict:
    (tmp_path / name).write_text(text)
    return diagnose([str(tmp_path / name)]).results["diagnose"]["verdict"]


@pytest.mark.parametrize("variant", sorted(bench.VARIANTS))
def test_every_corpus_case_scores_the_same_in_every_launcher_format(variant):
    """Integration tier: every case of both splits (the sweep grows with the corpus)."""
    changed = _corpus.changed(variant, bench.load_cases("all"), strict=False)
    assert not changed, [(cid, r["got"]) for cid, r in changed]


@pytest.mark.parametrize("variant", sorted(bench.VARIANTS))
def test_a_sample_of_every_cause_scores_the_same_in_every_launcher_format(variant):
    """Quick tier: 3 cases of each cause class (tests/_corpus.sample), a fixed size however the corpus grows."""
    cases = _corpus.sample(bench.load_cases("all"))
    assert {c["expected"]["cause"] for c in cases} == {c["expected"]["cause"] for c in bench.load_cases("all")}
    changed = _corpus.changed(variant, cases, strict=False)
    assert not changed, [(cid, r["got"]) for cid, r in changed]


@pytest.mark.parametrize("line, rank", [
    (f"2024-05-01T12:00:00.123456789Z {TIMEOUT}", 1),                 # kubectl logs --timestamps
    (f"\x1b[1;31m{TIMEOUT}\x1b[0m", 1),                               # a coloured terminal
    (f"[default3]:{TIMEOUT}", 1),                                     # torchrun --tee 3
    (f"[1,5]<stderr>:{TIMEOUT.replace('[Rank 1] ', '')}", 5),          # mpirun --tag-output: rank 5
    (f"2024-05-01T12:00:00Z 11: {TIMEOUT.replace('[Rank 1] ', '')}", 11),  # a timestamp before srun -l's "11: "
    (f"[rank: 6] {TIMEOUT.replace('[Rank 1] ', '')}", 6),              # Lightning's rank_prefixed_message
])
def test_prefixes_do_not_hide_the_line_or_its_rank(line, rank):
    ev = LineParser("x.log").parse(3, line)
    assert ev is not None and ev.kind == "watchdog_timeout" and ev.rank == rank and ev.seq == 1580


def test_torchrun_summary_behind_prefixes_is_read(tmp_path):
    # torchrun's summary (torch/distributed/elastic/multiprocessing/errors) as kubectl prints it
    summary = """torch.distributed.elastic.multiprocessing.errors.ChildFailedError:
============================================================
train.py FAILED
------------------------------------------------------------
Failures:
  <NO_OTHER_FAILURES>
------------------------------------------------------------
Root Cause (first observed failure):
[0]:
  time      : 2025-05-21_15:43:03
  host      : worker-0
  rank      : 3 (local_rank: 3)
  exitcode  : -9 (pid: 14750)
  error_file: <N/A>
  traceback : Signal 9 (SIGKILL) received by PID 14750
============================================================"""
    text = "\n".join(f"2025-05-21T15:43:04.000Z \x1b[0m{line}" for line in summary.splitlines())
    v = _verdict(tmp_path, text)
    assert v["cause"] == "host_oom" and v["culprits"] == [3]


# NCCL 2.0-2.3 (horovod/horovod#147, verbatim): the WARN line has no word "NCCL", the
# return-code trail after it no trigger word at all (read as follow lines).
OLD_NCCL = """node1:54573:54696 [1] include/socket.h:194 WARN Call to recv failed : Connection reset by peer
node1:54573:54696 [1] INFO transport/net_ib.cu:537 -> 2
node1:54573:54696 [1] INFO include/net.h:30 -> 2 [Net]
node1:54573:54696 [1] INFO bootstrap.cu:169 -> 2
node1:54573:54696 [1] INFO init.cu:400 -> 2
"""


@pytest.mark.parametrize("text", [
    OLD_NCCL,
    "training chatter\n" * 3 + OLD_NCCL.replace("\n", "\r\n"),
    # NVIDIA/nccl#210, verbatim: socket.h's "Net : Socket creation failed : %s" pasted without its prefix
    "include/socket.h:344 WARN Socket creation failed : Address family not supported by protocol\n",
    # NCCL src/os/linux.cc:328 format "ncclOsSocketPollConnect to %s failed with error %s"
    "gpu-7:1234:1290 [0] NCCL WARN ncclOsSocketPollConnect to 10.0.0.2<43210> failed with error Connection timed out\n",
])
def test_old_and_new_nccl_socket_wordings_are_set_up_failures(tmp_path, text):
    v = _verdict(tmp_path, text)
    assert v["cause"] == "network_setup" and "NCCL_SOCKET_IFNAME" in v["fix"] and not v["culprits"]


def test_nccl_tests_cuda_failure_without_a_trigger_word(tmp_path):
    # NVIDIA/nccl-tests#79, verbatim (the size column glued to the host name)
    text = ("           8             2   float     sumzlabs-trainer: Test CUDA failure common.cu:253 'no kernel image "
            "is available for execution on the device'\n .. zlabs-trainer: Test failure common.cu:393\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] == "cuda_error" and "NVCC_GENCODE" in v["fix"] and v["confidence"] != "high"


def test_torchruns_first_observed_failure_is_no_evidence_when_all_exit_alike(tmp_path):
    # torchrun's summary with every rank exiting 1 in the same second (lamm-mit/SLRT#66 shape)
    entry = """[{i}]:
  time      : 2024-08-17_13:24:04
  host      : server
  rank      : {i} (local_rank: {i})
  exitcode  : 1 (pid: 268083{i})
  error_file: <N/A>
  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html
"""
    text = ("torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n" + "=" * 60 + "\ntrain.py FAILED\n"
            + "-" * 60 + "\nFailures:\n" + entry.format(i=1) + entry.format(i=2) + "-" * 60
            + "\nRoot Cause (first observed failure):\n" + entry.format(i=0) + "=" * 60 + "\n")
    (tmp_path / "job.log").write_text(text)
    d = diagnose([str(tmp_path / "job.log")]).results["diagnose"]
    first = [k for k in d["conclusions"] if k["kind"] == "first_failure"]
    assert first and first[0]["confidence"] == "low" and "polled" in first[0]["message"]
    assert d["verdict"]["confidence"] == "low" and d["verdict"]["culprits"] == []


# torch/distributed/elastic/agent/server/api.py's format, as torchrun 2.x prints it (INFO level)
RDZV_RESULT = ("[2024-05-01 12:00:00,123] torch.distributed.elastic.agent.server.api: [INFO] [default] "
               "Rendezvous complete for workers. Result:\n") + """  restart_count=0
  master_addr=127.0.0.1
  master_port=29500
  group_rank=1
  group_world_size=2
  local_ranks=[0, 1]
  role_ranks=[2, 3]
  global_ranks=[2, 3]
  role_world_sizes=[4, 4]
  global_world_sizes=[4, 4]
"""


def test_torchruns_printed_config_is_read_as_the_variables_it_sets(tmp_path):
    store = ("[W socket.cpp:601] [c10d] The client socket has timed out after 900000ms while trying to connect to "
             "(127.0.0.1, 29500).\n")
    (tmp_path / "agent.log").write_text(RDZV_RESULT + store)
    r = diagnose([str(tmp_path / "agent.log")])
    d = r.results["diagnose"]
    assert d["verdict"]["cause"] == "store_rendezvous"
    assert "loopback" in d["verdict"]["summary"] and "2 nodes" in d["verdict"]["summary"]
    assert d["world_size"]["value"] == 4 and "torchrun" in d["world_size"]["source"]


def test_torchruns_launch_config_lines_behind_a_prefix(tmp_path):
    # torch/distributed/launcher/api.py "Starting elastic_operator with launch configs:" block
    text = ("2024-05-01T12:00:00Z   rdzv_backend             : c10d\n"
            "2024-05-01T12:00:00Z   rdzv_endpoint            : localhost:29400\n")
    ev = [LineParser("x.log").parse(i, line) for i, line in enumerate(text.splitlines(), 1)]
    assert [e.data["settings"] for e in ev] == [[("PET_RDZV_BACKEND", "c10d")],
                                                [("PET_RDZV_ENDPOINT", "localhost:29400")]]


# (text, cause, culprits, a word the summary or fix must hold); sources in the comments
WORDINGS = {
    # NCCL 2.29 transport/net_ib/p2p.cc: "with status=%s(%d) opcode=%s(%d) vendor_err=%u ... hca %s"
    "ib-status-name": ("gpu-a:1234:1290 [3] NCCL WARN NET/IB: Got completion from peer 10.1.2.3<54321> with "
                       "status=IBV_WC_RETRY_EXC_ERR(12) opcode=IBV_WC_SEND(0) vendor_err=129  hca mlx5_3\n",
                       "ib_fabric", [], "mlx5_3"),
    # torch's monitored_barrier (ProcessGroupGloo.cpp; torch distributed docs' example output)
    "monitored-barrier": ("RuntimeError: [Rank 0]: Rank 1 failed to pass monitoredBarrier in 2000 ms\n Original "
                          "exception:\n[gloo/transport/tcp/pair.cc:598] Connection closed by peer "
                          "[2401:db00:eef0:1100:3560:0:1c05:25d]:8594\n", "rank_missing", [1], "exited"),
    # wait_all_ranks=True: logAndThrow("[Rank 0]: Ranks 1, 2 failed to pass monitoredBarrier in ... ms")
    "monitored-barrier-all": ("RuntimeError: [Rank 0]: Ranks 1, 2 failed to pass monitoredBarrier in 120000 ms\n",
                              "rank_missing", [1, 2], "busy"),
    # torch/distributed/elastic/multiprocessing/api.py: SignalException(f"Process {pid} got signal: {sigval}")
    "signal-exception": ("torch.distributed.elastic.multiprocessing.api.SignalException: Process 27541 got "
                         "signal: 15\n", "signal", [], "SIGTERM"),
    # the agent on Python <= 3.10 printed the enum: "Received Signals.SIGHUP death signal, shutting down workers"
    "death-signal-enum": ("Received Signals.SIGHUP death signal, shutting down workers\n", "signal", [], "tmux"),
    # the shell's report of a SIGKILLed job after a progress bar (many LLaMA-Factory/DeepSpeed reports)
    "shell-killed": ("Loading checkpoint shards:  50%|#####     | 2/4 [00:31<00:31, 15.6s/it]\nKilled\n",
                     "host_oom", [], "dmesg"),
    "kernel-oom-killer": ("[12345.678] Out of memory: Killed process 4242 (python) total-vm:123456kB\n", "host_oom", [],
                          "dmesg"),
    # gloo's size check (third_party/gloo/gloo/transport/tcp/pair.cc) when ranks run different collectives
    "gloo-preamble": ("RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:446] op.preamble.length <= "
                      "op.nbytes. 8773632 vs 8386560\n", "desync", [], "8773632"),
    # torch/distributed/elastic/rendezvous/api.py
    "rendezvous-closed": ("torch.distributed.elastic.rendezvous.api.RendezvousClosedError\n", "store_rendezvous", [],
                          "rdzv-id"),
    # torch 2.3+ TCPStore.cpp, verbatim from a public vLLM/sglang log: a client waiting on a key cut off by the
    # store's server (corpus rule since round 15: store_rendezvous; the heartbeat monitor's poll stays early_exit)
    "store-server-gone": ("[rank3]:[W322 13:52:50.464204351 TCPStore.cpp:125] [c10d] recvValue failed on SocketImpl("
                          "fd=68, addr=[localhost]:49590, remote=[localhost]:1920): Failed to recv, got 0 bytes. "
                          "Connection was likely closed. Did the remote server shutdown or crash?\n",
                          "store_rendezvous", [], "localhost:1920"),
    # torch 1.9-1.10 ProcessGroupNCCL: "[Rank N] Caught collective operation timeout: WorkNCCL(...)"
    # lead rule B: the one rank shown is inside: the missing rank is one not shown
    "caught-timeout-1.9": ("[E ProcessGroupNCCL.cpp:566] [Rank 1] Caught collective operation timeout: WorkNCCL("
                           "OpType=ALLREDUCE, TensorShape=[1], Timeout(ms)=1800000) ran for 1800359 milliseconds "
                           "before timing out.\n", "rank_missing", [], "every rank"),
    "cuda-peer-access": ("node1:1234:1300 [2] NCCL WARN Cuda failure 'peer access is not supported between these two "
                         "devices'\n", "cuda_error", [], "NCCL_P2P_DISABLE"),
    # DeepSpeed's launcher (deepseek-ai/DeepSeek-Coder#55, verbatim but the argument list shortened)
    "deepspeed-minus-9": ("[2023-11-28 10:00:34,590] [ERROR] [launch.py:321:sigkill_handler] ['/home/.python_libs/"
                          "conda_env/deepseek/bin/python', '-u', 'finetune_deepseekcoder.py', '--local_rank=0'] exits "
                          "with return code = -9\n", "host_oom", [0], "local rank 0"),  # lead rule A: the lone failure
    # lead rule M: the command is the LAST worker launched (--local_rank=3 of 4), not the failed one: nobody named
    "deepspeed-exit-1": ("[2024-01-01 10:00:34,590] [ERROR] [launch.py:321:sigkill_handler] ['/usr/bin/python3', '-u', "
                         "'train.py', '--local_rank=3'] exits with return code = 1\n", "unknown", [], "every worker"),
    # torch/multiprocessing/spawn.py: ProcessExitedException("process %d terminated with signal %s")
    "mp-spawn-sigkill": ("torch.multiprocessing.spawn.ProcessExitedException: process 1 terminated with signal "
                         "SIGKILL\n", "host_oom", [1], "local rank 1"),
    # accelerate launch runs the script as its one subprocess: the parent's record of that one process, rank 0 of a
    # world of one (lead rules A, AG; round 94's gpt4all-256)
    "subprocess-sigkill": ("subprocess.CalledProcessError: Command '['/usr/bin/python', 'train.py']' died with "
                           "<Signals.SIGKILL: 9>.\n", "host_oom", [0], "dmesg"),
    # Ray's memory monitor (vLLM, verl, OpenRLHF run ranks as Ray actors): host memory, not CUDA
    "ray-oom": ("ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.\n",
                "host_oom", [], "host"),
    # cudaGetErrorString texts NCCL prints as "Cuda failure '...'" (each has its own cause and fix)
    "cuda-fabric-manager": ("gpu-1:11:11 [0] NCCL WARN Cuda failure 'system not yet initialized'\n", "cuda_error", [],
                            "nvidia-fabricmanager"),
    "cuda-driver-too-old": ("gpu-1:11:11 [0] NCCL WARN Cuda failure 'CUDA driver version is insufficient for CUDA "
                            "runtime version'\n", "cuda_error", [], "driver"),
    # with no traceback above it, a device index its launch gave it (lead rule AU (2), round 62's rag-retrieval-27)
    "cuda-invalid-ordinal": ("[rank9]: RuntimeError: CUDA error: invalid device ordinal\n", "config", [],
                             "LOCAL_RANK"),
    "cuda-cumem-container": ("gpu-1:11:11 [0] NCCL WARN Cuda failure 'operation not supported'\n", "cuda_error", [],
                             "NCCL_CUMEM_ENABLE=0"),
    "ib-status-20": ("gpu-a:1:2 [0] NCCL WARN NET/IB : Got completion from peer 10.0.0.9<1234> with error 20, opcode "
                     "0, len 0, vendor err 0\n", "ib_fabric", [], "IBV_WC_RESP_TIMEOUT_ERR"),
    # a pasted dmesg: the NVIDIA driver's Xid (docs.nvidia.com/deploy/xid-errors)
    "xid-79": ("[Mon Jun  3 10:11:12 2024] NVRM: Xid (PCI:0000:3b:00): 79, pid=12345, name=python, GPU has fallen "
               "off the bus.\n", "cuda_error", [], "dcgmi diag"),
    "xid-13-app": ("[ 123.456] NVRM: Xid (PCI:0000:b1:00): 13, pid=999, Graphics SM Warp Exception on (GPC 1, TPC 0): "
                   "Out Of Range Address\n", "cuda_error", [], "compute-sanitizer"),
    # torch 1.8-1.13's store-based barrier in init_process_group
    "store-barrier-count": ("RuntimeError: Timed out initializing process group in store based barrier on rank: 3, for "
                            "key: store_based_barrier_key:1 (world_size=8, worker_count=4, timeout=0:30:00)\n",
                            "store_rendezvous", [], "only 4 of 8"),
    # torch 2.x TCPStore server side
    "store-clients-joined": ("torch.distributed.DistStoreError: Timed out after 1801 seconds waiting for clients. 7/8 "
                             "clients joined.\n", "store_rendezvous", [], "--nnodes"),
    # caffe2/torch 1.0's "NCCL Error 2: unhandled system error"
    "nccl-error-n": ("RuntimeError: NCCL Error 2: unhandled system error\n", "nccl_system", [], "NCCL_DEBUG=INFO"),
    # ProcessGroupNCCL's ncclUniqueId exchange (torch 2.x; the error text after "got error:" varies)
    # ProcessGroupGloo::monitoredBarrier when a rank's send/recv failed: that rank failed (more than missing the
    # barrier), why is not in the line (corpus rule since round 15: cause unknown, the rank named)
    "monitored-barrier-errors": ("[E ProcessGroupGloo.cpp:137] Rank 0 successfully reached monitoredBarrier, but "
                                 "received errors while waiting for send/recv from rank 1. Please check rank 1 logs "
                                 "for faulty rank.\n", "unknown", [1], "exited"),
    # torch/distributed/rendezvous.py's env:// handler run without a launcher
    "env-not-set": ("ValueError: Error initializing torch.distributed using env:// rendezvous: environment variable "
                    "MASTER_ADDR expected, but not set\n", "config", [], "torchrun"),
    # torch/csrc/distributed/c10d/socket.cpp when MASTER_ADDR does not resolve
    "store-dns": ("[W socket.cpp:464] [c10d] The IPv4 network addresses of (node-0, 29500) cannot be retrieved (gai "
                  "error: -2 - Name or service not known).\n", "store_rendezvous", [], "node-0:29500"),
    # a model download's DNS failure is not the job's rendezvous; but it is a failure shown, so never "none"
    # (issue #14 item 6): unknown, with its traceback to read
    "hub-dns-is-not-the-store": ("requests.exceptions.ConnectionError: HTTPSConnectionPool(host='huggingface.co', "
                                 "port=443): Max retries exceeded (Caused by NameResolutionError: Failed to resolve "
                                 "'huggingface.co' ([Errno -3] Temporary failure in name resolution))\n", "unknown",
                                 [], "traceback"),
    # a connect to Docker's bridge address in a Last error text
    "docker-bridge": ("ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device "
                      "error.\nLast error:\nsocketStartConnect: Connect to 172.17.0.2<36145> failed : Software caused "
                      "connection abort\n", "network_setup", [], "docker0"),
    # torchrun's summary for a rank the watchdog aborted: a SIGABRT is no proof of a culprit
    # lead rule A: a lone SIGABRT with no other cause shown names that rank (cause unknown) ...
    "sigabrt-lone-is-the-culprit": (
        "Root Cause (first observed failure):\n[0]:\n  time      : 2024-06-01_10:00:00\n"
        "  host      : node-1\n  rank      : 5 (local_rank: 5)\n  exitcode  : -6 (pid: 4242)\n"
        "  error_file: <N/A>\n  traceback : Signal 6 (SIGABRT) received by PID 4242\n", "unknown", [5], "rank 5"),
    # ... but not when its own watchdog timed out: SIGABRT is then how the watchdog took a victim down
    "sigabrt-after-own-timeout-is-no-culprit": (
        "[rank5]:[E601 10:00:00.000 ProcessGroupNCCL.cpp:616] [Rank 5] Watchdog caught collective operation timeout: "
        "WorkNCCL(SeqNum=9, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600001 milliseconds "
        "before timing out.\n"
        "Root Cause (first observed failure):\n[0]:\n  time      : 2024-06-01_10:00:00\n"
        "  host      : node-1\n  rank      : 5 (local_rank: 5)\n  exitcode  : -6 (pid: 4242)\n"
        "  error_file: <N/A>\n  traceback : Signal 6 (SIGABRT) received by PID 4242\n",
        "rank_missing", [], "every rank"),
    "uniqueid-timeout": ("[rank1]: torch.distributed.DistBackendError: [1] is setting up NCCL communicator and "
                         "retrieving ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') "
                         "got error: Socket Timeout\n", "rank_missing", [0], "main_process_first"),
    "uniqueid-gone": ("[rank3]: torch.distributed.DistBackendError: [3] is setting up NCCL communicator and "
                      "retrieving ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') "
                      "got error: Connection reset by peer\n", "early_exit", [], "rank 0"),
}


@pytest.mark.parametrize("name", sorted(WORDINGS))
def test_each_wording_gets_its_cause(tmp_path, name):
    text, cause, culprits, word = WORDINGS[name]
    (tmp_path / "job.log").write_text(text)
    d = diagnose([str(tmp_path / "job.log")]).results["diagnose"]
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == (cause, culprits), v["summary"]
    assert word in v["summary"] + v["fix"]
    accusing = {r for k in d["conclusions"] if k["kind"] in ("culprit", "desync", "first_failure")
                and k["confidence"] in ("medium", "high") for r in k["ranks"]}
    if v["confidence"] in ("medium", "high"):
        accusing |= set(v["culprits"])
    assert accusing == set(culprits), [k["message"] for k in d["conclusions"]]


def test_the_dump_signal_line_is_the_ranks_own_queue(tmp_path):
    # torch 2.6+ HeartbeatMonitor::getNCCLWatchdogTimeoutErrorMsg, verbatim (a public vLLM log)
    dump = ("[rank4]:[E703 15:37:17.178360488 ProcessGroupNCCL.cpp:1987] [PG ID 0 PG GUID 0(default_pg) Rank 4] "
            "Received a dump signal due to a collective timeout from  rank 7 and we will try our best to dump the "
            "debug info. Last enqueued NCCL work: 56118, last completed NCCL work: 56118.This is most likely caused "
            "by incorrect usages of collectives\n")
    v = _verdict(tmp_path, dump)
    assert v["cause"] == "unknown" and v["culprits"] == []
    assert "rank(s) 4 had completed every collective" in v["summary"]
    timeout = ("[rank7]:[E703 15:27:17.1 ProcessGroupNCCL.cpp:632] [PG ID 0 PG GUID 0(default_pg) Rank 7] Watchdog "
               "caught collective operation timeout: WorkNCCL(SeqNum=56119, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, "
               "Timeout(ms)=600000) ran for 600012 milliseconds before timing out.\n")
    v = _verdict(tmp_path, timeout + dump, "both.log")
    assert v["cause"] == "rank_missing" and v["culprits"] == [4] and "56119" in v["summary"]
    # the same line on the rank that timed out itself ("from this local rank") is a victim's report
    mine = dump.replace("from  rank 7", "from this local rank").replace("completed NCCL work: 56118", "completed NCCL "
                                                                        "work: 56117")
    v = _verdict(tmp_path, mine, "self.log")
    assert v["culprits"] == []


def test_interleaved_ranks_keep_their_own_last_error(tmp_path):
    # two ranks' tracebacks interleaved line by line in one torchrun log (the [rankN]: prefix of torch >= 2.2)
    text = """[rank1]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5
[rank0]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5
[rank1]: ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.
[rank0]: ncclUnhandledCudaError: Call to CUDA function failed.
[rank1]: Last error:
[rank0]: Last error:
[rank1]: socketStartConnect: Connect to 10.0.0.2<40000> failed : Software caused connection abort
[rank0]: Cuda failure 'out of memory'
"""  # noqa: E501 - verbatim lines
    (tmp_path / "job.log").write_text(text)
    d = diagnose([str(tmp_path / "job.log")]).results["diagnose"]
    kinds = {r["rank"]: [e["kind"] for e in r["timeline"]] for r in d["ranks"]}
    assert "cuda_oom" in kinds[0] and "socket_error" not in kinds[0]
    assert "socket_error" in kinds[1] and "cuda_oom" not in kinds[1]


FR_OUTPUTS = {
    # torch 2.5-2.6 tools/flight_recorder (the torch docs' torchfrtrace example output)
    "2.5": ("Not all ranks joining collective 5 at entry 4\ngroup info: 0:default_pg\ncollective: nccl:all_reduce\n"
            "missing ranks: {1}\ninput sizes: [[3, 4]]\noutput sizes: [[3, 4]]\nexpected ranks: 2\n"
            "collective state: scheduled\n", [1]),
    # torch 2.4 tools/flight_recorder/fr_trace.py printed one line
    "2.4": ("Not all ranks joining collective for group 0:default_pg collective nccl:all_reduce  Missing ranks are "
            "{3}  [[3, 4]] [[3, 4]]\n", [3]),
    # torch 2.7+ (flight_recorder/components/utils.py) as kubectl logs --timestamps prints it, with CRLF
    "2.7-kubectl": ("2024-06-01T10:00:00Z Not all ranks joining collective, sequence number: 4\r\n"
                    "2024-06-01T10:00:00Z collective: nccl:all_reduce\r\n2024-06-01T10:00:00Z missing ranks: {2}\r\n"
                    "2024-06-01T10:00:00Z collective state: scheduled\r\n", [2]),
}


@pytest.mark.parametrize("version", sorted(FR_OUTPUTS))
def test_every_flight_recorder_analyzer_wording_names_the_missing_rank(tmp_path, version):
    text, missing = FR_OUTPUTS[version]
    (tmp_path / "fr_trace.txt").write_text(text)
    v = diagnose([str(tmp_path / "fr_trace.txt")]).results["diagnose"]["verdict"]
    assert (v["cause"], v["culprits"], v["confidence"]) == ("rank_missing", missing, "high")


# One rank's own report of a peer gone mid-run (rule O: early_exit, culprits unknown, the rank printing it a victim),
# in another wording, rank and size than the corpus case, with NCCL INFO lines that a collector's prefix alone
# brings past a terminal's wrap width.
LONE_PEER_GONE = [
    "gpu-b07:9114:9230 [2] NCCL INFO [Service thread] Connection closed by localRank 2",
    "gpu-b07:9114:9120 [2] NCCL INFO comm 0x7f3a2c0b1d40 rank 10 nranks 16 cudaDev 2 busId 3b000 - Abort COMPLETE",
    "[rank10]:[E1103 08:12:44.120334021 ProcessGroupNCCL.cpp:1895] [PG ID 0 PG GUID 0(default_pg) Rank 10] Process "
    "group watchdog thread terminated with exception: NCCL error: remote process exited or there was a network "
    "error, NCCL version 2.23.4",
    "ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.",
    "Last error:",
    "socketProgressOpt: Call to recv from 172.16.4.21<38211> failed : Connection reset by peer",
]
PREFIXES = {
    "none": lambda i: "",
    "kubectl": lambda i: f"2025-03-09T04:{i:02d}:17.000000000Z ",
    "logging": lambda i: "[2025-03-09 04:00:17,500] [ERROR] ",
    "sglang": lambda i: "[2025-03-09 04:00:17 TP2] ",
}


@pytest.mark.parametrize("prefix", sorted(PREFIXES))
def test_a_lone_victims_report_reads_the_same_however_its_lines_are_prefixed(tmp_path, prefix):
    """A collector's clock on every line of one rank's report is no evidence that the rank failed first (there is
    nothing it came before), and a prefix that makes a whole line long is no terminal wrap to join with a later
    line: the same lines reach the same verdict, and the victim is never accused."""
    from tests.conftest import accused

    def read(pre) -> dict:
        (tmp_path / "job.log").write_text("".join(pre(i) + line + "\n" for i, line in enumerate(LONE_PEER_GONE)))
        return diagnose([str(tmp_path / "job.log")]).results["diagnose"]

    d, plain = read(PREFIXES[prefix]), read(PREFIXES["none"])
    assert 10 not in accused(d)
    assert d["verdict"]["cause"] == plain["verdict"]["cause"] == "early_exit"
    assert [r["counts"] for r in d["ranks"]] == [r["counts"] for r in plain["ranks"]]
