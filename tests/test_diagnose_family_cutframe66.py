"""How diagnose reads round 66's cases of fixer h3 (session 23): a traceback cut at a module's top-level import (rule
AF (2)), cut in c10d's own argument check of a collective (rules AV, BB (4)), multiprocessing's spawn check for a main
guard (rules Q, W), the same IndexError over a tensor's number of dimensions on every rank (rule BB (1)), and torch's
symmetric-memory rendezvous refusing two ranks on one GPU (rule Q). Round 77 (session 27) added a traceback cut in
torch.cuda.set_device (its fix words only: unknown, nobody named). Each test reads the shape from lines other than
the corpus case's own (other packages, ranks, paths, wordings), and a near shape that must NOT be read that way.
Hosts, pids and paths are made up."""

from __future__ import annotations

from tests.conftest import accused as _accused
from tests.conftest import diagnose_text as _report
from tests.conftest import diagnose_verdict as _verdict

_BANNER = ("WARNING:torch.distributed.run:\n*****************************************\n"
           "Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system "
           "being overloaded, please further tune the variable for optimal performance in your application as "
           "needed.\n*****************************************\n")


# --- a traceback cut at a module's top-level import ----------------------------------------------------------------
def test_a_traceback_cut_at_a_module_level_import_is_the_shared_install(tmp_path):
    """torchrun's banner, then a worker's traceback through two modules' top levels that stops at an import
    statement, before its exception line: the process raised importing that package -- missing from the Python the
    workers run, or a version without the names imported, the same on every worker (rule AF (2)): config, nobody
    named, the fix naming the package and pip install."""
    text = (_BANNER + "Traceback (most recent call last):\n"
            '  File "/srv/jobs/finetune/run_sft.py", line 9, in <module>\n'
            "    from trainer_utils import build_optimizer\n"
            '  File "/srv/jobs/finetune/trainer_utils.py", line 4, in <module>\n'
            "    from apex.normalization import FusedLayerNorm\n")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "apex" in v["fix"] and "pip install" in v["fix"] and "ImportError" in v["fix"], v["fix"]


def test_a_traceback_cut_at_a_module_level_call_or_an_import_inside_a_function_stays_unknown(tmp_path):
    """The near shapes: a cut at the script's top-level call (main()) says nothing of what raised below it, and an
    import inside a function is not read as the start-up import: the cut traceback's unknown."""
    for frame, code in (('  File "/srv/jobs/finetune/run_sft.py", line 88, in <module>\n', "    main(args)\n"),
                        ('  File "/srv/jobs/finetune/run_sft.py", line 40, in build_model\n',
                         "    from apex.normalization import FusedLayerNorm\n")):
        v = _verdict(tmp_path, _BANNER + "Traceback (most recent call last):\n" + frame + code)
        assert (v["cause"], v["culprits"]) == ("unknown", []), (code, v)


# --- a traceback cut in c10d's own argument check ---------------------------------------------------------------------
_C10D = "/opt/conda/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py"


def test_a_traceback_cut_in_c10ds_argument_check_is_invalid_usage(tmp_path):
    """A rank's traceback through its training step into all_reduce, stopping at c10d's _check_single_tensor line of
    distributed_c10d.py: torch refused the call's arguments before any data moved -- the caller's code, alike on
    every rank (rules AV, BB (4)): invalid_usage, nobody named, the fix naming the check."""
    text = ("[rank2]: Traceback (most recent call last):\n"
            '[rank2]:   File "/work/proj/train.py", line 210, in sync_metrics\n'
            "[rank2]:     dist.all_reduce(stats, op=dist.ReduceOp.SUM)\n"
            f'[rank2]:   File "{_C10D}", line 1550, in all_reduce\n'
            '[rank2]:     _check_single_tensor(tensor, "tensor")\n')
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not _accused(d), v
    assert "_check_single_tensor" in v["fix"] and "torch.Tensor" in v["fix"], v["fix"]


def test_a_traceback_cut_at_c10ds_collective_call_or_a_same_named_helper_elsewhere_stays_unknown(tmp_path):
    """The near shapes: cut in distributed_c10d.py at the collective's own call (the backend's work, which fails for
    other reasons than arguments), or at a helper of that name in the script's own file: the cut traceback's
    unknown."""
    for frame, code in ((f'[rank2]:   File "{_C10D}", line 1560, in all_reduce\n', "[rank2]:     work.wait()\n"),
                        ('[rank2]:   File "/work/proj/dist_utils.py", line 31, in gather_all\n',
                         "[rank2]:     _validate_output_list_for_rank(rank, dst, out)\n")):
        v = _verdict(tmp_path, "[rank2]: Traceback (most recent call last):\n" + frame + code)
        assert (v["cause"], v["culprits"]) == ("unknown", []), (code, v)


# --- multiprocessing's spawn check for a main guard -------------------------------------------------------------------
def test_spawned_children_failing_in_the_main_guard_check_are_config(tmp_path):
    """Spawned children's stderr relayed by a logger at error level, interleaved, through a Pool's start into
    spawn's get_preparation_data and its _check_not_importing_main() call -- the check raises only for a process
    started while its parent is still bootstrapping: a script with no main guard under the spawn start method, every
    child alike (rules Q, W): config, nobody named, the fix naming the guard."""
    head = "2025-03-02 10:41:07 | ERROR | stderr | "
    text = "".join(head + ln + "\n" for ln in (
        '  File "/opt/py/lib/python3.11/multiprocessing/pool.py", line 215, in __init__',
        '  File "/opt/py/lib/python3.11/multiprocessing/spawn.py", line 164, in get_preparation_data',
        "    self._repopulate_pool()",
        "    _check_not_importing_main()",
        '  File "/opt/py/lib/python3.11/multiprocessing/context.py", line 119, in Pool',
        "    return Pool(processes, initializer, initargs, maxtasksperchild,"))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "__main__" in v["fix"] and "freeze_support" in v["fix"], v["fix"]
    # the same check as the last frame of a plain traceback cut before its error
    cut = ("Traceback (most recent call last):\n"
           '  File "/opt/py/lib/python3.11/multiprocessing/spawn.py", line 164, in get_preparation_data\n'
           "    _check_not_importing_main()\n")
    v = _verdict(tmp_path, cut)
    assert (v["cause"], v["culprits"]) == ("config", []) and "__main__" in v["fix"], v


def test_spawn_frames_that_stop_elsewhere_are_not_the_main_guard(tmp_path):
    """The near shape: the same spawn frames cut at get_preparation_data's caller (the Process's start, which fails
    for many reasons) name no check: the cut traceback's unknown."""
    cut = ("Traceback (most recent call last):\n"
           '  File "/opt/py/lib/python3.11/multiprocessing/popen_spawn_posix.py", line 42, in _launch\n'
           "    prep_data = spawn.get_preparation_data(process_obj._name)\n")
    v = _verdict(tmp_path, cut)
    assert (v["cause"], v["culprits"]) == ("unknown", []), v


# --- the same IndexError over a tensor's number of dimensions on every rank -------------------------------------------
def _index_error(rank: int, message: str) -> str:
    return (f"[rank{rank}]: Traceback (most recent call last):\n"
            f'[rank{rank}]:   File "/home/u/kernels/bench_attn.py", line 88, in <module>\n'
            f"[rank{rank}]:     out_lse = split_lse(softmax_lse, offsets)\n"
            f'[rank{rank}]:   File "/home/u/kernels/bench_attn.py", line 31, in split_lse\n'
            f"[rank{rank}]:     piece = softmax_lse[:, j, :n]\n"
            f"[rank{rank}]: IndexError: {message}\n")


def test_every_rank_indexing_a_tensor_with_too_many_dimensions_is_the_shared_install(tmp_path):
    """Ranks 3 and 5 raise the same IndexError over a tensor's number of dimensions: the same code on the same
    install gets another layout than it indexes -- a dependency's returned value, its version (rule BB (1)): config,
    nobody named, the fix naming the version."""
    text = _index_error(3, "too many indices for tensor of dimension 3") + _index_error(
        5, "too many indices for tensor of dimension 3")
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("config", []) and not _accused(d), v
    assert "version" in v["fix"] and "IndexError" in v["fix"], v["fix"]


def test_one_rank_or_another_index_error_is_not_the_shared_install(tmp_path):
    """The near shapes: one rank alone raising it is that rank's own failure (rule A), and every rank raising an
    index error of a list (data, not a layout) stays unknown."""
    v = _verdict(tmp_path, _index_error(3, "too many indices for tensor of dimension 3"))
    assert (v["cause"], v["culprits"]) == ("unknown", [3]), v
    text = _index_error(3, "list index out of range") + _index_error(5, "list index out of range")
    v = _verdict(tmp_path, text)
    assert (v["cause"], v["culprits"]) == ("unknown", []), v


# --- torch's symmetric-memory rendezvous refusing two ranks on one GPU ------------------------------------------------
def test_symmetric_memory_allocations_from_overlapping_devices_are_invalid_usage(tmp_path):
    """Two torchrun ranks' traceback ends: torch's CUDASymmetricMemoryAllocator::rendezvous found two ranks of one
    group on the same device -- the device each process was given, the launch's (rule Q): invalid_usage, nobody
    named, the fix naming one GPU per rank; not the store's rendezvous whatever the function's name says."""
    text = "".join(
        f"[rank{r}]:   File \"/venv/lib/python3.12/site-packages/torch/distributed/_symmetric_memory/__init__.py\", "
        f"line 1711, in rendezvous\n[rank{r}]:     return _SymmetricMemory.rendezvous(tensor, group_name)\n"
        f"[rank{r}]: RuntimeError: CUDASymmetricMemoryAllocator::rendezvous: detected allocations from overlapping "
        "devices from different ranks.\n" for r in (0, 1))
    d = _report(tmp_path, text)
    v = d["verdict"]
    assert (v["cause"], v["culprits"]) == ("invalid_usage", []) and not _accused(d), v
    assert "one GPU per rank" in v["fix"] and "CUDA_VISIBLE_DEVICES" in v["fix"], v["fix"]


def test_a_symmetric_memory_rendezvous_failing_otherwise_is_not_two_ranks_on_one_gpu(tmp_path):
    """The near shape: the same rendezvous failing on its store (a timeout, no overlapping devices) is not read as two
    ranks on one GPU."""
    text = ("[rank0]: RuntimeError: CUDASymmetricMemoryAllocator::rendezvous: store_exchange timed out waiting for "
            "rank 1\n")
    v = _verdict(tmp_path, text)
    assert v["cause"] != "invalid_usage" and v["culprits"] in ([], [0]), v


# --- a traceback cut in torch.cuda.set_device (round 77) --------------------------------------------------------------
_CUDA_INIT = "/usr/local/lib/python3.9/dist-packages/torch/cuda/__init__.py"


def test_a_traceback_cut_in_set_device_says_gpus_and_processes(tmp_path):
    """Round 77's rife-202 shape: torchrun's banner, then workers' interleaved tracebacks stopping in the script's
    torch.cuda.set_device(local_rank) call (the next frame's line cut in torch/cuda/__init__.py, or that frame's
    set_device whole) before any error text: the cause stays unknown and nobody is named (no 'invalid device
    ordinal' shown; rules AU (2), BG (1), BG (6)), but the fix says what set_device refuses -- more processes per
    node than GPUs (--nproc_per_node, CUDA_VISIBLE_DEVICES, torch.cuda.device_count) or a torch without CUDA."""
    head = (_BANNER + "Traceback (most recent call last):\nTraceback (most recent call last):\n"
            '  File "/home/u/vfi/train_vfi.py", line 88, in <module>\n'
            '  File "/home/u/vfi/train_vfi.py", line 88, in <module>\n'
            "    torch.cuda.set_device(opt.local_rank)\n")
    for tail in (f'  File "{_CUDA_INIT}"\n', f'  File "{_CUDA_INIT}", line 261, in set_device\n'):
        d = _report(tmp_path, head + tail)
        v = d["verdict"]
        assert (v["cause"], v["culprits"]) == ("unknown", []) and not _accused(d), (tail, v)
        for word in ("--nproc_per_node", "CUDA_VISIBLE_DEVICES", "torch.cuda.device_count()", "invalid device ordinal",
                     "full error text"):
            assert word in v["fix"], (word, v["fix"])


def test_a_traceback_cut_at_another_cuda_call_gets_no_set_device_fix(tmp_path):
    """The near shapes: a cut at the script's own set_device of another object (a logger's), or at a
    torch.cuda.synchronize() call, is not torch pinning the GPU: no set_device advice."""
    for code in ("    meter.set_device(opt.local_rank)\n", "    torch.cuda.synchronize()\n"):
        v = _verdict(tmp_path, _BANNER + "Traceback (most recent call last):\n"
                     '  File "/home/u/vfi/train_vfi.py", line 88, in <module>\n' + code)
        assert (v["cause"], v["culprits"]) == ("unknown", []), (code, v)
        assert "--nproc_per_node" not in v["fix"], (code, v["fix"])
