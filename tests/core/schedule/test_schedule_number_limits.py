"""Issue 25, the schedule chat: a message with a number that cannot be read exactly (a line of 1,000 or 7,980
digits, 1e308, a 23-digit number) is answered with a refusal naming it before any reader sees it, and the
model stays as it was; scientific notation within the limits is read as its value ('2.5e3' is 2,500)."""

from __future__ import annotations

import time

import pytest

from core.schedule import offline
from core.schedule.agent import ScheduleAgent

REFUSED = {
    "1,000 digits": ("1" * 1_000, "a run of 1,000 digits"),
    "7,980 digits": ("1" * 7_980, "a run of 7,980 digits"),
    "1e308": ("Keep the peak under 1e308 students.", "'1e308': it is too large"),
    "23 digits": ("Keep the average change under 12345678901234567890123 minutes.", "23 significant digits"),
}


def test_unreadable_numbers_are_refused_before_reading_and_nothing_changes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    reads: list[str] = []
    read = offline._interpret

    def counted(low, *args):  # type: ignore[no-untyped-def]
        reads.append(low)
        return read(low, *args)

    monkeypatch.setattr(offline, "_interpret", counted)
    agent = ScheduleAgent()
    opening = agent.opening()
    for text, reason in REFUSED.values():
        started = time.monotonic()
        turn = agent.respond(text)
        assert time.monotonic() - started < 60  # a hang guard only
        assert "I can't read the number" in turn.text and reason in turn.text, turn.text
        assert "haven't changed anything" in turn.text and turn.tool_calls == []
        assert (turn.constraints, turn.schedule) == (opening.constraints, opening.schedule)
    assert reads == [], "a refused message reaches no reader"


def test_scientific_notation_is_read_as_its_value() -> None:
    plans = [
        offline.interpret(f"Keep the peak under {amount} students.", ScheduleAgent().session, offline.Memory())
        for amount in ("2.5e3", "2500")
    ]
    assert plans[0].calls == plans[1].calls
    assert [args["value"] for name, args in plans[0].calls if name == "add_objective_upper_bound"] == [25.0]
