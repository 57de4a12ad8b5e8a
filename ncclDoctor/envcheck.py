"""``ncclDoctor env``: the distributed settings of this host, their lint, and host health.

Stages (``run_env`` composes them; nothing is launched):

1. ``gather``   environment, NCCL's conf files, host facts (interfaces, NVML, sysfs IB)
2. ``judge``    the env lint (``rules.env``), GPU health (``rules.gpu``), RDMA port
                health (``rules.network``), /dev/shm and memlock (``rules.system``),
                /dev/shm against the DataLoader workers when described (``rules.shm``)
3. ``finishing`` gates, verdict and exit code; a run directory when ``--out`` is given;
                JUnit with ``--junit`` (``ncclDoctor.finish``)

Testing aids (documented, not hidden): ``NCCLDOCTOR_NVML_REPLAY=snapshot.json`` answers
NVML queries from a recorded snapshot (``facts.nvml_replay``) and
``NCCLDOCTOR_SYSFS_ROOT=DIR`` reads InfiniBand devices from ``DIR/sys/class/infiniband``.
"""

from __future__ import annotations

import os
import socket
import sys
from dataclasses import dataclass, field
from typing import Any, Mapping

from ncclDoctor.errors import UsageError
from ncclDoctor.findings import Finding
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


def gather(env: Mapping[str, str]) -> dict[str, Any]:
    from ncclDoctor.facts.gpu import collect_gpu_facts
    from ncclDoctor.facts.host import collect_host_facts
    from ncclDoctor.facts.ib import collect_ib_facts
    from ncclDoctor.facts.ncclconf import read_conf_files
    from ncclDoctor.facts.network import node_address, node_label

    host = collect_host_facts()
    replay = env.get("NCCLDOCTOR_NVML_REPLAY")
    if replay:
        from ncclDoctor.facts.nvml_replay import NvmlReplay

        try:
            host["gpus"] = collect_gpu_facts(nvml=NvmlReplay(replay))
        except (OSError, ValueError) as exc:
            raise UsageError(f"cannot read NCCLDOCTOR_NVML_REPLAY={replay}: {exc}") from None
    host["ib"] = collect_ib_facts(env.get("NCCLDOCTOR_SYSFS_ROOT") or "/")
    conf = read_conf_files(env)
    host["nccl_conf"] = [c.to_dict() for c in conf]
    where = node_label(socket.gethostname(), node_address(env))
    return {"host": host, "conf": conf, "where": where}


def judge(env: Mapping[str, str], facts: dict[str, Any], opts: EnvOptions) -> list[Finding]:
    from ncclDoctor.facts.ib import hca_names
    from ncclDoctor.rules import env as env_rules
    from ncclDoctor.rules.gpu import check_gpus
    from ncclDoctor.rules.network import check_ib
    from ncclDoctor.rules.system import check_host

    host, where = facts["host"], facts["where"]
    merged, _ = _effective(env, facts)
    interfaces = [i["name"] for i in host.get("interfaces", [])]
    findings = env_rules.lint(
        env, where=where, conf_files=facts["conf"], interfaces=interfaces,
        hcas=hca_names(host["ib"]), pg_timeout_s=opts.pg_timeout_s,
    )
    findings += check_gpus(host["gpus"], where, opts.nproc_per_node)
    findings += check_ib(host["ib"], merged, where)
    # memlock matters where RDMA can be used: a GPU node or one with RDMA devices.
    rdma = "hcas" in host["ib"] or "devices" in host["gpus"]
    findings += check_host(host, "nccl" if rdma else "gloo", opts.nproc_per_node or 1, where)
    if opts.dataloader_workers and opts.batch_mib:
        from ncclDoctor.rules.shm import MIB, check_shm

        findings += check_shm(host, where, ranks_per_node=opts.nproc_per_node or 1, workers=opts.dataloader_workers,
                              batch_bytes=opts.batch_mib * MIB, prefetch_factor=opts.prefetch_factor)
    return [f for f in findings if f.code not in ("SYS003", "SYS004", "SYS005")]


def _effective(env: Mapping[str, str], facts: dict[str, Any]):
    from ncclDoctor.facts.ncclconf import effective_env

    return effective_env(env, facts["conf"])


def run_env(opts: EnvOptions, env: Mapping[str, str] | None = None, argv: list[str] | None = None) -> Report:
    from ncclDoctor.finish import finishing
    from ncclDoctor.rules import env as env_rules
    from ncclDoctor.rules.env_values import ib_retry_window_s

    if opts.pg_timeout_s is not None and opts.pg_timeout_s <= 0:
        raise UsageError(f"--pg-timeout must be positive, got {opts.pg_timeout_s}")
    if opts.nproc_per_node is not None and opts.nproc_per_node < 1:
        raise UsageError(f"--nproc-per-node must be at least 1, got {opts.nproc_per_node}")
    if (opts.dataloader_workers is None) != (opts.batch_mib is None):
        raise UsageError("--dataloader-workers and --batch-mib go together: /dev/shm need = ranks x workers x prefetch x batch size")
    if (opts.dataloader_workers or 0) < 0 or (opts.batch_mib is not None and opts.batch_mib <= 0) or opts.prefetch_factor < 1:
        raise UsageError("--dataloader-workers must be >= 0, --batch-mib > 0 and --prefetch-factor >= 1")
    env = dict(os.environ if env is None else env)
    facts = gather(env)
    merged, sources = _effective(env, facts)
    report = Report(command="env", argv=list(argv if argv is not None else sys.argv[1:]))
    report.host = facts["host"]
    report.settings = env_rules.surface(merged, sources)
    report.results["defaults"] = env_rules.defaults_that_matter(merged)
    report.results["ib_retry_window"] = ib_retry_window_s(merged)
    report.results["pg_timeout_s"] = opts.pg_timeout_s
    report.config = {"nproc_per_node": opts.nproc_per_node, "pg_timeout_s": opts.pg_timeout_s, **opts.common.summary()}
    report.nodes = [{"host": socket.gethostname(), "addr": facts["where"].split(" ")[0]}]
    report.add(*judge(env, facts, opts))
    finishing(report, opts.common, opts.common.out)
    return report
