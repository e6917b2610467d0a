"""Issue 27 item 4, School Scheduling classes blind batch b12 (measured once at 15524c2) found. Through the real
agent (`ScheduleAgent`); the phrasings are this file's own, not the batch's."""

from __future__ import annotations

import pytest

from tests.support.schedule_dialogues import fix_edits as _edits
from tests.support.schedule_dialogues import opened_agent as _agent

LICK, EVERETT, COBB = "Lick (James) MS", "Everett MS", "Cobb (Dr William L) ES"
HIGH = ["Transition Training Center (Access)", "Balboa HS", "Galileo HS"]

# 1. A courtesy ('if it's not too much trouble') beside a request of schools is no 'loosen the model'.


@pytest.mark.parametrize(
    ("text", "edits"),
    [
        ("Lick slightly later please, if it's not too much to ask.", [(LICK, "9:30 AM", "fix")]),
        (
            "Every middle school a bit later please, if that's not too much trouble.",
            [(EVERETT, "8:40 AM", "fix"), (LICK, "9:30 AM", "fix")],
        ),
        ("Cobb a bit earlier, if it's not too much of a stretch", [(COBB, "7:50 AM", "fix")]),
        (
            "All the high schools a little later, please, if it isn't too much trouble.",
            [(HIGH[0], "8:40 AM", "fix"), (HIGH[1], "9:30 AM", "fix"), (HIGH[2], "8:40 AM", "fix")],
        ),
    ],
)
def test_a_courtesy_beside_a_request_is_no_loosening(text: str, edits: list[tuple[str, str, str]]) -> None:
    turn = _agent().respond(text)
    assert sorted(_edits(turn)) == sorted(edits), turn.text
    assert "loosen" not in turn.text


def test_asking_to_loosen_a_bound_still_loosens_it() -> None:
    agent = _agent()
    agent.respond("Keep the peak under 2,600 students.")
    turn = agent.respond("Could you loosen that limit a bit?")
    assert [c["name"] for c in turn.tool_calls][:1] == ["add_objective_upper_bound"], turn.text
