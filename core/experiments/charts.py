"""Plotly figures of experiment results (no streamlit here; pages show them)."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

KIND_COLOURS = {"offline": "#6c8ebf", "llm": "#d6792c"}


def mean_ci_figure(per_agent: pd.DataFrame, *, metric: str, goal: str) -> go.Figure:
    """Each agent's mean `metric` with its 95% bootstrap CI as error bars, coloured by kind (offline / LLM)."""
    frame = per_agent.reset_index(drop=True)
    upper = (frame["ci_high"] - frame["mean"]).fillna(0).clip(lower=0)
    lower = (frame["mean"] - frame["ci_low"]).fillna(0).clip(lower=0)
    colours = [KIND_COLOURS["offline" if str(k).startswith("offline") else "llm"] for k in frame["kind"]]
    fig = go.Figure(
        go.Bar(
            x=frame["agent"],
            y=frame["mean"],
            marker_color=colours,
            error_y={"type": "data", "array": upper, "arrayminus": lower, "visible": True},
            customdata=frame[["kind", "n", "ci_low", "ci_high"]].to_numpy(),
            hovertemplate="%{x} (%{customdata[0]})<br>mean %{y:.3f}<br>95% CI %{customdata[2]:.3f} – "
            "%{customdata[3]:.3f}<br>n = %{customdata[1]}<extra></extra>",
        )
    )
    better = "lower" if goal == "min" else "higher"
    fig.update_layout(
        title=f"Mean {metric} per agent with 95% bootstrap CI ({better} is better)",
        xaxis_title="Agent",
        yaxis_title=f"{metric} (mean over cells)",
        margin={"t": 60, "b": 40, "l": 60, "r": 20},
        height=380,
    )
    return fig
