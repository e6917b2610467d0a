"""The one definition of an inventory period (seed 000, Appendix A): every engine's numbers depend on it.

`period` is used as is by the environment (`env.py`), the Monte Carlo evaluator (`montecarlo.py`) and the DQN
(`dqn.py`). The two fast paths keep their own specialised arithmetic and are pinned to `period` by property
tests over random states, orders and demands for all four transition models and lead times 0..3
(`tests/solvers/inventory/test_inventory_period.py`): the (s,S) grid kernel (`search._chunk`, small-integer
arrays updated in place) and the exact DP (`dp._Model`, an expectation over the demand pmf).

Conventions:
- Periods t = 0..T-1. State: on-hand I (negative under backlog) and pipeline (x1..xL); x1 arrives this
  period, an order placed in period t arrives in period t + L (with L = 0 it arrives before this period's
  demand). Inventory position IP = I + x1 + ... + xL.
- Order of events: observe -> receive x1 -> place q -> demand D -> cost
  `K·1{q>0} + h·(I + x1 - D)+ + b·(D - I - x1)+` (with L = 0, x1 is this period's order q).
- Truncation (`truncate_orders`): a requested order is clipped to `0 <= q <= max_order` and to
  `counted + q <= max_inventory`; larger requests are truncated, never refused. What the capacity counts is
  the problem's `capacity_basis` (`counted_stock`): the inventory position IP (default; on-hand then never
  exceeds the capacity) or, Appendix A.1's reading, the on-hand stock after this period's delivery `I + x1`
  (with L = 0 the on-hand I); both are the same rule for L <= 1.
- Cutoff rule (`cut_off`): an order placed in period t with t + L > T - 1 would arrive after the horizon,
  so it could only cost the setup. Policies built with `cutoff=True` (and the DQN's action mask) order
  nothing then; the environment itself executes any order it is given (`period(..., cutoff=False)`).
- Transitions (`next_on_hand`): lost sale `I' = (I + x1 - D)+`; backlog `I' = I + x1 - D`; perishable lost
  sale `I' = 0`; perishable backlog `I' = min(I + x1 - D, 0)` (leftover stock is discarded at the end of the
  period, backorders are kept).
- Sales are the units of this period's demand served, `min(D, (I + x1)+)`; shortage `(D - I - x1)+` is lost
  (lost sales) or owed (backlog) and charged b per unit per period it stays short.
- Start: I = `initial_inventory` (0 by default), empty pipeline. No terminal cost.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solvers.inventory.spec import CapacityBasis, InventoryProblem


def counted_stock(problem: InventoryProblem, on_hand: np.ndarray, pipeline: np.ndarray) -> np.ndarray:
    """The stock the capacity counts when ordering from state `(on_hand, pipeline)` (shapes `(n,)`, `(n, L)`):
    the inventory position, or on the on-hand basis the on-hand after this period's delivery x1."""
    on_hand = np.asarray(on_hand, dtype=np.int64)
    pipeline = np.asarray(pipeline, dtype=np.int64)
    if problem.lead_time == 0:
        return on_hand
    if problem.capacity_basis is CapacityBasis.ON_HAND:
        return on_hand + pipeline[..., 0]
    return on_hand + pipeline.sum(axis=-1)


def truncate_orders(problem: InventoryProblem, q: np.ndarray, counted: np.ndarray) -> np.ndarray:
    """Clip desired orders to `0 <= q <= max_order` and `counted + q <= max_inventory` (`counted_stock`)."""
    room = np.maximum(problem.max_inventory - counted, 0)
    return np.clip(q, 0, np.minimum(problem.max_order, room)).astype(np.int64)


def cut_off(problem: InventoryProblem, t: int | np.ndarray) -> bool | np.ndarray:
    """True when an order placed in period t (0-based) would arrive after the last period (elementwise)."""
    return t + problem.lead_time > problem.time_horizon - 1


def next_on_hand(problem: InventoryProblem, available: np.ndarray, demand: np.ndarray) -> np.ndarray:
    """On-hand at the start of the next period from stock available this period and demand (the four models)."""
    left = available - demand
    if problem.lost_sales:
        return np.zeros_like(left) if problem.perishable else np.maximum(left, 0)
    return np.minimum(left, 0) if problem.perishable else left


@dataclass(frozen=True, eq=False)
class PeriodOutcome:
    """One period on one or many paths (arrays of the paths' shape; `next_pipeline` adds the L axis)."""

    order: np.ndarray  # placed, after truncation (and the cutoff when asked)
    arrived: np.ndarray  # x1 (the order itself when L = 0)
    available: np.ndarray  # I + x1
    sales: np.ndarray
    shortage: np.ndarray
    held: np.ndarray  # (I + x1 - D)+, charged h per unit (then discarded when perishable)
    setup_cost: np.ndarray
    holding_cost: np.ndarray
    penalty_cost: np.ndarray
    cost: np.ndarray
    next_on_hand: np.ndarray
    next_pipeline: np.ndarray


def period(
    problem: InventoryProblem,
    on_hand: np.ndarray,
    pipeline: np.ndarray,
    order: np.ndarray,
    demand: np.ndarray,
    t: int = 0,
    *,
    cutoff: bool = False,
) -> PeriodOutcome:
    """One period from state `(on_hand, pipeline)` (shapes `(n,)`, `(n, L)`) with requested `order` and `demand`.

    The order is truncated (and zeroed when `cutoff` and `cut_off(problem, t)`), then the events run in the
    order of the module docstring."""
    p = problem
    on_hand = np.asarray(on_hand, dtype=np.int64)
    pipeline = np.asarray(pipeline, dtype=np.int64).reshape(on_hand.shape + (p.lead_time,))
    demand = np.asarray(demand, dtype=np.int64)
    order = np.asarray(order, dtype=np.int64)
    if order.shape != on_hand.shape:  # a scalar order for every path (broadcasting costs ~10 µs per call)
        order = np.broadcast_to(order, on_hand.shape)
    q = truncate_orders(p, order, counted_stock(p, on_hand, pipeline))
    if cutoff and cut_off(p, t):
        q = np.zeros_like(q)
    if p.lead_time == 0:
        arrived, next_pipeline = q, pipeline  # (n, 0): nothing to shift
    else:
        arrived = pipeline[..., 0]
        next_pipeline = np.concatenate([pipeline[..., 1:], q[..., None]], axis=-1)
    available = on_hand + arrived
    held = np.maximum(available - demand, 0)
    short = np.maximum(demand - available, 0)
    setup = p.setup_cost * (q > 0)
    holding = p.holding_cost * held
    penalty = p.penalty_cost * short
    return PeriodOutcome(
        order=q,
        arrived=arrived,
        available=available,
        sales=np.minimum(demand, np.maximum(available, 0)),
        shortage=short,
        held=held,
        setup_cost=setup,
        holding_cost=holding,
        penalty_cost=penalty,
        cost=setup + holding + penalty,
        next_on_hand=next_on_hand(p, available, demand),
        next_pipeline=next_pipeline,
    )
