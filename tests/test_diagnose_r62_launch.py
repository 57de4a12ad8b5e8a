"""Round 62's launch and spawn shapes (session 22, fixer f2): what an expert reads from mp.spawn's two records of a
child's end, a device index a rank's bare error line refuses, launch settings that contradict the world, and the
driver's NVML library too old for the torch build. Each test holds the shape that must be read and a near shape that
must not be read that way."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict

# --- mp.spawn: "process N terminated with exit code C" is no exception; "following error" with its traceback cut ---
_SPAWN_JOIN = ("Traceback (most recent call last):\n"
               '  File "train_tts.py", line 212, in <module>\n'
               "    main()\n"
               '  File "train_tts.py", line 40, in main\n'
               "    mp.spawn(run, nprocs=gpus, args=(gpus, cfg,))\n"
               '  File "/opt/env/lib/python3.9/site-packages/torch/multiprocessing/spawn.py", line 149, in join\n'
               "    raise ProcessExitedException(\n")


def test_spawns_exit_code_record_is_the_childs_own_exit_status_not_an_exception(tmp_path):
    """torch.multiprocessing.spawn re-raises a child's Python exception as '-- Process N terminated with the following
    error:' with its traceback; 'process N terminated with exit code C' means none reached its wrapper: the child
    ended itself (sys.exit / exit / os._exit, or failed before entering the function). On one machine the record
    names process N (rules A, AL (2)), cause unknown, and the fix says where that status comes from (round 62's
    vits-fast-fine-tuning-284)."""
    text = _SPAWN_JOIN + ("torch.multiprocessing.spawn.ProcessExitedException: process 3 terminated with exit code "
                          "2\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", [3]) and _accused(d) == {3}, v
    assert "sys.exit(2)" in v["fix"] and "process 3's own output" in v["fix"], v["fix"]
    assert "not a Python exception" in v["summary"], v["summary"]


def test_spawns_signal_or_raised_records_are_not_read_as_an_exit_status(tmp_path):
    """The near shapes: a child killed by a signal (SIGKILL: the host's OOM killer) and a child whose exception spawn
    re-raised with its traceback are not a status the child's code exited with."""
    killed = _SPAWN_JOIN + ("torch.multiprocessing.spawn.ProcessExitedException: process 3 terminated with signal "
                            "SIGKILL\n")
    v = _verdict(tmp_path, killed)
    assert (v["cause"], v["culprits"]) == ("host_oom", [3]), v
    assert "sys.exit" not in v["fix"], v["fix"]
    raised = ("W0302 08:01:12.000000 77 torch/multiprocessing/spawn.py:169] Terminating process 91 via signal SIGTERM\n"
              "torch.multiprocessing.spawn.ProcessRaisedException: \n\n"
              "-- Process 1 terminated with the following error:\n"
              "Traceback (most recent call last):\n"
              '  File "/srv/train.py", line 80, in run\n'
              "    loss = step(batch)\n"
              "ValueError: expected a batch of 32, got 31\n")
    v = _verdict(tmp_path, raised, "raised.log")
    assert (v["cause"], v["culprits"]) == ("unknown", [1]), v
    assert "sys.exit" not in v["fix"] and "cut process 1's traceback" not in v["fix"], v["fix"]
    assert "expected a batch of 32" in v["fix"], v["fix"]


def test_spawns_raised_record_of_a_known_world_whose_traceback_is_cut_asks_for_its_end(tmp_path):
    """spawn's teardown of the other children ("Terminating process P via signal SIGTERM") makes the record's world
    this one machine: '-- Process N terminated with the following error:' names process N at once (rules A, AL (2)).
    Where the paste ends inside its traceback (no exception after the record), the fix says the traceback was cut
    and asks for its end, as for a held record (round 62's pytorch-152302, cut inside DDP's parameter check)."""
    text = ("W0428 00:47:04.140000 51980 .venv/lib/python3.12/site-packages/torch/multiprocessing/spawn.py:169] "
            "Terminating process 6120 via signal SIGTERM\n\n"
            "-- Process 2 terminated with the following error:\n"
            "Traceback (most recent call last):\n"
            '  File "/srv/.venv/lib/python3.12/site-packages/torch/multiprocessing/spawn.py", line 90, in _wrap\n'
            "    fn(i, *args)\n"
            '  File "/srv/demo.py", line 51, in worker\n'
            "    model = DDP(model, device_ids=[rank])\n"
            '  File "/srv/.venv/lib/python3.12/site-packages/torch/nn/parallel/distributed.py", line 835, in __init__\n'
            "    _verify_param_shape_across_processes(self.process_group, parameters)\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", [2]) and _accused(d) == {2}, v
    assert "full traceback" in v["fix"] and "cut process 2's traceback" in v["fix"], v["fix"]


# --- 'invalid device ordinal' on a rank's bare error line: the launch's device index (lead rule AU (2)) -------------
_CUDA_TAIL = ("{p}CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below "
              "might be incorrect.\n"
              "{p}For debugging consider passing CUDA_LAUNCH_BLOCKING=1.\n"
              "{p}Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n")


def test_a_ranks_bare_invalid_ordinal_with_no_frame_shown_is_the_launch(tmp_path):
    """'invalid device ordinal' is CUDA refusing a GPU index the process cannot see; with no traceback above a rank's
    error line, nothing says its own code computed the index: it is the device its launch gave it (more processes
    than visible GPUs), rule AU (2)'s launch error -- config, nobody named, whoever's tag the line carries (round 62's
    rag-retrieval-27)."""
    for p in ("[rank3]: ", "[default3]:"):
        text = f"{p}RuntimeError: CUDA error: invalid device ordinal\n" + _CUDA_TAIL.format(p=p)
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), (p, v)
        assert "CUDA_VISIBLE_DEVICES" in v["fix"] and "nproc_per_node" in v["fix"], v["fix"]


def test_a_ranks_invalid_ordinal_under_its_own_codes_frame_or_a_visible_gpus_fault_stays_a_cuda_error(tmp_path):
    """The near shapes: the same tagged error under a traceback whose last frame is the rank's own code computing a
    device (no frame that selects the process's GPU) stays that rank's CUDA error, and so does a bare illegal memory
    access (a visible GPU failing)."""
    own = ("[rank3]: Traceback (most recent call last):\n"
           '[rank3]:   File "/srv/pipe/stage.py", line 41, in forward\n'
           "[rank3]:     x = x.to(f'cuda:{self.stage_id * 2}')\n"
           "[rank3]: RuntimeError: CUDA error: invalid device ordinal\n" + _CUDA_TAIL.format(p="[rank3]: "))
    v = _verdict(tmp_path, own)
    assert (v["cause"], v["culprits"]) == ("cuda_error", [3]), v
    bare = "[rank3]: RuntimeError: CUDA error: an illegal memory access was encountered\n" + _CUDA_TAIL.format(
        p="[rank3]: ")
    v = _verdict(tmp_path, bare, "bare.log")
    assert (v["cause"], v["culprits"]) == ("cuda_error", [3]), v
    # a launcher's record of the one worker that failed, beside the bare line, changes nothing: rule AU (2)'s launch
    # error, also when a tag on every line names that same rank (session 46's ruling: round 109's mlp-maps-21, round
    # 23's simpletuner-40 relabelled)
    recorded = ("RuntimeError: CUDA error: invalid device ordinal\n" + _CUDA_TAIL.format(p="")
                + "WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 4410 closing signal SIGTERM\n"
                "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 1 (pid: 4411) "
                "of binary: /srv/.venv/bin/python\n")
    for p in ("", "[rank1]: "):
        text = "".join(p + x + "\n" for x in recorded.splitlines())
        v = _verdict(tmp_path, text, "recorded.log")
        assert (v["cause"], v["culprits"]) == ("config", []), (p, v)


# --- Lightning's WORLD_SIZE warning: the launch environment contradicting the trainer's world (rules V (1), AA (1)) --
_PL_START = ("GPU available: True, used: True\n"
             "CUDA_VISIBLE_DEVICES: [0]\n"
             "{warn}"
             "initializing ddp: GLOBAL_RANK: 0, MEMBER: 1/1\n"
             "All DDP processes registered. Starting ddp with 1 processes\n")
_PL_WARN = ("/opt/env/lib/python3.8/site-packages/pytorch_lightning/utilities/distributed.py:37: UserWarning: "
            "WORLD_SIZE environment variable (4) is not equal to the computed world size (1). Ignored.\n"
            "  warnings.warn(*args, **kwargs)\n")


def test_lightnings_world_size_env_against_its_computed_world_is_a_setting_shown_wrong(tmp_path):
    """Lightning ignoring a WORLD_SIZE environment variable that differs from the world its own settings compute:
    the process carries a launch environment that is not this run's (an earlier trial's in a hyper-parameter
    study), a setting shown inconsistent with nothing failing -- config, nobody (rules V (1), AA (1); round 62's
    optuna-1765)."""
    d = _report(tmp_path, _PL_START.format(warn=_PL_WARN))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "unset the WORLD_SIZE environment variable" in v["fix"] and "devices x num_nodes = 4" in v["fix"], v


def test_lightnings_start_without_that_warning_or_with_a_failure_after_it_is_not_that_setting(tmp_path):
    """The near shapes: the same start-up lines without the warning show nothing failing (none), and a rank's own
    failure after the warning (a CUDA out of memory) is read by its own class, not as the setting."""
    v = _verdict(tmp_path, _PL_START.format(warn=""))
    assert v["cause"] == "none", v
    oom = _PL_START.format(warn=_PL_WARN) + (
        "Traceback (most recent call last):\n"
        '  File "/srv/fit.py", line 30, in objective\n'
        "    trainer.fit(model)\n"
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of "
        "23.65 GiB of which 1.02 GiB is free. Including non-PyTorch memory, this process has 22.61 GiB memory in "
        "use.\n")
    v = _verdict(tmp_path, oom, "oom.log")
    assert v["cause"] == "gpu_oom", v


# --- two nodes' outputs announcing the same global ranks (lead rule AA (1) across files) -----------------------------
def _files(tmp_path, files: dict[str, list[int]], world: int) -> dict:
    from ncclDoctor.diagnose import diagnose

    paths = []
    for name, ranks in files.items():
        text = "".join(f"[rank: {ranks[0]}] Global seed set to 7\n"
                       f"Initializing distributed: GLOBAL_RANK: {r}, MEMBER: {r + 1}/{world}\n" for r in ranks)
        (tmp_path / name).write_text(text + "distributed_backend=nccl\nAll distributed processes registered. Starting "
                                     f"with {world} processes\n")
        paths.append(str(tmp_path / name))
    return diagnose(paths).results["diagnose"]


def test_two_nodes_outputs_announcing_the_same_global_ranks_are_nodes_launched_alike(tmp_path):
    """Lightning's announcements in two nodes' files, each file's ranks distinct but both holding global ranks of the
    first node's (worker-a: 5, 1, 3; worker-b: 0, 3, 2, 1 of 32): two processes were given each of those ranks, every
    node launched as the first one -- config, nobody, with nothing failing yet (rule AA (1); round 62's
    lightning-18760, a Kubeflow job of 48)."""
    d = _files(tmp_path, {"worker-a.log": [5, 1, 3], "worker-b.log": [0, 3, 2, 1]}, 32)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "1, 3" in v["summary"] and "node rank" in v["fix"], v


def test_nodes_announcing_their_own_ranks_or_a_console_beside_one_ranks_file_are_not_read_so(tmp_path):
    """The near shapes: two nodes announcing their own ranks (0-3 and 4-7 of 8) are a launch done right, and a
    console log of one node beside one of its ranks' own files repeats that rank (the file's ranks are a part of the
    console's): neither is two processes holding one rank."""
    v = _files(tmp_path, {"node0.log": [0, 2, 1, 3], "node1.log": [5, 4, 7, 6]}, 8)["verdict"]
    assert v["cause"] == "none", v
    v = _files(tmp_path, {"console.log": [0, 2, 1, 3], "rank2.log": [2]}, 4)["verdict"]
    assert v["cause"] == "none", v


# --- the driver's NVML library lacking a function the torch build calls (lead rules AF (2), AX (2)) ---------------
_TIMED_OUT = ("[rank2]:[E1101 09:12:01.832146912 ProcessGroupNCCL.cpp:607] [Rank 2] Watchdog caught collective "
              "operation timeout: WorkNCCL(SeqNum=812, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) "
              "ran for 600019 milliseconds before timing out.\n"
              "[rank2]:[E1101 09:12:01.833575187 ProcessGroupNCCL.cpp:1664] [PG 0 (default_pg) Rank 2] Exception "
              "(either an error or timeout) detected by watchdog at work: 812, last enqueued NCCL work: 812, last "
              "completed NCCL work: 811.\n")
_NVML = ('RuntimeError: false INTERNAL ASSERT FAILED at "../c10/cuda/driver_api.cpp":27, please report a bug to '
         "PyTorch. Can't find nvmlDeviceGetNvLinkRemoteDeviceType: /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1: "
         "undefined symbol: nvmlDeviceGetNvLinkRemoteDeviceType\n")


def test_the_drivers_nvml_lacking_a_symbol_torch_calls_is_the_install_and_a_rank_timing_out_beside_it_innocent(
        tmp_path):
    """torch's own lookup of an NVML function failing on the driver's libnvidia-ml ('undefined symbol: nvml...'):
    the driver is older than the torch build needs, the host's install -- config, no rank, even mid-run beside a
    rank whose watchdog times out in a collective (that rank waited on the failed process: innocent). Rule AX (2),
    round 62's useful-notes-and-logs-lightning."""
    for text in (_NVML, _TIMED_OUT + _NVML):
        d = _report(tmp_path, text)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
        assert "Upgrade the NVIDIA driver" in v["fix"] and "nvmlDeviceGetNvLinkRemoteDeviceType" in v["fix"], v


def test_another_librarys_undefined_symbol_probe_or_the_timeout_alone_is_not_the_driver(tmp_path):
    """The near shapes: NCCL's probe of an optional ibverbs function ('dlvsym failed on ... undefined symbol') goes on
    without it (nothing failing), and the timeout alone is read by rules B, E (a rank not shown)."""
    probe = ("gpu-3:2056:2190 [1] NCCL INFO dlvsym failed on mlx5dv_reg_dmabuf_mr - /lib/x86_64-linux-gnu/"
             "libmlx5.so.1: undefined symbol: mlx5dv_reg_dmabuf_mr, version MLX5_1.25\n")
    assert _verdict(tmp_path, probe)["cause"] == "none"
    d = _report(tmp_path, _TIMED_OUT, "timeout.log")
    assert d["verdict"]["cause"] == "rank_missing" and 2 not in _accused(d), d["verdict"]
