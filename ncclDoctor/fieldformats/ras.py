"""NCCL RAS status reports (``ncclras``), text and JSON, as plain data.

Source: NVIDIA/nccl ``src/ras/client_support.cc`` at 5067397 (2026-06, v2.30.x). Text
(NCCL >= 2.24): a job summary, then "Errors" and "Warnings" sections whose entries are

- ``DEAD`` / ``  N job process(es) ... considered dead`` followed by ``  Process PID on
  node HOST managing GPU(s) ...`` lines;
- ``INCOMPLETE`` (missing processes, same line shape) and ``#G-C (HASH) INCOMPLETE``
  (missing ranks: ``  Rank R -- GPU ... managed by process PID on node HOST``);
- ``#G-C (HASH) ERROR`` with ``  Rank R reported ERROR -- ...`` / ``  N ranks reported ERROR``;
- ``#G-C (HASH) MISMATCH`` with ``  Communicator ranks have different OP operation counts``,
  then ``  N ranks have launched up to operation X`` (the group's members may follow as
  ``  Rank R -- ...``) and ``  Rank R has launched up to operation X -- ...`` /
  ``  Rank R has not launched any operations -- ...`` for single ranks.

JSON (NCCL >= 2.29, ``SET FORMAT json``): ``communicators[]`` with ``ranks[]`` (``rank``,
``host``, ``pid``, ``status {init_state, async_error, finalize_called, destroy_flag,
abort_flag}``, ``collective_counts {OP: n}``) and ``missing_ranks[]`` (``status
{unresponsive, considered_dead}``).

Both become ``{"dead": [...], "missing": [...], "errors": [...], "lagging": [...]}``:
dead and missing processes or ranks with host and pid; ranks that reported errors; per
communicator and operation, the ranks whose launch count is below the highest (the ranks
that stopped launching), with their count and the others'.
"""

from __future__ import annotations

import re
from typing import Any

_PROC = re.compile(r"^\s+Process (\d+) on node (\S+) managing GPU")
_RANK_WHO = r"(?: -- GPU .*? managed by process (\d+) on node (\S+)| -- \[process information not found\])?"
_RANK = re.compile(r"^\s+Rank (\d+)" + _RANK_WHO + r"\s*$")
_RANK_LAUNCHED = re.compile(
    r"^\s+Rank (\d+) has (?:launched up to operation (\d+)|not launched any operations)" + _RANK_WHO
)
_GROUP_LAUNCHED = re.compile(r"^\s+(\d+) ranks have (?:launched up to operation (\d+)|not launched any operations)")
_RANK_ERROR = re.compile(r"^\s+Rank (\d+) reported (\S+)" + _RANK_WHO)
_COMM = re.compile(r"^#(\d+-\d+) \(([0-9a-fA-F]+)\) (INCOMPLETE|ERROR|MISMATCH)")
_OPS = re.compile(r"^\s+Communicator ranks have different (\S+) operation counts")
_VERSION = re.compile(r"^NCCL version (\S+)")


def _who(m: re.Match, i: int) -> dict[str, Any]:
    return {"pid": int(m.group(i)) if m.group(i) else None, "host": m.group(i + 1)}


class _TextState:
    def __init__(self) -> None:
        self.out: dict[str, Any] = {
            "format": "ras",
            "nccl_version": None,
            "dead": [],
            "missing": [],
            "errors": [],
            "lagging": [],
        }
        self.section: str | None = None  # DEAD | INCOMPLETE | ERROR | MISMATCH
        self.comm: str | None = None
        self.op: str | None = None
        self.groups: list[dict[str, Any]] = []  # MISMATCH: {"count", "ranks"} per launch count

    def close_op(self) -> None:
        if self.op and self.groups:
            top = max(g["count"] for g in self.groups)
            behind = [g for g in self.groups if g["count"] < top]
            for g in behind:
                self.out["lagging"].append(
                    {
                        "comm": self.comm,
                        "op": self.op,
                        "launched": g["count"],
                        "others": top,
                        "ranks": g["ranks"],
                        "group_size": g["n"],
                    }
                )
        self.op, self.groups = None, []

    def line(self, line: str) -> None:
        if m := _VERSION.match(line):
            self.out["nccl_version"] = m.group(1)
        elif line.strip() in ("DEAD", "INCOMPLETE"):
            self.close_op()
            self.section, self.comm = line.strip(), None
        elif m := _COMM.match(line):
            self.close_op()
            self.comm, self.section = m.group(1) + " " + m.group(2), m.group(3)
        elif line.strip() in ("Errors", "Warnings", "TIMEOUT") or not line.strip():
            if not line.strip() and self.section == "MISMATCH":
                self.close_op()
            elif line.strip():
                self.close_op()
                self.section = None
        else:
            self.entry(line)

    def entry(self, line: str) -> None:
        if self.section in ("DEAD", "INCOMPLETE") and (m := _PROC.match(line)):
            key = "dead" if self.section == "DEAD" else "missing"
            self.out[key].append({"rank": None, "pid": int(m.group(1)), "host": m.group(2), "comm": None})
        elif self.section == "INCOMPLETE" and (m := _RANK.match(line)):
            self.out["missing"].append({"rank": int(m.group(1)), **_who(m, 2), "comm": self.comm})
        elif self.section == "ERROR" and (m := _RANK_ERROR.match(line)):
            self.out["errors"].append({"rank": int(m.group(1)), "error": m.group(2), **_who(m, 3), "comm": self.comm})
        elif self.section == "MISMATCH":
            self.mismatch(line)

    def mismatch(self, line: str) -> None:
        if m := _OPS.match(line):
            self.close_op()
            self.op = m.group(1)
        elif self.op and (m := _GROUP_LAUNCHED.match(line)):
            self.groups.append({"count": int(m.group(2) or 0), "ranks": [], "n": int(m.group(1))})
        elif self.op and (m := _RANK_LAUNCHED.match(line)):
            self.groups.append(
                {"count": int(m.group(2) or 0), "ranks": [{"rank": int(m.group(1)), **_who(m, 3)}], "n": 1}
            )
        elif self.op and self.groups and (m := _RANK.match(line)):
            self.groups[-1]["ranks"].append({"rank": int(m.group(1)), **_who(m, 2)})


def parse_text(text: str) -> dict[str, Any]:
    st = _TextState()
    for line in text.splitlines():
        st.line(line)
    st.close_op()
    return st.out


def _lagging_json(comm: dict[str, Any], name: str) -> list[dict[str, Any]]:
    ranks = [r for r in comm.get("ranks") or [] if isinstance(r, dict)]
    ops = sorted({op for r in ranks for op in (r.get("collective_counts") or {})})
    out = []
    for op in ops:
        counts = {r["rank"]: int((r.get("collective_counts") or {}).get(op, 0)) for r in ranks if "rank" in r}
        if not counts or len(set(counts.values())) < 2:
            continue
        top = max(counts.values())
        for c in sorted({v for v in counts.values() if v < top}):
            who = [
                {"rank": r["rank"], "pid": r.get("pid"), "host": r.get("host")}
                for r in ranks
                if counts.get(r.get("rank")) == c
            ]
            out.append({"comm": name, "op": op, "launched": c, "others": top, "ranks": who, "group_size": len(who)})
    return out


def parse_json(obj: dict[str, Any]) -> dict[str, Any]:
    if not isinstance(obj.get("communicators"), list):
        raise ValueError("RAS JSON: no communicators list")
    out: dict[str, Any] = {
        "format": "ras-json",
        "nccl_version": obj.get("nccl_version"),
        "dead": [],
        "missing": [],
        "errors": [],
        "lagging": [],
    }
    for comm in obj["communicators"]:
        if not isinstance(comm, dict):
            continue
        name = str(comm.get("hash"))
        for m in comm.get("missing_ranks") or []:
            st = m.get("status") or {}
            key = "dead" if st.get("considered_dead") else "missing"
            out[key].append(
                {
                    "rank": m.get("rank"),
                    "pid": m.get("pid"),
                    "host": m.get("host"),
                    "comm": name,
                    "unresponsive": bool(st.get("unresponsive")),
                }
            )
        for r in comm.get("ranks") or []:
            err = (r.get("status") or {}).get("async_error")
            if err:
                out["errors"].append(
                    {
                        "rank": r.get("rank"),
                        "error": f"async_error {err}",
                        "pid": r.get("pid"),
                        "host": r.get("host"),
                        "comm": name,
                    }
                )
        out["lagging"] += _lagging_json(comm, name)
    return out
