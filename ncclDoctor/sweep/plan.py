"""Which configurations to measure, and which one to recommend (pure).

A configuration is ``num_workers`` x ``pin_memory`` x ``prefetch_factor`` x
``persistent_workers``. Two plans:

``grid``      every combination of the axes, lowest worker count first.
``adaptive``  measure ``num_workers=0`` once. There the main process loads every batch
              itself, so its data wait is the *worker time per batch* ``t_w`` and the
              rest of the step is the consumer time ``t_c``. One worker produces a batch
              per ``t_w``; to keep up with a step every ``t_c``, the loader needs about
              ``n* = ceil(t_w / t_c)`` workers (Plumber's one-stage model). Then confirm
              around ``n*`` (``next_adaptive``): down while fewer still keep up, up while
              more still gain. The other axes are measured at the pick only.

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


def next_adaptive(axes: Axes, n_star: int, tried: set[int], measured: dict[Config, float], shares: dict[Config, float],
                  margin: float, keep_up: float) -> int | None:
    """The next worker count to measure, or None once the knee is bracketed.

    Starts at the prediction ``n_star``. A configuration *keeps up* when its data wait
    is at most ``keep_up`` of its step (the DL001 stall threshold): a ratio measured
    inside one run, so a busy host moves it far less than it moves throughput.

    - ``n_star`` is 0 (no wait without workers): measure the next choice up, to show
      that workers buy nothing.
    - it keeps up: walk down while the choice below still keeps up (fewer may do);
    - it waits: walk up until a choice keeps up, or stops gaining more than ``margin``
      over the one below (more workers no longer help: CPU- or compute-bound).
    A configuration below a waiting one, or above one that keeps up, is never run."""
    ws = sorted(set(axes.workers) | {0})
    keeps = lambda n: shares.get(axes.base(n), 1.0) <= keep_up  # noqa: E731
    rate = lambda n: measured.get(axes.base(n), 0.0)  # noqa: E731
    start = nearest(ws, n_star)
    if start not in tried:
        return start
    if start == 0:
        up = [w for w in ws if w > 0]
        return up[0] if up and up[0] not in tried else None
    if keeps(start):
        for w in reversed([w for w in ws if w < start]):
            if w not in tried:
                return w
            if not keeps(w):
                return None
        return None
    prev = start
    for w in [w for w in ws if w > start]:
        if w not in tried:
            return w
        if keeps(w) or rate(w) <= (1 + margin) * rate(prev):
            return None
        prev = w
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
