"""One preflight for ``ncclDoctor env`` and ``ncclDoctor check``: this host's facts, then rules.

    facts = gather(env)                                   # nothing is judged here
    findings = judge(env, facts)                          # ncclDoctor env: describe the host
    findings = judge(env, facts, backend="gloo", nproc_per_node=2, where=plan.where)  # check

``gather(env)`` reads: host facts (``facts.host``: interfaces, /dev/shm, memlock, CPUs,
torch build), GPUs through NVML (``facts.gpu``), RDMA devices through sysfs
(``facts.ib``), NCCL's conf files (``facts.ncclconf``: ``NCCL_CONF_FILE``,
``~/.nccl.conf``, ``/etc/nccl.conf``) and the effective settings (the environment
first, then each file, as NCCL reads them).

``judge(env, facts, ...)`` applies, over those facts: the env lint with the conf files,
interfaces and HCA names (``rules.env``), GPU health (``rules.gpu``), RDMA port health
against the effective settings (``rules.network``), /dev/shm and memlock
(``rules.system``), and /dev/shm against DataLoader workers when described
(``rules.shm``). With ``backend`` given (``check``: something will run) it also says
whether the ranks fit the node (SYS003-SYS005, GPU too few); without it (``env``) it
describes the host only, and says when GPU health was skipped.

Testing aids (documented, not hidden): ``NCCLDOCTOR_NVML_REPLAY=snapshot.json`` answers
NVML queries from a recorded snapshot (``facts.nvml_replay``) and
``NCCLDOCTOR_SYSFS_ROOT=DIR`` reads InfiniBand devices from ``DIR/sys/class/infiniband``.
"""

from __future__ import annotations

import socket
from dataclasses import dataclass, field
from typing import Any, Mapping

from ncclDoctor.errors import UsageError
from ncclDoctor.facts.ncclconf import ConfFile
from ncclDoctor.findings import Finding

LAUNCH_ONLY = ("SYS003", "SYS004", "SYS005")  # about ranks that will run: oversubscribed, no CUDA, too few GPUs


@dataclass(frozen=True)
class Dataloader:
    """DataLoader workers per rank and batch size, to size /dev/shm (SYS006)."""

    workers: int
    batch_mib: float
    prefetch_factor: int = 2


@dataclass
class HostFacts:
    host: dict[str, Any]  # report.host: facts.host plus "gpus", "ib", "nccl_conf"
    conf: list[ConfFile]
    where: str  # "address (host)"
    effective: dict[str, str] = field(default_factory=dict)  # env, then the conf files
    sources: dict[str, str] = field(default_factory=dict)  # setting -> "environment" | "file:line"


def gather(env: Mapping[str, str]) -> HostFacts:
    """This host's facts; no judging."""
    from ncclDoctor.facts.gpu import collect_gpu_facts
    from ncclDoctor.facts.host import collect_host_facts
    from ncclDoctor.facts.ib import collect_ib_facts
    from ncclDoctor.facts.ncclconf import effective_env, read_conf_files
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
    effective, sources = effective_env(env, conf)
    return HostFacts(host, conf, node_label(socket.gethostname(), node_address(env)), effective, sources)


def settings(facts: HostFacts) -> list[dict[str, Any]]:
    """report.settings: every distributed setting in force, with where it came from."""
    from ncclDoctor.rules import env as env_rules

    return env_rules.surface(facts.effective, facts.sources)


def judge(env: Mapping[str, str], facts: HostFacts, *, backend: str | None = None, nproc_per_node: int | None = None,
          pg_timeout_s: float | None = None, dataloader: Dataloader | None = None,
          where: str | None = None) -> list[Finding]:
    """The rules over ``facts``; see the module docstring for ``backend``."""
    from ncclDoctor.facts.ib import hca_names
    from ncclDoctor.rules import env as env_rules
    from ncclDoctor.rules.gpu import check_gpus
    from ncclDoctor.rules.network import check_ib
    from ncclDoctor.rules.system import check_host

    host, where = facts.host, where or facts.where
    interfaces = [i["name"] for i in host.get("interfaces", [])]
    findings = env_rules.lint(env, where=where, conf_files=facts.conf, interfaces=interfaces,
                              hcas=hca_names(host["ib"]), pg_timeout_s=pg_timeout_s)
    gpus = host.get("gpus", {})
    if backend is None or "devices" in gpus:  # a CPU check has nothing to fix in a skipped NVML
        findings += check_gpus(gpus, where, nproc_per_node if backend in (None, "nccl") else None)
    findings += check_ib(host["ib"], facts.effective, where)
    if backend is None:
        # memlock matters where RDMA can be used: a GPU node or one with RDMA devices.
        rdma = "hcas" in host["ib"] or "devices" in gpus
        fit = check_host(host, "nccl" if rdma else "gloo", nproc_per_node or 1, where)
        findings += [f for f in fit if f.code not in LAUNCH_ONLY]
    else:
        findings += check_host(host, backend, nproc_per_node or 1, where)
    if dataloader:
        from ncclDoctor.rules.shm import MIB, check_shm

        findings += check_shm(host, where, ranks_per_node=nproc_per_node or 1, workers=dataloader.workers,
                              batch_bytes=dataloader.batch_mib * MIB, prefetch_factor=dataloader.prefetch_factor)
    return findings
