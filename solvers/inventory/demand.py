"""Demand sampling and exact probability mass functions for `spec.Demand`.

Sampling conventions: normal demand is rounded to the nearest integer and floored at 0; uniform(a,b) is
uniform over the integers a..b; empirical demand resamples the daily history with replacement.
The pmf used by the DP truncates an unbounded tail once it holds less than `tail` probability and
renormalises (1e-12 by default, far below any reported digit).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from scipy.special import gammaln, ndtr, ndtri

from core.errors import SolverError, SpecError
from solvers.inventory.spec import Demand

MAX_SUPPORT = 10_000_000  # demand values 0..d_max the exact DP may tabulate


def sample_demand(demand: Demand, rng: np.random.Generator, size: int | tuple[int, ...]) -> np.ndarray:
    """Integer demands (int64) of the given shape drawn with `rng`."""
    kind, p = demand.kind, demand.params
    if kind == "deterministic":
        return np.full(size, int(p[0]), dtype=np.int64)
    if kind == "poisson":
        return rng.poisson(p[0], size).astype(np.int64)
    if kind == "normal":
        return np.maximum(np.rint(rng.normal(p[0], p[1], size)), 0).astype(np.int64)
    if kind == "uniform":
        return rng.integers(int(p[0]), int(p[1]) + 1, size, dtype=np.int64)
    hist = np.asarray(demand.history, dtype=np.int64)
    return hist[rng.integers(0, len(hist), size)]


def demand_pmf(demand: Demand, tail: float = 1e-12) -> tuple[np.ndarray, np.ndarray]:
    """`(values, probs)`: the support 0..d_max as int64 and its probabilities (summing to 1).

    `SolverError` when the support would exceed `MAX_SUPPORT` values (the DP then refuses)."""
    kind, p = demand.kind, demand.params
    top = {
        "deterministic": lambda: p[0],
        "poisson": lambda: p[0] + 10 * math.sqrt(p[0]) + 30,
        "normal": lambda: p[0] + 8 * p[1],
        "uniform": lambda: p[1],
        "empirical": lambda: max(demand.history),
    }[kind]()
    if top > MAX_SUPPORT:
        raise SolverError(
            f"the exact DP needs the probability of every daily demand 0..{top:,.0f}; above "
            f"{MAX_SUPPORT:,} values that is too large (use the (s,S) search or DQN instead)"
        )
    if kind == "deterministic":
        values = np.arange(int(p[0]) + 1)
        probs = np.zeros(len(values))
        probs[-1] = 1.0
        return values, probs
    if kind == "poisson":
        lam = p[0]
        hi = int(lam + 10 * math.sqrt(lam) + 30)
        values = np.arange(hi + 1)
        probs = np.exp(values * math.log(lam) - lam - gammaln(values + 1))
        keep = len(probs) - int(np.searchsorted(np.cumsum(probs[::-1]), tail))
        values, probs = values[: keep + 1], probs[: keep + 1]
    elif kind == "normal":
        mu, sd = p
        if sd == 0:
            return demand_pmf(Demand("deterministic", (max(0.0, float(np.floor(mu + 0.5))),)), tail)
        hi = max(0, int(math.ceil(mu - sd * ndtri(tail))))
        values = np.arange(hi + 1)
        upper = ndtr((values + 0.5 - mu) / sd)
        lower = np.concatenate([[0.0], upper[:-1]])
        probs = upper - lower
    elif kind == "uniform":
        a, b = int(p[0]), int(p[1])
        values = np.arange(b + 1)
        probs = np.where(values >= a, 1.0 / (b - a + 1), 0.0)
    else:
        counts = np.bincount(np.asarray(demand.history, dtype=np.int64))
        values = np.arange(len(counts))
        probs = counts / counts.sum()
    return values, probs / probs.sum()


def demand_from_history(history: Sequence[float]) -> Demand:
    """An empirical demand from a daily history (the "Custom" setting of Table 4)."""
    values = [float(h) for h in history]
    if not values:
        raise SpecError("demand_distribution", "the uploaded demand history is empty")
    if any(v < 0 or not math.isfinite(v) for v in values):
        raise SpecError("demand_distribution", "the demand history must contain non-negative numbers")
    return Demand("empirical", (), tuple(round(v) for v in values))
