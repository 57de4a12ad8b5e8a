"""Published busbw references per platform, each with its source. Data, not code.

Every row is a number someone published for a named platform, never one we estimated:

- **Azure HPC/AI node health checks** (``Azure/azurehpc-health-checks``, ``conf/<sku>.conf``,
  commit 0e0a1ac, 2026-05): ``check_nccl_allreduce BW 1 SIZE`` runs nccl-tests'
  ``all_reduce_perf -b SIZE -e SIZE -f 2 -g 1 -c 1`` on every GPU of one VM under mpirun
  and fails the node when the "Avg bus bandwidth" is below BW GB/s
  (``customTests/azure_nccl_allreduce.nhc``). Intra-node all_reduce, one message size.
- **Google Cluster Health Scanner** (``GoogleCloudPlatform/cluster-health-scanner``,
  ``deploy/helm/health_checks/nccl_healthcheck/<family>.yaml``, commit 81c525d, 2025-10):
  ``BANDWIDTH_THRESHOLD`` on the average busbw of nccl-tests' ``all_gather_perf``
  (``BENCHMARK`` default in ``src/nccl_healthcheck/nccl_startup.py``) over 2 nodes x
  ``nr`` GPUs, sizes 2G..8G. Inter-node all_gather; the transport per machine family is
  in ``src/nccl_healthcheck/config.py`` (gpudirect = TCPX, fastrak = TCPXO, rdma).

These are **pass floors** of fleet health checks (a healthy node is above them), which
is the comparison a user wants: below it, the operator of that fleet would drain the
node. They were measured at large messages (``size_bytes``): a sweep that stops far
below that size is shown as "% of reference" but not judged (``analysis.expected``).
Why a torch probe may be compared with nccl-tests: NVSentinel's design measured
torch all_reduce at 169 GB/s vs 164 GB/s for MPI nccl-tests on 2 Azure NDv4 nodes
(../shared/knowledge/anchors_2026.md, "Benchmark in the design doc").

Match keys: ``gpu`` (a regular expression over NVML's device name), ``gpus_per_node``,
``nodes`` (1 for intra-node rows; the number of nodes measured for inter-node ones),
``rdma`` (inter-node rows: whether the node has an active RDMA port in sysfs) and
``hint`` (a substring of LD_LIBRARY_PATH that names the transport plugin, where two
rows differ only by it).
"""

from __future__ import annotations

from typing import Any

GiB = 1 << 30
_AZ = "https://github.com/Azure/azurehpc-health-checks/blob/0e0a1ac26a64b32ac4dd7632a529638505d3314a/conf/"
_GCP = (
    "https://github.com/GoogleCloudPlatform/cluster-health-scanner/blob/81c525d897f4e85a4f69dd1e389379de6f1e07c2/"
    "deploy/helm/health_checks/nccl_healthcheck/"
)
_AZ_KIND = "Azure node health check floor: nccl-tests all_reduce_perf Avg bus bandwidth at one size, all GPUs of one VM"
_GCP_KIND = "Google Cluster Health Scanner floor: nccl-tests all_gather_perf Avg bus bandwidth, 2 nodes, 2G..8G"


def _az(id_: str, name: str, gpu: str, n: int, bw: float, size: int, conf: str, line: int) -> dict[str, Any]:
    return {
        "id": id_,
        "name": name,
        "gpu": gpu,
        "gpus_per_node": n,
        "nodes": 1,
        "scope": "intra-node",
        "collective": "all_reduce",
        "busbw_gbps": bw,
        "size_bytes": size,
        "kind": _AZ_KIND,
        "source": f"{_AZ}{conf}#L{line}",
    }


def _gcp(
    id_: str, name: str, gpu: str, n: int, bw: float, family: str, rdma: bool, hint: str | None = None, line: int = 38
) -> dict[str, Any]:
    return {
        "id": id_,
        "name": name,
        "gpu": gpu,
        "gpus_per_node": n,
        "nodes": 2,
        "scope": "inter-node",
        "collective": "all_gather",
        "busbw_gbps": bw,
        "size_bytes": 2 * GiB,
        "kind": _GCP_KIND,
        "rdma": rdma,
        "hint": hint,
        "source": f"{_GCP}{family}.yaml#L{line}",
    }


PLATFORMS: list[dict[str, Any]] = [
    _az(
        "azure-nd-h100-v5",
        "Azure ND H100 v5: 8x H100 SXM 80GB, NVLink 4 + NVSwitch",
        r"H100 80GB HBM3",
        8,
        460.0,
        16 * GiB,
        "nd96isr_h100_v5.conf",
        52,
    ),
    _az(
        "azure-nd-h200-v5",
        "Azure ND H200 v5: 8x H200 SXM 141GB, NVLink 4 + NVSwitch",
        r"\bH200\b",
        8,
        431.0,
        16 * GiB,
        "nd96isr_h200_v5.conf",
        53,
    ),
    _az(
        "azure-ndm-a100-v4",
        "Azure NDm A100 v4: 8x A100 SXM 80GB, NVLink 3 + NVSwitch",
        r"A100-SXM4-80GB",
        8,
        228.0,
        16 * GiB,
        "nd96amsr_a100_v4.conf",
        57,
    ),
    _az(
        "azure-nd-a100-v4",
        "Azure ND A100 v4: 8x A100 SXM 40GB, NVLink 3 + NVSwitch",
        r"A100-SXM4-40GB",
        8,
        228.0,
        8 * GiB,
        "nd96asr_v4.conf",
        57,
    ),
    _az(
        "azure-nd-v2",
        "Azure NDv2: 8x V100 SXM2 32GB, NVLink 2 hybrid cube-mesh",
        r"V100-SXM2-32GB",
        8,
        110.0,
        8 * GiB,
        "nd40rs_v2.conf",
        42,
    ),
    _az(
        "azure-nc-h100-v5",
        "Azure NC H100 v5 (NC80adis): 2x H100 NVL, NVLink bridge",
        r"H100 NVL",
        2,
        208.0,
        16 * GiB,
        "nc80adis_h100_v5.conf",
        40,
    ),
    _az(
        "azure-nc48-a100-v4",
        "Azure NC A100 v4 (NC48ads): 2x A100 PCIe 80GB",
        r"A100 80GB PCIe",
        2,
        193.0,
        16 * GiB,
        "nc48ads_a100_v4.conf",
        42,
    ),
    _az(
        "azure-nc96-a100-v4",
        "Azure NC A100 v4 (NC96ads): 4x A100 PCIe 80GB",
        r"A100 80GB PCIe",
        4,
        25.0,
        8 * GiB,
        "nc96ads_a100_v4.conf",
        42,
    ),
    _gcp(
        "gcp-a3-high",
        "Google A3 High (a3-highgpu-8g): 8x H100, GPUDirect-TCPX",
        r"H100 80GB HBM3",
        8,
        60.0,
        "a3",
        rdma=False,
        hint="/tcpx/",
    ),
    _gcp(
        "gcp-a3-mega",
        "Google A3 Mega (a3-megagpu-8g): 8x H100, GPUDirect-TCPXO",
        r"H100 80GB HBM3",
        8,
        150.0,
        "a3plus",
        rdma=False,
        hint="/tcpxo/",
    ),
    _gcp(
        "gcp-a3-ultra", "Google A3 Ultra (a3-ultragpu-8g): 8x H200, RDMA", r"\bH200\b", 8, 250.0, "a3ultra", rdma=True
    ),
    _gcp("gcp-a4", "Google A4 (a4-highgpu-8g): 8x B200, RDMA", r"\bB200\b", 8, 250.0, "a4", rdma=True),
    _gcp("gcp-a4x", "Google A4X (a4x-highgpu-4g): 4x GB200, RDMA", r"\bGB200\b", 4, 160.0, "a4x", rdma=True, line=36),
]
