"""Shared test helpers. Tests run real torchrun processes on gloo/CPU; nothing of torch
is mocked. Tests that need root or network namespaces skip with a printed reason."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def cli_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NCCL_", "TORCH_NCCL_", "TORCH_FR_", "GLOO_"))}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.update(extra)
    return env


def run_cli(*args: str, timeout: float = 300, env: dict[str, str] | None = None, cwd: str | None = None) -> subprocess.CompletedProcess:
    """Run `python -m ncclDoctor ARGS` as a real subprocess (what a user runs)."""
    return subprocess.run(
        [sys.executable, "-m", "ncclDoctor", *args],
        capture_output=True, text=True, timeout=timeout, env=env or cli_env(), cwd=cwd,
    )


@pytest.fixture
def clean_env(monkeypatch):
    """In-process CLI runs read os.environ: drop the distributed settings of the host."""
    for k in list(os.environ):
        if k.startswith(("NCCL_", "TORCH_NCCL_", "TORCH_FR_", "GLOO_")):
            monkeypatch.delenv(k, raising=False)
    return monkeypatch
