"""Datasets and DataLoaders for the reference trainer.

``MNISTDataset`` indexes uint8 tensors in memory (real MNIST or the synthetic set) and
returns ``(image float32 [1, 28, 28] normalized, label)``. Indexing a tensor costs
microseconds, far less than torchvision's per-sample PIL round trip, so the per-sample
cost is a knob instead of an accident (shared/knowledge/mnist_data.md):

``sample_cost_ms``   extra work per sample, standing in for decode and augmentation
``sample_cost_kind`` ``cpu``: busy work that holds a core (JPEG decode, augmentation);
                     ``io``: a sleep that holds no core (reading from network storage).
                     On a machine with few cores only ``io`` can show many workers
                     helping: ``cpu`` work is bounded by the cores you have.

``slow_rank``/``slow_factor`` make one rank's loader slower (a testing aid: the monitor
must name that rank).
"""

from __future__ import annotations

import importlib
import time
from typing import Any, Callable

import torch
from torch.utils.data import DataLoader, Dataset, DistributedSampler

MEAN, STD = 0.1307, 0.3081  # the usual MNIST normalization


def _burn(seconds: float, kind: str) -> None:
    if seconds <= 0:
        return
    if kind == "io":
        time.sleep(seconds)
        return
    end = time.perf_counter() + seconds
    x = 0
    while time.perf_counter() < end:
        x += 1


class MNISTDataset(Dataset):
    def __init__(self, images: torch.Tensor, labels: torch.Tensor, sample_cost_ms: float = 0.0,
                 sample_cost_kind: str = "cpu"):
        if sample_cost_kind not in ("cpu", "io"):
            raise ValueError(f"sample_cost_kind must be cpu or io, got {sample_cost_kind!r}")
        self.images, self.labels = images, labels
        self.cost_s, self.kind = sample_cost_ms / 1000.0, sample_cost_kind

    def __len__(self) -> int:
        return len(self.labels)

    def __getitem__(self, i: int):
        _burn(self.cost_s, self.kind)
        x = (self.images[i].unsqueeze(0).float() / 255.0 - MEAN) / STD
        return x, self.labels[i]


def loader_kwargs(num_workers: int, pin_memory: bool, prefetch_factor: int | None,
                  persistent_workers: bool) -> dict[str, Any]:
    kw: dict[str, Any] = {"num_workers": num_workers, "pin_memory": pin_memory}
    if num_workers > 0:  # both options are errors with num_workers=0
        kw["persistent_workers"] = persistent_workers
        if prefetch_factor is not None:
            kw["prefetch_factor"] = prefetch_factor
    return kw


def make_loader(ds: Dataset, batch_size: int, rank: int, world: int, seed: int, shuffle: bool, **kw: Any) -> DataLoader:
    sampler = DistributedSampler(ds, num_replicas=world, rank=rank, shuffle=shuffle, seed=seed, drop_last=shuffle)
    return DataLoader(ds, batch_size=batch_size, sampler=sampler, drop_last=shuffle, **kw)


def user_loader(spec: str) -> Callable[..., Any]:
    """Resolve ``module:function``; the function builds the user's DataLoader."""
    mod_name, _, fn_name = spec.partition(":")
    if not mod_name or not fn_name:
        raise ValueError(f"--loader {spec!r}: expected module:function")
    fn = getattr(importlib.import_module(mod_name), fn_name, None)
    if not callable(fn):
        raise ValueError(f"--loader {spec!r}: {mod_name} has no callable {fn_name}")
    return fn
