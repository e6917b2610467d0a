"""The page's Pareto chart (load vs deviation, current and previous proposals marked) and its click handling.

Trace 0 holds the frontier points in `session.frontier()` order, so a clicked point's index is a
frontier row. `FrontierClick` turns Streamlit's selection event into the alternative to preselect.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import plotly.graph_objects as go

from core.schedule.session import ScheduleSession
from solvers.schedule.model import DEVIATION, LOAD


def frontier_figure(session: ScheduleSession, frontier: list[dict[str, Any]]) -> go.Figure:
    """Frontier line (trace 0) plus markers for the previous and current proposals."""
    figure = go.Figure()
    figure.add_scatter(
        x=[p[DEVIATION] for p in frontier],
        y=[p[LOAD] for p in frontier],
        mode="lines+markers",
        name="Pareto frontier",
        marker={"size": 10},
    )
    for label, proposal, symbol in (
        ("previous", session.previous, "circle-open"),
        ("current", session.current, "star"),
    ):
        if proposal is not None:
            figure.add_scatter(
                x=[proposal.result.deviation],
                y=[proposal.result.load],
                mode="markers",
                name=label,
                marker={"size": 16, "symbol": symbol},
            )
    figure.update_layout(
        xaxis_title="schedule_deviation (minutes)",
        yaxis_title="student_load_balancing (hundreds)",
        height=320,
        margin={"t": 20, "b": 10},
    )
    return figure


def adoptable(frontier: list[dict[str, Any]]) -> list[int]:
    """Frontier rows that differ from the current proposal (the ones worth adopting)."""
    return [i for i, p in enumerate(frontier) if not p["is_current"]]


def clicked_points(event: Any) -> list[int]:
    """Frontier rows selected in a `st.plotly_chart` selection event (clicks on other traces ignored)."""
    points = ((event or {}).get("selection") or {}).get("points") or []
    return [p["point_index"] for p in points if p.get("curve_number") == 0 and "point_index" in p]


@dataclass
class FrontierClick:
    """Remembers the last chart selection so a stale one (still reported on every rerun) picks nothing."""

    last: list[int] = field(default_factory=list)

    def pick(self, event: Any, choices: list[int]) -> int | None:
        """The frontier row a new click selects, if it is adoptable; None when nothing new was clicked."""
        clicked = clicked_points(event)
        fresh = clicked != self.last
        self.last = clicked
        if fresh and clicked and clicked[0] in choices:
            return clicked[0]
        return None
