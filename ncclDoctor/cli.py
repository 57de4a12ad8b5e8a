"""The ``ncclDoctor`` command: thin typer skins over the library.

Each command turns options into one library call and renders the result. Errors are
mapped to exit codes in one place, ``main``; see ``ncclDoctor.errors`` for the table.
"""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path
from typing import List, Optional

import typer
from rich.console import Console

from ncclDoctor import __version__
from ncclDoctor.errors import DoctorError, ExitCode

# The click exceptions typer raises: its vendored copy (typer >= 0.2x no longer depends on
# click) or click itself (older typer). Found through typer's public re-export, so the
# command never imports click, which a fresh environment does not have.
_click_exc = sys.modules[typer.BadParameter.__module__]
_usage_errors: tuple = (_click_exc.UsageError,)
_click_errors: tuple = (_click_exc.ClickException,)
_no_args: tuple = tuple(getattr(_click_exc, n) for n in ("NoArgsIsHelpError",) if hasattr(_click_exc, n))

app = typer.Typer(
    name="ncclDoctor",
    help="A cluster doctor for PyTorch distributed training.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

err = Console(stderr=True, highlight=False, soft_wrap=True)


def _emit(report, as_json: bool) -> None:
    from ncclDoctor.report.console import render_console

    if as_json:
        sys.stdout.write(report.to_json())
    else:
        render_console(report, Console(highlight=False, soft_wrap=True))


def _prometheus(report, path: Optional[Path]) -> None:
    """--prometheus for the commands without CI gates (check and diagnose write it in ci.publish)."""
    if path:
        from ncclDoctor.report.prometheus import write

        write(report, path)


def _sigterm_interrupts() -> None:
    """SIGTERM (a batch scheduler's cancel) stops a run like Ctrl-C: probes are torn
    down and the partial report is written before we exit."""
    import signal

    def handler(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, handler)


@app.command()
def check(
    nproc_per_node: Optional[int] = typer.Option(None, "--nproc-per-node", help="Ranks on this node. Default: the visible GPUs with nccl; 2 with gloo on CPU."),
    backend: Optional[str] = typer.Option(None, "--backend", help="auto | nccl | gloo. auto (default) picks nccl when CUDA and NCCL are available."),
    out: Optional[Path] = typer.Option(None, "--out", help="Run directory. Default: ./ncclDoctor-runs/check-<time>."),
    as_json: bool = typer.Option(False, "--json", help="Print report.json to stdout instead of the table."),
    fail_on: Optional[str] = typer.Option(None, "--fail-on", help="Exit 1 when a finding is at least this severe: error (default) | warning | info."),
    min_bytes: Optional[str] = typer.Option(None, "--min-bytes", "-b", help="Smallest message (nccl-tests -b). Default 1K on CPU, 8 on GPU."),
    max_bytes: Optional[str] = typer.Option(None, "--max-bytes", "-e", help="Largest message (nccl-tests -e). Default 16M on CPU, 128M on GPU."),
    step_factor: Optional[int] = typer.Option(None, "--step-factor", "-f", help="Multiply the size by this each step (nccl-tests -f). Default 4 on CPU, 2 on GPU."),
    warmup: Optional[int] = typer.Option(None, "--warmup", "-w", help="Untimed ops per size (nccl-tests -w)."),
    iters: Optional[int] = typer.Option(None, "--iters", "-n", help="Timed ops per size (nccl-tests -n)."),
    timeout: Optional[float] = typer.Option(None, "--timeout", help="Deadline in seconds for each probe phase (default: 60 s init, 30 s smoke, 180 s sweep)."),
    inject: List[str] = typer.Option([], "--inject", help="Testing aid: KIND:RANK[:ARG] with KIND hang, crash, exit, slow, mismatch, skip. Repeatable."),
    nodes: Optional[int] = typer.Option(None, "--nodes", "--nnodes", help="Nodes in the job; run the same command on each (default 1, or SLURM_NNODES under SLURM)."),
    rdzv_endpoint: Optional[str] = typer.Option(None, "--rdzv-endpoint", help="HOST:PORT of torchrun's c10d rendezvous (default under SLURM: first host:29500). The control store uses PORT+1."),
    rdzv_id: Optional[str] = typer.Option(None, "--rdzv-id", help="Rendezvous id, the same on every node (default under SLURM: slurm-<job id>)."),
    local_addr: Optional[str] = typer.Option(None, "--local-addr", help="This node's address for torchrun and reports (default: the interface GLOO/NCCL_SOCKET_IFNAME names, else the one that routes to the endpoint)."),
    structure_bytes: Optional[str] = typer.Option(None, "--structure-bytes", help="Message size for the multi-node intra/inter-node all_reduce and p2p exchanges. Default 1M on CPU, 64M on GPU."),
    op: Optional[str] = typer.Option(None, "--op", help="Collectives to sweep, comma-separated: all_reduce (default), all_gather, reduce_scatter, broadcast, alltoall, sendrecv, or all."),
    expected_below: Optional[float] = typer.Option(None, "--expected-below", help="BW301 when peak busbw is below this % of the platform's published reference (default 90, as nccl-tests' NCCL_TESTS_MIN_BW)."),
    select: List[str] = typer.Option([], "--select", help="Keep only findings with these codes or prefixes (ENV, BW101). Repeatable or comma-separated."),
    ignore: List[str] = typer.Option([], "--ignore", help="Drop findings with these codes or prefixes. Repeatable or comma-separated."),
    min_busbw: Optional[float] = typer.Option(None, "--min-busbw", help="Fail (BW101) when the best busbw, in GB/s, is below this."),
    baseline: Optional[Path] = typer.Option(None, "--baseline", help="Compare busbw per size and node with a saved baseline: a --save-baseline file, a run directory, or nccl-tests output (text or -J JSON)."),
    max_regression: Optional[float] = typer.Option(None, "--max-regression", help="With --baseline: fail (BW102) when busbw drops by more than this percentage. Default 10."),
    save_baseline: Optional[Path] = typer.Option(None, "--save-baseline", help="Save this run's busbw as a baseline file for later --baseline runs."),
    junit: Optional[Path] = typer.Option(None, "--junit", help="Write JUnit XML (one test case per finding) to this file."),
    prometheus: Optional[Path] = typer.Option(None, "--prometheus", help="Also write the results as a node_exporter textfile (metrics ncclDoctor_*), written whole."),
    config: Optional[Path] = typer.Option(None, "--config", help="Settings file (ncclDoctor.toml or a pyproject.toml). Default: the nearest one with ncclDoctor settings."),
    no_config: bool = typer.Option(False, "--no-config", help="Ignore ncclDoctor.toml and [tool.ncclDoctor] settings."),
) -> None:
    """Probe collectives under torchrun (one node, or --nodes N on every node): busbw, settings lint, consistency across nodes, slow node/link, verdict."""
    from ncclDoctor.check import run_check
    from ncclDoctor.config import check_options, load_config

    cli_values = dict(
        nproc_per_node=nproc_per_node, backend=backend, out=str(out) if out else None, fail_on=fail_on,
        min_bytes=min_bytes, max_bytes=max_bytes, step_factor=step_factor, warmup=warmup, iters=iters,
        timeout=timeout, inject=list(inject), select=list(select), ignore=list(ignore), min_busbw=min_busbw,
        baseline=str(baseline) if baseline else None, max_regression=max_regression,
        save_baseline=str(save_baseline) if save_baseline else None, junit=str(junit) if junit else None, nnodes=nodes,
        rdzv_endpoint=rdzv_endpoint, rdzv_id=rdzv_id, local_addr=local_addr, structure_bytes=structure_bytes,
        ops=op, expected_below_pct=expected_below, prometheus=str(prometheus) if prometheus else None,
    )
    opts = check_options(cli_values, load_config(config, no_config=no_config))
    _sigterm_interrupts()
    progress = None if as_json else (lambda msg: err.print(f"ncclDoctor {__version__}: {msg}"))
    report = run_check(opts, argv=sys.argv[1:], progress=progress)
    _emit(report, as_json)
    if not as_json:
        for label, path in (("JUnit XML", opts.gates.junit), ("baseline", opts.gates.save_baseline),
                            ("Prometheus textfile", opts.gates.prometheus)):
            if path and Path(path).exists():
                err.print(f"{label}: {path}")
    full = report.results.get("multinode", {}).get("full_report")
    if full and not as_json:
        err.print(f"ncclDoctor: this node's summary above; the full report is on {full['node']} in {full['run_dir']}")
    raise typer.Exit(report.exit_code)


@app.command("launch-spec")
def launch_spec(
    slurm: bool = typer.Option(False, "--slurm", help="Print an sbatch script (srun, one ncclDoctor per node)."),
    k8s: bool = typer.Option(False, "--k8s", help="Print a Kubeflow PyTorchJob manifest."),
    nodes: int = typer.Option(2, "--nodes", "--nnodes", help="Number of nodes."),
    nproc_per_node: Optional[int] = typer.Option(None, "--nproc-per-node", help="Ranks per node (default: the visible GPUs)."),
    gpus_per_node: Optional[int] = typer.Option(None, "--gpus-per-node", help="GPUs to request per node."),
    image: str = typer.Option("YOUR_IMAGE_WITH_ncclDoctor", "--image", help="Container image (--k8s)."),
    time_limit: str = typer.Option("00:15:00", "--time", help="Wall-time limit (--slurm)."),
) -> None:
    """Print a ready job spec that runs `ncclDoctor check` on every node."""
    from ncclDoctor.errors import UsageError
    from ncclDoctor.launch import k8s as k8s_spec
    from ncclDoctor.launch import slurm as slurm_spec

    if slurm == k8s:
        raise UsageError("choose exactly one of --slurm or --k8s")
    if nodes < 1:
        raise UsageError(f"--nodes must be at least 1, got {nodes}")
    if slurm:
        sys.stdout.write(slurm_spec.sbatch_script(nodes, nproc_per_node, gpus_per_node, time_limit))
    else:
        sys.stdout.write(k8s_spec.pytorchjob_manifest(nodes, nproc_per_node, image, gpus_per_node=gpus_per_node))


@app.command("sweep-workers")
def sweep_workers(
    nproc_per_node: Optional[int] = typer.Option(None, "--nproc-per-node", help="Ranks of the trainer. Default: the visible GPUs with CUDA; 2 on CPU."),
    workers: Optional[str] = typer.Option(None, "--workers", help="num_workers choices, e.g. 0,1,2,4. Default 0..max(4, 2 x cores / ranks), at most 8."),
    pin_memory: str = typer.Option("auto", "--pin-memory", help="auto | true | false | both. auto: both on GPU; on CPU pin_memory is a no-op and stays False."),
    prefetch_factor: Optional[str] = typer.Option(None, "--prefetch-factor", help="Also sweep these prefetch_factor values, e.g. 2,4 (default: torch's 2)."),
    persistent_workers: str = typer.Option("false", "--persistent-workers", help="false | true | both."),
    grid: bool = typer.Option(False, "--grid", help="Measure every combination instead of the adaptive search."),
    max_minutes: float = typer.Option(5.0, "--max-minutes", help="Bound on the whole sweep's wall time."),
    margin: float = typer.Option(0.05, "--margin", help="Recommend the fewest workers within this fraction of the best throughput."),
    windows: int = typer.Option(3, "--windows", help="Measurement windows per configuration (median and spread)."),
    window_steps: int = typer.Option(20, "--window-steps", help="Steps per measurement window."),
    warmup_steps: int = typer.Option(5, "--warmup-steps", help="Steps excluded as warm-up (worker start-up, first prefetches)."),
    batch_size: int = typer.Option(32, "--batch-size", help="Per-rank batch size of the reference trainer."),
    sample_cost_ms: float = typer.Option(0.0, "--sample-cost-ms", help="Reference trainer: extra decode/augment work per sample, in ms."),
    sample_cost_kind: str = typer.Option("cpu", "--sample-cost-kind", help="cpu (busy work) | io (a sleep, like slow storage)."),
    data_dir: Optional[Path] = typer.Option(None, "--data-dir", help="MNIST IDX files (MNIST/raw layout); synthetic data when absent."),
    loader: Optional[str] = typer.Option(None, "--loader", help="module:function building your own DataLoader (see reference_train)."),
    step_ms: float = typer.Option(10.0, "--step-ms", help="With --loader: the stand-in compute per step, in ms (set it to your real step time)."),
    out: Optional[Path] = typer.Option(None, "--out", help="Run directory. Default: ./ncclDoctor-runs/sweep-workers-<time>."),
    as_json: bool = typer.Option(False, "--json", help="Print report.json to stdout instead of the table."),
    fail_on: str = typer.Option("error", "--fail-on", help="Exit 1 when a finding is at least this severe: error | warning | info."),
    prometheus: Optional[Path] = typer.Option(None, "--prometheus", help="Also write the results as a node_exporter textfile (metrics ncclDoctor_*), written whole."),
) -> None:
    """Measure DataLoader num_workers x pin_memory on the reference DDP trainer under torchrun; recommend the smallest that keeps up."""
    from ncclDoctor.sweep import SweepOptions, run_sweep

    opts = SweepOptions(
        nproc_per_node=nproc_per_node, workers=workers, pin_memory=pin_memory, prefetch_factor=prefetch_factor,
        persistent_workers=persistent_workers, grid=grid, max_minutes=max_minutes, margin=margin, windows=windows,
        window_steps=window_steps, warmup_steps=warmup_steps, batch_size=batch_size, sample_cost_ms=sample_cost_ms,
        sample_cost_kind=sample_cost_kind, data_dir=str(data_dir) if data_dir else None, loader=loader, step_ms=step_ms,
        out=str(out) if out else None, fail_on=fail_on,
    )
    with _sweep_progress(quiet=as_json) as progress:
        report = run_sweep(opts, argv=sys.argv[1:], progress=progress)
    _prometheus(report, prometheus)
    _emit(report, as_json)
    raise typer.Exit(report.exit_code)


def _sweep_progress(quiet: bool):
    """A rich progress bar on stderr when it is a terminal; one line per run otherwise."""
    import contextlib

    if quiet:
        return contextlib.nullcontext(None)
    if not sys.stderr.isatty():
        def line(done, total, label, res):
            if res is not None:
                err.print(f"  [{done}/{total}] {label}: {res.status}, {res.samples_per_s:.0f} samples/s ({res.elapsed_s:.1f} s)")
        return contextlib.nullcontext(line)
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    @contextlib.contextmanager
    def bar():
        with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"), TimeElapsedColumn(), console=err, transient=True) as p:
            task = p.add_task("sweep", total=1)

            def update(done, total, label, res):
                desc = f"{label}: {res.samples_per_s:.0f} samples/s" if res is not None else f"running {label}"
                p.update(task, completed=done, total=total, description=desc)
                if res is not None:
                    p.console.print(f"  {label}: {res.status}, {res.samples_per_s:.0f} samples/s ({res.elapsed_s:.1f} s)")
            yield update

    return bar()


@app.command()
def stalls(
    run_dir: Path = typer.Argument(..., help="A run directory written by ncclDoctor.monitor.Monitor (holds monitor/rank-*.jsonl)."),
    stall_share: float = typer.Option(0.10, "--stall-share", help="Data-wait share of step time above which a rank is stalled."),
    as_json: bool = typer.Option(False, "--json", help="Print report.json to stdout instead of the table."),
    fail_on: str = typer.Option("error", "--fail-on", help="Exit 1 when a finding is at least this severe: error | warning | info."),
) -> None:
    """Analyse a monitored training run: dataloader stalls, stragglers, unequal batch counts."""
    from ncclDoctor.monitor import build_report

    report = build_report(run_dir, stall_share=stall_share, fail_on=fail_on, argv=sys.argv[1:])
    _emit(report, as_json)
    raise typer.Exit(report.exit_code)


@app.command("env")
def env_cmd(
    nproc_per_node: Optional[int] = typer.Option(None, "--nproc-per-node", help="Ranks you will start per node: checked against the GPUs NVML sees."),
    pg_timeout: Optional[float] = typer.Option(None, "--pg-timeout", help="Your init_process_group timeout in seconds, checked against the InfiniBand retry window (torch's default: 600 for nccl)."),
    out: Optional[Path] = typer.Option(None, "--out", help="Also write report.json and report.md into this run directory."),
    as_json: bool = typer.Option(False, "--json", help="Print report.json to stdout instead of the table."),
    fail_on: str = typer.Option("error", "--fail-on", help="Exit 1 when a finding is at least this severe: error | warning | info."),
    dataloader_workers: Optional[int] = typer.Option(None, "--dataloader-workers", help="DataLoader num_workers per rank: with --batch-mib, sizes /dev/shm for them."),
    batch_mib: Optional[float] = typer.Option(None, "--batch-mib", help="Size of one batch in MiB (with --dataloader-workers)."),
    prefetch_factor: int = typer.Option(2, "--prefetch-factor", help="DataLoader prefetch_factor (torch's default: 2)."),
    prometheus: Optional[Path] = typer.Option(None, "--prometheus", help="Also write the results as a node_exporter textfile (metrics ncclDoctor_*), written whole."),
) -> None:
    """Lint the distributed settings (environment and nccl.conf) and check host health: GPUs, RDMA ports, /dev/shm, memlock."""
    import dataclasses

    from ncclDoctor.envcheck import EnvOptions, run_env
    from ncclDoctor.report.console import render_console
    from ncclDoctor.report.settings import settings_lines

    opts = EnvOptions(
        nproc_per_node=nproc_per_node, pg_timeout_s=pg_timeout, fail_on=fail_on, out=str(out) if out else None,
        dataloader_workers=dataloader_workers, batch_mib=batch_mib, prefetch_factor=prefetch_factor,
    )
    report = run_env(opts, argv=sys.argv[1:])
    _prometheus(report, prometheus)
    if as_json:
        sys.stdout.write(report.to_json())
    else:
        con = Console(highlight=False)
        for line in settings_lines(report):
            con.print(line, markup=False, highlight=False, soft_wrap=True)
        render_console(dataclasses.replace(report, settings=[]), con)
    raise typer.Exit(report.exit_code)


@app.command()
def diagnose(
    paths: List[str] = typer.Argument(..., help="Log files (.gz too), directories (recursive), '-' for stdin, Flight Recorder dumps, ncclDoctor run directories."),
    out: Optional[Path] = typer.Option(None, "--out", help="Run directory. Default: ./ncclDoctor-runs/diagnose-<time>."),
    as_json: bool = typer.Option(False, "--json", help="Print report.json to stdout instead of the table."),
    fail_on: str = typer.Option("error", "--fail-on", help="Exit 1 when a finding is at least this severe: error | warning | info."),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", min=1, help="Worker processes for reading files. Default: one per CPU when the input passes 64 MiB, else 1."),
    select: List[str] = typer.Option([], "--select", help="Keep only findings with these codes or prefixes (LOG001, LOG). Repeatable or comma-separated."),
    ignore: List[str] = typer.Option([], "--ignore", help="Drop findings with these codes or prefixes. Repeatable or comma-separated."),
    junit: Optional[Path] = typer.Option(None, "--junit", help="Write JUnit XML (one test case per finding) to this file."),
    prometheus: Optional[Path] = typer.Option(None, "--prometheus", help="Also write the results as a node_exporter textfile (metrics ncclDoctor_*), written whole."),
) -> None:
    """Explain a failed run from its logs and Flight Recorder dumps: culprit rank, evidence, next steps."""
    from ncclDoctor.check import default_run_dir
    from ncclDoctor.ci import Gates, publish
    from ncclDoctor.config import split_codes
    from ncclDoctor.diagnose import diagnose as run_diagnose
    from ncclDoctor.diagnose.timeline import console_lines
    from ncclDoctor.errors import UsageError
    from ncclDoctor.findings import Severity
    from ncclDoctor.report.model import write_run_dir

    try:
        severity = Severity.parse(fail_on)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    gates = Gates(select=split_codes(select), ignore=split_codes(ignore), junit=str(junit) if junit else None,
                  prometheus=str(prometheus) if prometheus else None).prepare()
    report = run_diagnose(list(paths), fail_on=severity, argv=sys.argv[1:], jobs=jobs, gates=gates)
    write_run_dir(report, out or default_run_dir("diagnose"))
    written = publish(report, gates)
    if not as_json:
        con = Console(highlight=False)
        for line in console_lines(report.results["diagnose"]):
            con.print(line, markup=False, soft_wrap=True)
    _emit(report, as_json)
    if not as_json:
        for path in written:
            err.print(f"{'Prometheus textfile' if path == str(Path(gates.prometheus or '')) else 'JUnit XML'}: {path}")
    raise typer.Exit(report.exit_code)


@app.command()
def explain(code: str = typer.Argument(..., help="A finding code such as ENV001, or 'all' to list every rule.")) -> None:
    """Print a rule's full text: what it means, why it matters, how to fix it."""
    from ncclDoctor.errors import UsageError
    from ncclDoctor.findings import explain as explain_rule
    from ncclDoctor.findings import load_all_rules

    con = Console(highlight=False)
    if code.lower() == "all":
        for c, r in sorted(load_all_rules().items()):
            con.print(f"{c}  {r.severity.value:7}  {r.title}")
        return
    try:
        r = explain_rule(code)
    except KeyError as exc:
        raise UsageError(exc.args[0]) from None
    con.print(f"[bold]{r.code}[/bold] ({r.severity.value}): {r.title}\n\n[bold]Why it matters[/bold]\n{r.why}\n\n[bold]How to fix[/bold]\n{r.fix}")


@app.command()
def report(
    run_dir: Path = typer.Argument(..., help="A run directory (or its report.json)."),
    fmt: str = typer.Option("terminal", "--format", help="terminal | markdown | json | html"),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write to this file instead of stdout."),
) -> None:
    """Re-render the report of an earlier run directory."""
    from ncclDoctor.errors import UsageError
    from ncclDoctor.fsutil import write_text_atomic
    from ncclDoctor.report.model import Report, render

    if fmt not in ("terminal", "markdown", "json", "html"):
        raise UsageError(f"unknown --format {fmt!r}: expected terminal, markdown, json or html")
    try:
        rep = Report.load(run_dir)
    except FileNotFoundError:
        raise UsageError(f"no report.json in {run_dir}") from None
    except (ValueError, KeyError, TypeError) as exc:
        raise UsageError(f"cannot read the report in {run_dir}: {exc}") from None
    try:  # render fully before writing anything: a malformed file is bad input, not a crash
        if fmt == "terminal":
            from ncclDoctor.report.console import render_console

            buf = io.StringIO()
            render_console(rep, Console(file=buf, width=160, color_system=None, highlight=False))
            text = buf.getvalue()
        else:
            text = render(rep, fmt)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        what = f"field {exc}" if isinstance(exc, KeyError) else f"{type(exc).__name__}: {exc}"
        raise UsageError(f"the report in {run_dir} does not follow the report schema (see `ncclDoctor schema`): {what}") from None
    if output is None and fmt == "terminal":
        _emit(rep, False)  # again, to the real terminal (colour, its width)
    elif output is None:
        sys.stdout.write(text)
    else:
        write_text_atomic(output, text)
        err.print(f"wrote {output}")


@app.command()
def schema() -> None:
    """Print the JSON Schema of report.json (for dashboards and validators)."""
    from ncclDoctor.report.model import schema_text

    sys.stdout.write(schema_text())


@app.command()
def version() -> None:
    """Print the versions of ncclDoctor and torch."""
    import torch

    print(f"ncclDoctor {__version__} (torch {torch.__version__})")


def main(argv: list[str] | None = None) -> int:
    """Entry point: runs the app and maps every error to one line and an exit code."""
    code: int
    try:
        rv = app(args=argv, standalone_mode=False, prog_name="ncclDoctor")
        code = rv if isinstance(rv, int) else 0
    except _no_args as exc:
        ctx = getattr(exc, "ctx", None)
        typer.echo(ctx.get_help() if ctx else str(exc), err=True)
        code = ExitCode.USAGE
    except _usage_errors as exc:
        err.print(f"ncclDoctor: error: {exc.format_message()}", markup=False)
        code = ExitCode.USAGE
    except (typer.Abort, KeyboardInterrupt):  # typer.Abort is click's Abort in typer < 0.2x
        err.print("ncclDoctor: interrupted")
        code = ExitCode.INTERRUPTED
    except DoctorError as exc:
        err.print(f"ncclDoctor: error: {exc}", markup=False)
        code = exc.exit_code
    except _click_errors as exc:
        err.print(f"ncclDoctor: error: {exc.format_message()}", markup=False)
        code = ExitCode.USAGE
    except Exception as exc:  # a bug in ncclDoctor: one line, traceback only on request
        if os.environ.get("NCCLDOCTOR_DEBUG"):
            raise
        err.print(f"ncclDoctor: internal error: {type(exc).__name__}: {exc} (set NCCLDOCTOR_DEBUG=1 for the traceback; please report it)", markup=False)
        code = ExitCode.INTERNAL
    if argv is None:
        sys.exit(int(code))
    return int(code)


if __name__ == "__main__":
    main()
