"""The report of a watched (``run``) or inspected (``attach``) job: the same model, codes and
renderers as ``check``. ``results["live"]`` holds the verdicts, each rank's last counters,
a per-rank timeline of Flight Recorder progress, torchrun's failure record and the last
output lines; the findings tell the story in words."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ncclDoctor.errors import ExitCode
from ncclDoctor.findings import Finding
from ncclDoctor.report.model import Report
from ncclDoctor.rules.codes import live as codes

_RANK_PREFIX = re.compile(r"^\[(?:rank|default)(\d+)\]:")
KIND_RULE = {"missing": codes.LIVE_MISSING, "desync": codes.LIVE_DESYNC, "inside": codes.LIVE_INSIDE,
             "frozen": codes.LIVE_FROZEN, "died": codes.LIVE_DIED}


def verdict_finding(v: dict[str, Any]) -> Finding:
    from ncclDoctor.live.watch import verdict_line

    hosts = sorted({v["hosts"].get(str(r), "") for r in v["culprits"]} - {""})
    ev = [f"group {v['pg']}: last enqueued {v['enqueued']}, last completed {v['completed']}"]
    for r in v["culprits"] + v["victims"]:
        ev.append(f"rank {r} main thread: {' <- '.join(v['frames'].get(str(r), [])[:3]) or '?'}")
    if any(v.get("ops", {}).values()):
        ev.append(f"collective #{v['seq']} per rank: {v['ops']}")
    ev.append(f"evidence gathered in {v['evidence_s']} s: {v['evidence']}")
    if "recovered_after_s" in v:
        msg = (f"no collective completed for {v['stalled_s']:.0f} s (over the {v['threshold_s']:.0f} s threshold), "
               f"then group {v['pg']} moved on {v['recovered_after_s']:.0f} s after the verdict: "
               + verdict_line(v).split(": ", 1)[1])
        return codes.LIVE_RECOVERED.finding(msg, nodes=hosts, ranks=v["culprits"], evidence=ev)
    return KIND_RULE[v["kind"]].finding(verdict_line(v), nodes=hosts, ranks=v["culprits"] or v["victims"], evidence=ev)


_EXCEPTION = re.compile(r"^(?:\[rank\d+\]:\s*)?([A-Za-z_][\w.]*(?:Error|Exception|Interrupt|Failure|Exit)\b.*)$")


def last_exception(lines: list[str]) -> str | None:
    """The exception a rank's own output ends with (``RuntimeError: ...``, the last line of its
    traceback), or None."""
    for line in reversed(lines):
        if m := _EXCEPTION.match(line.strip()):
            return m.group(1)[:300]
    return None


# What a rank's own last exception says beside a peer gone (diagnose's signatures.R_PEER_GONE: "Connection closed by
# peer", "Broken pipe") when it only lost that peer: gloo's "This is typically caused by a remote worker crashing", a
# collective that timed out, torch's DistNetworkError
_LOST_PEER = re.compile(r"remote (?:worker|process)|DistNetworkError|DistBackendError|Watchdog caught|"
                        r"communicator was aborted|timed out", re.I)


def _own(tail: dict[str, Any] | None, rank: int) -> str | None:
    return last_exception(((tail or {}).get("per_rank") or {}).get(str(rank), []))


def _killed(rec: dict[str, Any]) -> bool:
    """Killed by a signal other than SIGTERM (the one torchrun stops survivors with): SIGKILL, SIGSEGV, ..."""
    return bool(rec.get("signal")) and rec["signal"] != "SIGTERM"


def _vanished_first(gone: dict[str, Any] | None, root: dict[str, Any]) -> dict[str, Any] | None:
    """The watcher's own record of the rank whose pid vanished first, when that is not ``root`` and ``root``'s
    pid vanished later (or was never seen gone), and it did not end by SIGTERM or with exit code 0; else None."""
    seen = sorted((g for g in (gone or {}).values() if isinstance(g.get("t"), (int, float))), key=lambda g: g["t"])
    if not seen or seen[0]["rank"] == root["rank"]:
        return None
    first = seen[0]
    root_t = next((g["t"] for g in seen if g["rank"] == root["rank"]), None)
    exit_ = first.get("exit") or {}
    if (root_t is not None and root_t <= first["t"]) or exit_.get("signal") == "SIGTERM" or exit_.get("exitcode") == 0:
        return None  # torchrun stopped it, or it finished its work: no cause
    return first


def _peer_lost(own: str | None) -> bool:
    if not own:
        return False
    from ncclDoctor.diagnose.signatures import R_PEER_GONE  # only here: diagnose costs 0.6 s to import

    return bool(R_PEER_GONE.search(own) or _LOST_PEER.search(own))


def _victim(g: dict[str, Any], tail: dict[str, Any] | None, stopped: set[int]) -> str | None:
    """Why a vanished rank (the watcher's ``gone`` record) only followed another's failure, or None: torchrun stopped
    it (``stopped``: the pids its "Sending process PID closing signal" names), its wait status shows SIGTERM or exit
    code 0, or its own last exception is a peer lost."""
    exit_ = g.get("exit") or {}
    if g.get("pid") in stopped:
        return "torchrun stopped it"
    if exit_.get("signal") == "SIGTERM":
        return "it ended by SIGTERM"
    if exit_.get("exitcode") == 0:
        return "it finished with exit code 0"
    return "its own last error is a peer lost" if _peer_lost(_own(tail, g["rank"])) else None


def _unrecorded_first(gone: dict[str, Any] | None, tail: dict[str, Any] | None,
                      exiting: set[int], stopped: set[int]) -> list[dict[str, Any]]:
    """Where torchrun printed no failure record (its agent crashed first, ``agent_crash``), the live watcher's own
    record of the ranks whose pids vanished (``gone``) stands in for it. Victims (``_victim``) are no cause; of the
    rest, the ones that vanished with no goodbye (killed: no exit handler ran) come before ones that exited through
    their interpreter. The earliest poll's ranks of that kind: one, or several the watcher saw vanish together (it
    cannot tell those apart)."""
    rest = [g for g in (gone or {}).values() if isinstance(g.get("t"), (int, float)) and not _victim(g, tail, stopped)]
    pool = [g for g in rest if g["rank"] not in exiting] or rest
    if not pool:
        return []
    first = min(g["t"] for g in pool)
    return sorted((g for g in pool if g["t"] == first), key=lambda g: g["rank"])


def _unrecorded_finding(seen: list[dict[str, Any]], gone: dict[str, Any], tail: dict[str, Any] | None,
                        crash: str | None, stopped: set[int]) -> Finding:
    """LIVE005 from the watcher's record (``_unrecorded_first``) where torchrun's is missing."""
    from ncclDoctor.launch.evidence import agent_crash_note

    parts = []
    for g in seen:
        exit_ = g.get("exit") or {}
        how = (f"was killed by {exit_['signal']}" if exit_.get("signal") else
               f"exited with exit code {exit_['exitcode']}" if exit_.get("exitcode") is not None else
               "vanished")
        own = _own(tail, g["rank"])
        parts.append(f"rank {g['rank']} (local rank {g.get('local_rank')}, {g.get('host')}, pid {g.get('pid')}) "
                     f"{how} {g['t']:.1f} s into the run" + (f": {own}" if own else ", with no exception of its own"))
    msg = "; ".join(parts)
    if len(seen) > 1:
        msg += " (the live watcher saw these vanish in the same poll and cannot tell which went first)"
    msg += ". " + (agent_crash_note(crash) if crash else
                   "no torchrun failure record was printed, so no exit code or signal of any rank was recorded")
    msg += ". The live watcher's own record of the vanished pids stands in for torchrun's"
    why = {g["rank"]: v for g in gone.values() if g not in seen and (v := _victim(g, tail, stopped))}
    if why:
        msg += ": " + "; ".join(f"rank {r} vanished too ({why[r]})" for r in sorted(why)) + " -- victims"
    return codes.LIVE_DIED.finding(msg, nodes=sorted({str(g.get("host")) for g in seen}),
                                   ranks=[g["rank"] for g in seen], evidence=seen)


def _first_failed(failures: dict[str, Any], tail: dict[str, Any] | None,
                  gone: dict[str, Any] | None = None) -> tuple[dict[str, Any] | None, str]:
    """torchrun's root cause is the failure it dated first, to the second. A worker killed by a signal leaves no
    error file, so torchrun dates it when its monitor notices the death; a peer that lost it and raised is dated by
    its error file (@record) at the raise. On a loaded host the raise can fall in an earlier second than torchrun's
    look: that victim is then the "Root Cause", whether it had exited (exit code 1) or torchrun still had to stop it
    (SIGTERM). Where the root cause was not itself killed by a signal other than SIGTERM, and its own error (its last
    exception line, else its @record error file) is a peer lost, the worker killed by such a signal failed first:
    torchrun's record of it, else the rank whose pid the live watcher saw vanish first (``gone``: rank -> pid, ``t``,
    ``exit``: its wait status when the watcher caught it a zombie). Returns the record and a note for the message."""
    root = failures.get("root_cause")
    if not root or _killed(root):
        return root, ""
    own = _own(tail, root["rank"])
    if not own:
        from ncclDoctor.launch.evidence import error_file_message

        own = error_file_message(root.get("error_file"))
    if not _peer_lost(own):
        return root, ""
    killed = [r for r in failures.get("others") or [] if _killed(r)]
    if len(killed) > 1 and gone:  # several: the one the watcher saw vanish first
        order = {int(r): g["t"] for r, g in gone.items() if isinstance(g.get("t"), (int, float))}
        killed.sort(key=lambda r: order.get(r["rank"], float("inf")))
    first = killed[0] if killed else None
    how = ""
    if first is None and (seen := _vanished_first(gone, root)) is not None:
        listed = next((r for r in failures.get("others") or [] if r["rank"] == seen["rank"]), {})
        exit_ = seen.get("exit") or {}
        first = {**listed, "rank": seen["rank"], "local_rank": seen.get("local_rank", listed.get("local_rank")),
                 "host": listed.get("host") or seen.get("host") or root["host"], "pid": seen.get("pid"),
                 "signal": exit_.get("signal"), "exitcode": exit_.get("exitcode"), "error_file": None,
                 "first_line": None, "seen_by": "watcher"}
        how = f", and the live watcher saw rank {seen['rank']}'s pid {seen.get('pid')} vanish first"
    if first is None:
        return root, ""
    return first, (f"; torchrun dated rank {root['rank']}'s exit first, but its own error is a peer lost "
                   f"({own[:160]}): a victim{how}")


# A rank killed by its own abort or fault after its interpreter had begun to exit (ncclDoctor's exit handler had
# sent its last record, no exception of its own): torch's teardown, not the training. torch 2.13 with gloo does it now
# and then (a plain torchrun of tests/fixtures/userjobs/ddp_loop.py, 1 run of ~50 here; CI stop 31 under `run`).
_TEARDOWN_SIGNALS = ("SIGABRT", "SIGSEGV", "SIGBUS")
TEARDOWN_NOTE = ("; it died after its interpreter had begun to exit (its exit handlers had run), with no exception "
                 "of its own: the fault is in the teardown, not the training -- torch aborts like this when a process "
                 "group is destroyed while a peer's last send is in flight, or only at interpreter exit with DDP still "
                 "holding it. End the script with dist.barrier(), drop the DDP model (del model; gc.collect()), then "
                 "dist.destroy_process_group()")


def exiting_ranks(beats: dict[int, Any]) -> set[int]:
    """The ranks whose last record to the collector was their goodbye (sent by their interpreter's exit handler)."""
    return {r for r, b in beats.items() if b.record.get("exiting")}


def failure_findings(failures: dict[str, Any], verdicts: list[dict[str, Any]],
                     tail: dict[str, Any] | None = None, gone: dict[str, Any] | None = None,
                     exiting: set[int] | None = None, failed: bool = False) -> list[Finding]:
    """LIVE005 for torchrun's first failed rank, with the reason in the rank's own words: its last
    exception line from its output (torchrun's record holds only "To enable traceback see: <url>"
    unless the entry point has @record). A root cause whose own error is a peer lost gives way to a
    worker killed by a signal (``_first_failed``; ``gone``: what the live watcher saw vanish). A rank
    that aborted after it had begun to exit (``exiting``: its goodbye arrived) is said to have died in
    the teardown (``TEARDOWN_NOTE``). Where the job failed (``failed``) and no torchrun record was printed (its agent
    crashed first: ``failures["agent_crash"]``; or no torchrun launched the job), the watcher's record of the vanished
    pids stands in for it."""
    if any(v["kind"] == "died" for v in verdicts):
        return []
    root, note = _first_failed(failures, tail, gone)
    if not root:
        stopped = set(failures.get("stopped_pids") or ())
        seen = _unrecorded_first(gone, tail, exiting or set(), stopped) if failed else []
        return [_unrecorded_finding(seen, gone or {}, tail, failures.get("agent_crash"), stopped)] if seen else []
    if root.get("signal"):
        how = f"signal {root['signal']}"
    elif root.get("exitcode") is not None:
        how = f"exit code {root['exitcode']}"
    else:
        how = "a status nobody saw (its wait status was reaped before the watcher looked)"
    msg = f"rank {root['rank']} (local rank {root['local_rank']}, {root['host']}, pid {root['pid']}) exited with {how}"
    own = _own(tail, root["rank"])
    first = root.get("first_line")
    if own:
        msg += f": {own}"
    elif first and not first.startswith("To enable traceback"):
        msg += f": {first}"
    if not own and root.get("signal") in _TEARDOWN_SIGNALS and root["rank"] in (exiting or set()):
        note += TEARDOWN_NOTE
    return [codes.LIVE_DIED.finding(msg + note, nodes=[root["host"]], ranks=[root["rank"]], evidence=[root])]


def publisher_cost(per_rank: dict[int, dict[str, float]], poll_s: float) -> dict[str, Any]:
    """What watching cost each worker, as its publisher thread measured itself: CPU seconds over
    the polls so far, and that as a share of one core (polls x poll interval ~ its lifetime)."""
    out = {}
    for r, v in sorted(per_rank.items()):
        span = v["polls"] * poll_s
        out[str(r)] = {"cpu_s": round(v["cpu_s"], 4), "polls": v["polls"],
                       "share_of_core": round(v["cpu_s"] / span, 6) if span > 0 else None}
    return out


def _tail_text(path: Path) -> str:
    with open(path, "rb") as fh:
        fh.seek(max(0, path.stat().st_size - (1 << 20)))
        return fh.read().decode("utf-8", "replace")


def output_tail(path: Path, lines: int = 20) -> dict[str, Any]:
    """The last lines of the job's output (``path``: output.log): overall, and per rank from the
    per-rank tee files (``ranks/rank<R>.log`` beside it), else from lines carrying torch's ``[rankN]:``."""
    per: dict[str, list[str]] = {}
    for f in sorted(path.parent.glob("ranks/rank*.log")):
        r = f.stem[len("rank"):]
        if r.isdigit():
            per[r] = _tail_text(f).splitlines()
    if not path.is_file():
        return {"per_rank": {r: ls[-lines:] for r, ls in sorted(per.items(), key=lambda kv: int(kv[0]))}} if per else {}
    all_lines = _tail_text(path).splitlines()
    if not per:
        for line in all_lines:
            m = _RANK_PREFIX.match(line)
            if m:
                per.setdefault(m.group(1), []).append(line)
    ordered = sorted(per.items(), key=lambda kv: int(kv[0]))
    return {"all": all_lines[-lines:], "per_rank": {r: ls[-lines:] for r, ls in ordered}}


def timeline_markdown(timeline: dict[int, list[list[Any]]], pg: str = "0", rows: int = 60) -> str:
    """Per-rank progress as a table: one row per sampled time, one column per rank, each cell the
    rank's last enqueued / last completed collective of ``pg`` (``7*/6`` = inside #7)."""
    times = sorted({s[0] for samples in timeline.values() for s in samples if pg in s[1]})
    if len(times) > rows:  # keep the start sparse and the end (where a hang is) whole
        head = times[:-rows // 2]
        times = head[:: max(1, len(head) // (rows // 2))] + times[-rows // 2:]
    ranks = sorted(timeline)
    lines = [f"# Progress per rank, group {pg}", "",
             "Cell: last enqueued / last completed collective; `*` = inside a collective.", "",
             "| t (s) | " + " | ".join(f"rank {r}" for r in ranks) + " |", "|---" * (len(ranks) + 1) + "|"]
    for t in times:
        cells = []
        for r in ranks:
            last = [s for s in timeline[r] if s[0] <= t]
            c = last[-1][1].get(pg) if last else None
            cells.append(f"{c[0]}{'*' if c[0] > c[1] else ''}/{c[1]}" if c else "")
        lines.append(f"| {t:.1f} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def rank_rows(watch, verdicts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    last = verdicts[-1] if verdicts else {}
    rows = []
    for r, v in sorted(watch.last_views.items()):
        role = "culprit" if r in last.get("culprits", []) else "victim" if r in last.get("victims", []) else "ok"
        pg = last.get("pg") or (sorted(v.pgs)[0] if v.pgs else None)
        enq, done = v.pgs.get(pg, (None, None)) if pg else (None, None)
        rows.append({k: x for k, x in {
            "rank": r, "local_rank": v.local_rank, "host": v.host, "pid": v.pid,
            "phase": "inside collective" if enq is not None and enq > done else "outside collectives",
            "state": "error" if role == "culprit" else role, "seq": enq, "last_completed": done,
            "top_frame": v.frames[0] if v.frames else None, "heartbeat_age_s": round(v.age_s, 1),
        }.items() if x is not None})  # the schema types these fields; unknown is absent, not null
    return rows


def build_report(opts, argv: list[str], run_dir: Path, watch, job_rc: int | None, elapsed: float, code: int,
                 interrupted: bool = False, running: bool = False) -> Report:
    """``running``: an interim report written at the verdict while the job still runs; the final
    one (job exit code, torchrun's failure record, last lines) replaces it when the job ends."""
    from ncclDoctor.finish import finishing
    from ncclDoctor.launch.evidence import log_failures, stopped_pids
    from ncclDoctor.options import CommonOptions

    log = run_dir / "output.log"
    failures = {"root_cause": None, "others": []}
    if log.is_file():
        text = log.read_text(errors="replace")
        failures = log_failures(text)
        failures["stopped_pids"] = sorted(stopped_pids(text))
    rep = Report(command="run", argv=argv)
    rep.duration_s = round(elapsed, 2)
    rep.interrupted = interrupted
    for v in watch.verdicts:
        rep.add(verdict_finding(v))
    tail = output_tail(log)
    rep.add(*failure_findings(failures, watch.verdicts, tail, getattr(watch, "gone", None),
                              exiting_ranks(watch.collector.snapshot()), failed=bool(job_rc) and not interrupted))
    if not watch.collector.progress_seen:
        rep.add(codes.LIVE_NO_PG.finding(f"no worker reported Flight Recorder progress in {elapsed:.0f} s"))
    for s in watch.tracker.straggle.stragglers():
        v = watch.last_views.get(s["rank"])
        rep.add(codes.LIVE_STRAGGLER.finding(
            f"rank {s['rank']} ({v.host if v else '?'}) was the one rank the others waited for in "
            f"{100 * s['share']:.0f}% of {s['samples']} samples of group {s['pg']}: the others spent about that "
            "share of the run inside collectives, waiting for it",
            nodes=[v.host] if v else [], ranks=[s["rank"]], evidence=[s]))
    if interrupted:
        from ncclDoctor.rules.codes.run import INTERRUPTED

        rep.add(INTERRUPTED.finding("interrupted (Ctrl-C / SIGTERM), forwarded to the job"))
    rep.ranks = rank_rows(watch, watch.verdicts)
    rep.results["live"] = {
        "launch": list(opts.launch), "job_returncode": job_rc, "job_running": running, "on_hang": opts.on_hang,
        "stall_after_s": opts.stall_after_s, "poll_s": opts.poll_s, "verdicts": watch.verdicts,
        "timeline": {str(r): rows for r, rows in sorted(watch.timeline.items())},
        "torchrun_failures": failures, "output_tail": tail,
        "publisher_cpu": publisher_cost(watch.publisher, opts.poll_s), "gone": getattr(watch, "gone", {}),
    }
    # report.exit_code follows the table every command shares (4: a hang or a dead rank was found);
    # the process exits with ``code``, the job's own, which results.live.exit_status records
    hung = any(f.code in ("LIVE001", "LIVE002", "LIVE003", "LIVE004", "LIVE005") for f in rep.findings)
    outcome = ExitCode.FAULT if hung else ExitCode.INTERRUPTED if interrupted else ExitCode.OK
    rep.results["live"]["exit_status"] = code
    common = getattr(opts, "common", None) or CommonOptions()
    published = finishing(rep, common, run_dir, outcome=outcome) if not running else []
    if running:  # the interim report: written, nothing published (JUnit comes with the final one)
        from ncclDoctor.report.write import write_run_dir

        rep.conclude(common.severity, outcome)
        write_run_dir(rep, run_dir)
    rep.config["published"] = published
    if watch.timeline:
        from ncclDoctor.fsutil import write_text_atomic

        pg = (watch.verdicts[-1]["pg"] if watch.verdicts else "0") or "0"
        write_text_atomic(run_dir / "timeline.md", timeline_markdown(watch.timeline, pg))
    return rep
