"""The baseline: a bare all_reduce timing loop, nothing else.

    python -m torch.distributed.run --standalone --nproc-per-node 2 benchmarks/bare_allreduce.py SIZES WARMUP ITERS

Times each size exactly as the probe does (warm-up, barrier, ITERS timed ops) and
prints one JSON line from rank 0 with each rank's mean time per op.
"""

import json
import sys
import time

import torch
import torch.distributed as dist


def main() -> None:
    sizes = [int(s) for s in sys.argv[1].split(",")]
    warmup, iters = int(sys.argv[2]), int(sys.argv[3])
    dist.init_process_group("gloo")
    rank, world = dist.get_rank(), dist.get_world_size()
    rows = []
    for size in sizes:
        t = torch.ones(size // 4, dtype=torch.float32)
        for _ in range(warmup):
            dist.all_reduce(t)
        dist.barrier()
        start = time.perf_counter()
        for _ in range(iters):
            dist.all_reduce(t)
        rows.append((time.perf_counter() - start) / iters * 1e6)
    gathered = [None] * world
    dist.all_gather_object(gathered, rows)
    if rank == 0:
        print(json.dumps({"sizes": sizes, "time_us": gathered, "world": world}))
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
