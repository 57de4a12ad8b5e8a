"""Round 95's g3 shapes (session 37): three failure-looking lines an expert reads as a consequence or an attempt, not
as the failure of the process that printed them.

- c10d's own server-socket log lines of a store that cannot bind its port ([W] "The server socket has failed to bind
  to [::]:29400 (errno: 98 - Address already in use)", [E] "... failed to listen on any local network address"),
  no exception raised, followed by the job's own worker lines (a framework's start-up log): torchrun's c10d
  rendezvous backend fell back to a client of the store already on that port and the workers ran -- none, culprits
  [], low confidence (lead rule BY (1); rules K, L, N, BM (2); round 95's colossalai-3595). NOT read so: the same
  lines followed by a traceback or an error (fastvideo-575's torchrun traceback), or lines that end at them -- rule
  AN (2)'s store_rendezvous, as before.
- Horovod's "Horovod has been shut down. This was caused by an exception on one of the ranks ..." raised under its
  start-up broadcast (hvd.broadcast_parameters / broadcast_optimizer_state / broadcast_variables, the job's first
  collective) with no process exit or other rank's error shown: no rank can have finished its loop, so it is a first
  exception not shown -- cause unknown, culprits "unknown", the fix the first exception in every rank's log and
  HOROVOD_LOG_LEVEL=debug (lead rule BY (2); rules AB (2), AU (1), BG (6), AC (1); round 95's pai-2730). NOT read
  so: the same shutdown raised in a collective mid-run (synchronize of a gradient allreduce) -- rule O's early_exit,
  a rank that raised or finished early (deeplearningexamples-972, horovod-3412, horovod-410).
- torch.multiprocessing.spawn's "-- Process N terminated with the following error" (N >= 1) whose child's traceback
  is cut before its error text at a framework's training epoch loop calling its training step (Lightning's
  training_epoch_loop.py "in run" at "self.advance"): under DDP every process runs the step's forward and backward's
  gradient all-reduce, so the child may be the victim of a peer that left unreported -- unknown, culprits "unknown",
  nobody innocent (lead rules BM (1), BH (1), BG (6), AN (1); round 95's scvi-tools-2236). NOT read so: the same loop
  cut in its batch fetching ("batch = next(data_fetcher)"), which runs no collective -- process N stays named (rule
  AL (2)).
"""

from __future__ import annotations

from tests.conftest import LIGHTNING_SPAWN_CUT
from tests.conftest import corpus_case_verdict as _case
from tests.conftest import verdict_accused as _verdict

# --- BY (1): c10d's bind failure logged, the job's own lines after it -----------------------------------------------
_BIND = (
    "[W socket.cpp:426] [c10d] The server socket has failed to bind to [::]:29400 (errno: 98 - Address already in "
    "use).\n"
    "[W socket.cpp:426] [c10d] The server socket has failed to bind to 0.0.0.0:29400 (errno: 98 - Address already in "
    "use).\n"
    "[E socket.cpp:462] [c10d] The server socket has failed to listen on any local network address.\n"
)


def test_a_logged_c10d_bind_failure_followed_by_the_workers_start_up_log_is_benign(tmp_path):
    text = _BIND + (
        "[05/02/24 10:11:12] INFO     mytrainer - initializing model on cuda:0\n"
        "[05/02/24 10:11:12] INFO     mytrainer - initializing model on cuda:1\n"
        "Epoch 0:   3%|##        | 12/400 [00:05<02:40,  2.42it/s, loss=2.31]\n")
    v, acc = _verdict(tmp_path, text)
    assert v["cause"] == "none" and v["culprits"] == [] and not acc, v
    assert "--rdzv-endpoint with a free port" in v["fix"] and "kill stale torchrun processes" in v["fix"], v["fix"]


def test_a_logged_c10d_bind_failure_followed_by_torchruns_traceback_stays_store_rendezvous(tmp_path):
    text = _BIND + (
        "Traceback (most recent call last):\n"
        '  File "/usr/local/bin/torchrun", line 8, in <module>\n'
        "    sys.exit(main())\n"
        '  File "/usr/local/lib/python3.10/dist-packages/torch/distributed/launcher/api.py", line 254, in '
        "launch_agent\n"
        "    result = agent.run()\n")
    v, acc = _verdict(tmp_path, text)
    assert v["cause"] != "none" and not acc, v
    v2, _ = _verdict(tmp_path, _BIND)  # the lines end at the bind failure
    assert v2["cause"] == "store_rendezvous", v2
    v3, _ = _case(tmp_path, "fastvideo-575-torchrun-store-port-29500-in-use")
    assert v3["cause"] == "store_rendezvous", v3


# --- BY (2): Horovod shut down in its start-up broadcast ------------------------------------------------------------
_HVD_TAIL = ("RuntimeError: Horovod has been shut down. This was caused by an exception on one of the ranks or an "
             "attempt to allreduce, allgather or broadcast a tensor after one of the ranks finished execution. If the "
             "shutdown was caused by an exception, you should see the exception in the log before the first shutdown "
             "message.\n")


def test_horovods_shutdown_in_its_start_up_broadcast_is_a_first_exception_not_shown(tmp_path):
    text = ("Traceback (most recent call last):\n"
            '  File "train.py", line 90, in <module>\n'
            "    hvd.broadcast_optimizer_state(optimizer, root_rank=0)\n"
            '  File "/opt/conda/lib/python3.8/site-packages/horovod/torch/functions.py", line 121, in '
            "broadcast_optimizer_state\n"
            "    broadcast_parameters(params, root_rank)\n"
            '  File "/opt/conda/lib/python3.8/site-packages/horovod/torch/functions.py", line 58, in '
            "broadcast_parameters\n"
            "    handle = broadcast_async_(p, root_rank, name)\n"
            '  File "/opt/conda/lib/python3.8/site-packages/horovod/torch/mpi_ops.py", line 380, in broadcast_async_\n'
            "    return _broadcast_async(tensor, tensor, root_rank, name)\n" + _HVD_TAIL)
    v, acc = _verdict(tmp_path, text)
    assert v["cause"] == "unknown" and v["culprits"] == [] and not acc, v
    assert "look for the first exception before the shutdown message" in v["fix"].lower(), v["fix"]
    assert "HOROVOD_LOG_LEVEL=debug" in v["fix"] and "hvd.join" not in v["fix"], v["fix"]


def test_horovods_shutdown_in_a_mid_run_allreduce_stays_an_early_exit(tmp_path):
    text = ("Traceback (most recent call last):\n"
            '  File "train.py", line 140, in train_epoch\n'
            "    optimizer.step()\n"
            '  File "/opt/conda/lib/python3.8/site-packages/horovod/torch/optimizer.py", line 196, in synchronize\n'
            "    output = synchronize(handle)\n"
            '  File "/opt/conda/lib/python3.8/site-packages/horovod/torch/mpi_ops.py", line 141, in synchronize\n'
            "    return MPI_LIB.horovod_torch_wait_and_clear(handle)\n" + _HVD_TAIL)
    v, acc = _verdict(tmp_path, text)
    assert v["cause"] == "early_exit" and v["culprits"] == [] and not acc, v


# --- BM (1): a spawn child cut at its framework's training step -----------------------------------------------------
_SPAWN = LIGHTNING_SPAWN_CUT


def test_a_spawn_child_cut_at_its_training_epoch_loops_step_names_nobody(tmp_path):
    v, acc = _verdict(tmp_path, _SPAWN + "    self.advance\n")
    assert v["cause"] == "unknown" and v["culprits"] == [] and not acc, v
    assert "TORCH_DISTRIBUTED_DEBUG=DETAIL" in v["fix"], v["fix"]


def test_a_spawn_child_cut_at_its_training_epoch_loops_batch_fetch_stays_named(tmp_path):
    text = _SPAWN.replace("line 133, in run", "line 170, in advance") + "    batch = next(data_fetcher)\n"
    v, acc = _verdict(tmp_path, text)
    assert v["culprits"] == [2] and acc == {2} and "training step" not in v["summary"], v
