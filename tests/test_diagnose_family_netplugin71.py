"""diagnose on aws-ofi-nccl 1.1x failing to start: its INFO "NET/OFI No eligible providers were found" and WARNs
"NET/OFI Unable to find a protocol that worked.  Failing initialization." / "aws-ofi-nccl initialization failed"
(nccl_net_ofi_create_plugin). The newer words are the plugin's start failing like the older ones: lead rule Z reads
it as harmless (none) where nothing shows EFA was meant -- the plugin's own "Setting provider_filter to efa" is its
built-in default, not a user's FI_PROVIDER=efa (rule T) -- and as network_setup where the lines show it was (an EFA
instance in the host name, FI_PROVIDER=efa). Round 71 showed it (gpustack-5553: one SGLang host, no EFA)."""

from __future__ import annotations

from tests.conftest import diagnose_verdict as _verdict
from tests.conftest import nccl_info


def _start(host: str, pid: int = 72, warns: tuple[int, ...] = (268, 353)) -> str:
    out = "".join(nccl_info(host, pid, 0, t) for t in (
        "NET/Plugin: Loaded net plugin Libfabric (v10)", "NET/OFI Initializing aws-ofi-nccl 1.17.1",
        "NET/OFI Configuring AWS-specific options", "NET/OFI Setting provider_filter to efa",
        "NET/OFI No eligible providers were found"))
    words = {268: "NET/OFI Unable to find a protocol that worked.  Failing initialization.",
             353: "NET/OFI aws-ofi-nccl initialization failed"}
    return out + "".join(f"[2026-06-10 21:49:11] {host}:{pid}:{pid} [0] int nccl_net_ofi_create_plugin("
                         f"nccl_net_ofi_plugin_t**):{n} NCCL WARN {words[n]}\n" for n in warns)


def test_the_plugin_finding_no_protocol_on_a_host_without_efa_is_harmless(tmp_path):
    for text in (_start("gpuhost-a7"), _start("gpuhost-a7", warns=(268,))):
        v = _verdict(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("none", []), (text, v)
        assert "fi_info -p efa" in v["fix"], v


def test_the_same_words_where_efa_was_meant_stay_network_setup(tmp_path):
    platform = nccl_info("gpuhost-a7", 72, 0, "NET/OFI Running on p5.48xlarge platform, Setting NCCL_TOPO_FILE "
                         "environment variable to /opt/amazon/ofi-nccl/share/xml/p5.48xl-topo.xml")
    for text in (platform + _start("gpuhost-a7"), "+ export FI_PROVIDER=efa\n" + _start("gpuhost-a7"),
                 "+ export FI_PROVIDER=efa\n" + _start("gpuhost-a7", warns=(268,))):
        v = _verdict(tmp_path, text)
        assert (v["cause"], v["culprits"]) == ("network_setup", []), (text, v)
        assert "fi_info -p efa" in v["fix"] and "Using network Socket" in v["fix"], v
