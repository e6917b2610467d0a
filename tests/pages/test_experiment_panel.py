"""`core.ui.experiment_panel`, the progress panel both background-experiment pages share (AppTest)."""

import json

from streamlit.testing.v1 import AppTest


def panel_script() -> None:
    import streamlit as st

    from core.ui import experiment_panel

    class Rows:
        """A store stand-in: one experiment whose status the test sets in the session state."""

        def get_experiment(self, exp_id: str) -> dict:
            status = st.session_state.get("status", "running")
            return {"id": exp_id, "status": status, "cells": 4, "done": 2, "failed": 1}

    st.session_state["runs"] = st.session_state.get("runs", 0) + 1
    with experiment_panel(Rows(), "no-such-run", "cells", "was_running", "its driver stopped") as state:
        st.session_state["state"] = (state.running, state.stalled)
        st.caption("the page's own line")


def test_the_panel_shows_progress_then_the_pages_lines_and_names_a_stalled_experiment():
    at = AppTest.from_function(panel_script, default_timeout=60).run()
    assert not at.exception
    assert at.session_state["state"] == (True, False) and not at.warning
    assert at.caption[0].value == "the page's own line"
    at.session_state["status"] = "stalled"
    at.run()
    assert at.session_state["state"] == (False, True)
    assert [w.value for w in at.warning] == ["its driver stopped"]


def test_the_page_reruns_once_when_the_experiment_stops_running():
    at = AppTest.from_function(panel_script, default_timeout=60).run()
    assert at.session_state["runs"] == 1
    at.session_state["status"] = "done"
    at.run()
    assert not at.exception
    assert at.session_state["runs"] == 3, "the run that saw it stop reruns the page once"
    assert at.session_state["state"] == (False, False) and not at.warning
    at.run()
    assert at.session_state["runs"] == 4


def table_script() -> None:
    import pandas as pd
    import streamlit as st

    from core.ui import number_table

    frame = pd.DataFrame({"agent": ["a"], "cost_usd": [0.5]})
    number_table(frame, key="t")
    number_table(frame, where=st.columns(2)[1], key="in_column")


def test_number_table_hides_the_index_and_formats_the_number_columns():
    at = AppTest.from_function(table_script, default_timeout=60).run()
    assert not at.exception
    tables = at.dataframe
    assert len(tables) == 2
    for table in tables:
        config = json.loads(table.proto.columns)
        assert config["_index"] == {"hidden": True}
        assert config["cost_usd"]["type_config"]["format"] == "$%.4f"
