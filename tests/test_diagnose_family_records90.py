"""Launchers' records cut short and the fix words of a signal's death, shapes round 90 showed read by their shape
(rules A, AG, BF (6), BC (1), BG (6), AB (2), AC (1), AU (1), BJ (1), AD (2), T): each is a launcher's or a
framework's own record of a process ending, read for what it shows and no further.

- accelerate's simple_launcher (its frame in the traceback: `accelerate launch` without --multi_gpu runs ONE process)
  raising subprocess.CalledProcessError for its only child, the script run by python itself, the line cut inside the
  command before "died with <Signals...>" / "returned non-zero exit status": CalledProcessError is raised only for a
  non-zero status, so the job's one process failed -- culprits [0], cause unknown (rules A, AG, BF (6);
  kohya-trainer-119 and -148, as autotrain-advanced-456 reads the whole line). The fix names the line's end (the exit
  status or signal), the child's own stderr and host RAM for a SIGKILL. Not read so: a CalledProcessError cut the same
  way with no simple_launcher frame above it (a script's own subprocess.run(check=True)): no launcher says it was the
  job's process.
- torchrun's agent traceback cut in _invoke_run's call of _restart_workers (or inside it): the agent was restarting its
  worker group, rendezvousing again -- unknown, culprits [] (rule BC (1); dlrover-417, as dlrover-374 and qwen-1004 read
  a cut agent traceback); the fix names max_restarts, the agent log and the rendezvous. A cut elsewhere in _invoke_run
  (its monitor's sleep) keeps the plain cut-traceback reading.
- torch.distributed.launch's / torchrun's own traceback cut in launcher/api.py (launch_agent) before its text: the fix
  now also names what launch_agent raises there -- ChildFailedError (a worker failed: its table, the worker log above,
  @record) or SignalException (SIGHUP from a closed terminal: setsid / tmux / screen, not a bare nohup)
  (efficientvim-3). The verdict stays unknown, culprits [].
- A parent's traceback cut in torch_xla's xmp.spawn -> pjrt.spawn -> run_multiprocess: PJRT's process pool re-raises
  the first child's end there (its exception, or BrokenProcessPool for a child that died abruptly), the others torn down
  with SIGTERM and named by no rank -- unknown, nobody named (rules BG (6), AB (2), AC (1); xla-6015); the fix names
  nprocs=1 and host memory. A child's own frames (_run_thread_per_device) are not read so.
- Ray's RayActorError "The actor is dead because its node has died.": the node went and its worker with it, why not
  said, the worker's pid and IP no rank -- unknown, culprits "unknown" (rules AU (1), BJ (1), AD (2); ray-43751, as
  ray-45179 reads a node marked dead); the fix names the node's health, preemption, node memory and Ray Train's
  FailureConfig(max_failures). With "the actor's node was preempted: ..." on the next line it stays ray-63807's signal.
- A local rank's SIGKILL (torchrun's "failed (exitcode: -9) local_rank: 3"): host_oom on that rank as before (rule A;
  open-assistant-3231), the fix now naming more host RAM or swap beside the memory limit.
"""
from __future__ import annotations

from tests.conftest import verdict_accused as _verdict

_ACCELERATE = ("Traceback (most recent call last):\n"
               '  File "/usr/local/bin/accelerate", line 8, in <module>\n'
               "    sys.exit(main())\n"
               '  File "/usr/lib/python3/dist-packages/accelerate/commands/accelerate_cli.py", line 45, in main\n'
               "    args.func(args)\n"
               '  File "/usr/lib/python3/dist-packages/accelerate/commands/launch.py", line 1104, in launch_command\n'
               "    simple_launcher(args)\n"
               '  File "/usr/lib/python3/dist-packages/accelerate/commands/launch.py", line 567, in simple_launcher\n'
               "    raise subprocess.CalledProcessError(returncode=process.returncode, cmd=cmd)\n")
_CUT_CMD = ("subprocess.CalledProcessError: Command '['/usr/bin/python3', 'train_net.py', '--model=/data/m.ckpt', "
            "'--out_dir=/data/out', '--batch_si\n")


# --- accelerate's simple_launcher record cut before its status --------------------------------------------------------
def test_simple_launcher_record_cut_names_its_one_process(tmp_path):
    v, acc = _verdict(tmp_path, "load checkpoint\nloading vae: <All keys matched successfully>\n" + _ACCELERATE
                      + _CUT_CMD)
    assert (v["cause"], v["culprits"]) == ("unknown", [0]) and acc == {0}, v
    assert "the exit status or signal" in v["fix"] and "the child's own stderr" in v["fix"], v
    assert "host memory (RAM" in v["fix"], v


def test_a_cut_called_process_error_without_the_launcher_frame_names_no_one(tmp_path):
    v, acc = _verdict(tmp_path, "Traceback (most recent call last):\n"
                                '  File "prep.py", line 30, in <module>\n'
                                "    subprocess.run(cmd, check=True)\n"
                                '  File "/usr/lib/python3.10/subprocess.py", line 526, in run\n'
                                "    raise CalledProcessError(retcode, process.args,\n" + _CUT_CMD)
    assert not acc and v["culprits"] in ([], "unknown"), v


# --- torchrun's agent cut while restarting its workers ----------------------------------------------------------------
_AGENT = ("Traceback (most recent call last):\n"
          '  File "/usr/local/bin/torchrun", line 8, in <module>\n'
          "    sys.exit(main())\n"
          '  File "/usr/lib/python3/site-packages/torch/distributed/launcher/api.py", line 237, in launch_agent\n'
          "    result = agent.run()\n"
          '  File "/usr/lib/python3/site-packages/torch/distributed/elastic/agent/server/api.py", line 709, in run\n'
          "    result = self._invoke_run(role)\n"
          '  File "/usr/lib/python3/site-packages/torch/distributed/elastic/agent/server/api.py", line 873, in '
          "_invoke_run\n")


def test_agent_cut_restarting_its_workers_names_the_restart(tmp_path):
    v, acc = _verdict(tmp_path, _AGENT + "    self._restart_workers(self._worker_group)\n"
                      '  File "/usr/lib/python3/site-packages/torch/distributed/elastic/metrics/api.py", line 129, i\n')
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "--max_restarts" in v["fix"] and "RendezvousClosedError" in v["fix"], v
    assert "restarting its worker group" in v["summary"], v


def test_agent_cut_at_its_monitor_sleep_keeps_the_plain_reading(tmp_path):
    v, acc = _verdict(tmp_path, _AGENT + "    time.sleep(monitor_interval)\n")
    assert v["cause"] == "unknown" and not acc, v
    assert "restarts its worker group" not in v["fix"], v


# --- torchrun's own launcher cut in launch_agent ----------------------------------------------------------------------
def test_launcher_cut_in_launch_agent_names_what_it_raises_there(tmp_path):
    v, acc = _verdict(tmp_path, "Traceback (most recent call last):\n"
                                '  File "/env/lib/python3.10/site-packages/torch/distributed/launch.py", line 174, in '
                                "launch\n"
                                "    run(args)\n"
                                '  File "/env/lib/python3.10/site-packages/torch/distributed/run.py", line 752, in '
                                "run\n"
                                "    elastic_launch(\n"
                                '  File "/env/lib/python3.10/site-packages/torch/distributed/launcher/api.py", '
                                "line 131, in __call__\n"
                                "    return launch_agent(self._config, self._entrypoint, list(args))\n"
                                '  File "/env/lib/python3.10/site-packages/torch/distributed/launcher\n')
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "ChildFailedError" in v["fix"] and "SIGHUP" in v["fix"] and "nohup" in v["fix"], v


# --- torch_xla's spawn cut in the parent ------------------------------------------------------------------------------
_XLA = ("E1205 09:22:09.119295    3968 coredump_hook.cc:393] RAW: Remote crash gathering disabled for SIGTERM.\n"
        "E1205 09:22:09.615902    3968 process_state.cc:783] RAW: Raising signal 15 with default behavior\n"
        "Traceback (most recent call last):\n"
        '  File "/work/finetune.py", line 220, in <module>\n'
        "    xmp.spawn(_mp_fn, start_method='fork')\n"
        '  File "/usr/lib/python3.10/site-packages/torch_xla/distributed/xla_multiprocessing.py", line 38, in spawn\n'
        "    return pjrt.spawn(fn, nprocs, start_method, args)\n")


def test_xla_spawn_cut_in_the_parent_names_no_one(tmp_path):
    v, acc = _verdict(tmp_path, _XLA + '  File "/usr/lib/python3.10/site-packages/torch_xla/_internal/pjrt.py", line '
                      "202, in spawn\n"
                      "    run_multiprocess(spawn_fn, start_method=start_method)\n"
                      '  File "/usr/lib/python3.10/site-packages/torch_xla/runtime.py", line 82, in wrapper\n'
                      "    return\n")
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "run with nprocs=1 to surface the worker's exception" in v["fix"] and "BrokenProcessPool" in v["fix"], v


def test_xla_childs_own_frames_are_not_the_spawn_reading(tmp_path):
    v, _ = _verdict(tmp_path, "Traceback (most recent call last):\n"
                              '  File "/usr/lib/python3.10/site-packages/torch_xla/_internal/pjrt.py", line 77, in '
                              "_run_thread_per_device\n"
                              "    replica_results = list(\n"
                              '  File "/work/finetune.py", line 120, in _mp_fn\n'
                              "    loss = train_one_epoch(model, loader)\n")
    assert "nprocs=1" not in v["fix"], v


# --- a Ray actor dead with its node -----------------------------------------------------------------------------------
_RAY = ("ray.exceptions.RayActorError: The actor died unexpectedly before finishing this task.\n"
        "\tclass_name: RayTrainWorker\n"
        "\tpid: 6420\n"
        "\tip: 10.72.56.3\n")


def test_ray_actor_dead_with_its_node_names_the_node_death(tmp_path):
    v, acc = _verdict(tmp_path, _RAY + "The actor is dead because its node has died. Node Id: 677df2a9020c5db4\n")
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not acc, v
    assert "node died" in v["summary"] and "preemption" in v["fix"] and "FailureConfig(max_failures)" in v["fix"], v


def test_ray_actor_node_drained_for_preemption_stays_a_signal(tmp_path):
    v, acc = _verdict(tmp_path, "(TrainController pid=79312) The actor died because its node has died. Node Id: b15\n"
                                "(TrainController pid=79312) \tthe actor's node was preempted: spot reclaim\n")
    assert v["cause"] == "signal" and not acc, v


# --- a local rank's SIGKILL -------------------------------------------------------------------------------------------
def test_local_rank_sigkill_fix_names_host_ram_or_swap(tmp_path):
    v, acc = _verdict(tmp_path, "wandb: Waiting for W&B process to finish... (failed 15).\n"
                                "[10:40:13] ERROR    failed (exitcode: -9) local_rank: 3 (pid: 41467) of binary: "
                                "/env/bin/python    api.py:672\n")
    assert (v["cause"], v["culprits"]) == ("host_oom", [3]) and acc == {3}, v
    assert "more host RAM or swap" in v["fix"], v
