"""How diagnose reads a job started without its launcher or its identity, a missing module, and spawn from a notebook
(round 109, session 46, fixer f2): the launch-environment fix naming the variable a KeyError or torch's env:// check
says is missing (torchpack's MASTER_HOST with its dist-run), c10d's "Default process group has not been initialized"
with its guard; torch.distributed lacking its c10d Store (a build without distributed support, the launcher dying at
its own import); a module not installed, with pip and which torchrun, behind a runner's "[stderr]" tag; a torch without
NCCL on Windows / macOS; tcp:// and file:// rendezvous refusing init_process_group without rank or world size (rule CJ
(1)), also cut and under mpirun's tag; and a spawned child that cannot find its worker function in __main__. Each test
reads the shape from lines other than the corpus case's own (other ranks, numbers, paths, names), and a near shape
that keeps its old reading. Hosts, paths and names are made up."""

from __future__ import annotations

from ncclDoctor.diagnose import generic
from ncclDoctor.diagnose.verdict import launch
from tests.conftest import verdict_accused


def _tb(frames: list[tuple[str, int, str, str]], last: str, prefix: str = "") -> str:
    """A Python traceback (FILE, LINE, FUNC, CODE per frame) ending in LAST, each line under PREFIX."""
    lines = ["Traceback (most recent call last):"]
    for f, n, fn, code in frames:
        lines += [f'  File "{f}", line {n}, in {fn}', f"    {code}"]
    lines.append(last)
    return "".join(f"{prefix}{x}\n" for x in lines)


# --- the launch environment's variable, named ----------------------------------------------------------------------
def test_keyerror_world_size_from_a_frameworks_init_dist_names_the_variable(tmp_path):
    """Lead rules Q, BL (4): a framework's init_dist reading os.environ['WORLD_SIZE'] in a script started with plain
    python: config, nobody; the fix names the variable the line says is missing and setting them by hand for one
    process."""
    text = _tb([("/srv/proj/tools/train_seg.py", 88, "main", "init_dist(args.launcher, **cfg.dist_params)"),
                ("/opt/env/lib/python3.9/site-packages/mmengine/dist/utils.py", 74, "_init_dist_pytorch",
                 "world_size = int(os.environ['WORLD_SIZE'])")],
               "KeyError: 'WORLD_SIZE'")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "config" and not acc and v["culprits"] == [], v
    assert "WORLD_SIZE environment variable not set" in v["fix"], v
    assert "set RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT by hand for one process" in v["fix"], v


def test_torchpack_master_host_names_its_own_launcher(tmp_path):
    """torchpack's dist.init() reading MASTER_HOST, which only its dist-run exports over mpirun: the fix names it."""
    text = _tb([("/home/u/seg3d/run_eval.py", 31, "main", "dist.init()"),
                ("/opt/env/lib/python3.8/site-packages/torchpack/distributed/context.py", 25, "init",
                 "master_host = 'tcp://' + os.environ['MASTER_HOST']")],
               "KeyError: 'MASTER_HOST'")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "config" and not acc, v
    assert "MASTER_HOST environment variable not set" in v["fix"], v
    assert "torchpack dist-run -np N" in v["fix"], v


def test_default_process_group_not_initialized_names_the_guard(tmp_path):
    """c10d's own check before a barrier in an evaluation script with no process group: config, nobody; the fix
    quotes the message and names the guard for a single process."""
    text = _tb([("/data/x/evaluate_det.py", 140, "reduce_metrics", "dist.barrier()"),
                ("/opt/env/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", 1402,
                 "_get_default_group", 'raise ValueError(')],
               "ValueError: Default process group has not been initialized, please make sure to call "
               "init_process_group.")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "config" and not acc, v
    assert "Default process group has not been initialized: no init_process_group ran" in v["fix"], v
    assert "dist.is_available() and dist.is_initialized()" in v["fix"], v


def test_launch_env_words_only_for_the_launch_reading():
    """The named sentence comes from the launch-environment reading alone: a KeyError of a data key (not a launcher
    variable) reads nothing of it, and generic.reading gives it only to the launch reading's lines."""
    assert generic._launch_env_words("KeyError: 'LOCAL_WORLD_SIZE'").startswith(
        "LOCAL_WORLD_SIZE environment variable not set")
    r = generic.reading(["KeyError: 'LOCAL_RANK'"])
    assert r is not None and r[0] == "config" and r[2].startswith("LOCAL_RANK environment variable not set"), r
    r = generic.reading(["Connection refused while reading KeyError: 'input_ids'"])
    assert r is None or "environment variable not set" not in r[2], r


# --- torch.distributed without its c10d stores ---------------------------------------------------------------------
def test_launcher_import_of_tcpstore_failing_is_a_build_without_distributed(tmp_path):
    """AF (2)'s round-41 sentence, rule Q: torchrun's own import of a c10d store from torch.distributed failing (the
    launcher dies before any worker): a torch build without distributed support, config, nobody."""
    text = "python -m torch.distributed.run --nproc_per_node 4 train.py\n" + _tb(
        [("/usr/lib/python3.10/runpy.py", 196, "_run_module_as_main", "return _run_code(code, main_globals, None,"),
         ("/home/j/.local/lib/python3.10/site-packages/torch/distributed/elastic/rendezvous/api.py", 12, "<module>",
          "from torch.distributed import TCPStore")],
        "ImportError: cannot import name 'TCPStore' from 'torch.distributed' "
        "(/home/j/.local/lib/python3.10/site-packages/torch/distributed/__init__.py)")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "config" and not acc, v
    assert "torch.distributed.is_available()" in v["fix"], v
    assert "Store" in launch._DIST_CORE and "DeviceMesh" not in launch._DIST_CORE


def test_a_newer_torch_distributed_name_is_not_a_build_without_distributed(tmp_path):
    """A name torch.distributed added in a later release (DeviceMesh) keeps the installed-version reading, not the
    build without distributed support."""
    text = _tb([("/srv/app/parallel.py", 3, "<module>", "from torch.distributed import DeviceMesh")],
               "ImportError: cannot import name 'DeviceMesh' from 'torch.distributed' "
               "(/opt/env/lib/python3.10/site-packages/torch/distributed/__init__.py)")
    v, acc = verdict_accused(tmp_path, text)
    assert not acc and "has no distributed support" not in v["summary"], v
    assert {"FileStore", "HashStore", "PrefixStore"} <= launch._DIST_CORE


# --- a module not installed ------------------------------------------------------------------------------------------
def test_module_missing_fix_names_pip_and_which_torchrun(tmp_path):
    """Rule AF (2): a worker's import of a package not installed: config; the fix quotes Python's words and names
    pip install of the module, the repository's requirements and which torchrun."""
    text = _tb([("/home/q/chat/run_generate.py", 6, "<module>", "import einops")],
               "ModuleNotFoundError: No module named 'einops'")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "config" and not acc, v
    assert "ModuleNotFoundError: No module named 'einops'" in v["fix"], v
    assert "pip install einops" in v["fix"] and "pip install -r requirements.txt / pip install -e ." in v["fix"], v
    assert "which torchrun" in v["fix"], v


def test_a_runner_stderr_tag_glued_before_each_line_is_stripped(tmp_path):
    """A job runner's '[stderr]' tag glued to the worker's lines: the traceback under it is read as one."""
    text = _tb([("/opt/conda/lib/python3.9/site-packages/torch/utils/data/loader_x.py", 2, "<module>",
                 "import lmdb")],
               "ModuleNotFoundError: No module named 'lmdb'", prefix="[stderr]")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "config" and not acc, v
    assert "No module named 'lmdb'" in v["fix"], v


def test_the_stderr_tag_with_a_colon_is_left_as_before():
    """The '[stderr]: ' of other collectors stays unstripped (only the glued tag is a prefix here)."""
    from ncclDoctor.diagnose import signatures as S
    assert S.R_LINE_PREFIX.match("[stderr]ModuleNotFoundError: x").group(0) == "[stderr]"
    m = S.R_LINE_PREFIX.match("[stderr]: INFO:composer: step")
    assert m is None or not m.group(0).startswith("[stderr]"), m


# --- a torch without NCCL ------------------------------------------------------------------------------------------
def test_no_nccl_built_in_fix_names_windows_and_macos(tmp_path):
    """Rule Q's last sentence: tests asking for NCCL where torch has none: config; the fix says Windows / macOS builds
    have none and to skip the nccl tests there."""
    text = ("FAILED tests/test_parallel_block.py::test_expert_layer[cpu-4] - RuntimeError: Distributed package "
            "doesn't have NCCL built in\n"
            "FAILED tests/test_router.py::test_top2 - RuntimeError: Distributed package doesn't have NCCL built in\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "config" and not acc, v
    assert "Windows / macOS torch builds have no NCCL: use gloo" in v["fix"], v


# --- tcp:// / file:// rendezvous without rank or world size (rule CJ (1)) ------------------------------------------
def test_tcp_rendezvous_world_size_missing_is_config(tmp_path):
    """Rule CJ (1): torch's tcp:// handler refusing init_process_group without world_size: config, nobody (not the
    store's reading its word 'rendezvous' would give); the fix says rank and world_size are required."""
    text = _tb([("/w/seg/train_dist.py", 150, "setup", "dist.init_process_group('nccl', init_method=url, rank=r)"),
                ("/opt/env/lib/python3.8/site-packages/torch/distributed/rendezvous.py", 121,
                 "_tcp_rendezvous_handler", 'raise _error("world_size parameter missing")')],
               "ValueError: Error initializing torch.distributed using tcp:// rendezvous: world_size parameter missing")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "config" and not acc and v["culprits"] == [], v
    assert "world_size and rank are required for file:// and tcp:// rendezvous" in v["fix"], v


def test_file_rendezvous_cut_under_mpirun_tag_accuses_no_rank(tmp_path):
    """The message cut after 'using fi', under mpirun's [1,3] tag: the raising handler's own code line says it; no
    rank is accused (the tag is mpirun's output tag)."""
    text = "".join(f"[1,3]<stderr>:{x}\n" for x in (
        '  File "/nfs/j/run_ddp.py", line 40, in <module>',
        "    dist.init_process_group('gloo', init_method='file:///nfs/j/rdzv')",
        '  File "/opt/conda/lib/python3.7/site-packages/torch/distributed/rendezvous.py", line 70, in '
        "_file_rendezvous_handler",
        '    raise _error("rank parameter missing")',
        "  ValueError: Error initializing torch.distributed using fi"))
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "config" and not acc and v["culprits"] == [], (v, acc)
    assert "OMPI_COMM_WORLD_RANK" in v["fix"], v


def test_another_rendezvous_value_error_keeps_the_store_reading(tmp_path):
    """A rendezvous refusal that is not a missing rank or world size (the port missing from the URL) keeps the
    store's reading, and a cut ValueError under a frame outside a rendezvous handler keeps its rank."""
    text = _tb([("/opt/env/lib/python3.8/site-packages/torch/distributed/rendezvous.py", 110,
                 "_tcp_rendezvous_handler", 'raise _error("port number missing")')],
               "ValueError: Error initializing torch.distributed using tcp:// rendezvous: port number missing")
    v, _ = verdict_accused(tmp_path, text)
    assert v["cause"] == "store_rendezvous", v
    e = type("E", (), {"data": {"type": "ValueError", "message": "Error initializing torch.distributed using fi",
                                "frame_func": "load_config", "frame_code": 'raise _error("rank parameter missing")'},
                       "where": "job.log:5", "brief": lambda self: {}})()
    from ncclDoctor.diagnose.verdict import unread
    assert unread._rdzv_identity_missing(e, []) is None
    e.data["frame_func"] = "_file_rendezvous_handler"
    assert unread._rdzv_identity_missing(e, []) is not None


# --- spawn's children unpickling a worker from __main__ ------------------------------------------------------------
def _child(fn: str, main: str) -> str:
    return _tb([("<string>", 1, "<module>", "from multiprocessing.spawn import spawn_main; spawn_main(...)"),
                ("/usr/lib/python3.11/multiprocessing/spawn.py", 120, "spawn_main",
                 "exitcode = _main(fd, parent_sentinel)"),
                ("/usr/lib/python3.11/multiprocessing/spawn.py", 130, "_main",
                 "self = reduction.pickle.load(from_parent)")],
               f"AttributeError: Can't get attribute '{fn}' on {main}")


def test_spawned_children_cannot_find_the_worker_in_main(tmp_path):
    """Rules J, Q, BL (1): every spawned child dies unpickling its worker from a notebook's __main__, then spawn's
    'process 1 terminated with exit code 1': config, no rank (the child index is no culprit); the fix names an
    importable module and the notebook launchers."""
    text = (_child("train_worker", "<module '__main__' (built-in)>") * 2
            + "ProcessExitedException: process 1 terminated with exit code 1\n")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "config" and not acc and v["culprits"] == [], (v, acc)
    assert "accelerate notebook_launcher" in v["fix"] and "Lightning ddp_notebook strategy" in v["fix"], v


def test_a_script_main_reads_the_same(tmp_path):
    """The same under a script's __main__ (the worker defined under its __main__ guard): config, no rank."""
    text = _child("run_rank", "<module '__main__' from '/srv/x/launch_all.py'>")
    v, acc = verdict_accused(tmp_path, text)
    assert v["cause"] == "config" and not acc, (v, acc)
    assert "if __name__ == '__main__' guard in a script" in v["fix"], v


def test_torch_load_of_a_class_from_main_is_not_the_spawn_reading(tmp_path):
    """A checkpoint unpickled by torch.load in the main process, its class not in __main__ (no spawn frames): not
    this reading."""
    text = _tb([("/srv/x/eval.py", 22, "<module>", "model = torch.load('ckpt.pt')"),
                ("/opt/env/lib/python3.10/site-packages/torch/serialization.py", 1025, "load",
                 "return _legacy_load(opened_file, map_location, pickle_module, **pickle_load_args)")],
               "AttributeError: Can't get attribute 'SegNet' on <module '__main__' from '/srv/x/eval.py'>")
    v, _ = verdict_accused(tmp_path, text)
    assert "unpickling its worker function" not in v["summary"], v
    assert launch._R_MAIN_UNPICKLE.match("Can't get attribute 'SegNet' on <module '__main__' (built-in)>")
