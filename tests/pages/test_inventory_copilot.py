"""The Inventory Copilot page (AppTest on the page file): a typed dialogue fills the table, a policy appears,
a table edit is logged, and a stored conversation can be resumed."""

from __future__ import annotations

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from core.store import Store
from solvers.inventory.parameters import PARAMETER_LABELS as L

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "inventory_copilot.py")
ALL_AT_ONCE = (
    "I sell phone cases online. Daily demand is random, Poisson with λ = 3 units a day. If we're out, customers "
    "go elsewhere. Holding a case costs $0.50 per unit per day, and each lost sale costs us $4. There's a flat "
    "$3 fee per shipment, and deliveries arrive 1 day after we order. We can store up to 15 units, and the "
    "supplier caps a single order at 10 units. Nothing perishes."
)


def _table(at: AppTest):
    return at.data_editor[0].value


def _say(at: AppTest, text: str) -> AppTest:
    at.chat_input[0].set_value(text).run()
    assert not at.exception, at.exception
    return at


def test_dialogue_fills_the_table_and_yields_a_policy(monkeypatch, tmp_path):
    monkeypatch.setenv("ORCA_DB", str(tmp_path / "orca.duckdb"))
    at = AppTest.from_file(PAGE, default_timeout=120).run()
    assert not at.exception
    assert at.title[0].value == "Inventory Copilot"
    assert "Inventory Copilot" in at.chat_message[0].markdown[0].value
    assert _table(at)["value"].isna().all()

    _say(at, ALL_AT_ONCE)
    table = _table(at)
    assert table.loc[L["lead_time"], "value"] == "1"
    assert table.loc[L["demand_distribution"], "value"] == "about 3 a day, at random"
    assert table.loc[L["time_horizon"], "status"] == "⬜ undefined"

    _say(at, "Plan for 20 days.")
    assert _table(at).loc[L["time_horizon"], "value"] == "20"
    assert "risk preference" in at.chat_message[-1].markdown[0].value
    assert not at.metric

    _say(at, "2")
    assert (_table(at)["status"] == "✅ defined").all()
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Policy"] and "(" not in metrics["Policy"] and "_" not in metrics["Policy"]
    assert not any("_" in label for label in _table(at).index)
    opening = at.chat_message[-1].markdown[0].value
    assert -1 < opening.find("**What to do:**") < opening.find("I recommend")
    assert metrics["Critic"] == "passed"
    assert at.chat_message[-1].markdown[0].value.endswith("Do you have any other questions?")
    assert "Assumptions" in at.chat_message[-1].markdown[0].value
    assert [b.label for b in at.button if b.label == "Open in Policy Simulator"]

    _say(at, "current inventory 4, day 4, no incoming orders")
    assert "order" in at.chat_message[-1].markdown[0].value
    _say(at, "no thanks, that's all")
    assert "interpret.txt" in at.chat_message[-1].markdown[0].value
    _say(at, "thanks again")
    assert at.chat_message[-2].markdown[0].value == "thanks again"
    assert "start a new conversation" in at.chat_message[-1].markdown[0].value
    _say(at, "how much should I order with 4 on hand, day 3, no incoming orders?")
    assert at.chat_message[-2].markdown[0].value.startswith("how much should I order")
    assert "units now" in at.chat_message[-1].markdown[0].value
    _say(at, "that's all")

    store = Store(tmp_path / "orca.duckdb")
    runs = store.list_runs(workbench="inventory_copilot")
    assert runs["status"].tolist() == ["done"]
    names = set(store.artifacts(runs["id"][0])["name"])
    assert {"extracted_params.csv", "conversation_log.txt", "interpret.txt"} <= names


def test_a_cell_edit_is_validated_and_logged(monkeypatch, tmp_path):
    monkeypatch.setenv("ORCA_DB", str(tmp_path / "orca.duckdb"))
    at = AppTest.from_file(PAGE, default_timeout=120).run()
    _say(at, ALL_AT_ONCE)
    editor_key = at.data_editor[0].key
    assert editor_key.startswith("orca_copilot_editor_")
    at.session_state[editor_key] = {"edited_rows": {8: {"value": "2"}}, "added_rows": [], "deleted_rows": []}
    at.run()
    assert not at.exception
    assert _table(at).loc[L["lead_time"], "value"] == "2"
    store = Store(tmp_path / "orca.duckdb")
    run_id = store.list_runs(workbench="inventory_copilot")["id"][0]
    contents = store.messages(run_id)["content"].tolist()
    assert "(table edit) lead_time: 1 -> 2" in contents


def test_a_stored_conversation_is_resumed(monkeypatch, tmp_path):
    monkeypatch.setenv("ORCA_DB", str(tmp_path / "orca.duckdb"))
    at = AppTest.from_file(PAGE, default_timeout=120).run()
    _say(at, ALL_AT_ONCE)
    run_id = Store(tmp_path / "orca.duckdb").list_runs(workbench="inventory_copilot")["id"][0]

    fresh = AppTest.from_file(PAGE, default_timeout=120).run()
    assert _table(fresh)["value"].isna().all()
    fresh.selectbox(key="orca_copilot_pick").set_value(run_id).run()
    assert not fresh.exception
    assert _table(fresh).loc[L["lead_time"], "value"] == "1"
    _say(fresh, "20 days")
    assert _table(fresh).loc[L["time_horizon"], "value"] == "20"


def test_a_provider_without_a_key_is_an_error_naming_the_fix(monkeypatch, tmp_path):
    monkeypatch.setenv("ORCA_DB", str(tmp_path / "orca.duckdb"))
    monkeypatch.setenv("ORCA_PROVIDER", "anthropic")
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.exception
    assert "Anthropic needs an API key" in at.error[0].value and "Offline" in at.error[0].value


def test_an_unusable_store_path_keeps_the_copilot_working_unsaved(monkeypatch):
    monkeypatch.setenv("ORCA_DB", "/proc/nope/orca.duckdb")
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.exception
    assert "/proc/nope/orca.duckdb" in at.error[0].value and "not saved" in at.error[0].value
    _say(at, "Plan for 20 days.")
    assert _table(at).loc[L["time_horizon"], "value"] == "20"


def test_a_weekly_demand_conversion_is_a_confirmation_not_a_conflict(monkeypatch, tmp_path):
    monkeypatch.setenv("ORCA_DB", str(tmp_path / "orca.duckdb"))
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    _say(at, "We sell about 12 a week, give or take 3")
    assert not at.warning
    assert at.info[0].value.startswith("Needs your confirmation (Demand type, Daily demand)")
    status = _table(at)["status"]
    assert status[L["demand_distribution"]] == status[L["demand_type"]] == "❓ needs confirmation"
    assert "⚠️ conflict" not in status.tolist()
    _say(at, "we sell 5 a day, and actually we can store 100, no wait, 50")
    _say(at, "Customers leave. Plan for 30 days. Actually customers wait for it.")
    assert any(w.value.startswith("Open conflict") for w in at.warning)
    assert _table(at).loc[L["state_transition_model"], "status"] == "⚠️ conflict"


def test_a_reload_keeps_the_conversation_through_the_url(monkeypatch, tmp_path):
    monkeypatch.setenv("ORCA_DB", str(tmp_path / "orca.duckdb"))
    at = AppTest.from_file(PAGE, default_timeout=120).run()
    assert "run" not in at.query_params  # nothing stored yet: nothing to resume
    _say(at, ALL_AT_ONCE)
    run_id = Store(tmp_path / "orca.duckdb").list_runs(workbench="inventory_copilot")["id"][0]
    assert at.query_params["run"] in (run_id, [run_id])

    reloaded = AppTest.from_file(PAGE, default_timeout=120)
    reloaded.query_params["run"] = run_id
    reloaded.run()
    assert not reloaded.exception
    assert _table(reloaded).loc[L["lead_time"], "value"] == "1"
    assert [m.markdown[0].value for m in reloaded.chat_message][1] == ALL_AT_ONCE
    picker = reloaded.selectbox(key="orca_copilot_pick")
    assert picker.label == "Resume a conversation" and picker.value == run_id
    label = picker.format_func(run_id)
    assert label.startswith("“I sell phone cases online.") and "Inventory Copilot" in label
    assert re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d", label)
    _say(reloaded, "20 days")
    assert Store(tmp_path / "orca.duckdb").list_runs(workbench="inventory_copilot")["id"].tolist() == [run_id]


def test_the_same_conversation_in_a_second_live_tab_is_read_only(monkeypatch, tmp_path):
    import core.ui

    monkeypatch.setenv("ORCA_DB", str(tmp_path / "orca.duckdb"))
    first = AppTest.from_file(PAGE, default_timeout=120).run()
    _say(first, ALL_AT_ONCE)
    store = Store(tmp_path / "orca.duckdb")
    run_id = store.list_runs(workbench="inventory_copilot")["id"][0]
    monkeypatch.setattr(core.ui, "lease_holder_alive", lambda owner: True)  # the first tab is still open
    monkeypatch.setattr(core.ui, "session_owner", lambda: "second-tab")  # AppTest gives every run one session id

    second = AppTest.from_file(PAGE, default_timeout=120)
    second.query_params["run"] = run_id
    second.run()
    assert not second.exception
    assert "open in another tab" in second.warning[0].value
    assert second.chat_input[0].disabled
    before = len(store.messages(run_id))
    _say(first, "Plan for 20 days.")  # the first tab carries on; the run holds one transcript
    assert len(store.messages(run_id)) == before + 2


def test_an_api_error_on_send_keeps_the_message_and_offers_the_offline_agents(monkeypatch, tmp_path):
    from core.errors import ProviderError
    from core.inventory.copilot.session import Copilot

    monkeypatch.setenv("ORCA_DB", str(tmp_path / "orca.duckdb"))
    monkeypatch.setenv("ORCA_PROVIDER", "anthropic")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-not-a-real-key")
    respond = Copilot.respond

    def flaky(self, text, progress=None):
        if self.settings.provider != "offline":
            raise ProviderError("Anthropic API error 529: overloaded")
        return respond(self, text, progress)

    monkeypatch.setattr(Copilot, "respond", flaky)
    at = AppTest.from_file(PAGE, default_timeout=120).run()
    _say(at, ALL_AT_ONCE)
    assert "overloaded" in at.error[0].value
    assert any(t.value == ALL_AT_ONCE for t in at.text)  # the typed message is kept
    assert ALL_AT_ONCE not in [m.markdown[0].value for m in at.chat_message]
    at.button(key="orca_copilot_send_offline").click().run()
    assert not at.exception and not at.error
    assert ALL_AT_ONCE in [m.markdown[0].value for m in at.chat_message]
    assert _table(at).loc[L["lead_time"], "value"] == "1"
    assert not any(t.value == ALL_AT_ONCE for t in at.text)


def test_a_skipped_question_shows_as_an_assumption_in_the_table(monkeypatch, tmp_path):
    monkeypatch.setenv("ORCA_DB", str(tmp_path / "orca.duckdb"))
    at = AppTest.from_file(PAGE, default_timeout=120).run()
    _say(at, ALL_AT_ONCE)
    assert (_table(at)["assumption"] == "").all()
    _say(at, "Plan for 20 days.")
    _say(at, "skip")
    table = _table(at)
    assert table.loc[L["risk_tolerance"], "assumption"].startswith("assumed: risk-neutral")
    assert (table.drop(index=L["risk_tolerance"])["assumption"] == "").all()


def _fixed_heights(node) -> list[int]:
    """The pixel heights of the fixed-height containers under `node` (the chat history is one)."""
    from streamlit.testing.v1.element_tree import Block

    if not isinstance(node, Block):
        return []
    proto = node.proto
    fields = {f.name for f in proto.DESCRIPTOR.fields} if proto is not None else set()
    own = [proto.height_config.pixel_height] if "height_config" in fields and proto.height_config.pixel_height else []
    return own + [h for child in node.children.values() for h in _fixed_heights(child)]


def test_presentation_mode_keeps_the_chat_box_in_the_chat_column_above_the_fold(monkeypatch, tmp_path):
    monkeypatch.setenv("ORCA_DB", str(tmp_path / "orca.duckdb"))
    plain = AppTest.from_file(PAGE, default_timeout=120).run()
    assert not plain.exception
    assert not plain.main.chat_input and len(plain.chat_input) == 1  # pinned to the window's bottom
    assert 560 in _fixed_heights(plain.main)

    at = AppTest.from_file(PAGE, default_timeout=120)
    at.query_params["present"] = "1"
    at.run()
    assert not at.exception
    # in the chat column under a short history (a chat box pinned to the bottom scrolls the page down to it)
    assert len(at.main.chat_input) == 1
    assert not any("1024" in m.value for m in at.markdown)  # no stray page text (Streamlit's magic)
    assert 300 in _fixed_heights(at.main) and 560 not in _fixed_heights(at.main)
    _say(at, "I sell phone cases online.")
    assert len(at.main.chat_message) >= 2 and at.chat_message[-1].name == "assistant"
