"""The options every report-writing command shares, validated once.

``check``, ``env``, ``diagnose``, ``sweep-workers``, ``stalls`` (and ``report`` for its
output) take the same finishing options::

    --out DIR        run directory (report.json, report.md, report.html), written whole
    --json           print report.json to stdout instead of the table
    --fail-on SEV    exit 1 when a finding is at least this severe: error | warning | info
    --select CODES   keep only findings with these codes or prefixes (ENV, BW101)
    --ignore CODES   drop findings with these codes or prefixes
    --junit FILE     JUnit XML, one test case per finding
    --prometheus FILE  node_exporter textfile (``report.prometheus``), written whole
    --config FILE / --no-config   settings file (``ncclDoctor.config``)

The settings file's ``fail-on``, ``select``, ``ignore``, ``junit`` and ``out`` apply to
every command; the command line wins. The busbw gates (``min-busbw``, ``baseline``,
``max-regression``, ``save-baseline``) apply to ``check`` only, the one command that
measures busbw. ``CommonOptions`` checks its values in ``__post_init__``, so every command
rejects a bad value with the same one-line message (exit 2) before it starts anything.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ncclDoctor.errors import UsageError
from ncclDoctor.findings import Severity

COMMON_KEYS = ("out", "fail_on", "select", "ignore", "junit")


def split_codes(values: Any) -> list[str]:
    """``--select ENV,BW --select RUN`` -> ["ENV", "BW", "RUN"] (ruff accepts both forms)."""
    if isinstance(values, str):
        values = [values]
    return [c.strip().upper() for v in values or [] for c in v.split(",") if c.strip()]


@dataclass(frozen=True)
class CommonOptions:
    out: str | None = None
    json: bool = False
    fail_on: str = "error"
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    junit: str | None = None
    prometheus: str | None = None  # --prometheus FILE: node_exporter textfile (report.prometheus)
    config_file: str | None = None  # where file settings came from, for report.config
    severity: Severity = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        try:
            sev = Severity.parse(str(self.fail_on))
        except ValueError:
            raise UsageError(f"unknown --fail-on {self.fail_on!r}: expected error, warning or info") from None
        object.__setattr__(self, "severity", sev)
        object.__setattr__(self, "fail_on", sev.value)
        object.__setattr__(self, "select", tuple(split_codes(list(self.select))))
        object.__setattr__(self, "ignore", tuple(split_codes(list(self.ignore))))
        for code in (*self.select, *self.ignore):
            if not code.isalnum():
                raise UsageError(f"bad code or prefix {code!r} in --select/--ignore: expected e.g. ENV or ENV001")
        for name in ("out", "junit", "prometheus"):
            value = getattr(self, name)
            object.__setattr__(self, name, str(value) if value is not None else None)

    @classmethod
    def from_cli(cls, cfg: Any = None, **cli: Any) -> CommonOptions:
        """Command-line values over the settings file's (``config.Config``); None/[] means unset."""
        values = dict(getattr(cfg, "values", {}) or {})
        merged = {k: values[k] for k in COMMON_KEYS if k in values}
        for k, v in cli.items():
            if v is not None and v != [] and v != ():
                merged[k] = v
        path = getattr(cfg, "path", None)
        return cls(**merged, config_file=str(path) if path else None)

    def summary(self) -> dict[str, Any]:
        return {
            "out": self.out,
            "fail_on": self.fail_on,
            "select": list(self.select),
            "ignore": list(self.ignore),
            "junit": self.junit,
            "prometheus": self.prometheus,
            "config_file": self.config_file,
        }
