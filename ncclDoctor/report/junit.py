"""JUnit XML for CI systems (GitHub Actions test reporters, GitLab ``artifacts:reports:junit``,
Jenkins): ``ncclDoctor check --junit ncclDoctor.xml``.

Layout (one suite per report)::

    <testsuites name="ncclDoctor" tests= failures= errors=>
      <testsuite name="ncclDoctor check" timestamp= hostname= time=>
        <properties> verdict, exit_code, tool_version, schema_version, run_dir </properties>
        <testcase classname="ncclDoctor.check" name="run">            the run itself
        <testcase classname="ncclDoctor.check.ENV" name="ENV001 ...">  one per finding

- ``run`` has an ``<error>`` when the tool could not do its job (exit 3 could not run,
  4 fault localized, 130 interrupted): CI shows "error", not "failure", for those.
- A finding at or above ``--fail-on`` is a ``<failure>`` (type = its severity, message =
  what was seen, body = why and fix, nodes and ranks); one below it is a passing case
  whose text is in ``<system-out>``, so CI still lists it.

``fail_on`` defaults to the report's ``config["fail_on"]`` (what check records).
"""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from ncclDoctor.errors import ExitCode
from ncclDoctor.findings import Severity
from ncclDoctor.fsutil import write_text_atomic

# XML 1.0 forbids most control characters; log excerpts in evidence may carry them.
_BAD_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
RUN_ERRORS = {int(ExitCode.COULD_NOT_RUN): "could not run", int(ExitCode.FAULT): "fault localized",
              int(ExitCode.INTERRUPTED): "interrupted"}


def _t(text: Any) -> str:
    return _BAD_XML.sub("?", str(text))


def _finding_body(f: Any) -> str:
    lines = [f.message]
    if f.nodes:
        lines.append(f"nodes: {', '.join(f.nodes)}")
    if f.ranks:
        lines.append(f"ranks: {', '.join(map(str, f.ranks))}")
    lines += [f"why: {' '.join(f.why.split())}", f"fix: {' '.join(f.fix.split())}"]
    return _t("\n".join(lines))


def render_junit(report: Any, fail_on: str | None = None) -> str:
    threshold = Severity.parse(fail_on or report.config.get("fail_on") or "error")
    suite = ET.Element("testsuite", {
        "name": f"ncclDoctor {report.command}",
        "timestamp": report.started_at,
        "hostname": _t(report.host.get("hostname", "")),
        "time": f"{report.duration_s or 0:.3f}",
    })
    props = ET.SubElement(suite, "properties")
    for k in ("verdict", "exit_code", "tool_version", "schema_version", "run_dir"):
        ET.SubElement(props, "property", {"name": k, "value": _t(getattr(report, k))})
    ET.SubElement(props, "property", {"name": "fail_on", "value": threshold.value})

    failures = errors = 0
    run = ET.SubElement(suite, "testcase",
                        {"classname": f"ncclDoctor.{report.command}", "name": "run",
                         "time": f"{report.duration_s or 0:.3f}"})
    if report.exit_code in RUN_ERRORS:
        errors += 1
        e = ET.SubElement(run, "error",
                          {"type": RUN_ERRORS[report.exit_code],
                           "message": f"exit code {report.exit_code}: {RUN_ERRORS[report.exit_code]}"})
        e.text = _t("; ".join(f"{f.code}: {f.message}" for f in report.findings if f.code.startswith("RUN")))
    for f in report.findings:
        case = ET.SubElement(suite, "testcase", {
            "classname": f"ncclDoctor.{report.command}.{f.code.rstrip('0123456789')}",
            "name": _t(f"{f.code} {f.title}" + (f" [{', '.join(f.nodes)}]" if f.nodes else "")),
            "time": "0",
        })
        if f.severity.rank >= threshold.rank:
            failures += 1
            el = ET.SubElement(case, "failure", {"type": f.severity.value, "message": _t(f.message)})
            el.text = _finding_body(f)
        else:
            ET.SubElement(case, "system-out").text = _t(f"{f.severity.value}: ") + _finding_body(f)
    tests = 1 + len(report.findings)
    suite.attrib.update({"tests": str(tests), "failures": str(failures), "errors": str(errors), "skipped": "0"})
    root = ET.Element("testsuites",
                      {"name": "ncclDoctor", "tests": str(tests), "failures": str(failures), "errors": str(errors),
                       "time": suite.get("time", "0")})
    root.append(suite)
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def write_junit(report: Any, path: str | os.PathLike, fail_on: str | None = None) -> Path:
    return write_text_atomic(path, render_junit(report, fail_on))
