"""The typer app every command module registers on, and the helpers their bodies share."""

from __future__ import annotations

import sys
from typing import NoReturn

import typer
from rich.console import Console

app = typer.Typer(
    name="ncclDoctor",
    help="A cluster doctor for PyTorch distributed training.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

err = Console(stderr=True, highlight=False, soft_wrap=True)


def emit(report, as_json: bool) -> None:
    """report.json on stdout with --json, else the terminal view."""
    from ncclDoctor.report.console import render_console

    if as_json:
        sys.stdout.write(report.to_json())
    else:
        render_console(report, Console(highlight=False, soft_wrap=True))


def announce(written: list[str], as_json: bool, label: str = "JUnit XML") -> None:
    """Say on stderr which extra files (--junit, --prometheus) were written."""
    if not as_json:
        for path in written:
            err.print(f"{'Prometheus textfile' if str(path).endswith('.prom') else label}: {path}")


def render_and_exit(report, as_json: bool, written: list[str]) -> NoReturn:
    """The end of a report command: the report (``emit``), the extra files it wrote
    (``announce``), then exit with the report's code (--fail-on)."""
    emit(report, as_json)
    announce(written, as_json)
    raise typer.Exit(report.exit_code)


def sigterm_interrupts() -> None:
    """SIGTERM (a batch scheduler's cancel) stops a run like Ctrl-C: probes are torn
    down and the partial report is written before we exit."""
    import signal

    def handler(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, handler)
