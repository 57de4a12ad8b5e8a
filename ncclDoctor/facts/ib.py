"""RDMA (InfiniBand / RoCE) devices from sysfs: data only.

Reads ``<root>/sys/class/infiniband/<hca>/ports/<port>/{state,phys_state,rate,link_layer}``
— the same files ``ibstat`` and ``ibv_devinfo`` show. ``root`` is ``/`` in production and
a recorded tree (tests/fixtures/sysfs/...) in tests: the same code reads both.

A host without ``/sys/class/infiniband`` returns ``{"skipped": ...}``: having no RDMA
device is a fact, not a failure. Typical values::

    state       "4: ACTIVE"           (1 DOWN, 2 INIT, 3 ARMED, 4 ACTIVE, 5 ACTIVE_DEFER)
    phys_state  "5: LinkUp"           (2 Polling, 3 Disabled, 4 PortConfigurationTraining, 5 LinkUp, ...)
    rate        "400 Gb/sec (4X NDR)"
    link_layer  "InfiniBand" | "Ethernet" (RoCE)
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

CLASS_DIR = "sys/class/infiniband"


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return None


def _coded(text: str | None) -> tuple[int | None, str | None]:
    """'4: ACTIVE' -> (4, 'ACTIVE')."""
    if not text:
        return None, None
    m = re.match(r"\s*(\d+)\s*:\s*(.*)", text)
    return (int(m.group(1)), m.group(2).strip()) if m else (None, text.strip())


def _rate_gbps(text: str | None) -> float | None:
    m = re.match(r"\s*([\d.]+)\s*Gb/sec", text or "")
    return float(m.group(1)) if m else None


def read_port(port_dir: Path) -> dict[str, Any]:
    state_code, state = _coded(_read(port_dir / "state"))
    phys_code, phys = _coded(_read(port_dir / "phys_state"))
    rate = _read(port_dir / "rate")
    return {
        "port": int(port_dir.name) if port_dir.name.isdigit() else port_dir.name,
        "state": state,
        "state_code": state_code,
        "phys_state": phys,
        "phys_state_code": phys_code,
        "rate": rate,
        "rate_gbps": _rate_gbps(rate),
        "link_layer": _read(port_dir / "link_layer"),
    }


def collect_ib_facts(root: str | Path = "/") -> dict[str, Any]:
    base = Path(root) / CLASS_DIR
    if not base.is_dir():
        return {"skipped": f"no RDMA devices: {base} does not exist"}
    hcas = []
    for dev in sorted(base.iterdir(), key=lambda p: _natural(p.name)):
        ports_dir = dev / "ports"
        ports = [read_port(p) for p in sorted(ports_dir.iterdir(),
                                              key=lambda p: _natural(p.name))] if ports_dir.is_dir() else []
        hcas.append({"name": dev.name, "fw_ver": _read(dev / "fw_ver"), "node_type": _read(dev / "node_type"),
                     "ports": ports})
    if not hcas:
        return {"skipped": f"no RDMA devices: {base} is empty"}
    return {"hcas": hcas}


def hca_names(ib: dict[str, Any]) -> list[str] | None:
    """HCA names, [] when the host has none, None when that is not known."""
    if "hcas" in ib:
        return [h["name"] for h in ib["hcas"]]
    return [] if str(ib.get("skipped", "")).startswith("no RDMA devices") else None


def _natural(name: str) -> list:
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", name)]
