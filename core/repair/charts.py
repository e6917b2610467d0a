"""Plotly figures of the LP Repair Lab: the IIS on an echelon x period grid, and benchmark charts."""

from __future__ import annotations

import re

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
    """A heatmap: one cell per (echelon, period), coloured by the constraint family of the IIS rows in it."""
    z = [[None] * n_periods for _ in range(n_echelons)]
    text = [[""] * n_periods for _ in range(n_echelons)]
    for name in iis_rows:
        where = locate(name, n_echelons)
        if where is None:
            continue
        family, n, t = where
        if not (1 <= n <= n_echelons and 1 <= t <= n_periods):
            continue
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
            y=[f"echelon {n}" for n in range(1, n_echelons + 1)],
            text=text,
            hovertemplate="%{y}, period %{x}<br>%{text}<extra></extra>",
            colorscale=scale,
            zmin=-0.5,
            zmax=k - 0.5,
            showscale=False,
            xgap=2,
            ygap=2,
        )
    )
    present = sorted(
        {locate(r, n_echelons)[0] for r in iis_rows if locate(r, n_echelons)}, key=FAMILIES.index
    )
    for fam in present:  # a legend of the families shown
        fig.add_trace(
            go.Scatter(
                x=[None],
                y=[None],
                mode="markers",
                marker={"size": 12, "color": COLORS[FAMILIES.index(fam)]},
                name=fam,
            )
        )
    fig.update_layout(
        title=title,
        xaxis_title="period",
        height=120 + 45 * n_echelons,
        margin={"l": 10, "r": 10, "t": 40, "b": 10},
        legend={"orientation": "h", "y": -0.35},
    )
    return fig


def rr_by_type(frame: pd.DataFrame) -> go.Figure:
    """RR, RRR under the paper and strict judges, and exact repair per error type and agent."""
    extra = {
        "RRR strict": ("rational_strict", "mean"),
        "exact": ("exact_repair", "mean"),
    }
    extra = {k: v for k, v in extra.items() if v[0] in frame.columns}
    g = frame.groupby(["agent", "error_type"], as_index=False).agg(
        RR=("recovered", "mean"), **{"RRR paper": ("rational", "mean")}, **extra
    )
    g["order"] = g["error_type"].str.split("-").str[1].astype(int)
    long = g.sort_values("order").melt(
        id_vars=["agent", "error_type", "order"], value_vars=["RR", "RRR paper", *extra], var_name="metric"
    )
    fig = px.bar(
        long, x="error_type", y="value", color="agent", barmode="group", facet_row="metric", range_y=[0, 1.05]
    )
    fig.update_layout(
        height=260 + 130 * len(extra),
        title="Recovery (RR), rational recovery under both judges, exact repair",
    )
    return fig


def steps_vs_rrr(frame: pd.DataFrame) -> go.Figure:
    g = frame.groupby(["agent", "error_type"], as_index=False).agg(
        steps=("steps", "mean"), RRR=("rational", "mean"), n=("rational", "size")
    )
    fig = px.scatter(
        g, x="steps", y="RRR", color="agent", size="n", hover_name="error_type", range_y=[-0.05, 1.05]
    )
    fig.update_layout(title="Mean steps vs RRR (one point per agent and error type)", height=380)
    return fig
