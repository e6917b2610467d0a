"""Shared helpers of the School Scheduling chat tests: an agent past its opening, the fixes a turn made."""

from __future__ import annotations

from core.schedule.agent import ScheduleAgent

FIX = "fix_start_time"


def opened_agent() -> ScheduleAgent:
    """A fresh offline agent that has made its opening proposal."""
    agent = ScheduleAgent()
    agent.opening()
    return agent


def fix_edits(turn) -> list[tuple[str, str, str]]:
    """(school, time, type) of every start-time fix a turn called."""
    return [
        (c["arguments"]["school"], c["arguments"]["time"], c["arguments"]["type"])
        for c in turn.tool_calls
        if c["name"] == FIX
    ]
