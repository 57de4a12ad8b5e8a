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
  default.

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


def sample(workers: list[dict[str, Any]], watch_s: float, run_dir: Path, inject: bool = False) -> None:
    for w in workers:
        w["ticks0"] = cpu_ticks(w["pid"])
        w["pipe"] = trigger_nccl_dump(w)
    time.sleep(max(0.0, watch_s))
    for w in workers:
        pid, r = w["pid"], w["rank"]
        ticks = cpu_ticks(pid)
        w["cpu_delta"] = (ticks - w["ticks0"]) if ticks is not None and w["ticks0"] is not None else None
        w["state"] = evidence.main_thread_state(pid)
        _save(run_dir / "stacks" / f"rank{r}.proc.txt", evidence.proc_threads(pid))
        w["stack"] = evidence.pyspy(pid)
        if w["stack"]:
            _save(run_dir / "stacks" / f"rank{r}.py-spy.txt", w["stack"])
        sock_dir = w["env"].get("NCD_LIVE_SOCK_DIR")
        sock = os.path.join(sock_dir, f"r{r}.sock") if sock_dir else ""
        fr = evidence.flight_recorder(sock) if sock else None
        dump = f"{w['env'].get('TORCH_FR_DUMP_TEMP_FILE', '')}{r}"
        if fr is None and w["pipe"] and os.path.isfile(dump):
            try:
                fr = json.loads(Path(dump).read_text())
            except (OSError, ValueError):
                fr = None  # a pickle: diagnose reads it from the run directory's fr/
        if fr is None and inject:
            fr = _inject(w, run_dir)
        if fr is not None:
            w["fr"] = fr
            _save(run_dir / "fr" / f"rank{r}.json", json.dumps(fr))


def _inject(w: dict[str, Any], run_dir: Path) -> dict[str, Any] | None:
    """--inject: the Flight Recorder and stacks from inside the worker, through gdb (opt-in)."""
    from ncclDoctor.live import inject_gdb

    if not inject_gdb.available():
        w["inject"] = "gdb not installed"
        return None
    if inject_gdb.holds_gil(w.get("stack")):
        w["inject"] = "skipped: a thread holds the GIL"
        return None
    got = inject_gdb.inject(w["pid"], run_dir / "inject" / f"rank{w['rank']}.json")
    w["inject"] = "ok" if got and got.get("fr") else f"failed: {(got or {}).get('error', 'no answer in time')}"
    if got and got.get("stacks"):
        _save(run_dir / "stacks" / f"rank{w['rank']}.inject.txt", got["stacks"])
    return got.get("fr") if got else None


def _save(path: Path, text: str) -> None:
    from ncclDoctor.fsutil import write_text_atomic

    write_text_atomic(path, text)


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
               common=None) -> tuple[Report, list[str]]:
    """The report (written to the run directory) and the files published (--junit)."""
    from ncclDoctor.finish import default_run_dir, finishing
    from ncclDoctor.options import CommonOptions

    if watch_s < 0 or watch_s > 600:
        raise UsageError(f"--watch must be between 0 and 600 seconds, got {watch_s}")
    agent, workers = find_job(pid)
    run_dir = Path(out) if out else default_run_dir("attach")
    started = time.monotonic()
    sample(workers, watch_s, run_dir, inject)
    finding, places = verdict(workers)
    rep = Report(command="attach", argv=argv)
    if finding is not None:
        rep.add(finding)
    rep.ranks = [_rank_row(w, places, finding) for w in workers]
    rep.results["live"] = {"agent_pid": agent, "py_spy": bool(evidence.pyspy_exe()), "watch_s": watch_s,
                           "workers": [{k: v for k, v in w.items() if k not in ("fr", "stack")} for w in workers]}
    rep.duration_s = round(time.monotonic() - started, 2)
    written = finishing(rep, common or CommonOptions(), run_dir,
                        outcome=ExitCode.FAULT if finding is not None else ExitCode.OK)
    return rep, written
