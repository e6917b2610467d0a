"""Issue 27 item 4, School Scheduling classes the sixth blind batch (b6, measured once at 3e658fa) found: a count is
not a clock time; a thanks is no yes to the agent's question; a time tied to something else is not the school's;
a school named in a reason is not the subject; 'X too, same thing' carries the previous request. Through the real
agent (`ScheduleAgent`); the phrasings are this file's own, not b6's."""

from __future__ import annotations

import pytest

from core.schedule.agent import ScheduleAgent
from core.text.units import clock_times
from tests.support.schedule_dialogues import fix_edits as _edits
from tests.support.schedule_dialogues import opened_agent as _agent

# 1. A count is not a clock time.


@pytest.mark.parametrize(
    ("text", "school", "time"),
    [
        ("Some 145 families signed our letter. Please put Lick at 9:30.", "Lick (James) MS", "9:30 AM"),
        ("We have 115 parent volunteers at Cobb, could Cobb start at 8:40?", "Cobb (Dr William L) ES", "8:40 AM"),
        ("Over 110 teachers backed this: Everett should begin at 9:30.", "Everett MS", "9:30 AM"),
    ],
)
def test_a_count_before_a_noun_is_not_a_clock_time(text: str, school: str, time: str) -> None:
    turn = _agent().respond(text)
    assert _edits(turn) == [(school, time, "fix")], turn.text
    assert "closest option" not in turn.text


def test_a_compact_time_before_a_verb_is_still_a_time() -> None:
    assert [m for _, _, m in clock_times("lick 930 works for us", spoken=True)] == [570]
    assert clock_times("we collected 120 signatures", spoken=True) == []


# 2. A courtesy is not a yes.


def _offer() -> ScheduleAgent:
    agent = _agent()
    turn = agent.respond("Everett at 8:15")  # 'Should I put Everett MS at 7:50 AM, the closest option?'
    assert "closest option" in turn.text
    return agent


@pytest.mark.parametrize("courtesy", ["Thank you!", "Lovely.", "Cheers, much appreciated", "Awesome, thanks"])
def test_a_thanks_to_a_yes_no_question_asks_once_more(courtesy: str) -> None:
    agent = _offer()
    turn = agent.respond(courtesy)
    assert turn.tool_calls == [], turn.text
    assert "should I go ahead with Everett MS at 7:50 AM?" in turn.text
    assert _edits(agent.respond("yes")) == [("Everett MS", "7:50 AM", "fix")]


def test_a_second_thanks_leaves_the_schedule_and_says_so() -> None:
    agent = _offer()
    agent.respond("Thanks a lot")
    turn = agent.respond("Thank you so much!")
    assert turn.tool_calls == []
    assert "leave the schedule as it is" in turn.text and "Everett MS at 7:50 AM is not applied" in turn.text
    assert agent.respond("Thanks again").tool_calls == []
    assert _edits(agent.respond("yes")) == [("Everett MS", "7:50 AM", "fix")]


def test_agreement_to_a_yes_no_question_still_applies_it() -> None:
    agent = _offer()
    assert _edits(agent.respond("ok, thanks")) == [("Everett MS", "7:50 AM", "fix")]
    # 'sounds good, thanks' to the agent's own suggestion closes on the current proposal (s35c class 3)


# 3. A time tied to something else is not the school's.


@pytest.mark.parametrize(
    ("text", "school", "time"),
    [
        ("Our Lick kids take a city shuttle that drops them off at 8:25. Could Lick start at 8:40?",
         "Lick (James) MS", "8:40 AM"),
        ("The crossing guards arrive at 9:10. Can Galileo begin at 9:30?", "Galileo HS", "9:30 AM"),
        ("My twins catch the Muni line that reaches Galileo at 9:20, could Galileo begin at 9:30?",
         "Galileo HS", "9:30 AM"),
        ("Our Everett bus drivers finish their first loop at 9:10. Please move Everett to 9:30.",
         "Everett MS", "9:30 AM"),
        ("Most Cobb parents catch a train that leaves around 8:05, so please put Cobb at 7:50.",
         "Cobb (Dr William L) ES", "7:50 AM"),
    ],
)  # fmt: skip
def test_a_time_of_another_thing_is_not_the_schools(text: str, school: str, time: str) -> None:
    turn = _agent().respond(text)
    assert _edits(turn) == [(school, time, "fix")], turn.text
    assert "closest option" not in turn.text


def test_a_time_right_after_the_school_is_still_its_own() -> None:
    turn = _agent().respond("Lick at 9:15.")
    assert "closest option" in turn.text


# 5. Carrying a request to another school.


@pytest.mark.parametrize(
    ("first", "second", "edit"),
    [
        ("Please put Lick at 9:30.", "Do the same with Everett.", ("Everett MS", "9:30 AM", "fix")),
        ("Lick must not start at 7:50.", "Cobb too, same rule.", ("Cobb (Dr William L) ES", "7:50 AM", "forbid")),
        ("No middle school should start before 8:30.", "Same rule for Cobb, please.",
         ("Cobb (Dr William L) ES", "7:50 AM", "forbid")),
        ("Could Galileo start later?", "And Balboa too, same deal.", ("Balboa HS", "8:40 AM", "fix")),
    ],
)  # fmt: skip
def test_same_thing_for_another_school_repeats_the_request(first: str, second: str, edit: tuple) -> None:
    agent = _agent()
    agent.respond(first)
    turn = agent.respond(second)
    assert _edits(turn) == [edit], turn.text


# 4. A school named in a reason is not the subject.


@pytest.mark.parametrize(
    ("text", "school"),
    [
        ("Cobb's bell is a headache. Could it move later? Parents who also have a child at Lick can't manage.",
         "Cobb (Dr William L) ES"),
        ("Could Everett begin later? My neighbour's daughter at Galileo rides with us every morning.",
         "Everett MS"),
        ("Please put Galileo at 9:30, so it matches the Balboa bus loop.", "Galileo HS"),
    ],
)  # fmt: skip
def test_a_school_named_in_a_reason_is_not_asked_about(text: str, school: str) -> None:
    turn = _agent().respond(text)
    edits = _edits(turn)
    assert edits and all(s == school for s, _, _ in edits), turn.text
    assert "closest option" not in turn.text and "Which" not in turn.text


def test_a_bare_time_with_a_reason_answers_for_the_school_just_discussed() -> None:
    agent = _agent()
    agent.respond("Could Lick start at 8:15?")  # asks about Lick
    turn = agent.respond("Later. 9:30, so it fits the Everett buses.")
    assert _edits(turn) == [("Lick (James) MS", "9:30 AM", "fix")], turn.text
