"""Evidence from a supervised torchrun job: stacks and Flight Recorder before teardown,
and torchrun's own failure record after it.

``collector(run_dir)`` is the supervisor's ``before_stop`` hook for any client: on a
hang (not a launch that never started) it calls ``gather`` and stores in the outcome's
``evidence``: ``stacks`` (rank -> text), ``flight_recorder_summary`` and ``gathered``
(who acknowledged, who was signalled). Only this node's workers are signalled (their
pids come from ``Supervisor.worker_pids``); stacks of ranks on other nodes arrive
through the control store.

``gather(...)`` runs *before* anything is killed:

1. set ``ctl/dump`` in the control store: every rank's evidence thread
   (``probes.debug``) writes its Python stacks and Flight Recorder dump, publishes them
   to the store and acknowledges;
2. ranks that do not acknowledge within ``wait_s`` (a thread holding the GIL, a rank in
   a C call that does not release it) get SIGUSR1 (faulthandler writes their stacks),
   and ``py-spy dump`` where it is installed.

``torchrun_failures(log)`` parses torchrun's "Root Cause (first observed failure)" and
"Other Failures" blocks: rank, local rank, exit code, pid, signal, error file;
``torchrun_record(run_dir)`` adds each failed rank's exception message from torch's
``@record`` error files.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path
from typing import Any, Callable

SIGNALS = {s.value: s.name for s in signal.Signals}


def collector(run_dir: Path) -> Callable[[Any, Any], None]:
    """A ``before_stop`` hook that records stacks and Flight Recorder in ``out.evidence``."""

    def collect(sup, out) -> None:
        from ncclDoctor.analysis import flight

        if out.status != "hang" or out.phase == "launch":
            return
        got = gather(sup.control, sorted(sup.ranks), sup.worker_pids(), run_dir)
        out.evidence["stacks"] = got.pop("stacks")
        fr = got.pop("flight_recorder")
        out.evidence["flight_recorder_summary"] = flight.summarize({int(r): d for r, d in fr.items()}) if fr else None
        out.evidence["gathered"] = got

    return collect


def torchrun_record(run_dir: Path, log_name: str = "torchrun.log") -> dict[str, Any]:
    """torchrun's failure record from its log in ``run_dir``, with each failed rank's
    exception message (``--log-dir`` under ``run_dir/logs``)."""
    log = run_dir / log_name
    text = log.read_text(errors="replace") if log.is_file() else ""
    failures = log_failures(text)
    for rec in [failures["root_cause"], *failures["others"]]:
        if rec:
            rec["message"] = error_file_message(rec.get("error_file"))
    # torchrun may record a rank that was already dying as "SIGTERM" with no error file
    # (it stopped the others first); @record's files say what each rank raised.
    failures["errors_by_local_rank"] = {
        int(f.parent.name): msg
        for f in sorted(run_dir.glob("logs/*/attempt_*/*/error.json"))
        if f.parent.name.isdigit() and (msg := error_file_message(str(f)))
    }
    return failures


def gather(control, ranks: list[int], local_pids: dict[int, int], run_dir: Path, wait_s: float = 3.0) -> dict[str, Any]:
    store = control.store
    store.set("ctl/dump", "1")
    deadline = time.monotonic() + wait_s
    acked: set[int] = set()
    while time.monotonic() < deadline and len(acked) < len(ranks):
        for r in ranks:
            if r not in acked and store.check([f"ack/dump/{r}"]):
                acked.add(r)
        time.sleep(0.1)
    missing = [r for r in ranks if r not in acked]
    signalled, pyspy = [], []
    for r in missing:
        pid = local_pids.get(r)
        if not pid:
            continue
        try:
            os.kill(pid, signal.SIGUSR1)
            signalled.append(r)
        except OSError:
            continue
        if shutil.which("py-spy") and _pyspy(pid, run_dir / "stacks" / f"rank{r}.py-spy.txt"):
            pyspy.append(r)
    if signalled:
        time.sleep(0.5)  # faulthandler writes synchronously in the signal handler
    stacks: dict[str, str] = {}
    fr: dict[str, Any] = {}
    for r in ranks:
        key = f"evidence/stack/{r}"
        if store.check([key]):
            stacks[str(r)] = store.get(key).decode("utf-8", "replace")
        else:
            f = run_dir / "stacks" / f"rank{r}.signal.txt"
            if f.is_file() and f.stat().st_size:
                stacks[str(r)] = f.read_text(errors="replace")
        key = f"evidence/fr/{r}"
        if store.check([key]):
            try:
                fr[str(r)] = json.loads(store.get(key))
            except ValueError:
                pass
    return {"acked": sorted(acked), "signalled": signalled, "py_spy": pyspy, "stacks": stacks, "flight_recorder": fr}


def _pyspy(pid: int, path: Path) -> bool:
    try:
        p = subprocess.run(["py-spy", "dump", "--pid", str(pid)], capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.TimeoutExpired):
        return False
    if p.returncode == 0:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(p.stdout)
    return p.returncode == 0


_BLOCK = re.compile(
    r"\[\d+\]:\s*\n\s*time\s*:\s*(?P<time>\S+)\s*\n\s*host\s*:\s*(?P<host>\S+)\s*\n"
    r"\s*rank\s*:\s*(?P<rank>-?\d+)\s*\(local_rank:\s*(?P<local>-?\d+)\)\s*\n"
    r"\s*exitcode\s*:\s*(?P<code>-?\d+)\s*\(pid:\s*(?P<pid>\d+)\)[^\n]*"  # torch >= 2.x appends "(SIGKILL)"
    r"(?:\s*\n\s*error_file:\s*(?P<file>\S*))?"
    r"(?:\s*\n\s*traceback\s*:\s*(?P<tb>[^\n]*))?"
)


def log_failures(log_text: str) -> dict[str, Any]:
    """``torchrun_failures``, and under "agent_crash" the line of torchrun's agent's crash (``agent_crash``) where it
    died before printing that record: what ``check``, ``run`` and ``attach`` all read its log with."""
    failures = torchrun_failures(log_text)
    if crash := agent_crash(log_text):
        failures["agent_crash"] = crash
    return failures


def torchrun_failures(log_text: str) -> dict[str, Any]:
    """torchrun's failure summary: ``root_cause`` (first observed failure) and ``others``."""
    out: dict[str, Any] = {"root_cause": None, "others": []}
    root_at = log_text.find("Root Cause (first observed failure)")
    for m in _BLOCK.finditer(log_text):
        code = int(m["code"])
        rec = {
            "rank": int(m["rank"]),
            "local_rank": int(m["local"]),
            "host": m["host"],
            "exitcode": code,
            "pid": int(m["pid"]),
            "signal": SIGNALS.get(-code) if code < 0 else None,
            "time": m["time"],
            "error_file": m["file"] if m["file"] and m["file"] != "<N/A>" else None,
            "first_line": (m["tb"] or "").strip() or None,
        }
        if root_at != -1 and m.start() > root_at and out["root_cause"] is None:
            out["root_cause"] = rec
        else:
            out["others"].append(rec)
    return out


# the last exception line of a traceback ("json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)")
_EXC_LINE = re.compile(r"^([\w.]{1,120}(?:Error|Exception|Interrupt|Exit))(?::[ \t]?([^\n]{0,200}))?$", re.M)


def agent_crash(log_text: str) -> str | None:
    """torchrun's own agent dying on an exception before it printed its failure record: its log ends in a traceback
    through torch's elastic agent (``elastic/agent/``) with no "Root Cause" summary. Seen here on a loaded host: the
    agent read a worker's @record error file while the worker was still writing it (an empty file, JSONDecodeError),
    so no exit code or signal of any worker was recorded. The exception's line, or None -- also where that exception
    is torchrun being told to stop (elastic's SignalException for a SIGTERM or SIGINT from outside: a scheduler's
    preemption, a kill, Ctrl-C), which is no crash."""
    if "Root Cause (first observed failure)" in log_text:
        return None
    tb = log_text.rfind("Traceback (most recent call last):")
    if tb == -1 or "elastic/agent/" not in log_text[tb:]:
        return None
    lines = [m.group(0).strip() for m in _EXC_LINE.finditer(log_text, tb)]
    if not lines or re.search(r"\b(?:SignalException|KeyboardInterrupt)\b", lines[-1]):
        return None
    return lines[-1][:200]


_STOPPED = re.compile(r"Sending process (\d+) closing signal")


def stopped_pids(log_text: str) -> set[int]:
    """The worker pids torchrun said it stopped ("Sending process PID closing signal SIGTERM"): alive when it noticed
    another worker's failure, so victims -- logged before its failure record, and so there even when its agent
    crashed before that record."""
    return {int(m[1]) for m in _STOPPED.finditer(log_text)}


def agent_crash_note(crash: str) -> str:
    """Why no exit code or signal shows when torchrun's agent crashed before its record (``agent_crash``'s line)."""
    return (f"torchrun's own agent crashed before it printed its failure record ({crash}), "
            "so no exit code or signal of any rank was recorded"
            + (": it read a worker's @record error file while that worker was still writing it, a race in "
               "torch's elastic agent; rerun to see the signal" if "JSONDecodeError" in crash else ""))


def error_file_message(path: str | None) -> str | None:
    """The exception message torch's @record wrote for a failed rank."""
    if not path or not os.path.isfile(path):
        return None
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
        msg = data.get("message", {})
        return (msg.get("message") if isinstance(msg, dict) else str(msg)) or None
    except (OSError, ValueError):
        return None
