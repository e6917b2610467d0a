"""Outside oracles from stockpyl (test-only dependency): long-run (s,S) and base-stock costs.

Both oracles are backorder models with long-run average cost per period. stockpyl orders when IP <= s,
ours when IP < s, so stockpyl's (s, S) is our (s + 1, S). The long-run cost is estimated from common
paths as [Cost(T=1100) - Cost(T=100)] / 1000 (the first 100 periods are a burn-in).
"""

from __future__ import annotations

import numpy as np
import pytest

ss = pytest.importorskip("stockpyl.ss")
newsvendor = pytest.importorskip("stockpyl.newsvendor")

from solvers.inventory.montecarlo import demand_matrix, simulate_policy  # noqa: E402
from solvers.inventory.policies import BaseStockPolicy, SSPolicy  # noqa: E402
from solvers.inventory.spec import InventoryProblem, parse_demand  # noqa: E402

H, B, K, MU = 0.5, 2.83, 3.0, 8


def long_run(policy, lead_time: int, setup: float, start: int, paths: int = 3000) -> tuple[float, float]:
    def prob(horizon: int) -> InventoryProblem:
        return InventoryProblem(
            time_horizon=horizon,
            demand=parse_demand(f"poisson({MU})"),
            perishable=False,
            lost_sales=False,
            holding_cost=H,
            penalty_cost=B,
            setup_cost=setup,
            lead_time=lead_time,
            max_inventory=200,
            max_order=200,
            initial_inventory=start,
        )

    demand = demand_matrix(prob(1100), paths, seed=11)
    full = simulate_policy(prob(1100), policy, demand).costs
    burn = simulate_policy(prob(100), policy, demand[:, :100]).costs
    per_period = (full - burn) / 1000
    return float(per_period.mean()), float(per_period.std(ddof=1) / np.sqrt(paths))


def test_textbook_values_of_the_oracle() -> None:
    s, S, g = ss.s_s_discrete_exact(1, 4, 5, True, 6)
    assert (int(s), int(S)) == (4, 10) and g == pytest.approx(8.034111561471642)


@pytest.mark.parametrize(("s", "S"), [(6, 11), (4, 12), (6, 20)])
def test_ss_long_run_cost_matches_stockpyl(s: int, S: int) -> None:
    exact = ss.s_s_cost_discrete(s, S, H, B, K, True, demand_mean=MU)
    mean, se = long_run(SSPolicy(s + 1, S), lead_time=0, setup=K, start=S)
    assert abs(mean - exact) < 4 * se, (mean, se, exact)


@pytest.mark.parametrize("lead_time", [1, 2])
def test_base_stock_with_lead_time_matches_newsvendor(lead_time: int) -> None:
    S, g = newsvendor.newsvendor_poisson(H, B, MU * (lead_time + 1))
    mean, se = long_run(BaseStockPolicy(int(S)), lead_time=lead_time, setup=0.0, start=int(S))
    assert abs(mean - g) < 4 * se, (mean, se, g)
