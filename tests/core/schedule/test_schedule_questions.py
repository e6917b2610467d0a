"""Issue 27 item 4: a question about the schedule is answered, never read as a request. A question for one
school's or a group's start time is answered from the current proposal (with today's start when it differs),
changes nothing and keeps the conversation going; a question that also carries a request stays a request."""

from __future__ import annotations

import pytest

from core.schedule.agent import ScheduleAgent

FIX = "fix_start_time"


def _agent() -> ScheduleAgent:
    agent = ScheduleAgent()
    agent.opening()
    return agent


def _proposed(agent: ScheduleAgent, school: str) -> str:
    current = agent.session.current
    assert current is not None
    return current.result.schedule[school]


def _today(agent: ScheduleAgent, school: str) -> str:
    from solvers.schedule.data import format_time

    return format_time(next(s.current_start for s in agent.session.district.schools if s.name == school))


@pytest.mark.parametrize(
    ("text", "schools"),
    [
        ("What time does Cobb start now?", ["Cobb (Dr William L) ES"]),
        ("When does Everett start?", ["Everett MS"]),
        ("what's Galileo's start time?", ["Galileo HS"]),
        ("And when does Lick begin these days?", ["Lick (James) MS"]),
        ("When does Everet start?", ["Everett MS"]),
        ("what are the high schools' start times now?", ["Transition Training Center (Access)", "Balboa HS", "Galileo HS"]),
        ("When do the middle schools start?", ["Everett MS", "Lick (James) MS"]),
        ("Good. What time do the pre-k schools start?", ["Muir (John) PK", "Ortega (Jose) PK", "McCoppin (Frank) PK"]),
    ],
)
def test_a_start_time_question_is_answered_from_the_current_proposal(text: str, schools: list[str]) -> None:
    agent = _agent()
    before = agent.session.state
    turn = agent.respond(text)
    assert turn.tool_calls == [], turn.text
    assert agent.session.state == before and len(agent.session.proposals) == 1
    assert "What would you like for" not in turn.text and "start-time options" not in turn.text
    for school in schools:
        assert f"{school} starts at {_proposed(agent, school)} in proposal 1" in turn.text, turn.text
        if _today(agent, school) != _proposed(agent, school):
            assert f"({_today(agent, school)} today)" in turn.text
    assert "changed nothing" in turn.text


def test_a_yes_no_question_about_a_school_gives_today_s_start_when_it_differs() -> None:
    agent = _agent()
    turn = agent.respond("Is Lick still at 8:40?")
    assert turn.tool_calls == []
    assert "Lick (James) MS starts at 8:40 AM in proposal 1 (8:30 AM today)" in turn.text


def test_the_answer_follows_the_latest_proposal() -> None:
    agent = _agent()
    agent.respond("Everett later please")
    turn = agent.respond("When does Everett start now?")
    assert turn.tool_calls == [] and len(agent.session.proposals) == 2
    assert f"Everett MS starts at {_proposed(agent, 'Everett MS')} in proposal 2 (8:00 AM today)" in turn.text


def test_the_conversation_goes_on_after_the_answer() -> None:
    agent = _agent()
    agent.respond("What time does Cobb start now?")
    turn = agent.respond("Put it at 9:30 then.")
    calls = [(c["arguments"]["school"], c["arguments"]["time"]) for c in turn.tool_calls if c["name"] == FIX]
    assert calls == [("Cobb (Dr William L) ES", "9:30 AM")], turn.text


@pytest.mark.parametrize(
    ("text", "school", "time"),
    [
        ("Could Cobb start later?", "Cobb (Dr William L) ES", "9:30 AM"),
        ("Can Everett start at 8:40?", "Everett MS", "8:40 AM"),
        ("When does Everett start? Could it be later?", "Everett MS", "8:40 AM"),
        ("What time does Lick start? Please move it to 9:30.", "Lick (James) MS", "9:30 AM"),
    ],
)
def test_a_question_that_carries_a_request_stays_a_request(text: str, school: str, time: str) -> None:
    turn = _agent().respond(text)
    calls = [(c["arguments"]["school"], c["arguments"]["time"]) for c in turn.tool_calls if c["name"] == FIX]
    assert calls == [(school, time)], turn.text
