"""The session's frontier views: a bounded, cached epsilon-grid frontier for charts and "show me options",
and next-best schedules (no-good cuts) to fill in when the frontier has too few points.

The frontier depends only on the district and the fixes and forbids (weights and bounds are
ignored), so `FrontierCache` keeps it under that key; page reruns and repeated requests cost nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from core.schedule.state import Proposal
from solvers.schedule.model import DEVIATION, LOAD, ScheduleSpec
from solvers.schedule.pareto import Frontier, ParetoPoint, bounded_frontier, next_best


def unbounded(spec: ScheduleSpec) -> ScheduleSpec:
    """The spec without its objective bounds: frontiers and next-best schedules ignore them."""
    return replace(spec, max_load=None, max_deviation=None)


class FrontierCache:
    """Bounded epsilon-grid frontiers keyed by district, fixes, forbids and grid settings (at most `limit`)."""

    def __init__(self, limit: int = 32) -> None:
        self.limit = limit
        self._frontiers: dict[tuple, Frontier] = {}

    def __len__(self) -> int:
        return len(self._frontiers)

    def get(self, spec: ScheduleSpec, *, points: int, budget: float) -> Frontier:
        """The frontier under `spec`'s fixes and forbids, computed once per key (the cache empties when full)."""
        spec = unbounded(spec)
        key = (spec.district, spec.fixed, spec.forbidden, points, budget)
        if key not in self._frontiers:
            if len(self._frontiers) >= self.limit:
                self._frontiers.clear()
            self._frontiers[key] = bounded_frontier(spec, points, budget)
        return self._frontiers[key]


def next_best_points(spec: ScheduleSpec, count: int, seen: Sequence[tuple[int, ...]]) -> list[ParetoPoint]:
    """Distinct next-best schedules for `spec`'s weights (no-good cuts), avoiding the `seen` assignments."""
    spec = replace(unbounded(spec), excluded=tuple(dict.fromkeys(seen)))
    return [ParetoPoint(r.load, r.deviation, r) for r in next_best(spec, count)]  # type: ignore[arg-type]


def frontier_rows(
    frontier: Frontier, proposals: Sequence[Proposal], current: Proposal | None
) -> list[dict[str, Any]]:
    """One chart row per frontier point: objectives, schedule, and which proposal (if any) it is."""
    marks = {p.result.assignment: p.number for p in proposals}
    assignment = current.result.assignment if current else None
    return [
        {
            LOAD: p.load,
            DEVIATION: p.deviation,
            "schedule": p.result.schedule,
            "is_current": p.result.assignment == assignment,
            "proposal": marks.get(p.result.assignment),
        }
        for p in frontier.points
    ]
