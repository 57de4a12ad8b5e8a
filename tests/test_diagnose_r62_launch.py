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
