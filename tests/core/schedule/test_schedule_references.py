"""Issue 27 items 1-2 (School Scheduling, session s28): what a stakeholder's words point at across a
conversation, through the real agent and tool loop (`ScheduleAgent`). 'It' with nothing before it, and 'our
school' / 'my school' / 'we' before the stakeholder said which school is theirs, are asked about and the request
is held for the answer; once they said it ('I'm the principal at Lick'), those words mean that school. A start the
agent chose for a direction ('earlier', already at the earliest) is a request: ruling it out later is asked
about. A time that is not even a start option ('the 8:00 bus run') never hides the direction beside it.
The phrasings are this file's own, not the blind batch's."""

from __future__ import annotations

import pytest

from tests.support.schedule_dialogues import fix_edits as _edits
from tests.support.schedule_dialogues import opened_agent as _agent


@pytest.mark.parametrize(
    ("text", "answer", "expected"),
    [
        ("Could you put it at 9:30?", "Sorry, Lick.", ("Lick (James) MS", "9:30 AM", "fix")),
        ("Please move it to 7:50.", "I meant Galileo", ("Galileo HS", "7:50 AM", "fix")),
        ("Can it start later?", "Everett", ("Everett MS", "8:40 AM", "fix")),
        ("Put them at 9:30 please", "Cobb", ("Cobb (Dr William L) ES", "9:30 AM", "fix")),
    ],
)
def test_it_with_nothing_before_it_is_asked_about_and_the_answer_applies_it(text, answer, expected):
    agent = _agent()
    turn = agent.respond(text)
    assert turn.tool_calls == [] and turn.constraints == []
    assert "Which school" in turn.text and "?" in turn.text, turn.text
    turn = agent.respond(answer)
    assert _edits(turn) == [expected], turn.text


@pytest.mark.parametrize(
    ("intro", "ask", "expected"),
    [
        ("I'm the principal at Lick.", "Could our school start at 9:30?", ("Lick (James) MS", "9:30 AM", "fix")),
        ("My kids go to Cobb.", "My school should start later, please.", ("Cobb (Dr William L) ES", "9:30 AM", "fix")),
        ("We are the Galileo parents' association.", "We'd like 9:30.", ("Galileo HS", "9:30 AM", "fix")),
        ("I teach at Balboa.", "Can we go to 9:30?", ("Balboa HS", "9:30 AM", "fix")),
    ],
)
def test_our_school_my_school_and_we_mean_the_school_the_stakeholder_named(intro, ask, expected):
    agent = _agent()
    agent.respond(intro)
    turn = agent.respond(ask)
    assert _edits(turn) == [expected], turn.text


def test_our_school_is_the_stakeholders_school_not_the_last_one_asked_about():
    agent = _agent()
    agent.respond("I'm the principal at Lick.")
    agent.respond("Can Everett start at 8:40?")
    turn = agent.respond("And our school at 9:30 please")
    assert _edits(turn) == [("Lick (James) MS", "9:30 AM", "fix")], turn.text


@pytest.mark.parametrize(
    ("ask", "answer", "expected"),
    [
        ("Our school would like to start at 9:30.", "Everett", ("Everett MS", "9:30 AM", "fix")),
        ("We'd rather start later.", "We're at Galileo.", ("Galileo HS", "8:40 AM", "fix")),
        ("Can my school go to 7:50?", "Cobb", ("Cobb (Dr William L) ES", "7:50 AM", "fix")),
    ],
)
def test_our_school_before_the_stakeholder_said_which_is_asked_about(ask, answer, expected):
    agent = _agent()
    turn = agent.respond(ask)
    assert turn.tool_calls == [] and "Which school is yours" in turn.text, turn.text
    turn = agent.respond(answer)
    assert _edits(turn) == [expected], turn.text


@pytest.mark.parametrize(
    "text",
    [
        "Can we get the peak under 2,400 students?",
        "We want fewer buses.",
        "Could we see some options?",
    ],
)
def test_we_in_a_request_about_the_district_asks_no_school(text):
    turn = _agent().respond(text)
    assert "Which school is yours" not in turn.text, turn.text


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("Galileo needs an earlier start; the 8:10 shuttle can't wait.", "Galileo may not start before 8:40."),
        ("Everett should be earlier if at all possible.", "Everett must start at 8:40 or later."),
        ("Move John Muir later please.", "John Muir can't start after 8:40."),
    ],
)
def test_ruling_out_the_start_a_direction_asked_for_is_asked_about(first, then):
    agent = _agent()
    before = agent.respond(first)
    turn = agent.respond(then)
    assert turn.tool_calls == [] and turn.constraints == before.constraints, turn.text
    assert "Earlier you asked" in turn.text and "replace" in turn.text, turn.text


@pytest.mark.parametrize(
    ("text", "school"),
    [
        ("Galileo has to start earlier, the 8:10 shuttle won't make it otherwise.", "Galileo HS"),
        ("Muir should go later, parents can't do the 9:00 drop-off.", "Muir (John) PK"),
        ("Everett earlier please, we can't make the 8:15 bus.", "Everett MS"),
    ],
)
def test_a_refused_time_that_is_no_start_option_does_not_hide_the_direction(text, school):
    turn = _agent().respond(text)
    assert "is not a start-time option" not in turn.text, turn.text
    assert "already has the" in turn.text or _edits(turn), turn.text


@pytest.mark.parametrize(
    ("intro", "ask", "answer", "expected"),
    [
        ("My two kids go to Cobb and Lick.", "Can my school start at 9:30?", "Cobb", ("Cobb (Dr William L) ES", "9:30 AM")),
        ("We run Everett and Galileo.", "Our school should begin at 8:40.", "Galileo", ("Galileo HS", "8:40 AM")),
        ("I teach at both Balboa and Lick.", "Could my school go later?", "Lick", ("Lick (James) MS", "9:30 AM")),
    ],
)
def test_my_school_among_several_of_the_stakeholders_schools_is_asked_about(intro, ask, answer, expected):
    agent = _agent()
    agent.respond(intro)
    turn = agent.respond(ask)
    assert turn.tool_calls == [] and "Which of your schools" in turn.text, turn.text
    turn = agent.respond(answer)
    assert _edits(turn) == [(*expected, "fix")], turn.text
