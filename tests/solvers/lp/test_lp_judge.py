"""The strict judge: Table 8's checks plus the demand link between echelons, read from the solution only."""

from __future__ import annotations

import numpy as np
import pytest

from solvers.lp.dataset import Problem
from solvers.lp.edits import apply_edits
from solvers.lp.errortypes import ErrorType
from solvers.lp.instance import SupplyChain
from solvers.lp.model import build_supply_chain
from solvers.lp.oracle import LINK_TOL, Judge, check_demand_link, demand_link, judge


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
        assert judge(model, p.supply_chain, error_type=p.error_type, kind=Judge.STRICT), p.id
