"""The report: one object every renderer reads.

``report.json`` is canonical and versioned (``SCHEMA_VERSION``); Markdown, terminal and
HTML are views of it (``report.views``), written by ``report.write``. This module imports
no renderer: the dependencies point one way, model -> views -> renderers -> write. Contract (ARCHITECTURE.md): \
top-level ``schema_version``,
``tool_version``, ``command``, ``started_at``, ``verdict``, ``exit_code``, ``findings``,
``nodes``, ``ranks``, ``results``. Fields may be added freely; renaming one bumps the
major schema version.

Verdicts:

``pass``   nothing at warning or above
``warn``   warnings, no errors
``fail``   at least one error finding
``error``  the tool could not do its job (probe could not run, interrupted)
"""

from __future__ import annotations

import datetime as _dt
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ncclDoctor import __version__
from ncclDoctor.errors import ExitCode
from ncclDoctor.findings import Finding, Severity, sort_findings, worst

SCHEMA_VERSION = "1.2"  # 1.2: results.collectives, results.expected, row root/expected_pct, results.diagnose.verdict


def now_iso() -> str:
    return _dt.datetime.now(_dt.timezone.utc).astimezone().isoformat(timespec="seconds")


@dataclass
class Report:
    command: str
    argv: list[str] = field(default_factory=list)
    started_at: str = field(default_factory=now_iso)
    finished_at: str | None = None
    duration_s: float | None = None
    verdict: str = "pass"
    exit_code: int = 0
    interrupted: bool = False
    findings: list[Finding] = field(default_factory=list)
    nodes: list[dict[str, Any]] = field(default_factory=list)
    ranks: list[dict[str, Any]] = field(default_factory=list)
    results: dict[str, Any] = field(default_factory=dict)
    host: dict[str, Any] = field(default_factory=dict)
    settings: list[dict[str, Any]] = field(default_factory=list)
    config: dict[str, Any] = field(default_factory=dict)
    run_dir: str | None = None
    schema_version: str = SCHEMA_VERSION
    tool_version: str = __version__

    def add(self, *findings: Finding) -> None:
        self.findings.extend(findings)

    def conclude(self, fail_on: Severity = Severity.ERROR, outcome: ExitCode | None = None) -> None:
        """Set verdict and exit code from the findings and, when the run itself went
        wrong, from ``outcome`` (COULD_NOT_RUN, FAULT or INTERRUPTED), which wins."""
        self.findings = sort_findings(self.findings)
        w = worst(self.findings)
        self.verdict = "fail" if w == Severity.ERROR else "warn" if w == Severity.WARNING else "pass"
        failing = w is not None and w.rank >= fail_on.rank
        self.exit_code = int(ExitCode.FINDINGS if failing else ExitCode.OK)
        if outcome is not None and outcome != ExitCode.OK:
            self.exit_code = int(outcome)
            self.verdict = "fail" if outcome == ExitCode.FAULT else "error"
        self.finished_at = now_iso()

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema_version": self.schema_version,
            "tool_version": self.tool_version,
            "command": self.command,
            "argv": list(self.argv),
            "started_at": self.started_at,
            "finished_at": self.finished_at,
            "duration_s": self.duration_s,
            "verdict": self.verdict,
            "exit_code": self.exit_code,
            "interrupted": self.interrupted,
            "findings": [f.to_dict() for f in self.findings],
            "nodes": self.nodes,
            "ranks": self.ranks,
            "results": self.results,
            "host": self.host,
            "settings": self.settings,
            "config": self.config,
            "run_dir": self.run_dir,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, default=str) + "\n"

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Report:
        major = str(data.get("schema_version", "0")).split(".")[0]
        if major != SCHEMA_VERSION.split(".")[0]:
            raise ValueError(
                f"report schema_version {data.get('schema_version')!r} is not readable by "
                f"ncclDoctor {__version__} (schema {SCHEMA_VERSION})"
            )
        known = {k: data[k] for k in cls.__dataclass_fields__ if k in data and k != "findings"}
        rep = cls(**known)
        rep.findings = [Finding.from_dict(f) for f in data.get("findings", [])]
        return rep

    @classmethod
    def load(cls, path: str | os.PathLike) -> Report:
        path = Path(path)
        if path.is_dir():
            path = path / "report.json"
        with open(path, encoding="utf-8") as fh:
            return cls.from_dict(json.load(fh))


def schema_text() -> str:
    """The JSON Schema of report.json shipped with this version (``report/schema/``)."""
    from importlib import resources

    return resources.files("ncclDoctor.report").joinpath("schema").joinpath("report.schema.json").read_text(
        encoding="utf-8")
