"""Review b of round 110's fixes (session 47, fixer y2): a lone bare AssertionError read alike with or without its
frames, the interrupt-in-synchronize reading gated on an unfit launch and on a distributed wait, the device-mismatch
words for one process spread over several GPUs, JAX's fork warning alone, NCCL's 'Abort COMPLETE' words, SIGFPE's
cuBLASLt words and the line-prefix heads kept off the per-line pattern. Each shape with a near one that keeps the
other reading. Hosts, pids and paths are made up."""

from __future__ import annotations

from ncclDoctor.diagnose import signatures as S
from tests.conftest import verdict_accused


def _tag(rank: int, lines: list[str]) -> str:
    return "".join(f"[rank{rank}]: {x}\n" for x in lines)


# --- finding 1: a lone bare AssertionError names its rank in every form (rule BJ (2), as bevformer-47) -------------
_ASSERT_FRAMES = ['Traceback (most recent call last):', '  File "/srv/job/run.py", line 120, in <module>',
                  '    fit(cfg)', '  File "/srv/job/run.py", line 97, in fit', '    assert sample is not None',
                  'AssertionError']
_DS_SPAWN = ("[2025-03-02 08:11:40,120] [INFO] [launch.py:256:main] process 5512 spawned with command: "
             "['/usr/bin/python', '-u', 'run.py', '--local_rank={lr}', '--deepspeed', 'ds.json']\n")


def test_a_lone_bare_assert_names_its_rank_with_or_without_its_frames(tmp_path):
    """The one-line form, the same behind DeepSpeed's spawn lines, and the full traceback with its frames: one rank's
    own exception, no setting named: unknown, that rank, medium in all three (review 110 b #1)."""
    forms = {"line": _tag(2, ["AssertionError"]),
             "spawned": _DS_SPAWN.format(lr=0) + _DS_SPAWN.format(lr=1) + _tag(2, ["AssertionError"]),
             "frames": _tag(2, _ASSERT_FRAMES)}
    for name, text in forms.items():
        (tmp_path / name).mkdir()
        v, acc = verdict_accused(tmp_path / name, text)
        assert v["cause"] == "unknown" and v["culprits"] == [2] and acc == {2}, (name, v, acc)
        assert v["confidence"] == "medium", (name, v)
    assert "its last frame's assert line is the check that failed" in v["fix"], v  # the frames form
    assert "none of its frames" not in v["fix"], v


def test_a_bare_assert_on_two_ranks_names_neither(tmp_path):
    """Near shape: the same bare assert raised by two ranks is no one rank's own failure: nobody accused."""
    v, acc = verdict_accused(tmp_path, _tag(2, _ASSERT_FRAMES) + _tag(5, _ASSERT_FRAMES))
    assert v["cause"] == "unknown" and not acc and v["culprits"] == [], (v, acc)


# --- findings 2 and 6: KeyboardInterrupt inside a CUDA synchronize -------------------------------------------------
_SYNC = ['  File "/opt/py/lib/python3.10/site-packages/torch/cuda/__init__.py", line 792, in synchronize',
         '    return torch._C._cuda_synchronize()']
_EVENT_SYNC = ['  File "/opt/py/lib/python3.10/site-packages/torch/cuda/streams.py", line 224, in synchronize',
               '    super().synchronize()']


def test_an_interrupt_in_synchronize_after_a_launch_that_cannot_form_the_world_stays_config(tmp_path):
    """fast-reid's --machine-rank 1 with num_machines=1 (rule T: machine_rank must be < num_machines), then a
    traceback interrupted in torch.cuda.synchronize: config, medium, as the Ctrl-C branch reads it (review 110 b #2)."""
    text = ("CUDA_VISIBLE_DEVICES=0,1 python ./tools/train_net.py --config-file configs/r50.yml --machine-rank 1 "
            "--num-gpus 2 --dist-url auto\n"
            "Command Line Args: Namespace(config_file='configs/r50.yml', dist_url='auto', eval_only=False, "
            "machine_rank=1, num_gpus=2, num_machines=1, opts=[], resume=False)\n"
            "Traceback (most recent call last):\n  File \"./tools/train_net.py\", line 70, in <module>\n"
            "    main(args)\n"
            "  File \"./fastreid/engine/launch.py\", line 92, in _distributed_worker\n    torch.cuda.synchronize()\n"
            + "\n".join(_SYNC) + "\nKeyboardInterrupt\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "config" and not acc and v["culprits"] == [] and v["confidence"] == "medium", (v, acc)
    assert "machine_rank must be < num_machines" in v["fix"], v
    assert "py-spy dump --pid PID on every rank" not in v["fix"], v


def test_an_interrupt_in_zero3s_parameter_fetch_is_a_wait_with_its_zero3_words(tmp_path):
    """Near shape of #2 and #6: the interrupt under DeepSpeed's ZeRO-3 fetch_sub_module, no launch set-up shown:
    unknown, nobody, low, with the py-spy and synced_gpus words (round 110's yyt-t-xyzo)."""
    text = _tag(4, ['Traceback (most recent call last):', '  File "/srv/job/gen.py", line 61, in <module>',
                    '    out = engine(batch)',
                    '  File "/opt/py/lib/python3.10/site-packages/deepspeed/runtime/zero/'
                    'partitioned_param_coordinator.py", line 300, in fetch_sub_module',
                    '    self.__ongoing_fetch_events.popleft().synchronize()', *_EVENT_SYNC, 'KeyboardInterrupt'])
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "unknown" and not acc and v["culprits"] == [] and v["confidence"] == "low", (v, acc)
    assert "synced_gpus=True" in v["fix"] and "py-spy dump --pid PID on every rank" in v["fix"], v


def test_a_plain_synchronize_interrupted_is_the_users_ctrl_c(tmp_path):
    """The job's own torch.cuda.synchronize() (timing code) interrupted, no collective, DeepSpeed or timeout shown:
    rule BS (2)'s signal, medium, nobody, with no ZeRO-3 words (review 110 b #6)."""
    text = _tag(6, ['Traceback (most recent call last):', '  File "/srv/job/bench.py", line 88, in <module>',
                    '    run_step()', '  File "/srv/job/bench.py", line 41, in run_step',
                    '    torch.cuda.synchronize()', *_SYNC, 'KeyboardInterrupt'])
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "signal" and not acc and v["culprits"] == [] and v["confidence"] == "medium", (v, acc)
    assert "ZeRO-3" not in v["fix"] and "synced_gpus" not in v["fix"], v


def test_an_interrupt_under_a_barrier_is_a_wait_without_zero3_words(tmp_path):
    """Near shape of #6: the synchronize under torch.distributed's barrier: the wait reading (unknown, nobody), but
    no DeepSpeed frame nor generate: no ZeRO-3 / synced_gpus words."""
    text = _tag(1, ['Traceback (most recent call last):', '  File "/srv/job/train.py", line 30, in <module>',
                    '    dist.barrier()',
                    '  File "/opt/py/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", line 3685, '
                    'in barrier', '    work.wait()', *_SYNC, 'KeyboardInterrupt'])
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "unknown" and not acc and v["culprits"] == [], (v, acc)
    assert "py-spy dump --pid PID on every rank" in v["fix"], v
    assert "synced_gpus" not in v["fix"] and "ZeRO-3" not in v["fix"], v


# --- finding 3: one process spread over several GPUs --------------------------------------------------------------
_MISMATCH = ("RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:{a} "
             "and cuda:{b}! (when checking argument for argument index in method wrapper_CUDA__index_select)")


def test_a_model_spread_by_one_process_gets_the_device_map_words_first(tmp_path):
    """One process, no rank tag nor launcher, transformers' generate, cuda:2 and cuda:0: the device_map words lead,
    not the one-process-per-GPU set_device advice (review 110 b #3)."""
    text = ("Loading checkpoint shards: 100%|##########| 3/3 [00:04<00:00,  1.41s/it]\n"
            "Traceback (most recent call last):\n  File \"/home/lee/gen.py\", line 33, in <module>\n"
            "    ids = model.generate(**enc, max_new_tokens=32)\n"
            "  File \"/opt/py/lib/python3.11/site-packages/transformers/generation/utils.py\", line 1760, in "
            "generate\n    return self._sample(\n"
            "  File \"/opt/py/lib/python3.11/site-packages/torch/nn/functional.py\", line 2264, in embedding\n"
            "    return torch.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)\n"
            + _MISMATCH.format(a=2, b=0) + "\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "unknown" and not acc and v["culprits"] == [], (v, acc)
    assert v["fix"].startswith("One process here runs a model spread over several GPUs (device_map="), v
    assert "set_device(local_rank)" not in v["fix"], v


def test_ranks_with_cuda0_and_their_own_gpu_get_the_set_device_words(tmp_path):
    """Near shape: a torchrun worker's tagged traceback (its own code, no generate) naming cuda:3 and cuda:0: the
    one-process-per-GPU words stay (round 110's pytorch-elastic-169)."""
    text = _tag(3, ['Traceback (most recent call last):', '  File "/srv/job/main.py", line 410, in <module>',
                    '    main()', '  File "/srv/job/main.py", line 180, in main',
                    '    better = acc1 > state.best_acc1', _MISMATCH.format(a=3, b=0)])
    v, _ = verdict_accused(tmp_path, text)
    assert "torch.cuda.set_device(local_rank)" in v["fix"], v
    assert "One process here runs a model spread" not in v["fix"], v


# --- finding 4: JAX's fork warning alone ----------------------------------------------------------------------------
_FORK = ("/opt/py/lib/python3.11/multiprocessing/popen_fork.py:66: RuntimeWarning: os.fork() was called. os.fork() "
         "is incompatible with multithreaded code, and JAX is multithreaded, so this will likely lead to a deadlock.\n"
         "  self.pid = os.fork()\n")


def test_the_jax_fork_warning_alone_is_none_at_low_without_went_on(tmp_path):
    """The paste ends on the warning: none, low, the hang words first and nothing about the run going on (review 110
    b #4)."""
    v, acc = verdict_accused(tmp_path, _tag(3, _FORK.splitlines()))
    assert v["cause"] == "none" and not acc and v["confidence"] == "low", (v, acc)
    assert "here the processes went on after it" not in v["fix"], v
    assert "these lines end on it" in v["fix"], v
    assert v["fix"].index("py-spy dump of the DataLoader workers") < v["fix"].index("To silence it"), v


def test_the_jax_fork_warning_with_the_run_going_on_says_so(tmp_path):
    """Near shape: progress lines after the warning: none, medium, 'went on after it'."""
    text = _FORK + "".join(f"Epoch 1 step {s}: loss {2.5 - s / 100:.3f}, 812.4 img/s\n" for s in (10, 20, 30))
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "none" and not acc and v["confidence"] == "medium", (v, acc)
    assert "here the processes went on after it" in v["fix"], v


# --- finding 5: NCCL's Abort COMPLETE --------------------------------------------------------------------------------
def test_abort_complete_words_do_not_send_users_to_destroy_process_group_instead_of_abort(tmp_path):
    """The communicators' teardown at exit (abort or destroy): harmless where the job finished; a job that did not
    finish has its exception in each rank's output (review 110 b #5)."""
    text = ("gpu7:311:411 [0] NCCL INFO comm 0x7a10 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 3000 commId 0x9f1 - "
            "Init COMPLETE\n"
            "gpu7:312:412 [1] NCCL INFO comm 0x7a11 rank 1 nranks 2 cudaDev 1 nvmlDev 1 busId 4000 commId 0x9f1 - "
            "Init COMPLETE\n"
            "gpu7:311:511 [0] NCCL INFO [Service thread] Connection closed by localRank 1\n"
            "gpu7:312:512 [1] NCCL INFO comm 0x7a11 rank 1 nranks 2 cudaDev 1 busId 4000 - Abort COMPLETE\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "none" and not acc and v["confidence"] == "low", (v, acc)
    assert "instead of abort" not in v["fix"], v
    assert "harmless where the job finished" in v["fix"], v
    assert "read the Python/torchrun output of each rank for the exception" in v["fix"], v


# --- finding 7: SIGFPE's words ----------------------------------------------------------------------------------------
_FPE_RECORD = (
    "E0302 10:00:01.000000 4411 torch/distributed/elastic/multiprocessing/api.py:862] failed (exitcode: -8) "
    "local_rank: 3 (pid: 4415) of binary: /usr/bin/python\n"
    "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n"
    "============================================================\ntrain.py FAILED\n"
    "------------------------------------------------------------\nRoot Cause (first observed failure):\n[0]:\n"
    "  time      : 2025-03-02_10:00:01\n  host      : {host}\n  rank      : 3 (local_rank: 3)\n"
    "  exitcode  : -8 (pid: 4415)\n  error_file: <N/A>\n  traceback : Signal 8 (SIGFPE) received by PID 4415\n"
    "============================================================\n")


def test_a_sigfpe_with_no_library_or_gpu_named_gets_the_generic_words_once(tmp_path):
    """No cuBLAS, cublasLt nor GPU model in the lines: no cuBLASLt / H20 words, and the backtrace advice once (review
    110 b #7)."""
    v, acc = verdict_accused(tmp_path, _FPE_RECORD.format(host="worker-a"))
    assert v["cause"] == "unknown" and v["culprits"] == [3] and acc == {3}, (v, acc)
    assert "cuBLASLt" not in v["fix"] and "H20" not in v["fix"], v
    assert v["fix"].count("faulthandler or under gdb") == 1 and v["fix"].count("(gdb python core -> bt)") == 0, v
    assert "trap divide error" in v["fix"], v


def test_a_sigfpe_on_an_h20_host_gets_the_cublaslt_words(tmp_path):
    """Near shape: the same record from a host the lines name as an H20 machine: the cuBLASLt words come."""
    v, acc = verdict_accused(tmp_path, _FPE_RECORD.format(host="llm-h20-node3"))
    assert v["cause"] == "unknown" and v["culprits"] == [3] and acc == {3}, (v, acc)
    assert "cuBLASLt's gemm heuristics" in v["fix"], v


# --- finding 8: the two newer heads kept off R_LINE_PREFIX's per-line cost --------------------------------------------
def test_milabenchs_head_is_gated_and_both_heads_still_strip():
    """milabench's run head is no alternative of R_LINE_PREFIX (it backtracked on every line opening with a word); it
    is tried behind ' [std'. Both heads still strip (review 110 b #8)."""
    assert r"\[std(?:out|err)\] (?=\S)" not in S.R_LINE_PREFIX.pattern
    assert S.strip_prefixes("llama.node4.D1 [stderr] [rank14]: RuntimeError: boom") == "RuntimeError: boom"
    assert S.strip_prefixes("[gpu-host2:7]:ValueError: bad shape") == "ValueError: bad shape"
    assert S.strip_prefixes("[gpu-host2:29500]:58152 (system error)") == "[gpu-host2:29500]:58152 (system error)"
    assert S.strip_prefixes("main.py stdout [x] done") == "main.py stdout [x] done"
    assert S.prefix_match("llama.node4.D1 [stdout] hello").end() == len("llama.node4.D1 [stdout] ")
