"""Waits round 88 showed read by their shape (rules B, E, H, Y, AC (1), AN (1), AY (3), BG (3), BG (6), BS (3),
BS (4), T): each is a process shown waiting for a peer -- in a store read, a gloo op or a "main process first" barrier
-- and what an expert reads is that the rank waited for is one the lines do not name (rank_missing, culprits
"unknown"), with the fix naming what an expert names for that wait.

- A bare "RuntimeError: Socket Timeout" whose c10 tail names TCPStore's doWait is a wait for a key on a store the
  process had connected to: rule Y's rank_missing, culprits unknown, even with no "[rankN]:" tag (a Python exception
  carries none) (returnn-1621; it was read as store_rendezvous, a connect failure). A Socket Timeout raised under
  torchrun's own agent frames is not read so: the launcher's rendezvous stays store_rendezvous.
- A connected rank's store read timing out (rule Y) beside a "Loading checkpoint shards" bar that stopped short
  (its first letters cut or not): the fix names slow checkpoint loading (verl-668). A data-preparation bar keeps its
  preprocessing fix (no checkpoint words added).
- gloo's error header cut at its tcp/unbound_buffer.cc site ("RuntimeError: [.../gloo/transport/tcp/un") is read by
  its source location (rule BG (3)): that file's messages are only the send/recv waits timing out, so it is a gloo
  collective timeout, rank_missing, culprits unknown (returnn-1454). A header cut at another file (tcp/pair.cc at a
  line that is not the closed-by-peer site) is not read so. A gloo op timeout's fix asks every rank to reach the same
  all_reduce and for a py-spy dump of every rank (sentiment-discovery-43).
- A rank shown only dying with no cause ("Process SpawnProcess-1:3:", its traceback not shown) printed after another
  rank's full-timeout gloo wait ("Timed out waiting 1800000ms for send") is rule BS (4): read by rule AN (1), the
  timed-out rank alone by rules B, E, H -- rank_missing, nobody named (vllm-16514; it was unknown). The same death
  printed before the timeout keeps the old reading (not rank_missing).
- A traceback cut before its error text inside a main_process_first block's entry barrier, beside a progress bar
  still running (its head cut, "[31:13<7:10:59, 908.45 e"), is rule BS (3): rank_missing, culprits unknown, the fix
  naming the main process still preprocessing (llamafactory-860). With no running work shown, rule BG (6)'s unknown
  stays.
"""
from __future__ import annotations

from tests.conftest import verdict_accused as _verdict

# --- TCPStore doWait's Socket Timeout ---------------------------------------------------------------------------------
_DOWAIT = ("ep 3 dev eval, step 41, ce 0.512, fer 0.131\n"
           "Unhandled exception <class 'RuntimeError'> in thread <_MainThread(MainThread, started 1401)>, proc 812.\n"
           "RuntimeError: Socket Timeout\n"
           "Exception raised from doWait at ../torch/csrc/distributed/c10d/TCPStore.cpp:445 (most recent call "
           "first):\n"
           "frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x57 (0x7f1 in libc10.so)\n")


def test_a_dowait_socket_timeout_is_a_connected_store_read_rank_missing(tmp_path):
    v, acc = _verdict(tmp_path, _DOWAIT)
    assert (v["cause"], v["culprits"]) == ("rank_missing", []) and not acc, v
    assert "py-spy dump of every rank" in v["fix"] and "monitored_barrier" in v["fix"], v


def test_a_socket_timeout_under_torchruns_agent_stays_the_rendezvous(tmp_path):
    text = ("Traceback (most recent call last):\n"
            '  File "/usr/lib/python3.10/site-packages/torch/distributed/elastic/agent/server/api.py", line 877, in '
            "_invoke_run\n"
            "    self._initialize_workers(self._worker_group)\n"
            '  File "/usr/lib/python3.10/site-packages/torch/distributed/elastic/rendezvous/dynamic_rendezvous.py", '
            "line 1041, in next_rendezvous\n"
            "    self._op_executor.run(join_op, deadline)\n"
            "RuntimeError: Socket Timeout\n"
            "Exception raised from doWait at ../torch/csrc/distributed/c10d/TCPStore.cpp:445 (most recent call "
            "first):\n")
    v, acc = _verdict(tmp_path, text)
    assert v["cause"] != "rank_missing" and not acc, v


# --- a store read beside a weights-loading bar ------------------------------------------------------------------------
def _store_read(bar: str) -> str:
    return (bar + "\n"
            "[rank3]:[W611 10:02:03.1 socket.cpp:462] [c10d] waitForInput: poll for socket SocketImpl(fd=88, "
            "addr=[10.0.0.7]:40112, remote=[10.0.0.5]:29500) returned 0, likely a timeout\n"
            "[rank3]:[W611 10:02:03.1 socket.cpp:487] [c10d] waitForInput: socket SocketImpl(fd=88, "
            "addr=[10.0.0.7]:40112, remote=[10.0.0.5]:29500) timed out after 600000ms\n")


def test_a_store_read_beside_a_checkpoint_loading_bar_names_slow_loading(tmp_path):
    v, acc = _verdict(tmp_path, _store_read("oading checkpoint shards:  50%|#####     | 2/4 [19:40<19:40, 590.1s/it]"))
    assert (v["cause"], v["culprits"]) == ("rank_missing", []) and not acc, v
    assert "slow checkpoint loading" in v["fix"] and "checkpoint still loading" in v["summary"], v


def test_a_store_read_beside_a_data_bar_keeps_its_preprocessing_fix(tmp_path):
    v, acc = _verdict(tmp_path, _store_read("Running tokenizer on dataset:  40%|####      | 4000/10000 "
                                            "[12:00<18:00, 5.55 examples/s]"))
    assert v["cause"] == "rank_missing" and not acc, v
    assert "slow checkpoint loading" not in v["fix"] and "data still being prepared" in v["summary"], v


# --- gloo's header cut at its unbound_buffer.cc site ------------------------------------------------------------------
def _gloo_cut(site: str) -> str:
    return ("Traceback (most recent call last):\n"
            '  File "/opt/app/train.py", line 210, in <module>\n'
            "    main()\n"
            '  File "/opt/app/train.py", line 180, in main\n'
            "    dist.all_reduce(has_data, op=dist.ReduceOp.MIN)\n"
            '  File "/usr/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", line 1707, in '
            "all_reduce\n"
            "    work.wait()\n"
            f"RuntimeError: [../third_party/gloo/gloo/transport/tcp/{site}\n")


def test_a_gloo_header_cut_at_unbound_buffer_is_a_gloo_wait_timeout(tmp_path):
    v, acc = _verdict(tmp_path, _gloo_cut("un"))
    assert (v["cause"], v["culprits"]) == ("rank_missing", []) and not acc, v
    assert "make every rank reach the same all_reduce" in v["fix"] and "py-spy dump of every rank" in v["fix"], v


def test_a_gloo_header_cut_at_another_file_is_not_read_as_a_wait(tmp_path):
    v, acc = _verdict(tmp_path, _gloo_cut("pair.cc:100]"))
    assert v["cause"] != "rank_missing" and not acc, v


# --- a death printed after a full-timeout gloo wait -------------------------------------------------------------------
_WAIT = ("(VllmWorker rank=0 pid=225) ERROR 04-11 13:45:00 [parallel_state.py:1158] Error ignored in "
         "is_in_the_same_node: [/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:133] Timed out waiting "
         "1800000ms for send operation to complete\n")
_DEATH = ("(VllmWorker rank=2 pid=262) Process SpawnProcess-1:3:\n"
          "CRITICAL 04-11 13:45:00 [multiproc_executor.py:49] MulitprocExecutor got fatal signal from worker "
          "processes, shutting down. See stack trace above for root cause issue.\n")


def test_a_death_printed_after_a_full_timeout_wait_leaves_the_wait_read_rank_missing(tmp_path):
    v, acc = _verdict(tmp_path, _WAIT + _DEATH)
    assert (v["cause"], v["culprits"]) == ("rank_missing", []) and not acc, v


def test_a_death_printed_before_the_wait_keeps_its_reading(tmp_path):
    v, acc = _verdict(tmp_path, _DEATH + _WAIT)
    assert v["cause"] != "rank_missing" and 0 not in acc, v


# --- a cut traceback in main_process_first's entry barrier ------------------------------------------------------------
def _main_first(bar: str) -> str:
    return (bar + "Traceback (most recent call last):\n"
            '  File "/home/u/proj/src/train.py", line 14, in <module>\n'
            "    main()\n"
            '  File "/home/u/proj/src/data.py", line 176, in preprocess_dataset\n'
            '    with training_args.main_process_first(desc="dataset map pre-processing"):\n'
            '  File "/usr/lib/python3.10/contextlib.py", line 135, in __enter__\n'
            "    return next(self.gen)\n"
            '  File "/usr/lib/python3.10/site-packages/transformers/training_args.py", line 2035, in '
            "main_process_first\n"
            "    dist.barrier()\n"
            '  File "/usr/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", line 3328, in barrier\n'
            "    work = default_pg.barrier(opts=opts)\n"
            "Runt\n")


def test_a_cut_main_process_first_barrier_beside_a_running_bar_is_rank_missing(tmp_path):
    v, acc = _verdict(tmp_path, _main_first("[25:02<3:11:40, 412.77 e"))
    assert (v["cause"], v["culprits"]) == ("rank_missing", []) and not acc, v
    assert "main_process_first" in v["fix"] and "preprocessing_num_workers" in v["fix"], v


def test_the_same_cut_with_no_work_shown_stays_unknown(tmp_path):
    v, acc = _verdict(tmp_path, _main_first(""))
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
