"""How diagnose reads round 66's cases of fixer h3 (session 23): a traceback cut at a module's top-level import (rule
AF (2)), cut in c10d's own argument check of a collective (rules AV, BB (4)), multiprocessing's spawn check for a main
guard (rules Q, W), the same IndexError over a tensor's number of dimensions on every rank (rule BB (1)), and torch's
symmetric-memory rendezvous refusing two ranks on one GPU (rule Q). Each test reads the shape from lines other than
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
