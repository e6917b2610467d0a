"""Issue 27 item 4, a quantified request with a bare hour after 'later than' / 'earlier than' ('every high school
needs to start no later than 8'): a bound on the group, acted on without asking which standard time is closest.
Blind batch 19 (s19-04) asked once per school instead."""

from __future__ import annotations

import pytest

from core.schedule.agent import ScheduleAgent


def _agent() -> ScheduleAgent:
    agent = ScheduleAgent()
    agent.opening()
    return agent


@pytest.mark.parametrize(
    "text",
    [
        "Every high school needs to start no later than 8 so the buses can do a second run.",
        "The high schools can start no later than 8, please.",
        "No high school should start later than 8.",
    ],
)
def test_a_bare_hour_after_later_than_bounds_the_group(text: str) -> None:
    agent = _agent()
    turn = agent.respond(text)
    assert "closest option" not in turn.text, turn.text
    district = agent.session.district
    options = tuple(district.start_times)
    assignment = agent.session.current.result.assignment
    for school in district.schools:
        if school.grade == "HS":
            assert options[assignment[district.school_index(school.name)]] <= 8 * 60, turn.text
