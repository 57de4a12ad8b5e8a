"""The live loop of ``ncclDoctor run``: heartbeats in, statuses and verdicts out.

Each poll turns the collector's latest records into ``detect.RankView``s, feeds the tracker
and acts on the status: a line "waiting on rank r for N s" (every 5 s while it lasts), and on
``hang`` one verdict per stall with evidence gathered first (``evidence``). If the group moves
on after a verdict, the verdict is downgraded to a recovered stall (LIVE008).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ncclDoctor.live import detect, evidence
from ncclDoctor.live.collector import Collector

TIMELINE_CAP = 400  # samples kept per rank (the last ones)


@dataclass
class Watch:
    collector: Collector
    run_dir: Path
    settings: detect.Settings
    say: Callable[[str], None]
    signal_dump: bool = True
    judge: bool = True  # False on a node that reports to another node's collector
    t0: float = field(default_factory=time.monotonic)
    tracker: detect.Tracker = field(init=False)
    verdicts: list[dict[str, Any]] = field(default_factory=list)
    timeline: dict[int, list[list[Any]]] = field(default_factory=dict)
    open_verdict: dict[str, Any] | None = None
    last_said: float = -1e9
    stragglers_said: set = field(default_factory=set)
    stragglers_checked: float = 0.0
    last_views: dict[int, detect.RankView] = field(default_factory=dict)
    hostname: str = field(default_factory=socket.gethostname)
    on_verdict: Callable[[], None] | None = None  # writes the report while the job still runs
    publisher: dict[int, dict[str, float]] = field(default_factory=dict)  # rank -> the publisher's own CPU
    # str(rank) -> the first poll that found a local rank's pid gone: pid, t (s since start), exit (its wait status
    # when still a zombie, attach.exit_state); LIVE005 reads it where torchrun's record cannot tell who died first
    gone: dict[str, dict[str, Any]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.tracker = detect.Tracker(self.settings)

    def views(self, now: float) -> dict[int, detect.RankView]:
        out = {}
        for rank, beat in self.collector.snapshot().items():
            rec = beat.record
            if isinstance(rec.get("self_cpu_s"), (int, float)) and isinstance(rec.get("n"), int):
                self.publisher[rank] = {"cpu_s": rec["self_cpu_s"], "polls": rec["n"]}
            local = rec.get("host") == self.hostname and str(rec.get("addr", "127.")).startswith("127.")
            out[rank] = detect.RankView(
                rank=rank, pid=rec.get("pid"), host=node_name(rec), local_rank=rec.get("local_rank"),
                pgs={} if rec.get("exiting") else _counters(rec.get("pgs")),
                frames=list(rec.get("frames") or []), age_s=now - beat.seen_at,
                alive=evidence.pid_alive(rec.get("pid")) if local else None,
                cpu_s=rec.get("cpu_s") if isinstance(rec.get("cpu_s"), (int, float)) else None,
            )
        return out

    def poll(self) -> detect.Status:
        now = time.monotonic()
        views = self.views(now)
        self.last_views = views
        self._record(now, views)
        self._note_gone(now, views)
        status = self.tracker.observe(now, views)
        if not self.judge:
            return detect.Status("ok")
        if now - self.stragglers_checked >= 2.0:
            self.stragglers_checked = now
            self._say_stragglers()
        if status.state == "waiting" and now - self.last_said >= 5.0:
            self.last_said = now
            busy = (f"; it is busy outside collectives, main thread at {100 * min(status.busy.values()):.0f}% CPU: "
                    f"hang after {self.settings.busy_cap * status.threshold_s:.0f} s if it stays so"
                    if status.busy else f"; hang after {status.threshold_s:.0f} s")
            self.say(f"waiting on rank {_ranks(status.waiting_on)} for {status.stalled_s:.0f} s "
                     f"(group {status.pg}, collective #{status.seq}{busy})"
                     if status.waiting_on else
                     f"every rank of group {status.pg} inside collective #{status.seq} for {status.stalled_s:.0f} s "
                     f"(hang after {status.threshold_s:.0f} s)")
        if status.state == "hang" and self.open_verdict is None:
            self.open_verdict = self.conclude(status, views)
        elif status.state == "ok" and self.open_verdict is not None and self._moved_on(views):
            self.open_verdict["recovered_after_s"] = round(now - self.t0 - self.open_verdict["t"], 1)
            self.say(f"group {self.open_verdict['pg']} moved on again: the stall was not a hang (LIVE008)")
            self.open_verdict = None
        return status

    def _note_gone(self, now: float, views: dict[int, detect.RankView]) -> None:
        for r, v in views.items():
            if v.alive is False and self.gone.get(str(r), {}).get("pid") != v.pid:  # a restart's new pid: anew
                from ncclDoctor.live.attach import exit_state

                self.gone[str(r)] = {"rank": r, "pid": v.pid, "local_rank": v.local_rank, "host": v.host,
                                     "t": round(now - self.t0, 2), "exit": exit_state(v.pid) if v.pid else None}

    def _nccl(self) -> bool:
        return any("nccl" in str(b.record.get("backend", "")) for b in self.collector.snapshot().values())

    def finish(self) -> None:
        """The job is over: say the stragglers the last polls established, before the report."""
        if self.judge:
            self._say_stragglers()

    def _say_stragglers(self) -> None:
        """A straggler is a warning while the job runs: said once per rank and group."""
        for s in self.tracker.straggle.stragglers():
            if (s["pg"], s["rank"]) not in self.stragglers_said:
                self.stragglers_said.add((s["pg"], s["rank"]))
                self.say(f"straggler: the other ranks of group {s['pg']} were waiting for rank {s['rank']} in "
                         f"{100 * s['share']:.0f}% of {s['samples']} samples (LIVE006)")

    def _moved_on(self, views: dict[int, detect.RankView]) -> bool:
        v = self.open_verdict or {}
        done = v.get("completed", {})
        return any(x.pgs.get(v.get("pg"), (0, -1))[1] > done.get(str(r), 1 << 60) for r, x in views.items())

    def _record(self, now: float, views: dict[int, detect.RankView]) -> None:
        t = round(now - self.t0, 2)
        for r, v in views.items():
            row = self.timeline.setdefault(r, [])
            sample = [t, {pg: list(c) for pg, c in v.pgs.items()}, v.frames[:1]]
            if not row or row[-1][1:] != sample[1:]:
                row.append(sample)
                del row[:-TIMELINE_CAP]

    def conclude(self, status: detect.Status, views: dict[int, detect.RankView]) -> dict[str, Any]:
        """Evidence first, then the verdict (its FR entries tell a desync from a transport hang)."""
        started = time.monotonic()
        ev = gather(self.run_dir, views, self.signal_dump, self.settings.stale_s)
        verdict = detect.classify(status, views, ev["entries"], self.settings.stale_s)
        if verdict.kind == "inside" and self._nccl():
            ras = evidence.nccl_ras(os.environ.get("NCCL_RAS_ADDR", "localhost:28028"))
            ev["summary"]["nccl_ras"] = bool(ras)
            if ras:
                _write(self.run_dir / "nccl_ras.txt", ras)
        rec = {**verdict.to_dict(), "t": round(started - self.t0, 2), "wall": round(time.time(), 3),
               "evidence_s": round(time.monotonic() - started, 2), "evidence": ev["summary"],
               "hosts": {str(r): v.host for r, v in views.items()}, "pids": {str(r): v.pid for r, v in views.items()},
               "frames": {str(r): v.frames for r, v in views.items()},
               "states": _states(views)}
        self.verdicts.append(rec)
        self.say(verdict_line(rec))
        if self.on_verdict is not None:
            try:
                self.on_verdict()
                self.say(f"report (the job is still running): {self.run_dir / 'report.md'}")
            except Exception as exc:  # the final report is still written when the job ends
                self.say(f"could not write the interim report: {type(exc).__name__}: {exc}")
        return rec


def _states(views: dict[int, detect.RankView]) -> dict[str, str]:
    """rank -> its main thread's process state letter (T: stopped), for the live local ranks."""
    out = {}
    for r, v in views.items():
        st = evidence.main_thread_state(v.pid) if v.alive else None
        if st:
            out[str(r)] = st[0]
    return out


def node_name(rec: dict[str, Any]) -> str:
    """host name, plus the address the heartbeat came from when it is not loopback."""
    host, addr = rec.get("host", ""), rec.get("addr", "")
    return f"{host} ({addr})" if addr and not addr.startswith("127.") else host


def _counters(pgs: dict[str, list[int]] | None) -> dict[str, tuple[int, int]]:
    return {pg: (int(v[0]), int(v[1])) for pg, v in (pgs or {}).items()}


def _ranks(ranks: list[int]) -> str:
    return ", ".join(map(str, ranks)) if ranks else "?"


def verdict_line(v: dict[str, Any]) -> str:
    def who(rs: list[int]) -> str:
        return ", ".join(f"{r} ({v['hosts'].get(str(r), '?')}, pid {v['pids'].get(str(r), '?')})" for r in rs)

    victims = _ranks(v["victims"])
    head = f"HANG after {v['stalled_s']:.0f} s without progress (threshold {v['threshold_s']:.0f} s), group {v['pg']}: "
    if v["kind"] == "missing":
        return head + f"rank {who(v['culprits'])} never issued collective #{v['seq']} that rank {victims} wait in"
    if v["kind"] == "desync":
        ops = "; ".join(f"rank {r}: {o}" for r, o in sorted(v["ops"].items(), key=lambda kv: int(kv[0])))
        return head + f"ranks issued different collectives at #{v['seq']} ({ops})"
    if v["kind"] == "frozen":
        states = v.get("states") or {}
        if v["culprits"] and all(states.get(str(r)) in ("T", "t") for r in v["culprits"]):
            return head + (f"rank {who(v['culprits'])} is stopped (process state T: SIGSTOP, or a debugger holds it); "
                           f"rank {victims} wait")
        return head + f"rank {who(v['culprits'])} stopped answering while alive (GIL held, frozen); rank {victims} wait"
    if v["kind"] == "died":
        return head + f"rank {who(v['culprits'])} died; rank {victims} wait"
    return head + f"every rank is inside collective #{v['seq']}: transport, network or GPU side"


def gather(run_dir: Path, views: dict[int, detect.RankView], signal_dump: bool, stale_s: float = 2.0) -> dict[str, Any]:
    """Flight Recorder and stacks of every local rank, safest source first (see ``evidence``)."""
    entries: dict[int, list] = {}
    summary: dict[str, Any] = {"flight_recorder": [], "stacks": {}, "signalled": []}
    boots = read_boots(run_dir)
    for r, v in sorted(views.items()):
        boot = boots.get(r, {})
        if v.alive is None or boot.get("pid") != v.pid:
            continue  # not on this node, or not a worker we prepared
        if (evidence.main_thread_state(v.pid) or ("?",))[0] in "Tt":
            # stopped (SIGSTOP, a debugger): nothing in it answers, and a signal would wait to cut its
            # first syscall short once it is continued; /proc is all there is
            _write(run_dir / "stacks" / f"rank{r}.proc.txt", evidence.proc_threads(v.pid))
            summary["stacks"][str(r)] = ["proc"]
            summary.setdefault("stopped", []).append(r)
            continue
        fr = evidence.flight_recorder(boot.get("sock", ""))
        if fr is not None:
            entries[r] = fr.get("entries", [])
            _write(run_dir / "fr" / f"rank{r}.json", json.dumps(fr))
            summary["flight_recorder"].append(r)
            pg = fr.get("pg_status", {})
            if pg:  # fresher than a frozen rank's last heartbeat: the C++ server answers without the GIL
                v.pgs.update(_counters({k: [s["last_enqueued_collective"], s["last_completed_collective"]]
                                        for k, s in pg.items()}))
        summary["stacks"][str(r)] = _stacks(run_dir, r, v, boot, summary, signal_dump, stale_s)
    return {"entries": entries, "summary": summary}


def _stacks(run_dir: Path, r: int, v: detect.RankView, boot: dict, summary: dict, signal_dump: bool,
            stale_s: float) -> list[str]:
    got = []
    stacks = run_dir / "stacks"
    if v.alive:
        _write(stacks / f"rank{r}.proc.txt", evidence.proc_threads(v.pid))
        got.append("proc")
    if v.alive and v.age_s <= stale_s:  # dump_traceback needs the GIL: only ask a rank whose watcher runs
        tb = evidence.handler(boot.get("sock", ""), "dump_traceback", 2.0)
        if tb:
            _write(stacks / f"rank{r}.txt", tb.decode("utf-8", "replace"))
            got.append("worker_server")
    spy = evidence.pyspy(v.pid) if v.alive else None
    if spy:
        _write(stacks / f"rank{r}.py-spy.txt", spy)
        got.append("py-spy")
    if v.alive and signal_dump and not {"worker_server", "py-spy"} & set(got):
        sig = int(os.environ.get("NCD_LIVE_SIGNAL") or signal.SIGRTMIN + 5)
        if evidence.signal_dump(v.pid, sig, stacks / f"rank{r}.signal.txt"):
            got.append("signal")
        summary["signalled"].append(r)
    return got


def read_boots(run_dir: Path) -> dict[int, dict[str, Any]]:
    out = {}
    for p in sorted((run_dir / "live").glob("boot.rank*.json")):
        try:
            rec = json.loads(p.read_text())
            out[int(rec["rank"])] = rec
        except (OSError, ValueError, KeyError):
            continue
    return out


def _write(path: Path, text: str) -> None:
    from ncclDoctor.fsutil import write_text_atomic

    write_text_atomic(path, text)
