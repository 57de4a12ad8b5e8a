"""Findings and the rule registry.

A *rule* is a stable code (``ENV001``) with its own What / Why / How-to-fix text; a
*finding* is one occurrence of a rule: what was seen, on which nodes and ranks, with
evidence. Codes are selectable by prefix the way ruff's are (``--select ENV``), and
``ncclDoctor explain CODE`` prints a rule's full text.

Code families:

=======  ==========================================================================
ENV      distributed environment variables (NCCL_*, TORCH_NCCL_*, GLOO_*, ...)
SYS      host facts: memory, /dev/shm, ulimits, CPU affinity
GPU      GPUs through NVML
NET      network interfaces, InfiniBand, transports
BW       measured bandwidth
RUN      the probe run itself: launch, rendezvous, hangs, crashes, wrong results
CON      consistency across nodes
LOG      diagnosis of logs and Flight Recorder dumps
DL       input pipelines: dataloader stalls, stragglers, sweeps
=======  ==========================================================================

The texts live in ``ncclDoctor/rules/codes/<family>.py`` (one leaf module per family).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, Iterable


class Severity(str, enum.Enum):
    INFO = "info"
    WARNING = "warning"
    ERROR = "error"

    @property
    def rank(self) -> int:
        return {"info": 0, "warning": 1, "error": 2}[self.value]

    @classmethod
    def parse(cls, value: str) -> Severity:
        try:
            return cls(value.lower())
        except ValueError:
            raise ValueError(
                f"unknown severity {value!r}; expected one of: info, warning, error"
            ) from None


@dataclass(frozen=True)
class Rule:
    code: str
    severity: Severity
    title: str
    why: str
    fix: str
    example: str = ""  # a bad and a good setting, shown by `ncclDoctor explain CODE`

    def finding(
        self,
        message: str,
        *,
        severity: Severity | None = None,
        nodes: Iterable[str] = (),
        ranks: Iterable[int] = (),
        evidence: Iterable[Any] = (),
        fix: str | None = None,
    ) -> Finding:
        return Finding(
            code=self.code,
            severity=severity or self.severity,
            title=self.title,
            message=message,
            why=self.why,
            fix=fix or self.fix,
            nodes=list(nodes),
            ranks=sorted(set(ranks)),
            evidence=list(evidence),
        )


@dataclass
class Finding:
    code: str
    severity: Severity
    title: str
    message: str
    why: str
    fix: str
    nodes: list[str] = field(default_factory=list)
    ranks: list[int] = field(default_factory=list)
    evidence: list[Any] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "severity": self.severity.value,
            "title": self.title,
            "message": self.message,
            "why": self.why,
            "fix": self.fix,
            "nodes": list(self.nodes),
            "ranks": list(self.ranks),
            "evidence": list(self.evidence),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Finding:
        return cls(
            code=data["code"],
            severity=Severity(data["severity"]),
            title=data.get("title", ""),
            message=data.get("message", ""),
            why=data.get("why", ""),
            fix=data.get("fix", ""),
            nodes=list(data.get("nodes", [])),
            ranks=list(data.get("ranks", [])),
            evidence=list(data.get("evidence", [])),
        )


RULES: dict[str, Rule] = {}


def rule(code: str, severity: str, title: str, *, why: str, fix: str, example: str = "") -> Rule:
    """Register a rule. Every rule needs a title, a why and a fix (tests enforce it); ``example``
    (optional) shows a bad and a good setting."""
    if code in RULES:
        raise ValueError(f"rule {code} registered twice")
    r = Rule(code, Severity(severity), title, why.strip(), fix.strip(), example.strip())
    RULES[code] = r
    return r


def load_codes() -> dict[str, Rule]:
    """Import every module of ``ncclDoctor.rules.codes`` (a new family file needs no list edit)."""
    import importlib
    import pkgutil

    from ncclDoctor.rules import codes

    for mod in pkgutil.iter_modules(codes.__path__, codes.__name__ + "."):
        importlib.import_module(mod.name)
    return RULES


def load_all_rules() -> dict[str, Rule]:
    """The complete registry: every rule text lives in ``ncclDoctor.rules.codes``."""
    return load_codes()


def explain(code: str) -> Rule:
    rules = load_all_rules()
    key = code.strip().upper()
    if key not in rules:
        close = sorted(c for c in rules if c.startswith(key[:3]))
        hint = f"; codes in that family: {', '.join(close)}" if close else ""
        raise KeyError(f"no rule with code {code!r}{hint}")
    return rules[key]


def worst(findings: Iterable[Finding]) -> Severity | None:
    sev = None
    for f in findings:
        if sev is None or f.severity.rank > sev.rank:
            sev = f.severity
    return sev


def sort_findings(findings: Iterable[Finding]) -> list[Finding]:
    """Worst first, then by code, so reports read the same every time."""
    return sorted(findings, key=lambda f: (-f.severity.rank, f.code, f.message))


def select(
    findings: Iterable[Finding],
    select: Iterable[str] = (),
    ignore: Iterable[str] = (),
) -> list[Finding]:
    """Keep findings whose code starts with a selected prefix and no ignored one."""
    sel = [s.upper() for s in select if s]
    ign = [s.upper() for s in ignore if s]
    out = []
    for f in findings:
        if sel and not any(f.code.startswith(p) for p in sel):
            continue
        if any(f.code.startswith(p) for p in ign):
            continue
        out.append(f)
    return out
