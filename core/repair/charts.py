"""Plotly figures of the LP Repair Lab: the IIS on an echelon x period grid, and benchmark charts."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pandas as pd
import plotly.express as px
import plotly.graph_objects as go

FAMILIES = (
    "inv_balance",
    "demand_prop",
    "capacity",
    "backorder_cap",
    "supply_cap",
    "net_inventory",
    "bullwhip_force",
    "min_order",
    "other",
)
COLORS = ("#4C78A8", "#F58518", "#E45756", "#72B7B2", "#54A24B", "#EECA3B", "#B279A2", "#FF9DA6", "#9D755D")
# when several families share a cell, the one most likely to be the cause colours it (hover lists them all)
PRIORITY = (
    "net_inventory",
    "bullwhip_force",
    "min_order",
    "other",
    "demand_prop",
    "capacity",
    "supply_cap",
    "backorder_cap",
    "inv_balance",
)
_NAME = re.compile(r"^(?P<family>.+?)(?:_e(?P<n>\d+))?_t(?P<t>\d+)$")


def locate(name: str, n_echelons: int) -> tuple[str, int, int] | None:
    """(family, echelon, period) of a supply-chain row name; factory-level rows sit on echelon N."""
    m = _NAME.match(name)
    if not m:
        return None
    family = m.group("family")
    family = family if family in FAMILIES else "other"
    n = int(m.group("n")) if m.group("n") else n_echelons
    return family, n, int(m.group("t"))


def iis_grid(iis_rows: list[str], n_echelons: int, n_periods: int, title: str = "IIS") -> go.Figure:
    """Every IIS row as a marker on its (echelon, period) cell, coloured by family; the cell's background takes
    the colour of the family most likely to be the cause. Rows that name no cell sit on an "other rows" line
    above echelon 1. The legend lists only families that have a marker."""
    z = [[None] * n_periods for _ in range(n_echelons)]
    text = [[""] * n_periods for _ in range(n_echelons)]
    cells: dict[tuple[int, int], list[tuple[str, str]]] = {}
    unplaced: list[str] = []
    for name in iis_rows:
        where = locate(name, n_echelons)
        if where is None or not (1 <= where[1] <= n_echelons and 1 <= where[2] <= n_periods):
            unplaced.append(name)
            continue
        family, n, t = where
        cells.setdefault((n, t), []).append((family, name))
        current = z[n - 1][t - 1]
        if current is None or PRIORITY.index(family) < PRIORITY.index(FAMILIES[current]):
            z[n - 1][t - 1] = FAMILIES.index(family)
        text[n - 1][t - 1] += name + "<br>"
    k = len(FAMILIES)
    scale = []
    for i, color in enumerate(COLORS):
        scale += [(i / k, color), ((i + 1) / k, color)]
    fig = go.Figure(
        go.Heatmap(
            z=z,
            x=list(range(1, n_periods + 1)),
            y=list(range(1, n_echelons + 1)),
            text=text,
            hovertemplate="echelon %{y}, period %{x}<br>%{text}<extra></extra>",
            colorscale=scale,
            zmin=-0.5,
            zmax=k - 0.5,
            showscale=False,
            opacity=0.35,
            xgap=2,
            ygap=2,
        )
    )
    points: dict[str, tuple[list[float], list[float], list[str]]] = {}
    for (n, t), members in cells.items():
        for i, (family, name) in enumerate(sorted(members, key=lambda m: PRIORITY.index(m[0]))):
            xs, ys, names = points.setdefault(family, ([], [], []))
            xs.append(t - 0.4 + 0.8 * (i + 0.5) / len(members))
            ys.append(n)
            names.append(name)
    for i, name in enumerate(unplaced):
        xs, ys, names = points.setdefault("other", ([], [], []))
        xs.append(1 + i * max(n_periods - 1, 1) / max(len(unplaced), 1))
        ys.append(0)
        names.append(name)
    for fam in sorted(points, key=FAMILIES.index):  # one legend entry per family that has a marker
        xs, ys, names = points[fam]
        fig.add_trace(
            go.Scatter(
                x=xs,
                y=ys,
                text=names,
                mode="markers",
                marker={
                    "size": 9,
                    "color": COLORS[FAMILIES.index(fam)],
                    "line": {"width": 1, "color": "#333"},
                },
                name=fam,
                hovertemplate="%{text}<extra></extra>",
            )
        )
    labels = ([0] if unplaced else []) + list(range(1, n_echelons + 1))
    fig.update_yaxes(
        tickvals=labels,
        ticktext=[f"echelon {n}" if n else "other rows" for n in labels],
        autorange="reversed",
    )
    fig.update_layout(
        title=title,
        xaxis_title="Period (planning horizon)",
        yaxis_title="Echelon",
        height=140 + 45 * (n_echelons + bool(unplaced)),
        margin={"l": 10, "r": 10, "t": 40, "b": 10},
        legend={"orientation": "h", "y": -0.35},
    )
    return fig


def member_count(fig: go.Figure) -> int:
    """How many IIS rows the figure draws (its markers)."""
    return sum(len(t.x) for t in fig.data if isinstance(t, go.Scatter))


AGENT_PALETTE = ("#1F77B4", "#FF7F0E", "#2CA02C", "#D62728", "#9467BD", "#8C564B", "#E377C2", "#7F7F7F")


def agent_colors(agents) -> dict[str, str]:
    """One colour per agent, the same in every chart of a frame: assigned in sorted name order."""
    return {a: AGENT_PALETTE[i % len(AGENT_PALETTE)] for i, a in enumerate(sorted(set(agents)))}


JUDGE_COLUMNS = {"RRR paper": "rational", "RRR strict": "rational_strict", "exact": "exact_repair"}


def _judges(frame: pd.DataFrame) -> dict[str, str]:
    """The judge columns the frame has (`rational` always; strict and exact repair when recorded)."""
    return {k: v for k, v in JUDGE_COLUMNS.items() if v in frame.columns}


def _per_agent_and_type(frame: pd.DataFrame, judges: dict[str, str], **aggs: tuple[str, str]) -> pd.DataFrame:
    """Means per agent and error type of each judge's column, plus `aggs`."""
    return frame.groupby(["agent", "error_type"], as_index=False).agg(
        **aggs, **{k: (v, "mean") for k, v in judges.items()}
    )


def _agent_figure(plot: Callable[..., go.Figure], long: pd.DataFrame, frame: pd.DataFrame, **kw: Any) -> go.Figure:
    """A plotly express figure of `long`, coloured by agent with `agent_colors` (the same in every chart)."""
    return plot(long, color="agent", color_discrete_map=agent_colors(frame["agent"]), **kw)


def rr_by_type(frame: pd.DataFrame) -> go.Figure:
    """RR, RRR under the paper and strict judges, and exact repair per error type and agent."""
    judges = _judges(frame)
    g = _per_agent_and_type(frame, judges, RR=("recovered", "mean"))
    g["order"] = g["error_type"].str.split("-").str[1].astype(int)
    long = g.sort_values("order").melt(
        id_vars=["agent", "error_type", "order"], value_vars=["RR", *judges], var_name="metric"
    )
    fig = _agent_figure(
        px.bar,
        long,
        frame,
        x="error_type",
        y="value",
        barmode="group",
        facet_row="metric",
        range_y=[0, 1.05],
        labels={"error_type": "Error type", "value": "Share of runs (0 to 1)", "metric": "Measure", "agent": "Agent"},
    )
    fig.update_layout(
        height=130 + 130 * len(judges),
        title="Recovery (RR), rational recovery under both judges, exact repair",
    )
    return fig


def steps_vs_rrr(frame: pd.DataFrame) -> go.Figure:
    """Mean steps against RRR under the paper judge, the strict judge and exact repair (one panel each; one
    point per agent and error type; one colour per agent in every panel)."""
    judges = _judges(frame)
    g = _per_agent_and_type(frame, judges, steps=("steps", "mean"), n=("recovered", "size"))
    long = g.melt(id_vars=["agent", "error_type", "steps", "n"], value_vars=list(judges), var_name="judge")
    fig = _agent_figure(
        px.scatter,
        long,
        frame,
        x="steps",
        y="value",
        size="n",
        facet_col="judge",
        category_orders={"judge": list(judges)},
        hover_name="error_type",
        range_y=[-0.05, 1.05],
        labels={"steps": "Mean steps (repair actions)", "value": "Share of runs (0 to 1)"},
    )
    fig.update_layout(
        title="Mean steps vs RRR under both judges and exact repair (one point per agent and error type)",
        height=380,
    )
    return fig
