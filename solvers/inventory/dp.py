"""Exact finite-horizon dynamic programming over (on-hand, pipeline) — the optimum every heuristic is measured against.

Backward recursion on the Appendix A model (same conventions as `simulator.py`):
`V_t(I, x1..xL) = min_q  H·1{q>0} + C(I + x1) + E_D V_{t+1}(f(I + x1, D), x2..xL, q)`, `V_T = 0`, where
`C(a) = E[h(a - D)+ + b(D - a)+]` and q ranges over the feasible orders. The expectation is one matrix
product `Ptr @ V_{t+1}` with `Ptr[a, i'] = P(f(a, D) = i')`, vectorised over the whole state grid.
On-hand spans `0..max_inventory` for lost sales; under backlog it spans `-T·d_max..max_inventory`
(no path can go lower, so the result stays exact). Demand pmf tails below 1e-12 are truncated.
The same recursion with a fixed policy's action gives the exact expected cost of any policy.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from core.errors import SolverError
from solvers.inventory.demand import demand_pmf
from solvers.inventory.montecarlo import Policy
from solvers.inventory.policies import TablePolicy, truncate_orders
from solvers.inventory.spec import InventoryProblem

MAX_WORK = 60_000_000  # state-action pairs per period; about 2-4 s on this machine


@dataclass(frozen=True, eq=False)
class DPResult:
    """Exact optimum from the start state (`initial_inventory`, empty pipeline) and the optimal policy."""

    optimal_cost: float
    policy: TablePolicy = field(repr=False)
    states: int
    seconds: float

    def summary(self) -> dict[str, object]:
        return {"optimal_cost": self.optimal_cost, "states": self.states, "seconds": self.seconds}


class _Model:
    """State grid, one-period cost C(a) and transition matrix Ptr for a problem."""

    def __init__(self, problem: InventoryProblem) -> None:
        p = problem
        self.p = p
        values, probs = demand_pmf(p.demand)
        d_max = int(values[-1])
        self.lo = 0 if p.lost_sales else -p.time_horizon * d_max
        self.n_on_hand = p.max_inventory - self.lo + 1
        self.n_q = p.max_order + 1
        self.states = self.n_on_hand * self.n_q**p.lead_time
        self.work = self.states * self.n_q
        if self.work > MAX_WORK:
            raise SolverError(
                f"the exact DP is too large for this instance: {self.states:,} states × {self.n_q} orders "
                f"= {self.work:,} state-action pairs per period (limit {MAX_WORK:,}); "
                "use the (s,S) search or DQN instead (smaller lead time, max inventory or max order help)"
            )
        a = np.arange(self.lo, p.max_inventory + 1)
        short = np.maximum(values[None, :] - a[:, None], 0)
        over = np.maximum(a[:, None] - values[None, :], 0)
        self.cost = (p.holding_cost * over + p.penalty_cost * short) @ probs
        left = a[:, None] - values[None, :]
        if p.lost_sales:
            nxt = np.zeros_like(left) if p.perishable else np.maximum(left, 0)
        else:
            nxt = np.minimum(left, 0) if p.perishable else left
        nxt = np.clip(nxt, self.lo, p.max_inventory) - self.lo
        self.ptr = np.zeros((self.n_on_hand, self.n_on_hand))
        np.add.at(
            self.ptr,
            (np.repeat(np.arange(self.n_on_hand), len(values)), nxt.ravel()),
            np.tile(probs, self.n_on_hand),
        )
        grids = np.meshgrid(
            np.arange(self.lo, p.max_inventory + 1), *[np.arange(self.n_q)] * p.lead_time, indexing="ij"
        )
        self.on_hand = grids[0]
        self.pipeline = (
            np.stack(grids[1:], axis=-1) if p.lead_time else np.zeros(grids[0].shape + (0,), dtype=int)
        )
        self.position = self.on_hand + self.pipeline.sum(axis=-1)
        orders = np.arange(self.n_q)
        self.feasible = self.position[..., None] + orders <= p.max_inventory
        self.setup = p.setup_cost * (orders > 0)

    def available_index(self) -> np.ndarray:
        """Index of a = I + x1 (or `[I, q]` -> I + q when L = 0) on the on-hand axis, clipped where unreachable."""
        if self.p.lead_time == 0:
            a = self.on_hand[:, None] + np.arange(self.n_q)[None, :]
        else:
            a = self.on_hand + self.pipeline[..., 0]
        return np.clip(a - self.lo, 0, self.n_on_hand - 1)

    def q_values(self, v_next: np.ndarray) -> np.ndarray:
        """Q[state..., q] for all states and orders (infeasible orders get +inf)."""
        p = self.p
        ev = self.ptr @ v_next.reshape(self.n_on_hand, -1)
        if p.lead_time == 0:
            a = self.available_index()
            q = self.setup + self.cost[a] + ev[a, 0]
        else:
            a = self.available_index()
            ev = ev.reshape((self.n_on_hand,) + (self.n_q,) * p.lead_time)
            rest = tuple(self.pipeline[..., i] for i in range(1, p.lead_time))
            q = ev[(a,) + rest] + (self.setup + self.cost[a][..., None])
        return np.where(self.feasible, q, np.inf)

    def start_index(self) -> tuple[int, ...]:
        return (self.p.initial_inventory - self.lo,) + (0,) * self.p.lead_time


def _finite(v: np.ndarray) -> np.ndarray:
    """Unreachable states (position above max_inventory) have no feasible order; give them 0 so that the
    next matrix product stays finite (reachable states never move to them)."""
    return np.where(np.isfinite(v), v, 0.0)


def solve_dp(problem: InventoryProblem) -> DPResult:
    """Exact optimal expected horizon cost and policy; `SolverError` (with the state count) when too large."""
    start = time.perf_counter()
    m = _Model(problem)
    v = np.zeros(m.on_hand.shape)
    table = np.zeros((problem.time_horizon,) + m.on_hand.shape, dtype=np.int16)
    for t in reversed(range(problem.time_horizon)):
        q = m.q_values(v)
        table[t] = q.argmin(axis=-1)
        v = _finite(q.min(axis=-1))
    return DPResult(
        optimal_cost=float(v[m.start_index()]),
        policy=TablePolicy(table, offset=m.lo, label="dp"),
        states=m.states,
        seconds=time.perf_counter() - start,
    )


def evaluate_exact(problem: InventoryProblem, policy: Policy) -> float:
    """Exact expected horizon cost of any policy from the start state (same recursion, action fixed)."""
    m = _Model(problem)
    v = np.zeros(m.on_hand.shape)
    flat_on_hand = m.on_hand.ravel()
    flat_pipe = m.pipeline.reshape(-1, problem.lead_time)
    for t in reversed(range(problem.time_horizon)):
        want = np.asarray(policy.orders(problem, t, flat_on_hand, flat_pipe), dtype=np.int64)
        act = truncate_orders(problem, want, m.position.ravel()).reshape(m.on_hand.shape)
        q = m.q_values(v)
        v = _finite(np.take_along_axis(q, act[..., None], axis=-1)[..., 0])
    return float(v[m.start_index()])
