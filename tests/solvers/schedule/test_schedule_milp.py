"""The MILP against brute-force enumeration of every schedule, plus the seed's default numbers."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from core.errors import SpecError
from solvers.schedule.data import sfusd_district
from solvers.schedule.model import (
    ScheduleSpec,
    ScheduleStatus,
    _status,
    build_model,
    evaluate,
    solve_schedule,
)


def test_base_model_reproduces_seed_default_schedule():
    result = solve_schedule(ScheduleSpec(sfusd_district()))
    assert result.status is ScheduleStatus.OPTIMAL
    assert result.load == pytest.approx(25.65)
    assert result.deviation == pytest.approx(8.5)
    assert result.schedule["Galileo HS"] == "7:50 AM"
    assert result.schedule["Balboa HS"] == "8:40 AM"
    assert result.schedule["Ortega (Jose) PK"] == "9:30 AM"
    assert result.gap is not None and result.gap <= 1e-6


def test_constraint_names_are_readable():
    district = sfusd_district()
    spec = ScheduleSpec(
        district, fixed=(("Everett MS", 570),), forbidden=(("Galileo HS", 470),), max_load=24.5
    )
    rows = build_model(spec).rows
    assert "assign_one_start_time[Everett MS]" in rows
    assert "max_students_per_time[7:50 AM]" in rows
    assert spec.added_constraints() == (
        "fix_start_time[Everett MS=9:30 AM]",
        "forbid_start_time[Galileo HS=7:50 AM]",
        "upper_bound[student_load_balancing]",
    )
    assert all(name in rows for name in spec.added_constraints())


def _random_spec(rng: np.random.Generator, district, enumeration) -> ScheduleSpec:
    names, times = district.names, district.start_times
    gamma = tuple(
        (names[int(q)], times[int(rng.integers(len(times)))], float(rng.uniform(0, 5)))
        for q in rng.choice(len(names), size=int(rng.integers(0, 3)), replace=False)
    )
    fixed = tuple(
        (names[int(q)], times[int(rng.integers(len(times)))])
        for q in rng.choice(len(names), size=int(rng.integers(0, 3)), replace=False)
    )
    forbidden = tuple(
        (names[int(q)], times[int(rng.integers(len(times)))])
        for q in rng.choice(len(names), size=int(rng.integers(0, 4)), replace=False)
    )
    lo_load, hi_load = enumeration.load.min(), np.median(enumeration.load)
    lo_dev, hi_dev = enumeration.deviation.min(), np.median(enumeration.deviation)
    max_load = float(rng.uniform(lo_load, hi_load)) if rng.random() < 0.5 else None
    max_dev = float(rng.uniform(lo_dev, hi_dev)) if rng.random() < 0.5 else None
    return ScheduleSpec(
        district,
        alpha=float(rng.choice([0.0, rng.uniform(0, 3)])),
        beta=float(rng.choice([0.0, rng.uniform(0, 3)])),
        gamma=gamma,
        fixed=fixed,
        forbidden=forbidden,
        max_load=max_load,
        max_deviation=max_dev,
    )


def _check_against_brute(spec, enumeration):
    result = solve_schedule(spec)
    feasible = enumeration.feasible(spec)
    if not feasible.any():
        assert result.status is ScheduleStatus.INFEASIBLE
        return False
    assert result.status is ScheduleStatus.OPTIMAL
    best = enumeration.objective(spec)[feasible].min()
    assert result.objective == pytest.approx(best, abs=1e-5)
    index = np.flatnonzero((enumeration.assignments == np.array(result.assignment)).all(axis=1))[0]
    assert feasible[index]
    assert (result.load, result.deviation) == pytest.approx(
        (enumeration.load[index], enumeration.deviation[index])
    )
    return True


@pytest.mark.parametrize("seed", range(30))
def test_sfusd_optimum_matches_brute_force(seed, brute):
    district = sfusd_district()
    enumeration = brute(district)
    rng = np.random.default_rng(seed)
    _check_against_brute(_random_spec(rng, district, enumeration), enumeration)


@pytest.mark.parametrize("seed", range(12))
def test_random_district_optimum_matches_brute_force(seed, brute, make_district):
    rng = np.random.default_rng(1000 + seed)
    n, k = [(10, 3), (7, 4), (5, 5)][seed % 3]
    district = make_district(rng, n, k)
    enumeration = brute(district)
    _check_against_brute(_random_spec(rng, district, enumeration), enumeration)


def test_random_specs_cover_both_feasible_and_infeasible(brute):
    district = sfusd_district()
    enumeration = brute(district)
    outcomes = {
        bool(enumeration.feasible(_random_spec(np.random.default_rng(s), district, enumeration)).any())
        for s in range(30)
    }
    assert outcomes == {True, False}


def test_everett_at_930_with_low_deviation_is_infeasible_not_an_exception():
    spec = ScheduleSpec(sfusd_district(), fixed=(("Everett MS", 570),), max_deviation=16)
    result = solve_schedule(spec)
    assert result.status is ScheduleStatus.INFEASIBLE
    assert result.schedule == {} and result.load is None


def test_cbc_fallback_agrees_with_highs():
    district = sfusd_district()
    spec = ScheduleSpec(district, alpha=2.0, forbidden=(("Galileo HS", 470),))
    highs, cbc = solve_schedule(spec), solve_schedule(ScheduleSpec(**{**spec.__dict__, "solver": "cbc"}))
    assert cbc.solver == "PULP_CBC_CMD" and highs.solver == "HiGHS"
    assert cbc.status is ScheduleStatus.OPTIMAL
    assert cbc.objective == pytest.approx(highs.objective)


def test_evaluate_matches_seed_numbers():
    district = sfusd_district()
    assert evaluate(district, (2, 2, 2, 0, 1, 0, 0, 1, 1, 2)) == pytest.approx((25.65, 8.5))
    assert evaluate(district, (2, 2, 2, 0, 0, 1, 0, 1, 1, 2)) == pytest.approx((24.53, 11.5))


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"alpha": -1.0}, "alpha"),
        ({"beta": float("nan")}, "beta"),
        ({"fixed": (("Nowhere HS", 470),)}, "school"),
        ({"forbidden": (("Galileo HS", 485),)}, "time"),
        ({"max_load": -2.0}, "max_load"),
        ({"excluded": ((0, 1),)}, "excluded"),
        ({"time_limit": 0.0}, "time_limit"),
        ({"solver": "gurobi"}, "solver"),
    ],
)
def test_spec_validation_names_the_field(kwargs, field):
    with pytest.raises(SpecError) as err:
        ScheduleSpec(sfusd_district(), **kwargs)
    assert err.value.field == field


def test_unknown_school_error_lists_valid_names():
    with pytest.raises(SpecError, match="Everett MS"):
        ScheduleSpec(sfusd_district(), fixed=(("Everet", 470),))


@pytest.mark.parametrize(
    ("status", "sol_status", "expected"),
    [
        (1, 1, ScheduleStatus.OPTIMAL),
        (1, 2, ScheduleStatus.FEASIBLE),  # CBC/PuLP say "Optimal" on a time-out with an incumbent
        (0, 2, ScheduleStatus.FEASIBLE),
        (0, 0, ScheduleStatus.NOT_SOLVED),
        (1, 0, ScheduleStatus.NOT_SOLVED),
        (-1, -1, ScheduleStatus.INFEASIBLE),
        (0, -1, ScheduleStatus.INFEASIBLE),
    ],
)
def test_status_reads_sol_status_not_the_optimal_label(status, sol_status, expected):
    problem = SimpleNamespace(status=status, sol_status=sol_status)
    assert _status(problem) is expected


@pytest.mark.parametrize("solver", ["highs", "cbc"])
def test_a_time_limited_hard_solve_is_not_reported_optimal(solver, make_district):
    """500 schools x 6 starts cannot be proved optimal in half a second: feasible with a gap, or no schedule."""
    spec = ScheduleSpec(
        make_district(np.random.default_rng(5), 500, 6), time_limit=0.5, gap=0.0, solver=solver
    )
    result = solve_schedule(spec)
    assert result.status in (ScheduleStatus.FEASIBLE, ScheduleStatus.NOT_SOLVED), (result.status, result.gap)
    if result.status is ScheduleStatus.FEASIBLE:
        assert result.has_schedule and len(result.schedule) == 500
        assert result.gap is None or result.gap > 0
