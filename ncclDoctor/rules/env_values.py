"""Value checks behind ``ncclDoctor.rules.env``: one value (ENV006, ENV007), pairs of
settings (ENV008) and the InfiniBand timeout arithmetic (ENV010).

Kept apart from ``rules.env`` so each file reads as one idea: ``rules.env`` decides which
checks run over which settings, this module knows how values are parsed.

The IB arithmetic (NCCL's guide, NCCL_IB_TIMEOUT): the verbs Local Ack Timeout is
4.096 us x 2^NCCL_IB_TIMEOUT, and a queue pair gives up after NCCL_IB_RETRY_CNT
retries, so a dead link is reported after about 4.096 us x 2^T x retries: 30 s with
today's defaults (T=20, 7 retries). 0 (or a value past the 5-bit field) means no timeout.
"""

from __future__ import annotations

from typing import Any, Mapping

from ncclDoctor.findings import Finding, Severity
from ncclDoctor.knowledge.env_vars import BY_NAME, EnvVar
from ncclDoctor.rules.codes.env import BAD_VALUE, CONTRADICTION, IB_TIMEOUT_WINDOW, SYNTAX

US = 4.096e-6


def ib_retry_window_s(env: Mapping[str, str]) -> dict[str, Any]:
    """The effective IB timeout arithmetic, with the values it used and where from."""
    t_info, r_info = BY_NAME["NCCL_IB_TIMEOUT"], BY_NAME["NCCL_IB_RETRY_CNT"]
    t, t_set = _int(env.get("NCCL_IB_TIMEOUT")), "NCCL_IB_TIMEOUT" in env
    r, r_set = _int(env.get("NCCL_IB_RETRY_CNT")), "NCCL_IB_RETRY_CNT" in env
    t = t if t is not None else t_info.value_default
    r = r if r is not None else r_info.value_default
    # NCCL's guide: "Setting a value of 0 or >= 32 will result in an infinite timeout".
    infinite = t <= 0 or t >= 32
    per_try = None if infinite else US * 2**t
    # The retry field has 3 bits; a bigger value is not more retries.
    tries = min(max(r, 0), 7) or 1
    return {
        "ib_timeout": t,
        "ib_timeout_source": "set" if t_set else "default",
        "retry_cnt": r,
        "retry_cnt_source": "set" if r_set else "default",
        "per_try_s": per_try,
        "window_s": None if per_try is None else per_try * tries,
        "infinite": infinite,
    }


def timeouts(env: Mapping[str, str], nodes: list[str], pg_timeout_s: float | None) -> list[Finding]:
    w = ib_retry_window_s(env)
    if w["ib_timeout_source"] == "default" and w["retry_cnt_source"] == "default" and pg_timeout_s is None:
        return []
    seen = (f"NCCL_IB_TIMEOUT={w['ib_timeout']} ({w['ib_timeout_source']}), NCCL_IB_RETRY_CNT={w['retry_cnt']} "
            f"({w['retry_cnt_source']})")
    if w["infinite"]:
        return [IB_TIMEOUT_WINDOW.finding(f"{seen}: NCCL_IB_TIMEOUT={w['ib_timeout']} (0 or >= 32) means InfiniBand "
                                          "never times out; a dead link hangs until torch's watchdog fires.",
                                          nodes=nodes, evidence=[w])]
    if pg_timeout_s is not None and w["window_s"] is not None and w["window_s"] >= pg_timeout_s:
        return [IB_TIMEOUT_WINDOW.finding(
            f"{seen}: 4.096 us x 2^{w['ib_timeout']} = {_dur(w['per_try_s'])} per try, x "
            f"{min(max(w['retry_cnt'], 0), 7) or 1} = "
            f"{_dur(w['window_s'])}, not shorter than the {_dur(pg_timeout_s)} collective timeout: torch's watchdog "
            "fires before NCCL names the broken link.",
            nodes=nodes, evidence=[{**w, "pg_timeout_s": pg_timeout_s}],
        )]
    return []


def check_value(info: EnvVar, value: str, seen: str, nodes: list[str]) -> list[Finding]:
    """ENV006/ENV007 for one value, by the variable's kind."""
    problem, sev = _problem(info, value)
    if problem:
        return [BAD_VALUE.finding(f"{seen}: {problem}", severity=sev, nodes=nodes, evidence=[seen])]
    syntax = _syntax(info, value)
    if syntax:
        return [SYNTAX.finding(f"{seen}: {syntax}", nodes=nodes, evidence=[seen])]
    return []


def _problem(info: EnvVar, value: str) -> tuple[str | None, Severity | None]:
    v = value.strip()
    kind = info.kind
    if kind in ("int", "bytes"):
        n = _int(v)
        if n is None:
            reader = "NCCL ignores it and uses the default" if info.owner == "nccl" else "it is not accepted"
            return f"{v!r} is not an integer; {reader}.", None
        lo, hi = info.valid if kind == "int" else (1, 1 << 40)
        if not lo <= n <= hi:
            return f"{n} is outside the valid range {lo}-{hi}.", None
    elif kind == "bool":
        ok = ("0", "1") if info.owner == "nccl" else ("0", "1", "TRUE", "FALSE")
        if v.upper() not in ok:
            return f"{v!r} is not one of {', '.join(ok)}.", None
    elif kind == "enum":
        if v.upper() not in info.valid:
            return f"{v!r} is not one of {', '.join(info.valid)}.", None
    elif kind == "list":
        bad = [t for t in _list_tokens(v) if t.upper() not in info.valid]
        if bad:
            return (f"unknown value(s) {', '.join(bad)}; expected {', '.join(info.valid)} (NCCL >= 2.24 fails on "
                    "unknown tokens)."), None
    elif kind == "path" and info.owner == "nccl" and "~" in v:
        return ("NCCL does not expand '~': it opens a path with a literal '~' in it. "
                "Use an absolute path."), Severity.WARNING
    elif kind == "level":
        if _int(v) is not None:
            return (f"integer levels changed meaning between NCCL versions; "
                    f"use a name ({', '.join(info.valid)})."), Severity.INFO
        if v.upper() not in info.valid:
            return f"{v!r} is not one of {', '.join(info.valid)}.", None
    return None, None


def _syntax(info: EnvVar, value: str) -> str | None:
    v = value.strip()
    if info.kind in ("ifnames", "hcas") and v.startswith("=^"):
        return "'=^' is read as the exact name '^...', not as an exclusion; write '^=' to exclude exact names."
    if info.kind == "gloo-ifnames" and (v.startswith(("^", "=")) or "*" in v):
        return ("gloo takes plain interface names (comma-separated); NCCL's '^'/'=' syntax names an interface that "
                "does not exist.")
    return None


def contradictions(env: Mapping[str, str], nodes: list[str]) -> list[Finding]:
    out = []

    def add(msg: str, *names: str) -> None:
        out.append(CONTRADICTION.finding(msg, nodes=nodes, evidence=[f"{n}={env[n]}" for n in names if n in env]))

    on = lambda n: env.get(n, "").strip() not in ("", "0")  # noqa: E731
    if on("NCCL_IB_DISABLE") and env.get("NCCL_IB_HCA"):
        add("NCCL_IB_DISABLE=1 turns InfiniBand/RoCE off, so NCCL_IB_HCA selects nothing: traffic goes over TCP "
            "sockets.", "NCCL_IB_DISABLE", "NCCL_IB_HCA")
    if on("NCCL_IB_DISABLE") and env.get("NCCL_NET", "").upper() == "IB":
        add("NCCL_NET=IB forces the InfiniBand module that NCCL_IB_DISABLE=1 turns off: init cannot find a network.",
            "NCCL_NET", "NCCL_IB_DISABLE")
    if env.get("NCCL_NET", "").upper() == "SOCKET" and env.get("NCCL_IB_HCA"):
        add("NCCL_NET=Socket uses TCP sockets, so NCCL_IB_HCA selects nothing.", "NCCL_NET", "NCCL_IB_HCA")
    if on("NCCL_P2P_DISABLE") and env.get("NCCL_P2P_LEVEL"):
        add("NCCL_P2P_DISABLE=1 turns GPU peer-to-peer off while NCCL_P2P_LEVEL tunes when to use it; one of them is "
            "ignored.", "NCCL_P2P_DISABLE", "NCCL_P2P_LEVEL")
    threads, socks = _int(env.get("NCCL_SOCKET_NTHREADS")), _int(env.get("NCCL_NSOCKS_PERTHREAD"))
    if threads and socks and threads * socks > 64:
        add(f"NCCL_SOCKET_NTHREADS x NCCL_NSOCKS_PERTHREAD = {threads * socks}: NCCL's guide caps the product at 64.",
            "NCCL_SOCKET_NTHREADS", "NCCL_NSOCKS_PERTHREAD")
    if env.get("NCCL_MNNVL_ENABLE", "").strip() == "1" and env.get("NCCL_CUMEM_ENABLE", "").strip() == "0":
        add("NCCL_MNNVL_ENABLE=1 requires cuMem allocations, which NCCL_CUMEM_ENABLE=0 turns off: init fails.",
            "NCCL_MNNVL_ENABLE", "NCCL_CUMEM_ENABLE")
    lo, hi = _int(env.get("NCCL_MIN_CTAS")), _int(env.get("NCCL_MAX_CTAS"))
    if lo is not None and hi is not None and lo > hi:
        add(f"NCCL_MIN_CTAS={lo} is above NCCL_MAX_CTAS={hi}.", "NCCL_MIN_CTAS", "NCCL_MAX_CTAS")
    _torch_contradictions(env, add)
    if env.get("NCCL_DEBUG_SUBSYS") and env.get("NCCL_DEBUG", "").upper() not in ("INFO", "TRACE"):
        add("NCCL_DEBUG_SUBSYS filters INFO messages, but NCCL_DEBUG is not INFO or TRACE: it has no effect.",
            "NCCL_DEBUG_SUBSYS", "NCCL_DEBUG")
    if env.get("NCCL_DEBUG_FILE") and env.get("NCCL_DEBUG", "").upper() in ("", "VERSION"):
        add("NCCL_DEBUG_FILE is only opened when NCCL_DEBUG is WARN or more verbose: nothing is written.",
            "NCCL_DEBUG_FILE", "NCCL_DEBUG")
    return out


def _torch_contradictions(env: Mapping[str, str], add) -> None:
    from ncclDoctor.knowledge.env_vars import ALIASES

    for current, aliases in sorted(ALIASES.items()):
        if BY_NAME[current].owner != "torch" or current not in env:
            continue
        for alias in aliases:
            if alias in env and env[alias].strip() != env[current].strip():
                add(f"{alias}={env[alias]} and {current}={env[current]} disagree; torch reads {current} first, so "
                    f"{alias} is ignored.", alias, current)
    blocking = env.get("TORCH_NCCL_BLOCKING_WAIT", env.get("NCCL_BLOCKING_WAIT", "")).strip().upper()
    aeh = next((n for n in ("TORCH_NCCL_ASYNC_ERROR_HANDLING", "NCCL_ASYNC_ERROR_HANDLING") if n in env), None)
    if blocking in ("1", "TRUE") and aeh:
        bw = "TORCH_NCCL_BLOCKING_WAIT" if "TORCH_NCCL_BLOCKING_WAIT" in env else "NCCL_BLOCKING_WAIT"
        add(f"{bw}=1 makes wait() raise in the calling thread and torch then runs no watchdog thread, so {aeh} (what "
            "the watchdog does) "
            "does not apply, and no Flight Recorder dump is written on a timeout.", bw, aeh)
    size = env.get("TORCH_FR_BUFFER_SIZE", env.get("TORCH_NCCL_TRACE_BUFFER_SIZE"))
    if size is not None and _int(size) == 0 and env.get("TORCH_NCCL_DUMP_ON_TIMEOUT", "").strip() in ("1", "true",
            "TRUE"):
        add("TORCH_NCCL_DUMP_ON_TIMEOUT=1 asks for a Flight Recorder dump, but the buffer size is 0: nothing is "
            "recorded.",
            "TORCH_NCCL_DUMP_ON_TIMEOUT", "TORCH_FR_BUFFER_SIZE", "TORCH_NCCL_TRACE_BUFFER_SIZE")


def _int(v: str | None) -> int | None:
    if v is None:
        return None
    v = str(v).strip()
    try:
        return int(v, 16) if v.lower().startswith("0x") else int(v)
    except ValueError:
        return None


def _list_tokens(v: str) -> list[str]:
    """NCCL_ALGO/NCCL_PROTO tokens, in both the plain and the 2.24 per-function syntax
    ("allreduce:ring,tree;broadcast:^ll")."""
    out = []
    for part in v.split(";"):
        part = part.split(":", 1)[1] if ":" in part else part
        out.extend(t.strip() for t in part.lstrip("^").split(",") if t.strip())
    return out


def _dur(s: float) -> str:
    return f"{s * 1000:.0f} ms" if s < 1 else f"{s:.1f} s" if s < 120 else f"{s / 60:.1f} min"
