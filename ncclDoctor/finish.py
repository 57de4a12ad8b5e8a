"""How every command that writes a report ends: ``finishing(report, common, run_dir)``.

The order is the same for check, env, diagnose, sweep-workers and stalls:

1. gates: the CI judgement (``ci.judge``): gate findings, then ``--select``/``--ignore``
   (dropped findings are counted in ``report.config["gates"]["suppressed"]``);
2. conclude: verdict and exit code from the findings at or above ``--fail-on``; a run
   that went wrong (``outcome``: COULD_NOT_RUN, FAULT, INTERRUPTED) wins;
3. write the run directory whole (report.json, report.md, report.html; each file is
   written then renamed), when there is one;
4. publish: ``--junit FILE`` and ``--save-baseline FILE``, after the verdict so they agree.

A library caller passes ``CommonOptions()`` for the defaults. ``check`` passes its own
``Gates`` (it alone has the busbw gates); every other command gets the gates from
``common`` (select, ignore, junit).
"""

from __future__ import annotations

import datetime as _dt
import os
import uuid
from pathlib import Path

from ncclDoctor.ci import Gates, judge, publish
from ncclDoctor.errors import ExitCode
from ncclDoctor.options import CommonOptions
from ncclDoctor.report.model import Report
from ncclDoctor.report.write import write_run_dir


def default_run_dir(command: str) -> Path:
    """``./ncclDoctor-runs/<command>-<time>-<4 hex>``: unique even for two runs in one second."""
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    return Path.cwd() / "ncclDoctor-runs" / f"{command}-{stamp}-{uuid.uuid4().hex[:4]}"


def gates_for(common: CommonOptions) -> Gates:
    """The CI gates a command without busbw gets: select, ignore and JUnit."""
    return Gates(
        select=list(common.select), ignore=list(common.ignore), junit=common.junit, prometheus=common.prometheus,
        config_file=common.config_file,
    ).prepare()


def finishing(
    report: Report,
    common: CommonOptions,
    run_dir: str | os.PathLike | None,
    *,
    gates: Gates | None = None,
    outcome: ExitCode = ExitCode.OK,
) -> list[str]:
    """Gates -> conclude -> write the run directory -> publish. Returns the files published."""
    gates = gates if gates is not None else gates_for(common)
    judge(report, gates)
    report.conclude(common.severity, outcome)
    report.config["fail_on"] = common.fail_on  # JUnit marks failures by it
    if run_dir is not None:
        write_run_dir(report, run_dir)
    return publish(report, gates)


def refinishing(report: Report, common: CommonOptions, run_dir: str | os.PathLike | None = None) -> list[str]:
    """Judge a stored report again (``ncclDoctor report RUN --select ... --fail-on ...``).

    A run that went wrong keeps its outcome (could not run, fault, internal error, interrupted): re-judging
    the findings never turns a hang into a pass."""
    kept = report.exit_code if report.exit_code in (ExitCode.COULD_NOT_RUN, ExitCode.FAULT, ExitCode.INTERNAL,
                                                ExitCode.INTERRUPTED) else 0
    finished_at = report.finished_at  # when the run ended, not when it was judged again
    written = finishing(report, common, None, outcome=ExitCode(kept))
    report.finished_at = finished_at
    if run_dir is not None:
        write_run_dir(report, run_dir)
    return written
