"""Policy Simulator figures: the traces carry the data, the markers sit where they should."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest

from core.inventory.simulator import charts
from core.inventory.simulator.inputs import default_problem
from solvers.inventory.montecarlo import evaluate_policies
from solvers.inventory.policies import BaseStockPolicy, SSPolicy


@pytest.fixture(scope="module")
def evaluations():
    problem = default_problem()
    return problem, evaluate_policies(
        problem, [SSPolicy(15, 20), BaseStockPolicy(19, 12)], paths=40, seed=3, record=2
    )


def test_trajectory_panels_show_each_policy_on_the_same_demand(evaluations):
    problem, evs = evaluations
    trajs = {e.policy: e.trajectory for e in evs}
    fig = charts.trajectory_figure(trajs, path=1, lost_sales=problem.lost_sales)
    assert isinstance(fig, go.Figure)
    assert len(fig.data) == 4 * len(trajs) + 1
    titles = [a.text for a in fig.layout.annotations]
    assert titles[:3] == list(charts.TRAJECTORY_ROWS) and titles[3].startswith("Lost demand")
    for name, traj in trajs.items():
        rows = [t for t in fig.data if t.legendgroup == name]
        assert rows[0].name == charts.policy_label(name) and "(" not in rows[0].name
        assert [t.yaxis for t in rows] == ["y", "y2", "y3", "y4"]
        assert np.array_equal(rows[0].y, traj.on_hand[1])
        assert np.array_equal(rows[1].y, traj.pipeline[1].sum(axis=-1))
        assert np.array_equal(rows[2].y, traj.orders[1])
        assert np.array_equal(rows[3].y, traj.shortage[1])
        assert list(rows[0].x) == list(range(problem.time_horizon))  # t = 0..T-1
    demand = next(t for t in fig.data if t.name == "Demand")
    assert np.array_equal(demand.y, evs[0].trajectory.demand[1]) and demand.yaxis == "y4"
    backlog = charts.trajectory_figure(trajs, 0, lost_sales=False)
    assert backlog.layout.annotations[3].text.startswith("Backordered demand")


@pytest.mark.parametrize("kind", ["violin", "histogram"])
def test_cost_distributions_hold_every_path_cost(evaluations, kind):
    _, evs = evaluations
    costs = {e.policy: e.costs for e in evs}
    fig = charts.cost_distribution_figure(costs, kind, reference=190.7357)
    trace_type = go.Violin if kind == "violin" else go.Histogram
    assert [type(t) for t in fig.data] == [trace_type] * len(costs)
    for trace, (name, values) in zip(fig.data, costs.items(), strict=True):
        assert trace.meta == name
        assert np.allclose(trace.y if kind == "violin" else trace.x, values)
    shape = fig.layout.shapes[0]
    assert (shape.y0 if kind == "violin" else shape.x0) == pytest.approx(190.7357)
    assert not charts.cost_distribution_figure(costs, kind).layout.shapes
    with pytest.raises(ValueError):
        charts.cost_distribution_figure(costs, "pie")


def test_heatmap_marks_the_grid_argmin():
    rng = np.random.default_rng(4)
    n = 12
    z = rng.uniform(100, 200, (n, n))
    z[np.tril_indices(n, -1)] = np.nan  # s > S is not a policy
    z[3, 7] = 42.0
    fig = charts.grid_heatmap_figure(z, chosen=(4, 8))
    heat, star, circle = fig.data
    assert np.array_equal(np.asarray(heat.z, dtype=float), z, equal_nan=True)
    assert (star.x[0], star.y[0]) == (7, 3)
    assert "(3,7)" in star.name and "42.00" in star.name
    assert (circle.x[0], circle.y[0]) == (8, 4)
    assert heat.zmin == pytest.approx(42.0)
    same = charts.grid_heatmap_figure(z, chosen=(3, 7))
    assert len(same.data) == 2
    with pytest.raises(ValueError):
        charts.grid_heatmap_figure(np.full((3, 3), np.nan))


@pytest.fixture
def candidates():
    return pd.DataFrame(
        {
            "policy": ["sS(1,5)", "sS(2,6)", "steady", "cheap", "wild"],
            "mean": [130.0, 140.0, 105.0, 100.0, 99.0],
            "std": [30.0, 25.0, 8.0, 10.0, 40.0],
            "group": ["(s,S) grid", "(s,S) grid", "compared", "compared", "compared"],
        }
    )


@pytest.mark.parametrize(("lam", "expected"), [(-3.0, "steady"), (0.0, "cheap"), (8.0, "wild")])
def test_risk_scatter_marks_the_choice_for_lambda_and_its_iso_line(candidates, lam, expected):
    scores = candidates["mean"] + math.exp(-lam) * candidates["std"]
    compared = candidates["group"] == "compared"
    assert candidates.loc[scores[compared].idxmin(), "policy"] == expected
    assert candidates.loc[charts.risk_choice(candidates, lam), "policy"] == expected
    fig = charts.risk_scatter_figure(candidates, lam)
    star = next(t for t in fig.data if t.name.startswith("choice"))
    row = candidates[candidates["policy"] == expected].iloc[0]
    assert (star.x[0], star.y[0]) == (row["std"], row["mean"]) and expected in star.name
    line = next(t for t in fig.data if t.name.startswith("L(π)"))
    level = row["mean"] + math.exp(-lam) * row["std"]
    assert np.allclose(np.asarray(line.y), level - math.exp(-lam) * np.asarray(line.x))
    grid = next(t for t in fig.data if t.name == "(s,S) grid")
    assert list(grid.customdata) == ["sS(1,5)", "sS(2,6)"]


def test_risk_choice_falls_back_to_all_rows_without_compared_policies(candidates):
    grid_only = candidates.assign(group="(s,S) grid")
    assert grid_only.loc[charts.risk_choice(grid_only, 0.0), "policy"] == "cheap"


def test_learning_curve_marks_the_kept_checkpoint_and_references():
    curve = [
        {"step": 10, "env_steps": 1280, "validation_cost": 260.0},
        {"step": 20, "env_steps": 2560, "validation_cost": 201.5},
        {"step": 30, "env_steps": 3840, "validation_cost": 210.0},
    ]
    fig = charts.learning_curve_figure(curve, {"DP optimum": 190.7357, "best (s,S)": 196.7})
    line, kept = fig.data
    assert list(line.x) == [1280, 2560, 3840] and list(line.y) == [260.0, 201.5, 210.0]
    assert (kept.x[0], kept.y[0]) == (2560, 201.5)
    assert sorted(s.y0 for s in fig.layout.shapes) == [190.7357, 196.7]
    assert len(charts.learning_curve_figure(curve).layout.shapes) == 0


def test_each_policy_has_its_own_colour_dash_and_symbol_and_labels_do_not_overprint(evaluations):
    problem, evs = evaluations
    trajs = {e.policy: e.trajectory for e in evs} | {"constant(8)": evs[0].trajectory, "dp": evs[1].trajectory}
    fig = charts.trajectory_figure(trajs, 0, problem.lost_sales)
    looks = {(t.line.color, t.line.dash, t.marker.symbol) for t in fig.data if t.legendgroup in trajs}
    assert len(looks) == len(trajs)
    assert fig.layout.font.size >= 14
    candidates = pd.DataFrame(
        {"policy": list(trajs), "mean": [10.0, 10.1, 10.2, 10.3], "std": [2.0, 2.0, 2.1, 2.1], "group": "compared"}
    )
    scatter = charts.risk_scatter_figure(candidates, 0.0)
    assert not any("text" in (t.mode or "") for t in scatter.data)
    points = [t for t in scatter.data if t.customdata is not None and len(t.customdata) == 1]
    assert len({(t.marker.color, t.marker.symbol) for t in points}) == len(trajs)
    violins = charts.cost_distribution_figure({p: np.arange(5.0) for p in trajs}, "violin")
    assert all(len(line) <= 20 for t in violins.data for line in t.name.split("<br>"))


def test_cost_bars_whiskers_and_colours():
    """The comparison table's bars (asymmetric CI) and the copilot's (symmetric): whiskers measured from the mean,
    the recommended bar red."""
    from core.inventory.simulator.charts import comparison_figure, cost_bars

    bar = cost_bars(["a", "b"], [10.0, 20.0], [12.0, 25.0], [9.0, 14.0], [False, True], ["A", "B"])
    assert list(bar.error_y.array) == [2.0, 5.0] and list(bar.error_y.arrayminus) == [1.0, 6.0]
    assert list(bar.marker.color) == ["#4c78a8", "#e4572e"] and list(bar.hovertext) == ["A", "B"]
    assert cost_bars(["a"], [10.0], [13.0], None, [True], ["A"]).error_y.arrayminus is None
    table = pd.DataFrame(
        {"policy": ["ss", "base"], "mean": [30.0, 20.0], "ci95_low": [28.0, 19.0], "ci95_high": [31.0, 24.0],
         "recommended": [False, True]}  # fmt: skip
    )
    shown = comparison_figure(table).data[0]
    assert list(shown.y) == [20.0, 30.0] and list(shown.error_y.arrayminus) == [1.0, 2.0]
    assert list(shown.marker.color) == ["#e4572e", "#4c78a8"]


def _trajectory_reference(trajectories, path, lost_sales):
    """The trajectory figure as Plotly's validated builders make it (`make_subplots`, `add_trace`)."""
    from plotly.subplots import make_subplots

    shortage = ("Lost demand" if lost_sales else "Backordered demand") + " (dotted: demand)"
    fig = make_subplots(
        rows=4, cols=1, shared_xaxes=True, vertical_spacing=0.05, subplot_titles=(*charts.TRAJECTORY_ROWS, shortage)
    )
    for i, (name, traj) in enumerate(trajectories.items()):
        rows = (traj.on_hand[path], traj.pipeline[path].sum(axis=-1), traj.orders[path], traj.shortage[path])
        look = charts.style(i)
        for row, values in enumerate(rows, start=1):
            fig.add_trace(
                go.Scatter(
                    x=np.arange(traj.on_hand.shape[1]), y=values, name=charts.policy_label(name), legendgroup=name,
                    showlegend=row == 1, mode="lines+markers",
                    line={"shape": "hv", "color": look["color"], "dash": look["dash"], "width": 2.5},
                    marker={"size": 6, "symbol": look["symbol"]},
                    hovertemplate=f"{name}<br>t=%{{x}}: %{{y}}<extra></extra>",
                ),
                row=row, col=1,
            )  # fmt: skip
    demand = next(iter(trajectories.values())).demand[path]
    fig.add_trace(
        go.Scatter(x=np.arange(len(demand)), y=demand, name="Demand", mode="lines",
                   line={"dash": "dot", "color": "grey", "shape": "hv"}),
        row=4, col=1,
    )  # fmt: skip
    fig.update_xaxes(title_text="Period t (0 = the first)", row=4, col=1)
    fig.update_yaxes(title_text="Quantity (units)")
    fig.update_layout(legend={"orientation": "h", "y": -0.08})
    fig.update_layout(
        title=f"Sample path {path + 1}: every policy facing the same demand", height=820,
        margin={"l": 70, "r": 20, "t": 70, "b": 60}, legend_title_text="", font={"size": charts.FONT_SIZE},
    )  # fmt: skip
    return fig


@pytest.mark.parametrize("lost_sales", [True, False])
def test_the_unvalidated_trajectory_figure_is_the_validated_one(evaluations, lost_sales):
    """The fast build (plain dicts, no per-property validation; issue 31) sends the browser the same JSON as
    Plotly's validated builders."""
    _, evs = evaluations
    trajs = {e.policy: e.trajectory for e in evs}
    fast = json.loads(charts.trajectory_figure(trajs, 1, lost_sales).to_json())
    assert fast == json.loads(charts.trajectory_figure(trajs, 1, lost_sales, validate=True).to_json())
    assert fast == json.loads(_trajectory_reference(trajs, 1, lost_sales).to_json())
