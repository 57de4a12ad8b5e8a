"""Time budgets for ``ncclDoctor check``: bounded wall time, and slow told apart from hung.

Whole command: ``--max-seconds`` (default ``DEFAULT_MAX_SECONDS``). The probe's sweep
gets an absolute end (``probe_budget``: the command's start + max-seconds - ``RESERVE_S``
for the last phase and the report), and each message size a budget of its own::

    budget(S) = min(MARGIN x time(previous size) x S / previous size,  time left,
                    SIZE_SHARE x max-seconds)
                (at least FLOOR_S; the first size gets the time left, within the cap)

The cap (15 s by default) is what ends the sweep on a link that is slow at every size:
its sizes each take about size-ratio x the last, well inside MARGIN, so without it only
the end of the budget would stop them -- 90 s into a 2-node check over a 20 Mbit/s link,
where nothing can be named (one pair) and the sweep itself is the evidence. No size of a
healthy sweep comes near it: gloo's 16 MiB on a loaded 2-core host takes ~2 s for all
its ops, nccl's 128 MiB on a 10 GbE socket path ~6 s.

The ranks decide together (``probes.worker``): after the first collective of a size,
each rank predicts the size's whole time (that op x the ops still to run) and a 1-element
MAX all_reduce spreads the worst ratio of prediction to budget; above 1, every rank stops
the sweep there. The table keeps the sizes that ran and says ``stopped at S: took T,
budget B``; the finding is RUN008 (slow: bytes kept moving), exit 1 -- never a missed
deadline that reads as a hang.

Hung is called from evidence (``no_progress``, a supervisor stall policy): once every
rank has passed ``smoke`` (the first collective: NCCL connects its communicator there,
which may take long on a large cluster), any new event of any rank (a phase change, a mark, a tick the
probe sends at most every second while collectives complete) is progress. When nothing
has moved for ``max(HANG_FLOOR_S, HANG_FACTOR x the longest quiet spell seen so far)``,
the job is hung: the supervisor blames the ranks that are behind (or issued fewer
collectives) -- RUN003, exit 4. The fixed phase deadlines stay as the outer bound.
"""

from __future__ import annotations

from typing import Any, Callable

from ncclDoctor.launch.supervisor import Stall, Supervisor
from probes.budget import size_budget  # noqa: F401  (the rule, rank side)

DEFAULT_MAX_SECONDS = 120.0
RESERVE_S = 15.0  # after the sweep: the done phase, teardown, the report
MARGIN = 4.0
FLOOR_S = 2.0
SIZE_SHARE = 1 / 8  # no one message size may take more than this share of --max-seconds
HANG_FLOOR_S = 15.0
HANG_FACTOR = 10.0
GATES = ("smoke", "init")  # the evidence rule applies once every rank has left the first of these it runs

Policy = Callable[[Supervisor, float], "Stall | None"]


def probe_budget(max_seconds: float, started_wall: float) -> dict[str, Any]:
    """The probe config's ``budget``: an absolute end (wall clock, shared by the nodes'
    clocks to within NTP) and the per-size rule's constants."""
    return {"until_wall": started_wall + max_seconds - RESERVE_S, "margin": MARGIN, "floor_s": FLOOR_S,
            "size_cap_s": SIZE_SHARE * max_seconds, "max_seconds": max_seconds}


def no_progress(base: Policy, floor_s: float = HANG_FLOOR_S, factor: float = HANG_FACTOR) -> Policy:
    """A stall policy: ``base`` first, then 'nothing moved for far longer than ever'."""
    state: dict[str, Any] = {"mark": None, "since": None, "longest": 0.0}

    def stall(sup: Supervisor, now: float) -> Stall | None:
        found = base(sup, now)
        if found:
            return found
        gate = next((ph for ph in GATES if ph in sup.phases), None)
        if gate is None or not all(gate in s.left for s in sup.ranks.values()):
            return None  # launch, init and the first collective (NCCL connects there) keep their deadlines
        mark = tuple((s.phase, s.state, s.seq, len(s.marks)) for s in sup.ranks.values())
        if mark != state["mark"]:
            if state["since"] is not None:
                state["longest"] = max(state["longest"], now - state["since"])
            state["mark"], state["since"] = mark, now
            return None
        limit = max(floor_s, factor * state["longest"])
        if now - state["since"] <= limit:
            return None
        phase = _current_phase(sup)
        sup.quiet = {"quiet_s": round(now - state["since"], 1), "longest_step_s": round(state["longest"], 2),
                     "limit_s": round(limit, 1)}
        return Stall(phase, limit, state["since"])

    return stall


def _current_phase(sup: Supervisor) -> str:
    """The earliest phase a rank has entered and not left: where the job is stuck."""
    for ph in sup.phases:
        if any(ph not in s.left for s in sup.ranks.values()) and any(ph in s.entered for s in sup.ranks.values()):
            return ph
    return next((ph for ph in sup.phases if any(ph not in s.left for s in sup.ranks.values())), sup.phases[-1])


def stall_reason(sup: Supervisor) -> dict[str, Any] | None:
    return getattr(sup, "quiet", None)

