"""Infeasibility analysis: irreducible conflicts and relaxations, checked by brute force."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from solvers.schedule.data import sfusd_district
from solvers.schedule.diagnose import conflicting_constraints, diagnose_infeasibility
from solvers.schedule.model import ScheduleSpec, solve_schedule


def test_figure_10_everett_conflict_and_alternatives():
    spec = ScheduleSpec(
        sfusd_district(),
        fixed=(("Everett MS", 570),),
        forbidden=(("Cobb (Dr William L) ES", 470),),
        max_deviation=12,
    )
    report = diagnose_infeasibility(spec)
    assert set(report.conflicts) == {"fix_start_time[Everett MS=9:30 AM]", "upper_bound[schedule_deviation]"}
    raise_bound = next(r for r in report.relaxations if r.action == "raise_bound")
    assert raise_bound.value == pytest.approx(16.5)
    moves = {r.description for r in report.relaxations if r.action == "change_time"}
    assert "start Everett MS at 8:40 AM instead" in moves
    for relaxation in report.relaxations:
        assert relaxation.deviation <= 16.5 + 1e-9


def test_feasible_spec_has_no_conflicts():
    assert conflicting_constraints(ScheduleSpec(sfusd_district(), max_load=26)) == ()


@pytest.mark.parametrize("seed", range(6))
def test_conflicts_are_irreducible_by_brute_force(seed, brute):
    district = sfusd_district()
    enumeration = brute(district)
    rng = np.random.default_rng(seed)
    names = district.names
    spec = ScheduleSpec(
        district,
        fixed=tuple((names[int(q)], 570) for q in rng.choice(10, size=2, replace=False)),
        forbidden=tuple((names[int(q)], 470) for q in rng.choice(10, size=3, replace=False)),
        max_load=float(rng.uniform(20, 24)),
        max_deviation=float(rng.uniform(9, 14)),
    )
    conflicts = conflicting_constraints(spec)
    feasible = enumeration.feasible(spec).any()
    assert (conflicts == ()) == feasible
    if feasible:
        return

    def keep(names_kept):
        return replace(
            spec,
            fixed=tuple(f for f in spec.fixed if f"fix_start_time[{f[0]}=9:30 AM]" in names_kept),
            forbidden=tuple(f for f in spec.forbidden if f"forbid_start_time[{f[0]}=7:50 AM]" in names_kept),
            max_load=spec.max_load if "upper_bound[student_load_balancing]" in names_kept else None,
            max_deviation=spec.max_deviation if "upper_bound[schedule_deviation]" in names_kept else None,
        )

    assert not enumeration.feasible(keep(set(conflicts))).any()
    for member in conflicts:
        assert enumeration.feasible(keep(set(conflicts) - {member})).any()
    report = diagnose_infeasibility(spec)
    assert report.relaxations
    assert all(set(r.constraints) & set(conflicts) for r in report.relaxations)
    for relaxation in report.relaxations:
        if relaxation.action == "remove":
            assert enumeration.feasible(
                keep(set(spec.added_constraints()) - set(relaxation.constraints))
            ).any()


def test_raise_bound_relaxation_restores_feasibility():
    spec = ScheduleSpec(sfusd_district(), max_load=19.0)
    assert not solve_schedule(spec).has_schedule
    report = diagnose_infeasibility(spec)
    assert report.conflicts == ("upper_bound[student_load_balancing]",)
    relax = next(r for r in report.relaxations if r.action == "raise_bound")
    assert solve_schedule(replace(spec, max_load=relax.value)).has_schedule
    assert relax.load <= relax.value


def test_a_second_disjoint_conflict_is_reported():
    spec = ScheduleSpec(
        sfusd_district(),
        fixed=(("Everett MS", 570), ("Galileo HS", 470)),
        forbidden=(("Everett MS", 570), ("Galileo HS", 470)),
    )
    report = diagnose_infeasibility(spec)
    first = set(report.conflicts)
    assert len(report.other_conflicts) == 1
    second = set(report.other_conflicts[0])
    assert first.isdisjoint(second)
    assert first | second == set(spec.added_constraints())


def test_single_conflict_has_no_other_conflicts():
    spec = ScheduleSpec(sfusd_district(), fixed=(("Everett MS", 570),), max_deviation=12)
    assert diagnose_infeasibility(spec).other_conflicts == ()
