"""Seed 000's inventory system as a Gymnasium environment, `orca/InventoryControl-v0`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from core.errors import SpecError
from solvers.inventory.demand import sample_demand
from solvers.inventory.distribution import MAX_UNITS
from solvers.inventory.period import period
from solvers.inventory.spec import InventoryProblem, problem_from_table

DEFAULT_TABLE = {
    "time_horizon": "30",
    "demand_type": "random",
    "demand_distribution": "poisson(8)",
    "perishability": "false",
    "state_transition_model": "lost_sale",
    "holding_cost": "0.5",
    "penalty_cost": "2.83",
    "setup_cost": "3",
    "lead_time": "1",
    "max_inventory": "40",
    "max_order": "20",
    "risk_tolerance": "0",
}
"""The seed-000 anchor instance (Appendix A), the environment's default."""


TOTALS = ("setup_cost", "holding_cost", "penalty_cost", "demand", "sales", "held", "stockout_periods",
          "orders_placed")  # fmt: skip


class InventoryControlEnv(gymnasium.Env):
    """Single-item periodic-review inventory system of seed 000 (Appendix A).

    - **Observation**: int64 array `[on_hand, t, x1, ..., xL]` (on-hand is negative under backlog; x1 arrives
      this period).
    - **Action**: an order quantity (`Discrete(max_order + 1)`; any int is accepted). It is truncated to
      `0..max_order` and so that the stock the capacity counts (`problem.capacity_basis`: the inventory
      position by default, or on-hand after this period's delivery) plus the order stays at most
      `max_inventory`; `info["order"]` is the quantity actually placed.
    - **Period**: receive x1 -> place the order (with L = 0 it arrives at once) -> demand D -> cost
      `K·1{q>0} + h·(I + x1 - D)+ + b·(D - I - x1)+`; reward = -cost.
    - **Transition**: lost sale / backlog × perishable / non-perishable; the whole period (truncation, event
      order, transition, cost) is `solvers.inventory.period.period`, the definition every engine shares.
    - **Start**: on-hand `initial_inventory` (or `options["on_hand"]`), pipeline zeros (or
      `options["pipeline"]`), t = 0.
    - **End**: `terminated` after T periods; never truncated. No terminal cost.
    - **Episode metrics** (`episode_metrics()`): total cost and its setup/holding/penalty parts, fill rate,
      stockout periods, average on-hand, orders placed.
    - **Randomness**: demand comes from the environment's own generator (`self.np_random`), re-seeded by
      `reset(seed=...)`.

    Build it from an `InventoryProblem` or from the 12-row parameter table (`table=`, the JSON-able form
    experiment specs use); without either it is the seed-000 anchor instance.
    """

    metadata = {"render_modes": []}

    def __init__(
        self, problem: InventoryProblem | None = None, table: Mapping[str, Any] | None = None
    ) -> None:
        if problem is not None and table is not None:
            raise SpecError("table", "give a problem or a parameter table, not both")
        if problem is None:
            problem = problem_from_table({k: str(v) for k, v in (table or DEFAULT_TABLE).items()})
        self.problem = problem
        p = problem
        low_on_hand = 0 if p.lost_sales else -p.time_horizon * MAX_UNITS  # backlog: unmet demand piles up
        low = np.array([low_on_hand, 0] + [0] * p.lead_time, dtype=np.int64)
        high = np.array([p.max_on_hand, p.time_horizon] + [p.max_order] * p.lead_time, dtype=np.int64)
        self.observation_space = spaces.Box(low, high, dtype=np.int64)
        self.action_space = spaces.Discrete(p.max_order + 1)
        self.t = 0
        self.on_hand = p.initial_inventory
        self.pipeline = np.zeros(p.lead_time, dtype=np.int64)
        self.total_cost = 0.0
        self.totals = dict.fromkeys(TOTALS, 0.0)

    def _obs(self) -> np.ndarray:
        return np.array([self.on_hand, self.t, *self.pipeline.tolist()], dtype=np.int64)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        options = options or {}
        p = self.problem
        self.t = 0
        self.total_cost = 0.0
        self.totals = dict.fromkeys(TOTALS, 0.0)
        self.on_hand = int(options.get("on_hand", p.initial_inventory))
        pipe = np.asarray(options.get("pipeline", np.zeros(p.lead_time)), dtype=np.int64).reshape(-1)
        if len(pipe) != p.lead_time:
            raise SpecError("pipeline", f"must list {p.lead_time} pipeline orders, got {len(pipe)}")
        if (pipe < 0).any() or (pipe > p.max_order).any():
            raise SpecError("pipeline", f"pipeline orders must lie in 0..{p.max_order}")
        self.pipeline = pipe.copy()
        return self._obs(), {"inventory_position": self.on_hand + int(self.pipeline.sum())}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        p = self.problem
        if self.t >= p.time_horizon:
            raise SpecError("action", "the episode has ended; call reset()")
        try:
            wanted = int(np.asarray(action).reshape(-1)[0])
        except (TypeError, ValueError, IndexError) as err:
            raise SpecError("action", f"must be a whole order quantity, got {action!r}") from err
        demand = sample_demand(p.demand, self.np_random, 1)
        out = period(p, np.array([self.on_hand]), self.pipeline[None, :], np.array([wanted]), demand, self.t)
        cost = float(out.cost[0])
        self.on_hand = int(out.next_on_hand[0])
        self.pipeline = out.next_pipeline[0]
        self.t += 1
        self.total_cost += cost
        for key, value in (
            ("setup_cost", out.setup_cost),
            ("holding_cost", out.holding_cost),
            ("penalty_cost", out.penalty_cost),
            ("demand", demand),
            ("sales", out.sales),
            ("held", out.held),
            ("stockout_periods", out.shortage > 0),
            ("orders_placed", out.order > 0),
        ):
            self.totals[key] += float(value[0])
        info = {
            "order": int(out.order[0]),
            "arrived": int(out.arrived[0]),
            "demand": int(demand[0]),
            "sales": int(out.sales[0]),
            "shortage": int(out.shortage[0]),
            "setup_cost": float(out.setup_cost[0]),
            "holding_cost": float(out.holding_cost[0]),
            "penalty_cost": float(out.penalty_cost[0]),
            "cost": cost,
        }
        return self._obs(), -cost, self.t >= p.time_horizon, False, info

    def episode_metrics(self) -> dict[str, float]:
        """The episode so far: total cost and its three parts, fill rate (units sold / units demanded),
        stockout periods, average on-hand after demand and orders placed (`PolicyEvaluation`'s definitions)."""
        tot = self.totals
        return {
            "total_cost": self.total_cost,
            "setup_cost": tot["setup_cost"],
            "holding_cost": tot["holding_cost"],
            "penalty_cost": tot["penalty_cost"],
            "fill_rate": tot["sales"] / tot["demand"] if tot["demand"] > 0 else 1.0,
            "stockout_periods": tot["stockout_periods"],
            "avg_on_hand": tot["held"] / self.t if self.t else 0.0,
            "orders_placed": tot["orders_placed"],
        }
