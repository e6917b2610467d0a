"""Multiple schedules: the load-vs-deviation Pareto frontier (epsilon-constraint) and next-best
alternatives (no-good cuts).

Each frontier point is found lexicographically: minimise the peak load subject to
`schedule_deviation <= epsilon`, then minimise the deviation at that load, so every point is
efficient. Deviation is an integer number of minutes divided by the number of schools, which
makes "strictly less" exact: epsilon = previous - 0.5 / n.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from core.errors import SpecError
from solvers.schedule.model import ScheduleResult, ScheduleSpec, ScheduleStatus, solve_schedule

_LOAD_SLACK = 1e-6


@dataclass(frozen=True)
class ParetoPoint:
    """One efficient schedule: its objectives and the result that produced it."""

    load: float
    deviation: float
    result: ScheduleResult

    def __post_init__(self) -> None:
        if not self.result.has_schedule:
            raise SpecError("result", "a Pareto point needs a solved schedule")


def _efficient(spec: ScheduleSpec, epsilon: float | None) -> ScheduleResult:
    base = replace(spec, gamma=(), max_deviation=_tighter(spec.max_deviation, epsilon))
    first = solve_schedule(replace(base, alpha=1.0, beta=0.0))
    if not first.has_schedule:
        return first
    cap = _tighter(spec.max_load, first.load + _LOAD_SLACK)
    second = solve_schedule(replace(base, alpha=0.0, beta=1.0, max_load=cap))
    return second if second.has_schedule else first


def _tighter(current: float | None, new: float | None) -> float | None:
    if current is None:
        return new
    return current if new is None else min(current, new)


@dataclass(frozen=True)
class Frontier:
    """Efficient points by ascending load; complete=False when the time budget cut the search."""

    points: tuple[ParetoPoint, ...]
    complete: bool = True


def _grid_order(points: int) -> list[int]:
    """Grid indices ends first, then midpoints of ever finer intervals, so a cut search still spans the range."""
    order, intervals = [0, points - 1], [(0, points - 1)]
    while intervals:
        low, high = intervals.pop(0)
        if high - low < 2:
            continue
        mid = (low + high) // 2
        order.append(mid)
        intervals += [(low, mid), (mid, high)]
    return list(dict.fromkeys(order))


def bounded_frontier(spec: ScheduleSpec, points: int | None = None, budget: float | None = None) -> Frontier:
    """Efficient (load, deviation) schedules under the spec's constraints, within `budget` seconds.

    With points=None every efficient point is enumerated; with points=P at most P points are
    taken on an evenly spaced epsilon grid between the two extreme schedules. When the budget runs
    out the points found so far are returned with complete=False; on a grid each solve gets an equal
    share of the budget and keeps its incumbent when that share runs out.
    """
    if points is not None and points < 2:
        raise SpecError("points", "ask for at least 2 frontier points")
    deadline = None if budget is None else time.perf_counter() + budget
    per_solve = budget if budget is None or points is None else budget / (2 * (points + 3))
    n = len(spec.district.schools)
    found: dict[tuple[int, ...], ParetoPoint] = {}

    def budgeted() -> ScheduleSpec | None:
        if deadline is None:
            return spec
        left = deadline - time.perf_counter()
        return None if left <= 0 else replace(spec, time_limit=min(spec.time_limit, left, per_solve))

    def solve(epsilon: float | None) -> ScheduleResult | None:
        current = budgeted()
        return None if current is None else _efficient(current, epsilon)

    def keep(result: ScheduleResult) -> None:
        found.setdefault(result.assignment, ParetoPoint(result.load, result.deviation, result))

    complete = True
    if points is None:
        epsilon = None
        for _ in range(10_000):
            result = solve(epsilon)
            if result is None:
                complete = False
                break
            if not result.has_schedule:
                break
            keep(result)
            epsilon = result.deviation - 0.5 / n
            if epsilon < 0:
                break
    else:
        high = solve(None)
        if high is None or not high.has_schedule:
            return Frontier((), high is not None and high.status is ScheduleStatus.INFEASIBLE)
        keep(high)
        current = budgeted()
        calmest = None if current is None else solve_schedule(replace(current, gamma=(), alpha=0.0, beta=1.0))
        low = solve(calmest.deviation + 0.25 / n) if calmest and calmest.has_schedule else high
        if low is None or not low.has_schedule:
            complete = complete and low is not None and low.status is ScheduleStatus.INFEASIBLE
            low = high
        else:
            keep(low)
        for i in _grid_order(points):
            epsilon = high.deviation - (high.deviation - low.deviation) * i / (points - 1)
            result = solve(epsilon + 0.25 / n)
            if result is None:
                complete = False
                break
            if result.has_schedule:
                keep(result)
            elif result.status is ScheduleStatus.NOT_SOLVED:
                complete = False
    frontier = sorted(found.values(), key=lambda p: (p.load, p.deviation))
    efficient = tuple(
        p for i, p in enumerate(frontier) if i == 0 or p.deviation < frontier[i - 1].deviation - 1e-9
    )
    return Frontier(efficient, complete)


def pareto_frontier(spec: ScheduleSpec, points: int | None = None) -> tuple[ParetoPoint, ...]:
    """Efficient (load, deviation) schedules, by ascending load (see `bounded_frontier`, no budget)."""
    return bounded_frontier(spec, points).points


def next_best(spec: ScheduleSpec, count: int) -> tuple[ScheduleResult, ...]:
    """The best `count` distinct schedules for the spec's weighted objective (no-good cuts)."""
    if count < 1:
        raise SpecError("count", "ask for at least one schedule")
    results: list[ScheduleResult] = []
    current = spec
    for _ in range(count):
        result = solve_schedule(current)
        if result.status not in (ScheduleStatus.OPTIMAL, ScheduleStatus.FEASIBLE):
            break
        results.append(result)
        current = replace(current, excluded=current.excluded + (result.assignment,))
    return tuple(results)


def alternatives_near(
    frontier: tuple[ParetoPoint, ...],
    load: float,
    deviation: float,
    exclude: tuple[int, ...] | None,
    count: int = 3,
) -> tuple[ParetoPoint, ...]:
    """Pick up to `count` distinct frontier points around (load, deviation), alternating sides:
    the nearest one with a lower peak load, the nearest with lower deviation, and so on."""
    others = [p for p in frontier if p.result.assignment != exclude]
    lower_load = sorted((p for p in others if p.load < load - 1e-9), key=lambda p: -p.load)
    lower_dev = sorted((p for p in others if p.load >= load - 1e-9), key=lambda p: p.load)
    picked: list[ParetoPoint] = []
    while len(picked) < count and (lower_load or lower_dev):
        for side in (lower_load, lower_dev):
            if side and len(picked) < count:
                picked.append(side.pop(0))
    return tuple(sorted(picked, key=lambda p: (p.load, p.deviation)))
