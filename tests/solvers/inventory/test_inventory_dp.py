"""Exact DP: the regression values of the issue, self-consistency with Monte Carlo, refusal when too large."""

from __future__ import annotations

import time

import pytest

from core.errors import SolverError
from solvers.inventory.dp import evaluate_exact, solve_dp
from solvers.inventory.montecarlo import evaluate_policies
from solvers.inventory.policies import BaseStockPolicy, SSPolicy
from solvers.inventory.spec import InventoryProblem, parse_demand


def anchor(lead_time: int, **kw) -> InventoryProblem:
    """Poisson(8), h 0.5, b 2.83 per unit lost, K 3, lost sales, cap 40, max order 20, T 30, empty start."""
    base = dict(
        time_horizon=30,
        demand=parse_demand("poisson(8)"),
        perishable=False,
        lost_sales=True,
        holding_cost=0.5,
        penalty_cost=2.83,
        setup_cost=3,
        lead_time=lead_time,
        max_inventory=40,
        max_order=20,
    )
    return InventoryProblem(**(base | kw))


@pytest.mark.parametrize(("lead_time", "value"), [(1, 190.7357), (2, 216.2276)])
def test_exact_regression_values(lead_time: int, value: float) -> None:
    start = time.perf_counter()
    result = solve_dp(anchor(lead_time))
    assert result.optimal_cost == pytest.approx(value, abs=1e-3)
    assert time.perf_counter() - start < 6  # <= 2 s on an idle machine; slack for shared CI cores


def test_dp_policy_cost_matches_monte_carlo_and_beats_heuristics() -> None:
    p = anchor(1)
    dp = solve_dp(p)
    policies = [dp.policy, SSPolicy(16, 20), BaseStockPolicy(19)]
    evals = evaluate_policies(p, policies, paths=20_000, seed=3)
    assert abs(evals[0].mean - dp.optimal_cost) < 4 * evals[0].se
    for pol, ev in zip(policies[1:], evals[1:], strict=True):
        exact = evaluate_exact(p, pol)
        assert abs(ev.mean - exact) < 4 * ev.se
        assert exact > dp.optimal_cost
    assert evaluate_exact(p, dp.policy) == pytest.approx(dp.optimal_cost, rel=1e-12)


@pytest.mark.parametrize(("perishable", "lost"), [(True, True), (False, False), (True, False)])
def test_other_transitions_dp_matches_monte_carlo(perishable: bool, lost: bool) -> None:
    p = anchor(1, perishable=perishable, lost_sales=lost, time_horizon=12)
    dp = solve_dp(p)
    ev = evaluate_policies(p, [dp.policy], paths=20_000, seed=5)[0]
    assert abs(ev.mean - dp.optimal_cost) < 4 * ev.se + 1e-9


def test_refuses_with_state_count_when_too_large() -> None:
    p = anchor(4, max_inventory=100, max_order=30, time_horizon=90)
    with pytest.raises(SolverError, match=r"states"):
        solve_dp(p)
