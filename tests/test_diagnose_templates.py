"""diagnose has words for the failure messages NCCL, gloo and torch print (issue #14: generalise,
not tune). Each template of tests/fixtures/log_templates/templates.yaml, copied from the sources
with file@commit, is instantiated as a log line behind its printer's prefix, among ordinary
chatter, and must lead to the cause class an expert concludes from it (never "none")."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("bench_diagnose_templates",
                                               ROOT / "benchmarks" / "bench_diagnose_templates.py")
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)

ENTRIES = bench.load()
CAUSES = {"rank_missing", "desync", "ib_fabric", "network_setup", "store_rendezvous", "watchdog_blocked", "cuda_error",
          "gpu_oom", "host_oom", "dataloader_shm", "invalid_usage", "nccl_system", "nccl_internal", "transport_stall",
          "early_exit", "signal", "config", "unknown"}


def _id(e: dict) -> str:
    return f"{e['src'].split()[1].rsplit('/', 1)[-1]}-{e['cause']}-{bench.message(e)[:40]}"


def test_table_is_well_formed():
    assert len(ENTRIES) >= 60
    for e in ENTRIES:
        assert e["cause"] in CAUSES, e
        assert e["prefix"] in bench.PREFIX, e
        assert e["src"].split()[0] in ("nccl", "nccl-2.21", "gloo", "torch"), e
        assert e["expert"].strip(), e
        assert "%" not in bench.message(e), e  # every conversion got a value


def test_the_chatter_alone_is_no_failure(tmp_path):
    """The lines around each template are not a failure by themselves: a template is what is read."""
    log = tmp_path / "job.log"
    log.write_text("\n".join(bench.CHATTER) + "\n")
    from ncclDoctor.diagnose import diagnose

    assert diagnose([str(log)]).results["diagnose"]["verdict"]["cause"] == "none"


def test_nccl_lines_carry_nccls_warn_prefix():
    e = next(e for e in ENTRIES if e["prefix"] == "nccl")
    assert bench.line(e).startswith("node-7:12345:12400 [3] NCCL WARN ")


@pytest.mark.parametrize("entry", ENTRIES, ids=[_id(e) for e in ENTRIES])
def test_template_leads_to_its_cause(tmp_path, entry):
    v = bench.verdict_of(entry, tmp_path)
    assert bench.recognised(entry, v), (bench.line(entry), entry["cause"], v)
    # a rank's own OOM or CUDA error names it; so does a lone kill in a launcher's record (lead rule A)
    assert not v["culprits"] or v["confidence"] == "low" or entry["cause"] in ("gpu_oom", "cuda_error", "host_oom"), v


@pytest.mark.parametrize("perturb", ["wrap80", "wrapquote", "timestamps", "rankprefix"])
def test_every_template_is_read_as_pasted(tmp_path, perturb):
    """The same vocabulary when the log is pasted hard-wrapped, quoted, timestamped or rank-prefixed."""
    missed = [(bench.message(e)[:60], v["cause"]) for e, v, ok in bench.run(ENTRIES, perturb) if not ok]
    assert not missed, missed


@pytest.mark.parametrize("noise", [
    # proxy.cc's service thread at a normal teardown (its accept() on a non-blocking socket): printed by NCCL as
    # a WARN, not a failure of the job (its "Resource temporarily unavailable" is no exhausted resource)
    "node-7:12345:12400 [3] NCCL WARN [Service thread] Accept failed Resource temporarily unavailable",
    # os/linux.cc / net_ib/init.cc: a virtual NIC without a PCI path in sysfs, common in containers
    "node-7:12345:12400 [3] NCCL WARN Could not find real path of /sys/class/net/veth12ab (No such file or directory)",
])
def test_teardown_warn_noise_is_no_verdict(tmp_path, noise):
    from ncclDoctor.diagnose import diagnose

    log = tmp_path / "job.log"
    log.write_text(noise + "\n" + "\n".join(bench.CHATTER) + "\n")
    assert diagnose([str(log)]).results["diagnose"]["verdict"]["cause"] in ("none", "unknown")
