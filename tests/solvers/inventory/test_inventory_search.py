"""(s,S) grid and the other families: one kernel, checked against the reference simulator and the DP."""

from __future__ import annotations

import numpy as np
import pytest

from solvers.inventory.dp import evaluate_exact, solve_dp
from solvers.inventory.montecarlo import demand_matrix, simulate_policy
from solvers.inventory.search import _policy, evaluate_rules, family_rules, search_policies
from solvers.inventory.spec import InventoryProblem, parse_demand


def small(lost: bool = True, perishable: bool = False, lead_time: int = 1) -> InventoryProblem:
    return InventoryProblem(
        time_horizon=15,
        demand=parse_demand("poisson(6)"),
        perishable=perishable,
        lost_sales=lost,
        holding_cost=0.5,
        penalty_cost=3,
        setup_cost=2,
        lead_time=lead_time,
        max_inventory=25,
        max_order=10,
        initial_inventory=4,
    )


@pytest.mark.parametrize("lost", [True, False])
@pytest.mark.parametrize("perishable", [False, True])
@pytest.mark.parametrize("lead_time", [0, 2])
def test_kernel_matches_reference_simulator(lost: bool, perishable: bool, lead_time: int) -> None:
    p = small(lost, perishable, lead_time)
    demand = demand_matrix(p, 40, seed=1)
    rng = np.random.default_rng(0)
    for family in ("sS", "base_stock", "constant", "rQ"):
        rules = family_rules(p, family)
        pick = rules[rng.choice(len(rules), 4, replace=False)]
        for cutoff in (False, True):
            mean, std = evaluate_rules(p, pick[:, 0], pick[:, 1], pick[:, 2], demand, cutoff=cutoff)
            for rule, m, s in zip(pick, mean, std, strict=True):
                ev = simulate_policy(p, _policy(family, rule, p, cutoff), demand)
                assert ev.mean == pytest.approx(m, abs=1e-9) and ev.std == pytest.approx(s, abs=1e-9)


def test_ss_grid_shape_optimum_and_reevaluation() -> None:
    p = InventoryProblem(
        time_horizon=30,
        demand=parse_demand("poisson(8)"),
        perishable=False,
        lost_sales=True,
        holding_cost=0.5,
        penalty_cost=2.83,
        setup_cost=3,
        lead_time=1,
        max_inventory=40,
        max_order=20,
    )
    progress: list[float] = []
    res = search_policies(p, "sS", paths=1000, seed=0, top_k=8, progress=lambda f, m: progress.append(f))
    assert res.mean.shape == (41, 41) and np.isnan(res.mean[30, 20]) and not np.isnan(res.mean[20, 30])
    assert np.isfinite(res.mean).sum() == 41 * 42 // 2
    assert progress[-1] == 1.0 and all(a <= b for a, b in zip(progress, progress[1:], strict=False))
    assert len(res.candidates) == 8 and res.best.paths == 2000
    best = res.best_policy
    # the winner is picked on fresh paths, not on the search's own (biased low) estimates
    assert res.best.mean != pytest.approx(res.mean[best.s, best.S], abs=1e-9)
    assert res.best.objective(0) == min(c.objective(0) for c in res.candidates)
    # the chosen pair is close to the best stationary (s,S) by exact evaluation: (16,20) under IP < s
    assert evaluate_exact(p, best) <= evaluate_exact(p, type(best)(16, 20)) * 1.005
    assert evaluate_exact(p, best) > solve_dp(p).optimal_cost


def test_risk_tolerance_changes_the_score() -> None:
    p = InventoryProblem(
        time_horizon=30,
        demand=parse_demand("poisson(8)"),
        perishable=False,
        lost_sales=True,
        holding_cost=0.5,
        penalty_cost=2.83,
        setup_cost=3,
        lead_time=1,
        max_inventory=40,
        max_order=20,
        risk_tolerance=-10,
    )
    res = search_policies(p, "sS", paths=300, seed=0, top_k=5)
    assert res.best.objective(-10) == pytest.approx(res.best.mean + np.exp(10) * res.best.std)
    assert res.best.std <= min(c.std for c in res.candidates) + 1e-9


def test_grid_progress_is_reported_from_the_calling_thread():
    import threading

    from solvers.inventory.search import search_policies
    from solvers.inventory.spec import Demand, InventoryProblem

    problem = InventoryProblem(
        time_horizon=10,
        demand=Demand("poisson", (4.0,)),
        perishable=False,
        lost_sales=True,
        holding_cost=0.5,
        penalty_cost=2.0,
        setup_cost=3.0,
        lead_time=1,
        max_inventory=30,
        max_order=15,
    )
    seen: list[tuple[int, float]] = []
    search_policies(problem, "sS", 50, 1, progress=lambda f, msg: seen.append((threading.get_ident(), f)))
    assert seen, "no progress was reported"
    assert {ident for ident, _ in seen} == {threading.get_ident()}
    assert seen[-1][1] == 1.0


def test_a_large_grid_is_searched_coarse_to_fine_and_finds_the_exhaustive_best():
    p = InventoryProblem(
        time_horizon=30,
        demand=parse_demand("poisson(12)"),
        perishable=False,
        lost_sales=True,
        holding_cost=0.3,
        penalty_cost=4.0,
        setup_cost=10.0,
        lead_time=1,
        max_inventory=90,
        max_order=45,
    )
    full = search_policies(p, "sS", 300, 0)
    fast = search_policies(p, "sS", 300, 0, max_candidates=300)
    evaluated = int(np.isfinite(fast.mean).sum())
    assert evaluated < 0.25 * int(np.isfinite(full.mean).sum())
    gap = (fast.best.objective(0) - full.best.objective(0)) / full.best.objective(0)
    assert gap <= 0.005, (fast.best.policy, full.best.policy, gap)
