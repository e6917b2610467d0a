"""Vectorised Monte Carlo evaluation with common random numbers (one demand matrix for all policies).

The horizon cost of a policy is estimated on `paths` independent demand paths; every policy sees the same
paths, so differences between policies are much less noisy than the costs themselves. Std is taken
across paths of the total horizon cost (the `Std[Cost(π)]` of the paper's objective).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from core.errors import SpecError
from solvers.inventory.demand import sample_demand
from solvers.inventory.period import period
from solvers.inventory.spec import InventoryProblem

Progress = Callable[[float, str], None]
MAX_CELLS = 50_000_000  # paths × periods of one simulation (a 400 MB int64 demand matrix)


class Policy(Protocol):
    """What the evaluator needs from a policy (see `policies.py`)."""

    @property
    def name(self) -> str: ...

    def orders(
        self, problem: InventoryProblem, t: int, on_hand: np.ndarray, pipeline: np.ndarray
    ) -> np.ndarray: ...


def check_simulation_size(problem: InventoryProblem, paths: int) -> None:
    """`SpecError` naming `paths`, `time_horizon` or `lead_time` when `paths × (T + L)` exceeds `MAX_CELLS`."""
    if paths < 1:
        raise SpecError("paths", f"need at least 1 simulation path, got {paths}")
    p = problem
    periods = p.time_horizon + p.lead_time
    if paths * periods > MAX_CELLS:
        field = "lead_time" if p.lead_time > p.time_horizon else "time_horizon"
        if 2 * periods <= MAX_CELLS:  # even two paths would fit: there are too many paths
            field = "paths"
        raise SpecError(
            field,
            f"{paths:,} paths × {periods:,} periods (horizon plus lead time) is too large to simulate "
            f"(limit {MAX_CELLS:,}); use fewer paths, a shorter time horizon or a shorter lead time",
        )


def demand_matrix(problem: InventoryProblem, paths: int, seed: int | None) -> np.ndarray:
    """A `(paths, T)` int64 demand matrix drawn from `default_rng(seed)`."""
    check_simulation_size(problem, paths)
    return sample_demand(problem.demand, np.random.default_rng(seed), (paths, problem.time_horizon))


def risk_objective(mean: float, std: float, risk_tolerance: float) -> float:
    """`L(π) = E[Cost] + exp(-λ)·Std[Cost]` (seed 000, eq. 1); λ = risk tolerance in [-10, 10]."""
    return mean + math.exp(-risk_tolerance) * std


@dataclass(frozen=True, eq=False)
class Trajectory:
    """Per-period records `(k paths, T)` of a few sample paths; `pipeline` is `(k, T, L)`.

    `on_hand` is at the start of the period (before receiving); `shortage` is the demand short this period
    (lost under lost sales, backordered under backlog)."""

    on_hand: np.ndarray
    pipeline: np.ndarray
    position: np.ndarray
    orders: np.ndarray
    demand: np.ndarray
    sales: np.ndarray
    shortage: np.ndarray
    cost: np.ndarray

    def as_dict(self, path: int = 0) -> dict[str, list]:
        """One path as JSON-able lists."""
        return {
            "period": list(range(self.on_hand.shape[1])),
            "on_hand": self.on_hand[path].tolist(),
            "pipeline": self.pipeline[path].tolist(),
            "position": self.position[path].tolist(),
            "orders": self.orders[path].tolist(),
            "demand": self.demand[path].tolist(),
            "sales": self.sales[path].tolist(),
            "shortage": self.shortage[path].tolist(),
            "cost": self.cost[path].tolist(),
        }


@dataclass(frozen=True, eq=False)
class PolicyEvaluation:
    """Monte Carlo statistics of one policy's total horizon cost."""

    policy: str
    paths: int
    mean: float
    std: float
    se: float
    ci95: tuple[float, float]
    fill_rate: float
    stockout_periods: float
    avg_on_hand: float
    orders_placed: float
    setup_cost: float
    holding_cost: float
    penalty_cost: float
    costs: np.ndarray = field(repr=False)
    trajectory: Trajectory | None = field(default=None, repr=False)

    def objective(self, risk_tolerance: float) -> float:
        return risk_objective(self.mean, self.std, risk_tolerance)

    def summary(self) -> dict[str, object]:
        """JSON-able statistics (no per-path arrays)."""
        return {
            "policy": self.policy,
            "paths": self.paths,
            "mean": self.mean,
            "std": self.std,
            "se": self.se,
            "ci95": list(self.ci95),
            "fill_rate": self.fill_rate,
            "stockout_periods": self.stockout_periods,
            "avg_on_hand": self.avg_on_hand,
            "orders_placed": self.orders_placed,
            "setup_cost": self.setup_cost,
            "holding_cost": self.holding_cost,
            "penalty_cost": self.penalty_cost,
        }


def _statistics(name: str, totals: dict[str, np.ndarray], demand_total: float, trajectory: Trajectory | None):
    costs = totals["cost"]
    n = len(costs)
    mean, std = float(costs.mean()), float(costs.std(ddof=1)) if n > 1 else 0.0
    se = std / math.sqrt(n)
    return PolicyEvaluation(
        policy=name,
        paths=n,
        mean=mean,
        std=std,
        se=se,
        ci95=(mean - 1.96 * se, mean + 1.96 * se),
        fill_rate=float(totals["sales"].sum() / demand_total) if demand_total > 0 else 1.0,
        stockout_periods=float(totals["stockouts"].mean()),
        avg_on_hand=float(totals["held"].mean()),
        orders_placed=float(totals["orders"].mean()),
        setup_cost=float(totals["setup"].mean()),
        holding_cost=float(totals["holding"].mean()),
        penalty_cost=float(totals["penalty"].mean()),
        costs=costs,
        trajectory=trajectory,
    )


def simulate_policy(
    problem: InventoryProblem, policy: Policy, demand: np.ndarray, record: int = 0
) -> PolicyEvaluation:
    """Run one policy on a given `(paths, T)` demand matrix; record the first `record` paths in full."""
    p = problem
    n, horizon = demand.shape
    if horizon != p.time_horizon:
        raise SpecError("demand", f"the demand matrix has {horizon} periods, the horizon is {p.time_horizon}")
    on_hand = np.full(n, p.initial_inventory, dtype=np.int64)
    pipe = np.zeros((n, p.lead_time), dtype=np.int64)
    zeros = np.zeros(n)
    tot = {
        k: zeros.copy()
        for k in ("cost", "sales", "stockouts", "held", "orders", "setup", "holding", "penalty")
    }
    k = min(record, n)
    rec = {
        key: np.zeros((k, horizon), dtype=np.int64)
        for key in ("on_hand", "position", "orders", "sales", "short")
    }
    rec_pipe = np.zeros((k, horizon, p.lead_time), dtype=np.int64)
    rec_cost = np.zeros((k, horizon))
    for t in range(horizon):
        if k:
            rec["on_hand"][:, t], rec["position"][:, t] = on_hand[:k], on_hand[:k] + pipe[:k].sum(axis=1)
            rec_pipe[:, t] = pipe[:k]
        out = period(p, on_hand, pipe, policy.orders(p, t, on_hand, pipe), demand[:, t], t)
        q, short = out.order, out.shortage
        tot["cost"] += out.cost
        tot["sales"] += out.sales
        tot["stockouts"] += short > 0
        tot["held"] += out.held / horizon
        tot["orders"] += q > 0
        tot["setup"] += out.setup_cost
        tot["holding"] += out.holding_cost
        tot["penalty"] += out.penalty_cost
        if k:
            rec["orders"][:, t], rec["sales"][:, t], rec["short"][:, t] = q[:k], out.sales[:k], short[:k]
            rec_cost[:, t] = out.cost[:k]
        on_hand, pipe = out.next_on_hand, out.next_pipeline
    trajectory = None
    if k:
        trajectory = Trajectory(
            on_hand=rec["on_hand"],
            pipeline=rec_pipe,
            position=rec["position"],
            orders=rec["orders"],
            demand=demand[:k].copy(),
            sales=rec["sales"],
            shortage=rec["short"],
            cost=rec_cost,
        )
    return _statistics(policy.name, tot, float(demand.sum()), trajectory)


def evaluate_policies(
    problem: InventoryProblem,
    policies: Sequence[Policy],
    paths: int = 1000,
    seed: int | None = 0,
    *,
    demand: np.ndarray | None = None,
    record: int = 0,
    progress: Progress | None = None,
) -> list[PolicyEvaluation]:
    """Evaluate several policies on the same demand paths (common random numbers)."""
    demand = demand_matrix(problem, paths, seed) if demand is None else demand
    out = []
    for i, policy in enumerate(policies):
        out.append(simulate_policy(problem, policy, demand, record))
        if progress:
            progress((i + 1) / len(policies), f"evaluated {policy.name}")
    return out


def evaluate_policy(
    problem: InventoryProblem, policy: Policy, paths: int = 1000, seed: int | None = 0, record: int = 0
) -> PolicyEvaluation:
    """Evaluate one policy on `paths` demand paths drawn with `seed`."""
    return evaluate_policies(problem, [policy], paths, seed, record=record)[0]
