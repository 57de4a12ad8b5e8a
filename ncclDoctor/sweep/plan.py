"""Which configurations to measure, and which one to recommend (pure).

A configuration is ``num_workers`` x ``pin_memory`` x ``prefetch_factor`` x
``persistent_workers``. Two plans:

``grid``      every combination of the axes, lowest worker count first.
``adaptive``  measure ``num_workers=0`` once. There the main process loads every batch
              itself, so its data wait is the *worker time per batch* ``t_w`` and the
              rest of the step is the consumer time ``t_c``. One worker produces a batch
              per ``t_w``; to keep up with a step every ``t_c``, the loader needs about
              ``n* = ceil(t_w / t_c)`` workers (Plumber's one-stage model). Then confirm
              the choices around ``n*`` (one below, ``n*``, one above) and keep climbing
              while the top one still gains more than the margin. The other axes are
              measured at the pick only.

Recommendation: the *smallest* ``num_workers`` whose throughput is within ``margin``
(5 %) of the best measured, or whose data wait is under ``margin`` of its step (it
cannot gain more than that from more workers; see ``recommend``): past the knee more
workers cost memory and CPU and buy nothing (and on a shared host they slow the ranks).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any, Iterable


@dataclass(frozen=True)
class Config:
    num_workers: int
    pin_memory: bool = False
    prefetch_factor: int | None = None  # None: torch's default (2 with workers)
    persistent_workers: bool = False

    @property
    def label(self) -> str:
        s = f"w{self.num_workers}-pin{int(self.pin_memory)}"
        if self.prefetch_factor is not None:
            s += f"-pf{self.prefetch_factor}"
        if self.persistent_workers:
            s += "-persist"
        return s

    def trainer_args(self) -> list[str]:
        a = [f"--num-workers={self.num_workers}"]
        if self.pin_memory:
            a.append("--pin-memory")
        if self.num_workers > 0 and self.prefetch_factor is not None:
            a.append(f"--prefetch-factor={self.prefetch_factor}")
        if self.num_workers > 0 and self.persistent_workers:
            a.append("--persistent-workers")
        return a

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "label": self.label}


@dataclass(frozen=True)
class Axes:
    workers: tuple[int, ...]
    pin_memory: tuple[bool, ...] = (False,)
    prefetch_factor: tuple[int | None, ...] = (None,)
    persistent_workers: tuple[bool, ...] = (False,)

    def base(self, n: int) -> Config:
        """A config at ``n`` workers with every other axis at its first value."""
        return Config(n, self.pin_memory[0], self.prefetch_factor[0], self.persistent_workers[0])


def grid(axes: Axes) -> list[Config]:
    out = []
    for n in axes.workers:
        for pin in axes.pin_memory:
            for pf in axes.prefetch_factor if n > 0 else (None,):
                for pers in axes.persistent_workers if n > 0 else (False,):
                    c = Config(n, pin, pf, pers)
                    if c not in out:
                        out.append(c)
    return out


def predict_workers(t_w_s: float, t_c_s: float) -> int:
    """Workers needed so the loader keeps up: ceil(worker time per batch / step time)."""
    if t_w_s <= 0:
        return 0
    return max(1, math.ceil(t_w_s / max(t_c_s, 1e-6) - 0.05))  # 5% slack: 2.02 means 2


def nearest(choices: Iterable[int], n: int) -> int:
    return min(choices, key=lambda c: (abs(c - n), c))


def around(choices: tuple[int, ...], n: int) -> list[int]:
    """The choice nearest ``n`` and its neighbours in the sorted choices."""
    ordered = sorted(choices)
    i = ordered.index(nearest(ordered, n))
    return ordered[max(0, i - 1): i + 2]


def best(measured: dict[Config, float]) -> float:
    return max(measured.values(), default=0.0)


def recommend(measured: dict[Config, float], margin: float, shares: dict[Config, float] | None = None) -> Config | None:
    """Smallest worker count (then cheapest other settings) that is good enough: within
    ``margin`` of the best throughput, *or* waiting for data less than ``margin`` of its
    step time. The second test is noise-proof (a ratio inside one run): a configuration
    that waits a share ``s`` of the step can gain at most ``s / (1 - s)`` from more
    workers, whatever another run on a busy host happened to measure."""
    top = best(measured)
    if top <= 0:
        return None
    shares = shares or {}
    ok = [c for c, v in measured.items() if v >= (1 - margin) * top or shares.get(c, 1.0) <= margin]
    cost = lambda c: (c.num_workers, c.pin_memory, c.persistent_workers, c.prefetch_factor or 0)  # noqa: E731
    return min(ok, key=cost)


def next_up(choices: tuple[int, ...], measured: dict[Config, float], axes: Axes, margin: float,
            shares: dict[Config, float] | None = None) -> Config | None:
    """Adaptive climb: if the highest measured worker count still waits for data and is
    the best by more than the margin over the one below it, the knee is further up:
    measure the next choice."""
    base = {c.num_workers: v for c, v in measured.items() if c == axes.base(c.num_workers)}
    if not base:
        return None
    top_n = max(base)
    higher = [c for c in sorted(choices) if c > top_n]
    lower = [n for n in base if n < top_n]
    if not higher or not lower or (shares or {}).get(axes.base(top_n), 1.0) <= margin:
        return None
    below = base[max(lower)]
    if base[top_n] >= max(base.values()) and base[top_n] > (1 + margin) * below:
        return axes.base(higher[0])
    return None


def variants(axes: Axes, n: int) -> list[Config]:
    """At the pick: each non-default value of the other axes, one at a time."""
    if n == 0:
        return [Config(0, pin) for pin in axes.pin_memory[1:]]
    base = axes.base(n)
    out = [Config(n, pin, base.prefetch_factor, base.persistent_workers) for pin in axes.pin_memory[1:]]
    out += [Config(n, base.pin_memory, pf, base.persistent_workers) for pf in axes.prefetch_factor[1:]]
    out += [Config(n, base.pin_memory, base.prefetch_factor, pers) for pers in axes.persistent_workers[1:]]
    return out
