"""Rules over GPU facts from NVML (``ncclDoctor.facts.gpu``): pure functions, facts in.

``check_gpus(gpus, where, nproc_per_node=None)`` returns findings; a host where NVML is
missing yields one GPU000 "skipped" note at info level, never a failure.
"""

from __future__ import annotations

from typing import Any

from ncclDoctor.findings import Finding, Severity
from ncclDoctor.rules.codes.gpu import (
    COMPUTE_MODE,
    ECC_AGGREGATE,
    ECC_VOLATILE,
    MIG_ON,
    NO_PERSISTENCE,
    NVLINK_DOWN,
    PCIE_DEGRADED,
    REMAP_PENDING,
    SKIPPED,
    THROTTLED,
    TOO_FEW,
)

THROTTLE_BITS = {8: "hardware slowdown", 32: "software thermal slowdown", 64: "hardware thermal slowdown",
                 128: "hardware power brake"}
COMPUTE_MODES = {0: "Default", 1: "Exclusive Thread", 2: "Prohibited", 3: "Exclusive Process"}


def check_gpus(gpus: dict[str, Any], where: str, nproc_per_node: int | None = None) -> list[Finding]:
    nodes = [where]
    if "devices" not in gpus:
        return [SKIPPED.finding(f"GPU health on {where}: skipped ({gpus.get('skipped', 'no NVML')}).", nodes=nodes)]
    out: list[Finding] = []
    if nproc_per_node is not None and gpus.get("count", 0) < nproc_per_node:
        out.append(TOO_FEW.finding(f"{nproc_per_node} ranks per node but NVML sees {gpus.get('count', 0)} GPU(s) on "
                                   f"{where}.", nodes=nodes))
    for d in gpus["devices"]:
        out.extend(check_device(d, where))
    return out


def check_device(d: dict[str, Any], where: str) -> list[Finding]:
    gpu = f"GPU {d['index']} ({d.get('name')}, {d.get('pci_bus_id') or d.get('uuid')}) on {where}"
    nodes, ev = [where], [{k: d.get(k) for k in ("index", "uuid", "pci_bus_id")}]
    out: list[Finding] = []
    if d.get("ecc_uncorrected_volatile"):
        out.append(ECC_VOLATILE.finding(f"{gpu}: {d['ecc_uncorrected_volatile']} uncorrectable ECC error(s) since the "
                                        "driver loaded.", nodes=nodes, evidence=ev))
    elif d.get("ecc_uncorrected_aggregate"):
        out.append(ECC_AGGREGATE.finding(f"{gpu}: {d['ecc_uncorrected_aggregate']} uncorrectable ECC error(s) in its "
                                         "lifetime.", nodes=nodes, evidence=ev))
    rows = d.get("remapped_rows") or {}
    if d.get("retired_pages_pending") or rows.get("pending") or rows.get("failure"):
        what = ("row remapping FAILED" if rows.get("failure")
                else "a remapped row is pending" if rows.get("pending") else "a retired page is pending")
        out.append(REMAP_PENDING.finding(f"{gpu}: {what}; it takes effect after a GPU reset.", nodes=nodes,
                                         evidence=ev + [{"remapped_rows": rows,
                                                         "retired_pages_pending": d.get("retired_pages_pending")}]))
    reasons = [name for bit, name in THROTTLE_BITS.items() if (d.get("throttle_reasons") or 0) & bit]
    if reasons:
        out.append(THROTTLED.finding(f"{gpu}: clocks limited by {', '.join(reasons)}.", nodes=nodes,
                                     evidence=ev + [{"throttle_reasons": d["throttle_reasons"]}]))
    out.extend(_pcie(d, gpu, nodes, ev))
    links = d.get("nvlink")
    if links and any(links) and not all(links):
        down = [i for i, up in enumerate(links) if not up]
        out.append(NVLINK_DOWN.finding(f"{gpu}: NVLink link(s) {down} inactive, {sum(links)} of {len(links)} up.",
                                       nodes=nodes, evidence=ev + [{"nvlink": links}]))
    if d.get("persistence_mode") is False:
        out.append(NO_PERSISTENCE.finding(f"{gpu}: persistence mode is off.", nodes=nodes, evidence=ev))
    mode = d.get("compute_mode")
    if mode not in (None, 0):
        out.append(COMPUTE_MODE.finding(f"{gpu}: compute mode is {COMPUTE_MODES.get(mode, mode)}.",
                                        severity=Severity.ERROR if mode == 2 else None, nodes=nodes, evidence=ev))
    if d.get("mig_enabled"):
        out.append(MIG_ON.finding(f"{gpu}: MIG mode is enabled.", nodes=nodes, evidence=ev))
    return out


def _pcie(d: dict[str, Any], gpu: str, nodes: list[str], ev: list) -> list[Finding]:
    p = d.get("pcie") or {}
    if None in (p.get("width"), p.get("width_max"), p.get("gen"), p.get("gen_max")):
        return []
    link = f"PCIe Gen{p['gen']} x{p['width']} (maximum Gen{p['gen_max']} x{p['width_max']})"
    if p["width"] < p["width_max"]:
        return [PCIE_DEGRADED.finding(f"{gpu}: {link}: the link trained at fewer lanes than it supports.", nodes=nodes,
                                      evidence=ev + [p])]
    if p["gen"] < p["gen_max"]:
        return [PCIE_DEGRADED.finding(f"{gpu}: {link}: lower generation, which is normal while idle; check under load.",
                                      severity=Severity.INFO, nodes=nodes, evidence=ev + [p])]
    return []
