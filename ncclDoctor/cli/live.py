"""``ncclDoctor run`` and ``attach``: a user's own torchrun job, watched or inspected (ncclDoctor.live)."""

from __future__ import annotations

import sys
from typing import Annotated, List, Optional

import typer

from ncclDoctor.cli.app import announce, app, err, render_and_exit
from ncclDoctor.cli.common import (
    ConfigOpt,
    FailOnOpt,
    IgnoreOpt,
    JsonOpt,
    JunitOpt,
    NoConfigOpt,
    OutOpt,
    SelectOpt,
    common,
)

Opt = typer.Option
RAW_ARGV: list[str] = []  # set by cli.main: `run` must see whether `--` was given (click drops it)


@app.command("run", context_settings={"allow_interspersed_args": False})
def run_cmd(
    launch: Annotated[
        Optional[List[str]],
        typer.Argument(help="The job's launch line after `--`: torchrun … or python -m torch.distributed.run …"),
    ] = None,
    stall_after: Annotated[
        Optional[float],
        Opt("--stall-after", help="Call a hang after this many seconds without progress (default: learned, >= 15 s)."),
    ] = None,
    on_hang: Annotated[
        str, Opt("--on-hang", help="report (default: write the report, leave the job to its own timeout) | kill.")
    ] = "report",
    poll: Annotated[float, Opt("--poll", help="Seconds between the workers' progress reports.")] = 0.5,
    no_capture: Annotated[
        bool, Opt("--no-capture", help="Leave the job's stdout/stderr on the terminal (no output.log).")
    ] = False,
    no_signal: Annotated[
        bool, Opt("--no-signal", help="Never send the stack-dump signal, even to workers ncclDoctor prepared.")
    ] = False,
    quiet: Annotated[bool, Opt("--quiet", "-q", help="No 'waiting on rank' lines; the verdict only.")] = False,
    collector_port: Annotated[
        int, Opt("--collector-port", help="Multi-node, reporting node: UDP port for the heartbeats of every node.")
    ] = 0,
    report_to: Annotated[
        Optional[str],
        Opt("--report-to", help="Multi-node, other nodes: HOST:PORT of the reporting node's --collector-port."),
    ] = None,
    out: OutOpt = None,
    fail_on: FailOnOpt = None,
    select: SelectOpt = None,
    ignore: IgnoreOpt = None,
    junit: JunitOpt = None,
    config: ConfigOpt = None,
    no_config: NoConfigOpt = False,
) -> None:
    """Run a torchrun job unchanged and name the hung rank within seconds. Exits with the job's exit code.

    Example: ncclDoctor run -- torchrun --nproc-per-node 8 train.py --lr 0.1
    """
    from ncclDoctor.errors import UsageError
    from ncclDoctor.live.run import RunOptions, run_job, say_stderr

    if "--" not in RAW_ARGV:
        raise UsageError("put the job's launch line after `--`: ncclDoctor run [options] -- torchrun …")
    c = common(out, False, fail_on, select, ignore, junit, config, no_config)
    opts = RunOptions(launch=list(launch or []), out=str(out) if out else None, stall_after_s=stall_after,
                      on_hang=on_hang, poll_s=poll, capture=not no_capture, signal_dump=not no_signal, quiet=quiet,
                      collector_port=collector_port, report_to=report_to, common=c)
    report, code = run_job(opts, sys.argv[1:], say_stderr(quiet))
    err.print(f"ncclDoctor: {report.verdict}: {len(report.findings)} finding(s); report: {report.run_dir}/report.md",
              markup=False)
    announce(report.config.get("published", []), False)
    raise typer.Exit(code)


@app.command()
def attach(
    pid: Annotated[int, typer.Argument(help="The pid of torchrun (its agent) or of one of its workers.")],
    watch_s: Annotated[
        float, Opt("--watch", help="Seconds to sample the workers' thread states (CPU time moving or not).")
    ] = 3.0,
    inject: Annotated[
        bool, Opt("--inject", help="Opt-in: read each worker's Flight Recorder and stacks through gdb (stops it "
                                   "briefly).")
    ] = False,
    inject_timeout: Annotated[
        float, Opt("--inject-timeout", help="With --inject: seconds for gdb in all workers together (they run at "
                                            "once); then gdb starts no call, ends the one under way and detaches.")
    ] = 60.0,
    out: OutOpt = None,
    as_json: JsonOpt = False,
    fail_on: FailOnOpt = None,
    select: SelectOpt = None,
    ignore: IgnoreOpt = None,
    junit: JunitOpt = None,
    config: ConfigOpt = None,
    no_config: NoConfigOpt = False,
) -> None:
    """Inspect a running torchrun job started without ncclDoctor: ranks, stacks, who waits on whom. Sends no signal.

    Example: ncclDoctor attach $(pgrep -f torchrun | head -1) --watch 5
    """
    from ncclDoctor.live.attach import attach_job

    c = common(out, as_json, fail_on, select, ignore, junit, config, no_config)
    report, written = attach_job(pid, out=str(out) if out else None, watch_s=watch_s, argv=sys.argv[1:],
                                 inject=inject, common=c, inject_timeout_s=inject_timeout,
                                 say=lambda msg: err.print(f"ncclDoctor: {msg}", markup=False))
    render_and_exit(report, as_json, written)
