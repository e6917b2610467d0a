"""Run recording without Streamlit: a chat's turns land in the store, resume appends, bad uploads are refused."""

from __future__ import annotations

import pytest

from core.config import Settings
from core.errors import SpecError
from core.schedule.recording import WORKBENCH, RecordedChat, adopt_calls, start_time_options
from core.store import Store
from solvers.schedule.model import DEVIATION, LOAD

OFFLINE = Settings.from_env({"ORCA_PROVIDER": "offline"})
CSV = b"name,grade,enrollment,current_start\nNorth ES,ES,400,8:00 AM\nSouth MS,MS,300,8:30 AM\nEast HS,HS,500,7:45\n"


@pytest.fixture
def store(tmp_path) -> Store:
    return Store(tmp_path / "runs.duckdb")


def test_a_chat_records_its_turns_steps_and_metrics(store):
    chat = RecordedChat.start(store, OFFLINE)
    assert chat.run_id is None and store.list_runs(WORKBENCH).empty  # an idle visit stores nothing
    turn = chat.say("Could Everett start at 9:30?")
    run = store.get_run(chat.run_id)
    assert run["workbench"] == WORKBENCH
    assert run["config"]["district"] is None and run["config"]["schools"] == 10
    messages = store.messages(chat.run_id)
    assert messages["content"].tolist()[1].startswith("### Proposed schedule (base model)")
    assert "Could Everett start at 9:30?" in messages["content"].tolist()
    assert messages["role"].tolist()[2:] == [m.role for m in turn.messages]
    assert len(store.steps(chat.run_id)) == len(turn.steps) > 0
    assert run["metrics"][LOAD] == 21.73

    chat.remove("fix_start_time[Everett MS=9:30 AM]")
    assert store.get_run(chat.run_id)["metrics"] == {LOAD: 25.65, DEVIATION: 8.5}
    assert (
        "(removed fix_start_time[Everett MS=9:30 AM] in the panel)"
        in store.messages(chat.run_id)["content"].tolist()
    )


def test_adopting_a_frontier_point_makes_it_the_proposal(store):
    chat = RecordedChat.start(store, OFFLINE)
    frontier = chat.agent.session.frontier()
    point = next(p for p in frontier if not p["is_current"])
    turn = chat.adopt(point)
    assert [c["name"] for c in turn.tool_calls] == [name for name, _ in adopt_calls(point)]
    assert turn.schedule == point["schedule"]
    assert turn.objectives == {LOAD: point[LOAD], DEVIATION: point[DEVIATION]}
    assert store.get_run(chat.run_id)["metrics"][LOAD] == point[LOAD]


def test_resume_replays_and_appends_to_the_same_run(store):
    first = RecordedChat.start(store, OFFLINE, CSV, "7:30, 8:15 AM", "riverside.csv")
    first.say("North later")
    before = len(store.messages(first.run_id))

    resumed = RecordedChat.resume(store, OFFLINE, first.run_id)
    assert resumed.problems == []
    assert resumed.agent.session.district.time_labels == ("7:30 AM", "8:15 AM")
    assert resumed.agent.session.district.name == "riverside school district"
    assert resumed.agent.session.current.result.schedule == first.agent.session.current.result.schedule
    resumed.say("undo that")
    assert len(store.messages(first.run_id)) > before
    assert store.list_runs(WORKBENCH)["id"].tolist() == [first.run_id]


def test_resume_refuses_another_workbench(store):
    other = store.create_run("inventory_copilot", {})
    with pytest.raises(SpecError, match="not a School Scheduling conversation"):
        RecordedChat.resume(store, OFFLINE, other)


@pytest.mark.parametrize(
    ("csv", "times", "field"),
    [
        ("Ecole ES,ES,10,8:00 AM".encode("latin-1").replace(b"E", b"\xc9", 1), "", "district"),
        (b"name,grade,enrollment,current_start\nA ES,ES,ten,8:00\n", "", "district line 2 enrollment"),
        (None, "7:30, 25:00", "start_times '25:00'"),
    ],
)
def test_bad_uploads_name_the_field_and_create_no_run(store, csv, times, field):
    with pytest.raises(SpecError) as caught:
        RecordedChat.start(store, OFFLINE, csv, times, "bad.csv")
    assert caught.value.field == field
    assert store.list_runs(WORKBENCH).empty


def test_start_time_options_parsing():
    assert start_time_options(" 7:30 ,8:15 AM,, ") == ["7:30", "8:15 AM"]
    assert start_time_options("  ") is None


def test_without_a_store_the_chat_works_and_records_nothing():
    chat = RecordedChat.start(None, OFFLINE)
    turn = chat.say("Could Everett start at 9:30?")
    assert chat.run_id is None and turn.objectives[LOAD] == 21.73


def test_schedule_and_history_downloads_hold_the_current_proposal(store):
    import csv
    import io

    from core.schedule.processing import proposals_csv, schedule_csv

    chat = RecordedChat.start(store, OFFLINE)
    chat.say("Could Everett start at 9:30?")
    session = chat.agent.session
    rows = list(csv.DictReader(io.StringIO(schedule_csv(session.district, session.current.result.assignment))))
    assert len(rows) == 10
    everett = next(r for r in rows if r["school"] == "Everett MS")
    assert everett["proposed_start"] == "9:30 AM" and int(everett["change_minutes"]) > 0
    history = list(csv.DictReader(io.StringIO(proposals_csv(session.proposals))))
    assert [float(h[LOAD]) for h in history] == [25.65, 21.73]
    assert history[-1]["constraints"] == "fix_start_time[Everett MS=9:30 AM]"
