"""Kubernetes: a Kubeflow PyTorchJob manifest that runs ``ncclDoctor check`` per pod.

The training operator (kubeflow.org/v1 PyTorchJob) starts one Master pod and N-1 Worker
pods and gives each ``MASTER_ADDR`` (the Master pod's service name) and ``MASTER_PORT``.
Every pod runs the same ``ncclDoctor check --nodes N --rdzv-endpoint
$MASTER_ADDR:$MASTER_PORT``; the Master pod hosts the rendezvous, owns the control
store at ``MASTER_PORT + 1`` and writes the full report. ``/dev/shm`` is a memory-backed
emptyDir because a container's default 64 MiB breaks NCCL's shared-memory transport.
"""

from __future__ import annotations

import json
import shlex


def _q(s: str) -> str:
    return json.dumps(s)  # a JSON string is a valid YAML scalar


def _replica(kind: str, replicas: int, image: str, cmd: str, gpus: int | None, shm: str) -> str:
    limits = f"""            resources:
              limits:
                nvidia.com/gpu: {gpus}
""" if gpus else ""
    return f"""    {kind}:
      replicas: {replicas}
      restartPolicy: Never
      template:
        spec:
          containers:
          - name: pytorch
            image: {_q(image)}
            command: ["sh", "-c"]
            args:
            - {_q(cmd)}
{limits}            volumeMounts:
            - name: dshm
              mountPath: /dev/shm
          volumes:
          - name: dshm
            emptyDir:
              medium: Memory
              sizeLimit: {shm}
"""


def pytorchjob_manifest(nodes: int, nproc_per_node: int | None, image: str, name: str = "ncclDoctor-check",
                        gpus_per_node: int | None = None, shm: str = "16Gi",
                        check_args: list[str] | None = None) -> str:
    args = ["--nodes", str(nodes)]
    if nproc_per_node:
        args += ["--nproc-per-node", str(nproc_per_node)]
    args += list(check_args or [])
    cmd = ("ncclDoctor check " + " ".join(shlex.quote(a) for a in args)
           + ' --rdzv-endpoint "$MASTER_ADDR:$MASTER_PORT" --rdzv-id "$MASTER_ADDR"'
           + " --out /tmp/ncclDoctor-run")
    spec = _replica("Master", 1, image, cmd, gpus_per_node, shm)
    if nodes > 1:
        spec += _replica("Worker", nodes - 1, image, cmd, gpus_per_node, shm)
    return f"""apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata:
  name: {name.lower()}
spec:
  pytorchReplicaSpecs:
{spec}"""
