"""Rules over GPU facts from NVML (``ncclDoctor.facts.gpu``): pure functions, facts in.

``check_gpus(gpus, where, nproc_per_node=None)`` returns findings; a host where NVML is
missing yields one GPU000 "skipped" note at info level, never a failure.
"""

from __future__ import annotations

from typing import Any

from ncclDoctor.findings import Finding, Severity, rule

SKIPPED = rule(
    "GPU000",
    "info",
    "GPU health checks skipped",
    why="NVML (the NVIDIA driver's management library) is not available here, so GPU health could not be read. On a CPU-only host that is expected.",
    fix="On a GPU node, check that `nvidia-smi` works in the same container or environment.",
)

TOO_FEW = rule(
    "GPU001",
    "error",
    "Fewer GPUs than ranks per node",
    why="With nccl each rank needs its own GPU; NVML sees fewer GPUs than --nproc-per-node asks for (a GPU fell off the bus, or the node has fewer GPUs than the job assumes).",
    fix="Lower --nproc-per-node, or find the missing GPU (`nvidia-smi -L`, `dmesg | grep -i xid`).",
)

ECC_VOLATILE = rule(
    "GPU002",
    "error",
    "Uncorrectable ECC errors since the driver loaded",
    why="An uncorrectable (double-bit) memory error since the last driver load means data on this GPU was lost; CUDA kernels on it fail with ECC errors (Xid 48) and NCCL ranks on it crash or hang.",
    fix="Drain the node and reset the GPU (nvidia-smi -r, or reboot); if errors return, have the GPU replaced.",
)

ECC_AGGREGATE = rule(
    "GPU003",
    "warning",
    "Uncorrectable ECC errors in the GPU's lifetime",
    why="The GPU has had uncorrectable memory errors before. Memory is repaired by page retirement or row remapping, but a history of them predicts more.",
    fix="Watch this GPU (nvidia-smi -q -d ECC,PAGE_RETIREMENT,ROW_REMAPPER); replace it if the count grows.",
)

REMAP_PENDING = rule(
    "GPU004",
    "error",
    "Memory repair pending or failed",
    why="A retired page or remapped row takes effect only after a GPU reset; until then the bad memory is still in use. A failed remap means the GPU ran out of spare rows.",
    fix="Drain the node and reset the GPU (or reboot). A remapping failure means the GPU must be replaced.",
)

THROTTLED = rule(
    "GPU005",
    "warning",
    "GPU clocks slowed by hardware, heat or power",
    why="Thermal, hardware-slowdown or power-brake throttling lowers the clocks of this GPU only; every collective then waits for it, so one hot GPU slows the whole job.",
    fix="Check cooling and power (nvidia-smi -q -d PERFORMANCE,TEMPERATURE,POWER); compare with the node's other GPUs.",
)

PCIE_DEGRADED = rule(
    "GPU006",
    "warning",
    "PCIe link below its maximum",
    why="""
A GPU whose PCIe link trained at fewer lanes than it supports (x8 instead of x16) has
half the bandwidth to the CPU and to NICs without NVLink: a riser, slot or cable fault.
A lower *generation* alone is normal at idle (GPUs drop the link speed to save power)
and is reported as information; measure under load before acting on it.
""",
    fix="Compare `nvidia-smi -q -d PCIE` under load; reseat the GPU or riser if the width stays below maximum.",
)

NVLINK_DOWN = rule(
    "GPU007",
    "error",
    "NVLink link inactive",
    why="Some NVLink links of this GPU are down while others are up: traffic to its peers falls back to fewer links or PCIe, and NCCL's rings through it slow down.",
    fix="Check `nvidia-smi nvlink -s` and `nvidia-smi -q -d NVLINK` (or the fabric manager on NVSwitch systems); reset the GPU or service the node.",
)

NO_PERSISTENCE = rule(
    "GPU008",
    "info",
    "Persistence mode off",
    why="Without persistence mode the driver tears GPU state down when no process uses it, so each job start pays a slow initialization and clock settings are lost.",
    fix="Run `nvidia-smi -pm 1` (or the nvidia-persistenced service) on the node.",
)

COMPUTE_MODE = rule(
    "GPU009",
    "warning",
    "Compute mode restricts processes",
    why="In Prohibited mode no process can use the GPU; in Exclusive Process mode only one can, so two ranks (or a rank plus a monitoring tool that creates a context) cannot share it.",
    fix="Set the default compute mode: `nvidia-smi -c DEFAULT`, unless the scheduler set it on purpose.",
)

MIG_ON = rule(
    "GPU010",
    "warning",
    "MIG mode enabled",
    why="With MIG a GPU is split into instances that have no NVLink or peer-to-peer path between them; a rank sees one instance only, and NCCL between instances goes through host memory or the network.",
    fix="Disable MIG for multi-GPU training (`nvidia-smi -mig 0`, then reset), or give each job whole GPUs.",
)

THROTTLE_BITS = {8: "hardware slowdown", 32: "software thermal slowdown", 64: "hardware thermal slowdown", 128: "hardware power brake"}
COMPUTE_MODES = {0: "Default", 1: "Exclusive Thread", 2: "Prohibited", 3: "Exclusive Process"}


def check_gpus(gpus: dict[str, Any], where: str, nproc_per_node: int | None = None) -> list[Finding]:
    nodes = [where]
    if "devices" not in gpus:
        return [SKIPPED.finding(f"GPU health on {where}: skipped ({gpus.get('skipped', 'no NVML')}).", nodes=nodes)]
    out: list[Finding] = []
    if nproc_per_node is not None and gpus.get("count", 0) < nproc_per_node:
        out.append(TOO_FEW.finding(f"{nproc_per_node} ranks per node but NVML sees {gpus.get('count', 0)} GPU(s) on {where}.", nodes=nodes))
    for d in gpus["devices"]:
        out.extend(check_device(d, where))
    return out


def check_device(d: dict[str, Any], where: str) -> list[Finding]:
    gpu = f"GPU {d['index']} ({d.get('name')}, {d.get('pci_bus_id') or d.get('uuid')}) on {where}"
    nodes, ev = [where], [{k: d.get(k) for k in ("index", "uuid", "pci_bus_id")}]
    out: list[Finding] = []
    if d.get("ecc_uncorrected_volatile"):
        out.append(ECC_VOLATILE.finding(f"{gpu}: {d['ecc_uncorrected_volatile']} uncorrectable ECC error(s) since the driver loaded.", nodes=nodes, evidence=ev))
    elif d.get("ecc_uncorrected_aggregate"):
        out.append(ECC_AGGREGATE.finding(f"{gpu}: {d['ecc_uncorrected_aggregate']} uncorrectable ECC error(s) in its lifetime.", nodes=nodes, evidence=ev))
    rows = d.get("remapped_rows") or {}
    if d.get("retired_pages_pending") or rows.get("pending") or rows.get("failure"):
        what = "row remapping FAILED" if rows.get("failure") else "a remapped row is pending" if rows.get("pending") else "a retired page is pending"
        out.append(REMAP_PENDING.finding(f"{gpu}: {what}; it takes effect after a GPU reset.", nodes=nodes, evidence=ev + [{"remapped_rows": rows, "retired_pages_pending": d.get("retired_pages_pending")}]))
    reasons = [name for bit, name in THROTTLE_BITS.items() if (d.get("throttle_reasons") or 0) & bit]
    if reasons:
        out.append(THROTTLED.finding(f"{gpu}: clocks limited by {', '.join(reasons)}.", nodes=nodes, evidence=ev + [{"throttle_reasons": d["throttle_reasons"]}]))
    out.extend(_pcie(d, gpu, nodes, ev))
    links = d.get("nvlink")
    if links and any(links) and not all(links):
        down = [i for i, up in enumerate(links) if not up]
        out.append(NVLINK_DOWN.finding(f"{gpu}: NVLink link(s) {down} inactive, {sum(links)} of {len(links)} up.", nodes=nodes, evidence=ev + [{"nvlink": links}]))
    if d.get("persistence_mode") is False:
        out.append(NO_PERSISTENCE.finding(f"{gpu}: persistence mode is off.", nodes=nodes, evidence=ev))
    mode = d.get("compute_mode")
    if mode not in (None, 0):
        out.append(COMPUTE_MODE.finding(f"{gpu}: compute mode is {COMPUTE_MODES.get(mode, mode)}.", severity=Severity.ERROR if mode == 2 else None, nodes=nodes, evidence=ev))
    if d.get("mig_enabled"):
        out.append(MIG_ON.finding(f"{gpu}: MIG mode is enabled.", nodes=nodes, evidence=ev))
    return out


def _pcie(d: dict[str, Any], gpu: str, nodes: list[str], ev: list) -> list[Finding]:
    p = d.get("pcie") or {}
    if None in (p.get("width"), p.get("width_max"), p.get("gen"), p.get("gen_max")):
        return []
    link = f"PCIe Gen{p['gen']} x{p['width']} (maximum Gen{p['gen_max']} x{p['width_max']})"
    if p["width"] < p["width_max"]:
        return [PCIE_DEGRADED.finding(f"{gpu}: {link}: the link trained at fewer lanes than it supports.", nodes=nodes, evidence=ev + [p])]
    if p["gen"] < p["gen_max"]:
        return [PCIE_DEGRADED.finding(f"{gpu}: {link}: lower generation, which is normal while idle; check under load.", severity=Severity.INFO, nodes=nodes, evidence=ev + [p])]
    return []
