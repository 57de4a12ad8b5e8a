"""``ncclDoctor check``: preflight, probe under torchrun, analyse, report -- for 1 or N nodes.

    from ncclDoctor.check import CheckOptions, run_check
    report = run_check(CheckOptions(nproc_per_node=2, backend="gloo"))

Stages, one module each (``run_check`` composes them):

=====================  ===========================================================
``ncclDoctor.preflight``  this host's facts and rules over them (shared with ``env``)
``check.options``      CheckOptions -> a frozen ``Plan`` with its ``Topology``
``check.launch``       control store, probe config, torchrun under the generic
                       supervisor (``ncclDoctor.launch``) -> a ``Job``
``check.coordinate``   the exchange between nodes: reporting node or member
                       (no-ops at N = 1)
``check.analyse``      outcome -> tables, findings, exit code (pure)
``check.phases``       the probe's phases and deadlines (the one list)
``check.failfast``     what preflight proved fatal: stop before launch, on every node
``check.heartbeat``    N > 1: each node's beat through the control store; a node
                       silent mid-run is lost (RUN105, ``check.failfast``)
=====================  ===========================================================

A single node is the N = 1 case: torchrun ``--standalone``, a private control store,
no structure phase, nothing to coordinate. The report is written whatever happens: at
the start, and again after a failed launch, a hang, a crash or Ctrl-C.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from typing import Callable, Iterator

from ncclDoctor import finish, preflight
from ncclDoctor.check import analyse, coordinate, failfast, launch
from ncclDoctor.check.options import CheckOptions, Plan, plan
from ncclDoctor.errors import CouldNotRun, ExitCode
from ncclDoctor.finish import default_run_dir
from ncclDoctor.report import html
from ncclDoctor.report.model import Report
from ncclDoctor.report.write import write_run_dir
from ncclDoctor.rules.codes import run as run_rules
from ncclDoctor.units import parse_size

__all__ = ["CheckOptions", "Plan", "run_check", "default_run_dir", "parse_size"]


class _Finish:
    code: ExitCode = ExitCode.OK


@contextlib.contextmanager
def finishing(report: Report, p: Plan, t0: float) -> Iterator[_Finish]:
    """Whatever happens inside, ``ncclDoctor.finish.finishing`` as for every command (CI
    gates, verdict, the run directory written whole, JUnit and baseline published). A store
    another node cannot reach is a finding (exit 3)."""
    fin = _Finish()
    try:
        yield fin
    except CouldNotRun as exc:  # e.g. another node cannot reach the rendezvous host's control store
        report.add(run_rules.LAUNCH_FAILED.finding(str(exc), nodes=[p.where]))
        fin.code = ExitCode.COULD_NOT_RUN
    finally:
        report.duration_s = round(time.monotonic() - t0, 3)
        finish.finishing(report, p.common, p.run_dir, gates=p.gates, outcome=fin.code)


def run_check(opts: CheckOptions, argv: list[str] | None = None, on_event: Callable | None = None,
              progress: Callable[[str], None] | None = None) -> Report:
    env, t0 = dict(os.environ), time.monotonic()
    facts = preflight.gather(env)  # the same facts `ncclDoctor env` reads
    p = plan(opts, facts.host, env)  # validated, frozen; Topology inside
    report = Report(command="check", argv=list(argv or sys.argv[1:]), host=facts.host, config=p.summary(opts))
    report.settings = preflight.settings(facts)
    report.add(*preflight.judge(env, facts, backend=p.backend, nproc_per_node=p.nproc_per_node, where=p.where))
    if p.world_size == 1:
        report.add(run_rules.SINGLE_RANK.finding("World size is 1: busbw is 0 by definition.", nodes=[p.where]))
    p.run_dir.mkdir(parents=True, exist_ok=True)
    write_run_dir(report, p.run_dir)  # a report exists from the first second on
    fatal = failfast.blocking(p, report.findings, facts.host, env)
    with finishing(report, p, t0) as fin:
        if fatal:  # what preflight proved: stop now, on every node (check.failfast)
            fin.code = failfast.stop_before_launch(report, p, env, fatal)
            return report
        if progress:
            progress(f"launching {p.world_size} {p.backend} rank(s) under torchrun; run directory {p.run_dir}")
        job = launch.start(p, env, list(report.findings), on_event)
        html.preload()  # while the ranks start (torchrun is forked by now): the report at the end is quicker
        outcome = job.wait()  # ok | failed | hang | interrupted; evidence gathered before teardown
        if outcome.phase == failfast.PHASE:
            fin.code = failfast.peer_stopped(report, job.control, outcome)
            coordinate.finish(report, p, outcome, job.control, job.reporting, job.note)
            return report
        fin.code = analyse.fill(report, p, outcome, job.identities(), job.torchrun_record())
        analyse.against_reference(report, p, env)
        if outcome.status == "interrupted":
            report.interrupted = True
            report.add(run_rules.INTERRUPTED.finding("Interrupted by the user; results below are partial."))
        else:
            coordinate.finish(report, p, outcome, job.control, job.reporting, job.note)
    return report
