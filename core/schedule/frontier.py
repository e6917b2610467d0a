"""The session's frontier views: a bounded, cached epsilon-grid frontier for charts and "show me options",
and next-best schedules (no-good cuts) to fill in when the frontier has too few points.

The frontier depends only on the district and the fixes and forbids (weights and bounds are
ignored), so `FrontierCache` keeps it under that key; page reruns and repeated requests cost nothing. Behind
every session's cache is one process-wide cache (`compute_frontier`): the School Scheduling page computes the
opening frontier in the background (`core/schedule/opening.py`) and every session of the server reuses it.
"""

from __future__ import annotations

import threading
from collections.abc import Hashable, Sequence
from concurrent.futures import Future
from dataclasses import replace
from typing import Any

from core.schedule.state import Proposal
from solvers.schedule.model import DEVIATION, LOAD, ScheduleSpec
from solvers.schedule.pareto import Frontier, ParetoPoint, bounded_frontier, next_best


def unbounded(spec: ScheduleSpec) -> ScheduleSpec:
    """The spec without its objective bounds: frontiers and next-best schedules ignore them."""
    return replace(spec, max_load=None, max_deviation=None)


FrontierKey = tuple[Hashable, ...]
_SHARED: dict[FrontierKey, Future[Frontier]] = {}
_SHARED_LOCK = threading.Lock()
SHARED_LIMIT = 64
"""At most this many frontiers are kept for the whole server process (the oldest finished ones go first)."""


def cache_key(spec: ScheduleSpec, points: int, budget: float) -> FrontierKey:
    """What a frontier depends on: the district, the fixes and forbids, and the grid settings."""
    spec = unbounded(spec)
    return (spec.district, spec.fixed, spec.forbidden, points, budget)


def shared_frontier(spec: ScheduleSpec, points: int, budget: float) -> tuple[Future[Frontier], bool]:
    """The process-wide frontier of `spec` as a future, and whether the caller must compute it (`compute`).

    Every session of the server shares it: the first asker computes, later ones wait for the same result (a
    frontier cut by its time budget is shared too, marked `complete=False`; a failed computation is not kept)."""
    key = cache_key(spec, points, budget)
    with _SHARED_LOCK:
        if key in _SHARED:
            return _SHARED[key], False
        if len(_SHARED) >= SHARED_LIMIT:
            for old in [k for k, f in _SHARED.items() if f.done()][: len(_SHARED) - SHARED_LIMIT + 1]:
                del _SHARED[old]
        future: Future[Frontier] = Future()
        _SHARED[key] = future
        return future, True


def compute_frontier(spec: ScheduleSpec, points: int, budget: float) -> Frontier:
    """The frontier of `spec` from the process-wide cache, computed here (or waited for) when it is not there."""
    future, mine = shared_frontier(spec, points, budget)
    if mine:
        key = cache_key(spec, points, budget)
        try:
            frontier = bounded_frontier(unbounded(spec), points, budget)
        except BaseException as err:
            future.set_exception(err)
            _forget(key, future)
            raise
        future.set_result(frontier)
    return future.result()


def frontier_done(spec: ScheduleSpec, points: int, budget: float) -> bool:
    """Whether the process-wide cache holds `spec`'s finished frontier (nothing is computed)."""
    with _SHARED_LOCK:
        future = _SHARED.get(cache_key(spec, points, budget))
    return future is not None and future.done()


def _forget(key: FrontierKey, future: Future[Frontier]) -> None:
    with _SHARED_LOCK:
        if _SHARED.get(key) is future:
            del _SHARED[key]


class FrontierCache:
    """A session's frontiers keyed by district, fixes, forbids and grid settings (at most `limit`), taken from
    the process-wide cache (`compute_frontier`) on a miss."""

    def __init__(self, limit: int = 32) -> None:
        self.limit = limit
        self._frontiers: dict[FrontierKey, Frontier] = {}

    def __len__(self) -> int:
        return len(self._frontiers)

    def has(self, spec: ScheduleSpec, *, points: int, budget: float) -> bool:
        """Whether `get` would answer at once (this session or the server already holds the frontier)."""
        return cache_key(spec, points, budget) in self._frontiers or frontier_done(spec, points, budget)

    def get(self, spec: ScheduleSpec, *, points: int, budget: float) -> Frontier:
        """The frontier under `spec`'s fixes and forbids, computed once per key (the cache empties when full)."""
        key = cache_key(spec, points, budget)
        if key not in self._frontiers:
            if len(self._frontiers) >= self.limit:
                self._frontiers.clear()
            self._frontiers[key] = compute_frontier(spec, points, budget)
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
