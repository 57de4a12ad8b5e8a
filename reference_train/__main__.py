"""Reference DDP MNIST trainer: a real data-parallel job to measure input pipelines on.

    torchrun --nproc-per-node 2 -m reference_train [--data-dir DIR] [--epochs 1] ...
    python -m reference_train ...              (a world of one, no torchrun)

gloo on CPU, nccl on GPU (``--backend auto``). What it does:

- Data: real MNIST IDX files (raw or .gz, torchvision's ``MNIST/raw/`` layout) from
  ``--data-dir``; when that holds none, a deterministic synthetic MNIST of drawn digits
  is written there (or to ``~/.cache/ncclDoctor/``) and read back through the same IDX
  reader. Nothing is ever downloaded.
- Model: the seed posts' ConvNet with BatchNorm (SyncBatchNorm on GPU), DDP,
  DistributedSampler with ``set_epoch``, SGD with momentum, AMP with ``--amp`` on GPU.
- Evaluation on the test split, distributed: correct and total summed by all_reduce.
- Rank 0 writes ``--checkpoint`` after each epoch and ``--result-json`` at the end.
- ``--monitor-dir``: per-rank step records (``ncclDoctor.monitor``) for
  ``ncclDoctor sweep-workers`` and the stall analysis.
- ``--sample-cost-ms`` / ``--sample-cost-kind``: per-sample decode/augment cost, so a run
  can be loader-bound or compute-bound on purpose (``reference_train.data``).
- ``--loader module:function``: train nothing; feed the step from your own DataLoader
  factory, called as ``function(rank=, world_size=, num_workers=, pin_memory=,
  prefetch_factor=, persistent_workers=)``, with a stand-in step of ``--step-ms``
  compute plus one all_reduce.
- ``--session DIR``: one launch, several loader settings in turn, each chosen while the
  job runs (``reference_train.session``; ``ncclDoctor sweep-workers`` uses it).

Exit status: 0 done; 2 bad arguments or data files (one line on stderr).
"""

from __future__ import annotations

import argparse
import gc
import sys
import time

from torch.distributed.elastic.multiprocessing.errors import record


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="reference_train",
                                description="Reference DDP MNIST trainer (see module docstring).")
    a = p.add_argument
    a("--data-dir", default=None,
      help="folder with MNIST IDX files (MNIST/raw/ layout); synthetic data is written here when it has none")
    a("--synthetic-train", type=int, default=4096, help="synthetic training samples (default 4096)")
    a("--synthetic-test", type=int, default=1024, help="synthetic test samples (default 1024)")
    a("--epochs", type=int, default=1)
    a("--max-steps", type=int, default=0, help="stop after this many training steps in all (0: no limit)")
    a("--batch-size", type=int, default=64, help="per rank")
    a("--lr", type=float, default=0.01)
    a("--seed", type=int, default=0)
    a("--backend", default="auto", choices=["auto", "gloo", "nccl"])
    a("--amp", action="store_true", help="mixed precision (GPU only; ignored on CPU)")
    a("--num-workers", type=int, default=0)
    a("--pin-memory", action="store_true")
    a("--prefetch-factor", type=int, default=None)
    a("--persistent-workers", action="store_true")
    a("--sample-cost-ms", type=float, default=0.0, help="extra work per sample (decode/augment stand-in)")
    a("--sample-cost-kind", default="cpu", choices=["cpu", "io"], help="cpu: busy work; io: sleep (storage latency)")
    a("--slow-rank", type=int, default=None,
      help="testing aid: this rank's loader gets --slow-sample-ms more per sample")
    a("--slow-sample-ms", type=float, default=0.0)
    a("--no-eval", action="store_true")
    a("--checkpoint", default=None, help="rank 0 saves model and optimizer state here after each epoch")
    a("--result-json", default=None, help="rank 0 writes accuracy, loss and timings here")
    a("--monitor-dir", default=None, help="write per-rank step records (ncclDoctor.monitor) under this run directory")
    a("--warmup-steps", type=int, default=5, help="steps per epoch the monitor marks as warm-up")
    a("--loader", default=None, help="module:function building your DataLoader (see docstring)")
    a("--step-ms", type=float, default=10.0, help="stand-in compute per step with --loader")
    a("--stand-in-numel", type=int, default=1 << 16, help="elements all-reduced per stand-in step")
    a("--timeout", type=float, default=300.0, help="process-group timeout in seconds")
    a("--log-every", type=int, default=20)
    a("--session", default=None,
      help="serve loader settings named in DIR/next-<i>.json in turn, one launch (see reference_train.session)")
    args = p.parse_args(argv)
    for name in ("epochs", "batch_size", "synthetic_train", "synthetic_test", "log_every"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be at least 1")
    if args.num_workers < 0 or args.max_steps < 0 or args.sample_cost_ms < 0:
        p.error("--num-workers, --max-steps and --sample-cost-ms must not be negative")
    return args


class _NoMonitor:
    def iter(self, loader, epoch=None):
        return iter(loader)

    def comm(self):
        import contextlib

        return contextlib.nullcontext()

    def close(self):
        pass


def _monitor(args: argparse.Namespace, source: str):
    if not args.monitor_dir:
        return _NoMonitor()
    from ncclDoctor.monitor import Monitor

    return Monitor(args.monitor_dir, warmup_steps=args.warmup_steps, meta={"config": dict(vars(args)), "data": source})


def _train(args: argparse.Namespace, ctx, loader, mon, user_fn, built=None) -> tuple[int, float, object]:
    """All epochs, up to --max-steps; returns (steps, last loss, the DDP model or None).
    ``built``: the model, optimizer, scaler and AMP flag of an earlier call (--session)."""
    from reference_train import train

    steps, loss, ddp = 0, float("nan"), None
    budget = args.max_steps or float("inf")
    if user_fn is None and built is not None:
        ddp, opt, scaler, use_amp = built
    elif user_fn is None:
        ddp, opt, scaler, use_amp = train.build(args, ctx)
        if hasattr(mon, "watch_ddp"):
            mon.watch_ddp(ddp)
    for epoch in range(args.epochs):
        if steps >= budget:
            break
        if user_fn is not None:
            steps += train.stand_in_epoch(args, ctx, loader, mon, epoch, budget - steps)
            continue
        loss, n = train.train_epoch(args, ctx, ddp, opt, scaler, use_amp, loader, mon, epoch, budget - steps)
        steps += n
        if args.checkpoint and ctx.rank == 0:
            train.save_atomic({"epoch": epoch, "model": ddp.module.state_dict(), "optimizer": opt.state_dict()},
                              args.checkpoint)
    return steps, loss, ddp


def make_loader(args: argparse.Namespace, ctx, train_ds, user_fn):
    """The training DataLoader with the loader settings of ``args``."""
    from reference_train import data

    kw = data.loader_kwargs(args.num_workers, args.pin_memory, args.prefetch_factor, args.persistent_workers)
    if user_fn is not None:
        return user_fn(rank=ctx.rank, world_size=ctx.world, **{"prefetch_factor": None, "persistent_workers": False,
                                                               **kw})
    return data.make_loader(train_ds, args.batch_size, ctx.rank, ctx.world, args.seed, True, **kw)


@record
def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    import torch.distributed as dist
    from torch import nn

    from reference_train import data, idx, train

    try:
        train_ds, test_ds, source = train.datasets(args) if not args.loader else (None, None, f"loader {args.loader}")
        user_fn = data.user_loader(args.loader) if args.loader else None
    except (idx.IdxError, FileNotFoundError, ValueError, ImportError) as exc:
        print(f"reference_train: error: {exc}", file=sys.stderr)
        return 2
    ctx = train.setup(args.backend, args.timeout)
    if args.session:
        from reference_train import session

        return session.serve(args, ctx, train_ds, user_fn, source)
    loader = make_loader(args, ctx, train_ds, user_fn)
    mon = _monitor(args, source)
    if ctx.rank == 0:
        print(f"reference_train: {ctx.world} ranks, {ctx.backend} on {ctx.device.type}, data: {source}", flush=True)
    t0 = time.perf_counter()
    steps, loss, ddp = _train(args, ctx, loader, mon, user_fn)
    mon.close()
    elapsed = time.perf_counter() - t0
    acc = None
    if ddp is not None and not args.no_eval:
        acc = train.evaluate(ctx, ddp, data.make_loader(test_ds, 256, ctx.rank, ctx.world, args.seed, False))
    if ctx.rank == 0:
        result = {"world_size": ctx.world, "backend": ctx.backend, "data": source, "steps": steps,
                  "train_s": round(elapsed, 3), "last_loss": loss, "accuracy": acc}
        # what actually ran: AMP and SyncBatchNorm are GPU-only (checked by benchmarks/gpu_verify.py)
        if ddp is not None:
            result["amp"] = bool(args.amp and ctx.device.type == "cuda")
            result["sync_batchnorm"] = any(isinstance(m, nn.SyncBatchNorm) for m in ddp.modules())
        print(f"reference_train: {steps} steps in {elapsed:.1f} s"
              + (f", test accuracy {acc:.3f}" if acc is not None else ""), flush=True)
        if args.result_json:
            train.save_atomic(result, args.result_json, as_json=True)
    # Every rank leaves together: destroying the group while a peer's last gloo send is
    # still in flight aborts the process ("terminate called without an active exception").
    dist.barrier()
    # DDP's reducer holds the process group, and DDP's hooks form reference cycles that only the
    # garbage collector frees: left to interpreter exit, gloo's worker threads are torn down during
    # finalization, which can abort the process the same way (seen once in 2 ranks x ~10 runs).
    # Free them here, while the interpreter is whole, so destroy_process_group drops the last reference.
    del ddp, loader
    gc.collect()
    dist.destroy_process_group()
    return 0


if __name__ == "__main__":
    sys.exit(main())
