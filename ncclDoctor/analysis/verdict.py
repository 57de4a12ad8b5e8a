"""From how a probe run ended to findings and an exit code (pure).

Inputs: the supervisor's ``Outcome`` (phase markers, deadline, culprits/victims by
phase and sequence number), torchrun's failure record, a Flight Recorder summary and
the stacks gathered before teardown. Verdicts:

=================  =====================================================  =========
outcome            finding                                                exit code
=================  =====================================================  =========
ran to the end     none from here                                         0
nobody started     RUN001 launch failed                                   3
init never done    RUN002 (no single rank behind: rendezvous/network)     3
a rank behind      RUN003 hang: culprits by phase / sequence number       4
a rank died        RUN004 crash: torchrun's root cause, exit code/signal  4
a rank failed      RUN004: the first rank's own error, its phase, and     4
(another node)     how fast ``check.failfast`` stopped this node
a node lost        RUN105: the node that stopped beating (or the control  4
(check.heartbeat)  store this node lost), its ranks; the rest victims
wrong data         RUN005 (added by check's exact check, not here)       4
=================  =====================================================  =========
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable

from ncclDoctor.errors import ExitCode
from ncclDoctor.findings import Finding
from ncclDoctor.launch.evidence import agent_crash_note
from ncclDoctor.launch.supervisor import Outcome, RankState
from ncclDoctor.rules.codes import run as run_rules
from ncclDoctor.units import fmt_ranks

Label = Callable[[int], str]


@dataclass
class Verdict:
    """What the run's end means: its exit code, findings, and who is to blame (which
    may differ from the supervisor's arrival-order guess when a rank broke the plan)."""

    code: ExitCode
    findings: list[Finding] = field(default_factory=list)
    culprits: list[int] = field(default_factory=list)
    victims: list[int] = field(default_factory=list)


def initialized(out: Outcome) -> bool:
    """Every rank got through ``init`` (init_process_group)."""
    return out.passed("init")


def stack_tail(text: str | None, lines: int = 4) -> str | None:
    """The innermost frames of the main thread, for a one-glance message."""
    if not text:
        return None
    block = text.split("\n\n")[0].strip().splitlines()
    frames = [ln.strip() for ln in block if ln.strip().startswith("File ")]
    if "most recent call first" not in block[0]:  # traceback order: innermost last
        frames.reverse()
    return " <- ".join(frames[:lines]) or None


def plan_deviations(out: Outcome, sizes: list[int], warmup: int) -> dict[int, str]:
    """Ranks whose sweep departed from the plan every rank was given: a first
    collective of another size (a mismatch) or fewer/more collectives before the
    barrier (a skipped or extra one). Unlike a majority vote, this works for 2 ranks."""
    found: dict[int, str] = {}
    for r, st in out.ranks.items():
        issues = [m for m in st.marks if m["event"] == "issue"]
        barriers = [m for m in st.marks if m["event"] == "barrier"]
        for k, m in enumerate(issues[: len(sizes)]):
            want = m.get("want", max(1, sizes[k] // 4))  # the planned send count, from the rank's own plan
            if m.get("numel") != want:
                found[r] = (f"issued {m.get('op')} of {m.get('numel')} elements "
                            f"where every rank was to issue {want} (size {sizes[k]} B)")
                break
        if r in found:
            continue
        for k, m in enumerate(barriers[: len(sizes)]):
            if m.get("issued") != warmup:
                found[r] = (f"issued {m.get('issued')} collective(s) before the barrier at size {sizes[k]} B "
                            f"where the plan has {warmup} "
                            f"(it {'skipped' if m.get('issued', 0) < warmup else 'added'} one)")
                break
    return found


def _who(out: Outcome, r: int, label: Label, inv: dict[int, dict]) -> str:
    st = out.ranks[r]
    i = inv.get(r) or {}
    where = f"in {st.phase}" if st.state == "enter" else f"after {st.phase}" if st.phase else "before init"
    return (f"rank {r} (local rank {i.get('local_rank', '?')}, pid {i.get('pid', '?')}) "
            f"on {label(r)}, {where}, after {st.seq} collectives")


def hang_findings(out: Outcome, label: Label, inv: dict[int, dict], deviations: dict[int, str],
                  run_record: dict[str, Any]) -> Verdict:
    culprits, victims = out.culprits, out.victims
    if deviations:  # a rank that broke the plan explains the hang better than arrival order
        culprits = sorted(deviations)
        victims = sorted(r for r in out.ranks if r not in deviations)
    who = culprits or victims
    nodes = sorted({label(r) for r in who})
    if out.phase == "launch" or (not initialized(out) and not culprits):
        return Verdict(ExitCode.COULD_NOT_RUN, [run_rules.INIT_FAILED.finding(
            f"No rank got through {out.phase} within {out.deadline_s:.0f} s"
            + (f" (ranks {victims} were waiting in it)" if victims else "")
            + ": the rendezvous, the store or the network between ranks is the problem, not one rank.",
            ranks=who, nodes=nodes, evidence=[run_record],
        )], culprits, victims)
    stacks = out.evidence.get("stacks", {})
    parts = [f"Phase {out.phase!r} missed its {out.deadline_s:.0f} s deadline."]
    if q := out.evidence.get("no_progress"):  # called from the run's own evidence (check.budget), not a deadline
        parts = [f"Phase {out.phase!r}: no rank made progress for {q['quiet_s']:.0f} s, where the longest step "
                 f"so far took {q['longest_step_s']:.1f} s (limit {q['limit_s']:.0f} s)."]
    if culprits:
        parts.append("Culprit: " + "; ".join(_who(out, r, label, inv)
                                             + (f" — it {deviations[r]}" if r in deviations else "")
                                             for r in culprits) + ".")
        for r in culprits:
            tail = stack_tail(stacks.get(str(r)))
            if tail:
                parts.append(f"Rank {r}'s stack: {tail}.")
    else:
        parts.append("Every rank was inside the same collective with the same count: no rank is behind; "
                     "suspect the transport between them.")
    if victims:
        parts.append(f"Victims waiting inside {out.phase}: ranks {victims} (their timeouts would be symptoms).")
    fr = out.evidence.get("flight_recorder_summary") or {}
    if fr.get("behind"):
        parts.append(f"Flight Recorder agrees: ranks {fr['behind']} never enqueued collective #{fr['newest_seq']}.")
    for pg, g in sorted((fr.get("groups") or {}).items()):
        if pg != "0":  # sub-groups (the structure phase's intra-/inter-node groups) number their own collectives
            parts.append(f"Flight Recorder, process group {pg}: ranks {g['behind']} "
                         f"never enqueued its collective #{g['newest_seq']}.")
    for m in fr.get("mismatches", [])[:3]:
        parts.append(f"Flight Recorder mismatch at collective #{m['seq']}: ranks {m['ranks']} "
                     f"issued {list(m['found'].values())[0]} where the others issued {m['expected']}.")
    hang = run_rules.HANG.finding(" ".join(parts), ranks=who, nodes=nodes, evidence=[run_record])
    return Verdict(ExitCode.FAULT, [hang], culprits, victims)


# A rank whose error says its peer went away is a victim, even when torchrun on its node
# saw it fail first (it cannot see ranks on other nodes).
CONSEQUENCES = ("Connection closed by peer", "Connection reset by peer", "remote worker crashing", "Broken pipe")


SAME_FAILURE_S = 1.0  # own errors this close to the first are one failure (a node's ranks failing together)


def is_consequence(message: str | None) -> bool:
    return bool(message) and any(c in message for c in CONSEQUENCES)


def least_far(ranks: dict[int, RankState]) -> list[int]:
    """The ranks that got least far (most phases left, then fewest collectives), sorted; [] when all got as far."""
    progress = {r: (len(st.left), st.seq) for r, st in ranks.items()}
    if len(set(progress.values())) <= 1:
        return []
    low = min(progress.values())
    return sorted(r for r, p in progress.items() if p == low)


def first_failures(ranks: dict[int, RankState]) -> tuple[list[int], list[int]]:
    """(culprits, victims) once some rank posted an ``error`` event: the culprits are the ranks
    whose OWN error (not a lost peer, ``CONSEQUENCES``) came first -- within ``SAME_FAILURE_S`` of
    the earliest, by the ranks' own clocks -- and every other rank is a victim, including one whose
    own error (a timeout waiting for them) came later. When every error is a lost peer, the rank
    that died without a word is the one that got least far (fewest phases left, then fewest
    collectives); when all got as far, the earliest lost-peer error is all there is to name."""
    errs = {r: st for r, st in ranks.items() if st.state == "error"}
    own = {r: st for r, st in errs.items() if not is_consequence(st.error)}
    if not errs:
        return [], []
    if not own and (behind := least_far(ranks)):
        culprits = behind
    else:
        t0 = min(st.t or 0.0 for st in (own or errs).values())
        culprits = sorted(r for r, st in (own or errs).items() if (st.t or 0.0) - t0 <= SAME_FAILURE_S)
    return culprits, sorted(r for r in ranks if r not in culprits)


def stopped_findings(out: Outcome, label: Label, inv: dict[int, dict], failures: dict[str, Any]) -> Verdict:
    """A run ``check.failfast`` stopped after a rank's error in a phase past init (on any node):
    the first failure, with its own error, is the culprit. torchrun's record on this node is of
    the stop (SIGTERM); it is read only for a culprit that posted no error of its own."""
    culprits, victims = first_failures(out.ranks)
    root = failures.get("root_cause") or {}
    stop_s, limit = out.evidence.get("stopped_after_rank_error_s"), out.evidence.get("phase_deadline_s")
    parts = []
    for r in culprits:
        st, i = out.ranks[r], inv.get(r) or {}
        who = f"rank {r} (local rank {i.get('local_rank', '?')}, pid {i.get('pid', '?')}) on {label(r)}"
        if st.state == "error":  # its own text, or what its node's supervisor saw (it says so)
            parts.append(f"{who}: {st.error}" if st.error_by else f"{who} failed in {st.phase!r}: {st.error}")
            continue
        said = root.get("message") if root.get("rank") == r and not is_consequence(root.get("message")) else None
        parts.append(f"{who} stopped without an error event after its last phase {st.phase!r} ({st.state}), "
                     "the other ranks then lost it as a peer" + (f": {said}" if said else
                                                                 " (its own error is in its node's logs/)"))
    msg = "; ".join(parts) + "."
    if victims:
        msg += f" Ranks {victims} were waiting for it or lost it as a peer — consequences, not causes."
    if stop_s is not None:
        msg += (f" This node stopped its ranks {stop_s:.1f} s after it saw the first error"
                + (f", instead of waiting out the {limit:.0f} s {out.phase} deadline" if limit else "") + ".")
    crash = run_rules.CRASH.finding(msg, ranks=culprits, nodes=sorted({label(r) for r in culprits}),
                                    evidence=[{r: out.ranks[r].error for r in culprits}])
    return Verdict(ExitCode.FAULT, [crash], culprits, victims)


def crash_findings(out: Outcome, label: Label, inv: dict[int, dict], failures: dict[str, Any],
                   deviations: dict[int, str]) -> Verdict:
    if "stopped_after_rank_error_s" in out.evidence and not deviations:
        return stopped_findings(out, label, inv, failures)
    root = failures.get("root_cause")

    def consequence(rec: dict[str, Any]) -> bool:
        st = out.ranks.get(rec["rank"])
        return is_consequence(rec.get("message") or (st.error if st else None))

    if root and consequence(root):
        # torchrun's "first observed failure" is the order it noticed exits in: on a busy
        # host a peer that lost its connection can be noticed before the rank that was
        # killed. The cause is the first record that is not such a consequence, and a
        # rank torchrun itself stopped (SIGTERM) only when nothing else is left.
        causes = [r for r in failures.get("others", []) if r and not consequence(r)]
        root = min(causes, key=lambda r: (r.get("signal") == "SIGTERM", r.get("time") or ""), default=None)
    failed = [r for r, st in out.ranks.items() if st.state == "error"]
    if not initialized(out) and not any(st.left for st in out.ranks.values()) and not failed and not root:
        return Verdict(ExitCode.COULD_NOT_RUN, [run_rules.LAUNCH_FAILED.finding(
            f"torchrun exited with code {out.returncode} before any rank started (see torchrun.log).",
            nodes=sorted({label(r) for r in out.ranks}),
        )], out.culprits, out.victims)
    if not initialized(out) and not deviations:
        # Before every rank is through init the probe could not run: name who failed how.
        errs = [f"rank {r} on {label(r)}: {out.ranks[r].error}" for r in failed]
        if root and not errs:
            errs.append(f"rank {root['rank']}: exit code {root['exitcode']}"
                        + (f" ({root['signal']})" if root["signal"] else ""))
        return Verdict(ExitCode.COULD_NOT_RUN, [run_rules.INIT_FAILED.finding(
            "; ".join(errs) or f"torchrun exited with code {out.returncode} during init.",
            ranks=failed or ([root["rank"]] if root else []),
            nodes=sorted({label(r) for r in failed} or {label(r) for r in out.ranks}),
            evidence=[failures],
        )], out.culprits, out.victims)
    if deviations:
        culprits = sorted(deviations)
    elif root:
        culprits = [root["rank"]]
    elif any(st.state == "error" and not is_consequence(st.error) for st in out.ranks.values()):
        culprits = first_failures(out.ranks)[0]  # another node's rank, by its own error event
    else:
        culprits = least_far(out.ranks) or failed
    parts = []
    for r in culprits:
        st = out.ranks.get(r)
        status = ""
        if root and root["rank"] == r:
            status = f"exit code {root['exitcode']}" + (f", killed by {root['signal']}" if root["signal"] else "")
            if root["signal"] == "SIGKILL":
                status += " (the OOM killer sends SIGKILL: check `dmesg` / the container's memory limit)"
        last = f"last phase {st.phase!r} ({st.state})" if st and st.phase else "before init"
        # this node's error files are keyed by local rank: usable when the job is one node
        one_node = len({(i or {}).get("addr") for i in inv.values()}) <= 1
        local = (inv.get(r) or {}).get("local_rank", r)
        err = ((root or {}).get("message") if root and root["rank"] == r else None) or (st.error if st else None) \
            or (failures.get("errors_by_local_rank", {}).get(local) if one_node else None)
        if st and st.error_by and r not in deviations:  # its node's supervisor said it, from torchrun's record
            parts.append(f"rank {r} (pid {(inv.get(r) or {}).get('pid', '?')}) on {label(r)}: {st.error}")
            continue
        if r in deviations:
            parts.append(f"rank {r} (pid {(inv.get(r) or {}).get('pid', '?')}) on {label(r)} {deviations[r]}, {last}")
            if root and root["rank"] != r:
                parts.append(
                    f"the first process to die was rank {root['rank']} "
                    f"({'killed by ' + root['signal'] if root['signal'] else 'exit code ' + str(root['exitcode'])}) "
                    f"when it received mismatched data")
            continue
        parts.append(f"rank {r} (pid {(inv.get(r) or {}).get('pid', (root or {}).get('pid', '?'))}) "
                     f"on {label(r)} died: {status or 'non-zero exit'}, {last}" + (f": {err}" if err else ""))
    victims = sorted(r for r in out.ranks
                     if r not in culprits and (out.ranks[r].state == "error" or "done" not in out.ranks[r].left))
    msg = "; ".join(parts) + "."
    if not root and failures.get("agent_crash"):  # torchrun's agent died before its record: say why no signal shows
        msg += f" {agent_crash_note(failures['agent_crash'])}."
    if victims:
        msg += f" Ranks {victims} failed after it (lost their peer) — consequences, not causes."
    crash = run_rules.CRASH.finding(msg, ranks=culprits, nodes=sorted({label(r) for r in culprits}),
                                    evidence=[failures])
    return Verdict(ExitCode.FAULT, [crash], out.culprits, out.victims)


def _clock(t: float | None) -> str:
    return time.strftime("%H:%M:%S", time.localtime(t)) if t else "an unknown time"


def _store_said(error: str | None) -> str:
    """What the store's last error tells (as well as one node can tell)."""
    e = (error or "").lower()
    if any(w in e for w in ("refused", "reset", "broken pipe", "closed")):
        return ("its host answered but refused or reset the connection: ncclDoctor there is gone (killed, or it "
                "stopped), not the host nor the network")
    if "timed out" in e or "timeout" in e:
        return ("no answer at all: that host is down, or the network between it and this node is cut -- one node "
                "alone cannot tell a lost host from a cut link")
    return ("that host is down or its ncclDoctor was killed, or this node is cut off from it -- one node alone "
            "cannot tell which")


def node_lost_findings(out: Outcome, label: Label) -> Verdict:
    """A run ``check.failfast`` stopped because a whole node stopped beating (``check.heartbeat``), or
    because this node lost the control store: the lost node's ranks are the culprits (none of them could
    say why), every other rank a victim; no rank is called hung."""
    lost, store = out.evidence.get("node_lost") or [], out.evidence.get("store_lost") or []
    culprits = sorted(out.culprits)
    victims = sorted(r for r in out.ranks if r not in culprits)
    stop_s, limit = out.evidence.get("stopped_after_node_lost_s"), out.evidence.get("phase_deadline_s")
    where = f" while the run was in {out.phase!r}" if out.phase else ""
    parts, nodes = [], []
    for rec in lost:
        name = rec.get("node") or (label(rec["ranks"][0]) if rec.get("ranks") else "a node")
        nodes.append(name)
        role = "the reporting node, " if rec.get("reporting") else ""
        parts.append(f"{name} stopped answering at {_clock(rec.get('last_beat_wall'))} ({role}its "
                     f"{fmt_ranks(rec.get('ranks') or [])}): its ncclDoctor's beat through the control store "
                     f"did not change for {rec.get('silent_s', 0):.1f} s (deadline {rec.get('lost_after_s', 0):.0f} s) "
                     f"and it never said it had finished{where} -- its host is down, its ncclDoctor was killed with "
                     "its ranks, or the network between us is cut")
    for rec in store:
        host = rec.get("node")
        nodes.append(host or "the control store's host")
        on = f" on {host} (the reporting node)" if host else ""
        parts.append(f"the control store{on} has not answered this node for {rec.get('silent_s', 0):.1f} s "
                     f"(deadline {rec.get('lost_after_s', 0):.0f} s){where}: "
                     f"{_store_said(rec.get('error'))}"
                     + (f" (last error: {rec['error']})" if rec.get("error") else "")
                     + (f"; ranks {culprits} ran there or beyond it" if culprits else ""))
    msg = "; ".join(parts) + "."
    if victims:
        msg += (f" Ranks {victims} were waiting for it or lost it as a peer -- consequences, not causes; "
                "no rank hung.")
    if stop_s is not None:
        msg += (f" This node gave its verdict {stop_s:.1f} s after the last beat it saw"
                + (f", instead of waiting out the {limit:.0f} s {out.phase} deadline" if limit else "") + ".")
    finding = run_rules.NODE_LOST.finding(msg, ranks=culprits, nodes=sorted(set(nodes)), evidence=[*lost, *store])
    return Verdict(ExitCode.FAULT, [finding], culprits, victims)


def judge(out: Outcome, label: Label, inv: dict[int, dict], failures: dict[str, Any], sizes: list[int], warmup: int,
          run_record: dict[str, Any]) -> Verdict:
    """The verdict on a finished run; pure (``out`` is read, never changed)."""
    if out.status in ("ok", "interrupted"):
        code = ExitCode.OK if out.status == "ok" else ExitCode.INTERRUPTED
        return Verdict(code, [], out.culprits, out.victims)
    if out.evidence.get("node_lost") or out.evidence.get("store_lost"):
        return node_lost_findings(out, label)
    deviations = plan_deviations(out, sizes, warmup)
    if out.status == "hang":
        return hang_findings(out, label, inv, deviations, run_record)
    return crash_findings(out, label, inv, failures, deviations)
