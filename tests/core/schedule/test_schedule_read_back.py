"""Issue 27 item 2 for School Scheduling (session s28, item 3 of its brief): every school a request changes is
read back in the user's own words with its start before and after ('Everett Middle School (Everett MS): 7:50 →
8:40 AM'), and a request that the schedule does not meet says so, through the real agent and tool loop.
The phrasings are this file's own."""

from __future__ import annotations

import pytest

from core.schedule.agent import ScheduleAgent
from core.schedule.offline import Goal, read_back


def _agent() -> ScheduleAgent:
    agent = ScheduleAgent()
    agent.opening()
    return agent


def _read_back(text: str) -> str:
    assert "**Your request, read back:**" in text, text
    return text[text.index("**Your request, read back:**") :]


@pytest.mark.parametrize(
    ("text", "line"),
    [
        (
            "Would it be possible for Everett Middle School to begin later?",
            "- Everett Middle School (Everett MS): 7:50 → 8:40 AM (you asked: later).",
        ),
        ("Please put Galileo High at 9:30.", "- Galileo High (Galileo HS): 7:50 → 9:30 AM (you asked: at 9:30 AM)."),
        ("John Muir earlier, thanks", "- John Muir (Muir (John) PK): 9:30 → 8:40 AM (you asked: earlier)."),
        ("Lick should not start at 8:40.", "- Lick (James) MS: 8:40 → "),
    ],
)
def test_each_school_asked_about_is_read_back_in_the_users_words_with_before_and_after(text, line):
    turn = _agent().respond(text)
    assert turn.status == "optimal"
    assert line in _read_back(turn.text), turn.text


def test_the_read_back_comes_before_the_closing_question():
    text = _agent().respond("Balboa High School at 9:30 please").text
    assert text.index("read back") < text.index("Does this work for you")
    assert text.rstrip().endswith("?")


@pytest.mark.parametrize(
    "text",
    [
        "Galileo at 9:30 and hold the average change to 9 minutes",
        "Put Everett Middle School at 9:30; the average change must stay under 10 minutes.",
        "Everett to 9:30, and no more than 9 minutes of change on average",
    ],
)
def test_a_request_the_schedule_does_not_meet_is_read_back_as_not_achieved(text):
    turn = _agent().respond(text)
    assert turn.status == "infeasible", turn.text
    back = _read_back(turn.text)
    assert "stays at" in back and "not achieved" in back, back


@pytest.mark.parametrize(
    "text", ["Make Cobb later.", "Could Lawton go to 8:40?", "Everett Middle School: 9:30 if you can."]
)
def test_a_met_request_is_not_read_back_as_missed(text):
    turn = _agent().respond(text)
    assert turn.status == "optimal"
    assert "not achieved" not in _read_back(turn.text)


def test_read_back_states_unchanged_starts_and_the_users_name():
    agent = _agent()
    session = agent.session
    now = session.current.result.schedule
    goals = [Goal("Everett MS", now["Everett MS"], "fix", said="Everett Middle School")]
    line = read_back(goals, session, dict(now))
    assert f"Everett Middle School (Everett MS): stays at {now['Everett MS']}" in line
    assert "not achieved" not in line
    missed = read_back([Goal("Everett MS", "9:30 AM", "fix")], session, dict(now))
    assert "Everett MS: stays at" in missed and "not achieved" in missed
    assert read_back([Goal(None, None, "bound", "student_load_balancing", 20.0)], session, dict(now)) == ""


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        ("No middle school may begin earlier than 8:30.", "you asked: at or after 8:30 AM"),
        ("Galileo should start after 8 o'clock", "you asked: after 8:00 AM"),
        ("Cobb no later than 8:45 please", "you asked: at or before 8:45 AM"),
    ],
)
def test_a_bound_is_read_back_as_the_user_put_it_not_as_the_ruled_out_starts(text, asked):
    turn = _agent().respond(text)
    assert turn.status == "optimal", turn.text
    back = _read_back(turn.text)
    assert asked in back and "not at" not in back, back
