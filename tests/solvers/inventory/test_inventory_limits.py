"""Absurd sizes are refused at once, with an error naming the field, before any large allocation."""

from __future__ import annotations

import pytest

from core.errors import SolverError, SpecError
from solvers.inventory.agent import optimize
from solvers.inventory.dp import solve_dp
from solvers.inventory.dqn import DQNConfig, train_dqn
from solvers.inventory.montecarlo import demand_matrix
from solvers.inventory.search import family_rules, family_size, search_policies
from solvers.inventory.spec import InventoryProblem, parse_demand
from tests.support.inventory import anchor


def problem(**kw) -> InventoryProblem:
    return anchor(**kw)


@pytest.mark.parametrize(
    ("change", "paths", "field"),
    [
        ({"time_horizon": 10**9}, 10, "time_horizon"),
        ({"time_horizon": 10**5}, 10_000, "paths"),
        ({"lead_time": 10**8}, 10, "lead_time"),
    ],
)
def test_simulation_size_names_the_field(change, paths, field) -> None:
    with pytest.raises(SpecError) as err:
        demand_matrix(problem(**change), paths, 0)
    assert err.value.field == field and "limit" in str(err.value)


@pytest.mark.parametrize("family", ["sS", "base_stock", "constant", "rQ"])
def test_family_size_counts_the_rules(family) -> None:
    p = problem(max_inventory=23, max_order=11)
    assert len(family_rules(p, family)) <= family_size(p, family)
    if family != "base_stock":  # rounded caps may coincide, so base-stock's count is an upper bound
        assert len(family_rules(p, family)) == family_size(p, family)


@pytest.mark.parametrize(
    ("change", "paths", "field"),
    [
        ({"max_inventory": 10**5}, 100, "max_inventory"),  # 5·10^9 (s,S) pairs
        ({"max_inventory": 3000, "time_horizon": 365}, 1000, "max_inventory"),  # 1.6·10^12 periods
        ({"lead_time": 5000}, 1000, "lead_time"),  # the chunks' pipelines
    ],
)
def test_search_size_names_the_field(change, paths, field) -> None:
    with pytest.raises(SpecError) as err:
        search_policies(problem(**change), "sS", paths, 0)
    assert err.value.field == field


@pytest.mark.parametrize(
    ("change", "field"),
    [({"max_inventory": 50_000, "max_order": 20_000}, "max_order"), ({"lead_time": 5000}, "lead_time")],
)
def test_dqn_size_names_the_field(change, field) -> None:
    with pytest.raises(SpecError) as err:
        train_dqn(problem(**change), DQNConfig(steps=1))
    assert err.value.field == field
    with pytest.raises(SpecError) as err:  # the agent refuses before its searches
        optimize(problem(**change), 10, 0, True, use_dp=False)
    assert err.value.field == field


@pytest.mark.parametrize("demand", ["poisson(1e9)", "normal(1e8,1e6)", "uniform(0,20000000)"])
def test_dp_refuses_a_huge_demand_support(demand) -> None:
    with pytest.raises(SolverError, match="demand 0..") as err:
        solve_dp(problem(demand=parse_demand(demand)))
    assert "too large" in str(err.value)
