"""The package works installed, not only from a checkout (integration tier).

Builds the wheel (`pip wheel --no-deps --no-build-isolation`), checks that every source
and data file of the three shipped packages is inside it (the report schema above all),
then unpacks it into a folder outside the checkout and runs the CLI from a third folder,
with PYTHONPATH naming only that folder: `explain`, `schema`, `diagnose` on a recorded
fixture, and a real 2-rank `check` whose torchrun workers import the probes from there.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import ROOT

SHIPPED = ("ncclDoctor", "probes", "reference_train")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    src, out = tmp_path_factory.mktemp("src"), tmp_path_factory.mktemp("wheel")
    # Build from a copy: setuptools writes build/ and *.egg-info next to the sources.
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, src / name)
    for d in SHIPPED:
        shutil.copytree(ROOT / d, src / d, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    # Offline where setuptools is already here; Python >= 3.12 venvs lack it, then pip fetches it.
    isolation = [] if importlib.util.find_spec("setuptools") is None else ["--no-build-isolation"]
    p = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", *isolation, "-q", "-w", str(out), str(src)],
        capture_output=True, text=True, timeout=300, cwd=str(out),
    )
    assert p.returncode == 0, p.stderr[-3000:]
    (whl,) = out.glob("*.whl")  # the file name is normalised: nccldoctor-<version>-py3-none-any.whl
    return whl


def _source_files() -> set[str]:
    return {
        p.relative_to(ROOT).as_posix()
        for d in SHIPPED for p in (ROOT / d).rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
    }


def test_wheel_holds_every_shipped_file_and_the_console_script(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "ncclDoctor/report/schema/report.schema.json" in names
    assert {"ncclDoctor/py.typed", "probes/worker.py", "reference_train/__main__.py"} <= names
    missing = sorted(_source_files() - names)
    assert not missing, f"not in the wheel (package-data in pyproject.toml?): {missing}"
    (ep,) = [n for n in names if n.endswith(".dist-info/entry_points.txt")]
    assert "ncclDoctor = ncclDoctor.cli:main" in zipfile.ZipFile(wheel).read(ep).decode()


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory):
    """(env, cwd): the wheel unpacked as site-packages would hold it, and a folder to run in."""
    site = tmp_path_factory.mktemp("site")
    zipfile.ZipFile(wheel).extractall(site)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NCCL_", "TORCH_NCCL_", "GLOO_", "PYTHON"))}
    env["PYTHONPATH"] = str(site)
    return env, tmp_path_factory.mktemp("elsewhere"), site


def _run(installed, *args, timeout=240):
    env, cwd, _ = installed
    return subprocess.run([sys.executable, "-m", "ncclDoctor", *args], capture_output=True, text=True,
                          timeout=timeout, env=env, cwd=str(cwd))


def test_installed_copy_is_the_one_imported(installed):
    env, cwd, site = installed
    p = subprocess.run([sys.executable, "-c", "import ncclDoctor, probes; print(ncclDoctor.__file__, probes.__file__)"],
                       capture_output=True, text=True, timeout=60, env=env, cwd=str(cwd))
    assert p.returncode == 0, p.stderr
    assert all(f.startswith(str(site)) for f in p.stdout.split()), p.stdout


def test_installed_explain_schema_and_diagnose(installed, tmp_path):
    p = _run(installed, "explain", "ENV001")
    assert p.returncode == 0 and "ENV001" in p.stdout, p.stderr
    p = _run(installed, "schema")
    assert p.returncode == 0 and json.loads(p.stdout)["title"], p.stderr
    fixture = ROOT / "tests" / "fixtures" / "fr" / "recorded" / "hang"
    p = _run(installed, "diagnose", str(fixture), "--json", "--out", str(tmp_path / "d"))
    assert p.returncode == 1, p.stderr
    assert "LOG001" in {f["code"] for f in json.loads(p.stdout)["findings"]}


def test_installed_check_runs_its_probes_from_the_install(installed, tmp_path):
    p = _run(installed, "check", "--no-config", "-e", "4K", "--iters", "2", "--warmup", "1", "--json",
             "--out", str(tmp_path / "c"))
    assert p.returncode == 0, p.stderr[-3000:]
    assert json.loads(p.stdout)["verdict"] in ("pass", "warn")
