"""Exact DP: the regression values of the issue, self-consistency with Monte Carlo, refusal when too large."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from core.errors import SolverError
from solvers.inventory import dp
from solvers.inventory.demand import demand_pmf
from solvers.inventory.dp import _Model, count_words, evaluate_exact, solve_dp
from solvers.inventory.montecarlo import evaluate_policies
from solvers.inventory.policies import BaseStockPolicy, SSPolicy
from solvers.inventory.spec import parse_demand
from tests.support.inventory import anchor


def _count_expectations(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The on-hand levels of each `E_D V` the DP computes, one entry per period (its speed is timed in
    `bench/inventory_speed.py`)."""
    levels: list[int] = []
    expect = _Model.expect

    def counted(model: _Model, v: np.ndarray) -> np.ndarray:
        levels.append(v.shape[0])
        return expect(model, v)

    monkeypatch.setattr(_Model, "expect", counted)
    return levels


@pytest.mark.parametrize(("lead_time", "value", "states"), [(1, 190.7357, 861), (2, 216.2276, 18_081)])
def test_exact_regression_values(
    lead_time: int, value: float, states: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    levels = _count_expectations(monkeypatch)
    result = solve_dp(anchor(lead_time))
    assert result.optimal_cost == pytest.approx(value, abs=1e-3)
    assert result.states == states and levels == [41] * 30  # one pass over the 0..40 on-hand levels a period


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


def test_refusal_message_states_huge_counts_briefly() -> None:
    p = anchor(200, max_inventory=500, max_order=500, time_horizon=90)
    with pytest.raises(SolverError) as err:
        solve_dp(p)
    text = str(err.value)
    assert "×10^" in text and "states" in text and len(text) < 400
    assert max(len(run) for run in re.findall(r"[\d,]+", text)) <= 12
    assert count_words(math.log10(70_000_000)) == "70,000,000"
    assert count_words(452.5) == "about 3.2×10^452"


@pytest.mark.parametrize(("perishable", "lost"), [(False, True), (True, True), (False, False), (True, False)])
def test_expectation_matches_an_explicit_transition_matrix(perishable: bool, lost: bool) -> None:
    """The pmf correlation equals `Ptr @ V` with `Ptr[a, i'] = P(f(a, D) = i')` built from Appendix A."""
    p = anchor(1, perishable=perishable, lost_sales=lost, time_horizon=3, demand=parse_demand("uniform(2,9)"))
    m = _Model(p)
    levels = np.arange(m.lo, p.max_inventory + 1)
    values, probs = demand_pmf(p.demand)
    ptr = np.zeros((len(levels), len(levels)))
    for i, a in enumerate(levels):
        for d, prob in zip(values, probs, strict=True):
            left = a - d
            nxt = (0 if perishable else max(left, 0)) if lost else (min(left, 0) if perishable else left)
            ptr[i, max(nxt, m.lo) - m.lo] += prob
    v = np.random.default_rng(0).normal(size=(len(levels), 7))
    assert np.allclose(m.expect(v), ptr @ v, rtol=0, atol=1e-12)


def test_long_backlog_horizon_is_fast_and_huge_ones_are_refused_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Timed in `bench/inventory_speed.py` (0.6 s idle; was 37 s and 1.4 GB with a levels × levels matrix)."""
    long = anchor(0, lost_sales=False, time_horizon=365)  # on-hand from -365·d_max: 13,181 levels
    levels = _count_expectations(monkeypatch)
    result = solve_dp(long)
    assert result.states == 13_181 and levels == [13_181] * 365  # one correlation with the pmf per period
    mc = evaluate_policies(long, [result.policy], paths=2_000, seed=1)[0]
    assert abs(mc.mean - result.optimal_cost) < 4 * mc.se
    huge = anchor(
        1, lost_sales=False, time_horizon=365, demand=parse_demand("poisson(50)"), max_inventory=100
    )
    grids: list[object] = []
    monkeypatch.setattr(dp, "counted_stock", lambda *args: grids.append(args))
    with pytest.raises(SolverError, match=r"horizon"):
        solve_dp(huge)
    assert grids == [] and levels == [13_181] * 365  # refused from its sizes: no state grid, no period


def test_evaluate_exact_without_lead_time() -> None:
    p = anchor(0)
    dp = solve_dp(p)
    assert evaluate_exact(p, dp.policy) == pytest.approx(dp.optimal_cost, rel=1e-12)
    ss = SSPolicy(6, 14)
    exact = evaluate_exact(p, ss)
    mc = evaluate_policies(p, [ss], paths=20_000, seed=2)[0]
    assert exact > dp.optimal_cost and abs(mc.mean - exact) < 4 * mc.se
