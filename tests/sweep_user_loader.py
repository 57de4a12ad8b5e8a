"""A user's DataLoader factory for the --loader test (imported by the trainer ranks)."""

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
    return DataLoader(Slow(), batch_size=16, sampler=DistributedSampler(Slow(), world_size, rank), num_workers=num_workers, pin_memory=pin_memory, **kw)
