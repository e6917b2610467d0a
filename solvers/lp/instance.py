"""Serial multi-echelon supply-chain configurations (OptiRepair Appendix A) and their generator (Table 11).

Echelon 1 is the retailer, echelon N the factory. Parameters are rounded to two decimals so that the
natural-language description lists exactly the numbers that sit in the LP.

Sampling choices the paper leaves open (documented in docs/lp_repair.md):
* holding costs h_n ~ U[1, 10] are sorted so that h_1 >= h_2 >= ... >= h_N (the cost-consistency check
  demands it); backorder costs b_n = h_n * r with r ~ U[max(2, 5/h_n), min(10, 50/h_n)], so that both
  b_n in [5, 50] and h:b in [1:2, 1:10] hold;
* capacitated (C_n ~ U[50, 500] for every echelon) or uncapacitated (no capacity rows), equal odds;
* step-change demand: change point uniform in [T/4, 3T/4], second level d̄ * U[0.5, 1.5];
  seasonal demand: amplitude A = d̄ * U[0.1, 0.5].
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

import numpy as np

from core.errors import SpecError

ECHELONS = (2, 3, 4, 5)
PERIODS = (12, 16, 20, 24)


class DemandPattern(StrEnum):
    STATIONARY = "stationary"
    STEP_CHANGE = "step-change"
    SEASONAL = "seasonal"


@dataclass(frozen=True)
class SupplyChain:
    """One serial supply chain: costs, capacities, lead times, initial stock and retailer demand per period."""

    holding: tuple[float, ...]
    backorder: tuple[float, ...]
    capacity: tuple[float, ...] | None  # None = uncapacitated (no capacity rows)
    lead_time: tuple[int, ...]
    initial_inventory: tuple[float, ...]
    demand: tuple[float, ...]
    pattern: DemandPattern = DemandPattern.STATIONARY

    def __post_init__(self) -> None:
        n = len(self.holding)
        if n < 1:
            raise SpecError("holding", "need at least one echelon")
        for name in ("backorder", "lead_time", "initial_inventory"):
            if len(getattr(self, name)) != n:
                raise SpecError(name, f"needs one value per echelon ({n}), got {len(getattr(self, name))}")
        if self.capacity is not None and len(self.capacity) != n:
            raise SpecError("capacity", f"needs one value per echelon ({n}) or none at all")
        if len(self.demand) < 1:
            raise SpecError("demand", "needs at least one period")
        for name in ("holding", "backorder", "initial_inventory", "demand"):
            if any(not math.isfinite(v) or v < 0 for v in getattr(self, name)):
                raise SpecError(name, "values must be finite and >= 0")
        if self.capacity is not None and any(not math.isfinite(c) or c <= 0 for c in self.capacity):
            raise SpecError("capacity", "capacities must be finite and > 0")
        if any(int(lead) != lead or lead < 0 for lead in self.lead_time):
            raise SpecError("lead_time", "lead times must be whole numbers of periods >= 0")

    @property
    def n_echelons(self) -> int:
        return len(self.holding)

    @property
    def n_periods(self) -> int:
        return len(self.demand)

    @property
    def mean_demand(self) -> float:
        return float(np.mean(self.demand))

    @property
    def capacitated(self) -> bool:
        return self.capacity is not None

    def to_dict(self) -> dict:
        return {
            "holding": list(self.holding),
            "backorder": list(self.backorder),
            "capacity": None if self.capacity is None else list(self.capacity),
            "lead_time": list(self.lead_time),
            "initial_inventory": list(self.initial_inventory),
            "demand": list(self.demand),
            "pattern": self.pattern.value,
        }

    @classmethod
    def from_dict(cls, data: dict) -> SupplyChain:
        try:
            return cls(
                holding=tuple(float(v) for v in data["holding"]),
                backorder=tuple(float(v) for v in data["backorder"]),
                capacity=None if data.get("capacity") is None else tuple(float(v) for v in data["capacity"]),
                lead_time=tuple(int(v) for v in data["lead_time"]),
                initial_inventory=tuple(float(v) for v in data["initial_inventory"]),
                demand=tuple(float(v) for v in data["demand"]),
                pattern=DemandPattern(data.get("pattern", "stationary")),
            )
        except KeyError as err:
            raise SpecError(str(err.args[0]), "missing from the supply-chain description") from err
        except (TypeError, ValueError) as err:
            raise SpecError("supply_chain", f"malformed supply-chain description: {err}") from err


def _r(value: float) -> float:
    return round(float(value), 2)


def sample_supply_chain(
    rng: np.random.Generator, *, n_echelons: int | None = None, n_periods: int | None = None
) -> SupplyChain:
    """Draw one configuration from Table 11's ranges (see the module docstring for the open choices)."""
    n = int(rng.choice(ECHELONS)) if n_echelons is None else n_echelons
    t_len = int(rng.choice(PERIODS)) if n_periods is None else n_periods
    if n < 1:
        raise SpecError("n_echelons", "must be >= 1")
    if t_len < 2:
        raise SpecError("n_periods", "must be >= 2")
    holding = sorted((_r(v) for v in rng.uniform(1.0, 10.0, n)), reverse=True)
    backorder = []
    for h in holding:
        ratio = rng.uniform(max(2.0, 5.0 / h), min(10.0, 50.0 / h))
        backorder.append(_r(min(50.0, max(5.0, h * ratio))))
    capacitated = bool(rng.random() < 0.5)
    capacity = tuple(_r(v) for v in rng.uniform(50.0, 500.0, n)) if capacitated else None
    lead = tuple(int(v) for v in rng.integers(1, 4, n))
    mean = float(rng.uniform(50.0, 200.0))
    initial = tuple(_r(v) for v in rng.uniform(0.0, 2.0 * mean, n))
    pattern = DemandPattern(rng.choice([p.value for p in DemandPattern]))
    periods = np.arange(1, t_len + 1)
    if pattern is DemandPattern.STATIONARY:
        demand = np.full(t_len, mean)
    elif pattern is DemandPattern.STEP_CHANGE:
        change = int(rng.integers(max(1, t_len // 4), max(2, 3 * t_len // 4) + 1))
        second = mean * rng.uniform(0.5, 1.5)
        demand = np.where(periods <= change, mean, second)
    else:
        amplitude = mean * rng.uniform(0.1, 0.5)
        demand = mean + amplitude * np.sin(2 * np.pi * periods / t_len)
    return SupplyChain(
        holding=tuple(holding),
        backorder=tuple(backorder),
        capacity=capacity,
        lead_time=lead,
        initial_inventory=initial,
        demand=tuple(_r(v) for v in demand),
        pattern=pattern,
    )
