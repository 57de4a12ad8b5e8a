"""Units, parsed and printed one way everywhere.

Sizes are bytes with binary multiples (nccl-tests' ``-b 8 -e 128M``: 1K = 1024 B);
bandwidth is GB/s with 1 GB = 10^9 B, as nccl-tests prints algbw and busbw.
"""

from __future__ import annotations

from ncclDoctor.errors import UsageError

SIZE_UNITS = {
    "": 1,
    "B": 1,
    "K": 1 << 10,
    "KB": 1 << 10,
    "KIB": 1 << 10,
    "M": 1 << 20,
    "MB": 1 << 20,
    "MIB": 1 << 20,
    "G": 1 << 30,
    "GB": 1 << 30,
    "GIB": 1 << 30,
}


def parse_size(text: str) -> int:
    """nccl-tests' size syntax: 8, 1K, 128M, 1G (binary multiples); at least 4 bytes (one float)."""
    t = str(text).strip().upper()
    num = t.rstrip("KMGIB")
    unit = t[len(num) :]
    try:
        value = float(num) * SIZE_UNITS[unit]
    except (ValueError, KeyError):
        raise UsageError(f"bad size {text!r}: expected a byte count like 8, 64K, 16M or 1G") from None
    if value < 4:
        raise UsageError(f"bad size {text!r}: the smallest message is 4 bytes (one float)")
    return int(value)


def fmt_size(n: int) -> str:
    """1048576 -> '1 MiB'; sizes that are not a whole multiple stay in bytes ('1500 B')."""
    for unit, div in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= div and n % div == 0:
            return f"{n // div} {unit}"
    return f"{n} B"


def fmt_gbps(v: float | None, spec: str = ".3f") -> str:
    """Bandwidth in GB/s with its unit; '' for a missing value."""
    return "" if v is None else f"{format(v, spec)} GB/s"


def fmt_pct(v: float | None, spec: str = "+.1f") -> str:
    """A percentage change with its sign; '' for a missing value."""
    return "" if v is None else f"{format(v, spec)}%"


def fmt_ranks(ranks, limit: int | None = None) -> str:
    """Ranks in words, one way for check and diagnose: [2] -> 'rank 2'; a run of consecutive ranks (a whole
    node's, as a launch numbers them) -> 'ranks 2-3'; else 'ranks 1, 3' (the first ``limit``, then ', ...');
    none -> 'ranks unknown'."""
    rs = sorted(set(ranks))
    if not rs:
        return "ranks unknown"
    if len(rs) == 1:
        return f"rank {rs[0]}"
    if rs[-1] - rs[0] == len(rs) - 1:
        return f"ranks {rs[0]}-{rs[-1]}"
    shown = rs if limit is None else rs[:limit]
    return "ranks " + ", ".join(map(str, shown)) + (", ..." if len(shown) < len(rs) else "")
