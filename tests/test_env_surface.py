"""The foundation's env surfacing. (The lint cases that were here, NCCL_TIMEOUT, the
legacy aliases and a clean setup, are covered in test_env_lint.py.)"""

from ncclDoctor.rules import env as env_rules


def test_surface_lists_only_distributed_settings_with_meaning():
    rows = env_rules.surface({"NCCL_DEBUG": "INFO", "HOME": "/root", "MASTER_ADDR": "x", "OMP_NUM_THREADS": "4",
                              "GLOO_FOO": "1"})
    names = [r["name"] for r in rows]
    assert names == ["GLOO_FOO", "MASTER_ADDR", "NCCL_DEBUG", "OMP_NUM_THREADS"]
    by = {r["name"]: r for r in rows}
    assert "log level" in by["NCCL_DEBUG"]["meaning"]
    assert by["GLOO_FOO"]["status"] == "unknown"

