"""The report's layers point one way: findings -> report.model -> report.views ->
{console, markdown, html, junit} -> report.write (REVIEW.md P2)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.conftest import ROOT

RENDERERS = (
    "ncclDoctor.report.markdown",
    "ncclDoctor.report.html",
    "ncclDoctor.report.console",
    "ncclDoctor.report.junit",
    "ncclDoctor.report.views",
    "ncclDoctor.report.write",
)


def _modules_after(stmt: str) -> list[str]:
    code = f"import sys, json; {stmt}; print(json.dumps(sorted(m for m in sys.modules if m.startswith('ncclDoctor'))))"
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_report_model_imports_no_renderer():
    mods = _modules_after("from ncclDoctor.report.model import Report; Report('x').to_json()")
    assert not set(mods) & set(RENDERERS)
    assert set(mods) <= {
        "ncclDoctor",
        "ncclDoctor.errors",
        "ncclDoctor.findings",
        "ncclDoctor.report",
        "ncclDoctor.report.model",
    }, mods


def test_views_import_no_renderer_and_the_monitor_only_the_standard_library():
    assert not set(_modules_after("import ncclDoctor.report.views")) & set(RENDERERS[:4])
    assert _modules_after("import ncclDoctor.monitor") == ["ncclDoctor", "ncclDoctor.monitor"]
