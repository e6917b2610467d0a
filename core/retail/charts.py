"""Plotly figures of the RetailBench replay (no streamlit here: the page shows them through
`core.ui.plotly_chart`, so they grow in presentation mode), each with axis titles and units."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

NOT_RATES = ("Acted/day", "QDepth", "PriceDist %")
"""Headline diagnostics that are not shares between 0 and 1 (a count per day, a mean query depth, a distance in
percent): shown in the table, left out of the rates chart."""
DIAGNOSTIC_FORMATS = {"Acted/day": "%.1f", "QDepth": "%.2f", "PriceDist %": "%.1f%%"}
"""Number formats of the diagnostics table (Streamlit `NumberColumn` formats); every other column is a share."""
MARGIN = {"t": 30, "b": 40, "l": 60, "r": 20}


def units_sold_figure(sales: pd.DataFrame) -> go.Figure:
    """A product's units sold per day (`sales`: columns `date`, `move`) as bars."""
    fig = go.Figure(go.Bar(x=sales["date"], y=sales["move"], hovertemplate="%{x}<br>%{y:,} units<extra></extra>"))
    fig.update_layout(xaxis_title="Date", yaxis_title="Units sold (units per day)", height=260, margin=MARGIN)
    fig.update_yaxes(tickformat=",d", rangemode="tozero")
    return fig


def diagnostics_figure(frame: pd.DataFrame) -> go.Figure:
    """The share-valued headline diagnostics (`frame`: one row per run, one column per `replay.HEADLINE` label),
    one group of bars per measure and one bar per run, on a 0–100 % axis."""
    rates = [c for c in frame.columns if c not in NOT_RATES]
    fig = go.Figure(
        [
            go.Bar(name=str(run), x=rates, y=[row[c] for c in rates],
                   hovertemplate="%{x}: %{y:.1%}<extra>" + str(run) + "</extra>")  # fmt: skip
            for run, row in frame.iterrows()
        ]
    )
    fig.update_layout(barmode="group", xaxis_title="Diagnostic measure", yaxis_title="Share (percent)",
                      height=320, margin=MARGIN, legend_title_text="Run")  # fmt: skip
    fig.update_yaxes(tickformat=".0%", range=[0, 1.05])
    return fig
