"""diagnose on NCCL refusing the network NCCL_NET asks for (net.cc: "Error: network %s not found.", then the init
trail "-> 5"): the net plugin for the fabric the job chose is not loaded, network_setup, no rank (lead rules Z,
AX (1); the bare "-> 5" is not invalid_usage by AZ (2): the text decides, not the status number). Round 70 showed it
(GCP A3 Ultra, the gIB plugin missing from an SGLang container). The near shapes: NCCL's INFO that an optional net
plugin is absent (it goes on with its own transports) stays none, and a bare "-> 5" trail with no text stays
invalid_usage."""

from __future__ import annotations

from tests.conftest import diagnose_verdict as _verdict

TRAIL = "".join(f"pod-7f2c:311:311 [3] NCCL INFO init.cc:{n} -> 5\n" for n in (318, 1530, 1790, 1830))


def test_network_named_by_nccl_net_not_found_is_network_setup(tmp_path):
    for name in ("gIB", "AWS Libfabric"):
        text = f"pod-7f2c:311:311 [3] net.cc:602 NCCL WARN Error: network {name} not found.\n" + TRAIL
        v = _verdict(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("network_setup", []), (name, v)
        assert "NCCL_NET" in v["fix"] and "LD_LIBRARY_PATH" in v["fix"], v


def test_an_absent_optional_net_plugin_or_a_bare_trail_is_not_read_so(tmp_path):
    absent = ("pod-7f2c:311:311 [3] NCCL INFO NET/Plugin: Could not find: libnccl-net.so.\n"
              "pod-7f2c:311:311 [3] NCCL INFO NET/Plugin : No plugin found (libnccl-net.so), using internal "
              "implementation\npod-7f2c:311:311 [3] NCCL INFO Using network Socket\n")
    assert _verdict(tmp_path, absent)["cause"] == "none"
    assert _verdict(tmp_path, TRAIL)["cause"] == "invalid_usage"
