"""The quick tier's guard refuses torchrun, namespaces and Chromium, in children too."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import pytest

from tests.conftest import TIER_GUARD

spec = importlib.util.spec_from_file_location("_tier_guard_under_test", TIER_GUARD / "sitecustomize.py")
guard = importlib.util.module_from_spec(spec)
spec.loader.exec_module(guard)


@pytest.mark.parametrize("argv, what", [
    (["/usr/bin/python3", "-m", "torch.distributed.run", "--standalone", "x.py"], "torchrun"),
    (["torchrun", "--nproc-per-node", "2", "x.py"], "torchrun"),
    (["ip", "netns", "exec", "ns0", "python"], "a network namespace"),
    (["unshare", "-n", "true"], "a network namespace"),
    (["/usr/bin/chromium", "--headless"], "Chromium"),
    (["python", "-m", "ncclDoctor", "env", "--out", "/tmp/test_netns0/torchrun"], None),
    (["ip", "addr"], None),
    (["bash", "-n", "spec.sh"], None),
])
def test_what_the_guard_refuses(argv, what):
    assert guard._what(argv) == what


def test_a_child_python_refuses_torchrun_and_the_session_log_names_the_test(tmp_path):
    log = tmp_path / "violations.log"
    env = {**os.environ, "NCCLDOCTOR_TEST_TIER": "quick", "NCCLDOCTOR_TIER_LOG": str(log),
           "PYTEST_CURRENT_TEST": "tests/test_x.py::test_y (call)",
           "PYTHONPATH": os.pathsep.join([str(TIER_GUARD), os.environ.get("PYTHONPATH", "")])}
    code = ("import subprocess, sys\n"
            "subprocess.run([sys.executable, '-m', 'torch.distributed.run', '--help'])\n"
            "print('torchrun started')\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=env)
    assert p.returncode != 0 and "torchrun started" not in p.stdout
    assert "quick tier: a test started torchrun" in p.stderr
    assert log.read_text().startswith("tests/test_x.py::test_y (call)\tquick tier: a test started torchrun")
