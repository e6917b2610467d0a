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
    agent = _agent()
    turn = agent.respond("Could Lick start at the same time as Everett?")
    assert sorted(fix_edits(turn)) == [("Everett MS", "7:50 AM", "fix"), ("Lick (James) MS", "7:50 AM", "fix")]
    district = agent.session.district
    slots = agent.session.current.result.assignment
    assert slots[district.school_index("Lick (James) MS")] == slots[district.school_index("Everett MS")]


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


def test_a_problem_with_two_schools_at_the_same_time_asks_no_shared_start() -> None:
    turn = _agent().respond(
        "Our buses can't cover Everett and Galileo if they start at the same time. One of them has to move."
    )
    assert "Which start should" not in turn.text, turn.text


def test_times_listed_after_a_statement_are_described_not_asked() -> None:
    turn = _agent().respond(
        "The pre-K schools all start really late, 9:20 and 9:30. Can you move them earlier? I have to be at work "
        "by 9."
    )
    assert "not one of the standardized start times" not in turn.text, turn.text
    assert {time for _, time, _ in fix_edits(turn)} == {"8:40 AM"}, turn.text


def test_a_time_said_to_be_too_late_beside_the_time_asked_keeps_the_request() -> None:
    turn = _agent().respond("Could Lick start at 8:40, 9:30 is too late")
    assert fix_edits(turn) == [("Lick (James) MS", "8:40 AM", "fix")], turn.text


def test_moving_the_start_time_without_a_school_asks_which_and_a_misspelt_answer_completes_it() -> None:
    agent = _agent()
    first = agent.respond(
        "Can you move the start time a bit later? My son's bus comes at 6:50 and that's ridiculous."
    )
    assert not first.tool_calls and "Which school" in first.text, first.text
    second = agent.respond("Sorry, he's at Everet Middle, 7th grade.")
    assert fix_edits(second) == [("Everett MS", "8:40 AM", "fix")], second.text
    assert not [c for c in second.tool_calls if "weight" in c["name"]], second.text


def test_yes_go_with_that_for_a_school_accepts() -> None:
    agent = _agent()
    agent.respond("Lawton starts at 9:30 which is too late for working parents. Can it start at 8:40 instead?")
    turn = agent.respond("yes, go with that for Lawton")
    assert "we'll go with proposal" in turn.text, turn.text
