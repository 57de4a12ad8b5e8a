"""Generate the benchmark log set for `ncclDoctor diagnose`: one log file per rank.

    python benchmarks/gen_diagnose_logs.py [--out /tmp/ncclDoctor-bench-logs] [--ranks 512] [--mb 1024]

What a real job's per-rank logs look like after a hang, scaled: NCCL INFO init lines
(NCCL_DEBUG=INFO), then training chatter (python logging, tqdm redraws with ``\\r``,
the odd warning), then torch 2.x watchdog timeout and status lines on every rank but one
(rank 137 by default, which stopped enqueuing at the last collective). Never committed:
the output goes to /tmp. Files are written whole (temporary name, then rename).
"""

from __future__ import annotations

import argparse
import os
import random
from pathlib import Path

SEQ = 48213


def noise_block(target_bytes: int, seed: int) -> bytes:
    """Training chatter with no failure signature, reused for every rank (bytes are what
    the benchmark measures; realism per line is what makes the trigger scan honest)."""
    rng = random.Random(seed)
    lines, size, step = [], 0, 1000
    while size < target_bytes:
        step += 1
        r = rng.random()
        if r < 0.70:
            line = (f"2026-11-29 12:{step // 60 % 60:02d}:{step % 60:02d},{rng.randrange(1000):03d} INFO trainer: step "
                    f"{step} loss {rng.uniform(1.5, 3.0):.4f} lr {rng.uniform(1e-5, 3e-4):.2e} grad_norm "
                    f"{rng.uniform(0.2, 4):.3f} "
                    f"tokens/s {rng.randrange(80000, 120000)} mem {rng.uniform(40, 70):.1f}GiB\n")
        elif r < 0.95:
            line = "".join(f"\r{p}%|{'#' * (p // 10):<10}| {step}/{step * 10} [00:{p:02d}<01:00, "
                           f"{rng.uniform(1, 3):.2f}it/s]"
                           for p in range(0, 100, 20)) + "\n"
        elif r < 0.99:
            line = (f"{{'loss': {rng.uniform(1.5, 3):.4f}, 'learning_rate': {rng.uniform(1e-5, 3e-4):.2e}, 'epoch': "
                    f"{step / 5000:.2f}}}\n")
        else:
            line = ("/usr/lib/python3/site-packages/torch/utils/checkpoint.py:91: UserWarning: None of the inputs have "
                    "requires_grad=True.\n")
        lines.append(line)
        size += len(line)
    return "".join(lines).encode()


def head(rank: int, world: int) -> bytes:
    host, pid = f"gpu-{rank // 8:03d}", 40000 + rank
    lines = [f"{host}:{pid}:{pid} [{rank % 8}] NCCL INFO NCCL_SOCKET_IFNAME set by environment to ib0\n",
             f"{host}:{pid}:{pid} [{rank % 8}] NCCL INFO NET/IB : Using [0]mlx5_{rank % 8}:1/IB ; OOB "
             f"ib0:10.1.{rank // 8}.{rank % 8}<0>\n",
             f"{host}:{pid}:{pid} [{rank % 8}] NCCL INFO Using network IB\n"]
    lines += [f"{host}:{pid}:{pid + 1} [{rank % 8}] NCCL INFO Channel {c:02d}/0 : {rank}[{rank % 8}] -> "
              f"{(rank + 1) % world}[{(rank + 1) % 8}] via P2P/IPC\n"
              for c in range(16)]
    lines.append(f"{host}:{pid}:{pid + 1} [{rank % 8}] NCCL INFO comm 0x{rank:x} rank {rank} nranks {world} cudaDev "
                 f"{rank % 8} busId {rank % 8}a000 commId 0xfeed - Init COMPLETE\n")
    return "".join(lines).encode()


def tail(rank: int, culprit: int) -> bytes:
    if rank == culprit:  # stopped issuing collectives: its log just ends (stuck in data loading)
        return b"2026-11-29 12:59:59,000 INFO trainer: fetching next batch\n"
    ts = f"E1129 13:10:{rank % 60:02d}.{rank:06d}000"
    return (f"[rank{rank}]:[{ts} ProcessGroupNCCL.cpp:632] [Rank {rank}] Watchdog caught collective operation timeout: "
            f"WorkNCCL(SeqNum={SEQ}, OpType=ALLREDUCE, NumelIn=262144000, NumelOut=262144000, Timeout(ms)=600000) ran "
            f"for {600000 + rank} milliseconds before timing out.\n"
            f"[rank{rank}]:[{ts} ProcessGroupNCCL.cpp:1785] [PG ID 0 PG GUID 0(default_pg) Rank {rank}] Exception "
            f"(either an error or timeout) detected by watchdog at work: {SEQ}, last enqueued NCCL work: {SEQ}, "
            f"last completed NCCL work: {SEQ - 1}.\n"
            ).encode()


def generate(out: Path, ranks: int, total_mb: int, culprit: int = 137) -> int:
    out.mkdir(parents=True, exist_ok=True)
    body = noise_block(total_mb * (1 << 20) // ranks, seed=5)
    total = 0
    for r in range(ranks):
        path = out / f"rank{r:04d}.log"
        tmp = path.with_suffix(".tmp")
        with open(tmp, "wb") as fh:
            for part in (head(r, ranks), body, tail(r, culprit % ranks)):
                fh.write(part)
                total += len(part)
        os.replace(tmp, path)
    return total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="/tmp/ncclDoctor-bench-logs")
    ap.add_argument("--ranks", type=int, default=512)
    ap.add_argument("--mb", type=int, default=1024, help="total size in MiB")
    a = ap.parse_args()
    n = generate(Path(a.out), a.ranks, a.mb)
    print(f"wrote {a.ranks} files, {n / 1e6:.0f} MB, to {a.out}")


if __name__ == "__main__":
    main()
