"""Every report-writing command accepts and honours the common finishing options
(``ncclDoctor.options``): --out, --json, --fail-on, --select, --ignore, --junit and the
settings file, validated once with one message. In-process CLI runs on fixtures; check
and sweep-workers (real torchrun runs) are covered for validation here and for the gates
in test_ci.py / test_sweep.py."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from ncclDoctor.cli import main
from tests.test_env_cli import SEED_EXPORTS
from tests.test_monitor import _jitter, _records

FIX = Path(__file__).parent / "fixtures"


def _stalls_dir(root: Path) -> Path:
    run = root / "monitored"
    (run / "monitor").mkdir(parents=True)
    recs = _records(4, 40, lambda r, s: (0.002 + (0.03 if r == 2 else 0.0) + _jitter(r, s), 0.02 + _jitter(s, r)))
    recs[1][-1] = {"kind": "epoch", "epoch": 0, "batches": 39, "len_loader": 39}  # DL003 too
    for rank, lines in recs.items():
        (run / "monitor" / f"rank-{rank}.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    return run


def _report_dir(root: Path) -> Path:
    run = root / "stored"
    assert main(["diagnose", str(FIX / "logs" / "socket_fallback"), "--out", str(run), "--no-config"]) in (0, 1)
    return run


# command -> function(tmp_path) giving its positional arguments
COMMANDS = {
    "env": lambda tmp: [],
    "diagnose": lambda tmp: [str(FIX / "logs" / "socket_fallback")],
    "stalls": lambda tmp: [str(_stalls_dir(tmp))],
    "report": lambda tmp: [str(_report_dir(tmp))],
}


@pytest.fixture
def cwd(tmp_path, clean_env):
    for k, v in SEED_EXPORTS.items():
        clean_env.setenv(k, v)
    clean_env.setenv("HOME", "/nonexistent-home")
    clean_env.chdir(tmp_path)
    return tmp_path


def _run(capsys, *args: str) -> tuple[int, dict]:
    capsys.readouterr()  # drop what a fixture's own run printed
    code = main([*args, "--json"])
    out = capsys.readouterr().out
    return code, json.loads(out)


def _codes(rep: dict) -> list[str]:
    return sorted(f["code"] for f in rep["findings"])


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_json_and_out(command, cwd, capsys):
    args = COMMANDS[command](cwd)
    code, rep = _run(capsys, command, *args, "--no-config", "--out", str(cwd / "o"))
    assert rep["command"] == ("diagnose" if command == "report" else command)
    stored = json.loads((cwd / "o" / "report.json").read_text())
    assert (
        _codes(stored) == _codes(rep) and (cwd / "o" / "report.md").is_file() and (cwd / "o" / "report.html").is_file()
    )
    assert rep["findings"], "the fixture must produce findings for the other options to mean something"


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_select_keeps_exactly_what_it_selects_and_ignore_drops_it(command, cwd, capsys):
    args = COMMANDS[command](cwd)
    _, full = _run(capsys, command, *args, "--no-config")
    codes = _codes(full)
    pick = codes[0]
    _, sel = _run(capsys, command, *args, "--no-config", "--select", pick)
    assert _codes(sel) == [c for c in codes if c == pick]
    family = pick[:3]
    _, sel2 = _run(capsys, command, *args, "--no-config", "--select", f"{family},XYZ")
    assert _codes(sel2) == [c for c in codes if c.startswith(family)]
    _, ign = _run(capsys, command, *args, "--no-config", "--ignore", pick)
    assert _codes(ign) == [c for c in codes if c != pick]
    assert ign["config"]["gates"]["suppressed"] == {pick: codes.count(pick)}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_fail_on_sets_the_exit_code(command, cwd, capsys):
    args = COMMANDS[command](cwd)
    _, full = _run(capsys, command, *args, "--no-config")
    sevs = {f["severity"] for f in full["findings"]}
    code_info, _ = _run(capsys, command, *args, "--no-config", "--fail-on", "info")
    assert code_info == 1  # every fixture has at least one finding
    lowest = [f["code"] for f in full["findings"] if f["severity"] == "info"]
    if "error" not in sevs and "warning" not in sevs:
        pytest.fail("fixture should have a warning or an error")
    worst = "error" if "error" in sevs else "warning"
    code_worst, _ = _run(capsys, command, *args, "--no-config", "--fail-on", worst)
    assert code_worst == 1
    kept = [f["code"] for f in full["findings"] if f["severity"] != worst][:1] or lowest[:1]
    if kept:  # selecting only findings below `worst` passes the same gate
        code_sel, _ = _run(capsys, command, *args, "--no-config", "--fail-on", worst, "--select", kept[0])
        assert code_sel == 0


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_junit_has_one_case_per_finding(command, cwd, capsys):
    args = COMMANDS[command](cwd)
    junit = cwd / "reports" / "j.xml"
    _, rep = _run(capsys, command, *args, "--no-config", "--junit", str(junit))
    cases = ET.parse(junit).getroot().iter("testcase")
    names = sorted(c.get("name", "") for c in cases)
    assert len([n for n in names if re.match(r"[A-Z]+[0-9]{3} ", n)]) == len(rep["findings"])
    for code in _codes(rep):
        assert any(code in n for n in names), (code, names)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_settings_file_applies_and_the_command_line_wins(command, cwd, capsys):
    args = COMMANDS[command](cwd)
    _, full = _run(capsys, command, *args, "--no-config")
    pick = _codes(full)[0]
    (cwd / "ncclDoctor.toml").write_text(f'fail-on = "info"\nignore = ["{pick}"]\n')
    code, rep = (
        _run(capsys, command, *args) if command != "report" else _run(capsys, command, *args, "--fail-on", "info")
    )
    assert pick not in _codes(rep)
    assert code == (1 if rep["findings"] else 0)
    code_cli, _ = _run(capsys, command, *args, "--fail-on", "error", "--ignore", "ZZZ")
    errors = [f for f in full["findings"] if f["severity"] == "error" and f["code"] != pick]
    assert code_cli == (1 if errors else 0)


ALL = ["env", "diagnose", "stalls", "report", "check", "sweep-workers"]


@pytest.mark.parametrize("command", ALL)
def test_bad_fail_on_and_codes_are_one_message_exit_2_before_anything_runs(command, cwd, capsys):
    args = COMMANDS.get(command, lambda tmp: [])(cwd) if command in ("env", "check", "sweep-workers") else [str(cwd)]
    assert main([command, *args, "--no-config", "--fail-on", "loud"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "ncclDoctor: error: unknown --fail-on 'loud': expected error, warning or info"
    assert main([command, *args, "--no-config", "--select", "EN-V"]) == 2
    err = capsys.readouterr().err
    assert "bad code or prefix 'EN-V'" in err and len(err.strip().splitlines()) == 1
    assert not (cwd / "ncclDoctor-runs").exists()


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_junit_failures_follow_fail_on(command, cwd, capsys):
    args = COMMANDS[command](cwd)
    junit = cwd / "j.xml"
    _, rep = _run(capsys, command, *args, "--no-config", "--fail-on", "info", "--junit", str(junit))
    assert int(ET.parse(junit).getroot().get("failures")) == len(rep["findings"]) > 0
