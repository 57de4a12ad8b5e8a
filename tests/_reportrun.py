"""One real `ncclDoctor check` per test session, shared by the report, HTML and CI tests.

The run is a real torchrun/gloo job (2 ranks, 1 KiB to 256 KiB, 4 timed iterations), with
two distributed settings that the env lint reports at different severities, so the
report has findings to order. It also saves a busbw baseline and JUnit XML.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path

from tests.conftest import cli_env, run_cli

SCHEMA = Path(__file__).resolve().parent.parent / "ncclDoctor" / "report" / "schema" / "report.schema.json"
# An unknown variable (ENV005, warning) and a debug-only knob (ENV004, info): the info
# code sorts *before* the warning's, so "worst first" differs from "by code" and the
# ordering tests can fail. Neither is an error, so the shared run still exits 0.
LINT_ENV = {"NCCL_BUFFLE_SIZE": "1", "NCCL_P2P_DISABLE": "1"}
LINT_ORDER = [("WARNING", "ENV005"), ("INFO", "ENV004")]  # worst first, as every view must show them
SMALL = ("-e", "256K", "--iters", "4", "--warmup", "1")


@dataclass
class Run:
    dir: Path
    returncode: int
    stdout: str
    stderr: str
    baseline: Path
    junit: Path

    @property
    def report(self) -> dict:
        return json.loads((self.dir / "report.json").read_text())


@functools.cache
def real_check(base: Path) -> Run:
    run_dir, baseline, junit = base / "run", base / "busbw-baseline.json", base / "check.xml"
    p = run_cli(
        "check", "--no-config", "--out", str(run_dir), *SMALL,
        "--save-baseline", str(baseline), "--junit", str(junit),
        env=cli_env(**LINT_ENV), timeout=240,
    )
    assert (run_dir / "report.json").exists(), p.stderr
    return Run(run_dir, p.returncode, p.stdout, p.stderr, baseline, junit)


@functools.cache
def validator():
    """Built once per session: building it costs ~0.2 s of CPU, checking one report ~2 ms
    (the corpus test checks 176 reports)."""
    import jsonschema

    schema = json.loads(SCHEMA.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())


def schema_errors(report: dict) -> list[str]:
    return [f"{e.json_path}: {e.message}" for e in validator().iter_errors(report)]


@functools.cache
def crash_check(base: Path):
    """One real 2-rank check whose rank 1 raises before the sweep (``--inject crash:1``), shared by
    test_faults (the verdict names the rank that died, not its victim) and test_ci (exit 4, the JUnit
    error, --min-busbw that could not be applied): the same job, started once. Returns the completed
    process, the run directory, the JUnit file and the processes that outlived the command (looked
    for as soon as it returned, as test_faults' own runs do)."""
    from tests.test_faults import leftovers

    run_dir, junit = base / "run", base / "ci.xml"
    p = run_cli("check", "--no-config", "--out", str(run_dir), "-e", "4K", "--inject", "crash:1",
                "--min-busbw", "5", "--junit", str(junit), "--json", timeout=240)
    return p, run_dir, junit, leftovers(run_dir)
