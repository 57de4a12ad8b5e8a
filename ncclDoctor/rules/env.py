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
from ncclDoctor.findings import Finding, Severity, rule
from ncclDoctor.knowledge.env_vars import ALIASES, BY_NAME, TABLE, is_linted, is_surfaced
from ncclDoctor.rules import env_values

NEVER_EXISTED = rule(
    "ENV001",
    "warning",
    "Variable that nothing reads",
    why="""
The variable is set, but no version of NCCL or torch has ever read it, so it changes
nothing. NCCL_TIMEOUT is the classic: blogs recommend it, NCCL has no such setting.
A job that relies on it keeps the default behaviour it was meant to change.
""",
    fix="""
Remove it. For the collective timeout pass init_process_group(timeout=timedelta(...));
for InfiniBand transport timeouts use NCCL_IB_TIMEOUT (and NCCL_IB_RETRY_CNT).
""",
)

DEPRECATED = rule(
    "ENV002",
    "warning",
    "Deprecated alias of another variable",
    why="""
The name still works as a fallback, but it is an old alias: torch logs a deprecation
warning, the current name wins when both are set, and aliases get removed. The
NCCL_-prefixed torch settings (NCCL_BLOCKING_WAIT, NCCL_ASYNC_ERROR_HANDLING,
NCCL_DESYNC_DEBUG) are read by torch, not by NCCL.
""",
    fix="Rename it to the replacement shown in the message.",
)

REMOVED = rule(
    "ENV003",
    "warning",
    "Variable removed from NCCL",
    why="The variable was read by an old NCCL release and is ignored by current ones.",
    fix="Remove it, or use the replacement shown in the message.",
)

DEBUG_KNOB = rule(
    "ENV004",
    "info",
    "Debugging knob set",
    why="""
NCCL's guide lists this among the debugging variables that "should not be used in
production nor retained in scripts": keeping them set can cost bandwidth, or cause
crashes and hangs. Some are worse than others: NCCL_DEBUG=TRACE logs every call,
NCCL_PROTO forcing LL128 where it is unsupported can corrupt data, a forced NCCL_ALGO
fails on NCCL >= 2.24 when the algorithm is not available.
""",
    fix="Unset it unless you are debugging right now, and say why in the job script if you keep it.",
)

UNKNOWN = rule(
    "ENV005",
    "warning",
    "Unknown variable name",
    why="""
Nothing in NCCL, torch or gloo is known to read this name, so it most likely does
nothing: a typo (NCCL_BUFFLE_SIZE for NCCL_BUFFSIZE) or a name copied from a blog.
NCCL also has undocumented parameters, so a name without a close match is reported as
information only.
""",
    fix="Correct the name (see the suggestion), or remove it.",
)

BAD_VALUE = rule(
    "ENV006",
    "error",
    "Value out of range or not accepted",
    why="""
NCCL and torch parse these values strictly: a value outside the documented range or
set is ignored ("Invalid value ..., using default"), rejected at init, or passed to the
hardware where a few bits of it are kept. Either way the job does not run with the
setting you wrote.
""",
    fix="Use a value from the range or list shown in the message, or unset the variable.",
)

SYNTAX = rule(
    "ENV007",
    "warning",
    "List syntax that does not mean what it looks like",
    why="""
NCCL_SOCKET_IFNAME and NCCL_IB_HCA match names by prefix unless the list starts with
'=' (exact) and exclude with a leading '^' ('^=' for both); so NCCL_IB_HCA=mlx5_1 also
selects mlx5_10 ... mlx5_19. GLOO_SOCKET_IFNAME takes exact names only, so NCCL's
syntax there names an interface that does not exist.
""",
    fix="Write '=name' for an exact match in NCCL lists ('^=name' to exclude one), and plain names in GLOO_SOCKET_IFNAME.",
)

CONTRADICTION = rule(
    "ENV008",
    "warning",
    "Settings that contradict each other",
    why="""
Two settings say opposite things, or one makes the other meaningless. Only one of them
takes effect, and which one can change between versions; the job script then documents
a configuration that is not the one running.
""",
    fix="Keep the setting you mean and remove the other.",
)

SHARED_DEBUG_FILE = rule(
    "ENV011",
    "warning",
    "NCCL_DEBUG_FILE shared by several processes",
    why="""
NCCL creates and overwrites the file named by NCCL_DEBUG_FILE in every process. Without
%p (process id) and %h (host name) in the name, the ranks on a node, or on nodes sharing
a file system, write the same file: "the output may be lost or corrupted" (NCCL's
guide). /dev/stdout and /dev/stderr are fine.
""",
    fix="Use a per-process name such as NCCL_DEBUG_FILE=/tmp/nccl.%h.%p.log (an absolute path).",
)

CONF_LINE = rule(
    "ENV012",
    "warning",
    "nccl.conf line that NCCL reads differently",
    why="""
NCCL reads its conf files (NCCL_CONF_FILE or ~/.nccl.conf, then /etc/nccl.conf) as raw
NAME=VALUE lines: it trims nothing, removes no quotes and knows no 'export'. A line
written like shell, such as 'export NCCL_DEBUG=INFO' or 'NCCL_DEBUG = INFO', defines a
variable with another name, so the setting silently does nothing.
""",
    fix="Write the line as NAME=VALUE with no spaces, quotes or 'export'.",
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
    from ncclDoctor.rules import network

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
            return [UNKNOWN.finding(f"{seen}: {name} is not a known NCCL, torch or gloo variable; did you mean {' or '.join(close)}?", nodes=nodes, evidence=ev)]
        return [UNKNOWN.finding(f"{seen}: {name} is not a documented NCCL, torch or gloo variable.", severity=Severity.INFO, nodes=nodes, evidence=ev)]
    if info.status == "never-existed":
        return [NEVER_EXISTED.finding(f"{seen} is set, but nothing reads it: {info.meaning}", nodes=nodes, evidence=ev)]
    if info.status == "deprecated":
        repl = f"use {info.replacement}" if info.replacement else "remove it"
        return [DEPRECATED.finding(f"{seen}: {name} is deprecated; {repl}. {info.meaning}", nodes=nodes, evidence=ev)]
    if info.status == "removed":
        repl = f"; use {info.replacement}" if info.replacement else ""
        return [REMOVED.finding(f"{seen}: {name} was removed in {info.removed_in}{repl}.", nodes=nodes, evidence=ev)]
    # A knob set to its own default (NCCL_P2P_DISABLE=0) changes nothing: not worth a note.
    if info.debug_only and value.strip() not in ("", info.default) and (not info.debug_values or value.upper() in info.debug_values):
        sev = Severity(info.debug_severity) if info.debug_severity else None
        return [DEBUG_KNOB.finding(f"{seen}: {info.meaning}" + (f" {info.risk}" if info.risk else ""), severity=sev, nodes=nodes, evidence=ev)]
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
            out.append(CONF_LINE.finding(f"{ln.path}:{ln.lineno}: '{ln.text}' {problem}.", nodes=nodes, evidence=[f"{ln.path}:{ln.lineno}: {ln.text}"]))
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
