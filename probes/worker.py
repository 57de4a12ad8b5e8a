"""The probe worker: one process per rank, started by ``ncclDoctor check``.

    python -m torch.distributed.run --nproc-per-node 2 -m probes.worker --config CONFIG.json

Phases, each announced to the control store on entry and exit (``probes.control``):

``init``        init_process_group with a short timeout (seconds, not torch's minutes)
``inventory``   who am I: host, node address, pid, local rank, device, versions, env
``smoke``       barrier, then a small all_reduce whose result is checked exactly
``<op>``        one phase per collective of ``cfg["ops"]`` (default all_reduce), named by
                the collective: the size sweep of ``probes.harness`` (warm-up, barrier,
                ``iters`` timed ops, the exact check)
                with a ``budget`` in the config, the first op of each size predicts the
                size's time and the ranks stop together at a size over budget
                (``probes.budget``; the rule is in ``ncclDoctor.check.budget``)
``structure``   multi-node only, before the sweep: intra-node, inter-node and
                node-to-node bandwidth (``probes.structure``); when it names a slow node
                or link, every rank skips the whole-job sweep and says why
``done``        destroy the process group

The phases to run come from the config (``phases``; ncclDoctor's ``check.phases`` is
the one list), in order. Each rank also writes its raw records to
``<run_dir>/ranks/rank<R>.json`` (with ``timing``: the process's start and each phase's
wall-clock start and end, where a check's time went). The config file is written by ``ncclDoctor check``;
its keys are documented in ``ncclDoctor.check.launch``. This package imports only torch
and the standard library (psutil and pynvml where installed), so the launch line above
works wherever torch does.
"""

from __future__ import annotations

import argparse
import datetime
import functools
import json
import os
import socket
import sys
import time
from typing import Any

from torch.distributed.elastic.multiprocessing.errors import record

from probes import faults
from probes.collectives import REGISTRY
from probes.control import ENV_CONTROL, Control
from probes.debug import Evidence, write_text_atomic
from probes.teardown import leave

# The inventory publishes every variable under these prefixes; ncclDoctor picks the ones it surfaces.
TICK_S = 1.0  # at most one "tick" event a second while collectives complete (check.budget)
ENV_PREFIXES = ("NCCL_", "TORCH_", "GLOO_", "MASTER_", "CUDA_", "OMP_", "WORLD_SIZE", "TORCHELASTIC_")


def _sync(device) -> None:
    import torch

    if device.type == "cuda":
        torch.cuda.synchronize(device)


class Worker:
    def __init__(self, config: dict[str, Any]):
        self.cfg = config
        self.rank = int(os.environ["RANK"])
        self.local_rank = int(os.environ.get("LOCAL_RANK", 0))
        self.world = int(os.environ["WORLD_SIZE"])
        self.node_rank = int(os.environ.get("GROUP_RANK", 0))
        self.control = Control.from_env(self.rank)
        self.faults = faults.for_rank(config.get("inject", []), self.rank)
        sweeps = [p for p in config.get("phases") or [] if p in REGISTRY]
        if sweeps:
            self.faults.default_phase = sweeps[0]
        self.records: dict[str, Any] = {"rank": self.rank}
        self.device = None
        self.issued = 0  # sweep collectives issued for the current size
        self.fingerprint_due = False  # the next sweep collective is the size's first (probes.harness)
        self.budget = config.get("budget")  # None: no time budget (``probes.budget``)
        self.current = "init"
        self.skip_sweep: str | None = None  # set by the structure phase (probes.structure)
        self.ticked = time.perf_counter()
        self.evidence = Evidence(config.get("run_dir"), self.rank, os.environ.get(ENV_CONTROL))
        self.evidence.install()

    # -- plumbing ------------------------------------------------------------------
    def phase(self, name: str):
        self.faults.before_phase(name, self)
        self.current = name
        if self.control is None:
            import contextlib

            return contextlib.nullcontext()
        return self.control.phase(name)

    def publish(self, phase: str, result: Any) -> None:
        self.records[phase] = result
        if self.control is not None:
            self.control.publish(phase, result)

    def sync(self) -> None:
        _sync(self.device)

    def event(self, phase: str, kind: str, **fields: Any) -> None:
        if self.control is not None:
            self.control.event(phase, kind, **fields)

    def collective(self, module, send, recv, sweep: bool = False, **kw: Any) -> float:
        """Issue one collective; return the seconds spent inside it."""
        if sweep:
            planned = send.numel()
            send = self.faults.sweep_tensor(send)
            if send is None:
                return 0.0
            if module.NAME in ("all_reduce", "broadcast"):  # in place: the fault's tensor is the buffer
                recv = send
            self.issued += 1
            if self.fingerprint_due:
                # Fingerprint of the first sweep collective of each size, sent *before* it
                # is issued, so the supervisor can compare every rank against the plan even
                # if this collective kills the job. Not ``issued == 1``: with a budget the
                # count starts at 1 (the budget's op of the size, which faults do not touch).
                self.fingerprint_due = False
                self.event(module.NAME, "issue", op=module.NAME, numel=send.numel(), want=planned)
        if self.control is not None:
            self.control.seq += 1
        self.faults.before_collective(self, send)
        t0 = time.perf_counter()
        module.run(send, recv, **kw)
        t1 = time.perf_counter()
        self.tick(t1)
        return t1 - t0

    def tick(self, now: float | None = None) -> None:
        """A collective completed: at most every TICK_S, tell the supervisor (its hang call
        is 'nothing moved for far longer than ever', ``ncclDoctor.check.budget``)."""
        now = time.perf_counter() if now is None else now
        if self.control is not None and now - self.ticked >= TICK_S:
            self.ticked = now
            self.control.event(self.current, "tick")

    # -- phases --------------------------------------------------------------------
    def init(self) -> None:
        import torch
        import torch.distributed as dist

        backend = self.cfg["backend"]
        if backend == "nccl":
            self.device = torch.device("cuda", self.local_rank)
            torch.cuda.set_device(self.device)
        else:
            self.device = torch.device("cpu")
        kwargs = {}
        if backend == "nccl":
            kwargs["device_id"] = self.device  # avoids the "Guessing device ID" hang risk
        dist.init_process_group(
            backend,
            timeout=datetime.timedelta(seconds=float(self.cfg.get("pg_timeout_s", 120))),
            **kwargs,
        )

    def inventory(self) -> None:
        import torch

        node = self.cfg.get("node", {})
        nccl = None
        if self.device.type == "cuda":
            v = torch.cuda.nccl.version()
            nccl = ".".join(map(str, v)) if isinstance(v, tuple) else str(v)
        inv = {
            "rank": self.rank,
            "local_rank": self.local_rank,
            "node_rank": self.node_rank,
            "world_size": self.world,
            "host": socket.gethostname(),
            "addr": node.get("addr"),
            "pid": os.getpid(),
            "device": str(self.device),
            "device_name": torch.cuda.get_device_name(self.device) if self.device.type == "cuda" else "cpu",
            "torch": torch.__version__,
            "cuda": torch.version.cuda,
            "nccl": nccl,
            "backend": self.cfg["backend"],
            "env": {k: v for k, v in sorted(os.environ.items()) if k.startswith(ENV_PREFIXES)},
            **_node_facts(node.get("addr")),
        }
        self.publish("inventory", inv)

    def smoke(self) -> None:
        import torch.distributed as dist

        from probes import harness

        dist.barrier()
        count = 1024
        wrong = harness.check(self, REGISTRY["all_reduce"], count, self.world, self.rank)
        self.publish("smoke", {"count": count, "wrong": wrong})

    def sweep(self, name: str = "all_reduce") -> None:
        """One collective over every size (``probes.harness``); published under its NAME."""
        from probes import harness

        if self.skip_sweep:  # the structure phase ran first and named a slow node or link
            self.publish(name, {"collective": name, "rows": [], "iters": self.cfg["iters"],
                                "warmup": self.cfg["warmup"], "skipped": self.skip_sweep})
            return
        self.publish(name, harness.sweep(self, REGISTRY[name], self.cfg["sizes"], self.cfg["warmup"],
                                         self.cfg["iters"], self.world, self.rank, budget=self.budget))

    def structure(self) -> None:
        from probes import structure

        self.publish("structure", structure.run(self, self.cfg["structure"]))

    def done(self) -> None:
        import torch.distributed as dist

        dist.barrier()  # leave together: a peer's last send still in flight aborts gloo at teardown
        dist.destroy_process_group()

    def run(self) -> None:
        if self.control is not None:  # who we are, before init can fail: names a node whose ranks never get further
            node = self.cfg.get("node", {})
            self.control.publish("identity", {"rank": self.rank, "node_rank": self.node_rank,
                                              "host": socket.gethostname(), "addr": node.get("addr")})
        steps = {"init": self.init, "inventory": self.inventory, "smoke": self.smoke,
                 "structure": self.structure, "done": self.done}
        steps.update({op: functools.partial(self.sweep, op) for op in REGISTRY})  # a phase per collective
        timing = self.records["timing"] = {"process_started": _process_started(), "phases": {}}
        try:
            for name in self.cfg["phases"]:
                t0 = time.time()
                with self.phase(name):
                    self.faults.inside_phase(name)
                    steps[name]()
                timing["phases"][name] = [round(t0, 3), round(time.time(), 3)]
        finally:
            self.write_records()
        self.evidence.stop()  # only on a clean exit: a failing rank must stay dumpable

    def write_records(self) -> None:
        run_dir = self.cfg.get("run_dir")
        if not run_dir:
            return
        try:
            text = json.dumps(self.records, indent=2, default=str) + "\n"
            write_text_atomic(os.path.join(run_dir, "ranks", f"rank{self.rank}.json"), text)
        except OSError as exc:
            print(f"ncclDoctor probe: rank {self.rank} could not write its records: {exc}", file=sys.stderr)


def _process_started() -> float | None:
    """This process's start (wall clock), through psutil where installed: with the
    phases' times, where a check's start-up went (torch's import, the rendezvous)."""
    try:
        import psutil

        return round(psutil.Process().create_time(), 3)
    except Exception:  # no psutil: the records have the phases' times only
        return None


def _node_facts(addr: str | None) -> dict[str, Any]:
    """What the consistency diff compares beyond versions: interface, shm, memlock, driver."""
    import resource
    import shutil

    iface = os.environ.get("GLOO_SOCKET_IFNAME") or os.environ.get("NCCL_SOCKET_IFNAME")
    if not iface and addr:
        iface = _iface_of(addr)
    try:
        shm = shutil.disk_usage("/dev/shm").total
    except OSError:
        shm = None
    soft = resource.getrlimit(resource.RLIMIT_MEMLOCK)[0]
    return {
        "iface": iface,
        "dev_shm_bytes": shm,
        "ulimit_memlock": "unlimited" if soft == resource.RLIM_INFINITY else soft,
        "driver": _driver_version(),
    }


def _iface_of(addr: str) -> str | None:
    """The interface that holds ``addr``, through psutil where installed (else None)."""
    try:
        import psutil
    except ImportError:
        return None
    return next((n for n, addrs in psutil.net_if_addrs().items() if any(a.address == addr for a in addrs)), None)


def _driver_version() -> str | None:
    """The GPU driver version through NVML where pynvml is installed, else None."""
    try:
        import pynvml

        pynvml.nvmlInit()
        v = pynvml.nvmlSystemGetDriverVersion()
        return v.decode() if isinstance(v, bytes) else str(v)
    except Exception:  # no pynvml, no driver, no GPU: the consistency diff compares None
        return None


@record
def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="probes.worker")
    ap.add_argument("--config", required=True, help="JSON file written by ncclDoctor")
    args = ap.parse_args(argv)
    with open(args.config, encoding="utf-8") as fh:
        cfg = json.load(fh)
    Worker(cfg).run()
    # Only a clean run leaves this way, without torch's teardown (seconds of CPU per rank
    # between the last phase and every node's verdict): a failing rank raises, and
    # torchrun's ``record`` writes its error file as before.
    leave(0)


if __name__ == "__main__":
    main()
