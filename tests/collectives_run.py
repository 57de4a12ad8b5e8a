"""Run every collective of probes.collectives through probes.harness on real gloo ranks.

    torchrun --nproc-per-node 3 tests/collectives_run.py OUT_DIR [CORRUPT_RANK]

Each rank writes ``OUT_DIR/rank<R>.json``: collective -> the harness's rows. With
CORRUPT_RANK, a second pass follows in the same job, written to ``rank<R>-corrupt.json``,
where that rank's send buffer is off by one in one element before every op: the exact
check must count wrong elements somewhere (tests/test_collectives.py). One job for both
passes: starting torchrun and three ranks costs far more than the ops.
"""

from __future__ import annotations

import datetime
import json
import os
import sys
import time

import torch.distributed as dist

from probes import harness
from probes.collectives import REGISTRY


class Ctx:
    device = "cpu"
    issued = 0

    def __init__(self, corrupt: bool):
        self.corrupt = corrupt

    def sync(self):
        pass

    def event(self, phase, kind, **fields):
        pass

    def collective(self, mod, send, recv, sweep=False, **kw):
        if self.corrupt:
            send[0] += 1  # a wrong input: a bit flip on the wire would look the same to the check
        t0 = time.perf_counter()
        mod.run(send, recv, **kw)
        return time.perf_counter() - t0


def main() -> None:
    out, corrupt = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else -1
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=60))
    rank, n = dist.get_rank(), dist.get_world_size()
    passes = {f"rank{rank}.json": Ctx(False)}
    if corrupt >= 0:
        passes[f"rank{rank}-corrupt.json"] = Ctx(rank == corrupt)
    for name, ctx in passes.items():
        res = {c: harness.sweep(ctx, mod, [1024, 40000], 1, 2, n, rank) for c, mod in REGISTRY.items()}
        with open(os.path.join(out, name), "w", encoding="utf-8") as fh:
            json.dump(res, fh)
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
