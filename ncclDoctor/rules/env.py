"""Surfacing and linting distributed environment variables.

``surface(env)`` lists every distributed setting that is set, with its meaning;
``lint(env)`` returns findings for names that do not exist, are deprecated or removed,
or are debugging knobs. Both read ``ncclDoctor.knowledge.env_vars`` only.
"""

from __future__ import annotations

from typing import Any, Mapping

from ncclDoctor.findings import Finding, rule
from ncclDoctor.knowledge.env_vars import BY_NAME, is_surfaced

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
crashes and hangs.
""",
    fix="Unset it unless you are debugging right now, and say why in the job script if you keep it.",
)


def surface(env: Mapping[str, str]) -> list[dict[str, Any]]:
    """Every distributed setting that is set, with what it means."""
    rows = []
    for name in sorted(env):
        if not is_surfaced(name):
            continue
        info = BY_NAME.get(name)
        rows.append(
            {
                "name": name,
                "value": env[name],
                "owner": info.owner if info else None,
                "status": info.status if info else "unknown",
                "meaning": info.meaning if info else "not in ncclDoctor's table",
                "default": info.default if info else None,
            }
        )
    return rows


def lint(env: Mapping[str, str], where: str | None = None) -> list[Finding]:
    nodes = [where] if where else []
    out: list[Finding] = []
    for name in sorted(env):
        info = BY_NAME.get(name)
        if info is None:
            continue
        value = env[name]
        seen = f"{name}={value}"
        if info.status == "never-existed":
            out.append(NEVER_EXISTED.finding(f"{seen} is set, but nothing reads it: {info.meaning}", nodes=nodes, evidence=[seen]))
        elif info.status == "deprecated" and info.replacement:
            out.append(DEPRECATED.finding(f"{seen}: {name} is a deprecated alias; use {info.replacement}.", nodes=nodes, evidence=[seen]))
        elif info.status == "removed":
            repl = f"; use {info.replacement}" if info.replacement else ""
            out.append(REMOVED.finding(f"{seen}: {name} was removed in {info.removed_in}{repl}.", nodes=nodes, evidence=[seen]))
        elif info.debug_only:
            out.append(DEBUG_KNOB.finding(f"{seen}: {info.meaning}", nodes=nodes, evidence=[seen]))
    return out
