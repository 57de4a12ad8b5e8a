"""``ncclDoctor check``'s options and its plan: what to do, decided once, frozen.

``plan(opts, host, env)`` validates ``CheckOptions`` (bad values raise ``UsageError``,
exit 2, before anything starts) and returns a frozen ``Plan``. A single node is the
N = 1 case of the multi-node check: ``Topology(nnodes=1, rdzv=None)`` means torchrun
``--standalone`` and a control store of our own on a free port; ``nnodes > 1`` adds the
c10d rendezvous and the structure phase (intra-node, inter-node, node-to-node).
What happens at run time (the control store, the supervisor, this node's role) is the
``Job`` of ``check.launch``, not the plan.
"""

from __future__ import annotations

import socket
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Mapping

from ncclDoctor import ci
from ncclDoctor.errors import UsageError
from ncclDoctor.facts.network import node_address, node_label
from ncclDoctor.finish import default_run_dir
from ncclDoctor.launch import multinode
from ncclDoctor.options import CommonOptions
from ncclDoctor.units import parse_size
from probes.localize import GLOO_SLOW_RATIO, SLOW_RATIO

# Defaults sized so a CPU check finishes well under a minute on 2 cores; GPU defaults
# follow nccl-tests' canonical `-b 8 -e 128M -f 2` with its 20 timed iterations.
DEFAULTS = {
    "gloo": {"min_bytes": "1K", "max_bytes": "16M", "step_factor": 4, "warmup": 2, "iters": 10,
             "structure_bytes": "1M", "structure_iters": 5, "structure_slow_ratio": GLOO_SLOW_RATIO},
    "nccl": {"min_bytes": "8", "max_bytes": "128M", "step_factor": 2, "warmup": 5, "iters": 20,
             "structure_bytes": "64M", "structure_iters": 10, "structure_slow_ratio": SLOW_RATIO},
}


@dataclass
class CheckOptions:
    nproc_per_node: int | None = None
    backend: str = "auto"
    out: str | None = None
    fail_on: str = "error"
    min_bytes: str | None = None
    max_bytes: str | None = None
    step_factor: int | None = None
    warmup: int | None = None
    iters: int | None = None
    timeout: float | None = None
    launch_timeout: float | None = None  # --launch-timeout: the launch deadline alone, whatever --timeout says
    inject: list[str] = field(default_factory=list)
    nnodes: int | None = None  # None: 1, or SLURM_NNODES inside an allocation
    rdzv_endpoint: str | None = None
    rdzv_id: str | None = None
    local_addr: str | None = None
    structure_bytes: str | None = None
    max_seconds: float | None = None  # None: check.budget.DEFAULT_MAX_SECONDS; 0: no time budget
    ops: str | None = None  # --op all_reduce,all_gather | all; None: all_reduce
    expected_below_pct: float | None = None  # --expected-below: BW301 under this % of the platform's reference
    gates: ci.Gates = field(default_factory=ci.Gates)  # --select/--ignore/--min-busbw/--baseline/--junit


@dataclass(frozen=True)
class Topology:
    """The job's shape as this node sees it before launch. ``rdzv`` is None exactly
    when ``nnodes == 1``; whether this node reports is decided at launch (``Job.reporting``)."""

    nnodes: int
    local_addr: str
    rdzv: multinode.Rendezvous | None = None


@dataclass(frozen=True)
class Plan:
    backend: str
    nproc_per_node: int
    world_size: int
    sizes: tuple[int, ...]
    warmup: int
    iters: int
    deadlines: Mapping[str, float]  # only those --timeout / --launch-timeout set; the rest are check.phases' defaults
    node: Mapping[str, str]  # this node: {"host", "addr"}
    run_dir: Path
    topology: Topology
    inject: tuple[str, ...] = ()
    structure: Mapping[str, Any] | None = None  # nnodes > 1: size, iters, sizes
    common: CommonOptions = field(default_factory=CommonOptions)  # --fail-on (validated once, as everywhere)
    gates: ci.Gates = field(default_factory=ci.Gates)
    ops: tuple[str, ...] = ("all_reduce",)  # the collectives to sweep, registry order
    expected_below_pct: float = 50.0
    max_seconds: float = 0.0  # 0: no time budget (check.budget)
    launch_timeout_s: float | None = None  # --launch-timeout or None (phases.control_wait_s, ...)
    started_wall: float = field(default_factory=lambda: process_start())  # the command's start, for the budget

    @property
    def nnodes(self) -> int:
        return self.topology.nnodes

    @property
    def where(self) -> str:
        """This node's name in findings: "address (host)"."""
        return node_label(self.node["host"], self.node["addr"])

    def summary(self, opts: CheckOptions) -> dict[str, Any]:
        """``report.config``: the options as given, and what they resolved to."""
        return {**asdict(opts), "backend": self.backend, "nproc_per_node": self.nproc_per_node,
                "sizes": list(self.sizes), "deadlines_s": dict(self.deadlines), "ops": list(self.ops)}


def process_start(startup_s: float = 30.0) -> float:
    """When this command started (wall clock): --max-seconds counts Python's and torch's
    start-up too, as a user's stopwatch does -- at most ``startup_s`` of it, so a
    long-lived process calling ``run_check`` (a test session, a notebook) gets the full budget."""
    now = time.time()
    try:
        import psutil

        return max(psutil.Process().create_time(), now - startup_s)
    except Exception:  # psutil missing or /proc unreadable: from now
        return now


def size_sweep(min_bytes: int, max_bytes: int, step_factor: int) -> list[int]:
    if max_bytes < min_bytes:
        raise UsageError(f"--max-bytes ({max_bytes}) is smaller than --min-bytes ({min_bytes})")
    if step_factor < 2:
        raise UsageError(f"--step-factor must be 2 or more, got {step_factor}")
    sizes, s = [], min_bytes
    while s <= max_bytes:
        sizes.append(s - s % 4 or 4)
        s *= step_factor
    return sizes


def resolve_backend(requested: str, torch_facts: Mapping[str, Any]) -> str:
    if requested not in ("auto", "nccl", "gloo"):
        raise UsageError(f"unknown --backend {requested!r}: expected auto, nccl or gloo")
    if requested != "auto":
        return requested
    return "nccl" if torch_facts.get("cuda_available") and torch_facts.get("nccl_available") else "gloo"


def topology(opts: CheckOptions, env: Mapping[str, str]) -> Topology:
    rdzv = multinode.resolve(opts.nnodes, opts.rdzv_endpoint, opts.rdzv_id, opts.local_addr, env)
    if rdzv is None:
        return Topology(1, opts.local_addr or node_address(env))
    return Topology(rdzv.nnodes, rdzv.local_addr, rdzv)


def _check_inject(specs: list[str], world_size: int) -> tuple[str, ...]:
    from probes import faults

    for spec in specs:
        try:
            f = faults.parse(spec)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        if f.rank >= world_size:
            raise UsageError(f"bad --inject {spec!r}: rank {f.rank} does not exist (world size {world_size})")
    return tuple(specs)


def _deadlines(timeout: float | None, phases: tuple[str, ...], launch: float | None = None) -> dict[str, float]:
    """The deadlines the options set (the rest are ``check.phases.DEFAULT_DEADLINES_S``): ``--timeout``
    sets every phase's and the launch deadline to ``max(timeout, 60)``; ``--launch-timeout`` sets the
    launch deadline alone (every node's torchrun and every rank started and joined), whatever ``--timeout`` says."""
    out: dict[str, float] = {}
    if timeout is not None:
        if timeout <= 0:
            raise UsageError(f"--timeout must be positive, got {timeout}")
        out = {**{k: timeout for k in phases}, "launch": max(timeout, 60.0)}  # starting Python + torch takes its time
    if launch is not None:
        if not 0 < launch < float("inf"):  # NaN and inf too: torchrun's join timeout is a whole number of seconds
            raise UsageError(f"--launch-timeout must be a positive number of seconds, got {launch:g}")
        out["launch"] = float(launch)
    return out


def _ops(text: str | None) -> tuple[str, ...]:
    from probes.collectives import parse_ops

    try:
        return tuple(parse_ops(text))
    except ValueError as exc:
        raise UsageError(f"bad --op: {exc}") from None


def _below_pct(value: float | None) -> float:
    from ncclDoctor.analysis.expected import DEFAULT_BELOW_PCT

    if value is None:
        return DEFAULT_BELOW_PCT
    if not 0 < value <= 100:
        raise UsageError(f"--expected-below must be a percentage in (0, 100], got {value}")
    return float(value)


def plan(opts: CheckOptions, host: Mapping[str, Any], env: Mapping[str, str]) -> Plan:
    from ncclDoctor.check.phases import for_plan

    topo = topology(opts, env)
    common = CommonOptions(fail_on=opts.fail_on)
    backend = resolve_backend(opts.backend, host.get("torch", {}))
    d = DEFAULTS[backend]
    gpus = int(host.get("torch", {}).get("cuda_device_count") or 0)
    nproc = opts.nproc_per_node if opts.nproc_per_node is not None else (gpus if backend == "nccl" and gpus else 2)
    if nproc < 1:
        raise UsageError(f"--nproc-per-node must be at least 1, got {nproc}")
    warmup = d["warmup"] if opts.warmup is None else opts.warmup
    iters = d["iters"] if opts.iters is None else opts.iters
    if warmup < 0 or iters < 1:
        raise UsageError("--warmup must be >= 0 and --iters >= 1")
    sizes = size_sweep(parse_size(opts.min_bytes or d["min_bytes"]), parse_size(opts.max_bytes or d["max_bytes"]),
                       opts.step_factor or d["step_factor"])
    world = nproc * topo.nnodes
    ops = _ops(opts.ops)
    if world == 1 and backend == "gloo" and "sendrecv" in ops:  # gloo cannot pair a rank with itself
        if ops == ("sendrecv",):
            raise UsageError("--op sendrecv needs at least 2 ranks on gloo (a rank cannot send to itself)")
        ops = tuple(o for o in ops if o != "sendrecv")  # report.config["ops"] shows what ran
    structure = None
    if topo.nnodes > 1:
        structure = {"size": parse_size(opts.structure_bytes or d["structure_bytes"]), "iters": d["structure_iters"],
                     "sizes": sizes, "slow_ratio": d["structure_slow_ratio"]}
    return Plan(
        backend, nproc, world, tuple(sizes), warmup, iters,
        _deadlines(opts.timeout, for_plan(topo.nnodes, ops), opts.launch_timeout),
        {"host": socket.gethostname(), "addr": topo.local_addr},
        Path(opts.out) if opts.out else default_run_dir("check"),
        topo, _check_inject(opts.inject, world), structure, common, opts.gates, ops,
        _below_pct(opts.expected_below_pct), _max_seconds(opts.max_seconds),
        launch_timeout_s=None if opts.launch_timeout is None else float(opts.launch_timeout),
    )


def _max_seconds(value: float | None) -> float:
    from ncclDoctor.check.budget import DEFAULT_MAX_SECONDS, RESERVE_S

    if value is None:
        return DEFAULT_MAX_SECONDS
    if value != 0 and value < 2 * RESERVE_S:
        raise UsageError(f"--max-seconds must be 0 (no budget) or at least {2 * RESERVE_S:.0f}, got {value:g}")
    return float(value)
