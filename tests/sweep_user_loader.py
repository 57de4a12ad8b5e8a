"""A user's DataLoader factory for the --loader tests (imported by the trainer ranks).

With ``SWEEP_LOADER_LOG`` set, each call records the DataLoader it built (its own
``num_workers``, ``prefetch_factor``, ``persistent_workers``, ``pin_memory``) in that
folder, so a test can see which settings really reached the ranks."""

import json
import os
import time

import torch
from torch.utils.data import DataLoader, Dataset, DistributedSampler


class Slow(Dataset):
    def __len__(self):
        return 2048

    def __getitem__(self, i):
        time.sleep(0.001)  # storage latency
        return torch.full((4,), float(i))


def make_loader(rank, world_size, num_workers, pin_memory, prefetch_factor, persistent_workers):
    kw = {"prefetch_factor": prefetch_factor, "persistent_workers": persistent_workers} if num_workers else {}
    loader = DataLoader(Slow(), batch_size=16, sampler=DistributedSampler(Slow(), world_size, rank),
                        num_workers=num_workers, pin_memory=pin_memory, **kw)
    if os.environ.get("SWEEP_LOADER_LOG"):
        seen = {"rank": rank, "num_workers": loader.num_workers, "prefetch_factor": loader.prefetch_factor,
                "persistent_workers": loader.persistent_workers, "pin_memory": loader.pin_memory}
        name = f"{os.getpid()}-{time.monotonic_ns()}.json"  # one process may build several (--session)
        with open(os.path.join(os.environ["SWEEP_LOADER_LOG"], name), "w") as f:
            json.dump(seen, f)
    return loader
