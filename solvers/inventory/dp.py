"""Exact finite-horizon dynamic programming over (on-hand, pipeline) — the optimum every heuristic is measured against.

Backward recursion on the Appendix A model (the period of `period.py`, pinned to it by a property test):
`V_t(I, x1..xL) = min_q  H·1{q>0} + C(I + x1) + E_D V_{t+1}(f(I + x1, D), x2..xL, q)`, `V_T = 0`, where
`C(a) = E[h(a - D)+ + b(D - a)+]` and q ranges over the feasible orders. Every transition is
`f(a, D) = clip(a - D, lo, top)` (top = 0 when perishable, else `max_on_hand`), so the expectation is a
correlation of `V_{t+1}` with the demand pmf along the on-hand axis, O(states·d_max) per period, vectorised
over the whole state grid (no on-hand × on-hand transition matrix). On-hand spans `0..max_on_hand` for lost
sales; under backlog it spans `-T·d_max..max_on_hand` (no path can go lower, so the result stays exact).
`max_on_hand` is the capacity on the default inventory-position basis; on the on-hand basis (Appendix A.1) with
L >= 2 deliveries can lift on-hand above it, and the feasible orders are `I + x1 + q <= capacity`, or `q = 0`
in any state with position at most `max_on_hand` (every reachable state). Demand pmf tails below 1e-12 are truncated.
The same recursion with a fixed policy's action gives the exact expected cost of any policy.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np

from core.errors import SolverError
from solvers.inventory.demand import demand_pmf
from solvers.inventory.montecarlo import Policy
from solvers.inventory.period import counted_stock, truncate_orders
from solvers.inventory.policies import TablePolicy
from solvers.inventory.spec import CapacityBasis, InventoryProblem

MAX_WORK = 60_000_000  # state-action pairs per period; about 2-4 s on this machine
MAX_HORIZON_WORK = 3_000_000_000  # q-value and expectation operations over the horizon
MAX_TABLE = 250_000_000  # periods × states of the policy table (int16: 500 MB)


@dataclass(frozen=True, eq=False)
class DPResult:
    """Exact optimum from the start state (`initial_inventory`, empty pipeline) and the optimal policy."""

    optimal_cost: float
    policy: TablePolicy = field(repr=False)
    states: int
    seconds: float

    def summary(self) -> dict[str, object]:
        return {"optimal_cost": self.optimal_cost, "states": self.states, "seconds": self.seconds}


def count_words(log10: float) -> str:
    """A count given by its base-10 logarithm: exact below a trillion, else like "about 3.2×10^452"."""
    if log10 < 12:
        return f"{round(10**log10):,}"
    exponent = math.floor(log10)
    return f"about {10 ** (log10 - exponent):.1f}×10^{exponent}"


class _Model:
    """State grid, one-period cost C(a), demand pmf and the work and memory checks for a problem."""

    def __init__(self, problem: InventoryProblem) -> None:
        p = problem
        self.p = p
        values, probs = demand_pmf(p.demand)
        d_max = int(values[-1])
        self.lo = 0 if p.lost_sales else -p.time_horizon * d_max
        self.n_on_hand = p.max_on_hand - self.lo + 1
        self.n_q = p.max_order + 1
        log_states = math.log10(self.n_on_hand) + p.lead_time * math.log10(self.n_q)
        if log_states > 15 or self.n_on_hand * self.n_q ** (p.lead_time + 1) > MAX_WORK:
            raise SolverError(
                f"the exact DP is too large for this instance: {count_words(log_states)} states × {self.n_q} "
                f"orders = {count_words(log_states + math.log10(self.n_q))} state-action pairs per period "
                f"(limit {MAX_WORK:,}); use the (s,S) search or DQN instead (smaller lead time, max inventory or "
                "max order help)"
            )
        self.states = self.n_on_hand * self.n_q**p.lead_time
        self.work = self.states * self.n_q
        keep = probs > 0
        self.values, self.probs = values[keep], probs[keep]
        # Every transition is f(a, D) = clip(a − D, lo, top) (top = 0 when perishable), so E_D V(f(a, D))
        # is a correlation with the pmf, O(n·d_max), not an n×n matrix product (12 GB for a backlog
        # Poisson(50) over T = 365, whose on-hand axis is long).
        self.expect_work = self.states * len(self.values)
        horizon = p.time_horizon * (self.work + self.expect_work)
        if horizon > MAX_HORIZON_WORK or p.time_horizon * self.states > MAX_TABLE:
            raise SolverError(
                f"the exact DP is too large for this instance over its {p.time_horizon}-period horizon: "
                f"{count_words(math.log10(horizon))} operations (limit {MAX_HORIZON_WORK:,}) and a policy "
                f"table of {count_words(math.log10(p.time_horizon * self.states))} entries (limit "
                f"{MAX_TABLE:,}); use the (s,S) search "
                "or DQN instead (a shorter horizon, lead time or max order helps)"
            )
        a = np.arange(self.lo, p.max_on_hand + 1)
        short = np.maximum(values[None, :] - a[:, None], 0)
        over = np.maximum(a[:, None] - values[None, :], 0)
        self.cost = (p.holding_cost * over + p.penalty_cost * short) @ probs
        self.top = (0 if p.perishable else p.max_on_hand) - self.lo  # index of the highest next on-hand
        grids = np.meshgrid(
            np.arange(self.lo, p.max_on_hand + 1), *[np.arange(self.n_q)] * p.lead_time, indexing="ij"
        )
        self.on_hand = grids[0]
        self.pipeline = (
            np.stack(grids[1:], axis=-1) if p.lead_time else np.zeros(grids[0].shape + (0,), dtype=int)
        )
        self.position = self.on_hand + self.pipeline.sum(axis=-1)
        self.counted = counted_stock(p, self.on_hand, self.pipeline)  # what the capacity counts
        orders = np.arange(self.n_q)
        self.feasible = self.counted[..., None] + orders <= p.max_inventory
        if p.capacity_basis is CapacityBasis.ON_HAND:  # reachable states above the capacity order nothing
            self.feasible |= (orders == 0) & (self.position[..., None] <= p.max_on_hand)
        self.setup = p.setup_cost * (orders > 0)
        # Constant over the periods: the row of E_D V for each (state, order) and the one-period costs.
        a = self.available_index()
        rest = tuple(self.pipeline[..., i] for i in range(1, p.lead_time))
        dims = (self.n_on_hand,) + (self.n_q,) * (p.lead_time - 1)
        self.rows = a if p.lead_time == 0 else np.ravel_multi_index((a, *rest), dims)
        cost = self.cost[a] if p.lead_time == 0 else self.cost[a][..., None]
        self.fixed = np.where(self.feasible, self.setup + cost, np.inf)

    def available_index(self) -> np.ndarray:
        """Index of a = I + x1 (or `[I, q]` -> I + q when L = 0) on the on-hand axis, clipped where unreachable."""
        if self.p.lead_time == 0:
            a = self.on_hand[:, None] + np.arange(self.n_q)[None, :]
        else:
            a = self.on_hand + self.pipeline[..., 0]
        return np.clip(a - self.lo, 0, self.n_on_hand - 1)

    def expect(self, v: np.ndarray) -> np.ndarray:
        """`E_D v[f(a, D)]` for every on-hand level a (rows of v are next on-hand levels)."""
        d_max, n = int(self.values[-1]), self.n_on_hand
        padded = np.concatenate([np.repeat(v[:1], d_max, axis=0), v[: self.top + 1]])
        padded = np.concatenate([padded, np.repeat(v[self.top : self.top + 1], n - self.top - 1, axis=0)])
        ev = np.zeros_like(v)
        for d, prob in zip(self.values, self.probs, strict=True):
            ev += prob * padded[d_max - d : d_max - d + n]  # v[clip(a − d, lo, top)]
        return ev

    def q_values(self, v_next: np.ndarray) -> np.ndarray:
        """Q[state..., q] for all states and orders (infeasible orders get +inf)."""
        ev = self.expect(v_next.reshape(self.n_on_hand, -1))
        # the next state is (f(a, D), x2..xL, q): with L >= 1 the last axis of ev is the order q
        q = ev[self.rows, 0] if self.p.lead_time == 0 else ev.reshape(-1, self.n_q)[self.rows]
        q += self.fixed
        return q

    def start_index(self) -> tuple[int, ...]:
        return (self.p.initial_inventory - self.lo,) + (0,) * self.p.lead_time


def _finite(v: np.ndarray) -> np.ndarray:
    """Unreachable states (position above max_on_hand) have no feasible order; give them 0 so that the
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
    flat_pipe = m.pipeline.reshape(flat_on_hand.size, problem.lead_time)
    for t in reversed(range(problem.time_horizon)):
        want = np.asarray(policy.orders(problem, t, flat_on_hand, flat_pipe), dtype=np.int64)
        act = truncate_orders(problem, want, m.counted.ravel()).reshape(m.on_hand.shape)
        q = m.q_values(v)
        v = _finite(np.take_along_axis(q, act[..., None], axis=-1)[..., 0])
    return float(v[m.start_index()])
