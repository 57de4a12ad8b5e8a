"""``ncclDoctor attach PID``: what a running torchrun job is doing, without changing it.

PID is torchrun (its elastic agent) or any of its workers. Workers and their ranks come from
``/proc``: the agent's children whose environment has ``RANK`` and ``LOCAL_RANK``. Then, per
worker, only what reads the job without touching it:

- ``/proc/PID/task/*``: thread names, states, wchan, CPU time, sampled at the start and end of
  ``--watch`` seconds (a main thread asleep on a futex with no CPU time is waiting, typically in
  a collective; one running or sleeping in user code is not);
- ``py-spy dump`` when installed (ptrace: root, CAP_SYS_PTRACE or ptrace_scope 0);
- the Flight Recorder, when the job makes it reachable: workers started by ``ncclDoctor run``
  answer over torch's worker server socket; NCCL jobs that set
  ``TORCH_NCCL_DEBUG_INFO_PIPE_FILE`` get one byte written to their dump pipe (NCCL reads it
  every second and writes ``TORCH_FR_DUMP_TEMP_FILE<rank>``; source-read for torch 2.13, not
  run here: no GPU).

- opt-in, ``--inject``: gdb runs a few lines of Python inside each worker that wrote its Flight
  Recorder and stacks (``inject_gdb``); it stops each process for seconds, so it is never the
  default. All workers at once; past ``--inject-timeout`` no call starts, and one under way is
  finished, never cut (``inject_gdb``); a stopped worker (state T) is skipped.

A worker that ends during the watch (checked every 0.1 s) is a dead rank (LIVE005): how it
died comes from torchrun's failure record when torchrun's output is a file (read from the end,
up to 5 s for torchrun to write it), else from the exit status /proc shows while it is a zombie,
else "unknown". The watch then ends 1 s later: the survivors, blocked in their next collective,
are never waited for. Deadline of the whole command: ``--watch`` + 1 s + up to 5 s for the
record + ``EVIDENCE_S`` (30 s) for py-spy and the Flight Recorder (+ ``--inject-timeout`` + 36 s
with ``--inject``), + writing the report. Exit code: 4 when a finding was made, 0 when none,
2 for bad input (not a torchrun pid), 3 when the job has no workers (yet, or any more).

No signal is ever sent: a worker that has no handler for SIGUSR1/SIGUSR2/real-time signals
dies of one. The verdict is the same model as ``run``'s; without Flight Recorder counters it
rests on where each main thread is, and says so.
"""

from __future__ import annotations

import errno
import json
import os
import time
from pathlib import Path
from typing import Any

from ncclDoctor.errors import CouldNotRun, ExitCode, UsageError
from ncclDoctor.live import detect, evidence
from ncclDoctor.report.model import Report
from ncclDoctor.rules.codes import live as codes

_LAUNCHERS = ("torch.distributed.run", "torch.distributed.launch", "torchrun")
_COLLECTIVE_FRAMES = ("distributed_c10d.py", "c10d_logger.py")


def read_proc(pid: int) -> tuple[list[str], dict[str, str]]:
    try:
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")
    except FileNotFoundError:
        raise UsageError(f"no process with pid {pid}") from None
    except OSError as exc:
        raise UsageError(f"cannot read /proc/{pid}: {exc.strerror}") from None
    try:
        raw = Path(f"/proc/{pid}/environ").read_bytes().decode(errors="replace")
        env = dict(kv.split("=", 1) for kv in raw.split("\0") if "=" in kv)
    except OSError:
        env = {}
    return [a for a in argv if a], env


def is_launcher(argv: list[str]) -> bool:
    return any(a in _LAUNCHERS or os.path.basename(a) == "torchrun" for a in argv[:3])


def find_job(pid: int) -> tuple[int, list[dict[str, Any]]]:
    """(agent pid, workers) for a torchrun pid or a worker pid."""
    import psutil

    argv, env = read_proc(pid)
    if is_launcher(argv):
        agent = pid
    elif "RANK" in env and "LOCAL_RANK" in env:
        agent = psutil.Process(pid).ppid()
    else:
        raise UsageError(f"pid {pid} is not a torchrun job: its command line ({' '.join(argv[:3])}) is not torchrun's "
                         "and its environment has no RANK/LOCAL_RANK")
    workers = []
    try:
        children = psutil.Process(agent).children(recursive=True)
    except psutil.Error:
        children = []
    for child in children:
        try:
            cargv, cenv = read_proc(child.pid)
            _, penv = read_proc(child.ppid())
        except (UsageError, psutil.Error):
            continue
        if "RANK" in cenv and "LOCAL_RANK" in cenv and "RANK" not in penv:  # not a worker's own child
            workers.append({"pid": child.pid, "rank": int(cenv["RANK"]), "local_rank": int(cenv["LOCAL_RANK"]),
                            "world_size": int(cenv.get("WORLD_SIZE", "0") or 0), "argv": cargv, "env": _kept(cenv)})
    if not workers:
        raise CouldNotRun(f"torchrun pid {agent} has no workers with RANK in their environment "
                          "(not started yet, or finished)")
    return agent, sorted(workers, key=lambda w: w["rank"])


def output_files(pid: int) -> list[str]:
    """The regular files a process's stderr and stdout go to (torchrun's failure record lands
    there when the job's output is a log file, as under a batch scheduler); [] for a terminal or pipe."""
    out = []
    for fd in (2, 1):
        try:
            path = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if path.startswith("/") and os.path.isfile(path) and path not in out:
            out.append(path)
    return out


def exit_state(pid: int) -> dict[str, Any] | None:
    """None while ``pid`` lives; else how it ended, as far as /proc can tell a non-parent: a zombie
    still shows its wait status (``exit_code`` field, Linux >= 3.5) until torchrun reaps it."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return {"seen": "gone"}
    fields = stat[stat.rindex(")") + 2:].split()
    if fields[0] not in "ZX":
        return None
    status = int(fields[49]) if len(fields) > 49 and fields[49].lstrip("-").isdigit() else None
    if status is None:
        return {"seen": "zombie"}
    if status & 0x7F:
        return {"seen": "zombie", "signal": evidence_signal_name(status & 0x7F)}
    return {"seen": "zombie", "exitcode": (status >> 8) & 0xFF}


def evidence_signal_name(signum: int) -> str:
    import signal as _signal

    try:
        return _signal.Signals(signum).name
    except ValueError:
        return f"signal {signum}"


def watch_exits(workers: list[dict[str, Any]], watch_s: float, step_s: float = 0.1, after_s: float = 1.0) -> None:
    """Check every worker each ``step_s`` for ``watch_s``; a worker that ends gets ``gone_s`` (when)
    and ``exit`` (``exit_state``). After the first death, ``after_s`` more only (to see whether
    torchrun stops the others), then return: never wait for the survivors' own timeouts."""
    t0 = time.monotonic()
    first = None
    while True:
        now = time.monotonic()
        for w in workers:
            if "gone_s" not in w and (st := exit_state(w["pid"])) is not None:
                w["gone_s"], w["exit"] = round(now - t0, 2), st
                first = first if first is not None else now
        if now - t0 >= watch_s or (first is not None and now - first >= after_s):
            return
        time.sleep(min(step_s, max(0.0, watch_s - (now - t0))))


def _kept(env: dict[str, str]) -> dict[str, str]:
    keys = ("TORCH_FR_DUMP_TEMP_FILE", "TORCH_NCCL_DEBUG_INFO_PIPE_FILE", "NCD_LIVE_DIR", "NCD_LIVE_SOCK_DIR",
            "MASTER_ADDR")
    return {k: env[k] for k in keys if k in env}


def cpu_ticks(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    f = stat[stat.rindex(")") + 2:].split()
    return int(f[11]) + int(f[12])


def where(w: dict[str, Any]) -> str:
    """waiting | running | elsewhere for a worker's main thread.

    A stack frame in ``distributed_c10d`` means waiting. Otherwise /proc decides: asleep on a
    futex with (almost) no CPU time during the watch is waiting -- in a collective or on a lock;
    DDP's gradient all_reduce waits inside autograd's C++ engine, so its Python stack shows
    ``backward``, not the collective. Running, or asleep anywhere else (a timer, a pipe, a file),
    is elsewhere: not in a collective.
    """
    stack = w.get("stack") or ""
    main = stack.split("\n\n")[0] if stack else ""
    if main and any(f in main for f in _COLLECTIVE_FRAMES):
        return "waiting"
    state, wchan = w.get("state") or ("?", "-")
    if state == "R" or (w.get("cpu_delta") or 0) > 5:
        return "running"
    return "waiting" if wchan.startswith("futex") else "elsewhere"


def trigger_nccl_dump(w: dict[str, Any]) -> str | None:
    """Write one byte to the NCCL dump pipe the job enabled; None when nobody reads it."""
    prefix = w["env"].get("TORCH_NCCL_DEBUG_INFO_PIPE_FILE")
    if not prefix:
        return None
    path = f"{prefix}{w['rank']}.pipe"
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
    except OSError as exc:
        return None if exc.errno in (errno.ENOENT, errno.ENXIO) else None
    try:
        os.write(fd, b"1")
    finally:
        os.close(fd)
    return path


EVIDENCE_S = 30.0  # py-spy and Flight Recorder reads after the watch, all workers together


def sample(workers: list[dict[str, Any]], watch_s: float, run_dir: Path, inject: bool = False,
           inject_timeout_s: float = 60.0) -> None:
    """Watch, then read each live worker; every wait after the watch draws on ``EVIDENCE_S``, and
    ``--inject`` runs gdb in every worker at once within ``inject_timeout_s`` (+ its grace)."""
    for w in workers:
        w["ticks0"] = cpu_ticks(w["pid"])
        w["pipe"] = trigger_nccl_dump(w)
    watch_exits(workers, watch_s)
    deadline = time.monotonic() + EVIDENCE_S
    live = [w for w in workers if "gone_s" not in w]
    for w in live:
        _read(w, run_dir, lambda cap: max(0.2, min(cap, deadline - time.monotonic())))
    if inject:
        _inject_all([w for w in live if w.get("fr") is None], run_dir, inject_timeout_s)
    for w in live:
        if w.get("fr") is not None:
            _save(run_dir / "fr" / f"rank{w['rank']}.json", json.dumps(w["fr"]))


def _read(w: dict[str, Any], run_dir: Path, left) -> None:
    """A worker's threads, py-spy stack and Flight Recorder (when reachable without changing it)."""
    pid, r = w["pid"], w["rank"]
    ticks = cpu_ticks(pid)
    w["cpu_delta"] = (ticks - w["ticks0"]) if ticks is not None and w["ticks0"] is not None else None
    w["state"] = evidence.main_thread_state(pid)
    _save(run_dir / "stacks" / f"rank{r}.proc.txt", evidence.proc_threads(pid))
    w["fr"] = w["stack"] = None
    if (w["state"] or ("?",))[0] in "Tt":
        return  # stopped (SIGSTOP, a debugger): nothing in it answers; /proc is all there is
    w["stack"] = evidence.pyspy(pid, timeout_s=left(10.0))
    if w["stack"]:
        _save(run_dir / "stacks" / f"rank{r}.py-spy.txt", w["stack"])
    sock_dir = w["env"].get("NCD_LIVE_SOCK_DIR")
    sock = os.path.join(sock_dir, f"r{r}.sock") if sock_dir else ""
    fr = evidence.flight_recorder(sock, timeout_s=left(5.0)) if sock else None
    dump = f"{w['env'].get('TORCH_FR_DUMP_TEMP_FILE', '')}{r}"
    if fr is None and w["pipe"] and os.path.isfile(dump):
        try:
            fr = json.loads(Path(dump).read_text())
        except (OSError, ValueError):
            fr = None  # a pickle: diagnose reads it from the run directory's fr/
    w["fr"] = fr


def _inject_all(workers: list[dict[str, Any]], run_dir: Path, timeout_s: float) -> None:
    """--inject in every worker at once (one gdb each), so N workers take one deadline, not N."""
    import threading

    from ncclDoctor.live import inject_gdb

    threads = [threading.Thread(target=_inject, args=(w, run_dir, timeout_s), daemon=True) for w in workers]
    for t in threads:
        t.start()
    deadline = time.monotonic() + timeout_s + 2 * inject_gdb._GRACE_S + inject_gdb._KILL_WAIT_S + 1.0
    for t in threads:
        t.join(timeout=max(0.0, deadline - time.monotonic()))
    for w in workers:
        w.setdefault("inject", f"failed: no answer in {timeout_s:g} s")


def _inject(w: dict[str, Any], run_dir: Path, timeout_s: float) -> None:
    """--inject: the Flight Recorder and stacks from inside the worker, through gdb (opt-in)."""
    from ncclDoctor.live import inject_gdb

    if not inject_gdb.available():
        w["inject"] = "gdb not installed"
        return
    if inject_gdb.holds_gil(w.get("stack")):
        w["inject"] = "skipped: a thread holds the GIL"
        return
    if (w.get("state") or ("?",))[0] in ("T", "t"):
        w["inject"] = "skipped: the process is stopped (state T); a call from gdb would be cut short"
        return
    started = time.monotonic()
    out = run_dir / "inject" / f"rank{w['rank']}.json"
    got = inject_gdb.inject(w["pid"], out, timeout_s)
    took = time.monotonic() - started
    why = out.with_suffix(".why")
    if got is None and why.is_file():
        w["inject"] = f"skipped: {why.read_text()} ({took:.1f} s)"
        return
    w["inject"] = ("ok" if got and got.get("fr") else
                   f"failed: {(got or {}).get('error') or f'no answer in {timeout_s:g} s'} ({took:.1f} s)")
    if got and got.get("stacks"):
        _save(run_dir / "stacks" / f"rank{w['rank']}.inject.txt", got["stacks"])
    if got and got.get("fr"):
        w["fr"] = got["fr"]


def _save(path: Path, text: str) -> None:
    from ncclDoctor.fsutil import write_text_atomic

    write_text_atomic(path, text)


def failure_record(files: list[str], pids: set[int], wait_s: float = 5.0) -> dict[str, Any]:
    """torchrun's failure record for ``pids`` from its log file(s), waiting up to ``wait_s`` for
    torchrun to write it (it stops the other workers first); {} when its output is no file. Where
    its agent crashed before the record (``agent_crash``), that crash's line under "agent_crash", and the pids it
    said it stopped (``stopped_pids``) under "stopped"."""
    from ncclDoctor.launch.evidence import log_failures, stopped_pids

    deadline = time.monotonic() + wait_s
    while files:
        recs: dict[str, Any] = {}
        for path in files:
            try:
                with open(path, "rb") as fh:
                    fh.seek(max(0, os.path.getsize(path) - (1 << 18)))
                    text = fh.read().decode("utf-8", "replace")
            except OSError:
                continue
            got = log_failures(text)
            for rec in [got["root_cause"], *got["others"]]:
                if rec and rec["pid"] in pids:
                    recs[str(rec["pid"])] = {**rec, "root_cause": rec is got["root_cause"]}
            if not recs and got.get("agent_crash"):
                recs.update(agent_crash=got["agent_crash"], stopped=sorted(stopped_pids(text) & pids))
        if recs or time.monotonic() >= deadline:
            return recs
        time.sleep(0.2)
    return {}


def _how(w: dict[str, Any], rec: dict[str, Any] | None, crash: str | None = None) -> str:
    if rec and rec.get("signal"):
        return f"killed by {rec['signal']} (torchrun's failure record)"
    if rec:
        return f"exit code {rec['exitcode']} (torchrun's failure record)"
    ex = w.get("exit") or {}
    if ex.get("signal"):
        return f"killed by {ex['signal']} (its exit status in /proc)"
    if "exitcode" in ex:
        return f"exit code {ex['exitcode']} (its exit status in /proc)"
    if crash:
        from ncclDoctor.launch.evidence import agent_crash_note

        return f"how is unknown (torchrun reaped it at once, and {agent_crash_note(crash)})"
    return "how is unknown (torchrun reaped it at once and its output is not a file ncclDoctor can read)"


def died_finding(workers: list[dict[str, Any]], records: dict[str, Any]) -> Any:
    """LIVE005 for workers that ended during the watch. The culprit is torchrun's root cause when
    its record is readable, else the ones not ended by SIGTERM (torchrun stops the survivors with
    it), else -- its agent crashed before the record -- the ones it did not say it stopped, else the
    first seen gone; the others are victims."""
    gone = sorted((w for w in workers if "gone_s" in w), key=lambda w: w["gone_s"])
    if not gone:
        return None
    for w in gone:
        w["how"] = _how(w, records.get(str(w["pid"])), records.get("agent_crash"))
    culprits = ([w for w in gone if (records.get(str(w["pid"])) or {}).get("root_cause")]
                or [w for w in gone if "SIGTERM" not in w["how"] and "unknown" not in w["how"]]
                or ([w for w in gone if "SIGTERM" not in w["how"] and w["pid"] not in records.get("stopped", ())]
                    if "agent_crash" in records else [])
                or [w for w in gone if w["gone_s"] == gone[0]["gone_s"]])
    rest = [w for w in workers if w not in culprits]
    msg = "; ".join(f"rank {w['rank']} (pid {w['pid']}) died {w['gone_s']:.1f} s into the watch: {w['how']}"
                    for w in culprits)
    ended = [w for w in rest if "gone_s" in w]
    if ended:
        msg += "; then " + ", ".join(f"rank {w['rank']} (pid {w['pid']}, {w['how'].split(' (')[0]})" for w in ended)
        msg += " ended too (torchrun stops the other workers when one fails)"
    alive = [w["rank"] for w in rest if "gone_s" not in w]
    if alive:
        msg += f"; rank {', '.join(map(str, alive))} still running: blocked in its next collective until its timeout"
    ev = [{k: w.get(k) for k in ("rank", "pid", "gone_s", "exit", "how")} for w in gone]
    return codes.LIVE_DIED.finding(msg, ranks=[w["rank"] for w in culprits], evidence=ev)


def verdict(workers: list[dict[str, Any]]) -> tuple[Any, dict[str, Any]]:
    """A finding (or None) and the per-rank picture."""
    with_fr = [w for w in workers if w.get("fr") and w["fr"].get("pg_status")]
    if len(with_fr) == len(workers):
        views = {w["rank"]: detect.RankView(
            w["rank"], w["pid"], "", w["local_rank"],
            pgs={pg: (int(s["last_enqueued_collective"]), int(s["last_completed_collective"]))
                 for pg, s in w["fr"]["pg_status"].items()}) for w in workers}
        status = detect.Status("hang", "0", 0.0, 0.0)
        v = detect.classify(status, views, {w["rank"]: w["fr"].get("entries", []) for w in workers})
        if any(x.inside(v.pg) for x in views.values()):
            from ncclDoctor.live.report import KIND_RULE

            msg = (f"from the Flight Recorder: {v.kind}; culprits {v.culprits}, victims {v.victims}, "
                   f"collective #{v.seq} {v.ops}")
            return KIND_RULE[v.kind].finding(msg, ranks=v.culprits or v.victims, evidence=[v.to_dict()]), {}
        return None, {}
    places = {w["rank"]: where(w) for w in workers}
    stopped = [w for w in workers if (w.get("state") or ("?",))[0] in "Tt"]
    if stopped:
        for w in stopped:
            places[w["rank"]] = "stopped"
        waiting = sorted(r for r, p in places.items() if p == "waiting")
        who = ", ".join(f"{w['rank']} (pid {w['pid']})" for w in stopped)
        msg = f"rank {who} is stopped (process state T: SIGSTOP, or a debugger holds it)"
        if waiting:
            msg += f"; rank {', '.join(map(str, waiting))} waiting"
        return codes.LIVE_FROZEN.finding(msg, ranks=[w["rank"] for w in stopped]), places
    waiting = sorted(r for r, p in places.items() if p == "waiting")
    others = sorted(r for r, p in places.items() if p != "waiting")
    ev = [f"rank {w['rank']} (pid {w['pid']}): {places[w['rank']]}; main thread {w.get('state')}, "
          f"{w.get('cpu_delta')} CPU ticks in the watch" for w in workers]
    if waiting and others:
        msg = (f"rank {', '.join(map(str, others))} not in a collective while rank {', '.join(map(str, waiting))} wait "
               "(from thread states and stacks; no Flight Recorder counters for a job not started by `ncclDoctor run`)")
        return codes.LIVE_MISSING.finding(msg, ranks=others, evidence=ev), places
    if waiting:
        msg = "every rank's main thread is waiting (a collective or a lock): transport or desync; the stacks say which"
        return codes.LIVE_INSIDE.finding(msg, ranks=waiting, evidence=ev), places
    return None, places


def _rank_row(w: dict[str, Any], places: dict[int, str], finding) -> dict[str, Any]:
    row = {"rank": w["rank"], "local_rank": w["local_rank"], "pid": w["pid"], "phase": places.get(w["rank"], ""),
           "state": "error" if finding is not None and w["rank"] in finding.ranks else "ok"}
    enq = (w.get("fr") or {}).get("pg_status", {}).get("0", {}).get("last_enqueued_collective")
    if enq is not None:
        row["seq"] = int(enq)
    return row


def attach_job(pid: int, out: str | None, watch_s: float, argv: list[str], inject: bool = False,
               common=None, say=None, inject_timeout_s: float = 60.0) -> tuple[Report, list[str]]:
    """The report (written to the run directory) and the files published (--junit)."""
    from ncclDoctor.finish import default_run_dir, finishing
    from ncclDoctor.options import CommonOptions

    if watch_s < 0 or watch_s > 600:
        raise UsageError(f"--watch must be between 0 and 600 seconds, got {watch_s}")
    if not 1 <= inject_timeout_s <= 600:
        raise UsageError(f"--inject-timeout must be between 1 and 600 seconds, got {inject_timeout_s}")
    agent, workers = find_job(pid)
    logs = output_files(agent)
    run_dir = Path(out) if out else default_run_dir("attach")
    if say is not None:
        say(f"watching {len(workers)} worker(s) of torchrun pid {agent} for {watch_s:g} s "
            f"(ranks {', '.join(str(w['rank']) for w in workers)})")
    started = time.monotonic()
    sample(workers, watch_s, run_dir, inject, inject_timeout_s)
    records = failure_record(logs, {w["pid"] for w in workers if "gone_s" in w}) if any(
        "gone_s" in w for w in workers) else {}
    finding = died_finding(workers, records)
    places = {w["rank"]: "died" for w in workers if "gone_s" in w}
    if finding is None:
        finding, places = verdict(workers)
    rep = Report(command="attach", argv=argv)
    if finding is not None:
        rep.add(finding)
    rep.ranks = [_rank_row(w, places, finding) for w in workers]
    rep.results["live"] = {"agent_pid": agent, "agent_alive": exit_state(agent) is None,
                           "py_spy": bool(evidence.pyspy_exe()), "watch_s": watch_s,
                           "workers": [{k: v for k, v in w.items() if k not in ("fr", "stack")} for w in workers]}
    rep.duration_s = round(time.monotonic() - started, 2)
    written = finishing(rep, common or CommonOptions(), run_dir,
                        outcome=ExitCode.FAULT if finding is not None else ExitCode.OK)
    return rep, written
