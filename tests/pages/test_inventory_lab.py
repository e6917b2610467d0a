"""The Inventory evaluation lab page through AppTest: empty state with the offline notice and the switches,
a tiny offline run with its tables, charts and a trial's conversation, and the paper-exact switches run and
named with their values."""

from __future__ import annotations

import os
from pathlib import Path

from streamlit.testing.v1 import AppTest

from core.store import Store

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "inventory_lab.py")
SUBMIT = "FormSubmitter:orca_lab_form-Run the lab"


def fresh() -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=300).run()
    assert not at.exception
    assert at.title[0].value == "Inventory evaluation lab"
    return at


def test_empty_state_offline_notice_and_switches() -> None:
    at = fresh()
    assert "Offline mode" in at.info[0].value and "nothing is substituted" in at.info[0].value
    text = " ".join(m.value for m in at.markdown)
    assert "Capacity" in text and "Optimizer families" in text and "Fig. 4 day numbering" in text
    assert "`capacity_basis = inventory_position` (default)" in text and "`day_numbering = from_one`" in text
    assert "Run the lab" in at.info[-1].value
    assert at.get("plotly_chart") == []
    assert at.multiselect(key="orca_lab_treatments").value == ["A"]  # LLM-only treatments not pre-selected


def test_tiny_offline_run() -> None:
    at = fresh()
    at.number_input(key="orca_lab_n").set_value(2)
    at.selectbox(key="orca_lab_protocol").set_value("mixed")
    at.slider(key="orca_lab_noise").set_value(0.0)
    at.number_input(key="orca_lab_paths").set_value(30)
    at.number_input(key="orca_lab_assess_paths").set_value(200)
    at.multiselect(key="orca_lab_treatments").set_value(["A", "B", "C"])
    at = at.button(key=SUBMIT).click().run()
    assert not at.exception, at.exception
    warnings = " ".join(w.value for w in at.warning)
    assert "B · LLM alone, interactive" in warnings and "was not run" in warnings
    assert at.metric[0].value == "2" and at.metric[1].value == "100%"
    assert at.metric[3].label == "A: Fig. 4 order query right" and at.metric[3].value == "2 of 2"
    assert any("Fig. 4 order query:" in m.value and "✓" in m.value for m in at.markdown)
    assert len(at.get("plotly_chart")) == 3
    trials = at.dataframe[-1].value
    assert list(trials["treatment"]) == ["A", "A"] and set(trials["status"]) == {"policy"}
    assert len(at.chat_message) > 5  # the first trial's conversation
    run_id = at.session_state["orca_lab_run_id"]
    store = Store(os.environ["ORCA_DB"])
    assert store.get_run(run_id)["workbench"] == "inventory_lab"
    runs = store.list_runs()
    # each trial is a cell of the lab's experiment, its conversation the cell run's messages
    cells = runs[runs["title"].str.contains("|A|", regex=False)]
    assert len(cells) >= 2 and all(n > 5 for n in cells["n_messages"])


def test_paper_switches_run_and_are_named_with_their_values() -> None:
    at = fresh()
    at.number_input(key="orca_lab_n").set_value(1)
    at.selectbox(key="orca_lab_protocol").set_value("mixed")
    at.slider(key="orca_lab_noise").set_value(0.0)
    at.number_input(key="orca_lab_paths").set_value(30)
    at.number_input(key="orca_lab_assess_paths").set_value(100)
    at.selectbox(key="orca_lab_capacity").set_value("on_hand")
    at.selectbox(key="orca_lab_days").set_value("fig4")
    at = at.button(key=SUBMIT).click().run()
    assert not at.exception and not at.error
    text = " ".join(m.value for m in at.markdown)
    assert "`capacity_basis = on_hand`" in text and "`day_numbering = fig4`" in text
    assert "`families = full`" in text
    config = at.session_state["orca_lab_result"].config
    assert (config.capacity_basis, config.day_numbering) == ("on_hand", "fig4")
    (record,) = at.session_state["orca_lab_result"].records
    oq = record.outcomes["A"].order_query
    assert "day 4," in oq["question"] and oq["step_passed"] == 4, oq  # Fig. 4: day 4 is time step 4


def test_an_llm_provider_without_a_key_preselects_only_treatment_a(monkeypatch) -> None:
    """Treatments B and C need an LLM: with OpenAI chosen but no key they are offered, not pre-selected."""
    for var in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("ORCA_PROVIDER", "openai")
    at = AppTest.from_file(PAGE, default_timeout=300).run()
    assert not at.exception
    assert at.multiselect(key="orca_lab_treatments").value == ["A"]
    assert len(at.multiselect(key="orca_lab_treatments").options) == 3  # B and C still offered
