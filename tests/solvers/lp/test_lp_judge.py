"""The strict judge: Table 8's checks plus the demand link and the plan replay, read from the solution only."""

from __future__ import annotations

import numpy as np
import pytest

from solvers.lp.dataset import Problem
from solvers.lp.edits import apply_edits
from solvers.lp.errortypes import ErrorType
from solvers.lp.instance import SupplyChain
from solvers.lp.model import build_supply_chain
from solvers.lp.oracle import (
    LINK_TOL,
    Judge,
    Limits,
    check_demand_link,
    demand_link,
    judge,
    plan_replay,
    simulate,
    strict_refusal,
)


def _chain() -> SupplyChain:
    return SupplyChain(
        holding=(4.0, 2.0, 1.0),
        backorder=(20.0, 10.0, 5.0),
        capacity=None,
        lead_time=(1, 1, 1),
        initial_inventory=(0.0, 0.0, 0.0),
        demand=(80.0, 120.0, 100.0, 90.0, 110.0, 100.0),
    )


def _decoupled(sc: SupplyChain, echelon: int):
    """The offline agent's paper-grammar 'repair': the whole demand_prop family of one echelon dropped."""
    model = build_supply_chain(sc)
    model.drop_rows(model.rows_matching(f"demand_prop_e{echelon}"))
    return model


def test_demand_link_on_arrays_tolerance_and_single_echelon() -> None:
    rng = np.random.default_rng(0)
    orders = rng.uniform(50, 150, size=(3, 6))
    seen = np.zeros_like(orders)
    seen[1:] = orders[:-1]
    ok, gap, _ = check_demand_link(seen, orders, 100.0)
    assert ok and gap == 0.0
    seen[2, 4] += 0.5 * LINK_TOL * 100.0  # within tolerance
    assert check_demand_link(seen, orders, 100.0)[0]
    seen[2, 4] += 2 * LINK_TOL * 100.0
    ok, gap, msg = check_demand_link(seen, orders, 100.0)
    assert not ok and gap == pytest.approx(2.5 * LINK_TOL * 100.0)
    assert "echelon 3 in period 5" in msg and "echelon 2 orders" in msg
    assert check_demand_link(seen[:1], orders[:1], 100.0)[0]


def test_decoupled_chain_paper_accepts_strict_refuses() -> None:
    sc = _chain()
    for echelon in (2, 3):
        model = _decoupled(sc, echelon)
        assert judge(model, sc, error_type=ErrorType.ME8, kind=Judge.PAPER)
        assert not judge(model, sc, error_type=ErrorType.ME8, kind=Judge.STRICT)
        link = demand_link(model, sc)
        assert link is not None and not link[0] and f"echelon {echelon} in period" in link[2]


def test_exact_repair_passes_both_judges() -> None:
    sc = _chain()
    model = build_supply_chain(sc)
    for kind in Judge:
        assert judge(model, sc, error_type=ErrorType.ME8, kind=kind)
    link = demand_link(model, sc)
    assert link is not None and link[0]


def test_ground_truth_replay_passes_the_strict_judge(small_problems: list[Problem]) -> None:
    assert {p.error_type for p in small_problems} == set(ErrorType)
    for p in small_problems:
        model = p.build()
        apply_edits(model, p.gt_edits)
        assert judge(model, p.supply_chain, error_type=p.error_type, kind=Judge.STRICT, limits=p.limits), p.id
        assert strict_refusal(model, p.supply_chain, p.limits) is None, p.id


def test_ground_truth_episode_is_exact_and_strict(small_problems: list[Problem]) -> None:
    """The replayed fix (through the environment, which ends Phase I at the first OPTIMAL) is complete."""
    from core.repair.evaluate import run_offline

    rows = run_offline(small_problems, "ground-truth", extended=True)
    for row in rows:
        assert row["rational_strict"] and row["exact_repair"], row["problem_id"]


def test_simulate_serial_chain_by_hand() -> None:
    sc = SupplyChain(
        holding=(2.0, 1.0),
        backorder=(10.0, 5.0),
        capacity=None,
        lead_time=(1, 2),
        initial_inventory=(5.0, 0.0),
        demand=(10.0, 10.0, 10.0),
    )
    orders = np.array([[10.0, 10.0, 0.0], [0.0, 20.0, 0.0]])
    on_hand, back = simulate(sc, orders)
    # retailer: 5-10 = -5; -5+10-10 = -5; -5+10-10 = -5 ; echelon 2 serves the retailer's orders, lead 2
    assert back[0].tolist() == [5.0, 5.0, 5.0] and on_hand[0].tolist() == [0.0, 0.0, 0.0]
    assert back[1].tolist() == [10.0, 20.0, 20.0]


def _replay_refuses(model, sc: SupplyChain, etype: ErrorType = ErrorType.ME8) -> str:
    """The hand-built plan passes the paper judge and the demand link, and the replay alone refuses it."""
    limits = Limits()
    assert judge(model, sc, error_type=etype, kind=Judge.PAPER)
    link = demand_link(model, sc)
    assert link is not None and link[0]
    replay = plan_replay(model, sc, limits)
    assert replay is not None and not replay.passed
    assert not judge(model, sc, error_type=etype, kind=Judge.STRICT, limits=limits)
    return replay.message


def test_replay_refuses_phantom_stock() -> None:
    """A balance target moved so stock appears from nowhere (the protected-row loophole an RHS edit opens)."""
    sc = _chain()
    model = build_supply_chain(sc)
    model.set_row_bounds("inv_balance_e1_t2", -120.0 + 300.0, -120.0 + 300.0)
    message = _replay_refuses(model, sc)
    assert "echelon 1 in period 2" in message and "replayed through the stated chain" in message


def test_replay_refuses_a_coefficient_fix() -> None:
    """Arrivals scaled by 1.5 ("fixing" infeasibility by a coefficient) no longer match the stated lead-time flow."""
    sc = _chain()
    model = build_supply_chain(sc)
    for t in range(2, sc.n_periods + 1):
        model.set_coef(f"inv_balance_e2_t{t}", f"x_e2_t{t - 1}", -1.5)
    message = _replay_refuses(model, sc)
    assert "echelon 2" in message


def test_replay_refuses_a_cost_fix_and_a_broken_limit() -> None:
    sc = _chain()
    model = build_supply_chain(sc)
    for t in range(1, sc.n_periods + 1):
        model.set_cost(f"B_e1_t{t}", 15.0)  # plan unchanged, objective no longer the stated cost
    assert "objective" in _replay_refuses(model, sc, ErrorType.ME6)  # ME-6: Table 8 checks smoothing only
    exact = build_supply_chain(sc)
    caps = tuple(tuple(0.0 for _ in range(sc.n_periods)) for _ in range(sc.n_echelons))
    replay = plan_replay(exact, sc, Limits(caps, None))
    assert replay is not None and not replay.passed and "backorder limit" in replay.message
    replay = plan_replay(exact, sc, Limits((), 1.0))
    assert replay is not None and not replay.passed and "factory supply cap" in replay.message


def test_replay_refuses_the_decoupled_chain_and_passes_the_exact_plan() -> None:
    sc = _chain()
    decoupled = _decoupled(sc, 2)
    replay = plan_replay(decoupled, sc, Limits())
    assert replay is not None and not replay.passed
    exact = build_supply_chain(sc)
    replay = plan_replay(exact, sc, Limits())
    assert replay is not None and replay.passed and replay.gap < 1e-6
    assert strict_refusal(exact, sc, Limits()) is None
