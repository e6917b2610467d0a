"""Appendix A transitions against hand-computed cases, in the env and in the vectorised evaluator."""

from __future__ import annotations

import numpy as np
import pytest

from core.errors import SpecError
from solvers.inventory.demand import demand_pmf, sample_demand
from solvers.inventory.env import InventoryControlEnv as InventoryEnv
from solvers.inventory.montecarlo import evaluate_policies, simulate_policy
from solvers.inventory.policies import BaseStockPolicy, ConstantPolicy, RQPolicy, SSPolicy
from solvers.inventory.spec import Demand, InventoryProblem, parse_demand


def problem(**kw) -> InventoryProblem:
    base = dict(
        time_horizon=3,
        demand=Demand("deterministic", (5,)),
        perishable=False,
        lost_sales=True,
        holding_cost=1,
        penalty_cost=10,
        setup_cost=2,
        lead_time=1,
        max_inventory=20,
        max_order=10,
        initial_inventory=3,
    )
    return InventoryProblem(**(base | kw))


def env_rollout(p: InventoryProblem, policy) -> tuple[list[float], list[dict]]:
    env = InventoryEnv(p)
    obs, _ = env.reset(seed=1)
    costs, infos = [], []
    done = False
    while not done:
        obs, reward, done, truncated, info = env.step(policy.act(obs, p))
        assert not truncated
        costs.append(-reward)
        infos.append(info)
    return costs, infos


# Hand-computed: D = 5 every day, order 6 every day, L = 1, start I = 3 (see the module docstring of period.py).
@pytest.mark.parametrize(
    ("lost", "perishable", "costs"),
    [
        (True, False, [22, 3, 4]),  # I: 3 -> 0 -> 1 -> 2
        (False, False, [22, 12, 2]),  # I: 3 -> -2 -> -1 -> 0
        (True, True, [22, 3, 3]),  # leftover discarded each day
        (False, True, [22, 12, 2]),  # I' = min(I + x1 - D, 0)
    ],
)
def test_four_transitions_order_six(lost: bool, perishable: bool, costs: list[float]) -> None:
    p = problem(lost_sales=lost, perishable=perishable)
    got, infos = env_rollout(p, ConstantPolicy(6))
    assert got == costs
    assert [i["order"] for i in infos] == [6, 6, 6]
    ev = simulate_policy(p, ConstantPolicy(6), np.full((2, 3), 5))
    assert ev.mean == pytest.approx(sum(costs)) and ev.std == 0


class Scripted:
    """Orders a fixed sequence, one entry per period (t = 0..T-1)."""

    name = "scripted"

    def __init__(self, seq: list[int]) -> None:
        self.seq = seq

    def orders(self, problem, t, on_hand, pipeline) -> np.ndarray:
        return np.full(on_hand.shape, self.seq[t], dtype=np.int64)

    def act(self, observation, problem) -> int:
        return self.seq[int(observation[1])]


# Hand-computed, D = 5, L = 1, start I = 3, h 1, b 10, K 2, orders [10, 0, 4, 10]: stock is left over in
# period 1, so the perishable backlog's min(I + x1 - D, 0) discards it (the order-6 cases above never do).
#   backlog:            t0 avail 3 short 2 -> 2+20; I -2 | t1 avail 8 held 3 -> 3; I 3
#                       t2 avail 3 short 2 -> 2+20; I -2 | t3 avail 2 short 3 -> 2+30; I -3
#   perishable backlog: t0 as above; I -2 | t1 held 3 -> 3; I min(3, 0) = 0
#                       t2 avail 0 short 5 -> 2+50; I -5 | t3 avail -1 short 6 -> 2+60; I -6
#   lost sales:         t0 22; I 0 | t1 avail 10 held 5 -> 5; I 5 | t2 avail 5 -> 2; I 0 | t3 avail 4 short 1 -> 12
#   perishable lost:    t0 22 | t1 held 5 -> 5; I 0 | t2 avail 0 short 5 -> 52 | t3 avail 4 short 1 -> 12
@pytest.mark.parametrize(
    ("lost", "perishable", "costs", "on_hand"),
    [
        (False, False, [22, 3, 22, 32], [-2, 3, -2, -3]),
        (False, True, [22, 3, 52, 62], [-2, 0, -5, -6]),
        (True, False, [22, 5, 2, 12], [0, 5, 0, 0]),
        (True, True, [22, 5, 52, 12], [0, 0, 0, 0]),
    ],
)
def test_four_transitions_with_stock_left_over(lost, perishable, costs, on_hand) -> None:
    p = problem(lost_sales=lost, perishable=perishable, time_horizon=4)
    policy = Scripted([10, 0, 4, 10])
    env = InventoryEnv(p)
    env.reset(seed=0)
    got, seen = [], []
    for t in range(4):
        obs, reward, *_ = env.step(policy.seq[t])
        got.append(-reward)
        seen.append(int(obs[0]))
    assert got == costs and seen == on_hand
    ev = simulate_policy(p, policy, np.full((2, 4), 5))
    assert ev.mean == pytest.approx(sum(costs)) and ev.std == 0


def test_service_statistics_by_hand() -> None:
    """Lost sales, orders [10, 0, 4, 10], D = 5 (the case above): sales 3, 5, 5, 4 of 20; short in
    periods 0 and 3; end-of-period stock 0, 5, 0, 0; two paths with equal demand, so the std is 0."""
    p = problem(time_horizon=4)
    ev = simulate_policy(p, Scripted([10, 0, 4, 10]), np.full((2, 4), 5))
    assert ev.fill_rate == pytest.approx(17 / 20)
    assert ev.stockout_periods == 2 and ev.avg_on_hand == pytest.approx(5 / 4)
    assert ev.orders_placed == 3 and ev.setup_cost == 6 and ev.holding_cost == 5 and ev.penalty_cost == 30
    assert ev.se == 0 and ev.ci95 == (ev.mean, ev.mean)


def test_ci_is_the_normal_interval_of_the_path_costs() -> None:
    p = problem(demand=parse_demand("poisson(5)"), time_horizon=10)
    ev = evaluate_policies(p, [SSPolicy(4, 12)], paths=400, seed=3)[0]
    half = 1.96 * ev.costs.std(ddof=1) / np.sqrt(400)
    assert ev.std == pytest.approx(ev.costs.std(ddof=1)) and ev.se == pytest.approx(ev.std / 20)
    assert ev.ci95 == pytest.approx((ev.costs.mean() - half, ev.costs.mean() + half))


def test_policies_share_common_random_numbers() -> None:
    p = problem(demand=parse_demand("poisson(5)"), time_horizon=10)
    pols = [SSPolicy(4, 12), ConstantPolicy(5), SSPolicy(4, 12)]
    a, b, c = evaluate_policies(p, pols, paths=300, seed=9, record=3)
    assert np.array_equal(a.trajectory.demand, b.trajectory.demand)
    assert np.array_equal(a.costs, c.costs)  # same policy, same paths: identical, not just close
    alone = evaluate_policies(p, pols[1:2], paths=300, seed=9)[0]
    assert np.array_equal(alone.costs, b.costs)


@pytest.mark.parametrize(("perishable", "total"), [(False, 3 + 20 + 50), (True, 3 + 50 + 50)])
def test_no_orders_lead_time_zero(perishable: bool, total: float) -> None:
    p = problem(lead_time=0, initial_inventory=8, perishable=perishable)
    got, _ = env_rollout(p, ConstantPolicy(0))
    assert sum(got) == total


def test_lead_time_zero_order_arrives_before_demand() -> None:
    p = problem(lead_time=0, initial_inventory=0)
    got, infos = env_rollout(p, ConstantPolicy(5))
    assert got == [2, 2, 2] and infos[0]["sales"] == 5


def test_orders_truncated_by_capacity_and_max_order() -> None:
    p = problem(max_inventory=12, max_order=10, initial_inventory=3, lead_time=2)
    env = InventoryEnv(p)
    obs, _ = env.reset(seed=0)
    obs, *_, info = env.step(50)
    assert info["order"] == 9  # IP 3 + 9 = 12 = max_inventory
    obs, *_, info = env.step(50)
    assert info["order"] == 3  # on-hand 0 after demand 5, IP = 0 + 0 + 9 = 9, room 3
    assert obs.tolist() == [0, 2, 9, 3]


def test_ss_trigger_is_strict() -> None:
    p = problem(initial_inventory=10, lead_time=0)
    on_hand = np.array([9, 10, 11])
    q = SSPolicy(10, 15).orders(p, 0, on_hand, np.zeros((3, 0), dtype=np.int64))
    assert q.tolist() == [6, 0, 0]
    assert RQPolicy(10, 4).orders(p, 0, on_hand, np.zeros((3, 0), dtype=np.int64)).tolist() == [4, 0, 0]
    assert BaseStockPolicy(15, cap=3).orders(p, 0, on_hand, np.zeros((3, 0), dtype=np.int64)).tolist() == [
        3,
        3,
        3,
    ]


def test_cutoff_stops_orders_that_cannot_arrive() -> None:
    p = problem(lead_time=1, time_horizon=3)
    pipe = np.zeros((1, 1), dtype=np.int64)
    pol = BaseStockPolicy(10, cutoff=True)
    assert pol.orders(p, 1, np.array([0]), pipe).tolist() == [10]
    assert pol.orders(p, 2, np.array([0]), pipe).tolist() == [0]


def test_env_and_vectorised_engine_agree_on_random_demand() -> None:
    p = problem(demand=parse_demand("poisson(5)"), time_horizon=20, lead_time=2, initial_inventory=0)
    pol = SSPolicy(8, 16)
    env = InventoryEnv(p)
    obs, _ = env.reset(seed=42)
    demands, costs = [], []
    for _ in range(p.time_horizon):
        obs, r, done, _, info = env.step(pol.act(obs, p))
        demands.append(info["demand"])
        costs.append(-r)
    ev = simulate_policy(p, pol, np.array([demands]), record=1)
    assert ev.mean == pytest.approx(sum(costs))
    assert ev.trajectory.cost[0].tolist() == pytest.approx(costs)


def test_cost_identity_and_determinism() -> None:
    p = problem(
        demand=parse_demand("normal(8,3)"), time_horizon=30, lead_time=2, max_inventory=40, max_order=20
    )
    pols = [SSPolicy(10, 25), BaseStockPolicy(24, cap=12), ConstantPolicy(8), RQPolicy(15, 10)]
    a = evaluate_policies(p, pols, paths=500, seed=7, record=2)
    b = evaluate_policies(p, pols, paths=500, seed=7)
    for x, y in zip(a, b, strict=True):
        assert x.mean == y.mean and np.array_equal(x.costs, y.costs)
        assert x.mean == pytest.approx(x.setup_cost + x.holding_cost + x.penalty_cost)
        assert x.ci95[0] < x.mean < x.ci95[1] and 0 < x.fill_rate <= 1
        assert x.trajectory.cost.sum(axis=1) == pytest.approx(x.costs[:2])
    c = evaluate_policies(p, pols[:1], paths=500, seed=8)[0]
    assert c.mean != a[0].mean


def test_env_seed_determinism_and_reset_options() -> None:
    p = problem(demand=parse_demand("poisson(6)"), time_horizon=10)
    assert env_rollout(p, ConstantPolicy(6)) == env_rollout(p, ConstantPolicy(6))
    env = InventoryEnv(p)
    obs, info = env.reset(seed=3, options={"on_hand": 4, "pipeline": [7]})
    assert obs.tolist() == [4, 0, 7] and info["inventory_position"] == 11
    with pytest.raises(SpecError):
        env.reset(options={"pipeline": [1, 2]})


@pytest.mark.parametrize("text", ["poisson(8)", "normal(30,10)", "uniform(10,20)", "7", "empirical(1,4,4,9)"])
def test_demand_pmf_matches_samples(text: str) -> None:
    d = parse_demand(text)
    values, probs = demand_pmf(d)
    assert probs.sum() == pytest.approx(1)
    x = sample_demand(d, np.random.default_rng(0), 200_000)
    assert x.mean() == pytest.approx(float(values @ probs), abs=0.05 + 0.01 * x.mean())
    assert x.min() >= 0
