"""The env lint, rule by rule: each fixture below fires its rule, the clean setup fires
nothing, and the setups people copy from blogs get the findings an expert would write."""

from __future__ import annotations

import pytest

from ncclDoctor.facts.ncclconf import parse_conf, read_conf_files
from ncclDoctor.findings import load_all_rules
from ncclDoctor.knowledge.env_vars import BY_NAME, TABLE
from ncclDoctor.rules.env import lint, lint_ranks, merge_duplicates, surface

HOST_IFACES = ["lo", "eth0", "eth01", "ib0"]
HOST_HCAS = ["mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"]

# A production setup an expert would sign off: nothing here may fire.
CLEAN = {
    "NCCL_SOCKET_IFNAME": "=eth0",
    "GLOO_SOCKET_IFNAME": "eth0",
    "NCCL_IB_HCA": "=mlx5_0,mlx5_1,mlx5_2,mlx5_3",
    "NCCL_IB_TIMEOUT": "20",
    "NCCL_IB_RETRY_CNT": "7",
    "NCCL_DEBUG": "WARN",
    "NCCL_DEBUG_FILE": "/var/log/nccl/%h.%p.log",
    "NCCL_CROSS_NIC": "0",
    "TORCH_NCCL_ASYNC_ERROR_HANDLING": "3",
    "TORCH_NCCL_DUMP_ON_TIMEOUT": "1",
    "TORCH_FR_BUFFER_SIZE": "2000",
    "TORCH_FR_DUMP_TEMP_FILE": "/var/log/fr/trace_",
    "OMP_NUM_THREADS": "8",
}


def run(env, **kw):
    kw.setdefault("interfaces", HOST_IFACES)
    kw.setdefault("hcas", HOST_HCAS)
    kw.setdefault("pg_timeout_s", 600)
    return lint(env, where="10.0.0.1 (node1)", **kw)


def codes(findings):
    return sorted({f.code for f in findings})


def by_code(findings, code):
    hits = [f for f in findings if f.code == code]
    assert hits, f"{code} did not fire; got {[(f.code, f.message) for f in findings]}"
    return hits


def test_clean_setup_fires_nothing():
    assert run(CLEAN) == []


# One setup per rule: (environment, code that must fire, text its message must contain)
CASES = [
    ({"NCCL_TIMEOUT": "1800"}, "ENV001", "nothing reads it"),
    ({"NCCL_TIMEOUT": "1800"}, "ENV001", "init_process_group(timeout"),
    ({"NCCL_BLOCKING_WAIT": "1"}, "ENV002", "use TORCH_NCCL_BLOCKING_WAIT"),
    ({"NCCL_DESYNC_DEBUG": "1"}, "ENV002", "TORCH_NCCL_DESYNC_DEBUG"),
    ({"TORCH_NCCL_TRACE_BUFFER_SIZE": "2000"}, "ENV002", "use TORCH_FR_BUFFER_SIZE"),
    ({"NCCL_MAX_NRINGS": "8"}, "ENV002", "use NCCL_MAX_CTAS"),
    ({"NCCL_LL_THRESHOLD": "0"}, "ENV003", "removed in NCCL 2.5"),
    ({"NCCL_IB_CUDA_SUPPORT": "1"}, "ENV003", "use NCCL_NET_GDR_LEVEL"),
    ({"NCCL_P2P_DISABLE": "1"}, "ENV004", "peer-to-peer"),
    ({"NCCL_DEBUG": "TRACE"}, "ENV004", "every call"),
    ({"NCCL_PROTO": "LL128"}, "ENV004", "corrupt data"),
    ({"NCCL_BUFFLE_SIZE": "4194304"}, "ENV005", "did you mean NCCL_BUFFSIZE"),
    ({"TORCH_NCCL_BLOCKING_WAITS": "1"}, "ENV005", "did you mean TORCH_NCCL_BLOCKING_WAIT"),
    ({"NCCL_IB_TIMEOUT": "40"}, "ENV006", "outside the valid range 1-31"),
    ({"NCCL_CONF_FILE": "~/nccl.conf"}, "ENV006", "does not expand '~'"),
    ({"NCCL_IB_RETRY_CNT": "13"}, "ENV006", "outside the valid range 0-7"),
    ({"NCCL_NTHREADS": "1024"}, "ENV006", "not one of 64, 128, 256, 512"),
    ({"NCCL_ALGO": "Ring,Butterfly"}, "ENV006", "Butterfly"),
    ({"NCCL_IB_DISABLE": "yes"}, "ENV006", "not one of 0, 1"),
    ({"NCCL_SOCKET_IFNAME": "=^docker0"}, "ENV007", "'^='"),
    ({"GLOO_SOCKET_IFNAME": "^docker0"}, "ENV007", "plain interface names"),
    ({"NCCL_SOCKET_IFNAME": "eth0"}, "ENV007", "eth0 also matches eth01"),
    ({"NCCL_IB_DISABLE": "1", "NCCL_IB_HCA": "=mlx5_0"}, "ENV008", "selects nothing"),
    ({"NCCL_P2P_DISABLE": "1", "NCCL_P2P_LEVEL": "NVL"}, "ENV008", "one of them is ignored"),
    ({"NCCL_BLOCKING_WAIT": "0", "TORCH_NCCL_BLOCKING_WAIT": "1"}, "ENV008", "NCCL_BLOCKING_WAIT is ignored"),
    ({"TORCH_NCCL_BLOCKING_WAIT": "1", "TORCH_NCCL_ASYNC_ERROR_HANDLING": "1"}, "ENV008", "no watchdog thread"),
    ({"TORCH_FR_BUFFER_SIZE": "0", "TORCH_NCCL_DUMP_ON_TIMEOUT": "1"}, "ENV008", "nothing is recorded"),
    ({"NCCL_MIN_CTAS": "32", "NCCL_MAX_CTAS": "8"}, "ENV008", "above"),
    ({"NCCL_IB_TIMEOUT": "27"}, "ENV010",
     "9.2 min per try, x 7 = 64.1 min, not shorter than the 10.0 min collective timeout"),
    ({"NCCL_IB_TIMEOUT": "0"}, "ENV010", "never times out"),
    ({"NCCL_DEBUG": "INFO", "NCCL_DEBUG_FILE": "/tmp/nccl.log"}, "ENV011", "write the same file"),
    ({"NCCL_DEBUG": "INFO", "NCCL_DEBUG_FILE": "/shared/nccl.%p.log"}, "ENV011", "nodes sharing a file system"),
    ({"NCCL_SOCKET_NTHREADS": "8", "NCCL_NSOCKS_PERTHREAD": "16"}, "ENV008", "caps the product at 64"),
    ({"NCCL_MNNVL_ENABLE": "1", "NCCL_CUMEM_ENABLE": "0"}, "ENV008", "requires cuMem"),
    ({"NCCL_IB_TIMEOUT": "40"}, "ENV010", "never times out"),
    ({"NCCL_SOCKET_IFNAME": "=ens5"}, "NET001", "matches no interface"),
    ({"NCCL_SOCKET_IFNAME": "^eth,ib,lo"}, "NET001", "excludes every interface"),
    ({"GLOO_SOCKET_IFNAME": "ens5"}, "NET001", "no interface named ens5"),
    ({"NCCL_IB_HCA": "=mlx4_0"}, "NET002", "matches no RDMA device"),
]


@pytest.mark.parametrize("env,code,text", CASES, ids=[f"{c[1]}-{next(iter(c[0]))}" for c in CASES])
def test_each_rule_fires_on_its_fixture(env, code, text):
    hits = by_code(run(env), code)
    assert any(text in f.message for f in hits), [f.message for f in hits]
    assert all(f.nodes == ["10.0.0.1 (node1)"] for f in hits)


def test_every_env_and_net_rule_has_a_firing_fixture():
    fired = {code for _, code, _ in CASES} | {"ENV012"}  # tested below
    rules = {c for c in load_all_rules() if c.startswith(("ENV", "NET001", "NET002"))}
    assert rules <= fired, f"rules without a fixture: {sorted(rules - fired)}"


def test_hca_prefix_match_on_a_host_with_twelve_hcas():
    hcas = [f"mlx5_{i}" for i in range(12)]
    f = by_code(run({"NCCL_IB_HCA": "mlx5_1"}, hcas=hcas), "ENV007")[0]
    assert "mlx5_1 also selects mlx5_10, mlx5_11" in f.message and f.severity.value == "warning"
    # Without the host's device list the lint still says what the name may select.
    note = by_code(run({"NCCL_IB_HCA": "mlx5_1"}, hcas=None), "ENV007")[0]
    assert "mlx5_10..mlx5_19" in note.message and note.severity.value == "info"
    assert run({"NCCL_IB_HCA": "=mlx5_1"}, hcas=hcas) == []
    # A bare family name is meant as a prefix: no note.
    assert run({"NCCL_IB_HCA": "mlx5"}, hcas=None) == []


def test_ib_window_arithmetic_is_shown_against_the_torch_timeout():
    f = by_code(run({"NCCL_IB_TIMEOUT": "22"}, pg_timeout_s=60), "ENV010")[0]
    # 4.096 us x 2^22 = 17.2 s per try, x 7 retries = 120 s
    assert "17.2 s per try, x 7 = 2.0 min" in f.message
    assert run({"NCCL_IB_TIMEOUT": "22"}, pg_timeout_s=600) == []


def test_seed_blog_recommendations_get_the_expert_findings():
    """shared/seeds/000_feab5bac63a5aa81.txt ("DDP ... NCCL timeout"): the exports it
    recommends, with the values it suggests."""
    seed = {
        "NCCL_TIMEOUT": "1800000",  # "set the collective timeout, in ms" - no such variable
        "NCCL_IB_TIMEOUT": "22",  # "set it to the maximum, 22"
        "NCCL_IB_RETRY_CNT": "13",  # "set it to 13, retry as much as possible"
        "NCCL_IB_PCI_RELAXED_ORDERING": "1",  # "recommended value 1": fails init where RO is unavailable
        "NCCL_PXN_DISABLE": "1",  # "recommend setting 1"
        "NCCL_CHECKS_DISABLE": "1",  # "can be 1 in production"
        "NCCL_CHECK_POINTERS": "1",  # "can be 1 in production" (1 turns checks ON)
        "NCCL_MAX_NRINGS": "8",
        "NCCL_MIN_NRINGS": "4",
        "NCCL_BUFFLE_SIZE": "4194304",
        "NCCL_CHUNK_SIZE": "524288",
        "NCCL_IB_HCA": "mlx5",
        "NCCL_IB_DISABLE": "1",
        "NCCL_P2P_DISABLE": "1",
        "NCCL_P2P_LEVEL": "NVL",
        "NCCL_ALGO": "Ring",
        "NCCL_DEBUG": "INFO",
        "NCCL_DEBUG_FILE": "/tmp/nccl_debug.log",
        "TORCH_NCCL_BLOCKING_WAIT": "1",
        "TORCH_NCCL_ASYNC_ERROR_HANDLING": "1",
        "NCCL_BLOCKING_WAIT": "1",  # "for old torch"
        "NCCL_ASYNC_ERROR_HANDLING": "1",
    }
    found = run(seed, pg_timeout_s=7200)
    msgs = {(f.code, f.message.split(":")[0].split("=")[0].split(" ")[0]) for f in found}
    expected = {
        ("ENV001", "NCCL_TIMEOUT"),
        ("ENV006", "NCCL_IB_RETRY_CNT"),
        ("ENV003", "NCCL_CHECKS_DISABLE"),
        ("ENV002", "NCCL_CHECK_POINTERS"),
        ("ENV002", "NCCL_MAX_NRINGS"),
        ("ENV002", "NCCL_MIN_NRINGS"),
        ("ENV002", "NCCL_BLOCKING_WAIT"),
        ("ENV002", "NCCL_ASYNC_ERROR_HANDLING"),
        ("ENV005", "NCCL_BUFFLE_SIZE"),
        ("ENV005", "NCCL_CHUNK_SIZE"),
        ("ENV004", "NCCL_PXN_DISABLE"),
        ("ENV004", "NCCL_IB_PCI_RELAXED_ORDERING"),
        ("ENV004", "NCCL_IB_DISABLE"),
        ("ENV004", "NCCL_P2P_DISABLE"),
        ("ENV004", "NCCL_ALGO"),
        ("ENV008", "NCCL_IB_DISABLE"),
        ("ENV008", "NCCL_P2P_DISABLE"),
        ("ENV008", "TORCH_NCCL_BLOCKING_WAIT"),
        ("ENV011", "NCCL_DEBUG_FILE"),
    }
    assert expected <= msgs, sorted(expected - msgs)
    assert "did you mean NCCL_BUFFSIZE" in by_code(found, "ENV005")[0].message
    # The IB_TIMEOUT=22 advice itself is legal: 2 min of retries against a 2 h timeout.
    assert not any(f.code == "ENV006" and "NCCL_IB_TIMEOUT" in f.message for f in found)
    # With IB disabled, NCCL_IB_HCA naming nothing real is moot: no NET002 on top.
    assert not any(f.code == "NET002" for f in found)
    assert any(f.severity.value == "error" for f in found)


def test_mixed_removed_deprecated_and_contradictory():
    env = {
        "NCCL_LL_THRESHOLD": "0",
        "NCCL_TREE_THRESHOLD": "0",
        "NCCL_IB_GDR_LEVEL": "2",
        "NCCL_MIN_NCHANNELS": "16",
        "TORCH_NCCL_TRACE_BUFFER_SIZE": "0",
        "TORCH_NCCL_DUMP_ON_TIMEOUT": "1",
        "NCCL_NET": "Socket",
        "NCCL_IB_HCA": "=mlx5_0",
        "NCCL_DEBUG_SUBSYS": "INIT,NET",
    }
    found = run(env)
    assert codes(found) == ["ENV002", "ENV003", "ENV006", "ENV008"]
    contra = " ".join(f.message for f in by_code(found, "ENV008"))
    assert "NCCL_NET=Socket" in contra and "buffer size is 0" in contra and "NCCL_DEBUG_SUBSYS" in contra
    assert "integer levels" in by_code(found, "ENV006")[0].message  # NCCL_IB_GDR_LEVEL=2
    assert len(by_code(found, "ENV003")) == 2


def test_conf_files_are_linted_like_nccl_reads_them(tmp_path):
    user = tmp_path / "user.conf"
    user.write_text("# comment\nNCCL_TIMEOUT=30\nexport NCCL_DEBUG=INFO\nNCCL_SOCKET_IFNAME = "
                    "eth0\nNCCL_IB_HCA=\"=mlx5_0\"\nNCCL_IB_TIMEOUT=23\n")
    etc = tmp_path / "etc.conf"
    etc.write_text("NCCL_IB_TIMEOUT=18\nNCCL_P2P_DISABLE=1\n")
    files = read_conf_files({"NCCL_CONF_FILE": str(user)}, etc=str(etc))
    found = run({"NCCL_CONF_FILE": str(user), "NCCL_P2P_DISABLE": "0"}, conf_files=files)
    env001 = by_code(found, "ENV001")[0]
    assert f"from {user}:2" in env001.message
    conf = " ".join(f.message for f in by_code(found, "ENV012"))
    assert "'export NCCL_DEBUG'" in conf and "'NCCL_SOCKET_IFNAME '" in conf and "including the quotes" in conf
    # The user file wins over /etc/nccl.conf, the environment over both.
    assert not any("NCCL_P2P_DISABLE" in f.message for f in found)
    assert parse_conf(str(tmp_path / "absent")).exists is False


def test_default_conf_path_is_home_then_etc(tmp_path):
    paths = [f.path for f in read_conf_files({}, home=str(tmp_path), etc=str(tmp_path / "etc"))]
    assert paths == [str(tmp_path / ".nccl.conf"), str(tmp_path / "etc")]


def test_rank_lint_merges_identical_findings():
    envs = {r: {"NCCL_TIMEOUT": "60", "NCCL_IB_HCA": "=mlx5_0"} for r in range(4)}
    envs[3] = {"NCCL_TIMEOUT": "60", "NCCL_IB_HCA": "=mlx5_0", "NCCL_IB_DISABLE": "1"}
    label = lambda r: f"10.0.0.{1 + r // 2} (node{1 + r // 2})"  # noqa: E731
    found = lint_ranks(envs, label)
    env001 = by_code(found, "ENV001")
    assert len(env001) == 1 and env001[0].ranks == [0, 1, 2, 3]
    assert env001[0].nodes == ["10.0.0.1 (node1)", "10.0.0.2 (node2)"]
    # Only rank 3 disables IB: its findings name rank 3 and its node alone.
    contra = by_code(found, "ENV008")
    assert len(contra) == 1 and contra[0].ranks == [3] and contra[0].nodes == ["10.0.0.2 (node2)"]
    assert lint_ranks({r: {"NCCL_DEBUG": "WARN"} for r in range(8)}, label) == []


def test_merge_keeps_other_families_apart():
    from ncclDoctor.rules.codes.run import SINGLE_RANK

    a = SINGLE_RANK.finding("x")
    b = SINGLE_RANK.finding("x")
    assert len(merge_duplicates([a, b])) == 2


def test_table_is_consistent():
    kinds = {"int", "bool", "enum", "list", "level", "ifnames", "gloo-ifnames", "hcas", "path", "bytes", "str"}
    statuses = {"current", "deprecated", "removed", "never-existed", "image-metadata"}
    assert len(BY_NAME) == len(TABLE), "duplicate rows"
    for v in TABLE:
        assert v.meaning and v.kind in kinds and v.status in statuses, v.name
        if v.replacement:
            assert v.replacement in BY_NAME, f"{v.name} -> {v.replacement} not in the table"
        if v.status == "removed":
            assert v.removed_in, v.name
        if v.kind == "int":
            assert len(v.valid) == 2 and v.valid[0] <= v.valid[1], v.name
        if v.kind in ("enum", "list", "level"):
            assert v.valid, v.name
    assert BY_NAME["NCCL_IB_TIMEOUT"].value_default == 20 and BY_NAME["NCCL_IB_RETRY_CNT"].value_default == 7


def test_seed_001_interface_advice_on_a_host_without_eth0():
    """shared/seeds/001_2208e9b1fabefd91.txt exports NCCL_SOCKET_IFNAME=eth0 and
    GLOO_SOCKET_IFNAME=eth0 on every node; cloud images name the NIC ens5 or enp..."""
    found = run({"NCCL_SOCKET_IFNAME": "eth0", "GLOO_SOCKET_IFNAME": "eth0"}, interfaces=["lo", "ens5", "docker0"])
    net = by_code(found, "NET001")
    assert len(net) == 2 and all(f.severity.value == "error" for f in net)
    assert "interfaces: lo, ens5, docker0" in net[0].message
    # ...and where eth0 exists next to a VLAN interface, the prefix match takes both.
    vlan = by_code(run({"NCCL_SOCKET_IFNAME": "eth0"}, interfaces=["lo", "eth0", "eth0.100"]), "ENV007")[0]
    assert "eth0 also matches eth0.100" in vlan.message


def test_container_nccl_version_label_is_not_a_finding():
    # NVIDIA's CUDA images export NCCL_VERSION to record the libnccl2 they installed; the H200 image
    # of the GPU verification run (docs/gpu-verify.md, 2026-11-30) had NCCL_VERSION=2.28.3-1 while
    # torch loaded its own 2.28.9. A warning there fired on every NVIDIA container.
    assert run({**CLEAN, "NCCL_VERSION": "2.28.3-1"}) == []
    shown = {r["name"]: r for r in surface({"NCCL_VERSION": "2.28.3-1"})}
    assert shown["NCCL_VERSION"]["status"] == "image-metadata"
    assert "torch.cuda.nccl.version()" in shown["NCCL_VERSION"]["meaning"]
