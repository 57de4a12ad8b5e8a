"""The sweep's time budget, rank side (``ncclDoctor.check.budget`` documents the rule).

``size_budget(cfg, prev, size, now_wall)`` is the seconds one message size may take;
``agree(ratio)`` spreads the worst ratio of predicted time to budget over every rank
(one 1-element MAX all_reduce), so all ranks stop the sweep at the same size.
Imports torch and the standard library only, like the rest of ``probes``.
"""

from __future__ import annotations

from typing import Any


def size_budget(cfg: dict[str, Any], prev: tuple[int, float] | None, size: int, now_wall: float) -> float:
    """MARGIN x the previous size's seconds x the size ratio, within the time left and
    the one-size cap ``size_cap_s`` (at least ``floor_s`` while time is left); the first
    size gets the time left, within the cap."""
    left = min(max(cfg["until_wall"] - now_wall, 0.0), cfg.get("size_cap_s", float("inf")))
    if prev is None or prev[1] <= 0:
        return left
    scaled = cfg["margin"] * prev[1] * size / prev[0]
    return max(min(scaled, left), min(cfg["floor_s"], left))


def agree(ratio: float, device) -> float:
    """The largest ``ratio`` over all ranks."""
    import torch
    import torch.distributed as dist

    t = torch.tensor([ratio], dtype=torch.float64, device=device)
    dist.all_reduce(t, op=dist.ReduceOp.MAX)
    return float(t.item())
