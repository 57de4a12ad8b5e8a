"""How diagnose reads torch.multiprocessing's spawn and pickling failures (round 110, session 47, fixer f1): the parent
cut while it starts its workers (process.start, popen_spawn, ForkingPickler; IPython's header naming the class), pickle
refusing a local object or a function __main__ lacks, spawned children finding their start-up data truncated, a
spawned child cut while its DataLoader starts its workers or in its own code, torch without mp.spawn, multiprocessing's
bootstrapping refusal with its message under a bare 'RuntimeError: ', and an input ending at an IPython traceback
header. Each test reads the shape from lines other than the corpus case's own (other paths, numbers, names, ranks),
and a near shape that keeps its old reading. Hosts, paths and names are made up."""

from __future__ import annotations

from ncclDoctor.diagnose import trackers
from ncclDoctor.diagnose.verdict import unread
from tests.conftest import verdict_accused


def _nobody(tmp_path, text, cause="unknown"):
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == cause and not acc and v["culprits"] == [], (v, acc)
    return v


def _frames(*frames: tuple[str, int, str, str]) -> str:
    return "".join(f'  File "{f}", line {n}, in {fn}\n    {code}\n' for f, n, fn, code in frames)


_PY = "/opt/venvs/seg/lib/python3.9"


# --- the parent cut while it starts its workers ----------------------------------------------------------------------
def test_parent_cut_in_popen_spawn_names_spawn_pickling(tmp_path):
    """Rules BG (1), BG (6), BJ (2): a script's mp.spawn cut in multiprocessing's popen_spawn_posix _launch (the
    pickling of the worker's arguments), its error not shown: unknown, nobody; the fix names spawn's pickling."""
    text = "Traceback (most recent call last):\n" + _frames(
        ("launch_seg.py", 88, "<module>", "mp.spawn(run, nprocs=world, args=(world, cfg, dataset))"),
        (f"{_PY}/site-packages/torch/multiprocessing/spawn.py", 230, "spawn",
         "return start_processes(fn, args, nprocs, join, daemon, start_method='spawn')"),
        (f"{_PY}/site-packages/torch/multiprocessing/spawn.py", 179, "start_processes", "process.start()"),
        (f"{_PY}/multiprocessing/process.py", 121, "start", "self._popen = self._Popen(self)"),
        (f"{_PY}/multiprocessing/context.py", 284, "_Popen", "return Popen(process_obj)"),
        (f"{_PY}/multiprocessing/popen_spawn_posix.py", 47, "_launch", "reduction.dump(process_obj, fp)"))
    v = _nobody(tmp_path, text)
    assert "make everything passed to mp.spawn picklable (no lambdas, locks, open files, CUDA tensors" in v["fix"], v
    assert "Print the full exception raised in process.start()" in v["fix"], v
    assert "use strategy='ddp' instead of ddp_spawn" in v["fix"], v


def test_parent_cut_at_torch_start_processes_names_spawn_pickling(tmp_path):
    """The same cut one frame higher, at torch's own start_processes' 'process.start()' (Lightning's launcher)."""
    text = "GPU available: True, used: True\nTraceback (most recent call last):\n" + _frames(
        ("/srv/exp/fit.py", 41, "<module>", "trainer.fit(net, dm)"),
        (f"{_PY}/site-packages/lightning/pytorch/strategies/launchers/multiprocessing.py", 121, "launch",
         "process_context = mp.start_processes("),
        (f"{_PY}/site-packages/torch/multiprocessing/spawn.py", 161, "start_processes", "process.start()"))
    v = _nobody(tmp_path, text)
    assert "guard the entry point with if __name__ == '__main__'" in v["fix"], v


def test_ipython_cut_at_start_processes_names_the_header_class_and_the_notebook(tmp_path):
    """IPython's frames (a notebook), its header naming PicklingError, cut at start_processes' process.start(): the
    fix names that class and the notebook's __main__."""
    text = ("-" * 75 + "\n"
            "PicklingError                             Traceback (most recent call last)\n"
            "<ipython-input-4-0a1b2c3d4e5f> in <module>\n"
            "----> 2 run_all(cfg)\n\n"
            f"{_PY}/site-packages/torch/multiprocessing/spawn.py in start_processes(fn, args, nprocs, join, daemon, "
            "start_method)\n"
            "    157             daemon=daemon,\n"
            "    158         )\n"
            "--> 159         process.start()\n"
            "    160         error_queues.append(error_queue)\n")
    v = _nobody(tmp_path, text)
    assert "Print the full PicklingError to see which object cannot be pickled" in v["fix"], v
    assert "objects defined in a notebook's __main__ cannot be pickled for the spawn start method" in v["fix"], v


def test_a_cut_in_a_worker_join_is_no_start(tmp_path):
    """Near shape: a traceback cut in multiprocessing's join (the parent waiting, not starting) keeps the plain cut
    reading, without spawn's pickling words; the start machinery's frames still read as a start."""
    text = "Traceback (most recent call last):\n" + _frames(
        ("run_jobs.py", 30, "<module>", "p.join()"),
        (f"{_PY}/multiprocessing/process.py", 149, "join", "res = self._popen.wait(timeout)"))
    v = _nobody(tmp_path, text)
    assert "Paste the full traceback down to its last line" in v["fix"], v
    assert "make everything passed to mp.spawn picklable" not in v["fix"], v
    ev = type("E", (), {})()
    ev.text = f'File "{_PY}/multiprocessing/process.py", line 121, in start'
    ev.data = {"func": "start", "code": "self._popen = self._Popen(self)"}
    assert unread._parent_start_cut(ev)
    ev.data = {"func": "join", "code": "res = self._popen.wait(timeout)"}
    assert not unread._parent_start_cut(ev)


# --- pickle refusing what it names -----------------------------------------------------------------------------------
def test_local_object_names_its_module_level_definition(tmp_path):
    """Rules BG (1), BJ (2), BS (1): pickle refusing a local object of the job's own code, untagged: unknown, nobody;
    the fix names that object defined at module level."""
    text = _frames(
        (f"{_PY}/multiprocessing/popen_spawn_posix.py", 47, "_launch", "reduction.dump(process_obj, fp)"),
        (f"{_PY}/multiprocessing/reduction.py", 60, "dump", "ForkingPickler(file, protocol).dump(obj)")) + (
        "AttributeError: Can't pickle local object 'AudioData.make_loader.<locals>.seed_worker'\n")
    v = _nobody(tmp_path, text)
    assert "define seed_worker at module level (not a local function)" in v["fix"], v
    assert "use functools.partial of a module-level function" in v["fix"], v


def test_a_function_main_lacks_names_running_the_script_as_a_file(tmp_path):
    """The one line 'Can't pickle <function F ...>: attribute lookup F on __main__ failed': unknown, nobody; the fix
    names F at module top level of an importable file and the main guard."""
    text = "_pickle.PicklingError: Can't pickle <function train_rank at 0x7fa0c0d1e4c0>: attribute lookup " \
           "train_rank on __main__ failed\n"
    v = _nobody(tmp_path, text)
    assert "define train_rank at module top level in an importable .py file, not in a notebook/IPython" in v["fix"], v
    assert "keep the mp.spawn call under if __name__ == '__main__':" in v["fix"], v


def test_a_lookup_in_another_module_and_a_plain_function_keep_their_fix(tmp_path):
    """Near shape: a lookup that failed in a package's module, and a plain function's refusal, name neither the
    __main__ nor the local-object words; the pickle fix stays."""
    text = "_pickle.PicklingError: Can't pickle <function step at 0x7f11>: attribute lookup step on mypkg.ops failed\n"
    v = _nobody(tmp_path, text)
    assert "pickle could not serialise an object" in v["fix"], v
    assert "not found in the running __main__" not in v["fix"] and "is a local object" not in v["fix"], v
    assert trackers.R_PICKLE_MAIN_LOOKUP.search("attribute lookup step on __main__ failed")
    assert not trackers.R_PICKLE_MAIN_LOOKUP.search(text)
    assert not trackers.R_PICKLE_LOCAL.search(text)


# --- spawned children finding their start-up data truncated ---------------------------------------------------------
def _truncated_child(py: str) -> str:
    return ("Traceback (most recent call last):\n" + _frames(
        ("<string>", 1, "<module>", "from multiprocessing.spawn import spawn_main; spawn_main(tracker_fd=9)"),
        (f"{py}/multiprocessing/spawn.py", 116, "spawn_main", "exitcode = _main(fd, parent_sentinel)"),
        (f"{py}/multiprocessing/spawn.py", 126, "_main", "self = reduction.pickle.load(from_parent)"))
        + "_pickle.UnpicklingError: pickle data was truncated\n")


def test_spawned_children_with_truncated_data_point_at_their_parent(tmp_path):
    """Rule BS (5): two spawned children dying in spawn_main's pickle.load(from_parent): consequences of the parent,
    nobody; the fix names the parent's own error and host memory."""
    v = _nobody(tmp_path, _truncated_child("/home/u/miniforge3/lib/python3.11") * 2)
    assert "Find the parent process's own error (it died or failed while writing the spawn data)" in v["fix"], v
    assert "set DataLoader num_workers=0 or use the fork start method" in v["fix"], v
    assert "check /dev/shm and host memory" in v["fix"], v


def test_a_truncated_checkpoint_is_no_spawn_child(tmp_path):
    """Near shape: torch.load of a checkpoint cut short says the same words under torch/serialization.py's frames: no
    spawn child, so no parent to look for; the words are the same ones R_PICKLE_TRUNCATED reads."""
    line = "_pickle.UnpicklingError: pickle data was truncated\n"
    text = "Traceback (most recent call last):\n" + _frames(
        ("eval.py", 12, "<module>", "sd = torch.load(args.ckpt, map_location='cpu')"),
        (f"{_PY}/site-packages/torch/serialization.py", 1040, "load",
         "return _legacy_load(opened_file, map_location, pickle_module, **pickle_load_args)"),
        (f"{_PY}/site-packages/torch/serialization.py", 1258, "_legacy_load",
         "magic_number = pickle_module.load(f, **pickle_load_args)")) + line
    v, acc = verdict_accused(tmp_path, text)
    assert not acc and v["culprits"] == [], v
    assert trackers.R_PICKLE_TRUNCATED.search(line)
    assert "Find the parent process's own error" not in v["fix"], v


# --- a spawned child cut in its DataLoader's worker start or its own code -------------------------------------------
def _child(n: int, *frames) -> str:
    return ("Traceback (most recent call last):\n" + _frames(
        ("train_seg.py", 402, "<module>", "mp.spawn(worker, nprocs=4, args=(cfg,))"),
        (f"{_PY}/site-packages/torch/multiprocessing/spawn.py", 144, "join",
         "raise ProcessRaisedException(msg, error_index, failed_process.pid)"))
        + "torch.multiprocessing.spawn.ProcessRaisedException: \n\n"
        f"-- Process {n} terminated with the following error:\nTraceback (most recent call last):\n"
        + _frames((f"{_PY}/site-packages/torch/multiprocessing/spawn.py", 69, "_wrap", "fn(i, *args)"),
                  ("/srv/seg/train_seg.py", 310, "worker", "run_epoch(loader)"), *frames))


def test_child_cut_in_dataloader_worker_start_names_the_loader(tmp_path):
    """Rules AL (2), BM (1): process 3's traceback cut where its DataLoader starts its workers (w.start(), then
    process.py's start): culprit 3; the fix names the loader's pickling and its worker start."""
    text = _child(3, ("/srv/seg/train_seg.py", 255, "run_epoch", "for step, batch in enumerate(loader):"),
                  (f"{_PY}/site-packages/torch/utils/data/dataloader.py", 368, "__iter__",
                   "return self._get_iterator()"),
                  (f"{_PY}/site-packages/torch/utils/data/dataloader.py", 1040, "__init__", "w.start()"),
                  (f"{_PY}/multiprocessing/process.py", 121, "start", "self._popen = self._Popen(self)"))
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "unknown" and v["culprits"] == [3] and acc == {3}, (v, acc)
    assert "use the fork start method for DataLoader workers (multiprocessing_context='fork')" in v["fix"], v
    assert "set num_workers=0 to test the loader" in v["fix"], v


def test_child_cut_in_its_own_code_names_a_one_process_run(tmp_path):
    """Rules AL (2), BH (1): process 1's traceback cut in its own code (no collective): culprit 1; the fix names a
    one-process run for the plain exception, and nothing of the DataLoader's worker start (near shape)."""
    text = _child(1, ("/srv/seg/train_seg.py", 77, "build_model", "net = Net(cfg).cuda(rank)"))
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "unknown" and v["culprits"] == [1] and acc == {1}, (v, acc)
    assert "run with a single process (nprocs=1) to get the plain exception" in v["fix"], v
    assert "use the fork start method for DataLoader workers" not in v["fix"], v


# --- torch without mp.spawn ------------------------------------------------------------------------------------------
def test_torch_without_mp_spawn_names_torch_one(tmp_path):
    """Rule Q's last sentence, AF (2): the installed torch has no torch.multiprocessing.spawn: config, nobody; the fix
    names torch 1.0 and torch.distributed.launch on the old torch. Another missing API (near shape) keeps the general
    fix."""
    text = ("Traceback (most recent call last):\n" + _frames(
        ("dist_train.py", 512, "<module>", "main()"),
        ("dist_train.py", 133, "main", "mp.spawn(run, nprocs=gpus, args=(gpus, opts))"))
        + "AttributeError: module 'torch.multiprocessing' has no attribute 'spawn'\n")
    v = _nobody(tmp_path, text, "config")
    assert "upgrade PyTorch to 1.0 or later (torch.multiprocessing.spawn was added in 1.0)" in v["fix"], v
    assert "launch with torch.distributed.launch instead of mp.spawn" in v["fix"], v
    # near shape: another missing API of torch.multiprocessing stays config with the general torch-version fix, no
    # torch 1.0 words
    text = "AttributeError: module 'torch.multiprocessing' has no attribute 'start_processes'\n"
    v = _nobody(tmp_path, text, "config")
    assert "Check the installed torch" in v["fix"], v
    assert "torch 1.0" not in v["fix"], v


# --- multiprocessing's bootstrapping refusal under a bare "RuntimeError: " -------------------------------------------
def test_bootstrapping_refusal_under_a_bare_runtimeerror_is_the_unguarded_main(tmp_path):
    """Rule BL (1): spawn's _check_not_importing_main raising 'RuntimeError: ' with its message on the lines under it:
    config, nobody; the fix names the main guard around the launch. A bare 'RuntimeError: ' with other words under it
    (near shape) stays unknown."""
    text = _frames(
        (f"{_PY}/multiprocessing/spawn.py", 154, "get_preparation_data", "_check_not_importing_main()"),
        (f"{_PY}/multiprocessing/spawn.py", 134, "_check_not_importing_main", "raise RuntimeError('''")) + (
        "RuntimeError: \n"
        "        An attempt has been made to start a new process before the\n"
        "        current process has finished its bootstrapping phase.\n")
    v = _nobody(tmp_path, text, "config")
    assert "call mp.spawn / the launcher only inside main()" in v["fix"], v
    # near shape: a bare 'RuntimeError: ' with another message under it stays unknown
    text = _frames(("/srv/app/run.py", 20, "go", "raise RuntimeError('''")) + (
        "RuntimeError: \n        the worker pool could not be created for this phase.\n")
    v = _nobody(tmp_path, text)
    assert "call mp.spawn / the launcher only inside main()" not in v["fix"], v
    assert "bootstrapping" not in v["summary"], v


# --- an input ending at an IPython traceback header ------------------------------------------------------------------
def test_input_ending_in_a_cut_ipython_header_names_the_class(tmp_path):
    """Rules BG (6), AB (2): training lines, then IPython's header of a ProcessRaisedException cut inside
    'Traceback (most re': something failed, not nothing -- unknown, nobody; the fix names the child's traceback."""
    text = ("[11/03 14:02:51 d2.utils.events]:  eta: 0:00:00  iter: 49  total_loss: 1.03  lr: 0.0001\n"
            "[11/03 14:02:51 d2.engine.hooks]: Total training time: 0:00:31 (0:00:01 on hooks)\n"
            + "-" * 75 + "\n"
            "ProcessRaisedException                    Traceback (most rec\n")
    v = _nobody(tmp_path, text)
    assert "show the full ProcessRaisedException text (the child's 'Process N terminated with the following " \
           "error' traceback)" in v["fix"], v


def test_input_ending_in_another_ipython_header_names_that_class(tmp_path):
    """The whole header of another class names that class; a line whose rest is not the header's text is no header
    (near shape: the input read as before, nothing failed)."""
    v = _nobody(tmp_path, "step 10 done\n" + "-" * 75 + "\nValueError                 Traceback (most recent call "
                "last)\n")
    assert "show the full ValueError text" in v["fix"], v
    v, acc = verdict_accused(tmp_path, "step 10 done\nValueError    Tracebacks are off in this build\n")
    assert "show the full ValueError text" not in v["fix"], v
