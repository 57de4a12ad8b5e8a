"""The baseline: a bare all_reduce timing loop, nothing else.

    python -m torch.distributed.run --standalone --nproc-per-node 2 \
        benchmarks/bare_allreduce.py SIZES WARMUP ITERS [BACKEND]

Times each size exactly as the probe does (warm-up, barrier, ITERS timed ops; on a GPU a
device synchronize before the clock starts and before it stops) and prints one JSON line
from rank 0 with each rank's mean time per op. BACKEND is gloo (default) or nccl; with
nccl each rank uses the GPU of its LOCAL_RANK.
"""

import json
import os
import sys
import time

import torch
import torch.distributed as dist


def main() -> None:
    sizes = [int(s) for s in sys.argv[1].split(",")]
    warmup, iters = int(sys.argv[2]), int(sys.argv[3])
    backend = sys.argv[4] if len(sys.argv) > 4 else "gloo"
    device = torch.device("cpu")
    if backend == "nccl":
        device = torch.device("cuda", int(os.environ.get("LOCAL_RANK", 0)))
        torch.cuda.set_device(device)
    dist.init_process_group(backend, **({"device_id": device} if backend == "nccl" else {}))
    sync = (lambda: torch.cuda.synchronize(device)) if device.type == "cuda" else (lambda: None)
    rank, world = dist.get_rank(), dist.get_world_size()
    rows = []
    for size in sizes:
        t = torch.ones(max(1, size // 4), dtype=torch.float32, device=device)
        for _ in range(warmup):
            dist.all_reduce(t)
        sync()
        dist.barrier()
        start = time.perf_counter()
        for _ in range(iters):
            dist.all_reduce(t)
        sync()
        rows.append((time.perf_counter() - start) / iters * 1e6)
    gathered = [None] * world
    dist.all_gather_object(gathered, rows)
    if rank == 0:
        print(json.dumps({"sizes": sizes, "time_us": gathered, "world": world, "backend": backend}))
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
