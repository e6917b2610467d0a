"""The one period definition (`period.py`) and the two fast paths pinned to it by property tests.

Random instances cover all four transition models (lost sale / backlog × perishable or not) and lead times
0..3; random states, orders and demands are drawn by hypothesis. The grid kernel (`search._chunk`) must give,
path by path, the same order count, held units and short units as a loop of `period` calls; the DP's
Q-values (`dp._Model.q_values`) must equal the demand-weighted `period` cost plus the next value at the state
`period` moves to, for every state and feasible order, with a random next value function. Both capacity bases
(inventory position, on-hand only) are drawn.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solvers.inventory.demand import demand_from_history
from solvers.inventory.dp import _Model
from solvers.inventory.env import InventoryControlEnv
from solvers.inventory.period import counted_stock, cut_off, next_on_hand, period, truncate_orders
from solvers.inventory.search import _chunk, _dtype
from solvers.inventory.spec import CapacityBasis, InventoryProblem, parse_demand

FAST = settings(
    max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)


MODELS = [(lost, perishable) for lost in (True, False) for perishable in (False, True)]
EACH = settings(max_examples=5, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
every_model_and_lead_time = pytest.mark.parametrize(
    ("lost", "perishable", "lead_time"), [(*m, L) for m in MODELS for L in range(4)]
)


@st.composite
def problems(
    draw, *, lost=None, perishable=None, lead_time=None, demand_values: int = 12
) -> InventoryProblem:
    """A small random instance (an empirical demand); model and lead time drawn unless given."""
    max_inventory = draw(st.integers(1, 14))
    history = draw(st.lists(st.integers(0, demand_values), min_size=1, max_size=6))
    return InventoryProblem(
        time_horizon=draw(st.integers(1, 6)),
        demand=demand_from_history(history),
        perishable=draw(st.booleans()) if perishable is None else perishable,
        lost_sales=draw(st.booleans()) if lost is None else lost,
        holding_cost=draw(st.sampled_from([0.0, 0.5, 1.0, 2.25])),
        penalty_cost=draw(st.sampled_from([0.0, 1.0, 2.83, 7.5])),
        setup_cost=draw(st.sampled_from([0.0, 1.0, 3.0])),
        lead_time=draw(st.integers(0, 3)) if lead_time is None else lead_time,
        max_inventory=max_inventory,
        max_order=draw(st.integers(1, max_inventory)),
        initial_inventory=draw(st.integers(0, max_inventory)),
        capacity_basis=draw(st.sampled_from(list(CapacityBasis))),
    )


@st.composite
def states(draw, problem: InventoryProblem, n: int) -> tuple[np.ndarray, np.ndarray]:
    """`n` random states: on-hand (negative allowed under backlog) and pipeline entries in 0..max_order."""
    p = problem
    low = 0 if p.lost_sales else -3 * p.max_inventory
    on_hand = np.array(draw(st.lists(st.integers(low, p.max_on_hand), min_size=n, max_size=n)))
    pipe = draw(st.lists(st.integers(0, p.max_order), min_size=n * p.lead_time, max_size=n * p.lead_time))
    return on_hand, np.array(pipe, dtype=np.int64).reshape(n, p.lead_time)


# ---------------------------------------------------------------- the period itself


@FAST
@given(data=st.data())
def test_period_follows_the_event_order_truncation_and_the_four_models(data) -> None:
    p = data.draw(problems())
    n = 8
    on_hand, pipe = data.draw(states(p, n))
    order = np.array(data.draw(st.lists(st.integers(-5, 3 * p.max_inventory), min_size=n, max_size=n)))
    demand = np.array(data.draw(st.lists(st.integers(0, 30), min_size=n, max_size=n)))
    t = data.draw(st.integers(0, p.time_horizon - 1))
    out = period(p, on_hand, pipe, order, demand, t)
    ip = on_hand + pipe.sum(axis=1)
    counted = on_hand + (
        pipe[:, 0] if p.capacity_basis is CapacityBasis.ON_HAND and p.lead_time else ip - on_hand
    )
    assert (counted == counted_stock(p, on_hand, pipe)).all()
    q = out.order
    assert (q >= 0).all() and (q <= p.max_order).all()
    assert ((counted + q <= p.max_inventory) | (q == 0)).all(), (
        "the counted stock after ordering respects the cap"
    )
    wanted = np.maximum(order, 0)
    assert (q <= wanted).all(), "truncation never raises an order"
    binds = (q == p.max_order) | (counted + q >= p.max_inventory)
    assert ((q == wanted) | binds).all(), "an order is cut only where a cap binds"
    arrived = q if p.lead_time == 0 else pipe[:, 0]
    assert (out.available == on_hand + arrived).all()
    expected_pipe = pipe if p.lead_time == 0 else np.column_stack([pipe[:, 1:], q])
    assert (out.next_pipeline == expected_pipe).all()
    left = out.available - demand
    expected = {
        (True, False): np.maximum(left, 0),
        (False, False): left,
        (True, True): np.zeros_like(left),
        (False, True): np.minimum(left, 0),
    }[(p.lost_sales, p.perishable)]
    assert (out.next_on_hand == expected).all()
    served = out.available >= 0
    assert (out.sales + out.shortage == demand)[served].all()
    assert (out.sales[~served] == 0).all() and (out.shortage == np.maximum(-left, 0)).all()
    assert (out.held == np.maximum(left, 0)).all()
    assert np.allclose(
        out.cost,
        p.setup_cost * (q > 0) + p.holding_cost * np.maximum(left, 0) + p.penalty_cost * np.maximum(-left, 0),
    )
    gated = period(p, on_hand, pipe, order, demand, t, cutoff=True)
    if cut_off(p, t):
        assert (gated.order == 0).all(), "no order that would arrive after the horizon"
    else:
        assert (gated.order == q).all()


def test_cutoff_rule_and_truncation_by_hand() -> None:
    p = InventoryProblem(
        time_horizon=10,
        demand=parse_demand("poisson(3)"),
        perishable=False,
        lost_sales=True,
        holding_cost=1,
        penalty_cost=2,
        setup_cost=3,
        lead_time=2,
        max_inventory=20,
        max_order=8,
    )
    assert [cut_off(p, t) for t in range(10)] == [False] * 8 + [True] * 2  # t + 2 > 9
    assert truncate_orders(p, np.array([-3, 5, 12, 12]), np.array([0, 0, 0, 15])).tolist() == [0, 5, 8, 5]
    assert next_on_hand(p, np.array([4, -1]), np.array([6, 0])).tolist() == [0, 0]


def test_environment_steps_are_period_calls() -> None:
    """The environment's transitions and infos are exactly `period` on its own demand draws."""
    for lost in (True, False):
        for perishable in (False, True):
            p = InventoryProblem(
                time_horizon=12,
                demand=parse_demand("poisson(6)"),
                perishable=perishable,
                lost_sales=lost,
                holding_cost=0.5,
                penalty_cost=2.83,
                setup_cost=3,
                lead_time=2,
                max_inventory=30,
                max_order=15,
            )
            env = InventoryControlEnv(p)
            obs, _ = env.reset(seed=5)
            rng = np.random.default_rng(0)
            for t in range(p.time_horizon):
                order = int(rng.integers(0, 25))
                before = obs.copy()
                obs, reward, done, _, info = env.step(order)
                out = period(p, before[:1], before[None, 2:], [order], [info["demand"]], t)
                assert info["order"] == out.order[0] and -reward == out.cost[0]
                assert obs[0] == out.next_on_hand[0] and obs[2:].tolist() == out.next_pipeline[0].tolist()
            assert done


# ---------------------------------------------------------------- the grid-search kernel


def _reference_totals(p, demand, rule, cutoff, start) -> np.ndarray:
    """Per-path (orders, held units, short units) by a loop of `period` calls with the generalised rule."""
    s, S, cap = rule
    n = demand.shape[0]
    on_hand = np.full(n, start[0], dtype=np.int64)
    pipe = np.tile(np.asarray(start[1], dtype=np.int64), (n, 1)).reshape(n, p.lead_time)
    tot = np.zeros((3, n))
    for t in range(p.time_horizon):
        ip = on_hand + pipe.sum(axis=1)
        want = np.where(ip < s, np.minimum(np.maximum(S - ip, 0), cap), 0)
        out = period(p, on_hand, pipe, want, demand[:, t], t, cutoff=cutoff)
        tot += [out.order > 0, out.held, out.shortage]
        on_hand, pipe = out.next_on_hand, out.next_pipeline
    return tot


@every_model_and_lead_time
@EACH
@given(data=st.data())
def test_grid_kernel_equals_a_loop_of_periods(lost: bool, perishable: bool, lead_time: int, data) -> None:
    p = data.draw(problems(lost=lost, perishable=perishable, lead_time=lead_time))
    m = p.max_inventory
    rules = [
        (
            data.draw(st.integers(0, m + 1)),
            data.draw(st.integers(0, m + 2)),
            data.draw(st.integers(0, p.max_order)),
        )
        for _ in range(3)
    ]
    n = 5
    demand = np.array(
        data.draw(st.lists(st.integers(0, 3 * m), min_size=n * p.time_horizon, max_size=n * p.time_horizon))
    ).reshape(n, p.time_horizon)
    start_state = data.draw(st.booleans())
    if start_state:
        on_hand, pipe = data.draw(states(p, 1))
        start = (int(on_hand[0]), tuple(int(x) for x in pipe[0]))
    else:
        start = (p.initial_inventory, (0,) * p.lead_time)
    cutoff = data.draw(st.booleans())
    dtype = _dtype(p, demand)
    cols = [np.array(c, dtype=np.int64)[:, None].astype(dtype) for c in zip(*rules, strict=True)]
    unit = {
        0: dict(setup_cost=1.0, holding_cost=0.0, penalty_cost=0.0),
        1: dict(setup_cost=0.0, holding_cost=1.0, penalty_cost=0.0),
        2: dict(setup_cost=0.0, holding_cost=0.0, penalty_cost=1.0),
    }
    for i, rule in enumerate(rules):
        ref = _reference_totals(p, demand, rule, cutoff, start)
        for k, costs in unit.items():  # each cost component on its own: orders, held units, short units
            q = dataclasses.replace(p, **costs)
            got = _chunk(q, demand, *cols, cutoff, dtype, start=start if start_state else None)
            assert got[i].tolist() == ref[k].tolist(), (rule, k)
        full = _chunk(p, demand, *cols, cutoff, dtype, start=start if start_state else None)
        expected = p.setup_cost * ref[0] + p.holding_cost * ref[1] + p.penalty_cost * ref[2]
        assert full[i] == pytest.approx(expected, rel=1e-12, abs=1e-12)


# ---------------------------------------------------------------- the exact DP


@every_model_and_lead_time
@EACH
@given(data=st.data())
def test_dp_q_values_equal_expected_period_cost_plus_next_value(
    lost: bool, perishable: bool, lead_time: int, data
) -> None:
    p = data.draw(problems(lost=lost, perishable=perishable, lead_time=lead_time, demand_values=6))
    if p.lead_time >= 2:  # keep the state grid small: (max_order + 1)^L pipelines
        p = dataclasses.replace(p, max_order=min(p.max_order, 6 if p.lead_time == 2 else 4))
    m = _Model(p)
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    v_next = rng.normal(0, 10, m.on_hand.shape)
    n_states, n_q, n_d = m.on_hand.size, m.n_q, len(m.values)
    got = m.q_values(v_next).reshape(n_states, n_q)  # Q[(I - lo, x1..xL), q]
    on_hand = m.on_hand.ravel()
    pipe = m.pipeline.reshape(n_states, p.lead_time)
    # every (state, order, demand) triple at once
    i = np.repeat(np.arange(n_states), n_q * n_d)
    q = np.tile(np.repeat(np.arange(n_q), n_d), n_states)
    d = np.tile(m.values, n_states * n_q)
    out = period(p, on_hand[i], pipe[i], q, d)
    feasible = counted_stock(p, on_hand[i], pipe[i]) + q <= p.max_inventory  # the DP's action set
    if p.capacity_basis is CapacityBasis.ON_HAND:
        # on-hand above the capacity is reachable there: such states order nothing
        feasible |= (q == 0) & (on_hand[i] + pipe[i].sum(axis=1) <= p.max_on_hand)
    assert (out.order == q)[feasible].all(), "the period does not truncate the DP's feasible orders"
    # backlog states at the bottom of the grid would fall below it; no path reaches them (see dp.py)
    inside = out.next_on_hand >= m.lo
    check = (feasible & inside).reshape(n_states, n_q, n_d).all(axis=-1)
    assert check.any()
    rows = np.clip(out.next_on_hand - m.lo, 0, m.n_on_hand - 1)  # only unchecked (unreachable) rows clip
    nxt = v_next[(rows, *out.next_pipeline.T)] if p.lead_time else v_next[rows]
    expected = ((out.cost + nxt) * np.tile(m.probs, n_states * n_q)).reshape(n_states, n_q, n_d).sum(-1)
    assert np.allclose(got[check], expected[check], rtol=1e-10, atol=1e-9)
    assert np.isinf(got[~feasible.reshape(n_states, n_q, n_d)[..., 0]]).all(), "the DP refuses other orders"
