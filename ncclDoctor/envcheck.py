"""``ncclDoctor env``: the distributed settings of this host, their lint, and host health.

``run_env`` is the shared preflight (``ncclDoctor.preflight``: ``gather`` then ``judge``,
the same two calls ``ncclDoctor check`` makes before it launches) plus a report: the
settings in force with their sources, the defaults that matter, the InfiniBand retry
window; then ``finishing`` (``ncclDoctor.finish``): gates, verdict and exit code, a run
directory when ``--out`` is given, JUnit with ``--junit``. Nothing is launched.
"""

from __future__ import annotations

import os
import socket
import sys
from dataclasses import dataclass, field
from typing import Mapping

from ncclDoctor import preflight
from ncclDoctor.errors import UsageError
from ncclDoctor.options import CommonOptions
from ncclDoctor.report.model import Report

# torch's default collective timeouts (init_process_group docstring, torch 2.13).
DEFAULT_PG_TIMEOUT_S = {"nccl": 600.0, "gloo": 1800.0}


@dataclass
class EnvOptions:
    nproc_per_node: int | None = None
    pg_timeout_s: float | None = None
    dataloader_workers: int | None = None  # per rank, to size /dev/shm (SYS006)
    batch_mib: float | None = None
    prefetch_factor: int = 2
    common: CommonOptions = field(default_factory=CommonOptions)  # --out, --fail-on, --select, ...


def _validate(opts: EnvOptions) -> None:
    if opts.pg_timeout_s is not None and opts.pg_timeout_s <= 0:
        raise UsageError(f"--pg-timeout must be positive, got {opts.pg_timeout_s}")
    if opts.nproc_per_node is not None and opts.nproc_per_node < 1:
        raise UsageError(f"--nproc-per-node must be at least 1, got {opts.nproc_per_node}")
    if (opts.dataloader_workers is None) != (opts.batch_mib is None):
        raise UsageError("--dataloader-workers and --batch-mib go together: "
                         "/dev/shm need = ranks x workers x prefetch x batch size")
    bad_batch = opts.batch_mib is not None and opts.batch_mib <= 0
    if (opts.dataloader_workers or 0) < 0 or bad_batch or opts.prefetch_factor < 1:
        raise UsageError("--dataloader-workers must be >= 0, --batch-mib > 0 and --prefetch-factor >= 1")


def run_env(opts: EnvOptions, env: Mapping[str, str] | None = None, argv: list[str] | None = None) -> Report:
    from ncclDoctor.finish import finishing
    from ncclDoctor.rules import env as env_rules
    from ncclDoctor.rules.env_values import ib_retry_window_s

    _validate(opts)
    env = dict(os.environ if env is None else env)
    facts = preflight.gather(env)
    report = Report(command="env", argv=list(argv if argv is not None else sys.argv[1:]))
    report.host = facts.host
    report.settings = preflight.settings(facts)
    report.results["defaults"] = env_rules.defaults_that_matter(facts.effective)
    report.results["ib_retry_window"] = ib_retry_window_s(facts.effective)
    report.results["pg_timeout_s"] = opts.pg_timeout_s
    report.config = {"nproc_per_node": opts.nproc_per_node, "pg_timeout_s": opts.pg_timeout_s, **opts.common.summary()}
    report.nodes = [{"host": socket.gethostname(), "addr": facts.where.split(" ")[0]}]
    loader = preflight.Dataloader(opts.dataloader_workers, opts.batch_mib, opts.prefetch_factor) \
        if opts.dataloader_workers and opts.batch_mib else None
    report.add(*preflight.judge(env, facts, nproc_per_node=opts.nproc_per_node, pg_timeout_s=opts.pg_timeout_s,
                                dataloader=loader))
    finishing(report, opts.common, opts.common.out)
    return report
