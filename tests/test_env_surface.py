"""The foundation's env surfacing and the lint the check must always do."""

from ncclDoctor.rules import env as env_rules


def test_nccl_timeout_is_flagged_as_nonexistent():
    codes = {f.code: f for f in env_rules.lint({"NCCL_TIMEOUT": "1800"})}
    assert "ENV001" in codes
    assert "init_process_group(timeout" in codes["ENV001"].message


def test_legacy_torch_aliases_point_to_torch_names():
    env = {"NCCL_BLOCKING_WAIT": "1", "NCCL_ASYNC_ERROR_HANDLING": "1", "NCCL_DESYNC_DEBUG": "1"}
    found = [f for f in env_rules.lint(env) if f.code == "ENV002"]
    assert len(found) == 3
    text = " ".join(f.message for f in found)
    for name in env:
        assert f"TORCH_{name}" in text


def test_surface_lists_only_distributed_settings_with_meaning():
    rows = env_rules.surface({"NCCL_DEBUG": "INFO", "HOME": "/root", "MASTER_ADDR": "x", "OMP_NUM_THREADS": "4", "GLOO_FOO": "1"})
    names = [r["name"] for r in rows]
    assert names == ["GLOO_FOO", "MASTER_ADDR", "NCCL_DEBUG", "OMP_NUM_THREADS"]
    by = {r["name"]: r for r in rows}
    assert "log level" in by["NCCL_DEBUG"]["meaning"]
    assert by["GLOO_FOO"]["status"] == "unknown"


def test_clean_env_has_no_findings():
    assert env_rules.lint({"NCCL_DEBUG": "WARN", "NCCL_SOCKET_IFNAME": "eth0"}) == []
