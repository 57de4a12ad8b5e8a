"""``ncclDoctor diagnose PATH...``: explain a failed run from its logs and Flight Recorder dumps.

Usage::

    ncclDoctor diagnose job-1234/logs/               # a directory, walked recursively
    ncclDoctor diagnose rank*.log.gz fr/comm_lib_trace_rank_*
    srun ... 2>&1 | ncclDoctor diagnose -             # stdin
    ncclDoctor diagnose ncclDoctor-runs/check-...     # an ncclDoctor run directory

Inputs: log files (plain or ``.gz``), directories, ``-`` for stdin, Flight Recorder dumps
(JSON, or pickle read through an unpickler that builds plain data only), torchrun error
files (``error.json``), ncclDoctor run directories, and the field's own outputs:
nccl-tests text and ``-J`` JSON, NCCL RAS reports (text, JSON) and ``dcgmi diag -j``
(``diagnose.fieldformats``: FLD findings, ``report.results["field"]``). A rank comes from the line itself
(``[rank3]:``, ``[PG 0 Rank 3]``, ``3: `` from ``srun -l``), from NCCL's ``host:pid``
mapped by its init line, or from the file name (``rank3.log``,
``comm_lib_trace_rank_3``, torchrun's ``attempt_0/3/stderr.log``).

Stages (``diagnose`` composes them; each is a module):

1. ``load``      expand paths; stream each file's trigger lines in bounded memory
                 (``ingest`` spreads large file sets over one worker process per CPU)
2. ``parse``     lines -> events (``signatures`` documents every family and format; the
                 readers of each family of lines are in ``readers/``, mixins of ``LineParser``)
3. ``flight_recorder``  dumps -> per-process-group collective records
4. ``state``     events -> bounded per-rank state
5. ``reason``    cross-rank conclusions: world size, culprits (behind or silent ranks),
                 desync (same SeqNum, different op or size), first failure, all joined
6. ``verdict``   the one conclusion an expert gives: cause class, culprits (only with the
                 confidence the input allows), proving lines, the specific fix (the detectors
                 of each cause family are in one module of ``verdict/``)
7. ``conclude``  conclusions and families -> LOG findings (``rules``; ``ncclDoctor explain LOG001``),
                 settings printed in the logs -> the ENV findings of ``ncclDoctor env``
8. ``timeline``  the per-rank timeline and next steps, in ``report.results["diagnose"]``

Exit codes (the table in ``ncclDoctor.errors``): 0 nothing at or above ``--fail-on``,
1 findings at or above it, 2 usage error (no such path), 70 the verdict's reasoning stopped on a
bug (LOG033: every other finding and the timeline are still reported). Unreadable, binary, empty
or truncated files are a LOG030 finding, never a crash.
"""

from __future__ import annotations

import os
import time
from typing import BinaryIO

from ncclDoctor.ci import Gates, judge
from ncclDoctor.diagnose import conclude, fieldformats, timeline
from ncclDoctor.diagnose.ingest import ingest_all
from ncclDoctor.diagnose.load import expand
from ncclDoctor.diagnose.reason import reason, world_size
from ncclDoctor.diagnose.verdict import reconcile, settle, verdict
from ncclDoctor.diagnose.verdict.base import Verdict
from ncclDoctor.errors import ExitCode
from ncclDoctor.findings import Severity
from ncclDoctor.report.model import Report
from ncclDoctor.rules.codes import log as L


def diagnose(paths: list[str], *, fail_on: Severity = Severity.ERROR, argv: list[str] | None = None,
             stdin: BinaryIO | None = None, jobs: int | None = None, gates: Gates | None = None) -> Report:
    """Read every input, reason across ranks, and return the concluded report
    (``gates``: the CI options --select/--ignore/--junit of ``ncclDoctor.ci``)."""
    t0 = time.monotonic()
    report = Report(command="diagnose", argv=list(argv or []), config={"paths": list(paths)})
    inputs = expand(paths, stdin)
    field_findings, field_outputs = fieldformats.read(inputs)  # nccl-tests, NCCL RAS, DCGM outputs
    collected = ingest_all(inputs, jobs)
    collected.finalize()
    conclusions = reason(collected)
    size, _, size_conf = world_size(collected)
    env = conclude.settings_findings(collected)
    try:
        v = verdict(collected, conclusions, env)
    except Exception as e:  # a bug in one detector must not lose what every reader gathered
        if os.environ.get("NCCLDOCTOR_DEBUG"):
            raise
        stopped = f"{type(e).__name__}: {str(e)[:200]}"
        v = Verdict("unknown", f"no verdict: diagnose's reasoning stopped with an internal error ({stopped})",
                    "Read the findings and the timeline below; please report the bug (NCCLDOCTOR_DEBUG=1 prints its "
                    "traceback).", "low")
    else:
        stopped = ""
    reconcile(v, conclusions)
    findings = conclude.from_conclusions(collected, conclusions) + conclude.from_families(collected)
    findings += env
    if stopped:
        findings.append(L.REASONING_STOPPED.finding(stopped))
    findings += conclude.from_verdict(collected, v, findings)
    findings += conclude.coverage(collected, size, size_conf) + conclude.from_inputs(inputs) + field_findings
    findings += conclude.nothing_found(findings, collected, field_outputs)
    v = settle(v, findings, field_outputs)  # last, after every reader's findings
    report.add(*findings)
    report.results["diagnose"] = timeline.results(collected, conclusions, inputs, findings, v)
    if field_outputs:
        report.results["field"] = field_outputs
    report.ranks = timeline.report_ranks(report.results["diagnose"]["ranks"], collected)
    report.duration_s = round(time.monotonic() - t0, 3)
    if gates is not None:
        judge(report, gates)
    report.conclude(fail_on, ExitCode.INTERNAL if stopped else None)
    return report
