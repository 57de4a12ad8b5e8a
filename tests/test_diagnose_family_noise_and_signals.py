"""Warnings a job goes on after, a set-up WARN cut at the paste's end, and a Ctrl-C the launcher's kills answer: shapes
round 93 showed read by their shape (rules K, L, N, T, Z, AU (3), BG (3), BJ (4), BR (3), BS (2)):

- DeepSpeed ZeRO-3's "Invalidate trace cache @ step N: expected module A, but got module B": its prefetch trace
  recorded again, training going on -- none, nobody, the fix saying it is benign and what to collect if it stalls
  (rules K, N, T; mplug-owl-208). Not read so: an error, timeout or failure record beside it keeps its own reading.
- DeepSpeed ZeRO-3's "N pytorch allocator cache flushes since last step": a performance warning of memory pressure,
  the steps going on -- none, the fix naming the ZeRO-3 memory settings and flushing caches on all ranks together
  (rules K, L, N; peft-194). An out-of-memory error after it is read by its own lines.
- torchx's start-up warning that GPU replicas run without CUDA_VISIBLE_DEVICES per replica: a launcher's cautionary
  default, none, the fix naming one GPU per process (rules K, N, BR (3); torchrec-1611).
- A library's warning with a conditional advice clause ("Bagua will try to use system NCCL instead. If you encounter
  any error, please run ..."), then NCCL's set-up INFO: the clause announces no failure, so the lines are set-up
  chatter, none (rules K, BJ (4); bagua-363). A line that also says what failed stays a failure line.
- One process's NCCL WARN cut by the paste's end two letters in ("misc/ibvwrap.cu:63 NCCL WARN Fa"), at the location
  where every other process printed the same harmless "Failed to open libibverbs" whole: that set-up step once more,
  read by its location (rule BG (3)); with a link-local IPv6 interface beside a routable one and nothing failing it
  is none (rules K, Z, AU (3); horovod-969). A cut WARN at a location with one whole copy only, or with several texts,
  stays unread (review r3 #5).
- The terminal's '^C' echoed on DeepSpeed's launcher's first 'Killing subprocess' line (its sigkill_handler) then a
  '^CTraceback' of its own subprocess wait: the kills answer the user's SIGINT, signal, nobody (rule BS (2);
  llava-1749). Kills with no Ctrl-C before them keep rule M's reading of the one worker.
"""
from __future__ import annotations

from tests.conftest import verdict_accused as _verdict


# --- ZeRO-3's informational and performance warnings ------------------------------------------------------------------
def test_zero3_invalidate_trace_cache_alone_is_benign_none(tmp_path):
    v, acc = _verdict(tmp_path, "{'loss': 0.8527, 'learning_rate': 1.28e-07, 'epoch': 0.0}\n"
                                "  0%|          | 2/5194 [00:26<18:22:29, 12.74s/it]\n"
                                "Invalidate trace cache @ step 391: expected module 25, but got module 5\n")
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert "benign" in v["fix"] and "stage3_prefetch_bucket_size" in v["fix"], v


def test_zero3_trace_cache_beside_a_rank_s_error_keeps_the_error(tmp_path):
    v, _ = _verdict(tmp_path, "Invalidate trace cache @ step 4: expected module 458, but got module 466\n"
                              "[rank1]: Traceback (most recent call last):\n"
                              '[rank1]:   File "train.py", line 12, in <module>\n'
                              "[rank1]: RuntimeError: shape mismatch in my_layer\n")
    assert v["cause"] != "none", v


def test_zero3_allocator_cache_flushes_are_a_performance_warning(tmp_path):
    v, acc = _verdict(tmp_path, "[2023-03-20 20:38:19,874] [WARNING] [stage3.py:1939:step] 13 pytorch allocator cache "
                                "flushes since last step. this happens when there is high memory pressure and is "
                                "detrimental to performance.\n"
                                "[2023-03-20 20:41:59,356] [WARNING] [stage3.py:1939:step] 1 pytorch allocator cache "
                                "flushes since last step. this happens w\n")
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert "reduce memory pressure" in v["fix"] and "stage3_max_live_parameters" in v["fix"], v


def test_torchx_shared_gpu_warning_is_a_launcher_caution(tmp_path):
    v, acc = _verdict(tmp_path, "torchx 2024-01-07 07:19:05 INFO     Log directory is: /tmp/torchx_mqru63i2\n"
                                "torchx 2024-01-07 07:19:05 WARNING  \n"
                                "Running multiple role replicas that require GPUs without\n"
                                "setting `CUDA_VISIBLE_DEVICES` may result in multiple\n"
                                "processes using the same GPU device with undesired consequences\n")
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert "one GPU per process" in v["fix"] and "CUDA_VISIBLE_DEVICES per replica" in v["fix"], v


# --- a conditional advice clause --------------------------------------------------------------------------------------
_BAGUA = ("WARNING:root:Bagua cannot detect bundled NCCL library, Bagua will try to use system NCCL instead. If you "
          "encounter any error, please run `import bagua_core; bagua_core.install_deps()` to install bundled "
          "libraries.\n")
_SETUP = ("node1:93207:93207 [0] NCCL INFO Bootstrap : Using eth1:10.1.2.3<0>\n"
          "node1:93207:93207 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE ; OOB eth1:10.1.2.3<0>\n"
          "node1:93207:93207 [0] NCCL INFO Using network IB\n"
          "NCCL version 2.10.3+cuda10.2\n")


def test_a_fallback_warning_s_if_you_encounter_any_error_advice_is_no_failure(tmp_path):
    v, acc = _verdict(tmp_path, _BAGUA + _SETUP)
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert "NCCL_DEBUG=INFO" in v["fix"], v


def test_a_line_that_also_says_what_failed_stays_a_failure(tmp_path):
    v, _ = _verdict(tmp_path, "WARNING:root:Bagua failed to load the NCCL library. If you encounter any error, please "
                              "run bagua_install_deps.py\n" + _SETUP)
    assert v["cause"] != "none", v


# --- a set-up WARN cut at the paste's end -----------------------------------------------------------------------------
def _ibv(rank: int, pid: int, cut: str | None = None) -> str:
    head = f"[1,{rank}]<stdout>:ptv-gpu01:{pid}:{pid + 90} [{rank}] misc/ibvwrap.cu:63 NCCL WARN "
    if cut is not None:
        return head + cut
    return (head + "Failed to open libibverbs.so[.1]\n"
            f"[1,{rank}]<stdout>:ptv-gpu01:{pid}:{pid + 90} [{rank}] NCCL INFO Using internal Network Socket\n"
            f"[1,{rank}]<stdout>:ptv-gpu01:{pid}:{pid + 90} [{rank}] NCCL INFO rank {rank} nranks 4\n")


_IFACES = ("[1,0]<stdout>:ptv-gpu01:11007:11097 [0] NCCL INFO NET : Using interface enp14s0:10.128.5.150<0>\n"
           "[1,0]<stdout>:ptv-gpu01:11007:11097 [0] NCCL INFO NET : Using interface "
           "ens13f0:fe80::21b:21ff:febd:14bc%ens13f0<0>\n"
           "[1,0]<stdout>:ptv-gpu01:11007:11097 [0] NCCL INFO NET/Socket : 2 interfaces found\n")


def test_a_warn_cut_two_letters_in_where_every_process_printed_it_whole_is_none(tmp_path):
    v, acc = _verdict(tmp_path, _ibv(0, 11007) + _IFACES + _ibv(2, 11009) + _ibv(3, 11010) + _ibv(1, 11008, "Fa"))
    assert (v["cause"], v["culprits"]) == ("none", []) and not acc, v
    assert "NCCL_SOCKET_IFNAME" in v["fix"], v


def test_a_cut_warn_beside_one_whole_copy_stays_unread(tmp_path):
    v, _ = _verdict(tmp_path, _ibv(0, 11007) + _IFACES + _ibv(1, 11008, "Fa"))
    assert v["cause"] == "network_setup", v  # the cut WARN a failure: the link-local interface is then doubtful


# --- a Ctrl-C the launcher's kills answer -----------------------------------------------------------------------------
_KILL = "[2024-10-29 01:28:46,598] [INFO] [launch.py:319:sigkill_handler] Killing subprocess 489270\n"
_WAIT = ('  File "/opt/conda/lib/python3.12/subprocess.py", line 1264, in wait\n'
         "    return self._wait(timeout=timeout)\n")


def test_ctrl_c_echoed_on_the_launcher_s_kill_line_is_a_signal_nobody(tmp_path):
    v, acc = _verdict(tmp_path, "Invalidate trace cache @ step 4: expected module 458, but got module 466\n"
                                "^C" + _KILL + "^CTraceback (most recent call last):\n" + _WAIT + _KILL)
    assert (v["cause"], v["culprits"]) == ("signal", []) and not acc, v
    assert "NCCL_DEBUG=INFO" in v["fix"], v


def test_launcher_kills_with_no_ctrl_c_before_them_keep_the_one_worker(tmp_path):
    v, acc = _verdict(tmp_path, _KILL + "Traceback (most recent call last):\n" + _WAIT + _KILL)
    assert (v["cause"], v["culprits"]) == ("unknown", [0]) and acc == {0}, v
