"""``ncclDoctor report`` (re-render a run directory) and ``ncclDoctor schema``."""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console

from ncclDoctor.cli.app import announce, app, emit, err
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
from ncclDoctor.errors import UsageError

FORMATS = ("terminal", "markdown", "json", "html")


@app.command()
def report(
    run_dir: Annotated[Path, typer.Argument(help="A run directory (or its report.json).")],
    fmt: Annotated[str, typer.Option("--format", help="terminal | markdown | json | html")] = "terminal",
    output: Annotated[
        Optional[Path], typer.Option("--output", "-o", help="Write to this file instead of stdout.")
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
    """Re-render the report of an earlier run directory. Given --select/--ignore/--fail-on/--junit/--out,
    judge it again first (exit 1 on findings at or above --fail-on) and write those files; settings files
    do not re-judge a stored report.

    Example: ncclDoctor report ncclDoctor-runs/check-20260101-120000-ab12 --format html -o check.html
    """
    c = common(out, as_json, fail_on, select, ignore, junit, config, no_config, prometheus)
    fmt = "json" if as_json else fmt
    if fmt not in FORMATS:
        raise UsageError(f"unknown --format {fmt!r}: expected terminal, markdown, json or html")
    rep = _load(run_dir)
    rejudge = fail_on is not None or bool(select or ignore or junit or out)
    written, text = _judge_and_render(rep, c if rejudge else None, fmt, run_dir)
    if output is None and fmt == "terminal":
        emit(rep, False)  # again, to the real terminal (colour, its width)
    elif output is None:
        sys.stdout.write(text)
    else:
        from ncclDoctor.fsutil import write_text_atomic

        write_text_atomic(output, text)
        err.print(f"wrote {output}")
    announce(written, fmt == "json" and output is None)
    raise typer.Exit(rep.exit_code if fail_on is not None else 0)


def _load(run_dir: Path):
    from ncclDoctor.report.model import Report

    try:
        return Report.load(run_dir)
    except FileNotFoundError:
        raise UsageError(f"no report.json in {run_dir}") from None
    except (ValueError, KeyError, TypeError) as exc:
        raise UsageError(f"cannot read the report in {run_dir}: {exc}") from None


def _judge_and_render(rep, c, fmt: str, run_dir: Path) -> tuple[list[str], str]:
    """Judge and render fully before printing anything: a malformed file is bad input, not a crash."""
    from ncclDoctor.finish import refinishing
    from ncclDoctor.report.console import render_console
    from ncclDoctor.report.write import render

    try:
        written = refinishing(rep, c, c.out) if c is not None else []
        if fmt != "terminal":
            return written, render(rep, fmt)
        buf = io.StringIO()
        render_console(rep, Console(file=buf, width=160, color_system=None, highlight=False))
        return written, buf.getvalue()
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        what = f"field {exc}" if isinstance(exc, KeyError) else f"{type(exc).__name__}: {exc}"
        raise UsageError(
            f"the report in {run_dir} does not follow the report schema (see `ncclDoctor schema`): {what}"
        ) from None


@app.command()
def schema() -> None:
    """Print the JSON Schema of report.json (for dashboards and validators).

    Example: ncclDoctor schema > report.schema.json
    """
    from ncclDoctor.report.model import schema_text

    sys.stdout.write(schema_text())
