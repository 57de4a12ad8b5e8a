"""``ncclDoctor sweep-workers`` and ``ncclDoctor stalls``: the input pipeline."""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from ncclDoctor.cli.app import app, err, render_and_exit
from ncclDoctor.cli.common import (
    ConfigOpt,
    FailOnOpt,
    IgnoreOpt,
    JsonOpt,
    JunitOpt,
    NoConfigOpt,
    OutOpt,
    PrometheusOpt,
    SelectOpt,
    common,
)

Opt = typer.Option


@app.command("sweep-workers")
def sweep_workers(
    nproc_per_node: Annotated[
        Optional[int],
        Opt("--nproc-per-node", help="Ranks of the trainer. Default: the visible GPUs with CUDA; 2 on CPU."),
    ] = None,
    workers: Annotated[
        Optional[str],
        Opt("--workers", help="num_workers choices, e.g. 0,1,2,4. Default 0..max(4, 2 x cores / ranks), at most 8."),
    ] = None,
    pin_memory: Annotated[
        str,
        Opt(
            "--pin-memory",
            help="auto | true | false | both. auto: both on GPU; on CPU pin_memory is a no-op and stays False.",
        ),
    ] = "auto",
    prefetch_factor: Annotated[
        Optional[str],
        Opt("--prefetch-factor", help="Also sweep these prefetch_factor values, e.g. 2,4 (default: torch's 2)."),
    ] = None,
    persistent_workers: Annotated[str, Opt("--persistent-workers", help="false | true | both.")] = "false",
    grid: Annotated[bool, Opt("--grid", help="Measure every combination instead of the adaptive search.")] = False,
    max_minutes: Annotated[float, Opt("--max-minutes", help="Bound on the whole sweep's wall time.")] = 5.0,
    margin: Annotated[
        float, Opt("--margin", help="Recommend the fewest workers within this fraction of the best throughput.")
    ] = 0.05,
    windows: Annotated[int, Opt("--windows", help="Measurement windows per configuration (median and spread).")] = 3,
    window_steps: Annotated[int, Opt("--window-steps", help="Steps per measurement window.")] = 20,
    warmup_steps: Annotated[
        int, Opt("--warmup-steps", help="Steps excluded as warm-up (worker start-up, first prefetches).")
    ] = 5,
    batch_size: Annotated[int, Opt("--batch-size", help="Per-rank batch size of the reference trainer.")] = 32,
    sample_cost_ms: Annotated[
        float, Opt("--sample-cost-ms", help="Reference trainer: extra decode/augment work per sample, in ms.")
    ] = 0.0,
    sample_cost_kind: Annotated[
        str, Opt("--sample-cost-kind", help="cpu (busy work) | io (a sleep, like slow storage).")
    ] = "cpu",
    data_dir: Annotated[
        Optional[Path], Opt("--data-dir", help="MNIST IDX files (MNIST/raw layout); synthetic data when absent.")
    ] = None,
    loader: Annotated[
        Optional[str], Opt("--loader", help="module:function building your own DataLoader (see reference_train).")
    ] = None,
    step_ms: Annotated[
        float,
        Opt("--step-ms", help="With --loader: the stand-in compute per step, in ms (set it to your real step time)."),
    ] = 10.0,
    out: OutOpt = None,
    as_json: JsonOpt = False,
    fail_on: FailOnOpt = None,
    select: SelectOpt = None,
    ignore: IgnoreOpt = None,
    junit: JunitOpt = None,
    prometheus: PrometheusOpt = None,
    config: ConfigOpt = None,
    no_config: NoConfigOpt = False,
) -> None:
    """Measure DataLoader num_workers x pin_memory on the reference DDP trainer under torchrun; recommend
    the smallest that keeps up. Writes a run directory (default ./ncclDoctor-runs/sweep-workers-<time>).

    Example: ncclDoctor sweep-workers --nproc-per-node 2 --workers 0,1,2,4 --max-minutes 3
    """
    from ncclDoctor.sweep import SweepOptions, run_sweep

    c = common(out, as_json, fail_on, select, ignore, junit, config, no_config, prometheus)
    opts = SweepOptions(
        nproc_per_node=nproc_per_node,
        workers=workers,
        pin_memory=pin_memory,
        prefetch_factor=prefetch_factor,
        persistent_workers=persistent_workers,
        grid=grid,
        max_minutes=max_minutes,
        margin=margin,
        windows=windows,
        window_steps=window_steps,
        warmup_steps=warmup_steps,
        batch_size=batch_size,
        sample_cost_ms=sample_cost_ms,
        sample_cost_kind=sample_cost_kind,
        data_dir=str(data_dir) if data_dir else None,
        loader=loader,
        step_ms=step_ms,
        common=c,
    )
    with _sweep_progress(quiet=as_json) as progress:
        report = run_sweep(opts, argv=sys.argv[1:], progress=progress)
    render_and_exit(report, as_json, [c.junit] if c.junit else [])


def _measured(res) -> str:
    """One configuration's outcome, as both progress views print it."""
    return f"{res.status}, {res.samples_per_s:.0f} samples/s ({res.elapsed_s:.1f} s)"


def _progress_line(done, total, label, res):
    if res is not None:
        err.print(f"  [{done}/{total}] {label}: {_measured(res)}")


@contextlib.contextmanager
def _progress_bar():
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=err, transient=True) as p:
        task = p.add_task("sweep", total=1)

        def update(done, total, label, res):
            desc = f"{label}: {res.samples_per_s:.0f} samples/s" if res is not None else f"running {label}"
            p.update(task, completed=done, total=total, description=desc)
            if res is not None:
                p.console.print(f"  {label}: {_measured(res)}")

        yield update


def _sweep_progress(quiet: bool):
    """A rich progress bar on stderr when it is a terminal; one line per run otherwise."""
    if quiet:
        return contextlib.nullcontext(None)
    if not sys.stderr.isatty():
        return contextlib.nullcontext(_progress_line)
    return _progress_bar()


@app.command()
def stalls(
    run_dir: Annotated[
        Path, typer.Argument(help="A run directory written by ncclDoctor.monitor.Monitor (holds monitor/rank-*.jsonl).")
    ],
    stall_share: Annotated[
        float, Opt("--stall-share", help="Data-wait share of step time above which a rank is stalled.")
    ] = 0.10,
    out: OutOpt = None,
    as_json: JsonOpt = False,
    fail_on: FailOnOpt = None,
    select: SelectOpt = None,
    ignore: IgnoreOpt = None,
    junit: JunitOpt = None,
    prometheus: PrometheusOpt = None,
    config: ConfigOpt = None,
    no_config: NoConfigOpt = False,
) -> None:
    """Analyse a monitored training run: dataloader stalls, stragglers, unequal batch counts. The report
    is written into RUN_DIR (or --out).

    Example: ncclDoctor stalls runs/my-job --fail-on warning
    """
    from ncclDoctor.sweep.stalls import run_stalls

    c = common(out, as_json, fail_on, select, ignore, junit, config, no_config, prometheus)
    report = run_stalls(run_dir, stall_share=stall_share, common=c, argv=sys.argv[1:])
    render_and_exit(report, as_json, [c.junit] if c.junit else [])
