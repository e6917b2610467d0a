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
