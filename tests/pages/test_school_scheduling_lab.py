"""The School Scheduling Lab page headless (AppTest): watch one recorded conversation, run a tiny batch."""

from pathlib import Path

import pytest
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


def _no_keys(monkeypatch) -> None:
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "ORCA_PROVIDER", "ORCA_MODEL"):
        monkeypatch.delenv(var, raising=False)


def test_llm_decision_agents_need_a_key(monkeypatch, tmp_path):
    _no_keys(monkeypatch)
    monkeypatch.setenv("ORCA_DB", str(tmp_path / "lab.duckdb"))
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    at.radio(key="orca_lab_kind").set_value("llm").run()
    assert not at.exception
    assert "need an LLM" in at.warning[0].value and "Nothing offline is substituted" in at.warning[0].value
    assert at.button(key="orca_lab_run").disabled and at.button(key="orca_lab_batch").disabled


def test_llm_decision_agent_conversation_against_the_fake_server(monkeypatch, tmp_path, fake_llm):
    from core.schedule.lab.utilities import utility_by_key
    from solvers.schedule.data import sfusd_district
    from solvers.schedule.utility import sfusd_space

    _no_keys(monkeypatch)
    db = tmp_path / "lab.duckdb"
    monkeypatch.setenv("ORCA_DB", str(db))
    monkeypatch.setenv("ORCA_PROVIDER", "openai")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("OPENAI_BASE_URL", fake_llm.openai_url)
    district, space, u = sfusd_district(), sfusd_space(), utility_by_key("u001")
    best = space.assignments[int(u.values(space).argmax())]
    times = {n: district.time_labels[int(a)] for n, a in zip(district.names, best, strict=True)}
    fake_llm.script(
        [
            {"text": "Hmm, I would like the peak a bit lower, if that is possible."},
            {"tool_calls": [{"name": "check_utility", "arguments": {"start_times": times}}]},
            {"text": "Lovely, thank you. __END__"},
        ]
    )
    at = AppTest.from_file(PAGE, default_timeout=120).run()
    at.radio(key="orca_lab_kind").set_value("llm").run()
    assert "LLM decision agent (openai/" in at.info[0].value
    at.button(key="orca_lab_run").click().run()
    assert not at.exception
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Score π"] == "1.000" and metrics["Stopped"] == "satisfied" and metrics["Turns"] == "2"
    assert any("llm-decision/" in c.value for c in at.caption)
    assert any("Lovely" in m.markdown[0].value for m in at.chat_message)
    runs = Store(db).list_runs()
    assert len(runs) == 1 and "LLM decision agent" in runs.iloc[0]["title"]


def test_generate_a_decision_agent_and_converse(monkeypatch, tmp_path):
    _no_keys(monkeypatch)
    monkeypatch.setenv("ORCA_DB", str(tmp_path / "lab.duckdb"))
    at = AppTest.from_file(PAGE, default_timeout=120).run()
    at.radio(key="orca_lab_source").set_value("generate").run()
    assert at.button(key="orca_lab_run").disabled  # nothing generated yet
    at.selectbox(key="orca_lab_gen_school").set_value("Everett MS")
    at.number_input(key="orca_lab_gen_seed").set_value(7)
    at.button(key="orca_lab_generate").click().run()
    assert not at.exception
    assert "unique maximiser" in at.success[0].value and "g07s7" in at.success[0].value
    params = at.dataframe[0].value.iloc[0]
    assert params["w1 (start time)"] + params["w2 (peak load)"] + params["w3 (change)"] == pytest.approx(1.0)
    at.radio(key="orca_lab_feedback").set_value("rich")
    at.button(key="orca_lab_run").click().run()
    assert not at.exception
    assert any("Hidden utility g07s7" in c.value for c in at.caption)
    assert {m.label for m in at.metric} >= {"Score π", "Turns"}
