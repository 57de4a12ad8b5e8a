"""``--session DIR``: one launch of the trainer measures several loader settings in turn.

``ncclDoctor sweep-workers`` (adaptive search) chooses each next setting from the
measurements of the ones before, so the settings cannot all be named at launch. Rather
than one torchrun launch per setting (torchrun, importing torch in every rank, the
process group, the model: seconds each, more than the measurement itself on a small
job), the ranks stay up and are told what to run next, through files in ``DIR`` (each
written whole, by rename):

``next-<i>.json``  written by the sweep: ``{"loader": {"num_workers": 4, "pin_memory":
                   false, "prefetch_factor": null, "persistent_workers": false},
                   "monitor_dir": PATH}``, or ``{"stop": true}``
``done-<i>.json``  written by rank 0 once every rank finished setting ``i``:
                   ``{"steps": N, "train_s": T}``

Rank 0 waits for ``next-<i>.json`` (at most ``--timeout`` seconds, then it stops) and
broadcasts it; every rank builds the DataLoader it names, runs ``--max-steps`` steps
under the monitor, whose records restart under ``monitor_dir`` for each setting (with
their own warm-up steps: worker start-up is excluded as in a launch of its own), closes
the loader (its workers exit) and meets the others at a barrier. The model, optimizer
and process group are built once and keep training across settings; what one setting
measures (steady-state steps per second and each rank's data wait) does not depend on
them.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import time
from pathlib import Path
from typing import Any

LOADER_KEYS = ("num_workers", "pin_memory", "prefetch_factor", "persistent_workers")
POLL_S = 0.05


def next_message(folder: str, i: int, timeout_s: float) -> dict[str, Any]:
    """Rank 0: the sweep's next instruction; a stop when none comes within ``timeout_s``."""
    path, deadline = Path(folder, f"next-{i}.json"), time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if path.exists():
            return json.loads(path.read_text())
        time.sleep(POLL_S)
    print(f"reference_train: session: no {path.name} within {timeout_s:g} s; stopping", flush=True)
    return {"stop": True}


def write_whole(path: Path, obj: Any) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(obj))
    os.replace(tmp, path)


def serve(args: argparse.Namespace, ctx, train_ds, user_fn, source: str) -> int:
    """Run settings until told to stop; 0 when stopped cleanly."""
    import torch.distributed as dist

    from reference_train import train
    from reference_train.__main__ import _train, make_loader

    built = None if user_fn is not None else train.build(args, ctx)
    mon = None
    i = 0
    while True:
        box = [next_message(args.session, i, args.timeout) if ctx.rank == 0 else None]
        dist.broadcast_object_list(box, src=0)
        msg = box[0]
        if msg.get("stop"):
            break
        a = argparse.Namespace(**{**vars(args), **{k: msg["loader"][k] for k in LOADER_KEYS}})
        meta = {"config": dict(vars(a)), "data": source, "session_index": i}
        if mon is None:
            mon = _first_monitor(msg["monitor_dir"], a, meta, built)
        else:
            mon.restart(msg["monitor_dir"], meta=meta)
        loader = make_loader(a, ctx, train_ds, user_fn)
        t0 = time.perf_counter()
        steps, _, _ = _train(a, ctx, loader, mon, user_fn, built=built)
        elapsed = time.perf_counter() - t0
        mon.close()
        del loader  # persistent workers exit here, not during the next setting
        gc.collect()
        dist.barrier()  # every rank's records are flushed before the sweep reads them
        if ctx.rank == 0:
            write_whole(Path(args.session, f"done-{i}.json"), {"steps": steps, "train_s": round(elapsed, 3)})
        i += 1
    dist.barrier()
    built = mon = None  # the DDP model's reference cycles hold the group: freed now, not at interpreter exit
    gc.collect()
    dist.destroy_process_group()
    return 0


def _first_monitor(run_dir: str, a: argparse.Namespace, meta: dict[str, Any], built):
    from ncclDoctor.monitor import Monitor

    mon = Monitor(run_dir, warmup_steps=a.warmup_steps, meta=meta)
    if built is not None:
        mon.watch_ddp(built[0])  # once: DDP takes one comm hook; restart() keeps it
    return mon
