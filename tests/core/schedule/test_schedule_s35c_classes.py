"""Issue 27 item 4, School Scheduling classes blind batch b17 found (session 35, branch s35/sch52).
Through the real agent (`ScheduleAgent`); the phrasings are this file's own, not the batch's. Opening proposal:
Lick 8:40, Cobb 8:40, Everett 7:50, Balboa 8:40, Galileo 7:50, Access 7:50, Lawton 9:30."""

from __future__ import annotations

import pytest

from tests.support.schedule_dialogues import fix_edits as _edits
from tests.support.schedule_dialogues import opened_agent as _agent

LICK, EVERETT, LAWTON, COBB = "Lick (James) MS", "Everett MS", "Lawton K-8 (K-5)", "Cobb (Dr William L) ES"

# 1. After 'should the new request replace the earlier one?' about a rule against one school's own start, an
#    answer that says the rule wins or drops that school's request applies the rule (the school's start goes).


@pytest.mark.parametrize(
    "answer",
    [
        "Right, go with the rule and forget the Lick one.",
        "OK, the limit stands. Scratch the Lick request.",
        "Ah sorry. The rule takes priority.",
        "My mistake, drop the Lick bit.",
    ],
)
def test_the_rule_wins_over_a_single_school_request(answer: str) -> None:
    agent = _agent()
    agent.respond("Put Lick at 7:50 please.")
    asked = agent.respond("And no middle school may start before 8:15.")
    assert "replace the earlier one" in asked.text, asked.text
    turn = agent.respond(answer)
    assert (LICK, "7:50 AM", "forbid") in _edits(turn), turn.text
    assert turn.schedule[LICK] != "7:50 AM", turn.text


@pytest.mark.parametrize(
    ("answer", "kept"),
    [
        ("Sorry, forget the Lick one, put Lick at 9:30.", (LICK, "9:30 AM", "fix")),
        ("Keep Lick at 7:50, drop the 8:15 thing.", None),
        ("No, keep the Lick one.", None),
    ],
)
def test_a_new_time_or_a_kept_school_is_no_win_for_the_rule(answer: str, kept: tuple[str, str, str] | None) -> None:
    agent = _agent()
    agent.respond("Put Lick at 7:50 please.")
    agent.respond("And no middle school may start before 8:15.")
    turn = agent.respond(answer)
    assert (EVERETT, "7:50 AM", "forbid") not in _edits(turn), turn.text
    assert kept is None or kept in _edits(turn), turn.text


# 2. Beside a direction, a time that is people's start ('many of them begin work at 7:30', 'they start work at
#    7', 'half of them start at 9:15 at their other job') is context: the direction is the request, no question
#    about a non-standard start.


@pytest.mark.parametrize(
    ("message", "edits"),
    [
        ("Lawton a bit earlier please; lots of families wrote in and many of them begin work at 7:30.",
         [(LAWTON, "8:40 AM", "fix")]),
        ("Could Lawton be earlier? The parents asked, they start work at 7.", [(LAWTON, "8:40 AM", "fix")]),
        ("Cobb a bit later please, the teachers asked and half of them start at 9:15 at their other job.",
         [(COBB, "9:30 AM", "fix")]),
    ],
)
def test_a_start_of_people_beside_a_direction_is_context(message: str, edits: list[tuple[str, str, str]]) -> None:
    turn = _agent().respond(message)
    assert "not one of the standardized" not in turn.text and _edits(turn) == edits, turn.text


# 3. A closing approval ('Good, thanks', 'perfect', 'that works') to the agent's own suggestion (the standard start
#    nearest a time that is none) is no yes to it: the proposal stays and the negotiation ends; an explicit yes
#    still applies it.


@pytest.mark.parametrize("answer", ["Excellent, thanks a lot.", "Perfect, cheers.", "Great, that works."])
def test_a_closing_approval_does_not_take_the_agents_suggestion(answer: str) -> None:
    agent = _agent()
    asked = agent.respond("Could Cobb open at 9:15?")
    assert "closest option" in asked.text, asked.text
    turn = agent.respond(answer)
    assert _edits(turn) == [] and "we'll go with proposal 1" in turn.text, turn.text


@pytest.mark.parametrize("answer", ["yes please", "Yeah, thanks."])
def test_an_explicit_yes_takes_the_agents_suggestion(answer: str) -> None:
    agent = _agent()
    agent.respond("Could Cobb open at 9:15?")
    assert _edits(agent.respond(answer)) == [(COBB, "9:30 AM", "fix")]
