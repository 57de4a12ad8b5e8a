"""``ncclDoctor env``: lint this host's distributed settings and check its health."""

from __future__ import annotations

import dataclasses
import sys
from typing import Annotated, Optional

import typer
from rich.console import Console

from ncclDoctor.cli.app import announce, app
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


@app.command("env")
def env_cmd(
    nproc_per_node: Annotated[
        Optional[int],
        Opt("--nproc-per-node", help="Ranks you will start per node: checked against the GPUs NVML sees."),
    ] = None,
    pg_timeout: Annotated[
        Optional[float],
        Opt(
            "--pg-timeout",
            help="Your init_process_group timeout in seconds, checked against the InfiniBand retry "
            "window (torch's default: 600 for nccl).",
        ),
    ] = None,
    dataloader_workers: Annotated[
        Optional[int],
        Opt("--dataloader-workers", help="DataLoader num_workers per rank: with --batch-mib, sizes /dev/shm for them."),
    ] = None,
    batch_mib: Annotated[
        Optional[float], Opt("--batch-mib", help="Size of one batch in MiB (with --dataloader-workers).")
    ] = None,
    prefetch_factor: Annotated[
        int, Opt("--prefetch-factor", help="DataLoader prefetch_factor (torch's default: 2).")
    ] = 2,
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
    """Lint the distributed settings (environment and nccl.conf) and check host health: GPUs, RDMA ports,
    /dev/shm, memlock. Writes a run directory only with --out.

    Example: NCCL_SOCKET_IFNAME=eth0 ncclDoctor env --nproc-per-node 8 --fail-on warning
    """
    from ncclDoctor.envcheck import EnvOptions, run_env
    from ncclDoctor.report.console import render_console
    from ncclDoctor.report.settings import settings_lines

    c = common(out, as_json, fail_on, select, ignore, junit, config, no_config, prometheus)
    report = run_env(
        EnvOptions(nproc_per_node, pg_timeout, dataloader_workers, batch_mib, prefetch_factor, common=c),
        argv=sys.argv[1:],
    )
    if as_json:
        sys.stdout.write(report.to_json())
    else:
        con = Console(highlight=False)
        for line in settings_lines(report):
            con.print(line, markup=False, highlight=False, soft_wrap=True)
        render_console(dataclasses.replace(report, settings=[]), con)
    announce([c.junit] if c.junit else [], as_json)
    raise typer.Exit(report.exit_code)
