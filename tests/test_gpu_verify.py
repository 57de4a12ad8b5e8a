"""benchmarks/gpu_verify.py, the prepared GPU-day script (issue #17), on a machine without a GPU.

The quick tests run it the way it runs here: only preflight and env apply, nothing starts
torchrun, every GPU step is skipped with its reason. The slow test rehearses every step
on gloo (``--rehearse``), so the parsing of each step's output is exercised before the
one GPU run that has no second try.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, cli_env

SCRIPT = ROOT / "benchmarks" / "gpu_verify.py"
STEPS = ["preflight", "check", "bare", "env", "train", "sweep", "monitor", "flight", "run", "oversub"]
NO_GPU = "no GPU (torch.cuda.is_available() is False)"
NO_RUN = "ncclDoctor run not available"
STEP_KEYS = {"name", "title", "status", "reason", "seconds", "timeout_s", "checks", "figures", "notes", "evidence"}


def verify(out, *args: str, timeout: float = 240) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), str(out), *args], capture_output=True, text=True,
                          timeout=timeout, env=cli_env(), cwd=str(ROOT))


@pytest.fixture(scope="module")
def no_gpu_run(tmp_path_factory):
    import torch

    if torch.cuda.is_available():
        pytest.skip("a GPU is present: these tests cover the no-GPU path (the GPU path would start torchrun)")
    out = tmp_path_factory.mktemp("gv")
    p = verify(out)
    return p, out, json.loads((out / "gpu_verify.json").read_text())


def test_no_gpu_run_exits_0_and_writes_every_step_in_order(no_gpu_run):
    p, out, doc = no_gpu_run
    assert p.returncode == 0, p.stderr[-2000:]
    assert doc["mode"] == "no-gpu" and doc["tool"] == "benchmarks/gpu_verify.py"
    assert [s["name"] for s in doc["steps"]] == STEPS
    for s in doc["steps"]:
        assert set(s) >= STEP_KEYS, s["name"]
        assert s["status"] in ("pass", "fail", "skipped", "error"), s
        for c in s["checks"]:
            assert set(c) == {"name", "ok", "detail"} and c["ok"] in (True, False, None), c
    assert sum(doc["summary"].values()) == len(STEPS)
    assert doc["machine"]["cuda_available"] is False


def test_no_gpu_run_skips_gpu_steps_with_the_reason(no_gpu_run):
    _, _, doc = no_gpu_run
    by = {s["name"]: s for s in doc["steps"]}
    for name in ("check", "bare", "train", "sweep", "monitor", "flight", "oversub"):
        assert by[name]["status"] == "skipped" and by[name]["reason"] == NO_GPU, by[name]
        assert by[name]["checks"] == []
    # run: skipped because the command is missing, or (once it exists) because there is no GPU
    assert by["run"]["status"] == "skipped" and by["run"]["reason"] in (NO_RUN, NO_GPU), by["run"]


def test_no_gpu_run_still_checks_what_applies(no_gpu_run):
    _, out, doc = no_gpu_run
    by = {s["name"]: s for s in doc["steps"]}
    assert by["preflight"]["status"] == "pass", by["preflight"]
    assert by["preflight"]["figures"]["device_count"] == 0
    env = by["env"]
    assert env["status"] == "pass", env
    ok = {c["name"]: c["ok"] for c in env["checks"]}
    assert ok["env ran (exit 0 or 1), no traceback"] is True
    assert ok["GPU rules skipped with a reason (no NVML here)"] is True  # GPU000 in the real report
    assert ok["GPU rules evaluated on the real NVML"] is None  # n/a, not a pass
    assert (out / "runs" / "env" / "run" / "report.json").exists()


def test_summary_is_one_screen_and_printed(no_gpu_run):
    p, out, _ = no_gpu_run
    text = (out / "summary.txt").read_text()
    lines = text.splitlines()
    assert len(lines) == 1 + len(STEPS) and all(len(x) <= 160 for x in lines)
    assert text.strip() in p.stdout
    assert "SKIPPED check" in text and NO_GPU in text


def test_bad_usage_is_one_line_exit_2(tmp_path):
    p = verify(tmp_path, "--only", "nonsense", timeout=60)
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert p.stderr.strip().count("\n") == 0 and "--only takes" in p.stderr


def test_spent_budget_skips_steps_and_still_writes_the_json(tmp_path):
    p = verify(tmp_path, "--budget-s", "1", timeout=60)
    assert p.returncode == 0, p.stderr
    doc = json.loads((tmp_path / "gpu_verify.json").read_text())
    assert {s["status"] for s in doc["steps"]} == {"skipped"}
    assert all("time budget" in s["reason"] for s in doc["steps"])


@pytest.mark.slow
def test_rehearsal_on_gloo_exercises_every_step(tmp_path):
    """Every step on CPU/gloo: each must pass (GPU-only checks n/a), except run while it does not exist."""
    p = verify(tmp_path, "--rehearse", "--budget-s", "900", timeout=1000)
    assert p.returncode == 0, p.stderr[-2000:]
    doc = json.loads((tmp_path / "gpu_verify.json").read_text())
    assert doc["mode"] == "rehearsal"
    by = {s["name"]: s for s in doc["steps"]}
    for name in ("preflight", "check", "bare", "env", "train", "sweep", "monitor", "flight"):
        assert by[name]["status"] == "pass", (name, by[name]["reason"], by[name]["checks"])
        assert any(c["ok"] is True for c in by[name]["checks"]), name
    assert by["check"]["figures"]["world"] == 2 and by["check"]["figures"]["peak_busbw_gbps"] > 0
    assert by["train"]["figures"]["accuracy"] > 0.6
    assert by["oversub"]["reason"] == NO_GPU
    assert by["run"]["status"] in ("skipped", "pass"), by["run"]


def test_sigterm_stops_the_child_and_keeps_the_json(tmp_path):
    """The device's timeout sends SIGTERM: the running child's group is stopped, the JSON says so."""
    import os
    import signal
    import time

    p = subprocess.Popen([sys.executable, str(SCRIPT), str(tmp_path)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=cli_env(), cwd=str(ROOT))
    try:
        deadline = time.monotonic() + 60
        while not (tmp_path / "runs" / "preflight").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.2)  # inside the first child (it imports torch: seconds)
        p.send_signal(signal.SIGTERM)
        out, err = p.communicate(timeout=60)
    finally:
        p.kill()
    assert p.returncode == 0, err[-2000:]
    doc = json.loads((tmp_path / "gpu_verify.json").read_text())
    assert doc["terminated"] == f"stopped by signal {int(signal.SIGTERM)}"
    assert doc["steps"][-1]["status"] == "error" and len(doc["steps"]) < len(STEPS)
    # the child (probe_env.py, in its own session) is gone: no process still runs it from this tmp dir
    probe = str(ROOT / "benchmarks" / "gpu_jobs" / "probe_env.py")
    left = [pid for pid in os.listdir("/proc") if pid.isdigit() and _cmdline_has(pid, probe)]
    assert not left, left


def _cmdline_has(pid: str, text: str) -> bool:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            return text.encode() in fh.read()
    except OSError:
        return False


def _load(name: str):
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / "gpu_jobs" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("fixture", sorted(p.name for p in (ROOT / "tests" / "fixtures" / "nvml").glob("*.json")
                                           if p.name != "no_driver.json"))
def test_nvml_recorder_round_trips_every_fixture(fixture, tmp_path):
    """The GPU day records the real driver with nvml_record.py; here it records the replay of
    each fixture (same pynvml functions, same errors) and the replay of that recording must
    give the same facts, so the snapshot it brings back is a valid fixture."""
    from ncclDoctor.facts.gpu import collect_gpu_facts
    from ncclDoctor.facts.nvml_replay import NvmlReplay

    rec = _load("nvml_record")
    src = ROOT / "tests" / "fixtures" / "nvml" / fixture
    snap = rec.record(NvmlReplay(src))
    out = tmp_path / "snap.json"
    out.write_text(json.dumps(snap))
    assert collect_gpu_facts(nvml=NvmlReplay(out)) == collect_gpu_facts(nvml=NvmlReplay(src))


def test_a_timed_out_step_kills_grandchildren_in_their_own_session(tmp_path):
    """torchrun starts its workers with start_new_session: the group kill alone would miss them."""
    import importlib.util
    import os

    spec = importlib.util.spec_from_file_location("gpu_verify", SCRIPT)
    gv = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gv)
    st = gv.Step("t", "timeout", 30, gv.Ctx(tmp_path, 60, False))
    code = ("import subprocess, sys, time; c = subprocess.Popen(['sleep', '300'], start_new_session=True); "
            "print(c.pid, flush=True); time.sleep(300)")
    p = st.run([sys.executable, "-c", code], "spawner", timeout=4)
    assert p.timed_out and p.rc is None
    assert st.checks[-1]["ok"] is False and "finished within" in st.checks[-1]["name"]
    grandchild = int(p.out.split()[0])
    stat = Path(f"/proc/{grandchild}/stat")
    alive = stat.exists() and stat.read_text().split()[2] != "Z"
    if alive:  # leave nothing behind even when failing
        os.kill(grandchild, 9)
    assert not alive
