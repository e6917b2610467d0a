"""Issue 27 item 4, School Scheduling classes the eighth blind batch (b8, measured once at be9bc17) and the last
branch's notes found: a withdrawal with only a pronoun ('leave it then') after a request the agent could not meet
accepts the current proposal; a start-time question without a leading question word ('Cobb starts when?') or a
bare follow-up after one ('and Everett?') is answered, never read as a request. Through the real agent
(`ScheduleAgent`); the phrasings are this file's own, not the batch's."""

from __future__ import annotations

import pytest

from core.schedule.agent import ScheduleAgent

FIX = "fix_start_time"
COBB, EVERETT, MUIR, LICK, GALILEO = "Cobb (Dr William L) ES", "Everett MS", "Muir (John) PK", "Lick (James) MS", "Galileo HS"
MENU = "(a)"
ASKS_WHAT = "What would you like"


def _agent() -> ScheduleAgent:
    agent = ScheduleAgent()
    agent.opening()
    return agent


def _edits(turn) -> list[tuple[str, str]]:
    return [(c["arguments"]["school"], c["arguments"]["time"]) for c in turn.tool_calls if c["name"] == FIX]


# 1. A pronoun withdrawal after an unachievable request ends the negotiation with the current proposal.


@pytest.mark.parametrize(
    "withdrawal",
    ["Ah well, leave it then.", "Fine, drop it, thanks.", "OK then, leave it at that.", "Right, skip it for now."],
)
def test_a_pronoun_withdrawal_after_an_unmet_request_accepts(withdrawal: str) -> None:
    agent = _agent()
    unmet = agent.respond("Could Muir begin any later? The little ones are still sleepy.")
    assert "latest" in unmet.text and _edits(unmet) == [], unmet.text
    turn = agent.respond(withdrawal)
    assert turn.tool_calls == [] and MENU not in turn.text, turn.text
    assert "go with proposal 1" in turn.text and MUIR in turn.text, turn.text


def test_leave_it_at_a_time_is_still_a_request() -> None:
    agent = _agent()
    agent.respond("Can Galileo start earlier?")
    turn = agent.respond("No, leave it at 8:40 please.")
    assert (GALILEO, "8:40 AM") in _edits(turn), turn.text


# 2. A start-time question without a leading question word is answered; nothing changes.


@pytest.mark.parametrize(
    ("question", "school"),
    [
        ("Everett begins when?", EVERETT),
        ("So Cobb is at what time these days?", COBB),
        ("where's Lick at right now?", LICK),
        ("Galileo's bell rings when?", GALILEO),
    ],
)
def test_a_start_question_without_a_leading_question_word_is_answered(question: str, school: str) -> None:
    agent = _agent()
    turn = agent.respond(question)
    assert turn.tool_calls == [] and ASKS_WHAT not in turn.text, turn.text
    assert f"{school} starts at {agent.session.current.result.schedule[school]}" in turn.text, turn.text


@pytest.mark.parametrize(("follow", "school"), [("and Everett?", EVERETT), ("What about Lick?", LICK), ("Muir?", MUIR)])
def test_a_bare_follow_up_after_a_start_answer_asks_the_same(follow: str, school: str) -> None:
    agent = _agent()
    agent.respond("When does Cobb start now?")
    turn = agent.respond(follow)
    assert turn.tool_calls == [] and ASKS_WHAT not in turn.text, turn.text
    assert f"{school} starts at {agent.session.current.result.schedule[school]}" in turn.text, turn.text


# Guards: requests stay requests.


@pytest.mark.parametrize(("text", "school"), [("Cobb later?", COBB), ("Lick a bit earlier?", LICK)])
def test_a_request_put_as_a_question_stays_a_request(text: str, school: str) -> None:
    turn = _agent().respond(text)
    assert [s for s, _ in _edits(turn)] == [school], turn.text


def test_a_follow_up_with_too_after_a_request_repeats_the_request() -> None:
    agent = _agent()
    agent.respond("Make Lick later, please.")
    turn = agent.respond("and Everett too?")
    assert EVERETT in [s for s, _ in _edits(turn)], turn.text


def test_a_bare_school_after_a_request_is_no_start_answer() -> None:
    agent = _agent()
    agent.respond("Make Lick later, please.")
    turn = agent.respond("and Everett?")
    assert "You asked, so I changed nothing" not in turn.text, turn.text


@pytest.mark.parametrize("text", ["Could Cobb start when Lick does?", "Can Everett begin when Galileo begins?"])
def test_a_when_inside_a_request_put_as_a_question_is_no_start_question(text: str) -> None:
    turn = _agent().respond(text)
    assert "You asked, so I changed nothing" not in turn.text, turn.text


# 4. 'Keep X where it was' after a turn that moved X puts it back where it was before that turn.


@pytest.mark.parametrize(
    ("first", "back", "school"),
    [
        ("Every high school after 8, please.", "Actually, keep Galileo where it was.", GALILEO),
        ("Every high school after 8, please.", "On second thought, Galileo should stay as it was.", GALILEO),
        ("The high schools should all start after 8.", "Hmm, Galileo back to where it was, please.", GALILEO),
    ],
)
def test_keep_where_it_was_puts_the_school_back(first: str, back: str, school: str) -> None:
    """'keep Galileo where it was' after it moved 7:50 -> 8:40 pinned it at 8:40: the opposite of the request."""
    agent = ScheduleAgent()
    start = dict(agent.opening().schedule)
    moved = dict(agent.respond(first).schedule) or start
    assert moved[school] != start[school]
    turn = agent.respond(back)
    after = dict(turn.schedule) or moved
    assert after[school] == start[school], turn.text
