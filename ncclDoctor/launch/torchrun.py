"""The torchrun command line for a supervised job (the probes, the reference trainer, a script).

We never spawn ranks ourselves: every probe run is ``python -m torch.distributed.run``
with the options a user would type, so what we test is what their job will do.

- One node: ``--standalone`` (torchrun picks a free port for its own rendezvous).
- Several nodes: torchrun's c10d rendezvous at ``--rdzv-endpoint`` with ``--rdzv-id``.
  ``is_host`` and ``--local-addr`` are passed explicitly because torchrun derives both
  from the host name, which is wrong in containers and network namespaces
  (shared/knowledge/machine_notes.md).
- ``--max-restarts 0``: a probe that fails should say so, not retry.
- ``--log-dir`` + ``--redirects 3``: every rank's stdout/stderr and torchrun's error
  file land in the run directory as raw evidence.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass


@dataclass
class LaunchSpec:
    nproc_per_node: int
    nnodes: int = 1
    rdzv_endpoint: str | None = None
    rdzv_id: str = "ncclDoctor"
    is_host: bool | None = None
    local_addr: str | None = None
    join_timeout_s: float = 60.0
    log_dir: str | None = None
    module: str = "probes.worker"
    script: str | None = None  # a script path instead of ``-m module`` (a user's own job)


def torchrun_argv(spec: LaunchSpec, worker_args: list[str]) -> list[str]:
    argv = [
        sys.executable,
        "-m",
        "torch.distributed.run",
        f"--nproc-per-node={spec.nproc_per_node}",
        f"--nnodes={spec.nnodes}",
        "--max-restarts=0",
        "--monitor-interval=0.1",
    ]
    conf = [f"join_timeout={int(spec.join_timeout_s)}"]
    if spec.rdzv_endpoint:
        argv += ["--rdzv-backend=c10d", f"--rdzv-endpoint={spec.rdzv_endpoint}", f"--rdzv-id={spec.rdzv_id}"]
        conf.append(f"read_timeout={int(spec.join_timeout_s)}")
        if spec.is_host is not None:
            conf.append(f"is_host={1 if spec.is_host else 0}")
    else:
        argv.append("--standalone")
    argv.append("--rdzv-conf=" + ",".join(conf))
    if spec.local_addr:
        argv.append(f"--local-addr={spec.local_addr}")
    if spec.log_dir:
        argv += [f"--log-dir={spec.log_dir}", "--redirects=3"]
    argv += [spec.script] if spec.script else ["-m", spec.module]
    argv += worker_args
    return argv
