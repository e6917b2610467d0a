"""Saboteur, verification, ground truth and the data-set generator (acceptance checks 2, 3, 5)."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from core.errors import SpecError
from solvers.lp.actions import apply_action
from solvers.lp.dataset import Problem, generate
from solvers.lp.edits import apply_edits
from solvers.lp.errortypes import IN_AGENT_GRAMMAR, TITLES, ErrorType
from solvers.lp.instance import sample_supply_chain
from solvers.lp.model import LPStatus, build_supply_chain
from solvers.lp.oracle import Check, evaluate
from solvers.lp.saboteur import TighteningConfig, build_tightened, calibrate, inject

from .conftest import SMALL_COUNTS


def test_counts_split_and_disjoint_sources(small_problems: list[Problem]) -> None:
    assert len(small_problems) == sum(a + b for a, b in SMALL_COUNTS.values())
    for e, (train, test) in SMALL_COUNTS.items():
        assert sum(p.error_type is e and p.split == "train" for p in small_problems) == train
        assert sum(p.error_type is e and p.split == "test" for p in small_problems) == test
    train_src = {p.source for p in small_problems if p.split == "train"}
    test_src = {p.source for p in small_problems if p.split == "test"}
    assert not train_src & test_src
    assert len({p.id for p in small_problems}) == len(small_problems)


def test_sabotaged_models_fail_and_ground_truth_repairs(small_problems: list[Problem]) -> None:
    for p in small_problems:
        m = p.build()
        if p.error_type is ErrorType.ME5:
            assert m.solve().status is LPStatus.OPTIMAL
            report = evaluate(m, p.supply_chain, error_type=p.error_type)
            assert not report.passed and report.failures()[0].check is Check.COST_CONSISTENCY
            assert p.iis0 == ()
        else:
            assert m.solve().status is LPStatus.INFEASIBLE, p.id
            assert p.iis0, p.id
        apply_edits(m, p.gt_edits)
        assert m.solve().status is LPStatus.OPTIMAL, p.id
        assert evaluate(m, p.supply_chain, error_type=p.error_type).passed, p.id
        assert p.gt_in_agent_grammar == (p.error_type in IN_AGENT_GRAMMAR)


def test_ground_truth_actions_replay_like_the_edits(small_problems: list[Problem]) -> None:
    for p in small_problems:
        by_edits = p.build()
        apply_edits(by_edits, p.gt_edits)
        by_actions = p.build()
        for action in p.gt_actions:
            apply_action(by_actions, action, protected=True, extended=True)
        assert by_actions.solve().objective == pytest.approx(by_edits.solve().objective, rel=1e-9), p.id
        uses_coef = any(a.name.value == "UPDATE_COEF" for a in p.gt_actions)
        assert uses_coef == (p.error_type not in IN_AGENT_GRAMMAR)


def test_description_lists_parameters_and_never_names_the_error(small_problems: list[Problem]) -> None:
    for p in small_problems:
        text = p.description.lower()
        assert "me-" not in text
        for title in TITLES.values():
            assert title.lower() not in text
        for word in ("sabot", "error", "inject", "wrong", "bug"):
            assert word not in text
        assert f"{p.supply_chain.holding[0]:g}" in p.description
        assert f"{p.supply_chain.demand[0]:g}" in p.description


def test_generation_is_deterministic_and_round_trips_json() -> None:
    counts = {ErrorType.ME3: (1, 1), ErrorType.ME9: (1, 0)}
    a, _ = generate(seed=11, counts=counts)
    b, _ = generate(seed=11, counts=counts)
    assert [p.to_dict() for p in a] == [p.to_dict() for p in b]
    again = [Problem.from_dict(json.loads(json.dumps(p.to_dict()))) for p in a]
    assert [p.to_dict() for p in again] == [p.to_dict() for p in a]
    assert again[0].build().solve().status is LPStatus.INFEASIBLE


@pytest.mark.parametrize(
    "error_type", [ErrorType.ME1, ErrorType.ME2, ErrorType.ME4, ErrorType.ME7, ErrorType.ME8]
)
def test_tightening_is_what_makes_sabotage_infeasible(error_type: ErrorType) -> None:
    """Acceptance check 3: without the caps, backorders absorb the injection and the LP stays OPTIMAL."""
    for seed in range(4):
        rng = np.random.default_rng([99, seed])
        sc = sample_supply_chain(rng)
        base = build_supply_chain(sc)
        base.solve()
        tight = calibrate(sc, base)
        sab = inject(error_type, sc, tight, rng)
        loose = build_tightened(sc, calibrate(sc, base, TighteningConfig(enabled=False)))
        apply_edits(loose, sab.edits)
        assert loose.solve().status is LPStatus.OPTIMAL
        capped = build_tightened(sc, tight)
        apply_edits(capped, sab.edits)
        assert capped.solve().status is LPStatus.INFEASIBLE


def test_discard_stats_are_reported() -> None:
    _problems, stats = generate(seed=3, counts={ErrorType.ME1: (2, 1), ErrorType.ME7: (1, 1)})
    data = stats.to_dict()
    assert data["kept"] == {"ME-1": 3, "ME-7": 2}
    for key, rate in data["discard_rate"].items():
        attempts = data["attempts"][key]
        assert rate == pytest.approx(1 - data["kept"][key] / attempts, abs=1e-4)


def test_one_error_type_per_source_by_default_and_multi_as_an_option() -> None:
    """Mix.SINGLE: every source instance yields one problem; Mix.MULTI (the earlier set) may yield several."""
    from solvers.lp.dataset import Mix

    counts = {e: (3, 2) for e in ErrorType}
    single, _ = generate(seed=5, counts=counts)
    assert len(single) == 50 and len({p.source for p in single}) == 50
    assert {p.details["mix"] for p in single} == {"single"}
    multi, _ = generate(seed=5, counts=counts, mix=Mix.MULTI)
    assert len(multi) == 50 and len({p.source for p in multi}) < 50
    for split in ("train", "test"):  # no source in both splits, either way
        other = "test" if split == "train" else "train"
        for problems in (single, multi):
            assert not {p.source for p in problems if p.split == split} & {
                p.source for p in problems if p.split == other
            }


def test_stored_iis_is_highs_getiis_and_irreducible(small_problems: list[Problem]) -> None:
    """The data set's IIS is HiGHS's own (sizes compare with Table 12); the live environment keeps its routine."""
    from solvers.lp.dataset import stored_iis

    for p in small_problems:
        if p.error_type is ErrorType.ME5:
            assert p.iis0 == ()
            continue
        assert p.details["iis0_method"] == "highs getIis"
        model = p.build()
        highs = model.iis(method="highs")
        assert p.iis0 == tuple(m.label() for m in highs.rows + highs.bounds) == tuple(
            m.label() for m in stored_iis(model).rows + stored_iis(model).bounds
        )


def test_me3_is_a_wrong_balance_target_not_a_new_row(small_problems: list[Problem]) -> None:
    """Table 7: ME-3 forces I - B below the reachable minimum through an inv_balance target; no row is added."""
    from solvers.lp.actions import Action, ActionName
    from solvers.lp.diff import diff_models

    for p in (q for q in small_problems if q.error_type is ErrorType.ME3):
        n, t = p.details["echelon"], p.details["period"]
        row = f"inv_balance_e{n}_t{t}"
        assert t <= p.supply_chain.lead_time[n - 1]
        model = p.build()
        fixed = p.build()
        apply_edits(fixed, p.gt_edits)
        diff = diff_models(fixed, model)
        assert not diff.added_rows and not diff.removed_rows and [r for r, *_ in diff.row_bounds] == [row]
        assert model.solve().status is LPStatus.INFEASIBLE and row in p.iis0
        with pytest.raises(SpecError):  # a protected family cannot be re-set as a whole, nor dropped
            apply_action(model, Action(ActionName.UPDATE_RHS, f"inv_balance_e{n}", 0.0))
        with pytest.raises(SpecError):
            apply_action(model, Action(ActionName.DROP_CONSTRAINT, row))
        apply_action(model, Action(ActionName.UPDATE_RHS, row, p.details["stated"]))
        assert diff_models(fixed, model, tol=1e-9).empty


def _me3_text(sc, tight, n: int, t: int, extra: float) -> str:
    """The ME-3 injection's LP text (as `inject` writes it) at echelon n, period t, with the drawn extra (u × d̄)."""
    from solvers.lp.edits import bounds_edit
    from solvers.lp.saboteur import balance_rhs

    reachable = sc.initial_inventory[n - 1] - (sum(sc.demand[:t]) if n == 1 else 0.0)
    target = round(balance_rhs(sc, n, t) - (reachable + tight.backorder_caps[n - 1][t - 1] + extra), 2)
    model = build_tightened(sc, tight)
    apply_edits(model, (bounds_edit(f"inv_balance_e{n}_t{t}", target, target),))
    return model.to_text("lp")


def test_me3_model_only_twins_same_lp_text_different_true_targets(small_problems: list[Problem]) -> None:
    """Why model-only ME-3 cannot be met on opening-stock and demand targets (docs/lp_repair.md): the lowered
    target is -(cap + extra) [- the earlier periods' visible targets], so the true opening stock or demand cancels
    out. Two chains that differ only there, with the same limits, give the identical LP text, and both true
    models are feasible: no reading of the LP text alone can tell their targets apart."""
    from solvers.lp.saboteur import balance_rhs

    p = next(q for q in small_problems if q.error_type is ErrorType.ME3)
    sc, tight = p.supply_chain, p.tightening
    cases = [(1, 1), (2, 1)] + ([(1, 2)] if sc.lead_time[0] >= 2 else [])
    for n, t in cases:
        if t == 1:
            init = list(sc.initial_inventory)
            init[n - 1] += 10.0  # more opening stock: never fewer feasible plans
            twin = dataclasses.replace(sc, initial_inventory=tuple(init))
        else:
            demand = list(sc.demand)
            demand[t - 1] = round(demand[t - 1] / 2, 2)  # less demand in that period: likewise
            twin = dataclasses.replace(sc, demand=tuple(demand))
        assert balance_rhs(twin, n, t) != balance_rhs(sc, n, t)
        assert _me3_text(twin, tight, n, t, 17.5) == _me3_text(sc, tight, n, t, 17.5), (n, t)
        assert build_tightened(twin, tight).solve().status is LPStatus.OPTIMAL
        assert build_tightened(sc, tight).solve().status is LPStatus.OPTIMAL
    # the check can fail: an upstream later-period target (true value 0) does depend on the opening stock
    init = list(sc.initial_inventory)
    init[1] += 10.0
    twin = dataclasses.replace(sc, initial_inventory=tuple(init))
    assert _me3_text(twin, tight, 2, 2, 17.5) != _me3_text(sc, tight, 2, 2, 17.5)


def test_me3_new_row_option_keeps_the_earlier_injection() -> None:
    from solvers.lp.saboteur import SABOTAGE

    rng = np.random.default_rng([5, 1])
    sc = sample_supply_chain(rng)
    base = build_supply_chain(sc)
    base.solve()
    tight = calibrate(sc, base)
    old = inject(ErrorType.ME3, sc, tight, rng, dataclasses.replace(SABOTAGE, me3_new_row=True))
    assert old.edits[0].op.value == "ADD_ROW" and old.edits[0].row.startswith("net_inventory_e")


def test_me10_fix_never_feasible_before_its_last_action() -> None:
    """Removing the shifted term first can leave d = offset (a feasible, decoupled model): Phase I would end there.

    Source 6 of seed 31 is such a case: the stored order (same-period link first) is accepted, the earlier
    order (shifted term first) is discarded by `verify`.
    """
    from solvers.lp.dataset import verify

    rng = np.random.default_rng([31, 6])
    sc = sample_supply_chain(rng)
    base = build_supply_chain(sc)
    base.solve()
    tight = calibrate(sc, base)
    sab = inject(ErrorType.ME10, sc, tight, rng)
    tightened = build_tightened(sc, tight)
    link, unshift, offset = sab.gt_actions
    assert link.lag == 0 and link.value == -1.0 and unshift.value == 0.0 and offset.name.value == "UPDATE_RHS"
    partial = tightened.copy()
    apply_edits(partial, sab.edits)
    apply_action(partial, unshift, extended=True)
    assert partial.solve().status is LPStatus.OPTIMAL  # the trap
    assert verify(tightened, sc, sab.edits, sab.gt_edits, ErrorType.ME10, sab.gt_actions)[0] is None
    earlier = (unshift, link, offset)
    reason, _ = verify(tightened, sc, sab.edits, sab.gt_edits, ErrorType.ME10, earlier)
    assert reason == "fix feasible before its last action"
