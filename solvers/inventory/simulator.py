"""The one-period transition of seed 000 Appendix A, shared by every engine (environment, Monte Carlo, DQN).

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

import numpy as np

from solvers.inventory.spec import InventoryProblem


def next_on_hand(problem: InventoryProblem, available: np.ndarray, demand: np.ndarray) -> np.ndarray:
    """On-hand at the start of the next period from stock available this period and demand (Appendix A)."""
    left = available - demand
    if problem.lost_sales:
        return np.zeros_like(left) if problem.perishable else np.maximum(left, 0)
    return np.minimum(left, 0) if problem.perishable else left
