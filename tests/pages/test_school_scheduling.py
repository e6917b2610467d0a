"""The School Scheduling page headless (AppTest): opening proposal, a chat turn, remove and adopt, resume."""

import time
from pathlib import Path

from streamlit.testing.v1 import AppTest

from core.store import Store

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "school_scheduling.py")


def opened(at: AppTest) -> AppTest:
    """Run the page until the background opening (proposal and frontier) has painted."""
    return settled(at.run())


def settled(at: AppTest, tries: int = 200) -> AppTest:
    """Rerun the page until nothing is computing in the background any more (no progress bar)."""
    for _ in range(tries):
        if at.metric and not at.get("progress"):
            return at
        time.sleep(0.1)
        at.run()
    raise AssertionError("the opening proposal and frontier never appeared")


def test_opening_chat_remove_and_store(monkeypatch, tmp_path):
    db = tmp_path / "sched.duckdb"
    monkeypatch.setenv("ORCA_DB", str(db))
    at = opened(AppTest.from_file(PAGE, default_timeout=120))
    assert not at.exception
    assert [m.value for m in at.metric] == ["2,565", "8.5 minutes"]
    assert "Proposed schedule (base model)" in at.chat_message[0].markdown[0].value

    at.chat_input(key="sched_chat").set_value("Could Everett start at 9:30?").run()
    assert not at.exception
    assert at.metric[0].value == "2,173"
    assert any(c.value == "fix_start_time[Everett MS=9:30 AM]" for c in at.caption)
    assert at.metric[0].delta == "-392"
    schedule = next(b for b in at.get("download_button") if b.proto.label == "Download this schedule (CSV)")
    assert schedule.proto.label
    table = at.dataframe[0].value
    assert table.set_index("school").loc["Everett MS", "proposed_start"] == "9:30 AM"
    assert table.set_index("school").loc["Everett MS", "changed_since_previous"]

    at.button(key="sched_remove_0").click().run()
    assert not at.exception
    assert at.metric[0].value == "2,565"
    assert not any("fix_start_time[Everett MS=9:30 AM]`" in m.value for m in at.markdown)

    at.button(key="sched_adopt").click().run()
    assert not at.exception
    history = at.dataframe[1].value
    assert len(history) == 4

    runs = Store(db).list_runs("school_scheduling")
    assert len(runs) == 1
    messages = Store(db).messages(runs["id"][0])
    assert "Could Everett start at 9:30?" in messages["content"].tolist()


def test_resume_a_stored_conversation(monkeypatch, tmp_path):
    db = tmp_path / "resume.duckdb"
    monkeypatch.setenv("ORCA_DB", str(db))
    at = opened(AppTest.from_file(PAGE, default_timeout=120))
    at.chat_input(key="sched_chat").set_value("keep the peak under 2,500 students").run()
    assert at.metric[0].value == "2,453"
    fresh = opened(AppTest.from_file(PAGE, default_timeout=120))
    fresh.button(key="sched_resume").click().run()
    assert not fresh.exception
    assert fresh.metric[0].value == "2,453"
    assert any("keep the peak under 2,500 students" in m.markdown[0].value for m in fresh.chat_message)


def _alt(at: AppTest):
    return next(s for s in at.selectbox if s.label.startswith("Alternative on the frontier"))


def test_clicking_a_frontier_point_preselects_it_for_adoption(monkeypatch, tmp_path):
    """AppTest cannot click Plotly, so the chart's selection state is set as the browser would send it."""
    monkeypatch.setenv("ORCA_DB", str(tmp_path / "click.duckdb"))
    at = opened(AppTest.from_file(PAGE, default_timeout=120))
    labels = _alt(at).options
    assert _alt(at).value == 0
    target = next(i for i, label in enumerate(labels) if "24.53" in label)

    at.session_state["sched_frontier"] = {
        "selection": {"points": [{"curve_number": 0, "point_index": target}], "point_indices": [target]}
    }
    at.run()
    assert not at.exception
    assert _alt(at).value == target

    _alt(at).set_value(0).run()  # a manual pick wins over the old click
    assert _alt(at).value == 0
    _alt(at).set_value(target).run()
    at.button(key="sched_adopt").click().run()
    assert not at.exception
    assert [m.value for m in at.metric] == ["2,453", "11.5 minutes"]
    assert "upper_bound[schedule_deviation]" in at.dataframe[1].value["constraints"].iloc[-1]


def test_an_unusable_store_path_keeps_the_chat_working_unsaved(monkeypatch):
    monkeypatch.setenv("ORCA_DB", "/proc/nope/orca.duckdb")
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.exception
    assert "/proc/nope/orca.duckdb" in at.error[0].value
    at.chat_input[0].set_value("Could Everett start at 9:30?").run()
    assert not at.exception
    assert "Everett" in at.chat_message[-1].markdown[0].value


def test_a_reload_keeps_the_conversation_through_the_url(monkeypatch, tmp_path):
    import re

    db = tmp_path / "reload.duckdb"
    monkeypatch.setenv("ORCA_DB", str(db))
    at = opened(AppTest.from_file(PAGE, default_timeout=120))
    assert "run" not in at.query_params
    at.chat_input(key="sched_chat").set_value("keep the peak under 2,500 students").run()
    run_id = Store(db).list_runs("school_scheduling")["id"][0]
    assert at.query_params["run"] in (run_id, [run_id])

    reloaded = AppTest.from_file(PAGE, default_timeout=120)
    reloaded.query_params["run"] = run_id
    reloaded.run()
    assert not reloaded.exception
    assert reloaded.metric[0].value == "2,453"
    picker = reloaded.selectbox(key="sched_resume_pick")
    label = picker.format_func(run_id)
    assert label.startswith("“keep the peak under 2,500 students”") and "School Scheduling" in label
    assert re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d", label)
    assert len(Store(db).list_runs("school_scheduling")) == 1


def test_the_same_conversation_in_a_second_live_tab_is_read_only(monkeypatch, tmp_path):
    import core.ui

    db = tmp_path / "tabs.duckdb"
    monkeypatch.setenv("ORCA_DB", str(db))
    first = opened(AppTest.from_file(PAGE, default_timeout=120))
    first.chat_input(key="sched_chat").set_value("keep the peak under 2,500 students").run()
    run_id = Store(db).list_runs("school_scheduling")["id"][0]
    monkeypatch.setattr(core.ui, "lease_holder_alive", lambda owner: True)
    monkeypatch.setattr(core.ui, "session_owner", lambda: "second-tab")
    second = AppTest.from_file(PAGE, default_timeout=120)
    second.query_params["run"] = run_id
    second.run()
    assert not second.exception
    assert "open in another tab" in second.warning[-1].value
    assert second.chat_input(key="sched_chat").disabled


def test_the_alternative_picker_starts_afresh_when_the_frontier_changes(monkeypatch, tmp_path):
    monkeypatch.setenv("ORCA_DB", str(tmp_path / "fresh.duckdb"))
    at = opened(AppTest.from_file(PAGE, default_timeout=120))
    _alt(at).set_value(_alt(at).options[-1]).run()
    before = _alt(at).format_func(_alt(at).value)
    at.chat_input(key="sched_chat").set_value("Could Everett start at 9:30?").run()  # a fix: a new frontier
    assert not at.exception
    picker = _alt(settled(at))
    assert picker.index == 0 and picker.format_func(picker.value) != before
    assert picker.format_func(picker.value).startswith("Option 1: peak")
    spec = next(c for c in at.get("plotly_chart") if "Pareto frontier" in c.proto.spec).proto.spec
    assert "option 1" in spec and "Peak students starting at once" in spec


def test_a_zero_change_is_neutral(monkeypatch, tmp_path):
    monkeypatch.setenv("ORCA_DB", str(tmp_path / "zero.duckdb"))
    at = opened(AppTest.from_file(PAGE, default_timeout=120))
    at.chat_input(key="sched_chat").set_value("keep the average change under 20 minutes").run()
    assert not at.exception
    assert [m.delta for m in at.metric] == ["no change", "no change"]
    assert all("+0" not in (m.delta or "") for m in at.metric)


def test_an_uploaded_district_is_previewed_and_says_what_happens_next(monkeypatch, tmp_path):
    monkeypatch.setenv("ORCA_DB", str(tmp_path / "upload.duckdb"))
    csv = b"name,grade,enrollment,current_start\nA School,ES,300,8:00 AM\nB School,MS,500,8:30 AM\n"
    at = opened(AppTest.from_file(PAGE, default_timeout=120))
    at.file_uploader(key="sched_upload").upload("mini.csv", csv, "text/csv").run()
    assert not at.exception
    preview = next(d.value for d in at.dataframe if "students" in d.value.columns)
    assert preview["school"].tolist() == ["A School", "B School"]
    assert any("Start a conversation with this district" in i.value for i in at.info)
    settled(at.button(key="sched_new").click().run())  # solved in the background, like the default district
    assert not at.exception
    assert "A School" in at.chat_message[0].markdown[0].value


def test_ten_turns_keep_replies_short_and_the_page_working(monkeypatch, tmp_path):
    monkeypatch.setenv("ORCA_DB", str(tmp_path / "ten.duckdb"))
    at = opened(AppTest.from_file(PAGE, default_timeout=120))
    turns = [
        "Could Everett start at 9:30?",
        "and keep the average change under 12 minutes",
        "loosen that",
        "fewer kids arriving at once please",
        "show me a couple of options",
        "undo that",
        "keep the peak under 2,500 students",
        "Could Balboa start at 8:40?",
        "undo that",
        "this works",
    ]
    for text in turns:
        at.chat_input(key="sched_chat").set_value(text).run()
        assert not at.exception, text
    replies = [m.markdown[0].value for m in at.chat_message if m.name == "assistant"][1:]
    assert len(replies) >= 10
    for reply in replies:
        rows = [line for line in reply.splitlines() if line.startswith("| ") and not line.startswith(("| School", "| ---"))]
        assert len(rows) < 10, reply[:200]  # never the whole 10-school table again
    assert at.metric and _alt(at) is not None


def test_an_error_on_send_keeps_the_message_to_send_again(monkeypatch, tmp_path):
    from core.errors import ProviderError
    from core.schedule.recording import RecordedChat

    monkeypatch.setenv("ORCA_DB", str(tmp_path / "send.duckdb"))
    say, calls = RecordedChat.say, []

    def flaky(self, text):
        calls.append(text)
        if len(calls) == 1:
            raise ProviderError("OpenAI-compatible API error: connection refused")
        return say(self, text)

    monkeypatch.setattr(RecordedChat, "say", flaky)
    at = opened(AppTest.from_file(PAGE, default_timeout=120))
    at.chat_input(key="sched_chat").set_value("Could Everett start at 9:30?").run()
    assert not at.exception and "connection refused" in at.error[0].value
    assert any(t.value == "Could Everett start at 9:30?" for t in at.text)
    at.button(key="sched_send_offline").click().run()
    assert not at.exception and not at.error
    assert at.session_state["orca_settings"].provider == "offline"
    assert at.metric[0].value == "2,173"
    assert not any(t.value == "Could Everett start at 9:30?" for t in at.text)


def test_an_upload_with_a_nul_in_a_name_is_refused_naming_file_and_line(monkeypatch, tmp_path):
    monkeypatch.setenv("ORCA_DB", str(tmp_path / "nul.duckdb"))
    csv = b"name,grade,enrollment,current_start\nA School,ES,300,8:00 AM\nB\x00School,MS,500,8:30 AM\n"
    at = opened(AppTest.from_file(PAGE, default_timeout=120))
    at.file_uploader(key="sched_upload").upload("east side.csv", csv, "text/csv").run()
    assert not at.exception
    assert not any("students" in d.value.columns for d in at.dataframe)
    assert any("east side.csv line 3: control character" in e.value for e in at.error)


def test_a_chat_turn_shows_in_the_run_that_answered_it(monkeypatch, tmp_path):
    """No second script run per turn (issue 31: each costs the shared server a whole page render): the turn's
    run draws the transcript and the model panel after answering, without `st.rerun`."""
    import streamlit

    monkeypatch.setenv("ORCA_DB", str(tmp_path / "one_run.duckdb"))
    at = opened(AppTest.from_file(PAGE, default_timeout=120))
    reruns: list[object] = []
    real_rerun = streamlit.rerun
    monkeypatch.setattr(streamlit, "rerun", lambda *a, **k: (reruns.append(a), real_rerun(*a, **k)))
    at.chat_input(key="sched_chat").set_value("Could Everett start at 9:30?").run()
    assert not at.exception and reruns == []
    assert at.chat_message[-2].markdown[0].value == "Could Everett start at 9:30?"
    assert at.metric[0].value == "2,173"
