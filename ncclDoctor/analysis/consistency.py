"""Consistency across nodes: diff every rank's inventory, name the odd nodes.

Input: the per-rank inventories the probe workers publish (``probes.worker``), each with
``host`` and ``addr`` (node identity: several nodes may share a host name) and the
fields compared here. For every field, nodes are grouped by value; the value most nodes
have is the norm and every other group is named, minority first::

    10.0.0.4 (node-3) sets NCCL_IB_HCA=mlx5_1; 7 other nodes set mlx5_0

When no value has a majority (two nodes that disagree) every group is named. A node
whose ranks disagree among themselves appears in each of its groups.

Compared: torch / CUDA / NCCL / driver versions (CON002), GPU model (CON003), every
distributed environment variable set on any rank (CON001), the network interface each
rank would use (CON004), /dev/shm size and ``ulimit -l`` (CON005).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Callable, Iterable

from ncclDoctor.facts.network import node_label
from ncclDoctor.findings import Finding, Rule
from ncclDoctor.rules.codes.con import ENV_DIFFERS, GPU_DIFFERS, IFACE_DIFFERS, LIMITS_DIFFER, VERSION_DIFFERS


def _env(var: str) -> Callable[[dict[str, Any]], Any]:
    return lambda inv: (inv.get("env") or {}).get(var)


# field name shown to users, rule, getter over one rank's inventory
FIELDS: list[tuple[str, Rule, Callable[[dict[str, Any]], Any]]] = [
    ("torch", VERSION_DIFFERS, lambda inv: inv.get("torch")),
    ("CUDA", VERSION_DIFFERS, lambda inv: inv.get("cuda")),
    ("NCCL", VERSION_DIFFERS, lambda inv: inv.get("nccl")),
    ("GPU driver", VERSION_DIFFERS, lambda inv: inv.get("driver")),
    ("GPU model", GPU_DIFFERS, lambda inv: inv.get("device_name")),
    ("network interface", IFACE_DIFFERS, lambda inv: inv.get("iface")),
    ("/dev/shm size", LIMITS_DIFFER, lambda inv: inv.get("dev_shm_bytes")),
    ("ulimit -l", LIMITS_DIFFER, lambda inv: inv.get("ulimit_memlock")),
]


def _fmt(name: str, value: Any, is_env: bool) -> str:
    if is_env:
        return f"sets {name}={value}" if value is not None else f"does not set {name}"
    if name == "/dev/shm size" and isinstance(value, (int, float)):
        return f"has {name} {value / 2**30:.1f} GiB"
    return f"has {name} {value if value is not None else 'unknown'}"


def _groups(invs: list[dict[str, Any]], get: Callable) -> dict[Any, list[str]]:
    groups: dict[Any, set[str]] = defaultdict(set)
    for inv in invs:
        groups[get(inv)].add(node_label(str(inv.get("host")), str(inv.get("addr"))))
    return {v: sorted(nodes) for v, nodes in groups.items()}


def diff_field(name: str, r: Rule, groups: dict[Any, list[str]], is_env: bool = False) -> Finding | None:
    if len(groups) < 2:
        return None
    ordered = sorted(groups.items(), key=lambda kv: (-len(kv[1]), str(kv[0])))
    (norm, norm_nodes), odd = ordered[0], ordered[1:]
    has_majority = len(norm_nodes) > len(odd[0][1])
    parts = [f"{', '.join(nodes)} {_fmt(name, v, is_env)}" for v, nodes in sorted(odd, key=lambda kv: len(kv[1]))]
    if has_majority:
        others = len(norm_nodes)
        norm_text = (_fmt(name, norm, is_env).replace("sets ", "set ", 1).replace("has ", "have ", 1)
                     .replace("does not set", "do not set", 1))
        parts.append(f"{others} other node{'s' if others != 1 else ''} {norm_text}")
        named = sorted({n for _, nodes in odd for n in nodes})
    else:
        parts.insert(0, f"{', '.join(norm_nodes)} {_fmt(name, norm, is_env)}")
        named = sorted({n for nodes in groups.values() for n in nodes})
    evidence = [{"value": v, "nodes": nodes} for v, nodes in ordered]
    lead = "" if has_majority else "No majority: "
    return r.finding(lead + "; ".join(parts) + ".", nodes=named, evidence=evidence)


def env_names(invs: Iterable[dict[str, Any]]) -> list[str]:
    return sorted({k for inv in invs for k in (inv.get("env") or {})})


def check_consistency(invs: list[dict[str, Any]]) -> list[Finding]:
    """Findings for every field on which the nodes disagree (needs two or more nodes)."""
    invs = [i for i in invs if i]
    if len({(i.get("host"), i.get("addr")) for i in invs}) < 2:
        return []
    out: list[Finding] = []
    for name, r, get in FIELDS:
        f = diff_field(name, r, _groups(invs, get))
        if f:
            out.append(f)
    for var in env_names(invs):
        f = diff_field(var, ENV_DIFFERS, _groups(invs, _env(var)), is_env=True)
        if f:
            out.append(f)
    return out
