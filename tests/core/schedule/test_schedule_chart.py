"""The Pareto chart and its click handler: what a click on the frontier selects, and what it must not."""

from __future__ import annotations

from core.schedule.chart import FrontierClick, adoptable, clicked_points, frontier_figure
from core.schedule.session import ScheduleSession
from solvers.schedule.model import DEVIATION, LOAD


def event(*points: tuple[int, int]) -> dict:
    return {"selection": {"points": [{"curve_number": c, "point_index": i} for c, i in points]}}


def test_figure_has_the_frontier_then_previous_and_current_markers():
    session = ScheduleSession()
    session.call_solver()
    session.fix_start_time("Everett MS", "9:30 AM")
    session.call_solver()
    frontier = session.frontier()
    figure = frontier_figure(session, frontier)
    names = [t.name for t in figure.data]
    assert names == ["Pareto frontier", "previous", "current"]
    assert list(figure.data[0].x) == [p[DEVIATION] for p in frontier]
    assert list(figure.data[0].y) == [p[LOAD] for p in frontier]
    assert (figure.data[1].x[0], figure.data[1].y[0]) == (8.5, 25.65)
    assert (figure.data[2].x[0], figure.data[2].y[0]) == (
        session.current.result.deviation,
        session.current.result.load,
    )


def test_adoptable_excludes_the_current_proposal():
    frontier = [{"is_current": False}, {"is_current": True}, {"is_current": False}]
    assert adoptable(frontier) == [0, 2]


def test_clicked_points_reads_only_the_frontier_trace():
    assert clicked_points(event((0, 2), (2, 0))) == [2]
    assert clicked_points(None) == []
    assert clicked_points({"selection": {"points": []}}) == []
    assert clicked_points({}) == []


def test_a_new_click_selects_once_and_a_stale_selection_does_not():
    click = FrontierClick()
    assert click.pick(event(), [0, 1, 2]) is None
    assert click.pick(event((0, 2)), [0, 1, 2]) == 2
    assert click.pick(event((0, 2)), [0, 1, 2]) is None  # the same selection reported again on a rerun
    assert click.pick(event((0, 1)), [0, 1, 2]) == 1
    assert click.pick(event((0, 3)), [0, 1, 2]) is None  # the current proposal is not adoptable
    assert click.pick(event((1, 0)), [0, 1, 2]) is None  # a click on the current/previous marker
    assert click.pick(event((0, 3)), [0, 1, 2, 3]) == 3  # clicked again after the marker click: fresh


def test_dominated_points_are_flagged():
    from core.schedule.chart import dominated
    from solvers.schedule.model import DEVIATION, LOAD

    frontier = [
        {LOAD: 20.0, DEVIATION: 16.0, "is_current": False},
        {LOAD: 24.0, DEVIATION: 12.0, "is_current": True},
        {LOAD: 25.0, DEVIATION: 12.0, "is_current": False},  # beaten by the second
        {LOAD: 26.0, DEVIATION: 8.5, "is_current": False},
    ]
    assert dominated(frontier) == {2}
