"""Multiple schedules: the load-vs-deviation Pareto frontier (epsilon-constraint) and next-best
alternatives (no-good cuts).

Each frontier point is found lexicographically: minimise the peak load subject to
`schedule_deviation <= epsilon`, then minimise the deviation at that load, so every point is
efficient. Deviation is an integer number of minutes divided by the number of schools, which
makes "strictly less" exact: epsilon = previous - 0.5 / n.
"""

from __future__ import annotations

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


def pareto_frontier(spec: ScheduleSpec, points: int | None = None) -> tuple[ParetoPoint, ...]:
    """Efficient (load, deviation) schedules under the spec's constraints, by ascending load.

    With points=None every efficient point is enumerated; with points=P at most P points are
    taken on an evenly spaced epsilon grid between the two extreme schedules.
    """
    if points is not None and points < 2:
        raise SpecError("points", "ask for at least 2 frontier points")
    n = len(spec.district.schools)
    found: dict[tuple[int, ...], ParetoPoint] = {}
    if points is None:
        epsilon = None
        for _ in range(10_000):
            result = _efficient(spec, epsilon)
            if not result.has_schedule:
                break
            found.setdefault(result.assignment, ParetoPoint(result.load, result.deviation, result))
            epsilon = result.deviation - 0.5 / n
            if epsilon < 0:
                break
    else:
        high = _efficient(spec, None)
        if not high.has_schedule:
            return ()
        calmest = solve_schedule(replace(spec, gamma=(), alpha=0.0, beta=1.0))
        low = _efficient(spec, calmest.deviation + 0.25 / n) if calmest.has_schedule else high
        for i in range(points):
            epsilon = high.deviation - (high.deviation - low.deviation) * i / (points - 1)
            result = _efficient(spec, epsilon + 0.25 / n)
            if result.has_schedule:
                found.setdefault(result.assignment, ParetoPoint(result.load, result.deviation, result))
    frontier = sorted(found.values(), key=lambda p: (p.load, p.deviation))
    return tuple(
        p for i, p in enumerate(frontier) if i == 0 or p.deviation < frontier[i - 1].deviation - 1e-9
    )


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
