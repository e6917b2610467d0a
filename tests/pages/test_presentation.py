"""Presentation mode (`?present=1` and the sidebar button) through Streamlit's AppTest (no browser)."""

from streamlit.testing.v1 import AppTest


def present_script() -> None:
    from core.ui import presentation_mode

    presentation_mode()


def test_url_parameter_turns_presentation_mode_on_and_exit_clears_it():
    at = AppTest.from_function(present_script, default_timeout=60)
    at.query_params["present"] = "1"
    at.run()
    assert not at.exception
    assert at.session_state["orca_present"] is True
    assert at.button(key="orca_present_exit")
    at.button(key="orca_present_exit").click().run()
    assert at.session_state["orca_present"] is False
    assert "present" not in at.query_params
    assert at.sidebar.button(key="orca_present_enter")


def test_sidebar_button_turns_presentation_mode_on_and_puts_it_in_the_url():
    at = AppTest.from_function(present_script, default_timeout=60).run()
    assert at.session_state["orca_present"] is False
    at.sidebar.button(key="orca_present_enter").click().run()
    assert not at.exception
    assert at.session_state["orca_present"] is True
    assert at.query_params["present"] in ("1", ["1"])


def test_run_link_opens_the_run_in_its_page():
    from core.ui import run_link

    assert run_link("pages/inventory_copilot.py", "abc123") == "/inventory_copilot?run=abc123"


def chart_script() -> None:
    import plotly.graph_objects as go
    import streamlit as st

    from core.ui import plotly_chart, presentation_mode

    presentation_mode()
    figure = go.Figure(go.Scatter(x=[1, 2], y=[3, 4]))
    figure.update_layout(height=400, title="t", xaxis_title="Day of the run", yaxis_title="Net worth ($)")
    plotly_chart(figure, key="chart")
    plotly_chart(figure, where=st.columns(2)[0], key="in_column")


def _layout(chart) -> dict:
    import json

    return json.loads(chart.proto.spec)["layout"]


def test_presentation_mode_enlarges_every_plotly_chart_through_one_helper():
    from core.ui import PRESENT_FONT_PX

    plain = AppTest.from_function(chart_script, default_timeout=60).run()
    assert not plain.exception
    assert all(_layout(c).get("height") == 400 and "font" not in _layout(c) for c in plain.get("plotly_chart"))

    shown = AppTest.from_function(chart_script, default_timeout=60)
    shown.query_params["present"] = "1"
    shown.run()
    assert not shown.exception
    charts = shown.get("plotly_chart")
    assert len(charts) == 2
    for chart in charts:
        layout = _layout(chart)
        assert layout["font"]["size"] == PRESENT_FONT_PX and layout["height"] == 500
        assert layout["xaxis"]["tickfont"]["size"] == PRESENT_FONT_PX - 2


def test_a_workbench_chart_is_enlarged_in_presentation_mode(monkeypatch, tmp_path):
    from pathlib import Path

    from core.ui import PRESENT_FONT_PX

    monkeypatch.setenv("ORCA_DB", str(tmp_path / "present.duckdb"))
    at = AppTest.from_file(str(Path(__file__).resolve().parents[2] / "pages" / "school_scheduling.py"),
                           default_timeout=120)  # fmt: skip
    at.query_params["present"] = "1"
    at.run()
    for _ in range(300):
        if at.get("plotly_chart"):
            break
        import time

        time.sleep(0.1)
        at.run()
    assert not at.exception
    assert _layout(at.get("plotly_chart")[0])["font"]["size"] == PRESENT_FONT_PX


def vega_script() -> None:
    import pandas as pd

    from core.ui import presentation_mode, vega_lite_chart

    presentation_mode()
    data = pd.DataFrame({"x": [1, 2], "y": [3, 4]})
    vega_lite_chart(data, {"mark": "line", "height": 200, "encoding": {"x": {"field": "x", "title": "Day"},
                                                                       "y": {"field": "y", "title": "Units"}}})


def test_presentation_mode_enlarges_vega_lite_charts_too():
    import json

    from core.ui import PRESENT_FONT_PX

    plain = AppTest.from_function(vega_script, default_timeout=60).run()
    spec = json.loads(plain.get("vega_lite_chart")[0].proto.spec)
    assert spec["height"] == 200 and "axis" not in spec.get("config", {})
    shown = AppTest.from_function(vega_script, default_timeout=60)
    shown.query_params["present"] = "1"
    shown.run()
    assert not shown.exception
    spec = json.loads(shown.get("vega_lite_chart")[0].proto.spec)
    assert spec["height"] == 250 and spec["config"]["axis"]["titleFontSize"] == PRESENT_FONT_PX
