"""Issue 27 item 4, School Scheduling classes blind batches b10 and b11 (measured once at d04c0f1) found. Through
the real agent (`ScheduleAgent`); the phrasings are this file's own, not the batches'."""

from __future__ import annotations

import pytest

from tests.support.schedule_dialogues import fix_edits as _edits
from tests.support.schedule_dialogues import opened_agent as _agent

LICK, COBB, BALBOA = "Lick (James) MS", "Cobb (Dr William L) ES", "Balboa HS"

# 1. Asking whether a change is possible asks for it.


@pytest.mark.parametrize(
    ("text", "edit"),
    [
        (
            "Is there any way Lick could begin a little later? The kids are worn out.",
            (LICK, "9:30 AM", "fix"),
        ),
        ("Is it possible for Cobb to start at 9:30?", (COBB, "9:30 AM", "fix")),
        ("Is there a chance Balboa could go earlier next year?", (BALBOA, "7:50 AM", "fix")),
        ("Hi, is there a way to have Lick start later?", (LICK, "9:30 AM", "fix")),
    ],
)
def test_asking_whether_a_change_is_possible_asks_for_it(text: str, edit: tuple[str, str, str]) -> None:
    turn = _agent().respond(text)
    assert _edits(turn) == [edit], turn.text
    assert "changed nothing" not in turn.text


def test_a_question_how_things_stand_still_changes_nothing() -> None:
    turn = _agent().respond("Is Lick at 8:40 in this proposal?")
    assert _edits(turn) == [] and "changed nothing" in turn.text


# 3. A bound right after a grade group ('every high school after 8') is that group's, whatever the reason says.

HIGH = ["Transition Training Center (Access)", "Balboa HS", "Galileo HS"]
MIDDLE = ["Everett MS", LICK]


@pytest.mark.parametrize(
    ("text", "schools"),
    [
        ("All high schools after 8. The drivers can't do that loop any earlier.", HIGH),
        ("Every middle school after 8:00; the vans cannot get there any sooner.", MIDDLE),
        ("Each high school after 8. The buses can't manage an earlier run.", HIGH),
    ],
)
def test_a_bound_after_a_grade_group_holds_for_the_group(text: str, schools: list[str]) -> None:
    turn = _agent().respond(text)
    assert sorted(_edits(turn)) == sorted((s, "7:50 AM", "forbid") for s in schools), turn.text
    assert all(turn.schedule[s] != "7:50 AM" for s in schools)


# 5. Where a school is now, said as context ("we're at 8:40"), is no request; the time asked for is.


@pytest.mark.parametrize(
    ("text", "edit"),
    [
        ("Cobb here. We're at 8:40, that's fine, but could we have 9:30?", (COBB, "9:30 AM", "fix")),
        ("This is Lick. We're at 8:40 at the moment; we'd love 9:30.", (LICK, "9:30 AM", "fix")),
        (
            "Balboa principal. They're at 8:40, which is alright, though 9:30 would suit us.",
            (BALBOA, "9:30 AM", "fix"),
        ),
    ],
)
def test_where_a_school_is_now_is_no_request(text: str, edit: tuple[str, str, str]) -> None:
    turn = _agent().respond(text)
    assert _edits(turn) == [edit], turn.text


# 7. A school already at the end of the way asked is held there while the others move.


@pytest.mark.parametrize(
    ("text", "held", "at"),
    [
        ("Could Galileo and Balboa both go a bit earlier?", "Galileo HS", "7:50 AM"),
        ("Would it be possible for Balboa and Galileo to begin earlier?", "Galileo HS", "7:50 AM"),
        ("Muir and Lick should both start later.", "Muir (John) PK", "9:30 AM"),
    ],
)
def test_a_school_at_the_end_is_held_while_the_others_move(text: str, held: str, at: str) -> None:
    turn = _agent().respond(text)
    assert turn.schedule[held] == at, turn.text
    assert (held, at, "fix") in _edits(turn)
    assert "kept it there" in turn.text


# 2. After the agent's question, taking back the request ends the talk with the proposal as it is.


@pytest.mark.parametrize(
    "turns",
    [
        [
            "Everett should go earlier.",
            "Hmm, no, Everett has to start later than before.",
            "Sorry, keep it where you have it. Cheers.",
        ],
        [
            "Lick later please.",
            "Lick should start earlier actually.",
            "My mistake. Leave it where you put it, thanks.",
        ],
        [
            "No high school may start after 8:40.",
            "And put Balboa at 9:30.",
            "Never mind that, leave it. Fine.",
        ],
        ["Move Muir later, please.", "Oh, it's already the latest one? Never mind then, thanks."],
        ["Could Everett start earlier?", "Wait, it's already the earliest? OK, forget it."],
    ],
)
def test_taking_back_the_request_after_a_question_accepts_the_proposal(turns: list[str]) -> None:
    agent = _agent()
    for text in turns[:-1]:
        agent.respond(text)
    turn = agent.respond(turns[-1])
    assert turn.tool_calls == [] and "go with proposal" in turn.text, turn.text


# 6. 'Same time' repeats the time of the request before, also one held for a school not in the district.


@pytest.mark.parametrize(
    ("turns", "edit"),
    [
        (
            ["Hillcrest Middle School should start at 9:30.", "And Lick, same time please."],
            (LICK, "9:30 AM", "fix"),
        ),
        (
            ["Can Washington Middle School move to 8:40?", "Then Everett, same time."],
            ("Everett MS", "8:40 AM", "fix"),
        ),
        (["Put Jefferson Elementary at 9:30.", "OK, and Cobb at the same time."], (COBB, "9:30 AM", "fix")),
    ],
)
def test_same_time_repeats_a_held_request(turns: list[str], edit: tuple[str, str, str]) -> None:
    agent = _agent()
    agent.respond(turns[0])
    turn = agent.respond(turns[1])
    assert _edits(turn) == [edit], turn.text


# 4. Someone else's wish against the speaker's earlier request is asked about; the speaker's own 'instead' replaces.


@pytest.mark.parametrize(
    "turns",
    [
        ["Everett earlier please.", "The principal told me she wants Everett later instead."],
        ["Could Cobb start later?", "The bus company says they'd rather have Cobb earlier instead."],
        ["Lick later, please.", "Our nurses want Lick earlier instead, but the parents still want it late."],
    ],
)
def test_someone_elses_opposite_wish_is_asked_about(turns: list[str]) -> None:
    agent = _agent()
    agent.respond(turns[0])
    turn = agent.respond(turns[1])
    assert turn.tool_calls == [] and "replace the earlier one?" in turn.text, turn.text


def test_the_speakers_own_instead_still_replaces() -> None:
    agent = _agent()
    agent.respond("Lick later please.")
    turn = agent.respond("Actually, I'd rather have Lick earlier instead.")
    assert _edits(turn) == [(LICK, "8:40 AM", "fix")] and "replaces your earlier request" in turn.text


# 8. A question about a school that asks for no change is answered, never read as a request.


@pytest.mark.parametrize(
    "text",
    ["How many buses does Balboa need?", "Why is Lick at 8:40?", "What's the bus route for Everett like?"],
)
def test_a_question_about_a_school_is_answered_not_read_as_a_request(text: str) -> None:
    turn = _agent().respond(text)
    assert turn.tool_calls == [] and "changed nothing" in turn.text, turn.text
    assert "What would you like for" not in turn.text


def test_a_question_followed_by_a_request_still_acts() -> None:
    turn = _agent().respond("Why is Lick at 8:40? Put it at 9:30.")
    assert _edits(turn) == [(LICK, "9:30 AM", "fix")]
