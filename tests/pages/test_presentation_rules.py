"""The generic presentation rules (`tests/support/page_audit.py`, walked after every page test's AppTest runs by
`tests/pages/conftest.py`): the audit itself on deliberately broken pages, no page drawing a chart outside
`core.ui`'s enlarging helpers, every page's first paint in presentation mode, and the RetailBench replay's
diagnostics chart (once `st.bar_chart`) enlarged with axis titles."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.ui import PRESENT_FONT_PX
from tests.support.page_audit import UNIT_FREE, findings, unit_finding

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted((ROOT / "pages").glob("*.py"))
DIRECT_CHARTS = {"bar_chart", "line_chart", "area_chart", "scatter_chart", "altair_chart", "pyplot",
                 "plotly_chart", "vega_lite_chart", "bokeh_chart", "graphviz_chart"}  # fmt: skip


def broken_page() -> None:
    import pandas as pd
    import plotly.graph_objects as go
    import streamlit as st

    from core.ui import plotly_chart, presentation_mode, vega_lite_chart

    presentation_mode()
    st.dataframe(pd.DataFrame({"net worth": [213505.9679], "units": [12345], "seed": [20260524]}))
    st.plotly_chart(go.Figure(go.Bar(x=["a"], y=[1])))
    st.bar_chart(pd.DataFrame({"x": ["a", "b"], "y": [1, 2]}), x="x", y="y")
    plotly_chart(go.Figure(go.Scatter(x=[1, 2], y=[3.5, 4.0])).update_layout(xaxis_title="Lead time",
                                                                                yaxis_title="Holding cost"))
    vega_lite_chart(pd.DataFrame({"d": [1], "v": [2]}), {"mark": "line", "encoding": {
        "x": {"field": "d", "type": "quantitative", "title": "Day of the run"},
        "y": {"field": "v", "type": "quantitative", "title": "Net worth"}}})  # fmt: skip
    st.error("Cannot read /tmp/tmpab12cd34/model.lp: line 3")
    st.checkbox("Analyse only the LP relaxation if the model is a MIP")
    st.warning("The model is a MIP: tick “relax integrality” to analyse its LP relaxation.")


def kept_page() -> None:
    import pandas as pd
    import plotly.graph_objects as go
    import streamlit as st

    from core.ui import plotly_chart, presentation_mode, vega_lite_chart

    presentation_mode()
    st.dataframe(pd.DataFrame({"net worth": [213505.9679], "units": ["12,345"], "seed": [20260524]}),
                 column_config={"net worth": st.column_config.NumberColumn(format="dollar")})  # fmt: skip
    plotly_chart(go.Figure(go.Bar(x=["a"], y=[1])).update_layout(xaxis_title="Store", yaxis_title="Sales (units)"))
    plotly_chart(go.Figure(go.Histogram(x=[1.5, 2.5])).update_layout(xaxis_title="Cost reduction (%)",
                                                                      yaxis_title="Number of scenarios"))
    vega_lite_chart(pd.DataFrame({"x": [1], "y": [2]}), {"mark": "bar", "encoding": {
        "x": {"field": "x", "type": "quantitative", "title": "Day of the run"},
        "y": {"field": "y", "type": "quantitative", "title": "Net worth ($)"}}})  # fmt: skip
    st.error("Cannot read my_model.lp: line 3")
    st.checkbox("Analyse only the LP relaxation if the model is a MIP")
    st.warning("The model is a MIP: tick “Analyse only the LP relaxation if the model is a MIP” to go on.")


@pytest.mark.parametrize("present", [False, True])
def test_the_audit_finds_each_broken_rule_and_passes_a_kept_page(present, presentation_rules):
    broken = AppTest.from_function(broken_page, default_timeout=60)
    kept = AppTest.from_function(kept_page, default_timeout=60)
    for at in (broken, kept):
        if present:
            at.query_params["present"] = "1"
        at.run()
        assert not at.exception
    presentation_rules.clear()  # the broken page is broken on purpose: not a finding of this test
    found = "\n".join(findings(broken, presenting=present))
    assert "'net worth' is shown raw (e.g. 213505.9679)" in found and "'units' is shown raw" in found
    assert "column 'seed'" not in found  # identifiers are shown as they are
    assert "xaxis has no title" in found and "yaxis has no title" in found
    assert "xaxis shows numbers but its title 'Lead time' names no unit" in found  # a number axis without its unit
    assert "yaxis shows numbers but its title 'Holding cost' names no unit" in found
    assert "its y axis shows numbers but its title 'Net worth' names no unit" in found
    assert "'Day of the run' names no unit" not in found  # a position in the run: unit-free, with a reason
    assert found.count("names no unit") == 3  # the untitled bar's category axis needs no unit
    assert "names a temporary file" in found
    assert "points at “relax integrality”, but no widget on the page has that label" in found
    assert ("not enlarged in presentation mode" in found) is present
    assert found.count("not enlarged") == (2 if present else 0)  # the bare plotly chart and st.bar_chart
    assert findings(kept, presenting=present) == []


@pytest.mark.parametrize(
    ("title", "named"),
    [("Total cost over the horizon ($)", True), ("Lead time (days)", True), ("Fill rate %", True),
     ("Stock<br>(units)", True), ("Number of scenarios", True), ("Day of the run", True), ("units", False),
     ("Cost", False), ("Day of the run in dollars", False), ("Cost ()", False), ("Mean cost (hybrid) per day", False),
     ("Share of runs", False), ("Share of runs (0 to 1)", True)],
)  # fmt: skip
def test_a_number_axis_title_names_its_unit(title, named):
    assert (unit_finding(title) is None) is named


def test_every_unit_free_quantity_says_why():
    assert all(len(reason.split()) >= 5 for reason in UNIT_FREE.values())


def _direct_chart_calls(path: Path) -> list[str]:
    calls = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in DIRECT_CHARTS:
            owner = node.func.value
            if not (isinstance(owner, ast.Name) and owner.id in ("ui",)):
                calls.append(f"{path.name}:{node.lineno} {node.func.attr}")
    return calls


def test_no_page_draws_a_chart_outside_the_enlarging_helpers():
    """Every chart goes through `core.ui.plotly_chart` / `vega_lite_chart` / `line_chart` (imported by name), the
    one path presentation mode enlarges; `st.bar_chart`, `a.bar_chart`, `st.plotly_chart` … are findings."""
    assert [c for page in PAGES for c in _direct_chart_calls(page)] == []


def test_the_static_check_catches_a_column_bar_chart(tmp_path):
    page = tmp_path / "page.py"
    page.write_text("import streamlit as st\na, b = st.columns(2)\na.bar_chart([1, 2])\nst.plotly_chart(f)\n")
    assert _direct_chart_calls(page) == ["page.py:3 bar_chart", "page.py:4 plotly_chart"]


@pytest.mark.parametrize("page", [p.name for p in PAGES if p.name != "home.py"])
def test_every_pages_first_paint_keeps_the_rules_in_presentation_mode(page, monkeypatch, tmp_path):
    """Each page opened with `?present=1` on an empty store (offline); the conftest audits it."""
    monkeypatch.setenv("ORCA_DB", str(tmp_path / "runs.duckdb"))
    at = AppTest.from_file(str(ROOT / "pages" / page), default_timeout=120)
    at.query_params["present"] = "1"
    at.run()
    assert not at.exception
    assert at.session_state["orca_present"] is True


def test_replay_diagnostics_and_units_sold_charts_are_enlarged_with_axis_titles(monkeypatch, tmp_path):
    from core.retail.run import run_agent
    from core.store import Store
    from core.store.retail import retail_records

    db = tmp_path / "runs.duckdb"
    monkeypatch.setenv("ORCA_DB", str(db))
    run_id = run_agent("oracle", days=4, seed=0, store=Store(db))["run_id"]  # it sells from the first days
    at = AppTest.from_file(str(ROOT / "pages" / "retailbench_replay.py"), default_timeout=60)
    at.query_params["present"] = "1"
    at.session_state["orca_retail_replay_run"] = run_id
    at.session_state["orca_retail_tab"] = "Diagnostics"
    at.run()
    at.button(key="orca_retail_diag_go").click().run()
    assert not at.exception
    (layout,) = [json.loads(c.proto.spec)["layout"] for c in at.get("plotly_chart")]
    assert layout["font"]["size"] == PRESENT_FONT_PX and layout["height"] == 400  # 320 × 1.25
    assert (layout["xaxis"]["title"]["text"], layout["yaxis"]["title"]["text"]) == (
        "Diagnostic measure", "Share (percent)")  # fmt: skip
    assert layout["yaxis"]["tickformat"] == ".0%"
    diag = next(d for d in at.dataframe if "QualityFirst" in d.value.columns)
    assert json.loads(diag.proto.columns)["QualityFirst"]["type_config"]["format"] == "percent"
    at.session_state["orca_retail_tab"] = "Product"
    at.run()
    sold = retail_records(Store(db), run_id, "sales")
    sku = str(sold.sort_values("move", ascending=False)["sku_id"].iloc[0])  # a product that sold
    at.selectbox(key="orca_retail_sku").set_value(sku).run()
    (units,) = [json.loads(c.proto.spec)["layout"] for c in at.get("plotly_chart")]
    assert units["yaxis"]["title"]["text"] == "Units sold (units per day)" and units["font"]["size"] == PRESENT_FONT_PX


def _presented(page: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "pages" / page), default_timeout=180)
    at.query_params["present"] = "1"
    return at.run()


def _plotly_layouts(at: AppTest) -> list[dict]:
    return [json.loads(c.proto.spec)["layout"] for c in at.get("plotly_chart")]


def test_after_a_run_every_chart_is_enlarged_and_titled_in_presentation_mode(monkeypatch, tmp_path):
    """The Policy Simulator's results and the LP Repair Lab's benchmark, in presentation mode (the conftest audits
    every chart; here also that there are charts to audit)."""
    monkeypatch.setenv("ORCA_DB", str(tmp_path / "runs.duckdb"))
    monkeypatch.setenv("ORCA_LP_DATA", str(tmp_path / "no-dataset"))  # the built-in 10-problem sample
    sim = _presented("policy_simulator.py")
    sim.number_input(key="orca_sim_paths").set_value(200)
    sim.number_input(key="orca_sim_grid_paths").set_value(100)
    sim.button(key="FormSubmitter:orca_sim_form-Run simulation").click().run()
    lp = _presented("lp_repair_lab.py")
    lp.number_input(key="lp_bench_n").set_value(1).run()
    lp.button(key="lp_bench_run").click().run()
    for at in (sim, lp):
        assert not at.exception
        layouts = _plotly_layouts(at)
        assert len(layouts) >= 2 and all(layout["font"]["size"] == PRESENT_FONT_PX for layout in layouts)
        assert findings(at, presenting=True) == []
