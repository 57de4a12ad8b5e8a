"""SLURM node lists, allocation defaults and the generated sbatch / PyTorchJob specs."""

from __future__ import annotations

import subprocess

import pytest
import yaml

from ncclDoctor.errors import UsageError
from ncclDoctor.launch import slurm
from tests.conftest import run_cli


@pytest.mark.parametrize("text,hosts", [
    ("node01", ["node01"]),
    ("node[01-03,07]", ["node01", "node02", "node03", "node07"]),
    ("node[01-03,07],gpu5", ["node01", "node02", "node03", "node07", "gpu5"]),
    ("a[8-11]", ["a8", "a9", "a10", "a11"]),
    ("r[1-2]n[1-2]", ["r1n1", "r1n2", "r2n1", "r2n2"]),
    ("x-[009-010].dc,y", ["x-009.dc", "x-010.dc", "y"]),
])
def test_nodelist_expansion(text, hosts):
    assert slurm.expand_nodelist(text) == hosts


@pytest.mark.parametrize("bad", ["node[01-03", "node01]", "node[3-1]", "node[a-b]"])
def test_bad_nodelists_name_the_problem(bad):
    with pytest.raises(UsageError, match="bad SLURM node list"):
        slurm.expand_nodelist(bad)


def test_allocation_defaults_come_from_the_environment():
    env = {"SLURM_JOB_ID": "4242", "SLURM_NNODES": "4", "SLURM_NODEID": "2", "SLURM_JOB_NODELIST": "gpu[07-09],gpu12"}
    a = slurm.allocation(env)
    assert a.nnodes == 4 and a.node_id == 2
    assert a.rdzv_endpoint == f"gpu07:{slurm.DEFAULT_PORT}" and a.rdzv_id == "slurm-4242"
    assert slurm.allocation({}) is None


def test_allocation_rejects_a_node_count_that_contradicts_the_list():
    with pytest.raises(UsageError, match="names 2 hosts but SLURM_NNODES is 3"):
        slurm.allocation({"SLURM_JOB_ID": "1", "SLURM_NNODES": "3", "SLURM_JOB_NODELIST": "n[1-2]"})


def test_sbatch_script_is_valid_bash_and_runs_one_check_per_node(tmp_path):
    r = run_cli("launch-spec", "--slurm", "--nodes", "4", "--gpus-per-node", "8", timeout=60)
    assert r.returncode == 0, r.stderr
    script = r.stdout
    assert "#SBATCH --nodes=4" in script and "#SBATCH --ntasks-per-node=1" in script
    assert "#SBATCH --gpus-per-node=8" in script
    assert "srun --ntasks-per-node=1" in script and "ncclDoctor check" in script
    p = tmp_path / "job.sbatch"
    p.write_text(script)
    assert subprocess.run(["bash", "-n", str(p)]).returncode == 0


def test_k8s_manifest_is_a_pytorchjob_with_master_and_workers():
    r = run_cli("launch-spec", "--k8s", "--nodes", "3", "--nproc-per-node", "8", "--gpus-per-node", "8", "--image",
                "reg/img:1", timeout=60)
    assert r.returncode == 0, r.stderr
    doc = yaml.safe_load(r.stdout)
    assert doc["apiVersion"] == "kubeflow.org/v1" and doc["kind"] == "PyTorchJob"
    specs = doc["spec"]["pytorchReplicaSpecs"]
    assert specs["Master"]["replicas"] == 1 and specs["Worker"]["replicas"] == 2
    c = specs["Worker"]["template"]["spec"]["containers"][0]
    assert c["image"] == "reg/img:1" and c["resources"]["limits"]["nvidia.com/gpu"] == 8
    cmd = c["args"][0]
    assert "ncclDoctor check --nodes 3 --nproc-per-node 8" in cmd and '"$MASTER_ADDR:$MASTER_PORT"' in cmd
    assert c["volumeMounts"][0]["mountPath"] == "/dev/shm"


def test_launch_spec_needs_exactly_one_kind():
    r = run_cli("launch-spec", timeout=60)
    assert r.returncode == 2 and "exactly one of --slurm or --k8s" in r.stderr
