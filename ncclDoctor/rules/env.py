"""Surfacing and linting distributed environment variables.

``surface(env)`` lists every distributed setting that is set, with its meaning and
where it came from; ``lint(env, where=...)`` returns findings. Both read
``ncclDoctor.knowledge.env_vars`` only: a fact about a variable lives in that table.

What ``lint`` looks at, by code:

======  =================================================================================
ENV001  a variable no version ever read (NCCL_TIMEOUT)
ENV002  a deprecated alias (NCCL_BLOCKING_WAIT -> TORCH_NCCL_BLOCKING_WAIT)
ENV003  a variable removed from NCCL (NCCL_LL_THRESHOLD)
ENV004  a debugging knob left set (NCCL_P2P_DISABLE; NCCL_DEBUG=TRACE and forced
        NCCL_ALGO/NCCL_PROTO as warnings)
ENV005  an unknown name under NCCL_/TORCH_NCCL_/TORCH_FR_/GLOO_..., with did-you-mean
ENV006  a value the reader will not accept or that is out of range (NCCL_IB_TIMEOUT=40)
ENV007  list syntax that does not mean what it looks like (prefix matches, ``=^``,
        NCCL syntax in GLOO_SOCKET_IFNAME)
ENV008  contradictions (NCCL_IB_DISABLE=1 with NCCL_IB_HCA, alias and name disagree)
ENV010  InfiniBand retry window against the torch collective timeout
ENV011  NCCL_DEBUG_FILE that ranks will overwrite
ENV012  a line of nccl.conf that NCCL reads differently than it looks
NET001  (``ncclDoctor.rules.network``) interfaces named in settings that are not here
NET002  (``ncclDoctor.rules.network``) HCAs named in NCCL_IB_HCA that are not here
======  =================================================================================

Values can come from the environment or from NCCL's conf files
(``ncclDoctor.facts.ncclconf``); findings then name the file and line.
"""

from __future__ import annotations

import difflib
import functools
from typing import Any, Callable, Mapping

from ncclDoctor.facts.ncclconf import ConfFile, effective_env
from ncclDoctor.findings import Finding, Severity
from ncclDoctor.knowledge.env_vars import ALIASES, BY_NAME, TABLE, is_linted, is_surfaced
from ncclDoctor.rules import env_values, network
from ncclDoctor.rules.codes.env import (
    CONF_LINE,
    DEBUG_KNOB,
    DEPRECATED,
    NEVER_EXISTED,
    REMOVED,
    SHARED_DEBUG_FILE,
    UNKNOWN,
)


def surface(env: Mapping[str, str], sources: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """Every distributed setting that is set, with what it means and where it came from."""
    rows = []
    for name in sorted(env):
        if not is_surfaced(name):
            continue
        info = BY_NAME.get(name)
        rows.append(
            {
                "name": name,
                "value": env[name],
                "source": (sources or {}).get(name, "environment"),
                "owner": info.owner if info else None,
                "status": info.status if info else "unknown",
                "meaning": info.meaning if info else "not in ncclDoctor's table",
                "default": info.default if info else None,
            }
        )
    return rows


# Unset variables whose defaults decide how a job behaves when something goes wrong.
DEFAULTS_THAT_MATTER = (
    "NCCL_DEBUG", "NCCL_SOCKET_IFNAME", "NCCL_IB_HCA", "NCCL_IB_TIMEOUT", "NCCL_IB_RETRY_CNT",
    "TORCH_NCCL_ASYNC_ERROR_HANDLING", "TORCH_NCCL_BLOCKING_WAIT", "TORCH_NCCL_DUMP_ON_TIMEOUT",
    "TORCH_FR_BUFFER_SIZE", "TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC", "GLOO_SOCKET_IFNAME",
)


def defaults_that_matter(env: Mapping[str, str]) -> list[dict[str, Any]]:
    """The defaults in force for the important variables that are not set."""
    rows = []
    for name in DEFAULTS_THAT_MATTER:
        if name in env or any(a in env for a in ALIASES.get(name, ())):
            continue
        info = BY_NAME[name]
        rows.append({"name": name, "default": info.default or "unset", "meaning": info.meaning})
    return rows


def lint(
    env: Mapping[str, str],
    where: str | None = None,
    *,
    conf_files: list[ConfFile] | None = None,
    interfaces: list[str] | None = None,
    hcas: list[str] | None = None,
    pg_timeout_s: float | None = None,
) -> list[Finding]:
    """Findings for the settings NCCL and torch would run with.

    ``conf_files`` adds NCCL's conf files (environment wins, as in NCCL); ``interfaces``
    and ``hcas`` are this host's network interface and RDMA device names (None: not
    known, those checks are skipped); ``pg_timeout_s`` is torch's collective timeout.
    """
    nodes = [where] if where else []
    merged, sources = effective_env(env, conf_files or [])
    out: list[Finding] = []
    for name in sorted(merged):
        seen = _seen(name, merged[name], sources.get(name))
        out.extend(_name_findings(name, merged[name], seen, nodes))
        info = BY_NAME.get(name)
        if info and merged[name] != "":
            out.extend(env_values.check_value(info, merged[name], seen, nodes))
    out.extend(env_values.contradictions(merged, nodes))
    out.extend(env_values.timeouts(merged, nodes, pg_timeout_s))
    out.extend(_debug_file(merged, nodes))
    for f in conf_files or []:
        out.extend(_conf_lines(f, nodes))
    out.extend(network.lint_env_devices(merged, nodes, interfaces=interfaces, hcas=hcas))
    return out


def _seen(name: str, value: str, source: str | None) -> str:
    return f"{name}={value}" + (f" (from {source})" if source and source != "environment" else "")


def _name_findings(name: str, value: str, seen: str, nodes: list[str]) -> list[Finding]:
    info = BY_NAME.get(name)
    ev = [seen]
    if info is None:
        if not is_linted(name):
            return []
        close = did_you_mean(name)
        if close:
            return [UNKNOWN.finding(f"{seen}: {name} is not a known NCCL, torch or gloo variable; did you mean "
                                    f"{' or '.join(close)}?", nodes=nodes, evidence=ev)]
        return [UNKNOWN.finding(f"{seen}: {name} is not a documented NCCL, torch or gloo variable.",
                                severity=Severity.INFO, nodes=nodes, evidence=ev)]
    if info.status == "image-metadata":  # NVIDIA's images set NCCL_VERSION: a label, not a setting
        return []
    if info.status == "never-existed":
        return [NEVER_EXISTED.finding(f"{seen} is set, but nothing reads it: {info.meaning}", nodes=nodes, evidence=ev)]
    if info.status == "deprecated":
        repl = f"use {info.replacement}" if info.replacement else "remove it"
        return [DEPRECATED.finding(f"{seen}: {name} is deprecated; {repl}. {info.meaning}", nodes=nodes, evidence=ev)]
    if info.status == "removed":
        repl = f"; use {info.replacement}" if info.replacement else ""
        return [REMOVED.finding(f"{seen}: {name} was removed in {info.removed_in}{repl}.", nodes=nodes, evidence=ev)]
    # A knob set to its own default (NCCL_P2P_DISABLE=0) changes nothing: not worth a note.
    if (info.debug_only and value.strip() not in ("", info.default)
            and (not info.debug_values or value.upper() in info.debug_values)):
        sev = Severity(info.debug_severity) if info.debug_severity else None
        return [DEBUG_KNOB.finding(f"{seen}: {info.meaning}" + (f" {info.risk}" if info.risk else ""), severity=sev,
                                   nodes=nodes, evidence=ev)]
    return []


@functools.lru_cache(maxsize=4096)
def did_you_mean(name: str) -> tuple[str, ...]:
    """Close names from the table. The cutoff (0.88) keeps one-typo names (NCCL_BUFFLE_SIZE
    -> NCCL_BUFFSIZE: 0.90) and drops real undocumented ones (NCCL_NVLS_NCHANNELS vs
    NCCL_MIN_NCHANNELS: 0.87). Cached: difflib is slow and every rank asks the same."""
    return tuple(difflib.get_close_matches(name, [v.name for v in TABLE], n=2, cutoff=0.88))


def _debug_file(env: Mapping[str, str], nodes: list[str]) -> list[Finding]:
    path = env.get("NCCL_DEBUG_FILE", "")
    if not path:
        return []
    missing = [tok for tok in ("%h", "%p") if tok not in path]
    if not missing or path in ("/dev/stdout", "/dev/stderr"):
        return []
    who = "one node" if "%p" in missing else "nodes sharing a file system"
    return [SHARED_DEBUG_FILE.finding(
        f"NCCL_DEBUG_FILE={path} has no {' or '.join(missing)}, so the processes on {who} write the same file.",
        nodes=nodes, evidence=[f"NCCL_DEBUG_FILE={path}"],
    )]


def _conf_lines(f: ConfFile, nodes: list[str]) -> list[Finding]:
    out = []
    for ln in f.lines:
        name = ln.name
        problem = None
        if name.startswith("export "):
            problem = f"defines a variable named {name!r} ('export' is shell syntax)"
        elif name != name.strip():
            problem = f"defines a variable named {name!r} (spaces around '=' are kept)"
        elif len(ln.value) >= 2 and ln.value[0] == ln.value[-1] and ln.value[0] in "\"'":
            problem = f"sets {name} to {ln.value} including the quotes"
        if problem:
            out.append(CONF_LINE.finding(f"{ln.path}:{ln.lineno}: '{ln.text}' {problem}.", nodes=nodes,
                                         evidence=[f"{ln.path}:{ln.lineno}: {ln.text}"]))
    return out


def lint_ranks(envs: Mapping[int, Mapping[str, str]], label: Callable[[int], str]) -> list[Finding]:
    """The lint of every rank's environment, identical findings merged into one that
    lists the ranks and nodes. Settings that differ between nodes are the consistency
    rules' job (CON001), not this lint's."""
    # Ranks of one job mostly share one environment: lint each distinct one once.
    groups: dict[tuple, list[int]] = {}
    for rank in sorted(envs):
        groups.setdefault(tuple(sorted(envs[rank].items())), []).append(rank)
    found: list[Finding] = []
    for items, ranks in groups.items():
        for f in lint(dict(items)):
            f.ranks = list(ranks)
            f.nodes = sorted({label(r) for r in ranks})
            found.append(f)
    return merge_duplicates(found)


def merge_duplicates(findings: list[Finding]) -> list[Finding]:
    """Merge ENV/NET findings with the same code and message (the same setting seen on
    several ranks or nodes) into one that lists all of them; keep others as they are."""
    out: list[Finding] = []
    index: dict[tuple[str, str], Finding] = {}
    for f in findings:
        if not f.code.startswith(("ENV", "NET")):
            out.append(f)
            continue
        key = (f.code, f.message)
        if key not in index:
            index[key] = f
            out.append(f)
            continue
        kept = index[key]
        kept.nodes = sorted(set(kept.nodes) | set(f.nodes))
        kept.ranks = sorted(set(kept.ranks) | set(f.ranks))
    return out
