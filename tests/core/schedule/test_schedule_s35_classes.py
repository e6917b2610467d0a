"""Issue 27 item 4, School Scheduling classes blind batches b14 and b15 found (session 35, branch s35/sch50).
Through the real agent (`ScheduleAgent`); the phrasings are this file's own, not the batches'. Opening proposal:
Lick 8:40, Cobb 8:40, Everett 7:50, Balboa 8:40, Galileo 7:50, Access 7:50, Lawton 9:30."""

from __future__ import annotations

import pytest

from core.schedule import language as lang
from tests.support.schedule_dialogues import fix_edits as _edits
from tests.support.schedule_dialogues import opened_agent as _agent

LICK, COBB, EVERETT = "Lick (James) MS", "Cobb (Dr William L) ES", "Everett MS"
ACCESS, LAWTON = "Transition Training Center (Access)", "Lawton K-8 (K-5)"

# 1. A message that names a school and asks nothing itself, but says it goes with the schools just asked for
#    ('X can join them'), applies that request to X.


@pytest.mark.parametrize(
    ("first", "then", "edits"),
    [
        ("Set Lick and Cobb to 9:30.", "Everett can join them.", [(EVERETT, "9:30 AM", "fix")]),
        ("Galileo and Balboa at 8:40 please", "Let Access go along with them", [(ACCESS, "8:40 AM", "fix")]),
        ("Move Lick to 9:30", "Everett should follow suit.", [(EVERETT, "9:30 AM", "fix")]),
        ("Cobb and Lick at 7:50.", "Put Access in with them.", [(ACCESS, "7:50 AM", "fix")]),
        ("Lick later please", "Access can join in.", [(ACCESS, "8:40 AM", "fix")]),
    ],
)
def test_a_school_that_goes_with_them_takes_their_request(
    first: str, then: str, edits: list[tuple[str, str, str]]
) -> None:
    agent = _agent()
    agent.respond(first)
    turn = agent.respond(then)
    assert _edits(turn) == edits, turn.text


# 2. A direction beside a refused start, in the same sentence or the next, moves the school the way asked to the
#    nearest start that is not refused; when the refused start is the only one that way, the reply says it cannot.


def _fixes(turn) -> list[tuple[str, str, str]]:
    return [edit for edit in _edits(turn) if edit[2] == "fix"]


@pytest.mark.parametrize(
    ("text", "fixes"),
    [
        ("Could Lawton move earlier? Just not to 8:40.", [(LAWTON, "7:50 AM", "fix")]),
        ("Lawton a bit earlier. Anything but 8:40.", [(LAWTON, "7:50 AM", "fix")]),
        ("Lawton earlier, but not at 8:40", [(LAWTON, "7:50 AM", "fix")]),
        ("Access later please - not 8:40 though", [(ACCESS, "9:30 AM", "fix")]),
        ("Access needs to go later. 8:40 won't work.", [(ACCESS, "9:30 AM", "fix")]),
    ],
)
def test_a_direction_skips_the_refused_start(text: str, fixes: list[tuple[str, str, str]]) -> None:
    turn = _agent().respond(text)
    assert _fixes(turn) == fixes, turn.text
    assert turn.schedule[fixes[0][0]] == fixes[0][1], turn.text


@pytest.mark.parametrize(
    "text",
    ["Lick earlier please. Not 7:50 though.", "Lick earlier, not 7:50", "Could Cobb go earlier? Anything but 7:50."],
)
def test_a_direction_whose_only_start_is_refused_says_it_cannot(text: str) -> None:
    turn = _agent().respond(text)
    assert not _fixes(turn), turn.text
    assert "cannot" in turn.text and "ruled out" in turn.text, turn.text


# 3. 'latter' without 'the' before it is 'later' misspelt ('a latter bell'); 'the latter' stays a word of its own.


@pytest.mark.parametrize(
    "text",
    ["Could Access get a latter bell?", "Access should start latter", "Access could begin a bit latter please"],
)
def test_latter_without_the_is_later(text: str) -> None:
    turn = _agent().respond(text)
    assert _fixes(turn) == [(ACCESS, "8:40 AM", "fix")], turn.text


@pytest.mark.parametrize("text", ["I'd take the latter", "the latter of the two, please", "The latter, thanks."])
def test_the_latter_stays(text: str) -> None:
    assert lang.respelt_directions(text) == text
