"""The baseline for bench_collectives: a bare timing loop per collective, nothing else.

    python -m torch.distributed.run --standalone --nproc-per-node 2 benchmarks/bare_collectives.py OPS SIZES WARMUP \
ITERS

For each collective and size (bytes, nccl-tests' size column) it allocates the buffers a
torch user would, runs WARMUP ops, a barrier, ITERS timed ops, and prints one JSON line
from rank 0 with every rank's mean time per op. Only torch: no probe code.
"""

import json
import sys
import time

import torch
import torch.distributed as dist


def op_for(name: str, nbytes: int, rank: int, n: int):
    """(the op as a closure, the count nccl-tests' *GetBw takes)."""
    per = max((nbytes // 4 // n) & ~3, 1)  # nccl-tests' 16-byte aligned share
    full = max(nbytes // 4, 1)
    if name == "all_reduce":
        t = torch.ones(full)
        return (lambda: dist.all_reduce(t)), full
    if name == "all_gather":
        i, o = torch.ones(per), torch.empty(per * n)
        return (lambda: dist.all_gather_single(o, i)), per
    if name == "reduce_scatter":
        i, o = torch.ones(per * n), torch.empty(per)
        return (lambda: dist.reduce_scatter_single(o, i)), per
    if name == "broadcast":
        t = torch.ones(full)
        return (lambda: dist.broadcast(t, src=0)), full
    if name == "alltoall":
        i, o = torch.ones(per * n), torch.empty(per * n)
        return (lambda: dist.all_to_all_single(o, i)), per
    s, r = torch.ones(full), torch.empty(full)

    def sendrecv():
        reqs = [dist.isend(s, (rank + 1) % n), dist.irecv(r, (rank - 1) % n)]
        for q in reqs:
            q.wait()

    return sendrecv, full


def main() -> None:
    ops, sizes = sys.argv[1].split(","), [int(s) for s in sys.argv[2].split(",")]
    warmup, iters = int(sys.argv[3]), int(sys.argv[4])
    dist.init_process_group("gloo")
    rank, world = dist.get_rank(), dist.get_world_size()
    times = {}
    for name in ops:
        rows = []
        for size in sizes:
            op, count = op_for(name, size, rank, world)
            for _ in range(warmup):
                op()
            dist.barrier()
            start = time.perf_counter()
            for _ in range(iters):
                op()
            rows.append([count, (time.perf_counter() - start) / iters * 1e6])
        times[name] = rows
    gathered = [None] * world
    dist.all_gather_object(gathered, times)
    if rank == 0:
        print(json.dumps({"sizes": sizes, "world": world, "ranks": gathered}))
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
