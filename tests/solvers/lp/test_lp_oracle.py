"""Rationality oracle: Appendix C thresholds at their boundaries, guards, and Table 8 cell by cell."""

from __future__ import annotations

import numpy as np
import pytest

from solvers.lp.errortypes import ErrorType
from solvers.lp.instance import SupplyChain
from solvers.lp.oracle import (
    APPLICABILITY,
    Check,
    check_allocation,
    check_base_stock,
    check_bullwhip,
    check_cost,
    check_smoothing,
    evaluate_plan,
)


def _sc(holding=(4.0, 2.0), demand=(100.0, 100.0, 100.0, 100.0)) -> SupplyChain:
    n = len(holding)
    return SupplyChain(
        holding=tuple(holding),
        backorder=tuple(5 * h for h in holding),
        capacity=None,
        lead_time=(1,) * n,
        initial_inventory=(0.0,) * n,
        demand=tuple(demand),
    )


def _series_with_cv(cv: float) -> np.ndarray:
    """Two-point series mean 1 +- cv (population std = cv, mean = 1): CV is exactly `cv`."""
    return np.array([1.0 + cv, 1.0 - cv] * 3)


def test_base_stock_boundary() -> None:
    ok, value, _ = check_base_stock(np.array([_series_with_cv(2.0), np.full(6, 5.0)]))
    assert value == pytest.approx(2.0) and ok
    ok, value, msg = check_base_stock(np.array([np.full(6, 5.0), _series_with_cv(2.01)]))
    assert value == pytest.approx(2.01) and not ok and "echelon 2" in msg and "at most 2" in msg


def test_base_stock_zero_mean_guard() -> None:
    ok, value, msg = check_base_stock(np.zeros((2, 6)))
    assert ok and value is None and "skipped" in msg


def _orders_with_bwr(ratio: float, demand: np.ndarray) -> np.ndarray:
    scale = np.sqrt(ratio)
    centred = demand - demand.mean()
    return np.vstack([demand, demand.mean() + scale * centred])


def test_bullwhip_boundary_and_zero_variance_guard() -> None:
    demand = np.array([80.0, 120.0, 80.0, 120.0])
    ok, value, _ = check_bullwhip(_orders_with_bwr(3.0, demand), demand)
    assert value == pytest.approx(3.0) and ok
    ok, value, msg = check_bullwhip(_orders_with_bwr(3.01, demand), demand)
    assert value == pytest.approx(3.01) and not ok and "3" in msg
    ok, value, msg = check_bullwhip(np.ones((2, 4)), np.full(4, 100.0))
    assert ok and value is None and "skipped" in msg


def test_allocation_boundary() -> None:
    d_bar = 100.0
    inv = np.array([[25.0] * 4, [0.0] * 4])
    ok, value, _ = check_allocation(inv, d_bar)
    assert ok and value == pytest.approx(0.25)
    inv[0] += 0.01
    ok, value, msg = check_allocation(inv, d_bar)
    assert not ok and "0.25" in msg
    inv[1] += 1.0  # upstream holds something: not "≈ 0"
    assert check_allocation(inv, d_bar)[0]


def test_cost_consistency_boundary_and_coefficients() -> None:
    assert check_cost(_sc(holding=(2.0, 2.02)), None)[0]  # h2 = 1.01 h1: within tolerance
    ok, _value, msg = check_cost(_sc(holding=(2.0, 2.04)), None)  # h2 = 1.02 h1
    assert not ok and "h_2" in msg
    sc = _sc()
    costs = {f"I_e1_t{t}": 4.0 for t in range(1, 5)} | {f"B_e1_t{t}": 20.0 for t in range(1, 5)}
    assert check_cost(sc, costs)[0]
    costs["I_e1_t3"] = 3.0
    ok, value, msg = check_cost(sc, costs)
    assert not ok and value == 3.0 and "I_e1_t3" in msg and "4" in msg


def test_order_smoothing_boundary_and_guard() -> None:
    def orders(jump: float) -> np.ndarray:
        # ten periods with mean 1: nine at 1 - jump/10 and the last one `jump` higher
        row = np.full(10, 1.0 - jump / 10)
        row[-1] += jump
        return np.array([row])

    ok, value, _ = check_smoothing(orders(4.99))
    assert value == pytest.approx(4.99) and ok
    ok, value, msg = check_smoothing(orders(5.0))
    assert value == pytest.approx(5.0) and not ok and "below 5" in msg
    ok, value, msg = check_smoothing(np.zeros((1, 5)))
    assert ok and value is None and "skipped" in msg


TABLE_8 = {
    # base-stock, bullwhip, inventory allocation, cost consistency, order smoothing
    "ME-1": "✓–✓✓–",
    "ME-2": "✓–✓✓–",
    "ME-3": "✓–✓✓–",
    "ME-4": "✓–✓✓–",
    "ME-5": "–––✓–",
    "ME-6": "––––✓",
    "ME-7": "–––✓–",
    "ME-8": "–––✓–",
    "ME-9": "✓–✓✓–",
    "ME-10": "✓–✓✓–",
}
ORDER = [
    Check.BASE_STOCK,
    Check.BULLWHIP,
    Check.INVENTORY_ALLOCATION,
    Check.COST_CONSISTENCY,
    Check.ORDER_SMOOTHING,
]


@pytest.mark.parametrize("error_type", list(ErrorType))
def test_applicability_map_equals_table_8(error_type: ErrorType) -> None:
    row = TABLE_8[error_type.value]
    for check, mark in zip(ORDER, row, strict=True):
        assert (check in APPLICABILITY[error_type]) == (mark == "✓"), (error_type, check)


def test_deployable_mode_applies_every_check_and_feedback_names_value_and_threshold() -> None:
    sc = _sc(demand=(80.0, 120.0, 80.0, 120.0, 80.0, 120.0))
    inventory = np.array([[200.0, 0, 0, 0, 0, 0], [0.0] * 6])
    orders = np.array([[0.0, 300.0, 0.0, 0.0, 0.0, 0.0], [0.0] * 6])
    report = evaluate_plan(sc, inventory=inventory, orders=orders, costs=None, error_type=None)
    assert all(r.applicable for r in report.results)
    failed = {r.check for r in report.failures()}
    assert failed == {Check.BASE_STOCK, Check.INVENTORY_ALLOCATION, Check.ORDER_SMOOTHING}
    text = report.feedback()
    assert "Base-stock structure violated" in text and "threshold" in text
    typed = evaluate_plan(sc, inventory=inventory, orders=orders, costs=None, error_type=ErrorType.ME7)
    assert typed.passed
