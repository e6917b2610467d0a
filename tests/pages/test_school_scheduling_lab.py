"""The School Scheduling Lab page headless (AppTest): watch one recorded conversation, run a tiny batch."""

from pathlib import Path

from streamlit.testing.v1 import AppTest

from core.store import Store

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "school_scheduling_lab.py")


def test_watch_and_batch(monkeypatch, tmp_path):
    db = tmp_path / "lab.duckdb"
    monkeypatch.setenv("ORCA_DB", str(db))
    at = AppTest.from_file(PAGE, default_timeout=180).run()
    assert not at.exception
    assert "offline" in at.info[0].value.lower()
    at.radio(key="orca_lab_style").set_value("precise")
    at.radio(key="orca_lab_feedback").set_value("rich")
    at.button(key="orca_lab_run").click().run()
    assert not at.exception
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Score π"] == "1.000"  # u001, precise + rich: reaches U* (hand-checked in the CLI test)
    assert metrics["Turns"] == "2" and metrics["Stopped"] == "satisfied"
    assert at.chat_message[0].markdown[0].value.startswith("### Proposed schedule")
    assert any("__END__" in m.markdown[0].value for m in at.chat_message)
    runs = Store(db).list_runs()
    assert len(runs) == 1 and "Lab: T-P-P (offline)" in runs.iloc[0]["title"]

    at.slider(key="orca_lab_count").set_value(1)
    at.multiselect(key="orca_lab_paradigms").set_value(["default", "conversation"])
    at.button(key="orca_lab_batch").click().run()
    assert not at.exception
    summary = at.dataframe[-2].value.set_index("paradigm")
    assert summary.loc["conversation", "n"] == 4
    assert summary.loc["conversation", "success_rate"] == 1.0
    assert summary.loc["default", "success_rate"] == 0.0
