"""Issue 27, School Scheduling classes the third blind batch (b3, measured once at 2dff7c8) found: a bare 'OK' or
'no changes from me' is acceptance; a question for information followed by a remark with a number changes
nothing; a fixed start that undoes an earlier 'earlier'/'later' is asked about, and restating it answers the
question. Through the real agent (`ScheduleAgent`); the phrasings are this file's own, not b3's."""

from __future__ import annotations

import pytest

from core.schedule.agent import ScheduleAgent

FIX = "fix_start_time"


def _agent() -> ScheduleAgent:
    agent = ScheduleAgent()
    agent.opening()
    return agent


def _edits(turn) -> list[str]:
    return [c["name"] for c in turn.tool_calls if c["name"] != "call_solver"]


@pytest.mark.parametrize(
    "text", ["OK.", "okay", "Alright then.", "Ok, no more changes. Thanks!", "that's all, thanks"]
)
def test_ok_and_nothing_more_accept_the_proposal(text: str) -> None:
    turn = _agent().respond(text)
    assert not _edits(turn)
    assert "go with proposal" in turn.text, turn.text


@pytest.mark.parametrize(
    "text",
    [
        "Is the bus contract public? Somebody told me it's 12 million.",
        "Do you know what the district spends on buses? I read 3 million a year somewhere.",
        "Has the board seen these numbers yet? The meeting had 200 people.",
    ],
)
def test_a_question_with_a_remark_changes_nothing(text: str) -> None:
    turn = _agent().respond(text)
    assert not _edits(turn), turn.text


def test_a_question_followed_by_a_request_still_acts() -> None:
    turn = _agent().respond("Is Lick a middle school? Please put it at 9:30.")
    assert FIX in _edits(turn), turn.text


@pytest.mark.parametrize(
    ("first", "second", "restated"),
    [
        ("Could Lick start later, please?", "Lick has to be at 7:50.", "OK, go ahead with 7:50 for Lick."),
        ("Please move Galileo earlier.", "Galileo needs a 9:30 start.", "Yes, 9:30 for Galileo."),
    ],
)
def test_a_start_against_an_earlier_direction_is_asked_and_a_restatement_answers(
    first: str, second: str, restated: str
) -> None:
    agent = _agent()
    agent.respond(first)
    turn = agent.respond(second)
    assert not _edits(turn) and "replace" in turn.text, turn.text
    turn = agent.respond(restated)
    assert FIX in _edits(turn), turn.text


def test_a_start_in_the_same_direction_refines_without_asking() -> None:
    agent = _agent()
    agent.respond("Can Everett start later?")
    turn = agent.respond("Put Everett at 9:30.")
    assert FIX in _edits(turn), turn.text


@pytest.mark.parametrize(
    "revision",
    ["Forget what I said before, Galileo at 9:30.", "Please disregard my first message: Galileo at 9:30."],
)
def test_a_start_that_says_it_revises_replaces_the_earlier_direction(revision: str) -> None:
    agent = _agent()
    agent.respond("Please move Galileo earlier.")
    turn = agent.respond(revision)
    assert FIX in _edits(turn) and "replaces your earlier request" in turn.text, turn.text


@pytest.mark.parametrize(
    ("first", "answer", "school"),
    [
        ("Could the middle school begin a little later?", "Everett.", "Everett MS"),
        ("Can the high school start earlier?", "Balboa please", "Balboa HS"),
        ("Could the school start later? Mornings are hard.", "Lick", "Lick (James) MS"),
    ],
)
def test_the_school_with_several_candidates_is_asked_and_the_answer_applies_the_request(
    first: str, answer: str, school: str
) -> None:
    """Blind batch 4 (after its one measurement): 'the middle school' with two in the district lost the direction."""
    agent = _agent()
    turn = agent.respond(first)
    assert not _edits(turn) and "Which school do you mean" in turn.text, turn.text
    turn = agent.respond(answer)
    assert any(c["arguments"]["school"] == school for c in turn.tool_calls if c["name"] == FIX), turn.text


@pytest.mark.parametrize(
    "text",
    [
        "Could Everett start later? My daughter wakes at 6 anyway.",
        "Lick a bit later please; the twins are up at 5.",
    ],
)
def test_a_time_far_from_every_start_said_of_no_school_is_no_request(text: str) -> None:
    turn = _agent().respond(text)
    assert FIX in _edits(turn), turn.text
    assert "not one of the standardized start times" not in turn.text


def test_a_time_far_from_every_start_for_a_named_school_is_still_offered_the_closest() -> None:
    turn = _agent().respond("Put Lick at 6 please")
    assert "not one of the standardized start times" in turn.text
