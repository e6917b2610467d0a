"""The School Scheduling page's first paint: today's schedule at once, the opening proposal and the frontier
computed in the background (held back here by gates), the chat usable meanwhile, and a second session served
from the process-wide cache."""

import threading
import time
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import core.schedule.frontier as frontier_module
import core.schedule.opening as opening

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "school_scheduling.py")


@pytest.fixture
def fresh_caches(monkeypatch):
    """Empty process-wide caches, so this test's page really computes its opening."""
    monkeypatch.setattr(opening, "_JOBS", {})
    monkeypatch.setattr(opening, "_FRONTIER_THREADS", {})
    monkeypatch.setattr(frontier_module, "_SHARED", {})
    yield
    for job in list(opening._JOBS.values()):  # no solver thread may outlive the test (HiGHS aborts at exit)
        job.thread.join(60)
    for thread, _ in list(opening._FRONTIER_THREADS.values()):
        thread.join(60)


def gated(monkeypatch, name: str) -> tuple[threading.Event, list[int]]:
    """Hold `core.schedule.opening.<name>` until the returned event is set; count its calls."""
    gate, calls = threading.Event(), []
    real = getattr(opening, name)

    def held(*args, **kwargs):
        calls.append(1)
        assert gate.wait(60), "the test never opened the gate"
        return real(*args, **kwargs)

    monkeypatch.setattr(opening, name, held)
    return gate, calls


def settled(at: AppTest, tries: int = 300) -> AppTest:
    for _ in range(tries):
        if at.metric and not at.get("progress"):
            return at
        time.sleep(0.1)
        at.run()
    raise AssertionError("the page never finished its background work")


def test_first_paint_shows_todays_schedule_while_the_opening_is_solved(monkeypatch, tmp_path, fresh_caches):
    monkeypatch.setenv("ORCA_DB", str(tmp_path / "first.duckdb"))
    gate, solves = gated(monkeypatch, "solve_schedule")
    try:
        at = AppTest.from_file(PAGE, default_timeout=60).run()
        assert not at.exception
        assert not at.metric  # no proposal yet
        today = at.dataframe[-1].value
        assert len(today) > 0 and "current start" in today.columns
        assert "Solving the base model" in at.get("progress")[0].proto.text
        assert not at.chat_input(key="sched_chat").disabled
    finally:
        gate.set()
    settled(at)
    assert [m.value for m in at.metric] == ["2,565", "8.5 minutes"]
    assert "Proposed schedule (base model)" in at.chat_message[0].markdown[0].value
    assert len(solves) == 1


def test_a_message_typed_before_the_proposal_is_answered_once_it_is_there(monkeypatch, tmp_path, fresh_caches):
    monkeypatch.setenv("ORCA_DB", str(tmp_path / "early.duckdb"))
    gate, _ = gated(monkeypatch, "solve_schedule")
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.metric
    threading.Timer(0.5, gate.set).start()
    at.chat_input(key="sched_chat").set_value("Could Everett start at 9:30?").run()
    assert not at.exception
    settled(at)
    assert at.metric[0].value == "2,173"
    assert any("Could Everett start at 9:30?" in m.markdown[0].value for m in at.chat_message)


def test_the_chat_works_while_the_frontier_is_computing(monkeypatch, tmp_path, fresh_caches):
    monkeypatch.setenv("ORCA_DB", str(tmp_path / "frontier.duckdb"))
    gate, _ = gated(monkeypatch, "compute_frontier")
    try:
        at = AppTest.from_file(PAGE, default_timeout=60).run()
        for _ in range(300):
            if at.metric:
                break
            time.sleep(0.1)
            at.run()
        assert [m.value for m in at.metric] == ["2,565", "8.5 minutes"]
        assert "trade-off frontier" in at.get("progress")[0].proto.text
        assert not at.get("plotly_chart")
        assert any("waits for the frontier" in c.value for c in at.caption)

        at.chat_input(key="sched_chat").set_value("Could Everett start at 9:30?").run()
        assert not at.exception
        assert at.metric[0].value == "2,173"
        assert at.get("progress") and not at.get("plotly_chart")
    finally:
        gate.set()
    settled(at)
    assert at.get("plotly_chart")
    assert any(s.label.startswith("Alternative on the frontier") for s in at.selectbox)


def test_a_second_session_paints_from_the_cache_without_solving_again(monkeypatch, tmp_path, fresh_caches):
    monkeypatch.setenv("ORCA_DB", str(tmp_path / "second.duckdb"))
    solves: list[int] = []
    real = opening.solve_schedule
    monkeypatch.setattr(opening, "solve_schedule", lambda spec: solves.append(1) or real(spec))
    settled(AppTest.from_file(PAGE, default_timeout=60).run())
    second = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not second.exception
    assert [m.value for m in second.metric] == ["2,565", "8.5 minutes"]  # the first run already shows it all
    assert second.get("plotly_chart") and not second.get("progress")
    assert len(solves) == 1


def test_an_uploaded_district_opens_in_the_background_with_the_same_progress(monkeypatch, tmp_path, fresh_caches):
    monkeypatch.setenv("ORCA_DB", str(tmp_path / "upload.duckdb"))
    at = settled(AppTest.from_file(PAGE, default_timeout=60).run())  # the shipped district's chat first
    gate, solves = gated(monkeypatch, "solve_schedule")
    csv = b"name,grade,enrollment,current_start\nA School,ES,300,8:00 AM\nB School,MS,500,8:30 AM\n"
    try:
        at.file_uploader(key="sched_upload").upload("mini.csv", csv, "text/csv").run()
        at.button(key="sched_new").click().run(timeout=20)  # the solve is held: the script thread must not wait
        assert not at.exception
        assert not at.metric  # no proposal yet
        assert "Solving the base model" in at.get("progress")[0].proto.text
        today = at.dataframe[-1].value
        assert today["school"].tolist() == ["A School", "B School"] and "current start" in today.columns
        at.chat_input(key="sched_chat").set_value("Could A School start at 9:30?")
    finally:
        gate.set()
    settled(at.run())
    assert not at.exception
    assert "A School" in at.chat_message[0].markdown[0].value  # the uploaded district's opening proposal
    assert any("Could A School start at 9:30?" in m.markdown[0].value for m in at.chat_message)
    assert len(solves) == 1
