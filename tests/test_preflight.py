"""One preflight for `env` and `check` (ncclDoctor.preflight): the same nccl.conf gives the
same ENV/NET findings through both commands, run as a user runs them."""

from __future__ import annotations

import json

from ncclDoctor import preflight
from tests.conftest import ROOT, cli_env, run_cli

CONF = ROOT / "tests" / "fixtures" / "nccl_conf" / "bad.conf"


def _env_net(report: dict) -> set[tuple[str, str]]:
    return {(f["code"], f["message"]) for f in report["findings"] if f["code"].startswith(("ENV", "NET"))}


def test_the_same_nccl_conf_gives_the_same_env_and_net_findings_through_env_and_check(tmp_path):
    env = cli_env(HOME="/nonexistent-home", NCCL_CONF_FILE=str(CONF))
    by_env = run_cli("env", "--json", env=env, timeout=120)
    by_check = run_cli("check", "--json", "--no-config", "--nproc-per-node", "2", "--backend", "gloo", "-b", "1K",
                       "-e", "4K", "--out", str(tmp_path / "run"), env=env, timeout=300)
    assert by_env.returncode == 1 and by_check.returncode == 1, by_check.stderr[-2000:]  # NET001 is an error
    env_report, check_report = json.loads(by_env.stdout), json.loads(by_check.stdout)
    found = _env_net(env_report)
    assert {"NET001", "NET002", "ENV001"} <= {code for code, _ in found}
    assert any(str(CONF) in msg for code, msg in found if code == "ENV001")  # the conf file is named as the source
    assert _env_net(check_report) == found
    assert check_report["results"]["run"]["status"] == "ok"  # gloo ignores NCCL's settings: the probe still ran
    # the settings table names the conf file as the source in both reports
    sources = {r["name"]: r.get("source") for r in check_report["settings"]}
    assert sources.get("NCCL_TIMEOUT", "").startswith(str(CONF))
    assert {r["name"]: r.get("source") for r in env_report["settings"]} == sources


def test_judge_without_a_launch_describes_the_host_only(monkeypatch):
    """`env` (no backend) leaves out what depends on ranks that will run (SYS003-SYS005);
    `check` with 64 gloo ranks on this small host gets SYS003 (oversubscribed)."""
    env = {"HOME": "/nonexistent-home", "PATH": "/usr/bin"}
    facts = preflight.gather(env)
    described = {f.code for f in preflight.judge(env, facts, nproc_per_node=64)}
    launched = {f.code for f in preflight.judge(env, facts, backend="gloo", nproc_per_node=64)}
    assert "SYS003" in launched and not described & set(preflight.LAUNCH_ONLY)
