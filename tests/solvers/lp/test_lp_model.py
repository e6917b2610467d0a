"""The supply-chain LP: generator ranges, names, in-place edits, slack, IIS irreducibility by deletion."""

from __future__ import annotations

import math

import numpy as np
import pytest

from core.errors import SpecError
from solvers.lp.iischeck import is_irreducible_iis, members_infeasible
from solvers.lp.instance import sample_supply_chain
from solvers.lp.model import LPModel, LPStatus, build_supply_chain, family_of, matching
from solvers.lp.saboteur import build_tightened, calibrate


def _chain(seed: int, **kw):
    return sample_supply_chain(np.random.default_rng(seed), **kw)


@pytest.mark.parametrize("seed", range(12))
def test_generator_ranges_and_tightened_model_stays_optimal(seed: int) -> None:
    sc = _chain(seed)
    assert sc.n_echelons in (2, 3, 4, 5) and sc.n_periods in (12, 16, 20, 24)
    assert list(sc.holding) == sorted(sc.holding, reverse=True)
    for h, b in zip(sc.holding, sc.backorder, strict=True):
        assert 1 <= h <= 10 and 5 <= b <= 50
        assert 2 - 1e-6 <= b / h <= 10 + 0.01
    assert all(lead in (1, 2, 3) for lead in sc.lead_time)
    assert sc.mean_demand * 2 >= 50 or sc.pattern.value != "stationary"
    base = build_supply_chain(sc)
    assert base.solve().status is LPStatus.OPTIMAL
    tightened = build_tightened(sc, calibrate(sc, base))
    result = tightened.solve()
    assert result.status is LPStatus.OPTIMAL
    assert result.objective == pytest.approx(base.solve().objective, rel=1e-7)


def test_names_and_sizes() -> None:
    sc = _chain(3, n_echelons=3, n_periods=12)
    m = build_supply_chain(sc)
    n_rows = 3 * 12 + 2 * 12 + (3 * 12 if sc.capacitated else 0)
    assert m.num_rows == n_rows
    assert m.num_cols == 3 * 3 * 12 + 2 * 12
    for name in ("inv_balance_e1_t3", "demand_prop_e2_t5", "x_e1_t3", "I_e3_t12", "d_e3_t1"):
        assert m.has_row(name) or m.has_col(name)
    assert family_of("capacity_e1_t10") == "capacity_e1"
    assert matching(["capacity_e1_t1", "capacity_e1_t10", "capacity_e11_t1"], "capacity_e1") == [
        "capacity_e1_t1",
        "capacity_e1_t10",
    ]
    assert matching(["capacity_e1_t1", "capacity_e1_t10"], "capacity_e1_t1") == ["capacity_e1_t1"]


def test_edits_keep_name_lookups_right_after_deletions_and_additions() -> None:
    sc = _chain(5, n_echelons=2, n_periods=12)
    m = build_supply_chain(sc)
    later = "demand_prop_e2_t7"
    m.drop_rows(["inv_balance_e1_t2", "inv_balance_e2_t5"])
    m.add_row("extra_t1", -math.inf, 123.0, {"x_e1_t1": 1.0})
    m.set_row_bounds(later, 4.0, 4.0)
    lp = m.h.getLp()
    i = list(lp.row_names_).index(later)
    assert (lp.row_lower_[i], lp.row_upper_[i]) == (4.0, 4.0)
    assert m.row_bounds("extra_t1") == (-math.inf, 123.0)
    assert list(lp.row_names_) == m.row_names
    assert m.row_coefs(later) == {"d_e2_t7": 1.0, "x_e1_t7": -1.0}
    m.set_coef(later, "x_e1_t7", -2.0)
    assert m.coef(later, "x_e1_t7") == -2.0
    with pytest.raises(SpecError):
        m.row_index("inv_balance_e1_t2")


def test_cost_bounds_slack_and_text_round_trip() -> None:
    sc = _chain(11, n_echelons=2, n_periods=12)
    m = build_supply_chain(sc)
    m.set_cost("I_e1_t1", 99.0)
    assert m.cost("I_e1_t1") == 99.0
    m.set_col_bounds("x_e1_t2", 1.0, 5.0)
    assert m.col_bounds("x_e1_t2") == (1.0, 5.0)
    assert m.solve().status is LPStatus.OPTIMAL
    s = m.slack("inv_balance_e1_t3")
    assert s.sense == "==" and s.slack == pytest.approx(0.0) and s.activity == pytest.approx(s.lower)
    again = LPModel.from_text(m.to_text("mps"), "mps")
    assert again.solve().objective == pytest.approx(m.solve().objective, rel=1e-9)
    assert set(again.row_names) == set(m.row_names)


@pytest.mark.parametrize("method", ["ray", "highs"])
def test_iis_is_infeasible_and_irreducible_by_deletion(small_problems, method: str) -> None:
    # a few small-IIS types here; bench/lp_repair.py verifies up to 50 problems of every type
    types = {"ME-1", "ME-3", "ME-4", "ME-6"} if method == "ray" else {"ME-3", "ME-9"}
    checked = 0
    for p in small_problems:
        if p.error_type.value not in types:
            continue
        m = p.build()
        iis = m.iis(method)
        assert not iis.empty
        assert members_infeasible(m, iis)
        n_members = len(iis.rows) + len(iis.bounds)
        for k in range(n_members):
            assert not members_infeasible(m, iis, skip=k), f"{p.id}: member {k} is redundant"
        assert is_irreducible_iis(m, iis)
        checked += 1
    assert checked == 2 * len(types)


def test_iis_empty_on_feasible_model() -> None:
    m = build_supply_chain(_chain(2))
    assert m.iis().empty
