"""How diagnose reads round 110's cut tracebacks, launcher records without the error, a py-spy stack of a hang, resume
failures, Horovod's stall lists and a KeyboardInterrupt inside a wait (session 47, fixer f7): the fix words of a
traceback cut before its error (a worker's, torchrun's own agent's, one inside DDP's construction broadcast), a
wrapper's CalledProcessError of the launcher command, a lone worker's exit-1 record and a resume's state_dict
mismatch; a rich traceback box cut before its exception, one py-spy dump standing in a collective, a rank's own stack
interrupted inside a CUDA synchronize, Horovod's Missing ranks block with every rank missing another tensor, and a
bare rank-tagged AssertionError beside another rank's cut traceback. Each test reads the shape from lines other than
the corpus case's own (other ranks, numbers, paths, names), and a near shape that keeps its old reading. Hosts, pids,
paths and model names are made up."""

from __future__ import annotations

from tests.conftest import verdict_accused


def _near(tmp_path):
    d = tmp_path / "near"
    d.mkdir()
    return d


def _tagged(rank: int, lines) -> str:
    return "".join(f"[rank{rank}]: {line}\n" for line in lines)


# --- a traceback cut before its error text ----------------------------------------------------------------------------
def test_a_cut_worker_traceback_asks_for_a_single_process_run(tmp_path):
    """Lead rules J, BG (1), AB (2): two workers' tracebacks interleaved, cut in a frame of the job's own code before
    any error text: unknown, nobody; the fix adds the expert's last resort, one process without the launcher."""
    text = ("Traceback (most recent call last):\nTraceback (most recent call last):\n"
            '  File "run_pretrain.py", line 188, in <module>\n  File "run_pretrain.py", line 188, in <module>\n'
            "    main(cfg)\n    main(cfg)\n"
            '  File "run_pretrain.py", line 47, in main\n  File "run_pretrain.py", line 47, in main\n'
            "    loader = build_loader(cfg.data)\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "unknown" and not acc and v["culprits"] == [], (v, acc)
    assert "run single-process to see the error" in v["fix"], v
    assert "torchrun's own elastic agent" not in v["fix"], v  # a worker's frames, not the agent's


def test_torchrun_agent_traceback_cut_in_invoke_run_names_the_rendezvous_settings(tmp_path):
    """Lead rules BC (1), T: torchrun's own agent traceback (run -> elastic_launch -> launch_agent -> agent.run ->
    _invoke_run) cut before its exception: unknown, nobody; the fix names the rendezvous address and LOGLEVEL=INFO."""
    site = "/opt/envs/llm/lib/python3.11/site-packages/torch/distributed"
    text = (f'  File "{site}/run.py", line 870, in run\n    elastic_launch(\n'
            f'  File "{site}/launcher/api.py", line 133, in __call__\n'
            "    return launch_agent(self._config, self._entrypoint, list(args))\n"
            f'  File "{site}/launcher/api.py", line 255, in launch_agent\n    result = agent.run()\n'
            f'  File "{site}/elastic/agent/server/api.py", line 699, in run\n    result = self._invoke_run(role)\n')
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "unknown" and not acc, (v, acc)
    assert "LOGLEVEL=INFO" in v["fix"] and "--local_addr" in v["fix"] and "--rdzv_backend static" in v["fix"], v


def test_a_cut_traceback_inside_ddp_construction_names_the_peer_path(tmp_path):
    """Lead rules BH (2), AC (1): a traceback cut inside DistributedDataParallel's construction broadcast: unknown,
    nobody; the fix adds NCCL's peer-path switches to test the transport."""
    site = "/home/lab/.conda/envs/t19/lib/python3.9/site-packages/torch/nn/parallel/distributed.py"
    text = ('  File "fit.py", line 92, in <module>\n    net = DistributedDataParallel(net, device_ids=[lr])\n'
            f'  File "{site}", line 640, in __init__\n    self._sync_params_and_buffers(authoritative_rank=0)\n'
            f'  File "{site}", line 1170, in _sync_params_and_buffers\n'
            "    self._distributed_broadcast_coalesced(\n"
            f'  File "{site}", line 1131, in _distributed_broadcast_coalesced\n')
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "unknown" and not acc, (v, acc)
    assert "NCCL_P2P_DISABLE=1 / NCCL_IB_DISABLE=1 to test the GPU peer path" in v["fix"], v


# --- launcher records without the worker's error ----------------------------------------------------------------------
def test_a_wrappers_calledprocesserror_of_the_launcher_names_no_worker(tmp_path):
    """Lead rules A, BG (6): a wrapper's CalledProcessError for the `python -m torch.distributed.launch ...` command it
    ran: nobody named; the fix says the record hides which worker failed and asks for each worker's own output."""
    text = ('  File "/srv/code/run_dist.py", line 31, in <module>\n'
            "    raise subprocess.CalledProcessError(returncode=proc.returncode, cmd=cmd)\n"
            "subprocess.CalledProcessError: Command 'python -m torch.distributed.launch --nnodes 1 --node_rank 0 "
            "--nproc_per_node 8 --master_addr node-a --master_port 29411 /srv/code/fit.py --cfg cfg/x.yaml' returned "
            "non-zero exit status 1.\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "unknown" and not acc, (v, acc)
    assert "read each worker's own log/traceback (the record hides which rank failed)" in v["fix"], v
    assert "NCCL_DEBUG=INFO for the distributed start-up" in v["fix"], v
    # near shape: torch.distributed.launch's own CalledProcessError (its last worker's --local_rank): rule M's words
    near = ("subprocess.CalledProcessError: Command '['/usr/bin/python', '-u', 'fit.py', '--local_rank=3']' "
            "returned non-zero exit status 1.\n")
    v2, _ = verdict_accused(_near(tmp_path), near)
    assert "wrapper's record of the launcher command" not in v2["fix"], v2
    assert "prints the command of the last worker it launched" in v2["fix"], v2


def test_a_lone_exit1_record_asks_for_a_single_process_run_of_that_rank(tmp_path):
    """Lead rule A: torchrun's record of one worker, exit code 1, <NO_OTHER_FAILURES>: that rank; the fix asks to
    reproduce its error in a single process."""
    text = ("torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n" + "=" * 60 + "\nfit.py FAILED\n"
            + "-" * 60 + "\nFailures:\n  <NO_OTHER_FAILURES>\n" + "-" * 60
            + "\nRoot Cause (first observed failure):\n[0]:\n  time      : 2024-02-11_08:15:40\n  host      : gpu-07\n"
            "  rank      : 2 (local_rank: 2)\n  exitcode  : 1 (pid: 40412)\n  error_file: <N/A>\n"
            "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html\n" + "=" * 60
            + "\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "unknown" and acc == {2}, (v, acc)
    assert "rerun with a single process to reproduce rank 2's error" in v["fix"], v


def test_a_resume_state_dict_mismatch_of_a_lone_worker_names_the_checkpoint(tmp_path):
    """Lead rules A, BG (4), CK (3): a lone worker's traceback ending in load_state_dict's 'Error(s) in loading
    state_dict' under a resume, torchrun's record naming it: unknown, that rank; the fix says the checkpoint does not
    match the model and how to resume."""
    site = "/opt/py/lib/python3.10/site-packages"
    text = ('  File "pretrain.py", line 611, in main\n    trainer.train(resume_from_checkpoint=ckpt)\n'
            f'  File "{site}/deepspeed/runtime/engine.py", line 2590, in load_module_state_dict\n'
            "    self.module.load_state_dict(\n"
            f'  File "{site}/torch/nn/modules/module.py", line 2152, in load_state_dict\n'
            "    raise RuntimeError('Error(s) in loading state_dict for {}:\\n\\t{}'.format(\n"
            "RuntimeError: Error(s) in loading state_dict for PeftModelForSeq2SeqLM:\n"
            "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n" + "=" * 60
            + "\npretrain.py FAILED\n" + "-" * 60 + "\nFailures:\n  <NO_OTHER_FAILURES>\n" + "-" * 60
            + "\nRoot Cause (first observed failure):\n[0]:\n  time      : 2024-05-02_10:00:01\n  host      : box1\n"
            "  rank      : 0 (local_rank: 0)\n  exitcode  : 1 (pid: 7781)\n  error_file: <N/A>\n"
            "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html\n" + "=" * 60
            + "\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "unknown" and acc == {0}, (v, acc)
    assert "checkpoint does not match the model (missing keys" in v["fix"], v
    assert "load only the adapter weights" in v["fix"], v


# --- a rich traceback cut before its exception ------------------------------------------------------------------------
def _rich_box(rank: int, closed: bool) -> str:
    rows = ["╭───────────────────── Traceback (most recent call last) ──────────────────────╮",
            "│ /opt/py/lib/python3.11/site-packages/triton/testing.py:117 in do_bench       │",
            "│                                                                              │",
            "│   116 │   torch.cuda.synchronize()                                           │",
            "│ ❱ 117 │   fn()                                                               │",
            "│   118 │   cache.zero_()                                                      │",
            "│   119 │                                                                      │",
            "│   120 │   # estimate the runtime of the function                             │",
            "│   121 │   start_event = torch.cuda.Event(enable_timing=True)                 │",
            "│                                                                              │",
            "│ /opt/py/lib/python3.11/site-packages/torch/_inductor/runtime/autotune.py:    │"]
    if closed:
        rows += ["╰──────────────────────────────────────────────────────────────────────────────╯",
                 "OutOfResources: out of resource: shared memory, Required: 262144, Hardware limit: 232448"]
    said = ["W0311 09:12:40.118000 1402 torch/_dynamo/variables/tensor.py:776] [0/0] Graph break from "
            "`Tensor.item()`, consider setting:", "W0311 09:12:40.118000 1402 torch/_dynamo/variables/tensor.py:776] "
            "[0/0]     torch._dynamo.config.capture_scalar_outputs = True"]
    return _tagged(rank, said + rows)


def test_a_rich_traceback_box_cut_before_its_exception_is_a_failure_not_nothing(tmp_path):
    """Lead rules AB (2), BG (6): a rich traceback box (rich.traceback) that the paste stops inside, before its
    closing line and exception: something failed, unknown, nobody named (not "nothing failed")."""
    v, acc = verdict_accused(tmp_path, _rich_box(5, closed=False))
    assert v["cause"] == "unknown" and not acc and v["culprits"] == [], (v, acc)
    assert "stops inside rank 5's traceback" in v["summary"], v
    # near shape: the box closed and its exception shown: read by that exception, not as cut
    v2, _ = verdict_accused(_near(tmp_path), _rich_box(5, closed=True))
    assert "stops inside" not in v2["summary"], v2


# --- one py-spy dump standing in a collective -------------------------------------------------------------------------
def test_one_pyspy_dump_in_a_broadcast_is_unknown_not_nothing(tmp_path):
    """Lead rules AB (2), BD (2): one untagged py-spy dump whose main thread stands in torch.distributed's broadcast
    (an engine's first model broadcast), nothing else failing: unknown, nobody; the fix asks for every rank's dump
    and the nodes' connection."""
    text = ('Process 51234: python -u fit.py --local_rank=0\nPython v3.9.18 (/opt/conda/bin/python3.9)\n\n'
            'Thread 51234 (active): "MainThread"\n'
            "    broadcast (torch/distributed/distributed_c10d.py:1610)\n"
            "    wrapper (torch/distributed/c10d_logger.py:72)\n"
            "    broadcast (deepspeed/comm/torch.py:117)\n"
            "    _broadcast_model (deepspeed/runtime/engine.py:1140)\n"
            "    __init__ (deepspeed/runtime/engine.py:264)\n"
            "    <module> (fit.py:88)\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "unknown" and not acc and v["culprits"] == [], (v, acc)
    assert "py-spy dump of every rank" in v["fix"] and "NCCL_SOCKET_IFNAME" in v["fix"], v
    # near shape: a dump whose thread is in no collective keeps _pyspy_bare's reading
    near = ('Thread 51234 (idle): "MainThread"\n    _next_data (torch/utils/data/dataloader.py:1300)\n'
            "    <module> (fit.py:101)\n")
    v2, _ = verdict_accused(_near(tmp_path), near)
    assert v2["cause"] == "unknown" and "no collective frame" in v2["summary"], v2


# --- a KeyboardInterrupt inside a wait --------------------------------------------------------------------------------
def test_a_ranks_keyboardinterrupt_inside_a_cuda_synchronize_is_unknown(tmp_path):
    """Lead rules BS (2), AB (2), BD (2): a rank's own traceback ending in KeyboardInterrupt inside a CUDA event's
    synchronize (a ZeRO-3 parameter fetch): unknown, nobody named -- not rule BS (2)'s signal of a launcher's wait."""
    site = "/opt/py/lib/python3.10/site-packages"
    text = _tagged(3, ["Traceback (most recent call last):",
                       '  File "/work/rl/train_grpo.py", line 140, in <module>', "    trainer.train()",
                       f'  File "{site}/deepspeed/runtime/zero/partitioned_param_coordinator.py", line 291, in '
                       "fetch_sub_module", "    self.__ongoing_fetch_events.popleft().synchronize()",
                       f'  File "{site}/torch/cuda/streams.py", line 224, in synchronize',
                       "    super().synchronize()", "KeyboardInterrupt"])
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "unknown" and not acc and v["culprits"] == [], (v, acc)
    assert "rank 3's own traceback ends in KeyboardInterrupt inside a CUDA synchronize" in v["summary"], v
    assert "synced_gpus=True" in v["fix"] and "py-spy dump of every rank" in v["fix"], v
    # near shape: a KeyboardInterrupt of spawn's own join (the launcher's wait): rule BS (2)'s signal
    near = ("Traceback (most recent call last):\n"
            f'  File "{site}/torch/multiprocessing/spawn.py", line 140, in join\n'
            "    ready = multiprocessing.connection.wait(\n"
            '  File "/usr/lib/python3.10/multiprocessing/connection.py", line 931, in wait\n'
            "    ready = selector.select(timeout)\nKeyboardInterrupt\n")
    v2, _ = verdict_accused(_near(tmp_path), near)
    assert v2["cause"] == "signal", v2


# --- Horovod's Missing ranks block ------------------------------------------------------------------------------------
def _hvd(ranks: dict[int, str]) -> str:
    head = ("[0]<stderr>:[2021-03-02 10:11:12.345678: W /tmp/pip-req/horovod/horovod/common/stall_inspector.cc:105] "
            "One or more tensors were submitted to be reduced, gathered or broadcasted by subset of ranks and are "
            "waiting for remainder of ranks for more than 60 seconds. This may indicate that different ranks are "
            "trying to submit different tensors or that only subset of ranks is submitting tensors, which will "
            "cause deadlock.\n[0]<stderr>:Missing ranks:\n")
    return head + "".join(f"[0]<stderr>:{r}: [{t}]\n" for r, t in ranks.items())


def test_horovod_every_rank_missing_another_tensor_is_a_desync(tmp_path):
    """Lead rule D: the last Missing ranks block lists both ranks of the world, each lacking tensors the other does not
    (one a boolean broadcast, the other the gradient allreduces): they issued different collectives, desync, nobody."""
    text = _hvd({1: "broadcast.flag.sz"}) + _hvd({0: "allreduce.fc1.bias, allreduce.fc1.weight, allreduce.fc2.bias",
                                                  1: "broadcast.flag.sz"})
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "desync" and not acc and v["culprits"] == [], (v, acc)
    assert "every rank must call the same broadcast/allreduce in the same order" in v["fix"].lower(), v
    # near shape: both ranks listed lack the same tensor: rank_missing's reading stays
    v2, _ = verdict_accused(_near(tmp_path), _hvd({0: "allreduce.fc1.bias", 1: "allreduce.fc1.bias"}))
    assert v2["cause"] == "rank_missing", v2


# --- a bare AssertionError beside another rank's cut traceback --------------------------------------------------------
def test_a_bare_rank_tagged_assert_beside_a_cut_traceback_names_that_rank(tmp_path):
    """Lead rules A, AN (1): rank 2's bare AssertionError (no message, no frames shown) and rank 0's traceback cut in
    a resume before its error: rank 2 alone, unknown; the fix asks for its full assertion traceback."""
    text = (_tagged(2, ["           ^^^^^^^^^^^^^^^^", "AssertionError"])
            + "11/02 09:14:55 - mmengine - INFO - Resume checkpoint from work_dirs/run7/iter_12000.pth\n"
            + _tagged(0, ["Traceback (most recent call last):", '  File "/src/tools/train.py", line 61, in <module>',
                          "    main()", '  File "/src/env/lib/python3.10/site-packages/mmengine/runner/runner.py", '
                          "line 1720, in train", "    self.load_or_resume()"]))
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "unknown" and acc == {2}, (v, acc)
    assert "print rank 2's full assertion traceback" in v["fix"], v
    # near shape: an assertion whose message names a setting keeps rule W's reading: nobody named
    v2, acc2 = verdict_accused(_near(tmp_path), _tagged(2, ["AssertionError: world size 4 must be divisible by 3"]))
    assert not acc2 and v2["culprits"] == [], (v2, acc2)
