"""Per-step stall and imbalance monitor for any training loop.

Two lines in your loop (three with DDP)::

    from ncclDoctor.monitor import Monitor

    mon = Monitor("runs/my-job")                  # rank, world size from torchrun's env
    mon.watch_ddp(ddp_model)                      # optional: time DDP's gradient all_reduce
    for epoch in range(epochs):
        for batch in mon.iter(loader, epoch=epoch):   # times every next() on the loader
            ...                                       # your step, unchanged
    mon.close()

Then ``ncclDoctor stalls runs/my-job`` (``ncclDoctor.sweep.stalls.run_stalls``) turns
the records of every rank into findings: dataloader stall (DL001), straggler / rank
imbalance (DL002), unequal batch counts across ranks (DL003).

What one step is, per rank: from the start of ``next()`` on the loader to the start of
the following ``next()`` (or ``mon.step()``, ``mon.close()``, the end of the epoch).

``data_wait_s``  time blocked in ``next()``: the loader had no batch ready
``comm_s``       time in DDP's collectives (``watch_ddp``: the gradient all_reduce and the
                 per-forward buffer broadcast) and in ``with mon.comm():`` blocks. On
                 gloo that is the wait until the data arrived; with NCCL the hook's
                 future completes when the work is on the stream, so it is a lower
                 bound there and ``gpu_s`` carries the GPU side
``compute_s``    the rest of the step: ``step_s - data_wait_s - comm_s``
``gpu_s``        GPU time between the step's CUDA events, when CUDA is in use (read
                 when the events are done, without a sync, so the loop is not slowed)
``samples``      the batch size, taken from the batch (first tensor's first dimension)
                 unless passed to ``mon.step(samples=..., tokens=...)``

The first ``warmup_steps`` steps of each epoch are marked ``warmup`` (worker start-up,
first prefetches, allocator and cuDNN warm-up) and left out of steady-state figures.

In DDP the gradient all_reduce waits for the slowest rank, so step times look equal on
every rank; the slow rank shows up as its own data wait or compute, and as comm wait on
the others. That is why all three are recorded per rank.

Records: ``<run_dir>/monitor/rank-<R>.jsonl``, one JSON object per line: a ``meta``
line (rank, local rank, world size, host, address, pid, ``len(loader)`` per epoch), a
``step`` line per step, an ``epoch`` line per finished epoch (batches seen), an ``end``
line. Lines are appended whole and flushed every ``flush_every`` steps; a reader skips a
torn last line, so a crashed run still leaves usable records
(``ncclDoctor.sweep.stalls.read_records``).

Cost: every step is recorded (no sampling). What a step costs is two clock reads, one
dict and one line of text; the step line is formatted by hand (``_step_line``: the
same JSON ``json.dumps`` writes, at a fraction of its cost, which was most of the
monitor's time per step) and the batch size is read along the path the first batch
took (``_SizeReader``). ``benchmarks/bench_monitor.py`` measures it.

This module runs inside users' training loops: it imports the standard library only.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import time
from pathlib import Path
from typing import Any, Iterable, Iterator

_clock = time.perf_counter


def _batch_size(batch: Any) -> int | None:
    """The first dimension of the first tensor found in a batch (tensor, tuple, list, dict)."""
    for _ in range(3):  # a few levels of nesting is plenty
        if hasattr(batch, "shape") and getattr(batch, "shape", None):
            return int(batch.shape[0])
        if isinstance(batch, dict) and batch:
            batch = next(iter(batch.values()))
        elif isinstance(batch, (list, tuple)) and batch:
            batch = batch[0]
        else:
            return None
    return None


class _SizeReader:
    """``_batch_size`` for a loader whose batches keep one shape of nesting: remembers the
    path (keys/indices) to the first tensor found in the first batch and follows it;
    falls back to the full search when the path does not lead to a shaped value."""

    def __init__(self) -> None:
        self.path: tuple[Any, ...] | None = None

    def __call__(self, batch: Any) -> int | None:
        if self.path is not None:
            try:
                x = batch
                for key in self.path:
                    x = x[key]
                return int(x.shape[0])
            except Exception:
                self.path = None
        self.path = _path_to_tensor(batch)
        return _batch_size(batch)


def _path_to_tensor(batch: Any) -> tuple[Any, ...] | None:
    path: list[Any] = []
    for _ in range(3):
        if hasattr(batch, "shape") and getattr(batch, "shape", None):
            return tuple(path)
        if isinstance(batch, dict) and batch:
            key = next(iter(batch))
            path.append(key)
            batch = batch[key]
        elif isinstance(batch, (list, tuple)) and batch:
            path.append(0)
            batch = batch[0]
        else:
            return None
    return None


def _json(v: Any) -> str:
    """JSON for one value of a step record, fast for what a step holds (int, bool, None)."""
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if type(v) is int:
        return str(v)
    return json.dumps(v, separators=(",", ":"), default=str)


_STEP_KEYS = frozenset(("kind", "step", "epoch", "epoch_step", "t", "data_wait_s", "samples", "warmup", "step_s",
                        "comm_s", "compute_s"))


def _step_line(rec: dict[str, Any]) -> str:
    """One step record as the line ``json.dumps(rec, separators=(",", ":"))`` writes (same
    keys, order and values; the times are finite floats, whose repr is JSON), ~5x cheaper.
    Keys a step gains later (``batch_bytes``, ``tokens``, ``gpu_s``) go through ``_json``."""
    line = (f'{{"kind":"step","step":{rec["step"]},"epoch":{_json(rec["epoch"])},"epoch_step":{rec["epoch_step"]},'
            f'"t":{rec["t"]!r},"data_wait_s":{rec["data_wait_s"]!r},"samples":{_json(rec["samples"])},'
            f'"warmup":{"true" if rec["warmup"] else "false"},"step_s":{rec["step_s"]!r},"comm_s":{rec["comm_s"]!r},'
            f'"compute_s":{rec["compute_s"]!r}')
    if len(rec) > len(_STEP_KEYS):
        line += "".join(f",{json.dumps(k)}:{_json(v)}" for k, v in rec.items() if k not in _STEP_KEYS)
    return line + "}"


def _batch_bytes(batch: Any) -> int:
    """Bytes of the tensors in a batch (what a worker ships through shared memory)."""
    if hasattr(batch, "element_size") and hasattr(batch, "nelement"):
        return int(batch.element_size() * batch.nelement())
    if isinstance(batch, dict):
        return sum(_batch_bytes(v) for v in batch.values())
    if isinstance(batch, (list, tuple)):
        return sum(_batch_bytes(v) for v in batch)
    return 0


def _node_addr() -> str:
    # The address other nodes reach us at; MASTER_ADDR's interface is what torchrun uses.
    try:
        from ncclDoctor.facts.network import node_address

        return node_address(dict(os.environ))
    except Exception:
        return ""


class Monitor:
    def __init__(
        self,
        run_dir: str | os.PathLike,
        *,
        rank: int | None = None,
        world_size: int | None = None,
        warmup_steps: int = 5,
        flush_every: int = 50,
        cuda: bool | None = None,
        meta: dict[str, Any] | None = None,
    ):
        self.rank = int(os.environ.get("RANK", 0)) if rank is None else rank
        self.world_size = int(os.environ.get("WORLD_SIZE", 1)) if world_size is None else world_size
        self.warmup_steps = warmup_steps
        self.flush_every = max(1, flush_every)
        self._cuda = self._cuda_enabled(cuda)
        self._start(run_dir, meta)

    def restart(self, run_dir: str | os.PathLike, meta: dict[str, Any] | None = None) -> None:
        """Close these records and start new ones under ``run_dir``: same rank, hooks
        (``watch_ddp``) kept. For one process that measures several loader settings in
        turn (``reference_train --session``, used by ``ncclDoctor sweep-workers``)."""
        self.close()
        self._start(run_dir, meta)

    def _start(self, run_dir: str | os.PathLike, meta: dict[str, Any] | None) -> None:
        warmup_steps = self.warmup_steps
        self.path = Path(run_dir) / "monitor" / f"rank-{self.rank}.jsonl"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fh = open(self.path, "w", encoding="utf-8")
        self._pending: list[str] = []
        self._events: tuple[Any, Any] | None = None
        self._gpu_pending: list[tuple[dict[str, Any], Any, Any]] = []
        self._open: dict[str, Any] | None = None  # the step in progress
        self._comm = 0.0
        self.step_index = 0
        self._epoch = 0
        self._epoch_batches = 0
        self._epoch_step = 0
        self._closed = False
        self._size = _SizeReader()
        self._write({
            "kind": "meta", "rank": self.rank, "world_size": self.world_size,
            "local_rank": int(os.environ.get("LOCAL_RANK", 0)), "host": socket.gethostname(), "addr": _node_addr(),
            "pid": os.getpid(), "warmup_steps": warmup_steps, "cuda": self._cuda, "t0_unix": time.time(),
            **(meta or {}),
        })
        self._flush()

    @staticmethod
    def _cuda_enabled(cuda: bool | None) -> bool:
        if cuda is False:
            return False
        try:
            import torch

            return bool(torch.cuda.is_available()
                        and torch.cuda.is_initialized()) if cuda is None else torch.cuda.is_available()
        except Exception:
            return False

    # -- the loop -------------------------------------------------------------------
    def iter(self, loader: Iterable, epoch: int | None = None) -> Iterator[Any]:
        """Iterate ``loader``, timing each ``next()``; one call per epoch."""
        self._end_step()
        self._epoch = self._epoch + (1 if self._epoch_batches else 0) if epoch is None else epoch
        self._epoch_batches = 0
        self._epoch_step = 0
        try:
            expected = len(loader)  # type: ignore[arg-type]
        except TypeError:
            expected = None
        it = iter(loader)
        while True:
            t0 = _clock()
            self._end_step(t0)
            try:
                batch = next(it)
            except StopIteration:
                self._write({"kind": "epoch", "epoch": self._epoch, "batches": self._epoch_batches,
                             "len_loader": expected})
                self._flush()
                return
            t1 = _clock()
            self._begin_step(t0, t1, self._size(batch))
            if self._epoch_step == 0 and self._open is not None:  # once per epoch: cheap enough
                self._open["batch_bytes"] = _batch_bytes(batch)
            yield batch

    def step(self, samples: int | None = None, tokens: int | None = None) -> None:
        """Optional: end the current step now and say how many samples/tokens it had."""
        if self._open is not None:
            if samples is not None:
                self._open["samples"] = samples
            if tokens is not None:
                self._open["tokens"] = tokens
        self._end_step()

    @contextlib.contextmanager
    def comm(self):
        """Mark a block as communication wait (your own collectives)."""
        t0 = _clock()
        try:
            yield
        finally:
            self._comm += _clock() - t0

    def add_comm(self, seconds: float) -> None:
        self._comm += float(seconds)  # a numpy/torch scalar would not format as JSON in _step_line

    def watch_ddp(self, ddp_model: Any, process_group: Any = None) -> None:
        """Time DDP's gradient all_reduce through a comm hook (DDP takes one hook only:
        skip this if you register your own, and wrap it with ``mon.comm()`` instead)."""
        from torch.distributed.algorithms.ddp_comm_hooks.default_hooks import allreduce_hook

        mon = self

        def timed_allreduce(state, bucket):
            t0 = _clock()

            def done(fut):
                mon._comm += _clock() - t0
                return fut.value()

            return allreduce_hook(state, bucket).then(done)

        ddp_model.register_comm_hook(process_group, timed_allreduce)
        # DDP (torch 2.x, broadcast_buffers / forward_sync_buffers on by default) also
        # broadcasts buffers such as BatchNorm statistics at the start of every forward:
        # a collective, so a fast rank waits *there* for a slow one. Without timing it
        # that wait would count as compute. `_sync_buffers` is private: time it if present.
        sync = getattr(ddp_model, "_sync_buffers", None)
        if callable(sync):
            def timed_sync(*args: Any, **kwargs: Any) -> Any:
                t0 = _clock()
                try:
                    return sync(*args, **kwargs)
                finally:
                    mon._comm += _clock() - t0

            ddp_model._sync_buffers = timed_sync

    # -- records --------------------------------------------------------------------
    def _begin_step(self, t0: float, t1: float, samples: int | None) -> None:
        self._comm = 0.0
        self._open = {
            "kind": "step", "step": self.step_index, "epoch": self._epoch, "epoch_step": self._epoch_step,
            "t": t0, "data_wait_s": t1 - t0, "samples": samples,
            "warmup": self._epoch_step < self.warmup_steps,
        }
        if self._cuda:
            import torch

            start = torch.cuda.Event(enable_timing=True)
            start.record()
            self._events = (start, None)

    def _end_step(self, t_end: float | None = None) -> None:
        rec = self._open
        if rec is None:
            return
        self._open = None
        t_end = _clock() if t_end is None else t_end
        rec["step_s"] = t_end - rec["t"]
        rec["comm_s"] = self._comm
        rec["compute_s"] = max(0.0, rec["step_s"] - rec["data_wait_s"] - self._comm)
        self._comm = 0.0
        self.step_index += 1
        self._epoch_step += 1
        self._epoch_batches += 1
        if self._cuda and self._events is not None:
            self._gpu_time(rec)
        else:
            self._pending.append(_step_line(rec))
        if len(self._pending) >= self.flush_every:
            self._flush()

    def _gpu_time(self, rec: dict[str, Any]) -> None:
        """Queue the step's events; write steps whose GPU work is done, oldest first.
        ``query()`` never blocks: the loop keeps running ahead of the GPU as it would."""
        import torch

        end = torch.cuda.Event(enable_timing=True)
        end.record()
        self._gpu_pending.append((rec, self._events[0], end))
        self._events = None
        while self._gpu_pending and (self._gpu_pending[0][2].query() or len(self._gpu_pending) > 16):
            self._gpu_done(*self._gpu_pending.pop(0))

    def _gpu_done(self, rec: dict[str, Any], start: Any, end: Any) -> None:
        end.synchronize()  # a no-op unless the queue is long or we are closing
        rec["gpu_s"] = start.elapsed_time(end) / 1000.0
        self._pending.append(_step_line(rec))

    def _write(self, rec: dict[str, Any]) -> None:
        self._pending.append(json.dumps(rec, separators=(",", ":")))

    def _flush(self) -> None:
        if self._pending:
            self._fh.write("\n".join(self._pending) + "\n")
            self._fh.flush()
            self._pending.clear()

    def close(self) -> None:
        if self._closed:
            return
        self._end_step()
        while self._gpu_pending:
            self._gpu_done(*self._gpu_pending.pop(0))
        self._write({"kind": "end", "steps": self.step_index})
        self._flush()
        self._fh.close()
        self._closed = True

    def __enter__(self) -> Monitor:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
