"""Review r3 of session 34's diagnose code: five readings that held for wider shapes than an expert reads so, each
narrowed to its shape.

- A progress bar's time field with time left (lead rule BS (3), llamafactory-860) was remembered from anywhere earlier
  in the input: a bar that later reached its end, or a training loop's bar, made every later main_process_first
  traceback cut in its barrier "the main process still preprocessing". Now the last bar's state is read -- a bar that
  finished, or tqdm's own it/s / s/it bar with no data step named, clears it -- and a traceback printed between the
  bar and the cut one ends it.
- A death with no cause printed after a full-timeout wait (lead rule BS (4), vllm-16514) was read as "died after" by
  line order alone, which a paste of per-rank logs one after another gives whatever the order of events. Now only
  clocks order them: the death line's own, or the executor's "fatal signal" line right after it (vLLM's month-day
  clock read like with like); in the same second a death printed above the timeout in the same file came first.
- LLaMA-Factory's RANK (the node rank on its launch command line, llamafactory-7326) was read on any line with NNODES,
  MASTER_ADDR and a small RANK, a per-process env dump's global RANK among them. Now only on a command line (an env
  prefix before a command word) with no LOCAL_RANK / WORLD_SIZE on it.
- DDP's constructor call's continuation line ("module=X, device_ids=") also matched nn.DataParallel's, marking a cut
  process as inside DDP's broadcast (slowfast-274). Now it needs evidence it is DDP's call: DDP's name on the call
  line above or in the shown lines, or a worker whose error torch.multiprocessing's spawn reported (one process per
  device, DDP's layout -- the case's own shape).
- A NCCL WARN copy cut by the paste was excused by any harmless WARN at its site, the empty cut a prefix of every
  one (nccl-tests-131). Now the WARN must be cut (the last line, or mid-word) and share a real prefix.
"""
from __future__ import annotations

from tests.conftest import verdict_accused as _verdict

_SP = "/opt/conda/lib/python3.10/site-packages"


# --- 1. a progress bar still running beside a cut main_process_first traceback ------------------------------------
def _main_first_cut() -> str:
    return ("Traceback (most recent call last):\n"
            '  File "/home/u/LLaMA-Efficient-Tuning/src/train_bash.py", line 14, in <module>\n'
            "    main()\n"
            '  File "/home/u/LLaMA-Efficient-Tuning/src/llmtuner/preprocess.py", line 176, in preprocess_dataset\n'
            '    with training_args.main_process_first(desc="dataset map pre-processing"):\n'
            '  File "/usr/lib/python3.10/contextlib.py", line 135, in __enter__\n'
            "    return next(self.gen)\n"
            f'  File "{_SP}/transformers/training_args.py", line 2035, in main_process_first\n'
            "    dist.barrier()\n"
            f'  File "{_SP}/torch/distributed/distributed_c10d.py", line 3328, in barrier\n'
            "    work = default_pg.barrier(opts=opts)\n"
            "Ru\n")


def test_bar_with_time_left_right_before_the_cut_traceback_is_the_main_process_preprocessing(tmp_path):
    for bar in ("[31:13<7:10:59, 908.45 e", "Running tokenizer on dataset:  8%|▊   | 726000/9672101 [31:13<7:10:59, "
                "908.45 examples/s]\n"):
        v, acc = _verdict(tmp_path, bar + _main_first_cut())
        assert v["cause"] == "rank_missing" and v["culprits"] == [] and not acc, (bar, v)


def test_bar_that_reached_its_end_or_a_training_bar_is_not_work_still_running(tmp_path):
    done = ("Running tokenizer on dataset:  8%|▊   | 726000/9672101 [31:13<7:10:59, 908.45 examples/s]\n"
            "Running tokenizer on dataset: 100%|██████| 9672101/9672101 [41:13<00:00, 908.45 examples/s]\n")
    train = " 10%|█         | 100/1000 [01:40<15:00,  1.00s/it]\n"
    for before in (done, train):
        v, acc = _verdict(tmp_path, before + _main_first_cut())
        assert v["cause"] != "rank_missing" and not acc, (before, v)


def test_a_traceback_between_the_bar_and_the_cut_one_ends_the_bar(tmp_path):
    other = ("[31:13<7:10:59, 908.45 examples/s]\n"
             "Traceback (most recent call last):\n"
             '  File "/home/u/prep.py", line 3, in <module>\n'
             "    run()\n"
             "KeyboardInterrupt\n")
    v, _ = _verdict(tmp_path, other + _main_first_cut())
    assert "still preprocessing" not in v["summary"], v


# --- 2. a death printed after a full-timeout wait ---------------------------------------------------------------
_GLOO = ("(VllmWorker rank=0 pid=225) ERROR 04-11 13:45:00 [parallel_state.py:1158] Error ignored in "
         "is_in_the_same_node: [/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:133] Timed out "
         "waiting 1800000ms for send operation to complete\n")


def test_death_the_executor_clocks_after_the_timeout_is_not_the_first_failure(tmp_path):
    text = (_GLOO
            + "(VllmWorker rank=2 pid=262) DEBUG 04-11 13:45:00 [config.py:3773] enabled custom ops: Counter()\n"
            + "(VllmWorker rank=0 pid=225) DEBUG 04-11 13:45:00 [config.py:3773] enabled custom ops: Counter()\n"
            + "(VllmWorker rank=2 pid=262) Process SpawnProcess-1:3:\n"
            + "CRITICAL 04-11 13:45:00 [multiproc_executor.py:49] MulitprocExecutor got fatal signal from worker "
              "processes, shutting down. See stack trace above for root cause issue.\n")
    v, acc = _verdict(tmp_path, text)
    assert v["cause"] == "rank_missing" and v["culprits"] == [] and 0 not in acc, v


def test_death_printed_later_with_no_clock_is_not_read_as_after(tmp_path):
    # per-rank logs pasted one after another: rank 2's death comes after rank 0's block whatever happened first
    text = (_GLOO.replace(" 04-11 13:45:00", "")
            + "(VllmWorker rank=2 pid=262) DEBUG [config.py:3773] enabled custom ops: Counter()\n"
            + "(VllmWorker rank=2 pid=262) Process SpawnProcess-1:3:\n"
            + "CRITICAL [multiproc_executor.py:49] MulitprocExecutor got fatal signal from worker processes, shutting "
              "down. See stack trace above for root cause issue.\n")
    v, _ = _verdict(tmp_path, text)
    assert not (v["cause"] == "rank_missing" and v["culprits"] == []), v


# --- 3. LLaMA-Factory's RANK as the node rank ----------------------------------------------------------------------
def _launches(tmp_path, text: str) -> list[dict]:
    import ncclDoctor.diagnose as D

    (tmp_path / "job.log").write_text(text)
    c = D.ingest_all(D.expand([str(tmp_path / "job.log")], None), 1)
    c.finalize()
    return [e.data for e in c.samples.get("launch_args", [])]


def test_launch_command_env_prefix_rank_is_the_node_rank(tmp_path):
    text = ("(train) root@10:~# FORCE_TORCHRUN=1 NNODES=3 RANK=1 MASTER_ADDR=192.168.100.2 MASTER_PORT=29500 \\\n"
            "> llamafactory-cli train examples/deepseek_lora/deepseek_7b_lora.yaml\n"
            "$ FORCE_TORCHRUN=1 NNODES=2 RANK=0 MASTER_ADDR=10.0.0.1 MASTER_PORT=29500 llamafactory-cli train x.yaml\n")
    assert [(d["node_rank"], d["master_addr"]) for d in _launches(tmp_path, text)] == [(1, "192.168.100.2"),
                                                                                        (0, "10.0.0.1")]


def test_a_process_env_dump_rank_is_not_a_node_rank(tmp_path):
    text = ("MASTER_ADDR=10.0.0.1 MASTER_PORT=29500 NNODES=2 RANK=1 LOCAL_RANK=1 WORLD_SIZE=16\n"
            "env: MASTER_ADDR=10.0.0.2 NNODES=2 RANK=1 LOCAL_RANK=1 python train.py\n"
            "env: MASTER_ADDR=10.0.0.3 NNODES=2 RANK=1\n")
    assert _launches(tmp_path, text) == []


# --- 4. a constructor call's continuation line "module=X, device_ids=" ---------------------------------------------
def _cut_at_construct(spawned: bool, above: str = "") -> str:
    head = ("-- Process 2 terminated with the following error:\nTraceback (most recent call last):\n"
            f'  File "{_SP}/torch/multiprocessing/spawn.py", line 19, in _wrap\n'
            "    fn(i, *args)\n") if spawned else "Traceback (most recent call last):\n"
    return (head + '  File "/home/u/proj/tools/train_net.py", line 382, in train\n'
            "    model = build_model(cfg)\n"
            '  File "/home/u/proj/models/build.py", line 51, in build_model\n'
            + above + "    module=model, device_ids=[cur_device], outp")


def test_continuation_line_in_a_spawned_worker_is_ddp_construction(tmp_path):
    for text in (_cut_at_construct(True),):
        v, acc = _verdict(tmp_path, text)
        assert v["cause"] == "unknown" and "DistributedDataParallel" in v["summary"] + v.get("fix", ""), (text, v)
        assert not acc, v


def test_continuation_line_with_no_ddp_evidence_is_not_a_collective(tmp_path):
    # nn.DataParallel(module=model, device_ids=[0, 1]) in one process takes the same arguments: nothing crosses
    for text in (_cut_at_construct(False), _cut_at_construct(False, "    model = nn.DataParallel(\n")):
        v, _ = _verdict(tmp_path, text)
        assert "DistributedDataParallel" not in v["summary"] + v.get("fix", ""), (text, v)


# --- 5. a NCCL WARN copy cut by the paste ------------------------------------------------------------------------
_WHOLE = "Meowth:8756:8772 [1] graph/search.cc:890 NCCL WARN Could not find a path for pattern 4, falling back to " \
         "simple order\n"
_INFO = "Meowth:8756:8771 [0] NCCL INFO Channel 00/02 :    0   1\n"


def test_the_paste_cutting_a_harmless_warn_is_that_warn_again(tmp_path):
    for text in (_WHOLE + "\nMeowth:8756:8771 [0] graph/search.cc:890 NCCL WARN Could not find a pat",
                 _WHOLE + "Meowth:8756:8771 [0] graph/search.cc:890 NCCL WARN Could not find a pat\n" + _INFO):
        v, acc = _verdict(tmp_path, text)
        assert v["cause"] == "none" and not acc, (text, v)


def test_an_uncut_or_empty_warn_at_the_site_is_not_excused(tmp_path):
    for text in (_WHOLE + "Meowth:8756:8771 [0] graph/search.cc:890 NCCL WARN\n" + _INFO,
                 _WHOLE + "Meowth:8756:8771 [0] graph/search.cc:890 NCCL WARN Could not find a path\n" + _INFO):
        v, _ = _verdict(tmp_path, text)
        assert v["cause"] != "none", (text, v)


def test_death_printed_later_but_clocked_before_the_timeout_is_not_after(tmp_path):
    # rank 2's log pasted after rank 0's: its death printed below the timeout, its executor's clock 30 minutes earlier
    text = (_GLOO
            + "(VllmWorker rank=2 pid=262) Process SpawnProcess-1:3:\n"
            + "CRITICAL 04-11 13:15:00 [multiproc_executor.py:49] MulitprocExecutor got fatal signal from worker "
              "processes, shutting down. See stack trace above for root cause issue.\n")
    v, _ = _verdict(tmp_path, text)
    assert not (v["cause"] == "rank_missing" and v["culprits"] == []), v
