"""Issue 27 item 4, School Scheduling classes blind batches b13 and b14 (measured at 199aec9) found. Through the
real agent (`ScheduleAgent`); the phrasings are this file's own, not the batches'. Opening proposal: Lick 8:40,
Cobb 8:40, Everett 7:50, Balboa 8:40, Galileo 7:50, Access 7:50, Lawton 9:30."""

from __future__ import annotations

import pytest

from tests.support.schedule_dialogues import fix_edits as _edits
from tests.support.schedule_dialogues import opened_agent as _agent

LICK, COBB, ACCESS = "Lick (James) MS", "Cobb (Dr William L) ES", "Transition Training Center (Access)"
LAWTON, BALBOA = "Lawton K-8 (K-5)", "Balboa HS"

# 1. A time said beside a direction in a stretch that asks nothing of its own is context: a start where the school
#    is now is never a fix there, and one the other way never moves the school against the direction.


@pytest.mark.parametrize(
    ("text", "edits"),
    [
        ("Could Lawton begin a bit earlier? 9:30 drags on for the little ones.", [(LAWTON, "8:40 AM", "fix")]),
        ("Lawton a little earlier, 9:30 drags on", [(LAWTON, "8:40 AM", "fix")]),
        ("Can Lick start earlier? Honestly 8:40 feels late.", [(LICK, "7:50 AM", "fix")]),
        ("Access a touch later please, 7:50 comes around too fast", [(ACCESS, "8:40 AM", "fix")]),
    ],
)
def test_the_current_start_said_as_a_complaint_is_no_fix(text: str, edits: list[tuple[str, str, str]]) -> None:
    turn = _agent().respond(text)
    assert _edits(turn) == edits, turn.text


@pytest.mark.parametrize(
    ("text", "edits"),
    [
        ("Cobb earlier would help. A 9:30 bell drags.", [(COBB, "7:50 AM", "fix")]),
        ("Balboa earlier if possible. 9:30 drags on.", [(BALBOA, "7:50 AM", "fix")]),
        ("Could Lick go later? 7:50 feels brutal.", [(LICK, "9:30 AM", "fix")]),
    ],
)
def test_a_start_the_other_way_said_as_context_never_moves_against(
    text: str, edits: list[tuple[str, str, str]]
) -> None:
    turn = _agent().respond(text)
    assert _edits(turn) == edits, turn.text


@pytest.mark.parametrize(
    ("text", "edits"),
    [
        ("Lawton earlier. 8:40 would be lovely.", [(LAWTON, "8:40 AM", "fix")]),
        ("Cobb later, we would love 9:30", [(COBB, "9:30 AM", "fix")]),
        ("Lawton earlier, ideally 7:50 if it fits", [(LAWTON, "7:50 AM", "fix")]),
    ],
)
def test_a_time_asked_beside_a_direction_is_still_the_request(text: str, edits: list[tuple[str, str, str]]) -> None:
    turn = _agent().respond(text)
    assert _edits(turn) == edits, turn.text


# 2. After 'should the new request replace the earlier one?', a direction said alone picks the request that goes
#    that way; a trailing thanks makes it no bare acceptance and no menu.


def _contested_lick():
    """An agent that has moved Lick later and then asked whether 'Lick earlier' should replace that."""
    agent = _agent()
    agent.respond("Lick later please")
    asked = agent.respond("Lick has to go earlier than where it is, the vans can't manage")
    assert "replace the earlier one?" in asked.text, asked.text
    return agent


@pytest.mark.parametrize(
    "text",
    [
        "My apologies, scrap that, later was right. Cheers.",
        "forget what I just said, later",
        "oh ignore me, later is what I meant. thanks!",
        "no, keep the earlier one",
    ],
)
def test_a_direction_naming_the_earlier_request_keeps_it(text: str) -> None:
    turn = _contested_lick().respond(text)
    assert _edits(turn) == [] and "earlier request stands" in turn.text, turn.text


@pytest.mark.parametrize(
    "text", ["earlier is correct after all, thanks", "oops, earlier was right, cheers", "earlier. thanks"]
)
def test_a_direction_naming_the_new_request_applies_it(text: str) -> None:
    turn = _contested_lick().respond(text)
    assert _edits(turn) == [(LICK, "8:40 AM", "fix")], turn.text
