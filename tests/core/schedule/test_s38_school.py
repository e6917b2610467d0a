"""Issue 27 item 4, session 38 (classes blind batch s23 found, measured once at 6c9cb77 and 1331716 before any change
for it; our own phrasings): a sentence about the speaker's route that names schools is context, not a request for
them, and 'my shift starts at 7:15' is the speaker's time even beside a school's name; 'the same buses' holds no
school; 'pre-K programs' is the pre-K group in every quantified form."""

from __future__ import annotations

import pytest

from tests.support.schedule_dialogues import fix_edits
from tests.support.schedule_dialogues import opened_agent as _agent


@pytest.mark.parametrize(
    "text",
    [
        "I drive the bus that does Cobb Elementary and then Lick. My shift starts at 7:15 and I wait in the lot "
        "before Cobb opens its doors. Could Cobb start earlier?",
        "I work the crossing at Cobb and then at Lick. Could Cobb start earlier?",
    ],
)
def test_schools_named_only_as_the_speakers_route_are_not_moved(text: str) -> None:
    turn = _agent().respond(text)
    moved = {school for school, _, _ in fix_edits(turn)}
    assert moved == {"Cobb (Dr William L) ES"}, turn.text
    assert "7:15" not in turn.text, turn.text


def test_the_same_buses_hold_no_school() -> None:
    turn = _agent().respond(
        "Our routes are stretched. Could the middle schools go earlier? Then the same buses can do the elementary "
        "run after them."
    )
    assert "which one should it be" not in turn.text, turn.text
    assert {(school, time) for school, time, _ in fix_edits(turn)} == {
        ("Everett MS", "7:50 AM"),
        ("Lick (James) MS", "7:50 AM"),
    }, turn.text


def test_keep_the_same_still_holds_a_school() -> None:
    turn = _agent().respond("Please keep Lick the same.")
    assert ("Lick (James) MS", "8:40 AM", "fix") in fix_edits(turn), turn.text


@pytest.mark.parametrize(
    "text",
    [
        "Working parents have asked that none of the pre-K programs start later than 8:40.",
        "no pre-K program should start after 8:40",
        "The pre-K classes start too late. Put them at 8:40.",
    ],
)
def test_pre_k_programs_are_the_pre_k_group(text: str) -> None:
    turn = _agent().respond(text)
    assert 'as Muir (John) PK, Ortega (Jose) PK, McCoppin (Frank) PK' in turn.text, turn.text
    assert "Which school should move" not in turn.text, turn.text


def test_the_k8_alone_is_the_districts_k8_school() -> None:
    turn = _agent().respond("Can the K-8 start later?")
    assert "Which school should move" not in turn.text, turn.text
    assert "Lawton" in turn.text, turn.text


def test_the_same_time_as_another_school_takes_its_start() -> None:
    turn = _agent().respond("Could Lick start at the same time as Everett?")
    assert fix_edits(turn) == [("Lick (James) MS", "7:50 AM", "fix")], turn.text


def test_two_schools_at_the_same_time_ask_which_then_take_the_answer() -> None:
    agent = _agent()
    first = agent.respond("Lick and Everett should start at the same time")
    assert not fix_edits(first) and "Which start should" in first.text, first.text
    second = agent.respond("8:40 please")
    assert sorted(fix_edits(second)) == [("Everett MS", "8:40 AM", "fix"), ("Lick (James) MS", "8:40 AM", "fix")]


@pytest.mark.parametrize(
    "question",
    ["What's the earliest any school could start under the new schedule?", "what is the latest Lick could start?"],
)
def test_a_question_about_the_earliest_or_latest_start_moves_nothing(question: str) -> None:
    turn = _agent().respond(question)
    assert not fix_edits(turn), turn.text
    assert "7:50 AM, 8:40 AM and 9:30 AM" in turn.text, turn.text
