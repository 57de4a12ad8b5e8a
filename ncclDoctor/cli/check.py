"""``ncclDoctor check``: probe collectives under torchrun on one node or many."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, List, Optional

import typer

from ncclDoctor import __version__
from ncclDoctor.cli.app import app, emit, err, sigterm_interrupts
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
)

Opt = typer.Option


@app.command()
def check(
    nproc_per_node: Annotated[
        Optional[int],
        Opt("--nproc-per-node", help="Ranks on this node. Default: the visible GPUs with nccl; 2 with gloo on CPU."),
    ] = None,
    backend: Annotated[
        Optional[str],
        Opt("--backend", help="auto | nccl | gloo. auto (default) picks nccl when CUDA and NCCL are available."),
    ] = None,
    out: OutOpt = None,
    as_json: JsonOpt = False,
    fail_on: FailOnOpt = None,
    min_bytes: Annotated[
        Optional[str], Opt("--min-bytes", "-b", help="Smallest message (nccl-tests -b). Default 1K on CPU, 8 on GPU.")
    ] = None,
    max_bytes: Annotated[
        Optional[str],
        Opt("--max-bytes", "-e", help="Largest message (nccl-tests -e). Default 16M on CPU, 128M on GPU."),
    ] = None,
    step_factor: Annotated[
        Optional[int],
        Opt(
            "--step-factor",
            "-f",
            help="Multiply the size by this each step (nccl-tests -f). Default 4 on CPU, 2 on GPU.",
        ),
    ] = None,
    warmup: Annotated[Optional[int], Opt("--warmup", "-w", help="Untimed ops per size (nccl-tests -w).")] = None,
    iters: Annotated[Optional[int], Opt("--iters", "-n", help="Timed ops per size (nccl-tests -n).")] = None,
    timeout: Annotated[
        Optional[float],
        Opt(
            "--timeout",
            help="Deadline in seconds for each probe phase (default: 60 s init, 30 s smoke, 180 s sweep); "
            "the launch deadline becomes max(SECONDS, 60).",
        ),
    ] = None,
    launch_timeout: Annotated[
        Optional[float],
        Opt(
            "--launch-timeout",
            help="Launch deadline in seconds: every node's torchrun and every rank must start and join within it "
            "(default 90 s, or max(--timeout, 60)); overrides --timeout's. Longer for nodes that start minutes "
            "apart, shorter for CI.",
        ),
    ] = None,
    inject: Annotated[
        Optional[List[str]],
        Opt(
            "--inject",
            help="Testing aid: KIND:RANK[:ARG] with KIND hang, crash, exit, fail, fail-held, exit-held, slow, "
            "mismatch, skip, corrupt. Repeatable.",
        ),
    ] = None,
    nodes: Annotated[
        Optional[int],
        Opt(
            "--nodes",
            "--nnodes",
            help="Nodes in the job; run the same command on each (default 1, or SLURM_NNODES under SLURM).",
        ),
    ] = None,
    rdzv_endpoint: Annotated[
        Optional[str],
        Opt(
            "--rdzv-endpoint",
            help="HOST:PORT of torchrun's c10d rendezvous (default under SLURM: first host:29500). "
            "The control store uses PORT+1.",
        ),
    ] = None,
    rdzv_id: Annotated[
        Optional[str],
        Opt("--rdzv-id", help="Rendezvous id, the same on every node (default under SLURM: slurm-<job id>)."),
    ] = None,
    local_addr: Annotated[
        Optional[str],
        Opt(
            "--local-addr",
            help="This node's address for torchrun and reports (default: the interface "
            "GLOO/NCCL_SOCKET_IFNAME names, else the one that routes to the endpoint).",
        ),
    ] = None,
    max_seconds: Annotated[
        Optional[float],
        Opt(
            "--max-seconds",
            help="Time budget of the whole check in seconds (default 120; 0: none). The sweep stops at a size "
            "that would not fit (RUN008: slow, exit 1); a hang is called once nothing has moved for 10x the "
            "longest step so far (at least 15 s).",
        ),
    ] = None,
    structure_bytes: Annotated[
        Optional[str],
        Opt(
            "--structure-bytes",
            help="Message size for the multi-node intra/inter-node all_reduce and p2p exchanges. "
            "Default 1M on CPU, 64M on GPU.",
        ),
    ] = None,
    op: Annotated[
        Optional[str],
        Opt(
            "--op",
            help="Collectives to sweep, comma-separated: all_reduce (default), all_gather, reduce_scatter, "
            "broadcast, alltoall, sendrecv, or all.",
        ),
    ] = None,
    expected_below: Annotated[
        Optional[float],
        Opt(
            "--expected-below",
            help="BW301 when busbw is below this % of the platform's published reference "
            "(default 90, as nccl-tests' NCCL_TESTS_MIN_BW).",
        ),
    ] = None,
    select: SelectOpt = None,
    ignore: IgnoreOpt = None,
    min_busbw: Annotated[
        Optional[float], Opt("--min-busbw", help="Fail (BW101) when the best busbw, in GB/s, is below this.")
    ] = None,
    baseline: Annotated[
        Optional[Path],
        Opt(
            "--baseline",
            help="Compare busbw per size and node with a saved baseline: a --save-baseline file, a run "
            "directory, or nccl-tests output (text or -J JSON).",
        ),
    ] = None,
    max_regression: Annotated[
        Optional[float],
        Opt(
            "--max-regression",
            help="With --baseline: fail (BW102) when busbw drops by more than this percentage. Default 10.",
        ),
    ] = None,
    save_baseline: Annotated[
        Optional[Path],
        Opt("--save-baseline", help="Save this run's busbw as a baseline file for later --baseline runs."),
    ] = None,
    junit: JunitOpt = None,
    prometheus: PrometheusOpt = None,
    config: ConfigOpt = None,
    no_config: NoConfigOpt = False,
) -> None:
    """Probe collectives under torchrun (one node, or --nodes N on every node): busbw, settings lint,
    consistency across nodes, slow node/link, verdict.

    Example: ncclDoctor check --nproc-per-node 8 --min-busbw 40 --junit reports/nccl.xml
    """
    from ncclDoctor.check import run_check
    from ncclDoctor.config import check_options, load_config

    def s(p):
        return str(p) if p else None

    cli_values = dict(
        nproc_per_node=nproc_per_node,
        backend=backend,
        out=s(out),
        fail_on=fail_on,
        min_bytes=min_bytes,
        max_bytes=max_bytes,
        step_factor=step_factor,
        warmup=warmup,
        iters=iters,
        timeout=timeout,
        launch_timeout=launch_timeout,
        inject=list(inject or []),
        select=list(select or []),
        ignore=list(ignore or []),
        min_busbw=min_busbw,
        baseline=s(baseline),
        max_regression=max_regression,
        save_baseline=s(save_baseline),
        junit=s(junit),
        nnodes=nodes,
        rdzv_endpoint=rdzv_endpoint,
        rdzv_id=rdzv_id,
        local_addr=local_addr,
        structure_bytes=structure_bytes,
        max_seconds=max_seconds,
        ops=op,
        expected_below_pct=expected_below,
        prometheus=s(prometheus),
    )
    opts = check_options(cli_values, load_config(config, no_config=no_config))
    sigterm_interrupts()
    progress = None if as_json else (lambda msg: err.print(f"ncclDoctor {__version__}: {msg}"))
    report = run_check(opts, argv=sys.argv[1:], progress=progress)
    emit(report, as_json)
    if not as_json:
        for label, path in (("JUnit XML", opts.gates.junit), ("baseline", opts.gates.save_baseline),
                            ("Prometheus textfile", opts.gates.prometheus)):
            if path and Path(path).exists():
                err.print(f"{label}: {path}")
    full = report.results.get("multinode", {}).get("full_report")
    if full and not as_json:
        err.print(f"ncclDoctor: this node's summary above; the full report is on {full['node']} in {full['run_dir']}")
    raise typer.Exit(report.exit_code)
