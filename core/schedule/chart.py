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


def dominated(frontier: list[dict[str, Any]]) -> set[int]:
    """Rows another row beats: no worse on both objectives and better on one (a bounded grid can keep them)."""
    out = set()
    for i, p in enumerate(frontier):
        for j, q in enumerate(frontier):
            no_worse = q[LOAD] <= p[LOAD] + 1e-9 and q[DEVIATION] <= p[DEVIATION] + 1e-9
            better = q[LOAD] < p[LOAD] - 1e-9 or q[DEVIATION] < p[DEVIATION] - 1e-9
            if i != j and no_worse and better:
                out.add(i)
                break
    return out


def option_labels(frontier: list[dict[str, Any]]) -> dict[int, str]:
    """`{frontier row: "option N"}` for the adoptable rows, numbered as the page's picker lists them."""
    return {row: f"option {n}" for n, row in enumerate(adoptable(frontier), start=1)}


def frontier_key(frontier: list[dict[str, Any]], district: Any) -> str:
    """A key that changes whenever the district or the frontier does (so a picker over it starts afresh)."""
    points = tuple((round(p[LOAD], 6), round(p[DEVIATION], 6), p["is_current"]) for p in frontier)
    return f"{abs(hash((points, district))):x}"


def frontier_figure(session: ScheduleSession, frontier: list[dict[str, Any]]) -> go.Figure:
    """Frontier line (trace 0, each adoptable point labelled with its option number, dominated points crossed)
    plus markers for the previous and current proposals."""
    figure = go.Figure()
    worse = dominated(frontier)
    labels = option_labels(frontier)
    figure.add_scatter(
        x=[p[DEVIATION] for p in frontier],
        y=[p[LOAD] for p in frontier],
        mode="lines+markers+text",
        name="Pareto frontier",
        text=[labels.get(i, "") + (" (dominated)" if i in worse else "") for i in range(len(frontier))],
        textposition="top right",
        marker={
            "size": 11,
            "symbol": ["x" if i in worse else "circle" for i in range(len(frontier))],
            "color": ["#9ca3af" if i in worse else "#0b6e99" for i in range(len(frontier))],
        },
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
        xaxis_title="Average change of start times (minutes)",
        yaxis_title="Peak students starting at once (hundreds)",
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
