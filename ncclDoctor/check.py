"""``ncclDoctor check``: preflight, probe under torchrun, analyse, report.

Stages (each a function; ``run_check`` composes them):

1. ``preflight``  host facts and settings in this process; rules over them
2. ``launch``     write the worker config, start torchrun under the supervisor
3. ``analyse``    per-rank records -> bandwidth table and findings
4. ``finish``     verdict, exit code, run directory

The report is written whatever happens: a failed launch, a hang, a crash or Ctrl-C.
"""

from __future__ import annotations

import datetime as _dt
import os
import socket
import statistics
import sys
import time
import uuid
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable

from ncclDoctor import ci, multinode_check
from ncclDoctor.analysis import bandwidth, flight, verdict
from ncclDoctor.errors import CouldNotRun, ExitCode, UsageError
from ncclDoctor.facts.host import collect_host_facts
from ncclDoctor.facts.network import node_address, node_label
from ncclDoctor.findings import rule
from ncclDoctor.fsutil import write_json_atomic
from ncclDoctor.launch import evidence
from ncclDoctor.launch.supervisor import ControlStore, InterruptedRun, Outcome, Supervisor
from ncclDoctor.launch import multinode
from ncclDoctor.launch.torchrun import LaunchSpec, torchrun_argv
from ncclDoctor.report.model import Report
from ncclDoctor.report.write import write_run_dir
from ncclDoctor.rules import env as env_rules
from ncclDoctor.rules.codes import run as run_rules
from ncclDoctor.rules.system import check_host

STRAGGLER = rule(
    "BW001",
    "warning",
    "One rank is slower than the rest",
    why="""
A collective finishes when its slowest rank does: one slow rank (a throttled GPU, a
busy CPU, a slow link) sets the pace for the whole job.
""",
    fix="""
Look at the named rank's node: other processes (top), GPU clocks and throttling
(nvidia-smi -q -d PERFORMANCE), its network link. Rerun to see whether it persists.
""",
)

SIZE_UNITS = {"": 1, "B": 1, "K": 1 << 10, "KB": 1 << 10, "KIB": 1 << 10, "M": 1 << 20, "MB": 1 << 20, "MIB": 1 << 20, "G": 1 << 30, "GB": 1 << 30, "GIB": 1 << 30}


def parse_size(text: str) -> int:
    """nccl-tests' size syntax: 8, 1K, 128M, 1G (binary multiples)."""
    t = str(text).strip().upper()
    num = t.rstrip("KMGIB")
    unit = t[len(num):]
    try:
        value = float(num) * SIZE_UNITS[unit]
    except (ValueError, KeyError):
        raise UsageError(f"bad size {text!r}: expected a byte count like 8, 64K, 16M or 1G") from None
    if value < 4:
        raise UsageError(f"bad size {text!r}: the smallest message is 4 bytes (one float)")
    return int(value)


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
    inject: list[str] = field(default_factory=list)
    nnodes: int | None = None  # None: 1, or SLURM_NNODES inside an allocation
    rdzv_endpoint: str | None = None
    rdzv_id: str | None = None
    local_addr: str | None = None
    structure_bytes: str | None = None
    gates: ci.Gates = field(default_factory=ci.Gates)  # --select/--ignore/--min-busbw/--baseline/--junit


# Defaults sized so a CPU check finishes well under a minute on 2 cores; GPU defaults
# follow nccl-tests' canonical `-b 8 -e 128M -f 2` with its 20 timed iterations.
DEFAULTS = {
    "gloo": {"min_bytes": "1K", "max_bytes": "16M", "step_factor": 4, "warmup": 2, "iters": 10, "structure_bytes": "1M", "structure_iters": 5},
    "nccl": {"min_bytes": "8", "max_bytes": "128M", "step_factor": 2, "warmup": 5, "iters": 20, "structure_bytes": "64M", "structure_iters": 10},
}


def resolve_backend(requested: str, torch_facts: dict[str, Any]) -> str:
    if requested not in ("auto", "nccl", "gloo"):
        raise UsageError(f"unknown --backend {requested!r}: expected auto, nccl or gloo")
    if requested != "auto":
        return requested
    return "nccl" if torch_facts.get("cuda_available") and torch_facts.get("nccl_available") else "gloo"


def default_run_dir(command: str) -> Path:
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    return Path.cwd() / "ncclDoctor-runs" / f"{command}-{stamp}-{uuid.uuid4().hex[:4]}"


@dataclass
class Plan:
    backend: str
    nproc_per_node: int
    world_size: int
    sizes: list[int]
    warmup: int
    iters: int
    deadlines: dict[str, float]
    node: dict[str, str]
    run_dir: Path
    rdzv: multinode.Rendezvous | None = None
    structure: dict[str, Any] | None = None  # size, iters, sizes (the intra-node curve)
    control: Any = None  # the control store once launched (multi-node reads it after the run)
    preflight: list = field(default_factory=list)  # this node's preflight findings (shared with the reporting node)


def plan(opts: CheckOptions, host: dict[str, Any], env: dict[str, str]) -> Plan:
    from probes import faults

    rdzv = multinode.resolve(opts.nnodes, opts.rdzv_endpoint, opts.rdzv_id, opts.local_addr, env)
    nnodes = rdzv.nnodes if rdzv else 1
    if opts.fail_on not in ("error", "warning", "info"):
        raise UsageError(f"unknown --fail-on {opts.fail_on!r}: expected error, warning or info")
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
    sizes = size_sweep(
        parse_size(opts.min_bytes or d["min_bytes"]),
        parse_size(opts.max_bytes or d["max_bytes"]),
        opts.step_factor or d["step_factor"],
    )
    for spec in opts.inject:
        try:
            f = faults.parse(spec)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        if f.rank >= nproc * nnodes:
            raise UsageError(f"bad --inject {spec!r}: rank {f.rank} does not exist (world size {nproc * nnodes})")
    deadlines: dict[str, float] = {}
    if opts.timeout is not None:
        if opts.timeout <= 0:
            raise UsageError(f"--timeout must be positive, got {opts.timeout}")
        deadlines = {k: opts.timeout for k in ("init", "inventory", "smoke", "all_reduce", "structure", "done")}
        deadlines["launch"] = max(opts.timeout, 60.0)  # starting Python + torch takes its time
    addr = rdzv.local_addr if rdzv else node_address(env)
    node = {"host": socket.gethostname(), "addr": addr}
    run_dir = Path(opts.out) if opts.out else default_run_dir("check")
    structure = None
    if rdzv:
        structure = {"size": parse_size(opts.structure_bytes or d["structure_bytes"]), "iters": d["structure_iters"], "sizes": sizes}
    return Plan(backend, nproc, nproc * nnodes, sizes, warmup, iters, deadlines, node, run_dir, rdzv, structure)


def preflight(report: Report, p: Plan, env: dict[str, str]) -> None:
    where = node_label(p.node["host"], p.node["addr"])
    report.settings = env_rules.surface(env)
    report.add(*env_rules.lint(env, where=where, interfaces=[i["name"] for i in report.host.get("interfaces", [])]))
    report.add(*check_host(report.host, p.backend, p.nproc_per_node, where))
    report.add(*host_health(report.host, env, p, where))
    if p.world_size == 1:
        report.add(run_rules.SINGLE_RANK.finding("World size is 1: busbw is 0 by definition.", nodes=[where]))
    p.preflight = list(report.findings)


def host_health(host: dict[str, Any], env: dict[str, str], p: "Plan", where: str) -> list:
    """GPU health through NVML and RDMA port health through sysfs (``ncclDoctor env``
    shows the same with more detail). On a machine without NVML the GPU part is a plain
    "skipped" fact in the report, not a finding: a CPU check has nothing to fix there."""
    from ncclDoctor.facts.ib import collect_ib_facts
    from ncclDoctor.rules.gpu import check_gpus
    from ncclDoctor.rules.network import check_ib

    out = []
    if "devices" in host.get("gpus", {}):
        out += check_gpus(host["gpus"], where, p.nproc_per_node if p.backend == "nccl" else None)
    host["ib"] = collect_ib_facts(env.get("NCCLDOCTOR_SYSFS_ROOT") or "/")
    out += check_ib(host["ib"], env, where)
    return out


def worker_env(env: dict[str, str], control_port: int, control_host: str = "127.0.0.1") -> dict[str, str]:
    import probes

    out = dict(env)
    out["NCCLDOCTOR_CONTROL"] = f"{control_host}:{control_port}"
    out.setdefault("OMP_NUM_THREADS", "1")  # what torchrun would set, without its banner
    # Flight Recorder: on by default only since torch ~2.10 (0 entries before); the probe
    # always records so a stuck run can be explained.
    if not (env.get("TORCH_FR_BUFFER_SIZE") or env.get("TORCH_NCCL_TRACE_BUFFER_SIZE")):
        out["TORCH_FR_BUFFER_SIZE"] = "2000"
    out["PYTHONUNBUFFERED"] = "1"
    # Make `-m probes.worker` importable from a source checkout as well as an install.
    root = str(Path(probes.__file__).resolve().parent.parent)
    out["PYTHONPATH"] = os.pathsep.join([root, *[x for x in env.get("PYTHONPATH", "").split(os.pathsep) if x]])
    return out


def launch(p: Plan, env: dict[str, str], inject: list[str], on_event: Callable | None = None) -> Outcome:
    if p.rdzv:
        return multinode_check.launch(p, env, inject, on_event)
    control = ControlStore()
    pg_timeout = max([*p.deadlines.values(), 180.0]) + 30.0  # the supervisor decides first
    cfg = {
        "backend": p.backend,
        "sizes": p.sizes,
        "warmup": p.warmup,
        "iters": p.iters,
        "pg_timeout_s": pg_timeout,
        "run_dir": str(p.run_dir),
        "node": p.node,
        "inject": list(inject),
    }
    cfg_path = write_json_atomic(p.run_dir / "probe-config.json", cfg)
    spec = LaunchSpec(nproc_per_node=p.nproc_per_node, log_dir=str(p.run_dir / "logs"))
    argv = torchrun_argv(spec, ["--config", str(cfg_path)])
    write_json_atomic(p.run_dir / "launch.json", {"argv": argv})
    sup = Supervisor(
        argv,
        worker_env(env, control.port),
        p.world_size,
        control,
        log_path=str(p.run_dir / "torchrun.log"),
        deadlines_s=p.deadlines,
        on_event=on_event,
        before_stop=lambda s, out: collect_evidence(s, out, p.run_dir),
    )
    return sup.run()


def collect_evidence(sup: Supervisor, out: Outcome, run_dir: Path) -> None:
    """Before a stuck run is torn down: stacks and Flight Recorder from every rank."""
    if out.status != "hang" or out.phase == "launch":
        return
    got = evidence.gather(sup.control, sorted(sup.ranks), sup.worker_pids(), run_dir)
    out.evidence["stacks"] = got.pop("stacks")
    fr = got.pop("flight_recorder")
    out.evidence["flight_recorder_summary"] = flight.summarize({int(r): d for r, d in fr.items()}) if fr else None
    out.evidence["gathered"] = got


def _rank_label(inv: dict[str, Any] | None, rank: int, fallback: dict[str, str]) -> str:
    host = (inv or {}).get("host") or fallback["host"]
    addr = (inv or {}).get("addr") or fallback["addr"]
    return node_label(host, addr)


def analyse(report: Report, p: Plan, out: Outcome) -> ExitCode:
    """Fill the report from the outcome; return the run's exit code (OK if it ran)."""
    inv = {r: res.get("inventory") for r, res in out.results.items()}
    report.ranks = []
    for r in range(p.world_size):
        st = out.ranks.get(r)
        row = dict(inv.get(r) or {"rank": r, "host": p.node["host"], "addr": p.node["addr"]})
        row.pop("env", None)
        row["phase"] = st.phase if st else None
        row["state"] = st.state if st else None
        row["seq"] = st.seq if st else 0
        row["error"] = st.error if st else None
        report.ranks.append(row)
    nodes: dict[tuple, dict[str, Any]] = {}
    for row in report.ranks:
        key = (row.get("host"), row.get("addr"))
        nodes.setdefault(key, {"host": key[0], "addr": key[1], "ranks": []})["ranks"].append(row["rank"])
    report.nodes = list(nodes.values())
    report.results["run"] = {
        "status": out.status,
        "returncode": out.returncode,
        "elapsed_s": round(out.elapsed_s, 3),
        "phase": out.phase,
        "culprits": out.culprits,
        "victims": out.victims,
        "deadline_s": out.deadline_s,
        "detected_after_s": out.detected_after_s,
        "verdict_after_s": out.verdict_after_s,
        "evidence": out.evidence,
    }
    label = lambda r: _rank_label(inv.get(r), r, p.node)  # noqa: E731
    if p.rdzv:  # a rank without an inventory is not necessarily on this node
        label = multinode_check.labeler(p, inv)
    # The env lint of every rank, merged with the preflight's: one finding per setting.
    report.add(*env_rules.lint_ranks({r: i.get("env", {}) for r, i in inv.items() if i}, label))
    report.findings = env_rules.merge_duplicates(report.findings)

    smoke = {r: res["smoke"] for r, res in out.results.items() if "smoke" in res}
    if smoke:
        wrong = sum(v["wrong"] for v in smoke.values())
        report.results["smoke"] = {"wrong": wrong, "ranks_reported": len(smoke)}
    sweep = {r: res["all_reduce"] for r, res in out.results.items() if "all_reduce" in res}
    if sweep:
        table = bandwidth.build_table("all_reduce", sweep, p.world_size)
        report.results["all_reduce"] = {
            "collective": "all_reduce",
            "backend": p.backend,
            "world_size": p.world_size,
            "warmup": p.warmup,
            "iters": p.iters,
            "rows": table,
            "peak_busbw_gbps": bandwidth.peak_busbw(table),
            "avg_busbw_gbps": bandwidth.avg_busbw(table),
        }
        _bandwidth_findings(report, table, label)
    if p.rdzv:
        multinode_check.analyse(report, p, out, label)
    bad = [r for r, v in smoke.items() if v["wrong"]] + [r for r, v in sweep.items() if any(x["wrong"] for x in v["rows"])]
    if bad:
        report.add(run_rules.WRONG_RESULTS.finding(
            f"all_reduce returned wrong elements on rank(s) {sorted(set(bad))}.",
            ranks=bad, nodes=sorted({label(r) for r in bad}),
        ))
    failures = read_failures(p.run_dir)
    report.results["run"]["torchrun_failures"] = failures
    code = verdict.run_findings(report, out, label, inv, failures, p.sizes, p.warmup)
    report.results["run"].update(culprits=out.culprits, victims=out.victims)
    if out.status == "failed":
        culprits = [f for f in report.findings if f.code in ("RUN002", "RUN004")]
        ranks = culprits[0].ranks if culprits else []
        last = [out.ranks[r].t for r in ranks if r in out.ranks and out.ranks[r].t]
        if last:  # from the culprit's last sign of life to the job stopped
            report.results["run"]["verdict_after_s"] = round(out.finished_wall - max(last), 3)
    return code


def read_failures(run_dir: Path) -> dict[str, Any]:
    """torchrun's failure record, with each failed rank's exception message."""
    log = run_dir / "torchrun.log"
    text = log.read_text(errors="replace") if log.is_file() else ""
    failures = evidence.torchrun_failures(text)
    for rec in [failures["root_cause"], *failures["others"]]:
        if rec:
            rec["message"] = evidence.error_file_message(rec.get("error_file"))
    # torchrun may record a rank that was already dying as "SIGTERM" with no error file
    # (it stopped the others first); @record's files say what each rank raised.
    failures["errors_by_local_rank"] = {
        int(f.parent.name): msg
        for f in sorted(run_dir.glob("logs/*/attempt_*/*/error.json"))
        if f.parent.name.isdigit() and (msg := evidence.error_file_message(str(f)))
    }
    return failures


def _bandwidth_findings(report: Report, table: list[dict[str, Any]], label: Callable[[int], str]) -> None:
    for rank, sizes in sorted(bandwidth.late_ranks(table).items()):
        if len(sizes) * 4 < len(table) * 3:
            continue  # late at some sizes only: scheduling noise, not a straggler
        mine = statistics.median(x["outside_us"] for x in sizes)
        others = statistics.median(x["others_us"] for x in sizes)
        report.add(STRAGGLER.finding(
            f"Rank {rank} on {label(rank)} arrives late at all_reduce: it spends {mine / 1000:.1f} ms per op outside "
            f"the collective (its own work) where the other ranks spend {others / 1000:.2f} ms; they wait inside "
            f"the collective for it. Seen at {len(sizes)} of {len(table)} sizes.",
            ranks=[rank], nodes=[label(rank)], evidence=sizes[:8],
        ))


def run_check(
    opts: CheckOptions,
    argv: list[str] | None = None,
    on_event: Callable | None = None,
    progress: Callable[[str], None] | None = None,
) -> Report:
    env = dict(os.environ)
    t0 = time.monotonic()
    report = Report(command="check", argv=list(argv or sys.argv[1:]))
    report.host = collect_host_facts()
    p = plan(opts, report.host, env)
    report.config = {**asdict(opts), "backend": p.backend, "nproc_per_node": p.nproc_per_node, "sizes": p.sizes, "deadlines_s": p.deadlines}
    p.run_dir.mkdir(parents=True, exist_ok=True)
    preflight(report, p, env)
    write_run_dir(report, p.run_dir)  # a report exists from the first second on
    if progress:
        progress(f"launching {p.world_size} {p.backend} rank(s) under torchrun; run directory {p.run_dir}")
    outcome_code = ExitCode.OK
    try:
        out = launch(p, env, opts.inject, on_event=on_event)
        outcome_code = analyse(report, p, out)
        if p.rdzv and not p.rdzv.is_host:
            multinode_check.local_summary(report, p)
    except CouldNotRun as exc:  # e.g. another node cannot reach the rendezvous host's control store
        report.add(run_rules.LAUNCH_FAILED.finding(str(exc), nodes=[node_label(p.node["host"], p.node["addr"])]))
        outcome_code = ExitCode.COULD_NOT_RUN
    except InterruptedRun as exc:
        analyse(report, p, exc.outcome)
        report.interrupted = True
        report.add(run_rules.INTERRUPTED.finding("Interrupted by the user; results below are partial."))
        outcome_code = ExitCode.INTERRUPTED
    finally:
        report.duration_s = round(time.monotonic() - t0, 3)
        from ncclDoctor.finish import finishing  # gates -> conclude -> write -> publish, as every command
        from ncclDoctor.options import CommonOptions

        finishing(report, CommonOptions(fail_on=opts.fail_on), p.run_dir, gates=opts.gates, outcome=outcome_code)
    return report
