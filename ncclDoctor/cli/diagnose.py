"""``ncclDoctor diagnose``: explain a failed run from its logs and Flight Recorder dumps."""

from __future__ import annotations

import sys
from typing import Annotated, List, Optional

import typer
from rich.console import Console

from ncclDoctor.cli.app import app, render_and_exit
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
from ncclDoctor.errors import ExitCode


@app.command()
def diagnose(
    paths: Annotated[
        List[str],
        typer.Argument(
            help="Log files (.gz too), directories (recursive), '-' for stdin, Flight Recorder dumps, "
            "ncclDoctor run directories."
        ),
    ],
    jobs: Annotated[
        Optional[int],
        typer.Option(
            "--jobs",
            "-j",
            min=1,
            help="Worker processes for reading files. Default: one per CPU when the input passes 64 MiB, else 1.",
        ),
    ] = None,
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
    """Explain a failed run from its logs and Flight Recorder dumps: culprit rank, evidence, next steps.
    Writes a run directory (default ./ncclDoctor-runs/diagnose-<time>).

    Example: ncclDoctor diagnose job-1234/logs/ fr-dumps/ --select LOG --junit reports/diagnose.xml
    """
    from ncclDoctor.diagnose import diagnose as run_diagnose
    from ncclDoctor.diagnose.timeline import console_lines
    from ncclDoctor.finish import default_run_dir, finishing

    c = common(out, as_json, fail_on, select, ignore, junit, config, no_config, prometheus)
    report = run_diagnose(list(paths), fail_on=c.severity, argv=sys.argv[1:], jobs=jobs)
    stopped = report.exit_code == ExitCode.INTERNAL  # the verdict's reasoning hit a bug (LOG033): the rest is kept
    written = finishing(report, c, c.out or default_run_dir("diagnose"),
                        outcome=ExitCode.INTERNAL if stopped else ExitCode.OK)
    if not as_json:
        con = Console(highlight=False)
        for line in console_lines(report.results["diagnose"]):
            con.print(line, markup=False, soft_wrap=True)
    render_and_exit(report, as_json, written)
