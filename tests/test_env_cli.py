"""`ncclDoctor env` and the per-rank lint in `check`, through the real CLI (settings exported
in the environment, as a job script would): in-process for env's logic, one run of `env`
and the `check` lint in real subprocesses."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ncclDoctor.cli import main
from ncclDoctor.findings import RULES
from tests.conftest import cli_env, run_cli, run_cli_here

FIX = Path(__file__).parent / "fixtures"

SEED_EXPORTS = {  # shared/seeds/000_feab5bac63a5aa81.txt, exported as the post says
    "NCCL_TIMEOUT": "1800000",
    "NCCL_IB_TIMEOUT": "22",
    "NCCL_IB_RETRY_CNT": "13",
    "NCCL_IB_HCA": "mlx5",
    "NCCL_IB_DISABLE": "1",
    "NCCL_PXN_DISABLE": "1",
    "NCCL_CHECKS_DISABLE": "1",
    "NCCL_MAX_NRINGS": "8",
    "TORCH_NCCL_BLOCKING_WAIT": "1",
    "TORCH_NCCL_ASYNC_ERROR_HANDLING": "1",
    "NCCL_BLOCKING_WAIT": "1",
    "NCCL_ASYNC_ERROR_HANDLING": "1",
}


def env_json(*args, **extra):
    res = run_cli_here("env", "--json", *args, env=cli_env(HOME="/nonexistent-home", **extra), timeout=120)
    assert res.stdout.startswith("{"), res.stderr
    return res, json.loads(res.stdout)


def test_seed_exports_fail_with_the_expert_findings():
    res, rep = env_json("--pg-timeout", "7200", **SEED_EXPORTS)
    assert res.returncode == 1 and rep["verdict"] == "fail" and rep["command"] == "env"
    got = {(f["code"],
            f["evidence"][0].split("=")[0] if f["evidence"] and isinstance(f["evidence"][0], str) else "")
           for f in rep["findings"]}
    for want in [("ENV001", "NCCL_TIMEOUT"), ("ENV006", "NCCL_IB_RETRY_CNT"), ("ENV003", "NCCL_CHECKS_DISABLE"),
                 ("ENV002", "NCCL_MAX_NRINGS"), ("ENV002", "NCCL_BLOCKING_WAIT"), ("ENV004", "NCCL_PXN_DISABLE"),
                 ("ENV008", "NCCL_IB_DISABLE"), ("ENV008", "TORCH_NCCL_BLOCKING_WAIT")]:
        assert want in got, (want, sorted(got))
    shown = {s["name"]: s for s in rep["settings"]}
    assert shown["NCCL_TIMEOUT"]["status"] == "never-existed"
    w = rep["results"]["ib_retry_window"]
    assert w["ib_timeout"] == 22 and w["ib_timeout_source"] == "set" and round(w["per_try_s"], 1) == 17.2


def test_clean_settings_pass_and_print_the_defaults_that_matter():
    res = run_cli("env", "--fail-on", "warning",
                  env=cli_env(HOME="/nonexistent-home", NCCL_SOCKET_IFNAME="=lo", GLOO_SOCKET_IFNAME="lo",
                              NCCL_DEBUG="WARN"), timeout=120)
    assert res.returncode == 0, res.stdout + res.stderr
    out = res.stdout
    assert "NCCL_SOCKET_IFNAME==lo" in out and "TORCH_FR_BUFFER_SIZE" in out and "30.1 s in all" in out
    assert "\nWARNING " not in out and "\nERROR " not in out
    assert "PASS" in out


def test_recorded_gpu_and_ib_faults_through_the_cli():
    res, rep = env_json(
        "--nproc-per-node", "2",
        NCCLDOCTOR_NVML_REPLAY=str(FIX / "nvml" / "nvlink_down.json"),
        NCCLDOCTOR_SYSFS_ROOT=str(FIX / "sysfs" / "port_down"),
        NCCL_IB_HCA="=mlx5_0,mlx5_1,mlx5_7",
    )
    codes = {f["code"] for f in rep["findings"]}
    assert {"GPU007", "NET003", "NET002"} <= codes and res.returncode == 1
    assert rep["host"]["gpus"]["count"] == 2 and len(rep["host"]["ib"]["hcas"]) == 4
    net002 = next(f for f in rep["findings"] if f["code"] == "NET002")
    assert "mlx5_7 not on this host" in net002["message"] and net002["severity"] == "warning"


def test_real_dev_shm_is_sized_for_the_dataloader():
    # 1 TiB of batches in flight cannot fit this machine's /dev/shm, whatever its size.
    res, rep = env_json("--nproc-per-node", "8", "--dataloader-workers", "8", "--batch-mib", "8192")
    shm = [f for f in rep["findings"] if f["code"] == "SYS006"]
    assert res.returncode == 1 and len(shm) == 1 and "= 1,048,576 MiB" in shm[0]["message"]


def test_conf_file_settings_are_shown_with_their_source(tmp_path):
    conf = tmp_path / "nccl.conf"
    conf.write_text("NCCL_TIMEOUT=30\nNCCL_DEBUG=INFO\n")
    res, rep = env_json(NCCL_CONF_FILE=str(conf))
    shown = {s["name"]: s for s in rep["settings"]}
    assert shown["NCCL_DEBUG"]["source"] == f"{conf}:2"
    assert any(f["code"] == "ENV001" and f"from {conf}:1" in f["message"] for f in rep["findings"])


def test_run_directory_is_written_and_rerendered(tmp_path):
    out = tmp_path / "run"
    res = run_cli_here("env", "--out", str(out), env=cli_env(HOME="/nonexistent-home", NCCL_TIMEOUT="5"), timeout=120)
    assert res.returncode == 0 and (out / "report.json").exists() and (out / "report.md").exists()
    md = run_cli_here("report", str(out), "--format", "markdown", timeout=60)
    assert md.returncode == 0 and "ENV001" in md.stdout


@pytest.mark.parametrize("args,extra,text", [
    (["--fail-on", "loud"], {}, "unknown --fail-on 'loud'"),
    (["--pg-timeout", "0"], {}, "--pg-timeout must be positive"),
    (["--nproc-per-node", "0"], {}, "--nproc-per-node must be at least 1"),
    ([], {"NCCLDOCTOR_NVML_REPLAY": "/nonexistent.json"}, "cannot read NCCLDOCTOR_NVML_REPLAY"),
])
def test_bad_input_is_one_line_and_exit_2(args, extra, text, clean_env, capsys):
    for k, v in extra.items():
        clean_env.setenv(k, v)
    assert main(["env", *args]) == 2
    err = capsys.readouterr().err
    assert text in err and "Traceback" not in err and len(err.strip().splitlines()) == 1, err


def test_every_new_rule_explains_itself(capsys):
    for code in ["ENV005", "ENV006", "ENV007", "ENV008", "ENV010", "ENV011", "ENV012", "NET001", "NET002",
                 "NET003", "NET004", "GPU000", "GPU001", "GPU005", "GPU010"]:
        assert main(["explain", code]) == 0
        out = " ".join(capsys.readouterr().out.split())  # rich may wrap: compare word streams
        rule = RULES[code]
        assert code in out and "Why it matters" in out and "How to fix" in out, code
        for text in (rule.title, rule.why, rule.fix):  # the rule's own text, not only the headings
            first = " ".join(text.split(". ")[0].split())[:60]
            assert first and first in out, (code, first)


def test_check_lints_every_rank_and_merges_identical_findings(tmp_path):
    res = run_cli(
        "check", "--nproc-per-node", "2", "-b", "1K", "-e", "4K", "-n", "2", "--timeout", "60",
        "--out", str(tmp_path / "run"), "--json",
        env=cli_env(NCCL_TIMEOUT="5", TORCH_NCCL_BLOCKING_WAIT="1", NCCL_BLOCKING_WAIT="0",
                    NCCL_SOCKET_IFNAME="=nosuch0"), timeout=240,
    )
    rep = json.loads(res.stdout)
    # gloo ignores NCCL_SOCKET_IFNAME, so the probe runs; the preflight still names the
    # interface that an nccl job on this host would fail to find, and that fails the check.
    net = [f for f in rep["findings"] if f["code"] == "NET001"]
    assert len(net) == 1 and "matches no interface" in net[0]["message"] and res.returncode == 1
    env001 = [f for f in rep["findings"] if f["code"] == "ENV001"]
    assert len(env001) == 1 and env001[0]["ranks"] == [0, 1], env001
    contra = {f["message"].split(" ")[0]: f for f in rep["findings"] if f["code"] == "ENV008"}
    # The alias disagreement is in the launching shell and on both ranks: one finding.
    assert contra["NCCL_BLOCKING_WAIT=0"]["ranks"] == [0, 1]
    # torchrun itself exports TORCH_NCCL_ASYNC_ERROR_HANDLING=1 to its workers when it is
    # unset (torch/distributed/elastic/agent/server/local_elastic_agent.py), so only the
    # ranks' own environments show the clash with blocking wait.
    assert "TORCH_NCCL_ASYNC_ERROR_HANDLING" in contra["TORCH_NCCL_BLOCKING_WAIT=1"]["message"]
    assert contra["TORCH_NCCL_BLOCKING_WAIT=1"]["ranks"] == [0, 1] and len(contra) == 2
