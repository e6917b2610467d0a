"""Issue 27 item 4, School Scheduling classes blind batch b16 found (session 35, branch s35/sch51).
Through the real agent (`ScheduleAgent`); the phrasings are this file's own, not the batch's. Opening proposal:
Lick 8:40, Cobb 8:40, Everett 7:50, Balboa 8:40, Galileo 7:50, Access 7:50, Lawton 9:30."""

from __future__ import annotations

import pytest

from tests.support.schedule_dialogues import fix_edits as _edits
from tests.support.schedule_dialogues import opened_agent as _agent

LICK, COBB, BALBOA, LAWTON = "Lick (James) MS", "Cobb (Dr William L) ES", "Balboa HS", "Lawton K-8 (K-5)"

# 1. 'never mind, keep what we have' answering 'should the new request replace the earlier one?' drops the new
#    request and keeps the schedule; no clarify menu.


@pytest.mark.parametrize(
    "answer",
    ["Never mind, keep what we have.", "nevermind, we'll keep what we've got, thanks", "Forget it. Keep what's there."],
)
def test_never_mind_keep_what_we_have_drops_the_contested_request(answer: str) -> None:
    agent = _agent()
    agent.respond("Lick has to start at 9:30.")
    asked = agent.respond("Lick should start at 7:50.")
    assert "replace the earlier one" in asked.text
    turn = agent.respond(answer)
    assert _edits(turn) == [] and "left the schedule as it is" in turn.text, turn.text


# 2. A time in a stretch that says how a school starts now is context even when a relative clause after it
#    complains ('... starts at 8:15 which makes no sense'); the request is the other sentence's time.


@pytest.mark.parametrize(
    ("message", "edits"),
    [
        ("Lick starts at 8:15 which makes no sense to me. Make it 9:30.", [(LICK, "9:30 AM", "fix")]),
        ("Cobb begins at 8:05 which is no good for our drivers. Put it at 7:50.", [(COBB, "7:50 AM", "fix")]),
        ("Lawton opens at 9:10 that can't work with buses, so set it to 8:40 please", [(LAWTON, "8:40 AM", "fix")]),
    ],
)
def test_a_complained_about_present_start_is_no_request(message: str, edits: list[tuple[str, str, str]]) -> None:
    turn = _agent().respond(message)
    assert _edits(turn) == edits, turn.text


# 3. A stated start that goes against the speaker's own earlier direction is applied, and said to replace it, when
#    the message takes the change back ('go back to', 'put X back', 'undo'); without such a word it is asked about.


@pytest.mark.parametrize(
    ("first", "then", "edits"),
    [
        ("Lick should start later", "Lick can go back to 8:40, the gym is free on Mondays", [(LICK, "8:40 AM", "fix")]),
        ("Cobb later please.", "Hmm, put Cobb back at 8:40.", [(COBB, "8:40 AM", "fix")]),
        ("Lawton earlier please", "Let's undo that one, Lawton at 9:30.", [(LAWTON, "9:30 AM", "fix")]),
    ],
)
def test_taking_a_change_back_replaces_it(first: str, then: str, edits: list[tuple[str, str, str]]) -> None:
    agent = _agent()
    agent.respond(first)
    turn = agent.respond(then)
    assert _edits(turn) == edits and "replaces your earlier request" in turn.text, turn.text


def test_a_contradiction_without_a_take_back_word_is_still_asked() -> None:
    agent = _agent()
    agent.respond("Cobb later please.")
    turn = agent.respond("Cobb at 7:50.")
    assert _edits(turn) == [] and "replace the earlier one" in turn.text, turn.text
