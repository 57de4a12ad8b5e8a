"""CI gates over any Report: select/ignore, a busbw floor, a baseline, JUnit, baselines saved.

Every command that produces a ``Report`` (check, env, diagnose, sweep-workers, stalls,
report) gets the CI options through ``ncclDoctor.finish.finishing``, which calls these
functions in this order::

    gates = Gates(select=["ENV", "BW"], min_busbw_gbps=10, baseline="ci/base.json")
    gates.prepare()                       # before the run: a bad baseline file is exit 2 now
    ...                                   # the command's own pipeline fills the report
    judge(report, gates)                  # add gate findings, then drop unselected ones
    report.conclude(fail_on, outcome)     # verdict and exit code
    write_run_dir(report, run_dir)
    publish(report, gates)                # --junit FILE, --prometheus FILE, --save-baseline FILE

Order matters and is deliberate:

- gate findings (BW101 below --min-busbw, BW102 regression, BW103 not comparable, BW104
  nothing measured) are added *before* select/ignore, so ``--ignore BW102`` silences a
  known regression like any other finding;
- select/ignore drop findings, never the run's own outcome: a hang still exits 4 even
  with ``--ignore RUN``, because the check did not do its job. Dropped findings are
  counted in ``report.config["gates"]["suppressed"]``;
- JUnit and the saved baseline are written after the verdict, so they agree with it.

``--min-busbw`` is judged against the best busbw over all sizes of each series (the
whole job, and each node where per-node tables exist): small messages are latency-bound
and would fail any sensible floor.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from ncclDoctor.analysis import baseline as bl
from ncclDoctor.errors import UsageError
from ncclDoctor.findings import select as select_findings
from ncclDoctor.rules.codes import bw as ci_rules
from ncclDoctor.units import fmt_size

DEFAULT_MAX_REGRESSION_PCT = 10.0


@dataclass
class Gates:
    select: list[str] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)
    min_busbw_gbps: float | None = None
    baseline: str | None = None
    max_regression_pct: float = DEFAULT_MAX_REGRESSION_PCT
    save_baseline: str | None = None
    junit: str | None = None
    prometheus: str | None = None  # --prometheus FILE: node_exporter textfile (report.prometheus)
    config_file: str | None = None  # where these settings came from, for the report

    def __post_init__(self) -> None:
        # Not a field: asdict() (report.config) must not copy the whole baseline document.
        self._baseline_doc: dict[str, Any] | None = None

    def prepare(self) -> Gates:
        """Validate values and read the baseline now, before anything is launched."""
        if self.min_busbw_gbps is not None and self.min_busbw_gbps < 0:
            raise UsageError(f"--min-busbw must be >= 0 GB/s, got {self.min_busbw_gbps}")
        if not 0 <= self.max_regression_pct < 100:
            raise UsageError(f"--max-regression must be a percentage in [0, 100), got {self.max_regression_pct}")
        for code in [*self.select, *self.ignore]:
            if not code.strip().isalnum():
                raise UsageError(f"bad code or prefix {code!r} in --select/--ignore: expected e.g. ENV or ENV001")
        if self.baseline:
            self._baseline_doc = bl.load_baseline(self.baseline)
            bl.baseline_series(self._baseline_doc)  # malformed series fail here, not after the run
        return self

    def summary(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def wants_busbw(self) -> bool:
        return self.min_busbw_gbps is not None or bool(self.baseline) or bool(self.save_baseline)


def _min_busbw(report: Any, series: bl.Series, floor: float) -> None:
    for (table, node), sizes in sorted(series.items()):
        size, peak = max(sizes.items(), key=lambda kv: kv[1])
        if peak < floor:
            where = "the whole job" if node == bl.WHOLE_JOB else node
            report.add(ci_rules.BELOW_MIN_BUSBW.finding(
                f"{table} peak busbw on {where} is {peak:.3g} GB/s (at {fmt_size(size)}), "
                f"{peak / floor * 100 if floor else 0:.0f}% of the required {floor:g} GB/s.",
                nodes=[] if node == bl.WHOLE_JOB else [node],
                evidence=[{"table": table, "node": node, "peak_busbw_gbps": round(peak, 4), "size": size,
                           "min_busbw_gbps": floor}],
            ))


def _baseline(report: Any, gates: Gates, series: bl.Series) -> None:
    try:  # prepare() read it already on the CLI path; a library caller may not have
        doc = gates._baseline_doc or bl.load_baseline(gates.baseline)  # type: ignore[arg-type]
        base = bl.baseline_series(doc)
    except UsageError as exc:  # after a run, a bad baseline is a finding, not a lost report
        report.add(ci_rules.BASELINE_MISMATCH.finding(f"Baseline not compared: {exc}"))
        return
    rows = bl.compare(base, series, gates.max_regression_pct)
    report.results["baseline"] = {
        "file": str(gates.baseline),
        "measured_at": doc.get("measured_at"),
        "backend": doc.get("backend"),
        "world_size": doc.get("world_size"),
        "max_regression_pct": gates.max_regression_pct,
        "rows": rows,
    }
    backend = (report.results.get("all_reduce") or {}).get("backend")
    compared = [r for r in rows if r["change_pct"] is not None]
    if (doc.get("backend") and backend and doc["backend"] != backend) or not compared:
        why = f"baseline backend {doc.get('backend')}, this run {backend}" if compared else ("no common table, node "
                "and size")
        report.add(ci_rules.BASELINE_MISMATCH.finding(f"Baseline {gates.baseline} not compared: {why}."))
        return
    bad = [r for r in compared if r["regressed"]]
    if bad:
        worst = min(bad, key=lambda r: r["change_pct"])
        parts = [
            f"{fmt_size(r['size'])}{'' if r['node'] == bl.WHOLE_JOB else ' on ' + r['node']}: "
            f"{r['busbw_gbps']:.3g} vs {r['baseline_busbw_gbps']:.3g} GB/s ({r['change_pct']:+.1f}%)"
            for r in sorted(bad, key=lambda r: r["change_pct"])
        ]
        if len(parts) > 8:  # the full list is in the evidence and the baseline table
            parts = parts[:8] + [f"and {len(parts) - 8} more"]
        report.add(ci_rules.REGRESSION.finding(
            f"busbw fell by more than {gates.max_regression_pct:g}% at {len(bad)} of {len(compared)} compared sizes "
            f"(worst {worst['change_pct']:+.1f}% at {fmt_size(worst['size'])}): " + "; ".join(parts) + ".",
            nodes=sorted({r["node"] for r in bad if r["node"] != bl.WHOLE_JOB}),
            evidence=bad,
        ))


def judge(report: Any, gates: Gates) -> None:
    """Add the gate findings, then apply select/ignore. Call before ``report.conclude``."""
    series = bl.busbw_series(report.results)
    if gates.wants_busbw and not series:
        report.add(ci_rules.NO_BUSBW.finding("No busbw table in this run: the busbw gates were not applied."))
    elif series:
        if gates.min_busbw_gbps is not None:
            _min_busbw(report, series, gates.min_busbw_gbps)
        if gates.baseline:
            _baseline(report, gates, series)
    kept = select_findings(report.findings, gates.select, gates.ignore)
    kept_ids = {id(f) for f in kept}
    suppressed: dict[str, int] = {}
    for f in report.findings:
        if id(f) not in kept_ids:
            suppressed[f.code] = suppressed.get(f.code, 0) + 1
    report.findings = kept
    report.config["gates"] = {**gates.summary(), "suppressed": suppressed}


def publish(report: Any, gates: Gates) -> list[str]:
    """Write --junit, --prometheus and --save-baseline files; return what was written, for the user."""
    from ncclDoctor.report.junit import write_junit

    written = []
    if gates.junit:
        written.append(str(write_junit(report, gates.junit)))
    if gates.prometheus:
        from ncclDoctor.report.prometheus import write as write_prometheus

        written.append(write_prometheus(report, gates.prometheus))
    if gates.save_baseline and bl.busbw_series(report.results):
        written.append(str(bl.save_baseline(report, gates.save_baseline)))
    return written
