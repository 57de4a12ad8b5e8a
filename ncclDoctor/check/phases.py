"""The probe's phases and their deadlines: the one list (``probes.worker`` runs the
phases it is given in its config, the supervisor watches the same tuple).

``structure`` runs only when there is more than one node, and then before the sweep
(``for_plan``: the quick p2p localization first, issue 15). The sweep is
one phase per collective of ``--op``, named by the collective (``for_plan``); every one
of them has the all_reduce sweep's deadline unless ``--timeout`` sets them all.
"""

from __future__ import annotations

PHASES = ("init", "inventory", "smoke", "all_reduce", "structure", "done")
DEFAULT_DEADLINES_S = {
    "launch": 90.0, "init": 60.0, "inventory": 20.0, "smoke": 30.0, "all_reduce": 180.0, "structure": 120.0,
    "done": 20.0,
}
PG_TIMEOUT_FLOOR_S = 180.0
PG_TIMEOUT_MARGIN_S = 30.0


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
