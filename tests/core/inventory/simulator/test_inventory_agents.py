"""Inventory agents on the Agent protocol: in the environment they order what the vectorised evaluator orders.

The environment draws demand from `default_rng(seed)` one period at a time, which is the stream of path 0 of
`demand_matrix(problem, 1, seed)`; the tests check that the draws line up and then compare, on the same
demand (common random numbers), every order, the total cost and the service metrics of `rollout()` with
`simulate_policy`.
"""

from __future__ import annotations

import numpy as np
import pytest

from core.agent import Agent
from core.inventory.simulator.agents import PolicyAgent, optimal_agent, policy_title
from core.rollout import RolloutStatus, rollout
from solvers.inventory.dp import solve_dp
from solvers.inventory.env import InventoryControlEnv
from solvers.inventory.montecarlo import demand_matrix, simulate_policy
from solvers.inventory.policies import BaseStockPolicy, ConstantPolicy, RQPolicy, SSPolicy
from solvers.inventory.spec import InventoryProblem, parse_demand

POLICIES = [
    SSPolicy(10, 30),
    SSPolicy(12, 25, cutoff=True),
    BaseStockPolicy(28),
    BaseStockPolicy(30, cap=9, cutoff=True),
    ConstantPolicy(7),
    ConstantPolicy(9, cutoff=True),
    RQPolicy(14, 12),
    RQPolicy(16, 15, cutoff=True),
]


def problem(lost: bool, perishable: bool, lead_time: int) -> InventoryProblem:
    return InventoryProblem(
        time_horizon=20,
        demand=parse_demand("poisson(7)"),
        perishable=perishable,
        lost_sales=lost,
        holding_cost=0.5,
        penalty_cost=2.83,
        setup_cost=3,
        lead_time=lead_time,
        max_inventory=35,
        max_order=15,
    )


def _compare(p: InventoryProblem, agent: PolicyAgent, seed: int) -> None:
    env = InventoryControlEnv(p)
    orders: list[int] = []
    demands: list[int] = []
    result = rollout(
        env,
        agent,
        seed=seed,
        on_step=lambda row: (orders.append(row.info["order"]), demands.append(row.info["demand"])),
    )
    assert result.status is RolloutStatus.DONE and result.steps == p.time_horizon
    demand = demand_matrix(p, 1, seed)
    assert demands == demand[0].tolist(), "the environment draws the same demand as path 0 of the evaluator"
    ev = simulate_policy(p, agent.policy, demand, record=1)
    assert list(result.actions) == orders == ev.trajectory.orders[0].tolist()
    m = env.episode_metrics()
    assert m["total_cost"] == pytest.approx(ev.mean, abs=1e-9) == pytest.approx(-result.total_reward)
    for key in (
        "fill_rate",
        "stockout_periods",
        "avg_on_hand",
        "orders_placed",
        "setup_cost",
        "holding_cost",
        "penalty_cost",
    ):
        assert m[key] == pytest.approx(getattr(ev, key), abs=1e-9), key


@pytest.mark.parametrize(("lost", "perishable"), [(True, False), (False, False), (True, True), (False, True)])
@pytest.mark.parametrize("lead_time", [0, 1, 2])
def test_heuristic_agents_order_what_the_evaluator_orders(
    lost: bool, perishable: bool, lead_time: int
) -> None:
    p = problem(lost, perishable, lead_time)
    for i, policy in enumerate(POLICIES):
        agent = PolicyAgent(policy, p)
        assert isinstance(agent, Agent)
        _compare(p, agent, seed=100 + i)


@pytest.mark.parametrize(
    ("lost", "perishable", "lead_time"), [(True, False, 1), (False, True, 2), (False, False, 0)]
)
def test_dp_optimum_agent_follows_the_policy_table(lost: bool, perishable: bool, lead_time: int) -> None:
    p = InventoryProblem(
        time_horizon=12,
        demand=parse_demand("poisson(4)"),
        perishable=perishable,
        lost_sales=lost,
        holding_cost=0.5,
        penalty_cost=2.83,
        setup_cost=3,
        lead_time=lead_time,
        max_inventory=16,
        max_order=8,
    )
    agent = optimal_agent(p)
    assert agent.name == "DP optimum"
    for seed in range(3):
        _compare(p, agent, seed)


def test_dp_agent_mean_cost_in_the_environment_matches_the_exact_optimum() -> None:
    """200 rollouts of the DP agent estimate its expected cost; the DP says what it must be."""
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
    agent = optimal_agent(p)
    costs = [-rollout(InventoryControlEnv(p), agent, seed=s).total_reward for s in range(200)]
    se = np.std(costs, ddof=1) / np.sqrt(len(costs))
    assert abs(np.mean(costs) - solve_dp(p).optimal_cost) < 4 * se


def test_names_and_notes_say_what_the_rule_did() -> None:
    p = problem(True, False, 1)
    assert policy_title(SSPolicy(10, 30)) == "(s,S) = (10, 30)"
    assert policy_title(BaseStockPolicy(30, cap=9, cutoff=True)) == "capped base-stock S = 30, cap 9 + cutoff"
    assert policy_title(BaseStockPolicy(30)) == "base-stock S = 30"
    assert policy_title(ConstantPolicy(7)) == "constant order 7"
    assert policy_title(RQPolicy(14, 12)) == "(R,Q) = (14, 12)"
    agent = PolicyAgent(SSPolicy(10, 30), p, name="my-sS", origin="chosen by hand")
    agent.reset(0)
    assert agent.name == "my-sS" and agent.title == "(s,S) = (10, 30)"
    assert agent.act(np.array([5, 0, 0])) == 15  # the pipeline slot is capped by max order 15: 25 -> 15
    assert agent.last_note.startswith("chosen by hand. position 5 < s = 10: order up to S = 30, 25 units")
    assert "truncated to 15 by the max order" in agent.last_note
    assert agent.act(np.array([12, 1, 0])) == 0 and agent.last_note == "position 12 >= s = 10: no order"
    assert agent.act(np.array([8, 2, 15])) == 0 and "no order" in agent.last_note
    capped = PolicyAgent(SSPolicy(25, 40), p)
    assert capped.act(np.array([2, 0, 7])) == 15
    assert capped.act(np.array([2, 3, 20])) == 13 and "max inventory 35" in capped.last_note
    late = PolicyAgent(SSPolicy(10, 30, cutoff=True), p)
    assert late.act(np.array([0, 19, 0])) == 0 and "cutoff" in late.last_note
