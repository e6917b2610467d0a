"""Pareto frontier and next-best alternatives against brute-force enumeration."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from solvers.schedule.data import sfusd_district
from solvers.schedule.model import ScheduleSpec, evaluate
from solvers.schedule.pareto import alternatives_near, next_best, pareto_frontier


def _pairs(points):
    return [(round(p.load, 6), round(p.deviation, 6)) for p in points]


def _brute_frontier(enumeration, mask):
    pairs = sorted(
        {
            (round(float(a), 6), round(float(b), 6))
            for a, b in zip(enumeration.load[mask], enumeration.deviation[mask], strict=True)
        }
    )
    front, best_dev = [], float("inf")
    for load, dev in pairs:
        if dev < best_dev - 1e-9:
            front.append((load, dev))
            best_dev = dev
    return front


def test_sfusd_frontier_matches_brute_force(brute):
    district = sfusd_district()
    spec = ScheduleSpec(district)
    frontier = pareto_frontier(spec)
    expected = _brute_frontier(brute(district), np.ones(3**10, dtype=bool))
    assert _pairs(frontier) == expected
    assert (25.65, 8.5) in [(p.load, p.deviation) for p in frontier]
    for p in frontier:
        assert evaluate(district, p.result.assignment) == pytest.approx((p.load, p.deviation))


@pytest.mark.parametrize("seed", range(4))
def test_constrained_random_frontier_matches_brute_force(seed, brute, make_district):
    rng = np.random.default_rng(seed)
    district = make_district(rng, 9, 3)
    spec = ScheduleSpec(district, fixed=((district.names[0], district.start_times[1]),))
    enumeration = brute(district)
    expected = _brute_frontier(enumeration, enumeration.feasible(spec))
    assert _pairs(pareto_frontier(spec)) == expected


def test_grid_frontier_is_a_subset_of_the_exact_one(make_district):
    district = make_district(np.random.default_rng(7), 12, 3)
    exact = {(p.load, p.deviation) for p in pareto_frontier(ScheduleSpec(district))}
    grid = pareto_frontier(ScheduleSpec(district), points=6)
    assert 2 <= len(grid) <= 6
    assert {(p.load, p.deviation) for p in grid} <= exact
    assert min(p.load for p in grid) == min(load for load, _ in exact)
    assert min(p.deviation for p in grid) == min(dev for _, dev in exact)


def test_next_best_matches_sorted_brute_force_objectives(brute):
    district = sfusd_district()
    spec = ScheduleSpec(district, alpha=1.5, beta=0.7)
    enumeration = brute(district)
    results = next_best(spec, 5)
    assert len({r.assignment for r in results}) == 5
    expected = np.sort(enumeration.objective(spec))[:5]
    assert [r.objective for r in results] == pytest.approx(list(expected), abs=1e-6)


def test_next_best_stops_when_schedules_run_out():
    district = sfusd_district()
    fixed = tuple((name, 470) for name in district.names[:-1])
    results = next_best(ScheduleSpec(district, fixed=fixed), 5)
    assert len(results) == 3


def test_alternatives_near_pick_both_sides_and_skip_current():
    spec = ScheduleSpec(sfusd_district())
    frontier = pareto_frontier(spec)
    current = next(p for p in frontier if p.load == pytest.approx(24.53))
    picked = alternatives_near(frontier, current.load, current.deviation, current.result.assignment, count=2)
    assert _pairs(picked) == [(23.22, 14.5), (25.65, 8.5)]


def test_frontier_respects_spec_bounds():
    spec = replace(ScheduleSpec(sfusd_district()), max_deviation=12.0)
    assert all(p.deviation <= 12.0 for p in pareto_frontier(spec))


def test_bounded_frontier_respects_its_budget_and_says_when_cut(monkeypatch: pytest.MonkeyPatch):
    """The frontier's clock is a fake one that each solve moves on by its whole time limit plus 0.05 s of model
    building (a slow machine), so the count of solves, not this machine's speed, decides where the search is
    cut. The solves are real, with the time limits they were given."""
    from types import SimpleNamespace

    from solvers.schedule import pareto
    from solvers.schedule.data import District, School
    from solvers.schedule.pareto import bounded_frontier

    clock, limits = [0.0], []
    solve = pareto.solve_schedule

    def timed_solve(spec: ScheduleSpec):
        limits.append(spec.time_limit)
        clock[0] += spec.time_limit + 0.05
        return solve(spec)

    monkeypatch.setattr(pareto, "time", SimpleNamespace(perf_counter=lambda: clock[0]))
    monkeypatch.setattr(pareto, "solve_schedule", timed_solve)
    schools = tuple(School(f"S{i}", "ES", 100 + 37 * i, 450 + 5 * (i % 12)) for i in range(40))
    spec = ScheduleSpec(District(schools, (450, 480, 510, 540)))
    cut = bounded_frontier(spec, points=10, budget=0.3)
    share = 0.3 / (2 * (10 + 3))  # each of at most 2 solves per point (+ 3 ends) gets an equal share
    assert not cut.complete
    assert limits and all(0 < limit <= share + 1e-12 for limit in limits) and sum(limits) <= 0.3
    assert 0.3 <= clock[0] <= 0.3 + 2 * (share + 0.05)  # it stopped within one point's two solves of the budget
    monkeypatch.undo()
    small = bounded_frontier(ScheduleSpec(sfusd_district()), points=10, budget=30)
    assert small.complete and [(p.load, p.deviation) for p in small.points] == [
        (19.87, 16.5),
        (23.22, 14.5),
        (24.53, 11.5),
        (25.65, 8.5),
    ]
