"""DL rule texts: input pipelines: dataloader stalls, stragglers, sweeps.

Texts only (what `ncclDoctor explain CODE` prints); the checks that fire them live in
``ncclDoctor.analysis.stalls``, ``ncclDoctor.sweep.checks``.
"""

from __future__ import annotations

from ncclDoctor.findings import rule

STALL = rule(
    "DL001", "warning", "Dataloader stall: ranks wait for data",
    why="""
Time a rank spends blocked in next() on its DataLoader is time its GPU idles and, in DDP,
time every other rank waits in the gradient all_reduce. A long enough wait on one rank
surfaces elsewhere as an NCCL watchdog timeout.
""",
    fix="""
Give the loader more workers or cheaper samples: `ncclDoctor sweep-workers` measures
num_workers/pin_memory for your job and recommends the smallest sufficient setting.
Move decode/augmentation off the critical path (pre-decode, GPU augmentation).
""",
)


STRAGGLER = rule(
    "DL002", "warning", "Straggler: one rank is slower than the others",
    why="""
A DDP step ends when the slowest rank joins the all_reduce, so one slow rank sets the
pace for all of them; the others show it as communication wait, not as slowness.
""",
    fix="""
Input-bound: look at that rank's loader (its shard, disk, node load, worker count).
Compute-bound: look for uneven batch content (sequence lengths, tokens) or a slower
device/node. A straggler that wanders between ranks means the loader is short of
workers everywhere; a fixed one means something local to that rank or node.
""",
)


UNEQUAL_BATCHES = rule(
    "DL003", "error", "Ranks see different numbers of batches",
    why="""
A rank that runs out of batches first leaves the loop while the others wait in the
next all_reduce for it: the job hangs until the NCCL watchdog kills it (10 minutes by
default), with the error reported on the ranks that did nothing wrong.
""",
    fix="""
Shard so every rank gets the same count: DistributedSampler(drop_last=True), or pad
the dataset; with dynamic/variable batches, agree on the step count across ranks
(all_reduce MIN of the remaining batches) or use DDP's join() context manager.
""",
)


PIN_NO_GPU = rule(
    "DL004", "info", "pin_memory without a GPU is a no-op",
    why="""
pin_memory=True page-locks batches so the host-to-GPU copy can be asynchronous. With no
accelerator there is no copy to speed up: torch warns and ignores the flag.
""",
    fix="Leave pin_memory=False on CPU-only jobs; measure it on the GPU nodes you train on.",
)


OVERSUBSCRIBED = rule(
    "DL005", "warning", "More loader workers and ranks than CPU cores",
    why="""
Every DataLoader worker is a process. Workers x local ranks beyond the cores this job may
use make CPU-bound decoding compete with the training processes themselves, so the
throughput a sweep measures alone falls apart under full load.
""",
    fix="""
Cap num_workers at (usable cores / local ranks) - 1 for CPU-bound loaders; raise it
past that only for loaders that mostly wait on storage, and confirm with a sweep.
""",
)


SHM_SMALL = rule(
    "DL006", "warning", "/dev/shm is small for the batches in flight",
    why="""
Workers hand batches to the training process through shared memory (/dev/shm). When it
fills up, workers die with 'Bus error' or the loader deadlocks; Docker's default is 64 MiB.
""",
    fix="Enlarge /dev/shm (docker run --shm-size=8g, or an emptyDir with medium: Memory on Kubernetes), or lower "
        "num_workers x prefetch_factor.",
)


RECOMMENDATION = rule(
    "DL007", "info", "Recommended DataLoader settings",
    why="""
The smallest num_workers within the margin of the best measured throughput, or whose
data wait is already under the margin of its step (more workers cannot gain more than
that): past the knee more workers cost memory and CPU and buy nothing.
""",
    fix="Set the recommended values in your DataLoader; rerun the sweep when the model, batch size or hardware change.",
)


CUT_SHORT = rule(
    "DL008", "warning", "The sweep was cut short by its time budget",
    why="Configurations that were not measured cannot be recommended; the pick is the best of those that were.",
    fix="Rerun with a larger --max-minutes, fewer --workers choices, or fewer measurement windows.",
)


RUN_FAILED = rule(
    "DL009", "error", "A sweep configuration failed to run",
    why="A configuration that crashes or hangs (too many workers for the memory or /dev/shm, a broken loader) is not "
        "usable, whatever its speed.",
    fix="Read the configuration's logs in the run directory (configs/<label>/logs/); fix the cause or leave that "
        "setting out.",
)
