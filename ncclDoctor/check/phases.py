"""The probe's phases and their deadlines: the one list (``probes.worker`` runs the
phases it is given in its config, the supervisor watches the same tuple).

``structure`` runs only when there is more than one node, and then before the sweep
(``for_plan``: the quick p2p localization first, issue 15). The sweep is
one phase per collective of ``--op``, named by the collective (``for_plan``); every one
of them has the all_reduce sweep's deadline unless ``--timeout`` sets them all.

``launch`` is not a probe phase: it is the time from torchrun's start until every rank
has announced itself (every node's torchrun started and joined the rendezvous). 90 s by
default, ``max(--timeout, 60)`` with ``--timeout``, ``--launch-timeout`` whatever
``--timeout`` says. Only ``--launch-timeout`` also sets what waits for other nodes outside
the supervisor: a node's wait for the reporting node's control store (``control_wait_s``)
and torchrun's rendezvous timeout (``rendezvous_join_s``, only ever longer: later than the
launch deadline, so that a long one is not cut short by torchrun).
"""

from __future__ import annotations

PHASES = ("init", "inventory", "smoke", "all_reduce", "structure", "done")
DEFAULT_DEADLINES_S = {
    "launch": 90.0, "init": 60.0, "inventory": 20.0, "smoke": 30.0, "all_reduce": 180.0, "structure": 120.0,
    "done": 20.0,
}
PG_TIMEOUT_FLOOR_S = 180.0
PG_TIMEOUT_MARGIN_S = 30.0
JOIN_TIMEOUT_S = 60.0  # torchrun's rendezvous join_timeout (launch.torchrun.LaunchSpec's default)
CONTROL_WAIT_S = 60.0  # a node's wait for the reporting node's control store, at least (without --launch-timeout)


def for_nodes(nnodes: int) -> tuple[str, ...]:
    return for_plan(nnodes)


def for_plan(nnodes: int, ops: tuple[str, ...] = ("all_reduce",)) -> tuple[str, ...]:
    """The phases in order: init, inventory, smoke, [structure], one per collective, done.
    With several nodes the structure phase (the quick p2p localization) runs before the
    whole-job sweep, which it may skip (``probes.structure``)."""
    head = ("init", "inventory", "smoke", "structure") if nnodes > 1 else ("init", "inventory", "smoke")
    return (*head, *ops, "done")


def sweep_deadlines(ops: tuple[str, ...]) -> dict[str, float]:
    return {op: DEFAULT_DEADLINES_S["all_reduce"] for op in ops}


def deadlines(overrides: dict[str, float]) -> dict[str, float]:
    return {**DEFAULT_DEADLINES_S, **overrides}


def pg_timeout_s(overrides: dict[str, float]) -> float:
    """The ranks' own collective timeout: later than any deadline, so the supervisor
    decides first (and gathers evidence) rather than torch's watchdog."""
    return max([*overrides.values(), PG_TIMEOUT_FLOOR_S]) + PG_TIMEOUT_MARGIN_S


def rendezvous_join_s(launch_timeout: float | None) -> float:
    """torchrun's ``join_timeout`` (and c10d ``read_timeout``): 60 s, or later than an explicit
    ``--launch-timeout`` so that the supervisor, not torchrun, decides that a node never came."""
    if launch_timeout is None:
        return JOIN_TIMEOUT_S
    return max(JOIN_TIMEOUT_S, launch_timeout + PG_TIMEOUT_MARGIN_S)


def control_wait_s(overrides: dict[str, float], launch_timeout: float | None) -> float:
    """How long a non-reporting node waits for the reporting node's control store before
    it gives up (RUN001, exit 3): ``--launch-timeout`` (the reporting node has that long to
    start), else ``max(60, init deadline)`` as before the option."""
    if launch_timeout is not None:
        return launch_timeout
    return max(CONTROL_WAIT_S, overrides.get("init", CONTROL_WAIT_S))
