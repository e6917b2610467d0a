"""Issue 27 item 4, School Scheduling classes blind batches b14 and b15 found (session 35, branch s35/sch50).
Through the real agent (`ScheduleAgent`); the phrasings are this file's own, not the batches'. Opening proposal:
Lick 8:40, Cobb 8:40, Everett 7:50, Balboa 8:40, Galileo 7:50, Access 7:50, Lawton 9:30."""

from __future__ import annotations

import pytest

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
