"""Issue 27 item 4, two misses fixed generically: a yes/no question about a school's current time followed by a
request is one request (the question's time describes, it asks nothing), and an approval that leads a remark
asking nothing accepts the proposal."""

from __future__ import annotations

import pytest

from core.schedule.agent import ScheduleAgent

FIX = "fix_start_time"


def _calls(turn) -> list[tuple[str, str, str]]:
    return [(c["arguments"]["school"], c["arguments"]["time"], c["arguments"]["type"]) for c in turn.tool_calls
            if c["name"] == FIX]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "school", "time"),
    [
        ("Does Lick start at 8:40? Please put it at 9:30.", "Lick (James) MS", "9:30 AM"),
        ("Doesn't Galileo start at 8:40? I'd like it at 9:30.", "Galileo HS", "9:30 AM"),
        ("Did Balboa start at 7:50 last year? Put it at 8:40.", "Balboa HS", "8:40 AM"),
        ("Does Everett begin at 9:30 these days? Could you move it to 8:40?", "Everett MS", "8:40 AM"),
    ],
)
def test_a_question_about_the_current_time_then_a_request_is_one_request(text: str, school: str, time: str) -> None:
    agent = ScheduleAgent()
    agent.opening()
    turn = agent.respond(text)
    assert _calls(turn) == [(school, time, "fix")], turn.text
    assert "which one" not in turn.text


def test_the_question_alone_is_still_answered_and_changes_nothing() -> None:
    agent = ScheduleAgent()
    agent.opening()
    turn = agent.respond("Does Lick start at 8:40?")
    assert turn.tool_calls == [] and "changed nothing" in turn.text


@pytest.mark.parametrize(
    "remark",
    [
        "Great, that frees up two of my 9:30 buses.",
        "Nice, my daughter gets an extra half hour of sleep.",
        "Good, the teachers union asked for exactly that.",
        "Excellent. The principals will be relieved!",
    ],
)
def test_an_approval_leading_a_remark_that_asks_nothing_accepts(remark: str) -> None:
    agent = ScheduleAgent()
    agent.opening()
    agent.respond("Everett later please")
    turn = agent.respond(remark)
    assert turn.tool_calls == []
    assert "we'll go with proposal 2" in turn.text


@pytest.mark.parametrize(
    ("remark", "acts"),
    [("Great, but the parents won't like it.", False), ("Great, now put Lick at 9:30.", True)],
)
def test_an_approval_followed_by_a_qualification_or_a_request_does_not_accept(remark: str, acts: bool) -> None:
    agent = ScheduleAgent()
    agent.opening()
    agent.respond("Everett later please")
    turn = agent.respond(remark)
    assert "we'll go with proposal" not in turn.text
    assert bool(turn.tool_calls) is acts
