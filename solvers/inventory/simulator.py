"""Seed 000 Appendix A as a Gymnasium-style environment, plus the one-period transition shared by all engines.

Conventions (every reported number depends on them):
- Periods t = 0..T-1. State: on-hand I and pipeline (x1..xL); x1 arrives this period, an order placed in
  period t arrives in period t + L (with L = 0 it arrives before this period's demand).
- Order of events: observe -> receive x1 -> order q -> demand D -> cost
  `H·1{q>0} + h·(I + x1 - D)+ + b·(D - I - x1)+` (with L = 0, x1 is this period's order q).
- Feasibility: `0 <= q <= max_order` and the inventory position after ordering `I + Σx + q <= max_inventory`;
  larger requests are truncated, never refused.
- Transitions: lost sale `I' = (I + x1 - D)+`; backlog `I' = I + x1 - D`; perishable lost sale `I' = 0`;
  perishable backlog `I' = min(I + x1 - D, 0)` (leftover stock is discarded at the end of the period).
- Start: I = `initial_inventory` (0 by default), empty pipeline. No terminal cost.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from core.errors import SpecError
from solvers.inventory.demand import sample_demand
from solvers.inventory.policies import truncate_orders
from solvers.inventory.spec import InventoryProblem


def next_on_hand(problem: InventoryProblem, available: np.ndarray, demand: np.ndarray) -> np.ndarray:
    """On-hand at the start of the next period from stock available this period and demand (Appendix A)."""
    left = available - demand
    if problem.lost_sales:
        return np.zeros_like(left) if problem.perishable else np.maximum(left, 0)
    return np.minimum(left, 0) if problem.perishable else left


class InventoryEnv:
    """Single-item periodic-review inventory system of seed 000 (Appendix A).

    - Observation: int64 array `[on_hand, t, x1, ..., xL]` (on-hand may be negative under backlog).
    - Action: an order quantity (int); it is truncated to `0..max_order` and to keep the inventory
      position at most `max_inventory`; `info["order"]` is the quantity actually placed.
    - Period: receive x1 -> place the order -> demand -> cost
      `H·1{q>0} + h·(I+x1-D)+ + b·(D-I-x1)+`; reward = -cost.
    - Transition: lost sale / backlog × perishable / non-perishable as in Appendix A.
    - Start: on-hand `initial_inventory` (or `options["on_hand"]`), pipeline zeros (or `options["pipeline"]`), t = 0.
    - End: `terminated` after T periods; never truncated. No terminal cost.
    - Randomness: the env owns a `numpy.random.Generator`, re-seeded by `reset(seed=...)`.
    """

    def __init__(self, problem: InventoryProblem) -> None:
        self.problem = problem
        self.rng = np.random.default_rng()
        self.t = 0
        self.on_hand = problem.initial_inventory
        self.pipeline = np.zeros(problem.lead_time, dtype=np.int64)

    def _obs(self) -> np.ndarray:
        return np.array([self.on_hand, self.t, *self.pipeline.tolist()], dtype=np.int64)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict]:
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        options = options or {}
        p = self.problem
        self.t = 0
        self.on_hand = int(options.get("on_hand", p.initial_inventory))
        pipe = np.asarray(options.get("pipeline", np.zeros(p.lead_time)), dtype=np.int64).reshape(-1)
        if len(pipe) != p.lead_time:
            raise SpecError("pipeline", f"must list {p.lead_time} pipeline orders, got {len(pipe)}")
        if (pipe < 0).any() or (pipe > p.max_order).any():
            raise SpecError("pipeline", f"pipeline orders must lie in 0..{p.max_order}")
        self.pipeline = pipe.copy()
        return self._obs(), {"inventory_position": self.on_hand + int(self.pipeline.sum())}

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict]:
        p = self.problem
        if self.t >= p.time_horizon:
            raise SpecError("action", "the episode has ended; call reset()")
        ip = self.on_hand + int(self.pipeline.sum())
        q = int(truncate_orders(p, np.array([int(action)]), np.array([ip]))[0])
        if p.lead_time == 0:
            arriving = q
        else:
            arriving = int(self.pipeline[0])
            self.pipeline = np.append(self.pipeline[1:], q)
        available = self.on_hand + arriving
        demand = int(sample_demand(p.demand, self.rng, 1)[0])
        held, short = max(available - demand, 0), max(demand - available, 0)
        setup = p.setup_cost * (q > 0)
        cost = setup + p.holding_cost * held + p.penalty_cost * short
        self.on_hand = int(next_on_hand(p, np.array([available]), np.array([demand]))[0])
        self.t += 1
        info = {
            "order": q,
            "arrived": arriving,
            "demand": demand,
            "sales": min(demand, max(available, 0)),
            "shortage": short,
            "setup_cost": setup,
            "holding_cost": p.holding_cost * held,
            "penalty_cost": p.penalty_cost * short,
            "cost": cost,
        }
        return self._obs(), -cost, self.t >= p.time_horizon, False, info
