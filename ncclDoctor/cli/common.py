"""The finishing options every report-writing command takes (``ncclDoctor.options``).

Each is an ``Annotated`` alias, so a command declares ``out: OutOpt = None`` and gets the
same name, help and type everywhere; ``common(...)`` merges them over the settings file
and validates them once (``CommonOptions.__post_init__``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, List, Optional

import typer

from ncclDoctor.options import CommonOptions

OutOpt = Annotated[Optional[Path], typer.Option("--out", help="Run directory (report.json, report.md, report.html).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print report.json to stdout instead of the table.")]
FailOnOpt = Annotated[
    Optional[str],
    typer.Option("--fail-on", help="Exit 1 when a finding is at least this severe: error (default) | warning | info."),
]
SelectOpt = Annotated[
    Optional[List[str]],
    typer.Option(
        "--select", help="Keep only findings with these codes or prefixes (ENV, BW101). Repeatable or comma-separated."
    ),
]
IgnoreOpt = Annotated[
    Optional[List[str]],
    typer.Option("--ignore", help="Drop findings with these codes or prefixes. Repeatable or comma-separated."),
]
JunitOpt = Annotated[
    Optional[Path], typer.Option("--junit", help="Write JUnit XML (one test case per finding) to this file.")
]
ConfigOpt = Annotated[
    Optional[Path],
    typer.Option(
        "--config",
        help="Settings file (ncclDoctor.toml or a pyproject.toml). Default: the nearest one with ncclDoctor settings.",
    ),
]
PrometheusOpt = Annotated[
    Optional[Path],
    typer.Option(
        "--prometheus",
        help="Also write the results as a node_exporter textfile (ncclDoctor_* metrics; name it *.prom), written "
             "whole.",
    ),
]
NoConfigOpt = Annotated[
    bool, typer.Option("--no-config", help="Ignore ncclDoctor.toml and [tool.ncclDoctor] settings.")
]


def common(
    out: Path | None,
    as_json: bool,
    fail_on: str | None,
    select: list[str],
    ignore: list[str],
    junit: Path | None,
    config: Path | None,
    no_config: bool,
    prometheus: Path | None = None,
) -> CommonOptions:
    """The validated CommonOptions: command line over the settings file."""
    from ncclDoctor.config import load_config

    cfg = load_config(config, no_config=no_config)
    return CommonOptions.from_cli(
        cfg, out=out, json=as_json, fail_on=fail_on, select=list(select or []), ignore=list(ignore or []), junit=junit,
        prometheus=prometheus,
    )
