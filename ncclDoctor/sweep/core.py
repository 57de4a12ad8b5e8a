"""The sweep pipeline: resolve -> measure -> conclude (see ``ncclDoctor.sweep``)."""

from __future__ import annotations

import os
import socket
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable

from ncclDoctor.errors import ExitCode, UsageError
from ncclDoctor.facts.host import collect_host_facts
from ncclDoctor.finish import default_run_dir, finishing
from ncclDoctor.options import CommonOptions
from ncclDoctor.report.model import Report
from ncclDoctor.report.write import write_run_dir
from ncclDoctor.rules.codes import dl as dl_rules
from ncclDoctor.rules.codes import run as run_rules
from ncclDoctor.sweep import checks, plan
from ncclDoctor.sweep.plan import Axes, Config
from ncclDoctor.sweep.runner import RunResult, Session, child_env, run_config

Progress = Callable[[int, int, str, "RunResult | None"], None]


@dataclass
class SweepOptions:
    nproc_per_node: int | None = None
    workers: str | None = None  # "0,1,2,4"; default 0..max(4, 2*cores/ranks), at most 8
    pin_memory: str = "auto"  # auto | true | false | both
    prefetch_factor: str | None = None  # "2,4"
    persistent_workers: str = "false"  # false | true | both
    grid: bool = False
    max_minutes: float = 5.0
    margin: float = 0.05
    windows: int = 3
    window_steps: int = 20
    warmup_steps: int = 5
    batch_size: int = 32
    sample_cost_ms: float = 0.0
    sample_cost_kind: str = "cpu"
    data_dir: str | None = None
    loader: str | None = None
    step_ms: float = 10.0
    backend: str = "auto"
    stall_share: float = 0.10
    one_launch: bool | None = None  # configurations in one trainer launch (runner.Session); None: adaptive only
    common: CommonOptions = field(default_factory=CommonOptions)  # --out, --fail-on, --select, ...
    extra_args: list[str] = field(default_factory=list)  # more reference_train options


@dataclass
class Resolved:
    axes: Axes
    nproc: int
    cuda: bool
    run_dir: Path
    trainer_args: list[str]
    node: str
    budget_s: float


def _ints(text: str, name: str, low: int) -> tuple[int, ...]:
    try:
        vals = tuple(sorted({int(x) for x in text.split(",") if x.strip()}))
    except ValueError:
        raise UsageError(f"bad {name} {text!r}: expected comma-separated integers like 0,1,2,4") from None
    if not vals or min(vals) < low:
        raise UsageError(f"bad {name} {text!r}: values must be {low} or more")
    return vals


def _bools(text: str, name: str) -> tuple[bool, ...]:
    table = {"false": (False,), "true": (True,), "both": (False, True)}
    if text not in table:
        raise UsageError(f"bad {name} {text!r}: expected false, true or both")
    return table[text]


def resolve(opts: SweepOptions, host: dict[str, Any]) -> Resolved:
    from ncclDoctor.facts.network import node_address, node_label

    for name, val, low in (("--max-minutes", opts.max_minutes, 0.1), ("--windows", opts.windows, 1),
                           ("--window-steps", opts.window_steps, 2), ("--batch-size", opts.batch_size, 1)):
        if val < low:
            raise UsageError(f"{name} must be at least {low}, got {val}")
    if not 0 <= opts.margin < 1 or opts.warmup_steps < 0 or opts.sample_cost_ms < 0:
        raise UsageError("--margin must be in [0, 1); --warmup-steps and --sample-cost-ms must not be negative")
    if opts.sample_cost_kind not in ("cpu", "io"):
        raise UsageError(f"unknown --sample-cost-kind {opts.sample_cost_kind!r}: expected cpu or io")
    if opts.loader and ":" not in opts.loader:
        raise UsageError(f"bad --loader {opts.loader!r}: expected module:function")
    tf = host.get("torch", {})
    cuda = bool(tf.get("cuda_available")) and opts.backend != "gloo"
    gpus = int(tf.get("cuda_device_count") or 0)
    nproc = opts.nproc_per_node or (gpus if cuda and gpus else 2)
    if nproc < 1:
        raise UsageError(f"--nproc-per-node must be at least 1, got {nproc}")
    cores = checks.usable_cores(host)
    workers = (_ints(opts.workers, "--workers", 0) if opts.workers
               else tuple(range(0, min(8, max(4, 2 * cores // nproc)) + 1)))
    if opts.pin_memory not in ("auto", "true", "false", "both"):
        raise UsageError(f"bad --pin-memory {opts.pin_memory!r}: expected auto, true, false or both")
    pins = (False,) if not cuda else {"auto": (False, True), "true": (True,), "false": (False,),
                                      "both": (False, True)}[opts.pin_memory]
    pf = _ints(opts.prefetch_factor, "--prefetch-factor", 1) if opts.prefetch_factor else (None,)
    axes = Axes(workers, pins, pf, _bools(opts.persistent_workers, "--persistent-workers"))
    run_dir = Path(opts.common.out) if opts.common.out else default_run_dir("sweep-workers")
    node = node_label(socket.gethostname(), node_address(dict(os.environ)))
    steps = opts.warmup_steps + opts.windows * opts.window_steps
    targs = [f"--batch-size={opts.batch_size}", f"--max-steps={steps}", "--epochs=1000", "--no-eval",
             f"--warmup-steps={opts.warmup_steps}",
             f"--backend={'gloo' if not cuda else opts.backend}", f"--log-every={10**6}"]
    if opts.loader:
        targs += [f"--loader={opts.loader}", f"--step-ms={opts.step_ms}"]
    else:
        targs += [f"--sample-cost-ms={opts.sample_cost_ms}", f"--sample-cost-kind={opts.sample_cost_kind}"]
    return Resolved(axes, nproc, cuda, run_dir, targs + list(opts.extra_args), node, opts.max_minutes * 60)


class Measurer:
    """Runs configurations within the time budget and remembers every result.

    Each configuration runs in its own torchrun launch (``run_config``), or, with
    ``one_launch`` (the adaptive search's default), in one trainer launch that serves
    them in turn (``runner.Session``); ``close()`` ends that launch."""

    def __init__(self, r: Resolved, opts: SweepOptions, env: dict[str, str], progress: Progress | None, planned: int):
        self.r, self.opts, self.env, self.progress = r, opts, env, progress
        self.results: dict[Config, RunResult] = {}
        self.order: list[Config] = []
        self.t0 = time.monotonic()
        self.cut_short: list[Config] = []
        self.planned = planned
        self.one_launch = (not opts.grid) if opts.one_launch is None else opts.one_launch
        self.session: Session | None = None
        self.sessions = 0

    def run(self, cfg: Config) -> RunResult:
        if not self.one_launch:
            return run_config(cfg, self.r.nproc, self.r.trainer_args, self.r.run_dir, self.env,
                              deadline_s=self.left_s(), windows=self.opts.windows, stall_share=self.opts.stall_share)
        if self.session is None or not self.session.alive:
            self.session = Session(self.r.nproc, self.r.trainer_args, self.r.run_dir, self.env, self.opts.windows,
                                   self.opts.stall_share, index=self.sessions)
            self.sessions += 1
        return self.session.run(cfg, deadline_s=self.left_s())

    def close(self) -> None:
        if self.session is not None:
            self.session.stop()
            self.session = None

    def left_s(self) -> float:
        return self.r.budget_s - (time.monotonic() - self.t0)

    def shares(self) -> dict[Config, float]:
        """Data-wait share of step time (worst rank) per configuration that ran."""
        return {c: res.to_dict()["data_share"]
                for c, res in self.results.items() if res.status == "ok" and res.analysis.get("ranks")}

    def measured(self, only_base: bool = False) -> dict[Config, float]:
        return {c: res.samples_per_s for c, res in self.results.items()
                if res.status == "ok" and (not only_base or c == self.r.axes.base(c.num_workers))}

    def __call__(self, cfg: Config) -> RunResult | None:
        if cfg in self.results:
            return self.results[cfg]
        longest = max((x.elapsed_s for x in self.results.values()), default=0.0)
        if self.results and self.left_s() < longest:
            self.cut_short.append(cfg)
            return None
        self.planned = max(self.planned, len(self.results) + 1)
        if self.progress:
            self.progress(len(self.results), self.planned, cfg.label, None)
        res = self.run(cfg)
        self.results[cfg] = res
        self.order.append(cfg)
        if self.progress:
            self.progress(len(self.results), self.planned, cfg.label, res)
        return res


def prediction(res: RunResult | None) -> dict[str, Any] | None:
    """t_w, t_c and n* from the num_workers=0 run (see ``ncclDoctor.sweep.plan``)."""
    if res is None or res.status != "ok" or res.config.num_workers != 0:
        return None
    w = res.worst_rank()
    t_w, t_c = w["data_wait_ms"] / 1000, max(0.0, w["step_ms"] - w["data_wait_ms"]) / 1000
    return {"worker_ms_per_batch": round(1000 * t_w, 2), "step_ms_without_data": round(1000 * t_c, 2),
            "ratio": round(t_w / t_c, 2) if t_c > 0 else None, "predicted_workers": plan.predict_workers(t_w, t_c),
            "data_share_at_0": w["data_share"]}


def measure_adaptive(m: Measurer) -> dict[str, Any] | None:
    axes, opts = m.r.axes, m.opts
    pred = prediction(m(axes.base(0)))
    if pred is None:
        return None
    # no wait without workers: the prediction is 0, and one run above confirms it
    pred["start"] = 0 if pred["data_share_at_0"] <= opts.stall_share else pred["predicted_workers"]
    while True:
        tried = {c.num_workers for c in m.results if c == axes.base(c.num_workers)}
        n = plan.next_adaptive(axes, pred["start"], tried, m.measured(only_base=True), m.shares(), opts.margin,
                               opts.stall_share)
        if n is None or m(axes.base(n)) is None:
            break
    pick = plan.recommend(m.measured(only_base=True), opts.margin, m.shares())
    if pick is not None:
        for v in plan.variants(axes, pick.num_workers):
            m(v)
    return pred


def measure_grid(m: Measurer) -> dict[str, Any] | None:
    for cfg in plan.grid(m.r.axes):
        m(cfg)
    return prediction(m.results.get(m.r.axes.base(0)))


def reason(pick: Config, pred: dict[str, Any] | None, measured: dict[Config, float], stall_share: float,
           share: float | None) -> str:
    best_cfg = max(measured, key=measured.get)
    vs = (f"{measured[pick]:.0f} samples/s, {100 * measured[pick] / measured[best_cfg]:.0f}% of the best "
          f"({best_cfg.label}: {measured[best_cfg]:.0f} samples/s)")
    if share is not None:
        vs += (f"; it waits {100 * share:.0f}% of each step for data, so more workers could gain at most "
               f"{100 * share / max(1e-9, 1 - share):.0f}%")
    if pred is None:
        return f"{pick.label}: {vs}."
    if pred["data_share_at_0"] > stall_share:
        kind = (f"loader-bound: with num_workers=0 the ranks spent {100 * pred['data_share_at_0']:.0f}% of each step "
                "waiting for data; "
                f"a batch takes {pred['worker_ms_per_batch']:.1f} ms to load against "
                f"{pred['step_ms_without_data']:.1f} ms of compute, "
                f"so workers needed ~ {pred['worker_ms_per_batch']:.1f}/{pred['step_ms_without_data']:.1f} = "
                f"{pred['ratio']} -> {pred['predicted_workers']}")
        if pick.num_workers > pred["predicted_workers"]:
            kind += " (measured: more than predicted, because the workers share CPU cores with the ranks; see DL005)"
    else:
        kind = (f"compute-bound: with num_workers=0 the ranks spent only {100 * pred['data_share_at_0']:.0f}% of each "
                "step waiting for data "
                f"({pred['worker_ms_per_batch']:.1f} ms per batch against {pred['step_ms_without_data']:.1f} ms of "
                "compute); more workers cannot speed up the step")
    return f"{kind}. Pick: {vs}."


def conclude(report: Report, m: Measurer, pred: dict[str, Any] | None, host: dict[str, Any], mode: str) -> ExitCode:
    r, opts = m.r, m.opts
    report.add(*checks.check_pin(r.cuda, opts.pin_memory, r.node))
    configs = [m.results[c].to_dict() for c in m.order]
    for c in m.order:
        res = m.results[c]
        if res.status != "ok":
            report.add(dl_rules.RUN_FAILED.finding(f"{c.label}: {res.status} after {res.elapsed_s:.0f} s: "
                                                   f"{res.error or 'deadline passed'}", nodes=[r.node]))
    if m.cut_short:
        report.add(dl_rules.CUT_SHORT.finding(
            f"{len(m.cut_short)} configuration(s) not measured within --max-minutes {opts.max_minutes:g}: "
            f"{', '.join(c.label for c in m.cut_short)}.", nodes=[r.node]))
    measured = m.measured()
    pick = plan.recommend(measured, opts.margin, m.shares())
    report.results["sweep"] = {
        "mode": mode, "ranks": r.nproc, "margin": opts.margin, "windows": opts.windows,
        "window_steps": opts.window_steps,
        "warmup_steps": opts.warmup_steps, "axes": asdict(r.axes), "metric": "samples_per_s", "rows": configs,
        "prediction": pred,
        "wall_s": round(time.monotonic() - m.t0, 2), "not_measured": [c.label for c in m.cut_short],
        "launches": m.sessions if m.one_launch else len(m.order),
        "recommendation": None,
    }
    if pick is None:
        return ExitCode.COULD_NOT_RUN
    res = m.results[pick]
    why = reason(pick, pred, measured, opts.stall_share, m.shares().get(pick))
    report.results["sweep"]["recommendation"] = {**pick.to_dict(), "samples_per_s": round(measured[pick], 2),
                                                 "reason": why}
    report.add(dl_rules.RECOMMENDATION.finding(
        f"num_workers={pick.num_workers}, pin_memory={pick.pin_memory}"
        + (f", prefetch_factor={pick.prefetch_factor}" if pick.prefetch_factor else "")
        + (", persistent_workers=True" if pick.persistent_workers else "") + f" — {why}", nodes=[r.node],
        evidence=[report.results["sweep"]["recommendation"]]))
    report.results["stalls"] = res.analysis
    report.ranks = res.analysis.get("ranks", [])
    report.nodes = [{"host": x["host"], "addr": x["addr"],
                     "ranks": [y["rank"] for y in report.ranks if y["node"] == x["node"]]}
                    for x in {y["node"]: y for y in report.ranks}.values()]
    for f in res.findings:  # stalls and stragglers that remain at the recommended setting
        f.message = f"At {pick.label}: {f.message}"
        report.add(f)
    report.add(*checks.check_cpu(host, pick.num_workers, r.nproc, r.node))
    batch_bytes = _batch_bytes(res)
    report.add(*checks.check_shm(host, pick.num_workers, pick.prefetch_factor, r.nproc, batch_bytes, r.node))
    return ExitCode.OK


def _batch_bytes(res: RunResult) -> int:
    from ncclDoctor.sweep.stalls import read_records

    for recs in read_records(res.folder).values():
        for rec in recs:
            if rec.get("batch_bytes"):
                return int(rec["batch_bytes"])
    return 0


def run_sweep(opts: SweepOptions, argv: list[str] | None = None, progress: Progress | None = None) -> Report:
    t0 = time.monotonic()
    report = Report(command="sweep-workers", argv=list(argv if argv is not None else sys.argv[1:]))
    report.host = collect_host_facts()
    r = resolve(opts, report.host)
    report.config = {**asdict(opts), "common": opts.common.summary(), "nproc_per_node": r.nproc,
                     "workers": list(r.axes.workers), "trainer_args": r.trainer_args}
    r.run_dir.mkdir(parents=True, exist_ok=True)
    env = child_env(dict(os.environ))
    if not opts.loader:
        r.trainer_args.append(f"--data-dir={_ensure_data(opts)}")  # generate once, outside the timed runs
    write_run_dir(report, r.run_dir)
    mode = "grid" if opts.grid else "adaptive"
    m = Measurer(r, opts, env, progress, len(plan.grid(r.axes)) if opts.grid else 4)
    outcome, pred = ExitCode.OK, None
    try:
        pred = measure_grid(m) if opts.grid else measure_adaptive(m)
    except KeyboardInterrupt:
        report.interrupted = True
        report.add(run_rules.INTERRUPTED.finding("Interrupted by the user; the sweep below is partial."))
        outcome = ExitCode.INTERRUPTED
    finally:
        m.close()
        code = conclude(report, m, pred, report.host, mode)
        outcome = outcome if outcome != ExitCode.OK else code
        report.duration_s = round(time.monotonic() - t0, 3)
        finishing(report, opts.common, r.run_dir, outcome=outcome)
    return report


def _ensure_data(opts: SweepOptions) -> str:
    from reference_train import idx, synthetic

    if opts.data_dir and idx.find_split(opts.data_dir, "train"):
        return opts.data_dir
    root = Path(opts.data_dir) if opts.data_dir else synthetic.default_dir(4096, 1024, 0)
    synthetic.ensure(root, 4096, 1024, 0)
    return str(root)
