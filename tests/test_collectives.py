"""Every collective of probes.collectives: nccl-tests' numbers, and the exact check on real gloo.

The unit tests check each module against nccl-tests' own formulas (src/<op>.cu, read at
v2.19.6) and check ``expected()`` against a plain-torch model of what the collective
delivers, built from every rank's ``buffers()``; a wrong fill must not match. The gloo
tests run every collective at 2 and 3 ranks under torchrun through probes.harness: every
rank's exact check passes, and a corrupted input on one rank is caught.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import torch

from probes.collectives import REGISTRY, parse_ops, size_bytes
from tests.conftest import ROOT, cli_env

# nccl-tests v2.19.6 *GetBw: (S as a function of count, n; bus factor as a function of n)
NCCL_TESTS = {
    "all_reduce": (lambda c, n: c * 4, lambda n: 2 * (n - 1) / n),
    "all_gather": (lambda c, n: c * 4 * n, lambda n: (n - 1) / n),
    "reduce_scatter": (lambda c, n: c * 4 * n, lambda n: (n - 1) / n),
    "broadcast": (lambda c, n: c * 4, lambda n: 1.0),
    "alltoall": (lambda c, n: c * n * 4, lambda n: (n - 1) / n),
    "sendrecv": (lambda c, n: c * 4, lambda n: 1.0),
}


def test_registry_is_the_six_collectives_training_uses():
    assert sorted(REGISTRY) == sorted(NCCL_TESTS)
    for name, mod in REGISTRY.items():
        assert name == mod.NAME and "nccl-tests src/" in mod.SOURCE


@pytest.mark.parametrize("name", sorted(NCCL_TESTS))
@pytest.mark.parametrize("n", [2, 3, 8])
def test_bytes_and_bus_factor_are_nccl_tests(name, n):
    mod, (s, factor) = REGISTRY[name], NCCL_TESTS[name]
    assert mod.algbw_bytes(1000, 4, n) == s(1000, n)
    assert mod.bus_factor(n) == pytest.approx(factor(n))


def test_counts_follow_get_coll_byte_count():
    # 1 MiB over 3 ranks: (262144 / 3) & ~3 = 87380 elements per rank (16-byte aligned).
    assert REGISTRY["all_gather"].counts(1 << 20, 4, 3) == (87380, 87380 * 3, 87380)
    assert REGISTRY["reduce_scatter"].counts(1 << 20, 4, 3) == (87380 * 3, 87380, 87380)
    assert REGISTRY["alltoall"].counts(1 << 20, 4, 3) == (87380 * 3, 87380 * 3, 87380)
    assert REGISTRY["all_reduce"].counts(1 << 20, 4, 3) == (262144,) * 3
    assert size_bytes(REGISTRY["all_gather"], 1 << 20, 3) == 87380 * 3 * 4  # the size column: the output


def model(name, sends, n, count):
    """What each rank holds after the collective, computed from every rank's send buffer."""
    if name == "all_reduce":
        return [sum(sends)] * n
    if name == "all_gather":
        return [torch.cat(sends)] * n
    if name == "reduce_scatter":
        total = sum(sends)
        return [total[r * count : (r + 1) * count] for r in range(n)]
    if name == "broadcast":
        return [sends[0]] * n
    if name == "alltoall":
        return [torch.cat([sends[s][r * count : (r + 1) * count] for s in range(n)]) for r in range(n)]
    return [sends[(r - 1) % n] for r in range(n)]  # sendrecv: from the ring predecessor


@pytest.mark.parametrize("name", sorted(NCCL_TESTS))
@pytest.mark.parametrize("n", [2, 3, 5])
def test_expected_is_what_the_collective_delivers_and_a_wrong_fill_is_caught(name, n):
    mod, count = REGISTRY[name], 12
    sends = [mod.buffers(count, n, r)[0].clone() for r in range(n)]
    for r, got in enumerate(model(name, sends, n, count)):
        assert torch.equal(got, mod.expected(count, n, r))
    bad = [s.clone() for s in sends]
    bad[n - 1 if name != "broadcast" else 0][5] += 1  # one wrong element in one rank's input
    assert any(not torch.equal(got, mod.expected(count, n, r)) for r, got in enumerate(model(name, bad, n, count)))


def test_misplaced_blocks_are_wrong():
    """Blocks from the right ranks in the wrong order are not the expected result."""
    for name in ("all_gather", "alltoall"):
        want = REGISTRY[name].expected(8, 3, 1)
        assert not torch.equal(torch.cat([want[8:16], want[:8], want[16:]]), want)


def test_parse_ops():
    assert parse_ops(None) == ["all_reduce"]
    assert parse_ops("all_gather,all_reduce") == ["all_reduce", "all_gather"]
    assert parse_ops("all") == list(REGISTRY)
    with pytest.raises(ValueError, match="allreduce"):
        parse_ops("allreduce")


def _run(tmp_path, n, corrupt=None):
    argv = [
        sys.executable,
        "-m",
        "torch.distributed.run",
        "--nproc-per-node",
        str(n),
        "--standalone",
        str(ROOT / "tests" / "collectives_run.py"),
        str(tmp_path),
    ] + ([str(corrupt)] if corrupt is not None else [])
    p = subprocess.run(
        argv, capture_output=True, text=True, timeout=240, env=cli_env(OMP_NUM_THREADS="1"), cwd=str(ROOT)
    )
    assert p.returncode == 0, p.stderr[-3000:]
    clean = [json.loads((tmp_path / f"rank{r}.json").read_text()) for r in range(n)]
    if corrupt is None:
        return clean, None
    return clean, [json.loads((tmp_path / f"rank{r}-corrupt.json").read_text()) for r in range(n)]


@pytest.fixture(scope="module")
def gloo_job(tmp_path_factory):
    """n -> (clean, corrupted) per-rank results: one torchrun job per world size, read by the
    tests below; the 3-rank job also runs the corrupted pass (rank 0 corrupt)."""
    jobs = {}

    def get(n):
        if n not in jobs:
            jobs[n] = _run(tmp_path_factory.mktemp(f"gloo{n}"), n, corrupt=0 if n == 3 else None)
        return jobs[n]

    return get


@pytest.mark.parametrize("n", [2, 3])
def test_every_collective_is_exact_on_gloo(gloo_job, n):
    ranks, _ = gloo_job(n)
    for name, mod in REGISTRY.items():
        for res in ranks:
            rows = res[name]["rows"]
            assert [r["size"] for r in rows] == [size_bytes(mod, s, n) for s in (1024, 40000)]
            assert all(r["wrong"] == 0 and r["time_us"] > 0 for r in rows), (name, rows)


def test_a_corrupted_input_is_caught_on_gloo(gloo_job):
    _, ranks = gloo_job(3)  # rank 0 corrupt: it is broadcast's root, so every collective sees it
    for name in REGISTRY:
        assert sum(r["wrong"] for res in ranks for r in res[name]["rows"]) > 0, name
