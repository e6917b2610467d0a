"""Issue 27 item 4, School Scheduling classes blind batch b13 (measured at 657d866) found. Through the real agent
(`ScheduleAgent`); the phrasings are this file's own, not the batch's. Opening proposal: Lick 8:40, Cobb 8:40,
Everett 7:50, Balboa 8:40, Galileo 7:50, Access 7:50."""

from __future__ import annotations

import pytest

from core.schedule.language import respelt_directions
from tests.support.schedule_dialogues import fix_edits as _edits
from tests.support.schedule_dialogues import opened_agent as _agent

LICK, COBB, BALBOA = "Lick (James) MS", "Cobb (Dr William L) ES", "Balboa HS"

# 1. A misspelt direction word is read as the direction (rapidfuzz, as misspelt school names are).


@pytest.mark.parametrize(
    ("text", "edits"),
    [
        ("Lick ought to begin earliar next year", [(LICK, "7:50 AM", "fix")]),
        ("could Cobb go a little latr please", [(COBB, "9:30 AM", "fix")]),
        ("Balboa should start ealier, honestly", [(BALBOA, "7:50 AM", "fix")]),
        ("Lick a bit laater if you can", [(LICK, "9:30 AM", "fix")]),
    ],
)
def test_a_misspelt_direction_is_read_as_the_direction(text: str, edits: list[tuple[str, str, str]]) -> None:
    turn = _agent().respond(text)
    assert _edits(turn) == edits, turn.text


@pytest.mark.parametrize(
    "text", ["I'd take the latter option", "we're running late today", "Lick is lately too crowded"]
)
def test_words_of_their_own_near_a_direction_stay(text: str) -> None:
    assert respelt_directions(text) == text


# 2. A time said as the reason beside a stated direction is context: no forbid, no fix, never the opposite way.


@pytest.mark.parametrize(
    ("text", "edits"),
    [
        ("Balboa has to move earlier, we just can't staff the 8:40 routes", [(BALBOA, "7:50 AM", "fix")]),
        ("Please start Balboa earlier since the 8:40 buses are overloaded", [(BALBOA, "7:50 AM", "fix")]),
        ("Cobb later please because the 8:40 bus is always packed", [(COBB, "9:30 AM", "fix")]),
        ("Lick needs a later start, our drivers can't make the 8:40 run", [(LICK, "9:30 AM", "fix")]),
    ],
)
def test_a_time_in_a_reason_beside_a_direction_is_context(text: str, edits: list[tuple[str, str, str]]) -> None:
    turn = _agent().respond(text)
    assert _edits(turn) == edits, turn.text


def test_a_group_asked_earlier_with_a_reason_time_never_moves_later() -> None:
    turn = _agent().respond("Every high school earlier if you can, our drivers can't cover the 8:40 routes.")
    assert all(t != "forbid" for _, _, t in _edits(turn)), turn.text
    assert (BALBOA, "7:50 AM", "fix") in _edits(turn), turn.text


def test_a_time_asked_on_the_side_of_the_direction_is_still_the_request() -> None:
    turn = _agent().respond("Cobb later, we would love 9:30")
    assert _edits(turn) == [(COBB, "9:30 AM", "fix")], turn.text


@pytest.mark.parametrize(
    ("text", "school", "away"),
    [
        ("Balboa earlier, not 8:40", BALBOA, "9:30 AM"),
        ("all the high schools earlier please, anything but 8:40", BALBOA, "9:30 AM"),
        ("Lick a bit later, just not 8:40", LICK, "7:50 AM"),
    ],
)
def test_a_refused_time_kept_beside_a_direction_rules_out_the_other_way(text: str, school: str, away: str) -> None:
    turn = _agent().respond(text)
    assert (school, away, "forbid") in _edits(turn), turn.text
