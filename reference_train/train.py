"""The training loop: DDP over a DistributedSampler, monitored step by step.

Stages (``main`` composes them): ``setup`` (process group, device) -> ``datasets`` (IDX
files, synthetic when none) -> ``build`` (model, DDP, optimizer, AMP) -> ``train_epoch``
per epoch (``set_epoch`` first, so every epoch shuffles differently and every rank the
same way) -> ``evaluate`` (each rank scores its shard; correct and total are summed with
all_reduce) -> rank-0 checkpoint and result file.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
import torch.distributed as dist
from torch import nn

from reference_train import data, idx, synthetic
from reference_train.model import ConvNet


@dataclass
class Ctx:
    rank: int
    world: int
    local_rank: int
    device: torch.device
    backend: str


def setup(backend: str, timeout_s: float) -> Ctx:
    rank, world = int(os.environ.get("RANK", 0)), int(os.environ.get("WORLD_SIZE", 1))
    local_rank = int(os.environ.get("LOCAL_RANK", 0))
    if backend == "auto":
        backend = "nccl" if torch.cuda.is_available() and dist.is_nccl_available() else "gloo"
    device = torch.device("cpu")
    if backend == "nccl":
        device = torch.device("cuda", local_rank)
        torch.cuda.set_device(device)
    if "MASTER_ADDR" not in os.environ:  # run as a plain script: a world of one
        os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(_free_port()), RANK="0", WORLD_SIZE="1")
    dist.init_process_group(backend, timeout=datetime.timedelta(seconds=timeout_s))
    return Ctx(rank, world, local_rank, device, backend)


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def datasets(args: argparse.Namespace) -> tuple[data.MNISTDataset, data.MNISTDataset, str]:
    """Real MNIST from --data-dir when its files are there; else the synthetic set."""
    root, source = None, "mnist"
    # A folder with the synthetic set's lock is synthetic, even when its train files are there:
    # another rank may be writing it (train first), and ensure() waits for that rank's lock.
    if args.data_dir and idx.find_split(args.data_dir, "train") and not (Path(args.data_dir) / ".lock").exists():
        root = Path(args.data_dir)
    else:
        source = "synthetic"
        root = Path(args.data_dir) if args.data_dir else synthetic.default_dir(args.synthetic_train,
                args.synthetic_test, args.seed)
        synthetic.ensure(root, args.synthetic_train, args.synthetic_test, args.seed)
    xtr, ytr = idx.load_split(root, "train")
    xte, yte = idx.load_split(root, "test")
    cost = args.sample_cost_ms
    if args.slow_rank is not None and int(os.environ.get("RANK", 0)) == args.slow_rank:
        cost += args.slow_sample_ms
    train = data.MNISTDataset(xtr, ytr, cost, args.sample_cost_kind)
    test = data.MNISTDataset(xte, yte)
    return train, test, f"{source} ({len(train)} train / {len(test)} test) from {root}"


def build(args: argparse.Namespace, ctx: Ctx):
    torch.manual_seed(args.seed)  # the same initial weights on every rank
    model: nn.Module = ConvNet().to(ctx.device)
    if ctx.device.type == "cuda":
        model = nn.SyncBatchNorm.convert_sync_batchnorm(model)
    ddp = nn.parallel.DistributedDataParallel(model, device_ids=[ctx.local_rank] if ctx.device.type == "cuda" else None)
    opt = torch.optim.SGD(ddp.parameters(), lr=args.lr, momentum=0.9)
    use_amp = bool(args.amp and ctx.device.type == "cuda")
    scaler = torch.amp.GradScaler("cuda", enabled=use_amp)
    return ddp, opt, scaler, use_amp


def train_epoch(args, ctx: Ctx, ddp, opt, scaler, use_amp: bool, loader, mon, epoch: int,
                steps_left: int) -> tuple[float, int]:
    ddp.train()
    loader.sampler.set_epoch(epoch)
    loss_sum, steps = 0.0, 0
    crit = nn.CrossEntropyLoss()
    for images, labels in mon.iter(loader, epoch=epoch):
        images = images.to(ctx.device, non_blocking=True)
        labels = labels.to(ctx.device, non_blocking=True)
        with torch.autocast(device_type=ctx.device.type, enabled=use_amp):
            loss = crit(ddp(images), labels)
        opt.zero_grad(set_to_none=True)
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        steps += 1
        if steps % args.log_every == 0 or steps == 1:
            loss_sum = float(loss.detach())  # syncs on GPU: only every log_every steps
            if ctx.rank == 0:
                print(f"epoch {epoch} step {steps}/{len(loader)} loss {loss_sum:.4f}", flush=True)
        if steps >= steps_left:
            break
    return loss_sum, steps


def stand_in_epoch(args, ctx: Ctx, loader, mon, epoch: int, steps_left: int) -> int:
    """For --loader: consume the user's batches with --step-ms of compute and one
    gradient-sized all_reduce per step, the shape of a DDP step."""
    grad = torch.zeros(args.stand_in_numel, device=ctx.device)
    if hasattr(getattr(loader, "sampler", None), "set_epoch"):
        loader.sampler.set_epoch(epoch)
    steps = 0
    for _batch in mon.iter(loader, epoch=epoch):
        data._burn(args.step_ms / 1000.0, "cpu")
        with mon.comm():
            dist.all_reduce(grad)
        steps += 1
        if steps >= steps_left:
            break
    return steps


@torch.no_grad()
def evaluate(ctx: Ctx, ddp, loader) -> float:
    ddp.eval()
    counts = torch.zeros(2, dtype=torch.float64, device=ctx.device)
    for images, labels in loader:
        pred = ddp(images.to(ctx.device)).argmax(1)
        counts[0] += (pred == labels.to(ctx.device)).sum()
        counts[1] += len(labels)
    dist.all_reduce(counts)
    return float(counts[0] / counts[1].clamp_min(1))


def save_atomic(obj: Any, path: str, as_json: bool = False) -> None:
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_name(f".{p.name}.tmp")
    if as_json:
        tmp.write_text(json.dumps(obj, indent=2) + "\n")
    else:
        torch.save(obj, tmp)
    os.replace(tmp, p)
