"""The NCCL Flight Recorder mechanisms ``ncclDoctor run`` relies on, checked directly.

    python benchmarks/gpu_jobs/fr_job.py DIR [--backend nccl] [--stall-s 8]

A world of one (no torchrun needed). Prints one JSON line with what it saw:

1. which recorder holds the nccl entries: ``_dump_nccl_trace_json`` (the CUDA recorder)
   against ``_dump_fr_trace_json`` (the CPU one; knowledge/live_hang_mechanisms.md says
   the nccl entries are only in the first: source-read, never run before);
2. the cost of one status-only read (``pg_status`` without entries), the watcher's poll;
3. a GPU-side stall: ``torch.cuda._sleep`` for ``--stall-s`` then an all_reduce; while
   the GPU sleeps, the FR should say the collective was enqueued and not completed
   (what a watcher classifies as "inside the collective");
4. the dump pipe: writing to ``<TORCH_NCCL_DEBUG_INFO_PIPE_FILE><rank>.pipe`` during the
   stall should make torch write ``<TORCH_FR_DUMP_TEMP_FILE><rank>`` within a few seconds
   (DIR/nccl_trace_rank_<rank>, torch's default name, which ``ncclDoctor diagnose`` reads).

With ``--backend gloo`` (a rehearsal on CPU) steps 1, 3 and 4 report what gloo offers.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import socket
import stat
import statistics
import time

DUMP = "nccl_trace_rank_"
ENV = {  # both spellings: torch renamed TORCH_NCCL_* to TORCH_FR_* around 2.7
    "TORCH_FR_BUFFER_SIZE": "2000", "TORCH_NCCL_TRACE_BUFFER_SIZE": "2000",
    "TORCH_NCCL_ENABLE_MONITORING": "1", "TORCH_NCCL_ENABLE_TIMING": "1",
}


def setup(d: str) -> None:
    os.environ.update(ENV)
    os.environ["TORCH_NCCL_DEBUG_INFO_PIPE_FILE"] = os.path.join(d, "pipe_")
    # torch's default dump name (/tmp/nccl_trace_rank_<rank>), here in DIR: ncclDoctor diagnose takes the rank from it
    os.environ["TORCH_FR_DUMP_TEMP_FILE"] = os.environ["TORCH_NCCL_DEBUG_INFO_TEMP_FILE"] = os.path.join(d, DUMP)
    if "MASTER_ADDR" not in os.environ:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), RANK="0", WORLD_SIZE="1", LOCAL_RANK="0")


def fr_json(c10d, backend: str, entries: bool = True) -> dict | None:
    """The recorder a watcher would read: the CUDA one for nccl, the CPU one for gloo."""
    fn = getattr(c10d, "_dump_nccl_trace_json" if backend == "nccl" else "_dump_fr_trace_json", None)
    if fn is None:
        return None
    return json.loads(fn(entries, False))


def summary(trace: dict | None) -> dict:
    if trace is None:
        return {"available": False}
    entries = trace.get("entries", [])
    return {"available": True, "version": trace.get("version"), "entries": len(entries),
            "names": sorted({e.get("profiling_name") for e in entries}),
            "states": [e.get("state") for e in entries[-3:]], "pg_status": trace.get("pg_status")}


def poll_cost_us(c10d, backend: str, n: int = 200) -> float | None:
    if getattr(c10d, "_dump_nccl_trace_json" if backend == "nccl" else "_dump_fr_trace_json", None) is None:
        return None
    t0 = time.perf_counter()
    for _ in range(n):
        fr_json(c10d, backend, entries=False)
    return (time.perf_counter() - t0) / n * 1e6


def trigger_pipe(d: str, rank: int, wait_s: float = 6.0) -> dict:
    pipe, dump = os.path.join(d, f"pipe_{rank}.pipe"), os.path.join(d, f"{DUMP}{rank}")
    out = {"pipe": pipe, "pipe_is_fifo": os.path.exists(pipe) and stat.S_ISFIFO(os.stat(pipe).st_mode), "dump": dump}
    if not out["pipe_is_fifo"]:
        out["files"] = sorted(os.listdir(d))
        return out
    try:
        fd = os.open(pipe, os.O_WRONLY | os.O_NONBLOCK)  # ENXIO when torch does not hold the read end
        os.write(fd, b"1")
        os.close(fd)
    except OSError as exc:
        out["write_error"] = str(exc)
        return out
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < wait_s and not os.path.exists(dump):
        time.sleep(0.05)
    out["dump_written"] = os.path.exists(dump)
    if out["dump_written"]:
        out["dump_after_s"] = round(time.perf_counter() - t0, 2)
        size = -1
        while size != os.path.getsize(dump) and time.perf_counter() - t0 < wait_s + 2:  # until the writer is done
            size = os.path.getsize(dump)
            time.sleep(0.2)
        out["dump_bytes"] = os.path.getsize(dump)
        try:
            with open(dump, "rb") as fh:
                data = pickle.load(fh)
            entries = data.get("entries", [])
            out["dump_entries"] = len(entries)
            out["dump_last_state"] = entries[-1].get("state") if entries else None
        except Exception as exc:
            out["dump_parse_error"] = str(exc)
    out["files"] = sorted(os.listdir(d))
    return out


def per_ms(torch) -> float:
    """Cycles of ``torch.cuda._sleep`` per ms, measured after a warm-up (the SM clock ramps up under load)."""
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    for _ in range(5):
        a.record()
        torch.cuda._sleep(50_000_000)
        b.record()
        b.synchronize()
    a.record()
    torch.cuda._sleep(20_000_000)
    b.record()
    b.synchronize()
    return 20_000_000 / a.elapsed_time(b)


def stall(torch, dist, c10d, args, device) -> dict:
    """Enqueue a GPU sleep, then an all_reduce behind it; read the FR while the GPU sleeps."""
    t = torch.ones(1 << 18, device=device)
    before = summary(fr_json(c10d, args.backend))
    if device.type == "cuda":
        torch.cuda._sleep(int(per_ms(torch) * args.stall_s * 1000))
    t0 = time.perf_counter()
    work = dist.all_reduce(t, async_op=True)
    time.sleep(1.0)
    during = summary(fr_json(c10d, args.backend))
    during["after_s"] = round(time.perf_counter() - t0, 2)
    during["work_completed"] = work.is_completed()
    pipe = trigger_pipe(args.dir, dist.get_rank())
    if args.backend == "gloo" and not pipe.get("dump_written"):  # rehearsal: a dump to hand to diagnose all the same
        with open(pipe["dump"], "wb") as fh:
            fh.write(c10d._dump_fr_trace())
        pipe["dump_source"] = "_dump_fr_trace() (gloo rehearsal: no pipe)"
    work.wait()
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    after = summary(fr_json(c10d, args.backend))
    return {"before": before, "during": during, "after": after, "pipe": pipe,
            "stall_wall_s": round(time.perf_counter() - t0, 2)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--backend", default="nccl", choices=["nccl", "gloo"])
    ap.add_argument("--stall-s", type=float, default=8.0)
    args = ap.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    setup(args.dir)
    import torch
    import torch.distributed as dist
    from torch._C import _distributed_c10d as c10d

    device = torch.device("cpu")
    if args.backend == "nccl":
        device = torch.device("cuda", int(os.environ.get("LOCAL_RANK", 0)))
        torch.cuda.set_device(device)
    dist.init_process_group(args.backend, **({"device_id": device} if args.backend == "nccl" else {}))
    t = torch.ones(1 << 18, device=device)
    for _ in range(10):
        dist.all_reduce(t)
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    out = {"backend": args.backend, "torch": torch.__version__,
           "has": {n: hasattr(c10d, n) for n in ("_dump_nccl_trace_json", "_dump_nccl_trace", "_dump_fr_trace_json")}}
    sections = {
        "recorder": lambda: summary(fr_json(c10d, args.backend)),
        "cpu_recorder": lambda: summary(json.loads(c10d._dump_fr_trace_json(True, False))
                                        if hasattr(c10d, "_dump_fr_trace_json") else None),
        "poll_us": lambda: poll_cost_us(c10d, args.backend),
        "poll_us_samples": lambda: [poll_cost_us(c10d, args.backend, 50) for _ in range(3)],
        "stall": lambda: stall(torch, dist, c10d, args, device),
    }
    for key, fn in sections.items():  # one failing section never hides the others
        try:
            out[key] = fn()
        except Exception as exc:
            out[key] = {"error": f"{type(exc).__name__}: {exc}"}
    samples = out["poll_us_samples"] if isinstance(out["poll_us_samples"], list) else []
    out["poll_us_median"] = statistics.median(x for x in samples if x is not None) if any(samples) else None
    print(json.dumps(out, default=str), flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
