"""The capacity switch: storage capacity counted on the inventory position (default) or on on-hand only
(seed 000, Appendix A.1). Each engine — the period, the grid kernel, the exact DP, the DQN mask, the
environment — honours it; the default is the rule it always was."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from core.errors import SpecError
from solvers.inventory.dp import evaluate_exact, solve_dp
from solvers.inventory.dqn import max_feasible
from solvers.inventory.env import InventoryControlEnv
from solvers.inventory.montecarlo import demand_matrix, simulate_policy
from solvers.inventory.period import counted_stock, period
from solvers.inventory.policies import RQPolicy
from solvers.inventory.search import _policy, evaluate_rules, family_rules
from solvers.inventory.spec import CapacityBasis, InventoryProblem, parse_demand, problem_from_table

POSITION, ON_HAND = CapacityBasis.INVENTORY_POSITION, CapacityBasis.ON_HAND


def _problem(lead_time: int = 2, basis: CapacityBasis = POSITION, **kw) -> InventoryProblem:
    values = dict(
        time_horizon=12,
        demand=parse_demand("poisson(4)"),
        perishable=False,
        lost_sales=True,
        holding_cost=0.5,
        penalty_cost=4.0,
        setup_cost=1.0,
        lead_time=lead_time,
        max_inventory=20,
        max_order=10,
        capacity_basis=basis,
    )
    return InventoryProblem(**(values | kw))


def test_default_basis_is_the_inventory_position_and_the_table_keeps_it() -> None:
    table = {
        "time_horizon": "30", "demand_type": "random", "demand_distribution": "poisson(8)",
        "perishability": "false", "state_transition_model": "lost_sale", "holding_cost": "0.5",
        "penalty_cost": "2.83", "setup_cost": "3", "lead_time": "2", "max_inventory": "40",
        "max_order": "20", "risk_tolerance": "0",
    }  # fmt: skip
    p = problem_from_table(table)
    assert p.capacity_basis is POSITION and p.max_on_hand == 40
    assert _problem(basis="on_hand").capacity_basis is ON_HAND  # the string form is accepted
    with pytest.raises(SpecError) as err:
        _problem(basis="shelf")
    assert err.value.field == "capacity_basis"


def test_on_hand_only_admits_an_order_the_position_refuses() -> None:
    """On-hand 5, pipeline (3 arriving now, 10 in transit), capacity 20, max order 10, ask for 10:
    the position 18 leaves room for 2; on-hand after today's delivery (8) leaves room for 12."""
    on_hand, pipe, demand = np.array([5]), np.array([[3, 10]]), np.array([0])
    by_position = period(_problem(basis=POSITION), on_hand, pipe, np.array([10]), demand)
    by_on_hand = period(_problem(basis=ON_HAND), on_hand, pipe, np.array([10]), demand)
    assert by_position.order.tolist() == [2]
    assert by_on_hand.order.tolist() == [10]
    assert counted_stock(_problem(basis=ON_HAND), on_hand, pipe).tolist() == [8]
    # the DQN's action mask follows the same rule
    assert max_feasible(_problem(basis=POSITION), on_hand, pipe, 0).tolist() == [2]
    assert max_feasible(_problem(basis=ON_HAND), on_hand, pipe, 0).tolist() == [10]


@pytest.mark.parametrize("lead_time", [0, 1])
def test_both_bases_are_one_rule_for_lead_times_up_to_one(lead_time: int) -> None:
    rng = np.random.default_rng(3)
    a, b = _problem(lead_time, POSITION), _problem(lead_time, ON_HAND)
    assert a.max_on_hand == b.max_on_hand == 20
    for _ in range(50):
        on_hand = rng.integers(0, 21, 6)
        pipe = rng.integers(0, 11, (6, lead_time))
        order = rng.integers(0, 15, 6)
        d = rng.integers(0, 8, 6)
        assert (period(a, on_hand, pipe, order, d).order == period(b, on_hand, pipe, order, d).order).all()


def test_exact_dp_on_the_on_hand_basis_matches_simulation_and_is_no_worse() -> None:
    """The on-hand basis only adds feasible orders, so its optimum is at most the position's; the DP's state grid
    (on-hand up to `max_on_hand`, above the capacity) covers every reachable state, so its value is the mean
    cost of its own policy in the simulator. Big orders pay here (setup cost 8), so the extra room is used."""
    by_position = _problem(basis=POSITION, setup_cost=8.0, max_inventory=12, max_order=8, time_horizon=10)
    by_on_hand = dataclasses.replace(by_position, capacity_basis=ON_HAND)
    assert by_on_hand.max_on_hand == 12 + 8
    dp_pos, dp_on = solve_dp(by_position), solve_dp(by_on_hand)
    assert dp_on.optimal_cost < dp_pos.optimal_cost - 1e-6
    demand = demand_matrix(by_on_hand, 20_000, 5)
    sim = simulate_policy(by_on_hand, dp_on.policy, demand)
    assert abs(sim.mean - dp_on.optimal_cost) < 4 * sim.se
    # a fixed rule's exact cost per basis equals its simulated cost per basis (the period decides truncation)
    rule = RQPolicy(9, 8)
    for p in (by_position, by_on_hand):
        sim = simulate_policy(p, rule, demand_matrix(p, 20_000, 6))
        assert abs(sim.mean - evaluate_exact(p, rule)) < 4 * sim.se
    assert evaluate_exact(by_on_hand, rule) != pytest.approx(evaluate_exact(by_position, rule))


@pytest.mark.parametrize("family", ["constant", "rQ", "sS"])
def test_grid_kernel_rules_follow_the_basis(family: str) -> None:
    """The kernel's encoding of each family, run on common paths, equals the period-based simulator of the
    family's policy object on both bases (constant and (R,Q) orders are cut by the on-hand room, not the position)."""
    for basis in CapacityBasis:
        p = _problem(3, basis, max_inventory=15, max_order=9, time_horizon=20)
        rules = family_rules(p, family)
        pick = rules[np.linspace(0, len(rules) - 1, 6).round().astype(int)]
        demand = demand_matrix(p, 300, 11)
        means, _ = evaluate_rules(p, pick[:, 0], pick[:, 1], pick[:, 2], demand, threads=1)
        for (s, S, cap), mean in zip(pick, means, strict=True):
            policy = _policy(family, np.array([s, S, cap]), p, False)
            assert mean == pytest.approx(simulate_policy(p, policy, demand).mean, rel=1e-9), (
                basis,
                s,
                S,
                cap,
            )
    on_hand_rules = family_rules(_problem(3, ON_HAND, max_inventory=15, max_order=9), "constant")
    assert on_hand_rules[:, 1].min() > 15, "the on-hand basis never caps a constant order by the position"


def test_environment_observations_stay_in_the_space_above_the_capacity() -> None:
    p = _problem(3, ON_HAND, max_inventory=15, max_order=9)
    env = InventoryControlEnv(p)
    obs, _ = env.reset(seed=0)
    highest = 0
    for _ in range(p.time_horizon):
        obs, *_ = env.step(9)
        assert env.observation_space.contains(obs)
        highest = max(highest, int(obs[0]))
    assert env.observation_space.high[0] == 15 + 2 * 9
    position = InventoryControlEnv(dataclasses.replace(p, capacity_basis=POSITION))
    assert position.observation_space.high[0] == 15
