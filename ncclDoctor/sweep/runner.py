"""Run the reference trainer once, under torchrun, for one loader configuration.

Each run gets its own folder ``<run_dir>/configs/<label>/`` holding the torchrun log,
every rank's stdout/stderr (``logs/``) and the monitor records (``monitor/``), from which
its throughput is computed (``ncclDoctor.analysis.stalls``): steady state only, in
``windows`` equal windows, median and spread.

Every run has a deadline; when it passes (or on Ctrl-C) torchrun and every descendant
are stopped and reaped (``ncclDoctor.launch.process.stop_tree``).

Two ways to run a configuration, with the same folder, records and result:

``run_config``  its own torchrun launch (``--grid``; the benchmark's re-measurements)
``Session``     one launch of the trainer with ``--session`` that runs configurations in
                turn as the adaptive search names them (``reference_train.session``):
                torchrun, torch's import in every rank, the process group and the model
                are paid once per sweep instead of once per configuration. A session
                that dies or misses a deadline is stopped and reaped; the next
                configuration starts a new one.
"""

from __future__ import annotations

import os
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ncclDoctor.analysis import stalls
from ncclDoctor.fsutil import write_json_atomic
from ncclDoctor.launch import process
from ncclDoctor.launch.torchrun import LaunchSpec, torchrun_argv
from ncclDoctor.sweep.plan import Config
from ncclDoctor.sweep.stalls import read_records


@dataclass
class RunResult:
    config: Config
    status: str  # ok | failed | timeout
    elapsed_s: float
    returncode: int | None = None
    throughput: dict[str, Any] = field(default_factory=dict)  # samples/s: median, spread, windows
    analysis: dict[str, Any] = field(default_factory=dict)
    findings: list[Any] = field(default_factory=list)
    folder: str = ""
    error: str = ""

    @property
    def samples_per_s(self) -> float:
        return float(self.throughput.get("median", 0.0)) if self.status == "ok" else 0.0

    def worst_rank(self) -> dict[str, Any]:
        """The rank that waited longest for data (it gates the step)."""
        ranks = self.analysis.get("ranks", [])
        return max(ranks, key=lambda r: r["data_wait_ms"]) if ranks else {}

    def to_dict(self) -> dict[str, Any]:
        ranks = self.analysis.get("ranks", [])
        w = self.worst_rank()
        return {
            **self.config.to_dict(), "status": self.status, "elapsed_s": round(self.elapsed_s, 2),
            "returncode": self.returncode,
            "samples_per_s": round(self.samples_per_s, 2), "spread": self.throughput.get("spread"),
            "windows": self.throughput.get("windows"),
            "data_share": max((r["data_share"] for r in ranks), default=None),
            "data_wait_ms": w.get("data_wait_ms"), "step_ms": w.get("step_ms"),
            "imbalance": _imbalance(ranks), "folder": self.folder, "error": self.error,
        }


def _imbalance(ranks: list[dict[str, Any]]) -> float | None:
    """max/min over ranks of busy time (data wait + compute): 1.0 is perfectly even."""
    busy = [r["data_wait_ms"] + r["compute_ms"] for r in ranks]
    if len(busy) < 2 or min(busy) <= 0:
        return None
    return round(max(busy) / min(busy), 3)


def child_env(env: dict[str, str]) -> dict[str, str]:
    import reference_train

    # `-m reference_train` from a source checkout, and the user's --loader module from cwd
    root = str(Path(reference_train.__file__).resolve().parent.parent)
    return process.child_env(env, [root, os.getcwd()])


def run_config(cfg: Config, nproc: int, trainer_args: list[str], run_dir: Path, env: dict[str, str], deadline_s: float,
               windows: int = 3, stall_share: float = 0.10) -> RunResult:
    folder = run_dir / "configs" / cfg.label
    folder.mkdir(parents=True, exist_ok=True)
    args = [*trainer_args, *cfg.trainer_args(), f"--monitor-dir={folder}"]
    argv = torchrun_argv(LaunchSpec(nproc_per_node=nproc, module="reference_train", log_dir=str(folder / "logs")), args)
    write_json_atomic(folder / "launch.json", {"argv": argv, "config": cfg.to_dict(), "deadline_s": deadline_s})
    t0 = time.monotonic()
    proc = process.start_logged(argv, env, folder / "torchrun.log")
    status = "ok"
    try:
        try:
            proc.wait(timeout=max(1.0, deadline_s))
        except subprocess.TimeoutExpired:
            status = "timeout"
    finally:  # also on Ctrl-C: no process outlives the command
        if proc.poll() is None:
            process.stop_tree(proc)
    elapsed = time.monotonic() - t0
    error = _last_error(folder) if status == "ok" and proc.returncode != 0 else ""
    return result(cfg, "failed" if error else status, elapsed, proc.returncode, folder, error, windows, stall_share)


def result(cfg: Config, status: str, elapsed: float, returncode: int | None, folder: Path, error: str, windows: int,
           stall_share: float) -> RunResult:
    """A configuration's outcome from its monitor records (steady state only)."""
    res = RunResult(cfg, status, elapsed, returncode, folder=str(folder), error=error)
    records = read_records(folder)
    if records:
        res.analysis, res.findings = stalls.analyse(records, stall_share=stall_share, windows=windows)
        res.throughput = res.analysis["throughput"]
    if res.status == "ok" and not res.throughput.get("steps"):
        res.status, res.error = "failed", "no steady-state steps recorded (too few steps for the warm-up?)"
    return res


def _last_error(folder: Path) -> str:
    """The last meaningful line of the run's output, for a one-line message."""
    lines: list[str] = []
    for p in sorted(folder.glob("logs/**/*")) + [folder / "torchrun.log"]:
        if p.is_file() and p.name in ("stderr.log", "error.json", "torchrun.log"):
            try:
                lines += [ln.strip() for ln in p.read_text(errors="replace").splitlines() if ln.strip()]
            except OSError:
                continue
    for ln in reversed(lines):
        if "error" in ln.lower() or "Error" in ln:
            return ln[:300]
    return lines[-1][:300] if lines else "no output"


class Session:
    """A running ``reference_train --session`` launch; ``run(cfg, deadline_s)`` measures one
    configuration in it. Elapsed time of the first configuration includes the launch."""

    def __init__(self, nproc: int, trainer_args: list[str], run_dir: Path, env: dict[str, str], windows: int = 3,
                 stall_share: float = 0.10, index: int = 0):
        self.folder = run_dir / "sessions" / str(index)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.windows, self.stall_share = windows, stall_share
        argv = torchrun_argv(LaunchSpec(nproc_per_node=nproc, module="reference_train",
                                        log_dir=str(self.folder / "logs")), [*trainer_args, f"--session={self.folder}"])
        write_json_atomic(self.folder / "launch.json", {"argv": argv})
        self.started = time.monotonic()
        self.proc = process.start_logged(argv, env, self.folder / "torchrun.log")
        self.served = 0

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def run(self, cfg: Config, deadline_s: float) -> RunResult:
        folder = self.folder.parent.parent / "configs" / cfg.label
        folder.mkdir(parents=True, exist_ok=True)
        i = self.served
        t0 = self.started if i == 0 else time.monotonic()
        loader = {k: v for k, v in cfg.to_dict().items() if k != "label"}
        write_json_atomic(self.folder / f"next-{i}.json", {"loader": loader, "monitor_dir": str(folder)})
        write_json_atomic(folder / "launch.json", {"session": str(self.folder), "index": i, "config": cfg.to_dict(),
                                                   "deadline_s": deadline_s})
        done, end = self.folder / f"done-{i}.json", time.monotonic() + max(1.0, deadline_s)
        status, error = "timeout", ""
        try:
            while time.monotonic() < end:
                if done.exists():
                    status = "ok"
                    break
                if not self.alive:
                    status, error = "failed", _last_error(self.folder)
                    break
                time.sleep(0.05)
        finally:  # a deadline, a failure or Ctrl-C: no process outlives the command
            self.served += 1
            if status != "ok" and self.proc.poll() is None:
                process.stop_tree(self.proc)  # stuck inside this configuration: no polite stop
        rc = None if self.alive else self.proc.returncode
        return result(cfg, status, time.monotonic() - t0, rc, folder, error, self.windows, self.stall_share)

    def stop(self, grace_s: float = 20.0) -> None:
        """Ask the ranks to leave (they wait for the next instruction); stop and reap the
        tree if they have not left within ``grace_s``."""
        if self.alive:
            write_json_atomic(self.folder / f"next-{self.served}.json", {"stop": True})
            try:
                self.proc.wait(timeout=grace_s)
            except subprocess.TimeoutExpired:
                pass
        if self.proc.poll() is None:
            process.stop_tree(self.proc)
