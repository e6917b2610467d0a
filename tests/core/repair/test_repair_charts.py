"""The IIS grid places rows on (echelon, period) cells and colours shared cells by the likely cause."""

from core.repair.charts import FAMILIES, agent_colors, iis_grid, locate, member_count


def test_locate_rows_on_the_grid() -> None:
    assert locate("capacity_e1_t10", 3) == ("capacity", 1, 10)
    assert locate("supply_cap_t4", 3) == ("supply_cap", 3, 4)  # factory-level rows sit on echelon N
    assert locate("min_order_t2", 5) == ("min_order", 5, 2)
    assert locate("mystery_row", 3) is None


def test_grid_cells_and_priority() -> None:
    fig = iis_grid(["inv_balance_e2_t1", "demand_prop_e2_t1", "backorder_cap_e2_t2", "min_order_t3"], 3, 4)
    z = fig.data[0].z
    assert z[1][0] == FAMILIES.index("demand_prop")  # not inv_balance: the balance row is rarely the cause
    assert z[1][1] == FAMILIES.index("backorder_cap")
    assert z[2][2] == FAMILIES.index("min_order")
    assert z[0] == (None, None, None, None) or list(z[0]) == [None] * 4
    assert "inv_balance_e2_t1" in fig.data[0].text[1][0] and "demand_prop_e2_t1" in fig.data[0].text[1][0]


def test_rr_by_type_charts_both_judges_and_exact() -> None:
    import pandas as pd

    from core.repair.charts import rr_by_type

    frame = pd.DataFrame(
        {
            "agent": ["a", "a"],
            "error_type": ["ME-7", "ME-9"],
            "recovered": [True, True],
            "rational": [True, True],
            "rational_strict": [False, True],
            "exact_repair": [False, True],
        }
    )
    bars = {(t.name, x, y) for t in rr_by_type(frame).data for x, y in zip(t.x, t.y, strict=True)}
    facets = {a.text.split("=")[-1] for a in rr_by_type(frame).layout.annotations}
    assert facets == {"RR", "RRR paper", "RRR strict", "exact"}
    assert ("a", "ME-7", 0.0) in bars and ("a", "ME-7", 1.0) in bars


def test_every_member_is_drawn_and_the_legend_lists_only_drawn_families() -> None:
    """The audit's case: 7 rows in 3 cells used to show 3 cells, and legend families hidden under others."""
    rows = [
        "inv_balance_e1_t1",
        "demand_prop_e1_t1",
        "inv_balance_e1_t2",
        "backorder_cap_e1_t2",
        "inv_balance_e2_t2",
        "capacity_e2_t2",
        "mystery_row",
    ]
    fig = iis_grid(rows, 2, 3)
    assert member_count(fig) == len(rows)
    drawn = {t.name: list(t.text) for t in fig.data[1:]}
    assert set(drawn) == {"inv_balance", "demand_prop", "backorder_cap", "capacity", "other"}
    assert all(drawn.values()) and drawn["other"] == ["mystery_row"]
    assert sorted(n for names in drawn.values() for n in names) == sorted(rows)


def test_one_colour_per_agent_across_the_benchmark_charts() -> None:
    import pandas as pd

    from core.repair.charts import rr_by_type, steps_vs_rrr

    frame = pd.DataFrame(
        {
            "agent": ["zeta", "alpha", "zeta", "alpha"],
            "error_type": ["ME-7", "ME-9", "ME-9", "ME-9"],  # zeta first by type, alpha first by name
            "recovered": [True, True, False, True],
            "rational": [True, False, False, True],
            "steps": [1, 2, 3, 4],
        }
    )
    colours: dict[str, set[str]] = {}
    for fig in (rr_by_type(frame), steps_vs_rrr(frame)):
        for trace in fig.data:
            colours.setdefault(trace.name, set()).add(trace.marker.color)
    assert colours == {a: {c} for a, c in agent_colors(frame["agent"]).items()}


def test_steps_vs_rrr_shows_both_judges_and_exact_with_one_colour_per_agent() -> None:
    import pandas as pd

    from core.repair.charts import steps_vs_rrr

    frame = pd.DataFrame(
        {
            "agent": ["greedy", "offline", "greedy", "offline"],
            "error_type": ["ME-7", "ME-7", "ME-9", "ME-9"],
            "recovered": [True, True, True, True],
            "rational": [True, True, False, True],
            "rational_strict": [False, False, False, True],
            "exact_repair": [False, False, False, True],
            "steps": [6, 1, 3, 1],
        }
    )
    fig = steps_vs_rrr(frame)
    panels = {a.text.split("=")[-1] for a in fig.layout.annotations}
    assert panels == {"RRR paper", "RRR strict", "exact"}
    by_agent: dict[str, set[str]] = {}
    ys: dict[tuple[str, str], list[float]] = {}
    for trace in fig.data:
        by_agent.setdefault(trace.name, set()).add(trace.marker.color)
        ys[(trace.name, trace.xaxis)] = list(trace.y)
    assert by_agent == {a: {c} for a, c in agent_colors(frame["agent"]).items()}
    assert sorted(ys[("offline", "x")]) == [1.0, 1.0] and sorted(ys[("offline", "x2")]) == [0.0, 1.0]
