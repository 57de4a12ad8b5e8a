"""How diagnose reads a notebook's (IPython / Jupyter's) traceback cut inside its frames, as round 73 showed it
(session 26): IPython's header names the exception before "Traceback (most recent call last)", its frames and
numbered source lines follow in IPython's own format. torch.multiprocessing's ProcessExitedException there -- a child
mp.spawn started from the notebook died without passing a Python exception back -- is the notebook launch every child
fails alike ('spawn' cannot re-import a kernel's __main__): config, no rank (rule Q's last sentence; pytorch-55763).
Each test reads the shape from lines other than the corpus case's own (IPython 8's frame format), and a near shape
that must NOT be read that way. Paths are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict


def _cell(exc: str, tail: str = "") -> str:
    return ("---------------------------------------------------------------------------\n"
            f"{exc}                    Traceback (most recent call last)\n"
            "Cell In[4], line 52\n"
            "     49     mp.spawn(train_worker, args=(n,), nprocs=n, join=True)\n"
            "     51 if __name__ == \"__main__\":\n"
            "---> 52     launch()\n"
            "\n"
            "File /srv/conda/lib/python3.10/site-packages/torch/multiprocessing/spawn.py:202, in start_processes(fn, "
            "args, nprocs, join, daemon, start_method)\n"
            "    199     return context\n"
            "    201 # Loop on join until it returns True or raises an exception.\n"
            "--> 202 while not context.join():\n"
            "    203     pass\n" + tail)


def test_spawns_exited_child_in_a_cut_notebook_traceback_is_the_notebook_launch(tmp_path):
    """Rule Q: an IPython 8 traceback of ProcessExitedException cut under spawn's join: the notebook launch every
    child fails alike -- config, no rank, the fix running it as a script or from an importable module."""
    d = _report(tmp_path, _cell("ProcessExitedException"))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "python script.py" in v["fix"] and "importable module" in v["fix"], v


def test_a_child_that_raised_in_a_cut_notebook_traceback_is_not_the_notebook_launch(tmp_path):
    """Near shape: ProcessRaisedException (the child ran the worker and raised in it, its error in the message cut
    off) is the worker's own failure, not the launch: not read as the notebook's spawn."""
    v = _verdict(tmp_path, _cell("ProcessRaisedException"))
    assert v["cause"] != "config" and "Jupyter" not in v["summary"], v


def test_a_plain_python_traceback_cut_in_spawns_join_is_not_read_as_a_notebook(tmp_path):
    """Near shape: a plain Python traceback (no IPython header) cut at spawn's join in a script: nothing says a
    notebook launched it -- not read as the notebook's spawn."""
    text = ("Traceback (most recent call last):\n"
            "  File \"/srv/job/train.py\", line 52, in <module>\n"
            "    launch()\n"
            "  File \"/srv/conda/lib/python3.10/site-packages/torch/multiprocessing/spawn.py\", line 202, in "
            "start_processes\n"
            "    while not context.join():\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] != "config" and "Jupyter" not in v["summary"], v


def _lightning_cell(exc: str, frame: str) -> str:
    return ("---------------------------------------------------------------------------\n"
            f"{exc}                    Traceback (most recent call last)\n"
            "Cell In[7], line 3\n"
            "      1 trainer = L.Trainer(accelerator='gpu', devices=2)\n"
            "----> 3 trainer.fit(net, datamodule=dm)\n"
            "\n" + frame)


_LIGHTNING_FRAME = (
    "File /srv/conda/lib/python3.11/site-packages/lightning/pytorch/trainer/call.py:43, in "
    "_call_and_handle_interrupt(trainer, trainer_fn, *args, **kwargs)\n"
    "     41 try:\n"
    "     42     if trainer.strategy.launcher is not None:\n"
    "---> 43         return trainer.strategy.launcher.launch(trainer_fn, *args, trainer=trainer, **kwargs)\n")


def test_an_exited_child_cut_in_lightnings_launcher_is_not_the_notebook_spawn(tmp_path):
    """Round 74 (neuralforecast-482): ProcessExitedException cut inside PyTorch Lightning's own launcher frames --
    Lightning forks its own importable worker in a notebook, so the kernel's __main__ is not the reason; the message
    naming the process and its signal was cut: unknown, nobody named, the fix asking for the child's exit signal."""
    d = _report(tmp_path, _lightning_cell("ProcessExitedException", _LIGHTNING_FRAME))
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), v
    assert "faulthandler" in v["fix"] and "ddp_notebook" in v["fix"], v


def test_an_exited_child_cut_at_spawns_join_under_a_user_launch_is_still_the_notebook_spawn(tmp_path):
    """Near shape: the same cell's traceback cut at torch.multiprocessing's join (the notebook's own mp.spawn, no
    Lightning frame): still the notebook launch, config."""
    frame = ("File /srv/conda/lib/python3.11/site-packages/torch/multiprocessing/spawn.py:202, in start_processes(fn, "
             "args, nprocs, join, daemon, start_method)\n"
             "--> 202 while not context.join():\n")
    v = _verdict(tmp_path, _lightning_cell("ProcessExitedException", frame))
    assert v["cause"] == "config" and "importable module" in v["fix"], v
