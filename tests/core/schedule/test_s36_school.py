"""Issue 27 item 4, session 36: a quantified request with a bare hour after 'later than' / 'earlier than'
('every high school needs to start no later than 8') is a bound on the group, acted on without asking which
standard time is closest (blind batch 19, s19-04, asked once per school); a capitalised name the district does not
know, moved by a request without a head word ('Can Roosevelt start later?'), is flagged, not asked as 'which
school?'."""

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


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Can Roosevelt start later?", "Roosevelt"),
        ("Could Lincoln begin at 8:40?", "Lincoln"),
        ("move Mission later please", "Mission"),
    ],
)
def test_an_unknown_school_without_a_head_word_is_flagged(text: str, name: str) -> None:
    agent = _agent()
    before = agent.session.current.result.assignment
    turn = agent.respond(text)
    assert f'"{name}" is not a school in this district' in turn.text
    assert agent.session.current.result.assignment == before


@pytest.mark.parametrize("text", ["Can Galileo start later?", "Can we start later? Everett, I mean.",
                                  "Please move Everett later"])
def test_known_schools_and_pronouns_are_not_flagged(text: str) -> None:
    assert "is not a school in this district" not in _agent().respond(text).text
