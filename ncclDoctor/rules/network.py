"""Rules over network facts: interfaces and RDMA devices named in settings, and the
health of InfiniBand/RoCE ports (``ncclDoctor.facts.ib``). Pure functions, facts in.

NCCL's list syntax (src/misc/utils.cc ``parseStringList``/``matchIfList``), used by
NCCL_SOCKET_IFNAME and NCCL_IB_HCA: a leading ``^`` excludes, then a leading ``=`` asks
for exact names, otherwise every token is a prefix (``eth`` matches eth0 and eth1;
``mlx5_1`` matches mlx5_1 and mlx5_10). NCCL_IB_HCA tokens may add ``:port``.
GLOO_SOCKET_IFNAME is a plain comma list of exact names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping

from ncclDoctor.findings import Finding, Severity
from ncclDoctor.rules.codes.env import SYNTAX
from ncclDoctor.rules.codes.net import MISSING_HCA, MISSING_IFACE, PORT_DOWN, PORT_SLOW


@dataclass(frozen=True)
class NcclList:
    exclude: bool
    exact: bool
    items: tuple[tuple[str, int | None], ...]  # (name, port or None)

    def matches(self, name: str, port: int | None = None) -> bool:
        hit = any(
            (name == n if self.exact else name.startswith(n)) and (p is None or port is None or p == port)
            for n, p in self.items
        )
        return hit != self.exclude

    def token_matches(self, token: tuple[str, int | None], names: list[str]) -> list[str]:
        n, _ = token
        return [x for x in names if (x == n if self.exact else x.startswith(n))]


def parse_nccl_list(value: str) -> NcclList:
    v = value.strip()
    exclude = v.startswith("^")
    v = v[1:] if exclude else v
    exact = v.startswith("=")
    v = v[1:] if exact else v
    items = []
    for tok in v.split(","):
        tok = tok.strip()
        if not tok:
            continue
        name, _, port = tok.partition(":")
        items.append((name, int(port) if port.isdigit() else None))
    return NcclList(exclude, exact, tuple(items))


def lint_env_devices(
    env: Mapping[str, str], nodes: list[str], *, interfaces: list[str] | None, hcas: list[str] | None
) -> list[Finding]:
    out: list[Finding] = []
    if interfaces is not None:
        out.extend(_nccl_ifaces(env.get("NCCL_SOCKET_IFNAME", ""), interfaces, nodes))
        out.extend(_gloo_ifaces(env.get("GLOO_SOCKET_IFNAME", ""), interfaces, nodes))
    ib_off = env.get("NCCL_IB_DISABLE", "").strip() not in ("", "0") or env.get("NCCL_NET", "").upper() == "SOCKET"
    if env.get("NCCL_IB_HCA", "").strip() and not ib_off:
        value = env["NCCL_IB_HCA"]
        out.extend(_hcas(value, hcas, nodes) if hcas is not None else _hca_prefix_note(value, nodes))
    return out


def _hca_prefix_note(value: str, nodes: list[str]) -> list[Finding]:
    """Without the host's device list: say what a bare name like mlx5_1 may also select."""
    spec = parse_nccl_list(value)
    # Only device names with a one-digit index (mlx5_1): a bare family like mlx5 is meant as a prefix.
    loose = [n for n, _ in spec.items if re.search(r"_[1-9]$", n)] if not spec.exact else []
    if not loose:
        return []
    also = ", ".join(f"{n}0..{n}9" for n in loose)
    return [SYNTAX.finding(
        f"NCCL_IB_HCA={value}: prefix match: {', '.join(loose)} also select{'s' if len(loose) == 1 else ''} {also} on "
        f"hosts that have them; write ={','.join(loose)} for exact names.",
        severity=Severity.INFO, nodes=nodes, evidence=[f"NCCL_IB_HCA={value}"],
    )]


def _nccl_ifaces(value: str, interfaces: list[str], nodes: list[str]) -> list[Finding]:
    if not value.strip():
        return []
    spec = parse_nccl_list(value)
    seen = f"NCCL_SOCKET_IFNAME={value}"
    here = ", ".join(interfaces) or "none"
    chosen = [i for i in interfaces if spec.matches(i)]
    if not chosen:
        how = "excludes every interface" if spec.exclude else "matches no interface"
        return [MISSING_IFACE.finding(f"{seen} {how} on this host (interfaces: {here}); NCCL fails with 'no socket "
                                      "interface found'.", nodes=nodes, evidence=[seen, {"interfaces": interfaces}])]
    if spec.exclude:
        return []
    dead = [n for n, p in spec.items if not spec.token_matches((n, p), interfaces)]
    if dead:
        return [MISSING_IFACE.finding(f"{seen}: {', '.join(dead)} match{'es' if len(dead) == 1 else ''} nothing on "
                                      f"this host; NCCL uses {', '.join(chosen)}.", severity=Severity.WARNING,
                                      nodes=nodes, evidence=[seen, {"interfaces": interfaces}])]
    return _prefix_overlaps(spec, seen, interfaces, "interfaces", "matches", nodes)


def _gloo_ifaces(value: str, interfaces: list[str], nodes: list[str]) -> list[Finding]:
    names = [t.strip() for t in value.split(",") if t.strip()]
    missing = [n for n in names if n not in interfaces]
    if not missing:
        return []
    seen = f"GLOO_SOCKET_IFNAME={value}"
    return [MISSING_IFACE.finding(f"{seen}: no interface named {', '.join(missing)} on this host (interfaces: "
                                  f"{', '.join(interfaces) or 'none'}); gloo cannot bind to it.", nodes=nodes,
                                  evidence=[seen, {"interfaces": interfaces}])]


def _hcas(value: str, hcas: list[str], nodes: list[str]) -> list[Finding]:
    seen = f"NCCL_IB_HCA={value}"
    if not hcas:
        return [MISSING_HCA.finding(f"{seen}, but this host has no RDMA device: NCCL will use TCP sockets.",
                                    severity=Severity.WARNING, nodes=nodes, evidence=[seen])]
    spec = parse_nccl_list(value)
    chosen = [h for h in hcas if spec.matches(h)]
    if not chosen:
        how = "excludes every RDMA device" if spec.exclude else "matches no RDMA device"
        return [MISSING_HCA.finding(f"{seen} {how} on this host (devices: {', '.join(hcas)}); NCCL falls back to TCP "
                                    "sockets.", nodes=nodes, evidence=[seen, {"hcas": hcas}])]
    dead = [] if spec.exclude else [n for n, p in spec.items if not spec.token_matches((n, p), hcas)]
    if dead:
        return [MISSING_HCA.finding(f"{seen}: {', '.join(dead)} not on this host; NCCL uses {', '.join(chosen)}.",
                                    severity=Severity.WARNING, nodes=nodes, evidence=[seen, {"hcas": hcas}])]
    return _prefix_overlaps(spec, seen, hcas, "hcas", "selects", nodes)


def _prefix_overlaps(spec: NcclList, seen: str, names: list[str], key: str, verb: str,
                     nodes: list[str]) -> list[Finding]:
    """SYNTAX when a prefix token (no ``=``) that names a device here also takes its longer
    namesakes (eth0 and eth0.100, mlx5_1 and mlx5_10); an exclusion list is left alone."""
    if spec.exact or spec.exclude:
        return []
    extra = [(n, spec.token_matches((n, p), names)) for n, p in spec.items]
    extra = [(n, m) for n, m in extra if n in m and len(m) > 1]
    if not extra:
        return []
    desc = "; ".join(f"{n} also {verb} {', '.join(x for x in m if x != n)}" for n, m in extra)
    return [SYNTAX.finding(f"{seen}: prefix match: {desc} on this host; write ={','.join(n for n, _ in extra)} for "
                           "exact names.", nodes=nodes, evidence=[seen, {key: names}])]


def check_ib(ib: dict[str, Any], env: Mapping[str, str], where: str) -> list[Finding]:
    """Port health of the RDMA devices NCCL may use (all, or those NCCL_IB_HCA selects)."""
    if "hcas" not in ib or env.get("NCCL_IB_DISABLE", "").strip() not in ("", "0"):
        return []
    spec = parse_nccl_list(env["NCCL_IB_HCA"]) if env.get("NCCL_IB_HCA", "").strip() else None
    ports = [(h["name"], p) for h in ib["hcas"] for p in h["ports"]
             if spec is None or spec.matches(h["name"], p["port"])]
    out = []
    for name, p in ports:
        if p.get("state") != "ACTIVE":
            out.append(PORT_DOWN.finding(
                f"{name} port {p['port']} on {where} is {p.get('state') or 'unknown'} (physical state "
                f"{p.get('phys_state') or 'unknown'}, {p.get('link_layer') or 'unknown link layer'}).",
                nodes=[where], evidence=[{"hca": name, **p}],
            ))
    rates = [p["rate_gbps"] for _, p in ports if p.get("state") == "ACTIVE" and p.get("rate_gbps")]
    best = max(rates, default=None)
    for name, p in ports:
        if best and p.get("state") == "ACTIVE" and p.get("rate_gbps") and p["rate_gbps"] < best:
            out.append(PORT_SLOW.finding(
                f"{name} port {p['port']} on {where} runs at {p['rate']}, below the {best:g} Gb/sec of the host's "
                "other ports.",
                nodes=[where], evidence=[{"hca": name, **p}],
            ))
    return out
