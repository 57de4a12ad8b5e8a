"""Host-side data-path failures round 81 showed misread (rules F, AL (1), AG, BL (2), BG (2), BG (6), T, A, U (4),
BJ (1), AU (1)).

- "OSError: [Errno 24] Too many open files" raised under multiprocessing's resource_sharer / DupFd frames (torch's
  reduce_storage passing a DataLoader batch's shared tensor by file descriptor; face-recognition-framework-5): the
  DataLoader's shared-memory transport hitting the host's open-file limit, dataloader_shm with culprits [] (rules F,
  AL (1), as maskrcnn-benchmark-158); the fix names ulimit -n and set_sharing_strategy('file_system'). The same
  OSError in a traceback without those frames (the job's own files) is not read so.
- A traceback cut where multiprocessing creates a lock / semaphore (queues.py's ctx.Lock(), a POSIX semaphore in
  /dev/shm) after joblib's probe of that facility printed "[Errno 28] No space left on device.  joblib will operate
  in serial mode" (vits-fast-fine-tuning-397): /dev/shm full, dataloader_shm, culprits [] (rules F, AL (1), AG).
  The same cut without the probe's failure stays a cut traceback (unknown, rule BG (6)).
- A traceback that ends in (or is cut inside) the DataLoader's fetch frames (__next__ -> _next_data -> _get_data ->
  _try_get_data) with its error cut (mmf-877, detectron2-3953): unknown, nobody named (rules BL (2), BG (6), T), and
  the fix says what an expert checks for a dead worker: /dev/shm, dmesg, ulimit -n, num_workers=0. A cut traceback
  elsewhere gets no DataLoader words.
- torchrun's agent sending SIGTERM to its workers, the paste then cut a few characters into its failure record
  ("ERROR:torch.distr"; ultralytics-2588): read as the closing signals alone (rule BG (2): the record names nobody),
  unknown, the fix naming the record's Root Cause and TORCHELASTIC_ERROR_FILE. Another cut error line is not.
- Fix words only: a Ray actor dead of a SYSTEM_ERROR (rule BJ (1); simplerl-reason-98) names host memory /
  container memory limit and the Ray memory monitor; gloo's "Connection closed by peer" (rule U (4); applio-824)
  names the other process's own error, GLOO_SOCKET_IFNAME and the NCCL backend for GPU training (an NCCL peer's
  closed connection does not); a rank's own InterruptedError (EINTR) under a datasets map with num_proc workers
  (datasets-8491) names the signals sent to the job and a smaller num_proc.
"""
from __future__ import annotations

from tests.conftest import diagnose_verdict as _verdict

_MP = "  File \"/home/u/miniconda3/lib/python3.7/multiprocessing/"


def test_too_many_open_files_under_resource_sharer_is_the_fd_limit(tmp_path):
    v = _verdict(tmp_path, "Traceback (most recent call last):\n"
                 + _MP + "resource_sharer.py\", line 149, in _serve\n"
                 "    send(conn, destination_pid)\n"
                 + _MP + "resource_sharer.py\", line 50, in send\n"
                 "    reduction.send_handle(conn, new_fd, pid)\n"
                 "OSError: [Errno 24] Too many open files\n")
    assert (v["cause"], v["culprits"]) == ("dataloader_shm", []), v
    for word in ("ulimit -n", "set_sharing_strategy('file_system')", "num_workers"):
        assert word in v["fix"], (word, v)


def test_too_many_open_files_in_the_jobs_own_code_is_not_the_loaders(tmp_path):
    v = _verdict(tmp_path, "Traceback (most recent call last):\n"
                 "  File \"train.py\", line 40, in save\n"
                 "    open(path, 'w')\n"
                 "OSError: [Errno 24] Too many open files\n")
    assert v["cause"] != "dataloader_shm", v


_SPAWN_CUT = ("Traceback (most recent call last):\n"
              "  File \"finetune.py\", line 55, in main\n"
              "    mp.spawn(run, nprocs=n_gpus, args=(n_gpus, hps,))\n"
              "  File \"/env/lib/python3.8/multiprocessing/context.py\", line 113, in SimpleQueue\n"
              "    return SimpleQueue(ctx=self.get_context())\n"
              "  File \"/env/lib/python3.8/multiprocessing/queues.py\", line 336, in __init__\n"
              "    self._rlock = ctx.Lock()\n"
              "  File \"/env/lib/python3\n")


def test_a_cut_lock_creation_after_joblibs_semaphore_probe_failed_is_dev_shm_full(tmp_path):
    v = _verdict(tmp_path, "/env/lib/python3.8/site-packages/joblib/_multiprocessing_helpers.py:46: UserWarning: "
                 "[Errno 28] No space left on device.  joblib will operate in serial mode\n" + _SPAWN_CUT)
    assert (v["cause"], v["culprits"]) == ("dataloader_shm", []), v
    for word in ("/dev/shm", "--shm-size", "--ipc=host", "df -h /dev/shm"):
        assert word in v["fix"], (word, v)


def test_the_same_cut_without_the_probes_failure_stays_a_cut_traceback(tmp_path):
    v = _verdict(tmp_path, _SPAWN_CUT)
    assert (v["cause"], v["culprits"]) == ("unknown", []), v


_LOADER = "  File \"/env/lib/python3.7/site-packages/torch/utils/data/dataloader.py\", "


def test_a_traceback_ending_in_the_dataloaders_fetch_names_the_worker_checks(tmp_path):
    v = _verdict(tmp_path, "Traceback (most recent call last):\n"
                 "  File \"run.py\", line 54, in main\n"
                 "    batch = next(iter(dataloader))\n"
                 + _LOADER + "line 808, in _get_data\n"
                 "    success, data = self._try_get_data()\n"
                 + _LOADER + "line 774, in _try_get_data\n"
                 "    raise RuntimeError('DataLoader worker (pid(s) {}) exited unexpectedly'.format(pids_str))\n"
                 "RuntimeError: DataLo\n")
    assert (v["cause"], v["culprits"]) == ("unknown", []), v
    for word in ("DataLoader worker", "/dev/shm", "dmesg", "ulimit -n", "num_workers=0"):
        assert word in v["fix"], (word, v)


def test_a_cut_traceback_elsewhere_gets_no_dataloader_words(tmp_path):
    v = _verdict(tmp_path, "Traceback (most recent call last):\n"
                 "  File \"run.py\", line 54, in main\n"
                 "    model = build(cfg)\n"
                 "  File \"/env/lib/python3.7/site-packages/mmf/models/base.py\", line 12, in build\n"
                 "    return cls(cfg)\n"
                 "RuntimeError: Erro\n")
    assert v["cause"] == "unknown", v
    assert "DataLoader worker" not in v["fix"] and "ulimit -n" not in v["fix"], v


_CLOSING = "".join(f"WARNING:torch.distributed.elastic.multiprocessing.api:Sending process {p} closing signal "
                   "SIGTERM\n" for p in (335, 336, 337))


def test_closing_signals_then_a_cut_record_head_ask_for_the_record(tmp_path):
    v = _verdict(tmp_path, "AMP: checks passed\n" + _CLOSING + "ERROR:torch.distr\n")
    assert (v["cause"], v["culprits"]) == ("unknown", []), v
    for word in ("Root Cause", "TORCHELASTIC_ERROR_FILE", "dmesg"):
        assert word in v["fix"], (word, v)


def test_closing_signals_then_another_error_line_are_not_the_record(tmp_path):
    v = _verdict(tmp_path, _CLOSING + "ERROR: dataset index broken\n")
    assert "closing signal" not in v["summary"], v


def test_a_ray_actor_dead_of_a_system_error_names_host_memory(tmp_path):
    v = _verdict(tmp_path, "The actor is dead because its worker process has died. Worker exit type: SYSTEM_ERROR "
                 "Worker exit detail: Worker unexpectedly exits with a connection error code 2. End of file. There "
                 "are some potential root causes. (1) The process is killed by SIGKILL by OOM killer due to high "
                 "memory usage. (2) ray stop --force is called. (3) The worker is crashed unexpectedly due to "
                 "SIGSEGV or other unexpected errors.\n")
    assert (v["cause"], v["culprits"]) == ("unknown", []), v
    for word in ("host memory / container memory limit", "Ray memory monitor", "raylet.out"):
        assert word in v["fix"], (word, v)


_BACKWARD = ("Traceback (most recent call last):\n"
             "  File \"/opt/conda/lib/python3.10/multiprocessing/process.py\", line 108, in run\n"
             "    self._target(*self._args, **self._kwargs)\n"
             "  File \"/env/lib/python3.10/site-packages/torch/autograd/graph.py\", line 744, in _engine_run_backward\n"
             "    return Variable._execution_engine.run_backward(\n")


def test_glooss_peer_closed_names_the_other_process_and_the_nccl_backend(tmp_path):
    v = _verdict(tmp_path, _BACKWARD + "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:534] "
                 "Connection closed by peer [172.19.2.2]:48294\n")
    assert v["cause"] == "early_exit", v
    for word in ("use NCCL backend on GPU", "GLOO_SOCKET_IFNAME / network", "train on one GPU"):
        assert word in v["fix"], (word, v)


def test_an_nccl_peers_closed_connection_gets_no_gloo_words(tmp_path):
    v = _verdict(tmp_path, "node1:1234:1300 [0] NCCL INFO misc/socket.cc:538 NCCL WARN Net : Connection closed by "
                 "remote peer 10.0.0.2<45678>\n")
    assert "GLOO_SOCKET_IFNAME" not in v["fix"], v


_MAP = "Map (num_proc=512):  94%|#########4| 24277/25742 [01:00<00:03, 398.48 examples/s]\n"
_EINTR_TB = ("[rank48]: Traceback (most recent call last):\n"
             "[rank48]:   File \".../datasets/arrow_writer.py\", line 778, in finalize\n"
             "[rank48]:     self.stream.close()\n"
             "[rank48]: InterruptedError: [Errno 4] Interrupted system call\n")


def test_a_ranks_eintr_under_a_map_with_num_proc_names_the_signals_and_num_proc(tmp_path):
    v = _verdict(tmp_path, _MAP + _EINTR_TB)
    assert (v["cause"], v["culprits"]) == ("unknown", [48]), v
    for word in ("check signals sent to the job", "retry on EINTR", "reduce num_proc",
                 "preprocess the dataset once before the distributed launch"):
        assert word in v["fix"], (word, v)


def test_another_ranks_own_error_gets_no_eintr_words(tmp_path):
    v = _verdict(tmp_path, _MAP + _EINTR_TB.replace("InterruptedError: [Errno 4] Interrupted system call",
                                                    "KeyError: 'input_ids'"))
    assert v["culprits"] == [48], v
    assert "EINTR" not in v["fix"] and "num_proc" not in v["fix"], v
