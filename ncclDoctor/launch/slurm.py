"""SLURM: defaults from the allocation, and a ready sbatch script.

Inside an allocation (``SLURM_JOB_ID`` set) ``ncclDoctor check`` takes, unless given on
the command line:

- ``--nodes`` from ``SLURM_NNODES`` (or ``SLURM_JOB_NUM_NODES``);
- ``--rdzv-endpoint`` = the first host of ``SLURM_JOB_NODELIST`` (``SLURM_NODELIST``),
  port ``DEFAULT_PORT``: every node computes the same host from the same list;
- ``--rdzv-id`` = ``slurm-<SLURM_JOB_ID>``.

So one task per node is all it takes::

    srun --ntasks-per-node=1 ncclDoctor check

The node list uses SLURM's compressed host-list syntax: ``node[01-03,07],gpu5`` is
node01 node02 node03 node07 gpu5 (zero padding kept; several bracket groups in one name
expand as a product, ``r[1-2]n[1-2]`` is r1n1 r1n2 r2n1 r2n2).
"""

from __future__ import annotations

import itertools
import re
import shlex
from dataclasses import dataclass
from typing import Mapping

from ncclDoctor.errors import UsageError

DEFAULT_PORT = 29500


def _split_top(text: str) -> list[str]:
    """Split on commas outside brackets."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
            if depth < 0:
                raise UsageError(f"bad SLURM node list {text!r}: unbalanced ']'")
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    if depth:
        raise UsageError(f"bad SLURM node list {text!r}: unbalanced '['")
    parts.append(cur)
    return [p.strip() for p in parts if p.strip()]


def _expand_range(spec: str, whole: str) -> list[str]:
    out = []
    for item in spec.split(","):
        m = re.fullmatch(r"(\d+)(?:-(\d+))?", item.strip())
        if not m:
            raise UsageError(f"bad SLURM node list {whole!r}: {item!r} is not a number or range")
        lo, hi = m.group(1), m.group(2) or m.group(1)
        if int(hi) < int(lo):
            raise UsageError(f"bad SLURM node list {whole!r}: range {item!r} runs backwards")
        width = len(lo)
        out += [str(i).zfill(width) for i in range(int(lo), int(hi) + 1)]
    return out


def expand_nodelist(text: str) -> list[str]:
    """``node[01-03,07],gpu5`` -> ``['node01', 'node02', 'node03', 'node07', 'gpu5']``."""
    hosts: list[str] = []
    for name in _split_top(text):
        pieces = re.split(r"(\[[^\]]*\])", name)
        choices = [_expand_range(p[1:-1], text) if p.startswith("[") else [p] for p in pieces if p]
        hosts += ["".join(c) for c in itertools.product(*choices)]
    return hosts


@dataclass
class Allocation:
    job_id: str
    nnodes: int
    node_id: int | None
    hosts: list[str]

    @property
    def rdzv_endpoint(self) -> str:
        return f"{self.hosts[0]}:{DEFAULT_PORT}"

    @property
    def rdzv_id(self) -> str:
        return f"slurm-{self.job_id}"


def allocation(env: Mapping[str, str]) -> Allocation | None:
    """The SLURM allocation this process runs in, or None outside SLURM."""
    job = env.get("SLURM_JOB_ID")
    if not job:
        return None
    nodelist = env.get("SLURM_JOB_NODELIST") or env.get("SLURM_NODELIST") or ""
    hosts = expand_nodelist(nodelist) if nodelist else []
    raw_n = env.get("SLURM_NNODES") or env.get("SLURM_JOB_NUM_NODES") or str(len(hosts) or 1)
    try:
        nnodes = int(raw_n)
        node_id = int(env["SLURM_NODEID"]) if env.get("SLURM_NODEID") else None
    except ValueError:
        raise UsageError(f"bad SLURM environment: SLURM_NNODES={raw_n!r} "
                         f"/ SLURM_NODEID={env.get('SLURM_NODEID')!r}") from None
    if hosts and len(hosts) != nnodes:
        raise UsageError(f"SLURM_JOB_NODELIST {nodelist!r} names {len(hosts)} hosts but SLURM_NNODES is {nnodes}")
    return Allocation(job, nnodes, node_id, hosts)


def sbatch_script(nodes: int, nproc_per_node: int | None, gpus_per_node: int | None, time_limit: str = "00:15:00",
                  check_args: list[str] | None = None) -> str:
    """An sbatch script that runs one ``ncclDoctor check`` per node under srun."""
    args = ["ncclDoctor", "check", "--out", "ncclDoctor-runs/check-${SLURM_JOB_ID}"]
    if nproc_per_node:
        args += ["--nproc-per-node", str(nproc_per_node)]
    args += list(check_args or [])
    cmd = " ".join(a if "${" in a else shlex.quote(a) for a in args)
    gpu_line = f"#SBATCH --gpus-per-node={gpus_per_node}\n" if gpus_per_node else ""
    return f"""#!/bin/bash
#SBATCH --job-name=ncclDoctor-check
#SBATCH --nodes={nodes}
#SBATCH --ntasks-per-node=1
{gpu_line}#SBATCH --time={time_limit}
#SBATCH --output=ncclDoctor-%j.out
# EDIT: add --partition / --account / --constraint for your cluster.
#
# One ncclDoctor per node; each starts torchrun for its node's ranks. The node count,
# rendezvous endpoint (first host of the allocation, port {DEFAULT_PORT}) and rendezvous
# id come from SLURM's environment. The first host writes the full report into --out;
# the other nodes print their local summary and where that report is.
set -euo pipefail
srun --ntasks-per-node=1 --kill-on-bad-exit=0 {cmd}
"""
