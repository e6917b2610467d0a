"""The session's frontier views: a bounded, cached epsilon-grid frontier for charts and "show me options",
and next-best schedules (no-good cuts) to fill in when the frontier has too few points.

The frontier depends only on the district and the fixes and forbids (weights and bounds are
ignored), so it is cached under that key; page reruns and repeated requests cost nothing.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from solvers.schedule.model import DEVIATION, LOAD
from solvers.schedule.pareto import Frontier, ParetoPoint, bounded_frontier, next_best

if TYPE_CHECKING:
    from core.schedule.session import Proposal
    from core.schedule.state import ModelState
    from solvers.schedule.data import District


class FrontierViews:
    """Mixin for `ScheduleSession`: needs district, state, time_limit, proposals, current and the frontier settings."""

    district: District
    state: ModelState
    time_limit: float
    proposals: list[Proposal]
    frontier_points: int
    frontier_budget: float
    _frontiers: dict[tuple, Frontier]
    current: Proposal | None

    def _frontier(self) -> Frontier:
        """Bounded epsilon-grid frontier under the fixes and forbids, cached per district and constraints."""
        spec = replace(self.state.to_spec(self.district, self.time_limit), max_load=None, max_deviation=None)
        key = (self.district, spec.fixed, spec.forbidden, self.frontier_points, self.frontier_budget)
        if key not in self._frontiers:
            if len(self._frontiers) >= 32:
                self._frontiers.clear()
            self._frontiers[key] = bounded_frontier(spec, self.frontier_points, self.frontier_budget)
        return self._frontiers[key]

    def _next_best(self, count: int, taken: list[ParetoPoint]) -> list[ParetoPoint]:
        """Distinct next-best schedules for the current weights (no-good cuts), avoiding ones already shown."""
        spec = replace(self.state.to_spec(self.district, self.time_limit), max_load=None, max_deviation=None)
        seen = [p.result.assignment for p in taken]
        if self.current is not None:
            seen.append(self.current.result.assignment)
        spec = replace(spec, excluded=tuple(dict.fromkeys(seen)))
        return [ParetoPoint(r.load, r.deviation, r) for r in next_best(spec, count)]  # type: ignore[arg-type]

    def frontier(self) -> list[dict[str, Any]]:
        """Efficient load/deviation schedules under the active fixes and forbids (bounds ignored), for charts."""
        marks = {p.result.assignment: p.number for p in self.proposals}
        current = self.current.result.assignment if self.current else None
        return [
            {
                LOAD: p.load,
                DEVIATION: p.deviation,
                "schedule": p.result.schedule,
                "is_current": p.result.assignment == current,
                "proposal": marks.get(p.result.assignment),
            }
            for p in self._frontier().points
        ]

    @property
    def frontier_partial(self) -> bool:
        """True when the cached frontier for the current constraints was cut by its time budget."""
        return not self._frontier().complete
